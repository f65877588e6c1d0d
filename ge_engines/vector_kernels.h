/* ge_engines/vector_kernels.h — fast float32 kernels for VectorEngine and
 * AI Core (issue 16: no reference kernel on a hot path).
 *
 * Part of ge. ge_vector_fast_kernel(n) hands out a kernel for a float32
 * node whose op has one here (element-wise math and activations, 2-D
 * pooling (MaxPool and AveragePool of dilation 1 by whole planes, a
 * column-max (sum) pass and a row-max (sum) pass over the flattened plane), softmax and norms, ReduceSum/Mean/Max/Min over adjacent axes,
 * Resize and Upsample over the last two axes with their taps made once per
 * shape, Transpose, Where (a bool condition; operands shaped like the
 * output, a suffix of it or one value)), else NULL so the caller takes the reference kernel
 * (host_cpu.h). ge_vector_activation applies an activation in place for
 * other engines' epilogues (AI Core's). A fast kernel checks its runtime
 * inputs and calls the reference kernel itself for anything off its paths
 * (other dtypes, rare attributes, bad inputs, whose errors the reference
 * words), so the answers are the reference's up to float rounding.
 *
 * Attributes beyond ONNX that AI Core's optimiser sets (ai_core.h): a
 * BatchNormalization's _fused_activation Relu; on a pool, an input
 * prologue (_pre_affine, a float32 [2, C] of scale and shift per channel,
 * and _pre_activation Relu, applied to each plane on the way in) and an
 * epilogue (_fused_inputs = 1: input 1 a bias per output channel; then
 * _fused_activation Relu). The reference's cases run them apart.
 *
 * SIMD is chosen at run time (no -march needed): the loops are written once
 * with GCC/clang vector types and compiled three times (GE__VK_HELPERS),
 * for AVX-512 (16 lanes), AVX2+FMA (8) and the base target (4);
 * __builtin_cpu_supports picks one per call. The math's polynomials fuse
 * their multiply-adds where the set has FMA (GE__VK_FMA_*), elsewhere
 * contraction stays off: AVX2 and AVX-512 give the same bits, the base set
 * rounds differently within the same bounds. GCC and clang get the fast
 * kernels; other compilers (no GNU vector types), or a build with
 * GE_VECTOR_NO_SIMD, run the reference.
 *
 * Math accuracy (float32, measured by tests/test_vector_fast.c against the
 * reference in double): exp, expm1, log within 2 ulp; sigmoid, tanh, erf
 * within 3 ulp; gelu within 6 ulp, 8 in its negative tail. Softmax takes e^(x - max) as 0
 * below e^-86 (a denormal result would cost a microcode assist per lane).
 * The SiLU of AI Core's conv epilogues has its own AVX-512 form (FMA,
 * rcp14): within 4 ulp, not the portable sets' bits; ge_vector_silu_v16
 * (declared with the API) hands it to those epilogues to inline on their
 * output registers.
 *
 * Heavy loops split their work with ge_kernel_parallel_for (the executor's
 * threads; serial when it gives none).
 *
 * Include after (or instead of) ge_graph.h; define
 * GE_VECTOR_KERNELS_IMPLEMENTATION (or GE_IMPLEMENTATION) in one
 * translation unit; host_cpu.h's implementation must be compiled too.
 * Thread safety: no state outside the kernel context.
 */
#ifndef GE_ENGINE_VECTOR_KERNELS_H
#define GE_ENGINE_VECTOR_KERNELS_H

#include "ge_graph.h"
#include "host_cpu.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A fast float32 kernel for node n, or NULL (then use the reference). */
GE_API ge_kernel_fn ge_vector_fast_kernel(const ge_node *n);
/* n's fast kernel when it has state to build at load (its prepare call,
 * GE_KERNEL_PREPARE: attributes parsed once), else NULL. */
GE_API ge_kernel_fn ge_vector_fast_prepare(const ge_node *n);

/* Activations applied in place by other engines' epilogues (AI Core). */
enum { GE_VECTOR_ACT_RELU = 1, GE_VECTOR_ACT_LEAKYRELU, GE_VECTOR_ACT_CLIP, GE_VECTOR_ACT_SIGMOID,
       GE_VECTOR_ACT_TANH, GE_VECTOR_ACT_HARDSIGMOID, GE_VECTOR_ACT_HARDSWISH, GE_VECTOR_ACT_SILU,
       GE_VECTOR_ACT_GELU, GE_VECTOR_ACT_GELU_TANH };
/* y[0..n) = act(y) on this thread with the best SIMD of the CPU: LeakyRelu
 * y < 0 ? alpha y : y; Clip to [alpha, beta]; HardSigmoid clamp(alpha y +
 * beta, 0, 1); HardSwish y clamp(alpha y + beta, 0, 1); SiLU y Sigmoid(y)
 * (the same bits as a Sigmoid node then a Mul node, except at AVX-512:
 * within 4 ulp of it); GELU and its tanh form the same bits as a Gelu
 * node (approximate "none" or "tanh"). NaN stays NaN.
 * Returns 0 (and does nothing) without the SIMD kernels or for another act. */
GE_API int ge_vector_activation(int act, float alpha, float beta, float *y, int64_t n);

/* SiLU of 16 lanes at AVX-512 (GE_VECTOR_SILU_V16 defined where it
 * exists), inline for other engines' register epilogues (AI Core's convs
 * apply it to an output vector before its one store; a call per row cost
 * as much as the math on 7x7 maps): the form of ge_vector_activation's
 * SiLU at AVX-512 (the same bits), described in the implementation. */
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__)) && !defined(GE_VECTOR_NO_SIMD)
#include <immintrin.h>
#define GE_VECTOR_SILU_V16 1
static inline __attribute__((always_inline, target("avx512f,fma"))) __m512 ge_vector_silu_v16(__m512 x) {
  const __m512i sign = _mm512_set1_epi32((int32_t)0x80000000u);
  __m512 t = _mm512_castsi512_ps(_mm512_or_si512(_mm512_castps_si512(x), sign)); /* -|x| */
  __m512 n, r, p, e, d, q, num;
  t = _mm512_max_ps(t, _mm512_set1_ps(-104.0f)); /* NaN lanes take -104: the product with x keeps NaN */
  n = _mm512_roundscale_ps(_mm512_mul_ps(t, _mm512_set1_ps(1.44269504088896341f)),
                           _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  r = _mm512_fnmadd_ps(n, _mm512_set1_ps(0.693145751953125f), t);
  r = _mm512_fnmadd_ps(n, _mm512_set1_ps(1.428606765330187e-06f), r);
  p = _mm512_fmadd_ps(r, _mm512_set1_ps(1.0f / 40320), _mm512_set1_ps(1.0f / 5040));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f / 720));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f / 120));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f / 24));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f / 6));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(0.5f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f));
  e = _mm512_scalef_ps(p, n);
  d = _mm512_add_ps(e, _mm512_set1_ps(1.0f));
  q = _mm512_rcp14_ps(d);
  q = _mm512_fmadd_ps(q, _mm512_fnmadd_ps(d, q, _mm512_set1_ps(1.0f)), q);
  num = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(x, _mm512_setzero_ps(), _CMP_LT_OQ), _mm512_set1_ps(1.0f), e);
  return _mm512_mul_ps(x, _mm512_mul_ps(num, q));
}
#endif

#ifdef __cplusplus
}
#endif
#endif /* GE_ENGINE_VECTOR_KERNELS_H */

#if defined(GE_IMPLEMENTATION) || defined(GE_VECTOR_KERNELS_IMPLEMENTATION)
#ifndef GE_VECTOR_KERNELS_IMPLEMENTATION_DONE
#define GE_VECTOR_KERNELS_IMPLEMENTATION_DONE

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__) && !defined(GE_VECTOR_NO_SIMD)
#define GE__VK_ON 1
#else
#define GE__VK_ON 0
#endif

#ifdef __cplusplus
extern "C" {
#endif

#if GE__VK_ON

/* No contraction into FMA (clang's default), so every instruction set
 * rounds the same way; restored at the end of this section. */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

/* GCC notes that 64-byte vector arguments changed ABI without AVX-512; all
 * such functions here are static and inlined, so no ABI is crossed. The
 * note comes at the end of the translation unit, hence no pop. */
#if !defined(__clang__)
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

/* ------------------------------------------------------- vector basics */

/* Floats of stack a pool row may use for padded copies of its input rows. */
#define GE__VK_POOL_PAD 4096

/* Lanes per instruction set: SSE, AVX2 and AVX-512 registers. */
typedef float ge__vk_v_base __attribute__((vector_size(16)));
typedef int32_t ge__vk_vi_base __attribute__((vector_size(16)));
typedef float ge__vk_v_avx2 __attribute__((vector_size(32)));
typedef int32_t ge__vk_vi_avx2 __attribute__((vector_size(32)));
typedef float ge__vk_v_avx512 __attribute__((vector_size(64)));
typedef int32_t ge__vk_vi_avx512 __attribute__((vector_size(64)));
#define GE__VK_W_base 4
#define GE__VK_W_avx2 8
#define GE__VK_W_avx512 16
/* clang-format off */
#define GE__VK_IOTA_base {0, 1, 2, 3}
#define GE__VK_IOTA_avx2 {0, 1, 2, 3, 4, 5, 6, 7}
#define GE__VK_IOTA_avx512 {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}
/* clang-format on */
/* The even lanes of the concatenation a:b (a stride-2 load). */
#if defined(__clang__)
#define GE__VK_EVEN_base(a, b) __builtin_shufflevector(a, b, 0, 2, 4, 6)
#define GE__VK_EVEN_avx2(a, b) __builtin_shufflevector(a, b, 0, 2, 4, 6, 8, 10, 12, 14)
#define GE__VK_EVEN_avx512(a, b)                                                                                       \
  __builtin_shufflevector(a, b, 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30)
#else
#define GE__VK_EVEN_base(a, b) __builtin_shuffle(a, b, (ge__vk_vi_base){0, 2, 4, 6})
#define GE__VK_EVEN_avx2(a, b) __builtin_shuffle(a, b, (ge__vk_vi_avx2){0, 2, 4, 6, 8, 10, 12, 14})
#define GE__VK_EVEN_avx512(a, b)                                                                                       \
  __builtin_shuffle(a, b, (ge__vk_vi_avx512){0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30})
#endif
/* The halving steps of ge__vk_hfold_<isa> (v, max and w in scope). */
#if defined(__clang__)
#define GE__VK_HFOLD_STEPS(isa)                                                                                        \
  float t[GE__VK_W_##isa];                                                                                             \
  int k;                                                                                                               \
  memcpy(t, &v, sizeof t);                                                                                             \
  for (w = GE__VK_W_##isa / 2; w >= 1; w /= 2)                                                                         \
    for (k = 0; k < w; k++)                                                                                            \
      t[k] = max ? ((t[k + w] > t[k] || t[k + w] != t[k + w]) ? t[k + w] : t[k]) : t[k] + t[k + w];                    \
  return t[0];
#else
#define GE__VK_HFOLD_STEPS(isa)                                                                                        \
  const ge__vk_vi_##isa iota = GE__VK_IOTA_##isa;                                                                      \
  _Pragma("GCC unroll 4") for (w = GE__VK_W_##isa / 2; w >= 1; w /= 2) {                                               \
    ge__vk_v_##isa u = __builtin_shuffle(v, iota ^ w);                                                                 \
    v = max ? ge__vk_binary_v_##isa(GE__VK_B_MAX, u, v) : v + u;                                                       \
  }                                                                                                                    \
  return v[0];
#endif
/* Max and Min as numpy's (a when greater, or less, or NaN; else b, so a
 * NaN on either side wins): a compare of each kind, an or and a blend; at
 * AVX-512 two instructions, MAXPS/MINPS (b on ties and wherever either is
 * NaN) then VFIXUPIMMPS, whose table puts QNaN(a) in the lanes where a is
 * a NaN (classes QNaN and SNaN) and leaves the others (3x3 pools 10-50%
 * faster in vector_bench). */
#define GE__VK_MAX_base(a, b) ge__vk_sel_base((a > b) | (a != a), a, b)
#define GE__VK_MIN_base(a, b) ge__vk_sel_base((a < b) | (a != a), a, b)
#define GE__VK_MAX_avx2(a, b) ge__vk_sel_avx2((a > b) | (a != a), a, b)
#define GE__VK_MIN_avx2(a, b) ge__vk_sel_avx2((a < b) | (a != a), a, b)
#if defined(__x86_64__) || defined(__i386__)
#define GE__VK_NAN_FIX_avx512(r, a) \
  ((ge__vk_v_avx512)_mm512_fixupimm_ps((__m512)(r), (__m512)(a), _mm512_set1_epi32(0x22), 0))
#define GE__VK_MAX_avx512(a, b) GE__VK_NAN_FIX_avx512(_mm512_max_ps((__m512)(a), (__m512)(b)), a)
#define GE__VK_MIN_avx512(a, b) GE__VK_NAN_FIX_avx512(_mm512_min_ps((__m512)(a), (__m512)(b)), a)
#else
#define GE__VK_MAX_avx512(a, b) ge__vk_sel_avx512((a > b) | (a != a), a, b)
#define GE__VK_MIN_avx512(a, b) ge__vk_sel_avx512((a < b) | (a != a), a, b)
#endif
/* Forced inlining lets the switch on a constant op fold away; without optimisation nothing
 * folds, so forcing it would only copy every op's code into every caller (30 s to compile). */
#ifdef __OPTIMIZE__
#define GE__VK_INLINE static inline __attribute__((always_inline))
#else
#define GE__VK_INLINE static inline
#endif

/* Instruction sets, best last; one copy of each hot loop per set. */
enum { GE__VK_ISA_BASE, GE__VK_ISA_AVX2, GE__VK_ISA_AVX512 };
#if defined(__x86_64__) || defined(__i386__)
#define GE__VK_X86 1
#define GE__VK_ATTR_base
#define GE__VK_ATTR_avx2 __attribute__((target("avx2,fma")))
#define GE__VK_ATTR_avx512 __attribute__((target("avx512f")))
#else
#define GE__VK_X86 0
#define GE__VK_ATTR_base
#define GE__VK_ATTR_avx2
#define GE__VK_ATTR_avx512
#endif

/* A row's tail (n < lanes floats): masked loads and stores on AVX2 and
 * AVX-512 (a variable-length memcpy would be a libc call per tail). */
#if GE__VK_X86
#include <immintrin.h>
#define GE__VK_LOAD_PART_avx512(p, n) ((ge__vk_v_avx512)_mm512_maskz_loadu_ps((__mmask16)((1u << (n)) - 1u), p))
#define GE__VK_STORE_PART_avx512(p, v, n) _mm512_mask_storeu_ps(p, (__mmask16)((1u << (n)) - 1u), (__m512)(v))
#define GE__VK_LOAD_PART_avx2(p, n) ((ge__vk_v_avx2)_mm256_maskload_ps(p, ge__vk_tail_mask_avx2(n)))
#define GE__VK_STORE_PART_avx2(p, v, n) _mm256_maskstore_ps(p, ge__vk_tail_mask_avx2(n), (__m256)(v))
GE__VK_INLINE GE__VK_ATTR_avx2 __m256i ge__vk_tail_mask_avx2(int64_t n) {
  const ge__vk_vi_avx2 iota = GE__VK_IOTA_avx2;
  return (__m256i)(iota < (int32_t)n);
}
#else
#define GE__VK_LOAD_PART_avx512(p, n) ge__vk_load_copy_avx512(p, n)
#define GE__VK_STORE_PART_avx512(p, v, n) ge__vk_store_copy_avx512(p, v, n)
#define GE__VK_LOAD_PART_avx2(p, n) ge__vk_load_copy_avx2(p, n)
#define GE__VK_STORE_PART_avx2(p, v, n) ge__vk_store_copy_avx2(p, v, n)
#endif
/* a * b + c: fused (one rounding) where the set has FMA, so AVX2 and
 * AVX-512 give the same bits; the base set rounds the product first. */
#if GE__VK_X86
#define GE__VK_FMA_avx512(a, b, c) ((ge__vk_v_avx512)_mm512_fmadd_ps((__m512)(a), (__m512)(b), (__m512)(c)))
#define GE__VK_FMA_avx2(a, b, c) ((ge__vk_v_avx2)_mm256_fmadd_ps((__m256)(a), (__m256)(b), (__m256)(c)))
#define GE__VK_FUSED_avx512 1
#define GE__VK_FUSED_avx2 1
#else
#define GE__VK_FMA_avx512(a, b, c) ((a) * (b) + (c))
#define GE__VK_FMA_avx2(a, b, c) ((a) * (b) + (c))
#define GE__VK_FUSED_avx512 0
#define GE__VK_FUSED_avx2 0
#endif
#define GE__VK_FMA_base(a, b, c) ((a) * (b) + (c))
#define GE__VK_FUSED_base 0
#define GE__VK_LOAD_PART_base(p, n) ge__vk_load_copy_base(p, n)
#define GE__VK_STORE_PART_base(p, v, n) ge__vk_store_copy_base(p, v, n)

/* The best set this CPU has (libgcc's cached cpuid: cheap per call). */
static int ge__vk_isa(void) {
#if GE__VK_X86
  if (__builtin_cpu_supports("avx512f")) return GE__VK_ISA_AVX512;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return GE__VK_ISA_AVX2;
#endif
  return GE__VK_ISA_BASE;
}

/* ------------------------------------------------------------ the math */

/* ------------------------------------------------- element-wise rows */

/* Unary ops of the fast path. */
/* clang-format off */
#define GE__VK_UNARY_OPS(X, isa)                                                                                       \
  X(RELU, isa) X(NEG, isa) X(ABS, isa) X(EXP, isa) X(LOG, isa) X(SQRT, isa) X(RECIP, isa) X(SIGMOID, isa)              \
  X(TANH, isa) X(ERF, isa) X(GELU, isa) X(GELU_TANH, isa) X(SOFTPLUS, isa) X(SOFTSIGN, isa) X(MISH, isa)               \
  X(HARDSIGMOID, isa) X(HARDSWISH, isa) X(LEAKYRELU, isa) X(THRESHOLDEDRELU, isa) X(ELU, isa) X(SELU, isa)             \
  X(CELU, isa) X(CLIP, isa) X(SQUARE, isa) X(POW_HALF, isa) X(POWC, isa) X(ONE, isa) X(AFFINE, isa)             \
  X(HARDSWISH_AB, isa)
/* clang-format on */
#define GE__VK_ENUM_U(name, isa) GE__VK_U_##name,
enum { GE__VK_UNARY_OPS(GE__VK_ENUM_U, _) GE__VK_U_COUNT };

/* Attributes of a unary op, read once per call. */
typedef struct ge__vk_upar {
  float alpha, beta, gamma, delta;
} ge__vk_upar;

/* Binary ops: numpy's maximum/minimum (a NaN operand gives NaN); PRelu. */
enum { GE__VK_B_ADD, GE__VK_B_SUB, GE__VK_B_MUL, GE__VK_B_DIV, GE__VK_B_MAX, GE__VK_B_MIN, GE__VK_B_PRELU };

/* Reductions of x[0..n): sum, numpy max, sum of (x - m)^2, sum of x - m. */
enum { GE__VK_R_SUM, GE__VK_R_MAX, GE__VK_R_SSD, GE__VK_R_DEV };

/* Every vector helper, compiled once per instruction set (GCC lowers
 * vector code by the target of the function it is written in, so each set
 * needs its own copy before inlining). */
#define GE__VK_HELPERS(isa)                                                                                            \
  GE__VK_INLINE GE__VK_ATTR_##isa ge__vk_v_##isa ge__vk_splat_##isa(float f) {                                         \
    ge__vk_v_##isa z = {0};                                                                                            \
    return z + f;                                                                                                      \
  }                                                                                                                    \
  /* a * b + c, fused where the set has FMA (GE__VK_FMA_*) */                                                          \
  GE__VK_INLINE GE__VK_ATTR_##isa ge__vk_v_##isa ge__vk_mad_##isa(ge__vk_v_##isa a, ge__vk_v_##isa b, float c) {       \
    return GE__VK_FMA_##isa(a, b, ge__vk_splat_##isa(c));                                                              \
  }                                                                                                                    \
  GE__VK_INLINE GE__VK_ATTR_##isa ge__vk_vi_##isa ge__vk_splati_##isa(int32_t k) {                                     \
    ge__vk_vi_##isa z = {0};                                                                                           \
    return z + k;                                                                                                      \
  }                                                                                                                    \
  GE__VK_INLINE GE__VK_ATTR_##isa ge__vk_v_##isa ge__vk_load_##isa(const float *p) {                                   \
    ge__vk_v_##isa v;                                                                                                  \
    memcpy(&v, p, sizeof v);                                                                                           \
    return v;                                                                                                          \
  }                                                                                                                    \
  GE__VK_INLINE GE__VK_ATTR_##isa void ge__vk_store_##isa(float *p, ge__vk_v_##isa v) { memcpy(p, &v, sizeof v); }     \
  /* The first n < 16 floats of p, zeros after. */                                                                     \
  GE__VK_INLINE GE__VK_ATTR_##isa ge__vk_v_##isa ge__vk_load_copy_##isa(const float *p, int64_t n) {                   \
    ge__vk_v_##isa v = {0};                                                                                            \
    int64_t k;                                                                                                         \
    for (k = 0; k < n; k++)                                                                                            \
      v[k] = p[k];                                                                                                     \
    return v;                                                                                                          \
  }                                                                                                                    \
  GE__VK_INLINE GE__VK_ATTR_##isa void ge__vk_store_copy_##isa(float *p, ge__vk_v_##isa v, int64_t n) {                \
    int64_t k;                                                                                                         \
    for (k = 0; k < n; k++)                                                                                            \
      p[k] = v[k];                                                                                                     \
  }                                                                                                                    \
  GE__VK_INLINE GE__VK_ATTR_##isa ge__vk_v_##isa ge__vk_load_part_##isa(const float *p, int64_t n) {                   \
    return GE__VK_LOAD_PART_##isa(p, n);                                                                               \
  }                                                                                                                    \
  GE__VK_INLINE GE__VK_ATTR_##isa void ge__vk_store_part_##isa(float *p, ge__vk_v_##isa v, int64_t n) {                \
    GE__VK_STORE_PART_##isa(p, v, n);                                                                                  \
  }                                                                                                                    \
  GE__VK_INLINE GE__VK_ATTR_##isa ge__vk_vi_##isa ge__vk_bits_##isa(ge__vk_v_##isa v) {                                \
    ge__vk_vi_##isa r;                                                                                                 \
    memcpy(&r, &v, sizeof r);                                                                                          \
    return r;                                                                                                          \
  }                                                                                                                    \
  GE__VK_INLINE GE__VK_ATTR_##isa ge__vk_v_##isa ge__vk_from_bits_##isa(ge__vk_vi_##isa b) {                           \
    ge__vk_v_##isa r;                                                                                                  \
    memcpy(&r, &b, sizeof r);                                                                                          \
    return r;                                                                                                          \
  }                                                                                                                    \
  /* m ? a : b, lane by lane (m: all-ones or zero lanes from a comparison). */                                         \
  GE__VK_INLINE GE__VK_ATTR_##isa ge__vk_v_##isa ge__vk_sel_##isa(ge__vk_vi_##isa m, ge__vk_v_##isa a,                 \
                                                                  ge__vk_v_##isa b) {                                  \
    return ge__vk_from_bits_##isa((ge__vk_bits_##isa(a) & m) | (ge__vk_bits_##isa(b) & ~m));                           \
  }                                                                                                                    \
  GE__VK_INLINE GE__VK_ATTR_##isa ge__vk_vi_##isa ge__vk_seli_##isa(ge__vk_vi_##isa m, ge__vk_vi_##isa a,              \
                                                                    ge__vk_vi_##isa b) {                               \
    return (a & m) | (b & ~m);                                                                                         \
  }                                                                                                                    \
  GE__VK_INLINE GE__VK_ATTR_##isa ge__vk_v_##isa ge__vk_abs_##isa(ge__vk_v_##isa x) {                                  \
    return ge__vk_from_bits_##isa(ge__vk_bits_##isa(x) & 0x7fffffff);                                                  \
  }                                                                                                                    \
  /* x with the sign of s. */                                                                                          \
  GE__VK_INLINE GE__VK_ATTR_##isa ge__vk_v_##isa ge__vk_copysign_##isa(ge__vk_v_##isa x, ge__vk_v_##isa s) {           \
    return ge__vk_from_bits_##isa((ge__vk_bits_##isa(x) & 0x7fffffff) |                                                \
                                  (ge__vk_bits_##isa(s) & (int32_t)0x80000000u));                                      \
  }                                                                                                                    \
  GE__VK_INLINE GE__VK_ATTR_##isa ge__vk_v_##isa ge__vk_min_##isa(ge__vk_v_##isa a, ge__vk_v_##isa b) {                \
    return ge__vk_sel_##isa(a < b, a, b);                                                                              \
  }                                                                                                                    \
  GE__VK_INLINE GE__VK_ATTR_##isa ge__vk_v_##isa ge__vk_max_##isa(ge__vk_v_##isa a, ge__vk_v_##isa b) {                \
    return ge__vk_sel_##isa(a > b, a, b);                                                                              \
  }                                                                                                                    \
  /* Clamps to [lo, hi]; NaN lanes stay NaN. */                                                                        \
  GE__VK_INLINE GE__VK_ATTR_##isa ge__vk_v_##isa ge__vk_clamp_##isa(ge__vk_v_##isa x, float lo, float hi) {            \
    x = ge__vk_sel_##isa(x < lo, ge__vk_splat_##isa(lo), x);                                                           \
    return ge__vk_sel_##isa(x > hi, ge__vk_splat_##isa(hi), x);                                                        \
  }                                                                                                                    \
  /* c[0] + c[1] x + ... + c[n] x^n (n >= 1) by Horner's rule in x^2 over the                                         \
   * pairs c[2k] + c[2k+1] x: the pairs do not wait on each other, so the                                               \
   * dependent chain is half Horner's (the latency, not the operations, bounds                                         \
   * these kernels). */                                                                                                \
  GE__VK_INLINE GE__VK_ATTR_##isa ge__vk_v_##isa ge__vk_poly_##isa(ge__vk_v_##isa x, const float *c, int n) {          \
    ge__vk_v_##isa x2 = x * x, acc;                                                                                    \
    int k;                                                                                                             \
    acc = n & 1 ? ge__vk_mad_##isa(x, ge__vk_splat_##isa(c[n]), c[n - 1]) : ge__vk_splat_##isa(c[n]);                  \
    _Pragma("GCC unroll 8") for (k = n / 2 - 1; k >= 0; k--)                                                                \
      acc = GE__VK_FMA_##isa(x2, acc, ge__vk_mad_##isa(x, ge__vk_splat_##isa(c[2 * k + 1]), c[2 * k]));                \
    return acc;                                                                                                        \
  }                                                                                                                    \
  /* Rounds x*log2(e) to an integer n (|n| < 2^22) by the 1.5*2^23 trick:                                              \
   * returns n as float and as int lanes. */                                                                           \
  GE__VK_INLINE GE__VK_ATTR_##isa ge__vk_v_##isa ge__vk_round_log2e_##isa(ge__vk_v_##isa x, ge__vk_vi_##isa *ni) {     \
    const float magic = 12582912.0f;                                                                                   \
    ge__vk_v_##isa t = ge__vk_mad_##isa(x, ge__vk_splat_##isa(1.44269504088896341f), magic);                           \
    *ni = ge__vk_bits_##isa(t) - ge__vk_bits_##isa(ge__vk_splat_##isa(magic));                                         \
    return t - magic;                                                                                                  \
  }                                                                                                                    \
  /* x - n*ln2 with ln2 in two parts (the first has trailing zero bits, so                                             \
   * n*hi is exact for |n| < 2^10); fused where the set has FMA. */                                                    \
  GE__VK_INLINE GE__VK_ATTR_##isa ge__vk_v_##isa ge__vk_reduce_ln2_##isa(ge__vk_v_##isa x, ge__vk_v_##isa n) {         \
    ge__vk_v_##isa r = GE__VK_FMA_##isa(-n, ge__vk_splat_##isa(0.693145751953125f), x);                                \
    return GE__VK_FMA_##isa(-n, ge__vk_splat_##isa(1.428606765330187e-06f), r);                                        \
  }                                                                                                                    \
  /* 2^n for int lanes n in [-150, 128] applied to p: two halves so that each                                          \
   * power is a normal float and the product rounds once into denormals or                                             \
   * overflows to inf. */                                                                                              \
  GE__VK_INLINE GE__VK_ATTR_##isa ge__vk_v_##isa ge__vk_ldexp_##isa(ge__vk_v_##isa p, ge__vk_vi_##isa n) {             \
    ge__vk_vi_##isa n1 = n >> 1, n2 = n - n1;                                                                          \
    return p * ge__vk_from_bits_##isa((n1 + 127) << 23) * ge__vk_from_bits_##isa((n2 + 127) << 23);                    \
  }                                                                                                                    \
  /* e^r for r in [-0.35, 0.35] by its Taylor series to r^7 (the r^8/8!                                               \
   * remainder is < 6e-9 relative). */                                                                                 \
  GE__VK_INLINE GE__VK_ATTR_##isa ge__vk_v_##isa ge__vk_exp_reduced_##isa(ge__vk_v_##isa r) {                          \
    ge__vk_v_##isa p;                                                                                                  \
    p = ge__vk_mad_##isa(r, ge__vk_splat_##isa(1.0f / 40320), 1.0f / 5040);                                             \
    p = ge__vk_mad_##isa(r, p, 1.0f / 720);                                                                             \
    p = ge__vk_mad_##isa(r, p, 1.0f / 120);                                                                             \
    p = ge__vk_mad_##isa(r, p, 1.0f / 24);                                                                              \
    p = ge__vk_mad_##isa(r, p, 1.0f / 6);                                                                               \
    p = ge__vk_mad_##isa(r, p, 0.5f);                                                                                   \
    p = ge__vk_mad_##isa(r, p, 1.0f);                                                                                   \
    return 1.0f + r * p;                                                                                               \
  }                                                                                                                    \
  /* e^x: n = round(x/ln2), r = x - n ln2 in [-0.35, 0.35], 2^n e^r. */                                                \
  GE__VK_INLINE GE__VK_ATTR_##isa ge__vk_v_##isa ge__vk_exp_##isa(ge__vk_v_##isa x) {                                  \
    ge__vk_vi_##isa ni;                                                                                                \
    ge__vk_v_##isa xc = ge__vk_clamp_##isa(x, -104.0f, 89.0f), n = ge__vk_round_log2e_##isa(xc, &ni),                  \
                   r = ge__vk_reduce_ln2_##isa(xc, n);                                                                 \
    return ge__vk_sel_##isa(x != x, x, ge__vk_ldexp_##isa(ge__vk_exp_reduced_##isa(r), ni));                           \
  }                                                                                                                    \
  /* e^x for x in [-87, 0] (no NaN): one power of two, nothing clamped. */                                              \
  GE__VK_INLINE GE__VK_ATTR_##isa ge__vk_v_##isa ge__vk_exp_nonpos_##isa(ge__vk_v_##isa x) {                           \
    ge__vk_vi_##isa ni;                                                                                                \
    ge__vk_v_##isa n = ge__vk_round_log2e_##isa(x, &ni), r = ge__vk_reduce_ln2_##isa(x, n);                            \
    return ge__vk_exp_reduced_##isa(r) * ge__vk_from_bits_##isa((ni + 127) << 23);                                     \
  }                                                                                                                    \
  /* e^x - 1 for x <= 0 (positive lanes give e^0 - 1 = 0) without                                                      \
   * cancellation near 0: 2^n (e^r - 1) + (2^n - 1), where e^r - 1 is the                                              \
   * Taylor series to r^9 (remainder < 1e-9 relative); below -30 it is -1. */                                          \
  GE__VK_INLINE GE__VK_ATTR_##isa ge__vk_v_##isa ge__vk_expm1_neg_##isa(ge__vk_v_##isa x) {                            \
    ge__vk_vi_##isa ni;                                                                                                \
    ge__vk_v_##isa xc = ge__vk_clamp_##isa(x, -40.0f, 0.0f), n = ge__vk_round_log2e_##isa(xc, &ni),                    \
                   r = ge__vk_reduce_ln2_##isa(xc, n), p, s;                                                           \
    p = ge__vk_mad_##isa(r, ge__vk_splat_##isa(1.0f / 362880), 1.0f / 40320);                                           \
    p = ge__vk_mad_##isa(r, p, 1.0f / 5040);                                                                            \
    p = ge__vk_mad_##isa(r, p, 1.0f / 720);                                                                             \
    p = ge__vk_mad_##isa(r, p, 1.0f / 120);                                                                             \
    p = ge__vk_mad_##isa(r, p, 1.0f / 24);                                                                              \
    p = ge__vk_mad_##isa(r, p, 1.0f / 6);                                                                               \
    p = ge__vk_mad_##isa(r, p, 0.5f);                                                                                   \
    p = r + r * r * p;                                                                                                 \
    s = ge__vk_from_bits_##isa((ni + 127) << 23); /* 2^n, n in [-58, 0] */                                             \
    p = s * p + (s - 1.0f);                                                                                            \
    p = ge__vk_sel_##isa(x < -30.0f, ge__vk_splat_##isa(-1.0f), p);                                                    \
    return ge__vk_sel_##isa(x != x, x, p);                                                                             \
  }                                                                                                                    \
  /* log(x): x = m 2^e with m in [sqrt(1/2), sqrt(2)), log m = 2 atanh(s),                                             \
   * s = (m-1)/(m+1) in [-0.172, 0.172], by its series to s^11. Denormals are                                          \
   * scaled up first; x < 0 gives NaN, 0 gives -inf, inf gives inf. */                                                 \
  GE__VK_INLINE GE__VK_ATTR_##isa ge__vk_v_##isa ge__vk_log_##isa(ge__vk_v_##isa x) {                                  \
    ge__vk_vi_##isa tiny = x < FLT_MIN, b, e;                                                                          \
    ge__vk_v_##isa xs = ge__vk_sel_##isa(tiny, x * 8388608.0f, x), m, s, s2, p, ef;                                    \
    b = ge__vk_bits_##isa(xs);                                                                                         \
    e = ((b >> 23) & 0xff) - 127;                                                                                      \
    m = ge__vk_from_bits_##isa((b & 0x007fffff) | 0x3f800000); /* in [1, 2) */                                         \
    {                                                                                                                  \
      ge__vk_vi_##isa hi = m > 1.41421356237f;                                                                         \
      m = ge__vk_sel_##isa(hi, m * 0.5f, m);                                                                           \
      e = e + (hi & 1);                                                                                                \
    }                                                                                                                  \
    ef = __builtin_convertvector(e, ge__vk_v_##isa) -                                                                  \
         ge__vk_sel_##isa(tiny, ge__vk_splat_##isa(23.0f), ge__vk_splat_##isa(0.0f));                                  \
    s = (m - 1.0f) / (m + 1.0f);                                                                                       \
    s2 = s * s;                                                                                                        \
    p = ge__vk_mad_##isa(s2, ge__vk_splat_##isa(1.0f / 11), 1.0f / 9);                                                  \
    p = ge__vk_mad_##isa(s2, p, 1.0f / 7);                                                                              \
    p = ge__vk_mad_##isa(s2, p, 1.0f / 5);                                                                              \
    p = ge__vk_mad_##isa(s2, p, 1.0f / 3);                                                                              \
    p = 2.0f * s + 2.0f * s * s2 * p;                                                                                  \
    p = ef * 1.428606765330187e-06f + p + ef * 0.693145751953125f;                                                     \
    p = ge__vk_sel_##isa(x == 0.0f, ge__vk_splat_##isa(-HUGE_VALF), p);                                                \
    p = ge__vk_sel_##isa(x < 0.0f, ge__vk_splat_##isa(NAN), p);                                                        \
    p = ge__vk_sel_##isa(x == HUGE_VALF, x, p);                                                                        \
    return ge__vk_sel_##isa(x != x, x, p);                                                                             \
  }                                                                                                                    \
  /* log(1 + u) for u >= 0: log(w) + (u - (w - 1)) / w with w = 1 + u rounded                                          \
   * (the second term restores what the rounding of w lost). */                                                        \
  GE__VK_INLINE GE__VK_ATTR_##isa ge__vk_v_##isa ge__vk_log1p_pos_##isa(ge__vk_v_##isa u) {                            \
    ge__vk_v_##isa w = 1.0f + u, r = ge__vk_log_##isa(w) + (u - (w - 1.0f)) / w;                                       \
    return ge__vk_sel_##isa(w == 1.0f, u, ge__vk_sel_##isa(u == HUGE_VALF, u, r));                                     \
  }                                                                                                                    \
  /* 1 / (1 + e^-x), from e = e^-|x| so neither side loses accuracy. */                                                \
  GE__VK_INLINE GE__VK_ATTR_##isa ge__vk_v_##isa ge__vk_sigmoid_##isa(ge__vk_v_##isa x) {                              \
    ge__vk_v_##isa e = ge__vk_exp_##isa(-ge__vk_abs_##isa(x)), r = 1.0f / (1.0f + e);                                  \
    return ge__vk_sel_##isa(x != x, x, ge__vk_sel_##isa(x >= 0.0f, r, e * r));                                         \
  }                                                                                                                    \
  /* tanh |x| = -m / (2 + m) with m = expm1(-2|x|): no cancellation near 0. */                                         \
  GE__VK_INLINE GE__VK_ATTR_##isa ge__vk_v_##isa ge__vk_tanh_##isa(ge__vk_v_##isa x) {                                 \
    ge__vk_v_##isa m = ge__vk_expm1_neg_##isa(-2.0f * ge__vk_abs_##isa(x)), t = -m / (2.0f + m);                       \
    return ge__vk_sel_##isa(x != x, x, ge__vk_copysign_##isa(t, x));                                                   \
  }                                                                                                                    \
  /* a^2 = hi + lo exactly, hi = a*a rounded: lo by one FMA, else by                                                  \
   * Dekker's product (a splits at 12 significant bits, so the partial                                                  \
   * products are exact); the same bits either way. */                                                                 \
  GE__VK_INLINE GE__VK_ATTR_##isa void ge__vk_square_split_##isa(ge__vk_v_##isa a, ge__vk_v_##isa *hi,                 \
                                                                 ge__vk_v_##isa *lo) {                                 \
    ge__vk_v_##isa ah = ge__vk_from_bits_##isa(ge__vk_bits_##isa(a) & (int32_t)0xfffff000u), al = a - ah, p = a * a;   \
    *hi = p;                                                                                                           \
    *lo = GE__VK_FUSED_##isa ? GE__VK_FMA_##isa(a, a, -p) : ((ah * ah - p) + 2.0f * ah * al) + al * al;                \
  }                                                                                                                    \
  /* erf(x), odd: for t = |x| < 1 by its Taylor series (to t^21, remainder                                              \
   * < 2e-9); t >= 1 as 1 - erfc(t), erfc = e^-t^2 P(1/t) / t, P a degree-12                                            \
   * Chebyshev fit of erfc(x) x e^(x^2) on x in [1, 10] (relative error                                                 \
   * 2e-9), e^-t^2 = e^-hi (1 - lo) for hi + lo = t^2 exactly (t clamped to                                             \
   * [1, 10.5]). Past t^2 = 84.5 erfc is taken as 0 and those lanes take                                                \
   * e^0, so that no lane computes a denormal (a microcode assist, ~100                                                 \
   * cycles: 5x the time of the whole function). */                                                                     \
  GE__VK_INLINE GE__VK_ATTR_##isa ge__vk_v_##isa ge__vk_erf_##isa(ge__vk_v_##isa x) {                                   \
    static const float ps[13] = {5.0235342335e-01f,  -7.6515807991e-02f, -4.1236878954e-03f, 8.9629385674e-03f,         \
                                 -3.9782159160e-03f, 9.1957131919e-04f,  9.7820819311e-05f,  -2.2517972716e-04f,        \
                                 1.4341899871e-04f,  -7.3140302019e-05f, 1.4239107230e-05f,  1.8441852979e-05f,         \
                                 -1.0246770912e-05f};                                                                   \
    static const float ts[11] = {1.1283791671e+00f, -3.7612638903e-01f, 1.1283791671e-01f, -2.6866170645e-02f,          \
                                 5.2239776254e-03f, -8.5483270235e-04f, 1.2055332982e-04f, -1.4925650358e-05f,          \
                                 1.6462114366e-06f, -1.6365844691e-07f, 1.4807192816e-08f};                             \
    ge__vk_v_##isa t = ge__vk_abs_##isa(x), tc = ge__vk_clamp_##isa(t, 1.0f, 10.5f), u = 1.0f / tc,                     \
                   z = (u - 0.55f) * (1.0f / 0.45f), hi, lo, e_small, ec;                                               \
    ge__vk_vi_##isa far;                                                                                                \
    ge__vk_square_split_##isa(tc, &hi, &lo);                                                                            \
    e_small = t * ge__vk_poly_##isa(t * t, ts, 10);                                                                     \
    far = hi > 84.5f;                                                                                                   \
    ec = ge__vk_exp_##isa(-ge__vk_sel_##isa(far, ge__vk_splat_##isa(0.0f), hi)) *                                       \
         ((1.0f - lo) * ge__vk_poly_##isa(z, ps, 12) * u);                                                              \
    ec = ge__vk_sel_##isa(far, ge__vk_splat_##isa(0.0f), ec);                                                           \
    return ge__vk_sel_##isa(x != x, x, ge__vk_copysign_##isa(ge__vk_sel_##isa(t < 1.0f, e_small, 1.0f - ec), x));       \
  }                                                                                                                     \
  /* x/2 erfc(-x/sqrt 2), from erfc(t) = e^-t^2 R(t) for t = |x|/sqrt 2:                                                \
   * x/2 erfc(t) for x < 0, x/2 (2 - erfc(t)) else. R = erfc e^(t^2) is a                                               \
   * (4,5) rational in t/10.5 (relative error 6e-9 on [0, 10.5]; one                                                   \
   * exp, a division and ten FMAs, half the work of erf's two series). The                                              \
   * square t^2 = x^2/2 = hi + lo comes from x itself, exactly: e^-t^2 moves                                           \
   * by 2t^2 times the relative error of t, which the rounded x/sqrt(2) would                                          \
   * bring. Past |x| = 13 (t^2 = 84.5) erfc is taken as 0 and those lanes                                              \
   * compute with x = 0, so that none computes a denormal (a microcode                                                 \
   * assist, ~100 cycles) or a NaN. Each selection is made on an input of                                              \
   * the division, not on its result: gcc folds a selection's mask into the                                            \
   * ops behind it, which had the division run twice a vector (0.87 -> 0.77                                            \
   * ns an element at AVX-512 with the exp's reduction fused). */                                                      \
  GE__VK_INLINE GE__VK_ATTR_##isa ge__vk_v_##isa ge__vk_gelu_##isa(ge__vk_v_##isa x) {                                 \
    static const float rp[5] = {1.0f, 13.037488f, 81.0357971f, 267.235626f, 402.808472f};                              \
    static const float rq[6] = {1.0f, 24.8854771f, 265.62735f, 1541.65894f, 4973.76123f, 7496.4917f};                  \
    ge__vk_v_##isa ax = ge__vk_abs_##isa(x), hi, lo, e;                                                                \
    ge__vk_vi_##isa far = ax > 13.0f;                                                                                  \
    ax = ge__vk_sel_##isa(far, ge__vk_splat_##isa(0.0f), ax);                                                          \
    ge__vk_square_split_##isa(ax, &hi, &lo);                                                                           \
    e = ge__vk_exp_nonpos_##isa(-0.5f * hi) * (1.0f - 0.5f * lo);                                                      \
    e = ge__vk_sel_##isa(far, ge__vk_splat_##isa(0.0f), e);                                                            \
    ax = ax * (0.70710678118654752f / 10.5f);                                                                          \
    e = e * ge__vk_poly_##isa(ax, rp, 4) / ge__vk_poly_##isa(ax, rq, 5);                                               \
    return 0.5f * x * ge__vk_sel_##isa(x < 0.0f, e, 2.0f - e);                                                         \
  }                                                                                                                    \
  /* The tanh form: x/2 (1 + tanh(k(x + 0.044715 x^3))) = x sigmoid(2k(...)). */                                       \
  GE__VK_INLINE GE__VK_ATTR_##isa ge__vk_v_##isa ge__vk_gelu_tanh_##isa(ge__vk_v_##isa x) {                            \
    return x * ge__vk_sigmoid_##isa(1.5957691216057308f * (x + 0.044715f * x * x * x));                                \
  }                                                                                                                    \
  /* log(1 + e^x) = max(x, 0) + log1p(e^-|x|). */                                                                      \
  GE__VK_INLINE GE__VK_ATTR_##isa ge__vk_v_##isa ge__vk_softplus_##isa(ge__vk_v_##isa x) {                             \
    ge__vk_v_##isa r = ge__vk_max_##isa(x, ge__vk_splat_##isa(0.0f)) +                                                 \
                       ge__vk_log1p_pos_##isa(ge__vk_exp_##isa(-ge__vk_abs_##isa(x)));                                 \
    return ge__vk_sel_##isa(x != x, x, r);                                                                             \
  }                                                                                                                    \
  GE__VK_INLINE GE__VK_ATTR_##isa ge__vk_v_##isa ge__vk_sqrt_lanes_##isa(ge__vk_v_##isa x) {                           \
    int k;                                                                                                             \
    for (k = 0; k < GE__VK_W_##isa; k++)                                                                               \
      x[k] = sqrtf(x[k]);                                                                                              \
    return x;                                                                                                          \
  }                                                                                                                    \
  GE__VK_INLINE GE__VK_ATTR_##isa ge__vk_v_##isa ge__vk_unary_v_##isa(int op, const ge__vk_upar *p,                    \
                                                                      ge__vk_v_##isa x) {                              \
    const ge__vk_v_##isa zero = ge__vk_splat_##isa(0.0f);                                                              \
    int k;                                                                                                             \
    switch (op) {                                                                                                      \
    case GE__VK_U_RELU:                                                                                                \
      return ge__vk_sel_##isa(x < 0.0f, zero, x);                                                                      \
    case GE__VK_U_NEG:                                                                                                 \
      return -x;                                                                                                       \
    case GE__VK_U_ABS:                                                                                                 \
      return ge__vk_abs_##isa(x);                                                                                      \
    case GE__VK_U_EXP:                                                                                                 \
      return ge__vk_exp_##isa(x);                                                                                      \
    case GE__VK_U_LOG:                                                                                                 \
      return ge__vk_log_##isa(x);                                                                                      \
    case GE__VK_U_SQRT:                                                                                                \
      return ge__vk_sqrt_lanes_##isa(x);                                                                               \
    case GE__VK_U_RECIP:                                                                                               \
      return 1.0f / x;                                                                                                 \
    case GE__VK_U_SIGMOID:                                                                                             \
      return ge__vk_sigmoid_##isa(x);                                                                                  \
    case GE__VK_U_TANH:                                                                                                \
      return ge__vk_tanh_##isa(x);                                                                                     \
    case GE__VK_U_ERF:                                                                                                 \
      return ge__vk_erf_##isa(x);                                                                                      \
    case GE__VK_U_GELU:                                                                                                \
      return ge__vk_gelu_##isa(x);                                                                                     \
    case GE__VK_U_GELU_TANH:                                                                                           \
      return ge__vk_gelu_tanh_##isa(x);                                                                                \
    case GE__VK_U_SOFTPLUS:                                                                                            \
      return ge__vk_softplus_##isa(x);                                                                                 \
    case GE__VK_U_SOFTSIGN:                                                                                            \
      return x / (1.0f + ge__vk_abs_##isa(x));                                                                         \
    case GE__VK_U_MISH:                                                                                                \
      return ge__vk_sel_##isa(x != x, x, x * ge__vk_tanh_##isa(ge__vk_softplus_##isa(x)));                             \
    case GE__VK_U_HARDSIGMOID:                                                                                         \
      return ge__vk_clamp_##isa(p->alpha * x + p->beta, 0.0f, 1.0f);                                                   \
    case GE__VK_U_HARDSWISH:                                                                                           \
      return x * ge__vk_clamp_##isa(x / 6.0f + 0.5f, 0.0f, 1.0f);                                                      \
    case GE__VK_U_HARDSWISH_AB:                                                                                        \
      return x * ge__vk_clamp_##isa(p->alpha * x + p->beta, 0.0f, 1.0f);                                              \
    case GE__VK_U_LEAKYRELU:                                                                                           \
      return ge__vk_sel_##isa(x < 0.0f, p->alpha * x, x);                                                              \
    case GE__VK_U_THRESHOLDEDRELU:                                                                                     \
      return ge__vk_sel_##isa(x > p->alpha, x, zero);                                                                  \
    case GE__VK_U_ELU:                                                                                                 \
      return ge__vk_sel_##isa(x < 0.0f, p->alpha * ge__vk_expm1_neg_##isa(x), x);                                      \
    case GE__VK_U_SELU:                                                                                                \
      return ge__vk_sel_##isa(x <= 0.0f, p->beta * ge__vk_expm1_neg_##isa(x), p->gamma * x);                           \
    case GE__VK_U_CELU:                                                                                                \
      return ge__vk_sel_##isa(x > 0.0f, x, p->alpha * ge__vk_expm1_neg_##isa(x / p->alpha));                           \
    case GE__VK_U_CLIP:                                                                                                \
      return ge__vk_clamp_##isa(x, p->alpha, p->beta);                                                                 \
    case GE__VK_U_SQUARE:                                                                                              \
      return x * x;                                                                                                    \
    case GE__VK_U_POW_HALF: /* pow(-0, .5) = +0 and pow(-inf, .5) = inf, unlike sqrt */                                \
      return ge__vk_sel_##isa(x == -HUGE_VALF, -x, ge__vk_sqrt_lanes_##isa(x) + 0.0f);                                 \
    case GE__VK_U_POWC:                                                                                                \
      for (k = 0; k < GE__VK_W_##isa; k++)                                                                             \
        x[k] = (float)pow((double)x[k], (double)p->alpha);                                                             \
      return x;                                                                                                        \
    case GE__VK_U_ONE:                                                                                                 \
      return zero + 1.0f;                                                                                              \
    case GE__VK_U_AFFINE:                                                                                              \
      return ((x - p->gamma) - p->delta) * p->alpha + p->beta;                                                         \
    default:                                                                                                           \
      return x;                                                                                                        \
    }                                                                                                                  \
  }                                                                                                                    \
  GE__VK_INLINE GE__VK_ATTR_##isa void ge__vk_unary_loop_##isa(int op, const ge__vk_upar *p, const float *x, float *y, \
                                                               int64_t n) {                                            \
    int64_t i = 0;                                                                                                     \
    for (; i + GE__VK_W_##isa <= n; i += GE__VK_W_##isa)                                                               \
      ge__vk_store_##isa(y + i, ge__vk_unary_v_##isa(op, p, ge__vk_load_##isa(x + i)));                                \
    if (i < n)                                                                                                         \
      ge__vk_store_part_##isa(y + i, ge__vk_unary_v_##isa(op, p, ge__vk_load_part_##isa(x + i, n - i)), n - i);        \
  }                                                                                                                    \
  GE__VK_INLINE GE__VK_ATTR_##isa ge__vk_v_##isa ge__vk_binary_v_##isa(int op, ge__vk_v_##isa a, ge__vk_v_##isa b) {   \
    switch (op) {                                                                                                      \
    case GE__VK_B_ADD:                                                                                                 \
      return a + b;                                                                                                    \
    case GE__VK_B_SUB:                                                                                                 \
      return a - b;                                                                                                    \
    case GE__VK_B_MUL:                                                                                                 \
      return a * b;                                                                                                    \
    case GE__VK_B_DIV:                                                                                                 \
      return a / b;                                                                                                    \
    case GE__VK_B_MAX:                                                                                                 \
      return GE__VK_MAX_##isa(a, b);                                                                                   \
    case GE__VK_B_MIN:                                                                                                 \
      return GE__VK_MIN_##isa(a, b);                                                                                   \
    default:                                                                                                           \
      return ge__vk_sel_##isa(a < 0.0f, a * b, a); /* PRelu */                                                         \
    }                                                                                                                  \
  }                                                                                                                    \
  /* y[i] = a[i*sa] op b[i*sb], i < n; sa, sb in {0, 1} (0: one value). */                                             \
  GE__VK_INLINE GE__VK_ATTR_##isa void ge__vk_binary_loop_##isa(int op, const float *a, int sa, const float *b,        \
                                                                int sb, float *y, int64_t n) {                         \
    int64_t i = 0, r;                                                                                                  \
    if (sa && sb) {                                                                                                    \
      for (; i + GE__VK_W_##isa <= n; i += GE__VK_W_##isa)                                                             \
        ge__vk_store_##isa(y + i, ge__vk_binary_v_##isa(op, ge__vk_load_##isa(a + i), ge__vk_load_##isa(b + i)));      \
      if ((r = n - i) > 0)                                                                                             \
        ge__vk_store_part_##isa(                                                                                       \
            y + i, ge__vk_binary_v_##isa(op, ge__vk_load_part_##isa(a + i, r), ge__vk_load_part_##isa(b + i, r)), r);  \
    } else if (sa) {                                                                                                   \
      ge__vk_v_##isa vb = ge__vk_splat_##isa(b[0]);                                                                    \
      for (; i + GE__VK_W_##isa <= n; i += GE__VK_W_##isa)                                                             \
        ge__vk_store_##isa(y + i, ge__vk_binary_v_##isa(op, ge__vk_load_##isa(a + i), vb));                            \
      if ((r = n - i) > 0)                                                                                             \
        ge__vk_store_part_##isa(y + i, ge__vk_binary_v_##isa(op, ge__vk_load_part_##isa(a + i, r), vb), r);            \
    } else {                                                                                                           \
      ge__vk_v_##isa va = ge__vk_splat_##isa(a[0]);                                                                    \
      for (; i + GE__VK_W_##isa <= n; i += GE__VK_W_##isa)                                                             \
        ge__vk_store_##isa(y + i, ge__vk_binary_v_##isa(op, va, ge__vk_load_##isa(b + (sb ? i : 0))));                 \
      if ((r = n - i) > 0)                                                                                             \
        ge__vk_store_part_##isa(                                                                                       \
            y + i, ge__vk_binary_v_##isa(op, va, sb ? ge__vk_load_part_##isa(b + i, r) : ge__vk_splat_##isa(b[0])),    \
            r);                                                                                                        \
    }                                                                                                                  \
  }                                                                                                                    \
  /* src[0], src[s], ..., src[15 s] as one vector: stride 2 by a                                                       \
   * deinterleaving shuffle, others lane by lane. */                                                                   \
  GE__VK_INLINE GE__VK_ATTR_##isa ge__vk_v_##isa ge__vk_load_strided_##isa(const float *src, int64_t s) {              \
    ge__vk_v_##isa v;                                                                                                  \
    int k;                                                                                                             \
    if (s == 1) return ge__vk_load_##isa(src);                                                                         \
    if (s == 2)                                                                                                        \
      return GE__VK_EVEN_##isa(ge__vk_load_##isa(src),                                                                 \
                               ge__vk_load_part_##isa(src + GE__VK_W_##isa, GE__VK_W_##isa - 1));                      \
    for (k = 0; k < GE__VK_W_##isa; k++)                                                                               \
      v[k] = src[k * s];                                                                                               \
    return v;                                                                                                          \
  }                                                                                                                    \
  GE__VK_INLINE GE__VK_ATTR_##isa float ge__vk_reduce_body_##isa(int op, const float *x, int64_t n, float m) {         \
    ge__vk_v_##isa acc = ge__vk_splat_##isa(op == GE__VK_R_MAX ? -HUGE_VALF : 0.0f);                                   \
    float r;                                                                                                           \
    int64_t i = 0;                                                                                                     \
    int k;                                                                                                             \
    for (; i + GE__VK_W_##isa <= n; i += GE__VK_W_##isa) {                                                             \
      ge__vk_v_##isa v = ge__vk_load_##isa(x + i);                                                                     \
      if (op == GE__VK_R_MAX)                                                                                          \
        acc = ge__vk_binary_v_##isa(GE__VK_B_MAX, v, acc);                                                             \
      else if (op == GE__VK_R_SUM)                                                                                     \
        acc += v;                                                                                                      \
      else if (op == GE__VK_R_DEV)                                                                                     \
        acc += v - m;                                                                                                  \
      else                                                                                                             \
        acc += (v - m) * (v - m);                                                                                      \
    }                                                                                                                  \
    r = acc[0];                                                                                                        \
    for (k = 1; k < GE__VK_W_##isa; k++)                                                                               \
      r = op == GE__VK_R_MAX ? ((acc[k] > r || acc[k] != acc[k]) ? acc[k] : r) : r + acc[k];                           \
    for (; i < n; i++) {                                                                                               \
      float v = x[i];                                                                                                  \
      if (op == GE__VK_R_MAX)                                                                                          \
        r = (v > r || v != v) ? v : r;                                                                                 \
      else                                                                                                             \
        r += op == GE__VK_R_SUM ? v : op == GE__VK_R_DEV ? v - m : (v - m) * (v - m);                                  \
    }                                                                                                                  \
    return r;                                                                                                          \
  }                                                                                                                    \
  /* e^d for d <= 0 (softmax: d = x - max), as ge__vk_exp but 0 below -86,                                             \
   * where e^d < 5e-38: a denormal result costs a microcode assist per lane                                            \
   * on Intel (a masked score of -1e9 hit it for every masked lane), and a                                             \
   * softmax output that small is 0 within its tolerance. 2^n is one normal                                            \
   * power (n >= -125). NaN stays NaN; d > 0 is not expected (clamped). */                                             \
  GE__VK_INLINE GE__VK_ATTR_##isa ge__vk_v_##isa ge__vk_exp_le0_##isa(ge__vk_v_##isa d) {                              \
    ge__vk_vi_##isa ni;                                                                                                \
    ge__vk_v_##isa dc = ge__vk_clamp_##isa(d, -86.0f, 0.0f), n = ge__vk_round_log2e_##isa(dc, &ni),                    \
                   r = ge__vk_reduce_ln2_##isa(dc, n),                                                                 \
                   p = ge__vk_exp_reduced_##isa(r) * ge__vk_from_bits_##isa((ni + 127) << 23);                         \
    return ge__vk_sel_##isa(d < -86.0f, ge__vk_splat_##isa(0.0f), p);                                                  \
  }                                                                                                                    \
  /* e^(x - m) with x - m taken exactly (Knuth's two-sum: hi rounded, lo its                                           \
   * error): a rounded difference of -40 would move e^d by 2e-6 relative. */                                           \
  GE__VK_INLINE GE__VK_ATTR_##isa ge__vk_v_##isa ge__vk_exp_diff_##isa(ge__vk_v_##isa x, ge__vk_v_##isa m) {           \
    ge__vk_v_##isa hi = x - m, bb = hi - x, lo = (x - (hi - bb)) + (-m - bb), e = ge__vk_exp_le0_##isa(hi);            \
    return ge__vk_sel_##isa(lo != lo, e, e + e * lo);                                                                  \
  }                                                                                                                    \
  /* (x - m) - l with x - m taken exactly. */                                                                          \
  GE__VK_INLINE GE__VK_ATTR_##isa ge__vk_v_##isa ge__vk_diff_minus_##isa(ge__vk_v_##isa x, ge__vk_v_##isa m,           \
                                                                         ge__vk_v_##isa l) {                           \
    ge__vk_v_##isa hi = x - m, bb = hi - x, lo = (x - (hi - bb)) + (-m - bb);                                          \
    return ge__vk_sel_##isa(lo != lo, hi - l, (hi - l) + lo);                                                          \
  }                                                                                                                    \
  /* Lanes [0, n) set (n < 16). */                                                                                     \
  GE__VK_INLINE GE__VK_ATTR_##isa ge__vk_vi_##isa ge__vk_first_lanes_##isa(int64_t n) {                                \
    const ge__vk_vi_##isa iota = GE__VK_IOTA_##isa;                                                                    \
    return iota < (int32_t)n;                                                                                          \
  }                                                                                                                    \
  /* The sum (max 0) or the numpy max (max 1: NaN wins) of v's lanes, by                                               \
   * halving: independent steps, not one chain through every lane; lane k                                              \
   * takes lane k + w at step w. With GCC the steps are lane shuffles of the                                           \
   * whole vector: scalar compares would branch, mispredicted on most rows. */                                         \
  GE__VK_INLINE GE__VK_ATTR_##isa float ge__vk_hfold_##isa(ge__vk_v_##isa v, int max) {                                \
    int w;                                                                                                             \
    GE__VK_HFOLD_STEPS(isa)                                                                                            \
  }                                                                                                                    \
  /* The numpy max of x[0..n) (n >= 1): the tail as -inf lanes. */                                                     \
  GE__VK_INLINE GE__VK_ATTR_##isa float ge__vk_row_max_##isa(const float *x, int64_t n) {                              \
    ge__vk_v_##isa acc = ge__vk_splat_##isa(-HUGE_VALF);                                                               \
    int64_t i = 0;                                                                                                     \
    for (; i + GE__VK_W_##isa <= n; i += GE__VK_W_##isa)                                                               \
      acc = ge__vk_binary_v_##isa(GE__VK_B_MAX, ge__vk_load_##isa(x + i), acc);                                        \
    if (i < n)                                                                                                         \
      acc = ge__vk_binary_v_##isa(GE__VK_B_MAX,                                                                        \
                                  ge__vk_sel_##isa(ge__vk_first_lanes_##isa(n - i), ge__vk_load_part_##isa(x + i, n - i),\
                                                   ge__vk_splat_##isa(-HUGE_VALF)),                                    \
                                  acc);                                                                                \
    return ge__vk_hfold_##isa(acc, 1);                                                                                 \
  }                                                                                                                    \
  /* Softmax (or LogSoftmax) of a contiguous row x[0..n) into y. */                                                    \
  GE__VK_INLINE GE__VK_ATTR_##isa void ge__vk_softmax_row_body_##isa(int log, const float *x, float *y, int64_t n) {   \
    float mx = ge__vk_row_max_##isa(x, n), sum, inv;                                                                   \
    ge__vk_v_##isa s = ge__vk_splat_##isa(0.0f), e, vm = ge__vk_splat_##isa(mx), ls;                                   \
    int64_t i = 0, r;                                                                                                  \
    for (; i + GE__VK_W_##isa <= n; i += GE__VK_W_##isa) {                                                             \
      e = ge__vk_exp_diff_##isa(ge__vk_load_##isa(x + i), vm);                                                         \
      if (!log) ge__vk_store_##isa(y + i, e);                                                                          \
      s += e;                                                                                                          \
    }                                                                                                                  \
    if ((r = n - i) > 0) {                                                                                             \
      e = ge__vk_sel_##isa(ge__vk_first_lanes_##isa(r), ge__vk_exp_diff_##isa(ge__vk_load_part_##isa(x + i, r), vm),   \
                           ge__vk_splat_##isa(0.0f));                                                                  \
      if (!log) ge__vk_store_part_##isa(y + i, e, r);                                                                  \
      s += e;                                                                                                          \
    }                                                                                                                  \
    sum = ge__vk_hfold_##isa(s, 0);                                                                                    \
    inv = 1.0f / sum;                                                                                                  \
    ls = ge__vk_splat_##isa(logf(sum));                                                                                \
    for (i = 0; i + GE__VK_W_##isa <= n; i += GE__VK_W_##isa)                                                          \
      ge__vk_store_##isa(y + i, log ? ge__vk_diff_minus_##isa(ge__vk_load_##isa(x + i), vm, ls)                        \
                                    : ge__vk_load_##isa(y + i) * inv);                                                 \
    if ((r = n - i) > 0)                                                                                               \
      ge__vk_store_part_##isa(y + i,                                                                                   \
                              log ? ge__vk_diff_minus_##isa(ge__vk_load_part_##isa(x + i, r), vm, ls)                  \
                                  : ge__vk_load_part_##isa(y + i, r) * inv,                                            \
                              r);                                                                                      \
  }                                                                                                                    \
  /* Softmax along a strided axis: len values `inner` apart, for the w <= 16                                           \
   * adjacent columns starting at x and y (the lanes are the columns). */                                              \
  GE__VK_INLINE GE__VK_ATTR_##isa void ge__vk_softmax_cols_body_##isa(int log, const float *x, float *y, int64_t len,  \
                                                                      int64_t inner, int64_t w) {                      \
    ge__vk_v_##isa mx = ge__vk_splat_##isa(-HUGE_VALF), s = ge__vk_splat_##isa(0.0f), v;                               \
    int64_t k;                                                                                                         \
    int full = w == GE__VK_W_##isa;                                                                                    \
    for (k = 0; k < len; k++) {                                                                                        \
      v = full ? ge__vk_load_##isa(x + k * inner) : ge__vk_load_part_##isa(x + k * inner, w);                          \
      mx = k == 0 ? v : ge__vk_binary_v_##isa(GE__VK_B_MAX, v, mx);                                                    \
    }                                                                                                                  \
    for (k = 0; k < len; k++) {                                                                                        \
      v = ge__vk_exp_diff_##isa(full ? ge__vk_load_##isa(x + k * inner) : ge__vk_load_part_##isa(x + k * inner, w),    \
                                mx);                                                                                   \
      s += v;                                                                                                          \
      if (!log) {                                                                                                      \
        if (full)                                                                                                      \
          ge__vk_store_##isa(y + k * inner, v);                                                                        \
        else                                                                                                           \
          ge__vk_store_part_##isa(y + k * inner, v, w);                                                                \
      }                                                                                                                \
    }                                                                                                                  \
    if (log) s = ge__vk_log_##isa(s);                                                                                  \
    for (k = 0; k < len; k++) {                                                                                        \
      if (log)                                                                                                         \
        v = ge__vk_diff_minus_##isa(                                                                                   \
            full ? ge__vk_load_##isa(x + k * inner) : ge__vk_load_part_##isa(x + k * inner, w), mx, s);                \
      else                                                                                                             \
        v = (full ? ge__vk_load_##isa(y + k * inner) : ge__vk_load_part_##isa(y + k * inner, w)) / s;                  \
      if (full)                                                                                                        \
        ge__vk_store_##isa(y + k * inner, v);                                                                          \
      else                                                                                                             \
        ge__vk_store_part_##isa(y + k * inner, v, w);                                                                  \
    }                                                                                                                  \
  }                                                                                                                    \
  /* LayerNorm of a row: y = ((x - m) - m_lo) * inv * g + b (b may be NULL;                                            \
   * m + m_lo is the mean, m_lo what rounding m to float lost). */                                                     \
  GE__VK_INLINE GE__VK_ATTR_##isa void ge__vk_layernorm_row_body_##isa(                                                \
      const float *x, float *y, int64_t n, float m, float m_lo, float inv, const float *g, const float *b) {           \
    int64_t i = 0;                                                                                                     \
    for (; i + GE__VK_W_##isa <= n; i += GE__VK_W_##isa) {                                                             \
      ge__vk_v_##isa v = ((ge__vk_load_##isa(x + i) - m) - m_lo) * inv * ge__vk_load_##isa(g + i);                     \
      ge__vk_store_##isa(y + i, b ? v + ge__vk_load_##isa(b + i) : v);                                                 \
    }                                                                                                                  \
    for (; i < n; i++) {                                                                                               \
      float v = ((x[i] - m) - m_lo) * inv * g[i];                                                                      \
      y[i] = b ? v + b[i] : v;                                                                                         \
    }                                                                                                                  \
  }                                                                                                                    \
  /* end of GE__VK_HELPERS */

/* One copy of each row function per instruction set; the switch on a
 * constant op inside each case folds away after inlining. A unary op has
 * a function of its own (no frame sized for the costliest op: a
 * 16-float Neg is a few instructions). */
#define GE__VK_UFN(name, isa)                                                                                          \
  GE__VK_ATTR_##isa static void ge__vk_u_##name##_##isa(const ge__vk_upar *p, const float *x, float *y, int64_t n) {   \
    ge__vk_unary_loop_##isa(GE__VK_U_##name, p, x, y, n);                                                              \
  }
#define GE__VK_UPTR(name, isa) ge__vk_u_##name##_##isa,
#define GE__VK_BCASE(op, isa)                                                                                          \
  case op:                                                                                                             \
    ge__vk_binary_loop_##isa(op, a, sa, b, sb, y, n);                                                                  \
    break;
#define GE__VK_ROWS_ISA(isa)                                                                                           \
  GE__VK_UNARY_OPS(GE__VK_UFN, isa)                                                                                    \
  GE__VK_ATTR_##isa static void ge__vk_binary_##isa(int op, const float *a, int sa, const float *b, int sb, float *y,  \
                                                    int64_t n) {                                                       \
    switch (op) {                                                                                                      \
      GE__VK_BCASE(GE__VK_B_ADD, isa)                                                                                  \
      GE__VK_BCASE(GE__VK_B_SUB, isa)                                                                                  \
      GE__VK_BCASE(GE__VK_B_MUL, isa)                                                                                  \
      GE__VK_BCASE(GE__VK_B_DIV, isa)                                                                                  \
      GE__VK_BCASE(GE__VK_B_MAX, isa)                                                                                  \
      GE__VK_BCASE(GE__VK_B_MIN, isa)                                                                                  \
      GE__VK_BCASE(GE__VK_B_PRELU, isa)                                                                                \
    default:                                                                                                           \
      break;                                                                                                           \
    }                                                                                                                  \
  }                                                                                                                    \
  /* One output row of a 2-D pool: y[j] = max or sum over the nrows input                                             \
   * rows (rstep apart, starting at xr) and the k taps (d apart) of column                                             \
   * j*s - pb that land in [0, iw), in row then tap order. Columns whose taps                                          \
   * all land inside take whole vectors, the edges one by one. */                                                      \
  GE__VK_ATTR_##isa static void ge__vk_pool_row_##isa(int is_max, const float *xr, int64_t nrows, int64_t rstep,       \
                                                      int64_t iw, int64_t k, int64_t s, int64_t d, int64_t pb,         \
                                                      int64_t ow, float *y) {                                          \
    int64_t jlo = (pb + s - 1) / s, num = iw - 1 + pb - (k - 1) * d, jhi = num < 0 ? 0 : num / s + 1, j = 0, r, t;      \
    const float init = is_max ? -HUGE_VALF : 0.0f;                                                                     \
    /* short rows: copied with their padding (init, which changes no max or                                            \
     * sum) so that every column takes whole vectors */                                                                \
    int64_t owr = (ow + GE__VK_W_##isa - 1) / GE__VK_W_##isa * GE__VK_W_##isa;                                         \
    int64_t len = (owr - 1) * s + (k - 1) * d + 1 + (s == 2 ? GE__VK_W_##isa : 0);                                     \
    if (len < pb + iw) len = pb + iw;                                                                                  \
    if (pb == 0 && jhi >= ow && ow >= GE__VK_W_##isa && nrows > 0) {                                                   \
      /* every column inside: whole vectors straight from the rows, the                                                \
       * last one overlapping the one before (it stores the same values) */                                           \
      for (j = 0;; j += GE__VK_W_##isa) {                                                                              \
        ge__vk_v_##isa acc = ge__vk_splat_##isa(init), v;                                                              \
        if (j + GE__VK_W_##isa > ow) j = ow - GE__VK_W_##isa;                                                          \
        for (r = 0; r < nrows; r++)                                                                                    \
          for (t = 0; t < k; t++) {                                                                                    \
            v = ge__vk_load_strided_##isa(xr + r * rstep + j * s + t * d, s);                                          \
            acc = is_max ? ge__vk_binary_v_##isa(GE__VK_B_MAX, v, acc) : acc + v;                                      \
          }                                                                                                            \
        ge__vk_store_##isa(y + j, acc);                                                                                \
        if (j + GE__VK_W_##isa >= ow) return;                                                                          \
      }                                                                                                                \
    }                                                                                                                  \
    if (nrows * len + owr <= GE__VK_POOL_PAD && nrows > 0) {                                                           \
      float pad[GE__VK_POOL_PAD], *out = pad + nrows * len;                                                            \
      for (r = 0; r < nrows; r++) {                                                                                    \
        float *pr = pad + r * len;                                                                                     \
        for (t = 0; t < pb; t++) pr[t] = init;                                                                         \
        memcpy(pr + pb, xr + r * rstep, (size_t)iw * sizeof(float));                                                   \
        for (t = pb + iw; t < len; t++) pr[t] = init;                                                                  \
      }                                                                                                                \
      for (j = 0; j < owr; j += GE__VK_W_##isa) {                                                                      \
        ge__vk_v_##isa acc = ge__vk_splat_##isa(init), v;                                                              \
        for (r = 0; r < nrows; r++)                                                                                    \
          for (t = 0; t < k; t++) {                                                                                    \
            v = ge__vk_load_strided_##isa(pad + r * len + j * s + t * d, s);                                           \
            acc = is_max ? ge__vk_binary_v_##isa(GE__VK_B_MAX, v, acc) : acc + v;                                      \
          }                                                                                                            \
        ge__vk_store_##isa(out + j, acc);                                                                              \
      }                                                                                                                \
      memcpy(y, out, (size_t)ow * sizeof(float));                                                                      \
      return;                                                                                                          \
    }                                                                                                                  \
    if (jhi > ow) jhi = ow;                                                                                            \
    while (j < ow) {                                                                                                   \
      if (j >= jlo && j + GE__VK_W_##isa <= jhi) {                                                                     \
        ge__vk_v_##isa acc = ge__vk_splat_##isa(init), v;                                                              \
        for (r = 0; r < nrows; r++)                                                                                    \
          for (t = 0; t < k; t++) {                                                                                    \
            v = ge__vk_load_strided_##isa(xr + r * rstep + j * s + t * d - pb, s);                                     \
            acc = is_max ? ge__vk_binary_v_##isa(GE__VK_B_MAX, v, acc) : acc + v;                                      \
          }                                                                                                            \
        ge__vk_store_##isa(y + j, acc);                                                                                \
        j += GE__VK_W_##isa;                                                                                           \
        continue;                                                                                                      \
      }                                                                                                                \
      {                                                                                                                \
        float acc = init;                                                                                              \
        for (r = 0; r < nrows; r++)                                                                                    \
          for (t = 0; t < k; t++) {                                                                                    \
            int64_t col = j * s + t * d - pb;                                                                          \
            float v;                                                                                                   \
            if (col < 0 || col >= iw) continue;                                                                        \
            v = xr[r * rstep + col];                                                                                   \
            acc = is_max ? ((v > acc || v != v) ? v : acc) : acc + v;                                                  \
          }                                                                                                            \
        y[j++] = acc;                                                                                                  \
      }                                                                                                                \
    }                                                                                                                  \
  }                                                                                                                    \
  GE__VK_ATTR_##isa static float ge__vk_reduce_##isa(int op, const float *x, int64_t n, float m) {                     \
    if (op == GE__VK_R_MAX) return ge__vk_reduce_body_##isa(GE__VK_R_MAX, x, n, m);                                    \
    if (op == GE__VK_R_SUM) return ge__vk_reduce_body_##isa(GE__VK_R_SUM, x, n, m);                                    \
    if (op == GE__VK_R_DEV) return ge__vk_reduce_body_##isa(GE__VK_R_DEV, x, n, m);                                    \
    return ge__vk_reduce_body_##isa(GE__VK_R_SSD, x, n, m);                                                            \
  }                                                                                                                    \
  GE__VK_ATTR_##isa static void ge__vk_softmax_row_##isa(int log, const float *x, float *y, int64_t n) {               \
    if (log)                                                                                                           \
      ge__vk_softmax_row_body_##isa(1, x, y, n);                                                                       \
    else                                                                                                               \
      ge__vk_softmax_row_body_##isa(0, x, y, n);                                                                       \
  }                                                                                                                    \
  GE__VK_ATTR_##isa static void ge__vk_softmax_cols_##isa(int log, const float *x, float *y, int64_t len,              \
                                                          int64_t inner, int64_t w) {                                  \
    int64_t c0, cw;                                                                                                    \
    for (c0 = 0; c0 < w; c0 += GE__VK_W_##isa) { /* w <= 16 columns, GE__VK_W_##isa per vector */                      \
      cw = w - c0 < GE__VK_W_##isa ? w - c0 : GE__VK_W_##isa;                                                          \
      if (log)                                                                                                         \
        ge__vk_softmax_cols_body_##isa(1, x + c0, y + c0, len, inner, cw);                                             \
      else                                                                                                             \
        ge__vk_softmax_cols_body_##isa(0, x + c0, y + c0, len, inner, cw);                                             \
    }                                                                                                                  \
  }                                                                                                                    \
  GE__VK_ATTR_##isa static void ge__vk_layernorm_row_##isa(const float *x, float *y, int64_t n, float m, float m_lo,   \
                                                           float inv, const float *g, const float *b) {                \
    ge__vk_layernorm_row_body_##isa(x, y, n, m, m_lo, inv, g, b);                                                      \
  }                                                                                                                    \
  /* y[i] = sum over t < nt of rows[t][i] w[t], in t order (Resize's vertical                                          \
   * pass; the tail rounds as the vector part). */                                                                     \
  GE__VK_ATTR_##isa static void ge__vk_blend_##isa(float *y, const float *const *rows, const float *w, int nt,         \
                                                   int64_t n) {                                                        \
    int64_t i = 0;                                                                                                     \
    int t;                                                                                                             \
    for (; i + GE__VK_W_##isa <= n; i += GE__VK_W_##isa) {                                                             \
      ge__vk_v_##isa acc = ge__vk_load_##isa(rows[0] + i) * w[0];                                                      \
      for (t = 1; t < nt; t++)                                                                                         \
        acc += ge__vk_load_##isa(rows[t] + i) * w[t];                                                                  \
      ge__vk_store_##isa(y + i, acc);                                                                                  \
    }                                                                                                                  \
    for (; i < n; i++) {                                                                                               \
      float acc = rows[0][i] * w[0];                                                                                   \
      for (t = 1; t < nt; t++)                                                                                         \
        acc += rows[t][i] * w[t];                                                                                      \
      y[i] = acc;                                                                                                      \
    }                                                                                                                  \
  }
GE__VK_HELPERS(base)
GE__VK_HELPERS(avx2)
GE__VK_HELPERS(avx512)
GE__VK_ROWS_ISA(base)
GE__VK_ROWS_ISA(avx2)
GE__VK_ROWS_ISA(avx512)

/* Separable 2-D pools (ge__vk_maxpool_planes): a plane's window max (sum)
 * is the max (sum) over kh rows of the max (sum) over kw columns, so it
 * runs as two passes of whole vectors over the flattened plane. hmax: y[q]
 * = max (is_max) or sum over t < k of src[q s + t], q < n (reads
 * src[0 .. (n-1) s + k)); vmax: y[o] = max or sum over t < k of src[o + t
 * step], o < n. Taps in order, numpy's max (a NaN wins), so a max is the
 * reference's value; a sum rounds in its own order (a few ulps). */
#define GE__VK_MAXPOOL_ISA(isa)                                                                                        \
  /* lo floats at p then hi more (s == 2: their even lanes; hi < lanes) */                                             \
  GE__VK_INLINE GE__VK_ATTR_##isa ge__vk_v_##isa ge__vk_hmax_tap_##isa(const float *p, int64_t s, int64_t lo,           \
                                                                      int64_t hi) {                                    \
    ge__vk_v_##isa a = ge__vk_load_part_##isa(p, lo);                                                                  \
    if (s != 2) return a;                                                                                              \
    return GE__VK_EVEN_##isa(a, ge__vk_load_part_##isa(p + GE__VK_W_##isa, hi));                                       \
  }                                                                                                                    \
  GE__VK_ATTR_##isa static void ge__vk_hmax_##isa(int is_max, const float *src, int64_t n, int64_t s, int64_t k,      \
                                                  float *y) {                                                          \
    int64_t q = 0, t;                                                                                                  \
    if (s == 2) /* two whole loads a tap while the next vector's floats are still inside src */                       \
      for (; q + GE__VK_W_##isa < n; q += GE__VK_W_##isa) {                                                            \
        const float *p_ = src + 2 * q;                                                                                 \
        ge__vk_v_##isa acc = GE__VK_EVEN_##isa(ge__vk_load_##isa(p_), ge__vk_load_##isa(p_ + GE__VK_W_##isa)), v;      \
        for (t = 1; t < k; t++) {                                                                                      \
          v = GE__VK_EVEN_##isa(ge__vk_load_##isa(p_ + t), ge__vk_load_##isa(p_ + t + GE__VK_W_##isa));                \
          acc = is_max ? ge__vk_binary_v_##isa(GE__VK_B_MAX, v, acc) : acc + v;                                        \
        }                                                                                                              \
        ge__vk_store_##isa(y + q, acc);                                                                                \
      }                                                                                                                \
    for (; q + GE__VK_W_##isa <= n; q += GE__VK_W_##isa) {                                                             \
      ge__vk_v_##isa acc = ge__vk_load_strided_##isa(src + q * s, s), v;                                               \
      for (t = 1; t < k; t++) {                                                                                        \
        v = ge__vk_load_strided_##isa(src + q * s + t, s);                                                             \
        acc = is_max ? ge__vk_binary_v_##isa(GE__VK_B_MAX, v, acc) : acc + v;                                          \
      }                                                                                                                \
      ge__vk_store_##isa(y + q, acc);                                                                                  \
    }                                                                                                                  \
    if (q < n && s <= 2) { /* the last part vector by masked loads of the floats it reads */                          \
      int64_t r_ = n - q, c_ = s == 2 ? 2 * r_ - 1 : r_, lo_ = c_ < GE__VK_W_##isa ? c_ : GE__VK_W_##isa;              \
      const float *p_ = src + q * s;                                                                                   \
      ge__vk_v_##isa acc = ge__vk_hmax_tap_##isa(p_, s, lo_, c_ - lo_), v;                                             \
      for (t = 1; t < k; t++) {                                                                                        \
        v = ge__vk_hmax_tap_##isa(p_ + t, s, lo_, c_ - lo_);                                                           \
        acc = is_max ? ge__vk_binary_v_##isa(GE__VK_B_MAX, v, acc) : acc + v;                                          \
      }                                                                                                                \
      ge__vk_store_part_##isa(y + q, acc, r_);                                                                         \
      q = n;                                                                                                           \
    }                                                                                                                  \
    for (; q < n; q++) {                                                                                               \
      float acc = src[q * s], v;                                                                                       \
      for (t = 1; t < k; t++) {                                                                                        \
        v = src[q * s + t];                                                                                            \
        acc = is_max ? (v > acc || v != v ? v : acc) : acc + v;                                                        \
      }                                                                                                                \
      y[q] = acc;                                                                                                      \
    }                                                                                                                  \
  }                                                                                                                    \
  GE__VK_ATTR_##isa static void ge__vk_vmax_##isa(int is_max, const float *src, int64_t n, int64_t step, int64_t k,   \
                                                  float *y) {                                                          \
    int64_t o, t;                                                                                                      \
    for (o = 0; o < n; o += GE__VK_W_##isa) {                                                                          \
      int64_t r = n - o < GE__VK_W_##isa ? n - o : GE__VK_W_##isa;                                                     \
      ge__vk_v_##isa acc = r == GE__VK_W_##isa ? ge__vk_load_##isa(src + o) : ge__vk_load_part_##isa(src + o, r), v;   \
      for (t = 1; t < k; t++) {                                                                                        \
        const float *p_ = src + o + t * step;                                                                          \
        v = r == GE__VK_W_##isa ? ge__vk_load_##isa(p_) : ge__vk_load_part_##isa(p_, r);                               \
        acc = is_max ? ge__vk_binary_v_##isa(GE__VK_B_MAX, v, acc) : acc + v;                                          \
      }                                                                                                                \
      if (r == GE__VK_W_##isa) ge__vk_store_##isa(y + o, acc);                                                         \
      else ge__vk_store_part_##isa(y + o, acc, r);                                                                     \
    }                                                                                                                  \
  }                                                                                                                    \
  /* Rows [r0, r0 + n) of a plane padded into d (wpad floats a row): fill,                                             \
   * then the plane's row r - pb0 at column pb1 where it exists, in whole                                              \
   * vectors and one masked tail a run instead of scalar fills and a memcpy                                            \
   * a row (ResNet's 3x3/2 pool on 64 planes of 112x112: 315 -> 240 us). */                                            \
  GE__VK_ATTR_##isa static void ge__vk_pad_rows_##isa(const float *x, int64_t ih, int64_t iw, int64_t pb0,            \
                                                      int64_t pb1, int64_t r0, int64_t n, int64_t wpad, float fill,   \
                                                      float *d) {                                                      \
    const ge__vk_v_##isa f = ge__vk_splat_##isa(fill);                                                                 \
    int64_t r, i;                                                                                                      \
    for (r = 0; r < n; r++, d += wpad) {                                                                               \
      int64_t ir = r0 + r - pb0;                                                                                       \
      const float *src;                                                                                                \
      float *o = d + pb1;                                                                                              \
      for (i = 0; i + GE__VK_W_##isa <= wpad; i += GE__VK_W_##isa) ge__vk_store_##isa(d + i, f);                       \
      if (i < wpad) ge__vk_store_part_##isa(d + i, f, wpad - i);                                                       \
      if (ir < 0 || ir >= ih) continue;                                                                                \
      src = x + ir * iw;                                                                                               \
      for (i = 0; i + GE__VK_W_##isa <= iw; i += GE__VK_W_##isa) ge__vk_store_##isa(o + i, ge__vk_load_##isa(src + i)); \
      if (i < iw) ge__vk_store_part_##isa(o + i, ge__vk_load_part_##isa(src + i, iw - i), iw - i);                     \
    }                                                                                                                  \
  }
GE__VK_MAXPOOL_ISA(base)
GE__VK_MAXPOOL_ISA(avx2)
GE__VK_MAXPOOL_ISA(avx512)

/* SiLU in place for fused epilogues: y Sigmoid(y) in one pass, the same
 * bits as the Sigmoid kernel then the Mul kernel (one rounded product);
 * AVX-512 has its own faster form below. */
#define GE__VK_SILU_ISA(isa)                                                                                           \
  GE__VK_ATTR_##isa static void ge__vk_silu_##isa(float *y, int64_t n) {                                               \
    int64_t i = 0;                                                                                                     \
    for (; i + GE__VK_W_##isa <= n; i += GE__VK_W_##isa) {                                                             \
      ge__vk_v_##isa v = ge__vk_load_##isa(y + i);                                                                     \
      ge__vk_store_##isa(y + i, v * ge__vk_sigmoid_##isa(v));                                                          \
    }                                                                                                                  \
    if (i < n) {                                                                                                       \
      ge__vk_v_##isa v = ge__vk_load_part_##isa(y + i, n - i);                                                         \
      ge__vk_store_part_##isa(y + i, v * ge__vk_sigmoid_##isa(v), n - i);                                              \
    }                                                                                                                  \
  }
GE__VK_SILU_ISA(base)
GE__VK_SILU_ISA(avx2)
#if GE__VK_X86
/* SiLU at AVX-512, the epilogue of most convs of EfficientNet-like models
 * (a third of their time with the shared sigmoid above): x / (1 + e^-x)
 * written as x e / (1 + e) for x < 0, with e = e^-|x| in (0, 1] from
 * FMAs (Taylor to r^8 on r in [-0.35, 0.35]), scalef for 2^n (denormal
 * results rounded once, no clamp of n), and 1 / (1 + e) by rcp14 and one
 * Newton step (relative error ~2^-28) instead of a divide. Within 4 ulp of
 * x Sigmoid(x) in double (tests/test_vector_fast.c), not the same bits as
 * the portable sets. NaN stays NaN (x times a number); +-inf as x Sigmoid(x)
 * (inf, NaN); |x| past 104 takes e^-104 (0 after the product at -104: the
 * reference's sigmoid rounds to 0 there too, below 1e-45). */
#define GE__VK_SILU512_ATTR __attribute__((target("avx512f,fma")))
static GE__VK_SILU512_ATTR void ge__vk_silu_avx512(float *y, int64_t n) { /* ge_vector_silu_v16: the header */
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) _mm512_storeu_ps(y + i, ge_vector_silu_v16(_mm512_loadu_ps(y + i)));
  if (i < n) {
    __mmask16 m = (__mmask16)((1u << (n - i)) - 1u);
    _mm512_mask_storeu_ps(y + i, m, ge_vector_silu_v16(_mm512_maskz_loadu_ps(m, y + i)));
  }
}
#else
GE__VK_SILU_ISA(avx512)
#endif

typedef void (*ge__vk_unary_fn)(const ge__vk_upar *p, const float *x, float *y, int64_t n);
static const ge__vk_unary_fn ge__vk_unary_fns[3][GE__VK_U_COUNT] = {{GE__VK_UNARY_OPS(GE__VK_UPTR, base)},
                                                                    {GE__VK_UNARY_OPS(GE__VK_UPTR, avx2)},
                                                                    {GE__VK_UNARY_OPS(GE__VK_UPTR, avx512)}};

static void ge__vk_unary_rows(int isa, int op, const ge__vk_upar *p, const float *x, float *y, int64_t n) {
  ge__vk_unary_fns[isa][op](p, x, y, n);
}

static void ge__vk_binary_rows(int isa, int op, const float *a, int sa, const float *b, int sb, float *y, int64_t n) {
  if (isa == GE__VK_ISA_AVX512)
    ge__vk_binary_avx512(op, a, sa, b, sb, y, n);
  else if (isa == GE__VK_ISA_AVX2)
    ge__vk_binary_avx2(op, a, sa, b, sb, y, n);
  else
    ge__vk_binary_base(op, a, sa, b, sb, y, n);
}

/* Picks the copy for isa: GE__VK_PICK(isa, name)(args). */
#define GE__VK_PICK(isa, name)                                                                                         \
  ((isa) == GE__VK_ISA_AVX512 ? name##_avx512 : (isa) == GE__VK_ISA_AVX2 ? name##_avx2 : name##_base)

/* ---------------------------------------------------- kernel helpers */

/* Elements per share of a parallel loop (~64 KiB of float32). */
#define GE__VK_GRAIN 16384

/* The reference kernel of c's node runs c: every case off the fast paths. */
static ge_status ge__vk_reference(ge_kernel_ctx *c) { return ge_host_cpu_run_reference(c); }

/* Input i is present, float32 and sane (else the reference handles it).
 * numel is -1 when a dim is negative (ge_value_set_shape; the executor
 * checks bound inputs agree with their dims), so no walk over the dims. */
GE__VK_INLINE int ge__vk_f32_in(const ge_kernel_ctx *c, uint32_t i) {
  const ge_value *v = i < c->num_inputs ? c->inputs[i] : NULL;
  return v && v->dtype == GE_DTYPE_FLOAT32 && (uint32_t)v->rank <= GE_MAX_RANK && v->numel >= 0 &&
         (v->data || !v->numel);
}

static ge_status ge__vk_out_failed(ge_kernel_ctx *c) {
  return c->err && c->err->code ? c->err->code : ge_kernel_error(c, GE_ERR_NOMEM, "cannot allocate the output");
}

/* ------------------------------------------------- parsed attributes */

/* What a kernel reads from its node's attributes, parsed once into
 * c->state (at load by its prepare call, or at its first run): no string
 * comparison per run. A kernel whose state is this may keep more after it
 * (AveragePool's reciprocal counts). */
typedef struct ge__vk_attrs {
  ge__vk_upar par;   /* parametric unary ops; Clip's min/max attributes */
  int op;            /* the unary op (Gelu's variant); -1: the reference decides */
  int64_t axis;      /* Softmax, LayerNormalization */
  double eps;        /* the norms */
  int flag, flag2;   /* BatchNormalization training_mode; Reduce keepdims, noop_with_empty_axes */
  int relu;          /* BatchNormalization, pools: _fused_activation Relu (1), none (0), another (-1) */
  int fused_bias;    /* pools: _fused_inputs 1 (input 1 a bias per channel), 0, or another (-1) */
  const float *pre;  /* pools: _pre_affine, scale and shift per input channel (NULL: none) */
  int64_t pre_c;     /* its channels */
  int pre_relu;      /* _pre_activation Relu (1), none (0); pre_bad: malformed */
  int pre_bad;
  int32_t n_ints;    /* Transpose perm, Reduce axes: how many (-1: absent; > GE_MAX_RANK: the reference) */
  int64_t ints[GE_MAX_RANK];
  /* 2-D pools */
  int pool_ok, auto_pad, ceil_mode, include_pad;
  int64_t k[2], s[2], d[2], pads[4];
  int64_t ninv, inv_h, inv_w; /* AveragePool: ninv floats after the struct, made for an inv_h x inv_w input */
} ge__vk_attrs;
typedef void (*ge__vk_parse_fn)(const ge_node *n, ge__vk_attrs *a);

/* c's parsed attributes (NULL: out of memory, the error set). */
static ge__vk_attrs *ge__vk_attrs_of(ge_kernel_ctx *c, ge__vk_parse_fn parse) {
  ge__vk_attrs *a = (ge__vk_attrs *)c->state;
  if (a) return a;
  if (!(a = (ge__vk_attrs *)calloc(1, sizeof *a))) {
    ge_kernel_error(c, GE_ERR_NOMEM, "out of memory");
    return NULL;
  }
  a->op = -1;
  a->n_ints = -1;
  a->inv_h = -1; /* no reciprocal counts yet */
  parse(c->node, a);
  c->state = a;
  return a;
}

/* A list attribute into a->ints (n_ints -1 when absent). */
static void ge__vk_parse_ints(const ge_node *n, const char *name, ge__vk_attrs *a) {
  const int64_t *v = NULL;
  int32_t k;
  if (!ge_node_attr(n, name)) return;
  a->n_ints = ge_node_attr_ints(n, name, &v);
  for (k = 0; k < a->n_ints && k < GE_MAX_RANK; k++) a->ints[k] = v[k];
}

/* ------------------------------------------------- element-wise kernels */

typedef struct ge__vk_unary_job {
  int isa, op;
  ge__vk_upar par;
  const float *x;
  float *y;
} ge__vk_unary_job;

static void ge__vk_unary_share(void *arg, int64_t begin, int64_t end) {
  const ge__vk_unary_job *j = (const ge__vk_unary_job *)arg;
  ge__vk_unary_rows(j->isa, j->op, &j->par, j->x + begin, j->y + begin, end - begin);
}

/* Memos (ge_kernel_ctx.memo) of the inline paths below: the path whose
 * checks passed on a task of fixed shapes, or'ed with the ISA. */
#define GE__VK_MEMO_UNARY 0x100u
#define GE__VK_MEMO_BINARY 0x200u
#define GE__VK_MEMO_PATH(m) ((m) & ~0xffu)
#define GE__VK_MEMO_ISA(m) ((int)((m) & 0xffu))

static const ge__vk_upar ge__vk_no_par = {0, 0, 0, 0};

/* ge__vk_unary past its memo. */
static ge_status ge__vk_unary_checked(ge_kernel_ctx *c, int op, const ge__vk_upar *par) {
  const ge_value *x;
  ge_value *y;
  ge__vk_unary_job j;
  if (c->num_outputs < 1 || !ge__vk_f32_in(c, 0)) return ge__vk_reference(c);
  x = c->inputs[0];
  y = c->outputs[0];
  if (!ge_value_is_planned(y, GE_DTYPE_FLOAT32, x->rank, x->dims) &&
      !(y = ge_kernel_output(c, 0, GE_DTYPE_FLOAT32, x->rank, x->dims)))
    return ge__vk_out_failed(c);
  if (x->numel <= GE__VK_GRAIN) {
    int isa = ge__vk_isa();
    ge_kernel_set_memo(c, GE__VK_MEMO_UNARY | (uint32_t)isa);
    ge__vk_unary_rows(isa, op, par ? par : &ge__vk_no_par, (const float *)x->data, (float *)y->data, x->numel);
    return GE_OK;
  }
  j.isa = ge__vk_isa();
  j.op = op;
  j.par = par ? *par : ge__vk_no_par;
  j.x = (const float *)x->data;
  j.y = (float *)y->data;
  ge_kernel_parallel_for(c, x->numel, GE__VK_GRAIN, ge__vk_unary_share, &j);
  return GE_OK;
}

/* y = op(x) over a float32 tensor of any shape; one share runs inline
 * with no job (a chain of small element-wise nodes costs little more
 * than its kernel calls), and with fixed shapes its checks run once. */
GE__VK_INLINE ge_status ge__vk_unary(ge_kernel_ctx *c, int op, const ge__vk_upar *par) {
  uint32_t memo = ge_kernel_memo(c);
  if (GE__VK_MEMO_PATH(memo) == GE__VK_MEMO_UNARY) {
    const ge_value *x = c->inputs[0];
    ge__vk_unary_rows(GE__VK_MEMO_ISA(memo), op, par ? par : &ge__vk_no_par, (const float *)x->data,
                      (float *)c->outputs[0]->data, x->numel);
    return GE_OK;
  }
  return ge__vk_unary_checked(c, op, par);
}

/* Broadcast a op b as rows: merged outer dims (dims[0..rank-1)) walked by
 * an odometer; each row is `inner` outputs, operand k stepping 0 or 1. */
typedef struct ge__vk_binary_job {
  int isa, op;
  int32_t rank;
  int64_t dims[GE_MAX_RANK], sa[GE_MAX_RANK], sb[GE_MAX_RANK];
  int64_t inner, rows;
  const float *a, *b;
  float *y;
} ge__vk_binary_job;

/* Element strides of v seen with output rank r (0 along broadcast dims). */
static void ge__vk_bcast_strides(const ge_value *v, int32_t r, int64_t *st) {
  int64_t s = 1;
  int32_t d;
  for (d = r - 1; d >= 0; d--) {
    int32_t k = d - (r - v->rank);
    st[d] = (k >= 0 && v->dims[k] != 1) ? s : 0;
    if (k >= 0) s *= v->dims[k];
  }
}

/* Plans y = a op b; 0 when the shapes do not broadcast. */
static int ge__vk_binary_plan(const ge_value *a, const ge_value *b, int32_t *yrank, int64_t *ydims,
                              ge__vk_binary_job *j) {
  int64_t st[2][GE_MAX_RANK];
  int32_t r = a->rank > b->rank ? a->rank : b->rank, d, m = 0;
  for (d = 0; d < r; d++) {
    int64_t da = d - (r - a->rank) >= 0 ? a->dims[d - (r - a->rank)] : 1;
    int64_t db = d - (r - b->rank) >= 0 ? b->dims[d - (r - b->rank)] : 1;
    if (da != db && da != 1 && db != 1) return 0;
    ydims[d] = da == 1 ? db : da;
  }
  *yrank = r;
  ge__vk_bcast_strides(a, r, st[0]);
  ge__vk_bcast_strides(b, r, st[1]);
  for (d = 0; d < r; d++) {
    if (ydims[d] == 1) continue;
    if (m > 0 && j->sa[m - 1] == st[0][d] * ydims[d] && j->sb[m - 1] == st[1][d] * ydims[d]) {
      j->dims[m - 1] *= ydims[d];
      j->sa[m - 1] = st[0][d];
      j->sb[m - 1] = st[1][d];
      continue;
    }
    j->dims[m] = ydims[d];
    j->sa[m] = st[0][d];
    j->sb[m] = st[1][d];
    m++;
  }
  if (m == 0) {
    j->dims[0] = 1;
    j->sa[0] = j->sb[0] = 0;
    m = 1;
  }
  j->rank = m;
  j->inner = j->dims[m - 1];
  j->rows = 1;
  for (d = 0; d < m - 1; d++)
    j->rows *= j->dims[d];
  return 1;
}

/* Rows [begin, end) of a broadcast job. */
static void ge__vk_binary_share(void *arg, int64_t begin, int64_t end) {
  const ge__vk_binary_job *j = (const ge__vk_binary_job *)arg;
  int64_t idx[GE_MAX_RANK], oa = 0, ob = 0, r, rem = begin;
  int32_t d, outer = j->rank - 1;
  int ia = j->sa[outer] != 0, ib = j->sb[outer] != 0;
  for (d = outer - 1; d >= 0; d--) {
    idx[d] = rem % j->dims[d];
    rem /= j->dims[d];
    oa += idx[d] * j->sa[d];
    ob += idx[d] * j->sb[d];
  }
  for (r = begin; r < end; r++) {
    ge__vk_binary_rows(j->isa, j->op, j->a + oa, ia, j->b + ob, ib, j->y + r * j->inner, j->inner);
    for (d = outer - 1; d >= 0; d--) { /* odometer step */
      oa += j->sa[d];
      ob += j->sb[d];
      if (++idx[d] < j->dims[d]) break;
      oa -= j->sa[d] * j->dims[d];
      ob -= j->sb[d] * j->dims[d];
      idx[d] = 0;
    }
  }
}

/* One row split in element ranges (same shapes, or one operand a scalar). */
static void ge__vk_binary_flat_share(void *arg, int64_t begin, int64_t end) {
  const ge__vk_binary_job *j = (const ge__vk_binary_job *)arg;
  int ia = j->sa[0] != 0, ib = j->sb[0] != 0;
  ge__vk_binary_rows(j->isa, j->op, j->a + (ia ? begin : 0), ia, j->b + (ib ? begin : 0), ib, j->y + begin,
                     end - begin);
}

static ge_status ge__vk_binary_on(ge_kernel_ctx *c, int op, const ge_value *a, const ge_value *b) {
  ge__vk_binary_job j;
  int32_t yr;
  int64_t yd[GE_MAX_RANK];
  ge_value *y;
  if (!ge__vk_binary_plan(a, b, &yr, yd, &j)) return ge__vk_reference(c); /* its error names the shapes */
  if (!(y = ge_kernel_output(c, 0, GE_DTYPE_FLOAT32, yr, yd))) return ge__vk_out_failed(c);
  if (y->numel == 0) return GE_OK;
  j.isa = ge__vk_isa();
  j.op = op;
  j.a = (const float *)a->data;
  j.b = (const float *)b->data;
  j.y = (float *)y->data;
  if (j.rows == 1)
    ge_kernel_parallel_for(c, j.inner, GE__VK_GRAIN, ge__vk_binary_flat_share, &j);
  else
    ge_kernel_parallel_for(c, j.rows, (GE__VK_GRAIN + j.inner - 1) / j.inner, ge__vk_binary_share, &j);
  return GE_OK;
}

/* ge__vk_binary past its memo. */
static ge_status ge__vk_binary_checked(ge_kernel_ctx *c, int op) {
  const ge_value *a, *b;
  ge_value *y;
  if (c->num_inputs != 2 || c->num_outputs < 1 || !ge__vk_f32_in(c, 0) || !ge__vk_f32_in(c, 1))
    return ge__vk_reference(c);
  a = c->inputs[0], b = c->inputs[1], y = c->outputs[0];
  if (a->numel <= GE__VK_GRAIN && ge_value_is_planned(y, GE_DTYPE_FLOAT32, a->rank, a->dims) &&
      ge_value_is_planned(y, GE_DTYPE_FLOAT32, b->rank, b->dims)) { /* same small shapes: one row, inline */
    int isa = ge__vk_isa();
    ge_kernel_set_memo(c, GE__VK_MEMO_BINARY | (uint32_t)isa);
    ge__vk_binary_rows(isa, op, (const float *)a->data, 1, (const float *)b->data, 1, (float *)y->data, a->numel);
    return GE_OK;
  }
  return ge__vk_binary_on(c, op, a, b);
}

/* a op b for the two float32 inputs of c (else the reference); with fixed
 * shapes, same small shapes are checked once. */
GE__VK_INLINE ge_status ge__vk_binary(ge_kernel_ctx *c, int op) {
  uint32_t memo = ge_kernel_memo(c);
  if (GE__VK_MEMO_PATH(memo) == GE__VK_MEMO_BINARY) {
    const ge_value *a = c->inputs[0], *b = c->inputs[1];
    ge__vk_binary_rows(GE__VK_MEMO_ISA(memo), op, (const float *)a->data, 1, (const float *)b->data, 1,
                       (float *)c->outputs[0]->data, a->numel);
    return GE_OK;
  }
  return ge__vk_binary_checked(c, op);
}

static ge_status ge__vk_k_add(ge_kernel_ctx *c) { return ge__vk_binary(c, GE__VK_B_ADD); }
static ge_status ge__vk_k_sub(ge_kernel_ctx *c) { return ge__vk_binary(c, GE__VK_B_SUB); }
static ge_status ge__vk_k_mul(ge_kernel_ctx *c) { return ge__vk_binary(c, GE__VK_B_MUL); }
static ge_status ge__vk_k_div(ge_kernel_ctx *c) { return ge__vk_binary(c, GE__VK_B_DIV); }
/* Max, Min, Sum are variadic: two inputs take the fast path. */
static ge_status ge__vk_k_max(ge_kernel_ctx *c) { return ge__vk_binary(c, GE__VK_B_MAX); }
static ge_status ge__vk_k_min(ge_kernel_ctx *c) { return ge__vk_binary(c, GE__VK_B_MIN); }
static ge_status ge__vk_k_sum(ge_kernel_ctx *c) { return ge__vk_binary(c, GE__VK_B_ADD); }

/* PRelu: the slope broadcasts to x (the reference handles the rest,
 * e.g. opset < 7 per-channel slopes). */
static ge_status ge__vk_k_prelu(ge_kernel_ctx *c) {
  const ge_value *x, *s;
  int32_t k;
  if (c->num_inputs != 2 || c->num_outputs < 1 || !ge__vk_f32_in(c, 0) || !ge__vk_f32_in(c, 1))
    return ge__vk_reference(c);
  x = c->inputs[0];
  s = c->inputs[1];
  if (s->rank > x->rank) return ge__vk_reference(c);
  for (k = 0; k < s->rank; k++)
    if (s->dims[k] != 1 && s->dims[k] != x->dims[k + x->rank - s->rank]) return ge__vk_reference(c);
  return ge__vk_binary_on(c, GE__VK_B_PRELU, x, s);
}

/* Pow with one float32 exponent: the common exponents by exact shortcuts,
 * the rest per element as the reference computes it. */
static ge_status ge__vk_k_pow(ge_kernel_ctx *c) {
  ge__vk_upar p;
  float e;
  int op;
  if (c->num_inputs != 2 || !ge__vk_f32_in(c, 0) || !ge__vk_f32_in(c, 1) || c->inputs[1]->numel != 1)
    return ge__vk_reference(c);
  e = ((const float *)c->inputs[1]->data)[0];
  memset(&p, 0, sizeof p);
  p.alpha = e;
  op = e == 2.0f    ? GE__VK_U_SQUARE
       : e == 0.5f  ? GE__VK_U_POW_HALF
       : e == -1.0f ? GE__VK_U_RECIP
       : e == 0.0f  ? GE__VK_U_ONE
                    : GE__VK_U_POWC;
  return ge__vk_unary(c, op, &p);
}

#define GE__VK_UNARY_KERNEL(fname, OP)                                                                                 \
  static ge_status ge__vk_k_##fname(ge_kernel_ctx *c) { return ge__vk_unary(c, GE__VK_U_##OP, NULL); }
GE__VK_UNARY_KERNEL(relu, RELU)
GE__VK_UNARY_KERNEL(neg, NEG)
GE__VK_UNARY_KERNEL(abs, ABS)
GE__VK_UNARY_KERNEL(exp, EXP)
GE__VK_UNARY_KERNEL(log, LOG)
GE__VK_UNARY_KERNEL(sqrt, SQRT)
GE__VK_UNARY_KERNEL(reciprocal, RECIP)
GE__VK_UNARY_KERNEL(sigmoid, SIGMOID)
GE__VK_UNARY_KERNEL(tanh, TANH)
GE__VK_UNARY_KERNEL(erf, ERF)
GE__VK_UNARY_KERNEL(softplus, SOFTPLUS)
GE__VK_UNARY_KERNEL(softsign, SOFTSIGN)
GE__VK_UNARY_KERNEL(mish, MISH)
GE__VK_UNARY_KERNEL(hard_swish, HARDSWISH)

/* Unary kernels with float attributes (ONNX defaults when absent), parsed
 * once: a->op and a->par. */
static ge_status ge__vk_unary_parsed(ge_kernel_ctx *c, ge__vk_parse_fn parse) {
  const ge__vk_attrs *a = ge__vk_attrs_of(c, parse);
  if (!a) return GE_ERR_NOMEM;
  if (ge_kernel_preparing(c)) return GE_OK;
  return a->op < 0 ? ge__vk_reference(c) : ge__vk_unary(c, a->op, &a->par);
}
static void ge__vk_parse_leaky_relu(const ge_node *n, ge__vk_attrs *a) {
  a->op = GE__VK_U_LEAKYRELU, a->par.alpha = (float)ge_node_attr_float(n, "alpha", 0.01);
}
static void ge__vk_parse_hard_sigmoid(const ge_node *n, ge__vk_attrs *a) {
  a->op = GE__VK_U_HARDSIGMOID;
  a->par.alpha = (float)ge_node_attr_float(n, "alpha", 0.2), a->par.beta = (float)ge_node_attr_float(n, "beta", 0.5);
}
static void ge__vk_parse_thresholded_relu(const ge_node *n, ge__vk_attrs *a) {
  a->op = GE__VK_U_THRESHOLDEDRELU, a->par.alpha = (float)ge_node_attr_float(n, "alpha", 1.0);
}
static void ge__vk_parse_elu(const ge_node *n, ge__vk_attrs *a) {
  a->op = GE__VK_U_ELU, a->par.alpha = (float)ge_node_attr_float(n, "alpha", 1.0);
}
static void ge__vk_parse_celu(const ge_node *n, ge__vk_attrs *a) {
  a->op = GE__VK_U_CELU, a->par.alpha = (float)ge_node_attr_float(n, "alpha", 1.0);
}
/* Selu: beta carries gamma * alpha. */
static void ge__vk_parse_selu(const ge_node *n, ge__vk_attrs *a) {
  double alpha = ge_node_attr_float(n, "alpha", 1.67326319217681884765625);
  double gamma = ge_node_attr_float(n, "gamma", 1.05070102214813232421875);
  a->op = GE__VK_U_SELU, a->par.gamma = (float)gamma, a->par.beta = (float)(gamma * alpha);
}
/* Gelu: a bad `approximate` goes to the reference, which names it. */
static void ge__vk_parse_gelu(const ge_node *n, ge__vk_attrs *a) {
  const char *s = ge_node_attr_string(n, "approximate", "none");
  a->op = !strcmp(s, "none") ? GE__VK_U_GELU : !strcmp(s, "tanh") ? GE__VK_U_GELU_TANH : -1;
}
static ge_status ge__vk_k_leaky_relu(ge_kernel_ctx *c) { return ge__vk_unary_parsed(c, ge__vk_parse_leaky_relu); }
static ge_status ge__vk_k_hard_sigmoid(ge_kernel_ctx *c) { return ge__vk_unary_parsed(c, ge__vk_parse_hard_sigmoid); }
static ge_status ge__vk_k_thresholded_relu(ge_kernel_ctx *c) {
  return ge__vk_unary_parsed(c, ge__vk_parse_thresholded_relu);
}
static ge_status ge__vk_k_elu(ge_kernel_ctx *c) { return ge__vk_unary_parsed(c, ge__vk_parse_elu); }
static ge_status ge__vk_k_celu(ge_kernel_ctx *c) { return ge__vk_unary_parsed(c, ge__vk_parse_celu); }
static ge_status ge__vk_k_selu(ge_kernel_ctx *c) { return ge__vk_unary_parsed(c, ge__vk_parse_selu); }
static ge_status ge__vk_k_gelu(ge_kernel_ctx *c) { return ge__vk_unary_parsed(c, ge__vk_parse_gelu); }

/* Clip: bounds from inputs 1, 2 (float32 scalars) or the min/max
 * attributes (opset < 11), read once; NaN bounds go to the reference. */
static void ge__vk_parse_clip(const ge_node *n, ge__vk_attrs *a) {
  a->op = GE__VK_U_CLIP;
  a->par.alpha = (float)ge_node_attr_float(n, "min", -HUGE_VAL), a->par.beta = (float)ge_node_attr_float(n, "max", HUGE_VAL);
}
static ge_status ge__vk_k_clip(ge_kernel_ctx *c) {
  const ge__vk_attrs *a = ge__vk_attrs_of(c, ge__vk_parse_clip);
  ge__vk_upar p;
  double lo, hi;
  uint32_t k;
  if (!a) return GE_ERR_NOMEM;
  if (ge_kernel_preparing(c)) return GE_OK; /* the bounds' inputs are read at each run */
  lo = a->par.alpha, hi = a->par.beta;
  for (k = 1; k < 3 && k < c->num_inputs; k++) {
    if (!c->inputs[k]) continue;
    if (!ge__vk_f32_in(c, k) || c->inputs[k]->numel != 1) return ge__vk_reference(c);
    if (k == 1)
      lo = ((const float *)c->inputs[k]->data)[0];
    else
      hi = ((const float *)c->inputs[k]->data)[0];
  }
  if (lo != lo || hi != hi) return ge__vk_reference(c);
  memset(&p, 0, sizeof p);
  p.alpha = (float)lo;
  p.beta = (float)hi;
  if (lo > hi) p.alpha = p.beta; /* numpy: everything becomes hi */
  return ge__vk_unary(c, GE__VK_U_CLIP, &p);
}

/* ------------------------------------------------------- 2-D pooling */

/* Geometry of a 2-D pool over NCHW (per axis: kernel, stride, dilation,
 * pad at the beginning, output size). */
typedef struct ge__vk_pool {
  int isa, is_max, include_pad;
  int64_t planes, ih, iw, oh, ow;
  int64_t k[2], s[2], d[2], pb[2], pe[2];
  const float *x;
  float *y;
  const float *inv; /* AveragePool: 1 / the count of each output (oh x ow) */
} ge__vk_pool;

/* The output size along one axis as the reference computes it (auto_pad:
 * 0 NOTSET, 1 SAME_UPPER, 2 SAME_LOWER, 3 VALID); 0 when there is none. */
static int64_t ge__vk_pool_axis(int ap, int ceil_mode, int64_t in, int64_t k, int64_t s, int64_t d, int64_t *pb,
                                int64_t *pe) {
  int64_t eff = (k - 1) * d + 1, out, total;
  if (ap == 0) {
    int64_t num = in + *pb + *pe - eff;
    if (num < 0) return 0;
    if (!ceil_mode) return num / s + 1;
    out = (num + s - 1) / s + 1;
    if ((out - 1) * s >= in + *pb) out--; /* no window may start in the end padding */
    return out;
  }
  if (ap == 3) {
    *pb = *pe = 0;
    return in >= eff ? (in - eff) / s + 1 : 0;
  }
  out = (in + s - 1) / s;
  total = (out - 1) * s + eff - in;
  if (total < 0) total = 0;
  *pb = ap == 1 ? total / 2 : total - total / 2;
  *pe = total - *pb;
  return out;
}

/* A list attribute of exactly `want` values into out, or absent (out
 * keeps its default); 0 for any other count. */
static int ge__vk_parse_fixed(const ge_node *n, const char *name, int32_t want, int64_t *out) {
  const int64_t *v;
  int32_t k;
  if (!ge_node_attr(n, name)) return 1;
  if (ge_node_attr_ints(n, name, &v) != want) return 0;
  for (k = 0; k < want; k++) out[k] = v[k];
  return 1;
}

/* What AI Core's optimiser fused into a pool (ai_core.h, steps 5 and 6):
 * an input prologue (_pre_affine, _pre_activation, as a Conv's) and an
 * epilogue (a bias per channel as input 1 with _fused_inputs = 1, then
 * _fused_activation Relu). */
static void ge__vk_parse_pool_fused(const ge_node *n, ge__vk_attrs *a) {
  int64_t fused = ge_node_attr_int(n, "_fused_inputs", 0);
  const char *act = ge_node_attr_string(n, "_fused_activation", ""), *pre_act = ge_node_attr_string(n, "_pre_activation", "");
  const ge_attr *pa = ge_node_attr(n, "_pre_affine");
  const ge_tensor *t = pa && pa->type == GE_ATTR_TENSOR ? pa->v.t : NULL;
  a->relu = !*act ? 0 : !strcmp(act, "Relu") ? 1 : -1;
  a->fused_bias = fused == 0 || fused == 1 ? (int)fused : -1;
  if (!pa && !*pre_act) return;
  a->pre_bad = !t || !t->data || t->dtype != GE_DTYPE_FLOAT32 || t->rank != 2 || t->dims[0] != 2 ||
               t->nbytes != (size_t)(2 * t->dims[1]) * sizeof(float) || (*pre_act && strcmp(pre_act, "Relu"));
  if (a->pre_bad) return;
  a->pre = (const float *)t->data, a->pre_c = t->dims[1], a->pre_relu = *pre_act != 0;
}

/* A 2-D pool's attributes; pool_ok 0 for bad or unusual ones (the
 * reference's). */
static void ge__vk_parse_pool(const ge_node *n, ge__vk_attrs *a) {
  const char *ap = ge_node_attr_string(n, "auto_pad", "NOTSET");
  a->auto_pad = !strcmp(ap, "NOTSET") ? 0 : !strcmp(ap, "SAME_UPPER") ? 1 : !strcmp(ap, "SAME_LOWER") ? 2
                : !strcmp(ap, "VALID")                                 ? 3
                                                                       : -1;
  a->ceil_mode = ge_node_attr_int(n, "ceil_mode", 0) != 0;
  a->include_pad = ge_node_attr_int(n, "count_include_pad", 0) != 0;
  a->s[0] = a->s[1] = a->d[0] = a->d[1] = 1;
  ge__vk_parse_pool_fused(n, a);
  a->pool_ok = a->auto_pad >= 0 && ge_node_attr_int(n, "storage_order", 0) == 0 && ge_node_attr(n, "kernel_shape") &&
               ge__vk_parse_fixed(n, "kernel_shape", 2, a->k) && ge__vk_parse_fixed(n, "strides", 2, a->s) &&
               ge__vk_parse_fixed(n, "dilations", 2, a->d) && ge__vk_parse_fixed(n, "pads", 4, a->pads);
}

/* The geometry of a 2-D pool over x; 0 for anything the reference should
 * see (other ranks, bad or unusual attributes, empty outputs). */
static int ge__vk_pool_setup(const ge__vk_attrs *a, const ge_value *x, ge__vk_pool *p) {
  int i;
  if (x->rank != 4 || !a->pool_ok) return 0;
  for (i = 0; i < 2; i++) {
    p->k[i] = a->k[i], p->s[i] = a->s[i], p->d[i] = a->d[i];
    p->pb[i] = a->pads[i], p->pe[i] = a->pads[i + 2];
  }
  for (i = 0; i < 2; i++)
    if (p->k[i] < 1 || p->s[i] < 1 || p->d[i] < 1 || p->pb[i] < 0 || p->pe[i] < 0 || p->k[i] > 4096 || p->s[i] > 4096 ||
        p->d[i] > 4096 || p->pb[i] > 4096 || p->pe[i] > 4096)
      return 0;
  p->planes = x->dims[0] * x->dims[1];
  p->ih = x->dims[2];
  p->iw = x->dims[3];
  p->oh = ge__vk_pool_axis(a->auto_pad, a->ceil_mode, p->ih, p->k[0], p->s[0], p->d[0], &p->pb[0], &p->pe[0]);
  p->ow = ge__vk_pool_axis(a->auto_pad, a->ceil_mode, p->iw, p->k[1], p->s[1], p->d[1], &p->pb[1], &p->pe[1]);
  return p->oh > 0 && p->ow > 0;
}

/* Window taps [*lo, *hi) of output o along an axis that land in [0, lim). */
static void ge__vk_taps(int64_t o, int64_t s, int64_t d, int64_t pb, int64_t k, int64_t lim, int64_t *lo, int64_t *hi) {
  int64_t start = o * s - pb;
  *lo = start >= 0 ? 0 : (-start + d - 1) / d;
  *hi = start + (k - 1) * d < lim ? k : (lim - 1 - start) / d + 1;
  if (*hi < *lo || lim - 1 - start < 0) *hi = *lo;
}

/* Output rows [begin, end) of all planes (row r: plane r / oh, row r % oh). */
static void ge__vk_pool_share(void *arg, int64_t begin, int64_t end) {
  const ge__vk_pool *p = (const ge__vk_pool *)arg;
  int64_t r;
  int isa = p->isa; /* short rows take narrower vectors, whole ones */
#if GE__VK_X86
  if (isa == GE__VK_ISA_AVX512 && p->ow < 16 && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
    isa = GE__VK_ISA_AVX2;
#endif
  if (isa == GE__VK_ISA_AVX2 && p->ow < 8) isa = GE__VK_ISA_BASE;
  for (r = begin; r < end; r++) {
    int64_t pl = r / p->oh, oh = r % p->oh, kh0, kh1;
    const float *xp = p->x + pl * p->ih * p->iw;
    float *yr = p->y + r * p->ow;
    ge__vk_taps(oh, p->s[0], p->d[0], p->pb[0], p->k[0], p->ih, &kh0, &kh1);
    GE__VK_PICK(isa, ge__vk_pool_row)
    (p->is_max, kh1 > kh0 ? xp + (oh * p->s[0] - p->pb[0] + kh0 * p->d[0]) * p->iw : xp, kh1 - kh0, p->d[0] * p->iw, p->iw, p->k[1],
     p->s[1], p->d[1], p->pb[1], p->ow, yr);
    if (!p->is_max) GE__VK_PICK(isa, ge__vk_binary)(GE__VK_B_MUL, yr, 1, p->inv + oh * p->ow, 1, yr, p->ow);
  }
}

/* The count of an AveragePool's window along one axis at output o: its
 * valid taps, or (include_pad) those inside the padded input. */
static int64_t ge__vk_pool_count(const ge__vk_pool *p, int axis, int64_t o, int64_t in) {
  int64_t lo, hi;
  if (p->include_pad) ge__vk_taps(o, p->s[axis], p->d[axis], 0, p->k[axis], in + p->pb[axis] + p->pe[axis], &lo, &hi);
  else ge__vk_taps(o, p->s[axis], p->d[axis], p->pb[axis], p->k[axis], in, &lo, &hi);
  return hi - lo;
}

/* An AveragePool's reciprocal counts, one per output position (0 for an
 * empty window). */
static void ge__vk_pool_fill_inv(const ge__vk_pool *p, float *inv) {
  int64_t i, j;
  for (i = 0; i < p->oh; i++) {
    int64_t rows = ge__vk_pool_count(p, 0, i, p->ih);
    for (j = 0; j < p->ow; j++) {
      int64_t cnt = rows * ge__vk_pool_count(p, 1, j, p->iw);
      inv[i * p->ow + j] = cnt ? 1.0f / (float)cnt : 0.0f;
    }
  }
}

/* The reciprocal counts kept after the parsed attributes in the kernel
 * state, made once per input size: a run multiplies instead of dividing,
 * and allocates nothing. */
static const float *ge__vk_pool_inv(ge_kernel_ctx *c, const ge__vk_pool *p) {
  ge__vk_attrs *a = (ge__vk_attrs *)c->state;
  int64_t n = p->oh * p->ow;
  if (a->inv_h == p->ih && a->inv_w == p->iw) return (const float *)(a + 1);
  if (a->ninv < n) {
    ge__vk_attrs *g = (ge__vk_attrs *)realloc(a, sizeof *a + (size_t)n * sizeof(float));
    if (!g) return NULL;
    g->ninv = n;
    c->state = a = g;
  }
  ge__vk_pool_fill_inv(p, (float *)(a + 1));
  a->inv_h = p->ih, a->inv_w = p->iw;
  return (const float *)(a + 1);
}

/* MaxPool and AveragePool by whole planes (dilation 1, column stride <= 2,
 * pads smaller than the kernel): each plane, padded with -inf (max) or
 * zeros (sum) when it has pads (else read in place), gets the column max of every window start as one run
 * over its flattened rows (hq columns a row, the ones past ow unused), then
 * the row max of kh such rows, again flattened when the row stride is 1.
 * Small planes (the short rows of speech and detection models) then take
 * whole vectors instead of a call per output row; a plane too big for the
 * buffers goes in bands of output rows (the stem pools of SqueezeNet and
 * GoogLeNet). An average then divides by its window's count (Inception's
 * 3x3 stride-1 pools with padding). */
#define GE__VK_PLANE_FLOATS 8192 /* stack floats of one plane's buffers */

typedef struct ge__vk_mpg {
  int64_t rows, wpad, hq, direct; /* padded rows, padded row width (a multiple of s[1]), column maxima a row */
  int64_t band, bands;            /* output rows a unit of work (a band of the plane), bands a plane */
  int rowwise;                    /* wide rows without pads: row by row in place (ge__vk_rows_band) */
} ge__vk_mpg;

/* Whether ge__vk_pool_s2_avx512 takes a pool's rows: column stride 2 and
 * 2- or 3-wide windows (the 3x3 stride-2 pools of SqueezeNet, GoogLeNet,
 * Inception), at AVX-512. */
static int ge__vk_pool_s2_fits(const ge__vk_pool *p) {
#if GE__VK_X86
  return p->isa == GE__VK_ISA_AVX512 && p->s[1] == 2 && (p->k[1] == 2 || p->k[1] == 3);
#else
  (void)p;
  return 0;
#endif
}

/* Wide rows (a vector or more of outputs) with every window inside the
 * plane (no pads, or ceil mode's extra window not needed) need no padded
 * copy: the column max of each input row goes straight from x, ow a row
 * (SqueezeNet's 3x3 stride-2 pools on odd sizes, whose rows would not
 * line up flattened). */
static int ge__vk_rowwise_geom(const ge__vk_pool *p, ge__vk_mpg *g) {
  int64_t per;
  if (p->pb[0] || p->pb[1] || (p->ow < 16 && !ge__vk_pool_s2_fits(p)) || (p->oh - 1) * p->s[0] + p->k[0] > p->ih ||
      (p->ow - 1) * p->s[1] + p->k[1] > p->iw)
    return 0;
  per = p->ow * p->s[0]; /* h floats an output row adds */
  g->band = (GE__VK_PLANE_FLOATS - p->ow * p->k[0]) / per + 1;
  if (g->band < 1 || p->ow * p->k[0] > GE__VK_PLANE_FLOATS) return 0;
  if (g->band > p->oh) g->band = p->oh;
  g->bands = (p->oh + g->band - 1) / g->band;
  g->rowwise = 1;
  return 1;
}

/* Floats of the buffers for a band of ob output rows. */
static int64_t ge__vk_band_need(const ge__vk_pool *p, const ge__vk_mpg *g, int64_t ob) {
  int64_t rows = (ob - 1) * p->s[0] + p->k[0];
  return (g->direct ? 0 : rows * g->wpad) + rows * g->hq + ob * g->hq;
}

static int ge__vk_maxpool_geom(const ge__vk_pool *p, ge__vk_mpg *g) {
  int i;
  for (i = 0; i < 2; i++)
    if (p->d[i] != 1 || p->pb[i] >= p->k[i] || p->pe[i] >= p->k[i]) return 0;
  if (p->s[1] > 2) return 0;
  g->rowwise = 0;
  if (ge__vk_rowwise_geom(p, g)) return 1;
  g->rows = p->ih + p->pb[0];
  if (g->rows < (p->oh - 1) * p->s[0] + p->k[0]) g->rows = (p->oh - 1) * p->s[0] + p->k[0];
  g->wpad = p->iw + p->pb[1];
  if (g->wpad < (p->ow - 1) * p->s[1] + p->k[1]) g->wpad = (p->ow - 1) * p->s[1] + p->k[1];
  g->wpad = (g->wpad + p->s[1] - 1) / p->s[1] * p->s[1];
  g->hq = g->wpad / p->s[1];
  g->direct = p->pb[0] == 0 && p->pb[1] == 0 && g->wpad == p->iw && g->rows <= p->ih;
  /* the whole plane, else bands of output rows whose buffers fit */
  g->band = p->oh;
  if (ge__vk_band_need(p, g, g->band) > GE__VK_PLANE_FLOATS) {
    int64_t per = p->s[0] * ((g->direct ? 0 : g->wpad) + g->hq) + g->hq;
    g->band = GE__VK_PLANE_FLOATS / per;
    while (g->band > 0 && ge__vk_band_need(p, g, g->band) > GE__VK_PLANE_FLOATS) g->band--;
    if (g->band < 1) return 0;
  }
  g->bands = (p->oh + g->band - 1) / g->band;
  return 1;
}

/* The two passes over one (padded) plane src into y. */
static void ge__vk_plane_passes(const ge__vk_pool *p, const ge__vk_mpg *g, int isa, const float *src, float *h, float *v,
                                float *y) {
  int64_t r, nh = (g->rows - 1) * g->hq + p->ow; /* the last row's unused columns are not computed */
  int m = p->is_max;
  if (p->k[0] == 1 && p->s[0] == 1 && g->hq == p->ow) { /* one pass, straight into y */
    GE__VK_PICK(isa, ge__vk_hmax)(m, src, p->oh * p->ow, p->s[1], p->k[1], y);
    return;
  }
  GE__VK_PICK(isa, ge__vk_hmax)(m, src, nh, p->s[1], p->k[1], h);
  if (p->s[0] == 1) {
    int64_t n = (p->oh - 1) * g->hq + p->ow;
    if (g->hq == p->ow) {
      GE__VK_PICK(isa, ge__vk_vmax)(m, h, n, g->hq, p->k[0], y);
      return;
    }
    GE__VK_PICK(isa, ge__vk_vmax)(m, h, n, g->hq, p->k[0], v);
    for (r = 0; r < p->oh; r++) memcpy(y + r * p->ow, v + r * g->hq, (size_t)p->ow * sizeof(float));
    return;
  }
  for (r = 0; r < p->oh; r++)
    GE__VK_PICK(isa, ge__vk_vmax)(m, h + r * p->s[0] * g->hq, p->ow, g->hq, p->k[0], y + r * p->ow);
}

/* An average's window sums in y (output rows [o0, o0 + ob) of a plane)
 * times their reciprocal counts. */
static void ge__vk_pool_divide(const ge__vk_pool *p, float *y, int64_t o0, int64_t ob) {
  GE__VK_PICK(p->isa, ge__vk_binary)(GE__VK_B_MUL, y, 1, p->inv + o0 * p->ow, 1, y, ob * p->ow);
}

typedef struct ge__vk_mpjob {
  const ge__vk_pool *p;
  ge__vk_mpg g;
} ge__vk_mpjob;

#if GE__VK_X86
/* Output rows [0, ob) of a band whose first input row is src, every window
 * inside the plane (ge__vk_rowwise_geom): per 16 outputs of a row, the
 * max (sum) over the window's kh input rows of its 2 x 16 + 1 input
 * columns in registers, then the even columns and the odd ones by two
 * permutes and the third tap's (the even ones a column on) by an align. No
 * row buffer and no call per row: the two passes of ge__vk_rows_band took
 * SqueezeNet's 3x3 stride-2 pools 2-3x ONNX Runtime's time. Interior
 * vectors load whole (a masked load costs Zen 4 half again). */
GE__VK_ATTR_avx512 static void ge__vk_pool_s2_avx512(const ge__vk_pool *p, const float *src, int64_t ob, float *y) {
  const __m512i ie = _mm512_set_epi32(30, 28, 26, 24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 0);
  const __m512i io = _mm512_set_epi32(31, 29, 27, 25, 23, 21, 19, 17, 15, 13, 11, 9, 7, 5, 3, 1);
  const int m = p->is_max, three = p->k[1] == 3;
  const int64_t iw = p->iw, ow = p->ow, kh = p->k[0];
  int64_t r, c0, t;
  for (r = 0; r < ob; r++, y += ow) {
    const float *row = src + r * p->s[0] * iw;
    for (c0 = 0; c0 < ow; c0 += 16) {
      const int64_t n = ow - c0 < 16 ? ow - c0 : 16, need = 2 * (n - 1) + p->k[1]; /* input columns read */
      const float *x = row + 2 * c0;
      ge__vk_v_avx512 a, b, c = {0}, v, e, o;
      if (need >= 32) {
        a = (ge__vk_v_avx512)_mm512_loadu_ps(x), b = (ge__vk_v_avx512)_mm512_loadu_ps(x + 16);
        if (need > 32) c = (ge__vk_v_avx512)_mm512_maskz_loadu_ps(1, x + 32);
        for (t = 1; t < kh; t++) {
          const float *xt = x + t * iw;
          a = ge__vk_binary_v_avx512(m ? GE__VK_B_MAX : GE__VK_B_ADD, (ge__vk_v_avx512)_mm512_loadu_ps(xt), a);
          b = ge__vk_binary_v_avx512(m ? GE__VK_B_MAX : GE__VK_B_ADD, (ge__vk_v_avx512)_mm512_loadu_ps(xt + 16), b);
          if (need > 32)
            c = ge__vk_binary_v_avx512(m ? GE__VK_B_MAX : GE__VK_B_ADD,
                                       (ge__vk_v_avx512)_mm512_maskz_loadu_ps(1, xt + 32), c);
        }
      } else {
        const __mmask16 ma = (__mmask16)(need >= 16 ? 0xffffu : (1u << need) - 1u);
        const __mmask16 mb = (__mmask16)(need <= 16 ? 0u : (1u << (need - 16)) - 1u);
        a = (ge__vk_v_avx512)_mm512_maskz_loadu_ps(ma, x), b = (ge__vk_v_avx512)_mm512_maskz_loadu_ps(mb, x + 16);
        for (t = 1; t < kh; t++) {
          const float *xt = x + t * iw;
          a = ge__vk_binary_v_avx512(m ? GE__VK_B_MAX : GE__VK_B_ADD, (ge__vk_v_avx512)_mm512_maskz_loadu_ps(ma, xt),
                                     a);
          b = ge__vk_binary_v_avx512(m ? GE__VK_B_MAX : GE__VK_B_ADD,
                                     (ge__vk_v_avx512)_mm512_maskz_loadu_ps(mb, xt + 16), b);
        }
      }
      e = (ge__vk_v_avx512)_mm512_permutex2var_ps((__m512)a, ie, (__m512)b);
      o = (ge__vk_v_avx512)_mm512_permutex2var_ps((__m512)a, io, (__m512)b);
      v = ge__vk_binary_v_avx512(m ? GE__VK_B_MAX : GE__VK_B_ADD, o, e);
      if (three) /* column 2j + 2: the even ones from lane 1, then c's */
        v = ge__vk_binary_v_avx512(m ? GE__VK_B_MAX : GE__VK_B_ADD,
                                   (ge__vk_v_avx512)_mm512_castsi512_ps(_mm512_alignr_epi32(
                                       _mm512_castps_si512((__m512)c), _mm512_castps_si512((__m512)e), 1)),
                                   v);
      _mm512_mask_storeu_ps(y + c0, (__mmask16)((1u << n) - 1u), (__m512)v);
    }
  }
}
#endif

/* Output rows [o0, o0 + ob) of plane x into y by rows in place: the
 * column max of every input row they read into h (ow a row), then the
 * row max of kh of them per output row (one flattened run at row stride 1). */
static void ge__vk_rows_band(const ge__vk_pool *p, const float *x, float *h, int64_t o0, int64_t ob, float *y) {
  int64_t r, rows = (ob - 1) * p->s[0] + p->k[0], ow = p->ow;
  int m = p->is_max, isa = p->isa;
  const float *src = x + o0 * p->s[0] * p->iw;
#if GE__VK_X86
  if (ge__vk_pool_s2_fits(p)) {
    ge__vk_pool_s2_avx512(p, src, ob, y);
    return;
  }
#endif
  /* rows a stride apart: the max (sum) over each window's kh rows first, a
   * contiguous pass over whole input rows, then the strided column pass
   * once an output row instead of once an input row (at stride 2 it loads
   * two vectors and shuffles a tap: the dearer pass). SqueezeNet's 3x3
   * stride-2 pools on 111x111 and 55x55: 164 -> 133 and 98 -> 88 us. */
  if (p->s[0] > 1 && p->iw <= GE__VK_PLANE_FLOATS) {
    for (r = 0; r < ob; r++) {
      GE__VK_PICK(isa, ge__vk_vmax)(m, src + r * p->s[0] * p->iw, p->iw, p->iw, p->k[0], h);
      GE__VK_PICK(isa, ge__vk_hmax)(m, h, ow, p->s[1], p->k[1], y + r * ow);
    }
    return;
  }
  for (r = 0; r < rows; r++) GE__VK_PICK(isa, ge__vk_hmax)(m, src + r * p->iw, ow, p->s[1], p->k[1], h + r * ow);
  if (p->s[0] == 1) {
    GE__VK_PICK(isa, ge__vk_vmax)(m, h, ob * ow, ow, p->k[0], y);
    return;
  }
  for (r = 0; r < ob; r++) GE__VK_PICK(isa, ge__vk_vmax)(m, h + r * p->s[0] * ow, ow, ow, p->k[0], y + r * ow);
}

/* Units [begin, end): band u % bands of plane u / bands. */
static void ge__vk_maxpool_planes(void *arg, int64_t begin, int64_t end) {
  const ge__vk_mpjob *j = (const ge__vk_mpjob *)arg;
  const ge__vk_pool *p = j->p;
  const ge__vk_mpg *g = &j->g;
  float buf[GE__VK_PLANE_FLOATS];
  int64_t u;
  int isa = p->isa;
  float fill = p->is_max ? -HUGE_VALF : 0.0f; /* changes no max or sum */
  for (u = begin; u < end; u++) {
    int64_t pl = u / g->bands, o0 = u % g->bands * g->band, ob = p->oh - o0 < g->band ? p->oh - o0 : g->band;
    int64_t r0 = o0 * p->s[0]; /* the band's first padded row */
    const float *x = p->x + pl * p->ih * p->iw, *src = x + r0 * p->iw;
    float *y = p->y + (pl * p->oh + o0) * p->ow, *pad = buf, *h, *v;
    ge__vk_pool bp = *p;
    ge__vk_mpg bg = *g;
    if (g->rowwise) {
      ge__vk_rows_band(p, x, buf, o0, ob, y);
      if (!p->is_max) ge__vk_pool_divide(p, y, o0, ob);
      continue;
    }
    bp.oh = ob;
    bg.rows = (ob - 1) * p->s[0] + p->k[0];
    h = buf + (g->direct ? 0 : bg.rows * g->wpad), v = h + bg.rows * g->hq;
    if (!g->direct) { /* the fill around the rows */
      GE__VK_PICK(isa, ge__vk_pad_rows)(x, p->ih, p->iw, p->pb[0], p->pb[1], r0, bg.rows, g->wpad, fill, pad);
      src = pad;
    }
    ge__vk_plane_passes(&bp, &bg, isa, src, h, v, y);
    if (!p->is_max) ge__vk_pool_divide(p, y, o0, ob);
  }
}

/* A pool's epilogue, made by AI Core's optimiser when it moves a 1x1 Conv
 * before the pool (ai_core.h, step 5): the Conv's bias per channel (input
 * 1, _fused_inputs = 1), then its Relu. */
typedef struct ge__vk_post {
  int isa, relu;
  int64_t channels, plane; /* plane: floats of one output channel */
  const float *bias;
  float *y;
} ge__vk_post;

/* Output planes [begin, end) of n*C. */
static void ge__vk_post_planes(const ge__vk_post *q, int64_t begin, int64_t end) {
  int64_t pl;
  for (pl = begin; pl < end; pl++) {
    float *y = q->y + pl * q->plane;
    if (q->bias) {
      ge__vk_upar b;
      memset(&b, 0, sizeof b);
      b.alpha = 1.0f, b.beta = q->bias[pl % q->channels];
      ge__vk_unary_rows(q->isa, GE__VK_U_AFFINE, &b, y, y, q->plane);
    }
    if (q->relu) ge__vk_unary_rows(q->isa, GE__VK_U_RELU, &ge__vk_no_par, y, y, q->plane);
  }
}
static void ge__vk_post_share(void *arg, int64_t begin, int64_t end) {
  ge__vk_post_planes((const ge__vk_post *)arg, begin, end);
}

/* q for c's output y (q->y NULL: no epilogue); an error when the bias does
 * not fit y's channels. */
static ge_status ge__vk_post_setup(ge_kernel_ctx *c, const ge__vk_attrs *a, const ge_value *y, ge__vk_post *q) {
  const ge_value *b = a->fused_bias == 1 && c->num_inputs > 1 ? c->inputs[1] : NULL;
  memset(q, 0, sizeof *q);
  if (!a->relu && !a->fused_bias) return GE_OK;
  if (!y || y->dtype != GE_DTYPE_FLOAT32 || y->rank < 2)
    return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "a pool's fused bias or Relu needs a float32 output of rank >= 2");
  if (a->fused_bias && (!ge__vk_f32_in(c, 1) || b->numel != y->dims[1]))
    return ge_kernel_error(c, GE_ERR_INVALID, "_fused_inputs = 1 needs input 1: a float32 bias of %lld values",
                           (long long)y->dims[1]);
  q->isa = ge__vk_isa();
  q->relu = a->relu;
  q->bias = b ? (const float *)b->data : NULL;
  q->channels = y->dims[1];
  q->plane = y->dims[0] > 0 && y->dims[1] > 0 ? y->numel / (y->dims[0] * y->dims[1]) : 0;
  q->y = (float *)y->data;
  return GE_OK;
}

/* The reference pool, then the epilogue. */
static ge_status ge__vk_pool_reference(ge_kernel_ctx *c, const ge__vk_attrs *a) {
  ge__vk_post q;
  ge_status st = ge__vk_reference(c);
  if (st != GE_OK || (!a->relu && !a->fused_bias)) return st;
  if ((st = ge__vk_post_setup(c, a, c->outputs[0], &q)) != GE_OK) return st;
  if (q.plane) ge__vk_post_planes(&q, 0, q.channels * c->outputs[0]->dims[0]);
  return GE_OK;
}

/* 3x3 stride-1 pools with one pad on every side, whose output is as large
 * as the input, on small planes (Inception's 8x8 average and GoogLeNet's
 * 14x14 and 7x7 max branch pools): two passes of whole vectors over the
 * flattened plane, each pixel's row of three (left, itself, right) into
 * h, then each output's three rows of h (above, its own, below). The lanes
 * whose tap falls in the padding (first or last row or column, known per
 * vector from the masks made once a call) take -inf or 0 instead: no
 * padded copy and no pass per row, which cost more than the taps on such
 * planes (2048x8x8 average ~2x faster, `build/vector_bench 15
 * AveragePool`). On 17x17 and larger planes the plane passes were as fast
 * or faster in alternating runs, so they keep them. The same fold order
 * as the plane passes. AVX-512 only. */
#define GE__VK_POOL3_PIXELS 256 /* plane pixels at most */

typedef struct ge__vk_pool3 {
  const ge__vk_pool *p;
  uint16_t left[GE__VK_POOL3_PIXELS / 16], right[GE__VK_POOL3_PIXELS / 16]; /* lanes in column 0, column w - 1 */
  const ge__vk_post *post; /* the epilogue, or NULL */
} ge__vk_pool3;

static int ge__vk_pool3_fits(const ge__vk_pool *p) {
  int i;
  for (i = 0; i < 2; i++)
    if (p->k[i] != 3 || p->s[i] != 1 || p->d[i] != 1 || p->pb[i] != 1 || p->pe[i] != 1) return 0;
  return GE__VK_X86 && p->isa == GE__VK_ISA_AVX512 && p->oh == p->ih && p->ow == p->iw &&
         p->ih * p->iw <= GE__VK_POOL3_PIXELS;
}

static void ge__vk_pool3_masks(ge__vk_pool3 *j) {
  int64_t P = j->p->ih * j->p->iw, v, i;
  for (v = 0; v * 16 < P; v++) {
    unsigned l = 0, r = 0;
    for (i = 0; i < 16 && v * 16 + i < P; i++) {
      int64_t col = (v * 16 + i) % j->p->iw;
      l |= (unsigned)(col == 0) << i, r |= (unsigned)(col == j->p->iw - 1) << i;
    }
    j->left[v] = (uint16_t)l, j->right[v] = (uint16_t)r;
  }
}

#if GE__VK_X86
/* op(op(a, b), c): the max (NaN wins) or the sum. */
static inline __attribute__((always_inline)) GE__VK_ATTR_avx512 __m512 ge__vk_fold3_avx512(int m, __m512 a, __m512 b,
                                                                                            __m512 c) {
  if (m) return (__m512)GE__VK_MAX_avx512(GE__VK_MAX_avx512(a, b), c);
  return _mm512_add_ps(_mm512_add_ps(a, b), c);
}

static GE__VK_ATTR_avx512 void ge__vk_pool3_plane_avx512(const ge__vk_pool3 *j, const float *x, float *h, float *y) {
  const ge__vk_pool *p = j->p;
  const int64_t w = p->iw, P = p->ih * w;
  const int m = p->is_max;
  const __m512 fill = _mm512_set1_ps(m ? -HUGE_VALF : 0.0f);
  int64_t v;
  for (v = 0; v * 16 < P; v++) {
    int64_t at = v * 16, n = P - at < 16 ? P - at : 16;
    __mmask16 all = (__mmask16)(n == 16 ? 0xffffu : (1u << n) - 1u);
    __m512 a = _mm512_mask_loadu_ps(fill, all & (__mmask16)~j->left[v], x + at - 1);
    __m512 c = _mm512_mask_loadu_ps(fill, all & (__mmask16)~j->right[v], x + at + 1);
    _mm512_mask_storeu_ps(h + at, all, ge__vk_fold3_avx512(m, a, _mm512_maskz_loadu_ps(all, x + at), c));
  }
  for (v = 0; v * 16 < P; v++) {
    int64_t at = v * 16, n = P - at < 16 ? P - at : 16;
    __mmask16 all = (__mmask16)(n == 16 ? 0xffffu : (1u << n) - 1u), up = all, down = all; /* a row above, below */
    __m512 r;
    if (at < w) up &= (__mmask16)(at + 16 <= w ? 0 : ~((1u << (w - at)) - 1u));
    if (at + n > P - w) down &= (__mmask16)(at >= P - w ? 0 : (1u << (P - w - at)) - 1u);
    r = ge__vk_fold3_avx512(m, _mm512_mask_loadu_ps(fill, up, h + at - w), _mm512_maskz_loadu_ps(all, h + at),
                            _mm512_mask_loadu_ps(fill, down, h + at + w));
    if (!m) r = _mm512_mul_ps(r, _mm512_maskz_loadu_ps(all, p->inv + at));
    _mm512_mask_storeu_ps(y + at, all, r);
  }
}
#endif

/* Planes [begin, end). */
static void ge__vk_pool3_planes(void *arg, int64_t begin, int64_t end) {
#if GE__VK_X86
  const ge__vk_pool3 *j = (const ge__vk_pool3 *)arg;
  const int64_t P = j->p->ih * j->p->iw;
  float h[GE__VK_POOL3_PIXELS];
  int64_t pl;
  for (pl = begin; pl < end; pl++) {
    ge__vk_pool3_plane_avx512(j, j->p->x + pl * P, h, j->p->y + pl * P);
    if (j->post) ge__vk_post_planes(j->post, pl, pl + 1);
  }
#else
  (void)arg, (void)begin, (void)end;
#endif
}

/* A pool with an input prologue: each plane of a share goes through the
 * prologue into a buffer on the thread's stack (L1 or L2), which the
 * pool's own path then reads as its input (DenseNet's transitions: BN and
 * ReLU, then the average, with the 1x1 Conv moved after it). */
typedef struct ge__vk_prejob {
  const ge__vk_pool *p;
  const ge__vk_attrs *a;
  int path;               /* 0 whole small planes (j3), 1 bands (g), 2 rows */
  const ge__vk_pool3 *j3;
  const ge__vk_mpg *g;
  const ge__vk_post *post; /* or NULL */
} ge__vk_prejob;

/* Plane pl of x (n*C planes of hw floats) through the prologue into dst. */
static void ge__vk_pre_plane(const ge__vk_attrs *a, int isa, const float *x, int64_t pl, int64_t hw, float *dst) {
  ge__vk_upar u;
  memset(&u, 0, sizeof u);
  u.alpha = a->pre[pl % a->pre_c], u.beta = a->pre[a->pre_c + pl % a->pre_c];
  ge__vk_unary_rows(isa, GE__VK_U_AFFINE, &u, x + pl * hw, dst, hw);
  if (a->pre_relu) ge__vk_unary_rows(isa, GE__VK_U_RELU, &ge__vk_no_par, dst, dst, hw);
}

static void ge__vk_pool_pre_share(void *arg, int64_t begin, int64_t end) {
  const ge__vk_prejob *j = (const ge__vk_prejob *)arg;
  const ge__vk_pool *p = j->p;
  float buf[GE__VK_PLANE_FLOATS];
  int64_t pl;
  for (pl = begin; pl < end; pl++) {
    ge__vk_pool bp = *p;
    ge__vk_pre_plane(j->a, p->isa, p->x, pl, p->ih * p->iw, buf);
    bp.planes = 1, bp.x = buf, bp.y = p->y + pl * p->oh * p->ow;
    if (j->path == 0) {
      ge__vk_pool3 j3 = *j->j3;
      j3.p = &bp, j3.post = NULL;
      ge__vk_pool3_planes(&j3, 0, 1);
    } else if (j->path == 1) {
      ge__vk_mpjob mj;
      mj.p = &bp, mj.g = *j->g;
      ge__vk_maxpool_planes(&mj, 0, mj.g.bands);
    } else {
      ge__vk_pool_share(&bp, 0, p->oh);
    }
    if (j->post) ge__vk_post_planes(j->post, pl, pl + 1);
  }
}

static ge_status ge__vk_pool2d_with(ge_kernel_ctx *c, int is_max, int pre_on);

/* The prologue on a copy of the whole input (planes too big for the
 * stack buffer, or the reference's cases), then the pool without it. */
static ge_status ge__vk_pool_pre_apart(ge_kernel_ctx *c, int is_max) {
  const ge__vk_attrs *a = (const ge__vk_attrs *)c->state;
  const ge_value *x = c->inputs[0];
  ge_value xv, *ins[2];
  ge_kernel_ctx rc = *c;
  int64_t planes, hw, i;
  uint32_t k;
  ge_status st;
  xv = *x;
  xv.capacity = 0;
  if (!ge_kernel_preparing(c) && x->numel > 0) {
    if (!(xv.data = malloc(x->nbytes))) return ge_kernel_error(c, GE_ERR_NOMEM, "out of memory");
    planes = x->dims[0] * x->dims[1], hw = x->numel / planes;
    for (i = 0; i < planes; i++) ge__vk_pre_plane(a, ge__vk_isa(), (const float *)x->data, i, hw, (float *)xv.data + i * hw);
  }
  for (k = 0; k < c->num_inputs && k < 2; k++) ins[k] = k ? c->inputs[k] : &xv;
  rc.inputs = ins, rc.num_inputs = k; /* a pool reads no input past 1 */
  st = ge__vk_pool2d_with(&rc, is_max, 0);
  rc.inputs = c->inputs, rc.num_inputs = c->num_inputs;
  *c = rc; /* the state may have moved */
  if (xv.data != x->data) free(xv.data);
  return st;
}

/* MaxPool (is_max) and AveragePool, 2-D float32 without indices; pre_on:
 * run the input prologue, if the node has one. */
static ge_status ge__vk_pool2d_with(ge_kernel_ctx *c, int is_max, int pre_on) {
  const ge__vk_attrs *a = ge__vk_attrs_of(c, ge__vk_parse_pool);
  ge__vk_pool p;
  ge__vk_post post;
  ge__vk_pool3 j3;
  ge__vk_mpjob mj;
  const ge_value *x;
  ge_value *y;
  int64_t yd[4];
  int path;
  ge_status st;
  if (!a) return GE_ERR_NOMEM;
  if (a->relu < 0 || a->fused_bias < 0)
    return ge_kernel_error(c, GE_ERR_INVALID, "a pool's _fused_activation can only be Relu, its _fused_inputs 0 or 1");
  if (a->pre_bad) return ge_kernel_error(c, GE_ERR_INVALID, "malformed _pre_affine or _pre_activation");
  pre_on = pre_on && a->pre;
  x = c->num_inputs > 0 ? c->inputs[0] : NULL;
  if (pre_on && (!ge__vk_f32_in(c, 0) || x->rank < 3 || x->dims[1] != a->pre_c))
    return ge_kernel_error(c, GE_ERR_SHAPE, "_pre_affine holds %lld channels; input 0 must be float32 [N, %lld, ...]",
                           (long long)a->pre_c, (long long)a->pre_c);
  if (ge_kernel_preparing(c)) return GE_OK;
  memset(&p, 0, sizeof p);
  if (!ge__vk_f32_in(c, 0) || (is_max && c->num_outputs > 1 && c->outputs[1]) || !ge__vk_pool_setup(a, x, &p))
    return pre_on ? ge__vk_pool_pre_apart(c, is_max) : ge__vk_pool_reference(c, a);
  if (pre_on && p.ih * p.iw > GE__VK_PLANE_FLOATS) return ge__vk_pool_pre_apart(c, is_max);
  yd[0] = x->dims[0];
  yd[1] = x->dims[1];
  yd[2] = p.oh;
  yd[3] = p.ow;
  if (!(y = ge_kernel_output(c, 0, GE_DTYPE_FLOAT32, 4, yd))) return ge__vk_out_failed(c);
  if ((st = ge__vk_post_setup(c, a, y, &post)) != GE_OK) return st;
  p.isa = ge__vk_isa();
  p.is_max = is_max;
  p.include_pad = a->include_pad;
  p.x = (const float *)x->data;
  p.y = (float *)y->data;
  if (!is_max && !(p.inv = ge__vk_pool_inv(c, &p))) return ge_kernel_error(c, GE_ERR_NOMEM, "out of memory");
  a = (const ge__vk_attrs *)c->state; /* the reciprocal counts may have moved the state */
  j3.p = mj.p = &p;
  j3.post = post.y ? &post : NULL; /* whole small planes: the epilogue on each while it is in L1 */
  path = ge__vk_pool3_fits(&p) ? 0 : ge__vk_maxpool_geom(&p, &mj.g) ? 1 : 2;
  if (path == 0) ge__vk_pool3_masks(&j3);
  if (pre_on) {
    ge__vk_prejob pj;
    pj.p = &p, pj.a = a, pj.path = path, pj.j3 = &j3, pj.g = &mj.g, pj.post = j3.post;
    ge_kernel_parallel_for(c, p.planes, 1 + GE__VK_GRAIN / (2 * p.ih * p.iw), ge__vk_pool_pre_share, &pj);
    return GE_OK;
  }
  if (path == 0) {
    ge_kernel_parallel_for(c, p.planes, 1 + GE__VK_GRAIN / (9 * p.ih * p.iw), ge__vk_pool3_planes, &j3);
    return GE_OK;
  }
  if (path == 1)
    ge_kernel_parallel_for(c, p.planes * mj.g.bands, 1 + GE__VK_GRAIN / (mj.g.band * p.ow * p.k[0] * p.k[1]),
                           ge__vk_maxpool_planes, &mj);
  else
    ge_kernel_parallel_for(c, p.planes * p.oh, 1 + GE__VK_GRAIN / (p.ow * p.k[0] * p.k[1]), ge__vk_pool_share, &p);
  if (post.y && post.plane) ge_kernel_parallel_for(c, p.planes, 1 + GE__VK_GRAIN / post.plane, ge__vk_post_share, &post);
  return GE_OK;
}

static ge_status ge__vk_k_maxpool(ge_kernel_ctx *c) { return ge__vk_pool2d_with(c, 1, 1); }
static ge_status ge__vk_k_averagepool(ge_kernel_ctx *c) { return ge__vk_pool2d_with(c, 0, 1); }

/* GlobalMaxPool / GlobalAveragePool over the trailing dims of each plane. */
typedef struct ge__vk_planes {
  int isa, op;
  int64_t inner;
  const float *x;
  float *y;
} ge__vk_planes;

static void ge__vk_global_share(void *arg, int64_t begin, int64_t end) {
  const ge__vk_planes *j = (const ge__vk_planes *)arg;
  int64_t pl;
  for (pl = begin; pl < end; pl++) {
    float r = GE__VK_PICK(j->isa, ge__vk_reduce)(j->op, j->x + pl * j->inner, j->inner, 0.0f);
    j->y[pl] = j->op == GE__VK_R_SUM ? (j->inner ? r / (float)j->inner : 0.0f) : r;
  }
}

static ge_status ge__vk_global_pool(ge_kernel_ctx *c, int op) {
  ge__vk_planes j;
  const ge_value *x;
  ge_value *y;
  int64_t yd[GE_MAX_RANK];
  int32_t k;
  if (!ge__vk_f32_in(c, 0) || c->inputs[0]->rank < 2) return ge__vk_reference(c);
  x = c->inputs[0];
  for (k = 0; k < x->rank; k++)
    yd[k] = k < 2 ? x->dims[k] : 1;
  if (!(y = ge_kernel_output(c, 0, GE_DTYPE_FLOAT32, x->rank, yd))) return ge__vk_out_failed(c);
  j.isa = ge__vk_isa();
  j.op = op;
  j.inner = (x->dims[0] * x->dims[1]) != 0 ? x->numel / (x->dims[0] * x->dims[1]) : 0;
  j.x = (const float *)x->data;
  j.y = (float *)y->data;
  ge_kernel_parallel_for(c, x->dims[0] * x->dims[1], 1 + GE__VK_GRAIN / (j.inner + 1), ge__vk_global_share, &j);
  return GE_OK;
}

static ge_status ge__vk_k_globalmaxpool(ge_kernel_ctx *c) { return ge__vk_global_pool(c, GE__VK_R_MAX); }
static ge_status ge__vk_k_globalaveragepool(ge_kernel_ctx *c) { return ge__vk_global_pool(c, GE__VK_R_SUM); }

/* ------------------------------------------------------------- softmax */

typedef struct ge__vk_softmax {
  int isa, log;
  int64_t outer, len, inner, blocks; /* blocks: column blocks of 16 per outer index */
  const float *x;
  float *y;
} ge__vk_softmax;

static void ge__vk_softmax_rows_share(void *arg, int64_t begin, int64_t end) {
  const ge__vk_softmax *j = (const ge__vk_softmax *)arg;
  int64_t o;
  for (o = begin; o < end; o++)
    GE__VK_PICK(j->isa, ge__vk_softmax_row)(j->log, j->x + o * j->len, j->y + o * j->len, j->len);
}

static void ge__vk_softmax_cols_share(void *arg, int64_t begin, int64_t end) {
  const ge__vk_softmax *j = (const ge__vk_softmax *)arg;
  int64_t b;
  for (b = begin; b < end; b++) {
    int64_t o = b / j->blocks, i = (b % j->blocks) * 16, base = o * j->len * j->inner + i;
    int64_t w = j->inner - i < 16 ? j->inner - i : 16;
    GE__VK_PICK(j->isa, ge__vk_softmax_cols)(j->log, j->x + base, j->y + base, j->len, j->inner, w);
  }
}

/* Softmax / LogSoftmax along `axis` (as the reference: one axis, default
 * -1, for every opset). */
static void ge__vk_parse_axis(const ge_node *n, ge__vk_attrs *a) {
  a->axis = ge_node_attr_int(n, "axis", -1);
  a->eps = ge_node_attr_float(n, "epsilon", 1e-5);
}
static ge_status ge__vk_softmax_kernel(ge_kernel_ctx *c, int log) {
  const ge__vk_attrs *a = ge__vk_attrs_of(c, ge__vk_parse_axis);
  ge__vk_softmax j;
  const ge_value *x;
  ge_value *y;
  int64_t axis;
  int32_t k;
  if (!a) return GE_ERR_NOMEM;
  if (ge_kernel_preparing(c)) return GE_OK;
  if (!ge__vk_f32_in(c, 0)) return ge__vk_reference(c);
  x = c->inputs[0];
  axis = a->axis;
  if (axis < 0) axis += x->rank;
  if (x->rank < 1 || axis < 0 || axis >= x->rank) return ge__vk_reference(c);
  j.outer = j.inner = 1;
  for (k = 0; k < x->rank; k++) {
    if (k < axis) j.outer *= x->dims[k];
    if (k > axis) j.inner *= x->dims[k];
  }
  j.len = x->dims[axis];
  if (!(y = ge_kernel_output(c, 0, GE_DTYPE_FLOAT32, x->rank, x->dims))) return ge__vk_out_failed(c);
  if (x->numel == 0) return GE_OK;
  j.isa = ge__vk_isa();
  j.log = log;
  j.x = (const float *)x->data;
  j.y = (float *)y->data;
  j.blocks = (j.inner + 15) / 16;
  if (j.inner == 1)
    ge_kernel_parallel_for(c, j.outer, 1 + GE__VK_GRAIN / (4 * j.len), ge__vk_softmax_rows_share, &j);
  else
    ge_kernel_parallel_for(c, j.outer * j.blocks, 1 + GE__VK_GRAIN / (64 * j.len), ge__vk_softmax_cols_share, &j);
  return GE_OK;
}

static ge_status ge__vk_k_softmax(ge_kernel_ctx *c) { return ge__vk_softmax_kernel(c, 0); }
static ge_status ge__vk_k_logsoftmax(ge_kernel_ctx *c) { return ge__vk_softmax_kernel(c, 1); }

/* ------------------------------------------------------- normalization */

/* Output i other than 0 is wanted (stat outputs go to the reference). */
static int ge__vk_wants_more(const ge_kernel_ctx *c) {
  uint32_t i;
  for (i = 1; i < c->num_outputs; i++)
    if (c->outputs[i]) return 1;
  return 0;
}

/* v is float32 with its elements the trailing dims of x from `from` on
 * (leading dims of 1 allowed): element i pairs with x's inner index i. */
static int ge__vk_trailing(const ge_kernel_ctx *c, uint32_t i, const ge_value *x, int32_t from) {
  const ge_value *v = c->inputs[i];
  int32_t k;
  int64_t inner = 1;
  if (!ge__vk_f32_in(c, i) || v->rank > x->rank) return 0;
  for (k = from; k < x->rank; k++)
    inner *= x->dims[k];
  for (k = 0; k < v->rank; k++)
    if (v->dims[v->rank - 1 - k] != x->dims[x->rank - 1 - k]) break;
  for (; k < v->rank; k++)
    if (v->dims[v->rank - 1 - k] != 1) return 0;
  return v->numel == inner;
}

typedef struct ge__vk_norm {
  int isa;
  int64_t inner, channels;
  double eps;
  const float *x, *g, *b, *mean, *var; /* mean, var: BatchNorm's */
  float *y;
  int relu; /* a fused Relu on each plane while it is in cache */
} ge__vk_norm;

/* Mean and variance of x[0..n) as m + *m_lo (m rounded to float, m_lo
 * the rest) and *var: two passes, the second around m. */
static float ge__vk_moments(int isa, const float *x, int64_t n, float *m_lo, double *var) {
  float m = GE__VK_PICK(isa, ge__vk_reduce)(GE__VK_R_SUM, x, n, 0.0f) / (float)n;
  double lo = GE__VK_PICK(isa, ge__vk_reduce)(GE__VK_R_DEV, x, n, m) / (double)n;
  double ssd = GE__VK_PICK(isa, ge__vk_reduce)(GE__VK_R_SSD, x, n, m);
  *var = ssd / (double)n - lo * lo;
  if (*var < 0) *var = 0;
  *m_lo = (float)lo;
  return m;
}

static void ge__vk_layernorm_share(void *arg, int64_t begin, int64_t end) {
  const ge__vk_norm *j = (const ge__vk_norm *)arg;
  int64_t o;
  for (o = begin; o < end; o++) {
    const float *x = j->x + o * j->inner;
    float m_lo, m;
    double var;
    m = ge__vk_moments(j->isa, x, j->inner, &m_lo, &var);
    GE__VK_PICK(j->isa, ge__vk_layernorm_row)
    (x, j->y + o * j->inner, j->inner, m, m_lo, (float)(1.0 / sqrt(var + j->eps)), j->g, j->b);
  }
}

/* LayerNormalization with Scale and B over the trailing dims from axis. */
static ge_status ge__vk_k_layernormalization(ge_kernel_ctx *c) {
  const ge__vk_attrs *a = ge__vk_attrs_of(c, ge__vk_parse_axis);
  ge__vk_norm j;
  const ge_value *x;
  ge_value *y;
  int64_t axis;
  if (!a) return GE_ERR_NOMEM;
  if (ge_kernel_preparing(c)) return GE_OK;
  if (!ge__vk_f32_in(c, 0) || c->num_inputs < 2 || ge__vk_wants_more(c)) return ge__vk_reference(c);
  x = c->inputs[0];
  axis = a->axis;
  if (axis < 0) axis += x->rank;
  if (x->rank < 1 || axis < 0 || axis >= x->rank || !ge__vk_trailing(c, 1, x, (int32_t)axis) ||
      (c->num_inputs > 2 && c->inputs[2] && !ge__vk_trailing(c, 2, x, (int32_t)axis)))
    return ge__vk_reference(c);
  memset(&j, 0, sizeof j);
  j.inner = c->inputs[1]->numel;
  if (!(y = ge_kernel_output(c, 0, GE_DTYPE_FLOAT32, x->rank, x->dims))) return ge__vk_out_failed(c);
  if (x->numel == 0 || j.inner == 0) return x->numel == 0 ? GE_OK : ge__vk_reference(c);
  j.isa = ge__vk_isa();
  j.eps = a->eps;
  j.x = (const float *)x->data;
  j.g = (const float *)c->inputs[1]->data;
  j.b = c->num_inputs > 2 && c->inputs[2] ? (const float *)c->inputs[2]->data : NULL;
  j.y = (float *)y->data;
  ge_kernel_parallel_for(c, x->numel / j.inner, 1 + GE__VK_GRAIN / (3 * j.inner), ge__vk_layernorm_share, &j);
  return GE_OK;
}

/* Plane pl (of N*C) as y = ((x - m) - m_lo) a + b. */
static void ge__vk_affine_plane(const ge__vk_norm *j, int64_t pl, float m, float m_lo, double a, double b) {
  ge__vk_upar p;
  memset(&p, 0, sizeof p);
  p.alpha = (float)a;
  p.beta = (float)b;
  p.gamma = m;
  p.delta = m_lo;
  ge__vk_unary_rows(j->isa, GE__VK_U_AFFINE, &p, j->x + pl * j->inner, j->y + pl * j->inner, j->inner);
}

static void ge__vk_batchnorm_share(void *arg, int64_t begin, int64_t end) {
  const ge__vk_norm *j = (const ge__vk_norm *)arg;
  int64_t pl;
  for (pl = begin; pl < end; pl++) {
    int64_t ch = pl % j->channels;
    ge__vk_affine_plane(j, pl, j->mean[ch], 0.0f, j->g[ch] / sqrt((double)j->var[ch] + j->eps), j->b[ch]);
    if (j->relu) ge__vk_unary_rows(j->isa, GE__VK_U_RELU, &ge__vk_no_par, j->y + pl * j->inner, j->y + pl * j->inner,
                                   j->inner);
  }
}

static void ge__vk_instancenorm_share(void *arg, int64_t begin, int64_t end) {
  const ge__vk_norm *j = (const ge__vk_norm *)arg;
  int64_t pl;
  for (pl = begin; pl < end; pl++) {
    int64_t ch = pl % j->channels;
    float m_lo, m;
    double var;
    m = ge__vk_moments(j->isa, j->x + pl * j->inner, j->inner, &m_lo, &var);
    ge__vk_affine_plane(j, pl, m, m_lo, j->g[ch] / sqrt(var + j->eps), j->b[ch]);
    if (j->relu) ge__vk_unary_rows(j->isa, GE__VK_U_RELU, &ge__vk_no_par, j->y + pl * j->inner, j->y + pl * j->inner,
                                   j->inner);
  }
}

/* The reference kernel, then a fused Relu on its float32 output. */
static ge_status ge__vk_reference_relu(ge_kernel_ctx *c, int relu) {
  ge_status st = ge__vk_reference(c);
  ge_value *y = c->num_outputs > 0 ? c->outputs[0] : NULL;
  int64_t i;
  if (st != GE_OK || !relu) return st;
  if (!y || y->dtype != GE_DTYPE_FLOAT32)
    return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "a fused Relu needs a float32 output");
  for (i = 0; i < y->numel; i++) {
    float v = ((float *)y->data)[i];
    ((float *)y->data)[i] = v < 0.0f ? 0.0f : v; /* NaN stays NaN */
  }
  return GE_OK;
}

/* Per-channel inputs 1..n_par-1 are float32 with C elements. */
static int ge__vk_channel_inputs(const ge_kernel_ctx *c, uint32_t n_par, int64_t C) {
  uint32_t i;
  if (c->num_inputs < n_par) return 0;
  for (i = 1; i < n_par; i++)
    if (!ge__vk_f32_in(c, i) || c->inputs[i]->numel != C) return 0;
  return 1;
}

/* BatchNormalization (inference) and InstanceNormalization over NC... */
static void ge__vk_parse_norm(const ge_node *n, ge__vk_attrs *a) {
  const char *act = ge_node_attr_string(n, "_fused_activation", "");
  a->eps = ge_node_attr_float(n, "epsilon", 1e-5);
  a->flag = ge_node_attr_int(n, "training_mode", 0) != 0;
  a->relu = !*act ? 0 : !strcmp(act, "Relu") ? 1 : -1; /* AI Core's optimiser fuses a Relu after a BN */
}
static ge_status ge__vk_channel_norm(ge_kernel_ctx *c, int instance) {
  const ge__vk_attrs *a = ge__vk_attrs_of(c, ge__vk_parse_norm);
  ge__vk_norm j;
  const ge_value *x;
  ge_value *y;
  if (!a) return GE_ERR_NOMEM;
  if (a->relu < 0) return ge_kernel_error(c, GE_ERR_INVALID, "a norm's _fused_activation can only be Relu");
  if (ge_kernel_preparing(c)) return GE_OK;
  if (!ge__vk_f32_in(c, 0) || c->inputs[0]->rank < 2 || ge__vk_wants_more(c) || (!instance && a->flag))
    return ge__vk_reference_relu(c, a->relu);
  x = c->inputs[0];
  if (!ge__vk_channel_inputs(c, instance ? 3 : 5, x->dims[1])) return ge__vk_reference_relu(c, a->relu);
  if (!(y = ge_kernel_output(c, 0, GE_DTYPE_FLOAT32, x->rank, x->dims))) return ge__vk_out_failed(c);
  if (x->numel == 0) return GE_OK;
  memset(&j, 0, sizeof j);
  j.isa = ge__vk_isa();
  j.channels = x->dims[1];
  j.inner = x->numel / (x->dims[0] * x->dims[1]);
  j.eps = a->eps;
  j.x = (const float *)x->data;
  j.g = (const float *)c->inputs[1]->data;
  j.b = (const float *)c->inputs[2]->data;
  if (!instance) {
    j.mean = (const float *)c->inputs[3]->data;
    j.var = (const float *)c->inputs[4]->data;
  }
  j.y = (float *)y->data;
  j.relu = a->relu;
  ge_kernel_parallel_for(c, x->dims[0] * x->dims[1], 1 + GE__VK_GRAIN / j.inner,
                         instance ? ge__vk_instancenorm_share : ge__vk_batchnorm_share, &j);
  return GE_OK;
}

static ge_status ge__vk_k_batchnormalization(ge_kernel_ctx *c) { return ge__vk_channel_norm(c, 0); }
static ge_status ge__vk_k_instancenormalization(ge_kernel_ctx *c) { return ge__vk_channel_norm(c, 1); }

/* ----------------------------------------------------------- Transpose */

/* Output rows of a transposition: merged axes (runs adjacent in both
 * tensors fused), the last one copied per row, by memcpy when it is
 * contiguous in x too. When another axis (a) is the one contiguous in x
 * (NCHW <-> NHWC), rows gathered at a stride would touch a cache line per
 * element, so the pair (a, last) goes as a 2-D transposition in 8x8 tiles
 * instead (ge__vk_transpose_tiles): 8 rows of x in registers, 8 columns out. */
typedef struct ge__vk_transpose {
  int32_t rank;
  int64_t dims[GE_MAX_RANK], xstr[GE_MAX_RANK]; /* output order; x's element strides */
  int64_t inner, rows;
  const float *x;
  float *y;
  /* tiles: axis a contiguous in x, y's stride of a, blocks of a per outer index */
  int32_t a, isa;
  int64_t ystr[GE_MAX_RANK], blocks;
} ge__vk_transpose;

/* y[i ys + k] = x[i + k xs] for i < ni, k < nk: one tile (or a tail) of a
 * 2-D transposition, element by element. */
static void ge__vk_tile_copy(const float *x, int64_t xs, float *y, int64_t ys, int64_t ni, int64_t nk) {
  int64_t i, k;
  for (i = 0; i < ni; i++)
    for (k = 0; k < nk; k++)
      y[i * ys + k] = x[i + k * xs];
}

#if GE__VK_X86
/* One full 8x8 tile through AVX registers: the rows k of x (8 floats of i
 * each) interleaved pairwise, then by 64-bit pairs, then by 128-bit halves. */
GE__VK_ATTR_avx2 static void ge__vk_tile8_avx2(const float *x, int64_t xs, float *y, int64_t ys) {
  __m256 r0 = _mm256_loadu_ps(x), r1 = _mm256_loadu_ps(x + xs), r2 = _mm256_loadu_ps(x + 2 * xs);
  __m256 r3 = _mm256_loadu_ps(x + 3 * xs), r4 = _mm256_loadu_ps(x + 4 * xs), r5 = _mm256_loadu_ps(x + 5 * xs);
  __m256 r6 = _mm256_loadu_ps(x + 6 * xs), r7 = _mm256_loadu_ps(x + 7 * xs);
  __m256 t0 = _mm256_unpacklo_ps(r0, r1), t1 = _mm256_unpackhi_ps(r0, r1);
  __m256 t2 = _mm256_unpacklo_ps(r2, r3), t3 = _mm256_unpackhi_ps(r2, r3);
  __m256 t4 = _mm256_unpacklo_ps(r4, r5), t5 = _mm256_unpackhi_ps(r4, r5);
  __m256 t6 = _mm256_unpacklo_ps(r6, r7), t7 = _mm256_unpackhi_ps(r6, r7);
  __m256 s0 = _mm256_shuffle_ps(t0, t2, 0x44), s1 = _mm256_shuffle_ps(t0, t2, 0xEE);
  __m256 s2 = _mm256_shuffle_ps(t1, t3, 0x44), s3 = _mm256_shuffle_ps(t1, t3, 0xEE);
  __m256 s4 = _mm256_shuffle_ps(t4, t6, 0x44), s5 = _mm256_shuffle_ps(t4, t6, 0xEE);
  __m256 s6 = _mm256_shuffle_ps(t5, t7, 0x44), s7 = _mm256_shuffle_ps(t5, t7, 0xEE);
  _mm256_storeu_ps(y, _mm256_permute2f128_ps(s0, s4, 0x20));
  _mm256_storeu_ps(y + ys, _mm256_permute2f128_ps(s1, s5, 0x20));
  _mm256_storeu_ps(y + 2 * ys, _mm256_permute2f128_ps(s2, s6, 0x20));
  _mm256_storeu_ps(y + 3 * ys, _mm256_permute2f128_ps(s3, s7, 0x20));
  _mm256_storeu_ps(y + 4 * ys, _mm256_permute2f128_ps(s0, s4, 0x31));
  _mm256_storeu_ps(y + 5 * ys, _mm256_permute2f128_ps(s1, s5, 0x31));
  _mm256_storeu_ps(y + 6 * ys, _mm256_permute2f128_ps(s2, s6, 0x31));
  _mm256_storeu_ps(y + 7 * ys, _mm256_permute2f128_ps(s3, s7, 0x31));
}

GE__VK_ATTR_avx2 static void ge__vk_tiles_avx2(const float *x, int64_t xs, float *y, int64_t ys, int64_t ni,
                                               int64_t nk) {
  int64_t i, k;
  for (k = 0; k + 8 <= nk; k += 8) {
    for (i = 0; i + 8 <= ni; i += 8) ge__vk_tile8_avx2(x + i + k * xs, xs, y + i * ys + k, ys);
    if (i < ni) ge__vk_tile_copy(x + i + k * xs, xs, y + i * ys + k, ys, ni - i, 8);
  }
  if (k < nk) ge__vk_tile_copy(x + k * xs, xs, y + k, ys, ni, nk - k);
}
#endif

/* The 2-D transposition y[i ys + k] = x[i + k xs], i < ni, k < nk, in
 * 8x8 tiles (AVX2 and AVX-512 machines both take the AVX2 form: a
 * transposition is shuffles and copies, wider registers add little). */
static void ge__vk_tiles(int isa, const float *x, int64_t xs, float *y, int64_t ys, int64_t ni, int64_t nk) {
  int64_t i, k;
#if GE__VK_X86
  if (isa != GE__VK_ISA_BASE) {
    ge__vk_tiles_avx2(x, xs, y, ys, ni, nk);
    return;
  }
#endif
  (void)isa;
  for (k = 0; k < nk; k += 8)
    for (i = 0; i < ni; i += 8)
      ge__vk_tile_copy(x + i + k * xs, xs, y + i * ys + k, ys, ni - i < 8 ? ni - i : 8, nk - k < 8 ? nk - k : 8);
}

/* Block size of axis a in a unit of work of the tiled path. */
#define GE__VK_TILE_BLOCK 32

/* Units [begin, end): block u % blocks of axis a at outer index u / blocks
 * (the axes other than a and the last, in output order). */
static void ge__vk_transpose_tiles(void *arg, int64_t begin, int64_t end) {
  const ge__vk_transpose *t = (const ge__vk_transpose *)arg;
  int64_t u, last = t->rank - 1;
  for (u = begin; u < end; u++) {
    int64_t rem = u / t->blocks, i0 = u % t->blocks * GE__VK_TILE_BLOCK, xo = i0, yo = i0 * t->ystr[t->a];
    int64_t ni = t->dims[t->a] - i0 < GE__VK_TILE_BLOCK ? t->dims[t->a] - i0 : GE__VK_TILE_BLOCK;
    int32_t d;
    for (d = (int32_t)last - 1; d >= 0; d--) {
      int64_t id;
      if (d == t->a) continue;
      id = rem % t->dims[d];
      rem /= t->dims[d];
      xo += id * t->xstr[d];
      yo += id * t->ystr[d];
    }
    ge__vk_tiles(t->isa, t->x + xo, t->xstr[last], t->y + yo, t->ystr[t->a], ni, t->inner);
  }
}

static void ge__vk_transpose_share(void *arg, int64_t begin, int64_t end) {
  const ge__vk_transpose *t = (const ge__vk_transpose *)arg;
  int64_t idx[GE_MAX_RANK], off = 0, rem = begin, r, k, s = t->xstr[t->rank - 1];
  int32_t d, outer = t->rank - 1;
  for (d = outer - 1; d >= 0; d--) {
    idx[d] = rem % t->dims[d];
    rem /= t->dims[d];
    off += idx[d] * t->xstr[d];
  }
  for (r = begin; r < end; r++) {
    float *y = t->y + r * t->inner;
    const float *x = t->x + off;
    if (s == 1)
      memcpy(y, x, (size_t)t->inner * sizeof(float));
    else
      for (k = 0; k < t->inner; k++)
        y[k] = x[k * s];
    for (d = outer - 1; d >= 0; d--) {
      off += t->xstr[d];
      if (++idx[d] < t->dims[d]) break;
      off -= t->xstr[d] * t->dims[d];
      idx[d] = 0;
    }
  }
}

/* Whether t (merged axes set) takes the tiled path, and its setup: an
 * axis a < last contiguous in x, both it and the last axis long enough to
 * fill tiles (else the row gather is as good). */
static int ge__vk_transpose_tiled(ge__vk_transpose *t) {
  int32_t d, last = t->rank - 1;
  int64_t s = 1;
  t->a = -1;
  for (d = 0; d < last; d++)
    if (t->xstr[d] == 1) t->a = d;
  if (t->a < 0 || t->dims[t->a] < 8 || t->inner < 8) return 0;
  for (d = last; d >= 0; d--) {
    t->ystr[d] = s;
    s *= t->dims[d];
  }
  t->blocks = (t->dims[t->a] + GE__VK_TILE_BLOCK - 1) / GE__VK_TILE_BLOCK;
  t->isa = ge__vk_isa();
  return 1;
}

static void ge__vk_parse_perm(const ge_node *n, ge__vk_attrs *a) { ge__vk_parse_ints(n, "perm", a); }
static ge_status ge__vk_k_transpose(ge_kernel_ctx *c) {
  const ge__vk_attrs *a = ge__vk_attrs_of(c, ge__vk_parse_perm);
  ge__vk_transpose t;
  const ge_value *x;
  const int64_t *pv;
  int64_t perm[GE_MAX_RANK], xs[GE_MAX_RANK], yd[GE_MAX_RANK], s = 1;
  int32_t r, i, np, m = 0;
  unsigned seen = 0;
  ge_value *y;
  if (!a) return GE_ERR_NOMEM;
  if (ge_kernel_preparing(c)) return GE_OK;
  if (!ge__vk_f32_in(c, 0)) return ge__vk_reference(c);
  x = c->inputs[0];
  r = x->rank;
  np = a->n_ints, pv = a->ints;
  if (np >= 0 && np != r) return ge__vk_reference(c); /* it names the bad perm */
  for (i = 0; i < r; i++) {
    perm[i] = np < 0 ? r - 1 - i : pv[i];
    if (perm[i] < 0 || perm[i] >= r || (seen >> perm[i] & 1u)) return ge__vk_reference(c);
    seen |= 1u << perm[i];
  }
  for (i = r - 1; i >= 0; i--) {
    xs[i] = s;
    s *= x->dims[i];
  }
  for (i = 0; i < r; i++)
    yd[i] = x->dims[perm[i]];
  if (!(y = ge_kernel_output(c, 0, GE_DTYPE_FLOAT32, r, yd))) return ge__vk_out_failed(c);
  if (y->numel == 0) return GE_OK;
  for (i = 0; i < r; i++) {
    int64_t st = xs[perm[i]];
    if (yd[i] == 1) continue;
    if (m > 0 && t.xstr[m - 1] == st * yd[i]) { /* adjacent in x as in y: one axis */
      t.dims[m - 1] *= yd[i];
      t.xstr[m - 1] = st;
      continue;
    }
    t.dims[m] = yd[i];
    t.xstr[m++] = st;
  }
  if (m == 0) {
    t.dims[0] = 1;
    t.xstr[0] = 1;
    m = 1;
  }
  t.rank = m;
  t.inner = t.dims[m - 1];
  t.rows = y->numel / t.inner;
  t.x = (const float *)x->data;
  t.y = (float *)y->data;
  if (ge__vk_transpose_tiled(&t)) {
    int64_t units = y->numel / (t.dims[t.a] * t.inner) * t.blocks;
    ge_kernel_parallel_for(c, units, 1 + GE__VK_GRAIN / (GE__VK_TILE_BLOCK * t.inner), ge__vk_transpose_tiles, &t);
    return GE_OK;
  }
  ge_kernel_parallel_for(c, t.rows, 1 + GE__VK_GRAIN / t.inner, ge__vk_transpose_share, &t);
  return GE_OK;
}

/* ---------------------------------------------------------- reductions */

/* ReduceSum, ReduceMean, ReduceMax, ReduceMin over axes that are adjacent
 * once dims of 1 are ignored: x seen as [outer, len, inner]; inner 1
 * reduces rows with SIMD, otherwise rows of inner values are combined
 * with SIMD. Sums are taken in float (the reference sums in double).
 * Other axes patterns, empty tensors and bad axes: the reference. */
enum { GE__VK_RED_SUM, GE__VK_RED_MEAN, GE__VK_RED_MAX, GE__VK_RED_MIN };

typedef struct ge__vk_red {
  int isa, op;
  int64_t outer, len, inner, blocks;
  const float *x;
  float *y;
} ge__vk_red;

#define GE__VK_RED_BLOCK 512

static void ge__vk_red_rows_share(void *arg, int64_t begin, int64_t end) {
  const ge__vk_red *j = (const ge__vk_red *)arg;
  int64_t o, i;
  for (o = begin; o < end; o++) {
    const float *x = j->x + o * j->len;
    float v;
    if (j->op == GE__VK_RED_MIN) {
      v = x[0];
      for (i = 1; i < j->len; i++) v = (x[i] < v || x[i] != x[i]) && v == v ? x[i] : v;
    } else
      v = GE__VK_PICK(j->isa, ge__vk_reduce)(j->op == GE__VK_RED_MAX ? GE__VK_R_MAX : GE__VK_R_SUM, x, j->len, 0.0f);
    j->y[o] = j->op == GE__VK_RED_MEAN ? (float)((double)v / (double)j->len) : v;
  }
}

static void ge__vk_red_cols_share(void *arg, int64_t begin, int64_t end) {
  const ge__vk_red *j = (const ge__vk_red *)arg;
  int bop = j->op == GE__VK_RED_MAX ? GE__VK_B_MAX : j->op == GE__VK_RED_MIN ? GE__VK_B_MIN : GE__VK_B_ADD;
  int64_t b, l;
  for (b = begin; b < end; b++) {
    int64_t o = b / j->blocks, i0 = (b % j->blocks) * GE__VK_RED_BLOCK;
    int64_t n = j->inner - i0 < GE__VK_RED_BLOCK ? j->inner - i0 : GE__VK_RED_BLOCK;
    const float *x = j->x + o * j->len * j->inner + i0;
    float *y = j->y + o * j->inner + i0;
    memcpy(y, x, (size_t)n * sizeof(float));
    for (l = 1; l < j->len; l++) ge__vk_binary_rows(j->isa, bop, y, 1, x + l * j->inner, 1, y, n);
    if (j->op == GE__VK_RED_MEAN)
      for (l = 0; l < n; l++) y[l] = (float)((double)y[l] / (double)j->len);
  }
}

static void ge__vk_parse_reduce(const ge_node *n, ge__vk_attrs *a) {
  ge__vk_parse_ints(n, "axes", a);
  a->flag = ge_node_attr_int(n, "keepdims", 1) != 0;
  a->flag2 = ge_node_attr_int(n, "noop_with_empty_axes", 0) != 0;
}
static ge_status ge__vk_reduce_kernel(ge_kernel_ctx *c, int op) {
  const ge__vk_attrs *a = ge__vk_attrs_of(c, ge__vk_parse_reduce);
  const ge_value *x, *ax = c->num_inputs > 1 ? c->inputs[1] : NULL;
  const int64_t *av;
  int mask[GE_MAX_RANK];
  int32_t na, k, r, first = -1, last = -1, orank = 0;
  int64_t odims[GE_MAX_RANK];
  ge__vk_red j;
  ge_value *y;
  if (!a) return GE_ERR_NOMEM;
  if (ge_kernel_preparing(c)) return GE_OK;
  if (!ge__vk_f32_in(c, 0) || c->num_outputs < 1 || a->n_ints > GE_MAX_RANK) return ge__vk_reference(c);
  x = c->inputs[0];
  r = x->rank;
  if (r < 1 || x->numel == 0) return ge__vk_reference(c);
  memset(mask, 0, sizeof mask);
  if (ax) {
    if ((ax->dtype != GE_DTYPE_INT64 && ax->dtype != GE_DTYPE_INT32) || (ax->numel > 0 && !ax->data))
      return ge__vk_reference(c);
    na = (int32_t)ax->numel;
  } else
    na = a->n_ints > 0 ? a->n_ints : 0;
  av = a->ints;
  for (k = 0; k < na; k++) {
    int64_t v = ax ? (ax->dtype == GE_DTYPE_INT64 ? ((const int64_t *)ax->data)[k] : ((const int32_t *)ax->data)[k])
                   : av[k];
    if (v < -r || v >= r) return ge__vk_reference(c); /* it words the error */
    mask[v < 0 ? v + r : v] = 1;
  }
  if (na == 0) {
    if (a->flag2) return ge__vk_reference(c);
    for (k = 0; k < r; k++) mask[k] = 1;
  }
  j.outer = j.len = j.inner = 1;
  for (k = 0; k < r; k++) {
    if (x->dims[k] == 1) continue;
    if (mask[k]) {
      if (first < 0) first = k;
      last = k;
    }
  }
  for (k = 0; k < r; k++) {
    if (x->dims[k] == 1) continue;
    if (first >= 0 && k >= first && k <= last && !mask[k]) return ge__vk_reference(c); /* not adjacent */
    if (mask[k])
      j.len *= x->dims[k];
    else if (first < 0 || k < first)
      j.outer *= x->dims[k];
    else
      j.inner *= x->dims[k];
  }
  for (k = 0; k < r; k++)
    if (!mask[k] || a->flag) odims[orank++] = mask[k] ? 1 : x->dims[k];
  if (!(y = ge_kernel_output(c, 0, GE_DTYPE_FLOAT32, orank, odims))) return ge__vk_out_failed(c);
  j.isa = ge__vk_isa();
  j.op = op;
  j.x = (const float *)x->data;
  j.y = (float *)y->data;
  if (j.inner == 1)
    ge_kernel_parallel_for(c, j.outer, 1 + GE__VK_GRAIN / j.len, ge__vk_red_rows_share, &j);
  else {
    j.blocks = (j.inner + GE__VK_RED_BLOCK - 1) / GE__VK_RED_BLOCK;
    ge_kernel_parallel_for(c, j.outer * j.blocks, 1 + GE__VK_GRAIN / (j.len * GE__VK_RED_BLOCK),
                           ge__vk_red_cols_share, &j);
  }
  return GE_OK;
}

static ge_status ge__vk_k_reducesum(ge_kernel_ctx *c) { return ge__vk_reduce_kernel(c, GE__VK_RED_SUM); }
static ge_status ge__vk_k_reducemean(ge_kernel_ctx *c) { return ge__vk_reduce_kernel(c, GE__VK_RED_MEAN); }
static ge_status ge__vk_k_reducemax(ge_kernel_ctx *c) { return ge__vk_reduce_kernel(c, GE__VK_RED_MAX); }
static ge_status ge__vk_k_reducemin(ge_kernel_ctx *c) { return ge__vk_reduce_kernel(c, GE__VK_RED_MIN); }

/* -------------------------------------------------------------- Resize */

/* Resize (opset 10+) and Upsample over the last two axes of a float32
 * tensor (the leading axes keep their size): every output coordinate's taps
 * (source indices and weights, the reference's formulas in double) are made
 * once per shape in the kernel state; a plane is then resampled by rows —
 * nearest as a gather (a row repeated by memcpy), linear and cubic
 * separably: each source row resampled along W once into a small cache,
 * then rows blended along H with SIMD. Off this path (other dtypes, axes,
 * antialias, tf_crop_and_resize, keep_aspect_ratio_policy, bad inputs): the
 * reference. */

enum { GE__VK_RS_NEAREST, GE__VK_RS_LINEAR, GE__VK_RS_CUBIC };
/* coordinate transformation modes, in the reference's order */
enum { GE__VK_RS_HALF_PIXEL, GE__VK_RS_PYTORCH_HALF_PIXEL, GE__VK_RS_ALIGN_CORNERS, GE__VK_RS_ASYMMETRIC,
       GE__VK_RS_TF_HALF_PIXEL_FOR_NN, GE__VK_RS_TF_CROP_AND_RESIZE, GE__VK_RS_HALF_PIXEL_SYMMETRIC };
/* nearest modes; SIMPLE: Resize-10's and Upsample's (floor up, ceil down) */
enum { GE__VK_RS_PREFER_FLOOR, GE__VK_RS_PREFER_CEIL, GE__VK_RS_FLOOR, GE__VK_RS_CEIL, GE__VK_RS_SIMPLE };

#define GE__VK_RS_TAPS 4
/* Widest output row the separable path caches (4 rows on the stack). */
#define GE__VK_RS_MAX_ROW 2048

typedef struct ge__vk_rs_tap {
  int32_t n, idx[GE__VK_RS_TAPS];
  float w[GE__VK_RS_TAPS];
} ge__vk_rs_tap;

typedef struct ge__vk_rs_state {
  int parsed, usable; /* attributes read once; 0: always the reference */
  int upsample, opset10, mode, ctm, nearest, exclude;
  double cubic_a;
  int64_t key[4];   /* ih, iw, oh, ow of the taps after the struct */
  double kscale[2]; /* their scales */
  size_t cap;       /* taps the block holds (oh for H, then ow for W) */
} ge__vk_rs_state;

/* The state is one block (the executor frees it with free): the struct,
 * then its taps. */
#define GE__VK_RS_TAPS_OF(s) ((ge__vk_rs_tap *)((s) + 1))

/* Reads the attributes into s (once per node); usable 0 for what the fast
 * path leaves to the reference. */
static void ge__vk_rs_parse(const ge_kernel_ctx *c, ge__vk_rs_state *s) {
  static const char *const ctms[] = {"half_pixel",           "pytorch_half_pixel", "align_corners",       "asymmetric",
                                     "tf_half_pixel_for_nn", "tf_crop_and_resize", "half_pixel_symmetric"};
  static const char *const nms[] = {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"};
  const ge_node *n = c->node;
  const char *m = ge_node_attr_string(n, "mode", "nearest");
  const char *ctm = ge_node_attr_string(n, "coordinate_transformation_mode", NULL);
  const char *nm = ge_node_attr_string(n, "nearest_mode", "round_prefer_floor");
  int k;
  s->parsed = 1;
  s->usable = 0;
  s->upsample = !strcmp(n->op, "Upsample");
  s->opset10 = !s->upsample && c->num_inputs == 2;
  s->mode = !strcmp(m, "nearest")                                                    ? GE__VK_RS_NEAREST
            : (!strcmp(m, "linear") || !strcmp(m, "bilinear"))                       ? GE__VK_RS_LINEAR
            : (!strcmp(m, "cubic") || !strcmp(m, "bicubic")) && !s->upsample        ? GE__VK_RS_CUBIC
                                                                                     : -1;
  if (s->upsample || (s->opset10 && !ctm))
    s->ctm = GE__VK_RS_ASYMMETRIC;
  else
    for (s->ctm = -1, k = 0; k < 7 && s->ctm < 0; k++)
      if (!strcmp(ctm ? ctm : "half_pixel", ctms[k])) s->ctm = k;
  if (s->upsample || (s->opset10 && !ge_node_attr(n, "nearest_mode")))
    s->nearest = GE__VK_RS_SIMPLE;
  else
    for (s->nearest = -1, k = 0; k < 4 && s->nearest < 0; k++)
      if (!strcmp(nm, nms[k])) s->nearest = k;
  s->cubic_a = ge_node_attr_float(n, "cubic_coeff_a", -0.75);
  s->exclude = ge_node_attr_int(n, "exclude_outside", 0) != 0;
  if (s->mode < 0 || s->ctm < 0 || s->nearest < 0 || s->ctm == GE__VK_RS_TF_CROP_AND_RESIZE ||
      ge_node_attr(n, "axes") || ge_node_attr_int(n, "antialias", 0) != 0 ||
      strcmp(ge_node_attr_string(n, "keep_aspect_ratio_policy", "stretch"), "stretch") != 0)
    return;
  /* tf_half_pixel_for_nn maps a coordinate to itself only for these */
  if (s->ctm == GE__VK_RS_TF_HALF_PIXEL_FOR_NN &&
      (s->mode != GE__VK_RS_NEAREST || s->nearest == GE__VK_RS_PREFER_CEIL || s->nearest == GE__VK_RS_CEIL))
    return;
  s->usable = 1;
}

/* Source coordinate of output coordinate x (the reference's formula). */
static double ge__vk_rs_coord(int ctm, double x, int64_t in, int64_t out, double s) {
  double o = (double)out;
  switch (ctm) {
  case GE__VK_RS_PYTORCH_HALF_PIXEL: return o > 1 ? (x + 0.5) / s - 0.5 : 0.0;
  case GE__VK_RS_ALIGN_CORNERS: return o == 1 ? 0.0 : x * (double)(in - 1) / (o - 1);
  case GE__VK_RS_ASYMMETRIC: return x / s;
  case GE__VK_RS_TF_HALF_PIXEL_FOR_NN: return (x + 0.5) / s;
  case GE__VK_RS_HALF_PIXEL_SYMMETRIC: {
    double adj = o / (s * (double)in), off = (double)in * 0.5 * (1 - adj);
    return off + (x + 0.5) / s - 0.5;
  }
  default: return (x + 0.5) / s - 0.5;
  }
}

static int64_t ge__vk_rs_round(int mode, double x, int down) {
  double f = floor(x);
  switch (mode) {
  case GE__VK_RS_PREFER_CEIL: return (int64_t)(x - f == 0.5 ? f + 1 : floor(x + 0.5));
  case GE__VK_RS_FLOOR: return (int64_t)f;
  case GE__VK_RS_CEIL: return (int64_t)ceil(x);
  case GE__VK_RS_SIMPLE: return (int64_t)(down ? ceil(x) : f);
  default: return (int64_t)(x - f == 0.5 ? f : floor(x + 0.5));
  }
}

/* The taps of output coordinate k on an axis of `in` elements resized to
 * `out` at scale sc: as the reference (an integer source coordinate takes
 * ratio 1 against its left neighbour; indices clamped to the edge; weights
 * normalised; zero taps dropped). */
static void ge__vk_rs_make_tap(const ge__vk_rs_state *s, int64_t k, int64_t in, int64_t out, double sc,
                               ge__vk_rs_tap *t) {
  double xo = ge__vk_rs_coord(s->ctm, (double)k, in, out, sc), w[GE__VK_RS_TAPS], sum = 0, f, ratio;
  int64_t idx[GE__VK_RS_TAPS], xi, i, n, start, m = 0;
  if (xo < -4) xo = -4;
  if (xo > (double)in + 4) xo = (double)in + 4;
  if (s->mode == GE__VK_RS_NEAREST) {
    int64_t j = ge__vk_rs_round(s->nearest, xo, sc < 1);
    t->n = 1;
    t->idx[0] = (int32_t)(j < 0 ? 0 : j >= in ? in - 1 : j);
    t->w[0] = 1.0f;
    return;
  }
  n = s->mode == GE__VK_RS_LINEAR ? 2 : 4;
  start = 1 - n / 2;
  f = floor(xo);
  ratio = xo - f;
  xi = (int64_t)f;
  if (ratio == 0) {
    xi -= 1;
    ratio = 1;
  }
  for (i = start; i < start + n; i++) {
    double tt = fabs((double)i - ratio), A = s->cubic_a, cf;
    int64_t pos = xi + i;
    if (s->mode == GE__VK_RS_LINEAR)
      cf = tt < 1 ? 1 - tt : 0;
    else
      cf = tt <= 1 ? ((A + 2) * tt - (A + 3)) * tt * tt + 1
           : tt < 2 ? ((A * tt - 5 * A) * tt + 8 * A) * tt - 4 * A
                    : 0;
    if (s->exclude && (pos < 0 || pos >= in)) cf = 0;
    sum += cf;
    idx[i - start] = pos < 0 ? 0 : pos >= in ? in - 1 : pos;
    w[i - start] = cf;
  }
  for (i = 0; i < n; i++) {
    double wi = sum != 0 ? w[i] / sum : 0;
    if (wi == 0) continue;
    t->idx[m] = (int32_t)idx[i];
    t->w[m++] = (float)wi;
  }
  t->n = (int32_t)m;
}

/* Output sizes and scales of the last two axes from the scales or sizes
 * input; 0 when the fast path does not apply (the reference words errors). */
static int ge__vk_rs_sizes(const ge_kernel_ctx *c, const ge__vk_rs_state *s, const ge_value *x, int64_t *out,
                           double *scale) {
  const ge_value *sizes = NULL, *scales = NULL;
  const ge_attr *sa = NULL;
  int32_t r = x->rank, j;
  if (s->upsample) {
    scales = c->num_inputs > 1 ? c->inputs[1] : NULL;
    if (!scales && (!(sa = ge_node_attr(c->node, "scales")) || sa->type != GE_ATTR_FLOATS || sa->count != r)) return 0;
  } else {
    scales = c->num_inputs > (s->opset10 ? 1u : 2u) ? c->inputs[s->opset10 ? 1 : 2] : NULL;
    sizes = !s->opset10 && c->num_inputs > 3 ? c->inputs[3] : NULL;
  }
  if (sizes && sizes->numel > 0) {
    if (sizes->numel != r || (sizes->dtype != GE_DTYPE_INT64 && sizes->dtype != GE_DTYPE_INT32) || !sizes->data)
      return 0;
    for (j = 0; j < r; j++) {
      int64_t in = x->dims[j],
              sz = sizes->dtype == GE_DTYPE_INT64 ? ((const int64_t *)sizes->data)[j] : ((const int32_t *)sizes->data)[j];
      if (sz < 0) return 0;
      out[j] = sz;
      scale[j] = in ? (double)sz / (double)in : 1.0;
    }
    return 1;
  }
  if (sa || (scales && scales->numel > 0)) {
    if (!sa && (scales->numel != r || scales->dtype != GE_DTYPE_FLOAT32 || !scales->data)) return 0;
    for (j = 0; j < r; j++) {
      double sj = sa ? sa->v.floats[j] : (double)((const float *)scales->data)[j], len = (double)x->dims[j] * sj;
      if (!(sj > 0) || len > 1e15) return 0;
      scale[j] = sj;
      out[j] = len > 0 ? (int64_t)floor(len) : 0;
    }
    return 1;
  }
  return 0;
}

typedef struct ge__vk_resize_job {
  int isa, nearest;
  int64_t ih, iw, oh, ow;
  const ge__vk_rs_tap *th, *tw;
  const float *x;
  float *y;
} ge__vk_resize_job;

/* Source row xr resampled along W into out[0..ow). */
static void ge__vk_rs_hrow(const ge__vk_resize_job *j, const float *xr, float *out) {
  int64_t k;
  for (k = 0; k < j->ow; k++) {
    const ge__vk_rs_tap *t = j->tw + k;
    float acc = xr[t->idx[0]] * t->w[0];
    int32_t q;
    for (q = 1; q < t->n; q++) acc += xr[t->idx[q]] * t->w[q];
    out[k] = t->n ? acc : 0.0f;
  }
}

/* Output rows [begin, end) over all planes (row r: plane r / oh). */
static void ge__vk_resize_share(void *arg, int64_t begin, int64_t end) {
  const ge__vk_resize_job *j = (const ge__vk_resize_job *)arg;
  float cache[GE__VK_RS_TAPS][GE__VK_RS_MAX_ROW];
  int64_t tag[GE__VK_RS_TAPS], r, k;
  int slot_next = 0, q;
  for (q = 0; q < GE__VK_RS_TAPS; q++) tag[q] = -1;
  for (r = begin; r < end; r++) {
    int64_t pl = r / j->oh, oy = r % j->oh;
    const ge__vk_rs_tap *th = j->th + oy;
    const float *xp = j->x + pl * j->ih * j->iw;
    float *yr = j->y + r * j->ow;
    if (j->nearest) {
      const float *xr = xp + (int64_t)th->idx[0] * j->iw;
      if (r > begin && oy > 0 && th[-1].idx[0] == th->idx[0]) {
        memcpy(yr, yr - j->ow, (size_t)j->ow * sizeof(float));
        continue;
      }
      for (k = 0; k < j->ow; k++) yr[k] = xr[j->tw[k].idx[0]];
      continue;
    }
    if (th->n == 0) {
      memset(yr, 0, (size_t)j->ow * sizeof(float));
      continue;
    }
    if (j->ow > GE__VK_RS_MAX_ROW) { /* too wide to cache: tap by tap */
      for (k = 0; k < j->ow; k++) {
        const ge__vk_rs_tap *tw = j->tw + k;
        float acc = 0.0f;
        int32_t a, b;
        for (a = 0; a < th->n; a++) {
          const float *xr = xp + (int64_t)th->idx[a] * j->iw;
          float h = xr[tw->idx[0]] * tw->w[0];
          for (b = 1; b < tw->n; b++) h += xr[tw->idx[b]] * tw->w[b];
          acc = a ? acc + h * th->w[a] : h * th->w[a];
        }
        yr[k] = acc;
      }
      continue;
    }
    {
      const float *rows[GE__VK_RS_TAPS];
      int32_t a;
      for (a = 0; a < th->n; a++) {
        int64_t want = pl * j->ih + th->idx[a];
        for (q = 0; q < GE__VK_RS_TAPS && tag[q] != want; q++) {
        }
        if (q == GE__VK_RS_TAPS) { /* not cached: take the oldest slot not in use by this row */
          int b, used;
          do {
            q = slot_next;
            slot_next = (slot_next + 1) % GE__VK_RS_TAPS;
            for (used = 0, b = 0; b < a; b++) used |= rows[b] == cache[q];
          } while (used);
          ge__vk_rs_hrow(j, xp + (int64_t)th->idx[a] * j->iw, cache[q]);
          tag[q] = want;
        }
        rows[a] = cache[q];
      }
      GE__VK_PICK(j->isa, ge__vk_blend)(yr, rows, th->w, th->n, j->ow);
    }
  }
}

static ge_status ge__vk_k_resize(ge_kernel_ctx *c) {
  ge__vk_rs_state *s = (ge__vk_rs_state *)c->state;
  ge__vk_resize_job j;
  const ge_value *x;
  ge_value *y;
  int64_t out[GE_MAX_RANK], k;
  double scale[GE_MAX_RANK];
  int32_t r, d;
  if (!s) {
    if (!(s = (ge__vk_rs_state *)calloc(1, sizeof *s))) return ge_kernel_error(c, GE_ERR_NOMEM, "out of memory");
    s->key[0] = -1;
    c->state = s;
  }
  if (!s->parsed) ge__vk_rs_parse(c, s);
  if (ge_kernel_preparing(c)) return GE_OK; /* the taps wait for the sizes, read at the first run */
  if (!ge__vk_f32_in(c, 0) || c->num_outputs < 1) return ge__vk_reference(c);
  x = c->inputs[0];
  r = x->rank;
  if (!s->usable || r < 2 || !ge__vk_rs_sizes(c, s, x, out, scale)) return ge__vk_reference(c);
  for (d = 0; d < r - 2; d++) /* leading axes keep their size (then their taps are the identity) */
    if (out[d] != x->dims[d] || scale[d] != 1.0) return ge__vk_reference(c);
  if ((x->dims[r - 2] == 0 || x->dims[r - 1] == 0) && out[r - 2] > 0 && out[r - 1] > 0) return ge__vk_reference(c);
  if (x->dims[r - 2] > INT32_MAX || x->dims[r - 1] > INT32_MAX) return ge__vk_reference(c);
  if (!(y = ge_kernel_output(c, 0, GE_DTYPE_FLOAT32, r, out))) return ge__vk_out_failed(c);
  if (y->numel == 0) return GE_OK;
  j.ih = x->dims[r - 2];
  j.iw = x->dims[r - 1];
  j.oh = out[r - 2];
  j.ow = out[r - 1];
  if (s->key[0] != j.ih || s->key[1] != j.iw || s->key[2] != j.oh || s->key[3] != j.ow ||
      s->kscale[0] != scale[r - 2] || s->kscale[1] != scale[r - 1]) { /* taps for this shape */
    size_t need = (size_t)(j.oh + j.ow);
    if (need > s->cap) {
      ge__vk_rs_state *g = (ge__vk_rs_state *)realloc(s, sizeof *s + need * sizeof(ge__vk_rs_tap));
      if (!g) return ge_kernel_error(c, GE_ERR_NOMEM, "out of memory");
      c->state = s = g;
      s->cap = need;
    }
    s->key[0] = -1; /* valid again once every tap is made */
    for (k = 0; k < j.oh; k++) ge__vk_rs_make_tap(s, k, j.ih, j.oh, scale[r - 2], GE__VK_RS_TAPS_OF(s) + k);
    for (k = 0; k < j.ow; k++) ge__vk_rs_make_tap(s, k, j.iw, j.ow, scale[r - 1], GE__VK_RS_TAPS_OF(s) + j.oh + k);
    s->key[0] = j.ih;
    s->key[1] = j.iw;
    s->key[2] = j.oh;
    s->key[3] = j.ow;
    s->kscale[0] = scale[r - 2];
    s->kscale[1] = scale[r - 1];
  }
  j.isa = ge__vk_isa();
  j.nearest = s->mode == GE__VK_RS_NEAREST;
  j.th = GE__VK_RS_TAPS_OF(s);
  j.tw = GE__VK_RS_TAPS_OF(s) + j.oh;
  j.x = (const float *)x->data;
  j.y = (float *)y->data;
  ge_kernel_parallel_for(c, y->numel / j.ow, 1 + GE__VK_GRAIN / j.ow, ge__vk_resize_share, &j);
  return GE_OK;
}

/* --------------------------------------------------------------- Where */

/* Where(cond, x, y) with a bool cond and float32 values, each operand the
 * output's shape, a suffix of it (leading dims 1 dropped) or one value
 * (the attention mask [T, T] over [B, H, T, T]): the output runs in blocks
 * of the shortest operand period, each operand read at i % period. Other
 * broadcasts and dtypes go to the reference. */
/* Lane masks (-1 or 0) from W condition bytes (nonzero: -1): one widening
 * load on AVX2 and AVX-512 (GCC lowers a generic vector conversion byte by
 * byte; the zero-masked form, as g++ warns of the unmasked one's undefined
 * source), a loop elsewhere. */
#if GE__VK_X86
#define GE__VK_BYTE_MASK_avx512(p)                                                                                     \
  ((ge__vk_vi_avx512)_mm512_maskz_cvtepu8_epi32((__mmask16)0xffff,                                                     \
                                                 _mm_loadu_si128((const __m128i *)(const void *)(p))) != 0)
#define GE__VK_BYTE_MASK_avx2(p)                                                                                       \
  ((ge__vk_vi_avx2)_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(const void *)(p))) != 0)
#else
#define GE__VK_BYTE_MASK_avx512(p) ge__vk_byte_mask_avx512(p)
#define GE__VK_BYTE_MASK_avx2(p) ge__vk_byte_mask_avx2(p)
#endif
#define GE__VK_BYTE_MASK_base(p) ge__vk_byte_mask_base(p)
/* y[j] = c[j] ? a : b over a row: a and b advance when sa / sb is 1, else
 * one value each; the bytes of c become lane masks (no branch). */
#define GE__VK_WHERE_ISA(isa)                                                                                          \
  GE__VK_INLINE GE__VK_ATTR_##isa ge__vk_vi_##isa ge__vk_byte_mask_##isa(const uint8_t *c) {                           \
    ge__vk_vi_##isa m;                                                                                                 \
    int k;                                                                                                             \
    for (k = 0; k < GE__VK_W_##isa; k++)                                                                               \
      m[k] = c[k] ? -1 : 0;                                                                                            \
    return m;                                                                                                          \
  }                                                                                                                    \
  GE__VK_ATTR_##isa static void ge__vk_where_row_##isa(const uint8_t *c, const float *a, int sa, const float *b,       \
                                                       int sb, float *y, int64_t n) {                                  \
    const ge__vk_v_##isa av = ge__vk_splat_##isa(a[0]), bv = ge__vk_splat_##isa(b[0]);                                 \
    int64_t j = 0;                                                                                                     \
    for (; j + GE__VK_W_##isa <= n; j += GE__VK_W_##isa)                                                               \
      ge__vk_store_##isa(y + j, ge__vk_sel_##isa(GE__VK_BYTE_MASK_##isa(c + j), sa ? ge__vk_load_##isa(a + j) : av,    \
                                                   sb ? ge__vk_load_##isa(b + j) : bv));                               \
    for (; j < n; j++) y[j] = c[j] ? a[sa ? j : 0] : b[sb ? j : 0];                                                    \
  }
GE__VK_WHERE_ISA(base)
GE__VK_WHERE_ISA(avx2)
GE__VK_WHERE_ISA(avx512)

typedef struct ge__vk_where {
  const uint8_t *c;
  const float *a, *b;
  int64_t pc, pa, pb, block; /* periods (1: one value) and the block */
  float *y;
  int isa;
} ge__vk_where;

static void ge__vk_where_block(const ge__vk_where *w, int64_t i0, int64_t n) {
  const uint8_t *c = w->c + (w->pc > 1 ? i0 % w->pc : 0);
  const float *a = w->a + (w->pa > 1 ? i0 % w->pa : 0), *b = w->b + (w->pb > 1 ? i0 % w->pb : 0);
  float *y = w->y + i0;
  int64_t j;
  if (w->pc == 1) {
    const float *s = c[0] ? a : b;
    if ((c[0] ? w->pa : w->pb) == 1)
      for (j = 0; j < n; j++) y[j] = s[0];
    else
      memcpy(y, s, (size_t)n * sizeof(float));
  } else {
    GE__VK_PICK(w->isa, ge__vk_where_row)(c, a, w->pa > 1, b, w->pb > 1, y, n);
  }
}

static void ge__vk_where_share(void *arg, int64_t begin, int64_t end) {
  const ge__vk_where *w = (const ge__vk_where *)arg;
  int64_t k;
  for (k = begin; k < end; k++) ge__vk_where_block(w, k * w->block, w->block);
}

/* The period of v in an output of rank r and dims d: its numel when its
 * dims, leading 1s dropped, are d's trailing dims; else -1. */
static int64_t ge__vk_where_period(const ge_value *v, int32_t r, const int64_t *d) {
  int32_t f = 0, k;
  while (f < v->rank && v->dims[f] == 1) f++;
  if (v->rank - f > r) return -1;
  for (k = f; k < v->rank; k++)
    if (v->dims[k] != d[r - v->rank + k]) return -1;
  return v->numel;
}

static ge_status ge__vk_k_where(ge_kernel_ctx *c) {
  const ge_value *cv = c->num_inputs > 0 ? c->inputs[0] : NULL, *v[3];
  int64_t d[GE_MAX_RANK], per[3], n = 1, block;
  int32_t r = 0, i, k;
  ge_value *y;
  ge__vk_where w;
  if (c->num_inputs != 3 || c->num_outputs < 1 || !cv || cv->dtype != GE_DTYPE_BOOL || !ge__vk_f32_in(c, 1) ||
      !ge__vk_f32_in(c, 2) || cv->rank < 0 || cv->rank > GE_MAX_RANK || (cv->numel > 0 && !cv->data))
    return ge__vk_reference(c);
  v[0] = cv, v[1] = c->inputs[1], v[2] = c->inputs[2];
  for (i = 0; i < 3; i++)
    if (v[i]->rank > r) r = v[i]->rank;
  for (k = 0; k < r; k++) { /* the broadcast output shape; a mismatch is the reference's error */
    d[k] = 1;
    for (i = 0; i < 3; i++) {
      int64_t e = k - (r - v[i]->rank) >= 0 ? v[i]->dims[k - (r - v[i]->rank)] : 1;
      if (e < 0) return ge__vk_reference(c);
      if (e != 1 && d[k] != 1 && e != d[k]) return ge__vk_reference(c);
      if (e != 1) d[k] = e;
    }
    n *= d[k];
  }
  block = n;
  for (i = 0; i < 3; i++) {
    if ((per[i] = ge__vk_where_period(v[i], r, d)) < 1) return ge__vk_reference(c);
    if (per[i] > 1 && per[i] < block) block = per[i];
  }
  if (!(y = ge_kernel_output(c, 0, GE_DTYPE_FLOAT32, r, d))) return ge__vk_out_failed(c);
  if (n == 0) return GE_OK;
  w.c = (const uint8_t *)cv->data, w.a = (const float *)v[1]->data, w.b = (const float *)v[2]->data;
  w.pc = per[0], w.pa = per[1], w.pb = per[2], w.block = block, w.y = (float *)y->data, w.isa = ge__vk_isa();
  ge_kernel_parallel_for(c, n / block, 1 + GE__VK_GRAIN / block, ge__vk_where_share, &w);
  return GE_OK;
}

/* ---------------------------------------------------------- the lookup */

typedef struct ge__vk_entry {
  const char *op;
  ge_kernel_fn fn;
  int prepares; /* fn parses attributes into its state when preparing (GE_KERNEL_PREPARE) */
} ge__vk_entry;

/* Sorted by strcmp (a test checks it). */
static const ge__vk_entry ge__vk_table[] = {
    {"Abs", ge__vk_k_abs, 0},
    {"Add", ge__vk_k_add, 0},
    {"AveragePool", ge__vk_k_averagepool, 1},
    {"BatchNormalization", ge__vk_k_batchnormalization, 1},
    {"Celu", ge__vk_k_celu, 1},
    {"Clip", ge__vk_k_clip, 1},
    {"Div", ge__vk_k_div, 0},
    {"Elu", ge__vk_k_elu, 1},
    {"Erf", ge__vk_k_erf, 0},
    {"Exp", ge__vk_k_exp, 0},
    {"Gelu", ge__vk_k_gelu, 1},
    {"GlobalAveragePool", ge__vk_k_globalaveragepool, 0},
    {"GlobalMaxPool", ge__vk_k_globalmaxpool, 0},
    {"HardSigmoid", ge__vk_k_hard_sigmoid, 1},
    {"HardSwish", ge__vk_k_hard_swish, 0},
    {"InstanceNormalization", ge__vk_k_instancenormalization, 1},
    {"LayerNormalization", ge__vk_k_layernormalization, 1},
    {"LeakyRelu", ge__vk_k_leaky_relu, 1},
    {"Log", ge__vk_k_log, 0},
    {"LogSoftmax", ge__vk_k_logsoftmax, 1},
    {"Max", ge__vk_k_max, 0},
    {"MaxPool", ge__vk_k_maxpool, 1},
    {"Min", ge__vk_k_min, 0},
    {"Mish", ge__vk_k_mish, 0},
    {"Mul", ge__vk_k_mul, 0},
    {"Neg", ge__vk_k_neg, 0},
    {"PRelu", ge__vk_k_prelu, 0},
    {"Pow", ge__vk_k_pow, 0},
    {"Reciprocal", ge__vk_k_reciprocal, 0},
    {"ReduceMax", ge__vk_k_reducemax, 1},
    {"ReduceMean", ge__vk_k_reducemean, 1},
    {"ReduceMin", ge__vk_k_reducemin, 1},
    {"ReduceSum", ge__vk_k_reducesum, 1},
    {"Relu", ge__vk_k_relu, 0},
    {"Resize", ge__vk_k_resize, 1},
    {"Selu", ge__vk_k_selu, 1},
    {"Sigmoid", ge__vk_k_sigmoid, 0},
    {"Softmax", ge__vk_k_softmax, 1},
    {"Softplus", ge__vk_k_softplus, 0},
    {"Softsign", ge__vk_k_softsign, 0},
    {"Sqrt", ge__vk_k_sqrt, 0},
    {"Sub", ge__vk_k_sub, 0},
    {"Sum", ge__vk_k_sum, 0},
    {"Tanh", ge__vk_k_tanh, 0},
    {"ThresholdedRelu", ge__vk_k_thresholded_relu, 1},
    {"Transpose", ge__vk_k_transpose, 1},
    {"Upsample", ge__vk_k_resize, 1},
    {"Where", ge__vk_k_where, 0},
};
#define GE__VK_NUM_OPS (sizeof ge__vk_table / sizeof ge__vk_table[0])

#if defined(__clang__)
#pragma STDC FP_CONTRACT DEFAULT
#endif

/* Decided from what is static: the op, and an output dtype that is float32
 * or not yet known (the kernel checks its inputs at run time). */
static const ge__vk_entry *ge__vk_entry_of(const ge_node *n) {
  size_t lo = 0, hi = GE__VK_NUM_OPS;
  ge_dtype t;
  if (!n || !ge_node_in_onnx_domain(n) || n->num_outputs < 1) return NULL;
  t = n->outputs[0].dtype;
  if (t != GE_DTYPE_FLOAT32 && t != GE_DTYPE_UNDEFINED) return NULL;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int k = strcmp(n->op, ge__vk_table[mid].op);
    if (k == 0) return &ge__vk_table[mid];
    if (k < 0)
      hi = mid;
    else
      lo = mid + 1;
  }
  return NULL;
}
#endif /* GE__VK_ON */

GE_API ge_kernel_fn ge_vector_fast_kernel(const ge_node *n) {
#if GE__VK_ON
  const ge__vk_entry *e = ge__vk_entry_of(n);
  return e ? e->fn : NULL;
#else
  (void)n;
  return NULL;
#endif
}

GE_API ge_kernel_fn ge_vector_fast_prepare(const ge_node *n) {
#if GE__VK_ON
  const ge__vk_entry *e = ge__vk_entry_of(n);
  return e && e->prepares ? e->fn : NULL;
#else
  (void)n;
  return NULL;
#endif
}

GE_API int ge_vector_activation(int act, float alpha, float beta, float *y, int64_t n) {
#if GE__VK_ON
  static const int ops[] = {-1,           GE__VK_U_RELU,        GE__VK_U_LEAKYRELU, GE__VK_U_CLIP,
                            GE__VK_U_SIGMOID, GE__VK_U_TANH,      GE__VK_U_HARDSIGMOID, GE__VK_U_HARDSWISH_AB,
                            -1 /* SiLU */,  GE__VK_U_GELU,        GE__VK_U_GELU_TANH};
  ge__vk_upar p;
  if (act < GE_VECTOR_ACT_RELU || act > GE_VECTOR_ACT_GELU_TANH) return 0;
  memset(&p, 0, sizeof p);
  p.alpha = alpha;
  p.beta = beta;
  if (act == GE_VECTOR_ACT_SILU) {
    int isa = ge__vk_isa();
    if (isa == GE__VK_ISA_AVX512) ge__vk_silu_avx512(y, n);
    else if (isa == GE__VK_ISA_AVX2) ge__vk_silu_avx2(y, n);
    else ge__vk_silu_base(y, n);
    return 1;
  }
  if (n > 0) ge__vk_unary_rows(ge__vk_isa(), ops[act], &p, y, y, n);
  return 1;
#else
  (void)act, (void)alpha, (void)beta, (void)y, (void)n;
  return 0;
#endif
}

#ifdef __cplusplus
}
#endif
#endif /* GE_VECTOR_KERNELS_IMPLEMENTATION_DONE */
#endif /* GE_VECTOR_KERNELS_IMPLEMENTATION */

/* ge_engines/ai_core.h — AIcoreEngine (accelerator "AiCore"), cost 1.
 *
 * Part of ge. Ascend's AI Core runs dense float kernels (its cube unit does
 * matrix products) and, like Ascend's FE, the element-wise ops of the
 * vector unit too. Here it is a CPU engine with that op set and with fast
 * float32 kernels for the dense products:
 *
 *   Conv      2-D NCHW (1-D as H = 1): im2col + SGEMM per group, depthwise
 *             (one input channel per group) as a direct loop; strides,
 *             dilations, pads, auto_pad, bias. 3-D and non-float32 convs
 *             run the host CPU reference kernel.
 *   MatMul    numpy semantics: batched, broadcast batch dims, 1-D operands.
 *   Gemm      transA/transB, alpha, beta, C broadcast to [M, N].
 *
 * The SGEMM is ours, in plain C: cache-blocked (KC x NC panels of B, MC x KC
 * blocks of A, both packed) around a 6 x 16 register micro-kernel written
 * with GCC/Clang vector types, compiled twice on x86-64 (baseline SSE2 with
 * 6 x 8 tiles, and AVX2+FMA picked at run time with __builtin_cpu_supports).
 * Other compilers get a scalar micro-kernel. With GE_USE_OPENBLAS defined
 * the kernels call cblas_sgemm instead (link -lopenblas); ge_ai_core_sgemm
 * stays ours either way. Kernels are single-threaded (OpenBLAS may thread
 * internally). Scratch (packed panels, im2col columns) lives in the
 * kernel's c->state, grown once and reused, so a static graph allocates
 * nothing per run; parsed attributes are cached there too.
 *
 * Fused activations: Conv, Gemm and MatMul honour the node attributes
 * _fused_activation (string: Relu, LeakyRelu, Clip, Sigmoid, Tanh,
 * HardSigmoid), _fused_alpha and _fused_beta (LeakyRelu alpha; Clip min and
 * max; HardSigmoid alpha and beta; ONNX defaults when absent), applied to
 * the output in place. The optimiser (engine optimize_subgraph, over nodes
 * with engine == self) sets them:
 *   1. Conv or Gemm whose only consumer is an inference BatchNormalization
 *      (one output, Const scale/B/mean/var) with Const weights (and bias):
 *      the BN folds into new Const weights and bias; the BN goes.
 *   2. Relu, LeakyRelu, Clip (Const or absent min/max), Sigmoid, Tanh or
 *      HardSigmoid whose producer is a Conv/Gemm/MatMul of this engine with
 *      no other consumer: becomes the producer's fused activation.
 * Both only when every tensor involved is float32, shapes agree, and the
 * removed node has no control edges. New Const nodes get engine -1 (the
 * placer places them again); Consts left without consumers are removed.
 *
 * Support rules (ge_ai_core_supports): element-wise ops follow
 * ge_vector_supports (vector.h). Dense ops (ge_ai_core_op lists them): ONNX
 * domain; every input and output float32 or float16 (MaxPool's indices
 * int64), known rank <= 8; Conv, ConvTranspose and the windowed pools have
 * 1..3 spatial dims, kernel dims 1..255 (the cube unit's limit), strides
 * and dilations >= 1, pads >= 0, a known auto_pad, and a group that divides
 * the channels where they are known; BatchNormalization only in inference
 * (one output, training_mode 0); MatMul operands of rank >= 1, Gemm's A and
 * B of rank 2.
 *
 * Include after (or instead of) ge_graph.h; define GE_AI_CORE_IMPLEMENTATION
 * (or GE_IMPLEMENTATION) in one translation unit; the implementations of
 * ge_graph.h, host_cpu.h and vector.h must be compiled somewhere too.
 * Thread safety: the descriptor and the support check are read-only;
 * kernels keep their state in their context (one context per thread).
 */
#ifndef GE_ENGINE_AI_CORE_H
#define GE_ENGINE_AI_CORE_H

#include "ge_graph.h"
#include "host_cpu.h"
#include "vector.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The AIcoreEngine descriptor (static storage). */
GE_API const ge_engine *ge_ai_core_engine(void);
/* 1 when AI Core runs node n of g; else 0 with the reason in why[0..cap)
 * (why may be NULL: then nothing is formatted). */
GE_API int ge_ai_core_supports(const ge_graph *g, const ge_node *n, char *why, size_t cap);
/* The dense op set (besides the vector set), sorted by strcmp: NULL past
 * the end. */
GE_API const char *ge_ai_core_op(uint32_t i);
/* Applies n's fused activation (_fused_activation, _fused_alpha,
 * _fused_beta) to y[0..count) in place; no-op without the attribute. */
GE_API void ge_ai_core_apply_activation(const ge_node *n, float *y, int64_t count);

/* C = alpha op(A) op(B) + beta C, row-major float32, BLAS semantics (C is
 * not read when beta is 0): op(A) is M x K (A is K x M when trans_a), op(B)
 * is K x N; lda, ldb, ldc are row strides. work needs
 * ge_ai_core_sgemm_work_size(M, N, K) bytes (any alignment). Always the
 * engine's own packed SGEMM, single-threaded, even with GE_USE_OPENBLAS. */
GE_API void ge_ai_core_sgemm(int trans_a, int trans_b, int64_t M, int64_t N, int64_t K, float alpha, const float *A,
                             int64_t lda, const float *B, int64_t ldb, float beta, float *C, int64_t ldc, void *work);
GE_API size_t ge_ai_core_sgemm_work_size(int64_t M, int64_t N, int64_t K);

#ifdef __cplusplus
}
#endif
#endif /* GE_ENGINE_AI_CORE_H */

#if defined(GE_IMPLEMENTATION) || defined(GE_AI_CORE_IMPLEMENTATION)
#ifndef GE_AI_CORE_IMPLEMENTATION_DONE
#define GE_AI_CORE_IMPLEMENTATION_DONE

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef GE_USE_OPENBLAS
#include <cblas.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------- op set */

/* Sorted by strcmp (a test checks it). */
static const char *const ge__aic_ops[] = {
    "AveragePool",        "BatchNormalization", "Conv",          "ConvTranspose",
    "Gemm",               "GlobalAveragePool",  "GlobalLpPool",  "GlobalMaxPool",
    "GroupNormalization", "Hardmax",            "InstanceNormalization", "LRN",
    "LayerNormalization", "LogSoftmax",         "LpNormalization",       "LpPool",
    "MatMul",             "MaxPool",            "MeanVarianceNormalization", "Softmax"};
#define GE__AIC_NUM_OPS (sizeof ge__aic_ops / sizeof ge__aic_ops[0])
#define GE__AIC_MAX_RANK 8
#define GE__AIC_MAX_KERNEL 255

GE_API const char *ge_ai_core_op(uint32_t i) { return i < GE__AIC_NUM_OPS ? ge__aic_ops[i] : NULL; }

/* ------------------------------------------------------ support check */

static int ge__aic_dtype_ok(const ge_node *n, const ge_tensor_desc *d, int is_out, uint32_t i, char *why, size_t cap) {
  const char *what = is_out ? "output" : "input";
  if (d->shape.rank == GE_RANK_UNKNOWN || d->shape.rank < 0) {
    if (why) ge_engine_why(why, cap, "rank of %s %u unknown", what, (unsigned)i);
    return 0;
  }
  if (d->shape.rank > GE__AIC_MAX_RANK) {
    if (why) ge_engine_why(why, cap, "rank %d of %s %u exceeds %d", (int)d->shape.rank, what, (unsigned)i,
                           GE__AIC_MAX_RANK);
    return 0;
  }
  if (d->dtype == GE_DTYPE_FLOAT32 || d->dtype == GE_DTYPE_FLOAT16) return 1;
  if (is_out && i == 1 && d->dtype == GE_DTYPE_INT64 && strcmp(n->op, "MaxPool") == 0) return 1;
  if (why) ge_engine_why(why, cap, "dtype %s of %s %u not supported (float32, float16)", ge_dtype_name(d->dtype), what,
                         (unsigned)i);
  return 0;
}

/* An ints attribute of a windowed op: count (when present) must be want,
 * each value >= lo and <= hi (hi < 0: no upper limit). */
static int ge__aic_ints_ok(const ge_node *n, const char *name, int32_t want, int64_t lo, int64_t hi, const char *noun,
                           char *why, size_t cap) {
  const int64_t *v = NULL;
  int32_t cnt = ge_node_attr_ints(n, name, &v), i;
  if (cnt < 0) return 1;
  if (cnt != want) {
    if (why) ge_engine_why(why, cap, "%s has %d values for %d spatial dims", name, (int)cnt, (int)(want > 0 ? want : 0));
    return 0;
  }
  for (i = 0; i < cnt; i++) {
    if (v[i] < lo) {
      if (why) ge_engine_why(why, cap, "%s %lld must be >= %lld", noun, (long long)v[i], (long long)lo);
      return 0;
    }
    if (hi >= 0 && v[i] > hi) {
      if (why) ge_engine_why(why, cap, "%s %lld exceeds %lld (the cube unit limit)", noun, (long long)v[i], (long long)hi);
      return 0;
    }
  }
  return 1;
}

/* Conv, ConvTranspose and the windowed pools. */
static int ge__aic_window_ok(const ge_graph *g, const ge_node *n, int conv, char *why, size_t cap) {
  const ge_tensor_desc *x = ge_node_input_desc(g, n, 0), *w = conv ? ge_node_input_desc(g, n, 1) : NULL;
  const char *ap = ge_node_attr_string(n, "auto_pad", "NOTSET");
  int32_t r, i;
  int64_t group = conv ? ge_node_attr_int(n, "group", 1) : 1;
  if (!x) {
    if (why) ge_engine_why(why, cap, "input 0 missing");
    return 0;
  }
  r = x->shape.rank - 2;
  if (r < 1 || r > 3) {
    if (why) ge_engine_why(why, cap, "spatial rank %d not supported (1..3)", (int)r);
    return 0;
  }
  if (!ge__aic_ints_ok(n, "kernel_shape", r, 1, GE__AIC_MAX_KERNEL, "kernel dim", why, cap) ||
      !ge__aic_ints_ok(n, "strides", r, 1, -1, "stride", why, cap) ||
      !ge__aic_ints_ok(n, "dilations", r, 1, -1, "dilation", why, cap) ||
      !ge__aic_ints_ok(n, "pads", 2 * r, 0, -1, "pad", why, cap))
    return 0;
  if (!conv && !ge_node_attr(n, "kernel_shape")) {
    if (why) ge_engine_why(why, cap, "kernel_shape missing");
    return 0;
  }
  if (*ap && strcmp(ap, "NOTSET") && strcmp(ap, "SAME_UPPER") && strcmp(ap, "SAME_LOWER") && strcmp(ap, "VALID")) {
    if (why) ge_engine_why(why, cap, "auto_pad %s unknown", ap);
    return 0;
  }
  if (w && w->shape.rank == x->shape.rank)
    for (i = 0; i < r; i++) {
      int64_t k = w->shape.dims[2 + i];
      if (k > GE__AIC_MAX_KERNEL) {
        if (why) ge_engine_why(why, cap, "kernel dim %lld exceeds %d (the cube unit limit)", (long long)k,
                               GE__AIC_MAX_KERNEL);
        return 0;
      }
    }
  if (conv) {
    int64_t c = x->shape.dims[1], m = w && w->shape.rank >= 2 ? w->shape.dims[0] : -1;
    if (group < 1) {
      if (why) ge_engine_why(why, cap, "group %lld must be >= 1", (long long)group);
      return 0;
    }
    if (c > 0 && c % group) {
      if (why) ge_engine_why(why, cap, "group %lld does not divide %lld input channels", (long long)group, (long long)c);
      return 0;
    }
    if (strcmp(n->op, "Conv") == 0 && m > 0 && m % group) {
      if (why) ge_engine_why(why, cap, "group %lld does not divide %lld output channels", (long long)group,
                             (long long)m);
      return 0;
    }
  }
  return 1;
}

GE_API int ge_ai_core_supports(const ge_graph *g, const ge_node *n, char *why, size_t cap) {
  const char *op = n->op;
  uint32_t i;
  if (!ge_node_in_onnx_domain(n)) {
    if (why) ge_engine_why(why, cap, "op domain %s not supported (ONNX only)", n->domain);
    return 0;
  }
  if (!ge_op_in_sorted(op, ge__aic_ops, GE__AIC_NUM_OPS)) {
    if (ge_vector_supports(g, n, why, cap)) return 1;
    if (why && cap && strstr(why, "not in the vector op set")) ge_engine_why(why, cap, "op %s not in the AI Core op set", op);
    return 0;
  }
  for (i = 0; i < n->num_inputs; i++) {
    const ge_tensor_desc *d = ge_node_input_desc(g, n, i);
    if (d && !ge__aic_dtype_ok(n, d, 0, i, why, cap)) return 0;
  }
  for (i = 0; i < n->num_outputs; i++)
    if (!ge__aic_dtype_ok(n, &n->outputs[i], 1, i, why, cap)) return 0;
  switch (op[0]) {
  case 'A': return ge__aic_window_ok(g, n, 0, why, cap); /* AveragePool */
  case 'B':                                              /* BatchNormalization */
    if (n->num_outputs != 1 || ge_node_attr_int(n, "training_mode", 0) != 0) {
      if (why) ge_engine_why(why, cap, "BatchNormalization in training mode (%u outputs) not supported",
                             (unsigned)n->num_outputs);
      return 0;
    }
    return 1;
  case 'C': return ge__aic_window_ok(g, n, 1, why, cap); /* Conv, ConvTranspose */
  case 'L':
    if (strcmp(op, "LpPool") == 0) return ge__aic_window_ok(g, n, 0, why, cap);
    return 1;
  case 'M':
    if (strcmp(op, "MaxPool") == 0) return ge__aic_window_ok(g, n, 0, why, cap);
    if (strcmp(op, "MatMul") == 0)
      for (i = 0; i < 2 && i < n->num_inputs; i++) {
        const ge_tensor_desc *d = ge_node_input_desc(g, n, i);
        if (d && d->shape.rank < 1) {
          if (why) ge_engine_why(why, cap, "MatMul operand %u is a scalar", (unsigned)i);
          return 0;
        }
      }
    return 1;
  case 'G':
    if (strcmp(op, "Gemm") == 0)
      for (i = 0; i < 2 && i < n->num_inputs; i++) {
        const ge_tensor_desc *d = ge_node_input_desc(g, n, i);
        if (d && d->shape.rank != 2) {
          if (why) ge_engine_why(why, cap, "Gemm operand %u has rank %d (needs 2)", (unsigned)i, (int)d->shape.rank);
          return 0;
        }
      }
    if (strncmp(op, "Global", 6) == 0) {
      const ge_tensor_desc *x = ge_node_input_desc(g, n, 0);
      if (x && (x->shape.rank < 3 || x->shape.rank > 5)) {
        if (why) ge_engine_why(why, cap, "spatial rank %d not supported (1..3)", (int)x->shape.rank - 2);
        return 0;
      }
    }
    return 1;
  default: return 1;
  }
}

/* ------------------------------------------------------------- SGEMM
 *
 * Goto/BLIS blocking: for each NC-wide column block of B and KC-deep slice,
 * pack B into NR-wide panels; for each MC-tall row block of A, pack A
 * (times alpha) into MR-tall panels; a micro-kernel computes each MR x NR
 * tile of C over the KC slice in registers. Packing zero-pads partial
 * panels, so the micro-kernel always runs full tiles; the tile update
 * writes only the valid part. */

#define GE__AIC_MR 6
#define GE__AIC_KC 256
#define GE__AIC_MC 120 /* multiple of MR */
#define GE__AIC_NC 512 /* multiple of every NR */

#if defined(__GNUC__) || defined(__clang__)
#define GE__AIC_VEC 1
typedef float ge__aic_v4 __attribute__((vector_size(16), may_alias));
typedef float ge__aic_v4u __attribute__((vector_size(16), aligned(4), may_alias));
#if defined(__x86_64__) || defined(__i386__)
#define GE__AIC_X86 1
typedef float ge__aic_v8 __attribute__((vector_size(32), may_alias));
typedef float ge__aic_v8u __attribute__((vector_size(32), aligned(4), may_alias));
#endif
#define GE__AIC_ALIGNED(n) __attribute__((aligned(n)))
#else
#define GE__AIC_ALIGNED(n)
#endif

/* gcc keeps a*b+c unfused under -std=c99 (-ffp-contract=off); the AVX2
 * kernel asks for FMA contraction explicitly. */
#if defined(__GNUC__) && !defined(__clang__)
#define GE__AIC_CONTRACT __attribute__((optimize("fp-contract=fast")))
#else
#define GE__AIC_CONTRACT
#endif

static int64_t ge__aic_min(int64_t a, int64_t b) { return a < b ? a : b; }

/* A's rows i0.., MR at a time: dst[panel][p][i] = alpha A(i, p). */
static void ge__aic_pack_a(const float *A, int64_t rs, int64_t cs, int64_t mc, int64_t kc, float alpha, float *dst) {
  int64_t i0, i, p;
  for (i0 = 0; i0 < mc; i0 += GE__AIC_MR, dst += GE__AIC_MR * kc) {
    int64_t mr = ge__aic_min(GE__AIC_MR, mc - i0);
    const float *a = A + i0 * rs;
    if (mr == GE__AIC_MR && cs == 1) {
      for (p = 0; p < kc; p++)
        for (i = 0; i < GE__AIC_MR; i++) dst[p * GE__AIC_MR + i] = alpha * a[i * rs + p];
    } else {
      for (p = 0; p < kc; p++) {
        for (i = 0; i < mr; i++) dst[p * GE__AIC_MR + i] = alpha * a[i * rs + p * cs];
        for (; i < GE__AIC_MR; i++) dst[p * GE__AIC_MR + i] = 0.0f;
      }
    }
  }
}

/* B's columns j0.., nr at a time: dst[panel][p][j] = B(p, j). */
static void ge__aic_pack_b(const float *B, int64_t rs, int64_t cs, int64_t kc, int64_t nc, int64_t nr, float *dst) {
  int64_t j0, j, p;
  for (j0 = 0; j0 < nc; j0 += nr, dst += nr * kc) {
    int64_t w = ge__aic_min(nr, nc - j0);
    const float *b = B + j0 * cs;
    if (w == nr && cs == 1) {
      for (p = 0; p < kc; p++) memcpy(dst + p * nr, b + p * rs, (size_t)nr * sizeof(float));
    } else {
      for (p = 0; p < kc; p++) {
        for (j = 0; j < w; j++) dst[p * nr + j] = b[p * rs + j * cs];
        for (; j < nr; j++) dst[p * nr + j] = 0.0f;
      }
    }
  }
}

/* Adds an MR x NR tile t into C's mr x nr corner: C = t (first slice, beta
 * 0), beta C + t (first slice), or C + t. */
#define GE__AIC_UPDATE(NR)                                                                                             \
  {                                                                                                                    \
    int64_t i_, j_;                                                                                                    \
    for (i_ = 0; i_ < mr; i_++) {                                                                                      \
      float *row = cp + i_ * ldc;                                                                                      \
      const float *tr = t + i_ * (NR);                                                                                 \
      if (!first)                                                                                                      \
        for (j_ = 0; j_ < nr; j_++) row[j_] += tr[j_];                                                                 \
      else if (beta == 0.0f)                                                                                           \
        for (j_ = 0; j_ < nr; j_++) row[j_] = tr[j_];                                                                  \
      else                                                                                                             \
        for (j_ = 0; j_ < nr; j_++) row[j_] = beta * row[j_] + tr[j_];                                                 \
    }                                                                                                                  \
  }

/* One row of a full tile straight into C (VU: VT without alignment):
 * mode 0 C = acc, 1 C += acc, 2 C = beta C + acc. */
#define GE__AIC_ROW(VU, i, c0, c1)                                                                                     \
  {                                                                                                                    \
    VU *r_ = (VU *)(cp + (i) * ldc);                                                                                   \
    if (mode == 1) {                                                                                                   \
      r_[0] += c0;                                                                                                     \
      r_[1] += c1;                                                                                                     \
    } else if (mode == 0) {                                                                                            \
      r_[0] = c0;                                                                                                      \
      r_[1] = c1;                                                                                                      \
    } else {                                                                                                           \
      r_[0] = beta * r_[0] + c0;                                                                                       \
      r_[1] = beta * r_[1] + c1;                                                                                       \
    }                                                                                                                  \
  }

/* Micro-kernel (6 x 2 vectors of VT; writes a full tile into C at cp, or
 * into the tile buffer t when cp is NULL) and the loop over the tiles of
 * one packed block, for one vector type and target. */
#define GE__AIC_KERNELS(S, ATTR, VT, VU, VL)                                                                           \
  static ATTR void ge__aic_micro_##S(int64_t kc, const float *a, const float *b, float *t, float *cp, int64_t ldc,     \
                                     int mode, float beta) {                                                           \
    VT c00 = {0}, c01 = {0}, c10 = {0}, c11 = {0}, c20 = {0}, c21 = {0};                                               \
    VT c30 = {0}, c31 = {0}, c40 = {0}, c41 = {0}, c50 = {0}, c51 = {0};                                               \
    int64_t p;                                                                                                         \
    for (p = 0; p < kc; p++, a += GE__AIC_MR, b += 2 * (VL)) {                                                         \
      VT b0 = ((const VT *)b)[0], b1 = ((const VT *)b)[1];                                                             \
      c00 += a[0] * b0;                                                                                                \
      c01 += a[0] * b1;                                                                                                \
      c10 += a[1] * b0;                                                                                                \
      c11 += a[1] * b1;                                                                                                \
      c20 += a[2] * b0;                                                                                                \
      c21 += a[2] * b1;                                                                                                \
      c30 += a[3] * b0;                                                                                                \
      c31 += a[3] * b1;                                                                                                \
      c40 += a[4] * b0;                                                                                                \
      c41 += a[4] * b1;                                                                                                \
      c50 += a[5] * b0;                                                                                                \
      c51 += a[5] * b1;                                                                                                \
    }                                                                                                                  \
    if (cp) {                                                                                                          \
      GE__AIC_ROW(VU, 0, c00, c01)                                                                                     \
      GE__AIC_ROW(VU, 1, c10, c11)                                                                                     \
      GE__AIC_ROW(VU, 2, c20, c21)                                                                                     \
      GE__AIC_ROW(VU, 3, c30, c31)                                                                                     \
      GE__AIC_ROW(VU, 4, c40, c41)                                                                                     \
      GE__AIC_ROW(VU, 5, c50, c51)                                                                                     \
    } else {                                                                                                           \
      VT *tv = (VT *)t;                                                                                                \
      tv[0] = c00;                                                                                                     \
      tv[1] = c01;                                                                                                     \
      tv[2] = c10;                                                                                                     \
      tv[3] = c11;                                                                                                     \
      tv[4] = c20;                                                                                                     \
      tv[5] = c21;                                                                                                     \
      tv[6] = c30;                                                                                                     \
      tv[7] = c31;                                                                                                     \
      tv[8] = c40;                                                                                                     \
      tv[9] = c41;                                                                                                     \
      tv[10] = c50;                                                                                                    \
      tv[11] = c51;                                                                                                    \
    }                                                                                                                  \
  }                                                                                                                    \
  static ATTR void ge__aic_macro_##S(int64_t mc, int64_t ncols, int64_t kc, const float *pa, const float *pb,          \
                                     float *C, int64_t ldc, int first, float beta) {                                   \
    float t[GE__AIC_MR * 2 * (VL)] GE__AIC_ALIGNED(64);                                                                \
    int64_t ir, jr;                                                                                                    \
    int mode = !first ? 1 : beta == 0.0f ? 0 : 2;                                                                      \
    for (jr = 0; jr < ncols; jr += 2 * (VL)) {                                                                         \
      int64_t nr = ge__aic_min(2 * (VL), ncols - jr);                                                                  \
      for (ir = 0; ir < mc; ir += GE__AIC_MR) {                                                                        \
        int64_t mr = ge__aic_min(GE__AIC_MR, mc - ir);                                                                 \
        float *cp = C + ir * ldc + jr;                                                                                 \
        if (mr == GE__AIC_MR && nr == 2 * (VL)) {                                                                      \
          ge__aic_micro_##S(kc, pa + ir * kc, pb + jr * kc, t, cp, ldc, mode, beta);                                   \
          continue;                                                                                                    \
        }                                                                                                              \
        ge__aic_micro_##S(kc, pa + ir * kc, pb + jr * kc, t, NULL, ldc, mode, beta);                                   \
        GE__AIC_UPDATE(2 * (VL))                                                                                       \
      }                                                                                                                \
    }                                                                                                                  \
  }

#ifdef GE__AIC_VEC
GE__AIC_KERNELS(base, , ge__aic_v4, ge__aic_v4u, 4)
#define GE__AIC_BASE_NR 8
#ifdef GE__AIC_X86
GE__AIC_KERNELS(avx2, __attribute__((target("avx2,fma"))) GE__AIC_CONTRACT, ge__aic_v8, ge__aic_v8u, 8)
#endif
#else
/* Portable scalar kernel: 6 x 8 tiles. */
#define GE__AIC_BASE_NR 8
static void ge__aic_macro_base(int64_t mc, int64_t ncols, int64_t kc, const float *pa, const float *pb, float *C,
                               int64_t ldc, int first, float beta) {
  float t[GE__AIC_MR * 8];
  int64_t ir, jr, p, i, j;
  for (jr = 0; jr < ncols; jr += 8) {
    int64_t nr = ge__aic_min(8, ncols - jr);
    for (ir = 0; ir < mc; ir += GE__AIC_MR) {
      int64_t mr = ge__aic_min(GE__AIC_MR, mc - ir);
      float *cp = C + ir * ldc + jr;
      const float *a = pa + ir * kc, *b = pb + jr * kc;
      for (i = 0; i < GE__AIC_MR * 8; i++) t[i] = 0.0f;
      for (p = 0; p < kc; p++, a += GE__AIC_MR, b += 8)
        for (i = 0; i < GE__AIC_MR; i++)
          for (j = 0; j < 8; j++) t[i * 8 + j] += a[i] * b[j];
      GE__AIC_UPDATE(8)
    }
  }
}
#endif

/* Whether the AVX2+FMA kernel runs on this machine. */
static int ge__aic_use_avx2(void) {
#if defined(GE__AIC_X86) && defined(__AVX2__) && defined(__FMA__)
  return 1;
#elif defined(GE__AIC_X86)
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
  return 0;
#endif
}

static size_t ge__aic_gemm_work_floats(int64_t M, int64_t N, int64_t K) {
  int64_t mc = ge__aic_min(GE__AIC_MC, (M + GE__AIC_MR - 1) / GE__AIC_MR * GE__AIC_MR);
  int64_t kc = ge__aic_min(GE__AIC_KC, K), nc = ge__aic_min(GE__AIC_NC, (N + 15) / 16 * 16);
  if (M <= 0 || N <= 0 || K <= 0) return 0;
  return (size_t)(mc * kc + kc * nc) + 16; /* + slack to align to 64 bytes */
}

/* Our SGEMM on strided operands: A(i, k) at A[i*ars + k*acs], B(k, j) at
 * B[k*brs + j*bcs]; work holds ge__aic_gemm_work_floats(M, N, K) floats. */
static void ge__aic_sgemm_own(int64_t M, int64_t N, int64_t K, float alpha, const float *A, int64_t ars, int64_t acs,
                              const float *B, int64_t brs, int64_t bcs, float beta, float *C, int64_t ldc,
                              float *work) {
  int64_t jc, pc, ic, i, j, nr = GE__AIC_BASE_NR, mcap, kcap;
  float *pa, *pb;
  int avx2 = ge__aic_use_avx2();
  if (M <= 0 || N <= 0) return;
  if (K <= 0 || alpha == 0.0f) {
    for (i = 0; i < M; i++)
      for (j = 0; j < N; j++) C[i * ldc + j] = beta == 0.0f ? 0.0f : beta * C[i * ldc + j];
    return;
  }
  if (M == 1 && (bcs == 1 || brs == 1)) { /* a row vector times B: no packing */
    float *c = C;
    if (bcs == 1) { /* axpy over B's rows */
      for (j = 0; j < N; j++) c[j] = beta == 0.0f ? 0.0f : beta * c[j];
      for (i = 0; i < K; i++) {
        float av = alpha * A[i * acs];
        const float *br = B + i * brs;
        for (j = 0; j < N; j++) c[j] += av * br[j];
      }
    } else { /* dot products with B's columns, 8 partial sums */
      for (j = 0; j < N; j++) {
        const float *bc = B + j * bcs;
        float s8[8] = {0, 0, 0, 0, 0, 0, 0, 0}, acc;
        int64_t k = 0;
        int q;
        for (; k + 8 <= K; k += 8)
          for (q = 0; q < 8; q++) s8[q] += A[(k + q) * acs] * bc[k + q];
        acc = ((s8[0] + s8[4]) + (s8[1] + s8[5])) + ((s8[2] + s8[6]) + (s8[3] + s8[7]));
        for (; k < K; k++) acc += A[k * acs] * bc[k];
        c[j] = alpha * acc + (beta == 0.0f ? 0.0f : beta * c[j]);
      }
    }
    return;
  }
#ifdef GE__AIC_X86
  if (avx2) nr = 16;
#else
  (void)avx2;
#endif
  mcap = ge__aic_min(GE__AIC_MC, (M + GE__AIC_MR - 1) / GE__AIC_MR * GE__AIC_MR);
  kcap = ge__aic_min(GE__AIC_KC, K);
  pa = (float *)(((uintptr_t)work + 63) & ~(uintptr_t)63);
  pb = pa + mcap * kcap;
  pb = (float *)(((uintptr_t)pb + 63) & ~(uintptr_t)63);
  for (jc = 0; jc < N; jc += GE__AIC_NC) {
    int64_t nc = ge__aic_min(GE__AIC_NC, N - jc);
    for (pc = 0; pc < K; pc += GE__AIC_KC) {
      int64_t kc = ge__aic_min(GE__AIC_KC, K - pc);
      ge__aic_pack_b(B + pc * brs + jc * bcs, brs, bcs, kc, nc, nr, pb);
      for (ic = 0; ic < M; ic += GE__AIC_MC) {
        int64_t mc = ge__aic_min(GE__AIC_MC, M - ic);
        ge__aic_pack_a(A + ic * ars + pc * acs, ars, acs, mc, kc, alpha, pa);
#ifdef GE__AIC_X86
        if (avx2)
          ge__aic_macro_avx2(mc, nc, kc, pa, pb, C + ic * ldc + jc, ldc, pc == 0, beta);
        else
#endif
          ge__aic_macro_base(mc, nc, kc, pa, pb, C + ic * ldc + jc, ldc, pc == 0, beta);
      }
    }
  }
}

GE_API size_t ge_ai_core_sgemm_work_size(int64_t M, int64_t N, int64_t K) {
  size_t f = ge__aic_gemm_work_floats(M, N, K);
  return f ? (f + 32) * sizeof(float) : 0;
}

GE_API void ge_ai_core_sgemm(int trans_a, int trans_b, int64_t M, int64_t N, int64_t K, float alpha, const float *A,
                             int64_t lda, const float *B, int64_t ldb, float beta, float *C, int64_t ldc, void *work) {
  ge__aic_sgemm_own(M, N, K, alpha, A, trans_a ? 1 : lda, trans_a ? lda : 1, B, trans_b ? 1 : ldb, trans_b ? ldb : 1,
                    beta, C, ldc, (float *)work);
}

/* Scratch floats the kernels' GEMM needs (none with OpenBLAS). */
static size_t ge__aic_gemm_scratch(int64_t M, int64_t N, int64_t K) {
#ifdef GE_USE_OPENBLAS
  (void)M, (void)N, (void)K;
  return 0;
#else
  return ge__aic_gemm_work_floats(M, N, K);
#endif
}

/* The kernels' GEMM: OpenBLAS when GE_USE_OPENBLAS, else ours. */
static void ge__aic_gemm(int64_t M, int64_t N, int64_t K, float alpha, const float *A, int64_t ars, int64_t acs,
                         const float *B, int64_t brs, int64_t bcs, float beta, float *C, int64_t ldc, float *work) {
#ifdef GE_USE_OPENBLAS
  if (M > 0 && N > 0 && K > 0) {
    enum CBLAS_TRANSPOSE ta, tb;
    int64_t lda, ldb;
    if (acs == 1 && ars >= K) ta = CblasNoTrans, lda = ars;
    else if (ars == 1 && acs >= M) ta = CblasTrans, lda = acs;
    else ta = CblasNoTrans, lda = -1;
    if (bcs == 1 && brs >= N) tb = CblasNoTrans, ldb = brs;
    else if (brs == 1 && bcs >= K) tb = CblasTrans, ldb = bcs;
    else tb = CblasNoTrans, ldb = -1;
    if (lda > 0 && ldb > 0) {
      cblas_sgemm(CblasRowMajor, ta, tb, (blasint)M, (blasint)N, (blasint)K, alpha, A, (blasint)lda, B, (blasint)ldb,
                  beta, C, (blasint)ldc);
      return;
    }
    { /* strides BLAS cannot express (never produced by the kernels): plain loops */
      int64_t i, j, k;
      for (i = 0; i < M; i++)
        for (j = 0; j < N; j++) {
          float acc = 0.0f;
          for (k = 0; k < K; k++) acc += A[i * ars + k * acs] * B[k * brs + j * bcs];
          C[i * ldc + j] = alpha * acc + (beta == 0.0f ? 0.0f : beta * C[i * ldc + j]);
        }
      return;
    }
  }
  (void)work;
#endif
  ge__aic_sgemm_own(M, N, K, alpha, A, ars, acs, B, brs, bcs, beta, C, ldc, work);
}

/* ------------------------------------------------ fused activations */

enum { GE__AIC_ACT_NONE, GE__AIC_ACT_RELU, GE__AIC_ACT_LEAKY, GE__AIC_ACT_CLIP, GE__AIC_ACT_SIGMOID,
       GE__AIC_ACT_TANH, GE__AIC_ACT_HARDSIGMOID, GE__AIC_ACT_BAD };

typedef struct ge__aic_act {
  int kind;
  float alpha, beta;
} ge__aic_act;

static void ge__aic_act_parse(const ge_node *n, ge__aic_act *a) {
  const char *s = ge_node_attr_string(n, "_fused_activation", NULL);
  double da = 0, db = 0;
  a->kind = GE__AIC_ACT_NONE;
  a->alpha = a->beta = 0.0f;
  if (!s || !*s) return;
  if (!strcmp(s, "Relu")) a->kind = GE__AIC_ACT_RELU;
  else if (!strcmp(s, "LeakyRelu")) a->kind = GE__AIC_ACT_LEAKY, da = 0.01;
  else if (!strcmp(s, "Clip")) a->kind = GE__AIC_ACT_CLIP, da = -HUGE_VAL, db = HUGE_VAL;
  else if (!strcmp(s, "Sigmoid")) a->kind = GE__AIC_ACT_SIGMOID;
  else if (!strcmp(s, "Tanh")) a->kind = GE__AIC_ACT_TANH;
  else if (!strcmp(s, "HardSigmoid")) a->kind = GE__AIC_ACT_HARDSIGMOID, da = 0.2, db = 0.5;
  else a->kind = GE__AIC_ACT_BAD;
  a->alpha = (float)ge_node_attr_float(n, "_fused_alpha", da);
  a->beta = (float)ge_node_attr_float(n, "_fused_beta", db);
}

static void ge__aic_act_apply(const ge__aic_act *a, float *y, int64_t count) {
  int64_t i;
  float al = a->alpha, be = a->beta;
  switch (a->kind) {
  case GE__AIC_ACT_RELU:
    for (i = 0; i < count; i++) y[i] = y[i] > 0.0f ? y[i] : (y[i] != y[i] ? y[i] : 0.0f);
    break;
  case GE__AIC_ACT_LEAKY:
    for (i = 0; i < count; i++) y[i] = y[i] < 0.0f ? al * y[i] : y[i];
    break;
  case GE__AIC_ACT_CLIP:
    for (i = 0; i < count; i++) y[i] = y[i] < al ? al : y[i] > be ? be : y[i];
    break;
  case GE__AIC_ACT_SIGMOID:
    for (i = 0; i < count; i++) y[i] = (float)(1.0 / (1.0 + exp(-(double)y[i])));
    break;
  case GE__AIC_ACT_TANH:
    for (i = 0; i < count; i++) y[i] = (float)tanh((double)y[i]);
    break;
  case GE__AIC_ACT_HARDSIGMOID:
    for (i = 0; i < count; i++) {
      float v = al * y[i] + be;
      y[i] = v > 1.0f ? 1.0f : v < 0.0f ? 0.0f : v;
    }
    break;
  default: break;
  }
}

GE_API void ge_ai_core_apply_activation(const ge_node *n, float *y, int64_t count) {
  ge__aic_act a;
  ge__aic_act_parse(n, &a);
  ge__aic_act_apply(&a, y, count);
}

/* ------------------------------------------------------ kernel state */

/* c->state: this header, then 64-byte aligned scratch. Attributes are
 * parsed once, on the first run. */
typedef struct ge__aic_state {
  size_t cap; /* scratch bytes */
  ge__aic_act act;
  /* Conv */
  int64_t group, s[2], d[2], pads[4], ks[2];
  int32_t n_s, n_d, n_pads, n_ks;
  int auto_pad; /* 0 NOTSET, 1 SAME_UPPER, 2 SAME_LOWER, 3 VALID, -1 unknown */
  /* Gemm */
  int trans_a, trans_b;
  float alpha, beta;
} ge__aic_state;

static int32_t ge__aic_ints(const ge_node *n, const char *name, int64_t *out, int32_t cap) {
  const int64_t *v = NULL;
  int32_t cnt = ge_node_attr_ints(n, name, &v), i;
  for (i = 0; i < cnt && i < cap; i++) out[i] = v[i];
  return cnt;
}

static ge__aic_state *ge__aic_state_new(ge_kernel_ctx *c) {
  ge__aic_state *s = (ge__aic_state *)malloc(sizeof(ge__aic_state) + 64);
  const ge_node *n = c->node;
  const char *ap;
  if (!s) return NULL;
  memset(s, 0, sizeof *s);
  ge__aic_act_parse(n, &s->act);
  s->group = ge_node_attr_int(n, "group", 1);
  s->n_s = ge__aic_ints(n, "strides", s->s, 2);
  s->n_d = ge__aic_ints(n, "dilations", s->d, 2);
  s->n_pads = ge__aic_ints(n, "pads", s->pads, 4);
  s->n_ks = ge__aic_ints(n, "kernel_shape", s->ks, 2);
  ap = ge_node_attr_string(n, "auto_pad", "NOTSET");
  s->auto_pad = (!*ap || !strcmp(ap, "NOTSET")) ? 0 : !strcmp(ap, "SAME_UPPER") ? 1 : !strcmp(ap, "SAME_LOWER") ? 2
                : !strcmp(ap, "VALID")                                          ? 3
                                                                                : -1;
  s->trans_a = ge_node_attr_int(n, "transA", 0) != 0;
  s->trans_b = ge_node_attr_int(n, "transB", 0) != 0;
  s->alpha = (float)ge_node_attr_float(n, "alpha", 1.0);
  s->beta = (float)ge_node_attr_float(n, "beta", 1.0);
  c->state = s;
  return s;
}

static ge__aic_state *ge__aic_state_get(ge_kernel_ctx *c) {
  return c->state ? (ge__aic_state *)c->state : ge__aic_state_new(c);
}

/* At least `floats` floats of 64-byte aligned scratch (NULL: no memory). */
static float *ge__aic_scratch(ge_kernel_ctx *c, size_t floats) {
  ge__aic_state *s = ge__aic_state_get(c);
  size_t bytes = floats * sizeof(float);
  if (!s) return NULL;
  if (bytes > s->cap) {
    ge__aic_state *t = (ge__aic_state *)realloc(s, sizeof(ge__aic_state) + 64 + bytes);
    if (!t) return NULL;
    c->state = s = t;
    s->cap = bytes;
  }
  return (float *)(((uintptr_t)(s + 1) + 63) & ~(uintptr_t)63);
}

static ge_status ge__aic_nomem(ge_kernel_ctx *c) { return ge_kernel_error(c, GE_ERR_NOMEM, "out of memory"); }

/* The reference kernel, then the fused activation (float32 outputs only). */
static ge_status ge__aic_reference(ge_kernel_ctx *c) {
  ge_kernel_fn fn = ge_host_cpu_kernel(c->node);
  ge__aic_act a;
  ge_status st;
  if (!fn) return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "no reference kernel");
  if ((st = fn(c)) != GE_OK) return st;
  ge__aic_act_parse(c->node, &a);
  if (a.kind == GE__AIC_ACT_NONE) return GE_OK;
  if (a.kind == GE__AIC_ACT_BAD) return ge_kernel_error(c, GE_ERR_INVALID, "unknown _fused_activation");
  if (c->num_outputs < 1 || !c->outputs[0] || c->outputs[0]->dtype != GE_DTYPE_FLOAT32)
    return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "a fused activation needs a float32 output");
  ge__aic_act_apply(&a, (float *)c->outputs[0]->data, c->outputs[0]->numel);
  return GE_OK;
}

static const ge_value *ge__aic_in(const ge_kernel_ctx *c, uint32_t i) { return i < c->num_inputs ? c->inputs[i] : NULL; }

static int ge__aic_f32(const ge_value *v) { return !v || v->dtype == GE_DTYPE_FLOAT32; }

static ge_status ge__aic_finish(ge_kernel_ctx *c, const ge__aic_state *s, ge_value *y) {
  if (s->act.kind == GE__AIC_ACT_BAD) return ge_kernel_error(c, GE_ERR_INVALID, "unknown _fused_activation");
  ge__aic_act_apply(&s->act, (float *)y->data, y->numel);
  return GE_OK;
}

/* ---------------------------------------------------------------- Conv */

/* The j in [0, jn) with 0 <= j*s + off < lim, as [*lo, *hi). */
static void ge__aic_span(int64_t off, int64_t s, int64_t lim, int64_t jn, int64_t *lo, int64_t *hi) {
  int64_t a = off < 0 ? (-off + s - 1) / s : 0, b = lim - 1 - off < 0 ? 0 : (lim - 1 - off) / s + 1;
  if (b > jn) b = jn;
  if (a > b) a = b;
  *lo = a;
  *hi = b;
}

static int64_t ge__aic_floordiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

/* 2-D convolution geometry (1-D: H = kh = 1). */
typedef struct ge__aic_cv {
  int64_t n, c, h, w, m, group, cg, mg, kh, kw, sh, sw, dh, dw, ph, pw, oh, ow;
} ge__aic_cv;

static ge_status ge__aic_conv_setup(ge_kernel_ctx *c, const ge__aic_state *s, const ge_value *x, const ge_value *w,
                                    const ge_value *b, ge__aic_cv *p) {
  int32_t r = x->rank - 2, i;
  int64_t in[2] = {1, 1}, k[2] = {1, 1}, out[2] = {1, 1}, pb[2] = {0, 0}, st[2] = {1, 1}, dl[2] = {1, 1};
  memset(p, 0, sizeof *p);
  if (r < 1 || r > 2) return ge_kernel_error(c, GE_ERR_SHAPE, "spatial rank %d not supported here", (int)r);
  if (w->rank != x->rank)
    return ge_kernel_error(c, GE_ERR_SHAPE, "weight rank %d differs from input rank %d", (int)w->rank, (int)x->rank);
  if (s->auto_pad < 0) return ge_kernel_error(c, GE_ERR_INVALID, "unknown auto_pad");
  if ((s->n_s >= 0 && s->n_s != r) || (s->n_d >= 0 && s->n_d != r) || (s->n_pads >= 0 && s->n_pads != 2 * r) ||
      (s->n_ks >= 0 && s->n_ks != r))
    return ge_kernel_error(c, GE_ERR_INVALID, "strides, dilations, pads or kernel_shape has the wrong length");
  p->n = x->dims[0];
  p->c = x->dims[1];
  p->m = w->dims[0];
  p->group = s->group;
  if (p->group < 1) return ge_kernel_error(c, GE_ERR_INVALID, "group must be >= 1");
  if (p->c % p->group || w->dims[1] * p->group != p->c || p->m % p->group)
    return ge_kernel_error(c, GE_ERR_SHAPE, "weight [%lld, %lld, ...] does not fit %lld channels in %lld groups",
                           (long long)w->dims[0], (long long)w->dims[1], (long long)p->c, (long long)p->group);
  if (b && b->numel != p->m)
    return ge_kernel_error(c, GE_ERR_SHAPE, "bias has %lld elements for %lld output channels", (long long)b->numel,
                           (long long)p->m);
  p->cg = p->c / p->group;
  p->mg = p->m / p->group;
  for (i = 0; i < r; i++) {
    int64_t pa = s->n_pads >= 0 ? s->pads[i] : 0, pe = s->n_pads >= 0 ? s->pads[r + i] : 0, eff, total;
    in[i] = x->dims[2 + i];
    k[i] = w->dims[2 + i];
    st[i] = s->n_s >= 0 ? s->s[i] : 1;
    dl[i] = s->n_d >= 0 ? s->d[i] : 1;
    if (s->n_ks >= 0 && s->ks[i] != k[i])
      return ge_kernel_error(c, GE_ERR_SHAPE, "kernel_shape %lld differs from the weight's %lld", (long long)s->ks[i],
                             (long long)k[i]);
    if (st[i] < 1 || dl[i] < 1 || st[i] > ((int64_t)1 << 31) || dl[i] > ((int64_t)1 << 31))
      return ge_kernel_error(c, GE_ERR_INVALID, "strides and dilations must be in [1, 2^31]");
    if (pa < 0 || pe < 0 || pa > ((int64_t)1 << 31) || pe > ((int64_t)1 << 31))
      return ge_kernel_error(c, GE_ERR_INVALID, "pads must be in [0, 2^31]");
    if (k[i] < 1 || k[i] > ((int64_t)1 << 31) || in[i] > ((int64_t)1 << 31))
      return ge_kernel_error(c, GE_ERR_SHAPE, "spatial dims out of range");
    eff = (k[i] - 1) * dl[i] + 1;
    if (s->auto_pad == 0) {
      pb[i] = pa;
      out[i] = ge__aic_floordiv(in[i] + pa + pe - eff, st[i]) + 1;
    } else if (s->auto_pad == 3) {
      pb[i] = 0;
      out[i] = ge__aic_floordiv(in[i] - eff, st[i]) + 1;
    } else {
      out[i] = (in[i] + st[i] - 1) / st[i];
      total = (out[i] - 1) * st[i] + eff - in[i];
      if (total < 0) total = 0;
      pb[i] = s->auto_pad == 1 ? total / 2 : total - total / 2;
    }
    if (out[i] < 1)
      return ge_kernel_error(c, GE_ERR_SHAPE, "spatial dim %d: output size %lld for input %lld, kernel %lld", (int)i,
                             (long long)out[i], (long long)in[i], (long long)k[i]);
  }
  if (r == 1) {
    p->h = p->kh = p->sh = p->dh = p->oh = 1;
    p->ph = 0;
    p->w = in[0], p->kw = k[0], p->sw = st[0], p->dw = dl[0], p->pw = pb[0], p->ow = out[0];
  } else {
    p->h = in[0], p->kh = k[0], p->sh = st[0], p->dh = dl[0], p->ph = pb[0], p->oh = out[0];
    p->w = in[1], p->kw = k[1], p->sw = st[1], p->dw = dl[1], p->pw = pb[1], p->ow = out[1];
  }
  return GE_OK;
}

/* col[(c*kh + i)*kw + j][oh*OW + ow] = x[c][oh*sh - ph + i*dh][ow*sw - pw + j*dw]
 * (zero outside), for the cg channels at x. */
static void ge__aic_im2col(const ge__aic_cv *p, const float *x, float *col) {
  int64_t P = p->oh * p->ow, ch, i, j, oh, ow;
  for (ch = 0; ch < p->cg; ch++) {
    const float *xc = x + ch * p->h * p->w;
    for (i = 0; i < p->kh; i++)
      for (j = 0; j < p->kw; j++) {
        float *dst = col + ((ch * p->kh + i) * p->kw + j) * P;
        int64_t off = j * p->dw - p->pw, lo, hi;
        ge__aic_span(off, p->sw, p->w, p->ow, &lo, &hi);
        for (oh = 0; oh < p->oh; oh++, dst += p->ow) {
          int64_t ih = oh * p->sh - p->ph + i * p->dh;
          const float *src;
          if (ih < 0 || ih >= p->h || lo >= hi) {
            memset(dst, 0, (size_t)p->ow * sizeof(float));
            continue;
          }
          src = xc + ih * p->w + off;
          for (ow = 0; ow < lo; ow++) dst[ow] = 0.0f;
          if (p->sw == 1)
            memcpy(dst + lo, src + lo, (size_t)(hi - lo) * sizeof(float));
          else
            for (ow = lo; ow < hi; ow++) dst[ow] = src[ow * p->sw];
          for (ow = hi; ow < p->ow; ow++) dst[ow] = 0.0f;
        }
      }
  }
}

/* Depthwise (one input channel per group): a direct loop per channel. */
static void ge__aic_conv_depthwise(const ge__aic_cv *p, const float *x, const float *w, const float *b, float *y) {
  int64_t P = p->oh * p->ow, n, m, i, j, oh, o;
  for (n = 0; n < p->n; n++)
    for (m = 0; m < p->m; m++) {
      const float *xc = x + (n * p->c + m / p->mg) * p->h * p->w, *wk = w + m * p->kh * p->kw;
      float *yp = y + (n * p->m + m) * P, bv = b ? b[m] : 0.0f;
      for (o = 0; o < P; o++) yp[o] = bv;
      for (i = 0; i < p->kh; i++)
        for (j = 0; j < p->kw; j++) {
          float wv = wk[i * p->kw + j];
          int64_t off = j * p->dw - p->pw, lo, hi;
          ge__aic_span(off, p->sw, p->w, p->ow, &lo, &hi);
          if (lo >= hi) continue;
          for (oh = 0; oh < p->oh; oh++) {
            int64_t ih = oh * p->sh - p->ph + i * p->dh;
            const float *src;
            float *dst = yp + oh * p->ow;
            if (ih < 0 || ih >= p->h) continue;
            src = xc + ih * p->w + off;
            if (p->sw == 1)
              for (o = lo; o < hi; o++) dst[o] += wv * src[o];
            else
              for (o = lo; o < hi; o++) dst[o] += wv * src[o * p->sw];
          }
        }
    }
}

/* im2col scratch floats of a conv (0 when the input is used as it is). */
static int64_t ge__aic_conv_cols(const ge__aic_cv *p) {
  int direct = p->kh == 1 && p->kw == 1 && p->sh == 1 && p->sw == 1 && p->ph == 0 && p->pw == 0 && p->oh == p->h &&
               p->ow == p->w;
  if (p->cg == 1 || direct) return 0;
  return p->cg * p->kh * p->kw * p->oh * p->ow;
}

static ge_status ge__aic_conv(ge_kernel_ctx *c) {
  const ge_value *x = ge__aic_in(c, 0), *w = ge__aic_in(c, 1), *b = ge__aic_in(c, 2);
  ge__aic_state *s;
  ge__aic_cv p;
  ge_value *y;
  int64_t ydims[4], P, K, cols, n, g;
  float *scratch, *col, *work;
  ge_status st;
  if (!x || !w) return ge_kernel_error(c, GE_ERR_INVALID, "required input %d is missing", x ? 1 : 0);
  if (!ge__aic_f32(x) || !ge__aic_f32(w) || !ge__aic_f32(b) || (x->rank != 3 && x->rank != 4))
    return ge__aic_reference(c);
  if (!(s = ge__aic_state_get(c))) return ge__aic_nomem(c);
  if ((st = ge__aic_conv_setup(c, s, x, w, b, &p)) != GE_OK) return st;
  ydims[0] = p.n;
  ydims[1] = p.m;
  if (x->rank == 3) {
    ydims[2] = p.ow;
  } else {
    ydims[2] = p.oh;
    ydims[3] = p.ow;
  }
  if (!(y = ge_kernel_output(c, 0, GE_DTYPE_FLOAT32, x->rank, ydims))) return GE_ERR_NOMEM;
  if (y->numel == 0) return GE_OK;
  P = p.oh * p.ow;
  K = p.cg * p.kh * p.kw;
  if (p.cg == 1) {
    ge__aic_conv_depthwise(&p, (const float *)x->data, (const float *)w->data, b ? (const float *)b->data : NULL,
                           (float *)y->data);
    return ge__aic_finish(c, s, y);
  }
  cols = ge__aic_conv_cols(&p);
  if (!(scratch = ge__aic_scratch(c, (size_t)cols + 16 + ge__aic_gemm_scratch(p.mg, P, K)))) return ge__aic_nomem(c);
  s = (ge__aic_state *)c->state;
  col = scratch;
  work = scratch + (cols + 15) / 16 * 16;
  for (n = 0; n < p.n; n++)
    for (g = 0; g < p.group; g++) {
      const float *xg = (const float *)x->data + (n * p.c + g * p.cg) * p.h * p.w;
      const float *wg = (const float *)w->data + g * p.mg * K;
      float *yg = (float *)y->data + (n * p.m + g * p.mg) * P;
      const float *bmat = xg;
      float beta = 0.0f;
      if (cols) {
        ge__aic_im2col(&p, xg, col);
        bmat = col;
      }
      if (b) {
        int64_t m, o;
        for (m = 0; m < p.mg; m++) {
          float bv = ((const float *)b->data)[g * p.mg + m];
          for (o = 0; o < P; o++) yg[m * P + o] = bv;
        }
        beta = 1.0f;
      }
      ge__aic_gemm(p.mg, P, K, 1.0f, wg, K, 1, bmat, P, 1, beta, yg, P, work);
    }
  return ge__aic_finish(c, s, y);
}

/* -------------------------------------------------------------- MatMul */

static ge_status ge__aic_matmul(ge_kernel_ctx *c) {
  const ge_value *A = ge__aic_in(c, 0), *B = ge__aic_in(c, 1);
  ge__aic_state *s;
  ge_value *y;
  int64_t M, K, K2, N, dims[GE_MAX_RANK], bd[GE_MAX_RANK], ast[GE_MAX_RANK], bst[GE_MAX_RANK], idx[GE_MAX_RANK];
  int64_t nb = 1, as = 1, bs = 1, q, aoff, boff;
  int32_t abr, bbr, br, rank = 0, i;
  float *work;
  if (!A || !B) return ge_kernel_error(c, GE_ERR_INVALID, "required input %d is missing", A ? 1 : 0);
  if (!ge__aic_f32(A) || !ge__aic_f32(B)) return ge__aic_reference(c);
  if (A->rank < 1 || B->rank < 1) return ge_kernel_error(c, GE_ERR_SHAPE, "MatMul operands must have rank >= 1");
  if (!(s = ge__aic_state_get(c))) return ge__aic_nomem(c);
  M = A->rank == 1 ? 1 : A->dims[A->rank - 2];
  K = A->dims[A->rank - 1];
  K2 = B->rank == 1 ? B->dims[0] : B->dims[B->rank - 2];
  N = B->rank == 1 ? 1 : B->dims[B->rank - 1];
  if (K != K2)
    return ge_kernel_error(c, GE_ERR_SHAPE, "inner dimensions differ: %lld vs %lld", (long long)K, (long long)K2);
  abr = A->rank > 2 ? A->rank - 2 : 0;
  bbr = B->rank > 2 ? B->rank - 2 : 0;
  br = abr > bbr ? abr : bbr;
  for (i = br - 1; i >= 0; i--) { /* broadcast batch dims, strides in whole matrices */
    int32_t ia = i - (br - abr), ib = i - (br - bbr);
    int64_t da = ia >= 0 ? A->dims[ia] : 1, db = ib >= 0 ? B->dims[ib] : 1;
    if (da != db && da != 1 && db != 1)
      return ge_kernel_error(c, GE_ERR_SHAPE, "batch dimensions %lld and %lld do not broadcast", (long long)da,
                             (long long)db);
    bd[i] = da == 1 ? db : da;
    ast[i] = da == 1 ? 0 : as * M * K;
    bst[i] = db == 1 ? 0 : bs * K * N;
    as *= da;
    bs *= db;
  }
  for (i = 0; i < br; i++) {
    dims[rank++] = bd[i];
    nb *= bd[i];
  }
  if (A->rank > 1) dims[rank++] = M;
  if (B->rank > 1) dims[rank++] = N;
  if (!(y = ge_kernel_output(c, 0, GE_DTYPE_FLOAT32, rank, dims))) return GE_ERR_NOMEM;
  if (y->numel == 0) return GE_OK;
  if (bbr == 0 && A->rank >= 2) { /* B shared by every batch: one GEMM over all rows of A */
    int64_t rows = A->numel / (K ? K : 1);
    if (K == 0) rows = nb * M;
    if (!(work = ge__aic_scratch(c, ge__aic_gemm_scratch(rows, N, K) + 1))) return ge__aic_nomem(c);
    s = (ge__aic_state *)c->state;
    ge__aic_gemm(rows, N, K, 1.0f, (const float *)A->data, K, 1, (const float *)B->data, B->rank == 1 ? 1 : N, 1, 0.0f,
                 (float *)y->data, N, work);
    return ge__aic_finish(c, s, y);
  }
  if (!(work = ge__aic_scratch(c, ge__aic_gemm_scratch(M, N, K) + 1))) return ge__aic_nomem(c);
  s = (ge__aic_state *)c->state;
  for (i = 0; i < br; i++) idx[i] = 0;
  aoff = boff = 0;
  for (q = 0; q < nb; q++) {
    ge__aic_gemm(M, N, K, 1.0f, (const float *)A->data + aoff, K, 1, (const float *)B->data + boff,
                 B->rank == 1 ? 1 : N, 1, 0.0f, (float *)y->data + q * M * N, N, work);
    for (i = br - 1; i >= 0; i--) { /* next batch index */
      aoff += ast[i];
      boff += bst[i];
      if (++idx[i] < bd[i]) break;
      aoff -= ast[i] * bd[i];
      boff -= bst[i] * bd[i];
      idx[i] = 0;
    }
  }
  return ge__aic_finish(c, s, y);
}

/* ---------------------------------------------------------------- Gemm */

static ge_status ge__aic_gemm_kernel(ge_kernel_ctx *c) {
  const ge_value *A = ge__aic_in(c, 0), *B = ge__aic_in(c, 1), *C = ge__aic_in(c, 2);
  ge__aic_state *s;
  ge_value *y;
  int64_t M, N, K, K2, dims[2], cs0 = 0, cs1 = 0, i, j;
  float *work, *yd, beta = 0.0f;
  if (!A || !B) return ge_kernel_error(c, GE_ERR_INVALID, "required input %d is missing", A ? 1 : 0);
  if (!ge__aic_f32(A) || !ge__aic_f32(B) || !ge__aic_f32(C)) return ge__aic_reference(c);
  if (A->rank != 2 || B->rank != 2) return ge_kernel_error(c, GE_ERR_SHAPE, "A and B must be 2-D");
  if (!(s = ge__aic_state_get(c))) return ge__aic_nomem(c);
  M = A->dims[s->trans_a ? 1 : 0];
  K = A->dims[s->trans_a ? 0 : 1];
  K2 = B->dims[s->trans_b ? 1 : 0];
  N = B->dims[s->trans_b ? 0 : 1];
  if (K != K2)
    return ge_kernel_error(c, GE_ERR_SHAPE, "inner dimensions differ: %lld vs %lld", (long long)K, (long long)K2);
  if (C) {
    int64_t cm = C->rank == 2 ? C->dims[0] : 1, cn = C->rank >= 1 ? C->dims[C->rank - 1] : 1;
    if (C->rank > 2 || (cm != M && cm != 1) || (cn != N && cn != 1))
      return ge_kernel_error(c, GE_ERR_SHAPE, "C does not broadcast to [%lld, %lld]", (long long)M, (long long)N);
    cs0 = cm == 1 ? 0 : cn;
    cs1 = cn == 1 ? 0 : 1;
  }
  dims[0] = M;
  dims[1] = N;
  if (!(y = ge_kernel_output(c, 0, GE_DTYPE_FLOAT32, 2, dims))) return GE_ERR_NOMEM;
  if (y->numel == 0) return GE_OK;
  if (!(work = ge__aic_scratch(c, ge__aic_gemm_scratch(M, N, K) + 1))) return ge__aic_nomem(c);
  s = (ge__aic_state *)c->state;
  yd = (float *)y->data;
  if (C && s->beta != 0.0f) {
    const float *cd = (const float *)C->data;
    for (i = 0; i < M; i++)
      for (j = 0; j < N; j++) yd[i * N + j] = s->beta * cd[i * cs0 + j * cs1];
    beta = 1.0f;
  }
  ge__aic_gemm(M, N, K, s->alpha, (const float *)A->data, s->trans_a ? 1 : K, s->trans_a ? M : 1,
               (const float *)B->data, s->trans_b ? 1 : N, s->trans_b ? K : 1, beta, yd, N, work);
  return ge__aic_finish(c, s, y);
}

/* -------------------------------------------------------------- engine */

static int ge__aic_check(const ge_engine *e, const ge_graph *g, const ge_node *n, char *why, size_t cap) {
  (void)e;
  return ge_ai_core_supports(g, n, why, cap);
}

static ge_kernel_fn ge__aic_kernel(const ge_engine *e, const ge_node *n) {
  (void)e;
  if (!ge_node_in_onnx_domain(n)) return NULL;
  if (!strcmp(n->op, "Conv")) return ge__aic_conv;
  if (!strcmp(n->op, "MatMul")) return ge__aic_matmul;
  if (!strcmp(n->op, "Gemm")) return ge__aic_gemm_kernel;
  if (ge_op_in_sorted(n->op, ge__aic_ops, GE__AIC_NUM_OPS) && ge_vector_fast_kernel(n)) return ge_vector_fast_kernel(n);
  if (ge_op_in_sorted(n->op, ge__aic_ops, GE__AIC_NUM_OPS)) return ge_host_cpu_kernel(n);
  return ge_vector_engine()->kernel(ge_vector_engine(), n);
}

/* im2col bytes of a Conv with static shapes (0 otherwise). */
static size_t ge__aic_workspace(const ge_engine *e, const ge_graph *g, const ge_node *n) {
  const ge_tensor_desc *x, *w;
  const ge_tensor_desc *y = n->num_outputs ? &n->outputs[0] : NULL;
  int64_t group, cg, k = 1, P = 1, i;
  int direct = 1;
  (void)e;
  if (strcmp(n->op, "Conv") != 0 || !y) return 0;
  x = ge_node_input_desc(g, n, 0);
  w = ge_node_input_desc(g, n, 1);
  if (!x || !w || x->dtype != GE_DTYPE_FLOAT32 || (x->shape.rank != 3 && x->shape.rank != 4) ||
      w->shape.rank != x->shape.rank || y->shape.rank != x->shape.rank || !ge_shape_is_static(&x->shape) ||
      !ge_shape_is_static(&w->shape) || !ge_shape_is_static(&y->shape))
    return 0;
  group = ge_node_attr_int(n, "group", 1);
  cg = w->shape.dims[1];
  if (group < 1 || cg == 1) return 0;
  for (i = 2; i < x->shape.rank; i++) {
    k *= w->shape.dims[i];
    P *= y->shape.dims[i];
    if (w->shape.dims[i] != 1 || y->shape.dims[i] != x->shape.dims[i]) direct = 0;
  }
  {
    const int64_t *v = NULL;
    int32_t cnt = ge_node_attr_ints(n, "strides", &v);
    for (i = 0; i < cnt; i++)
      if (v[i] != 1) direct = 0;
    cnt = ge_node_attr_ints(n, "pads", &v);
    for (i = 0; i < cnt; i++)
      if (v[i] != 0) direct = 0;
  }
  return direct ? 0 : (size_t)(cg * k * P) * sizeof(float);
}

/* ------------------------------------------------------------ fusion */

static int ge__aic_is(const ge_node *n, const char *op) { return ge_node_in_onnx_domain(n) && !strcmp(n->op, op); }

/* The float32 tensor of the Const feeding input i of n (NULL otherwise). */
static const ge_tensor *ge__aic_const_in(const ge_graph *g, const ge_node *n, uint32_t i) {
  const ge_node *p;
  const ge_attr *a;
  if (i >= n->num_inputs || n->inputs[i].node == GE_NONE) return NULL;
  p = ge_graph_node(g, n->inputs[i].node);
  if (!p || strcmp(p->op, "Const") != 0 || p->num_control_inputs) return NULL;
  a = ge_node_attr(p, "value");
  if (!a || a->type != GE_ATTR_TENSOR || !a->v.t || a->v.t->dtype != GE_DTYPE_FLOAT32 || !a->v.t->data) return NULL;
  return a->v.t;
}

static int ge__aic_desc_f32(const ge_tensor_desc *d) { return d && d->dtype == GE_DTYPE_FLOAT32; }

static int ge__aic_same_desc(const ge_tensor_desc *a, const ge_tensor_desc *b) {
  int32_t i;
  if (a->dtype != b->dtype || a->shape.rank != b->shape.rank) return 0;
  for (i = 0; i < a->shape.rank; i++)
    if (a->shape.dims[i] != b->shape.dims[i]) return 0;
  return 1;
}

/* Every present input and every output of n is float32. */
static int ge__aic_all_f32(const ge_graph *g, const ge_node *n) {
  uint32_t i;
  for (i = 0; i < n->num_inputs; i++) {
    const ge_tensor_desc *d = ge_node_input_desc(g, n, i);
    if (n->inputs[i].node != GE_NONE && !ge__aic_desc_f32(d)) return 0;
  }
  for (i = 0; i < n->num_outputs; i++)
    if (!ge__aic_desc_f32(&n->outputs[i])) return 0;
  return 1;
}

/* The single consumer of n's output 0 (GE_NONE unless exactly one use). */
static ge_node_id ge__aic_only_use(const ge_node *n) {
  if (n->num_outputs != 1 || n->num_uses != 1 || n->uses[0].input != 0) return GE_NONE;
  return n->uses[0].node;
}

/* A fresh node name: base + suffix, then base + suffix + "_<k>". */
static void ge__aic_name(ge_graph *g, const char *base, const char *suffix, char *buf, size_t cap) {
  unsigned k;
  snprintf(buf, cap, "%s%s", base, suffix);
  for (k = 1; ge_graph_find(g, buf) != GE_NONE; k++) snprintf(buf, cap, "%s%s_%u", base, suffix, k);
}

/* Adds a Const of dtype float32 and shape dims[0..rank) holding data. */
static ge_status ge__aic_add_const(ge_graph *g, const char *base, const char *suffix, int32_t rank,
                                   const int64_t *dims, float *data, int64_t numel, ge_node_id *out, ge_error *err) {
  ge_tensor t;
  char name[256];
  ge_status st;
  memset(&t, 0, sizeof t);
  t.dtype = GE_DTYPE_FLOAT32;
  t.rank = rank;
  t.dims = (int64_t *)dims;
  t.data = data;
  t.nbytes = (size_t)numel * sizeof(float);
  ge__aic_name(g, base, suffix, name, sizeof name);
  if ((st = ge_graph_add_const(g, name, &t, out, err)) != GE_OK) return st;
  ge_graph_node(g, *out)->engine = -1;
  return GE_OK;
}

/* Removes node id if it is a Const nobody reads any more. */
static void ge__aic_drop_orphan(ge_graph *g, ge_node_id id) {
  ge_node *n = id == GE_NONE ? NULL : ge_graph_node(g, id);
  if (n && !strcmp(n->op, "Const") && n->num_uses == 0 && !n->num_control_inputs && !n->num_control_outputs)
    ge_graph_remove_node(g, id, NULL);
}

/* Points every reader of `gone`'s output 0 at `keep`'s output 0, removes
 * `gone` and the Consts only it read. */
static ge_status ge__aic_bypass(ge_graph *g, ge_node_id gone, ge_node_id keep, ge_error *err) {
  ge_node *n = ge_graph_node(g, gone);
  ge_node_id ins[8];
  uint32_t i, k = 0;
  ge_edge from, to;
  ge_status st;
  for (i = 0; i < n->num_inputs && k < 8; i++)
    if (n->inputs[i].node != GE_NONE && n->inputs[i].node != keep) ins[k++] = n->inputs[i].node;
  from.node = gone;
  from.index = 0;
  to.node = keep;
  to.index = 0;
  if ((st = ge_graph_replace_uses(g, from, to, err)) != GE_OK) return st;
  if ((st = ge_graph_remove_node(g, gone, err)) != GE_OK) return st;
  for (i = 0; i < k; i++) ge__aic_drop_orphan(g, ins[i]);
  return GE_OK;
}

/* BN scale s and shift t per channel (length ch), from its Const inputs. */
static int ge__aic_bn_params(const ge_graph *g, const ge_node *bn, int64_t ch, double *s, double *t) {
  const ge_tensor *sc = ge__aic_const_in(g, bn, 1), *bi = ge__aic_const_in(g, bn, 2);
  const ge_tensor *mean = ge__aic_const_in(g, bn, 3), *var = ge__aic_const_in(g, bn, 4);
  double eps = ge_node_attr_float(bn, "epsilon", 1e-5);
  int64_t i;
  if (!sc || !bi || !mean || !var) return 0;
  if (ge_tensor_numel(sc) != ch || ge_tensor_numel(bi) != ch || ge_tensor_numel(mean) != ch ||
      ge_tensor_numel(var) != ch)
    return 0;
  for (i = 0; i < ch; i++) {
    double v = (double)((const float *)var->data)[i] + eps;
    if (!(v > 0)) return 0;
    s[i] = (double)((const float *)sc->data)[i] / sqrt(v);
    t[i] = (double)((const float *)bi->data)[i] - (double)((const float *)mean->data)[i] * s[i];
  }
  return 1;
}

/* The inference BatchNormalization n's output flows into alone, when it
 * can fold (GE_NONE otherwise). */
static ge_node_id ge__aic_bn_after(const ge_graph *g, const ge_node *n, int32_t self) {
  ge_node_id id = ge__aic_only_use(n);
  const ge_node *bn = id == GE_NONE ? NULL : ge_graph_node(g, id);
  if (!bn || !ge__aic_is(bn, "BatchNormalization") || bn->engine != self || bn->num_outputs != 1 ||
      bn->num_inputs != 5 || ge_node_attr_int(bn, "training_mode", 0) != 0 || bn->num_control_inputs ||
      bn->num_control_outputs || !ge__aic_all_f32(g, bn) || !ge__aic_same_desc(&n->outputs[0], &bn->outputs[0]))
    return GE_NONE;
  return id;
}

/* Conv -> BN: W'[m] = W[m] s[m], b'[m] = b[m] s[m] + t[m]. */
static ge_status ge__aic_fold_conv(ge_graph *g, ge_node_id id, int32_t self, int *done, ge_error *err) {
  ge_node *n = ge_graph_node(g, id);
  const ge_tensor *w = ge__aic_const_in(g, n, 1), *b = n->num_inputs > 2 ? ge__aic_const_in(g, n, 2) : NULL;
  ge_node_id bn_id = ge__aic_bn_after(g, n, self), wid, bid, old_w, old_b;
  int64_t m, per, i, numel;
  double *s = NULL, *t = NULL;
  float *nw = NULL, *nbias = NULL;
  ge_status st = GE_OK;
  ge_edge e;
  *done = 0;
  if (bn_id == GE_NONE || !w || w->rank < 3 || (n->num_inputs > 2 && n->inputs[2].node != GE_NONE && !b) ||
      !ge__aic_all_f32(g, n))
    return GE_OK;
  m = w->dims[0];
  numel = ge_tensor_numel(w);
  if (m <= 0 || numel <= 0 || (b && ge_tensor_numel(b) != m) ||
      (n->outputs[0].shape.rank >= 2 && n->outputs[0].shape.dims[1] >= 0 && n->outputs[0].shape.dims[1] != m))
    return GE_OK;
  per = numel / m;
  s = (double *)malloc((size_t)m * 2 * sizeof(double));
  nw = (float *)malloc((size_t)numel * sizeof(float));
  nbias = (float *)malloc((size_t)m * sizeof(float));
  if (!s || !nw || !nbias) {
    st = GE_ERR_NOMEM;
    if (err) {
      err->code = st;
      snprintf(err->message, sizeof err->message, "out of memory folding BatchNormalization into '%s'", n->name);
    }
    goto done;
  }
  t = s + m;
  if (!ge__aic_bn_params(g, ge_graph_node(g, bn_id), m, s, t)) goto done;
  for (i = 0; i < numel; i++) nw[i] = (float)((double)((const float *)w->data)[i] * s[i / per]);
  for (i = 0; i < m; i++) nbias[i] = (float)((b ? (double)((const float *)b->data)[i] : 0.0) * s[i] + t[i]);
  if ((st = ge__aic_add_const(g, n->name, "_bn_weight", w->rank, w->dims, nw, numel, &wid, err)) != GE_OK) goto done;
  if ((st = ge__aic_add_const(g, n->name, "_bn_bias", 1, &m, nbias, m, &bid, err)) != GE_OK) goto done;
  n = ge_graph_node(g, id);
  old_w = n->inputs[1].node;
  old_b = n->num_inputs > 2 ? n->inputs[2].node : GE_NONE;
  e.node = wid;
  e.index = 0;
  if ((st = ge_graph_set_input(g, id, 1, e, err)) != GE_OK) goto done;
  e.node = bid;
  st = n->num_inputs > 2 ? ge_graph_set_input(g, id, 2, e, err) : ge_graph_add_input(g, id, e, err);
  if (st != GE_OK) goto done;
  if ((st = ge__aic_bypass(g, bn_id, id, err)) != GE_OK) goto done;
  ge__aic_drop_orphan(g, old_w);
  ge__aic_drop_orphan(g, old_b);
  *done = 1;
done:
  free(s);
  free(nw);
  free(nbias);
  return st;
}

/* Gemm -> BN over its columns: Y = alpha op(A) op(B) + beta C; folded,
 * op(B)'s column j scales by s[j] and C' = beta C s + t (beta becomes 1). */
static ge_status ge__aic_fold_gemm(ge_graph *g, ge_node_id id, int32_t self, int *done, ge_error *err) {
  ge_node *n = ge_graph_node(g, id);
  const ge_tensor *B = ge__aic_const_in(g, n, 1), *C = n->num_inputs > 2 ? ge__aic_const_in(g, n, 2) : NULL;
  ge_node_id bn_id = ge__aic_bn_after(g, n, self), bid, cid, old_b, old_c;
  int tb = ge_node_attr_int(n, "transB", 0) != 0;
  double beta = ge_node_attr_float(n, "beta", 1.0);
  const ge_tensor_desc *y = &n->outputs[0];
  int64_t N, K, cm = 1, cn = 1, rows, i, j, cdims[2];
  double *s = NULL, *t = NULL;
  float *nbm = NULL, *nc = NULL;
  ge_status st = GE_OK;
  ge_edge e;
  *done = 0;
  if (bn_id == GE_NONE || !B || B->rank != 2 || (n->num_inputs > 2 && n->inputs[2].node != GE_NONE && !C) ||
      !ge__aic_all_f32(g, n) || y->shape.rank != 2)
    return GE_OK;
  N = B->dims[tb ? 0 : 1];
  K = B->dims[tb ? 1 : 0];
  if (N <= 0 || y->shape.dims[1] != N) return GE_OK;
  if (C) {
    if (C->rank > 2) return GE_OK;
    cm = C->rank == 2 ? C->dims[0] : 1;
    cn = C->rank >= 1 ? C->dims[C->rank - 1] : 1;
    if ((cn != 1 && cn != N) || (cm != 1 && cm != y->shape.dims[0])) return GE_OK;
  }
  rows = cm;
  s = (double *)malloc((size_t)N * 2 * sizeof(double));
  nbm = (float *)malloc((size_t)(N * K > 0 ? N * K : 1) * sizeof(float));
  nc = (float *)malloc((size_t)(rows * N) * sizeof(float));
  if (!s || !nbm || !nc) {
    st = GE_ERR_NOMEM;
    if (err) {
      err->code = st;
      snprintf(err->message, sizeof err->message, "out of memory folding BatchNormalization into '%s'", n->name);
    }
    goto done;
  }
  t = s + N;
  if (!ge__aic_bn_params(g, ge_graph_node(g, bn_id), N, s, t)) goto done;
  for (i = 0; i < N * K; i++) { /* element i of B is column j of op(B) */
    j = tb ? i / K : i % N;
    nbm[i] = (float)((double)((const float *)B->data)[i] * s[j]);
  }
  for (i = 0; i < rows; i++)
    for (j = 0; j < N; j++) {
      double cv = C ? beta * (double)((const float *)C->data)[(cm == 1 ? 0 : i * cn) + (cn == 1 ? 0 : j)] : 0.0;
      nc[i * N + j] = (float)(cv * s[j] + t[j]);
    }
  if ((st = ge__aic_add_const(g, n->name, "_bn_weight", 2, B->dims, nbm, N * K, &bid, err)) != GE_OK) goto done;
  cdims[0] = rows;
  cdims[1] = N;
  if ((st = ge__aic_add_const(g, n->name, "_bn_bias", rows == 1 ? 1 : 2, rows == 1 ? cdims + 1 : cdims, nc,
                              rows * N, &cid, err)) != GE_OK)
    goto done;
  n = ge_graph_node(g, id);
  old_b = n->inputs[1].node;
  old_c = n->num_inputs > 2 ? n->inputs[2].node : GE_NONE;
  e.node = bid;
  e.index = 0;
  if ((st = ge_graph_set_input(g, id, 1, e, err)) != GE_OK) goto done;
  e.node = cid;
  st = n->num_inputs > 2 ? ge_graph_set_input(g, id, 2, e, err) : ge_graph_add_input(g, id, e, err);
  if (st != GE_OK) goto done;
  if ((st = ge_node_set_attr_float(g, id, "beta", 1.0, err)) != GE_OK) goto done;
  if ((st = ge__aic_bypass(g, bn_id, id, err)) != GE_OK) goto done;
  ge__aic_drop_orphan(g, old_b);
  ge__aic_drop_orphan(g, old_c);
  *done = 1;
done:
  free(s);
  free(nbm);
  free(nc);
  return st;
}

/* The activation kinds that fuse, with their alpha/beta (0 if n is none,
 * or a Clip whose bounds are not Const scalars). */
static int ge__aic_fusable_act(const ge_graph *g, const ge_node *n, double *alpha, double *beta) {
  const char *op = n->op;
  *alpha = *beta = 0.0;
  if (!ge_node_in_onnx_domain(n)) return 0;
  if (!strcmp(op, "Relu") || !strcmp(op, "Sigmoid") || !strcmp(op, "Tanh")) return 1;
  if (!strcmp(op, "LeakyRelu")) {
    *alpha = ge_node_attr_float(n, "alpha", 0.01);
    return 1;
  }
  if (!strcmp(op, "HardSigmoid")) {
    *alpha = ge_node_attr_float(n, "alpha", 0.2);
    *beta = ge_node_attr_float(n, "beta", 0.5);
    return 1;
  }
  if (!strcmp(op, "Clip")) {
    uint32_t i;
    *alpha = ge_node_attr_float(n, "min", -HUGE_VAL); /* opset < 11: attributes */
    *beta = ge_node_attr_float(n, "max", HUGE_VAL);
    for (i = 1; i < 3 && i < n->num_inputs; i++) {
      const ge_tensor *v;
      if (n->inputs[i].node == GE_NONE) continue;
      v = ge__aic_const_in(g, n, i);
      if (!v || ge_tensor_numel(v) != 1) return 0;
      if (i == 1) *alpha = ((const float *)v->data)[0];
      else *beta = ((const float *)v->data)[0];
    }
    return 1;
  }
  return 0;
}

static ge_status ge__aic_fuse_act(ge_graph *g, ge_node_id id, int32_t self, int *done, ge_error *err) {
  ge_node *a = ge_graph_node(g, id), *p;
  double alpha, beta;
  ge_node_id pid;
  ge_status st;
  *done = 0;
  if (a->engine != self || a->num_inputs < 1 || a->num_outputs != 1 || a->num_control_inputs ||
      a->num_control_outputs || !ge__aic_fusable_act(g, a, &alpha, &beta) || !ge__aic_all_f32(g, a))
    return GE_OK;
  pid = a->inputs[0].node;
  p = pid == GE_NONE ? NULL : ge_graph_node(g, pid);
  if (!p || p->engine != self || a->inputs[0].index != 0 || ge__aic_only_use(p) != id ||
      !(ge__aic_is(p, "Conv") || ge__aic_is(p, "Gemm") || ge__aic_is(p, "MatMul")) ||
      ge_node_attr(p, "_fused_activation") || !ge__aic_all_f32(g, p) || !ge__aic_same_desc(&p->outputs[0], &a->outputs[0]))
    return GE_OK;
  if ((st = ge_node_set_attr_string(g, pid, "_fused_activation", a->op, err)) != GE_OK) return st;
  if (strcmp(a->op, "Relu") && strcmp(a->op, "Sigmoid") && strcmp(a->op, "Tanh")) {
    if ((st = ge_node_set_attr_float(g, pid, "_fused_alpha", alpha, err)) != GE_OK) return st;
    if (strcmp(a->op, "LeakyRelu") && (st = ge_node_set_attr_float(g, pid, "_fused_beta", beta, err)) != GE_OK)
      return st;
  }
  if ((st = ge__aic_bypass(g, id, pid, err)) != GE_OK) return st;
  *done = 1;
  return GE_OK;
}

static ge_status ge__aic_optimize(const ge_engine *e, ge_graph *g, int32_t self, ge_error *err) {
  uint32_t id, bound = ge_graph_id_bound(g);
  int done;
  ge_status st;
  (void)e;
  for (id = 0; id < bound; id++) { /* 1: BatchNormalization into Conv / Gemm */
    ge_node *n = ge_graph_node(g, id);
    if (!n || n->engine != self) continue;
    if (ge__aic_is(n, "Conv")) st = ge__aic_fold_conv(g, id, self, &done, err);
    else if (ge__aic_is(n, "Gemm")) st = ge__aic_fold_gemm(g, id, self, &done, err);
    else continue;
    if (st != GE_OK) return st;
  }
  bound = ge_graph_id_bound(g);
  for (id = 0; id < bound; id++) { /* 2: activations into their producer */
    ge_node *n = ge_graph_node(g, id);
    if (!n || n->engine != self) continue;
    if ((st = ge__aic_fuse_act(g, id, self, &done, err)) != GE_OK) return st;
  }
  return GE_OK;
}

static const ge_engine ge__aic_engine = {
    GE_ENGINE_ABI_VERSION, /* abi_version */
    "AIcoreEngine",        /* name */
    "AiCore",              /* accelerator */
    1,                     /* cost */
    GE_RUNTIME_DEVICE,     /* runtime */
    0,                     /* flags */
    NULL,                  /* members */
    ge__aic_check,         /* check_supported */
    ge__aic_kernel,        /* kernel */
    ge__aic_workspace,     /* workspace_size */
    NULL,                  /* optimize_original */
    ge__aic_optimize,      /* optimize_subgraph */
    NULL                   /* user */
};

GE_API const ge_engine *ge_ai_core_engine(void) { return &ge__aic_engine; }

#ifdef __cplusplus
}
#endif
#endif /* GE_AI_CORE_IMPLEMENTATION_DONE */
#endif /* GE_AI_CORE_IMPLEMENTATION */

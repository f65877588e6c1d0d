/* ge_engines/quant_kernels.h — fast kernels for dynamically and statically
 * quantized (int8 / uint8) models.
 *
 * Part of ge (issue 16). ge_quant_fast_kernel(n) hands out a kernel for
 *
 *   DynamicQuantizeLinear  float32 -> uint8, scale, zero point
 *   QuantizeLinear         float32 -> uint8 / int8, per tensor
 *   DequantizeLinear       uint8 / int8 -> float32, per tensor
 *   ConvInteger            2-D (1-D as H = 1), uint8 / int8 input and
 *                          weight, scalar input zero point, per-tensor or
 *                          per-output-channel weight zero points, groups,
 *                          strides, dilations, pads, auto_pad
 *   MatMulInteger          A [..., M, K] times a 2-D B [K, N], scalar A zero
 *                          point, per-tensor or per-column B zero points
 *   QLinearConv            ConvInteger's paths, float32 scales per tensor
 *                          (w: or per output channel), int32 bias, uint8 /
 *                          int8 output
 *   QLinearMatMul          MatMulInteger's paths, per-tensor parameters
 *
 * and NULL otherwise. A kernel checks its runtime inputs and calls the host
 * CPU reference kernel for anything off its paths (per-axis quantization,
 * batched B, int32 inputs, 3-D convs, bad input, whose errors the reference
 * words), so every answer is the reference's, bit for bit:
 *
 *   - quantization divides in float32 and rounds half to even
 *     (roundps / a floor-based scalar rint), then adds the zero point and
 *     saturates, NaN to 0, as the reference and the ONNX spec do;
 *   - dequantization multiplies the exact (x - zero point) by the scale in
 *     float32: the product of a 9-bit integer and a float is exact in
 *     double, so float32 rounds it once, as the reference does;
 *   - QLinear outputs are requantized from the exact int32 accumulators
 *     (bias added, wrapping) in float32 as the reference and ONNX Runtime
 *     do: float(acc) times (x_scale * w_scale) / y_scale, rounded half to
 *     even, plus the zero point, NaN to 0, saturated (AVX-512 with
 *     masked tails, AVX2 or scalar);
 *   - integer products (MatMulInteger, ConvInteger but depthwise) run on
 *     an integer GEMM exact in int32 (u8 x s8 tiles with the zero points
 *     applied through row and column sums: see "integer GEMM" below) on
 *     AVX512-VNNI, AVX2 or scalar C. Stride-1 convs pack their strips from
 *     a copy of the image padded with the zero point (a tap is 32
 *     consecutive bytes; outputs come out Wp apart and are compacted by
 *     the requantization). Depthwise ConvInteger (one input channel per
 *     group) runs as a direct int32 kernel: on AVX512-VNNI + VBMI, when
 *     the weights minus their zero points fit int8, from a padded plane
 *     with vpermb tap windows and vpdpbusd; else AVX-512 with every tap
 *     summed in a register for horizontal strides 1 and 2, pads and tails
 *     masked; else AVX2 rows.
 *
 * Const weights (and their zero points) are packed once, into the
 * kernel's state; scratch (image strips per share) lives there too, grown
 * once. Work is split with ge_kernel_parallel_for (column strips and row
 * chunks, channels). SIMD is chosen at run time with
 * __builtin_cpu_supports and target attributes (no -march); the scalar
 * fallback gives the same bits (define GE_QUANT_NO_SIMD to force it,
 * GE_QUANT_NO_VNNI to skip AVX512-VNNI).
 *
 * Include after (or instead of) ge_graph.h; define
 * GE_QUANT_KERNELS_IMPLEMENTATION (or GE_IMPLEMENTATION) in one translation
 * unit; the implementation of host_cpu.h must be compiled
 * too. Thread safety: no state outside the kernel context.
 */
#ifndef GE_ENGINE_QUANT_KERNELS_H
#define GE_ENGINE_QUANT_KERNELS_H

#include "ge_graph.h"
#include "host_cpu.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A fast kernel for the quantization node n, or NULL (use the reference). */
GE_API ge_kernel_fn ge_quant_fast_kernel(const ge_node *n);
/* The prepare call at load (GE_KERNEL_PREPARE) of n's fast kernel when it
 * has state to build (the integer products: attributes parsed, Const
 * weights packed), else NULL. */
GE_API ge_kernel_fn ge_quant_fast_prepare(const ge_node *n);

#ifdef __cplusplus
}
#endif
#endif /* GE_ENGINE_QUANT_KERNELS_H */

#if defined(GE_IMPLEMENTATION) || defined(GE_QUANT_KERNELS_IMPLEMENTATION)
#ifndef GE_QUANT_KERNELS_IMPLEMENTATION_DONE
#define GE_QUANT_KERNELS_IMPLEMENTATION_DONE

#include <math.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__)) && !defined(GE_QUANT_NO_SIMD)
#define GE__QK_AVX2 1
#include <immintrin.h>
#else
#define GE__QK_AVX2 0
#endif

#ifdef __cplusplus
extern "C" {
#endif

static ge_status ge__qk_reference(ge_kernel_ctx *c) { return ge_host_cpu_run_reference(c); }

static const ge_value *ge__qk_in(ge_kernel_ctx *c, uint32_t i) { return i < c->num_inputs ? c->inputs[i] : NULL; }

static int ge__qk_is_q8(ge_dtype t) { return t == GE_DTYPE_UINT8 || t == GE_DTYPE_INT8; }

/* Element i of a uint8 / int8 tensor. */
static int32_t ge__qk_get8(const ge_value *v, int64_t i) {
  return v->dtype == GE_DTYPE_UINT8 ? (int32_t)((const uint8_t *)v->data)[i] : (int32_t)((const int8_t *)v->data)[i];
}

/* Round half to even, as the reference's rint (no dependence on the
 * floating-point environment). */
static float ge__qk_rint(float x) {
  float f = floorf(x), d = x - f;
  if (d > 0.5f) return f + 1;
  if (d < 0.5f) return f;
  return fmodf(f, 2.0f) == 0 ? f : f + 1;
}

/* rint(x / s) + zp saturated to [lo, hi], NaN to 0 (as the reference). */
static int32_t ge__qk_quant1(float x, float s, float zp, float lo, float hi) {
  float q = ge__qk_rint(x / s) + zp;
  if (q != q) return 0;
  return (int32_t)(q < lo ? lo : q > hi ? hi : q);
}

/* y[i] = quant(x[i]) for i in [0, n); is_signed: int8 else uint8. */
#if GE__QK_AVX2
__attribute__((target("avx2"))) static void ge__qk_quant_avx2(const float *x, int64_t n, float s, float zp, float lo,
                                                              float hi, void *y) {
  const __m256 vs = _mm256_set1_ps(s), vz = _mm256_set1_ps(zp), vlo = _mm256_set1_ps(lo), vhi = _mm256_set1_ps(hi);
  const __m256i perm = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
  int is_signed = lo < 0;
  int64_t i = 0;
  for (; i + 32 <= n; i += 32) {
    __m256i q[4], p01, p23, b;
    int k;
    for (k = 0; k < 4; k++) {
      __m256 v = _mm256_div_ps(_mm256_loadu_ps(x + i + 8 * k), vs);
      v = _mm256_add_ps(_mm256_round_ps(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC), vz);
      v = _mm256_and_ps(v, _mm256_cmp_ps(v, v, _CMP_ORD_Q)); /* NaN to 0, as the reference */
      v = _mm256_min_ps(_mm256_max_ps(v, vlo), vhi);
      q[k] = _mm256_cvtps_epi32(v);
    }
    p01 = _mm256_packs_epi32(q[0], q[1]);
    p23 = _mm256_packs_epi32(q[2], q[3]);
    b = is_signed ? _mm256_packs_epi16(p01, p23) : _mm256_packus_epi16(p01, p23);
    _mm256_storeu_si256((__m256i *)(void *)((uint8_t *)y + i), _mm256_permutevar8x32_epi32(b, perm));
  }
  for (; i < n; i++) {
    int32_t q = ge__qk_quant1(x[i], s, zp, lo, hi);
    if (is_signed) ((int8_t *)y)[i] = (int8_t)q;
    else ((uint8_t *)y)[i] = (uint8_t)q;
  }
}

__attribute__((target("avx2"))) static void ge__qk_minmax_avx2(const float *x, int64_t n, float *mn, float *mx) {
  __m256 vmn = _mm256_setzero_ps(), vmx = _mm256_setzero_ps();
  float a[8], b[8], lo = 0, hi = 0;
  int64_t i = 0;
  int k;
  for (; i + 8 <= n; i += 8) {
    __m256 v = _mm256_loadu_ps(x + i);
    vmn = _mm256_min_ps(v, vmn); /* a NaN in v keeps vmn */
    vmx = _mm256_max_ps(v, vmx);
  }
  _mm256_storeu_ps(a, vmn);
  _mm256_storeu_ps(b, vmx);
  for (k = 0; k < 8; k++) {
    if (a[k] < lo) lo = a[k];
    if (b[k] > hi) hi = b[k];
  }
  for (; i < n; i++) {
    if (x[i] < lo) lo = x[i];
    if (x[i] > hi) hi = x[i];
  }
  *mn = lo;
  *mx = hi;
}
#endif

static int ge__qk_avx2(void) {
#if GE__QK_AVX2
  return __builtin_cpu_supports("avx2");
#else
  return 0;
#endif
}

static void ge__qk_quant(const float *x, int64_t n, float s, float zp, float lo, float hi, void *y) {
  int64_t i;
#if GE__QK_AVX2
  if (ge__qk_avx2()) {
    ge__qk_quant_avx2(x, n, s, zp, lo, hi, y);
    return;
  }
#endif
  for (i = 0; i < n; i++) {
    int32_t q = ge__qk_quant1(x[i], s, zp, lo, hi);
    if (lo < 0) ((int8_t *)y)[i] = (int8_t)q;
    else ((uint8_t *)y)[i] = (uint8_t)q;
  }
}

static void ge__qk_minmax(const float *x, int64_t n, float *mn, float *mx) {
  float lo = 0, hi = 0;
  int64_t i;
#if GE__QK_AVX2
  if (ge__qk_avx2()) {
    ge__qk_minmax_avx2(x, n, mn, mx);
    return;
  }
#endif
  for (i = 0; i < n; i++) {
    if (x[i] < lo) lo = x[i];
    if (x[i] > hi) hi = x[i];
  }
  *mn = lo;
  *mx = hi;
}

typedef struct ge__qk_qjob {
  const float *x;
  void *y;
  float s, zp, lo, hi;
} ge__qk_qjob;

static void ge__qk_quant_range(void *arg, int64_t b, int64_t e) {
  const ge__qk_qjob *j = (const ge__qk_qjob *)arg;
  ge__qk_quant(j->x + b, e - b, j->s, j->zp, j->lo, j->hi, (uint8_t *)j->y + b);
}

/* ------------------------------------------- DynamicQuantizeLinear */

static ge_status ge__qk_dql(ge_kernel_ctx *c) {
  const ge_value *x = ge__qk_in(c, 0);
  ge_value *y, *ys, *yz;
  float mn, mx, fscale, zp = 0;
  ge__qk_qjob j;
  if (!x || x->dtype != GE_DTYPE_FLOAT32 || c->num_outputs < 3) return ge__qk_reference(c);
  ge__qk_minmax((const float *)x->data, x->numel, &mn, &mx);
  fscale = (mx - mn) / 255.0f; /* float32 arithmetic, as the spec and the reference */
  if (fscale > 0) { /* as the reference: rint((-mn) / scale) in float32, saturated */
    float z = ge__qk_rint(-mn / fscale);
    zp = z != z ? 0 : z < 0 ? 0 : z > 255 ? 255 : z;
  }
  if (!(y = ge_kernel_output(c, 0, GE_DTYPE_UINT8, x->rank, x->dims))) return GE_ERR_NOMEM;
  if (!(ys = ge_kernel_output(c, 1, GE_DTYPE_FLOAT32, 0, x->dims))) return GE_ERR_NOMEM;
  if (!(yz = ge_kernel_output(c, 2, GE_DTYPE_UINT8, 0, x->dims))) return GE_ERR_NOMEM;
  ((float *)ys->data)[0] = fscale;
  ((uint8_t *)yz->data)[0] = (uint8_t)zp;
  if (!(fscale > 0)) {
    memset(y->data, (int)zp, (size_t)y->numel);
    return GE_OK;
  }
  j.x = (const float *)x->data;
  j.y = y->data;
  j.s = fscale;
  j.zp = zp;
  j.lo = 0;
  j.hi = 255;
  ge_kernel_parallel_for(c, x->numel, 1 << 15, ge__qk_quant_range, &j);
  return GE_OK;
}

/* ------------------------------------ QuantizeLinear, DequantizeLinear */

/* Per-tensor float32 scale and (optional) zero point of dtype zt; 0 when
 * off the fast path. */
static int ge__qk_qparam(const ge_value *sc, const ge_value *zp, float *s, float *z) {
  if (!sc || sc->dtype != GE_DTYPE_FLOAT32 || sc->numel != 1) return 0;
  if (zp && (!ge__qk_is_q8(zp->dtype) || zp->numel != 1)) return 0;
  *s = ((const float *)sc->data)[0];
  *z = zp ? (float)ge__qk_get8(zp, 0) : 0.0f;
  return 1;
}

static ge_status ge__qk_quantize(ge_kernel_ctx *c) {
  const ge_value *x = ge__qk_in(c, 0), *zp = ge__qk_in(c, 2);
  ge_dtype ot = zp ? zp->dtype : GE_DTYPE_UINT8;
  ge__qk_qjob j;
  ge_value *y;
  if (!x || x->dtype != GE_DTYPE_FLOAT32 || !ge__qk_qparam(ge__qk_in(c, 1), zp, &j.s, &j.zp) ||
      ge_node_attr(c->node, "saturate") || ge_node_attr(c->node, "output_dtype"))
    return ge__qk_reference(c);
  if (!(y = ge_kernel_output(c, 0, ot, x->rank, x->dims))) return GE_ERR_NOMEM;
  j.x = (const float *)x->data;
  j.y = y->data;
  j.lo = ot == GE_DTYPE_INT8 ? -128.0f : 0.0f;
  j.hi = ot == GE_DTYPE_INT8 ? 127.0f : 255.0f;
  ge_kernel_parallel_for(c, x->numel, 1 << 15, ge__qk_quant_range, &j);
  return GE_OK;
}

typedef struct ge__qk_djob {
  const void *x;
  float *y;
  int is_signed;
  float s, zp;
} ge__qk_djob;

#if GE__QK_AVX2
/* The scalar loop's float operations, 8 a step; returns the first i not
 * done. */
__attribute__((target("avx2"))) static int64_t ge__qk_dequant_avx2(const ge__qk_djob *j, int64_t b, int64_t e) {
  const __m256 vs = _mm256_set1_ps(j->s), vz = _mm256_set1_ps(j->zp);
  int64_t i;
  for (i = b; i + 8 <= e; i += 8) {
    __m128i x = _mm_loadl_epi64((const __m128i *)(const void *)((const uint8_t *)j->x + i));
    __m256i v = j->is_signed ? _mm256_cvtepi8_epi32(x) : _mm256_cvtepu8_epi32(x);
    _mm256_storeu_ps(j->y + i, _mm256_mul_ps(_mm256_sub_ps(_mm256_cvtepi32_ps(v), vz), vs));
  }
  return i;
}
#endif

static void ge__qk_dequant_range(void *arg, int64_t b, int64_t e) {
  const ge__qk_djob *j = (const ge__qk_djob *)arg;
  int64_t i;
#if GE__QK_AVX2
  if (ge__qk_avx2()) b = ge__qk_dequant_avx2(j, b, e);
#endif
  if (j->is_signed)
    for (i = b; i < e; i++) j->y[i] = ((float)((const int8_t *)j->x)[i] - j->zp) * j->s;
  else
    for (i = b; i < e; i++) j->y[i] = ((float)((const uint8_t *)j->x)[i] - j->zp) * j->s;
}

static ge_status ge__qk_dequantize(ge_kernel_ctx *c) {
  const ge_value *x = ge__qk_in(c, 0), *zp = ge__qk_in(c, 2);
  ge__qk_djob j;
  ge_value *y;
  if (!x || !ge__qk_is_q8(x->dtype) || (zp && zp->dtype != x->dtype) ||
      !ge__qk_qparam(ge__qk_in(c, 1), zp, &j.s, &j.zp))
    return ge__qk_reference(c);
  if (!(y = ge_kernel_output(c, 0, GE_DTYPE_FLOAT32, x->rank, x->dims))) return GE_ERR_NOMEM;
  j.x = x->data;
  j.y = (float *)y->data;
  j.is_signed = x->dtype == GE_DTYPE_INT8;
  ge_kernel_parallel_for(c, x->numel, 1 << 15, ge__qk_dequant_range, &j);
  return GE_OK;
}

/* ------------------------------------------------ integer products */

/* Kernel state: this header, then the weights packed once when Const
 * (integer GEMM tiles, or floats w - zw for depthwise), then scratch. One
 * block (the executor frees it). */
typedef struct ge__qk_state {
  size_t cap;           /* bytes after the header */
  size_t wfloats;       /* floats of the depthwise weights (0: none yet) */
  size_t wpacked;       /* bytes of the GEMM-packed weights (0: none yet) */
  int w_const;          /* weights and their zero points are Const */
  int threads;          /* shares a GEMM is split into */
  /* ConvInteger attributes */
  int64_t group, s[2], d[2], pads[4], ks[2];
  int32_t n_ks; /* kernel_shape's length (-1: absent) */
  int auto_pad; /* 0 NOTSET, 1 SAME_UPPER, 2 SAME_LOWER, 3 VALID, -1 other */
  int attrs_ok; /* the spatial rank the attributes were read for; 0: bad */
  int64_t lead[2]; /* leading pads of the last run (H, W) */
  int dw_s8;       /* depthwise weights minus zero points fit int8 */
  double pad_; /* keeps the area 8-byte aligned */
} ge__qk_state;

static float *ge__qk_area(ge__qk_state *s) { return (float *)(void *)(s + 1); }

/* 1 when input i of n comes from a Const (or is absent). */
static int ge__qk_const_input(const ge_kernel_ctx *c, uint32_t i) {
  const ge_node *p;
  if (i >= c->node->num_inputs || c->node->inputs[i].node == GE_NONE) return 1;
  if (!c->graph) return 0;
  p = ge_graph_input_origin(c->graph, c->node, i, NULL);
  return p && !strcmp(p->op, "Const");
}

static int ge__qk_ints(const ge_node *n, const char *name, int64_t *out, int32_t want, int64_t dflt) {
  const int64_t *v = NULL;
  int32_t cnt = ge_node_attr_ints(n, name, &v), i;
  if (cnt < 0) {
    for (i = 0; i < want; i++) out[i] = dflt;
    return 1;
  }
  if (cnt != want) return 0;
  for (i = 0; i < want; i++) out[i] = v[i];
  return 1;
}

/* The state, made at load (the prepare call) or the first run: wi and zwi are the input indices of
 * the weights and their zero points; conv the spatial rank (0: MatMul). */
static ge__qk_state *ge__qk_state_get(ge_kernel_ctx *c, int conv, uint32_t wi, uint32_t zwi) {
  ge__qk_state *s = (ge__qk_state *)c->state;
  if (s) return s;
  if (!(s = (ge__qk_state *)calloc(1, sizeof *s))) return NULL;
  s->w_const = ge__qk_const_input(c, wi) && ge__qk_const_input(c, zwi);
  s->threads = c->env && c->env->num_threads > 1 ? c->env->num_threads : 1;
  if (s->threads > 64) s->threads = 64;
  if (conv) { /* conv: spatial rank (1 or 2) */
    const char *ap = ge_node_attr_string(c->node, "auto_pad", "NOTSET");
    const int64_t *kv = NULL;
    int32_t nk = ge_node_attr_ints(c->node, "kernel_shape", &kv);
    int64_t v[4];
    int sp = conv;
    s->n_ks = nk;
    if (nk > 0) s->ks[0] = kv[0], s->ks[1] = kv[nk - 1];
    s->group = ge_node_attr_int(c->node, "group", 1);
    s->auto_pad = !*ap || !strcmp(ap, "NOTSET")  ? 0
                  : !strcmp(ap, "SAME_UPPER") ? 1
                  : !strcmp(ap, "SAME_LOWER") ? 2
                  : !strcmp(ap, "VALID")      ? 3
                                              : -1;
    s->attrs_ok = s->auto_pad >= 0 && s->group >= 1 && (nk < 0 || nk == sp);
    /* 1-D as 2-D with H = 1: index 0 is H, 1 is W */
    s->s[0] = s->d[0] = 1;
    s->pads[0] = s->pads[2] = 0;
    if (s->attrs_ok && (s->attrs_ok = ge__qk_ints(c->node, "strides", v, sp, 1)) != 0) {
      s->s[1] = v[sp - 1];
      if (sp == 2) s->s[0] = v[0];
    }
    if (s->attrs_ok && (s->attrs_ok = ge__qk_ints(c->node, "dilations", v, sp, 1)) != 0) {
      s->d[1] = v[sp - 1];
      if (sp == 2) s->d[0] = v[0];
    }
    if (s->attrs_ok && (s->attrs_ok = ge__qk_ints(c->node, "pads", v, 2 * sp, 0)) != 0) {
      if (sp == 2) {
        s->pads[0] = v[0];
        s->pads[1] = v[1];
        s->pads[2] = v[2];
        s->pads[3] = v[3];
      } else {
        s->pads[1] = v[0];
        s->pads[3] = v[1];
      }
    }
    if (s->attrs_ok && (s->s[0] < 1 || s->s[1] < 1 || s->d[0] < 1 || s->d[1] < 1 || s->pads[0] < 0 ||
                        s->pads[1] < 0 || s->pads[2] < 0 || s->pads[3] < 0))
      s->attrs_ok = 0;
    s->attrs_ok = s->attrs_ok ? sp : 0;
  }
  c->state = s;
  return s;
}

/* The area grown to hold `floats` floats (keeps what is there). */
static float *ge__qk_grow(ge_kernel_ctx *c, size_t floats) {
  ge__qk_state *s = (ge__qk_state *)c->state, *t;
  size_t bytes = floats * sizeof(float);
  if (bytes <= s->cap) return ge__qk_area(s);
  if (!(t = (ge__qk_state *)realloc(s, sizeof *s + bytes))) return NULL;
  t->cap = bytes;
  c->state = t;
  return ge__qk_area(t);
}

/* Weights w (M rows of K) minus zero points (zw: NULL, one, or M) into
 * out as float (exact: 9-bit integers). */
static void ge__qk_load_w(const ge_value *w, const ge_value *zw, int64_t M, int64_t K, float *out) {
  int64_t m, k;
  for (m = 0; m < M; m++) {
    int32_t z = zw ? ge__qk_get8(zw, zw->numel == 1 ? 0 : m) : 0;
    for (k = 0; k < K; k++) out[m * K + k] = (float)(ge__qk_get8(w, m * K + k) - z);
  }
}

/* ------------------------------------------------- integer GEMM */

/* C = (W - zw)(X - zx), exact in int32, for uint8 / int8 W (rows: output
 * channels, or MatMul columns) and X (columns: output pixels, or MatMul
 * rows). Both are mapped onto the operands of vpdpbusd (u8 x s8, four
 * products summed into int32, no saturation): X' = X (uint8) or X ^ 0x80
 * (int8, i.e. X + 128), W' = W (int8) or W - 128 (uint8), zero points
 * shifted alike, so that
 *   sum (x' - zx')(w' - zw') = sum x'w' - zx' sum w' - zw' sum x' + K zx' zw'
 * (in wrapping uint32, as vpdpbusd wraps). Row sums sum w' are packed with
 * the weights; column sums sum x' are made per strip only when some zw' is
 * not 0 (uint8 weights with zero point 128 and int8 ones with 0 need none).
 * Padded conv taps read zx (x - zx = 0, as in the reference); K is padded
 * to a multiple of 4 with zeros. Weights are packed once per group as
 * [M/8][K/4][8][4] bytes; activations 32 columns at a time as
 * [K/4][32][4] bytes. The 8 x 32 tile runs on AVX512-VNNI, or on AVX2
 * exactly by splitting x' into nibbles (pmaddubsw of a nibble and an int8
 * cannot saturate), or in scalar C: the same bits on all three. */
#define GE__QK_VM 8  /* rows of a tile */
#define GE__QK_VN 32 /* columns of a tile */

enum { GE__QK_ISA_SCALAR, GE__QK_ISA_AVX2, GE__QK_ISA_VNNI };

/* Highest tile ISA to use, and the least tile products (padded) per
 * share, log2: below it waking a thread costs more than it saves. A test
 * defining GE_QUANT_TEST_KNOBS may lower both (to run every ISA and split
 * small GEMMs); otherwise they are constants: the library keeps no
 * writable global data. */
#ifdef GE_QUANT_TEST_KNOBS
static int ge__qk_isa_cap = GE__QK_ISA_VNNI;
static int ge__qk_share_grain_log2 = 22;
#else
#define ge__qk_isa_cap GE__QK_ISA_VNNI
#define ge__qk_share_grain_log2 22
#endif

static int ge__qk_isa(void) {
  int isa = GE__QK_ISA_SCALAR;
#if GE__QK_AVX2
  if (__builtin_cpu_supports("avx2")) isa = GE__QK_ISA_AVX2;
#ifndef GE_QUANT_NO_VNNI
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vnni")) isa = GE__QK_ISA_VNNI;
#endif
#endif
  return isa < ge__qk_isa_cap ? isa : ge__qk_isa_cap;
}

#if GE__QK_AVX2
static int32_t ge__qk_ld32(const void *p) {
  int32_t v;
  memcpy(&v, p, sizeof v);
  return v;
}
#endif

/* out[r][j] (8 x 32) = sum over kq quads of ap (s8, [kq][8][4]) times bp
 * (u8, [kq][32][4]), wrapping. */
static void ge__qk_tile_scalar(const int8_t *ap, const uint8_t *bp, int64_t kq, int32_t *out) {
  uint32_t acc[GE__QK_VM * GE__QK_VN];
  int64_t q;
  int r, j, i;
  memset(acc, 0, sizeof acc);
  for (q = 0; q < kq; q++, ap += 4 * GE__QK_VM, bp += 4 * GE__QK_VN)
    for (r = 0; r < GE__QK_VM; r++)
      for (j = 0; j < GE__QK_VN; j++) {
        int32_t s = 0;
        for (i = 0; i < 4; i++) s += (int32_t)bp[4 * j + i] * (int32_t)ap[4 * r + i];
        acc[r * GE__QK_VN + j] += (uint32_t)s;
      }
  for (r = 0; r < GE__QK_VM * GE__QK_VN; r++) out[r] = (int32_t)acc[r];
}

#if GE__QK_AVX2
/* Named accumulators: an array of them would live in memory at -O2. */
#define GE__QK_VNNI_ROW(r)                                                                                             \
  a = _mm512_set1_epi32(ge__qk_ld32(ap + 4 * (r)));                                                                    \
  c0_##r = _mm512_dpbusd_epi32(c0_##r, b0, a);                                                                         \
  c1_##r = _mm512_dpbusd_epi32(c1_##r, b1, a);
#define GE__QK_VNNI_STORE(r)                                                                                           \
  _mm512_storeu_si512((void *)(out + (r) * GE__QK_VN), c0_##r);                                                        \
  _mm512_storeu_si512((void *)(out + (r) * GE__QK_VN + 16), c1_##r);

__attribute__((target("avx512f,avx512vnni"))) static void ge__qk_tile_vnni(const int8_t *ap, const uint8_t *bp,
                                                                           int64_t kq, int32_t *out) {
  __m512i c0_0 = _mm512_setzero_si512(), c0_1 = c0_0, c0_2 = c0_0, c0_3 = c0_0, c0_4 = c0_0, c0_5 = c0_0,
          c0_6 = c0_0, c0_7 = c0_0, c1_0 = c0_0, c1_1 = c0_0, c1_2 = c0_0, c1_3 = c0_0, c1_4 = c0_0, c1_5 = c0_0,
          c1_6 = c0_0, c1_7 = c0_0;
  int64_t q;
  for (q = 0; q < kq; q++, ap += 4 * GE__QK_VM, bp += 4 * GE__QK_VN) {
    __m512i b0 = _mm512_loadu_si512((const void *)bp), b1 = _mm512_loadu_si512((const void *)(bp + 64)), a;
    GE__QK_VNNI_ROW(0) GE__QK_VNNI_ROW(1) GE__QK_VNNI_ROW(2) GE__QK_VNNI_ROW(3)
    GE__QK_VNNI_ROW(4) GE__QK_VNNI_ROW(5) GE__QK_VNNI_ROW(6) GE__QK_VNNI_ROW(7)
  }
  GE__QK_VNNI_STORE(0) GE__QK_VNNI_STORE(1) GE__QK_VNNI_STORE(2) GE__QK_VNNI_STORE(3)
  GE__QK_VNNI_STORE(4) GE__QK_VNNI_STORE(5) GE__QK_VNNI_STORE(6) GE__QK_VNNI_STORE(7)
}

/* AVX2: x' = 16 hi + lo with nibbles hi, lo; pmaddubsw(nibble, w) sums two
 * products of at most 15 * 128 (no saturation), pmaddwd by 16 or 1 widens. */
#define GE__QK_AVX2_ROW(r)                                                                                             \
  w = _mm256_set1_epi32(ge__qk_ld32(a + 4 * (r)));                                                                     \
  c_##r = _mm256_add_epi32(c_##r, _mm256_add_epi32(_mm256_madd_epi16(_mm256_maddubs_epi16(hi, w), sixteen),           \
                                                   _mm256_madd_epi16(_mm256_maddubs_epi16(lo, w), one)));
#define GE__QK_AVX2_STORE(r) _mm256_storeu_si256((__m256i *)(void *)(out + (r) * GE__QK_VN + 8 * g), c_##r);

__attribute__((target("avx2"))) static void ge__qk_tile_avx2(const int8_t *ap, const uint8_t *bp, int64_t kq,
                                                             int32_t *out) {
  const __m256i low = _mm256_set1_epi8(0x0F), one = _mm256_set1_epi16(1), sixteen = _mm256_set1_epi16(16);
  int g;
  for (g = 0; g < GE__QK_VN / 8; g++) { /* 8 columns a pass */
    __m256i c_0 = _mm256_setzero_si256(), c_1 = c_0, c_2 = c_0, c_3 = c_0, c_4 = c_0, c_5 = c_0, c_6 = c_0,
            c_7 = c_0;
    const int8_t *a = ap;
    const uint8_t *b = bp + 32 * g;
    int64_t q;
    for (q = 0; q < kq; q++, a += 4 * GE__QK_VM, b += 4 * GE__QK_VN) {
      __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)b), w;
      __m256i hi = _mm256_and_si256(_mm256_srli_epi16(v, 4), low), lo = _mm256_and_si256(v, low);
      GE__QK_AVX2_ROW(0) GE__QK_AVX2_ROW(1) GE__QK_AVX2_ROW(2) GE__QK_AVX2_ROW(3)
      GE__QK_AVX2_ROW(4) GE__QK_AVX2_ROW(5) GE__QK_AVX2_ROW(6) GE__QK_AVX2_ROW(7)
    }
    GE__QK_AVX2_STORE(0) GE__QK_AVX2_STORE(1) GE__QK_AVX2_STORE(2) GE__QK_AVX2_STORE(3)
    GE__QK_AVX2_STORE(4) GE__QK_AVX2_STORE(5) GE__QK_AVX2_STORE(6) GE__QK_AVX2_STORE(7)
  }
}

/* Column sums of a packed strip: pmaddubsw by ones (two bytes, no
 * saturation), pmaddwd by ones. */
__attribute__((target("avx2"))) static void ge__qk_colsum_avx2(const uint8_t *bp, int64_t kq, int32_t *cs) {
  const __m256i ones8 = _mm256_set1_epi8(1), ones16 = _mm256_set1_epi16(1);
  __m256i s[GE__QK_VN / 8];
  int64_t q;
  int g;
  for (g = 0; g < GE__QK_VN / 8; g++) s[g] = _mm256_setzero_si256();
  for (q = 0; q < kq; q++, bp += 4 * GE__QK_VN)
    for (g = 0; g < GE__QK_VN / 8; g++) {
      __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(bp + 32 * g));
      s[g] = _mm256_add_epi32(s[g], _mm256_madd_epi16(_mm256_maddubs_epi16(v, ones8), ones16));
    }
  for (g = 0; g < GE__QK_VN / 8; g++) _mm256_storeu_si256((__m256i *)(void *)(cs + 8 * g), s[g]);
}
#endif

static void ge__qk_tile(int isa, const int8_t *ap, const uint8_t *bp, int64_t kq, int32_t *out) {
#if GE__QK_AVX2
  if (isa == GE__QK_ISA_VNNI) {
    ge__qk_tile_vnni(ap, bp, kq, out);
    return;
  }
  if (isa == GE__QK_ISA_AVX2) {
    ge__qk_tile_avx2(ap, bp, kq, out);
    return;
  }
#endif
  (void)isa;
  ge__qk_tile_scalar(ap, bp, kq, out);
}

static void ge__qk_colsum(int isa, const uint8_t *bp, int64_t kq, int32_t *cs) {
  int64_t q;
  int j, i;
#if GE__QK_AVX2
  if (isa != GE__QK_ISA_SCALAR) {
    ge__qk_colsum_avx2(bp, kq, cs);
    return;
  }
#endif
  (void)isa;
  for (j = 0; j < GE__QK_VN; j++) cs[j] = 0;
  for (q = 0; q < kq; q++, bp += 4 * GE__QK_VN)
    for (j = 0; j < GE__QK_VN; j++)
      for (i = 0; i < 4; i++) cs[j] += bp[4 * j + i];
}

/* Bytes of one group's packed weights: the tiles, then int32 row sums,
 * shifted zero points and a flag (some zero point is not 0); 64-aligned. */
static size_t ge__qk_wpack_bytes(int64_t Mg, int64_t K) {
  int64_t mb = (Mg + GE__QK_VM - 1) / GE__QK_VM, kq = (K + 3) / 4;
  return ((size_t)(mb * kq * 4 * GE__QK_VM) + (size_t)(2 * Mg + 1) * sizeof(int32_t) + 63) & ~(size_t)63;
}

/* Packs weight rows [m0, m0 + Mg), element (m, k) at w[m * rs + k * ks],
 * with zero points zw (NULL, one, or one per row). */
static void ge__qk_wpack(const ge_value *w, int64_t rs, int64_t ks, const ge_value *zw, int64_t m0, int64_t Mg,
                         int64_t K, uint8_t *dst) {
  int64_t mb = (Mg + GE__QK_VM - 1) / GE__QK_VM, kq = (K + 3) / 4, m, k;
  int8_t *a = (int8_t *)dst;
  int32_t *sums = (int32_t *)(void *)(dst + mb * kq * 4 * GE__QK_VM), *zs = sums + Mg;
  int32_t shift = w->dtype == GE_DTYPE_UINT8 ? 128 : 0, any = 0;
  memset(a, 0, (size_t)(mb * kq * 4 * GE__QK_VM));
  for (m = 0; m < Mg; m++) {
    int32_t sum = 0;
    int8_t *row = a + (m / GE__QK_VM * kq * GE__QK_VM + m % GE__QK_VM) * 4;
    for (k = 0; k < K; k++) {
      int32_t v = ge__qk_get8(w, (m0 + m) * rs + k * ks) - shift;
      row[(k / 4) * 4 * GE__QK_VM + k % 4] = (int8_t)v;
      sum += v;
    }
    sums[m] = sum;
    zs[m] = (zw ? ge__qk_get8(zw, zw->numel == 1 ? 0 : m0 + m) : 0) - shift;
    any |= zs[m] != 0;
  }
  zs[Mg] = any;
}

/* One image (one group) of a ConvInteger as im2col columns. */
typedef struct ge__qk_conv {
  const uint8_t *x; /* Cg planes of H x W (uint8 or int8 bytes) */
  int64_t H, W, KH, KW, OW, sh, sw, dh, dw, ph, pw, Cg;
} ge__qk_conv;

/* Four rows of 32 bytes at a, b, c, d (XOR flip) into [32][4] quads. */
static void ge__qk_interleave4(const uint8_t *a, const uint8_t *b, const uint8_t *c, const uint8_t *d, uint8_t flip,
                               uint8_t *dst) {
#if GE__QK_AVX2 && defined(__SSE2__)
  const __m128i f = _mm_set1_epi8((char)flip);
  int h;
  for (h = 0; h < GE__QK_VN / 16; h++) {
    __m128i r0 = _mm_xor_si128(_mm_loadu_si128((const __m128i *)(const void *)(a + 16 * h)), f);
    __m128i r1 = _mm_xor_si128(_mm_loadu_si128((const __m128i *)(const void *)(b + 16 * h)), f);
    __m128i r2 = _mm_xor_si128(_mm_loadu_si128((const __m128i *)(const void *)(c + 16 * h)), f);
    __m128i r3 = _mm_xor_si128(_mm_loadu_si128((const __m128i *)(const void *)(d + 16 * h)), f);
    __m128i lo01 = _mm_unpacklo_epi8(r0, r1), hi01 = _mm_unpackhi_epi8(r0, r1);
    __m128i lo23 = _mm_unpacklo_epi8(r2, r3), hi23 = _mm_unpackhi_epi8(r2, r3);
    __m128i *d = (__m128i *)(void *)(dst + 64 * h);
    _mm_storeu_si128(d, _mm_unpacklo_epi16(lo01, lo23));
    _mm_storeu_si128(d + 1, _mm_unpackhi_epi16(lo01, lo23));
    _mm_storeu_si128(d + 2, _mm_unpacklo_epi16(hi01, hi23));
    _mm_storeu_si128(d + 3, _mm_unpackhi_epi16(hi01, hi23));
  }
#else
  int j;
  for (j = 0; j < GE__QK_VN; j++) {
    dst[4 * j] = (uint8_t)(a[j] ^ flip), dst[4 * j + 1] = (uint8_t)(b[j] ^ flip);
    dst[4 * j + 2] = (uint8_t)(c[j] ^ flip), dst[4 * j + 3] = (uint8_t)(d[j] ^ flip);
  }
#endif
}

/* Four rows of 32 bytes, one after the other, into quads. */
static void ge__qk_interleave(const uint8_t *rows, uint8_t flip, uint8_t *dst) {
  ge__qk_interleave4(rows, rows + GE__QK_VN, rows + 2 * GE__QK_VN, rows + 3 * GE__QK_VN, flip, dst);
}

/* Columns [n0, n0 + 32) of the im2col matrix (K = Cg KH KW rows) packed
 * as quads; pads and columns past P read zx (raw byte), K padding 0; the
 * bytes XOR flip. `rows`: 4 x 32 bytes of scratch. */
static void ge__qk_strip_conv(const ge__qk_conv *v, int64_t n0, int64_t P, uint8_t zx, uint8_t flip, uint8_t *bp,
                              uint8_t *rows) {
  int64_t j0[GE__QK_VN + 1], ih0[GE__QK_VN + 1], iw0[GE__QK_VN + 1], ns = 0, j = 0, k = 0, ci, kh, kw, s;
  if (v->KH == 1 && v->KW == 1 && v->sh == 1 && v->sw == 1 && v->ph == 0 && v->pw == 0 && v->OW == v->W &&
      P == v->H * v->W) { /* a pointwise conv: the columns are consecutive bytes of each plane */
    int64_t len = P - n0 < GE__QK_VN ? P - n0 : GE__QK_VN;
    for (ci = 0; ci < v->Cg; ci++, k++) {
      uint8_t *row = rows + (k % 4) * GE__QK_VN;
      const uint8_t *src = v->x + ci * v->H * v->W + n0;
      if (len == GE__QK_VN) memcpy(row, src, GE__QK_VN);
      else {
        memcpy(row, src, (size_t)len);
        memset(row + len, zx, (size_t)(GE__QK_VN - len));
      }
      if (k % 4 == 3) ge__qk_interleave(rows, flip, bp + (k / 4) * 4 * GE__QK_VN);
    }
    if (k % 4) {
      memset(rows + (k % 4) * GE__QK_VN, flip, (size_t)((4 - k % 4) * GE__QK_VN));
      ge__qk_interleave(rows, flip, bp + (k / 4) * 4 * GE__QK_VN);
    }
    return;
  }
  while (j < GE__QK_VN) { /* runs of columns within one output row */
    int64_t p = n0 + j, ow, len;
    if (p >= P) {
      j0[ns] = j, ih0[ns] = -((int64_t)1 << 40), iw0[ns++] = 0; /* reads zx */
      break;
    }
    ow = p % v->OW;
    len = v->OW - ow;
    if (len > GE__QK_VN - j) len = GE__QK_VN - j;
    if (len > P - p) len = P - p;
    j0[ns] = j, ih0[ns] = p / v->OW * v->sh - v->ph, iw0[ns++] = ow * v->sw - v->pw;
    j += len;
  }
  j0[ns] = GE__QK_VN;
  for (ci = 0; ci < v->Cg; ci++)
    for (kh = 0; kh < v->KH; kh++)
      for (kw = 0; kw < v->KW; kw++, k++) {
        uint8_t *row = rows + (k % 4) * GE__QK_VN;
        const uint8_t *plane = v->x + ci * v->H * v->W;
        for (s = 0; s < ns; s++) {
          int64_t len = j0[s + 1] - j0[s], ih = ih0[s] + kh * v->dh, iw = iw0[s] + kw * v->dw, a, b, t;
          uint8_t *d = row + j0[s];
          const uint8_t *src;
          if (ih < 0 || ih >= v->H) {
            memset(d, zx, (size_t)len);
            continue;
          }
          src = plane + ih * v->W + iw;
          a = iw < 0 ? (-iw + v->sw - 1) / v->sw : 0; /* first column inside */
          b = v->W - 1 - iw < 0 ? 0 : (v->W - 1 - iw) / v->sw + 1; /* past the last inside */
          if (b > len) b = len;
          if (a > b) a = b;
          memset(d, zx, (size_t)a);
          if (v->sw == 1) memcpy(d + a, src + a, (size_t)(b - a));
          else
            for (t = a; t < b; t++) d[t] = src[t * v->sw];
          memset(d + b, zx, (size_t)(len - b));
        }
        if (k % 4 == 3) ge__qk_interleave(rows, flip, bp + (k / 4) * 4 * GE__QK_VN);
      }
  if (k % 4) { /* K padding: bytes that XOR flip to 0 */
    memset(rows + (k % 4) * GE__QK_VN, flip, (size_t)((4 - k % 4) * GE__QK_VN));
    ge__qk_interleave(rows, flip, bp + (k / 4) * 4 * GE__QK_VN);
  }
}

/* Rows [m0, m0 + 32) of A (M rows of K bytes) as columns, quads of
 * consecutive k; rows past M repeat the last (their results are dropped),
 * K padding 0; the bytes XOR flip. */
static void ge__qk_strip_rows(const uint8_t *A, int64_t M, int64_t K, int64_t m0, uint8_t flip, uint8_t *bp) {
  uint32_t f4 = 0x01010101u * flip;
  int64_t kq = (K + 3) / 4, kf = K / 4, j, q, i;
  for (j = 0; j < GE__QK_VN; j++) {
    const uint8_t *src = A + (m0 + j < M ? m0 + j : M - 1) * K;
    uint8_t *d = bp + 4 * j;
    for (q = 0; q < kf; q++) {
      uint32_t v;
      memcpy(&v, src + 4 * q, 4);
      v ^= f4;
      memcpy(d + q * 4 * GE__QK_VN, &v, 4);
    }
    for (q = kf; q < kq; q++)
      for (i = 0; i < 4; i++) d[q * 4 * GE__QK_VN + i] = 4 * q + i < K ? (uint8_t)(src[4 * q + i] ^ flip) : 0;
  }
}

/* Columns [n0, n0 + 32) of a stride-1 conv over a padded image xp whose
 * output pixels are numbered oh Wp + ow (ow >= OW are junk columns the
 * caller drops): tap k reads the 32 consecutive bytes at xp + koff[k] +
 * n0, so a quad of taps is four loads and one interleave; columns at or
 * past P' (the last strip) read zx. K padding 0; the bytes XOR flip.
 * `rows`: 4 x 32 bytes of scratch. */
static void ge__qk_strip_flat(const uint8_t *xp, const int32_t *koff, int64_t K, int64_t n0, int64_t Pf, uint8_t zx,
                              uint8_t flip, uint8_t *bp, uint8_t *rows) {
  int64_t k, i, avail = Pf - n0 < GE__QK_VN ? Pf - n0 : GE__QK_VN;
  for (k = 0; k < K; k += 4) {
    uint8_t *dst = bp + (k / 4) * 4 * GE__QK_VN;
    if (avail == GE__QK_VN && k + 4 <= K) { /* the common case: straight from the image */
      ge__qk_interleave4(xp + koff[k] + n0, xp + koff[k + 1] + n0, xp + koff[k + 2] + n0, xp + koff[k + 3] + n0, flip,
                         dst);
      continue;
    }
    for (i = 0; i < 4; i++) {
      uint8_t *row = rows + i * GE__QK_VN;
      if (k + i >= K) memset(row, flip, GE__QK_VN); /* XOR flip: 0 */
      else if (avail == GE__QK_VN) memcpy(row, xp + koff[k + i] + n0, GE__QK_VN);
      else {
        memcpy(row, xp + koff[k + i] + n0, (size_t)avail);
        memset(row + avail, zx, (size_t)(GE__QK_VN - avail));
      }
    }
    ge__qk_interleave(rows, flip, dst);
  }
}

/* One integer GEMM: Mg packed weight rows times P columns (conv strips or
 * rows of A), C[row * ldr + col * ldc]; split into (strip, row chunk)
 * items over shares. */
typedef struct ge__qk_igemm {
  const uint8_t *wpack;
  const ge__qk_conv *conv; /* columns from an image, else from A */
  const uint8_t *flat;      /* or from a padded image (stride 1): tap k at flat + koff[k] */
  const int32_t *koff;
  const uint8_t *A;
  int32_t *C;
  int64_t Mg, K, P, ldr, ldc, strips, rchunks, tiles_per_chunk, items_per_share;
  int32_t zx;   /* shifted input zero point */
  uint8_t zx_raw, flip;
  int isa;
  uint8_t *scratch; /* per share */
  size_t scratch_bytes;
} ge__qk_igemm;

static size_t ge__qk_iscratch_bytes(int64_t K) {
  size_t b = (size_t)((K + 3) / 4 * 4 * GE__QK_VN) + 4 * GE__QK_VN +
             (size_t)(GE__QK_VN + GE__QK_VM * GE__QK_VN) * sizeof(int32_t);
  return (b + 63) & ~(size_t)63;
}

#if GE__QK_AVX2
/* dst[j] = src[j] + base - z colsum[j] for a tile row of 32, wrapping. */
__attribute__((target("avx2"))) static void ge__qk_tile_row_avx2(int32_t *dst, const int32_t *src, uint32_t base,
                                                                 uint32_t z, const int32_t *colsum) {
  const __m256i vb = _mm256_set1_epi32((int32_t)base), vz = _mm256_set1_epi32((int32_t)z);
  int j;
  for (j = 0; j < GE__QK_VN; j += 8) {
    __m256i v = _mm256_add_epi32(_mm256_loadu_si256((const __m256i *)(const void *)(src + j)), vb);
    if (z) v = _mm256_sub_epi32(v, _mm256_mullo_epi32(vz, _mm256_loadu_si256((const __m256i *)(const void *)(colsum + j))));
    _mm256_storeu_si256((__m256i *)(void *)(dst + j), v);
  }
}
#endif

static void ge__qk_igemm_share(void *arg, int64_t b, int64_t e) {
  const ge__qk_igemm *g = (const ge__qk_igemm *)arg;
  int64_t t, kq = (g->K + 3) / 4, mb = (g->Mg + GE__QK_VM - 1) / GE__QK_VM;
  const int32_t *rowsum = (const int32_t *)(const void *)(g->wpack + mb * kq * 4 * GE__QK_VM), *zs = rowsum + g->Mg;
  int need_colsum = zs[g->Mg] != 0;
  for (t = b; t < e; t++) {
    uint8_t *bp = g->scratch + (size_t)t * g->scratch_bytes, *rows = bp + kq * 4 * GE__QK_VN;
    int32_t *colsum = (int32_t *)(void *)(rows + 4 * GE__QK_VN), *tile = colsum + GE__QK_VN;
    int64_t it, i0 = t * g->items_per_share, i1 = i0 + g->items_per_share, packed = -1;
    if (i1 > g->strips * g->rchunks) i1 = g->strips * g->rchunks;
    for (it = i0; it < i1; it++) {
      int64_t st = it / g->rchunks, rc = it % g->rchunks, n0 = st * GE__QK_VN, i, j, m;
      int64_t nn = g->P - n0 < GE__QK_VN ? g->P - n0 : GE__QK_VN, tb = rc * g->tiles_per_chunk;
      int64_t te = tb + g->tiles_per_chunk < mb ? tb + g->tiles_per_chunk : mb;
      if (st != packed) {
        if (g->flat) ge__qk_strip_flat(g->flat, g->koff, g->K, n0, g->P, g->zx_raw, g->flip, bp, rows);
        else if (g->conv) ge__qk_strip_conv(g->conv, n0, g->P, g->zx_raw, g->flip, bp, rows);
        else ge__qk_strip_rows(g->A, g->P, g->K, n0, g->flip, bp);
        if (need_colsum) ge__qk_colsum(g->isa, bp, kq, colsum);
        packed = st;
      }
      for (i = tb; i < te; i++) {
        int64_t nr = g->Mg - i * GE__QK_VM < GE__QK_VM ? g->Mg - i * GE__QK_VM : GE__QK_VM;
        ge__qk_tile(g->isa, (const int8_t *)g->wpack + i * kq * 4 * GE__QK_VM, bp, kq, tile);
        for (m = 0; m < nr; m++) {
          int64_t row = i * GE__QK_VM + m;
          uint32_t z = (uint32_t)zs[row];
          uint32_t base = (uint32_t)g->K * (uint32_t)g->zx * z - (uint32_t)g->zx * (uint32_t)rowsum[row];
          int32_t *dst = g->C + row * g->ldr + n0 * g->ldc;
          const int32_t *src = tile + m * GE__QK_VN;
#if GE__QK_AVX2
          if (g->isa != GE__QK_ISA_SCALAR && g->ldc == 1 && nn == GE__QK_VN) {
            ge__qk_tile_row_avx2(dst, src, base, need_colsum ? z : 0u, colsum);
            continue;
          }
#endif
          if (need_colsum)
            for (j = 0; j < nn; j++) dst[j * g->ldc] = (int32_t)((uint32_t)src[j] + base - z * (uint32_t)colsum[j]);
          else if (g->ldc == 1)
            for (j = 0; j < nn; j++) dst[j] = (int32_t)((uint32_t)src[j] + base);
          else
            for (j = 0; j < nn; j++) dst[j * g->ldc] = (int32_t)((uint32_t)src[j] + base);
        }
      }
    }
  }
}

/* Runs g over at most `threads` shares; scratch (shares x scratch_bytes)
 * must be set. Returns the shares used. */
static void ge__qk_igemm_run(ge_kernel_ctx *c, ge__qk_igemm *g, int64_t shares) {
  int64_t mb = (g->Mg + GE__QK_VM - 1) / GE__QK_VM, items;
  g->strips = (g->P + GE__QK_VN - 1) / GE__QK_VN;
  g->rchunks = g->strips >= shares ? 1 : (shares + g->strips - 1) / g->strips;
  if (g->rchunks > mb) g->rchunks = mb;
  g->tiles_per_chunk = (mb + g->rchunks - 1) / g->rchunks;
  items = g->strips * g->rchunks;
  if (shares > items) shares = items;
  g->items_per_share = (items + shares - 1) / shares;
  shares = (items + g->items_per_share - 1) / g->items_per_share;
  ge_kernel_parallel_for(c, shares, 1, ge__qk_igemm_share, g);
}

/* Shares a GEMM of P columns, Mg rows and depth K is split into: at most
 * one per tile and per 2^ge__qk_share_grain_log2 products. */
static int64_t ge__qk_shares(int threads, int64_t P, int64_t Mg, int64_t K) {
  int64_t strips = (P + GE__QK_VN - 1) / GE__QK_VN, mb = (Mg + GE__QK_VM - 1) / GE__QK_VM;
  int64_t most = strips * mb, work = most * GE__QK_VM * GE__QK_VN * ((K + 3) / 4 * 4), by_work = work >> ge__qk_share_grain_log2;
  if (most > by_work) most = by_work > 1 ? by_work : 1;
  return threads < most ? threads : most;
}

/* Grows the state's area to hold `packed` weight bytes, `shares` scratch
 * blocks of K and `tail` bytes (QLinear accumulators); returns the
 * 64-aligned start (NULL: no memory). */
static uint8_t *ge__qk_iarea(ge_kernel_ctx *c, size_t packed, int64_t shares, int64_t K, size_t tail) {
  size_t bytes = packed + (size_t)shares * ge__qk_iscratch_bytes(K) + tail + 64;
  float *a = ge__qk_grow(c, bytes / sizeof(float) + 1);
  return a ? (uint8_t *)(((uintptr_t)a + 63) & ~(uintptr_t)63) : NULL;
}

/* ---------------------------------------------------- requantization */

/* QLinearConv / QLinearMatMul outputs from int32 accumulators, the float32
 * operations of the reference (and of ONNX Runtime): multiplier
 * (x_scale * w_scale) / y_scale, float(acc + bias) times it, rounded half
 * to even, plus the zero point, NaN to 0, saturated. */
typedef struct ge__qk_req {
  ge_dtype ot;        /* uint8 or int8 */
  const float *ws;    /* weight scales: one, or one per channel */
  int64_t nws;
  const int32_t *bias; /* NULL or one per channel */
  float xs, ys, zy, lo, hi;
  /* set by the kernel: */
  const int32_t *acc;
  void *y;
  int64_t channels, plane; /* element i is in channel (i / plane) % channels */
  int64_t acc_plane, acc_row, row; /* acc_row > 0: plane p's rows of `row` at acc + p acc_plane + r acc_row */
} ge__qk_req;

static float ge__qk_req_mult(const ge__qk_req *r, int64_t ch) {
  float t = r->xs * r->ws[r->nws == 1 ? 0 : ch];
  return t / r->ys;
}

static void ge__qk_req_row_scalar(const int32_t *acc, int64_t n, uint32_t bias, float mult, const ge__qk_req *r,
                                  void *y) {
  int64_t i;
  for (i = 0; i < n; i++) {
    float v = (float)(int32_t)((uint32_t)acc[i] + bias) * mult, q = ge__qk_rint(v) + r->zy;
    int32_t o = q != q ? 0 : (int32_t)(q < r->lo ? r->lo : q > r->hi ? r->hi : q);
    if (r->ot == GE_DTYPE_INT8) ((int8_t *)y)[i] = (int8_t)o;
    else ((uint8_t *)y)[i] = (uint8_t)o;
  }
}

#if GE__QK_AVX2
/* 8 outputs a step: roundps rounds half to even as the scalar rint. */
__attribute__((target("avx2"))) static int64_t ge__qk_req_row_avx2(const int32_t *acc, int64_t n, uint32_t bias,
                                                                   float mult, const ge__qk_req *r, void *y) {
  const __m256i vb = _mm256_set1_epi32((int32_t)bias);
  const __m256 vm = _mm256_set1_ps(mult), vz = _mm256_set1_ps(r->zy), vlo = _mm256_set1_ps(r->lo),
               vhi = _mm256_set1_ps(r->hi);
  int is_signed = r->ot == GE_DTYPE_INT8;
  int64_t i;
  for (i = 0; i + 8 <= n; i += 8) {
    __m256i a = _mm256_add_epi32(_mm256_loadu_si256((const __m256i *)(const void *)(acc + i)), vb);
    __m256 v = _mm256_mul_ps(_mm256_cvtepi32_ps(a), vm), q;
    __m128i w;
    q = _mm256_add_ps(_mm256_round_ps(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC), vz);
    q = _mm256_and_ps(q, _mm256_cmp_ps(q, q, _CMP_ORD_Q)); /* NaN to 0 */
    q = _mm256_min_ps(_mm256_max_ps(q, vlo), vhi);
    a = _mm256_cvttps_epi32(q);
    w = _mm_packs_epi32(_mm256_castsi256_si128(a), _mm256_extracti128_si256(a, 1));
    w = is_signed ? _mm_packs_epi16(w, w) : _mm_packus_epi16(w, w);
    _mm_storel_epi64((__m128i *)(void *)((uint8_t *)y + i), w);
  }
  return i;
}
#endif

#if GE__QK_AVX2
/* The same on AVX-512, 16 a step, the tail masked: the float operations
 * and their order are the AVX2 and scalar ones; values are clamped
 * before the truncating narrowing, so it gives their bytes. */
__attribute__((target("avx512f"))) static void ge__qk_req_row_avx512(const int32_t *acc, int64_t n, uint32_t bias,
                                                                     float mult, const ge__qk_req *r, void *y) {
  const __m512i vb = _mm512_set1_epi32((int32_t)bias);
  const __m512 vm = _mm512_set1_ps(mult), vz = _mm512_set1_ps(r->zy), vlo = _mm512_set1_ps(r->lo),
               vhi = _mm512_set1_ps(r->hi);
  int64_t i;
  for (i = 0; i < n; i += 16) {
    __mmask16 k = n - i >= 16 ? (__mmask16)0xFFFF : (__mmask16)(((uint32_t)1 << (n - i)) - 1);
    __m512i a = _mm512_add_epi32(_mm512_maskz_loadu_epi32(k, (const void *)(acc + i)), vb);
    __m512 v = _mm512_mul_ps(_mm512_cvtepi32_ps(a), vm), q;
    q = _mm512_add_ps(_mm512_roundscale_ps(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC), vz);
    q = _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(q, q, _CMP_ORD_Q), q); /* NaN to 0 */
    q = _mm512_min_ps(_mm512_max_ps(q, vlo), vhi);
    _mm512_mask_cvtepi32_storeu_epi8((void *)((uint8_t *)y + i), k, _mm512_cvttps_epi32(q));
  }
}
#endif

/* Planes [b, e) of r's accumulators into its output. */
static void ge__qk_req_range(void *arg, int64_t b, int64_t e) {
  const ge__qk_req *r = (const ge__qk_req *)arg;
  int isa = ge__qk_isa(), avx2 = isa != GE__QK_ISA_SCALAR;
  int64_t p;
  for (p = b; p < e; p++) {
    int64_t ch = p % r->channels, done = 0;
    uint32_t bias = r->bias ? (uint32_t)r->bias[ch] : 0u;
    float mult = ge__qk_req_mult(r, ch);
    const int32_t *acc = r->acc + p * (r->acc_row ? r->acc_plane : r->plane);
    uint8_t *y = (uint8_t *)r->y + p * r->plane;
    int64_t n = r->acc_row ? r->row : r->plane, rows = r->acc_row ? r->plane / r->row : 1, i;
    for (i = 0; i < rows; i++, acc += r->acc_row, y += n) {
      done = 0;
#if GE__QK_AVX2
      if (isa == GE__QK_ISA_VNNI) {
        ge__qk_req_row_avx512(acc, n, bias, mult, r, y);
        continue;
      }
      if (avx2) done = ge__qk_req_row_avx2(acc, n, bias, mult, r, y);
#endif
      (void)avx2;
      ge__qk_req_row_scalar(acc + done, n - done, bias, mult, r, y + done);
    }
  }
}

/* Requantizes `planes` planes of r->plane accumulators into r->y. */
static void ge__qk_req_run(ge_kernel_ctx *c, ge__qk_req *r, int64_t planes) {
  int64_t grain = r->plane >= (1 << 14) ? 1 : (1 << 14) / (r->plane > 0 ? r->plane : 1);
  ge_kernel_parallel_for(c, planes, grain, ge__qk_req_range, r);
}

/* Scale (float32) and zero point (zt) of one QLinear operand: one element,
 * or per channel (m > 0: one per output channel); 0 when off the path. */
static int ge__qk_qlin_param(const ge_value *sc, const ge_value *zp, ge_dtype zt, int64_t m) {
  if (!sc || sc->dtype != GE_DTYPE_FLOAT32 || (sc->numel != 1 && !(m > 0 && sc->rank == 1 && sc->numel == m)))
    return 0;
  return !zp || (zp->dtype == zt && (zp->numel == 1 || (m > 0 && zp->rank == 1 && zp->numel == m)));
}

/* The requantization of a QLinear node: x scale at input 1, w's at 4, y's
 * and y's zero point at 6 and 7; m output channels (0: per tensor only). */
static int ge__qk_req_init(ge_kernel_ctx *c, const ge_value *x, const ge_value *w, int64_t m, ge__qk_req *r) {
  const ge_value *xs = ge__qk_in(c, 1), *ws = ge__qk_in(c, 4), *ys = ge__qk_in(c, 6), *yz = ge__qk_in(c, 7);
  memset(r, 0, sizeof *r);
  r->ot = yz ? yz->dtype : GE_DTYPE_UINT8;
  if (!ge__qk_is_q8(r->ot) || !ge__qk_qlin_param(xs, ge__qk_in(c, 2), x->dtype, 0) ||
      !ge__qk_qlin_param(ws, ge__qk_in(c, 5), w->dtype, m) || !ge__qk_qlin_param(ys, yz, r->ot, 0))
    return 0;
  r->xs = ((const float *)xs->data)[0];
  r->ys = ((const float *)ys->data)[0];
  r->ws = (const float *)ws->data;
  r->nws = ws->numel;
  r->zy = yz ? (float)ge__qk_get8(yz, 0) : 0.0f;
  r->lo = r->ot == GE_DTYPE_INT8 ? -128.0f : 0.0f;
  r->hi = r->ot == GE_DTYPE_INT8 ? 127.0f : 255.0f;
  return 1;
}

/* ---------------------------------------------------- MatMulInteger */

/* (A - za)(B - zb) with B [K x N] (Const: packed once) as N weight rows
 * and A's rows as columns; bi, zbi: the input indices of B and zb. rq NULL:
 * int32 output (MatMulInteger); else requantized into rq's dtype. */
static ge_status ge__qk_matmul_core(ge_kernel_ctx *c, const ge_value *A, const ge_value *B, const ge_value *za,
                                    const ge_value *zb, uint32_t bi, uint32_t zbi, ge__qk_req *rq) {
  ge__qk_state *s;
  ge__qk_igemm g;
  int64_t M, K, N, dims[GE_MAX_RANK], i, shares;
  size_t wbytes;
  uint8_t *area;
  ge_value *y;
  int32_t zav;
  if (!A || !B || !ge__qk_is_q8(A->dtype) || !ge__qk_is_q8(B->dtype) || A->rank < 2 || B->rank != 2 ||
      (za && (za->dtype != A->dtype || za->numel != 1)) ||
      (zb && (zb->dtype != B->dtype || (zb->numel != 1 && !(zb->rank == 1 && zb->dims[0] == B->dims[1])))) ||
      A->dims[A->rank - 1] != B->dims[0])
    return ge__qk_reference(c);
  if (!(s = ge__qk_state_get(c, 0, bi, zbi))) return ge_kernel_error(c, GE_ERR_NOMEM, "out of memory");
  K = B->dims[0];
  N = B->dims[1];
  M = K ? A->numel / K : 1;
  for (i = 0; i < A->rank; i++) dims[i] = A->dims[i];
  dims[A->rank - 1] = N;
  if (!(y = ge_kernel_output(c, 0, rq ? rq->ot : GE_DTYPE_INT32, A->rank, dims))) return GE_ERR_NOMEM;
  if (y->numel == 0) return GE_OK;
  if (K == 0 && !rq) {
    memset(y->data, 0, y->nbytes);
    return GE_OK;
  }
  wbytes = ge__qk_wpack_bytes(N, K);
  shares = ge__qk_shares(s->threads, M, N, K);
  if (!(area = ge__qk_iarea(c, wbytes, shares, K, rq ? (size_t)(M * N) * sizeof(int32_t) : 0)))
    return ge_kernel_error(c, GE_ERR_NOMEM, "out of memory");
  s = (ge__qk_state *)c->state;
  if (!s->w_const || s->wpacked != wbytes) {
    ge__qk_wpack(B, 1, N, zb, 0, N, K, area);
    s->wpacked = s->w_const ? wbytes : 0;
  }
  if (ge_kernel_preparing(c)) return GE_OK;
  zav = za ? ge__qk_get8(za, 0) : 0;
  memset(&g, 0, sizeof g);
  g.wpack = area;
  g.A = (const uint8_t *)A->data;
  g.C = rq ? (int32_t *)(void *)(area + wbytes + (size_t)shares * ge__qk_iscratch_bytes(K)) : (int32_t *)y->data;
  g.Mg = N, g.K = K, g.P = M, g.ldr = 1, g.ldc = N;
  g.flip = A->dtype == GE_DTYPE_INT8 ? 0x80 : 0;
  g.zx = zav + (g.flip ? 128 : 0);
  g.isa = ge__qk_isa();
  g.scratch = area + wbytes;
  g.scratch_bytes = ge__qk_iscratch_bytes(K);
  if (K == 0) memset(g.C, 0, (size_t)(M * N) * sizeof(int32_t));
  else ge__qk_igemm_run(c, &g, shares);
  if (rq) { /* per tensor: rows as planes of one channel */
    rq->acc = g.C;
    rq->y = y->data;
    rq->channels = 1;
    rq->plane = N;
    ge__qk_req_run(c, rq, M);
  }
  return GE_OK;
}

static ge_status ge__qk_matmul(ge_kernel_ctx *c) {
  return ge__qk_matmul_core(c, ge__qk_in(c, 0), ge__qk_in(c, 1), ge__qk_in(c, 2), ge__qk_in(c, 3), 1, 3, NULL);
}

/* QLinearMatMul: a 2-D Const-or-not B, per-tensor scales and zero points
 * (the reference's scope); anything else goes to the reference. */
static ge_status ge__qk_qlinear_matmul(ge_kernel_ctx *c) {
  const ge_value *A = ge__qk_in(c, 0), *B = ge__qk_in(c, 3), *za = ge__qk_in(c, 2), *zb = ge__qk_in(c, 5);
  ge__qk_req rq;
  if (!A || !B || !ge__qk_is_q8(A->dtype) || !ge__qk_is_q8(B->dtype) || !ge__qk_req_init(c, A, B, 0, &rq) ||
      (za && za->numel != 1) || (zb && zb->numel != 1))
    return ge__qk_reference(c);
  return ge__qk_matmul_core(c, A, B, za, zb, 3, 5, &rq);
}

/* ------------------------------------------------------ ConvInteger */

typedef struct ge__qk_dw {
  const void *x;
  const float *w; /* M x KH x KW, minus zero points */
  int32_t *y;
  int is_signed, zx;
  int64_t H, W, KH, KW, OH, OW, sh, sw, dh, dw, ph, pw, mult;
} ge__qk_dw;

/* yr[ow] += (x - zx) * wv for ow from o0 on, x the bytes at xr, xr + sw,
 * ...; `room` bytes can be read from xr. AVX2 for strides 1 and 2, 8
 * outputs a step; returns the first ow not done (the caller finishes). */
#if GE__QK_AVX2
__attribute__((target("avx2"))) static int64_t ge__qk_dw_row_avx2(int32_t *yr, const uint8_t *xr, int64_t o0,
                                                                  int64_t o1, int64_t sw, int is_signed, int32_t zx,
                                                                  int32_t wv, int64_t room) {
  const __m256i vz = _mm256_set1_epi32(zx), vw = _mm256_set1_epi32(wv);
  const __m128i even = _mm_setr_epi8(0, 2, 4, 6, 8, 10, 12, 14, -1, -1, -1, -1, -1, -1, -1, -1);
  const uint8_t *p = xr;
  int64_t ow = o0;
  if (sw == 1) {
    for (; ow + 8 <= o1; ow += 8, p += 8) {
      __m128i b = _mm_loadl_epi64((const __m128i *)(const void *)p);
      __m256i v = is_signed ? _mm256_cvtepi8_epi32(b) : _mm256_cvtepu8_epi32(b);
      __m256i y = _mm256_loadu_si256((const __m256i *)(const void *)(yr + ow));
      y = _mm256_add_epi32(y, _mm256_mullo_epi32(_mm256_sub_epi32(v, vz), vw));
      _mm256_storeu_si256((__m256i *)(void *)(yr + ow), y);
    }
  } else if (sw == 2) {
    for (; ow + 8 <= o1 && (ow - o0) * 2 + 16 <= room; ow += 8, p += 16) {
      __m128i b = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(const void *)p), even);
      __m256i v = is_signed ? _mm256_cvtepi8_epi32(b) : _mm256_cvtepu8_epi32(b);
      __m256i y = _mm256_loadu_si256((const __m256i *)(const void *)(yr + ow));
      y = _mm256_add_epi32(y, _mm256_mullo_epi32(_mm256_sub_epi32(v, vz), vw));
      _mm256_storeu_si256((__m256i *)(void *)(yr + ow), y);
    }
  }
  return ow;
}
#endif

#if GE__QK_AVX2
/* Bits 0..15 of m moved to the even bits 0, 2, ..., 30. */
static uint32_t ge__qk_spread_even(uint32_t m) {
  m = (m | (m << 8)) & 0x00FF00FFu;
  m = (m | (m << 4)) & 0x0F0F0F0Fu;
  m = (m | (m << 2)) & 0x33333333u;
  return (m | (m << 1)) & 0x55555555u;
}

/* One depthwise channel with horizontal stride 1 or 2 on AVX-512: 16
 * outputs a step summed over every tap in a register and stored once.
 * Taps that leave the row (the pads) and the row's tail are masked:
 * masked-off bytes are not read and their (x - zx) is 0, as a padded tap
 * in the reference. Stride 2 loads 32 bytes and keeps the even ones (the
 * low half of each 16-bit pair). wi: the KH x KW int32 weights. */
__attribute__((target("avx512f,avx512bw,avx512vl"))) static void ge__qk_dw_channel_avx512(const ge__qk_dw *d,
                                                                                          const uint8_t *xc,
                                                                                          const int32_t *wi,
                                                                                          int32_t *y) {
  const __m512i vz = _mm512_set1_epi32(d->zx);
  /* ow whose taps all read whole vectors inside the row: [in_lo, in_hi] */
  int64_t in_lo = (d->pw + d->sw - 1) / d->sw, in_hi = d->W + d->pw - (d->KW - 1) * d->dw - 16 * d->sw, oh, ow, kh, kw;
  int32_t wrow[64];
  in_hi = in_hi < 0 ? -1 : in_hi / d->sw;
  for (kh = 0; kh < d->KH; kh++) {
    uint32_t t = 0;
    for (kw = 0; kw < d->KW; kw++) t += (uint32_t)wi[kh * d->KW + kw];
    wrow[kh] = (int32_t)t;
  }
  for (oh = 0; oh < d->OH; oh++) {
    int32_t *yr = y + oh * d->OW;
    int32_t wsum = 0; /* weights of the rows inside: sum (x - zx) w = sum x w - zx wsum */
    for (kh = 0; kh < d->KH; kh++) {
      int64_t ih = oh * d->sh - d->ph + kh * d->dh;
      if (ih >= 0 && ih < d->H) wsum = (int32_t)((uint32_t)wsum + (uint32_t)wrow[kh]);
    }
    for (ow = 0; ow < d->OW; ow += 16) {
      int64_t n = d->OW - ow < 16 ? d->OW - ow : 16;
      __m512i acc = _mm512_setzero_si512();
      if (n == 16 && ow >= in_lo && ow <= in_hi) { /* every tap's 16 (or 32) bytes inside the row: no masks */
        for (kh = 0; kh < d->KH; kh++) {
          int64_t ih = oh * d->sh - d->ph + kh * d->dh;
          const uint8_t *xr;
          if (ih < 0 || ih >= d->H) continue;
          xr = xc + ih * d->W + ow * d->sw - d->pw;
          for (kw = 0; kw < d->KW; kw++) {
            __m512i v;
            if (d->sw == 1) {
              __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(xr + kw * d->dw));
              v = d->is_signed ? _mm512_cvtepi8_epi32(b) : _mm512_cvtepu8_epi32(b);
            } else {
              __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(xr + kw * d->dw));
              v = d->is_signed ? _mm512_srai_epi32(_mm512_slli_epi32(_mm512_cvtepi8_epi16(b), 16), 16)
                               : _mm512_and_si512(_mm512_cvtepu8_epi16(b), _mm512_set1_epi32(0xFFFF));
            }
            acc = _mm512_add_epi32(acc, _mm512_mullo_epi32(v, _mm512_set1_epi32(wi[kh * d->KW + kw])));
          }
        }
        acc = _mm512_sub_epi32(acc, _mm512_set1_epi32((int32_t)((uint32_t)d->zx * (uint32_t)wsum)));
        _mm512_storeu_si512((void *)(yr + ow), acc);
        continue;
      }
      for (kh = 0; kh < d->KH; kh++) {
        int64_t ih = oh * d->sh - d->ph + kh * d->dh;
        uintptr_t xr;
        if (ih < 0 || ih >= d->H) continue;
        xr = (uintptr_t)(xc + ih * d->W);
        for (kw = 0; kw < d->KW; kw++) {
          int64_t at = ow * d->sw - d->pw + kw * d->dw, lo, hi;
          __mmask16 m;
          __m512i v;
          if (d->sw == 1) {
            lo = at < 0 ? -at : 0, hi = d->W - at;
          } else { /* lanes j with at + 2 j in [0, W) */
            lo = at < 0 ? (1 - at) / 2 : 0, hi = d->W - at <= 0 ? 0 : (d->W - at + 1) / 2;
          }
          if (hi > n) hi = n;
          if (lo >= hi) continue;
          m = (__mmask16)((((uint32_t)1 << hi) - 1) & ~(((uint32_t)1 << lo) - 1));
          if (d->sw == 1) { /* lanes before the row: masked, not read */
            __m128i b = _mm_maskz_loadu_epi8(m, (const void *)(xr + (uintptr_t)at));
            v = d->is_signed ? _mm512_cvtepi8_epi32(b) : _mm512_cvtepu8_epi32(b);
          } else {
            __m256i b = _mm256_maskz_loadu_epi8(ge__qk_spread_even(m), (const void *)(xr + (uintptr_t)at));
            v = d->is_signed ? _mm512_srai_epi32(_mm512_slli_epi32(_mm512_cvtepi8_epi16(b), 16), 16)
                             : _mm512_and_si512(_mm512_cvtepu8_epi16(b), _mm512_set1_epi32(0xFFFF));
          }
          acc = _mm512_add_epi32(acc, _mm512_mullo_epi32(_mm512_maskz_sub_epi32(m, v, vz),
                                                         _mm512_set1_epi32(wi[kh * d->KW + kw])));
        }
      }
      _mm512_mask_storeu_epi32((void *)(yr + ow), (__mmask16)(((uint32_t)1 << n) - 1), acc);
    }
  }
}
#endif

/* Depthwise on AVX512-VNNI + VBMI, int8 weights (w - zw fits int8) and
 * any stride and dilation with 15 sw + (KW - 1) dw < 64, KW <= 16: each
 * channel is first copied into a plane padded with the raw zero point
 * (so a padded tap gives x - zx = 0, as in the reference; no masks
 * inside), then 16 outputs a step: per kernel row one 64-byte load, and
 * per four taps one vpermb gathering each lane's four bytes and one
 * vpdpbusd (u8 x s8, four products summed in int32, exact). int8 x is
 * flipped to x + 128 (zero point alike); the zero point comes off once:
 * sum (x - zx) w = sum x w - zx sum w, wrapping as the reference. */
typedef struct ge__qk_dwv {
  const ge__qk_dw *d;
  const int8_t *w8;     /* M x KH x KW */
  uint8_t *scratch;     /* per share: a padded plane */
  size_t plane_bytes;   /* per share, 64-aligned */
  int64_t Hp, Wp, M, per_share;
} ge__qk_dwv;

/* 1 when ge__qk_dw_vnni_share can run d (given int8 weights). */
static int ge__qk_dw_vnni_ok(const ge__qk_dw *d) {
#if GE__QK_AVX2
  return ge__qk_isa() == GE__QK_ISA_VNNI && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512vbmi") && d->KW <= 16 &&
         15 * d->sw + (d->KW - 1) * d->dw < 64 && d->KH <= 64;
#else
  (void)d;
  return 0;
#endif
}

#if GE__QK_AVX2
__attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni,avx512vbmi"))) static void
ge__qk_dw_channel_vnni(const ge__qk_dwv *v, const uint8_t *xc, const int8_t *wc, uint8_t *pad, int32_t *y) {
  const ge__qk_dw *d = v->d;
  const int64_t Wp = v->Wp, groups = (d->KW + 3) / 4;
  const uint8_t zraw = (uint8_t)d->zx;
  const int32_t zxp = d->zx + (d->is_signed ? 128 : 0);
  const __m512i flip = _mm512_set1_epi8(d->is_signed ? (char)0x80 : 0);
  __m512i idx[4];
  int32_t wq[64 * 4], wsum = 0;
  uint8_t ib[64];
  int64_t r, j, i, g, kh, kw, oh, ow;
  for (r = 0; r < v->Hp; r++) { /* the padded plane */
    uint8_t *row = pad + r * Wp;
    int64_t ih = r - d->ph;
    if (ih < 0 || ih >= d->H) {
      memset(row, zraw, (size_t)Wp);
      continue;
    }
    memset(row, zraw, (size_t)d->pw);
    memcpy(row + d->pw, xc + ih * d->W, (size_t)d->W);
    memset(row + d->pw + d->W, zraw, (size_t)(Wp - d->pw - d->W));
  }
  memset(pad + v->Hp * Wp, zraw, 64); /* the tail of the last loads */
  for (g = 0; g < groups; g++) { /* lane j, byte i: tap 4 g + i of output j */
    for (j = 0; j < 16; j++)
      for (i = 0; i < 4; i++) ib[4 * j + i] = (uint8_t)(j * d->sw + (4 * g + i < d->KW ? (4 * g + i) * d->dw : 0));
    idx[g] = _mm512_loadu_si512((const void *)ib);
  }
  for (kh = 0; kh < d->KH; kh++)
    for (g = 0; g < groups; g++) {
      uint32_t q = 0;
      for (i = 0; i < 4; i++) {
        kw = 4 * g + i;
        if (kw < d->KW) {
          q |= (uint32_t)(uint8_t)wc[kh * d->KW + kw] << (8 * i);
          wsum += wc[kh * d->KW + kw];
        }
      }
      wq[kh * groups + g] = (int32_t)q;
    }
  for (oh = 0; oh < d->OH; oh++) {
    const uint8_t *base = pad + oh * d->sh * Wp;
    int32_t *yr = y + oh * d->OW;
    for (ow = 0; ow < d->OW; ow += 16) {
      int64_t n = d->OW - ow < 16 ? d->OW - ow : 16;
      __m512i acc = _mm512_set1_epi32((int32_t)(0u - (uint32_t)zxp * (uint32_t)wsum));
      for (kh = 0; kh < d->KH; kh++) {
        __m512i x = _mm512_xor_si512(_mm512_loadu_si512((const void *)(base + kh * d->dh * Wp + ow * d->sw)), flip);
        for (g = 0; g < groups; g++)
          acc = _mm512_dpbusd_epi32(acc, _mm512_permutexvar_epi8(idx[g], x), _mm512_set1_epi32(wq[kh * groups + g]));
      }
      if (n == 16) _mm512_storeu_si512((void *)(yr + ow), acc);
      else _mm512_mask_storeu_epi32((void *)(yr + ow), (__mmask16)(((uint32_t)1 << n) - 1), acc);
    }
  }
}
#endif

/* Share t of the channels, on its own padded plane. */
static void ge__qk_dw_vnni_share(void *arg, int64_t b, int64_t e) {
#if GE__QK_AVX2
  const ge__qk_dwv *v = (const ge__qk_dwv *)arg;
  const ge__qk_dw *d = v->d;
  int64_t t, m;
  for (t = b; t < e; t++) {
    int64_t m1 = (t + 1) * v->per_share < v->M ? (t + 1) * v->per_share : v->M;
    for (m = t * v->per_share; m < m1; m++)
      ge__qk_dw_channel_vnni(v, (const uint8_t *)d->x + m / d->mult * d->H * d->W, v->w8 + m * d->KH * d->KW,
                             v->scratch + (size_t)t * v->plane_bytes, d->y + m * d->OH * d->OW);
  }
#else
  (void)arg, (void)b, (void)e;
#endif
}

/* Depthwise: output channels [b, e) of one image, direct in int32. */
static void ge__qk_dw_range(void *arg, int64_t b, int64_t e) {
  const ge__qk_dw *d = (const ge__qk_dw *)arg;
  int64_t m, kh, kw, oh, ow;
  int avx2 = ge__qk_avx2();
#if GE__QK_AVX2
  if (d->sw <= 2 && d->KH * d->KW <= 64 && ge__qk_isa() == GE__QK_ISA_VNNI && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512vl")) {
    int32_t wi[64];
    for (m = b; m < e; m++) {
      for (kh = 0; kh < d->KH * d->KW; kh++) wi[kh] = (int32_t)d->w[m * d->KH * d->KW + kh];
      ge__qk_dw_channel_avx512(d, (const uint8_t *)d->x + m / d->mult * d->H * d->W, wi, d->y + m * d->OH * d->OW);
    }
    return;
  }
#endif
  (void)avx2;
  for (m = b; m < e; m++) {
    int64_t ci = m / d->mult;
    int32_t *y = d->y + m * d->OH * d->OW;
    const uint8_t *xu = (const uint8_t *)d->x + ci * d->H * d->W;
    const int8_t *xs = (const int8_t *)d->x + ci * d->H * d->W;
    memset(y, 0, (size_t)(d->OH * d->OW) * sizeof *y);
    for (kh = 0; kh < d->KH; kh++)
      for (kw = 0; kw < d->KW; kw++) {
        int32_t wv = (int32_t)d->w[(m * d->KH + kh) * d->KW + kw];
        int64_t o0, o1; /* ow with iw in [0, W) */
        int64_t base = kw * d->dw - d->pw;
        if (wv == 0) continue;
        o0 = base >= 0 ? 0 : (-base + d->sw - 1) / d->sw;
        o1 = d->W - 1 - base < 0 ? 0 : (d->W - 1 - base) / d->sw + 1;
        if (o1 > d->OW) o1 = d->OW;
        for (oh = 0; oh < d->OH; oh++) {
          int64_t ih = oh * d->sh - d->ph + kh * d->dh;
          int32_t *yr = y + oh * d->OW;
          if (ih < 0 || ih >= d->H) continue;
          ow = o0;
#if GE__QK_AVX2
          if (avx2 && o0 < o1)
            ow = ge__qk_dw_row_avx2(yr, xu + ih * d->W + base + o0 * d->sw, o0, o1, d->sw, d->is_signed,
                                    d->zx, wv, d->W - (base + o0 * d->sw));
#endif
          if (d->is_signed) {
            const int8_t *xr = xs + ih * d->W;
            for (; ow < o1; ow++) yr[ow] += ((int32_t)xr[ow * d->sw + base] - d->zx) * wv;
          } else {
            const uint8_t *xr = xu + ih * d->W;
            for (; ow < o1; ow++) yr[ow] += ((int32_t)xr[ow * d->sw + base] - d->zx) * wv;
          }
        }
      }
  }
}


/* Output size and leading pad along one dim (0 when none fits). */
static int64_t ge__qk_out_dim(int ap, int64_t in, int64_t k, int64_t s, int64_t d, int64_t pb, int64_t pe,
                              int64_t *lead) {
  int64_t eff = (k - 1) * d + 1, out, total;
  if (ap == 0) {
    *lead = pb;
    total = in + pb + pe - eff;
    return total < 0 ? 0 : total / s + 1;
  }
  if (ap == 3) {
    *lead = 0;
    return in - eff < 0 ? 0 : (in - eff) / s + 1;
  }
  out = (in + s - 1) / s;
  total = (out - 1) * s + eff - in;
  if (total < 0) total = 0;
  *lead = ap == 1 ? total / 2 : total - total / 2;
  return out;
}

/* planes (image, output channel) of acc requantized into y. */
static ge_status ge__qk_conv_requant(ge_kernel_ctx *c, ge__qk_req *rq, const int32_t *acc, ge_value *y,
                                     int64_t planes) {
  rq->acc = acc;
  rq->y = y->data;
  rq->channels = planes / y->dims[0];
  rq->plane = y->numel / planes;
  ge__qk_req_run(c, rq, planes);
  return GE_OK;
}

/* A stride-1 conv's image padded with the raw zero point into Cg planes
 * of Hp x Wp (then Wp + 64 bytes of it), and the offset of each tap. */
static void ge__qk_pad_image(const ge__qk_conv *v, int64_t Hp, int64_t Wp, uint8_t zx, uint8_t *xp, int32_t *koff) {
  int64_t ci, r, kh, kw, k = 0;
  for (ci = 0; ci < v->Cg; ci++)
    for (r = 0; r < Hp; r++) {
      uint8_t *row = xp + (ci * Hp + r) * Wp;
      int64_t ih = r - v->ph;
      if (ih < 0 || ih >= v->H) {
        memset(row, zx, (size_t)Wp);
        continue;
      }
      memset(row, zx, (size_t)v->pw);
      memcpy(row + v->pw, v->x + (ci * v->H + ih) * v->W, (size_t)v->W);
      memset(row + v->pw + v->W, zx, (size_t)(Wp - v->pw - v->W));
    }
  memset(xp + v->Cg * Hp * Wp, zx, (size_t)Wp + 64);
  for (ci = 0; ci < v->Cg; ci++)
    for (kh = 0; kh < v->KH; kh++)
      for (kw = 0; kw < v->KW; kw++) koff[k++] = (int32_t)(ci * Hp * Wp + kh * v->dh * Wp + kw * v->dw);
}

/* ConvInteger but depthwise on the integer GEMM: weights packed once
 * (Const) per group into the state, image strips packed per share.
 * Stride 1 (in planes under 2^31 bytes) runs on the padded image with
 * rows Wp wide (a pointwise conv without pads on the image itself: full
 * strips then read inside it, the last one stops at P): the accumulators
 * come out Wp apart (acc_row) and are compacted by the requantization,
 * or by the caller for ConvInteger. */
static ge_status ge__qk_conv_gemm(ge_kernel_ctx *c, ge__qk_state *s, const ge_value *x, const ge_value *w,
                                  const ge_value *zw, int32_t zx, int64_t Mg, int64_t Kg, const int64_t *ydims,
                                  size_t tail, int32_t **acc, int64_t *acc_row) {
  int32_t *y, *koff = NULL;
  size_t gbytes = ge__qk_wpack_bytes(Mg, Kg), wbytes = gbytes * (size_t)s->group, flat_bytes = 0, extra = 0;
  int one_d = x->rank == 3;
  int64_t H = one_d ? 1 : x->dims[2], W = x->dims[x->rank - 1], Cg = x->dims[1] / s->group;
  int64_t KH = one_d ? 1 : w->dims[2], KW = w->dims[w->rank - 1];
  int64_t OH = one_d ? 1 : ydims[2], OW = ydims[x->rank - 1], P = OH * OW, n, gi, m;
  int64_t Hp = H + s->lead[0], Wp = W + s->lead[1], Pf = P;
  int flat = s->s[0] == 1 && s->s[1] == 1;
  int64_t shares;
  uint8_t *area, *xp = NULL;
  if (flat) {
    if (Hp < OH + (KH - 1) * s->d[0]) Hp = OH + (KH - 1) * s->d[0];
    if (Wp < OW + (KW - 1) * s->d[1]) Wp = OW + (KW - 1) * s->d[1];
    flat = Cg * Hp * Wp + Wp < ((int64_t)1 << 31);
    Pf = OH * Wp;
  }
  if (flat) {
    flat_bytes = (size_t)(x->dims[0] * x->dims[1] / Cg * Mg * Pf) * sizeof(int32_t); /* N M Pf accumulators */
    extra = (((size_t)(Cg * Hp * Wp + Wp) + 64 + 63) & ~(size_t)63) + (size_t)Kg * sizeof(int32_t);
    tail = flat_bytes;
  }
  shares = ge__qk_shares(s->threads, Pf, Mg, Kg);
  if (!(area = ge__qk_iarea(c, wbytes, shares, Kg, tail + extra)))
    return ge_kernel_error(c, GE_ERR_NOMEM, "out of memory");
  s = (ge__qk_state *)c->state;
  y = tail ? (*acc = (int32_t *)(void *)(area + wbytes + (size_t)shares * ge__qk_iscratch_bytes(Kg)))
           : (int32_t *)c->outputs[0]->data;
  if (flat) {
    xp = (uint8_t *)y + tail;
    koff = (int32_t *)(void *)(xp + (((size_t)(Cg * Hp * Wp + Wp) + 64 + 63) & ~(size_t)63));
  }
  if (!s->w_const || s->wpacked != wbytes) {
    for (gi = 0; gi < s->group; gi++) ge__qk_wpack(w, Kg, 1, zw, gi * Mg, Mg, Kg, area + (size_t)gi * gbytes);
    s->wpacked = s->w_const ? wbytes : 0;
  }
  if (ge_kernel_preparing(c)) return GE_OK;
  for (n = 0; n < x->dims[0]; n++)
    for (gi = 0; gi < s->group; gi++) {
      ge__qk_conv v;
      ge__qk_igemm g;
      v.x = (const uint8_t *)x->data + (n * x->dims[1] + gi * Cg) * H * W;
      v.H = H, v.W = W, v.Cg = Cg, v.KH = KH, v.KW = KW, v.OW = OW;
      v.sh = s->s[0], v.sw = s->s[1], v.dh = s->d[0], v.dw = s->d[1], v.ph = s->lead[0], v.pw = s->lead[1];
      memset(&g, 0, sizeof g);
      g.wpack = area + (size_t)gi * gbytes;
      g.conv = &v;
      g.C = y + (n * s->group + gi) * Mg * Pf;
      g.Mg = Mg, g.K = Kg, g.P = Pf, g.ldr = Pf, g.ldc = 1;
      g.flip = x->dtype == GE_DTYPE_INT8 ? 0x80 : 0;
      g.zx_raw = (uint8_t)zx;
      g.zx = zx + (g.flip ? 128 : 0);
      g.isa = ge__qk_isa();
      g.scratch = area + wbytes;
      g.scratch_bytes = ge__qk_iscratch_bytes(Kg);
      if (flat && KH == 1 && KW == 1 && Hp == H && Wp == W) { /* pointwise, no pads: the image as it is */
        for (m = 0; m < Cg; m++) koff[m] = (int32_t)(m * H * W);
        g.flat = v.x, g.koff = koff;
      } else if (flat) {
        ge__qk_pad_image(&v, Hp, Wp, g.zx_raw, xp, koff);
        g.flat = xp, g.koff = koff;
      }
      ge__qk_igemm_run(c, &g, shares);
    }
  *acc_row = flat ? Wp : 0;
  return GE_OK;
}

/* Rows of `row` int32 at acc, acc_row apart, packed into y (planes of
 * `rows` rows). */
static void ge__qk_compact(const int32_t *acc, int64_t acc_row, int64_t row, int64_t rows, int64_t planes,
                           int32_t *y) {
  int64_t p, r;
  for (p = 0; p < planes; p++)
    for (r = 0; r < rows; r++) memcpy(y + (p * rows + r) * row, acc + (p * rows + r) * acc_row, (size_t)row * sizeof *y);
}

static ge_status ge__qk_conv_dw(ge_kernel_ctx *c, const ge_value *x, const ge_value *w, const ge_value *zw,
                                int32_t zx, ge__qk_req *rq, ge_value *y, const int64_t *dims, int64_t lead_h,
                                int64_t lead_w, size_t tail);

/* (x - zx) conv (w - zw): wi, zwi the input indices of w and zw. rq NULL:
 * int32 output (ConvInteger); else int32 accumulators in the state's area
 * requantized per output channel with rq's bias into rq's dtype. */
static ge_status ge__qk_conv_core(ge_kernel_ctx *c, const ge_value *x, const ge_value *w, const ge_value *zxv,
                                  const ge_value *zw, uint32_t wi, uint32_t zwi, ge__qk_req *rq) {
  ge__qk_state *s;
  int64_t N, C, H, W, M, Cg, Mg, KH, KW, OH, OW, lead_h, lead_w, dims[4];
  int32_t zx, *acc = NULL;
  int one_d;
  size_t tail;
  ge_value *y;
  ge_status st;
  if (!x || !w || !ge__qk_is_q8(x->dtype) || !ge__qk_is_q8(w->dtype) || (x->rank != 4 && x->rank != 3) ||
      w->rank != x->rank || (zxv && (zxv->dtype != x->dtype || zxv->numel != 1)) ||
      (zw && (zw->dtype != w->dtype || (zw->numel != 1 && !(zw->rank == 1 && zw->dims[0] == w->dims[0])))))
    return ge__qk_reference(c);
  one_d = x->rank == 3;
  if (!(s = ge__qk_state_get(c, one_d ? 1 : 2, wi, zwi))) return ge_kernel_error(c, GE_ERR_NOMEM, "out of memory");
  if (s->attrs_ok != (one_d ? 1 : 2)) return ge__qk_reference(c);
  N = x->dims[0];
  C = x->dims[1];
  H = one_d ? 1 : x->dims[2];
  W = x->dims[x->rank - 1];
  M = w->dims[0];
  KH = one_d ? 1 : w->dims[2];
  KW = w->dims[w->rank - 1];
  if (C % s->group || M % s->group || w->dims[1] * s->group != C || KH < 1 || KW < 1) return ge__qk_reference(c);
  if (s->n_ks > 0 && (s->ks[1] != KW || (!one_d && s->ks[0] != KH))) return ge__qk_reference(c);
  Cg = C / s->group;
  Mg = M / s->group;
  OH = ge__qk_out_dim(s->auto_pad, H, KH, s->s[0], s->d[0], s->pads[0], s->pads[2], &lead_h);
  OW = ge__qk_out_dim(s->auto_pad, W, KW, s->s[1], s->d[1], s->pads[1], s->pads[3], &lead_w);
  if (OH < 1 || OW < 1) return ge__qk_reference(c);
  s->lead[0] = lead_h;
  s->lead[1] = lead_w;
  dims[0] = N;
  dims[1] = M;
  dims[2] = one_d ? OW : OH;
  dims[3] = OW;
  if (rq && (rq->nws != 1 && rq->nws != M)) return ge__qk_reference(c);
  if (!(y = ge_kernel_output(c, 0, rq ? rq->ot : GE_DTYPE_INT32, x->rank, dims))) return GE_ERR_NOMEM;
  if (y->numel == 0) return GE_OK;
  zx = zxv ? ge__qk_get8(zxv, 0) : 0;
  tail = rq ? (size_t)y->numel * sizeof(int32_t) : 0;
  if (Cg != 1 || s->group == 1) {
    int64_t acc_row = 0;
    if ((st = ge__qk_conv_gemm(c, s, x, w, zw, zx, Mg, Cg * KH * KW, dims, tail, &acc, &acc_row)) != GE_OK ||
        ge_kernel_preparing(c))
      return st;
    if (rq) {
      rq->acc_row = acc_row, rq->acc_plane = OH * acc_row, rq->row = OW;
      return ge__qk_conv_requant(c, rq, acc, y, N * M);
    }
    if (acc_row) ge__qk_compact(acc, acc_row, OW, OH, N * M, (int32_t *)y->data);
    return GE_OK;
  }
  return ge__qk_conv_dw(c, x, w, zw, zx, rq, y, dims, lead_h, lead_w, tail);
}

/* Depthwise (one input channel per group): direct, in int32; on
 * AVX512-VNNI when the weights minus their zero points fit int8. */
static ge_status ge__qk_conv_dw(ge_kernel_ctx *c, const ge_value *x, const ge_value *w, const ge_value *zw,
                                int32_t zx, ge__qk_req *rq, ge_value *y, const int64_t *dims, int64_t lead_h,
                                int64_t lead_w, size_t tail) {
  ge__qk_state *s = (ge__qk_state *)c->state;
  int64_t N = x->dims[0], C = x->dims[1], H = x->rank == 3 ? 1 : x->dims[2], W = x->dims[x->rank - 1];
  int64_t M = w->dims[0], KH = x->rank == 3 ? 1 : w->dims[2], KW = w->dims[w->rank - 1];
  int64_t OH = x->rank == 3 ? 1 : dims[2], OW = dims[3], KK = M * KH * KW, wf_floats = (KK + 15) & ~(int64_t)15;
  int64_t w8_floats = (KK / 4 + 16) & ~(int64_t)15, n, k;
  int64_t Hp = H + lead_h, Wp = W + lead_w, shares = s->threads < M ? s->threads : M;
  size_t plane_bytes;
  float *Wf;
  int32_t *acc = NULL;
  int8_t *w8;
  ge__qk_dw d;
  d.is_signed = x->dtype == GE_DTYPE_INT8;
  d.zx = zx;
  d.H = H, d.W = W, d.KH = KH, d.KW = KW, d.OH = OH, d.OW = OW;
  d.sh = s->s[0], d.sw = s->s[1], d.dh = s->d[0], d.dw = s->d[1], d.ph = lead_h, d.pw = lead_w;
  d.mult = M / C;
  if (Hp < (OH - 1) * d.sh + (KH - 1) * d.dh + 1) Hp = (OH - 1) * d.sh + (KH - 1) * d.dh + 1;
  if (Wp < (OW - 1) * d.sw + (KW - 1) * d.dw + 1) Wp = (OW - 1) * d.sw + (KW - 1) * d.dw + 1;
  plane_bytes = ((size_t)(Hp * Wp) + 64 + 63) & ~(size_t)63;
  if (!(Wf = ge__qk_grow(c, (size_t)(wf_floats + w8_floats) + tail / sizeof(float) +
                                (size_t)shares * plane_bytes / sizeof(float) + 16)))
    return ge_kernel_error(c, GE_ERR_NOMEM, "out of memory");
  s = (ge__qk_state *)c->state;
  w8 = (int8_t *)(void *)(Wf + wf_floats);
  if (rq) acc = (int32_t *)(void *)(Wf + wf_floats + w8_floats);
  if (!s->w_const || s->wfloats != (size_t)KK) {
    ge__qk_load_w(w, zw, M, KH * KW, Wf);
    s->dw_s8 = 1;
    for (k = 0; k < KK; k++) {
      s->dw_s8 &= Wf[k] >= -128.0f && Wf[k] <= 127.0f;
      w8[k] = (int8_t)(Wf[k] >= -128.0f && Wf[k] <= 127.0f ? (int)Wf[k] : 0);
    }
    s->wfloats = s->w_const ? (size_t)KK : 0;
  }
  if (ge_kernel_preparing(c)) return GE_OK;
  if (s->dw_s8 && ge__qk_dw_vnni_ok(&d)) {
    ge__qk_dwv v;
    uintptr_t planes = (uintptr_t)(Wf + wf_floats + w8_floats) + tail;
    v.d = &d, v.w8 = w8, v.Hp = Hp, v.Wp = Wp, v.M = M, v.plane_bytes = plane_bytes;
    v.scratch = (uint8_t *)((planes + 63) & ~(uintptr_t)63);
    v.per_share = (M + shares - 1) / shares;
    shares = (M + v.per_share - 1) / v.per_share;
    for (n = 0; n < N; n++) {
      d.x = (const uint8_t *)x->data + n * C * H * W;
      d.y = (rq ? acc : (int32_t *)y->data) + n * M * OH * OW;
      ge_kernel_parallel_for(c, shares, 1, ge__qk_dw_vnni_share, &v);
    }
    return rq ? ge__qk_conv_requant(c, rq, acc, y, N * M) : GE_OK;
  }
  for (n = 0; n < N; n++) {
    d.x = (const uint8_t *)x->data + n * C * H * W;
    d.w = Wf;
    d.y = (rq ? acc : (int32_t *)y->data) + n * M * OH * OW;
    ge_kernel_parallel_for(c, M, 4, ge__qk_dw_range, &d);
  }
  return rq ? ge__qk_conv_requant(c, rq, acc, y, N * M) : GE_OK;
}

static ge_status ge__qk_conv_kernel(ge_kernel_ctx *c) {
  return ge__qk_conv_core(c, ge__qk_in(c, 0), ge__qk_in(c, 1), ge__qk_in(c, 2), ge__qk_in(c, 3), 1, 3, NULL);
}

/* QLinearConv: x, x_scale, x_zero_point, w, w_scale, w_zero_point,
 * y_scale, y_zero_point, B (int32, one per output channel). */
static ge_status ge__qk_qlinear_conv(ge_kernel_ctx *c) {
  const ge_value *x = ge__qk_in(c, 0), *w = ge__qk_in(c, 3), *b = ge__qk_in(c, 8);
  ge__qk_req rq;
  if (!x || !w || !ge__qk_is_q8(x->dtype) || !ge__qk_is_q8(w->dtype) || w->rank < 1 ||
      !ge__qk_req_init(c, x, w, w->dims[0], &rq) || (b && (b->dtype != GE_DTYPE_INT32 || b->numel != w->dims[0])))
    return ge__qk_reference(c);
  rq.bias = b ? (const int32_t *)b->data : NULL;
  return ge__qk_conv_core(c, x, w, ge__qk_in(c, 2), ge__qk_in(c, 5), 3, 5, &rq);
}

/* ------------------------------------------------------------ table */

/* 1 when every input but the first (the activations) comes from a Const:
 * then a prepare call may read scales and zero points and pack the
 * weights; otherwise it parses the attributes only. */
static int ge__qk_all_params_const(const ge_kernel_ctx *c) {
  uint32_t i;
  for (i = 1; i < c->num_inputs; i++)
    if (c->inputs[i] && !ge__qk_const_input(c, i)) return 0;
  return 1;
}

/* The integer products' prepare call at load (GE_KERNEL_PREPARE): the
 * kernel itself, which packs the weights and reserves its area, when its
 * parameters are Const; else the attributes alone. */
static ge_status ge__qk_prepare(ge_kernel_ctx *c) {
  ge_kernel_fn fn = ge_quant_fast_kernel(c->node);
  const ge_value *x = ge__qk_in(c, 0);
  int conv = c->node->op[0] == 'C' || !strcmp(c->node->op, "QLinearConv");
  uint32_t wi = c->node->op[0] == 'Q' ? 3 : 1, zwi = c->node->op[0] == 'Q' ? 5 : 3;
  if (ge__qk_all_params_const(c)) return fn(c);
  if (!ge__qk_state_get(c, conv && x ? (x->rank == 3 ? 1 : 2) : 0, wi, zwi))
    return ge_kernel_error(c, GE_ERR_NOMEM, "out of memory");
  return GE_OK;
}

GE_API ge_kernel_fn ge_quant_fast_prepare(const ge_node *n) {
  ge_kernel_fn fn = ge_quant_fast_kernel(n);
  return fn == ge__qk_conv_kernel || fn == ge__qk_qlinear_conv || fn == ge__qk_matmul || fn == ge__qk_qlinear_matmul
             ? ge__qk_prepare
             : NULL;
}

GE_API ge_kernel_fn ge_quant_fast_kernel(const ge_node *n) {
  if (!n || !ge_node_in_onnx_domain(n)) return NULL;
  switch (n->op[0]) {
  case 'C': return !strcmp(n->op, "ConvInteger") ? ge__qk_conv_kernel : NULL;
  case 'D':
    if (!strcmp(n->op, "DynamicQuantizeLinear")) return ge__qk_dql;
    return !strcmp(n->op, "DequantizeLinear") ? ge__qk_dequantize : NULL;
  case 'M': return !strcmp(n->op, "MatMulInteger") ? ge__qk_matmul : NULL;
  case 'Q':
    if (!strcmp(n->op, "QLinearConv")) return ge__qk_qlinear_conv;
    if (!strcmp(n->op, "QLinearMatMul")) return ge__qk_qlinear_matmul;
    return !strcmp(n->op, "QuantizeLinear") ? ge__qk_quantize : NULL;
  default: return NULL;
  }
}

#ifdef __cplusplus
}
#endif
#endif /* GE_QUANT_KERNELS_IMPLEMENTATION_DONE */
#endif /* GE_QUANT_KERNELS_IMPLEMENTATION */

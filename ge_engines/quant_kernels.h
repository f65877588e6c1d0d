/* ge_engines/quant_kernels.h — fast kernels for dynamically quantized
 * (int8 / uint8) models.
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
 *   - integer products run on the float32 SGEMM of ai_core.h with the
 *     zero points subtracted, which is exact while every partial sum stays
 *     below 2^24 in magnitude. The kernel bounds the sums from the largest
 *     |x - zx| and |w - zw| and splits K into chunks under the bound
 *     (K <= 258 in the worst case of 255 x 255), adding the chunks in
 *     int32. Depthwise ConvInteger (one input channel per group) runs as a
 *     direct int32 kernel instead.
 *
 * Const weights (and their zero points) are converted to float once, into
 * the kernel's state; scratch (im2col columns, SGEMM work per thread) lives
 * there too, grown once. Work is split with ge_kernel_parallel_for (GEMM
 * columns, channels). SIMD (AVX2, for DynamicQuantizeLinear and
 * QuantizeLinear) is chosen at run time with __builtin_cpu_supports and a
 * target attribute (no -march); the scalar fallback gives the same bits
 * (define GE_QUANT_NO_SIMD to force it). ConvInteger with uint8 input runs
 * on AVX512-VNNI (vpdpbusd, exact int32 sums) where the CPU has it
 * (GE_QUANT_NO_VNNI: the float path).
 *
 * Include after (or instead of) ge_graph.h; define
 * GE_QUANT_KERNELS_IMPLEMENTATION (or GE_IMPLEMENTATION) in one translation
 * unit; the implementations of host_cpu.h and ai_core.h must be compiled
 * too. Thread safety: no state outside the kernel context.
 */
#ifndef GE_ENGINE_QUANT_KERNELS_H
#define GE_ENGINE_QUANT_KERNELS_H

#include "ge_graph.h"
#include "host_cpu.h"
#include "ai_core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A fast kernel for the quantization node n, or NULL (use the reference). */
GE_API ge_kernel_fn ge_quant_fast_kernel(const ge_node *n);

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

/* Exact sums of products below this magnitude (float32 integers). */
#define GE__QK_EXACT 16777216.0

static ge_status ge__qk_reference(ge_kernel_ctx *c) {
  ge_kernel_fn ref = ge_host_cpu_kernel(c->node);
  return ref ? ref(c) : ge_kernel_error(c, GE_ERR_UNSUPPORTED, "no reference kernel for %s", c->node->op);
}

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
  fscale = (float)(((double)mx - (double)mn) / 255.0);
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

static void ge__qk_dequant_range(void *arg, int64_t b, int64_t e) {
  const ge__qk_djob *j = (const ge__qk_djob *)arg;
  int64_t i;
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

/* Kernel state: this header, then the float weights (w - zw) packed once
 * when Const, then scratch. One block (the executor frees it). */
typedef struct ge__qk_state {
  size_t cap;           /* bytes after the header */
  size_t wfloats;       /* floats of the packed weights (0: none yet) */
  int w_const;          /* weights and their zero points are Const */
  int threads;          /* shares a GEMM is split into */
  float wmax;           /* max |w - zw| of the packed weights */
  /* ConvInteger attributes */
  int64_t group, s[2], d[2], pads[4];
  int auto_pad; /* 0 NOTSET, 1 SAME_UPPER, 2 SAME_LOWER, 3 VALID, -1 other */
  int attrs_ok; /* the spatial rank the attributes were read for; 0: bad */
  int64_t lead[2]; /* leading pads of the last run (H, W) */
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

static ge__qk_state *ge__qk_state_get(ge_kernel_ctx *c, int conv) {
  ge__qk_state *s = (ge__qk_state *)c->state;
  if (s) return s;
  if (!(s = (ge__qk_state *)calloc(1, sizeof *s))) return NULL;
  s->w_const = ge__qk_const_input(c, 1) && ge__qk_const_input(c, 3);
  s->threads = c->env && c->env->num_threads > 1 ? c->env->num_threads : 1;
  if (s->threads > 64) s->threads = 64;
  if (conv) { /* conv: spatial rank (1 or 2) */
    const char *ap = ge_node_attr_string(c->node, "auto_pad", "NOTSET");
    const int64_t *kv = NULL;
    int32_t nk = ge_node_attr_ints(c->node, "kernel_shape", &kv);
    int64_t v[4];
    int sp = conv;
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

/* Largest |v - z| over the values a uint8 / int8 tensor can hold. */
static float ge__qk_span(ge_dtype t, int32_t z) {
  int32_t lo = t == GE_DTYPE_INT8 ? -128 : 0, hi = t == GE_DTYPE_INT8 ? 127 : 255;
  int32_t a = z - lo, b = hi - z;
  return (float)(a > b ? a : b);
}

/* The K chunk under which sums of products stay exact in float32. */
static int64_t ge__qk_kchunk(float amax, float bmax, int64_t K) {
  double per = (double)amax * (double)bmax;
  int64_t kc = per > 0 ? (int64_t)((GE__QK_EXACT - 1) / per) : K;
  if (kc < 1) kc = 1;
  return kc < K ? kc : (K > 0 ? K : 1);
}

/* Weights w (M rows of K) minus zero points (zw: NULL, one, or M) into
 * out as float; returns max |w - zw|. */
static float ge__qk_load_w(const ge_value *w, const ge_value *zw, int64_t M, int64_t K, float *out) {
  float mx = 0;
  int64_t m, k;
  for (m = 0; m < M; m++) {
    int32_t z = zw ? ge__qk_get8(zw, zw->numel == 1 ? 0 : m) : 0;
    for (k = 0; k < K; k++) {
      float v = (float)(ge__qk_get8(w, m * K + k) - z);
      out[m * K + k] = v;
      if (fabsf(v) > mx) mx = fabsf(v);
    }
  }
  return mx;
}

/* One GEMM C[M x N] (int32, row stride ldc) = A[M x K] (float, lda)
 * times B[K x N] (float, ldb), split over columns; K in exact chunks. */
typedef struct ge__qk_gemm {
  int64_t M, N, K, kc, lda, ldb, ldc, share;
  const float *A, *B;
  float *tmp;   /* M x N float (row stride N) */
  int32_t *C;
  char *work;   /* per share */
  size_t work_bytes;
  /* im2col source for ConvInteger (NULL: B is given) */
  const struct ge__qk_conv *conv;
} ge__qk_gemm;

typedef struct ge__qk_conv {
  const void *x; /* one image, one group: C_g planes of H x W */
  int is_signed;
  float zx;
  int64_t H, W, KH, KW, OH, OW, sh, sw, dh, dw, ph, pw, Cg;
  float *col; /* K x N */
} ge__qk_conv;

/* Columns [p0, p1) of the im2col matrix (row stride OH * OW) as float. */
static void ge__qk_im2col(const ge__qk_conv *v, int64_t p0, int64_t p1) {
  int64_t N = v->OH * v->OW, ci, kh, kw;
  const uint8_t *xu = (const uint8_t *)v->x;
  const int8_t *xs = (const int8_t *)v->x;
  for (ci = 0; ci < v->Cg; ci++)
    for (kh = 0; kh < v->KH; kh++)
      for (kw = 0; kw < v->KW; kw++) {
        float *row = v->col + ((ci * v->KH + kh) * v->KW + kw) * N;
        int64_t p = p0;
        while (p < p1) {
          int64_t oh = p / v->OW, ow = p % v->OW, end = p + (v->OW - ow) < p1 ? p + (v->OW - ow) : p1;
          int64_t ih = oh * v->sh - v->ph + kh * v->dh, off = ci * v->H * v->W + ih * v->W;
          if (ih < 0 || ih >= v->H) {
            for (; p < end; p++) row[p] = 0.0f;
            continue;
          }
          for (; p < end; p++, ow++) {
            int64_t iw = ow * v->sw - v->pw + kw * v->dw;
            row[p] = iw < 0 || iw >= v->W ? 0.0f : (v->is_signed ? (float)xs[off + iw] : (float)xu[off + iw]) - v->zx;
          }
        }
      }
}

static void ge__qk_gemm_share(void *arg, int64_t b, int64_t e) {
  const ge__qk_gemm *g = (const ge__qk_gemm *)arg;
  int64_t t;
  for (t = b; t < e; t++) {
    int64_t n0 = t * g->share, n1 = n0 + g->share < g->N ? n0 + g->share : g->N, k0, i, j;
    void *work = g->work + (size_t)t * g->work_bytes;
    if (n0 >= n1) continue;
    if (g->conv) ge__qk_im2col(g->conv, n0, n1);
    for (k0 = 0; k0 < g->K; k0 += g->kc) {
      int64_t kk = g->K - k0 < g->kc ? g->K - k0 : g->kc;
      ge_ai_core_sgemm(0, 0, g->M, n1 - n0, kk, 1.0f, g->A + k0, g->lda, g->B + k0 * g->ldb + n0, g->ldb, 0.0f,
                       g->tmp + n0, g->N, work);
      for (i = 0; i < g->M; i++) {
        const float *src = g->tmp + i * g->N;
        int32_t *dst = g->C + i * g->ldc;
        if (k0 == 0)
          for (j = n0; j < n1; j++) dst[j] = (int32_t)src[j];
        else
          for (j = n0; j < n1; j++) dst[j] += (int32_t)src[j];
      }
    }
  }
}

/* Splits g over the executor's threads (columns in shares of >= 64). */
static void ge__qk_gemm_run(ge_kernel_ctx *c, ge__qk_gemm *g, int threads) {
  int64_t shares = threads, minw = 64;
  if (shares > (g->N + minw - 1) / minw) shares = (g->N + minw - 1) / minw;
  if (shares < 1) shares = 1;
  g->share = (g->N + shares - 1) / shares;
  ge_kernel_parallel_for(c, shares, 1, ge__qk_gemm_share, g);
}

/* ---------------------------------------------------- MatMulInteger */

static ge_status ge__qk_matmul(ge_kernel_ctx *c) {
  const ge_value *A = ge__qk_in(c, 0), *B = ge__qk_in(c, 1), *za = ge__qk_in(c, 2), *zb = ge__qk_in(c, 3);
  ge__qk_state *s;
  ge__qk_gemm g;
  int64_t M, K, N, dims[GE_MAX_RANK], i, k;
  size_t wf, af, tf, work, total;
  float *area, *Bf, *Af, amax, bmax;
  int32_t zav;
  ge_value *y;
  if (!A || !B || !ge__qk_is_q8(A->dtype) || !ge__qk_is_q8(B->dtype) || A->rank < 2 || B->rank != 2 ||
      (za && (za->dtype != A->dtype || za->numel != 1)) ||
      (zb && (zb->dtype != B->dtype || (zb->numel != 1 && !(zb->rank == 1 && zb->dims[0] == B->dims[1])))) ||
      A->dims[A->rank - 1] != B->dims[0])
    return ge__qk_reference(c);
  if (!(s = ge__qk_state_get(c, 0))) return ge_kernel_error(c, GE_ERR_NOMEM, "out of memory");
  K = B->dims[0];
  N = B->dims[1];
  M = A->numel / (K ? K : 1);
  if (K == 0) M = 1;
  for (i = 0; i < A->rank; i++) dims[i] = A->dims[i];
  dims[A->rank - 1] = N;
  if (!(y = ge_kernel_output(c, 0, GE_DTYPE_INT32, A->rank, dims))) return GE_ERR_NOMEM;
  if (y->numel == 0) return GE_OK;
  if (K == 0) {
    memset(y->data, 0, y->nbytes);
    return GE_OK;
  }
  wf = (size_t)(K * N);
  af = (size_t)(M * K);
  tf = (size_t)(M * N);
  work = (ge_ai_core_sgemm_work_size(M, N, K) + 63) / sizeof(float);
  total = wf + af + tf + work * (size_t)s->threads;
  if (!(area = ge__qk_grow(c, total))) return ge_kernel_error(c, GE_ERR_NOMEM, "out of memory");
  s = (ge__qk_state *)c->state;
  Bf = area;
  if (!s->w_const || s->wfloats != wf) { /* B^T rows are columns: load B [K x N] minus per-column zb */
    float mx = 0;
    for (k = 0; k < K; k++)
      for (i = 0; i < N; i++) {
        float v = (float)(ge__qk_get8(B, k * N + i) - (zb ? ge__qk_get8(zb, zb->numel == 1 ? 0 : i) : 0));
        Bf[k * N + i] = v;
        if (fabsf(v) > mx) mx = fabsf(v);
      }
    s->wmax = mx;
    s->wfloats = s->w_const ? wf : 0;
  }
  bmax = s->wmax;
  Af = area + wf;
  zav = za ? ge__qk_get8(za, 0) : 0;
  for (i = 0; i < M * K; i++) Af[i] = (float)(ge__qk_get8(A, i) - zav);
  amax = ge__qk_span(A->dtype, zav);
  memset(&g, 0, sizeof g);
  g.M = M;
  g.N = N;
  g.K = K;
  g.kc = ge__qk_kchunk(amax, bmax, K);
  g.A = Af;
  g.lda = K;
  g.B = Bf;
  g.ldb = N;
  g.tmp = Af + af;
  g.C = (int32_t *)y->data;
  g.ldc = N;
  g.work = (char *)(g.tmp + tf);
  g.work_bytes = work * sizeof(float);
  ge__qk_gemm_run(c, &g, s->threads);
  return GE_OK;
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

/* Depthwise: output channels [b, e) of one image, direct in int32. */
static void ge__qk_dw_range(void *arg, int64_t b, int64_t e) {
  const ge__qk_dw *d = (const ge__qk_dw *)arg;
  int64_t m, kh, kw, oh, ow;
  int avx2 = ge__qk_avx2();
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

/* --------------------------------------- ConvInteger on AVX512-VNNI */

/* uint8 activations times weights with vpdpbusd (u8 x s8, four products
 * summed into int32, no saturation): exact. Weights w' = w (int8) or
 * w - 128 (uint8) with zero point zw' shifted alike, so that
 *   sum (x - zx)(w - zw) = sum x w' - zx sum w' - zw' sum x + K zx zw'.
 * Padded taps read zx (so x - zx is 0 there, as in the reference), K is
 * padded to a multiple of 4 with zeros. Weights are packed once per group
 * as [M/8][K/4][8][4] bytes with their row sums; image columns 32 at a
 * time as [K/4][32][4] bytes with their column sums. */
#define GE__QK_VM 8  /* rows of a tile */
#define GE__QK_VN 32 /* columns of a tile (two zmm of int32) */

#if GE__QK_AVX2
__attribute__((target("avx512f,avx512vnni"))) static void ge__qk_vnni_tile(const int8_t *ap, const uint8_t *bp,
                                                                           int64_t kq, int32_t *out) {
  __m512i c0[GE__QK_VM], c1[GE__QK_VM];
  int64_t q;
  int r;
  for (r = 0; r < GE__QK_VM; r++) c0[r] = c1[r] = _mm512_setzero_si512();
  for (q = 0; q < kq; q++, ap += 4 * GE__QK_VM, bp += 4 * GE__QK_VN) {
    __m512i b0 = _mm512_loadu_si512((const void *)bp), b1 = _mm512_loadu_si512((const void *)(bp + 64));
    for (r = 0; r < GE__QK_VM; r++) {
      int32_t w4;
      __m512i a;
      memcpy(&w4, ap + 4 * r, 4);
      a = _mm512_set1_epi32(w4);
      c0[r] = _mm512_dpbusd_epi32(c0[r], b0, a);
      c1[r] = _mm512_dpbusd_epi32(c1[r], b1, a);
    }
  }
  for (r = 0; r < GE__QK_VM; r++) {
    _mm512_storeu_si512((void *)(out + r * GE__QK_VN), c0[r]);
    _mm512_storeu_si512((void *)(out + r * GE__QK_VN + 16), c1[r]);
  }
}
#endif

static int ge__qk_vnni(void) {
#if GE__QK_AVX2 && !defined(GE_QUANT_NO_VNNI)
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vnni");
#else
  return 0;
#endif
}

/* Bytes of the packed weights of one group (tiles of 8 rows, K in quads),
 * then 2 * Mg int32: row sums and shifted zero points. */
static size_t ge__qk_vpack_bytes(int64_t Mg, int64_t K) {
  int64_t mb = (Mg + GE__QK_VM - 1) / GE__QK_VM, kq = (K + 3) / 4;
  return (size_t)(mb * kq * 4 * GE__QK_VM) + (size_t)(2 * Mg) * sizeof(int32_t);
}

/* Packs group rows [0, Mg) of w (rows of K) with zero points zw. */
static void ge__qk_vpack(const ge_value *w, const ge_value *zw, int64_t m0, int64_t Mg, int64_t K, uint8_t *dst) {
  int64_t mb = (Mg + GE__QK_VM - 1) / GE__QK_VM, kq = (K + 3) / 4, m, k;
  int8_t *a = (int8_t *)dst;
  int32_t *sums = (int32_t *)(void *)(dst + mb * kq * 4 * GE__QK_VM), *zs = sums + Mg;
  int shift = w->dtype == GE_DTYPE_UINT8 ? 128 : 0;
  memset(a, 0, (size_t)(mb * kq * 4 * GE__QK_VM));
  for (m = 0; m < Mg; m++) {
    int32_t sum = 0;
    for (k = 0; k < K; k++) {
      int32_t v = ge__qk_get8(w, (m0 + m) * K + k) - shift;
      a[((m / GE__QK_VM * kq + k / 4) * GE__QK_VM + m % GE__QK_VM) * 4 + k % 4] = (int8_t)v;
      sum += v;
    }
    sums[m] = sum;
    zs[m] = (zw ? ge__qk_get8(zw, zw->numel == 1 ? 0 : m0 + m) : 0) - shift;
  }
}

typedef struct ge__qk_vjob {
  const ge__qk_conv *v;
  const uint8_t *wpack; /* one group */
  int32_t *C;           /* Mg rows of P */
  int64_t Mg, K, P, strips_per_share;
  int32_t zx;
  uint8_t *scratch; /* per share: the strip, its sums, a tile */
  size_t scratch_bytes;
} ge__qk_vjob;

static size_t ge__qk_vscratch_bytes(int64_t K) {
  return (size_t)((K + 3) / 4 * 4 * GE__QK_VN) + (size_t)(GE__QK_VN + GE__QK_VM * GE__QK_VN) * sizeof(int32_t) + 64;
}

/* Columns [n0, n0 + 32) of the image as uint8 quads, pads and columns past
 * P read zx (their results are dropped), K padding 0; sums per column. */
static void ge__qk_vstrip(const ge__qk_conv *v, int64_t n0, int64_t P, int64_t K, uint8_t zx, uint8_t *bp,
                          int32_t *colsum) {
  const uint8_t *x = (const uint8_t *)v->x;
  int64_t oh[GE__QK_VN], ow[GE__QK_VN], j, k = 0, ci, kh, kw, kq = (K + 3) / 4;
  for (j = 0; j < GE__QK_VN; j++) {
    int64_t p = n0 + j < P ? n0 + j : P - 1;
    oh[j] = p / v->OW * v->sh - v->ph;
    ow[j] = p % v->OW * v->sw - v->pw;
    colsum[j] = 0;
  }
  for (ci = 0; ci < v->Cg; ci++)
    for (kh = 0; kh < v->KH; kh++)
      for (kw = 0; kw < v->KW; kw++, k++) {
        uint8_t *dst = bp + (k / 4) * 4 * GE__QK_VN + k % 4;
        const uint8_t *plane = x + ci * v->H * v->W;
        for (j = 0; j < GE__QK_VN; j++) {
          int64_t ih = oh[j] + kh * v->dh, iw = ow[j] + kw * v->dw;
          uint8_t b = ih < 0 || ih >= v->H || iw < 0 || iw >= v->W ? zx : plane[ih * v->W + iw];
          dst[4 * j] = b;
          colsum[j] += b;
        }
      }
  for (; k < kq * 4; k++)
    for (j = 0; j < GE__QK_VN; j++) bp[(k / 4) * 4 * GE__QK_VN + 4 * j + k % 4] = 0;
}

static void ge__qk_vnni_share(void *arg, int64_t b, int64_t e) {
#if GE__QK_AVX2
  const ge__qk_vjob *jb = (const ge__qk_vjob *)arg;
  int64_t t, kq = (jb->K + 3) / 4, mb = (jb->Mg + GE__QK_VM - 1) / GE__QK_VM;
  const int32_t *rowsum = (const int32_t *)(const void *)(jb->wpack + mb * kq * 4 * GE__QK_VM), *zs = rowsum + jb->Mg;
  for (t = b; t < e; t++) {
    uint8_t *bp = jb->scratch + (size_t)t * jb->scratch_bytes;
    int32_t *colsum = (int32_t *)(void *)(bp + kq * 4 * GE__QK_VN), *tile = colsum + GE__QK_VN;
    int64_t st, s0 = t * jb->strips_per_share, s1 = s0 + jb->strips_per_share;
    for (st = s0; st < s1 && st * GE__QK_VN < jb->P; st++) {
      int64_t n0 = st * GE__QK_VN, nn = jb->P - n0 < GE__QK_VN ? jb->P - n0 : GE__QK_VN, i, j, m;
      ge__qk_vstrip(jb->v, n0, jb->P, jb->K, (uint8_t)jb->zx, bp, colsum);
      for (i = 0; i < mb; i++) {
        int64_t rows = jb->Mg - i * GE__QK_VM < GE__QK_VM ? jb->Mg - i * GE__QK_VM : GE__QK_VM;
        ge__qk_vnni_tile((const int8_t *)jb->wpack + i * kq * 4 * GE__QK_VM, bp, kq, tile);
        for (m = 0; m < rows; m++) {
          int64_t row = i * GE__QK_VM + m;
          int32_t base = -jb->zx * rowsum[row] + (int32_t)jb->K * jb->zx * zs[row];
          int32_t *dst = jb->C + row * jb->P + n0;
          const int32_t *src = tile + m * GE__QK_VN;
          for (j = 0; j < nn; j++) dst[j] = src[j] + base - zs[row] * colsum[j];
        }
      }
    }
  }
#else
  (void)arg, (void)b, (void)e;
#endif
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

/* ConvInteger with uint8 x on VNNI: weights packed once (Const) into the
 * state, image strips packed per share. */
static ge_status ge__qk_conv_vnni(ge_kernel_ctx *c, ge__qk_state *s, const ge_value *x, const ge_value *w,
                                  const ge_value *zw, int32_t zx, int64_t Mg, int64_t Kg, int64_t P,
                                  const int64_t *ydims) {
  const ge_value *y = c->outputs[0];
  size_t gbytes = (ge__qk_vpack_bytes(Mg, Kg) + 63) & ~(size_t)63, wbytes = gbytes * (size_t)s->group;
  size_t sbytes = (ge__qk_vscratch_bytes(Kg) + 63) & ~(size_t)63;
  int64_t H = x->rank == 3 ? 1 : x->dims[2], W = x->dims[x->rank - 1], Cg = x->dims[1] / s->group;
  int64_t n, gi, strips = (P + GE__QK_VN - 1) / GE__QK_VN, shares = s->threads < strips ? s->threads : strips;
  uint8_t *area;
  (void)ydims;
  if (!(area = (uint8_t *)ge__qk_grow(c, (wbytes + sbytes * (size_t)shares + 64) / sizeof(float) + 1)))
    return ge_kernel_error(c, GE_ERR_NOMEM, "out of memory");
  s = (ge__qk_state *)c->state;
  area = (uint8_t *)(((uintptr_t)area + 63) & ~(uintptr_t)63);
  if (!s->w_const || s->wfloats != wbytes + 1) { /* + 1: packed for VNNI, not floats */
    for (gi = 0; gi < s->group; gi++) ge__qk_vpack(w, zw, gi * Mg, Mg, Kg, area + (size_t)gi * gbytes);
    s->wfloats = s->w_const ? wbytes + 1 : 0;
  }
  for (n = 0; n < x->dims[0]; n++)
    for (gi = 0; gi < s->group; gi++) {
      ge__qk_conv v;
      ge__qk_vjob jb;
      memset(&v, 0, sizeof v);
      v.x = (const uint8_t *)x->data + (n * x->dims[1] + gi * Cg) * H * W;
      v.H = H, v.W = W, v.Cg = Cg, v.KH = x->rank == 3 ? 1 : w->dims[2], v.KW = w->dims[w->rank - 1];
      v.OH = x->rank == 3 ? 1 : ydims[2], v.OW = x->rank == 3 ? P : ydims[3];
      v.sh = s->s[0], v.sw = s->s[1], v.dh = s->d[0], v.dw = s->d[1];
      v.ph = s->lead[0], v.pw = s->lead[1];
      jb.v = &v;
      jb.wpack = area + (size_t)gi * gbytes;
      jb.C = (int32_t *)y->data + (n * s->group + gi) * Mg * P;
      jb.Mg = Mg;
      jb.K = Kg;
      jb.P = P;
      jb.zx = zx;
      jb.strips_per_share = (strips + shares - 1) / shares;
      jb.scratch = area + wbytes;
      jb.scratch_bytes = sbytes;
      ge_kernel_parallel_for(c, shares, 1, ge__qk_vnni_share, &jb);
    }
  return GE_OK;
}

static ge_status ge__qk_conv_kernel(ge_kernel_ctx *c) {
  const ge_value *x = ge__qk_in(c, 0), *w = ge__qk_in(c, 1), *zxv = ge__qk_in(c, 2), *zw = ge__qk_in(c, 3);
  ge__qk_state *s;
  int64_t N, C, H, W, M, Cg, Mg, KH, KW, OH, OW, P, Kg, lead_h, lead_w, dims[4], n, gi;
  size_t wf, colf, tf, work, total, elt;
  float *area, *Wf;
  int32_t zx;
  int one_d, dw;
  ge_value *y;
  if (!x || !w || !ge__qk_is_q8(x->dtype) || !ge__qk_is_q8(w->dtype) || (x->rank != 4 && x->rank != 3) ||
      w->rank != x->rank || (zxv && (zxv->dtype != x->dtype || zxv->numel != 1)) ||
      (zw && (zw->dtype != w->dtype || (zw->numel != 1 && !(zw->rank == 1 && zw->dims[0] == w->dims[0])))))
    return ge__qk_reference(c);
  one_d = x->rank == 3;
  if (!(s = ge__qk_state_get(c, one_d ? 1 : 2))) return ge_kernel_error(c, GE_ERR_NOMEM, "out of memory");
  if (s->attrs_ok != (one_d ? 1 : 2)) return ge__qk_reference(c);
  N = x->dims[0];
  C = x->dims[1];
  H = one_d ? 1 : x->dims[2];
  W = x->dims[x->rank - 1];
  M = w->dims[0];
  KH = one_d ? 1 : w->dims[2];
  KW = w->dims[w->rank - 1];
  if (C % s->group || M % s->group || w->dims[1] * s->group != C || KH < 1 || KW < 1) return ge__qk_reference(c);
  {
    const int64_t *kv = NULL;
    int32_t nk = ge_node_attr_ints(c->node, "kernel_shape", &kv);
    if (nk > 0 && (kv[nk - 1] != KW || (!one_d && kv[0] != KH))) return ge__qk_reference(c);
  }
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
  if (!(y = ge_kernel_output(c, 0, GE_DTYPE_INT32, x->rank, dims))) return GE_ERR_NOMEM;
  if (y->numel == 0) return GE_OK;
  P = OH * OW;
  Kg = Cg * KH * KW;
  dw = Cg == 1;
  zx = zxv ? ge__qk_get8(zxv, 0) : 0;
  if (!dw && x->dtype == GE_DTYPE_UINT8 && ge__qk_vnni()) return ge__qk_conv_vnni(c, s, x, w, zw, zx, Mg, Kg, P, dims);
  wf = (size_t)(M * Kg);
  colf = dw ? 0 : (size_t)(Kg * P);
  tf = dw ? 0 : (size_t)(Mg * P);
  work = dw ? 0 : (ge_ai_core_sgemm_work_size(Mg, P, Kg) + 63) / sizeof(float);
  total = wf + colf + tf + work * (size_t)s->threads;
  if (!(area = ge__qk_grow(c, total))) return ge_kernel_error(c, GE_ERR_NOMEM, "out of memory");
  s = (ge__qk_state *)c->state;
  Wf = area;
  if (!s->w_const || s->wfloats != wf) {
    s->wmax = ge__qk_load_w(w, zw, M, Kg, Wf);
    s->wfloats = s->w_const ? wf : 0;
  }
  elt = 1;
  for (n = 0; n < N; n++) {
    const char *xn = (const char *)x->data + (size_t)(n * C * H * W) * elt;
    int32_t *yn = (int32_t *)y->data + n * M * P;
    if (dw) {
      ge__qk_dw d;
      d.x = xn;
      d.w = Wf;
      d.y = yn;
      d.is_signed = x->dtype == GE_DTYPE_INT8;
      d.zx = zx;
      d.H = H, d.W = W, d.KH = KH, d.KW = KW, d.OH = OH, d.OW = OW;
      d.sh = s->s[0], d.sw = s->s[1], d.dh = s->d[0], d.dw = s->d[1], d.ph = lead_h, d.pw = lead_w;
      d.mult = Mg;
      ge_kernel_parallel_for(c, M, 4, ge__qk_dw_range, &d);
      continue;
    }
    for (gi = 0; gi < s->group; gi++) {
      ge__qk_conv v;
      ge__qk_gemm g;
      v.x = xn + (size_t)(gi * Cg * H * W) * elt;
      v.is_signed = x->dtype == GE_DTYPE_INT8;
      v.zx = (float)zx;
      v.H = H, v.W = W, v.KH = KH, v.KW = KW, v.OH = OH, v.OW = OW;
      v.sh = s->s[0], v.sw = s->s[1], v.dh = s->d[0], v.dw = s->d[1], v.ph = lead_h, v.pw = lead_w;
      v.Cg = Cg;
      v.col = area + wf;
      memset(&g, 0, sizeof g);
      g.M = Mg;
      g.N = P;
      g.K = Kg;
      g.kc = ge__qk_kchunk(ge__qk_span(x->dtype, zx), s->wmax, Kg);
      g.A = Wf + gi * Mg * Kg;
      g.lda = Kg;
      g.B = v.col;
      g.ldb = P;
      g.tmp = v.col + colf;
      g.C = yn + gi * Mg * P;
      g.ldc = P;
      g.work = (char *)(g.tmp + tf);
      g.work_bytes = work * sizeof(float);
      g.conv = &v;
      ge__qk_gemm_run(c, &g, s->threads);
    }
  }
  return GE_OK;
}

/* ------------------------------------------------------------ table */

GE_API ge_kernel_fn ge_quant_fast_kernel(const ge_node *n) {
  if (!n || !ge_node_in_onnx_domain(n)) return NULL;
  switch (n->op[0]) {
  case 'C': return !strcmp(n->op, "ConvInteger") ? ge__qk_conv_kernel : NULL;
  case 'D':
    if (!strcmp(n->op, "DynamicQuantizeLinear")) return ge__qk_dql;
    return !strcmp(n->op, "DequantizeLinear") ? ge__qk_dequantize : NULL;
  case 'M': return !strcmp(n->op, "MatMulInteger") ? ge__qk_matmul : NULL;
  case 'Q': return !strcmp(n->op, "QuantizeLinear") ? ge__qk_quantize : NULL;
  default: return NULL;
  }
}

#ifdef __cplusplus
}
#endif
#endif /* GE_QUANT_KERNELS_IMPLEMENTATION_DONE */
#endif /* GE_QUANT_KERNELS_IMPLEMENTATION */

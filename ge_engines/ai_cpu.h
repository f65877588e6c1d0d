/* ge_engines/ai_cpu.h — the AI CPU engines: DNN_VM_AICPU_ASCEND (cost 3) and
 * DNN_VM_AICPU (cost 4, the second op library).
 *
 * Part of ge. On Ascend the AI CPU runs the general ops that do not suit the
 * AI Core: gathers and scatters, sorting, TopK, NonZero, NonMaxSuppression,
 * Unique (data-dependent output shapes), int64 arithmetic, shape arithmetic.
 * Here both libraries run on this machine's CPU with the reference kernels
 * of host_cpu.h (and the DSA random kernels when DSA is excluded), except
 * where a fast kernel exists: the float32 ones of vector_kernels.h, Cast
 * between float32 and float16 / int32 / int8 / uint8 (half_kernels.h) and
 * the quantization kernels of quant_kernels.h (DynamicQuantizeLinear,
 * Quantize/DequantizeLinear, ConvInteger, MatMulInteger). They differ in
 * what they accept:
 *
 *   DNN_VM_AICPU_ASCEND  every op with a kernel, numeric and bool tensors,
 *                        rank at most 8; no strings, no views
 *   DNN_VM_AICPU         the same plus string tensors (the TensorFlow-style
 *                        library is where string ops live)
 *
 * Views (Reshape, Squeeze, Unsqueeze, Flatten, Identity) of non-string
 * tensors belong to GE local, which runs them without copying.
 *
 * NonMaxSuppression has a fast float32 kernel here (the reference's
 * results, bit for bit, with its scratch made at load). The reference
 * kernels that run here parse their attributes and Const parameters once,
 * at load (ge_host_cpu_prepare).
 *
 * Float32 Conv, MatMul, Gemm, LSTM, GRU and RNN take AI Core's kernels
 * (which check their shapes at run time), so an unknown rank at placement
 * does not keep them on the reference.
 *
 * Define GE_AI_CPU_IMPLEMENTATION (or GE_IMPLEMENTATION) in one translation
 * unit; ai_core.h's implementation is needed too. */
#ifndef GE_ENGINE_AI_CPU_H
#define GE_ENGINE_AI_CPU_H

#include "ge_graph.h"
#include "host_cpu.h"
#include "ai_core.h"
#include "dsa.h"
#include "vector.h"
#include "quant_kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

GE_API const ge_engine *ge_ai_cpu_ascend_engine(void);
GE_API const ge_engine *ge_ai_cpu_engine(void);

#ifdef __cplusplus
}
#endif
#endif /* GE_ENGINE_AI_CPU_H */

#if defined(GE_IMPLEMENTATION) || defined(GE_AI_CPU_IMPLEMENTATION)
#ifndef GE_AI_CPU_IMPLEMENTATION_DONE
#define GE_AI_CPU_IMPLEMENTATION_DONE

#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GE__AICPU_MAX_RANK 8

static const char *const ge__aicpu_views[] = {"Flatten", "Identity", "Reshape", "Squeeze", "Unsqueeze"};

/* Refuses a tensor the library cannot hold; 1 when fine. */
static int ge__aicpu_tensor_ok(const ge_tensor_desc *t, int strings, const char *what, uint32_t i, char *why,
                               size_t cap) {
  if (!t) return 1;
  if (t->dtype == GE_DTYPE_STRING && !strings)
    return ge_engine_why(why, cap, "string tensor at %s %u (string ops run on DNN_VM_AICPU)", what, (unsigned)i);
  if (t->shape.rank > GE__AICPU_MAX_RANK)
    return ge_engine_why(why, cap, "rank %d at %s %u exceeds %d", (int)t->shape.rank, what, (unsigned)i,
                         GE__AICPU_MAX_RANK);
  return 1;
}

static int ge__aicpu_supports(const ge_graph *g, const ge_node *n, int strings, char *why, size_t cap) {
  uint32_t i;
  int has_string = 0;
  if (!ge_node_in_onnx_domain(n)) return ge_engine_why(why, cap, "domain %s is not an AI CPU op library", n->domain);
  if (!ge_host_cpu_kernel(n) && !ge_dsa_kernel(n)) return ge_engine_why(why, cap, "no AI CPU kernel for op %s", n->op);
  for (i = 0; i < n->num_inputs; i++) {
    const ge_tensor_desc *t = ge_node_input_desc(g, n, i);
    if (!ge__aicpu_tensor_ok(t, strings, "input", i, why, cap)) return 0;
    has_string |= t && t->dtype == GE_DTYPE_STRING;
  }
  for (i = 0; i < n->num_outputs; i++) {
    if (!ge__aicpu_tensor_ok(&n->outputs[i], strings, "output", i, why, cap)) return 0;
    has_string |= n->outputs[i].dtype == GE_DTYPE_STRING;
  }
  if (!has_string && ge_op_in_sorted(n->op, ge__aicpu_views, sizeof ge__aicpu_views / sizeof *ge__aicpu_views))
    return ge_engine_why(why, cap, "view op %s runs on DNN_VM_GE_LOCAL without copying", n->op);
  return 1;
}

static int ge__aicpu_check_ascend(const ge_engine *e, const ge_graph *g, const ge_node *n, char *why, size_t cap) {
  (void)e;
  return ge__aicpu_supports(g, n, 0, why, cap);
}

static int ge__aicpu_check_tf(const ge_engine *e, const ge_graph *g, const ge_node *n, char *why, size_t cap) {
  (void)e;
  return ge__aicpu_supports(g, n, 1, why, cap);
}

/* ------------------------------------------------- NonMaxSuppression */

/* The reference's results, bit for bit, with the work made once: the
 * boxes' corners and areas per batch (in double, as the reference
 * computes them), the scores of a class above the threshold taken in the
 * reference's order (a heap popped only as far as the selection goes;
 * with NaN scores, the reference's own stable merge sort), the selection
 * stopped at max_output_boxes_per_class. Float32 boxes and scores; anything else runs
 * the reference. The scratch lives after the state and is sized at
 * prepare from the shapes (it only grows at run when they change). */
typedef struct ge__aicpu_nms {
  int64_t center; /* center_point_box */
  size_t cap;     /* scratch bytes after this header */
} ge__aicpu_nms;

/* Scratch for N boxes per batch (corners, area, score, the kept boxes'
 * corners and areas by coordinate, their corners in float, two id lists) and
 * `ids` more int64 (counts and kept ids per batch and class). */
static size_t ge__aicpu_nms_bytes(int64_t N, int64_t ids) {
  return (size_t)N * (11 * sizeof(double) + 4 * sizeof(float) + 2 * sizeof(int64_t)) + (size_t)ids * sizeof(int64_t);
}

/* The state with at least `need` scratch bytes (NULL: out of memory). */
static ge__aicpu_nms *ge__aicpu_nms_state(ge_kernel_ctx *c, size_t need) {
  ge__aicpu_nms *s = (ge__aicpu_nms *)c->state;
  if (s && s->cap >= need) return s;
  s = (ge__aicpu_nms *)realloc(s, sizeof *s + need);
  if (!s) {
    ge_kernel_error(c, GE_ERR_NOMEM, "out of memory for NonMaxSuppression's scratch");
    return NULL;
  }
  if (!c->state) s->center = ge_node_attr_int(c->node, "center_point_box", 0);
  s->cap = need;
  c->state = s;
  return s;
}

/* Stable merge sort of ids by decreasing score: ge__hc_dt_msort's order
 * exactly (the same splits and merges, "before" is score[x] > score[y]). */
static void ge__aicpu_nms_sort(int64_t *a, int64_t *tmp, int64_t n, const double *score) {
  int64_t h = n / 2, i = 0, j = h, k = 0;
  if (n < 2) return;
  ge__aicpu_nms_sort(a, tmp, h, score);
  ge__aicpu_nms_sort(a + h, tmp, n - h, score);
  while (i < h && j < n) tmp[k++] = score[a[j]] > score[a[i]] ? a[j++] : a[i++];
  while (i < h) tmp[k++] = a[i++];
  while (j < n) tmp[k++] = a[j++];
  memcpy(a, tmp, (size_t)n * sizeof *a);
}

/* Max-heap of candidate ids by decreasing score, then increasing id: with
 * no NaN among the scores that is the merge sort's order, so popping only
 * as many as the selection takes gives the same sequence without sorting
 * every candidate. */
static int ge__aicpu_nms_first(const double *score, int64_t a, int64_t b) {
  return score[a] > score[b] || (score[a] == score[b] && a < b);
}

static void ge__aicpu_nms_sift(int64_t *h, int64_t n, int64_t i, const double *score) {
  for (;;) {
    int64_t l = 2 * i + 1, r = l + 1, m = i, t;
    if (l < n && ge__aicpu_nms_first(score, h[l], h[m])) m = l;
    if (r < n && ge__aicpu_nms_first(score, h[r], h[m])) m = r;
    if (m == i) return;
    t = h[i], h[i] = h[m], h[m] = t;
    i = m;
  }
}

/* Corners (y1, x1, y2, x2) and area of each box of one batch. */
static void ge__aicpu_nms_corners(const float *bx, int64_t N, int center, double *cor, double *area) {
  int64_t i;
  for (i = 0; i < N; i++) {
    double v0 = bx[i * 4], v1 = bx[i * 4 + 1], v2 = bx[i * 4 + 2], v3 = bx[i * 4 + 3], *b = cor + i * 4;
    if (center) { /* x_center, y_center, width, height */
      b[0] = v1 - v3 / 2;
      b[2] = v1 + v3 / 2;
      b[1] = v0 - v2 / 2;
      b[3] = v0 + v2 / 2;
    } else {
      b[0] = v0 < v2 ? v0 : v2;
      b[2] = v0 < v2 ? v2 : v0;
      b[1] = v1 < v3 ? v1 : v3;
      b[3] = v1 < v3 ? v3 : v1;
    }
    area[i] = (b[2] - b[0]) * (b[3] - b[1]);
  }
}

/* Whether candidate a overlaps kept box b beyond the threshold: the
 * reference's IoU, operand for operand. */
static int ge__aicpu_nms_overlaps(const double *a, double aa, const double *b, double ab, double iou) {
  double ih = (a[2] < b[2] ? a[2] : b[2]) - (a[0] > b[0] ? a[0] : b[0]);
  double iw = (a[3] < b[3] ? a[3] : b[3]) - (a[1] > b[1] ? a[1] : b[1]), inter;
  if (aa <= 0 || ab <= 0) return 0 > iou;
  inter = (ih > 0 ? ih : 0) * (iw > 0 ? iw : 0);
  return inter / (aa + ab - inter) > iou;
}

/* The kept boxes' corners and areas by coordinate (c[0..4][q]), and the
 * corners rounded to float for the intersection test (f[0..3][q]). */
typedef struct ge__aicpu_kept {
  double *c[5];
  float *f[4];
} ge__aicpu_kept;

/* Bit q of the result: kept box q0 + q (q < 16, q0 + q < n) may intersect
 * candidate a (corners af in float). Rounding to float is monotone, so a
 * pair that intersects in double (min > max) has min >= max in float: the
 * test never misses one. */
static uint32_t ge__aicpu_nms_hits(const float *af, const ge__aicpu_kept *k, int64_t q0, int64_t n) {
  uint32_t hits = 0;
  int64_t q, end = q0 + 16 < n ? q0 + 16 : n;
  for (q = q0; q < end; q++)
    hits |= (uint32_t)(((af[2] < k->f[2][q] ? af[2] : k->f[2][q]) >= (af[0] > k->f[0][q] ? af[0] : k->f[0][q])) &
                       ((af[3] < k->f[3][q] ? af[3] : k->f[3][q]) >= (af[1] > k->f[1][q] ? af[1] : k->f[1][q])))
            << (q - q0);
  return hits;
}

#ifdef GE__AIC_X86
__attribute__((target("avx512f"))) static uint32_t ge__aicpu_nms_hits_avx512(const float *af, const ge__aicpu_kept *k,
                                                                            int64_t q0, int64_t n) {
  __mmask16 m = (__mmask16)(n - q0 >= 16 ? 0xFFFF : (1u << (n - q0)) - 1);
  __m512 lo0 = _mm512_max_ps(_mm512_set1_ps(af[0]), _mm512_maskz_loadu_ps(m, k->f[0] + q0));
  __m512 lo1 = _mm512_max_ps(_mm512_set1_ps(af[1]), _mm512_maskz_loadu_ps(m, k->f[1] + q0));
  __m512 hi2 = _mm512_min_ps(_mm512_set1_ps(af[2]), _mm512_maskz_loadu_ps(m, k->f[2] + q0));
  __m512 hi3 = _mm512_min_ps(_mm512_set1_ps(af[3]), _mm512_maskz_loadu_ps(m, k->f[3] + q0));
  return _mm512_mask_cmp_ps_mask(_mm512_mask_cmp_ps_mask(m, hi2, lo0, _CMP_GE_OQ), hi3, lo1, _CMP_GE_OQ);
}
#endif

/* Whether candidate a (area aa) is suppressed by one of the n kept boxes.
 * A box disjoint from a has IoU 0, above no threshold >= 0 (nor NaN): with
 * such a threshold only the boxes the float test finds take the
 * reference's exact IoU, so most pairs cost a compare, not a division. */
static int ge__aicpu_nms_suppressed(const double *a, double aa, const ge__aicpu_kept *k, int64_t n, double iou,
                                    int avx512) {
  float af[4];
  int64_t q0, q;
  int all = !(iou >= 0 || iou != iou);
  for (q = 0; q < 4; q++) af[q] = (float)a[q];
  for (q0 = 0; q0 < n; q0 += 16) {
    uint32_t hits = all ? 0xFFFFu : 0;
#ifdef GE__AIC_X86
    if (!all && avx512) hits = ge__aicpu_nms_hits_avx512(af, k, q0, n);
    else
#endif
        if (!all)
      hits = ge__aicpu_nms_hits(af, k, q0, n);
    (void)avx512;
    for (q = q0; hits && q < n; q++, hits >>= 1)
      if (hits & 1) {
        double b[4];
        b[0] = k->c[0][q], b[1] = k->c[1][q], b[2] = k->c[2][q], b[3] = k->c[3][q];
        if (ge__aicpu_nms_overlaps(a, aa, b, k->c[4][q], iou)) return 1;
      }
  }
  return 0;
}

/* One class of one batch: the ids kept, in order, into ks; their count. */
static int64_t ge__aicpu_nms_class(const float *sc, int64_t N, const double *cor, const double *area, int use_thr,
                                   double thr, double iou, int64_t keep, double *score, const ge__aicpu_kept *kb,
                                   int64_t *cand, int64_t *tmp, int64_t *ks) {
  int64_t nc = 0, kept = 0, i, p, q, left;
  int nan = 0, avx512 = 0;
#ifdef GE__AIC_X86
  avx512 = __builtin_cpu_supports("avx512f");
#endif
  for (i = 0; i < N; i++) {
    score[i] = sc[i];
    nan |= score[i] != score[i];
    if (!use_thr || score[i] > thr) cand[nc++] = i;
  }
  nan &= !use_thr; /* a threshold drops NaN scores */
  if (nan) ge__aicpu_nms_sort(cand, tmp, nc, score);
  else
    for (i = nc / 2 - 1; i >= 0; i--) ge__aicpu_nms_sift(cand, nc, i, score);
  for (p = 0, left = nc; p < nc && kept < keep; p++) {
    int64_t k;
    if (nan) {
      k = cand[p];
    } else { /* pop the heap's first */
      k = cand[0];
      cand[0] = cand[--left];
      ge__aicpu_nms_sift(cand, left, 0, score);
    }
    if (ge__aicpu_nms_suppressed(cor + k * 4, area[k], kb, kept, iou, avx512)) continue;
    for (q = 0; q < 4; q++) kb->c[q][kept] = cor[k * 4 + q], kb->f[q][kept] = (float)cor[k * 4 + q];
    kb->c[4][kept] = area[k];
    ks[kept++] = k;
  }
  return kept;
}

static ge_status ge__aicpu_nms_kernel(ge_kernel_ctx *c) {
  const ge_value *bv = c->num_inputs > 0 ? c->inputs[0] : NULL, *sv = c->num_inputs > 1 ? c->inputs[1] : NULL;
  const ge_value *mv = c->num_inputs > 2 ? c->inputs[2] : NULL, *iv = c->num_inputs > 3 ? c->inputs[3] : NULL;
  const ge_value *tv = c->num_inputs > 4 ? c->inputs[4] : NULL;
  int64_t B, N, C, maxout = 0, keep, count = 0, b, cl, j, *cand, *tmp, *sel, *counts, dims[2];
  double iou = 0, thr = 0, *cor, *area, *score;
  ge__aicpu_kept kb;
  int use_thr;
  ge__aicpu_nms *s;
  ge_value *y;
  if (!bv || !sv || bv->dtype != GE_DTYPE_FLOAT32 || sv->dtype != GE_DTYPE_FLOAT32 || bv->rank != 3 ||
      bv->dims[2] != 4 || sv->rank != 3 || sv->dims[0] != bv->dims[0] || sv->dims[2] != bv->dims[1] ||
      (mv && mv->numel > 0 && (mv->numel != 1 || mv->dtype != GE_DTYPE_INT64)) ||
      (iv && iv->numel > 0 && (iv->numel != 1 || iv->dtype != GE_DTYPE_FLOAT32)) ||
      (tv && tv->numel > 0 && (tv->numel != 1 || tv->dtype != GE_DTYPE_FLOAT32)) || bv->numel > ((int64_t)1 << 40))
    return ge_host_cpu_run_reference(c); /* other dtypes, and every error in the reference's words */
  B = bv->dims[0], N = bv->dims[1], C = sv->dims[1];
  if (!(s = ge__aicpu_nms_state(c, ge__aicpu_nms_bytes(N, B * C * (N + 1))))) return GE_ERR_NOMEM;
  if (ge_kernel_preparing(c)) return GE_OK;
  if (s->center != 0 && s->center != 1) return ge_host_cpu_run_reference(c);
  if (mv && mv->numel > 0) maxout = ((const int64_t *)mv->data)[0];
  if (iv && iv->numel > 0) iou = ((const float *)iv->data)[0];
  use_thr = tv && tv->numel > 0;
  if (use_thr) thr = ((const float *)tv->data)[0];
  keep = maxout < 0 ? 0 : maxout < N ? maxout : N;
  cor = (double *)(void *)(s + 1);
  area = cor + N * 4;
  score = area + N;
  for (j = 0; j < 5; j++) kb.c[j] = score + N * (1 + j);
  for (j = 0; j < 4; j++) kb.f[j] = (float *)(void *)(kb.c[4] + N) + N * j;
  cand = (int64_t *)(void *)(kb.f[3] + N);
  tmp = cand + N;
  counts = tmp + N; /* B * C */
  sel = counts + B * C; /* N ids per (batch, class) at most */
  for (b = 0; b < B && keep > 0; b++) {
    ge__aicpu_nms_corners((const float *)bv->data + b * N * 4, N, (int)s->center, cor, area);
    for (cl = 0; cl < C; cl++)
      count += counts[b * C + cl] =
          ge__aicpu_nms_class((const float *)sv->data + (b * C + cl) * N, N, cor, area, use_thr, thr, iou, keep, score,
                              &kb, cand, tmp, sel + (b * C + cl) * N);
  }
  dims[0] = count;
  dims[1] = 3;
  if (!(y = ge_kernel_output(c, 0, GE_DTYPE_INT64, 2, dims))) return c->err && c->err->code ? c->err->code : GE_ERR_NOMEM;
  count = 0;
  for (b = 0; b < B && keep > 0; b++)
    for (cl = 0; cl < C; cl++)
      for (j = 0; j < counts[b * C + cl]; j++, count++) {
        ((int64_t *)y->data)[count * 3] = b;
        ((int64_t *)y->data)[count * 3 + 1] = cl;
        ((int64_t *)y->data)[count * 3 + 2] = sel[(b * C + cl) * N + j];
      }
  return GE_OK;
}

/* The fast kernels of this engine's own, by op. */
static ge_kernel_fn ge__aicpu_own_kernel(const ge_node *n) {
  return ge_node_in_onnx_domain(n) && !strcmp(n->op, "NonMaxSuppression") ? ge__aicpu_nms_kernel : NULL;
}

/* The fast float32 kernel where there is one (Transpose, Resize, Upsample,
 * element-wise ops and reductions; AI Core's Conv, MatMul, Gemm, LSTM, GRU
 * and RNN, which land here when a rank is unknown at placement: every one
 * checks its run-time inputs and falls back to the reference off its
 * paths), else the reference. */
static ge_kernel_fn ge__aicpu_kernel(const ge_engine *e, const ge_node *n) {
  ge_kernel_fn k = ge_vector_fast_kernel(n);
  (void)e;
  if (!k) k = ge_half_fast_kernel(n);
  if (!k) k = ge_quant_fast_kernel(n); /* int8 / uint8 quantization and integer products */
  if (!k && (ge_rnn_op(n) || (ge_node_in_onnx_domain(n) && (!strcmp(n->op, "Conv") || !strcmp(n->op, "MatMul") ||
                                                             !strcmp(n->op, "Gemm")))))
    k = ge_ai_core_engine()->kernel(ge_ai_core_engine(), n);
  if (!k) k = ge__aicpu_own_kernel(n); /* NonMaxSuppression */
  if (!k) k = ge_host_cpu_kernel(n);
  return k ? k : ge_dsa_kernel(n);
}

/* The kernels above with state to build at load: the vector engine's,
 * the integer products' and AI Core's (their engines' prepare), our own
 * and the reference kernels that parse their parameters once. */
static ge_kernel_fn ge__aicpu_prepare(const ge_engine *e, const ge_node *n) {
  const ge_engine *aic = ge_ai_core_engine();
  ge_kernel_fn k = ge__aicpu_kernel(e, n);
  if (!k) return NULL;
  if (k == ge_vector_fast_kernel(n)) return ge_vector_fast_prepare(n);
  if (k == ge_quant_fast_kernel(n)) return ge_quant_fast_prepare(n);
  if (k == ge__aicpu_own_kernel(n)) return k;
  if (k == ge_host_cpu_kernel(n)) return ge_host_cpu_prepare(n);
  return k == aic->kernel(aic, n) ? aic->prepare(aic, n) : NULL;
}

static const ge_engine ge__aicpu_ascend_engine = {
    GE_ENGINE_ABI_VERSION, "DNN_VM_AICPU_ASCEND", "AiCpuAscend", 3, GE_RUNTIME_DEVICE, GE_ENGINE_ATTACH, NULL,
    ge__aicpu_check_ascend, ge__aicpu_kernel, NULL, NULL, NULL, NULL, ge__aicpu_prepare};

static const ge_engine ge__aicpu_tf_engine = {
    GE_ENGINE_ABI_VERSION, "DNN_VM_AICPU", "AiCpu", 4, GE_RUNTIME_DEVICE, GE_ENGINE_ATTACH, NULL,
    ge__aicpu_check_tf, ge__aicpu_kernel, NULL, NULL, NULL, NULL, ge__aicpu_prepare};

GE_API const ge_engine *ge_ai_cpu_ascend_engine(void) { return &ge__aicpu_ascend_engine; }
GE_API const ge_engine *ge_ai_cpu_engine(void) { return &ge__aicpu_tf_engine; }

#ifdef __cplusplus
}
#endif
#endif /* GE_AI_CPU_IMPLEMENTATION_DONE */
#endif /* GE_AI_CPU_IMPLEMENTATION */

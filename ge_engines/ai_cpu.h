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
 * results, bit for bit, with its scratch made at load), and so have the
 * detectors' other data ops: RoiAlign (float32, channels-last, rois over
 * the threads), TopK (float32, a k-heap of 64-bit keys), ScatterElements
 * without a reduction and NonZero; each runs the reference off its path
 * and for every error. The reference
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

#include <math.h>
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
 * stopped at max_output_boxes_per_class; boxes spread far beyond their
 * widths (a batched NMS's class offsets) are tested only against the kept
 * boxes of nearby x cells (ge__aicpu_nms_grid). Float32 boxes and scores; anything else runs
 * the reference. The scratch lives after the state and is sized at
 * prepare from the shapes (it only grows at run when they change). */
typedef struct ge__aicpu_nms {
  int64_t center; /* center_point_box */
  size_t cap;     /* scratch bytes after this header */
} ge__aicpu_nms;

#define GE__AICPU_NMS_BUCKETS 1024 /* at most, of the x grid */

/* Scratch for N boxes per batch (corners, area, score, the kept boxes'
 * corners and areas by coordinate, their corners in float, two id lists,
 * the grid's chain links), the grid's bucket heads and `ids` more int64
 * (counts and kept ids per batch and class). */
static size_t ge__aicpu_nms_bytes(int64_t N, int64_t ids) {
  return (size_t)N * (11 * sizeof(double) + 4 * sizeof(float) + 3 * sizeof(int64_t)) +
         (size_t)(ids + GE__AICPU_NMS_BUCKETS) * sizeof(int64_t);
}

/* Kept boxes bucketed by their x1 on a grid of cells no narrower than
 * the widest box, when the boxes spread far beyond their widths (as the
 * class-offset boxes of a batched NMS do): a box can only intersect a
 * candidate if its x1 lies in (a.x1 - wmax, a.x2), a range of at most
 * three cells, so the candidate takes the exact test against those
 * cells' boxes alone. Pairs that do not intersect never suppress under
 * an IoU threshold >= 0, so the result is the full scan's. nb = 0: off. */
typedef struct ge__aicpu_nms_grid {
  int64_t nb, *head, *next; /* head[bucket], next[kept]: chains of kept ids (-1 ends) */
  double x0, cell, wmax;
} ge__aicpu_nms_grid;

/* The grid for one batch's corners (nb 0 when it would not pay or the
 * corners are not all finite). */
static void ge__aicpu_nms_grid_plan(ge__aicpu_nms_grid *g, const double *cor, int64_t N, double iou) {
  double lo = HUGE_VAL, hi = -HUGE_VAL, w = 0, span;
  int64_t i;
  g->nb = 0;
  g->x0 = g->wmax = 0;
  g->cell = 1;
  if (!(iou >= 0) || N < 64) return;
  for (i = 0; i < N; i++) {
    const double *b = cor + i * 4;
    if (!(b[0] - b[0] == 0 && b[1] - b[1] == 0 && b[2] - b[2] == 0 && b[3] - b[3] == 0)) return; /* inf or NaN */
    if (b[1] < lo) lo = b[1];
    if (b[3] > hi) hi = b[3];
    if (b[3] - b[1] > w) w = b[3] - b[1];
  }
  span = hi - lo;
  if (!(w > 0) || !(span / w >= 8)) return;
  g->nb = span / w >= GE__AICPU_NMS_BUCKETS ? GE__AICPU_NMS_BUCKETS : (int64_t)(span / w);
  g->x0 = lo;
  g->cell = span / (double)g->nb; /* >= w */
  g->wmax = w;
}

static int64_t ge__aicpu_nms_bucket(const ge__aicpu_nms_grid *g, double x) {
  double f = (x - g->x0) / g->cell;
  return f < 0 ? 0 : f >= (double)(g->nb - 1) ? g->nb - 1 : (int64_t)f;
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

/* Whether candidate a (area aa) is suppressed by a kept box of the
 * buckets its x range can meet (ge__aicpu_nms_grid). */
static int ge__aicpu_nms_grid_suppressed(const ge__aicpu_nms_grid *g, const double *a, double aa,
                                         const ge__aicpu_kept *k, double iou) {
  int64_t b = ge__aicpu_nms_bucket(g, a[1] - g->wmax), end = ge__aicpu_nms_bucket(g, a[3]), q;
  for (; b <= end; b++)
    for (q = g->head[b]; q >= 0; q = g->next[q]) {
      double o[4];
      o[0] = k->c[0][q], o[1] = k->c[1][q], o[2] = k->c[2][q], o[3] = k->c[3][q];
      if (ge__aicpu_nms_overlaps(a, aa, o, k->c[4][q], iou)) return 1;
    }
  return 0;
}

/* One class of one batch: the ids kept, in order, into ks; their count. */
static int64_t ge__aicpu_nms_class(const float *sc, int64_t N, const double *cor, const double *area, int use_thr,
                                   double thr, double iou, int64_t keep, double *score, const ge__aicpu_kept *kb,
                                   const ge__aicpu_nms_grid *g, int64_t *cand, int64_t *tmp, int64_t *ks) {
  int64_t nc = 0, kept = 0, i, p, q, left;
  int nan = 0, avx512 = 0;
#ifdef GE__AIC_X86
  avx512 = __builtin_cpu_supports("avx512f");
#endif
  for (i = 0; i < g->nb; i++) g->head[i] = -1;
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
    if (g->nb ? ge__aicpu_nms_grid_suppressed(g, cor + k * 4, area[k], kb, iou)
              : ge__aicpu_nms_suppressed(cor + k * 4, area[k], kb, kept, iou, avx512))
      continue;
    for (q = 0; q < 4; q++) kb->c[q][kept] = cor[k * 4 + q], kb->f[q][kept] = (float)cor[k * 4 + q];
    kb->c[4][kept] = area[k];
    if (g->nb) {
      int64_t bk = ge__aicpu_nms_bucket(g, cor[k * 4 + 1]);
      g->next[kept] = g->head[bk];
      g->head[bk] = kept;
    }
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
  ge__aicpu_nms_grid grid;
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
  grid.next = sel + B * C * N;
  grid.head = grid.next + N;
  for (b = 0; b < B && keep > 0; b++) {
    ge__aicpu_nms_corners((const float *)bv->data + b * N * 4, N, (int)s->center, cor, area);
    ge__aicpu_nms_grid_plan(&grid, cor, N, iou);
    for (cl = 0; cl < C; cl++)
      count += counts[b * C + cl] =
          ge__aicpu_nms_class((const float *)sv->data + (b * C + cl) * N, N, cor, area, use_thr, thr, iou, keep, score,
                              &kb, &grid, cand, tmp, sel + (b * C + cl) * N);
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

/* ---------------------------------------------------------- RoiAlign */

/* Float32 RoiAlign (opset 10 and 16: avg / max, half_pixel /
 * output_half_pixel, sampling_ratio 0 adaptive). The feature map goes to
 * channels-last once per run (scratch sized at prepare), so each bilinear
 * sample is four contiguous channel rows weighted into a channel vector:
 * the sample positions and weights are worked out once per roi and bin
 * (in double, operand for operand as the reference does), not once per
 * channel. Rois split over the threads. Anything off the path (other
 * dtypes, a batch index out of range, a roi the reference refuses) runs
 * the reference, which gives its result or its error. */
typedef struct ge__aicpu_roi {
  int64_t oh, ow, sr;
  double scale;
  int is_max, half, ok; /* ok: the attributes are ones the path takes */
  size_t cap;           /* floats of channels-last scratch after this header */
} ge__aicpu_roi;

#define GE__AICPU_ROI_CHUNK 256 /* channels accumulated at once (on the stack) */

static void ge__aicpu_roi_parse(const ge_node *n, ge__aicpu_roi *s) {
  const char *ms = ge_node_attr_string(n, "mode", "avg");
  const char *ct = ge_node_attr_string(n, "coordinate_transformation_mode", "half_pixel");
  s->oh = ge_node_attr_int(n, "output_height", 1);
  s->ow = ge_node_attr_int(n, "output_width", 1);
  s->sr = ge_node_attr_int(n, "sampling_ratio", 0);
  s->scale = ge_node_attr_float(n, "spatial_scale", 1.0);
  s->is_max = !strcmp(ms, "max");
  s->half = !strcmp(ct, "half_pixel");
  s->ok = (s->is_max || !strcmp(ms, "avg")) && (s->half || !strcmp(ct, "output_half_pixel")) && s->oh >= 1 &&
          s->ow >= 1 && s->sr >= 0 && s->oh <= 1 << 16 && s->ow <= 1 << 16;
}

/* The state with room for `need` floats (NULL: out of memory, error set). */
static ge__aicpu_roi *ge__aicpu_roi_state(ge_kernel_ctx *c, size_t need) {
  ge__aicpu_roi *s = (ge__aicpu_roi *)c->state;
  if (s && s->cap >= need) return s;
  s = (ge__aicpu_roi *)realloc(s, sizeof *s + need * sizeof(float));
  if (!s) {
    ge_kernel_error(c, GE_ERR_NOMEM, "out of memory for RoiAlign's scratch");
    return NULL;
  }
  if (!c->state) ge__aicpu_roi_parse(c->node, s);
  s->cap = need;
  c->state = s;
  return s;
}

/* One roi's box in feature-map coordinates and its sampling grid, as the
 * reference computes them; 0 when the reference must judge it. */
typedef struct ge__aicpu_roi_box {
  double sw, sh, bw, bh, cnt;
  int64_t gh, gw, b;
} ge__aicpu_roi_box;

static int ge__aicpu_roi_box_of(const ge__aicpu_roi *s, const float *roi, int64_t b, int64_t nb, ge__aicpu_roi_box *o) {
  double off = s->half ? 0.5 : 0, rw, rh, fh, fw;
  o->sw = roi[0] * s->scale - off;
  o->sh = roi[1] * s->scale - off;
  rw = roi[2] * s->scale - off - o->sw;
  rh = roi[3] * s->scale - off - o->sh;
  if (!s->half) {
    if (rw < 1) rw = 1;
    if (rh < 1) rh = 1;
  }
  o->bh = rh / (double)s->oh;
  o->bw = rw / (double)s->ow;
  fh = s->sr > 0 ? (double)s->sr : ceil(rh / (double)s->oh);
  fw = s->sr > 0 ? (double)s->sr : ceil(rw / (double)s->ow);
  if (!(fh >= 0 && fh <= (double)(1 << 20) && fw >= 0 && fw <= (double)(1 << 20)) || b < 0 || b >= nb) return 0;
  o->gh = (int64_t)fh;
  o->gw = (int64_t)fw;
  o->cnt = (double)(o->gh * o->gw > 1 ? o->gh * o->gw : 1);
  o->b = b;
  return 1;
}

/* One bilinear tap set along one axis: the two rows (or columns), the
 * fraction towards the second, and whether the sample lies on the map. */
typedef struct ge__aicpu_roi_tap {
  int64_t i0, i1;
  double l;
  int in;
} ge__aicpu_roi_tap;

static ge__aicpu_roi_tap ge__aicpu_roi_tap_at(double v, int64_t size) {
  ge__aicpu_roi_tap t;
  t.in = !(v < -1.0 || v > (double)size || v != v);
  t.i0 = t.i1 = 0;
  t.l = 0;
  if (!t.in) return t;
  if (v < 0) v = 0;
  t.i0 = (int64_t)v;
  if (t.i0 >= size - 1) {
    t.i0 = t.i1 = size - 1;
    v = (double)t.i0;
  } else {
    t.i1 = t.i0 + 1;
  }
  t.l = v - (double)t.i0;
  return t;
}

/* acc[i] += sum_q w[q] * p[q][i] (avg) or acc[i] = max(acc[i], max_q w[q] * p[q][i]) (max), i < n. */
typedef void (*ge__aicpu_roi_acc_fn)(float *acc, const float *const *p, const float *w, int64_t n, int is_max);

static void ge__aicpu_roi_acc(float *acc, const float *const *p, const float *w, int64_t n, int is_max) {
  int64_t i;
  for (i = 0; i < n; i++) {
    float a = w[0] * p[0][i], b = w[1] * p[1][i], c = w[2] * p[2][i], d = w[3] * p[3][i];
    if (is_max) {
      float m = a;
      if (b > m) m = b;
      if (c > m) m = c;
      if (d > m) m = d;
      if (m > acc[i]) acc[i] = m;
    } else {
      acc[i] += a + b + c + d;
    }
  }
}

#ifdef GE__AIC_X86
__attribute__((target("avx2,fma"))) static void ge__aicpu_roi_acc_avx2(float *acc, const float *const *p,
                                                                      const float *w, int64_t n, int is_max) {
  __m256 w0 = _mm256_set1_ps(w[0]), w1 = _mm256_set1_ps(w[1]), w2 = _mm256_set1_ps(w[2]), w3 = _mm256_set1_ps(w[3]);
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    __m256 a = _mm256_mul_ps(w0, _mm256_loadu_ps(p[0] + i)), b = _mm256_mul_ps(w1, _mm256_loadu_ps(p[1] + i));
    __m256 c = _mm256_mul_ps(w2, _mm256_loadu_ps(p[2] + i)), d = _mm256_mul_ps(w3, _mm256_loadu_ps(p[3] + i));
    __m256 s = _mm256_loadu_ps(acc + i);
    if (is_max) /* max(b, m) keeps m unless b > m: the scalar order */
      s = _mm256_max_ps(_mm256_max_ps(d, _mm256_max_ps(c, _mm256_max_ps(b, a))), s);
    else
      s = _mm256_add_ps(s, _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(a, b), c), d));
    _mm256_storeu_ps(acc + i, s);
  }
  if (i < n) {
    const float *q[4];
    q[0] = p[0] + i, q[1] = p[1] + i, q[2] = p[2] + i, q[3] = p[3] + i;
    ge__aicpu_roi_acc(acc + i, q, w, n - i, is_max);
  }
}

__attribute__((target("avx512f"))) static void ge__aicpu_roi_acc_avx512(float *acc, const float *const *p,
                                                                       const float *w, int64_t n, int is_max) {
  __m512 w0 = _mm512_set1_ps(w[0]), w1 = _mm512_set1_ps(w[1]), w2 = _mm512_set1_ps(w[2]), w3 = _mm512_set1_ps(w[3]);
  int64_t i;
  for (i = 0; i < n; i += 16) {
    __mmask16 m = (__mmask16)(n - i >= 16 ? 0xFFFF : (1u << (n - i)) - 1);
    __m512 a = _mm512_mul_ps(w0, _mm512_maskz_loadu_ps(m, p[0] + i));
    __m512 b = _mm512_mul_ps(w1, _mm512_maskz_loadu_ps(m, p[1] + i));
    __m512 c = _mm512_mul_ps(w2, _mm512_maskz_loadu_ps(m, p[2] + i));
    __m512 d = _mm512_mul_ps(w3, _mm512_maskz_loadu_ps(m, p[3] + i));
    __m512 s = _mm512_maskz_loadu_ps(m, acc + i);
    if (is_max)
      s = _mm512_max_ps(_mm512_max_ps(d, _mm512_max_ps(c, _mm512_max_ps(b, a))), s);
    else
      s = _mm512_add_ps(s, _mm512_add_ps(_mm512_add_ps(_mm512_add_ps(a, b), c), d));
    _mm512_mask_storeu_ps(acc + i, m, s);
  }
}
#endif

/* The accumulator this CPU runs best. */
static ge__aicpu_roi_acc_fn ge__aicpu_roi_pick(void) {
#ifdef GE__AIC_X86
  if (__builtin_cpu_supports("avx512f")) return ge__aicpu_roi_acc_avx512;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return ge__aicpu_roi_acc_avx2;
#endif
  return ge__aicpu_roi_acc;
}

/* A run's shared view: the channels-last map, the output, the rois. */
typedef struct ge__aicpu_roi_job {
  const ge__aicpu_roi *s;
  const float *x, *rois;
  float *xt, *y;
  const ge_value *bi;
  int64_t N, C, H, W;
  ge__aicpu_roi_acc_fn acc;
} ge__aicpu_roi_job;

static int64_t ge__aicpu_roi_batch(const ge_value *bi, int64_t r) {
  return bi->dtype == GE_DTYPE_INT64 ? ((const int64_t *)bi->data)[r] : ((const int32_t *)bi->data)[r];
}

/* Positions [begin, end) of every image (n * H * W + h * W + w) to channels last. */
static void ge__aicpu_roi_nhwc(void *arg, int64_t begin, int64_t end) {
  const ge__aicpu_roi_job *j = (const ge__aicpu_roi_job *)arg;
  int64_t HW = j->H * j->W, q, ch;
  for (q = begin; q < end; q++) {
    const float *src = j->x + (q / HW) * j->C * HW + q % HW;
    float *dst = j->xt + q * j->C;
    for (ch = 0; ch < j->C; ch++) dst[ch] = src[ch * HW];
  }
}

/* One output bin of one roi over channels [c0, c0 + n): its samples'
 * taps accumulated, then averaged (or the max), stored at stride bins. */
static void ge__aicpu_roi_bin(const ge__aicpu_roi_job *j, const ge__aicpu_roi_box *bx, int64_t ph, int64_t pw,
                              int64_t c0, int64_t n, float *out) {
  const ge__aicpu_roi *s = j->s;
  const float *img = j->xt + bx->b * j->H * j->W * j->C + c0;
  float acc[GE__AICPU_ROI_CHUNK];
  int64_t iy, ix, i, bins = s->oh * s->ow;
  int outside = 0;
  for (i = 0; i < n; i++) acc[i] = s->is_max ? -HUGE_VALF : 0.0f;
  for (iy = 0; iy < bx->gh; iy++) {
    ge__aicpu_roi_tap ty =
        ge__aicpu_roi_tap_at(bx->sh + (double)ph * bx->bh + ((double)iy + 0.5) * bx->bh / (double)bx->gh, j->H);
    for (ix = 0; ix < bx->gw; ix++) {
      ge__aicpu_roi_tap tx =
          ge__aicpu_roi_tap_at(bx->sw + (double)pw * bx->bw + ((double)ix + 0.5) * bx->bw / (double)bx->gw, j->W);
      const float *p[4];
      float w[4];
      if (!ty.in || !tx.in) { /* the sample reads nothing: 0 */
        outside = 1;
        continue;
      }
      w[0] = (float)((1 - ty.l) * (1 - tx.l));
      w[1] = (float)((1 - ty.l) * tx.l);
      w[2] = (float)(ty.l * (1 - tx.l));
      w[3] = (float)(ty.l * tx.l);
      p[0] = img + (ty.i0 * j->W + tx.i0) * j->C;
      p[1] = img + (ty.i0 * j->W + tx.i1) * j->C;
      p[2] = img + (ty.i1 * j->W + tx.i0) * j->C;
      p[3] = img + (ty.i1 * j->W + tx.i1) * j->C;
      j->acc(acc, p, w, n, s->is_max);
    }
  }
  if (s->is_max) {
    int none = bx->gh * bx->gw == 0;
    for (i = 0; i < n; i++) out[(c0 + i) * bins] = none ? 0.0f : outside && acc[i] < 0 ? 0.0f : acc[i];
  } else {
    for (i = 0; i < n; i++) out[(c0 + i) * bins] = (float)((double)acc[i] / bx->cnt);
  }
}

/* Rois [begin, end). */
static void ge__aicpu_roi_range(void *arg, int64_t begin, int64_t end) {
  const ge__aicpu_roi_job *j = (const ge__aicpu_roi_job *)arg;
  const ge__aicpu_roi *s = j->s;
  int64_t r, ph, pw, c0;
  for (r = begin; r < end; r++) {
    ge__aicpu_roi_box bx;
    float *out = j->y + r * j->C * s->oh * s->ow;
    ge__aicpu_roi_box_of(s, j->rois + r * 4, ge__aicpu_roi_batch(j->bi, r), j->N, &bx); /* checked before */
    for (ph = 0; ph < s->oh; ph++)
      for (pw = 0; pw < s->ow; pw++)
        for (c0 = 0; c0 < j->C; c0 += GE__AICPU_ROI_CHUNK)
          ge__aicpu_roi_bin(j, &bx, ph, pw, c0, j->C - c0 < GE__AICPU_ROI_CHUNK ? j->C - c0 : GE__AICPU_ROI_CHUNK,
                            out + ph * s->ow + pw);
  }
}

static ge_status ge__aicpu_roi_kernel(ge_kernel_ctx *c) {
  const ge_value *x = c->num_inputs > 0 ? c->inputs[0] : NULL, *rois = c->num_inputs > 1 ? c->inputs[1] : NULL;
  const ge_value *bi = c->num_inputs > 2 ? c->inputs[2] : NULL;
  ge__aicpu_roi_job j;
  ge__aicpu_roi *s;
  int64_t R, r, dims[4], k;
  ge_value *y;
  if (!x || !rois || !bi || x->dtype != GE_DTYPE_FLOAT32 || x->rank != 4 || rois->dtype != GE_DTYPE_FLOAT32 ||
      rois->rank != 2 || rois->dims[1] != 4 || bi->rank != 1 || bi->dims[0] != rois->dims[0] ||
      (bi->dtype != GE_DTYPE_INT64 && bi->dtype != GE_DTYPE_INT32))
    return ge_host_cpu_run_reference(c);
  for (k = 0; k < 4; k++)
    if (x->dims[k] < 0 || x->dims[k] > ((int64_t)1 << 31)) return ge_host_cpu_run_reference(c);
  if ((double)x->dims[0] * (double)x->dims[1] * (double)x->dims[2] * (double)x->dims[3] > (double)((int64_t)1 << 34))
    return ge_host_cpu_run_reference(c);
  if (!(s = ge__aicpu_roi_state(c, (size_t)x->numel))) return GE_ERR_NOMEM;
  if (ge_kernel_preparing(c)) return GE_OK;
  if (!s->ok) return ge_host_cpu_run_reference(c); /* its error */
  R = rois->dims[0];
  for (r = 0; r < R; r++) {
    ge__aicpu_roi_box bx;
    if (!ge__aicpu_roi_box_of(s, (const float *)rois->data + r * 4, ge__aicpu_roi_batch(bi, r), x->dims[0], &bx))
      return ge_host_cpu_run_reference(c);
  }
  dims[0] = R, dims[1] = x->dims[1], dims[2] = s->oh, dims[3] = s->ow;
  if (!(y = ge_kernel_output(c, 0, GE_DTYPE_FLOAT32, 4, dims))) return c->err && c->err->code ? c->err->code : GE_ERR_NOMEM;
  if (y->numel == 0) return GE_OK;
  j.s = s;
  j.x = (const float *)x->data;
  j.rois = (const float *)rois->data;
  j.xt = (float *)(void *)(s + 1);
  j.y = (float *)y->data;
  j.bi = bi;
  j.N = x->dims[0], j.C = x->dims[1], j.H = x->dims[2], j.W = x->dims[3];
  j.acc = ge__aicpu_roi_pick();
  ge_kernel_parallel_for(c, j.N * j.H * j.W, 64, ge__aicpu_roi_nhwc, &j);
  ge_kernel_parallel_for(c, R, 1, ge__aicpu_roi_range, &j);
  return GE_OK;
}

/* -------------------------------------------------------------- TopK */

/* Float32 TopK along any axis: each element becomes one 64-bit key (the
 * value's order-preserving bits over the complement of its index, so
 * larger keys come first and ties keep the lower index first, as ONNX
 * asks; NaN above every number as the reference orders it, and -0 equal
 * to 0), a min-heap of k keys keeps the best seen, and a heap sort puts
 * them in order: O(d + m log k) for m replacements instead of a full
 * sort. The heap lives after the state, sized at prepare when K is a
 * Const (else at the first run; it grows only when k does). Values are
 * copied bit for bit. Other dtypes and every error: the reference. */
typedef struct ge__aicpu_topk {
  int64_t axis, k_attr, k_const; /* k_const: K from a Const input, -1 when not one */
  int largest, has_k_attr;
  size_t cap; /* keys after this header */
} ge__aicpu_topk;

static void ge__aicpu_topk_parse(const ge_kernel_ctx *c, ge__aicpu_topk *s) {
  const ge_value *kv = c->num_inputs > 1 ? c->inputs[1] : NULL;
  const ge_node *o = kv ? ge_graph_input_origin(c->graph, c->node, 1, NULL) : NULL;
  s->axis = ge_node_attr_int(c->node, "axis", -1);
  s->largest = ge_node_attr_int(c->node, "largest", 1) != 0;
  s->has_k_attr = ge_node_attr(c->node, "k") != NULL;
  s->k_attr = ge_node_attr_int(c->node, "k", 0);
  s->k_const = -1;
  if (kv && kv->data && kv->numel == 1 && kv->dtype == GE_DTYPE_INT64 && o && !strcmp(o->op, "Const") &&
      ((const int64_t *)kv->data)[0] >= 0)
    s->k_const = ((const int64_t *)kv->data)[0];
}

/* The state with room for `keys` keys (NULL: out of memory, error set). */
static ge__aicpu_topk *ge__aicpu_topk_state(ge_kernel_ctx *c, size_t keys) {
  ge__aicpu_topk *s = (ge__aicpu_topk *)c->state;
  if (s && s->cap >= keys) return s;
  s = (ge__aicpu_topk *)realloc(s, sizeof *s + keys * sizeof(uint64_t));
  if (!s) {
    ge_kernel_error(c, GE_ERR_NOMEM, "out of memory for TopK's heap");
    return NULL;
  }
  if (!c->state) ge__aicpu_topk_parse(c, s);
  s->cap = keys;
  c->state = s;
  return s;
}

/* Element j's key: larger means earlier in the output. */
static uint64_t ge__aicpu_topk_key(float v, int64_t j, int largest) {
  uint32_t u;
  if (v != v) {
    u = 0xFFFFFFFFu;
  } else {
    if (v == 0) v = 0.0f; /* -0 ties with 0 */
    memcpy(&u, &v, sizeof u);
    u = (u & 0x80000000u) ? ~u : u | 0x80000000u;
  }
  if (!largest) u = ~u;
  return (uint64_t)u << 32 | (uint64_t)(0xFFFFFFFFu - (uint32_t)j);
}

static void ge__aicpu_topk_sift(uint64_t *h, int64_t n, int64_t i) {
  uint64_t v = h[i];
  for (;;) {
    int64_t l = 2 * i + 1, m;
    if (l >= n) break;
    m = l + 1 < n && h[l + 1] < h[l] ? l + 1 : l;
    if (h[m] >= v) break;
    h[i] = h[m];
    i = m;
  }
  h[i] = v;
}

/* One slice (d elements at stride st): its k best into y and yi (stride ost). */
static void ge__aicpu_topk_slice(const float *x, int64_t d, int64_t st, int64_t k, int largest, uint64_t *h, float *y,
                                 int64_t *yi, int64_t ost) {
  int64_t j, n;
  for (j = 0; j < k; j++) h[j] = ge__aicpu_topk_key(x[j * st], j, largest);
  for (j = k / 2 - 1; j >= 0; j--) ge__aicpu_topk_sift(h, k, j);
  for (j = k; j < d; j++) {
    uint64_t v = ge__aicpu_topk_key(x[j * st], j, largest);
    if (v > h[0]) {
      h[0] = v;
      ge__aicpu_topk_sift(h, k, 0);
    }
  }
  for (n = k; n > 1; n--) { /* the smallest to the end: descending keys */
    uint64_t t = h[0];
    h[0] = h[n - 1];
    h[n - 1] = t;
    ge__aicpu_topk_sift(h, n - 1, 0);
  }
  for (j = 0; j < k; j++) {
    int64_t id = (int64_t)(0xFFFFFFFFu - (uint32_t)h[j]);
    memcpy(y + j * ost, x + id * st, sizeof *y); /* the bits, NaN payloads included */
    yi[j * ost] = id;
  }
}

static ge_status ge__aicpu_topk_kernel(ge_kernel_ctx *c) {
  const ge_value *x = c->num_inputs > 0 ? c->inputs[0] : NULL, *kv = c->num_inputs > 1 ? c->inputs[1] : NULL;
  int64_t k, d, axis, outer, inner, o, t, dims[GE_MAX_RANK];
  ge__aicpu_topk *s;
  ge_value *y, *yi;
  if (!x || x->dtype != GE_DTYPE_FLOAT32 || x->rank < 1 || c->num_outputs < 2) return ge_host_cpu_run_reference(c);
  if (!(s = ge__aicpu_topk_state(c, 0))) return GE_ERR_NOMEM;
  if (ge_kernel_preparing(c)) /* the heap, when K is known */
    return s->k_const >= 0 && s->k_const <= ((int64_t)1 << 31) && !ge__aicpu_topk_state(c, (size_t)s->k_const)
               ? GE_ERR_NOMEM
               : GE_OK;
  if (kv && s->k_const >= 0) k = s->k_const;
  else if (kv && kv->numel == 1 && kv->dtype == GE_DTYPE_INT64) k = ((const int64_t *)kv->data)[0];
  else if (!kv && s->has_k_attr) k = s->k_attr;
  else return ge_host_cpu_run_reference(c);
  axis = s->axis < 0 ? s->axis + x->rank : s->axis;
  if (axis < 0 || axis >= x->rank) return ge_host_cpu_run_reference(c);
  d = x->dims[axis];
  if (k < 0 || k > d || d >= ((int64_t)1 << 32)) return ge_host_cpu_run_reference(c);
  memcpy(dims, x->dims, (size_t)x->rank * sizeof *dims);
  dims[axis] = k;
  if (!(y = ge_kernel_output(c, 0, GE_DTYPE_FLOAT32, x->rank, dims)) ||
      !(yi = ge_kernel_output(c, 1, GE_DTYPE_INT64, x->rank, dims)))
    return c->err && c->err->code ? c->err->code : GE_ERR_NOMEM;
  if (y->numel == 0) return GE_OK;
  if (!(s = ge__aicpu_topk_state(c, (size_t)k))) return GE_ERR_NOMEM;
  inner = 1;
  for (o = axis + 1; o < x->rank; o++) inner *= x->dims[o];
  outer = x->numel / (d * inner);
  for (o = 0; o < outer; o++)
    for (t = 0; t < inner; t++)
      ge__aicpu_topk_slice((const float *)x->data + o * d * inner + t, d, inner, k, s->largest, (uint64_t *)(void *)(s + 1),
                           (float *)y->data + o * k * inner + t, (int64_t *)yi->data + o * k * inner + t, inner);
  return GE_OK;
}

/* --------------------------------------------------- ScatterElements */

/* ScatterElements (and opset 9-10 Scatter) without a reduction, on any
 * 1-, 2-, 4- or 8-byte dtype with int64 or int32 indices: the data copied
 * (unless the output is the data's own buffer), then one tight loop per
 * row of the indices' last axis. The axis and the reduction are read at
 * prepare. Anything else, and every error (an index out of range
 * included, whose message is the reference's), runs the reference. */
typedef struct ge__aicpu_scatter {
  int64_t axis;
  int plain; /* reduction "none" (or absent) */
} ge__aicpu_scatter;

static ge__aicpu_scatter *ge__aicpu_scatter_state(ge_kernel_ctx *c) {
  ge__aicpu_scatter *s = (ge__aicpu_scatter *)c->state;
  if (s) return s;
  if (!(s = (ge__aicpu_scatter *)malloc(sizeof *s))) {
    ge_kernel_error(c, GE_ERR_NOMEM, "out of memory for ScatterElements' state");
    return NULL;
  }
  s->axis = ge_node_attr_int(c->node, "axis", 0);
  s->plain = !strcmp(ge_node_attr_string(c->node, "reduction", "none"), "none");
  c->state = s;
  return s;
}

/* Scatters every row of the indices; 0 at an index out of range. */
static int ge__aicpu_scatter_rows(char *y, const ge_value *x, const ge_value *ind, const char *u, int64_t axis,
                                  size_t es) {
  int64_t xstr[GE_MAX_RANK], idx[GE_MAX_RANK], r = ind->rank, L = ind->dims[r - 1], rows = ind->numel / L, row, j, d;
  int64_t da = x->dims[axis], sa, off = 0;
  int wide = ind->dtype == GE_DTYPE_INT64;
  xstr[r - 1] = 1;
  for (d = r - 2; d >= 0; d--) xstr[d] = xstr[d + 1] * x->dims[d + 1];
  sa = xstr[axis];
  memset(idx, 0, sizeof idx);
  for (row = 0; row < rows; row++) {
    const int64_t *ip = (const int64_t *)ind->data + row * L;
    const int32_t *ip32 = (const int32_t *)ind->data + row * L;
    const char *up = u + (size_t)(row * L) * es;
    int64_t step = axis == r - 1 ? 0 : 1; /* along the last axis: the index is the column */
    for (j = 0; j < L; j++) {
      int64_t v = wide ? ip[j] : ip32[j], at;
      if (v < 0) v += da;
      if (v < 0 || v >= da) return 0;
      at = off + v * sa + j * step;
      switch (es) {
      case 8: memcpy(y + at * 8, up + j * 8, 8); break;
      case 4: memcpy(y + at * 4, up + j * 4, 4); break;
      case 2: memcpy(y + at * 2, up + j * 2, 2); break;
      default: y[at] = up[j]; break;
      }
    }
    for (d = r - 2; d >= 0; d--) { /* the next row: odometer over the leading axes */
      if (d != axis) off += xstr[d];
      if (++idx[d] < ind->dims[d]) break;
      if (d != axis) off -= xstr[d] * idx[d];
      idx[d] = 0;
    }
  }
  return 1;
}

static ge_status ge__aicpu_scatter_kernel(ge_kernel_ctx *c) {
  const ge_value *x = c->num_inputs > 0 ? c->inputs[0] : NULL, *ind = c->num_inputs > 1 ? c->inputs[1] : NULL;
  const ge_value *u = c->num_inputs > 2 ? c->inputs[2] : NULL;
  ge__aicpu_scatter *s;
  int64_t axis, d;
  size_t es;
  ge_value *y;
  if (!(s = ge__aicpu_scatter_state(c))) return GE_ERR_NOMEM;
  if (ge_kernel_preparing(c)) return GE_OK;
  if (!x || !ind || !u || !s->plain || x->dtype == GE_DTYPE_STRING || u->dtype != x->dtype ||
      (ind->dtype != GE_DTYPE_INT64 && ind->dtype != GE_DTYPE_INT32) || x->rank < 1 || ind->rank != x->rank ||
      u->rank != x->rank)
    return ge_host_cpu_run_reference(c);
  es = ge_dtype_size(x->dtype);
  axis = s->axis < 0 ? s->axis + x->rank : s->axis;
  if ((es != 1 && es != 2 && es != 4 && es != 8) || axis < 0 || axis >= x->rank) return ge_host_cpu_run_reference(c);
  for (d = 0; d < x->rank; d++)
    if (u->dims[d] != ind->dims[d] || (d != axis && ind->dims[d] > x->dims[d])) return ge_host_cpu_run_reference(c);
  if (!(y = ge_kernel_output(c, 0, x->dtype, x->rank, x->dims))) return c->err && c->err->code ? c->err->code : GE_ERR_NOMEM;
  if (y->data != x->data && x->nbytes) memcpy(y->data, x->data, x->nbytes);
  if (ind->numel == 0) return GE_OK;
  if (!ge__aicpu_scatter_rows((char *)y->data, x, ind, (const char *)u->data, axis, es))
    return ge_host_cpu_run_reference(c); /* its message for the index out of range */
  return GE_OK;
}

/* ----------------------------------------------------------- NonZero */

/* NonZero of bool, 1-byte, int32, int64 and float32 tensors (-0 is zero,
 * NaN is not): a counting pass and a writing pass, each one loop over the
 * elements for the dtype, a non-zero's coordinates taken from its flat
 * index. No state. Other dtypes: the reference. */
#define GE__AICPU_NZ_COUNT(T)                                                                                          \
  do {                                                                                                                 \
    const T *p_ = (const T *)x->data;                                                                                  \
    for (k = 0; k < n; k++) nz += p_[k] != 0;                                                                          \
  } while (0)
#define GE__AICPU_NZ_WRITE(T)                                                                                          \
  do {                                                                                                                 \
    const T *p_ = (const T *)x->data;                                                                                  \
    for (k = 0; k < n; k++)                                                                                            \
      if (p_[k] != 0) ge__aicpu_nz_put(y, x, nz, j++, k);                                                              \
  } while (0)

/* Column j of y (rank x nz): the coordinates of flat index k of x. */
static void ge__aicpu_nz_put(int64_t *y, const ge_value *x, int64_t nz, int64_t j, int64_t k) {
  int32_t d;
  if (x->rank <= 1) {
    y[j] = x->rank ? k : 0;
    return;
  }
  for (d = x->rank - 1; d >= 0; d--) {
    y[d * nz + j] = k % x->dims[d];
    k /= x->dims[d];
  }
}

static ge_status ge__aicpu_nonzero_kernel(ge_kernel_ctx *c) {
  const ge_value *x = c->num_inputs > 0 ? c->inputs[0] : NULL;
  int64_t n, k, nz = 0, j = 0, dims[2], *y;
  size_t es;
  ge_value *out;
  if (ge_kernel_preparing(c)) return GE_OK;
  if (!x || (x->dtype != GE_DTYPE_FLOAT32 && x->dtype != GE_DTYPE_INT64 && x->dtype != GE_DTYPE_INT32 &&
             x->dtype != GE_DTYPE_BOOL && x->dtype != GE_DTYPE_UINT8 && x->dtype != GE_DTYPE_INT8))
    return ge_host_cpu_run_reference(c);
  n = x->numel;
  es = ge_dtype_size(x->dtype);
  if (x->dtype == GE_DTYPE_FLOAT32) GE__AICPU_NZ_COUNT(float);
  else if (es == 8) GE__AICPU_NZ_COUNT(int64_t);
  else if (es == 4) GE__AICPU_NZ_COUNT(int32_t);
  else GE__AICPU_NZ_COUNT(uint8_t);
  dims[0] = x->rank > 0 ? x->rank : 1;
  dims[1] = nz;
  if (!(out = ge_kernel_output(c, 0, GE_DTYPE_INT64, 2, dims))) return c->err && c->err->code ? c->err->code : GE_ERR_NOMEM;
  y = (int64_t *)out->data;
  if (x->dtype == GE_DTYPE_FLOAT32) GE__AICPU_NZ_WRITE(float);
  else if (es == 8) GE__AICPU_NZ_WRITE(int64_t);
  else if (es == 4) GE__AICPU_NZ_WRITE(int32_t);
  else GE__AICPU_NZ_WRITE(uint8_t);
  return GE_OK;
}

/* The fast kernels of this engine's own, by op. */
static ge_kernel_fn ge__aicpu_own_kernel(const ge_node *n) {
  if (!ge_node_in_onnx_domain(n)) return NULL;
  if (!strcmp(n->op, "NonMaxSuppression")) return ge__aicpu_nms_kernel;
  if (!strcmp(n->op, "RoiAlign")) return ge__aicpu_roi_kernel;
  if (!strcmp(n->op, "TopK")) return ge__aicpu_topk_kernel;
  if (!strcmp(n->op, "NonZero")) return ge__aicpu_nonzero_kernel;
  if (!strcmp(n->op, "ScatterElements") || !strcmp(n->op, "Scatter")) return ge__aicpu_scatter_kernel;
  return NULL;
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
  if (!k) k = ge__aicpu_own_kernel(n); /* NonMaxSuppression, RoiAlign, TopK, NonZero, ScatterElements */
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

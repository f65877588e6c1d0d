/* ge_engines/rnn_kernels.h — fast float32 LSTM, GRU and RNN (ONNX
 * semantics) for AI Core and AI CPU (issue 16: no reference kernel on a
 * hot path).
 *
 * Part of ge. ge_rnn_run(c, gemm) runs an ONNX-domain LSTM, GRU or RNN
 * node (ge_rnn_op tells which nodes are). The fast path takes float32 X,
 * W, R, B, initial_h, initial_c and P (peepholes), int32 or int64
 * sequence_lens, directions forward, reverse and bidirectional, layouts 0
 * and 1, linear_before_reset (GRU) and input_forget (LSTM), with the
 * default activations (LSTM Sigmoid, Tanh, Tanh; GRU Sigmoid, Tanh; RNN
 * Tanh) and no clip. Anything else (other activations, clip, other dtypes,
 * inconsistent shapes, bad sequence lengths) runs the host CPU reference
 * kernel, which also words the errors.
 *
 * The work: the input projection X W^T of every time step is one SGEMM per
 * direction (the caller's: AI Core passes ge_ai_core_sgemm; up to
 * GE__RNN_GEMV_ROWS rows a GEMV per row, which needs no packing), with the
 * biases that simply add folded in once; each step then adds H R^T as a
 * GEMV over R as it comes (one dot product per row of R, four rows at a
 * time sharing the loads of H: R streams once per step and needs no
 * packing, so an R computed at run time, as exporters of LSTMCell make it,
 * costs nothing extra), and the gates go through the vectorised sigmoid and
 * tanh of vector_kernels.h. The projection and scratch live in one block
 * in the kernel's c->state, grown only when a run needs more: a run of the
 * same shapes allocates nothing. The (batch
 * row, direction) recurrences are independent and are split over
 * ge_kernel_parallel_for.
 *
 * SIMD: AVX-512, AVX2+FMA or the base target, picked per run as
 * vector_kernels.h picks; the vector code needs vector_kernels.h's
 * implementation in the same translation unit (GE_IMPLEMENTATION gives
 * it). Otherwise, and with compilers without GNU vector types, plain C
 * loops with expf and tanhf run.
 *
 * Include after (or instead of) ge_graph.h; define
 * GE_RNN_KERNELS_IMPLEMENTATION (or GE_IMPLEMENTATION) in one translation
 * unit; host_cpu.h's implementation must be compiled somewhere too.
 * Thread safety: state only in the kernel context.
 */
#ifndef GE_ENGINE_RNN_KERNELS_H
#define GE_ENGINE_RNN_KERNELS_H

#include "ge_graph.h"
#include "host_cpu.h"
#include "vector_kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* C = alpha op(A) op(B) + beta C with ge_ai_core_sgemm's contract, and the
 * bytes of work it needs. */
typedef struct ge_rnn_gemm {
  void (*sgemm)(int trans_a, int trans_b, int64_t M, int64_t N, int64_t K, float alpha, const float *A, int64_t lda,
                const float *B, int64_t ldb, float beta, float *C, int64_t ldc, void *work);
  size_t (*work_size)(int64_t M, int64_t N, int64_t K);
} ge_rnn_gemm;

/* 1 when n is an ONNX-domain LSTM, GRU or RNN. */
GE_API int ge_rnn_op(const ge_node *n);
/* Runs c's LSTM, GRU or RNN node (the fast path or the reference, above);
 * gemm NULL: the input projection always goes row by row. */
GE_API ge_status ge_rnn_run(ge_kernel_ctx *c, const ge_rnn_gemm *gemm);

#ifdef __cplusplus
}
#endif
#endif /* GE_ENGINE_RNN_KERNELS_H */

#if defined(GE_IMPLEMENTATION) || defined(GE_RNN_KERNELS_IMPLEMENTATION)
#ifndef GE_RNN_KERNELS_IMPLEMENTATION_DONE
#define GE_RNN_KERNELS_IMPLEMENTATION_DONE

#include <math.h>
#include <stdlib.h>
#include <string.h>

#if defined(GE_VECTOR_KERNELS_IMPLEMENTATION_DONE) && GE__VK_ON
#define GE__RNN_SIMD 1
#else
#define GE__RNN_SIMD 0
#endif

#ifdef __cplusplus
extern "C" {
#endif

enum { GE__RNN_ELMAN = 0, GE__RNN_GRU = 1, GE__RNN_LSTM = 2 };

/* Up to this many time steps x batch rows, the input projection is a GEMV
 * per row (the SGEMM would pack all of W for them). */
#define GE__RNN_GEMV_ROWS 4

/* The kernel's state: one malloc'ed block, this header then the floats. */
typedef struct ge__rnn_state {
  size_t cap; /* bytes of the block */
  /* the node's attributes, parsed at load (the prepare call) or the
     first run, never per run; fast 0: every run takes the reference */
  int kind, ng, ndir, reverse, layout, lbr, input_forget, fast;
  int64_t hidden_size;
} ge__rnn_state;

/* One run's shapes, attributes and buffers, shared by the parallel shares. */
typedef struct ge__rnn_run {
  int kind, ndir, reverse, layout, lbr, input_forget, isa;
  int64_t seq, batch, isz, hs, ng;
  const float *h0, *c0, *p, *b;
  const ge_value *sl;
  const float *xg; /* [ndir][rows][ng * hs]: X W^T plus the additive biases */
  const float *r;  /* R: [ndir][ng * hs][hs] */
  float *scratch;  /* per share: gates, h, c, rh */
  float *y, *yh, *yc;
} ge__rnn_run;

/* ------------------------------------------------------ vector cells */

#if GE__RNN_SIMD
/* y[j] += dot(m + j * ld, h) for j < n (rows of m contiguous): four rows
 * at a time share the loads of h; each row's lanes are summed at its end. */
#define GE__RNN_ISA(isa)                                                                                               \
  GE__VK_INLINE GE__VK_ATTR_##isa ge__vk_v_##isa ge__rnn_ld_##isa(const float *p) {                                    \
    ge__vk_v_##isa v;                                                                                                  \
    memcpy(&v, p, sizeof v);                                                                                           \
    return v;                                                                                                          \
  }                                                                                                                    \
  GE__VK_INLINE GE__VK_ATTR_##isa void ge__rnn_st_##isa(float *p, ge__vk_v_##isa v) { memcpy(p, &v, sizeof v); }      \
  GE__VK_INLINE GE__VK_ATTR_##isa float ge__rnn_hsum_##isa(ge__vk_v_##isa v) {                                         \
    float s = 0.0f;                                                                                                    \
    int l;                                                                                                             \
    for (l = 0; l < GE__VK_W_##isa; l++) s += v[l];                                                                    \
    return s;                                                                                                          \
  }                                                                                                                    \
  GE__VK_ATTR_##isa static void ge__rnn_dots_##isa(const float *h, int64_t k_n, const float *m, int64_t ld, int64_t n, \
                                                   float *y) {                                                         \
    const int64_t w = GE__VK_W_##isa, kv = k_n - k_n % GE__VK_W_##isa;                                                 \
    int64_t j = 0, k, i;                                                                                               \
    for (; j + 4 <= n; j += 4) {                                                                                       \
      const float *m0 = m + j * ld, *m1 = m0 + ld, *m2 = m1 + ld, *m3 = m2 + ld;                                       \
      ge__vk_v_##isa a0 = ge__vk_splat_##isa(0.0f), a1 = a0, a2 = a0, a3 = a0;                                         \
      float t0 = 0.0f, t1 = 0.0f, t2 = 0.0f, t3 = 0.0f;                                                                \
      for (k = 0; k < kv; k += w) {                                                                                    \
        ge__vk_v_##isa hv = ge__rnn_ld_##isa(h + k);                                                                   \
        a0 += hv * ge__rnn_ld_##isa(m0 + k);                                                                           \
        a1 += hv * ge__rnn_ld_##isa(m1 + k);                                                                           \
        a2 += hv * ge__rnn_ld_##isa(m2 + k);                                                                           \
        a3 += hv * ge__rnn_ld_##isa(m3 + k);                                                                           \
      }                                                                                                                \
      for (; k < k_n; k++) t0 += h[k] * m0[k], t1 += h[k] * m1[k], t2 += h[k] * m2[k], t3 += h[k] * m3[k];            \
      y[j] += ge__rnn_hsum_##isa(a0) + t0;                                                                             \
      y[j + 1] += ge__rnn_hsum_##isa(a1) + t1;                                                                         \
      y[j + 2] += ge__rnn_hsum_##isa(a2) + t2;                                                                         \
      y[j + 3] += ge__rnn_hsum_##isa(a3) + t3;                                                                         \
    }                                                                                                                  \
    for (; j < n; j++) {                                                                                               \
      const float *m0 = m + j * ld;                                                                                    \
      ge__vk_v_##isa a0 = ge__vk_splat_##isa(0.0f);                                                                    \
      float t0 = 0.0f;                                                                                                 \
      for (k = 0; k < kv; k += w) a0 += ge__rnn_ld_##isa(h + k) * ge__rnn_ld_##isa(m0 + k);                            \
      for (i = k; i < k_n; i++) t0 += h[i] * m0[i];                                                                    \
      y[j] += ge__rnn_hsum_##isa(a0) + t0;                                                                             \
    }                                                                                                                  \
  }                                                                                                                    \
  /* x[0..n) = sigmoid (act 0) or tanh (act 1) of x[0..n). */                                                          \
  GE__VK_ATTR_##isa static void ge__rnn_act_##isa(int act, float *x, int64_t n) {                                      \
    const int64_t w = GE__VK_W_##isa;                                                                                  \
    int64_t j = 0;                                                                                                     \
    float tail[GE__VK_W_##isa];                                                                                        \
    for (; j + w <= n; j += w) {                                                                                       \
      ge__vk_v_##isa v = ge__rnn_ld_##isa(x + j);                                                                      \
      ge__rnn_st_##isa(x + j, act ? ge__vk_tanh_##isa(v) : ge__vk_sigmoid_##isa(v));                                   \
    }                                                                                                                  \
    if (j < n) { /* the tail through one padded vector */                                                              \
      ge__vk_v_##isa v;                                                                                                \
      memset(tail, 0, sizeof tail);                                                                                    \
      memcpy(tail, x + j, (size_t)(n - j) * sizeof(float));                                                            \
      v = ge__rnn_ld_##isa(tail);                                                                                      \
      ge__rnn_st_##isa(tail, act ? ge__vk_tanh_##isa(v) : ge__vk_sigmoid_##isa(v));                                    \
      memcpy(x + j, tail, (size_t)(n - j) * sizeof(float));                                                            \
    }                                                                                                                  \
  }
GE__RNN_ISA(base)
GE__RNN_ISA(avx2)
GE__RNN_ISA(avx512)

static void ge__rnn_dots(int isa, const float *h, int64_t k_n, const float *m, int64_t ld, int64_t n, float *y) {
  GE__VK_PICK(isa, ge__rnn_dots)(h, k_n, m, ld, n, y);
}
static void ge__rnn_act(int isa, int act, float *x, int64_t n) { GE__VK_PICK(isa, ge__rnn_act)(act, x, n); }
static int ge__rnn_isa(void) { return ge__vk_isa(); }
#else
static void ge__rnn_dots(int isa, const float *h, int64_t k_n, const float *m, int64_t ld, int64_t n, float *y) {
  int64_t j, k;
  (void)isa;
  for (j = 0; j < n; j++)
    for (k = 0; k < k_n; k++) y[j] += h[k] * m[j * ld + k];
}
static void ge__rnn_act(int isa, int act, float *x, int64_t n) {
  int64_t j;
  (void)isa;
  for (j = 0; j < n; j++) x[j] = act ? tanhf(x[j]) : 1.0f / (1.0f + expf(-x[j]));
}
static int ge__rnn_isa(void) { return 0; }
#endif

/* --------------------------------------------------------- the cells */

/* Floats of scratch one share needs: gates, h, c and one more row. */
static int64_t ge__rnn_scratch_floats(int64_t ng, int64_t hs) { return ng * hs + 3 * hs + 16; }

/* One (batch row, direction) recurrence over its sequence. Steps past the
 * row's sequence length leave Y at zero (the caller zeroes it). */
static void ge__rnn_one(const ge__rnn_run *r, int64_t b, int d, float *scratch) {
  const int64_t hs = r->hs, gh = r->ng * hs, rows = r->seq * r->batch;
  const int rev = r->ndir == 2 ? d == 1 : r->reverse;
  const int64_t so = (r->layout ? b * r->ndir + d : d * r->batch + b) * hs; /* state offset */
  const float *rd = r->r + (size_t)d * gh * hs, *xg = r->xg + (size_t)d * rows * gh;
  const float *p = r->p ? r->p + d * 3 * hs : NULL;
  const float *rbh = r->b ? r->b + d * 2 * gh + gh + 2 * hs : NULL; /* GRU: R's bias of gate h */
  float *g = scratch, *h = g + gh, *cs = h + hs, *aux = cs + hs;
  int64_t len = r->seq, step, j;
  if (r->sl) len = r->sl->dtype == GE_DTYPE_INT32 ? ((const int32_t *)r->sl->data)[b] : ((const int64_t *)r->sl->data)[b];
  for (j = 0; j < hs; j++) {
    h[j] = r->h0 ? r->h0[so + j] : 0.0f;
    cs[j] = r->c0 ? r->c0[so + j] : 0.0f;
  }
  for (step = 0; step < len; step++) {
    const int64_t t = rev ? len - 1 - step : step, row = r->layout ? b * r->seq + t : t * r->batch + b;
    memcpy(g, xg + row * gh, (size_t)gh * sizeof(float));
    if (r->kind == GE__RNN_LSTM) { /* gates i, o, f, c */
      float *gi = g, *go = g + hs, *gf = g + 2 * hs, *gc = g + 3 * hs;
      ge__rnn_dots(r->isa, h, hs, rd, hs, gh, g);
      if (p)
        for (j = 0; j < hs; j++) gi[j] += p[j] * cs[j], gf[j] += p[2 * hs + j] * cs[j];
      ge__rnn_act(r->isa, 0, gi, hs);
      if (r->input_forget)
        for (j = 0; j < hs; j++) gf[j] = 1.0f - gi[j];
      else
        ge__rnn_act(r->isa, 0, gf, hs);
      ge__rnn_act(r->isa, 1, gc, hs);
      for (j = 0; j < hs; j++) cs[j] = gf[j] * cs[j] + gi[j] * gc[j];
      if (p)
        for (j = 0; j < hs; j++) go[j] += p[hs + j] * cs[j];
      ge__rnn_act(r->isa, 0, go, hs);
      memcpy(aux, cs, (size_t)hs * sizeof(float));
      ge__rnn_act(r->isa, 1, aux, hs);
      for (j = 0; j < hs; j++) h[j] = go[j] * aux[j];
    } else if (r->kind == GE__RNN_GRU) { /* gates z, r, h */
      float *gz = g, *gr = g + hs, *gn = g + 2 * hs;
      ge__rnn_dots(r->isa, h, hs, rd, hs, 2 * hs, g);
      if (r->lbr) { /* h~ = tanh(x + r (H Rh + Rbh)) */
        if (rbh) memcpy(aux, rbh, (size_t)hs * sizeof(float));
        else memset(aux, 0, (size_t)hs * sizeof(float));
        ge__rnn_dots(r->isa, h, hs, rd + 2 * hs * hs, hs, hs, aux);
      }
      ge__rnn_act(r->isa, 0, g, 2 * hs);
      if (r->lbr) {
        for (j = 0; j < hs; j++) gn[j] += gr[j] * aux[j];
      } else { /* h~ = tanh(x + (r H) Rh + Rbh), Rbh folded into x */
        for (j = 0; j < hs; j++) aux[j] = gr[j] * h[j];
        ge__rnn_dots(r->isa, aux, hs, rd + 2 * hs * hs, hs, hs, gn);
      }
      ge__rnn_act(r->isa, 1, gn, hs);
      for (j = 0; j < hs; j++) h[j] = (1.0f - gz[j]) * gn[j] + gz[j] * h[j];
    } else {
      ge__rnn_dots(r->isa, h, hs, rd, hs, gh, g);
      ge__rnn_act(r->isa, 1, g, hs);
      memcpy(h, g, (size_t)hs * sizeof(float));
    }
    if (r->y)
      memcpy(r->y + (r->layout ? (b * r->seq + t) * r->ndir + d : (t * r->ndir + d) * r->batch + b) * hs, h,
             (size_t)hs * sizeof(float));
  }
  if (r->yh) memcpy(r->yh + so, h, (size_t)hs * sizeof(float));
  if (r->yc) memcpy(r->yc + so, cs, (size_t)hs * sizeof(float));
}

/* Shares of ge_kernel_parallel_for: index i is batch row i / ndir,
 * direction i % ndir, with scratch of its own. */
static void ge__rnn_share(void *arg, int64_t begin, int64_t end) {
  const ge__rnn_run *r = (const ge__rnn_run *)arg;
  int64_t i;
  for (i = begin; i < end; i++)
    ge__rnn_one(r, i / r->ndir, (int)(i % r->ndir), r->scratch + i * ge__rnn_scratch_floats(r->ng, r->hs));
}

/* ------------------------------------------------------------ kernel */

static ge_status ge__rnn_reference(ge_kernel_ctx *c) { return ge_host_cpu_run_reference(c); }

/* A float32 input of the given dims (NULL dims entries: any), or absent. */
static int ge__rnn_in_ok(const ge_value *v, int32_t rank, const int64_t *dims) {
  int32_t i;
  if (!v) return 1;
  if (v->dtype != GE_DTYPE_FLOAT32 || v->rank != rank || (v->numel > 0 && !v->data)) return 0;
  for (i = 0; i < rank; i++)
    if (v->dims[i] != dims[i]) return 0;
  return 1;
}

/* The activations the fast path computes: none given, or the defaults for
 * every direction; no alphas, betas or clip. */
static int ge__rnn_default_acts(const ge_node *n, int kind, int ndir) {
  static const char *const dflt[3][3] = {{"Tanh", NULL, NULL}, {"Sigmoid", "Tanh", NULL}, {"Sigmoid", "Tanh", "Tanh"}};
  const ge_attr *a = ge_node_attr(n, "activations");
  int per = kind + 1, i;
  if (ge_node_attr(n, "activation_alpha") || ge_node_attr(n, "activation_beta") || ge_node_attr(n, "clip")) return 0;
  if (!a) return 1;
  if (a->type != GE_ATTR_STRINGS || a->count != per * ndir) return 0;
  for (i = 0; i < a->count; i++)
    if (strcmp(a->v.strings[i], dflt[kind][i % per]) != 0) return 0;
  return 1;
}

/* The state block with room for `floats` floats after its header (grown
 * keeping the header only). NULL when out of memory. */
static ge__rnn_state *ge__rnn_room(ge_kernel_ctx *c, size_t floats) {
  ge__rnn_state *s = (ge__rnn_state *)c->state, *t;
  size_t need = sizeof(ge__rnn_state) + 64 + floats * sizeof(float);
  if (s && s->cap >= need) return s;
  if (!(t = (ge__rnn_state *)malloc(need))) return NULL;
  if (s) *t = *s;
  free(s);
  c->state = t;
  t->cap = need;
  return t;
}

/* Parses the node's attributes into s (once). */
static void ge__rnn_parse(const ge_node *n, ge__rnn_state *s) {
  const char *dir = ge_node_attr_string(n, "direction", "forward");
  s->kind = n->op[0] == 'L' ? GE__RNN_LSTM : n->op[0] == 'G' ? GE__RNN_GRU : GE__RNN_ELMAN;
  s->ng = s->kind == GE__RNN_LSTM ? 4 : s->kind == GE__RNN_GRU ? 3 : 1;
  s->ndir = !strcmp(dir, "bidirectional") ? 2 : !strcmp(dir, "forward") || !strcmp(dir, "reverse") ? 1 : 0;
  s->reverse = !strcmp(dir, "reverse");
  s->layout = (int)ge_node_attr_int(n, "layout", 0);
  s->lbr = s->kind == GE__RNN_GRU && ge_node_attr_int(n, "linear_before_reset", 0) != 0;
  s->input_forget = s->kind == GE__RNN_LSTM && ge_node_attr_int(n, "input_forget", 0) != 0;
  s->hidden_size = ge_node_attr_int(n, "hidden_size", -1);
  s->fast = s->ndir && (s->layout == 0 || s->layout == 1) && ge__rnn_default_acts(n, s->kind, s->ndir);
}

static float *ge__rnn_floats(ge__rnn_state *s) {
  uintptr_t a = (uintptr_t)(s + 1);
  return (float *)((a + 63) & ~(uintptr_t)63);
}

GE_API ge_status ge_rnn_run(ge_kernel_ctx *c, const ge_rnn_gemm *gemm) {
  const ge_node *n = c->node;
  const ge_value *in[8], *X, *W, *R, *B, *SL;
  ge__rnn_run r;
  ge__rnn_state *s;
  ge_value *Y = NULL, *Yh = NULL, *Yc = NULL;
  int64_t dims[4], hdims[3], rows, gh, d, k, j, tasks;
  size_t n_xg, n_scr, n_work;
  float *xg;
  uint32_t i;
  memset(&r, 0, sizeof r);
  for (i = 0; i < 8; i++) in[i] = i < c->num_inputs ? c->inputs[i] : NULL;
  X = in[0], W = in[1], R = in[2], B = in[3], SL = in[4];
  if (!c->state) {
    if (!(s = ge__rnn_room(c, 0))) return ge_kernel_error(c, GE_ERR_NOMEM, "out of memory for the recurrent state");
    ge__rnn_parse(n, s);
  }
  s = (ge__rnn_state *)c->state;
  r.kind = s->kind, r.ng = s->ng, r.ndir = s->ndir, r.reverse = s->reverse, r.layout = s->layout;
  r.lbr = s->lbr, r.input_forget = s->input_forget;
  /* off the fast path: the reference decides (and words any error) */
  if (!s->fast || !X || !W || !R || X->dtype != GE_DTYPE_FLOAT32 || X->rank != 3 || R->rank != 3 ||
      (r.kind != GE__RNN_LSTM && c->num_inputs > 6))
    return ge__rnn_reference(c);
  r.seq = X->dims[r.layout ? 1 : 0];
  r.batch = X->dims[r.layout ? 0 : 1];
  r.isz = X->dims[2];
  r.hs = R->dims[2];
  if (s->hidden_size >= 0 && s->hidden_size != r.hs) return ge__rnn_reference(c);
  gh = r.ng * r.hs;
  dims[0] = r.ndir, dims[1] = gh, dims[2] = r.isz;
  if (!ge__rnn_in_ok(W, 3, dims)) return ge__rnn_reference(c);
  dims[2] = r.hs;
  if (!ge__rnn_in_ok(R, 3, dims)) return ge__rnn_reference(c);
  dims[1] = 2 * gh;
  if (!ge__rnn_in_ok(B, 2, dims)) return ge__rnn_reference(c);
  hdims[0] = r.layout ? r.batch : r.ndir, hdims[1] = r.layout ? r.ndir : r.batch, hdims[2] = r.hs;
  if (!ge__rnn_in_ok(in[5], 3, hdims) || (r.kind == GE__RNN_LSTM && !ge__rnn_in_ok(in[6], 3, hdims)))
    return ge__rnn_reference(c);
  dims[1] = 3 * r.hs;
  if (r.kind == GE__RNN_LSTM && !ge__rnn_in_ok(in[7], 2, dims)) return ge__rnn_reference(c);
  if (SL && !ge_kernel_preparing(c)) { /* the lengths' bytes come with the run */
    if ((SL->dtype != GE_DTYPE_INT32 && SL->dtype != GE_DTYPE_INT64) || SL->rank != 1 || SL->dims[0] != r.batch ||
        (SL->numel && !SL->data))
      return ge__rnn_reference(c);
    for (k = 0; k < r.batch; k++) {
      int64_t v = SL->dtype == GE_DTYPE_INT32 ? ((const int32_t *)SL->data)[k] : ((const int64_t *)SL->data)[k];
      if (v < 0 || v > r.seq) return ge__rnn_reference(c);
    }
  }
  rows = r.seq * r.batch;
  tasks = r.batch * r.ndir;
  n_xg = (size_t)(r.ndir * rows * gh);
  n_scr = (size_t)(tasks * ge__rnn_scratch_floats(r.ng, r.hs));
  n_work = gemm ? (gemm->work_size(rows, gh, r.isz) + sizeof(float) - 1) / sizeof(float) + 16 : 16;
  if (!(s = ge__rnn_room(c, n_xg + n_scr + n_work)))
    return ge_kernel_error(c, GE_ERR_NOMEM, "out of memory for the recurrent state");
  if (ge_kernel_preparing(c)) return GE_OK; /* attributes parsed, room made: all a run allocates */
  xg = ge__rnn_floats(s);
  r.scratch = xg + n_xg;
  /* outputs */
  dims[0] = r.layout ? r.batch : r.seq, dims[1] = r.layout ? r.seq : r.ndir;
  dims[2] = r.layout ? r.ndir : r.batch, dims[3] = r.hs;
  if ((c->num_outputs > 0 && !(Y = ge_kernel_output(c, 0, GE_DTYPE_FLOAT32, 4, dims))) ||
      (c->num_outputs > 1 && !(Yh = ge_kernel_output(c, 1, GE_DTYPE_FLOAT32, 3, hdims))) ||
      (r.kind == GE__RNN_LSTM && c->num_outputs > 2 && !(Yc = ge_kernel_output(c, 2, GE_DTYPE_FLOAT32, 3, hdims))))
    return c->err && c->err->code ? c->err->code : ge_kernel_error(c, GE_ERR_NOMEM, "cannot allocate the outputs");
  if (Y && Y->nbytes) memset(Y->data, 0, Y->nbytes);
  r.isa = ge__rnn_isa();
  /* X W^T for every step, plus the biases that simply add */
  for (d = 0; d < r.ndir && rows > 0 && gh > 0; d++) {
    float *xd = xg + d * rows * gh;
    const float *wd = (const float *)W->data + d * gh * r.isz;
    if (r.isz > 0 && gemm && rows > GE__RNN_GEMV_ROWS) {
      gemm->sgemm(0, 1, rows, gh, r.isz, 1.0f, (const float *)X->data, r.isz, wd, r.isz, 0.0f, xd, gh, r.scratch + n_scr);
    } else { /* one GEMV per row: for a few rows, cheaper than packing W */
      memset(xd, 0, (size_t)(rows * gh) * sizeof(float));
      for (k = 0; k < rows; k++) ge__rnn_dots(r.isa, (const float *)X->data + k * r.isz, r.isz, wd, r.isz, gh, xd + k * gh);
    }
    if (B) {
      const float *wb = (const float *)B->data + d * 2 * gh, *rb = wb + gh;
      float *bias = r.scratch; /* scratch is free until the recurrence */
      for (j = 0; j < gh; j++) bias[j] = wb[j] + (r.lbr && j >= 2 * r.hs ? 0.0f : rb[j]);
      for (k = 0; k < rows; k++)
        for (j = 0; j < gh; j++) xd[k * gh + j] += bias[j];
    }
  }
  r.xg = xg;
  r.r = (const float *)R->data;
  r.sl = SL;
  r.b = B ? (const float *)B->data : NULL;
  r.h0 = in[5] ? (const float *)in[5]->data : NULL;
  r.c0 = r.kind == GE__RNN_LSTM && in[6] ? (const float *)in[6]->data : NULL;
  r.p = r.kind == GE__RNN_LSTM && in[7] ? (const float *)in[7]->data : NULL;
  r.y = Y ? (float *)Y->data : NULL;
  r.yh = Yh ? (float *)Yh->data : NULL;
  r.yc = Yc ? (float *)Yc->data : NULL;
  if (r.hs > 0) ge_kernel_parallel_for(c, tasks, 1, ge__rnn_share, &r);
  return GE_OK;
}

GE_API int ge_rnn_op(const ge_node *n) {
  return ge_node_in_onnx_domain(n) && (!strcmp(n->op, "LSTM") || !strcmp(n->op, "GRU") || !strcmp(n->op, "RNN"));
}

#ifdef __cplusplus
}
#endif
#endif /* GE_RNN_KERNELS_IMPLEMENTATION_DONE */
#endif /* GE_RNN_KERNELS_IMPLEMENTATION */

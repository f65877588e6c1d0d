/* Fast LSTM, GRU and RNN (ge_engines/rnn_kernels.h) against the host CPU
 * reference kernels on seeded random shapes and attributes (directions,
 * layouts, sequence_lens, initial states, peepholes, linear_before_reset,
 * input_forget), with AI Core's SGEMM and with the kernel's own projection,
 * serially and on a two-thread pool; runs that repeat on one
 * context (state reused, R changed); the cases it hands to the reference. */
#include "ge_engines/ai_core.h"
#include "ge_engines/ai_cpu.h"
#include "tests/test.h"
#include "tests/kernel_harness.h"
#include "tests/rng.h"
#include "tests/test_pool.h"

#include <math.h>
#include <stdlib.h>

/* The two ways the kernel runs: with AI Core's SGEMM (the engine's kernel)
 * and with its own row-by-row projection (no SGEMM given). */
static ge_status rnn_own_gemm(ge_kernel_ctx *c) { return ge_rnn_run(c, NULL); }
static ge_kernel_fn fast_kernel(const ge_node *n, int own) {
  if (!ge_rnn_op(n)) return NULL;
  return own ? rnn_own_gemm : ge_ai_core_engine()->kernel(ge_ai_core_engine(), n);
}

/* ------------------------------------------------------------ cases */

typedef struct rnn_case {
  int kind; /* 0 RNN, 1 GRU, 2 LSTM */
  int ndir, reverse, layout, has_b, has_sl, has_h0, has_c0, has_p, lbr, input_forget;
  int64_t seq, batch, isz, hs;
} rnn_case;

static const char *const kind_op[3] = {"RNN", "GRU", "LSTM"};

static float urand(tu_rng *r) { return (float)tu_below(r, 2001) / 1000.0f - 1.0f; }

static ge_value rand_value(tu_rng *r, int32_t rank, const int64_t *dims, float scale) {
  int64_t n = 1, i;
  int32_t k;
  float *d;
  ge_value v;
  for (k = 0; k < rank; k++) n *= dims[k];
  d = (float *)malloc((size_t)(n + 1) * sizeof(float));
  for (i = 0; i < n; i++) d[i] = scale * urand(r);
  v = kh_value(GE_DTYPE_FLOAT32, rank, dims, d);
  free(d);
  return v;
}

/* Max |a - b| / (1 + |b|) over two outputs (inf when shapes differ). */
static double out_diff(const ge_value *a, const ge_value *b) {
  double m = 0;
  int64_t i;
  int32_t k;
  if (a->rank != b->rank || a->dtype != b->dtype) return INFINITY;
  for (k = 0; k < a->rank; k++)
    if (a->dims[k] != b->dims[k]) return INFINITY;
  for (i = 0; i < a->numel; i++) {
    double x = ((const float *)a->data)[i], y = ((const float *)b->data)[i], e = fabs(x - y) / (1 + fabs(y));
    if (!(e <= m)) m = e;
  }
  return m;
}

static rnn_case random_case(tu_rng *r) {
  rnn_case c;
  memset(&c, 0, sizeof c);
  c.kind = (int)tu_below(r, 3);
  c.ndir = 1 + (int)tu_below(r, 2);
  c.reverse = c.ndir == 1 && tu_below(r, 2);
  c.layout = (int)tu_below(r, 2);
  c.seq = tu_below(r, 6);
  c.batch = 1 + tu_below(r, 4);
  c.isz = 1 + tu_below(r, 24);
  c.hs = 1 + tu_below(r, 70); /* tails of every vector width, and 4-vector blocks */
  c.has_b = tu_below(r, 4) != 0;
  c.has_sl = tu_below(r, 3) == 0;
  c.has_h0 = tu_below(r, 2);
  c.has_c0 = c.kind == 2 && tu_below(r, 2);
  c.has_p = c.kind == 2 && tu_below(r, 3) == 0;
  c.lbr = c.kind == 1 && tu_below(r, 2);
  c.input_forget = c.kind == 2 && tu_below(r, 5) == 0;
  return c;
}

/* Builds the node of case rc with random inputs in[0..8). */
static int make_case(tu_rng *r, const rnn_case *rc, kt *t, ge_value *in, ge_value **pin, uint32_t *n_in) {
  int64_t ng = rc->kind == 2 ? 4 : rc->kind == 1 ? 3 : 1, d3[3], d2[2], i;
  const char *dir = rc->ndir == 2 ? "bidirectional" : rc->reverse ? "reverse" : "forward";
  int32_t sl[8];
  uint32_t k, n = rc->kind == 2 ? 8 : 6;
  memset(in, 0, 8 * sizeof *in);
  d3[0] = rc->layout ? rc->batch : rc->seq, d3[1] = rc->layout ? rc->seq : rc->batch, d3[2] = rc->isz;
  in[0] = rand_value(r, 3, d3, 2.0f);
  d3[0] = rc->ndir, d3[1] = ng * rc->hs, d3[2] = rc->isz;
  in[1] = rand_value(r, 3, d3, 0.6f);
  d3[2] = rc->hs;
  in[2] = rand_value(r, 3, d3, 0.6f);
  d2[0] = rc->ndir, d2[1] = 2 * ng * rc->hs;
  if (rc->has_b) in[3] = rand_value(r, 2, d2, 0.5f);
  if (rc->has_sl) {
    for (i = 0; i < rc->batch; i++) sl[i] = (int32_t)tu_below(r, (uint32_t)rc->seq + 1);
    d2[0] = rc->batch;
    in[4] = kh_value(GE_DTYPE_INT32, 1, d2, sl);
  }
  d3[0] = rc->layout ? rc->batch : rc->ndir, d3[1] = rc->layout ? rc->ndir : rc->batch, d3[2] = rc->hs;
  if (rc->has_h0) in[5] = rand_value(r, 3, d3, 1.0f);
  if (rc->has_c0) in[6] = rand_value(r, 3, d3, 1.0f);
  d2[0] = rc->ndir, d2[1] = 3 * rc->hs;
  if (rc->has_p) in[7] = rand_value(r, 2, d2, 0.5f);
  while (n > 3 && !in[n - 1].data && in[n - 1].rank == 0) n--; /* trailing absent inputs left off */
  for (k = 0; k < n; k++) pin[k] = in[k].data || in[k].rank ? &in[k] : NULL;
  *n_in = n;
  if (!kt_make(t, kind_op[rc->kind], n, pin, rc->kind == 2 ? 3 : 2)) return 0;
  ge_node_set_attr_string(t->g, t->id, "direction", dir, &t->err);
  ge_node_set_attr_int(t->g, t->id, "layout", rc->layout, &t->err);
  if (tu_below(r, 2)) ge_node_set_attr_int(t->g, t->id, "hidden_size", rc->hs, &t->err);
  if (rc->lbr) ge_node_set_attr_int(t->g, t->id, "linear_before_reset", 1, &t->err);
  if (rc->input_forget) ge_node_set_attr_int(t->g, t->id, "input_forget", 1, &t->err);
  return 1;
}

static void free_values(ge_value *v, uint32_t n) {
  uint32_t i;
  for (i = 0; i < n; i++) kh_free(&v[i]);
}

/* Runs the fast kernel (serially or on the pool) and the reference on t;
 * 1 when every output agrees within tol. */
static int agrees(kt *t, ge_value **pin, uint32_t n_in, uint32_t n_out, int threads, int own, double tol,
                  const char *what) {
  ge_value fast[3], ref[3];
  ge_kernel_fn f = fast_kernel(ge_graph_node(t->g, t->id), own), h = ge_host_cpu_kernel(ge_graph_node(t->g, t->id));
  ge_status sf, sr;
  uint32_t i;
  int ok = 1;
  memset(fast, 0, sizeof fast);
  memset(ref, 0, sizeof ref);
  /* prepared at load first, then run twice (the second on the state the first left) */
  sf = kh_run_fixed(f, t->g, t->id, pin, n_in, fast, n_out, threads ? tp_parallel_for : NULL, threads ? 2 : 1, KH_PREPARED,
                    &t->err);
  sr = kh_run(h, t->g, t->id, pin, n_in, ref, n_out, &t->err);
  if (!GE_CHECK(sf == sr)) ok = 0;
  for (i = 0; ok && sf == GE_OK && i < n_out; i++) {
    double e = out_diff(&fast[i], &ref[i]);
    if (!GE_CHECK(e <= tol)) {
      fprintf(stderr, "  %s: output %u differs by %g\n", what, (unsigned)i, e);
      ok = 0;
    }
  }
  free_values(fast, n_out);
  free_values(ref, n_out);
  return ok;
}

GE_TEST(test_random_against_reference) {
  tu_rng r;
  int it;
  tu_seed(&r, 20261126);
  for (it = 0; it < 400; it++) {
    rnn_case rc = random_case(&r);
    ge_value in[8], *pin[8];
    uint32_t n_in;
    kt t;
    char what[200];
    snprintf(what, sizeof what, "case %d: %s dirs %d rev %d layout %d seq %lld batch %lld in %lld hidden %lld b %d sl %d h0 %d c0 %d p %d lbr %d if %d",
             it, kind_op[rc.kind], rc.ndir, rc.reverse, rc.layout, (long long)rc.seq, (long long)rc.batch,
             (long long)rc.isz, (long long)rc.hs, rc.has_b, rc.has_sl, rc.has_h0, rc.has_c0, rc.has_p, rc.lbr,
             rc.input_forget);
    GE_REQUIRE(make_case(&r, &rc, &t, in, pin, &n_in));
    if (!agrees(&t, pin, n_in, rc.kind == 2 ? 3 : 2, (int)(it & 1), (int)(it >> 1 & 1), 2e-5, what)) fprintf(stderr, "  (%s)\n", what);
    kt_free(&t);
    free_values(in, 8);
  }
}

/* One context run twice: the second run (state reused) sees a new R and X
 * and must not keep the first R's packing. */
GE_TEST(test_state_reused_between_runs) {
  tu_rng r;
  rnn_case rc;
  ge_value in[8], *pin[8], a[3], b[3], ref[3];
  ge_kernel_env env;
  ge_kernel_ctx c;
  ge_value *outs[3];
  uint32_t n_in, i;
  kt t;
  ge_kernel_fn f;
  tu_seed(&r, 7);
  memset(&rc, 0, sizeof rc);
  rc.kind = 2, rc.ndir = 2, rc.seq = 4, rc.batch = 2, rc.isz = 5, rc.hs = 19, rc.has_b = 1, rc.has_h0 = 1, rc.has_c0 = 1;
  GE_REQUIRE(make_case(&r, &rc, &t, in, pin, &n_in));
  f = fast_kernel(ge_graph_node(t.g, t.id), 0);
  memset(&env, 0, sizeof env);
  env.alloc_output = kh_alloc_output;
  env.num_threads = 1;
  memset(&c, 0, sizeof c);
  memset(a, 0, sizeof a), memset(b, 0, sizeof b), memset(ref, 0, sizeof ref);
  c.inputs = pin, c.num_inputs = n_in, c.num_outputs = 3, c.node = ge_graph_node(t.g, t.id), c.graph = t.g;
  c.env = &env, c.err = &t.err, c.outputs = outs;
  for (i = 0; i < 3; i++) outs[i] = &a[i];
  GE_CHECK_EQ_INT(f(&c), GE_OK);
  for (i = 0; i < (uint32_t)in[2].numel; i++) ((float *)in[2].data)[i] *= -0.5f;
  for (i = 0; i < (uint32_t)in[0].numel; i++) ((float *)in[0].data)[i] += 0.25f;
  for (i = 0; i < 3; i++) outs[i] = &b[i];
  GE_CHECK_EQ_INT(f(&c), GE_OK);
  ge_kernel_free_state(&c);
  GE_CHECK_EQ_INT(kh_run(ge_host_cpu_kernel(c.node), t.g, t.id, pin, n_in, ref, 3, &t.err), GE_OK);
  for (i = 0; i < 3; i++) {
    GE_CHECK(out_diff(&b[i], &ref[i]) <= 2e-5);
    GE_CHECK(out_diff(&a[i], &ref[i]) > 1e-3); /* the first run really differed */
  }
  free_values(a, 3), free_values(b, 3), free_values(ref, 3), free_values(in, 8);
  kt_free(&t);
}

/* Off the fast path: other activations, clip, float64: the reference's
 * answers (and its errors, e.g. a bad W shape or sequence length). */
GE_TEST(test_fallbacks_match_reference) {
  static const char *const relu[1] = {"Relu"};
  tu_rng r;
  int which;
  tu_seed(&r, 99);
  for (which = 0; which < 4; which++) {
    rnn_case rc;
    ge_value in[8], *pin[8];
    uint32_t n_in;
    kt t;
    memset(&rc, 0, sizeof rc);
    rc.kind = which == 0 ? 0 : which == 1 ? 2 : 1, rc.ndir = 1, rc.seq = 3, rc.batch = 2, rc.isz = 4, rc.hs = 6;
    rc.has_sl = which == 3;
    GE_REQUIRE(make_case(&r, &rc, &t, in, pin, &n_in));
    if (which == 0) ge_node_set_attr_strings(t.g, t.id, "activations", relu, 1, &t.err);
    if (which == 1) ge_node_set_attr_float(t.g, t.id, "clip", 0.5, &t.err);
    if (which == 2) in[1].dims[1] = 2; /* W of the wrong shape: the reference's error */
    if (which == 3) ((int32_t *)in[4].data)[1] = 9; /* sequence length out of range */
    GE_CHECK(agrees(&t, pin, n_in, rc.kind == 2 ? 3 : 2, 0, 0, 1e-6, "fallback"));
    if (which == 2) in[1].dims[1] = 3 * 6;
    kt_free(&t);
    free_values(in, 8);
  }
}

GE_TEST(test_lookup_and_placement) {
  ge_value x;
  ge_value *in[1];
  int64_t d[3] = {1, 1, 1};
  float z[1] = {0};
  kt t;
  x = kh_value(GE_DTYPE_FLOAT32, 3, d, z);
  in[0] = &x;
  GE_REQUIRE(kt_make(&t, "Floor", 1, in, 1));
  GE_CHECK(!ge_rnn_op(ge_graph_node(t.g, t.id)));
  kt_free(&t);
  GE_REQUIRE(kt_make(&t, "LSTM", 1, in, 1));
  GE_CHECK(ge_rnn_op(ge_graph_node(t.g, t.id)));
  /* both engines that place it hand out the fast kernel */
  GE_CHECK(ge_ai_core_engine()->kernel(ge_ai_core_engine(), ge_graph_node(t.g, t.id)) != ge_host_cpu_kernel(ge_graph_node(t.g, t.id)));
  GE_CHECK(ge_ai_cpu_ascend_engine()->kernel(ge_ai_cpu_ascend_engine(), ge_graph_node(t.g, t.id)) ==
           ge_ai_core_engine()->kernel(ge_ai_core_engine(), ge_graph_node(t.g, t.id)));
  kt_free(&t);
  kh_free(&x);
}

int main(int argc, char **argv) {
  ge_test_init(argc, argv);
  GE_RUN(test_random_against_reference);
  GE_RUN(test_state_reused_between_runs);
  GE_RUN(test_fallbacks_match_reference);
  GE_RUN(test_lookup_and_placement);
  return ge_test_main_end();
}

/* The FE engines: AIcoreEngine (ge_engines/ai_core.h) and VectorEngine
 * (ge_engines/vector.h). Op sets sorted and backed by reference kernels;
 * descriptors; support checks with their reasons; the fast Conv, MatMul and
 * Gemm kernels against the host CPU reference kernels on seeded random
 * configurations (max error relative to max |ref|); fused activations
 * against reference kernel + reference activation; the SGEMM on blocking
 * edges; and the fusion pass on random small graphs, run unfused with host
 * CPU kernels and fused with AI Core kernels through ge_exec.h. Built a
 * second time with GE_USE_OPENBLAS (test_engine_ai_core_blas). */
#define GE_AI_CORE_IMPLEMENTATION /* its private ge__aic_*; the rest from libge.a */
#include "ge_exec.h"
#include "ge_engines/ai_core.h"
#include "tests/test.h"
#include "tests/kernel_harness.h"

#include <stdlib.h>

#define TOL 1e-4

/* ------------------------------------------------------------ helpers */

static uint64_t rng_s;
static uint32_t rnd_below(uint32_t n) {
  rng_s = rng_s * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(rng_s >> 33) % n;
}
static float rnd_f(void) { return (float)((int)rnd_below(2001) - 1000) / 1000.0f; }

static ge_value rand_value(int32_t rank, const int64_t *dims) {
  ge_value v = kh_value(GE_DTYPE_FLOAT32, rank, dims, NULL);
  int64_t i;
  for (i = 0; i < v.numel; i++) ((float *)v.data)[i] = rnd_f();
  return v;
}

/* Runs fn on node t->id (one output); runs it twice when `again` (the
 * second run reuses the kernel state). Frees the kernel state. */
static ge_status run_fn(ge_kernel_fn fn, kt *t, ge_value **in, uint32_t n_in, ge_value *out, int again) {
  ge_kernel_env env;
  ge_kernel_ctx c;
  ge_value *outs[1];
  ge_status st;
  memset(out, 0, sizeof *out);
  memset(&env, 0, sizeof env);
  env.alloc_output = kh_alloc_output;
  env.num_threads = 1;
  memset(&c, 0, sizeof c);
  outs[0] = out;
  c.inputs = in;
  c.outputs = outs;
  c.num_inputs = n_in;
  c.num_outputs = 1;
  c.node = ge_graph_node(t->g, t->id);
  c.graph = t->g;
  c.env = &env;
  c.err = &t->err;
  st = fn(&c);
  if (st == GE_OK && again) st = fn(&c);
  ge_kernel_free_state(&c);
  return st;
}

static ge_kernel_fn aic_kernel(const ge_node *n) { return ge_ai_core_engine()->kernel(ge_ai_core_engine(), n); }

/* max |a - b| / (max |b| + 1e-6); 1e9 when the shapes differ. */
static double rel_err(const ge_value *a, const ge_value *b) {
  double m = 0, e = 0;
  int64_t i;
  int32_t k;
  if (a->dtype != b->dtype || a->rank != b->rank || a->numel != b->numel) return 1e9;
  for (k = 0; k < a->rank; k++)
    if (a->dims[k] != b->dims[k]) return 1e9;
  for (i = 0; i < a->numel; i++) {
    double x = ((const float *)a->data)[i], y = ((const float *)b->data)[i];
    if (fabs(y) > m) m = fabs(y);
    if (x != x || y != y) {
      if ((x != x) != (y != y)) return 1e9;
      continue;
    }
    if (fabs(x - y) > e) e = fabs(x - y);
  }
  return e / (m + 1e-6);
}

/* AI Core kernel vs the reference on node t (inputs in[]): 1 when the
 * relative error is within TOL (records the worst in *worst). */
static int compare_kernels(kt *t, ge_value **in, uint32_t n_in, int again, double *worst, const char *what, int cfg) {
  ge_value ya, yr;
  const ge_node *n = ge_graph_node(t->g, t->id);
  ge_status sa = run_fn(aic_kernel(n), t, in, n_in, &ya, again), sr = run_fn(ge_host_cpu_kernel(n), t, in, n_in, &yr, 0);
  double e = 1e9;
  int ok;
  if (sa == GE_OK && sr == GE_OK) e = rel_err(&ya, &yr);
  ok = sa == sr && (sa != GE_OK || e <= TOL);
  if (sa == GE_OK && e > *worst) *worst = e;
  if (!ok)
    GE_CHECK(ge_test__check(0, __FILE__, __LINE__, "%s config %d: status %d/%d, rel err %g (%s)", what, cfg, sa, sr, e,
                            t->err.message));
  kh_free(&ya);
  kh_free(&yr);
  return ok;
}

/* ------------------------------------------------------ op sets, descs */

static int host_has(const char *op) {
  uint32_t i;
  const char *h;
  for (i = 0; (h = ge_host_cpu_op(i)) != NULL; i++)
    if (!strcmp(h, op)) return 1;
  return 0;
}

GE_TEST(test_op_sets_sorted_and_backed) {
  uint32_t i, j;
  for (i = 0; ge_vector_op(i); i++) {
    if (i) GE_CHECK(strcmp(ge_vector_op(i - 1), ge_vector_op(i)) < 0);
    GE_CHECK(host_has(ge_vector_op(i)));
  }
  GE_CHECK(i >= 60);
  for (i = 0; ge_ai_core_op(i); i++) {
    if (i) GE_CHECK(strcmp(ge_ai_core_op(i - 1), ge_ai_core_op(i)) < 0);
    GE_CHECK(host_has(ge_ai_core_op(i)));
    for (j = 0; ge_vector_op(j); j++) GE_CHECK(strcmp(ge_vector_op(j), ge_ai_core_op(i)) != 0);
  }
  GE_CHECK(i >= 14);
}

GE_TEST(test_descriptors) {
  const ge_engine *a = ge_ai_core_engine(), *v = ge_vector_engine();
  GE_CHECK_EQ_INT(a->abi_version, GE_ENGINE_ABI_VERSION);
  GE_CHECK_STR(a->name, "AIcoreEngine");
  GE_CHECK_STR(a->accelerator, "AiCore");
  GE_CHECK_EQ_INT(a->cost, 1);
  GE_CHECK_EQ_INT(a->runtime, GE_RUNTIME_DEVICE);
  GE_CHECK_EQ_INT(a->flags, 0);
  GE_CHECK(a->check_supported && a->kernel && a->workspace_size && a->optimize_subgraph);
  GE_CHECK_EQ_INT(v->abi_version, GE_ENGINE_ABI_VERSION);
  GE_CHECK_STR(v->name, "VectorEngine");
  GE_CHECK_STR(v->accelerator, "AiVector");
  GE_CHECK_EQ_INT(v->cost, 2);
  GE_CHECK_EQ_INT(v->runtime, GE_RUNTIME_DEVICE);
  GE_CHECK_EQ_INT(v->flags, 0);
  GE_CHECK(v->check_supported && v->kernel && !v->optimize_subgraph);
}

/* --------------------------------------------------- support checks */

/* A node of op with inputs of the given dtypes and shapes (rank -2:
 * unknown) and one output of out_dt / out_rank / out_dims. */
typedef struct snode {
  ge_graph *g;
  ge_node_id id;
} snode;

static snode mk(const char *op, uint32_t n_in, const ge_dtype *dt, const int32_t *rank, const int64_t (*dims)[9],
                ge_dtype out_dt, int32_t out_rank, const int64_t *out_dims) {
  snode s;
  ge_edge e[9];
  uint32_t i;
  ge_graph_create(NULL, &s.g, NULL);
  for (i = 0; i < n_in; i++) {
    e[i].index = 0;
    ge_graph_add_data(s.g, NULL, dt[i], rank[i], dims[i], &e[i].node, NULL);
  }
  ge_graph_add_node(s.g, op, "n", n_in, e, 1, &s.id, NULL);
  ge_node_set_output(s.g, s.id, 0, out_dt, out_rank, out_dims, NULL, NULL);
  return s;
}

/* Support by engine e; the reason when refused (why NULL must agree). */
static int sup(const ge_engine *e, snode *s, char *why) {
  const ge_node *n = ge_graph_node(s->g, s->id);
  int a = e->check_supported(e, s->g, n, why, 200), b = e->check_supported(e, s->g, n, NULL, 0);
  GE_CHECK_EQ_INT(a, b);
  if (a) why[0] = 0;
  return a;
}

GE_TEST(test_support_vector) {
  const ge_engine *v = ge_vector_engine();
  ge_dtype f2[2] = {GE_DTYPE_FLOAT32, GE_DTYPE_FLOAT32}, i64[2] = {GE_DTYPE_INT64, GE_DTYPE_INT64};
  ge_dtype i32[2] = {GE_DTYPE_INT32, GE_DTYPE_INT32}, h2[2] = {GE_DTYPE_FLOAT16, GE_DTYPE_FLOAT16};
  int32_t r2[2] = {2, 2}, ru[2] = {GE_RANK_UNKNOWN, 2}, r9[2] = {9, 9};
  int64_t d[2][9] = {{-1, 4, 1, 1, 1}, {3, 4, 1, 1, 1}}, od[9] = {3, 4, 1, 1, 1, 1, 1, 1, 1};
  char why[200];
  snode s;
  s = mk("Add", 2, f2, r2, (const int64_t(*)[9])d, GE_DTYPE_FLOAT32, 2, od);
  GE_CHECK(sup(v, &s, why));
  ge_graph_free(s.g);
  s = mk("Add", 2, h2, r2, (const int64_t(*)[9])d, GE_DTYPE_FLOAT16, 2, od);
  GE_CHECK(sup(v, &s, why));
  ge_graph_free(s.g);
  s = mk("Add", 2, i64, r2, (const int64_t(*)[9])d, GE_DTYPE_INT64, 2, od);
  GE_CHECK(!sup(v, &s, why));
  GE_CHECK_STR(why, "dtype int64 of input 0 not supported (float32, float16, bfloat16)");
  ge_graph_free(s.g);
  s = mk("Add", 2, f2, ru, (const int64_t(*)[9])d, GE_DTYPE_FLOAT32, 2, od);
  GE_CHECK(!sup(v, &s, why));
  GE_CHECK_STR(why, "rank of input 0 unknown");
  ge_graph_free(s.g);
  s = mk("Add", 2, f2, r9, (const int64_t(*)[9])d, GE_DTYPE_FLOAT32, 9, od);
  GE_CHECK(!sup(v, &s, why));
  GE_CHECK_STR(why, "rank 9 of input 0 exceeds 8");
  ge_graph_free(s.g);
  s = mk("TopK", 2, f2, r2, (const int64_t(*)[9])d, GE_DTYPE_FLOAT32, 2, od);
  GE_CHECK(!sup(v, &s, why));
  GE_CHECK_STR(why, "op TopK not in the vector op set");
  ge_graph_free(s.g);
  s = mk("Conv", 2, f2, r2, (const int64_t(*)[9])d, GE_DTYPE_FLOAT32, 2, od);
  GE_CHECK(!sup(v, &s, why));
  GE_CHECK_STR(why, "op Conv not in the vector op set");
  ge_graph_free(s.g);
  /* comparisons take small ints and give bool */
  s = mk("Less", 2, i32, r2, (const int64_t(*)[9])d, GE_DTYPE_BOOL, 2, od);
  GE_CHECK(sup(v, &s, why));
  ge_graph_free(s.g);
  s = mk("Less", 2, i32, r2, (const int64_t(*)[9])d, GE_DTYPE_INT32, 2, od);
  GE_CHECK(!sup(v, &s, why));
  GE_CHECK_STR(why, "dtype int32 of output 0 not supported (bool)");
  ge_graph_free(s.g);
  s = mk("Less", 2, i64, r2, (const int64_t(*)[9])d, GE_DTYPE_BOOL, 2, od);
  GE_CHECK(!sup(v, &s, why));
  GE_CHECK_STR(why, "dtype int64 of input 0 not supported (float32, float16, bfloat16, int8, uint8, int16, int32)");
  ge_graph_free(s.g);
  /* another domain */
  s = mk("Add", 2, f2, r2, (const int64_t(*)[9])d, GE_DTYPE_FLOAT32, 2, od);
  ge_node_set_domain(s.g, s.id, "com.example", NULL);
  GE_CHECK(!sup(v, &s, why));
  GE_CHECK_STR(why, "op domain com.example not supported (ONNX only)");
  ge_graph_free(s.g);
}

GE_TEST(test_support_ai_core) {
  const ge_engine *a = ge_ai_core_engine();
  ge_dtype f2[3] = {GE_DTYPE_FLOAT32, GE_DTYPE_FLOAT32, GE_DTYPE_FLOAT32};
  ge_dtype xi[2] = {GE_DTYPE_INT64, GE_DTYPE_FLOAT32};
  int32_t r4[3] = {4, 4, 1}, ru[2] = {GE_RANK_UNKNOWN, 4}, r6[2] = {6, 6}, r2[2] = {2, 2};
  int64_t d[3][9] = {{1, 8, 16, 16, 1}, {8, 8, 3, 3, 1}, {8, 1, 1, 1, 1}}, od[9] = {1, 8, 14, 14, 1, 1, 1, 1, 1};
  int64_t d300[2][9] = {{1, 8, 400, 16, 1}, {8, 8, 300, 3, 1}}, dg[2][9] = {{1, 8, 16, 16, 1}, {6, 2, 3, 3, 1}};
  int64_t dm[2][9] = {{4, 5, 1, 1, 1}, {5, 6, 1, 1, 1}}, omm[2] = {4, 6};
  int64_t ks[3] = {300, 3, 3}, st[2] = {0, 1};
  char why[200];
  snode s;
  s = mk("Conv", 3, f2, r4, (const int64_t(*)[9])d, GE_DTYPE_FLOAT32, 4, od);
  GE_CHECK(sup(a, &s, why));
  GE_CHECK_EQ_INT(a->workspace_size(a, s.g, ge_graph_node(s.g, s.id)), ge__aic_mm_work_floats() * sizeof(float));
  ge_node_set_attr_ints(s.g, s.id, "strides", st, 2, NULL);
  GE_CHECK(!sup(a, &s, why));
  GE_CHECK_STR(why, "stride 0 must be >= 1");
  ge_node_set_attr_ints(s.g, s.id, "strides", ks + 1, 2, NULL);
  ge_node_set_attr_ints(s.g, s.id, "kernel_shape", ks, 2, NULL);
  GE_CHECK(!sup(a, &s, why));
  GE_CHECK_STR(why, "kernel_shape 300 differs from the weight's kernel dim 3");
  ge_graph_free(s.g);
  s = mk("Conv", 2, f2, r4, (const int64_t(*)[9])d300, GE_DTYPE_FLOAT32, 4, od);
  GE_CHECK(sup(a, &s, why)); /* any kernel size (no cube unit limit on the CPU) */
  ge_graph_free(s.g);
  s = mk("Conv", 2, f2, r4, (const int64_t(*)[9])dg, GE_DTYPE_FLOAT32, 4, od);
  ge_node_set_attr_int(s.g, s.id, "group", 3, NULL);
  GE_CHECK(!sup(a, &s, why));
  GE_CHECK_STR(why, "group 3 does not divide 8 input channels");
  ge_node_set_attr_int(s.g, s.id, "group", 4, NULL);
  GE_CHECK(!sup(a, &s, why));
  GE_CHECK_STR(why, "group 4 does not divide 6 output channels");
  ge_node_set_attr_int(s.g, s.id, "group", 2, NULL);
  GE_CHECK(sup(a, &s, why));
  ge_graph_free(s.g);
  s = mk("Conv", 2, xi, r4, (const int64_t(*)[9])d, GE_DTYPE_FLOAT32, 4, od);
  GE_CHECK(!sup(a, &s, why));
  GE_CHECK_STR(why, "dtype int64 of input 0 not supported (float32, float16)");
  ge_graph_free(s.g);
  s = mk("Conv", 2, f2, ru, (const int64_t(*)[9])d, GE_DTYPE_FLOAT32, 4, od);
  GE_CHECK(!sup(a, &s, why));
  GE_CHECK_STR(why, "rank of input 0 unknown");
  ge_graph_free(s.g);
  s = mk("Conv", 2, f2, r6, (const int64_t(*)[9])d, GE_DTYPE_FLOAT32, 6, od);
  GE_CHECK(!sup(a, &s, why));
  GE_CHECK_STR(why, "spatial rank 4 not supported (1..3)");
  ge_graph_free(s.g);
  s = mk("TopK", 2, f2, r2, (const int64_t(*)[9])dm, GE_DTYPE_FLOAT32, 2, omm);
  GE_CHECK(!sup(a, &s, why));
  GE_CHECK_STR(why, "op TopK not in the AI Core op set");
  ge_graph_free(s.g);
  s = mk("MatMul", 2, f2, r2, (const int64_t(*)[9])dm, GE_DTYPE_FLOAT32, 2, omm);
  GE_CHECK(sup(a, &s, why));
  GE_CHECK_EQ_INT(a->workspace_size(a, s.g, ge_graph_node(s.g, s.id)), ge__aic_mm_work_floats() * sizeof(float));
  ge_graph_free(s.g);
  s = mk("Relu", 1, f2, r2, (const int64_t(*)[9])dm, GE_DTYPE_FLOAT32, 2, dm[0]);
  GE_CHECK(sup(a, &s, why)); /* element-wise ops run on AI Core too */
  ge_graph_free(s.g);
  s = mk("Relu", 1, xi, r2, (const int64_t(*)[9])dm, GE_DTYPE_INT64, 2, dm[0]);
  GE_CHECK(!sup(a, &s, why));
  GE_CHECK_STR(why, "dtype int64 of input 0 not supported (float32, float16, bfloat16)");
  ge_graph_free(s.g);
  s = mk("BatchNormalization", 1, f2, r4, (const int64_t(*)[9])d, GE_DTYPE_FLOAT32, 4, d[0]);
  GE_CHECK(sup(a, &s, why));
  ge_node_set_attr_int(s.g, s.id, "training_mode", 1, NULL);
  GE_CHECK(!sup(a, &s, why));
  GE_CHECK(strstr(why, "training") != NULL);
  ge_graph_free(s.g);
}

/* --------------------------------------------------------------- Conv */

typedef struct conv_cfg {
  int64_t n, c, h, w, m, group, kh, kw, sh, sw, dh, dw, pads[4];
  int one_d, bias, auto_pad; /* 0 NOTSET 1 SAME_UPPER 2 SAME_LOWER 3 VALID */
} conv_cfg;

static int64_t conv_out(int64_t in, int64_t k, int64_t s, int64_t d, int64_t pb, int64_t pe, int ap) {
  int64_t eff = (k - 1) * d + 1;
  if (ap == 1 || ap == 2) return (in + s - 1) / s;
  if (ap == 3) pb = pe = 0;
  return in + pb + pe - eff < 0 ? 0 : (in + pb + pe - eff) / s + 1;
}

static conv_cfg rand_conv(int big) {
  conv_cfg c;
  int kind = (int)rnd_below(4);
  int64_t cg = 1 + rnd_below(big ? 48 : 5), mg = 1 + rnd_below(big ? 40 : 4);
  memset(&c, 0, sizeof c);
  c.group = kind == 0 ? 2 + rnd_below(3) : 1;
  if (kind == 1) { /* depthwise: one input channel per group */
    c.group = 1 + rnd_below(big ? 32 : 6);
    cg = 1;
    mg = 1 + rnd_below(2);
  }
  c.c = cg * c.group;
  c.m = mg * c.group;
  c.n = 1 + rnd_below(2);
  c.one_d = rnd_below(5) == 0;
  c.h = c.one_d ? 1 : 1 + rnd_below(big ? 30 : 12);
  c.w = 1 + rnd_below(big ? 30 : 14);
  c.kh = c.one_d ? 1 : 1 + rnd_below(4);
  c.kw = 1 + rnd_below(4);
  c.sh = c.one_d ? 1 : 1 + rnd_below(3);
  c.sw = 1 + rnd_below(3);
  c.dh = c.one_d ? 1 : 1 + rnd_below(2);
  c.dw = 1 + rnd_below(2);
  c.pads[0] = c.one_d ? 0 : rnd_below(3);
  c.pads[1] = rnd_below(3);
  c.pads[2] = c.one_d ? 0 : rnd_below(3);
  c.pads[3] = rnd_below(3);
  c.bias = (int)rnd_below(2);
  c.auto_pad = rnd_below(3) == 0 ? 1 + (int)rnd_below(3) : 0;
  if (kind == 3) c.kh = c.kw = 1, c.sh = c.sw = 1, c.pads[0] = c.pads[1] = c.pads[2] = c.pads[3] = 0, c.auto_pad = 0;
  return c;
}

static int conv_valid(const conv_cfg *c) {
  return conv_out(c->h, c->kh, c->sh, c->dh, c->pads[0], c->pads[2], c->auto_pad) >= 1 &&
         conv_out(c->w, c->kw, c->sw, c->dw, c->pads[1], c->pads[3], c->auto_pad) >= 1;
}

static const char *const ap_names[4] = {"NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID"};

/* Builds the Conv node and its inputs (x, w, optional b) into t / v. */
static void make_conv(const conv_cfg *c, kt *t, ge_value *v, ge_value **in) {
  int64_t xd[4], wd[4], bd[1];
  int32_t r = c->one_d ? 3 : 4;
  xd[0] = c->n, xd[1] = c->c, wd[0] = c->m, wd[1] = c->c / c->group, bd[0] = c->m;
  if (c->one_d) {
    int64_t st[1], dl[1], pd[2];
    xd[2] = c->w, wd[2] = c->kw;
    v[0] = rand_value(3, xd), v[1] = rand_value(3, wd);
    st[0] = c->sw, dl[0] = c->dw, pd[0] = c->pads[1], pd[1] = c->pads[3];
    in[0] = &v[0], in[1] = &v[1];
    if (c->bias) v[2] = rand_value(1, bd), in[2] = &v[2];
    kt_make(t, "Conv", c->bias ? 3 : 2, in, 1);
    ge_node_set_attr_ints(t->g, t->id, "strides", st, 1, NULL);
    ge_node_set_attr_ints(t->g, t->id, "dilations", dl, 1, NULL);
    if (!c->auto_pad) ge_node_set_attr_ints(t->g, t->id, "pads", pd, 2, NULL);
  } else {
    int64_t st[2], dl[2];
    xd[2] = c->h, xd[3] = c->w, wd[2] = c->kh, wd[3] = c->kw;
    v[0] = rand_value(4, xd), v[1] = rand_value(4, wd);
    st[0] = c->sh, st[1] = c->sw, dl[0] = c->dh, dl[1] = c->dw;
    in[0] = &v[0], in[1] = &v[1];
    if (c->bias) v[2] = rand_value(1, bd), in[2] = &v[2];
    kt_make(t, "Conv", c->bias ? 3 : 2, in, 1);
    ge_node_set_attr_ints(t->g, t->id, "strides", st, 2, NULL);
    ge_node_set_attr_ints(t->g, t->id, "dilations", dl, 2, NULL);
    if (!c->auto_pad) ge_node_set_attr_ints(t->g, t->id, "pads", c->pads, 4, NULL);
  }
  (void)r;
  if (c->auto_pad || rnd_below(4) == 0) ge_node_set_attr_string(t->g, t->id, "auto_pad", ap_names[c->auto_pad], NULL);
  if (c->group != 1 || rnd_below(2)) ge_node_set_attr_int(t->g, t->id, "group", c->group, NULL);
  if (rnd_below(3) == 0) {
    int64_t ks[2] = {c->kh, c->kw};
    ge_node_set_attr_ints(t->g, t->id, "kernel_shape", c->one_d ? ks + 1 : ks, c->one_d ? 1 : 2, NULL);
  }
}

GE_TEST(test_conv_random) {
  int cfg, done = 0, depthwise = 0, one_d = 0, grouped = 0;
  double worst = 0;
  rng_s = 1234;
  for (cfg = 0; done < 340; cfg++) {
    conv_cfg c = rand_conv(cfg % 40 == 39);
    kt t;
    ge_value v[3];
    ge_value *in[3] = {NULL, NULL, NULL};
    if (!conv_valid(&c)) continue;
    make_conv(&c, &t, v, in);
    compare_kernels(&t, in, c.bias ? 3 : 2, cfg % 4 == 0, &worst, "Conv", cfg);
    done++;
    depthwise += c.c / c.group == 1 && c.group > 1;
    one_d += c.one_d;
    grouped += c.group > 1 && c.c / c.group > 1;
    kh_free(&v[0]);
    kh_free(&v[1]);
    if (c.bias) kh_free(&v[2]);
    kt_free(&t);
  }
  GE_CHECK(depthwise > 30 && one_d > 30 && grouped > 30);
  printf("  conv: %d configs (%d depthwise, %d grouped, %d 1-D), worst rel err %.2g\n", done, depthwise, grouped, one_d,
         worst);
}

GE_TEST(test_conv_errors) {
  conv_cfg c;
  kt t;
  ge_value v[3], y;
  ge_value *in[3] = {NULL, NULL, NULL};
  rng_s = 99;
  memset(&c, 0, sizeof c);
  c.n = 1, c.c = 4, c.h = 3, c.w = 3, c.m = 2, c.group = 1, c.kh = 5, c.kw = 5, c.sh = c.sw = c.dh = c.dw = 1;
  make_conv(&c, &t, v, in); /* kernel larger than the input: no output */
  GE_CHECK_EQ_INT(run_fn(aic_kernel(ge_graph_node(t.g, t.id)), &t, in, 2, &y, 0), GE_ERR_SHAPE);
  kh_free(&y);
  kh_free(&v[0]);
  kh_free(&v[1]);
  kt_free(&t);
}

/* ------------------------------------------------------------- MatMul */

GE_TEST(test_matmul_random) {
  int cfg, broadcast = 0;
  double worst = 0;
  rng_s = 777;
  for (cfg = 0; cfg < 240; cfg++) {
    int32_t ra = 1 + (int32_t)rnd_below(4), rb = 1 + (int32_t)rnd_below(4), i, nb;
    int big = cfg % 30 == 29;
    int64_t M = 1 + rnd_below(big ? 200 : 9), K = 1 + rnd_below(big ? 300 : 9), N = 1 + rnd_below(big ? 600 : 9);
    int64_t batch[2] = {1 + rnd_below(3), 1 + rnd_below(3)}, ad[4], bd[4];
    ge_value v[2];
    ge_value *in[2];
    kt t;
    nb = (ra > rb ? ra : rb) - 2;
    for (i = 0; i < ra - 2; i++) ad[i] = rnd_below(3) ? batch[i + (nb - (ra - 2))] : 1;
    for (i = 0; i < rb - 2; i++) bd[i] = rnd_below(3) ? batch[i + (nb - (rb - 2))] : 1;
    if (ra == 1) ad[0] = K;
    else ad[ra - 2] = M, ad[ra - 1] = K;
    if (rb == 1) bd[0] = K;
    else bd[rb - 2] = K, bd[rb - 1] = N;
    if (big) ra = ra < 2 ? 2 : ra, rb = 2, ad[ra - 2] = M, ad[ra - 1] = K, bd[0] = K, bd[1] = N;
    v[0] = rand_value(ra, ad);
    v[1] = rand_value(rb, bd);
    in[0] = &v[0], in[1] = &v[1];
    broadcast += ra > 2 && rb > 2;
    kt_make(&t, "MatMul", 2, in, 1);
    compare_kernels(&t, in, 2, cfg % 5 == 0, &worst, "MatMul", cfg);
    kh_free(&v[0]);
    kh_free(&v[1]);
    kt_free(&t);
  }
  GE_CHECK(broadcast > 20);
  printf("  matmul: %d configs, worst rel err %.2g\n", cfg, worst);
}

/* --------------------------------------------------------------- Gemm */

GE_TEST(test_gemm_random) {
  static const float alphas[4] = {1.0f, 0.5f, -1.25f, 0.0f}, betas[3] = {1.0f, 0.0f, 0.75f};
  int cfg;
  double worst = 0;
  rng_s = 4242;
  for (cfg = 0; cfg < 240; cfg++) {
    int big = cfg % 30 == 29, ta = (int)rnd_below(2), tb = (int)rnd_below(2), ck = (int)rnd_below(8);
    int64_t M = 1 + rnd_below(big ? 250 : 12), K = 1 + rnd_below(big ? 300 : 12), N = 1 + rnd_below(big ? 530 : 12);
    int64_t ad[2], bd[2], cd[2];
    int32_t cr = 0;
    ge_value v[3];
    ge_value *in[3] = {NULL, NULL, NULL};
    kt t;
    ad[0] = ta ? K : M, ad[1] = ta ? M : K;
    bd[0] = tb ? N : K, bd[1] = tb ? K : N;
    switch (ck) { /* 0: no C; scalar; [N]; [1,N]; [M,1]; [M,N]; [1,1]; [1] */
    case 1: cr = 0; break;
    case 2: cr = 1, cd[0] = N; break;
    case 3: cr = 2, cd[0] = 1, cd[1] = N; break;
    case 4: cr = 2, cd[0] = M, cd[1] = 1; break;
    case 5: cr = 2, cd[0] = M, cd[1] = N; break;
    case 6: cr = 2, cd[0] = 1, cd[1] = 1; break;
    case 7: cr = 1, cd[0] = 1; break;
    default: break;
    }
    v[0] = rand_value(2, ad);
    v[1] = rand_value(2, bd);
    in[0] = &v[0], in[1] = &v[1];
    if (ck) v[2] = rand_value(cr, cd), in[2] = &v[2];
    kt_make(&t, "Gemm", ck ? 3 : 2, in, 1);
    if (ta || rnd_below(2)) ge_node_set_attr_int(t.g, t.id, "transA", ta, NULL);
    if (tb || rnd_below(2)) ge_node_set_attr_int(t.g, t.id, "transB", tb, NULL);
    if (rnd_below(3)) ge_node_set_attr_float(t.g, t.id, "alpha", alphas[rnd_below(4)], NULL);
    if (rnd_below(3)) ge_node_set_attr_float(t.g, t.id, "beta", betas[rnd_below(3)], NULL);
    compare_kernels(&t, in, ck ? 3 : 2, cfg % 5 == 0, &worst, "Gemm", cfg);
    kh_free(&v[0]);
    kh_free(&v[1]);
    if (ck) kh_free(&v[2]);
    kt_free(&t);
  }
  printf("  gemm: %d configs, worst rel err %.2g\n", cfg, worst);
}

/* SGEMM alone on the blocking edges (MR, NR, KC, MC, NC boundaries), with
 * a row stride larger than the row, against a double-precision product. */
GE_TEST(test_sgemm_edges) {
  static const int64_t sizes[] = {1, 5, 6, 7, 15, 16, 17, 119, 120, 121, 255, 256, 257, 511, 512, 513};
  int cfg;
  rng_s = 31337;
  for (cfg = 0; cfg < 40; cfg++) {
    int64_t M = sizes[rnd_below(16)], N = sizes[rnd_below(16)], K = sizes[rnd_below(16)], i, j, k;
    int ta = (int)rnd_below(2), tb = (int)rnd_below(2);
    int64_t lda = (ta ? M : K) + 3, ldb = (tb ? K : N) + 1, ldc = N + 2;
    float alpha = 0.75f, beta = cfg % 3 == 0 ? 0.0f : 0.5f;
    float *A = (float *)malloc((size_t)((ta ? K : M) * lda) * 4), *B = (float *)malloc((size_t)((tb ? N : K) * ldb) * 4);
    float *C = (float *)malloc((size_t)(M * ldc) * 4);
    double *R = (double *)malloc((size_t)(M * N) * 8), m = 0, e = 0;
    void *work = malloc(ge_ai_core_sgemm_work_size(M, N, K) + 1);
    for (i = 0; i < (ta ? K : M) * lda; i++) A[i] = rnd_f();
    for (i = 0; i < (tb ? N : K) * ldb; i++) B[i] = rnd_f();
    for (i = 0; i < M * ldc; i++) C[i] = beta == 0.0f ? NAN : rnd_f(); /* beta 0: C is not read */
    for (i = 0; i < M; i++)
      for (j = 0; j < N; j++) {
        double acc = 0;
        for (k = 0; k < K; k++) acc += (double)(ta ? A[k * lda + i] : A[i * lda + k]) * (tb ? B[j * ldb + k] : B[k * ldb + j]);
        R[i * N + j] = alpha * acc + (beta == 0.0f ? 0.0 : beta * (double)C[i * ldc + j]);
        if (fabs(R[i * N + j]) > m) m = fabs(R[i * N + j]);
      }
    ge_ai_core_sgemm(ta, tb, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, work);
    for (i = 0; i < M; i++)
      for (j = 0; j < N; j++) {
        double d = fabs(C[i * ldc + j] - R[i * N + j]);
        if (!(d <= e)) e = d; /* NaN counts as the worst */
      }
    if (!GE_CHECK(e / (m + 1e-6) <= TOL))
      printf("  sgemm M=%lld N=%lld K=%lld ta=%d tb=%d: rel err %g\n", (long long)M, (long long)N, (long long)K, ta,
             tb, e / (m + 1e-6));
    free(A), free(B), free(C), free(R), free(work);
  }
}

/* -------------------------------------------------- fused activations */

static const char *const acts[7] = {"Relu", "LeakyRelu", "Clip", "Sigmoid", "Tanh", "HardSigmoid", "Gelu"};

/* Sets the fused activation k on node id with random parameters; the same
 * activation as a reference node (in its own graph) for comparison. */
static void set_fused(ge_graph *g, ge_node_id id, int k, double *alpha, double *beta) {
  *alpha = k == 1 ? 0.1 + rnd_below(50) / 100.0 : k == 2 ? -0.3 : k == 5 ? 0.3 : 0;
  *beta = k == 2 ? 0.4 : k == 5 ? 0.45 : 0;
  ge_node_set_attr_string(g, id, "_fused_activation", acts[k], NULL);
  if (k == 1 || k == 2 || k == 5) ge_node_set_attr_float(g, id, "_fused_alpha", *alpha, NULL);
  if (k == 2 || k == 5) ge_node_set_attr_float(g, id, "_fused_beta", *beta, NULL);
}

static ge_status ref_act(int k, double alpha, double beta, ge_value *x, ge_value *y) {
  kt t;
  ge_value lo, hi;
  ge_value *in[3] = {x, NULL, NULL};
  float fl = (float)alpha, fh = (float)beta;
  ge_status st;
  lo = kh_value(GE_DTYPE_FLOAT32, 0, NULL, &fl);
  hi = kh_value(GE_DTYPE_FLOAT32, 0, NULL, &fh);
  if (k == 2) in[1] = &lo, in[2] = &hi;
  kt_make(&t, acts[k], k == 2 ? 3 : 1, in, 1);
  if (k == 1 || k == 5) ge_node_set_attr_float(t.g, t.id, "alpha", alpha, NULL);
  if (k == 5) ge_node_set_attr_float(t.g, t.id, "beta", beta, NULL);
  st = run_fn(ge_host_cpu_kernel(ge_graph_node(t.g, t.id)), &t, in, k == 2 ? 3 : 1, y, 0);
  kt_free(&t);
  kh_free(&lo);
  kh_free(&hi);
  return st;
}

GE_TEST(test_fused_activation) {
  int cfg, fails = 0;
  rng_s = 2024;
  for (cfg = 0; cfg < 84; cfg++) {
    int k = cfg % 7, op = (cfg / 7) % 3; /* Conv, Gemm, MatMul */
    kt t;
    ge_value v[3], ya, yr, yact;
    ge_value *in[3] = {NULL, NULL, NULL};
    uint32_t n_in = 2;
    double alpha, beta, e;
    if (op == 0) {
      conv_cfg c = rand_conv(0);
      while (!conv_valid(&c)) c = rand_conv(0);
      make_conv(&c, &t, v, in);
      n_in = c.bias ? 3 : 2;
    } else {
      int64_t ad[2] = {1 + rnd_below(20), 1 + rnd_below(20)}, bd[2] = {ad[1], 1 + rnd_below(20)};
      v[0] = rand_value(2, ad), v[1] = rand_value(2, bd);
      in[0] = &v[0], in[1] = &v[1];
      kt_make(&t, op == 1 ? "Gemm" : "MatMul", 2, in, 1);
    }
    set_fused(t.g, t.id, k, &alpha, &beta);
    GE_CHECK_EQ_INT(run_fn(aic_kernel(ge_graph_node(t.g, t.id)), &t, in, n_in, &ya, cfg % 2), GE_OK);
    GE_CHECK_EQ_INT(run_fn(ge_host_cpu_kernel(ge_graph_node(t.g, t.id)), &t, in, n_in, &yr, 0), GE_OK);
    GE_CHECK_EQ_INT(ref_act(k, alpha, beta, &yr, &yact), GE_OK);
    e = rel_err(&ya, &yact);
    if (!GE_CHECK(e <= TOL)) fails++;
    { /* the public helper gives the same as the kernel */
      ge_value z = kh_value(GE_DTYPE_FLOAT32, yr.rank, yr.dims, yr.data);
      ge_ai_core_apply_activation(ge_graph_node(t.g, t.id), (float *)z.data, z.numel);
      GE_CHECK(rel_err(&z, &yact) <= TOL);
      kh_free(&z);
    }
    kh_free(&ya), kh_free(&yr), kh_free(&yact);
    kh_free(&v[0]), kh_free(&v[1]);
    if (n_in == 3) kh_free(&v[2]);
    kt_free(&t);
  }
  GE_CHECK_EQ_INT(fails, 0);
}

/* ------------------------------------------------------- fusion pass */

static ge_kernel_fn lookup_host(const ge_node *n, void *user) {
  (void)user;
  return ge_host_cpu_kernel(n);
}
static ge_kernel_fn lookup_aic(const ge_node *n, void *user) {
  (void)user;
  return aic_kernel(n);
}

static ge_node_id add_const(ge_graph *g, int32_t rank, const int64_t *dims, int positive, ge_dtype dt) {
  ge_tensor t;
  ge_node_id id;
  int64_t n = 1, i;
  int32_t k;
  void *data;
  for (k = 0; k < rank; k++) n *= dims[k];
  data = malloc((size_t)(n ? n : 1) * 4);
  for (i = 0; i < n; i++) {
    float f = positive ? 0.5f + fabsf(rnd_f()) : rnd_f();
    if (dt == GE_DTYPE_INT32) ((int32_t *)data)[i] = (int32_t)rnd_below(7) - 3;
    else ((float *)data)[i] = f;
  }
  memset(&t, 0, sizeof t);
  t.dtype = dt;
  t.rank = rank;
  t.dims = (int64_t *)dims;
  t.data = data;
  t.nbytes = (size_t)n * 4;
  ge_graph_add_const(g, NULL, &t, &id, NULL);
  free(data);
  return id;
}

static ge_edge E(ge_node_id n) {
  ge_edge e;
  e.node = n;
  e.index = 0;
  return e;
}

/* Adds activation k after src (Clip: Const bounds, attribute-free); returns it. */
static ge_node_id add_act(ge_graph *g, int k, ge_node_id src, int *extra) {
  ge_edge e[3];
  ge_node_id id;
  uint32_t n = 1;
  e[0] = E(src);
  *extra = 0;
  if (k == 2) {
    int64_t none = 0;
    int form = (int)rnd_below(3); /* both bounds; min only; max only */
    e[1].node = e[2].node = GE_NONE, e[1].index = e[2].index = 0;
    if (form != 2) e[1] = E(add_const(g, 0, &none, 0, GE_DTYPE_FLOAT32)), (*extra)++;
    if (form != 1) e[2] = E(add_const(g, 0, &none, 1, GE_DTYPE_FLOAT32)), (*extra)++;
    n = 3;
  }
  ge_graph_add_node(g, acts[k], NULL, n, e, 1, &id, NULL);
  if (k == 1) ge_node_set_attr_float(g, id, "alpha", 0.2, NULL);
  if (k == 5) ge_node_set_attr_float(g, id, "alpha", 0.25, NULL), ge_node_set_attr_float(g, id, "beta", 0.4, NULL);
  return id;
}

/* BN over C channels after src; params from Consts (or mean from data
 * input `mean_in` when not GE_NONE). */
static ge_node_id add_bn(ge_graph *g, ge_node_id src, int64_t C, ge_node_id mean_in) {
  ge_edge e[9];
  ge_node_id id;
  e[0] = E(src);
  e[1] = E(add_const(g, 1, &C, 0, GE_DTYPE_FLOAT32));
  e[2] = E(add_const(g, 1, &C, 0, GE_DTYPE_FLOAT32));
  e[3] = E(mean_in != GE_NONE ? mean_in : add_const(g, 1, &C, 0, GE_DTYPE_FLOAT32));
  e[4] = E(add_const(g, 1, &C, 1, GE_DTYPE_FLOAT32));
  ge_graph_add_node(g, "BatchNormalization", NULL, 5, e, 1, &id, NULL);
  if (rnd_below(2)) ge_node_set_attr_float(g, id, "epsilon", 1e-3, NULL);
  return id;
}

/* One random graph; expected node count after fusion in *expect. Kinds:
 * 0 Conv chain, 1 Gemm chain, 2 MatMul (-> bias Add) -> act, 3 two consumers (no fold),
 * 4 BN mean from a graph input (no fold), 5 int32 MatMul -> Relu (no fusion).
 * In kinds 3 and 4 a Relu after the BN fuses into the BN. */
static ge_graph *rand_graph(int kind, uint32_t *expect, int64_t *xd, int32_t *xr, int64_t *md) {
  ge_graph *g;
  ge_node_id x, p, last, mean_in = GE_NONE;
  ge_edge e[3], outs[2];
  int has_bn = kind == 0 || kind == 1 || kind == 3 || kind == 4 ? (kind >= 3 ? 1 : (int)rnd_below(4) != 0) : 0;
  int k = (int)rnd_below(8) - 1; /* -1: no activation */
  int extra = 0, bias = (int)rnd_below(2), n_out = 1, mm_bias = 0;
  int64_t C;
  uint32_t before;
  ge_graph_create(NULL, &g, NULL);
  if (kind == 0 || kind == 3 || kind == 4) {
    conv_cfg c = rand_conv(0);
    int64_t wd[4], st[2] = {c.sh, c.sw}, pads[4];
    while (!conv_valid(&c) || c.one_d) c = rand_conv(0);
    *xr = 4, xd[0] = c.n, xd[1] = c.c, xd[2] = c.h, xd[3] = c.w;
    wd[0] = c.m, wd[1] = c.c / c.group, wd[2] = c.kh, wd[3] = c.kw;
    ge_graph_add_data(g, "x", GE_DTYPE_FLOAT32, 4, xd, &x, NULL);
    e[0] = E(x);
    e[1] = E(add_const(g, 4, wd, 0, GE_DTYPE_FLOAT32));
    if (bias) e[2] = E(add_const(g, 1, &c.m, 0, GE_DTYPE_FLOAT32));
    ge_graph_add_node(g, "Conv", "conv", bias ? 3 : 2, e, 1, &p, NULL);
    ge_node_set_attr_ints(g, p, "strides", st, 2, NULL);
    ge_node_set_attr_int(g, p, "group", c.group, NULL);
    memcpy(pads, c.pads, sizeof pads);
    if (c.auto_pad) ge_node_set_attr_string(g, p, "auto_pad", ap_names[c.auto_pad], NULL);
    else ge_node_set_attr_ints(g, p, "pads", pads, 4, NULL);
    C = c.m;
  } else if (kind == 1) {
    int64_t M = 1 + rnd_below(10), K = 1 + rnd_below(12), N = 1 + rnd_below(12), bd[2], cd[2];
    int tb = (int)rnd_below(2), ck = (int)rnd_below(5);
    *xr = 2, xd[0] = M, xd[1] = K;
    bd[0] = tb ? N : K, bd[1] = tb ? K : N;
    ge_graph_add_data(g, "x", GE_DTYPE_FLOAT32, 2, xd, &x, NULL);
    e[0] = E(x);
    e[1] = E(add_const(g, 2, bd, 0, GE_DTYPE_FLOAT32));
    bias = ck != 0;
    /* C: none, [N], [1,N], [M,N], [M,1] */
    cd[0] = ck >= 3 ? M : 1, cd[1] = ck == 4 ? 1 : N;
    if (ck == 1) e[2] = E(add_const(g, 1, cd + 1, 0, GE_DTYPE_FLOAT32));
    if (ck >= 2) e[2] = E(add_const(g, 2, cd, 0, GE_DTYPE_FLOAT32));
    ge_graph_add_node(g, "Gemm", "gemm", bias ? 3 : 2, e, 1, &p, NULL);
    if (tb) ge_node_set_attr_int(g, p, "transB", 1, NULL);
    if (rnd_below(2)) ge_node_set_attr_float(g, p, "alpha", 0.5 + rnd_below(10) / 10.0, NULL);
    if (rnd_below(2)) ge_node_set_attr_float(g, p, "beta", rnd_below(3) / 2.0, NULL);
    C = N;
  } else {
    ge_dtype dt = kind == 5 ? GE_DTYPE_INT32 : GE_DTYPE_FLOAT32;
    int64_t bd[2];
    *xr = 3, xd[0] = 1 + rnd_below(3), xd[1] = 1 + rnd_below(8), xd[2] = 1 + rnd_below(8);
    bd[0] = xd[2], bd[1] = 1 + rnd_below(8);
    ge_graph_add_data(g, "x", dt, 3, xd, &x, NULL);
    e[0] = E(x);
    e[1] = E(add_const(g, 2, bd, 0, dt));
    ge_graph_add_node(g, "MatMul", "mm", 2, e, 1, &p, NULL);
    if (kind == 5) k = 0;
    else if (k < 0) k = 0;
    C = 0;
    has_bn = 0;
    /* a bias Add, either side: 1..3 along the last dim ([N], [1,N], [1,1,N]: fuses), 4 along rows ([M,1]: stays) */
    if (kind == 2 && (mm_bias = (int)rnd_below(5)) != 0) {
      int64_t bs[3] = {1, 1, 1};
      int32_t br = mm_bias == 4 ? 2 : mm_bias;
      ge_node_id bid = GE_NONE;
      int side = (int)rnd_below(2);
      if (mm_bias == 4) bs[0] = xd[1];
      else bs[br - 1] = bd[1];
      e[side] = E(p), e[1 - side] = E(add_const(g, br, bs, 0, GE_DTYPE_FLOAT32));
      ge_graph_add_node(g, "Add", "bias", 2, e, 1, &bid, NULL);
      p = bid;
    }
  }
  last = p;
  if (has_bn) {
    if (kind == 4) {
      ge_graph_add_data(g, "mean", GE_DTYPE_FLOAT32, 1, &C, &mean_in, NULL);
      md[0] = C;
    }
    last = add_bn(g, p, C, mean_in);
  }
  if (k >= 0) last = add_act(g, k, last, &extra);
  outs[0] = E(last);
  if (kind == 3) outs[1] = E(p), n_out = 2; /* the conv is a graph output too */
  ge_graph_set_outputs(g, (uint32_t)n_out, outs, NULL, NULL);
  before = ge_graph_node_count(g);
  *expect = before;
  if (kind <= 2) {
    if (has_bn) *expect -= 4 + (uint32_t)bias; /* BN, 4 params, old W (+ old b) out; new W, b in */
    if (mm_bias >= 1 && mm_bias <= 3) *expect -= 1; /* the bias Add goes */
    if (k >= 0 && mm_bias != 4) *expect -= 1 + (uint32_t)extra; /* after a kept Add the activation stays */
  }
  else if (has_bn && k == 0)
    *expect -= 1; /* a Relu after the BN that stays fuses into it */
  return g;
}

GE_TEST(test_fusion_pass) {
  const ge_engine *a = ge_ai_core_engine();
  int cfg, fused = 0, fused_act = 0, kept = 0;
  double worst = 0;
  rng_s = 5150;
  for (cfg = 0; cfg < 240; cfg++) {
    int kind = cfg % 6;
    int64_t xd[4], md[1] = {0};
    int32_t xr;
    uint32_t expect, before, i, n_in;
    ge_graph *g = rand_graph(kind, &expect, xd, &xr, md), *h = NULL;
    ge_error err;
    ge_exec_desc d1, d2;
    ge_program *p1 = NULL, *p2 = NULL;
    ge_value x, m;
    const ge_value *ins[2];
    ge_node *n;
    memset(&err, 0, sizeof err);
    if (!GE_CHECK_EQ_INT(ge_graph_infer_shapes(g, &err), GE_OK)) {
      printf("  graph %d: %s\n", cfg, err.message);
      ge_graph_free(g);
      continue;
    }
    GE_CHECK_EQ_INT(ge_graph_clone(g, NULL, &h, &err), GE_OK);
    for (i = 0; i < ge_graph_id_bound(h); i++)
      if ((n = ge_graph_node(h, i)) != NULL) n->engine = 0;
    before = ge_graph_node_count(h);
    GE_CHECK_EQ_INT(a->optimize_subgraph(a, h, 0, &err), GE_OK);
    GE_CHECK_EQ_INT(ge_graph_node_count(h), expect);
    GE_CHECK_EQ_INT(ge_graph_validate(h, NULL, &err), GE_OK);
    if (expect < before) fused++;
    else kept++;
    for (i = 0; i < ge_graph_id_bound(h); i++)
      if ((n = ge_graph_node(h, i)) != NULL && ge_node_attr(n, "_fused_activation")) fused_act++;
    memset(&d1, 0, sizeof d1);
    d1.lookup = lookup_host;
    d2 = d1;
    d2.lookup = lookup_aic;
    GE_CHECK_EQ_INT(ge_program_create(g, &d1, &p1, &err), GE_OK);
    GE_CHECK_EQ_INT(ge_program_create(h, &d2, &p2, &err), GE_OK);
    if (!p1 || !p2) {
      printf("  graph %d: %s\n", cfg, err.message);
    } else {
      x = kind == 5 ? kh_value(GE_DTYPE_INT32, xr, xd, NULL) : rand_value(xr, xd);
      if (kind == 5)
        for (i = 0; i < (uint32_t)x.numel; i++) ((int32_t *)x.data)[i] = (int32_t)rnd_below(9) - 4;
      m = rand_value(1, md);
      ins[0] = &x, ins[1] = &m;
      n_in = kind == 4 ? 2 : 1;
      GE_CHECK_EQ_INT(ge_program_run(p1, ins, n_in, &err), GE_OK);
      GE_CHECK_EQ_INT(ge_program_run(p2, ins, n_in, &err), GE_OK);
      GE_CHECK_EQ_INT(ge_program_run(p2, ins, n_in, &err), GE_OK); /* again: kernel state reused */
      for (i = 0; i < ge_program_num_outputs(p1); i++) {
        const ge_value *y1 = ge_program_output(p1, i), *y2 = ge_program_output(p2, i);
        if (kind == 5) {
          GE_CHECK(y1->nbytes == y2->nbytes && !memcmp(y1->data, y2->data, y1->nbytes));
        } else {
          double e = rel_err(y2, y1);
          if (e > worst) worst = e;
          if (!GE_CHECK(e <= TOL)) printf("  graph %d (kind %d) output %u: rel err %g\n", cfg, kind, i, e);
        }
      }
      kh_free(&x);
      kh_free(&m);
    }
    ge_program_free(p1);
    ge_program_free(p2);
    ge_graph_free(g);
    ge_graph_free(h);
  }
  GE_CHECK(fused > 80 && fused_act > 80 && kept >= 100); /* kinds 3..5 stay but for a Relu into a BN */
  printf("  fusion: %d graphs, %d fused, %d unchanged, %d fused activations, worst rel err %.2g\n", cfg, fused,
         kept, fused_act, worst);
}

int main(int argc, char **argv) {
  ge_test_init(argc, argv);
  GE_RUN(test_op_sets_sorted_and_backed);
  GE_RUN(test_descriptors);
  GE_RUN(test_support_vector);
  GE_RUN(test_support_ai_core);
  GE_RUN(test_conv_random);
  GE_RUN(test_conv_errors);
  GE_RUN(test_matmul_random);
  GE_RUN(test_gemm_random);
  GE_RUN(test_sgemm_edges);
  GE_RUN(test_fused_activation);
  GE_RUN(test_fusion_pass);
  return ge_test_main_end();
}

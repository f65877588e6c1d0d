/* ge_session.h: options, engines, graphs, the pipeline's levels, the views,
 * the logger, custom ops and single ops with their cache. The models come
 * from examples/models (the tiny CNN and PyTorch's output for it). */
#define _POSIX_C_SOURCE 200809L
#include "ge_session.h"
#include "tests/test.h"
#include "tools/npy.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>

#define OK(expr) GE_CHECK_EQ_INT((expr), GE_OK)
#define TINY "examples/models/tiny_cnn.onnx"

static double max_diff(const ge_value *a, const ge_value *b) {
  double m = 0;
  int64_t i;
  if (!a || !b || a->dtype != b->dtype || a->numel != b->numel) return 1e30;
  for (i = 0; i < a->numel; i++) {
    double d = fabs((double)((const float *)a->data)[i] - (double)((const float *)b->data)[i]);
    if (d > m || d != d) m = d != d ? 1e30 : d;
  }
  return m;
}

/* Runs the tiny CNN through a session at `level`; the largest difference
 * from PyTorch's output (1e30 on any failure). */
static double run_tiny(ge_compile_level level, const char *key, const char *value) {
  ge_session_desc d;
  ge_session *s = NULL;
  ge_value x, want;
  const ge_value *in[1];
  ge_error err;
  double diff = 1e30;
  memset(&d, 0, sizeof d);
  d.level = level;
  if (npy_read("examples/models/tiny_cnn.input.npy", &x, &err)) return diff;
  if (npy_read("examples/models/tiny_cnn.output.npy", &want, &err)) {
    free(x.data);
    return diff;
  }
  in[0] = &x;
  if (!ge_session_create(&d, &s, &err) && (!key || !ge_session_set_option(s, key, value, &err)) &&
      !ge_session_add_graph_file(s, 7, TINY, &err) && !ge_session_run_graph(s, 7, in, 1, &err))
    diff = max_diff(ge_session_output(s, 7, 0), &want);
  else printf("    %s\n", err.message);
  ge_session_free(s);
  free(x.data), free(want.data);
  return diff;
}

GE_TEST(test_levels_agree) {
  GE_CHECK(run_tiny(GE_COMPILE_REFERENCE, NULL, NULL) < 1e-4);
  GE_CHECK(run_tiny(GE_COMPILE_PLACE, NULL, NULL) < 1e-4);
  GE_CHECK(run_tiny(GE_COMPILE_PARTITION, NULL, NULL) < 1e-4);
  GE_CHECK(run_tiny(GE_COMPILE_FULL, NULL, NULL) < 1e-4);
  GE_CHECK(run_tiny(GE_COMPILE_FULL, "ge.exec.hostExecFlag", "1") < 1e-4);
  GE_CHECK(run_tiny(GE_COMPILE_FULL, "ge.engineType", "VectorEngine") < 1e-4);
  GE_CHECK(run_tiny(GE_COMPILE_FULL, "ge.exec.static_model_ops_lower_limit", "-1") < 1e-4);
}

GE_TEST(test_options) {
  ge_session *s;
  ge_error err;
  OK(ge_session_create(NULL, &s, &err));
  GE_CHECK_EQ_INT(ge_session_set_option(s, "ge.noSuchKey", "1", &err), GE_ERR_NOT_FOUND);
  GE_CHECK(strstr(err.message, "ge.noSuchKey") != NULL);
  GE_CHECK(ge_session_set_option(s, "ge.exec.disableReuseMemory", "2", &err) != GE_OK);
  GE_CHECK(strstr(err.message, "ge.exec.disableReuseMemory") != NULL);
  GE_CHECK(ge_session_set_option(s, "ge.topoSortingMode", "7", &err) != GE_OK);
  GE_CHECK_EQ_INT(ge_session_set_option(s, "ge.dynamicBatchSize", "", &err), GE_ERR_INVALID);
  GE_CHECK(strstr(err.message, "ge.dynamicBatchSize") && strstr(err.message, "empty"));
  OK(ge_session_set_option(s, "ge.topoSortingMode", "1", &err));
  OK(ge_session_set_option(s, "ge.topoSortingMode", "3", &err)); /* replaces */
  GE_CHECK(ge_session_set_option(s, "ge.exec.exclude_engines", "NoSuchEngine", &err) != GE_OK);
  GE_CHECK(strstr(err.message, "NoSuchEngine") != NULL);
  /* a graph that fails to compile stays failed */
  OK(ge_session_set_option(s, "ge.exec.exclude_engines", "HostCpu,AiCpu,AiCpuAscend,AiCore,AiVector", &err));
  OK(ge_session_add_graph_file(s, 1, TINY, &err));
  GE_CHECK(ge_session_compile_graph(s, 1, &err) != GE_OK);
  GE_CHECK_EQ_INT(ge_session_compile_graph(s, 1, &err), GE_ERR_INVALID);
  ge_session_free(s);
  OK(ge_session_create(NULL, &s, &err));
  OK(ge_session_add_graph_file(s, 1, TINY, &err));
  OK(ge_session_compile_graph(s, 1, &err));
  GE_CHECK_EQ_INT((int)ge_session_topo_mode(s, 1), (int)GE_TOPO_BFS);
  ge_session_free(s);
}

GE_TEST(test_graphs_and_views) {
  ge_session *s;
  ge_error err;
  const char *why;
  uint32_t n;
  const ge_node *x;
  int explained = 0;
  OK(ge_session_create(NULL, &s, &err));
  GE_CHECK_EQ_INT(ge_session_add_graph_file(s, 1, "examples", &err), GE_ERR_IO);
  GE_CHECK(strstr(err.message, "directory") != NULL);
  GE_CHECK(ge_session_add_graph_file(s, 1, "no/such/model.onnx", &err) != GE_OK);
  OK(ge_session_add_graph_file(s, 1, TINY, &err));
  GE_CHECK_EQ_INT(ge_session_add_graph_file(s, 1, TINY, &err), GE_ERR_INVALID); /* id taken */
  GE_CHECK_EQ_INT(ge_session_compile_graph(s, 2, &err), GE_ERR_NOT_FOUND);
  GE_CHECK(!ge_session_graph_compiled(s, 1));
  GE_CHECK(ge_session_stream_plan(s, 1) == NULL);
  GE_CHECK(ge_session_memory_plan(s, 1, &why) == NULL);
  OK(ge_session_compile_graph(s, 1, &err));
  GE_CHECK(ge_session_graph_compiled(s, 1));
  GE_CHECK(ge_session_program(s, 1) == NULL); /* compiling does not load */
  GE_CHECK(ge_session_order(s, 1, &n) != NULL && n == ge_graph_node_count(ge_session_graph(s, 1)));
  GE_CHECK(ge_session_stream_plan(s, 1) != NULL && ge_session_stream_plan(s, 1)->num_streams >= 1);
  GE_CHECK(ge_session_memory_plan(s, 1, &why) != NULL && !why[0]);
  GE_GRAPH_FOREACH(ge_session_graph(s, 1), x) {
    ge_place_explanation ex;
    if (ge_session_explain(s, 1, NULL, x, &ex, &err) == GE_OK && ex.engine == x->engine) explained++;
  }
  GE_CHECK_EQ_INT(explained, (int)ge_graph_node_count(ge_session_graph(s, 1)));
  OK(ge_session_load_graph(s, 1, &err));
  GE_CHECK(ge_session_program(s, 1) != NULL);
  /* engines are fixed by the first compile */
  GE_CHECK_EQ_INT(ge_session_load_plugin(s, "build/plugin_engine.so", &err), GE_ERR_INVALID);
  GE_CHECK_EQ_INT(ge_session_add_custom_ops(s, NULL, 0, &err), GE_ERR_INVALID);
  OK(ge_session_remove_graph(s, 1, &err));
  GE_CHECK_EQ_INT(ge_session_remove_graph(s, 1, &err), GE_ERR_NOT_FOUND);
  {
    /* a graph that computes nothing is refused, naming why */
    ge_graph *g;
    OK(ge_graph_create(NULL, &g, &err));
    OK(ge_session_add_graph(s, 5, g, &err));
    GE_CHECK_EQ_INT(ge_session_compile_graph(s, 5, &err), GE_ERR_INVALID);
    GE_CHECK(strstr(err.message, "no outputs (it is empty)") != NULL);
  }
  GE_CHECK(ge_session_graph(s, 1) == NULL);
  ge_session_free(s);
}

typedef struct log_count {
  int info, debug, placement, node;
} log_count;

static void count_log(void *user, ge_log_level level, const char *module, const char *message) {
  log_count *c = (log_count *)user;
  if (level == GE_LOG_INFO) c->info++;
  if (level == GE_LOG_DEBUG) c->debug++;
  if (!strcmp(module, "session") && strstr(message, "placement")) c->placement++;
  if (!strcmp(module, "place") && strstr(message, "node '")) c->node++;
}

GE_TEST(test_logger) {
  ge_session_desc d;
  ge_session *s;
  ge_error err;
  log_count c;
  int level;
  for (level = GE_LOG_WARN; level <= GE_LOG_DEBUG; level++) {
    memset(&c, 0, sizeof c);
    memset(&d, 0, sizeof d);
    d.logger.fn = count_log, d.logger.user = &c, d.logger.level = (ge_log_level)level;
    OK(ge_session_create(&d, &s, &err));
    OK(ge_session_add_graph_file(s, 1, TINY, &err));
    OK(ge_session_compile_graph(s, 1, &err));
    ge_session_free(s);
    GE_CHECK(level < GE_LOG_INFO ? c.info == 0 : c.info >= 7 && c.placement >= 1);
    GE_CHECK(level < GE_LOG_DEBUG ? c.debug == 0 : c.node >= 10);
  }
}

/* A custom op: y = x * sigmoid(x) in the domain "my". */
static ge_status swish_kernel(ge_kernel_ctx *c) {
  const ge_value *x = c->inputs[0];
  ge_value *y = ge_kernel_output(c, 0, x->dtype, x->rank, x->dims);
  int64_t i;
  if (!y) return GE_ERR_NOMEM;
  for (i = 0; i < x->numel; i++) {
    float v = ((const float *)x->data)[i];
    ((float *)y->data)[i] = v / (1.0f + expf(-v));
  }
  return GE_OK;
}

/* The engine of the node with that name in g or a subgraph under it (a
 * node without a shape schema lands in a dynamic PartitionedCall). */
static const char *engine_of(const ge_session *s, const ge_graph *g, const char *name) {
  const ge_node *n;
  GE_GRAPH_FOREACH(g, n) {
    uint32_t k;
    if (!strcmp(n->name, name)) return ge_engine_at(ge_session_engines(s), n->engine)->name;
    for (k = 0; k < n->num_attrs; k++)
      if (n->attrs[k].type == GE_ATTR_GRAPH) {
        const char *e = engine_of(s, n->attrs[k].v.g, name);
        if (e) return e;
      }
  }
  return NULL;
}

GE_TEST(test_custom_op) {
  static const ge_custom_op ops[] = {{"my", "Swish", swish_kernel, NULL}};
  ge_session *s;
  ge_graph *g;
  ge_error err;
  ge_node_id x, y;
  ge_edge e;
  int64_t dims[1] = {3};
  float in[3] = {-1, 0, 2};
  ge_value v;
  const ge_value *ins[1] = {&v};
  const ge_value *out;
  OK(ge_session_create(NULL, &s, &err));
  OK(ge_session_add_custom_ops(s, ops, 1, &err));
  OK(ge_graph_create(NULL, &g, &err));
  OK(ge_graph_add_data(g, "x", GE_DTYPE_FLOAT32, 1, dims, &x, &err));
  e.node = x, e.index = 0;
  OK(ge_graph_add_node(g, "Swish", "swish", 1, &e, 1, &y, &err));
  OK(ge_node_set_domain(g, y, "my", &err));
  e.node = y;
  OK(ge_graph_set_outputs(g, 1, &e, NULL, &err));
  OK(ge_session_add_graph(s, 3, g, &err));
  memset(&v, 0, sizeof v);
  ge_value_set_shape(&v, GE_DTYPE_FLOAT32, 1, dims);
  v.data = in;
  OK(ge_session_run_graph(s, 3, ins, 1, &err));
  GE_REQUIRE((out = ge_session_output(s, 3, 0)) != NULL);
  GE_CHECK_NEAR(((const float *)out->data)[2], 2.0 / (1.0 + exp(-2.0)), 1e-6);
  GE_CHECK_STR(engine_of(s, ge_session_graph(s, 3), "swish"), "DNN_VM_CUSTOM");
  ge_session_free(s);
}

static ge_value make_value(float *data, int32_t rank, const int64_t *dims, uint32_t seed) {
  ge_value v;
  int64_t i;
  memset(&v, 0, sizeof v);
  ge_value_set_shape(&v, GE_DTYPE_FLOAT32, rank, dims);
  v.data = data;
  for (i = 0; i < v.numel; i++) data[i] = (float)((seed = seed * 1103515245u + 12345u) >> 16 & 0xff) / 64.0f - 2.0f;
  return v;
}

GE_TEST(test_single_op_cache) {
  ge_session_desc d;
  ge_session *s;
  ge_error err;
  float a[12], b[12];
  int64_t d34[2] = {3, 4}, d26[2] = {2, 6};
  ge_value va = make_value(a, 2, d34, 1), vb = make_value(b, 2, d34, 2);
  const ge_value *ins[2] = {&va, &vb}, *out[1];
  ge_single_op_desc op;
  uint64_t compiled, hits;
  int i, ok = 1;
  memset(&d, 0, sizeof d);
  d.single_op_cache = 2;
  OK(ge_session_create(&d, &s, &err));
  memset(&op, 0, sizeof op);
  op.op = "Add";
  OK(ge_session_run_op(s, &op, ins, 2, out, &err));
  for (i = 0; i < 12; i++) ok &= ((const float *)out[0]->data)[i] == a[i] + b[i];
  GE_CHECK(ok);
  OK(ge_session_run_op(s, &op, ins, 2, out, &err));
  ge_session_op_cache_stats(s, &compiled, &hits);
  GE_CHECK(compiled == 1 && hits == 1);
  /* another shape, another engine: new signatures */
  ge_value_set_shape(&va, GE_DTYPE_FLOAT32, 2, d26);
  ge_value_set_shape(&vb, GE_DTYPE_FLOAT32, 2, d26);
  OK(ge_session_run_op(s, &op, ins, 2, out, &err));
  GE_CHECK_EQ_INT(out[0]->dims[1], 6);
  op.engine = GE_OP_ENGINE_VECTOR;
  OK(ge_session_run_op(s, &op, ins, 2, out, &err));
  ge_session_op_cache_stats(s, &compiled, &hits);
  GE_CHECK(compiled == 3 && hits == 1);
  /* the cache holds 2: the first signature was evicted and compiles again */
  op.engine = GE_OP_ENGINE_SYS;
  ge_value_set_shape(&va, GE_DTYPE_FLOAT32, 2, d34);
  ge_value_set_shape(&vb, GE_DTYPE_FLOAT32, 2, d34);
  OK(ge_session_run_op(s, &op, ins, 2, out, &err));
  ge_session_op_cache_stats(s, &compiled, &hits);
  GE_CHECK(compiled == 4 && hits == 1);
  /* errors name the op */
  op.op = "Conv";
  op.engine = GE_OP_ENGINE_VECTOR;
  GE_CHECK(ge_session_run_op(s, &op, ins, 2, out, &err) != GE_OK);
  GE_CHECK(strstr(err.message, "Conv") != NULL);
  op.op = "NoSuchOp";
  op.engine = GE_OP_ENGINE_SYS;
  GE_CHECK(ge_session_run_op(s, &op, ins, 2, out, &err) != GE_OK);
  GE_CHECK(strstr(err.message, "NoSuchOp") != NULL);
  ge_session_free(s);
}

GE_TEST(test_single_op_conv_matches_reference) {
  ge_session *s;
  ge_error err;
  static float x[1 * 3 * 9 * 9], w[4 * 3 * 3 * 3];
  int64_t dx[4] = {1, 3, 9, 9}, dw[4] = {4, 3, 3, 3};
  ge_value vx = make_value(x, 4, dx, 5), vw = make_value(w, 4, dw, 6);
  const ge_value *ins[2] = {&vx, &vw}, *out[1];
  ge_single_op_desc op;
  ge_attr pads;
  int64_t pad_values[4] = {1, 1, 1, 1};
  float fast[4 * 81];
  int engine;
  OK(ge_session_create(NULL, &s, &err));
  memset(&op, 0, sizeof op);
  memset(&pads, 0, sizeof pads);
  pads.name = "pads", pads.type = GE_ATTR_INTS, pads.count = 4, pads.v.ints = pad_values;
  op.op = "Conv", op.attrs = &pads, op.num_attrs = 1;
  for (engine = GE_OP_ENGINE_SYS; engine <= GE_OP_ENGINE_AICORE; engine++) {
    op.engine = (ge_op_engine)engine;
    OK(ge_session_run_op(s, &op, ins, 2, out, &err));
    GE_REQUIRE(out[0] && out[0]->numel == 4 * 81);
    if (engine == GE_OP_ENGINE_SYS) memcpy(fast, out[0]->data, sizeof fast);
  }
  {
    /* the same Conv on the reference kernels (a REFERENCE-level session) */
    ge_session_desc d;
    ge_session *r;
    const ge_value *ref[1];
    float m = 0;
    int i;
    memset(&d, 0, sizeof d);
    d.level = GE_COMPILE_REFERENCE;
    OK(ge_session_create(&d, &r, &err));
    op.engine = GE_OP_ENGINE_SYS;
    OK(ge_session_run_op(r, &op, ins, 2, ref, &err));
    for (i = 0; i < 4 * 81; i++) {
      float dd = fabsf(fast[i] - ((const float *)ref[0]->data)[i]);
      if (dd > m) m = dd;
    }
    GE_CHECK(m < 1e-4f);
    ge_session_free(r);
  }
  ge_session_free(s);
}

typedef struct fork_run {
  ge_session *s;
  uint32_t id;
  const ge_value *input;
  float first; /* output element 0 after 20 runs */
  ge_status st;
} fork_run;

static void *run_fork(void *arg) {
  fork_run *f = (fork_run *)arg;
  const ge_value *in[1] = {f->input};
  ge_error err;
  int r;
  for (r = 0; r < 20 && f->st == GE_OK; r++) f->st = ge_session_run_graph(f->s, f->id, in, 1, &err);
  if (f->st == GE_OK) f->first = ((const float *)ge_session_output(f->s, f->id, 0)->data)[0];
  return NULL;
}

/* Two instances of one compiled graph run at once on two threads, each on
 * its own input, and give what each gives alone; the fork outlives its
 * source. */
GE_TEST(test_fork_graph) {
  ge_session *s;
  ge_error err;
  ge_value x, y;
  float alone[2];
  fork_run f[2];
  pthread_t t[2];
  int64_t i;
  const ge_value *in[1];
  GE_REQUIRE(!npy_read("examples/models/tiny_cnn.input.npy", &x, &err));
  y = x;
  y.data = malloc(x.nbytes);
  for (i = 0; i < x.numel; i++) ((float *)y.data)[i] = 1.0f - ((const float *)x.data)[i];
  OK(ge_session_create(NULL, &s, &err));
  OK(ge_session_add_graph_file(s, 1, TINY, &err));
  GE_CHECK_EQ_INT(ge_session_fork_graph(s, 9, 2, &err), GE_ERR_NOT_FOUND);
  OK(ge_session_fork_graph(s, 1, 2, &err));
  GE_CHECK_EQ_INT(ge_session_fork_graph(s, 1, 2, &err), GE_ERR_INVALID); /* id taken */
  GE_CHECK(ge_session_graph(s, 1) == ge_session_graph(s, 2));      /* shared, not copied */
  in[0] = &x;
  OK(ge_session_run_graph(s, 1, in, 1, &err));
  alone[0] = ((const float *)ge_session_output(s, 1, 0)->data)[0];
  in[0] = &y;
  OK(ge_session_run_graph(s, 1, in, 1, &err));
  alone[1] = ((const float *)ge_session_output(s, 1, 0)->data)[0];
  GE_CHECK(alone[0] != alone[1]);
  memset(f, 0, sizeof f);
  f[0].s = f[1].s = s;
  f[0].id = 1, f[0].input = &x;
  f[1].id = 2, f[1].input = &y;
  OK(ge_session_load_graph(s, 2, &err)); /* loading touches the session: before the threads */
  for (i = 0; i < 2; i++) GE_REQUIRE(pthread_create(&t[i], NULL, run_fork, &f[i]) == 0);
  for (i = 0; i < 2; i++) pthread_join(t[i], NULL);
  GE_CHECK(f[0].st == GE_OK && f[1].st == GE_OK);
  GE_CHECK(f[0].first == alone[0] && f[1].first == alone[1]);
  OK(ge_session_remove_graph(s, 1, &err));
  in[0] = &x;
  OK(ge_session_run_graph(s, 2, in, 1, &err));
  GE_CHECK(((const float *)ge_session_output(s, 2, 0)->data)[0] == alone[0]);
  ge_session_free(s);
  free(x.data), free(y.data);
}

static void count_done(void *user, ge_program *p, ge_status status, const ge_error *err) {
  (void)p, (void)err;
  if (status == GE_OK) __atomic_fetch_add((int *)user, 1, __ATOMIC_SEQ_CST);
}

/* Async runs: one on the graph, three on caller streams in flight at once
 * (two threads), each giving what a plain run gives on its input. */
GE_TEST(test_async_and_streams) {
  ge_session_desc d;
  ge_session *s;
  ge_error err;
  ge_value x[3];
  const ge_value *in[3][1];
  float want[3];
  ge_program_request req[3];
  int done = 0, k;
  int64_t i;
  memset(&d, 0, sizeof d);
  d.num_threads = 2;
  OK(ge_session_create(&d, &s, &err));
  OK(ge_session_add_graph_file(s, 1, TINY, &err));
  GE_REQUIRE(!npy_read("examples/models/tiny_cnn.input.npy", &x[0], &err));
  for (k = 1; k < 3; k++) {
    x[k] = x[0];
    x[k].data = malloc(x[0].nbytes);
    for (i = 0; i < x[0].numel; i++) ((float *)x[k].data)[i] = ((const float *)x[0].data)[i] * (float)(k + 1);
  }
  for (k = 0; k < 3; k++) {
    in[k][0] = &x[k];
    OK(ge_session_run_graph(s, 1, in[k], 1, &err));
    want[k] = ((const float *)ge_session_output(s, 1, 0)->data)[3];
  }
  OK(ge_session_run_graph_async(s, 1, in[1], 1, count_done, &done, &req[0], &err));
  OK(ge_program_wait(&req[0], &err));
  GE_CHECK(((const float *)ge_session_output(s, 1, 0)->data)[3] == want[1] && done == 1);
  for (k = 0; k < 3; k++) OK(ge_session_run_graph_with_stream(s, 1, (uint32_t)k, in[k], 1, count_done, &done, &req[k], &err));
  for (k = 0; k < 3; k++) OK(ge_program_wait(&req[k], &err));
  GE_CHECK_EQ_INT(done, 4);
  for (k = 0; k < 3; k++) GE_CHECK(((const float *)ge_session_stream_output(s, 1, (uint32_t)k, 0)->data)[3] == want[k]);
  GE_CHECK(ge_session_stream_output(s, 1, 7, 0) == NULL);
  GE_CHECK_EQ_INT(ge_session_run_graph_with_stream(s, 1, 5000, in[0], 1, NULL, NULL, &req[0], &err), GE_ERR_INVALID);
  ge_session_free(s);
  for (k = 0; k < 3; k++) free(x[k].data);
}

/* A PartitionedCall of 100 outputs (no fixed limit in the call kernels):
 * x -> 100 Negs of x * k, wrapped into one call, run at every level. */
GE_TEST(test_call_with_many_outputs) {
  enum { N = 100 };
  ge_graph *g;
  ge_error err;
  ge_node_id x, negs[N], call;
  ge_edge outs[N];
  int64_t dims[1] = {2};
  float in[2] = {1.5f, -2.0f};
  ge_value v;
  const ge_value *ins[1] = {&v};
  int k, level, ok;
  for (level = GE_COMPILE_FULL; level <= GE_COMPILE_REFERENCE; level++) {
    ge_session_desc d;
    ge_session *s;
    OK(ge_graph_create(NULL, &g, &err));
    OK(ge_graph_add_data(g, "x", GE_DTYPE_FLOAT32, 1, dims, &x, &err));
    for (k = 0; k < N; k++) {
      char name[16];
      ge_edge e;
      e.node = x, e.index = 0;
      snprintf(name, sizeof name, "neg%d", k);
      OK(ge_graph_add_node(g, "Neg", name, 1, &e, 1, &negs[k], &err));
      outs[k].node = negs[k], outs[k].index = 0;
    }
    OK(ge_graph_set_outputs(g, N, outs, NULL, &err));
    OK(ge_partition_wrap(g, negs, N, "many", &call, &err));
    memset(&d, 0, sizeof d);
    d.level = (ge_compile_level)level;
    OK(ge_session_create(&d, &s, &err));
    OK(ge_session_add_graph(s, 1, g, &err));
    memset(&v, 0, sizeof v);
    ge_value_set_shape(&v, GE_DTYPE_FLOAT32, 1, dims);
    v.data = in;
    OK(ge_session_run_graph(s, 1, ins, 1, &err));
    for (ok = 1, k = 0; k < N; k++) {
      const ge_value *y = ge_session_output(s, 1, (uint32_t)k);
      ok &= y && y->numel == 2 && ((const float *)y->data)[0] == -1.5f && ((const float *)y->data)[1] == 2.0f;
    }
    GE_CHECK(ok);
    ge_session_free(s);
  }
}

/* Allocation calls: none per run of a static graph after loading, none for
 * a dynamic shape seen before, some for a larger one. */
/* A view that is a graph output gets bytes of its own in the memory plan
 * (its source's are reused once it is read): the executor copies into them
 * rather than aliasing. out0 = Identity(Neg(x)); Mul(out0, x) and Neg after
 * it may take Neg's bytes; out0 must still be -x. */
GE_TEST(test_planned_view_output) {
  ge_session *s;
  ge_graph *g;
  ge_error err;
  ge_node_id x, a, o, m, d;
  ge_edge e[2], outs[2];
  int64_t dims[1] = {64};
  float data[64];
  ge_value v;
  const ge_value *ins[1] = {&v};
  const ge_value *got;
  int i, run;
  for (i = 0; i < 64; i++) data[i] = (float)(i - 20) * 0.5f;
  OK(ge_session_create(NULL, &s, &err));
  OK(ge_graph_create(NULL, &g, &err));
  OK(ge_graph_add_data(g, "x", GE_DTYPE_FLOAT32, 1, dims, &x, &err));
  e[0].node = x, e[0].index = 0;
  OK(ge_graph_add_node(g, "Neg", "a", 1, e, 1, &a, &err));
  e[0].node = a;
  OK(ge_graph_add_node(g, "Identity", "out0", 1, e, 1, &o, &err));
  e[0].node = o, e[1].node = x, e[1].index = 0;
  OK(ge_graph_add_node(g, "Mul", "m", 2, e, 1, &m, &err));
  e[0].node = m;
  OK(ge_graph_add_node(g, "Neg", "d", 1, e, 1, &d, &err));
  outs[0].node = o, outs[0].index = 0, outs[1].node = d, outs[1].index = 0;
  OK(ge_graph_set_outputs(g, 2, outs, NULL, &err));
  OK(ge_session_add_graph(s, 1, g, &err));
  memset(&v, 0, sizeof v);
  v.data = data;
  ge_value_set_shape(&v, GE_DTYPE_FLOAT32, 1, dims);
  for (run = 0; run < 2; run++) {
    OK(ge_session_run_graph(s, 1, ins, 1, &err));
    GE_REQUIRE((got = ge_session_output(s, 1, 0)) != NULL && got->numel == 64);
    for (i = 0; i < 64; i++) GE_CHECK(((const float *)got->data)[i] == -data[i]);
    GE_REQUIRE((got = ge_session_output(s, 1, 1)) != NULL && got->numel == 64);
    for (i = 0; i < 64; i++) GE_CHECK(((const float *)got->data)[i] == data[i] * data[i]);
  }
  ge_session_free(s);
}

/* A Concat of two computed tensors (batch 1, along channels): the memory
 * plan lays both inside the Concat's output, the kernel copies nothing,
 * and the output is still [a, b] on every run. */
GE_TEST(test_concat_laid_out_in_place) {
  ge_session *s;
  ge_graph *g;
  ge_error err;
  ge_node_id x, a, b, cat, y;
  ge_edge e[2], out;
  int64_t dims[4] = {1, 3, 4, 5};
  float data[60];
  ge_value v;
  const ge_value *ins[1] = {&v};
  const ge_value *got;
  const ge_mem_graph_plan *plan;
  const char *why = NULL;
  uint32_t t, aliased = 0;
  int i, run;
  for (i = 0; i < 60; i++) data[i] = (float)(i - 25) * 0.25f;
  OK(ge_session_create(NULL, &s, &err));
  OK(ge_graph_create(NULL, &g, &err));
  OK(ge_graph_add_data(g, "x", GE_DTYPE_FLOAT32, 4, dims, &x, &err));
  e[0].node = x, e[0].index = 0;
  OK(ge_graph_add_node(g, "Neg", "a", 1, e, 1, &a, &err));
  OK(ge_graph_add_node(g, "Relu", "b", 1, e, 1, &b, &err));
  e[0].node = a, e[1].node = b, e[1].index = 0;
  OK(ge_graph_add_node(g, "Concat", "cat", 2, e, 1, &cat, &err));
  OK(ge_node_set_attr_int(g, cat, "axis", 1, &err));
  e[0].node = cat;
  OK(ge_graph_add_node(g, "Sigmoid", "y", 1, e, 1, &y, &err));
  out.node = y, out.index = 0;
  OK(ge_graph_set_outputs(g, 1, &out, NULL, &err));
  OK(ge_session_add_graph(s, 1, g, &err));
  memset(&v, 0, sizeof v);
  v.data = data;
  ge_value_set_shape(&v, GE_DTYPE_FLOAT32, 4, dims);
  for (run = 0; run < 2; run++) {
    OK(ge_session_run_graph(s, 1, ins, 1, &err));
    GE_REQUIRE((got = ge_session_output(s, 1, 0)) != NULL && got->numel == 120);
    for (i = 0; i < 120; i++) {
      float in = data[i % 60], want = i < 60 ? -in : (in > 0 ? in : 0);
      GE_CHECK(fabs(((const float *)got->data)[i] - 1.0 / (1.0 + exp(-(double)want))) < 1e-6);
    }
  }
  GE_REQUIRE((plan = ge_session_memory_plan(s, 1, &why)) != NULL);
  for (t = 0; t < plan->num_tensors; t++) {
    const ge_mem_tensor *m = &plan->tensors[t];
    if ((m->node == a || m->node == b) && m->alias_of >= 0 && plan->tensors[m->alias_of].node == cat)
      aliased++;
  }
  GE_CHECK_EQ_INT(aliased, 2);
  ge_session_free(s);
}

GE_TEST(test_allocations_per_run) {
  ge_session *s;
  ge_graph *g;
  ge_error err;
  ge_node_id x, y;
  ge_edge e;
  int64_t dyn[2] = {-1, 4}, d2[2] = {2, 4}, d9[2] = {9, 4};
  float data[36] = {0};
  ge_value v;
  const ge_value *ins[1] = {&v};
  uint64_t after_first;
  OK(ge_session_create(NULL, &s, &err));
  OK(ge_graph_create(NULL, &g, &err));
  OK(ge_graph_add_data(g, "x", GE_DTYPE_FLOAT32, 2, dyn, &x, &err));
  e.node = x, e.index = 0;
  OK(ge_graph_add_node(g, "Relu", "relu", 1, &e, 1, &y, &err));
  e.node = y;
  OK(ge_graph_set_outputs(g, 1, &e, NULL, &err));
  OK(ge_session_add_graph(s, 1, g, &err));
  memset(&v, 0, sizeof v);
  v.data = data;
  ge_value_set_shape(&v, GE_DTYPE_FLOAT32, 2, d2);
  OK(ge_session_run_graph(s, 1, ins, 1, &err));
  after_first = ge_session_allocations(s, 1);
  OK(ge_session_run_graph(s, 1, ins, 1, &err));
  OK(ge_session_run_graph(s, 1, ins, 1, &err));
  GE_CHECK(ge_session_allocations(s, 1) == after_first);
  ge_value_set_shape(&v, GE_DTYPE_FLOAT32, 2, d9);
  OK(ge_session_run_graph(s, 1, ins, 1, &err));
  GE_CHECK(ge_session_allocations(s, 1) > after_first);
  ge_session_free(s);
  {
    /* the tiny CNN: static, one block allocated at load */
    ge_value xin;
    const ge_value *in1[1] = {&xin};
    uint64_t loaded;
    OK(ge_session_create(NULL, &s, &err));
    OK(ge_session_add_graph_file(s, 1, TINY, &err));
    OK(ge_session_load_graph(s, 1, &err));
    loaded = ge_session_allocations(s, 1);
    GE_CHECK(loaded >= 1);
    GE_REQUIRE(!npy_read("examples/models/tiny_cnn.input.npy", &xin, &err));
    OK(ge_session_run_graph(s, 1, in1, 1, &err));
    OK(ge_session_run_graph(s, 1, in1, 1, &err));
    GE_CHECK(ge_session_allocations(s, 1) == loaded);
    free(xin.data);
    ge_session_free(s);
  }
}

int main(int argc, char **argv) {
  ge_test_init(argc, argv);
  (void)npy_write;
  GE_RUN(test_levels_agree);
  GE_RUN(test_options);
  GE_RUN(test_graphs_and_views);
  GE_RUN(test_logger);
  GE_RUN(test_custom_op);
  GE_RUN(test_single_op_cache);
  GE_RUN(test_single_op_conv_matches_reference);
  GE_RUN(test_fork_graph);
  GE_RUN(test_async_and_streams);
  GE_RUN(test_call_with_many_outputs);
  GE_RUN(test_planned_view_output);
  GE_RUN(test_concat_laid_out_in_place);
  GE_RUN(test_allocations_per_run);
  return ge_test_main_end();
}

/* test_place.c — the engine registry, plugins, placement, its options,
 * reassign passes and explanations, constant folding, and placed graphs
 * computing what the host CPU reference computes. */
#define _POSIX_C_SOURCE 200809L
#include "ge_engines/ge_engines.h"
#include "ge_exec.h"
#include "tests/test.h"
#include "tests/graph_util.h"

#include <stdlib.h>

static char plugin_dir[512] = "build";

/* ------------------------------------------------------------ helpers */

/* Whether name is an item of a comma-separated list. */
static int in_csv(const char *list, const char *name) {
  size_t n = strlen(name);
  while (list && *list) {
    if (!strncmp(list, name, n) && (list[n] == ',' || !list[n])) return 1;
    list = strchr(list, ',');
    if (list) list++;
  }
  return 0;
}

static ge_engine_registry *standard(void) {
  ge_engine_registry *r;
  TU_OK(ge_engine_registry_create(NULL, &r, NULL));
  TU_OK(ge_engines_register_standard(r, NULL));
  return r;
}

static ge_place_desc desc_of(ge_engine_registry *r) {
  ge_place_desc d;
  memset(&d, 0, sizeof d);
  d.engines = r;
  return d;
}

static ge_node_id node(ge_graph *g, const char *op, const char *name, uint32_t n, const ge_edge *in, int32_t outs) {
  ge_node_id id;
  TU_OK(ge_graph_add_node(g, op, name, n, in, outs, &id, NULL));
  return id;
}

static ge_node_id node1(ge_graph *g, const char *op, const char *name, ge_node_id a) {
  ge_edge e = tu_e(a, 0);
  return node(g, op, name, 1, &e, -1);
}

static ge_node_id node2(ge_graph *g, const char *op, const char *name, ge_node_id a, ge_node_id b) {
  ge_edge e[2];
  e[0] = tu_e(a, 0), e[1] = tu_e(b, 0);
  return node(g, op, name, 2, e, -1);
}

static ge_node_id const_f32(ge_graph *g, const char *name, int32_t rank, const int64_t *dims, tu_rng *rng) {
  ge_tensor t;
  int64_t n = 1, i;
  int32_t k;
  float *v;
  ge_node_id id;
  for (k = 0; k < rank; k++) n *= dims[k];
  v = (float *)malloc(sizeof(float) * (size_t)(n ? n : 1));
  for (i = 0; i < n; i++) v[i] = (float)((int64_t)tu_below(rng, 2001) - 1000) / 1000.0f;
  memset(&t, 0, sizeof t);
  t.dtype = GE_DTYPE_FLOAT32;
  t.rank = rank;
  t.dims = (int64_t *)dims;
  t.data = v;
  t.nbytes = (size_t)n * sizeof(float);
  TU_OK(ge_graph_add_const(g, name, &t, &id, NULL));
  free(v);
  return id;
}

static ge_node_id const_i64(ge_graph *g, const char *name, int32_t rank, const int64_t *dims, const int64_t *vals) {
  ge_tensor t;
  int64_t n = 1;
  int32_t k;
  ge_node_id id;
  for (k = 0; k < rank; k++) n *= dims[k];
  memset(&t, 0, sizeof t);
  t.dtype = GE_DTYPE_INT64;
  t.rank = rank;
  t.dims = (int64_t *)dims;
  t.data = (void *)vals;
  t.nbytes = (size_t)n * sizeof(int64_t);
  TU_OK(ge_graph_add_const(g, name, &t, &id, NULL));
  return id;
}

static const char *engine_of(ge_engine_registry *r, ge_graph *g, const char *name) {
  const ge_engine *e = ge_engine_at(r, ge_graph_node(g, ge_graph_find(g, name))->engine);
  return e ? e->name : "(none)";
}

static ge_placed_by by_of(ge_graph *g, const char *name) {
  return ge_node_placed_by(ge_graph_node(g, ge_graph_find(g, name)));
}

/* A graph with a node for most engines:
 *   x[1,3,8,8] -> conv -> relu -> flat -> topk(K)   (values, indices)
 *   relu -> shape -> gather(idx) -> add_i64 (+1)
 *   relu -> reshape([1,-1]) ; x -> allreduce ; x -> rand (RandomUniformLike, seeded) */
static ge_graph *mixed_graph(void) {
  ge_graph *g = tu_new_graph("mixed");
  tu_rng rng;
  ge_node_id x, w, conv, relu, flat, k, topk, shape, idx, gather, one, addi, rs_shape, reshape, ar, rnd;
  int64_t xd[4] = {1, 3, 8, 8}, wd[4] = {4, 3, 3, 3}, one_d[1] = {1}, kv[1] = {5}, iv[1] = {1}, onev[1] = {1},
          rsv[2] = {1, -1}, two_d[1] = {2};
  ge_edge e[2], outs[7];
  tu_seed(&rng, 7);
  TU_OK(ge_graph_add_data(g, "x", GE_DTYPE_FLOAT32, 4, xd, &x, NULL));
  w = const_f32(g, "w", 4, wd, &rng);
  conv = node2(g, "Conv", "conv", x, w);
  relu = node1(g, "Relu", "relu", conv);
  flat = node1(g, "Flatten", "flat", relu);
  k = const_i64(g, "k", 1, one_d, kv);
  e[0] = tu_e(flat, 0), e[1] = tu_e(k, 0);
  topk = node(g, "TopK", "topk", 2, e, 2);
  shape = node1(g, "Shape", "shape", relu);
  idx = const_i64(g, "idx", 1, one_d, iv);
  gather = node2(g, "Gather", "gather", shape, idx);
  one = const_i64(g, "one", 1, one_d, onev);
  addi = node2(g, "Add", "add_i64", gather, one);
  rs_shape = const_i64(g, "rs_shape", 1, two_d, rsv);
  reshape = node2(g, "Reshape", "reshape", relu, rs_shape);
  ar = node1(g, "AllReduce", "allreduce", x);
  rnd = node1(g, "RandomUniformLike", "rand", x);
  TU_OK(ge_node_set_attr_float(g, rnd, "seed", 3.0, NULL));
  outs[0] = tu_e(topk, 0), outs[1] = tu_e(topk, 1), outs[2] = tu_e(addi, 0), outs[3] = tu_e(reshape, 0);
  outs[4] = tu_e(ar, 0), outs[5] = tu_e(rnd, 0), outs[6] = tu_e(relu, 0);
  TU_OK(ge_graph_set_outputs(g, 7, outs, NULL, NULL));
  TU_OK(ge_graph_infer_shapes(g, NULL));
  return g;
}

/* Runs g (placed) on one seeded input; returns a program the caller frees. */
static ge_program *run_placed(ge_graph *g, ge_engine_registry *r, ge_value *in, int host_only) {
  ge_exec_desc d;
  ge_program *p;
  ge_error err;
  const ge_value *ins[1];
  memset(&d, 0, sizeof d);
  d.lookup = ge_engine_kernel_lookup;
  d.lookup_user = r;
  if (host_only) {
    ge_node *n;
    int32_t host = ge_engine_find(r, "DNN_VM_HOST_CPU");
    GE_GRAPH_FOREACH(g, n) if (ge_host_cpu_kernel(n)) n->engine = host;
  }
  if (ge_program_create(g, &d, &p, &err)) {
    fprintf(stderr, "program: %s\n", err.message);
    return NULL;
  }
  ins[0] = in;
  if (ge_program_run(p, ins, 1, &err)) {
    fprintf(stderr, "run: %s\n", err.message);
    ge_program_free(p);
    return NULL;
  }
  return p;
}

static ge_value random_input(int32_t rank, const int64_t *dims, float *buf, uint64_t seed) {
  ge_value v;
  tu_rng rng;
  int64_t i;
  memset(&v, 0, sizeof v);
  ge_value_set_shape(&v, GE_DTYPE_FLOAT32, rank, dims);
  tu_seed(&rng, seed);
  for (i = 0; i < v.numel; i++) buf[i] = (float)((int64_t)tu_below(&rng, 2001) - 1000) / 250.0f;
  v.data = buf;
  return v;
}

/* max |a-b| / (max |b| + 1e-6), or a large number on a dtype/shape mismatch. */
static double rel_diff(const ge_value *a, const ge_value *b) {
  double m = 0, mb = 1e-6;
  int64_t i;
  ge_tensor ta, tb;
  if (a->dtype != b->dtype || a->numel != b->numel) return 1e9;
  memset(&ta, 0, sizeof ta), memset(&tb, 0, sizeof tb);
  ta.dtype = a->dtype, ta.data = a->data, tb.dtype = b->dtype, tb.data = b->data;
  for (i = 0; i < a->numel; i++) {
    double x = ge_tensor_get_float(&ta, i), y = ge_tensor_get_float(&tb, i);
    if (fabs(x - y) > m) m = fabs(x - y);
    if (fabs(y) > mb) mb = fabs(y);
  }
  return m / mb;
}

/* ------------------------------------------------------------ registry */

static int never(const ge_engine *e, const ge_graph *g, const ge_node *n, char *why, size_t cap) {
  (void)e, (void)g, (void)n;
  return ge_engine_why(why, cap, "never");
}
static ge_kernel_fn no_kernel(const ge_engine *e, const ge_node *n) {
  (void)e, (void)n;
  return NULL;
}

GE_TEST(test_registry) {
  ge_engine_registry *r = standard();
  ge_engine bad;
  ge_error err;
  GE_CHECK_EQ_INT(ge_engine_count(r), GE_ENGINE_STANDARD_COUNT);
  GE_CHECK_EQ_INT(ge_engine_find(r, "AIcoreEngine"), GE_ENGINE_INDEX_AI_CORE);
  GE_CHECK_EQ_INT(ge_engine_find(r, "AiCpu"), GE_ENGINE_INDEX_AI_CPU);
  GE_CHECK_EQ_INT(ge_engine_find(r, "DNN_VM_HOST_CPU"), GE_ENGINE_INDEX_HOST_CPU);
  GE_CHECK_EQ_INT(ge_engine_find(r, "nope"), -1);
  GE_CHECK_EQ_INT(ge_engine_composite_of(r, GE_ENGINE_INDEX_AI_CORE), GE_ENGINE_INDEX_FFTS_PLUS);
  GE_CHECK_EQ_INT(ge_engine_composite_of(r, GE_ENGINE_INDEX_VECTOR), GE_ENGINE_INDEX_FFTS_PLUS);
  GE_CHECK_EQ_INT(ge_engine_composite_of(r, GE_ENGINE_INDEX_AI_CPU_ASCEND), GE_ENGINE_INDEX_FFTS_PLUS);
  GE_CHECK_EQ_INT(ge_engine_composite_of(r, GE_ENGINE_INDEX_HOST_CPU), -1);
  GE_CHECK(ge_engine_at(r, GE_ENGINE_INDEX_HCCL)->flags & GE_ENGINE_INDEPENDENT);
  GE_CHECK(ge_engine_at(r, 99) == NULL);
  /* bad descriptors */
  memset(&bad, 0, sizeof bad);
  bad.abi_version = GE_ENGINE_ABI_VERSION + 1;
  bad.name = "Bad";
  bad.check_supported = never;
  bad.kernel = no_kernel;
  GE_CHECK_EQ_INT(ge_engine_register(r, &bad, &err), GE_ERR_UNSUPPORTED);
  GE_CHECK(strstr(err.message, "ABI version") != NULL);
  bad.abi_version = GE_ENGINE_ABI_VERSION;
  bad.cost = 11;
  GE_CHECK_EQ_INT(ge_engine_register(r, &bad, &err), GE_ERR_INVALID);
  GE_CHECK(strstr(err.message, "cost 11") != NULL);
  bad.cost = 5;
  bad.name = "DNN_VM_RTS";
  GE_CHECK_EQ_INT(ge_engine_register(r, &bad, &err), GE_ERR_INVALID);
  GE_CHECK(strstr(err.message, "already registered") != NULL);
  bad.name = "Bad";
  bad.kernel = NULL;
  GE_CHECK_EQ_INT(ge_engine_register(r, &bad, &err), GE_ERR_INVALID);
  GE_CHECK_EQ_INT(ge_engines_register_standard(r, &err), GE_ERR_INVALID);
  GE_CHECK_EQ_INT(ge_engine_count(r), GE_ENGINE_STANDARD_COUNT);
  ge_engine_registry_free(r);
}

GE_TEST(test_options) {
  ge_engine_registry *r = standard();
  ge_place_desc d = desc_of(r);
  ge_error err;
  GE_CHECK_EQ_INT(ge_place_set_option(&d, "ge.engineType", "VectorEngine", &err), GE_OK);
  GE_CHECK_EQ_INT(ge_place_set_option(&d, "ge.engineType", "GPU", &err), GE_ERR_INVALID);
  GE_CHECK(strstr(err.message, "ge.engineType") && strstr(err.message, "GPU"));
  GE_CHECK_STR(d.engine_type, "VectorEngine"); /* a bad value leaves the desc as it was */
  GE_CHECK_EQ_INT(ge_place_set_option(&d, "ge.exec.exclude_engines", "AiCore, Dvpp", &err), GE_OK);
  GE_CHECK_EQ_INT(ge_place_set_option(&d, "ge.exec.exclude_engines", "AiCore,Tpu", &err), GE_ERR_INVALID);
  GE_CHECK(strstr(err.message, "'Tpu'") != NULL);
  GE_CHECK_EQ_INT(ge_place_set_option(&d, "ge.exec.hostExecFlag", "2", &err), GE_ERR_INVALID);
  GE_CHECK_EQ_INT(ge_place_set_option(&d, "ge.exec.hostExecFlag", "1", &err), GE_OK);
  GE_CHECK_EQ_INT(d.host_exec, 1);
  GE_CHECK_EQ_INT(ge_place_set_option(&d, "ge.nope", "1", &err), GE_ERR_NOT_FOUND);
  GE_CHECK(strstr(err.message, "ge.nope") != NULL);
  ge_engine_registry_free(r);
}

/* --------------------------------------------------------- placement */

GE_TEST(test_place_default) {
  ge_engine_registry *r = standard();
  ge_place_desc d = desc_of(r);
  ge_graph *g = mixed_graph();
  ge_error err;
  GE_REQUIRE(ge_place(g, &d, &err) == GE_OK);
  GE_CHECK_STR(engine_of(r, g, "x"), "DNN_VM_GE_LOCAL");
  GE_CHECK_STR(engine_of(r, g, "w"), "DNN_VM_GE_LOCAL");
  GE_CHECK_STR(engine_of(r, g, "conv"), "AIcoreEngine");
  GE_CHECK_STR(engine_of(r, g, "relu"), "AIcoreEngine");
  GE_CHECK_STR(engine_of(r, g, "flat"), "DNN_VM_GE_LOCAL");
  GE_CHECK_STR(engine_of(r, g, "reshape"), "DNN_VM_GE_LOCAL");
  GE_CHECK_STR(engine_of(r, g, "topk"), "DNN_VM_AICPU_ASCEND");
  GE_CHECK_STR(engine_of(r, g, "shape"), "DNN_VM_HOST_CPU");
  GE_CHECK_EQ_INT(by_of(g, "shape"), GE_PLACED_SHAPE_COMPUTE);
  GE_CHECK_STR(engine_of(r, g, "gather"), "DNN_VM_HOST_CPU");
  GE_CHECK_EQ_INT(by_of(g, "gather"), GE_PLACED_SMALL_TENSOR);
  GE_CHECK_STR(engine_of(r, g, "add_i64"), "DNN_VM_HOST_CPU");
  GE_CHECK_STR(engine_of(r, g, "allreduce"), "DNN_HCCL");
  GE_CHECK_STR(engine_of(r, g, "rand"), "DSAEngine");
  GE_CHECK_EQ_INT(by_of(g, "conv"), GE_PLACED_COST);
  ge_graph_free(g);
  ge_engine_registry_free(r);
}

/* Each option set moves the nodes it should, and no node lands on an
 * engine the options exclude. */
GE_TEST(test_place_options) {
  static const struct {
    const char *key, *value, *node, *engine;
  } cases[] = {
      {"ge.engineType", "VectorEngine", "relu", "VectorEngine"},
      {"ge.engineType", "VectorEngine", "conv", "DNN_VM_AICPU_ASCEND"},
      {"ge.exec.exclude_engines", "AiCore", "conv", "DNN_VM_AICPU_ASCEND"},
      {"ge.exec.exclude_engines", "AiCore", "relu", "DNN_VM_AICPU_ASCEND"},
      {"ge.exec.exclude_engines", "AiCpuAscend", "topk", "DNN_VM_AICPU"},
      {"ge.exec.exclude_engines", "AiCpuAscend,AiCpu", "topk", "DNN_VM_HOST_CPU"},
      {"ge.exec.exclude_engines", "Dsa", "rand", "DNN_VM_AICPU_ASCEND"},
      {"ge.exec.exclude_engines", "HostCpu", "shape", "DNN_VM_AICPU_ASCEND"},
      {"ge.exec.exclude_engines", "HostCpu", "gather", "DNN_VM_AICPU_ASCEND"},
      {"ge.exec.hostExecFlag", "1", "relu", "DNN_VM_HOST_CPU"},
      {"ge.exec.hostExecFlag", "1", "conv", "DNN_VM_HOST_CPU"},
      {"ge.exec.hostExecFlag", "1", "x", "DNN_VM_GE_LOCAL"},
      {"ge.exec.hostExecFlag", "1", "w", "DNN_VM_GE_LOCAL"},
      {"ge.exec.hostExecFlag", "1", "allreduce", "DNN_HCCL"}, /* the host CPU runs no collectives */
  };
  ge_engine_registry *r = standard();
  size_t c;
  for (c = 0; c < sizeof cases / sizeof *cases; c++) {
    ge_place_desc d = desc_of(r);
    ge_graph *g = mixed_graph();
    ge_error err;
    ge_node *n;
    TU_OK(ge_place_set_option(&d, cases[c].key, cases[c].value, NULL));
    if (!GE_CHECK(ge_place(g, &d, &err) == GE_OK)) fprintf(stderr, "%s=%s: %s\n", cases[c].key, cases[c].value, err.message);
    else if (!GE_CHECK(!strcmp(engine_of(r, g, cases[c].node), cases[c].engine)))
      fprintf(stderr, "%s=%s: %s on %s\n", cases[c].key, cases[c].value, cases[c].node, engine_of(r, g, cases[c].node));
    GE_GRAPH_FOREACH(g, n) {
      const ge_engine *e = ge_engine_at(r, n->engine);
      GE_CHECK(e != NULL);
      if (!e) continue;
      if (!strcmp(cases[c].key, "ge.exec.exclude_engines") && e->accelerator)
        GE_CHECK(!in_csv(cases[c].value, e->accelerator));
      if (!strcmp(cases[c].value, "VectorEngine")) GE_CHECK(strcmp(e->name, "AIcoreEngine") != 0);
      if (!strcmp(cases[c].key, "ge.engineType") || !strcmp(cases[c].key, "ge.exec.exclude_engines"))
        GE_CHECK(strcmp(e->name, "VectorEngine") != 0 || !strcmp(cases[c].value, "VectorEngine"));
    }
    ge_graph_free(g);
  }
  ge_engine_registry_free(r);
}

GE_TEST(test_pinned_and_unsupported) {
  ge_engine_registry *r = standard();
  ge_place_desc d = desc_of(r);
  ge_graph *g = mixed_graph();
  ge_error err;
  ge_node_id odd;
  TU_OK(ge_node_set_attr_string(g, ge_graph_find(g, "relu"), GE_PLACE_ATTR_ENGINE, "DNN_VM_AICPU", NULL));
  GE_REQUIRE(ge_place(g, &d, &err) == GE_OK);
  GE_CHECK_STR(engine_of(r, g, "relu"), "DNN_VM_AICPU");
  GE_CHECK_EQ_INT(by_of(g, "relu"), GE_PLACED_PINNED);
  TU_OK(ge_node_set_attr_string(g, ge_graph_find(g, "topk"), GE_PLACE_ATTR_ENGINE, "AIcoreEngine", NULL));
  GE_CHECK_EQ_INT(ge_place(g, &d, &err), GE_ERR_UNSUPPORTED);
  GE_CHECK(strstr(err.message, "'topk'") && strstr(err.message, "refuses"));
  TU_OK(ge_node_set_attr_string(g, ge_graph_find(g, "topk"), GE_PLACE_ATTR_ENGINE, "Warp9", NULL));
  GE_CHECK_EQ_INT(ge_place(g, &d, &err), GE_ERR_NOT_FOUND);
  GE_CHECK(strstr(err.message, "Warp9") != NULL);
  TU_OK(ge_node_remove_attr(g, ge_graph_find(g, "topk"), GE_PLACE_ATTR_ENGINE, NULL));
  /* an op nobody runs: the error names it and every engine's reason */
  odd = node1(g, "Frobnicate", "odd", ge_graph_find(g, "x"));
  TU_OK(ge_node_set_domain(g, odd, "com.example", NULL));
  GE_CHECK_EQ_INT(ge_place(g, &d, &err), GE_ERR_UNSUPPORTED);
  GE_CHECK(strstr(err.message, "'odd'") != NULL);
  GE_CHECK(strstr(err.message, "AIcoreEngine:") && strstr(err.message, "DNN_VM_HOST_CPU:") && strstr(err.message, "DNN_HCCL:"));
  ge_graph_free(g);
  ge_engine_registry_free(r);
}

GE_TEST(test_explain) {
  ge_engine_registry *r = standard();
  ge_place_desc d = desc_of(r);
  ge_graph *g = mixed_graph();
  ge_place_explanation ex;
  ge_error err;
  uint32_t k;
  int saw_core = 0, saw_ffts = 0, saw_vector = 0;
  GE_REQUIRE(ge_place(g, &d, &err) == GE_OK);
  GE_REQUIRE(ge_place_explain(g, ge_graph_node(g, ge_graph_find(g, "topk")), &d, &ex, &err) == GE_OK);
  GE_CHECK_EQ_INT(ex.engine, GE_ENGINE_INDEX_AI_CPU_ASCEND);
  GE_CHECK_EQ_INT(ex.cost_choice, GE_ENGINE_INDEX_AI_CPU_ASCEND);
  GE_CHECK_EQ_INT(ex.by, GE_PLACED_COST);
  for (k = 0; k < ex.num_rejected; k++) {
    GE_CHECK(ex.rejected[k].reason[0] != 0);
    saw_core |= ex.rejected[k].engine == GE_ENGINE_INDEX_AI_CORE;
    saw_ffts |= ex.rejected[k].engine == GE_ENGINE_INDEX_FFTS_PLUS && strstr(ex.rejected[k].reason, "composite") != NULL;
    saw_vector |= ex.rejected[k].engine == GE_ENGINE_INDEX_VECTOR && strstr(ex.rejected[k].reason, "ge.engineType") != NULL;
  }
  GE_CHECK(saw_core && saw_ffts && saw_vector);
  /* a reassigned node: the cost choice and the reason */
  GE_REQUIRE(ge_place_explain(g, ge_graph_node(g, ge_graph_find(g, "gather")), &d, &ex, &err) == GE_OK);
  GE_CHECK_EQ_INT(ex.engine, GE_ENGINE_INDEX_HOST_CPU);
  GE_CHECK_EQ_INT(ex.by, GE_PLACED_SMALL_TENSOR);
  GE_CHECK_EQ_INT(ex.cost_choice, GE_ENGINE_INDEX_AI_CPU_ASCEND);
  ge_graph_free(g);
  ge_engine_registry_free(r);
}

/* A wide random graph of mixed ops: the same engines for 1..8 threads. */
GE_TEST(test_threads_agree) {
  static const char *const unary[] = {"Relu", "Sigmoid", "Abs", "Neg"};
  ge_engine_registry *r = standard();
  ge_graph *g = tu_new_graph("wide");
  ge_node_id *ids = (ge_node_id *)malloc(sizeof(ge_node_id) * 30000);
  int32_t *first;
  int64_t dims[2] = {4, 4}, idims[1] = {3}, small[3] = {1, 2, 3};
  tu_rng rng;
  uint32_t i, n = 0, threads;
  ge_node *x;
  tu_seed(&rng, 11);
  TU_OK(ge_graph_add_data(g, "in", GE_DTYPE_FLOAT32, 2, dims, &ids[n++], NULL));
  ids[n++] = const_i64(g, "ints", 1, idims, small);
  for (i = 0; i < 20000; i++) {
    ge_node_id a = ids[tu_below(&rng, n)];
    const char *op = unary[tu_below(&rng, 4)];
    ge_dtype t = ge_graph_node(g, a)->outputs[0].dtype;
    if (t == GE_DTYPE_INT64) op = tu_below(&rng, 2) ? "Neg" : "Abs";
    ids[n++] = node1(g, op, NULL, a);
  }
  TU_OK(ge_graph_infer_shapes(g, NULL));
  first = (int32_t *)malloc(sizeof(int32_t) * ge_graph_id_bound(g));
  for (threads = 1; threads <= 8; threads++) {
    ge_place_desc d = desc_of(r);
    d.num_threads = (int)threads;
    GE_REQUIRE(ge_place(g, &d, NULL) == GE_OK);
    GE_GRAPH_FOREACH(g, x) {
      if (threads == 1) first[x->id] = x->engine;
      else if (first[x->id] != x->engine) {
        GE_CHECK(first[x->id] == x->engine);
        break;
      }
    }
  }
  free(first);
  free(ids);
  ge_graph_free(g);
  ge_engine_registry_free(r);
}

/* --------------------------------------------- placed graphs compute right */

/* A small CNN: conv -> BN -> relu -> maxpool -> flatten -> gemm -> softmax,
 * plus a reshape view and an int64 shape path, with seeded random weights. */
static ge_graph *cnn_graph(uint64_t seed) {
  ge_graph *g = tu_new_graph("cnn");
  tu_rng rng;
  ge_node_id x, w, b, conv, sc, bi, mu, va, bn, relu, pool, flat, gw, gb, gemm, soft, shape, rs, rsv;
  int64_t xd[4] = {2, 3, 10, 10}, wd[4] = {6, 3, 3, 3}, cd[1] = {6}, gwd[2] = {10, 96}, gbd[1] = {10}, two[1] = {2},
          rsvals[2] = {2, -1};
  ge_edge e[5], outs[3];
  int64_t k2[2] = {2, 2};
  tu_seed(&rng, seed);
  TU_OK(ge_graph_add_data(g, "x", GE_DTYPE_FLOAT32, 4, xd, &x, NULL));
  w = const_f32(g, "w", 4, wd, &rng);
  b = const_f32(g, "b", 1, cd, &rng);
  e[0] = tu_e(x, 0), e[1] = tu_e(w, 0), e[2] = tu_e(b, 0);
  conv = node(g, "Conv", "conv", 3, e, -1);
  sc = const_f32(g, "bn_scale", 1, cd, &rng);
  bi = const_f32(g, "bn_bias", 1, cd, &rng);
  mu = const_f32(g, "bn_mean", 1, cd, &rng);
  va = node1(g, "Abs", "bn_var", const_f32(g, "bn_var_raw", 1, cd, &rng)); /* folded into a Const */
  e[0] = tu_e(conv, 0), e[1] = tu_e(sc, 0), e[2] = tu_e(bi, 0), e[3] = tu_e(mu, 0), e[4] = tu_e(va, 0);
  bn = node(g, "BatchNormalization", "bn", 5, e, 1);
  relu = node1(g, "Relu", "relu", bn);
  pool = node1(g, "MaxPool", "pool", relu);
  TU_OK(ge_node_set_attr_ints(g, pool, "kernel_shape", k2, 2, NULL));
  TU_OK(ge_node_set_attr_ints(g, pool, "strides", k2, 2, NULL));
  flat = node1(g, "Flatten", "flat", pool);
  gw = const_f32(g, "gemm_w", 2, gwd, &rng);
  gb = const_f32(g, "gemm_b", 1, gbd, &rng);
  e[0] = tu_e(flat, 0), e[1] = tu_e(gw, 0), e[2] = tu_e(gb, 0);
  gemm = node(g, "Gemm", "gemm", 3, e, -1);
  TU_OK(ge_node_set_attr_int(g, gemm, "transB", 1, NULL));
  soft = node1(g, "Softmax", "soft", gemm);
  shape = node1(g, "Shape", "shape", relu);
  rsv = const_i64(g, "rsv", 1, two, rsvals);
  rs = node2(g, "Reshape", "rs", relu, rsv);
  outs[0] = tu_e(soft, 0), outs[1] = tu_e(shape, 0), outs[2] = tu_e(rs, 0);
  TU_OK(ge_graph_set_outputs(g, 3, outs, NULL, NULL));
  return g;
}

/* The CNN compiled (folded, placed, fused) under several option sets gives
 * the host CPU reference's outputs on seeded random inputs. */
GE_TEST(test_placed_equals_reference) {
  static const char *const opts[][2] = {{NULL, NULL},
                                        {"ge.engineType", "VectorEngine"},
                                        {"ge.exec.exclude_engines", "AiCore"},
                                        {"ge.exec.exclude_engines", "AiCore,AiCpuAscend"},
                                        {"ge.exec.hostExecFlag", "1"}};
  ge_engine_registry *r = standard();
  int64_t xd[4] = {2, 3, 10, 10};
  float buf[600];
  size_t o;
  for (o = 0; o < sizeof opts / sizeof *opts; o++) {
    uint64_t seed;
    for (seed = 1; seed <= 3; seed++) {
      ge_graph *ref = cnn_graph(seed), *g = cnn_graph(seed);
      ge_place_desc d = desc_of(r);
      ge_value in = random_input(4, xd, buf, seed * 31);
      ge_program *pr, *pg;
      ge_error err;
      uint32_t i;
      if (opts[o][0]) TU_OK(ge_place_set_option(&d, opts[o][0], opts[o][1], NULL));
      if (ge_graph_infer_shapes(ref, &err)) fprintf(stderr, "infer: %s\n", err.message);
      if (!GE_CHECK(ge_place_compile(g, &d, &err) == GE_OK)) {
        fprintf(stderr, "%s\n", err.message);
        ge_graph_free(ref), ge_graph_free(g);
        continue;
      }
      if (!opts[o][0]) { /* default options: folding and fusion happened */
        GE_CHECK(ge_graph_find(g, "bn") == GE_NONE);
        GE_CHECK(ge_graph_find(g, "relu") == GE_NONE);
        GE_CHECK(ge_graph_find(g, "bn_var_raw") == GE_NONE);
        GE_CHECK_STR(engine_of(r, g, "conv"), "AIcoreEngine");
      }
      pr = run_placed(ref, r, &in, 1);
      pg = run_placed(g, r, &in, 0);
      GE_CHECK(pr && pg);
      for (i = 0; pr && pg && i < ge_program_num_outputs(pr); i++) {
        double dlt = rel_diff(ge_program_output(pg, i), ge_program_output(pr, i));
        if (!GE_CHECK(dlt < 1e-4)) fprintf(stderr, "option %s, seed %d, output %u: %g\n", opts[o][1] ? opts[o][1] : "-", (int)seed, (unsigned)i, dlt);
      }
      ge_program_free(pr), ge_program_free(pg);
      ge_graph_free(ref), ge_graph_free(g);
    }
  }
  ge_engine_registry_free(r);
}

/* DSA, its AI CPU fallback and HCCL: the seeded random op gives the same
 * numbers on either engine; the single-rank AllReduce is the identity. */
GE_TEST(test_dsa_fallback_and_hccl) {
  ge_engine_registry *r = standard();
  int64_t xd[4] = {1, 3, 8, 8};
  float buf[192];
  ge_value in = random_input(4, xd, buf, 5);
  ge_graph *a = mixed_graph(), *b = mixed_graph();
  ge_place_desc da = desc_of(r), db = desc_of(r);
  ge_program *pa, *pb;
  TU_OK(ge_place_set_option(&db, "ge.exec.exclude_engines", "Dsa", NULL));
  GE_REQUIRE(ge_place(a, &da, NULL) == GE_OK && ge_place(b, &db, NULL) == GE_OK);
  GE_CHECK_STR(engine_of(r, a, "rand"), "DSAEngine");
  GE_CHECK_STR(engine_of(r, b, "rand"), "DNN_VM_AICPU_ASCEND");
  pa = run_placed(a, r, &in, 0);
  pb = run_placed(b, r, &in, 0);
  GE_REQUIRE(pa && pb);
  GE_CHECK(rel_diff(ge_program_output(pa, 5), ge_program_output(pb, 5)) == 0);
  GE_CHECK(rel_diff(ge_program_output(pa, 4), &in) == 0);
  ge_program_free(pa), ge_program_free(pb);
  ge_graph_free(a), ge_graph_free(b);
  ge_engine_registry_free(r);
}

/* -------------------------------------------------------------- plugins */

GE_TEST(test_plugin) {
  ge_engine_registry *r = standard();
  ge_place_desc d = desc_of(r);
  ge_graph *g = tu_new_graph("swish");
  char path[700];
  ge_error err;
  ge_node_id x, s;
  int64_t dims[2] = {3, 5};
  float buf[15];
  ge_value in = random_input(2, dims, buf, 9);
  ge_program *p;
  ge_edge e;
  int64_t i;
  snprintf(path, sizeof path, "%s/plugin_engine_abi99.so", plugin_dir);
  GE_CHECK_EQ_INT(ge_engine_load_plugin(r, path, &err), GE_ERR_UNSUPPORTED);
  GE_CHECK(strstr(err.message, "ABI version 99") != NULL);
  GE_CHECK_EQ_INT(ge_engine_count(r), GE_ENGINE_STANDARD_COUNT);
  GE_CHECK_EQ_INT(ge_engine_load_plugin(r, "/nonexistent/engine.so", &err), GE_ERR_IO);
  snprintf(path, sizeof path, "%s/plugin_engine.so", plugin_dir);
  GE_REQUIRE(ge_engine_load_plugin(r, path, &err) == GE_OK);
  GE_CHECK_EQ_INT(ge_engine_load_plugin(r, path, &err), GE_ERR_INVALID); /* same engine twice */
  TU_OK(ge_graph_add_data(g, "x", GE_DTYPE_FLOAT32, 2, dims, &x, NULL));
  s = node1(g, "Swish", "swish", x);
  TU_OK(ge_node_set_domain(g, s, "test.plugin", NULL));
  TU_OK(ge_node_set_output(g, s, 0, GE_DTYPE_FLOAT32, 2, dims, NULL, NULL));
  e = tu_e(s, 0);
  TU_OK(ge_graph_set_outputs(g, 1, &e, NULL, NULL));
  GE_REQUIRE(ge_place(g, &d, &err) == GE_OK);
  GE_CHECK_STR(engine_of(r, g, "swish"), "TestSwishEngine");
  TU_OK(ge_place_set_option(&d, "ge.exec.exclude_engines", "TestSwish", NULL));
  GE_CHECK_EQ_INT(ge_place(g, &d, &err), GE_ERR_UNSUPPORTED);
  GE_CHECK(strstr(err.message, "TestSwishEngine: excluded") != NULL);
  d.exclude_engines = NULL;
  TU_OK(ge_place(g, &d, NULL));
  p = run_placed(g, r, &in, 0);
  GE_REQUIRE(p != NULL);
  for (i = 0; i < 15; i++)
    GE_CHECK_NEAR(((const float *)ge_program_output(p, 0)->data)[i], buf[i] / (1.0f + expf(-buf[i])), 1e-6);
  ge_program_free(p);
  ge_graph_free(g);
  ge_engine_registry_free(r);
}

/* ------------------------------------------------------- custom engine */

static ge_status k_double(ge_kernel_ctx *c) {
  const ge_value *x = c->inputs[0];
  ge_value *y = ge_kernel_output(c, 0, x->dtype, x->rank, x->dims);
  int64_t i;
  if (!y) return c->err->code;
  for (i = 0; i < x->numel; i++) ((float *)y->data)[i] = 2 * ((const float *)x->data)[i];
  return GE_OK;
}

static int only_float(const ge_graph *g, const ge_node *n, char *why, size_t cap) {
  const ge_tensor_desc *x = ge_node_input_desc(g, n, 0);
  return x && x->dtype == GE_DTYPE_FLOAT32 ? 1 : ge_engine_why(why, cap, "float32 only");
}

GE_TEST(test_custom_engine) {
  static const ge_custom_op ops[] = {{"my.ops", "Double", k_double, only_float}, {NULL, "Stack", NULL, NULL}};
  ge_custom_engine ce;
  ge_engine_registry *r = standard();
  ge_place_desc d = desc_of(r);
  ge_graph *g = tu_new_graph("custom");
  int64_t dims[1] = {4};
  float buf[4];
  ge_value in = random_input(1, dims, buf, 3);
  ge_node_id x, y;
  ge_program *p;
  ge_edge e;
  int i;
  ge_custom_engine_init(&ce, ops, 2);
  TU_OK(ge_engine_register(r, &ce.engine, NULL));
  TU_OK(ge_graph_add_data(g, "x", GE_DTYPE_FLOAT32, 1, dims, &x, NULL));
  y = node1(g, "Double", "dbl", x);
  TU_OK(ge_node_set_domain(g, y, "my.ops", NULL));
  TU_OK(ge_node_set_output(g, y, 0, GE_DTYPE_FLOAT32, 1, dims, NULL, NULL));
  e = tu_e(y, 0);
  TU_OK(ge_graph_set_outputs(g, 1, &e, NULL, NULL));
  GE_REQUIRE(ge_place(g, &d, NULL) == GE_OK);
  GE_CHECK_STR(engine_of(r, g, "dbl"), "DNN_VM_CUSTOM");
  p = run_placed(g, r, &in, 0);
  GE_REQUIRE(p != NULL);
  for (i = 0; i < 4; i++) GE_CHECK_NEAR(((const float *)ge_program_output(p, 0)->data)[i], 2 * buf[i], 0);
  ge_program_free(p);
  ge_graph_free(g);
  ge_engine_registry_free(r);
}

/* Dynamic data flow: a StackPush that cost order put elsewhere follows its
 * Stack's engine when the stack is dynamic. */
static int stack_ops(const ge_engine *e, const ge_graph *g, const ge_node *n, char *why, size_t cap) {
  (void)e, (void)g;
  return !strncmp(n->op, "Stack", 5) ? 1 : ge_engine_why(why, cap, "stack ops only");
}
static int push_only(const ge_graph *g, const ge_node *n, char *why, size_t cap) {
  (void)g;
  return !strcmp(n->op, "StackPush") ? 1 : ge_engine_why(why, cap, "StackPush only");
}

GE_TEST(test_data_flow_reassign) {
  static const ge_custom_op ops[] = {{NULL, "StackPush", k_double, push_only}};
  ge_engine stack_engine;
  ge_custom_engine ce;
  ge_engine_registry *r = standard();
  ge_place_desc d = desc_of(r);
  ge_graph *g = tu_new_graph("stack");
  int64_t dims[1] = {-1};
  ge_node_id x, st, push;
  memset(&stack_engine, 0, sizeof stack_engine);
  stack_engine.abi_version = GE_ENGINE_ABI_VERSION;
  stack_engine.name = "StackEngine";
  stack_engine.cost = 5;
  stack_engine.check_supported = stack_ops;
  stack_engine.kernel = no_kernel;
  ge_custom_engine_init(&ce, ops, 1);
  TU_OK(ge_engine_register(r, &stack_engine, NULL));
  TU_OK(ge_engine_register(r, &ce.engine, NULL));
  TU_OK(ge_graph_add_data(g, "x", GE_DTYPE_FLOAT32, 1, dims, &x, NULL));
  st = node(g, "Stack", "stack", 0, NULL, 1);
  push = node2(g, "StackPush", "push", st, x);
  TU_OK(ge_node_set_output(g, push, 0, GE_DTYPE_FLOAT32, 1, dims, NULL, NULL));
  GE_REQUIRE(ge_place(g, &d, NULL) == GE_OK);
  GE_CHECK_STR(engine_of(r, g, "stack"), "StackEngine");
  GE_CHECK_STR(engine_of(r, g, "push"), "StackEngine");
  GE_CHECK_EQ_INT(by_of(g, "push"), GE_PLACED_DATA_FLOW);
  /* static shapes: no reassignment */
  dims[0] = 4;
  TU_OK(ge_node_set_output(g, push, 0, GE_DTYPE_FLOAT32, 1, dims, NULL, NULL));
  TU_OK(ge_node_set_output(g, x, 0, GE_DTYPE_FLOAT32, 1, dims, NULL, NULL));
  TU_OK(ge_node_set_output(g, st, 0, GE_DTYPE_INT32, 0, NULL, NULL, NULL));
  GE_REQUIRE(ge_place(g, &d, NULL) == GE_OK);
  GE_CHECK_STR(engine_of(r, g, "push"), "DNN_VM_CUSTOM");
  ge_graph_free(g);
  ge_engine_registry_free(r);
}

/* The small-tensor pass moves shape math (int64, bool) to the host CPU, not
 * small float data: a squeeze-excite gate's 8-channel Sigmoid stays on its
 * engine, so it does not make its call dynamic. */
GE_TEST(test_small_float_tensors_stay) {
  ge_engine_registry *r = standard();
  ge_place_desc d = desc_of(r);
  ge_graph *g = tu_new_graph("small");
  int64_t gate[4] = {1, 8, 1, 1}, two[1] = {2};
  ge_node_id x, i, sig, add;
  ge_edge outs[2];
  TU_OK(ge_graph_add_data(g, "x", GE_DTYPE_FLOAT32, 4, gate, &x, NULL));
  TU_OK(ge_graph_add_data(g, "i", GE_DTYPE_INT64, 1, two, &i, NULL));
  sig = node1(g, "Sigmoid", "sig", x);
  add = node2(g, "Add", "add", i, i);
  outs[0] = tu_e(sig, 0), outs[1] = tu_e(add, 0);
  TU_OK(ge_graph_set_outputs(g, 2, outs, NULL, NULL));
  TU_OK(ge_graph_infer_shapes(g, NULL));
  GE_REQUIRE(ge_place(g, &d, NULL) == GE_OK);
  GE_CHECK_STR(engine_of(r, g, "sig"), "AIcoreEngine");
  GE_CHECK_EQ_INT(by_of(g, "sig"), GE_PLACED_COST);
  GE_CHECK_STR(engine_of(r, g, "add"), "DNN_VM_HOST_CPU");
  GE_CHECK_EQ_INT(by_of(g, "add"), GE_PLACED_SMALL_TENSOR);
  ge_graph_free(g);
  ge_engine_registry_free(r);
}

/* ----------------------------------------------------- constant folding */

GE_TEST(test_constant_folding) {
  ge_graph *g = tu_new_graph("fold");
  tu_rng rng;
  int64_t wd[2] = {64, 32}, sd[1] = {2}, big[2] = {1000, 1000}, x_d[2] = {32, 64};
  ge_node_id w, tr, x, add, bigshape, cos_, shp;
  uint32_t folded = 0;
  ge_edge outs[3];
  ge_error err;
  const ge_attr *v;
  tu_seed(&rng, 1);
  w = const_f32(g, "w", 2, wd, &rng);
  tr = node1(g, "Transpose", "wt", w);         /* same size as its input: folded */
  TU_OK(ge_graph_add_data(g, "x", GE_DTYPE_FLOAT32, 2, x_d, &x, NULL));
  add = node2(g, "Add", "add", x, tr);         /* reads a Data: stays */
  bigshape = const_i64(g, "bigshape", 1, sd, big);
  cos_ = node1(g, "ConstantOfShape", "cos", bigshape); /* 4 MB from 16 bytes: stays */
  shp = node1(g, "Shape", "shp", tr);          /* folds after wt */
  outs[0] = tu_e(add, 0), outs[1] = tu_e(cos_, 0), outs[2] = tu_e(shp, 0);
  TU_OK(ge_graph_set_outputs(g, 3, outs, NULL, NULL));
  TU_OK(ge_graph_infer_shapes(g, NULL));
  GE_REQUIRE(ge_host_cpu_fold_constants(g, 0, &folded, &err) == GE_OK);
  GE_CHECK_EQ_INT(folded, 2);
  GE_CHECK_STR(ge_graph_node(g, ge_graph_find(g, "wt"))->op, "Const");
  GE_CHECK_STR(ge_graph_node(g, ge_graph_find(g, "shp"))->op, "Const");
  GE_CHECK_STR(ge_graph_node(g, ge_graph_find(g, "cos"))->op, "ConstantOfShape");
  GE_CHECK(ge_graph_find(g, "w") == GE_NONE); /* its only consumer folded */
  v = ge_node_attr(ge_graph_node(g, ge_graph_find(g, "shp")), "value");
  GE_REQUIRE(v && v->type == GE_ATTR_TENSOR);
  GE_CHECK_EQ_INT(ge_tensor_get_int(v->v.t, 0), 32);
  GE_CHECK_EQ_INT(ge_tensor_get_int(v->v.t, 1), 64);
  GE_CHECK_EQ_INT(ge_graph_validate(g, NULL, &err), GE_OK);
  ge_graph_free(g);
}

/* Shape and Size of a tensor whose shape inference is static fold, though
 * the tensor is computed: they read only its dims; a Slice of the Shape
 * then folds after it. A dynamic dim keeps them. */
GE_TEST(test_static_shape_folding) {
  ge_graph *g = tu_new_graph("fold_shape");
  int64_t x_d[4] = {1, 3, 8, 5}, y_d[2] = {-1, 7}, one[1] = {1}, st[1] = {2}, en[1] = {4};
  ge_node_id x, relu, shp, size, sl, ydata, yshp;
  ge_edge in[3], outs[5];
  uint32_t folded = 0;
  ge_error err;
  const ge_attr *v;
  TU_OK(ge_graph_add_data(g, "x", GE_DTYPE_FLOAT32, 4, x_d, &x, NULL));
  TU_OK(ge_graph_add_data(g, "y", GE_DTYPE_FLOAT32, 2, y_d, &ydata, NULL));
  relu = node1(g, "Relu", "relu", x);
  shp = node1(g, "Shape", "shp", relu); /* of a computed tensor, static */
  size = node1(g, "Size", "size", relu);
  in[0] = tu_e(shp, 0), in[1] = tu_e(const_i64(g, "st", 1, one, st), 0), in[2] = tu_e(const_i64(g, "en", 1, one, en), 0);
  sl = node(g, "Slice", "sl", 3, in, -1); /* the spatial dims */
  yshp = node1(g, "Shape", "yshp", ydata); /* a dynamic dim: stays */
  outs[0] = tu_e(relu, 0), outs[1] = tu_e(sl, 0), outs[2] = tu_e(size, 0), outs[3] = tu_e(yshp, 0), outs[4] = tu_e(shp, 0);
  TU_OK(ge_graph_set_outputs(g, 5, outs, NULL, NULL));
  TU_OK(ge_graph_infer_shapes(g, NULL));
  GE_REQUIRE(ge_host_cpu_fold_constants(g, 0, &folded, &err) == GE_OK);
  GE_CHECK_EQ_INT(folded, 3);
  GE_CHECK_STR(ge_graph_node(g, ge_graph_find(g, "shp"))->op, "Const");
  GE_CHECK_STR(ge_graph_node(g, ge_graph_find(g, "sl"))->op, "Const");
  GE_CHECK_STR(ge_graph_node(g, ge_graph_find(g, "size"))->op, "Const");
  GE_CHECK_STR(ge_graph_node(g, ge_graph_find(g, "yshp"))->op, "Shape");
  GE_CHECK_STR(ge_graph_node(g, ge_graph_find(g, "relu"))->op, "Relu"); /* still computed */
  v = ge_node_attr(ge_graph_node(g, ge_graph_find(g, "sl")), "value");
  GE_REQUIRE(v && v->type == GE_ATTR_TENSOR && v->v.t->rank == 1 && v->v.t->dims[0] == 2);
  GE_CHECK_EQ_INT(ge_tensor_get_int(v->v.t, 0), 8);
  GE_CHECK_EQ_INT(ge_tensor_get_int(v->v.t, 1), 5);
  v = ge_node_attr(ge_graph_node(g, ge_graph_find(g, "size")), "value");
  GE_REQUIRE(v && v->type == GE_ATTR_TENSOR);
  GE_CHECK_EQ_INT(ge_tensor_get_int(v->v.t, 0), 120);
  GE_CHECK_EQ_INT(ge_graph_validate(g, NULL, &err), GE_OK);
  ge_graph_free(g);
}

/* The host CPU engine's original-graph optimiser folds in rounds: a
 * Reshape whose shape input is computed from a Shape through a Mod (which
 * shape inference does not evaluate) has an unknown shape until that
 * folds; inference then finds it static, and a Shape of the Reshape folds
 * in the next round. */
GE_TEST(test_folding_rounds) {
  ge_graph *g = tu_new_graph("fold_rounds");
  const ge_engine *host = ge_host_cpu_engine();
  int64_t x_d[3] = {2, 3, 4}, one[1] = {1}, zero[1] = {0}, minus1[1] = {-1}, five[1] = {5};
  ge_node_id x, shp, first, cat, resh, shp2;
  ge_edge in[3], outs[2];
  ge_error err;
  const ge_attr *v;
  TU_OK(ge_graph_add_data(g, "x", GE_DTYPE_FLOAT32, 3, x_d, &x, NULL));
  shp = node1(g, "Shape", "shp", x);
  in[0] = tu_e(shp, 0), in[1] = tu_e(const_i64(g, "z", 1, one, zero), 0), in[2] = tu_e(const_i64(g, "o", 1, one, one), 0);
  first = node(g, "Slice", "first", 3, in, -1);
  first = node2(g, "Mod", "mod", first, const_i64(g, "five", 1, one, five)); /* 2 % 5 */
  in[0] = tu_e(first, 0), in[1] = tu_e(const_i64(g, "m1", 1, one, minus1), 0);
  cat = node(g, "Concat", "cat", 2, in, -1);
  TU_OK(ge_node_set_attr_int(g, cat, "axis", 0, NULL));
  resh = node2(g, "Reshape", "resh", x, cat); /* [2, 12] */
  shp2 = node1(g, "Shape", "shp2", resh);
  outs[0] = tu_e(resh, 0), outs[1] = tu_e(shp2, 0);
  TU_OK(ge_graph_set_outputs(g, 2, outs, NULL, NULL));
  TU_OK(ge_graph_infer_shapes(g, NULL));
  GE_REQUIRE(host->optimize_original(host, g, &err) == GE_OK);
  GE_CHECK_STR(ge_graph_node(g, ge_graph_find(g, "cat"))->op, "Const");
  GE_CHECK_STR(ge_graph_node(g, ge_graph_find(g, "shp2"))->op, "Const");
  GE_CHECK_STR(ge_graph_node(g, ge_graph_find(g, "resh"))->op, "Reshape");
  v = ge_node_attr(ge_graph_node(g, ge_graph_find(g, "shp2")), "value");
  GE_REQUIRE(v && v->type == GE_ATTR_TENSOR && v->v.t->rank == 1 && v->v.t->dims[0] == 2);
  GE_CHECK_EQ_INT(ge_tensor_get_int(v->v.t, 0), 2);
  GE_CHECK_EQ_INT(ge_tensor_get_int(v->v.t, 1), 12);
  GE_CHECK_EQ_INT(ge_graph_validate(g, NULL, &err), GE_OK);
  ge_graph_free(g);
}

/* A scalar Const of one value (float32 or bool). */
static ge_node_id const_scalar(ge_graph *g, const char *name, ge_dtype dtype, float value) {
  ge_tensor t;
  ge_node_id id;
  float f = value;
  uint8_t b = value != 0.0f;
  memset(&t, 0, sizeof t);
  t.dtype = dtype;
  t.data = dtype == GE_DTYPE_BOOL ? (void *)&b : (void *)&f;
  t.nbytes = dtype == GE_DTYPE_BOOL ? 1 : sizeof f;
  TU_OK(ge_graph_add_const(g, name, &t, &id, NULL));
  return id;
}

/* Dropouts that are identities go (inference, or ratio 0 in training
 * mode); one that drops in training mode, one whose mask is read and one
 * that is a graph output stay. */
GE_TEST(test_identity_dropouts_removed) {
  ge_graph *g = tu_new_graph("dropouts");
  const ge_engine *host = ge_host_cpu_engine();
  int64_t x_d[2] = {4, 5};
  ge_node_id x, plain, p0, trains, masked, last, r1, r2, r3, r4;
  ge_edge in[3], outs[5];
  ge_error err;
  TU_OK(ge_graph_add_data(g, "x", GE_DTYPE_FLOAT32, 2, x_d, &x, NULL));
  plain = node1(g, "Dropout", "plain", x); /* ratio 0.5, no training_mode: inference */
  r1 = node1(g, "Relu", "r1", plain);
  in[0] = tu_e(r1, 0), in[1] = tu_e(const_scalar(g, "zero", GE_DTYPE_FLOAT32, 0.0f), 0);
  in[2] = tu_e(const_scalar(g, "yes", GE_DTYPE_BOOL, 1.0f), 0);
  p0 = node(g, "Dropout", "p0", 3, in, -1); /* ratio 0 in training mode */
  r2 = node1(g, "Relu", "r2", p0);
  in[0] = tu_e(r2, 0), in[1] = tu_e(const_scalar(g, "third", GE_DTYPE_FLOAT32, 0.3f), 0);
  in[2] = tu_e(const_scalar(g, "yes2", GE_DTYPE_BOOL, 1.0f), 0);
  trains = node(g, "Dropout", "trains", 3, in, -1); /* drops */
  r3 = node1(g, "Relu", "r3", trains);
  in[0] = tu_e(r3, 0);
  masked = node(g, "Dropout", "masked", 1, in, 2); /* its mask is read */
  r4 = node1(g, "Relu", "r4", masked);
  last = node1(g, "Dropout", "last", r4); /* a graph output */
  outs[0] = tu_e(last, 0), outs[1] = tu_e(masked, 1);
  TU_OK(ge_graph_set_outputs(g, 2, outs, NULL, NULL));
  TU_OK(ge_graph_infer_shapes(g, NULL));
  GE_REQUIRE(host->optimize_original(host, g, &err) == GE_OK);
  GE_CHECK(ge_graph_find(g, "plain") == GE_NONE);
  GE_CHECK(ge_graph_find(g, "p0") == GE_NONE);
  GE_CHECK(ge_graph_find(g, "trains") != GE_NONE);
  GE_CHECK(ge_graph_find(g, "masked") != GE_NONE);
  GE_CHECK(ge_graph_find(g, "last") != GE_NONE);
  GE_CHECK(ge_graph_node(g, ge_graph_find(g, "r1"))->inputs[0].node == x);
  GE_CHECK(ge_graph_node(g, ge_graph_find(g, "r2"))->inputs[0].node == ge_graph_find(g, "r1"));
  GE_CHECK_EQ_INT(ge_graph_validate(g, NULL, &err), GE_OK);
  ge_graph_free(g);
}

int main(int argc, char **argv) {
  const char *slash = strrchr(argv[0], '/');
  if (slash) snprintf(plugin_dir, sizeof plugin_dir, "%.*s", (int)(slash - argv[0]), argv[0]);
  ge_test_init(argc, argv);
  GE_RUN(test_registry);
  GE_RUN(test_options);
  GE_RUN(test_place_default);
  GE_RUN(test_place_options);
  GE_RUN(test_pinned_and_unsupported);
  GE_RUN(test_explain);
  GE_RUN(test_threads_agree);
  GE_RUN(test_placed_equals_reference);
  GE_RUN(test_dsa_fallback_and_hccl);
  GE_RUN(test_plugin);
  GE_RUN(test_custom_engine);
  GE_RUN(test_data_flow_reassign);
  GE_RUN(test_small_float_tensors_stay);
  GE_RUN(test_constant_folding);
  GE_RUN(test_static_shape_folding);
  GE_RUN(test_folding_rounds);
  GE_RUN(test_identity_dropouts_removed);
  return ge_test_main_end();
}

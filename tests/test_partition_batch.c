/* test_partition_batch.c — multi-batch (ge_partition.h, GE's
 * MultiBatchClonePass): option parsing and every error, the rewrite into
 * GetDynamicDims -> MapIndex -> Case over static clones, each tier computing
 * what the original dynamic graph computes on the same seeded input
 * (dynamic batch, image size NCHW and NHWC, dynamic dims on two inputs, 2
 * and 100 tiers), the no-tier error, the kernels on bad input, and real
 * models through the engines: examples/models/tiny_cnn.onnx always,
 * build/models/resnet18.onnx when PyTorch exported it. */
#define _POSIX_C_SOURCE 200809L
#include "ge_session.h"
#include "tests/test.h"
#include "tests/graph_util.h"
#include "tools/npy.h"

#include <stdlib.h>
#include <sys/stat.h>

#define OK(x) GE_CHECK_EQ_INT((x), GE_OK)

/* --------------------------------------------------------------- helpers */

static ge_kernel_fn lookup(const ge_node *n, void *user) {
  ge_kernel_fn f = ge_multibatch_kernel(n);
  (void)user;
  return f ? f : ge_host_cpu_kernel(n);
}

static ge_exec_desc exec_desc(void) {
  ge_exec_desc d;
  memset(&d, 0, sizeof d);
  d.lookup = lookup;
  return d;
}

static int contains(const char *s, const char *part) { return s && part && strstr(s, part) != NULL; }
#define CHECK_MSG(err, part) ge_test__check(contains((err).message, part), __FILE__, __LINE__, "message '%s' lacks '%s'", (err).message, part)

static ge_node_id add_const(ge_graph *g, const char *name, int32_t rank, const int64_t *dims, tu_rng *r, float scale) {
  ge_tensor t;
  int64_t n = 1, i;
  int32_t k;
  float *v;
  ge_node_id id;
  for (k = 0; k < rank; k++) n *= dims[k];
  v = (float *)malloc(sizeof(float) * (size_t)n);
  for (i = 0; i < n; i++) v[i] = ((float)tu_below(r, 2001) / 1000.0f - 1.0f) * scale;
  memset(&t, 0, sizeof t);
  t.dtype = GE_DTYPE_FLOAT32, t.rank = rank, t.dims = (int64_t *)dims, t.data = v, t.nbytes = sizeof(float) * (size_t)n;
  TU_OK(ge_graph_add_const(g, name, &t, &id, NULL));
  free(v);
  return id;
}

/* Data with -1 at the dims given -1, symbols where sym[k] is not NULL. */
static ge_node_id add_data(ge_graph *g, const char *name, int32_t rank, const int64_t *dims, const char *const *sym) {
  ge_node_id id;
  ge_dim_info info[GE_MAX_RANK];
  int32_t k;
  TU_OK(ge_graph_add_data(g, name, GE_DTYPE_FLOAT32, rank, dims, &id, NULL));
  for (k = 0; k < rank; k++) info[k].lo = 0, info[k].hi = -1, info[k].symbol = sym ? sym[k] : NULL;
  TU_OK(ge_node_set_output(g, id, 0, GE_DTYPE_FLOAT32, rank, dims, info, NULL));
  return id;
}

/* A small CNN: x[N,3,8,8] -> Conv(4,3x3,pad 1) -> Relu -> Flatten -> Gemm(10).
 * Outputs "logits" (named) and the Relu output (named after its node). */
static ge_graph *cnn_graph(void) {
  ge_graph *g = tu_new_graph("cnn");
  tu_rng r;
  int64_t xd[4] = {-1, 3, 8, 8}, wd[4] = {4, 3, 3, 3}, bd[1] = {4}, gd[2] = {256, 10}, gb[1] = {10};
  const char *sym[4] = {"N", NULL, NULL, NULL};
  int64_t pads[4] = {1, 1, 1, 1};
  ge_node_id x, w, b, conv, relu, flat, gw, gbias, gemm;
  ge_edge in[3], outs[2];
  const char *names[2] = {"logits", NULL};
  tu_seed(&r, 11);
  x = add_data(g, "x", 4, xd, sym);
  w = add_const(g, "w", 4, wd, &r, 0.5f);
  b = add_const(g, "b", 1, bd, &r, 0.1f);
  in[0] = tu_e(x, 0), in[1] = tu_e(w, 0), in[2] = tu_e(b, 0);
  conv = tu_add_op(g, "Conv", "conv", 3, in);
  TU_OK(ge_node_set_attr_ints(g, conv, "pads", pads, 4, NULL));
  in[0] = tu_e(conv, 0);
  relu = tu_add_op(g, "Relu", "relu", 1, in);
  in[0] = tu_e(relu, 0);
  flat = tu_add_op(g, "Flatten", "flatten", 1, in);
  gw = add_const(g, "gemm_w", 2, gd, &r, 0.2f);
  gbias = add_const(g, "gemm_b", 1, gb, &r, 0.1f);
  in[0] = tu_e(flat, 0), in[1] = tu_e(gw, 0), in[2] = tu_e(gbias, 0);
  gemm = tu_add_op(g, "Gemm", "gemm", 3, in);
  outs[0] = tu_e(gemm, 0), outs[1] = tu_e(relu, 0);
  TU_OK(ge_graph_set_outputs(g, 2, outs, names, NULL));
  return g;
}

/* An image net: x (NCHW [1,3,H,W] or NHWC [1,H,W,3]) -> [Transpose] -> Conv
 * -> Relu -> GlobalAveragePool -> Flatten: [1,4]; and the Relu map. */
static ge_graph *image_graph(int nhwc) {
  ge_graph *g = tu_new_graph(nhwc ? "image_nhwc" : "image_nchw");
  tu_rng r;
  int64_t xn[4] = {1, 3, -1, -1}, xh[4] = {1, -1, -1, 3}, wd[4] = {4, 3, 3, 3}, perm[4] = {0, 3, 1, 2};
  int64_t pads[4] = {1, 1, 1, 1};
  ge_node_id x, w, conv, relu, gap, flat, src;
  ge_edge in[2], outs[2];
  tu_seed(&r, 12);
  x = add_data(g, "image", 4, nhwc ? xh : xn, NULL);
  src = x;
  if (nhwc) {
    in[0] = tu_e(x, 0);
    src = tu_add_op(g, "Transpose", "to_nchw", 1, in);
    TU_OK(ge_node_set_attr_ints(g, src, "perm", perm, 4, NULL));
  }
  w = add_const(g, "w", 4, wd, &r, 0.5f);
  in[0] = tu_e(src, 0), in[1] = tu_e(w, 0);
  conv = tu_add_op(g, "Conv", "conv", 2, in);
  TU_OK(ge_node_set_attr_ints(g, conv, "pads", pads, 4, NULL));
  in[0] = tu_e(conv, 0);
  relu = tu_add_op(g, "Relu", "relu", 1, in);
  in[0] = tu_e(relu, 0);
  gap = tu_add_op(g, "GlobalAveragePool", "gap", 1, in);
  in[0] = tu_e(gap, 0);
  flat = tu_add_op(g, "Flatten", "flat", 1, in);
  outs[0] = tu_e(flat, 0), outs[1] = tu_e(relu, 0);
  TU_OK(ge_graph_set_outputs(g, 2, outs, NULL, NULL));
  return g;
}

/* Two inputs: x[1,S,4] -> MatMul(W[4,5]) -> "seq" [1,S,5]; y[B,3] -> Relu -> "vec". */
static ge_graph *two_input_graph(void) {
  ge_graph *g = tu_new_graph("two");
  tu_rng r;
  int64_t xd[3] = {1, -1, 4}, yd[2] = {-1, 3}, wd[2] = {4, 5};
  ge_node_id x, y, w, mm, relu;
  ge_edge in[2], outs[2];
  const char *names[2] = {"seq", "vec"};
  tu_seed(&r, 13);
  x = add_data(g, "x", 3, xd, NULL);
  y = add_data(g, "y", 2, yd, NULL);
  w = add_const(g, "w", 2, wd, &r, 1.0f);
  in[0] = tu_e(x, 0), in[1] = tu_e(w, 0);
  mm = tu_add_op(g, "MatMul", "mm", 2, in);
  in[0] = tu_e(y, 0);
  relu = tu_add_op(g, "Relu", "relu", 1, in);
  outs[0] = tu_e(mm, 0), outs[1] = tu_e(relu, 0);
  TU_OK(ge_graph_set_outputs(g, 2, outs, names, NULL));
  return g;
}

/* A float value of the given shape with seeded values (owns data). */
static ge_value rand_value(int32_t rank, const int64_t *dims, uint64_t seed) {
  ge_value v;
  tu_rng r;
  int64_t i;
  memset(&v, 0, sizeof v);
  ge_value_set_shape(&v, GE_DTYPE_FLOAT32, rank, dims);
  v.data = malloc(v.nbytes ? v.nbytes : 1);
  tu_seed(&r, seed);
  for (i = 0; i < v.numel; i++) ((float *)v.data)[i] = (float)tu_below(&r, 2001) / 1000.0f - 1.0f;
  return v;
}

/* Max |a - b| of two float values; 1e30 when their shapes differ. */
static double max_diff(const ge_value *a, const ge_value *b) {
  double m = 0;
  int64_t i;
  int32_t k;
  if (!a || !b || a->dtype != b->dtype || a->rank != b->rank || a->numel != b->numel) return 1e30;
  for (k = 0; k < a->rank; k++)
    if (a->dims[k] != b->dims[k]) return 1e30;
  for (i = 0; i < a->numel; i++) {
    double d = fabs((double)((const float *)a->data)[i] - (double)((const float *)b->data)[i]);
    if (d > m || d != d) m = d != d ? 1e30 : d;
  }
  return m;
}

/* Runs ref and mb on the same inputs; checks every output agrees. */
static void check_same(ge_program *ref, ge_program *mb, const ge_value *const *ins, uint32_t n, const char *what) {
  ge_error err;
  uint32_t i;
  ge_status a = ge_program_run(ref, ins, n, &err), b;
  ge_test__check(a == GE_OK, __FILE__, __LINE__, "%s: reference run: %s", what, err.message);
  b = ge_program_run(mb, ins, n, &err);
  ge_test__check(b == GE_OK, __FILE__, __LINE__, "%s: multi-batch run: %s", what, err.message);
  if (a || b) return;
  GE_CHECK_EQ_INT(ge_program_num_outputs(mb), ge_program_num_outputs(ref));
  for (i = 0; i < ge_program_num_outputs(ref); i++) {
    double d = max_diff(ge_program_output(ref, i), ge_program_output(mb, i));
    ge_test__check(d <= 1e-5, __FILE__, __LINE__, "%s: output %u differs by %g", what, (unsigned)i, d);
    GE_CHECK_STR(ge_program_output_name(mb, i), ge_program_output_name(ref, i));
  }
}

static ge_node_id find_op(ge_graph *g, const char *op) {
  ge_node *n;
  GE_GRAPH_FOREACH(g, n) {
    if (!strcmp(n->op, op)) return n->id;
  }
  return GE_NONE;
}

/* Every node output of every branch has a static shape. */
static int branches_static(ge_graph *g, int32_t *count) {
  ge_node_id c = find_op(g, "Case");
  const ge_attr *a = c == GE_NONE ? NULL : ge_node_attr(ge_graph_node(g, c), "branches");
  int32_t t;
  *count = a ? a->count : 0;
  if (!a) return 0;
  for (t = 0; t < a->count; t++) {
    ge_node *n;
    GE_GRAPH_FOREACH(a->v.graphs[t], n) {
      uint32_t k;
      for (k = 0; k < n->num_outputs; k++)
        if (!ge_shape_is_static(&n->outputs[k].shape)) return 0;
    }
  }
  return 1;
}

static uint64_t graph_hash(ge_graph *g) {
  uint64_t h = 0;
  TU_OK(ge_graph_hash(g, &h, NULL));
  return h;
}

/* ------------------------------------------------------------ options */

static ge_status set1(ge_multibatch_desc *d, const char *key, const char *value, ge_error *err) {
  memset(d, 0, sizeof *d);
  return ge_multibatch_set_option(d, key, value, err);
}

GE_TEST(test_options_accept) {
  ge_multibatch_desc d;
  ge_error err;
  char many[512];
  int i, at = 0;
  OK(set1(&d, "ge.dynamicBatchSize", "1,4,8,16", &err));
  GE_CHECK_STR(d.dynamic_batch_size, "1,4,8,16");
  GE_CHECK(ge_multibatch_enabled(&d));
  OK(set1(&d, "ge.dynamicBatchSize", " 2 , 1 ", &err)); /* spaces, any order */
  OK(set1(&d, "ge.dynamicImageSize", "224,224;256,256;512,512", &err));
  GE_CHECK_STR(d.dynamic_image_size, "224,224;256,256;512,512");
  OK(set1(&d, "ge.dynamicDims", "1,32;1,64;1,128", &err));
  OK(set1(&d, "ge.dynamicDims", "32;64", &err)); /* one dynamic dim */
  OK(set1(&d, "ge.inputShape", "input:1,-1,128;mask:-1,3", &err));
  GE_CHECK_STR(d.input_shape, "input:1,-1,128;mask:-1,3");
  GE_CHECK(!ge_multibatch_enabled(&d));
  OK(set1(&d, "ge.inputShape", "scope/name:0:-1,3;s:", &err)); /* last ':' splits; empty dims: a scalar */
  OK(set1(&d, "ge.inputFormat", "NHWC", &err));
  OK(ge_multibatch_set_option(&d, "ge.inputFormat", "NCHW", &err));
  OK(ge_multibatch_set_option(&d, "ge.inputFormat", "ND", &err));
  for (i = 1; i <= 100; i++) at += snprintf(many + at, sizeof many - (size_t)at, "%s%d", i > 1 ? "," : "", i);
  OK(set1(&d, "ge.dynamicBatchSize", many, &err));
  OK(set1(&d, "ge.dynamicBatchSize", "1,2", &err));
  /* an empty value unsets, so another dynamic option may follow */
  OK(ge_multibatch_set_option(&d, "ge.dynamicBatchSize", "", &err));
  GE_CHECK(d.dynamic_batch_size == NULL);
  OK(ge_multibatch_set_option(&d, "ge.dynamicDims", "1;2", &err));
  GE_CHECK(ge_multibatch_enabled(&d));
}

GE_TEST(test_options_reject) {
  ge_multibatch_desc d;
  ge_error err;
  char many[512];
  int i, at = 0;
  GE_CHECK_EQ_INT(set1(&d, "ge.dynamicBatchSize", "4", &err), GE_ERR_INVALID);
  CHECK_MSG(err, "ge.dynamicBatchSize");
  CHECK_MSG(err, "at least 2");
  for (i = 1; i <= 101; i++) at += snprintf(many + at, sizeof many - (size_t)at, "%s%d", i > 1 ? "," : "", i);
  GE_CHECK_EQ_INT(set1(&d, "ge.dynamicBatchSize", many, &err), GE_ERR_INVALID);
  CHECK_MSG(err, "101 tiers");
  CHECK_MSG(err, "at most 100");
  GE_CHECK_EQ_INT(set1(&d, "ge.dynamicImageSize", "224,224", &err), GE_ERR_INVALID);
  CHECK_MSG(err, "at least 2");
  GE_CHECK_EQ_INT(set1(&d, "ge.dynamicBatchSize", "0", &err), GE_ERR_INVALID); /* the value is named, not the count */
  CHECK_MSG(err, "'0'");
  GE_CHECK_EQ_INT(set1(&d, "ge.dynamicBatchSize", "abc", &err), GE_ERR_INVALID);
  CHECK_MSG(err, "'abc'");
  GE_CHECK_EQ_INT(set1(&d, "ge.dynamicBatchSize", "1,0,4", &err), GE_ERR_INVALID);
  CHECK_MSG(err, "tier 2 has value 0");
  GE_CHECK_EQ_INT(set1(&d, "ge.dynamicBatchSize", "1,-4", &err), GE_ERR_INVALID);
  CHECK_MSG(err, "positive");
  GE_CHECK_EQ_INT(set1(&d, "ge.dynamicBatchSize", "1,x,4", &err), GE_ERR_INVALID);
  CHECK_MSG(err, "'x' in tier 2");
  GE_CHECK_EQ_INT(set1(&d, "ge.dynamicBatchSize", "1,2.5", &err), GE_ERR_INVALID);
  GE_CHECK_EQ_INT(set1(&d, "ge.dynamicBatchSize", "1,99999999999999999999", &err), GE_ERR_INVALID);
  GE_CHECK_EQ_INT(set1(&d, "ge.dynamicBatchSize", "1,,4", &err), GE_ERR_INVALID);
  CHECK_MSG(err, "tier 2 is empty");
  GE_CHECK_EQ_INT(set1(&d, "ge.dynamicBatchSize", "", &err), GE_OK); /* empty: unset */
  GE_CHECK_EQ_INT(set1(&d, "ge.dynamicBatchSize", "   ", &err), GE_ERR_INVALID);
  GE_CHECK_EQ_INT(set1(&d, "ge.dynamicBatchSize", "1,4,8,4", &err), GE_ERR_INVALID);
  CHECK_MSG(err, "tiers 2 and 4 are the same");
  GE_CHECK_EQ_INT(set1(&d, "ge.dynamicImageSize", "224,224;256,256;224,224", &err), GE_ERR_INVALID);
  CHECK_MSG(err, "tiers 1 and 3 are the same");
  GE_CHECK_EQ_INT(set1(&d, "ge.dynamicImageSize", "224;256", &err), GE_ERR_INVALID);
  CHECK_MSG(err, "2 values (H,W)");
  GE_CHECK_EQ_INT(set1(&d, "ge.dynamicImageSize", "224,224,3;256,256,3", &err), GE_ERR_INVALID);
  GE_CHECK_EQ_INT(set1(&d, "ge.dynamicDims", "1,32;1,64,2", &err), GE_ERR_INVALID);
  CHECK_MSG(err, "tier 2 has 3 values but tier 1 has 2");
  GE_CHECK_EQ_INT(set1(&d, "ge.dynamicDims", "1,32;", &err), GE_ERR_INVALID);
  CHECK_MSG(err, "tier 2 is empty");
  GE_CHECK_EQ_INT(set1(&d, "ge.dynamicDims", "1,32;1,0", &err), GE_ERR_INVALID);
  CHECK_MSG(err, "ge.dynamicDims");
  /* mutually exclusive, either order; the desc stays as it was */
  OK(set1(&d, "ge.dynamicBatchSize", "1,2", &err));
  GE_CHECK_EQ_INT(ge_multibatch_set_option(&d, "ge.dynamicDims", "1;2", &err), GE_ERR_INVALID);
  CHECK_MSG(err, "ge.dynamicBatchSize and ge.dynamicDims are mutually exclusive");
  GE_CHECK(d.dynamic_dims == NULL);
  GE_CHECK_STR(d.dynamic_batch_size, "1,2");
  GE_CHECK_EQ_INT(ge_multibatch_set_option(&d, "ge.dynamicImageSize", "1,1;2,2", &err), GE_ERR_INVALID);
  CHECK_MSG(err, "ge.dynamicBatchSize and ge.dynamicImageSize");
  OK(set1(&d, "ge.dynamicImageSize", "1,1;2,2", &err));
  GE_CHECK_EQ_INT(ge_multibatch_set_option(&d, "ge.dynamicBatchSize", "1,2", &err), GE_ERR_INVALID);
  CHECK_MSG(err, "mutually exclusive");
  /* input shapes and formats */
  GE_CHECK_EQ_INT(set1(&d, "ge.inputShape", "x1,2", &err), GE_ERR_INVALID);
  CHECK_MSG(err, "NAME:DIMS");
  GE_CHECK_EQ_INT(set1(&d, "ge.inputShape", "x:1,a", &err), GE_ERR_INVALID);
  CHECK_MSG(err, "dim 'a' of input 'x'");
  GE_CHECK_EQ_INT(set1(&d, "ge.inputShape", "x:1,-2", &err), GE_ERR_INVALID);
  CHECK_MSG(err, "-2");
  GE_CHECK_EQ_INT(set1(&d, "ge.inputShape", "x:1;x:2", &err), GE_ERR_INVALID);
  CHECK_MSG(err, "input 'x' is given twice");
  GE_CHECK_EQ_INT(set1(&d, "ge.inputShape", ":1,2", &err), GE_ERR_INVALID);
  CHECK_MSG(err, "no input name");
  GE_CHECK_EQ_INT(set1(&d, "ge.inputShape", "x:1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1", &err), GE_ERR_INVALID);
  CHECK_MSG(err, "more than 16 dims");
  GE_CHECK_EQ_INT(set1(&d, "ge.inputFormat", "NCWH", &err), GE_ERR_INVALID);
  CHECK_MSG(err, "ge.inputFormat");
  /* other keys are not ours */
  GE_CHECK_EQ_INT(set1(&d, "ge.engineType", "AIcoreEngine", &err), GE_ERR_NOT_FOUND);
  GE_CHECK_EQ_INT(set1(&d, NULL, "1", &err), GE_ERR_INVALID);
  GE_CHECK_EQ_INT(ge_multibatch_set_option(NULL, "ge.dynamicDims", "1;2", &err), GE_ERR_INVALID);
}

/* Random strings never crash the parser, and what it accepts applies or
 * fails cleanly on a graph. */
GE_TEST(test_options_random) {
  static const char alphabet[] = "0123456789,,;;::--x -1";
  static const char *const keys[5] = {"ge.dynamicBatchSize", "ge.dynamicImageSize", "ge.dynamicDims", "ge.inputShape",
                                      "ge.inputFormat"};
  tu_rng r;
  char buf[64];
  int i, accepted = 0;
  ge_graph *g = two_input_graph();
  tu_seed(&r, 99);
  for (i = 0; i < 3000; i++) {
    ge_multibatch_desc d;
    ge_error err;
    uint32_t n = tu_below(&r, 40), k;
    const char *key = keys[tu_below(&r, 5)];
    ge_status st;
    for (k = 0; k < n; k++) buf[k] = alphabet[tu_below(&r, sizeof alphabet - 1)];
    if (!strcmp(key, "ge.inputShape") && n > 2) buf[0] = tu_below(&r, 2) ? 'x' : 'y', buf[1] = ':';
    buf[n] = 0;
    memset(&d, 0, sizeof d);
    err.code = GE_OK;
    st = ge_multibatch_set_option(&d, key, buf, &err);
    GE_CHECK(st == GE_OK || (st == GE_ERR_INVALID && err.code == st && err.message[0]));
    if (st == GE_OK && n) {
      ge_graph *c = NULL;
      accepted++;
      TU_OK(ge_graph_clone(g, NULL, &c, NULL));
      if (!strcmp(key, "ge.inputShape")) d.dynamic_dims = "1,2;3,4";
      st = ge_multibatch_apply(c, &d, &err);
      GE_CHECK(st == GE_OK || err.message[0]);
      ge_graph_free(c);
    }
  }
  GE_CHECK(accepted > 20);
  ge_graph_free(g);
}

/* ------------------------------------------------------- batch on a CNN */

GE_TEST(test_batch_cnn) {
  ge_graph *g = cnn_graph(), *ref = NULL;
  ge_multibatch_desc md;
  ge_exec_desc ed = exec_desc();
  ge_program *pr = NULL, *pm = NULL;
  ge_error err;
  ge_node_id cs, mi, gdd, x;
  const ge_node *xn;
  int32_t nb = 0;
  int64_t b;
  char sh[128];
  memset(&md, 0, sizeof md);
  OK(ge_graph_clone(g, NULL, &ref, &err));
  OK(ge_multibatch_set_option(&md, "ge.dynamicBatchSize", "1,2,4", &err));
  OK(ge_multibatch_apply(g, &md, &err));
  OK(ge_graph_validate(g, NULL, &err));
  cs = find_op(g, "Case"), mi = find_op(g, "MapIndex"), gdd = find_op(g, "GetDynamicDims");
  GE_REQUIRE(cs != GE_NONE && mi != GE_NONE && gdd != GE_NONE);
  GE_CHECK_EQ_INT(ge_graph_node_count(g), 6); /* x, GetDynamicDims, tiers, MapIndex, Case, NetOutput */
  GE_CHECK(branches_static(g, &nb));
  GE_CHECK_EQ_INT(nb, 3);
  GE_CHECK_STR(ge_node_attr_string(ge_graph_node(g, cs), GE_MULTIBATCH_ATTR, NULL), "ge.dynamicBatchSize");
  x = ge_graph_find(g, "x");
  GE_REQUIRE(x != GE_NONE);
  xn = ge_graph_node(g, x);
  GE_CHECK_STR(ge_shape_str(&xn->outputs[0].shape, sh, sizeof sh), "[-1(N:1..4),3,8,8]");
  GE_CHECK_STR(ge_shape_str(&ge_graph_node(g, cs)->outputs[0].shape, sh, sizeof sh), "[-1(1..4),10]");
  GE_CHECK_STR(ge_shape_str(&ge_graph_node(g, cs)->outputs[1].shape, sh, sizeof sh), "[-1(1..4),4,8,8]");
  OK(ge_program_create(ref, &ed, &pr, &err));
  OK(ge_program_create(g, &ed, &pm, &err));
  GE_REQUIRE(pr && pm);
  GE_CHECK_STR(ge_program_output_name(pm, 0), "logits");
  GE_CHECK_STR(ge_program_output_name(pm, 1), "relu");
  for (b = 1; b <= 4; b *= 2) {
    int64_t dims[4] = {b, 3, 8, 8};
    ge_value v = rand_value(4, dims, 100 + (uint64_t)b);
    const ge_value *ins[1];
    char what[32];
    ins[0] = &v;
    snprintf(what, sizeof what, "batch %lld", (long long)b);
    check_same(pr, pm, ins, 1, what);
    free(v.data);
  }
  {
    /* batch 3 lies between the tiers: MapIndex names the shape and the tiers */
    int64_t dims[4] = {3, 3, 8, 8};
    ge_value v = rand_value(4, dims, 7);
    const ge_value *ins[1];
    ins[0] = &v;
    GE_CHECK_EQ_INT(ge_program_run(pm, ins, 1, &err), GE_ERR_SHAPE);
    CHECK_MSG(err, "input shape x[3,3,8,8] matches no tier of ge.dynamicBatchSize (1,2,4)");
    /* batch 8 is past the range the input declares */
    dims[0] = 8;
    free(v.data);
    v = rand_value(4, dims, 8);
    ins[0] = &v;
    GE_CHECK_EQ_INT(ge_program_run(pm, ins, 1, &err), GE_ERR_SHAPE);
    CHECK_MSG(err, "input 'x'");
    free(v.data);
    /* and the program still runs a tier afterwards */
    dims[0] = 2;
    v = rand_value(4, dims, 9);
    ins[0] = &v;
    check_same(pr, pm, ins, 1, "batch 2 after errors");
    free(v.data);
  }
  {
    /* the rewritten graph survives a save and load */
    uint8_t *bytes = NULL;
    size_t size = 0;
    ge_graph *back = NULL;
    ge_program *pb = NULL;
    int64_t dims[4] = {4, 3, 8, 8};
    ge_value v = rand_value(4, dims, 10);
    const ge_value *ins[1];
    OK(ge_graph_serialize(g, &bytes, &size, &err));
    OK(ge_graph_deserialize(bytes, size, NULL, &back, &err));
    ge_graph_free_bytes(g, bytes, size);
    GE_REQUIRE(back);
    OK(ge_program_create(back, &ed, &pb, &err));
    ins[0] = &v;
    if (pb) check_same(pr, pb, ins, 1, "batch 4 after a round trip");
    ge_program_free(pb);
    ge_graph_free(back);
    free(v.data);
  }
  /* a second application is refused */
  GE_CHECK_EQ_INT(ge_multibatch_apply(g, &md, &err), GE_ERR_INVALID);
  CHECK_MSG(err, "already holds the multi-batch Case");
  ge_program_free(pr);
  ge_program_free(pm);
  ge_graph_free(ref);
  ge_graph_free(g);
}

/* The batch from ge.inputShape on a model with a static batch. */
GE_TEST(test_batch_from_input_shape) {
  ge_graph *g = two_input_graph();
  ge_multibatch_desc md;
  ge_error err;
  ge_node_id x;
  char sh[128];
  memset(&md, 0, sizeof md);
  /* y's batch alone is dynamic, x's dim 1 is not dim 0: with no ge.inputShape that is an error */
  OK(ge_multibatch_set_option(&md, "ge.dynamicBatchSize", "2,3", &err));
  GE_CHECK_EQ_INT(ge_multibatch_apply(g, &md, &err), GE_ERR_INVALID);
  CHECK_MSG(err, "input 'x' [1,-1,4] has dynamic dim 1");
  /* fix x's sequence, batch y */
  OK(ge_multibatch_set_option(&md, "ge.inputShape", "x:1,6,4;y:-1,3", &err));
  OK(ge_multibatch_apply(g, &md, &err));
  x = ge_graph_find(g, "x");
  GE_CHECK_STR(ge_shape_str(&ge_graph_node(g, x)->outputs[0].shape, sh, sizeof sh), "[1,6,4]");
  {
    ge_exec_desc ed = exec_desc();
    ge_program *p = NULL;
    int64_t xd[3] = {1, 6, 4}, yd[2] = {3, 3};
    ge_value xv = rand_value(3, xd, 1), yv = rand_value(2, yd, 2);
    const ge_value *ins[2];
    ins[0] = &xv, ins[1] = &yv;
    OK(ge_program_create(g, &ed, &p, &err));
    OK(ge_program_run(p, ins, 2, &err));
    if (p) GE_CHECK_EQ_INT(ge_program_output(p, 1)->dims[0], 3);
    ge_program_free(p);
    free(xv.data), free(yv.data);
  }
  ge_graph_free(g);
}

/* ---------------------------------------------------------- image size */

/* mode 0: NCHW; 1: NHWC by ge.inputFormat; 2: NHWC by the input's format. */
static void image_case(int mode) {
  int nhwc = mode > 0;
  ge_graph *g = image_graph(nhwc), *ref = NULL;
  ge_multibatch_desc md;
  ge_exec_desc ed = exec_desc();
  ge_program *pr = NULL, *pm = NULL;
  ge_error err;
  int32_t nb = 0, t;
  const int64_t hw[3][2] = {{8, 8}, {12, 16}, {5, 9}};
  char sh[128];
  memset(&md, 0, sizeof md);
  OK(ge_graph_clone(g, NULL, &ref, &err));
  OK(ge_multibatch_set_option(&md, "ge.dynamicImageSize", "8,8;12,16;5,9", &err));
  if (mode == 1) OK(ge_multibatch_set_option(&md, "ge.inputFormat", "NHWC", &err));
  if (mode == 2) OK(ge_node_set_output_format(g, ge_graph_find(g, "image"), 0, GE_FORMAT_NHWC, &err));
  OK(ge_multibatch_apply(g, &md, &err));
  GE_CHECK(branches_static(g, &nb));
  GE_CHECK_EQ_INT(nb, 3);
  GE_CHECK_STR(ge_shape_str(&ge_graph_node(g, ge_graph_find(g, "image"))->outputs[0].shape, sh, sizeof sh),
               nhwc ? "[1,-1(5..12),-1(8..16),3]" : "[1,3,-1(5..12),-1(8..16)]");
  GE_CHECK_STR(ge_shape_str(&ge_graph_node(g, find_op(g, "Case"))->outputs[0].shape, sh, sizeof sh), "[1,4]");
  OK(ge_program_create(ref, &ed, &pr, &err));
  OK(ge_program_create(g, &ed, &pm, &err));
  GE_REQUIRE(pr && pm);
  for (t = 0; t < 3; t++) {
    int64_t dn[4] = {1, 3, hw[t][0], hw[t][1]}, dh[4] = {1, hw[t][0], hw[t][1], 3};
    ge_value v = rand_value(4, nhwc ? dh : dn, 200 + (uint64_t)t);
    const ge_value *ins[1];
    ins[0] = &v;
    check_same(pr, pm, ins, 1, nhwc ? "NHWC tier" : "NCHW tier");
    free(v.data);
  }
  {
    int64_t dn[4] = {1, 3, 8, 9}, dh[4] = {1, 8, 9, 3};
    ge_value v = rand_value(4, nhwc ? dh : dn, 3);
    const ge_value *ins[1];
    ins[0] = &v;
    GE_CHECK_EQ_INT(ge_program_run(pm, ins, 1, &err), GE_ERR_SHAPE);
    CHECK_MSG(err, nhwc ? "image[1,8,9,3] matches no tier of ge.dynamicImageSize (8,8;12,16;5,9)"
                        : "image[1,3,8,9] matches no tier of ge.dynamicImageSize (8,8;12,16;5,9)");
    free(v.data);
  }
  ge_program_free(pr);
  ge_program_free(pm);
  ge_graph_free(ref);
  ge_graph_free(g);
}

GE_TEST(test_image_nchw) { image_case(0); }
GE_TEST(test_image_nhwc) { image_case(1); }
GE_TEST(test_image_nhwc_from_input) { image_case(2); }

GE_TEST(test_image_errors) {
  ge_graph *g = image_graph(0);
  ge_multibatch_desc md;
  ge_error err;
  uint64_t h = graph_hash(g);
  memset(&md, 0, sizeof md);
  OK(ge_multibatch_set_option(&md, "ge.dynamicImageSize", "8,8;12,16", &err));
  OK(ge_multibatch_set_option(&md, "ge.inputFormat", "NHWC", &err)); /* H, W would be dims 1, 2 */
  GE_CHECK_EQ_INT(ge_multibatch_apply(g, &md, &err), GE_ERR_INVALID);
  CHECK_MSG(err, "has dynamic dim 3, but the option sets only H and W (dims 1 and 2 in NHWC)");
  OK(ge_multibatch_set_option(&md, "ge.inputFormat", "ND", &err));
  GE_CHECK_EQ_INT(ge_multibatch_apply(g, &md, &err), GE_ERR_INVALID);
  CHECK_MSG(err, "NCHW or NHWC");
  OK(ge_multibatch_set_option(&md, "ge.inputFormat", "NCHW", &err));
  OK(ge_multibatch_set_option(&md, "ge.inputShape", "image:1,3,-1,8", &err)); /* only H dynamic */
  GE_CHECK_EQ_INT(ge_multibatch_apply(g, &md, &err), GE_ERR_INVALID);
  CHECK_MSG(err, "needs both H and W dynamic");
  GE_CHECK_EQ_INT(graph_hash(g), h); /* unchanged */
  ge_graph_free(g);
}

/* -------------------------------------------------------- dynamic dims */

GE_TEST(test_dims_two_inputs) {
  ge_graph *g = two_input_graph(), *ref = NULL;
  ge_multibatch_desc md;
  ge_exec_desc ed = exec_desc();
  ge_program *pr = NULL, *pm = NULL;
  ge_error err;
  int32_t nb = 0, t;
  const int64_t tiers[3][2] = {{2, 3}, {5, 1}, {7, 7}};
  const ge_attr *names;
  memset(&md, 0, sizeof md);
  OK(ge_graph_clone(g, NULL, &ref, &err));
  /* y first: the tiers list y's batch, then x's sequence */
  OK(ge_multibatch_set_option(&md, "ge.inputShape", "y:-1,3;x:1,-1,4", &err));
  OK(ge_multibatch_set_option(&md, "ge.dynamicDims", "3,2;1,5;7,7", &err));
  OK(ge_multibatch_apply(g, &md, &err));
  OK(ge_graph_validate(g, NULL, &err));
  GE_CHECK(branches_static(g, &nb));
  GE_CHECK_EQ_INT(nb, 3);
  names = ge_node_attr(ge_graph_node(g, find_op(g, "MapIndex")), "input_names");
  GE_REQUIRE(names && names->count == 2);
  GE_CHECK_STR(names->v.strings[0], "y");
  OK(ge_program_create(ref, &ed, &pr, &err));
  OK(ge_program_create(g, &ed, &pm, &err));
  GE_REQUIRE(pr && pm);
  GE_CHECK_STR(ge_program_output_name(pm, 0), "seq");
  GE_CHECK_STR(ge_program_output_name(pm, 1), "vec");
  for (t = 0; t < 3; t++) {
    int64_t xd[3] = {1, tiers[t][0], 4}, yd[2] = {tiers[t][1], 3};
    ge_value xv = rand_value(3, xd, 300 + (uint64_t)t), yv = rand_value(2, yd, 400 + (uint64_t)t);
    const ge_value *ins[2];
    ins[0] = &xv, ins[1] = &yv;
    check_same(pr, pm, ins, 2, "dims tier");
    free(xv.data), free(yv.data);
  }
  {
    /* each dim of a tier alone is no match */
    int64_t xd[3] = {1, 2, 4}, yd[2] = {1, 3};
    ge_value xv = rand_value(3, xd, 1), yv = rand_value(2, yd, 2);
    const ge_value *ins[2];
    ins[0] = &xv, ins[1] = &yv;
    GE_CHECK_EQ_INT(ge_program_run(pm, ins, 2, &err), GE_ERR_SHAPE);
    CHECK_MSG(err, "input shapes y[1,3], x[1,2,4] match no tier of ge.dynamicDims (3,2;1,5;7,7)");
    free(xv.data), free(yv.data);
  }
  ge_program_free(pr);
  ge_program_free(pm);
  ge_graph_free(ref);
  ge_graph_free(g);
}

/* --------------------------------------------------------------- errors */

GE_TEST(test_apply_errors) {
  ge_graph *g = two_input_graph(), *c = cnn_graph(), *s = tu_small_graph("static", 1);
  ge_multibatch_desc md;
  ge_error err;
  uint64_t h = graph_hash(g);
  memset(&md, 0, sizeof md);
  /* nothing set: nothing done */
  OK(ge_multibatch_apply(g, &md, &err));
  OK(ge_multibatch_apply(g, NULL, &err));
  GE_CHECK_EQ_INT(graph_hash(g), h);
  /* dims need input shapes */
  OK(ge_multibatch_set_option(&md, "ge.dynamicDims", "1,2;3,4", &err));
  GE_CHECK_EQ_INT(ge_multibatch_apply(g, &md, &err), GE_ERR_INVALID);
  CHECK_MSG(err, "ge.dynamicDims needs ge.inputShape");
  /* unknown input */
  OK(ge_multibatch_set_option(&md, "ge.inputShape", "x:1,-1,4;z:-1,3", &err));
  GE_CHECK_EQ_INT(ge_multibatch_apply(g, &md, &err), GE_ERR_NOT_FOUND);
  CHECK_MSG(err, "names input 'z', which graph 'two' does not have (its inputs: x, y)");
  /* rank */
  OK(ge_multibatch_set_option(&md, "ge.inputShape", "x:1,-1;y:-1,3", &err));
  GE_CHECK_EQ_INT(ge_multibatch_apply(g, &md, &err), GE_ERR_SHAPE);
  CHECK_MSG(err, "gives input 'x' rank 2 [1,-1], the graph's input has rank 3 [1,-1,4]");
  /* a static dim that contradicts the graph */
  OK(ge_multibatch_set_option(&md, "ge.inputShape", "x:1,-1,5;y:-1,3", &err));
  GE_CHECK_EQ_INT(ge_multibatch_apply(g, &md, &err), GE_ERR_SHAPE);
  CHECK_MSG(err, "dim 2 = 5, the graph fixes it to 4");
  /* tier width against the -1 count */
  OK(ge_multibatch_set_option(&md, "ge.inputShape", "x:1,-1,4;y:-1,-1", &err));
  GE_CHECK_EQ_INT(ge_multibatch_apply(g, &md, &err), GE_ERR_INVALID);
  CHECK_MSG(err, "each tier has 2 values but ge.inputShape has 3 -1 dims");
  /* an input left dynamic */
  OK(ge_multibatch_set_option(&md, "ge.inputShape", "x:1,-1,4", &err));
  OK(ge_multibatch_set_option(&md, "ge.dynamicDims", "1;2", &err));
  GE_CHECK_EQ_INT(ge_multibatch_apply(g, &md, &err), GE_ERR_INVALID);
  CHECK_MSG(err, "input 'y' [-1,3] stays dynamic");
  /* mutually exclusive options set in the desc directly */
  md.dynamic_batch_size = "1,2";
  GE_CHECK_EQ_INT(ge_multibatch_apply(g, &md, &err), GE_ERR_INVALID);
  CHECK_MSG(err, "mutually exclusive");
  /* a bad value set in the desc directly */
  memset(&md, 0, sizeof md);
  md.dynamic_batch_size = "1,1";
  GE_CHECK_EQ_INT(ge_multibatch_apply(c, &md, &err), GE_ERR_INVALID);
  CHECK_MSG(err, "are the same");
  GE_CHECK_EQ_INT(graph_hash(g), h);
  /* no dynamic input */
  md.dynamic_batch_size = "1,2";
  GE_CHECK_EQ_INT(ge_multibatch_apply(s, &md, &err), GE_ERR_INVALID);
  CHECK_MSG(err, "no input of graph 'static' has a dynamic dim 0");
  /* a tier the graph cannot take fails with the tier named, graph unchanged */
  {
    ge_graph *r = tu_new_graph("reshape");
    int64_t xd[2] = {-1, 6}, shape[2] = {2, 6};
    ge_node_id x, k, y;
    ge_edge in[2], o;
    ge_tensor t;
    uint64_t hr;
    x = add_data(r, "x", 2, xd, NULL);
    memset(&t, 0, sizeof t);
    t.dtype = GE_DTYPE_INT64, t.rank = 1, t.dims = &xd[1], t.data = shape, t.nbytes = sizeof shape;
    xd[1] = 2;
    TU_OK(ge_graph_add_const(r, "shape", &t, &k, NULL));
    xd[1] = 6;
    in[0] = tu_e(x, 0), in[1] = tu_e(k, 0);
    y = tu_add_op(r, "Reshape", "reshape", 2, in);
    o = tu_e(y, 0);
    TU_OK(ge_graph_set_outputs(r, 1, &o, NULL, NULL));
    hr = graph_hash(r);
    md.dynamic_batch_size = "2,3";
    GE_CHECK(ge_multibatch_apply(r, &md, &err) != GE_OK);
    CHECK_MSG(err, "ge.dynamicBatchSize tier 2 (3)");
    GE_CHECK_EQ_INT(graph_hash(r), hr);
    ge_graph_free(r);
  }
  ge_graph_free(g);
  ge_graph_free(c);
  ge_graph_free(s);
}

/* ------------------------------------------------------ 2 and 100 tiers */

static void tiers_case(int n) {
  ge_graph *g = cnn_graph(), *ref = NULL;
  ge_multibatch_desc md;
  ge_exec_desc ed = exec_desc();
  ge_program *pr = NULL, *pm = NULL;
  ge_error err;
  char list[512];
  int i, at = 0;
  int32_t nb = 0;
  const int64_t probe[3] = {1, 37, 100};
  memset(&md, 0, sizeof md);
  for (i = n; i >= 1; i--) at += snprintf(list + at, sizeof list - (size_t)at, "%s%d", i < n ? "," : "", i); /* descending */
  OK(ge_graph_clone(g, NULL, &ref, &err));
  OK(ge_multibatch_set_option(&md, "ge.dynamicBatchSize", list, &err));
  OK(ge_multibatch_apply(g, &md, &err));
  GE_CHECK(branches_static(g, &nb));
  GE_CHECK_EQ_INT(nb, n);
  OK(ge_program_create(ref, &ed, &pr, &err));
  OK(ge_program_create(g, &ed, &pm, &err));
  GE_REQUIRE(pr && pm);
  for (i = 0; i < 3; i++) {
    int64_t dims[4] = {probe[i] > n ? n : probe[i], 3, 8, 8};
    ge_value v = rand_value(4, dims, 500 + (uint64_t)i);
    const ge_value *ins[1];
    ins[0] = &v;
    check_same(pr, pm, ins, 1, n == 2 ? "2 tiers" : "100 tiers");
    free(v.data);
  }
  ge_program_free(pr);
  ge_program_free(pm);
  ge_graph_free(ref);
  ge_graph_free(g);
}

GE_TEST(test_two_tiers) { tiers_case(2); }
GE_TEST(test_hundred_tiers) { tiers_case(100); }

/* -------------------------------------------------------------- kernels */

/* Runs a one-node graph of op with the given inputs. */
static ge_status run_one(const char *op, ge_value *const *vals, uint32_t n, int with_attrs, ge_error *err) {
  ge_graph *g = tu_new_graph("kernel");
  ge_exec_desc ed = exec_desc();
  ge_program *p = NULL;
  ge_node_id ids[4], node;
  ge_edge in[4], o;
  uint32_t i;
  ge_status st;
  char name[8];
  const ge_value *ins[4];
  for (i = 0; i < n; i++) {
    snprintf(name, sizeof name, "in%u", (unsigned)i);
    TU_OK(ge_graph_add_data(g, name, vals[i]->dtype, vals[i]->rank, vals[i]->dims, &ids[i], NULL));
    in[i] = tu_e(ids[i], 0);
    ins[i] = vals[i];
  }
  TU_OK(ge_graph_add_node(g, op, "k", n, in, 1, &node, NULL));
  if (with_attrs == 1) {
    int64_t info[3] = {2, -1, 3};
    TU_OK(ge_node_set_attr_ints(g, node, "shape_info", info, 3, NULL));
  } else if (with_attrs == 2) {
    int64_t info[2] = {5, -1}; /* rank 5 but one dim: malformed */
    TU_OK(ge_node_set_attr_ints(g, node, "shape_info", info, 2, NULL));
  } else if (with_attrs == 3) {
    int64_t info[5] = {2, -1, 3, 1, -1}; /* two inputs described, one given */
    TU_OK(ge_node_set_attr_ints(g, node, "shape_info", info, 5, NULL));
  }
  o = tu_e(node, 0);
  TU_OK(ge_graph_set_outputs(g, 1, &o, NULL, NULL));
  st = ge_program_create(g, &ed, &p, err);
  if (!st) st = ge_program_run(p, ins, n, err);
  ge_program_free(p);
  ge_graph_free(g);
  return st;
}

static ge_value ivalue(ge_dtype t, int32_t rank, const int64_t *dims, const void *data) {
  ge_value v;
  memset(&v, 0, sizeof v);
  ge_value_set_shape(&v, t, rank, dims);
  v.data = (void *)data;
  return v;
}

GE_TEST(test_kernels_bad_input) {
  ge_error err;
  int64_t d1[1] = {2}, d2[2] = {3, 2}, d23[2] = {4, 3};
  int64_t dims[2] = {4, 5}, tab[6] = {1, 5, 4, 5, 9, 9};
  int32_t tab32[6] = {1, 5, 4, 5, 9, 9};
  float f[12] = {0};
  ge_value vd = ivalue(GE_DTYPE_INT64, 1, d1, dims), vt = ivalue(GE_DTYPE_INT64, 2, d2, tab),
           vt32 = ivalue(GE_DTYPE_INT32, 2, d2, tab32), vf = ivalue(GE_DTYPE_FLOAT32, 2, d23, f), vt5;
  ge_value *ins[2];
  ge_node n;
  /* MapIndex without the attrs describing the inputs: the dims are named */
  ins[0] = &vd, ins[1] = &vt;
  OK(run_one("MapIndex", ins, 2, 0, &err));
  dims[0] = 3;
  GE_CHECK_EQ_INT(run_one("MapIndex", ins, 2, 0, &err), GE_ERR_SHAPE);
  CHECK_MSG(err, "dynamic dims [3,5] match no tier of the tiers (1,5;4,5;9,9)");
  ins[1] = &vt32;
  dims[0] = 9, dims[1] = 9;
  OK(run_one("MapIndex", ins, 2, 0, &err));
  ins[1] = &vf; /* float tiers */
  GE_CHECK_EQ_INT(run_one("MapIndex", ins, 2, 0, &err), GE_ERR_INVALID);
  CHECK_MSG(err, "int32 or int64");
  vt5 = ivalue(GE_DTYPE_INT64, 1, &d2[0], tab); /* 3 values, rows of 2 */
  ins[1] = &vt5;
  GE_CHECK_EQ_INT(run_one("MapIndex", ins, 2, 0, &err), GE_ERR_SHAPE);
  ins[0] = &vd;
  GE_CHECK_EQ_INT(run_one("MapIndex", ins, 1, 0, &err), GE_ERR_INVALID); /* no tiers */
  /* GetDynamicDims */
  ins[0] = &vf; /* [4,3] */
  GE_CHECK_EQ_INT(run_one("GetDynamicDims", ins, 1, 0, &err), GE_ERR_INVALID);
  CHECK_MSG(err, "shape_info is missing");
  OK(run_one("GetDynamicDims", ins, 1, 1, &err));
  GE_CHECK_EQ_INT(run_one("GetDynamicDims", ins, 1, 2, &err), GE_ERR_INVALID);
  GE_CHECK_EQ_INT(run_one("GetDynamicDims", ins, 1, 3, &err), GE_ERR_INVALID);
  vf = ivalue(GE_DTYPE_FLOAT32, 2, d2, f); /* [3,2]: dim 1 is not 3 */
  ins[0] = &vf;
  GE_CHECK_EQ_INT(run_one("GetDynamicDims", ins, 1, 1, &err), GE_ERR_SHAPE);
  CHECK_MSG(err, "dim 1 is 2, 3 expected");
  /* the lookup */
  memset(&n, 0, sizeof n);
  n.op = "MapIndex";
  GE_CHECK(ge_multibatch_kernel(&n) == ge_multibatch_kernel_map_index);
  n.op = "GetDynamicDims";
  GE_CHECK(ge_multibatch_kernel(&n) == ge_multibatch_kernel_get_dynamic_dims);
  n.domain = "other";
  GE_CHECK(ge_multibatch_kernel(&n) == NULL);
  n.domain = NULL, n.op = "Relu";
  GE_CHECK(ge_multibatch_kernel(&n) == NULL);
}

/* ------------------------------------------------------- real models */

/* An ONNX model compiled in a session (the whole pipeline; the session
 * runs GetDynamicDims and MapIndex on DNN_VM_CUSTOM) with options given as
 * "KEY=VALUE" strings; c->p is its loaded program. */
typedef struct compiled {
  ge_session *s;
  ge_program *p;
} compiled;

static int compile_model(compiled *c, const char *path, const char *const *options, int n, ge_error *err) {
  int i;
  memset(c, 0, sizeof *c);
  if (ge_session_create(NULL, &c->s, err)) return 0;
  for (i = 0; i < n; i++) {
    const char *eq = strchr(options[i], '=');
    char key[64];
    snprintf(key, sizeof key, "%.*s", (int)(eq - options[i]), options[i]);
    if (ge_session_set_option(c->s, key, eq + 1, err)) return 0;
  }
  if (ge_session_add_graph_file(c->s, 1, path, err) || ge_session_load_graph(c->s, 1, err)) return 0;
  c->p = ge_session_program(c->s, 1);
  return 1;
}

static void compiled_free(compiled *c) { ge_session_free(c->s); }

/* Runs c on the .npy input and compares with the .npy output. */
static void check_npy(compiled *c, const char *in_path, const char *out_path, double tol, const char *what) {
  ge_value x, want;
  ge_error err;
  const ge_value *ins[1];
  double d;
  if (npy_read(in_path, &x, &err)) {
    ge_test__check(0, __FILE__, __LINE__, "%s: %s", what, err.message);
    return;
  }
  if (npy_read(out_path, &want, &err)) {
    ge_test__check(0, __FILE__, __LINE__, "%s: %s", what, err.message);
    free(x.data);
    return;
  }
  ins[0] = &x;
  if (ge_program_run(c->p, ins, 1, &err)) ge_test__check(0, __FILE__, __LINE__, "%s: %s", what, err.message);
  else {
    d = max_diff(ge_program_output(c->p, 0), &want);
    ge_test__check(d <= tol, __FILE__, __LINE__, "%s: output differs from the reference by %g", what, d);
  }
  free(x.data), free(want.data);
}

GE_TEST(test_tiny_cnn_model) {
  /* the exported model has batch 1: ge.inputShape makes it dynamic */
  static const char *const options[] = {"ge.inputShape=input:-1,3,32,32", "ge.dynamicBatchSize=1,2,4"};
  compiled c;
  ge_error err;
  if (!compile_model(&c, "examples/models/tiny_cnn.onnx", options, 2, &err)) {
    ge_test__check(0, __FILE__, __LINE__, "tiny_cnn: %s", err.message);
    compiled_free(&c);
    return;
  }
  GE_CHECK_STR(ge_program_output_name(c.p, 0), "output");
  check_npy(&c, "examples/models/tiny_cnn.input.npy", "examples/models/tiny_cnn.output.npy", 1e-4, "tiny_cnn batch 1");
  {
    /* batch 4 of copies of the input gives copies of the output; batch 3 is no tier */
    ge_value x, want, x4;
    const ge_value *ins[1];
    int64_t dims[4] = {4, 3, 32, 32};
    int k;
    GE_REQUIRE(!npy_read("examples/models/tiny_cnn.input.npy", &x, &err));
    GE_REQUIRE(!npy_read("examples/models/tiny_cnn.output.npy", &want, &err));
    memset(&x4, 0, sizeof x4);
    ge_value_set_shape(&x4, GE_DTYPE_FLOAT32, 4, dims);
    x4.data = malloc(x4.nbytes);
    for (k = 0; k < 4; k++) memcpy((char *)x4.data + (size_t)k * x.nbytes, x.data, x.nbytes);
    ins[0] = &x4;
    OK(ge_program_run(c.p, ins, 1, &err));
    for (k = 0; k < 4 && ge_program_output(c.p, 0)->numel == 40; k++) {
      ge_value row = *ge_program_output(c.p, 0);
      int64_t rd[2] = {1, 10};
      ge_value_set_shape(&row, GE_DTYPE_FLOAT32, 2, rd);
      row.data = (float *)ge_program_output(c.p, 0)->data + 10 * k;
      GE_CHECK(max_diff(&row, &want) <= 1e-4);
    }
    dims[0] = 3;
    ge_value_set_shape(&x4, GE_DTYPE_FLOAT32, 4, dims);
    GE_CHECK_EQ_INT(ge_program_run(c.p, ins, 1, &err), GE_ERR_SHAPE);
    CHECK_MSG(err, "input shape input[3,3,32,32] matches no tier of ge.dynamicBatchSize (1,2,4)");
    free(x.data), free(want.data), free(x4.data);
  }
  compiled_free(&c);
}

GE_TEST(test_resnet18_model) {
  static const char *const options[] = {"ge.dynamicBatchSize=1,4"};
  struct stat sb;
  compiled c;
  ge_error err;
  (void)npy_write;
  if (stat("build/models/resnet18.onnx", &sb) != 0 || stat("build/models/resnet18.b4.output.npy", &sb) != 0) {
    printf("  (build/models/resnet18.onnx absent: skipped)\n");
    return;
  }
  if (!compile_model(&c, "build/models/resnet18.onnx", options, 1, &err)) {
    ge_test__check(0, __FILE__, __LINE__, "resnet18: %s", err.message);
    compiled_free(&c);
    return;
  }
  check_npy(&c, "build/models/resnet18.b1.input.npy", "build/models/resnet18.b1.output.npy", 1e-3, "resnet18 batch 1");
  check_npy(&c, "build/models/resnet18.b4.input.npy", "build/models/resnet18.b4.output.npy", 1e-3, "resnet18 batch 4");
  compiled_free(&c);
}

int main(int argc, char **argv) {
  ge_test_init(argc, argv);
  GE_RUN(test_options_accept);
  GE_RUN(test_options_reject);
  GE_RUN(test_options_random);
  GE_RUN(test_batch_cnn);
  GE_RUN(test_batch_from_input_shape);
  GE_RUN(test_image_nchw);
  GE_RUN(test_image_nhwc);
  GE_RUN(test_image_nhwc_from_input);
  GE_RUN(test_image_errors);
  GE_RUN(test_dims_two_inputs);
  GE_RUN(test_apply_errors);
  GE_RUN(test_two_tiers);
  GE_RUN(test_hundred_tiers);
  GE_RUN(test_kernels_bad_input);
  GE_RUN(test_tiny_cnn_model);
  GE_RUN(test_resnet18_model);
  return ge_test_main_end();
}

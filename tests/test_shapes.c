/* Shape and dtype inference of the ONNX compute ops (ge_graph.h). */
#include "ge_graph.h"
#include "tests/test.h"

#include <stdlib.h>

/* ------------------------------------------------------------ helpers */

static ge_graph *mk(void) {
  ge_graph *g = NULL;
  if (ge_graph_create(NULL, &g, NULL) != GE_OK) return NULL;
  return g;
}

static ge_edge O(ge_node_id n) {
  ge_edge e;
  e.node = n;
  e.index = 0;
  return e;
}

static ge_edge O2(ge_node_id n, int32_t i) {
  ge_edge e;
  e.node = n;
  e.index = i;
  return e;
}

static const ge_edge NOIN = {GE_NONE, 0};

static ge_node_id data(ge_graph *g, const char *name, ge_dtype dt, int32_t rank, const int64_t *dims) {
  ge_node_id id = GE_NONE;
  ge_graph_add_data(g, name, dt, rank, dims, &id, NULL);
  return id;
}

/* A Data node whose dim 0 is unknown and named by symbol (range lo..hi). */
static ge_node_id data_sym(ge_graph *g, const char *name, ge_dtype dt, int32_t rank, const int64_t *dims,
                           const char *sym, int64_t lo, int64_t hi) {
  ge_node_id id = data(g, name, dt, rank, dims);
  ge_dim_info info[GE_MAX_RANK];
  int32_t i;
  for (i = 0; i < rank; i++) {
    info[i].lo = 0;
    info[i].hi = -1;
    info[i].symbol = NULL;
  }
  info[0].lo = lo;
  info[0].hi = hi;
  info[0].symbol = sym;
  ge_node_set_output(g, id, 0, dt, rank, dims, info, NULL);
  return id;
}

static ge_node_id cten(ge_graph *g, const char *name, ge_dtype dt, int32_t rank, const int64_t *dims, const void *v) {
  ge_tensor t;
  ge_node_id id = GE_NONE;
  int64_t n = 1;
  int32_t i;
  memset(&t, 0, sizeof t);
  for (i = 0; i < rank; i++)
    n *= dims[i];
  t.dtype = dt;
  t.rank = rank;
  t.dims = (int64_t *)dims;
  t.data = (void *)v;
  t.nbytes = (size_t)n * ge_dtype_size(dt);
  ge_graph_add_const(g, name, &t, &id, NULL);
  return id;
}

/* 1-D int64 constant. */
static ge_node_id c64(ge_graph *g, const char *name, int64_t n, const int64_t *v) {
  return cten(g, name, GE_DTYPE_INT64, 1, &n, v);
}

/* int64 scalar constant. */
static ge_node_id cs64(ge_graph *g, const char *name, int64_t v) { return cten(g, name, GE_DTYPE_INT64, 0, NULL, &v); }

static ge_node_id node(ge_graph *g, const char *op, const char *name, uint32_t n, const ge_edge *in, int32_t nout) {
  ge_node_id id = GE_NONE;
  ge_error e;
  if (ge_graph_add_node(g, op, name, n, in, nout, &id, &e) != GE_OK) printf("    add_node: %s\n", e.message);
  return id;
}

static void ai(ge_graph *g, ge_node_id id, const char *name, int64_t v) { ge_node_set_attr_int(g, id, name, v, NULL); }
static void af(ge_graph *g, ge_node_id id, const char *name, double v) { ge_node_set_attr_float(g, id, name, v, NULL); }
static void as(ge_graph *g, ge_node_id id, const char *name, const char *v) {
  ge_node_set_attr_string(g, id, name, v, NULL);
}
static void ais(ge_graph *g, ge_node_id id, const char *name, int32_t n, const int64_t *v) {
  ge_node_set_attr_ints(g, id, name, v, n, NULL);
}

/* The shape of output i as text, e.g. "[-1(N),3]" (rotating buffers). */
static const char *S(ge_graph *g, ge_node_id id, uint32_t i) {
  static char buf[8][160];
  static int k;
  ge_node *n = ge_graph_node(g, id);
  char *b = buf[k++ & 7];
  if (!n || i >= n->num_outputs) return "(no output)";
  return ge_shape_str(&n->outputs[i].shape, b, 160);
}

static ge_dtype DT(ge_graph *g, ge_node_id id, uint32_t i) {
  ge_node *n = ge_graph_node(g, id);
  return n && i < n->num_outputs ? n->outputs[i].dtype : GE_DTYPE_UNDEFINED;
}

/* Known value of output 0 as "v0,v1,..." or "(none)". */
static const char *V(ge_graph *g, ge_node_id id) {
  static char buf[4][256];
  static int k;
  ge_node *n = ge_graph_node(g, id);
  char *b = buf[k++ & 3];
  const ge_tensor *t = n && n->num_outputs ? n->outputs[0].value : NULL;
  int64_t i, m;
  size_t at = 0;
  if (!t) return "(none)";
  m = ge_tensor_numel(t);
  b[0] = 0;
  for (i = 0; i < m && at < 200; i++)
    at += (size_t)snprintf(b + at, 256 - at, "%s%lld", i ? "," : "", (long long)ge_tensor_get_int(t, i));
  return b;
}

static int infer_ok(ge_graph *g) {
  ge_error e;
  ge_status st;
  memset(&e, 0, sizeof e);
  st = ge_graph_infer_shapes(g, &e);
  if (st) printf("    infer: %s\n", e.message);
  return st == GE_OK;
}

static int validate_ok(ge_graph *g) {
  ge_error e;
  ge_status st;
  memset(&e, 0, sizeof e);
  st = ge_graph_validate(g, NULL, &e);
  if (st) printf("    validate: %s\n", e.message);
  return st == GE_OK;
}

/* Inference fails with GE_ERR_SHAPE and a message naming the node. */
static int infer_fails(ge_graph *g, const char *name) {
  ge_error e;
  ge_status st;
  memset(&e, 0, sizeof e);
  st = ge_graph_infer_shapes(g, &e);
  if (st != GE_ERR_SHAPE || !strstr(e.message, name))
    printf("    expected a shape error naming '%s', got %d: %s\n", name, (int)st, e.message);
  else if (getenv("GE_TEST_VERBOSE"))
    printf("    ok: %s\n", e.message);
  return st == GE_ERR_SHAPE && strstr(e.message, name) != NULL;
}

#define F32 GE_DTYPE_FLOAT32
#define I64 GE_DTYPE_INT64
#define D(...) ((const int64_t[]){__VA_ARGS__})
#define R(...) (int32_t)(sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t)), D(__VA_ARGS__)
#define IN(...) (uint32_t)(sizeof((ge_edge[]){__VA_ARGS__}) / sizeof(ge_edge)), ((const ge_edge[]){__VA_ARGS__})

/* ------------------------------------------------------ element-wise */

GE_TEST(test_binary_broadcast) {
  ge_graph *g = mk();
  ge_node_id a, b, s, add, mul, eq, lt, andn, pw, sum, mean, mx, ib, ps;
  GE_REQUIRE(g);
  a = data(g, "a", F32, R(2, 3, 4));
  b = data(g, "b", F32, R(4));
  s = data_sym(g, "s", F32, R(-1, 1, 4), "N", 1, 8);
  ib = data(g, "ib", GE_DTYPE_BOOL, R(3, 1));
  add = node(g, "Add", "add", IN(O(a), O(b)), -1);
  mul = node(g, "Mul", "mul", IN(O(s), O(a)), -1); /* [N,1,4] * [2,3,4]: N must be 2 or 1 */
  eq = node(g, "Equal", "eq", IN(O(a), O(b)), -1);
  lt = node(g, "Less", "lt", IN(O(s), O(b)), -1);
  andn = node(g, "And", "and", IN(O(ib), O(ib)), -1);
  pw = node(g, "Pow", "pow", IN(O(s), O(b)), -1);
  sum = node(g, "Sum", "sum", IN(O(a), O(b), O(s)), -1);
  mean = node(g, "Mean", "mean", IN(O(b)), -1);
  mx = node(g, "Max", "max", IN(O(b), O(a)), -1);
  ps = node(g, "PRelu", "prelu", IN(O(s), O(b)), -1);
  GE_REQUIRE(infer_ok(g));
  GE_CHECK_STR(S(g, add, 0), "[2,3,4]");
  GE_CHECK_EQ_INT(DT(g, add, 0), F32);
  GE_CHECK_STR(S(g, mul, 0), "[2,3,4]");
  GE_CHECK_STR(S(g, eq, 0), "[2,3,4]");
  GE_CHECK_EQ_INT(DT(g, eq, 0), GE_DTYPE_BOOL);
  GE_CHECK_STR(S(g, lt, 0), "[-1(N:1..8),1,4]");
  GE_CHECK_EQ_INT(DT(g, lt, 0), GE_DTYPE_BOOL);
  GE_CHECK_EQ_INT(DT(g, andn, 0), GE_DTYPE_BOOL);
  GE_CHECK_STR(S(g, pw, 0), "[-1(N:1..8),1,4]");
  GE_CHECK_STR(S(g, sum, 0), "[2,3,4]");
  GE_CHECK_STR(S(g, mean, 0), "[4]");
  GE_CHECK_STR(S(g, mx, 0), "[2,3,4]");
  GE_CHECK_STR(S(g, ps, 0), "[-1(N:1..8),1,4]");
  GE_CHECK(validate_ok(g));
  ge_graph_free(g);
}

GE_TEST(test_where_clip) {
  ge_graph *g = mk();
  ge_node_id cnd, x, y, w, lo, clip, clip2;
  GE_REQUIRE(g);
  cnd = data(g, "cond", GE_DTYPE_BOOL, R(3, 1));
  x = data(g, "x", GE_DTYPE_INT32, R(1, 4));
  y = data(g, "y", GE_DTYPE_INT32, R(4));
  w = node(g, "Where", "where", IN(O(cnd), O(x), O(y)), -1);
  lo = cten(g, "lo", GE_DTYPE_INT32, 0, NULL, (const int32_t[]){0});
  clip = node(g, "Clip", "clip", IN(O(x), O(lo)), -1);
  clip2 = node(g, "Clip", "clip2", IN(O(x), NOIN, O(lo)), -1);
  GE_REQUIRE(infer_ok(g));
  GE_CHECK_STR(S(g, w, 0), "[3,4]");
  GE_CHECK_EQ_INT(DT(g, w, 0), GE_DTYPE_INT32);
  GE_CHECK_STR(S(g, clip, 0), "[1,4]");
  GE_CHECK_STR(S(g, clip2, 0), "[1,4]");
  GE_CHECK(validate_ok(g));
  ge_graph_free(g);
}

GE_TEST(test_unary) {
  ge_graph *g = mk();
  ge_node_id x, relu, sig, lrelu, nan, cast, cl, drop, drop1, id, notn, bx, gelu, inf;
  GE_REQUIRE(g);
  x = data_sym(g, "x", F32, R(-1, 3, 5), "B", 0, -1);
  bx = data(g, "bx", GE_DTYPE_BOOL, R(2));
  relu = node(g, "Relu", "relu", IN(O(x)), -1);
  sig = node(g, "Sigmoid", "sig", IN(O(relu)), -1);
  lrelu = node(g, "LeakyRelu", "lrelu", IN(O(sig)), -1);
  af(g, lrelu, "alpha", 0.2);
  gelu = node(g, "Gelu", "gelu", IN(O(lrelu)), -1);
  nan = node(g, "IsNaN", "nan", IN(O(x)), -1);
  inf = node(g, "IsInf", "inf", IN(O(x)), -1);
  cast = node(g, "Cast", "cast", IN(O(x)), -1);
  ai(g, cast, "to", GE_DTYPE_INT32);
  cl = node(g, "CastLike", "castlike", IN(O(cast), O(bx)), -1);
  drop = node(g, "Dropout", "drop", IN(O(x)), 2);
  drop1 = node(g, "Dropout", "drop1", IN(O(x)), -1);
  id = node(g, "Identity", "id", IN(O(x)), -1);
  notn = node(g, "Not", "not", IN(O(bx)), -1);
  GE_REQUIRE(infer_ok(g));
  GE_CHECK_STR(S(g, relu, 0), "[-1(B),3,5]");
  GE_CHECK_STR(S(g, gelu, 0), "[-1(B),3,5]");
  GE_CHECK_EQ_INT(DT(g, gelu, 0), F32);
  GE_CHECK_STR(S(g, nan, 0), "[-1(B),3,5]");
  GE_CHECK_EQ_INT(DT(g, nan, 0), GE_DTYPE_BOOL);
  GE_CHECK_EQ_INT(DT(g, inf, 0), GE_DTYPE_BOOL);
  GE_CHECK_EQ_INT(DT(g, cast, 0), GE_DTYPE_INT32);
  GE_CHECK_EQ_INT(DT(g, cl, 0), GE_DTYPE_BOOL);
  GE_CHECK_STR(S(g, cl, 0), "[-1(B),3,5]");
  GE_CHECK_EQ_INT(ge_graph_node(g, drop)->num_outputs, 2);
  GE_CHECK_EQ_INT(ge_graph_node(g, drop1)->num_outputs, 1);
  GE_CHECK_EQ_INT(DT(g, drop, 1), GE_DTYPE_BOOL);
  GE_CHECK_STR(S(g, drop, 1), "[-1(B),3,5]");
  GE_CHECK_STR(S(g, id, 0), "[-1(B),3,5]");
  GE_CHECK_EQ_INT(DT(g, notn, 0), GE_DTYPE_BOOL);
  GE_CHECK(validate_ok(g));
  ge_graph_free(g);
}

GE_TEST(test_unknown_rank_flows) {
  ge_graph *g = mk();
  ge_node_id x, y, relu, add, mm, red, conv, w;
  GE_REQUIRE(g);
  x = data(g, "x", F32, GE_RANK_UNKNOWN, NULL);
  y = data(g, "y", F32, R(3, 4));
  w = data(g, "w", F32, R(8, 3, 3, 3));
  relu = node(g, "Relu", "relu", IN(O(x)), -1);
  add = node(g, "Add", "add", IN(O(relu), O(y)), -1);
  mm = node(g, "MatMul", "mm", IN(O(x), O(y)), -1);
  red = node(g, "ReduceSum", "red", IN(O(x)), -1);
  conv = node(g, "Conv", "conv", IN(O(x), O(w)), -1);
  GE_REQUIRE(infer_ok(g));
  GE_CHECK_STR(S(g, relu, 0), "[?]");
  GE_CHECK_STR(S(g, add, 0), "[?]");
  GE_CHECK_STR(S(g, mm, 0), "[?]");
  GE_CHECK_STR(S(g, red, 0), "[?]");
  GE_CHECK_STR(S(g, conv, 0), "[-1,8,-1,-1]");
  GE_CHECK_EQ_INT(DT(g, conv, 0), F32);
  ge_graph_free(g);
}

/* ---------------------------------------------------- matrix products */

GE_TEST(test_matmul) {
  ge_graph *g = mk();
  ge_node_id a, b, v, m, batch, big, m1, m2, m3, m4, m5, sy, m6;
  GE_REQUIRE(g);
  a = data(g, "a", F32, R(2, 3, 4));
  b = data(g, "b", F32, R(4, 5));
  v = data(g, "v", F32, R(4));
  m = data(g, "m", F32, R(3, 4));
  batch = data(g, "batch", F32, R(2, 1, 3, 4));
  big = data(g, "big", F32, R(5, 4, 6));
  sy = data_sym(g, "sy", F32, R(-1, 7, 4), "T", 0, -1);
  m1 = node(g, "MatMul", "m1", IN(O(a), O(b)), -1);
  m2 = node(g, "MatMul", "m2", IN(O(v), O(b)), -1);
  m3 = node(g, "MatMul", "m3", IN(O(m), O(v)), -1);
  m4 = node(g, "MatMul", "m4", IN(O(v), O(v)), -1);
  m5 = node(g, "MatMul", "m5", IN(O(batch), O(big)), -1);
  m6 = node(g, "MatMul", "m6", IN(O(sy), O(b)), -1);
  GE_REQUIRE(infer_ok(g));
  GE_CHECK_STR(S(g, m1, 0), "[2,3,5]");
  GE_CHECK_STR(S(g, m2, 0), "[5]");
  GE_CHECK_STR(S(g, m3, 0), "[3]");
  GE_CHECK_STR(S(g, m4, 0), "[]");
  GE_CHECK_STR(S(g, m5, 0), "[2,5,3,6]");
  GE_CHECK_STR(S(g, m6, 0), "[-1(T),7,5]");
  GE_CHECK(validate_ok(g));
  ge_graph_free(g);
}

GE_TEST(test_gemm) {
  ge_graph *g = mk();
  ge_node_id a, b, cc, g1, at, g2;
  GE_REQUIRE(g);
  a = data_sym(g, "a", F32, R(-1, 4), "N", 0, -1);
  b = data(g, "b", F32, R(5, 4));
  cc = data(g, "c", F32, R(5));
  g1 = node(g, "Gemm", "g1", IN(O(a), O(b), O(cc)), -1);
  ai(g, g1, "transB", 1);
  at = data(g, "at", F32, R(4, 6));
  g2 = node(g, "Gemm", "g2", IN(O(at), O(b)), -1);
  ai(g, g2, "transA", 1);
  ai(g, g2, "transB", 1);
  GE_REQUIRE(infer_ok(g));
  GE_CHECK_STR(S(g, g1, 0), "[-1(N),5]");
  GE_CHECK_STR(S(g, g2, 0), "[6,5]");
  GE_CHECK(validate_ok(g));
  ge_graph_free(g);
}

GE_TEST(test_einsum) {
  ge_graph *g = mk();
  ge_node_id a, b, e1, e2, e3, e4, x, y;
  GE_REQUIRE(g);
  a = data(g, "a", F32, R(2, 3, 4));
  b = data(g, "b", F32, R(2, 4, 5));
  x = data(g, "x", F32, R(3, 4));
  y = data(g, "y", F32, R(4, 7));
  e1 = node(g, "Einsum", "e1", IN(O(a), O(b)), -1);
  as(g, e1, "equation", "bij,bjk->bik");
  e2 = node(g, "Einsum", "e2", IN(O(x), O(y)), -1);
  as(g, e2, "equation", "ij,jk");
  e3 = node(g, "Einsum", "e3", IN(O(a), O(b)), -1);
  as(g, e3, "equation", "...ij,...jk->...ik");
  e4 = node(g, "Einsum", "e4", IN(O(a)), -1);
  as(g, e4, "equation", "bij->");
  GE_REQUIRE(infer_ok(g));
  GE_CHECK_STR(S(g, e1, 0), "[2,3,5]");
  GE_CHECK_STR(S(g, e2, 0), "[3,7]");
  GE_CHECK_STR(S(g, e3, 0), "[2,3,5]");
  GE_CHECK_STR(S(g, e4, 0), "[]");
  ge_graph_free(g);
}

/* --------------------------------------------------- conv and pooling */

GE_TEST(test_conv) {
  ge_graph *g = mk();
  ge_node_id x, w, bias, c1, c2, c3, c4, wg, c5, x2, w1;
  GE_REQUIRE(g);
  x = data(g, "x", F32, R(1, 3, 224, 224));
  w = data(g, "w", F32, R(64, 3, 7, 7));
  bias = data(g, "bias", F32, R(64));
  c1 = node(g, "Conv", "c1", IN(O(x), O(w), O(bias)), -1);
  ais(g, c1, "strides", R(2, 2));
  ais(g, c1, "pads", R(3, 3, 3, 3));
  ais(g, c1, "kernel_shape", R(7, 7));
  /* kernel from W, auto_pad SAME_UPPER, stride 2 on an odd size */
  x2 = data(g, "x2", F32, R(2, 64, 225, 225));
  w1 = data(g, "w1", F32, R(32, 64, 3, 3));
  c2 = node(g, "Conv", "c2", IN(O(x2), O(w1)), -1);
  as(g, c2, "auto_pad", "SAME_UPPER");
  ais(g, c2, "strides", R(2, 2));
  c3 = node(g, "Conv", "c3", IN(O(x2), O(w1)), -1);
  as(g, c3, "auto_pad", "VALID");
  c4 = node(g, "Conv", "c4", IN(O(x2), O(w1)), -1);
  ais(g, c4, "dilations", R(2, 2));
  ais(g, c4, "pads", R(1, 1, 1, 1));
  /* depthwise: group 64 */
  wg = data(g, "wg", F32, R(64, 1, 3, 3));
  c5 = node(g, "Conv", "c5", IN(O(x2), O(wg)), -1);
  ai(g, c5, "group", 64);
  ais(g, c5, "pads", R(1, 1, 1, 1));
  GE_REQUIRE(infer_ok(g));
  GE_CHECK_STR(S(g, c1, 0), "[1,64,112,112]");
  GE_CHECK_STR(S(g, c2, 0), "[2,32,113,113]");
  GE_CHECK_STR(S(g, c3, 0), "[2,32,223,223]");
  GE_CHECK_STR(S(g, c4, 0), "[2,32,223,223]");
  GE_CHECK_STR(S(g, c5, 0), "[2,64,225,225]");
  GE_CHECK(validate_ok(g));
  ge_graph_free(g);
}

GE_TEST(test_conv1d_3d) {
  ge_graph *g = mk();
  ge_node_id x1, w1, c1, x3, w3, c3;
  GE_REQUIRE(g);
  x1 = data_sym(g, "x1", F32, R(-1, 4, 100), "N", 0, -1);
  w1 = data(g, "w1", F32, R(8, 4, 5));
  c1 = node(g, "Conv", "c1", IN(O(x1), O(w1)), -1);
  ais(g, c1, "strides", R(3));
  x3 = data(g, "x3", F32, R(1, 2, 8, 16, 16));
  w3 = data(g, "w3", F32, R(4, 2, 3, 3, 3));
  c3 = node(g, "Conv", "c3", IN(O(x3), O(w3)), -1);
  ais(g, c3, "pads", R(1, 1, 1, 1, 1, 1));
  ais(g, c3, "strides", R(1, 2, 2));
  GE_REQUIRE(infer_ok(g));
  GE_CHECK_STR(S(g, c1, 0), "[-1(N),8,32]");
  GE_CHECK_STR(S(g, c3, 0), "[1,4,8,8,8]");
  ge_graph_free(g);
}

GE_TEST(test_conv_transpose) {
  ge_graph *g = mk();
  ge_node_id x, w, t1, t2, t3, wg, t4;
  GE_REQUIRE(g);
  x = data(g, "x", F32, R(1, 16, 14, 14));
  w = data(g, "w", F32, R(16, 8, 3, 3));
  t1 = node(g, "ConvTranspose", "t1", IN(O(x), O(w)), -1);
  ais(g, t1, "strides", R(2, 2));
  ais(g, t1, "pads", R(1, 1, 1, 1));
  ais(g, t1, "output_padding", R(1, 1));
  t2 = node(g, "ConvTranspose", "t2", IN(O(x), O(w)), -1);
  ais(g, t2, "strides", R(2, 2));
  ais(g, t2, "output_shape", R(30, 30));
  t3 = node(g, "ConvTranspose", "t3", IN(O(x), O(w)), -1);
  ais(g, t3, "strides", R(2, 2));
  as(g, t3, "auto_pad", "SAME_UPPER");
  wg = data(g, "wg", F32, R(16, 2, 4, 4));
  t4 = node(g, "ConvTranspose", "t4", IN(O(x), O(wg)), -1);
  ai(g, t4, "group", 4);
  GE_REQUIRE(infer_ok(g));
  GE_CHECK_STR(S(g, t1, 0), "[1,8,28,28]");
  GE_CHECK_STR(S(g, t2, 0), "[1,8,30,30]");
  GE_CHECK_STR(S(g, t3, 0), "[1,8,28,28]");
  GE_CHECK_STR(S(g, t4, 0), "[1,8,17,17]");
  GE_CHECK(validate_ok(g));
  ge_graph_free(g);
}

GE_TEST(test_pooling) {
  ge_graph *g = mk();
  ge_node_id x, mp, mpi, ap, ceil1, floor1, x5, gap, gmp, lp, same;
  GE_REQUIRE(g);
  x = data_sym(g, "x", F32, R(-1, 64, 112, 112), "N", 1, 32);
  mp = node(g, "MaxPool", "mp", IN(O(x)), -1);
  ais(g, mp, "kernel_shape", R(3, 3));
  ais(g, mp, "strides", R(2, 2));
  ais(g, mp, "pads", R(1, 1, 1, 1));
  mpi = node(g, "MaxPool", "mpi", IN(O(x)), 2);
  ais(g, mpi, "kernel_shape", R(2, 2));
  ais(g, mpi, "strides", R(2, 2));
  ap = node(g, "AveragePool", "ap", IN(O(x)), -1);
  ais(g, ap, "kernel_shape", R(3, 3));
  /* ceil_mode: in 5, kernel 2, stride 2, pads 1: the 4th window would start in the padding */
  x5 = data(g, "x5", F32, R(1, 1, 5, 6));
  ceil1 = node(g, "MaxPool", "ceil1", IN(O(x5)), -1);
  ais(g, ceil1, "kernel_shape", R(2, 3));
  ais(g, ceil1, "strides", R(2, 2));
  ais(g, ceil1, "pads", R(1, 1, 1, 1));
  ai(g, ceil1, "ceil_mode", 1);
  floor1 = node(g, "MaxPool", "floor1", IN(O(x5)), -1);
  ais(g, floor1, "kernel_shape", R(2, 3));
  ais(g, floor1, "strides", R(2, 2));
  ais(g, floor1, "pads", R(1, 1, 1, 1));
  same = node(g, "AveragePool", "same", IN(O(x5)), -1);
  ais(g, same, "kernel_shape", R(3, 3));
  ais(g, same, "strides", R(2, 2));
  as(g, same, "auto_pad", "SAME_LOWER");
  lp = node(g, "LpPool", "lp", IN(O(x5)), -1);
  ais(g, lp, "kernel_shape", R(2, 2));
  gap = node(g, "GlobalAveragePool", "gap", IN(O(x)), -1);
  gmp = node(g, "GlobalMaxPool", "gmp", IN(O(x5)), -1);
  GE_REQUIRE(infer_ok(g));
  GE_CHECK_STR(S(g, mp, 0), "[-1(N:1..32),64,56,56]");
  GE_CHECK_STR(S(g, mpi, 0), "[-1(N:1..32),64,56,56]");
  GE_CHECK_STR(S(g, mpi, 1), "[-1(N:1..32),64,56,56]");
  GE_CHECK_EQ_INT(DT(g, mpi, 1), I64);
  GE_CHECK_STR(S(g, ap, 0), "[-1(N:1..32),64,110,110]");
  GE_CHECK_STR(S(g, ceil1, 0), "[1,1,3,4]");
  GE_CHECK_STR(S(g, floor1, 0), "[1,1,3,3]");
  GE_CHECK_STR(S(g, same, 0), "[1,1,3,3]");
  GE_CHECK_STR(S(g, lp, 0), "[1,1,4,5]");
  GE_CHECK_STR(S(g, gap, 0), "[-1(N:1..32),64,1,1]");
  GE_CHECK_STR(S(g, gmp, 0), "[1,1,1,1]");
  GE_CHECK(validate_ok(g));
  ge_graph_free(g);
}

/* --------------------------------------------------------- reductions */

GE_TEST(test_reductions) {
  ge_graph *g = mk();
  ge_node_id x, ax1, r1, r2, r3, r4, r5, dyn, r6, r7, am, an, r8, e;
  GE_REQUIRE(g);
  x = data_sym(g, "x", F32, R(-1, 3, 4), "N", 0, -1);
  ax1 = c64(g, "ax1", 1, D(1));
  r1 = node(g, "ReduceSum", "r1", IN(O(x), O(ax1)), -1);
  ai(g, r1, "keepdims", 0);
  r2 = node(g, "ReduceMean", "r2", IN(O(x)), -1);
  ais(g, r2, "axes", R(-1));
  r3 = node(g, "ReduceMax", "r3", IN(O(x)), -1);
  r4 = node(g, "ReduceSum", "r4", IN(O(x)), -1);
  ai(g, r4, "noop_with_empty_axes", 1);
  r5 = node(g, "ReduceL2", "r5", IN(O(x)), -1);
  ai(g, r5, "keepdims", 0);
  dyn = data(g, "dyn", I64, R(1));
  r6 = node(g, "ReduceProd", "r6", IN(O(x), O(dyn)), -1);
  r7 = node(g, "ReduceLogSumExp", "r7", IN(O(x), O(dyn)), -1);
  ai(g, r7, "keepdims", 0);
  e = c64(g, "empty", 0, NULL);
  r8 = node(g, "ReduceSumSquare", "r8", IN(O(x), O(e)), -1);
  am = node(g, "ArgMax", "am", IN(O(x)), -1);
  ai(g, am, "axis", 1);
  ai(g, am, "keepdims", 0);
  an = node(g, "ArgMin", "an", IN(O(x)), -1);
  ai(g, an, "axis", -1);
  GE_REQUIRE(infer_ok(g));
  GE_CHECK_STR(S(g, r1, 0), "[-1(N),4]");
  GE_CHECK_STR(S(g, r2, 0), "[-1(N),3,1]");
  GE_CHECK_STR(S(g, r3, 0), "[1,1,1]");
  GE_CHECK_STR(S(g, r4, 0), "[-1(N),3,4]");
  GE_CHECK_STR(S(g, r5, 0), "[]");
  GE_CHECK_STR(S(g, r6, 0), "[-1,-1,-1]");
  GE_CHECK_STR(S(g, r7, 0), "[?]");
  GE_CHECK_STR(S(g, r8, 0), "[1,1,1]");
  GE_CHECK_STR(S(g, am, 0), "[-1(N),4]");
  GE_CHECK_EQ_INT(DT(g, am, 0), I64);
  GE_CHECK_STR(S(g, an, 0), "[-1(N),3,1]");
  GE_CHECK(validate_ok(g));
  ge_graph_free(g);
}

/* ------------------------------------------------------ shape ops */

GE_TEST(test_reshape) {
  ge_graph *g = mk();
  ge_node_id x, s, t1, t2, t3, sh, t4, dyn, t5, t6, z, t7;
  GE_REQUIRE(g);
  x = data(g, "x", F32, R(2, 3, 4));
  s = data_sym(g, "s", F32, R(-1, 3, 4), "N", 1, 64);
  t1 = node(g, "Reshape", "t1", IN(O(x), O(c64(g, "k1", 2, D(0, -1)))), -1);
  t2 = node(g, "Reshape", "t2", IN(O(s), O(c64(g, "k2", 2, D(0, -1)))), -1);
  t3 = node(g, "Reshape", "t3", IN(O(x), O(c64(g, "k3", 3, D(-1, 2, 2)))), -1);
  sh = c64(g, "k4", 4, D(0, 3, 2, 2));
  t4 = node(g, "Reshape", "t4", IN(O(s), O(sh)), -1);
  dyn = data(g, "dyn", I64, R(3));
  t5 = node(g, "Reshape", "t5", IN(O(x), O(dyn)), -1);
  t6 = node(g, "Reshape", "t6", IN(O(s), O(c64(g, "k6", 2, D(-1, 4)))), -1);
  /* allowzero: a 0 is a real zero */
  z = data(g, "z", F32, R(0, 4));
  t7 = node(g, "Reshape", "t7", IN(O(z), O(c64(g, "k7", 3, D(0, 2, 2)))), -1);
  ai(g, t7, "allowzero", 1);
  GE_REQUIRE(infer_ok(g));
  GE_CHECK_STR(S(g, t1, 0), "[2,12]");
  GE_CHECK_STR(S(g, t2, 0), "[-1(N:1..64),12]");
  GE_CHECK_STR(S(g, t3, 0), "[6,2,2]");
  GE_CHECK_STR(S(g, t4, 0), "[-1(N:1..64),3,2,2]");
  GE_CHECK_STR(S(g, t5, 0), "[-1,-1,-1]");
  GE_CHECK_STR(S(g, t6, 0), "[-1,4]");
  GE_CHECK_STR(S(g, t7, 0), "[0,2,2]");
  GE_CHECK(validate_ok(g));
  ge_graph_free(g);
}

GE_TEST(test_flatten_squeeze_transpose) {
  ge_graph *g = mk();
  ge_node_id x, f1, f0, f3, fn, sq, sq2, sq3, us, us2, tr, tr2;
  GE_REQUIRE(g);
  x = data_sym(g, "x", F32, R(-1, 1, 5, 1), "N", 0, -1);
  f1 = node(g, "Flatten", "f1", IN(O(x)), -1);
  f0 = node(g, "Flatten", "f0", IN(O(x)), -1);
  ai(g, f0, "axis", 0);
  f3 = node(g, "Flatten", "f3", IN(O(x)), -1);
  ai(g, f3, "axis", 3);
  fn = node(g, "Flatten", "fn", IN(O(x)), -1);
  ai(g, fn, "axis", -1);
  sq = node(g, "Squeeze", "sq", IN(O(x), O(c64(g, "ax", 2, D(1, -1)))), -1);
  sq2 = node(g, "Squeeze", "sq2", IN(O(x)), -1); /* attribute form */
  ais(g, sq2, "axes", R(3));
  sq3 = node(g, "Squeeze", "sq3", IN(O(f1)), -1); /* no axes, an unknown dim: rank unknown */
  us = node(g, "Unsqueeze", "us", IN(O(sq), O(c64(g, "uax", 2, D(0, -1)))), -1);
  us2 = node(g, "Unsqueeze", "us2", IN(O(sq)), -1);
  ais(g, us2, "axes", R(1));
  tr = node(g, "Transpose", "tr", IN(O(x)), -1);
  ais(g, tr, "perm", R(2, 0, 3, 1));
  tr2 = node(g, "Transpose", "tr2", IN(O(x)), -1);
  GE_REQUIRE(infer_ok(g));
  GE_CHECK_STR(S(g, f1, 0), "[-1(N),5]");
  GE_CHECK_STR(S(g, f0, 0), "[1,-1]");
  GE_CHECK_STR(S(g, f3, 0), "[-1,1]");
  GE_CHECK_STR(S(g, fn, 0), "[-1,1]");
  GE_CHECK_STR(S(g, sq, 0), "[-1(N),5]");
  GE_CHECK_STR(S(g, sq2, 0), "[-1(N),1,5]");
  GE_CHECK_STR(S(g, sq3, 0), "[?]");
  GE_CHECK_STR(S(g, us, 0), "[1,-1(N),5,1]");
  GE_CHECK_STR(S(g, us2, 0), "[-1(N),1,5]");
  GE_CHECK_STR(S(g, tr, 0), "[5,-1(N),1,1]");
  GE_CHECK_STR(S(g, tr2, 0), "[1,5,1,-1(N)]");
  GE_CHECK(validate_ok(g));
  ge_graph_free(g);
}

GE_TEST(test_concat_split) {
  ge_graph *g = mk();
  ge_node_id a, b, cc, c2, x, s1, s2, s3, s4, u;
  GE_REQUIRE(g);
  a = data_sym(g, "a", F32, R(-1, 3), "N", 0, -1);
  b = data(g, "b", F32, R(-1, 5));
  u = data(g, "u", F32, GE_RANK_UNKNOWN, NULL);
  cc = node(g, "Concat", "cc", IN(O(a), O(b)), -1);
  ai(g, cc, "axis", 1);
  c2 = node(g, "Concat", "c2", IN(O(b), O(u), O(a)), -1);
  ai(g, c2, "axis", -1);
  x = data(g, "x", F32, R(6, 4));
  s1 = node(g, "Split", "s1", IN(O(x)), 3);
  s2 = node(g, "Split", "s2", IN(O(x), O(c64(g, "sp", 2, D(1, 3)))), 2);
  ai(g, s2, "axis", 1);
  s3 = node(g, "Split", "s3", IN(O(x)), 4); /* opset 18 uneven: 2,2,2,0 */
  ai(g, s3, "num_outputs", 4);
  s4 = node(g, "Split", "s4", IN(O(x)), 2);
  ais(g, s4, "split", R(5, 1));
  node(g, "Relu", "r1", IN(O2(s2, 1)), -1);
  GE_REQUIRE(infer_ok(g));
  GE_CHECK_STR(S(g, ge_graph_find(g, "r1"), 0), "[6,3]");
  GE_CHECK_STR(S(g, cc, 0), "[-1(N),8]");
  GE_CHECK_STR(S(g, c2, 0), "[-1(N),-1]");
  GE_CHECK_STR(S(g, s1, 0), "[2,4]");
  GE_CHECK_STR(S(g, s1, 2), "[2,4]");
  GE_CHECK_STR(S(g, s2, 0), "[6,1]");
  GE_CHECK_STR(S(g, s2, 1), "[6,3]");
  GE_CHECK_STR(S(g, s3, 2), "[2,4]");
  GE_CHECK_STR(S(g, s3, 3), "[0,4]");
  GE_CHECK_STR(S(g, s4, 0), "[5,4]");
  GE_CHECK_STR(S(g, s4, 1), "[1,4]");
  GE_CHECK(validate_ok(g));
  ge_graph_free(g);
}

GE_TEST(test_slice) {
  ge_graph *g = mk();
  ge_node_id x, s1, s2, s3, s4, dyn, s5, sym, s6;
  GE_REQUIRE(g);
  x = data(g, "x", F32, R(10, 20, 30));
  s1 = node(g, "Slice", "s1",
            IN(O(x), O(c64(g, "st", 2, D(1, 0))), O(c64(g, "en", 2, D(-1, 1000))), O(c64(g, "ax", 2, D(0, 2))),
               O(c64(g, "sp", 2, D(2, 1)))),
            -1);
  s2 = node(g, "Slice", "s2",
            IN(O(x), O(c64(g, "st2", 1, D(-1))), O(c64(g, "en2", 1, D(INT64_MIN))), O(c64(g, "ax2", 1, D(1))),
               O(c64(g, "sp2", 1, D(-1)))),
            -1);
  s3 = node(g, "Slice", "s3", IN(O(x), O(c64(g, "st3", 1, D(5))), O(c64(g, "en3", 1, D(3)))), -1);
  s4 = node(g, "Slice", "s4", IN(O(x)), -1); /* opset 1 attributes */
  ais(g, s4, "starts", R(2));
  ais(g, s4, "ends", R(4));
  ais(g, s4, "axes", R(1));
  dyn = data(g, "dyn", I64, R(1));
  s5 = node(g, "Slice", "s5", IN(O(x), O(dyn), O(dyn), O(c64(g, "ax5", 1, D(1)))), -1);
  sym = data_sym(g, "sym", F32, R(-1, 8), "B", 0, -1);
  s6 = node(
      g, "Slice", "s6",
      IN(O(sym), O(c64(g, "st6", 2, D(0, 2))), O(c64(g, "en6", 2, D(INT64_MAX, 6))), O(c64(g, "ax6", 2, D(0, 1)))), -1);
  GE_REQUIRE(infer_ok(g));
  GE_CHECK_STR(S(g, s1, 0), "[4,20,30]");
  GE_CHECK_STR(S(g, s2, 0), "[10,20,30]");
  GE_CHECK_STR(S(g, s3, 0), "[0,20,30]");
  GE_CHECK_STR(S(g, s4, 0), "[10,2,30]");
  GE_CHECK_STR(S(g, s5, 0), "[10,-1,30]");
  GE_CHECK_STR(S(g, s6, 0), "[-1(B),4]");
  GE_CHECK(validate_ok(g));
  ge_graph_free(g);
}

GE_TEST(test_gather_scatter) {
  ge_graph *g = mk();
  ge_node_id d, idx, g1, g2, ge1, gnd, ind, snd, upd, se, g3;
  GE_REQUIRE(g);
  d = data_sym(g, "d", F32, R(-1, 6, 7), "N", 0, -1);
  idx = data(g, "idx", I64, R(2, 3));
  g1 = node(g, "Gather", "g1", IN(O(d), O(idx)), -1);
  ai(g, g1, "axis", 1);
  g2 = node(g, "Gather", "g2", IN(O(d), O(cs64(g, "i0", 0))), -1);
  ai(g, g2, "axis", -1);
  g3 = node(g, "Gather", "g3", IN(O(d), O(idx)), -1);
  ge1 = node(g, "GatherElements", "ge1", IN(O(d), O(data(g, "gi", I64, R(2, 6, 3)))), -1);
  ind = data(g, "ind", I64, R(4, 2));
  gnd = node(g, "GatherND", "gnd", IN(O(d), O(ind)), -1);
  upd = data(g, "upd", F32, R(4, 7));
  snd = node(g, "ScatterND", "snd", IN(O(d), O(ind), O(upd)), -1);
  se = node(g, "ScatterElements", "se", IN(O(d), O(idx), O(idx)), -1);
  GE_REQUIRE(infer_ok(g));
  GE_CHECK_STR(S(g, g1, 0), "[-1(N),2,3,7]");
  GE_CHECK_STR(S(g, g2, 0), "[-1(N),6]");
  GE_CHECK_STR(S(g, g3, 0), "[2,3,6,7]");
  GE_CHECK_STR(S(g, ge1, 0), "[2,6,3]");
  GE_CHECK_STR(S(g, gnd, 0), "[4,7]");
  GE_CHECK_STR(S(g, snd, 0), "[-1(N),6,7]");
  GE_CHECK_STR(S(g, se, 0), "[-1(N),6,7]");
  ge_graph_free(g);
}

GE_TEST(test_expand_tile_pad) {
  ge_graph *g = mk();
  ge_node_id x, e1, e2, dyn, t1, p1, p2, p3, p4;
  GE_REQUIRE(g);
  x = data(g, "x", F32, R(3, 1));
  e1 = node(g, "Expand", "e1", IN(O(x), O(c64(g, "es", 3, D(2, 1, 4)))), -1);
  dyn = data(g, "dyn", I64, R(3));
  e2 = node(g, "Expand", "e2", IN(O(x), O(dyn)), -1);
  t1 = node(g, "Tile", "t1", IN(O(x), O(c64(g, "rep", 2, D(2, 5)))), -1);
  p1 = node(g, "Pad", "p1", IN(O(x), O(c64(g, "pads", 4, D(1, 0, 2, 3)))), -1);
  p2 = node(g, "Pad", "p2", IN(O(x)), -1); /* opset 2 attribute */
  ais(g, p2, "pads", R(0, 1, 0, 1));
  p3 = node(g, "Pad", "p3", IN(O(x), O(dyn)), -1);
  p4 = node(g, "Pad", "p4", IN(O(x), O(c64(g, "pads4", 2, D(2, 2))), NOIN, O(c64(g, "pax", 1, D(-1)))), -1);
  GE_REQUIRE(infer_ok(g));
  GE_CHECK_STR(S(g, e1, 0), "[2,3,4]");
  GE_CHECK_STR(S(g, e2, 0), "[-1,3,-1]");
  GE_CHECK_STR(S(g, t1, 0), "[6,5]");
  GE_CHECK_STR(S(g, p1, 0), "[6,4]");
  GE_CHECK_STR(S(g, p2, 0), "[3,3]");
  GE_CHECK_STR(S(g, p3, 0), "[-1,-1]");
  GE_CHECK_STR(S(g, p4, 0), "[3,5]");
  GE_CHECK(validate_ok(g));
  ge_graph_free(g);
}

GE_TEST(test_shape_size_range) {
  ge_graph *g = mk();
  ge_node_id x, sh, sh2, sz, cos, r1, r2, dyn, sh3, cos2, rf;
  GE_REQUIRE(g);
  x = data(g, "x", F32, R(2, 3, 4, 5));
  sh = node(g, "Shape", "sh", IN(O(x)), -1);
  sh2 = node(g, "Shape", "sh2", IN(O(x)), -1);
  ai(g, sh2, "start", 1);
  ai(g, sh2, "end", -1);
  dyn = data_sym(g, "dyn", F32, R(-1, 7), "N", 0, -1);
  sh3 = node(g, "Shape", "sh3", IN(O(dyn)), -1);
  sz = node(g, "Size", "sz", IN(O(x)), -1);
  cos = node(g, "ConstantOfShape", "cos", IN(O(sh2)), -1);
  cos2 = node(g, "ConstantOfShape", "cos2", IN(O(sh3)), -1);
  {
    int64_t one = 1, dims1[1] = {1};
    ge_tensor t;
    memset(&t, 0, sizeof t);
    t.dtype = I64;
    t.rank = 1;
    t.dims = dims1;
    t.data = &one;
    t.nbytes = 8;
    ge_node_set_attr_tensor(g, cos, "value", &t, NULL);
  }
  r1 = node(g, "Range", "r1", IN(O(cs64(g, "a", 1)), O(cs64(g, "b", 10)), O(cs64(g, "c", 3))), -1);
  r2 = node(g, "Range", "r2", IN(O(cs64(g, "a2", 10)), O(cs64(g, "b2", 1)), O(cs64(g, "c2", 2))), -1);
  rf = node(g, "Range", "rf",
            IN(O(cten(g, "fa", F32, 0, NULL, (const float[]){0.5f})),
               O(cten(g, "fb", F32, 0, NULL, (const float[]){2.0f})),
               O(cten(g, "fc", F32, 0, NULL, (const float[]){0.5f}))),
            -1);
  GE_REQUIRE(infer_ok(g));
  GE_CHECK_STR(S(g, sh, 0), "[4]");
  GE_CHECK_EQ_INT(DT(g, sh, 0), I64);
  GE_CHECK_STR(V(g, sh), "2,3,4,5");
  GE_CHECK_STR(S(g, sh2, 0), "[2]");
  GE_CHECK_STR(V(g, sh2), "3,4");
  GE_CHECK_STR(S(g, sh3, 0), "[2]");
  GE_CHECK_STR(V(g, sh3), "(none)");
  GE_CHECK_STR(S(g, sz, 0), "[]");
  GE_CHECK_STR(V(g, sz), "120");
  GE_CHECK_STR(S(g, cos, 0), "[3,4]");
  GE_CHECK_EQ_INT(DT(g, cos, 0), I64);
  GE_CHECK_STR(V(g, cos), "1,1,1,1,1,1,1,1,1,1,1,1");
  GE_CHECK_STR(S(g, cos2, 0), "[-1,-1]");
  GE_CHECK_EQ_INT(DT(g, cos2, 0), F32);
  GE_CHECK_STR(S(g, r1, 0), "[3]");
  GE_CHECK_STR(V(g, r1), "1,4,7");
  GE_CHECK_STR(S(g, r2, 0), "[0]");
  GE_CHECK_STR(S(g, rf, 0), "[3]");
  GE_CHECK(validate_ok(g));
  ge_graph_free(g);
}

/* Shape -> Gather -> Unsqueeze -> Concat -> Reshape, as exported models
 * compute Reshape targets, on a static input. */
GE_TEST(test_shape_chain_reshape) {
  ge_graph *g = mk();
  ge_node_id x, sh, g0, g1, u0, u1, mul, cat, rs, minus1, cast, slc, rs2, sub;
  GE_REQUIRE(g);
  x = data(g, "x", F32, R(2, 3, 4, 5));
  sh = node(g, "Shape", "shape", IN(O(x)), -1);
  g0 = node(g, "Gather", "g0", IN(O(sh), O(cs64(g, "i0", 0))), -1);
  g1 = node(g, "Gather", "g1", IN(O(sh), O(cs64(g, "i1", 1))), -1);
  mul = node(g, "Mul", "mul", IN(O(g1), O(cs64(g, "four", 4))), -1);
  u0 = node(g, "Unsqueeze", "u0", IN(O(g0), O(c64(g, "ax0", 1, D(0)))), -1);
  u1 = node(g, "Unsqueeze", "u1", IN(O(mul), O(c64(g, "ax1", 1, D(0)))), -1);
  minus1 = c64(g, "m1", 1, D(-1));
  cat = node(g, "Concat", "cat", IN(O(u0), O(u1), O(minus1)), -1);
  ai(g, cat, "axis", 0);
  rs = node(g, "Reshape", "reshape", IN(O(x), O(cat)), -1);
  /* the same through Cast/Slice/Sub */
  cast = node(g, "Cast", "cast", IN(O(sh)), -1);
  ai(g, cast, "to", GE_DTYPE_INT32);
  slc = node(g, "Slice", "slc", IN(O(sh), O(c64(g, "s0", 1, D(0))), O(c64(g, "s1", 1, D(2)))), -1);
  sub = node(g, "Sub", "sub", IN(O(slc), O(c64(g, "one", 1, D(1)))), -1);
  rs2 = node(g, "Reshape", "reshape2", IN(O(x), O(node(g, "Concat", "cat2", IN(O(sub), O(minus1)), -1))), -1);
  ai(g, ge_graph_find(g, "cat2"), "axis", 0);
  GE_REQUIRE(infer_ok(g));
  GE_CHECK_STR(V(g, g0), "2");
  GE_CHECK_STR(S(g, g0, 0), "[]");
  GE_CHECK_STR(V(g, mul), "12");
  GE_CHECK_STR(V(g, u1), "12");
  GE_CHECK_STR(S(g, u1, 0), "[1]");
  GE_CHECK_STR(V(g, cat), "2,12,-1");
  GE_CHECK_STR(S(g, rs, 0), "[2,12,5]");
  GE_CHECK_EQ_INT(DT(g, cast, 0), GE_DTYPE_INT32);
  GE_CHECK_STR(V(g, cast), "2,3,4,5");
  GE_CHECK_STR(V(g, slc), "2,3");
  GE_CHECK_STR(V(g, sub), "1,2");
  GE_CHECK_STR(S(g, rs2, 0), "[1,2,60]");
  GE_CHECK(validate_ok(g));
  ge_graph_free(g);
}

/* Expand through Where(Equal(shape, -1), 1, shape), a common export pattern. */
GE_TEST(test_where_equal_fold) {
  ge_graph *g = mk();
  ge_node_id x, tgt, eq, ones, w, ex;
  GE_REQUIRE(g);
  x = data(g, "x", F32, R(3, 1));
  tgt = c64(g, "tgt", 2, D(-1, 4));
  eq = node(g, "Equal", "eq", IN(O(tgt), O(c64(g, "neg", 1, D(-1)))), -1);
  ones = c64(g, "ones", 2, D(1, 1));
  w = node(g, "Where", "w", IN(O(eq), O(ones), O(tgt)), -1);
  ex = node(g, "Expand", "ex", IN(O(x), O(w)), -1);
  GE_REQUIRE(infer_ok(g));
  GE_CHECK_STR(V(g, eq), "1,0");
  GE_CHECK_STR(V(g, w), "1,4");
  GE_CHECK_STR(S(g, ex, 0), "[3,4]");
  ge_graph_free(g);
}

GE_TEST(test_resize_space_misc) {
  ge_graph *g = mk();
  ge_node_id x, r1, r2, r3, up, up2, d2s, s2d, oh, tk, tk2, nz, cs, tri, dyn, r4, r5;
  const float sc[4] = {1, 1, 2, 2}, sc3[4] = {1, 1, 0.5f, 1.5f};
  GE_REQUIRE(g);
  x = data_sym(g, "x", F32, R(-1, 8, 10, 12), "N", 0, -1);
  r1 = node(g, "Resize", "r1", IN(O(x), NOIN, O(cten(g, "sc", F32, 1, D(4), sc))), -1);
  r2 = node(g, "Resize", "r2", IN(O(x), NOIN, NOIN, O(c64(g, "sz", 4, D(1, 8, 20, 30)))), -1);
  r3 = node(g, "Resize", "r3", IN(O(x), O(cten(g, "sc3", F32, 1, D(4), sc3))), -1); /* opset 10 */
  r4 = node(g, "Resize", "r4", IN(O(x), NOIN, NOIN, O(c64(g, "sz4", 2, D(20, 36)))), -1);
  ais(g, r4, "axes", R(2, 3));
  as(g, r4, "keep_aspect_ratio_policy", "not_larger");
  dyn = data(g, "dyn", I64, R(4));
  r5 = node(g, "Resize", "r5", IN(O(x), NOIN, NOIN, O(dyn)), -1);
  up = node(g, "Upsample", "up", IN(O(x), O(cten(g, "usc", F32, 1, D(4), sc))), -1);
  up2 = node(g, "Upsample", "up2", IN(O(x)), -1);
  {
    const double f[4] = {1, 1, 3, 3};
    ge_node_set_attr_floats(g, up2, "scales", f, 4, NULL);
  }
  d2s = node(g, "DepthToSpace", "d2s", IN(O(x)), -1);
  ai(g, d2s, "blocksize", 2);
  s2d = node(g, "SpaceToDepth", "s2d", IN(O(x)), -1);
  ai(g, s2d, "blocksize", 2);
  oh = node(g, "OneHot", "oh",
            IN(O(data(g, "ind", I64, R(2, 3))), O(cs64(g, "depth", 10)),
               O(cten(g, "vals", F32, 1, D(2), (const float[]){0, 1}))),
            -1);
  ai(g, oh, "axis", 1);
  tk = node(g, "TopK", "tk", IN(O(x), O(c64(g, "k", 1, D(5)))), -1);
  tk2 = node(g, "TopK", "tk2", IN(O(x), O(data(g, "kd", I64, R(1)))), -1);
  ai(g, tk2, "axis", 1);
  nz = node(g, "NonZero", "nz", IN(O(x)), -1);
  cs = node(g, "CumSum", "cs", IN(O(x), O(cs64(g, "csax", 1))), -1);
  tri = node(g, "Trilu", "tri", IN(O(x)), -1);
  GE_REQUIRE(infer_ok(g));
  GE_CHECK_STR(S(g, r1, 0), "[-1(N),8,20,24]");
  GE_CHECK_STR(S(g, r2, 0), "[1,8,20,30]");
  GE_CHECK_STR(S(g, r3, 0), "[-1(N),8,5,18]");
  GE_CHECK_STR(S(g, r4, 0), "[-1(N),8,20,24]");
  GE_CHECK_STR(S(g, r5, 0), "[-1,-1,-1,-1]");
  GE_CHECK_STR(S(g, up, 0), "[-1(N),8,20,24]");
  GE_CHECK_STR(S(g, up2, 0), "[-1(N),8,30,36]");
  GE_CHECK_STR(S(g, d2s, 0), "[-1(N),2,20,24]");
  GE_CHECK_STR(S(g, s2d, 0), "[-1(N),32,5,6]");
  GE_CHECK_STR(S(g, oh, 0), "[2,10,3]");
  GE_CHECK_EQ_INT(DT(g, oh, 0), F32);
  GE_CHECK_STR(S(g, tk, 0), "[-1(N),8,10,5]");
  GE_CHECK_STR(S(g, tk, 1), "[-1(N),8,10,5]");
  GE_CHECK_EQ_INT(DT(g, tk, 1), I64);
  GE_CHECK_STR(S(g, tk2, 0), "[-1(N),-1,10,12]");
  GE_CHECK_STR(S(g, nz, 0), "[4,-1]");
  GE_CHECK_EQ_INT(DT(g, nz, 0), I64);
  GE_CHECK_STR(S(g, cs, 0), "[-1(N),8,10,12]");
  GE_CHECK_STR(S(g, tri, 0), "[-1(N),8,10,12]");
  GE_CHECK(validate_ok(g));
  ge_graph_free(g);
}

GE_TEST(test_softmax_norms) {
  ge_graph *g = mk();
  ge_node_id x, sm, lsm, hm, sc, b, bn, bn3, ln, lnm, inn, lrn, gn, mvn, lpn, m, v;
  GE_REQUIRE(g);
  x = data_sym(g, "x", F32, R(-1, 4, 6, 6), "N", 0, -1);
  sm = node(g, "Softmax", "sm", IN(O(x)), -1);
  lsm = node(g, "LogSoftmax", "lsm", IN(O(x)), -1);
  ai(g, lsm, "axis", 1);
  hm = node(g, "Hardmax", "hm", IN(O(x)), -1);
  sc = data(g, "sc", F32, R(4));
  b = data(g, "b", F32, R(4));
  m = data(g, "m", F32, R(4));
  v = data(g, "v", F32, R(4));
  bn = node(g, "BatchNormalization", "bn", IN(O(x), O(sc), O(b), O(m), O(v)), -1);
  bn3 = node(g, "BatchNormalization", "bn3", IN(O(x), O(sc), O(b), O(m), O(v)), 3);
  ai(g, bn3, "training_mode", 1);
  ln = node(g, "LayerNormalization", "ln", IN(O(x), O(data(g, "lsc", F32, R(6)))), -1);
  lnm = node(g, "LayerNormalization", "lnm", IN(O(x), O(data(g, "lsc2", F32, R(6, 6)))), 3);
  ai(g, lnm, "axis", 2);
  inn = node(g, "InstanceNormalization", "inn", IN(O(x), O(sc), O(b)), -1);
  lrn = node(g, "LRN", "lrn", IN(O(x)), -1);
  ai(g, lrn, "size", 3);
  gn = node(g, "GroupNormalization", "gn", IN(O(x), O(data(g, "gs", F32, R(2))), O(data(g, "gb", F32, R(2)))), -1);
  ai(g, gn, "num_groups", 2);
  mvn = node(g, "MeanVarianceNormalization", "mvn", IN(O(x)), -1);
  lpn = node(g, "LpNormalization", "lpn", IN(O(x)), -1);
  GE_REQUIRE(infer_ok(g));
  GE_CHECK_STR(S(g, sm, 0), "[-1(N),4,6,6]");
  GE_CHECK_STR(S(g, lsm, 0), "[-1(N),4,6,6]");
  GE_CHECK_STR(S(g, hm, 0), "[-1(N),4,6,6]");
  GE_CHECK_STR(S(g, bn, 0), "[-1(N),4,6,6]");
  GE_CHECK_EQ_INT(ge_graph_node(g, bn)->num_outputs, 1);
  GE_CHECK_STR(S(g, bn3, 1), "[4]");
  GE_CHECK_STR(S(g, bn3, 2), "[4]");
  GE_CHECK_STR(S(g, ln, 0), "[-1(N),4,6,6]");
  GE_CHECK_STR(S(g, lnm, 1), "[-1(N),4,1,1]");
  GE_CHECK_EQ_INT(DT(g, lnm, 2), F32);
  GE_CHECK_STR(S(g, inn, 0), "[-1(N),4,6,6]");
  GE_CHECK_STR(S(g, lrn, 0), "[-1(N),4,6,6]");
  GE_CHECK_STR(S(g, gn, 0), "[-1(N),4,6,6]");
  GE_CHECK_STR(S(g, mvn, 0), "[-1(N),4,6,6]");
  GE_CHECK_STR(S(g, lpn, 0), "[-1(N),4,6,6]");
  GE_CHECK(validate_ok(g));
  ge_graph_free(g);
}

/* A batch symbol flows through Conv -> Relu -> MaxPool -> Flatten -> Gemm. */
GE_TEST(test_symbol_through_cnn) {
  ge_graph *g = mk();
  ge_node_id x, w, b, conv, relu, pool, flat, fw, fb, gemm, sm;
  ge_edge out;
  GE_REQUIRE(g);
  x = data_sym(g, "input", F32, R(-1, 3, 32, 32), "N", 1, 8);
  w = data(g, "w", F32, R(16, 3, 3, 3));
  b = data(g, "b", F32, R(16));
  conv = node(g, "Conv", "conv", IN(O(x), O(w), O(b)), -1);
  ais(g, conv, "pads", R(1, 1, 1, 1));
  relu = node(g, "Relu", "relu", IN(O(conv)), -1);
  pool = node(g, "MaxPool", "pool", IN(O(relu)), -1);
  ais(g, pool, "kernel_shape", R(2, 2));
  ais(g, pool, "strides", R(2, 2));
  flat = node(g, "Flatten", "flat", IN(O(pool)), -1);
  fw = data(g, "fw", F32, R(10, 4096));
  fb = data(g, "fb", F32, R(10));
  gemm = node(g, "Gemm", "gemm", IN(O(flat), O(fw), O(fb)), -1);
  ai(g, gemm, "transB", 1);
  sm = node(g, "Softmax", "sm", IN(O(gemm)), -1);
  out = O(sm);
  GE_REQUIRE(ge_graph_set_outputs(g, 1, &out, NULL, NULL) == GE_OK);
  GE_REQUIRE(infer_ok(g));
  GE_CHECK_STR(S(g, conv, 0), "[-1(N:1..8),16,32,32]");
  GE_CHECK_STR(S(g, relu, 0), "[-1(N:1..8),16,32,32]");
  GE_CHECK_STR(S(g, pool, 0), "[-1(N:1..8),16,16,16]");
  GE_CHECK_STR(S(g, flat, 0), "[-1(N:1..8),4096]");
  GE_CHECK_STR(S(g, gemm, 0), "[-1(N:1..8),10]");
  GE_CHECK_STR(S(g, ge_graph_output_node(g), 0), "[-1(N:1..8),10]");
  GE_CHECK(validate_ok(g));
  ge_graph_free(g);
}

/* ---------------------------------------------------------- conflicts */

/* Each builder makes a graph whose node `bad` has a shape conflict. */
typedef void (*bad_graph_fn)(ge_graph *g);

static void bad_matmul(ge_graph *g) {
  node(g, "MatMul", "bad", IN(O(data(g, "a", F32, R(2, 3))), O(data(g, "b", F32, R(4, 5)))), -1);
}
static void bad_matmul_batch(ge_graph *g) {
  node(g, "MatMul", "bad", IN(O(data(g, "a", F32, R(2, 2, 3))), O(data(g, "b", F32, R(3, 3, 5)))), -1);
}
static void bad_broadcast(ge_graph *g) {
  node(g, "Add", "bad", IN(O(data(g, "a", F32, R(2, 3))), O(data(g, "b", F32, R(4, 3)))), -1);
}
static void bad_where(ge_graph *g) {
  node(g, "Where", "bad",
       IN(O(data(g, "c", GE_DTYPE_BOOL, R(2))), O(data(g, "a", F32, R(3))), O(data(g, "b", F32, R(1)))), -1);
}
static void bad_gemm(ge_graph *g) {
  node(g, "Gemm", "bad", IN(O(data(g, "a", F32, R(2, 3))), O(data(g, "b", F32, R(4, 5)))), -1);
}
static void bad_gemm_c(ge_graph *g) {
  node(g, "Gemm", "bad", IN(O(data(g, "a", F32, R(2, 3))), O(data(g, "b", F32, R(3, 5))), O(data(g, "c", F32, R(3)))),
       -1);
}
static void bad_concat(ge_graph *g) {
  ge_node_id n = node(g, "Concat", "bad", IN(O(data(g, "a", F32, R(2, 3))), O(data(g, "b", F32, R(4, 5)))), -1);
  ai(g, n, "axis", 1);
}
static void bad_concat_rank(ge_graph *g) {
  ge_node_id n = node(g, "Concat", "bad", IN(O(data(g, "a", F32, R(2, 3))), O(data(g, "b", F32, R(2, 3, 1)))), -1);
  ai(g, n, "axis", 0);
}
static void bad_reshape(ge_graph *g) {
  node(g, "Reshape", "bad", IN(O(data(g, "a", F32, R(2, 3, 4))), O(c64(g, "s", 2, D(5, 5)))), -1);
}
static void bad_reshape_neg(ge_graph *g) {
  node(g, "Reshape", "bad", IN(O(data(g, "a", F32, R(2, 3, 4))), O(c64(g, "s", 2, D(5, -1)))), -1);
}
static void bad_conv_channels(ge_graph *g) {
  ge_node_id n =
      node(g, "Conv", "bad", IN(O(data(g, "x", F32, R(1, 8, 10, 10))), O(data(g, "w", F32, R(16, 3, 3, 3)))), -1);
  ai(g, n, "group", 2);
}
static void bad_conv_kernel(ge_graph *g) {
  node(g, "Conv", "bad", IN(O(data(g, "x", F32, R(1, 3, 2, 2))), O(data(g, "w", F32, R(16, 3, 3, 3)))), -1);
}
static void bad_conv_rank(ge_graph *g) {
  node(g, "Conv", "bad", IN(O(data(g, "x", F32, R(1, 3, 8, 8))), O(data(g, "w", F32, R(16, 3, 3)))), -1);
}
static void bad_axis(ge_graph *g) {
  ge_node_id n = node(g, "Softmax", "bad", IN(O(data(g, "x", F32, R(2, 3)))), -1);
  ai(g, n, "axis", 2);
}
static void bad_reduce_axis(ge_graph *g) {
  node(g, "ReduceSum", "bad", IN(O(data(g, "x", F32, R(2, 3))), O(c64(g, "ax", 1, D(-3)))), -1);
}
static void bad_gather_index(ge_graph *g) {
  node(g, "Gather", "bad", IN(O(data(g, "x", F32, R(4, 3))), O(c64(g, "i", 2, D(1, 4)))), -1);
}
static void bad_split(ge_graph *g) {
  node(g, "Split", "bad", IN(O(data(g, "x", F32, R(6, 3))), O(c64(g, "s", 2, D(2, 3)))), 2);
}
static void bad_squeeze(ge_graph *g) {
  node(g, "Squeeze", "bad", IN(O(data(g, "x", F32, R(6, 3))), O(c64(g, "a", 1, D(0)))), -1);
}
static void bad_transpose(ge_graph *g) {
  ge_node_id n = node(g, "Transpose", "bad", IN(O(data(g, "x", F32, R(6, 3)))), -1);
  ais(g, n, "perm", R(0, 0));
}
static void bad_expand(ge_graph *g) {
  node(g, "Expand", "bad", IN(O(data(g, "x", F32, R(3, 2))), O(c64(g, "s", 2, D(3, 4)))), -1);
}
static void bad_batchnorm(ge_graph *g) {
  ge_node_id s = data(g, "s", F32, R(5));
  node(g, "BatchNormalization", "bad", IN(O(data(g, "x", F32, R(1, 4, 2, 2))), O(s), O(s), O(s), O(s)), -1);
}
static void bad_einsum(ge_graph *g) {
  ge_node_id n = node(g, "Einsum", "bad", IN(O(data(g, "a", F32, R(2, 3))), O(data(g, "b", F32, R(4, 5)))), -1);
  as(g, n, "equation", "ij,jk->ik");
}
static void bad_topk(ge_graph *g) {
  node(g, "TopK", "bad", IN(O(data(g, "x", F32, R(2, 3))), O(c64(g, "k", 1, D(4)))), -1);
}
static void bad_tile(ge_graph *g) {
  node(g, "Tile", "bad", IN(O(data(g, "x", F32, R(2, 3))), O(c64(g, "r", 3, D(1, 1, 1)))), -1);
}
static void bad_d2s(ge_graph *g) {
  ge_node_id n = node(g, "DepthToSpace", "bad", IN(O(data(g, "x", F32, R(1, 6, 2, 2)))), -1);
  ai(g, n, "blocksize", 2);
}
static void bad_pool_kernel_rank(ge_graph *g) {
  ge_node_id n = node(g, "MaxPool", "bad", IN(O(data(g, "x", F32, R(1, 6, 2, 2)))), -1);
  ais(g, n, "kernel_shape", R(2, 2, 2));
}
static void bad_slice_step(ge_graph *g) {
  node(g, "Slice", "bad",
       IN(O(data(g, "x", F32, R(4))), O(c64(g, "s", 1, D(0))), O(c64(g, "e", 1, D(2))), O(c64(g, "a", 1, D(0))),
          O(c64(g, "st", 1, D(0)))),
       -1);
}
/* the conflict is found downstream of a Shape -> Concat -> Reshape chain */
static void bad_chain(ge_graph *g) {
  ge_node_id x = data(g, "x", F32, R(2, 3));
  ge_node_id sh = node(g, "Shape", "sh", IN(O(x)), -1);
  ge_node_id cat = node(g, "Concat", "cat", IN(O(sh), O(c64(g, "two", 1, D(2)))), -1);
  ai(g, cat, "axis", 0);
  node(g, "Reshape", "bad", IN(O(x), O(cat)), -1);
}

GE_TEST(test_conflicts) {
  static const struct {
    const char *what;
    bad_graph_fn fn;
  } cases[] = {
      {"matmul", bad_matmul},
      {"matmul batch", bad_matmul_batch},
      {"broadcast", bad_broadcast},
      {"where", bad_where},
      {"gemm", bad_gemm},
      {"gemm C", bad_gemm_c},
      {"concat", bad_concat},
      {"concat rank", bad_concat_rank},
      {"reshape", bad_reshape},
      {"reshape -1", bad_reshape_neg},
      {"conv channels", bad_conv_channels},
      {"conv kernel", bad_conv_kernel},
      {"conv rank", bad_conv_rank},
      {"softmax axis", bad_axis},
      {"reduce axis", bad_reduce_axis},
      {"gather index", bad_gather_index},
      {"split", bad_split},
      {"squeeze", bad_squeeze},
      {"transpose", bad_transpose},
      {"expand", bad_expand},
      {"batchnorm", bad_batchnorm},
      {"einsum", bad_einsum},
      {"topk", bad_topk},
      {"tile", bad_tile},
      {"depth to space", bad_d2s},
      {"pool kernel rank", bad_pool_kernel_rank},
      {"slice step", bad_slice_step},
      {"shape chain", bad_chain},
  };
  size_t i;
  for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    ge_graph *g = mk();
    GE_REQUIRE(g);
    cases[i].fn(g);
    if (!GE_CHECK(infer_fails(g, "'bad'"))) printf("    (case %s)\n", cases[i].what);
    ge_graph_free(g);
  }
}

/* A Conv with a fourth input is refused unless an engine's fusion says it
 * appended that many (GE_ATTR_FUSED_INPUTS); the allowance is exact. */
GE_TEST(test_fused_inputs) {
  int64_t dx[4] = {1, 2, 5, 5}, dw[4] = {3, 2, 3, 3}, db[1] = {3}, dr[4] = {1, 3, 3, 3};
  int extra;
  for (extra = -1; extra <= 2; extra++) {
    ge_graph *g = mk();
    ge_edge in[5];
    ge_node_id c;
    GE_REQUIRE(g);
    in[0] = O(data(g, "x", GE_DTYPE_FLOAT32, 4, dx));
    in[1] = O(data(g, "w", GE_DTYPE_FLOAT32, 4, dw));
    in[2] = O(data(g, "b", GE_DTYPE_FLOAT32, 1, db));
    in[3] = O(data(g, "r", GE_DTYPE_FLOAT32, 4, dr));
    c = node(g, "Conv", "bad", 4, in, 1);
    if (extra >= 0) ai(g, c, GE_ATTR_FUSED_INPUTS, extra);
    if (extra >= 1) {
      GE_CHECK(infer_ok(g) && !strcmp(S(g, c, 0), "[1,3,3,3]"));
    } else {
      ge_error e;
      GE_CHECK_EQ_INT(ge_graph_infer_shapes(g, &e), GE_ERR_INVALID);
      GE_CHECK(strstr(e.message, "'bad' (Conv) has 4 inputs, expected 2..3") != NULL);
    }
    ge_graph_free(g);
  }
}

/* A dtype that the schema does not accept is reported by validation. */
GE_TEST(test_validate_dtypes) {
  ge_graph *g = mk();
  ge_error e;
  GE_REQUIRE(g);
  node(g, "Add", "bad", IN(O(data(g, "a", F32, R(2))), O(data(g, "b", GE_DTYPE_INT32, R(2)))), -1);
  memset(&e, 0, sizeof e);
  GE_CHECK_EQ_INT(ge_graph_validate(g, NULL, &e), GE_ERR_SHAPE);
  GE_CHECK(strstr(e.message, "'bad'") != NULL);
  ge_graph_free(g);
  g = mk();
  GE_REQUIRE(g);
  node(g, "Relu", "bad", IN(O(data(g, "a", GE_DTYPE_BOOL, R(2)))), -1);
  memset(&e, 0, sizeof e);
  GE_CHECK_EQ_INT(ge_graph_validate(g, NULL, &e), GE_ERR_SHAPE);
  ge_graph_free(g);
  g = mk();
  GE_REQUIRE(g);
  node(g, "Concat", "noaxis", IN(O(data(g, "a", F32, R(2)))), -1);
  memset(&e, 0, sizeof e);
  GE_CHECK_EQ_INT(ge_graph_validate(g, NULL, &e), GE_ERR_INVALID); /* required attribute */
  ge_graph_free(g);
}

/* Every builtin schema is well formed, and the ONNX ops asked for exist. */
GE_TEST(test_schema_table) {
  static const char *const ops[] = {"Add",
                                    "Sub",
                                    "Mul",
                                    "Div",
                                    "Pow",
                                    "Mod",
                                    "Max",
                                    "Min",
                                    "Sum",
                                    "Mean",
                                    "Equal",
                                    "Less",
                                    "Greater",
                                    "LessOrEqual",
                                    "GreaterOrEqual",
                                    "And",
                                    "Or",
                                    "Xor",
                                    "BitShift",
                                    "PRelu",
                                    "Where",
                                    "Clip",
                                    "Relu",
                                    "LeakyRelu",
                                    "Elu",
                                    "Selu",
                                    "Sigmoid",
                                    "HardSigmoid",
                                    "HardSwish",
                                    "Tanh",
                                    "Exp",
                                    "Log",
                                    "Sqrt",
                                    "Reciprocal",
                                    "Neg",
                                    "Abs",
                                    "Erf",
                                    "Floor",
                                    "Ceil",
                                    "Round",
                                    "Sign",
                                    "Sin",
                                    "Cos",
                                    "Tan",
                                    "Asin",
                                    "Acos",
                                    "Atan",
                                    "Sinh",
                                    "Cosh",
                                    "Softplus",
                                    "Softsign",
                                    "Not",
                                    "Identity",
                                    "Gelu",
                                    "Mish",
                                    "IsNaN",
                                    "IsInf",
                                    "Cast",
                                    "CastLike",
                                    "Dropout",
                                    "Celu",
                                    "ThresholdedRelu",
                                    "MatMul",
                                    "Gemm",
                                    "Conv",
                                    "ConvTranspose",
                                    "MaxPool",
                                    "AveragePool",
                                    "LpPool",
                                    "GlobalAveragePool",
                                    "GlobalMaxPool",
                                    "ReduceSum",
                                    "ReduceMean",
                                    "ReduceMax",
                                    "ReduceMin",
                                    "ReduceProd",
                                    "ReduceL1",
                                    "ReduceL2",
                                    "ReduceLogSum",
                                    "ReduceLogSumExp",
                                    "ReduceSumSquare",
                                    "ArgMax",
                                    "ArgMin",
                                    "Reshape",
                                    "Flatten",
                                    "Squeeze",
                                    "Unsqueeze",
                                    "Transpose",
                                    "Concat",
                                    "Split",
                                    "Slice",
                                    "Gather",
                                    "GatherElements",
                                    "GatherND",
                                    "ScatterND",
                                    "ScatterElements",
                                    "Expand",
                                    "Tile",
                                    "Pad",
                                    "Shape",
                                    "Size",
                                    "ConstantOfShape",
                                    "Range",
                                    "Resize",
                                    "Upsample",
                                    "DepthToSpace",
                                    "SpaceToDepth",
                                    "OneHot",
                                    "TopK",
                                    "NonZero",
                                    "Einsum",
                                    "CumSum",
                                    "Trilu",
                                    "Softmax",
                                    "LogSoftmax",
                                    "Hardmax",
                                    "BatchNormalization",
                                    "LayerNormalization",
                                    "InstanceNormalization",
                                    "LRN",
                                    "GroupNormalization",
                                    "MeanVarianceNormalization",
                                    "LpNormalization"};
  uint32_t i, j;
  const ge_op_schema *s;
  for (i = 0; (s = ge_op_schema_builtin(i)) != NULL; i++) {
    GE_CHECK(s->name && *s->name);
    GE_CHECK(s->min_inputs >= 0 && (s->max_inputs < 0 || s->max_inputs >= s->min_inputs));
    GE_CHECK(s->min_outputs >= 0 && (s->max_outputs < 0 || s->max_outputs >= s->min_outputs));
    GE_CHECK(s->default_outputs >= s->min_outputs && (s->max_outputs < 0 || s->default_outputs <= s->max_outputs));
    for (j = 0; j < i; j++)
      if (!GE_CHECK(strcmp(ge_op_schema_builtin(j)->name, s->name) != 0)) printf("    duplicate %s\n", s->name);
  }
  GE_CHECK(i > 120);
  for (i = 0; i < sizeof ops / sizeof ops[0]; i++) {
    s = ge_op_registry_find(NULL, ops[i], NULL);
    if (!GE_CHECK(s && s->infer)) printf("    missing %s\n", ops[i]);
  }
  GE_CHECK(ge_op_registry_find(NULL, "Relu", "ai.onnx") != NULL);
}

/* Attribute defaults come from the schema (ONNX defaults). */
GE_TEST(test_defaults) {
  ge_graph *g = mk();
  ge_node_id x, tk, flat, gat, am;
  GE_REQUIRE(g);
  x = data(g, "x", F32, R(2, 3, 4));
  tk = node(g, "TopK", "tk", IN(O(x), O(c64(g, "k", 1, D(2)))), -1);     /* axis -1 */
  flat = node(g, "Flatten", "flat", IN(O(x)), -1);                       /* axis 1 */
  gat = node(g, "Gather", "gat", IN(O(x), O(c64(g, "i", 1, D(1)))), -1); /* axis 0 */
  am = node(g, "ArgMax", "am", IN(O(x)), -1);                            /* axis 0, keepdims 1 */
  GE_REQUIRE(infer_ok(g));
  GE_CHECK_STR(S(g, tk, 0), "[2,3,2]");
  GE_CHECK_STR(S(g, flat, 0), "[2,12]");
  GE_CHECK_STR(S(g, gat, 0), "[1,3,4]");
  GE_CHECK_STR(S(g, am, 0), "[1,3,4]");
  ge_graph_free(g);
}

/* ------------------------------------------------------ robustness */

static uint64_t rng_state;
static uint32_t rnd(uint32_t n) {
  rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
  return n ? (uint32_t)((rng_state >> 33) % n) : 0;
}

static int64_t rnd_dim(void) {
  static const int64_t pick[] = {-1, 0, 1, 1, 2, 3, 4, 5, 7, 8, 16, 1000000007, INT64_MAX / 2};
  return pick[rnd(sizeof pick / sizeof pick[0])];
}

static int64_t rnd_val(void) {
  static const int64_t pick[] = {-3, -2, -1, 0, 0, 1, 1, 2, 3, 4, 6, 100, INT64_MAX, INT64_MIN};
  return pick[rnd(sizeof pick / sizeof pick[0])];
}

/* A random input for a node: Data of random rank/dims/dtype, or a small
 * int64 Const with random values. */
static ge_edge rnd_input(ge_graph *g, int k) {
  char name[32];
  int64_t dims[6], vals[8];
  int32_t r = (int32_t)rnd(7) - 1, i;
  static const ge_dtype dts[] = {GE_DTYPE_FLOAT32, GE_DTYPE_INT64, GE_DTYPE_INT32, GE_DTYPE_BOOL, GE_DTYPE_FLOAT16};
  snprintf(name, sizeof name, "in%d", k);
  if (rnd(3) == 0) {
    int64_t n = rnd(9);
    for (i = 0; i < n; i++)
      vals[i] = rnd_val();
    return O(rnd(4) ? c64(g, name, n, vals) : cs64(g, name, vals[0]));
  }
  for (i = 0; i < r && i < 6; i++)
    dims[i] = rnd(3) ? (int64_t)rnd(6) : rnd_dim();
  return O(data(g, name, dts[rnd(5)], r < 0 ? GE_RANK_UNKNOWN : r, dims));
}

static void rnd_attrs(ge_graph *g, ge_node_id id, const ge_op_schema *s) {
  static const char *const strs[] = {"NOTSET",     "SAME_UPPER", "SAME_LOWER",  "VALID",       "bogus",
                                     "",           "ij,jk->ik",  "...ij,...jk", "i,i",         "ab->ba",
                                     "a...->...a", "stretch",    "not_larger",  "not_smaller", "->",
                                     "a,b,c,d",    "...",        ". .",         "ii"};
  int k;
  for (k = 0; k < GE_SCHEMA_MAX_ATTRS && s->attrs[k].name; k++) {
    const char *nm = s->attrs[k].name;
    int64_t v[8];
    int32_t n = (int32_t)rnd(7), i;
    if (rnd(3) == 0) continue;
    for (i = 0; i < n; i++)
      v[i] = rnd_val();
    switch (s->attrs[k].type) {
    case GE_ATTR_INT:
    case GE_ATTR_BOOL: ai(g, id, nm, rnd_val()); break;
    case GE_ATTR_DTYPE: ai(g, id, nm, (int64_t)rnd(20)); break;
    case GE_ATTR_FLOAT: af(g, id, nm, (double)rnd_val() / 3.0); break;
    case GE_ATTR_STRING: as(g, id, nm, strs[rnd(sizeof strs / sizeof strs[0])]); break;
    case GE_ATTR_INTS: ais(g, id, nm, n, v); break;
    case GE_ATTR_FLOATS: {
      double f[8];
      for (i = 0; i < n; i++)
        f[i] = (double)rnd_val() / 2.0;
      ge_node_set_attr_floats(g, id, nm, f, n, NULL);
      break;
    }
    default: break;
    }
  }
}

/* Random inputs and attributes for every ONNX schema: inference returns a
 * status (never crashes) and every output shape it writes is well formed. */
GE_TEST(test_random_robustness) {
  uint32_t i, seed, k, bad = 0;
  const ge_op_schema *s;
  for (i = 0; (s = ge_op_schema_builtin(i)) != NULL; i++) {
    if (s->infer == NULL || !strcmp(s->name, "NetOutput") || !strcmp(s->name, "While")) continue;
    for (seed = 0; seed < 300; seed++) {
      ge_graph *g = mk();
      ge_edge in[6];
      uint32_t nin = (uint32_t)s->min_inputs + rnd(3), nout;
      ge_node_id id;
      ge_node *n;
      ge_error e;
      ge_status st;
      rng_state = (uint64_t)i * 1000003u + seed;
      if (!g) return;
      if (s->max_inputs >= 0 && nin > (uint32_t)s->max_inputs) nin = (uint32_t)s->max_inputs;
      if (nin > 6) nin = 6;
      for (k = 0; k < nin; k++)
        in[k] = (k >= (uint32_t)s->min_inputs && rnd(4) == 0) ? NOIN : rnd_input(g, (int)k);
      nout = (uint32_t)s->default_outputs + (s->max_outputs != s->default_outputs ? rnd(3) : 0);
      if (s->max_outputs >= 0 && nout > (uint32_t)s->max_outputs) nout = (uint32_t)s->max_outputs;
      id = node(g, s->name, "n", nin, in, (int32_t)nout);
      rnd_attrs(g, id, s);
      memset(&e, 0, sizeof e);
      st = ge_graph_infer_shapes(g, &e);
      n = ge_graph_node(g, id);
      if (st != GE_OK && st != GE_ERR_SHAPE && st != GE_ERR_INVALID && st != GE_ERR_UNSUPPORTED) {
        if (bad++ < 5) printf("    %s seed %u: status %d: %s\n", s->name, seed, (int)st, e.message);
      }
      if (st != GE_OK && !strstr(e.message, "'n'")) {
        if (bad++ < 5) printf("    %s seed %u: message does not name the node: %s\n", s->name, seed, e.message);
      }
      for (k = 0; st == GE_OK && n && k < n->num_outputs; k++) {
        const ge_shape *sh = &n->outputs[k].shape;
        int32_t d;
        int ok = sh->rank == GE_RANK_UNKNOWN || (sh->rank >= 0 && sh->rank <= GE_MAX_RANK);
        for (d = 0; ok && d < sh->rank; d++)
          ok = sh->dims[d] >= -1;
        if (!ok && bad++ < 5) printf("    %s seed %u: malformed output %u %s\n", s->name, seed, k, S(g, id, k));
      }
      ge_graph_free(g);
    }
  }
  GE_CHECK_EQ_INT(bad, 0);
}

/* A parent_index Data node (an outer value read by a body). */
static ge_node_id parent(ge_graph *g, const char *name, int64_t k) {
  ge_node_id id = node(g, "Data", name, 0, NULL, 1);
  ai(g, id, "parent_index", k);
  return id;
}

/* If: each branch is inferred on the outer values; equal dims are kept,
 * differing ones unknown, differing ranks an unknown rank; a known
 * condition takes its branch only. Loop: a carried value keeps the dims
 * the body preserves (a growing one gets an unknown dim), a scan output
 * gets an unknown leading dim, body nodes get shapes. Scan: slices drop the
 * scan axis; scan outputs insert the sequence length. LSTM and GRU. */
GE_TEST(test_control_flow_shapes) {
  int64_t d23[2] = {2, 3}, d1[1] = {1}, axes0[1] = {0};
  int k;
  for (k = 0; k < 2; k++) { /* k = 1: the condition is a Const true */
    ge_graph *g = mk(), *th = mk(), *el = mk();
    uint8_t t = 1;
    ge_node_id x = data(g, "x", F32, 2, d23), c = k ? cten(g, "c", GE_DTYPE_BOOL, 0, NULL, &t) : data(g, "c", GE_DTYPE_BOOL, 0, NULL);
    ge_node_id tx = parent(th, "tx", 1), ex = parent(el, "ex", 1), neg, un, iff;
    ge_edge in[3];
    neg = node(th, "Neg", "neg", 1, (in[0] = O(tx), in), 1);
    in[0] = O(neg), in[1] = O(neg);
    ge_graph_set_outputs(th, 2, in, NULL, NULL);
    in[0] = O(ex), in[1] = O(c64(el, "ax", 1, axes0));
    un = node(el, "Unsqueeze", "un", 2, in, 1);
    in[0] = O(ex), in[1] = O(un);
    ge_graph_set_outputs(el, 2, in, NULL, NULL);
    in[0] = O(c), in[1] = O(x);
    iff = node(g, "If", "if", 2, in, 2);
    ge_node_set_attr_graph(g, iff, "then_branch", th, NULL);
    ge_node_set_attr_graph(g, iff, "else_branch", el, NULL);
    in[0] = O2(iff, 0), in[1] = O2(iff, 1);
    ge_graph_set_outputs(g, 2, in, NULL, NULL);
    GE_CHECK(infer_ok(g));
    GE_CHECK_STR(S(th, neg, 0), "[2,3]"); /* the branch's nodes got shapes */
    GE_CHECK_STR(S(el, un, 0), "[1,2,3]");
    GE_CHECK_STR(S(g, iff, 0), "[2,3]");
    GE_CHECK_STR(S(g, iff, 1), k ? "[2,3]" : "[?]");
    GE_CHECK_EQ_INT(DT(g, iff, 1), F32);
    ge_graph_free(g);
  }
  { /* Loop(M, -, v = [2,3], w = [1]) { v' = v + s; w' = Concat(w, w); scan v' } */
    ge_graph *g = mk(), *body = mk();
    ge_node_id m = cs64(g, "M", 4), x = data(g, "x", F32, 2, d23), w = data(g, "w", F32, 1, d1), s = data(g, "s", F32, 0, NULL);
    ge_node_id bi = data(body, "iter", GE_DTYPE_INT64, 1, d1), bc = data(body, "cond", GE_DTYPE_BOOL, 0, NULL);
    ge_node_id bv = data(body, "v", F32, GE_RANK_UNKNOWN, NULL), bw = data(body, "w", F32, GE_RANK_UNKNOWN, NULL);
    ge_node_id bs = parent(body, "s", 4), add, cat, loop;
    ge_edge in[5];
    (void)bi;
    in[0] = O(bv), in[1] = O(bs);
    add = node(body, "Add", "add", 2, in, 1);
    in[0] = O(bw), in[1] = O(bw);
    cat = node(body, "Concat", "cat", 2, in, 1);
    ai(body, cat, "axis", 0);
    in[0] = O(bc), in[1] = O(add), in[2] = O(cat), in[3] = O(add);
    ge_graph_set_outputs(body, 4, in, NULL, NULL);
    in[0] = O(m), in[1] = NOIN, in[2] = O(x), in[3] = O(w), in[4] = O(s);
    loop = node(g, "Loop", "loop", 5, in, 3);
    ge_node_set_attr_graph(g, loop, "body", body, NULL);
    in[0] = O2(loop, 0), in[1] = O2(loop, 1), in[2] = O2(loop, 2);
    ge_graph_set_outputs(g, 3, in, NULL, NULL);
    GE_CHECK(infer_ok(g));
    GE_CHECK_STR(S(body, add, 0), "[2,3]");
    GE_CHECK_STR(S(body, bi, 0), "[]"); /* iter is bound as the executor passes it */
    GE_CHECK_STR(S(g, loop, 0), "[2,3]");
    GE_CHECK_STR(S(g, loop, 1), "[-1]"); /* w doubles every iteration */
    GE_CHECK_STR(S(body, cat, 0), "[-1]");
    GE_CHECK_STR(S(g, loop, 2), "[-1,2,3]");
    ge_graph_free(g);
  }
  { /* Scan(state [2,3], x [2,5,3] on axis 1) { state' = state + slice; out = slice } on output axis 1 */
    ge_graph *g = mk(), *body = mk();
    int64_t d253[3] = {2, 5, 3}, one[1] = {1};
    ge_node_id st = data(g, "st", F32, 2, d23), x = data(g, "x", F32, 3, d253);
    ge_node_id bst = data(body, "bst", F32, GE_RANK_UNKNOWN, NULL), bx = data(body, "bx", F32, GE_RANK_UNKNOWN, NULL);
    ge_node_id add, scan;
    ge_edge in[2];
    in[0] = O(bst), in[1] = O(bx);
    add = node(body, "Add", "add", 2, in, 1);
    in[0] = O(add), in[1] = O(bx);
    ge_graph_set_outputs(body, 2, in, NULL, NULL);
    in[0] = O(st), in[1] = O(x);
    scan = node(g, "Scan", "scan", 2, in, 2);
    ge_node_set_attr_graph(g, scan, "body", body, NULL);
    ai(g, scan, "num_scan_inputs", 1);
    ais(g, scan, "scan_input_axes", 1, one);
    ais(g, scan, "scan_output_axes", 1, one);
    in[0] = O2(scan, 0), in[1] = O2(scan, 1);
    ge_graph_set_outputs(g, 2, in, NULL, NULL);
    GE_CHECK(infer_ok(g));
    GE_CHECK_STR(S(body, add, 0), "[2,3]");
    GE_CHECK_STR(S(body, bx, 0), "[2,3]"); /* the slice drops axis 1 */
    GE_CHECK_STR(S(g, scan, 0), "[2,3]");
    GE_CHECK_STR(S(g, scan, 1), "[2,5,3]");
    ge_graph_free(g);
  }
  { /* LSTM (layout 0, bidirectional) and GRU (layout 1) */
    ge_graph *g = mk();
    int64_t dx[3] = {7, 2, 5}, dw[3] = {2, 16, 5}, dr[3] = {2, 16, 4}, dgw[3] = {1, 12, 5}, dgr[3] = {1, 12, 4}, dgx[3] = {2, 7, 5};
    ge_node_id x = data(g, "x", F32, 3, dx), w = data(g, "w", F32, 3, dw), r = data(g, "r", F32, 3, dr), lstm, gru;
    ge_node_id gx = data(g, "gx", F32, 3, dgx), gw = data(g, "gw", F32, 3, dgw), gr = data(g, "gr", F32, 3, dgr);
    ge_edge in[3];
    in[0] = O(x), in[1] = O(w), in[2] = O(r);
    lstm = node(g, "LSTM", "lstm", 3, in, 3);
    as(g, lstm, "direction", "bidirectional");
    in[0] = O(gx), in[1] = O(gw), in[2] = O(gr);
    gru = node(g, "GRU", "gru", 3, in, 2);
    ai(g, gru, "layout", 1);
    GE_CHECK(infer_ok(g));
    GE_CHECK_STR(S(g, lstm, 0), "[7,2,2,4]");
    GE_CHECK_STR(S(g, lstm, 2), "[2,2,4]");
    GE_CHECK_STR(S(g, gru, 0), "[2,7,1,4]");
    GE_CHECK_STR(S(g, gru, 1), "[2,1,4]");
    ge_graph_free(g);
  }
}

int main(int argc, char **argv) {
  ge_test_init(argc, argv);
  GE_RUN(test_binary_broadcast);
  GE_RUN(test_where_clip);
  GE_RUN(test_unary);
  GE_RUN(test_unknown_rank_flows);
  GE_RUN(test_matmul);
  GE_RUN(test_gemm);
  GE_RUN(test_einsum);
  GE_RUN(test_conv);
  GE_RUN(test_conv1d_3d);
  GE_RUN(test_conv_transpose);
  GE_RUN(test_pooling);
  GE_RUN(test_reductions);
  GE_RUN(test_reshape);
  GE_RUN(test_flatten_squeeze_transpose);
  GE_RUN(test_concat_split);
  GE_RUN(test_slice);
  GE_RUN(test_gather_scatter);
  GE_RUN(test_expand_tile_pad);
  GE_RUN(test_shape_size_range);
  GE_RUN(test_shape_chain_reshape);
  GE_RUN(test_where_equal_fold);
  GE_RUN(test_resize_space_misc);
  GE_RUN(test_softmax_norms);
  GE_RUN(test_symbol_through_cnn);
  GE_RUN(test_conflicts);
  GE_RUN(test_fused_inputs);
  GE_RUN(test_validate_dtypes);
  GE_RUN(test_schema_table);
  GE_RUN(test_defaults);
  GE_RUN(test_random_robustness);
  GE_RUN(test_control_flow_shapes);
  return ge_test_main_end();
}

/* Tests of ge_exec.h: lowering, the sequential executor, input checks,
 * dynamic shapes, and the control-flow kernels (If, Loop, Scan,
 * PartitionedCall) with outer-scope captures. Kernels here are the test's
 * own tiny float32 ones, so the executor is tested on its own. */
#define GE_EXEC_IMPLEMENTATION /* its ge_program internals; the rest from libge.a */
#include "ge_exec.h"

#include "tests/test.h"
#include "tests/graph_util.h"

#define OK(expr) GE_CHECK_EQ_INT((expr), GE_OK)
#define E tu_e

/* y = -x */
static ge_status k_neg(ge_kernel_ctx *c) {
  const ge_value *x = c->inputs[0];
  ge_value *y = ge_kernel_output(c, 0, x->dtype, x->rank, x->dims);
  int64_t i;
  if (!y) return GE_ERR_NOMEM;
  for (i = 0; i < x->numel; i++) ((float *)y->data)[i] = -((const float *)x->data)[i];
  return GE_OK;
}

/* y = a + b (same shapes, or b a scalar) */
static ge_status k_add(ge_kernel_ctx *c) {
  const ge_value *a = c->inputs[0], *b = c->inputs[1];
  ge_value *y;
  int64_t i;
  if (b->numel != a->numel && b->numel != 1) return ge_kernel_error(c, GE_ERR_SHAPE, "shapes differ");
  if (!(y = ge_kernel_output(c, 0, a->dtype, a->rank, a->dims))) return GE_ERR_NOMEM;
  for (i = 0; i < a->numel; i++)
    ((float *)y->data)[i] = ((const float *)a->data)[i] + ((const float *)b->data)[b->numel == 1 ? 0 : i];
  return GE_OK;
}

/* y = bool(x[0] > 0) */
static ge_status k_greater0(ge_kernel_ctx *c) {
  ge_value *y = ge_kernel_output(c, 0, GE_DTYPE_BOOL, 0, NULL);
  if (!y) return GE_ERR_NOMEM;
  *(uint8_t *)y->data = ((const float *)c->inputs[0]->data)[0] > 0;
  return GE_OK;
}

/* y = -x through the executor's parallel loop (ranges of 5 elements). */
typedef struct neg_job {
  const float *x;
  float *y;
} neg_job;

static void neg_range(void *arg, int64_t b, int64_t e) {
  neg_job *j = (neg_job *)arg;
  for (; b < e; b++) j->y[b] = -j->x[b];
}

static ge_status k_neg_parallel(ge_kernel_ctx *c) {
  const ge_value *x = c->inputs[0];
  ge_value *y = ge_kernel_output(c, 0, x->dtype, x->rank, x->dims);
  neg_job j;
  if (!y) return GE_ERR_NOMEM;
  j.x = (const float *)x->data, j.y = (float *)y->data;
  ge_kernel_parallel_for(c, x->numel, 5, neg_range, &j);
  return GE_OK;
}

static ge_kernel_fn lookup(const ge_node *n, void *user) {
  (void)user;
  if (!strcmp(n->op, "Neg")) return k_neg;
  if (!strcmp(n->op, "NegP")) return k_neg_parallel;
  if (!strcmp(n->op, "Add")) return k_add;
  if (!strcmp(n->op, "Greater")) return k_greater0;
  return NULL;
}

static ge_exec_desc desc(void) {
  ge_exec_desc d;
  memset(&d, 0, sizeof d);
  d.lookup = lookup;
  return d;
}

static ge_value fvalue(int32_t rank, const int64_t *dims, float *data) {
  ge_value v;
  memset(&v, 0, sizeof v);
  ge_value_set_shape(&v, GE_DTYPE_FLOAT32, rank, dims);
  v.data = data;
  return v;
}

/* x -> Neg^n -> out, x of shape [batch, 4] (-1: dynamic) */
static ge_graph *neg_chain_of(uint32_t n, int64_t batch) {
  ge_graph *g = tu_new_graph("chain");
  ge_node_id prev;
  int64_t dims[2] = {batch, 4};
  uint32_t i;
  ge_edge e;
  ge_graph_add_data(g, "x", GE_DTYPE_FLOAT32, 2, dims, &prev, NULL);
  for (i = 0; i < n; i++) {
    e = E(prev, 0);
    ge_graph_add_node(g, "Neg", NULL, 1, &e, 1, &prev, NULL);
  }
  e = E(prev, 0);
  ge_graph_set_outputs(g, 1, &e, NULL, NULL);
  return g;
}

static ge_graph *neg_chain(uint32_t n) { return neg_chain_of(n, -1); }

GE_TEST(test_chain_and_dynamic_batch) {
  ge_graph *g = neg_chain(7);
  ge_exec_desc d = desc();
  ge_program *p = NULL;
  ge_error err;
  float in[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  int64_t d1[2] = {1, 4}, d3[2] = {3, 4};
  ge_value x1 = fvalue(2, d1, in), x3 = fvalue(2, d3, in);
  const ge_value *ins[1];
  const ge_value *y;
  OK(ge_program_create(g, &d, &p, &err));
  GE_REQUIRE(p);
  GE_CHECK_EQ_INT(ge_program_num_tasks(p), 7);
  GE_CHECK_EQ_INT(ge_program_find_input(p, "x"), 0);
  ins[0] = &x1;
  OK(ge_program_run(p, ins, 1, &err));
  y = ge_program_output(p, 0);
  GE_CHECK_EQ_INT(y->dims[0], 1);
  GE_CHECK_NEAR(((float *)y->data)[3], -4, 0);
  ins[0] = &x3; /* a bigger batch on the same program */
  OK(ge_program_run(p, ins, 1, &err));
  y = ge_program_output(p, 0);
  GE_CHECK_EQ_INT(y->dims[0], 3);
  GE_CHECK_NEAR(((float *)y->data)[11], -12, 0);
  ins[0] = &x1;
  OK(ge_program_run(p, ins, 1, &err));
  GE_CHECK_EQ_INT(ge_program_output(p, 0)->dims[0], 1);
  ge_program_free(p);
  ge_graph_free(g);
}

/* Kernels' parallel loops run on the program's pool (its own, or the
 * caller's runtime shared by two programs) with the same results. */
GE_TEST(test_parallel_kernels) {
  ge_graph *g = neg_chain(5);
  ge_node *x;
  ge_exec_desc d = desc();
  ge_program *own = NULL, *shared1 = NULL, *shared2 = NULL;
  ge_runtime *rt = NULL;
  ge_runtime_desc rd;
  ge_error err;
  float in[4000];
  int64_t dims[2] = {1000, 4};
  ge_value v = fvalue(2, dims, in);
  const ge_value *ins[1] = {&v};
  int i, bad = 0;
  for (i = 0; i < 4000; i++) in[i] = (float)i * 0.25f - 7;
  GE_GRAPH_FOREACH(g, x) if (!strcmp(x->op, "Neg")) x->op = "NegP";
  d.num_threads = 2;
  OK(ge_program_create(g, &d, &own, &err));
  memset(&rd, 0, sizeof rd);
  rd.num_threads = 2;
  OK(ge_runtime_create(&rd, &rt, &err));
  d.num_threads = 0, d.runtime = rt;
  OK(ge_program_create(g, &d, &shared1, &err));
  OK(ge_program_create(g, &d, &shared2, &err));
  OK(ge_program_run(own, ins, 1, &err));
  OK(ge_program_run(shared1, ins, 1, &err));
  OK(ge_program_run(shared2, ins, 1, &err));
  for (i = 0; i < 4000; i++) { /* five negations: -x */
    bad += ((float *)ge_program_output(own, 0)->data)[i] != -in[i];
    bad += ((float *)ge_program_output(shared1, 0)->data)[i] != -in[i];
    bad += ((float *)ge_program_output(shared2, 0)->data)[i] != -in[i];
  }
  GE_CHECK_EQ_INT(bad, 0);
  ge_program_free(own);
  ge_program_free(shared1);
  ge_program_free(shared2);
  ge_runtime_free(rt);
  ge_graph_free(g);
}

GE_TEST(test_input_checks) {
  ge_graph *g = neg_chain(1);
  ge_exec_desc d = desc();
  ge_program *p = NULL;
  ge_error err;
  float in[8] = {0};
  int64_t bad[2] = {2, 3}, rank3[3] = {1, 1, 4};
  ge_value v = fvalue(2, bad, in);
  const ge_value *ins[1] = {&v};
  OK(ge_program_create(g, &d, &p, &err));
  GE_CHECK_EQ_INT(ge_program_run(p, ins, 1, &err), GE_ERR_SHAPE);
  GE_CHECK(strstr(err.message, "input 'x'") && strstr(err.message, "[-1,4]") && strstr(err.message, "[2,3]"));
  v = fvalue(3, rank3, in);
  GE_CHECK_EQ_INT(ge_program_run(p, ins, 1, &err), GE_ERR_SHAPE);
  v = fvalue(2, bad, in);
  v.dtype = GE_DTYPE_INT32;
  v.dims[1] = 4;
  GE_CHECK_EQ_INT(ge_program_run(p, ins, 1, &err), GE_ERR_SHAPE);
  GE_CHECK(strstr(err.message, "int32") != NULL);
  GE_CHECK_EQ_INT(ge_program_run(p, ins, 0, &err), GE_ERR_INVALID);
  ins[0] = NULL;
  GE_CHECK_EQ_INT(ge_program_run(p, ins, 1, &err), GE_ERR_INVALID);
  GE_CHECK(strstr(err.message, "missing") != NULL);
  ge_program_free(p);
  ge_graph_free(g);
}

GE_TEST(test_no_kernel) {
  ge_graph *g = tu_new_graph("g");
  ge_node_id x, y;
  ge_edge e;
  ge_exec_desc d = desc();
  ge_program *p = NULL;
  ge_error err;
  int64_t dims[1] = {4};
  ge_graph_add_data(g, "x", GE_DTYPE_FLOAT32, 1, dims, &x, NULL);
  e = E(x, 0);
  ge_graph_add_node(g, "Relu", "relu", 1, &e, 1, &y, NULL);
  e = E(y, 0);
  ge_graph_set_outputs(g, 1, &e, NULL, NULL);
  GE_CHECK_EQ_INT(ge_program_create(g, &d, &p, &err), GE_ERR_UNSUPPORTED);
  GE_CHECK(strstr(err.message, "'relu'") && strstr(err.message, "Relu"));
  GE_CHECK(p == NULL);
  ge_graph_free(g);
}

/* A Data of subgraph b reading the parent node's input k (parent_index). */
static ge_node_id outer_value(ge_graph *b, const char *name, int64_t k) {
  ge_node_id id = GE_NONE;
  ge_graph_add_node(b, "Data", name, 0, NULL, 1, &id, NULL);
  ge_node_set_attr_int(b, id, "parent_index", k, NULL);
  return id;
}

/* y = If(x[0] > 0, then: x + c, else: -x), c captured from the outer graph */
GE_TEST(test_if_with_capture) {
  ge_graph *g = tu_new_graph("g"), *then_g = tu_new_graph("then"), *else_g = tu_new_graph("else");
  ge_node_id x, c, cond, iff, t_x, t_c, t_add, e_x, e_neg;
  ge_edge in[3];
  ge_exec_desc d = desc();
  ge_program *p = NULL;
  ge_error err;
  int64_t dims[1] = {2};
  float cval[2] = {10, 20}, pos[2] = {1, 2}, neg[2] = {-1, 5};
  ge_tensor ct;
  ge_value xv;
  const ge_value *ins[1] = {&xv};
  memset(&ct, 0, sizeof ct);
  ct.dtype = GE_DTYPE_FLOAT32;
  ct.rank = 1;
  ct.dims = dims;
  ct.data = cval;
  ct.nbytes = sizeof cval;
  ge_graph_add_data(g, "x", GE_DTYPE_FLOAT32, 1, dims, &x, NULL);
  ge_graph_add_const(g, "c", &ct, &c, NULL);
  in[0] = E(x, 0);
  in[1] = E(x, 0); /* Greater takes two inputs; the test's kernel reads the first */
  ge_graph_add_node(g, "Greater", "cond", 2, in, 1, &cond, NULL);
  /* then: parent inputs 1 (x) and 2 (c) */
  t_x = outer_value(then_g, "tx", 1);
  t_c = outer_value(then_g, "tc", 2);
  in[0] = E(t_x, 0);
  in[1] = E(t_c, 0);
  ge_graph_add_node(then_g, "Add", "add", 2, in, 1, &t_add, NULL);
  in[0] = E(t_add, 0);
  ge_graph_set_outputs(then_g, 1, in, NULL, NULL);
  e_x = outer_value(else_g, "ex", 1);
  in[0] = E(e_x, 0);
  ge_graph_add_node(else_g, "Neg", "neg", 1, in, 1, &e_neg, NULL);
  in[0] = E(e_neg, 0);
  ge_graph_set_outputs(else_g, 1, in, NULL, NULL);
  in[0] = E(cond, 0);
  in[1] = E(x, 0);
  in[2] = E(c, 0);
  ge_graph_add_node(g, "If", "if", 3, in, 1, &iff, NULL);
  ge_node_set_attr_graph(g, iff, "then_branch", then_g, NULL);
  ge_node_set_attr_graph(g, iff, "else_branch", else_g, NULL);
  in[0] = E(iff, 0);
  ge_graph_set_outputs(g, 1, in, NULL, NULL);
  OK(ge_program_create(g, &d, &p, &err));
  GE_REQUIRE(p);
  xv = fvalue(1, dims, pos);
  OK(ge_program_run(p, ins, 1, &err));
  GE_CHECK_NEAR(((float *)ge_program_output(p, 0)->data)[1], 22, 0);
  xv = fvalue(1, dims, neg);
  OK(ge_program_run(p, ins, 1, &err));
  GE_CHECK_NEAR(((float *)ge_program_output(p, 0)->data)[1], -5, 0);
  ge_program_free(p);
  ge_graph_free(g);
}

/* If's condition is a single element of any rank (exporters write [1, 1]):
 * y = If(true[1,1], then: -x, else: x). */
GE_TEST(test_if_condition_of_rank_two) {
  ge_graph *g = tu_new_graph("g"), *then_g = tu_new_graph("then"), *else_g = tu_new_graph("else");
  ge_node_id x, cond, iff, t_x, t_neg, e_x;
  ge_edge in[2];
  ge_exec_desc d = desc();
  ge_program *p = NULL;
  ge_error err;
  int64_t dims[1] = {2}, cdims[2] = {1, 1};
  unsigned char yes = 1;
  float xval[2] = {3, -4};
  ge_tensor ct;
  ge_value xv;
  const ge_value *ins[1] = {&xv};
  memset(&ct, 0, sizeof ct);
  ct.dtype = GE_DTYPE_BOOL, ct.rank = 2, ct.dims = cdims, ct.data = &yes, ct.nbytes = 1;
  ge_graph_add_data(g, "x", GE_DTYPE_FLOAT32, 1, dims, &x, NULL);
  ge_graph_add_const(g, "cond", &ct, &cond, NULL);
  t_x = outer_value(then_g, "tx", 1);
  in[0] = E(t_x, 0);
  ge_graph_add_node(then_g, "Neg", "neg", 1, in, 1, &t_neg, NULL);
  in[0] = E(t_neg, 0);
  ge_graph_set_outputs(then_g, 1, in, NULL, NULL);
  e_x = outer_value(else_g, "ex", 1);
  in[0] = E(e_x, 0);
  ge_graph_set_outputs(else_g, 1, in, NULL, NULL);
  in[0] = E(cond, 0);
  in[1] = E(x, 0);
  ge_graph_add_node(g, "If", "if", 2, in, 1, &iff, NULL);
  ge_node_set_attr_graph(g, iff, "then_branch", then_g, NULL);
  ge_node_set_attr_graph(g, iff, "else_branch", else_g, NULL);
  in[0] = E(iff, 0);
  ge_graph_set_outputs(g, 1, in, NULL, NULL);
  OK(ge_program_create(g, &d, &p, &err));
  GE_REQUIRE(p);
  xv = fvalue(1, dims, xval);
  OK(ge_program_run(p, ins, 1, &err));
  GE_CHECK_NEAR(((float *)ge_program_output(p, 0)->data)[1], 4, 0);
  ge_program_free(p);
  ge_graph_free(g);
}

/* Loop(M, -, x) { v = v + 1.5; scan v } with M given as the tensor mt. */
static ge_graph *add_loop(const ge_tensor *mt) {
  ge_graph *g = tu_new_graph("g"), *body = tu_new_graph("body");
  ge_node_id x, m, step, loop, b_i, b_c, b_v, b_s, b_add;
  ge_edge in[4];
  int64_t dims[1] = {2};
  static const float sval = 1.5f;
  ge_tensor st;
  memset(&st, 0, sizeof st);
  st.dtype = GE_DTYPE_FLOAT32;
  st.data = (void *)&sval;
  st.nbytes = 4;
  ge_graph_add_data(g, "x", GE_DTYPE_FLOAT32, 1, dims, &x, NULL);
  ge_graph_add_const(g, "M", mt, &m, NULL);
  ge_graph_add_const(g, "step", &st, &step, NULL);
  ge_graph_add_data(body, "iter", GE_DTYPE_INT64, 0, NULL, &b_i, NULL);
  ge_graph_add_data(body, "cond", GE_DTYPE_BOOL, 0, NULL, &b_c, NULL);
  ge_graph_add_data(body, "v", GE_DTYPE_FLOAT32, 1, dims, &b_v, NULL);
  b_s = outer_value(body, "s", 3);
  in[0] = E(b_v, 0);
  in[1] = E(b_s, 0);
  ge_graph_add_node(body, "Add", "add", 2, in, 1, &b_add, NULL);
  in[0] = E(b_c, 0);
  in[1] = E(b_add, 0);
  in[2] = E(b_add, 0);
  ge_graph_set_outputs(body, 3, in, NULL, NULL);
  in[0] = E(m, 0);
  in[1] = E(GE_NONE, 0);
  in[2] = E(x, 0);
  in[3] = E(step, 0);
  ge_graph_add_node(g, "Loop", "loop", 4, in, 2, &loop, NULL);
  ge_node_set_attr_graph(g, loop, "body", body, NULL);
  in[0] = E(loop, 0);
  in[1] = E(loop, 1);
  ge_graph_set_outputs(g, 2, in, NULL, NULL);
  return g;
}

/* Loop M times: v = v + step (step captured); scan output collects v. */
GE_TEST(test_loop) {
  int64_t dims[1] = {2}, mval = 3;
  float xin[2] = {1, 2};
  ge_tensor mt;
  ge_graph *g;
  ge_exec_desc d = desc();
  ge_program *p = NULL;
  ge_error err;
  ge_value xv;
  const ge_value *ins[1] = {&xv};
  memset(&mt, 0, sizeof mt);
  mt.dtype = GE_DTYPE_INT64;
  mt.data = &mval;
  mt.nbytes = 8;
  g = add_loop(&mt);
  OK(ge_program_create(g, &d, &p, &err));
  GE_REQUIRE(p);
  xv = fvalue(1, dims, xin);
  OK(ge_program_run(p, ins, 1, &err));
  {
    const ge_value *v = ge_program_output(p, 0), *sc = ge_program_output(p, 1);
    GE_CHECK_NEAR(((float *)v->data)[0], 1 + 3 * 1.5, 1e-6);
    GE_CHECK_EQ_INT(sc->rank, 2);
    GE_CHECK_EQ_INT(sc->dims[0], 3);
    GE_CHECK_NEAR(((float *)sc->data)[2], 1 + 2 * 1.5, 1e-6); /* iteration 1, element 0 */
  }
  ge_program_free(p);
  ge_graph_free(g);
}

/* Scan: state s; for each row r of X: s = s + r, output s. */
GE_TEST(test_scan) {
  ge_graph *g = tu_new_graph("g"), *body = tu_new_graph("body");
  ge_node_id s0, xs, scan, b_s, b_r, b_add;
  ge_edge in[3];
  ge_exec_desc d = desc();
  ge_program *p = NULL;
  ge_error err;
  int64_t sdims[1] = {2}, xdims[2] = {3, 2};
  float sv[2] = {0, 0}, xv[6] = {1, 2, 3, 4, 5, 6};
  ge_value a, b;
  const ge_value *ins[2] = {&a, &b};
  ge_graph_add_data(g, "s", GE_DTYPE_FLOAT32, 1, sdims, &s0, NULL);
  ge_graph_add_data(g, "X", GE_DTYPE_FLOAT32, 2, xdims, &xs, NULL);
  ge_graph_add_data(body, "s", GE_DTYPE_FLOAT32, 1, sdims, &b_s, NULL);
  ge_graph_add_data(body, "r", GE_DTYPE_FLOAT32, 1, sdims, &b_r, NULL);
  in[0] = E(b_s, 0);
  in[1] = E(b_r, 0);
  ge_graph_add_node(body, "Add", "add", 2, in, 1, &b_add, NULL);
  in[0] = E(b_add, 0);
  in[1] = E(b_add, 0);
  ge_graph_set_outputs(body, 2, in, NULL, NULL);
  in[0] = E(s0, 0);
  in[1] = E(xs, 0);
  ge_graph_add_node(g, "Scan", "scan", 2, in, 2, &scan, NULL);
  ge_node_set_attr_graph(g, scan, "body", body, NULL);
  ge_node_set_attr_int(g, scan, "num_scan_inputs", 1, NULL);
  in[0] = E(scan, 0);
  in[1] = E(scan, 1);
  ge_graph_set_outputs(g, 2, in, NULL, NULL);
  OK(ge_program_create(g, &d, &p, &err));
  GE_REQUIRE(p);
  a = fvalue(1, sdims, sv);
  b = fvalue(2, xdims, xv);
  OK(ge_program_run(p, ins, 2, &err));
  {
    const ge_value *fin = ge_program_output(p, 0), *all = ge_program_output(p, 1);
    GE_CHECK_NEAR(((float *)fin->data)[1], 12, 0);
    GE_CHECK_EQ_INT(all->dims[0], 3);
    GE_CHECK_NEAR(((float *)all->data)[2], 4, 0); /* after rows 0 and 1: 1+3 */
  }
  ge_program_free(p);
  ge_graph_free(g);
}

/* A PartitionedCall gives the same result as the inlined graph. */
GE_TEST(test_partitioned_call) {
  ge_graph *g = neg_chain(3), *f = neg_chain(2);
  ge_node_id x = ge_graph_find(g, "x"), call;
  ge_edge e = E(ge_graph_node(g, ge_graph_output_node(g))->inputs[0].node, 0);
  ge_exec_desc d = desc();
  ge_program *p = NULL;
  ge_error err;
  int64_t dims[2] = {1, 4};
  float in[4] = {1, 2, 3, 4};
  ge_value v = fvalue(2, dims, in);
  const ge_value *ins[1] = {&v};
  (void)x;
  ge_graph_add_node(g, "PartitionedCall", "call", 1, &e, 1, &call, NULL);
  ge_node_set_attr_graph(g, call, "f", f, NULL);
  e = E(call, 0);
  ge_graph_set_outputs(g, 1, &e, NULL, NULL);
  OK(ge_program_create(g, &d, &p, &err));
  GE_REQUIRE(p);
  OK(ge_program_run(p, ins, 1, &err));
  GE_CHECK_NEAR(((float *)ge_program_output(p, 0)->data)[2], -3, 0); /* 3 + 2 negations */
  ge_program_free(p);
  ge_graph_free(g);
}

/* y = -x, but a [1, 2n] output (x repeated) when x[0] > 100: a kernel
 * that disagrees with shape inference. */
static ge_status k_neg_liar(ge_kernel_ctx *c) {
  const ge_value *x = c->inputs[0];
  int64_t dims[2] = {1, x->numel}, i;
  ge_value *y;
  if (((const float *)x->data)[0] > 100) dims[1] *= 2;
  if (!(y = ge_kernel_output(c, 0, x->dtype, 2, dims))) return GE_ERR_NOMEM;
  for (i = 0; i < y->numel; i++) ((float *)y->data)[i] = -((const float *)x->data)[i % x->numel];
  return GE_OK;
}

/* y = -x, its output checked once under fixed shapes (as the fast
 * element-wise kernels do): a stale memo would write past y. */
static ge_status k_neg_memo(ge_kernel_ctx *c) {
  const ge_value *x = c->inputs[0];
  int64_t i;
  if (!ge_kernel_memo(c)) {
    if (!ge_kernel_output(c, 0, x->dtype, x->rank, x->dims)) return GE_ERR_NOMEM;
    ge_kernel_set_memo(c, 1);
  }
  for (i = 0; i < x->numel; i++) ((float *)c->outputs[0]->data)[i] = -((const float *)x->data)[i];
  return GE_OK;
}

static ge_kernel_fn lookup_liar(const ge_node *n, void *user) {
  (void)user;
  return !strcmp(n->name, "liar") ? k_neg_liar : k_neg_memo;
}

static int task_fixed(const ge_program *p, uint32_t t) {
  return (p->tasks[t].ctx.flags & GE_KERNEL_FIXED_SHAPES) != 0;
}

/* Tasks whose values all keep their inferred shapes are flagged fixed:
 * a static graph's, not a dynamic one's, nor a subgraph's reading its
 * Data (bound at run time); when a kernel moves a fixed shape after all,
 * the flags and memos go and the run stays right. */
GE_TEST(test_fixed_shapes) {
  ge_graph *g = neg_chain_of(2, 1), *dyn = neg_chain(2), *body = neg_chain_of(2, 1);
  ge_exec_desc d = desc();
  ge_program *p = NULL;
  ge_error err;
  int64_t dims[2] = {1, 4};
  float in[4] = {1, 2, 3, 4}, big[4] = {200, 2, 3, 4};
  ge_value v = fvalue(2, dims, in), vb = fvalue(2, dims, big);
  const ge_value *ins[1] = {&v}, *y;
  ge_edge e = E(ge_graph_node(dyn, ge_graph_output_node(dyn))->inputs[0].node, 0);
  ge_node_id call, second;
  int i;
  /* dynamic: nothing fixed; a static PartitionedCall body: all but the Data reader */
  ge_graph_add_node(dyn, "PartitionedCall", "call", 1, &e, 1, &call, NULL);
  ge_node_set_attr_graph(dyn, call, "f", body, NULL);
  e = E(call, 0);
  ge_graph_set_outputs(dyn, 1, &e, NULL, NULL);
  OK(ge_program_create(dyn, &d, &p, &err));
  GE_REQUIRE(p);
  GE_CHECK(!task_fixed(p, 0) && !task_fixed(p, 1) && !task_fixed(p, 2));
  GE_REQUIRE(p->num_subs == 1);
  GE_CHECK(!task_fixed(p->subs[0].program, 0) && task_fixed(p->subs[0].program, 1));
  ge_program_free(p);
  /* static: both fixed; the liar (the first Neg) moves its output's shape at the third run */
  second = ge_graph_node(g, ge_graph_output_node(g))->inputs[0].node;
  OK(ge_node_set_name(g, ge_graph_node(g, second)->inputs[0].node, "liar", NULL));
  d.lookup = lookup_liar;
  OK(ge_program_create(g, &d, &p, &err));
  GE_REQUIRE(p);
  GE_CHECK(task_fixed(p, 0) && task_fixed(p, 1));
  for (i = 0; i < 2; i++) {
    OK(ge_program_run(p, ins, 1, &err));
    y = ge_program_output(p, 0);
    GE_CHECK(y->dims[1] == 4 && ((float *)y->data)[3] == 4);
    GE_CHECK_EQ_INT(p->tasks[1].ctx.memo, 1);
  }
  ins[0] = &vb;
  OK(ge_program_run(p, ins, 1, &err));
  y = ge_program_output(p, 0);
  GE_CHECK_EQ_INT(y->dims[1], 8);
  GE_CHECK(((float *)y->data)[4] == 200 && ((float *)y->data)[7] == 4);
  GE_CHECK(!task_fixed(p, 0) && !task_fixed(p, 1) && p->tasks[1].ctx.memo == 0);
  ins[0] = &v; /* back to the inferred shape: right, with no memo */
  OK(ge_program_run(p, ins, 1, &err));
  GE_CHECK(ge_program_output(p, 0)->dims[1] == 4 && ((float *)ge_program_output(p, 0)->data)[0] == 1);
  ge_program_free(p);
  ge_graph_free(g);
  ge_graph_free(dyn);
}

/* Prepare (the Init program's kernel part): a state that says it was
 * built at load, seeing what a prepare call sees. */
#define PREPARED_MAGIC 0x5eed
/* Marks c's state as made by a prepare call. */
static ge_status stamp_prepared(ge_kernel_ctx *c) {
  int *st = (int *)malloc(sizeof *st);
  if (!st) return GE_ERR_NOMEM;
  *st = PREPARED_MAGIC;
  c->state = st;
  return GE_OK;
}
/* Runs kernel fn only on a state a prepare call made. */
static ge_status run_prepared(ge_kernel_ctx *c, ge_kernel_fn fn) {
  if (!c->state || *(int *)c->state != PREPARED_MAGIC) return ge_kernel_error(c, GE_ERR_INTERNAL, "not prepared at load");
  return fn(c);
}
static ge_status prep_neg(ge_kernel_ctx *c) {
  const ge_value *x = c->inputs[0];
  if (!strcmp(c->node->name, "bad")) return ge_kernel_error(c, GE_ERR_INVALID, "refuses to prepare");
  if (!ge_kernel_preparing(c) || !(c->flags & GE_KERNEL_FIXED_SHAPES) || c->state)
    return ge_kernel_error(c, GE_ERR_INTERNAL, "prepared twice or without the flags");
  if (x->dtype != GE_DTYPE_FLOAT32 || x->rank != 2 || x->dims[0] != 1 || x->dims[1] != 4 ||
      !ge_value_is_planned(c->outputs[0], GE_DTYPE_FLOAT32, 2, x->dims))
    return ge_kernel_error(c, GE_ERR_INTERNAL, "prepared without its shapes");
  return stamp_prepared(c);
}
static ge_status k_neg_prepared(ge_kernel_ctx *c) { return run_prepared(c, k_neg); }
static ge_kernel_fn lookup_prepared(const ge_node *n, void *user) {
  (void)user;
  return !strcmp(n->op, "Neg") ? k_neg_prepared : lookup(n, user);
}
static ge_kernel_fn lookup_prep(const ge_node *n, void *user) {
  (void)user;
  return !strcmp(n->op, "Neg") ? prep_neg : NULL;
}

/* Fixed tasks are prepared once at load, with shapes and no input bytes
 * (the graph input is unshaped again afterwards); dynamic ones are not;
 * a failing prepare fails the load naming its node. */
GE_TEST(test_prepare_at_load) {
  ge_graph *g = neg_chain_of(3, 1), *dyn = neg_chain(2);
  ge_exec_desc d = desc();
  ge_program *p = NULL;
  ge_error err;
  int64_t dims[2] = {1, 4};
  float in[4] = {1, 2, 3, 4};
  ge_value v = fvalue(2, dims, in);
  const ge_value *ins[1] = {&v};
  const ge_value *x;
  uint32_t t;
  d.lookup = lookup_prepared;
  d.prepare = lookup_prep;
  OK(ge_program_create(g, &d, &p, &err));
  GE_REQUIRE(p);
  for (t = 0; t < p->num_tasks; t++)
    GE_CHECK(p->tasks[t].ctx.state && !(p->tasks[t].ctx.flags & GE_KERNEL_PREPARE));
  x = &p->slots[p->first_slot[p->inputs[0]]];
  GE_CHECK(x->rank == 0 && !x->data);
  OK(ge_program_run(p, ins, 1, &err));
  GE_CHECK(((float *)ge_program_output(p, 0)->data)[3] == -4);
  ge_program_free(p);
  d.lookup = lookup; /* dynamic: nothing prepared */
  OK(ge_program_create(dyn, &d, &p, &err));
  GE_REQUIRE(p);
  for (t = 0; t < p->num_tasks; t++) GE_CHECK(!p->tasks[t].ctx.state);
  ge_program_free(p);
  OK(ge_node_set_name(g, ge_graph_node(g, ge_graph_output_node(g))->inputs[0].node, "bad", NULL));
  d.lookup = lookup_prepared;
  GE_CHECK_EQ_INT(ge_program_create(g, &d, &p, &err), GE_ERR_INVALID);
  GE_CHECK(!p && strstr(err.message, "'bad'") && strstr(err.message, "refuses to prepare"));
  ge_graph_free(g);
  ge_graph_free(dyn);
}

/* A call body's Add of a planned value and the caller's Const: the Const
 * is bound at load, so the task is fixed and prepared, its bytes there. */
static ge_status prep_add_weight(ge_kernel_ctx *c) {
  const ge_value *w = c->inputs[1];
  if (!w->data || ((const float *)w->data)[0] != 10) return ge_kernel_error(c, GE_ERR_INTERNAL, "weight not bound");
  return stamp_prepared(c);
}
static ge_status k_add_prepared(ge_kernel_ctx *c) { return run_prepared(c, k_add); }
static ge_kernel_fn lookup_add_prepared(const ge_node *n, void *user) {
  return !strcmp(n->op, "Add") ? k_add_prepared : lookup(n, user);
}
static ge_kernel_fn lookup_add_prep(const ge_node *n, void *user) {
  (void)user;
  return !strcmp(n->op, "Add") ? prep_add_weight : NULL;
}

GE_TEST(test_prepare_call_body_weights) {
  ge_graph *g = tu_new_graph("g"), *f = tu_new_graph("f");
  ge_exec_desc d = desc();
  ge_program *p = NULL;
  ge_error err;
  int64_t dims[2] = {1, 4};
  float in[4] = {1, 2, 3, 4}, wv[4] = {10, 20, 30, 40};
  ge_value v = fvalue(2, dims, in);
  const ge_value *ins[1] = {&v};
  ge_tensor wt;
  ge_node_id fx, fw, neg, add, x, w, call;
  ge_edge e[2];
  ge_graph_add_data(f, "fx", GE_DTYPE_FLOAT32, 2, dims, &fx, NULL);
  ge_graph_add_data(f, "fw", GE_DTYPE_FLOAT32, 2, dims, &fw, NULL);
  e[0] = E(fx, 0);
  ge_graph_add_node(f, "Neg", "neg", 1, e, 1, &neg, NULL); /* reads the input: not fixed */
  e[0] = E(neg, 0), e[1] = E(fw, 0);
  ge_graph_add_node(f, "Add", "add", 2, e, 1, &add, NULL);
  e[0] = E(add, 0);
  ge_graph_set_outputs(f, 1, e, NULL, NULL);
  memset(&wt, 0, sizeof wt);
  wt.dtype = GE_DTYPE_FLOAT32, wt.rank = 2, wt.dims = dims, wt.data = wv, wt.nbytes = sizeof wv;
  ge_graph_add_data(g, "x", GE_DTYPE_FLOAT32, 2, dims, &x, NULL);
  ge_graph_add_const(g, "w", &wt, &w, NULL);
  e[0] = E(x, 0), e[1] = E(w, 0);
  ge_graph_add_node(g, "PartitionedCall", "call", 2, e, 1, &call, NULL);
  ge_node_set_attr_graph(g, call, "f", f, NULL);
  e[0] = E(call, 0);
  ge_graph_set_outputs(g, 1, e, NULL, NULL);
  d.lookup = lookup_add_prepared;
  d.prepare = lookup_add_prep;
  OK(ge_program_create(g, &d, &p, &err));
  GE_REQUIRE(p && p->num_subs == 1 && p->subs[0].program->num_tasks == 2);
  GE_CHECK(p->subs[0].program->tasks[1].ctx.state != NULL);
  OK(ge_program_run(p, ins, 1, &err));
  if (GE_CHECK(ge_program_run(p, ins, 1, &err) == GE_OK)) GE_CHECK(((float *)ge_program_output(p, 0)->data)[3] == 36);
  ge_program_free(p);
  ge_graph_free(g);
}

/* Kernel failures are reported naming the node; the program stays usable. */
GE_TEST(test_kernel_error) {
  ge_graph *g = tu_new_graph("g");
  ge_node_id a, b, add;
  ge_edge in[2];
  ge_exec_desc d = desc();
  ge_program *p = NULL;
  ge_error err;
  int64_t dyn[1] = {-1};
  float x[3] = {1, 2, 3};
  int64_t d2[1] = {2}, d3[1] = {3};
  ge_value va = fvalue(1, d2, x), vb = fvalue(1, d3, x);
  const ge_value *ins[2] = {&va, &vb};
  ge_graph_add_data(g, "a", GE_DTYPE_FLOAT32, 1, dyn, &a, NULL);
  ge_graph_add_data(g, "b", GE_DTYPE_FLOAT32, 1, dyn, &b, NULL);
  in[0] = E(a, 0);
  in[1] = E(b, 0);
  ge_graph_add_node(g, "Add", "sum", 2, in, 1, &add, NULL);
  in[0] = E(add, 0);
  ge_graph_set_outputs(g, 1, in, NULL, NULL);
  OK(ge_program_create(g, &d, &p, &err));
  GE_REQUIRE(p);
  GE_CHECK_EQ_INT(ge_program_run(p, ins, 2, &err), GE_ERR_SHAPE);
  GE_CHECK(strstr(err.message, "'sum'") != NULL);
  vb = fvalue(1, d2, x);
  OK(ge_program_run(p, ins, 2, &err));
  GE_CHECK_NEAR(((float *)ge_program_output(p, 0)->data)[1], 4, 0);
  ge_program_free(p);
  ge_graph_free(g);
}


/* Runs add_loop with M; GE_OK or the run's status (err set). */
static ge_status run_add_loop(const ge_tensor *mt, uint64_t memory_limit, ge_program **pp, ge_graph **gp, ge_error *err) {
  ge_exec_desc d = desc();
  int64_t dims[1] = {2};
  static float xin[2] = {1, 2};
  ge_value xv = fvalue(1, dims, xin);
  const ge_value *ins[1] = {&xv};
  ge_status st;
  *gp = add_loop(mt);
  d.memory_limit = memory_limit;
  if ((st = ge_program_create(*gp, &d, pp, err))) return st;
  return ge_program_run(*pp, ins, 1, err);
}

/* Many iterations: the scan output grows geometrically and keeps every row. */
GE_TEST(test_loop_long_scan) {
  int64_t mval = 1000, k;
  ge_tensor mt;
  ge_program *p = NULL;
  ge_graph *g = NULL;
  ge_error err;
  memset(&mt, 0, sizeof mt);
  mt.dtype = GE_DTYPE_INT64, mt.data = &mval, mt.nbytes = 8;
  OK(run_add_loop(&mt, 0, &p, &g, &err));
  {
    const ge_value *sc = ge_program_output(p, 1);
    const float *y = (const float *)sc->data;
    float v0 = 1, v1 = 2;
    GE_CHECK_EQ_INT(sc->rank, 2);
    GE_CHECK_EQ_INT(sc->dims[0], 1000);
    GE_CHECK(sc->nbytes == 1000 * 2 * sizeof(float));
    for (k = 0; k < 1000; k++) {
      v0 += 1.5f, v1 += 1.5f;
      if (y[2 * k] != v0 || y[2 * k + 1] != v1) break;
    }
    GE_CHECK_EQ_INT(k, 1000);
  }
  ge_program_free(p);
  ge_graph_free(g);
}

/* M of another dtype than int64, or not a scalar, is refused (it used to be
 * read as 8 bytes whatever its size). */
GE_TEST(test_loop_trip_count_checked) {
  float f = 3;
  uint8_t u = 3;
  int64_t two[2] = {3, 3}, dim2 = 2;
  ge_tensor mt;
  ge_program *p = NULL;
  ge_graph *g = NULL;
  ge_error err;
  int i;
  for (i = 0; i < 3; i++) {
    memset(&mt, 0, sizeof mt);
    if (i == 0) mt.dtype = GE_DTYPE_FLOAT32, mt.data = &f, mt.nbytes = 4;
    if (i == 1) mt.dtype = GE_DTYPE_UINT8, mt.data = &u, mt.nbytes = 1;
    if (i == 2) mt.dtype = GE_DTYPE_INT64, mt.data = two, mt.nbytes = 16, mt.rank = 1, mt.dims = &dim2;
    GE_CHECK_EQ_INT(run_add_loop(&mt, 0, &p, &g, &err), GE_ERR_SHAPE);
    GE_CHECK(strstr(err.message, "'loop'") && strstr(err.message, "trip count"));
    ge_program_free(p);
    ge_graph_free(g);
    p = NULL;
  }
}

/* ge_exec_desc.memory_limit: the run fails naming the node, then (with room)
 * the same program shape runs. */
GE_TEST(test_memory_limit) {
  int64_t mval = 10000;
  ge_tensor mt;
  ge_program *p = NULL;
  ge_graph *g = NULL;
  ge_error err;
  memset(&mt, 0, sizeof mt);
  mt.dtype = GE_DTYPE_INT64, mt.data = &mval, mt.nbytes = 8;
  GE_CHECK_EQ_INT(run_add_loop(&mt, 16384, &p, &g, &err), GE_ERR_NOMEM);
  GE_CHECK(strstr(err.message, "'loop'") && strstr(err.message, "memory limit") && strstr(err.message, "16384"));
  ge_program_free(p);
  ge_graph_free(g);
  OK(run_add_loop(&mt, 1 << 20, &p, &g, &err));
  ge_program_free(p);
  ge_graph_free(g);
}

/* The overflow-checked size helpers. */
GE_TEST(test_checked_sizes) {
  int64_t n, big[4] = {(int64_t)1 << 32, (int64_t)1 << 32, 1, 1}, neg[2] = {3, -1}, zero[3] = {0, INT64_MAX, 5};
  int64_t fits[2] = {(int64_t)1 << 31, (int64_t)1 << 31}, b62[1] = {(int64_t)1 << 62};
  uint64_t u;
  size_t nb;
  ge_value v;
  GE_CHECK(ge_size_mul_checked(UINT64_MAX / 3, 3, &u) && u == UINT64_MAX / 3 * 3);
  GE_CHECK(!ge_size_mul_checked(UINT64_MAX / 3 + 1, 3, &u));
  GE_CHECK(!ge_dims_numel_checked(big, 4, &n));
  GE_CHECK(!ge_dims_numel_checked(neg, 2, &n));
  GE_CHECK(ge_dims_numel_checked(zero, 3, &n) && n == 0);
  GE_CHECK(ge_dims_numel_checked(fits, 2, &n) && n == (int64_t)1 << 62);
  GE_CHECK(ge_dims_numel_checked(NULL, 0, &n) && n == 1);
  GE_CHECK(ge_dims_nbytes_checked(GE_DTYPE_UINT8, b62, 1, &nb) && nb == (size_t)1 << 62);
  GE_CHECK(!ge_dims_nbytes_checked(GE_DTYPE_FLOAT32, b62, 1, &nb));
  memset(&v, 0, sizeof v);
  GE_CHECK_EQ_INT(ge_value_set_shape(&v, GE_DTYPE_FLOAT32, 4, big), GE_ERR_SHAPE);
  GE_CHECK(v.numel == -1 && v.nbytes == SIZE_MAX);
  OK(ge_value_set_shape(&v, GE_DTYPE_FLOAT32, 1, fits + 1));
}

int main(int argc, char **argv) {
  ge_test_init(argc, argv);
  GE_RUN(test_chain_and_dynamic_batch);
  GE_RUN(test_parallel_kernels);
  GE_RUN(test_input_checks);
  GE_RUN(test_no_kernel);
  GE_RUN(test_if_with_capture);
  GE_RUN(test_if_condition_of_rank_two);
  GE_RUN(test_loop);
  GE_RUN(test_scan);
  GE_RUN(test_partitioned_call);
  GE_RUN(test_fixed_shapes);
  GE_RUN(test_prepare_at_load);
  GE_RUN(test_prepare_call_body_weights);
  GE_RUN(test_kernel_error);
  GE_RUN(test_loop_long_scan);
  GE_RUN(test_loop_trip_count_checked);
  GE_RUN(test_memory_limit);
  GE_RUN(test_checked_sizes);
  return ge_test_main_end();
}

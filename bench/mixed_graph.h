/* bench/mixed_graph.h — the mixed graph the placement and partition
 * benchmarks run on: float element-wise ops and MatMuls for AI Core,
 * Reshape views for GE local, int64 arithmetic and TopK for AI CPU, Shape
 * and small int64 arithmetic for the host CPU, with residual edges.
 * Include after the ge headers. */
#ifndef GE_BENCH_MIXED_GRAPH_H
#define GE_BENCH_MIXED_GRAPH_H

#include "bench/bench_util.h"

static ge_node_id mixed_add(ge_graph *g, const char *op, uint32_t n, ge_node_id a, ge_node_id b, int32_t outs) {
  ge_edge e[2];
  ge_node_id id;
  ge_error err;
  e[0].node = a, e[0].index = 0, e[1].node = b, e[1].index = 0;
  bench_ok(ge_graph_add_node(g, op, NULL, n, e, outs, &id, &err), &err, op);
  return id;
}

static ge_node_id mixed_const_i64(ge_graph *g, int32_t rank, const int64_t *dims, const int64_t *vals, size_t n) {
  ge_tensor t;
  ge_node_id id;
  ge_error err;
  memset(&t, 0, sizeof t);
  t.dtype = GE_DTYPE_INT64;
  t.rank = rank;
  t.dims = (int64_t *)dims;
  t.data = (void *)vals;
  t.nbytes = n * sizeof(int64_t);
  bench_ok(ge_graph_add_const(g, NULL, &t, &id, &err), &err, "const");
  return id;
}

/* About n nodes in blocks of 10, shapes inferred. */
static ge_graph *mixed_graph(uint32_t n) {
  ge_graph *g;
  ge_error err;
  ge_graph_desc d;
  ge_node_id x, xi, prev, previ, shape_to, k, one;
  int64_t fd[2] = {16, 16}, id1[1] = {16}, two[1] = {2}, sv[2] = {16, 16}, kd[1] = {1}, kv[1] = {4}, ov[1] = {1};
  uint32_t i;
  memset(&d, 0, sizeof d);
  d.name = "mixed";
  bench_ok(ge_graph_create(&d, &g, &err), &err, "create");
  bench_ok(ge_graph_add_data(g, "x", GE_DTYPE_FLOAT32, 2, fd, &x, &err), &err, "data");
  bench_ok(ge_graph_add_data(g, "xi", GE_DTYPE_INT64, 1, id1, &xi, &err), &err, "data");
  shape_to = mixed_const_i64(g, 1, two, sv, 2);
  k = mixed_const_i64(g, 1, kd, kv, 1);
  one = mixed_const_i64(g, 1, kd, ov, 1);
  prev = x, previ = xi;
  for (i = 0; i + 10 <= n; i += 10) {
    ge_node_id a = mixed_add(g, "Relu", 1, prev, 0, -1);
    ge_node_id m = mixed_add(g, "MatMul", 2, a, prev, -1);
    ge_node_id s = mixed_add(g, "Sigmoid", 1, m, 0, -1);
    ge_node_id r = mixed_add(g, "Reshape", 2, s, shape_to, -1);
    ge_node_id sum = mixed_add(g, "Add", 2, r, prev, -1);
    ge_node_id ni = mixed_add(g, "Neg", 1, previ, 0, -1);
    ge_node_id ai = mixed_add(g, "Add", 2, ni, previ, -1);
    ge_node_id t = mixed_add(g, "TopK", 2, ai, k, 2);
    ge_node_id sh = mixed_add(g, "Shape", 1, sum, 0, -1);
    ge_node_id sm = mixed_add(g, "Add", 2, sh, one, -1); /* small int64: host CPU */
    (void)t, (void)sm;
    prev = sum, previ = ai;
  }
  {
    ge_edge outs[2];
    outs[0].node = prev, outs[0].index = 0, outs[1].node = previ, outs[1].index = 0;
    bench_ok(ge_graph_set_outputs(g, 2, outs, NULL, &err), &err, "outputs");
  }
  bench_ok(ge_graph_infer_shapes(g, &err), &err, "infer");
  return g;
}

#endif /* GE_BENCH_MIXED_GRAPH_H */

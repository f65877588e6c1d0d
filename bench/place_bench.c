/* place_bench — placement of a large graph on the standard engine set.
 *
 * Builds a graph of N nodes mixing what real models hold: float32 element-
 * wise ops and MatMuls (AI Core), Reshape views (GE local), int64 arithmetic
 * on 16-element tensors (AI CPU), TopK (AI CPU), and Shape + small int64
 * arithmetic (moved to the host CPU by the reassign pass), with residual
 * edges. Times ge_place (every node: cost-ordered check_supported calls,
 * then the reassign passes) on 1 and 2 threads, median of R runs after a
 * warm-up, for N and 10·N nodes: the ratio shows how close to linear it is.
 *
 *   make bench                      (N = 100,000, R = 5)
 *   build/place_bench [N] [R]
 */
#define _POSIX_C_SOURCE 200809L
#define GE_IMPLEMENTATION
#include "ge_engines/ge_engines.h"

#include <stdlib.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void ok(ge_status st, const ge_error *err, const char *what) {
  if (st == GE_OK) return;
  fprintf(stderr, "place_bench: %s failed: %s\n", what, err->message);
  exit(1);
}

static ge_node_id add(ge_graph *g, const char *op, uint32_t n, ge_node_id a, ge_node_id b, int32_t outs) {
  ge_edge e[2];
  ge_node_id id;
  ge_error err;
  e[0].node = a, e[0].index = 0, e[1].node = b, e[1].index = 0;
  ok(ge_graph_add_node(g, op, NULL, n, e, outs, &id, &err), &err, op);
  return id;
}

static ge_node_id add_const_i64(ge_graph *g, int32_t rank, const int64_t *dims, const int64_t *vals, size_t n) {
  ge_tensor t;
  ge_node_id id;
  ge_error err;
  memset(&t, 0, sizeof t);
  t.dtype = GE_DTYPE_INT64;
  t.rank = rank;
  t.dims = (int64_t *)dims;
  t.data = (void *)vals;
  t.nbytes = n * sizeof(int64_t);
  ok(ge_graph_add_const(g, NULL, &t, &id, &err), &err, "const");
  return id;
}

/* About n nodes in blocks of 10. */
static ge_graph *build(uint32_t n) {
  ge_graph *g;
  ge_error err;
  ge_graph_desc d;
  ge_node_id x, xi, prev, previ, shape_to, k, one;
  int64_t fd[2] = {16, 16}, id1[1] = {16}, two[1] = {2}, sv[2] = {16, 16}, kd[1] = {1}, kv[1] = {4}, ov[1] = {1};
  uint32_t i;
  memset(&d, 0, sizeof d);
  d.name = "place_bench";
  ok(ge_graph_create(&d, &g, &err), &err, "create");
  ok(ge_graph_add_data(g, "x", GE_DTYPE_FLOAT32, 2, fd, &x, &err), &err, "data");
  ok(ge_graph_add_data(g, "xi", GE_DTYPE_INT64, 1, id1, &xi, &err), &err, "data");
  shape_to = add_const_i64(g, 1, two, sv, 2);
  k = add_const_i64(g, 1, kd, kv, 1);
  one = add_const_i64(g, 1, kd, ov, 1);
  prev = x, previ = xi;
  for (i = 0; i + 10 <= n; i += 10) {
    ge_node_id a = add(g, "Relu", 1, prev, 0, -1);
    ge_node_id m = add(g, "MatMul", 2, a, prev, -1);
    ge_node_id s = add(g, "Sigmoid", 1, m, 0, -1);
    ge_node_id r = add(g, "Reshape", 2, s, shape_to, -1);
    ge_node_id sum = add(g, "Add", 2, r, prev, -1);
    ge_node_id ni = add(g, "Neg", 1, previ, 0, -1);
    ge_node_id ai = add(g, "Add", 2, ni, previ, -1);
    ge_node_id t = add(g, "TopK", 2, ai, k, 2);
    ge_node_id sh = add(g, "Shape", 1, sum, 0, -1);
    ge_node_id sm = add(g, "Add", 2, sh, one, -1); /* small int64: host CPU */
    (void)t, (void)sm;
    prev = sum, previ = ai;
  }
  ok(ge_graph_infer_shapes(g, &err), &err, "infer");
  return g;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Median seconds of r placements on `threads` threads, after one warm-up. */
static double time_place(ge_graph *g, ge_engine_registry *reg, int threads, int r) {
  double t[64];
  int i;
  ge_place_desc d;
  ge_error err;
  memset(&d, 0, sizeof d);
  d.engines = reg;
  d.num_threads = threads;
  ok(ge_place(g, &d, &err), &err, "place");
  for (i = 0; i < r; i++) {
    double t0 = now();
    ok(ge_place(g, &d, &err), &err, "place");
    t[i] = now() - t0;
  }
  qsort(t, (size_t)r, sizeof *t, cmp);
  return t[r / 2];
}

int main(int argc, char **argv) {
  uint32_t n = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 10) : 100000;
  int r = argc > 2 ? atoi(argv[2]) : 5, threads;
  ge_engine_registry *reg;
  ge_error err;
  ge_graph *small, *large;
  if (r < 1 || r > 64 || n < 10) {
    fprintf(stderr, "usage: place_bench [N >= 10] [R 1..64]\n");
    return 2;
  }
  ok(ge_engine_registry_create(NULL, &reg, &err), &err, "registry");
  ok(ge_engines_register_standard(reg, &err), &err, "engines");
  small = build(n);
  large = build(n * 10);
  printf("placement on the standard engine set (%u engines), median of %d after a warm-up\n", ge_engine_count(reg), r);
  printf("%-8s %12s %12s %12s %10s\n", "threads", "nodes", "ms", "ns/node", "10x ratio");
  for (threads = 1; threads <= 2; threads++) {
    double ts = time_place(small, reg, threads, r), tl = time_place(large, reg, threads, r);
    printf("%-8d %12u %12.2f %12.1f\n", threads, ge_graph_node_count(small), ts * 1e3, ts * 1e9 / ge_graph_node_count(small));
    printf("%-8d %12u %12.2f %12.1f %10.2f\n", threads, ge_graph_node_count(large), tl * 1e3,
           tl * 1e9 / ge_graph_node_count(large), tl / ts);
  }
  ge_graph_free(small);
  ge_graph_free(large);
  ge_engine_registry_free(reg);
  return 0;
}

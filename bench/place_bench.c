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
#include "bench/mixed_graph.h"


/* Median seconds of r placements on `threads` threads, after one warm-up. */
static double time_place(ge_graph *g, ge_engine_registry *reg, int threads, int r) {
  double t[64];
  int i;
  ge_place_desc d;
  ge_error err;
  memset(&d, 0, sizeof d);
  d.engines = reg;
  d.num_threads = threads;
  bench_ok(ge_place(g, &d, &err), &err, "place");
  for (i = 0; i < r; i++) {
    double t0 = bench_now();
    bench_ok(ge_place(g, &d, &err), &err, "place");
    t[i] = bench_now() - t0;
  }
  qsort(t, (size_t)r, sizeof *t, bench_cmp_double);
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
  bench_ok(ge_engine_registry_create(NULL, &reg, &err), &err, "registry");
  bench_ok(ge_engines_register_standard(reg, &err), &err, "engines");
  small = mixed_graph(n);
  large = mixed_graph(n * 10);
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

/* Loop scan outputs: time against the trip count. A Loop of N iterations
 * whose body adds a step to a float32[4] and emits it as a scan output,
 * for N = 10^4 .. 10^6. With amortized growth of the scan output the time
 * per iteration stays flat (linear in N); growing it by one slice per
 * iteration (copying the whole accumulator) made it grow with N.
 *
 *   make build/loop_bench && build/loop_bench [REPEATS [MAX_N]]
 *
 * Prints per N: the median run time over REPEATS (default 5) runs after one
 * warm-up, and ns per iteration, N from 10^4 up to MAX_N (default 10^6).
 * Every run's scan output is checked. */
#define _POSIX_C_SOURCE 200809L
#define GE_IMPLEMENTATION
#include "ge_exec.h"

#include "bench/bench_util.h"

#include <string.h>

#define WIDTH 4

/* y = a + b, b a scalar */
static ge_status k_add(ge_kernel_ctx *c) {
  const ge_value *a = c->inputs[0], *b = c->inputs[1];
  ge_value *y = ge_kernel_output(c, 0, a->dtype, a->rank, a->dims);
  int64_t i;
  if (!y) return GE_ERR_NOMEM;
  for (i = 0; i < a->numel; i++) ((float *)y->data)[i] = ((const float *)a->data)[i] + ((const float *)b->data)[0];
  return GE_OK;
}

static ge_kernel_fn lookup(const ge_node *n, void *user) {
  (void)user;
  return strcmp(n->op, "Add") == 0 ? k_add : NULL;
}

static ge_edge edge(ge_node_id n, int32_t i) {
  ge_edge e;
  e.node = n;
  e.index = i;
  return e;
}

/* Loop(M = trips) { v = v + step; scan v } on x: float32[WIDTH]. */
static ge_graph *loop_graph(int64_t *trips, float *step) {
  ge_graph *g, *body;
  ge_node_id x, m, s, loop, b_i, b_c, b_v, b_s, b_add;
  ge_edge in[4];
  int64_t dims[1] = {WIDTH};
  ge_tensor mt, st;
  ge_error err;
  ge_graph_desc gd;
  memset(&gd, 0, sizeof gd);
  gd.name = "loop_bench";
  bench_ok(ge_graph_create(&gd, &g, &err), &err, "create");
  gd.name = "body";
  bench_ok(ge_graph_create(&gd, &body, &err), &err, "create body");
  memset(&mt, 0, sizeof mt);
  mt.dtype = GE_DTYPE_INT64, mt.data = trips, mt.nbytes = 8;
  memset(&st, 0, sizeof st);
  st.dtype = GE_DTYPE_FLOAT32, st.data = step, st.nbytes = 4;
  bench_ok(ge_graph_add_data(g, "x", GE_DTYPE_FLOAT32, 1, dims, &x, &err), &err, "x");
  bench_ok(ge_graph_add_const(g, "M", &mt, &m, &err), &err, "M");
  bench_ok(ge_graph_add_const(g, "step", &st, &s, &err), &err, "step");
  bench_ok(ge_graph_add_data(body, "iter", GE_DTYPE_INT64, 0, NULL, &b_i, &err), &err, "iter");
  bench_ok(ge_graph_add_data(body, "cond", GE_DTYPE_BOOL, 0, NULL, &b_c, &err), &err, "cond");
  bench_ok(ge_graph_add_data(body, "v", GE_DTYPE_FLOAT32, 1, dims, &b_v, &err), &err, "v");
  bench_ok(ge_graph_add_node(body, "Data", "s", 0, NULL, 1, &b_s, &err), &err, "s");
  bench_ok(ge_node_set_attr_int(body, b_s, "parent_index", 3, &err), &err, "parent_index");
  in[0] = edge(b_v, 0), in[1] = edge(b_s, 0);
  bench_ok(ge_graph_add_node(body, "Add", "add", 2, in, 1, &b_add, &err), &err, "add");
  in[0] = edge(b_c, 0), in[1] = edge(b_add, 0), in[2] = edge(b_add, 0);
  bench_ok(ge_graph_set_outputs(body, 3, in, NULL, &err), &err, "body outputs");
  in[0] = edge(m, 0), in[1] = edge(GE_NONE, 0), in[2] = edge(x, 0), in[3] = edge(s, 0);
  bench_ok(ge_graph_add_node(g, "Loop", "loop", 4, in, 2, &loop, &err), &err, "loop");
  bench_ok(ge_node_set_attr_graph(g, loop, "body", body, &err), &err, "body");
  in[0] = edge(loop, 0), in[1] = edge(loop, 1);
  bench_ok(ge_graph_set_outputs(g, 2, in, NULL, &err), &err, "outputs");
  return g;
}

/* The scan output must hold x + (k + 1) * step in row k. */
static void check(const ge_program *p, int64_t trips, float x0, float step) {
  const ge_value *sc = ge_program_output(p, 1);
  int64_t rows[3], k;
  rows[0] = 0, rows[1] = trips / 2, rows[2] = trips - 1;
  if (sc->rank != 2 || sc->dims[0] != trips || sc->dims[1] != WIDTH) {
    fprintf(stderr, "scan output has the wrong shape\n");
    exit(1);
  }
  for (k = 0; k < 3; k++) {
    float got = ((const float *)sc->data)[rows[k] * WIDTH + WIDTH - 1], want = x0;
    int64_t j;
    for (j = 0; j <= rows[k]; j++) want += step; /* the kernel's own float sums */
    if (got != want) {
      fprintf(stderr, "scan row %lld: %g, expected %g\n", (long long)rows[k], (double)got, (double)want);
      exit(1);
    }
  }
}

int main(int argc, char **argv) {
  int repeats = argc > 1 ? atoi(argv[1]) : 5, r;
  int64_t n, max_n = argc > 2 ? atoll(argv[2]) : 1000000;
  printf("Loop scan output, float32[%d] per iteration; median of %d runs (after 1 warm-up)\n", WIDTH, repeats);
  printf("%10s %12s %14s\n", "iterations", "median_ms", "ns_per_iter");
  if (repeats < 1) repeats = 1;
  for (n = 10000; n <= max_n; n *= 10) {
    int64_t trips = n;
    float step = 0.25f, xin[WIDTH] = {1, 2, 3, 4};
    const int64_t width[1] = {WIDTH};
    ge_graph *g = loop_graph(&trips, &step);
    ge_exec_desc d;
    ge_program *p = NULL;
    ge_error err;
    ge_value xv;
    const ge_value *ins[1] = {&xv};
    double *t = (double *)malloc(sizeof(double) * (size_t)repeats);
    memset(&d, 0, sizeof d);
    d.lookup = lookup;
    bench_ok(ge_program_create(g, &d, &p, &err), &err, "ge_program_create");
    memset(&xv, 0, sizeof xv);
    ge_value_set_shape(&xv, GE_DTYPE_FLOAT32, 1, width);
    xv.data = xin;
    bench_ok(ge_program_run(p, ins, 1, &err), &err, "warm-up run");
    for (r = 0; r < repeats; r++) {
      double t0 = bench_now();
      bench_ok(ge_program_run(p, ins, 1, &err), &err, "run");
      t[r] = bench_now() - t0;
      check(p, trips, xin[WIDTH - 1], step);
    }
    qsort(t, (size_t)repeats, sizeof *t, bench_cmp_double);
    printf("%10lld %12.3f %14.1f\n", (long long)n, t[repeats / 2] * 1e3, t[repeats / 2] * 1e9 / (double)n);
    free(t);
    ge_program_free(p);
    ge_graph_free(g);
  }
  return 0;
}

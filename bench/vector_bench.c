/* bench/vector_bench.c — µs per op of the fast float32 kernels
 * (ge_engines/vector_kernels.h) against the reference kernels (host_cpu.h)
 * on typical CNN / transformer sizes, one thread (this thread's CPU time,
 * steadier than wall time on a shared machine). Runs alternate between
 * the two; medians after a warm-up.
 *   build/vector_bench [ROUNDS [OP]]   (default 15 rounds, every op) */
#define _POSIX_C_SOURCE 200809L
#define GE_IMPLEMENTATION
#include "ge_engines/vector.h"
#include "bench/bench_util.h"
#include "tests/rng.h"

#include <string.h>

typedef struct bench_case {
  const char *op, *label;
  int n_in;
  int32_t rank[3];
  int64_t dims[3][4];
  void (*attrs)(ge_graph *g, ge_node_id id);
} bench_case;

static ge_value *bench_alloc(ge_kernel_ctx *c, uint32_t i, ge_dtype dtype, int32_t rank, const int64_t *dims) {
  ge_value *v = c->outputs[i];
  ge_value_set_shape(v, dtype, rank, dims);
  if (v->nbytes > v->capacity) {
    free(v->data);
    v->data = malloc(v->nbytes);
    v->capacity = v->data ? v->nbytes : 0;
  }
  return v->data ? v : NULL;
}

/* A square pool: kernel k, stride st, pad on every side, ceil_mode and
 * count_include_pad (0 leaves the attribute at its default). */
static void set_pool(ge_graph *g, ge_node_id id, int64_t k, int64_t st, int64_t pad, int ceil, int count_pad) {
  const int64_t ks[2] = {k, k}, s[2] = {st, st}, p[4] = {pad, pad, pad, pad};
  ge_error e;
  ge_node_set_attr_ints(g, id, "kernel_shape", ks, 2, &e);
  if (st != 1) ge_node_set_attr_ints(g, id, "strides", s, 2, &e);
  if (pad) ge_node_set_attr_ints(g, id, "pads", p, 4, &e);
  if (ceil) ge_node_set_attr_int(g, id, "ceil_mode", 1, &e);
  if (count_pad) ge_node_set_attr_int(g, id, "count_include_pad", 1, &e);
}
/* ResNet's stem pool: 3x3 stride 2, pads 1. */
static void attrs_pool(ge_graph *g, ge_node_id id) { set_pool(g, id, 3, 2, 1, 0, 0); }
/* Inception's branch pools: 3x3 stride 1, pads 1, the pads counted. */
static void attrs_pool_s1(ge_graph *g, ge_node_id id) { set_pool(g, id, 3, 1, 1, 0, 1); }
/* DenseNet's transitions: 2x2 stride 2. */
static void attrs_pool_2x2(ge_graph *g, ge_node_id id) { set_pool(g, id, 2, 2, 0, 0, 0); }
/* SqueezeNet's and GoogLeNet's pools: 3x3 stride 2 in ceil mode, no pads. */
static void attrs_pool_ceil(ge_graph *g, ge_node_id id) { set_pool(g, id, 3, 2, 0, 1, 0); }
/* Inception's reductions: 3x3 stride 2, no pads, floor mode. */
static void attrs_pool_s2(ge_graph *g, ge_node_id id) { set_pool(g, id, 3, 2, 0, 0, 0); }
/* GoogLeNet's branch pools: 3x3 stride 1, pads 1, ceil mode. */
static void attrs_pool_s1_ceil(ge_graph *g, ge_node_id id) { set_pool(g, id, 3, 1, 1, 1, 0); }
static void attrs_clip(ge_graph *g, ge_node_id id) {
  ge_error e;
  ge_node_set_attr_float(g, id, "min", 0.0, &e);
  ge_node_set_attr_float(g, id, "max", 6.0, &e);
}

static const bench_case cases[] = {
    {"Relu", "1x64x112x112", 1, {4}, {{1, 64, 112, 112}}, NULL},
    {"Clip", "1x32x112x112 [0,6]", 1, {4}, {{1, 32, 112, 112}}, attrs_clip},
    {"HardSwish", "1x96x56x56", 1, {4}, {{1, 96, 56, 56}}, NULL},
    {"Sigmoid", "1x64x56x56", 1, {4}, {{1, 64, 56, 56}}, NULL},
    {"Tanh", "1x64x56x56", 1, {4}, {{1, 64, 56, 56}}, NULL},
    {"Exp", "1x64x56x56", 1, {4}, {{1, 64, 56, 56}}, NULL},
    {"Gelu", "1x128x768", 1, {3}, {{1, 128, 768}}, NULL},
    {"Erf", "1x128x768", 1, {3}, {{1, 128, 768}}, NULL},
    {"Add", "1x64x56x56 + same", 2, {4, 4}, {{1, 64, 56, 56}, {1, 64, 56, 56}}, NULL},
    {"Mul", "1x64x56x56 * 1x64x1x1", 2, {4, 4}, {{1, 64, 56, 56}, {1, 64, 1, 1}}, NULL},
    {"Add", "1x128x768 + 768", 2, {3, 1}, {{1, 128, 768}, {768}}, NULL},
    {"MaxPool", "1x64x112x112 3x3 s2 p1", 1, {4}, {{1, 64, 112, 112}}, attrs_pool},
    {"MaxPool", "1x64x111x111 3x3 s2 ceil", 1, {4}, {{1, 64, 111, 111}}, attrs_pool_ceil},
    {"MaxPool", "1x128x55x55 3x3 s2 ceil", 1, {4}, {{1, 128, 55, 55}}, attrs_pool_ceil},
    {"MaxPool", "1x256x27x27 3x3 s2 ceil", 1, {4}, {{1, 256, 27, 27}}, attrs_pool_ceil},
    {"MaxPool", "1x64x112x112 3x3 s2 ceil", 1, {4}, {{1, 64, 112, 112}}, attrs_pool_ceil},
    {"MaxPool", "1x192x56x56 3x3 s2 ceil", 1, {4}, {{1, 192, 56, 56}}, attrs_pool_ceil},
    {"MaxPool", "1x480x28x28 3x3 s2 ceil", 1, {4}, {{1, 480, 28, 28}}, attrs_pool_ceil},
    {"MaxPool", "1x256x28x28 3x3 s1 p1 ceil", 1, {4}, {{1, 256, 28, 28}}, attrs_pool_s1_ceil},
    {"MaxPool", "1x512x14x14 3x3 s1 p1 ceil", 1, {4}, {{1, 512, 14, 14}}, attrs_pool_s1_ceil},
    {"MaxPool", "1x64x147x147 3x3 s2", 1, {4}, {{1, 64, 147, 147}}, attrs_pool_s2},
    {"MaxPool", "1x192x71x71 3x3 s2", 1, {4}, {{1, 192, 71, 71}}, attrs_pool_s2},
    {"MaxPool", "1x768x17x17 3x3 s2", 1, {4}, {{1, 768, 17, 17}}, attrs_pool_s2},
    {"AveragePool", "1x64x112x112 3x3 s2 p1", 1, {4}, {{1, 64, 112, 112}}, attrs_pool},
    {"AveragePool", "1x288x35x35 3x3 s1 p1", 1, {4}, {{1, 288, 35, 35}}, attrs_pool_s1},
    {"AveragePool", "1x768x17x17 3x3 s1 p1", 1, {4}, {{1, 768, 17, 17}}, attrs_pool_s1},
    {"AveragePool", "1x2048x8x8 3x3 s1 p1", 1, {4}, {{1, 2048, 8, 8}}, attrs_pool_s1},
    {"AveragePool", "1x256x56x56 2x2 s2", 1, {4}, {{1, 256, 56, 56}}, attrs_pool_2x2},
    {"GlobalAveragePool", "1x512x7x7", 1, {4}, {{1, 512, 7, 7}}, NULL},
    {"Softmax", "12x128x128", 1, {3}, {{12, 128, 128}}, NULL},
    {"LayerNormalization", "1x128x768", 3, {3, 1, 1}, {{1, 128, 768}, {768}, {768}}, NULL},
    {"BatchNormalization", "1x64x56x56", 5, {4, 1, 1}, {{1, 64, 56, 56}, {64}, {64}}, NULL},
};

/* One timed call of fn (seconds). */
static double bench_once(ge_kernel_fn fn, ge_kernel_ctx *c) {
  double t0 = bench_cpu_now();
  bench_ok(fn(c), c->err, c->node->op);
  return bench_cpu_now() - t0;
}

static void bench_run(const bench_case *bc, int rounds) {
  ge_value vals[5], out, *in[5], *outs[1];
  ge_graph *g;
  ge_edge e[5];
  ge_node_id id;
  ge_error err;
  ge_kernel_env env;
  ge_kernel_ctx c;
  ge_kernel_fn ref, fast;
  double *tr = (double *)malloc((size_t)rounds * sizeof(double)), *tf = (double *)malloc((size_t)rounds * sizeof(double));
  tu_rng r;
  int i, k;
  memset(&err, 0, sizeof err);
  memset(&out, 0, sizeof out);
  tu_seed(&r, 5);
  bench_ok(ge_graph_create(NULL, &g, &err), &err, "graph");
  for (i = 0; i < bc->n_in; i++) {
    int spec = i < 3 ? i : 1; /* BatchNorm: scale, B, mean, var all [C] */
    int64_t n;
    memset(&vals[i], 0, sizeof vals[i]);
    ge_value_set_shape(&vals[i], GE_DTYPE_FLOAT32, bc->rank[spec], bc->dims[spec]);
    vals[i].data = malloc(vals[i].nbytes);
    for (n = 0; n < vals[i].numel; n++)
      ((float *)vals[i].data)[n] = (float)((double)(tu_next(&r) >> 11) / 9007199254740992.0) * 4.0f - (i == 4 ? -0.5f : 2.0f);
    in[i] = &vals[i];
    bench_ok(ge_graph_add_data(g, NULL, GE_DTYPE_FLOAT32, vals[i].rank, vals[i].dims, &e[i].node, &err), &err, "data");
    e[i].index = 0;
  }
  bench_ok(ge_graph_add_node(g, bc->op, "n", (uint32_t)bc->n_in, e, 1, &id, &err), &err, "node");
  if (bc->attrs) bc->attrs(g, id);
  ref = ge_host_cpu_kernel(ge_graph_node(g, id));
  fast = ge_vector_fast_kernel(ge_graph_node(g, id));
  if (!ref || !fast) {
    fprintf(stderr, "%s: no kernel\n", bc->op);
    exit(1);
  }
  memset(&env, 0, sizeof env);
  env.alloc_output = bench_alloc;
  env.num_threads = 1;
  memset(&c, 0, sizeof c);
  outs[0] = &out;
  c.inputs = in;
  c.outputs = outs;
  c.num_inputs = (uint32_t)bc->n_in;
  c.num_outputs = 1;
  c.node = ge_graph_node(g, id);
  c.graph = g;
  c.env = &env;
  c.err = &err;
  for (k = 0; k < 2; k++) { /* warm-up */
    bench_once(ref, &c);
    bench_once(fast, &c);
  }
  for (k = 0; k < rounds; k++) {
    tr[k] = bench_once(ref, &c);
    tf[k] = bench_once(fast, &c);
  }
  qsort(tr, (size_t)rounds, sizeof *tr, bench_cmp_double);
  qsort(tf, (size_t)rounds, sizeof *tf, bench_cmp_double);
  printf("| %-18s | %-24s | %10.1f | %8.1f | %6.1fx |\n", bc->op, bc->label, tr[rounds / 2] * 1e6, tf[rounds / 2] * 1e6,
         tr[rounds / 2] / tf[rounds / 2]);
  for (i = 0; i < bc->n_in; i++) free(vals[i].data);
  free(out.data);
  free(tr);
  free(tf);
  ge_graph_free(g);
}

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 15;
  size_t i;
  if (rounds < 1) rounds = 1;
  printf("| op                 | shape                    | reference µs | fast µs | speedup |\n");
  printf("|--------------------|--------------------------|-------------:|--------:|--------:|\n");
  for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
    if (argc < 3 || !strcmp(argv[2], cases[i].op)) bench_run(&cases[i], rounds);
  return 0;
}

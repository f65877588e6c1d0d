/* runtime_bench — the runtime (ge_runtime.h, ge_exec.h's executors), side
 * by side in one process.
 *
 * 1. ns per node for each executor and launch mode on a chain of Neg nodes
 *    (float32 [1,16]): (t(N=1001) - t(N=1)) / 1000, medians of REPEAT runs,
 *    ROUNDS rounds alternating the configurations; host minus sink is what
 *    the host thread's launches cost per task. The same chain again with a
 *    kernel that returns at once: what the executor alone costs per node
 *    (the rest of the Neg chain's figure is the host CPU Neg kernel: its
 *    checks, its output and 16 elements). Two rows run with profile on.
 * 2. Stream parallelism: 8 independent branches of 16 x (MatMul
 *    [4,256]x[256,256] + Tanh) from one input, stream plan by ge_stream.h
 *    (dependency assignment: a stream per branch), at 2 threads: every
 *    executor against the best sequential run (1 or 2 threads offered to
 *    kernels), outputs checked bit-identical to the sequential executor.
 *    CPU ms/run (all threads, mean) next to the wall-clock median shows
 *    how much ran at once: on a machine shared with other work the second
 *    thread may find no free core, and the wall-clock gain shrinks.
 *
 *   build/runtime_bench [REPEAT [ROUNDS]]     (defaults 2000 5)
 *   build/runtime_bench --write-onnx DIR      writes the branch graph as
 *       DIR/branches.onnx with its input DIR/branches.x.npy, for ONNX Runtime
 *       (bench/branches.sh runs both side by side)
 *   cc -std=c99 -O2 -DNDEBUG -I. bench/runtime_bench.c -o build/runtime_bench -lm
 */
#define _POSIX_C_SOURCE 200809L
#define GE_IMPLEMENTATION
#include "ge_engines/ge_engines.h"
#include "ge_exec.h"
#include "ge_onnx.h"
#include "ge_stream.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench_util.h"
#include "tools/npy.h"

/* The executor alone: every node's kernel returns at once. */
static ge_status nop_kernel(ge_kernel_ctx *c) {
  (void)c;
  return GE_OK;
}
static ge_kernel_fn nop_lookup(const ge_node *n, void *user) {
  (void)n, (void)user;
  return nop_kernel;
}

/* The AI Core engine's fast kernels (as a session places these ops), the
 * host CPU engine's where it has none. */
static ge_kernel_fn lookup(const ge_node *n, void *user) {
  const ge_engine *aic = ge_ai_core_engine();
  ge_kernel_fn fn = aic->kernel(aic, n);
  (void)user;
  return fn ? fn : ge_host_cpu_kernel(n);
}

static const ge_engine *engines[1];

static ge_graph *new_graph(const char *name) {
  ge_graph_desc gd;
  ge_graph *g;
  ge_error err;
  memset(&gd, 0, sizeof gd);
  gd.name = name;
  bench_ok(ge_graph_create(&gd, &g, &err), &err, "graph");
  return g;
}

static ge_node_id add1(ge_graph *g, const char *op, ge_node_id a) {
  ge_edge e;
  ge_node_id id;
  ge_error err;
  e.node = a, e.index = 0;
  bench_ok(ge_graph_add_node(g, op, NULL, 1, &e, 1, &id, &err), &err, op);
  ge_graph_node(g, id)->engine = 0;
  return id;
}

/* x [1,16] -> Neg^n -> y */
static ge_graph *neg_chain(uint32_t n) {
  ge_graph *g = new_graph("neg_chain");
  int64_t dims[2] = {1, 16};
  ge_node_id prev;
  ge_edge e;
  ge_error err;
  uint32_t i;
  bench_ok(ge_graph_add_data(g, "x", GE_DTYPE_FLOAT32, 2, dims, &prev, &err), &err, "data");
  for (i = 0; i < n; i++) prev = add1(g, "Neg", prev);
  e.node = prev, e.index = 0;
  bench_ok(ge_graph_set_outputs(g, 1, &e, NULL, &err), &err, "outputs");
  return g;
}

/* x [4,256] -> 8 branches of 16 x (MatMul by a [256,256] weight, Tanh) */
static ge_graph *branches(void) {
  ge_graph *g = new_graph("branches");
  int64_t xd[2] = {4, 256}, wd[2] = {256, 256};
  ge_node_id x, outs_id[8];
  ge_edge outs[8];
  ge_error err;
  float *w = (float *)malloc(sizeof(float) * 256 * 256);
  uint32_t b, k, i, seed = 12345;
  bench_ok(ge_graph_add_data(g, "x", GE_DTYPE_FLOAT32, 2, xd, &x, &err), &err, "data");
  for (b = 0; b < 8; b++) {
    ge_node_id prev = x;
    for (k = 0; k < 16; k++) {
      ge_tensor t;
      ge_node_id c, mm;
      ge_edge in[2];
      char name[32];
      for (i = 0; i < 256 * 256; i++) { /* small weights keep Tanh out of saturation */
        seed = seed * 1664525u + 1013904223u;
        w[i] = ((float)(seed >> 8) / 16777216.0f - 0.5f) * 0.12f;
      }
      memset(&t, 0, sizeof t);
      t.dtype = GE_DTYPE_FLOAT32, t.rank = 2, t.dims = wd, t.data = w, t.nbytes = sizeof(float) * 256 * 256;
      snprintf(name, sizeof name, "w%u_%u", (unsigned)b, (unsigned)k);
      bench_ok(ge_graph_add_const(g, name, &t, &c, &err), &err, "const");
      ge_graph_node(g, c)->engine = 0;
      in[0].node = prev, in[0].index = 0, in[1].node = c, in[1].index = 0;
      bench_ok(ge_graph_add_node(g, "MatMul", NULL, 2, in, 1, &mm, &err), &err, "matmul");
      ge_graph_node(g, mm)->engine = 0;
      prev = add1(g, "Tanh", mm);
    }
    outs_id[b] = prev;
    outs[b].node = prev, outs[b].index = 0;
  }
  (void)outs_id;
  bench_ok(ge_graph_set_outputs(g, 8, outs, NULL, &err), &err, "outputs");
  free(w);
  return g;
}

static void plan_streams(ge_graph *g, ge_stream_plan *plan) {
  ge_stream_desc sd;
  ge_error err;
  memset(&sd, 0, sizeof sd);
  engines[0] = ge_ai_core_engine();
  sd.engines = engines, sd.num_engines = 1, sd.dynamic = -1;
  bench_ok(ge_graph_infer_shapes(g, &err), &err, "infer");
  bench_ok(ge_stream_allocate(g, &sd, plan, &err), &err, "streams");
}

typedef struct config {
  const char *name;
  ge_executor_kind executor;
  ge_launch_mode launch;
  int threads;
  int profile;
} config;

static const config configs[] = {
    {"sequential", GE_EXECUTOR_SEQUENTIAL, GE_LAUNCH_SINK, 1, 0},
    {"sequential, 2 threads to kernels", GE_EXECUTOR_SEQUENTIAL, GE_LAUNCH_SINK, 2, 0},
    {"topological", GE_EXECUTOR_TOPOLOGICAL, GE_LAUNCH_SINK, 1, 0},
    {"priority", GE_EXECUTOR_PRIORITY, GE_LAUNCH_SINK, 1, 0},
    {"multi-thread, 2 threads", GE_EXECUTOR_MULTI_THREAD, GE_LAUNCH_SINK, 2, 0},
    {"streams sink, 1 thread", GE_EXECUTOR_STREAMS, GE_LAUNCH_SINK, 1, 0},
    {"streams host, 1 thread", GE_EXECUTOR_STREAMS, GE_LAUNCH_HOST, 1, 0},
    {"streams sink, 2 threads", GE_EXECUTOR_STREAMS, GE_LAUNCH_SINK, 2, 0},
    {"streams host, 2 threads", GE_EXECUTOR_STREAMS, GE_LAUNCH_HOST, 2, 0},
    {"sequential, profile on", GE_EXECUTOR_SEQUENTIAL, GE_LAUNCH_SINK, 1, 1},
    {"streams sink, 1 thread, profile on", GE_EXECUTOR_STREAMS, GE_LAUNCH_SINK, 1, 1},
};
/* the branch table leaves the profiled rows out */
#define NUM_PLAIN_CONFIGS 9
#define NUM_CONFIGS (sizeof configs / sizeof *configs)

static ge_program *make_program(ge_graph *g, const ge_stream_plan *plan, const config *c, ge_runtime *rt, int nop) {
  ge_exec_desc d;
  ge_program *p;
  ge_error err;
  memset(&d, 0, sizeof d);
  d.lookup = nop ? nop_lookup : lookup;
  d.profile = c->profile;
  d.runtime = c->threads > 1 ? rt : NULL;
  d.executor = c->executor;
  d.launch = c->launch;
  d.streams = plan;
  bench_ok(ge_program_create(g, &d, &p, &err), &err, c->name);
  return p;
}

/* Median seconds per run of p over `repeat` runs (after a tenth as warm-up). */
static double time_runs(ge_program *p, const ge_value *const *ins, int repeat, double *scratch) {
  ge_error err;
  int r;
  for (r = 0; r < repeat / 10 + 1; r++) bench_ok(ge_program_run(p, ins, 1, &err), &err, "warm-up");
  for (r = 0; r < repeat; r++) {
    double t0 = bench_now();
    bench_ok(ge_program_run(p, ins, 1, &err), &err, "run");
    scratch[r] = bench_now() - t0;
  }
  qsort(scratch, (size_t)repeat, sizeof(double), bench_cmp_double);
  return scratch[repeat / 2];
}

/* Seconds of CPU the process used (all threads). */
static double cpu_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof(double), bench_cmp_double);
  return v[n / 2];
}

static void chain_table(ge_runtime *rt, int repeat, int rounds, int nop) {
  ge_graph *g[2];
  ge_stream_plan plan[2];
  ge_program *p[2][NUM_CONFIGS];
  double *ns[NUM_CONFIGS], *scratch = (double *)malloc(sizeof(double) * (size_t)repeat);
  float x[16];
  int64_t dims[2] = {1, 16};
  ge_value v;
  const ge_value *ins[1] = {&v};
  unsigned c, k;
  int r;
  for (k = 0; k < 16; k++) x[k] = (float)k - 7.5f;
  memset(&v, 0, sizeof v);
  ge_value_set_shape(&v, GE_DTYPE_FLOAT32, 2, dims);
  v.data = x;
  g[0] = neg_chain(1), g[1] = neg_chain(1001);
  for (k = 0; k < 2; k++) {
    plan_streams(g[k], &plan[k]);
    for (c = 0; c < NUM_CONFIGS; c++) p[k][c] = make_program(g[k], &plan[k], &configs[c], rt, nop);
  }
  for (c = 0; c < NUM_CONFIGS; c++) ns[c] = (double *)malloc(sizeof(double) * (size_t)rounds);
  for (r = 0; r < rounds; r++)
    for (c = 0; c < NUM_CONFIGS; c++) {
      double t1 = time_runs(p[0][c], ins, repeat, scratch), tn = time_runs(p[1][c], ins, repeat, scratch);
      ns[c][r] = (tn - t1) / 1000 * 1e9;
    }
  printf("%sNeg chain%s, ns per node = (t(1001) - t(1)) / 1000, median of %d runs, %d rounds:\n", nop ? "\n" : "",
         nop ? " with a kernel that returns at once (the executor alone)" : "", repeat, rounds);
  printf("  %-36s %10s\n", "executor", "ns/node");
  for (c = 0; c < NUM_CONFIGS; c++) printf("  %-36s %10.1f\n", configs[c].name, median(ns[c], rounds));
  for (c = 0; c < NUM_CONFIGS; c++) {
    free(ns[c]);
    for (k = 0; k < 2; k++) ge_program_free(p[k][c]);
  }
  for (k = 0; k < 2; k++) {
    ge_stream_plan_free(&plan[k]);
    ge_graph_free(g[k]);
  }
  free(scratch);
}

/* The branch graph's input x [4,256] in v (over the caller's 1024 floats). */
static void branch_input(ge_value *v, float *x, int64_t *dims) {
  int k;
  for (k = 0; k < 4 * 256; k++) x[k] = (float)((k * 37) % 101) / 101.0f - 0.5f;
  memset(v, 0, sizeof *v);
  ge_value_set_shape(v, GE_DTYPE_FLOAT32, 2, dims);
  v->data = x;
}

/* DIR/branches.onnx and DIR/branches.x.npy: the same graph and input for a peer. */
static int write_onnx(const char *dir) {
  ge_graph *g = branches();
  float x[4 * 256];
  int64_t dims[2] = {4, 256};
  ge_value v;
  ge_error err;
  char path[1024];
  uint32_t i;
  for (i = 0; i < ge_graph_id_bound(g); i++) /* engines are the bench's own choice, not the model's */
    if (ge_graph_node(g, i)) ge_graph_node(g, i)->engine = -1;
  snprintf(path, sizeof path, "%s/branches.onnx", dir);
  bench_ok(ge_onnx_save(g, path, &err), &err, path);
  branch_input(&v, x, dims);
  snprintf(path, sizeof path, "%s/branches.x.npy", dir);
  bench_ok(npy_write(path, &v, &err), &err, path);
  ge_graph_free(g);
  printf("wrote %s/branches.onnx and %s/branches.x.npy\n", dir, dir);
  return 0;
}

static void branch_table(ge_runtime *rt, int repeat, int rounds) {
  ge_graph *g = branches();
  ge_stream_plan plan;
  ge_program *p[NUM_PLAIN_CONFIGS];
  double *ms[NUM_PLAIN_CONFIGS], cpu[NUM_PLAIN_CONFIGS], best_seq = 1e30, *scratch;
  float *x = (float *)malloc(sizeof(float) * 4 * 256);
  int64_t dims[2] = {4, 256};
  ge_value v;
  const ge_value *ins[1] = {&v};
  ge_error err;
  unsigned c, k;
  int r, same = 1;
  repeat = repeat / 20 > 10 ? repeat / 20 : 10;
  scratch = (double *)malloc(sizeof(double) * (size_t)repeat);
  branch_input(&v, x, dims);
  plan_streams(g, &plan);
  for (c = 0; c < NUM_PLAIN_CONFIGS; c++) {
    p[c] = make_program(g, &plan, &configs[c], rt, 0);
    ms[c] = (double *)malloc(sizeof(double) * (size_t)rounds);
    bench_ok(ge_program_run(p[c], ins, 1, &err), &err, configs[c].name);
    for (k = 0; k < 8; k++) /* bit-identical to the sequential executor */
      same &= memcmp(ge_program_output(p[c], k)->data, ge_program_output(p[0], k)->data,
                     ge_program_output(p[0], k)->nbytes) == 0;
  }
  memset(cpu, 0, sizeof cpu);
  for (r = 0; r < rounds; r++)
    for (c = 0; c < NUM_PLAIN_CONFIGS; c++) {
      double c0 = cpu_now();
      ms[c][r] = time_runs(p[c], ins, repeat, scratch) * 1e3;
      cpu[c] += (cpu_now() - c0) * 1e3 / (repeat + repeat / 10 + 1) / rounds; /* warm-up runs included */
    }
  printf("\n8 branches x 16 x (MatMul [4,256]x[256,256] + Tanh), %u streams in the plan, median of %d runs, %d rounds;"
         " outputs %s:\n", (unsigned)plan.num_streams, repeat, rounds,
         same ? "bit-identical across executors" : "DIFFER (bug)");
  for (c = 0; c < NUM_PLAIN_CONFIGS; c++) {
    ms[c][0] = median(ms[c], rounds);
    if (configs[c].executor == GE_EXECUTOR_SEQUENTIAL && ms[c][0] < best_seq) best_seq = ms[c][0];
  }
  printf("  %-36s %10s %18s %12s\n", "executor", "ms", "vs best sequential", "CPU ms/run");
  for (c = 0; c < NUM_PLAIN_CONFIGS; c++)
    printf("  %-36s %10.3f %17.2fx %12.3f\n", configs[c].name, ms[c][0], best_seq / ms[c][0], cpu[c]);
  for (c = 0; c < NUM_PLAIN_CONFIGS; c++) {
    free(ms[c]);
    ge_program_free(p[c]);
  }
  ge_stream_plan_free(&plan);
  ge_graph_free(g);
  free(x);
  free(scratch);
  if (!same) exit(1);
}

int main(int argc, char **argv) {
  int repeat = argc > 1 ? atoi(argv[1]) : 2000, rounds = argc > 2 ? atoi(argv[2]) : 5;
  ge_runtime_desc rd;
  ge_runtime *rt;
  ge_error err;
  (void)npy_read;
  if (argc == 3 && !strcmp(argv[1], "--write-onnx")) return write_onnx(argv[2]);
  if (repeat < 10 || rounds < 1) {
    fprintf(stderr, "usage: runtime_bench [REPEAT>=10 [ROUNDS>=1]]\n");
    return 2;
  }
  memset(&rd, 0, sizeof rd);
  rd.num_threads = 2;
  bench_ok(ge_runtime_create(&rd, &rt, &err), &err, "runtime");
  chain_table(rt, repeat, rounds, 0);
  chain_table(rt, repeat, rounds, 1);
  if (!getenv("RUNTIME_BENCH_CHAIN_ONLY")) branch_table(rt, repeat, rounds);
  ge_runtime_free(rt);
  return 0;
}

/* stream_bench — stream allocation (ge_stream.h): events before and after
 * optimisation, simulated makespan against the critical path, allocation
 * time.
 *
 * Graphs: the exported models (build/models/NAME.onnx, placed on the standard
 * engine set, allocated as static graphs) when present; synthetic ones with
 * su_engines filled by hand: Inception-style blocks (parallel branches of
 * 1-4 convolutions with their weights, joined by a Concat), a data-parallel
 * training step (forward chain, backward chain, an AllReduce per gradient
 * on the independent HCCL engine, optimizer updates; hcom_parallel on), a
 * random wide layered DAG.
 *
 * Per graph: nodes; streams; events with one per cross-stream dependency
 * (events_all), after GE's send/receive passes (events_ge_passes), and the
 * fewest (num_events, the transitive reduction); simulated makespan over
 * the critical path, median over 5 seeds of node durations uniform in 1..10
 * (0 for nodes that launch no device task: Data, Const, Variable,
 * NetOutput, and nodes of su_engines with GE_ENGINE_SKIP_ASSIGN_STREAM) with
 * an event latency of 0.5, with the default max_parallel (8 streams per
 * engine) and with 64 ("enough streams"). Every plan is checked with the
 * happens-before checker of tests/stream_util.h first.
 * Then allocation time, median of 5 after a warm-up, at 10k and 100k nodes.
 *
 *   build/stream_bench [MODEL_DIR]        (default build/models)
 *   cc -std=c99 -O2 -DNDEBUG -I. bench/stream_bench.c -o build/stream_bench -lm
 */
#define _POSIX_C_SOURCE 200809L
#define GE_IMPLEMENTATION
#include "ge_session.h"
#include "tests/stream_util.h"
#include "tests/rng.h"
#include "bench/bench_util.h"

#include <time.h>

#define SEEDS 5
#define LATENCY 0.5

/* ------------------------------------------------------------ building */

static ge_graph *new_graph(const char *name) {
  ge_graph_desc d;
  ge_graph *g;
  ge_error err;
  memset(&d, 0, sizeof d);
  d.name = name;
  bench_ok(ge_graph_create(&d, &g, &err), &err, "graph");
  return g;
}

static ge_node_id node(ge_graph *g, const char *op, int32_t engine, uint32_t n, const ge_node_id *in) {
  ge_edge e[8];
  ge_node_id id;
  ge_error err;
  uint32_t k;
  for (k = 0; k < n; k++) e[k].node = in[k], e[k].index = 0;
  bench_ok(ge_graph_add_node(g, op, NULL, n, n ? e : NULL, 1, &id, &err), &err, op);
  ge_graph_node(g, id)->engine = engine;
  return id;
}
static ge_node_id node1(ge_graph *g, const char *op, int32_t engine, ge_node_id a) { return node(g, op, engine, 1, &a); }
static ge_node_id node2(ge_graph *g, const char *op, int32_t engine, ge_node_id a, ge_node_id b) {
  ge_node_id in[2];
  in[0] = a, in[1] = b;
  return node(g, op, engine, 2, in);
}
static ge_node_id input(ge_graph *g) {
  ge_node_id id;
  ge_error err;
  bench_ok(ge_graph_add_data(g, NULL, GE_DTYPE_FLOAT32, 0, NULL, &id, &err), &err, "data");
  ge_graph_node(g, id)->engine = SU_E_LOCAL;
  return id;
}
static void outputs(ge_graph *g, uint32_t n, const ge_node_id *in) {
  ge_edge *e = (ge_edge *)malloc(sizeof(ge_edge) * (n + 1));
  ge_error err;
  uint32_t k;
  for (k = 0; k < n; k++) e[k].node = in[k], e[k].index = 0;
  bench_ok(ge_graph_set_outputs(g, n, e, NULL, &err), &err, "outputs");
  ge_graph_node(g, ge_graph_output_node(g))->engine = SU_E_LOCAL;
  free(e);
}

/* A convolution with its weight (a Const on GE local) and a Relu. */
static ge_node_id conv(ge_graph *g, ge_node_id x) {
  ge_node_id w = node(g, "Const", SU_E_LOCAL, 0, NULL);
  return node1(g, "Relu", SU_E_AICORE, node2(g, "Conv", SU_E_AICORE, x, w));
}

/* Inception-style blocks until about n nodes: 3-6 branches of 1-4
 * convolutions (a pooling branch first pools), some with an AI CPU op,
 * joined by a Concat. */
static ge_graph *inception(uint32_t n, uint64_t seed) {
  ge_graph *g = new_graph("inception");
  ge_node_id x = input(g), ends[8];
  tu_rng r;
  r.s = seed * 0x9E3779B97F4A7C15ull + 1;
  x = conv(g, x);
  while (ge_graph_node_count(g) + 40 < n) {
    uint32_t branches = 3 + tu_below(&r, 4), b, k;
    for (b = 0; b < branches; b++) {
      uint32_t depth = 1 + tu_below(&r, 4);
      ge_node_id y = x;
      if (b == branches - 1) y = node1(g, "MaxPool", SU_E_AICORE, y);
      for (k = 0; k < depth; k++) y = conv(g, y);
      if (tu_below(&r, 5) == 0) y = node1(g, "TopK", SU_E_AICPU, y);
      ends[b] = y;
    }
    x = node(g, "Concat", SU_E_AICORE, branches, ends);
  }
  outputs(g, 1, &x);
  return g;
}

/* A data-parallel training step of `layers` layers: forward MatMul + Relu
 * with Variable weights; backward: per layer the gradient of the input and
 * of the weight; an AllReduce of each weight gradient; an update per
 * weight. */
static ge_graph *training(uint32_t layers) {
  ge_graph *g = new_graph("training");
  ge_node_id *x = (ge_node_id *)malloc(sizeof(ge_node_id) * (layers + 1));
  ge_node_id *w = (ge_node_id *)malloc(sizeof(ge_node_id) * (layers + 1));
  ge_node_id *upd = (ge_node_id *)malloc(sizeof(ge_node_id) * (layers + 1)), grad;
  uint32_t i;
  x[0] = input(g);
  for (i = 0; i < layers; i++) {
    w[i] = node(g, "Variable", SU_E_LOCAL, 0, NULL);
    x[i + 1] = node1(g, "Relu", SU_E_AICORE, node2(g, "MatMul", SU_E_AICORE, x[i], w[i]));
  }
  grad = node1(g, "SoftmaxCrossEntropyLossGrad", SU_E_AICORE, x[layers]);
  for (i = layers; i-- > 0;) {
    ge_node_id dw = node2(g, "MatMulGradWeight", SU_E_AICORE, x[i], grad);
    ge_node_id ar = node1(g, "AllReduce", SU_E_HCCL, dw);
    upd[i] = node2(g, "ApplyGradientDescent", SU_E_AICORE, w[i], ar);
    if (i) grad = node1(g, "ReluGrad", SU_E_AICORE, node2(g, "MatMulGradInput", SU_E_AICORE, grad, w[i]));
  }
  outputs(g, layers, upd);
  free(x);
  free(w);
  free(upd);
  return g;
}

/* A random layered DAG of about n nodes, `width` per layer: each node reads
 * 1-3 nodes of the previous two layers; su_engines AI Core (80%), DSA, AI CPU. */
static ge_graph *random_wide(uint32_t n, uint32_t width, uint64_t seed) {
  ge_graph *g = new_graph("random_wide");
  ge_node_id *prev = (ge_node_id *)malloc(sizeof(ge_node_id) * 2 * width), *cur = prev + width;
  ge_node_id *older = (ge_node_id *)malloc(sizeof(ge_node_id) * width);
  uint32_t i, layer, k;
  tu_rng r;
  r.s = seed * 0x9E3779B97F4A7C15ull + 7;
  for (i = 0; i < width; i++) prev[i] = older[i] = input(g);
  for (layer = 0; ge_graph_node_count(g) + width < n; layer++) {
    for (i = 0; i < width; i++) {
      uint32_t arity = 1 + tu_below(&r, 3), pick = tu_below(&r, 10);
      ge_node_id in[3];
      for (k = 0; k < arity; k++) in[k] = tu_below(&r, 3) ? prev[tu_below(&r, width)] : older[tu_below(&r, width)];
      cur[i] = node(g, pick < 8 ? "Conv" : pick < 9 ? "RandomUniform" : "TopK", pick < 8 ? SU_E_AICORE : pick < 9 ? SU_E_DSA : SU_E_AICPU,
                    arity, in);
    }
    memcpy(older, prev, sizeof(ge_node_id) * width);
    memcpy(prev, cur, sizeof(ge_node_id) * width);
  }
  outputs(g, width, prev);
  free(prev);
  free(older);
  return g;
}

/* ------------------------------------------------------------ measuring */

typedef struct row {
  char name[48];
  uint32_t nodes, streams, streams_wide, all, ge_passes, minimal, minimal_wide;
  double ratio, ratio_wide;
} row;

/* Nodes that launch no device task take no time: inputs, weights, outputs,
 * and nodes of su_engines stream assignment skips (GE local views, host CPU
 * shape arithmetic). */
static void no_task_durations(const ge_graph *g, const ge_stream_desc *d, double *dur) {
  uint32_t i;
  for (i = 0; i < ge_graph_id_bound(g); i++) {
    const ge_node *x = ge_graph_node(g, i);
    const ge_engine *e = x && x->engine >= 0 && (uint32_t)x->engine < d->num_engines ? d->engines[x->engine] : NULL;
    if (x && (!strcmp(x->op, "Data") || !strcmp(x->op, "Const") || !strcmp(x->op, "Variable") ||
              !strcmp(x->op, "NetOutput") || (e && (e->flags & GE_ENGINE_SKIP_ASSIGN_STREAM))))
      dur[i] = 0;
  }
}

/* Allocates, checks the plan, and returns the median makespan / critical
 * path over SEEDS duration draws (*streams and the event figures set). */
static double measure(ge_graph *g, const ge_stream_desc *d, uint32_t *streams, row *r) {
  ge_stream_plan p;
  ge_error err;
  double ratios[SEEDS], *dur = (double *)malloc(sizeof(double) * (ge_graph_id_bound(g) + 1));
  int s;
  bench_ok(ge_stream_allocate(g, d, &p, &err), &err, "stream allocation");
  bench_ok(su_check_plan(g, &p, &err), &err, "happens-before check");
  *streams = p.num_streams;
  if (r) r->all = p.events_all, r->ge_passes = p.events_ge_passes, r->minimal = p.num_events;
  for (s = 0; s < SEEDS; s++) {
    double ms;
    su_durations(g, (uint64_t)s + 1, 0, dur);
    no_task_durations(g, d, dur);
    bench_ok(su_simulate(g, &p, dur, LATENCY, &ms), &err, "simulation");
    ratios[s] = ms / su_critical_path(g, dur);
  }
  qsort(ratios, SEEDS, sizeof *ratios, bench_cmp_double);
  ge_stream_plan_free(&p);
  free(dur);
  return ratios[SEEDS / 2];
}

static row run(const char *name, ge_graph *g, const ge_stream_desc *base) {
  row r;
  ge_stream_desc d = *base;
  memset(&r, 0, sizeof r);
  snprintf(r.name, sizeof r.name, "%s", name);
  r.nodes = ge_graph_node_count(g);
  r.ratio = measure(g, &d, &r.streams, &r);
  d.max_parallel = 64;
  {
    row w;
    r.ratio_wide = measure(g, &d, &r.streams_wide, &w);
    r.minimal_wide = w.minimal;
  }
  return r;
}

static void print_row(const row *r) {
  printf("%-26s %8u %8u %10u %10u %8u %9.3f %8u %8u %9.3f\n", r->name, r->nodes, r->streams, r->all, r->ge_passes,
         r->minimal, r->ratio, r->streams_wide, r->minimal_wide, r->ratio_wide);
}

/* Median seconds of 5 allocations after a warm-up. */
static double time_alloc(ge_graph *g, const ge_stream_desc *d) {
  double t[5];
  int i;
  ge_stream_plan p;
  ge_error err;
  bench_ok(ge_stream_allocate(g, d, &p, &err), &err, "stream allocation");
  ge_stream_plan_free(&p);
  for (i = 0; i < 5; i++) {
    double t0 = bench_now();
    bench_ok(ge_stream_allocate(g, d, &p, &err), &err, "stream allocation");
    t[i] = bench_now() - t0;
    ge_stream_plan_free(&p);
  }
  qsort(t, 5, sizeof *t, bench_cmp_double);
  return t[2];
}

/* A model compiled by a session up to placement (constant folding,
 * placement, fusion), copied out of it; NULL (and a note) when missing. */
static ge_graph *load_model(const char *dir, const char *file) {
  char path[1024];
  ge_graph *g = NULL;
  ge_session *s = NULL;
  ge_session_desc sd;
  ge_error err;
  FILE *f;
  snprintf(path, sizeof path, "%s/%s", dir, file);
  if (!(f = fopen(path, "rb"))) return NULL;
  fclose(f);
  memset(&sd, 0, sizeof sd);
  sd.level = GE_COMPILE_PLACE;
  if (ge_session_create(&sd, &s, &err) || ge_session_add_graph_file(s, 1, path, &err) ||
      ge_session_compile_graph(s, 1, &err) || ge_graph_clone(ge_session_graph(s, 1), NULL, &g, &err)) {
    fprintf(stderr, "stream_bench: %s: %s (skipped)\n", path, err.message);
    g = NULL;
  }
  ge_session_free(s);
  return g;
}

int main(int argc, char **argv) {
  static const char *const models[] = {"resnet18.onnx", "mobilenet_v2.onnx", "transformer_op13.onnx"};
  const char *dir = argc > 1 ? argv[1] : "build/models";
  ge_engine_registry *reg;
  ge_stream_desc d, dm;
  ge_error err;
  ge_graph *g;
  row r;
  uint32_t i;
  memset(&d, 0, sizeof d);
  d.engines = su_engines;
  d.num_engines = SU_NUM_ENGINES;
  d.dynamic = -1; /* static: the pass chain */
  printf("stream allocation: events and simulated makespan / critical path (median of %d duration seeds, "
         "durations 1..10, event latency %.1f)\n", SEEDS, LATENCY);
  printf("%-26s %8s %8s %10s %10s %8s %9s %8s %8s %9s\n", "graph", "nodes", "streams", "ev_all", "ev_ge", "ev_min",
         "ms/cp", "streams", "ev_min", "ms/cp");
  printf("%-26s %8s %8s %10s %10s %8s %9s %8s %8s %9s\n", "", "", "(mp 8)", "", "passes", "", "(mp 8)", "(mp 64)",
         "(mp 64)", "(mp 64)");
  /* the models */
  bench_ok(ge_engine_registry_create(NULL, &reg, &err), &err, "registry");
  bench_ok(ge_engines_register_standard(reg, &err), &err, "engines");
  dm = d;
  dm.engines = ge_engine_list(reg);
  dm.num_engines = ge_engine_count(reg);
  for (i = 0; i < sizeof models / sizeof *models; i++) {
    if (!(g = load_model(dir, models[i]))) {
      printf("%-26s (not found in %s: make bench exports it)\n", models[i], dir);
      continue;
    }
    r = run(models[i], g, &dm);
    print_row(&r);
    ge_graph_free(g);
  }
  ge_engine_registry_free(reg);
  /* synthetic graphs */
  g = inception(1000, 1);
  r = run("inception 1k", g, &d);
  print_row(&r);
  ge_graph_free(g);
  g = training(50);
  r = run("training 50 layers", g, &d);
  print_row(&r);
  {
    ge_stream_desc h = d;
    h.hcom_parallel = 1;
    r = run("training, hcom_parallel", g, &h);
    print_row(&r);
  }
  ge_graph_free(g);
  g = random_wide(1000, 16, 1);
  r = run("random wide 16 x 62", g, &d);
  print_row(&r);
  ge_graph_free(g);
  g = random_wide(2000, 64, 2);
  r = run("random wide 64 x 31", g, &d);
  print_row(&r);
  ge_graph_free(g);
  g = inception(10000, 3);
  r = run("inception 10k", g, &d);
  print_row(&r);
  ge_graph_free(g);
  g = inception(100000, 4);
  r = run("inception 100k", g, &d);
  print_row(&r);
  ge_graph_free(g);
  /* allocation time */
  printf("\nallocation time (median of 5 after a warm-up)\n");
  printf("%-26s %10s %10s %10s %10s\n", "graph", "nodes", "ms", "ns/node", "10x ratio");
  for (i = 0; i < 2; i++) {
    ge_graph *small = i ? random_wide(10000, 64, 5) : inception(10000, 5);
    ge_graph *large = i ? random_wide(100000, 64, 6) : inception(100000, 6);
    double ts = time_alloc(small, &d), tl = time_alloc(large, &d);
    const char *name = i ? "random wide (64)" : "inception";
    printf("%-26s %10u %10.2f %10.1f\n", name, ge_graph_node_count(small), ts * 1e3, ts * 1e9 / ge_graph_node_count(small));
    printf("%-26s %10u %10.2f %10.1f %10.2f\n", name, ge_graph_node_count(large), tl * 1e3,
           tl * 1e9 / ge_graph_node_count(large), tl / ts);
    ge_graph_free(small);
    ge_graph_free(large);
  }
  return 0;
}

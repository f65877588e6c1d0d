/* partition_bench — partitioning a large graph.
 *
 * Builds the mixed graph of place_bench (AI Core, GE local, AI CPU and host
 * CPU nodes, with residual edges) of N nodes, places it on the standard
 * engine set through a session stopped after placement, forces every 50th
 * compute node dynamic, and times:
 *   clusters   ge_clusters_create plus a TryMerge along every edge whose two
 *              ends share an engine (the engine partitioner's merge step);
 *   dynamic    ge_partition_dynamic: classification, merges, and wrapping
 *              every cluster into a PartitionedCall;
 *   engines    ge_partition_engines (atomic): merges, and the pieces with
 *              PlaceHolder/End pairs on every cut edge;
 *   merge      ge_engine_partition_merge of those pieces back into one graph;
 * Placement is the session's pipeline; the four steps after it are timed
 * one by one through ge_partition.h's own calls, as a compiler vendoring
 * that header makes them, with the session's engines.
 * Median of R runs after a warm-up, for N and 10·N nodes (the runs of the
 * two sizes interleaved, so the ratio is not skewed by a slow spell of the
 * machine).
 *
 *   make bench                      (N = 10,000, R = 3: 10k and 100k nodes)
 *   build/partition_bench [N] [R]
 */
#define _POSIX_C_SOURCE 200809L
#define GE_IMPLEMENTATION
#include "ge_engines/ge_engines.h"
#include "ge_partition.h"
#include "ge_session.h"
#include "bench/mixed_graph.h"

/* The mixed graph of about n nodes as graph `id` of session s, placed by
 * its pipeline (s stops after placement: GE_COMPILE_PLACE), a copy taken,
 * every 50th compute node forced dynamic. */
static ge_graph *build(ge_session *s, uint32_t id, uint32_t n) {
  ge_graph *g;
  ge_error err;
  ge_node *node;
  uint32_t i = 0;
  bench_ok(ge_session_add_graph(s, id, mixed_graph(n), &err), &err, "add graph");
  bench_ok(ge_session_compile_graph(s, id, &err), &err, "place");
  bench_ok(ge_graph_clone(ge_session_graph(s, id), NULL, &g, &err), &err, "clone");
  GE_GRAPH_FOREACH(g, node) if (strcmp(node->op, "Data") && strcmp(node->op, "Const") && ++i % 50 == 0) node->flags |= GE_NODE_FORCE_DYNAMIC;
  return g;
}

/* TryMerge along every edge joining two nodes of one engine. */
static uint32_t engine_clusters(ge_graph *g) {
  ge_clusters *c;
  ge_error err;
  ge_node *n;
  uint32_t merged = 0, k;
  bench_ok(ge_clusters_create(g, &c, &err), &err, "clusters");
  GE_GRAPH_FOREACH(g, n) {
    for (k = 0; k < n->num_inputs; k++) {
      const ge_node *p = ge_graph_node(g, n->inputs[k].node);
      if (p && p->engine == n->engine && ge_clusters_try_merge(c, p->id, n->id) != GE_NONE) merged++;
    }
  }
  ge_clusters_free(c);
  return merged;
}

static const ge_engine *engines[GE_PLACE_MAX_ENGINES];
static uint32_t num_engines;

/* Seconds of one run of a step on a fresh copy of g. */
static double run_step(ge_graph *g, int step) {
  ge_graph *w, *m = NULL;
  ge_error err;
  ge_dynamic_partition_desc d;
  ge_engine_partition p;
  double t0, t;
  bench_ok(ge_graph_clone(g, NULL, &w, &err), &err, "clone");
  memset(&d, 0, sizeof d);
  memset(&p, 0, sizeof p);
  d.engines = engines;
  d.num_engines = num_engines;
  t0 = bench_now();
  if (step == 0) engine_clusters(w);
  else if (step == 1) bench_ok(ge_partition_dynamic(w, &d, &err), &err, "partition");
  else {
    bench_ok(ge_partition_engines(w, engines, num_engines, 0, &p, &err), &err, "engines");
    if (step == 3) {
      t0 = bench_now();
      bench_ok(ge_engine_partition_merge(&p, &m, &err), &err, "merge");
    }
  }
  t = bench_now() - t0;
  ge_engine_partition_free(&p);
  ge_graph_free(m);
  ge_graph_free(w);
  return t;
}

/* Medians over r runs (after one warm-up each) of one step on the small and
 * the large graph, the runs interleaved so that the machine's slow spells
 * fall on both sizes alike. */
static void time_step(ge_graph *small, ge_graph *large, int step, int r, double *ts, double *tl) {
  double a[64], b[64];
  int i;
  for (i = 0; i <= r; i++) {
    double x = run_step(small, step), y = run_step(large, step);
    if (i) a[i - 1] = x, b[i - 1] = y;
  }
  qsort(a, (size_t)r, sizeof *a, bench_cmp_double);
  qsort(b, (size_t)r, sizeof *b, bench_cmp_double);
  *ts = a[r / 2], *tl = b[r / 2];
}

int main(int argc, char **argv) {
  uint32_t n = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 10) : 100000;
  int r = argc > 2 ? atoi(argv[2]) : 3, step;
  const ge_engine_registry *reg;
  ge_session_desc sd;
  ge_session *s;
  ge_error err;
  ge_graph *small, *large;
  if (r < 1 || r > 64 || n < 10) {
    fprintf(stderr, "usage: partition_bench [N >= 10] [R 1..64]\n");
    return 2;
  }
  memset(&sd, 0, sizeof sd);
  sd.level = GE_COMPILE_PLACE;
  bench_ok(ge_session_create(&sd, &s, &err), &err, "session");
  reg = ge_session_engines(s); /* the passes below get the session's engines */
  for (num_engines = 0; num_engines < ge_engine_count(reg); num_engines++) engines[num_engines] = ge_engine_at(reg, (int32_t)num_engines);
  small = build(s, 1, n);
  large = build(s, 2, n * 10);
  printf("partitioning, median of %d after a warm-up\n", r);
  printf("%-10s %12s %12s %12s %10s\n", "step", "nodes", "ms", "ns/node", "10x ratio");
  for (step = 0; step < 4; step++) {
    static const char *const names[] = {"clusters", "dynamic", "engines", "merge"};
    double ts, tl;
    const char *name = names[step];
    time_step(small, large, step, r, &ts, &tl);
    printf("%-10s %12u %12.2f %12.1f\n", name, ge_graph_node_count(small), ts * 1e3, ts * 1e9 / ge_graph_node_count(small));
    printf("%-10s %12u %12.2f %12.1f %10.2f\n", name, ge_graph_node_count(large), tl * 1e3, tl * 1e9 / ge_graph_node_count(large), tl / ts);
  }
  ge_graph_free(small);
  ge_graph_free(large);
  ge_session_free(s);
  return 0;
}

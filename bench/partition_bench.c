/* partition_bench — partitioning a large graph.
 *
 * Builds the mixed graph of place_bench (AI Core, GE local, AI CPU and host
 * CPU nodes, with residual edges) of N nodes, places it on the standard
 * engine set, forces every 50th compute node dynamic, and times:
 *   clusters   ge_clusters_create plus a TryMerge along every edge whose two
 *              ends share an engine (the engine partitioner's merge step);
 *   dynamic    ge_partition_dynamic: classification, merges, and wrapping
 *              every cluster into a PartitionedCall;
 *   engines    ge_partition_engines (atomic): merges, and the pieces with
 *              PlaceHolder/End pairs on every cut edge;
 *   merge      ge_engine_partition_merge of those pieces back into one graph;
 * median of R runs after a warm-up, for N and 10·N nodes.
 *
 *   make bench                      (N = 10,000, R = 3: 10k and 100k nodes)
 *   build/partition_bench [N] [R]
 *
 * Building the partitioned graph is still quadratic (each PartitionedCall
 * is made by ge_graph_extract, which walks the whole graph), so N = 100,000
 * (and 1,000,000 for the 10x run) takes hours today.
 */
#define _POSIX_C_SOURCE 200809L
#define GE_IMPLEMENTATION
#include "ge_engines/ge_engines.h"
#include "ge_partition.h"

#include <stdlib.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void ok(ge_status st, const ge_error *err, const char *what) {
  if (st == GE_OK) return;
  fprintf(stderr, "partition_bench: %s failed: %s\n", what, err->message);
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
  t.dtype = GE_DTYPE_INT64, t.rank = rank, t.dims = (int64_t *)dims, t.data = (void *)vals;
  t.nbytes = n * sizeof(int64_t);
  ok(ge_graph_add_const(g, NULL, &t, &id, &err), &err, "const");
  return id;
}

/* About n nodes in blocks of 10, placed. */
static ge_graph *build(uint32_t n, ge_engine_registry *reg) {
  ge_graph *g;
  ge_error err;
  ge_graph_desc d;
  ge_place_desc pd;
  ge_node_id x, xi, prev, previ, shape_to, k, one;
  int64_t fd[2] = {16, 16}, id1[1] = {16}, two[1] = {2}, sv[2] = {16, 16}, kd[1] = {1}, kv[1] = {4}, ov[1] = {1};
  uint32_t i;
  ge_node *node;
  memset(&d, 0, sizeof d);
  d.name = "partition_bench";
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
    ge_node_id sm = add(g, "Add", 2, sh, one, -1);
    (void)t, (void)sm;
    prev = sum, previ = ai;
  }
  ok(ge_graph_infer_shapes(g, &err), &err, "infer");
  memset(&pd, 0, sizeof pd);
  pd.engines = reg;
  ok(ge_place(g, &pd, &err), &err, "place");
  i = 0;
  GE_GRAPH_FOREACH(g, node) if (strcmp(node->op, "Data") && strcmp(node->op, "Const") && ++i % 50 == 0) node->flags |= GE_NODE_FORCE_DYNAMIC;
  return g;
}

/* TryMerge along every edge joining two nodes of one engine. */
static uint32_t engine_clusters(ge_graph *g) {
  ge_clusters *c;
  ge_error err;
  ge_node *n;
  uint32_t merged = 0, k;
  ok(ge_clusters_create(g, &c, &err), &err, "clusters");
  GE_GRAPH_FOREACH(g, n) {
    for (k = 0; k < n->num_inputs; k++) {
      const ge_node *p = ge_graph_node(g, n->inputs[k].node);
      if (p && p->engine == n->engine && ge_clusters_try_merge(c, p->id, n->id) != GE_NONE) merged++;
    }
  }
  ge_clusters_free(c);
  return merged;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static const ge_engine *engines[GE_PLACE_MAX_ENGINES];
static uint32_t num_engines;

/* Median seconds over r runs (after one warm-up) of one step on fresh copies. */
static double time_step(ge_graph *g, int step, int r) {
  double t[32];
  int i;
  for (i = 0; i <= r; i++) {
    ge_graph *w;
    ge_error err;
    ge_dynamic_partition_desc d;
    double t0;
    ok(ge_graph_clone(g, NULL, &w, &err), &err, "clone");
    memset(&d, 0, sizeof d);
    d.host_cpu_engine = GE_ENGINE_INDEX_HOST_CPU;
    t0 = now();
    if (step == 1) ok(ge_partition_dynamic(w, &d, &err), &err, "partition");
    else if (step == 0) engine_clusters(w);
    else {
      ge_engine_partition p;
      ge_graph *m = NULL;
      ok(ge_partition_engines(w, engines, num_engines, 0, &p, &err), &err, "engines");
      if (step == 3) {
        t0 = now();
        ok(ge_engine_partition_merge(&p, &m, &err), &err, "merge");
      }
      if (i) t[i - 1] = now() - t0;
      ge_engine_partition_free(&p);
      ge_graph_free(m);
      ge_graph_free(w);
      continue;
    }
    if (i) t[i - 1] = now() - t0;
    ge_graph_free(w);
  }
  qsort(t, (size_t)r, sizeof *t, cmp);
  return t[r / 2];
}

int main(int argc, char **argv) {
  uint32_t n = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 10) : 100000;
  int r = argc > 2 ? atoi(argv[2]) : 3, step;
  ge_engine_registry *reg;
  ge_error err;
  ge_graph *small, *large;
  if (r < 1 || r > 32 || n < 10) {
    fprintf(stderr, "usage: partition_bench [N >= 10] [R 1..32]\n");
    return 2;
  }
  ok(ge_engine_registry_create(NULL, &reg, &err), &err, "registry");
  ok(ge_engines_register_standard(reg, &err), &err, "engines");
  for (num_engines = 0; num_engines < ge_engine_count(reg); num_engines++) engines[num_engines] = ge_engine_at(reg, (int32_t)num_engines);
  small = build(n, reg);
  large = build(n * 10, reg);
  printf("partitioning, median of %d after a warm-up\n", r);
  printf("%-10s %12s %12s %12s %10s\n", "step", "nodes", "ms", "ns/node", "10x ratio");
  for (step = 0; step < 4; step++) {
    static const char *const names[] = {"clusters", "dynamic", "engines", "merge"};
    double ts = time_step(small, step, r), tl = time_step(large, step, r);
    const char *name = names[step];
    printf("%-10s %12u %12.2f %12.1f\n", name, ge_graph_node_count(small), ts * 1e3, ts * 1e9 / ge_graph_node_count(small));
    printf("%-10s %12u %12.2f %12.1f %10.2f\n", name, ge_graph_node_count(large), tl * 1e3, tl * 1e9 / ge_graph_node_count(large), tl / ts);
  }
  ge_graph_free(small);
  ge_graph_free(large);
  ge_engine_registry_free(reg);
  return 0;
}

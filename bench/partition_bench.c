/* partition_bench — partitioning a large graph, through the session.
 *
 * Builds the mixed graph of place_bench (AI Core, GE local, AI CPU and host
 * CPU nodes, with residual edges) of N nodes, forces every 50th compute node
 * dynamic, and compiles it with a session stopped after partitioning
 * (GE_COMPILE_PARTITION). The session's logger reports each stage's time;
 * this bench reads three of them:
 *   place      placement with the host-CPU reassign passes;
 *   dynamic    dynamic/static partitioning (merges, one PartitionedCall per
 *              cluster) and placement of the calls;
 *   engines    the engine pieces (clusters, PlaceHolder/End pairs on every
 *              cut edge), each optimised by its engine and merged back.
 * Median of R runs after a warm-up, for N and 10·N nodes (the runs of the
 * two sizes interleaved, so the ratio is not skewed by a slow spell of the
 * machine).
 *
 *   make bench                      (N = 10,000, R = 7: 10k and 100k nodes)
 *   build/partition_bench [N] [R]
 */
#define _POSIX_C_SOURCE 200809L
#define GE_IMPLEMENTATION
#include "ge_session.h"
#include "bench/mixed_graph.h"

enum { STEPS = 3 };
static const char *const step_names[STEPS] = {"place", "dynamic", "engines"};
/* The session's stage names (ge_session.h) of the steps above. */
static const char *const step_stages[STEPS] = {"placement with the host-CPU reassign passes",
                                               "dynamic/static partitioning and placement of the calls",
                                               "engine pieces optimised and merged back"};

/* One compile's stage times (ms) and the node count placement saw. */
typedef struct compile_times {
  double ms[STEPS];
  uint32_t nodes;
} compile_times;

/* The session's logger: "<stage>: <n> nodes (<t> ms)" for each stage. */
static void on_log(void *user, ge_log_level level, const char *module, const char *message) {
  compile_times *t = (compile_times *)user;
  int k;
  (void)level, (void)module;
  for (k = 0; k < STEPS; k++) {
    size_t len = strlen(step_stages[k]);
    uint32_t nodes;
    if (!strncmp(message, step_stages[k], len) && message[len] == ':') {
      if (sscanf(message + len, ": %u nodes (%lf ms)", &nodes, &t->ms[k]) != 2) t->ms[k] = -1;
      if (k == 0) t->nodes = nodes;
    }
  }
}

/* The mixed graph of about n nodes, every 50th compute node forced dynamic. */
static ge_graph *build(uint32_t n) {
  ge_graph *g = mixed_graph(n);
  ge_node *node;
  uint32_t i = 0;
  GE_GRAPH_FOREACH(g, node) if (strcmp(node->op, "Data") && strcmp(node->op, "Const") && ++i % 50 == 0) node->flags |= GE_NODE_FORCE_DYNAMIC;
  return g;
}

/* One compile of a fresh graph of about n nodes by a new session. */
static compile_times compile_once(uint32_t n) {
  compile_times t;
  ge_session_desc sd;
  ge_session *s;
  ge_error err;
  int k;
  memset(&t, 0, sizeof t);
  for (k = 0; k < STEPS; k++) t.ms[k] = -1;
  memset(&sd, 0, sizeof sd);
  sd.level = GE_COMPILE_PARTITION;
  sd.logger.fn = on_log, sd.logger.user = &t, sd.logger.level = GE_LOG_INFO;
  bench_ok(ge_session_create(&sd, &s, &err), &err, "session");
  bench_ok(ge_session_add_graph(s, 1, build(n), &err), &err, "add graph");
  bench_ok(ge_session_compile_graph(s, 1, &err), &err, "compile");
  ge_session_free(s);
  for (k = 0; k < STEPS; k++)
    if (t.ms[k] < 0) {
      fprintf(stderr, "partition_bench: the session did not report stage '%s'\n", step_stages[k]);
      exit(1);
    }
  return t;
}

static double median(double *v, int r) {
  qsort(v, (size_t)r, sizeof *v, bench_cmp_double);
  return v[r / 2];
}

int main(int argc, char **argv) {
  uint32_t n = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 10) : 100000, nodes[2] = {0, 0};
  int r = argc > 2 ? atoi(argv[2]) : 3, i, k, z;
  double ms[2][STEPS][64];
  (void)bench_now; /* bench_util.h's; the session times the stages */
  if (r < 1 || r > 64 || n < 10) {
    fprintf(stderr, "usage: partition_bench [N >= 10] [R 1..64]\n");
    return 2;
  }
  for (i = 0; i <= r; i++) /* one warm-up, then r runs; the sizes alternate */
    for (z = 0; z < 2; z++) {
      compile_times t = compile_once(z ? n * 10 : n);
      nodes[z] = t.nodes;
      for (k = 0; i && k < STEPS; k++) ms[z][k][i - 1] = t.ms[k];
    }
  printf("partitioning through the session, median of %d after a warm-up\n", r);
  printf("%-10s %12s %12s %12s %10s\n", "step", "nodes", "ms", "ns/node", "10x ratio");
  for (k = 0; k < STEPS; k++) {
    double small = median(ms[0][k], r), large = median(ms[1][k], r);
    printf("%-10s %12u %12.2f %12.1f\n", step_names[k], nodes[0], small, small * 1e6 / nodes[0]);
    printf("%-10s %12u %12.2f %12.1f %10.2f\n", step_names[k], nodes[1], large, large * 1e6 / nodes[1], large / small);
  }
  return 0;
}

/* graph_bench — the cost of the IR on a large graph.
 *
 * Builds a ladder of N nodes with residual edges (Relu and Add alternate;
 * each Add also reads the tensor three steps back), then times each step:
 * build, topological sort, validate, infer shapes, serialize, deserialize,
 * and (beyond the sequence) the structural hash.
 * Prints time per step and bytes per node (graph memory before attributes,
 * and the serialized size). Median of R repeats after one warm-up.
 *
 *   make bench                      (N = 1,000,000, R = 5)
 *   build/graph_bench [N] [R]
 */
#define _POSIX_C_SOURCE 200809L
#define GE_IMPLEMENTATION
#include "ge_graph.h"

#include <stdlib.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int check(ge_status st, const ge_error *err, const char *what) {
  if (st == GE_OK) return 1;
  fprintf(stderr, "graph_bench: %s failed: %s\n", what, err->message);
  exit(1);
}

static ge_graph *build_ladder(uint32_t n) {
  ge_graph_desc d;
  ge_graph *g;
  ge_error err;
  ge_node_id *ids = (ge_node_id *)malloc(sizeof(ge_node_id) * (n + 1));
  int64_t dims[2] = {1, 64};
  uint32_t i;
  char name[32];
  memset(&d, 0, sizeof d);
  d.name = "ladder";
  check(ge_graph_create(&d, &g, &err), &err, "create");
  check(ge_graph_add_data(g, "x", GE_DTYPE_FLOAT32, 2, dims, &ids[0], &err), &err, "add_data");
  for (i = 1; i < n; i++) {
    ge_edge in[2];
    in[0].node = ids[i - 1];
    in[0].index = 0;
    in[1].node = ids[i >= 3 ? i - 3 : 0];
    in[1].index = 0;
    snprintf(name, sizeof name, "n%u", (unsigned)i);
    check(ge_graph_add_node(g, i % 2 ? "Relu" : "Add", name, i % 2 ? 1 : 2, in, 1, &ids[i], &err), &err,
          "add_node");
  }
  {
    ge_edge out;
    out.node = ids[n - 1];
    out.index = 0;
    check(ge_graph_set_outputs(g, 1, &out, NULL, &err), &err, "set_outputs");
  }
  free(ids);
  return g;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

enum { BUILD, SORT, VALIDATE, INFER, SERIALIZE, DESERIALIZE, SEQUENCE = DESERIALIZE + 1, HASH = SEQUENCE, STEPS };
static const char *const step_names[STEPS] = {"build", "topo sort (BFS)", "validate", "infer shapes",
                                              "serialize", "deserialize", "hash (extra)"};

int main(int argc, char **argv) {
  uint32_t n = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 10) : 1000000;
  int reps = argc > 2 ? atoi(argv[2]) : 5, r, s;
  double times[STEPS][64], total = 0, med[STEPS];
  size_t graph_bytes = 0, serial_bytes = 0;
  if (n < 4 || reps < 1 || reps > 63) {
    fprintf(stderr, "usage: graph_bench [N >= 4] [repeats 1..63]\n");
    return 2;
  }
  for (r = 0; r <= reps; r++) { /* r == 0 is the warm-up */
    ge_error err;
    ge_graph *g, *back;
    ge_node_id *order = (ge_node_id *)malloc(sizeof(ge_node_id) * (n + 1));
    uint8_t *bytes;
    size_t size;
    uint64_t hash;
    double t[STEPS + 1];
    t[0] = now();
    g = build_ladder(n);
    t[1] = now();
    check(ge_graph_topo_sort(g, GE_TOPO_BFS, order, &err), &err, "topo sort");
    t[2] = now();
    check(ge_graph_validate(g, NULL, &err), &err, "validate");
    t[3] = now();
    check(ge_graph_infer_shapes(g, &err), &err, "infer shapes");
    t[4] = now();
    check(ge_graph_serialize(g, &bytes, &size, &err), &err, "serialize");
    t[5] = now();
    check(ge_graph_deserialize(bytes, size, NULL, &back, &err), &err, "deserialize");
    t[6] = now();
    check(ge_graph_hash(g, &hash, &err), &err, "hash");
    t[7] = now();
    if (ge_graph_node_count(back) != ge_graph_node_count(g)) {
      fprintf(stderr, "graph_bench: round trip lost nodes\n");
      return 1;
    }
    for (s = 0; s < STEPS; s++) times[s][r] = t[s + 1] - t[s];
    graph_bytes = ge_graph_memory_used(g);
    serial_bytes = size;
    ge_graph_free_bytes(g, bytes, size);
    ge_graph_free(back);
    ge_graph_free(g);
    free(order);
  }
  printf("graph_bench: ladder of %u nodes with residual edges, median of %d runs after a warm-up\n", (unsigned)n,
         reps);
  printf("%-18s %10s %12s\n", "step", "ms", "ns/node");
  for (s = 0; s < STEPS; s++) {
    qsort(&times[s][1], (size_t)reps, sizeof(double), cmp_double);
    med[s] = times[s][1 + reps / 2];
    if (s < SEQUENCE) total += med[s];
  }
  for (s = 0; s < SEQUENCE; s++) printf("%-18s %10.1f %12.1f\n", step_names[s], med[s] * 1e3, med[s] * 1e9 / n);
  printf("%-18s %10.1f %12.1f   (goal: under 1000 ms)\n", "total", total * 1e3, total * 1e9 / n);
  printf("%-18s %10.1f %12.1f\n", step_names[HASH], med[HASH] * 1e3, med[HASH] * 1e9 / n);
  printf("graph memory: %.1f bytes/node (no attributes; goal under 256); serialized: %.1f bytes/node\n",
         (double)graph_bytes / n, (double)serial_bytes / n);
  return 0;
}

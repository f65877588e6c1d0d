/* Writes a few valid graph files into a directory, as a fuzzing corpus:
 *   build/fuzz_seeds DIR */
#define GE_IMPLEMENTATION
#include "ge_graph.h"

static int save(ge_graph *g, const char *dir, const char *name) {
  char path[512];
  ge_error err;
  snprintf(path, sizeof path, "%s/%s", dir, name);
  if (ge_graph_save(g, path, &err)) {
    fprintf(stderr, "fuzz_seeds: %s\n", err.message);
    return 1;
  }
  return 0;
}

int main(int argc, char **argv) {
  ge_graph *g, *body;
  ge_node_id x, c, call, inner;
  ge_edge in[2];
  int64_t dims[2] = {-1, 4}, ints[2] = {1, 2};
  ge_dim_info info[2] = {{1, 8, "N"}, {0, -1, NULL}};
  float w[4] = {1, 2, 3, 4};
  ge_tensor t;
  int rc = 0;
  if (argc != 2) return 2;
  ge_graph_create(NULL, &g, NULL);
  ge_graph_add_data(g, "x", GE_DTYPE_FLOAT32, 2, dims, &x, NULL);
  ge_node_set_output(g, x, 0, GE_DTYPE_FLOAT32, 2, dims, info, NULL);
  memset(&t, 0, sizeof t);
  t.dtype = GE_DTYPE_FLOAT32;
  t.rank = 1;
  t.dims = dims + 1;
  t.data = w;
  t.nbytes = sizeof w;
  ge_graph_add_const(g, "w", &t, &c, NULL);
  in[0].node = x, in[0].index = 0, in[1].node = c, in[1].index = 0;
  ge_graph_create(NULL, &body, NULL);
  ge_graph_add_data(body, "a", GE_DTYPE_FLOAT32, 2, dims, &inner, NULL);
  ge_node_set_attr_int(body, inner, "parent_index", 0, NULL);
  in[0].node = inner;
  ge_graph_set_outputs(body, 1, in, NULL, NULL);
  in[0].node = x;
  ge_graph_add_node(g, "PartitionedCall", "call", 2, in, 1, &call, NULL);
  ge_node_set_attr_graph(g, call, "f", body, NULL);
  ge_node_set_attr_ints(g, call, "list", ints, 2, NULL);
  ge_node_set_attr_string(g, call, "s", "text", NULL);
  ge_graph_add_control(g, c, call, NULL);
  in[0].node = call;
  ge_graph_set_outputs(g, 1, in, NULL, NULL);
  rc |= save(g, argv[1], "seed1.geg");
  ge_graph_free(g);
  ge_graph_create(NULL, &g, NULL);
  rc |= save(g, argv[1], "empty.geg");
  ge_graph_free(g);
  return rc;
}

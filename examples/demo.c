/* demo — build a small CNN with the C API, infer its shapes with a symbolic
 * batch dimension, validate it, print it, save it and load it back.
 *
 *   cc -std=c99 -I. examples/demo.c -lm -o demo && ./demo [OUT.geg]
 */
#define GE_IMPLEMENTATION
#include "ge_graph.h"

#include <stdlib.h>

/* Stops the demo with the error when a call fails. */
static void must(ge_status st, const ge_error *err) {
  if (st == GE_OK) return;
  fprintf(stderr, "demo: %s: %s\n", ge_status_name(st), err->message);
  exit(1);
}

static ge_edge out0(ge_node_id n) {
  ge_edge e;
  e.node = n;
  e.index = 0;
  return e;
}

/* A Const holding a float tensor of the given shape, filled with a ramp. */
static ge_node_id weight(ge_graph *g, const char *name, int32_t rank, const int64_t *dims, ge_error *err) {
  ge_tensor t;
  ge_node_id id;
  int64_t n = 1, i;
  float *data;
  int32_t k;
  for (k = 0; k < rank; k++) n *= dims[k];
  data = (float *)malloc(sizeof(float) * (size_t)n);
  for (i = 0; i < n; i++) data[i] = (float)((i * 37) % 17 - 8) / 64.0f;
  memset(&t, 0, sizeof t);
  t.dtype = GE_DTYPE_FLOAT32;
  t.rank = rank;
  t.dims = (int64_t *)dims;
  t.data = data;
  t.nbytes = sizeof(float) * (size_t)n;
  must(ge_graph_add_const(g, name, &t, &id, err), err);
  free(data);
  return id;
}

/* One op reading the given tensors; returns its id. */
static ge_node_id op(ge_graph *g, const char *type, const char *name, uint32_t n, const ge_node_id *in, ge_error *err) {
  ge_edge e[4];
  ge_node_id id;
  uint32_t i;
  for (i = 0; i < n; i++) e[i] = out0(in[i]);
  must(ge_graph_add_node(g, type, name, n, e, -1, &id, err), err);
  return id;
}

int main(int argc, char **argv) {
  const char *path = argc > 1 ? argv[1] : "build/demo.geg";
  ge_graph_desc desc;
  ge_graph *g, *back;
  ge_error err;
  ge_node_id x, w1, c1, r1, p1, w2, c2, r2, gap, flat, fcw, fcb, fc, sm, in[3];
  int64_t xdims[4] = {-1, 3, 32, 32}, w1d[4] = {16, 3, 3, 3}, w2d[4] = {32, 16, 3, 3}, fcwd[2] = {10, 32},
          fcbd[1] = {10}, pads[4] = {1, 1, 1, 1}, two[2] = {2, 2};
  ge_dim_info batch[4] = {{1, 64, "N"}, {0, -1, NULL}, {0, -1, NULL}, {0, -1, NULL}};
  const char *out_name = "probs";
  uint64_t h1, h2;
  ge_edge result;

  memset(&desc, 0, sizeof desc);
  desc.name = "tiny_cnn";
  must(ge_graph_create(&desc, &g, &err), &err);

  /* input: a batch of N RGB 32x32 images, N in 1..64 */
  must(ge_graph_add_data(g, "image", GE_DTYPE_FLOAT32, 4, xdims, &x, &err), &err);
  must(ge_node_set_output(g, x, 0, GE_DTYPE_FLOAT32, 4, xdims, batch, &err), &err);

  w1 = weight(g, "conv1.weight", 4, w1d, &err);
  in[0] = x, in[1] = w1;
  c1 = op(g, "Conv", "conv1", 2, in, &err);
  must(ge_node_set_attr_ints(g, c1, "pads", pads, 4, &err), &err);
  r1 = op(g, "Relu", "relu1", 1, &c1, &err);
  p1 = op(g, "MaxPool", "pool1", 1, &r1, &err);
  must(ge_node_set_attr_ints(g, p1, "kernel_shape", two, 2, &err), &err);
  must(ge_node_set_attr_ints(g, p1, "strides", two, 2, &err), &err);
  w2 = weight(g, "conv2.weight", 4, w2d, &err);
  in[0] = p1, in[1] = w2;
  c2 = op(g, "Conv", "conv2", 2, in, &err);
  must(ge_node_set_attr_ints(g, c2, "pads", pads, 4, &err), &err);
  r2 = op(g, "Relu", "relu2", 1, &c2, &err);
  gap = op(g, "GlobalAveragePool", "gap", 1, &r2, &err);
  flat = op(g, "Flatten", "flatten", 1, &gap, &err);
  fcw = weight(g, "fc.weight", 2, fcwd, &err);
  fcb = weight(g, "fc.bias", 1, fcbd, &err);
  in[0] = flat, in[1] = fcw, in[2] = fcb;
  fc = op(g, "Gemm", "fc", 3, in, &err);
  must(ge_node_set_attr_int(g, fc, "transB", 1, &err), &err);
  sm = op(g, "Softmax", "softmax", 1, &fc, &err);
  result = out0(sm);
  must(ge_graph_set_outputs(g, 1, &result, &out_name, &err), &err);

  must(ge_graph_infer_shapes(g, &err), &err);
  must(ge_graph_validate(g, NULL, &err), &err);
  must(ge_graph_hash(g, &h1, &err), &err);

  printf("== the graph, shapes inferred (N is the symbolic batch)\n");
  ge_graph_dump(g, stdout);

  must(ge_graph_save(g, path, &err), &err);
  must(ge_graph_load(path, NULL, &back, &err), &err);
  must(ge_graph_hash(back, &h2, &err), &err);
  printf("\n== saved to %s and loaded back: %u nodes, structural hash %016llx %s\n", path,
         (unsigned)ge_graph_node_count(back), (unsigned long long)h2, h1 == h2 ? "(same)" : "(DIFFERENT)");
  ge_graph_free(back);
  ge_graph_free(g);
  return h1 == h2 ? 0 : 1;
}

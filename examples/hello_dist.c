/* Builds against the amalgamation with one call:
 *   cc -std=c99 -I dist examples/hello_dist.c -lm -o hello_dist
 * Builds y = Relu(x + x), infers its shape and checks the result. */
#define GE_IMPLEMENTATION
#include "ge.h"

int main(void) {
  ge_graph *g;
  ge_error err;
  ge_node_id x, add, relu;
  ge_edge in[2];
  int64_t dims[2] = {2, 3};
  if (ge_graph_create(NULL, &g, &err)) return 1;
  if (ge_graph_add_data(g, "x", GE_DTYPE_FLOAT32, 2, dims, &x, &err)) return 1;
  in[0].node = in[1].node = x;
  in[0].index = in[1].index = 0;
  if (ge_graph_add_node(g, "Add", "add", 2, in, -1, &add, &err)) return 1;
  in[0].node = add;
  if (ge_graph_add_node(g, "Relu", "relu", 1, in, -1, &relu, &err)) return 1;
  in[0].node = relu;
  if (ge_graph_set_outputs(g, 1, in, NULL, &err) || ge_graph_infer_shapes(g, &err) ||
      ge_graph_validate(g, NULL, &err)) {
    fprintf(stderr, "hello_dist: %s\n", err.message);
    return 1;
  }
  ge_graph_dump(g, stdout);
  {
    const ge_shape *s = &ge_graph_node(g, relu)->outputs[0].shape;
    int ok = s->rank == 2 && s->dims[0] == 2 && s->dims[1] == 3;
    printf("hello from dist/ge.h: relu is [%lld,%lld] %s\n", (long long)s->dims[0], (long long)s->dims[1],
           ok ? "as expected" : "WRONG");
    ge_graph_free(g);
    return ok ? 0 : 1;
  }
}

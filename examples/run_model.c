/* Compiles and runs an ONNX model through a session (the README's example):
 *   cc -std=c99 -O2 -I. examples/run_model.c -lm -o run_model
 *   ./run_model examples/models/tiny_cnn.onnx
 * feeds an input of ones and prints the first output's shape and values. */
#define GE_IMPLEMENTATION
#include "ge_session.h"

int main(int argc, char **argv) {
  ge_session *s;
  ge_error err;
  ge_value x;
  const ge_value *in[1] = {&x}, *y;
  const ge_tensor_desc *want;
  float *data;
  int64_t i;
  if (argc != 2) return fprintf(stderr, "usage: run_model MODEL.onnx\n"), 2;
  if (ge_session_create(NULL, &s, &err) || ge_session_add_graph_file(s, 1, argv[1], &err) ||
      ge_session_load_graph(s, 1, &err)) /* compiles, then lowers and allocates */
    return fprintf(stderr, "run_model: %s\n", err.message), 1;
  want = ge_program_input_desc(ge_session_program(s, 1), 0); /* the model's first input */
  if (want->dtype != GE_DTYPE_FLOAT32) return fprintf(stderr, "run_model: input 0 is not float32\n"), 1;
  memset(&x, 0, sizeof x);
  for (i = 0; i < want->shape.rank; i++) x.dims[i] = want->shape.dims[i] < 0 ? 1 : want->shape.dims[i];
  ge_value_set_shape(&x, GE_DTYPE_FLOAT32, want->shape.rank, x.dims);
  x.data = data = (float *)malloc(x.nbytes ? x.nbytes : 1);
  for (i = 0; i < x.numel; i++) data[i] = 1.0f;
  if (ge_session_run_graph(s, 1, in, 1, &err)) return fprintf(stderr, "run_model: %s\n", err.message), 1;
  y = ge_session_output(s, 1, 0);
  printf("output 0: %s, %lld values:", ge_dtype_name(y->dtype), (long long)y->numel);
  for (i = 0; i < y->numel && i < 4; i++) printf(" %g", (double)((const float *)y->data)[i]);
  printf("\n");
  free(data);
  ge_session_free(s);
  return 0;
}

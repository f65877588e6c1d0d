/* libFuzzer target for the ONNX reader (ge_onnx_load_buffer) and the
 * TensorProto reader (ge_onnx_read_tensor). Whatever loads is validated,
 * hashed and written back; what is written must load again with the same
 * structural hash, and writing that must give the same bytes (an abort
 * otherwise, which libFuzzer reports).
 *
 *   clang -std=c99 -g -O1 -fsanitize=fuzzer,address,undefined -I. \
 *       tests/fuzz/fuzz_onnx.c -o build/fuzz_onnx -lm
 *   mkdir -p build/fuzz_onnx_corpus
 *   cp <a few conformance model.onnx and .pb files> build/fuzz_onnx_corpus/
 *   build/fuzz_onnx -max_total_time=600 build/fuzz_onnx_corpus
 */
#define GE_IMPLEMENTATION
#include "ge_onnx.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_round_trip(ge_graph *g) {
  uint8_t *b1 = NULL, *b2 = NULL;
  size_t n1 = 0, n2 = 0;
  uint64_t h1 = 0, h2 = 0;
  ge_graph *g2 = NULL;
  ge_error err;
  if (ge_graph_hash(g, &h1, &err) != GE_OK) abort(); /* import gives acyclic graphs */
  if (ge_onnx_save_buffer(g, &b1, &n1, &err) != GE_OK) {
    if (err.code != GE_ERR_NOMEM) abort(); /* whatever was imported can be written */
    return;
  }
  if (ge_onnx_load_buffer(b1, n1, NULL, NULL, &g2, &err) != GE_OK) abort();
  if (ge_graph_hash(g2, &h2, &err) != GE_OK || h1 != h2) abort();
  if (ge_onnx_save_buffer(g2, &b2, &n2, &err) != GE_OK) abort();
  if (n1 != n2 || memcmp(b1, b2, n1) != 0) abort();
  ge_graph_free_bytes(g2, b2, n2);
  ge_graph_free(g2);
  ge_graph_free_bytes(g, b1, n1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  ge_graph *g = NULL;
  ge_onnx_tensor t;
  ge_error err;
  ge_validate_desc vd;
  vd.allow_unknown_ops = 1;
  if (ge_onnx_load_buffer(data, size, NULL, NULL, &g, &err) == GE_OK) {
    ge_graph_validate(g, &vd, &err);
    check_round_trip(g);
    ge_graph_free(g);
  } else if (g != NULL || err.code >= 0 || !err.message[0]) {
    abort(); /* a failure sets the error and leaves no graph */
  }
  if (ge_onnx_read_tensor(data, size, NULL, &t, &err) == GE_OK) {
    if (t.dtype == GE_DTYPE_STRING) {
      int64_t i;
      for (i = 0; i < t.numel; i++)
        if (!((char **)t.data)[i]) abort();
    }
    ge_onnx_tensor_free(&t);
  }
  return 0;
}

/* libFuzzer target for the graph file reader (ge_graph_deserialize).
 * The checksum is compiled out so the fuzzer reaches the parser itself;
 * whatever loads is serialized, hashed, validated and freed again.
 *
 *   make fuzz                               (builds build/fuzz_graph)
 *   build/fuzz_graph -max_total_time=600 build/fuzz_corpus
 */
#define GE__SERIAL_NO_CHECKSUM
#define GE_GRAPH_IMPLEMENTATION
#include "ge_graph.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  ge_graph *g = NULL;
  ge_error err;
  if (ge_graph_deserialize(data, size, NULL, &g, &err) == GE_OK) {
    uint8_t *bytes = NULL;
    size_t n = 0;
    uint64_t h;
    if (ge_graph_serialize(g, &bytes, &n, &err) == GE_OK) ge_graph_free_bytes(g, bytes, n);
    ge_graph_hash(g, &h, &err);
    ge_graph_validate(g, NULL, &err);
    ge_graph_free(g);
  }
  return 0;
}

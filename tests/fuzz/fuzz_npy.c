/* libFuzzer target for the .npy reader of the ge tool (tools/npy.h): the
 * bytes are decoded as a whole file; whatever decodes must have a shape
 * whose byte size matches what was read, and is written back out.
 *
 *   make fuzz                              (builds build/fuzz_npy)
 *   build/fuzz_npy -max_total_time=600 build/fuzz_npy_corpus
 */
#define GE_GRAPH_IMPLEMENTATION
#include "ge_graph.h"
#include "tools/npy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  ge_value v;
  ge_error err;
  size_t nbytes;
  if (npy_decode(data, size, "fuzz", &v, &err) == GE_OK) {
    if (!ge_dims_nbytes_checked(v.dtype, v.dims, v.rank, &nbytes) || nbytes != v.nbytes || v.nbytes > size) __builtin_trap();
    free(v.data);
  } else if (!err.message[0]) {
    __builtin_trap(); /* every refusal says why */
  }
  return 0;
}

/* libFuzzer target for running a small model on fuzzed inputs: the first
 * byte picks one of a few one-node graphs whose second input is an index or
 * shape tensor (Gather, Slice, Reshape, Tile, Expand, Loop's trip count);
 * the rest is two .npy files (a 2-byte little-endian length, then the
 * first file; the second file is what remains). The inputs are decoded by
 * the tool's .npy reader and run by the host CPU kernels with a 64 MiB
 * memory limit. Errors are fine; crashes, reads out of bounds and silent
 * refusals are not.
 *
 *   make fuzz                              (builds build/fuzz_run)
 *   build/fuzz_run -max_total_time=600 build/fuzz_run_corpus
 */
#define GE_IMPLEMENTATION
#include "ge_exec.h"
#include "ge_engines/host_cpu.h"
#include "tools/npy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const ops[] = {"Gather", "Slice", "Reshape", "Tile", "Expand", "Loop"};

static ge_edge edge(ge_node_id n, int32_t i) {
  ge_edge e;
  e.node = n;
  e.index = i;
  return e;
}

static ge_kernel_fn lookup(const ge_node *n, void *user) {
  (void)user;
  return ge_host_cpu_kernel(n);
}

/* y = OP(x, i) with x and i of any shape; Slice gets i as starts and ends
 * again negated; Loop runs an Identity body i times over x. */
static ge_graph *one_node(unsigned which, ge_error *err) {
  ge_graph *g = NULL, *body = NULL;
  ge_graph_desc gd;
  ge_node_id x, i, y, neg, b[3];
  ge_edge in[3];
  memset(&gd, 0, sizeof gd);
  gd.name = "fuzz";
  if (ge_graph_create(&gd, &g, err)) return NULL;
  if (ge_graph_add_data(g, "x", GE_DTYPE_UNDEFINED, GE_RANK_UNKNOWN, NULL, &x, err) ||
      ge_graph_add_data(g, "i", GE_DTYPE_UNDEFINED, GE_RANK_UNKNOWN, NULL, &i, err))
    goto fail;
  in[0] = edge(x, 0), in[1] = edge(i, 0);
  if (!strcmp(ops[which], "Slice")) {
    if (ge_graph_add_node(g, "Neg", "neg", 1, in + 1, 1, &neg, err)) goto fail;
    in[2] = edge(neg, 0);
    if (ge_graph_add_node(g, "Slice", "op", 3, in, 1, &y, err)) goto fail;
  } else if (!strcmp(ops[which], "Loop")) {
    gd.name = "body";
    if (ge_graph_create(&gd, &body, err)) goto fail;
    if (ge_graph_add_data(body, "iter", GE_DTYPE_INT64, 0, NULL, &b[0], err) ||
        ge_graph_add_data(body, "cond", GE_DTYPE_BOOL, 0, NULL, &b[1], err) ||
        ge_graph_add_data(body, "v", GE_DTYPE_UNDEFINED, GE_RANK_UNKNOWN, NULL, &b[2], err))
      goto fail;
    in[0] = edge(b[1], 0), in[1] = edge(b[2], 0), in[2] = edge(b[2], 0);
    if (ge_graph_set_outputs(body, 3, in, NULL, err)) goto fail;
    in[0] = edge(i, 0), in[1] = edge(GE_NONE, 0), in[2] = edge(x, 0);
    if (ge_graph_add_node(g, "Loop", "op", 3, in, 2, &y, err) || ge_node_set_attr_graph(g, y, "body", body, err)) goto fail;
    body = NULL; /* the node owns it */
    in[0] = edge(y, 0), in[1] = edge(y, 1);
    if (ge_graph_set_outputs(g, 2, in, NULL, err)) goto fail;
    return g;
  } else if (ge_graph_add_node(g, ops[which], "op", 2, in, 1, &y, err)) {
    goto fail;
  }
  in[0] = edge(y, 0);
  if (ge_graph_set_outputs(g, 1, in, NULL, err)) goto fail;
  return g;
fail:
  ge_graph_free(body);
  ge_graph_free(g);
  return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  ge_value x, i;
  const ge_value *ins[2] = {&x, &i};
  ge_graph *g;
  ge_program *p = NULL;
  ge_exec_desc d;
  ge_error err;
  size_t n1;
  unsigned which;
  if (size < 3) return 0;
  n1 = (size_t)data[1] | (size_t)data[2] << 8;
  if (n1 > size - 3) return 0;
  if (npy_decode(data + 3, n1, "x", &x, &err)) return 0;
  if (npy_decode(data + 3 + n1, size - 3 - n1, "i", &i, &err)) {
    free(x.data);
    return 0;
  }
  which = data[0] % (sizeof ops / sizeof ops[0]);
  /* a Loop runs as often as it is told: keep trip counts small enough to fuzz */
  if (!strcmp(ops[which], "Loop") && i.dtype == GE_DTYPE_INT64 && i.numel >= 1 && ((const int64_t *)i.data)[0] > 256) {
    free(x.data);
    free(i.data);
    return 0;
  }
  if ((g = one_node(which, &err)) != NULL) {
    memset(&d, 0, sizeof d);
    d.lookup = lookup;
    d.memory_limit = (uint64_t)64 << 20;
    if (ge_program_create(g, &d, &p, &err) == GE_OK) {
      err.message[0] = 0;
      if (ge_program_run(p, ins, 2, &err) != GE_OK && !err.message[0]) __builtin_trap(); /* a refusal says why */
      ge_program_free(p);
    }
    ge_graph_free(g);
  }
  free(x.data);
  free(i.data);
  return 0;
}

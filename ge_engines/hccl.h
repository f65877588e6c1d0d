/* ge_engines/hccl.h — DNN_HCCL, the collective communication engine.
 *
 * Part of ge. On Ascend, HCCL runs collectives between devices on streams
 * of its own (the engine is "independent"). It places ge's collective ops
 * (default domain; ge_graph.h documents them):
 *
 *   AllReduce      1 -> 1   attr reduction (sum, prod, max, min)
 *   Broadcast      n -> n   every input taken from rank root_rank
 *   AllGather      1 -> 1   every rank's input concatenated along axis 0
 *   ReduceScatter  1 -> 1   reduced, each rank keeps its slice of axis 0
 *
 * with attributes rank_size (int, default 1) and group ("" or
 * "hccl_world_group": the world).
 *
 * This build is single-process: the world has one rank, and there is no
 * transport (multi-process collectives over MPI come later). With one rank
 * every collective is the identity — a reduction over one contribution, a
 * broadcast from the only rank (root_rank 0), a gather or scatter of one
 * slice — so the kernels are real kernels for world size 1: each output is
 * a view of its input (ge_kernel_output_view, no copy where the executor
 * can alias). check_supported refuses what one process cannot do:
 *
 *   rank_size N != 1  "rank_size N needs N processes; multi-process
 *                      collectives are not built yet"
 *   another group, a reduction other than sum/prod/max/min, root_rank != 0,
 *   string tensors, Broadcast with unequal input and output counts, and
 *   AllGather/ReduceScatter of a scalar (no axis 0).
 *
 * Include after (or instead of) ge_graph.h; define GE_HCCL_IMPLEMENTATION
 * (or GE_IMPLEMENTATION) in one translation unit. Kernels are thread-safe.
 */
#ifndef GE_ENGINE_HCCL_H
#define GE_ENGINE_HCCL_H

#include "ge_graph.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The engine descriptor: "DNN_HCCL", accelerator "Hccl", cost 2, device,
 * GE_ENGINE_INDEPENDENT. */
GE_API const ge_engine *ge_hccl_engine(void);
/* The kernel for a collective node (default domain), or NULL. */
GE_API ge_kernel_fn ge_hccl_kernel(const ge_node *n);

#ifdef __cplusplus
}
#endif
#endif /* GE_ENGINE_HCCL_H */

#if defined(GE_IMPLEMENTATION) || defined(GE_HCCL_IMPLEMENTATION)
#ifndef GE_HCCL_IMPLEMENTATION_DONE
#define GE_HCCL_IMPLEMENTATION_DONE

#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Sorted by strcmp (ge_op_in_sorted). */
static const char *const ge__hccl_ops[] = {"AllGather", "AllReduce", "Broadcast", "ReduceScatter"};
#define GE__HCCL_NUM_OPS (sizeof ge__hccl_ops / sizeof ge__hccl_ops[0])

/* 1 when a one-rank world can run n's attributes; else 0 and the reason. */
static int ge__hccl_check_attrs(const ge_node *n, char *why, size_t cap) {
  int64_t rs = ge_node_attr_int(n, "rank_size", 1);
  const char *group = ge_node_attr_string(n, "group", "");
  if (rs != 1) {
    if (rs < 1) return ge_engine_why(why, cap, "rank_size %lld is not positive", (long long)rs);
    return ge_engine_why(why, cap, "rank_size %lld needs %lld processes; multi-process collectives are not built yet",
                         (long long)rs, (long long)rs);
  }
  if (*group && strcmp(group, "hccl_world_group"))
    return ge_engine_why(why, cap, "group '%s' is not hccl_world_group", group);
  if (!strcmp(n->op, "AllReduce") || !strcmp(n->op, "ReduceScatter")) {
    const char *red = ge_node_attr_string(n, "reduction", "sum");
    if (strcmp(red, "sum") && strcmp(red, "prod") && strcmp(red, "max") && strcmp(red, "min"))
      return ge_engine_why(why, cap, "reduction '%s' is not sum, prod, max or min", red);
  } else if (!strcmp(n->op, "Broadcast")) {
    int64_t root = ge_node_attr_int(n, "root_rank", 0);
    if (root != 0) return ge_engine_why(why, cap, "root_rank %lld is not the only rank, 0", (long long)root);
    if (n->num_inputs != n->num_outputs)
      return ge_engine_why(why, cap, "%u inputs but %u outputs", (unsigned)n->num_inputs, (unsigned)n->num_outputs);
  }
  return 1;
}

static int ge__hccl_check_supported(const ge_engine *e, const ge_graph *g, const ge_node *n, char *why, size_t cap) {
  uint32_t i;
  int axis0;
  (void)e;
  if (!ge_node_in_onnx_domain(n)) return ge_engine_why(why, cap, "domain '%s' is not ge's", n->domain);
  if (!ge_op_in_sorted(n->op, ge__hccl_ops, GE__HCCL_NUM_OPS)) return ge_engine_why(why, cap, "not a collective op");
  if (!ge__hccl_check_attrs(n, why, cap)) return 0;
  axis0 = !strcmp(n->op, "AllGather") || !strcmp(n->op, "ReduceScatter");
  for (i = 0; i < n->num_inputs; i++) {
    const ge_tensor_desc *x = ge_node_input_desc(g, n, i);
    if (!x) return ge_engine_why(why, cap, "input %u is absent", (unsigned)i);
    if (x->dtype == GE_DTYPE_STRING) return ge_engine_why(why, cap, "input %u is a string tensor", (unsigned)i);
    if (axis0 && x->shape.rank == 0)
      return ge_engine_why(why, cap, "a scalar has no axis 0");
  }
  return 1;
}

/* Every output i a view of input i; the attributes are checked on the
 * first run (the state marks that they passed). */
static ge_status ge__hccl_identity(ge_kernel_ctx *c) {
  uint32_t i;
  if (!c->state) {
    char why[160];
    if (!ge__hccl_check_attrs(c->node, why, sizeof why)) return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "%s", why);
    if (c->num_inputs != c->num_outputs)
      return ge_kernel_error(c, GE_ERR_INVALID, "%u inputs but %u outputs", (unsigned)c->num_inputs,
                             (unsigned)c->num_outputs);
    if (!(c->state = malloc(1))) return ge_kernel_error(c, GE_ERR_NOMEM, "out of memory");
  }
  for (i = 0; i < c->num_inputs; i++) {
    const ge_value *x = c->inputs[i];
    if (!x) return ge_kernel_error(c, GE_ERR_INVALID, "input %u is absent", (unsigned)i);
    if (!ge_kernel_output_view(c, i, x, x->rank, x->dims)) return c->err ? c->err->code : GE_ERR_INTERNAL;
  }
  return GE_OK;
}

GE_API ge_kernel_fn ge_hccl_kernel(const ge_node *n) {
  return ge_node_in_onnx_domain(n) && ge_op_in_sorted(n->op, ge__hccl_ops, GE__HCCL_NUM_OPS) ? ge__hccl_identity : NULL;
}

static ge_kernel_fn ge__hccl_engine_kernel(const ge_engine *e, const ge_node *n) {
  (void)e;
  return ge_hccl_kernel(n);
}

static const ge_engine ge__hccl_engine_desc = {
    GE_ENGINE_ABI_VERSION, "DNN_HCCL", "Hccl", 2, GE_RUNTIME_DEVICE, GE_ENGINE_INDEPENDENT, NULL,
    ge__hccl_check_supported, ge__hccl_engine_kernel, NULL, NULL, NULL, NULL, NULL};

GE_API const ge_engine *ge_hccl_engine(void) { return &ge__hccl_engine_desc; }

#ifdef __cplusplus
}
#endif
#endif /* GE_HCCL_IMPLEMENTATION_DONE */
#endif /* GE_HCCL_IMPLEMENTATION */

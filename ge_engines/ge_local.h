/* ge_engines/ge_local.h — DNN_VM_GE_LOCAL, the GE local engine.
 *
 * Part of ge. Holds the ops that compute nothing: graph inputs and outputs
 * (Data, NetOutput), weights (Const), NoOp, PartitionedCall, and the views
 * Reshape, Squeeze, Unsqueeze, Flatten and Identity, which run without
 * copying — their output shares the input's bytes (ge_kernel_output_view).
 * Data, Const, NetOutput, NoOp and PartitionedCall are handled by the
 * executor itself, so kernel() gives NULL for them.
 *
 * Define GE_GE_LOCAL_IMPLEMENTATION (or GE_IMPLEMENTATION) in one
 * translation unit. */
#ifndef GE_ENGINE_GE_LOCAL_H
#define GE_ENGINE_GE_LOCAL_H

#include "ge_graph.h"
#include "host_cpu.h"

#ifdef __cplusplus
extern "C" {
#endif

GE_API const ge_engine *ge_ge_local_engine(void);

#ifdef __cplusplus
}
#endif
#endif /* GE_ENGINE_GE_LOCAL_H */

#if defined(GE_IMPLEMENTATION) || defined(GE_GE_LOCAL_IMPLEMENTATION)
#ifndef GE_GE_LOCAL_IMPLEMENTATION_DONE
#define GE_GE_LOCAL_IMPLEMENTATION_DONE

#ifdef __cplusplus
extern "C" {
#endif

/* sorted by strcmp */
static const char *const ge__gl_structural[] = {"Const", "Data", "NetOutput", "NoOp", "PartitionedCall"};
static const char *const ge__gl_views[] = {"Flatten", "Identity", "Reshape", "Squeeze", "Unsqueeze"};

#define GE__GL_IN(op, set) ge_op_in_sorted(op, set, sizeof set / sizeof *set)

static int ge__gl_check(const ge_engine *e, const ge_graph *g, const ge_node *n, char *why, size_t cap) {
  const ge_tensor_desc *x;
  (void)e;
  if (!ge_node_in_onnx_domain(n)) return ge_engine_why(why, cap, "domain %s has no local ops", n->domain);
  if (GE__GL_IN(n->op, ge__gl_structural)) return 1;
  if (!GE__GL_IN(n->op, ge__gl_views)) return ge_engine_why(why, cap, "op %s is neither structural nor a view", n->op);
  x = ge_node_input_desc(g, n, 0);
  if (x && x->dtype == GE_DTYPE_STRING) return ge_engine_why(why, cap, "string tensors cannot be viewed, only copied");
  return 1;
}

static ge_kernel_fn ge__gl_kernel(const ge_engine *e, const ge_node *n) {
  (void)e;
  return GE__GL_IN(n->op, ge__gl_views) ? ge_host_cpu_kernel(n) : NULL; /* the reference views share bytes */
}

/* The views' attributes and Const shapes / axes, parsed once at load. */
static ge_kernel_fn ge__gl_prepare(const ge_engine *e, const ge_node *n) {
  return ge__gl_kernel(e, n) ? ge_host_cpu_prepare(n) : NULL;
}

static const ge_engine ge__gl_engine = {GE_ENGINE_ABI_VERSION, "DNN_VM_GE_LOCAL", NULL, 9, GE_RUNTIME_DEVICE,
                                        GE_ENGINE_ATTACH | GE_ENGINE_SKIP_ASSIGN_STREAM, NULL, ge__gl_check,
                                        ge__gl_kernel, NULL, NULL, NULL, NULL, ge__gl_prepare};

GE_API const ge_engine *ge_ge_local_engine(void) { return &ge__gl_engine; }

#ifdef __cplusplus
}
#endif
#endif /* GE_GE_LOCAL_IMPLEMENTATION_DONE */
#endif /* GE_GE_LOCAL_IMPLEMENTATION */

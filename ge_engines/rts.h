/* ge_engines/rts.h — DNN_VM_RTS, the runtime service engine.
 *
 * Part of ge. Runs control flow (If, Case, While, Loop, Scan) and the stream
 * and label ops the stream allocator inserts (StreamActive, StreamSwitch,
 * Send, Recv, LabelSet, LabelGoto, LabelSwitchByIndex) plus MemcpyAsync.
 * Control-flow nodes run as the executor's own kernels, which lower their
 * subgraphs (so kernel() gives NULL for them). In the one-queue executor the
 * stream and label ops have nothing left to order: their kernels do nothing,
 * which is their exact meaning there; MemcpyAsync copies.
 *
 * Define GE_RTS_IMPLEMENTATION (or GE_IMPLEMENTATION) in one translation unit.
 */
#ifndef GE_ENGINE_RTS_H
#define GE_ENGINE_RTS_H

#include "ge_graph.h"

#ifdef __cplusplus
extern "C" {
#endif

GE_API const ge_engine *ge_rts_engine(void);

#ifdef __cplusplus
}
#endif
#endif /* GE_ENGINE_RTS_H */

#if defined(GE_IMPLEMENTATION) || defined(GE_RTS_IMPLEMENTATION)
#ifndef GE_RTS_IMPLEMENTATION_DONE
#define GE_RTS_IMPLEMENTATION_DONE

#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* sorted by strcmp */
static const char *const ge__rts_control_flow[] = {"Case", "If", "Loop", "Scan", "While"};
static const char *const ge__rts_stream_ops[] = {"LabelGoto", "LabelSet", "LabelSwitchByIndex", "Recv",
                                                 "Send", "StreamActive", "StreamSwitch"};

#define GE__RTS_IN(op, set) ge_op_in_sorted(op, set, sizeof set / sizeof *set)

static int ge__rts_check(const ge_engine *e, const ge_graph *g, const ge_node *n, char *why, size_t cap) {
  (void)e, (void)g;
  if (!ge_node_in_onnx_domain(n)) return ge_engine_why(why, cap, "domain %s has no runtime ops", n->domain);
  if (GE__RTS_IN(n->op, ge__rts_control_flow) || GE__RTS_IN(n->op, ge__rts_stream_ops)) return 1;
  if (!strcmp(n->op, "MemcpyAsync")) {
    if (n->num_outputs && n->outputs[0].dtype == GE_DTYPE_STRING)
      return ge_engine_why(why, cap, "MemcpyAsync of string tensors is not a device copy");
    return 1;
  }
  return ge_engine_why(why, cap, "op %s is not a control-flow or stream op", n->op);
}

static ge_status ge__rts_nothing(ge_kernel_ctx *c) {
  (void)c;
  return GE_OK;
}

static ge_status ge__rts_memcpy(ge_kernel_ctx *c) {
  const ge_value *x = c->inputs[0];
  ge_value *y;
  if (!x) return ge_kernel_error(c, GE_ERR_INVALID, "missing input");
  if (!(y = ge_kernel_output(c, 0, x->dtype, x->rank, x->dims))) return c->err->code;
  if (x->nbytes && y->data != x->data) memcpy(y->data, x->data, x->nbytes);
  return GE_OK;
}

static ge_kernel_fn ge__rts_kernel(const ge_engine *e, const ge_node *n) {
  (void)e;
  if (!strcmp(n->op, "MemcpyAsync")) return ge__rts_memcpy;
  if (GE__RTS_IN(n->op, ge__rts_stream_ops)) return ge__rts_nothing;
  return NULL; /* control flow: the executor's own kernels */
}

static const ge_engine ge__rts_engine = {GE_ENGINE_ABI_VERSION, "DNN_VM_RTS", NULL, 2, GE_RUNTIME_DEVICE,
                                         GE_ENGINE_ATTACH, NULL, ge__rts_check, ge__rts_kernel, NULL, NULL, NULL, NULL, NULL};

GE_API const ge_engine *ge_rts_engine(void) { return &ge__rts_engine; }

#ifdef __cplusplus
}
#endif
#endif /* GE_RTS_IMPLEMENTATION_DONE */
#endif /* GE_RTS_IMPLEMENTATION */

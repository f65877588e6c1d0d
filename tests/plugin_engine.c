/* plugin_engine.c — an engine built as a shared library, for test_place:
 * "TestSwishEngine" (cost 3) runs Swish (domain test.plugin): y = x·sigmoid(x)
 * on float32. Built twice: with the current engine ABI, and with
 * -DPLUGIN_ABI=99 to check that another version is refused. */
#define GE_STATIC
#define GE_GRAPH_IMPLEMENTATION
#include "ge_graph.h"

#include <math.h>

#ifndef PLUGIN_ABI
#define PLUGIN_ABI GE_ENGINE_ABI_VERSION
#endif

static int swish_check(const ge_engine *e, const ge_graph *g, const ge_node *n, char *why, size_t cap) {
  const ge_tensor_desc *x = ge_node_input_desc(g, n, 0);
  (void)e;
  if (strcmp(n->op, "Swish") != 0 || !n->domain || strcmp(n->domain, "test.plugin") != 0)
    return ge_engine_why(why, cap, "only test.plugin.Swish");
  if (!x || x->dtype != GE_DTYPE_FLOAT32) return ge_engine_why(why, cap, "float32 only");
  return 1;
}

static ge_status swish(ge_kernel_ctx *c) {
  const ge_value *x = c->inputs[0];
  ge_value *y;
  int64_t i;
  if (!x) return ge_kernel_error(c, GE_ERR_INVALID, "missing input");
  if (!(y = ge_kernel_output(c, 0, x->dtype, x->rank, x->dims))) return c->err->code;
  for (i = 0; i < x->numel; i++) {
    float v = ((const float *)x->data)[i];
    ((float *)y->data)[i] = v / (1.0f + expf(-v));
  }
  return GE_OK;
}

static ge_kernel_fn swish_kernel(const ge_engine *e, const ge_node *n) {
  (void)e, (void)n;
  return swish;
}

static const ge_engine engine = {PLUGIN_ABI, "TestSwishEngine", "TestSwish", 3, GE_RUNTIME_DEVICE, 0, NULL,
                                 swish_check, swish_kernel, NULL, NULL, NULL, NULL, NULL};
static const ge_engine *const engines[] = {&engine};
static const ge_engine_plugin plugin = {PLUGIN_ABI, 1, engines};

#if defined(__GNUC__) || defined(__clang__)
__attribute__((visibility("default")))
#endif
const ge_engine_plugin *ge_engine_plugin_entry(void);
const ge_engine_plugin *ge_engine_plugin_entry(void) { return &plugin; }

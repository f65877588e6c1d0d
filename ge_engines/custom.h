/* ge_engines/custom.h — DNN_VM_CUSTOM, the engine of the user's own ops.
 *
 * Part of ge. Cost 0, so a custom op wins over every standard engine. The
 * user lists ops (domain, type, kernel, optional support check) and
 * registers the engine:
 *
 *   static const ge_custom_op ops[] = {{"my.domain", "Swish", swish_kernel, NULL}};
 *   ge_custom_engine ce;
 *   ge_custom_engine_init(&ce, ops, 1);
 *   ge_engine_register(registry, &ce.engine, &err);   (ce must outlive the registry)
 *
 * An op is matched by type and domain (NULL or "" for the default domain).
 * Nothing is allocated; the engine reads only the caller's table.
 *
 * Define GE_CUSTOM_IMPLEMENTATION (or GE_IMPLEMENTATION) in one translation
 * unit. */
#ifndef GE_ENGINE_CUSTOM_H
#define GE_ENGINE_CUSTOM_H

#include "ge_graph.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ge_custom_op {
  const char *domain; /* NULL or "": default domain */
  const char *op;
  ge_kernel_fn kernel;
  /* NULL: every node of this type; else 1 = yes, 0 = no with the reason */
  int (*check)(const ge_graph *g, const ge_node *n, char *why, size_t cap);
} ge_custom_op;

typedef struct ge_custom_engine {
  ge_engine engine; /* register &engine */
  const ge_custom_op *ops;
  uint32_t num_ops;
} ge_custom_engine;

GE_API void ge_custom_engine_init(ge_custom_engine *ce, const ge_custom_op *ops, uint32_t num_ops);

#ifdef __cplusplus
}
#endif
#endif /* GE_ENGINE_CUSTOM_H */

#if defined(GE_IMPLEMENTATION) || defined(GE_CUSTOM_IMPLEMENTATION)
#ifndef GE_CUSTOM_IMPLEMENTATION_DONE
#define GE_CUSTOM_IMPLEMENTATION_DONE

#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

static int ge__cu_same_domain(const char *a, const char *b) {
  return (!a || !*a) ? (!b || !*b) : (b && !strcmp(a, b));
}

static const ge_custom_op *ge__cu_find(const ge_engine *e, const ge_node *n) {
  const ge_custom_engine *ce = (const ge_custom_engine *)e->user;
  uint32_t i;
  for (i = 0; i < ce->num_ops; i++)
    if (!strcmp(ce->ops[i].op, n->op) && ge__cu_same_domain(ce->ops[i].domain, n->domain)) return &ce->ops[i];
  return NULL;
}

static int ge__cu_check(const ge_engine *e, const ge_graph *g, const ge_node *n, char *why, size_t cap) {
  const ge_custom_op *op = ge__cu_find(e, n);
  if (!op) return ge_engine_why(why, cap, "no custom op %s%s%s", n->domain ? n->domain : "", n->domain ? "." : "", n->op);
  return op->check ? op->check(g, n, why, cap) : 1;
}

static ge_kernel_fn ge__cu_kernel(const ge_engine *e, const ge_node *n) {
  const ge_custom_op *op = ge__cu_find(e, n);
  return op ? op->kernel : NULL;
}

GE_API void ge_custom_engine_init(ge_custom_engine *ce, const ge_custom_op *ops, uint32_t num_ops) {
  memset(ce, 0, sizeof *ce);
  ce->engine.abi_version = GE_ENGINE_ABI_VERSION;
  ce->engine.name = "DNN_VM_CUSTOM";
  ce->engine.cost = 0;
  ce->engine.runtime = GE_RUNTIME_DEVICE;
  ce->engine.check_supported = ge__cu_check;
  ce->engine.kernel = ge__cu_kernel;
  ce->engine.user = ce;
  ce->ops = ops;
  ce->num_ops = num_ops;
}

#ifdef __cplusplus
}
#endif
#endif /* GE_CUSTOM_IMPLEMENTATION_DONE */
#endif /* GE_CUSTOM_IMPLEMENTATION */

/* ge_place.h — the engine registry and placement.
 *
 * Part of ge. Include anywhere for the declarations; define
 * GE_PLACE_IMPLEMENTATION (or GE_IMPLEMENTATION) in one translation unit.
 * Needs only ge_graph.h (engines are plain ge_engine descriptors, see the
 * engine interface there) and, for plugins, dlopen.
 *
 * Placement chooses an engine for every node, in the root graph and in every
 * subgraph (seed 000 §4.4.2):
 *
 *   1. a node pinned by its `_specified_engine_name` attribute keeps that
 *      engine (an error if the engine is unknown, excluded or refuses it);
 *   2. otherwise the engines are tried by ascending cost (registration order
 *      breaks ties); excluded and composite engines are skipped; the first
 *      whose check_supported says yes wins. None: an error naming the node
 *      and every engine's reason;
 *   3. reassign passes: the host-exec flag moves every node but Data, Const,
 *      Variable, NetOutput and PartitionedCall to the host CPU engine; shape
 *      computations (Shape, Size) and nodes whose tensors all have at most 8
 *      elements move from device compute engines to the host CPU engine;
 *      the data-flow ops of one stack (Stack, StackPush, StackPop,
 *      StackClose), when any is dynamic, follow the engine of their Stack.
 *
 * The decision is written into each node: node->engine is the engine's
 * index in the registry, and the flag bits GE_NODE_PLACED_MASK say why
 * (ge_placed_by). ge_place_explain() recomputes, for one node, the reason
 * every cheaper engine was passed over.
 *
 * Step 2 runs on num_threads threads; each node's choice depends only on the
 * node, so the result is the same for any thread count.
 *
 * Thread safety: a registry is read-only once built and may be shared by
 * concurrent placements of different graphs.
 */
#ifndef GE_PLACE_H
#define GE_PLACE_H

#include "ge_graph.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GE_PLACE_MAX_ENGINES 32
/* Node attribute pinning a node to an engine (by registered name). */
#define GE_PLACE_ATTR_ENGINE "_specified_engine_name"

/* ------------------------------------------------------------- registry */

typedef struct ge_engine_registry ge_engine_registry;

GE_API ge_status ge_engine_registry_create(const ge_allocator *allocator, ge_engine_registry **out, ge_error *err);
/* Frees the registry and unloads its plugins. */
GE_API void ge_engine_registry_free(ge_engine_registry *r);
/* Registers an engine (kept by pointer: it must outlive the registry). Its
 * index is the number of engines registered before it. A wrong ABI version,
 * a duplicate name, a cost outside 0..10 or a missing function is an error. */
GE_API ge_status ge_engine_register(ge_engine_registry *r, const ge_engine *e, ge_error *err);
/* Loads a shared library and registers the engines its GE_ENGINE_PLUGIN_ENTRY
 * function returns; a library of another ABI version is refused. */
GE_API ge_status ge_engine_load_plugin(ge_engine_registry *r, const char *path, ge_error *err);
GE_API uint32_t ge_engine_count(const ge_engine_registry *r);
GE_API const ge_engine *ge_engine_at(const ge_engine_registry *r, int32_t index); /* NULL when out of range */
/* The registered engines by index, ge_engine_count of them: the array the
 * partitioner and the stream allocator take (valid while r lives and no
 * engine is added). */
GE_API const ge_engine *const *ge_engine_list(const ge_engine_registry *r);
/* Index of the engine with that registered or accelerator name, or -1. */
GE_API int32_t ge_engine_find(const ge_engine_registry *r, const char *name);
/* Index of the composite engine having the atomic engine as a member, or -1
 * (the atomic -> composite map used by composite partitioning). */
GE_API int32_t ge_engine_composite_of(const ge_engine_registry *r, int32_t atomic);
/* A ge_exec_desc lookup: the kernel of the node's engine (user = registry). */
GE_API ge_kernel_fn ge_engine_kernel_lookup(const ge_node *n, void *registry);
/* A ge_exec_desc prepare lookup: the prepare function of the node's engine
 * (NULL: none). */
GE_API ge_kernel_fn ge_engine_prepare_lookup(const ge_node *n, void *registry);

/* ------------------------------------------------------------ placement */

/* Why a node has its engine (stored in node->flags, GE_NODE_PLACED_MASK). */
typedef enum ge_placed_by {
  GE_PLACED_NONE = 0,          /* not placed */
  GE_PLACED_COST = 1,          /* the cheapest engine that supports it */
  GE_PLACED_PINNED = 2,        /* GE_PLACE_ATTR_ENGINE */
  GE_PLACED_HOST_EXEC = 3,     /* the host-exec flag */
  GE_PLACED_SHAPE_COMPUTE = 4, /* a shape computation, moved to the host CPU */
  GE_PLACED_SMALL_TENSOR = 5,  /* only small tensors, moved to the host CPU */
  GE_PLACED_DATA_FLOW = 6      /* a dynamic data-flow op, with its Stack */
} ge_placed_by;

typedef struct ge_place_desc {
  const ge_engine_registry *engines; /* required */
  const char *engine_type;     /* ge.engineType: "AIcoreEngine" (default) or "VectorEngine" */
  const char *exclude_engines; /* ge.exec.exclude_engines: accelerator names, comma-separated */
  int host_exec;               /* ge.exec.hostExecFlag: 1 = run on the host CPU engine */
  int32_t small_tensor_limit;  /* elements; 0: 8 (GE's); -1: no small-tensor pass */
  int num_threads;             /* 0: 1 */
  ge_logger logger;            /* GE_LOG_DEBUG: every node's engine and why */
} ge_place_desc;

/* Sets a desc field from a GE option key and value (value is kept by
 * pointer). An unknown key is GE_ERR_NOT_FOUND, a bad value GE_ERR_INVALID,
 * both with a message naming them. */
GE_API ge_status ge_place_set_option(ge_place_desc *d, const char *key, const char *value, ge_error *err);

/* Places every node of g and of its subgraphs. */
GE_API ge_status ge_place(ge_graph *g, const ge_place_desc *d, ge_error *err);

/* Runs every usable engine's optimiser, in cost order, over g and then over
 * each subgraph under it: the original-graph optimisers (before placement),
 * or the subgraph optimisers (after placement; each sees the nodes placed
 * on it). */
typedef enum ge_optimize_stage { GE_OPTIMIZE_ORIGINAL = 0, GE_OPTIMIZE_SUBGRAPH = 1 } ge_optimize_stage;
GE_API ge_status ge_place_optimize(ge_graph *g, const ge_place_desc *d, ge_optimize_stage stage, ge_error *err);

/* The placement stage of a compile: infers shapes, runs the original-graph
 * optimisers (the host CPU engine folds constants), infers again, places,
 * runs the subgraph optimisers (AI Core fuses Conv/Gemm with BatchNorm and
 * activations) and places again what they added. */
GE_API ge_status ge_place_compile(ge_graph *g, const ge_place_desc *d, ge_error *err);

/* --------------------------------------------------------- explanations */

typedef struct ge_place_rejection {
  int32_t engine;
  char reason[160];
} ge_place_rejection;

typedef struct ge_place_explanation {
  int32_t engine;       /* node->engine */
  ge_placed_by by;
  int32_t cost_choice;  /* the engine cost order chose (differs after a reassign pass; -1 if none) */
  uint32_t num_rejected; /* engines passed over before cost_choice, with reasons */
  ge_place_rejection rejected[GE_PLACE_MAX_ENGINES];
} ge_place_explanation;

/* Explains the placement of node n of g (placed with the same desc). */
GE_API ge_status ge_place_explain(const ge_graph *g, const ge_node *n, const ge_place_desc *d,
                                  ge_place_explanation *out, ge_error *err);
GE_API const char *ge_placed_by_str(ge_placed_by by);
GE_API ge_placed_by ge_node_placed_by(const ge_node *n);

#ifdef __cplusplus
}
#endif
#endif /* GE_PLACE_H */

/* ===================================================================== */
#if defined(GE_IMPLEMENTATION) || defined(GE_PLACE_IMPLEMENTATION)
#ifndef GE_PLACE_IMPLEMENTATION_DONE
#define GE_PLACE_IMPLEMENTATION_DONE

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

struct ge_engine_registry {
  ge_allocator a;
  const ge_engine *engines[GE_PLACE_MAX_ENGINES];
  void *plugin[GE_PLACE_MAX_ENGINES]; /* dlopen handle of the library that brought engine i (first only) */
  uint32_t count;
  int32_t by_cost[GE_PLACE_MAX_ENGINES]; /* indices by ascending cost, stable */
};

GE_API ge_status ge_engine_registry_create(const ge_allocator *allocator, ge_engine_registry **out, ge_error *err) {
  ge_allocator a = ge_allocator_or_default(allocator);
  ge_engine_registry *r;
  if (!out) return ge_error_set(err, GE_ERR_INVALID, "ge_engine_registry_create: no output pointer");
  *out = NULL;
  r = (ge_engine_registry *)a.alloc(a.user, sizeof *r);
  if (!r) return ge_error_set(err, GE_ERR_NOMEM, "out of memory for the engine registry");
  memset(r, 0, sizeof *r);
  r->a = a;
  *out = r;
  return GE_OK;
}

GE_API void ge_engine_registry_free(ge_engine_registry *r) {
  uint32_t i;
  if (!r) return;
  for (i = 0; i < r->count; i++)
    if (r->plugin[i]) dlclose(r->plugin[i]);
  r->a.free(r->a.user, r, sizeof *r);
}

GE_API uint32_t ge_engine_count(const ge_engine_registry *r) { return r ? r->count : 0; }

GE_API const ge_engine *ge_engine_at(const ge_engine_registry *r, int32_t index) {
  return r && index >= 0 && index < GE_PLACE_MAX_ENGINES && (uint32_t)index < r->count ? r->engines[index] : NULL;
}

GE_API const ge_engine *const *ge_engine_list(const ge_engine_registry *r) { return r ? r->engines : NULL; }

GE_API int32_t ge_engine_find(const ge_engine_registry *r, const char *name) {
  uint32_t i;
  if (!r || !name) return -1;
  for (i = 0; i < r->count; i++)
    if (strcmp(r->engines[i]->name, name) == 0) return (int32_t)i;
  for (i = 0; i < r->count; i++)
    if (r->engines[i]->accelerator && strcmp(r->engines[i]->accelerator, name) == 0) return (int32_t)i;
  return -1;
}

GE_API int32_t ge_engine_composite_of(const ge_engine_registry *r, int32_t atomic) {
  return r ? ge_engine_composite_index(r->engines, r->count, atomic) : -1;
}

GE_API ge_kernel_fn ge_engine_kernel_lookup(const ge_node *n, void *registry) {
  const ge_engine *e = ge_engine_at((const ge_engine_registry *)registry, n->engine);
  return e && e->kernel ? e->kernel(e, n) : NULL;
}

GE_API ge_kernel_fn ge_engine_prepare_lookup(const ge_node *n, void *registry) {
  const ge_engine *e = ge_engine_at((const ge_engine_registry *)registry, n->engine);
  return e && e->prepare ? e->prepare(e, n) : NULL;
}

/* Checks a descriptor before it joins the registry. */
static ge_status ge__pl_check_engine(const ge_engine_registry *r, const ge_engine *e, ge_error *err) {
  if (!e) return ge_error_set(err, GE_ERR_INVALID, "engine descriptor is NULL");
  if (e->abi_version != GE_ENGINE_ABI_VERSION)
    return ge_error_set(err, GE_ERR_UNSUPPORTED, "engine '%.64s': ABI version %u, this ge speaks version %u",
                       e->name ? e->name : "?", (unsigned)e->abi_version, (unsigned)GE_ENGINE_ABI_VERSION);
  if (!e->name || !*e->name) return ge_error_set(err, GE_ERR_INVALID, "engine without a name");
  if (e->cost < 0 || e->cost > GE_ENGINE_COST_MAX)
    return ge_error_set(err, GE_ERR_INVALID, "engine '%.64s': cost %d outside 0..%d", e->name, (int)e->cost,
                       GE_ENGINE_COST_MAX);
  if (e->flags & GE_ENGINE_COMPOSITE) {
    if (!e->members || !e->members[0])
      return ge_error_set(err, GE_ERR_INVALID, "composite engine '%.64s' lists no member engines", e->name);
  } else if (!e->check_supported || !e->kernel) {
    return ge_error_set(err, GE_ERR_INVALID, "engine '%.64s' lacks check_supported or kernel", e->name);
  }
  if (ge_engine_find(r, e->name) >= 0 || (e->accelerator && ge_engine_find(r, e->accelerator) >= 0))
    return ge_error_set(err, GE_ERR_INVALID, "engine '%.64s' is already registered", e->name);
  if (r->count == GE_PLACE_MAX_ENGINES)
    return ge_error_set(err, GE_ERR_UNSUPPORTED, "engine '%.64s': more than %d engines", e->name, GE_PLACE_MAX_ENGINES);
  return GE_OK;
}

GE_API ge_status ge_engine_register(ge_engine_registry *r, const ge_engine *e, ge_error *err) {
  ge_status st;
  int32_t k;
  if (!r) return ge_error_set(err, GE_ERR_INVALID, "ge_engine_register: no registry");
  if ((st = ge__pl_check_engine(r, e, err)) != GE_OK) return st;
  /* insert into the cost order after every engine of the same or lower cost */
  for (k = (int32_t)r->count; k > 0 && r->engines[r->by_cost[k - 1]]->cost > e->cost; k--)
    r->by_cost[k] = r->by_cost[k - 1];
  r->by_cost[k] = (int32_t)r->count;
  r->engines[r->count++] = e;
  return GE_OK;
}

/* Takes the last n engines back out (a plugin that failed half-way). */
static void ge__pl_unregister_last(ge_engine_registry *r, uint32_t n) {
  uint32_t i, j = 0;
  r->count -= n;
  for (i = 0; i < r->count + n; i++)
    if (r->by_cost[i] < (int32_t)r->count) r->by_cost[j++] = r->by_cost[i];
}

GE_API ge_status ge_engine_load_plugin(ge_engine_registry *r, const char *path, ge_error *err) {
  void *h, *sym;
  ge_engine_plugin_entry_fn entry;
  const ge_engine_plugin *pl;
  uint32_t i, first;
  ge_status st = GE_OK;
  if (!r || !path) return ge_error_set(err, GE_ERR_INVALID, "ge_engine_load_plugin: no registry or path");
  if (!(h = dlopen(path, RTLD_NOW | RTLD_LOCAL)))
    return ge_error_set(err, GE_ERR_IO, "engine plugin '%.200s': %.240s", path, dlerror());
  sym = dlsym(h, GE_ENGINE_PLUGIN_ENTRY);
  if (!sym) {
    dlclose(h);
    return ge_error_set(err, GE_ERR_FORMAT, "engine plugin '%.200s' has no function %s", path, GE_ENGINE_PLUGIN_ENTRY);
  }
  memcpy(&entry, &sym, sizeof entry); /* object -> function pointer, as POSIX allows */
  pl = entry();
  if (!pl) st = ge_error_set(err, GE_ERR_FORMAT, "engine plugin '%.200s': its entry function returned NULL", path);
  else if (pl->abi_version != GE_ENGINE_ABI_VERSION)
    st = ge_error_set(err, GE_ERR_UNSUPPORTED, "engine plugin '%.200s' is built for engine ABI version %u; this ge speaks version %u",
                     path, (unsigned)pl->abi_version, (unsigned)GE_ENGINE_ABI_VERSION);
  else if (!pl->num_engines || !pl->engines)
    st = ge_error_set(err, GE_ERR_FORMAT, "engine plugin '%.200s' brings no engines", path);
  first = r->count;
  for (i = 0; st == GE_OK && i < pl->num_engines; i++) {
    st = ge_engine_register(r, pl->engines[i], err);
    if (st != GE_OK && err) {
      char msg[sizeof err->message];
      memcpy(msg, err->message, sizeof msg);
      snprintf(err->message, sizeof err->message, "engine plugin '%.160s': %.300s", path, msg);
    }
  }
  if (st != GE_OK) {
    ge__pl_unregister_last(r, r->count - first);
    dlclose(h);
    return st;
  }
  r->plugin[first] = h;
  return GE_OK;
}

/* ---------------------------------------------------------------- options */

/* GE's accelerator names, accepted by ge.exec.exclude_engines. */
static const char *const ge__pl_accelerators[] = {"AiCore", "AiVector", "Dsa", "Dvpp", "AiCpuAscend",
                                                  "AiCpu", "HostCpu", "Hccl", "FftsPlus"};

static int ge__pl_known_accelerator(const ge_engine_registry *r, const char *name, size_t len) {
  size_t i;
  for (i = 0; i < sizeof ge__pl_accelerators / sizeof *ge__pl_accelerators; i++)
    if (strlen(ge__pl_accelerators[i]) == len && memcmp(ge__pl_accelerators[i], name, len) == 0) return 1;
  for (i = 0; r && i < r->count; i++) {
    const char *acc = r->engines[i]->accelerator;
    if (acc && strlen(acc) == len && memcmp(acc, name, len) == 0) return 1;
  }
  return 0;
}

/* Calls fn on each trimmed, non-empty item of a comma-separated list. */
static ge_status ge__pl_each_item(const char *list, ge_status (*fn)(const char *s, size_t n, void *u), void *u) {
  while (list && *list) {
    const char *end = strchr(list, ',');
    size_t n = end ? (size_t)(end - list) : strlen(list);
    const char *s = list;
    ge_status st;
    while (n && (*s == ' ' || *s == '\t')) s++, n--;
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t')) n--;
    if (n && (st = fn(s, n, u)) != GE_OK) return st;
    list = end ? end + 1 : NULL;
  }
  return GE_OK;
}

typedef struct ge__pl_check_ctx {
  const ge_engine_registry *r;
  ge_error *err;
} ge__pl_check_ctx;

static ge_status ge__pl_check_accelerator(const char *s, size_t n, void *u) {
  ge__pl_check_ctx *c = (ge__pl_check_ctx *)u;
  if (ge__pl_known_accelerator(c->r, s, n)) return GE_OK;
  return ge_error_set(c->err, GE_ERR_INVALID,
                     "option ge.exec.exclude_engines: unknown engine '%.*s' (known: AiCore, AiVector, Dsa, Dvpp, "
                     "AiCpuAscend, AiCpu, HostCpu, Hccl, FftsPlus)",
                     (int)(n > 64 ? 64 : n), s);
}

static ge_status ge__pl_check_options(const ge_place_desc *d, ge_error *err) {
  ge__pl_check_ctx c;
  if (d->engine_type && strcmp(d->engine_type, "AIcoreEngine") != 0 && strcmp(d->engine_type, "VectorEngine") != 0)
    return ge_error_set(err, GE_ERR_INVALID, "option ge.engineType: '%.64s' is neither AIcoreEngine nor VectorEngine",
                       d->engine_type);
  c.r = d->engines;
  c.err = err;
  return ge__pl_each_item(d->exclude_engines, ge__pl_check_accelerator, &c);
}

static int ge__pl_parse_flag(const char *v, int *out) {
  if (!strcmp(v, "1") || !strcmp(v, "true")) *out = 1;
  else if (!strcmp(v, "0") || !strcmp(v, "false")) *out = 0;
  else return 0;
  return 1;
}

GE_API ge_status ge_place_set_option(ge_place_desc *d, const char *key, const char *value, ge_error *err) {
  ge_place_desc t;
  if (!d || !key || !value) return ge_error_set(err, GE_ERR_INVALID, "ge_place_set_option: missing argument");
  t = *d;
  if (!strcmp(key, "ge.engineType")) t.engine_type = value;
  else if (!strcmp(key, "ge.exec.exclude_engines")) t.exclude_engines = value;
  else if (!strcmp(key, "ge.exec.hostExecFlag")) {
    if (!ge__pl_parse_flag(value, &t.host_exec))
      return ge_error_set(err, GE_ERR_INVALID, "option ge.exec.hostExecFlag: '%.64s' is not 0 or 1", value);
  } else
    return ge_error_set(err, GE_ERR_NOT_FOUND, "unknown option '%.100s'", key);
  if (ge__pl_check_options(&t, err) != GE_OK) return err ? err->code : GE_ERR_INVALID;
  *d = t;
  return GE_OK;
}

/* ------------------------------------------------------------ placement */

/* Engines a placement may use: a bit per registry index, plus the reason an
 * excluded one is out. */
typedef struct ge__pl_plan {
  const ge_engine_registry *r;
  const ge_place_desc *d;
  uint32_t excluded;      /* by either option */
  uint32_t excluded_type; /* by ge.engineType */
  int32_t host_cpu, ge_local;
} ge__pl_plan;

static ge_status ge__pl_exclude_item(const char *s, size_t n, void *u) {
  ge__pl_plan *p = (ge__pl_plan *)u;
  uint32_t i;
  for (i = 0; i < p->r->count; i++) {
    const char *acc = p->r->engines[i]->accelerator;
    if (acc && strlen(acc) == n && memcmp(acc, s, n) == 0) p->excluded |= 1u << i;
  }
  return GE_OK;
}

static ge_status ge__pl_plan_init(ge__pl_plan *p, const ge_place_desc *d, ge_error *err) {
  int32_t core;
  ge_status st;
  if (!d || !d->engines) return ge_error_set(err, GE_ERR_INVALID, "placement: no engine registry in the desc");
  if ((st = ge__pl_check_options(d, err)) != GE_OK) return st;
  memset(p, 0, sizeof *p);
  p->r = d->engines;
  p->d = d;
  /* ge.engineType: AI Core and Vector exclude each other */
  core = ge_engine_find(p->r, d->engine_type && !strcmp(d->engine_type, "VectorEngine") ? "AIcoreEngine" : "VectorEngine");
  if (core >= 0) p->excluded_type = 1u << core;
  ge__pl_each_item(d->exclude_engines, ge__pl_exclude_item, p);
  p->excluded |= p->excluded_type;
  p->host_cpu = ge_engine_find(p->r, "DNN_VM_HOST_CPU");
  p->ge_local = ge_engine_find(p->r, "DNN_VM_GE_LOCAL");
  return GE_OK;
}

static int ge__pl_usable(const ge__pl_plan *p, int32_t i) {
  return i >= 0 && !(p->excluded >> i & 1u) && !(p->r->engines[i]->flags & GE_ENGINE_COMPOSITE);
}

/* Why engine i was not used for n (its check_supported reason, or why it
 * was never asked); returns 1 when it supports n. */
static int ge__pl_try(const ge__pl_plan *p, int32_t i, const ge_graph *g, const ge_node *n, char *why, size_t cap) {
  const ge_engine *e = p->r->engines[i];
  if (e->flags & GE_ENGINE_COMPOSITE)
    return ge_engine_why(why, cap, "composite engine: runs fused subgraphs, places no single node");
  if (p->excluded_type >> i & 1u)
    return ge_engine_why(why, cap, "excluded by ge.engineType=%s", p->d->engine_type ? p->d->engine_type : "AIcoreEngine");
  if (p->excluded >> i & 1u) return ge_engine_why(why, cap, "excluded by ge.exec.exclude_engines");
  return e->check_supported(e, g, n, why, cap);
}

/* The cheapest usable engine supporting n, or -1. */
static int32_t ge__pl_by_cost(const ge__pl_plan *p, const ge_graph *g, const ge_node *n) {
  uint32_t k;
  for (k = 0; k < p->r->count; k++) {
    int32_t i = p->r->by_cost[k];
    if (ge__pl_usable(p, i) && p->r->engines[i]->check_supported(p->r->engines[i], g, n, NULL, 0)) return i;
  }
  return -1;
}

static void ge__pl_set(ge_node *n, int32_t engine, ge_placed_by by) {
  n->engine = engine;
  n->flags = (n->flags & ~(uint32_t)GE_NODE_PLACED_MASK) | ((uint32_t)by << GE_NODE_PLACED_SHIFT);
}

/* The full error for a node no engine takes: every engine's reason. */
static ge_status ge__pl_unsupported(const ge__pl_plan *p, const ge_graph *g, const ge_node *n, ge_error *err) {
  char msg[sizeof err->message], why[160];
  size_t len;
  uint32_t k;
  if (!err) return GE_ERR_UNSUPPORTED;
  len = (size_t)snprintf(msg, sizeof msg, "node '%.60s' (%.40s): no engine supports it:", n->name, n->op);
  for (k = 0; k < p->r->count && len < sizeof msg; k++) {
    int32_t i = p->r->by_cost[k];
    why[0] = 0;
    ge__pl_try(p, i, g, n, why, sizeof why);
    len += (size_t)snprintf(msg + len, sizeof msg - len, "%s %s: %s", k ? ";" : "", p->r->engines[i]->name, why);
  }
  return ge_error_set(err, GE_ERR_UNSUPPORTED, "%s", msg);
}

/* -------------------------------------------------------- reassign passes */

static int ge__pl_is_op(const ge_node *n, const char *op) { return !strcmp(n->op, op); }

static int ge__pl_keeps_place(const ge_node *n) {
  return ge__pl_is_op(n, "Data") || ge__pl_is_op(n, "Const") || ge__pl_is_op(n, "Variable") ||
         ge__pl_is_op(n, "NetOutput") || ge__pl_is_op(n, "PartitionedCall");
}

/* True when a (known-shape) tensor has at most `limit` elements and no
 * floats: shape math (int64 dims, bool masks). Small float tensors are
 * data (a squeeze-excite gate's 8 channels): on the host CPU they would
 * make their call dynamic (rule 5) for nothing. */
static int ge__pl_small(const ge_tensor_desc *t, int64_t limit) {
  int64_t k = t ? ge_shape_numel(&t->shape) : -1;
  return k >= 0 && k <= limit && !(GE_DTYPE_BIT(t->dtype) & GE_DTYPES_FLOAT);
}

static ge_placed_by ge__pl_host_reason(const ge__pl_plan *p, const ge_graph *g, const ge_node *n) {
  int64_t limit = p->d->small_tensor_limit ? p->d->small_tensor_limit : 8;
  uint32_t i;
  if (ge__pl_is_op(n, "Shape") || ge__pl_is_op(n, "Size")) return GE_PLACED_SHAPE_COMPUTE;
  if (p->d->small_tensor_limit < 0 || n->num_outputs == 0) return GE_PLACED_NONE;
  for (i = 0; i < n->num_outputs; i++)
    if (!ge__pl_small(&n->outputs[i], limit)) return GE_PLACED_NONE;
  for (i = 0; i < n->num_inputs; i++)
    if (n->inputs[i].node != GE_NONE && !ge__pl_small(ge_node_input_desc(g, n, i), limit)) return GE_PLACED_NONE;
  return GE_PLACED_SMALL_TENSOR;
}

/* Host-exec flag, shape computations and small tensors -> host CPU. Only
 * nodes the cost order put on a device compute engine move (not views on
 * GE local, not collectives, not custom ops). */
static void ge__pl_reassign_host(const ge__pl_plan *p, const ge_graph *g, ge_node *n) {
  const ge_engine *host, *cur = p->r->engines[n->engine];
  ge_placed_by why;
  if (n->engine == p->host_cpu || !ge__pl_usable(p, p->host_cpu)) return;
  if (p->d->host_exec) why = ge__pl_keeps_place(n) ? GE_PLACED_NONE : GE_PLACED_HOST_EXEC;
  else if (n->engine == p->ge_local || cur->cost == 0 || (cur->flags & GE_ENGINE_INDEPENDENT)) why = GE_PLACED_NONE;
  else why = ge__pl_host_reason(p, g, n);
  host = p->r->engines[p->host_cpu];
  if (why != GE_PLACED_NONE && host->check_supported(host, g, n, NULL, 0)) ge__pl_set(n, p->host_cpu, why);
}

static int ge__pl_is_stack_op(const ge_node *n) {
  return ge__pl_is_op(n, "Stack") || ge__pl_is_op(n, "StackPush") || ge__pl_is_op(n, "StackPop") ||
         ge__pl_is_op(n, "StackClose");
}

static int ge__pl_is_dynamic(const ge_node *n) {
  uint32_t i;
  if (n->flags & GE_NODE_FORCE_DYNAMIC) return 1;
  for (i = 0; i < n->num_outputs; i++)
    if (!ge_shape_is_static(&n->outputs[i].shape)) return 1;
  return 0;
}

/* The data-flow ops reading a Stack's handle (input 0), directly. */
static int ge__pl_stack_group_dynamic(const ge_graph *g, const ge_node *stack) {
  uint32_t u;
  if (ge__pl_is_dynamic(stack)) return 1;
  for (u = 0; u < stack->num_uses; u++) {
    const ge_node *c = ge_graph_node(g, stack->uses[u].node);
    if (ge__pl_is_stack_op(c) && stack->uses[u].input == 0 && ge__pl_is_dynamic(c)) return 1;
  }
  return 0;
}

/* Dynamic data flow: the ops of one stack keep its state on one engine. */
static ge_status ge__pl_reassign_data_flow(const ge__pl_plan *p, ge_graph *g, ge_error *err) {
  ge_node *n;
  GE_GRAPH_FOREACH(g, n) {
    const ge_engine *e = ge_engine_at(p->r, n->engine);
    uint32_t u;
    if (!ge__pl_is_op(n, "Stack") || !ge__pl_stack_group_dynamic(g, n)) continue;
    for (u = 0; u < n->num_uses; u++) {
      ge_node *c = ge_graph_node(g, n->uses[u].node);
      if (!ge__pl_is_stack_op(c) || n->uses[u].input != 0 || c->engine == n->engine) continue;
      if (ge_node_placed_by(c) == GE_PLACED_PINNED || !e->check_supported(e, g, c, NULL, 0))
        return ge_error_set(err, GE_ERR_UNSUPPORTED,
                           "node '%.60s' (%.40s) must run on engine %s with its stack '%.60s', which cannot take it",
                           c->name, c->op, e->name, n->name);
      ge__pl_set(c, n->engine, GE_PLACED_DATA_FLOW);
    }
  }
  return GE_OK;
}

/* Steps 1 to 3 (but the data-flow pass) for one node; 0 or an error code. */
static ge_status ge__pl_node(const ge__pl_plan *p, const ge_graph *g, ge_node *n) {
  const char *pin = ge_node_attr_string(n, GE_PLACE_ATTR_ENGINE, NULL);
  int32_t i;
  if (pin) {
    i = ge_engine_find(p->r, pin);
    if (i < 0 || !ge__pl_usable(p, i) || !p->r->engines[i]->check_supported(p->r->engines[i], g, n, NULL, 0))
      return GE_ERR_UNSUPPORTED;
    ge__pl_set(n, i, GE_PLACED_PINNED);
    return GE_OK;
  }
  if ((i = ge__pl_by_cost(p, g, n)) < 0) return GE_ERR_UNSUPPORTED;
  ge__pl_set(n, i, GE_PLACED_COST);
  ge__pl_reassign_host(p, g, n);
  return GE_OK;
}

static ge_status ge__pl_pin_error(const ge__pl_plan *p, const ge_graph *g, const ge_node *n, ge_error *err) {
  const char *pin = ge_node_attr_string(n, GE_PLACE_ATTR_ENGINE, NULL);
  int32_t i = ge_engine_find(p->r, pin);
  char why[160];
  if (i < 0) return ge_error_set(err, GE_ERR_NOT_FOUND, "node '%.60s' (%.40s) is pinned to unknown engine '%.64s'", n->name, n->op, pin);
  why[0] = 0;
  ge__pl_try(p, i, g, n, why, sizeof why);
  return ge_error_set(err, GE_ERR_UNSUPPORTED, "node '%.60s' (%.40s) is pinned to engine %s, which refuses it: %s", n->name,
                     n->op, p->r->engines[i]->name, why);
}

/* A slice of node ids placed by one thread; first_bad is the smallest id
 * that failed (or bound). */
typedef struct ge__pl_job {
  const ge__pl_plan *p;
  const ge_graph *g;
  uint32_t begin, end, first_bad;
  uint32_t stacks, nested; /* Stack nodes, nodes holding subgraphs */
} ge__pl_job;

static int ge__pl_holds_graphs(const ge_node *n) {
  uint32_t a;
  for (a = 0; a < n->num_attrs; a++)
    if (n->attrs[a].type == GE_ATTR_GRAPH || n->attrs[a].type == GE_ATTR_GRAPHS) return 1;
  return 0;
}

static void *ge__pl_run_job(void *arg) {
  ge__pl_job *j = (ge__pl_job *)arg;
  uint32_t id;
  j->first_bad = UINT32_MAX;
  j->stacks = j->nested = 0;
  for (id = j->begin; id < j->end; id++) {
    ge_node *n = ge_graph_node(j->g, id);
    if (!n) continue;
    if (ge__pl_node(j->p, j->g, n) != GE_OK) {
      j->first_bad = id;
      break;
    }
    j->stacks += n->op[0] == 'S' && ge__pl_is_op(n, "Stack");
    j->nested += ge__pl_holds_graphs(n);
  }
  return NULL;
}

static ge_status ge__pl_subgraphs(const ge__pl_plan *p, ge_graph *g, ge_error *err);

#define GE__PL_MAX_THREADS 64
#define GE__PL_MIN_NODES_PER_THREAD 2048

/* Steps 1 to 3 over one graph, on up to num_threads threads, then its
 * subgraphs. */
static ge_status ge__pl_graph(const ge__pl_plan *p, ge_graph *g, ge_error *err) {
  ge__pl_job jobs[GE__PL_MAX_THREADS];
  pthread_t tid[GE__PL_MAX_THREADS];
  uint32_t bound = ge_graph_id_bound(g), nt = p->d->num_threads > 1 ? (uint32_t)p->d->num_threads : 1, t, started = 0;
  uint32_t bad = UINT32_MAX, stacks = 0, nested = 0;
  ge_status st = GE_OK;
  if (nt > GE__PL_MAX_THREADS) nt = GE__PL_MAX_THREADS;
  if (nt > bound / GE__PL_MIN_NODES_PER_THREAD) nt = bound / GE__PL_MIN_NODES_PER_THREAD ? bound / GE__PL_MIN_NODES_PER_THREAD : 1;
  for (t = 0; t < nt; t++) {
    jobs[t].p = p;
    jobs[t].g = g;
    jobs[t].begin = (uint32_t)((uint64_t)bound * t / nt);
    jobs[t].end = (uint32_t)((uint64_t)bound * (t + 1) / nt);
  }
  /* threads 1.. run alongside the caller, which does slice 0 */
  for (t = 1; t < nt; t++, started++)
    if (pthread_create(&tid[t], NULL, ge__pl_run_job, &jobs[t]) != 0) break;
  for (t = started + 1; t < nt; t++) ge__pl_run_job(&jobs[t]); /* threads that did not start */
  ge__pl_run_job(&jobs[0]);
  for (t = 1; t <= started; t++) pthread_join(tid[t], NULL);
  for (t = 0; t < nt; t++) {
    if (jobs[t].first_bad < bad) bad = jobs[t].first_bad;
    stacks += jobs[t].stacks, nested += jobs[t].nested;
  }
  if (bad != UINT32_MAX) {
    ge_node *n = ge_graph_node(g, bad);
    return ge_node_attr_string(n, GE_PLACE_ATTR_ENGINE, NULL) ? ge__pl_pin_error(p, g, n, err)
                                                              : ge__pl_unsupported(p, g, n, err);
  }
  if (stacks) st = ge__pl_reassign_data_flow(p, g, err);
  if (nested && st == GE_OK) st = ge__pl_subgraphs(p, g, err);
  return st;
}

/* Places the subgraphs held by g's nodes. */
static ge_status ge__pl_subgraphs(const ge__pl_plan *p, ge_graph *g, ge_error *err) {
  ge_node *n;
  GE_GRAPH_FOREACH(g, n) {
    uint32_t a;
    for (a = 0; a < n->num_attrs; a++) {
      const ge_attr *at = &n->attrs[a];
      int32_t k;
      ge_status st;
      if (at->type == GE_ATTR_GRAPH && (st = ge__pl_graph(p, at->v.g, err)) != GE_OK) return st;
      for (k = 0; at->type == GE_ATTR_GRAPHS && k < at->count; k++)
        if ((st = ge__pl_graph(p, at->v.graphs[k], err)) != GE_OK) return st;
    }
  }
  return GE_OK;
}

/* At GE_LOG_DEBUG: each node of g and of its subgraphs, its engine and why. */
static void ge__pl_log_graph(const ge__pl_plan *p, const ge_graph *g, const ge_logger *l) {
  const ge_node *n;
  uint32_t k;
  int32_t j;
  GE_GRAPH_FOREACH(g, n) {
    const ge_engine *e = ge_engine_at(p->r, n->engine);
    ge_log(l, GE_LOG_DEBUG, "place", "node '%s' (%s): %s, %s", n->name, n->op, e ? e->name : "none",
           ge_placed_by_str(ge_node_placed_by(n)));
    for (k = 0; k < n->num_attrs; k++)
      if (n->attrs[k].type == GE_ATTR_GRAPH) ge__pl_log_graph(p, n->attrs[k].v.g, l);
      else if (n->attrs[k].type == GE_ATTR_GRAPHS)
        for (j = 0; j < n->attrs[k].count; j++) ge__pl_log_graph(p, n->attrs[k].v.graphs[j], l);
  }
}

GE_API ge_status ge_place(ge_graph *g, const ge_place_desc *d, ge_error *err) {
  ge__pl_plan p;
  ge_status st;
  if (!g) return ge_error_set(err, GE_ERR_INVALID, "ge_place: no graph");
  if ((st = ge__pl_plan_init(&p, d, err)) != GE_OK) return st;
  if ((st = ge__pl_graph(&p, g, err)) == GE_OK && GE_LOG_ON(&d->logger, GE_LOG_DEBUG)) ge__pl_log_graph(&p, g, &d->logger);
  return st;
}

/* ------------------------------------------------------------ optimisers */

/* The usable engines' optimisers over g, then over every subgraph under it. */
static ge_status ge__pl_optimize(const ge__pl_plan *p, ge_graph *g, ge_optimize_stage stage, ge_error *err) {
  ge_status st = GE_OK;
  ge_node *n;
  uint32_t k;
  for (k = 0; k < p->r->count && st == GE_OK; k++) {
    int32_t i = p->r->by_cost[k];
    const ge_engine *e = p->r->engines[i];
    if (p->excluded >> i & 1u) continue;
    if (stage == GE_OPTIMIZE_ORIGINAL && e->optimize_original) st = e->optimize_original(e, g, err);
    else if (stage == GE_OPTIMIZE_SUBGRAPH && e->optimize_subgraph) st = e->optimize_subgraph(e, g, i, err);
  }
  GE_GRAPH_FOREACH(g, n) {
    uint32_t a;
    int32_t j;
    for (a = 0; a < n->num_attrs && st == GE_OK; a++) {
      const ge_attr *at = &n->attrs[a];
      if (at->type == GE_ATTR_GRAPH) st = ge__pl_optimize(p, at->v.g, stage, err);
      for (j = 0; at->type == GE_ATTR_GRAPHS && j < at->count && st == GE_OK; j++)
        st = ge__pl_optimize(p, at->v.graphs[j], stage, err);
    }
  }
  return st;
}

GE_API ge_status ge_place_optimize(ge_graph *g, const ge_place_desc *d, ge_optimize_stage stage, ge_error *err) {
  ge__pl_plan p;
  ge_status st;
  if (!g) return ge_error_set(err, GE_ERR_INVALID, "ge_place_optimize: no graph");
  if ((st = ge__pl_plan_init(&p, d, err)) != GE_OK) return st;
  return ge__pl_optimize(&p, g, stage, err);
}

GE_API ge_status ge_place_compile(ge_graph *g, const ge_place_desc *d, ge_error *err) {
  ge_status st;
  if ((st = ge_graph_infer_shapes(g, err)) != GE_OK) return st;
  if ((st = ge_place_optimize(g, d, GE_OPTIMIZE_ORIGINAL, err)) != GE_OK) return st;
  if ((st = ge_graph_infer_shapes(g, err)) != GE_OK) return st;
  if ((st = ge_place(g, d, err)) != GE_OK) return st;
  if ((st = ge_place_optimize(g, d, GE_OPTIMIZE_SUBGRAPH, err)) != GE_OK) return st;
  return ge_place(g, d, err);
}

/* ---------------------------------------------------------- explanations */

GE_API const char *ge_placed_by_str(ge_placed_by by) {
  switch (by) {
  case GE_PLACED_COST: return "cheapest engine that supports it";
  case GE_PLACED_PINNED: return "pinned by " GE_PLACE_ATTR_ENGINE;
  case GE_PLACED_HOST_EXEC: return "host-exec flag: runs on the host CPU";
  case GE_PLACED_SHAPE_COMPUTE: return "shape computation, moved to the host CPU";
  case GE_PLACED_SMALL_TENSOR: return "small tensors only, moved to the host CPU";
  case GE_PLACED_DATA_FLOW: return "data-flow op, runs with its stack";
  default: return "not placed";
  }
}

GE_API ge_placed_by ge_node_placed_by(const ge_node *n) {
  return (ge_placed_by)((n->flags & GE_NODE_PLACED_MASK) >> GE_NODE_PLACED_SHIFT);
}

GE_API ge_status ge_place_explain(const ge_graph *g, const ge_node *n, const ge_place_desc *d,
                                  ge_place_explanation *out, ge_error *err) {
  ge__pl_plan p;
  ge_status st;
  uint32_t k;
  if (!g || !n || !out) return ge_error_set(err, GE_ERR_INVALID, "ge_place_explain: missing argument");
  if ((st = ge__pl_plan_init(&p, d, err)) != GE_OK) return st;
  memset(out, 0, sizeof *out);
  out->engine = n->engine;
  out->by = ge_node_placed_by(n);
  out->cost_choice = -1;
  if (out->by == GE_PLACED_PINNED) {
    out->cost_choice = n->engine;
    return GE_OK;
  }
  for (k = 0; k < p.r->count; k++) {
    int32_t i = p.r->by_cost[k];
    ge_place_rejection *rj = &out->rejected[out->num_rejected];
    rj->reason[0] = 0;
    if (ge__pl_try(&p, i, g, n, rj->reason, sizeof rj->reason)) {
      out->cost_choice = i;
      break;
    }
    rj->engine = i;
    out->num_rejected++;
  }
  return GE_OK;
}

#ifdef __cplusplus
}
#endif
#endif /* GE_PLACE_IMPLEMENTATION_DONE */
#endif /* GE_PLACE_IMPLEMENTATION */

/* ge_session.h — the compile pipeline, sessions, single ops and the run API.
 *
 * Part of ge. The one place that knows the order of the compile passes
 * (seed 001 §3, seed 000 §4.7) and GE's option keys; the tool, the tests
 * and the benchmarks are its clients. Every other module still works alone:
 * a session is their composition, not a dependency of theirs.
 *
 *   ge_session *s;  ge_error err;
 *   ge_session_create(NULL, &s, &err);
 *   ge_session_set_option(s, "ge.exec.exclude_engines", "Dvpp", &err);
 *   ge_session_add_graph_file(s, 1, "model.onnx", &err);
 *   ge_session_compile_graph(s, 1, &err);            (optional: run compiles)
 *   ge_session_run_graph(s, 1, inputs, n, &err);      (the first run loads)
 *   const ge_value *y = ge_session_output(s, 1, 0);
 *   ge_session_free(s);
 *
 * A session (seed 003 §7) owns its options (GE's string keys), its engines
 * (the standard set, plugins, the user's custom ops and the multi-batch
 * index ops) and its graphs, each under a caller-chosen id. Compiling does
 * not load: the first run (or ge_session_load_graph) lowers the compiled
 * graph to a program and allocates its memory (seed 003 §7.2).
 *
 * The compile pipeline (ge_session_compile_graph), in GE's order:
 *   1. shape tiers (ge.dynamicBatchSize, ...: a Case over static branches);
 *   2. pipeline stages (nodes with _stage_level into PartitionedCalls);
 *   3. the engines' original-graph optimisers (constant folding);
 *   4. placement, with the host-CPU reassign passes (EnginePlacer1);
 *   5. dynamic/static partitioning, then placement of the new calls (2);
 *   6. engine pieces, composite then atomic, each optimised by its engine
 *      (AI Core fuses) and merged back — the root and every partitioned
 *      subgraph — then placement of what the optimisers added;
 *   7. the execution order, streams and events, and the memory plan when
 *      every root-level shape is static; otherwise a memory plan of its
 *      own for each static PartitionedCall (the hybrid units, seed 001
 *      §6.2), the dynamic levels planned per input-shape signature at run
 *      time by the executor (ge_session_desc.shape_plans).
 * ge_session_desc.level stops earlier (for tests that check one stage).
 *
 * Single ops (seed 000 §2.3, seed 003 §6): ge_session_run_op compiles one
 * op from its type, attributes and inputs into a Data -> op -> NetOutput
 * graph through the same pipeline, on the engine the caller picks (SYS:
 * placement decides; AICORE; VECTOR), and keeps the compiled op in a
 * bounded cache keyed by (op, domain, attributes, engine, input dtypes and
 * shapes): a second call with that signature compiles nothing.
 *
 * Thread safety: a session is used by one thread at a time, with one
 * exception: once loaded, distinct graphs (a graph and its forks) may be
 * run by ge_session_run_graph from different threads at once, each graph
 * by one thread (the session's runtime is shared and thread-safe).
 *
 * Include after (or instead of) the other headers; define
 * GE_SESSION_IMPLEMENTATION (or GE_IMPLEMENTATION) in one translation unit,
 * with the implementations of every module and engine compiled somewhere.
 */
#ifndef GE_SESSION_H
#define GE_SESSION_H

#include "ge_graph.h"
#include "ge_exec.h"
#include "ge_mem.h"
#include "ge_onnx.h"
#include "ge_partition.h"
#include "ge_place.h"
#include "ge_stream.h"
#include "ge_engines/ge_engines.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How far a compile goes. */
typedef enum ge_compile_level {
  GE_COMPILE_FULL = 0,      /* every stage (the default) */
  GE_COMPILE_REFERENCE = 1, /* nothing: every node runs its host CPU reference kernel */
  GE_COMPILE_PLACE = 2,     /* shape tiers, constant folding, placement and fusion */
  GE_COMPILE_PARTITION = 3  /* and stages, dynamic/static and engine pieces; no streams or memory plan */
} ge_compile_level;

typedef struct ge_session_desc {
  ge_allocator allocator;   /* the session's records and the graphs it loads; zero: default */
  ge_logger logger;         /* INFO: each stage's decisions and time; DEBUG: per node */
  /* Placement threads, and the thread budget of the session's runtime (one
   * pool, ge_runtime.h, shared by every program of the session: kernels'
   * parallel loops and the multi-thread and stream executors); 0: 1. */
  int num_threads;
  ge_compile_level level;
  uint32_t single_op_cache; /* compiled single ops kept; 0: 64 */
  ge_executor_kind executor; /* how programs run (ge_exec.h); AUTO: as GE chooses */
  ge_launch_mode launch;     /* the stream executor: sink (default) or host scheduling */
  int check_order;           /* debug: every run checks happens-before (ge_exec_desc.check_order) */
  /* Dynamic graphs: input-shape signatures that keep a memory plan per
   * dynamic level (ge_exec_desc.shape_plans; LRU); 0: 8; negative: none. */
  int32_t shape_plans;
  uint32_t timeout_ms;       /* per run: a longer run is aborted (ge_exec_desc.timeout_ms); 0: none */
  int profile;               /* programs keep task times (ge_exec_desc.profile; ge_session_program to write them) */
} ge_session_desc;

typedef struct ge_session ge_session;

GE_API ge_status ge_session_create(const ge_session_desc *desc, ge_session **out, ge_error *err);
/* Frees the session with its graphs, programs, engines and cache. */
GE_API void ge_session_free(ge_session *s);

/* Sets an option by GE's key for the graphs compiled from now on (a later
 * value of a key replaces the earlier). An unknown key or a bad value is an
 * error naming it. Keys: ge.topoSortingMode, ge.engineType,
 * ge.exec.exclude_engines, ge.exec.hostExecFlag, ge.dynamicBatchSize,
 * ge.dynamicImageSize, ge.dynamicDims, ge.inputShape, ge.inputFormat,
 * ge.exec.static_model_ops_lower_limit, ge.exec.hostSchedulingMaxThreshold,
 * ge.enableSingleStream, ge.exec.enableEngineParallel, ac_parallel_enable,
 * ge.exec.hcomParallel, ge.event, ge.streamMaxParallelNum,
 * ge.streamTaskLimit, ge.exec.disableReuseMemory, ge.graphMemoryMaxSize (the
 * run's memory ceiling in bytes). */
GE_API ge_status ge_session_set_option(ge_session *s, const char *key, const char *value, ge_error *err);
/* Loads engines from a shared library (engine ABI, ge_graph.h). Engines are
 * fixed by the first compile: later calls are an error. */
GE_API ge_status ge_session_load_plugin(ge_session *s, const char *path, ge_error *err);
/* Adds the user's ops to DNN_VM_CUSTOM (copied; the strings and kernels
 * must outlive the session). Before the first compile only. */
GE_API ge_status ge_session_add_custom_ops(ge_session *s, const ge_custom_op *ops, uint32_t n, ge_error *err);
/* The engine registry (node->engine indexes it). */
GE_API const ge_engine_registry *ge_session_engines(const ge_session *s);

/* Adds g under id; the session owns g from then on (also on failure). */
GE_API ge_status ge_session_add_graph(ge_session *s, uint32_t id, ge_graph *g, ge_error *err);
/* Adds the model in a file: ONNX (.onnx) or a graph file (ge_graph_save). */
GE_API ge_status ge_session_add_graph_file(ge_session *s, uint32_t id, const char *path, ge_error *err);
GE_API ge_status ge_session_remove_graph(ge_session *s, uint32_t id, ge_error *err);
/* Adds new_id as a second instance of graph id (compiled first when
 * needed): it shares the compiled graph, its plans and its weights, and has
 * a program of its own, so the two run independently (seed 003 §7.2
 * ForkGraph). Removing either leaves the other whole. */
GE_API ge_status ge_session_fork_graph(ge_session *s, uint32_t id, uint32_t new_id, ge_error *err);
/* Runs the compile pipeline on graph id (once; again is a no-op). On
 * failure the graph is left as the failing stage left it. */
GE_API ge_status ge_session_compile_graph(ge_session *s, uint32_t id, ge_error *err);
/* Lowers the compiled graph to a program and allocates its memory
 * (compiling first when needed). The first run does this itself. */
GE_API ge_status ge_session_load_graph(ge_session *s, uint32_t id, ge_error *err);
/* Runs graph id on inputs[0..n) (by input index; read in place). Outputs
 * stay valid until the next run of that graph. */
GE_API ge_status ge_session_run_graph(ge_session *s, uint32_t id, const ge_value *const *inputs, uint32_t n,
                                      ge_error *err);
GE_API const ge_value *ge_session_output(const ge_session *s, uint32_t id, uint32_t i);
/* Allocation calls graph id's programs have made so far, loading included
 * (a static graph makes none per run; a dynamic one none for a shape it
 * has seen: values keep their storage). */
GE_API uint64_t ge_session_allocations(const ge_session *s, uint32_t id);
/* Starts a run of graph id and returns at once (GE's RunGraphAsync; the
 * first call loads on this thread). done (may be NULL) is called when the
 * outputs are ready; the caller keeps req, the inputs and the session alive
 * until ge_program_wait(req, ...) has returned (ge_program_poll tests
 * without blocking). One request in flight per graph: for more, use caller
 * streams or forks. */
GE_API ge_status ge_session_run_graph_async(ge_session *s, uint32_t id, const ge_value *const *inputs, uint32_t n,
                                            ge_program_done_fn done, void *user, ge_program_request *req,
                                            ge_error *err);
/* The same on caller stream k of graph id (GE's RunGraphWithStreamAsync):
 * each caller stream has a program of its own (its own I/O binding and
 * feature-map block, loaded at its first run; the weights are shared), so
 * runs on distinct streams are in flight at once; runs on one stream go one
 * at a time, each waited for before the next. Outputs: ge_session_stream_output. */
GE_API ge_status ge_session_run_graph_with_stream(ge_session *s, uint32_t id, uint32_t stream,
                                                  const ge_value *const *inputs, uint32_t n, ge_program_done_fn done,
                                                  void *user, ge_program_request *req, ge_error *err);
GE_API const ge_value *ge_session_stream_output(const ge_session *s, uint32_t id, uint32_t stream, uint32_t i);

/* Read-only views of a graph: NULL (or 0) for an unknown id, or before the
 * stage that makes them. */
GE_API const ge_graph *ge_session_graph(const ge_session *s, uint32_t id);
GE_API int ge_session_graph_compiled(const ge_session *s, uint32_t id);
/* The execution order of the compiled root graph (*n nodes). */
GE_API const ge_node_id *ge_session_order(const ge_session *s, uint32_t id, uint32_t *n);
GE_API const ge_stream_plan *ge_session_stream_plan(const ge_session *s, uint32_t id);
/* The memory plan, or NULL with the reason in *why (when why is given). */
GE_API const ge_mem_graph_plan *ge_session_memory_plan(const ge_session *s, uint32_t id, const char **why);
/* Why node n (of the compiled graph or one of its subgraphs) has its engine. */
GE_API ge_status ge_session_explain(const ge_session *s, uint32_t id, const ge_graph *g, const ge_node *n,
                                    ge_place_explanation *out, ge_error *err);
/* The execution order mode the graph was compiled with (ge.topoSortingMode). */
GE_API ge_topo_mode ge_session_topo_mode(const ge_session *s, uint32_t id);
/* The loaded program (NULL before the first run or load). */
GE_API ge_program *ge_session_program(const ge_session *s, uint32_t id);

/* ------------------------------------------------------------ single ops */

/* Which engine runs a single op (GE's aclopEngineType). */
typedef enum ge_op_engine {
  GE_OP_ENGINE_SYS = 0,    /* placement decides */
  GE_OP_ENGINE_AICORE = 1, /* AIcoreEngine or an error */
  GE_OP_ENGINE_VECTOR = 2  /* VectorEngine or an error */
} ge_op_engine;

typedef struct ge_single_op_desc {
  const char *op;
  const char *domain;    /* NULL: ONNX */
  const ge_attr *attrs;  /* no graph attributes */
  uint32_t num_attrs;
  uint32_t num_outputs;  /* 0: 1 */
  ge_op_engine engine;
} ge_single_op_desc;

/* Compiles (or finds in the cache) and runs one op on inputs[0..n) (NULL
 * entries are absent optional inputs); outputs[0..num_outputs) receive
 * values valid until the next call with the same signature, or until the
 * op leaves the cache. */
GE_API ge_status ge_session_run_op(ge_session *s, const ge_single_op_desc *d, const ge_value *const *inputs, uint32_t n,
                                   const ge_value **outputs, ge_error *err);
/* Single ops compiled so far, and calls served from the cache. */
GE_API void ge_session_op_cache_stats(const ge_session *s, uint64_t *compiled, uint64_t *hits);

#ifdef __cplusplus
}
#endif
#endif /* GE_SESSION_H */

/* ===================================================================== */
#if defined(GE_IMPLEMENTATION) || defined(GE_SESSION_IMPLEMENTATION)
#ifndef GE_SESSION_IMPLEMENTATION_DONE
#define GE_SESSION_IMPLEMENTATION_DONE

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#ifndef XXH_INLINE_ALL
#define XXH_INLINE_ALL /* the signature hash of the single-op cache */
#endif
#include <xxhash.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Every option a compile reads, rebuilt from the session's pairs. */
typedef struct ge__ss_config {
  ge_topo_mode topo_mode;
  int disable_reuse_memory;
  uint64_t memory_limit; /* ge.graphMemoryMaxSize: the executor's ceiling (0: its default) */
  ge_multibatch_desc multibatch;
  ge_dynamic_partition_desc dynamic;
  ge_stream_desc stream;
  ge_place_desc place;
} ge__ss_config;

/* A compiled graph: what compiling made, shared by the graph and its forks. */
typedef struct ge__ss_model {
  ge_graph *g;
  int compiled, failed; /* a failed compile leaves the graph half-transformed */
  ge__ss_config cfg;    /* as compiled (explanations need the place desc) */
  const char *engine_type; /* overrides ge.engineType (a single op on VECTOR); NULL: none */
  ge_node_id *order;
  uint32_t order_len;
  ge_stream_plan streams;
  int has_streams;
  ge_mem_graph_plan memory;
  int has_memory;
  char memory_why[400];
  /* PartitionedCall bodies with shapes known at compile time (static ones,
   * and dynamic ones for a host node): each planned apart, its block made at load */
  const ge_graph **sub_graphs;
  ge_mem_graph_plan *sub_plans;
  uint32_t num_sub_plans, sub_cap;
  uint32_t refs; /* the graphs (a graph and its forks) using it */
} ge__ss_model;

/* A graph of the session: its model and its own loaded program. */
typedef struct ge__ss_graph {
  uint32_t id;
  ge__ss_model *m;
  ge_program *program;         /* ge_session_run_graph's */
  ge_program **streams;        /* one per caller stream (ge_session_run_graph_with_stream) */
  uint32_t num_streams;
  ge_caching_allocator *cache; /* for shapes known at run time; shared by the programs */
  ge_allocator inner;          /* what the programs allocate from, through the count below */
  uint64_t allocations;        /* calls to inner's alloc and realloc (atomic: runs may overlap) */
} ge__ss_graph;

typedef struct ge__ss_op {
  unsigned char *key; /* the signature's bytes */
  size_t key_len;
  uint64_t hash, last_use;
  ge__ss_graph graph;
} ge__ss_op;

struct ge_session {
  ge_session_desc d;
  ge_allocator a;
  ge_runtime *runtime; /* the thread pool of every program, made at the first load (NULL: one thread) */
  ge_engine_registry *engines;
  int engines_fixed;
  ge_custom_op *custom_ops;
  uint32_t num_custom_ops;
  ge_custom_engine custom;
  char **options; /* key, value, key, value, ... */
  uint32_t num_options;
  ge__ss_graph **graphs;
  uint32_t num_graphs;
  ge__ss_op *ops;
  uint32_t num_ops;
  uint64_t op_clock, ops_compiled, op_hits;
};

/* ------------------------------------------------------------- helpers */

static void *ge__ss_alloc(const ge_session *s, size_t n) { return s->a.alloc(s->a.user, n ? n : 1); }
static void ge__ss_free(const ge_session *s, void *p, size_t n) {
  if (p) s->a.free(s->a.user, p, n ? n : 1);
}
static char *ge__ss_strdup(const ge_session *s, const char *str) {
  size_t n = strlen(str) + 1;
  char *c = (char *)ge__ss_alloc(s, n);
  if (c) memcpy(c, str, n);
  return c;
}
static void ge__ss_strfree(const ge_session *s, char *str) {
  if (str) ge__ss_free(s, str, strlen(str) + 1);
}
/* Grows an array of elem-sized items from n to n + 1 (no slack: sessions hold few). */
static void *ge__ss_grow(const ge_session *s, void *p, size_t n, size_t elem) {
  void *q = ge__ss_alloc(s, (n + 1) * elem);
  if (!q) return NULL;
  if (n) memcpy(q, p, n * elem);
  ge__ss_free(s, p, n * elem);
  return q;
}

/* Wall-clock milliseconds, for the stage times in the log (gettimeofday:
 * declared under plain -std=c99, unlike clock_gettime). */
static double ge__ss_now_ms(void) {
  struct timeval t;
  gettimeofday(&t, NULL);
  return (double)t.tv_sec * 1e3 + (double)t.tv_usec * 1e-3;
}

/* ------------------------------------------------------------- options */

/* Applies one option to c; GE_ERR_NOT_FOUND for a key no stage knows. */
static ge_status ge__ss_apply_option(ge__ss_config *c, const char *key, const char *value, ge_error *err) {
  ge_status st;
  if (!strcmp(key, "ge.topoSortingMode")) return ge_topo_mode_parse(value, &c->topo_mode, err);
  if (!strcmp(key, "ge.exec.disableReuseMemory")) {
    if (strcmp(value, "0") && strcmp(value, "1"))
      return ge_error_set(err, GE_ERR_INVALID, "option ge.exec.disableReuseMemory: '%s' is not 0 or 1", value);
    c->disable_reuse_memory = value[0] == '1';
    return GE_OK;
  }
  if (!strcmp(key, "ge.graphMemoryMaxSize")) {
    char *end;
    unsigned long long v = strtoull(value, &end, 10);
    if (value[0] < '0' || value[0] > '9' || *end || v == 0 || v == ULLONG_MAX)
      return ge_error_set(err, GE_ERR_INVALID, "option ge.graphMemoryMaxSize: '%s' is not a positive number of bytes", value);
    c->memory_limit = v;
    return GE_OK;
  }
  if ((st = ge_multibatch_set_option(&c->multibatch, key, value, err)) != GE_ERR_NOT_FOUND) return st;
  if ((st = ge_dynamic_partition_set_option(&c->dynamic, key, value, err)) != GE_ERR_NOT_FOUND) return st;
  if ((st = ge_stream_set_option(&c->stream, key, value, err)) != GE_ERR_NOT_FOUND) return st;
  if ((st = ge_place_set_option(&c->place, key, value, err)) != GE_ERR_NOT_FOUND) return st;
  return ge_error_set(err, GE_ERR_NOT_FOUND,
                      "unknown option '%s' (known: ge.topoSortingMode, ge.engineType, ge.exec.exclude_engines, "
                      "ge.exec.hostExecFlag, ge.dynamicBatchSize, ge.dynamicImageSize, ge.dynamicDims, "
                      "ge.inputShape, ge.inputFormat, ge.exec.static_model_ops_lower_limit, "
                      "ge.exec.hostSchedulingMaxThreshold, ge.enableSingleStream, ge.exec.enableEngineParallel, "
                      "ac_parallel_enable, ge.exec.hcomParallel, ge.event, ge.streamMaxParallelNum, "
                      "ge.streamTaskLimit, ge.exec.disableReuseMemory, ge.graphMemoryMaxSize)",
                      key);
}

/* The session's options as one config, with its engines, threads and logger. */
static ge_status ge__ss_config_build(const ge_session *s, ge__ss_config *c, ge_error *err) {
  uint32_t i;
  ge_status st;
  memset(c, 0, sizeof *c);
  for (i = 0; i < s->num_options; i++)
    if ((st = ge__ss_apply_option(c, s->options[2 * i], s->options[2 * i + 1], err))) return st;
  c->place.engines = s->engines;
  c->place.num_threads = s->d.num_threads;
  c->place.logger = s->d.logger;
  c->stream.logger = s->d.logger;
  c->dynamic.logger = s->d.logger;
  c->dynamic.engines = ge_engine_list(s->engines); /* rule 5: nodes on a host engine are dynamic */
  c->dynamic.num_engines = ge_engine_count(s->engines);
  return GE_OK;
}

GE_API ge_status ge_session_set_option(ge_session *s, const char *key, const char *value, ge_error *err) {
  ge__ss_config probe;
  uint32_t i;
  char *k, *v;
  ge_status st;
  if (!s || !key || !value) return ge_error_set(err, GE_ERR_INVALID, "ge_session_set_option: no session, key or value");
  if (!*value) return ge_error_set(err, GE_ERR_INVALID, "option %s: the value is empty", key);
  memset(&probe, 0, sizeof probe);
  probe.place.engines = s->engines; /* engine names may name plugins' engines */
  if ((st = ge__ss_apply_option(&probe, key, value, err))) return st;
  if (!(v = ge__ss_strdup(s, value))) return ge_error_set(err, GE_ERR_NOMEM, "out of memory for option '%s'", key);
  for (i = 0; i < s->num_options; i++)
    if (!strcmp(s->options[2 * i], key)) {
      ge__ss_strfree(s, s->options[2 * i + 1]);
      s->options[2 * i + 1] = v;
      return GE_OK;
    }
  k = ge__ss_strdup(s, key);
  {
    char **grown = k ? (char **)ge__ss_grow(s, s->options, s->num_options, 2 * sizeof(char *)) : NULL;
    if (!grown) {
      ge__ss_strfree(s, k);
      ge__ss_strfree(s, v);
      return ge_error_set(err, GE_ERR_NOMEM, "out of memory for option '%s'", key);
    }
    s->options = grown;
  }
  s->options[2 * s->num_options] = k;
  s->options[2 * s->num_options + 1] = v;
  s->num_options++;
  return GE_OK;
}

/* ------------------------------------------------------------- engines */

/* The multi-batch index ops run on DNN_VM_CUSTOM beside the user's ops. */
static const ge_custom_op ge__ss_multibatch_ops[2] = {
    {NULL, "GetDynamicDims", ge_multibatch_kernel_get_dynamic_dims, NULL},
    {NULL, "MapIndex", ge_multibatch_kernel_map_index, NULL},
};

GE_API ge_status ge_session_add_custom_ops(ge_session *s, const ge_custom_op *ops, uint32_t n, ge_error *err) {
  ge_custom_op *grown;
  if (!s || (n && !ops)) return ge_error_set(err, GE_ERR_INVALID, "ge_session_add_custom_ops: no session or ops");
  if (s->engines_fixed)
    return ge_error_set(err, GE_ERR_INVALID, "custom ops must be added before the session's first compile");
  grown = (ge_custom_op *)ge__ss_alloc(s, ((size_t)s->num_custom_ops + n) * sizeof *grown);
  if (!grown) return ge_error_set(err, GE_ERR_NOMEM, "out of memory for custom ops");
  if (s->num_custom_ops) memcpy(grown, s->custom_ops, s->num_custom_ops * sizeof *grown);
  if (n) memcpy(grown + s->num_custom_ops, ops, n * sizeof *grown);
  ge__ss_free(s, s->custom_ops, s->num_custom_ops * sizeof *grown);
  s->custom_ops = grown;
  s->num_custom_ops += n;
  return GE_OK;
}

GE_API ge_status ge_session_load_plugin(ge_session *s, const char *path, ge_error *err) {
  if (!s || !path) return ge_error_set(err, GE_ERR_INVALID, "ge_session_load_plugin: no session or path");
  if (s->engines_fixed)
    return ge_error_set(err, GE_ERR_INVALID, "plugin '%s': engines must be loaded before the session's first compile",
                        path);
  return ge_engine_load_plugin(s->engines, path, err);
}

/* Registers DNN_VM_CUSTOM with the user's and the multi-batch ops; from
 * then on the engine set is fixed. */
static ge_status ge__ss_fix_engines(ge_session *s, ge_error *err) {
  ge_status st;
  if (s->engines_fixed) return GE_OK;
  if ((st = ge_session_add_custom_ops(s, ge__ss_multibatch_ops, 2, err))) return st;
  ge_custom_engine_init(&s->custom, s->custom_ops, s->num_custom_ops);
  if ((st = ge_engine_register(s->engines, &s->custom.engine, err))) return st;
  s->engines_fixed = 1;
  return GE_OK;
}

GE_API const ge_engine_registry *ge_session_engines(const ge_session *s) { return s ? s->engines : NULL; }

/* -------------------------------------------------------------- graphs */

static ge__ss_graph *ge__ss_find(const ge_session *s, uint32_t id) {
  uint32_t i;
  if (!s) return NULL;
  for (i = 0; i < s->num_graphs; i++)
    if (s->graphs[i]->id == id) return s->graphs[i];
  return NULL;
}

/* A model holding g (owned from then on, also on failure). */
static ge__ss_model *ge__ss_model_new(const ge_session *s, ge_graph *g) {
  ge__ss_model *m = (ge__ss_model *)ge__ss_alloc(s, sizeof *m);
  if (!m) {
    ge_graph_free(g);
    return NULL;
  }
  memset(m, 0, sizeof *m);
  m->g = g;
  m->refs = 1;
  return m;
}

/* Frees the plans compiling made (the graph stays). */
static void ge__ss_model_unplan(const ge_session *s, ge__ss_model *m) {
  ge__ss_free(s, m->order, ((size_t)m->order_len + 1) * sizeof(ge_node_id));
  m->order = NULL;
  if (m->has_streams) ge_stream_plan_free(&m->streams);
  if (m->has_memory) ge_mem_graph_plan_free(&m->memory);
  m->has_streams = m->has_memory = 0;
  while (m->num_sub_plans) ge_mem_graph_plan_free(&m->sub_plans[--m->num_sub_plans]);
  ge__ss_free(s, m->sub_plans, m->sub_cap * sizeof *m->sub_plans + 1);
  ge__ss_free(s, (void *)m->sub_graphs, m->sub_cap * sizeof *m->sub_graphs + 1);
  m->sub_plans = NULL, m->sub_graphs = NULL, m->sub_cap = 0;
}

static void ge__ss_model_release(const ge_session *s, ge__ss_model *m) {
  if (!m || --m->refs) return;
  ge__ss_model_unplan(s, m);
  ge_graph_free(m->g);
  ge__ss_free(s, m, sizeof *m);
}

/* Frees what loading made: the program and its allocator. */
static void ge__ss_graph_unload(const ge_session *s, ge__ss_graph *gr) {
  uint32_t k;
  ge_program_free(gr->program);
  gr->program = NULL;
  for (k = 0; k < gr->num_streams; k++) ge_program_free(gr->streams[k]);
  ge__ss_free(s, gr->streams, gr->num_streams * sizeof *gr->streams);
  gr->streams = NULL, gr->num_streams = 0;
  if (gr->cache) ge_caching_allocator_free(gr->cache);
  gr->cache = NULL;
}

static void ge__ss_graph_release(const ge_session *s, ge__ss_graph *gr) {
  ge__ss_graph_unload(s, gr);
  ge__ss_model_release(s, gr->m);
  gr->m = NULL;
}

/* Adds a graph record under id using model m (taking a reference). */
static ge_status ge__ss_add_record(ge_session *s, uint32_t id, ge__ss_model *m, ge_error *err) {
  ge__ss_graph *gr, **grown;
  if (ge__ss_find(s, id)) return ge_error_set(err, GE_ERR_INVALID, "graph %u is already in the session", (unsigned)id);
  gr = (ge__ss_graph *)ge__ss_alloc(s, sizeof *gr);
  grown = gr ? (ge__ss_graph **)ge__ss_grow(s, s->graphs, s->num_graphs, sizeof *grown) : NULL;
  if (!grown) {
    ge__ss_free(s, gr, sizeof *gr);
    return ge_error_set(err, GE_ERR_NOMEM, "out of memory adding graph %u", (unsigned)id);
  }
  memset(gr, 0, sizeof *gr);
  gr->id = id;
  gr->m = m;
  m->refs++;
  s->graphs = grown;
  s->graphs[s->num_graphs++] = gr;
  return GE_OK;
}

GE_API ge_status ge_session_add_graph(ge_session *s, uint32_t id, ge_graph *g, ge_error *err) {
  ge__ss_model *m;
  ge_status st;
  if (!s || !g) {
    ge_graph_free(g);
    return ge_error_set(err, GE_ERR_INVALID, "ge_session_add_graph: no session or graph");
  }
  if (!(m = ge__ss_model_new(s, g))) return ge_error_set(err, GE_ERR_NOMEM, "out of memory adding graph %u", (unsigned)id);
  st = ge__ss_add_record(s, id, m, err);
  ge__ss_model_release(s, m); /* the record holds it now (or nothing does) */
  return st;
}

GE_API ge_status ge_session_fork_graph(ge_session *s, uint32_t id, uint32_t new_id, ge_error *err) {
  ge__ss_graph *gr = ge__ss_find(s, id);
  ge_status st;
  if (!gr) return ge_error_set(err, GE_ERR_NOT_FOUND, "no graph %u in the session", (unsigned)id);
  if ((st = ge_session_compile_graph(s, id, err))) return st;
  return ge__ss_add_record(s, new_id, gr->m, err);
}

GE_API ge_status ge_session_add_graph_file(ge_session *s, uint32_t id, const char *path, ge_error *err) {
  struct stat sb;
  size_t n = path ? strlen(path) : 0;
  ge_graph *g = NULL;
  ge_status st;
  if (!s || !path) return ge_error_set(err, GE_ERR_INVALID, "ge_session_add_graph_file: no session or path");
  if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
    return ge_error_set(err, GE_ERR_IO, "'%s' is a directory, not a model file", path);
  if (n > 5 && strcmp(path + n - 5, ".onnx") == 0) {
    ge_onnx_desc od;
    memset(&od, 0, sizeof od);
    od.graph.allocator = s->d.allocator;
    od.logger = s->d.logger;
    st = ge_onnx_load(path, &od, &g, err);
  } else {
    ge_graph_desc gd;
    memset(&gd, 0, sizeof gd);
    gd.allocator = s->d.allocator;
    st = ge_graph_load(path, &gd, &g, err);
  }
  if (st) return st;
  return ge_session_add_graph(s, id, g, err);
}

GE_API ge_status ge_session_remove_graph(ge_session *s, uint32_t id, ge_error *err) {
  uint32_t i;
  for (i = 0; s && i < s->num_graphs; i++)
    if (s->graphs[i]->id == id) {
      ge__ss_graph_release(s, s->graphs[i]);
      ge__ss_free(s, s->graphs[i], sizeof(ge__ss_graph));
      s->graphs[i] = s->graphs[--s->num_graphs];
      return GE_OK;
    }
  return ge_error_set(err, GE_ERR_NOT_FOUND, "no graph %u in the session", (unsigned)id);
}

/* ------------------------------------------------------------ pipeline */

/* Logs a stage's end: what it left and how long it took. */
static void ge__ss_log_stage(const ge_session *s, const char *stage, const ge_graph *g, double t0) {
  ge_log(&s->d.logger, GE_LOG_INFO, "session", "%s: %u nodes (%.3f ms)", stage, (unsigned)ge_graph_node_count(g),
         ge__ss_now_ms() - t0);
}

/* Engine pieces (composite, then atomic, each optimised by its engine and
 * merged back) of *g and of the subgraphs dynamic/static partitioning made. */
static ge_status ge__ss_engine_pieces(ge_session *s, ge_graph **g, ge_error *err) {
  const ge_engine *const *list = ge_engine_list(s->engines);
  uint32_t n = ge_engine_count(s->engines);
  ge_graph *merged;
  ge_node *x;
  ge_status st;
  if ((st = ge_partition_by_engine(*g, list, n, s->d.num_threads, &merged, err))) return st;
  ge_graph_free(*g);
  *g = merged;
  GE_GRAPH_FOREACH(*g, x) {
    const ge_attr *f = strcmp(x->op, "PartitionedCall") ? NULL : ge_node_attr(x, "f");
    if (!f || f->type != GE_ATTR_GRAPH) continue;
    if ((st = ge_partition_by_engine(f->v.g, list, n, s->d.num_threads, &merged, err)) ||
        (st = ge_node_set_attr_graph(*g, x->id, "f", merged, err)))
      return st;
  }
  return GE_OK;
}

static ge_status ge__ss_plan_call_bodies(ge_session *s, ge__ss_model *m, ge_error *err);

/* The execution order, streams and events, then the memory plans: the
 * root's (reuse across streams only where the stream plan orders it) and
 * each call body's. A root level with shapes known only at run time (or
 * string tensors) gets no memory plan: the executor sizes those values as
 * they come. */
static ge_status ge__ss_plan(ge_session *s, ge__ss_graph *gr, ge_error *err) {
  ge_stream_desc sd = gr->m->cfg.stream;
  ge_mem_graph_desc md;
  ge_error why;
  ge_status st;
  gr->m->order_len = ge_graph_node_count(gr->m->g);
  if (!(gr->m->order = (ge_node_id *)ge__ss_alloc(s, ((size_t)gr->m->order_len + 1) * sizeof(ge_node_id))))
    return ge_error_set(err, GE_ERR_NOMEM, "out of memory for the execution order");
  if ((st = ge_graph_topo_sort(gr->m->g, gr->m->cfg.topo_mode, gr->m->order, err))) return st;
  sd.engines = ge_engine_list(s->engines), sd.num_engines = ge_engine_count(s->engines), sd.order = gr->m->order;
  if ((st = ge_stream_allocate(gr->m->g, &sd, &gr->m->streams, err))) return st;
  gr->m->has_streams = 1;
  memset(&md, 0, sizeof md);
  md.order = gr->m->order;
  md.disable_reuse = gr->m->cfg.disable_reuse_memory;
  md.happens_before = ge_stream_order, md.order_user = &gr->m->streams;
  md.logger = s->d.logger;
  st = ge_mem_plan_graph(gr->m->g, &md, &gr->m->memory, &why);
  gr->m->has_memory = st == GE_OK;
  if (st == GE_ERR_SHAPE || st == GE_ERR_UNSUPPORTED) {
    snprintf(gr->m->memory_why, sizeof gr->m->memory_why, "%.399s", why.message);
    ge_log(&s->d.logger, GE_LOG_INFO, "session", "no memory plan: %s", why.message);
    return ge__ss_plan_call_bodies(s, gr->m, err);
  }
  if (st) return ge_error_set(err, st, "%s", why.message);
  return ge__ss_plan_call_bodies(s, gr->m, err);
}

/* The PartitionedCall bodies (seed 001 §6.2, DavinciModelKernel): each one
 * whose shapes are all known at compile time gets a memory plan of its own,
 * in the order its program will run (the same topological sort), so that
 * it runs as one unit from one block where its values share bytes. That
 * holds for a static root too, and for a body partitioning marked dynamic
 * only for what runs in it (a host CPU node): its shape signature is fixed,
 * so its one plan is made now rather than at the first run. A body the
 * planner refuses (unknown shapes, a string tensor) keeps per-value storage
 * or the executor's plans per shape signature; that is not an error. */
static ge_status ge__ss_plan_call_bodies(ge_session *s, ge__ss_model *m, ge_error *err) {
  uint32_t cap = ge_graph_node_count(m->g);
  ge_node *x;
  ge_status st = GE_OK;
  m->sub_plans = (ge_mem_graph_plan *)ge__ss_alloc(s, cap * sizeof *m->sub_plans + 1);
  m->sub_graphs = (const ge_graph **)ge__ss_alloc(s, cap * sizeof *m->sub_graphs + 1);
  m->sub_cap = cap;
  if (!m->sub_plans || !m->sub_graphs) return ge_error_set(err, GE_ERR_NOMEM, "out of memory for the subgraph plans");
  GE_GRAPH_FOREACH(m->g, x) {
    const ge_attr *f = ge_node_attr(x, "f");
    ge_graph *sub;
    ge_node_id *order;
    ge_mem_graph_desc md;
    ge_error why;
    if (strcmp(x->op, "PartitionedCall") || !f || f->type != GE_ATTR_GRAPH)
      continue;
    sub = f->v.g;
    if (!(order = (ge_node_id *)ge__ss_alloc(s, ((size_t)ge_graph_node_count(sub) + 1) * sizeof *order)))
      return ge_error_set(err, GE_ERR_NOMEM, "out of memory for the order of subgraph '%s'", ge_graph_name(sub));
    memset(&md, 0, sizeof md);
    md.order = order;
    md.disable_reuse = m->cfg.disable_reuse_memory;
    md.logger = s->d.logger;
    if (!(st = ge_graph_infer_shapes(sub, err)) && !(st = ge_graph_topo_sort(sub, m->cfg.topo_mode, order, err))) {
      if (ge_mem_plan_graph(sub, &md, &m->sub_plans[m->num_sub_plans], &why) == GE_OK) {
        ge_log(&s->d.logger, GE_LOG_INFO, "session", "call body '%s' (%s): one planned block of %llu bytes",
               ge_graph_name(sub), x->name, (unsigned long long)m->sub_plans[m->num_sub_plans].block_size);
        m->sub_graphs[m->num_sub_plans++] = sub;
      } else {
        ge_log(&s->d.logger, GE_LOG_INFO, "session", "call body '%s' (%s) not planned: %s", ge_graph_name(sub),
               x->name, why.message);
      }
    }
    ge__ss_free(s, order, ((size_t)ge_graph_node_count(sub) + 1) * sizeof *order);
    if (st) return st;
  }
  return GE_OK;
}

/* ge_exec_desc.subgraph_memory: the block size of a static subgraph's plan. */
static uint64_t ge__ss_subgraph_memory(void *user, const ge_graph *sub) {
  const ge__ss_model *m = (const ge__ss_model *)user;
  uint32_t i;
  for (i = 0; i < m->num_sub_plans; i++)
    if (m->sub_graphs[i] == sub) return m->sub_plans[i].block_size;
  return 0;
}

/* A graph that computes nothing is a mistake, not an empty result. */
static ge_status ge__ss_check_outputs(const ge_graph *g, ge_error *err) {
  ge_node_id out = ge_graph_output_node(g);
  if (out != GE_NONE && ge_graph_node(g, out)->num_inputs > 0) return GE_OK;
  return ge_error_set(err, GE_ERR_INVALID, "graph '%s' has no outputs%s", ge_graph_name(g) ? ge_graph_name(g) : "",
                      ge_graph_node_count(g) <= (out == GE_NONE ? 0u : 1u) ? " (it is empty)" : "");
}

/* The pipeline (see the top of this file) on gr->m->g, up to the session's level. */
static ge_status ge__ss_compile(ge_session *s, ge__ss_graph *gr, ge_error *err) {
  ge__ss_config *c = &gr->m->cfg;
  int upto = s->d.level == GE_COMPILE_FULL ? 4 : (int)s->d.level;
  double t0 = ge__ss_now_ms();
  ge_status st;
  if ((st = ge__ss_fix_engines(s, err)) || (st = ge__ss_config_build(s, c, err))) return st;
  if ((st = ge__ss_check_outputs(gr->m->g, err))) return st;
  if (gr->m->engine_type) c->place.engine_type = gr->m->engine_type;
  if (upto == GE_COMPILE_REFERENCE) return ge_graph_infer_shapes(gr->m->g, err);
  if ((st = ge_multibatch_apply(gr->m->g, &c->multibatch, err)) || (st = ge_graph_infer_shapes(gr->m->g, err))) return st;
  ge__ss_log_stage(s, "shape tiers and shape inference", gr->m->g, t0);
  t0 = ge__ss_now_ms();
  if ((st = ge_partition_stages(gr->m->g, err))) return st;
  ge__ss_log_stage(s, "pipeline stages", gr->m->g, t0);
  t0 = ge__ss_now_ms();
  if ((st = ge_place_optimize(gr->m->g, &c->place, GE_OPTIMIZE_ORIGINAL, err)) || (st = ge_graph_infer_shapes(gr->m->g, err)))
    return st;
  ge__ss_log_stage(s, "original-graph optimisers (constant folding)", gr->m->g, t0);
  t0 = ge__ss_now_ms();
  if ((st = ge_place(gr->m->g, &c->place, err))) return st;
  ge__ss_log_stage(s, "placement with the host-CPU reassign passes", gr->m->g, t0);
  if (upto == GE_COMPILE_PLACE) {
    t0 = ge__ss_now_ms();
    if ((st = ge_place_optimize(gr->m->g, &c->place, GE_OPTIMIZE_SUBGRAPH, err)) || (st = ge_place(gr->m->g, &c->place, err)))
      return st;
    ge__ss_log_stage(s, "engine optimisers (fusion)", gr->m->g, t0);
    return GE_OK;
  }
  t0 = ge__ss_now_ms();
  if ((st = ge_partition_dynamic(gr->m->g, &c->dynamic, err)) || (st = ge_place(gr->m->g, &c->place, err))) return st;
  ge__ss_log_stage(s, "dynamic/static partitioning and placement of the calls", gr->m->g, t0);
  t0 = ge__ss_now_ms();
  if ((st = ge__ss_engine_pieces(s, &gr->m->g, err)) || (st = ge_place(gr->m->g, &c->place, err))) return st;
  ge__ss_log_stage(s, "engine pieces optimised and merged back", gr->m->g, t0);
  if (upto == GE_COMPILE_PARTITION) return GE_OK;
  t0 = ge__ss_now_ms();
  if ((st = ge__ss_plan(s, gr, err))) return st;
  ge__ss_log_stage(s, "streams, events and memory plan", gr->m->g, t0);
  return GE_OK;
}

GE_API ge_status ge_session_compile_graph(ge_session *s, uint32_t id, ge_error *err) {
  ge__ss_graph *gr = ge__ss_find(s, id);
  ge_status st;
  if (!gr) return ge_error_set(err, GE_ERR_NOT_FOUND, "no graph %u in the session", (unsigned)id);
  if (gr->m->compiled) return GE_OK;
  if (gr->m->failed)
    return ge_error_set(err, GE_ERR_INVALID, "graph %u failed to compile before: remove it and add it again", (unsigned)id);
  st = ge__ss_compile(s, gr, err);
  gr->m->compiled = st == GE_OK;
  gr->m->failed = st != GE_OK;
  if (st) ge__ss_model_unplan(s, gr->m);
  return st;
}

/* ----------------------------------------------------------------- run */

static ge_kernel_fn ge__ss_reference_lookup(const ge_node *n, void *user) {
  (void)user;
  return ge_host_cpu_kernel(n);
}

/* Lowers a compiled graph to its program: one planned block for a static
 * root level, a caching allocator for the sizes a dynamic one meets. */
/* The programs' allocator: inner's, counting the calls (ge_session_allocations). */
static void *ge__ss_count_alloc(void *user, size_t n) {
  ge__ss_graph *gr = (ge__ss_graph *)user;
  __atomic_fetch_add(&gr->allocations, 1, __ATOMIC_RELAXED);
  return gr->inner.alloc(gr->inner.user, n);
}
static void *ge__ss_count_realloc(void *user, void *ptr, size_t old_size, size_t new_size) {
  ge__ss_graph *gr = (ge__ss_graph *)user;
  __atomic_fetch_add(&gr->allocations, 1, __ATOMIC_RELAXED);
  return gr->inner.realloc(gr->inner.user, ptr, old_size, new_size);
}
static void ge__ss_count_free(void *user, void *ptr, size_t size) {
  ge__ss_graph *gr = (ge__ss_graph *)user;
  gr->inner.free(gr->inner.user, ptr, size);
}

static ge_status ge__ss_load_program(ge_session *s, ge__ss_graph *gr, ge_program **out, ge_error *err) {
  ge_exec_desc d;
  ge_status st;
  double t0 = ge__ss_now_ms();
  if (!s->runtime && s->d.num_threads > 1) { /* compiling alone starts no thread */
    ge_runtime_desc rd;
    memset(&rd, 0, sizeof rd);
    rd.allocator = s->d.allocator;
    rd.num_threads = s->d.num_threads;
    if ((st = ge_runtime_create(&rd, &s->runtime, err))) return st;
  }
  memset(&d, 0, sizeof d);
  d.num_threads = s->d.num_threads;
  d.runtime = s->runtime;
  d.executor = s->d.executor;
  d.launch = s->d.launch;
  d.check_order = s->d.check_order;
  d.timeout_ms = s->d.timeout_ms;
  d.profile = s->d.profile;
  d.streams = gr->m->has_streams ? &gr->m->streams : NULL; /* the order the memory plan was made under */
  d.topo_mode = gr->m->cfg.topo_mode;
  d.memory_limit = gr->m->cfg.memory_limit;
  d.lookup = s->d.level == GE_COMPILE_REFERENCE ? ge__ss_reference_lookup : ge_engine_kernel_lookup;
  d.prepare = s->d.level == GE_COMPILE_REFERENCE ? NULL : ge_engine_prepare_lookup;
  d.lookup_user = s->engines;
  d.subgraph_memory = ge__ss_subgraph_memory, d.subgraph_memory_user = gr->m;
  d.shape_plans = s->d.shape_plans;
  if (gr->m->has_memory) {
    d.memory_size = gr->m->memory.block_size;
    gr->inner = ge_allocator_or_default(ge_graph_allocator(gr->m->g));
  } else { /* one cache per graph record: it is thread-safe */
    if (!gr->cache && (st = ge_caching_allocator_create(&s->d.allocator, &gr->cache, err))) return st;
    gr->inner = ge_caching_allocator_as_allocator(gr->cache);
  }
  d.allocator.alloc = ge__ss_count_alloc, d.allocator.free = ge__ss_count_free;
  d.allocator.realloc = gr->inner.realloc ? ge__ss_count_realloc : NULL;
  d.allocator.user = gr;
  if ((st = ge_program_create(gr->m->g, &d, out, err))) return st;
  ge_log(&s->d.logger, GE_LOG_INFO, "session", "loaded: %u tasks, %s executor, %s (%.3f ms)",
         (unsigned)ge_program_num_tasks(*out), ge_executor_name(ge_program_executor(*out)),
         gr->m->has_memory ? "one planned memory block"
                           : "dynamic shapes: memory plans per input-shape signature over a caching allocator",
         ge__ss_now_ms() - t0);
  return GE_OK;
}

static ge_status ge__ss_load(ge_session *s, ge__ss_graph *gr, ge_error *err) {
  return ge__ss_load_program(s, gr, &gr->program, err);
}

/* The program of caller stream k of graph id (loaded on first use). */
static ge_status ge__ss_stream_program(ge_session *s, uint32_t id, uint32_t k, ge_program **out, ge_error *err) {
  ge__ss_graph *gr = ge__ss_find(s, id);
  ge_status st;
  if (!gr) return ge_error_set(err, GE_ERR_NOT_FOUND, "no graph %u in the session", (unsigned)id);
  if (k > 1023) return ge_error_set(err, GE_ERR_INVALID, "caller stream %u of graph %u: at most 1024 streams", (unsigned)k, (unsigned)id);
  if ((st = ge_session_compile_graph(s, id, err))) return st;
  if (k >= gr->num_streams) {
    uint32_t n = k + 1;
    ge_program **grown = (ge_program **)ge__ss_alloc(s, n * sizeof *grown);
    if (!grown) return ge_error_set(err, GE_ERR_NOMEM, "out of memory for the streams of graph %u", (unsigned)id);
    memset(grown, 0, n * sizeof *grown);
    if (gr->num_streams) memcpy(grown, gr->streams, gr->num_streams * sizeof *grown);
    ge__ss_free(s, gr->streams, gr->num_streams * sizeof *grown);
    gr->streams = grown, gr->num_streams = n;
  }
  if (!gr->streams[k] && (st = ge__ss_load_program(s, gr, &gr->streams[k], err))) return st;
  *out = gr->streams[k];
  return GE_OK;
}

GE_API ge_status ge_session_load_graph(ge_session *s, uint32_t id, ge_error *err) {
  ge__ss_graph *gr = ge__ss_find(s, id);
  ge_status st;
  if (!gr) return ge_error_set(err, GE_ERR_NOT_FOUND, "no graph %u in the session", (unsigned)id);
  if (gr->program) return GE_OK;
  if ((st = ge_session_compile_graph(s, id, err))) return st;
  return ge__ss_load(s, gr, err);
}

GE_API ge_status ge_session_run_graph(ge_session *s, uint32_t id, const ge_value *const *inputs, uint32_t n,
                                      ge_error *err) {
  ge__ss_graph *gr = ge__ss_find(s, id);
  ge_status st;
  if (!gr) return ge_error_set(err, GE_ERR_NOT_FOUND, "no graph %u in the session", (unsigned)id);
  if (!gr->program && (st = ge_session_load_graph(s, id, err))) return st;
  return ge_program_run(gr->program, inputs, n, err);
}

GE_API ge_status ge_session_run_graph_async(ge_session *s, uint32_t id, const ge_value *const *inputs, uint32_t n,
                                            ge_program_done_fn done, void *user, ge_program_request *req,
                                            ge_error *err) {
  ge_status st = ge_session_load_graph(s, id, err);
  if (st) return st;
  return ge_program_run_async(ge__ss_find(s, id)->program, inputs, n, done, user, req, err);
}

GE_API ge_status ge_session_run_graph_with_stream(ge_session *s, uint32_t id, uint32_t stream,
                                                  const ge_value *const *inputs, uint32_t n, ge_program_done_fn done,
                                                  void *user, ge_program_request *req, ge_error *err) {
  ge_program *p = NULL;
  ge_status st = ge__ss_stream_program(s, id, stream, &p, err);
  if (st) return st;
  return ge_program_run_async(p, inputs, n, done, user, req, err);
}

GE_API const ge_value *ge_session_stream_output(const ge_session *s, uint32_t id, uint32_t stream, uint32_t i) {
  const ge__ss_graph *gr = ge__ss_find(s, id);
  const ge_program *p = gr && stream < gr->num_streams ? gr->streams[stream] : NULL;
  return p && i < ge_program_num_outputs(p) ? ge_program_output(p, i) : NULL;
}

GE_API uint64_t ge_session_allocations(const ge_session *s, uint32_t id) {
  ge__ss_graph *gr = ge__ss_find(s, id);
  return gr ? __atomic_load_n(&gr->allocations, __ATOMIC_RELAXED) : 0;
}

GE_API const ge_value *ge_session_output(const ge_session *s, uint32_t id, uint32_t i) {
  const ge__ss_graph *gr = ge__ss_find(s, id);
  return gr && gr->program && i < ge_program_num_outputs(gr->program) ? ge_program_output(gr->program, i) : NULL;
}

/* --------------------------------------------------------------- views */

GE_API const ge_graph *ge_session_graph(const ge_session *s, uint32_t id) {
  const ge__ss_graph *gr = ge__ss_find(s, id);
  return gr ? gr->m->g : NULL;
}
GE_API int ge_session_graph_compiled(const ge_session *s, uint32_t id) {
  const ge__ss_graph *gr = ge__ss_find(s, id);
  return gr && gr->m->compiled;
}
GE_API const ge_node_id *ge_session_order(const ge_session *s, uint32_t id, uint32_t *n) {
  const ge__ss_graph *gr = ge__ss_find(s, id);
  if (n) *n = gr && gr->m->order ? gr->m->order_len : 0;
  return gr ? gr->m->order : NULL;
}
GE_API const ge_stream_plan *ge_session_stream_plan(const ge_session *s, uint32_t id) {
  const ge__ss_graph *gr = ge__ss_find(s, id);
  return gr && gr->m->has_streams ? &gr->m->streams : NULL;
}
GE_API const ge_mem_graph_plan *ge_session_memory_plan(const ge_session *s, uint32_t id, const char **why) {
  const ge__ss_graph *gr = ge__ss_find(s, id);
  if (why) *why = !gr ? "no such graph" : !gr->m->compiled ? "not compiled" : gr->m->has_memory ? "" : gr->m->memory_why[0] ? gr->m->memory_why : "not planned at this compile level";
  return gr && gr->m->has_memory ? &gr->m->memory : NULL;
}
GE_API ge_status ge_session_explain(const ge_session *s, uint32_t id, const ge_graph *g, const ge_node *n,
                                    ge_place_explanation *out, ge_error *err) {
  const ge__ss_graph *gr = ge__ss_find(s, id);
  if (!gr || !gr->m->compiled) return ge_error_set(err, GE_ERR_NOT_FOUND, "graph %u is not compiled", (unsigned)id);
  return ge_place_explain(g ? g : gr->m->g, n, &gr->m->cfg.place, out, err);
}
GE_API ge_topo_mode ge_session_topo_mode(const ge_session *s, uint32_t id) {
  const ge__ss_graph *gr = ge__ss_find(s, id);
  return gr ? gr->m->cfg.topo_mode : GE_TOPO_BFS;
}
GE_API ge_program *ge_session_program(const ge_session *s, uint32_t id) {
  const ge__ss_graph *gr = ge__ss_find(s, id);
  return gr ? gr->program : NULL;
}

/* ----------------------------------------------------------- single ops */

/* The signature of a single op call, as bytes (compared whole: no false hits). */
typedef struct ge__ss_key {
  const ge_session *s;
  unsigned char *p;
  size_t n, cap;
  int failed;
} ge__ss_key;

static void ge__ss_key_put(ge__ss_key *k, const void *bytes, size_t n) {
  if (k->failed) return;
  if (k->n + n > k->cap) {
    size_t cap = k->cap ? k->cap : 256;
    unsigned char *q;
    while (cap < k->n + n) cap *= 2;
    if (!(q = (unsigned char *)ge__ss_alloc(k->s, cap))) {
      k->failed = 1;
      return;
    }
    if (k->n) memcpy(q, k->p, k->n);
    ge__ss_free(k->s, k->p, k->cap);
    k->p = q, k->cap = cap;
  }
  memcpy(k->p + k->n, bytes, n);
  k->n += n;
}
static void ge__ss_key_i64(ge__ss_key *k, int64_t v) { ge__ss_key_put(k, &v, sizeof v); }
static void ge__ss_key_str(ge__ss_key *k, const char *str) {
  str = str ? str : "";
  ge__ss_key_put(k, str, strlen(str) + 1);
}
static void ge__ss_key_tensor(ge__ss_key *k, const ge_tensor *t) {
  int32_t i;
  ge__ss_key_i64(k, t->dtype);
  ge__ss_key_i64(k, t->rank);
  for (i = 0; i < t->rank; i++) ge__ss_key_i64(k, t->dims[i]);
  if (t->dtype == GE_DTYPE_STRING) {
    int64_t j, count = ge_tensor_numel(t);
    for (j = 0; j < count; j++) ge__ss_key_str(k, ((const char *const *)t->data)[j]);
  } else ge__ss_key_put(k, t->data, t->nbytes);
}

/* Appends attribute a; graph attributes are refused. */
static ge_status ge__ss_key_attr(ge__ss_key *k, const ge_attr *a, ge_error *err) {
  int32_t i;
  ge__ss_key_str(k, a->name);
  ge__ss_key_i64(k, a->type);
  ge__ss_key_i64(k, a->count);
  switch (a->type) {
  case GE_ATTR_INT: ge__ss_key_i64(k, a->v.i); break;
  case GE_ATTR_FLOAT: ge__ss_key_put(k, &a->v.f, sizeof a->v.f); break;
  case GE_ATTR_BOOL: ge__ss_key_i64(k, a->v.b != 0); break;
  case GE_ATTR_STRING: ge__ss_key_str(k, a->v.s); break;
  case GE_ATTR_DTYPE: ge__ss_key_i64(k, a->v.dt); break;
  case GE_ATTR_TENSOR: ge__ss_key_tensor(k, a->v.t); break;
  case GE_ATTR_INTS: ge__ss_key_put(k, a->v.ints, (size_t)a->count * sizeof(int64_t)); break;
  case GE_ATTR_FLOATS: ge__ss_key_put(k, a->v.floats, (size_t)a->count * sizeof(double)); break;
  case GE_ATTR_BOOLS: ge__ss_key_put(k, a->v.bools, (size_t)a->count); break;
  case GE_ATTR_STRINGS:
    for (i = 0; i < a->count; i++) ge__ss_key_str(k, a->v.strings[i]);
    break;
  case GE_ATTR_DTYPES:
    for (i = 0; i < a->count; i++) ge__ss_key_i64(k, a->v.dtypes[i]);
    break;
  case GE_ATTR_TENSORS:
    for (i = 0; i < a->count; i++) ge__ss_key_tensor(k, a->v.tensors[i]);
    break;
  default:
    return ge_error_set(err, GE_ERR_UNSUPPORTED, "single op: attribute '%s' of type %d is not supported here",
                        a->name ? a->name : "", (int)a->type);
  }
  return GE_OK;
}

static ge_status ge__ss_op_key(const ge_session *s, const ge_single_op_desc *d, const ge_value *const *inputs, uint32_t n,
                               ge__ss_key *k, ge_error *err) {
  uint32_t i;
  int32_t j;
  ge_status st;
  memset(k, 0, sizeof *k);
  k->s = s;
  ge__ss_key_str(k, d->op);
  ge__ss_key_str(k, d->domain);
  ge__ss_key_i64(k, d->engine);
  ge__ss_key_i64(k, d->num_outputs);
  ge__ss_key_i64(k, n);
  for (i = 0; i < n; i++) {
    if (!inputs[i]) {
      ge__ss_key_i64(k, -1);
      continue;
    }
    ge__ss_key_i64(k, inputs[i]->dtype);
    ge__ss_key_i64(k, inputs[i]->rank);
    for (j = 0; j < inputs[i]->rank; j++) ge__ss_key_i64(k, inputs[i]->dims[j]);
  }
  for (i = 0; i < d->num_attrs; i++)
    if ((st = ge__ss_key_attr(k, &d->attrs[i], err))) return st;
  return k->failed ? ge_error_set(err, GE_ERR_NOMEM, "out of memory for a single op's signature") : GE_OK;
}

/* The graph Data... -> op -> NetOutput for one call's signature. */
static ge_status ge__ss_op_graph(ge_session *s, const ge_single_op_desc *d, const ge_value *const *inputs, uint32_t n,
                                 ge_graph **out, ge_error *err) {
  ge_graph_desc gd;
  ge_graph *g = NULL;
  ge_edge in[64], outs[64];
  ge_node_id op = GE_NONE;
  uint32_t i, num_out = d->num_outputs ? d->num_outputs : 1;
  ge_status st;
  if (n > 64 || num_out > 64) return ge_error_set(err, GE_ERR_INVALID, "single op %s: more than 64 inputs or outputs", d->op);
  memset(&gd, 0, sizeof gd);
  gd.allocator = s->d.allocator;
  if ((st = ge_graph_create(&gd, &g, err))) return st;
  for (i = 0; i < n && !st; i++) {
    char name[32];
    in[i].node = GE_NONE, in[i].index = 0;
    if (!inputs[i]) continue;
    snprintf(name, sizeof name, "input%u", (unsigned)i);
    st = ge_graph_add_data(g, name, inputs[i]->dtype, inputs[i]->rank, inputs[i]->dims, &in[i].node, err);
  }
  if (!st) st = ge_graph_add_node(g, d->op, d->op, n, in, (int32_t)num_out, &op, err);
  if (!st && d->domain && *d->domain) st = ge_node_set_domain(g, op, d->domain, err);
  if (!st && d->num_attrs) st = ge_node_set_attrs(g, op, d->attrs, d->num_attrs, err);
  if (!st && d->engine != GE_OP_ENGINE_SYS)
    st = ge_node_set_attr_string(g, op, GE_PLACE_ATTR_ENGINE, d->engine == GE_OP_ENGINE_AICORE ? "AIcoreEngine" : "VectorEngine",
                                 err);
  for (i = 0; i < num_out; i++) outs[i].node = op, outs[i].index = i;
  if (!st) st = ge_graph_set_outputs(g, num_out, outs, NULL, err);
  if (st) {
    ge_graph_free(g);
    return st;
  }
  *out = g;
  return GE_OK;
}

static void ge__ss_op_release(const ge_session *s, ge__ss_op *o) {
  ge__ss_graph_release(s, &o->graph);
  ge__ss_free(s, o->key, o->key_len);
}

/* The cached op with key k, or a new one compiled and loaded (evicting the
 * least recently used when the cache is full). */
static ge_status ge__ss_op_get(ge_session *s, const ge_single_op_desc *d, const ge_value *const *inputs, uint32_t n,
                               ge__ss_key *k, ge__ss_op **out, ge_error *err) {
  uint32_t i, cap = s->d.single_op_cache ? s->d.single_op_cache : 64, victim = 0;
  uint64_t h = XXH3_64bits(k->p, k->n);
  ge__ss_op fresh;
  ge_graph *g = NULL;
  ge_status st;
  for (i = 0; i < s->num_ops; i++)
    if (s->ops[i].hash == h && s->ops[i].key_len == k->n && !memcmp(s->ops[i].key, k->p, k->n)) {
      s->op_hits++;
      s->ops[i].last_use = ++s->op_clock;
      *out = &s->ops[i];
      return GE_OK;
    }
  memset(&fresh, 0, sizeof fresh);
  if ((st = ge__ss_op_graph(s, d, inputs, n, &g, err))) return st;
  if (!(fresh.graph.m = ge__ss_model_new(s, g))) return ge_error_set(err, GE_ERR_NOMEM, "out of memory for a single op");
  if (d->engine == GE_OP_ENGINE_VECTOR) fresh.graph.m->engine_type = "VectorEngine"; /* it excludes AI Core */
  if ((st = ge__ss_compile(s, &fresh.graph, err))) {
    ge__ss_graph_release(s, &fresh.graph);
    return st;
  }
  fresh.graph.m->compiled = 1;
  if (!s->ops && !(s->ops = (ge__ss_op *)ge__ss_alloc(s, cap * sizeof(ge__ss_op)))) {
    ge__ss_graph_release(s, &fresh.graph);
    return ge_error_set(err, GE_ERR_NOMEM, "out of memory for the single-op cache");
  }
  if (s->num_ops == cap) {
    for (i = 1; i < s->num_ops; i++)
      if (s->ops[i].last_use < s->ops[victim].last_use) victim = i;
    ge__ss_op_release(s, &s->ops[victim]);
  } else victim = s->num_ops++;
  fresh.key = k->p, fresh.key_len = k->n, fresh.hash = h, fresh.last_use = ++s->op_clock;
  k->p = NULL, k->cap = 0; /* the cache owns the key's bytes now */
  s->ops[victim] = fresh;
  s->ops_compiled++;
  *out = &s->ops[victim];
  return GE_OK;
}

GE_API ge_status ge_session_run_op(ge_session *s, const ge_single_op_desc *d, const ge_value *const *inputs, uint32_t n,
                                   const ge_value **outputs, ge_error *err) {
  ge__ss_key k;
  ge__ss_op *o = NULL;
  const ge_value *bound[64];
  uint32_t i, m = 0, num_out;
  ge_status st;
  if (!s || !d || !d->op || (n && !inputs) || !outputs)
    return ge_error_set(err, GE_ERR_INVALID, "ge_session_run_op: no session, op, inputs or outputs");
  if ((st = ge__ss_op_key(s, d, inputs, n, &k, err)) == GE_OK) st = ge__ss_op_get(s, d, inputs, n, &k, &o, err);
  if (k.cap) ge__ss_free(s, k.p, k.cap);
  if (st) return st;
  if (!o->graph.program && (st = ge__ss_load(s, &o->graph, err))) return st;
  for (i = 0; i < n; i++)
    if (inputs[i]) bound[m++] = inputs[i]; /* Data nodes exist for the present inputs only */
  if ((st = ge_program_run(o->graph.program, bound, m, err))) return st;
  num_out = ge_program_num_outputs(o->graph.program);
  for (i = 0; i < num_out; i++) outputs[i] = ge_program_output(o->graph.program, i);
  return GE_OK;
}

GE_API void ge_session_op_cache_stats(const ge_session *s, uint64_t *compiled, uint64_t *hits) {
  if (compiled) *compiled = s ? s->ops_compiled : 0;
  if (hits) *hits = s ? s->op_hits : 0;
}

/* ------------------------------------------------------------ lifetime */

GE_API ge_status ge_session_create(const ge_session_desc *desc, ge_session **out, ge_error *err) {
  ge_allocator a;
  ge_session *s;
  ge_status st;
  if (!out) return ge_error_set(err, GE_ERR_INVALID, "ge_session_create: no output pointer");
  *out = NULL;
  if (desc && (desc->num_threads < 0 || desc->num_threads > 1024 || (unsigned)desc->level > GE_COMPILE_PARTITION ||
               (unsigned)desc->executor > GE_EXECUTOR_STREAMS || (unsigned)desc->launch > GE_LAUNCH_HOST))
    return ge_error_set(err, GE_ERR_INVALID,
                        "ge_session_create: num_threads %d, level %d, executor %d or launch mode %d out of range",
                        desc->num_threads, (int)desc->level, (int)desc->executor, (int)desc->launch);
  a = ge_allocator_or_default(desc ? &desc->allocator : NULL);
  if (!(s = (ge_session *)a.alloc(a.user, sizeof *s))) return ge_error_set(err, GE_ERR_NOMEM, "out of memory for a session");
  memset(s, 0, sizeof *s);
  if (desc) s->d = *desc;
  if (s->d.num_threads == 0) s->d.num_threads = 1;
  s->a = a;
  if ((st = ge_engine_registry_create(&s->d.allocator, &s->engines, err)) ||
      (st = ge_engines_register_standard(s->engines, err))) {
    ge_session_free(s);
    return st;
  }
  *out = s;
  return GE_OK;
}

GE_API void ge_session_free(ge_session *s) {
  uint32_t i;
  if (!s) return;
  for (i = 0; i < s->num_graphs; i++) {
    ge__ss_graph_release(s, s->graphs[i]);
    ge__ss_free(s, s->graphs[i], sizeof(ge__ss_graph));
  }
  ge__ss_free(s, s->graphs, s->num_graphs * sizeof(ge__ss_graph *));
  for (i = 0; i < s->num_ops; i++) ge__ss_op_release(s, &s->ops[i]);
  ge__ss_free(s, s->ops, (s->d.single_op_cache ? s->d.single_op_cache : 64) * sizeof(ge__ss_op));
  for (i = 0; i < 2 * s->num_options; i++) ge__ss_strfree(s, s->options[i]);
  ge__ss_free(s, s->options, 2 * (size_t)s->num_options * sizeof(char *));
  ge__ss_free(s, s->custom_ops, s->num_custom_ops * sizeof(ge_custom_op));
  ge_engine_registry_free(s->engines);
  ge_runtime_free(s->runtime); /* after the programs that use it */
  s->a.free(s->a.user, s, sizeof *s);
}

#ifdef __cplusplus
}
#endif
#endif /* GE_SESSION_IMPLEMENTATION_DONE */
#endif /* GE_SESSION_IMPLEMENTATION */

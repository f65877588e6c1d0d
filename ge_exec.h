/* ge_exec.h — lowering and executors.
 *
 * Part of ge. Include anywhere for the declarations; define
 * GE_EXEC_IMPLEMENTATION (or GE_IMPLEMENTATION) in one translation unit.
 *
 * The core runs a program: a flat array of {kernel function, context}
 * records, called in order by a tight loop (seed 003 §4.4). It needs no
 * graph. The graph adapter lowers a ge_graph into such a program:
 *
 *   1. infer shapes once; values whose shape is known at compile time get
 *      their storage now, so a static graph allocates nothing per run;
 *   2. order the nodes topologically and give every node output a value
 *      slot; Const outputs point at their weights (no copy), Data outputs
 *      are bound to the caller's inputs at each run (no copy);
 *   3. one task per computing node: the kernel a lookup function gives (an
 *      engine's), or one of the executor's own control-flow kernels (If,
 *      Case, While, Loop, Scan, PartitionedCall) that run nested subgraphs through their
 *      own lowered programs.
 *
 * Dynamic shapes are resolved at run time: kernels size their outputs.
 * Hybrid execution (seed 003 §5): a static subgraph (a PartitionedCall the
 * caller planned, ge_exec_desc.subgraph_memory) runs from one block made
 * at load; a dynamic level (the root, a PartitionedCall body) lays out its
 * values by a memory plan per input-shape signature, made after the first
 * run with it and kept (LRU), or one plan at the upper bounds of ranged
 * inputs, so a repeated shape allocates nothing (ge_exec_desc.shape_plans).
 * Values the plan does not fit grow storage of their own.
 *
 * Executors (ge_exec_desc.executor) run the root level's tasks in the
 * flat order, from a ready queue (one thread or the runtime's workers), or
 * as the stream plan's in-order queues with events, on the thread pool of
 * ge_runtime.h; nested subgraphs run sequentially inside their node.
 *
 * A run may carry a timeout (ge_exec_desc.timeout_ms): a watchdog thread
 * of the program, asleep but for one wake per run, aborts a run that
 * passes it; the error names the node that was running. With profile on,
 * every task's start and end are kept (preallocated, nothing per run) for
 * a Chrome trace (ge_program_write_trace) and a per-op summary.
 *
 * Thread safety: a program is used by one thread at a time (one run, or
 * one async request, in flight); distinct programs of one graph may run
 * concurrently only if the kernels allow it (the host CPU kernels do).
 * With the multi-thread or stream executors a program's own kernels run
 * concurrently too, so its allocator (for shapes known only at run time)
 * must be thread-safe: the default one and ge_mem.h's caching allocator
 * are. ge_program_abort may be called from any thread. The graph (and the
 * stream plan given) must outlive its programs and must not change while
 * they exist.
 *
 * Contents, in file order (each section opens with a "---- name" comment):
 *   declarations   core (ge_exec_run_tasks), graph adapter (ge_exec_desc,
 *                  the program, run, async runs, the run loop)
 *   implementation program (the struct, memory count and ceiling), shape
 *                  plans (per signature or at the bounds), fixed shapes, output storage,
 *                  the executor's own kernels (If, Loop, Scan, ...),
 *                  lowering, executors, run (sync, async, loop, subgraphs)
 */
#ifndef GE_EXEC_H
#define GE_EXEC_H

#include "ge_graph.h"
#include "ge_mem.h"
#include "ge_runtime.h"
#include "ge_stream.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ----------------------------------------------------------------- core */

/* ge_task (a kernel and its context) is in ge_runtime.h. */

/* Runs tasks[0..n) in order; stops at the first failure and reports its
 * index in *failed (when given). */
GE_API ge_status ge_exec_run_tasks(ge_task *tasks, size_t n, size_t *failed);

/* -------------------------------------------------------- graph adapter */

/* Which kernel computes a node (NULL: none). */
typedef ge_kernel_fn (*ge_kernel_lookup_fn)(const ge_node *n, void *user);

/* How the root level's tasks are run (seed 000 §4.6, 003 §3 and §4.4).
 * Every executor gives bit-identical outputs; they differ in order and
 * threads. Nested subgraphs (If/Loop bodies) always run sequentially
 * inside their node's task. */
typedef enum ge_executor_kind {
  GE_EXECUTOR_AUTO = 0,     /* as GE chooses (below) */
  GE_EXECUTOR_SEQUENTIAL,   /* the flat loop over the lowered order */
  GE_EXECUTOR_TOPOLOGICAL,  /* a FIFO ready queue by pending-input counts, this thread */
  GE_EXECUTOR_MULTI_THREAD, /* the ready queue served by the runtime's threads */
  GE_EXECUTOR_PRIORITY,     /* ready queue by longest path to the end, this thread */
  GE_EXECUTOR_STREAMS       /* the stream plan: in-order queues and events on the runtime's threads */
} ge_executor_kind;

typedef struct ge_exec_desc {
  ge_allocator allocator;     /* zero: the graph's allocator */
  ge_kernel_lookup_fn lookup; /* required */
  /* Optional: a node's prepare function (ge_engine.prepare), called once
   * at load for each task of fixed shapes (the Init program); both lookups
   * take lookup_user. */
  ge_kernel_lookup_fn prepare;
  void *lookup_user;
  int num_threads;            /* offered to kernels; 0 = 1 */
  /* The thread pool kernels' parallel loops run on (ge_runtime.h), the
   * caller's, shared by any number of programs. NULL with num_threads > 1:
   * the program makes a pool of its own with that budget. */
  ge_runtime *runtime;
  /* The executor. AUTO picks, with a budget of >= 2 threads and a graph
   * whose branches carry work enough to keep 1.6 threads busy (its work,
   * estimated from shapes, over the work on its longest path): STREAMS
   * when a stream plan of two or more streams is given; MULTI_THREAD when
   * the graph is also wide in tasks (tasks / longest path >= 2) and the
   * order is free (below). Else PRIORITY with control flow (If, Case,
   * While, Loop, Scan) and a free order, SEQUENTIAL otherwise: the
   * kernels then take the threads. */
  ge_executor_kind executor;
  /* The stream plan (ge_stream.h) of this graph: the STREAMS executor runs
   * it; the topological executors keep its per-stream order, so that a
   * memory plan made under it (ge_mem's happens_before = ge_stream_order)
   * stays valid. With a memory plan (memory_size > 0) and no stream plan
   * the order is not free: only SEQUENTIAL is allowed. Must outlive the
   * program. */
  const ge_stream_plan *streams;
  ge_launch_mode launch;      /* STREAMS: sink (task lists built at load, one launch) or host */
  /* Debug: every run stamps each task's start and end and checks that every
   * data and control dependency finished before its consumer started (an
   * error naming both nodes otherwise). */
  int check_order;
  uint32_t shuffle;           /* debug, STREAMS: pick streams in this seeded order */
  ge_topo_mode topo_mode;     /* order of the tasks (GE's ge.topoSortingMode) */
  /* Planned memory (ge_mem.h's model block). With memory_size > 0, every
   * root-level output whose ge_tensor_desc.offset is >= 0 lives at
   * memory_base + offset: no allocation per node or per run. memory_base
   * NULL: the program allocates the block (512-byte aligned); otherwise it
   * is the caller's (GE's external feature-map base), at least memory_size
   * bytes, alive as long as the program. Outputs that would pass the
   * block's end are an error when lowering. */
  uint64_t memory_size;
  void *memory_base;
  /* Ceiling on the bytes the executor allocates for values (the planned
   * block, outputs that outgrow it, loop state and scan outputs, nested
   * subgraphs): an allocation that would pass it fails the run with an
   * error naming the node. 0: 3/4 of the machine's physical memory. */
  uint64_t memory_limit;
  /* Hybrid execution (seed 003 §5, seed 001 §6.2). A nested subgraph whose
   * tensors a static memory plan placed (ge_mem_plan_graph wrote their
   * ge_tensor_desc.offset): this returns the plan's block size, and its
   * program allocates that block once at load; 0 (or no function): no plan,
   * each static value gets storage of its own at load. */
  uint64_t (*subgraph_memory)(void *user, const ge_graph *sub);
  void *subgraph_memory_user;
  /* Dynamic levels (the root without memory_size, PartitionedCall bodies):
   * values sized at run time are laid out by a memory plan made after the
   * first run with an input-shape signature (sizes as that run met them,
   * lifetimes from the task order, views sharing their source's bytes) and
   * reused for that signature from one block: no allocation per run. When
   * every dynamic input dim carries a range (ge_dim_info hi >= 0) one plan
   * sized at the upper bounds serves every shape. This many signatures keep
   * a plan (least recently used evicted); 0: 8; negative: none (each value
   * grows storage of its own, as before). */
  int32_t shape_plans;
  /* Per run: a run still going after this many milliseconds is aborted
   * before its next task (a Loop's body checks too) and fails with an error
   * "run timed out after N ms: node 'X' (Op) was running; ..."; the program
   * stays usable. 0: none. Costs one lock per run start and end. */
  uint32_t timeout_ms;
  /* Profile: every run records each task's start and end time and thread
   * (ge_program_write_trace, ge_program_write_profile). Off: no cost. */
  int profile;
} ge_exec_desc;

typedef struct ge_program ge_program;

/* Lowers g (shapes are inferred on g first). Unknown ops, ops without a
 * kernel, and shape conflicts are errors naming the node. */
GE_API ge_status ge_program_create(ge_graph *g, const ge_exec_desc *desc, ge_program **out, ge_error *err);
GE_API void ge_program_free(ge_program *p);

GE_API uint32_t ge_program_num_inputs(const ge_program *p);
GE_API uint32_t ge_program_num_outputs(const ge_program *p);
GE_API uint32_t ge_program_num_tasks(const ge_program *p);
/* Name and declared type (dtype, shape with -1 for dynamic dims) of input i. */
GE_API const char *ge_program_input_name(const ge_program *p, uint32_t i);
GE_API const ge_tensor_desc *ge_program_input_desc(const ge_program *p, uint32_t i);
GE_API const char *ge_program_output_name(const ge_program *p, uint32_t i);
/* Index of the input / output with that name, or -1. */
GE_API int32_t ge_program_find_input(const ge_program *p, const char *name);
GE_API int32_t ge_program_find_output(const ge_program *p, const char *name);

/* Runs the program on inputs[0..n) (by input index; data is read in place,
 * not copied). A wrong count, dtype, rank or dimension is an error naming
 * the input. Outputs stay valid until the next run or free; an output that
 * is a view of an input or weight (a Reshape of it, say) shares its bytes. */
GE_API ge_status ge_program_run(ge_program *p, const ge_value *const *inputs, uint32_t n, ge_error *err);
GE_API const ge_value *ge_program_output(const ge_program *p, uint32_t i);
/* The memory plans kept for input-shape signatures (ge_exec_desc.shape_plans)
 * by the root level and its PartitionedCall bodies: their number, and their
 * blocks' bytes in *bytes when given. 0 for a static graph. */
GE_API uint32_t ge_program_shape_plans(const ge_program *p, uint64_t *bytes);
/* The executor the program runs with (AUTO resolved) and its name. */
GE_API ge_executor_kind ge_program_executor(const ge_program *p);
GE_API const char *ge_executor_name(ge_executor_kind k);
/* Parses auto|sequential|topological|multi-thread|priority|streams. */
GE_API ge_status ge_executor_parse(const char *name, ge_executor_kind *out, ge_error *err);

/* Stops the run in progress (or, if none, the next run) before its next
 * task starts: that run fails with an error saying "aborted" and naming
 * the node where it stopped; the program stays usable. Any thread may call
 * it (a watchdog for a timeout, say). */
GE_API void ge_program_abort(ge_program *p);

/* ---- profile (ge_exec_desc.profile) */

/* Forgets the summed task times (call after the warm-up runs). */
GE_API void ge_program_profile_reset(ge_program *p);
/* Writes the last run as a Chrome trace-event JSON (Perfetto, or
 * chrome://tracing): one lane (tid) per stream under the stream executor,
 * else per thread (0: the caller's, k: worker k); one complete event ("X")
 * per task that ran, named by its node, with op, engine (engine_names[i]
 * for engine index i when given), thread and task id in args; one flow
 * ("s" -> "f") per event record -> wait between streams. */
GE_API ge_status ge_program_write_trace(const ge_program *p, FILE *f, const char *const *engine_names,
                                        uint32_t num_engine_names, ge_error *err);
/* A table per op type over the runs since the reset: count of tasks,
 * total ms, % of the summed run time, mean us per task; a last row says
 * how much of the run the tasks took (the rest is executor overhead; above
 * 100% when tasks ran at once). */
GE_API ge_status ge_program_write_profile(const ge_program *p, FILE *f, ge_error *err);

/* Asynchronous runs (seed 003 §3.3, NnExecute async). The caller owns the
 * request and keeps it, the program and the inputs alive until the run has
 * completed and ge_program_wait has returned. The run goes to one of the
 * runtime's workers; without a free worker it runs when the caller waits.
 * Several requests may be in flight at once on distinct programs of one
 * graph (one program per caller stream: each has its own I/O binding and
 * feature-map block; weights are shared), never two on one program. */
typedef void (*ge_program_done_fn)(void *user, ge_program *p, ge_status status, const ge_error *err);
typedef struct ge_program_request {
  /* private */
  ge_runtime_job job;
  ge_program *program;
  const ge_value *const *inputs;
  uint32_t num_inputs;
  ge_program_done_fn done;
  void *user;
  int state;  /* 0 queued, 1 running, 2 complete */
  int posted;
  ge_status status;
  ge_error err;
} ge_program_request;

/* Starts a run and returns at once (bad input counts are reported by the
 * completion, like every other error). done (may be NULL) is called on the
 * thread that ran it, once the outputs are ready. */
GE_API ge_status ge_program_run_async(ge_program *p, const ge_value *const *inputs, uint32_t n, ge_program_done_fn done,
                                      void *user, ge_program_request *req, ge_error *err);
/* 1 once the run has completed (outputs ready), else 0. */
GE_API int ge_program_poll(ge_program_request *req);
/* Waits for completion (running the request here if no worker took it),
 * then returns the run's status and error. Must be called once per request. */
GE_API ge_status ge_program_wait(ge_program_request *req, ge_error *err);

/* The resident run loop (seed 003 §3.2): a model thread fed by an input
 * queue, calling done(user, p, status, err) after each run (the outputs
 * are valid during the call). The loop thread takes the caller's place in
 * the thread budget. Push keeps the input pointers until that run's
 * callback and blocks while `depth` runs are queued; stop finishes the
 * queued runs, then joins the thread. p must not be run otherwise meanwhile. */
typedef struct ge_program_loop ge_program_loop;
GE_API ge_status ge_program_loop_start(ge_program *p, uint32_t depth, ge_program_done_fn done, void *user,
                                       ge_program_loop **out, ge_error *err);
GE_API ge_status ge_program_loop_push(ge_program_loop *l, const ge_value *const *inputs, uint32_t n, ge_error *err);
GE_API void ge_program_loop_stop(ge_program_loop *l);

#ifdef __cplusplus
}
#endif
#endif /* GE_EXEC_H */

/* ===================================================================== */
#if defined(GE_IMPLEMENTATION) || defined(GE_EXEC_IMPLEMENTATION)
#ifndef GE_EXEC_IMPLEMENTATION_DONE
#define GE_EXEC_IMPLEMENTATION_DONE

#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#ifdef __cplusplus
extern "C" {
#endif

GE_API ge_status ge_exec_run_tasks(ge_task *tasks, size_t n, size_t *failed) {
  size_t i;
  for (i = 0; i < n; i++) {
    ge_status st = tasks[i].fn(&tasks[i].ctx);
    if (st != GE_OK) {
      if (failed) *failed = i;
      return st;
    }
  }
  return GE_OK;
}

/* ------------------------------------------------------------- program */

typedef struct ge__subprogram {
  const ge_graph *graph;
  ge_program *program;
} ge__subprogram;

#define GE__X_NONE 0xffffffffu
#define GE__X_EXTERN 0xfffffffeu /* a view of bytes no shape plan holds (an input, a weight) */

/* One input-shape signature's memory plan of a dynamic level. */
typedef struct ge__x_shape_plan {
  int64_t *sig;            /* the inputs' ranks and dims it was made for (NULL: a free entry) */
  unsigned char *block;    /* 64-byte aligned, inside owned */
  void *owned;
  uint64_t size;           /* bytes of owned */
  uint64_t *offset;        /* per dynamic value: its bytes in the block, or UINT64_MAX (not planned) */
  uint64_t *bytes;         /* per dynamic value: the bytes planned */
  uint32_t *view_of;       /* per dynamic value: the value whose bytes it viewed when planned (GE__X_NONE: none) */
  uint64_t last_used;      /* LRU clock */
} ge__x_shape_plan;

/* The shape plans of a dynamic level (ge_exec_desc.shape_plans): made at
 * load (values, lifetimes, bounds), a plan per signature at its first run. */
typedef struct ge__x_dyn {
  uint32_t num_values;     /* task outputs whose size is known only at run time */
  uint32_t *value_slot;    /* value -> slot */
  uint32_t *slot_value;    /* slot -> value or GE__X_NONE */
  int32_t *first_use, *last_use; /* producing task, last consuming task (level outputs: num_tasks) */
  uint64_t *bound;         /* bytes at the inputs' range upper bounds (0: not bounded) */
  uint32_t *view_root;     /* this run: the value whose bytes it views (GE__X_NONE: owns them; GE__X_EXTERN) */
  uint32_t *data_slots;    /* the slots the signature reads: inputs, then captures */
  uint32_t num_data, sig_len;
  int64_t *sig;            /* this run's signature */
  int bounded;             /* every dynamic input dim ranged: one plan for every shape */
  int reuse;               /* lifetimes may share bytes (the flat order runs) */
  ge__x_shape_plan *plans;
  uint32_t cap;
  ge__x_shape_plan *active; /* this run's plan (NULL: the run records sizes for a new one) */
  int outgrown;            /* a value left the active plan this run: plan again after it */
  int off;                 /* the ceiling or memory refused a plan: values grow storage of their own */
  uint64_t clock;
} ge__x_dyn;

struct ge_program {
  ge_allocator a;
  ge_graph *graph;
  ge_exec_desc desc;
  ge_kernel_env env;
  ge_error run_err;           /* kernels report here; copied out by run */
  ge_value *slots;            /* one per node output */
  uint32_t num_slots;
  uint32_t *first_slot;       /* node id -> its first slot */
  ge_task *tasks;
  uint32_t num_tasks;
  ge_value **ptrs;            /* inputs and outputs arrays of the tasks */
  uint32_t num_ptrs;
  ge_node_id *inputs;         /* Data nodes by index */
  uint32_t num_inputs;
  ge_node_id output_node;     /* NetOutput or GE_NONE */
  ge_value **outputs;         /* the NetOutput's input slots */
  uint32_t num_outputs;
  ge__subprogram *subs;       /* lowered subgraphs, made on first use */
  uint32_t num_subs;
  const ge_node *caller;      /* for a subgraph program: the node running it */
  ge_value *const *caller_inputs;
  unsigned char *block;       /* the planned memory block (NULL: none) */
  void *block_owned;          /* what we allocated for it (NULL: the caller's) */
  uint64_t *planned;          /* per slot: planned offset, or UINT64_MAX */
  size_t *planned_size;       /* per slot: bytes planned */
  ge_program *root;           /* the program whose count and limit apply (NULL: this one) */
  uint64_t mem_used, mem_limit; /* bytes of values allocated; the ceiling */
  uint64_t mem_refused;       /* the size of the last allocation the ceiling refused (0: none) */
  ge_runtime *rt;             /* the pool kernels' loops use (NULL: none) */
  ge_runtime *rt_owned;       /* when the program made it */
  /* the root level's executor (subprograms: always sequential) */
  ge_executor_kind executor;
  uint32_t *task_of_node;     /* node id -> task index or UINT32_MAX */
  ge_runtime_streams *rs;     /* STREAMS */
  ge_runtime_dag *dag;        /* the topological executors */
  ge_error *lane_err;         /* kernels' errors per stream (STREAMS) or per task (MULTI_THREAD) */
  uint32_t num_lanes;
  uint64_t *stamps;           /* check_order: 2 per id */
  uint32_t num_ids;
  int abort;                  /* ge_program_abort (read before every task) */
  uint32_t stop_task;         /* the flat loop: where the last run stopped (UINT32_MAX: it ended) */
  ge_node_id *id_node;        /* STREAMS: per id, the plan node of its entry */
  uint32_t *id_stream;        /* STREAMS: per id, its stream */
  /* timeout */
  struct ge__x_watchdog *wd;
  int timed_out;              /* the watchdog aborted this run */
  uint32_t timeout_task;      /* the task it saw running (UINT32_MAX: none) */
  /* profile: per id start/end ns and thread of the last run; summed durations */
  uint64_t *times;
  uint32_t *threads;
  uint64_t *prof_sum;
  uint64_t run_t0, run_t1, prof_runs, prof_total;
  /* a subgraph's outer-scope captures: Data nodes with parent_index k
   * read input k of the calling node (found at lowering, not per run) */
  uint32_t num_captures;
  uint32_t *capture_slot;
  int64_t *capture_parent;
  ge__x_dyn *dyn;             /* shape plans of a dynamic level (NULL: none) */
  int is_call_body;           /* a PartitionedCall's subgraph (a hybrid unit) */
  unsigned char *fixed;       /* per slot: its dtype and shape never move (NULL: no task has fixed shapes) */
};

static void *ge__x_alloc(const ge_allocator *a, size_t n) { return a->alloc(a->user, n ? n : 1); }
static void ge__x_free(const ge_allocator *a, void *p, size_t n) {
  if (p) a->free(a->user, p, n ? n : 1);
}

/* The default ceiling: 3/4 of physical memory (none where unknown). */
static uint64_t ge__x_default_memory_limit(void) {
#ifdef _SC_PHYS_PAGES
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  uint64_t total;
  if (pages > 0 && page > 0 && ge_size_mul_checked((uint64_t)pages, (uint64_t)page, &total)) return total / 4 * 3;
#endif
  return UINT64_MAX;
}

/* The outermost program: its count and ceiling cover nested subgraphs. */
static ge_program *ge__x_root(ge_program *p) {
  while (p->root) p = p->root;
  return p;
}

/* Counts n more (grow) or fewer bytes of values against the ceiling. */
/* The count is atomic: under the multi-thread and stream executors the
 * kernels of one program allocate at the same time. */
static int ge__x_mem_take(ge_program *p, uint64_t n) {
  ge_program *r = ge__x_root(p);
  uint64_t used = __atomic_load_n(&r->mem_used, __ATOMIC_RELAXED);
  do {
    if (n > r->mem_limit || used > r->mem_limit - n) {
      __atomic_store_n(&r->mem_refused, n, __ATOMIC_RELAXED);
      return 0;
    }
  } while (!__atomic_compare_exchange_n(&r->mem_used, &used, used + n, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
  return 1;
}
static void ge__x_mem_give(ge_program *p, uint64_t n) {
  ge_program *r = ge__x_root(p);
  uint64_t used = __atomic_load_n(&r->mem_used, __ATOMIC_RELAXED);
  while (!__atomic_compare_exchange_n(&r->mem_used, &used, used > n ? used - n : 0, 1, __ATOMIC_RELAXED,
                                      __ATOMIC_RELAXED)) {
  }
}

/* Makes v hold dtype/dims with room for at least `room` bytes, growing its
 * storage (never shrinking it). GE_ERR_SHAPE when the size overflows,
 * GE_ERR_NOMEM when memory or the ceiling (p->mem_refused set) says no. */
static ge_status ge__x_reserve_room(ge_program *p, ge_value *v, ge_dtype dtype, int32_t rank, const int64_t *dims,
                                    size_t room) {
  size_t old_cap = v->capacity;
  if (ge_value_set_shape(v, dtype, rank, dims)) return GE_ERR_SHAPE;
  if (room < v->nbytes) room = v->nbytes;
  if (room > old_cap || !v->data) {
    size_t cap = room > old_cap ? room : old_cap;
    void *q;
    if (!ge__x_mem_take(p, cap ? cap : 1)) return GE_ERR_NOMEM;
    if (!(q = ge__x_alloc(&p->a, cap))) {
      ge__x_mem_give(p, cap ? cap : 1);
      return GE_ERR_NOMEM;
    }
    if (old_cap) ge__x_free(&p->a, v->data, old_cap), ge__x_mem_give(p, old_cap);
    v->data = q;
    v->capacity = cap ? cap : 1;
  }
  return GE_OK;
}

static ge_status ge__x_reserve(ge_program *p, ge_value *v, ge_dtype dtype, int32_t rank, const int64_t *dims) {
  return ge__x_reserve_room(p, v, dtype, rank, dims, 0);
}

/* The error for a failed ge__x_reserve of v, naming what it was for. */
static ge_status ge__x_reserve_error(ge_kernel_ctx *c, ge_status st, const ge_value *v, const char *what, unsigned i) {
  ge_program *r = ge__x_root((ge_program *)c->env->executor);
  char dims[160];
  ge_shape sh;
  sh.rank = v->rank >= 0 && v->rank <= GE_MAX_RANK ? v->rank : GE_RANK_UNKNOWN;
  sh.dims = (int64_t *)v->dims;
  sh.info = NULL;
  ge_shape_str(&sh, dims, sizeof dims);
  if (st == GE_ERR_SHAPE)
    return ge_kernel_error(c, st, "%s %u: %s%s has a size that overflows or a negative dimension", what, i,
                           ge_dtype_name(v->dtype), dims);
  if (r->mem_refused) {
    uint64_t n = r->mem_refused;
    r->mem_refused = 0;
    return ge_kernel_error(c, GE_ERR_NOMEM,
                           "%s %u: %s%s needs %llu bytes, past the memory limit (%llu of %llu bytes in use; "
                           "ge_exec_desc.memory_limit)", what, i, ge_dtype_name(v->dtype), dims, (unsigned long long)n,
                           (unsigned long long)r->mem_used, (unsigned long long)r->mem_limit);
  }
  return ge_kernel_error(c, GE_ERR_NOMEM, "%s %u: out of memory for %s%s (%zu bytes)", what, i, ge_dtype_name(v->dtype),
                         dims, v->nbytes);
}

static int ge__x_is(const ge_node *n, const char *op) { return strcmp(n->op, op) == 0 && (!n->domain || !*n->domain); }

/* ---------------------------------------------------------- shape plans
 * A dynamic level (seed 003 §5) sizes its values at run time. Rather than
 * growing storage value by value, it keeps a memory plan per input-shape
 * signature: the first run with a signature records every value's bytes
 * and which values are views of which; after it the values are laid out
 * by lifetime (ge_mem_plan_intervals) in one block, and the next runs with
 * that signature take their bytes from it. A run that meets a value the
 * plan does not fit (a data-dependent size, a new view) gives it storage of
 * its own and plans again after the run. */

static void ge__x_plan_release(ge_program *p, ge__x_shape_plan *e) {
  ge__x_dyn *d = p->dyn;
  if (e->owned) ge__x_free(&p->a, e->owned, (size_t)e->size), ge__x_mem_give(p, e->size);
  ge__x_free(&p->a, e->sig, ((size_t)d->sig_len + 1) * sizeof *e->sig);
  ge__x_free(&p->a, e->offset, ((size_t)d->num_values + 1) * sizeof *e->offset);
  ge__x_free(&p->a, e->bytes, ((size_t)d->num_values + 1) * sizeof *e->bytes);
  ge__x_free(&p->a, e->view_of, ((size_t)d->num_values + 1) * sizeof *e->view_of);
  memset(e, 0, sizeof *e);
}

static void ge__x_dyn_free(ge_program *p) {
  ge__x_dyn *d = p->dyn;
  size_t nv, ns;
  uint32_t i;
  if (!d) return;
  nv = (size_t)d->num_values + 1, ns = (size_t)p->num_slots + 1;
  for (i = 0; d->plans && i < d->cap; i++) ge__x_plan_release(p, &d->plans[i]);
  ge__x_free(&p->a, d->plans, ((size_t)d->cap + 1) * sizeof *d->plans);
  ge__x_free(&p->a, d->value_slot, nv * sizeof *d->value_slot);
  ge__x_free(&p->a, d->slot_value, ns * sizeof *d->slot_value);
  ge__x_free(&p->a, d->first_use, nv * sizeof *d->first_use);
  ge__x_free(&p->a, d->last_use, nv * sizeof *d->last_use);
  ge__x_free(&p->a, d->bound, nv * sizeof *d->bound);
  ge__x_free(&p->a, d->view_root, nv * sizeof *d->view_root);
  ge__x_free(&p->a, d->data_slots, ((size_t)d->num_data + 1) * sizeof *d->data_slots);
  ge__x_free(&p->a, d->sig, ((size_t)d->sig_len + 1) * sizeof *d->sig);
  ge__x_free(&p->a, d, sizeof *d);
  p->dyn = NULL;
}

/* Bytes of a tensor desc at its dims' upper bounds (0: some dim unbounded). */
static uint64_t ge__x_bound_bytes(const ge_tensor_desc *t) {
  int64_t dims[GE_MAX_RANK];
  size_t bytes;
  int32_t k;
  if (t->dtype == GE_DTYPE_UNDEFINED || t->dtype == GE_DTYPE_STRING || t->shape.rank < 0 || t->shape.rank > GE_MAX_RANK)
    return 0;
  for (k = 0; k < t->shape.rank; k++) {
    dims[k] = t->shape.dims[k];
    if (dims[k] < 0) dims[k] = t->shape.info ? t->shape.info[k].hi : -1;
    if (dims[k] < 0) return 0;
  }
  return ge_dims_nbytes_checked(t->dtype, dims, t->shape.rank, &bytes) ? (uint64_t)bytes : 0;
}

/* 1 when d has a dynamic dim and every one is ranged; 0 when all are
 * static; -1 when one is unbounded (or the rank unknown). */
static int ge__x_ranged(const ge_tensor_desc *t) {
  int32_t k;
  int any = 0;
  if (t->shape.rank < 0) return -1;
  for (k = 0; k < t->shape.rank; k++)
    if (t->shape.dims[k] < 0) {
      if (!t->shape.info || t->shape.info[k].hi < 0) return -1;
      any = 1;
    }
  return any;
}

/* Sizes at the bounds that the ranges alone do not give (a Reshape to -1
 * keeps no range): shapes inferred once more, on a copy of the level whose
 * ranged input dims are set to their upper bounds. */
static void ge__x_dyn_bounds_by_inference(ge_program *p) {
  ge__x_dyn *d = p->dyn;
  ge_graph *c = NULL;
  ge_node_id *map = NULL, *ids = NULL;
  uint32_t bound = ge_graph_id_bound(p->graph), n = 0, i, t, k, v;
  ge_node *x;
  ge_error err;
  if (ge_graph_clone(p->graph, NULL, &c, &err)) return;
  map = (ge_node_id *)ge__x_alloc(&p->a, ((size_t)bound + 1) * sizeof *map);
  ids = (ge_node_id *)ge__x_alloc(&p->a, ((size_t)ge_graph_node_count(c) + 1) * sizeof *ids);
  if (!map || !ids) goto done;
  GE_GRAPH_FOREACH(c, x) ids[n++] = x->id; /* the copy numbers nodes densely, in id order */
  i = 0;
  GE_GRAPH_FOREACH(p->graph, x) map[x->id] = i < n ? ids[i++] : GE_NONE;
  GE_GRAPH_FOREACH(c, x) {
    int64_t dims[GE_MAX_RANK];
    const ge_tensor_desc *o = x->num_outputs ? &x->outputs[0] : NULL;
    int32_t j;
    if (!ge__x_is(x, "Data") || !o || o->shape.rank < 0 || o->shape.rank > GE_MAX_RANK) continue;
    for (j = 0; j < o->shape.rank; j++)
      dims[j] = o->shape.dims[j] >= 0 || !o->shape.info || o->shape.info[j].hi < 0 ? o->shape.dims[j] : o->shape.info[j].hi;
    if (ge_node_set_output(c, x->id, 0, o->dtype, o->shape.rank, dims, NULL, &err)) goto done;
  }
  if (ge_graph_infer_shapes(c, &err)) goto done;
  for (v = 0, t = 0; t < p->num_tasks; t++) {
    const ge_kernel_ctx *kc = &p->tasks[t].ctx;
    for (k = 0; k < kc->num_outputs; k++) {
      const ge_node *y;
      size_t bytes;
      if (v >= d->num_values || d->value_slot[v] != (uint32_t)(kc->outputs[k] - p->slots)) continue;
      y = map[kc->node->id] == GE_NONE ? NULL : ge_graph_node(c, map[kc->node->id]);
      if (y && k < y->num_outputs && y->outputs[k].dtype != GE_DTYPE_STRING && ge_shape_is_static(&y->outputs[k].shape) &&
          ge_dims_nbytes_checked(y->outputs[k].dtype, y->outputs[k].shape.dims, y->outputs[k].shape.rank, &bytes) &&
          bytes > d->bound[v])
        d->bound[v] = bytes;
      v++;
    }
  }
done:
  ge__x_free(&p->a, map, ((size_t)bound + 1) * sizeof *map);
  ge__x_free(&p->a, ids, ((size_t)ge_graph_node_count(c) + 1) * sizeof *ids);
  ge_graph_free(c);
}

/* At load, after lowering: the dynamic values (task outputs lowering gave
 * no storage), their lifetimes in the task order, their sizes at the
 * inputs' bounds, and the slots a signature reads. */
static ge_status ge__x_dyn_setup(ge_program *p, ge_error *err) {
  ge__x_dyn *d;
  uint32_t t, k, i, n = 0;
  size_t nv;
  int ranged = 0, unbounded = 0;
  if (p->desc.shape_plans < 0 || p->block) return GE_OK;
  for (t = 0; t < p->num_tasks; t++)
    for (k = 0; k < p->tasks[t].ctx.num_outputs; k++) n += !p->tasks[t].ctx.outputs[k]->data;
  if (!n) return GE_OK;
  if (!(d = (ge__x_dyn *)ge__x_alloc(&p->a, sizeof *d))) return ge_error_set(err, GE_ERR_NOMEM, "out of memory");
  memset(d, 0, sizeof *d);
  p->dyn = d;
  d->num_values = n, nv = (size_t)n + 1;
  d->num_data = p->num_inputs + p->num_captures;
  d->sig_len = d->num_data * (1 + GE_MAX_RANK);
  d->value_slot = (uint32_t *)ge__x_alloc(&p->a, nv * sizeof *d->value_slot);
  d->slot_value = (uint32_t *)ge__x_alloc(&p->a, ((size_t)p->num_slots + 1) * sizeof *d->slot_value);
  d->first_use = (int32_t *)ge__x_alloc(&p->a, nv * sizeof *d->first_use);
  d->last_use = (int32_t *)ge__x_alloc(&p->a, nv * sizeof *d->last_use);
  d->bound = (uint64_t *)ge__x_alloc(&p->a, nv * sizeof *d->bound);
  d->view_root = (uint32_t *)ge__x_alloc(&p->a, nv * sizeof *d->view_root);
  d->data_slots = (uint32_t *)ge__x_alloc(&p->a, ((size_t)d->num_data + 1) * sizeof *d->data_slots);
  d->sig = (int64_t *)ge__x_alloc(&p->a, ((size_t)d->sig_len + 1) * sizeof *d->sig);
  if (!d->value_slot || !d->slot_value || !d->first_use || !d->last_use || !d->bound || !d->view_root || !d->data_slots ||
      !d->sig) {
    ge__x_dyn_free(p);
    return ge_error_set(err, GE_ERR_NOMEM, "out of memory");
  }
  for (i = 0; i < p->num_slots; i++) d->slot_value[i] = GE__X_NONE;
  for (n = 0, t = 0; t < p->num_tasks; t++) {
    const ge_kernel_ctx *c = &p->tasks[t].ctx;
    for (k = 0; k < c->num_outputs; k++) {
      if (c->outputs[k]->data) continue;
      d->value_slot[n] = (uint32_t)(c->outputs[k] - p->slots);
      d->slot_value[d->value_slot[n]] = n;
      d->first_use[n] = d->last_use[n] = (int32_t)t;
      d->bound[n] = ge__x_bound_bytes(&c->node->outputs[k]);
      d->view_root[n++] = GE__X_NONE;
    }
    for (k = 0; k < c->num_inputs; k++) {
      uint32_t v = c->inputs[k] ? d->slot_value[c->inputs[k] - p->slots] : GE__X_NONE;
      if (v != GE__X_NONE) d->last_use[v] = (int32_t)t;
    }
  }
  for (i = 0; i < p->num_outputs; i++) {
    uint32_t v = d->slot_value[p->outputs[i] - p->slots];
    if (v != GE__X_NONE) d->last_use[v] = (int32_t)p->num_tasks; /* held after the run */
  }
  for (i = 0; i < d->num_data; i++) {
    uint32_t s = i < p->num_inputs ? p->first_slot[p->inputs[i]] : p->capture_slot[i - p->num_inputs];
    const ge_node *x = i < p->num_inputs ? ge_graph_node(p->graph, p->inputs[i]) : NULL;
    int r;
    d->data_slots[i] = s;
    if (!x) { /* a capture: its Data node */
      ge_node *y;
      GE_GRAPH_FOREACH(p->graph, y) if (p->first_slot[y->id] == s && y->num_outputs) x = y;
    }
    r = x && x->num_outputs ? ge__x_ranged(&x->outputs[0]) : -1;
    if (r < 0) unbounded = 1;
    if (r > 0) ranged = 1;
  }
  d->bounded = ranged && !unbounded;
  if (d->bounded) ge__x_dyn_bounds_by_inference(p);
  d->cap = d->bounded ? 1 : p->desc.shape_plans ? (uint32_t)p->desc.shape_plans : 8;
  if (!(d->plans = (ge__x_shape_plan *)ge__x_alloc(&p->a, ((size_t)d->cap + 1) * sizeof *d->plans))) {
    ge__x_dyn_free(p);
    return ge_error_set(err, GE_ERR_NOMEM, "out of memory");
  }
  memset(d->plans, 0, ((size_t)d->cap + 1) * sizeof *d->plans);
  return GE_OK;
}

/* Before a run (inputs bound): this signature's plan, if there is one. */
static void ge__x_dyn_begin(ge_program *p) {
  ge__x_dyn *d = p->dyn;
  uint32_t i;
  int64_t *s = d->sig;
  d->active = NULL, d->outgrown = 0;
  if (d->off) return;
  for (i = 0; i < d->num_data; i++, s += 1 + GE_MAX_RANK) {
    const ge_value *v = &p->slots[d->data_slots[i]];
    int32_t k;
    s[0] = v->rank;
    for (k = 0; k < GE_MAX_RANK; k++) s[1 + k] = k < v->rank ? v->dims[k] : 0;
  }
  for (i = 0; i < d->cap; i++) {
    ge__x_shape_plan *e = &d->plans[i];
    if (e->sig && (d->bounded || !memcmp(e->sig, d->sig, (size_t)d->sig_len * sizeof *d->sig))) {
      e->last_used = ++d->clock;
      d->active = e;
      return;
    }
  }
}

/* After a successful run that had no plan, or outgrew it: plans the values
 * as this run met them (at least as large as before and as the bounds).
 * Failing to plan (memory, the ceiling) is not the run's failure: the
 * level keeps growing storage value by value. */
static void ge__x_dyn_plan(ge_program *p) {
  ge__x_dyn *d = p->dyn;
  ge__x_shape_plan *e = d->active, fresh;
  ge_mem_interval *iv;
  int32_t *last;
  uint64_t *offsets;
  uint32_t v, i;
  size_t nv = (size_t)d->num_values + 1;
  ge_mem_plan_desc pd;
  ge_mem_plan_summary sum;
  ge_error err;
  int reuse = p->root || p->executor == GE_EXECUTOR_SEQUENTIAL; /* else tasks may run in any order */
  memset(&fresh, 0, sizeof fresh);
  iv = (ge_mem_interval *)ge__x_alloc(&p->a, nv * sizeof *iv);
  last = (int32_t *)ge__x_alloc(&p->a, nv * sizeof *last);
  fresh.sig = (int64_t *)ge__x_alloc(&p->a, ((size_t)d->sig_len + 1) * sizeof *fresh.sig);
  fresh.offset = (uint64_t *)ge__x_alloc(&p->a, nv * sizeof *fresh.offset);
  fresh.bytes = (uint64_t *)ge__x_alloc(&p->a, nv * sizeof *fresh.bytes);
  fresh.view_of = (uint32_t *)ge__x_alloc(&p->a, nv * sizeof *fresh.view_of);
  offsets = fresh.offset;
  if (!iv || !last || !fresh.sig || !fresh.offset || !fresh.bytes || !fresh.view_of) goto fail;
  memcpy(fresh.sig, d->sig, (size_t)d->sig_len * sizeof *d->sig);
  memcpy(last, d->last_use, (size_t)d->num_values * sizeof *last);
  for (v = 0; v < d->num_values; v++) { /* a view keeps its source's bytes alive */
    uint32_t r = d->view_root[v];
    if (r < d->num_values && last[r] < d->last_use[v]) last[r] = d->last_use[v];
  }
  memset(iv, 0, nv * sizeof *iv);
  for (v = 0; v < d->num_values; v++) {
    const ge_value *sv = &p->slots[d->value_slot[v]];
    uint64_t size = sv->nbytes;
    fresh.view_of[v] = d->view_root[v];
    fresh.bytes[v] = 0;
    if (d->view_root[v] != GE__X_NONE || sv->dtype == GE_DTYPE_STRING) size = 0; /* bytes not its own, or no size */
    else {
      if (size < d->bound[v]) size = d->bound[v];
      if (e && e->offset[v] != UINT64_MAX && size < e->bytes[v]) size = e->bytes[v];
      fresh.bytes[v] = size;
    }
    iv[v].size = size;
    iv[v].first_use = reuse ? d->first_use[v] : 0;
    iv[v].last_use = reuse ? last[v] : (int32_t)p->num_tasks;
  }
  memset(&pd, 0, sizeof pd);
  pd.allocator = p->a;
  pd.alignment = 64;
  if (ge_mem_plan_intervals(iv, d->num_values, &pd, offsets, &sum, &err)) goto fail;
  for (v = 0; v < d->num_values; v++)
    if (fresh.view_of[v] != GE__X_NONE || p->slots[d->value_slot[v]].dtype == GE_DTYPE_STRING) offsets[v] = UINT64_MAX;
  /* storage of its own that no one needs after this run goes back first (the ceiling counts it) */
  for (v = 0; v < d->num_values; v++) {
    ge_value *sv = &p->slots[d->value_slot[v]];
    if (sv->capacity && last[v] < (int32_t)p->num_tasks) {
      ge__x_free(&p->a, sv->data, sv->capacity), ge__x_mem_give(p, sv->capacity);
      sv->data = NULL, sv->capacity = 0;
    }
  }
  fresh.size = sum.total + 64;
  if (!ge__x_mem_take(p, fresh.size)) {
    ge__x_root(p)->mem_refused = 0;
    fresh.size = 0;
    goto refused;
  }
  if (!(fresh.owned = ge__x_alloc(&p->a, (size_t)fresh.size))) {
    ge__x_mem_give(p, fresh.size);
    fresh.size = 0;
    goto refused;
  }
  fresh.block = (unsigned char *)(((uintptr_t)fresh.owned + 63) & ~(uintptr_t)63);
  if (!e) { /* a free entry, or the least recently used one */
    for (i = 0; i < d->cap; i++)
      if (!d->plans[i].sig || !e || d->plans[i].last_used < e->last_used) {
        e = &d->plans[i];
        if (!e->sig) break;
      }
    ge__x_plan_release(p, e); /* not this run's: its outputs are in storage of their own */
  } else { /* this run's outputs may be in the old block: moved, or copied below */
    for (v = 0; v < d->num_values; v++) {
      ge_value *sv = &p->slots[d->value_slot[v]];
      if (sv->capacity || !sv->data || last[v] < (int32_t)p->num_tasks) continue;
      if (fresh.view_of[v] != GE__X_NONE) continue; /* follows its source */
      if (offsets[v] != UINT64_MAX && sv->nbytes <= fresh.bytes[v]) {
        memcpy(fresh.block + offsets[v], sv->data, sv->nbytes);
        sv->data = fresh.block + offsets[v];
      }
    }
    for (v = 0; v < d->num_values; v++) { /* views of a moved source follow it */
      ge_value *sv = &p->slots[d->value_slot[v]];
      uint32_t r = fresh.view_of[v];
      if (r < d->num_values && last[v] >= (int32_t)p->num_tasks && !sv->capacity) sv->data = p->slots[d->value_slot[r]].data;
    }
    ge__x_plan_release(p, e);
  }
  fresh.last_used = ++d->clock;
  *e = fresh;
  d->active = e;
  ge__x_free(&p->a, iv, nv * sizeof *iv);
  ge__x_free(&p->a, last, nv * sizeof *last);
  return;
refused: /* no room for plans: this level grows storage value by value from now on */
  if (!d->active) { /* the active plan's block holds this run's outputs: it stays until the level is freed */
    for (i = 0; i < d->cap; i++) ge__x_plan_release(p, &d->plans[i]);
  }
  d->off = 1;
fail:
  ge__x_free(&p->a, iv, nv * sizeof *iv);
  ge__x_free(&p->a, last, nv * sizeof *last);
  ge__x_plan_release(p, &fresh);
}

static void ge__x_dyn_end(ge_program *p, ge_status st) {
  ge__x_dyn *d = p->dyn;
  if (st == GE_OK && !d->off && (!d->active || d->outgrown)) ge__x_dyn_plan(p);
}

GE_API uint32_t ge_program_shape_plans(const ge_program *p, uint64_t *bytes) {
  uint32_t i, n = 0;
  uint64_t b = 0;
  for (i = 0; p->dyn && i < p->dyn->cap; i++)
    if (p->dyn->plans[i].sig) n++, b += p->dyn->plans[i].size;
  for (i = 0; i < p->num_subs; i++) { /* the hybrid units' */
    uint64_t sb = 0;
    if (p->subs[i].program->is_call_body) n += ge_program_shape_plans(p->subs[i].program, &sb), b += sb;
  }
  if (bytes) *bytes = b;
  return n;
}

/* ------------------------------------------------------- fixed shapes */

/* Whether slot v of node x's output k keeps one dtype and shape at every
 * run: weights; graph inputs the executor checks against a static declared
 * type (inputs_checked: the root level), or, in a body, the ones bound to
 * a Const of the caller's level (ge__x_bind_consts); outputs planned at
 * load. */
static int ge__x_slot_fixed(const ge_node *x, uint32_t k, const ge_value *v, int inputs_checked) {
  const ge_tensor_desc *d = &x->outputs[k];
  if (ge__x_is(x, "Const")) return v->data || !v->numel;
  if (ge__x_is(x, "Data") && !inputs_checked) return v->data != NULL; /* bound to a caller's Const at load */
  if (d->dtype == GE_DTYPE_UNDEFINED || !ge_shape_is_static(&d->shape)) return 0;
  return ge__x_is(x, "Data") || ge_value_is_planned(v, d->dtype, d->shape.rank, d->shape.dims);
}

static int ge__x_task_fixed(const ge_program *p, const ge_task *t) {
  uint32_t k;
  for (k = 0; k < t->ctx.num_inputs; k++)
    if (t->ctx.inputs[k] && !p->fixed[t->ctx.inputs[k] - p->slots]) return 0;
  for (k = 0; k < t->ctx.num_outputs; k++)
    if (!p->fixed[t->ctx.outputs[k] - p->slots]) return 0;
  return 1;
}

/* Flags the tasks whose every input and output is fixed
 * (GE_KERNEL_FIXED_SHAPES): their kernels may check shapes once. */
static ge_status ge__x_mark_fixed(ge_program *p, int inputs_checked, ge_error *err) {
  const ge_node *x;
  uint32_t k, t, n = 0;
  p->fixed = (unsigned char *)ge__x_alloc(&p->a, (size_t)p->num_slots + 1);
  if (!p->fixed) return ge_error_set(err, GE_ERR_NOMEM, "out of memory");
  memset(p->fixed, 0, (size_t)p->num_slots + 1);
  GE_GRAPH_FOREACH(p->graph, x)
    for (k = 0; k < x->num_outputs; k++) {
      uint32_t slot = p->first_slot[x->id] + k;
      p->fixed[slot] = (unsigned char)ge__x_slot_fixed(x, k, &p->slots[slot], inputs_checked);
    }
  for (t = 0; t < p->num_tasks; t++)
    if (ge__x_task_fixed(p, &p->tasks[t])) p->tasks[t].ctx.flags |= GE_KERNEL_FIXED_SHAPES, n++;
  if (!n) ge__x_free(&p->a, p->fixed, (size_t)p->num_slots + 1), p->fixed = NULL;
  return GE_OK;
}

/* The Init program's kernel part: every fixed task's prepare function
 * (ge_exec_desc.prepare) on the context its kernel runs with, root graph
 * inputs shaped but without bytes until a run binds them. */
static ge_status ge__x_prepare(ge_program *p, ge_error *err) {
  uint32_t i, t;
  ge_status st = GE_OK;
  if (!p->desc.prepare || !p->fixed) return GE_OK;
  for (i = 0; i < p->num_inputs && !p->root; i++) {
    const ge_node *x = ge_graph_node(p->graph, p->inputs[i]);
    const ge_tensor_desc *d = x ? &x->outputs[0] : NULL;
    ge_value *v = x ? &p->slots[p->first_slot[x->id]] : NULL;
    if (v && p->fixed[v - p->slots]) ge_value_set_shape(v, d->dtype, d->shape.rank, d->shape.dims);
  }
  for (t = 0; t < p->num_tasks && !st; t++) {
    ge_task *task = &p->tasks[t];
    ge_kernel_fn fn;
    if (!(task->ctx.flags & GE_KERNEL_FIXED_SHAPES) || !(fn = p->desc.prepare(task->ctx.node, p->desc.lookup_user)))
      continue;
    p->run_err.code = GE_OK;
    task->ctx.flags |= GE_KERNEL_PREPARE;
    st = fn(&task->ctx);
    task->ctx.flags &= ~GE_KERNEL_PREPARE;
    if (st && p->run_err.code) *err = p->run_err;
    else if (st) ge_error_set(err, st, "node '%s' (%s): preparing its kernel failed: %s", task->ctx.node->name,
                              task->ctx.node->op, ge_status_name(st));
  }
  for (i = 0; i < p->num_inputs && !p->root; i++)
    if (p->inputs[i] != GE_NONE) memset(&p->slots[p->first_slot[p->inputs[i]]], 0, sizeof(ge_value));
  return st;
}

/* A fixed slot's shape moved (a kernel disagreed with shape inference):
 * no task of p is fixed any more and every memo goes. Rare; atomics, as
 * other tasks may be running (never the moved value's consumers). */
static void ge__x_unfix(ge_program *p) {
  uint32_t t;
  for (t = 0; t < p->num_tasks; t++) {
    __atomic_store_n(&p->tasks[t].ctx.flags, 0u, __ATOMIC_RELAXED);
    __atomic_store_n(&p->tasks[t].ctx.memo, 0u, __ATOMIC_RELAXED);
  }
  memset(p->fixed, 0, (size_t)p->num_slots + 1);
}

/* ------------------------------------------------ output storage
 * Where a kernel's output goes: the root plan's block, this signature's
 * shape plan, or storage of its own; views share their source's bytes. */

static ge_value *ge__x_alloc_output(ge_kernel_ctx *c, uint32_t i, ge_dtype dtype, int32_t rank, const int64_t *dims) {
  ge_program *p = (ge_program *)c->env->executor;
  ge_value *v = c->outputs[i];
  int32_t k;
  if ((unsigned)dtype >= GE_DTYPE_COUNT || rank < 0 || rank > GE_MAX_RANK) {
    ge_kernel_error(c, GE_ERR_INTERNAL, "output %u: invalid dtype or rank", (unsigned)i);
    return NULL;
  }
  for (k = 0; k < rank; k++)
    if (dims[k] < 0) {
      ge_kernel_error(c, GE_ERR_SHAPE, "output %u: invalid dimension %lld", (unsigned)i, (long long)dims[k]);
      return NULL;
    }
  if (p->fixed && p->fixed[v - p->slots]) ge__x_unfix(p); /* a kernel disagrees with shape inference */
  if (p->planned && p->planned[v - p->slots] != UINT64_MAX) { /* planned bytes, unless the shape outgrew them */
    size_t k = (size_t)(v - p->slots);
    if (ge_value_set_shape(v, dtype, rank, dims) == GE_OK && v->nbytes <= p->planned_size[k]) {
      v->data = p->block + p->planned[k];
      return v;
    }
    p->planned[k] = UINT64_MAX; /* from now on its own storage */
    v->data = NULL;
  }
  if (p->dyn) { /* a dynamic value: this signature's plan when it fits */
    ge__x_dyn *d = p->dyn;
    uint32_t x = d->slot_value[v - p->slots];
    if (x != GE__X_NONE) {
      ge__x_shape_plan *e = d->active;
      d->view_root[x] = GE__X_NONE;
      if (e) {
        if (e->offset[x] != UINT64_MAX && ge_value_set_shape(v, dtype, rank, dims) == GE_OK && v->nbytes <= e->bytes[x]) {
          if (v->capacity) ge__x_free(&p->a, v->data, v->capacity), ge__x_mem_give(p, v->capacity);
          v->data = e->block + e->offset[x], v->capacity = 0;
          return v;
        }
        __atomic_store_n(&d->outgrown, 1, __ATOMIC_RELAXED); /* kernels may run at once */
      }
    }
  }
  if (v->data && v->capacity == 0) { /* borrowed (never for a kernel output): detach */
    v->data = NULL;
  }
  {
    ge_status st = ge__x_reserve(p, v, dtype, rank, dims);
    if (st != GE_OK) {
      ge__x_reserve_error(c, st, v, "output", (unsigned)i);
      return NULL;
    }
  }
  return v;
}

static ge_status ge__x_run_graph(ge_kernel_ctx *c, const ge_graph *sub, ge_value *const *inputs, uint32_t n,
                                 ge_value **outputs, uint32_t n_out);

/* Views (Reshape, Squeeze, ...): the output borrows src's bytes. Storage the
 * slot owned is given back once; from then on the slot stays borrowed. */
static ge_value *ge__x_alias_output(ge_kernel_ctx *c, uint32_t i, const ge_value *src, int32_t rank,
                                    const int64_t *dims) {
  ge_program *p = (ge_program *)c->env->executor;
  ge_value *v = c->outputs[i];
  if (p->fixed && p->fixed[v - p->slots] && !ge_value_is_planned(v, src->dtype, rank, dims)) ge__x_unfix(p);
  if (p->planned && p->planned[v - p->slots] != UINT64_MAX && src->data != p->block + p->planned[v - p->slots]) {
    /* the memory plan gave this view bytes of its own (a graph output, say): src's may be reused, so copy */
    if (!(v = ge_kernel_output(c, i, src->dtype, rank, dims))) return NULL;
    if (src->nbytes) memcpy(v->data, src->data, src->nbytes < v->nbytes ? src->nbytes : v->nbytes);
    return v;
  }
  if (p->dyn && p->dyn->slot_value[v - p->slots] != GE__X_NONE) { /* a shape plan must know its views */
    ge__x_dyn *d = p->dyn;
    uint32_t x = d->slot_value[v - p->slots], r = GE__X_EXTERN;
    if (src >= p->slots && src < p->slots + p->num_slots && d->slot_value[src - p->slots] != GE__X_NONE) {
      r = d->slot_value[src - p->slots];
      if (d->view_root[r] < d->num_values) r = d->view_root[r];
    }
    d->view_root[x] = r;
    if (d->active && d->active->view_of[x] != r) { /* a view the plan did not foresee: a copy, then plan again */
      ge_status st;
      __atomic_store_n(&d->outgrown, 1, __ATOMIC_RELAXED); /* kernels may run at once */
      if (!v->capacity) v->data = NULL;
      if ((st = ge__x_reserve(p, v, src->dtype, rank, dims)) != GE_OK) {
        ge__x_reserve_error(c, st, v, "output", (unsigned)i);
        return NULL;
      }
      if (src->nbytes) memcpy(v->data, src->data, src->nbytes < v->nbytes ? src->nbytes : v->nbytes);
      return v;
    }
  }
  if (v->capacity) ge__x_free(&p->a, v->data, v->capacity), ge__x_mem_give(p, v->capacity);
  v->capacity = 0;
  v->data = src->data;
  ge_value_set_shape(v, src->dtype, rank, dims);
  return v;
}

GE_API uint32_t ge_program_num_inputs(const ge_program *p) { return p->num_inputs; }
GE_API uint32_t ge_program_num_outputs(const ge_program *p) { return p->num_outputs; }
GE_API uint32_t ge_program_num_tasks(const ge_program *p) { return p->num_tasks; }
GE_API const char *ge_program_input_name(const ge_program *p, uint32_t i) {
  return i < p->num_inputs ? ge_graph_node(p->graph, p->inputs[i])->name : NULL;
}
GE_API const ge_tensor_desc *ge_program_input_desc(const ge_program *p, uint32_t i) {
  return i < p->num_inputs ? &ge_graph_node(p->graph, p->inputs[i])->outputs[0] : NULL;
}
GE_API const char *ge_program_output_name(const ge_program *p, uint32_t i) {
  const ge_node *o;
  if (i >= p->num_outputs) return NULL;
  o = ge_graph_node(p->graph, p->output_node);
  return o->outputs[i].name ? o->outputs[i].name : ge_graph_node(p->graph, o->inputs[i].node)->name;
}
GE_API int32_t ge_program_find_input(const ge_program *p, const char *name) {
  uint32_t i;
  for (i = 0; i < p->num_inputs; i++)
    if (strcmp(ge_program_input_name(p, i), name) == 0) return (int32_t)i;
  return -1;
}
GE_API int32_t ge_program_find_output(const ge_program *p, const char *name) {
  uint32_t i;
  for (i = 0; i < p->num_outputs; i++)
    if (strcmp(ge_program_output_name(p, i), name) == 0) return (int32_t)i;
  return -1;
}
GE_API const ge_value *ge_program_output(const ge_program *p, uint32_t i) {
  return i < p->num_outputs ? p->outputs[i] : NULL;
}

static void ge__x_watchdog_stop(ge_program *p);

GE_API void ge_program_free(ge_program *p) {
  uint32_t i;
  ge_allocator a;
  if (!p) return;
  a = p->a;
  ge__x_dyn_free(p);
  for (i = 0; i < p->num_subs; i++) ge_program_free(p->subs[i].program);
  for (i = 0; i < p->num_slots; i++)
    if (p->slots[i].capacity) ge__x_free(&a, p->slots[i].data, p->slots[i].capacity);
  for (i = 0; i < p->num_tasks; i++) ge_kernel_free_state(&p->tasks[i].ctx);
  ge__x_free(&a, p->subs, (size_t)p->num_subs * sizeof *p->subs);
  ge__x_free(&a, p->slots, (size_t)p->num_slots * sizeof *p->slots);
  ge__x_free(&a, p->first_slot, ((size_t)ge_graph_id_bound(p->graph) + 1) * sizeof(uint32_t));
  ge__x_free(&a, p->tasks, (size_t)p->num_tasks * sizeof *p->tasks);
  ge__x_free(&a, p->ptrs, (size_t)p->num_ptrs * sizeof *p->ptrs);
  ge__x_free(&a, p->inputs, (size_t)p->num_inputs * sizeof *p->inputs);
  ge__x_free(&a, p->outputs, (size_t)p->num_outputs * sizeof *p->outputs);
  ge__x_free(&a, p->planned, ((size_t)p->num_slots + 1) * sizeof *p->planned);
  ge__x_free(&a, p->planned_size, ((size_t)p->num_slots + 1) * sizeof *p->planned_size);
  if (p->block_owned) ge__x_free(&a, p->block_owned, (size_t)p->desc.memory_size + 512);
  ge_runtime_streams_free(p->rs);
  ge_runtime_dag_free(p->dag);
  ge__x_free(&a, p->task_of_node, ((size_t)ge_graph_id_bound(p->graph) + 1) * sizeof(uint32_t));
  ge__x_free(&a, p->lane_err, (size_t)p->num_lanes * sizeof *p->lane_err);
  ge__x_free(&a, p->stamps, (size_t)p->num_ids * 2 * sizeof *p->stamps);
  ge__x_watchdog_stop(p);
  ge__x_free(&a, p->id_node, ((size_t)p->num_ids + 1) * sizeof *p->id_node);
  ge__x_free(&a, p->id_stream, ((size_t)p->num_ids + 1) * sizeof *p->id_stream);
  ge__x_free(&a, p->times, ((size_t)p->num_ids + 1) * 2 * sizeof *p->times);
  ge__x_free(&a, p->threads, ((size_t)p->num_ids + 1) * sizeof *p->threads);
  ge__x_free(&a, p->prof_sum, ((size_t)p->num_ids + 1) * sizeof *p->prof_sum);
  ge__x_free(&a, p->capture_slot, ((size_t)p->num_captures + 1) * sizeof *p->capture_slot);
  ge__x_free(&a, p->capture_parent, ((size_t)p->num_captures + 1) * sizeof *p->capture_parent);
  ge__x_free(&a, p->fixed, (size_t)p->num_slots + 1);
  ge_runtime_free(p->rt_owned);
  ge__x_free(&a, p, sizeof *p);
}

/* ------------------------------------------- the executor's own kernels */

static ge_status ge__x_copy_value(ge_kernel_ctx *c, uint32_t i, const ge_value *x) {
  ge_value *y = ge_kernel_output(c, i, x->dtype, x->rank, x->dims);
  if (!y) return c->err->code ? c->err->code : GE_ERR_NOMEM;
  if (y->data != x->data && x->nbytes) memcpy(y->data, x->data, x->nbytes);
  return GE_OK;
}

/* Room for the subgraph's output pointers of a call-like node (any count):
 * the kernel's state, made at its first run and kept. */
static ge_value **ge__x_sub_outputs(ge_kernel_ctx *c) {
  if (!c->state && !(c->state = malloc(sizeof(ge_value *) * ((size_t)c->num_outputs + 1))))
    ge_kernel_error(c, GE_ERR_NOMEM, "out of memory for %u output pointers", (unsigned)c->num_outputs);
  return (ge_value **)c->state;
}

/* PartitionedCall: runs attr f on the node's inputs. */
static ge_status ge__x_call(ge_kernel_ctx *c) {
  const ge_attr *f = ge_node_attr(c->node, "f");
  ge_value **outs = ge__x_sub_outputs(c);
  uint32_t i;
  ge_status st;
  if (!outs) return GE_ERR_NOMEM;
  st = c->env->run_graph(c, f->v.g, c->inputs, c->num_inputs, outs, c->num_outputs);
  for (i = 0; i < c->num_outputs && !st; i++) st = ge__x_copy_value(c, i, outs[i]);
  return st;
}

/* True when a scalar-like value is nonzero. */
static int ge__x_truth(const ge_value *v) {
  if (!v || v->numel < 1) return 0;
  switch (v->dtype) {
  case GE_DTYPE_BOOL: case GE_DTYPE_UINT8: case GE_DTYPE_INT8: return ((const uint8_t *)v->data)[0] != 0;
  case GE_DTYPE_INT32: return ((const int32_t *)v->data)[0] != 0;
  case GE_DTYPE_INT64: return ((const int64_t *)v->data)[0] != 0;
  case GE_DTYPE_FLOAT32: return ((const float *)v->data)[0] != 0;
  case GE_DTYPE_FLOAT64: return ((const double *)v->data)[0] != 0;
  default: return 0;
  }
}

/* The number of values a subgraph returns. */
static uint32_t ge__x_graph_num_outputs(const ge_graph *g) {
  ge_node_id o = ge_graph_output_node(g);
  return o == GE_NONE ? 0 : ge_graph_node(g, o)->num_inputs;
}

/* A control-flow scalar (ONNX: a tensor of a single element, of any rank:
 * exporters write If conditions of shape [1, 1]) of the given dtype; an
 * error naming `what` otherwise. */
static ge_status ge__x_check_scalar(ge_kernel_ctx *c, const ge_value *v, ge_dtype dtype, const char *what) {
  if (v && v->dtype == dtype && v->numel == 1 && v->data) return GE_OK;
  if (!v) return ge_kernel_error(c, GE_ERR_INVALID, "%s is missing", what);
  return ge_kernel_error(c, GE_ERR_SHAPE, "%s must be a %s scalar, got %s of rank %d with %lld elements", what,
                         ge_dtype_name(dtype), ge_dtype_name(v->dtype), (int)v->rank, (long long)v->numel);
}

/* If: cond (a bool scalar) picks then_branch or else_branch, which must
 * return as many values as the node has outputs. */
static ge_status ge__x_if(ge_kernel_ctx *c) {
  const ge_attr *then_b = ge_node_attr(c->node, "then_branch"), *else_b = ge_node_attr(c->node, "else_branch"), *a;
  ge_value **outs;
  uint32_t i, n_then, n_else;
  ge_status st;
  if ((st = ge__x_check_scalar(c, c->num_inputs ? c->inputs[0] : NULL, GE_DTYPE_BOOL, "condition (input 0)"))) return st;
  if (!then_b || then_b->type != GE_ATTR_GRAPH || !else_b || else_b->type != GE_ATTR_GRAPH)
    return ge_kernel_error(c, GE_ERR_INVALID, "attribute '%s' is not a graph",
                           !then_b || then_b->type != GE_ATTR_GRAPH ? "then_branch" : "else_branch");
  n_then = ge__x_graph_num_outputs(then_b->v.g), n_else = ge__x_graph_num_outputs(else_b->v.g);
  if (n_then != n_else || n_then != c->num_outputs)
    return ge_kernel_error(c, GE_ERR_INVALID, "then_branch returns %u values and else_branch %u, for %u outputs",
                           (unsigned)n_then, (unsigned)n_else, (unsigned)c->num_outputs);
  if (!(outs = ge__x_sub_outputs(c))) return GE_ERR_NOMEM;
  a = ge__x_truth(c->inputs[0]) ? then_b : else_b;
  st = c->env->run_graph(c, a->v.g, NULL, 0, outs, c->num_outputs);
  for (i = 0; i < c->num_outputs && !st; i++) st = ge__x_copy_value(c, i, outs[i]);
  return st;
}

/* A value the loop owns (copied from the body, so the body may overwrite
 * its own storage on the next iteration). */
typedef struct ge__x_held {
  ge_value v;
} ge__x_held;

static ge_status ge__x_hold(ge_program *p, ge_value *dst, const ge_value *src) {
  ge_status st = ge__x_reserve(p, dst, src->dtype, src->rank, src->dims);
  if (st != GE_OK) return st;
  if (src->nbytes) memcpy(dst->data, src->data, src->nbytes);
  return GE_OK;
}

static void ge__x_release(ge_program *p, ge_value *v, uint32_t n) {
  uint32_t i;
  for (i = 0; i < n; i++)
    if (v[i].capacity) ge__x_free(&p->a, v[i].data, v[i].capacity), ge__x_mem_give(p, v[i].capacity);
}

/* The next iteration's loop values: a body output may be a view of a held
 * value itself (Identity of a loop variable, or two swapped), so every
 * output is copied into spare before any held value changes; then the two
 * swap storage (kept for the next iteration). */
static ge_status ge__x_hold_all(ge_kernel_ctx *c, ge_value *held, ge_value *spare, ge_value *const *outs, uint32_t n) {
  ge_program *p = (ge_program *)c->env->executor;
  uint32_t i;
  ge_status st;
  for (i = 0; i < n; i++)
    if ((st = ge__x_hold(p, &spare[i], outs[i]))) return ge__x_reserve_error(c, st, &spare[i], "loop value", (unsigned)i);
  for (i = 0; i < n; i++) {
    ge_value t = held[i];
    held[i] = spare[i];
    spare[i] = t;
  }
  return GE_OK;
}

/* Whether slice can be appended to acc (holding count - 1 slices). */
static int ge__x_slice_fits(const ge_value *acc, const ge_value *slice, int64_t count) {
  int32_t i;
  if (slice->rank + 1 > GE_MAX_RANK) return 0;
  if (count == 1) return 1;
  if (acc->dtype != slice->dtype || acc->rank != slice->rank + 1) return 0;
  for (i = 0; i < slice->rank; i++)
    if (acc->dims[i + 1] != slice->dims[i]) return 0;
  return 1;
}

/* Appends iteration outputs (scan outputs of a Loop or Scan) along a new
 * axis: acc grows to hold `count` slices. Storage grows geometrically, so n
 * appends copy O(n) slices in all; on failure acc has the shape it could
 * not get (for the message). Check ge__x_slice_fits first. */
static ge_status ge__x_append_slice(ge_program *p, ge_value *acc, const ge_value *slice, int64_t count) {
  int64_t dims[GE_MAX_RANK];
  size_t old_bytes = count > 1 ? acc->nbytes : 0, need;
  int32_t i;
  dims[0] = count;
  for (i = 0; i < slice->rank; i++) dims[i + 1] = slice->dims[i];
  if (!ge_dims_nbytes_checked(slice->dtype, dims, slice->rank + 1, &need)) {
    ge_value_set_shape(acc, slice->dtype, slice->rank + 1, dims);
    return GE_ERR_SHAPE;
  }
  if (need > acc->capacity || !acc->data) {
    ge_value grown;
    size_t room = acc->capacity <= SIZE_MAX / 2 && acc->capacity * 2 > need ? acc->capacity * 2 : need;
    ge_status st;
    memset(&grown, 0, sizeof grown);
    st = ge__x_reserve_room(p, &grown, slice->dtype, slice->rank + 1, dims, room);
    if (st == GE_ERR_NOMEM && room > need) { /* the doubling alone may pass the ceiling */
      ge__x_root(p)->mem_refused = 0;
      st = ge__x_reserve_room(p, &grown, slice->dtype, slice->rank + 1, dims, need);
    }
    if (st != GE_OK) {
      ge_value_set_shape(acc, slice->dtype, slice->rank + 1, dims);
      return st;
    }
    if (old_bytes) memcpy(grown.data, acc->data, old_bytes);
    ge__x_release(p, acc, 1);
    *acc = grown;
  } else {
    ge_value_set_shape(acc, slice->dtype, slice->rank + 1, dims);
  }
  if (slice->nbytes) memcpy((char *)acc->data + old_bytes, slice->data, slice->nbytes);
  return GE_OK;
}

/* Appends every scan output of one iteration, with errors naming it. */
static ge_status ge__x_append_all(ge_kernel_ctx *c, ge_value *acc, ge_value *const *slices, uint32_t n, int64_t count) {
  ge_program *p = (ge_program *)c->env->executor;
  uint32_t i;
  ge_status st;
  for (i = 0; i < n; i++) {
    if (!ge__x_slice_fits(&acc[i], slices[i], count))
      return ge_kernel_error(c, GE_ERR_SHAPE, "scan output %u changes dtype or shape between iterations (or has rank %d, "
                                              "too high to stack)", (unsigned)i, (int)slices[i]->rank);
    if ((st = ge__x_append_slice(p, &acc[i], slices[i], count))) return ge__x_reserve_error(c, st, &acc[i], "scan output", i);
  }
  return GE_OK;
}

/* Loop: inputs M, cond, v...; body (iter, cond, v...) -> (cond, v..., scans...). */
static ge_status ge__x_loop(ge_kernel_ctx *c) {
  ge_program *p = (ge_program *)c->env->executor;
  const ge_attr *body = ge_node_attr(c->node, "body");
  ge_node_id body_out;
  uint32_t n_carried, n_scan, n_body_out, i;
  int64_t max_trip = INT64_MAX, iter = 0;
  int keep_going = 1;
  ge_value *held = NULL, *spare, iter_v, cond_v, *ins[66], *outs[66];
  int64_t iter_data = 0;
  uint8_t cond_data = 1;
  ge_status st = GE_OK;
  if (!body || body->type != GE_ATTR_GRAPH) return ge_kernel_error(c, GE_ERR_INVALID, "missing body graph");
  body_out = ge_graph_output_node(body->v.g);
  n_body_out = body_out == GE_NONE ? 0 : ge_graph_node(body->v.g, body_out)->num_inputs;
  /* the body's formal inputs are iter, cond, v...; the node's inputs after
     M, cond, v_initial... are outer-scope captures (read via parent_index) */
  n_carried = ge_graph_inputs(body->v.g, NULL, 0);
  if (n_carried < 2 || n_carried > c->num_inputs)
    return ge_kernel_error(c, GE_ERR_INVALID, "body takes %u inputs", (unsigned)n_carried);
  n_carried -= 2;
  if (n_body_out < 1 + n_carried) return ge_kernel_error(c, GE_ERR_INVALID, "body returns %u values, expected at least %u",
                                                          (unsigned)n_body_out, (unsigned)(1 + n_carried));
  n_scan = n_body_out - 1 - n_carried;
  if (c->num_outputs != n_carried + n_scan)
    return ge_kernel_error(c, GE_ERR_INVALID, "%u outputs, expected %u", (unsigned)c->num_outputs, (unsigned)(n_carried + n_scan));
  if (n_body_out > 64) return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "more than 64 loop values");
  if (c->inputs[0]) {
    if ((st = ge__x_check_scalar(c, c->inputs[0], GE_DTYPE_INT64, "trip count M (input 0)"))) return st;
    max_trip = ((const int64_t *)c->inputs[0]->data)[0];
  }
  if (c->num_inputs > 1 && c->inputs[1]) {
    if ((st = ge__x_check_scalar(c, c->inputs[1], GE_DTYPE_BOOL, "condition (input 1)"))) return st;
    keep_going = ge__x_truth(c->inputs[1]);
  }
  held = (ge_value *)calloc(2 * n_carried + n_scan + 1, sizeof *held);
  if (!held) return ge_kernel_error(c, GE_ERR_NOMEM, "out of memory");
  spare = held + n_carried + n_scan;
  for (i = 0; i < n_carried && !st; i++)
    if (!c->inputs[2 + i]) st = ge_kernel_error(c, GE_ERR_INVALID, "loop-carried input %u is missing", (unsigned)i);
    else if ((st = ge__x_hold(p, &held[i], c->inputs[2 + i]))) st = ge__x_reserve_error(c, st, &held[i], "loop value", i);
  memset(&iter_v, 0, sizeof iter_v);
  memset(&cond_v, 0, sizeof cond_v);
  ge_value_set_shape(&iter_v, GE_DTYPE_INT64, 0, NULL);
  iter_v.data = &iter_data;
  ge_value_set_shape(&cond_v, GE_DTYPE_BOOL, 0, NULL);
  cond_v.data = &cond_data;
  while (!st && keep_going && iter < max_trip) {
    iter_data = iter;
    cond_data = 1;
    ins[0] = &iter_v;
    ins[1] = &cond_v;
    for (i = 0; i < n_carried; i++) ins[2 + i] = &held[i];
    st = c->env->run_graph(c, body->v.g, ins, 2 + n_carried, outs, n_body_out);
    if (st) break;
    if ((st = ge__x_check_scalar(c, outs[0], GE_DTYPE_BOOL, "the body's condition (output 0)"))) break;
    keep_going = ge__x_truth(outs[0]);
    if ((st = ge__x_hold_all(c, held, spare, outs + 1, n_carried))) break;
    if ((st = ge__x_append_all(c, held + n_carried, outs + 1 + n_carried, n_scan, iter + 1))) break;
    iter++;
  }
  for (i = 0; i < n_carried && !st; i++) st = ge__x_copy_value(c, i, &held[i]);
  for (i = 0; i < n_scan && !st; i++) {
    if (iter == 0) { /* no iteration: an empty scan output of unknown slice shape */
      int64_t zero = 0;
      const ge_tensor_desc *d = &c->node->outputs[n_carried + i];
      if (!ge_kernel_output(c, n_carried + i, d->dtype ? d->dtype : GE_DTYPE_FLOAT32, 1, &zero)) st = GE_ERR_NOMEM;
    } else {
      st = ge__x_copy_value(c, n_carried + i, &held[n_carried + i]);
    }
  }
  ge__x_release(p, held, 2 * n_carried + n_scan);
  free(held);
  return st;
}

/* Case: input 0 picks a branch (out of range: the last one, as GE and
 * TensorFlow do); inputs 1.. are the branch's inputs. */
static ge_status ge__x_case(ge_kernel_ctx *c) {
  const ge_attr *br = ge_node_attr(c->node, "branches");
  ge_value **outs;
  int64_t k;
  uint32_t i;
  ge_status st;
  if (!br || br->type != GE_ATTR_GRAPHS || br->count < 1) return ge_kernel_error(c, GE_ERR_INVALID, "no branch graphs");
  if (!c->inputs[0] || c->inputs[0]->numel < 1 || !c->inputs[0]->data ||
      (c->inputs[0]->dtype != GE_DTYPE_INT32 && c->inputs[0]->dtype != GE_DTYPE_INT64))
    return ge_kernel_error(c, GE_ERR_INVALID, "the branch index (input 0) must be a non-empty int32 or int64 tensor");
  if (!(outs = ge__x_sub_outputs(c))) return GE_ERR_NOMEM;
  k = c->inputs[0]->dtype == GE_DTYPE_INT64 ? ((const int64_t *)c->inputs[0]->data)[0]
                                            : (int64_t)((const int32_t *)c->inputs[0]->data)[0];
  if (k < 0 || k >= br->count) k = br->count - 1;
  st = c->env->run_graph(c, br->v.graphs[k], c->inputs + 1, c->num_inputs - 1, outs, c->num_outputs);
  for (i = 0; i < c->num_outputs && !st; i++) st = ge__x_copy_value(c, i, outs[i]);
  return st;
}

/* While: cond(vars) -> scalar, body(vars) -> vars, until cond is false. */
static ge_status ge__x_while(ge_kernel_ctx *c) {
  ge_program *p = (ge_program *)c->env->executor;
  const ge_attr *cond = ge_node_attr(c->node, "cond"), *body = ge_node_attr(c->node, "body");
  uint32_t n = c->num_inputs, i;
  ge_value *held, *ins[64], *outs[64];
  ge_status st = GE_OK;
  if (!cond || cond->type != GE_ATTR_GRAPH || !body || body->type != GE_ATTR_GRAPH)
    return ge_kernel_error(c, GE_ERR_INVALID, "missing cond or body graph");
  if (n > 64 || c->num_outputs != n) return ge_kernel_error(c, GE_ERR_INVALID, "%u inputs but %u outputs", (unsigned)n, (unsigned)c->num_outputs);
  if (!(held = (ge_value *)calloc(2 * n + 1, sizeof *held))) return ge_kernel_error(c, GE_ERR_NOMEM, "out of memory");
  for (i = 0; i < n && !st; i++) {
    if (!c->inputs[i]) st = ge_kernel_error(c, GE_ERR_INVALID, "loop variable %u is missing", (unsigned)i);
    else if ((st = ge__x_hold(p, &held[i], c->inputs[i]))) st = ge__x_reserve_error(c, st, &held[i], "loop value", i);
    ins[i] = &held[i];
  }
  while (!st) {
    if ((st = c->env->run_graph(c, cond->v.g, ins, n, outs, 1)) != GE_OK || !ge__x_truth(outs[0])) break;
    if ((st = c->env->run_graph(c, body->v.g, ins, n, outs, n)) != GE_OK) break;
    st = ge__x_hold_all(c, held, held + n, outs, n);
  }
  for (i = 0; i < n && !st; i++) st = ge__x_copy_value(c, i, &held[i]);
  ge__x_release(p, held, 2 * n);
  free(held);
  return st;
}

/* Scan's <prefix>_axes and <prefix>_directions: one per scan input (or
 * output) when given, directions 0 (forward) or 1 (reverse). Axes are
 * checked against ranks where they are used. */
static ge_status ge__x_check_scan_attrs(ge_kernel_ctx *c, const char *prefix, const int64_t *axes, int32_t n_axes,
                                        const int64_t *dirs, int32_t n_dirs, uint32_t n) {
  int32_t i;
  if (n_axes > 0 && (uint32_t)n_axes != n)
    return ge_kernel_error(c, GE_ERR_INVALID, "attribute '%s_axes' has %d entries for %u %ss", prefix, (int)n_axes, (unsigned)n, prefix);
  (void)axes;
  if (n_dirs > 0 && (uint32_t)n_dirs != n)
    return ge_kernel_error(c, GE_ERR_INVALID, "attribute '%s_directions' has %d entries for %u %ss", prefix, (int)n_dirs, (unsigned)n, prefix);
  for (i = 0; i < n_dirs; i++)
    if (dirs[i] != 0 && dirs[i] != 1)
      return ge_kernel_error(c, GE_ERR_INVALID, "attribute '%s_directions'[%d] is %lld; it must be 0 (forward) or 1 (reverse)",
                             prefix, (int)i, (long long)dirs[i]);
  return GE_OK;
}

/* Scan (opset 9+): inputs state..., scan inputs...; body (state..., slices...)
 * -> (state..., slice outputs...). */
static ge_status ge__x_scan(ge_kernel_ctx *c) {
  ge_program *p = (ge_program *)c->env->executor;
  const ge_attr *body = ge_node_attr(c->node, "body");
  int64_t n_scan_in = ge_node_attr_int(c->node, "num_scan_inputs", -1), seq = -1, t;
  const int64_t *in_axes = NULL, *in_dirs = NULL, *out_axes = NULL, *out_dirs = NULL;
  int32_t n_in_axes = ge_node_attr_ints(c->node, "scan_input_axes", &in_axes);
  int32_t n_in_dirs = ge_node_attr_ints(c->node, "scan_input_directions", &in_dirs);
  int32_t n_out_axes = ge_node_attr_ints(c->node, "scan_output_axes", &out_axes);
  int32_t n_out_dirs = ge_node_attr_ints(c->node, "scan_output_directions", &out_dirs);
  uint32_t n_formal, n_state, n_scan_out, i, body_outs;
  ge_node_id bo;
  ge_value *held = NULL, *slices = NULL, *ins[66], *outs[66];
  ge_status st = GE_OK;
  if (!body || body->type != GE_ATTR_GRAPH) return ge_kernel_error(c, GE_ERR_INVALID, "missing body graph");
  bo = ge_graph_output_node(body->v.g);
  body_outs = bo == GE_NONE ? 0 : ge_graph_node(body->v.g, bo)->num_inputs;
  n_formal = ge_graph_inputs(body->v.g, NULL, 0);
  if (n_scan_in < 1 || (uint64_t)n_scan_in > n_formal || n_formal > c->num_inputs || body_outs > 64)
    return ge_kernel_error(c, GE_ERR_INVALID, "num_scan_inputs %lld does not fit the body", (long long)n_scan_in);
  n_state = n_formal - (uint32_t)n_scan_in;
  if (body_outs < n_state || c->num_outputs != body_outs)
    return ge_kernel_error(c, GE_ERR_INVALID, "body returns %u values for %u outputs", (unsigned)body_outs,
                           (unsigned)c->num_outputs);
  n_scan_out = body_outs - n_state;
  if ((st = ge__x_check_scan_attrs(c, "scan_input", in_axes, n_in_axes, in_dirs, n_in_dirs, (uint32_t)n_scan_in)) ||
      (st = ge__x_check_scan_attrs(c, "scan_output", out_axes, n_out_axes, out_dirs, n_out_dirs, n_scan_out)))
    return st;
  /* sequence length from the first scan input along its axis */
  for (i = 0; i < (uint32_t)n_scan_in; i++) {
    const ge_value *x = c->inputs[n_state + i];
    int64_t ax = n_in_axes > (int32_t)i ? in_axes[i] : 0;
    if (!x) return ge_kernel_error(c, GE_ERR_INVALID, "scan input %u is missing", (unsigned)i);
    if (ax < 0) ax += x->rank;
    if (ax < 0 || ax >= x->rank) return ge_kernel_error(c, GE_ERR_INVALID, "scan input axis out of range");
    if (seq >= 0 && x->dims[ax] != seq) return ge_kernel_error(c, GE_ERR_SHAPE, "scan inputs differ in length");
    seq = x->dims[ax];
  }
  held = (ge_value *)calloc(2 * n_state + n_scan_out + 1, sizeof *held); /* then the spare state */
  slices = (ge_value *)calloc((size_t)n_scan_in + 1, sizeof *slices);
  if (!held || !slices) {
    free(held);
    free(slices);
    return ge_kernel_error(c, GE_ERR_NOMEM, "out of memory");
  }
  for (i = 0; i < n_state && !st; i++)
    if (!c->inputs[i]) st = ge_kernel_error(c, GE_ERR_INVALID, "state %u is missing", (unsigned)i);
    else if ((st = ge__x_hold(p, &held[i], c->inputs[i]))) st = ge__x_reserve_error(c, st, &held[i], "state", i);
  for (t = 0; t < seq && !st; t++) {
    for (i = 0; i < (uint32_t)n_scan_in && !st; i++) { /* slice t (or seq-1-t) along the axis */
      const ge_value *x = c->inputs[n_state + i];
      int64_t ax = n_in_axes > (int32_t)i ? in_axes[i] : 0, outer = 1, inner = 1, k, pos;
      int64_t dims[GE_MAX_RANK];
      int32_t d, r = 0;
      size_t es = ge_dtype_size(x->dtype) ? ge_dtype_size(x->dtype) : sizeof(char *);
      if (ax < 0) ax += x->rank;
      pos = n_in_dirs > (int32_t)i && in_dirs[i] ? seq - 1 - t : t;
      for (d = 0; d < x->rank; d++) {
        if (d < ax) outer *= x->dims[d];
        if (d > ax) inner *= x->dims[d];
        if (d != ax) dims[r++] = x->dims[d];
      }
      if ((st = ge__x_reserve(p, &slices[i], x->dtype, r, dims))) st = ge__x_reserve_error(c, st, &slices[i], "scan input slice", i);
      for (k = 0; k < outer && !st; k++)
        memcpy((char *)slices[i].data + (size_t)(k * inner) * es,
               (const char *)x->data + (size_t)((k * x->dims[ax] + pos) * inner) * es, (size_t)inner * es);
    }
    for (i = 0; i < n_state; i++) ins[i] = &held[i];
    for (i = 0; i < (uint32_t)n_scan_in; i++) ins[n_state + i] = &slices[i];
    if (!st) st = c->env->run_graph(c, body->v.g, ins, n_formal, outs, body_outs);
    if (!st) st = ge__x_hold_all(c, held, held + n_state + n_scan_out, outs, n_state);
    if (!st) st = ge__x_append_all(c, held + n_state, outs + n_state, n_scan_out, t + 1);
  }
  for (i = 0; i < n_state && !st; i++) st = ge__x_copy_value(c, i, &held[i]);
  /* scan outputs: stacked on axis 0; move the axis and reverse as asked */
  for (i = 0; i < n_scan_out && !st; i++) {
    ge_value *acc = &held[n_state + i];
    int64_t ax = n_out_axes > (int32_t)i ? out_axes[i] : 0, rev = n_out_dirs > (int32_t)i ? out_dirs[i] : 0;
    int64_t dims[GE_MAX_RANK], outer = 1, inner = 1, s, k;
    int32_t d, r = acc->rank;
    size_t es = ge_dtype_size(acc->dtype) ? ge_dtype_size(acc->dtype) : sizeof(char *);
    ge_value *y;
    if (seq == 0) {
      int64_t zero = 0;
      if (!ge_kernel_output(c, n_state + i, c->node->outputs[n_state + i].dtype ? c->node->outputs[n_state + i].dtype : GE_DTYPE_FLOAT32, 1, &zero))
        st = GE_ERR_NOMEM;
      continue;
    }
    if (ax < 0) ax += r;
    if (ax < 0 || ax >= r) {
      st = ge_kernel_error(c, GE_ERR_INVALID, "scan output axis out of range");
      break;
    }
    /* acc is [seq, a1..]; output puts seq at position ax */
    for (d = 1; d < r; d++) dims[d - 1 < ax ? d - 1 : d] = acc->dims[d];
    dims[ax] = seq;
    for (d = 1; d <= ax; d++) outer *= acc->dims[d];
    for (d = (int32_t)ax + 1; d < r; d++) inner *= acc->dims[d];
    if (!(y = ge_kernel_output(c, n_state + i, acc->dtype, r, dims))) {
      st = GE_ERR_NOMEM;
      break;
    }
    for (s = 0; s < seq; s++)
      for (k = 0; k < outer; k++)
        memcpy((char *)y->data + (size_t)((k * seq + (rev ? seq - 1 - s : s)) * inner) * es,
               (const char *)acc->data + (size_t)((s * outer + k) * inner) * es, (size_t)inner * es);
  }
  ge__x_release(p, held, 2 * n_state + n_scan_out);
  ge__x_release(p, slices, (uint32_t)n_scan_in);
  free(held);
  free(slices);
  return st;
}

static ge_status ge__x_noop(ge_kernel_ctx *c) {
  (void)c;
  return GE_OK;
}

/* The executor's own kernel for a structural op, or NULL. */
static ge_kernel_fn ge__x_builtin(const ge_node *n) {
  if (n->domain && *n->domain) return NULL;
  if (!strcmp(n->op, "PartitionedCall")) return ge__x_call;
  if (!strcmp(n->op, "If")) return ge__x_if;
  if (!strcmp(n->op, "Case")) return ge__x_case;
  if (!strcmp(n->op, "While")) return ge__x_while;
  if (!strcmp(n->op, "Loop")) return ge__x_loop;
  if (!strcmp(n->op, "Scan")) return ge__x_scan;
  if (!strcmp(n->op, "NoOp")) return ge__x_noop;
  return NULL;
}

/* ------------------------------------------------------------ lowering */


/* Gives a value whose shape inference fixed its storage now: its planned
 * place in the block, or storage of its own. */
static ge_status ge__x_plan_static(ge_program *p, ge_value *v, const ge_node *x, uint32_t k, ge_error *err) {
  const ge_tensor_desc *d = &x->outputs[k];
  size_t bytes;
  ge_status st;
  if (d->dtype == GE_DTYPE_UNDEFINED || !ge_shape_is_static(&d->shape)) return GE_OK;
  if (!ge_dims_nbytes_checked(d->dtype, d->shape.dims, d->shape.rank, &bytes)) {
    char sh[160];
    return ge_error_set(err, GE_ERR_SHAPE, "node '%s' (%s) output %u ('%s'): %s%s has an element count or byte size "
                        "that overflows", x->name, x->op, (unsigned)k, d->name ? d->name : "", ge_dtype_name(d->dtype),
                        ge_shape_str(&d->shape, sh, sizeof sh));
  }
  if (ge_shape_numel(&d->shape) > ((int64_t)1 << 34)) return GE_OK; /* absurd: leave it to run time */
  if (p->block && d->offset >= 0) {
    size_t k = (size_t)(v - p->slots);
    ge_value_set_shape(v, d->dtype, d->shape.rank, d->shape.dims);
    if ((uint64_t)d->offset + v->nbytes > p->desc.memory_size)
      return ge_error_set(err, GE_ERR_INVALID, "tensor '%s' is planned at offset %lld (%zu bytes), past the %llu-byte memory block",
                          d->name ? d->name : "?", (long long)d->offset, v->nbytes, (unsigned long long)p->desc.memory_size);
    v->data = p->block + d->offset, v->capacity = 0;
    p->planned[k] = (uint64_t)d->offset, p->planned_size[k] = v->nbytes;
    return GE_OK;
  }
  if ((st = ge__x_reserve(p, v, d->dtype, d->shape.rank, d->shape.dims)) != GE_OK) {
    ge_program *r = ge__x_root(p);
    if (!r->mem_refused) return ge_error_set(err, st, "node '%s' (%s): out of memory for output %u (%zu bytes)", x->name, x->op, (unsigned)k, bytes);
    r->mem_refused = 0;
    return ge_error_set(err, st, "node '%s' (%s): output %u needs %zu bytes, past the memory limit (%llu of %llu bytes in "
                        "use; ge_exec_desc.memory_limit)", x->name, x->op, (unsigned)k, bytes,
                        (unsigned long long)r->mem_used, (unsigned long long)r->mem_limit);
  }
  return GE_OK;
}

/* The planned block and the per-slot plan (ge_exec_desc.memory_size). */
static ge_status ge__x_setup_block(ge_program *p, ge_error *err) {
  uint32_t i;
  if (!p->desc.memory_size) return GE_OK;
  p->planned = (uint64_t *)ge__x_alloc(&p->a, ((size_t)p->num_slots + 1) * sizeof *p->planned);
  p->planned_size = (size_t *)ge__x_alloc(&p->a, ((size_t)p->num_slots + 1) * sizeof *p->planned_size);
  if (!p->planned || !p->planned_size) return ge_error_set(err, GE_ERR_NOMEM, "out of memory");
  for (i = 0; i < p->num_slots; i++) p->planned[i] = UINT64_MAX, p->planned_size[i] = 0;
  if (p->desc.memory_base) {
    p->block = (unsigned char *)p->desc.memory_base;
    return GE_OK;
  }
  if (p->desc.memory_size > p->mem_limit - p->mem_used)
    return ge_error_set(err, GE_ERR_NOMEM, "the %llu-byte memory block passes the memory limit of %llu bytes "
                        "(ge_exec_desc.memory_limit)", (unsigned long long)p->desc.memory_size, (unsigned long long)p->mem_limit);
  p->mem_used += p->desc.memory_size;
  if (p->desc.memory_size > (uint64_t)((size_t)-1 - 512) ||
      !(p->block_owned = ge__x_alloc(&p->a, (size_t)p->desc.memory_size + 512)))
    return ge_error_set(err, GE_ERR_NOMEM, "out of memory for the %llu-byte memory block",
                        (unsigned long long)p->desc.memory_size);
  p->block = (unsigned char *)(((uintptr_t)p->block_owned + 511) & ~(uintptr_t)511);
  return GE_OK;
}

static ge_status ge__x_lower(ge_program *p, ge_error *err) {
  ge_graph *g = p->graph;
  uint32_t n = ge_graph_node_count(g), bound = ge_graph_id_bound(g), i, k, t = 0, q = 0;
  ge_node_id *order = (ge_node_id *)ge__x_alloc(&p->a, ((size_t)n + 1) * sizeof *order);
  ge_status st;
  if (!order) return ge_error_set(err, GE_ERR_NOMEM, "out of memory lowering '%s'", ge_graph_name(g));
  if ((st = ge_graph_topo_sort(g, p->desc.topo_mode, order, err))) goto done;
  /* value slots */
  p->first_slot = (uint32_t *)ge__x_alloc(&p->a, ((size_t)bound + 1) * sizeof(uint32_t));
  if (!p->first_slot) goto oom;
  for (i = 0; i < bound; i++) {
    ge_node *x = ge_graph_node(g, i);
    p->first_slot[i] = p->num_slots;
    if (x) p->num_slots += x->num_outputs;
  }
  p->slots = (ge_value *)ge__x_alloc(&p->a, ((size_t)p->num_slots + 1) * sizeof(ge_value));
  if (!p->slots) goto oom;
  memset(p->slots, 0, ((size_t)p->num_slots + 1) * sizeof(ge_value));
  if ((st = ge__x_setup_block(p, err))) goto done;
  /* tasks and their pointer arrays */
  for (i = 0; i < n; i++) {
    ge_node *x = ge_graph_node(g, order[i]);
    if (ge__x_is(x, "Data") || ge__x_is(x, "Const") || ge__x_is(x, "NetOutput")) continue;
    p->num_tasks++;
    p->num_ptrs += x->num_inputs + x->num_outputs;
  }
  p->tasks = (ge_task *)ge__x_alloc(&p->a, ((size_t)p->num_tasks + 1) * sizeof(ge_task));
  p->ptrs = (ge_value **)ge__x_alloc(&p->a, ((size_t)p->num_ptrs + 1) * sizeof(ge_value *));
  if (!p->tasks || !p->ptrs) goto oom;
  memset(p->tasks, 0, ((size_t)p->num_tasks + 1) * sizeof(ge_task)); /* freeing reads ctx.state */
  for (i = 0; i < n; i++) {
    ge_node *x = ge_graph_node(g, order[i]);
    ge_value *slot = &p->slots[p->first_slot[x->id]];
    if (ge__x_is(x, "Data") || ge__x_is(x, "NetOutput")) continue;
    if (ge__x_is(x, "Const")) { /* the weights, in place */
      const ge_attr *v = ge_node_attr(x, "value");
      if (!v || v->type != GE_ATTR_TENSOR || x->num_outputs < 1) {
        st = ge_error_set(err, GE_ERR_INVALID, "Const node '%s' has no tensor value", x->name);
        goto done;
      }
      if (ge_value_set_shape(slot, v->v.t->dtype, v->v.t->rank, v->v.t->dims) || slot->nbytes > v->v.t->nbytes) {
        st = ge_error_set(err, GE_ERR_SHAPE, "Const node '%s': its %s tensor's shape does not match its %zu bytes (or overflows)",
                          x->name, ge_dtype_name(v->v.t->dtype), v->v.t->nbytes);
        goto done;
      }
      slot->data = v->v.t->data;
      continue;
    }
    {
      ge_task *task = &p->tasks[t++];
      ge_kernel_fn fn = ge__x_builtin(x);
      if (!fn) fn = p->desc.lookup(x, p->desc.lookup_user);
      if (!fn) {
        st = ge_error_set(err, GE_ERR_UNSUPPORTED, "no kernel for node '%s' (op %s%s%s)", x->name,
                        x->domain && *x->domain ? x->domain : "", x->domain && *x->domain ? "::" : "", x->op);
        goto done;
      }
      memset(task, 0, sizeof *task);
      task->fn = fn;
      task->ctx.node = x;
      task->ctx.graph = g;
      task->ctx.env = &p->env;
      task->ctx.err = &p->run_err;
      task->ctx.num_inputs = x->num_inputs;
      task->ctx.num_outputs = x->num_outputs;
      task->ctx.inputs = &p->ptrs[q];
      for (k = 0; k < x->num_inputs; k++) {
        ge_edge e = x->inputs[k];
        p->ptrs[q++] = e.node == GE_NONE ? NULL : &p->slots[p->first_slot[e.node] + (uint32_t)e.index];
      }
      task->ctx.outputs = &p->ptrs[q];
      for (k = 0; k < x->num_outputs; k++) {
        p->ptrs[q++] = &slot[k];
        if ((st = ge__x_plan_static(p, &slot[k], x, k, err))) goto done;
      }
    }
  }
  /* inputs and outputs */
  p->num_inputs = ge_graph_inputs(g, NULL, 0);
  p->inputs = (ge_node_id *)ge__x_alloc(&p->a, ((size_t)p->num_inputs + 1) * sizeof(ge_node_id));
  if (!p->inputs) goto oom;
  for (i = 0; i < p->num_inputs; i++) p->inputs[i] = GE_NONE;
  ge_graph_inputs(g, p->inputs, p->num_inputs);
  p->output_node = ge_graph_output_node(g);
  if (p->output_node != GE_NONE) {
    ge_node *o = ge_graph_node(g, p->output_node);
    p->num_outputs = o->num_inputs;
    p->outputs = (ge_value **)ge__x_alloc(&p->a, ((size_t)p->num_outputs + 1) * sizeof(ge_value *));
    if (!p->outputs) goto oom;
    for (k = 0; k < o->num_inputs; k++) {
      ge_edge e = o->inputs[k];
      if (e.node == GE_NONE) {
        st = ge_error_set(err, GE_ERR_INVALID, "graph '%s': output %u is not connected", ge_graph_name(g), (unsigned)k);
        goto done;
      }
      p->outputs[k] = &p->slots[p->first_slot[e.node] + (uint32_t)e.index];
    }
  }
  st = GE_OK;
  goto done;
oom:
  st = ge_error_set(err, GE_ERR_NOMEM, "out of memory lowering '%s'", ge_graph_name(g));
done:
  ge__x_free(&p->a, order, ((size_t)n + 1) * sizeof *order);
  return st;
}

static ge_status ge__x_lower_subgraphs(ge_program *p, ge_error *err);

/* The Data nodes with parent_index (outer-scope captures of a subgraph). */
static ge_status ge__x_find_captures(ge_program *p, ge_error *err) {
  ge_node *d;
  uint32_t n = 0;
  GE_GRAPH_FOREACH(p->graph, d) n += ge__x_is(d, "Data") && ge_node_attr(d, "parent_index");
  if (!n) return GE_OK;
  p->capture_slot = (uint32_t *)ge__x_alloc(&p->a, ((size_t)n + 1) * sizeof *p->capture_slot);
  p->capture_parent = (int64_t *)ge__x_alloc(&p->a, ((size_t)n + 1) * sizeof *p->capture_parent);
  if (!p->capture_slot || !p->capture_parent) {
    ge__x_free(&p->a, p->capture_slot, ((size_t)n + 1) * sizeof *p->capture_slot);
    ge__x_free(&p->a, p->capture_parent, ((size_t)n + 1) * sizeof *p->capture_parent);
    p->capture_slot = NULL, p->capture_parent = NULL;
    return ge_error_set(err, GE_ERR_NOMEM, "out of memory");
  }
  GE_GRAPH_FOREACH(p->graph, d) {
    if (!ge__x_is(d, "Data") || !ge_node_attr(d, "parent_index")) continue;
    p->capture_slot[p->num_captures] = p->first_slot[d->id];
    p->capture_parent[p->num_captures++] = ge_node_attr_int(d, "parent_index", -1);
  }
  return GE_OK;
}

static void ge__x_parallel_for(ge_kernel_env *env, int64_t n, int64_t grain, ge_parallel_fn fn, void *arg) {
  ge_runtime_parallel_for(((ge_program *)env->executor)->rt, n, grain, fn, arg);
}

/* The pool: the caller's, or one of the program's own for num_threads > 1. */
static ge_status ge__x_setup_threads(ge_program *p, ge_error *err) {
  p->rt = p->desc.runtime;
  if (!p->rt && p->desc.num_threads > 1) {
    ge_runtime_desc rd;
    ge_status st;
    memset(&rd, 0, sizeof rd);
    rd.allocator = p->a;
    rd.num_threads = p->desc.num_threads;
    if ((st = ge_runtime_create(&rd, &p->rt_owned, err))) return st;
    p->rt = p->rt_owned;
  }
  p->env.num_threads = ge_runtime_num_threads(p->rt);
  if (p->env.num_threads > 1) p->env.parallel_for = ge__x_parallel_for;
  return GE_OK;
}

static ge_status ge__x_create(ge_graph *g, const ge_exec_desc *desc, const ge_allocator *a, ge_program **out,
                              ge_error *err) {
  ge_program *p;
  ge_status st;
  *out = NULL;
  p = (ge_program *)ge__x_alloc(a, sizeof *p);
  if (!p) return ge_error_set(err, GE_ERR_NOMEM, "out of memory");
  memset(p, 0, sizeof *p);
  p->a = *a;
  p->graph = g;
  p->desc = *desc;
  p->env.alloc_output = ge__x_alloc_output;
  p->env.run_graph = ge__x_run_graph;
  p->env.alias_output = ge__x_alias_output;
  p->env.executor = p;
  p->output_node = GE_NONE;
  p->mem_limit = desc->memory_limit ? desc->memory_limit : ge__x_default_memory_limit();
  if ((st = ge__x_setup_threads(p, err)) || (st = ge__x_lower(p, err)) || (st = ge__x_find_captures(p, err)) || (st = ge__x_lower_subgraphs(p, err))) {
    ge_program_free(p);
    return st;
  }
  *out = p;
  return GE_OK;
}

/* ----------------------------------------------------------- executors */

GE_API const char *ge_executor_name(ge_executor_kind k) {
  switch (k) {
  case GE_EXECUTOR_AUTO: return "auto";
  case GE_EXECUTOR_SEQUENTIAL: return "sequential";
  case GE_EXECUTOR_TOPOLOGICAL: return "topological";
  case GE_EXECUTOR_MULTI_THREAD: return "multi-thread";
  case GE_EXECUTOR_PRIORITY: return "priority";
  case GE_EXECUTOR_STREAMS: return "streams";
  }
  return "?";
}

GE_API ge_status ge_executor_parse(const char *name, ge_executor_kind *out, ge_error *err) {
  int k;
  for (k = GE_EXECUTOR_AUTO; k <= GE_EXECUTOR_STREAMS; k++)
    if (name && !strcmp(name, ge_executor_name((ge_executor_kind)k))) {
      *out = (ge_executor_kind)k;
      return GE_OK;
    }
  return ge_error_set(err, GE_ERR_INVALID, "unknown executor '%s' (auto, sequential, topological, multi-thread, priority, streams)",
                      name ? name : "");
}

GE_API ge_executor_kind ge_program_executor(const ge_program *p) { return p->executor; }

static int ge__x_is_control_flow(const ge_node *n) {
  static const char *const ops[] = {"If", "Case", "While", "Loop", "Scan"};
  unsigned k;
  for (k = 0; k < sizeof ops / sizeof *ops; k++)
    if (ge__x_is(n, ops[k])) return 1;
  return 0;
}

/* The dependency edges between tasks as successor lists (CSR): data and
 * control inputs produced by tasks, plus, with a stream plan, each task's
 * predecessor task on its stream. */
typedef struct ge__x_csr {
  uint32_t *begin; /* num_tasks + 1 */
  uint32_t *succ;
  uint32_t num;
} ge__x_csr;

static void ge__x_csr_free(ge_program *p, ge__x_csr *c) {
  ge__x_free(&p->a, c->begin, ((size_t)p->num_tasks + 1) * sizeof(uint32_t));
  ge__x_free(&p->a, c->succ, (size_t)c->num * sizeof(uint32_t));
  memset(c, 0, sizeof *c);
}

/* Calls add(c, from, to) for every dependency edge (pass 0 counts, 1 fills). */
static void ge__x_edges(ge_program *p, ge__x_csr *c, int fill) {
  const ge_stream_plan *sp = p->desc.streams;
  uint32_t t, k, s, j;
#define GE__X_EDGE(from, to) \
  do { \
    uint32_t f_ = (from); \
    if (f_ != UINT32_MAX) { \
      if (fill) c->succ[c->begin[f_]++] = (to); else c->begin[f_ + 1]++; \
    } \
  } while (0)
  for (t = 0; t < p->num_tasks; t++) {
    const ge_node *x = p->tasks[t].ctx.node;
    for (k = 0; k < x->num_inputs; k++)
      if (x->inputs[k].node != GE_NONE) GE__X_EDGE(p->task_of_node[x->inputs[k].node], t);
    for (k = 0; k < x->num_control_inputs; k++) GE__X_EDGE(p->task_of_node[x->control_inputs[k]], t);
  }
  for (s = 0; sp && s < sp->num_streams; s++) {
    uint32_t prev = UINT32_MAX;
    for (j = 0; j < sp->streams[s].num_nodes; j++) {
      uint32_t t2 = p->task_of_node[sp->streams[s].nodes[j]];
      if (t2 == UINT32_MAX) continue;
      GE__X_EDGE(prev, t2);
      prev = t2;
    }
  }
#undef GE__X_EDGE
}

static ge_status ge__x_build_csr(ge_program *p, ge__x_csr *c, ge_error *err) {
  uint32_t n = p->num_tasks, t;
  memset(c, 0, sizeof *c);
  if (!(c->begin = (uint32_t *)ge__x_alloc(&p->a, ((size_t)n + 1) * sizeof(uint32_t)))) goto oom;
  memset(c->begin, 0, ((size_t)n + 1) * sizeof(uint32_t));
  ge__x_edges(p, c, 0);
  for (t = 0; t < n; t++) c->begin[t + 1] += c->begin[t];
  c->num = c->begin[n];
  if (!(c->succ = (uint32_t *)ge__x_alloc(&p->a, (size_t)c->num * sizeof(uint32_t)))) goto oom;
  ge__x_edges(p, c, 1); /* begin[t] moved to the end of t's list = the start of t+1's */
  for (t = n; t > 0; t--) c->begin[t] = c->begin[t - 1];
  c->begin[0] = 0;
  return GE_OK;
oom:
  ge__x_csr_free(p, c);
  return ge_error_set(err, GE_ERR_NOMEM, "out of memory");
}

/* Longest path to the end, in tasks (the priority executor's key), by a
 * reverse pass over a Kahn order; returns the longest path overall, or 0
 * on a cycle. */
static uint32_t ge__x_priorities(ge_program *p, const ge__x_csr *c, uint64_t *prio, uint32_t *scratch) {
  uint32_t n = p->num_tasks, *order = scratch, *pend = scratch + n, head = 0, tail = 0, t, k, depth = 0;
  memset(pend, 0, (size_t)n * sizeof(uint32_t));
  for (k = 0; k < c->num; k++) pend[c->succ[k]]++;
  for (t = 0; t < n; t++)
    if (!pend[t]) order[tail++] = t;
  while (head < tail) {
    t = order[head++];
    for (k = c->begin[t]; k < c->begin[t + 1]; k++)
      if (--pend[c->succ[k]] == 0) order[tail++] = c->succ[k];
  }
  if (tail != n) return 0;
  while (tail--) {
    uint64_t best = 0;
    t = order[tail];
    for (k = c->begin[t]; k < c->begin[t + 1]; k++)
      if (prio[c->succ[k]] > best) best = prio[c->succ[k]];
    prio[t] = best + 1;
    if (prio[t] > depth) depth = (uint32_t)prio[t];
  }
  return depth;
}

/* Errors of kernels running at once must not share a ge_error. */
static ge_status ge__x_lanes(ge_program *p, uint32_t n, const uint32_t *lane_of_task, ge_error *err) {
  uint32_t t;
  p->num_lanes = n;
  if (!(p->lane_err = (ge_error *)ge__x_alloc(&p->a, (size_t)n * sizeof *p->lane_err)))
    return ge_error_set(err, GE_ERR_NOMEM, "out of memory");
  memset(p->lane_err, 0, (size_t)n * sizeof *p->lane_err);
  for (t = 0; t < p->num_tasks; t++) p->tasks[t].ctx.err = &p->lane_err[lane_of_task ? lane_of_task[t] : t];
  return GE_OK;
}

/* AUTO runs branches at once (STREAMS, MULTI_THREAD) only when they could
 * keep this many threads busy. On two threads, branches finish in about
 * max(longest path, total / 2) and kernels splitting their own work in
 * total / (2 e), e their parallel efficiency (about 0.8 measured on this
 * project's kernels): branches pay when total / longest path > 2 e. */
#define GE__X_WIDE 1.6

/* Elements of a tensor, 1 when its shape is not known. */
static double ge__x_numel(const ge_tensor_desc *d) {
  int64_t n = d ? ge_shape_numel(&d->shape) : -1;
  return n > 0 ? (double)n : 1.0;
}

/* A task's work, roughly in multiply-adds: products count output elements
 * times the reduction length, everything else the elements it reads and
 * writes. Only ratios of sums of these matter (ge__x_parallelism). */
static double ge__x_task_work(const ge_program *p, const ge_node *x) {
  const ge_tensor_desc *a = x->num_inputs ? ge_node_input_desc(p->graph, x, 0) : NULL;
  const ge_tensor_desc *w = x->num_inputs > 1 ? ge_node_input_desc(p->graph, x, 1) : NULL;
  double out = x->num_outputs ? ge__x_numel(&x->outputs[0]) : 1.0, moved = 0;
  uint32_t k;
  if (w && w->shape.rank >= 2 && w->shape.dims[0] > 0) {
    double per_filter = ge__x_numel(w) / (double)w->shape.dims[0]; /* C/group x kernel */
    if (ge__x_is(x, "Conv") || ge__x_is(x, "ConvInteger")) return out * per_filter;
    if (ge__x_is(x, "ConvTranspose")) return ge__x_numel(a) * per_filter;
  }
  if (a && a->shape.rank >= 1 && (ge__x_is(x, "MatMul") || ge__x_is(x, "Gemm") || ge__x_is(x, "MatMulInteger"))) {
    int64_t k_len = a->shape.dims[a->shape.rank - 1];
    if (ge__x_is(x, "Gemm") && ge_node_attr_int(x, "transA", 0) && a->shape.rank == 2) k_len = a->shape.dims[0];
    return out * (double)(k_len > 0 ? k_len : 1);
  }
  for (k = 0; k < x->num_inputs; k++) moved += ge__x_numel(ge_node_input_desc(p->graph, x, k));
  for (k = 0; k < x->num_outputs; k++) moved += ge__x_numel(&x->outputs[k]);
  return moved;
}

/* Total work over the work on the longest path (the csr's edges, stream
 * order included): how many threads the graph's parallel branches could
 * keep busy at best. order is a topological order of the tasks. */
static double ge__x_parallelism(ge_program *p, const ge__x_csr *c, const uint32_t *order, double *path) {
  uint32_t n = p->num_tasks, i = n, k;
  double total = 0, longest = 0;
  while (i--) {
    uint32_t t = order[i];
    double best = 0, work = ge__x_task_work(p, p->tasks[t].ctx.node);
    for (k = c->begin[t]; k < c->begin[t + 1]; k++)
      if (path[c->succ[k]] > best) best = path[c->succ[k]];
    path[t] = best + work;
    total += work;
    if (path[t] > longest) longest = path[t];
  }
  return longest > 0 ? total / longest : 1.0;
}

/* Picks the executor as GE does (see ge_exec_desc.executor). */
static ge_executor_kind ge__x_pick(ge_program *p, uint32_t depth, double parallelism) {
  int threads = ge_runtime_num_threads(p->rt), control = 0, free_order = !p->desc.memory_size || p->desc.streams;
  int wide = parallelism >= GE__X_WIDE;
  uint32_t t;
  for (t = 0; t < p->num_tasks; t++) control |= ge__x_is_control_flow(p->tasks[t].ctx.node);
  if (threads >= 2 && wide && p->desc.streams && p->desc.streams->num_streams >= 2) return GE_EXECUTOR_STREAMS;
  if (threads >= 2 && wide && free_order && depth && p->num_tasks >= 2 * (uint64_t)depth) return GE_EXECUTOR_MULTI_THREAD;
  return control && free_order ? GE_EXECUTOR_PRIORITY : GE_EXECUTOR_SEQUENTIAL;
}

static ge_status ge__x_lower_streams(ge_program *p, ge_error *err);

/* The topological executors' DAG (with priorities for PRIORITY). */
static ge_status ge__x_setup_dag(ge_program *p, const ge__x_csr *c, uint64_t *prio, ge_error *err) {
  ge_runtime_dag_desc dd;
  memset(&dd, 0, sizeof dd);
  dd.tasks = p->tasks, dd.num_tasks = p->num_tasks;
  dd.succ_begin = c->begin, dd.succ = c->succ;
  dd.priority = p->executor == GE_EXECUTOR_PRIORITY ? prio : NULL;
  dd.multi_thread = p->executor == GE_EXECUTOR_MULTI_THREAD;
  if (dd.multi_thread) {
    ge_status st = ge__x_lanes(p, p->num_tasks, NULL, err);
    if (st) return st;
  }
  return ge_runtime_dag_create(p->rt, &dd, &p->dag, err);
}

static ge_status ge__x_setup_profile(ge_program *p, ge_error *err);
static ge_status ge__x_watchdog_start(ge_program *p, ge_error *err);

static ge_status ge__x_setup_executor(ge_program *p, ge_error *err) {
  uint32_t t, bound = ge_graph_id_bound(p->graph), depth;
  ge__x_csr c;
  uint64_t *prio = NULL;
  uint32_t *scratch = NULL;
  ge_status st;
  const ge_stream_plan *sp = p->desc.streams;
  if (!(p->task_of_node = (uint32_t *)ge__x_alloc(&p->a, ((size_t)bound + 1) * sizeof(uint32_t))))
    return ge_error_set(err, GE_ERR_NOMEM, "out of memory");
  for (t = 0; t < bound; t++) p->task_of_node[t] = UINT32_MAX;
  for (t = 0; t < p->num_tasks; t++) p->task_of_node[p->tasks[t].ctx.node->id] = t;
  if (sp) { /* the plan must cover every task's node */
    for (t = 0; t < p->num_tasks; t++) {
      const ge_node *x = p->tasks[t].ctx.node;
      if (x->id >= sp->id_bound || sp->node_stream[x->id] < 0 || (uint32_t)sp->node_stream[x->id] >= sp->num_streams)
        return ge_error_set(err, GE_ERR_INVALID, "node '%s' has no stream in the stream plan (made for another graph?)",
                            x->name);
    }
  }
  if ((st = ge__x_build_csr(p, &c, err))) return st;
  prio = (uint64_t *)ge__x_alloc(&p->a, ((size_t)p->num_tasks + 1) * sizeof *prio);
  scratch = (uint32_t *)ge__x_alloc(&p->a, ((size_t)p->num_tasks * 2 + 1) * sizeof *scratch);
  if (!prio || !scratch) {
    st = ge_error_set(err, GE_ERR_NOMEM, "out of memory");
    goto done;
  }
  depth = ge__x_priorities(p, &c, prio, scratch);
  if (p->num_tasks && !depth) {
    st = ge_error_set(err, GE_ERR_CYCLE, "graph '%s': the stream plan's order contradicts the dependencies",
                      ge_graph_name(p->graph));
    goto done;
  }
  if (p->desc.executor == GE_EXECUTOR_AUTO) {
    double *path = (double *)ge__x_alloc(&p->a, ((size_t)p->num_tasks + 1) * sizeof *path), par;
    if (!path) {
      st = ge_error_set(err, GE_ERR_NOMEM, "out of memory");
      goto done;
    }
    par = ge__x_parallelism(p, &c, scratch, path);
    p->executor = ge__x_pick(p, depth, par);
    ge__x_free(&p->a, path, ((size_t)p->num_tasks + 1) * sizeof *path);
  } else
    p->executor = p->desc.executor;
  if (p->executor != GE_EXECUTOR_SEQUENTIAL && p->desc.memory_size && !sp) {
    st = ge_error_set(err, GE_ERR_INVALID, "the %s executor reorders tasks: with a memory plan it needs the stream plan "
                      "the memory plan was made under (ge_exec_desc.streams)", ge_executor_name(p->executor));
    goto done;
  }
  if ((unsigned)p->executor > GE_EXECUTOR_STREAMS) {
    st = ge_error_set(err, GE_ERR_INVALID, "unknown executor %d", (int)p->executor);
    goto done;
  }
  if (p->executor == GE_EXECUTOR_STREAMS && !sp) {
    st = ge_error_set(err, GE_ERR_INVALID, "the streams executor needs a stream plan (ge_exec_desc.streams)");
    goto done;
  }
  p->num_ids = p->num_tasks;
  if (p->executor == GE_EXECUTOR_STREAMS) st = ge__x_lower_streams(p, err);
  else if (p->executor != GE_EXECUTOR_SEQUENTIAL) st = ge__x_setup_dag(p, &c, prio, err);
  if (p->rs) ge_runtime_streams_cancel_on(p->rs, &p->abort);
  if (p->dag) ge_runtime_dag_cancel_on(p->dag, &p->abort);
  if (!st && p->desc.check_order &&
      !(p->stamps = (uint64_t *)ge__x_alloc(&p->a, ((size_t)p->num_ids + 1) * 2 * sizeof *p->stamps)))
    st = ge_error_set(err, GE_ERR_NOMEM, "out of memory");
  if (!st && p->desc.profile) st = ge__x_setup_profile(p, err);
  if (!st && p->desc.timeout_ms) st = ge__x_watchdog_start(p, err);
done:
  ge__x_csr_free(p, &c);
  ge__x_free(&p->a, prio, ((size_t)p->num_tasks + 1) * sizeof *prio);
  ge__x_free(&p->a, scratch, ((size_t)p->num_tasks * 2 + 1) * sizeof *scratch);
  return st;
}

/* ---- streams: the plan lowered to per-stream task lists */

typedef struct ge__x_launch_key {
  int32_t topo;
  uint32_t stream;
} ge__x_launch_key;

static int ge__x_cmp_launch(const void *a, const void *b) {
  const ge__x_launch_key *x = (const ge__x_launch_key *)a, *y = (const ge__x_launch_key *)b;
  return x->topo != y->topo ? (x->topo < y->topo ? -1 : 1) : (x->stream > y->stream) - (x->stream < y->stream);
}

/* Scratch of the lowering, freed together. */
typedef struct ge__x_stream_tmp {
  uint32_t *wait_at, *rec_at;   /* per node id: CSR offsets (bound + 1) */
  uint32_t *waits, *recs;       /* event indices */
  ge_runtime_entry *entries;    /* all streams' entries */
  const ge_runtime_entry **lists;
  uint32_t *counts, *lane_of_task;
  ge__x_launch_key *keys;
  uint32_t *launch;
  uint32_t bound, nev, total;
} ge__x_stream_tmp;

static void ge__x_stream_tmp_free(ge_program *p, ge__x_stream_tmp *x) {
  const ge_stream_plan *sp = p->desc.streams;
  ge__x_free(&p->a, x->wait_at, ((size_t)x->bound + 2) * sizeof(uint32_t));
  ge__x_free(&p->a, x->rec_at, ((size_t)x->bound + 2) * sizeof(uint32_t));
  ge__x_free(&p->a, x->waits, ((size_t)x->nev + 1) * sizeof(uint32_t));
  ge__x_free(&p->a, x->recs, ((size_t)x->nev + 1) * sizeof(uint32_t));
  ge__x_free(&p->a, x->entries, ((size_t)x->total + 1) * sizeof *x->entries);
  ge__x_free(&p->a, (void *)x->lists, ((size_t)sp->num_streams + 1) * sizeof *x->lists);
  ge__x_free(&p->a, x->counts, ((size_t)sp->num_streams + 1) * sizeof *x->counts);
  ge__x_free(&p->a, x->lane_of_task, ((size_t)p->num_tasks + 1) * sizeof *x->lane_of_task);
  ge__x_free(&p->a, x->keys, ((size_t)x->total + 1) * sizeof *x->keys);
  ge__x_free(&p->a, x->launch, ((size_t)x->total + 1) * sizeof *x->launch);
}

/* Event k of the runtime: the plan's events, then one per activated stream
 * (recorded by its StreamActive node, waited for by its first entry). */
static void ge__x_event_ends(const ge_stream_plan *sp, uint32_t k, ge_node_id *send, ge_node_id *recv) {
  uint32_t s, a = sp->num_events;
  if (k < sp->num_events) {
    *send = sp->events[k].send_node, *recv = sp->events[k].recv_node;
    return;
  }
  for (s = 0; s < sp->num_streams; s++) {
    if (sp->streams[s].activated_by == GE_NONE || !sp->streams[s].num_nodes) continue;
    if (a++ == k) {
      *send = sp->streams[s].activated_by, *recv = sp->streams[s].nodes[0];
      return;
    }
  }
  *send = *recv = GE_NONE;
}

/* Per node: the events it waits for and records (CSR by node id). */
static ge_status ge__x_stream_events(ge_program *p, ge__x_stream_tmp *x, ge_error *err) {
  const ge_stream_plan *sp = p->desc.streams;
  uint32_t s, k, b = x->bound;
  x->nev = sp->num_events;
  for (s = 0; s < sp->num_streams; s++) x->nev += sp->streams[s].activated_by != GE_NONE && sp->streams[s].num_nodes;
  x->wait_at = (uint32_t *)ge__x_alloc(&p->a, ((size_t)b + 2) * sizeof(uint32_t));
  x->rec_at = (uint32_t *)ge__x_alloc(&p->a, ((size_t)b + 2) * sizeof(uint32_t));
  x->waits = (uint32_t *)ge__x_alloc(&p->a, ((size_t)x->nev + 1) * sizeof(uint32_t));
  x->recs = (uint32_t *)ge__x_alloc(&p->a, ((size_t)x->nev + 1) * sizeof(uint32_t));
  if (!x->wait_at || !x->rec_at || !x->waits || !x->recs) return ge_error_set(err, GE_ERR_NOMEM, "out of memory");
  memset(x->wait_at, 0, ((size_t)b + 2) * sizeof(uint32_t));
  memset(x->rec_at, 0, ((size_t)b + 2) * sizeof(uint32_t));
  for (k = 0; k < x->nev; k++) {
    ge_node_id send, recv;
    ge__x_event_ends(sp, k, &send, &recv);
    if (send >= b || recv >= b || !ge_graph_node(p->graph, send) || !ge_graph_node(p->graph, recv))
      return ge_error_set(err, GE_ERR_INVALID, "stream plan: event %u joins nodes %u and %u, not both in graph '%s'",
                          (unsigned)k, (unsigned)send, (unsigned)recv, ge_graph_name(p->graph));
    x->wait_at[recv + 2]++, x->rec_at[send + 2]++;
  }
  for (k = 0; k < b; k++) x->wait_at[k + 2] += x->wait_at[k + 1], x->rec_at[k + 2] += x->rec_at[k + 1];
  for (k = 0; k < x->nev; k++) { /* offsets shift by one as they fill */
    ge_node_id send, recv;
    ge__x_event_ends(sp, k, &send, &recv);
    x->waits[x->wait_at[recv + 1]++] = k;
    x->recs[x->rec_at[send + 1]++] = k;
  }
  return GE_OK;
}

/* One entry per plan node: its task (or none for Data, Const, NetOutput),
 * the events it waits for and records. */
static ge_status ge__x_stream_entries(ge_program *p, ge__x_stream_tmp *x, ge_error *err) {
  const ge_stream_plan *sp = p->desc.streams;
  uint32_t s, j, e = 0;
  for (s = 0; s < sp->num_streams; s++) x->total += sp->streams[s].num_nodes;
  x->entries = (ge_runtime_entry *)ge__x_alloc(&p->a, ((size_t)x->total + 1) * sizeof *x->entries);
  x->lists = (const ge_runtime_entry **)ge__x_alloc(&p->a, ((size_t)sp->num_streams + 1) * sizeof *x->lists);
  x->counts = (uint32_t *)ge__x_alloc(&p->a, ((size_t)sp->num_streams + 1) * sizeof *x->counts);
  x->lane_of_task = (uint32_t *)ge__x_alloc(&p->a, ((size_t)p->num_tasks + 1) * sizeof *x->lane_of_task);
  x->keys = (ge__x_launch_key *)ge__x_alloc(&p->a, ((size_t)x->total + 1) * sizeof *x->keys);
  x->launch = (uint32_t *)ge__x_alloc(&p->a, ((size_t)x->total + 1) * sizeof *x->launch);
  if (!x->entries || !x->lists || !x->counts || !x->lane_of_task || !x->keys || !x->launch)
    return ge_error_set(err, GE_ERR_NOMEM, "out of memory");
  p->num_ids = p->num_tasks + x->total; /* sizes id_node and id_stream (freed with the program) */
  p->id_node = (ge_node_id *)ge__x_alloc(&p->a, ((size_t)p->num_ids + 1) * sizeof *p->id_node);
  p->id_stream = (uint32_t *)ge__x_alloc(&p->a, ((size_t)p->num_ids + 1) * sizeof *p->id_stream);
  if (!p->id_node || !p->id_stream) return ge_error_set(err, GE_ERR_NOMEM, "out of memory");
  for (e = 0; e < p->num_ids; e++) p->id_node[e] = GE_NONE, p->id_stream[e] = UINT32_MAX;
  e = 0;
  for (s = 0; s < sp->num_streams; s++) {
    x->lists[s] = x->entries + e;
    x->counts[s] = sp->streams[s].num_nodes;
    for (j = 0; j < sp->streams[s].num_nodes; j++, e++) {
      ge_node_id id = sp->streams[s].nodes[j];
      ge_runtime_entry *en = &x->entries[e];
      const ge_node *node = id < x->bound ? ge_graph_node(p->graph, id) : NULL;
      uint32_t t = node ? p->task_of_node[id] : UINT32_MAX;
      if (!node)
        return ge_error_set(err, GE_ERR_INVALID, "stream plan: stream %u lists node %u, not in graph '%s'", (unsigned)s,
                            (unsigned)id, ge_graph_name(p->graph));
      memset(en, 0, sizeof *en);
      en->task = t == UINT32_MAX ? NULL : &p->tasks[t];
      en->id = t == UINT32_MAX ? p->num_tasks + e : t;
      if (t != UINT32_MAX) x->lane_of_task[t] = s;
      p->id_node[en->id] = id, p->id_stream[en->id] = s;
      en->waits = x->waits + x->wait_at[id], en->num_waits = x->wait_at[id + 1] - x->wait_at[id];
      en->records = x->recs + x->rec_at[id], en->num_records = x->rec_at[id + 1] - x->rec_at[id];
      x->keys[e].topo = node->topo_id, x->keys[e].stream = s;
    }
  }
  /* the host launches in the program's topological order */
  qsort(x->keys, x->total, sizeof *x->keys, ge__x_cmp_launch);
  for (e = 0; e < x->total; e++) x->launch[e] = x->keys[e].stream;
  return GE_OK;
}

static ge_status ge__x_lower_streams(ge_program *p, ge_error *err) {
  const ge_stream_plan *sp = p->desc.streams;
  ge__x_stream_tmp x;
  ge_runtime_streams_desc d;
  ge_status st;
  memset(&x, 0, sizeof x);
  x.bound = ge_graph_id_bound(p->graph);
  if (!(st = ge__x_stream_events(p, &x, err)) && !(st = ge__x_stream_entries(p, &x, err)) &&
      !(st = ge__x_lanes(p, sp->num_streams, x.lane_of_task, err))) {
    memset(&d, 0, sizeof d);
    d.num_streams = sp->num_streams;
    d.entries = x.lists, d.num_entries = x.counts;
    d.num_events = x.nev;
    d.num_ids = p->num_tasks + x.total;
    d.launch_order = x.launch;
    d.owner = p->graph; /* forks (programs of one graph) get pool streams of their own: they run at once */
    st = ge_runtime_streams_create(p->rt, &d, &p->rs, err);
  }
  ge__x_stream_tmp_free(p, &x);
  return st;
}

/* ---- running */

/* The failed or aborted task's message (from its lane), then every lane
 * cleared for the next run. */
static ge_status ge__x_failure(ge_program *p, ge_runtime_result r) {
  const ge_node *x = r.task < p->num_tasks ? p->tasks[r.task].ctx.node : NULL;
  uint32_t k;
  if (!x && p->id_node && r.task < p->num_ids && p->id_node[r.task] != GE_NONE)
    x = ge_graph_node(p->graph, p->id_node[r.task]); /* a synchronisation entry (Data, NetOutput, an event) */
  if (r.aborted)
    ge_error_set(&p->run_err, r.status, "run aborted%s%s%s", x ? " at node '" : "", x ? x->name : "", x ? "'" : "");
  else if (x && p->tasks[r.task].ctx.err->code)
    p->run_err = *p->tasks[r.task].ctx.err;
  else if (x)
    ge_error_set(&p->run_err, r.status, "node '%s' (%s) failed: %s", x->name, x->op, ge_status_name(r.status));
  else
    ge_error_set(&p->run_err, r.status, "run failed: %s", ge_status_name(r.status));
  for (k = 0; k < p->num_lanes; k++) p->lane_err[k].code = GE_OK, p->lane_err[k].message[0] = 0;
  return r.status;
}

/* check_order: every dependency of a task ended before it started. */
static ge_status ge__x_check_stamps(ge_program *p) {
  uint32_t t, k;
  for (t = 0; t < p->num_tasks; t++) {
    const ge_node *x = p->tasks[t].ctx.node;
    uint64_t start = p->stamps[2 * (size_t)t];
    for (k = 0; k < x->num_inputs + x->num_control_inputs; k++) {
      ge_node_id from = k < x->num_inputs ? x->inputs[k].node : x->control_inputs[k - x->num_inputs];
      uint32_t f = from == GE_NONE ? UINT32_MAX : p->task_of_node[from];
      if (f == UINT32_MAX) continue;
      if (!start || !p->stamps[2 * (size_t)f + 1] || p->stamps[2 * (size_t)f + 1] >= start)
        return ge_error_set(&p->run_err, GE_ERR_INTERNAL,
                            "happens-before violated: node '%s' started (stamp %llu) before its %s input '%s' finished "
                            "(stamp %llu)", x->name, (unsigned long long)start, k < x->num_inputs ? "data" : "control",
                            ge_graph_node(p->graph, from)->name, (unsigned long long)p->stamps[2 * (size_t)f + 1]);
    }
  }
  return GE_OK;
}

/* The flat loop with stamps or profile times (debug), abort checked per task. */
static ge_runtime_result ge__x_run_stamped(ge_program *p) {
  ge_runtime_result r;
  uint32_t t;
  uint64_t clock = 0;
  r.status = GE_OK, r.task = UINT32_MAX, r.aborted = 0;
  for (t = 0; t < p->num_tasks && !r.status; t++) {
    if (__atomic_load_n(&p->abort, __ATOMIC_RELAXED)) {
      r.status = GE_ERR_INTERNAL, r.task = t, r.aborted = 1;
      break;
    }
    if (p->times) p->threads[t] = 0, p->times[2 * (size_t)t] = ge_runtime_now_ns();
    if (p->stamps) p->stamps[2 * (size_t)t] = ++clock;
    if ((r.status = p->tasks[t].fn(&p->tasks[t].ctx)) != GE_OK) r.task = t;
    if (p->stamps) p->stamps[2 * (size_t)t + 1] = ++clock;
    if (p->times) p->times[2 * (size_t)t + 1] = ge_runtime_now_ns();
  }
  return r;
}

/* Every executor but the plain flat loop. */
static ge_status ge__x_dispatch(ge_program *p) {
  ge_runtime_result r;
  if (p->stamps) memset(p->stamps, 0, (size_t)p->num_ids * 2 * sizeof *p->stamps);
  if (p->times) memset(p->times, 0, (size_t)p->num_ids * 2 * sizeof *p->times);
  switch (p->executor) {
  case GE_EXECUTOR_STREAMS: r = ge_runtime_streams_launch(p->rs, p->desc.launch, p->stamps, p->desc.shuffle); break;
  case GE_EXECUTOR_SEQUENTIAL: r = ge__x_run_stamped(p); break;
  default: r = ge_runtime_dag_run(p->dag, p->stamps); break;
  }
  if (r.status) {
    /* the task that ran last: where a single-thread run stopped */
    if (r.aborted && p->executor == GE_EXECUTOR_SEQUENTIAL) p->stop_task = r.task ? r.task - 1 : r.task;
    else if (r.aborted && p->dag) p->stop_task = ge_runtime_dag_running(p->dag);
    else p->stop_task = r.task;
    return ge__x_failure(p, r);
  }
  return p->stamps ? ge__x_check_stamps(p) : GE_OK;
}

/* ---- timeouts: a watchdog thread per program with timeout_ms */

typedef struct ge__x_watchdog {
  ge_program *p;
  pthread_t thread;
  pthread_mutex_t lock;
  pthread_cond_t wake;
  uint64_t start;  /* ns: the run in progress began */
  int active;      /* a run is in progress */
  int fired;       /* and has been aborted */
  int idle;        /* the watchdog sleeps without a deadline: a run start wakes it */
  int quit;
} ge__x_watchdog;

/* Sleeps on the condition until ns from now at most (realtime deadline:
 * strict C99 declares no monotonic condition clock; a clock step only
 * moves one wake). */
static void ge__x_wait_ns(ge__x_watchdog *w, uint64_t ns) {
  struct timeval now;
  struct timespec until;
  uint64_t usec;
  gettimeofday(&now, NULL);
  usec = (uint64_t)now.tv_usec + ns / 1000 + 1;
  until.tv_sec = now.tv_sec + (time_t)(usec / 1000000);
  until.tv_nsec = (long)(usec % 1000000) * 1000;
  pthread_cond_timedwait(&w->wake, &w->lock, &until);
}

/* The task running now, for the error (UINT32_MAX: unknown, the flat
 * loop: then where the run stopped tells). */
static uint32_t ge__x_running(ge_program *p) {
  if (p->rs) return ge_runtime_streams_running(p->rs);
  if (p->dag) return ge_runtime_dag_running(p->dag);
  return UINT32_MAX;
}

/* Wakes at each run's deadline; with no run for a few periods it sleeps
 * until a run start wakes it, so an idle program costs nothing. */
static void *ge__x_watchdog_main(void *arg) {
  ge__x_watchdog *w = (ge__x_watchdog *)arg;
  ge_program *p = w->p;
  uint64_t limit = (uint64_t)p->desc.timeout_ms * 1000000u;
  int idle_wakes = 0;
  pthread_mutex_lock(&w->lock);
  while (!w->quit) {
    if (w->active && !w->fired) {
      uint64_t now = ge_runtime_now_ns();
      idle_wakes = 0;
      if (now - w->start >= limit) {
        w->fired = 1;
        __atomic_store_n(&p->timeout_task, ge__x_running(p), __ATOMIC_RELAXED);
        __atomic_store_n(&p->timed_out, 1, __ATOMIC_SEQ_CST);
        ge_program_abort(p);
      } else
        ge__x_wait_ns(w, w->start + limit - now);
    } else if (idle_wakes < 4) {
      idle_wakes++;
      ge__x_wait_ns(w, limit);
    } else {
      w->idle = 1;
      pthread_cond_wait(&w->wake, &w->lock);
      w->idle = 0;
      idle_wakes = 0;
    }
  }
  pthread_mutex_unlock(&w->lock);
  return NULL;
}

static ge_status ge__x_watchdog_start(ge_program *p, ge_error *err) {
  ge__x_watchdog *w = (ge__x_watchdog *)ge__x_alloc(&p->a, sizeof *w);
  if (!w) return ge_error_set(err, GE_ERR_NOMEM, "out of memory");
  memset(w, 0, sizeof *w);
  w->p = p;
  if (pthread_mutex_init(&w->lock, NULL)) {
    ge__x_free(&p->a, w, sizeof *w);
    return ge_error_set(err, GE_ERR_INTERNAL, "timeout: pthread_mutex_init failed");
  }
  if (pthread_cond_init(&w->wake, NULL)) {
    pthread_mutex_destroy(&w->lock);
    ge__x_free(&p->a, w, sizeof *w);
    return ge_error_set(err, GE_ERR_INTERNAL, "timeout: pthread_cond_init failed");
  }
  if (pthread_create(&w->thread, NULL, ge__x_watchdog_main, w)) {
    pthread_cond_destroy(&w->wake);
    pthread_mutex_destroy(&w->lock);
    ge__x_free(&p->a, w, sizeof *w);
    return ge_error_set(err, GE_ERR_INTERNAL, "timeout: cannot start the watchdog thread");
  }
  p->wd = w;
  return GE_OK;
}

static void ge__x_watchdog_stop(ge_program *p) {
  ge__x_watchdog *w = p->wd;
  if (!w) return;
  pthread_mutex_lock(&w->lock);
  w->quit = 1;
  pthread_cond_signal(&w->wake);
  pthread_mutex_unlock(&w->lock);
  pthread_join(w->thread, NULL);
  pthread_cond_destroy(&w->wake);
  pthread_mutex_destroy(&w->lock);
  ge__x_free(&p->a, w, sizeof *w);
  p->wd = NULL;
}

static void ge__x_watch_begin(ge_program *p) {
  ge__x_watchdog *w = p->wd;
  __atomic_store_n(&p->timed_out, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&p->timeout_task, UINT32_MAX, __ATOMIC_RELAXED);
  pthread_mutex_lock(&w->lock);
  w->start = ge_runtime_now_ns();
  w->active = 1, w->fired = 0;
  if (w->idle) pthread_cond_signal(&w->wake);
  pthread_mutex_unlock(&w->lock);
}

/* After it, the watchdog can no longer abort this run. */
static void ge__x_watch_end(ge_program *p) {
  pthread_mutex_lock(&p->wd->lock);
  p->wd->active = 0;
  pthread_mutex_unlock(&p->wd->lock);
}

/* Rewrites a timed-out run's error: which node was running. */
static void ge__x_timeout_error(ge_program *p) {
  uint32_t t = __atomic_load_n(&p->timeout_task, __ATOMIC_RELAXED);
  const ge_node *x;
  char inner[sizeof p->run_err.message];
  if (t == UINT32_MAX) t = p->stop_task;
  x = t < p->num_tasks ? p->tasks[t].ctx.node
      : p->id_node && t < p->num_ids && p->id_node[t] != GE_NONE ? ge_graph_node(p->graph, p->id_node[t]) : NULL;
  memcpy(inner, p->run_err.message, sizeof inner);
  inner[sizeof inner - 1] = 0;
  if (x)
    ge_error_set(&p->run_err, GE_ERR_INTERNAL, "run timed out after %u ms: node '%s' (%s) was running (%s)",
                 (unsigned)p->desc.timeout_ms, x->name, x->op, inner);
  else
    ge_error_set(&p->run_err, GE_ERR_INTERNAL, "run timed out after %u ms (%s)", (unsigned)p->desc.timeout_ms, inner);
}

/* ---- profile */

static ge_status ge__x_setup_profile(ge_program *p, ge_error *err) {
  size_t n = (size_t)p->num_ids + 1;
  p->times = (uint64_t *)ge__x_alloc(&p->a, n * 2 * sizeof *p->times);
  p->threads = (uint32_t *)ge__x_alloc(&p->a, n * sizeof *p->threads);
  p->prof_sum = (uint64_t *)ge__x_alloc(&p->a, n * sizeof *p->prof_sum);
  if (!p->times || !p->threads || !p->prof_sum) return ge_error_set(err, GE_ERR_NOMEM, "out of memory");
  memset(p->times, 0, n * 2 * sizeof *p->times);
  memset(p->threads, 0, n * sizeof *p->threads);
  memset(p->prof_sum, 0, n * sizeof *p->prof_sum);
  if (p->rs) ge_runtime_streams_profile(p->rs, p->times, p->threads);
  if (p->dag) ge_runtime_dag_profile(p->dag, p->times, p->threads);
  return GE_OK;
}

/* Adds a finished run's task times to the sums. */
static void ge__x_profile_add(ge_program *p) {
  uint32_t i;
  for (i = 0; i < p->num_ids; i++)
    if (p->times[2 * (size_t)i + 1] > p->times[2 * (size_t)i]) p->prof_sum[i] += p->times[2 * (size_t)i + 1] - p->times[2 * (size_t)i];
  p->prof_total += p->run_t1 - p->run_t0;
  p->prof_runs++;
}

static void ge__x_profile_reset_subs(const ge_program *p, void *arg);
GE_API void ge_program_profile_reset(ge_program *p) {
  if (!p->prof_sum) return;
  ge__x_profile_reset_subs(p, NULL);
  p->prof_runs = p->prof_total = 0;
}

/* The lane of id: its stream (stream executor) or its thread. */
static uint32_t ge__x_lane(const ge_program *p, uint32_t id) {
  return p->id_stream ? p->id_stream[id] : p->threads[id];
}

/* The id that runs node x (a task, or a synchronisation entry), or UINT32_MAX. */
static uint32_t ge__x_id_of(const ge_program *p, ge_node_id x) {
  uint32_t i;
  if (p->task_of_node[x] != UINT32_MAX) return p->task_of_node[x];
  for (i = p->num_tasks; p->id_node && i < p->num_ids; i++)
    if (p->id_node[i] == x) return i;
  return UINT32_MAX;
}

/* The lowered subprograms of node x (If/Loop bodies, a PartitionedCall's
 * graph): calls fn for each. */
static ge_program *ge__x_subprogram(ge_program *p, const ge_graph *sub, ge_error *err);
static void ge__x_each_sub(const ge_program *p, const ge_node *x, void (*fn)(const ge_program *sp, void *arg), void *arg) {
  uint32_t k;
  int32_t j;
  for (k = 0; k < x->num_attrs; k++) {
    const ge_attr *a = &x->attrs[k];
    ge_program *sp;
    if (a->type == GE_ATTR_GRAPH && (sp = ge__x_subprogram((ge_program *)p, a->v.g, NULL)) != NULL) fn(sp, arg);
    for (j = 0; a->type == GE_ATTR_GRAPHS && j < a->count; j++)
      if ((sp = ge__x_subprogram((ge_program *)p, a->v.graphs[j], NULL)) != NULL) fn(sp, arg);
  }
}

typedef struct ge__x_trace_ctx {
  FILE *f;
  const ge_program *root;
  const char *const *engine_names;
  uint32_t num_engine_names;
  uint32_t lane;     /* nested: the lane of the node running them */
  uint64_t lo, hi;   /* nested: that node's run (older times are stale) */
  int nested;
} ge__x_trace_ctx;

static void ge__x_trace_tasks(const ge_program *p, void *arg) {
  ge__x_trace_ctx *c = (ge__x_trace_ctx *)arg, inner;
  FILE *f = c->f;
  uint32_t i;
  for (i = 0; i < p->num_tasks; i++) {
    const ge_node *x = p->tasks[i].ctx.node;
    uint64_t b = p->times[2 * (size_t)i], e = p->times[2 * (size_t)i + 1];
    uint32_t lane = c->nested ? c->lane : ge__x_lane(p, i);
    if (!e || (c->nested && (b < c->lo || e > c->hi))) continue; /* did not run (in this run) */
    fprintf(f, ",\n{\"name\":");
    ge_json_write_string(f, x->name);
    fprintf(f, ",\"cat\":");
    ge_json_write_string(f, x->op);
    fprintf(f, ",\"ph\":\"X\",\"ts\":%.3f,\"dur\":%.3f,\"pid\":1,\"tid\":%u,\"args\":{\"op\":",
            (double)(b - c->root->run_t0) / 1e3, (double)(e - b) / 1e3, lane);
    ge_json_write_string(f, x->op);
    fprintf(f, ",\"engine\":");
    if (x->engine >= 0 && (uint32_t)x->engine < c->num_engine_names && c->engine_names[x->engine])
      ge_json_write_string(f, c->engine_names[x->engine]);
    else fprintf(f, "%d", (int)x->engine);
    fprintf(f, ",\"thread\":%u,\"task\":%u%s}}", c->nested ? c->lane : p->threads[i], i, c->nested ? ",\"nested\":1" : "");
    inner = *c;
    inner.nested = 1, inner.lane = lane, inner.lo = b, inner.hi = e;
    ge__x_each_sub(p, x, ge__x_trace_tasks, &inner);
  }
}

GE_API ge_status ge_program_write_trace(const ge_program *p, FILE *f, const char *const *engine_names,
                                        uint32_t num_engine_names, ge_error *err) {
  uint32_t i, lanes = 0;
  ge__x_trace_ctx c;
  if (!p || !f || !p->times)
    return ge_error_set(err, GE_ERR_INVALID, "ge_program_write_trace: no program, file or profile (ge_exec_desc.profile)");
  if (!p->run_t1) return ge_error_set(err, GE_ERR_INVALID, "ge_program_write_trace: the program has not run");
  fprintf(f, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
  fprintf(f, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,\"args\":{\"name\":");
  ge_json_write_string(f, ge_graph_name(p->graph));
  fprintf(f, "}}");
  for (i = 0; i < p->num_ids; i++)
    if (p->times[2 * (size_t)i + 1] && ge__x_lane(p, i) != UINT32_MAX && ge__x_lane(p, i) + 1 > lanes) lanes = ge__x_lane(p, i) + 1;
  for (i = 0; i < lanes; i++) {
    if (p->id_stream) fprintf(f, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":%u,\"args\":{\"name\":\"stream %u\"}}", i, i);
    else if (i == 0) fprintf(f, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,\"args\":{\"name\":\"caller thread\"}}");
    else fprintf(f, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":%u,\"args\":{\"name\":\"worker %u\"}}", i, i);
  }
  memset(&c, 0, sizeof c);
  c.f = f, c.root = p, c.engine_names = engine_names, c.num_engine_names = num_engine_names;
  ge__x_trace_tasks(p, &c);
  if (p->desc.streams && p->id_stream) { /* flows: each event's record -> its wait */
    const ge_stream_plan *sp = p->desc.streams;
    uint32_t k, nev = sp->num_events, s2;
    for (s2 = 0; s2 < sp->num_streams; s2++) nev += sp->streams[s2].activated_by != GE_NONE && sp->streams[s2].num_nodes;
    for (k = 0; k < nev; k++) {
      ge_node_id send, recv;
      uint32_t a, b;
      ge__x_event_ends(sp, k, &send, &recv);
      if (send == GE_NONE || recv == GE_NONE) continue;
      a = ge__x_id_of(p, send), b = ge__x_id_of(p, recv);
      if (a == UINT32_MAX || b == UINT32_MAX || !p->times[2 * (size_t)a + 1] || !p->times[2 * (size_t)b]) continue;
      fprintf(f, ",\n{\"name\":\"event %u\",\"cat\":\"event\",\"ph\":\"s\",\"id\":%u,\"ts\":%.3f,\"pid\":1,\"tid\":%u}", k, k,
              (double)(p->times[2 * (size_t)a + 1] - p->run_t0) / 1e3, ge__x_lane(p, a));
      fprintf(f, ",\n{\"name\":\"event %u\",\"cat\":\"event\",\"ph\":\"f\",\"bp\":\"e\",\"id\":%u,\"ts\":%.3f,\"pid\":1,\"tid\":%u}", k, k,
              (double)(p->times[2 * (size_t)b] - p->run_t0) / 1e3, ge__x_lane(p, b));
    }
  }
  fprintf(f, "\n]}\n");
  if (ferror(f)) return ge_error_set(err, GE_ERR_IO, "ge_program_write_trace: write failed");
  return GE_OK;
}

/* The per-op table: rows of (op, tasks, self time), nested tasks included;
 * a node running subgraphs counts only its own time (not theirs). */
typedef struct ge__x_op_row {
  const char *op;
  uint64_t count, ns;
} ge__x_op_row;

typedef struct ge__x_op_table {
  ge__x_op_row *rows;
  uint32_t n, cap;
  uint64_t sub_ns; /* summed by ge__x_sub_sum */
} ge__x_op_table;

static void ge__x_count_tasks(const ge_program *p, void *arg) {
  uint32_t i;
  *(uint32_t *)arg += p->num_tasks;
  for (i = 0; i < p->num_tasks; i++) ge__x_each_sub(p, p->tasks[i].ctx.node, ge__x_count_tasks, arg);
}

static void ge__x_sub_sum(const ge_program *p, void *arg) {
  uint32_t i;
  for (i = 0; i < p->num_tasks; i++) ((ge__x_op_table *)arg)->sub_ns += p->prof_sum[i];
}

static void ge__x_op_rows(const ge_program *p, void *arg) {
  ge__x_op_table *t = (ge__x_op_table *)arg;
  uint32_t i, j;
  for (i = 0; i < p->num_tasks; i++) {
    const ge_node *x = p->tasks[i].ctx.node;
    uint64_t self;
    t->sub_ns = 0;
    ge__x_each_sub(p, x, ge__x_sub_sum, t);
    self = p->prof_sum[i] > t->sub_ns ? p->prof_sum[i] - t->sub_ns : 0;
    for (j = 0; j < t->n && strcmp(t->rows[j].op, x->op); j++) {}
    if (j == t->n) {
      if (t->n == t->cap) continue; /* cannot happen: cap counts every task */
      t->rows[t->n].op = x->op, t->rows[t->n].count = 0, t->rows[t->n++].ns = 0;
    }
    t->rows[j].count++, t->rows[j].ns += self;
    ge__x_each_sub(p, x, ge__x_op_rows, t);
  }
}

static void ge__x_profile_reset_subs(const ge_program *p, void *arg) {
  uint32_t i;
  (void)arg;
  memset(p->prof_sum, 0, ((size_t)p->num_ids + 1) * sizeof *p->prof_sum);
  for (i = 0; i < p->num_tasks; i++) ge__x_each_sub(p, p->tasks[i].ctx.node, ge__x_profile_reset_subs, NULL);
}

GE_API ge_status ge_program_write_profile(const ge_program *p, FILE *f, ge_error *err) {
  ge__x_op_table t;
  uint32_t j, all_tasks = 0;
  uint64_t all = 0;
  double runs, total;
  if (!p || !f || !p->prof_sum)
    return ge_error_set(err, GE_ERR_INVALID, "ge_program_write_profile: no program, file or profile (ge_exec_desc.profile)");
  if (!p->prof_runs) return ge_error_set(err, GE_ERR_INVALID, "ge_program_write_profile: no run since the reset");
  memset(&t, 0, sizeof t);
  ge__x_count_tasks(p, &t.cap);
  if (!(t.rows = (ge__x_op_row *)ge__x_alloc(&p->a, ((size_t)t.cap + 1) * sizeof *t.rows)))
    return ge_error_set(err, GE_ERR_NOMEM, "out of memory");
  ge__x_op_rows(p, &t);
  runs = (double)p->prof_runs, total = (double)p->prof_total;
  fprintf(f, "%-24s %8s %12s %9s %12s\n", "op", "count", "total ms", "% of run", "mean us");
  for (j = 0; j < t.n; j++) {
    all += t.rows[j].ns, all_tasks += (uint32_t)t.rows[j].count;
    fprintf(f, "%-24s %8llu %12.3f %8.1f%% %12.3f\n", t.rows[j].op, (unsigned long long)t.rows[j].count,
            (double)t.rows[j].ns / 1e6, total > 0 ? 100.0 * (double)t.rows[j].ns / total : 0.0,
            (double)t.rows[j].ns / 1e3 / (runs * (double)t.rows[j].count));
  }
  fprintf(f, "%-24s %8u %12.3f %8.1f%%   (%llu runs, %.3f ms each; the rest is the executor's)\n", "all tasks",
          (unsigned)all_tasks, (double)all / 1e6, total > 0 ? 100.0 * (double)all / total : 0.0,
          (unsigned long long)p->prof_runs, total / 1e6 / runs);
  ge__x_free(&p->a, t.rows, ((size_t)t.cap + 1) * sizeof *t.rows);
  return GE_OK;
}

GE_API ge_status ge_program_create(ge_graph *g, const ge_exec_desc *desc, ge_program **out, ge_error *err) {
  ge_allocator a;
  ge_status st;
  *out = NULL;
  if (!desc || !desc->lookup) return ge_error_set(err, GE_ERR_INVALID, "ge_program_create: no kernel lookup given");
  a = desc->allocator.alloc && desc->allocator.free ? desc->allocator : *ge_graph_allocator(g);
  if ((st = ge_graph_infer_shapes(g, err))) return st;
  if ((st = ge__x_create(g, desc, &a, out, err))) return st;
  if ((st = ge__x_mark_fixed(*out, 1, err)) || (st = ge__x_prepare(*out, err)) || (st = ge__x_dyn_setup(*out, err)) || (st = ge__x_setup_executor(*out, err))) {
    ge_program_free(*out);
    *out = NULL;
  }
  return st;
}

/* ---------------------------------------------------------------- run */

/* Checks an input against its Data node's declared type. */
static ge_status ge__x_check_input(const ge_program *p, uint32_t i, const ge_value *v, ge_error *err) {
  const ge_node *d = ge_graph_node(p->graph, p->inputs[i]);
  const ge_tensor_desc *want = &d->outputs[0];
  char a[160], b[160];
  ge_shape got;
  int32_t k;
  int bad = 0;
  if (!v) return ge_error_set(err, GE_ERR_INVALID, "input '%s' (index %u) is missing", d->name, (unsigned)i);
  if (want->dtype != GE_DTYPE_UNDEFINED && v->dtype != want->dtype) bad = 1;
  if (want->shape.rank >= 0 && v->rank != want->shape.rank) bad = 1;
  for (k = 0; !bad && want->shape.rank >= 0 && k < v->rank; k++) {
    int64_t w = want->shape.dims[k];
    const ge_dim_info *r = want->shape.info ? &want->shape.info[k] : NULL;
    if (w >= 0 && v->dims[k] != w) bad = 1;
    if (r && (v->dims[k] < r->lo || (r->hi >= 0 && v->dims[k] > r->hi))) bad = 1;
  }
  if (v->rank < 0 || v->rank > GE_MAX_RANK || (v->numel && !v->data)) bad = 1;
  if (!bad) {
    size_t nb;
    int64_t ne;
    if (!ge_dims_nbytes_checked(v->dtype, v->dims, v->rank, &nb) || nb != v->nbytes ||
        !ge_dims_numel_checked(v->dims, v->rank, &ne) || ne != v->numel)
      return ge_error_set(err, GE_ERR_SHAPE, "input '%s': its dims, element count and byte size disagree (or overflow)", d->name);
    return GE_OK;
  }
  got.rank = v->rank >= 0 && v->rank <= GE_MAX_RANK ? v->rank : GE_RANK_UNKNOWN;
  got.dims = (int64_t *)v->dims;
  got.info = NULL;
  return ge_error_set(err, GE_ERR_SHAPE, "input '%s': expected %s%s, got %s%s", d->name, ge_dtype_name(want->dtype),
                    ge_shape_str(&want->shape, a, sizeof a), ge_dtype_name(v->dtype), ge_shape_str(&got, b, sizeof b));
}

/* Runs the tasks; a failure's message already names the node. The abort
 * flag is the outermost program's, so a Loop's body stops too. */
static ge_status ge__x_execute(ge_program *p) {
  ge_task *t = p->tasks, *end = p->tasks + p->num_tasks;
  const int *abort_flag = &ge__x_root(p)->abort;
  for (; t < end; t++) {
    ge_status st;
    if (__atomic_load_n(abort_flag, __ATOMIC_RELAXED)) {
      ge_error_set(&p->run_err, GE_ERR_INTERNAL, "run aborted at node '%s'", t->ctx.node->name);
      p->stop_task = t > p->tasks ? (uint32_t)(t - p->tasks) - 1 : 0; /* the one that ran last */
      return GE_ERR_INTERNAL;
    }
    st = t->fn(&t->ctx);
    if (st != GE_OK) {
      if (p->run_err.code == GE_OK)
        ge_error_set(&p->run_err, st, "node '%s' (%s) failed: %s", t->ctx.node->name, t->ctx.node->op, ge_status_name(st));
      p->stop_task = (uint32_t)(t - p->tasks);
      return st;
    }
  }
  return GE_OK;
}

/* ge__x_execute for a nested subgraph under profile: the last call's times
 * are kept (the trace shows them inside their node), every call's summed. */
static ge_status ge__x_execute_profiled(ge_program *p) {
  uint32_t t;
  const int *abort_flag = &ge__x_root(p)->abort;
  for (t = 0; t < p->num_tasks; t++) {
    ge_task *k = &p->tasks[t];
    uint64_t b;
    ge_status st;
    if (__atomic_load_n(abort_flag, __ATOMIC_RELAXED)) {
      ge_error_set(&p->run_err, GE_ERR_INTERNAL, "run aborted at node '%s'", k->ctx.node->name);
      return GE_ERR_INTERNAL;
    }
    b = ge_runtime_now_ns();
    st = k->fn(&k->ctx);
    p->times[2 * (size_t)t] = b, p->times[2 * (size_t)t + 1] = ge_runtime_now_ns();
    p->prof_sum[t] += p->times[2 * (size_t)t + 1] - b;
    if (st != GE_OK) {
      if (p->run_err.code == GE_OK)
        ge_error_set(&p->run_err, st, "node '%s' (%s) failed: %s", k->ctx.node->name, k->ctx.node->op, ge_status_name(st));
      return st;
    }
  }
  return GE_OK;
}

/* Binds input values to the Data slots (by value: data is not copied). */
static void ge__x_bind(ge_program *p, uint32_t i, const ge_value *v) {
  ge_value *slot = &p->slots[p->first_slot[p->inputs[i]]];
  *slot = *v;
  slot->capacity = 0; /* borrowed */
}

GE_API ge_status ge_program_run(ge_program *p, const ge_value *const *inputs, uint32_t n, ge_error *err) {
  uint32_t i;
  ge_status st;
  if (n != p->num_inputs)
    return ge_error_set(err, GE_ERR_INVALID, "graph '%s' takes %u inputs, %u given", ge_graph_name(p->graph),
                      (unsigned)p->num_inputs, (unsigned)n);
  for (i = 0; i < n; i++)
    if ((st = ge__x_check_input(p, i, inputs[i], err))) return st;
  for (i = 0; i < n; i++) ge__x_bind(p, i, inputs[i]);
  p->run_err.code = GE_OK;
  p->run_err.message[0] = 0;
  p->stop_task = UINT32_MAX;
  if (p->wd) ge__x_watch_begin(p);
  if (p->times) p->run_t0 = ge_runtime_now_ns();
  if (p->dyn) ge__x_dyn_begin(p);
  st = p->executor == GE_EXECUTOR_SEQUENTIAL && !p->stamps && !p->times ? ge__x_execute(p) : ge__x_dispatch(p);
  if (p->dyn) ge__x_dyn_end(p, st);
  if (p->times) {
    p->run_t1 = ge_runtime_now_ns();
    if (!st) ge__x_profile_add(p);
  }
  if (p->wd) {
    ge__x_watch_end(p); /* no abort can come from it after this */
    if (st && __atomic_load_n(&p->timed_out, __ATOMIC_SEQ_CST)) ge__x_timeout_error(p);
  }
  if (__atomic_load_n(&p->abort, __ATOMIC_SEQ_CST)) __atomic_store_n(&p->abort, 0, __ATOMIC_SEQ_CST);
  if (st && err) *err = p->run_err;
  return st;
}

GE_API void ge_program_abort(ge_program *p) {
  __atomic_store_n(&p->abort, 1, __ATOMIC_SEQ_CST);
  if (p->rt) ge_runtime_notify(p->rt); /* waiting threads recheck */
}

/* Runs a queued request on this thread; 0 when another thread has it. */
static int ge__x_request_work(ge_runtime_job *job) {
  ge_program_request *r = (ge_program_request *)job;
  int queued = 0;
  if (!__atomic_compare_exchange_n(&r->state, &queued, 1, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) return 0;
  r->status = ge_program_run(r->program, r->inputs, r->num_inputs, &r->err);
  if (r->done) r->done(r->user, r->program, r->status, &r->err);
  __atomic_store_n(&r->state, 2, __ATOMIC_SEQ_CST);
  if (r->program->rt) ge_runtime_notify(r->program->rt);
  return 1;
}

GE_API ge_status ge_program_run_async(ge_program *p, const ge_value *const *inputs, uint32_t n, ge_program_done_fn done,
                                      void *user, ge_program_request *req, ge_error *err) {
  if (!p || !req) return ge_error_set(err, GE_ERR_INVALID, "ge_program_run_async: no program or request");
  memset(req, 0, sizeof *req);
  req->job.work = ge__x_request_work;
  req->program = p, req->inputs = inputs, req->num_inputs = n, req->done = done, req->user = user;
  req->posted = p->rt && ge_runtime_num_threads(p->rt) > 1 && ge_runtime_post(p->rt, &req->job);
  return GE_OK;
}

GE_API int ge_program_poll(ge_program_request *req) { return __atomic_load_n(&req->state, __ATOMIC_SEQ_CST) == 2; }

/* ---- the resident run loop */

typedef struct ge__x_queued {
  const ge_value *const *inputs;
  uint32_t n;
} ge__x_queued;

struct ge_program_loop {
  ge_program *p;
  ge_program_done_fn done;
  void *user;
  pthread_t thread;
  pthread_mutex_t lock;
  pthread_cond_t changed;
  ge__x_queued *queue; /* ring of depth */
  uint32_t depth, head, count;
  int stopping;
  ge_error err;
};

static void *ge__x_loop_main(void *arg) {
  ge_program_loop *l = (ge_program_loop *)arg;
  for (;;) {
    ge__x_queued q;
    ge_status st;
    pthread_mutex_lock(&l->lock);
    while (!l->count && !l->stopping) pthread_cond_wait(&l->changed, &l->lock);
    if (!l->count) { /* stopping, queue drained */
      pthread_mutex_unlock(&l->lock);
      return NULL;
    }
    q = l->queue[l->head];
    pthread_mutex_unlock(&l->lock);
    st = ge_program_run(l->p, q.inputs, q.n, &l->err);
    if (l->done) l->done(l->user, l->p, st, &l->err);
    pthread_mutex_lock(&l->lock); /* the slot is free only after the callback */
    l->head = (l->head + 1) % l->depth;
    l->count--;
    pthread_cond_broadcast(&l->changed);
    pthread_mutex_unlock(&l->lock);
  }
}

GE_API ge_status ge_program_loop_start(ge_program *p, uint32_t depth, ge_program_done_fn done, void *user,
                                       ge_program_loop **out, ge_error *err) {
  ge_program_loop *l;
  *out = NULL;
  if (!p || !depth || depth > (1u << 20)) return ge_error_set(err, GE_ERR_INVALID, "ge_program_loop_start: bad program or depth");
  if (!(l = (ge_program_loop *)ge__x_alloc(&p->a, sizeof *l))) return ge_error_set(err, GE_ERR_NOMEM, "out of memory");
  memset(l, 0, sizeof *l);
  l->p = p, l->done = done, l->user = user, l->depth = depth;
  if (!(l->queue = (ge__x_queued *)ge__x_alloc(&p->a, (size_t)depth * sizeof *l->queue))) {
    ge__x_free(&p->a, l, sizeof *l);
    return ge_error_set(err, GE_ERR_NOMEM, "out of memory");
  }
  if (pthread_mutex_init(&l->lock, NULL) || pthread_cond_init(&l->changed, NULL) ||
      pthread_create(&l->thread, NULL, ge__x_loop_main, l)) {
    ge__x_free(&p->a, l->queue, (size_t)depth * sizeof *l->queue);
    ge__x_free(&p->a, l, sizeof *l);
    return ge_error_set(err, GE_ERR_INTERNAL, "ge_program_loop_start: cannot start the loop thread");
  }
  *out = l;
  return GE_OK;
}

GE_API ge_status ge_program_loop_push(ge_program_loop *l, const ge_value *const *inputs, uint32_t n, ge_error *err) {
  pthread_mutex_lock(&l->lock);
  while (l->count == l->depth && !l->stopping) pthread_cond_wait(&l->changed, &l->lock);
  if (l->stopping) {
    pthread_mutex_unlock(&l->lock);
    return ge_error_set(err, GE_ERR_INVALID, "ge_program_loop_push: the loop is stopping");
  }
  l->queue[(l->head + l->count) % l->depth].inputs = inputs;
  l->queue[(l->head + l->count) % l->depth].n = n;
  l->count++;
  pthread_cond_broadcast(&l->changed);
  pthread_mutex_unlock(&l->lock);
  return GE_OK;
}

GE_API void ge_program_loop_stop(ge_program_loop *l) {
  ge_allocator a;
  if (!l) return;
  pthread_mutex_lock(&l->lock);
  l->stopping = 1;
  pthread_cond_broadcast(&l->changed);
  pthread_mutex_unlock(&l->lock);
  pthread_join(l->thread, NULL);
  pthread_cond_destroy(&l->changed);
  pthread_mutex_destroy(&l->lock);
  a = l->p->a;
  ge__x_free(&a, l->queue, (size_t)l->depth * sizeof *l->queue);
  ge__x_free(&a, l, sizeof *l);
}

GE_API ge_status ge_program_wait(ge_program_request *req, ge_error *err) {
  ge_runtime *rt = req->program->rt;
  ge__x_request_work(&req->job); /* not taken yet: run it here */
  while (!ge_program_poll(req)) {
    unsigned stamp = ge_runtime_stamp(rt);
    if (ge_program_poll(req)) break;
    ge_runtime_wait(rt, stamp, 1);
  }
  if (req->posted) ge_runtime_withdraw(rt, &req->job);
  if (req->status && err) *err = req->err;
  return req->status;
}

/* The lowered program of a subgraph of p's graph (all are lowered with p). */
static ge_program *ge__x_subprogram(ge_program *p, const ge_graph *sub, ge_error *err) {
  uint32_t i;
  for (i = 0; i < p->num_subs; i++)
    if (p->subs[i].graph == sub) return p->subs[i].program;
  ge_error_set(err, GE_ERR_INTERNAL, "subgraph '%s' was not lowered", ge_graph_name(sub));
  return NULL;
}

/* Lowers sub (shapes inferred as far as its inputs are known) into p->subs. */
/* The value of the caller's input k when it is a Const of p's level (its
 * bytes bound at lowering), else NULL. */
static const ge_value *ge__x_caller_const(const ge_program *p, const ge_node *caller, int64_t k) {
  const ge_node *src;
  const ge_value *v;
  ge_edge e;
  if (k < 0 || k >= (int64_t)caller->num_inputs || (e = caller->inputs[k]).node == GE_NONE) return NULL;
  src = ge_graph_node(p->graph, e.node);
  if (!src || !ge__x_is(src, "Const")) return NULL;
  v = &p->slots[p->first_slot[e.node] + (uint32_t)e.index];
  return v->data ? v : NULL;
}

/* A body's Data reading a Const of the caller's level — a call body's
 * formal input i is the caller's input i, a capture its parent_index — is
 * bound to it at load: every run binds the same bytes again, so its
 * readers have fixed shapes and weights and are prepared at load too. */
static void ge__x_bind_consts(const ge_program *p, const ge_node *caller, ge_program *sp, int call_body) {
  const ge_value *v;
  uint32_t i;
  for (i = 0; call_body && i < sp->num_inputs; i++)
    if (sp->inputs[i] != GE_NONE && (v = ge__x_caller_const(p, caller, i)) != NULL)
      sp->slots[sp->first_slot[sp->inputs[i]]] = *v, sp->slots[sp->first_slot[sp->inputs[i]]].capacity = 0;
  for (i = 0; i < sp->num_captures; i++)
    if ((v = ge__x_caller_const(p, caller, sp->capture_parent[i])) != NULL)
      sp->slots[sp->capture_slot[i]] = *v, sp->slots[sp->capture_slot[i]].capacity = 0;
}

static ge_status ge__x_add_subprogram(ge_program *p, const ge_node *caller, ge_graph *sub, int call_body,
                                      ge_error *err) {
  ge__subprogram *grown;
  ge_program *sp;
  ge_status st;
  ge_exec_desc d = p->desc;
  /* the root's plan covers the root level only; a static subgraph may have one of its own */
  d.memory_size = d.subgraph_memory ? d.subgraph_memory(d.subgraph_memory_user, sub) : 0, d.memory_base = NULL;
  d.runtime = p->rt;                       /* one pool for the whole model */
  d.executor = GE_EXECUTOR_SEQUENTIAL, d.streams = NULL, d.check_order = 0;
  if ((st = ge_graph_infer_shapes(sub, err)) || (st = ge__x_create(sub, &d, &p->a, &sp, err))) return st;
  /* from now on sub's values count against the outermost program's ceiling */
  sp->root = p;
  sp->num_ids = sp->num_tasks;
  if (d.profile && (st = ge__x_setup_profile(sp, err))) {
    ge_program_free(sp);
    return st;
  }
  if (!ge__x_mem_take(p, sp->mem_used)) {
    ge_program_free(sp);
    return ge_error_set(err, GE_ERR_NOMEM, "subgraph '%s': its values pass the memory limit (ge_exec_desc.memory_limit)",
                        ge_graph_name(sub));
  }
  sp->mem_used = 0;
  sp->is_call_body = call_body;
  ge__x_bind_consts(p, caller, sp, call_body);
  if ((st = ge__x_mark_fixed(sp, 0, err)) || (st = ge__x_prepare(sp, err)) || (call_body && (st = ge__x_dyn_setup(sp, err)))) { /* a hybrid unit: shape plans when dynamic */
    ge_program_free(sp);
    return st;
  }
  grown = (ge__subprogram *)ge__x_alloc(&p->a, ((size_t)p->num_subs + 1) * sizeof *grown);
  if (!grown) {
    ge_program_free(sp);
    return ge_error_set(err, GE_ERR_NOMEM, "out of memory");
  }
  if (p->num_subs) memcpy(grown, p->subs, (size_t)p->num_subs * sizeof *grown);
  ge__x_free(&p->a, p->subs, (size_t)p->num_subs * sizeof *p->subs);
  p->subs = grown;
  p->subs[p->num_subs].graph = sub;
  p->subs[p->num_subs++].program = sp;
  return GE_OK;
}

static ge_status ge__x_lower_subgraphs(ge_program *p, ge_error *err) {
  ge_node *x;
  uint32_t k;
  int32_t j;
  ge_status st = GE_OK;
  GE_GRAPH_FOREACH(p->graph, x) {
    for (k = 0; k < x->num_attrs && !st; k++) {
      const ge_attr *a = &x->attrs[k];
      if (a->type == GE_ATTR_GRAPH) st = ge__x_add_subprogram(p, x, a->v.g, ge__x_is(x, "PartitionedCall"), err);
      for (j = 0; a->type == GE_ATTR_GRAPHS && j < a->count && !st; j++)
        st = ge__x_add_subprogram(p, x, a->v.graphs[j], 0, err);
    }
    if (st) return st;
  }
  return GE_OK;
}

static ge_status ge__x_run_graph(ge_kernel_ctx *c, const ge_graph *sub, ge_value *const *inputs, uint32_t n,
                                 ge_value **outputs, uint32_t n_out) {
  ge_program *p = (ge_program *)c->env->executor, *sp = ge__x_subprogram(p, sub, c->err);
  uint32_t i;
  ge_status st;
  if (!sp) return c->err->code ? c->err->code : GE_ERR_INTERNAL;
  /* formal inputs by index; outer-scope captures from the caller's inputs */
  for (i = 0; i < sp->num_inputs; i++) {
    const ge_node *d = ge_graph_node(sub, sp->inputs[i]);
    if (i >= n || !inputs[i])
      return ge_kernel_error(c, GE_ERR_INVALID, "subgraph '%s': input %u ('%s') not given", ge_graph_name(sub),
                             (unsigned)i, d ? d->name : "?");
    ge__x_bind(sp, i, inputs[i]);
  }
  for (i = 0; i < sp->num_captures; i++) {
    int64_t k = sp->capture_parent[i];
    ge_value *slot = &sp->slots[sp->capture_slot[i]];
    if (k < 0 || k >= (int64_t)c->num_inputs || !c->inputs[k]) {
      const ge_node *d = NULL, *x;
      GE_GRAPH_FOREACH(sub, x) if (sp->first_slot[x->id] == sp->capture_slot[i] && ge__x_is(x, "Data")) d = x;
      return ge_kernel_error(c, GE_ERR_INVALID, "subgraph '%s': Data '%s' reads missing outer value %lld",
                             ge_graph_name(sub), d ? d->name : "?", (long long)k);
    }
    *slot = *c->inputs[k];
    slot->capacity = 0;
  }
  if (n_out > sp->num_outputs)
    return ge_kernel_error(c, GE_ERR_INVALID, "subgraph '%s' returns %u values, %u expected", ge_graph_name(sub),
                           (unsigned)sp->num_outputs, (unsigned)n_out);
  sp->run_err.code = GE_OK;
  if (sp->dyn) ge__x_dyn_begin(sp);
  st = sp->times ? ge__x_execute_profiled(sp) : ge__x_execute(sp);
  if (sp->dyn) ge__x_dyn_end(sp, st);
  if (st) {
    *c->err = sp->run_err;
    return st;
  }
  for (i = 0; i < n_out; i++) outputs[i] = sp->outputs[i];
  return GE_OK;
}

#ifdef __cplusplus
}
#endif
#endif /* GE_EXEC_IMPLEMENTATION_DONE */
#endif /* GE_EXEC_IMPLEMENTATION */

/* ge_stream.h — stream allocation: logical streams, the fewest sync events,
 * physical split, activation, summary.
 *
 * Part of ge. Include anywhere for the declarations; define
 * GE_STREAM_IMPLEMENTATION (or GE_IMPLEMENTATION) in one translation unit.
 * Needs only ge_graph.h: engines are read from the plain ge_engine
 * descriptors the caller passes (node->engine indexes them), so a user who
 * vendors this header alone fills node->engine by hand.
 *
 * A stream is an in-order queue; tasks on different streams run in
 * parallel unless an event orders them (seed 002). ge_stream_allocate:
 *
 *   1. logical streams. Static graphs run the pass chain of seed 002
 *      §4.1.1 (MDE group, stream labels, independent engines, dependency
 *      with reuse, node update, parallel groups, AllReduce parallelism,
 *      skipped engines, ineffective multi-stream) then attached streams;
 *      dynamic graphs one stream, or one per engine when enabled (§4.2);
 *   2. events: every cross-stream dependency becomes a send/recv pair, then
 *      every event that stream order plus the other events already imply is
 *      dropped — the cross-stream edges of the transitive reduction of
 *      (dependencies + stream order + activations), the fewest events for
 *      the assignment among event sets that order nothing the dependencies
 *      do not (an event adding order could sometimes stand for two); ids
 *      continuous from 0, reused across multi-dims batch labels;
 *   3. physical split of streams over a task limit, with an event chaining
 *      the pieces and activation lists updated.
 *
 * The graph is not modified while allocating (§5.3) except node->stream;
 * ge_stream_generate_nodes() inserts Send/Recv/StreamActive nodes at the end
 * if the caller wants them in the graph.
 *
 * Thread safety: ge_stream_allocate is reentrant; a plan is read-only
 * after allocation and may be shared.
 */
#ifndef GE_STREAM_H
#define GE_STREAM_H

#include "ge_graph.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Node attributes read by the allocator (GE's names where GE has one). */
#define GE_STREAM_ATTR_LABEL "_stream_label"                  /* string: same label, same stream */
#define GE_STREAM_ATTR_USER_LABEL "_user_stream_label"        /* string: highest priority label */
#define GE_STREAM_ATTR_NEW_STREAM_ID "_new_stream_id"         /* int: MDE group, a stream of its own per id */
#define GE_STREAM_ATTR_PARALLEL_GROUP "_parallel_group"       /* string: a new stream per group */
#define GE_STREAM_ATTR_ATTACHED_REUSE_KEY "_attached_stream_key" /* string: one attached stream per key */
#define GE_STREAM_ATTR_CONTINUOUS_LABEL "_continuous_stream_label" /* string: kept on one physical stream */
#define GE_STREAM_ATTR_BATCH_LABEL "_batch_label"             /* string: multi-dims branch (event reuse) */
#define GE_STREAM_ATTR_RTS_LABEL_NODE "_rts_label_node"       /* int: runs on its parent's stream */

typedef enum ge_stream_event_mode {
  GE_STREAM_EVENTS_MINIMAL = 0, /* transitive reduction (default) */
  GE_STREAM_EVENTS_GE_PASSES,   /* GE's send-side and receive-side passes only (§4.3.3) */
  GE_STREAM_EVENTS_ALL          /* one per cross-stream dependency */
} ge_stream_event_mode;

typedef struct ge_stream_desc {
  ge_allocator allocator;         /* zero: the graph's */
  const ge_engine *const *engines; /* node->engine indexes it; NULL or out of range: a plain engine */
  uint32_t num_engines;
  const ge_node_id *order;        /* execution order, every node once; NULL: topological sort */
  int dynamic;                    /* 0: decide from the graph (dynamic shapes), 1 dynamic, -1 static */
  int single_stream;              /* ge.enableSingleStream: every node on stream 0 */
  int engine_parallel;            /* dynamic: streams by engine (ge.exec.enableEngineParallel) */
  int ac_parallel;                /* dynamic: AI CPU beside AI Core (ac_parallel_enable=1) */
  int hcom_parallel;              /* static: AllReduce successors on new streams (ge.exec.hcomParallel) */
  int notify;                     /* EVENT=notify: Notify instead of Event (at most 1024) */
  uint32_t max_parallel;          /* streams per engine from dependency assignment; 0: 8 */
  uint32_t task_limit;            /* tasks per physical stream; 0: unlimited (no split) */
  uint32_t reserved_tasks;        /* kept free on each piece of a split stream for its chaining events; at least 2 */
  uint32_t huge_task_limit;       /* single stream over task_limit uses a huge stream up to this; 0: none */
  ge_stream_event_mode events;
  ge_logger logger;               /* INFO: the streams and events decided; DEBUG: each node's stream */
} ge_stream_desc;

/* Sets a desc field by its GE key (ge.enableSingleStream,
 * ge.exec.enableEngineParallel, ac_parallel_enable, ge.exec.hcomParallel,
 * ge.event, ge.streamMaxParallelNum, ge.streamTaskLimit). GE_ERR_NOT_FOUND
 * for a key it does not know; a bad value is GE_ERR_INVALID. */
GE_API ge_status ge_stream_set_option(ge_stream_desc *d, const char *key, const char *value, ge_error *err);

/* An event: send_node records it after running, recv_node waits before. */
typedef struct ge_stream_event {
  uint32_t id;          /* continuous from 0; events of different batch labels may share an id */
  ge_node_id send_node, recv_node;
  int32_t send_stream, recv_stream; /* physical streams */
} ge_stream_event;

/* One physical stream. */
typedef struct ge_stream_info {
  int32_t logical;          /* the logical stream it was split from */
  const char *label;        /* its stream label (user label first), or NULL */
  ge_node_id *nodes;        /* in execution order */
  uint32_t num_nodes;
  uint32_t num_tasks;       /* nodes + event records + event waits */
  ge_node_id activated_by;  /* the StreamActive node activating it, or GE_NONE (active at launch) */
  uint8_t attached;         /* an attached stream (after the main ones) */
  uint8_t hccl;             /* follows an independent engine (HCCL) */
  uint8_t huge;             /* a huge stream (single-stream mode over the task limit) */
} ge_stream_info;

typedef struct ge_stream_plan {
  uint32_t num_logical;       /* logical streams, attached ones included */
  uint32_t num_streams;       /* physical streams */
  ge_stream_info *streams;
  uint32_t num_attached;      /* attached streams (the last logical ids) */
  int32_t *attached_stream;   /* per node id: its attached logical stream or -1 (NULL: none) */
  ge_stream_event *events;    /* sorted by (send position, recv position) */
  uint32_t num_events;
  uint32_t num_event_ids;     /* distinct ids after multi-dims reuse */
  /* figures of the event optimisation, for the same assignment */
  uint32_t events_all;        /* one per cross-stream dependency */
  uint32_t events_ge_passes;  /* after GE's send- and receive-side passes */
  int dynamic, single_stream, notify;
  uint32_t id_bound;          /* ge_graph_id_bound when allocated */
  int32_t *node_stream;       /* per node id: its physical stream (-1: not a node then) */
  uint32_t *position;         /* per node id: index in its stream's nodes */
  uint32_t *clock;            /* private: happens-before clocks */
  size_t clock_bytes;
  ge_allocator allocator;
} ge_stream_plan;

/* Assigns node->stream (physical) for every node of g's root level and
 * fills plan. With a task limit, a physical stream exceeds it only when one
 * node's own tasks (itself, its event records and waits) do, or when nodes
 * that may not start a piece (subgraph holders, label ops) follow it; a
 * continuous label whose span cannot fit is an error. A stream label in single-stream mode, a cycle, an order that
 * is not topological and bad options are errors. */
GE_API ge_status ge_stream_allocate(ge_graph *g, const ge_stream_desc *desc, ge_stream_plan *plan, ge_error *err);
GE_API void ge_stream_plan_free(ge_stream_plan *plan);

/* 1 when a completes before b starts under the plan (same stream and
 * earlier, or a chain of events), else 0. O(1). */
GE_API int ge_stream_happens_before(const ge_stream_plan *plan, ge_node_id a, ge_node_id b);
/* The same as a callback on an untyped plan: what ge_mem_graph_desc's
 * happens_before takes (order_user = the plan). */
GE_API int ge_stream_order(void *plan, ge_node_id a, ge_node_id b);

/* Inserts the plan's Send/Recv nodes (control edges around their nodes,
 * attribute event_id) and StreamActive nodes for activated streams. Call
 * once, after allocation; plan node ids stay valid (new nodes are added). */
GE_API ge_status ge_stream_generate_nodes(ge_graph *g, const ge_stream_plan *plan, ge_error *err);

#ifdef __cplusplus
}
#endif
#endif /* GE_STREAM_H */

/* ===================================================================== */
#if defined(GE_IMPLEMENTATION) || defined(GE_STREAM_IMPLEMENTATION)
#ifndef GE_STREAM_IMPLEMENTATION_DONE
#define GE_STREAM_IMPLEMENTATION_DONE

#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------- options */

static ge_status ge__st_flag(const char *key, const char *v, int *out, ge_error *err) {
  if (!strcmp(v, "1") || !strcmp(v, "true") || !strcmp(v, "True")) *out = 1;
  else if (!strcmp(v, "0") || !strcmp(v, "false") || !strcmp(v, "False")) *out = 0;
  else return ge_error_set(err, GE_ERR_INVALID, "option %s: '%s' is not 0/1/true/false", key, v);
  return GE_OK;
}

static ge_status ge__st_count(const char *key, const char *v, uint32_t *out, ge_error *err) {
  char *end;
  unsigned long x = strtoul(v, &end, 10);
  if (!*v || *end || *v == '-' || x > 0x7fffffffUL)
    return ge_error_set(err, GE_ERR_INVALID, "option %s: '%s' is not a count", key, v);
  if (x == 0) return ge_error_set(err, GE_ERR_INVALID, "option %s: '%s' must be at least 1", key, v);
  *out = (uint32_t)x;
  return GE_OK;
}

GE_API ge_status ge_stream_set_option(ge_stream_desc *d, const char *key, const char *value, ge_error *err) {
  if (!strcmp(key, "ge.enableSingleStream")) return ge__st_flag(key, value, &d->single_stream, err);
  if (!strcmp(key, "ge.exec.enableEngineParallel")) return ge__st_flag(key, value, &d->engine_parallel, err);
  if (!strcmp(key, "ge.exec.hcomParallel")) return ge__st_flag(key, value, &d->hcom_parallel, err);
  if (!strcmp(key, "ac_parallel_enable")) {
    if (!*value) return d->ac_parallel = 0, GE_OK;
    return ge__st_flag(key, value, &d->ac_parallel, err);
  }
  if (!strcmp(key, "ge.event")) {
    if (!strcmp(value, "notify")) d->notify = 1;
    else if (!strcmp(value, "event")) d->notify = 0;
    else return ge_error_set(err, GE_ERR_INVALID, "option ge.event: '%s' is not event or notify", value);
    return GE_OK;
  }
  if (!strcmp(key, "ge.streamMaxParallelNum")) return ge__st_count(key, value, &d->max_parallel, err);
  if (!strcmp(key, "ge.streamTaskLimit")) return ge__st_count(key, value, &d->task_limit, err);
  return ge_error_set(err, GE_ERR_NOT_FOUND, "unknown stream option '%s'", key);
}

/* ---------------------------------------------------------------- state */

enum { /* why a logical stream exists: which streams dependency assignment may reuse */
  GE__ST_DEPENDENCY = 0, GE__ST_LABEL, GE__ST_INDEPENDENT, GE__ST_MDE, GE__ST_GROUP, GE__ST_MOVED, GE__ST_MAIN
};

#define GE__ST_NO_STEP UINT32_MAX

typedef struct ge__st_stream {
  int32_t engine;        /* the engine it was made for (-1 none) */
  const char *label;
  uint8_t kind, hccl, attached, huge;
  uint32_t tail;         /* step of the last node given to it so far (dependency pass), or GE__ST_NO_STEP */
  int32_t older, newer;  /* dependency pass: its neighbours in its engine slot's list (ge__st_idle) */
  uint32_t first_step;   /* step of its first node (GE__ST_NO_STEP: empty) */
  ge_node_id activated_by;
  int32_t logical;       /* physical streams: the logical stream */
} ge__st_stream;

/* What the passes need to know of a node, as bits: from its engine's
 * flags, its op and its attributes. */
enum {
  GE__ST_F_INDEPENDENT = 1 << 0,  /* an independent engine (HCCL) */
  GE__ST_F_ATTACH = 1 << 1,       /* an engine that may join other engines' streams */
  GE__ST_F_SKIPPED = 1 << 2,      /* an engine stream assignment skips (views, constants) */
  GE__ST_F_AICPU = 1 << 3,        /* an AI CPU engine (DNN_VM_AICPU...) */
  GE__ST_F_ALLREDUCE = 1 << 4,    /* op AllReduce */
  GE__ST_F_COLLECTIVE = 1 << 5,   /* op AllReduce, Broadcast, AllGather or ReduceScatter */
  GE__ST_F_MAIN_OP = 1 << 6,      /* op Data, Variable, NetOutput or FileConstant: the main stream when dynamic */
  GE__ST_F_UNSPLITTABLE = 1 << 7, /* a label op or a subgraph holder: no piece of a split stream starts there */
  GE__ST_F_RTS_LABEL = 1 << 8,    /* _rts_label_node set: runs on its parent's stream */
  GE__ST_F_MDE = 1 << 9,          /* an int _new_stream_id (the value is in its attributes record) */
  GE__ST_F_ONE_INPUT = 1 << 10    /* exactly one input, present: its first predecessor */
};

/* One step of the execution order: what the passes read of its node,
 * gathered in one visit (ge__st_gather). The passes walk these records and
 * per-step arrays in order: the nodes themselves lie scattered in memory
 * relative to the order, and their attributes are found by name. */
typedef struct ge__st_step {
  int32_t engine;    /* node->engine */
  uint32_t flags;    /* GE__ST_F_* */
  uint32_t attrs;    /* index of its stream attributes in ge__st.attrs; 0 (an empty record) when it has none */
  uint32_t num_data; /* its first num_data predecessors are data inputs, the others control inputs */
} ge__st_step;

/* The stream attributes of a node, kept for the few nodes that have any. */
typedef struct ge__st_attrs {
  const char *label;            /* the user stream label, else the stream label: non-empty or NULL */
  const char *group;            /* parallel group: non-empty or NULL */
  const char *attached_key;     /* attached stream reuse key (may be empty) or NULL */
  const char *continuous;       /* continuous stream label: non-empty or NULL */
  const char *batch;            /* multi-dims batch label: non-empty or NULL */
  const ge_attr *active_labels; /* a StreamActive node's _active_label_list (strings) or NULL */
  int64_t mde;                  /* _new_stream_id, with GE__ST_F_MDE */
} ge__st_attrs;

/* A string -> int map (labels), open addressing. */
typedef struct ge__st_map {
  const char **keys;
  int32_t *vals;
  uint32_t cap, count;
} ge__st_map;

/* The allocator's state. Nodes are known by their step (position in the
 * order) throughout; node ids come back only in the plan. Per-step arrays
 * hold n + 1 entries, per-edge arrays num_edges + 1. */
typedef struct ge__st {
  ge_graph *g;
  const ge_stream_desc *d;
  ge_allocator a;
  ge_error *err;
  uint32_t bound, n;
  ge_node_id *order;     /* step -> node id */
  uint32_t *step;        /* node id -> step (bound + 1 entries) */
  ge__st_step *steps;
  ge__st_attrs *attrs;   /* entry 0 is empty */
  uint32_t num_attrs, cap_attrs;
  /* The dependencies of step i: predecessor steps preds[pred_start[i] ..
   * pred_start[i + 1]), its data inputs (absent ones skipped) then its
   * control inputs, repeats kept; successor steps succs[succ_start[i] ..
   * succ_start[i + 1]), ascending, each the mirror of preds entry
   * succ_edge[k]. */
  uint32_t *pred_start, *preds, *succ_start, *succs, *succ_edge;
  uint32_t num_edges;
  int32_t *ls;           /* step -> stream (logical, later physical) */
  ge__st_stream *streams;
  uint32_t num_streams, cap_streams;
  uint32_t max_parallel;
  /* events as found on the current assignment: sending and receiving steps */
  uint32_t *ev_send, *ev_recv;
  uint32_t num_ev, cap_ev;
  uint32_t *clock;       /* happens-before clocks, the plan's (layout: ge__st_events) */
  size_t clock_bytes;
  uint32_t *pos;         /* step -> index in its stream */
  uint32_t *sends, *recvs; /* step -> event records / waits */
  uint32_t *split_prev;  /* step -> the step closing the previous piece of its stream (GE__ST_NO_STEP) */
  uint8_t *ge_kept;      /* preds entry -> a dependency GE's send- and receive-side passes keep */
} ge__st;

static void *ge__st_alloc(ge__st *s, size_t n) { return s->a.alloc(s->a.user, n ? n : 1); }
static void ge__st_free(ge__st *s, void *p, size_t n) {
  if (p) s->a.free(s->a.user, p, n ? n : 1);
}
static void *ge__st_zalloc(ge__st *s, size_t n) {
  void *p = ge__st_alloc(s, n);
  if (p) memset(p, 0, n);
  return p;
}
static size_t ge__st_per_step(const ge__st *s, size_t size) { return ((size_t)s->n + 1) * size; }
static size_t ge__st_per_edge(const ge__st *s, size_t size) { return ((size_t)s->num_edges + 1) * size; }

static ge_node *ge__st_node(const ge__st *s, uint32_t i) { return ge_graph_node(s->g, s->order[i]); }
static const ge__st_attrs *ge__st_at(const ge__st *s, uint32_t i) { return &s->attrs[s->steps[i].attrs]; }
/* Whether step i has any of the GE__ST_F_* flags. */
static int ge__st_is(const ge__st *s, uint32_t i, uint32_t flags) { return (s->steps[i].flags & flags) != 0; }

static uint32_t ge__st_hash(const char *k) {
  uint32_t h = 2166136261u;
  while (*k) h = (h ^ (uint8_t)*k++) * 16777619u;
  return h;
}
/* The value of key, or -1. */
static int32_t ge__st_map_get(const ge__st_map *m, const char *key) {
  uint32_t i;
  if (!m->cap) return -1;
  for (i = ge__st_hash(key) & (m->cap - 1); m->keys[i]; i = (i + 1) & (m->cap - 1))
    if (!strcmp(m->keys[i], key)) return m->vals[i];
  return -1;
}
static ge_status ge__st_map_put(ge__st *s, ge__st_map *m, const char *key, int32_t val) {
  uint32_t i;
  if ((m->count + 1) * 2 > m->cap) {
    ge__st_map old = *m;
    uint32_t cap = old.cap ? old.cap * 2 : 16;
    m->keys = (const char **)ge__st_zalloc(s, cap * sizeof *m->keys);
    m->vals = (int32_t *)ge__st_alloc(s, cap * sizeof *m->vals);
    if (!m->keys || !m->vals) {
      ge__st_free(s, (void *)m->keys, cap * sizeof *m->keys);
      ge__st_free(s, m->vals, cap * sizeof *m->vals);
      *m = old;
      return GE_ERR_NOMEM;
    }
    m->cap = cap, m->count = 0;
    for (i = 0; i < old.cap; i++)
      if (old.keys[i]) ge__st_map_put(s, m, old.keys[i], old.vals[i]); /* cannot grow again */
    ge__st_free(s, (void *)old.keys, old.cap * sizeof *old.keys);
    ge__st_free(s, old.vals, old.cap * sizeof *old.vals);
  }
  for (i = ge__st_hash(key) & (m->cap - 1); m->keys[i]; i = (i + 1) & (m->cap - 1))
    if (!strcmp(m->keys[i], key)) return m->vals[i] = val, GE_OK;
  m->keys[i] = key, m->vals[i] = val, m->count++;
  return GE_OK;
}
static void ge__st_map_free(ge__st *s, ge__st_map *m) {
  ge__st_free(s, (void *)m->keys, m->cap * sizeof *m->keys);
  ge__st_free(s, m->vals, m->cap * sizeof *m->vals);
  memset(m, 0, sizeof *m);
}

static int32_t ge__st_new_stream(ge__st *s, int kind, int32_t engine, const char *label) {
  ge__st_stream *x;
  if (s->num_streams == s->cap_streams) {
    uint32_t cap = s->cap_streams ? s->cap_streams * 2 : 16;
    ge__st_stream *q = (ge__st_stream *)ge__st_alloc(s, cap * sizeof *q);
    if (!q) return -1;
    if (s->num_streams) memcpy(q, s->streams, s->num_streams * sizeof *q);
    ge__st_free(s, s->streams, s->cap_streams * sizeof *q);
    s->streams = q, s->cap_streams = cap;
  }
  x = &s->streams[s->num_streams];
  memset(x, 0, sizeof *x);
  x->engine = engine, x->label = label, x->kind = (uint8_t)kind;
  x->tail = GE__ST_NO_STEP, x->first_step = GE__ST_NO_STEP, x->activated_by = GE_NONE, x->older = x->newer = -1;
  x->logical = (int32_t)s->num_streams;
  return (int32_t)s->num_streams++;
}

static ge_status ge__st_oom(ge__st *s) {
  return ge_error_set(s->err, GE_ERR_NOMEM, "out of memory allocating streams of '%s'", ge_graph_name(s->g));
}

/* -------------------------------------------- the order and its steps */

/* CSR rows are filled through start[i]++, which leaves each start at the
 * next row's: these turn counts into starts (start[n]: the total) and put
 * the starts back after filling. */
static uint32_t ge__st_starts(uint32_t *start, uint32_t n) {
  uint32_t i, total = 0;
  for (i = 0; i < n; i++) {
    uint32_t c = start[i];
    start[i] = total, total += c;
  }
  start[n] = total;
  return total;
}
static void ge__st_restore_starts(uint32_t *start, uint32_t n) {
  memmove(start + 1, start, n * sizeof *start);
  start[0] = 0;
}

/* The execution order: the caller's or a topological sort, and step[]
 * mapping node ids to it. *bad: the first entry out of range or repeating
 * an earlier one (GE__ST_NO_STEP: none); entries that are no live node
 * are found by ge__st_gather, which visits the nodes anyway. */
static ge_status ge__st_order(ge__st *s, uint32_t *bad) {
  uint32_t i;
  *bad = GE__ST_NO_STEP;
  s->order = (ge_node_id *)ge__st_alloc(s, ge__st_per_step(s, sizeof *s->order));
  s->step = (uint32_t *)ge__st_alloc(s, ((size_t)s->bound + 1) * sizeof *s->step);
  if (!s->order || !s->step) return ge__st_oom(s);
  if (!s->d->order) {
    ge_status st = ge_graph_topo_sort(s->g, GE_TOPO_BFS, s->order, s->err);
    if (st) return st;
  } else {
    memcpy(s->order, s->d->order, s->n * sizeof *s->order);
  }
  for (i = 0; i < s->bound; i++) s->step[i] = GE__ST_NO_STEP;
  for (i = 0; i < s->n; i++) {
    ge_node_id id = s->order[i];
    if (id >= s->bound || s->step[id] != GE__ST_NO_STEP) {
      *bad = i;
      break;
    }
    s->step[id] = i;
  }
  return GE_OK;
}

/* The GE__ST_F_* bits engine e gives its nodes (none for a plain one). */
static uint32_t ge__st_engine_bits(const ge_engine *e) {
  uint32_t f = 0;
  if (!e) return 0;
  if (e->flags & GE_ENGINE_INDEPENDENT) f |= GE__ST_F_INDEPENDENT;
  if (e->flags & GE_ENGINE_ATTACH) f |= GE__ST_F_ATTACH;
  if (e->flags & GE_ENGINE_SKIP_ASSIGN_STREAM) f |= GE__ST_F_SKIPPED;
  if (e->name && !strncmp(e->name, "DNN_VM_AICPU", 12)) f |= GE__ST_F_AICPU;
  return f;
}

/* The GE__ST_F_* bits of an op type; by first letter, as most ops have none. */
static uint32_t ge__st_op_bits(const char *op) {
  switch (op[0]) {
  case 'A':
    if (!strcmp(op, "AllReduce")) return GE__ST_F_ALLREDUCE | GE__ST_F_COLLECTIVE;
    return !strcmp(op, "AllGather") ? GE__ST_F_COLLECTIVE : 0;
  case 'B': return !strcmp(op, "Broadcast") ? GE__ST_F_COLLECTIVE : 0;
  case 'R': return !strcmp(op, "ReduceScatter") ? GE__ST_F_COLLECTIVE : 0;
  case 'D': return !strcmp(op, "Data") ? GE__ST_F_MAIN_OP : 0;
  case 'V': return !strcmp(op, "Variable") ? GE__ST_F_MAIN_OP : 0;
  case 'N': return !strcmp(op, "NetOutput") ? GE__ST_F_MAIN_OP : 0;
  case 'F': return !strcmp(op, "FileConstant") ? GE__ST_F_MAIN_OP : 0;
  case 'L': /* label ops: a piece of a split stream may not start there (§4.4) */
    return !strcmp(op, "LabelSet") || !strcmp(op, "LabelGoto") || !strcmp(op, "LabelGotoEx") ||
                   !strcmp(op, "LabelSwitchByIndex")
               ? GE__ST_F_UNSPLITTABLE
               : 0;
  default: return 0;
  }
}

static const char *ge__st_nonempty(const char *v) { return v && *v ? v : NULL; }

/* The stream attributes of x in one scan of its attributes (their names
 * all start with '_'), and the flags they set. Backwards, so that were a
 * name repeated, the first would win as with ge_node_attr. */
static void ge__st_scan_attrs(const ge_node *x, uint32_t *flags, ge__st_attrs *a) {
  const char *user_label = NULL, *label = NULL;
  uint32_t k;
  memset(a, 0, sizeof *a);
  for (k = x->num_attrs; k-- > 0;) {
    const ge_attr *at = &x->attrs[k];
    const char *name = at->name, *str = at->type == GE_ATTR_STRING ? at->v.s : NULL;
    if (at->type == GE_ATTR_GRAPH || at->type == GE_ATTR_GRAPHS) *flags |= GE__ST_F_UNSPLITTABLE; /* control flow */
    if (name[0] != '_') continue;
    if (!strcmp(name, GE_STREAM_ATTR_USER_LABEL)) user_label = str;
    else if (!strcmp(name, GE_STREAM_ATTR_LABEL)) label = str;
    else if (!strcmp(name, GE_STREAM_ATTR_PARALLEL_GROUP)) a->group = str;
    else if (!strcmp(name, GE_STREAM_ATTR_ATTACHED_REUSE_KEY)) a->attached_key = str;
    else if (!strcmp(name, GE_STREAM_ATTR_CONTINUOUS_LABEL)) a->continuous = str;
    else if (!strcmp(name, GE_STREAM_ATTR_BATCH_LABEL)) a->batch = str;
    else if (!strcmp(name, "_active_label_list")) a->active_labels = at->type == GE_ATTR_STRINGS ? at : NULL;
    else if (!strcmp(name, GE_STREAM_ATTR_NEW_STREAM_ID)) {
      *flags &= ~(uint32_t)GE__ST_F_MDE;
      if (at->type == GE_ATTR_INT) *flags |= GE__ST_F_MDE, a->mde = at->v.i;
    } else if (!strcmp(name, GE_STREAM_ATTR_RTS_LABEL_NODE)) { /* read as ge_node_attr_int does */
      int64_t v = at->type == GE_ATTR_INT ? at->v.i : at->type == GE_ATTR_BOOL ? at->v.b
                : at->type == GE_ATTR_DTYPE ? (int64_t)at->v.dt : 0;
      *flags = v ? *flags | GE__ST_F_RTS_LABEL : *flags & ~(uint32_t)GE__ST_F_RTS_LABEL;
    }
  }
  a->label = ge__st_nonempty(user_label) ? user_label : ge__st_nonempty(label);
  a->group = ge__st_nonempty(a->group);
  a->continuous = ge__st_nonempty(a->continuous);
  a->batch = ge__st_nonempty(a->batch);
  if (a->active_labels && strcmp(x->op, "StreamActive")) a->active_labels = NULL;
}

/* Keeps a node's stream attributes when it has any (r->attrs: their index). */
static ge_status ge__st_keep_attrs(ge__st *s, const ge__st_attrs *a, ge__st_step *r) {
  if (!a->label && !a->group && !a->attached_key && !a->continuous && !a->batch && !a->active_labels &&
      !(r->flags & GE__ST_F_MDE))
    return GE_OK;
  if (s->num_attrs == s->cap_attrs) {
    uint32_t cap = s->cap_attrs * 2;
    ge__st_attrs *q = (ge__st_attrs *)ge__st_alloc(s, cap * sizeof *q);
    if (!q) return ge__st_oom(s);
    memcpy(q, s->attrs, s->num_attrs * sizeof *q);
    ge__st_free(s, s->attrs, s->cap_attrs * sizeof *q);
    s->attrs = q, s->cap_attrs = cap;
  }
  s->attrs[s->num_attrs] = *a;
  r->attrs = s->num_attrs++;
  return GE_OK;
}

/* The step record of node x (step i) and its predecessor count, left in
 * pred_start[i]. */
static ge_status ge__st_gather_node(ge__st *s, const ge_node *x, uint32_t i, const uint32_t *engine_bits) {
  ge__st_step *r = &s->steps[i];
  ge__st_attrs a;
  uint32_t k, num_engines = s->d->engines ? s->d->num_engines : 0;
  r->engine = x->engine, r->attrs = 0, r->num_data = 0;
  r->flags = ge__st_op_bits(x->op);
  if (x->engine >= 0 && (uint32_t)x->engine < num_engines) r->flags |= engine_bits[x->engine];
  for (k = 0; k < x->num_inputs; k++) r->num_data += x->inputs[k].node != GE_NONE;
  if (x->num_inputs == 1 && r->num_data == 1) r->flags |= GE__ST_F_ONE_INPUT;
  s->pred_start[i] = r->num_data + x->num_control_inputs;
  ge__st_scan_attrs(x, &r->flags, &a);
  return ge__st_keep_attrs(s, &a, r);
}

/* Visits the nodes in id order (their order in memory) rather than in
 * execution order: first the step records, then the predecessor steps. An
 * order entry that is no live node is an error, reported for the first bad
 * entry of the order. */
static ge_status ge__st_gather(ge__st *s, uint32_t bad) {
  uint32_t num_engines = s->d->engines ? s->d->num_engines : 0, id, k;
  uint32_t *engine_bits = (uint32_t *)ge__st_alloc(s, ((size_t)num_engines + 1) * sizeof *engine_bits);
  ge_status st = GE_OK;
  s->steps = (ge__st_step *)ge__st_alloc(s, ge__st_per_step(s, sizeof *s->steps));
  s->pred_start = (uint32_t *)ge__st_alloc(s, ge__st_per_step(s, sizeof *s->pred_start));
  s->attrs = (ge__st_attrs *)ge__st_zalloc(s, 16 * sizeof *s->attrs);
  s->cap_attrs = 16, s->num_attrs = 1; /* entry 0: no attributes */
  if (!engine_bits || !s->steps || !s->pred_start || !s->attrs) {
    st = ge__st_oom(s);
    goto done;
  }
  for (k = 0; k < num_engines; k++) engine_bits[k] = ge__st_engine_bits(s->d->engines[k]);
  for (id = 0; id < s->bound && !st; id++) {
    const ge_node *x = ge_graph_node(s->g, id);
    if (!x) {
      if (s->step[id] < bad) bad = s->step[id]; /* listed, but no node */
    } else if (s->step[id] != GE__ST_NO_STEP) {
      st = ge__st_gather_node(s, x, s->step[id], engine_bits);
    } /* else left out of the order, so some entry is bad */
  }
  if (st) goto done;
  if (bad != GE__ST_NO_STEP) {
    st = ge_error_set(s->err, GE_ERR_INVALID, "stream allocation: order entry %u (node id %u) is not a node or repeats one",
                      (unsigned)bad, (unsigned)s->order[bad]);
    goto done;
  }
  s->num_edges = ge__st_starts(s->pred_start, s->n);
  if (!(s->preds = (uint32_t *)ge__st_alloc(s, ge__st_per_edge(s, sizeof *s->preds)))) {
    st = ge__st_oom(s);
    goto done;
  }
  for (id = 0; id < s->bound; id++) {
    const ge_node *x = ge_graph_node(s->g, id);
    uint32_t *at;
    if (!x) continue;
    at = &s->pred_start[s->step[id]];
    for (k = 0; k < x->num_inputs; k++)
      if (x->inputs[k].node != GE_NONE) s->preds[(*at)++] = s->step[x->inputs[k].node];
    for (k = 0; k < x->num_control_inputs; k++) s->preds[(*at)++] = s->step[x->control_inputs[k]];
  }
  ge__st_restore_starts(s->pred_start, s->n);
done:
  ge__st_free(s, engine_bits, ((size_t)num_engines + 1) * sizeof *engine_bits);
  return st;
}

/* Every node after its inputs in the order. */
static ge_status ge__st_check_topological(ge__st *s) {
  uint32_t i, k;
  for (i = 0; i < s->n; i++)
    for (k = s->pred_start[i]; k < s->pred_start[i + 1]; k++)
      if (s->preds[k] >= i)
        return ge_error_set(s->err, GE_ERR_INVALID, "stream allocation: the order puts '%s' before its input '%s'",
                            ge__st_node(s, i)->name, ge__st_node(s, s->preds[k])->name);
  return GE_OK;
}

/* The successor lists, by reversing the predecessor lists: walking the
 * consumers in execution order leaves each list ascending. */
static ge_status ge__st_successors(ge__st *s) {
  uint32_t i, k;
  s->succ_start = (uint32_t *)ge__st_zalloc(s, ge__st_per_step(s, sizeof *s->succ_start));
  s->succs = (uint32_t *)ge__st_alloc(s, ge__st_per_edge(s, sizeof *s->succs));
  s->succ_edge = (uint32_t *)ge__st_alloc(s, ge__st_per_edge(s, sizeof *s->succ_edge));
  if (!s->succ_start || !s->succs || !s->succ_edge) return ge__st_oom(s);
  for (k = 0; k < s->num_edges; k++) s->succ_start[s->preds[k]]++;
  ge__st_starts(s->succ_start, s->n);
  for (i = 0; i < s->n; i++)
    for (k = s->pred_start[i]; k < s->pred_start[i + 1]; k++) {
      uint32_t at = s->succ_start[s->preds[k]]++;
      s->succs[at] = i, s->succ_edge[at] = k;
    }
  ge__st_restore_starts(s->succ_start, s->n);
  return GE_OK;
}

/* Order, step records, dependency lists; the order checked. */
static ge_status ge__st_prepare(ge__st *s) {
  uint32_t bad;
  ge_status st;
  if ((st = ge__st_order(s, &bad)) || (st = ge__st_gather(s, bad)) || (st = ge__st_check_topological(s)))
    return st;
  return ge__st_successors(s);
}

/* ------------------------------------------------ static pass chain (§4.1) */

/* MDE groups: one stream per _new_stream_id value. */
static ge_status ge__st_pass_mde(ge__st *s) {
  int32_t *ids = NULL, *sid = NULL;
  uint32_t num = 0, cap = 0, i, k;
  ge_status st = GE_OK;
  for (i = 0; i < s->n && st == GE_OK; i++) {
    int32_t value;
    if (!ge__st_is(s, i, GE__ST_F_MDE)) continue;
    value = (int32_t)ge__st_at(s, i)->mde;
    for (k = 0; k < num && ids[k] != value; k++) {}
    if (k == num) {
      if (num == cap) {
        uint32_t nc = cap ? cap * 2 : 8;
        int32_t *a = (int32_t *)ge__st_alloc(s, nc * sizeof *a), *b = (int32_t *)ge__st_alloc(s, nc * sizeof *b);
        if (!a || !b) {
          ge__st_free(s, a, nc * sizeof *a), ge__st_free(s, b, nc * sizeof *b);
          st = ge__st_oom(s);
          break;
        }
        if (num) memcpy(a, ids, num * sizeof *a), memcpy(b, sid, num * sizeof *b);
        ge__st_free(s, ids, cap * sizeof *ids), ge__st_free(s, sid, cap * sizeof *sid);
        ids = a, sid = b, cap = nc;
      }
      ids[num] = value;
      if ((sid[num] = ge__st_new_stream(s, GE__ST_MDE, s->steps[i].engine, NULL)) < 0) st = ge__st_oom(s);
      num++;
    }
    s->ls[i] = sid[k];
  }
  ge__st_free(s, ids, cap * sizeof *ids), ge__st_free(s, sid, cap * sizeof *sid);
  return st;
}

/* Stream labels (the user's first): same label, same stream. In
 * single-stream mode a label is an error. */
static ge_status ge__st_pass_labels(ge__st *s, int kind) {
  ge__st_map m;
  uint32_t i;
  ge_status st = GE_OK;
  memset(&m, 0, sizeof m);
  for (i = 0; i < s->n && st == GE_OK; i++) {
    const char *l = ge__st_at(s, i)->label;
    int32_t id;
    if (!l || s->ls[i] >= 0) continue;
    if (s->d->single_stream) {
      st = ge_error_set(s->err, GE_ERR_INVALID,
                        "single-stream mode does not support stream labels: node '%s' has label '%s'",
                        ge__st_node(s, i)->name, l);
      break;
    }
    if ((id = ge__st_map_get(&m, l)) < 0 &&
        ((id = ge__st_new_stream(s, kind, s->steps[i].engine, l)) < 0 || ge__st_map_put(s, &m, l, id))) {
      st = ge__st_oom(s);
      break;
    }
    s->ls[i] = id;
    if (ge__st_is(s, i, GE__ST_F_INDEPENDENT)) s->streams[id].hccl = 1;
  }
  ge__st_map_free(s, &m);
  return st;
}

/* Independent engines (HCCL): one stream per engine for its unlabelled nodes. */
static ge_status ge__st_pass_independent(ge__st *s) {
  int32_t per_engine[64];
  uint32_t i;
  for (i = 0; i < 64; i++) per_engine[i] = -1;
  for (i = 0; i < s->n; i++) {
    int32_t engine = s->steps[i].engine, *slot;
    if (s->ls[i] >= 0 || !ge__st_is(s, i, GE__ST_F_INDEPENDENT)) continue;
    slot = &per_engine[(uint32_t)engine % 64];
    if (*slot < 0 || s->streams[*slot].engine != engine) {
      if ((*slot = ge__st_new_stream(s, GE__ST_INDEPENDENT, engine, NULL)) < 0) return ge__st_oom(s);
      s->streams[*slot].hccl = 1;
    }
    s->ls[i] = *slot;
  }
  return GE_OK;
}

/* The dependency streams by engine slot (the engine + 1, modulo 65, as
 * the per-engine stream count has it), least recently given a node first:
 * the first of a node's engine in its slot is the one idle longest. */
typedef struct ge__st_idle {
  int32_t first[65], last[65];
} ge__st_idle;

static uint32_t ge__st_engine_slot(int32_t engine) { return ((uint32_t)engine + 1u) % 65; }

static void ge__st_idle_append(ge__st *s, ge__st_idle *l, int32_t k) {
  uint32_t slot = ge__st_engine_slot(s->streams[k].engine);
  s->streams[k].older = l->last[slot], s->streams[k].newer = -1;
  if (l->last[slot] >= 0) s->streams[l->last[slot]].newer = k;
  else l->first[slot] = k;
  l->last[slot] = k;
}

/* Gives step i to dependency stream k: it moves to the end of its list. */
static void ge__st_idle_give(ge__st *s, ge__st_idle *l, int32_t k, uint32_t i) {
  ge__st_stream *x = &s->streams[k];
  uint32_t slot = ge__st_engine_slot(x->engine);
  if (x->older >= 0) s->streams[x->older].newer = x->newer;
  else l->first[slot] = x->newer;
  if (x->newer >= 0) s->streams[x->newer].older = x->older;
  else l->last[slot] = x->older;
  ge__st_idle_append(s, l, k);
  x->tail = i;
}

/* Dependency assignment with reuse: a node takes the stream of a
 * predecessor that is still that stream's last node (no other successor
 * took it), made for its engine (or the node's engine attaches), of the
 * dependency kind; the deepest such predecessor wins. Nodes of skipped
 * engines (views, constants) get no stream here, so a predecessor of that
 * kind stands for the assigned node behind it. Otherwise a new stream, up
 * to max_parallel per engine, then the engine's stream that went idle
 * earliest. */
static ge_status ge__st_pass_dependency(ge__st *s) {
  size_t bytes = ge__st_per_step(s, sizeof(uint32_t));
  uint32_t *depth = (uint32_t *)ge__st_alloc(s, bytes), i, k;
  uint32_t *via = (uint32_t *)ge__st_alloc(s, bytes); /* skipped step -> the assigned step behind it */
  uint32_t per_engine[65];
  ge__st_idle idle;
  ge_status st = GE_OK;
  if (!depth || !via) {
    st = ge__st_oom(s);
    goto done;
  }
  memset(per_engine, 0, sizeof per_engine);
  for (k = 0; k < 65; k++) idle.first[k] = idle.last[k] = -1;
  for (k = 0; k < s->num_streams; k++) /* (none so far: the other passes make other kinds) */
    if (s->streams[k].kind == GE__ST_DEPENDENCY)
      per_engine[ge__st_engine_slot(s->streams[k].engine)]++, ge__st_idle_append(s, &idle, (int32_t)k);
  for (i = 0; i < s->n; i++) {
    int32_t engine = s->steps[i].engine, best = -1;
    int skipped = s->ls[i] < 0 && ge__st_is(s, i, GE__ST_F_SKIPPED), attach = ge__st_is(s, i, GE__ST_F_ATTACH);
    uint32_t d = 0, best_depth = 0, best_step = GE__ST_NO_STEP, *count;
    for (k = s->pred_start[i]; k < s->pred_start[i + 1]; k++) {
      uint32_t p = s->preds[k], c = s->ls[p] >= 0 ? p : via[p];
      int32_t sp = c == GE__ST_NO_STEP ? -1 : s->ls[c];
      if (depth[p] + 1 > d) d = depth[p] + 1;
      if (sp >= 0 && s->streams[sp].kind == GE__ST_DEPENDENCY && s->streams[sp].tail == c &&
          (skipped || s->streams[sp].engine == engine || attach) &&
          (best < 0 || depth[c] > best_depth || (depth[c] == best_depth && sp < best)))
        best = sp, best_depth = depth[c], best_step = c;
    }
    depth[i] = d;
    via[i] = skipped ? best_step : GE__ST_NO_STEP;
    if (s->ls[i] >= 0 || skipped) continue;
    count = &per_engine[ge__st_engine_slot(engine)];
    if (best < 0 && *count >= s->max_parallel) /* the engine's stream idle longest */
      for (best = idle.first[ge__st_engine_slot(engine)]; best >= 0 && s->streams[best].engine != engine;
           best = s->streams[best].newer) {}
    if (best < 0) { /* under the limit, or another engine of its slot filled it */
      if ((best = ge__st_new_stream(s, GE__ST_DEPENDENCY, engine, NULL)) < 0) {
        st = ge__st_oom(s);
        goto done;
      }
      ++*count;
      ge__st_idle_append(s, &idle, best);
    }
    s->ls[i] = best;
    ge__st_idle_give(s, &idle, best, i);
  }
done:
  ge__st_free(s, depth, bytes), ge__st_free(s, via, bytes);
  return st;
}

/* A node not given a stream yet (skipped engines, nodes of no engine) takes
 * its first consumer's stream, else its last producer's, else `fallback`.
 * Consumers are looked at in reverse order so chains of such nodes follow
 * the stream that finally uses them. */
static ge_status ge__st_pass_unassigned(ge__st *s, int32_t fallback) {
  uint32_t i, k;
  for (i = s->n; i-- > 0;) {
    if (s->ls[i] >= 0) continue;
    for (k = s->succ_start[i]; k < s->succ_start[i + 1]; k++) { /* ascending: the first assigned one */
      int32_t to = s->ls[s->succs[k]];
      if (to >= 0 && !s->streams[to].hccl) {
        s->ls[i] = to;
        break;
      }
    }
  }
  for (i = 0; i < s->n; i++) {
    uint32_t last = 0;
    int found = 0;
    if (s->ls[i] >= 0) continue;
    for (k = s->pred_start[i]; k < s->pred_start[i + 1]; k++) {
      uint32_t p = s->preds[k];
      if (s->ls[p] >= 0 && !s->streams[s->ls[p]].hccl && (!found || p > last)) last = p, found = 1;
    }
    if (found) {
      s->ls[i] = s->ls[last];
    } else {
      if (fallback < 0 && (fallback = ge__st_new_stream(s, GE__ST_MAIN, -1, NULL)) < 0) return ge__st_oom(s);
      s->ls[i] = fallback;
    }
  }
  return GE_OK;
}

/* RTS label nodes run on the parent stream: stream 0 at this level. */
static void ge__st_pass_node_update(ge__st *s, int32_t parent) {
  uint32_t i;
  for (i = 0; i < s->n; i++)
    if (ge__st_is(s, i, GE__ST_F_RTS_LABEL)) s->ls[i] = parent;
}

/* Parallel groups: a new stream per group; an independent-engine node of
 * group "-1" with one input stays on its input's stream. */
static ge_status ge__st_pass_parallel_groups(ge__st *s) {
  ge__st_map m;
  uint32_t i;
  ge_status st = GE_OK;
  memset(&m, 0, sizeof m);
  for (i = 0; i < s->n && st == GE_OK; i++) {
    const char *grp = ge__st_at(s, i)->group;
    int32_t id;
    if (!grp) continue;
    if (!strcmp(grp, "-1") && ge__st_is(s, i, GE__ST_F_INDEPENDENT) && ge__st_is(s, i, GE__ST_F_ONE_INPUT)) {
      s->ls[i] = s->ls[s->preds[s->pred_start[i]]];
      continue;
    }
    if ((id = ge__st_map_get(&m, grp)) < 0) {
      if ((id = ge__st_new_stream(s, GE__ST_GROUP, s->steps[i].engine, NULL)) < 0 || ge__st_map_put(s, &m, grp, id))
        st = ge__st_oom(s);
    }
    s->ls[i] = id;
  }
  ge__st_map_free(s, &m);
  return st;
}

/* HCOM nodes: of an independent engine, or collective ops. */
static int ge__st_is_hcom(const ge__st *s, uint32_t i) {
  return ge__st_is(s, i, GE__ST_F_INDEPENDENT | GE__ST_F_COLLECTIVE);
}

/* AllReduce parallelism: the non-HCOM nodes reached from an AllReduce
 * (stopping at HCOM nodes) move to new streams, one per stream they were
 * on, so gradient reduction and the updates after it overlap the rest of
 * the backward pass. */
static ge_status ge__st_pass_allreduce(ge__st *s) {
  uint32_t old = s->num_streams, i, k;
  int32_t *remap = (int32_t *)ge__st_alloc(s, (old + 1) * sizeof *remap);
  uint8_t *mark = (uint8_t *)ge__st_zalloc(s, ge__st_per_step(s, 1));
  ge_status st = GE_OK;
  if (!remap || !mark) st = ge__st_oom(s);
  for (k = 0; k < old && remap; k++) remap[k] = -1;
  /* in order, a node is marked when an AllReduce or a marked non-HCOM node feeds it (data inputs) */
  for (i = 0; i < s->n && st == GE_OK; i++) {
    uint32_t data_end = s->pred_start[i] + s->steps[i].num_data;
    int fed = 0;
    int32_t from;
    if (ge__st_is_hcom(s, i) || ge__st_is(s, i, GE__ST_F_SKIPPED)) continue;
    for (k = s->pred_start[i]; k < data_end && !fed; k++)
      fed = ge__st_is(s, s->preds[k], GE__ST_F_ALLREDUCE) || mark[s->preds[k]];
    if (!fed) continue;
    mark[i] = 1;
    from = s->ls[i];
    if (from < 0 || (uint32_t)from >= old) continue;
    if (remap[from] < 0 && (remap[from] = ge__st_new_stream(s, GE__ST_MOVED, s->steps[i].engine, NULL)) < 0)
      st = ge__st_oom(s);
    s->ls[i] = remap[from];
  }
  ge__st_free(s, remap, (old + 1) * sizeof *remap);
  ge__st_free(s, mark, ge__st_per_step(s, 1));
  return st;
}

/* The one stream all of step i's neighbours are on, or -1. */
static int32_t ge__st_neighbour_stream(const ge__st *s, uint32_t i) {
  int32_t only = -1;
  uint32_t k;
  for (k = s->pred_start[i]; k < s->pred_start[i + 1]; k++) {
    if (only < 0) only = s->ls[s->preds[k]];
    else if (s->ls[s->preds[k]] != only) return -1;
  }
  for (k = s->succ_start[i]; k < s->succ_start[i + 1]; k++) {
    if (only < 0) only = s->ls[s->succs[k]];
    else if (s->ls[s->succs[k]] != only) return -1;
  }
  return only;
}

/* Skipped engines: A(s1) -> Const(s2) -> B(s1) puts the Const on s1. */
static void ge__st_pass_skipped_engine(ge__st *s) {
  uint32_t i;
  for (i = 0; i < s->n; i++) {
    int32_t to;
    if (!ge__st_is(s, i, GE__ST_F_SKIPPED) || ge__st_at(s, i)->label) continue;
    if ((to = ge__st_neighbour_stream(s, i)) >= 0 && !s->streams[to].hccl) s->ls[i] = to;
  }
}

/* Ineffective multi-stream: a node whose neighbours all sit on one other
 * stream, with nothing of that stream running between its inputs and its
 * outputs, moves there (it gained no parallelism and cost two events).
 * Labelled, grouped and independent-engine nodes stay. */
static ge_status ge__st_pass_ineffective(ge__st *s) {
  size_t bytes = ge__st_per_step(s, sizeof(uint32_t));
  uint32_t *last = (uint32_t *)ge__st_alloc(s, (s->num_streams + 1) * sizeof *last), i, k;
  uint32_t *next_on = (uint32_t *)ge__st_alloc(s, bytes), *prev_on = (uint32_t *)ge__st_alloc(s, bytes);
  ge_status st = GE_OK;
  if (!last || !next_on || !prev_on) {
    st = ge__st_oom(s);
    goto done;
  }
  /* the chain of each stream by step: next_on / prev_on (n: none) */
  for (i = 0; i < s->num_streams; i++) last[i] = s->n;
  for (i = 0; i < s->n; i++) {
    int32_t t = s->ls[i];
    prev_on[i] = last[t], next_on[i] = s->n, last[t] = i;
    if (prev_on[i] != s->n) next_on[prev_on[i]] = i;
  }
  for (i = 0; i < s->n; i++) {
    int32_t to = ge__st_neighbour_stream(s, i), from = s->ls[i];
    uint32_t in_max, out_min;
    if (to < 0 || to == from || s->streams[from].kind != GE__ST_DEPENDENCY || s->streams[to].hccl ||
        ge__st_at(s, i)->label || ge__st_is(s, i, GE__ST_F_INDEPENDENT))
      continue;
    if (s->pred_start[i] == s->pred_start[i + 1] || s->succ_start[i] == s->succ_start[i + 1]) continue;
    for (in_max = 0, k = s->pred_start[i]; k < s->pred_start[i + 1]; k++)
      if (s->preds[k] > in_max) in_max = s->preds[k];
    out_min = s->succs[s->succ_start[i]]; /* successors ascend */
    if (next_on[in_max] != out_min) continue; /* `to` runs something in between */
    if (prev_on[i] != s->n) next_on[prev_on[i]] = next_on[i];
    if (next_on[i] != s->n) prev_on[next_on[i]] = prev_on[i];
    s->ls[i] = to;
    next_on[in_max] = i, prev_on[i] = in_max, next_on[i] = out_min, prev_on[out_min] = i;
  }
done:
  ge__st_free(s, last, (s->num_streams + 1) * sizeof *last);
  ge__st_free(s, next_on, bytes), ge__st_free(s, prev_on, bytes);
  return st;
}

/* ------------------------------------------------ dynamic shapes (§4.2) */

/* One stream by default; by engine when enabled; AI CPU apart when
 * ac_parallel; labels; Data, Variable, NetOutput and file constants on the
 * main stream. */
static ge_status ge__st_dynamic(ge__st *s) {
  int32_t main_id = ge__st_new_stream(s, GE__ST_MAIN, -1, NULL), aicpu = -1, by_engine[64];
  uint32_t i;
  ge_status st;
  if (main_id < 0) return ge__st_oom(s);
  for (i = 0; i < 64; i++) by_engine[i] = -1;
  if ((st = ge__st_pass_labels(s, GE__ST_LABEL))) return st;
  for (i = 0; i < s->n; i++) {
    int32_t engine = s->steps[i].engine, *slot = NULL;
    if (s->ls[i] >= 0) continue;
    if (ge__st_is(s, i, GE__ST_F_SKIPPED) || engine < 0) slot = &main_id;
    else if (s->d->engine_parallel) slot = &by_engine[(uint32_t)engine % 64];
    else if (s->d->ac_parallel == 1 && ge__st_is(s, i, GE__ST_F_AICPU)) slot = &aicpu;
    else slot = &main_id;
    if (*slot < 0 || (slot != &main_id && s->streams[*slot].engine != engine && slot != &aicpu)) {
      if ((*slot = ge__st_new_stream(s, GE__ST_DEPENDENCY, engine, NULL)) < 0) return ge__st_oom(s);
      s->streams[*slot].hccl = ge__st_is(s, i, GE__ST_F_INDEPENDENT);
    }
    s->ls[i] = *slot;
  }
  for (i = 0; i < s->n; i++)
    if (ge__st_is(s, i, GE__ST_F_MAIN_OP)) s->ls[i] = main_id;
  return GE_OK;
}

/* ------------------------------------------------- numbering, attached */

/* Drops empty streams and numbers the rest: the main stream first, then by
 * first node. */
static ge_status ge__st_renumber(ge__st *s) {
  uint32_t *key, *perm, i, j, kept = 0;
  int32_t *to;
  ge__st_stream *old = s->streams;
  size_t sz = ((size_t)s->num_streams + 1) * sizeof(uint32_t);
  key = (uint32_t *)ge__st_alloc(s, sz), perm = (uint32_t *)ge__st_alloc(s, sz);
  to = (int32_t *)ge__st_alloc(s, sz);
  if (!key || !perm || !to) {
    ge__st_free(s, key, sz), ge__st_free(s, perm, sz), ge__st_free(s, to, sz);
    return ge__st_oom(s);
  }
  for (i = 0; i < s->num_streams; i++) s->streams[i].first_step = GE__ST_NO_STEP;
  for (i = s->n; i-- > 0;) s->streams[s->ls[i]].first_step = i;
  for (i = 0; i < s->num_streams; i++)
    if (s->streams[i].first_step != GE__ST_NO_STEP) perm[kept++] = i;
  for (i = 0; i < kept; i++) key[perm[i]] = s->streams[perm[i]].kind == GE__ST_MAIN ? 0 : s->streams[perm[i]].first_step + 1;
  for (i = 1; i < kept; i++) { /* insertion sort: few streams */
    uint32_t x = perm[i];
    for (j = i; j > 0 && (key[perm[j - 1]] > key[x] || (key[perm[j - 1]] == key[x] && perm[j - 1] > x)); j--)
      perm[j] = perm[j - 1];
    perm[j] = x;
  }
  for (i = 0; i < s->num_streams; i++) to[i] = -1;
  for (i = 0; i < kept; i++) to[perm[i]] = (int32_t)i;
  {
    ge__st_stream *q = (ge__st_stream *)ge__st_alloc(s, ((size_t)kept + 1) * sizeof *q);
    if (!q) {
      ge__st_free(s, key, sz), ge__st_free(s, perm, sz), ge__st_free(s, to, sz);
      return ge__st_oom(s);
    }
    for (i = 0; i < kept; i++) q[i] = old[perm[i]], q[i].logical = (int32_t)i;
    ge__st_free(s, old, s->cap_streams * sizeof *old);
    s->streams = q, s->num_streams = kept, s->cap_streams = kept + 1;
  }
  for (i = 0; i < s->n; i++) s->ls[i] = to[s->ls[i]];
  ge__st_free(s, key, sz), ge__st_free(s, perm, sz), ge__st_free(s, to, sz);
  return GE_OK;
}

/* StreamActive nodes listing labels in _active_label_list activate the
 * streams of those labels (§4.5): their first node needs no event. */
static void ge__st_activation(ge__st *s) {
  uint32_t i, k, j;
  for (i = 0; i < s->n; i++) {
    const ge_attr *at = ge__st_at(s, i)->active_labels;
    if (!at) continue;
    for (k = 0; k < (uint32_t)at->count; k++)
      for (j = 0; j < s->num_streams; j++)
        if (s->streams[j].label && !strcmp(s->streams[j].label, at->v.strings[k]) && (int32_t)j != s->ls[i] &&
            s->streams[j].first_step > i && s->streams[j].activated_by == GE_NONE)
          s->streams[j].activated_by = s->order[i];
  }
}

/* Attached streams (§4.1.2): after the main ones, one per reuse key. */
static ge_status ge__st_attached(ge__st *s, ge_stream_plan *plan) {
  ge__st_map m;
  uint32_t i;
  ge_status st = GE_OK;
  memset(&m, 0, sizeof m);
  for (i = 0; i < s->n && st == GE_OK; i++) {
    const char *key = ge__st_at(s, i)->attached_key;
    int32_t id;
    if (!key) continue;
    if (!plan->attached_stream) {
      if (!(plan->attached_stream = (int32_t *)ge__st_alloc(s, ((size_t)s->bound + 1) * sizeof(int32_t)))) {
        st = ge__st_oom(s);
        break;
      }
      memset(plan->attached_stream, 0xff, ((size_t)s->bound + 1) * sizeof(int32_t));
    }
    if ((id = ge__st_map_get(&m, key)) < 0) {
      if ((id = ge__st_new_stream(s, GE__ST_LABEL, s->steps[i].engine, NULL)) < 0 || ge__st_map_put(s, &m, key, id)) {
        st = ge__st_oom(s);
        break;
      }
      s->streams[id].attached = 1;
      plan->num_attached++;
    }
    plan->attached_stream[s->order[i]] = id;
  }
  ge__st_map_free(s, &m);
  return st;
}

/* --------------------------------------------------------------- events */

enum { GE__ST_SRC_DEPENDENCY = 0, GE__ST_SRC_ACTIVATION, GE__ST_SRC_SPLIT };

typedef struct ge__st_src {
  uint32_t step;   /* the node it comes from */
  uint8_t kind;    /* GE__ST_SRC_*: a dependency, an activation (orders without an event), a split chain */
  uint8_t ge_kept; /* a dependency GE's passes keep */
} ge__st_src;

static ge_status ge__st_push_event(ge__st *s, uint32_t u, uint32_t v) {
  if (s->num_ev == s->cap_ev) {
    uint32_t cap = s->cap_ev ? s->cap_ev * 2 : 64;
    uint32_t *a = (uint32_t *)ge__st_alloc(s, cap * sizeof *a), *b = (uint32_t *)ge__st_alloc(s, cap * sizeof *b);
    if (!a || !b) {
      ge__st_free(s, a, cap * sizeof *a), ge__st_free(s, b, cap * sizeof *b);
      return ge__st_oom(s);
    }
    if (s->num_ev) memcpy(a, s->ev_send, s->num_ev * sizeof *a), memcpy(b, s->ev_recv, s->num_ev * sizeof *b);
    ge__st_free(s, s->ev_send, s->cap_ev * sizeof *a), ge__st_free(s, s->ev_recv, s->cap_ev * sizeof *b);
    s->ev_send = a, s->ev_recv = b, s->cap_ev = cap;
  }
  s->ev_send[s->num_ev] = u, s->ev_recv[s->num_ev] = v, s->num_ev++;
  return GE_OK;
}

/* Sources are taken latest first; at one step (one node) an activation,
 * then a split chain, then a dependency. Equal sources are the same. */
static int ge__st_src_rank(int kind) {
  return kind == GE__ST_SRC_ACTIVATION ? 0 : kind == GE__ST_SRC_SPLIT ? 1 : 2;
}
static int ge__st_src_before(const ge__st_src *a, const ge__st_src *b) {
  return a->step > b->step || (a->step == b->step && ge__st_src_rank(a->kind) < ge__st_src_rank(b->kind));
}
static int ge__st_src_cmp(const void *x, const void *y) {
  const ge__st_src *a = (const ge__st_src *)x, *b = (const ge__st_src *)y;
  return ge__st_src_before(a, b) ? -1 : ge__st_src_before(b, a);
}

/* The sources ordering step i: its predecessors, the StreamActive node of
 * a stream it opens, the node closing the previous piece of its split
 * stream; latest first. Returns the count (srcs grows as needed). */
static uint32_t ge__st_sources(ge__st *s, uint32_t i, const uint32_t *first_of, ge__st_src **srcs, uint32_t *cap) {
  uint32_t m = 0, k, j, need = s->pred_start[i + 1] - s->pred_start[i] + 2;
  int32_t t = s->ls[i];
  ge__st_src *q;
  if (need > *cap) {
    if (!(q = (ge__st_src *)ge__st_alloc(s, need * 2 * sizeof *q))) return UINT32_MAX;
    ge__st_free(s, *srcs, *cap * sizeof **srcs);
    *srcs = q, *cap = need * 2;
  }
  q = *srcs;
  for (k = s->pred_start[i]; k < s->pred_start[i + 1]; k++, m++)
    q[m].step = s->preds[k], q[m].kind = GE__ST_SRC_DEPENDENCY, q[m].ge_kept = s->ge_kept[k];
  if (first_of[t] == i && s->streams[t].activated_by != GE_NONE)
    q[m].step = s->step[s->streams[t].activated_by], q[m].kind = GE__ST_SRC_ACTIVATION, q[m].ge_kept = 0, m++;
  if (s->split_prev && s->split_prev[i] != GE__ST_NO_STEP)
    q[m].step = s->split_prev[i], q[m].kind = GE__ST_SRC_SPLIT, q[m].ge_kept = 0, m++;
  if (m > 16) {
    qsort(q, m, sizeof *q, ge__st_src_cmp);
  } else {
    for (k = 1; k < m; k++) { /* insertion sort: few inputs */
      ge__st_src x = q[k];
      for (j = k; j > 0 && ge__st_src_before(&x, &q[j - 1]); j--) q[j] = q[j - 1];
      q[j] = x;
    }
  }
  return m;
}

/* Whether the edge from src to step x becomes an event, by the event mode
 * (repeated: an event from that node to x is already kept). The
 * comparison modes count dependencies between logical streams: inside one,
 * the split chain orders the pieces. */
static int ge__st_keep_event(const ge__st *s, const ge__st_src *src, int repeated, int covered, uint32_t x) {
  if (src->kind == GE__ST_SRC_ACTIVATION || repeated) return 0;
  if (src->kind == GE__ST_SRC_SPLIT || s->d->events == GE_STREAM_EVENTS_MINIMAL) return !covered;
  if (s->streams[s->ls[src->step]].logical == s->streams[s->ls[x]].logical) return 0;
  return s->d->events == GE_STREAM_EVENTS_ALL || src->ge_kept;
}

/* row = the entrywise maximum of row and other. Without a branch: which
 * entry is larger is data the branch predictor would miss. */
static void ge__st_clock_join(uint32_t *row, const uint32_t *other, uint32_t S) {
  uint32_t t;
  for (t = 0; t < S; t++) row[t] = other[t] > row[t] ? other[t] : row[t];
}

/* Vector clocks over the current assignment. The clock of node x says for
 * each stream t how many of t's nodes happen before or at x. Along a
 * stream the clocks differ only in the stream's own entry (the position),
 * except at a node that an event or an activation reaches: such a node,
 * and the first of each stream, gets a row of S entries, and every node
 * points to the last row of its stream up to it. So a node that waits for
 * nothing costs no row and no copy. s->clock (the plan's) holds the row of
 * each node id, then the rows.
 *
 * An input edge u -> x from another stream needs an event exactly when no
 * later-processed source already orders u before x: sources are taken
 * latest first, so an edge implied by a path through another source or by
 * the stream's previous node is seen as covered. The kept edges are the
 * cross-stream edges of the transitive reduction of (dependencies + stream
 * order + activations). */
static ge_status ge__st_events(ge__st *s) {
  uint32_t S = s->num_streams, i, t, cap = 0, num_rows = 0, *row_of = NULL, *rows = NULL;
  uint32_t *count = (uint32_t *)ge__st_zalloc(s, (S + 1) * sizeof *count);
  uint32_t *first_of = (uint32_t *)ge__st_alloc(s, (S + 1) * sizeof *first_of);
  uint32_t *last_row = (uint32_t *)ge__st_alloc(s, (S + 1) * sizeof *last_row); /* stream -> its latest row */
  ge__st_src *srcs = NULL;
  ge_status st = GE_OK;
  s->num_ev = 0;
  ge__st_free(s, s->clock, s->clock_bytes);
  s->clock = NULL, s->clock_bytes = 0;
  if (S > 0 && s->n > ((size_t)-1 / sizeof(uint32_t) - s->bound - 1) / S) { /* room for a row per node */
    st = ge__st_oom(s);
  } else {
    s->clock_bytes = ((size_t)s->bound + 1 + (size_t)s->n * S) * sizeof *s->clock;
    if (!(s->clock = (uint32_t *)ge__st_alloc(s, s->clock_bytes))) st = ge__st_oom(s);
  }
  if (!count || !first_of || !last_row) st = ge__st_oom(s);
  if (!st) {
    row_of = s->clock, rows = s->clock + s->bound;
    memset(s->sends, 0, ge__st_per_step(s, sizeof *s->sends)), memset(s->recvs, 0, ge__st_per_step(s, sizeof *s->recvs));
    for (t = 0; t < S; t++) first_of[t] = GE__ST_NO_STEP, last_row[t] = GE__ST_NO_STEP;
    for (i = s->n; i-- > 0;) first_of[s->ls[i]] = i;
  }
  for (i = 0; i < s->n && !st; i++) {
    int32_t k = s->ls[i];
    uint32_t m, j, kept_from = GE__ST_NO_STEP;
    uint32_t *row = NULL; /* its own row, once it needs one */
    const uint32_t *before = last_row[k] == GE__ST_NO_STEP ? NULL : rows + (size_t)last_row[k] * S; /* its stream's */
    s->pos[i] = count[k]++;
    if (!before) row = (uint32_t *)memset(rows + (size_t)num_rows++ * S, 0, S * sizeof *rows);
    if ((m = ge__st_sources(s, i, first_of, &srcs, &cap)) == UINT32_MAX) {
      st = ge__st_oom(s);
      break;
    }
    for (j = 0; j < m; j++) {
      uint32_t u = srcs[j].step;
      int32_t ku = s->ls[u];
      int covered, keep;
      if (ku == k) continue;
      covered = (row ? row : before)[ku] >= s->pos[u] + 1; /* stream order or a path already orders it */
      keep = ge__st_keep_event(s, &srcs[j], kept_from == u, covered, i);
      if (keep) {
        if ((st = ge__st_push_event(s, u, i))) break;
        kept_from = u;
        s->sends[u]++, s->recvs[i]++;
      }
      /* the clock follows what the plan realises: kept events and activations */
      if (!covered && (keep || srcs[j].kind == GE__ST_SRC_ACTIVATION)) {
        if (!row) row = (uint32_t *)memcpy(rows + (size_t)num_rows++ * S, before, S * sizeof *rows);
        ge__st_clock_join(row, rows + (size_t)row_of[s->order[u]] * S, S);
        if (row[ku] < s->pos[u] + 1) row[ku] = s->pos[u] + 1; /* u's own entry: its position, past its row's */
      }
    }
    if (row) row[k] = s->pos[i] + 1, last_row[k] = num_rows - 1;
    row_of[s->order[i]] = last_row[k];
  }
  ge__st_free(s, count, (S + 1) * sizeof *count), ge__st_free(s, first_of, (S + 1) * sizeof *first_of);
  ge__st_free(s, last_row, (S + 1) * sizeof *last_row), ge__st_free(s, srcs, cap * sizeof *srcs);
  return st;
}

/* What GE's send- and receive-side passes leave (§4.3.3), for comparison:
 * of the events a node sends to one stream only the earliest receiver's
 * stays; of those a node receives from one stream only the latest
 * sender's. Marks the dependencies that stay in s->ge_kept (every repeat
 * of one), counts them (*passes) and every cross-stream dependency between
 * distinct node pairs (*all). Linear: successor lists ascend, so the first
 * successor met on a stream is the earliest receiver there. */
static ge_status ge__st_count_ge_passes(ge__st *s, uint32_t *all, uint32_t *passes) {
  uint32_t S = s->num_streams, u, v, k, t;
  uint8_t *sent = (uint8_t *)ge__st_zalloc(s, ge__st_per_edge(s, 1)); /* preds entry -> stays on the send side */
  uint32_t *seen = (uint32_t *)ge__st_alloc(s, ge__st_per_step(s, sizeof *seen)); /* step -> receiver it last fed */
  uint32_t *stamp = (uint32_t *)ge__st_alloc(s, (S + 1) * sizeof *stamp);
  uint32_t *best = (uint32_t *)ge__st_alloc(s, (S + 1) * sizeof *best);
  ge_status st = GE_OK;
  *all = *passes = 0;
  s->ge_kept = (uint8_t *)ge__st_zalloc(s, ge__st_per_edge(s, 1));
  if (!sent || !seen || !stamp || !best || !s->ge_kept) {
    st = ge__st_oom(s);
    goto done;
  }
  /* send side: stamp[t] = u once u's earliest receiver on stream t was met */
  for (t = 0; t < S; t++) stamp[t] = GE__ST_NO_STEP;
  for (u = 0; u < s->n; u++)
    for (k = s->succ_start[u]; k < s->succ_start[u + 1]; k++) {
      t = (uint32_t)s->ls[s->succs[k]];
      if ((int32_t)t != s->ls[u] && stamp[t] != u) stamp[t] = u, sent[s->succ_edge[k]] = 1;
    }
  /* receive side: per receiver v, best[t] = its latest surviving sender on stream t (when stamp[t] = v) */
  for (t = 0; t < S; t++) stamp[t] = GE__ST_NO_STEP;
  for (v = 0; v < s->n; v++) seen[v] = GE__ST_NO_STEP;
  for (v = 0; v < s->n; v++) {
    for (k = s->pred_start[v]; k < s->pred_start[v + 1]; k++) {
      u = s->preds[k], t = (uint32_t)s->ls[u];
      if (s->ls[u] == s->ls[v]) continue;
      if (seen[u] != v) seen[u] = v, ++*all;
      if (!sent[k]) continue;
      if (stamp[t] != v) stamp[t] = v, best[t] = u, ++*passes;
      else if (u > best[t]) best[t] = u;
    }
    for (k = s->pred_start[v]; k < s->pred_start[v + 1]; k++) {
      u = s->preds[k], t = (uint32_t)s->ls[u];
      s->ge_kept[k] = s->ls[u] != s->ls[v] && stamp[t] == v && best[t] == u;
    }
  }
done:
  ge__st_free(s, sent, ge__st_per_edge(s, 1)), ge__st_free(s, seen, ge__st_per_step(s, sizeof *seen));
  ge__st_free(s, stamp, (S + 1) * sizeof *stamp), ge__st_free(s, best, (S + 1) * sizeof *best);
  return st;
}

/* ------------------------------------------------ physical split (§4.4) */

static int ge__st_same(const char *a, const char *b) { return a == b || (a && b && !strcmp(a, b)); }

static uint32_t ge__st_tasks(const ge__st *s, uint32_t i) { return 1 + s->sends[i] + s->recvs[i]; }

typedef struct ge__st_labelled {
  int32_t stream;
  const char *label;
  uint32_t step;
} ge__st_labelled;

static int ge__st_labelled_cmp(const void *x, const void *y) {
  const ge__st_labelled *p = (const ge__st_labelled *)x, *q = (const ge__st_labelled *)y;
  int c;
  if (p->stream != q->stream) return p->stream < q->stream ? -1 : 1;
  if ((c = strcmp(p->label, q->label))) return c;
  return p->step < q->step ? -1 : p->step > q->step;
}

/* span_end[i]: for a node with a continuous label, the step of the last
 * node of its stream with that label (the nodes between must stay on one
 * physical stream); else its own step. */
static ge_status ge__st_label_spans(ge__st *s, uint32_t *span_end) {
  ge__st_labelled *l;
  uint32_t m = 0, i, j;
  for (i = 0; i < s->n; i++) span_end[i] = i;
  for (i = 0; i < s->n; i++) m += ge__st_at(s, i)->continuous != NULL;
  if (!m) return GE_OK;
  if (!(l = (ge__st_labelled *)ge__st_alloc(s, m * sizeof *l))) return ge__st_oom(s);
  for (i = 0, m = 0; i < s->n; i++) {
    const char *c = ge__st_at(s, i)->continuous;
    if (c) l[m].stream = s->ls[i], l[m].label = c, l[m].step = i, m++;
  }
  qsort(l, m, sizeof *l, ge__st_labelled_cmp);
  for (i = 0; i < m; i = j) {
    for (j = i; j < m && l[j].stream == l[i].stream && !strcmp(l[j].label, l[i].label); j++) {}
    while (i < j) span_end[l[i++].step] = l[j - 1].step;
  }
  ge__st_free(s, l, m * sizeof *l);
  return GE_OK;
}

/* Splits streams over the task limit (tasks: nodes, event records and
 * waits of the logical plan). Each piece keeps `reserved` tasks free (at
 * least 2): the wait and the record of the events chaining it to the pieces
 * before and after. Nodes from the first to the last of a continuous label
 * (and of labels overlapping them) stay on one piece. */
static ge_status ge__st_split(ge__st *s) {
  uint32_t limit = s->d->task_limit, reserve = s->d->reserved_tasks > 2 ? s->d->reserved_tasks : 2, L = s->num_streams, i;
  size_t sz = ((size_t)L + 1) * sizeof(uint32_t), rows = ge__st_per_step(s, sizeof(uint32_t));
  uint32_t *cur = NULL, *cnt = NULL, *nodes = NULL, *total = NULL, *span_end = NULL, *span_open = NULL, *glue = NULL;
  uint32_t *last = NULL; /* stream -> its last step so far */
  ge_status st = GE_OK;
  if (!limit) return GE_OK;
  cur = (uint32_t *)ge__st_alloc(s, sz), cnt = (uint32_t *)ge__st_zalloc(s, sz), nodes = (uint32_t *)ge__st_zalloc(s, sz);
  total = (uint32_t *)ge__st_zalloc(s, sz), span_open = (uint32_t *)ge__st_zalloc(s, sz);
  last = (uint32_t *)ge__st_alloc(s, sz);
  span_end = (uint32_t *)ge__st_alloc(s, rows), glue = (uint32_t *)ge__st_alloc(s, rows);
  s->split_prev = (uint32_t *)ge__st_alloc(s, rows);
  if (!cur || !cnt || !nodes || !total || !span_open || !last || !span_end || !glue || !s->split_prev) {
    st = ge__st_oom(s);
    goto done;
  }
  if ((st = ge__st_label_spans(s, span_end))) goto done;
  /* glue[i]: tasks of the unsplittable nodes right after i on its
   * stream: they must join i's piece */
  for (i = 0; i < L; i++) last[i] = GE__ST_NO_STEP;
  for (i = s->n; i-- > 0;) {
    uint32_t next = last[s->ls[i]];
    glue[i] = next != GE__ST_NO_STEP && ge__st_is(s, next, GE__ST_F_UNSPLITTABLE) ? ge__st_tasks(s, next) + glue[next] : 0;
    last[s->ls[i]] = i;
  }
  for (i = 0; i < s->n; i++) s->split_prev[i] = GE__ST_NO_STEP;
  for (i = 0; i < L; i++) cur[i] = i, last[i] = GE__ST_NO_STEP;
  for (i = 0; i < s->n; i++) total[s->ls[i]] += ge__st_tasks(s, i);
  if (s->d->single_stream && L && total[0] > limit && total[0] <= s->d->huge_task_limit) s->streams[0].huge = 1;
  for (i = 0; i < s->n; i++) {
    int32_t k = s->ls[i];
    uint32_t need = ge__st_tasks(s, i) + glue[i], j, end = span_end[i];
    int in_span = nodes[k] > 0 && span_open[k] > i;
    if (!in_span && end > i) { /* a span starts: its tasks, widened by the labels inside it */
      for (j = i + 1; j <= end; j++) {
        if (s->ls[j] != k) continue;
        need += ge__st_tasks(s, j);
        if (span_end[j] > end) end = span_end[j];
      }
      if (need + reserve > limit) {
        st = ge_error_set(s->err, GE_ERR_INVALID,
                          "continuous stream label '%s' (from node '%s') needs %u tasks with its events; a stream "
                          "holds %u beside %u reserved",
                          ge__st_at(s, i)->continuous, ge__st_node(s, i)->name, (unsigned)need, (unsigned)limit,
                          (unsigned)reserve);
        goto done;
      }
    }
    if (!s->streams[k].huge && nodes[k] > 0 && !in_span && cnt[k] + need + reserve > limit &&
        !ge__st_is(s, i, GE__ST_F_UNSPLITTABLE)) {
      int32_t p = ge__st_new_stream(s, s->streams[k].kind, s->streams[k].engine, s->streams[k].label);
      if (p < 0) {
        st = ge__st_oom(s);
        goto done;
      }
      s->streams[p] = s->streams[k], s->streams[p].attached = 0;
      cur[k] = (uint32_t)p;
      s->split_prev[i] = last[k];
      cnt[k] = 0, nodes[k] = 0;
    }
    if (end > i && end > span_open[k]) span_open[k] = end + 1;
    s->ls[i] = (int32_t)cur[k];
    cnt[k] += ge__st_tasks(s, i), nodes[k]++;
    last[k] = i;
  }
done:
  ge__st_free(s, cur, sz), ge__st_free(s, cnt, sz), ge__st_free(s, nodes, sz), ge__st_free(s, total, sz);
  ge__st_free(s, span_open, sz), ge__st_free(s, last, sz);
  ge__st_free(s, span_end, rows), ge__st_free(s, glue, rows);
  return st;
}

/* ------------------------------------------------------ ids and the plan */

/* The events by sending step, then receiving step: they were found by
 * receiving step, so a stable counting sort by sending step orders them.
 * Returns the permutation (num_ev + 1 entries) or NULL. */
static uint32_t *ge__st_sort_events(ge__st *s) {
  uint32_t *start = (uint32_t *)ge__st_zalloc(s, ge__st_per_step(s, sizeof *start)), e;
  uint32_t *sorted = (uint32_t *)ge__st_alloc(s, ((size_t)s->num_ev + 1) * sizeof *sorted);
  if (start && sorted) {
    for (e = 0; e < s->num_ev; e++) start[s->ev_send[e]]++;
    ge__st_starts(start, s->n);
    for (e = 0; e < s->num_ev; e++) sorted[start[s->ev_send[e]]++] = e;
  } else {
    ge__st_free(s, sorted, ((size_t)s->num_ev + 1) * sizeof *sorted);
    sorted = NULL;
  }
  ge__st_free(s, start, ge__st_per_step(s, sizeof *start));
  return sorted;
}

/* The batch label shared by both ends of event e, or NULL. */
static const char *ge__st_event_batch(const ge__st *s, uint32_t e) {
  const char *b = ge__st_at(s, s->ev_send[e])->batch;
  return b && ge__st_same(b, ge__st_at(s, s->ev_recv[e])->batch) ? b : NULL;
}

/* Events sorted by sender then receiver; ids continuous from 0 (§4.3.5),
 * and events inside one multi-dims batch label numbered per label after the
 * shared ones, so branches that never run together share ids (§4.3.4). */
static ge_status ge__st_number_events(ge__st *s, ge_stream_plan *plan) {
  uint32_t i, shared = 0, most = 0, *sorted;
  ge_stream_event *ev;
  ge__st_map m;
  if (!(ev = (ge_stream_event *)ge__st_alloc(s, ((size_t)s->num_ev + 1) * sizeof *ev))) return ge__st_oom(s);
  if (!(sorted = ge__st_sort_events(s))) {
    ge__st_free(s, ev, ((size_t)s->num_ev + 1) * sizeof *ev);
    return ge__st_oom(s);
  }
  memset(&m, 0, sizeof m);
  for (i = 0; i < s->num_ev; i++) {
    uint32_t e = sorted[i];
    ev[i].send_node = s->order[s->ev_send[e]], ev[i].recv_node = s->order[s->ev_recv[e]];
    ev[i].send_stream = s->ls[s->ev_send[e]], ev[i].recv_stream = s->ls[s->ev_recv[e]];
    if (!ge__st_event_batch(s, e)) ev[i].id = shared++;
  }
  for (i = 0; i < s->num_ev; i++) { /* batch-labelled events after the shared ones */
    const char *b = ge__st_event_batch(s, sorted[i]);
    int32_t k;
    if (!b) continue;
    k = ge__st_map_get(&m, b);
    if (k < 0) k = 0;
    ev[i].id = shared + (uint32_t)k;
    if ((uint32_t)k + 1 > most) most = (uint32_t)k + 1;
    if (ge__st_map_put(s, &m, b, k + 1)) {
      ge__st_map_free(s, &m);
      ge__st_free(s, sorted, ((size_t)s->num_ev + 1) * sizeof *sorted);
      ge__st_free(s, ev, ((size_t)s->num_ev + 1) * sizeof *ev);
      return ge__st_oom(s);
    }
  }
  ge__st_map_free(s, &m);
  ge__st_free(s, sorted, ((size_t)s->num_ev + 1) * sizeof *sorted);
  plan->events = ev, plan->num_events = s->num_ev, plan->num_event_ids = shared + most;
  if (s->d->notify && plan->num_event_ids > 1024)
    return ge_error_set(s->err, GE_ERR_UNSUPPORTED, "notify mode supports at most 1024 notifies; graph '%s' needs %u",
                        ge_graph_name(s->g), (unsigned)plan->num_event_ids);
  return GE_OK;
}

static ge_status ge__st_fill_plan(ge__st *s, ge_stream_plan *plan) {
  uint32_t S = s->num_streams, i, off = 0;
  size_t rows = (size_t)s->bound + 1;
  ge_node_id *nodes, id;
  plan->num_streams = S;
  plan->streams = (ge_stream_info *)ge__st_zalloc(s, ((size_t)S + 1) * sizeof *plan->streams);
  /* the streams' node lists share one block, which plan_free finds through
   * the first stream (an empty graph has none) */
  nodes = S ? (ge_node_id *)ge__st_alloc(s, ge__st_per_step(s, sizeof *nodes)) : NULL;
  plan->node_stream = (int32_t *)ge__st_alloc(s, rows * sizeof *plan->node_stream);
  plan->position = (uint32_t *)ge__st_alloc(s, rows * sizeof *plan->position);
  if (!plan->streams || (S && !nodes) || !plan->node_stream || !plan->position) {
    ge__st_free(s, nodes, ge__st_per_step(s, sizeof *nodes));
    return ge__st_oom(s);
  }
  for (i = 0; i < s->n; i++) plan->streams[s->ls[i]].num_nodes++;
  for (i = 0; i < S; i++) {
    ge_stream_info *f = &plan->streams[i];
    const ge__st_stream *x = &s->streams[i];
    f->nodes = nodes + off, off += f->num_nodes, f->num_nodes = 0;
    f->logical = x->logical, f->label = x->label, f->activated_by = x->activated_by;
    f->attached = x->attached, f->hccl = x->hccl, f->huge = x->huge;
  }
  memset(plan->node_stream, 0xff, rows * sizeof *plan->node_stream);
  for (i = 0; i < s->n; i++) {
    ge_stream_info *f = &plan->streams[s->ls[i]];
    id = s->order[i];
    f->nodes[f->num_nodes++] = id;
    f->num_tasks += ge__st_tasks(s, i);
    plan->node_stream[id] = s->ls[i];
    plan->position[id] = s->pos[i];
  }
  for (id = 0; id < s->bound; id++) /* in id order: the nodes' order in memory */
    if (plan->node_stream[id] >= 0) ge_graph_node(s->g, id)->stream = plan->node_stream[id];
  plan->clock = s->clock, plan->clock_bytes = s->clock_bytes, s->clock = NULL;
  plan->id_bound = s->bound;
  return GE_OK;
}

/* Whether some node has an output of dynamic shape (or the graph was
 * partitioned so). */
static int ge__st_graph_dynamic(ge__st *s) {
  const ge_attr *a = ge_graph_attr(s->g, "_dynamic_shape_partitioned");
  uint32_t id, k;
  if (a && a->type == GE_ATTR_INT && a->v.i) return 1;
  for (id = 0; id < s->bound; id++) {
    const ge_node *x = ge_graph_node(s->g, id);
    for (k = 0; x && k < x->num_outputs; k++)
      if (x->outputs[k].dtype != GE_DTYPE_UNDEFINED && !ge_shape_is_static(&x->outputs[k].shape)) return 1;
  }
  return 0;
}

/* Logical streams: single stream, the dynamic strategy or the static pass
 * chain (§4.1.1). */
static ge_status ge__st_logical(ge__st *s, ge_stream_plan *plan) {
  ge_status st;
  if (s->d->single_stream) {
    uint32_t i;
    if ((st = ge__st_pass_labels(s, GE__ST_LABEL))) return st; /* a label is an error here */
    if (ge__st_new_stream(s, GE__ST_MAIN, -1, NULL) < 0) return ge__st_oom(s);
    for (i = 0; i < s->n; i++) s->ls[i] = 0;
    return GE_OK;
  }
  if (plan->dynamic) return ge__st_dynamic(s);
  if ((st = ge__st_pass_mde(s)) || (st = ge__st_pass_labels(s, GE__ST_LABEL)) || (st = ge__st_pass_independent(s)) ||
      (st = ge__st_pass_dependency(s)) || (st = ge__st_pass_unassigned(s, -1)))
    return st;
  if (s->n) ge__st_pass_node_update(s, s->ls[0]);
  if ((st = ge__st_pass_parallel_groups(s))) return st;
  if (s->d->hcom_parallel && (st = ge__st_pass_allreduce(s))) return st;
  ge__st_pass_skipped_engine(s);
  return ge__st_pass_ineffective(s);
}

static void ge__st_cleanup(ge__st *s) {
  ge__st_free(s, s->order, ge__st_per_step(s, sizeof *s->order));
  ge__st_free(s, s->step, ((size_t)s->bound + 1) * sizeof *s->step);
  ge__st_free(s, s->steps, ge__st_per_step(s, sizeof *s->steps));
  ge__st_free(s, s->attrs, s->cap_attrs * sizeof *s->attrs);
  ge__st_free(s, s->pred_start, ge__st_per_step(s, sizeof *s->pred_start));
  ge__st_free(s, s->preds, ge__st_per_edge(s, sizeof *s->preds));
  ge__st_free(s, s->succ_start, ge__st_per_step(s, sizeof *s->succ_start));
  ge__st_free(s, s->succs, ge__st_per_edge(s, sizeof *s->succs));
  ge__st_free(s, s->succ_edge, ge__st_per_edge(s, sizeof *s->succ_edge));
  ge__st_free(s, s->ls, ge__st_per_step(s, sizeof *s->ls));
  ge__st_free(s, s->streams, s->cap_streams * sizeof *s->streams);
  ge__st_free(s, s->ev_send, s->cap_ev * sizeof *s->ev_send);
  ge__st_free(s, s->ev_recv, s->cap_ev * sizeof *s->ev_recv);
  ge__st_free(s, s->clock, s->clock_bytes);
  ge__st_free(s, s->pos, ge__st_per_step(s, sizeof *s->pos));
  ge__st_free(s, s->sends, ge__st_per_step(s, sizeof *s->sends));
  ge__st_free(s, s->recvs, ge__st_per_step(s, sizeof *s->recvs));
  ge__st_free(s, s->split_prev, ge__st_per_step(s, sizeof *s->split_prev));
  ge__st_free(s, s->ge_kept, ge__st_per_edge(s, 1));
}

/* What the plan decided, for the desc's logger. */
static void ge__st_log_plan(const ge_graph *g, const ge_stream_plan *p, const ge_logger *l) {
  uint32_t i, k;
  ge_log(l, GE_LOG_INFO, "stream", "%u streams (%u logical, %u attached), %u events, %s", (unsigned)p->num_streams,
         (unsigned)p->num_logical, (unsigned)p->num_attached, (unsigned)p->num_events,
         p->single_stream ? "single-stream mode" : p->dynamic ? "dynamic-shape strategy" : "static pass chain");
  if (!GE_LOG_ON(l, GE_LOG_DEBUG)) return;
  for (i = 0; i < p->num_streams; i++)
    for (k = 0; k < p->streams[i].num_nodes; k++)
      ge_log(l, GE_LOG_DEBUG, "stream", "node '%s': stream %u", ge_graph_node(g, p->streams[i].nodes[k])->name,
             (unsigned)i);
  for (i = 0; i < p->num_events; i++)
    ge_log(l, GE_LOG_DEBUG, "stream", "event %u: '%s' (stream %d) -> '%s' (stream %d)", (unsigned)p->events[i].id,
           ge_graph_node(g, p->events[i].send_node)->name, (int)p->events[i].send_stream,
           ge_graph_node(g, p->events[i].recv_node)->name, (int)p->events[i].recv_stream);
}

GE_API ge_status ge_stream_allocate(ge_graph *g, const ge_stream_desc *desc, ge_stream_plan *plan, ge_error *err) {
  ge_stream_desc zero;
  ge__st s;
  ge_status st;
  if (!plan) return ge_error_set(err, GE_ERR_INVALID, "ge_stream_allocate: plan is NULL");
  memset(plan, 0, sizeof *plan);
  if (!g) return ge_error_set(err, GE_ERR_INVALID, "ge_stream_allocate: graph is NULL");
  if (!desc) memset(&zero, 0, sizeof zero), desc = &zero;
  if ((unsigned)desc->events > GE_STREAM_EVENTS_ALL)
    return ge_error_set(err, GE_ERR_INVALID, "stream allocation: unknown event mode %d", (int)desc->events);
  if (desc->task_limit && desc->task_limit <= (desc->reserved_tasks > 2 ? desc->reserved_tasks : 2))
    return ge_error_set(err, GE_ERR_INVALID, "stream allocation: task limit %u leaves no room beside %u reserved tasks",
                        (unsigned)desc->task_limit, (unsigned)(desc->reserved_tasks > 2 ? desc->reserved_tasks : 2));
  memset(&s, 0, sizeof s);
  s.g = g, s.d = desc, s.err = err;
  s.a = desc->allocator.alloc ? desc->allocator : *ge_graph_allocator(g);
  s.a = ge_allocator_or_default(&s.a);
  plan->allocator = s.a;
  s.bound = ge_graph_id_bound(g), s.n = ge_graph_node_count(g);
  plan->id_bound = s.bound; /* plan arrays are sized by it, also when freed after a failure */
  s.max_parallel = desc->max_parallel ? desc->max_parallel : 8;
  s.ls = (int32_t *)ge__st_alloc(&s, ge__st_per_step(&s, sizeof *s.ls));
  s.pos = (uint32_t *)ge__st_alloc(&s, ge__st_per_step(&s, sizeof *s.pos));
  s.sends = (uint32_t *)ge__st_alloc(&s, ge__st_per_step(&s, sizeof *s.sends));
  s.recvs = (uint32_t *)ge__st_alloc(&s, ge__st_per_step(&s, sizeof *s.recvs));
  if (!s.ls || !s.pos || !s.sends || !s.recvs) st = ge__st_oom(&s);
  else if (!(st = ge__st_prepare(&s))) {
    memset(s.ls, 0xff, ge__st_per_step(&s, sizeof *s.ls));
    plan->dynamic = desc->dynamic == 0 ? ge__st_graph_dynamic(&s) : desc->dynamic > 0;
    plan->single_stream = desc->single_stream != 0, plan->notify = desc->notify != 0;
    if (!(st = ge__st_logical(&s, plan)) && !(st = ge__st_renumber(&s))) {
      ge__st_activation(&s);
      if (!(st = ge__st_attached(&s, plan)) && !(st = ge__st_count_ge_passes(&s, &plan->events_all, &plan->events_ge_passes)) &&
          !(st = ge__st_events(&s))) {
        plan->num_logical = s.num_streams;
        /* a split adds streams: the events are found again over them */
        if (!(st = ge__st_split(&s)) && (s.num_streams == plan->num_logical || !(st = ge__st_events(&s))) &&
            !(st = ge__st_number_events(&s, plan)))
          st = ge__st_fill_plan(&s, plan);
      }
    }
  }
  ge__st_cleanup(&s);
  if (st) ge_stream_plan_free(plan);
  else ge__st_log_plan(g, plan, &desc->logger);
  return st;
}

GE_API void ge_stream_plan_free(ge_stream_plan *plan) {
  ge_allocator a;
  size_t rows;
  if (!plan || !plan->allocator.free) return;
  a = plan->allocator;
  rows = (size_t)plan->id_bound + 1;
  if (plan->streams) {
    uint32_t i, total = 0;
    for (i = 0; i < plan->num_streams; i++) total += plan->streams[i].num_nodes;
    if (plan->num_streams && plan->streams[0].nodes) a.free(a.user, plan->streams[0].nodes, ((size_t)total + 1) * sizeof(ge_node_id));
    a.free(a.user, plan->streams, ((size_t)plan->num_streams + 1) * sizeof *plan->streams);
  }
  if (plan->events) a.free(a.user, plan->events, ((size_t)plan->num_events + 1) * sizeof *plan->events);
  if (plan->attached_stream) a.free(a.user, plan->attached_stream, rows * sizeof(int32_t));
  if (plan->node_stream) a.free(a.user, plan->node_stream, rows * sizeof(int32_t));
  if (plan->position) a.free(a.user, plan->position, rows * sizeof(uint32_t));
  if (plan->clock) a.free(a.user, plan->clock, plan->clock_bytes);
  memset(plan, 0, sizeof *plan);
}

GE_API int ge_stream_happens_before(const ge_stream_plan *plan, ge_node_id a, ge_node_id b) {
  int32_t sa, sb;
  const uint32_t *row;
  if (!plan || !plan->clock || a == b || a >= plan->id_bound || b >= plan->id_bound) return 0;
  if ((sa = plan->node_stream[a]) < 0 || (sb = plan->node_stream[b]) < 0) return 0;
  if (sa == sb) return plan->position[a] < plan->position[b];
  /* clock: the row of each node id, then the rows (ge__st_events) */
  row = plan->clock + plan->id_bound + (size_t)plan->clock[b] * plan->num_streams;
  return row[sa] >= plan->position[a] + 1;
}

GE_API int ge_stream_order(void *plan, ge_node_id a, ge_node_id b) {
  return ge_stream_happens_before((const ge_stream_plan *)plan, a, b);
}

/* ------------------------------------------------ event nodes (§4.6) */

static ge_status ge__st_add_sync(ge_graph *g, const char *op, int32_t stream, uint32_t event, ge_node_id *out, ge_error *err) {
  ge_status st = ge_graph_add_node(g, op, NULL, 0, NULL, 0, out, err);
  if (st) return st;
  ge_graph_node(g, *out)->stream = stream;
  return ge_node_set_attr_int(g, *out, "event_id", (int64_t)event, err);
}

GE_API ge_status ge_stream_generate_nodes(ge_graph *g, const ge_stream_plan *plan, ge_error *err) {
  ge_allocator a = ge_allocator_or_default(ge_graph_allocator(g));
  uint32_t i, k;
  for (i = 0; i < plan->num_events; i++) {
    const ge_stream_event *e = &plan->events[i];
    ge_node_id send, recv;
    ge_status st;
    if ((st = ge__st_add_sync(g, "Send", e->send_stream, e->id, &send, err)) ||
        (st = ge__st_add_sync(g, "Recv", e->recv_stream, e->id, &recv, err)) ||
        (st = ge_graph_add_control(g, e->send_node, send, err)) || (st = ge_graph_add_control(g, send, recv, err)) ||
        (st = ge_graph_add_control(g, recv, e->recv_node, err)))
      return st;
  }
  /* StreamActive nodes: the physical streams they activate */
  for (i = 0; i < plan->id_bound; i++) {
    ge_node *x = ge_graph_node(g, i);
    int64_t *ids;
    uint32_t m = 0;
    ge_status st;
    if (!x || strcmp(x->op, "StreamActive")) continue;
    for (k = 0; k < plan->num_streams; k++) m += plan->streams[k].activated_by == x->id;
    if (!m) continue;
    ids = (int64_t *)a.alloc(a.user, m * sizeof *ids);
    if (!ids) return ge_error_set(err, GE_ERR_NOMEM, "out of memory");
    for (k = 0, m = 0; k < plan->num_streams; k++)
      if (plan->streams[k].activated_by == x->id) ids[m++] = k;
    st = ge_node_set_attr_ints(g, x->id, "active_streams", ids, (int32_t)m, err);
    a.free(a.user, ids, m * sizeof *ids);
    if (st) return st;
  }
  return GE_OK;
}

#ifdef __cplusplus
}
#endif
#endif /* GE_STREAM_IMPLEMENTATION_DONE */
#endif /* GE_STREAM_IMPLEMENTATION */

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

typedef struct ge__st_stream {
  int32_t engine;        /* the engine it was made for (-1 none) */
  const char *label;
  uint8_t kind, hccl, attached, huge;
  ge_node_id tail;       /* last node given to it so far (dependency pass) */
  uint32_t tail_step;
  uint32_t first_step;   /* step of its first node (UINT32_MAX: empty) */
  ge_node_id activated_by;
  int32_t logical;       /* physical streams: the logical stream */
} ge__st_stream;

/* A string -> int map (labels), open addressing. */
typedef struct ge__st_map {
  const char **keys;
  int32_t *vals;
  uint32_t cap, count;
} ge__st_map;

typedef struct ge__st {
  ge_graph *g;
  const ge_stream_desc *d;
  ge_allocator a;
  ge_error *err;
  uint32_t bound, n;
  ge_node_id *order;
  uint32_t *step;        /* node id -> position in order */
  int32_t *ls;           /* node id -> stream (logical, later physical) */
  ge__st_stream *streams;
  uint32_t num_streams, cap_streams;
  uint32_t max_parallel;
  /* events as found on the current assignment */
  ge_node_id *ev_send, *ev_recv;
  uint32_t num_ev, cap_ev;
  uint32_t *clock;       /* bound x num_streams, by node id */
  size_t clock_bytes;
  uint32_t *pos;         /* node id -> index in its stream */
  uint32_t *sends, *recvs; /* node id -> event records / waits */
  uint32_t *split_prev;  /* node id -> the node closing the previous piece (GE_NONE) */
  struct ge__st_pair *ge_kept; /* the pairs GE's passes keep, sorted */
  uint32_t num_ge_kept;
  size_t ge_kept_bytes;
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

static const ge_engine *ge__st_engine(const ge__st *s, const ge_node *n) {
  if (!s->d->engines || n->engine < 0 || (uint32_t)n->engine >= s->d->num_engines) return NULL;
  return s->d->engines[n->engine];
}
static uint32_t ge__st_eflags(const ge__st *s, const ge_node *n) {
  const ge_engine *e = ge__st_engine(s, n);
  return e ? e->flags : 0;
}
static int ge__st_op(const ge_node *n, const char *op) { return !strcmp(n->op, op); }
static ge_node *ge__st_node(const ge__st *s, ge_node_id id) { return ge_graph_node(s->g, id); }

static const char *ge__st_label(const ge_node *n) {
  const char *l = ge_node_attr_string(n, GE_STREAM_ATTR_USER_LABEL, NULL);
  if (l && *l) return l;
  l = ge_node_attr_string(n, GE_STREAM_ATTR_LABEL, NULL);
  return l && *l ? l : NULL;
}

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
  x->tail = GE_NONE, x->first_step = UINT32_MAX, x->activated_by = GE_NONE, x->logical = (int32_t)s->num_streams;
  return (int32_t)s->num_streams++;
}

static ge_status ge__st_oom(ge__st *s) {
  return ge_error_set(s->err, GE_ERR_NOMEM, "out of memory allocating streams of '%s'", ge_graph_name(s->g));
}

/* Runs the statements for every data and control predecessor p of x (and
 * successor q): absent inputs skipped, repeats not. */
#define GE__ST_FOR_PREDS(s, x, p, ...)                                             \
  do {                                                                               \
    uint32_t ge__k;                                                                  \
    for (ge__k = 0; ge__k < (x)->num_inputs + (x)->num_control_inputs; ge__k++) {   \
      ge_node_id p = ge__k < (x)->num_inputs ? (x)->inputs[ge__k].node                \
                                             : (x)->control_inputs[ge__k - (x)->num_inputs]; \
      if (p == GE_NONE) continue;                                                    \
      __VA_ARGS__                                                                    \
    }                                                                                \
  } while (0)
#define GE__ST_FOR_SUCCS(s, x, q, ...)                                            \
  do {                                                                               \
    uint32_t ge__k;                                                                  \
    for (ge__k = 0; ge__k < (x)->num_uses + (x)->num_control_outputs; ge__k++) {    \
      ge_node_id q = ge__k < (x)->num_uses ? (x)->uses[ge__k].node                    \
                                           : (x)->control_outputs[ge__k - (x)->num_uses]; \
      __VA_ARGS__                                                                    \
    }                                                                                \
  } while (0)

/* The execution order: the caller's (checked to be topological) or a sort. */
static ge_status ge__st_order(ge__st *s) {
  uint32_t i;
  s->order = (ge_node_id *)ge__st_alloc(s, (s->n + 1) * sizeof *s->order);
  s->step = (uint32_t *)ge__st_alloc(s, (s->bound + 1) * sizeof *s->step);
  if (!s->order || !s->step) return ge__st_oom(s);
  if (!s->d->order) {
    ge_status st = ge_graph_topo_sort(s->g, GE_TOPO_BFS, s->order, s->err);
    if (st) return st;
  } else {
    memcpy(s->order, s->d->order, s->n * sizeof *s->order);
  }
  for (i = 0; i < s->bound; i++) s->step[i] = UINT32_MAX;
  for (i = 0; i < s->n; i++) {
    ge_node_id id = s->order[i];
    if (id >= s->bound || !ge__st_node(s, id) || s->step[id] != UINT32_MAX)
      return ge_error_set(s->err, GE_ERR_INVALID, "stream allocation: order entry %u (node id %u) is not a node or repeats one",
                          (unsigned)i, (unsigned)id);
    s->step[id] = i;
  }
  for (i = 0; i < s->n; i++) {
    ge_node *x = ge__st_node(s, s->order[i]);
    GE__ST_FOR_PREDS(s, x, p, {
      if (s->step[p] >= i)
        return ge_error_set(s->err, GE_ERR_INVALID, "stream allocation: the order puts '%s' before its input '%s'",
                            x->name, ge__st_node(s, p)->name);
    });
  }
  return GE_OK;
}

/* ------------------------------------------------ static pass chain (§4.1) */

/* MDE groups: one stream per _new_stream_id value. */
static ge_status ge__st_pass_mde(ge__st *s) {
  int32_t *ids = NULL, *sid = NULL;
  uint32_t num = 0, cap = 0, i, k;
  ge_status st = GE_OK;
  for (i = 0; i < s->n && st == GE_OK; i++) {
    ge_node *x = ge__st_node(s, s->order[i]);
    const ge_attr *at = ge_node_attr(x, GE_STREAM_ATTR_NEW_STREAM_ID);
    if (!at || at->type != GE_ATTR_INT) continue;
    for (k = 0; k < num && ids[k] != (int32_t)at->v.i; k++) {}
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
      ids[num] = (int32_t)at->v.i;
      if ((sid[num] = ge__st_new_stream(s, GE__ST_MDE, x->engine, NULL)) < 0) st = ge__st_oom(s);
      num++;
    }
    s->ls[x->id] = sid[k];
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
    ge_node *x = ge__st_node(s, s->order[i]);
    const char *l = ge__st_label(x);
    int32_t id;
    if (!l || s->ls[x->id] >= 0) continue;
    if (s->d->single_stream) {
      st = ge_error_set(s->err, GE_ERR_INVALID,
                        "single-stream mode does not support stream labels: node '%s' has label '%s'", x->name, l);
      break;
    }
    if ((id = ge__st_map_get(&m, l)) < 0) {
      if ((id = ge__st_new_stream(s, kind, x->engine, l)) < 0 || ge__st_map_put(s, &m, l, id)) st = ge__st_oom(s);
    }
    s->ls[x->id] = id;
    if (ge__st_eflags(s, x) & GE_ENGINE_INDEPENDENT) s->streams[id].hccl = 1;
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
    ge_node *x = ge__st_node(s, s->order[i]);
    int32_t *slot;
    if (s->ls[x->id] >= 0 || !(ge__st_eflags(s, x) & GE_ENGINE_INDEPENDENT)) continue;
    slot = &per_engine[(uint32_t)x->engine % 64];
    if (*slot < 0 || s->streams[*slot].engine != x->engine) {
      if ((*slot = ge__st_new_stream(s, GE__ST_INDEPENDENT, x->engine, NULL)) < 0) return ge__st_oom(s);
      s->streams[*slot].hccl = 1;
    }
    s->ls[x->id] = *slot;
  }
  return GE_OK;
}

static int ge__st_skipped(const ge__st *s, const ge_node *x) {
  return (ge__st_eflags(s, x) & GE_ENGINE_SKIP_ASSIGN_STREAM) != 0;
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
  size_t rows = (size_t)s->bound + 1;
  uint32_t *depth = (uint32_t *)ge__st_zalloc(s, rows * sizeof *depth), i;
  ge_node_id *via = (ge_node_id *)ge__st_alloc(s, rows * sizeof *via); /* skipped node -> assigned node behind it */
  uint32_t per_engine[65];
  if (!depth || !via) {
    ge__st_free(s, depth, rows * sizeof *depth), ge__st_free(s, via, rows * sizeof *via);
    return ge__st_oom(s);
  }
  memset(per_engine, 0, sizeof per_engine);
  for (i = 0; i < s->num_streams; i++)
    if (s->streams[i].kind == GE__ST_DEPENDENCY) per_engine[(uint32_t)(s->streams[i].engine + 1) % 65]++;
  for (i = 0; i < s->n; i++) {
    ge_node *x = ge__st_node(s, s->order[i]);
    uint32_t flags = ge__st_eflags(s, x), d = 0, *count, best_depth = 0;
    int32_t best = -1, id = x->id, skipped = s->ls[id] < 0 && ge__st_skipped(s, x);
    ge_node_id best_node = GE_NONE;
    GE__ST_FOR_PREDS(s, x, p, {
      ge_node_id c = s->ls[p] >= 0 ? p : via[p];
      int32_t sp = c == GE_NONE ? -1 : s->ls[c];
      if (depth[p] + 1 > d) d = depth[p] + 1;
      if (sp >= 0 && s->streams[sp].kind == GE__ST_DEPENDENCY && s->streams[sp].tail == c &&
          (skipped || s->streams[sp].engine == x->engine || (flags & GE_ENGINE_ATTACH)) &&
          (best < 0 || depth[c] > best_depth || (depth[c] == best_depth && sp < best)))
        best = sp, best_depth = depth[c], best_node = c;
    });
    depth[id] = d;
    via[id] = skipped ? best_node : GE_NONE;
    if (s->ls[id] >= 0 || skipped) continue;
    count = &per_engine[(uint32_t)(x->engine + 1) % 65];
    if (best < 0 && *count < s->max_parallel) {
      if ((best = ge__st_new_stream(s, GE__ST_DEPENDENCY, x->engine, NULL)) < 0) {
        ge__st_free(s, depth, rows * sizeof *depth), ge__st_free(s, via, rows * sizeof *via);
        return ge__st_oom(s);
      }
      ++*count;
    } else if (best < 0) {
      uint32_t k;
      for (k = 0; k < s->num_streams; k++) {
        const ge__st_stream *c = &s->streams[k];
        if (c->kind == GE__ST_DEPENDENCY && c->engine == x->engine &&
            (best < 0 || c->tail_step < s->streams[best].tail_step))
          best = (int32_t)k;
      }
    }
    s->ls[id] = best;
    s->streams[best].tail = (ge_node_id)id, s->streams[best].tail_step = i;
  }
  ge__st_free(s, depth, rows * sizeof *depth), ge__st_free(s, via, rows * sizeof *via);
  return GE_OK;
}

/* A node not given a stream yet (skipped engines, nodes of no engine) takes
 * its first consumer's stream, else its last producer's, else `fallback`.
 * Consumers are looked at in reverse order so chains of such nodes follow
 * the stream that finally uses them. */
static ge_status ge__st_pass_unassigned(ge__st *s, int32_t fallback) {
  uint32_t i;
  for (i = s->n; i-- > 0;) {
    ge_node *x = ge__st_node(s, s->order[i]);
    uint32_t best = UINT32_MAX;
    if (s->ls[x->id] >= 0) continue;
    GE__ST_FOR_SUCCS(s, x, q, {
      if (s->ls[q] >= 0 && !s->streams[s->ls[q]].hccl && s->step[q] < best) best = s->step[q], s->ls[x->id] = s->ls[q];
    });
  }
  for (i = 0; i < s->n; i++) {
    ge_node *x = ge__st_node(s, s->order[i]);
    uint32_t best = 0;
    int found = 0;
    if (s->ls[x->id] >= 0) continue;
    GE__ST_FOR_PREDS(s, x, p, {
      if (s->ls[p] >= 0 && !s->streams[s->ls[p]].hccl && (!found || s->step[p] > best))
        best = s->step[p], found = 1, s->ls[x->id] = s->ls[p];
    });
    if (!found) {
      if (fallback < 0 && (fallback = ge__st_new_stream(s, GE__ST_MAIN, -1, NULL)) < 0) return ge__st_oom(s);
      s->ls[x->id] = fallback;
    }
  }
  return GE_OK;
}

/* RTS label nodes run on the parent stream: stream 0 at this level. */
static void ge__st_pass_node_update(ge__st *s, int32_t parent) {
  uint32_t i;
  for (i = 0; i < s->n; i++) {
    ge_node *x = ge__st_node(s, s->order[i]);
    if (ge_node_attr_int(x, GE_STREAM_ATTR_RTS_LABEL_NODE, 0)) s->ls[x->id] = parent;
  }
}

/* Parallel groups: a new stream per group; an independent-engine node of
 * group "-1" with one input stays on its input's stream. */
static ge_status ge__st_pass_parallel_groups(ge__st *s) {
  ge__st_map m;
  uint32_t i;
  ge_status st = GE_OK;
  memset(&m, 0, sizeof m);
  for (i = 0; i < s->n && st == GE_OK; i++) {
    ge_node *x = ge__st_node(s, s->order[i]);
    const char *grp = ge_node_attr_string(x, GE_STREAM_ATTR_PARALLEL_GROUP, NULL);
    int32_t id;
    if (!grp || !*grp) continue;
    if (!strcmp(grp, "-1") && (ge__st_eflags(s, x) & GE_ENGINE_INDEPENDENT) && x->num_inputs == 1 &&
        x->inputs[0].node != GE_NONE) {
      s->ls[x->id] = s->ls[x->inputs[0].node];
      continue;
    }
    if ((id = ge__st_map_get(&m, grp)) < 0) {
      if ((id = ge__st_new_stream(s, GE__ST_GROUP, x->engine, NULL)) < 0 || ge__st_map_put(s, &m, grp, id))
        st = ge__st_oom(s);
    }
    s->ls[x->id] = id;
  }
  ge__st_map_free(s, &m);
  return st;
}

static int ge__st_is_hcom(const ge__st *s, const ge_node *x) {
  return (ge__st_eflags(s, x) & GE_ENGINE_INDEPENDENT) || ge__st_op(x, "AllReduce") || ge__st_op(x, "Broadcast") ||
         ge__st_op(x, "AllGather") || ge__st_op(x, "ReduceScatter");
}

/* AllReduce parallelism: the non-HCOM nodes reached from an AllReduce
 * (stopping at HCOM nodes) move to new streams, one per stream they were
 * on, so gradient reduction and the updates after it overlap the rest of
 * the backward pass. */
static ge_status ge__st_pass_allreduce(ge__st *s) {
  uint32_t old = s->num_streams, i, k;
  int32_t *remap = (int32_t *)ge__st_alloc(s, (old + 1) * sizeof *remap);
  uint8_t *mark = (uint8_t *)ge__st_zalloc(s, s->bound + 1);
  ge_status st = GE_OK;
  if (!remap || !mark) st = ge__st_oom(s);
  for (k = 0; k < old && remap; k++) remap[k] = -1;
  /* in order, a node is marked when an AllReduce or a marked non-HCOM node feeds it */
  for (i = 0; i < s->n && st == GE_OK; i++) {
    ge_node *x = ge__st_node(s, s->order[i]);
    int fed = 0;
    if (ge__st_is_hcom(s, x) || ge__st_skipped(s, x)) continue;
    for (k = 0; k < x->num_inputs && !fed; k++) {
      ge_node *p = x->inputs[k].node == GE_NONE ? NULL : ge__st_node(s, x->inputs[k].node);
      if (p && ((ge__st_op(p, "AllReduce") && ge__st_is_hcom(s, p)) || mark[p->id])) fed = 1;
    }
    if (!fed) continue;
    mark[x->id] = 1;
    {
      int32_t from = s->ls[x->id];
      if (from < 0 || (uint32_t)from >= old) continue;
      if (remap[from] < 0 && (remap[from] = ge__st_new_stream(s, GE__ST_MOVED, x->engine, NULL)) < 0) st = ge__st_oom(s);
      s->ls[x->id] = remap[from];
    }
  }
  ge__st_free(s, remap, (old + 1) * sizeof *remap);
  ge__st_free(s, mark, s->bound + 1);
  return st;
}

/* The one stream all of x's neighbours are on, or -1. */
static int32_t ge__st_neighbour_stream(const ge__st *s, const ge_node *x) {
  int32_t only = -1;
  int mixed = 0;
  GE__ST_FOR_PREDS(s, x, p, {
    if (only < 0) only = s->ls[p];
    else if (s->ls[p] != only) mixed = 1;
  });
  GE__ST_FOR_SUCCS(s, x, q, {
    if (only < 0) only = s->ls[q];
    else if (s->ls[q] != only) mixed = 1;
  });
  return mixed ? -1 : only;
}

/* Skipped engines: A(s1) -> Const(s2) -> B(s1) puts the Const on s1. */
static void ge__st_pass_skipped_engine(ge__st *s) {
  uint32_t i;
  for (i = 0; i < s->n; i++) {
    ge_node *x = ge__st_node(s, s->order[i]);
    int32_t to;
    if (!ge__st_skipped(s, x) || ge__st_label(x)) continue;
    if ((to = ge__st_neighbour_stream(s, x)) >= 0 && !s->streams[to].hccl) s->ls[x->id] = to;
  }
}

/* Ineffective multi-stream: a node whose neighbours all sit on one other
 * stream, with nothing of that stream running between its inputs and its
 * outputs, moves there (it gained no parallelism and cost two events).
 * Labelled, grouped and independent-engine nodes stay. */
static ge_status ge__st_pass_ineffective(ge__st *s) {
  size_t bytes = ((size_t)s->n + 1) * sizeof(uint32_t);
  uint32_t *last = (uint32_t *)ge__st_alloc(s, (s->num_streams + 1) * sizeof *last), i;
  uint32_t *next_on = (uint32_t *)ge__st_alloc(s, bytes), *prev_on = (uint32_t *)ge__st_alloc(s, bytes);
  ge_status st = GE_OK;
  if (!last || !next_on || !prev_on) {
    st = ge__st_oom(s);
    goto done;
  }
  /* the chain of each stream by step: next_on / prev_on (n: none) */
  for (i = 0; i < s->num_streams; i++) last[i] = s->n;
  for (i = 0; i < s->n; i++) {
    int32_t k = s->ls[s->order[i]];
    prev_on[i] = last[k], next_on[i] = s->n, last[k] = i;
    if (prev_on[i] != s->n) next_on[prev_on[i]] = i;
  }
  for (i = 0; i < s->n; i++) {
    ge_node *x = ge__st_node(s, s->order[i]);
    int32_t to = ge__st_neighbour_stream(s, x), from = s->ls[x->id];
    uint32_t in_max = 0, out_min = s->n;
    int has_in = 0;
    if (to < 0 || to == from || s->streams[from].kind != GE__ST_DEPENDENCY || s->streams[to].hccl || ge__st_label(x) ||
        (ge__st_eflags(s, x) & GE_ENGINE_INDEPENDENT))
      continue;
    GE__ST_FOR_PREDS(s, x, p, { if (!has_in || s->step[p] > in_max) in_max = s->step[p], has_in = 1; });
    GE__ST_FOR_SUCCS(s, x, q, { if (s->step[q] < out_min) out_min = s->step[q]; });
    if (!has_in || out_min == s->n || next_on[in_max] != out_min) continue; /* `to` runs something in between */
    if (prev_on[i] != s->n) next_on[prev_on[i]] = next_on[i];
    if (next_on[i] != s->n) prev_on[next_on[i]] = prev_on[i];
    s->ls[x->id] = to;
    next_on[in_max] = i, prev_on[i] = in_max, next_on[i] = out_min, prev_on[out_min] = i;
  }
done:
  ge__st_free(s, last, (s->num_streams + 1) * sizeof *last);
  ge__st_free(s, next_on, bytes), ge__st_free(s, prev_on, bytes);
  return st;
}

/* ------------------------------------------------ dynamic shapes (§4.2) */

static int ge__st_is_aicpu(const ge__st *s, const ge_node *x) {
  const ge_engine *e = ge__st_engine(s, x);
  return e && e->name && !strncmp(e->name, "DNN_VM_AICPU", 12);
}

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
    ge_node *x = ge__st_node(s, s->order[i]);
    int32_t *slot = NULL;
    if (s->ls[x->id] >= 0) continue;
    if (ge__st_skipped(s, x) || x->engine < 0) slot = &main_id;
    else if (s->d->engine_parallel) slot = &by_engine[(uint32_t)x->engine % 64];
    else if (s->d->ac_parallel == 1 && ge__st_is_aicpu(s, x)) slot = &aicpu;
    else slot = &main_id;
    if (*slot < 0 || (slot != &main_id && s->streams[*slot].engine != x->engine && slot != &aicpu)) {
      if ((*slot = ge__st_new_stream(s, GE__ST_DEPENDENCY, x->engine, NULL)) < 0) return ge__st_oom(s);
      s->streams[*slot].hccl = (ge__st_eflags(s, x) & GE_ENGINE_INDEPENDENT) != 0;
    }
    s->ls[x->id] = *slot;
  }
  for (i = 0; i < s->n; i++) {
    ge_node *x = ge__st_node(s, s->order[i]);
    if (ge__st_op(x, "Data") || ge__st_op(x, "Variable") || ge__st_op(x, "NetOutput") || ge__st_op(x, "FileConstant"))
      s->ls[x->id] = main_id;
  }
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
  for (i = 0; i < s->num_streams; i++) s->streams[i].first_step = UINT32_MAX;
  for (i = s->n; i-- > 0;) s->streams[s->ls[s->order[i]]].first_step = i;
  for (i = 0; i < s->num_streams; i++)
    if (s->streams[i].first_step != UINT32_MAX) perm[kept++] = i;
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
  for (i = 0; i < s->n; i++) s->ls[s->order[i]] = to[s->ls[s->order[i]]];
  ge__st_free(s, key, sz), ge__st_free(s, perm, sz), ge__st_free(s, to, sz);
  return GE_OK;
}

/* StreamActive nodes listing labels in _active_label_list activate the
 * streams of those labels (§4.5): their first node needs no event. */
static void ge__st_activation(ge__st *s) {
  uint32_t i, k, j;
  for (i = 0; i < s->n; i++) {
    ge_node *x = ge__st_node(s, s->order[i]);
    const ge_attr *at;
    if (!ge__st_op(x, "StreamActive") || !(at = ge_node_attr(x, "_active_label_list")) || at->type != GE_ATTR_STRINGS)
      continue;
    for (k = 0; k < (uint32_t)at->count; k++)
      for (j = 0; j < s->num_streams; j++)
        if (s->streams[j].label && !strcmp(s->streams[j].label, at->v.strings[k]) && (int32_t)j != s->ls[x->id] &&
            s->streams[j].first_step > i && s->streams[j].activated_by == GE_NONE)
          s->streams[j].activated_by = x->id;
  }
}

/* Attached streams (§4.1.2): after the main ones, one per reuse key. */
static ge_status ge__st_attached(ge__st *s, ge_stream_plan *plan) {
  ge__st_map m;
  uint32_t i;
  ge_status st = GE_OK;
  memset(&m, 0, sizeof m);
  for (i = 0; i < s->n && st == GE_OK; i++) {
    ge_node *x = ge__st_node(s, s->order[i]);
    const char *key = ge_node_attr_string(x, GE_STREAM_ATTR_ATTACHED_REUSE_KEY, NULL);
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
      if ((id = ge__st_new_stream(s, GE__ST_LABEL, x->engine, NULL)) < 0 || ge__st_map_put(s, &m, key, id)) {
        st = ge__st_oom(s);
        break;
      }
      s->streams[id].attached = 1;
      plan->num_attached++;
    }
    plan->attached_stream[x->id] = id;
  }
  ge__st_map_free(s, &m);
  return st;
}

/* --------------------------------------------------------------- events */

enum { GE__ST_SRC_DEPENDENCY = 0, GE__ST_SRC_ACTIVATION, GE__ST_SRC_SPLIT };

typedef struct ge__st_src {
  uint32_t step;
  ge_node_id node;
  int kind; /* GE__ST_SRC_*: a dependency, an activation (orders without an event), a split chain */
} ge__st_src;

static ge_status ge__st_push_event(ge__st *s, ge_node_id u, ge_node_id v) {
  if (s->num_ev == s->cap_ev) {
    uint32_t cap = s->cap_ev ? s->cap_ev * 2 : 64;
    ge_node_id *a = (ge_node_id *)ge__st_alloc(s, cap * sizeof *a), *b = (ge_node_id *)ge__st_alloc(s, cap * sizeof *b);
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

static int ge__st_src_rank(int kind) {
  return kind == GE__ST_SRC_ACTIVATION ? 0 : kind == GE__ST_SRC_SPLIT ? 1 : 2;
}

/* The sources ordering node x: its predecessors, the StreamActive node of a
 * stream it opens, the node closing the previous piece of its split stream.
 * Sorted latest first. Returns the count (srcs grows as needed). */
static uint32_t ge__st_sources(ge__st *s, const ge_node *x, const uint32_t *first_of, ge__st_src **srcs, uint32_t *cap) {
  uint32_t m = 0, i, j, need = x->num_inputs + x->num_control_inputs + 2;
  int32_t k = s->ls[x->id];
  if (need > *cap) {
    ge__st_src *q = (ge__st_src *)ge__st_alloc(s, need * 2 * sizeof *q);
    if (!q) return UINT32_MAX;
    ge__st_free(s, *srcs, *cap * sizeof **srcs);
    *srcs = q, *cap = need * 2;
  }
  GE__ST_FOR_PREDS(s, x, p, {
    (*srcs)[m].step = s->step[p], (*srcs)[m].node = p, (*srcs)[m].kind = GE__ST_SRC_DEPENDENCY;
    m++;
  });
  if (first_of[k] == s->step[x->id] && s->streams[k].activated_by != GE_NONE) {
    ge_node_id a = s->streams[k].activated_by;
    (*srcs)[m].step = s->step[a], (*srcs)[m].node = a, (*srcs)[m].kind = GE__ST_SRC_ACTIVATION;
    m++;
  }
  if (s->split_prev && s->split_prev[x->id] != GE_NONE) {
    (*srcs)[m].step = s->step[s->split_prev[x->id]], (*srcs)[m].node = s->split_prev[x->id], (*srcs)[m].kind = GE__ST_SRC_SPLIT;
    m++;
  }
  for (i = 1; i < m; i++) { /* by step, latest first; at equal steps activation, split chain, dependency */
    ge__st_src t = (*srcs)[i];
    for (j = i; j > 0 && ((*srcs)[j - 1].step < t.step ||
                          ((*srcs)[j - 1].step == t.step && ge__st_src_rank(t.kind) < ge__st_src_rank((*srcs)[j - 1].kind)));
         j--)
      (*srcs)[j] = (*srcs)[j - 1];
    (*srcs)[j] = t;
  }
  return m;
}

static int ge__st_pair_kept(const ge__st *s, ge_node_id u, ge_node_id v);

/* Whether the edge from src to x becomes an event, by the event mode
 * (repeated: an event from that node to x is already kept). The
 * comparison modes count dependencies between logical streams: inside one,
 * the split chain orders the pieces. */
static int ge__st_keep_event(const ge__st *s, const ge__st_src *src, int repeated, int covered, ge_node_id x) {
  if (src->kind == GE__ST_SRC_ACTIVATION || repeated) return 0;
  if (src->kind == GE__ST_SRC_SPLIT || s->d->events == GE_STREAM_EVENTS_MINIMAL) return !covered;
  if (s->streams[s->ls[src->node]].logical == s->streams[s->ls[x]].logical) return 0;
  return s->d->events == GE_STREAM_EVENTS_ALL || ge__st_pair_kept(s, src->node, x);
}

/* Vector clocks over the current assignment: clock[id*S + t] = how many
 * nodes of stream t happen before or at node id. An input edge u -> x from
 * another stream needs an event exactly when no later-processed source
 * already orders u before x: sources are taken latest first, so an edge
 * implied by a path through another source or by the stream's previous
 * node is seen as covered. The kept edges are the cross-stream edges of the
 * transitive reduction of (dependencies + stream order + activations). */
static ge_status ge__st_events(ge__st *s) {
  uint32_t S = s->num_streams, i, t, cap = 0;
  size_t rows = (size_t)s->bound + 1;
  uint32_t *count = (uint32_t *)ge__st_zalloc(s, (S + 1) * sizeof *count);
  uint32_t *first_of = (uint32_t *)ge__st_alloc(s, (S + 1) * sizeof *first_of);
  ge_node_id *prev = (ge_node_id *)ge__st_alloc(s, (S + 1) * sizeof *prev);
  ge__st_src *srcs = NULL;
  ge_status st = GE_OK;
  s->num_ev = 0;
  ge__st_free(s, s->clock, s->clock_bytes);
  s->clock = NULL, s->clock_bytes = 0;
  if (S > 0 && rows > ((size_t)-1 / sizeof(uint32_t)) / S) st = ge__st_oom(s);
  else if (!(s->clock = (uint32_t *)ge__st_alloc(s, s->clock_bytes = rows * (S ? S : 1) * sizeof *s->clock)))
    st = ge__st_oom(s);
  if (!count || !first_of || !prev) st = ge__st_oom(s);
  if (!st) {
    memset(s->sends, 0, rows * sizeof *s->sends), memset(s->recvs, 0, rows * sizeof *s->recvs);
    for (t = 0; t < S; t++) first_of[t] = UINT32_MAX, prev[t] = GE_NONE;
    for (i = 0; i < s->n; i++) {
      int32_t k = s->ls[s->order[i]];
      if (first_of[k] == UINT32_MAX) first_of[k] = i;
    }
  }
  for (i = 0; i < s->n && !st; i++) {
    ge_node *x = ge__st_node(s, s->order[i]);
    int32_t k = s->ls[x->id];
    uint32_t *row = s->clock + (size_t)x->id * S, m, j;
    ge_node_id kept_from = GE_NONE;
    s->pos[x->id] = count[k]++;
    if (prev[k] != GE_NONE) memcpy(row, s->clock + (size_t)prev[k] * S, S * sizeof *row);
    else memset(row, 0, S * sizeof *row);
    if ((m = ge__st_sources(s, x, first_of, &srcs, &cap)) == UINT32_MAX) {
      st = ge__st_oom(s);
      break;
    }
    for (j = 0; j < m && !st; j++) {
      ge_node_id u = srcs[j].node;
      int32_t ku = s->ls[u];
      const uint32_t *ru = s->clock + (size_t)u * S;
      int covered = row[ku] >= s->pos[u] + 1; /* stream order or a path already orders it */
      if (ku == k) continue;
      int keep = ge__st_keep_event(s, &srcs[j], kept_from == u, covered, x->id);
      if (keep) {
        if ((st = ge__st_push_event(s, u, x->id))) break;
        kept_from = u;
        s->sends[u]++, s->recvs[x->id]++;
      }
      /* the clock follows what the plan realises: kept events and activations */
      if (!covered && (keep || srcs[j].kind == GE__ST_SRC_ACTIVATION))
        for (t = 0; t < S; t++)
          if (ru[t] > row[t]) row[t] = ru[t];
    }
    row[k] = s->pos[x->id] + 1;
    prev[k] = x->id;
  }
  ge__st_free(s, count, (S + 1) * sizeof *count), ge__st_free(s, first_of, (S + 1) * sizeof *first_of);
  ge__st_free(s, prev, (S + 1) * sizeof *prev), ge__st_free(s, srcs, cap * sizeof *srcs);
  return st;
}

/* What GE's send- and receive-side passes leave (§4.3.3), for comparison:
 * of the events a node sends to one stream only the earliest receiver's
 * stays; of those a node receives from one stream only the latest sender's.
 * Also counts every cross-stream dependency (distinct node pairs). */
typedef struct ge__st_pair {
  uint32_t a, b, c;
  ge_node_id u, v;
} ge__st_pair;

static int ge__st_pair_cmp(const void *x, const void *y) {
  const ge__st_pair *p = (const ge__st_pair *)x, *q = (const ge__st_pair *)y;
  if (p->a != q->a) return p->a < q->a ? -1 : 1;
  if (p->b != q->b) return p->b < q->b ? -1 : 1;
  return p->c < q->c ? -1 : p->c > q->c;
}

static ge_status ge__st_count_ge_passes(ge__st *s, uint32_t *all, uint32_t *passes) {
  uint32_t m = 0, i, cap = 0, kept = 0, out = 0;
  ge__st_pair *e;
  for (i = 0; i < s->n; i++) {
    ge_node *x = ge__st_node(s, s->order[i]);
    cap += x->num_inputs + x->num_control_inputs;
  }
  if (!(e = (ge__st_pair *)ge__st_alloc(s, ((size_t)cap + 1) * sizeof *e))) return ge__st_oom(s);
  for (i = 0; i < s->n; i++) {
    ge_node *x = ge__st_node(s, s->order[i]);
    GE__ST_FOR_PREDS(s, x, p, {
      if (s->ls[p] != s->ls[x->id]) {
        e[m].a = s->step[p], e[m].b = s->step[x->id], e[m].c = 0, e[m].u = p, e[m].v = x->id;
        m++;
      }
    });
  }
  qsort(e, m, sizeof *e, ge__st_pair_cmp); /* distinct pairs */
  for (i = 0; i < m; i++)
    if (i == 0 || e[i].u != e[kept - 1].u || e[i].v != e[kept - 1].v) e[kept++] = e[i];
  *all = kept;
  /* send side: per (sender, receiving stream) the earliest receiver */
  for (i = 0; i < kept; i++) e[i].a = s->step[e[i].u], e[i].b = (uint32_t)s->ls[e[i].v], e[i].c = s->step[e[i].v];
  qsort(e, kept, sizeof *e, ge__st_pair_cmp);
  for (i = 0; i < kept; i++)
    if (i == 0 || e[i].a != e[out - 1].a || e[i].b != e[out - 1].b) e[out++] = e[i];
  /* receive side: per (receiver, sending stream) the latest sender */
  for (i = 0; i < out; i++) e[i].a = s->step[e[i].v], e[i].b = (uint32_t)s->ls[e[i].u], e[i].c = UINT32_MAX - s->step[e[i].u];
  qsort(e, out, sizeof *e, ge__st_pair_cmp);
  for (i = 0, kept = 0; i < out; i++)
    if (i == 0 || e[i].a != e[kept - 1].a || e[i].b != e[kept - 1].b) e[kept++] = e[i];
  *passes = kept;
  /* kept pairs by (sender, receiver) for ge__st_pair_kept */
  for (i = 0; i < kept; i++) e[i].a = e[i].u, e[i].b = e[i].v, e[i].c = 0;
  qsort(e, kept, sizeof *e, ge__st_pair_cmp);
  s->ge_kept = e, s->num_ge_kept = kept, s->ge_kept_bytes = ((size_t)cap + 1) * sizeof *e;
  return GE_OK;
}

static int ge__st_pair_kept(const ge__st *s, ge_node_id u, ge_node_id v) {
  ge__st_pair key;
  key.a = u, key.b = v, key.c = 0;
  return bsearch(&key, s->ge_kept, s->num_ge_kept, sizeof key, ge__st_pair_cmp) != NULL;
}

/* ------------------------------------------------ physical split (§4.4) */

/* Whether a piece may start at x: not at a node holding subgraphs (control
 * flow) nor at a label op (§4.4). */
static int ge__st_splittable(const ge_node *x) {
  uint32_t k;
  if (!strcmp(x->op, "LabelSet") || !strcmp(x->op, "LabelGoto") ||
      !strcmp(x->op, "LabelGotoEx") || !strcmp(x->op, "LabelSwitchByIndex"))
    return 0;
  for (k = 0; k < x->num_attrs; k++)
    if (x->attrs[k].type == GE_ATTR_GRAPH || x->attrs[k].type == GE_ATTR_GRAPHS) return 0;
  return 1;
}

static const char *ge__st_continuous(const ge_node *x) {
  const char *c = ge_node_attr_string(x, GE_STREAM_ATTR_CONTINUOUS_LABEL, NULL);
  return c && *c ? c : NULL;
}
static int ge__st_same(const char *a, const char *b) { return a == b || (a && b && !strcmp(a, b)); }

static uint32_t ge__st_tasks(const ge__st *s, ge_node_id id) { return 1 + s->sends[id] + s->recvs[id]; }

typedef struct ge__st_labelled {
  int32_t stream;
  const char *label;
  uint32_t step;
  ge_node_id node;
} ge__st_labelled;

static int ge__st_labelled_cmp(const void *x, const void *y) {
  const ge__st_labelled *p = (const ge__st_labelled *)x, *q = (const ge__st_labelled *)y;
  int c;
  if (p->stream != q->stream) return p->stream < q->stream ? -1 : 1;
  if ((c = strcmp(p->label, q->label))) return c;
  return p->step < q->step ? -1 : p->step > q->step;
}

/* span_end[id]: for a node with a continuous label, the step of the last
 * node of its stream with that label (the nodes between must stay on one
 * physical stream); else the node's own step. */
static ge_status ge__st_label_spans(ge__st *s, uint32_t *span_end) {
  ge__st_labelled *l;
  uint32_t m = 0, i, j;
  for (i = 0; i < s->n; i++) span_end[s->order[i]] = i;
  for (i = 0; i < s->n; i++) m += ge__st_continuous(ge__st_node(s, s->order[i])) != NULL;
  if (!m) return GE_OK;
  if (!(l = (ge__st_labelled *)ge__st_alloc(s, m * sizeof *l))) return ge__st_oom(s);
  for (i = 0, m = 0; i < s->n; i++) {
    const char *c = ge__st_continuous(ge__st_node(s, s->order[i]));
    if (c) l[m].stream = s->ls[s->order[i]], l[m].label = c, l[m].step = i, l[m].node = s->order[i], m++;
  }
  qsort(l, m, sizeof *l, ge__st_labelled_cmp);
  for (i = 0; i < m; i = j) {
    for (j = i; j < m && l[j].stream == l[i].stream && !strcmp(l[j].label, l[i].label); j++) {}
    while (i < j) span_end[l[i++].node] = l[j - 1].step;
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
  size_t sz = ((size_t)L + 1) * sizeof(uint32_t), rows = ((size_t)s->bound + 1) * sizeof(uint32_t);
  uint32_t *cur = NULL, *cnt = NULL, *nodes = NULL, *total = NULL, *span_end = NULL, *span_open = NULL, *glue = NULL;
  ge_node_id *lastn = NULL;
  ge_status st = GE_OK;
  if (!limit) return GE_OK;
  cur = (uint32_t *)ge__st_alloc(s, sz), cnt = (uint32_t *)ge__st_zalloc(s, sz), nodes = (uint32_t *)ge__st_zalloc(s, sz);
  total = (uint32_t *)ge__st_zalloc(s, sz), span_open = (uint32_t *)ge__st_zalloc(s, sz);
  lastn = (ge_node_id *)ge__st_alloc(s, ((size_t)L + 1) * sizeof *lastn);
  span_end = (uint32_t *)ge__st_alloc(s, rows), glue = (uint32_t *)ge__st_alloc(s, rows);
  s->split_prev = (uint32_t *)ge__st_alloc(s, rows);
  if (!cur || !cnt || !nodes || !total || !span_open || !lastn || !span_end || !glue || !s->split_prev) {
    st = ge__st_oom(s);
    goto done;
  }
  if ((st = ge__st_label_spans(s, span_end))) goto done;
  /* glue[id]: tasks of the unsplittable nodes right after id on its
   * stream: they must join id's piece */
  for (i = 0; i < L; i++) lastn[i] = GE_NONE;
  for (i = s->n; i-- > 0;) {
    ge_node_id id = s->order[i], nx = lastn[s->ls[id]];
    glue[id] = nx != GE_NONE && !ge__st_splittable(ge__st_node(s, nx)) ? ge__st_tasks(s, nx) + glue[nx] : 0;
    lastn[s->ls[id]] = id;
  }
  for (i = 0; i < s->bound; i++) s->split_prev[i] = GE_NONE;
  for (i = 0; i < L; i++) cur[i] = i, lastn[i] = GE_NONE;
  for (i = 0; i < s->n; i++) total[s->ls[s->order[i]]] += ge__st_tasks(s, s->order[i]);
  if (s->d->single_stream && L && total[0] > limit && total[0] <= s->d->huge_task_limit) s->streams[0].huge = 1;
  for (i = 0; i < s->n; i++) {
    ge_node_id id = s->order[i];
    ge_node *x = ge__st_node(s, id);
    int32_t k = s->ls[id];
    uint32_t need = ge__st_tasks(s, id) + glue[id], j, end = span_end[id];
    int in_span = nodes[k] > 0 && span_open[k] > i;
    if (!in_span && end > i) { /* a span starts: its tasks, widened by the labels inside it */
      for (j = i + 1; j <= end; j++) {
        ge_node_id y = s->order[j];
        if (s->ls[y] != k) continue;
        need += ge__st_tasks(s, y);
        if (span_end[y] > end) end = span_end[y];
      }
      if (need + reserve > limit) {
        st = ge_error_set(s->err, GE_ERR_INVALID,
                          "continuous stream label '%s' (from node '%s') needs %u tasks with its events; a stream "
                          "holds %u beside %u reserved",
                          ge__st_continuous(x), x->name, (unsigned)need, (unsigned)limit, (unsigned)reserve);
        goto done;
      }
    }
    if (!s->streams[k].huge && nodes[k] > 0 && !in_span && cnt[k] + need + reserve > limit && ge__st_splittable(x)) {
      int32_t p = ge__st_new_stream(s, s->streams[k].kind, s->streams[k].engine, s->streams[k].label);
      if (p < 0) {
        st = ge__st_oom(s);
        goto done;
      }
      s->streams[p] = s->streams[k], s->streams[p].attached = 0;
      cur[k] = (uint32_t)p;
      s->split_prev[id] = lastn[k];
      cnt[k] = 0, nodes[k] = 0;
    }
    if (end > i && end > span_open[k]) span_open[k] = end + 1;
    s->ls[id] = (int32_t)cur[k];
    cnt[k] += ge__st_tasks(s, id), nodes[k]++;
    lastn[k] = id;
  }
done:
  ge__st_free(s, cur, sz), ge__st_free(s, cnt, sz), ge__st_free(s, nodes, sz), ge__st_free(s, total, sz);
  ge__st_free(s, span_open, sz), ge__st_free(s, lastn, ((size_t)L + 1) * sizeof *lastn);
  ge__st_free(s, span_end, rows), ge__st_free(s, glue, rows);
  return st;
}

/* ------------------------------------------------------ ids and the plan */

static int ge__st_event_cmp(const void *x, const void *y) {
  const ge_stream_event *p = (const ge_stream_event *)x, *q = (const ge_stream_event *)y;
  /* id holds the send step and send_stream the receive step while sorting */
  if (p->id != q->id) return p->id < q->id ? -1 : 1;
  return p->send_stream < q->send_stream ? -1 : p->send_stream > q->send_stream;
}

static const char *ge__st_batch(const ge_node *x) {
  const char *b = ge_node_attr_string(x, GE_STREAM_ATTR_BATCH_LABEL, NULL);
  return b && *b ? b : NULL;
}

/* Events sorted by sender then receiver; ids continuous from 0 (§4.3.5),
 * and events inside one multi-dims batch label numbered per label after the
 * shared ones, so branches that never run together share ids (§4.3.4). */
static ge_status ge__st_number_events(ge__st *s, ge_stream_plan *plan) {
  uint32_t i, shared = 0, most = 0;
  ge_stream_event *ev;
  ge__st_map m;
  if (!(ev = (ge_stream_event *)ge__st_alloc(s, ((size_t)s->num_ev + 1) * sizeof *ev))) return ge__st_oom(s);
  for (i = 0; i < s->num_ev; i++) {
    ev[i].id = s->step[s->ev_send[i]], ev[i].send_stream = (int32_t)s->step[s->ev_recv[i]];
    ev[i].send_node = s->ev_send[i], ev[i].recv_node = s->ev_recv[i];
  }
  qsort(ev, s->num_ev, sizeof *ev, ge__st_event_cmp);
  memset(&m, 0, sizeof m);
  for (i = 0; i < s->num_ev; i++) {
    const char *b = ge__st_batch(ge__st_node(s, ev[i].send_node));
    ev[i].send_stream = s->ls[ev[i].send_node], ev[i].recv_stream = s->ls[ev[i].recv_node];
    if (!b || !ge__st_same(b, ge__st_batch(ge__st_node(s, ev[i].recv_node)))) ev[i].id = shared++;
  }
  for (i = 0; i < s->num_ev; i++) { /* batch-labelled events after the shared ones */
    const char *b = ge__st_batch(ge__st_node(s, ev[i].send_node));
    int32_t k;
    if (!b || !ge__st_same(b, ge__st_batch(ge__st_node(s, ev[i].recv_node)))) continue;
    k = ge__st_map_get(&m, b);
    if (k < 0) k = 0;
    ev[i].id = shared + (uint32_t)k;
    if ((uint32_t)k + 1 > most) most = (uint32_t)k + 1;
    if (ge__st_map_put(s, &m, b, k + 1)) {
      ge__st_map_free(s, &m);
      ge__st_free(s, ev, ((size_t)s->num_ev + 1) * sizeof *ev);
      return ge__st_oom(s);
    }
  }
  ge__st_map_free(s, &m);
  plan->events = ev, plan->num_events = s->num_ev, plan->num_event_ids = shared + most;
  if (s->d->notify && plan->num_event_ids > 1024)
    return ge_error_set(s->err, GE_ERR_UNSUPPORTED, "notify mode supports at most 1024 notifies; graph '%s' needs %u",
                        ge_graph_name(s->g), (unsigned)plan->num_event_ids);
  return GE_OK;
}

static ge_status ge__st_fill_plan(ge__st *s, ge_stream_plan *plan) {
  uint32_t S = s->num_streams, i, off = 0;
  ge_node_id *nodes;
  plan->num_streams = S;
  plan->streams = (ge_stream_info *)ge__st_zalloc(s, ((size_t)S + 1) * sizeof *plan->streams);
  nodes = (ge_node_id *)ge__st_alloc(s, ((size_t)s->n + 1) * sizeof *nodes);
  plan->node_stream = (int32_t *)ge__st_alloc(s, ((size_t)s->bound + 1) * sizeof *plan->node_stream);
  if (!plan->streams || !nodes || !plan->node_stream) {
    ge__st_free(s, nodes, ((size_t)s->n + 1) * sizeof *nodes);
    return ge__st_oom(s);
  }
  for (i = 0; i < s->n; i++) plan->streams[s->ls[s->order[i]]].num_nodes++;
  for (i = 0; i < S; i++) {
    ge_stream_info *f = &plan->streams[i];
    const ge__st_stream *x = &s->streams[i];
    f->nodes = nodes + off, off += f->num_nodes, f->num_nodes = 0;
    f->logical = x->logical, f->label = x->label, f->activated_by = x->activated_by;
    f->attached = x->attached, f->hccl = x->hccl, f->huge = x->huge;
  }
  memset(plan->node_stream, 0xff, ((size_t)s->bound + 1) * sizeof *plan->node_stream);
  for (i = 0; i < s->n; i++) {
    ge_node_id id = s->order[i];
    ge_stream_info *f = &plan->streams[s->ls[id]];
    f->nodes[f->num_nodes++] = id;
    f->num_tasks += 1 + s->sends[id] + s->recvs[id];
    plan->node_stream[id] = s->ls[id];
    ge__st_node(s, id)->stream = s->ls[id];
  }
  plan->position = s->pos, s->pos = NULL;
  plan->clock = s->clock, plan->clock_bytes = s->clock_bytes, s->clock = NULL;
  plan->id_bound = s->bound;
  return GE_OK;
}

static int ge__st_graph_dynamic(ge__st *s) {
  const ge_attr *a = ge_graph_attr(s->g, "_dynamic_shape_partitioned");
  uint32_t i, k;
  if (a && a->type == GE_ATTR_INT && a->v.i) return 1;
  for (i = 0; i < s->n; i++) {
    ge_node *x = ge__st_node(s, s->order[i]);
    for (k = 0; k < x->num_outputs; k++)
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
    for (i = 0; i < s->n; i++) s->ls[s->order[i]] = 0;
    return GE_OK;
  }
  if (plan->dynamic) return ge__st_dynamic(s);
  if ((st = ge__st_pass_mde(s)) || (st = ge__st_pass_labels(s, GE__ST_LABEL)) || (st = ge__st_pass_independent(s)) ||
      (st = ge__st_pass_dependency(s)) || (st = ge__st_pass_unassigned(s, -1)))
    return st;
  if (s->n) ge__st_pass_node_update(s, s->ls[s->order[0]]);
  if ((st = ge__st_pass_parallel_groups(s))) return st;
  if (s->d->hcom_parallel && (st = ge__st_pass_allreduce(s))) return st;
  ge__st_pass_skipped_engine(s);
  return ge__st_pass_ineffective(s);
}

static void ge__st_cleanup(ge__st *s) {
  size_t rows = (size_t)s->bound + 1;
  ge__st_free(s, s->order, ((size_t)s->n + 1) * sizeof *s->order);
  ge__st_free(s, s->step, rows * sizeof *s->step);
  ge__st_free(s, s->ls, rows * sizeof *s->ls);
  ge__st_free(s, s->streams, s->cap_streams * sizeof *s->streams);
  ge__st_free(s, s->ev_send, s->cap_ev * sizeof *s->ev_send);
  ge__st_free(s, s->ev_recv, s->cap_ev * sizeof *s->ev_recv);
  ge__st_free(s, s->clock, s->clock_bytes);
  ge__st_free(s, s->pos, rows * sizeof *s->pos);
  ge__st_free(s, s->sends, rows * sizeof *s->sends);
  ge__st_free(s, s->recvs, rows * sizeof *s->recvs);
  ge__st_free(s, s->split_prev, rows * sizeof *s->split_prev);
  ge__st_free(s, s->ge_kept, s->ge_kept_bytes);
}

GE_API ge_status ge_stream_allocate(ge_graph *g, const ge_stream_desc *desc, ge_stream_plan *plan, ge_error *err) {
  ge_stream_desc zero;
  ge__st s;
  size_t rows;
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
  rows = (size_t)s.bound + 1;
  s.ls = (int32_t *)ge__st_alloc(&s, rows * sizeof *s.ls);
  s.pos = (uint32_t *)ge__st_alloc(&s, rows * sizeof *s.pos);
  s.sends = (uint32_t *)ge__st_alloc(&s, rows * sizeof *s.sends);
  s.recvs = (uint32_t *)ge__st_alloc(&s, rows * sizeof *s.recvs);
  if (!s.ls || !s.pos || !s.sends || !s.recvs) st = ge__st_oom(&s);
  else if (!(st = ge__st_order(&s))) {
    memset(s.ls, 0xff, rows * sizeof *s.ls);
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
  int32_t sa;
  if (!plan || !plan->clock || a == b || a >= plan->id_bound || b >= plan->id_bound) return 0;
  if ((sa = plan->node_stream[a]) < 0 || plan->node_stream[b] < 0) return 0;
  return plan->clock[(size_t)b * plan->num_streams + (uint32_t)sa] >= plan->position[a] + 1;
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

/* stream_util.h — checkers for stream plans (ge_stream.h), independent of
 * the allocator's internals: everything here reads only the graph and the
 * plain data of a ge_stream_plan.
 *
 *   su_check_plan      the plan is well formed and every data and control
 *                      dependency of the root level is ordered by the plan:
 *                      same-stream order, a chain of events, activation;
 *   su_check_tasks     task counts and the task limit of a desc;
 *   su_rel_*           the plan's happens-before relation (vector clocks,
 *                      O(1) queries; bitsets for small graphs, a cross-check);
 *   su_min_events      the oracle for the fewest events: cross-stream edges
 *                      of the transitive reduction of dependencies + stream
 *                      order + activations, activations excluded (brute
 *                      force over bitsets, for small graphs);
 *   su_simulate        makespan of a plan with given node durations and an
 *                      event latency (streams run in order, a node starts
 *                      when its stream predecessor is done and every event it
 *                      waits for was recorded);
 *   su_critical_path   the longest path by durations over the dependencies;
 *   su_engines         engines with each flag the allocator reads.
 *
 * Include after ge_graph.h and ge_stream.h (declarations suffice). */
#ifndef GE_TEST_STREAM_UTIL_H
#define GE_TEST_STREAM_UTIL_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__) || defined(__clang__)
#define SU_UNUSED __attribute__((unused))
#else
#define SU_UNUSED
#endif

/* ------------------------------------------------------------ engines */

/* What the stream tests and benchmark place nodes on by hand: an engine
 * with each flag the allocator reads. */
enum { SU_E_AICORE, SU_E_DSA, SU_E_HCCL, SU_E_AICPU, SU_E_RTS, SU_E_LOCAL, SU_E_HOST, SU_NUM_ENGINES };

static const ge_engine su_engine_defs[SU_NUM_ENGINES] = {
    {GE_ENGINE_ABI_VERSION, "AIcoreEngine", "AiCore", 1, GE_RUNTIME_DEVICE, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL},
    {GE_ENGINE_ABI_VERSION, "DSAEngine", "DSA", 2, GE_RUNTIME_DEVICE, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL},
    {GE_ENGINE_ABI_VERSION, "DNN_HCCL", "HCCL", 2, GE_RUNTIME_DEVICE, GE_ENGINE_INDEPENDENT, NULL, NULL, NULL, NULL,
     NULL, NULL, NULL, NULL},
    {GE_ENGINE_ABI_VERSION, "DNN_VM_AICPU_ASCEND", "AiCpu", 3, GE_RUNTIME_DEVICE, GE_ENGINE_ATTACH, NULL, NULL, NULL,
     NULL, NULL, NULL, NULL, NULL},
    {GE_ENGINE_ABI_VERSION, "DNN_VM_RTS", "RTS", 2, GE_RUNTIME_DEVICE, GE_ENGINE_ATTACH, NULL, NULL, NULL, NULL, NULL,
     NULL, NULL, NULL},
    {GE_ENGINE_ABI_VERSION, "DNN_VM_GE_LOCAL", "GeLocal", 9, GE_RUNTIME_DEVICE,
     GE_ENGINE_ATTACH | GE_ENGINE_SKIP_ASSIGN_STREAM, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL},
    {GE_ENGINE_ABI_VERSION, "DNN_VM_HOST_CPU", "HostCpu", 10, GE_RUNTIME_HOST,
     GE_ENGINE_ATTACH | GE_ENGINE_SKIP_ASSIGN_STREAM, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL},
};
static SU_UNUSED const ge_engine *su_engines[SU_NUM_ENGINES] = {
    &su_engine_defs[0], &su_engine_defs[1], &su_engine_defs[2], &su_engine_defs[3],
    &su_engine_defs[4], &su_engine_defs[5], &su_engine_defs[6]};

/* Vector clocks up to this many entries (id bound x streams), 256 MiB. */
#ifndef SU_MAX_CLOCK_ENTRIES
#define SU_MAX_CLOCK_ENTRIES (64u << 20)
#endif

/* ------------------------------------------------------------ edges */

/* A growable list of directed edges between node ids. */
typedef struct su_edges {
  uint32_t *src, *dst;
  uint32_t n, cap;
} su_edges;

static SU_UNUSED void su_edges_add(su_edges *e, uint32_t s, uint32_t d) {
  if (e->n == e->cap) {
    e->cap = e->cap ? e->cap * 2 : 64;
    e->src = (uint32_t *)realloc(e->src, sizeof(uint32_t) * e->cap);
    e->dst = (uint32_t *)realloc(e->dst, sizeof(uint32_t) * e->cap);
    if (!e->src || !e->dst) abort();
  }
  e->src[e->n] = s;
  e->dst[e->n] = d;
  e->n++;
}

static SU_UNUSED void su_edges_free(su_edges *e) {
  free(e->src);
  free(e->dst);
  memset(e, 0, sizeof *e);
}

/* The data and control dependencies of g's root level (absent inputs
 * skipped, duplicates kept). */
static SU_UNUSED void su_dependencies(const ge_graph *g, su_edges *out) {
  uint32_t bound = ge_graph_id_bound(g), id, k;
  for (id = 0; id < bound; id++) {
    const ge_node *n = ge_graph_node(g, id);
    if (!n) continue;
    for (k = 0; k < n->num_inputs; k++)
      if (n->inputs[k].node != GE_NONE) su_edges_add(out, n->inputs[k].node, id);
    for (k = 0; k < n->num_control_inputs; k++) su_edges_add(out, n->control_inputs[k], id);
  }
}

/* Compressed adjacency (successors of each of `bound` ids). */
typedef struct su_csr {
  uint32_t *start; /* bound + 1 */
  uint32_t *adj;
} su_csr;

static SU_UNUSED void su_csr_build(su_csr *c, uint32_t bound, const su_edges *e, int reverse) {
  uint32_t i, *fill;
  c->start = (uint32_t *)calloc((size_t)bound + 1, sizeof(uint32_t));
  c->adj = (uint32_t *)malloc(sizeof(uint32_t) * (e->n + 1));
  fill = (uint32_t *)malloc(sizeof(uint32_t) * ((size_t)bound + 1));
  if (!c->start || !c->adj || !fill) abort();
  for (i = 0; i < e->n; i++) c->start[(reverse ? e->dst : e->src)[i] + 1]++;
  for (i = 0; i < bound; i++) c->start[i + 1] += c->start[i];
  memcpy(fill, c->start, sizeof(uint32_t) * bound);
  for (i = 0; i < e->n; i++) {
    uint32_t from = (reverse ? e->dst : e->src)[i], to = (reverse ? e->src : e->dst)[i];
    c->adj[fill[from]++] = to;
  }
  free(fill);
}

static SU_UNUSED void su_csr_free(su_csr *c) {
  free(c->start);
  free(c->adj);
  memset(c, 0, sizeof *c);
}

/* Kahn over the live ids (alive[id] != 0) of a graph given by successor
 * lists; writes the order and returns how many ids it ordered (fewer than
 * the live count: a cycle). */
static SU_UNUSED uint32_t su_kahn(uint32_t bound, const uint8_t *alive, const su_csr *succ, uint32_t *order) {
  uint32_t *indeg = (uint32_t *)calloc((size_t)bound + 1, sizeof(uint32_t));
  uint32_t i, head = 0, tail = 0, k;
  if (!indeg) abort();
  for (i = 0; i < bound; i++)
    for (k = succ->start[i]; k < succ->start[i + 1]; k++) indeg[succ->adj[k]]++;
  for (i = 0; i < bound; i++)
    if (alive[i] && indeg[i] == 0) order[tail++] = i;
  while (head < tail) {
    uint32_t u = order[head++];
    for (k = succ->start[u]; k < succ->start[u + 1]; k++)
      if (--indeg[succ->adj[k]] == 0) order[tail++] = succ->adj[k];
  }
  free(indeg);
  return tail;
}

static SU_UNUSED const char *su_name(const ge_graph *g, uint32_t id) {
  const ge_node *n = id < ge_graph_id_bound(g) ? ge_graph_node(g, id) : NULL;
  return n ? n->name : "?";
}

/* ------------------------------------------------- the plan's relation */

/* The happens-before relation of a plan, built from the plan only. */
typedef struct su_rel {
  uint32_t bound;       /* graph id bound */
  uint32_t num_streams;
  uint32_t live;        /* live nodes */
  uint8_t *alive;       /* per id */
  int32_t *stream;      /* per id: index in plan->streams, -1 if in none */
  uint32_t *pos;        /* per id: index in its stream */
  su_edges edges;       /* stream order, events, activations */
  su_csr succ, pred;
  uint32_t *order;      /* a topological order of the relation (live ids) */
  uint32_t *clock;      /* bound x num_streams, or NULL (too big / not asked) */
} su_rel;

static SU_UNUSED void su_rel_free(su_rel *r) {
  free(r->alive);
  free(r->stream);
  free(r->pos);
  su_edges_free(&r->edges);
  su_csr_free(&r->succ);
  su_csr_free(&r->pred);
  free(r->order);
  free(r->clock);
  memset(r, 0, sizeof *r);
}

/* The multi-dims branch an event belongs to: the batch label both its
 * nodes carry, else NULL (an event leaving or entering a branch runs
 * whichever branch runs, so it cannot share an id). */
static SU_UNUSED const char *su_event_branch(const ge_graph *g, const ge_stream_event *e) {
  const char *a = ge_node_attr_string(ge_graph_node(g, e->send_node), GE_STREAM_ATTR_BATCH_LABEL, NULL);
  const char *b = ge_node_attr_string(ge_graph_node(g, e->recv_node), GE_STREAM_ATTR_BATCH_LABEL, NULL);
  return a && b && *a && strcmp(a, b) == 0 ? a : NULL;
}

/* Checks that the plan is well formed and builds its relation (vector
 * clocks when want_clocks and they fit). Well formed: every live node of g
 * in exactly one stream, node->stream and plan->position agree; events
 * between live nodes of different streams whose send/recv streams are the
 * nodes' streams, ids in [0, num_event_ids) and every such id used, ids
 * shared only by events of distinct batch labels; activators live and not
 * on the stream they activate; the relation acyclic. */
static SU_UNUSED ge_status su_rel_build(const ge_graph *g, const ge_stream_plan *p, int want_clocks, su_rel *r,
                                        ge_error *err) {
  uint32_t bound = ge_graph_id_bound(g), s, k, i, done;
  uint8_t *used = NULL;
  const char **id_label = NULL;
  memset(r, 0, sizeof *r);
  r->bound = bound;
  r->num_streams = p->num_streams;
  r->alive = (uint8_t *)calloc((size_t)bound + 1, 1);
  r->stream = (int32_t *)malloc(sizeof(int32_t) * ((size_t)bound + 1));
  r->pos = (uint32_t *)calloc((size_t)bound + 1, sizeof(uint32_t));
  r->order = (uint32_t *)malloc(sizeof(uint32_t) * ((size_t)bound + 1));
  if (!r->alive || !r->stream || !r->pos || !r->order) abort();
  for (i = 0; i < bound; i++) {
    r->stream[i] = -1;
    if (ge_graph_node(g, i)) r->alive[i] = 1, r->live++;
  }
  if (p->id_bound != bound)
    return ge_error_set(err, GE_ERR_INVALID, "plan id_bound %u, graph %u", p->id_bound, bound);
  if (p->num_streams && !p->streams) return ge_error_set(err, GE_ERR_INVALID, "%u streams but no array", p->num_streams);
  /* membership */
  for (s = 0; s < p->num_streams; s++) {
    const ge_stream_info *si = &p->streams[s];
    if (si->num_nodes && !si->nodes) return ge_error_set(err, GE_ERR_INVALID, "stream %u: no node array", s);
    for (k = 0; k < si->num_nodes; k++) {
      uint32_t id = si->nodes[k];
      const ge_node *n;
      if (id >= bound || !r->alive[id])
        return ge_error_set(err, GE_ERR_INVALID, "stream %u position %u: node id %u is not a live node", s, k, id);
      if (r->stream[id] >= 0)
        return ge_error_set(err, GE_ERR_INVALID, "node '%s' on streams %d and %u", su_name(g, id), r->stream[id], s);
      r->stream[id] = (int32_t)s;
      r->pos[id] = k;
      n = ge_graph_node(g, id);
      if (n->stream != (int32_t)s)
        return ge_error_set(err, GE_ERR_INVALID, "node '%s': node->stream %d but on stream %u", n->name, n->stream, s);
      if (p->position && p->position[id] != k)
        return ge_error_set(err, GE_ERR_INVALID, "node '%s': plan position %u, index %u in stream %u", n->name,
                            p->position[id], k, s);
      if (k) su_edges_add(&r->edges, si->nodes[k - 1], id);
    }
  }
  for (i = 0; i < bound; i++)
    if (r->alive[i] && r->stream[i] < 0)
      return ge_error_set(err, GE_ERR_INVALID, "node '%s' is on no stream", su_name(g, i));
  /* activation */
  for (s = 0; s < p->num_streams; s++) {
    const ge_stream_info *si = &p->streams[s];
    uint32_t a = si->activated_by;
    if (a == GE_NONE) continue;
    if (a >= bound || !r->alive[a])
      return ge_error_set(err, GE_ERR_INVALID, "stream %u: activated by id %u, not a live node", s, a);
    if (r->stream[a] == (int32_t)s)
      return ge_error_set(err, GE_ERR_INVALID, "stream %u activated by its own node '%s'", s, su_name(g, a));
    if (si->num_nodes) su_edges_add(&r->edges, a, si->nodes[0]);
  }
  /* events */
  if (p->num_events && !p->events) return ge_error_set(err, GE_ERR_INVALID, "%u events but no array", p->num_events);
  used = (uint8_t *)calloc((size_t)p->num_event_ids + 1, 1);
  id_label = (const char **)calloc((size_t)p->num_event_ids + 1, sizeof(char *));
  if (!used || !id_label) abort();
  for (i = 0; i < p->num_events; i++) {
    const ge_stream_event *e = &p->events[i];
    const char *label;
    if (e->send_node >= bound || !r->alive[e->send_node] || e->recv_node >= bound || !r->alive[e->recv_node]) {
      ge_error_set(err, GE_ERR_INVALID, "event %u: send %u / recv %u not live nodes", i, e->send_node, e->recv_node);
      goto fail;
    }
    if (e->send_stream != r->stream[e->send_node] || e->recv_stream != r->stream[e->recv_node]) {
      ge_error_set(err, GE_ERR_INVALID, "event %u ('%s' -> '%s'): streams %d -> %d, the nodes are on %d -> %d", i,
                   su_name(g, e->send_node), su_name(g, e->recv_node), e->send_stream, e->recv_stream,
                   r->stream[e->send_node], r->stream[e->recv_node]);
      goto fail;
    }
    if (e->send_stream == e->recv_stream) {
      ge_error_set(err, GE_ERR_INVALID, "event %u ('%s' -> '%s') within stream %d", i, su_name(g, e->send_node),
                   su_name(g, e->recv_node), e->send_stream);
      goto fail;
    }
    if (e->id >= p->num_event_ids) {
      ge_error_set(err, GE_ERR_INVALID, "event %u: id %u, num_event_ids %u", i, e->id, p->num_event_ids);
      goto fail;
    }
    label = su_event_branch(g, e);
    if (used[e->id]) {
      /* a shared id is safe only between branches that never run together */
      uint32_t j;
      if (!label || !id_label[e->id]) {
        ge_error_set(err, GE_ERR_INVALID, "event id %u shared by event %u ('%s' -> '%s') outside multi-dims branches",
                     e->id, i, su_name(g, e->send_node), su_name(g, e->recv_node));
        goto fail;
      }
      for (j = 0; j < i; j++) {
        const ge_stream_event *f = &p->events[j];
        const char *fl;
        if (f->id != e->id) continue;
        fl = su_event_branch(g, f);
        if (fl && strcmp(fl, label) == 0) {
          ge_error_set(err, GE_ERR_INVALID, "event id %u shared by events %u and %u of one batch label '%s'", e->id, j,
                       i, label);
          goto fail;
        }
      }
    }
    used[e->id] = 1;
    id_label[e->id] = label;
    su_edges_add(&r->edges, e->send_node, e->recv_node);
  }
  for (i = 0; i < p->num_event_ids; i++)
    if (!used[i]) {
      ge_error_set(err, GE_ERR_INVALID, "event ids not continuous: %u unused of %u", i, p->num_event_ids);
      goto fail;
    }
  free(used);
  free(id_label);
  used = NULL;
  id_label = NULL;
  /* acyclic: a cycle is a deadlock */
  su_csr_build(&r->succ, bound, &r->edges, 0);
  su_csr_build(&r->pred, bound, &r->edges, 1);
  done = su_kahn(bound, r->alive, &r->succ, r->order);
  if (done != r->live) {
    uint8_t *seen = (uint8_t *)calloc((size_t)bound + 1, 1);
    uint32_t stuck = GE_NONE;
    for (i = 0; i < done; i++) seen[r->order[i]] = 1;
    for (i = 0; i < bound && stuck == GE_NONE; i++)
      if (r->alive[i] && !seen[i]) stuck = i;
    free(seen);
    return ge_error_set(err, GE_ERR_CYCLE, "the plan deadlocks: stream order, events and activations form a cycle "
                        "through '%s' (%u of %u nodes ordered)", su_name(g, stuck), done, r->live);
  }
  /* vector clocks: clock[v][s] = how many nodes of stream s happen before v, v included */
  if (want_clocks && p->num_streams && (uint64_t)bound * p->num_streams <= SU_MAX_CLOCK_ENTRIES) {
    uint32_t S = p->num_streams;
    r->clock = (uint32_t *)calloc((size_t)bound * S + 1, sizeof(uint32_t));
    if (!r->clock) abort();
    for (i = 0; i < r->live; i++) {
      uint32_t v = r->order[i], *cv = r->clock + (size_t)v * S;
      for (k = r->pred.start[v]; k < r->pred.start[v + 1]; k++) {
        const uint32_t *cu = r->clock + (size_t)r->pred.adj[k] * S;
        for (s = 0; s < S; s++)
          if (cu[s] > cv[s]) cv[s] = cu[s];
      }
      cv[r->stream[v]] = r->pos[v] + 1;
    }
  }
  return GE_OK;
fail:
  free(used);
  free(id_label);
  return err ? err->code : GE_ERR_INVALID;
}

/* 1 when a completes before b starts (a != b), from the clocks. */
static SU_UNUSED int su_rel_before(const su_rel *r, uint32_t a, uint32_t b) {
  if (a == b || !r->clock) return 0;
  return r->clock[(size_t)b * r->num_streams + (uint32_t)r->stream[a]] >= r->pos[a] + 1;
}

/* ------------------------------------------------------------ bitsets */

typedef struct su_bits {
  uint32_t n, words; /* bits per row, 64-bit words per row */
  uint64_t *w;
} su_bits;

static SU_UNUSED void su_bits_init(su_bits *b, uint32_t rows, uint32_t n) {
  b->n = n;
  b->words = (n + 63) / 64;
  b->w = (uint64_t *)calloc((size_t)rows * b->words + 1, sizeof(uint64_t));
  if (!b->w) abort();
}
static SU_UNUSED uint64_t *su_row(const su_bits *b, uint32_t r) { return b->w + (size_t)r * b->words; }
static SU_UNUSED int su_get(const uint64_t *row, uint32_t i) { return (int)((row[i / 64] >> (i % 64)) & 1); }
static SU_UNUSED void su_set(uint64_t *row, uint32_t i) { row[i / 64] |= (uint64_t)1 << (i % 64); }
static SU_UNUSED void su_or(uint64_t *dst, const uint64_t *src, uint32_t words) {
  uint32_t i;
  for (i = 0; i < words; i++) dst[i] |= src[i];
}

/* Strict predecessors of every node in the relation, as bitsets over ids
 * (before[v] has bit u when u happens before v): a slower second opinion
 * on the clocks. The relation must have been built. */
static SU_UNUSED void su_rel_bitsets(const su_rel *r, su_bits *before) {
  uint32_t i, k;
  su_bits_init(before, r->bound, r->bound);
  for (i = 0; i < r->live; i++) {
    uint32_t v = r->order[i];
    uint64_t *bv = su_row(before, v);
    for (k = r->pred.start[v]; k < r->pred.start[v + 1]; k++) {
      uint32_t u = r->pred.adj[k];
      su_or(bv, su_row(before, u), before->words);
      su_set(bv, u);
    }
  }
}

/* ------------------------------------------------------------ checks */

/* The happens-before checker: the plan is well formed and every data and
 * control dependency u -> v of g's root level has u completing before v
 * starts. */
static SU_UNUSED ge_status su_check_plan(const ge_graph *g, const ge_stream_plan *p, ge_error *err) {
  su_rel r;
  su_edges deps;
  ge_status st;
  uint32_t i;
  memset(&deps, 0, sizeof deps);
  st = su_rel_build(g, p, 1, &r, err);
  if (st == GE_OK && !r.clock && p->num_streams)
    st = ge_error_set(err, GE_ERR_NOMEM, "%u ids x %u streams is too big for the checker's clocks", r.bound,
                      p->num_streams);
  if (st == GE_OK) {
    su_dependencies(g, &deps);
    for (i = 0; i < deps.n; i++) {
      uint32_t u = deps.src[i], v = deps.dst[i];
      if (u == v || !su_rel_before(&r, u, v)) {
        st = ge_error_set(err, GE_ERR_INVALID,
                          "dependency '%s' (stream %d, position %u) -> '%s' (stream %d, position %u) is not ordered "
                          "by the plan",
                          su_name(g, u), r.stream[u], r.pos[u], su_name(g, v), r.stream[v], r.pos[v]);
        break;
      }
    }
  }
  su_edges_free(&deps);
  su_rel_free(&r);
  return st;
}

/* Whether a split may fall before node x (seed 002 §4.4): not before a
 * StreamActive or a label op (LabelSet, LabelGoto, LabelGotoEx,
 * LabelSwitchByIndex), nor before a node with a subgraph. */
static SU_UNUSED int su_split_point(const ge_node *x) {
  static const char *const never[] = {"StreamActive", "LabelSet", "LabelGoto", "LabelGotoEx", "LabelSwitchByIndex"};
  uint32_t k;
  for (k = 0; k < sizeof never / sizeof *never; k++)
    if (!strcmp(x->op, never[k])) return 0;
  for (k = 0; k < x->num_attrs; k++)
    if (x->attrs[k].type == GE_ATTR_GRAPH || x->attrs[k].type == GE_ATTR_GRAPHS) return 0;
  return 1;
}

/* Task counts: num_tasks = nodes + event records + event waits on the
 * stream. With a task limit, a stream over it is a huge stream within
 * huge_task_limit, or holds a node whose own tasks (itself, its event
 * records and waits) exceed the limit (ge_stream.h), or ends in nodes no
 * split may precede (su_split_point): the stream up to its last node that
 * could start a piece must fit. A continuous label is no excuse: a group
 * that cannot fit in a piece is an allocation error. The plan must be well
 * formed. */
static SU_UNUSED ge_status su_check_tasks(const ge_graph *g, const ge_stream_plan *p, const ge_stream_desc *d,
                                          ge_error *err) {
  uint32_t bound = ge_graph_id_bound(g), s, i;
  uint32_t *tasks = (uint32_t *)calloc((size_t)p->num_streams + 1, sizeof(uint32_t));
  uint32_t *own = (uint32_t *)calloc((size_t)bound + 1, sizeof(uint32_t));
  ge_status st = GE_OK;
  if (!tasks || !own) abort();
  for (s = 0; s < p->num_streams; s++) tasks[s] = p->streams[s].num_nodes;
  for (i = 0; i < bound; i++) own[i] = 1;
  for (i = 0; i < p->num_events; i++) {
    const ge_stream_event *e = &p->events[i];
    if ((uint32_t)e->send_stream < p->num_streams) tasks[e->send_stream]++;
    if ((uint32_t)e->recv_stream < p->num_streams) tasks[e->recv_stream]++;
    if (e->send_node < bound) own[e->send_node]++;
    if (e->recv_node < bound) own[e->recv_node]++;
  }
  for (s = 0; s < p->num_streams && st == GE_OK; s++) {
    const ge_stream_info *si = &p->streams[s];
    uint32_t most = 0, prefix = 0, fits = 0, last = 0;
    if (si->num_tasks != tasks[s]) {
      st = ge_error_set(err, GE_ERR_INVALID, "stream %u: num_tasks %u, nodes + records + waits %u", s, si->num_tasks,
                        tasks[s]);
      break;
    }
    if (!d || !d->task_limit || tasks[s] <= d->task_limit) continue;
    if (si->huge) {
      if (!d->single_stream || !d->huge_task_limit || tasks[s] > d->huge_task_limit)
        st = ge_error_set(err, GE_ERR_INVALID, "huge stream %u: %u tasks, huge limit %u (single stream %d)", s,
                          tasks[s], d->huge_task_limit, d->single_stream);
      continue;
    }
    for (i = 0; i < si->num_nodes; i++) {
      const ge_node *x = ge_graph_node(g, si->nodes[i]);
      if (own[x->id] > most) most = own[x->id];
      prefix += own[x->id];
      if (i == 0 || su_split_point(x)) fits = prefix <= d->task_limit, last = i;
    }
    if (most <= d->task_limit && !fits)
      st = ge_error_set(err, GE_ERR_INVALID, "stream %u: %u tasks (%u nodes, at most %u tasks of one node) over the "
                        "task limit %u, also up to its last split point '%s'", s, tasks[s], si->num_nodes, most,
                        d->task_limit, su_name(g, si->nodes[last]));
  }
  free(tasks);
  free(own);
  return st;
}

/* Whether the split keeps each logical stream in order: the pieces of a
 * logical stream, in stream index order, each start after the previous one
 * ended (a chain of events). Returns GE_OK or the first piece out of order. */
static SU_UNUSED ge_status su_check_split_chain(const ge_graph *g, const ge_stream_plan *p, ge_error *err) {
  su_rel r;
  uint32_t s, t;
  ge_status st = su_rel_build(g, p, 1, &r, err);
  for (s = 0; s < p->num_streams && st == GE_OK; s++) {
    if (!p->streams[s].num_nodes) continue;
    for (t = s + 1; t < p->num_streams; t++)
      if (p->streams[t].logical == p->streams[s].logical && p->streams[t].num_nodes) break;
    if (t == p->num_streams) continue;
    if (!su_rel_before(&r, p->streams[s].nodes[p->streams[s].num_nodes - 1], p->streams[t].nodes[0]))
      st = ge_error_set(err, GE_ERR_INVALID, "logical stream %d: piece %u ('%s' last) does not end before piece %u "
                        "('%s' first) starts", p->streams[s].logical, s,
                        su_name(g, p->streams[s].nodes[p->streams[s].num_nodes - 1]), t,
                        su_name(g, p->streams[t].nodes[0]));
  }
  su_rel_free(&r);
  return st;
}

/* ------------------------------------------------- the fewest events */

/* The oracle: D = data and control dependencies + consecutive nodes of a
 * stream + activations (activator -> first node of the stream). The fewest
 * events for the assignment, among events that order only what D orders,
 * is the number of edges of D's transitive reduction that cross streams
 * and are not activations (the reduction is the unique smallest edge set
 * with D's closure, and stream order and activations are free).
 * Modes: SU_PHYSICAL, streams as they are; SU_LOGICAL, streams are the
 * plan's logical streams, each the concatenation of its physical pieces in
 * stream index order (the figure before a physical split); SU_SPLIT,
 * physical streams plus an edge from the last node of each piece to the
 * first of the next piece of its logical stream (the split keeps the
 * logical order). D has the same closure under SU_LOGICAL and SU_SPLIT, so
 * SU_SPLIT = SU_LOGICAL + the chain edges the reduction keeps.
 * Brute force over bitsets: for small graphs. Returns -1 when D has a
 * cycle or the plan misses nodes. */
enum { SU_PHYSICAL = 0, SU_LOGICAL = 1, SU_SPLIT = 2 };
static SU_UNUSED long su_min_events_ex(const ge_graph *g, const ge_stream_plan *p, int mode) {
  uint32_t bound = ge_graph_id_bound(g), m = 0, i, k, s;
  uint32_t *dense = (uint32_t *)malloc(sizeof(uint32_t) * ((size_t)bound + 1));
  uint32_t *ids = (uint32_t *)malloc(sizeof(uint32_t) * ((size_t)bound + 1));
  int32_t *key = NULL;
  su_bits adj, act, reach, cover;
  su_edges deps;
  uint32_t *order = NULL, *indeg = NULL, head = 0, tail = 0, last;
  long count = 0;
  if (!dense || !ids) abort();
  memset(&deps, 0, sizeof deps);
  for (i = 0; i < bound; i++) {
    dense[i] = GE_NONE;
    if (ge_graph_node(g, i)) ids[m] = i, dense[i] = m++;
  }
  key = (int32_t *)malloc(sizeof(int32_t) * ((size_t)m + 1));
  if (!key) abort();
  for (i = 0; i < m; i++) key[i] = -1;
  su_bits_init(&adj, m, m);
  su_bits_init(&act, m, m);
  /* stream order */
  if (mode != SU_LOGICAL) {
    for (s = 0; s < p->num_streams; s++)
      for (k = 0; k < p->streams[s].num_nodes; k++) {
        uint32_t v = dense[p->streams[s].nodes[k]];
        key[v] = (int32_t)s;
        if (k) su_set(su_row(&adj, dense[p->streams[s].nodes[k - 1]]), v);
      }
    if (mode == SU_SPLIT)
      for (s = 0; s < p->num_streams; s++) {
        uint32_t t;
        if (!p->streams[s].num_nodes) continue;
        for (t = s + 1; t < p->num_streams; t++)
          if (p->streams[t].logical == p->streams[s].logical && p->streams[t].num_nodes) break;
        if (t < p->num_streams)
          su_set(su_row(&adj, dense[p->streams[s].nodes[p->streams[s].num_nodes - 1]]), dense[p->streams[t].nodes[0]]);
      }
  } else {
    for (s = 0; s < p->num_streams; s++) {
      uint32_t t;
      int seen_before = 0;
      for (t = 0; t < s; t++)
        if (p->streams[t].logical == p->streams[s].logical) seen_before = 1;
      if (seen_before) continue;
      last = GE_NONE;
      for (t = s; t < p->num_streams; t++) {
        if (p->streams[t].logical != p->streams[s].logical) continue;
        for (k = 0; k < p->streams[t].num_nodes; k++) {
          uint32_t v = dense[p->streams[t].nodes[k]];
          key[v] = p->streams[s].logical;
          if (last != GE_NONE) su_set(su_row(&adj, last), v);
          last = v;
        }
      }
    }
  }
  for (i = 0; i < m; i++)
    if (key[i] < 0) {
      count = -1;
      goto done;
    }
  /* activations */
  for (s = 0; s < p->num_streams; s++) {
    uint32_t a = p->streams[s].activated_by;
    if (a == GE_NONE || !p->streams[s].num_nodes || a >= bound || dense[a] == GE_NONE) continue;
    su_set(su_row(&adj, dense[a]), dense[p->streams[s].nodes[0]]);
    su_set(su_row(&act, dense[a]), dense[p->streams[s].nodes[0]]);
  }
  /* dependencies */
  su_dependencies(g, &deps);
  for (i = 0; i < deps.n; i++) {
    if (deps.src[i] == deps.dst[i]) {
      count = -1;
      goto done;
    }
    su_set(su_row(&adj, dense[deps.src[i]]), dense[deps.dst[i]]);
  }
  /* topological order of D */
  order = (uint32_t *)malloc(sizeof(uint32_t) * ((size_t)m + 1));
  indeg = (uint32_t *)calloc((size_t)m + 1, sizeof(uint32_t));
  if (!order || !indeg) abort();
  for (i = 0; i < m; i++)
    for (k = 0; k < m; k++)
      if (su_get(su_row(&adj, i), k)) indeg[k]++;
  for (i = 0; i < m; i++)
    if (!indeg[i]) order[tail++] = i;
  while (head < tail) {
    uint32_t u = order[head++];
    for (k = 0; k < m; k++)
      if (su_get(su_row(&adj, u), k) && --indeg[k] == 0) order[tail++] = k;
  }
  if (tail != m) {
    count = -1;
    goto done;
  }
  /* reach[u]: descendants; cover[u]: what u reaches through a path of two edges or more */
  su_bits_init(&reach, m, m);
  su_bits_init(&cover, m, m);
  for (i = m; i-- > 0;) {
    uint32_t u = order[i];
    uint64_t *ru = su_row(&reach, u), *cu = su_row(&cover, u);
    for (k = 0; k < m; k++)
      if (su_get(su_row(&adj, u), k)) su_or(cu, su_row(&reach, k), reach.words);
    su_or(ru, cu, reach.words);
    su_or(ru, su_row(&adj, u), reach.words);
  }
  for (i = 0; i < m; i++)
    for (k = 0; k < m; k++)
      if (su_get(su_row(&adj, i), k) && !su_get(su_row(&cover, i), k) && key[i] != key[k] &&
          !su_get(su_row(&act, i), k))
        count++;
  free(reach.w);
  free(cover.w);
done:
  su_edges_free(&deps);
  free(adj.w);
  free(act.w);
  free(order);
  free(indeg);
  free(key);
  free(dense);
  free(ids);
  return count;
}

static SU_UNUSED long su_min_events(const ge_graph *g, const ge_stream_plan *p) { return su_min_events_ex(g, p, SU_SPLIT); }

/* The number of split boundaries: physical streams beyond one per logical
 * stream that has any. */
static SU_UNUSED uint32_t su_split_boundaries(const ge_stream_plan *p) {
  uint32_t s, t, n = 0;
  for (s = 0; s < p->num_streams; s++)
    for (t = 0; t < s; t++)
      if (p->streams[t].logical == p->streams[s].logical) {
        n++;
        break;
      }
  return n;
}

/* ------------------------------------------------------------ simulation */

/* Makespan of the plan: node v takes dur[v] (indexed by node id); a stream
 * runs its nodes in order; a node starts when its stream predecessor has
 * finished, every event it waits for was recorded (sender finished) plus
 * latency, and, first on an activated stream, when the activator finished
 * plus latency. Nothing else limits parallelism (streams are independent
 * queues), so the earliest start of each node in a topological order of
 * the relation is the schedule the discrete-event run produces. start, when
 * not NULL, receives each node's start time (bound entries). */
static SU_UNUSED ge_status su_simulate_ex(const ge_graph *g, const ge_stream_plan *p, const double *dur, double latency,
                                          double *makespan, double *start, ge_error *err) {
  su_rel r;
  ge_status st = su_rel_build(g, p, 0, &r, err);
  double *fin, best = 0;
  uint32_t i, k;
  if (st != GE_OK) {
    su_rel_free(&r);
    return st;
  }
  fin = (double *)calloc((size_t)r.bound + 1, sizeof(double));
  if (!fin) abort();
  for (i = 0; i < r.live; i++) {
    uint32_t v = r.order[i];
    double t = 0;
    for (k = r.pred.start[v]; k < r.pred.start[v + 1]; k++) {
      uint32_t u = r.pred.adj[k];
      double ready = fin[u] + (r.stream[u] == r.stream[v] ? 0 : latency);
      if (ready > t) t = ready;
    }
    if (start) start[v] = t;
    fin[v] = t + dur[v];
    if (fin[v] > best) best = fin[v];
  }
  *makespan = best;
  free(fin);
  su_rel_free(&r);
  return GE_OK;
}

static SU_UNUSED ge_status su_simulate(const ge_graph *g, const ge_stream_plan *p, const double *dur, double latency,
                                       double *makespan) {
  ge_error err;
  return su_simulate_ex(g, p, dur, latency, makespan, NULL, &err);
}

/* The longest path by durations over data and control dependencies (the
 * makespan with unlimited streams and free events); -1 on a cycle. */
static SU_UNUSED double su_critical_path(const ge_graph *g, const double *dur) {
  uint32_t bound = ge_graph_id_bound(g), i, k, live = 0, done;
  uint8_t *alive = (uint8_t *)calloc((size_t)bound + 1, 1);
  uint32_t *order = (uint32_t *)malloc(sizeof(uint32_t) * ((size_t)bound + 1));
  double *fin = (double *)calloc((size_t)bound + 1, sizeof(double)), best = 0;
  su_edges deps;
  su_csr succ, pred;
  if (!alive || !order || !fin) abort();
  memset(&deps, 0, sizeof deps);
  for (i = 0; i < bound; i++)
    if (ge_graph_node(g, i)) alive[i] = 1, live++;
  su_dependencies(g, &deps);
  su_csr_build(&succ, bound, &deps, 0);
  su_csr_build(&pred, bound, &deps, 1);
  done = su_kahn(bound, alive, &succ, order);
  if (done != live) best = -1;
  for (i = 0; i < done; i++) {
    uint32_t v = order[i];
    double t = 0;
    for (k = pred.start[v]; k < pred.start[v + 1]; k++)
      if (fin[pred.adj[k]] > t) t = fin[pred.adj[k]];
    fin[v] = t + dur[v];
    if (fin[v] > best) best = fin[v];
  }
  su_edges_free(&deps);
  su_csr_free(&succ);
  su_csr_free(&pred);
  free(alive);
  free(order);
  free(fin);
  return best;
}

/* Durations per node id: uniform in 1..10 (kind 0) or lognormal-ish, a
 * product of three uniforms in 0.5..2 scaled by 4 (kind 1), from a seed
 * (xorshift; no global state). */
static SU_UNUSED void su_durations(const ge_graph *g, uint64_t seed, int kind, double *dur) {
  uint64_t x = seed * 0x9E3779B97F4A7C15ull + 0x51ED27ull;
  uint32_t bound = ge_graph_id_bound(g), i;
  if (!x) x = 1;
  for (i = 0; i < bound; i++) {
    int j;
    double v = kind ? 4 : 0;
    for (j = 0; j < (kind ? 3 : 1); j++) {
      double u;
      x ^= x >> 12, x ^= x << 25, x ^= x >> 27;
      u = (double)((x * 0x2545F4914F6CDD1Dull) >> 11) / 9007199254740992.0; /* [0, 1) */
      if (kind) v *= 0.5 + 1.5 * u;
      else v = 1 + (double)(int)(u * 10);
    }
    dur[i] = ge_graph_node(g, i) ? v : 0;
  }
}

#endif

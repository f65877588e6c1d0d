/* ge_partition.h — graph partitioning (seed 001).
 *
 * Part of ge. Include anywhere for the declarations; define
 * GE_PARTITION_IMPLEMENTATION (or GE_IMPLEMENTATION) in one translation
 * unit. Needs only ge_graph.h: engines are read through node->engine and
 * the ge_engine descriptors the caller passes.
 *
 *   - the cluster framework (§5.1): one cluster per node, Merge, TryMerge
 *     (refuses a merge that would make a cycle), MergeAllPathFrom, and
 *     wrapping a node set into a PartitionedCall;
 *   - dynamic/static shape partitioning (§5.2);
 *
 * Thread safety: one graph is partitioned by one thread at a time.
 */
#ifndef GE_PARTITION_H
#define GE_PARTITION_H

#include "ge_graph.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ----------------------------------------------------------- wrapping */

/* Moves nodes[0..n) of g into a new subgraph held by a new PartitionedCall
 * node of g (attribute "f"), named `name` (NULL: made unique from
 * "partitioned_call"). Edges entering the set become the call's inputs (the
 * subgraph's Data nodes, index k for input k), node outputs used outside
 * the set become the call's outputs (its NetOutput), control edges crossing
 * the set move to the call. The set must be convex (no path leaving and
 * re-entering it) or the graph gets a cycle: GE_ERR_CYCLE, g unchanged.
 * Data and NetOutput nodes of g cannot be moved. The moved nodes keep their
 * names, attributes, engine and stream in the subgraph. */
GE_API ge_status ge_partition_wrap(ge_graph *g, const ge_node_id *nodes, uint32_t n, const char *name,
                                   ge_node_id *call, ge_error *err);


/* ----------------------------------------------------------- clusters */

/* Clusters of the nodes of one graph (§5.1.2). Every node starts in a
 * cluster of its own; a cluster is named by one of its nodes (its id).
 * Merges keep the cluster graph acyclic when done through try_merge or
 * merge_paths; merge is unconditional (the caller knows it is safe). The
 * graph must not change while the clusters exist. */
typedef struct ge_clusters ge_clusters;

GE_API ge_status ge_clusters_create(ge_graph *g, ge_clusters **out, ge_error *err);
GE_API void ge_clusters_free(ge_clusters *c);
/* The cluster holding node n (GE_NONE for a hole). */
GE_API ge_node_id ge_clusters_find(ge_clusters *c, ge_node_id n);
GE_API uint32_t ge_clusters_size(ge_clusters *c, ge_node_id cluster);
/* Position of node n in the topological order the clusters were made with. */
GE_API uint32_t ge_clusters_position(const ge_clusters *c, ge_node_id n);
/* The nodes of a cluster: first, then next until GE_NONE (any order). */
GE_API ge_node_id ge_clusters_first(ge_clusters *c, ge_node_id cluster);
GE_API ge_node_id ge_clusters_next(const ge_clusters *c, ge_node_id node);
/* Merge: unconditional; returns the merged cluster. */
GE_API ge_node_id ge_clusters_merge(ge_clusters *c, ge_node_id a, ge_node_id b);
/* TryMerge: merges unless another path joins the two (the merge would make
 * a cycle); returns the merged cluster or GE_NONE when refused. Every merge
 * returns GE_NONE, changing nothing, when memory runs out. */
GE_API ge_node_id ge_clusters_try_merge(ge_clusters *c, ge_node_id a, ge_node_id b);
/* MergeAllPathFrom: merges from, to and every cluster on a path between
 * them (never a cycle); returns the merged cluster. */
GE_API ge_node_id ge_clusters_merge_paths(ge_clusters *c, ge_node_id from, ge_node_id to);
/* Whether a path of data or control edges leads from one cluster to the
 * other. */
GE_API int ge_clusters_has_path(ge_clusters *c, ge_node_id from, ge_node_id to);

/* ----------------------------------------- dynamic/static partitioning */

typedef struct ge_dynamic_partition_desc {
  int32_t static_ops_lower_limit;  /* ge.exec.static_model_ops_lower_limit: 0 = 4, -1 = all dynamic */
  int32_t host_scheduling_max_threshold; /* ge.exec.hostSchedulingMaxThreshold: fewer static nodes -> all dynamic; 0 off */
  int32_t host_cpu_engine;         /* node->engine of DNN_VM_HOST_CPU (those nodes are dynamic); -1: none */
} ge_dynamic_partition_desc;

/* Sets a field from a GE option (GE_ERR_NOT_FOUND for other keys). */
GE_API ge_status ge_dynamic_partition_set_option(ge_dynamic_partition_desc *d, const char *key, const char *value,
                                                 ge_error *err);

/* Splits g by shape dynamism (§5.2): classifies nodes (unknown dims or
 * rank, _force_unknown_shape, _is_support_addr_refresh = 0, a tiling
 * dependency without offload, the host CPU engine, dynamic subgraphs),
 * merges (dynamic path absorption, static single-path merges, small static
 * clusters demoted, control-flow groups, Variables with their consumers),
 * re-splits when a stack's data-flow ops straddle the two kinds, then wraps
 * every cluster into a PartitionedCall with attribute _is_unknown_shape
 * (0/1) and sets GE_NODE_IS_DYNAMIC on dynamic nodes. A graph with no
 * dynamic node is left whole. The decision is recorded as the graph
 * attribute _dynamic_shape_partitioned (0/1). Data, NetOutput and Consts
 * no cluster takes stay in g. */
GE_API ge_status ge_partition_dynamic(ge_graph *g, const ge_dynamic_partition_desc *d, ge_error *err);

#ifdef __cplusplus
}
#endif
#endif /* GE_PARTITION_H */

/* ===================================================================== */
#if defined(GE_IMPLEMENTATION) || defined(GE_PARTITION_IMPLEMENTATION)
#ifndef GE_PARTITION_IMPLEMENTATION_DONE
#define GE_PARTITION_IMPLEMENTATION_DONE

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------- wrapping */

static int ge__pt_is(const ge_node *n, const char *op) { return !strcmp(n->op, op) && ge_node_in_onnx_domain(n); }

static ge_status ge__pt_wrap(ge_graph *g, const ge_node_id *nodes, uint32_t n, const char *name,
                             ge_node_id *call_out, ge_error *err);

/* Whether no path leaves the set and re-enters it: a search forward from
 * the set's outside consumers must not reach the set. */
static int ge__pt_convex(const ge_graph *g, const ge_node_id *nodes, uint32_t n) {
  uint32_t bound = ge_graph_id_bound(g), top = 0, i, k;
  uint8_t *mark = (uint8_t *)calloc(bound + 1, 1); /* 1 in the set, 2 seen outside */
  ge_node_id *stack = (ge_node_id *)malloc(sizeof(ge_node_id) * (bound + 1));
  int convex = 1;
  if (!mark || !stack) {
    free(mark), free(stack);
    return 0;
  }
  for (i = 0; i < n; i++) mark[nodes[i]] = 1;
  for (i = 0; i < n; i++) stack[top++] = nodes[i];
  while (top && convex) {
    ge_node_id id = stack[--top];
    const ge_node *x = ge_graph_node(g, id);
    for (k = 0; k < x->num_uses + x->num_control_outputs && convex; k++) {
      ge_node_id y = k < x->num_uses ? x->uses[k].node : x->control_outputs[k - x->num_uses];
      if (mark[y] == 1 && mark[id] == 2) convex = 0; /* back into the set from outside */
      else if (!mark[y]) {
        mark[y] = 2;
        stack[top++] = y;
      }
    }
  }
  free(mark), free(stack);
  return convex;
}

GE_API ge_status ge_partition_wrap(ge_graph *g, const ge_node_id *nodes, uint32_t n, const char *name,
                                   ge_node_id *call_out, ge_error *err) {
  uint32_t i;
  if (!g || !nodes || !n) return ge_error_set(err, GE_ERR_INVALID, "ge_partition_wrap: no nodes to wrap");
  for (i = 0; i < n; i++)
    if (!ge_graph_node(g, nodes[i]))
      return ge_error_set(err, GE_ERR_INVALID, "ge_partition_wrap: node %u does not exist", (unsigned)nodes[i]);
  if (!ge__pt_convex(g, nodes, n))
    return ge_error_set(err, GE_ERR_CYCLE, "ge_partition_wrap: the %u nodes are not convex (a path leaves the set and comes back)",
                        (unsigned)n);
  return ge__pt_wrap(g, nodes, n, name, call_out, err);
}

/* ge_partition_wrap without the convexity check (clusters are convex). */
static ge_status ge__pt_wrap(ge_graph *g, const ge_node_id *nodes, uint32_t n, const char *name,
                             ge_node_id *call_out, ge_error *err) {
  ge_extract_result r;
  ge_node_id call;
  ge_status st;
  uint32_t i, k;
  for (i = 0; i < n; i++) {
    const ge_node *x = ge_graph_node(g, nodes[i]);
    if (ge__pt_is(x, "Data") || ge__pt_is(x, "NetOutput"))
      return ge_error_set(err, GE_ERR_INVALID, "ge_partition_wrap: %s node '%s' cannot move into a subgraph", x->op, x->name);
  }
  if ((st = ge_graph_extract(g, nodes, n, &r, err)) != GE_OK) return st;
  st = ge_graph_add_node(g, "PartitionedCall", name, r.num_boundary_inputs, r.boundary_inputs,
                         (int32_t)r.num_boundary_outputs, &call, err);
  if (st != GE_OK) {
    ge_extract_result_free(g, &r);
    return st;
  }
  for (i = 0; i < r.num_boundary_outputs && st == GE_OK; i++) {
    ge_edge to;
    const ge_node *src = ge_graph_node(g, r.boundary_outputs[i].node);
    const ge_tensor_desc *d = &src->outputs[r.boundary_outputs[i].index];
    to.node = call, to.index = (int32_t)i;
    st = ge_node_set_output(g, call, i, d->dtype, d->shape.rank, d->shape.dims, d->shape.info, err);
    if (st == GE_OK) st = ge_graph_replace_uses(g, r.boundary_outputs[i], to, err);
  }
  /* control edges crossing the set now attach to the call */
  for (i = 0; i < n && st == GE_OK; i++) {
    const ge_node *x = ge_graph_node(g, nodes[i]);
    for (k = 0; k < x->num_control_inputs && st == GE_OK; k++)
      if (r.node_map[x->control_inputs[k]] == GE_NONE) st = ge_graph_add_control(g, x->control_inputs[k], call, err);
    for (k = 0; k < x->num_control_outputs && st == GE_OK; k++)
      if (r.node_map[x->control_outputs[k]] == GE_NONE) st = ge_graph_add_control(g, call, x->control_outputs[k], err);
  }
  /* the copies keep the decisions already made about the nodes */
  for (i = 0; i < n && st == GE_OK; i++) {
    const ge_node *x = ge_graph_node(g, nodes[i]);
    ge_node *y = ge_graph_node(r.graph, r.node_map[nodes[i]]);
    y->engine = x->engine, y->stream = x->stream, y->flags = x->flags;
  }
  if (st == GE_OK) {
    st = ge_node_set_attr_graph(g, call, "f", r.graph, err);
    r.graph = NULL; /* owned by the call now (or freed on error) */
  }
  ge_extract_result_free(g, &r);
  for (i = 0; i < n && st == GE_OK; i++) st = ge_graph_remove_node(g, nodes[i], err);
  if (st == GE_OK && call_out) *call_out = call;
  return st;
}


/* ------------------------------------------------------------- clusters */

typedef struct ge__pt_list {
  ge_node_id *v;
  uint32_t n, cap, clean; /* clean: length after the last compaction */
} ge__pt_list;

struct ge_clusters {
  ge_graph *g;
  uint32_t bound;
  uint32_t *pos;            /* node -> topological position */
  ge_node_id *parent;       /* union-find; GE_NONE for holes */
  ge_node_id *next, *tail;  /* node lists per cluster */
  uint32_t *size;           /* per cluster: nodes */
  uint32_t *rank;           /* per cluster: a topological order of the clusters (Pearce-Kelly) */
  ge__pt_list *out, *in;    /* per cluster: neighbour clusters (may be stale: find them) */
  uint32_t *stamp, *stamp2, epoch;
  ge_node_id *stack, *stack2;
  uint64_t *sorted;         /* scratch of the reordering: (rank, cluster) pairs */
  uint32_t *pool;
};

static int ge__pt_push(ge__pt_list *l, ge_node_id x) {
  if (l->n == l->cap) {
    uint32_t cap = l->cap ? 2 * l->cap : 4;
    ge_node_id *v = (ge_node_id *)realloc(l->v, sizeof *v * cap);
    if (!v) return 0;
    l->v = v, l->cap = cap;
  }
  l->v[l->n++] = x;
  return 1;
}

GE_API void ge_clusters_free(ge_clusters *c) {
  uint32_t i;
  if (!c) return;
  for (i = 0; c->out && i < c->bound; i++) free(c->out[i].v), free(c->in[i].v);
  free(c->pos), free(c->parent), free(c->next), free(c->tail), free(c->size), free(c->rank);
  free(c->out), free(c->in), free(c->stamp), free(c->stamp2), free(c->stack), free(c->stack2), free(c->sorted), free(c->pool);
  free(c);
}

GE_API ge_status ge_clusters_create(ge_graph *g, ge_clusters **out, ge_error *err) {
  ge_clusters *c = (ge_clusters *)calloc(1, sizeof *c);
  uint32_t n = ge_graph_node_count(g), b = ge_graph_id_bound(g), i, k;
  ge_node_id *order;
  ge_status st;
  *out = NULL;
  if (!c) return ge_error_set(err, GE_ERR_NOMEM, "out of memory for clusters");
  c->g = g, c->bound = b;
  c->pos = (uint32_t *)calloc(b + 1, sizeof *c->pos);
  c->parent = (ge_node_id *)malloc((b + 1) * sizeof *c->parent);
  c->next = (ge_node_id *)malloc((b + 1) * sizeof *c->next);
  c->tail = (ge_node_id *)malloc((b + 1) * sizeof *c->tail);
  c->size = (uint32_t *)calloc(b + 1, sizeof *c->size);
  c->rank = (uint32_t *)calloc(b + 1, sizeof *c->rank);
  c->sorted = (uint64_t *)malloc((b + 1) * sizeof *c->sorted);
  c->pool = (uint32_t *)malloc((b + 1) * sizeof *c->pool);
  c->out = (ge__pt_list *)calloc(b + 1, sizeof *c->out);
  c->in = (ge__pt_list *)calloc(b + 1, sizeof *c->in);
  c->stamp = (uint32_t *)calloc(b + 1, sizeof *c->stamp);
  c->stamp2 = (uint32_t *)calloc(b + 1, sizeof *c->stamp2);
  c->stack = (ge_node_id *)malloc((b + 1) * sizeof *c->stack);
  c->stack2 = (ge_node_id *)malloc((b + 1) * sizeof *c->stack2);
  order = (ge_node_id *)malloc((n + 1) * sizeof *order);
  if (!c->pos || !c->parent || !c->next || !c->tail || !c->size || !c->rank || !c->sorted || !c->pool || !c->out ||
      !c->in || !c->stamp || !c->stamp2 || !c->stack || !c->stack2 || !order) {
    free(order);
    ge_clusters_free(c);
    return ge_error_set(err, GE_ERR_NOMEM, "out of memory for clusters of %u nodes", (unsigned)n);
  }
  if ((st = ge_graph_topo_sort(g, GE_TOPO_BFS, order, err)) != GE_OK) {
    free(order);
    ge_clusters_free(c);
    return st;
  }
  for (i = 0; i < b; i++) c->parent[i] = GE_NONE;
  for (i = 0; i < n; i++) {
    ge_node_id id = order[i];
    c->pos[id] = c->rank[id] = i;
    c->parent[id] = id, c->next[id] = GE_NONE, c->tail[id] = id, c->size[id] = 1;
  }
  free(order);
  for (i = 0; i < b; i++) {
    const ge_node *x = ge_graph_node(g, i);
    if (!x) continue;
    for (k = 0; k < x->num_uses + x->num_control_outputs; k++) {
      ge_node_id y = k < x->num_uses ? x->uses[k].node : x->control_outputs[k - x->num_uses];
      if ((!c->out[i].n || c->out[i].v[c->out[i].n - 1] != y) && (!ge__pt_push(&c->out[i], y) || !ge__pt_push(&c->in[y], i))) {
        ge_clusters_free(c);
        return ge_error_set(err, GE_ERR_NOMEM, "out of memory for cluster edges");
      }
    }
  }
  *out = c;
  return GE_OK;
}

GE_API ge_node_id ge_clusters_find(ge_clusters *c, ge_node_id n) {
  ge_node_id *p = c->parent;
  if (n >= c->bound || p[n] == GE_NONE) return GE_NONE;
  while (p[n] != n) { /* path halving */
    p[n] = p[p[n]];
    n = p[n];
  }
  return n;
}

GE_API uint32_t ge_clusters_size(ge_clusters *c, ge_node_id cluster) { return c->size[ge_clusters_find(c, cluster)]; }
GE_API uint32_t ge_clusters_position(const ge_clusters *c, ge_node_id n) { return c->pos[n]; }
GE_API ge_node_id ge_clusters_first(ge_clusters *c, ge_node_id cluster) { return ge_clusters_find(c, cluster); }
GE_API ge_node_id ge_clusters_next(const ge_clusters *c, ge_node_id node) { return c->next[node]; }

/* Drops stale, self and repeated entries of a neighbour list (amortised:
 * only when it doubled since the last time). */
static void ge__pt_compact(ge_clusters *c, ge__pt_list *l, ge_node_id self) {
  uint32_t i, k = 0;
  if (l->n < 2 * l->clean + 8) return;
  c->epoch++;
  for (i = 0; i < l->n; i++) {
    ge_node_id y = ge_clusters_find(c, l->v[i]);
    if (y == self || c->stamp[y] == c->epoch) continue;
    c->stamp[y] = c->epoch;
    l->v[k++] = y;
  }
  l->n = l->clean = k;
}

static int ge__pt_reserve(ge__pt_list *l, uint32_t more) {
  if (l->n + more > l->cap) {
    uint32_t cap = l->n + more + l->cap;
    ge_node_id *v = (ge_node_id *)realloc(l->v, sizeof *v * cap);
    if (!v) return 0;
    l->v = v, l->cap = cap;
  }
  return 1;
}

/* Moves src's entries to the end of dst (room reserved). */
static void ge__pt_append(ge__pt_list *dst, ge__pt_list *src) {
  if (src->n) memcpy(dst->v + dst->n, src->v, sizeof *src->v * src->n);
  dst->n += src->n;
  free(src->v);
  memset(src, 0, sizeof *src);
}

static int ge__pt_cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

static int ge__pt_cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* Marks (in mark, with the current epoch) and lists into c->sorted the
 * clusters reached from x over out (forward) or in lists whose rank lies
 * strictly between lo and hi; returns how many. */
static uint32_t ge__pt_region(ge_clusters *c, ge_node_id x, int backward, uint32_t lo, uint32_t hi, uint32_t *mark,
                              uint32_t at) {
  uint32_t top = 0, n = at, i;
  c->stack[top++] = x;
  mark[x] = c->epoch;
  c->sorted[n++] = (uint64_t)c->rank[x] << 32 | x;
  while (top) {
    ge_node_id v = c->stack[--top];
    ge__pt_list *l = backward ? &c->in[v] : &c->out[v];
    for (i = 0; i < l->n; i++) {
      ge_node_id y = ge_clusters_find(c, l->v[i]);
      if (y == v || mark[y] == c->epoch || c->rank[y] <= lo || c->rank[y] >= hi) continue;
      mark[y] = c->epoch;
      c->sorted[n++] = (uint64_t)c->rank[y] << 32 | y;
      c->stack[top++] = y;
    }
  }
  return n - at;
}

/* A new edge x -> y with rank[x] > rank[y] (a merge made it): Pearce-Kelly
 * reorders the affected region so ranks stay a topological order. What
 * reaches x (backward, above rank[y]) takes the lower ranks of the region,
 * what y reaches (forward, below rank[x]) the higher ones. The cluster
 * graph is acyclic here, so the two sets are disjoint. */
static void ge__pt_reorder(ge_clusters *c, ge_node_id x, ge_node_id y) {
  uint32_t nb, nf, i;
  c->epoch++;
  nb = ge__pt_region(c, x, 1, c->rank[y], UINT32_MAX, c->stamp, 0);
  nf = ge__pt_region(c, y, 0, 0, c->rank[x], c->stamp2, nb);
  qsort(c->sorted, nb, sizeof *c->sorted, ge__pt_cmp_u64);
  qsort(c->sorted + nb, nf, sizeof *c->sorted, ge__pt_cmp_u64);
  for (i = 0; i < nb + nf; i++) c->pool[i] = (uint32_t)(c->sorted[i] >> 32);
  qsort(c->pool, nb + nf, sizeof *c->pool, ge__pt_cmp_u32);
  for (i = 0; i < nb + nf; i++) c->rank[(ge_node_id)(c->sorted[i] & 0xFFFFFFFFu)] = c->pool[i];
}

/* Unions the clusters set[0..n) (reps; their union must be convex) into
 * one, which takes the lowest rank; its producers ranked above it are then
 * reordered. GE_NONE (nothing changed) when memory runs out. */
static ge_node_id ge__pt_merge_set(ge_clusters *c, const ge_node_id *set, uint32_t n) {
  ge_node_id big = set[0], m;
  uint32_t i, low = c->rank[set[0]], more_out = 0, more_in = 0;
  for (i = 1; i < n; i++) {
    if (c->size[set[i]] > c->size[big]) big = set[i];
    if (c->rank[set[i]] < low) low = c->rank[set[i]];
  }
  for (i = 0; i < n; i++)
    if (set[i] != big) more_out += c->out[set[i]].n, more_in += c->in[set[i]].n;
  if (!ge__pt_reserve(&c->out[big], more_out) || !ge__pt_reserve(&c->in[big], more_in)) return GE_NONE;
  for (i = 0; i < n; i++) {
    ge_node_id s = set[i];
    if (s == big) continue;
    c->parent[s] = big;
    c->size[big] += c->size[s];
    c->next[c->tail[big]] = s; /* node lists: big's, then s's */
    c->tail[big] = c->tail[s];
    ge__pt_append(&c->out[big], &c->out[s]);
    ge__pt_append(&c->in[big], &c->in[s]);
  }
  c->rank[big] = low;
  ge__pt_compact(c, &c->out[big], big);
  ge__pt_compact(c, &c->in[big], big);
  m = big;
  for (i = 0; i < c->in[m].n; i++) {
    ge_node_id p = ge_clusters_find(c, c->in[m].v[i]);
    if (p != m && c->rank[p] > c->rank[m]) ge__pt_reorder(c, p, m);
  }
  return m;
}

GE_API ge_node_id ge_clusters_merge(ge_clusters *c, ge_node_id a, ge_node_id b) {
  ge_node_id set[2];
  a = ge_clusters_find(c, a), b = ge_clusters_find(c, b);
  if (a == b || a == GE_NONE || b == GE_NONE) return a;
  set[0] = a, set[1] = b;
  return ge__pt_merge_set(c, set, 2);
}

/* Whether `to` is reachable from `from`, not counting the direct edge from
 * `from` to `to` when skip_direct. Bidirectional: forward from `from` over
 * clusters ranked below `to`, backward from `to` over clusters ranked above
 * `from`, one edge at a time on the side that has done less work; a path
 * exists iff the searches meet, and none once either runs out, so the cost
 * is about twice that of the smaller side. */
static int ge__pt_reach(ge_clusters *c, ge_node_id from, ge_node_id to, int skip_direct) {
  uint32_t nf = 0, nb = 0, fi = 0, bi = 0, lo = c->rank[from], hi = c->rank[to];
  uint64_t work_f = 0, work_b = 0;
  ge_node_id *fwd = c->stack, *bwd = c->stack2, fx = GE_NONE, bx = GE_NONE;
  if (lo > hi) return 0;
  c->epoch++;
  fwd[nf++] = from, bwd[nb++] = to;
  c->stamp[from] = c->epoch, c->stamp2[to] = c->epoch;
  for (;;) {
    ge_node_id y;
    if (work_f <= work_b) { /* one forward edge */
      if (fx == GE_NONE || fi == c->out[fx].n) {
        if (!nf) return 0;
        fx = fwd[--nf], fi = 0;
        continue;
      }
      y = ge_clusters_find(c, c->out[fx].v[fi++]);
      work_f++;
      if (y == fx || c->stamp[y] == c->epoch || (y == to && skip_direct && fx == from)) continue;
      if (y == to || c->stamp2[y] == c->epoch) return 1;
      if (c->rank[y] > hi) continue;
      c->stamp[y] = c->epoch;
      fwd[nf++] = y;
    } else { /* one backward edge */
      if (bx == GE_NONE || bi == c->in[bx].n) {
        if (!nb) return 0;
        bx = bwd[--nb], bi = 0;
        continue;
      }
      y = ge_clusters_find(c, c->in[bx].v[bi++]);
      work_b++;
      if (y == bx || c->stamp2[y] == c->epoch || (y == from && skip_direct && bx == to)) continue;
      if (y == from || c->stamp[y] == c->epoch) return 1;
      if (c->rank[y] < lo) continue;
      c->stamp2[y] = c->epoch;
      bwd[nb++] = y;
    }
  }
}

GE_API int ge_clusters_has_path(ge_clusters *c, ge_node_id from, ge_node_id to) {
  from = ge_clusters_find(c, from), to = ge_clusters_find(c, to);
  if (from == GE_NONE || to == GE_NONE || from == to) return 0;
  return ge__pt_reach(c, from, to, 0);
}

GE_API ge_node_id ge_clusters_try_merge(ge_clusters *c, ge_node_id a, ge_node_id b) {
  a = ge_clusters_find(c, a), b = ge_clusters_find(c, b);
  if (a == GE_NONE || b == GE_NONE) return GE_NONE;
  if (a == b) return a;
  if (ge__pt_reach(c, a, b, 1) || ge__pt_reach(c, b, a, 1)) return GE_NONE;
  return ge_clusters_merge(c, a, b);
}

GE_API ge_node_id ge_clusters_merge_paths(ge_clusters *c, ge_node_id from, ge_node_id to) {
  uint32_t top = 0, i, n = 0;
  ge_node_id *on_path, t, m;
  from = ge_clusters_find(c, from), to = ge_clusters_find(c, to);
  if (from == GE_NONE || to == GE_NONE || from == to) return from;
  if (c->rank[from] > c->rank[to]) t = from, from = to, to = t;
  if (!ge__pt_reach(c, from, to, 0)) return ge_clusters_merge(c, from, to); /* unrelated: no cycle possible */
  if (!(on_path = (ge_node_id *)malloc(sizeof *on_path * (c->bound + 1)))) return GE_NONE;
  /* forward from `from` within the rank window (stamp) ... */
  c->epoch++;
  c->stack[top++] = from;
  c->stamp[from] = c->epoch;
  while (top) {
    ge_node_id x = c->stack[--top];
    for (i = 0; i < c->out[x].n; i++) {
      ge_node_id y = ge_clusters_find(c, c->out[x].v[i]);
      if (y == x || c->stamp[y] == c->epoch || c->rank[y] > c->rank[to]) continue;
      c->stamp[y] = c->epoch;
      if (y != to) c->stack[top++] = y;
    }
  }
  /* ... then backward from `to` over what was reached: those lie on a path */
  c->stack[top++] = to;
  c->stamp2[to] = c->epoch;
  while (top) {
    ge_node_id x = c->stack[--top];
    on_path[n++] = x;
    for (i = 0; i < c->in[x].n; i++) {
      ge_node_id y = ge_clusters_find(c, c->in[x].v[i]);
      if (y == x || c->stamp2[y] == c->epoch || c->stamp[y] != c->epoch) continue;
      c->stamp2[y] = c->epoch;
      c->stack[top++] = y;
    }
  }
  m = ge__pt_merge_set(c, on_path, n);
  free(on_path);
  return m;
}

/* ------------------------------------------------- building the partition */

/* Wraps every cluster holding a movable node into a PartitionedCall, in
 * topological order of the clusters; label() then names and marks the call.
 * movable[node] = 0 keeps a node in g (Data, NetOutput, lone Consts). */
typedef void (*ge__pt_label_fn)(ge_graph *g, ge_node_id call, ge_node_id cluster, uint32_t index, void *u);

static ge_status ge__pt_wrap_clusters(ge_graph *g, ge_clusters *c, const uint8_t *movable, ge__pt_label_fn label,
                                      void *u, ge_error *err) {
  uint32_t bound = c->bound, i, count = ge_graph_node_count(g), n_rep = 0, k;
  ge_node_id *order = (ge_node_id *)malloc(sizeof *order * (count + 1));
  ge_node_id *reps = (ge_node_id *)malloc(sizeof *reps * (bound + 1));
  ge_node_id *set = (ge_node_id *)malloc(sizeof *set * (bound + 1));
  ge_status st = GE_OK;
  if (!order || !reps || !set) st = ge_error_set(err, GE_ERR_NOMEM, "out of memory building partitions");
  if (st == GE_OK) {
    for (i = 0; i < bound; i++)
      if (c->parent[i] != GE_NONE) order[c->pos[i]] = i;
    c->epoch++;
    for (i = 0; i < count; i++) {
      ge_node_id r = ge_clusters_find(c, order[i]);
      if (movable[order[i]] && c->stamp[r] != c->epoch) {
        c->stamp[r] = c->epoch;
        reps[n_rep++] = r;
      }
    }
  }
  for (k = 0; k < n_rep && st == GE_OK; k++) {
    uint32_t n = 0;
    ge_node_id x, call;
    for (x = reps[k]; x != GE_NONE; x = c->next[x])
      if (movable[x]) set[n++] = x;
    if ((st = ge__pt_wrap(g, set, n, NULL, &call, err)) == GE_OK && label) label(g, call, reps[k], k, u);
  }
  free(order), free(reps), free(set);
  return st;
}

/* ------------------------------------------ dynamic/static partitioning */

enum { GE__PT_KNOWN = 0, GE__PT_UNKNOWN = 1, GE__PT_FIXED = 2 };

GE_API ge_status ge_dynamic_partition_set_option(ge_dynamic_partition_desc *d, const char *key, const char *value,
                                                 ge_error *err) {
  char *end;
  long v;
  int32_t *field;
  if (!strcmp(key, "ge.exec.static_model_ops_lower_limit")) field = &d->static_ops_lower_limit;
  else if (!strcmp(key, "ge.exec.hostSchedulingMaxThreshold") || !strcmp(key, "ge.host_scheduling_max_threshold"))
    field = &d->host_scheduling_max_threshold;
  else return ge_error_set(err, GE_ERR_NOT_FOUND, "unknown option '%.100s'", key);
  v = strtol(value, &end, 10);
  if (!*value || *end || v < -1 || v > 1000000000 || (v == -1 && field != &d->static_ops_lower_limit))
    return ge_error_set(err, GE_ERR_INVALID, "option %s: '%.64s' is not %s", key, value,
                        field == &d->static_ops_lower_limit ? "-1 or a count" : "a count");
  *field = (int32_t)v;
  return GE_OK;
}

static int ge__pt_has_unknown_shape(const ge_graph *g, const ge_node *n) {
  uint32_t i;
  for (i = 0; i < n->num_outputs; i++)
    if (!ge_shape_is_static(&n->outputs[i].shape)) return 1;
  for (i = 0; i < n->num_inputs; i++) {
    const ge_tensor_desc *t = ge_node_input_desc(g, n, i);
    if (t && !ge_shape_is_static(&t->shape)) return 1;
  }
  return 0;
}

static int ge__pt_graph_dynamic(const ge_graph *g, const ge_dynamic_partition_desc *d);

/* The six rules of §5.2.1. */
static int ge__pt_node_dynamic(const ge_graph *g, const ge_node *n, const ge_dynamic_partition_desc *d) {
  uint32_t a;
  if (ge__pt_has_unknown_shape(g, n)) return 1;                                           /* 1 */
  if ((n->flags & GE_NODE_FORCE_DYNAMIC) || ge_node_attr_int(n, "_force_unknown_shape", 0)) return 1; /* 2 */
  if (ge_node_attr_int(n, "_tiling_dependency", 0) && !ge_node_attr_int(n, "_tiling_offload", 0)) return 1; /* 3 */
  if (!ge_node_attr_int(n, "_is_support_addr_refresh", 1)) return 1;                   /* 4 */
  if (d->host_cpu_engine >= 0 && n->engine == d->host_cpu_engine) return 1;              /* 5 */
  for (a = 0; a < n->num_attrs; a++) {                                                     /* 6 */
    const ge_attr *at = &n->attrs[a];
    int32_t k;
    if (at->type == GE_ATTR_GRAPH && ge__pt_graph_dynamic(at->v.g, d)) return 1;
    for (k = 0; at->type == GE_ATTR_GRAPHS && k < at->count; k++)
      if (ge__pt_graph_dynamic(at->v.graphs[k], d)) return 1;
  }
  return 0;
}

static int ge__pt_graph_dynamic(const ge_graph *g, const ge_dynamic_partition_desc *d) {
  ge_node *n;
  GE_GRAPH_FOREACH(g, n) if (ge__pt_node_dynamic(g, n, d)) return 1;
  return 0;
}

typedef struct ge__pt_dyn {
  ge_graph *g;
  ge_clusters *c;
  uint8_t *kind;    /* per cluster (its id) */
  ge_node_id *order; /* nodes by position */
  uint32_t count;
} ge__pt_dyn;

/* Producer j (data then control) of node n, or GE_NONE. */
static ge_node_id ge__pt_producer(const ge_node *n, uint32_t j) {
  return j < n->num_inputs ? n->inputs[j].node : n->control_inputs[j - n->num_inputs];
}

/* Dynamic path absorption: every dynamic cluster takes in all clusters on
 * the paths from the dynamic clusters feeding it. */
static void ge__pt_merge_unknown(ge__pt_dyn *s) {
  uint32_t i, j;
  for (i = 0; i < s->count; i++) {
    const ge_node *n = ge_graph_node(s->g, s->order[i]);
    for (j = 0; j < n->num_inputs + n->num_control_inputs; j++) {
      ge_node_id p = ge__pt_producer(n, j), x = ge_clusters_find(s->c, n->id), y, z;
      if (s->kind[x] != GE__PT_UNKNOWN) break;
      if (p == GE_NONE) continue;
      y = ge_clusters_find(s->c, p);
      if (y == x || s->kind[y] != GE__PT_UNKNOWN) continue;
      if ((z = ge_clusters_merge_paths(s->c, y, x)) != GE_NONE) s->kind[z] = GE__PT_UNKNOWN;
    }
  }
}

/* Static clusters merge with static producers when no other path joins
 * them (and Consts join their first consumer they can). */
static void ge__pt_merge_known(ge__pt_dyn *s) {
  uint32_t i, j;
  for (i = 0; i < s->count; i++) {
    const ge_node *n = ge_graph_node(s->g, s->order[i]);
    for (j = 0; j < n->num_inputs + n->num_control_inputs; j++) {
      ge_node_id p = ge__pt_producer(n, j), x = ge_clusters_find(s->c, n->id), y, z;
      if (s->kind[x] != GE__PT_KNOWN) break;
      if (p == GE_NONE) continue;
      y = ge_clusters_find(s->c, p);
      if (y == x || s->kind[y] != GE__PT_KNOWN) continue;
      if ((z = ge_clusters_try_merge(s->c, y, x)) != GE_NONE) s->kind[z] = GE__PT_KNOWN;
    }
  }
}

/* Each Const left alone joins the first consumer cluster it can. */
static void ge__pt_merge_consts(ge__pt_dyn *s) {
  uint32_t i, u;
  for (i = 0; i < s->count; i++) {
    const ge_node *n = ge_graph_node(s->g, s->order[i]);
    ge_node_id x = ge_clusters_find(s->c, n->id);
    if (!ge__pt_is(n, "Const") || ge_clusters_size(s->c, x) != 1) continue;
    for (u = 0; u < n->num_uses; u++) {
      ge_node_id y = ge_clusters_find(s->c, n->uses[u].node), z;
      uint8_t k = s->kind[y];
      if (k == GE__PT_FIXED) continue;
      if ((z = ge_clusters_try_merge(s->c, x, y)) != GE_NONE) {
        s->kind[z] = k;
        break;
      }
    }
  }
}

/* Static clusters smaller than the limit become dynamic. */
static void ge__pt_demote_small(ge__pt_dyn *s, int32_t limit) {
  uint32_t i;
  for (i = 0; i < s->count; i++) {
    ge_node_id x = ge_clusters_find(s->c, s->order[i]);
    if (s->kind[x] == GE__PT_KNOWN && (limit < 0 || ge_clusters_size(s->c, x) < (uint32_t)limit))
      s->kind[x] = GE__PT_UNKNOWN;
  }
}

/* Nodes of one control-flow group (attribute _control_flow_group) join one
 * cluster; Variables join their consumers' clusters. */
static void ge__pt_merge_groups(ge__pt_dyn *s) {
  uint32_t i, j, u;
  for (i = 0; i < s->count; i++) {
    const ge_node *n = ge_graph_node(s->g, s->order[i]);
    int64_t grp = ge_node_attr_int(n, "_control_flow_group", -1);
    if (grp >= 0)
      for (j = i + 1; j < s->count; j++) {
        const ge_node *m = ge_graph_node(s->g, s->order[j]);
        ge_node_id z;
        if (ge_node_attr_int(m, "_control_flow_group", -1) != grp) continue;
        z = ge_clusters_merge_paths(s->c, n->id, m->id);
        if (z != GE_NONE) s->kind[z] = GE__PT_UNKNOWN;
        break; /* the next member chains on from m */
      }
    if (ge__pt_is(n, "Variable"))
      for (u = 0; u < n->num_uses; u++) {
        ge_node_id y = ge_clusters_find(s->c, n->uses[u].node), z;
        uint8_t k = s->kind[y];
        if (k != GE__PT_FIXED && (z = ge_clusters_try_merge(s->c, n->id, y)) != GE_NONE) s->kind[z] = k;
      }
  }
}

static int ge__pt_is_stack_op(const ge_node *n) {
  return ge__pt_is(n, "Stack") || ge__pt_is(n, "StackPush") || ge__pt_is(n, "StackPop") || ge__pt_is(n, "StackClose");
}

/* Data-flow ops of one stack in clusters of both kinds: forced dynamic
 * (returns how many were marked, so the caller partitions again). */
static uint32_t ge__pt_force_split_stacks(ge__pt_dyn *s) {
  uint32_t i, u, marked = 0;
  for (i = 0; i < s->count; i++) {
    ge_node *n = ge_graph_node(s->g, s->order[i]);
    int kinds = 0;
    if (!ge__pt_is(n, "Stack")) continue;
    kinds |= 1 << s->kind[ge_clusters_find(s->c, n->id)];
    for (u = 0; u < n->num_uses; u++)
      if (ge__pt_is_stack_op(ge_graph_node(s->g, n->uses[u].node)))
        kinds |= 1 << s->kind[ge_clusters_find(s->c, n->uses[u].node)];
    if ((kinds & 3) != 3) continue;
    if (!(n->flags & GE_NODE_FORCE_DYNAMIC)) n->flags |= GE_NODE_FORCE_DYNAMIC, marked++;
    for (u = 0; u < n->num_uses; u++) {
      ge_node *m = ge_graph_node(s->g, n->uses[u].node);
      if (ge__pt_is_stack_op(m) && !(m->flags & GE_NODE_FORCE_DYNAMIC)) m->flags |= GE_NODE_FORCE_DYNAMIC, marked++;
    }
  }
  return marked;
}

static void ge__pt_label_dynamic(ge_graph *g, ge_node_id call, ge_node_id cluster, uint32_t index, void *u) {
  ge__pt_dyn *s = (ge__pt_dyn *)u;
  int dyn = s->kind[cluster] == GE__PT_UNKNOWN;
  char name[64];
  ge_node *n = ge_graph_node(g, call);
  snprintf(name, sizeof name, "%s_%u", dyn ? "dynamic" : "static", (unsigned)index);
  if (ge_graph_find(g, name) == GE_NONE) ge_node_set_name(g, call, name, NULL);
  ge_node_set_attr_int(g, call, "_is_unknown_shape", dyn, NULL);
  if (dyn) n->flags |= GE_NODE_IS_DYNAMIC;
  else n->flags &= ~(uint32_t)GE_NODE_IS_DYNAMIC;
}

/* Classifies and merges; 1 when some node is dynamic. */
static int ge__pt_dynamic_clusters(ge__pt_dyn *s, const ge_dynamic_partition_desc *d) {
  int32_t limit = d->static_ops_lower_limit ? d->static_ops_lower_limit : 4;
  uint32_t i, n_known = 0, n_unknown = 0;
  for (i = 0; i < s->count; i++) {
    ge_node *n = ge_graph_node(s->g, s->order[i]);
    uint8_t k = ge__pt_is(n, "Data") || ge__pt_is(n, "NetOutput") ? GE__PT_FIXED
                : ge__pt_node_dynamic(s->g, n, d)                 ? GE__PT_UNKNOWN
                                                                  : GE__PT_KNOWN;
    s->kind[n->id] = k;
    n_known += k == GE__PT_KNOWN, n_unknown += k == GE__PT_UNKNOWN;
  }
  if (!n_unknown) return 0;
  if (limit < 0 || (d->host_scheduling_max_threshold > 0 && n_known < (uint32_t)d->host_scheduling_max_threshold))
    for (i = 0; i < s->count; i++)
      if (s->kind[s->order[i]] == GE__PT_KNOWN) s->kind[s->order[i]] = GE__PT_UNKNOWN;
  ge__pt_merge_unknown(s);
  ge__pt_merge_known(s);
  ge__pt_merge_consts(s);
  ge__pt_demote_small(s, limit);
  ge__pt_merge_unknown(s);
  ge__pt_merge_groups(s);
  return 1;
}

GE_API ge_status ge_partition_dynamic(ge_graph *g, const ge_dynamic_partition_desc *d, ge_error *err) {
  ge_dynamic_partition_desc dflt;
  ge__pt_dyn s;
  ge_status st = GE_OK;
  uint8_t *movable = NULL;
  uint32_t round, i;
  int dynamic = 0;
  if (!g) return ge_error_set(err, GE_ERR_INVALID, "ge_partition_dynamic: no graph");
  if (!d) {
    memset(&dflt, 0, sizeof dflt);
    dflt.host_cpu_engine = -1;
    d = &dflt;
  }
  memset(&s, 0, sizeof s);
  s.g = g;
  for (round = 0; round < 3 && st == GE_OK; round++) { /* a data-flow re-split partitions again */
    ge_clusters_free(s.c);
    free(s.kind), free(s.order);
    s.kind = NULL, s.order = NULL;
    if ((st = ge_clusters_create(g, &s.c, err)) != GE_OK) break;
    s.count = ge_graph_node_count(g);
    s.kind = (uint8_t *)calloc(s.c->bound + 1, 1);
    s.order = (ge_node_id *)malloc(sizeof *s.order * (s.count + 1));
    if (!s.kind || !s.order) {
      st = ge_error_set(err, GE_ERR_NOMEM, "out of memory partitioning by dynamism");
      break;
    }
    for (i = 0; i < s.c->bound; i++)
      if (s.c->parent[i] != GE_NONE) s.order[s.c->pos[i]] = i;
    dynamic = ge__pt_dynamic_clusters(&s, d);
    if (!dynamic || !ge__pt_force_split_stacks(&s)) break;
  }
  if (st == GE_OK) st = ge_graph_set_attr_int(g, "_dynamic_shape_partitioned", dynamic, err);
  if (st == GE_OK && dynamic) {
    if (!(movable = (uint8_t *)calloc(s.c->bound + 1, 1))) st = ge_error_set(err, GE_ERR_NOMEM, "out of memory");
    for (i = 0; st == GE_OK && i < s.count; i++) {
      ge_node *n = ge_graph_node(g, s.order[i]);
      ge_node_id x = ge_clusters_find(s.c, n->id);
      movable[n->id] = s.kind[x] != GE__PT_FIXED && !(ge__pt_is(n, "Const") && ge_clusters_size(s.c, x) == 1);
      if (s.kind[x] == GE__PT_UNKNOWN) n->flags |= GE_NODE_IS_DYNAMIC;
      else n->flags &= ~(uint32_t)GE_NODE_IS_DYNAMIC;
    }
    if (st == GE_OK) st = ge__pt_wrap_clusters(g, s.c, movable, ge__pt_label_dynamic, &s, err);
  }
  free(movable);
  free(s.kind), free(s.order);
  ge_clusters_free(s.c);
  return st;
}

#ifdef __cplusplus
}
#endif
#endif /* GE_PARTITION_IMPLEMENTATION_DONE */
#endif /* GE_PARTITION_IMPLEMENTATION */

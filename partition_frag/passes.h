/* partition_frag/passes.h — fragment of ge_partition.h (merged later).
 *
 * Four partition passes of seed 001:
 *
 *   - ge_partition_stages          pipeline stages (§5.4, StagePartitioner)
 *   - ge_partition_scopes          scope subgraphs (§5.5.2, CreateSubGraphWithScopePass)
 *   - ge_partition_split_variables Variables copied into subgraphs (§5.6)
 *   - ge_partition_binary          JIT binary partitioning (§5.7, BinaryPartitioner),
 *     and ge_jit_order, which peels a graph into successive slices
 *     (ExecutionOrder::AddNewSlice).
 *
 * Thread safety: a graph is changed by one thread at a time;
 * ge_partition_binary only reads its graph (several may run on one graph).
 */
#include "ge_partition.h"

#ifndef GE_PARTITION_PASSES_H
#define GE_PARTITION_PASSES_H
/* @decl-begin */
#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------ pipeline stages */

/* Splits the root graph into pipeline stages by the int attribute
 * "_stage_level" (GE's ATTR_STAGE_LEVEL).
 *
 * Rule. Nodes carrying the attribute keep their level. Every other node
 * (Data and NetOutput excepted: they stay in the root graph) takes the
 * smallest level among its consumers, data and control consumers alike,
 * NetOutput not counted; a node without consumers (feeding only the
 * NetOutput, or nothing) joins the last stage, the largest level marked
 * (GE's SplitTailStage: no extra stage is made). Taking the smallest
 * consumer level makes a producer run no later than its first consumer, and
 * it is the only choice that keeps every edge going forward: any larger
 * level would make an edge into an earlier stage. The levels are written
 * back on the nodes ("_stage_level" on each one).
 *
 * An edge (data or control) from a marked node into a node of a lower
 * level is an error, GE_ERR_INVALID naming both nodes and levels: stages
 * run in increasing level, so it would be a backward edge between stages.
 *
 * Each stage's nodes move into one PartitionedCall named "stage_<level>"
 * (made unique if taken), carrying "_stage_level" and GE_NODE_FORCE_DYNAMIC
 * (GE's _force_unknown_shape on stage parents).
 *
 * Stages are convex: along every edge u -> v between non-Data nodes,
 * level(u) <= level(v) (marked producers are checked; an unmarked one takes
 * the minimum over its consumers). A path leaving stage s and coming back
 * would pass levels >= s then <= s, hence only s: it never left.
 *
 * No "_stage_level" on any node: the graph is not changed. Only the root
 * graph is split (subgraphs are not looked into). A graph with a cycle is
 * GE_ERR_CYCLE; a "_stage_level" that is not an int is GE_ERR_INVALID
 * naming the node. Time: O(N + E) to decide, then one ge_partition_wrap
 * per stage (each O(N + E)). */
GE_API ge_status ge_partition_stages(ge_graph *g, ge_error *err);

/* ------------------------------------------------------- scope subgraphs */

/* Wraps nodes sharing the value of attribute "_op_multi_dims_input_dims"
 * (GE's ATTR_NAME_OP_MULTI_DIMS_INPUT_DIMS; a string, ints, or any scalar or
 * list attribute, compared by type and value) into PartitionedCalls, one per
 * value, named "scope_<k>" (k counts the values in order of their first node
 * id) carrying the attribute.
 *
 * When a value's node set is not convex (a path leaves it and comes back,
 * so wrapping it would make a cycle) it is split, along a topological
 * order, into the fewest convex parts such that parts follow each other:
 * a node joins part p, the largest part of a same-value node it depends on
 * directly, or part p + 1 when it depends on part p only through other
 * nodes. The parts are named "scope_<k>_<p>". (An error would refuse
 * graphs GE accepts; splitting keeps the semantics.)
 *
 * Data and NetOutput nodes carrying the attribute stay where they are.
 * Tensor and graph attribute values are GE_ERR_INVALID naming the node.
 * Only the root graph is looked at. Time: O(N + E) per value (a
 * topological order of the graph as it stands, since wrapping one value
 * can make another's set non-convex), plus one ge_partition_wrap per part. */
GE_API ge_status ge_partition_scopes(ge_graph *g, ge_error *err);

/* -------------------------------------------- variables into subgraphs */

/* For every node H of g that holds subgraphs (If, Case, PartitionedCall):
 * when input k of H is output 0 of a Variable node V of g, every Data node
 * of H's subgraphs reading input k (attribute parent_index k; or, without
 * parent_index, the formal index: k for PartitionedCall, k - 1 for Case) is
 * replaced by a copy of V inside that subgraph: a Variable node with V's
 * name, attributes ("value", ...) and output descriptor. Then input k of H,
 * which nothing reads any more, is dropped (H is rebuilt with one input
 * less; the Data indices and parent_index values above k are renumbered).
 * The root Variable stays (its other consumers, if any, keep reading it).
 * The condition input of If (0) and the branch index of Case (0) are never
 * touched.
 *
 * While (and Loop) bodies are not copied into: a loop body reads its loop
 * variables, not the Variable itself. Instead a control edge V -> H is added
 * when a loop input is fed by a Variable.
 *
 * The pass recurses into every subgraph after handling its holder, so a
 * Variable copied into a subgraph is in turn copied into that subgraph's
 * nested If / Case / PartitionedCall bodies. A name clash inside a subgraph
 * (another node already named like V) is GE_ERR_INVALID naming both. */
GE_API ge_status ge_partition_split_variables(ge_graph *g, ge_error *err);

/* ---------------------------------------------- JIT binary partitioning */

/* Where a value comes from. */
enum {
  GE_BINARY_FROM_NONE = 0,     /* absent (an unconnected graph output) */
  GE_BINARY_FROM_INPUT = 1,    /* graph input `index` of the partitioned graph */
  GE_BINARY_FROM_SLICE = 2,    /* output `index` of the sliced graph */
  GE_BINARY_FROM_REMAINING = 3 /* output `index` of the remaining graph */
};
typedef struct ge_partition_binary_ref {
  int32_t from; /* GE_BINARY_FROM_* */
  uint32_t index;
} ge_partition_binary_ref;

/* The linkage between the two graphs (BinaryGraphIOLinkage). Arrays are
 * malloc'd; free with ge_partition_binary_io_free. */
typedef struct ge_partition_binary_io {
  uint32_t *slice_inputs; /* slice input k = graph input slice_inputs[k] */
  uint32_t num_slice_inputs;
  ge_partition_binary_ref *remaining_inputs; /* FROM_INPUT or FROM_SLICE */
  uint32_t num_remaining_inputs;
  ge_partition_binary_ref *outputs; /* graph output k: FROM_INPUT/SLICE/REMAINING/NONE */
  uint32_t num_outputs;
} ge_partition_binary_io;

/* Splits g into the slice of the `inferred` nodes and the rest.
 *
 * *sliced holds copies of the inferred nodes, plus every Const node they
 * read (a constant is always known; it then belongs to the slice only, and
 * the remaining graph receives it as an exported tensor). Its Data nodes
 * are the graph inputs it reads (named as in g), its NetOutput exports each
 * tensor the remaining graph reads and each graph output it produces, once.
 *
 * *remaining holds copies of every other node except g's Data and
 * NetOutput. Its Data nodes stand for the graph inputs it still reads
 * (named as in g) and for the slice's exports; its NetOutput gives the graph
 * outputs it produces, once each.
 *
 * io says which graph input feeds each slice input, where each remaining
 * input comes from, and where each output of g comes from (a graph output
 * may also be a graph input passed through). Control edges from slice to
 * remaining nodes are dropped (the slice runs first).
 *
 * Data and NetOutput nodes in `inferred` are ignored, and so are
 * duplicates; an id that is no node is GE_ERR_INVALID. A slice node whose
 * input (or control input) comes from a node outside the slice that is not
 * a graph input nor a Const is GE_ERR_CYCLE naming both nodes: the slice
 * would depend on the remainder. On error the outputs are left NULL/zero.
 * Time: O(N + E). */
GE_API ge_status ge_partition_binary(const ge_graph *g, const ge_node_id *inferred, uint32_t n, ge_graph **sliced,
                                     ge_graph **remaining, ge_partition_binary_io *io, ge_error *err);
GE_API void ge_partition_binary_io_free(ge_partition_binary_io *io);

/* Successive slices of one graph (ExecutionOrder): each call carves the
 * next slice out of what remains, "like an onion". Run the slices in order,
 * then the remaining graph, feeding each from `inputs` below. */
enum {
  GE_JIT_FROM_NONE = -3,      /* absent */
  GE_JIT_FROM_REMAINING = -2, /* output `index` of the remaining graph */
  GE_JIT_FROM_INPUT = -1      /* input `index` of the original graph */
  /* >= 0: output `index` of that slice */
};
typedef struct ge_jit_source {
  int32_t slice; /* GE_JIT_FROM_* or a slice number */
  uint32_t index;
} ge_jit_source;

typedef struct ge_jit_slice {
  ge_graph *graph;
  ge_jit_source *inputs; /* input k of the slice: an original input or an earlier slice's output */
  uint32_t num_inputs;
} ge_jit_slice;

typedef struct ge_jit_order {
  const ge_graph *original; /* set by the first slice */
  ge_jit_slice *slices;
  uint32_t num_slices;
  ge_graph *remaining;      /* NULL before the first slice (the original is all there is) */
  ge_jit_source *remaining_inputs;
  uint32_t num_remaining_inputs;
  ge_jit_source *outputs;   /* output k of the original graph */
  uint32_t num_outputs;
} ge_jit_order;

/* All-zero (or this) is an empty order. */
GE_API void ge_jit_order_init(ge_jit_order *order);
/* Carves the next slice out of the current remaining graph (g itself on the
 * first call). `g` is the original graph, always the same one (another is
 * GE_ERR_INVALID), and `inferred` are ids of g: nodes that already went
 * into earlier slices are skipped, so the caller may pass everything
 * inferred so far. A slice with no new node is still added (an empty
 * graph). On error the order is unchanged. */
GE_API ge_status ge_jit_order_add_slice(ge_jit_order *order, const ge_graph *g, const ge_node_id *inferred, uint32_t n,
                                        ge_error *err);
GE_API void ge_jit_order_free(ge_jit_order *order);

#ifdef __cplusplus
}
#endif
/* @decl-end */
#endif /* GE_PARTITION_PASSES_H */

#if defined(GE_IMPLEMENTATION) || defined(GE_PARTITION_IMPLEMENTATION)
#ifndef GE_PARTITION_PASSES_DONE
#define GE_PARTITION_PASSES_DONE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
/* @impl-begin */
#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------- helpers */

static int ge__pp_is(const ge_node *n, const char *op) { return !strcmp(n->op, op) && (!n->domain || !*n->domain); }
static int ge__pp_io_node(const ge_node *n) { return ge__pp_is(n, "Data") || ge__pp_is(n, "NetOutput"); }

static ge_status ge__pp_oom(ge_error *err, const char *pass) {
  return ge_error_set(err, GE_ERR_NOMEM, "%s: out of memory", pass);
}

/* A name not taken in g: base, else base_1, base_2, ... */
static void ge__pp_free_name(ge_graph *g, const char *base, char *buf, size_t cap) {
  unsigned k = 0;
  snprintf(buf, cap, "%s", base);
  while (ge_graph_find(g, buf) != GE_NONE) snprintf(buf, cap, "%s_%u", base, ++k);
}

/* Kahn's order over data and control edges into order[node_count] (without
 * touching topo_id); pos[id] (when given) gets each node's position.
 * GE_ERR_CYCLE naming a node on a cycle. */
static ge_status ge__pp_topo(const ge_graph *g, ge_node_id *order, uint32_t *pos, const char *pass, ge_error *err) {
  uint32_t bound = ge_graph_id_bound(g), n = ge_graph_node_count(g), head = 0, tail = 0, i, k;
  uint32_t *deg = (uint32_t *)calloc((size_t)bound + 1, sizeof(uint32_t));
  if (!deg) return ge__pp_oom(err, pass);
  for (i = 0; i < bound; i++) {
    const ge_node *x = ge_graph_node(g, i);
    if (!x) continue;
    for (k = 0; k < x->num_inputs; k++) deg[i] += x->inputs[k].node != GE_NONE;
    deg[i] += x->num_control_inputs;
    if (!deg[i]) order[tail++] = i;
  }
  while (head < tail) {
    const ge_node *x = ge_graph_node(g, order[head]);
    if (pos) pos[order[head]] = head;
    head++;
    for (k = 0; k < x->num_uses; k++)
      if (!--deg[x->uses[k].node]) order[tail++] = x->uses[k].node;
    for (k = 0; k < x->num_control_outputs; k++)
      if (!--deg[x->control_outputs[k]]) order[tail++] = x->control_outputs[k];
  }
  if (tail < n) {
    for (i = 0; i < bound; i++)
      if (ge_graph_node(g, i) && deg[i]) break;
    free(deg);
    return ge_error_set(err, GE_ERR_CYCLE, "%s: graph '%s' has a cycle through node '%s'", pass, ge_graph_name(g),
                        i < bound ? ge_graph_node(g, i)->name : "?");
  }
  free(deg);
  return GE_OK;
}

/* ------------------------------------------------------ pipeline stages */

typedef struct ge__pp_lv {
  int64_t level;
  ge_node_id id;
} ge__pp_lv;

static int ge__pp_lv_cmp(const void *a, const void *b) {
  const ge__pp_lv *x = (const ge__pp_lv *)a, *y = (const ge__pp_lv *)b;
  if (x->level != y->level) return x->level < y->level ? -1 : 1;
  return x->id < y->id ? -1 : x->id > y->id;
}

GE_API ge_status ge_partition_stages(ge_graph *g, ge_error *err) {
  static const char *const pass = "ge_partition_stages";
  uint32_t bound, count, i, k, n_lv = 0;
  int64_t *level = NULL, max_level = 0;
  uint8_t *state = NULL; /* 0 none, 1 marked, 2 assigned */
  ge_node_id *order = NULL;
  ge__pp_lv *lv = NULL;
  ge_status st = GE_OK;
  int any = 0;
  if (!g) return ge_error_set(err, GE_ERR_INVALID, "%s: no graph", pass);
  bound = ge_graph_id_bound(g);
  count = ge_graph_node_count(g);
  level = (int64_t *)calloc((size_t)bound + 1, sizeof *level);
  state = (uint8_t *)calloc((size_t)bound + 1, 1);
  order = (ge_node_id *)malloc(((size_t)count + 1) * sizeof *order);
  lv = (ge__pp_lv *)malloc(((size_t)count + 1) * sizeof *lv);
  if (!level || !state || !order || !lv) {
    st = ge__pp_oom(err, pass);
    goto done;
  }
  for (i = 0; i < bound; i++) {
    const ge_node *x = ge_graph_node(g, i);
    const ge_attr *a;
    if (!x || ge__pp_io_node(x) || !(a = ge_node_attr(x, "_stage_level"))) continue;
    if (a->type != GE_ATTR_INT) {
      st = ge_error_set(err, GE_ERR_INVALID, "%s: node '%s': attribute _stage_level is not an int", pass, x->name);
      goto done;
    }
    if (!any || a->v.i > max_level) max_level = a->v.i;
    any = 1;
    state[i] = 1;
    level[i] = a->v.i;
  }
  if (!any) goto done;
  if ((st = ge__pp_topo(g, order, NULL, pass, err))) goto done;
  /* reverse topological order: every consumer is decided before its producer */
  for (i = count; i-- > 0;) {
    const ge_node *x = ge_graph_node(g, order[i]);
    int64_t best = 0;
    int have = 0;
    if (ge__pp_io_node(x)) continue;
    for (k = 0; k < x->num_uses + x->num_control_outputs; k++) {
      ge_node_id c = k < x->num_uses ? x->uses[k].node : x->control_outputs[k - x->num_uses];
      if (!state[c]) continue; /* NetOutput (or Data) */
      if (state[x->id] == 1 && level[c] < level[x->id]) {
        st = ge_error_set(err, GE_ERR_INVALID,
                          "%s: node '%s' of stage %lld feeds node '%s' of the earlier stage %lld (a backward edge between stages)",
                          pass, x->name, (long long)level[x->id], ge_graph_node(g, c)->name, (long long)level[c]);
        goto done;
      }
      if (!have || level[c] < best) best = level[c];
      have = 1;
    }
    if (state[x->id] != 1) {
      state[x->id] = 2;
      level[x->id] = have ? best : max_level;
    }
    lv[n_lv].level = level[x->id];
    lv[n_lv++].id = x->id;
  }
  for (i = 0; i < n_lv && !st; i++)
    if (state[lv[i].id] == 2) st = ge_node_set_attr_int(g, lv[i].id, "_stage_level", lv[i].level, err);
  if (st) goto done;
  qsort(lv, n_lv, sizeof *lv, ge__pp_lv_cmp);
  for (i = 0; i < n_lv && !st;) {
    uint32_t j = i;
    ge_node_id call;
    char base[64], name[96];
    while (j < n_lv && lv[j].level == lv[i].level) {
      order[j - i] = lv[j].id; /* order is free now */
      j++;
    }
    snprintf(base, sizeof base, "stage_%lld", (long long)lv[i].level);
    ge__pp_free_name(g, base, name, sizeof name);
    if (!(st = ge_partition_wrap(g, order, j - i, name, &call, err)) &&
        !(st = ge_node_set_attr_int(g, call, "_stage_level", lv[i].level, err)))
      ge_graph_node(g, call)->flags |= GE_NODE_FORCE_DYNAMIC;
    i = j;
  }
done:
  free(level);
  free(state);
  free(order);
  free(lv);
  return st;
}

/* ------------------------------------------------------- scope subgraphs */

#define GE__PP_SCOPE_ATTR "_op_multi_dims_input_dims"

static uint64_t ge__pp_mix(uint64_t h, const void *p, size_t n) {
  const unsigned char *b = (const unsigned char *)p;
  size_t i;
  for (i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001B3ull;
  return h;
}

/* Hash of an attribute value; 0 with *ok = 0 for types not compared. */
static uint64_t ge__pp_attr_hash(const ge_attr *a, int *ok) {
  uint64_t h = 0xCBF29CE484222325ull;
  int32_t k;
  *ok = 1;
  h = ge__pp_mix(h, &a->type, sizeof a->type);
  switch (a->type) {
  case GE_ATTR_INT: return ge__pp_mix(h, &a->v.i, sizeof a->v.i);
  case GE_ATTR_FLOAT: return ge__pp_mix(h, &a->v.f, sizeof a->v.f);
  case GE_ATTR_BOOL: return ge__pp_mix(h, &a->v.b, sizeof a->v.b);
  case GE_ATTR_DTYPE: return ge__pp_mix(h, &a->v.dt, sizeof a->v.dt);
  case GE_ATTR_STRING: return ge__pp_mix(h, a->v.s, strlen(a->v.s));
  case GE_ATTR_INTS: return ge__pp_mix(h, a->v.ints, (size_t)a->count * sizeof(int64_t));
  case GE_ATTR_FLOATS: return ge__pp_mix(h, a->v.floats, (size_t)a->count * sizeof(double));
  case GE_ATTR_BOOLS: return ge__pp_mix(h, a->v.bools, (size_t)a->count);
  case GE_ATTR_DTYPES: return ge__pp_mix(h, a->v.dtypes, (size_t)a->count * sizeof(ge_dtype));
  case GE_ATTR_STRINGS:
    for (k = 0; k < a->count; k++) h = ge__pp_mix(h, a->v.strings[k], strlen(a->v.strings[k]) + 1);
    return h;
  default: *ok = 0; return 0;
  }
}

static int ge__pp_attr_cmp(const ge_attr *a, const ge_attr *b) {
  int32_t k;
  if (a->type != b->type) return a->type < b->type ? -1 : 1;
  switch (a->type) {
  case GE_ATTR_INT: return a->v.i < b->v.i ? -1 : a->v.i > b->v.i;
  case GE_ATTR_FLOAT: return memcmp(&a->v.f, &b->v.f, sizeof(double));
  case GE_ATTR_BOOL: return (a->v.b != 0) - (b->v.b != 0);
  case GE_ATTR_DTYPE: return (int)a->v.dt - (int)b->v.dt;
  case GE_ATTR_STRING: return strcmp(a->v.s, b->v.s);
  default: break;
  }
  if (a->count != b->count) return a->count < b->count ? -1 : 1;
  for (k = 0; k < a->count; k++) {
    int c = 0;
    switch (a->type) {
    case GE_ATTR_INTS: c = a->v.ints[k] < b->v.ints[k] ? -1 : a->v.ints[k] > b->v.ints[k]; break;
    case GE_ATTR_FLOATS: c = memcmp(&a->v.floats[k], &b->v.floats[k], sizeof(double)); break;
    case GE_ATTR_BOOLS: c = (int)a->v.bools[k] - (int)b->v.bools[k]; break;
    case GE_ATTR_DTYPES: c = (int)a->v.dtypes[k] - (int)b->v.dtypes[k]; break;
    case GE_ATTR_STRINGS: c = strcmp(a->v.strings[k], b->v.strings[k]); break;
    default: break;
    }
    if (c) return c;
  }
  return 0;
}

typedef struct ge__pp_member {
  uint64_t hash;
  const ge_attr *attr;
  ge_node_id id;
  uint32_t group; /* value number, by first node id */
} ge__pp_member;

static int ge__pp_member_cmp(const void *pa, const void *pb) {
  const ge__pp_member *a = (const ge__pp_member *)pa, *b = (const ge__pp_member *)pb;
  int c;
  if (a->hash != b->hash) return a->hash < b->hash ? -1 : 1;
  if ((c = ge__pp_attr_cmp(a->attr, b->attr))) return c;
  return a->id < b->id ? -1 : a->id > b->id;
}

static int ge__pp_group_cmp(const void *pa, const void *pb) {
  const ge__pp_member *a = (const ge__pp_member *)pa, *b = (const ge__pp_member *)pb;
  if (a->group != b->group) return a->group < b->group ? -1 : 1;
  return a->id < b->id ? -1 : a->id > b->id;
}

typedef struct ge__pp_first {
  ge_node_id first;
  uint32_t run; /* index of the run in hash order */
} ge__pp_first;

static int ge__pp_first_cmp(const void *pa, const void *pb) {
  const ge__pp_first *a = (const ge__pp_first *)pa, *b = (const ge__pp_first *)pb;
  return a->first < b->first ? -1 : a->first > b->first;
}

/* Copies the scope attribute of the wrapped nodes onto their call (read in
 * the call's body: the members of g are gone). */
static ge_status ge__pp_scope_mark(ge_graph *g, ge_node_id call, ge_error *err) {
  const ge_attr *f = ge_node_attr(ge_graph_node(g, call), "f");
  ge_node *x;
  if (!f || f->type != GE_ATTR_GRAPH) return GE_OK;
  GE_GRAPH_FOREACH(f->v.g, x) {
    const ge_attr *a = ge_node_attr(x, GE__PP_SCOPE_ATTR);
    if (a) return ge_node_copy_attr(g, call, a, err);
  }
  return GE_OK;
}

/* Wraps the members m[0..n) of one value, split into convex parts. */
static ge_status ge__pp_scope_group(ge_graph *g, const ge__pp_member *m, uint32_t n, uint32_t k, ge_error *err) {
  static const char *const pass = "ge_partition_scopes";
  uint32_t bound = ge_graph_id_bound(g), count = ge_graph_node_count(g), i, j, lo = UINT32_MAX, hi = 0, parts = 0;
  ge_node_id *order = (ge_node_id *)malloc(((size_t)count + 1) * sizeof *order), *set = NULL;
  uint32_t *pos = (uint32_t *)malloc(((size_t)bound + 1) * sizeof *pos);
  int32_t *val = (int32_t *)malloc(((size_t)bound + 1) * sizeof *val);
  uint8_t *member = (uint8_t *)calloc((size_t)bound + 1, 1);
  ge_status st = GE_OK;
  if (!order || !pos || !val || !member || !(set = (ge_node_id *)malloc(((size_t)n + 1) * sizeof *set))) {
    st = ge__pp_oom(err, pass);
    goto done;
  }
  if ((st = ge__pp_topo(g, order, pos, pass, err))) goto done;
  for (i = 0; i < n; i++) {
    member[m[i].id] = 1;
    if (pos[m[i].id] < lo) lo = pos[m[i].id];
    if (pos[m[i].id] > hi) hi = pos[m[i].id];
  }
  /* val: a member's part; a non-member's taint, the largest part that
     reaches it (-1: none). Nodes before lo cannot be reached by a member. */
  for (i = lo; i <= hi; i++) {
    const ge_node *x = ge_graph_node(g, order[i]);
    int32_t v = member[x->id] ? 0 : -1;
    for (j = 0; j < x->num_inputs + x->num_control_inputs; j++) {
      ge_node_id p = j < x->num_inputs ? x->inputs[j].node : x->control_inputs[j - x->num_inputs];
      int32_t pv;
      if (p == GE_NONE || pos[p] < lo) continue;
      pv = val[p];
      if (member[x->id] && !member[p] && pv >= 0) pv++; /* came back after leaving part pv */
      if (pv > v) v = pv;
    }
    val[x->id] = v;
    if (member[x->id] && (uint32_t)v + 1 > parts) parts = (uint32_t)v + 1;
  }
  for (j = 0; j < parts && !st; j++) {
    uint32_t c = 0;
    ge_node_id call;
    char base[64], name[96];
    for (i = 0; i < n; i++)
      if (val[m[i].id] == (int32_t)j) set[c++] = m[i].id;
    if (!c) continue;
    if (parts == 1) snprintf(base, sizeof base, "scope_%u", (unsigned)k);
    else snprintf(base, sizeof base, "scope_%u_%u", (unsigned)k, (unsigned)j);
    ge__pp_free_name(g, base, name, sizeof name);
    if (!(st = ge_partition_wrap(g, set, c, name, &call, err))) st = ge__pp_scope_mark(g, call, err);
  }
done:
  free(order);
  free(pos);
  free(val);
  free(member);
  free(set);
  return st;
}

GE_API ge_status ge_partition_scopes(ge_graph *g, ge_error *err) {
  static const char *const pass = "ge_partition_scopes";
  uint32_t bound, i, j, n = 0, runs = 0;
  ge__pp_member *m = NULL;
  ge__pp_first *first = NULL;
  uint32_t *run_group = NULL;
  ge_status st = GE_OK;
  if (!g) return ge_error_set(err, GE_ERR_INVALID, "%s: no graph", pass);
  bound = ge_graph_id_bound(g);
  m = (ge__pp_member *)malloc(((size_t)bound + 1) * sizeof *m);
  if (!m) return ge__pp_oom(err, pass);
  for (i = 0; i < bound; i++) {
    const ge_node *x = ge_graph_node(g, i);
    const ge_attr *a;
    int ok;
    if (!x || ge__pp_io_node(x) || !(a = ge_node_attr(x, GE__PP_SCOPE_ATTR))) continue;
    m[n].hash = ge__pp_attr_hash(a, &ok);
    if (!ok) {
      free(m);
      return ge_error_set(err, GE_ERR_INVALID, "%s: node '%s': attribute %s must be a string, number or list", pass,
                          x->name, GE__PP_SCOPE_ATTR);
    }
    m[n].attr = a;
    m[n].id = i;
    m[n++].group = 0;
  }
  if (!n) {
    free(m);
    return GE_OK;
  }
  /* equal values are adjacent after sorting; number them by first node id */
  qsort(m, n, sizeof *m, ge__pp_member_cmp);
  first = (ge__pp_first *)malloc(((size_t)n + 1) * sizeof *first);
  run_group = (uint32_t *)malloc(((size_t)n + 1) * sizeof *run_group);
  if (!first || !run_group) {
    st = ge__pp_oom(err, pass);
    goto done;
  }
  for (i = 0; i < n; i = j) {
    ge_node_id lo = m[i].id;
    for (j = i; j < n && m[j].hash == m[i].hash && !ge__pp_attr_cmp(m[j].attr, m[i].attr); j++) {
      if (m[j].id < lo) lo = m[j].id;
      m[j].group = runs;
    }
    first[runs].first = lo;
    first[runs].run = runs;
    runs++;
  }
  qsort(first, runs, sizeof *first, ge__pp_first_cmp);
  for (i = 0; i < runs; i++) run_group[first[i].run] = i;
  for (i = 0; i < n; i++) m[i].group = run_group[m[i].group];
  qsort(m, n, sizeof *m, ge__pp_group_cmp);
  for (i = 0; i < n && !st; i = j) {
    for (j = i; j < n && m[j].group == m[i].group; j++) {
    }
    st = ge__pp_scope_group(g, m + i, j - i, m[i].group, err);
  }
done:
  free(m);
  free(first);
  free(run_group);
  return st;
}

/* -------------------------------------------- variables into subgraphs */

#define GE__PP_MAX_DEPTH 256

static int ge__pp_holds_graphs(const ge_node *x) {
  uint32_t k;
  for (k = 0; k < x->num_attrs; k++)
    if (x->attrs[k].type == GE_ATTR_GRAPH || x->attrs[k].type == GE_ATTR_GRAPHS) return 1;
  return 0;
}

/* Holder kinds: how a subgraph's Data nodes map to the holder's inputs. */
enum { GE__PP_CALL, GE__PP_IF, GE__PP_CASE, GE__PP_LOOP, GE__PP_OTHER };

static int ge__pp_kind(const ge_node *x) {
  if (ge__pp_is(x, "PartitionedCall")) return GE__PP_CALL;
  if (ge__pp_is(x, "If")) return GE__PP_IF;
  if (ge__pp_is(x, "Case")) return GE__PP_CASE;
  if (ge__pp_is(x, "While") || ge__pp_is(x, "Loop")) return GE__PP_LOOP;
  return GE__PP_OTHER;
}

/* The holder input a subgraph Data node reads, or -1. */
static int64_t ge__pp_data_input(const ge_node *d, int kind) {
  const ge_attr *a = ge_node_attr(d, "parent_index");
  if (a && a->type == GE_ATTR_INT) return a->v.i;
  a = ge_node_attr(d, "index");
  if (!a || a->type != GE_ATTR_INT || a->v.i < 0) return -1;
  if (kind == GE__PP_CALL) return a->v.i;
  if (kind == GE__PP_CASE) return a->v.i + 1;
  return -1;
}

/* Each subgraph of node x (graph attributes and graph lists). */
static uint32_t ge__pp_subgraphs(const ge_node *x, ge_graph **subs, uint32_t cap) {
  uint32_t k, n = 0;
  int32_t j;
  for (k = 0; k < x->num_attrs; k++) {
    const ge_attr *a = &x->attrs[k];
    if (a->type == GE_ATTR_GRAPH) {
      if (n < cap) subs[n] = a->v.g;
      n++;
    } else if (a->type == GE_ATTR_GRAPHS) {
      for (j = 0; j < a->count; j++) {
        if (n < cap) subs[n] = a->v.graphs[j];
        n++;
      }
    }
  }
  return n;
}

/* Replaces the Data nodes of sub reading holder input k by one copy of
 * Variable v (of graph g). Returns whether any was replaced. */
static ge_status ge__pp_copy_variable(ge_graph *g, const ge_node *v, ge_graph *sub, int kind, int64_t k, int *replaced,
                                      ge_error *err) {
  static const char *const pass = "ge_partition_split_variables";
  uint32_t bound = ge_graph_id_bound(sub), i, a;
  ge_node_id copy = GE_NONE;
  ge_status st = GE_OK;
  char base[64], tmp[96];
  (void)g;
  int made = 0;
  for (i = 0; i < bound && !st; i++) {
    ge_node *d = ge_graph_node(sub, i);
    ge_edge from, to;
    if (!d || !ge__pp_is(d, "Data") || ge__pp_data_input(d, kind) != k) continue;
    if (copy == GE_NONE) { /* a Variable of that name already there (fed by another input): the same variable */
      ge_node_id same = ge_graph_find(sub, v->name);
      if (same != GE_NONE && ge__pp_is(ge_graph_node(sub, same), "Variable")) copy = same;
    }
    if (copy == GE_NONE) {
      made = 1;
      const ge_tensor_desc *o = &v->outputs[0];
      snprintf(base, sizeof base, "__ge_variable_copy_%u", (unsigned)i);
      ge__pp_free_name(sub, base, tmp, sizeof tmp);
      if ((st = ge_graph_add_node(sub, "Variable", tmp, 0, NULL, 1, &copy, err))) break;
      if (v->domain && *v->domain && (st = ge_node_set_domain(sub, copy, v->domain, err))) break;
      for (a = 0; a < v->num_attrs && !st; a++) st = ge_node_copy_attr(sub, copy, &v->attrs[a], err);
      if (!st) st = ge_node_set_output(sub, copy, 0, o->dtype, o->shape.rank, o->shape.dims, o->shape.info, err);
      if (!st && o->name) st = ge_node_set_output_name(sub, copy, 0, o->name, err);
      if (!st) st = ge_node_set_output_format(sub, copy, 0, o->format, err);
      if (st) break;
      {
        ge_node *c = ge_graph_node(sub, copy);
        c->engine = v->engine, c->stream = v->stream, c->flags = v->flags;
      }
    }
    from.node = d->id, from.index = 0;
    to.node = copy, to.index = 0;
    if ((st = ge_graph_replace_uses(sub, from, to, err))) break;
    for (a = 0; a < d->num_control_inputs && !st; a++) st = ge_graph_add_control(sub, d->control_inputs[a], copy, err);
    for (a = 0; a < d->num_control_outputs && !st; a++) st = ge_graph_add_control(sub, copy, d->control_outputs[a], err);
    if (!st) st = ge_graph_remove_node(sub, d->id, err);
  }
  if (!st && copy != GE_NONE) *replaced = 1;
  if (!st && made) {
    ge_node_id clash = ge_graph_find(sub, v->name);
    if (clash != GE_NONE)
      return ge_error_set(err, GE_ERR_INVALID, "%s: subgraph '%s' already has a node named '%s' (%s), cannot copy Variable '%s' into it",
                          pass, ge_graph_name(sub), v->name, ge_graph_node(sub, clash)->op, v->name);
    st = ge_node_set_name(sub, copy, v->name, err);
  }
  return st;
}

/* Rebuilds holder h of g without the inputs marked in drop[]. Subgraph Data
 * nodes have been renumbered already. Returns the new id in *out. */
static ge_status ge__pp_rebuild_holder(ge_graph *g, ge_node_id h, const uint8_t *drop, ge_node_id *out, ge_error *err) {
  ge_node *x = ge_graph_node(g, h);
  uint32_t n_in = 0, i;
  ge_edge *ins = (ge_edge *)malloc(((size_t)x->num_inputs + 1) * sizeof *ins);
  ge_node_id nid;
  ge_status st;
  char base[64], tmp[96], name[1024];
  if (!ins) return ge__pp_oom(err, "ge_partition_split_variables");
  for (i = 0; i < x->num_inputs; i++)
    if (!drop[i]) ins[n_in++] = x->inputs[i];
  snprintf(name, sizeof name, "%s", x->name);
  snprintf(base, sizeof base, "__ge_holder_%u", (unsigned)h);
  ge__pp_free_name(g, base, tmp, sizeof tmp);
  st = ge_graph_add_node(g, x->op, tmp, n_in, ins, (int32_t)x->num_outputs, &nid, err);
  free(ins);
  if (st) return st;
  x = ge_graph_node(g, h); /* the slot array may have moved */
  if (x->domain && *x->domain && (st = ge_node_set_domain(g, nid, x->domain, err))) return st;
  for (i = 0; i < x->num_attrs && !st; i++) st = ge_node_copy_attr(g, nid, &x->attrs[i], err);
  for (i = 0; i < x->num_outputs && !st; i++) {
    const ge_tensor_desc *o = &x->outputs[i];
    ge_edge from, to;
    st = ge_node_set_output(g, nid, i, o->dtype, o->shape.rank, o->shape.dims, o->shape.info, err);
    if (!st && o->name) st = ge_node_set_output_name(g, nid, i, o->name, err);
    if (!st) st = ge_node_set_output_format(g, nid, i, o->format, err);
    from.node = h, from.index = (int32_t)i;
    to.node = nid, to.index = (int32_t)i;
    if (!st) st = ge_graph_replace_uses(g, from, to, err);
  }
  for (i = 0; i < x->num_control_inputs && !st; i++) st = ge_graph_add_control(g, x->control_inputs[i], nid, err);
  for (i = 0; i < x->num_control_outputs && !st; i++) st = ge_graph_add_control(g, nid, x->control_outputs[i], err);
  if (st) return st;
  {
    ge_node *y = ge_graph_node(g, nid);
    y->engine = x->engine, y->stream = x->stream, y->flags = x->flags;
    y->topo_id = x->topo_id, y->cluster = x->cluster;
  }
  if ((st = ge_graph_remove_node(g, h, err)) || (st = ge_node_set_name(g, nid, name, err))) return st;
  *out = nid;
  return GE_OK;
}

/* Renumbers the Data nodes of sub after dropping holder inputs: shift[k] is
 * how many dropped inputs lie below input k. */
static ge_status ge__pp_renumber(ge_graph *sub, int kind, const uint32_t *shift, uint32_t n_in, ge_error *err) {
  uint32_t bound = ge_graph_id_bound(sub), i;
  ge_status st = GE_OK;
  for (i = 0; i < bound && !st; i++) {
    ge_node *d = ge_graph_node(sub, i);
    const ge_attr *a;
    if (!d || !ge__pp_is(d, "Data")) continue;
    if ((a = ge_node_attr(d, "parent_index")) && a->type == GE_ATTR_INT && a->v.i >= 0 && a->v.i < (int64_t)n_in &&
        shift[a->v.i])
      st = ge_node_set_attr_int(sub, i, "parent_index", a->v.i - shift[a->v.i], err);
    if (!st && (a = ge_node_attr(d, "index")) && a->type == GE_ATTR_INT && a->v.i >= 0 &&
        (kind == GE__PP_CALL || kind == GE__PP_CASE)) {
      int64_t k = kind == GE__PP_CASE ? a->v.i + 1 : a->v.i;
      if (k < (int64_t)n_in && shift[k]) st = ge_node_set_attr_int(sub, i, "index", a->v.i - shift[k], err);
    }
  }
  return st;
}

static ge_status ge__pp_split_graph(ge_graph *g, int depth, ge_error *err);

/* One holder: copy the Variables feeding it into its subgraphs. */
static ge_status ge__pp_split_holder(ge_graph *g, ge_node_id h, ge_node_id *out, ge_error *err) {
  static const char *const pass = "ge_partition_split_variables";
  ge_node *x = ge_graph_node(g, h);
  int kind = ge__pp_kind(x);
  uint32_t n_in = x->num_inputs, n_sub, i, s, dropped = 0;
  uint8_t *drop = NULL;
  uint32_t *shift = NULL;
  ge_graph **subs = NULL;
  ge_status st = GE_OK;
  *out = h;
  if (kind == GE__PP_OTHER) return GE_OK;
  for (i = 0; i < n_in; i++) {
    const ge_node *p = x->inputs[i].node == GE_NONE ? NULL : ge_graph_node(g, x->inputs[i].node);
    if (p && ge__pp_is(p, "Variable")) break;
  }
  if (i == n_in) return GE_OK;
  if (kind == GE__PP_LOOP) { /* loop bodies read loop variables: order the Variable first */
    for (i = 0; i < n_in && !st; i++) {
      ge_node_id p = x->inputs[i].node;
      if (p != GE_NONE && ge__pp_is(ge_graph_node(g, p), "Variable")) st = ge_graph_add_control(g, p, h, err);
    }
    return st;
  }
  n_sub = ge__pp_subgraphs(x, NULL, 0);
  drop = (uint8_t *)calloc((size_t)n_in + 1, 1);
  shift = (uint32_t *)calloc((size_t)n_in + 1, sizeof *shift);
  subs = (ge_graph **)malloc(((size_t)n_sub + 1) * sizeof *subs);
  if (!drop || !shift || !subs) {
    st = ge__pp_oom(err, pass);
    goto done;
  }
  ge__pp_subgraphs(x, subs, n_sub);
  for (i = (kind == GE__PP_CALL ? 0u : 1u); i < n_in && !st; i++) {
    const ge_node *v = x->inputs[i].node == GE_NONE ? NULL : ge_graph_node(g, x->inputs[i].node);
    int replaced = 0;
    if (!v || !ge__pp_is(v, "Variable") || v->num_outputs < 1) continue;
    for (s = 0; s < n_sub && !st; s++) st = ge__pp_copy_variable(g, v, subs[s], kind, (int64_t)i, &replaced, err);
    if (replaced) drop[i] = 1, dropped++;
  }
  if (st || !dropped) goto done;
  for (i = 0; i < n_in; i++) shift[i] = (i ? shift[i - 1] + drop[i - 1] : 0);
  for (s = 0; s < n_sub && !st; s++) st = ge__pp_renumber(subs[s], kind, shift, n_in, err);
  if (!st) st = ge__pp_rebuild_holder(g, h, drop, out, err);
done:
  free(drop);
  free(shift);
  free(subs);
  return st;
}

static ge_status ge__pp_split_graph(ge_graph *g, int depth, ge_error *err) {
  uint32_t bound = ge_graph_id_bound(g), i, n = 0, s, n_sub;
  ge_node_id *holders;
  ge_status st = GE_OK;
  if (depth > GE__PP_MAX_DEPTH)
    return ge_error_set(err, GE_ERR_INVALID, "ge_partition_split_variables: subgraphs nest deeper than %d at '%s'",
                        GE__PP_MAX_DEPTH, ge_graph_name(g));
  holders = (ge_node_id *)malloc(((size_t)bound + 1) * sizeof *holders);
  if (!holders) return ge__pp_oom(err, "ge_partition_split_variables");
  for (i = 0; i < bound; i++) {
    const ge_node *x = ge_graph_node(g, i);
    if (x && ge__pp_holds_graphs(x)) holders[n++] = i;
  }
  for (i = 0; i < n && !st; i++) {
    ge_node_id h;
    ge_graph *subs[64], **many = subs;
    if ((st = ge__pp_split_holder(g, holders[i], &h, err))) break;
    n_sub = ge__pp_subgraphs(ge_graph_node(g, h), subs, 64);
    if (n_sub > 64) {
      if (!(many = (ge_graph **)malloc((size_t)n_sub * sizeof *many))) {
        st = ge__pp_oom(err, "ge_partition_split_variables");
        break;
      }
      ge__pp_subgraphs(ge_graph_node(g, h), many, n_sub);
    }
    for (s = 0; s < n_sub && !st; s++) st = ge__pp_split_graph(many[s], depth + 1, err);
    if (many != subs) free(many);
  }
  free(holders);
  return st;
}

GE_API ge_status ge_partition_split_variables(ge_graph *g, ge_error *err) {
  if (!g) return ge_error_set(err, GE_ERR_INVALID, "ge_partition_split_variables: no graph");
  return ge__pp_split_graph(g, 0, err);
}

/* ---------------------------------------------- JIT binary partitioning */

GE_API void ge_partition_binary_io_free(ge_partition_binary_io *io) {
  if (!io) return;
  free(io->slice_inputs);
  free(io->remaining_inputs);
  free(io->outputs);
  memset(io, 0, sizeof *io);
}

/* Index of tensor e among r's boundary outputs (chains by producer), or -1. */
typedef struct ge__pp_outs {
  uint32_t *head; /* per node id: first boundary output, UINT32_MAX: none */
  uint32_t *next;
  const ge_extract_result *r;
} ge__pp_outs;

static ge_status ge__pp_outs_init(ge__pp_outs *o, const ge_graph *g, const ge_extract_result *r) {
  uint32_t bound = ge_graph_id_bound(g), i;
  o->r = r;
  o->head = (uint32_t *)malloc(((size_t)bound + 1) * sizeof(uint32_t));
  o->next = (uint32_t *)malloc(((size_t)r->num_boundary_outputs + 1) * sizeof(uint32_t));
  if (!o->head || !o->next) return GE_ERR_NOMEM;
  for (i = 0; i < bound; i++) o->head[i] = UINT32_MAX;
  for (i = r->num_boundary_outputs; i-- > 0;) {
    o->next[i] = o->head[r->boundary_outputs[i].node];
    o->head[r->boundary_outputs[i].node] = i;
  }
  return GE_OK;
}

static int64_t ge__pp_outs_find(const ge__pp_outs *o, ge_edge e) {
  uint32_t j;
  for (j = o->head[e.node]; j != UINT32_MAX; j = o->next[j])
    if (o->r->boundary_outputs[j].index == e.index) return j;
  return -1;
}

static void ge__pp_outs_free(ge__pp_outs *o) {
  free(o->head);
  free(o->next);
}

/* Gives the Data nodes of an extraction that stand for g's Data nodes the
 * names they have in g (when free). */
static void ge__pp_name_inputs(const ge_graph *g, const ge_extract_result *r) {
  uint32_t bound = ge_graph_id_bound(r->graph), i;
  for (i = 0; i < bound; i++) {
    const ge_node *d = ge_graph_node(r->graph, i);
    int64_t k;
    const ge_node *src;
    if (!d || !ge__pp_is(d, "Data") || (k = ge_node_attr_int(d, "index", -1)) < 0 ||
        k >= (int64_t)r->num_boundary_inputs)
      continue;
    src = ge_graph_node(g, r->boundary_inputs[k].node);
    if (src && ge__pp_is(src, "Data") && strcmp(src->name, d->name) && ge_graph_find(r->graph, src->name) == GE_NONE)
      ge_node_set_name(r->graph, i, src->name, NULL);
  }
}

GE_API ge_status ge_partition_binary(const ge_graph *g, const ge_node_id *inferred, uint32_t n, ge_graph **sliced,
                                     ge_graph **remaining, ge_partition_binary_io *io, ge_error *err) {
  static const char *const pass = "ge_partition_binary";
  uint32_t bound, i, k, ns = 0, nr = 0;
  uint8_t *in_s = NULL; /* 1 inferred, 2 Const pulled in */
  ge_node_id *set_s = NULL, *set_r = NULL, netout;
  ge_extract_result rs, rr;
  ge__pp_outs os, orr;
  ge_partition_binary_io res;
  ge_status st = GE_OK;
  memset(&rs, 0, sizeof rs);
  memset(&rr, 0, sizeof rr);
  memset(&os, 0, sizeof os);
  memset(&orr, 0, sizeof orr);
  memset(&res, 0, sizeof res);
  if (sliced) *sliced = NULL;
  if (remaining) *remaining = NULL;
  if (io) memset(io, 0, sizeof *io);
  if (!g || !sliced || !remaining || !io || (n && !inferred))
    return ge_error_set(err, GE_ERR_INVALID, "%s: missing graph, node list or result pointer", pass);
  bound = ge_graph_id_bound(g);
  in_s = (uint8_t *)calloc((size_t)bound + 1, 1);
  set_s = (ge_node_id *)malloc(((size_t)bound + 1) * sizeof *set_s);
  set_r = (ge_node_id *)malloc(((size_t)bound + 1) * sizeof *set_r);
  if (!in_s || !set_s || !set_r) {
    st = ge__pp_oom(err, pass);
    goto fail;
  }
  for (i = 0; i < n; i++) {
    const ge_node *x = ge_graph_node(g, inferred[i]);
    if (!x) {
      st = ge_error_set(err, GE_ERR_INVALID, "%s: inferred node %u does not exist in graph '%s'", pass,
                        (unsigned)inferred[i], ge_graph_name(g));
      goto fail;
    }
    if (!ge__pp_io_node(x)) in_s[x->id] = 1;
  }
  /* the slice must not depend on the remainder; Consts it reads join it */
  for (i = 0; i < bound; i++) {
    const ge_node *x = ge_graph_node(g, i);
    if (!x || in_s[i] != 1) continue;
    for (k = 0; k < x->num_inputs + x->num_control_inputs; k++) {
      ge_node_id p = k < x->num_inputs ? x->inputs[k].node : x->control_inputs[k - x->num_inputs];
      const ge_node *y;
      if (p == GE_NONE || in_s[p]) continue;
      y = ge_graph_node(g, p);
      if (ge__pp_is(y, "Data")) continue;
      if (ge__pp_is(y, "Const")) {
        in_s[p] = 2;
        continue;
      }
      st = ge_error_set(err, GE_ERR_CYCLE,
                        "%s: inferred node '%s' reads %snode '%s', which is not inferred (the slice would depend on the remaining graph)",
                        pass, x->name, k < x->num_inputs ? "" : "(by a control edge) ", y->name);
      goto fail;
    }
  }
  for (i = 0; i < bound; i++) {
    const ge_node *x = ge_graph_node(g, i);
    if (!x) continue;
    if (in_s[i]) set_s[ns++] = i;
    else if (!ge__pp_io_node(x)) set_r[nr++] = i;
  }
  if ((st = ge_graph_extract(g, set_s, ns, &rs, err)) || (st = ge_graph_extract(g, set_r, nr, &rr, err))) goto fail;
  if (ge__pp_outs_init(&os, g, &rs) || ge__pp_outs_init(&orr, g, &rr)) {
    st = ge__pp_oom(err, pass);
    goto fail;
  }
  /* slice inputs: graph inputs only (checked above) */
  res.num_slice_inputs = rs.num_boundary_inputs;
  res.num_remaining_inputs = rr.num_boundary_inputs;
  netout = ge_graph_output_node(g);
  res.num_outputs = netout == GE_NONE ? 0 : ge_graph_node(g, netout)->num_inputs;
  res.slice_inputs = (uint32_t *)malloc(((size_t)res.num_slice_inputs + 1) * sizeof(uint32_t));
  res.remaining_inputs = (ge_partition_binary_ref *)malloc(((size_t)res.num_remaining_inputs + 1) * sizeof(ge_partition_binary_ref));
  res.outputs = (ge_partition_binary_ref *)malloc(((size_t)res.num_outputs + 1) * sizeof(ge_partition_binary_ref));
  if (!res.slice_inputs || !res.remaining_inputs || !res.outputs) {
    st = ge__pp_oom(err, pass);
    goto fail;
  }
  for (i = 0; i < res.num_slice_inputs; i++) {
    const ge_node *d = ge_graph_node(g, rs.boundary_inputs[i].node);
    int64_t idx = ge_node_attr_int(d, "index", -1);
    if (idx < 0) {
      st = ge_error_set(err, GE_ERR_INVALID, "%s: Data node '%s' has no input index", pass, d->name);
      goto fail;
    }
    res.slice_inputs[i] = (uint32_t)idx;
  }
  for (i = 0; i < res.num_remaining_inputs; i++) {
    ge_edge e = rr.boundary_inputs[i];
    const ge_node *p = ge_graph_node(g, e.node);
    if (in_s[e.node]) {
      int64_t j = ge__pp_outs_find(&os, e);
      if (j < 0) {
        st = ge_error_set(err, GE_ERR_INTERNAL, "%s: tensor of '%s' is not exported by the slice", pass, p->name);
        goto fail;
      }
      res.remaining_inputs[i].from = GE_BINARY_FROM_SLICE;
      res.remaining_inputs[i].index = (uint32_t)j;
    } else {
      int64_t idx = ge__pp_is(p, "Data") ? ge_node_attr_int(p, "index", -1) : -1;
      if (idx < 0) {
        st = ge_error_set(err, GE_ERR_INVALID, "%s: node '%s' feeds the remaining graph but is no graph input", pass,
                          p->name);
        goto fail;
      }
      res.remaining_inputs[i].from = GE_BINARY_FROM_INPUT;
      res.remaining_inputs[i].index = (uint32_t)idx;
    }
  }
  for (i = 0; i < res.num_outputs; i++) {
    ge_edge e = ge_graph_node(g, netout)->inputs[i];
    const ge_node *p = e.node == GE_NONE ? NULL : ge_graph_node(g, e.node);
    int64_t j = -1;
    res.outputs[i].from = GE_BINARY_FROM_NONE;
    res.outputs[i].index = 0;
    if (!p) continue;
    if (ge__pp_is(p, "Data")) {
      if ((j = ge_node_attr_int(p, "index", -1)) >= 0) res.outputs[i].from = GE_BINARY_FROM_INPUT;
    } else if (in_s[e.node]) {
      if ((j = ge__pp_outs_find(&os, e)) >= 0) res.outputs[i].from = GE_BINARY_FROM_SLICE;
    } else if ((j = ge__pp_outs_find(&orr, e)) >= 0) {
      res.outputs[i].from = GE_BINARY_FROM_REMAINING;
    }
    if (j >= 0) res.outputs[i].index = (uint32_t)j;
  }
  ge__pp_name_inputs(g, &rs);
  ge__pp_name_inputs(g, &rr);
  *sliced = rs.graph;
  *remaining = rr.graph;
  rs.graph = rr.graph = NULL;
  *io = res;
  memset(&res, 0, sizeof res);
fail:
  ge_partition_binary_io_free(&res);
  ge__pp_outs_free(&os);
  ge__pp_outs_free(&orr);
  if (rs.node_map) ge_extract_result_free(g, &rs);
  if (rr.node_map) ge_extract_result_free(g, &rr);
  free(in_s);
  free(set_s);
  free(set_r);
  return st;
}

/* ------------------------------------------------------ execution order */

GE_API void ge_jit_order_init(ge_jit_order *order) {
  if (order) memset(order, 0, sizeof *order);
}

GE_API void ge_jit_order_free(ge_jit_order *order) {
  uint32_t i;
  if (!order) return;
  for (i = 0; i < order->num_slices; i++) {
    ge_graph_free(order->slices[i].graph);
    free(order->slices[i].inputs);
  }
  free(order->slices);
  ge_graph_free(order->remaining);
  free(order->remaining_inputs);
  free(order->outputs);
  memset(order, 0, sizeof *order);
}

/* Where input i of the current remaining graph comes from. */
static ge_jit_source ge__pp_current_input(const ge_jit_order *o, uint32_t i) {
  ge_jit_source s;
  s.slice = GE_JIT_FROM_INPUT;
  s.index = i;
  if (o->remaining) {
    if (i < o->num_remaining_inputs) return o->remaining_inputs[i];
    s.slice = GE_JIT_FROM_NONE, s.index = 0;
  }
  return s;
}

GE_API ge_status ge_jit_order_add_slice(ge_jit_order *order, const ge_graph *g, const ge_node_id *inferred, uint32_t n,
                                        ge_error *err) {
  static const char *const pass = "ge_jit_order_add_slice";
  const ge_graph *cur;
  ge_node_id *ids = NULL, out_node;
  uint32_t m = 0, i;
  ge_graph *sl = NULL, *rem = NULL;
  ge_partition_binary_io io;
  ge_jit_slice *grown = NULL;
  ge_jit_source *sin = NULL, *rin = NULL, *outs = NULL;
  uint32_t s_index, n_outs;
  ge_status st;
  memset(&io, 0, sizeof io);
  if (!order || !g || (n && !inferred)) return ge_error_set(err, GE_ERR_INVALID, "%s: missing order, graph or nodes", pass);
  if (order->original && order->original != g)
    return ge_error_set(err, GE_ERR_INVALID, "%s: graph '%s' is not the graph this order slices", pass, ge_graph_name(g));
  cur = order->remaining ? order->remaining : g;
  if (!(ids = (ge_node_id *)malloc(((size_t)n + 1) * sizeof *ids))) return ge__pp_oom(err, pass);
  for (i = 0; i < n; i++) {
    const ge_node *x = ge_graph_node(g, inferred[i]);
    ge_node_id c;
    if (!x) {
      free(ids);
      return ge_error_set(err, GE_ERR_INVALID, "%s: inferred node %u does not exist in graph '%s'", pass,
                          (unsigned)inferred[i], ge_graph_name(g));
    }
    if (ge__pp_io_node(x)) continue;
    c = order->remaining ? ge_graph_find(order->remaining, x->name) : x->id;
    if (c == GE_NONE) continue; /* in an earlier slice */
    if (order->remaining && ge__pp_io_node(ge_graph_node(cur, c))) continue;
    ids[m++] = c;
  }
  st = ge_partition_binary(cur, ids, m, &sl, &rem, &io, err);
  free(ids);
  if (st) return st;
  s_index = order->num_slices;
  out_node = ge_graph_output_node(g);
  n_outs = order->original ? order->num_outputs : (out_node == GE_NONE ? 0 : ge_graph_node(g, out_node)->num_inputs);
  grown = (ge_jit_slice *)realloc(order->slices, ((size_t)s_index + 1) * sizeof *grown);
  if (grown) order->slices = grown;
  sin = (ge_jit_source *)malloc(((size_t)io.num_slice_inputs + 1) * sizeof *sin);
  rin = (ge_jit_source *)malloc(((size_t)io.num_remaining_inputs + 1) * sizeof *rin);
  outs = (ge_jit_source *)malloc(((size_t)n_outs + 1) * sizeof *outs);
  if (!grown || !sin || !rin || !outs) {
    free(sin), free(rin), free(outs);
    ge_graph_free(sl), ge_graph_free(rem);
    ge_partition_binary_io_free(&io);
    return ge__pp_oom(err, pass);
  }
  for (i = 0; i < io.num_slice_inputs; i++) sin[i] = ge__pp_current_input(order, io.slice_inputs[i]);
  for (i = 0; i < io.num_remaining_inputs; i++) {
    if (io.remaining_inputs[i].from == GE_BINARY_FROM_SLICE) {
      rin[i].slice = (int32_t)s_index;
      rin[i].index = io.remaining_inputs[i].index;
    } else {
      rin[i] = ge__pp_current_input(order, io.remaining_inputs[i].index);
    }
  }
  /* the original outputs: those the current remaining graph gave move on */
  for (i = 0; i < n_outs; i++) {
    ge_jit_source was;
    ge_partition_binary_ref r;
    if (order->original) was = order->outputs[i];
    else was.slice = GE_JIT_FROM_REMAINING, was.index = i;
    outs[i] = was;
    if (was.slice != GE_JIT_FROM_REMAINING) continue;
    r.from = GE_BINARY_FROM_NONE, r.index = 0;
    if (was.index < io.num_outputs) r = io.outputs[was.index];
    switch (r.from) {
    case GE_BINARY_FROM_INPUT: outs[i] = ge__pp_current_input(order, r.index); break;
    case GE_BINARY_FROM_SLICE: outs[i].slice = (int32_t)s_index, outs[i].index = r.index; break;
    case GE_BINARY_FROM_REMAINING: outs[i].index = r.index; break;
    default: outs[i].slice = GE_JIT_FROM_NONE, outs[i].index = 0;
    }
  }
  order->slices[s_index].graph = sl;
  order->slices[s_index].inputs = sin;
  order->slices[s_index].num_inputs = io.num_slice_inputs;
  order->num_slices++;
  ge_graph_free(order->remaining);
  free(order->remaining_inputs);
  free(order->outputs);
  order->remaining = rem;
  order->remaining_inputs = rin;
  order->num_remaining_inputs = io.num_remaining_inputs;
  order->outputs = outs;
  order->num_outputs = n_outs;
  order->original = g;
  ge_partition_binary_io_free(&io);
  return GE_OK;
}

#ifdef __cplusplus
}
#endif
/* @impl-end */
#endif /* GE_PARTITION_PASSES_DONE */
#endif /* GE_IMPLEMENTATION || GE_PARTITION_IMPLEMENTATION */

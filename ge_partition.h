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
 *   - engine partitioning (§5.3): composite then atomic pieces joined by
 *     PlaceHolder/End pairs, the engines' optimisers on threads, merge-back;
 *   - multi-batch: shape tiers (ge.dynamicBatchSize, ge.dynamicImageSize,
 *     ge.dynamicDims) become a Case over static clones of the graph (§5.5),
 *     with kernels for the tier-index ops GetDynamicDims and MapIndex;
 *   - pipeline stages (§5.4), scope subgraphs (§5.5.2), Variables split into
 *     the subgraphs that read them (§5.6), and JIT binary slices with an
 *     execution order that peels slices off as inference completes (§5.7).
 *
 * Thread safety: one graph is partitioned by one thread at a time.
 *
 * Contents: the declarations and then the implementation follow the same
 * order (each section opens with a "---- name" comment, each group with a
 * "==== name" one):
 *   wrapping                    ge_partition_wrap: a node set into a
 *                               PartitionedCall (plus, in the implementation,
 *                               the scratch memory helpers before it)
 *   clusters                    the cluster framework (§5.1): union-find
 *                               clusters with path checks; then building the
 *                               partition (clusters into PartitionedCalls)
 *   dynamic/static partitioning ge_dynamic_partition_desc, the six node rules
 *                               and the merge passes (§5.2)
 *   engine partitioning         ge_partition_engines, _optimize (threads),
 *                               _merge, ge_partition_by_engine (§5.3)
 *   ==== multi-batch (§5.5)     option parsing of the shape tiers, the
 *                               GetDynamicDims / MapIndex kernels, the pass
 *                               (Case over static clones)
 *   ==== stages, scopes, variables, JIT slices
 *                               pipeline stages (§5.4), scope subgraphs
 *                               (§5.5.2), Variables into subgraphs (§5.6),
 *                               JIT binary slices and their execution order
 *                               (§5.7)
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
  /* The engines node->engine indexes (as for ge_partition_engines; from a
   * registry: ge_engine_list, ge_engine_count). A node whose engine runs on
   * the host (runtime GE_RUNTIME_HOST: DNN_VM_HOST_CPU in the standard set)
   * is dynamic, rule 5. NULL (all-zero desc): no node counts as on the host. */
  const ge_engine *const *engines;
  uint32_t num_engines;
  ge_logger logger; /* INFO: the static and dynamic subgraphs made */
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

/* ------------------------------------------------ engine partitioning */

/* One engine's piece of a graph (§5.3): its nodes, PlaceHolder nodes for
 * the tensors it reads from other pieces and End nodes for those it gives
 * them (paired by the attribute peer_index; parent_node and anchor_index
 * name the producing node and output). */
typedef struct ge_engine_subgraph {
  ge_graph *graph;
  int32_t engine; /* the engine (atomic, or composite in the composite pass) */
} ge_engine_subgraph;

typedef struct ge_engine_partition {
  ge_engine_subgraph *subgraphs; /* in a topological order of the pieces */
  uint32_t count;
  ge_graph *source;        /* the graph partitioned (kept for merging back) */
  char **control;          /* control edges between pieces: "src\ndst" node names */
  uint32_t num_control;
  ge_allocator allocator;  /* the source's, which subgraphs and control come from */
} ge_engine_partition;

/* Splits g by engine: nodes with the same engine (for composite = 1, the
 * composite engine whose members hold theirs, e.g. ffts_plus over AI Core,
 * Vector and AI CPU) and the same _stream_label attribute merge when no
 * second path joins them; graph inputs form one input piece; a Const joins
 * a consumer's piece (so the engine's optimiser sees its weights).
 * engines[i] is the descriptor of node->engine == i. g is not changed. */
GE_API ge_status ge_partition_engines(ge_graph *g, const ge_engine *const *engines, uint32_t num_engines, int composite,
                                      ge_engine_partition *out, ge_error *err);
/* Calls each piece's engine optimize_subgraph, the pieces on num_threads
 * threads. */
GE_API ge_status ge_engine_partition_optimize(ge_engine_partition *p, const ge_engine *const *engines,
                                              uint32_t num_engines, int num_threads, ge_error *err);
/* Joins the pieces back into one graph: every PlaceHolder/End pair becomes
 * the edge it cut again. */
GE_API ge_status ge_engine_partition_merge(const ge_engine_partition *p, ge_graph **out, ge_error *err);
GE_API void ge_engine_partition_free(ge_engine_partition *p);
/* Engine partitioning as a compile runs it (§5.3): composite pieces,
 * their optimisers, merge; then atomic pieces, their optimisers, merge.
 * *out is the optimised graph (g is not changed). */
GE_API ge_status ge_partition_by_engine(ge_graph *g, const ge_engine *const *engines, uint32_t num_engines,
                                        int num_threads, ge_graph **out, ge_error *err);

/* ======================================== multi-batch (§5.5) */

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------- multi-batch */

/* Multi-batch (seed 001 §2.1, §4.1, §5.5, GE's MultiBatchClonePass): a
 * graph with dynamic input dims and a list of shape tiers becomes
 *
 *   root:   Data... (-1 at the dynamic dims, range min..max of the tiers)
 *           GetDynamicDims(the dynamic inputs) -> int64 [S]
 *           MapIndex(dims, Const tiers [T, S]) -> int32 tier index
 *           Case(index, Data...) -> NetOutput (the original output names)
 *   branch t of the Case: a clone of the original graph whose Data nodes
 *           have tier t's static shapes, shapes re-inferred.
 *
 * Options (atc's flags, GE's keys; the three dynamic ones are mutually
 * exclusive; tier counts 2..100, values > 0, tiers distinct):
 *   ge.dynamicBatchSize  "1,4,8,16"         dim 0 of the dynamic inputs
 *   ge.dynamicImageSize  "224,224;256,256"  H,W of 4-D inputs (per ge.inputFormat)
 *   ge.dynamicDims       "1,32;1,64"        a value for each -1 of ge.inputShape, in order
 *   ge.inputShape        "x:1,-1,128;y:-1,3" shapes of named inputs, -1 at dynamic dims
 *                        (needed by ge.dynamicDims; otherwise the dynamic inputs are those
 *                        whose dim 0 / H and W are -1 or symbolic); alone, a dim may be a
 *                        range LO~HI (or LO..HI): dynamic, bounded (the executor plans
 *                        memory at the bounds, a run outside is an error)
 *   ge.inputFormat       NCHW, NHWC or ND (unset: each input's own format, else NCHW)
 *
 * The structural ops get their kernels here (ge_multibatch_kernel):
 *   GetDynamicDims  inputs: any tensors (only their dims are read); attr
 *                   shape_info = for each input [rank, d0, .., d(rank-1)]
 *                   with -1 at the dims to collect (the others must match),
 *                   attr N = number of inputs. Output: int64 [S], the
 *                   collected dims in input order.
 *   MapIndex        input 0: int32/int64 [S] dims; input 1: int32/int64
 *                   [T, S] tiers. Output: int32 scalar, the first tier equal
 *                   to the dims; none equal is an error naming the input
 *                   shapes and the tiers (attrs option, tiers, input_names,
 *                   shape_info describe them for the message).
 *
 * Thread safety: one graph is rewritten by one thread at a time; the
 * kernels are reentrant. */

/* Option strings are borrowed: they must outlive the desc. Zero: no
 * multi-batch. */
typedef struct ge_multibatch_desc {
  const char *dynamic_batch_size; /* ge.dynamicBatchSize */
  const char *dynamic_image_size; /* ge.dynamicImageSize */
  const char *dynamic_dims;       /* ge.dynamicDims */
  const char *input_shape;        /* ge.inputShape */
  const char *input_format;       /* ge.inputFormat: NULL = NCHW */
} ge_multibatch_desc;

/* Sets one option by its GE key after checking its value: GE_ERR_NOT_FOUND
 * for another key, GE_ERR_INVALID for a bad value or a second dynamic
 * option (the message names the option and the part at fault). An empty
 * value unsets the option. */
GE_API ge_status ge_multibatch_set_option(ge_multibatch_desc *d, const char *key, const char *value, ge_error *err);
/* True when one of the three dynamic options is set. */
GE_API int ge_multibatch_enabled(const ge_multibatch_desc *d);
/* Rewrites g (a root graph) in place as described above. GE_OK and nothing
 * changed when no option is set; ge.inputShape alone (atc's --input_shape
 * without tiers) fixes the named inputs to its static shapes. Errors (g
 * unchanged, but for ge.inputShape alone): a bad
 * option, a graph already holding a multi-batch Case, ge.inputShape naming
 * an input g lacks or giving another rank, inputs left dynamic that no tier
 * fixes, shape inference failing for a tier (the tier is named). */
GE_API ge_status ge_multibatch_apply(ge_graph *g, const ge_multibatch_desc *d, ge_error *err);
/* The kernels of GetDynamicDims and MapIndex (default domain); NULL for
 * any other op. For an engine's kernel lookup or an executor's. */
GE_API ge_kernel_fn ge_multibatch_kernel(const ge_node *n);
GE_API ge_status ge_multibatch_kernel_get_dynamic_dims(ge_kernel_ctx *c);
GE_API ge_status ge_multibatch_kernel_map_index(ge_kernel_ctx *c);

/* The attribute marking the Case this pass made (string: the option key). */
#define GE_MULTIBATCH_ATTR "_multibatch_option"
#define GE_MULTIBATCH_MIN_TIERS 2
#define GE_MULTIBATCH_MAX_TIERS 100

#ifdef __cplusplus
}
#endif

/* ======================================== stages, scopes, variables, JIT slices (§5.4, §5.5.2, §5.6, §5.7) */

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

#endif /* GE_PARTITION_H */

/* ===================================================================== */
#if defined(GE_IMPLEMENTATION) || defined(GE_PARTITION_IMPLEMENTATION)
#ifndef GE_PARTITION_IMPLEMENTATION_DONE
#define GE_PARTITION_IMPLEMENTATION_DONE

#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* --------------------------------------------------------------- memory */

/* Scratch memory comes from the graph's allocator (DESIGN §6); a block is
 * freed with the size it was allocated with. */
static void *ge__pt_alloc(const ge_graph *g, size_t size) { return ge_graph_alloc_array(g, size); }

static void *ge__pt_zalloc(const ge_graph *g, size_t size) {
  void *p = ge_graph_alloc_array(g, size);
  if (p) memset(p, 0, size);
  return p;
}

static void ge__pt_free(const ge_graph *g, void *p, size_t size) { ge_graph_free_array(g, p, size); }

static void *ge__pt_realloc(const ge_graph *g, void *p, size_t old_size, size_t size) {
  const ge_allocator *a = ge_graph_allocator(g);
  void *q;
  if (!p) return ge__pt_alloc(g, size);
  if (a->realloc) return a->realloc(a->user, p, old_size, size);
  if ((q = ge__pt_alloc(g, size)) != NULL) {
    memcpy(q, p, old_size < size ? old_size : size);
    ge__pt_free(g, p, old_size);
  }
  return q;
}

/* What snprintf(buf, size, "%s_%u", base, v) writes, for a short base (buf
 * holds strlen(base) + 12 bytes): names made in the hot loops, where
 * snprintf would cost more than the rest of the node. */
static void ge__pt_name_u32(char *buf, const char *base, uint32_t v) {
  size_t at = strlen(base);
  char digits[10];
  int n = 0;
  memcpy(buf, base, at);
  buf[at++] = '_';
  do digits[n++] = (char)('0' + v % 10), v /= 10;
  while (v);
  while (n) buf[at++] = digits[--n];
  buf[at] = 0;
}

/* ------------------------------------------------------------- wrapping */

static int ge__pt_is(const ge_node *n, const char *op) {
  return n->op[0] == op[0] && !strcmp(n->op, op) && ge_node_in_onnx_domain(n);
}

static ge_status ge__pt_wrap(ge_graph *g, const ge_node_id *nodes, uint32_t n, const char *name,
                             ge_node_id *call_out, ge_error *err);

/* Whether no path leaves the set and re-enters it: a search forward from
 * the set's outside consumers must not reach the set. */
static int ge__pt_convex(const ge_graph *g, const ge_node_id *nodes, uint32_t n) {
  uint32_t bound = ge_graph_id_bound(g), top = 0, i, k;
  uint8_t *mark = (uint8_t *)ge__pt_zalloc(g, bound + 1); /* 1 in the set, 2 seen outside */
  ge_node_id *stack = (ge_node_id *)ge__pt_alloc(g, sizeof(ge_node_id) * (bound + 1));
  int convex = 1;
  if (!mark || !stack) {
    ge__pt_free(g, mark, bound + 1), ge__pt_free(g, stack, sizeof(ge_node_id) * (bound + 1));
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
  ge__pt_free(g, mark, bound + 1), ge__pt_free(g, stack, sizeof(ge_node_id) * (bound + 1));
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

/* Frees an extraction made when g had `bound` ids (its node map has that
 * size; the call added since does not count). */
static void ge__pt_extract_free(ge_graph *g, ge_extract_result *r, uint32_t bound) {
  ge__pt_free(g, r->node_map, ((size_t)bound + 1) * sizeof *r->node_map);
  r->node_map = NULL;
  ge_extract_result_free(g, r);
}

/* ge_partition_wrap without the convexity check (clusters are convex). */
static ge_status ge__pt_wrap(ge_graph *g, const ge_node_id *nodes, uint32_t n, const char *name,
                             ge_node_id *call_out, ge_error *err) {
  ge_extract_result r;
  ge_node_id call;
  ge_status st;
  uint32_t i, k, bound = ge_graph_id_bound(g);
  for (i = 0; i < n; i++) {
    const ge_node *x = ge_graph_node(g, nodes[i]);
    if (ge__pt_is(x, "Data") || ge__pt_is(x, "NetOutput"))
      return ge_error_set(err, GE_ERR_INVALID, "ge_partition_wrap: %s node '%s' cannot move into a subgraph", x->op, x->name);
  }
  if ((st = ge_graph_extract(g, nodes, n, &r, err)) != GE_OK) return st;
  st = ge_graph_add_node(g, "PartitionedCall", name, r.num_boundary_inputs, r.boundary_inputs,
                         (int32_t)r.num_boundary_outputs, &call, err);
  if (st != GE_OK) {
    ge__pt_extract_free(g, &r, bound);
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
  ge__pt_extract_free(g, &r, bound);
  for (i = 0; i < n && st == GE_OK; i++) st = ge_graph_remove_node(g, nodes[i], err);
  if (st == GE_OK && call_out) *call_out = call;
  return st;
}


/* ------------------------------------------------------------- clusters */

typedef struct ge__pt_list {
  ge_node_id *v;
  uint32_t n, cap, clean; /* clean: length after the last compaction; cap 0: v is a slice of the edge pool */
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
  ge_node_id *edges;        /* the first out and in lists, one block */
  size_t num_edges;
  uint32_t count;           /* nodes (ranks are below it) */
};

/* Frees a list's own storage (a slice of the edge pool is not its own). */
static void ge__pt_list_free(ge_clusters *c, ge__pt_list *l) {
  if (l->cap) ge__pt_free(c->g, l->v, sizeof *l->v * l->cap);
}

GE_API void ge_clusters_free(ge_clusters *c) {
  size_t b;
  uint32_t i;
  if (!c) return;
  b = (size_t)c->bound + 1;
  for (i = 0; c->out && c->in && i < c->bound; i++) ge__pt_list_free(c, &c->out[i]), ge__pt_list_free(c, &c->in[i]);
  ge__pt_free(c->g, c->pos, b * sizeof *c->pos), ge__pt_free(c->g, c->parent, b * sizeof *c->parent);
  ge__pt_free(c->g, c->next, b * sizeof *c->next), ge__pt_free(c->g, c->tail, b * sizeof *c->tail);
  ge__pt_free(c->g, c->size, b * sizeof *c->size), ge__pt_free(c->g, c->rank, b * sizeof *c->rank);
  ge__pt_free(c->g, c->out, b * sizeof *c->out), ge__pt_free(c->g, c->in, b * sizeof *c->in);
  ge__pt_free(c->g, c->stamp, b * sizeof *c->stamp), ge__pt_free(c->g, c->stamp2, b * sizeof *c->stamp2);
  ge__pt_free(c->g, c->stack, b * sizeof *c->stack), ge__pt_free(c->g, c->stack2, b * sizeof *c->stack2);
  ge__pt_free(c->g, c->sorted, b * sizeof *c->sorted), ge__pt_free(c->g, c->pool, b * sizeof *c->pool);
  ge__pt_free(c->g, c->edges, c->num_edges * sizeof *c->edges);
  ge__pt_free(c->g, c, sizeof *c);
}

/* Consumer k (data then control, repeats next to each other counted once
 * by the caller) of node x. */
static ge_node_id ge__pt_consumer(const ge_node *x, uint32_t k) {
  return k < x->num_uses ? x->uses[k].node : x->control_outputs[k - x->num_uses];
}

/* Every node's out and in lists: its consumers (once per run of repeats)
 * and its producers, slices of one block. One walk over the nodes fills the
 * out lists (their starts kept in pool); the in lists are their transpose. */
static int ge__pt_first_lists(ge_clusters *c) {
  uint32_t i, j, k;
  size_t n = 0, cap = 3 * (size_t)c->bound + 16, at; /* out and in lists of up to 1.5 edges a node: no growth */
  ge_node_id *e = (ge_node_id *)ge__pt_alloc(c->g, sizeof *e * cap), *grown = e;
  for (i = 0; grown && i < c->bound; i++) {
    const ge_node *x = ge_graph_node(c->g, i);
    c->pool[i] = (uint32_t)n;
    c->parent[i] = x ? i : GE_NONE;
    for (k = 0; grown && x && k < x->num_uses + x->num_control_outputs; k++) {
      ge_node_id y = ge__pt_consumer(x, k);
      if (k && y == ge__pt_consumer(x, k - 1)) continue;
      if (n == cap && (grown = (ge_node_id *)ge__pt_realloc(c->g, e, sizeof *e * cap, sizeof *e * 2 * cap)) != NULL)
        e = grown, cap *= 2;
      if (grown) e[n++] = y, c->out[i].n++, c->in[y].n++;
    }
  }
  /* room for the in lists after the out lists */
  if (grown && cap < 2 * n + 1 && (grown = (ge_node_id *)ge__pt_realloc(c->g, e, sizeof *e * cap, sizeof *e * (2 * n + 1))))
    e = grown, cap = 2 * n + 1;
  if (!grown) {
    ge__pt_free(c->g, e, sizeof *e * cap);
    return 0;
  }
  c->edges = e, c->num_edges = cap;
  for (i = 0, at = n; i < c->bound; i++) {
    c->out[i].v = e + c->pool[i];
    c->in[i].v = e + at, at += c->in[i].n, c->in[i].n = 0;
  }
  for (i = 0; i < c->bound; i++)
    for (j = 0; j < c->out[i].n; j++) {
      ge__pt_list *l = &c->in[c->out[i].v[j]];
      l->v[l->n++] = i;
    }
  return 1;
}

/* The nodes in a topological order, into order: by id when every edge
 * goes to a higher id (a graph built or imported in order: the walks over
 * the nodes then run through memory in order), else Kahn's algorithm over
 * the first lists (the order of ge_graph_topo_sort's BFS: seeds by id,
 * consumers in edge order, a repeat run counted once on both sides).
 * Returns how many nodes it ordered: fewer than the live ones on a cycle. */
static uint32_t ge__pt_topo_order(ge_clusters *c, ge_node_id *order) {
  uint32_t *indeg = c->stamp, i, j, head = 0, tail = 0; /* stamps are zero again when all are ordered */
  int by_id = 1;
  for (i = 0; i < c->bound && by_id; i++)
    for (j = 0; j < c->out[i].n; j++)
      if (c->out[i].v[j] <= i) by_id = 0;
  if (by_id) {
    for (i = 0; i < c->bound; i++)
      if (c->parent[i] != GE_NONE) order[tail++] = i;
    return tail;
  }
  for (i = 0; i < c->bound; i++) {
    indeg[i] = c->in[i].n;
    if (c->parent[i] != GE_NONE && !indeg[i]) order[tail++] = i;
  }
  while (head < tail) {
    const ge__pt_list *l = &c->out[order[head++]];
    for (j = 0; j < l->n; j++)
      if (--indeg[l->v[j]] == 0) order[tail++] = l->v[j];
  }
  return tail;
}

GE_API ge_status ge_clusters_create(ge_graph *g, ge_clusters **out, ge_error *err) {
  ge_clusters *c = (ge_clusters *)ge__pt_zalloc(g, sizeof *c);
  uint32_t n = ge_graph_node_count(g), b = ge_graph_id_bound(g), i;
  size_t nb = (size_t)b + 1;
  ge_status st;
  *out = NULL;
  if (!c) return ge_error_set(err, GE_ERR_NOMEM, "out of memory for clusters");
  c->g = g, c->bound = b, c->count = n;
  c->pos = (uint32_t *)ge__pt_zalloc(g, nb * sizeof *c->pos);
  c->parent = (ge_node_id *)ge__pt_alloc(g, nb * sizeof *c->parent);
  c->next = (ge_node_id *)ge__pt_alloc(g, nb * sizeof *c->next);
  c->tail = (ge_node_id *)ge__pt_alloc(g, nb * sizeof *c->tail);
  c->size = (uint32_t *)ge__pt_alloc(g, nb * sizeof *c->size); /* size and rank: set for every live node below */
  c->rank = (uint32_t *)ge__pt_alloc(g, nb * sizeof *c->rank);
  c->sorted = (uint64_t *)ge__pt_alloc(g, nb * sizeof *c->sorted);
  c->pool = (uint32_t *)ge__pt_alloc(g, nb * sizeof *c->pool);
  c->out = (ge__pt_list *)ge__pt_zalloc(g, nb * sizeof *c->out);
  c->in = (ge__pt_list *)ge__pt_zalloc(g, nb * sizeof *c->in);
  c->stamp = (uint32_t *)ge__pt_zalloc(g, nb * sizeof *c->stamp);
  c->stamp2 = (uint32_t *)ge__pt_zalloc(g, nb * sizeof *c->stamp2);
  c->stack = (ge_node_id *)ge__pt_alloc(g, nb * sizeof *c->stack);
  c->stack2 = (ge_node_id *)ge__pt_alloc(g, nb * sizeof *c->stack2);
  if (!c->pos || !c->parent || !c->next || !c->tail || !c->size || !c->rank || !c->sorted || !c->pool || !c->out ||
      !c->in || !c->stamp || !c->stamp2 || !c->stack || !c->stack2 || !ge__pt_first_lists(c)) {
    ge_clusters_free(c);
    return ge_error_set(err, GE_ERR_NOMEM, "out of memory for clusters of %u nodes", (unsigned)n);
  }
  /* the topological order goes into stack (scratch until the first search);
     on a cycle the graph's own sort names it */
  if (ge__pt_topo_order(c, c->stack) < n) {
    st = ge_graph_topo_sort(g, GE_TOPO_BFS, c->stack, err);
    ge_clusters_free(c);
    return st != GE_OK ? st : ge_error_set(err, GE_ERR_INTERNAL, "clusters: lost nodes in topological order");
  }
  for (i = 0; i < n; i++) {
    ge_node_id id = c->stack[i];
    c->pos[id] = c->rank[id] = i;
    c->parent[id] = id, c->next[id] = GE_NONE, c->tail[id] = id, c->size[id] = 1;
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

/* Room for `more` entries (a slice of the pool moves to storage of its own
 * when it must grow). */
static int ge__pt_reserve(ge_clusters *c, ge__pt_list *l, uint32_t more) {
  if (l->n + more > (l->cap ? l->cap : l->n)) {
    uint32_t cap = l->n + more + l->cap;
    ge_node_id *v = l->cap ? (ge_node_id *)ge__pt_realloc(c->g, l->v, sizeof *v * l->cap, sizeof *v * cap)
                           : (ge_node_id *)ge__pt_alloc(c->g, sizeof *v * cap);
    if (!v) return 0;
    if (!l->cap && l->n) memcpy(v, l->v, sizeof *v * l->n);
    l->v = v, l->cap = cap;
  }
  return 1;
}

/* Moves src's entries to the end of dst (room reserved). */
static void ge__pt_append(ge_clusters *c, ge__pt_list *dst, ge__pt_list *src) {
  if (src->n) memcpy(dst->v + dst->n, src->v, sizeof *src->v * src->n);
  dst->n += src->n;
  ge__pt_list_free(c, src);
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
  if (!ge__pt_reserve(c, &c->out[big], more_out) || !ge__pt_reserve(c, &c->in[big], more_in)) return GE_NONE;
  for (i = 0; i < n; i++) {
    ge_node_id s = set[i];
    if (s == big) continue;
    c->parent[s] = big;
    c->size[big] += c->size[s];
    c->next[c->tail[big]] = s; /* node lists: big's, then s's */
    c->tail[big] = c->tail[s];
    ge__pt_append(c, &c->out[big], &c->out[s]);
    ge__pt_append(c, &c->in[big], &c->in[s]);
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

/* Whether every entry of a short list is cluster `want` (or `self`). */
static int ge__pt_only(ge_clusters *c, const ge__pt_list *l, ge_node_id want, ge_node_id self) {
  uint32_t i;
  if (l->n > 8) return 0;
  for (i = 0; i < l->n; i++) {
    ge_node_id y = ge_clusters_find(c, l->v[i]);
    if (y != want && y != self) return 0;
  }
  return 1;
}

GE_API ge_node_id ge_clusters_try_merge(ge_clusters *c, ge_node_id a, ge_node_id b) {
  ge_node_id lo, hi;
  a = ge_clusters_find(c, a), b = ge_clusters_find(c, b);
  if (a == GE_NONE || b == GE_NONE) return GE_NONE;
  if (a == b) return a;
  lo = c->rank[a] < c->rank[b] ? a : b, hi = lo == a ? b : a;
  /* a path runs only from the lower rank up; when all that enters hi comes
     from lo, or all that leaves lo goes to hi, there is no second path */
  if (!ge__pt_only(c, &c->in[hi], lo, hi) && !ge__pt_only(c, &c->out[lo], hi, lo) && ge__pt_reach(c, lo, hi, 1))
    return GE_NONE;
  return ge_clusters_merge(c, a, b);
}

/* Walks from x over out (forward) or in lists, marking with `epoch` in
 * mark: only clusters inside the rank window [lo, hi], or, when `within`
 * is given, only those it marks with within_epoch; collects into list. */
static uint32_t ge__pt_walk(ge_clusters *c, ge_node_id x, int backward, uint32_t lo, uint32_t hi, uint32_t *mark,
                            uint32_t epoch, const uint32_t *within, uint32_t within_epoch, ge_node_id *list) {
  uint32_t top = 0, n = 0, i;
  c->stack[top++] = x;
  mark[x] = epoch;
  while (top) {
    ge_node_id v = c->stack[--top];
    ge__pt_list *l = backward ? &c->in[v] : &c->out[v];
    list[n++] = v;
    for (i = 0; i < l->n; i++) {
      ge_node_id y = ge_clusters_find(c, l->v[i]);
      if (y == v || mark[y] == epoch || c->rank[y] < lo || c->rank[y] > hi) continue;
      if (within && within[y] != within_epoch) continue;
      mark[y] = epoch;
      c->stack[top++] = y;
    }
  }
  return n;
}

GE_API ge_node_id ge_clusters_merge_paths(ge_clusters *c, ge_node_id from, ge_node_id to) {
  uint32_t n, lo, hi, e;
  ge_node_id *on_path, t, m;
  from = ge_clusters_find(c, from), to = ge_clusters_find(c, to);
  if (from == GE_NONE || to == GE_NONE || from == to) return from;
  if (c->rank[from] > c->rank[to]) t = from, from = to, to = t;
  if (!ge__pt_reach(c, from, to, 0)) return ge_clusters_merge(c, from, to); /* unrelated: no cycle possible */
  if (!(on_path = (ge_node_id *)ge__pt_alloc(c->g, sizeof *on_path * (c->bound + 1)))) return GE_NONE;
  lo = c->rank[from], hi = c->rank[to];
  /* the clusters on a path are those `from` reaches that reach `to`: walk
     back from `to` through the window, then forward from `from` through
     what that walk marked */
  c->epoch += 2;
  e = c->epoch;
  ge__pt_walk(c, to, 1, lo, hi, c->stamp2, e, NULL, 0, on_path);
  n = ge__pt_walk(c, from, 0, lo, hi, c->stamp, e, c->stamp2, e, on_path);
  m = ge__pt_merge_set(c, on_path, n);
  ge__pt_free(c->g, on_path, sizeof *on_path * (c->bound + 1));
  return m;
}

/* The clusters (only those holding a node with keep[node] & bit, when keep
 * is given), each once, by rank: a topological order of the clusters. The
 * ranks of clusters are distinct and below the node count, so each cluster
 * goes to the slot of its rank, no sort. Returns how many went to out. */
static uint32_t ge__pt_by_rank(ge_clusters *c, const uint8_t *keep, uint8_t bit, ge_node_id *out) {
  uint32_t i, n = 0;
  for (i = 0; i < c->count; i++) c->pool[i] = GE_NONE;
  for (i = 0; i < c->bound; i++)
    if (c->parent[i] != GE_NONE && (!keep || (keep[i] & bit))) {
      ge_node_id r = ge_clusters_find(c, i);
      c->pool[c->rank[r]] = r;
    }
  for (i = 0; i < c->count; i++)
    if (c->pool[i] != GE_NONE) out[n++] = c->pool[i];
  return n;
}

/* ------------------------------------------------- building the partition */

/* Wraps every cluster holding a movable node into a PartitionedCall, in
 * topological order of the clusters; label() then names and marks the call.
 * place[node]: GE__PT_MOVE moves the node (without it, it stays in g: Data,
 * NetOutput, lone Consts); GE__PT_SET_DYNAMIC or GE__PT_CLEAR_DYNAMIC sets
 * or clears its GE_NODE_IS_DYNAMIC first (else its flags are kept).
 * One pass over the nodes and edges: each cluster's subgraph gets copies of
 * its nodes, a Data node per distinct tensor it reads from outside and a
 * NetOutput of the tensors read outside it; the moved nodes leave g, the
 * calls are wired in, and g's remaining readers redirected. */
typedef void (*ge__pt_label_fn)(ge_graph *g, ge_node_id call, ge_node_id cluster, uint32_t index, void *u);

enum { GE__PT_MOVE = 1, GE__PT_SET_DYNAMIC = 2, GE__PT_CLEAR_DYNAMIC = 4 };

/* A tensor crossing a cluster boundary: for inputs, (src, cluster k) ->
 * Data node; for outputs, src -> output j of its cluster's call. */
typedef struct ge__pt_cross {
  ge_edge src;
  uint32_t k, id; /* cluster; Data node id (inputs) or output index (outputs) */
  uint32_t kind;  /* GE__PT_IN or GE__PT_OUT */
  uint32_t index; /* inputs of a wrapped cluster: the Data node's index (its call's input) */
} ge__pt_cross;

enum { GE__PT_IN = 0, GE__PT_OUT = 1 };

/* A growable list of pairs of 32-bit values (a << 32 | b). */
typedef struct ge__pt_pairs {
  uint64_t *v;
  uint32_t n, cap;
} ge__pt_pairs;

typedef struct ge__pt_builder {
  ge_graph *g;
  uint32_t bound, n_rep;
  int32_t *cid;           /* node -> cluster index, -1 stays in g */
  ge_node_id *copy;       /* node -> its copy in the cluster's subgraph */
  ge_graph **sub;         /* per cluster */
  ge_node_id *call;       /* per cluster */
  uint32_t *n_in, *n_out; /* per cluster */
  uint8_t *netout_named;  /* per cluster: a member's name starts with "NetOutput" */
  ge__pt_cross *x;        /* crossings, inputs and outputs */
  uint32_t n_x, cap_x;
  uint32_t *slots, n_slots; /* hash of the crossings by (kind, src, k): index or UINT32_MAX */
  uint32_t *last;           /* per node: its latest crossing (most lookups end there), UINT32_MAX: none */
  const uint8_t *place;     /* per node: GE__PT_MOVE, ... */
  ge__pt_pairs entering;    /* (node, input) entering its cluster */
  ge__pt_pairs reads;       /* (node, input) of g's remaining nodes reading moved ones */
  ge__pt_pairs read_srcs;   /* the tensor (node, output) each of those reads */
  ge__pt_pairs controls;    /* (src, dst) control edges to redirect to the calls */
} ge__pt_builder;

static uint32_t ge__pt_cross_hash(uint32_t kind, ge_edge src, uint32_t k) {
  uint64_t h = ((uint64_t)src.node << 32 | (uint32_t)src.index) * 0x9E3779B97F4A7C15ull;
  h ^= ((uint64_t)k << 1 | kind) * 0xC2B2AE3D27D4EB4Full;
  return (uint32_t)(h >> 32 ^ h);
}

static uint32_t ge__pt_find_cross(const ge__pt_builder *b, uint32_t kind, ge_edge src, uint32_t k) {
  uint32_t i, j = b->last[src.node];
  if (j == UINT32_MAX) return UINT32_MAX; /* nothing crosses from this node */
  if (b->x[j].kind == kind && b->x[j].k == k && b->x[j].src.index == src.index) return j;
  for (i = ge__pt_cross_hash(kind, src, k) & (b->n_slots - 1); (j = b->slots[i]) != UINT32_MAX; i = (i + 1) & (b->n_slots - 1))
    if (b->x[j].kind == kind && b->x[j].k == k && b->x[j].src.node == src.node && b->x[j].src.index == src.index) return j;
  return UINT32_MAX;
}

static void ge__pt_slot_put(ge__pt_builder *b, uint32_t j) {
  uint32_t i = ge__pt_cross_hash(b->x[j].kind, b->x[j].src, b->x[j].k) & (b->n_slots - 1);
  while (b->slots[i] != UINT32_MAX) i = (i + 1) & (b->n_slots - 1);
  b->slots[i] = j;
}

/* The builder's node maps (b->g and b->bound set); 0 when memory runs out. */
static int ge__pt_builder_init(ge__pt_builder *b) {
  b->cid = (int32_t *)ge__pt_alloc(b->g, sizeof *b->cid * (b->bound + 1));
  b->copy = (ge_node_id *)ge__pt_alloc(b->g, sizeof *b->copy * (b->bound + 1));
  b->last = (uint32_t *)ge__pt_alloc(b->g, sizeof *b->last * (b->bound + 1));
  if (b->last) memset(b->last, 0xFF, sizeof *b->last * (b->bound + 1));
  return b->cid && b->copy && b->last;
}

/* The builder's node maps and crossings. */
static void ge__pt_builder_free(ge__pt_builder *b) {
  ge__pt_free(b->g, b->cid, sizeof *b->cid * (b->bound + 1)), ge__pt_free(b->g, b->copy, sizeof *b->copy * (b->bound + 1));
  ge__pt_free(b->g, b->last, sizeof *b->last * (b->bound + 1));
  ge__pt_free(b->g, b->entering.v, sizeof *b->entering.v * b->entering.cap);
  ge__pt_free(b->g, b->reads.v, sizeof *b->reads.v * b->reads.cap);
  ge__pt_free(b->g, b->read_srcs.v, sizeof *b->read_srcs.v * b->read_srcs.cap);
  ge__pt_free(b->g, b->controls.v, sizeof *b->controls.v * b->controls.cap);
  ge__pt_free(b->g, b->x, sizeof *b->x * b->cap_x), ge__pt_free(b->g, b->slots, sizeof *b->slots * b->n_slots);
}

/* Records a crossing (not already there); its index, or UINT32_MAX when
 * memory runs out. */
static uint32_t ge__pt_add_cross(ge__pt_builder *b, uint32_t kind, ge_edge src, uint32_t k, uint32_t id) {
  uint32_t j;
  if (b->n_x == b->cap_x) {
    uint32_t cap = b->cap_x ? 2 * b->cap_x : 256;
    ge__pt_cross *q = (ge__pt_cross *)ge__pt_realloc(b->g, b->x, sizeof *q * b->cap_x, sizeof *q * cap);
    if (!q) return UINT32_MAX;
    b->x = q, b->cap_x = cap;
  }
  if (2 * (b->n_x + 1) > b->n_slots) { /* grow the hash to twice the crossings, rehash */
    uint32_t n = b->n_slots ? 2 * b->n_slots : 1024, *q = (uint32_t *)ge__pt_alloc(b->g, sizeof *q * n);
    if (!q) return UINT32_MAX;
    ge__pt_free(b->g, b->slots, sizeof *q * b->n_slots);
    b->slots = q, b->n_slots = n;
    memset(q, 0xFF, sizeof *q * n);
    for (j = 0; j < b->n_x; j++) ge__pt_slot_put(b, j);
  }
  b->x[b->n_x].src = src, b->x[b->n_x].k = k, b->x[b->n_x].id = id, b->x[b->n_x].kind = kind, b->x[b->n_x].index = 0;
  ge__pt_slot_put(b, b->n_x);
  b->last[src.node] = b->n_x;
  return b->n_x++;
}

/* The Data node of cluster k standing for tensor src (made on first use). */
static ge_status ge__pt_boundary_input(ge__pt_builder *b, ge_edge src, uint32_t k, ge_node_id *data, ge_error *err) {
  uint32_t j = ge__pt_find_cross(b, GE__PT_IN, src, k);
  const ge_node *p;
  const ge_tensor_desc *d;
  ge_status st;
  char name[300];
  if (j != UINT32_MAX) {
    *data = b->x[j].id;
    return GE_OK;
  }
  p = ge_graph_node(b->g, src.node);
  d = &p->outputs[src.index];
  snprintf(name, sizeof name, "%s:%d", p->name, (int)src.index);
  if ((st = ge_graph_add_node(b->sub[k], "Data", name, 0, NULL, 1, data, err)) ||
      (st = ge_node_set_attr_int(b->sub[k], *data, "index", (int64_t)b->n_in[k]++, err)) ||
      (st = ge_node_set_output(b->sub[k], *data, 0, d->dtype, d->shape.rank, d->shape.dims, d->shape.info, err)))
    return st;
  if ((j = ge__pt_add_cross(b, GE__PT_IN, src, k, *data)) == UINT32_MAX) return ge_error_set(err, GE_ERR_NOMEM, "out of memory");
  b->x[j].index = b->n_in[k] - 1;
  return GE_OK;
}

/* Where tensor src of g is found once its node moved: the call's output. */
static ge_edge ge__pt_outside(const ge__pt_builder *b, ge_edge src) {
  if (src.node != GE_NONE && b->cid[src.node] >= 0) {
    uint32_t j = ge__pt_find_cross(b, GE__PT_OUT, src, (uint32_t)b->cid[src.node]);
    src.node = b->call[b->cid[src.node]];
    src.index = (int32_t)b->x[j].id;
  }
  return src;
}

/* Appends the pair (a, x) to a list of the builder. */
static int ge__pt_note(ge__pt_builder *b, ge__pt_pairs *l, uint32_t a, uint32_t x) {
  if (l->n == l->cap) {
    uint32_t cap = l->cap ? 2 * l->cap : 256;
    uint64_t *v = (uint64_t *)ge__pt_realloc(b->g, l->v, sizeof *v * l->cap, sizeof *v * cap);
    if (!v) return 0;
    l->v = v, l->cap = cap;
  }
  l->v[l->n++] = (uint64_t)a << 32 | x;
  return 1;
}

/* Copies the clusters' nodes with the edges inside a cluster in one walk
 * (producers come first), then the edges entering a cluster, whose Data
 * nodes come after the copies. Notes the outputs read outside each
 * cluster, the inputs of g's remaining nodes that moved, and the control
 * edges that cross clusters (ge__pt_rewire redirects them to the calls). */
static ge_status ge__pt_fill(ge__pt_builder *b, const ge_node_id *order, uint32_t count, ge_error *err) {
  uint32_t i, k, u;
  ge_status st = GE_OK;
  for (i = 0; i < count && st == GE_OK; i++) {
    ge_node *n = ge_graph_node(b->g, order[i]);
    int32_t c = b->cid[n->id];
    if (b->place[n->id] & GE__PT_SET_DYNAMIC) n->flags |= GE_NODE_IS_DYNAMIC;
    if (b->place[n->id] & GE__PT_CLEAR_DYNAMIC) n->flags &= ~(uint32_t)GE_NODE_IS_DYNAMIC;
    for (k = 0; k < n->num_control_inputs && st == GE_OK; k++) {
      ge_node_id q = n->control_inputs[k];
      if (b->cid[q] != c && (b->cid[q] >= 0 || c >= 0) && !ge__pt_note(b, &b->controls, q, n->id))
        st = ge_error_set(err, GE_ERR_NOMEM, "out of memory");
    }
    if (c < 0) { /* stays in g: inputs from moved nodes will read the calls */
      for (k = 0; k < n->num_inputs && st == GE_OK; k++)
        if (n->inputs[k].node != GE_NONE && b->cid[n->inputs[k].node] >= 0 &&
            (!ge__pt_note(b, &b->reads, n->id, k) ||
             !ge__pt_note(b, &b->read_srcs, n->inputs[k].node, (uint32_t)n->inputs[k].index)))
          st = ge_error_set(err, GE_ERR_NOMEM, "out of memory");
      continue;
    }
    if (!strncmp(n->name, "NetOutput", 9)) b->netout_named[c] = 1;
    if (st == GE_OK) st = ge_graph_copy_node(b->sub[c], b->g, n, NULL, &b->copy[n->id], err);
    for (k = 0; k < n->num_inputs && st == GE_OK; k++) {
      ge_edge e = n->inputs[k];
      if (e.node == GE_NONE) continue;
      if (b->cid[e.node] != c) { /* from outside: after the copies */
        if (!ge__pt_note(b, &b->entering, n->id, k)) st = ge_error_set(err, GE_ERR_NOMEM, "out of memory");
        continue;
      }
      e.node = b->copy[e.node];
      st = ge_graph_set_input(b->sub[c], b->copy[n->id], k, e, err);
    }
    for (k = 0; k < n->num_control_inputs && st == GE_OK; k++)
      if (b->cid[n->control_inputs[k]] == c) st = ge_graph_add_control(b->sub[c], b->copy[n->control_inputs[k]], b->copy[n->id], err);
    for (u = 0; u < n->num_uses && st == GE_OK; u++) { /* outputs read outside the cluster */
      const ge_use *use = &n->uses[u];
      ge_edge src;
      if (b->cid[use->node] == c) continue;
      src = ge_graph_node(b->g, use->node)->inputs[use->input];
      if (ge__pt_find_cross(b, GE__PT_OUT, src, (uint32_t)c) != UINT32_MAX) continue;
      if (ge__pt_add_cross(b, GE__PT_OUT, src, (uint32_t)c, b->n_out[c]++) == UINT32_MAX)
        st = ge_error_set(err, GE_ERR_NOMEM, "out of memory");
    }
  }
  for (i = 0; i < b->entering.n && st == GE_OK; i++) {
    ge_node_id id = (ge_node_id)(b->entering.v[i] >> 32);
    uint32_t c = (uint32_t)b->cid[id];
    ge_edge e = ge_graph_node(b->g, id)->inputs[(uint32_t)b->entering.v[i]], inner;
    if ((st = ge__pt_boundary_input(b, e, c, &inner.node, err)) == GE_OK) {
      inner.index = 0;
      st = ge_graph_set_input(b->sub[c], b->copy[id], (uint32_t)b->entering.v[i], inner, err);
    }
  }
  return st;
}

/* Each subgraph's NetOutput, then its call in g (clusters in topological
 * order, so a call's producers exist already). */
static ge_status ge__pt_calls(ge__pt_builder *b, ge_error *err) {
  uint32_t k, i, j, most_out = 0, most_in = 0, *start, *by_k;
  ge_status st = GE_OK;
  ge_edge *outs, *ins;
  for (k = 0; k < b->n_rep; k++) {
    if (b->n_out[k] > most_out) most_out = b->n_out[k];
    if (b->n_in[k] > most_in) most_in = b->n_in[k];
  }
  start = (uint32_t *)ge__pt_zalloc(b->g, sizeof *start * (b->n_rep + 2));
  by_k = (uint32_t *)ge__pt_alloc(b->g, sizeof *by_k * (b->n_x + 1));
  outs = (ge_edge *)ge__pt_alloc(b->g, sizeof *outs * (most_out + 1));
  ins = (ge_edge *)ge__pt_alloc(b->g, sizeof *ins * (most_in + 1));
  if (!start || !by_k || !outs || !ins) st = ge_error_set(err, GE_ERR_NOMEM, "out of memory");
  for (j = 0; st == GE_OK && j < b->n_x; j++) start[b->x[j].k + 1]++; /* crossings bucketed by cluster */
  for (k = 0; st == GE_OK && k < b->n_rep; k++) start[k + 1] += start[k];
  for (j = 0; st == GE_OK && j < b->n_x; j++) by_k[start[b->x[j].k]++] = j;
  for (k = b->n_rep; st == GE_OK && k > 0; k--) start[k] = start[k - 1];
  if (start) start[0] = 0;
  for (k = 0; k < b->n_rep && st == GE_OK; k++) {
    uint32_t n_out = b->n_out[k], n_in = b->n_in[k];
    for (j = start[k]; j < start[k + 1]; j++) {
      const ge__pt_cross *x = &b->x[by_k[j]];
      if (b->cid[x->src.node] == (int32_t)k) /* an output: the copy's tensor */
        outs[x->id].node = b->copy[x->src.node], outs[x->id].index = x->src.index;
      else /* an input: by its Data node's index */
        ins[x->index] = ge__pt_outside(b, x->src);
    }
    /* named "NetOutput" when no member's name starts so (the Data nodes'
       names end in ":index"): no search of a large subgraph for a free name */
    if (!b->netout_named[k] && (st = ge_graph_add_node(b->sub[k], "NetOutput", "NetOutput", 0, NULL, 0, NULL, err)) != GE_OK)
      break;
    if ((st = ge_graph_set_outputs(b->sub[k], n_out, outs, NULL, err)) != GE_OK) break;
    if ((st = ge_graph_add_node(b->g, "PartitionedCall", NULL, n_in, ins, (int32_t)n_out, &b->call[k], err)) != GE_OK)
      break;
    for (i = 0; i < n_out && st == GE_OK; i++) {
      const ge_tensor_desc *d = &ge_graph_node(b->sub[k], outs[i].node)->outputs[outs[i].index];
      st = ge_node_set_output(b->g, b->call[k], i, d->dtype, d->shape.rank, d->shape.dims, d->shape.info, err);
    }
    if (st == GE_OK) st = ge_node_set_attr_graph(b->g, b->call[k], "f", b->sub[k], err);
    b->sub[k] = NULL; /* owned by the call (or freed on error) */
  }
  ge__pt_free(b->g, outs, sizeof *outs * (most_out + 1)), ge__pt_free(b->g, ins, sizeof *ins * (most_in + 1));
  ge__pt_free(b->g, start, sizeof *start * (b->n_rep + 2)), ge__pt_free(b->g, by_k, sizeof *by_k * (b->n_x + 1));
  return st;
}

/* The moved nodes leave g (before the calls come, so g is small when the
 * calls' names are checked). */
static ge_status ge__pt_remove_moved(ge__pt_builder *b, const ge_node_id *order, uint32_t count, ge_error *err) {
  uint32_t i;
  ge_status st = GE_OK;
  for (i = 0; i < count && st == GE_OK; i++)
    if (b->cid[order[i]] >= 0) st = ge_graph_remove_node(b->g, order[i], err);
  return st;
}

/* g's remaining readers of moved tensors read the calls; control edges
 * crossing a cluster attach to its call. */
static ge_status ge__pt_rewire(ge__pt_builder *b, ge_error *err) {
  uint32_t i;
  ge_status st = GE_OK;
  for (i = 0; i < b->reads.n && st == GE_OK; i++) {
    ge_edge src;
    src.node = (ge_node_id)(b->read_srcs.v[i] >> 32), src.index = (int32_t)(uint32_t)b->read_srcs.v[i];
    st = ge_graph_set_input(b->g, (ge_node_id)(b->reads.v[i] >> 32), (uint32_t)b->reads.v[i], ge__pt_outside(b, src), err);
  }
  for (i = 0; i < b->controls.n && st == GE_OK; i++) {
    ge_node_id q = (ge_node_id)(b->controls.v[i] >> 32), n = (ge_node_id)b->controls.v[i];
    st = ge_graph_add_control(b->g, b->cid[q] >= 0 ? b->call[b->cid[q]] : q, b->cid[n] >= 0 ? b->call[b->cid[n]] : n, err);
  }
  return st;
}

static ge_status ge__pt_wrap_clusters(ge_graph *g, ge_clusters *c, const uint8_t *place, ge__pt_label_fn label,
                                      void *u, ge_error *err) {
  ge__pt_builder b;
  uint32_t bound = c->bound, count = ge_graph_node_count(g), i, k, n_rep = 0;
  ge_node_id *order = (ge_node_id *)ge__pt_alloc(g, sizeof *order * (count + 1)), *reps;
  ge_status st = GE_OK;
  memset(&b, 0, sizeof b);
  b.g = g, b.bound = bound, b.place = place;
  reps = (ge_node_id *)ge__pt_alloc(g, sizeof *reps * (count + 1));
  if (!ge__pt_builder_init(&b) || !order || !reps)
    st = ge_error_set(err, GE_ERR_NOMEM, "out of memory building partitions");
  if (st == GE_OK) {
    for (i = 0; i < bound; i++) {
      b.cid[i] = -1;
      if (c->parent[i] != GE_NONE) order[c->pos[i]] = i;
    }
    b.n_rep = ge__pt_by_rank(c, place, GE__PT_MOVE, reps); /* the clusters with a movable node */
    for (k = 0; k < b.n_rep; k++) b.copy[reps[k]] = k; /* cluster -> index until the copies are made */
    for (i = 0; i < count; i++)
      if (place[order[i]] & GE__PT_MOVE) b.cid[order[i]] = (int32_t)b.copy[ge_clusters_find(c, order[i])];
    n_rep = b.n_rep;
    b.sub = (ge_graph **)ge__pt_zalloc(g, sizeof *b.sub * (n_rep + 1));
    b.call = (ge_node_id *)ge__pt_zalloc(g, sizeof *b.call * (n_rep + 1));
    b.n_in = (uint32_t *)ge__pt_zalloc(g, sizeof *b.n_in * (n_rep + 1));
    b.n_out = (uint32_t *)ge__pt_zalloc(g, sizeof *b.n_out * (n_rep + 1));
    b.netout_named = (uint8_t *)ge__pt_zalloc(g, n_rep + 1);
    if (!b.sub || !b.call || !b.n_in || !b.n_out || !b.netout_named) st = ge_error_set(err, GE_ERR_NOMEM, "out of memory");
  }
  for (k = 0; k < b.n_rep && st == GE_OK; k++) {
    ge_graph_desc d;
    memset(&d, 0, sizeof d);
    d.name = ge_graph_name(g);
    d.allocator = *ge_graph_allocator(g);
    d.registry = ge_graph_registry(g);
    st = ge_graph_create(&d, &b.sub[k], err);
  }
  if (st == GE_OK) st = ge__pt_fill(&b, order, count, err);
  if (st == GE_OK) st = ge__pt_remove_moved(&b, order, count, err);
  if (st == GE_OK) st = ge__pt_calls(&b, err);
  if (st == GE_OK) st = ge__pt_rewire(&b, err);
  for (k = 0; k < b.n_rep && st == GE_OK; k++)
    if (label) label(g, b.call[k], reps[k], k, u);
  for (k = 0; b.sub && k < b.n_rep; k++) ge_graph_free(b.sub[k]);
  ge__pt_free(g, b.sub, sizeof *b.sub * (n_rep + 1)), ge__pt_free(g, b.call, sizeof *b.call * (n_rep + 1));
  ge__pt_free(g, b.n_in, sizeof *b.n_in * (n_rep + 1)), ge__pt_free(g, b.n_out, sizeof *b.n_out * (n_rep + 1));
  ge__pt_free(g, b.netout_named, n_rep + 1);
  ge__pt_free(g, order, sizeof *order * (count + 1)), ge__pt_free(g, reps, sizeof *reps * (count + 1));
  ge__pt_builder_free(&b);
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

/* Whether n's engine (in d->engines) runs on the host. */
static int ge__pt_on_host(const ge_node *n, const ge_dynamic_partition_desc *d) {
  const ge_engine *e = d->engines && n->engine >= 0 && (uint32_t)n->engine < d->num_engines ? d->engines[n->engine] : NULL;
  return e && e->runtime == GE_RUNTIME_HOST;
}

/* The six rules of §5.2.1. */
static int ge__pt_node_dynamic(const ge_graph *g, const ge_node *n, const ge_dynamic_partition_desc *d) {
  uint32_t a;
  if (ge__pt_has_unknown_shape(g, n)) return 1;                                           /* 1 */
  if ((n->flags & GE_NODE_FORCE_DYNAMIC) || ge_node_attr_int(n, "_force_unknown_shape", 0)) return 1; /* 2 */
  if (ge_node_attr_int(n, "_tiling_dependency", 0) && !ge_node_attr_int(n, "_tiling_offload", 0)) return 1; /* 3 */
  if (!ge_node_attr_int(n, "_is_support_addr_refresh", 1)) return 1;                   /* 4 */
  if (ge__pt_on_host(n, d)) return 1;                                                      /* 5 */
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

/* What the later steps look for in a node, noted while classifying so
 * that they visit only those nodes. */
enum { GE__PT_CONST = 1, GE__PT_VARIABLE = 2, GE__PT_STACK = 4, GE__PT_GROUP = 8 /* has _control_flow_group */ };

typedef struct ge__pt_dyn {
  ge_graph *g;
  ge_clusters *c;
  uint8_t *kind;     /* per cluster (its id) */
  uint8_t *trait;    /* per node: GE__PT_CONST, ... */
  ge_node_id *order; /* nodes by position */
  uint32_t count;
} ge__pt_dyn;

/* Dynamic path absorption: every cluster on a path between two dynamic
 * clusters becomes dynamic (a cluster reached from a dynamic one that
 * reaches a dynamic one: two sweeps in rank order), and each connected
 * group of those merges into one cluster. The set is path-closed, so each
 * group is convex and merging it makes no cycle. */
static void ge__pt_merge_unknown(ge__pt_dyn *s) {
  ge_clusters *c = s->c;
  uint32_t i, j, n = 0, top;
  size_t nc = (size_t)s->count + 1;
  ge_node_id *reps = (ge_node_id *)ge__pt_alloc(s->g, sizeof *reps * nc), *group = (ge_node_id *)ge__pt_alloc(s->g, sizeof *group * nc);
  uint8_t *flag = (uint8_t *)ge__pt_zalloc(s->g, c->bound + 1); /* 1 reached from dynamic, 2 reaches dynamic, 4 grouped */
  if (!reps || !group || !flag) goto done;
  n = ge__pt_by_rank(c, NULL, 0, reps);
  for (i = 0; i < n; i++) { /* forward: reached from a dynamic cluster */
    ge_node_id r = reps[i];
    if (s->kind[r] == GE__PT_UNKNOWN) flag[r] |= 1;
    for (j = 0; !(flag[r] & 1) && j < c->in[r].n; j++)
      if (flag[ge_clusters_find(c, c->in[r].v[j])] & 1) flag[r] |= 1;
  }
  for (i = n; i-- > 0;) { /* backward: reaches a dynamic cluster */
    ge_node_id r = reps[i];
    if (s->kind[r] == GE__PT_UNKNOWN) flag[r] |= 2;
    for (j = 0; !(flag[r] & 2) && j < c->out[r].n; j++)
      if (flag[ge_clusters_find(c, c->out[r].v[j])] & 2) flag[r] |= 2;
  }
  for (i = 0; i < n; i++) { /* each connected group of clusters flagged both ways */
    ge_node_id r = reps[i], m;
    uint32_t g_n = 0;
    if ((flag[r] & 7) != 3 || s->kind[r] == GE__PT_FIXED) continue;
    top = 0;
    c->stack[top++] = r;
    flag[r] |= 4;
    while (top) {
      ge_node_id x = c->stack[--top];
      group[g_n++] = x;
      for (j = 0; j < c->in[x].n + c->out[x].n; j++) {
        ge_node_id y = ge_clusters_find(c, j < c->in[x].n ? c->in[x].v[j] : c->out[x].v[j - c->in[x].n]);
        if ((flag[y] & 7) != 3 || s->kind[y] == GE__PT_FIXED) continue;
        flag[y] |= 4;
        c->stack[top++] = y;
      }
    }
    if ((m = g_n > 1 ? ge__pt_merge_set(c, group, g_n) : r) != GE_NONE) s->kind[m] = GE__PT_UNKNOWN;
  }
done:
  ge__pt_free(s->g, reps, sizeof *reps * nc);
  ge__pt_free(s->g, group, sizeof *group * nc), ge__pt_free(s->g, flag, c->bound + 1);
}

/* Static clusters merge with static producers when no other path joins
 * them (and Consts join their first consumer they can). */
static void ge__pt_merge_known(ge__pt_dyn *s) {
  uint32_t i, j;
  for (i = 0; i < s->count; i++) {
    ge_node_id id = s->order[i];
    const ge_node_id *producers;
    uint32_t n;
    if (s->kind[ge_clusters_find(s->c, id)] != GE__PT_KNOWN) continue;
    /* its producers from the clusters' first lists, not from the node: a
       static node is still a cluster of its own here (only dynamic ones
       merged so far, and its consumers come later). The slice is kept
       while the merges below change the list (a compaction in place only
       turns entries into their clusters). */
    producers = s->c->in[id].v, n = s->c->in[id].n;
    for (j = 0; j < n; j++) {
      ge_node_id x = ge_clusters_find(s->c, id), y = ge_clusters_find(s->c, producers[j]), z;
      if (s->kind[x] != GE__PT_KNOWN) break;
      if (y == x || s->kind[y] != GE__PT_KNOWN) continue;
      if ((z = ge_clusters_try_merge(s->c, y, x)) != GE_NONE) s->kind[z] = GE__PT_KNOWN;
    }
  }
}

/* Each Const left alone joins the first consumer cluster it can. */
static void ge__pt_merge_consts(ge__pt_dyn *s) {
  uint32_t i, u;
  for (i = 0; i < s->count; i++) {
    const ge_node *n;
    ge_node_id x;
    if (!(s->trait[s->order[i]] & GE__PT_CONST) || ge_clusters_size(s->c, (x = ge_clusters_find(s->c, s->order[i]))) != 1)
      continue;
    n = ge_graph_node(s->g, s->order[i]);
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
    const ge_node *n;
    int64_t grp;
    if (!(s->trait[s->order[i]] & (GE__PT_GROUP | GE__PT_VARIABLE))) continue;
    n = ge_graph_node(s->g, s->order[i]);
    grp = ge_node_attr_int(n, "_control_flow_group", -1);
    if (grp >= 0)
      for (j = i + 1; j < s->count; j++) {
        const ge_node *m;
        ge_node_id z;
        if (!(s->trait[s->order[j]] & GE__PT_GROUP)) continue;
        m = ge_graph_node(s->g, s->order[j]);
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
    ge_node *n;
    int kinds = 0;
    if (!(s->trait[s->order[i]] & GE__PT_STACK)) continue;
    n = ge_graph_node(s->g, s->order[i]);
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

/* Frees the clusters and their per-node arrays. */
static void ge__pt_dyn_release(ge__pt_dyn *s) {
  if (!s->c) return;
  ge__pt_free(s->g, s->kind, s->c->bound + 1), ge__pt_free(s->g, s->trait, s->c->bound + 1);
  ge__pt_free(s->g, s->order, sizeof *s->order * (s->count + 1));
  ge_clusters_free(s->c);
  s->c = NULL, s->kind = NULL, s->trait = NULL, s->order = NULL;
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
    s->trait[n->id] = (uint8_t)((ge__pt_is(n, "Const") ? GE__PT_CONST : 0) | (ge__pt_is(n, "Variable") ? GE__PT_VARIABLE : 0) |
                                (ge__pt_is(n, "Stack") ? GE__PT_STACK : 0) |
                                (ge_node_attr_int(n, "_control_flow_group", -1) >= 0 ? GE__PT_GROUP : 0));
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

/* What dynamic/static partitioning decided, for the desc's logger. */
static void ge__pt_log_dynamic(const ge_graph *g, const ge_logger *l) {
  const ge_node *n;
  uint32_t calls[2] = {0, 0};
  if (!GE_LOG_ON(l, GE_LOG_INFO)) return;
  if (!ge_graph_attr(g, "_dynamic_shape_partitioned") || !ge_graph_attr(g, "_dynamic_shape_partitioned")->v.i) {
    ge_log(l, GE_LOG_INFO, "partition", "dynamic/static: every shape is static, the graph stays whole");
    return;
  }
  GE_GRAPH_FOREACH(g, n)
  if (!strcmp(n->op, "PartitionedCall") && ge_node_attr(n, "_is_unknown_shape"))
    calls[ge_node_attr_int(n, "_is_unknown_shape", 0) != 0]++;
  ge_log(l, GE_LOG_INFO, "partition", "dynamic/static: %u static and %u dynamic subgraphs", (unsigned)calls[0],
         (unsigned)calls[1]);
}

GE_API ge_status ge_partition_dynamic(ge_graph *g, const ge_dynamic_partition_desc *d, ge_error *err) {
  ge_dynamic_partition_desc dflt;
  ge__pt_dyn s;
  ge_status st = GE_OK;
  uint8_t *place = NULL;
  uint32_t round, i;
  int dynamic = 0;
  if (!g) return ge_error_set(err, GE_ERR_INVALID, "ge_partition_dynamic: no graph");
  if (!d) {
    memset(&dflt, 0, sizeof dflt);
    d = &dflt;
  }
  memset(&s, 0, sizeof s);
  s.g = g;
  for (round = 0; round < 3 && st == GE_OK; round++) { /* a data-flow re-split partitions again */
    ge__pt_dyn_release(&s);
    if ((st = ge_clusters_create(g, &s.c, err)) != GE_OK) break;
    s.count = ge_graph_node_count(g);
    s.kind = (uint8_t *)ge__pt_zalloc(g, s.c->bound + 1);
    s.trait = (uint8_t *)ge__pt_zalloc(g, s.c->bound + 1);
    s.order = (ge_node_id *)ge__pt_alloc(g, sizeof *s.order * (s.count + 1));
    if (!s.kind || !s.trait || !s.order) {
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
    if (!(place = (uint8_t *)ge__pt_zalloc(g, s.c->bound + 1))) st = ge_error_set(err, GE_ERR_NOMEM, "out of memory");
    for (i = 0; st == GE_OK && i < s.count; i++) { /* Data, NetOutput and lone Consts stay */
      ge_node_id id = s.order[i], x = ge_clusters_find(s.c, id);
      int stays = s.kind[x] == GE__PT_FIXED || ((s.trait[id] & GE__PT_CONST) && ge_clusters_size(s.c, x) == 1);
      place[id] = (uint8_t)((stays ? 0 : GE__PT_MOVE) | (s.kind[x] == GE__PT_UNKNOWN ? GE__PT_SET_DYNAMIC : GE__PT_CLEAR_DYNAMIC));
    }
    if (st == GE_OK) st = ge__pt_wrap_clusters(g, s.c, place, ge__pt_label_dynamic, &s, err);
  }
  if (place) ge__pt_free(g, place, s.c->bound + 1);
  ge__pt_dyn_release(&s);
  if (st == GE_OK) ge__pt_log_dynamic(g, &d->logger);
  return st;
}

#ifdef __cplusplus
}
#endif

/* --------------------------------------------------- engine partitioning */

/* The piece a node goes to by label: -2 for graph inputs (one input
 * piece), else its engine or, in the composite pass, that engine's
 * composite. */
static int32_t ge__pt_engine_label(const ge_node *n, const ge_engine *const *engines, uint32_t ne, int composite) {
  int32_t c;
  if (ge__pt_is(n, "Data")) return -2;
  if (composite && (c = ge_engine_composite_index(engines, ne, n->engine)) >= 0) return c;
  return n->engine;
}

/* What the engine partitioner reads of a node, gathered in one walk. */
typedef struct ge__pt_piece_node {
  int32_t label;      /* ge__pt_engine_label */
  uint8_t is_const, is_output; /* Const, NetOutput */
  const char *stream; /* attribute _stream_label, or NULL */
} ge__pt_piece_node;

/* A piece's label: its nodes' (a Const takes its consumers'). */
static int32_t ge__pt_piece_label(ge_clusters *c, ge_node_id r, const ge__pt_piece_node *info) {
  ge_node_id x;
  for (x = ge_clusters_first(c, r); x != GE_NONE; x = ge_clusters_next(c, x))
    if (!info[x].is_const) break;
  return info[x == GE_NONE ? r : x].label;
}

static int ge__pt_same_stream_label(const char *x, const char *y) { return x == y || (x && y && !strcmp(x, y)); }

/* Capacity of the array of n control lines (it grows by doubling). */
static uint32_t ge__pt_control_cap(uint32_t n) {
  uint32_t cap = 8;
  if (!n) return 0;
  while (cap < n) cap *= 2;
  return cap;
}

GE_API void ge_engine_partition_free(ge_engine_partition *p) {
  const ge_allocator *a;
  uint32_t i;
  if (!p) return;
  a = &p->allocator;
  for (i = 0; p->subgraphs && i < p->count; i++) ge_graph_free(p->subgraphs[i].graph);
  for (i = 0; i < p->num_control; i++) a->free(a->user, p->control[i], strlen(p->control[i]) + 1);
  if (p->subgraphs) a->free(a->user, p->subgraphs, sizeof *p->subgraphs * (p->count + 1));
  if (p->control) a->free(a->user, p->control, sizeof *p->control * ge__pt_control_cap(p->num_control));
  memset(p, 0, sizeof *p);
}

/* Records the control edge src -> dst between two pieces as "src\ndst". */
static ge_status ge__pt_control_line(ge_engine_partition *out, const ge_graph *g, const char *src, const char *dst,
                                     ge_error *err) {
  size_t a = strlen(src), z = strlen(dst);
  uint32_t cap = ge__pt_control_cap(out->num_control);
  char *line = (char *)ge__pt_alloc(g, a + z + 2);
  if (!line) return ge_error_set(err, GE_ERR_NOMEM, "out of memory");
  if (out->num_control == cap) {
    char **grown = (char **)ge__pt_realloc(g, out->control, sizeof *grown * cap, sizeof *grown * ge__pt_control_cap(cap + 1));
    if (!grown) {
      ge__pt_free(g, line, a + z + 2);
      return ge_error_set(err, GE_ERR_NOMEM, "out of memory");
    }
    out->control = grown;
  }
  memcpy(line, src, a), line[a] = '\n', memcpy(line + a + 1, dst, z + 1);
  out->control[out->num_control++] = line;
  return GE_OK;
}

/* A PlaceHolder or End of pair `peer` for tensor (node name, output). */
static ge_status ge__pt_pair_node(ge_graph *sub, const char *op, uint32_t peer, const char *parent, int32_t anchor,
                                  uint32_t n_in, const ge_edge *in, int32_t engine, ge_node_id *out, ge_error *err) {
  ge_status st;
  ge_attr a[3];
  char name[32];
  memset(a, 0, sizeof a);
  a[0].name = "peer_index", a[0].type = GE_ATTR_INT, a[0].v.i = (int64_t)peer;
  a[1].name = "parent_node", a[1].type = GE_ATTR_STRING, a[1].v.s = parent;
  a[2].name = "anchor_index", a[2].type = GE_ATTR_INT, a[2].v.i = anchor;
  ge__pt_name_u32(name, op, peer);
  if ((st = ge_graph_add_node(sub, op, name, n_in, in, n_in ? 0 : 1, out, err)) || (st = ge_node_set_attrs(sub, *out, a, 3, err)))
    return st;
  ge_graph_node(sub, *out)->engine = engine;
  return GE_OK;
}

/* Piece k's graph, made when its first node comes (so it is warm while
 * filled, not made long before among thousands of others). */
static ge_status ge__pt_piece_create(const ge_graph *g, ge_engine_partition *out, uint32_t k, ge_error *err) {
  ge_graph_desc d;
  memset(&d, 0, sizeof d);
  d.name = ge_graph_name(g), d.allocator = out->allocator, d.registry = ge_graph_registry(g);
  return ge_graph_create(&d, &out->subgraphs[k].graph, err);
}

/* Copies the nodes into their pieces (topological order, so producers come
 * first); a tensor crossing into piece k gets one End in its producer's
 * piece and one PlaceHolder in k. */
static ge_status ge__pt_fill_pieces(ge__pt_builder *b, ge_engine_partition *out, const ge_node_id *order,
                                    uint32_t count, ge_error *err) {
  uint32_t i, k;
  ge_status st = GE_OK;
  for (i = 0; i < count && st == GE_OK; i++) {
    const ge_node *n = ge_graph_node(b->g, order[i]);
    uint32_t c = (uint32_t)b->cid[n->id];
    ge_graph *sub;
    if (!out->subgraphs[c].graph && (st = ge__pt_piece_create(b->g, out, c, err)) != GE_OK) break;
    sub = out->subgraphs[c].graph;
    st = ge_graph_copy_node(sub, b->g, n, NULL, &b->copy[n->id], err);
    for (k = 0; k < n->num_inputs && st == GE_OK; k++) {
      ge_edge e = n->inputs[k], inner;
      if (e.node == GE_NONE) continue;
      inner.node = b->copy[e.node], inner.index = e.index;
      if ((uint32_t)b->cid[e.node] != c) {
        uint32_t j = ge__pt_find_cross(b, GE__PT_IN, e, c);
        if (j == UINT32_MAX) { /* a new pair */
          uint32_t pc = (uint32_t)b->cid[e.node], peer = b->n_x;
          const ge_tensor_desc *d = &ge_graph_node(b->g, e.node)->outputs[e.index];
          const char *parent = ge_graph_node(b->g, e.node)->name;
          ge_node_id end, ph;
          if ((st = ge__pt_pair_node(out->subgraphs[pc].graph, "End", peer, parent, e.index, 1, &inner,
                                     out->subgraphs[pc].engine, &end, err)) ||
              (st = ge__pt_pair_node(sub, "PlaceHolder", peer, parent, e.index, 0, NULL, out->subgraphs[c].engine, &ph,
                                     err)) ||
              (st = ge_node_set_output(sub, ph, 0, d->dtype, d->shape.rank, d->shape.dims, d->shape.info, err)))
            break;
          if ((j = ge__pt_add_cross(b, GE__PT_IN, e, c, ph)) == UINT32_MAX) st = ge_error_set(err, GE_ERR_NOMEM, "out of memory");
        }
        if (st == GE_OK) inner.node = b->x[j].id, inner.index = 0;
      }
      if (st == GE_OK) st = ge_graph_set_input(sub, b->copy[n->id], k, inner, err);
    }
    for (k = 0; k < n->num_control_inputs && st == GE_OK; k++) {
      ge_node_id q = n->control_inputs[k];
      if ((uint32_t)b->cid[q] == c) st = ge_graph_add_control(sub, b->copy[q], b->copy[n->id], err);
      else st = ge__pt_control_line(out, b->g, ge_graph_node(b->g, q)->name, n->name, err); /* restored by the merge */
    }
  }
  return st;
}

GE_API ge_status ge_partition_engines(ge_graph *g, const ge_engine *const *engines, uint32_t num_engines, int composite,
                                      ge_engine_partition *out, ge_error *err) {
  ge_clusters *c = NULL;
  ge__pt_builder b;
  uint32_t i, j, count = ge_graph_node_count(g), bound;
  ge_node_id *order, input_piece = GE_NONE;
  ge_node_id *reps; /* the pieces' clusters */
  ge__pt_piece_node *info;
  ge_status st;
  memset(out, 0, sizeof *out);
  memset(&b, 0, sizeof b);
  if ((st = ge_clusters_create(g, &c, err)) != GE_OK) return st;
  out->allocator = *ge_graph_allocator(g);
  b.g = g, b.bound = bound = c->bound;
  order = (ge_node_id *)ge__pt_alloc(g, sizeof *order * (count + 1));
  reps = (ge_node_id *)ge__pt_alloc(g, sizeof *reps * (count + 1));
  info = (ge__pt_piece_node *)ge__pt_alloc(g, sizeof *info * (bound + 1));
  if (!ge__pt_builder_init(&b) || !order || !reps || !info) st = ge_error_set(err, GE_ERR_NOMEM, "out of memory");
  for (i = 0; st == GE_OK && i < bound; i++)
    if (c->parent[i] != GE_NONE) order[c->pos[i]] = i;
  /* merge: same label and stream label, no second path; inputs together
     (a node's info is gathered as it comes: its producers came before) */
  for (i = 0; st == GE_OK && i < count; i++) {
    const ge_node *n = ge_graph_node(g, order[i]);
    ge__pt_piece_node *x = &info[n->id];
    int32_t l = x->label = ge__pt_engine_label(n, engines, num_engines, composite);
    x->is_const = (uint8_t)ge__pt_is(n, "Const"), x->is_output = (uint8_t)ge__pt_is(n, "NetOutput");
    x->stream = ge_node_attr_string(n, "_stream_label", NULL);
    if (l == -2) {
      input_piece = input_piece == GE_NONE ? n->id : ge_clusters_merge(c, input_piece, n->id);
      continue;
    }
    { /* its producers from the clusters' first lists (see ge__pt_merge_known) */
      const ge_node_id *producers = c->in[n->id].v;
      uint32_t np = c->in[n->id].n;
      for (j = 0; j < np; j++)
        if (info[producers[j]].label == l && ge__pt_same_stream_label(info[producers[j]].stream, x->stream))
          ge_clusters_try_merge(c, producers[j], n->id);
    }
  }
  /* weights go with a consumer, so an engine's optimiser sees them */
  for (i = 0; st == GE_OK && i < count; i++) {
    const ge_node *n;
    uint32_t u;
    if (!info[order[i]].is_const) continue;
    n = ge_graph_node(g, order[i]);
    for (u = 0; u < n->num_uses; u++)
      if (!info[n->uses[u].node].is_output && ge_clusters_try_merge(c, n->id, n->uses[u].node) != GE_NONE) break;
  }
  /* the pieces, by rank (a topological order of the pieces) */
  if (st == GE_OK) {
    out->count = ge__pt_by_rank(c, NULL, 0, reps);
    if (!(out->subgraphs = (ge_engine_subgraph *)ge__pt_zalloc(g, sizeof *out->subgraphs * (out->count + 1))))
      st = ge_error_set(err, GE_ERR_NOMEM, "out of memory");
  }
  for (i = 0; st == GE_OK && i < out->count; i++) {
    b.copy[reps[i]] = i;
    out->subgraphs[i].engine = ge__pt_piece_label(c, reps[i], info);
  }
  for (i = 0; st == GE_OK && i < count; i++) b.cid[order[i]] = (int32_t)b.copy[ge_clusters_find(c, order[i])];
  if (st == GE_OK) st = ge__pt_fill_pieces(&b, out, order, count, err);
  if (st == GE_OK) out->source = g;
  else ge_engine_partition_free(out);
  ge_clusters_free(c);
  ge__pt_free(g, order, sizeof *order * (count + 1)), ge__pt_free(g, reps, sizeof *reps * (count + 1));
  ge__pt_free(g, info, sizeof *info * (bound + 1));
  ge__pt_builder_free(&b);
  return st;
}

GE_API ge_status ge_partition_by_engine(ge_graph *g, const ge_engine *const *engines, uint32_t num_engines,
                                        int num_threads, ge_graph **out, ge_error *err) {
  ge_graph *cur = g, *next = NULL;
  ge_status st = GE_OK;
  int composite;
  *out = NULL;
  for (composite = 1; composite >= 0 && st == GE_OK; composite--) {
    ge_engine_partition p;
    if ((st = ge_partition_engines(cur, engines, num_engines, composite, &p, err)) != GE_OK) break;
    st = ge_engine_partition_optimize(&p, engines, num_engines, num_threads, err);
    if (st == GE_OK) st = ge_engine_partition_merge(&p, &next, err);
    ge_engine_partition_free(&p);
    if (cur != g) ge_graph_free(cur);
    cur = next, next = NULL;
  }
  if (st != GE_OK) {
    if (cur != g) ge_graph_free(cur);
    return st;
  }
  *out = cur;
  return GE_OK;
}

typedef struct ge__pt_opt_job {
  ge_engine_partition *p;
  const ge_engine *const *engines;
  uint32_t num_engines, next, step;
  ge_status st;
  ge_error err;
} ge__pt_opt_job;

static void *ge__pt_opt_run(void *arg) {
  ge__pt_opt_job *j = (ge__pt_opt_job *)arg;
  uint32_t k;
  j->st = GE_OK;
  for (k = j->next; k < j->p->count && j->st == GE_OK; k += j->step) {
    int32_t e = j->p->subgraphs[k].engine;
    const ge_engine *eng = e >= 0 && (uint32_t)e < j->num_engines ? j->engines[e] : NULL;
    if (eng && eng->optimize_subgraph) j->st = eng->optimize_subgraph(eng, j->p->subgraphs[k].graph, e, &j->err);
  }
  return NULL;
}

GE_API ge_status ge_engine_partition_optimize(ge_engine_partition *p, const ge_engine *const *engines,
                                              uint32_t num_engines, int num_threads, ge_error *err) {
  ge__pt_opt_job jobs[16];
  pthread_t tid[16];
  uint32_t t, nt = num_threads < 1 ? 1 : num_threads > 16 ? 16 : (uint32_t)num_threads, started = 1;
  for (t = 0; t < nt; t++) {
    memset(&jobs[t], 0, sizeof jobs[t]);
    jobs[t].p = p, jobs[t].engines = engines, jobs[t].num_engines = num_engines, jobs[t].next = t, jobs[t].step = nt;
  }
  for (t = 1; t < nt; t++, started++)
    if (pthread_create(&tid[t], NULL, ge__pt_opt_run, &jobs[t]) != 0) break;
  for (t = started; t < nt; t++) ge__pt_opt_run(&jobs[t]);
  ge__pt_opt_run(&jobs[0]);
  for (t = 1; t < started; t++) pthread_join(tid[t], NULL);
  for (t = 0; t < nt; t++)
    if (jobs[t].st != GE_OK) {
      if (err) *err = jobs[t].err;
      return jobs[t].st;
    }
  return GE_OK;
}

/* Merging the pieces back: each piece is walked once while its memory is
 * warm (nodes, then where its Ends' tensors are, then its edges); a
 * PlaceHolder whose End comes in a later piece waits in `later`. */
typedef struct ge__pt_late_input {
  ge_node_id node; /* in h */
  uint32_t input;
  const ge_node *ph; /* the PlaceHolder */
} ge__pt_late_input;

typedef struct ge__pt_merger {
  ge_graph *h;
  size_t total;            /* nodes of all pieces (peers are below it) */
  ge_node_id *map;         /* piece node -> node of h, GE_NONE for the pairs (per piece from its base) */
  ge_edge *end_src;        /* peer -> the End's input, in h; index -1 while no End is seen */
  ge__pt_late_input *later;
  uint32_t num_later, cap_later;
} ge__pt_merger;

/* The tensor of h a PlaceHolder stands for, into *e (absent when its End
 * reads nothing): 1, or 0 while its End is not seen yet, -1 for a bad
 * peer. */
static int ge__pt_placeholder_source(const ge__pt_merger *mg, const ge_node *ph, ge_edge *e) {
  int64_t peer = ge_node_attr_int(ph, "peer_index", -1);
  if (peer < 0 || (uint64_t)peer >= mg->total) return -1;
  if (mg->end_src[peer].index < 0) return 0;
  *e = mg->end_src[peer];
  return 1;
}

static ge_status ge__pt_no_end(const ge_node *ph, ge_error *err) {
  return ge_error_set(err, GE_ERR_INVALID, "PlaceHolder '%s' (peer_index %lld) has no End", ph->name,
                      (long long)ge_node_attr_int(ph, "peer_index", -1));
}

static ge_status ge__pt_merge_piece(ge__pt_merger *mg, const ge_graph *sub, ge_node_id *m, ge_error *err) {
  ge_graph *h = mg->h;
  ge_status st = GE_OK;
  ge_node *n;
  uint32_t i;
  GE_GRAPH_FOREACH(sub, n) {
    m[n->id] = GE_NONE;
    if (st == GE_OK && !ge__pt_is(n, "End") && !ge__pt_is(n, "PlaceHolder")) st = ge_graph_copy_node(h, sub, n, NULL, &m[n->id], err);
  }
  GE_GRAPH_FOREACH(sub, n) if (st == GE_OK && m[n->id] == GE_NONE && ge__pt_is(n, "End")) {
    int64_t peer = ge_node_attr_int(n, "peer_index", -1);
    ge_edge e = n->inputs[0];
    if (peer < 0 || (uint64_t)peer >= mg->total)
      st = ge_error_set(err, GE_ERR_INVALID, "End node '%s' has peer_index %lld", n->name, (long long)peer);
    else mg->end_src[peer].node = e.node == GE_NONE ? GE_NONE : m[e.node], mg->end_src[peer].index = e.node == GE_NONE ? 0 : e.index;
  }
  GE_GRAPH_FOREACH(sub, n) {
    if (m[n->id] == GE_NONE || st != GE_OK) continue;
    for (i = 0; i < n->num_inputs && st == GE_OK; i++) {
      ge_edge e = n->inputs[i];
      const ge_node *src;
      if (e.node == GE_NONE) continue;
      src = ge_graph_node(sub, e.node);
      if (m[e.node] != GE_NONE) e.node = m[e.node];
      else if (ge__pt_is(src, "PlaceHolder")) {
        int found = ge__pt_placeholder_source(mg, src, &e);
        if (found < 0) return ge__pt_no_end(src, err);
        if (!found) { /* its End comes later */
          if (mg->num_later == mg->cap_later) {
            uint32_t cap = mg->cap_later ? 2 * mg->cap_later : 16;
            ge__pt_late_input *grown = (ge__pt_late_input *)ge__pt_realloc(h, mg->later, sizeof *grown * mg->cap_later, sizeof *grown * cap);
            if (!grown) return ge_error_set(err, GE_ERR_NOMEM, "out of memory");
            mg->later = grown, mg->cap_later = cap;
          }
          mg->later[mg->num_later].node = m[n->id], mg->later[mg->num_later].input = i, mg->later[mg->num_later++].ph = src;
          continue;
        }
      } else e.node = GE_NONE; /* an End's output: there is none */
      st = ge_graph_set_input(h, m[n->id], i, e, err);
    }
    for (i = 0; i < n->num_control_inputs && st == GE_OK; i++)
      if (m[n->control_inputs[i]] != GE_NONE) st = ge_graph_add_control(h, m[n->control_inputs[i]], m[n->id], err);
  }
  return st;
}

GE_API ge_status ge_engine_partition_merge(const ge_engine_partition *p, ge_graph **out, ge_error *err) {
  ge_graph_desc d;
  ge__pt_merger mg;
  ge_status st = GE_OK;
  uint32_t k, i;
  size_t at = 0;
  *out = NULL;
  memset(&d, 0, sizeof d);
  memset(&mg, 0, sizeof mg);
  d.name = p->source ? ge_graph_name(p->source) : "merged";
  if (p->source) d.allocator = *ge_graph_allocator(p->source), d.registry = ge_graph_registry(p->source);
  if ((st = ge_graph_create(&d, &mg.h, err)) != GE_OK) return st;
  for (k = 0; k < p->count; k++) mg.total += ge_graph_id_bound(p->subgraphs[k].graph);
  mg.map = (ge_node_id *)ge__pt_alloc(mg.h, sizeof *mg.map * (mg.total + 1));
  mg.end_src = (ge_edge *)ge__pt_alloc(mg.h, sizeof *mg.end_src * (mg.total + 1));
  if (!mg.map || !mg.end_src) st = ge_error_set(err, GE_ERR_NOMEM, "out of memory");
  for (i = 0; st == GE_OK && i < mg.total; i++) mg.end_src[i].node = GE_NONE, mg.end_src[i].index = -1;
  for (k = 0; k < p->count && st == GE_OK; k++) {
    st = ge__pt_merge_piece(&mg, p->subgraphs[k].graph, mg.map + at, err);
    at += ge_graph_id_bound(p->subgraphs[k].graph);
  }
  for (i = 0; i < mg.num_later && st == GE_OK; i++) {
    ge_edge e;
    st = ge__pt_placeholder_source(&mg, mg.later[i].ph, &e) < 1 ? ge__pt_no_end(mg.later[i].ph, err)
                                                                : ge_graph_set_input(mg.h, mg.later[i].node, mg.later[i].input, e, err);
  }
  for (i = 0; i < p->num_control && st == GE_OK; i++) {
    char *nl = strchr(p->control[i], '\n');
    ge_node_id a, z;
    *nl = 0;
    a = ge_graph_find(mg.h, p->control[i]), z = ge_graph_find(mg.h, nl + 1);
    *nl = '\n';
    if (a != GE_NONE && z != GE_NONE) st = ge_graph_add_control(mg.h, a, z, err);
  }
  ge__pt_free(mg.h, mg.map, sizeof *mg.map * (mg.total + 1)), ge__pt_free(mg.h, mg.end_src, sizeof *mg.end_src * (mg.total + 1));
  ge__pt_free(mg.h, mg.later, sizeof *mg.later * mg.cap_later);
  if (st != GE_OK) ge_graph_free(mg.h);
  else *out = mg.h;
  return st;
}

/* ======================================== multi-batch (§5.5) */

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------ option parsing */

#define GE__MB_KEY_BATCH "ge.dynamicBatchSize"
#define GE__MB_KEY_IMAGE "ge.dynamicImageSize"
#define GE__MB_KEY_DIMS "ge.dynamicDims"
#define GE__MB_KEY_SHAPE "ge.inputShape"
#define GE__MB_KEY_FORMAT "ge.inputFormat"
#define GE__MB_VALUE_MAX ((int64_t)1 << 40)

typedef enum ge__mb_kind { GE__MB_NONE, GE__MB_BATCH, GE__MB_IMAGE, GE__MB_DIMS } ge__mb_kind;

/* Tiers: count rows of width values each. */
typedef struct ge__mb_tiers {
  int64_t *v;
  int32_t count, width;
} ge__mb_tiers;

/* One ge.inputShape entry: name (not NUL-terminated) and dims. */
typedef struct ge__mb_entry {
  const char *name;
  size_t name_len;
  int32_t rank;
  int64_t dims[GE_MAX_RANK];    /* -1 at a dynamic dim */
  int64_t lo[GE_MAX_RANK], hi[GE_MAX_RANK]; /* a dynamic dim's range (hi -1: none given) */
} ge__mb_entry;

static int ge__mb_space(char ch) { return ch == ' ' || ch == '\t'; }

/* Parses an integer from s[0..n) (spaces around allowed). */
static int ge__mb_int(const char *s, size_t n, int64_t *out) {
  size_t i = 0;
  int neg = 0;
  int64_t v = 0;
  while (i < n && ge__mb_space(s[i])) i++;
  while (n > i && ge__mb_space(s[n - 1])) n--;
  if (i < n && (s[i] == '-' || s[i] == '+')) neg = s[i++] == '-';
  if (i == n) return 0;
  for (; i < n; i++) {
    if (s[i] < '0' || s[i] > '9') return 0;
    if (v > (GE__MB_VALUE_MAX - (s[i] - '0')) / 10) return 0; /* absurdly large */
    v = v * 10 + (s[i] - '0');
  }
  *out = neg ? -v : v;
  return 1;
}

/* Number of occurrences of ch in s[0..n). */
static size_t ge__mb_count(const char *s, size_t n, char ch) {
  size_t i, k = 0;
  for (i = 0; i < n; i++) k += s[i] == ch;
  return k;
}

/* True when s[0..n) is only spaces. */
static int ge__mb_blank(const char *s, size_t n) {
  size_t i;
  for (i = 0; i < n; i++)
    if (!ge__mb_space(s[i])) return 0;
  return 1;
}

/* Parses tiers: batch "1,4,8" (one value per tier), else "a,b;c,d". */
static ge_status ge__mb_parse_tiers(const char *key, const char *s, ge__mb_kind kind, ge__mb_tiers *out, ge_error *err) {
  size_t len = strlen(s), pos = 0, ntiers;
  char tsep = kind == GE__MB_BATCH ? ',' : ';';
  int32_t t = 0, used = 0, cap;
  memset(out, 0, sizeof *out);
  ntiers = ge__mb_count(s, len, tsep) + 1;
  if (ge__mb_blank(s, len)) return ge_error_set(err, GE_ERR_INVALID, "%s: no tiers given", key);
  if (ntiers > GE_MULTIBATCH_MAX_TIERS)
    return ge_error_set(err, GE_ERR_INVALID, "%s=%.120s...: %lu tiers given, at most %d are allowed", key, s,
                        (unsigned long)ntiers, GE_MULTIBATCH_MAX_TIERS);
  /* the widest tier bounds the storage: no tier can be wider than the string */
  cap = (int32_t)(ntiers * (ge__mb_count(s, len, ',') + 1));
  if (!(out->v = (int64_t *)malloc(sizeof(int64_t) * (size_t)cap)))
    return ge_error_set(err, GE_ERR_NOMEM, "%s: out of memory", key);
  for (t = 0; t < (int32_t)ntiers; t++) {
    size_t end = pos, p, w = 0;
    while (end < len && s[end] != tsep) end++;
    if (ge__mb_blank(s + pos, end - pos)) {
      ge_error_set(err, GE_ERR_INVALID, "%s=%.200s: tier %d is empty", key, s, (int)t + 1);
      goto fail;
    }
    for (p = pos; p <= end; w++) {
      size_t q = p;
      int64_t v;
      while (q < end && s[q] != ',') q++;
      if (!ge__mb_int(s + p, q - p, &v) || v <= 0) {
        int ok = ge__mb_int(s + p, q - p, &v);
        if (ok)
          ge_error_set(err, GE_ERR_INVALID, "%s=%.200s: tier %d has value %lld ('%.*s'); values must be positive", key, s,
                       (int)t + 1, (long long)v, (int)(q - p > 40 ? 40 : q - p), s + p);
        else
          ge_error_set(err, GE_ERR_INVALID, "%s=%.200s: '%.*s' in tier %d is not a positive integer", key, s,
                       (int)(q - p > 40 ? 40 : q - p), s + p, (int)t + 1);
        goto fail;
      }
      out->v[used++] = v;
      p = q + 1;
    }
    if (t == 0) out->width = (int32_t)w;
    else if ((int32_t)w != out->width) {
      ge_error_set(err, GE_ERR_INVALID, "%s=%.200s: tier %d has %u values but tier 1 has %d; every tier needs the same count",
                   key, s, (int)t + 1, (unsigned)w, (int)out->width);
      goto fail;
    }
    pos = end + 1;
  }
  out->count = (int32_t)ntiers;
  if (ntiers < GE_MULTIBATCH_MIN_TIERS) { /* after the values, so a bad one is named first */
    ge_error_set(err, GE_ERR_INVALID, "%s=%.200s: %u tier given, at least %d are needed", key, s, (unsigned)ntiers,
                 GE_MULTIBATCH_MIN_TIERS);
    goto fail;
  }
  if (kind == GE__MB_IMAGE && out->width != 2) {
    ge_error_set(err, GE_ERR_INVALID, "%s=%.200s: each tier needs 2 values (H,W), tier 1 has %d", key, s, (int)out->width);
    goto fail;
  }
  for (t = 1; t < out->count; t++) {
    int32_t u;
    for (u = 0; u < t; u++)
      if (!memcmp(out->v + (size_t)t * (size_t)out->width, out->v + (size_t)u * (size_t)out->width,
                  sizeof(int64_t) * (size_t)out->width)) {
        ge_error_set(err, GE_ERR_INVALID, "%s=%.200s: tiers %d and %d are the same; tiers must be distinct", key, s, (int)u + 1,
                     (int)t + 1);
        goto fail;
      }
  }
  return GE_OK;
fail:
  free(out->v);
  memset(out, 0, sizeof *out);
  return err ? err->code : GE_ERR_INVALID;
}

/* Parses ge.inputShape into *out (malloc'ed, *n entries). */
static ge_status ge__mb_parse_shape(const char *s, ge__mb_entry **out, int32_t *n, ge_error *err) {
  size_t len = strlen(s), pos = 0, count = ge__mb_count(s, len, ';') + 1, k;
  ge__mb_entry *e;
  *out = NULL;
  *n = 0;
  if (ge__mb_blank(s, len)) return ge_error_set(err, GE_ERR_INVALID, GE__MB_KEY_SHAPE ": no inputs given");
  if (!(e = (ge__mb_entry *)calloc(count, sizeof *e))) return ge_error_set(err, GE_ERR_NOMEM, GE__MB_KEY_SHAPE ": out of memory");
  for (k = 0; k < count; k++) {
    size_t end = pos, colon, p, j;
    while (end < len && s[end] != ';') end++;
    for (colon = end; colon > pos && s[colon - 1] != ':'; colon--) {
    }
    if (colon == pos) {
      ge_error_set(err, GE_ERR_INVALID, GE__MB_KEY_SHAPE "=%.200s: entry %u ('%.*s') is not NAME:DIMS", s, (unsigned)k + 1,
                   (int)(end - pos > 60 ? 60 : end - pos), s + pos);
      goto fail;
    }
    e[k].name = s + pos;
    e[k].name_len = colon - 1 - pos;
    while (e[k].name_len && ge__mb_space(*e[k].name)) e[k].name++, e[k].name_len--;
    while (e[k].name_len && ge__mb_space(e[k].name[e[k].name_len - 1])) e[k].name_len--;
    if (!e[k].name_len) {
      ge_error_set(err, GE_ERR_INVALID, GE__MB_KEY_SHAPE "=%.200s: entry %u has no input name", s, (unsigned)k + 1);
      goto fail;
    }
    for (j = 0; j < k; j++)
      if (e[j].name_len == e[k].name_len && !memcmp(e[j].name, e[k].name, e[k].name_len)) {
        ge_error_set(err, GE_ERR_INVALID, GE__MB_KEY_SHAPE "=%.200s: input '%.*s' is given twice", s, (int)e[k].name_len,
                     e[k].name);
        goto fail;
      }
    if (!ge__mb_blank(s + colon, end - colon)) /* empty dims: a scalar */
      for (p = colon; p <= end;) {
        size_t q = p;
        int64_t v;
        while (q < end && s[q] != ',') q++;
        if (e[k].rank == GE_MAX_RANK) {
          ge_error_set(err, GE_ERR_INVALID, GE__MB_KEY_SHAPE "=%.200s: input '%.*s' has more than %d dims", s,
                       (int)e[k].name_len, e[k].name, GE_MAX_RANK);
          goto fail;
        }
        {
          size_t r = p, rlen = 0; /* a range LO~HI (atc's) or LO..HI */
          int64_t lo = 0, hi = -1;
          while (r < q && s[r] != '~' && !(s[r] == '.' && r + 1 < q && s[r + 1] == '.')) r++;
          if (r < q) rlen = s[r] == '~' ? 1 : 2;
          if (rlen) {
            if (!ge__mb_int(s + p, r - p, &lo) || !ge__mb_int(s + r + rlen, q - r - rlen, &hi) || lo < 0 || hi < lo || hi < 1) {
              ge_error_set(err, GE_ERR_INVALID, GE__MB_KEY_SHAPE "=%.200s: dim '%.*s' of input '%.*s' is not a range LO~HI "
                           "with 0 <= LO <= HI", s, (int)(q - p > 40 ? 40 : q - p), s + p, (int)e[k].name_len, e[k].name);
              goto fail;
            }
            v = -1;
          } else if (!ge__mb_int(s + p, q - p, &v) || v < -1) {
            ge_error_set(err, GE_ERR_INVALID, GE__MB_KEY_SHAPE "=%.200s: dim '%.*s' of input '%.*s' is not -1, a size >= 0 "
                         "or a range LO~HI", s, (int)(q - p > 40 ? 40 : q - p), s + p, (int)e[k].name_len, e[k].name);
            goto fail;
          }
          e[k].lo[e[k].rank] = lo, e[k].hi[e[k].rank] = hi;
        }
        e[k].dims[e[k].rank++] = v;
        p = q + 1;
      }
    pos = end + 1;
  }
  *out = e;
  *n = (int32_t)count;
  return GE_OK;
fail:
  free(e);
  return err ? err->code : GE_ERR_INVALID;
}

static ge_status ge__mb_parse_format(const char *v, ge_format *f, ge_error *err) {
  if (!v || !*v || !strcmp(v, "NCHW")) *f = GE_FORMAT_NCHW;
  else if (!strcmp(v, "NHWC")) *f = GE_FORMAT_NHWC;
  else if (!strcmp(v, "ND")) *f = GE_FORMAT_ND;
  else return ge_error_set(err, GE_ERR_INVALID, GE__MB_KEY_FORMAT "=%.60s: expected NCHW, NHWC or ND", v);
  return GE_OK;
}

/* The set dynamic option (kind, key, value); an error when two are set. */
static ge_status ge__mb_which(const ge_multibatch_desc *d, ge__mb_kind *kind, const char **key, const char **value,
                              ge_error *err) {
  const char *keys[3] = {GE__MB_KEY_BATCH, GE__MB_KEY_IMAGE, GE__MB_KEY_DIMS};
  const char *vals[3];
  int i, first = -1;
  vals[0] = d->dynamic_batch_size, vals[1] = d->dynamic_image_size, vals[2] = d->dynamic_dims;
  *kind = GE__MB_NONE;
  for (i = 0; i < 3; i++) {
    if (!vals[i] || !*vals[i]) continue;
    if (first >= 0)
      return ge_error_set(err, GE_ERR_INVALID, "%s and %s are mutually exclusive: set only one", keys[first], keys[i]);
    first = i;
  }
  if (first < 0) return GE_OK;
  *kind = (ge__mb_kind)(GE__MB_BATCH + first);
  *key = keys[first];
  *value = vals[first];
  return GE_OK;
}

GE_API int ge_multibatch_enabled(const ge_multibatch_desc *d) {
  return d && ((d->dynamic_batch_size && *d->dynamic_batch_size) || (d->dynamic_image_size && *d->dynamic_image_size) ||
               (d->dynamic_dims && *d->dynamic_dims));
}

GE_API ge_status ge_multibatch_set_option(ge_multibatch_desc *d, const char *key, const char *value, ge_error *err) {
  ge_multibatch_desc t;
  const char **slot;
  ge__mb_kind kind = GE__MB_NONE, k2;
  const char *k_, *v_;
  ge_status st;
  if (!d || !key) return ge_error_set(err, GE_ERR_INVALID, "ge_multibatch_set_option: no desc or key");
  t = *d;
  if (!strcmp(key, GE__MB_KEY_BATCH)) slot = &t.dynamic_batch_size, kind = GE__MB_BATCH;
  else if (!strcmp(key, GE__MB_KEY_IMAGE)) slot = &t.dynamic_image_size, kind = GE__MB_IMAGE;
  else if (!strcmp(key, GE__MB_KEY_DIMS)) slot = &t.dynamic_dims, kind = GE__MB_DIMS;
  else if (!strcmp(key, GE__MB_KEY_SHAPE)) slot = &t.input_shape;
  else if (!strcmp(key, GE__MB_KEY_FORMAT)) slot = &t.input_format;
  else return ge_error_set(err, GE_ERR_NOT_FOUND, "unknown multi-batch option '%.100s'", key);
  if (value && !*value) value = NULL; /* empty: unset */
  if (value && kind != GE__MB_NONE) {
    ge__mb_tiers tiers;
    if ((st = ge__mb_parse_tiers(key, value, kind, &tiers, err))) return st;
    free(tiers.v);
  } else if (value && slot == &t.input_shape) {
    ge__mb_entry *e;
    int32_t n;
    if ((st = ge__mb_parse_shape(value, &e, &n, err))) return st;
    free(e);
  } else if (value) {
    ge_format f;
    if ((st = ge__mb_parse_format(value, &f, err))) return st;
  }
  *slot = value;
  if ((st = ge__mb_which(&t, &k2, &k_, &v_, err))) return st;
  *d = t;
  return GE_OK;
}

/* ----------------------------------------------------------- the kernels */

static int ge__mb_int_dtype(const ge_value *v) { return v && (v->dtype == GE_DTYPE_INT32 || v->dtype == GE_DTYPE_INT64); }
static int64_t ge__mb_at(const ge_value *v, int64_t i) {
  return v->dtype == GE_DTYPE_INT64 ? ((const int64_t *)v->data)[i] : (int64_t)((const int32_t *)v->data)[i];
}

GE_API ge_status ge_multibatch_kernel_get_dynamic_dims(ge_kernel_ctx *c) {
  const int64_t *info = NULL;
  int32_t ni = ge_node_attr_ints(c->node, "shape_info", &info), pass;
  int64_t want_n = ge_node_attr_int(c->node, "N", -1), count = 0;
  ge_value *y = NULL;
  if (ni < 0) return ge_kernel_error(c, GE_ERR_INVALID, "attribute shape_info is missing");
  if (want_n >= 0 && want_n != (int64_t)c->num_inputs)
    return ge_kernel_error(c, GE_ERR_INVALID, "attribute N is %lld but the node has %u inputs", (long long)want_n,
                           (unsigned)c->num_inputs);
  for (pass = 0; pass < 2; pass++) { /* count, then fill */
    int32_t pos = 0;
    int64_t at = 0;
    uint32_t i;
    for (i = 0; i < c->num_inputs; i++) {
      const ge_value *x = c->inputs[i];
      int64_t r;
      int32_t j;
      if (pos >= ni || (r = info[pos]) < 0 || r > GE_MAX_RANK || r > ni - pos - 1)
        return ge_kernel_error(c, GE_ERR_INVALID, "attribute shape_info does not describe input %u", (unsigned)i);
      if (!x) return ge_kernel_error(c, GE_ERR_INVALID, "input %u is missing", (unsigned)i);
      if (x->rank != (int32_t)r)
        return ge_kernel_error(c, GE_ERR_SHAPE, "input %u has rank %d, %lld expected", (unsigned)i, (int)x->rank, (long long)r);
      for (j = 0; j < (int32_t)r; j++) {
        int64_t w = info[pos + 1 + j];
        if (w < 0) {
          if (pass) ((int64_t *)y->data)[at] = x->dims[j];
          at++;
        } else if (x->dims[j] != w) {
          return ge_kernel_error(c, GE_ERR_SHAPE, "input %u: dim %d is %lld, %lld expected", (unsigned)i, (int)j,
                                 (long long)x->dims[j], (long long)w);
        }
      }
      pos += 1 + (int32_t)r;
    }
    if (pos != ni) return ge_kernel_error(c, GE_ERR_INVALID, "attribute shape_info describes more inputs than the node has");
    count = at;
    if (!pass && !(y = ge_kernel_output(c, 0, GE_DTYPE_INT64, 1, &count))) return c->err->code ? c->err->code : GE_ERR_NOMEM;
  }
  return GE_OK;
}

/* Appends to buf[*at..cap) like snprintf, keeping it NUL-terminated. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 4, 5)))
#endif
static void ge__mb_put(char *buf, size_t cap, size_t *at, const char *fmt, ...);
static void ge__mb_put(char *buf, size_t cap, size_t *at, const char *fmt, ...) {
  va_list ap;
  int w;
  if (*at >= cap) return;
  va_start(ap, fmt);
  w = vsnprintf(buf + *at, cap - *at, fmt, ap);
  va_end(ap);
  if (w > 0) *at = *at + (size_t)w < cap ? *at + (size_t)w : cap - 1;
}

/* "input shape x[3,8]" / "input shapes x[3,8], y[3,2]" from the attrs
 * input_names and shape_info and the dims found; "dynamic dims [3]"
 * without them. */
static int ge__mb_describe(const ge_kernel_ctx *c, const ge_value *dims, char *buf, size_t cap) {
  const ge_attr *names = ge_node_attr(c->node, "input_names");
  const int64_t *info = NULL;
  int32_t ni = ge_node_attr_ints(c->node, "shape_info", &info), pos = 0, k = 0, j, r;
  int64_t used = 0;
  size_t at = 0;
  int ok = names && names->type == GE_ATTR_STRINGS && ni > 0;
  buf[0] = 0;
  /* check the attributes describe dims exactly */
  for (k = 0; ok && pos < ni; k++) {
    r = (int32_t)info[pos];
    if (r < 0 || r > GE_MAX_RANK || r > ni - pos - 1 || k >= names->count) ok = 0;
    for (j = 0; ok && j < r; j++) used += info[pos + 1 + j] < 0;
    pos += 1 + r;
  }
  if (ok && (k != names->count || used != dims->numel)) ok = 0;
  if (!ok) {
    ge__mb_put(buf, cap, &at, "dynamic dims [");
    for (j = 0; j < dims->numel && j < 16; j++) ge__mb_put(buf, cap, &at, "%s%lld", j ? "," : "", (long long)ge__mb_at(dims, j));
    ge__mb_put(buf, cap, &at, "%s]", dims->numel > 16 ? ",..." : "");
    return 1;
  }
  ge__mb_put(buf, cap, &at, "input shape%s ", names->count > 1 ? "s" : "");
  used = 0;
  for (k = 0, pos = 0; k < names->count; k++) {
    r = (int32_t)info[pos];
    ge__mb_put(buf, cap, &at, "%s%.40s[", k ? ", " : "", names->v.strings[k]);
    for (j = 0; j < r; j++) {
      int64_t w = info[pos + 1 + j];
      ge__mb_put(buf, cap, &at, "%s%lld", j ? "," : "", (long long)(w < 0 ? ge__mb_at(dims, used++) : w));
    }
    ge__mb_put(buf, cap, &at, "]");
    pos += 1 + r;
  }
  return names->count > 1;
}

GE_API ge_status ge_multibatch_kernel_map_index(ge_kernel_ctx *c) {
  const ge_value *x = c->num_inputs > 0 ? c->inputs[0] : NULL, *tab = c->num_inputs > 1 ? c->inputs[1] : NULL;
  int64_t s, t, rows, j;
  ge_value *y;
  char shapes[160], tiers[120];
  const char *option, *tier_text;
  int plural;
  if (!ge__mb_int_dtype(x)) return ge_kernel_error(c, GE_ERR_INVALID, "input 0 (the dims) must be int32 or int64");
  if (!ge__mb_int_dtype(tab)) return ge_kernel_error(c, GE_ERR_INVALID, "input 1 (the tiers) must be int32 or int64");
  s = x->numel;
  if (s < 1 || tab->numel % s) return ge_kernel_error(c, GE_ERR_SHAPE, "%lld tier values do not make rows of %lld dims",
                                                       (long long)tab->numel, (long long)s);
  rows = tab->numel / s;
  for (t = 0; t < rows; t++) {
    for (j = 0; j < s && ge__mb_at(tab, t * s + j) == ge__mb_at(x, j); j++) {
    }
    if (j == s) break;
  }
  if (t < rows) {
    if (!(y = ge_kernel_output(c, 0, GE_DTYPE_INT32, 0, NULL))) return c->err->code ? c->err->code : GE_ERR_NOMEM;
    *(int32_t *)y->data = (int32_t)t;
    return GE_OK;
  }
  plural = ge__mb_describe(c, x, shapes, sizeof shapes);
  option = ge_node_attr_string(c->node, "option", "the tiers");
  tier_text = ge_node_attr_string(c->node, "tiers", NULL);
  if (tier_text) {
    size_t n = strlen(tier_text);
    if (n < sizeof tiers) memcpy(tiers, tier_text, n + 1);
    else snprintf(tiers, sizeof tiers, "%.*s...", (int)sizeof tiers - 4, tier_text);
  } else {
    size_t at = 0;
    tiers[0] = 0;
    for (t = 0; t < rows && at + 8 < sizeof tiers; t++)
      for (j = 0; j < s; j++)
        ge__mb_put(tiers, sizeof tiers, &at, "%s%lld", j ? "," : t ? ";" : "", (long long)ge__mb_at(tab, t * s + j));
  }
  return ge_kernel_error(c, GE_ERR_SHAPE, "%s match%s no tier of %s (%s)", shapes, plural ? "" : "es", option, tiers);
}

GE_API ge_kernel_fn ge_multibatch_kernel(const ge_node *n) {
  if (!n || !ge_node_in_onnx_domain(n)) return NULL;
  if (!strcmp(n->op, "GetDynamicDims")) return ge_multibatch_kernel_get_dynamic_dims;
  if (!strcmp(n->op, "MapIndex")) return ge_multibatch_kernel_map_index;
  return NULL;
}

/* -------------------------------------------------------------- the pass */

static int ge__mb_is(const ge_node *n, const char *op) { return !strcmp(n->op, op) && ge_node_in_onnx_domain(n); }

/* One graph input as the branches will see it. */
typedef struct ge__mb_input {
  ge_node_id id;
  const ge_node *node;
  int32_t rank;
  int64_t dims[GE_MAX_RANK]; /* the shape, -1 at the tier dims */
  int32_t col[GE_MAX_RANK];  /* tier column of a tier dim, -1 for the others */
  int32_t order;             /* position among the dynamic inputs, -1 if none */
} ge__mb_input;

typedef struct ge__mb_plan {
  ge__mb_kind kind;
  const char *key, *value;
  ge__mb_tiers tiers;
  ge__mb_entry *entries;
  int32_t num_entries;
  ge_format format; /* ge.inputFormat */
  int format_given;
  ge__mb_input *in;
  uint32_t num_in;
  uint32_t *dyn; /* indices into in[], in GetDynamicDims order */
  uint32_t num_dyn;
  int32_t slots; /* S: tier dims over all dynamic inputs */
} ge__mb_plan;

static void ge__mb_plan_free(ge__mb_plan *p) {
  free(p->tiers.v);
  free(p->entries);
  free(p->in);
  free(p->dyn);
}

static char *ge__mb_shape_text(int32_t rank, const int64_t *dims, char *buf, size_t cap) {
  ge_shape s;
  s.rank = rank, s.dims = (int64_t *)dims, s.info = NULL;
  return ge_shape_str(&s, buf, cap);
}

static ge__mb_input *ge__mb_find_input(ge__mb_plan *p, const char *name, size_t len) {
  uint32_t i;
  for (i = 0; i < p->num_in; i++)
    if (strlen(p->in[i].node->name) == len && !memcmp(p->in[i].node->name, name, len)) return &p->in[i];
  return NULL;
}

/* The H and W axes of a 4-D input. */
static void ge__mb_hw(ge_format f, int32_t *h, int32_t *w) {
  if (f == GE_FORMAT_NHWC) *h = 1, *w = 2;
  else *h = 2, *w = 3;
}

/* Marks the -1 dims of input x as tier columns per the option; an error
 * when they do not fit it. */
static ge_status ge__mb_mark(ge__mb_plan *p, ge__mb_input *x, int32_t *next_col, ge_error *err) {
  int32_t j, h, w, any = 0;
  char sh[160];
  ge_format fmt = p->format;
  if (!p->format_given) /* the input's own layout, NCHW when it has none */
    fmt = x->node->num_outputs && x->node->outputs[0].format == GE_FORMAT_NHWC ? GE_FORMAT_NHWC : GE_FORMAT_NCHW;
  ge__mb_hw(fmt, &h, &w);
  for (j = 0; j < x->rank; j++) any |= x->dims[j] < 0;
  if (!any) return GE_OK;
  ge__mb_shape_text(x->rank, x->dims, sh, sizeof sh);
  for (j = 0; j < x->rank; j++) {
    if (x->dims[j] >= 0) continue;
    if (p->kind == GE__MB_BATCH && j == 0) x->col[j] = 0;
    else if (p->kind == GE__MB_IMAGE && x->rank == 4 && (j == h || j == w)) x->col[j] = j == h ? 0 : 1;
    else if (p->kind == GE__MB_DIMS) x->col[j] = (*next_col)++;
    else if (p->kind == GE__MB_BATCH)
      return ge_error_set(err, GE_ERR_INVALID, "%s: input '%s' %s has dynamic dim %d, but the option sets only dim 0 (give the shape with " GE__MB_KEY_SHAPE ")",
                          p->key, x->node->name, sh, (int)j);
    else if (x->rank != 4)
      return ge_error_set(err, GE_ERR_INVALID, "%s: input '%s' %s is dynamic but not 4-D (H and W are set per %s)", p->key,
                          x->node->name, sh, ge_format_name(fmt));
    else
      return ge_error_set(err, GE_ERR_INVALID, "%s: input '%s' %s has dynamic dim %d, but the option sets only H and W (dims %d and %d in %s)",
                          p->key, x->node->name, sh, (int)j, (int)h, (int)w, ge_format_name(fmt));
  }
  if (p->kind == GE__MB_IMAGE && (x->col[h] < 0 || x->col[w] < 0))
    return ge_error_set(err, GE_ERR_INVALID, "%s: input '%s' %s needs both H and W dynamic (dims %d and %d in %s)", p->key,
                        x->node->name, sh, (int)h, (int)w, ge_format_name(fmt));
  x->order = (int32_t)p->num_dyn;
  p->dyn[p->num_dyn++] = (uint32_t)(x - p->in);
  for (j = 0; j < x->rank; j++) p->slots += x->col[j] >= 0;
  return GE_OK;
}

/* Reads the options and the graph's inputs into p. */
static ge_status ge__mb_plan_make(ge_graph *g, const ge_multibatch_desc *d, ge__mb_plan *p, ge_error *err) {
  ge_node_id *ids = NULL;
  uint32_t i;
  int32_t k, j, next_col = 0;
  ge_status st;
  memset(p, 0, sizeof *p);
  if ((st = ge__mb_which(d, &p->kind, &p->key, &p->value, err))) return st;
  if ((st = ge__mb_parse_tiers(p->key, p->value, p->kind, &p->tiers, err))) return st;
  if ((st = ge__mb_parse_format(d->input_format, &p->format, err))) return st;
  p->format_given = d->input_format && *d->input_format;
  if (d->input_shape && *d->input_shape && (st = ge__mb_parse_shape(d->input_shape, &p->entries, &p->num_entries, err)))
    return st;
  if (p->kind == GE__MB_DIMS && !p->entries)
    return ge_error_set(err, GE_ERR_INVALID, GE__MB_KEY_DIMS " needs " GE__MB_KEY_SHAPE " (the inputs and their -1 dims)");
  if (p->kind == GE__MB_IMAGE && p->format == GE_FORMAT_ND)
    return ge_error_set(err, GE_ERR_INVALID, GE__MB_KEY_IMAGE " needs " GE__MB_KEY_FORMAT " NCHW or NHWC, not ND");
  p->num_in = ge_graph_inputs(g, NULL, 0);
  if (!p->num_in) return ge_error_set(err, GE_ERR_INVALID, "%s: graph '%s' has no inputs", p->key, ge_graph_name(g));
  ids = (ge_node_id *)malloc(sizeof *ids * p->num_in);
  p->in = (ge__mb_input *)calloc(p->num_in, sizeof *p->in);
  p->dyn = (uint32_t *)calloc(p->num_in, sizeof *p->dyn);
  if (!ids || !p->in || !p->dyn) {
    free(ids);
    return ge_error_set(err, GE_ERR_NOMEM, "%s: out of memory", p->key);
  }
  ge_graph_inputs(g, ids, p->num_in);
  for (i = 0; i < p->num_in; i++) {
    ge__mb_input *x = &p->in[i];
    const ge_tensor_desc *o;
    x->id = ids[i];
    x->node = ge_graph_node(g, ids[i]);
    x->order = -1;
    o = x->node->num_outputs ? &x->node->outputs[0] : NULL;
    x->rank = o ? o->shape.rank : GE_RANK_UNKNOWN;
    for (j = 0; j < GE_MAX_RANK; j++) x->col[j] = -1;
    for (j = 0; j < x->rank; j++) x->dims[j] = o->shape.dims[j] < 0 ? -1 : o->shape.dims[j];
  }
  free(ids);
  /* ge.inputShape overrides the shapes of the inputs it names */
  for (k = 0; k < p->num_entries; k++) {
    ge__mb_entry *e = &p->entries[k];
    ge__mb_input *x = ge__mb_find_input(p, e->name, e->name_len);
    char a[160], b[160];
    if (!x) {
      size_t at = 0;
      char names[200];
      names[0] = 0;
      for (i = 0; i < p->num_in && i < 12; i++) ge__mb_put(names, sizeof names, &at, "%s%.40s", i ? ", " : "", p->in[i].node->name);
      if (p->num_in > 12) ge__mb_put(names, sizeof names, &at, ", ...");
      return ge_error_set(err, GE_ERR_NOT_FOUND, GE__MB_KEY_SHAPE " names input '%.*s', which graph '%s' does not have (its inputs: %s)",
                          (int)(e->name_len > 100 ? 100 : e->name_len), e->name, ge_graph_name(g), names);
    }
    if (x->rank >= 0 && x->rank != e->rank)
      return ge_error_set(err, GE_ERR_SHAPE, GE__MB_KEY_SHAPE " gives input '%s' rank %d %s, the graph's input has rank %d %s",
                          x->node->name, (int)e->rank, ge__mb_shape_text(e->rank, e->dims, a, sizeof a), (int)x->rank,
                          ge__mb_shape_text(x->rank, x->dims, b, sizeof b));
    for (j = 0; x->rank >= 0 && j < e->rank; j++)
      if (e->dims[j] >= 0 && x->dims[j] >= 0 && e->dims[j] != x->dims[j])
        return ge_error_set(err, GE_ERR_SHAPE, GE__MB_KEY_SHAPE " gives input '%s' dim %d = %lld, the graph fixes it to %lld",
                            x->node->name, (int)j, (long long)e->dims[j], (long long)x->dims[j]);
    x->rank = e->rank;
    memcpy(x->dims, e->dims, sizeof(int64_t) * (size_t)e->rank);
  }
  /* the dynamic inputs: in ge.inputShape's order when given, else by index */
  if (p->entries) {
    for (k = 0; k < p->num_entries; k++)
      if ((st = ge__mb_mark(p, ge__mb_find_input(p, p->entries[k].name, p->entries[k].name_len), &next_col, err))) return st;
  } else {
    for (i = 0; i < p->num_in; i++)
      if (p->in[i].rank >= 0 && (st = ge__mb_mark(p, &p->in[i], &next_col, err))) return st;
  }
  if (!p->num_dyn)
    return ge_error_set(err, GE_ERR_INVALID, "%s: no input of graph '%s' has %s", p->key, ge_graph_name(g),
                        p->kind == GE__MB_BATCH   ? "a dynamic dim 0 (-1 or symbolic; or mark it -1 in " GE__MB_KEY_SHAPE ")"
                        : p->kind == GE__MB_IMAGE ? "dynamic H and W (-1 or symbolic; or mark them -1 in " GE__MB_KEY_SHAPE ")"
                                                  : "a -1 dim in " GE__MB_KEY_SHAPE);
  if (p->kind == GE__MB_DIMS && next_col != p->tiers.width)
    return ge_error_set(err, GE_ERR_INVALID, GE__MB_KEY_DIMS "=%.200s: each tier has %d values but " GE__MB_KEY_SHAPE " has %d -1 dims",
                        p->value, (int)p->tiers.width, (int)next_col);
  /* every other input must be static for the branches to be */
  for (i = 0; i < p->num_in; i++) {
    ge__mb_input *x = &p->in[i];
    char a[160];
    if (x->order >= 0) continue;
    if (x->rank < 0)
      return ge_error_set(err, GE_ERR_INVALID, "%s: input '%s' has an unknown rank; give its shape with " GE__MB_KEY_SHAPE, p->key,
                          x->node->name);
    for (j = 0; j < x->rank; j++)
      if (x->dims[j] < 0)
        return ge_error_set(err, GE_ERR_INVALID, "%s: input '%s' %s stays dynamic: no tier sets dim %d (give it in " GE__MB_KEY_SHAPE ")",
                            p->key, x->node->name, ge__mb_shape_text(x->rank, x->dims, a, sizeof a), (int)j);
  }
  return GE_OK;
}

/* Input x's shape in tier t. */
static void ge__mb_tier_shape(const ge__mb_plan *p, const ge__mb_input *x, int32_t t, int64_t *dims) {
  int32_t j;
  for (j = 0; j < x->rank; j++)
    dims[j] = x->col[j] >= 0 ? p->tiers.v[(size_t)t * (size_t)p->tiers.width + (size_t)x->col[j]] : x->dims[j];
}

/* "4" / "224x224" for tier t. */
static void ge__mb_tier_text(const ge__mb_plan *p, int32_t t, char *buf, size_t cap) {
  size_t at = 0;
  int32_t j;
  buf[0] = 0;
  for (j = 0; j < p->tiers.width; j++)
    ge__mb_put(buf, cap, &at, "%s%lld", j ? "x" : "", (long long)p->tiers.v[(size_t)t * (size_t)p->tiers.width + (size_t)j]);
}

/* Clones g for tier t with static inputs and infers its shapes. */
static ge_status ge__mb_branch(ge_graph *g, const ge__mb_plan *p, int32_t t, ge_graph **out, ge_error *err) {
  ge_graph_desc gd;
  ge_node_id *ids;
  char name[200], tier[120];
  uint32_t i;
  ge_status st;
  *out = NULL;
  ge__mb_tier_text(p, t, tier, sizeof tier);
  snprintf(name, sizeof name, "%.60s_tier%d_%s", *ge_graph_name(g) ? ge_graph_name(g) : "graph", (int)t, tier);
  memset(&gd, 0, sizeof gd);
  gd.name = name;
  gd.allocator = *ge_graph_allocator(g);
  gd.registry = ge_graph_registry(g);
  if ((st = ge_graph_clone(g, &gd, out, err))) return st;
  if (!(ids = (ge_node_id *)malloc(sizeof *ids * p->num_in))) {
    ge_graph_free(*out);
    *out = NULL;
    return ge_error_set(err, GE_ERR_NOMEM, "%s: out of memory", p->key);
  }
  ge_graph_inputs(*out, ids, p->num_in);
  for (i = 0; i < p->num_in && !st; i++) {
    const ge__mb_input *x = &p->in[i];
    int64_t dims[GE_MAX_RANK];
    ge_node *dn = ge_graph_node(*out, ids[i]);
    ge__mb_tier_shape(p, x, t, dims);
    st = ge_node_set_output(*out, ids[i], 0, dn->outputs[0].dtype, x->rank, dims, NULL, err);
  }
  free(ids);
  if (!st && (st = ge_graph_infer_shapes(*out, err)) != GE_OK && err) {
    char msg[sizeof err->message];
    snprintf(msg, sizeof msg, "%s", err->message);
    ge_error_set(err, st, "%s tier %d (%s): %s", p->key, (int)t + 1, tier, msg);
  }
  if (st) {
    ge_graph_free(*out);
    *out = NULL;
  }
  return st;
}

/* The Case's output i: equal dims over the branches stay, others become -1
 * with their range (and the original output's symbol when it had one). */
static ge_status ge__mb_case_output(ge_graph *g, ge_node_id cs, uint32_t i, ge_graph *const *br, int32_t nb,
                                    const ge_tensor_desc *orig, ge_error *err) {
  int64_t dims[GE_MAX_RANK];
  ge_dim_info info[GE_MAX_RANK];
  const ge_tensor_desc *d0;
  ge_dtype dt;
  int32_t rank, t, j;
  d0 = ge_node_input_desc(br[0], ge_graph_node(br[0], ge_graph_output_node(br[0])), i);
  if (!d0) return ge_error_set(err, GE_ERR_INVALID, "graph output %u is not connected", (unsigned)i);
  dt = d0->dtype;
  rank = d0->shape.rank;
  for (t = 1; t < nb; t++) {
    const ge_tensor_desc *d = ge_node_input_desc(br[t], ge_graph_node(br[t], ge_graph_output_node(br[t])), i);
    if (!d || d->shape.rank != rank) rank = GE_RANK_UNKNOWN;
    if (d && d->dtype != dt) dt = GE_DTYPE_UNDEFINED;
  }
  if (rank > GE_MAX_RANK) rank = GE_RANK_UNKNOWN;
  for (j = 0; j < rank; j++) {
    int64_t lo = d0->shape.dims[j], hi = lo;
    int same = 1;
    for (t = 1; t < nb; t++) {
      const ge_tensor_desc *d = ge_node_input_desc(br[t], ge_graph_node(br[t], ge_graph_output_node(br[t])), i);
      int64_t v = d->shape.dims[j];
      if (v != d0->shape.dims[j]) same = 0;
      if (v < 0 || lo < 0) lo = hi = -1;
      else {
        if (v < lo) lo = v;
        if (v > hi) hi = v;
      }
    }
    info[j].symbol = NULL;
    info[j].lo = 0, info[j].hi = -1;
    if (same) {
      dims[j] = d0->shape.dims[j];
      continue;
    }
    dims[j] = -1;
    if (lo >= 0) info[j].lo = lo, info[j].hi = hi;
    if (orig && orig->shape.rank == rank && orig->shape.dims[j] < 0 && orig->shape.info) info[j].symbol = orig->shape.info[j].symbol;
  }
  return ge_node_set_output(g, cs, i, dt, rank, dims, info, err);
}

/* Rewrites g once the plan and the branches are ready; nothing can fail
 * here but memory. */
static ge_status ge__mb_rewrite(ge_graph *g, ge__mb_plan *p, ge_graph **br, ge_error *err) {
  ge_node_id out = ge_graph_output_node(g), gdd = GE_NONE, tab = GE_NONE, mi = GE_NONE, cs = GE_NONE;
  uint32_t nout = ge_graph_node(g, out)->num_inputs, i, bound = ge_graph_id_bound(g);
  ge_edge *edges = NULL;
  ge_tensor_desc *orig = NULL;
  char **names = NULL;
  const char **in_names = NULL;
  int64_t *info = NULL, *table = NULL;
  int32_t ninfo = 0, t, j, k;
  ge_status st = GE_OK;
  int branches_owned = 1;
  edges = (ge_edge *)calloc((size_t)p->num_in + nout + 1, sizeof *edges);
  orig = (ge_tensor_desc *)calloc((size_t)nout + 1, sizeof *orig);
  names = (char **)calloc((size_t)nout + 1, sizeof *names);
  in_names = (const char **)calloc((size_t)p->num_dyn + 1, sizeof *in_names);
  info = (int64_t *)malloc(sizeof(int64_t) * ((size_t)p->num_dyn * (GE_MAX_RANK + 1) + 1));
  table = (int64_t *)malloc(sizeof(int64_t) * ((size_t)p->tiers.count * (size_t)p->slots + 1));
  if (!edges || !orig || !names || !in_names || !info || !table) goto oom;
  /* what the outputs were called and looked like */
  {
    const ge_node *o = ge_graph_node(g, out);
    for (i = 0; i < nout; i++) {
      const char *nm = o->outputs[i].name;
      const ge_tensor_desc *d = ge_node_input_desc(g, o, i);
      if (!nm) nm = o->inputs[i].node != GE_NONE ? ge_graph_node(g, o->inputs[i].node)->name : "";
      if (!(names[i] = (char *)malloc(strlen(nm) + 1))) goto oom;
      memcpy(names[i], nm, strlen(nm) + 1);
      if (d) {
        orig[i] = *d;
        orig[i].shape.rank = GE_RANK_UNKNOWN; /* the symbols only, below */
        if (d->shape.rank > 0 && d->shape.rank <= GE_MAX_RANK && d->shape.info) {
          orig[i].shape.rank = d->shape.rank;
          orig[i].shape.dims = (int64_t *)calloc((size_t)d->shape.rank, sizeof(int64_t));
          orig[i].shape.info = (ge_dim_info *)calloc((size_t)d->shape.rank, sizeof(ge_dim_info));
          if (!orig[i].shape.dims || !orig[i].shape.info) goto oom;
          for (j = 0; j < d->shape.rank; j++) {
            orig[i].shape.dims[j] = d->shape.dims[j];
            if (d->shape.info[j].symbol && !(orig[i].shape.info[j].symbol = (const char *)malloc(strlen(d->shape.info[j].symbol) + 1)))
              goto oom;
            if (d->shape.info[j].symbol) memcpy((char *)orig[i].shape.info[j].symbol, d->shape.info[j].symbol, strlen(d->shape.info[j].symbol) + 1);
          }
        }
      }
    }
  }
  /* GetDynamicDims' shape_info and the tier table, in its input order */
  for (k = 0; k < (int32_t)p->num_dyn; k++) {
    const ge__mb_input *x = &p->in[p->dyn[k]];
    info[ninfo++] = x->rank;
    for (j = 0; j < x->rank; j++) info[ninfo++] = x->col[j] >= 0 ? -1 : x->dims[j];
    in_names[k] = x->node->name;
  }
  for (t = 0; t < p->tiers.count; t++) {
    int32_t s = 0;
    for (k = 0; k < (int32_t)p->num_dyn; k++) {
      const ge__mb_input *x = &p->in[p->dyn[k]];
      for (j = 0; j < x->rank; j++)
        if (x->col[j] >= 0) table[(size_t)t * (size_t)p->slots + (size_t)s++] = p->tiers.v[(size_t)t * (size_t)p->tiers.width + (size_t)x->col[j]];
    }
  }
  /* everything but the inputs goes */
  for (i = 0; i < bound && !st; i++) {
    const ge_node *n = ge_graph_node(g, i);
    if (n && !ge__mb_is(n, "Data")) st = ge_graph_remove_node(g, i, err);
  }
  /* the inputs: -1 at the tier dims, ranged over the tiers */
  for (i = 0; i < p->num_in && !st; i++) {
    const ge__mb_input *x = &p->in[i];
    ge_node *dn = ge_graph_node(g, x->id);
    ge_dim_info di[GE_MAX_RANK];
    const ge_shape *old = &dn->outputs[0].shape;
    for (j = 0; j < x->rank; j++) {
      di[j].lo = 0, di[j].hi = -1;
      di[j].symbol = old->rank == x->rank && old->info ? old->info[j].symbol : NULL;
      if (x->col[j] >= 0) {
        int64_t lo = INT64_MAX, hi = 0;
        for (t = 0; t < p->tiers.count; t++) {
          int64_t v = p->tiers.v[(size_t)t * (size_t)p->tiers.width + (size_t)x->col[j]];
          if (v < lo) lo = v;
          if (v > hi) hi = v;
        }
        di[j].lo = lo, di[j].hi = hi;
      } else {
        di[j].symbol = NULL;
      }
    }
    st = ge_node_set_output(g, x->id, 0, dn->outputs[0].dtype, x->rank, x->dims, di, err);
  }
  /* GetDynamicDims -> MapIndex(dims, tiers) -> Case */
  for (k = 0; k < (int32_t)p->num_dyn; k++) edges[k].node = p->in[p->dyn[k]].id, edges[k].index = 0;
  if (!st) st = ge_graph_add_node(g, "GetDynamicDims", "multibatch_dynamic_dims", p->num_dyn, edges, 1, &gdd, err);
  if (!st) {
    int64_t s = p->slots;
    st = ge_node_set_output(g, gdd, 0, GE_DTYPE_INT64, 1, &s, NULL, err);
  }
  if (!st) st = ge_node_set_attr_int(g, gdd, "N", (int64_t)p->num_dyn, err);
  if (!st) st = ge_node_set_attr_ints(g, gdd, "shape_info", info, ninfo, err);
  if (!st) {
    ge_tensor tt;
    int64_t td[2];
    memset(&tt, 0, sizeof tt);
    td[0] = p->tiers.count, td[1] = p->slots;
    tt.dtype = GE_DTYPE_INT64;
    tt.rank = 2;
    tt.dims = td;
    tt.data = table;
    tt.nbytes = sizeof(int64_t) * (size_t)p->tiers.count * (size_t)p->slots;
    st = ge_graph_add_const(g, "multibatch_tiers", &tt, &tab, err);
  }
  if (!st) {
    ge_edge two[2];
    two[0].node = gdd, two[0].index = 0;
    two[1].node = tab, two[1].index = 0;
    st = ge_graph_add_node(g, "MapIndex", "multibatch_index", 2, two, 1, &mi, err);
  }
  if (!st) st = ge_node_set_output(g, mi, 0, GE_DTYPE_INT32, 0, NULL, NULL, err);
  if (!st) st = ge_node_set_attr_string(g, mi, "option", p->key, err);
  if (!st) st = ge_node_set_attr_string(g, mi, "tiers", p->value, err);
  if (!st) st = ge_node_set_attr_strings(g, mi, "input_names", in_names, (int32_t)p->num_dyn, err);
  if (!st) st = ge_node_set_attr_ints(g, mi, "shape_info", info, ninfo, err);
  if (!st) {
    edges[0].node = mi, edges[0].index = 0;
    for (i = 0; i < p->num_in; i++) edges[1 + i].node = p->in[i].id, edges[1 + i].index = 0;
    st = ge_graph_add_node(g, "Case", "multibatch_case", 1 + p->num_in, edges, (int32_t)nout, &cs, err);
  }
  if (!st) {
    branches_owned = 0;
    st = ge_node_set_attr_graphs(g, cs, "branches", br, p->tiers.count, err); /* owns them, even on error */
  }
  if (!st) st = ge_node_set_attr_string(g, cs, GE_MULTIBATCH_ATTR, p->key, err);
  if (!st) st = ge_node_set_attr_string(g, cs, "_multibatch_tiers", p->value, err);
  for (i = 0; i < nout && !st; i++) st = ge__mb_case_output(g, cs, i, br, p->tiers.count, &orig[i], err);
  for (i = 0; i < nout; i++) edges[i].node = cs, edges[i].index = (int32_t)i;
  if (!st) st = ge_graph_set_outputs(g, nout, edges, (const char *const *)names, err);
  goto done;
oom:
  st = ge_error_set(err, GE_ERR_NOMEM, "%s: out of memory", p->key);
done:
  if (branches_owned)
    for (t = 0; t < p->tiers.count; t++) ge_graph_free(br[t]);
  for (i = 0; names && i < nout; i++) free(names[i]);
  for (i = 0; orig && i < nout; i++) {
    for (j = 0; orig[i].shape.info && j < orig[i].shape.rank; j++) free((void *)orig[i].shape.info[j].symbol);
    if (orig[i].shape.rank > 0) free(orig[i].shape.dims), free(orig[i].shape.info);
  }
  free(edges), free(orig), free(names), free(in_names), free(info), free(table);
  return st;
}

/* ge.inputShape without a tier option (atc's --input_shape alone): the
 * named inputs get those shapes, static or with ranged dims (LO~HI: the
 * executor plans memory once at the upper bounds, and a run outside the
 * range is an error naming the input). A -1 left in it, an unknown input
 * or another rank is an error. */
static ge_status ge__mb_fix_input_shapes(ge_graph *g, const char *shapes, ge_error *err) {
  ge__mb_entry *e;
  int32_t n, k, j;
  ge_status st;
  char name[256];
  if (!g) return ge_error_set(err, GE_ERR_INVALID, "ge_multibatch_apply: no graph");
  if ((st = ge__mb_parse_shape(shapes, &e, &n, err))) return st;
  for (k = 0; k < n && !st; k++) {
    ge_node_id id;
    ge_node *x;
    snprintf(name, sizeof name, "%.*s", (int)(e[k].name_len < 255 ? e[k].name_len : 255), e[k].name);
    id = ge_graph_find(g, name);
    x = id == GE_NONE ? NULL : ge_graph_node(g, id);
    if (!x || strcmp(x->op, "Data") || x->num_outputs < 1) {
      st = ge_error_set(err, GE_ERR_NOT_FOUND, GE__MB_KEY_SHAPE " names input '%s', which graph '%s' does not have", name,
                        ge_graph_name(g));
      break;
    }
    if (x->outputs[0].shape.rank >= 0 && x->outputs[0].shape.rank != e[k].rank) {
      st = ge_error_set(err, GE_ERR_SHAPE, GE__MB_KEY_SHAPE " gives input '%s' rank %d, the graph's input has rank %d", name,
                        (int)e[k].rank, (int)x->outputs[0].shape.rank);
      break;
    }
    for (j = 0; j < e[k].rank && !st; j++)
      if (e[k].dims[j] < 0 && e[k].hi[j] >= 0) {
        if (x->outputs[0].shape.rank >= 0 && x->outputs[0].shape.dims[j] >= 0 &&
            (x->outputs[0].shape.dims[j] < e[k].lo[j] || x->outputs[0].shape.dims[j] > e[k].hi[j]))
          st = ge_error_set(err, GE_ERR_SHAPE, GE__MB_KEY_SHAPE " gives input '%s' dim %d the range %lld~%lld, the graph "
                            "fixes it to %lld", name, (int)j, (long long)e[k].lo[j], (long long)e[k].hi[j],
                            (long long)x->outputs[0].shape.dims[j]);
      } else if (e[k].dims[j] < 0)
        st = ge_error_set(err, GE_ERR_INVALID, GE__MB_KEY_SHAPE " leaves dim %d of input '%s' dynamic, but no "
                          "ge.dynamicBatchSize, ge.dynamicImageSize or ge.dynamicDims gives its values", (int)j, name);
      else if (x->outputs[0].shape.rank >= 0 && x->outputs[0].shape.dims[j] >= 0 && x->outputs[0].shape.dims[j] != e[k].dims[j])
        st = ge_error_set(err, GE_ERR_SHAPE, GE__MB_KEY_SHAPE " gives input '%s' dim %d = %lld, the graph fixes it to %lld",
                          name, (int)j, (long long)e[k].dims[j], (long long)x->outputs[0].shape.dims[j]);
    if (!st) {
      ge_dim_info info[GE_MAX_RANK];
      int ranged = 0;
      for (j = 0; j < e[k].rank; j++) {
        const ge_shape *had = &x->outputs[0].shape;
        info[j].lo = e[k].dims[j] < 0 ? e[k].lo[j] : e[k].dims[j];
        info[j].hi = e[k].dims[j] < 0 ? e[k].hi[j] : e[k].dims[j];
        info[j].symbol = had->rank == e[k].rank && had->info ? had->info[j].symbol : NULL; /* keep its name */
        ranged |= e[k].dims[j] < 0;
      }
      st = ge_node_set_output(g, id, 0, x->outputs[0].dtype, e[k].rank, e[k].dims, ranged ? info : NULL, err);
    }
  }
  free(e);
  return st;
}

GE_API ge_status ge_multibatch_apply(ge_graph *g, const ge_multibatch_desc *d, ge_error *err) {
  ge__mb_plan p;
  ge_graph **br = NULL;
  ge_node *n;
  int32_t t;
  ge_status st;
  if (!ge_multibatch_enabled(d)) {
    const char *k_, *v_;
    ge__mb_kind kind;
    if (d && (st = ge__mb_which(d, &kind, &k_, &v_, err))) return st;
    return d && d->input_shape && *d->input_shape ? ge__mb_fix_input_shapes(g, d->input_shape, err) : GE_OK;
  }
  if (!g) return ge_error_set(err, GE_ERR_INVALID, "ge_multibatch_apply: no graph");
  if (ge_graph_parent(g))
    return ge_error_set(err, GE_ERR_INVALID, "multi-batch: graph '%s' is a subgraph; apply it to the root graph", ge_graph_name(g));
  GE_GRAPH_FOREACH(g, n) {
    if (ge_node_attr(n, GE_MULTIBATCH_ATTR))
      return ge_error_set(err, GE_ERR_INVALID, "multi-batch: graph '%s' already holds the multi-batch Case '%s' (made for %s)",
                          ge_graph_name(g), n->name, ge_node_attr_string(n, GE_MULTIBATCH_ATTR, "?"));
  }
  if (ge_graph_output_node(g) == GE_NONE)
    return ge_error_set(err, GE_ERR_INVALID, "multi-batch: graph '%s' has no NetOutput", ge_graph_name(g));
  if ((st = ge__mb_plan_make(g, d, &p, err)) != GE_OK) {
    ge__mb_plan_free(&p);
    return st;
  }
  if (!(br = (ge_graph **)calloc((size_t)p.tiers.count, sizeof *br))) {
    ge__mb_plan_free(&p);
    return ge_error_set(err, GE_ERR_NOMEM, "%s: out of memory", p.key);
  }
  for (t = 0; t < p.tiers.count && !st; t++) st = ge__mb_branch(g, &p, t, &br[t], err);
  if (st) {
    for (t = 0; t < p.tiers.count; t++) ge_graph_free(br[t]);
  } else {
    st = ge__mb_rewrite(g, &p, br, err); /* takes the branches */
  }
  free(br);
  ge__mb_plan_free(&p);
  return st;
}

#ifdef __cplusplus
}
#endif

/* ======================================== stages, scopes, variables, JIT slices (§5.4, §5.5.2, §5.6, §5.7) */

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
  uint32_t *deg = (uint32_t *)ge__pt_zalloc(g, ((size_t)bound + 1) * sizeof(uint32_t));
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
    ge__pt_free(g, deg, ((size_t)bound + 1) * sizeof(uint32_t));
    return ge_error_set(err, GE_ERR_CYCLE, "%s: graph '%s' has a cycle through node '%s'", pass, ge_graph_name(g),
                        i < bound ? ge_graph_node(g, i)->name : "?");
  }
  ge__pt_free(g, deg, ((size_t)bound + 1) * sizeof(uint32_t));
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
  level = (int64_t *)ge__pt_zalloc(g, ((size_t)bound + 1) * sizeof *level);
  state = (uint8_t *)ge__pt_zalloc(g, (size_t)bound + 1);
  order = (ge_node_id *)ge__pt_alloc(g, ((size_t)count + 1) * sizeof *order);
  lv = (ge__pp_lv *)ge__pt_alloc(g, ((size_t)count + 1) * sizeof *lv);
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
  ge__pt_free(g, level, ((size_t)bound + 1) * sizeof *level), ge__pt_free(g, state, (size_t)bound + 1);
  ge__pt_free(g, order, ((size_t)count + 1) * sizeof *order), ge__pt_free(g, lv, ((size_t)count + 1) * sizeof *lv);
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
  ge_node_id *order = (ge_node_id *)ge__pt_alloc(g, ((size_t)count + 1) * sizeof *order), *set = NULL;
  uint32_t *pos = (uint32_t *)ge__pt_alloc(g, ((size_t)bound + 1) * sizeof *pos);
  int32_t *val = (int32_t *)ge__pt_alloc(g, ((size_t)bound + 1) * sizeof *val);
  uint8_t *member = (uint8_t *)ge__pt_zalloc(g, (size_t)bound + 1);
  ge_status st = GE_OK;
  if (!order || !pos || !val || !member || !(set = (ge_node_id *)ge__pt_alloc(g, ((size_t)n + 1) * sizeof *set))) {
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
  ge__pt_free(g, order, ((size_t)count + 1) * sizeof *order), ge__pt_free(g, pos, ((size_t)bound + 1) * sizeof *pos);
  ge__pt_free(g, val, ((size_t)bound + 1) * sizeof *val), ge__pt_free(g, member, (size_t)bound + 1);
  ge__pt_free(g, set, ((size_t)n + 1) * sizeof *set);
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
  m = (ge__pp_member *)ge__pt_alloc(g, ((size_t)bound + 1) * sizeof *m);
  if (!m) return ge__pp_oom(err, pass);
  for (i = 0; i < bound; i++) {
    const ge_node *x = ge_graph_node(g, i);
    const ge_attr *a;
    int ok;
    if (!x || ge__pp_io_node(x) || !(a = ge_node_attr(x, GE__PP_SCOPE_ATTR))) continue;
    m[n].hash = ge__pp_attr_hash(a, &ok);
    if (!ok) {
      ge__pt_free(g, m, ((size_t)bound + 1) * sizeof *m);
      return ge_error_set(err, GE_ERR_INVALID, "%s: node '%s': attribute %s must be a string, number or list", pass,
                          x->name, GE__PP_SCOPE_ATTR);
    }
    m[n].attr = a;
    m[n].id = i;
    m[n++].group = 0;
  }
  if (!n) {
    ge__pt_free(g, m, ((size_t)bound + 1) * sizeof *m);
    return GE_OK;
  }
  /* equal values are adjacent after sorting; number them by first node id */
  qsort(m, n, sizeof *m, ge__pp_member_cmp);
  first = (ge__pp_first *)ge__pt_alloc(g, ((size_t)n + 1) * sizeof *first);
  run_group = (uint32_t *)ge__pt_alloc(g, ((size_t)n + 1) * sizeof *run_group);
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
  ge__pt_free(g, m, ((size_t)bound + 1) * sizeof *m), ge__pt_free(g, first, ((size_t)n + 1) * sizeof *first);
  ge__pt_free(g, run_group, ((size_t)n + 1) * sizeof *run_group);
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
  size_t cap = (size_t)x->num_inputs + 1;
  ge_edge *ins = (ge_edge *)ge__pt_alloc(g, cap * sizeof *ins);
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
  ge__pt_free(g, ins, cap * sizeof *ins);
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
  drop = (uint8_t *)ge__pt_zalloc(g, (size_t)n_in + 1);
  shift = (uint32_t *)ge__pt_zalloc(g, ((size_t)n_in + 1) * sizeof *shift);
  subs = (ge_graph **)ge__pt_alloc(g, ((size_t)n_sub + 1) * sizeof *subs);
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
  ge__pt_free(g, drop, (size_t)n_in + 1), ge__pt_free(g, shift, ((size_t)n_in + 1) * sizeof *shift);
  ge__pt_free(g, subs, ((size_t)n_sub + 1) * sizeof *subs);
  return st;
}

static ge_status ge__pp_split_graph(ge_graph *g, int depth, ge_error *err) {
  uint32_t bound = ge_graph_id_bound(g), i, n = 0, s, n_sub;
  ge_node_id *holders;
  ge_status st = GE_OK;
  if (depth > GE__PP_MAX_DEPTH)
    return ge_error_set(err, GE_ERR_INVALID, "ge_partition_split_variables: subgraphs nest deeper than %d at '%s'",
                        GE__PP_MAX_DEPTH, ge_graph_name(g));
  holders = (ge_node_id *)ge__pt_alloc(g, ((size_t)bound + 1) * sizeof *holders);
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
      if (!(many = (ge_graph **)ge__pt_alloc(g, (size_t)n_sub * sizeof *many))) {
        st = ge__pp_oom(err, "ge_partition_split_variables");
        break;
      }
      ge__pp_subgraphs(ge_graph_node(g, h), many, n_sub);
    }
    for (s = 0; s < n_sub && !st; s++) st = ge__pp_split_graph(many[s], depth + 1, err);
    if (many != subs) ge__pt_free(g, many, (size_t)n_sub * sizeof *many);
  }
  ge__pt_free(g, holders, ((size_t)bound + 1) * sizeof *holders);
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
  const ge_graph *g;
  uint32_t bound;
} ge__pp_outs;

static ge_status ge__pp_outs_init(ge__pp_outs *o, const ge_graph *g, const ge_extract_result *r) {
  uint32_t bound = ge_graph_id_bound(g), i;
  o->r = r, o->g = g, o->bound = bound;
  o->head = (uint32_t *)ge__pt_alloc(g, ((size_t)bound + 1) * sizeof(uint32_t));
  o->next = (uint32_t *)ge__pt_alloc(g, ((size_t)r->num_boundary_outputs + 1) * sizeof(uint32_t));
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
  if (!o->g) return;
  ge__pt_free(o->g, o->head, ((size_t)o->bound + 1) * sizeof(uint32_t));
  ge__pt_free(o->g, o->next, ((size_t)o->r->num_boundary_outputs + 1) * sizeof(uint32_t));
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
  in_s = (uint8_t *)ge__pt_zalloc(g, (size_t)bound + 1);
  set_s = (ge_node_id *)ge__pt_alloc(g, ((size_t)bound + 1) * sizeof *set_s);
  set_r = (ge_node_id *)ge__pt_alloc(g, ((size_t)bound + 1) * sizeof *set_r);
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
  ge__pt_free(g, in_s, (size_t)bound + 1), ge__pt_free(g, set_s, ((size_t)bound + 1) * sizeof *set_s);
  ge__pt_free(g, set_r, ((size_t)bound + 1) * sizeof *set_r);
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
  if (!(ids = (ge_node_id *)ge__pt_alloc(g, ((size_t)n + 1) * sizeof *ids))) return ge__pp_oom(err, pass);
  for (i = 0; i < n; i++) {
    const ge_node *x = ge_graph_node(g, inferred[i]);
    ge_node_id c;
    if (!x) {
      ge__pt_free(g, ids, ((size_t)n + 1) * sizeof *ids);
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
  ge__pt_free(g, ids, ((size_t)n + 1) * sizeof *ids);
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

#endif /* GE_PARTITION_IMPLEMENTATION_DONE */
#endif /* GE_PARTITION_IMPLEMENTATION */

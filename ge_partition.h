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

#ifdef __cplusplus
}
#endif
#endif /* GE_PARTITION_H */

/* ===================================================================== */
#if defined(GE_IMPLEMENTATION) || defined(GE_PARTITION_IMPLEMENTATION)
#ifndef GE_PARTITION_IMPLEMENTATION_DONE
#define GE_PARTITION_IMPLEMENTATION_DONE

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

#ifdef __cplusplus
}
#endif
#endif /* GE_PARTITION_IMPLEMENTATION_DONE */
#endif /* GE_PARTITION_IMPLEMENTATION */

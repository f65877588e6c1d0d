/* test_partition.c — the cluster framework and the partitioners, checked on
 * seeded random DAGs: every partition is acyclic at every level, every
 * node lands in exactly one graph, and the partitioned graph computes what
 * the original computes (exact wrapping uint64 evaluation, and the executor
 * on real kernels). */
#define _POSIX_C_SOURCE 200809L
#define GE_PARTITION_IMPLEMENTATION /* its private ge__pt_*; the rest from libge.a */
#include "ge_engines/ge_engines.h"
#include "ge_exec.h"
#include "ge_onnx.h"
#include "ge_partition.h"
#include "tests/test.h"
#include "tests/graph_util.h"

#include <stdlib.h>

/* ------------------------------------------------------ random DAGs */


/* How often each name occurs in g and its subgraphs (names[] of count). */
static void count_names(const ge_graph *g, char **names, uint32_t count, uint32_t *seen) {
  ge_node *n;
  GE_GRAPH_FOREACH(g, n) {
    uint32_t i, a;
    for (i = 0; i < count; i++)
      if (!strcmp(names[i], n->name)) seen[i]++;
    for (a = 0; a < n->num_attrs; a++)
      if (n->attrs[a].type == GE_ATTR_GRAPH) count_names(n->attrs[a].v.g, names, count, seen);
  }
}

/* Every compute node of the original is in exactly one graph of the partition. */
static int each_node_once(const ge_graph *orig, const ge_graph *part) {
  char *names[600];
  uint32_t seen[600], count = 0, i;
  ge_node *n;
  int ok = 1;
  GE_GRAPH_FOREACH(orig, n) {
    if (!strcmp(n->op, "Data") || !strcmp(n->op, "NetOutput") || count == 600) continue;
    names[count++] = (char *)n->name;
  }
  memset(seen, 0, sizeof seen);
  count_names(part, names, count, seen);
  for (i = 0; i < count; i++)
    if (seen[i] != 1) ok = 0;
  return ok;
}

/* A subgraph's nodes agree with its call's _is_unknown_shape. */
static int kinds_agree(const ge_graph *g) {
  ge_node *n;
  GE_GRAPH_FOREACH(g, n) {
    const ge_attr *f = ge_node_attr(n, "f");
    ge_node *m;
    int64_t dyn = ge_node_attr_int(n, "_is_unknown_shape", -1);
    if (!f || dyn < 0) continue;
    GE_GRAPH_FOREACH(f->v.g, m) {
      if (!strcmp(m->op, "Data") || !strcmp(m->op, "NetOutput")) continue;
      if (!!(m->flags & GE_NODE_IS_DYNAMIC) != (dyn == 1)) return 0;
    }
  }
  return 1;
}

/* -------------------------------------------------------- clusters */

GE_TEST(test_clusters_basics) {
  /* a -> b -> d, a -> c -> d, d -> e */
  ge_graph *g = tu_new_graph("diamond");
  ge_node_id x, a, b, c, d, e;
  ge_clusters *cl;
  ge_edge in[2];
  TU_OK(ge_graph_add_data(g, "x", GE_DTYPE_FLOAT32, 0, NULL, &x, NULL));
  in[0] = tu_e(x, 0);
  TU_OK(ge_graph_add_node(g, "Neg", "a", 1, in, 1, &a, NULL));
  in[0] = tu_e(a, 0);
  TU_OK(ge_graph_add_node(g, "Neg", "b", 1, in, 1, &b, NULL));
  TU_OK(ge_graph_add_node(g, "Neg", "c", 1, in, 1, &c, NULL));
  in[0] = tu_e(b, 0), in[1] = tu_e(c, 0);
  TU_OK(ge_graph_add_node(g, "Add", "d", 2, in, 1, &d, NULL));
  in[0] = tu_e(d, 0);
  TU_OK(ge_graph_add_node(g, "Neg", "e", 1, in, 1, &e, NULL));
  in[0] = tu_e(e, 0);
  TU_OK(ge_graph_set_outputs(g, 1, in, NULL, NULL));
  GE_REQUIRE(ge_clusters_create(g, &cl, NULL) == GE_OK);
  GE_CHECK(ge_clusters_has_path(cl, a, d));
  GE_CHECK(!ge_clusters_has_path(cl, b, c));
  GE_CHECK(ge_clusters_try_merge(cl, a, d) == GE_NONE); /* a -> b -> d */
  GE_CHECK(ge_clusters_try_merge(cl, b, c) != GE_NONE); /* unrelated */
  GE_CHECK(ge_clusters_try_merge(cl, d, e) != GE_NONE);
  GE_CHECK(ge_clusters_try_merge(cl, a, d) == GE_NONE); /* still a -> {b,c} -> {d,e} */
  GE_CHECK(ge_clusters_try_merge(cl, a, b) != GE_NONE); /* the only path */
  GE_CHECK(ge_clusters_try_merge(cl, a, d) != GE_NONE);
  GE_CHECK_EQ_INT(ge_clusters_size(cl, a), 5);
  ge_clusters_free(cl);
  GE_REQUIRE(ge_clusters_create(g, &cl, NULL) == GE_OK);
  GE_CHECK(ge_clusters_merge_paths(cl, a, e) != GE_NONE);
  GE_CHECK_EQ_INT(ge_clusters_size(cl, a), 5);
  GE_CHECK(ge_clusters_find(cl, x) != ge_clusters_find(cl, a));
  ge_clusters_free(cl);
  ge_graph_free(g);
}

/* Random merges through try_merge and merge_paths never make the cluster
 * graph cyclic: wrapping every cluster gives a valid graph. */
GE_TEST(test_clusters_random_merges) {
  uint64_t seed;
  int bad = 0;
  for (seed = 1; seed <= 1000; seed++) {
    ge_graph *g = tu_random_dag(seed, 30, 2, 0, 0), *orig;
    ge_clusters *cl;
    tu_rng r;
    uint32_t k, bound = ge_graph_id_bound(g);
    uint8_t movable[128];
    ge_node *n;
    ge_error err;
    TU_OK(ge_graph_clone(g, NULL, &orig, NULL));
    tu_seed(&r, seed);
    TU_OK(ge_clusters_create(g, &cl, NULL));
    for (k = 0; k < 40; k++) {
      ge_node_id a = tu_below(&r, bound), b = tu_below(&r, bound);
      const ge_node *na = ge_graph_node(g, a), *nb = ge_graph_node(g, b);
      if (!na || !nb || !strcmp(na->op, "Data") || !strcmp(nb->op, "Data") || !strcmp(na->op, "NetOutput") ||
          !strcmp(nb->op, "NetOutput"))
        continue;
      if (tu_below(&r, 3)) ge_clusters_try_merge(cl, a, b);
      else ge_clusters_merge_paths(cl, a, b);
    }
    memset(movable, 0, sizeof movable);
    GE_GRAPH_FOREACH(g, n) movable[n->id] = strcmp(n->op, "Data") && strcmp(n->op, "NetOutput");
    if (ge__pt_wrap_clusters(g, cl, movable, NULL, NULL, &err) != GE_OK ||
        ge_graph_validate(g, NULL, &err) != GE_OK || !tu_same_outputs(orig, g, 2, seed) || !each_node_once(orig, g)) {
      if (!bad++) fprintf(stderr, "seed %llu: %s\n", (unsigned long long)seed, err.message);
    }
    ge_clusters_free(cl);
    ge_graph_free(g);
    ge_graph_free(orig);
  }
  GE_CHECK_EQ_INT(bad, 0);
}

/* Brute force: is there a path from cluster A to cluster B through some
 * other cluster (or, unless skip_direct, directly)? A search over nodes
 * that moves freely inside a cluster. */
static int brute_path(ge_graph *g, ge_clusters *c, ge_node_id A, ge_node_id B, int skip_direct) {
  uint32_t bound = ge_graph_id_bound(g), i, k, top = 0;
  ge_node_id *st = (ge_node_id *)malloc(sizeof(ge_node_id) * (bound + 1));
  uint8_t *seen = (uint8_t *)calloc(bound + 1, 1);
  int found = 0;
  for (i = 0; i < bound && !found; i++) {
    ge_node *x = ge_graph_node(g, i);
    int from_a = x && ge_clusters_find(c, i) == A;
    for (k = 0; from_a && k < x->num_uses + x->num_control_outputs; k++) {
      ge_node_id y = k < x->num_uses ? x->uses[k].node : x->control_outputs[k - x->num_uses], cy = ge_clusters_find(c, y);
      if (cy == B) found |= !skip_direct;
      else if (cy != A && !seen[y]) seen[y] = 1, st[top++] = y;
    }
  }
  while (top && !found) {
    ge_node_id cx = ge_clusters_find(c, st[--top]);
    for (i = 0; i < bound && !found; i++) {
      ge_node *z = ge_graph_node(g, i);
      if (!z || ge_clusters_find(c, i) != cx) continue;
      if (!seen[i]) seen[i] = 1, st[top++] = i;
      for (k = 0; k < z->num_uses + z->num_control_outputs; k++) {
        ge_node_id y = k < z->num_uses ? z->uses[k].node : z->control_outputs[k - z->num_uses], cy = ge_clusters_find(c, y);
        if (cy == B) found = 1;
        else if (cy != A && !seen[y]) seen[y] = 1, st[top++] = y;
      }
    }
  }
  free(st), free(seen);
  return found;
}

/* TryMerge refuses exactly the merges that would make a cycle. */
GE_TEST(test_try_merge_exact) {
  uint64_t seed;
  uint32_t decisions = 0, wrong = 0;
  for (seed = 1; seed <= 300; seed++) {
    ge_graph *g = tu_random_dag(seed, 30, 2, 0, 0);
    ge_clusters *cl;
    tu_rng r;
    uint32_t k, bound = ge_graph_id_bound(g);
    tu_seed(&r, seed);
    TU_OK(ge_clusters_create(g, &cl, NULL));
    for (k = 0; k < 60; k++) {
      ge_node_id a = tu_below(&r, bound), b = tu_below(&r, bound), A, B;
      const ge_node *na = ge_graph_node(g, a), *nb = ge_graph_node(g, b);
      int cycle;
      if (!na || !nb || !strcmp(na->op, "Data") || !strcmp(nb->op, "Data") || !strcmp(na->op, "NetOutput") ||
          !strcmp(nb->op, "NetOutput") || (A = ge_clusters_find(cl, a)) == (B = ge_clusters_find(cl, b)))
        continue;
      cycle = brute_path(g, cl, A, B, 1) || brute_path(g, cl, B, A, 1);
      decisions++;
      wrong += cycle != (ge_clusters_try_merge(cl, a, b) == GE_NONE);
    }
    ge_clusters_free(cl);
    ge_graph_free(g);
  }
  printf("try_merge: %u decisions, %u differ from brute force\n", (unsigned)decisions, (unsigned)wrong);
  GE_CHECK_EQ_INT(wrong, 0);
}

/* ------------------------------------------------ dynamic partitioning */

/* The checker: 10,000 random DAGs with random dynamism and limits. */
GE_TEST(test_dynamic_random) {
  uint64_t seed;
  uint32_t bad = 0, partitioned = 0, calls = 0;
  for (seed = 1; seed <= 10000; seed++) {
    uint32_t n_nodes = 5 + (uint32_t)(seed % 40), dyn = 2 + (uint32_t)(seed % 9);
    ge_graph *g = tu_random_dag(seed * 7919, n_nodes, 2, dyn, 0), *orig;
    ge_dynamic_partition_desc d;
    ge_error err;
    ge_node *n;
    memset(&d, 0, sizeof d);
    d.static_ops_lower_limit = (int32_t)(seed % 5) - 1; /* -1 (all dynamic), default, 1, 2, 3 */
    TU_OK(ge_graph_clone(g, NULL, &orig, NULL));
    if (ge_partition_dynamic(g, &d, &err) != GE_OK || ge_graph_validate(g, NULL, &err) != GE_OK ||
        !tu_same_outputs(orig, g, 2, seed) || !each_node_once(orig, g) || !kinds_agree(g)) {
      if (!bad++) fprintf(stderr, "seed %llu: %s\n", (unsigned long long)seed, err.message);
    }
    partitioned += ge_graph_attr(g, "_dynamic_shape_partitioned") && ge_graph_attr(g, "_dynamic_shape_partitioned")->v.i;
    GE_GRAPH_FOREACH(g, n) calls += !strcmp(n->op, "PartitionedCall");
    ge_graph_free(g);
    ge_graph_free(orig);
  }
  printf("dynamic partitioning: 10000 random DAGs, %u partitioned into %u subgraphs, %u bad\n", (unsigned)partitioned,
         (unsigned)calls, (unsigned)bad);
  GE_CHECK_EQ_INT(bad, 0);
}

GE_TEST(test_dynamic_rules) {
  ge_graph *g = tu_random_dag(5, 20, 2, 0, 0);
  ge_dynamic_partition_desc d;
  ge_error err;
  ge_node *n;
  uint32_t calls = 0;
  memset(&d, 0, sizeof d);
  /* nothing dynamic: left whole, recorded as not partitioned */
  GE_REQUIRE(ge_partition_dynamic(g, &d, &err) == GE_OK);
  GE_CHECK_EQ_INT(ge_graph_attr(g, "_dynamic_shape_partitioned")->v.i, 0);
  GE_GRAPH_FOREACH(g, n) calls += !strcmp(n->op, "PartitionedCall");
  GE_CHECK_EQ_INT(calls, 0);
  /* -1: one dynamic node makes the whole graph one dynamic subgraph */
  ge_graph_node(g, ge_graph_find(g, "n3"))->flags |= GE_NODE_FORCE_DYNAMIC;
  d.static_ops_lower_limit = -1;
  GE_REQUIRE(ge_partition_dynamic(g, &d, &err) == GE_OK);
  GE_CHECK_EQ_INT(ge_graph_attr(g, "_dynamic_shape_partitioned")->v.i, 1);
  GE_GRAPH_FOREACH(g, n) if (!strcmp(n->op, "PartitionedCall")) {
    calls++;
    GE_CHECK_EQ_INT(ge_node_attr_int(n, "_is_unknown_shape", -1), 1);
  }
  GE_CHECK_EQ_INT(calls, 1);
  ge_graph_free(g);
  /* options */
  GE_CHECK_EQ_INT(ge_dynamic_partition_set_option(&d, "ge.exec.static_model_ops_lower_limit", "7", &err), GE_OK);
  GE_CHECK_EQ_INT(d.static_ops_lower_limit, 7);
  GE_CHECK_EQ_INT(ge_dynamic_partition_set_option(&d, "ge.exec.static_model_ops_lower_limit", "x", &err), GE_ERR_INVALID);
  GE_CHECK_EQ_INT(ge_dynamic_partition_set_option(&d, "ge.exec.hostSchedulingMaxThreshold", "-1", &err), GE_ERR_INVALID);
  GE_CHECK_EQ_INT(ge_dynamic_partition_set_option(&d, "ge.nope", "1", &err), GE_ERR_NOT_FOUND);
}

/* Rule 5: a node on a host engine is dynamic; an all-zero desc names no
 * engine, so engine 0 is not taken for the host CPU. */
GE_TEST(test_dynamic_host_engine) {
  const ge_engine *engines[2];
  ge_graph *g = tu_random_dag(5, 20, 2, 0, 0);
  ge_dynamic_partition_desc d;
  ge_error err;
  ge_node *n;
  uint32_t dynamic_calls = 0;
  engines[0] = ge_ai_core_engine();
  engines[1] = ge_host_cpu_engine();
  GE_GRAPH_FOREACH(g, n) n->engine = 0;
  memset(&d, 0, sizeof d);
  GE_REQUIRE(ge_partition_dynamic(g, &d, &err) == GE_OK);
  GE_CHECK_EQ_INT(ge_graph_attr(g, "_dynamic_shape_partitioned")->v.i, 0);
  d.engines = engines;
  d.num_engines = 2;
  GE_REQUIRE(ge_partition_dynamic(g, &d, &err) == GE_OK); /* engine 0 is AI Core: still static */
  GE_CHECK_EQ_INT(ge_graph_attr(g, "_dynamic_shape_partitioned")->v.i, 0);
  ge_graph_node(g, ge_graph_find(g, "n3"))->engine = 1;
  GE_REQUIRE(ge_partition_dynamic(g, &d, &err) == GE_OK);
  GE_CHECK_EQ_INT(ge_graph_attr(g, "_dynamic_shape_partitioned")->v.i, 1);
  GE_GRAPH_FOREACH(g, n) dynamic_calls += !strcmp(n->op, "PartitionedCall") && ge_node_attr_int(n, "_is_unknown_shape", 0);
  GE_CHECK(dynamic_calls >= 1);
  ge_graph_free(g);
}

/* A real model, placed on the engines, partitioned with one node forced
 * dynamic, runs on real kernels to the same outputs. */
GE_TEST(test_dynamic_model) {
  ge_engine_registry *r;
  ge_place_desc pd;
  ge_graph *g, *ref;
  ge_dynamic_partition_desc d;
  ge_exec_desc xd;
  ge_program *pg, *pr;
  ge_error err;
  float buf[3 * 32 * 32];
  int64_t dims[4] = {1, 3, 32, 32};
  ge_value in;
  const ge_value *ins[1];
  int64_t i;
  tu_rng rng;
  if (ge_onnx_load("examples/models/tiny_cnn.onnx", NULL, &g, &err) != GE_OK) {
    printf("tiny_cnn.onnx not found (run from the repository root): skipped\n");
    return;
  }
  TU_OK(ge_onnx_load("examples/models/tiny_cnn.onnx", NULL, &ref, NULL));
  TU_OK(ge_engine_registry_create(NULL, &r, NULL));
  TU_OK(ge_engines_register_standard(r, NULL));
  memset(&pd, 0, sizeof pd);
  pd.engines = r;
  TU_OK(ge_place_compile(g, &pd, NULL));
  ge_graph_node(g, ge_graph_find(g, "/features/features.7/MaxPool"))->flags |= GE_NODE_FORCE_DYNAMIC;
  memset(&d, 0, sizeof d);
  d.engines = ge_engine_list(r);
  d.num_engines = ge_engine_count(r);
  GE_REQUIRE(ge_partition_dynamic(g, &d, &err) == GE_OK);
  GE_CHECK(ge_graph_validate(g, NULL, &err) == GE_OK);
  memset(&xd, 0, sizeof xd);
  xd.lookup = ge_engine_kernel_lookup;
  xd.lookup_user = r;
  TU_OK(ge_program_create(g, &xd, &pg, NULL));
  TU_OK(ge_place_compile(ref, &pd, NULL));
  TU_OK(ge_program_create(ref, &xd, &pr, NULL));
  tu_seed(&rng, 3);
  for (i = 0; i < 3 * 32 * 32; i++) buf[i] = (float)tu_below(&rng, 1000) / 500.0f - 1.0f;
  memset(&in, 0, sizeof in);
  ge_value_set_shape(&in, GE_DTYPE_FLOAT32, 4, dims);
  in.data = buf;
  ins[0] = &in;
  TU_OK(ge_program_run(pg, ins, 1, NULL));
  TU_OK(ge_program_run(pr, ins, 1, NULL));
  GE_CHECK(ge_program_output(pg, 0)->nbytes == ge_program_output(pr, 0)->nbytes &&
           !memcmp(ge_program_output(pg, 0)->data, ge_program_output(pr, 0)->data, ge_program_output(pr, 0)->nbytes));
  ge_program_free(pg), ge_program_free(pr);
  ge_graph_free(g), ge_graph_free(ref);
  ge_engine_registry_free(r);
}


/* ------------------------------------------------ engine partitioning */

static uint64_t hash_of(const ge_graph *g) {
  uint64_t h = 0;
  return ge_graph_hash(g, &h, NULL) == GE_OK ? h : 0;
}

static int yes(const ge_engine *e, const ge_graph *g, const ge_node *n, char *why, size_t cap) {
  (void)e, (void)g, (void)n, (void)why, (void)cap;
  return 1;
}
static ge_kernel_fn none(const ge_engine *e, const ge_node *n) {
  (void)e, (void)n;
  return NULL;
}
static ge_status count_calls(const ge_engine *e, ge_graph *g, int32_t self, ge_error *err) {
  ge_node *n;
  (void)err;
  GE_GRAPH_FOREACH(g, n) if (n->engine == self && strcmp(n->op, "PlaceHolder") && strcmp(n->op, "End")) n->topo_id = 7; /* seen */
  (void)e;
  return GE_OK;
}

/* Three atomic engines, A and B members of composite Comp. */
static const char *const comp_members[] = {"A", "B", NULL};
static const ge_engine fake_a = {GE_ENGINE_ABI_VERSION, "A", "A", 1, GE_RUNTIME_DEVICE, 0, NULL, yes, none, NULL, NULL, count_calls, NULL, NULL};
static const ge_engine fake_b = {GE_ENGINE_ABI_VERSION, "B", "B", 2, GE_RUNTIME_DEVICE, 0, NULL, yes, none, NULL, NULL, count_calls, NULL, NULL};
static const ge_engine fake_c = {GE_ENGINE_ABI_VERSION, "C", "C", 3, GE_RUNTIME_DEVICE, 0, NULL, yes, none, NULL, NULL, count_calls, NULL, NULL};
static const ge_engine fake_comp = {GE_ENGINE_ABI_VERSION, "Comp", "Comp", 1, GE_RUNTIME_DEVICE, GE_ENGINE_COMPOSITE,
                                   comp_members, NULL, NULL, NULL, NULL, NULL, NULL, NULL};

/* Pieces in a topological order: every End's peer PlaceHolder is in a
 * later piece, and each piece's nodes share one label. */
static int pieces_ok(const ge_engine_partition *p, int composite) {
  int32_t *end_piece = (int32_t *)malloc(sizeof(int32_t) * 4096);
  uint32_t k;
  int ok = 1;
  ge_node *n;
  for (k = 0; k < 4096; k++) end_piece[k] = -1;
  for (k = 0; k < p->count; k++)
    GE_GRAPH_FOREACH(p->subgraphs[k].graph, n) if (!strcmp(n->op, "End")) end_piece[ge_node_attr_int(n, "peer_index", 0)] = (int32_t)k;
  for (k = 0; k < p->count; k++)
    GE_GRAPH_FOREACH(p->subgraphs[k].graph, n) {
      int32_t want = p->subgraphs[k].engine, label = n->engine;
      if (!strcmp(n->op, "PlaceHolder")) {
        int32_t from = end_piece[ge_node_attr_int(n, "peer_index", 0)];
        if (from < 0 || from >= (int32_t)k) ok = 0;
        continue;
      }
      if (!strcmp(n->op, "End") || !strcmp(n->op, "Const")) continue; /* weights go with a consumer */
      if (!strcmp(n->op, "Data")) label = -2;
      else if (composite && (label == 0 || label == 1)) label = 3;
      if (label != want) ok = 0;
    }
  free(end_piece);
  return ok;
}

static const ge_engine *const engines[4] = {&fake_a, &fake_b, &fake_c, &fake_comp};

/* The pieces last to first, so the merge meets PlaceHolders before their
 * Ends (it must not depend on the pieces' order). */
static int reverse_pieces(ge_engine_partition *p) {
  uint32_t i;
  for (i = 0; i < p->count / 2; i++) {
    ge_engine_subgraph t = p->subgraphs[i];
    p->subgraphs[i] = p->subgraphs[p->count - 1 - i], p->subgraphs[p->count - 1 - i] = t;
  }
  return 1;
}

/* The checker: random DAGs with random engines, split (atomic and
 * composite), optimised on 3 threads, merged back (every third with the
 * pieces reversed): pieces acyclic and labelled right, merge-back equal to
 * the original (structural hash and outputs). */
GE_TEST(test_engine_random) {
  uint64_t seed;
  uint32_t bad = 0, pieces = 0;
  for (seed = 1; seed <= 10000; seed++) {
    ge_graph *g = tu_random_dag(seed * 104729, 5 + (uint32_t)(seed % 40), 2, 0, 3), *merged = NULL;
    ge_engine_partition p;
    ge_error err;
    int composite = (int)(seed & 1);
    memset(&err, 0, sizeof err);
    if (ge_partition_engines(g, engines, 4, composite, &p, &err) != GE_OK || !pieces_ok(&p, composite) ||
        ge_engine_partition_optimize(&p, engines, 4, 3, &err) != GE_OK || !(seed % 3 == 0 ? reverse_pieces(&p) : 1) ||
        ge_engine_partition_merge(&p, &merged, &err) != GE_OK ||
        ge_graph_validate(merged, NULL, &err) != GE_OK || hash_of(merged) != hash_of(g) ||
        !tu_same_outputs(g, merged, 2, seed) || !each_node_once(g, merged)) {
      if (!bad++) fprintf(stderr, "seed %llu: %s\n", (unsigned long long)seed, err.message);
    }
    pieces += p.count;
    ge_engine_partition_free(&p);
    ge_graph_free(merged);
    ge_graph_free(g);
  }
  printf("engine partitioning: 10000 random DAGs into %u pieces, %u bad\n", (unsigned)pieces, (unsigned)bad);
  GE_CHECK_EQ_INT(bad, 0);
}

/* Splits a random DAG, drops its first End (remove) or that End's input,
 * and merges back: the merge's status (GE_ERR_NOT_FOUND: no End there). */
static ge_status merge_tampered(uint64_t seed, int remove, ge_error *err) {
  ge_graph *g = tu_random_dag(seed * 104729, 8 + (uint32_t)(seed % 20), 2, 0, 3), *merged = NULL;
  ge_engine_partition p;
  ge_status st = GE_ERR_NOT_FOUND;
  uint32_t k;
  TU_OK(ge_partition_engines(g, engines, 4, 0, &p, err));
  for (k = 0; k < p.count && st == GE_ERR_NOT_FOUND; k++) {
    ge_graph *piece = p.subgraphs[k].graph;
    ge_node *n;
    GE_GRAPH_FOREACH(piece, n) if (st == GE_ERR_NOT_FOUND && !strcmp(n->op, "End")) {
      ge_edge none;
      none.node = GE_NONE, none.index = 0;
      TU_OK(remove ? ge_graph_remove_node(piece, n->id, NULL) : ge_graph_set_input(piece, n->id, 0, none, NULL));
      st = ge_engine_partition_merge(&p, &merged, err);
    }
  }
  ge_engine_partition_free(&p);
  ge_graph_free(merged);
  ge_graph_free(g);
  return st;
}

/* Merging back a tampered partition: an End whose producer an optimiser
 * dropped leaves an absent input; a PlaceHolder without its End is an
 * error naming it. */
GE_TEST(test_engine_merge_errors) {
  uint64_t seed;
  uint32_t absent = 0, missing = 0;
  ge_error err;
  for (seed = 1; seed <= 100; seed++) {
    absent += merge_tampered(seed, 0, &err) == GE_OK;
    missing += merge_tampered(seed, 1, &err) == GE_ERR_INVALID && strstr(err.message, "has no End") != NULL;
  }
  GE_CHECK(absent > 20);
  GE_CHECK(missing > 20);
}

/* The CNN placed on the real engines, split, each piece optimised by its
 * engine (AI Core fuses inside its pieces), merged: same outputs. */
GE_TEST(test_engine_model) {
  ge_engine_registry *r;
  ge_place_desc pd;
  ge_graph *g, *merged = NULL;
  ge_engine_partition p;
  const ge_engine *engines[GE_PLACE_MAX_ENGINES];
  ge_exec_desc xd;
  ge_program *pg, *pr;
  ge_error err;
  float buf[3 * 32 * 32];
  int64_t dims[4] = {1, 3, 32, 32}, i;
  ge_value in;
  const ge_value *ins[1];
  uint32_t k, n_eng;
  tu_rng rng;
  if (ge_onnx_load("examples/models/tiny_cnn.onnx", NULL, &g, &err) != GE_OK) return;
  TU_OK(ge_engine_registry_create(NULL, &r, NULL));
  TU_OK(ge_engines_register_standard(r, NULL));
  n_eng = ge_engine_count(r);
  for (k = 0; k < n_eng; k++) engines[k] = ge_engine_at(r, (int32_t)k);
  memset(&pd, 0, sizeof pd);
  pd.engines = r;
  TU_OK(ge_graph_infer_shapes(g, NULL));
  TU_OK(ge_place(g, &pd, NULL));
  memset(&xd, 0, sizeof xd);
  xd.lookup = ge_engine_kernel_lookup;
  xd.lookup_user = r;
  TU_OK(ge_program_create(g, &xd, &pr, NULL));
  GE_REQUIRE(ge_partition_engines(g, engines, n_eng, 1, &p, &err) == GE_OK);
  GE_CHECK(p.count >= 3);
  GE_REQUIRE(ge_engine_partition_optimize(&p, engines, n_eng, 2, &err) == GE_OK);
  GE_REQUIRE(ge_engine_partition_merge(&p, &merged, &err) == GE_OK);
  GE_CHECK(ge_graph_validate(merged, NULL, &err) == GE_OK);
  TU_OK(ge_place(merged, &pd, NULL)); /* what the optimisers added */
  TU_OK(ge_program_create(merged, &xd, &pg, NULL));
  tu_seed(&rng, 9);
  for (i = 0; i < 3 * 32 * 32; i++) buf[i] = (float)tu_below(&rng, 1000) / 500.0f - 1.0f;
  memset(&in, 0, sizeof in);
  ge_value_set_shape(&in, GE_DTYPE_FLOAT32, 4, dims);
  in.data = buf;
  ins[0] = &in;
  TU_OK(ge_program_run(pg, ins, 1, NULL));
  TU_OK(ge_program_run(pr, ins, 1, NULL));
  {
    const float *a = (const float *)ge_program_output(pg, 0)->data, *b = (const float *)ge_program_output(pr, 0)->data;
    double m = 0;
    for (i = 0; i < ge_program_output(pr, 0)->numel; i++) m = fabs(a[i] - b[i]) > m ? fabs(a[i] - b[i]) : m;
    GE_CHECK(m < 1e-4);
  }
  ge_program_free(pg), ge_program_free(pr);
  ge_engine_partition_free(&p);
  ge_graph_free(merged), ge_graph_free(g);
  ge_engine_registry_free(r);
}

int main(int argc, char **argv) {
  ge_test_init(argc, argv);
  GE_RUN(test_clusters_basics);
  GE_RUN(test_clusters_random_merges);
  GE_RUN(test_try_merge_exact);
  GE_RUN(test_dynamic_rules);
  GE_RUN(test_dynamic_random);
  GE_RUN(test_dynamic_host_engine);
  GE_RUN(test_dynamic_model);
  GE_RUN(test_engine_random);
  GE_RUN(test_engine_merge_errors);
  GE_RUN(test_engine_model);
  return ge_test_main_end();
}

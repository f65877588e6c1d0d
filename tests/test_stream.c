/* test_stream.c — stream allocation (ge_stream.h): the checkers of
 * tests/stream_util.h on hand-made plans (they catch broken ones; the
 * oracle agrees with greedy event removal), then the allocator on seeded
 * random DAGs (every plan ordered, events the fewest, happens-before
 * queries agreeing with the checker) and the pass behaviours of seed 002
 * on small hand-built graphs.
 *
 * Environment: GE_STREAM_SEEDS=n runs n random seeds (12000: at least
 * 10000 of them allocate and are checked for the fewest events);
 * GE_STREAM_SEED=s runs seed s alone and prints its options (with
 * GE_STREAM_DUMP=1 also the plan: streams, nodes, events); GE_STREAM_VERBOSE=1
 * prints the options of every seed. */
#define _POSIX_C_SOURCE 200809L
#include "ge_graph.h"
#include "ge_stream.h"
#include "tests/test.h"
#include "tests/graph_util.h"
#include "tests/stream_util.h"

#include <stdlib.h>

static ge_stream_desc base_desc(void) {
  ge_stream_desc d;
  memset(&d, 0, sizeof d);
  d.engines = su_engines;
  d.num_engines = SU_NUM_ENGINES;
  d.dynamic = -1; /* static */
  return d;
}

/* ------------------------------------------------------------ building */

static ge_node_id add(ge_graph *g, const char *op, const char *name, int32_t engine, uint32_t n, const ge_node_id *in) {
  ge_edge e[8];
  ge_node_id id;
  uint32_t k;
  for (k = 0; k < n; k++) e[k] = tu_e(in[k], 0);
  TU_OK(ge_graph_add_node(g, op, name, n, n ? e : NULL, 1, &id, NULL));
  ge_graph_node(g, id)->engine = engine;
  return id;
}
static ge_node_id add0(ge_graph *g, const char *op, const char *name, int32_t engine) {
  return add(g, op, name, engine, 0, NULL);
}
static ge_node_id add1(ge_graph *g, const char *op, const char *name, int32_t engine, ge_node_id a) {
  return add(g, op, name, engine, 1, &a);
}
static ge_node_id add2(ge_graph *g, const char *op, const char *name, int32_t engine, ge_node_id a, ge_node_id b) {
  ge_node_id in[2];
  in[0] = a, in[1] = b;
  return add(g, op, name, engine, 2, in);
}
static ge_node_id data(ge_graph *g, const char *name) {
  ge_node_id id;
  TU_OK(ge_graph_add_data(g, name, GE_DTYPE_FLOAT32, 0, NULL, &id, NULL));
  ge_graph_node(g, id)->engine = SU_E_LOCAL;
  return id;
}
static ge_node_id output(ge_graph *g, uint32_t n, const ge_node_id *in) {
  ge_edge e[64];
  uint32_t k;
  ge_node_id id;
  for (k = 0; k < n; k++) e[k] = tu_e(in[k], 0);
  TU_OK(ge_graph_set_outputs(g, n, e, NULL, NULL));
  id = ge_graph_output_node(g);
  ge_graph_node(g, id)->engine = SU_E_LOCAL;
  return id;
}
static void label(ge_graph *g, ge_node_id id, const char *attr, const char *v) {
  TU_OK(ge_node_set_attr_string(g, id, attr, v, NULL));
}
static int32_t stream_of(ge_graph *g, ge_node_id id) { return ge_graph_node(g, id)->stream; }

static const char *mode_name(ge_stream_event_mode m);

/* Whether node a carries the continuous label of node b. */
static int same_continuous_label(ge_graph *g, uint32_t a, uint32_t b) {
  const ge_node *x = ge_graph_node(g, a), *y = ge_graph_node(g, b);
  const char *la = x ? ge_node_attr_string(x, GE_STREAM_ATTR_CONTINUOUS_LABEL, NULL) : NULL;
  const char *lb = y ? ge_node_attr_string(y, GE_STREAM_ATTR_CONTINUOUS_LABEL, NULL) : NULL;
  return la && lb && !strcmp(la, lb);
}

/* Allocates and checks the plan (checker, task counts, minimal events in
 * MINIMAL mode); returns the status of the allocation. */
static ge_status allocate_checked(ge_graph *g, const ge_stream_desc *d, ge_stream_plan *p, ge_error *err) {
  ge_error e2;
  ge_status st;
  memset(p, 0, sizeof *p);
  st = ge_stream_allocate(g, d, p, err);
  if (st != GE_OK) {
    printf("    allocation (events %s, task limit %u): %s\n", mode_name(d->events), d->task_limit, err->message);
    return st;
  }
  if (!ge_test__check(su_check_plan(g, p, &e2) == GE_OK, __FILE__, __LINE__, "plan: %s", e2.message)) return st;
  ge_test__check(su_check_tasks(g, p, d, &e2) == GE_OK, __FILE__, __LINE__, "tasks: %s", e2.message);
  if (su_split_boundaries(p))
    ge_test__check(su_check_split_chain(g, p, &e2) == GE_OK, __FILE__, __LINE__, "split: %s", e2.message);
  if (d->events == GE_STREAM_EVENTS_MINIMAL && ge_graph_node_count(g) <= 2000) {
    long want = su_min_events(g, p);
    ge_test__check((long)p->num_events == want, __FILE__, __LINE__, "num_events %u, fewest %ld", p->num_events, want);
  }
  return st;
}

/* ----------------------------------------------------- hand-made plans */

/* A plan from a stream per node id (assign) over the nodes in a
 * topological order of the dependencies; events for every cross-stream
 * dependency (one per pair). Free with hp_free. */
static void hp_build(ge_graph *g, const int32_t *assign, uint32_t num_streams, ge_stream_plan *p) {
  uint32_t bound = ge_graph_id_bound(g), n = ge_graph_node_count(g), i, k, s;
  ge_node_id *order = (ge_node_id *)malloc(sizeof(ge_node_id) * (n + 1));
  su_edges deps;
  memset(p, 0, sizeof *p);
  memset(&deps, 0, sizeof deps);
  TU_OK(ge_graph_topo_sort(g, GE_TOPO_BFS, order, NULL));
  p->num_streams = p->num_logical = num_streams;
  p->streams = (ge_stream_info *)calloc(num_streams + 1, sizeof(ge_stream_info));
  p->position = (uint32_t *)calloc(bound + 1, sizeof(uint32_t));
  p->id_bound = bound;
  for (s = 0; s < num_streams; s++) {
    p->streams[s].logical = (int32_t)s;
    p->streams[s].activated_by = GE_NONE;
    p->streams[s].nodes = (ge_node_id *)malloc(sizeof(ge_node_id) * (n + 1));
  }
  for (i = 0; i < n; i++) {
    ge_stream_info *si = &p->streams[assign[order[i]]];
    p->position[order[i]] = si->num_nodes;
    si->nodes[si->num_nodes++] = order[i];
    ge_graph_node(g, order[i])->stream = assign[order[i]];
  }
  su_dependencies(g, &deps);
  p->events = (ge_stream_event *)calloc(deps.n + 1, sizeof(ge_stream_event));
  for (i = 0; i < deps.n; i++) {
    uint32_t u = deps.src[i], v = deps.dst[i];
    int dup = 0;
    if (assign[u] == assign[v]) continue;
    for (k = 0; k < p->num_events; k++)
      if (p->events[k].send_node == u && p->events[k].recv_node == v) dup = 1;
    if (dup) continue;
    p->events[p->num_events].id = p->num_events;
    p->events[p->num_events].send_node = u;
    p->events[p->num_events].recv_node = v;
    p->events[p->num_events].send_stream = assign[u];
    p->events[p->num_events].recv_stream = assign[v];
    p->num_events++;
  }
  p->num_event_ids = p->num_events;
  for (s = 0; s < num_streams; s++) p->streams[s].num_tasks = p->streams[s].num_nodes;
  for (i = 0; i < p->num_events; i++) {
    p->streams[p->events[i].send_stream].num_tasks++;
    p->streams[p->events[i].recv_stream].num_tasks++;
  }
  su_edges_free(&deps);
  free(order);
}

static void hp_free(ge_stream_plan *p) {
  uint32_t s;
  for (s = 0; s < p->num_streams; s++) free(p->streams[s].nodes);
  free(p->streams);
  free(p->events);
  free(p->position);
  memset(p, 0, sizeof *p);
}

/* Removes event i (ids renumbered, task counts updated). */
static void hp_drop_event(ge_stream_plan *p, uint32_t i) {
  uint32_t k;
  p->streams[p->events[i].send_stream].num_tasks--;
  p->streams[p->events[i].recv_stream].num_tasks--;
  for (k = i + 1; k < p->num_events; k++) p->events[k - 1] = p->events[k];
  p->num_events--;
  for (k = 0; k < p->num_events; k++) p->events[k].id = k;
  p->num_event_ids = p->num_events;
}

/* A random DAG of plain compute nodes: n nodes, each reading 1-2 earlier
 * ones, some control edges; no Data or NetOutput. */
static ge_graph *small_dag(tu_rng *r, uint32_t n) {
  ge_graph *g = tu_new_graph("small");
  ge_node_id ids[512];
  uint32_t i;
  char name[16];
  for (i = 0; i < n; i++) {
    ge_node_id in[2];
    uint32_t k = i == 0 ? 0 : 1 + tu_below(r, 2), j;
    for (j = 0; j < k; j++) in[j] = ids[i - 1 - tu_below(r, i < 6 ? i : 6)];
    snprintf(name, sizeof name, "n%u", i);
    ids[i] = add(g, "Op", name, SU_E_AICORE, k, in);
    if (i > 2 && tu_below(r, 5) == 0) TU_OK(ge_graph_add_control(g, ids[tu_below(r, i - 1)], ids[i], NULL));
  }
  return g;
}

/* A chain a -> b -> c -> d. */
static ge_graph *chain4(ge_node_id *ids) {
  ge_graph *g = tu_new_graph("chain");
  ids[0] = add0(g, "Op", "a", SU_E_AICORE);
  ids[1] = add1(g, "Op", "b", SU_E_AICORE, ids[0]);
  ids[2] = add1(g, "Op", "c", SU_E_AICORE, ids[1]);
  ids[3] = add1(g, "Op", "d", SU_E_AICORE, ids[2]);
  return g;
}

GE_TEST(checker_accepts_valid_plans) {
  ge_node_id x[4];
  ge_graph *g = chain4(x);
  int32_t one[4] = {0, 0, 0, 0}, alt[4] = {0, 1, 0, 1};
  ge_stream_plan p;
  ge_error err;
  hp_build(g, one, 1, &p);
  GE_CHECK(su_check_plan(g, &p, &err) == GE_OK);
  GE_CHECK(su_check_tasks(g, &p, NULL, &err) == GE_OK);
  GE_CHECK_EQ_INT(su_min_events(g, &p), 0);
  hp_free(&p);
  hp_build(g, alt, 2, &p);
  GE_CHECK_EQ_INT(p.num_events, 3);
  GE_CHECK(su_check_plan(g, &p, &err) == GE_OK);
  GE_CHECK_EQ_INT(su_min_events(g, &p), 3);
  hp_free(&p);
  ge_graph_free(g);
}

GE_TEST(checker_catches_broken_plans) {
  ge_node_id x[4];
  ge_graph *g = chain4(x);
  int32_t alt[4] = {0, 1, 0, 1}, two[4] = {0, 0, 1, 1};
  ge_stream_plan p;
  ge_error err;
  ge_stream_desc d = base_desc();
  /* a missing event */
  hp_build(g, alt, 2, &p);
  hp_drop_event(&p, 1);
  GE_CHECK(su_check_plan(g, &p, &err) != GE_OK);
  GE_CHECK(strstr(err.message, "not ordered") != NULL);
  hp_free(&p);
  /* a cycle between streams: s0 = [a, b], s1 = [c, d]; events b -> c (the
   * dependency) and d -> a: a waits for d, which follows c, which waits b */
  hp_build(g, two, 2, &p);
  GE_REQUIRE(p.num_events == 1);
  p.events[1] = p.events[0];
  p.events[1].id = 1;
  p.events[1].send_node = x[3], p.events[1].recv_node = x[0];
  p.events[1].send_stream = 1, p.events[1].recv_stream = 0;
  p.num_events = p.num_event_ids = 2;
  p.streams[0].num_tasks++, p.streams[1].num_tasks++;
  GE_CHECK_EQ_INT(su_check_plan(g, &p, &err), GE_ERR_CYCLE);
  hp_free(&p);
  /* a wrong stream: node->stream disagrees with the plan */
  hp_build(g, two, 2, &p);
  ge_graph_node(g, x[1])->stream = 1;
  GE_CHECK(su_check_plan(g, &p, &err) != GE_OK);
  GE_CHECK(strstr(err.message, "node->stream") != NULL);
  ge_graph_node(g, x[1])->stream = 0;
  /* an event naming the wrong streams */
  p.events[0].recv_stream = 0;
  GE_CHECK(su_check_plan(g, &p, &err) != GE_OK);
  p.events[0].recv_stream = 1;
  GE_CHECK(su_check_plan(g, &p, &err) == GE_OK);
  /* ids not continuous */
  p.num_event_ids = 2;
  GE_CHECK(su_check_plan(g, &p, &err) != GE_OK);
  p.events[0].id = 1;
  GE_CHECK(su_check_plan(g, &p, &err) != GE_OK);
  p.events[0].id = 0, p.num_event_ids = 1;
  /* wrong task counts; the task limit */
  p.streams[0].num_tasks++;
  GE_CHECK(su_check_tasks(g, &p, NULL, &err) != GE_OK);
  p.streams[0].num_tasks--;
  d.task_limit = 3;
  GE_CHECK(su_check_tasks(g, &p, &d, &err) == GE_OK);
  d.task_limit = 2;
  GE_CHECK(su_check_tasks(g, &p, &d, &err) != GE_OK);
  d.task_limit = 1; /* over it only when one node's own tasks are: b has 2 (itself and a record) */
  GE_CHECK(su_check_tasks(g, &p, &d, &err) == GE_OK);
  p.streams[0].huge = p.streams[1].huge = 1; /* huge streams: in single-stream mode within the huge limit */
  d.task_limit = 2;
  d.huge_task_limit = 3;
  GE_CHECK(su_check_tasks(g, &p, &d, &err) != GE_OK);
  d.single_stream = 1;
  GE_CHECK(su_check_tasks(g, &p, &d, &err) == GE_OK);
  d.huge_task_limit = 2;
  GE_CHECK(su_check_tasks(g, &p, &d, &err) != GE_OK);
  p.streams[0].huge = p.streams[1].huge = 0;
  /* a node on two streams, a node on none, a stream in the wrong order */
  p.streams[1].nodes[0] = x[1];
  GE_CHECK(su_check_plan(g, &p, &err) != GE_OK);
  p.streams[1].nodes[0] = x[2];
  p.streams[1].num_nodes = 1;
  GE_CHECK(su_check_plan(g, &p, &err) != GE_OK);
  p.streams[1].num_nodes = 2;
  p.streams[0].nodes[0] = x[1], p.streams[0].nodes[1] = x[0];
  p.position[x[0]] = 1, p.position[x[1]] = 0;
  GE_CHECK(su_check_plan(g, &p, &err) != GE_OK);
  GE_CHECK(strstr(err.message, "not ordered") != NULL);
  p.streams[0].nodes[0] = x[0], p.streams[0].nodes[1] = x[1];
  p.position[x[0]] = 0, p.position[x[1]] = 1;
  GE_CHECK(su_check_plan(g, &p, &err) == GE_OK);
  /* an event within one stream; activation by a node of the same stream */
  p.events[0].send_node = x[2], p.events[0].send_stream = 1;
  GE_CHECK(su_check_plan(g, &p, &err) != GE_OK);
  p.events[0].send_node = x[1], p.events[0].send_stream = 0;
  p.streams[1].activated_by = x[3];
  GE_CHECK(su_check_plan(g, &p, &err) != GE_OK);
  /* activation replaces the event: a -> c on stream 1 */
  p.streams[1].activated_by = x[1];
  GE_CHECK(su_check_plan(g, &p, &err) == GE_OK);
  GE_CHECK_EQ_INT(su_min_events(g, &p), 0);
  hp_drop_event(&p, 0);
  GE_CHECK(su_check_plan(g, &p, &err) == GE_OK);
  hp_free(&p);
  ge_graph_free(g);
}

GE_TEST(checker_shared_event_ids) {
  ge_node_id x[4];
  ge_graph *g = chain4(x);
  int32_t alt[4] = {0, 1, 0, 1};
  ge_stream_plan p;
  ge_error err;
  hp_build(g, alt, 2, &p); /* events a -> b, b -> c, c -> d */
  p.events[0].id = 0, p.events[1].id = 1, p.events[2].id = 0; /* a -> b and c -> d share id 0 */
  p.num_event_ids = 2;
  GE_CHECK(su_check_plan(g, &p, &err) != GE_OK); /* not multi-dims */
  label(g, x[0], GE_STREAM_ATTR_BATCH_LABEL, "batch_0");
  label(g, x[1], GE_STREAM_ATTR_BATCH_LABEL, "batch_0");
  GE_CHECK(su_check_plan(g, &p, &err) != GE_OK); /* c -> d in no branch */
  label(g, x[2], GE_STREAM_ATTR_BATCH_LABEL, "batch_1");
  GE_CHECK(su_check_plan(g, &p, &err) != GE_OK); /* d unlabelled: c -> d in no branch */
  label(g, x[3], GE_STREAM_ATTR_BATCH_LABEL, "batch_1");
  GE_CHECK(su_check_plan(g, &p, &err) == GE_OK); /* branches batch_0 and batch_1 */
  label(g, x[2], GE_STREAM_ATTR_BATCH_LABEL, "batch_0");
  label(g, x[3], GE_STREAM_ATTR_BATCH_LABEL, "batch_0");
  GE_CHECK(su_check_plan(g, &p, &err) != GE_OK); /* one branch: the ids must differ */
  hp_free(&p);
  ge_graph_free(g);
}

/* On random graphs and random assignments: the clocks agree with the
 * bitsets, and removing events greedily while the checker still passes
 * ends at exactly the oracle's count (an irreducible subset of the
 * dependency events is the reduction's cross-stream edges). */
GE_TEST(oracle_matches_greedy_removal) {
  uint64_t seed;
  for (seed = 1; seed <= 300; seed++) {
    tu_rng r;
    ge_graph *g;
    uint32_t n, S, i, a, b, bound;
    int32_t assign[512];
    ge_stream_plan p;
    ge_error err;
    su_rel rel;
    su_bits before;
    long want;
    tu_seed(&r, seed);
    n = 2 + tu_below(&r, 60);
    S = 1 + tu_below(&r, 5);
    g = small_dag(&r, n);
    bound = ge_graph_id_bound(g);
    for (i = 0; i < bound; i++) assign[i] = (int32_t)tu_below(&r, S);
    hp_build(g, assign, S, &p);
    /* sometimes a stream is activated by a node before its first node in
     * the topological order (a node of another stream) */
    if (S > 1 && tu_below(&r, 3) == 0 && p.streams[1].num_nodes) {
      ge_node_id first = p.streams[1].nodes[0];
      for (i = 0; i < bound; i++)
        if (assign[i] != 1 && ge_graph_node(g, i)->topo_id < ge_graph_node(g, first)->topo_id) p.streams[1].activated_by = i;
    }
    if (!GE_CHECK(su_check_plan(g, &p, &err) == GE_OK)) {
      printf("    seed %llu: %s\n", (unsigned long long)seed, err.message);
      hp_free(&p);
      ge_graph_free(g);
      continue;
    }
    TU_OK(su_rel_build(g, &p, 1, &rel, &err));
    su_rel_bitsets(&rel, &before);
    for (a = 0; a < bound; a++)
      for (b = 0; b < bound; b++)
        if (su_rel_before(&rel, a, b) != (a != b && su_get(su_row(&before, b), a))) {
          GE_CHECK(!"clocks and bitsets disagree");
          a = b = bound;
        }
    free(before.w);
    su_rel_free(&rel);
    want = su_min_events(g, &p);
    GE_CHECK(want >= 0 && want <= (long)p.num_events);
    for (i = p.num_events; i-- > 0;) {
      ge_stream_event keep = p.events[i];
      uint32_t k;
      hp_drop_event(&p, i);
      if (su_check_plan(g, &p, &err) != GE_OK) { /* needed: put it back */
        for (k = p.num_events; k > i; k--) p.events[k] = p.events[k - 1];
        p.events[i] = keep;
        p.num_events++;
        for (k = 0; k < p.num_events; k++) p.events[k].id = k;
        p.num_event_ids = p.num_events;
        p.streams[keep.send_stream].num_tasks++;
        p.streams[keep.recv_stream].num_tasks++;
      }
    }
    GE_CHECK(su_check_plan(g, &p, &err) == GE_OK);
    if (!GE_CHECK_EQ_INT(p.num_events, want)) printf("    seed %llu\n", (unsigned long long)seed);
    hp_free(&p);
    ge_graph_free(g);
  }
}

GE_TEST(simulator) {
  ge_node_id x[4];
  ge_graph *g = chain4(x);
  int32_t one[4] = {0, 0, 0, 0}, alt[4] = {0, 1, 0, 1};
  double dur[4] = {1, 2, 3, 4}, ms;
  ge_stream_plan p;
  uint64_t seed;
  hp_build(g, one, 1, &p);
  GE_CHECK(su_simulate(g, &p, dur, 0.5, &ms) == GE_OK);
  GE_CHECK_NEAR(ms, 10, 1e-9);
  hp_free(&p);
  hp_build(g, alt, 2, &p);
  GE_CHECK(su_simulate(g, &p, dur, 0.5, &ms) == GE_OK);
  GE_CHECK_NEAR(ms, 11.5, 1e-9); /* three events of latency 0.5 */
  GE_CHECK_NEAR(su_critical_path(g, dur), 10, 1e-9);
  hp_free(&p);
  ge_graph_free(g);
  /* random graphs: one stream gives the sum; a stream per node and an
   * event per dependency, latency 0, gives the critical path; any valid
   * plan lies between */
  for (seed = 1; seed <= 100; seed++) {
    tu_rng r;
    uint32_t n, i, bound;
    int32_t assign[512];
    double d[512], sum = 0, cp, ms1, ms2;
    tu_seed(&r, seed + 1000);
    n = 2 + tu_below(&r, 80);
    g = small_dag(&r, n);
    bound = ge_graph_id_bound(g);
    su_durations(g, seed, (int)(seed & 1), d);
    for (i = 0; i < bound; i++) sum += d[i];
    cp = su_critical_path(g, d);
    for (i = 0; i < bound; i++) assign[i] = 0;
    hp_build(g, assign, 1, &p);
    GE_CHECK(su_simulate(g, &p, d, 1, &ms1) == GE_OK);
    GE_CHECK_NEAR(ms1, sum, 1e-9);
    hp_free(&p);
    for (i = 0; i < bound; i++) assign[i] = (int32_t)i;
    hp_build(g, assign, bound, &p);
    GE_CHECK(su_simulate(g, &p, d, 0, &ms2) == GE_OK);
    GE_CHECK_NEAR(ms2, cp, 1e-9);
    hp_free(&p);
    for (i = 0; i < bound; i++) assign[i] = (int32_t)tu_below(&r, 3);
    hp_build(g, assign, 3, &p);
    GE_CHECK(su_simulate(g, &p, d, 0, &ms2) == GE_OK);
    GE_CHECK(ms2 >= cp - 1e-9 && ms2 <= sum + 1e-9);
    hp_free(&p);
    ge_graph_free(g);
  }
}

/* ------------------------------------------------------ random graphs */

enum {
  F_LABELS = 1 << 0,
  F_USER_LABELS = 1 << 1,
  F_GROUPS = 1 << 2,
  F_NEW_ID = 1 << 3,
  F_BATCH = 1 << 4,
  F_CONTINUOUS = 1 << 5,
  F_ATTACHED = 1 << 6,
  F_CONTROL = 1 << 7,
  F_DYN = 1 << 8,
  F_ODD_ENGINES = 1 << 9,
  F_ACTIVE = 1 << 10
};

/* A random graph of about n nodes: Data inputs, compute nodes on the test
 * su_engines (HCCL AllReduce, AI CPU, RTS, GE local views and Consts, host
 * CPU), NetOutput of the sinks, and the features asked for. Sets
 * *labelled when a node has a stream label. */
static ge_graph *random_graph(tu_rng *r, uint32_t n, uint32_t features, int *labelled) {
  static const char *const ops[SU_NUM_ENGINES] = {"Conv", "RandomUniform", "AllReduce", "TopK", "NoOp", "Reshape", "Shape"};
  ge_graph *g = tu_new_graph("random");
  ge_node_id *ids = (ge_node_id *)malloc(sizeof(ge_node_id) * (n + 8));
  ge_node_id sinks[64];
  uint32_t n_data = 1 + tu_below(r, 3), i, total = 0, n_sinks = 0;
  char name[32];
  *labelled = 0;
  for (i = 0; i < n_data; i++) {
    snprintf(name, sizeof name, "in%u", i);
    ids[total++] = data(g, name);
  }
  for (i = 0; total < n; i++) {
    uint32_t pick = tu_below(r, 100), e, k, arity;
    ge_node_id in[3], id;
    ge_node *x;
    e = pick < 40 ? SU_E_AICORE : pick < 48 ? SU_E_DSA : pick < 60 ? SU_E_HCCL : pick < 72 ? SU_E_AICPU : pick < 77 ? SU_E_RTS
        : pick < 94 ? SU_E_LOCAL : SU_E_HOST;
    arity = e == SU_E_HCCL ? 1 : 1 + tu_below(r, 3);
    if (e == SU_E_LOCAL && tu_below(r, 3) == 0) arity = 0; /* a Const */
    for (k = 0; k < arity; k++)
      in[k] = tu_below(r, 10) < 7 ? ids[total - 1 - tu_below(r, total < 5 ? total : 5)] : ids[tu_below(r, total)];
    snprintf(name, sizeof name, "n%u", i);
    id = add(g, (features & F_ACTIVE) && e == SU_E_RTS ? "StreamActive" : arity ? ops[e] : "Const", name, (int32_t)e,
             arity, in);
    x = ge_graph_node(g, id);
    if ((features & F_ACTIVE) && e == SU_E_RTS) { /* a StreamActive activating the streams of labels */
      const char *labels[2];
      char l0[8], l1[8];
      snprintf(l0, sizeof l0, "L%u", tu_below(r, 3));
      snprintf(l1, sizeof l1, "L%u", tu_below(r, 3));
      labels[0] = l0, labels[1] = l1;
      TU_OK(ge_node_set_attr_strings(g, id, "_active_label_list", labels, 1 + (int32_t)tu_below(r, 2), NULL));
    }
    if ((features & F_ODD_ENGINES) && tu_below(r, 10) == 0) x->engine = tu_below(r, 2) ? -1 : 99; /* a plain engine */
    if ((features & F_CONTROL) && total > n_data && tu_below(r, 6) == 0)
      TU_OK(ge_graph_add_control(g, ids[n_data + tu_below(r, total - n_data)], id, NULL));
    if ((features & F_LABELS) && tu_below(r, 8) == 0) {
      snprintf(name, sizeof name, "L%u", tu_below(r, 3));
      label(g, id, GE_STREAM_ATTR_LABEL, name);
      *labelled = 1;
    }
    if ((features & F_USER_LABELS) && tu_below(r, 10) == 0) {
      snprintf(name, sizeof name, "U%u", tu_below(r, 2));
      label(g, id, GE_STREAM_ATTR_USER_LABEL, name);
      *labelled = 1;
    }
    if ((features & F_GROUPS) && tu_below(r, 10) == 0) {
      snprintf(name, sizeof name, "G%u", tu_below(r, 2));
      label(g, id, GE_STREAM_ATTR_PARALLEL_GROUP, e == SU_E_HCCL && tu_below(r, 2) ? "-1" : name);
    }
    if ((features & F_NEW_ID) && tu_below(r, 12) == 0)
      TU_OK(ge_node_set_attr_int(g, id, GE_STREAM_ATTR_NEW_STREAM_ID, 1 + tu_below(r, 2), NULL));
    if ((features & F_BATCH) && tu_below(r, 3) == 0) {
      snprintf(name, sizeof name, "batch_%u", tu_below(r, 3));
      label(g, id, GE_STREAM_ATTR_BATCH_LABEL, name);
    }
    if ((features & F_CONTINUOUS) && tu_below(r, 6) == 0) { /* labels of nearby nodes, sometimes far apart */
      snprintf(name, sizeof name, "C%u", tu_below(r, 8) ? i / 8 : tu_below(r, 2));
      label(g, id, GE_STREAM_ATTR_CONTINUOUS_LABEL, name);
    }
    if ((features & F_ATTACHED) && tu_below(r, 10) == 0) {
      snprintf(name, sizeof name, "K%u", tu_below(r, 2));
      label(g, id, GE_STREAM_ATTR_ATTACHED_REUSE_KEY, name);
    }
    if ((features & F_DYN) && tu_below(r, 8) == 0) {
      int64_t dim = -1;
      TU_OK(ge_node_set_output(g, id, 0, GE_DTYPE_FLOAT32, 1, &dim, NULL, NULL));
    }
    ids[total++] = id;
  }
  for (i = n_data; i < total; i++)
    if (ge_graph_node(g, ids[i])->num_uses == 0 && n_sinks < 64) sinks[n_sinks++] = ids[i];
  if (n_sinks) output(g, n_sinks, sinks);
  free(ids);
  return g;
}

/* A random topological order of g (Kahn picking a random ready node). */
static void random_order(ge_graph *g, tu_rng *r, ge_node_id *order) {
  uint32_t bound = ge_graph_id_bound(g), i, k, nready = 0, n = 0;
  uint32_t *indeg = (uint32_t *)calloc(bound + 1, sizeof(uint32_t));
  ge_node_id *ready = (ge_node_id *)malloc(sizeof(ge_node_id) * (bound + 1));
  su_edges deps;
  su_csr succ;
  memset(&deps, 0, sizeof deps);
  su_dependencies(g, &deps);
  su_csr_build(&succ, bound, &deps, 0);
  for (i = 0; i < deps.n; i++) indeg[deps.dst[i]]++;
  for (i = 0; i < bound; i++)
    if (ge_graph_node(g, i) && !indeg[i]) ready[nready++] = i;
  while (nready) {
    uint32_t j = tu_below(r, nready), u = ready[j];
    ready[j] = ready[--nready];
    order[n++] = u;
    for (k = succ.start[u]; k < succ.start[u + 1]; k++)
      if (--indeg[succ.adj[k]] == 0) ready[nready++] = succ.adj[k];
  }
  su_edges_free(&deps);
  su_csr_free(&succ);
  free(indeg);
  free(ready);
}

/* Prints a plan (for reproducers): streams with their nodes, then events. */
static void dump_plan(ge_graph *g, const ge_stream_plan *p) {
  uint32_t s, k;
  for (s = 0; s < p->num_streams; s++) {
    printf("  stream %u (logical %d%s%s%s, %u tasks", s, p->streams[s].logical, p->streams[s].hccl ? ", hccl" : "",
           p->streams[s].attached ? ", attached" : "", p->streams[s].huge ? ", huge" : "", p->streams[s].num_tasks);
    if (p->streams[s].label) printf(", label %s", p->streams[s].label);
    if (p->streams[s].activated_by != GE_NONE) printf(", activated by %s", su_name(g, p->streams[s].activated_by));
    printf("):");
    for (k = 0; k < p->streams[s].num_nodes; k++) {
      const ge_node *x = ge_graph_node(g, p->streams[s].nodes[k]);
      printf(" %s(%s,e%d)", x->name, x->op, x->engine);
    }
    printf("\n");
  }
  for (k = 0; k < p->num_events; k++)
    printf("  event %u: %s (s%d) -> %s (s%d)\n", p->events[k].id, su_name(g, p->events[k].send_node),
           p->events[k].send_stream, su_name(g, p->events[k].recv_node), p->events[k].recv_stream);
}

static const char *mode_name(ge_stream_event_mode m) {
  return m == GE_STREAM_EVENTS_MINIMAL ? "minimal" : m == GE_STREAM_EVENTS_GE_PASSES ? "ge_passes" : "all";
}

static uint32_t random_continuous_refusals, random_minimal_checked;

/* One seeded case; returns 0 when a check failed (the caller prints the
 * seed). */
static int random_case(uint64_t seed, int verbose) {
  tu_rng r;
  ge_graph *g;
  ge_stream_desc d = base_desc();
  ge_stream_plan p;
  ge_error err;
  tu_alloc_state mem;
  uint32_t n, features, i, bound, k, splits;
  ge_node_id *order = NULL;
  int labelled, failures = ge_test__s.cur_failures;
  long fewest, fewest_logical;
  ge_status st;
  tu_seed(&r, seed);
  n = 2 + tu_below(&r, 199);
  d.single_stream = tu_below(&r, 12) == 0;
  features = (uint32_t)tu_next(&r) & 0x7FF;
  if (d.single_stream) features &= F_LABELS | F_BATCH | F_CONTINUOUS | F_CONTROL | F_DYN | F_ODD_ENGINES | F_ACTIVE;
  g = random_graph(&r, n, features, &labelled);
  bound = ge_graph_id_bound(g);
  k = tu_below(&r, 10);
  d.dynamic = k < 6 ? -1 : k < 8 ? 1 : 0; /* static, dynamic, decided from the graph */
  d.engine_parallel = (int)tu_below(&r, 2);
  d.ac_parallel = (int)tu_below(&r, 2);
  d.hcom_parallel = tu_below(&r, 3) == 0;
  d.notify = tu_below(&r, 10) == 0;
  d.max_parallel = tu_below(&r, 3) ? 0 : 1 + tu_below(&r, 8);
  if (tu_below(&r, 3) == 0) {
    d.task_limit = 3 + tu_below(&r, 30);
    d.reserved_tasks = tu_below(&r, 3);
    if (d.single_stream && tu_below(&r, 2)) d.huge_task_limit = 100000;
  }
  k = tu_below(&r, 10);
  d.events = k < 6 ? GE_STREAM_EVENTS_MINIMAL : k < 8 ? GE_STREAM_EVENTS_GE_PASSES : GE_STREAM_EVENTS_ALL;
  if (tu_below(&r, 3) == 0) {
    order = (ge_node_id *)malloc(sizeof(ge_node_id) * (bound + 1));
    random_order(g, &r, order);
    d.order = order;
  }
  d.allocator = tu_allocator(&mem);
  if (verbose)
    printf("seed %llu: %u nodes, features 0x%x, single %d dynamic %d engine_parallel %d ac %d hcom %d notify %d "
           "max_parallel %u task_limit %u reserved %u huge %u events %s order %d\n",
           (unsigned long long)seed, ge_graph_node_count(g), features, d.single_stream, d.dynamic, d.engine_parallel,
           d.ac_parallel, d.hcom_parallel, d.notify, d.max_parallel, d.task_limit, d.reserved_tasks,
           d.huge_task_limit, mode_name(d.events), order != NULL);
  memset(&p, 0, sizeof p);
  st = ge_stream_allocate(g, &d, &p, &err);
  if (d.single_stream && labelled) {
    GE_CHECK(st != GE_OK);
    if (st == GE_OK) ge_stream_plan_free(&p);
    goto done;
  }
  if (st != GE_OK && d.task_limit && (features & F_CONTINUOUS) && strstr(err.message, "continuous")) {
    random_continuous_refusals++; /* a continuous label's nodes need more than the limit: documented refusal */
    goto done;
  }
  if (!GE_CHECK(st == GE_OK)) {
    printf("    seed %llu: %s\n", (unsigned long long)seed, err.message);
    goto done;
  }
  if (!ge_test__check(su_check_plan(g, &p, &err) == GE_OK, __FILE__, __LINE__, "seed %llu: %s",
                      (unsigned long long)seed, err.message))
    goto free_plan;
  splits = su_split_boundaries(&p);
  if (verbose > 1) dump_plan(g, &p);
  ge_test__check(su_check_tasks(g, &p, &d, &err) == GE_OK, __FILE__, __LINE__, "seed %llu: %s",
                 (unsigned long long)seed, err.message);
  if (splits)
    ge_test__check(su_check_split_chain(g, &p, &err) == GE_OK, __FILE__, __LINE__, "seed %llu: %s",
                   (unsigned long long)seed, err.message);
  /* the fewest events, and the figures of the other modes (computed on
   * the logical assignment, before the split) */
  fewest = su_min_events(g, &p);
  fewest_logical = su_min_events_ex(g, &p, SU_LOGICAL);
  ge_test__check(fewest >= fewest_logical && fewest <= fewest_logical + (long)splits, __FILE__, __LINE__,
                 "seed %llu: oracle: %ld with the split chain, %ld before the split, %u boundaries",
                 (unsigned long long)seed, fewest, fewest_logical, splits);
  if (d.events == GE_STREAM_EVENTS_MINIMAL) {
    ge_test__check((long)p.num_events == fewest, __FILE__, __LINE__,
                   "seed %llu: num_events %u, fewest %ld (split boundaries %u, fewest before the split %ld)",
                   (unsigned long long)seed, p.num_events, fewest, splits, fewest_logical);
    random_minimal_checked++;
  }
  ge_test__check((long)p.events_ge_passes >= fewest_logical && p.events_all >= p.events_ge_passes, __FILE__, __LINE__,
                 "seed %llu: fewest %ld, ge passes %u, all %u", (unsigned long long)seed, fewest_logical,
                 p.events_ge_passes, p.events_all);
  if (d.events == GE_STREAM_EVENTS_GE_PASSES)
    ge_test__check(splits ? p.num_events >= p.events_ge_passes && p.num_events <= p.events_ge_passes + splits
                          : p.num_events == p.events_ge_passes,
                   __FILE__, __LINE__, "seed %llu: ge_passes mode: num_events %u, events_ge_passes %u, splits %u",
                   (unsigned long long)seed, p.num_events, p.events_ge_passes, splits);
  if (d.events == GE_STREAM_EVENTS_ALL)
    ge_test__check(splits ? p.num_events >= p.events_all : p.num_events == p.events_all, __FILE__, __LINE__,
                   "seed %llu: all mode: num_events %u, events_all %u, splits %u", (unsigned long long)seed,
                   p.num_events, p.events_all, splits);
  /* continuous labels: consecutive nodes of a logical stream with one label share a physical stream */
  if (features & F_CONTINUOUS) {
    uint32_t s, t, a;
    ge_node_id prev = GE_NONE;
    for (s = 0; s < p.num_streams; s++) {
      int first_piece = 1;
      for (t = 0; t < s; t++)
        if (p.streams[t].logical == p.streams[s].logical) first_piece = 0;
      if (!first_piece) continue;
      prev = GE_NONE;
      for (t = s; t < p.num_streams; t++) {
        if (p.streams[t].logical != p.streams[s].logical) continue;
        for (a = 0; a < p.streams[t].num_nodes; a++) {
          ge_node_id x = p.streams[t].nodes[a];
          const char *lx = ge_node_attr_string(ge_graph_node(g, x), GE_STREAM_ATTR_CONTINUOUS_LABEL, NULL);
          const char *lp = prev == GE_NONE ? NULL : ge_node_attr_string(ge_graph_node(g, prev), GE_STREAM_ATTR_CONTINUOUS_LABEL, NULL);
          if (lx && lp && !strcmp(lx, lp) && stream_of(g, x) != stream_of(g, prev))
            ge_test__check(0, __FILE__, __LINE__, "seed %llu: continuous label '%s' split between '%s' (stream %d) and "
                           "'%s' (stream %d)", (unsigned long long)seed, lx, su_name(g, prev), stream_of(g, prev),
                           su_name(g, x), stream_of(g, x));
          prev = x;
        }
      }
    }
  }
  /* happens-before queries agree with the checker's relation */
  {
    su_rel rel;
    if (su_rel_build(g, &p, 1, &rel, &err) == GE_OK) {
      for (i = 0; i < 300; i++) {
        uint32_t a = tu_below(&r, bound), b = tu_below(&r, bound);
        if (!ge_graph_node(g, a) || !ge_graph_node(g, b)) continue;
        if (!ge_test__check(ge_stream_happens_before(&p, a, b) == su_rel_before(&rel, a, b), __FILE__, __LINE__,
                            "seed %llu: happens_before('%s', '%s') = %d, checker %d", (unsigned long long)seed,
                            su_name(g, a), su_name(g, b), ge_stream_happens_before(&p, a, b),
                            su_rel_before(&rel, a, b)))
          break;
      }
    }
    su_rel_free(&rel);
  }
  /* modes and flags */
  if (d.single_stream) GE_CHECK_EQ_INT(p.num_logical, 1);
  GE_CHECK_EQ_INT(p.single_stream, d.single_stream);
  if (d.dynamic) GE_CHECK_EQ_INT(p.dynamic, d.dynamic > 0);
  GE_CHECK(p.num_event_ids <= p.num_events);
  if (!(features & F_BATCH)) GE_CHECK_EQ_INT(p.num_event_ids, p.num_events);
  /* a given order is kept within every stream */
  if (order) {
    uint32_t *at = (uint32_t *)malloc(sizeof(uint32_t) * (bound + 1)), s;
    for (i = 0; i < ge_graph_node_count(g); i++) at[order[i]] = i;
    for (s = 0; s < p.num_streams; s++)
      for (i = 1; i < p.streams[s].num_nodes; i++)
        if (!ge_test__check(at[p.streams[s].nodes[i - 1]] < at[p.streams[s].nodes[i]], __FILE__, __LINE__,
                            "seed %llu: stream %u does not follow the given order", (unsigned long long)seed, s))
          break;
    free(at);
  }
  /* makespan between the critical path and the sum */
  {
    double *dur = (double *)malloc(sizeof(double) * (bound + 1)), ms, sum = 0, cp;
    su_durations(g, seed, 0, dur);
    for (i = 0; i < bound; i++) sum += dur[i];
    cp = su_critical_path(g, dur);
    GE_CHECK(su_simulate(g, &p, dur, 0, &ms) == GE_OK);
    GE_CHECK(ms >= cp - 1e-9 && ms <= sum + 1e-9);
    if (p.num_streams == 1) GE_CHECK_NEAR(ms, sum, 1e-9);
    free(dur);
  }
  /* deterministic: a second allocation gives the same plan */
  if (seed % 16 == 0) {
    ge_stream_plan q;
    memset(&q, 0, sizeof q);
    if (GE_CHECK(ge_stream_allocate(g, &d, &q, &err) == GE_OK)) {
      GE_CHECK_EQ_INT(q.num_streams, p.num_streams);
      GE_CHECK_EQ_INT(q.num_events, p.num_events);
      if (q.num_events == p.num_events)
        GE_CHECK(memcmp(q.events, p.events, sizeof(ge_stream_event) * p.num_events) == 0);
      ge_stream_plan_free(&q);
    }
  }
  if (d.events != GE_STREAM_EVENTS_MINIMAL) { /* the same options in the default mode (last: it reassigns node->stream) */
    ge_stream_desc m = d;
    ge_stream_plan q;
    m.events = GE_STREAM_EVENTS_MINIMAL;
    memset(&q, 0, sizeof q);
    if (GE_CHECK(ge_stream_allocate(g, &m, &q, &err) == GE_OK)) {
      long want;
      ge_test__check(su_check_plan(g, &q, &err) == GE_OK && su_check_tasks(g, &q, &m, &err) == GE_OK, __FILE__,
                     __LINE__, "seed %llu, minimal mode: %s", (unsigned long long)seed, err.message);
      want = su_min_events(g, &q);
      ge_test__check((long)q.num_events == want, __FILE__, __LINE__, "seed %llu, minimal mode: num_events %u, fewest %ld",
                     (unsigned long long)seed, q.num_events, want);
      ge_test__check(q.num_events <= p.num_events, __FILE__, __LINE__, "seed %llu: minimal %u events, %s mode %u",
                     (unsigned long long)seed, q.num_events, mode_name(d.events), p.num_events);
      random_minimal_checked++;
      ge_stream_plan_free(&q);
    }
  }
free_plan:
  ge_stream_plan_free(&p);
  GE_CHECK_EQ_INT(mem.outstanding, 0);
  GE_CHECK_EQ_INT(mem.size_mismatches, 0);
done:
  free(order);
  ge_graph_free(g);
  return ge_test__s.cur_failures == failures;
}

/* Seeds 1..GE_STREAM_SEEDS (default 12000, of which at least 10000 must
 * allocate: the others are single-stream graphs with labels or continuous
 * labels over the task limit, both refused); GE_STREAM_SEED=n runs one seed
 * verbosely. */
GE_TEST(random_dags) {
  const char *one = getenv("GE_STREAM_SEED"), *count = getenv("GE_STREAM_SEEDS");
  uint64_t seed, n = count ? strtoull(count, NULL, 10) : 12000;
  uint32_t bad = 0;
  if (one) {
    random_case(strtoull(one, NULL, 10), getenv("GE_STREAM_DUMP") ? 2 : 1);
    return;
  }
  for (seed = 1; seed <= n; seed++)
    if (!random_case(seed, getenv("GE_STREAM_VERBOSE") != NULL) && ++bad <= 5) printf("    failed seed %llu (GE_STREAM_SEED=%llu to rerun)\n",
                                                    (unsigned long long)seed, (unsigned long long)seed);
  if (bad) printf("    %u of %llu seeds failed\n", bad, (unsigned long long)n);
  printf("    (%u DAGs checked for the fewest events; %u seeds refused for a continuous label over the task "
         "limit)\n", random_minimal_checked, random_continuous_refusals);
  if (!count) GE_CHECK(random_minimal_checked >= 10000);
}

/* ------------------------------------------------------ pass behaviours */

/* A(s1) -> Const(s2) -> B(s1): the skipped engine's Const joins s1. */
GE_TEST(skipped_engine_joins_neighbours) {
  ge_graph *g = tu_new_graph("skip");
  ge_node_id in = data(g, "in"), a, c, b, x, y, out;
  ge_stream_desc d = base_desc();
  ge_stream_plan p;
  ge_error err;
  a = add1(g, "Conv", "A", SU_E_AICORE, in);
  x = add1(g, "Conv", "X", SU_E_AICORE, in); /* a parallel branch, so there is more than one stream */
  y = add1(g, "Conv", "Y", SU_E_AICORE, x);
  c = add0(g, "Const", "Const", SU_E_LOCAL);
  TU_OK(ge_graph_add_control(g, a, c, NULL));
  b = add2(g, "Add", "B", SU_E_AICORE, a, c);
  {
    ge_node_id o[2];
    o[0] = b, o[1] = y;
    out = output(g, 2, o);
  }
  (void)out;
  GE_REQUIRE(allocate_checked(g, &d, &p, &err) == GE_OK);
  GE_CHECK_EQ_INT(stream_of(g, c), stream_of(g, a));
  GE_CHECK_EQ_INT(stream_of(g, b), stream_of(g, a));
  ge_stream_plan_free(&p);
  ge_graph_free(g);
}

/* An independent engine (HCCL) gets streams of its own. */
GE_TEST(independent_engine_own_stream) {
  ge_graph *g = tu_new_graph("hccl");
  ge_node_id in = data(g, "in"), a, ar, b, c, out;
  ge_stream_desc d = base_desc();
  ge_stream_plan p;
  ge_error err;
  uint32_t k;
  a = add1(g, "Conv", "A", SU_E_AICORE, in);
  ar = add1(g, "AllReduce", "AR", SU_E_HCCL, a);
  b = add1(g, "Conv", "B", SU_E_AICORE, a);
  c = add2(g, "Add", "C", SU_E_AICORE, ar, b);
  out = output(g, 1, &c);
  (void)out;
  GE_REQUIRE(allocate_checked(g, &d, &p, &err) == GE_OK);
  GE_CHECK(stream_of(g, ar) != stream_of(g, a));
  GE_CHECK(stream_of(g, ar) != stream_of(g, c));
  GE_CHECK(p.streams[stream_of(g, ar)].hccl);
  for (k = 0; k < p.streams[stream_of(g, ar)].num_nodes; k++)
    GE_CHECK_EQ_INT(ge_graph_node(g, p.streams[stream_of(g, ar)].nodes[k])->engine, SU_E_HCCL);
  GE_CHECK(!p.streams[stream_of(g, a)].hccl);
  ge_stream_plan_free(&p);
  ge_graph_free(g);
}

/* Nodes with one label share a stream; different labels differ; the user
 * label wins over the stream label. */
GE_TEST(labels_share_streams) {
  ge_graph *g = tu_new_graph("labels");
  ge_node_id in = data(g, "in"), a1, a2, b1, b2, u, o[3];
  ge_stream_desc d = base_desc();
  ge_stream_plan p;
  ge_error err;
  a1 = add1(g, "Conv", "a1", SU_E_AICORE, in);
  a2 = add1(g, "Conv", "a2", SU_E_AICORE, a1);
  b1 = add1(g, "Conv", "b1", SU_E_AICORE, in);
  b2 = add1(g, "Conv", "b2", SU_E_AICORE, b1);
  u = add1(g, "Conv", "u", SU_E_AICORE, in);
  label(g, a2, GE_STREAM_ATTR_LABEL, "L");
  label(g, b2, GE_STREAM_ATTR_LABEL, "L");
  label(g, a1, GE_STREAM_ATTR_LABEL, "M");
  label(g, u, GE_STREAM_ATTR_LABEL, "M");
  label(g, u, GE_STREAM_ATTR_USER_LABEL, "L");
  o[0] = a2, o[1] = b2, o[2] = u;
  output(g, 3, o);
  GE_REQUIRE(allocate_checked(g, &d, &p, &err) == GE_OK);
  GE_CHECK_EQ_INT(stream_of(g, a2), stream_of(g, b2));
  GE_CHECK(stream_of(g, a1) != stream_of(g, a2));
  GE_CHECK_STR(p.streams[stream_of(g, a2)].label, "L");
  GE_CHECK_STR(p.streams[stream_of(g, a1)].label, "M");
  GE_CHECK(stream_of(g, u) != stream_of(g, a1)); /* its user label "L" wins */
  ge_stream_plan_free(&p);
  ge_graph_free(g);
}

/* A parallel group gets a new stream, shared by the group. */
GE_TEST(parallel_group_new_stream) {
  ge_graph *g = tu_new_graph("group");
  ge_node_id in = data(g, "in"), a, b, c, e, f, o[2];
  ge_stream_desc d = base_desc();
  ge_stream_plan p;
  ge_error err;
  a = add1(g, "Conv", "a", SU_E_AICORE, in);
  b = add1(g, "Conv", "b", SU_E_AICORE, a);
  c = add1(g, "Conv", "c", SU_E_AICORE, b);
  e = add1(g, "Conv", "e", SU_E_AICORE, c);
  f = add1(g, "Conv", "f", SU_E_AICORE, a);
  label(g, b, GE_STREAM_ATTR_PARALLEL_GROUP, "g1");
  label(g, f, GE_STREAM_ATTR_PARALLEL_GROUP, "g1");
  o[0] = e, o[1] = f;
  output(g, 2, o);
  GE_REQUIRE(allocate_checked(g, &d, &p, &err) == GE_OK);
  GE_CHECK(stream_of(g, b) != stream_of(g, a));
  GE_CHECK(stream_of(g, b) != stream_of(g, c));
  GE_CHECK_EQ_INT(stream_of(g, b), stream_of(g, f));
  ge_stream_plan_free(&p);
  ge_graph_free(g);
}

/* hcom_parallel: the successors of an AllReduce go to new streams, so the
 * backward chain is not held up by the collective. */
GE_TEST(hcom_parallel_moves_successors) {
  ge_graph *g = tu_new_graph("hcom");
  ge_node_id in = data(g, "in"), b1, b2, b3, ar1, ar2, u1, u2, o[3];
  ge_stream_desc d = base_desc();
  ge_stream_plan p;
  ge_error err;
  b1 = add1(g, "Conv", "bwd1", SU_E_AICORE, in);
  b2 = add1(g, "Conv", "bwd2", SU_E_AICORE, b1);
  b3 = add1(g, "Conv", "bwd3", SU_E_AICORE, b2);
  ar1 = add1(g, "AllReduce", "ar1", SU_E_HCCL, b1);
  ar2 = add1(g, "AllReduce", "ar2", SU_E_HCCL, b2);
  u1 = add1(g, "ApplyGradient", "upd1", SU_E_AICORE, ar1);
  u2 = add1(g, "ApplyGradient", "upd2", SU_E_AICORE, ar2);
  o[0] = b3, o[1] = u1, o[2] = u2;
  output(g, 3, o);
  d.hcom_parallel = 1;
  GE_REQUIRE(allocate_checked(g, &d, &p, &err) == GE_OK);
  GE_CHECK(stream_of(g, u1) != stream_of(g, b1));
  GE_CHECK(stream_of(g, u1) != stream_of(g, b2));
  GE_CHECK(stream_of(g, u1) != stream_of(g, b3));
  GE_CHECK(stream_of(g, u2) != stream_of(g, b3));
  GE_CHECK(stream_of(g, u1) != stream_of(g, ar1));
  GE_CHECK(stream_of(g, b2) == stream_of(g, b1) && stream_of(g, b3) == stream_of(g, b1));
  ge_stream_plan_free(&p);
  ge_graph_free(g);
}

/* Dynamic graphs: one stream by default; with engine parallelism, Data and
 * NetOutput stay on stream 0. */
GE_TEST(dynamic_streams) {
  ge_graph *g = tu_new_graph("dyn");
  ge_node_id in = data(g, "in"), a, t, ar, b, o[2], out;
  ge_stream_desc d = base_desc();
  ge_stream_plan p;
  ge_error err;
  int64_t dim = -1;
  a = add1(g, "Conv", "a", SU_E_AICORE, in);
  t = add1(g, "TopK", "t", SU_E_AICPU, in);
  ar = add1(g, "AllReduce", "ar", SU_E_HCCL, a);
  b = add2(g, "Add", "b", SU_E_AICORE, ar, t);
  TU_OK(ge_node_set_output(g, a, 0, GE_DTYPE_FLOAT32, 1, &dim, NULL, NULL));
  o[0] = b, o[1] = t;
  out = output(g, 2, o);
  d.dynamic = 1;
  GE_REQUIRE(allocate_checked(g, &d, &p, &err) == GE_OK);
  GE_CHECK_EQ_INT(p.num_streams, 1);
  GE_CHECK_EQ_INT(p.num_events, 0);
  GE_CHECK_EQ_INT(p.dynamic, 1);
  ge_stream_plan_free(&p);
  d.engine_parallel = 1;
  d.ac_parallel = 1;
  GE_REQUIRE(allocate_checked(g, &d, &p, &err) == GE_OK);
  GE_CHECK(p.num_streams > 1);
  GE_CHECK_EQ_INT(stream_of(g, in), 0);
  GE_CHECK_EQ_INT(stream_of(g, out), 0);
  ge_stream_plan_free(&p);
  /* decided from the graph: an unknown dimension makes it dynamic */
  d = base_desc();
  d.dynamic = 0;
  GE_REQUIRE(allocate_checked(g, &d, &p, &err) == GE_OK);
  GE_CHECK_EQ_INT(p.dynamic, 1);
  ge_stream_plan_free(&p);
  ge_graph_free(g);
}

/* A StreamActive node listing a label activates that label's stream: its
 * first node needs no event from the activator's side (seed 002 §4.3.3,
 * OptimizeByStreamActivate); generate_nodes lists the stream on it. */
GE_TEST(stream_activation) {
  ge_graph *g = tu_new_graph("active");
  ge_node_id in = data(g, "in"), a, act, b, c, o[2];
  ge_stream_desc d = base_desc();
  ge_stream_plan p;
  ge_error err;
  const char *labels[1] = {"branch"};
  const ge_attr *at;
  a = add1(g, "Conv", "a", SU_E_AICORE, in);
  act = add1(g, "StreamActive", "active", SU_E_RTS, a);
  TU_OK(ge_node_set_attr_strings(g, act, "_active_label_list", labels, 1, NULL));
  b = add1(g, "Conv", "b", SU_E_AICORE, a);
  c = add1(g, "Conv", "c", SU_E_AICORE, a);
  TU_OK(ge_graph_add_control(g, act, b, NULL));
  label(g, b, GE_STREAM_ATTR_LABEL, "branch");
  o[0] = b, o[1] = c;
  output(g, 2, o);
  GE_REQUIRE(allocate_checked(g, &d, &p, &err) == GE_OK);
  GE_CHECK(stream_of(g, b) != stream_of(g, act));
  GE_CHECK_EQ_INT(p.streams[stream_of(g, b)].activated_by, act);
  {
    uint32_t k;
    for (k = 0; k < p.num_events; k++) GE_CHECK(p.events[k].recv_node != b);
  }
  GE_CHECK(ge_stream_generate_nodes(g, &p, &err) == GE_OK);
  at = ge_node_attr(ge_graph_node(g, act), "active_streams");
  GE_CHECK(at && at->type == GE_ATTR_INTS && at->count == 1 && at->v.ints[0] == stream_of(g, b));
  ge_stream_plan_free(&p);
  ge_graph_free(g);
}

/* Attached streams come after the main ones; one per reuse key. */
GE_TEST(attached_streams) {
  ge_graph *g = tu_new_graph("attached");
  ge_node_id in = data(g, "in"), a, b, c, o[2];
  ge_stream_desc d = base_desc();
  ge_stream_plan p;
  ge_error err;
  uint32_t s, main_count = 0;
  a = add1(g, "SuperKernel", "a", SU_E_AICORE, in);
  b = add1(g, "SuperKernel", "b", SU_E_AICORE, a);
  c = add1(g, "SuperKernel", "c", SU_E_AICORE, in);
  label(g, a, GE_STREAM_ATTR_ATTACHED_REUSE_KEY, "k1");
  label(g, b, GE_STREAM_ATTR_ATTACHED_REUSE_KEY, "k1");
  label(g, c, GE_STREAM_ATTR_ATTACHED_REUSE_KEY, "k2");
  o[0] = b, o[1] = c;
  output(g, 2, o);
  GE_REQUIRE(allocate_checked(g, &d, &p, &err) == GE_OK);
  GE_CHECK_EQ_INT(p.num_attached, 2);
  GE_REQUIRE(p.attached_stream != NULL);
  GE_CHECK_EQ_INT(p.attached_stream[a], p.attached_stream[b]);
  GE_CHECK(p.attached_stream[a] != p.attached_stream[c]);
  GE_CHECK(p.attached_stream[a] >= (int32_t)(p.num_logical - p.num_attached));
  GE_CHECK(p.attached_stream[c] >= (int32_t)(p.num_logical - p.num_attached));
  GE_CHECK(p.attached_stream[a] < (int32_t)p.num_logical && p.attached_stream[c] < (int32_t)p.num_logical);
  GE_CHECK_EQ_INT(p.attached_stream[in], -1);
  for (s = 0; s < p.num_streams; s++)
    if (!p.streams[s].attached) {
      main_count++;
      GE_CHECK(p.streams[s].logical < (int32_t)(p.num_logical - p.num_attached));
    }
  for (s = 0; s < p.num_streams; s++)
    if (p.streams[s].attached) GE_CHECK(s >= main_count); /* numbered after the main streams */
  ge_stream_plan_free(&p);
  ge_graph_free(g);
}

/* Multi-dims: the events of each batch label are numbered on their own and
 * share ids with the other labels' (seed 002 §4.3.4). */
GE_TEST(multi_dims_event_reuse) {
  ge_graph *g = tu_new_graph("dims");
  ge_node_id in = data(g, "in"), ends[4], pre;
  ge_stream_desc d = base_desc();
  ge_stream_plan p;
  ge_error err;
  uint32_t bdim, k, per_label[3] = {0, 0, 0}, unlabelled = 0, most = 0;
  char name[32], lab[16];
  pre = add1(g, "Conv", "pre", SU_E_AICORE, in);
  for (bdim = 0; bdim < 3; bdim++) { /* a chain through AllReduces: 2 events per AllReduce */
    ge_node_id x = pre;
    snprintf(lab, sizeof lab, "batch_%u", bdim);
    for (k = 0; k < bdim + 2; k++) {
      snprintf(name, sizeof name, "c%u_%u", bdim, k);
      x = add1(g, "Conv", name, SU_E_AICORE, x);
      label(g, x, GE_STREAM_ATTR_BATCH_LABEL, lab);
      snprintf(name, sizeof name, "ar%u_%u", bdim, k);
      x = add1(g, "AllReduce", name, SU_E_HCCL, x);
      label(g, x, GE_STREAM_ATTR_BATCH_LABEL, lab);
    }
    snprintf(name, sizeof name, "end%u", bdim);
    x = add1(g, "Conv", name, SU_E_AICORE, x);
    label(g, x, GE_STREAM_ATTR_BATCH_LABEL, lab);
    ends[bdim] = x;
  }
  output(g, 3, ends);
  GE_REQUIRE(allocate_checked(g, &d, &p, &err) == GE_OK);
  for (k = 0; k < p.num_events; k++) {
    const char *l = su_event_branch(g, &p.events[k]);
    if (l) per_label[l[6] - '0']++;
    else unlabelled++;
  }
  for (k = 0; k < 3; k++)
    if (per_label[k] > most) most = per_label[k];
  GE_CHECK(most > 0);
  GE_CHECK(p.num_event_ids < p.num_events);
  GE_CHECK_EQ_INT(p.num_event_ids, unlabelled + most);
  ge_stream_plan_free(&p);
  ge_graph_free(g);
}

/* A forward chain c[k] with an AllReduce of each c[k] read two steps
 * later: two events per AllReduce, none implied by another. */
static ge_graph *allreduce_ladder(uint32_t n) {
  ge_graph *g = tu_new_graph("ladder");
  ge_node_id *c = (ge_node_id *)malloc(sizeof(ge_node_id) * (n + 1)), *ar = (ge_node_id *)malloc(sizeof(ge_node_id) * (n + 1));
  uint32_t k;
  char name[32];
  for (k = 0; k < n; k++) {
    snprintf(name, sizeof name, "c%u", k);
    c[k] = k == 0 ? add1(g, "Conv", name, SU_E_AICORE, data(g, "in"))
           : k == 1 ? add1(g, "Conv", name, SU_E_AICORE, c[0]) : add2(g, "Add", name, SU_E_AICORE, c[k - 1], ar[k - 2]);
    snprintf(name, sizeof name, "ar%u", k);
    ar[k] = add1(g, "AllReduce", name, SU_E_HCCL, c[k]);
  }
  {
    ge_node_id o[3];
    o[0] = c[n - 1], o[1] = ar[n - 1], o[2] = ar[n - 2];
    output(g, 3, o);
  }
  free(c);
  free(ar);
  return g;
}

/* A chain through n AllReduces. */
static ge_graph *allreduce_chain(uint32_t n) {
  ge_graph *g = tu_new_graph("arc");
  ge_node_id x = data(g, "in");
  uint32_t k;
  char name[32];
  for (k = 0; k < n; k++) {
    snprintf(name, sizeof name, "c%u", k);
    x = add1(g, "Conv", name, SU_E_AICORE, x);
    snprintf(name, sizeof name, "ar%u", k);
    x = add1(g, "AllReduce", name, SU_E_HCCL, x);
  }
  output(g, 1, &x);
  return g;
}

/* An independent engine's stream holds only its nodes, also when compute
 * nodes sit between AllReduces (nothing else on the HCCL stream between). */
GE_TEST(independent_stream_exclusive) {
  ge_graph *g = allreduce_chain(4);
  ge_stream_desc d = base_desc();
  ge_stream_plan p;
  ge_error err;
  uint32_t s, k;
  GE_REQUIRE(allocate_checked(g, &d, &p, &err) == GE_OK);
  for (s = 0; s < p.num_streams; s++) {
    int has_hccl = 0, has_other = 0;
    for (k = 0; k < p.streams[s].num_nodes; k++) {
      if (ge_graph_node(g, p.streams[s].nodes[k])->engine == SU_E_HCCL) has_hccl = 1;
      else has_other = 1;
    }
    if (!ge_test__check(!(has_hccl && has_other), __FILE__, __LINE__, "stream %u mixes HCCL and other nodes", s))
      dump_plan(g, &p);
  }
  ge_stream_plan_free(&p);
  ge_graph_free(g);
}

GE_TEST(notify_limit) {
  ge_graph *g = allreduce_ladder(600);
  ge_stream_desc d = base_desc();
  ge_stream_plan p;
  ge_error err;
  GE_REQUIRE(allocate_checked(g, &d, &p, &err) == GE_OK);
  GE_CHECK(p.num_events > 1024);
  GE_CHECK_EQ_INT(p.notify, 0);
  ge_stream_plan_free(&p);
  d.notify = 1;
  memset(&p, 0, sizeof p);
  GE_CHECK(ge_stream_allocate(g, &d, &p, &err) != GE_OK);
  GE_CHECK(strstr(err.message, "1024") != NULL);
  ge_graph_free(g);
  g = allreduce_ladder(100);
  GE_REQUIRE(allocate_checked(g, &d, &p, &err) == GE_OK);
  GE_CHECK_EQ_INT(p.notify, 1);
  GE_CHECK(p.num_events > 0 && p.num_events <= 1024);
  ge_stream_plan_free(&p);
  ge_graph_free(g);
}

/* Physical split: a long chain over the task limit is cut into pieces
 * chained by events; continuous labels stay together; a single stream uses
 * a huge stream when allowed. */
GE_TEST(physical_split) {
  ge_graph *g = tu_new_graph("split");
  ge_node_id x = data(g, "in"), cont[10];
  ge_stream_desc d = base_desc();
  ge_stream_plan p;
  ge_error err;
  uint32_t k, s, max_tasks = 0;
  char name[32];
  for (k = 0; k < 100; k++) {
    snprintf(name, sizeof name, "c%u", k);
    x = add1(g, "Conv", name, SU_E_AICORE, x);
    if (k >= 40 && k < 50) {
      cont[k - 40] = x;
      label(g, x, GE_STREAM_ATTR_CONTINUOUS_LABEL, "block");
    }
  }
  output(g, 1, &x);
  d.task_limit = 16;
  GE_REQUIRE(allocate_checked(g, &d, &p, &err) == GE_OK);
  GE_CHECK(p.num_streams >= 102 / 16);
  GE_CHECK_EQ_INT(p.num_logical, 1);
  for (s = 0; s < p.num_streams; s++) {
    GE_CHECK_EQ_INT(p.streams[s].logical, 0);
    if (p.streams[s].num_tasks > max_tasks) max_tasks = p.streams[s].num_tasks;
  }
  GE_CHECK(max_tasks <= 16);
  GE_CHECK_EQ_INT(p.num_events, p.num_streams - 1);
  for (k = 1; k < 10; k++) GE_CHECK_EQ_INT(stream_of(g, cont[k]), stream_of(g, cont[0]));
  ge_stream_plan_free(&p);
  /* reserved tasks: more pieces */
  d.reserved_tasks = 6;
  GE_REQUIRE(allocate_checked(g, &d, &p, &err) == GE_OK);
  for (s = 0; s < p.num_streams; s++) GE_CHECK(p.streams[s].num_tasks <= 16);
  ge_stream_plan_free(&p);
  /* single stream: huge */
  d.reserved_tasks = 0;
  d.single_stream = 1;
  d.huge_task_limit = 1000;
  GE_REQUIRE(allocate_checked(g, &d, &p, &err) == GE_OK);
  GE_CHECK_EQ_INT(p.num_streams, 1);
  GE_CHECK(p.streams[0].huge);
  GE_CHECK_EQ_INT(p.num_events, 0);
  ge_stream_plan_free(&p);
  ge_graph_free(g);
}

/* Every event mode keeps the plan ordered and within the task limit when
 * streams are split: a chain with skip edges c[k] -> c[k+2] (dependencies
 * that cross the pieces of one logical stream). */
GE_TEST(physical_split_event_modes) {
  int mode;
  for (mode = GE_STREAM_EVENTS_MINIMAL; mode <= GE_STREAM_EVENTS_ALL; mode++) {
    ge_graph *g = tu_new_graph("split_modes");
    ge_node_id c[20];
    ge_stream_desc d = base_desc();
    ge_stream_plan p;
    ge_error err;
    uint32_t k;
    char name[16];
    c[0] = add1(g, "Conv", "c0", SU_E_AICORE, data(g, "in"));
    for (k = 1; k < 20; k++) {
      snprintf(name, sizeof name, "c%u", k);
      c[k] = k >= 2 ? add2(g, "Add", name, SU_E_AICORE, c[k - 1], c[k - 2]) : add1(g, "Conv", name, SU_E_AICORE, c[k - 1]);
    }
    output(g, 1, &c[19]);
    d.task_limit = 6;
    d.events = (ge_stream_event_mode)mode;
    if (!ge_test__check(allocate_checked(g, &d, &p, &err) == GE_OK, __FILE__, __LINE__, "mode %s: %s",
                        mode_name(d.events), err.message)) {
      ge_graph_free(g);
      continue;
    }
    ge_test__check(p.num_streams > 1, __FILE__, __LINE__, "mode %s: not split", mode_name(d.events));
    ge_stream_plan_free(&p);
    ge_graph_free(g);
  }
}

/* A continuous group that starts a new piece needs its chaining wait and
 * the reserve beside it: limit 6, two nodes, then a group of n one-task
 * nodes. A group that fits stays whole within the limit; one that cannot
 * is an error naming the label. */
GE_TEST(physical_split_continuous_group_fits) {
  uint32_t n;
  for (n = 3; n <= 6; n++) {
    ge_graph *g = tu_new_graph("split_group");
    ge_node_id x = data(g, "in"), first = GE_NONE;
    ge_stream_desc d = base_desc();
    ge_stream_plan p;
    ge_error err;
    ge_status st;
    uint32_t k;
    char name[16];
    for (k = 0; k < 12; k++) {
      snprintf(name, sizeof name, "c%u", k);
      x = add1(g, "Conv", name, SU_E_AICORE, x);
      if (k >= 2 && k < 2 + n) {
        label(g, x, GE_STREAM_ATTR_CONTINUOUS_LABEL, "group");
        if (first == GE_NONE) first = x;
      }
    }
    output(g, 1, &x);
    d.task_limit = 6;
    memset(&p, 0, sizeof p);
    st = ge_stream_allocate(g, &d, &p, &err);
    if (st == GE_OK) {
      GE_CHECK(su_check_plan(g, &p, &err) == GE_OK);
      if (!ge_test__check(su_check_tasks(g, &p, &d, &err) == GE_OK, __FILE__, __LINE__, "group of %u: %s", n,
                          err.message))
        dump_plan(g, &p);
      for (k = 0; k < ge_graph_id_bound(g); k++)
        if (same_continuous_label(g, k, first)) GE_CHECK_EQ_INT(stream_of(g, k), stream_of(g, first));
      ge_stream_plan_free(&p);
    } else {
      ge_test__check(st == GE_ERR_INVALID && strstr(err.message, "group"), __FILE__, __LINE__,
                     "group of %u: status %d: %s", n, st, err.message);
    }
    if (n <= 3) GE_CHECK(st == GE_OK); /* 1 wait + 3 + 2 reserved fit in 6 */
    ge_graph_free(g);
  }
}

/* The header: nodes with one continuous label are kept on one physical
 * stream, also when other nodes of the stream run between them. */
GE_TEST(physical_split_continuous_label_apart) {
  ge_graph *g = tu_new_graph("split_apart");
  ge_node_id x = data(g, "in"), a = GE_NONE, b = GE_NONE;
  ge_stream_desc d = base_desc();
  ge_stream_plan p;
  ge_error err;
  uint32_t k;
  char name[16];
  for (k = 0; k < 30; k++) {
    snprintf(name, sizeof name, "c%u", k);
    x = add1(g, "Conv", name, SU_E_AICORE, x);
    if (k == 3) a = x;
    if (k == 5) b = x;
  }
  label(g, a, GE_STREAM_ATTR_CONTINUOUS_LABEL, "pair");
  label(g, b, GE_STREAM_ATTR_CONTINUOUS_LABEL, "pair");
  output(g, 1, &x);
  d.task_limit = 5;
  GE_REQUIRE(allocate_checked(g, &d, &p, &err) == GE_OK);
  GE_CHECK(p.num_streams > 1);
  GE_CHECK_EQ_INT(stream_of(g, a), stream_of(g, b));
  ge_stream_plan_free(&p);
  ge_graph_free(g);
}

/* Send/Recv nodes in the graph: one of each per event, ordered around
 * their nodes by control edges; the graph stays acyclic and valid. */
GE_TEST(generate_nodes) {
  uint64_t seed;
  for (seed = 1; seed <= 40; seed++) {
    ge_graph *g = tu_random_dag(seed, 10 + (uint32_t)seed, 2, 0, 3);
    ge_stream_desc d = base_desc();
    ge_stream_plan p;
    ge_error err;
    ge_validate_desc vd;
    ge_node *n;
    uint32_t sends = 0, recvs = 0, before = ge_graph_id_bound(g), k, e;
    ge_node_id *order;
    GE_GRAPH_FOREACH(g, n) {
      if (n->engine == 2) n->engine = SU_E_HCCL;
      if (n->engine < 0) n->engine = SU_E_LOCAL;
    }
    d.task_limit = seed % 3 == 0 ? 8 : 0;
    if (!GE_CHECK(allocate_checked(g, &d, &p, &err) == GE_OK)) {
      printf("    seed %llu: %s\n", (unsigned long long)seed, err.message);
      ge_graph_free(g);
      continue;
    }
    if (!GE_CHECK(ge_stream_generate_nodes(g, &p, &err) == GE_OK)) printf("    %s\n", err.message);
    for (k = before; k < ge_graph_id_bound(g); k++) {
      const ge_node *x = ge_graph_node(g, k);
      int64_t id;
      if (!x) continue;
      id = ge_node_attr_int(x, "event_id", -1);
      if (!strcmp(x->op, "Send")) {
        sends++;
        GE_CHECK(id >= 0 && id < (int64_t)p.num_event_ids);
        /* after its sender */
        for (e = 0; e < p.num_events; e++)
          if (p.events[e].id == (uint32_t)id) break;
        GE_CHECK(e < p.num_events);
      } else if (!strcmp(x->op, "Recv")) {
        recvs++;
        GE_CHECK(id >= 0 && id < (int64_t)p.num_event_ids);
      } else {
        GE_CHECK_STR(x->op, "StreamActive");
      }
    }
    GE_CHECK_EQ_INT(sends, p.num_events);
    GE_CHECK_EQ_INT(recvs, p.num_events);
    /* each event: send node -> Send (control), Recv -> recv node (control) */
    for (e = 0; e < p.num_events; e++) {
      const ge_node *s = ge_graph_node(g, p.events[e].send_node), *r = ge_graph_node(g, p.events[e].recv_node);
      int found_send = 0, found_recv = 0;
      for (k = 0; k < s->num_control_outputs; k++) {
        const ge_node *x = ge_graph_node(g, s->control_outputs[k]);
        if (!strcmp(x->op, "Send") && ge_node_attr_int(x, "event_id", -1) == (int64_t)p.events[e].id) found_send = 1;
      }
      for (k = 0; k < r->num_control_inputs; k++) {
        const ge_node *x = ge_graph_node(g, r->control_inputs[k]);
        if (!strcmp(x->op, "Recv") && ge_node_attr_int(x, "event_id", -1) == (int64_t)p.events[e].id) found_recv = 1;
      }
      GE_CHECK(found_send && found_recv);
    }
    order = (ge_node_id *)malloc(sizeof(ge_node_id) * (ge_graph_node_count(g) + 1));
    GE_CHECK(ge_graph_topo_sort(g, GE_TOPO_BFS, order, &err) == GE_OK);
    free(order);
    memset(&vd, 0, sizeof vd);
    vd.allow_unknown_ops = 1;
    if (!GE_CHECK(ge_graph_validate(g, &vd, &err) == GE_OK)) printf("    %s\n", err.message);
    ge_stream_plan_free(&p);
    ge_graph_free(g);
  }
}

/* Every allocation failure is GE_ERR_NOMEM with nothing leaked. */
GE_TEST(allocation_failures) {
  ge_graph *g = allreduce_ladder(12);
  ge_stream_desc d = base_desc();
  ge_stream_plan p;
  ge_error err;
  tu_alloc_state mem;
  long long k, total;
  label(g, ge_graph_find(g, "c3"), GE_STREAM_ATTR_ATTACHED_REUSE_KEY, "k");
  label(g, ge_graph_find(g, "c4"), GE_STREAM_ATTR_LABEL, "L");
  d.task_limit = 6;
  d.allocator = tu_allocator(&mem);
  GE_REQUIRE(ge_stream_allocate(g, &d, &p, &err) == GE_OK);
  ge_stream_plan_free(&p);
  total = mem.allocs;
  GE_CHECK(total > 0);
  GE_CHECK_EQ_INT(mem.outstanding, 0);
  for (k = 0; k < total; k++) {
    ge_status st;
    d.allocator = tu_allocator(&mem);
    mem.fail_after = k;
    st = ge_stream_allocate(g, &d, &p, &err);
    if (!ge_test__check(st == GE_ERR_NOMEM, __FILE__, __LINE__, "failing allocation %lld: status %d", k, st)) {
      if (st == GE_OK) ge_stream_plan_free(&p);
      break;
    }
    ge_stream_plan_free(&p); /* harmless on a failed plan */
    if (!ge_test__check(mem.outstanding == 0 && mem.size_mismatches == 0, __FILE__, __LINE__,
                        "failing allocation %lld: %lld bytes leaked, %d size mismatches", k, mem.outstanding,
                        mem.size_mismatches))
      break;
  }
  ge_graph_free(g);
}

/* ------------------------------------------------------------- errors */

GE_TEST(error_label_in_single_stream) {
  ge_graph *g = tu_new_graph("single");
  ge_node_id in = data(g, "in"), a;
  ge_stream_desc d = base_desc();
  ge_stream_plan p;
  ge_error err;
  a = add1(g, "Conv", "labelled_conv", SU_E_AICORE, in);
  label(g, a, GE_STREAM_ATTR_LABEL, "my_label");
  output(g, 1, &a);
  d.single_stream = 1;
  memset(&p, 0, sizeof p);
  err.message[0] = 0;
  GE_CHECK(ge_stream_allocate(g, &d, &p, &err) != GE_OK);
  GE_CHECK(strstr(err.message, "labelled_conv") || strstr(err.message, "my_label"));
  d.single_stream = 0;
  GE_REQUIRE(allocate_checked(g, &d, &p, &err) == GE_OK);
  ge_stream_plan_free(&p);
  ge_graph_free(g);
}

GE_TEST(error_cycle_and_bad_order) {
  ge_graph *g = tu_new_graph("cycle");
  ge_node_id in = data(g, "in"), a, b, order[4];
  ge_stream_desc d = base_desc();
  ge_stream_plan p;
  ge_error err;
  a = add1(g, "Conv", "a", SU_E_AICORE, in);
  b = add1(g, "Conv", "b", SU_E_AICORE, a);
  output(g, 1, &b);
  /* an order that is not topological */
  order[0] = in, order[1] = b, order[2] = a, order[3] = ge_graph_output_node(g);
  d.order = order;
  memset(&p, 0, sizeof p);
  GE_CHECK(ge_stream_allocate(g, &d, &p, &err) != GE_OK);
  order[1] = a, order[2] = b;
  GE_REQUIRE(allocate_checked(g, &d, &p, &err) == GE_OK);
  ge_stream_plan_free(&p);
  d.order = NULL;
  TU_OK(ge_graph_add_control(g, b, a, NULL));
  memset(&p, 0, sizeof p);
  GE_CHECK_EQ_INT(ge_stream_allocate(g, &d, &p, &err), GE_ERR_CYCLE);
  ge_graph_free(g);
}

GE_TEST(options) {
  ge_stream_desc d;
  ge_error err;
  memset(&d, 0, sizeof d);
  GE_CHECK_EQ_INT(ge_stream_set_option(&d, "ge.noSuchOption", "1", &err), GE_ERR_NOT_FOUND);
  GE_CHECK(strstr(err.message, "ge.noSuchOption") != NULL);
  GE_CHECK_EQ_INT(ge_stream_set_option(&d, "ge.enableSingleStream", "true", &err), GE_OK);
  GE_CHECK_EQ_INT(d.single_stream, 1);
  GE_CHECK_EQ_INT(ge_stream_set_option(&d, "ge.enableSingleStream", "false", &err), GE_OK);
  GE_CHECK_EQ_INT(d.single_stream, 0);
  GE_CHECK_EQ_INT(ge_stream_set_option(&d, "ge.enableSingleStream", "maybe", &err), GE_ERR_INVALID);
  GE_CHECK(strstr(err.message, "ge.enableSingleStream") != NULL);
  GE_CHECK_EQ_INT(ge_stream_set_option(&d, "ge.event", "notify", &err), GE_OK);
  GE_CHECK_EQ_INT(d.notify, 1);
  GE_CHECK_EQ_INT(ge_stream_set_option(&d, "ge.event", "event", &err), GE_OK);
  GE_CHECK_EQ_INT(d.notify, 0);
  GE_CHECK_EQ_INT(ge_stream_set_option(&d, "ge.event", "semaphore", &err), GE_ERR_INVALID);
  GE_CHECK_EQ_INT(ge_stream_set_option(&d, "ge.exec.hcomParallel", "1", &err), GE_OK);
  GE_CHECK_EQ_INT(d.hcom_parallel, 1);
  GE_CHECK_EQ_INT(ge_stream_set_option(&d, "ge.exec.enableEngineParallel", "1", &err), GE_OK);
  GE_CHECK_EQ_INT(d.engine_parallel, 1);
  GE_CHECK_EQ_INT(ge_stream_set_option(&d, "ac_parallel_enable", "1", &err), GE_OK);
  GE_CHECK_EQ_INT(d.ac_parallel, 1);
  GE_CHECK_EQ_INT(ge_stream_set_option(&d, "ac_parallel_enable", "2", &err), GE_ERR_INVALID);
  GE_CHECK_EQ_INT(ge_stream_set_option(&d, "ac_parallel_enable", "", &err), GE_OK);
  GE_CHECK_EQ_INT(d.ac_parallel, 0);
  GE_CHECK_EQ_INT(ge_stream_set_option(&d, "ge.streamTaskLimit", "1000", &err), GE_OK);
  GE_CHECK_EQ_INT(d.task_limit, 1000);
  GE_CHECK_EQ_INT(ge_stream_set_option(&d, "ge.streamTaskLimit", "12abc", &err), GE_ERR_INVALID);
  GE_CHECK_EQ_INT(ge_stream_set_option(&d, "ge.streamTaskLimit", "-3", &err), GE_ERR_INVALID);
  GE_CHECK_EQ_INT(ge_stream_set_option(&d, "ge.streamMaxParallelNum", "4", &err), GE_OK);
  GE_CHECK_EQ_INT(d.max_parallel, 4);
  GE_CHECK_EQ_INT(ge_stream_set_option(&d, "ge.streamMaxParallelNum", "", &err), GE_ERR_INVALID);
  GE_CHECK_EQ_INT(ge_stream_set_option(&d, "ge.streamMaxParallelNum", "0", &err), GE_ERR_INVALID);
  GE_CHECK(strstr(err.message, "ge.streamMaxParallelNum") && strstr(err.message, "'0'"));
  GE_CHECK_EQ_INT(ge_stream_set_option(&d, "ge.streamTaskLimit", "0", &err), GE_ERR_INVALID);
  GE_CHECK_EQ_INT(d.max_parallel, 4); /* unchanged by the refusals */
}

int main(int argc, char **argv) {
  ge_test_init(argc, argv);
  GE_RUN(checker_accepts_valid_plans);
  GE_RUN(checker_catches_broken_plans);
  GE_RUN(checker_shared_event_ids);
  GE_RUN(oracle_matches_greedy_removal);
  GE_RUN(simulator);
  GE_RUN(skipped_engine_joins_neighbours);
  GE_RUN(independent_engine_own_stream);
  GE_RUN(labels_share_streams);
  GE_RUN(parallel_group_new_stream);
  GE_RUN(hcom_parallel_moves_successors);
  GE_RUN(dynamic_streams);
  GE_RUN(stream_activation);
  GE_RUN(attached_streams);
  GE_RUN(multi_dims_event_reuse);
  GE_RUN(independent_stream_exclusive);
  GE_RUN(notify_limit);
  GE_RUN(physical_split);
  GE_RUN(physical_split_event_modes);
  GE_RUN(physical_split_continuous_group_fits);
  GE_RUN(physical_split_continuous_label_apart);
  GE_RUN(generate_nodes);
  GE_RUN(allocation_failures);
  GE_RUN(error_label_in_single_stream);
  GE_RUN(error_cycle_and_bad_order);
  GE_RUN(options);
  GE_RUN(random_dags);
  return ge_test_main_end();
}

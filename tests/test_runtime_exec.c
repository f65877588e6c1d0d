/* Tests of the executors of ge_exec.h on the runtime of ge_runtime.h:
 * seeded random DAGs get a stream plan (ge_stream.h, 1 to 16+ streams) and
 * run under every executor, both launch modes and 1-2 threads with the
 * happens-before checker on; outputs must be bit-identical to the
 * sequential executor. A stream plan with one event dropped must be caught
 * by the checker; failures name their node and leave the program usable.
 * Also the graph-free core alone: streams and DAGs of counting tasks. */
#define GE_IMPLEMENTATION
#include "ge_exec.h"
#include "ge_stream.h"

#include "tests/test.h"
#include "tests/graph_util.h"
#include "tests/stream_util.h"

#define OK(expr) GE_CHECK_EQ_INT((expr), GE_OK)

/* ------------------------------------------------ scalar float64 kernels */

static double in0(ge_kernel_ctx *c, uint32_t i) { return ((const double *)c->inputs[i]->data)[0]; }

static ge_status put(ge_kernel_ctx *c, double v) {
  ge_value *y = ge_kernel_output(c, 0, GE_DTYPE_FLOAT64, 0, NULL);
  if (!y) return GE_ERR_NOMEM;
  ((double *)y->data)[0] = v;
  return GE_OK;
}
static ge_status k_add(ge_kernel_ctx *c) { return put(c, in0(c, 0) + in0(c, 1)); }
static ge_status k_sub(ge_kernel_ctx *c) { return put(c, in0(c, 0) - in0(c, 1)); }
static ge_status k_mul(ge_kernel_ctx *c) { return put(c, in0(c, 0) * in0(c, 1) * 0.5 + 1); }
static ge_status k_neg(ge_kernel_ctx *c) {
  if (in0(c, 0) == 12345.0) return ge_kernel_error(c, GE_ERR_INVALID, "refusing 12345");
  return put(c, -in0(c, 0));
}

/* y = x; a value of 777 aborts the run from inside (as a watchdog would). */
static ge_status k_abort_if(ge_kernel_ctx *c) {
  if (in0(c, 0) == 777.0) ge_program_abort((ge_program *)c->env->executor);
  return put(c, in0(c, 0));
}

static ge_kernel_fn lookup(const ge_node *n, void *user) {
  (void)user;
  if (!strcmp(n->op, "AbortIf")) return k_abort_if;
  if (!strcmp(n->op, "Add")) return k_add;
  if (!strcmp(n->op, "Sub")) return k_sub;
  if (!strcmp(n->op, "Mul")) return k_mul;
  if (!strcmp(n->op, "Neg")) return k_neg;
  return NULL;
}

/* A random DAG and its stream plan: engines AI Core, DSA, HCCL (the
 * first `engines` of them), up to max_parallel streams per engine, or one
 * stream for max_parallel 0. */
static ge_graph *planned_dag(uint64_t seed, uint32_t nodes, uint32_t engines, uint32_t max_parallel, ge_stream_plan *plan) {
  ge_graph *g = tu_random_dag(seed, nodes, 2, 0, engines);
  ge_stream_desc sd;
  ge_error err;
  memset(&sd, 0, sizeof sd);
  sd.engines = su_engines;
  sd.num_engines = SU_NUM_ENGINES;
  sd.dynamic = -1;
  sd.max_parallel = max_parallel;
  sd.single_stream = max_parallel == 0;
  memset(plan, 0, sizeof *plan);
  if (ge_stream_allocate(g, &sd, plan, &err)) {
    ge_test__check(0, __FILE__, __LINE__, "allocate: %s", err.message);
    ge_graph_free(g);
    return NULL;
  }
  return g;
}

/* Runs g with one configuration; copies its outputs (doubles) to out. */
static ge_status run_once(ge_graph *g, const ge_stream_plan *plan, ge_executor_kind ex, ge_launch_mode mode,
                          ge_runtime *rt, uint32_t shuffle, double *out, uint32_t *n_out, ge_error *err) {
  ge_exec_desc d;
  ge_program *p = NULL;
  double a = 1.25, b = -0.75;
  ge_value va, vb;
  const ge_value *ins[2];
  ge_status st;
  uint32_t i;
  memset(&d, 0, sizeof d);
  d.lookup = lookup;
  d.runtime = rt;
  d.executor = ex;
  d.streams = plan;
  d.launch = mode;
  d.check_order = 1;
  d.shuffle = shuffle;
  memset(&va, 0, sizeof va);
  ge_value_set_shape(&va, GE_DTYPE_FLOAT64, 0, NULL);
  vb = va;
  va.data = &a, vb.data = &b;
  ins[0] = &va, ins[1] = &vb;
  if ((st = ge_program_create(g, &d, &p, err))) return st;
  st = ge_program_run(p, ins, 2, err);
  if (!st) st = ge_program_run(p, ins, 2, err); /* a second run reuses everything */
  if (!st) {
    *n_out = ge_program_num_outputs(p);
    for (i = 0; i < *n_out; i++) out[i] = ((const double *)ge_program_output(p, i)->data)[0];
  }
  ge_program_free(p);
  return st;
}

GE_TEST(test_random_dags_all_executors) {
  ge_runtime *rt[2] = {NULL, NULL};
  ge_runtime_desc rd;
  ge_error err;
  uint64_t seed;
  uint32_t most_streams = 0, t;
  int seen[17] = {0}, distinct;
  memset(&rd, 0, sizeof rd);
  rd.num_threads = 2;
  OK(ge_runtime_create(&rd, &rt[1], &err));
  for (seed = 1; seed <= 40; seed++) {
    ge_stream_plan plan;
    ge_graph *g = planned_dag(seed * 7717, 20 + (uint32_t)(seed % 7) * 20, 1 + (uint32_t)(seed % 3), (uint32_t)(seed % 9), &plan);
    double want[512], got[512];
    uint32_t n_want = 0, n_got = 0, i;
    int ex, mode;
    if (!g) continue;
    if (plan.num_streams > most_streams) most_streams = plan.num_streams;
    seen[plan.num_streams < 16 ? plan.num_streams : 16] = 1;
    if (run_once(g, NULL, GE_EXECUTOR_SEQUENTIAL, GE_LAUNCH_SINK, NULL, 0, want, &n_want, &err)) {
      GE_CHECK(!"sequential run");
      fprintf(stderr, "  %s\n", err.message);
    }
    for (t = 0; t < 2; t++)
      for (ex = GE_EXECUTOR_AUTO; ex <= GE_EXECUTOR_STREAMS; ex++)
        for (mode = 0; mode < 2; mode++) {
          uint32_t shuffle = (ex == GE_EXECUTOR_STREAMS && t == 0) ? (uint32_t)seed : 0;
          ge_status st;
          if (mode && ex != GE_EXECUTOR_STREAMS) continue;
          st = run_once(g, &plan, (ge_executor_kind)ex, (ge_launch_mode)mode, rt[t], shuffle, got, &n_got, &err);
          if (!ge_test__check(st == GE_OK, __FILE__, __LINE__, "seed %llu, %s, %s, %u threads: %s",
                              (unsigned long long)seed, ge_executor_name((ge_executor_kind)ex), mode ? "host" : "sink",
                              t + 1, err.message))
            continue;
          GE_CHECK_EQ_INT(n_got, n_want);
          for (i = 0; i < n_got && i < n_want; i++)
            if (memcmp(&got[i], &want[i], sizeof(double)) != 0) {
              GE_CHECK(!"outputs bit-identical to the sequential executor");
              break;
            }
        }
    ge_stream_plan_free(&plan);
    ge_graph_free(g);
  }
  GE_CHECK(most_streams >= 16); /* the seeds cover 1 to 16+ streams */
  for (t = 1, distinct = 0; t <= 16; t++) distinct += seen[t];
  GE_CHECK(seen[1] && distinct >= 5); /* one stream, and many counts up to 16 */
  ge_runtime_free(rt[1]);
}

static int is_task(ge_graph *g, ge_node_id id) {
  const char *op = ge_graph_node(g, id)->op;
  return strcmp(op, "Data") && strcmp(op, "Const") && strcmp(op, "NetOutput");
}

/* The checker catches a plan missing one of its events. */
GE_TEST(test_dropped_event_caught) {
  uint64_t seed;
  int tried = 0, caught = 0;
  for (seed = 1; seed <= 12; seed++) {
    ge_stream_plan plan, broken;
    ge_graph *g = planned_dag(seed * 31 + 5, 40, 3, 4, &plan);
    ge_stream_event *ev;
    uint32_t drop, k;
    double out[512];
    uint32_t n_out;
    ge_error err;
    int hit = 0;
    uint32_t shuffle;
    if (!g) continue;
    if (!plan.num_events) {
      ge_stream_plan_free(&plan);
      ge_graph_free(g);
      continue;
    }
    /* an event between two computing nodes (Data and Const are ready from the start) */
    for (k = 0, drop = UINT32_MAX; k < plan.num_events; k++) {
      uint32_t j = (uint32_t)((k + seed) % plan.num_events);
      if (is_task(g, plan.events[j].send_node) && is_task(g, plan.events[j].recv_node)) {
        drop = j;
        break;
      }
    }
    if (drop == UINT32_MAX) {
      ge_stream_plan_free(&plan);
      ge_graph_free(g);
      continue;
    }
    broken = plan;
    ev = (ge_stream_event *)malloc(sizeof *ev * plan.num_events);
    for (k = 0; k < plan.num_events; k++) ev[k] = plan.events[k];
    memmove(ev + drop, ev + drop + 1, sizeof *ev * (plan.num_events - drop - 1));
    broken.events = ev;
    broken.num_events = plan.num_events - 1;
    tried++;
    for (shuffle = 1; shuffle <= 64 && !hit; shuffle++) {
      ge_status st = run_once(g, &broken, GE_EXECUTOR_STREAMS, GE_LAUNCH_SINK, NULL, shuffle, out, &n_out, &err);
      if (st == GE_ERR_INTERNAL && strstr(err.message, "happens-before violated")) hit = 1;
      else if (st) GE_CHECK(!"only the checker may fail");
    }
    caught += hit;
    free(ev);
    ge_stream_plan_free(&plan);
    ge_graph_free(g);
  }
  GE_CHECK(tried >= 8);
  GE_CHECK_EQ_INT(caught, tried);
}

/* A failing kernel: every executor names it; the program runs again. */
GE_TEST(test_failure_names_node) {
  ge_runtime *rt = NULL;
  ge_runtime_desc rd;
  ge_stream_plan plan;
  ge_graph *g = NULL;
  uint64_t seed;
  ge_error err;
  int ex, tested = 0;
  memset(&rd, 0, sizeof rd);
  rd.num_threads = 2;
  OK(ge_runtime_create(&rd, &rt, &err));
  for (seed = 1; seed < 100 && !g; seed++) { /* a graph where some Neg reads input 0 directly */
    ge_node *x;
    int found = 0;
    g = planned_dag(seed, 60, 3, 4, &plan);
    GE_GRAPH_FOREACH(g, x)
    if (!strcmp(x->op, "Neg") && !strcmp(ge_graph_node(g, x->inputs[0].node)->name, "in0")) found = 1;
    if (!found) {
      ge_stream_plan_free(&plan);
      ge_graph_free(g);
      g = NULL;
    }
  }
  GE_REQUIRE(g);
  for (ex = GE_EXECUTOR_SEQUENTIAL; ex <= GE_EXECUTOR_STREAMS; ex++) {
    ge_exec_desc d;
    ge_program *p = NULL;
    double a = 12345.0, b = 1, good = 2;
    ge_value va, vb;
    const ge_value *ins[2];
    memset(&d, 0, sizeof d);
    d.lookup = lookup, d.runtime = rt, d.executor = (ge_executor_kind)ex, d.streams = &plan;
    memset(&va, 0, sizeof va);
    ge_value_set_shape(&va, GE_DTYPE_FLOAT64, 0, NULL);
    vb = va;
    va.data = &a, vb.data = &b;
    ins[0] = &va, ins[1] = &vb;
    OK(ge_program_create(g, &d, &p, &err));
    GE_REQUIRE(p);
    GE_CHECK_EQ_INT(ge_program_run(p, ins, 2, &err), GE_ERR_INVALID);
    GE_CHECK(strstr(err.message, "refusing 12345") != NULL);
    va.data = &good;
    OK(ge_program_run(p, ins, 2, &err));
    ge_program_free(p);
    tested++;
  }
  GE_CHECK_EQ_INT(tested, 5);
  ge_stream_plan_free(&plan);
  ge_graph_free(g);
  ge_runtime_free(rt);
}

/* x -> AbortIf -> Neg x 6 -> y, on two streams (alternating engines) */
static ge_graph *abort_chain(ge_stream_plan *plan) {
  ge_graph *g = tu_new_graph("abort_chain");
  ge_node_id prev;
  ge_edge e;
  ge_stream_desc sd;
  ge_error err;
  uint32_t i;
  char name[16];
  TU_OK(ge_graph_add_data(g, "x", GE_DTYPE_FLOAT64, 0, NULL, &prev, NULL));
  for (i = 0; i < 7; i++) {
    e = tu_e(prev, 0);
    snprintf(name, sizeof name, "n%u", (unsigned)i);
    TU_OK(ge_graph_add_node(g, i ? "Neg" : "AbortIf", name, 1, &e, 1, &prev, NULL));
    TU_OK(ge_node_set_output(g, prev, 0, GE_DTYPE_FLOAT64, 0, NULL, NULL, NULL));
    ge_graph_node(g, prev)->engine = (int32_t)(i % 2);
  }
  e = tu_e(prev, 0);
  TU_OK(ge_graph_set_outputs(g, 1, &e, NULL, NULL));
  memset(&sd, 0, sizeof sd);
  sd.engines = su_engines, sd.num_engines = SU_NUM_ENGINES, sd.dynamic = -1;
  TU_OK(ge_stream_allocate(g, &sd, plan, &err));
  return g;
}

static ge_value scalar(double *x) {
  ge_value v;
  memset(&v, 0, sizeof v);
  ge_value_set_shape(&v, GE_DTYPE_FLOAT64, 0, NULL);
  v.data = x;
  return v;
}

/* An abort stops every executor before the next task, names it, and the
 * program runs normally afterwards. */
GE_TEST(test_abort) {
  ge_stream_plan plan;
  ge_graph *g = abort_chain(&plan);
  ge_runtime *rt = NULL;
  ge_runtime_desc rd;
  ge_error err;
  int ex;
  memset(&rd, 0, sizeof rd);
  rd.num_threads = 2;
  OK(ge_runtime_create(&rd, &rt, &err));
  GE_CHECK(plan.num_streams >= 2);
  for (ex = GE_EXECUTOR_SEQUENTIAL; ex <= GE_EXECUTOR_STREAMS; ex++) {
    ge_exec_desc d;
    ge_program *p = NULL;
    double bad = 777, good = 3;
    ge_value v = scalar(&bad);
    const ge_value *ins[1] = {&v};
    memset(&d, 0, sizeof d);
    d.lookup = lookup, d.runtime = rt, d.executor = (ge_executor_kind)ex, d.streams = &plan;
    OK(ge_program_create(g, &d, &p, &err));
    GE_REQUIRE(p);
    GE_CHECK_EQ_INT(ge_program_run(p, ins, 1, &err), GE_ERR_INTERNAL);
    /* the stream executor may see the abort at a synchronisation entry
     * (an event or a Data entry) before n1: then no node is named */
    if (!ge_test__check(strstr(err.message, "aborted at node 'n1'") != NULL ||
                            (ex == GE_EXECUTOR_STREAMS && !strcmp(err.message, "run aborted")),
                        __FILE__, __LINE__, "%s: %s", ge_executor_name((ge_executor_kind)ex), err.message))
      continue;
    v.data = &good;
    OK(ge_program_run(p, ins, 1, &err));
    GE_CHECK(((double *)ge_program_output(p, 0)->data)[0] == 3); /* six negations */
    ge_program_free(p);
  }
  ge_stream_plan_free(&plan);
  ge_graph_free(g);
  ge_runtime_free(rt);
}

/* Several requests in flight on three programs of one graph, with
 * callbacks; every output checked. */
typedef struct done_log {
  int calls;
  double sum;
} done_log;

static void on_done(void *user, ge_program *p, ge_status st, const ge_error *err) {
  done_log *l = (done_log *)user;
  (void)err;
  l->calls++;
  if (!st) l->sum += ((const double *)ge_program_output(p, 0)->data)[0];
}

GE_TEST(test_async_requests) {
  ge_stream_plan plan;
  ge_graph *g = abort_chain(&plan);
  ge_runtime *rt = NULL;
  ge_runtime_desc rd;
  ge_error err;
  int threads, round, k;
  for (threads = 1; threads <= 2; threads++) {
    ge_program *p[3] = {NULL, NULL, NULL};
    ge_program_request req[3];
    done_log log[3];
    double x[3];
    ge_value v[3];
    const ge_value *ins[3][1];
    memset(&rd, 0, sizeof rd);
    rd.num_threads = threads;
    OK(ge_runtime_create(&rd, &rt, &err));
    memset(log, 0, sizeof log);
    for (k = 0; k < 3; k++) {
      ge_exec_desc d;
      memset(&d, 0, sizeof d);
      d.lookup = lookup, d.runtime = rt, d.executor = k == 2 ? GE_EXECUTOR_STREAMS : GE_EXECUTOR_SEQUENTIAL;
      d.streams = &plan;
      OK(ge_program_create(g, &d, &p[k], &err));
      v[k] = scalar(&x[k]);
      ins[k][0] = &v[k];
    }
    for (round = 0; round < 20; round++) {
      for (k = 0; k < 3; k++) {
        x[k] = round * 10 + k;
        OK(ge_program_run_async(p[k], ins[k], 1, on_done, &log[k], &req[k], &err));
      }
      for (k = 0; k < 3; k++) {
        OK(ge_program_wait(&req[k], &err));
        GE_CHECK(ge_program_poll(&req[k]));
        GE_CHECK(((double *)ge_program_output(p[k], 0)->data)[0] == round * 10 + k);
      }
    }
    for (k = 0; k < 3; k++) {
      GE_CHECK_EQ_INT(log[k].calls, 20);
      GE_CHECK(log[k].sum == 20 * 19 / 2 * 10 + 20 * k);
      ge_program_free(p[k]);
    }
    ge_runtime_free(rt);
  }
  ge_stream_plan_free(&plan);
  ge_graph_free(g);
}

/* The resident loop: 40 runs queued 3 deep, each delivered by callback. */
GE_TEST(test_run_loop) {
  ge_stream_plan plan;
  ge_graph *g = abort_chain(&plan);
  ge_exec_desc d;
  ge_program *p = NULL;
  ge_program_loop *loop = NULL;
  done_log log;
  double x[40];
  ge_value v[40];
  const ge_value *ins[40][1];
  ge_error err;
  int k;
  memset(&d, 0, sizeof d);
  d.lookup = lookup;
  OK(ge_program_create(g, &d, &p, &err));
  memset(&log, 0, sizeof log);
  OK(ge_program_loop_start(p, 3, on_done, &log, &loop, &err));
  for (k = 0; k < 40; k++) {
    x[k] = k;
    v[k] = scalar(&x[k]);
    ins[k][0] = &v[k];
    OK(ge_program_loop_push(loop, ins[k], 1, &err));
  }
  ge_program_loop_stop(loop);
  GE_CHECK_EQ_INT(log.calls, 40);
  GE_CHECK(log.sum == 40 * 39 / 2);
  GE_CHECK_EQ_INT(ge_program_loop_start(p, 0, on_done, &log, &loop, &err), GE_ERR_INVALID);
  ge_program_free(p);
  ge_stream_plan_free(&plan);
  ge_graph_free(g);
}

/* ------------------------------------------------- the graph-free core */

typedef struct counter_ctx {
  int *log;     /* order of completion */
  int *pos;
} counter_ctx;

static ge_status k_count(ge_kernel_ctx *c) {
  counter_ctx *cc = (counter_ctx *)c->state;
  int i = __atomic_fetch_add(cc->pos, 1, __ATOMIC_SEQ_CST);
  cc->log[i] = (int)(intptr_t)c->node;
  return GE_OK;
}

/* Two streams: A0 A1 | B0 B1, B0 waits for A1; a stream whose event is
 * never recorded is refused at creation. */
GE_TEST(test_core_streams) {
  ge_task tasks[4];
  counter_ctx cc;
  int log[4], pos = 0, i;
  uint32_t ev0 = 0;
  ge_runtime_entry a[2], b[2];
  const ge_runtime_entry *lists[2];
  uint32_t counts[2] = {2, 2};
  ge_runtime_streams_desc d;
  ge_runtime_streams *s = NULL;
  ge_runtime_result r;
  ge_error err;
  uint64_t stamps[8];
  cc.log = log, cc.pos = &pos;
  memset(tasks, 0, sizeof tasks);
  for (i = 0; i < 4; i++) {
    tasks[i].fn = k_count;
    tasks[i].ctx.state = &cc;
    tasks[i].ctx.node = (const ge_node *)(intptr_t)i;
  }
  memset(a, 0, sizeof a);
  memset(b, 0, sizeof b);
  a[0].task = &tasks[0], a[0].id = 0;
  a[1].task = &tasks[1], a[1].id = 1, a[1].records = &ev0, a[1].num_records = 1;
  b[0].task = &tasks[2], b[0].id = 2, b[0].waits = &ev0, b[0].num_waits = 1;
  b[1].task = &tasks[3], b[1].id = 3;
  lists[0] = a, lists[1] = b;
  memset(&d, 0, sizeof d);
  d.num_streams = 2, d.entries = lists, d.num_entries = counts, d.num_events = 1, d.num_ids = 4;
  OK(ge_runtime_streams_create(NULL, &d, &s, &err));
  GE_REQUIRE(s);
  for (i = 0; i < 2; i++) {
    pos = 0;
    r = ge_runtime_streams_launch(s, i ? GE_LAUNCH_HOST : GE_LAUNCH_SINK, stamps, 7);
    GE_CHECK_EQ_INT(r.status, GE_OK);
    GE_CHECK_EQ_INT(pos, 4);
    GE_CHECK(stamps[3] < stamps[4]); /* A1 ended before B0 started */
    GE_CHECK(stamps[1] < stamps[2]);
  }
  ge_runtime_streams_free(s);
  /* B0 waits for an event nobody records */
  a[1].num_records = 0;
  GE_CHECK_EQ_INT(ge_runtime_streams_create(NULL, &d, &s, &err), GE_ERR_INVALID);
  GE_CHECK(strstr(err.message, "waits for event 0") != NULL);
  a[1].num_records = 1;
  ev0 = 3; /* out of range */
  GE_CHECK_EQ_INT(ge_runtime_streams_create(NULL, &d, &s, &err), GE_ERR_INVALID);
}

/* A DAG with a cycle is refused; priorities order a single thread. */
GE_TEST(test_core_dag) {
  ge_task tasks[4];
  counter_ctx cc;
  int log[4], pos = 0, i;
  /* 0 -> 1, 0 -> 2, 2 -> 3; priority prefers 2 over 1 */
  uint32_t begin[5] = {0, 2, 2, 3, 3}, succ[3] = {1, 2, 3};
  uint64_t prio[4] = {3, 1, 2, 1};
  ge_runtime_dag_desc d;
  ge_runtime_dag *dag = NULL;
  ge_runtime_result r;
  ge_error err;
  cc.log = log, cc.pos = &pos;
  memset(tasks, 0, sizeof tasks);
  for (i = 0; i < 4; i++) {
    tasks[i].fn = k_count;
    tasks[i].ctx.state = &cc;
    tasks[i].ctx.node = (const ge_node *)(intptr_t)i;
  }
  memset(&d, 0, sizeof d);
  d.tasks = tasks, d.num_tasks = 4, d.succ_begin = begin, d.succ = succ;
  OK(ge_runtime_dag_create(NULL, &d, &dag, &err));
  r = ge_runtime_dag_run(dag, NULL);
  GE_CHECK_EQ_INT(r.status, GE_OK);
  GE_CHECK(log[0] == 0 && log[1] == 1 && log[2] == 2 && log[3] == 3); /* FIFO */
  ge_runtime_dag_free(dag);
  d.priority = prio;
  pos = 0;
  OK(ge_runtime_dag_create(NULL, &d, &dag, &err));
  r = ge_runtime_dag_run(dag, NULL);
  GE_CHECK(log[0] == 0 && log[1] == 2 && log[2] == 1 && log[3] == 3); /* longest path first, ties by index */
  ge_runtime_dag_free(dag);
  succ[2] = 0; /* 2 -> 0: a cycle */
  GE_CHECK_EQ_INT(ge_runtime_dag_create(NULL, &d, &dag, &err), GE_ERR_CYCLE);
}

int main(int argc, char **argv) {
  ge_test_init(argc, argv);
  GE_RUN(test_core_streams);
  GE_RUN(test_core_dag);
  GE_RUN(test_random_dags_all_executors);
  GE_RUN(test_dropped_event_caught);
  GE_RUN(test_failure_names_node);
  GE_RUN(test_abort);
  GE_RUN(test_async_requests);
  GE_RUN(test_run_loop);
  return ge_test_main_end();
}

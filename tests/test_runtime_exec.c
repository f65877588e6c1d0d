/* Tests of the executors of ge_exec.h on the runtime of ge_runtime.h:
 * seeded random DAGs get a stream plan (ge_stream.h, 1 to 16+ streams) and
 * run under every executor, both launch modes and 1-2 threads with the
 * happens-before checker on; outputs must be bit-identical to the
 * sequential executor. A stream plan with one event dropped must be caught
 * by the checker; failures name their node and leave the program usable.
 * Also the graph-free core alone: streams and DAGs of counting tasks.
 * Timeouts abort every executor's run (and a Loop's body) naming the node
 * that ran, the program stays usable; the profile's Chrome trace has one
 * slice per task and a lane per stream; the runtime's stream pool is
 * shared by two models and kept apart for forks. */
#define GE_EXEC_IMPLEMENTATION /* its ge_program internals; the rest from libge.a */
#include "ge_exec.h"
#include "ge_stream.h"

#include "tests/test.h"
#include "tests/graph_util.h"
#include "tests/stream_util.h"

#include <pthread.h>

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

/* y = x; a value of 777 spins for 2 ms first (a slow kernel), counted,
 * in 8 parallel loops of two 125 us ranges: a worker inside a stream's
 * work posts loops while the launch it serves is withdrawn (an abort). */
static int slow_calls;
static void spin_125us(void *arg, int64_t begin, int64_t end) {
  (void)arg;
  for (; begin < end; begin++) {
    uint64_t t0 = ge_runtime_now_ns();
    while (ge_runtime_now_ns() - t0 < 125000u) {
    }
  }
}
static ge_status k_slow(ge_kernel_ctx *c) {
  if (in0(c, 0) == 777.0) {
    __atomic_add_fetch(&slow_calls, 1, __ATOMIC_RELAXED);
    int k;
    for (k = 0; k < 8; k++) ge_kernel_parallel_for(c, 2, 1, spin_125us, NULL);
  }
  return put(c, in0(c, 0));
}

static ge_kernel_fn lookup(const ge_node *n, void *user) {
  (void)user;
  if (!strcmp(n->op, "AbortIf")) return k_abort_if;
  if (!strcmp(n->op, "Slow")) return k_slow;
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

/* Runs g with one configuration; copies its outputs (doubles) to out.
 * With the checker off when no_check is set (stream segments then run
 * back to back: the fast path). */
static int no_check;
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
  d.check_order = !no_check;
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
          if (ex != GE_EXECUTOR_STREAMS || t != 1) continue;
          no_check = 1; /* again without stamps: the fast segments */
          st = run_once(g, &plan, (ge_executor_kind)ex, (ge_launch_mode)mode, rt[t], 0, got, &n_got, &err);
          no_check = 0;
          if (!ge_test__check(st == GE_OK && n_got == n_want, __FILE__, __LINE__, "seed %llu, streams %s unchecked: %s",
                              (unsigned long long)seed, mode ? "host" : "sink", err.message))
            continue;
          for (i = 0; i < n_got; i++)
            if (memcmp(&got[i], &want[i], sizeof(double)) != 0) {
              GE_CHECK(!"outputs bit-identical to the sequential executor (unchecked streams)");
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

/* AUTO's pick by work: `heavy` branches of `len` x (MatMul [4,256] x
 * [256,256] + Tanh) from one input, plus `light` side chains of `len`
 * Negs on a 4-element tensor (many tasks, almost no work). Each branch on
 * an engine of its own, so the stream plan puts branches on streams. */
static ge_status k_nothing(ge_kernel_ctx *c) { (void)c; return GE_OK; }
static ge_kernel_fn lookup_any(const ge_node *n, void *user) { (void)n, (void)user; return k_nothing; }

static ge_graph *branches_graph(uint32_t heavy, uint32_t light, uint32_t len, float *w) {
  int64_t xd[2] = {4, 256}, wd[2] = {256, 256}, sd[1] = {4};
  ge_graph *g = tu_new_graph("branches");
  ge_node_id x, small, cw, prev;
  ge_edge outs[16], in[2];
  ge_tensor t;
  uint32_t b, k, n_out = 0;
  char name[32];
  TU_OK(ge_graph_add_data(g, "x", GE_DTYPE_FLOAT32, 2, xd, &x, NULL));
  TU_OK(ge_graph_add_data(g, "s", GE_DTYPE_FLOAT32, 1, sd, &small, NULL));
  memset(&t, 0, sizeof t);
  t.dtype = GE_DTYPE_FLOAT32, t.rank = 2, t.dims = wd, t.data = w, t.nbytes = 256 * 256 * sizeof(float);
  TU_OK(ge_graph_add_const(g, "w", &t, &cw, NULL));
  for (b = 0; b < heavy + light; b++) {
    prev = b < heavy ? x : small;
    for (k = 0; k < len; k++) {
      snprintf(name, sizeof name, "b%u_%u", (unsigned)b, (unsigned)k);
      in[0] = tu_e(prev, 0), in[1] = tu_e(cw, 0);
      if (b < heavy) {
        prev = tu_add_op_shaped(g, "MatMul", name, 2, in, GE_DTYPE_FLOAT32, 2, xd);
        ge_graph_node(g, prev)->engine = (int32_t)(b % SU_NUM_ENGINES);
        in[0] = tu_e(prev, 0);
        snprintf(name, sizeof name, "t%u_%u", (unsigned)b, (unsigned)k);
        prev = tu_add_op_shaped(g, "Tanh", name, 1, in, GE_DTYPE_FLOAT32, 2, xd);
      } else
        prev = tu_add_op_shaped(g, "Neg", name, 1, in, GE_DTYPE_FLOAT32, 1, sd);
      ge_graph_node(g, prev)->engine = (int32_t)(b % SU_NUM_ENGINES);
    }
    outs[n_out++] = tu_e(prev, 0);
  }
  TU_OK(ge_graph_set_outputs(g, n_out, outs, NULL, NULL));
  return g;
}

static ge_executor_kind auto_pick(ge_graph *g, ge_runtime *rt, int with_plan) {
  ge_stream_plan plan;
  ge_stream_desc sd;
  ge_exec_desc d;
  ge_program *p = NULL;
  ge_executor_kind picked = GE_EXECUTOR_AUTO;
  ge_error err;
  memset(&plan, 0, sizeof plan);
  memset(&sd, 0, sizeof sd);
  sd.engines = su_engines, sd.num_engines = SU_NUM_ENGINES, sd.dynamic = -1, sd.max_parallel = 8;
  if (with_plan && !ge_test__check(ge_stream_allocate(g, &sd, &plan, &err) == GE_OK, __FILE__, __LINE__, "allocate: %s",
                                   err.message))
    return picked;
  memset(&d, 0, sizeof d);
  d.lookup = lookup_any, d.runtime = rt, d.streams = with_plan ? &plan : NULL;
  if (ge_test__check(ge_program_create(g, &d, &p, &err) == GE_OK, __FILE__, __LINE__, "create: %s", err.message))
    picked = ge_program_executor(p);
  ge_program_free(p);
  if (with_plan) ge_stream_plan_free(&plan);
  return picked;
}

GE_TEST(test_auto_pick_by_work) {
  static float w[256 * 256];
  ge_runtime *rt[2] = {NULL, NULL};
  ge_runtime_desc rd;
  ge_error err;
  int plan;
  ge_graph *wide = branches_graph(4, 0, 4, w), *lopsided = branches_graph(1, 3, 6, w), *chain = branches_graph(1, 0, 8, w);
  memset(&rd, 0, sizeof rd);
  for (rd.num_threads = 1; rd.num_threads <= 2; rd.num_threads++) OK(ge_runtime_create(&rd, &rt[rd.num_threads - 1], &err));
  for (plan = 0; plan < 2; plan++) {
    /* four equal branches keep two threads busy */
    GE_CHECK_EQ_INT(auto_pick(wide, rt[1], plan), plan ? GE_EXECUTOR_STREAMS : GE_EXECUTOR_MULTI_THREAD);
    GE_CHECK_EQ_INT(auto_pick(wide, rt[0], plan), GE_EXECUTOR_SEQUENTIAL);
    /* wide in tasks, not in work: the kernels take the threads */
    GE_CHECK_EQ_INT(auto_pick(lopsided, rt[1], plan), GE_EXECUTOR_SEQUENTIAL);
    GE_CHECK_EQ_INT(auto_pick(chain, rt[1], plan), GE_EXECUTOR_SEQUENTIAL);
  }
  ge_graph_free(wide), ge_graph_free(lopsided), ge_graph_free(chain);
  ge_runtime_free(rt[0]), ge_runtime_free(rt[1]);
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
    /* the stream executor may see the abort from a thread waiting for
     * the run to end: it names the task running then (n0 itself, still
     * returning) or waiting at a synchronisation entry (any of n1..n6) */
    if (!ge_test__check(strstr(err.message, "aborted at node 'n1'") != NULL ||
                            (ex == GE_EXECUTOR_STREAMS && strstr(err.message, "aborted at node 'n")),
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

/* x -> Slow s0 .. s19 -> y, engines alternating (two streams or more) */
static ge_graph *slow_chain(ge_stream_plan *plan) {
  ge_graph *g = tu_new_graph("slow_chain");
  ge_node_id prev;
  ge_edge e;
  ge_stream_desc sd;
  ge_error err;
  uint32_t i;
  char name[16];
  TU_OK(ge_graph_add_data(g, "x", GE_DTYPE_FLOAT64, 0, NULL, &prev, NULL));
  for (i = 0; i < 20; i++) {
    e = tu_e(prev, 0);
    snprintf(name, sizeof name, "s%u", (unsigned)i);
    TU_OK(ge_graph_add_node(g, "Slow", name, 1, &e, 1, &prev, NULL));
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

/* A run of 20 x 2 ms with a 10 ms timeout stops early under every executor
 * and launch mode, naming a Slow node that ran; the next run succeeds. */
GE_TEST(test_timeout_every_executor) {
  ge_stream_plan plan;
  ge_graph *g = slow_chain(&plan);
  ge_runtime *rt = NULL;
  ge_runtime_desc rd;
  ge_error err;
  int k;
  memset(&rd, 0, sizeof rd);
  rd.num_threads = 2;
  OK(ge_runtime_create(&rd, &rt, &err));
  for (k = 0; k < 6; k++) {
    static const ge_executor_kind ex[6] = {GE_EXECUTOR_SEQUENTIAL, GE_EXECUTOR_TOPOLOGICAL, GE_EXECUTOR_PRIORITY,
                                           GE_EXECUTOR_MULTI_THREAD, GE_EXECUTOR_STREAMS, GE_EXECUTOR_STREAMS};
    ge_exec_desc d;
    ge_program *p = NULL;
    double slow = 777, fast = 3;
    ge_value v = scalar(&slow);
    const ge_value *ins[1] = {&v};
    int round;
    memset(&d, 0, sizeof d);
    d.lookup = lookup, d.runtime = rt, d.executor = ex[k], d.streams = &plan;
    d.launch = k == 5 ? GE_LAUNCH_HOST : GE_LAUNCH_SINK;
    d.timeout_ms = 10;
    OK(ge_program_create(g, &d, &p, &err));
    GE_REQUIRE(p);
    for (round = 0; round < 2; round++) { /* twice: the watchdog serves every run */
      slow_calls = 0;
      v.data = &slow;
      GE_CHECK_EQ_INT(ge_program_run(p, ins, 1, &err), GE_ERR_INTERNAL);
      ge_test__check(strstr(err.message, "run timed out after 10 ms: node 's") && strstr(err.message, "(Slow) was running"),
                     __FILE__, __LINE__, "%s: %s", ge_executor_name(ex[k]), err.message);
      GE_CHECK(slow_calls < 20); /* stopped early */
      v.data = &fast;
      OK(ge_program_run(p, ins, 1, &err));
      GE_CHECK(((double *)ge_program_output(p, 0)->data)[0] == 3);
    }
    ge_program_free(p);
  }
  ge_stream_plan_free(&plan);
  ge_graph_free(g);
  ge_runtime_free(rt);
}

/* Loop(M = 1000, -, x) { v = Slow(v) }: one task that would run 2 s; the
 * timeout stops its body and names the Loop. */
GE_TEST(test_timeout_in_loop) {
  ge_graph *g = tu_new_graph("g"), *body = tu_new_graph("body");
  ge_node_id x, m, loop, b_i, b_c, b_v, b_slow;
  ge_edge in[3];
  int64_t trips = 1000;
  ge_tensor mt;
  ge_exec_desc d;
  ge_program *p = NULL;
  ge_error err;
  double slow = 777, fast = 3;
  ge_value v = scalar(&slow);
  const ge_value *ins[1] = {&v};
  memset(&mt, 0, sizeof mt);
  mt.dtype = GE_DTYPE_INT64, mt.data = &trips, mt.nbytes = 8;
  TU_OK(ge_graph_add_data(g, "x", GE_DTYPE_FLOAT64, 0, NULL, &x, NULL));
  TU_OK(ge_graph_add_const(g, "M", &mt, &m, NULL));
  TU_OK(ge_graph_add_data(body, "iter", GE_DTYPE_INT64, 0, NULL, &b_i, NULL));
  TU_OK(ge_graph_add_data(body, "cond", GE_DTYPE_BOOL, 0, NULL, &b_c, NULL));
  TU_OK(ge_graph_add_data(body, "v", GE_DTYPE_FLOAT64, 0, NULL, &b_v, NULL));
  in[0] = tu_e(b_v, 0);
  TU_OK(ge_graph_add_node(body, "Slow", "body_slow", 1, in, 1, &b_slow, NULL));
  in[0] = tu_e(b_c, 0), in[1] = tu_e(b_slow, 0);
  TU_OK(ge_graph_set_outputs(body, 2, in, NULL, NULL));
  in[0] = tu_e(m, 0), in[1] = tu_e(GE_NONE, 0), in[2] = tu_e(x, 0);
  TU_OK(ge_graph_add_node(g, "Loop", "loop", 3, in, 1, &loop, NULL));
  TU_OK(ge_node_set_attr_graph(g, loop, "body", body, NULL));
  in[0] = tu_e(loop, 0);
  TU_OK(ge_graph_set_outputs(g, 1, in, NULL, NULL));
  memset(&d, 0, sizeof d);
  d.lookup = lookup, d.timeout_ms = 20;
  OK(ge_program_create(g, &d, &p, &err));
  GE_REQUIRE(p);
  slow_calls = 0;
  GE_CHECK_EQ_INT(ge_program_run(p, ins, 1, &err), GE_ERR_INTERNAL);
  ge_test__check(strstr(err.message, "run timed out after 20 ms: node 'loop' (Loop) was running") &&
                     strstr(err.message, "body_slow"),
                 __FILE__, __LINE__, "%s", err.message);
  GE_CHECK(slow_calls < 1000);
  v.data = &fast;
  OK(ge_program_run(p, ins, 1, &err));
  GE_CHECK(((double *)ge_program_output(p, 0)->data)[0] == 3);
  ge_program_free(p);
  ge_graph_free(g);
}

/* Counts non-overlapping occurrences of needle in hay. */
static int count_of(const char *hay, const char *needle) {
  int n = 0;
  size_t len = strlen(needle);
  for (; (hay = strstr(hay, needle)) != NULL; hay += len) n++;
  return n;
}

/* The trace of a stream launch: one "X" per task, a lane per stream,
 * an s/f flow pair per event; the per-op table covers every task. */
GE_TEST(test_profile_trace) {
  ge_stream_plan plan;
  ge_graph *g = abort_chain(&plan);
  ge_runtime *rt = NULL;
  ge_runtime_desc rd;
  ge_error err;
  int mode;
  memset(&rd, 0, sizeof rd);
  rd.num_threads = 2;
  OK(ge_runtime_create(&rd, &rt, &err));
  for (mode = 0; mode < 3; mode++) {
    ge_exec_desc d;
    ge_program *p = NULL;
    double x = 3;
    ge_value v = scalar(&x);
    const ge_value *ins[1] = {&v};
    FILE *f = tmpfile();
    char *text;
    long len;
    int r;
    GE_REQUIRE(f);
    memset(&d, 0, sizeof d);
    d.lookup = lookup, d.runtime = rt, d.streams = &plan, d.profile = 1;
    d.executor = mode == 2 ? GE_EXECUTOR_MULTI_THREAD : GE_EXECUTOR_STREAMS;
    d.launch = mode == 1 ? GE_LAUNCH_HOST : GE_LAUNCH_SINK;
    OK(ge_program_create(g, &d, &p, &err));
    GE_REQUIRE(p);
    GE_CHECK_EQ_INT(ge_program_write_trace(p, f, NULL, 0, &err), GE_ERR_INVALID); /* not run yet */
    for (r = 0; r < 3; r++) OK(ge_program_run(p, ins, 1, &err));
    OK(ge_program_write_trace(p, f, NULL, 0, &err));
    len = ftell(f);
    rewind(f);
    text = (char *)calloc((size_t)len + 1, 1);
    GE_REQUIRE(text && fread(text, 1, (size_t)len, f) == (size_t)len);
    GE_CHECK_EQ_INT(count_of(text, "\"ph\":\"X\""), ge_program_num_tasks(p));
    GE_CHECK(strstr(text, "\"name\":\"n3\"") && strstr(text, "\"op\":\"Neg\""));
    GE_CHECK(text[len - 2] == '}' && text[0] == '{');
    if (mode < 2) {
      GE_CHECK_EQ_INT(count_of(text, "\"name\":\"stream "), plan.num_streams);
      GE_CHECK(count_of(text, "\"ph\":\"s\"") >= 1);
      GE_CHECK_EQ_INT(count_of(text, "\"ph\":\"s\""), count_of(text, "\"ph\":\"f\""));
    }
    free(text);
    fclose(f);
    f = tmpfile();
    GE_REQUIRE(f);
    OK(ge_program_write_profile(p, f, &err));
    len = ftell(f);
    rewind(f);
    text = (char *)calloc((size_t)len + 1, 1);
    GE_REQUIRE(text && fread(text, 1, (size_t)len, f) == (size_t)len);
    GE_CHECK(strstr(text, "Neg ") && strstr(text, "AbortIf ") && strstr(text, "3 runs"));
    free(text);
    fclose(f);
    ge_program_free(p);
  }
  ge_stream_plan_free(&plan);
  ge_graph_free(g);
  ge_runtime_free(rt);
}

typedef struct pool_run {
  ge_program *p;
  const ge_value *const *ins;
  int failures;
} pool_run;

static void *pool_runner(void *arg) {
  pool_run *r = (pool_run *)arg;
  ge_error err;
  int k;
  for (k = 0; k < 50; k++) r->failures += ge_program_run(r->p, r->ins, 1, &err) != GE_OK;
  return NULL;
}

/* Two models on one runtime share the pool's streams (created once); a
 * fork of a model gets streams of its own; outputs stay bit-identical to
 * the sequential executor, also with both models running at once. */
GE_TEST(test_stream_pool) {
  ge_stream_plan plan_a, plan_b;
  ge_graph *ga = abort_chain(&plan_a), *gb = planned_dag(77, 40, 3, 4, &plan_b);
  ge_runtime *rt = NULL;
  ge_runtime_desc rd;
  ge_exec_desc d;
  ge_program *pa = NULL, *pb = NULL, *pa2 = NULL, *ref_a = NULL, *ref_b = NULL;
  ge_error err;
  uint32_t created, in_use, created_a, most, i;
  double x = 3;
  ge_value v = scalar(&x);
  const ge_value *ins[1] = {&v};
  ge_value *bins;
  const ge_value **bptr;
  uint32_t nb;
  memset(&rd, 0, sizeof rd);
  rd.num_threads = 2;
  OK(ge_runtime_create(&rd, &rt, &err));
  memset(&d, 0, sizeof d);
  d.lookup = lookup, d.runtime = rt, d.executor = GE_EXECUTOR_STREAMS;
  d.streams = &plan_a;
  OK(ge_program_create(ga, &d, &pa, &err));
  ge_runtime_stream_pool_stats(rt, &created_a, &in_use);
  GE_CHECK_EQ_INT(created_a, plan_a.num_streams);
  GE_CHECK_EQ_INT(in_use, plan_a.num_streams);
  d.streams = &plan_b;
  OK(ge_program_create(gb, &d, &pb, &err));
  ge_runtime_stream_pool_stats(rt, &created, &in_use);
  most = plan_a.num_streams > plan_b.num_streams ? plan_a.num_streams : plan_b.num_streams;
  GE_CHECK_EQ_INT(created, most); /* reused, not made again */
  GE_CHECK_EQ_INT(in_use, most);
  d.streams = &plan_a; /* a fork of model a: streams of its own */
  OK(ge_program_create(ga, &d, &pa2, &err));
  ge_runtime_stream_pool_stats(rt, &created, NULL);
  GE_CHECK(created >= 2 * plan_a.num_streams);
  for (i = 0; i < plan_a.num_streams; i++) {
    uint32_t j;
    for (j = 0; j < plan_a.num_streams; j++)
      GE_CHECK(ge_runtime_streams_pool_id(pa->rs, i) != ge_runtime_streams_pool_id(pa2->rs, j));
  }
  /* references: the sequential executor */
  d.executor = GE_EXECUTOR_SEQUENTIAL, d.streams = NULL, d.runtime = NULL;
  OK(ge_program_create(ga, &d, &ref_a, &err));
  OK(ge_program_create(gb, &d, &ref_b, &err));
  nb = ge_program_num_inputs(ref_b);
  bins = (ge_value *)calloc(nb + 1, sizeof *bins);
  bptr = (const ge_value **)calloc(nb + 1, sizeof *bptr);
  GE_REQUIRE(bins && bptr);
  {
    static double vals[64];
    for (i = 0; i < nb && i < 64; i++) {
      vals[i] = 0.25 * (double)(i + 1);
      bins[i] = scalar(&vals[i]);
      bptr[i] = &bins[i];
    }
  }
  OK(ge_program_run(ref_a, ins, 1, &err));
  OK(ge_program_run(ref_b, bptr, nb, &err));
  {
    pool_run ra, rb;
    pthread_t th;
    int started;
    ra.p = pa, ra.ins = ins, ra.failures = 0;
    rb.p = pb, rb.ins = bptr, rb.failures = 0;
    /* pb takes nb inputs: run it on this thread with its count */
    started = pthread_create(&th, NULL, pool_runner, &ra) == 0;
    GE_REQUIRE(started);
    for (i = 0; i < 50; i++) rb.failures += ge_program_run(pb, bptr, nb, &err) != GE_OK;
    pthread_join(th, NULL);
    GE_CHECK_EQ_INT(ra.failures, 0);
    GE_CHECK_EQ_INT(rb.failures, 0);
  }
  OK(ge_program_run(pa2, ins, 1, &err));
  GE_CHECK(!memcmp(ge_program_output(pa, 0)->data, ge_program_output(ref_a, 0)->data, 8));
  GE_CHECK(!memcmp(ge_program_output(pa2, 0)->data, ge_program_output(ref_a, 0)->data, 8));
  for (i = 0; i < ge_program_num_outputs(ref_b); i++)
    GE_CHECK(!memcmp(ge_program_output(pb, i)->data, ge_program_output(ref_b, i)->data, ge_program_output(ref_b, i)->nbytes));
  ge_program_free(pa);
  ge_program_free(pa2);
  ge_runtime_stream_pool_stats(rt, &created, &in_use);
  GE_CHECK_EQ_INT(in_use, plan_b.num_streams); /* released, still in the pool */
  OK(ge_program_create(ga, &d, &pa, &err)); /* sequential: no streams */
  d.executor = GE_EXECUTOR_STREAMS, d.streams = &plan_a, d.runtime = rt;
  ge_program_free(pa);
  {
    uint32_t before = created;
    OK(ge_program_create(ga, &d, &pa, &err)); /* loaded again: all from the pool */
    ge_runtime_stream_pool_stats(rt, &created, NULL);
    GE_CHECK_EQ_INT(created, before);
    ge_program_free(pa);
  }
  free(bins);
  free(bptr);
  ge_program_free(pb);
  ge_program_free(ref_a);
  ge_program_free(ref_b);
  ge_stream_plan_free(&plan_a);
  ge_stream_plan_free(&plan_b);
  ge_graph_free(ga);
  ge_graph_free(gb);
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
  GE_RUN(test_auto_pick_by_work);
  GE_RUN(test_dropped_event_caught);
  GE_RUN(test_failure_names_node);
  GE_RUN(test_abort);
  GE_RUN(test_async_requests);
  GE_RUN(test_run_loop);
  GE_RUN(test_timeout_every_executor);
  GE_RUN(test_timeout_in_loop);
  GE_RUN(test_profile_trace);
  GE_RUN(test_stream_pool);
  return ge_test_main_end();
}

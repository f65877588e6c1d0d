/* Tests of ge_runtime.h: the thread pool and its parallel loop. Every
 * index of a loop must be visited exactly once, ranges must respect the
 * grain, loops may nest and run from several threads at once, and the pool
 * must stop cleanly. tests/test_runtime_tsan.sh runs this under TSan. */
#include "ge_runtime.h"

#include <pthread.h>
#include <stdlib.h>

#include "tests/test.h"

#define OK(expr) GE_CHECK_EQ_INT((expr), GE_OK)

typedef struct cover {
  int64_t n, grain;
  int *hits;          /* per index: times visited (atomic adds) */
  int64_t sum;        /* sum of the visited indices (atomic) */
  int short_ranges;   /* ranges shorter than grain that are not the last */
  int calls;
} cover;

static void visit(void *arg, int64_t b, int64_t e) {
  cover *c = (cover *)arg;
  int64_t i, s = 0;
  for (i = b; i < e; i++) {
    __atomic_fetch_add(&c->hits[i], 1, __ATOMIC_RELAXED);
    s += i;
  }
  __atomic_fetch_add(&c->sum, s, __ATOMIC_RELAXED);
  __atomic_fetch_add(&c->calls, 1, __ATOMIC_RELAXED);
  if (e - b < c->grain && e != c->n) __atomic_fetch_add(&c->short_ranges, 1, __ATOMIC_RELAXED);
}

/* Runs one loop and checks every index was visited exactly once. */
static int check_cover(ge_runtime *rt, int64_t n, int64_t grain) {
  cover c;
  int64_t i;
  int ok = 1;
  memset(&c, 0, sizeof c);
  c.n = n, c.grain = grain;
  c.hits = (int *)calloc((size_t)n + 1, sizeof(int));
  ge_runtime_parallel_for(rt, n, grain, visit, &c);
  for (i = 0; i < n; i++) ok &= c.hits[i] == 1;
  ok &= c.sum == n * (n - 1) / 2;
  ok &= c.short_ranges == 0;
  free(c.hits);
  return ok;
}

GE_TEST(test_loops_cover_once) {
  int threads;
  for (threads = 1; threads <= 4; threads++) {
    ge_runtime_desc d;
    ge_runtime *rt;
    ge_error err;
    int64_t sizes[] = {1, 2, 3, 7, 64, 1000, 4097, 100000};
    int64_t grains[] = {1, 3, 16, 1000};
    unsigned i, j;
    memset(&d, 0, sizeof d);
    d.num_threads = threads;
    OK(ge_runtime_create(&d, &rt, &err));
    GE_CHECK_EQ_INT(ge_runtime_num_threads(rt), threads);
    for (i = 0; i < sizeof sizes / sizeof *sizes; i++)
      for (j = 0; j < sizeof grains / sizeof *grains; j++)
        if (!check_cover(rt, sizes[i], grains[j]))
          GE_CHECK(!"every index once, ranges at least grain long");
    ge_runtime_free(rt);
  }
  GE_CHECK(check_cover(NULL, 1000, 7)); /* no runtime: serial */
}

/* A budget of 2 really uses the worker: some range runs on another thread. */
typedef struct where {
  pthread_t caller;
  int other;
} where;

static void note_thread(void *arg, int64_t b, int64_t e) {
  where *w = (where *)arg;
  volatile double x = 0;
  int64_t i, k;
  for (i = b; i < e; i++)
    for (k = 0; k < 20000; k++) x += (double)k * 0.5; /* long enough for the worker to wake */
  if (!pthread_equal(pthread_self(), w->caller)) __atomic_store_n(&w->other, 1, __ATOMIC_RELAXED);
}

GE_TEST(test_worker_takes_part) {
  ge_runtime_desc d;
  ge_runtime *rt;
  ge_error err;
  where w;
  int round;
  memset(&d, 0, sizeof d);
  d.num_threads = 2;
  OK(ge_runtime_create(&d, &rt, &err));
  w.caller = pthread_self();
  w.other = 0;
  for (round = 0; round < 200 && !__atomic_load_n(&w.other, __ATOMIC_RELAXED); round++)
    ge_runtime_parallel_for(rt, 64, 1, note_thread, &w);
  GE_CHECK(w.other);
  ge_runtime_free(rt);
}

/* The caller claims ranges from the front and the workers from the back,
 * so a loop's first ranges stay on the caller and its last on the worker
 * from one loop to the next (what a thread wrote is in its own cache when
 * the next loop reads it): every caller index lies before every worker's. */
enum { SIDE_N = 37 };
typedef struct sides {
  pthread_t caller;
  int by_caller[SIDE_N]; /* 1 where the caller ran the index, 0 where a worker did (ranges are disjoint) */
} sides;

static void note_side(void *arg, int64_t b, int64_t e) {
  sides *s = (sides *)arg;
  volatile double x = 0;
  int64_t k;
  for (k = 0; k < 20000 * (e - b); k++) x += (double)k * 0.5;
  for (k = b; k < e; k++) s->by_caller[k] = pthread_equal(pthread_self(), s->caller);
}

GE_TEST(test_caller_front_workers_back) {
  int threads;
  for (threads = 2; threads <= 3; threads++) {
    ge_runtime_desc d;
    ge_runtime *rt;
    ge_error err;
    int round, both = 0;
    memset(&d, 0, sizeof d);
    d.num_threads = threads;
    OK(ge_runtime_create(&d, &rt, &err));
    for (round = 0; round < 50; round++) {
      sides s;
      int i, switches = 0;
      s.caller = pthread_self();
      ge_runtime_parallel_for(rt, SIDE_N, 1, note_side, &s);
      for (i = 1; i < SIDE_N; i++) switches += s.by_caller[i] != s.by_caller[i - 1];
      GE_CHECK(switches <= 1 && (switches == 0 || s.by_caller[0])); /* caller's indices, then the workers' */
      both += switches;
    }
    GE_CHECK(both > 0);
    ge_runtime_free(rt);
  }
}

/* Nested loops: each range of an outer loop runs an inner loop. */
typedef struct nest {
  ge_runtime *rt;
  int *hits; /* 50 x 300 */
} nest;

static void inner(void *arg, int64_t b, int64_t e) {
  int *row = (int *)arg;
  int64_t i;
  for (i = b; i < e; i++) __atomic_fetch_add(&row[i], 1, __ATOMIC_RELAXED);
}

static void outer(void *arg, int64_t b, int64_t e) {
  nest *s = (nest *)arg;
  int64_t i;
  for (i = b; i < e; i++) ge_runtime_parallel_for(s->rt, 300, 8, inner, s->hits + i * 300);
}

GE_TEST(test_nested_loops) {
  ge_runtime_desc d;
  ge_runtime *rt;
  ge_error err;
  nest s;
  int i, bad = 0;
  memset(&d, 0, sizeof d);
  d.num_threads = 3;
  OK(ge_runtime_create(&d, &rt, &err));
  s.rt = rt;
  s.hits = (int *)calloc(50 * 300, sizeof(int));
  ge_runtime_parallel_for(rt, 50, 1, outer, &s);
  for (i = 0; i < 50 * 300; i++) bad += s.hits[i] != 1;
  GE_CHECK_EQ_INT(bad, 0);
  free(s.hits);
  ge_runtime_free(rt);
}

/* Two outside threads share one runtime's workers. */
typedef struct client {
  ge_runtime *rt;
  int ok;
} client;

static void *client_main(void *arg) {
  client *c = (client *)arg;
  int r;
  c->ok = 1;
  for (r = 0; r < 50; r++) c->ok &= check_cover(c->rt, 1000 + r * 37, 5);
  return NULL;
}

GE_TEST(test_concurrent_callers) {
  ge_runtime_desc d;
  ge_runtime *rt;
  ge_error err;
  client c[2];
  pthread_t t;
  memset(&d, 0, sizeof d);
  d.num_threads = 2;
  d.spin = 50; /* exercise the sleeping path too */
  OK(ge_runtime_create(&d, &rt, &err));
  c[0].rt = c[1].rt = rt;
  GE_REQUIRE(pthread_create(&t, NULL, client_main, &c[1]) == 0);
  client_main(&c[0]);
  pthread_join(t, NULL);
  GE_CHECK(c[0].ok && c[1].ok);
  ge_runtime_free(rt);
}

GE_TEST(test_bad_budget) {
  ge_runtime_desc d;
  ge_runtime *rt;
  ge_error err;
  memset(&d, 0, sizeof d);
  d.num_threads = 100000;
  GE_CHECK_EQ_INT(ge_runtime_create(&d, &rt, &err), GE_ERR_INVALID);
  GE_CHECK(rt == NULL && strstr(err.message, "threads") != NULL);
  d.num_threads = 0; /* default: the caller alone */
  OK(ge_runtime_create(&d, &rt, &err));
  GE_CHECK_EQ_INT(ge_runtime_num_threads(rt), 1);
  GE_CHECK(check_cover(rt, 500, 3));
  ge_runtime_free(rt);
}

int main(int argc, char **argv) {
  ge_test_init(argc, argv);
  GE_RUN(test_loops_cover_once);
  GE_RUN(test_worker_takes_part);
  GE_RUN(test_caller_front_workers_back);
  GE_RUN(test_nested_loops);
  GE_RUN(test_concurrent_callers);
  GE_RUN(test_bad_budget);
  return ge_test_main_end();
}

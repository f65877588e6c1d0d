/* conv_shares.c — where a conv's second thread goes: one 3x3 Conv layer
 * (bench/conv_layers.h) run back to back on 1 thread, then on 2 threads
 * (ge_runtime's pool) with each share of its last parallel loop timed and
 * attributed to the thread that ran it, then the same 2-thread plan with
 * every share run one after another on the calling thread. Prints the
 * medians: the 1-thread time, the 2-thread time and gain, each share's time
 * run concurrently (m: main thread, w: worker), and the serial plan's time
 * and shares, and last two independent 1-thread copies of the layer (inputs,
 * weights, outputs of their own) run at once on two threads. A share slower
 * when both threads run than alone is time the split costs beyond its
 * work; copies that do not slow each other put it on what the shares share
 * (the "2 threads" section of bench/README.md).
 *
 *   make build/conv_shares
 *   build/conv_shares C HW M STRIDE [ROUNDS]   e.g. build/conv_shares 64 56 64 1
 *   (3x3 kernel, pads 1, Relu; ROUNDS timed runs of each, default 41) */
#define _POSIX_C_SOURCE 199309L
#define GE_IMPLEMENTATION
#include "ge_exec.h"
#include "ge_engines/ai_core.h"
#include "tests/test.h"
#include "tests/kernel_harness.h"
#include "bench/conv_layers.h"

#include <pthread.h>

#define MAX_ROUNDS 101
#define MAX_SHARES 16

static double usec(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e6 + (double)t.tv_nsec * 1e-3;
}

/* The shares of the loop being timed: their times and threads, per round. */
static ge_runtime *pool;
static int round_at, serial;
static int64_t shares;
static double share_us[MAX_ROUNDS][MAX_SHARES];
static int share_thread[MAX_ROUNDS][MAX_SHARES];

typedef struct timed {
  ge_parallel_fn fn;
  void *arg;
} timed;

static void timed_range(void *arg, int64_t begin, int64_t end) {
  const timed *t = (const timed *)arg;
  int64_t i;
  for (i = begin; i < end; i++) {
    double t0 = usec();
    t->fn(t->arg, i, i + 1);
    if (i < MAX_SHARES) {
      share_us[round_at][i] = usec() - t0;
      share_thread[round_at][i] = ge_runtime_thread_index(pool);
    }
  }
}

/* The kernel's parallel loops: on the pool, or (serial) all on this thread. */
static void timed_parallel_for(ge_kernel_env *env, int64_t n, int64_t grain, ge_parallel_fn fn, void *arg) {
  timed t;
  t.fn = fn, t.arg = arg;
  shares = n;
  if (serial) timed_range(&t, 0, n);
  else ge_runtime_parallel_for((ge_runtime *)env->executor, n, grain, timed_range, &t);
}

static double median(const double *a, int n) {
  double b[MAX_ROUNDS];
  memcpy(b, a, (size_t)n * sizeof *a);
  qsort(b, (size_t)n, sizeof *b, cmp_d);
  return b[n / 2];
}

/* Median µs of `rounds` back-to-back runs of s (after 5 warm-ups). */
static double time_setup(setup *s, int rounds) {
  double t[MAX_ROUNDS];
  int r;
  for (r = -5; r < rounds; r++) {
    double t0;
    round_at = r < 0 ? 0 : r;
    t0 = usec();
    s->fn(&s->c);
    if (r >= 0) t[r] = usec() - t0;
  }
  return median(t, rounds);
}

/* One copy's runs on its own thread: the median µs once *go is set. */
typedef struct copy_job {
  setup *s;
  int rounds;
  volatile int *go;
  double median_us;
} copy_job;

static void *run_copy(void *arg) {
  copy_job *j = (copy_job *)arg;
  double t[MAX_ROUNDS];
  int r;
  while (!*j->go) {
  }
  for (r = 0; r < j->rounds; r++) {
    double t0 = usec();
    j->s->fn(&j->s->c);
    t[r] = usec() - t0;
  }
  j->median_us = median(t, j->rounds);
  return NULL;
}

static void print_shares(int rounds, int with_thread) {
  int64_t i;
  for (i = 0; i < shares && i < MAX_SHARES; i++) {
    double col[MAX_ROUNDS];
    int r, on_worker = 0;
    for (r = 0; r < rounds; r++) col[r] = share_us[r][i], on_worker += share_thread[r][i] > 0;
    printf(" %.0f", median(col, rounds));
    if (with_thread) printf("%s", 2 * on_worker > rounds ? "w" : "m");
  }
  printf("\n");
}

int main(int argc, char **argv) {
  layer l = {"conv", 0, 0, 0, 0, 0, 1, 3, 3, 1, 1, 1, 1, "Relu"};
  setup one, two;
  double t1, t2, ts;
  int rounds = argc > 5 ? atoi(argv[5]) : 41;
  if (argc < 5) {
    fprintf(stderr, "usage: conv_shares C HW M STRIDE [ROUNDS]\n");
    return 2;
  }
  l.c = atoi(argv[1]), l.h = l.w = atoi(argv[2]), l.m = atoi(argv[3]), l.s = atoi(argv[4]);
  if (l.c < 1 || l.h < 1 || l.m < 1 || l.s < 1 || rounds < 1 || rounds > MAX_ROUNDS) {
    fprintf(stderr, "conv_shares: C, HW, M, STRIDE >= 1 and 1 <= ROUNDS <= %d\n", MAX_ROUNDS);
    return 2;
  }
  if (!setup_make(&one, &l, 1) || !setup_make(&two, &l, 2)) {
    fprintf(stderr, "conv_shares: cannot set the layer up\n");
    return 1;
  }
  pool = (ge_runtime *)two.env.executor;
  two.env.parallel_for = timed_parallel_for;
  t1 = time_setup(&one, rounds);
  t2 = time_setup(&two, rounds);
  printf("3x3/%lld %lld->%lld on %lldx%lld: 1 thread %.1f us, 2 threads %.1f us (%.2fx)\n  shares, 2 threads:",
         (long long)l.s, (long long)l.c, (long long)l.m, (long long)l.h, (long long)l.w, t1, t2, t1 / t2);
  print_shares(rounds, 1);
  serial = 1;
  ts = time_setup(&two, rounds);
  printf("  the same plan on one thread: %.1f us, shares:", ts);
  print_shares(rounds, 0);
  {
    setup other;
    copy_job a, b;
    volatile int go = 0;
    pthread_t th;
    if (!setup_make(&other, &l, 1)) {
      fprintf(stderr, "conv_shares: cannot set the layer up\n");
      return 1;
    }
    time_setup(&other, 5); /* warm */
    a.s = &one, b.s = &other, a.rounds = b.rounds = rounds, a.go = b.go = &go;
    if (pthread_create(&th, NULL, run_copy, &b)) {
      fprintf(stderr, "conv_shares: cannot start a thread\n");
      return 1;
    }
    go = 1;
    run_copy(&a);
    pthread_join(th, NULL);
    printf("  two 1-thread copies at once: %.1f and %.1f us (alone: %.1f)\n", a.median_us, b.median_us, t1);
    setup_free(&other);
  }
  setup_free(&one);
  setup_free(&two);
  return 0;
}

/* test_pool.h — a tiny thread pool for kernel tests and benchmarks: it
 * implements ge_kernel_env.parallel_for by running the first share on the
 * calling thread and the others on freshly started threads (up to
 * TP_MAX_THREADS), so kernels can be checked and timed with threads before
 * an executor gives them a pool. Needs POSIX threads. */
#ifndef GE_TEST_POOL_H
#define GE_TEST_POOL_H

#include <pthread.h>

#define TP_MAX_THREADS 4

typedef struct tp_share {
  ge_parallel_fn fn;
  void *arg;
  int64_t begin, end;
} tp_share;

static void *tp_share_run(void *p) {
  tp_share *s = (tp_share *)p;
  s->fn(s->arg, s->begin, s->end);
  return NULL;
}

/* ge_kernel_env.parallel_for: [0, n) in up to num_threads shares of at
 * least grain indices each. */
static void tp_parallel_for(ge_kernel_env *env, int64_t n, int64_t grain, ge_parallel_fn fn, void *arg) {
  tp_share sh[TP_MAX_THREADS];
  pthread_t th[TP_MAX_THREADS];
  int started[TP_MAX_THREADS];
  int64_t parts = env->num_threads < TP_MAX_THREADS ? env->num_threads : TP_MAX_THREADS, i;
  if (grain < 1) grain = 1;
  if (parts > n / grain) parts = n / grain;
  if (parts < 1) parts = 1;
  for (i = 0; i < parts; i++) {
    sh[i].fn = fn;
    sh[i].arg = arg;
    sh[i].begin = n * i / parts;
    sh[i].end = n * (i + 1) / parts;
    started[i] = i > 0 && pthread_create(&th[i], NULL, tp_share_run, &sh[i]) == 0;
    if (i > 0 && !started[i]) tp_share_run(&sh[i]); /* no thread: run it here */
  }
  tp_share_run(&sh[0]);
  for (i = 1; i < parts; i++)
    if (started[i]) pthread_join(th[i], NULL);
}

#endif /* GE_TEST_POOL_H */

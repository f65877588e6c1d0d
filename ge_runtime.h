/* ge_runtime.h — the runtime core: a thread pool the caller owns and the
 * intra-op parallel loop on it. Needs no graph (only ge_graph.h's base
 * types: ge_status, ge_error, ge_allocator, ge_parallel_fn).
 *
 * Part of ge. Include anywhere for the declarations; define
 * GE_RUNTIME_IMPLEMENTATION (or GE_IMPLEMENTATION) in one translation unit.
 *
 * A runtime is a thread budget N: N-1 worker threads plus whichever caller
 * thread asks it for work, so never more than N threads run its work. The
 * workers serve jobs: parallel loops (ge_runtime_parallel_for) and, in
 * ge_exec.h, whole stream launches and multi-thread ready queues. A thread
 * that waits for something (its loop's last range, an event of another
 * stream) first takes any other ready work, then polls a bounded while
 * (a hand-off costs ~44 ns to a polling thread, 12-15 us to a sleeping
 * one), and only then sleeps on a condition variable until something
 * changes. There are no globals: two runtimes are fully independent.
 *
 * Thread safety: every function but ge_runtime_free may be called from any
 * thread, the runtime's own workers included (nested loops are fine: the
 * calling thread can always finish its loop alone).
 */
#ifndef GE_RUNTIME_H
#define GE_RUNTIME_H

#include "ge_graph.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ge_runtime ge_runtime;

typedef struct ge_runtime_desc {
  ge_allocator allocator; /* zero: the default */
  int num_threads;        /* the thread budget, the caller included; <= 0: 1 (no workers) */
  uint32_t spin;          /* polls of a waiting thread before it sleeps; 0: 2000 */
} ge_runtime_desc;

/* Starts num_threads - 1 workers (they sleep until there is work). */
GE_API ge_status ge_runtime_create(const ge_runtime_desc *desc, ge_runtime **out, ge_error *err);
/* Stops and joins the workers. No job may be running. */
GE_API void ge_runtime_free(ge_runtime *rt);
GE_API int ge_runtime_num_threads(const ge_runtime *rt);

/* Calls fn(arg, begin, end) over disjoint ranges covering [0, n), each at
 * least grain long but the last, on the calling thread and whichever
 * workers are free; returns when all are done. rt NULL, a budget of one,
 * or n <= grain: one call fn(arg, 0, n) on this thread. */
GE_API void ge_runtime_parallel_for(ge_runtime *rt, int64_t n, int64_t grain, ge_parallel_fn fn, void *arg);

/* ---- for executors built on the pool (ge_exec.h) ----
 * A job is anything the workers can help with: work() runs what it can
 * claim and returns nonzero when it ran something. A job is posted while
 * its owner needs help and withdrawn before its memory goes away. */
typedef struct ge_runtime_job ge_runtime_job;
struct ge_runtime_job {
  int (*work)(ge_runtime_job *job);
};
/* 0 when every job slot is taken (the owner then works alone). */
GE_API int ge_runtime_post(ge_runtime *rt, ge_runtime_job *job);
/* Returns once no worker is inside job->work. */
GE_API void ge_runtime_withdraw(ge_runtime *rt, ge_runtime_job *job);
/* Something may have become runnable or done: wakes the waiting threads. */
GE_API void ge_runtime_notify(ge_runtime *rt);
/* A stamp of the runtime's change counter: take one before checking a
 * condition, then ge_runtime_wait with it when the condition is false. */
GE_API unsigned ge_runtime_stamp(ge_runtime *rt);
/* Polls, then sleeps, until ge_runtime_notify has been called after stamp
 * was taken. Runs other posted jobs' work meanwhile when help is nonzero. */
GE_API void ge_runtime_wait(ge_runtime *rt, unsigned stamp, int help);

#ifdef __cplusplus
}
#endif
#endif /* GE_RUNTIME_H */

/* ===================================================================== */
#if defined(GE_IMPLEMENTATION) || defined(GE_RUNTIME_IMPLEMENTATION)
#ifndef GE_RUNTIME_IMPLEMENTATION_DONE
#define GE_RUNTIME_IMPLEMENTATION_DONE

#include <pthread.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* GCC/Clang atomics (C99 has none; these work in C and C++ alike). */
#define GE__RT_LOAD(p) __atomic_load_n((p), __ATOMIC_SEQ_CST)
#define GE__RT_LOAD_RELAXED(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#define GE__RT_STORE(p, v) __atomic_store_n((p), (v), __ATOMIC_SEQ_CST)
#define GE__RT_ADD(p, v) __atomic_fetch_add((p), (v), __ATOMIC_SEQ_CST)
#define GE__RT_CAS(p, expect, v) \
  __atomic_compare_exchange_n((p), (expect), (v), 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)

#if defined(__x86_64__) || defined(__i386__)
#define GE__RT_PAUSE() __builtin_ia32_pause()
#else
#define GE__RT_PAUSE() ((void)0)
#endif

#define GE__RT_SLOTS 64

/* A posted job; users counts the threads inside its work (a withdrawing
 * owner waits for them to leave). */
typedef struct ge__rt_slot {
  ge_runtime_job *job;
  int users;
} ge__rt_slot;

struct ge_runtime {
  ge_allocator a;
  int num_threads, num_workers, started;
  uint32_t spin;
  pthread_t *threads;
  pthread_mutex_t lock;
  pthread_cond_t wake;
  unsigned epoch;  /* bumped by every notify */
  int sleepers;    /* threads in (or entering) pthread_cond_wait */
  int stop;
  int num_slots;   /* slots[0, num_slots) may hold jobs */
  ge__rt_slot slots[GE__RT_SLOTS];
};

GE_API int ge_runtime_num_threads(const ge_runtime *rt) { return rt ? rt->num_threads : 1; }
GE_API unsigned ge_runtime_stamp(ge_runtime *rt) { return GE__RT_LOAD(&rt->epoch); }

GE_API void ge_runtime_notify(ge_runtime *rt) {
  GE__RT_ADD(&rt->epoch, 1u);
  /* seq_cst pairs with the sleeper's: it either sees the new epoch or is counted here */
  if (GE__RT_LOAD(&rt->sleepers)) {
    pthread_mutex_lock(&rt->lock);
    pthread_cond_broadcast(&rt->wake);
    pthread_mutex_unlock(&rt->lock);
  }
}

/* Runs one round of every posted job's work; nonzero when any ran something. */
static int ge__rt_help(ge_runtime *rt) {
  int i, n = GE__RT_LOAD(&rt->num_slots), did = 0;
  for (i = 0; i < n; i++) {
    ge__rt_slot *s = &rt->slots[i];
    ge_runtime_job *j;
    if (!GE__RT_LOAD_RELAXED(&s->job)) continue;
    GE__RT_ADD(&s->users, 1);
    if ((j = GE__RT_LOAD(&s->job)) != NULL) did |= j->work(j) != 0;
    GE__RT_ADD(&s->users, -1);
  }
  return did;
}

GE_API void ge_runtime_wait(ge_runtime *rt, unsigned stamp, int help) {
  uint32_t i;
  for (i = 0; i < rt->spin; i++) {
    if (GE__RT_LOAD(&rt->epoch) != stamp || GE__RT_LOAD_RELAXED(&rt->stop)) return;
    if (help && ge__rt_help(rt)) return; /* ran something: the caller rechecks */
    GE__RT_PAUSE();
  }
  pthread_mutex_lock(&rt->lock);
  GE__RT_ADD(&rt->sleepers, 1);
  while (GE__RT_LOAD(&rt->epoch) == stamp && !GE__RT_LOAD(&rt->stop)) pthread_cond_wait(&rt->wake, &rt->lock);
  GE__RT_ADD(&rt->sleepers, -1);
  pthread_mutex_unlock(&rt->lock);
}

GE_API int ge_runtime_post(ge_runtime *rt, ge_runtime_job *job) {
  int i;
  for (i = 0; i < GE__RT_SLOTS; i++) {
    ge_runtime_job *none = NULL;
    if (GE__RT_LOAD_RELAXED(&rt->slots[i].job) || !GE__RT_CAS(&rt->slots[i].job, &none, job)) continue;
    for (;;) { /* num_slots = max(num_slots, i + 1) */
      int n = GE__RT_LOAD(&rt->num_slots);
      if (n > i || GE__RT_CAS(&rt->num_slots, &n, i + 1)) break;
    }
    ge_runtime_notify(rt);
    return 1;
  }
  return 0;
}

GE_API void ge_runtime_withdraw(ge_runtime *rt, ge_runtime_job *job) {
  int i;
  for (i = 0; i < GE__RT_SLOTS; i++) {
    ge__rt_slot *s = &rt->slots[i];
    if (GE__RT_LOAD_RELAXED(&s->job) != job) continue;
    GE__RT_STORE(&s->job, (ge_runtime_job *)NULL);
    while (GE__RT_LOAD(&s->users)) GE__RT_PAUSE(); /* they find nothing left and return at once */
    return;
  }
}

static void *ge__rt_worker(void *arg) {
  ge_runtime *rt = (ge_runtime *)arg;
  while (!GE__RT_LOAD(&rt->stop)) {
    unsigned stamp = ge_runtime_stamp(rt);
    if (!ge__rt_help(rt)) ge_runtime_wait(rt, stamp, 0);
  }
  return NULL;
}

GE_API void ge_runtime_free(ge_runtime *rt) {
  int i;
  if (!rt) return;
  GE__RT_STORE(&rt->stop, 1);
  ge_runtime_notify(rt);
  pthread_mutex_lock(&rt->lock); /* a worker between its check and its wait holds the lock */
  pthread_cond_broadcast(&rt->wake);
  pthread_mutex_unlock(&rt->lock);
  for (i = 0; i < rt->started; i++) pthread_join(rt->threads[i], NULL);
  pthread_cond_destroy(&rt->wake);
  pthread_mutex_destroy(&rt->lock);
  if (rt->threads) rt->a.free(rt->a.user, rt->threads, (size_t)rt->num_workers * sizeof(pthread_t));
  rt->a.free(rt->a.user, rt, sizeof *rt);
}

GE_API ge_status ge_runtime_create(const ge_runtime_desc *desc, ge_runtime **out, ge_error *err) {
  ge_allocator a = ge_allocator_or_default(desc ? &desc->allocator : NULL);
  ge_runtime *rt;
  int n = desc && desc->num_threads > 0 ? desc->num_threads : 1;
  *out = NULL;
  if (n > 1024) return ge_error_set(err, GE_ERR_INVALID, "ge_runtime_create: %d threads (at most 1024)", n);
  if (!(rt = (ge_runtime *)a.alloc(a.user, sizeof *rt))) return ge_error_set(err, GE_ERR_NOMEM, "out of memory");
  memset(rt, 0, sizeof *rt);
  rt->a = a;
  rt->num_threads = n;
  rt->num_workers = n - 1;
  rt->spin = desc && desc->spin ? desc->spin : 2000;
  if (pthread_mutex_init(&rt->lock, NULL)) {
    a.free(a.user, rt, sizeof *rt);
    return ge_error_set(err, GE_ERR_INTERNAL, "ge_runtime_create: pthread_mutex_init failed");
  }
  if (pthread_cond_init(&rt->wake, NULL)) {
    pthread_mutex_destroy(&rt->lock);
    a.free(a.user, rt, sizeof *rt);
    return ge_error_set(err, GE_ERR_INTERNAL, "ge_runtime_create: pthread_cond_init failed");
  }
  if (rt->num_workers &&
      !(rt->threads = (pthread_t *)a.alloc(a.user, (size_t)rt->num_workers * sizeof(pthread_t)))) {
    ge_runtime_free(rt);
    return ge_error_set(err, GE_ERR_NOMEM, "out of memory");
  }
  for (; rt->started < rt->num_workers; rt->started++)
    if (pthread_create(&rt->threads[rt->started], NULL, ge__rt_worker, rt)) {
      ge_runtime_free(rt);
      return ge_error_set(err, GE_ERR_INTERNAL, "ge_runtime_create: cannot start worker thread %d", rt->started + 1);
    }
  *out = rt;
  return GE_OK;
}

/* ------------------------------------------------------ parallel loops */

typedef struct ge__rt_loop {
  ge_runtime_job job;
  ge_runtime *rt;
  ge_parallel_fn fn;
  void *arg;
  int64_t n, chunk;
  int64_t next; /* first index not yet claimed */
  int64_t done; /* indices finished */
} ge__rt_loop;

static int ge__rt_loop_work(ge_runtime_job *job) {
  ge__rt_loop *l = (ge__rt_loop *)job;
  int did = 0;
  for (;;) {
    int64_t b = GE__RT_ADD(&l->next, l->chunk), e;
    if (b >= l->n) return did;
    e = l->n - b < l->chunk ? l->n : b + l->chunk;
    l->fn(l->arg, b, e);
    did = 1;
    if (GE__RT_ADD(&l->done, e - b) + (e - b) == l->n) ge_runtime_notify(l->rt);
  }
}

GE_API void ge_runtime_parallel_for(ge_runtime *rt, int64_t n, int64_t grain, ge_parallel_fn fn, void *arg) {
  ge__rt_loop l;
  int64_t want;
  if (n <= 0) return;
  if (grain < 1) grain = 1;
  if (!rt || rt->num_threads <= 1 || n <= grain) {
    fn(arg, 0, n);
    return;
  }
  /* about four ranges per thread balance uneven ranges without much claiming */
  want = (n + (int64_t)rt->num_threads * 4 - 1) / ((int64_t)rt->num_threads * 4);
  memset(&l, 0, sizeof l);
  l.job.work = ge__rt_loop_work;
  l.rt = rt, l.fn = fn, l.arg = arg, l.n = n;
  l.chunk = want > grain ? want : grain;
  if (!ge_runtime_post(rt, &l.job)) {
    fn(arg, 0, n);
    return;
  }
  ge__rt_loop_work(&l.job);
  for (;;) { /* the others finish the ranges they claimed */
    unsigned stamp = ge_runtime_stamp(rt);
    if (GE__RT_LOAD(&l.done) == n) break;
    ge_runtime_wait(rt, stamp, 0);
  }
  ge_runtime_withdraw(rt, &l.job);
}

#ifdef __cplusplus
}
#endif
#endif /* GE_RUNTIME_IMPLEMENTATION_DONE */
#endif /* GE_RUNTIME_IMPLEMENTATION */

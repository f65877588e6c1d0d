/* ge_runtime.h — the runtime core: a thread pool the caller owns, the
 * intra-op parallel loop on it, streams (from the runtime's stream pool)
 * and ready-queue DAGs of tasks, with optional stamps and profile times.
 * Needs no graph (only ge_graph.h's base
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
 * changes; the owner of a parallel loop, whose last ranges are running,
 * polls longer before it sleeps. A loop's caller claims its ranges from
 * the front, the workers from the back. There are no globals: two runtimes are
 * fully independent.
 *
 * Streams come from the runtime's stream pool (seed 002 §4.7): made once,
 * kept until the runtime is freed, and shared by the stream task lists of
 * every program loaded on it, keyed by <priority, flags>. A pool stream is
 * an in-order queue: two launches that share one run one after the other
 * (a launch claims its pool streams in ascending order, so two launches
 * never wait for each other in a cycle). Task lists with the same owner
 * (the forks of one model) never share a pool stream, so they run at once.
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
 * workers are free; returns when all are done. Up to four indices a
 * thread (a kernel's shares) go out one grain at a time in increasing
 * order, more in about four ranges a thread. rt NULL, a budget of one, or
 * n <= grain: one call fn(arg, 0, n) on this thread. */
GE_API void ge_runtime_parallel_for(ge_runtime *rt, int64_t n, int64_t grain, ge_parallel_fn fn, void *arg);

/* Nanoseconds of a monotonic clock (microsecond steps where the including
 * file declares no clock_gettime, e.g. strict C99 without _POSIX_C_SOURCE). */
GE_API uint64_t ge_runtime_now_ns(void);
/* 1..N-1 on the runtime's worker threads, 0 on any other thread. */
GE_API int ge_runtime_thread_index(const ge_runtime *rt);

/* The stream pool: how many pool streams were ever created (each once),
 * and how many are attached to task lists now. */
GE_API void ge_runtime_stream_pool_stats(ge_runtime *rt, uint32_t *created, uint32_t *in_use);
#define GE_RUNTIME_MAX_STREAMS 2024

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

/* ------------------------------------------------------------ tasks */

/* One record of a flat program: a kernel and its context. */
typedef struct ge_task {
  ge_kernel_fn fn;
  ge_kernel_ctx ctx;
} ge_task;

/* What a finished launch or run tells: GE_OK, the first failure (task is
 * its entry), or an abort (aborted = 1; task is the entry then running, or
 * UINT32_MAX when none was). */
typedef struct ge_runtime_result {
  ge_status status;
  uint32_t task;  /* the caller's id of the failed or interrupted entry */
  int aborted;
} ge_runtime_result;

/* Stamps (debug): when given, every run entry writes stamps[2*id] at its
 * start and stamps[2*id+1] at its end from one counter of the runtime
 * object, so a < b means "a happened before b" across threads. Entries that
 * did not run keep 0.
 *
 * Profile: when set (ge_runtime_*_profile), every run entry writes
 * times[2*id] and times[2*id+1], its start and end in ge_runtime_now_ns(),
 * and threads[id], the ge_runtime_thread_index of the thread that ran it.
 * Both cost one predictable branch per entry when off. */

/* -------------------------------------------------------------- streams */

/* One entry of a stream: wait for events, run the task, record events. */
typedef struct ge_runtime_entry {
  ge_task *task;            /* NULL: synchronisation only */
  uint32_t id;              /* the caller's id (stamps, results) */
  const uint32_t *waits;    /* events [0, num_events) to wait for first */
  uint32_t num_waits;
  const uint32_t *records;  /* events recorded once the task is done */
  uint32_t num_records;
} ge_runtime_entry;

typedef struct ge_runtime_streams_desc {
  uint32_t num_streams;
  const ge_runtime_entry *const *entries; /* per stream, in its order */
  const uint32_t *num_entries;            /* per stream */
  uint32_t num_events;
  uint32_t num_ids;                       /* ids are < num_ids (stamps arrays hold 2*num_ids) */
  /* Host scheduling: the order in which the host launches entries, as a
   * list of stream indices (each occurrence launches that stream's next
   * entry); NULL: stream after stream. Sink mode ignores it. */
  const uint32_t *launch_order;
  /* The pool key of each stream (NULL: all 0) and the owner of the task
   * lists: lists of one owner never share a pool stream (NULL: this
   * object, so it shares with every other). */
  const int32_t *priority;
  const uint32_t *flags;
  const void *owner;
} ge_runtime_streams_desc;

typedef struct ge_runtime_streams ge_runtime_streams;

typedef enum ge_launch_mode {
  GE_LAUNCH_SINK = 0, /* the task lists built at load run with one launch */
  GE_LAUNCH_HOST = 1  /* the host thread launches entry by entry, workers run them */
} ge_launch_mode;

/* Builds the task lists once (all allocation happens here; entries are
 * copied, tasks are referenced). Logical streams are multiplexed onto rt's
 * threads; rt NULL: the launching thread alone. */
GE_API ge_status ge_runtime_streams_create(ge_runtime *rt, const ge_runtime_streams_desc *desc,
                                           ge_runtime_streams **out, ge_error *err);
GE_API void ge_runtime_streams_free(ge_runtime_streams *s);
/* Runs every stream to its end (or the first failure, or an abort) with
 * the calling thread taking part; allocates nothing. One launch at a time
 * per object. shuffle != 0 (debug): streams are picked in a seeded order
 * and one entry is run per pick, to shake out missing events. */
GE_API ge_runtime_result ge_runtime_streams_launch(ge_runtime_streams *s, ge_launch_mode mode, uint64_t *stamps,
                                                   uint32_t shuffle);
/* Asks a running launch to stop: no new entry starts; running ones finish. */
GE_API void ge_runtime_streams_abort(ge_runtime_streams *s);
/* The id of an entry running now (UINT32_MAX: none); any thread. */
GE_API uint32_t ge_runtime_streams_running(ge_runtime_streams *s);
/* The pool stream behind stream i (tests: which are shared). */
GE_API uint32_t ge_runtime_streams_pool_id(const ge_runtime_streams *s, uint32_t i);

/* ---------------------------------------------------- ready-queue DAGs */

/* Topological executors: a task runs once all its predecessors are done.
 * succ_begin[i] .. succ_begin[i+1] index succ[], the successors of task i.
 * With priority, the ready task of highest priority runs first (ties: the
 * lower index); else the ready queue is FIFO. Task i has id i. */
typedef struct ge_runtime_dag_desc {
  ge_task *tasks;
  uint32_t num_tasks;
  const uint32_t *succ_begin; /* num_tasks + 1 */
  const uint32_t *succ;
  const uint64_t *priority;   /* NULL: FIFO */
  int multi_thread;           /* the runtime's workers serve the ready queue */
} ge_runtime_dag_desc;

typedef struct ge_runtime_dag ge_runtime_dag;

GE_API ge_status ge_runtime_dag_create(ge_runtime *rt, const ge_runtime_dag_desc *desc, ge_runtime_dag **out,
                                       ge_error *err);
GE_API void ge_runtime_dag_free(ge_runtime_dag *d);
/* Runs every task (allocates nothing); one run at a time per object. */
GE_API ge_runtime_result ge_runtime_dag_run(ge_runtime_dag *d, uint64_t *stamps);
GE_API void ge_runtime_dag_abort(ge_runtime_dag *d);
GE_API uint32_t ge_runtime_dag_running(ge_runtime_dag *d);
/* An owner's abort flag, read (atomically) before every task: nonzero
 * stops the launch or run as an abort before the next task (the flag is
 * the owner's to clear; NULL: none). ge_runtime_notify wakes waiting
 * threads after setting it. */
GE_API void ge_runtime_streams_cancel_on(ge_runtime_streams *s, const int *flag);
GE_API void ge_runtime_dag_cancel_on(ge_runtime_dag *d, const int *flag);
/* Profile arrays (see above; 2*num_ids and num_ids items, the caller's,
 * alive as long as the object; NULL: off). */
GE_API void ge_runtime_streams_profile(ge_runtime_streams *s, uint64_t *times, uint32_t *threads);
GE_API void ge_runtime_dag_profile(ge_runtime_dag *d, uint64_t *times, uint32_t *threads);

#ifdef __cplusplus
}
#endif
#endif /* GE_RUNTIME_H */

/* ===================================================================== */
#if defined(GE_IMPLEMENTATION) || defined(GE_RUNTIME_IMPLEMENTATION)
#ifndef GE_RUNTIME_IMPLEMENTATION_DONE
#define GE_RUNTIME_IMPLEMENTATION_DONE

#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

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
#define GE__RT_LOOP_POLLS 8        /* a loop's owner polls this many times the spin for its last ranges */
#define GE__RT_WITHDRAW_POLLS 1000 /* then a withdrawing owner yields its CPU between polls */

/* Slow paths kept out of the per-task loops, so those stay small enough to inline. */
#if defined(__GNUC__)
#define GE__RT_NOINLINE __attribute__((noinline))
#else
#define GE__RT_NOINLINE
#endif

/* A posted job; users counts the threads inside its work (a withdrawing
 * owner waits for them to leave). */
typedef struct ge__rt_slot {
  ge_runtime_job *job;
  int users;
} ge__rt_slot;

/* One stream of the pool. */
typedef struct ge__rt_pooled {
  int32_t priority;
  uint32_t flags;
  uint64_t tasks;  /* entries of the task lists attached (reuse prefers the fewest) */
  uint32_t users;  /* task lists attached */
  int busy;        /* a launch holds it */
} ge__rt_pooled;

/* Which task lists use which pool stream, for whom. */
typedef struct ge__rt_attach {
  const void *list, *owner;
  uint32_t stream;
} ge__rt_attach;

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
  /* the stream pool (under pool_lock but busy, which launches claim) */
  pthread_mutex_t pool_lock;
  ge__rt_pooled *pool; /* GE_RUNTIME_MAX_STREAMS, made at the first use: never moves */
  uint32_t pool_len, pool_in_use;
  ge__rt_attach *att;
  uint32_t att_len, att_cap;
};

GE_API uint64_t ge_runtime_now_ns(void) {
#ifdef CLOCK_MONOTONIC
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
#else
  struct timeval t;
  gettimeofday(&t, NULL);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_usec * 1000u;
#endif
}

GE_API int ge_runtime_thread_index(const ge_runtime *rt) {
  int i;
  pthread_t me = pthread_self();
  for (i = 0; rt && i < rt->started; i++)
    if (pthread_equal(rt->threads[i], me)) return i + 1;
  return 0;
}

GE_API void ge_runtime_stream_pool_stats(ge_runtime *rt, uint32_t *created, uint32_t *in_use) {
  pthread_mutex_lock(&rt->pool_lock);
  if (created) *created = rt->pool_len;
  if (in_use) *in_use = rt->pool_in_use;
  pthread_mutex_unlock(&rt->pool_lock);
}

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

/* ge_runtime_wait with a poll budget of its own. */
static void ge__rt_wait_polls(ge_runtime *rt, unsigned stamp, int help, uint64_t polls) {
  uint64_t i;
  for (i = 0; i < polls; i++) {
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

GE_API void ge_runtime_wait(ge_runtime *rt, unsigned stamp, int help) { ge__rt_wait_polls(rt, stamp, help, rt->spin); }

GE_API int ge_runtime_post(ge_runtime *rt, ge_runtime_job *job) {
  int i;
  for (i = 0; i < GE__RT_SLOTS; i++) {
    ge_runtime_job *none = NULL;
    /* a slot with users is still being left: one of them may be this very
     * thread (posting a loop from inside a withdrawn job's work), and its
     * withdraw would then wait for itself */
    if (GE__RT_LOAD_RELAXED(&rt->slots[i].job) || GE__RT_LOAD(&rt->slots[i].users) ||
        !GE__RT_CAS(&rt->slots[i].job, &none, job))
      continue;
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
    uint32_t polls = 0;
    GE__RT_STORE(&s->job, (ge_runtime_job *)NULL);
    /* they find nothing left and return at once, unless one was preempted
     * inside (a woken thread often preempts its waker on a busy machine):
     * then give it this CPU instead of polling through its time slice */
    while (GE__RT_LOAD(&s->users)) {
      if (++polls < GE__RT_WITHDRAW_POLLS) GE__RT_PAUSE();
      else sched_yield();
    }
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
  pthread_mutex_destroy(&rt->pool_lock);
  if (rt->pool) rt->a.free(rt->a.user, rt->pool, GE_RUNTIME_MAX_STREAMS * sizeof *rt->pool);
  if (rt->att) rt->a.free(rt->a.user, rt->att, (size_t)rt->att_cap * sizeof *rt->att);
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
  if (pthread_mutex_init(&rt->pool_lock, NULL)) {
    pthread_cond_destroy(&rt->wake);
    pthread_mutex_destroy(&rt->lock);
    a.free(a.user, rt, sizeof *rt);
    return ge_error_set(err, GE_ERR_INTERNAL, "ge_runtime_create: pthread_mutex_init failed");
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
  int64_t ends; /* chunks claimed: from the front (low 32 bits) and from the back (high) */
  int64_t done; /* indices finished */
} ge__rt_loop;

/* Claims the next chunk from the front or the back; -1 when none is left. */
static int64_t ge__rt_loop_claim(ge__rt_loop *l, int back) {
  int64_t chunks = (l->n + l->chunk - 1) / l->chunk, e = GE__RT_LOAD(&l->ends);
  for (;;) {
    int64_t front = e & 0xffffffff, taken = e >> 32;
    if (front + taken >= chunks) return -1;
    if (GE__RT_CAS(&l->ends, &e, back ? e + ((int64_t)1 << 32) : e + 1)) return back ? chunks - 1 - taken : front;
  }
}

static int ge__rt_loop_run(ge__rt_loop *l, int back) {
  int did = 0;
  for (;;) {
    int64_t k = ge__rt_loop_claim(l, back), b, e;
    if (k < 0) return did;
    b = k * l->chunk;
    e = l->n - b < l->chunk ? l->n : b + l->chunk;
    l->fn(l->arg, b, e);
    did = 1;
    if (GE__RT_ADD(&l->done, e - b) + (e - b) == l->n) ge_runtime_notify(l->rt);
  }
}

/* Workers claim from the back, the caller from the front: a loop's first
 * ranges stay on the caller and its last on the workers from one loop to
 * the next, so a thread mostly reads what it wrote (lines another vCPU
 * wrote came 3x slower on this VM; DenseNet and EfficientNet-B0 ran 6-8%
 * faster on 2 threads than with one shared counter). */
static int ge__rt_loop_work(ge_runtime_job *job) { return ge__rt_loop_run((ge__rt_loop *)job, 1); }

GE_API void ge_runtime_parallel_for(ge_runtime *rt, int64_t n, int64_t grain, ge_parallel_fn fn, void *arg) {
  ge__rt_loop l;
  int64_t want;
  if (n <= 0) return;
  if (grain < 1) grain = 1;
  if (!rt || rt->num_threads <= 1 || n <= grain) {
    fn(arg, 0, n);
    return;
  }
  /* about four ranges per thread balance uneven ranges without much
   * claiming (up to four indices a thread: one at a time, in order) */
  want = (n + (int64_t)rt->num_threads * 4 - 1) / ((int64_t)rt->num_threads * 4);
  memset(&l, 0, sizeof l);
  l.job.work = ge__rt_loop_work;
  l.rt = rt, l.fn = fn, l.arg = arg, l.n = n;
  l.chunk = want > grain ? want : grain;
  if (!ge_runtime_post(rt, &l.job)) {
    fn(arg, 0, n);
    return;
  }
  ge__rt_loop_run(&l, 0);
  for (;;) { /* the others finish the ranges they claimed */
    unsigned stamp = ge_runtime_stamp(rt);
    if (GE__RT_LOAD(&l.done) == n) break;
    /* they are running: poll longer than an idle worker does, as a sleep
     * here puts a wake-up (12-15 us, more when this CPU is taken) on the
     * critical path of every loop whose last range ends a little late */
    ge__rt_wait_polls(rt, stamp, 0, (uint64_t)rt->spin * GE__RT_LOOP_POLLS);
  }
  ge_runtime_withdraw(rt, &l.job);
}

/* ------------------------------------------------------------ shared */

static void *ge__rt_alloc(const ge_allocator *a, size_t n) { return a->alloc(a->user, n ? n : 1); }
static void ge__rt_free(const ge_allocator *a, void *p, size_t n) {
  if (p) a->free(a->user, p, n ? n : 1);
}

/* State of one launch or run, the same for streams and DAGs. */
typedef struct ge__rt_run {
  const int *cancel; /* the owner's abort flag (kept across runs), or NULL */
  uint64_t *stamps;
  uint64_t *times;   /* profile (kept across runs), or NULL */
  uint32_t *threads;
  uint64_t clock;
  int debug;       /* stamps or times: ge__rt_exec takes its slow path */
  int abort;       /* no new task starts */
  int failed;      /* the first failure claimed the result */
  ge_runtime_result result;
} ge__rt_run;

static void ge__rt_run_reset(ge__rt_run *r, uint64_t *stamps) { /* cancel stays */
  r->stamps = stamps;
  r->debug = stamps || r->times;
  r->clock = 0;
  r->abort = r->failed = 0;
  r->result.status = GE_OK;
  r->result.task = UINT32_MAX;
  r->result.aborted = 0;
}

/* The first failure or abort claims the result and stops the run; the
 * fields are atomic because an abort may come from a thread outside it. */
static void ge__rt_stop(ge_runtime *rt, ge__rt_run *r, ge_status st, uint32_t task, int aborted) {
  int zero = 0;
  if (GE__RT_CAS(&r->failed, &zero, 1)) {
    GE__RT_STORE(&r->result.status, st);
    GE__RT_STORE(&r->result.task, task);
    GE__RT_STORE(&r->result.aborted, aborted);
  }
  GE__RT_STORE(&r->abort, 1);
  if (rt) ge_runtime_notify(rt);
}

/* Whether the run must stop: a failure, or the owner's flag (then the stop
 * is claimed as an abort before task next_id). */
static int ge__rt_stopped(ge_runtime *rt, ge__rt_run *r, uint32_t next_id) {
  if (GE__RT_LOAD_RELAXED(&r->abort)) return 1;
  if (!r->cancel || !__atomic_load_n(r->cancel, __ATOMIC_RELAXED)) return 0;
  ge__rt_stop(rt, r, GE_ERR_INTERNAL, next_id, 1);
  return 1;
}

static ge_runtime_result ge__rt_result(ge__rt_run *r) {
  ge_runtime_result x;
  x.status = GE__RT_LOAD(&r->result.status);
  x.task = GE__RT_LOAD(&r->result.task);
  x.aborted = GE__RT_LOAD(&r->result.aborted);
  return x;
}

/* ge__rt_exec with stamps or profile times. */
static GE__RT_NOINLINE ge_status ge__rt_exec_debug(ge_runtime *rt, ge__rt_run *r, ge_task *t, uint32_t id) {
  ge_status st = GE_OK;
  if (r->times) r->threads[id] = (uint32_t)ge_runtime_thread_index(rt), r->times[2 * (size_t)id] = ge_runtime_now_ns();
  if (r->stamps) r->stamps[2 * (size_t)id] = GE__RT_ADD(&r->clock, (uint64_t)1) + 1;
  if (t) st = t->fn(&t->ctx);
  if (r->stamps) r->stamps[2 * (size_t)id + 1] = GE__RT_ADD(&r->clock, (uint64_t)1) + 1;
  if (r->times) r->times[2 * (size_t)id + 1] = ge_runtime_now_ns();
  return st;
}

/* Runs one task; on failure records it (the first only) and stops the run. */
static int ge__rt_exec(ge_runtime *rt, ge__rt_run *r, ge_task *t, uint32_t id) {
  ge_status st = r->debug ? ge__rt_exec_debug(rt, r, t, id) : t ? t->fn(&t->ctx) : GE_OK;
  if (st == GE_OK) return 1;
  ge__rt_stop(rt, r, st, id, 0);
  return 0;
}

/* Posts a job for the workers when there are any (0: the caller runs it alone). */
static int ge__rt_post(ge_runtime *rt, ge_runtime_job *job) {
  return rt && rt->num_workers > 0 && ge_runtime_post(rt, job);
}

/* Serves a job until done() holds, with the caller taking part, then
 * withdraws it if it was posted. */
static void ge__rt_serve(ge_runtime *rt, ge_runtime_job *job, int (*done)(ge_runtime_job *), int posted) {
  for (;;) {
    unsigned stamp = posted ? ge_runtime_stamp(rt) : 0;
    if (done(job)) break;
    if (!job->work(job) && posted) ge_runtime_wait(rt, stamp, 0);
  }
  if (posted) ge_runtime_withdraw(rt, job);
}

/* -------------------------------------------------------------- streams */

typedef struct ge__rt_stream {
  uint32_t first, count; /* its entries */
  uint32_t next;         /* the next entry to run (written by the owner) */
  uint32_t limit;        /* entries launched so far */
  uint32_t running;      /* id of the entry running, or UINT32_MAX */
  int owner;             /* 1 while a thread runs it */
  int finished;
} ge__rt_stream;

struct ge_runtime_streams {
  ge_runtime_job job;
  ge_runtime *rt;
  ge_allocator a;
  uint32_t num_streams, num_events, num_entries, num_lists;
  ge__rt_stream *streams;
  ge_runtime_entry *entries; /* the task lists (sink mode reads them) */
  ge_runtime_entry *queue;   /* what the host launched (host mode) */
  const ge_runtime_entry *run_list; /* this launch's */
  uint32_t *lists;           /* waits and records of all entries */
  uint32_t *launch_order;
  uint32_t *events;          /* per event: the launch that last recorded it */
  uint32_t gen;              /* this launch */
  uint32_t shuffle, picks;
  uint32_t streams_done;
  ge_launch_mode mode;
  uint32_t *seg_end;         /* per entry: where its run of plain entries after it ends (in its stream) */
  int fast;                  /* this launch runs segments back to back (no stamps, times or shuffle) */
  uint32_t *pool_ids;        /* per stream: its pool stream (rt only) */
  uint32_t *claim;           /* the pool streams in ascending order, each once */
  uint32_t num_claim;
  ge__rt_run r;
};

/* Where a stop not tied to a task is named on stream st: the next task
 * entry waiting from entry `from` on, else the last task entry before it. */
static uint32_t ge__rt_stream_near(const ge_runtime_streams *s, const ge__rt_stream *st, uint32_t from) {
  uint32_t j;
  for (j = from; j < st->count; j++)
    if (s->entries[st->first + j].task) return s->entries[st->first + j].id;
  for (j = from < st->count ? from : st->count; j-- > 0;)
    if (s->entries[st->first + j].task) return s->entries[st->first + j].id;
  return UINT32_MAX;
}

/* A stop seen outside any stream is named by a running task, else the task
 * waiting next on the first unfinished stream (or the last one it ran). */
static uint32_t ge__rt_streams_where(const ge_runtime_streams *s) {
  uint32_t i, id;
  for (i = 0; i < s->num_streams; i++)
    if ((id = __atomic_load_n(&s->streams[i].running, __ATOMIC_RELAXED)) != UINT32_MAX) return id;
  for (i = 0; i < s->num_streams; i++) {
    const ge__rt_stream *st = &s->streams[i];
    if (GE__RT_LOAD_RELAXED(&st->finished)) continue;
    if ((id = ge__rt_stream_near(s, st, __atomic_load_n(&st->next, __ATOMIC_RELAXED))) != UINT32_MAX) return id;
  }
  return UINT32_MAX;
}

/* Whether the launch must stop (ge__rt_stopped, named by `where`). */
static int ge__rt_streams_stopped(ge_runtime_streams *s, uint32_t where) {
  if (GE__RT_LOAD_RELAXED(&s->r.abort)) return 1;
  if (!s->r.cancel || !__atomic_load_n(s->r.cancel, __ATOMIC_RELAXED)) return 0;
  ge__rt_stop(s->rt, &s->r, GE_ERR_INTERNAL, where != UINT32_MAX ? where : ge__rt_streams_where(s), 1);
  return 1;
}

static int ge__rt_waits_met(const ge_runtime_streams *s, const ge_runtime_entry *e) {
  uint32_t k;
  for (k = 0; k < e->num_waits; k++)
    if (__atomic_load_n(&s->events[e->waits[k]], __ATOMIC_ACQUIRE) != s->gen) return 0;
  return 1;
}

/* Whether a thread could do something on st now. */
static int ge__rt_stream_ready(const ge_runtime_streams *s, ge__rt_stream *st) {
  uint32_t next;
  if (GE__RT_LOAD_RELAXED(&st->finished) || GE__RT_LOAD_RELAXED(&st->owner)) return 0;
  next = __atomic_load_n(&st->next, __ATOMIC_ACQUIRE);
  if (next == st->count) return 1; /* to mark it finished */
  return next < __atomic_load_n(&st->limit, __ATOMIC_ACQUIRE) && ge__rt_waits_met(s, &s->run_list[st->first + next]);
}

/* Runs entry `next` (ready, no records) and the plain entries after it
 * (a task, no waits, no records) up to the launch limit: one kernel call
 * each, the stop flags read every 32 tasks. 0 when the launch stopped. */
static int ge__rt_stream_segment(ge_runtime_streams *s, ge__rt_stream *st, uint32_t *next_io, uint32_t limit) {
  const ge_runtime_entry *list = s->run_list + st->first;
  uint32_t next = *next_io, end = s->seg_end[st->first + next];
  int ok = 1;
  if (end > limit) end = limit;
  do {
    const ge_runtime_entry *x = &list[next];
    ge_status rc;
    __atomic_store_n(&st->running, x->id, __ATOMIC_RELAXED);
    if ((rc = x->task->fn(&x->task->ctx)) != GE_OK) {
      ge__rt_stop(s->rt, &s->r, rc, x->id, 0);
      return 0;
    }
    ++next;
    if (!(next & 31) && next < end && ge__rt_streams_stopped(s, list[next].id)) {
      ok = 0;
      break;
    }
  } while (next < end);
  __atomic_store_n(&st->running, UINT32_MAX, __ATOMIC_RELAXED);
  __atomic_store_n(&st->next, next, __ATOMIC_RELEASE);
  *next_io = next;
  return ok;
}

/* Runs st's entries while they are ready (one only when shuffling). */
static int ge__rt_stream_run(ge_runtime_streams *s, ge__rt_stream *st) {
  int did = 0;
  uint32_t next = st->next, limit = __atomic_load_n(&st->limit, __ATOMIC_ACQUIRE), k;
  for (;;) {
    const ge_runtime_entry *e;
    if (next == st->count) {
      GE__RT_STORE(&st->finished, 1);
      GE__RT_ADD(&s->streams_done, 1u);
      if (s->rt) ge_runtime_notify(s->rt);
      did = 1;
      break;
    }
    if (next >= limit && next >= (limit = __atomic_load_n(&st->limit, __ATOMIC_ACQUIRE))) break;
    e = &s->run_list[st->first + next];
    if (e->num_waits && !ge__rt_waits_met(s, e)) break;
    if (ge__rt_streams_stopped(s, e->task ? e->id : ge__rt_stream_near(s, st, next))) break;
    if (s->fast && e->task && !e->num_records) { /* a segment of plain tasks, back to back */
      if (!ge__rt_stream_segment(s, st, &next, limit)) break;
      did = 1;
      continue;
    }
    __atomic_store_n(&st->running, e->id, __ATOMIC_RELAXED);
    if (!ge__rt_exec(s->rt, &s->r, e->task, e->id)) break;
    __atomic_store_n(&st->running, UINT32_MAX, __ATOMIC_RELAXED);
    __atomic_store_n(&st->next, ++next, __ATOMIC_RELEASE);
    did = 1;
    for (k = 0; k < e->num_records; k++) __atomic_store_n(&s->events[e->records[k]], s->gen, __ATOMIC_RELEASE);
    if (e->num_records && s->rt) ge_runtime_notify(s->rt);
    if (s->shuffle) break;
  }
  GE__RT_STORE(&st->owner, 0);
  return did;
}

/* A mixing step for the debug shuffle (splitmix64's finaliser). */
static uint32_t ge__rt_mix(uint64_t x) {
  x ^= x >> 30, x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27, x *= 0x94d049bb133111ebULL;
  return (uint32_t)(x ^ (x >> 31));
}

static int ge__rt_streams_work(ge_runtime_job *job) {
  ge_runtime_streams *s = (ge_runtime_streams *)job;
  uint32_t n = s->num_streams, start = 0, k;
  int did = 0;
  if (s->shuffle) start = ge__rt_mix(((uint64_t)s->shuffle << 32) ^ GE__RT_ADD(&s->picks, 1u)) % n;
  for (k = 0; k < n && !GE__RT_LOAD_RELAXED(&s->r.abort); k++) {
    uint32_t i = start + k < n ? start + k : start + k - n;
    ge__rt_stream *st = &s->streams[i];
    int zero = 0;
    if (!ge__rt_stream_ready(s, st) || !GE__RT_CAS(&st->owner, &zero, 1)) continue;
    if (GE__RT_LOAD(&st->finished)) { /* finished by the owner we saw leave */
      GE__RT_STORE(&st->owner, 0);
      continue;
    }
    did |= ge__rt_stream_run(s, st);
    if (s->shuffle && did) break;
  }
  return did;
}

static int ge__rt_streams_done(ge_runtime_job *job) {
  ge_runtime_streams *s = (ge_runtime_streams *)job;
  return GE__RT_LOAD(&s->streams_done) == s->num_streams || ge__rt_streams_stopped(s, UINT32_MAX);
}

/* ---- the stream pool */

/* Gives every stream of s a pool stream: one with its key, not attached to
 * another list of s's owner nor picked already for s, the fewest tasks
 * first; a new one when none is left. */
static ge_status ge__rt_pool_acquire(ge_runtime_streams *s, const ge_runtime_streams_desc *d, ge_error *err) {
  ge_runtime *rt = s->rt;
  const void *owner = d->owner ? d->owner : (const void *)s;
  uint32_t i, j, k, need = rt->att_len + s->num_streams;
  ge_status st = GE_OK;
  pthread_mutex_lock(&rt->pool_lock);
  if (!rt->pool && !(rt->pool = (ge__rt_pooled *)ge__rt_alloc(&rt->a, GE_RUNTIME_MAX_STREAMS * sizeof *rt->pool)))
    st = ge_error_set(err, GE_ERR_NOMEM, "out of memory for the stream pool");
  if (!st && need > rt->att_cap) {
    uint32_t cap = need * 2 > 16 ? need * 2 : 16;
    ge__rt_attach *grown = (ge__rt_attach *)ge__rt_alloc(&rt->a, (size_t)cap * sizeof *grown);
    if (!grown) st = ge_error_set(err, GE_ERR_NOMEM, "out of memory for the stream pool");
    else {
      if (rt->att_len) memcpy(grown, rt->att, (size_t)rt->att_len * sizeof *grown);
      ge__rt_free(&rt->a, rt->att, (size_t)rt->att_cap * sizeof *rt->att);
      rt->att = grown, rt->att_cap = cap;
    }
  }
  for (i = 0; !st && i < s->num_streams; i++) {
    int32_t prio = d->priority ? d->priority[i] : 0;
    uint32_t flags = d->flags ? d->flags[i] : 0, best = UINT32_MAX;
    for (j = 0; j < rt->pool_len; j++) {
      const ge__rt_pooled *q = &rt->pool[j];
      int taken = 0;
      if (q->priority != prio || q->flags != flags) continue;
      for (k = 0; k < rt->att_len && !taken; k++) taken = rt->att[k].stream == j && rt->att[k].owner == owner;
      if (!taken && (best == UINT32_MAX || q->tasks < rt->pool[best].tasks)) best = j;
    }
    if (best == UINT32_MAX) {
      if (rt->pool_len == GE_RUNTIME_MAX_STREAMS) {
        st = ge_error_set(err, GE_ERR_INVALID, "the stream pool is full (%u streams)", (unsigned)GE_RUNTIME_MAX_STREAMS);
        break;
      }
      best = rt->pool_len++;
      memset(&rt->pool[best], 0, sizeof rt->pool[best]);
      rt->pool[best].priority = prio, rt->pool[best].flags = flags;
    }
    if (!rt->pool[best].users++) rt->pool_in_use++;
    rt->pool[best].tasks += s->streams[i].count;
    rt->att[rt->att_len].list = s, rt->att[rt->att_len].owner = owner, rt->att[rt->att_len++].stream = best;
    s->pool_ids[i] = best;
  }
  pthread_mutex_unlock(&rt->pool_lock);
  return st;
}

/* Detaches s from its pool streams (they stay in the pool). */
static void ge__rt_pool_release(ge_runtime_streams *s) {
  ge_runtime *rt = s->rt;
  uint32_t k = 0;
  pthread_mutex_lock(&rt->pool_lock);
  while (k < rt->att_len) {
    ge__rt_attach *x = &rt->att[k];
    ge__rt_pooled *q;
    uint32_t i;
    if (x->list != s) {
      k++;
      continue;
    }
    q = &rt->pool[x->stream];
    for (i = 0; i < s->num_streams; i++)
      if (s->pool_ids[i] == x->stream) q->tasks -= q->tasks >= s->streams[i].count ? s->streams[i].count : q->tasks;
    if (!--q->users) rt->pool_in_use--;
    *x = rt->att[--rt->att_len];
  }
  pthread_mutex_unlock(&rt->pool_lock);
}

/* The claim order: s's pool streams ascending (each is there once). */
static void ge__rt_pool_order(ge_runtime_streams *s) {
  uint32_t i, j;
  s->num_claim = 0;
  for (i = 0; i < s->num_streams; i++) {
    uint32_t id = s->pool_ids[i];
    for (j = s->num_claim++; j > 0 && s->claim[j - 1] > id; j--) s->claim[j] = s->claim[j - 1];
    s->claim[j] = id;
  }
}

/* A launch holds its pool streams: ascending, so launches never wait in a
 * cycle; meanwhile the thread helps with posted work (the holder's). */
static void ge__rt_pool_claim(ge_runtime_streams *s) {
  ge_runtime *rt = s->rt;
  uint32_t k;
  for (k = 0; k < s->num_claim; k++) {
    int *busy = &rt->pool[s->claim[k]].busy;
    for (;;) {
      int zero = 0;
      unsigned stamp;
      if (GE__RT_CAS(busy, &zero, 1)) break;
      stamp = ge_runtime_stamp(rt);
      if (GE__RT_LOAD(busy)) ge_runtime_wait(rt, stamp, 1);
    }
  }
}

static void ge__rt_pool_unclaim(ge_runtime_streams *s) {
  uint32_t k;
  for (k = 0; k < s->num_claim; k++) GE__RT_STORE(&s->rt->pool[s->claim[k]].busy, 0);
  if (s->num_claim) ge_runtime_notify(s->rt);
}

GE_API void ge_runtime_streams_free(ge_runtime_streams *s) {
  ge_allocator a;
  if (!s) return;
  a = s->a;
  if (s->pool_ids && s->rt) ge__rt_pool_release(s);
  ge__rt_free(&a, s->pool_ids, (size_t)s->num_streams * sizeof *s->pool_ids);
  ge__rt_free(&a, s->seg_end, (size_t)s->num_entries * sizeof *s->seg_end);
  ge__rt_free(&a, s->claim, (size_t)s->num_streams * sizeof *s->claim);
  ge__rt_free(&a, s->streams, (size_t)s->num_streams * sizeof *s->streams);
  ge__rt_free(&a, s->entries, (size_t)s->num_entries * sizeof *s->entries);
  ge__rt_free(&a, s->queue, (size_t)s->num_entries * sizeof *s->queue);
  ge__rt_free(&a, s->lists, (size_t)s->num_lists * sizeof *s->lists);
  ge__rt_free(&a, s->launch_order, (size_t)s->num_entries * sizeof *s->launch_order);
  ge__rt_free(&a, s->events, (size_t)s->num_events * sizeof *s->events);
  ge__rt_free(&a, s, sizeof *s);
}

/* Replays a launch on one thread without running tasks: every entry must
 * become ready (an event it waits for is recorded earlier in some order),
 * else launches would hang. Uses s->events as scratch. */
static ge_status ge__rt_streams_check(ge_runtime_streams *s, ge_error *err) {
  uint32_t left = s->num_entries, i, k;
  int progress = 1;
  s->gen = 1;
  for (i = 0; i < s->num_streams; i++) s->streams[i].next = 0;
  while (left && progress) {
    progress = 0;
    for (i = 0; i < s->num_streams; i++) {
      ge__rt_stream *st = &s->streams[i];
      while (st->next < st->count && ge__rt_waits_met(s, &s->entries[st->first + st->next])) {
        const ge_runtime_entry *e = &s->entries[st->first + st->next++];
        for (k = 0; k < e->num_records; k++) s->events[e->records[k]] = s->gen;
        left--, progress = 1;
      }
    }
  }
  for (i = 0; i < s->num_streams && left; i++) {
    ge__rt_stream *st = &s->streams[i];
    if (st->next < st->count) {
      const ge_runtime_entry *e = &s->entries[st->first + st->next];
      for (k = 0; k < e->num_waits && s->events[e->waits[k]] == s->gen; k++) {}
      return ge_error_set(err, GE_ERR_INVALID,
                          "streams: entry %u of stream %u (task %u) waits for event %u, which nothing records "
                          "before it (the launch would hang)",
                          (unsigned)st->next, (unsigned)i, (unsigned)e->id, (unsigned)e->waits[k]);
    }
  }
  for (i = 0; i < s->num_events; i++) s->events[i] = 0;
  s->gen = 0;
  return GE_OK;
}

/* Checks the desc and counts entries and list items. */
static ge_status ge__rt_streams_measure(const ge_runtime_streams_desc *d, uint32_t *entries, uint32_t *lists,
                                        ge_error *err) {
  uint64_t ne = 0, nl = 0;
  uint32_t i, j, k;
  if (!d || (d->num_streams && (!d->entries || !d->num_entries)))
    return ge_error_set(err, GE_ERR_INVALID, "ge_runtime_streams_create: no streams given");
  for (i = 0; i < d->num_streams; i++) {
    for (j = 0; j < d->num_entries[i]; j++) {
      const ge_runtime_entry *e = &d->entries[i][j];
      if (d->num_ids && e->id >= d->num_ids)
        return ge_error_set(err, GE_ERR_INVALID, "streams: entry %u of stream %u has id %u (num_ids %u)", (unsigned)j,
                            (unsigned)i, (unsigned)e->id, (unsigned)d->num_ids);
      for (k = 0; k < e->num_waits + e->num_records; k++) {
        uint32_t ev = k < e->num_waits ? e->waits[k] : e->records[k - e->num_waits];
        if (ev >= d->num_events)
          return ge_error_set(err, GE_ERR_INVALID, "streams: entry %u of stream %u uses event %u of %u", (unsigned)j,
                              (unsigned)i, (unsigned)ev, (unsigned)d->num_events);
      }
      if (e->task && !e->task->fn)
        return ge_error_set(err, GE_ERR_INVALID, "streams: entry %u of stream %u has a task without a kernel",
                            (unsigned)j, (unsigned)i);
      nl += e->num_waits + e->num_records;
    }
    ne += d->num_entries[i];
  }
  if (ne >= UINT32_MAX || nl >= UINT32_MAX) return ge_error_set(err, GE_ERR_INVALID, "streams: too many entries");
  *entries = (uint32_t)ne, *lists = (uint32_t)nl;
  return GE_OK;
}

/* Copies the entries and their lists, and the host launch order. */
static ge_status ge__rt_streams_fill(ge_runtime_streams *s, const ge_runtime_streams_desc *d, ge_error *err) {
  uint32_t i, j, q = 0, e = 0, *seen;
  for (i = 0; i < d->num_streams; i++) {
    s->streams[i].first = e, s->streams[i].count = d->num_entries[i];
    for (j = 0; j < d->num_entries[i]; j++) {
      ge_runtime_entry *x = &s->entries[e++];
      *x = d->entries[i][j];
      memcpy(s->lists + q, x->waits, (size_t)x->num_waits * sizeof(uint32_t));
      x->waits = s->lists + q, q += x->num_waits;
      memcpy(s->lists + q, x->records, (size_t)x->num_records * sizeof(uint32_t));
      x->records = s->lists + q, q += x->num_records;
    }
  }
  if (!d->launch_order) {
    for (i = 0, e = 0; i < d->num_streams; i++)
      for (j = 0; j < d->num_entries[i]; j++) s->launch_order[e++] = i;
    return GE_OK;
  }
  seen = (uint32_t *)ge__rt_alloc(&s->a, (size_t)d->num_streams * sizeof *seen);
  if (!seen) return ge_error_set(err, GE_ERR_NOMEM, "out of memory");
  memset(seen, 0, (size_t)d->num_streams * sizeof *seen);
  for (e = 0; e < s->num_entries; e++) {
    uint32_t k = d->launch_order[e];
    if (k >= d->num_streams || seen[k] == d->num_entries[k]) {
      ge__rt_free(&s->a, seen, (size_t)d->num_streams * sizeof *seen);
      return ge_error_set(err, GE_ERR_INVALID, "streams: launch order item %u names stream %u %s", (unsigned)e,
                          (unsigned)k, k >= d->num_streams ? "that does not exist" : "past its last entry");
    }
    seen[k]++;
    s->launch_order[e] = k;
  }
  ge__rt_free(&s->a, seen, (size_t)d->num_streams * sizeof *seen);
  return GE_OK;
}

/* seg_end: entry j's segment runs to the first entry after it that waits,
 * records or has no task. */
static void ge__rt_segments(ge_runtime_streams *s) {
  uint32_t i, j;
  for (i = 0; i < s->num_streams; i++) {
    const ge__rt_stream *st = &s->streams[i];
    for (j = st->count; j-- > 0;) {
      const ge_runtime_entry *n = j + 1 < st->count ? &s->entries[st->first + j + 1] : NULL;
      s->seg_end[st->first + j] = n && n->task && !n->num_waits && !n->num_records ? s->seg_end[st->first + j + 1] : j + 1;
    }
  }
}

GE_API ge_status ge_runtime_streams_create(ge_runtime *rt, const ge_runtime_streams_desc *d, ge_runtime_streams **out,
                                           ge_error *err) {
  ge_allocator a = ge_allocator_or_default(rt ? &rt->a : NULL);
  ge_runtime_streams *s;
  uint32_t ne = 0, nl = 0;
  ge_status st;
  *out = NULL;
  if ((st = ge__rt_streams_measure(d, &ne, &nl, err))) return st;
  if (!(s = (ge_runtime_streams *)ge__rt_alloc(&a, sizeof *s))) return ge_error_set(err, GE_ERR_NOMEM, "out of memory");
  memset(s, 0, sizeof *s);
  s->a = a, s->rt = rt;
  s->job.work = ge__rt_streams_work;
  s->num_streams = d->num_streams, s->num_events = d->num_events, s->num_entries = ne, s->num_lists = nl;
  s->streams = (ge__rt_stream *)ge__rt_alloc(&a, (size_t)s->num_streams * sizeof *s->streams);
  s->entries = (ge_runtime_entry *)ge__rt_alloc(&a, (size_t)ne * sizeof *s->entries);
  s->queue = (ge_runtime_entry *)ge__rt_alloc(&a, (size_t)ne * sizeof *s->queue);
  s->lists = (uint32_t *)ge__rt_alloc(&a, (size_t)nl * sizeof *s->lists);
  s->launch_order = (uint32_t *)ge__rt_alloc(&a, (size_t)ne * sizeof *s->launch_order);
  s->events = (uint32_t *)ge__rt_alloc(&a, (size_t)s->num_events * sizeof *s->events);
  s->seg_end = (uint32_t *)ge__rt_alloc(&a, (size_t)ne * sizeof *s->seg_end);
  if (rt) {
    s->pool_ids = (uint32_t *)ge__rt_alloc(&a, (size_t)s->num_streams * sizeof *s->pool_ids);
    s->claim = (uint32_t *)ge__rt_alloc(&a, (size_t)s->num_streams * sizeof *s->claim);
  }
  if (!s->streams || !s->entries || !s->queue || !s->lists || !s->launch_order || !s->events || !s->seg_end ||
      (rt && (!s->pool_ids || !s->claim))) {
    ge_runtime_streams_free(s);
    return ge_error_set(err, GE_ERR_NOMEM, "out of memory for %u stream entries", (unsigned)ne);
  }
  memset(s->streams, 0, (size_t)s->num_streams * sizeof *s->streams);
  memset(s->events, 0, (size_t)s->num_events * sizeof *s->events);
  if ((st = ge__rt_streams_fill(s, d, err)) || (st = ge__rt_streams_check(s, err))) {
    ge_runtime_streams_free(s);
    return st;
  }
  ge__rt_segments(s);
  if (rt) {
    uint32_t i;
    for (i = 0; i < s->num_streams; i++) s->pool_ids[i] = UINT32_MAX;
    if ((st = ge__rt_pool_acquire(s, d, err))) {
      ge_runtime_streams_free(s); /* detaches what it took */
      return st;
    }
    ge__rt_pool_order(s);
  }
  *out = s;
  return GE_OK;
}

/* Host scheduling: launches every entry in order, one at a time. */
static void ge__rt_streams_host_launch(ge_runtime_streams *s) {
  uint32_t e;
  for (e = 0; e < s->num_entries && !GE__RT_LOAD_RELAXED(&s->r.abort); e++) {
    ge__rt_stream *st = &s->streams[s->launch_order[e]];
    uint32_t k = __atomic_load_n(&st->limit, __ATOMIC_RELAXED);
    s->queue[st->first + k] = s->entries[st->first + k]; /* the launch: the task's record to its queue */
    __atomic_store_n(&st->limit, k + 1, __ATOMIC_RELEASE);
    if (s->rt) ge_runtime_notify(s->rt);
  }
}

GE_API ge_runtime_result ge_runtime_streams_launch(ge_runtime_streams *s, ge_launch_mode mode, uint64_t *stamps,
                                                   uint32_t shuffle) {
  uint32_t i;
  int posted;
  ge__rt_run_reset(&s->r, stamps);
  s->gen++;
  if (s->gen == 0) { /* wrapped: forget every event */
    memset(s->events, 0, (size_t)s->num_events * sizeof *s->events);
    s->gen = 1;
  }
  s->mode = mode;
  s->shuffle = shuffle;
  s->fast = !s->r.debug && !shuffle;
  s->picks = 0;
  s->streams_done = 0;
  s->run_list = mode == GE_LAUNCH_HOST ? s->queue : s->entries;
  for (i = 0; i < s->num_streams; i++) {
    ge__rt_stream *st = &s->streams[i];
    __atomic_store_n(&st->next, 0u, __ATOMIC_RELAXED);
    __atomic_store_n(&st->running, UINT32_MAX, __ATOMIC_RELAXED);
    st->owner = 0, st->finished = 0;
    st->limit = mode == GE_LAUNCH_HOST ? 0 : st->count;
  }
  if (s->num_claim) ge__rt_pool_claim(s);
  posted = ge__rt_post(s->rt, &s->job);
  if (mode == GE_LAUNCH_HOST) ge__rt_streams_host_launch(s); /* the workers start meanwhile */
  ge__rt_serve(s->rt, &s->job, ge__rt_streams_done, posted);
  if (s->num_claim) ge__rt_pool_unclaim(s);
  return ge__rt_result(&s->r);
}

GE_API void ge_runtime_streams_abort(ge_runtime_streams *s) {
  ge__rt_stop(s->rt, &s->r, GE_ERR_INTERNAL, ge__rt_streams_where(s), 1);
}

GE_API uint32_t ge_runtime_streams_running(ge_runtime_streams *s) {
  uint32_t i, id = UINT32_MAX;
  for (i = 0; i < s->num_streams && id == UINT32_MAX; i++) id = __atomic_load_n(&s->streams[i].running, __ATOMIC_RELAXED);
  return id;
}

GE_API uint32_t ge_runtime_streams_pool_id(const ge_runtime_streams *s, uint32_t i) {
  return s->pool_ids && i < s->num_streams ? s->pool_ids[i] : UINT32_MAX;
}

GE_API void ge_runtime_streams_profile(ge_runtime_streams *s, uint64_t *times, uint32_t *threads) {
  s->r.times = times, s->r.threads = threads;
}

/* ---------------------------------------------------- ready-queue DAGs */

struct ge_runtime_dag {
  ge_runtime_job job;
  ge_runtime *rt;
  ge_allocator a;
  ge_task *tasks;
  uint32_t n;
  uint32_t *succ_begin, *succ; /* copies */
  uint32_t num_succ;
  uint32_t running;            /* a task running (for aborts), or UINT32_MAX */
  uint64_t *priority;          /* copy or NULL */
  uint32_t *preds;             /* predecessors per task */
  uint32_t *pending;           /* per run: predecessors not done yet */
  uint32_t *ready;             /* FIFO (head..tail) or heap (0..tail) */
  uint32_t head, tail;
  uint32_t done;
  int multi_thread;
  pthread_mutex_t lock;        /* the ready queue, multi-thread only */
  ge__rt_run r;
};

/* a runs before b in the heap: higher priority, then lower index */
static int ge__rt_before(const ge_runtime_dag *d, uint32_t a, uint32_t b) {
  return d->priority[a] != d->priority[b] ? d->priority[a] > d->priority[b] : a < b;
}

static void ge__rt_push(ge_runtime_dag *d, uint32_t t) {
  uint32_t i = d->tail++;
  if (!d->priority) {
    d->ready[i] = t;
    return;
  }
  while (i > 0 && ge__rt_before(d, t, d->ready[(i - 1) / 2])) {
    d->ready[i] = d->ready[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  d->ready[i] = t;
}

/* The heap's top (priority); UINT32_MAX when empty. */
static GE__RT_NOINLINE uint32_t ge__rt_heap_pop(ge_runtime_dag *d) {
  uint32_t top, last, i = 0;
  if (!d->tail) return UINT32_MAX;
  top = d->ready[0];
  last = d->ready[--d->tail];
  for (;;) {
    uint32_t c = 2 * i + 1;
    if (c >= d->tail) break;
    if (c + 1 < d->tail && ge__rt_before(d, d->ready[c + 1], d->ready[c])) c++;
    if (!ge__rt_before(d, d->ready[c], last)) break;
    d->ready[i] = d->ready[c];
    i = c;
  }
  d->ready[i] = last;
  return top;
}

/* UINT32_MAX when empty. */
static uint32_t ge__rt_pop(ge_runtime_dag *d) {
  if (d->priority) return ge__rt_heap_pop(d);
  return d->head < d->tail ? d->ready[d->head++] : UINT32_MAX;
}

static void ge__rt_dag_run_alone(ge_runtime_dag *d) {
  uint32_t t, k;
  while ((t = ge__rt_pop(d)) != UINT32_MAX) {
    if (ge__rt_stopped(NULL, &d->r, t)) return;
    __atomic_store_n(&d->running, t, __ATOMIC_RELAXED);
    if (!ge__rt_exec(NULL, &d->r, &d->tasks[t], t)) return;
    d->done++;
    for (k = d->succ_begin[t]; k < d->succ_begin[t + 1]; k++)
      if (--d->pending[d->succ[k]] == 0) ge__rt_push(d, d->succ[k]);
  }
}

/* Multi-thread: pop, run, release successors; the first one that becomes
 * ready runs next on this thread without passing through the queue. */
static int ge__rt_dag_work(ge_runtime_job *job) {
  ge_runtime_dag *d = (ge_runtime_dag *)job;
  uint32_t t = UINT32_MAX, k;
  int did = 0;
  for (;;) {
    uint32_t next = UINT32_MAX, pushed = 0;
    if (GE__RT_LOAD_RELAXED(&d->r.abort)) return did;
    if (t == UINT32_MAX) {
      pthread_mutex_lock(&d->lock);
      t = ge__rt_pop(d);
      pthread_mutex_unlock(&d->lock);
      if (t == UINT32_MAX) return did;
    }
    if (ge__rt_stopped(d->rt, &d->r, t)) return 1;
    __atomic_store_n(&d->running, t, __ATOMIC_RELAXED);
    if (!ge__rt_exec(d->rt, &d->r, &d->tasks[t], t)) return 1;
    did = 1;
    for (k = d->succ_begin[t]; k < d->succ_begin[t + 1]; k++) {
      uint32_t u = d->succ[k];
      if (GE__RT_ADD(&d->pending[u], (uint32_t)-1) != 1) continue;
      if (next == UINT32_MAX) next = u;
      else {
        pthread_mutex_lock(&d->lock);
        ge__rt_push(d, u);
        pthread_mutex_unlock(&d->lock);
        pushed = 1;
      }
    }
    if (GE__RT_ADD(&d->done, 1u) + 1 == d->n || pushed) ge_runtime_notify(d->rt);
    t = next;
  }
}

static int ge__rt_dag_done(ge_runtime_job *job) {
  ge_runtime_dag *d = (ge_runtime_dag *)job;
  return GE__RT_LOAD(&d->done) == d->n || ge__rt_stopped(d->rt, &d->r, UINT32_MAX);
}

GE_API void ge_runtime_dag_free(ge_runtime_dag *d) {
  ge_allocator a;
  if (!d) return;
  a = d->a;
  ge__rt_free(&a, d->succ_begin, ((size_t)d->n + 1) * sizeof(uint32_t));
  ge__rt_free(&a, d->succ, (size_t)d->num_succ * sizeof(uint32_t));
  ge__rt_free(&a, d->priority, (size_t)d->n * sizeof(uint64_t));
  ge__rt_free(&a, d->preds, (size_t)d->n * sizeof(uint32_t));
  ge__rt_free(&a, d->pending, (size_t)d->n * sizeof(uint32_t));
  ge__rt_free(&a, d->ready, (size_t)d->n * sizeof(uint32_t));
  if (d->multi_thread) pthread_mutex_destroy(&d->lock);
  ge__rt_free(&a, d, sizeof *d);
}

GE_API ge_status ge_runtime_dag_create(ge_runtime *rt, const ge_runtime_dag_desc *desc, ge_runtime_dag **out,
                                       ge_error *err) {
  ge_allocator a = ge_allocator_or_default(rt ? &rt->a : NULL);
  ge_runtime_dag *d;
  uint32_t n, m, i, k, seen = 0;
  *out = NULL;
  if (!desc || (desc->num_tasks && (!desc->tasks || !desc->succ_begin)))
    return ge_error_set(err, GE_ERR_INVALID, "ge_runtime_dag_create: no tasks given");
  n = desc->num_tasks;
  m = n ? desc->succ_begin[n] : 0;
  for (i = 0; i < n; i++)
    if (desc->succ_begin[i] > desc->succ_begin[i + 1] || !desc->tasks[i].fn)
      return ge_error_set(err, GE_ERR_INVALID, "dag: task %u has %s", (unsigned)i,
                          desc->tasks[i].fn ? "a bad successor range" : "no kernel");
  for (k = 0; k < m; k++)
    if (desc->succ[k] >= n) return ge_error_set(err, GE_ERR_INVALID, "dag: successor %u of %u tasks", (unsigned)desc->succ[k], (unsigned)n);
  if (!(d = (ge_runtime_dag *)ge__rt_alloc(&a, sizeof *d))) return ge_error_set(err, GE_ERR_NOMEM, "out of memory");
  memset(d, 0, sizeof *d);
  d->a = a, d->rt = rt, d->tasks = desc->tasks, d->n = n, d->num_succ = m;
  d->job.work = ge__rt_dag_work;
  d->multi_thread = desc->multi_thread && rt && rt->num_workers > 0;
  if (d->multi_thread && pthread_mutex_init(&d->lock, NULL)) {
    d->multi_thread = 0;
    ge_runtime_dag_free(d);
    return ge_error_set(err, GE_ERR_INTERNAL, "ge_runtime_dag_create: pthread_mutex_init failed");
  }
  d->succ_begin = (uint32_t *)ge__rt_alloc(&a, ((size_t)n + 1) * sizeof(uint32_t));
  if (d->succ_begin) memcpy(d->succ_begin, desc->succ_begin, ((size_t)n + 1) * sizeof(uint32_t));
  d->succ = (uint32_t *)ge__rt_alloc(&a, (size_t)m * sizeof(uint32_t));
  d->preds = (uint32_t *)ge__rt_alloc(&a, (size_t)n * sizeof(uint32_t));
  d->pending = (uint32_t *)ge__rt_alloc(&a, (size_t)n * sizeof(uint32_t));
  d->ready = (uint32_t *)ge__rt_alloc(&a, (size_t)n * sizeof(uint32_t));
  if (desc->priority) d->priority = (uint64_t *)ge__rt_alloc(&a, (size_t)n * sizeof(uint64_t));
  if (!d->succ_begin || !d->succ || !d->preds || !d->pending || !d->ready || (desc->priority && !d->priority)) {
    ge_runtime_dag_free(d);
    return ge_error_set(err, GE_ERR_NOMEM, "out of memory for a DAG of %u tasks", (unsigned)n);
  }
  if (m) memcpy(d->succ, desc->succ, (size_t)m * sizeof(uint32_t));
  if (desc->priority) memcpy(d->priority, desc->priority, (size_t)n * sizeof(uint64_t));
  memset(d->preds, 0, (size_t)n * sizeof(uint32_t));
  for (k = 0; k < m; k++) d->preds[d->succ[k]]++;
  /* a cycle would leave tasks never ready: count what Kahn's order reaches */
  memcpy(d->pending, d->preds, (size_t)n * sizeof(uint32_t));
  for (i = 0; i < n; i++)
    if (!d->pending[i]) d->ready[d->tail++] = i;
  for (; d->head < d->tail; seen++) {
    uint32_t t = d->ready[d->head++];
    for (k = d->succ_begin[t]; k < d->succ_begin[t + 1]; k++)
      if (--d->pending[d->succ[k]] == 0) d->ready[d->tail++] = d->succ[k];
  }
  if (seen != n) {
    ge_runtime_dag_free(d);
    return ge_error_set(err, GE_ERR_CYCLE, "dag: %u of %u tasks are on or behind a cycle", (unsigned)(n - seen), (unsigned)n);
  }
  *out = d;
  return GE_OK;
}

GE_API ge_runtime_result ge_runtime_dag_run(ge_runtime_dag *d, uint64_t *stamps) {
  uint32_t i;
  ge__rt_run_reset(&d->r, stamps);
  memcpy(d->pending, d->preds, (size_t)d->n * sizeof(uint32_t));
  d->head = d->tail = 0;
  d->done = 0;
  for (i = 0; i < d->n; i++)
    if (!d->preds[i]) ge__rt_push(d, i);
  __atomic_store_n(&d->running, UINT32_MAX, __ATOMIC_RELAXED);
  if (d->multi_thread) ge__rt_serve(d->rt, &d->job, ge__rt_dag_done, ge__rt_post(d->rt, &d->job));
  else ge__rt_dag_run_alone(d);
  return ge__rt_result(&d->r);
}

GE_API void ge_runtime_streams_cancel_on(ge_runtime_streams *s, const int *flag) { s->r.cancel = flag; }
GE_API void ge_runtime_dag_cancel_on(ge_runtime_dag *d, const int *flag) { d->r.cancel = flag; }

GE_API uint32_t ge_runtime_dag_running(ge_runtime_dag *d) { return __atomic_load_n(&d->running, __ATOMIC_RELAXED); }

GE_API void ge_runtime_dag_profile(ge_runtime_dag *d, uint64_t *times, uint32_t *threads) {
  d->r.times = times, d->r.threads = threads;
}

GE_API void ge_runtime_dag_abort(ge_runtime_dag *d) {
  ge__rt_stop(d->multi_thread ? d->rt : NULL, &d->r, GE_ERR_INTERNAL, GE__RT_LOAD(&d->running), 1);
}

#ifdef __cplusplus
}
#endif
#endif /* GE_RUNTIME_IMPLEMENTATION_DONE */
#endif /* GE_RUNTIME_IMPLEMENTATION */

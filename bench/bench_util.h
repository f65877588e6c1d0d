/* bench/bench_util.h — what the benchmarks share: clocks (wall, and this
 * thread's CPU time), a fail-fast check and a comparison for sorting times.
 * Include after the ge headers. */
#ifndef GE_BENCH_UTIL_H
#define GE_BENCH_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* static inline: a benchmark may use one clock and not the other */
static inline double bench_clock(clockid_t id) {
  struct timespec t;
  clock_gettime(id, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}
static inline double bench_now(void) { return bench_clock(CLOCK_MONOTONIC); }
static inline double bench_cpu_now(void) { return bench_clock(CLOCK_THREAD_CPUTIME_ID); }

static void bench_ok(ge_status st, const ge_error *err, const char *what) {
  if (st == GE_OK) return;
  fprintf(stderr, "%s failed: %s\n", what, err->message);
  exit(1);
}

static int bench_cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

#endif /* GE_BENCH_UTIL_H */

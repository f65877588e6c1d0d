/* bench/bench_util.h — what the benchmarks share: a clock, a fail-fast
 * check and a comparison for sorting times. Include after the ge headers. */
#ifndef GE_BENCH_UTIL_H
#define GE_BENCH_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double bench_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

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

/* bench/xcore.c — what a line another CPU wrote costs to read: one thread
 * on CPU 1 writes a buffer, then the thread on CPU 0 reads it (one float a
 * cache line), writes it itself and reads it again; medians of the two
 * reads over the rounds, and the round trip of one line handed back and
 * forth (a flag each thread waits for in turn). Why ge's parallel loops
 * keep a loop's first ranges on the caller and its last on the worker.
 *   build/xcore [KB ...]   (default 256 1024 4096) */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { ROUNDS = 21, HANDOFFS = 100000, LINE_FLOATS = 16 };

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e6 + (double)t.tv_nsec * 1e-3;
}

static int pin(int cpu) {
  cpu_set_t s;
  CPU_ZERO(&s);
  CPU_SET(cpu, &s);
  return pthread_setaffinity_np(pthread_self(), sizeof s, &s) == 0;
}

static float *buf;
static size_t floats;
static int turn; /* odd: the writer's turn, even: the reader's */
static volatile float sink; /* keeps the reads */

static void *writer(void *arg) {
  int r;
  (void)arg;
  pin(1);
  for (r = 0; r < ROUNDS; r++) {
    size_t i;
    while (__atomic_load_n(&turn, __ATOMIC_ACQUIRE) != 2 * r + 1) {}
    for (i = 0; i < floats; i++) buf[i] = (float)(r + i);
    __atomic_store_n(&turn, 2 * r + 2, __ATOMIC_RELEASE);
  }
  return NULL;
}

static void *ponger(void *arg) {
  int i;
  (void)arg;
  pin(1);
  for (i = 0; i < HANDOFFS; i++) {
    while (__atomic_load_n(&turn, __ATOMIC_ACQUIRE) != 2 * i + 1) {}
    __atomic_store_n(&turn, 2 * i + 2, __ATOMIC_RELEASE);
  }
  return NULL;
}

static int cmp_d(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double read_lines(float *sum) {
  double t = now_us();
  size_t i;
  for (i = 0; i < floats; i += LINE_FLOATS) *sum += buf[i];
  return now_us() - t;
}

static int measure(size_t kb) {
  double remote[ROUNDS], local[ROUNDS];
  float sum = 0;
  pthread_t t;
  int r;
  floats = kb * 1024 / sizeof(float);
  if (!(buf = (float *)aligned_alloc(64, floats * sizeof(float)))) return 0;
  memset(buf, 0, floats * sizeof(float));
  turn = 0;
  if (pthread_create(&t, NULL, writer, NULL)) return 0;
  for (r = 0; r < ROUNDS; r++) {
    size_t i;
    __atomic_store_n(&turn, 2 * r + 1, __ATOMIC_RELEASE);
    while (__atomic_load_n(&turn, __ATOMIC_ACQUIRE) != 2 * r + 2) {}
    remote[r] = read_lines(&sum);
    for (i = 0; i < floats; i += LINE_FLOATS) buf[i] = sum + (float)i;
    local[r] = read_lines(&sum);
  }
  pthread_join(t, NULL);
  qsort(remote, ROUNDS, sizeof *remote, cmp_d);
  qsort(local, ROUNDS, sizeof *local, cmp_d);
  printf("%6zu KB: lines CPU 1 wrote %8.1f us (%5.1f GB/s), lines CPU 0 wrote %8.1f us (%5.1f GB/s)\n", kb,
         remote[ROUNDS / 2], (double)kb * 1024 / remote[ROUNDS / 2] * 1e-3, local[ROUNDS / 2],
         (double)kb * 1024 / local[ROUNDS / 2] * 1e-3);
  sink = sum;
  free(buf);
  return 1;
}

int main(int argc, char **argv) {
  static const size_t sizes[] = {256, 1024, 4096};
  pthread_t t;
  double t0;
  int i;
  if (!pin(0)) {
    fprintf(stderr, "xcore: needs CPUs 0 and 1\n");
    return 1;
  }
  if (argc > 1) {
    for (i = 1; i < argc; i++)
      if (atol(argv[i]) <= 0 || !measure((size_t)atol(argv[i]))) return 1;
  } else {
    for (i = 0; i < 3; i++)
      if (!measure(sizes[i])) return 1;
  }
  turn = 0;
  if (pthread_create(&t, NULL, ponger, NULL)) return 1;
  t0 = now_us();
  for (i = 0; i < HANDOFFS; i++) {
    __atomic_store_n(&turn, 2 * i + 1, __ATOMIC_RELEASE);
    while (__atomic_load_n(&turn, __ATOMIC_ACQUIRE) != 2 * i + 2) {}
  }
  printf("one line handed CPU 0 -> 1 -> 0: %.0f ns a round trip\n", (now_us() - t0) * 1e3 / HANDOFFS);
  pthread_join(t, NULL);
  return 0;
}

/* gemm_bench.c — GFLOP/s of the AI Core engine's own SGEMM
 * (ge_ai_core_sgemm, ge_engines/ai_core.h) against OpenBLAS's cblas_sgemm,
 * side by side in one run: square sizes 64..1024, then the GEMMs that
 * ResNet-18's convolutions become under im2col (batch 1, 224x224 input:
 * M = output channels, N = output pixels, K = input channels x kernel) and
 * its final fully connected layer. Each figure is the median of 5 timed
 * rounds after a warm-up; within a round the contenders alternate. ours
 * runs on 1 thread and on 2 (split through ge_kernel_parallel_for over the
 * 2-thread test pool of tests/test_pool.h; timed first in each round, after
 * a pause that lets OpenBLAS's polling threads sleep); OpenBLAS with 1 thread and with
 * its default thread count (set OPENBLAS_NUM_THREADS=2 to compare). The
 * FMA peak of one core is measured first with 24 independent FMA chains
 * (AVX-512 when the CPU has it, else AVX2), in the thread's CPU time.
 *
 *   cc -std=c99 -O2 -I. bench/gemm_bench.c -o build/gemm_bench -lopenblas -lm
 *   env -u OPENBLAS_CORETYPE OPENBLAS_NUM_THREADS=2 build/gemm_bench
 */
#define _POSIX_C_SOURCE 199309L
#define GE_IMPLEMENTATION
#include "ge_engines/ai_core.h"
#include "tests/test_pool.h"
#include "bench/fma_peak.h"

#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

void openblas_set_num_threads(int num_threads);
int openblas_get_num_threads(void);

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

typedef struct shape {
  const char *name;
  int64_t M, N, K;
} shape;

static int cmp_d(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* which: 0 ours, 1 OpenBLAS with 1 thread, 2 OpenBLAS default threads,
 * 3 ours on 2 threads. */
static void run(int which, const shape *s, const float *A, const float *B, float *C, void *work, int threads) {
  if (which == 0) {
    ge_ai_core_sgemm(0, 0, s->M, s->N, s->K, 1.0f, A, s->K, B, s->N, 0.0f, C, s->N, work);
  } else if (which == 3) {
    ge_kernel_env env;
    ge_kernel_ctx c;
    ge__aic_mm mm;
    memset(&env, 0, sizeof env);
    memset(&c, 0, sizeof c);
    memset(&mm, 0, sizeof mm);
    env.num_threads = 2;
    env.parallel_for = tp_parallel_for;
    c.env = &env;
    mm.k = ge__aic_kern_pick(2);
    mm.M = s->M, mm.N = s->N, mm.K = s->K, mm.alpha = 1.0f;
    mm.A = A, mm.ars = s->K, mm.acs = 1, mm.B = B, mm.brs = s->N, mm.bcs = 1, mm.C = C, mm.ldc = s->N;
    ge__aic_mm_run(&c, &mm, 2, (float *)work);
  } else {
    openblas_set_num_threads(which == 1 ? 1 : threads);
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)s->M, (int)s->N, (int)s->K, 1.0f, A, (int)s->K, B,
                (int)s->N, 0.0f, C, (int)s->N);
  }
}


static void bench(const shape *s, int threads) {
  double flop = 2.0 * s->M * s->N * s->K, t[4][5], med[4], err = 0, ref = 0;
  float *A = (float *)malloc(sizeof(float) * s->M * s->K), *B = (float *)malloc(sizeof(float) * s->K * s->N);
  float *C = (float *)malloc(sizeof(float) * s->M * s->N), *R = (float *)malloc(sizeof(float) * s->M * s->N);
  void *work = malloc(2 * ge__aic_mm_work_floats() * sizeof(float));
  int64_t i, reps;
  int r, w, o;
  double t0;
  struct timespec pause = {0, 250000000};
  for (i = 0; i < s->M * s->K; i++) A[i] = (float)((i * 7 % 13) - 6) / 8.0f;
  for (i = 0; i < s->K * s->N; i++) B[i] = (float)((i * 5 % 11) - 5) / 8.0f;
  /* repetitions for ~30 ms per timing at about 50 GFLOP/s */
  reps = (int64_t)(1.5e9 / flop);
  if (reps < 1) reps = 1;
  run(1, s, A, B, R, work, threads); /* warm-up, and the reference result */
  run(0, s, A, B, C, work, threads);
  run(2, s, A, B, C, work, threads);
  run(0, s, A, B, C, work, threads);
  run(3, s, A, B, C, work, threads);
  for (i = 0; i < s->M * s->N; i++) {
    double d = C[i] - R[i];
    if (d < 0) d = -d;
    if (d > err) err = d;
    if ((R[i] < 0 ? -R[i] : R[i]) > ref) ref = R[i] < 0 ? -R[i] : R[i];
  }
  for (r = 0; r < 5; r++)
    for (o = 0; o < 4; o++) {
      /* ours on 2 threads first, after a pause: OpenBLAS's threads poll for
       * ~0.13 s after each threaded call, taking the second core from it */
      static const int order[4] = {3, 0, 1, 2};
      w = order[o];
      if (w == 3) nanosleep(&pause, NULL);
      t0 = now();
      for (i = 0; i < reps; i++) run(w, s, A, B, C, work, threads);
      t[w][r] = (now() - t0) / (double)reps;
    }
  for (w = 0; w < 4; w++) {
    qsort(t[w], 5, sizeof(double), cmp_d);
    med[w] = flop / t[w][2] / 1e9;
  }
  printf("| %-22s | %5lld | %5lld | %5lld | %7.1f | %7.1f | %7.1f | %7.1f | %5.2f | %5.2f | %.1e |\n", s->name,
         (long long)s->M, (long long)s->N, (long long)s->K, med[0], med[3], med[1], med[2], med[0] / med[1],
         med[3] / med[2], err / (ref + 1e-6));
  free(A), free(B), free(C), free(R), free(work);
}

int main(void) {
  static const shape shapes[] = {
      {"square 64", 64, 64, 64},
      {"square 128", 128, 128, 128},
      {"square 256", 256, 256, 256},
      {"square 512", 512, 512, 512},
      {"square 1024", 1024, 1024, 1024},
      {"conv1 7x7/2 3->64", 64, 12544, 147},
      {"layer1 3x3 64->64", 64, 3136, 576},
      {"layer2 3x3/2 64->128", 128, 784, 576},
      {"layer2 3x3 128->128", 128, 784, 1152},
      {"layer2 1x1/2 64->128", 128, 784, 64},
      {"layer3 3x3/2 128->256", 256, 196, 1152},
      {"layer3 3x3 256->256", 256, 196, 2304},
      {"layer3 1x1/2 128->256", 256, 196, 128},
      {"layer4 3x3/2 256->512", 512, 49, 2304},
      {"layer4 3x3 512->512", 512, 49, 4608},
      {"layer4 1x1/2 256->512", 512, 49, 256},
      {"fc 512->1000", 1, 1000, 512},
  };
  const char *ct = getenv("OPENBLAS_CORETYPE");
  int threads = openblas_get_num_threads();
  size_t i;
  double peak = bench_fma_peak();
  printf("SGEMM, GFLOP/s (median of 5 after warm-up); OPENBLAS_CORETYPE=%s; one core's %s FMA peak %.1f GFLOP/s; ours "
         "uses the %s micro-kernel\n\n",
         ct ? ct : "(unset)", __builtin_cpu_supports("avx512f") ? "AVX-512" : "AVX2", peak, ge__aic_kern_pick(2)->level == 2 ? "AVX-512" : ge__aic_kern_pick(2)->level ? "AVX2" : "baseline");
  printf("| %-22s | %5s | %5s | %5s | %7s | %7s | %7s | %7s | %5s | %5s | %7s |\n", "shape", "M", "N", "K", "ours 1t",
         "ours 2t", "blas 1t", threads > 1 ? "blas Nt" : "blas", "r 1t", "r 2t", "rel err");
  printf("|------------------------|------:|------:|------:|--------:|--------:|--------:|--------:|------:|------:|--------"
         ":|\n");
  for (i = 0; i < sizeof shapes / sizeof shapes[0]; i++) bench(&shapes[i], threads);
  printf("\nr 1t = ours 1t / OpenBLAS 1 thread; r 2t = ours 2t / OpenBLAS with %d threads.\n", threads);
  return 0;
}

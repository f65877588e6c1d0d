/* bench/fma_peak.h — one core's FMA peak for the kernel benchmarks
 * (gemm_bench, conv_bench): GFLOP/s of 24 independent FMA chains in this
 * thread's CPU time, AVX-512 when the CPU has it (so CPUs with two 512-bit
 * FMA ports show their true peak), else AVX2; 0 off x86 or without GCC
 * vector extensions. 24 chains cover 2 ports x 4 cycles of latency with
 * room to spare. */
#ifndef GE_BENCH_FMA_PEAK_H
#define GE_BENCH_FMA_PEAK_H

#include <time.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
static double bench_thread_cpu_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
#define BENCH_PEAK_BODY(VT, N)                                                                                         \
  VT a[24], m = {0}, k = {0};                                                                                          \
  long i, n = 20000000;                                                                                                \
  double t0, best = 0;                                                                                                 \
  int r, j;                                                                                                            \
  for (j = 0; j < 24; j++) a[j] = m + (float)j;                                                                        \
  m += 0.999999f;                                                                                                      \
  k += 1e-7f;                                                                                                          \
  for (r = 0; r < 3; r++) {                                                                                            \
    t0 = bench_thread_cpu_now();                                                                                       \
    for (i = 0; i < n; i++)                                                                                            \
      _Pragma("GCC unroll 24") for (j = 0; j < 24; j++) a[j] = a[j] * m + k;                                           \
    t0 = (double)n * 24 * 2 * (N) / (bench_thread_cpu_now() - t0) / 1e9;                                              \
    if (t0 > best) best = t0;                                                                                          \
  }                                                                                                                    \
  for (j = 1; j < 24; j++) a[0] += a[j];                                                                               \
  return a[0][0] == 12345.0f ? 0 : best; /* keeps the chains alive */
__attribute__((target("avx512f,fma"), optimize("fp-contract=fast"))) static double bench_peak512(void) {
  typedef float v16 __attribute__((vector_size(64)));
  BENCH_PEAK_BODY(v16, 16)
}
__attribute__((target("avx2,fma"), optimize("fp-contract=fast"))) static double bench_peak256(void) {
  typedef float v8 __attribute__((vector_size(32)));
  BENCH_PEAK_BODY(v8, 8)
}
static double bench_fma_peak(void) { return __builtin_cpu_supports("avx512f") ? bench_peak512() : bench_peak256(); }
#else
static double bench_fma_peak(void) { return 0; }
#endif

#endif /* GE_BENCH_FMA_PEAK_H */

/* wino_bench.c — Winograd F(4x4, 3x3) against F(2x2, 3x3) per layer
 * (ge_engines/ai_core.h): each 3x3 stride-1 layer runs on two Conv
 * kernels, one forced to F(2x2) and one to F(4x4) (the test knob
 * ge__aic_w4_choice; layers another path takes, e.g. the tiles-as-rows
 * Winograd of 14x14 and 7x7 maps, show the same packing tag "pk" twice:
 * Winograd 24, F(4x4) 72, tiles as rows 32, + level + 1), alternating
 * within a round; medians of ROUNDS rounds, GFLOP/s counted as direct-conv
 * FLOPs; 1 thread in CPU time, 2 threads in wall time (bench/conv_layers.h).
 *
 *   make build/wino_bench
 *   build/wino_bench [ROUNDS [FILTER [THREADS(1|2) [LEVEL(0..2)]]]]   (FILTER "" for all)
 */
#define _POSIX_C_SOURCE 199309L
#define GE_IMPLEMENTATION
#define GE_AI_CORE_TEST_KNOBS
#include "ge_exec.h"
#include "ge_engines/ai_core.h"
#include "tests/test.h"
#include "tests/kernel_harness.h"
#include "bench/conv_layers.h"
static const layer layers[] = {
    {"r18 56 64->64", 0, 64, 56, 56, 64, 1, 3, 3, 1, 1, 1, 4, "Relu"},
    {"r18 28 128->128", 0, 128, 28, 28, 128, 1, 3, 3, 1, 1, 1, 3, "Relu"},
    {"r18 14 256->256", 0, 256, 14, 14, 256, 1, 3, 3, 1, 1, 1, 3, "Relu"},
    {"r18 7 512->512", 0, 512, 7, 7, 512, 1, 3, 3, 1, 1, 1, 3, "Relu"},
    {"gn 3a 96->128 28", 0, 96, 28, 28, 128, 1, 3, 3, 1, 1, 1, 1, "Relu"},
    {"gn 3b 128->192 28", 0, 128, 28, 28, 192, 1, 3, 3, 1, 1, 1, 1, "Relu"},
    {"gn 4a 96->208 14", 0, 96, 14, 14, 208, 1, 3, 3, 1, 1, 1, 1, "Relu"},
    {"gn 4e 160->320 14", 0, 160, 14, 14, 320, 1, 3, 3, 1, 1, 1, 1, "Relu"},
    {"gn 5b 192->384 7", 0, 192, 7, 7, 384, 1, 3, 3, 1, 1, 1, 1, "Relu"},
    {"gn 64->192 56", 0, 64, 56, 56, 192, 1, 3, 3, 1, 1, 1, 1, "Relu"},
    {"i3 32->32 149 p0", 0, 32, 149, 149, 32, 1, 3, 3, 1, 1, 0, 1, "Relu"},
    {"i3 32->64 147", 0, 32, 147, 147, 64, 1, 3, 3, 1, 1, 1, 1, "Relu"},
    {"i3 80->192 73 p0", 0, 80, 73, 73, 192, 1, 3, 3, 1, 1, 0, 1, "Relu"},
    {"i3 64->96 35", 0, 64, 35, 35, 96, 1, 3, 3, 1, 1, 1, 1, "Relu"},
    {"i3 96->96 35", 0, 96, 35, 35, 96, 1, 3, 3, 1, 1, 1, 1, "Relu"},
    {"8x8 448->384", 0, 448, 8, 8, 384, 1, 3, 3, 1, 1, 1, 1, "Relu"},
    {"s 96->96 20", 0, 96, 20, 20, 96, 1, 3, 3, 1, 1, 1, 1, "Relu"},
    {"s 96->96 24", 0, 96, 24, 24, 96, 1, 3, 3, 1, 1, 1, 1, "Relu"},
    {"s 48->48 24", 0, 48, 24, 24, 48, 1, 3, 3, 1, 1, 1, 1, "Relu"},
    {"s 32->64 56", 0, 32, 56, 56, 64, 1, 3, 3, 1, 1, 1, 1, "Relu"},
    {"u 32->32 80", 0, 32, 80, 80, 32, 1, 3, 3, 1, 1, 1, 1, "Relu"},
    {"u 64->64 256", 0, 64, 256, 256, 64, 1, 3, 3, 1, 1, 1, 1, "Relu"},
    {"u 512->128 64", 0, 512, 64, 64, 128, 1, 3, 3, 1, 1, 1, 1, "Relu"},
};
#define NUM_LAYERS (sizeof layers / sizeof layers[0])
int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 5, r, th, v, maxth = argc > 3 ? atoi(argv[3]) : 2;
  const char *filter = argc > 2 && argv[2][0] ? argv[2] : NULL;
  if (argc > 4) ge__aic_conv_level_cap = atoi(argv[4]);
  size_t li;
  printf("| layer | MFLOP | F2 1t | F4 1t | F4/F2 1t | F2 2t | F4 2t | F4/F2 2t |\n");
  for (li = 0; li < NUM_LAYERS; li++) {
    const layer *l = &layers[li];
    setup s[2][2];
    double t[2][2][32], med[2][2];
    if (filter && !strstr(l->name, filter)) continue;
    for (v = 0; v < 2; v++)
      for (th = 0; th < maxth; th++) {
        ge__aic_w4_choice = v ? 1 : 2;
        if (!setup_make(&s[v][th], l, th + 1)) { printf("setup failed %s\n", l->name); return 1; }
      }
    for (r = 0; r < rounds; r++)
      for (th = 0; th < maxth; th++)
        for (v = 0; v < 2; v++) {
          ge__aic_w4_choice = v ? 1 : 2;
          t[v][th][r] = time_runs(&s[v][th]);
        }
    for (v = 0; v < 2; v++)
      for (th = 0; th < maxth; th++) {
        qsort(t[v][th], (size_t)rounds, sizeof(double), cmp_d);
        med[v][th] = t[v][th][rounds / 2];
      }
    printf("| %-20s | %5.0f | %6.1f | %6.1f | %5.2f |", l->name, s[0][0].flop / 1e6, s[0][0].flop / med[0][0] / 1e9,
           s[0][0].flop / med[1][0] / 1e9, med[0][0] / med[1][0]);
    if (maxth > 1)
      printf(" %6.1f | %6.1f | %5.2f |", s[0][0].flop / med[0][1] / 1e9, s[0][0].flop / med[1][1] / 1e9, med[0][1] / med[1][1]);
    printf("  pk %d %d\n", ((ge__aic_state *)s[0][0].c.state)->packed_level, ((ge__aic_state *)s[1][0].c.state)->packed_level);
    fflush(stdout);
    for (v = 0; v < 2; v++)
      for (th = 0; th < maxth; th++) setup_free(&s[v][th]);
  }
  return 0;
}

/* mobilenet_bench.c — the time of every distinct Conv layer of MobileNet-v2
 * (batch 1, 224x224: depthwise 3x3, pointwise 1x1 and the stem) on the AI
 * Core engine, 1 and 2 threads alternating within a round, each figure the
 * median of ROUNDS rounds, weighted by how often the network uses the layer
 * and summed per layer type (dw, pw by map size). 1-thread times are this
 * thread's CPU time (other processes on a shared machine do not count),
 * 2-thread ones wall time on ge_runtime's pool (as in a session). The
 * machinery is bench/conv_layers.h's, shared with bench/conv_bench.c.
 *
 *   make build/mobilenet_bench
 *   build/mobilenet_bench [ROUNDS] [FILTER]   (FILTER: only layers whose name contains it)
 */
#define _POSIX_C_SOURCE 199309L
#define GE_IMPLEMENTATION
#include "ge_exec.h"
#include "ge_engines/ai_core.h"
#include "tests/test.h"
#include "tests/kernel_harness.h"
#include "bench/conv_layers.h"

static const layer layers[] = {
    {"mb2 stem 3x3/2 3->32 224", 0, 3, 224, 224, 32, 1, 3, 3, 2, 1, 1, 1, "Clip"},
    {"mb2 dw3x3 32 112", 0, 32, 112, 112, 32, 32, 3, 3, 1, 1, 1, 1, "Clip"},
    {"mb2 pw 32->16 112", 0, 32, 112, 112, 16, 1, 1, 1, 1, 1, 0, 1, NULL},
    {"mb2 pw 16->96 112", 0, 16, 112, 112, 96, 1, 1, 1, 1, 1, 0, 1, "Clip"},
    {"mb2 dw3x3/2 96 112", 0, 96, 112, 112, 96, 96, 3, 3, 2, 1, 1, 1, "Clip"},
    {"mb2 pw 96->24 56", 0, 96, 56, 56, 24, 1, 1, 1, 1, 1, 0, 1, NULL},
    {"mb2 pw 24->144 56", 0, 24, 56, 56, 144, 1, 1, 1, 1, 1, 0, 2, "Clip"},
    {"mb2 dw3x3 144 56", 0, 144, 56, 56, 144, 144, 3, 3, 1, 1, 1, 1, "Clip"},
    {"mb2 pw 144->24 56", 0, 144, 56, 56, 24, 1, 1, 1, 1, 1, 0, 1, NULL},
    {"mb2 dw3x3/2 144 56", 0, 144, 56, 56, 144, 144, 3, 3, 2, 1, 1, 1, "Clip"},
    {"mb2 pw 144->32 28", 0, 144, 28, 28, 32, 1, 1, 1, 1, 1, 0, 1, NULL},
    {"mb2 pw 32->192 28", 0, 32, 28, 28, 192, 1, 1, 1, 1, 1, 0, 3, "Clip"},
    {"mb2 dw3x3 192 28", 0, 192, 28, 28, 192, 192, 3, 3, 1, 1, 1, 2, "Clip"},
    {"mb2 pw 192->32 28", 0, 192, 28, 28, 32, 1, 1, 1, 1, 1, 0, 2, NULL},
    {"mb2 dw3x3/2 192 28", 0, 192, 28, 28, 192, 192, 3, 3, 2, 1, 1, 1, "Clip"},
    {"mb2 pw 192->64 14", 0, 192, 14, 14, 64, 1, 1, 1, 1, 1, 0, 1, NULL},
    {"mb2 pw 64->384 14", 0, 64, 14, 14, 384, 1, 1, 1, 1, 1, 0, 4, "Clip"},
    {"mb2 dw3x3 384 14", 0, 384, 14, 14, 384, 384, 3, 3, 1, 1, 1, 4, "Clip"},
    {"mb2 pw 384->64 14", 0, 384, 14, 14, 64, 1, 1, 1, 1, 1, 0, 3, NULL},
    {"mb2 pw 384->96 14", 0, 384, 14, 14, 96, 1, 1, 1, 1, 1, 0, 1, NULL},
    {"mb2 pw 96->576 14", 0, 96, 14, 14, 576, 1, 1, 1, 1, 1, 0, 3, "Clip"},
    {"mb2 dw3x3 576 14", 0, 576, 14, 14, 576, 576, 3, 3, 1, 1, 1, 2, "Clip"},
    {"mb2 pw 576->96 14", 0, 576, 14, 14, 96, 1, 1, 1, 1, 1, 0, 2, NULL},
    {"mb2 dw3x3/2 576 14", 0, 576, 14, 14, 576, 576, 3, 3, 2, 1, 1, 1, "Clip"},
    {"mb2 pw 576->160 7", 0, 576, 7, 7, 160, 1, 1, 1, 1, 1, 0, 1, NULL},
    {"mb2 pw 160->960 7", 0, 160, 7, 7, 960, 1, 1, 1, 1, 1, 0, 3, "Clip"},
    {"mb2 dw3x3 960 7", 0, 960, 7, 7, 960, 960, 3, 3, 1, 1, 1, 3, "Clip"},
    {"mb2 pw 960->160 7", 0, 960, 7, 7, 160, 1, 1, 1, 1, 1, 0, 2, NULL},
    {"mb2 pw 960->320 7", 0, 960, 7, 7, 320, 1, 1, 1, 1, 1, 0, 1, NULL},
    {"mb2 pw 320->1280 7", 0, 320, 7, 7, 1280, 1, 1, 1, 1, 1, 0, 1, "Clip"},
};
#define NUM_LAYERS (sizeof layers / sizeof layers[0])

/* The type of a layer: its name's third word ("dw3x3", "pw", ...) and, for
 * pw and dw, the map size (the last word). */
static void layer_type(const layer *l, char *buf, size_t cap) {
  const char *a = strchr(l->name, ' ') + 1, *b = strchr(a, ' '), *e = strrchr(l->name, ' ');
  snprintf(buf, cap, "%.*s%s", (int)(b - a), a, e);
}

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 5, r;
  const char *filter = argc > 2 ? argv[2] : NULL;
  double total[2] = {0, 0}, tflop = 0, tt[NUM_LAYERS][2];
  char types[NUM_LAYERS][40];
  size_t li, ti, nt = 0;
  if (rounds < 1) rounds = 1;
  if (rounds > 32) rounds = 32;
  memset(tt, 0, sizeof tt);
  printf("MobileNet-v2 conv layers (median of %d rounds, 1 and 2 threads alternating; times x count)\n\n", rounds);
  printf("| layer                     | count | MFLOP | 1t GFLOP/s | 2t GFLOP/s | 1t ms | 2t ms |\n");
  printf("|---------------------------|------:|------:|-----------:|-----------:|------:|------:|\n");
  for (li = 0; li < NUM_LAYERS; li++) {
    const layer *l = &layers[li];
    setup s[2];
    double t[2][32], med[2];
    char ty[40];
    int th;
    if (filter && !strstr(l->name, filter)) continue;
    if (!setup_make(&s[0], l, 1) || !setup_make(&s[1], l, 2)) {
      printf("| %-25s | setup failed: %s\n", l->name, s[0].t.err.message);
      setup_free(&s[0]);
      setup_free(&s[1]);
      continue;
    }
    for (r = 0; r < rounds; r++)
      for (th = 0; th < 2; th++) t[th][r] = time_runs(&s[th]);
    layer_type(l, ty, sizeof ty);
    for (ti = 0; ti < nt && strcmp(types[ti], ty); ti++) {}
    if (ti == nt) snprintf(types[nt++], sizeof types[0], "%s", ty);
    for (th = 0; th < 2; th++) {
      qsort(t[th], (size_t)rounds, sizeof(double), cmp_d);
      med[th] = t[th][rounds / 2];
      total[th] += med[th] * (double)l->count;
      tt[ti][th] += med[th] * (double)l->count;
    }
    tflop += s[0].flop * (double)l->count;
    printf("| %-25s | %5lld | %5.0f | %10.1f | %10.1f | %5.3f | %5.3f |\n", l->name, (long long)l->count,
           s[0].flop / 1e6, s[0].flop / med[0] / 1e9, s[0].flop / med[1] / 1e9, med[0] * 1e3, med[1] * 1e3);
    setup_free(&s[0]);
    setup_free(&s[1]);
  }
  printf("\n| layer type     | 1t ms | 2t ms |\n|----------------|------:|------:|\n");
  for (ti = 0; ti < nt; ti++) printf("| %-14s | %5.3f | %5.3f |\n", types[ti], tt[ti][0] * 1e3, tt[ti][1] * 1e3);
  printf("| all convs      | %5.3f | %5.3f |\n", total[0] * 1e3, total[1] * 1e3);
  printf("\n%.1f MFLOP of convs: 1 thread %.1f GFLOP/s, 2 threads %.1f GFLOP/s\n", tflop / 1e6, tflop / total[0] / 1e9,
         tflop / total[1] / 1e9);
  return 0;
}

/* conv3d_bench.c — GFLOP/s per layer of the AI Core engine's 3-D Conv
 * (ge_engines/ai_core.h, "3-D Conv") on the layers of torchvision's video
 * ResNet-18 (r3d_18: batch 1, 3 x 16 x 112 x 112): each layer one Conv node
 * with Const weights (packed on the warm-up run), on 1 thread (this
 * thread's CPU time) and on 2 (ge_runtime's pool, wall time), alternating
 * within a round; each figure is the median of ROUNDS rounds. The total
 * weights each layer by how often r3d_18 uses it.
 *
 *   make build/conv3d_bench
 *   build/conv3d_bench [ROUNDS] [FILTER]   (FILTER: only layers whose name contains it)
 */
#define _POSIX_C_SOURCE 199309L
#define GE_IMPLEMENTATION
#include "ge_exec.h"
#include "ge_engines/ai_core.h"
#include "tests/test.h"
#include "tests/kernel_harness.h"
#include "bench/conv_layers.h"
#include "bench/fma_peak.h"

typedef struct vlayer {
  const char *name;
  int64_t c, z, h, w, m, kz, kh, kw, sz, sh, sw, pz, ph, pw, count;
  const char *act;
} vlayer;

static const vlayer vlayers[] = {
    {"stem 3x7x7/1,2,2 3->64", 3, 16, 112, 112, 64, 3, 7, 7, 1, 2, 2, 1, 3, 3, 1, "Relu"},
    {"l1 3x3x3 64->64 16x56", 64, 16, 56, 56, 64, 3, 3, 3, 1, 1, 1, 1, 1, 1, 4, "Relu"},
    {"l2 3x3x3/2 64->128", 64, 16, 56, 56, 128, 3, 3, 3, 2, 2, 2, 1, 1, 1, 1, "Relu"},
    {"l2 1x1x1/2 64->128", 64, 16, 56, 56, 128, 1, 1, 1, 2, 2, 2, 0, 0, 0, 1, NULL},
    {"l2 3x3x3 128->128 8x28", 128, 8, 28, 28, 128, 3, 3, 3, 1, 1, 1, 1, 1, 1, 3, "Relu"},
    {"l3 3x3x3/2 128->256", 128, 8, 28, 28, 256, 3, 3, 3, 2, 2, 2, 1, 1, 1, 1, "Relu"},
    {"l3 1x1x1/2 128->256", 128, 8, 28, 28, 256, 1, 1, 1, 2, 2, 2, 0, 0, 0, 1, NULL},
    {"l3 3x3x3 256->256 4x14", 256, 4, 14, 14, 256, 3, 3, 3, 1, 1, 1, 1, 1, 1, 3, "Relu"},
    {"l4 3x3x3/2 256->512", 256, 4, 14, 14, 512, 3, 3, 3, 2, 2, 2, 1, 1, 1, 1, "Relu"},
    {"l4 1x1x1/2 256->512", 256, 4, 14, 14, 512, 1, 1, 1, 2, 2, 2, 0, 0, 0, 1, NULL},
    {"l4 3x3x3 512->512 2x7", 512, 2, 7, 7, 512, 3, 3, 3, 1, 1, 1, 1, 1, 1, 3, "Relu"},
};
#define NUM_VLAYERS (sizeof vlayers / sizeof vlayers[0])

static int64_t vout(int64_t in, int64_t k, int64_t s, int64_t p) { return (in + 2 * p - k) / s + 1; }

static int vsetup_make(setup *s, const vlayer *l, int threads) {
  int64_t xd[5] = {1, l->c, l->z, l->h, l->w}, wd[5] = {l->m, l->c, l->kz, l->kh, l->kw}, bd[1] = {l->m};
  int64_t st[3] = {l->sz, l->sh, l->sw}, pd[6] = {l->pz, l->ph, l->pw, l->pz, l->ph, l->pw}, wn, i;
  float *w;
  ge_edge e[3];
  memset(s, 0, sizeof s[0]);
  wn = wd[0] * wd[1] * wd[2] * wd[3] * wd[4];
  w = (float *)malloc((size_t)wn * sizeof(float));
  for (i = 0; i < wn; i++) w[i] = (float)((i * 7 % 13) - 6) / 64.0f;
  s->vw = kh_value(GE_DTYPE_FLOAT32, 5, wd, w);
  s->vx = kh_value(GE_DTYPE_FLOAT32, 5, xd, NULL);
  for (i = 0; i < s->vx.numel; i++) ((float *)s->vx.data)[i] = (float)((i * 5 % 11) - 5) / 8.0f;
  s->vb = kh_value(GE_DTYPE_FLOAT32, 1, bd, NULL);
  ge_graph_create(NULL, &s->t.g, &s->t.err);
  ge_graph_add_data(s->t.g, NULL, GE_DTYPE_FLOAT32, 5, xd, &e[0].node, NULL);
  e[1].node = add_const(s->t.g, 5, wd, w, wn);
  e[2].node = add_const(s->t.g, 1, bd, (const float *)s->vb.data, l->m);
  e[0].index = e[1].index = e[2].index = 0;
  free(w);
  if (ge_graph_add_node(s->t.g, "Conv", "conv", 3, e, 1, &s->t.id, &s->t.err) != GE_OK) return 0;
  ge_node_set_attr_ints(s->t.g, s->t.id, "strides", st, 3, NULL);
  ge_node_set_attr_ints(s->t.g, s->t.id, "pads", pd, 6, NULL);
  if (l->act) ge_node_set_attr_string(s->t.g, s->t.id, "_fused_activation", l->act, NULL);
  if (!setup_bind(s, threads)) return 0;
  s->flop = 2.0 * (double)(vout(l->z, l->kz, l->sz, l->pz) * vout(l->h, l->kh, l->sh, l->ph) *
                           vout(l->w, l->kw, l->sw, l->pw)) *
            (double)l->m * (double)l->c * (double)(l->kz * l->kh * l->kw);
  return s->fn && s->fn(&s->c) == GE_OK; /* the warm-up run packs the weights */
}

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 3, r;
  const char *filter = argc > 2 ? argv[2] : NULL;
  double total[2] = {0, 0}, flop = 0, peak = bench_fma_peak();
  size_t li;
  if (rounds < 1) rounds = 1;
  if (rounds > 32) rounds = 32;
  printf("3-D Conv kernels, GFLOP/s (median of %d rounds, 1 and 2 threads alternating); one core's FMA peak %.1f GFLOP/s\n\n",
         rounds, peak);
  printf("| layer                     | count | MFLOP | 1t GFLOP/s | 2t GFLOP/s | 1t ms | 2t ms |\n");
  printf("|---------------------------|------:|------:|-----------:|-----------:|------:|------:|\n");
  for (li = 0; li < NUM_VLAYERS; li++) {
    const vlayer *l = &vlayers[li];
    setup s[2];
    double t[2][32], med[2];
    int th;
    if (filter && !strstr(l->name, filter)) continue;
    if (!vsetup_make(&s[0], l, 1) || !vsetup_make(&s[1], l, 2)) {
      printf("| %-25s | setup failed: %s\n", l->name, s[0].t.err.message);
      setup_free(&s[0]);
      setup_free(&s[1]);
      continue;
    }
    for (r = 0; r < rounds; r++)
      for (th = 0; th < 2; th++) t[th][r] = time_runs(&s[th]);
    for (th = 0; th < 2; th++) {
      qsort(t[th], (size_t)rounds, sizeof(double), cmp_d);
      med[th] = t[th][rounds / 2];
      total[th] += med[th] * (double)l->count;
    }
    flop += s[0].flop * (double)l->count;
    printf("| %-25s | %5lld | %5.0f | %10.1f | %10.1f | %5.2f | %5.2f |\n", l->name, (long long)l->count,
           s[0].flop / 1e6, s[0].flop / med[0] / 1e9, s[0].flop / med[1] / 1e9, med[0] * 1e3, med[1] * 1e3);
    setup_free(&s[0]);
    setup_free(&s[1]);
  }
  if (flop > 0)
    printf("\nr3d_18 convs (each layer times its count): %.2f GFLOP; 1 thread %.1f ms = %.1f GFLOP/s (%.0f%% of peak); "
           "2 threads %.1f ms = %.1f GFLOP/s\n",
           flop / 1e9, total[0] * 1e3, flop / total[0] / 1e9, 100 * flop / total[0] / 1e9 / peak, total[1] * 1e3,
           flop / total[1] / 1e9);
  return 0;
}

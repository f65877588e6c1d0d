/* mobilenet_bench.c — the time of every distinct Conv layer of MobileNet-v2
 * (batch 1, 224x224: depthwise 3x3, pointwise 1x1 and the stem) on the AI
 * Core engine, 1 and 2 threads alternating within a round, each figure the
 * median of ROUNDS rounds, weighted by how often the network uses the layer
 * and summed per layer type (dw, pw by map size). 1-thread times are this
 * thread's CPU time (other processes on a shared machine do not count),
 * 2-thread ones wall time on ge_runtime's pool (as in a session). The
 * machinery is bench/conv_bench.c's.
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

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* 1-thread figures use this thread's CPU time, so that other processes on
 * a shared machine do not count (they still share the caches); 2-thread
 * figures are wall time. */
static int cpu_clock;
static double now(void) {
  struct timespec ts;
  clock_gettime(cpu_clock ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_d(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

typedef struct layer {
  const char *name;
  int transpose; /* ConvTranspose */
  int64_t c, h, w, m, group, kh, kw, s, d, pad, count;
  const char *act; /* fused activation or NULL */
} layer;

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

static int64_t out_dim(const layer *l, int64_t in, int64_t k) {
  int64_t eff = (k - 1) * l->d + 1;
  if (l->transpose) return (in - 1) * l->s + eff - 2 * l->pad;
  return (in + 2 * l->pad - eff) / l->s + 1;
}

static ge_node_id add_const(ge_graph *g, int32_t rank, const int64_t *dims, const float *data, int64_t n) {
  ge_tensor t;
  ge_node_id id = GE_NONE;
  memset(&t, 0, sizeof t);
  t.dtype = GE_DTYPE_FLOAT32;
  t.rank = rank;
  t.dims = (int64_t *)dims;
  t.data = (void *)data;
  t.nbytes = (size_t)n * sizeof(float);
  ge_graph_add_const(g, NULL, &t, &id, NULL);
  return id;
}

/* One layer's kernel, context and operands. */
typedef struct setup {
  kt t;
  ge_kernel_env env;
  ge_kernel_ctx c;
  ge_value vx, vw, vb, out;
  ge_value *in[3], *outs[1];
  ge_kernel_fn fn;
  double flop;
} setup;

/* 2 threads run on ge_runtime's pool, as in a session (env->executor holds it). */
static void rt_parallel_for(ge_kernel_env *env, int64_t n, int64_t grain, ge_parallel_fn fn, void *arg) {
  ge_runtime_parallel_for((ge_runtime *)env->executor, n, grain, fn, arg);
}

static int setup_make(setup *s, const layer *l, int threads) {
  int64_t xd[4] = {1, l->c, l->h, l->w}, wd[4], bd[1] = {l->m}, st[2] = {l->s, l->s}, dl[2] = {l->d, l->d};
  int64_t pd[4] = {l->pad, l->pad, l->pad, l->pad}, oh = out_dim(l, l->h, l->kh), ow = out_dim(l, l->w, l->kw), wn, i;
  float *w;
  ge_edge e[3];
  memset(s, 0, sizeof s[0]);
  if (l->transpose) wd[0] = l->c, wd[1] = l->m / l->group;
  else wd[0] = l->m, wd[1] = l->c / l->group;
  wd[2] = l->kh, wd[3] = l->kw;
  if (l->h == 1) oh = 1, st[0] = 1, dl[0] = 1, pd[0] = pd[2] = 0;
  wn = wd[0] * wd[1] * wd[2] * wd[3];
  w = (float *)malloc((size_t)wn * sizeof(float));
  for (i = 0; i < wn; i++) w[i] = (float)((i * 7 % 13) - 6) / 64.0f;
  s->vw = kh_value(GE_DTYPE_FLOAT32, 4, wd, w);
  s->vx = kh_value(GE_DTYPE_FLOAT32, 4, xd, NULL);
  for (i = 0; i < s->vx.numel; i++) ((float *)s->vx.data)[i] = (float)((i * 5 % 11) - 5) / 8.0f;
  s->vb = kh_value(GE_DTYPE_FLOAT32, 1, bd, NULL);
  ge_graph_create(NULL, &s->t.g, &s->t.err);
  ge_graph_add_data(s->t.g, NULL, GE_DTYPE_FLOAT32, 4, xd, &e[0].node, NULL);
  e[1].node = add_const(s->t.g, 4, wd, w, wn);
  e[2].node = add_const(s->t.g, 1, bd, (const float *)s->vb.data, l->m);
  e[0].index = e[1].index = e[2].index = 0;
  free(w);
  if (ge_graph_add_node(s->t.g, l->transpose ? "ConvTranspose" : "Conv", "conv", 3, e, 1, &s->t.id, &s->t.err) != GE_OK)
    return 0;
  ge_node_set_attr_ints(s->t.g, s->t.id, "strides", st, 2, NULL);
  ge_node_set_attr_ints(s->t.g, s->t.id, "dilations", dl, 2, NULL);
  ge_node_set_attr_ints(s->t.g, s->t.id, "pads", pd, 4, NULL);
  ge_node_set_attr_int(s->t.g, s->t.id, "group", l->group, NULL);
  if (l->act) ge_node_set_attr_string(s->t.g, s->t.id, "_fused_activation", l->act, NULL);
  s->env.alloc_output = kh_alloc_output;
  s->env.num_threads = threads;
  if (threads > 1) {
    ge_runtime_desc rd;
    ge_runtime *rt = NULL;
    memset(&rd, 0, sizeof rd);
    rd.num_threads = threads;
    if (ge_runtime_create(&rd, &rt, &s->t.err) != GE_OK) return 0;
    s->env.executor = rt;
    s->env.parallel_for = rt_parallel_for;
  }
  s->in[0] = &s->vx, s->in[1] = &s->vw, s->in[2] = &s->vb;
  s->outs[0] = &s->out;
  s->c.inputs = s->in;
  s->c.outputs = s->outs;
  s->c.num_inputs = 3;
  s->c.num_outputs = 1;
  s->c.env = &s->env;
  s->c.node = ge_graph_node(s->t.g, s->t.id);
  s->c.graph = s->t.g;
  s->c.err = &s->t.err;
  s->fn = ge_ai_core_engine()->kernel(ge_ai_core_engine(), s->c.node);
  s->flop = 2.0 * (double)(l->transpose ? (l->h == 1 ? 1 : l->h) * l->w : oh * ow) * (double)l->m * (double)(l->c / l->group) * (double)(l->kh * l->kw);
  return s->fn && s->fn(&s->c) == GE_OK; /* the warm-up run packs the weights */
}

static void setup_free(setup *s) {
  if (s->env.executor) ge_runtime_free((ge_runtime *)s->env.executor);
  free(s->c.state);
  kh_free(&s->out);
  kh_free(&s->vx);
  kh_free(&s->vw);
  kh_free(&s->vb);
  kt_free(&s->t);
}

/* Seconds per run: repeats for ~20 ms. */
static double time_runs(setup *s) {
  int64_t reps = (int64_t)(4e8 / s->flop) + 1, i;
  double t0;
  cpu_clock = s->env.num_threads <= 1;
  t0 = now();
  for (i = 0; i < reps; i++) s->fn(&s->c);
  t0 = (now() - t0) / (double)reps;
  cpu_clock = 0;
  return t0;
}


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

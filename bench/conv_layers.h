/* conv_layers.h — the machinery of the Conv layer benchmarks
 * (bench/conv_bench.c, bench/mobilenet_bench.c): one layer as a Conv (or
 * ConvTranspose) node with Const weights, run by the AI Core kernel on 1
 * thread or on 2 on ge_runtime's pool (as in a session), timed in CPU time
 * (1 thread) or wall time (2). Include after ge_exec.h, ge_engines/ai_core.h
 * and tests/kernel_harness.h, with GE_IMPLEMENTATION defined. */
#ifndef GE_BENCH_CONV_LAYERS_H
#define GE_BENCH_CONV_LAYERS_H

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

/* The pad along an axis of kernel size k: pad < 0 pads each axis by
 * (k - 1) / 2 (Inception's 1x7 and 7x1 convs keep the map's size). */
static int64_t pad_of(const layer *l, int64_t k) { return l->pad < 0 ? (k - 1) / 2 : l->pad; }

static int64_t out_dim(const layer *l, int64_t in, int64_t k) {
  int64_t eff = (k - 1) * l->d + 1;
  if (l->transpose) return (in - 1) * l->s + eff - 2 * pad_of(l, k);
  return (in + 2 * pad_of(l, k) - eff) / l->s + 1;
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

/* Binds s's Conv node (graph built, inputs vx, vw, vb) to a kernel context
 * on `threads` threads (a ge_runtime pool of its own past 1) and looks up
 * the AI Core kernel; 0 on failure. */
static int setup_bind(setup *s, int threads) {
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
  return s->fn != NULL;
}

static GE_TEST__UNUSED int setup_make(setup *s, const layer *l, int threads) {
  int64_t xd[4] = {1, l->c, l->h, l->w}, wd[4], bd[1] = {l->m}, st[2] = {l->s, l->s}, dl[2] = {l->d, l->d};
  int64_t pd[4] = {pad_of(l, l->kh), pad_of(l, l->kw), pad_of(l, l->kh), pad_of(l, l->kw)}, oh = out_dim(l, l->h, l->kh), ow = out_dim(l, l->w, l->kw), wn, i;
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
  if (!setup_bind(s, threads)) return 0;
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

/* Cold runs: with COLD=MB in the environment every timed run follows a
 * sweep over MB megabytes (untimed), so the layer's weights and
 * activations come from memory or the last-level cache as in a whole
 * network, where the other layers' weights pass through the caches
 * between two runs of one layer (ResNet-18: about 70 MB of packed weights). */
static size_t cold_bytes(void) {
  const char *e = getenv("COLD");
  return e ? (size_t)atol(e) << 20 : 0;
}
static void cold_sweep(size_t bytes) {
  static unsigned char *buf;
  static size_t have;
  size_t i;
  if (have < bytes) {
    free(buf);
    buf = (unsigned char *)malloc(bytes);
    have = buf ? bytes : 0;
    if (buf) memset(buf, 1, bytes);
  }
  for (i = 0; i < have; i += 64) buf[i]++;
}

/* Seconds per run: repeats for ~20 ms (cold: at least 10 runs). */
static GE_TEST__UNUSED double time_runs(setup *s) {
  int64_t reps = (int64_t)(4e8 / s->flop) + 1, i;
  size_t cold = cold_bytes();
  double t0, sum = 0;
  cpu_clock = s->env.num_threads <= 1;
  if (cold) {
    if (reps > 10) reps = 10;
    for (i = 0; i < reps; i++) {
      cold_sweep(cold);
      t0 = now();
      s->fn(&s->c);
      sum += now() - t0;
    }
    cpu_clock = 0;
    return sum / (double)reps;
  }
  t0 = now();
  for (i = 0; i < reps; i++) s->fn(&s->c);
  t0 = (now() - t0) / (double)reps;
  cpu_clock = 0;
  return t0;
}

#endif

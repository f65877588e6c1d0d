/* Work split over two threads: the kernels' guided shares and the pool
 * that hands them out, on a real 2-thread runtime (ge_runtime.h).
 *   - ge__aic_guide_make: shares that cover the units once, in order, at
 *     most 4 a thread, shrinking from both ends toward the middle (the
 *     middle one at most half the larger end when there are enough units,
 *     the two halves within a unit of each other: the caller claims from
 *     the front, the workers from the back), each at least min_units, equal
 *     and one a thread below the split's flops, never more than the guide
 *     holds however many threads;
 *   - ge_runtime_parallel_for hands up to 4 indices a thread out one grain
 *     at a time (what guided shares need) and covers every index once;
 *   - ResNet-18's conv layers (Winograd F(4x4) on 56x56 and 28x28 maps, the
 *     tiles-as-rows Winograd on 14x14 and 7x7, the transposed direct conv
 *     and the small-image conv of the strided 3x3s, the stem's lanes
 *     direct conv on AVX-512) and its fc Gemm, each
 *     on 1 thread and on the 2-thread pool: bit-identical to each other,
 *     within 1e-4 of the host reference, and the 2-thread run split into
 *     the shares expected (guided: more shares than threads; the fc layer's
 *     weight stream split in two). */
#define GE_AI_CORE_IMPLEMENTATION /* its private ge__aic_*; the rest from libge.a */
#define GE_AI_CORE_TEST_KNOBS     /* Conv on every micro-kernel level */
#include "ge_exec.h"
#include "ge_engines/ai_core.h"
#include "tests/test.h"
#include "tests/kernel_harness.h"
#include "tests/rng.h"
#include "tests/conv_harness.h"

#include <math.h>
#include <stdlib.h>

#define TOL 1e-4

/* ---------------------------------------------------- guided shares */

GE_TEST(test_guided_shares) {
  int i, guided = 0;
  tu_seed(&R, 2202);
  for (i = 0; i < 4000; i++) {
    ge__aic_guide g;
    int64_t threads = 1 + (int64_t)tu_below(&R, i % 3 ? 2 : 16), units = (int64_t)tu_below(&R, i % 5 ? 64 : 2000);
    int64_t min_units = 1 + (int64_t)tu_below(&R, 6), t, last;
    double flops = i % 4 ? 1e9 : 1e5;
    int ok = 1, many;
    memset(&g, 0xcd, sizeof g); /* nothing read that was not written */
    ge__aic_guide_make(&g, threads, units, min_units, flops);
    many = ge__aic_shares(threads, units, 1, flops) > threads;
    ok &= g.n >= 1 && g.n <= GE__AIC_GUIDE_MAX && g.at[0] == 0 && g.at[g.n] == units;
    for (t = 0; ok && t < g.n; t++) ok &= g.at[t + 1] >= g.at[t] && (units == 0 || g.at[t + 1] > g.at[t]);
    if (ok && !many) { /* one share a thread (or a unit), equal within one unit */
      ok &= g.n == (units < threads ? (units > 0 ? units : 1) : threads);
      for (t = 0; ok && t < g.n; t++) ok &= g.at[t + 1] - g.at[t] <= (units + g.n - 1) / g.n;
    }
    if (ok && many) { /* at most 4 a thread, none above the ends (but rounding), short ones in the middle */
      int64_t first = g.at[1] - g.at[0], end, mid = g.at[g.n / 2 + 1] - g.at[g.n / 2], half = g.n / 2;
      last = g.at[g.n] - g.at[g.n - 1];
      end = first > last ? first : last;
      ok &= g.n <= GE__AIC_SHARES * threads && g.n >= (units < threads ? units : threads); /* every thread one */
      for (t = 0; ok && t < g.n; t++) ok &= g.at[t + 1] - g.at[t] <= end + 1;
      for (t = 0; ok && g.n > 1 && t < g.n; t++) ok &= g.at[t + 1] - g.at[t] >= (g.n * min_units <= units ? min_units : 1);
      ok &= llabs((g.at[half] - g.at[0]) - (g.at[g.n] - g.at[g.n - half])) <= 1; /* the halves balance */
      if (units >= 8 * threads * min_units) ok &= 2 * mid <= end + 1 && g.n > threads;
      guided += g.n > threads;
    }
    if (!GE_CHECK(ok)) {
      printf("  guide threads %lld units %lld min %lld flops %g: n %lld:", (long long)threads, (long long)units,
             (long long)min_units, flops, (long long)g.n);
      for (t = 0; t <= g.n && t <= GE__AIC_GUIDE_MAX; t++) printf(" %lld", (long long)g.at[t]);
      printf("\n");
      break;
    }
  }
  for (i = 0; i < 2; i++) { /* more threads than the guide holds: fewer shares, all the units */
    ge__aic_guide g;
    ge__aic_guide_make(&g, 3 * GE__AIC_GUIDE_MAX, 5000, 1, i ? 1e5 : 1e9);
    GE_CHECK(g.n >= 1 && g.n <= GE__AIC_GUIDE_MAX && g.at[0] == 0 && g.at[g.n] == 5000);
  }
  GE_CHECK(guided > 1000);
  printf("  guided shares: 4000 splits checked, %d with more shares than threads\n", guided);
}

/* ------------------------------------------------- the pool's loops */

typedef struct loop_rec {
  int *hits;      /* per index */
  int long_range; /* a range longer than the grain */
  int64_t n, grain;
} loop_rec;

static void loop_fn(void *arg, int64_t b, int64_t e) {
  loop_rec *l = (loop_rec *)arg;
  int64_t i;
  if (e - b > l->grain) __atomic_store_n(&l->long_range, 1, __ATOMIC_RELAXED);
  for (i = b; i < e; i++) __atomic_add_fetch(&l->hits[i], 1, __ATOMIC_RELAXED);
}

GE_TEST(test_pool_hands_shares_one_by_one) {
  ge_runtime_desc rd;
  ge_runtime *rt;
  ge_error err;
  int64_t n, g, i;
  int bad = 0, loops = 0, long_many = 0;
  memset(&rd, 0, sizeof rd);
  rd.num_threads = 2;
  if (!GE_CHECK(ge_runtime_create(&rd, &rt, &err) == GE_OK)) return;
  for (n = 2; n <= 300; n += n < 70 ? 1 : 23)
    for (g = 1; g <= 3; g++) {
      loop_rec l;
      memset(&l, 0, sizeof l);
      l.hits = (int *)calloc((size_t)n, sizeof(int));
      l.n = n, l.grain = g;
      ge_runtime_parallel_for(rt, n, g, loop_fn, &l);
      for (i = 0; i < n; i++) bad += l.hits[i] != 1;
      if (n <= 8) bad += l.long_range; /* up to 4 a thread: one grain at a time */
      else long_many += l.long_range;  /* more: about four ranges a thread */
      free(l.hits);
      loops++;
    }
  ge_runtime_free(rt);
  GE_CHECK_EQ_INT(bad, 0);
  GE_CHECK(long_many > 0);
  printf("  pool: %d loops of 2..300 indices covered once; <= 8 one grain at a time\n", loops);
}

/* ------------------------------------- ResNet-18's layers on 2 threads */

/* The env of a kernel context: no pool, or the runtime's pool with the
 * loops it ran counted (their largest index count kept). */
typedef struct pool_env {
  ge_kernel_env env;
  ge_runtime *rt;
  int loops;
  int64_t most; /* most indices of one loop */
} pool_env;

static void pool_parallel_for(ge_kernel_env *env, int64_t n, int64_t grain, ge_parallel_fn fn, void *arg) {
  pool_env *p = (pool_env *)env;
  p->loops++;
  if (n > p->most) p->most = n;
  ge_runtime_parallel_for(p->rt, n, grain, fn, arg);
}

/* Runs the AI Core kernel of node id twice (weights packed at the first
 * run) on `threads` threads into out; *tag: the packing's tag (the path). */
static int run_aic(kt *t, ge_value **in, uint32_t n_in, ge_runtime *rt, int threads, ge_value *out, pool_env *pe,
                   int *tag) {
  ge_kernel_ctx c;
  ge_value *outs[1];
  int round, ok = 1;
  memset(&c, 0, sizeof c);
  memset(pe, 0, sizeof *pe);
  pe->env.alloc_output = kh_alloc_output;
  pe->env.num_threads = threads;
  pe->env.executor = NULL;
  if (threads > 1) pe->env.parallel_for = pool_parallel_for, pe->rt = rt;
  outs[0] = out;
  c.inputs = in, c.outputs = outs, c.num_inputs = n_in, c.num_outputs = 1, c.env = &pe->env;
  c.node = ge_graph_node(t->g, t->id), c.graph = t->g, c.err = &t->err;
  for (round = 0; round < 2 && ok; round++) {
    if (round) pe->loops = 0, pe->most = 0; /* the second run's loops */
    ok = ge_ai_core_engine()->kernel(ge_ai_core_engine(), c.node)(&c) == GE_OK;
  }
  *tag = c.state ? ((ge__aic_state *)c.state)->packed_level - 1 : -1;
  ge_kernel_free_state(&c);
  if (!ok) printf("  kernel error: %s\n", t->err.message);
  return ok;
}

typedef struct layer {
  const char *name;
  int64_t c, h, w, m, k, s, pad; /* square kernel k, stride s */
  int residual, tag_base;        /* path: packing tag - level (-1: any) */
  int64_t min_loop;              /* most indices of a 2-thread loop at least */
} layer;

/* One layer: 1 thread and 2 threads bit-identical, both against the host
 * reference (+ residual, Relu); returns the rel err, < 0 on failure. */
static double run_layer(const layer *L, ge_runtime *rt, int level, int *same, int *split_ok) {
  int64_t xd[4] = {1, L->c, L->h, L->w}, wd[4] = {L->m, L->c, L->k, L->k}, bd[1] = {L->m}, yd[4], st[2], pd[4], dl[2] = {1, 1};
  int64_t oh = (L->h + 2 * L->pad - L->k) / L->s + 1, ow = (L->w + 2 * L->pad - L->k) / L->s + 1, yn, i;
  float *w = rand_floats(L->m * L->c * L->k * L->k), *b = rand_floats(L->m), *x, *res;
  ge_value vx, vw, vb, vres, o1, o2, ref;
  ge_value *in[4];
  ge_edge e[4];
  pool_env p1, p2;
  kt t;
  int tag1, tag2, ok;
  double er = -1;
  yd[0] = 1, yd[1] = L->m, yd[2] = oh, yd[3] = ow;
  yn = L->m * oh * ow;
  x = rand_floats(L->c * L->h * L->w), res = rand_floats(yn);
  memset(&t, 0, sizeof t);
  ge_graph_create(NULL, &t.g, &t.err);
  ge_graph_add_data(t.g, NULL, GE_DTYPE_FLOAT32, 4, xd, &e[0].node, NULL);
  e[1].node = add_const(t.g, 4, wd, w, L->m * L->c * L->k * L->k);
  e[2].node = add_const(t.g, 1, bd, b, L->m);
  e[3].node = GE_NONE;
  if (L->residual) ge_graph_add_data(t.g, NULL, GE_DTYPE_FLOAT32, 4, yd, &e[3].node, NULL);
  e[0].index = e[1].index = e[2].index = e[3].index = 0;
  ge_graph_add_node(t.g, "Conv", "conv", L->residual ? 4 : 3, e, 1, &t.id, &t.err);
  st[0] = st[1] = L->s, pd[0] = pd[1] = pd[2] = pd[3] = L->pad;
  ge_node_set_attr_ints(t.g, t.id, "strides", st, 2, NULL);
  ge_node_set_attr_ints(t.g, t.id, "dilations", dl, 2, NULL);
  ge_node_set_attr_ints(t.g, t.id, "pads", pd, 4, NULL);
  ge_node_set_attr_string(t.g, t.id, "_fused_activation", "Relu", NULL);
  if (L->residual) ge_node_set_attr_int(t.g, t.id, GE_ATTR_FUSED_INPUTS, 1, NULL);
  vx = kh_value(GE_DTYPE_FLOAT32, 4, xd, x), vw = kh_value(GE_DTYPE_FLOAT32, 4, wd, w);
  vb = kh_value(GE_DTYPE_FLOAT32, 1, bd, b), vres = kh_value(GE_DTYPE_FLOAT32, 4, yd, res);
  in[0] = &vx, in[1] = &vw, in[2] = &vb, in[3] = L->residual ? &vres : NULL;
  memset(&o1, 0, sizeof o1), memset(&o2, 0, sizeof o2), memset(&ref, 0, sizeof ref);
  ge__aic_conv_level_cap = level;
  ok = run_aic(&t, in, L->residual ? 4 : 3, rt, 1, &o1, &p1, &tag1) && run_aic(&t, in, L->residual ? 4 : 3, rt, 2, &o2, &p2, &tag2);
  ge__aic_conv_level_cap = 2;
  ok = ok && kh_run(ge_host_cpu_kernel(ge_graph_node(t.g, t.id)), t.g, t.id, in, 3, &ref, 1, &t.err) == GE_OK;
  if (ok && o1.numel == yn && o2.numel == yn && ref.numel == yn) {
    float *r = (float *)ref.data;
    for (i = 0; i < yn; i++) {
      double v = (double)r[i] + (L->residual ? res[i] : 0.0f);
      r[i] = (float)(v > 0 ? v : 0);
    }
    er = rel_err((const float *)o1.data, r, yn);
    if (rel_err((const float *)o2.data, r, yn) > er) er = rel_err((const float *)o2.data, r, yn);
    *same = !memcmp(o1.data, o2.data, (size_t)yn * sizeof(float));
    /* the same path on both, and the 2-thread run in the shares expected */
    *split_ok = tag1 == tag2 && p1.loops == 0 && p2.most >= L->min_loop &&
                (L->tag_base < 0 || level < 2 || tag2 == L->tag_base + level);
    if (!*split_ok)
      printf("  %s level %d: tags %d/%d, 1-thread loops %d, 2-thread most %lld\n", L->name, level, tag1, tag2, p1.loops,
             (long long)p2.most);
  }
  kh_free(&o1), kh_free(&o2), kh_free(&ref), kh_free(&vx), kh_free(&vw), kh_free(&vb), kh_free(&vres);
  free(w), free(b), free(x), free(res);
  ge_graph_free(t.g);
  return er;
}

GE_TEST(test_resnet18_layers_on_two_threads) {
  /* tags: Winograd 24 (F(4x4) 72), tiles-as-rows Winograd 32, transposed direct 40, small-image 16, lanes 56, GEMM 0
   * (+ level); F(4x4) on 56x56: 14 tile rows in 4 shares (3 rows a share at least, the products' columns); on
   * 28x28: 7 tile rows in 2 */
  static const layer layers[] = {
      {"l1 3x3 64->64 56", 64, 56, 56, 64, 3, 1, 1, 1, 72, 4},
      {"l2 3x3 128->128 28", 128, 28, 28, 128, 3, 1, 1, 0, 72, 2},
      {"odd 3x3 48->80 30x26", 48, 30, 26, 80, 3, 1, 1, 1, -1, 2},
      {"l3 3x3 256->256 14", 256, 14, 14, 256, 3, 1, 1, 1, 32, 5},
      {"l4 3x3 512->512 7", 512, 7, 7, 512, 3, 1, 1, 0, 32, 5},
      {"l3 3x3/2 128->256 28", 128, 28, 28, 256, 3, 2, 1, 0, -1, 3},
      {"l2 3x3/2 64->128 56", 64, 56, 56, 128, 3, 2, 1, 0, -1, 3},
      {"stem 7x7/2 3->64 112", 3, 112, 112, 64, 7, 2, 3, 0, 56, 5}, /* the lanes direct conv (AVX-512), split */
  };
  ge_runtime_desc rd;
  ge_runtime *rt;
  ge_error err;
  int level, i, cases = 0, identical = 0, splits = 0;
  double worst = 0;
  memset(&rd, 0, sizeof rd);
  rd.num_threads = 2;
  if (!GE_CHECK(ge_runtime_create(&rd, &rt, &err) == GE_OK)) return;
  tu_seed(&R, 1818);
  for (level = 2; level >= 0; level--) {
    if (ge__aic_kern_pick(level)->level != level) continue;
    for (i = 0; i < (int)(sizeof layers / sizeof layers[0]); i++) {
      int same = 0, split_ok = 0;
      double er;
      if (level < 2 && i >= 3) continue; /* the lower levels: the Winograd layers only (time) */
      er = run_layer(&layers[i], rt, level, &same, &split_ok);
      if (!GE_CHECK(er >= 0 && er < TOL) || !GE_CHECK(same) || !GE_CHECK(split_ok))
        printf("  %s level %d: rel err %.2g, 1 and 2 threads %s\n", layers[i].name, level, er,
               same ? "identical" : "differ");
      if (er > worst) worst = er;
      cases++, identical += same, splits += split_ok;
    }
  }
  ge_runtime_free(rt);
  GE_CHECK(cases >= 3);
  printf("  ResNet-18 layers: %d cases, %d bit-identical on 1 and 2 threads, %d split as expected, worst rel err %.2g\n",
         cases, identical, splits, worst);
}

/* The fc layer: Gemm 1x512 by a Const 512x1000 (transB) plus bias. */
GE_TEST(test_fc_gemm_on_two_threads) {
  int64_t ad[2] = {1, 512}, bd[2] = {1000, 512}, cd[1] = {1000}, i;
  float *A, *B, *C;
  ge_value va, vb, vc, o1, o2, ref;
  ge_value *in[3];
  ge_edge e[3];
  ge_runtime_desc rd;
  ge_runtime *rt;
  ge_error err;
  pool_env p1, p2;
  kt t;
  int tag1, tag2, round;
  memset(&rd, 0, sizeof rd);
  rd.num_threads = 2;
  if (!GE_CHECK(ge_runtime_create(&rd, &rt, &err) == GE_OK)) return;
  tu_seed(&R, 1000);
  for (round = 0; round < 3; round++) {
    int64_t n = round == 2 ? 300 : 1000; /* 512 x 300: below the stream's 1 MB, one thread */
    bd[0] = n, cd[0] = n, ad[0] = round == 1 ? 3 : 1; /* a few rows too */
    A = rand_floats(512), B = rand_floats(512 * n), C = rand_floats(n);
    memset(&t, 0, sizeof t);
    ge_graph_create(NULL, &t.g, &t.err);
    ge_graph_add_data(t.g, NULL, GE_DTYPE_FLOAT32, 2, ad, &e[0].node, NULL);
    e[1].node = add_const(t.g, 2, bd, B, 512 * n);
    e[2].node = add_const(t.g, 1, cd, C, n);
    e[0].index = e[1].index = e[2].index = 0;
    ge_graph_add_node(t.g, "Gemm", "fc", 3, e, 1, &t.id, &t.err);
    ge_node_set_attr_int(t.g, t.id, "transB", 1, NULL);
    va = kh_value(GE_DTYPE_FLOAT32, 2, ad, NULL), vb = kh_value(GE_DTYPE_FLOAT32, 2, bd, B), vc = kh_value(GE_DTYPE_FLOAT32, 1, cd, C);
    for (i = 0; i < ad[0] * 512; i++) ((float *)va.data)[i] = rf();
    in[0] = &va, in[1] = &vb, in[2] = &vc;
    memset(&o1, 0, sizeof o1), memset(&o2, 0, sizeof o2), memset(&ref, 0, sizeof ref);
    if (GE_CHECK(ge_graph_infer_shapes(t.g, &t.err) == GE_OK) && GE_CHECK(run_aic(&t, in, 3, rt, 1, &o1, &p1, &tag1)) &&
        GE_CHECK(run_aic(&t, in, 3, rt, 2, &o2, &p2, &tag2)) &&
        GE_CHECK(kh_run(ge_host_cpu_kernel(ge_graph_node(t.g, t.id)), t.g, t.id, in, 3, &ref, 1, &t.err) == GE_OK) &&
        GE_CHECK(o1.numel == ad[0] * n && o2.numel == o1.numel && ref.numel == o1.numel)) {
      double er = rel_err((const float *)o2.data, (const float *)ref.data, o1.numel);
      GE_CHECK(er < TOL);
      GE_CHECK(!memcmp(o1.data, o2.data, (size_t)o1.numel * sizeof(float)));
      /* the 1 MB weight stream split over both threads; 600 KB not */
      if (!GE_CHECK_EQ_INT(p2.most, (int64_t)(n == 1000 ? 2 : 0)))
        printf("  fc %lldx512x%lld: 2-thread loop of %lld\n", (long long)ad[0], (long long)n, (long long)p2.most);
      printf("  fc %lld x 512 x %lld: rel err %.2g, 1 and 2 threads identical, %d loop(s) on 2 threads\n",
             (long long)ad[0], (long long)n, er, p2.loops);
    }
    kh_free(&o1), kh_free(&o2), kh_free(&ref), kh_free(&va), kh_free(&vb), kh_free(&vc);
    free(A), free(B), free(C);
    ge_graph_free(t.g);
  }
  ge_runtime_free(rt);
}

int main(int argc, char **argv) {
  ge_test_init(argc, argv);
  GE_RUN(test_guided_shares);
  GE_RUN(test_pool_hands_shares_one_by_one);
  GE_RUN(test_resnet18_layers_on_two_threads);
  GE_RUN(test_fc_gemm_on_two_threads);
  return ge_test_main_end();
}

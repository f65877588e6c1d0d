/* The AI Core engine's paths for DenseNet- and ResNeXt-like layers
 * (ge_engines/ai_core.h) against the host CPU reference kernel on seeded
 * random shapes, on 1 thread and on 2 through a real ge_runtime pool:
 *   - the direct conv with output channels in lanes (3x3 stride 1, 16..32
 *     output channels a group, >= 64 input channels: DenseNet's growth
 *     convs): pads on any side, groups, batch, rows past whole tiles and
 *     segments, bias, residual, every fused activation; at AVX-512 the path
 *     must be taken (its packing tag 56 + level) and every micro-kernel
 *     level below it must stay correct on the other paths; RGB-like stems
 *     (1..4 input channels, 5x5 and 7x7 kernels, strides 1 and 2) on it too;
 *   - 1x1 convs whose image is too large for L2 (ResNeXt's 256->256 on
 *     56x56 and wider): the pointwise path's units chunk-major, counted
 *     against the ones that stay panel-major.
 * Every case runs twice on one context (weights packed once, the second
 * time on a new input after the scratch is filled with NaN bytes), half of
 * them prepared at load first. */
#define GE_AI_CORE_IMPLEMENTATION /* its private ge__aic_* and test knobs; the rest from libge.a */
#define GE_AI_CORE_TEST_KNOBS     /* Conv on every micro-kernel level */
#define GE__AIC_SHARE_FLOPS 0     /* threaded convs in 4 shares a thread even when small */
#include "ge_exec.h"
#include "ge_engines/ai_core.h"
#include "tests/test.h"
#include "tests/kernel_harness.h"
#include "tests/rng.h"
#include "tests/conv_harness.h"

#include <math.h>
#include <stdlib.h>

#define TOL 1e-4

static ge_runtime *RT; /* the 2-thread pool threaded contexts run on */

/* RT for one test (pool_start, then pool_stop at its end); 0 on failure. */
static int pool_start(void) {
  ge_runtime_desc rd;
  ge_error err;
  memset(&rd, 0, sizeof rd);
  rd.num_threads = 2;
  return ge_runtime_create(&rd, &RT, &err) == GE_OK;
}
static void pool_stop(void) {
  ge_runtime_free(RT);
  RT = NULL;
}

typedef struct conv_case {
  int64_t n, c, h, w, m, group, k, s, pads[4]; /* s: stride (0 as 1) */
  int64_t kh, kw;                              /* a k x k kernel when 0 */
  int bias, residual;
  const char *act;
  double alpha, beta;
} conv_case;

static const char *const act_names[] = {NULL, "Relu", "HardSwish", "Clip", "LeakyRelu", "Sigmoid", "HardSigmoid",
                                        "Tanh"};

static double act_ref(const char *k, double a, double b, double x) {
  if (!k) return x;
  if (!strcmp(k, "Relu")) return x > 0 ? x : 0;
  if (!strcmp(k, "LeakyRelu")) return x < 0 ? a * x : x;
  if (!strcmp(k, "Clip")) return x < a ? a : x > b ? b : x;
  if (!strcmp(k, "HardSwish")) return x * fmax(0.0, fmin(1.0, x / 6.0 + 0.5));
  if (!strcmp(k, "Sigmoid")) return 1.0 / (1.0 + exp(-x));
  if (!strcmp(k, "HardSigmoid")) return fmax(0.0, fmin(1.0, a * x + b));
  if (!strcmp(k, "Tanh")) return tanh(x);
  return x;
}

typedef struct ctx_env {
  ge_kernel_env env;
  ge_kernel_ctx c;
  ge_value *outs[1];
} ctx_env;

/* A kernel context on 1 thread, or on 2 of the runtime pool RT. */
static void ctx_init(ctx_env *e, int threads, kt *t, ge_value **in, uint32_t n_in, ge_value *out) {
  memset(e, 0, sizeof *e);
  e->env.alloc_output = kh_alloc_output;
  e->env.num_threads = threads;
  if (threads > 1) e->env.parallel_for = rt_parallel_for, e->env.executor = RT;
  e->outs[0] = out;
  e->c.inputs = in;
  e->c.outputs = e->outs;
  e->c.num_inputs = n_in;
  e->c.num_outputs = 1;
  e->c.env = &e->env;
  e->c.node = ge_graph_node(t->g, t->id);
  e->c.graph = t->g;
  e->c.err = &t->err;
}

/* Fills the kernel's scratch past its packed weights with NaN bytes. */
static void poison_scratch(ge_kernel_ctx *c) {
  ge__aic_state *s = (ge__aic_state *)c->state;
  size_t packed = s ? ge__aic_pack_bytes(s) : 0;
  if (s && packed < s->cap) memset((char *)ge__aic_area_of(s) + packed, 0xff, s->cap - packed);
}

static int64_t out_dim(int64_t in, int64_t k, int64_t s, int64_t pb, int64_t pe) {
  return in + pb + pe < k ? 0 : (in + pb + pe - k) / (s > 0 ? s : 1) + 1;
}

static int last_packed_level; /* which path packed the weights in the last run_conv_case */

static int64_t kh_of(const conv_case *c) { return c->kh ? c->kh : c->k; }
static int64_t kw_of(const conv_case *c) { return c->kw ? c->kw : c->k; }

/* One conv case (kh x kw, stride s) on `threads` threads: the AI Core kernel
 * twice on one context against the reference + residual + activation;
 * returns the worse relative error (-1: no output). */
static double run_conv_case(const conv_case *cs, int threads) {
  int64_t xd[4], wd[4], bd[1], yd[4], oh, ow, wn, xn, yn, one[2] = {1, 1}, st[2], pd[4];
  float *w, *b;
  ge_value vx, vres, out, ref, vw, vb;
  ge_value *in[4];
  ge_edge e[4];
  kt t;
  ctx_env ce;
  double worst = 0;
  int round;
  oh = out_dim(cs->h, kh_of(cs), cs->s, cs->pads[0], cs->pads[2]);
  ow = out_dim(cs->w, kw_of(cs), cs->s, cs->pads[1], cs->pads[3]);
  if (oh < 1 || ow < 1) return -1;
  xd[0] = cs->n, xd[1] = cs->c, xd[2] = cs->h, xd[3] = cs->w;
  wd[0] = cs->m, wd[1] = cs->c / cs->group, wd[2] = kh_of(cs), wd[3] = kw_of(cs);
  yd[0] = cs->n, yd[1] = cs->m, yd[2] = oh, yd[3] = ow;
  bd[0] = cs->m;
  wn = wd[0] * wd[1] * wd[2] * wd[3], xn = cs->n * cs->c * cs->h * cs->w, yn = cs->n * cs->m * oh * ow;
  w = rand_floats(wn), b = rand_floats(cs->m);
  memset(&t, 0, sizeof t);
  ge_graph_create(NULL, &t.g, &t.err);
  ge_graph_add_data(t.g, NULL, GE_DTYPE_FLOAT32, 4, xd, &e[0].node, NULL);
  e[1].node = add_const(t.g, 4, wd, w, wn);
  e[2].node = cs->bias ? add_const(t.g, 1, bd, b, cs->m) : GE_NONE;
  e[3].node = GE_NONE;
  if (cs->residual) ge_graph_add_data(t.g, NULL, GE_DTYPE_FLOAT32, 4, yd, &e[3].node, NULL);
  e[0].index = e[1].index = e[2].index = e[3].index = 0;
  ge_graph_add_node(t.g, "Conv", "conv", cs->residual ? 4 : 3, e, 1, &t.id, &t.err);
  pd[0] = cs->pads[0], pd[1] = cs->pads[1], pd[2] = cs->pads[2], pd[3] = cs->pads[3];
  st[0] = st[1] = cs->s > 0 ? cs->s : 1;
  ge_node_set_attr_ints(t.g, t.id, "strides", st, 2, NULL);
  ge_node_set_attr_ints(t.g, t.id, "dilations", one, 2, NULL);
  ge_node_set_attr_ints(t.g, t.id, "pads", pd, 4, NULL);
  ge_node_set_attr_int(t.g, t.id, "group", cs->group, NULL);
  if (cs->act) ge_node_set_attr_string(t.g, t.id, "_fused_activation", cs->act, NULL);
  if (cs->act && (!strcmp(cs->act, "Clip") || !strcmp(cs->act, "LeakyRelu") || !strcmp(cs->act, "HardSigmoid"))) {
    ge_node_set_attr_float(t.g, t.id, "_fused_alpha", cs->alpha, NULL);
    ge_node_set_attr_float(t.g, t.id, "_fused_beta", cs->beta, NULL);
  }
  if (cs->residual) ge_node_set_attr_int(t.g, t.id, GE_ATTR_FUSED_INPUTS, 1, NULL);
  vw = kh_value(GE_DTYPE_FLOAT32, 4, wd, w), vb = kh_value(GE_DTYPE_FLOAT32, 1, bd, b);
  memset(&out, 0, sizeof out);
  ctx_init(&ce, threads, &t, in, cs->residual ? 4 : 3, &out);
  if (cs->m & 1) { /* prepared at load first: the weights packed then, nothing computed */
    const ge_engine *eng = ge_ai_core_engine();
    ge_value px, pres;
    memset(&px, 0, sizeof px), memset(&pres, 0, sizeof pres);
    ge_value_set_shape(&px, GE_DTYPE_FLOAT32, 4, xd), ge_value_set_shape(&pres, GE_DTYPE_FLOAT32, 4, yd);
    in[0] = &px, in[1] = &vw, in[2] = cs->bias ? &vb : NULL, in[3] = cs->residual ? &pres : NULL;
    ce.c.flags = GE_KERNEL_FIXED_SHAPES;
    GE_CHECK(kh_prepare(eng->prepare(eng, ge_graph_node(t.g, t.id)), &ce.c) == GE_OK);
    ce.c.flags = 0;
    GE_CHECK(ce.c.state && ((ge__aic_state *)ce.c.state)->packed_level > 0);
  }
  for (round = 0; round < 2; round++) {
    float *xr = rand_floats(xn), *res = rand_floats(yn);
    int64_t i;
    if (round) poison_scratch(&ce.c);
    vx = kh_value(GE_DTYPE_FLOAT32, 4, xd, xr);
    vres = kh_value(GE_DTYPE_FLOAT32, 4, yd, res);
    in[0] = &vx, in[1] = &vw, in[2] = cs->bias ? &vb : NULL, in[3] = cs->residual ? &vres : NULL;
    memset(&ref, 0, sizeof ref);
    if (!GE_CHECK(kh_run(ge_host_cpu_kernel(ge_graph_node(t.g, t.id)), t.g, t.id, in, 3, &ref, 1, &t.err) == GE_OK) ||
        !GE_CHECK(ge_ai_core_engine()->kernel(ge_ai_core_engine(), ge_graph_node(t.g, t.id))(&ce.c) == GE_OK) ||
        !GE_CHECK(out.numel == yn && ref.numel == yn)) {
      printf("  conv error: %s\n", t.err.message);
      worst = 1e9;
    } else {
      double er, sums = 0, outs = 0;
      int tag = ((ge__aic_state *)ce.c.state)->packed_level - 1;
      for (i = 0; i < yn; i++) {
        double v = (double)((float *)ref.data)[i] + (cs->residual ? res[i] : 0.0f);
        ((float *)ref.data)[i] = (float)act_ref(cs->act, cs->alpha, cs->beta, v);
        sums = fmax(sums, fabs(v)), outs = fmax(outs, fabs(((float *)ref.data)[i]));
      }
      er = rel_err((const float *)out.data, (const float *)ref.data, yn);
      /* Winograd (F(2x2) packing tag 24, F(4x4) 72, + level; on the other
         levels' growth convs): its rounding scales with the sums, not with
         an output an activation clipped */
      if ((tag / 8 == 3 || tag / 8 == 9) && sums > outs) er *= (outs + 1e-6) / (sums + 1e-6);
      if (er > worst) worst = er;
    }
    kh_free(&ref), kh_free(&vx), kh_free(&vres);
    free(xr), free(res);
  }
  last_packed_level = ce.c.state ? ((ge__aic_state *)ce.c.state)->packed_level : -1;
  ge_kernel_free_state(&ce.c);
  kh_free(&out), kh_free(&vw), kh_free(&vb);
  free(w), free(b);
  kt_free(&t);
  return worst;
}

static conv_case with_epilogue(conv_case c) {
  c.bias = (int)tu_below(&R, 2);
  c.residual = (int)tu_below(&R, 2);
  c.act = act_names[tu_below(&R, 8)];
  c.alpha = c.act && !strcmp(c.act, "Clip") ? -0.3 : 0.1;
  c.beta = 0.4;
  return c;
}

/* A DenseNet growth conv: 3x3, 64..160 input and 16..32 output channels a
 * group, maps 12..60 wide (a few narrower, which must not take the path),
 * pads 0 or 1 per side, sometimes 2 groups or 2 images. */
static conv_case rand_growth(void) {
  conv_case c;
  int64_t cg = rint_in(64, 160), mg = tu_below(&R, 3) ? 32 : rint_in(16, 32), i;
  memset(&c, 0, sizeof c);
  c.n = tu_below(&R, 6) == 0 ? 2 : 1;
  c.group = tu_below(&R, 5) == 0 ? 2 : 1;
  c.c = cg * c.group, c.m = mg * c.group, c.k = 3;
  c.h = rint_in(3, 40);
  c.w = tu_below(&R, 8) == 0 ? rint_in(4, 11) : rint_in(12, 110);
  for (i = 0; i < 4; i++) c.pads[i] = tu_below(&R, 5) ? 1 : 0;
  return with_epilogue(c);
}

/* An RGB-like stem: 1..4 input channels a group, 32..80 output channels,
 * a 5x5 or 7x7 kernel (sometimes 3x3, which must not take the path),
 * stride 1 or 2, pads 0..3 per side, maps 16..60 high, 16..90 wide (twice
 * that at stride 2). */
static conv_case rand_stem(void) {
  conv_case c;
  int64_t cg = rint_in(1, 4), mg = tu_below(&R, 2) ? 64 : rint_in(32, 80), i;
  static const int64_t ks[] = {3, 5, 7, 7};
  memset(&c, 0, sizeof c);
  c.n = tu_below(&R, 6) == 0 ? 2 : 1;
  c.group = tu_below(&R, 6) == 0 ? 2 : 1;
  c.c = cg * c.group, c.m = mg * c.group, c.k = ks[tu_below(&R, 4)], c.s = rint_in(1, 2);
  c.h = rint_in(16, 60), c.w = rint_in(16, 90) * c.s;
  for (i = 0; i < 4; i++) c.pads[i] = rint_in(0, 3);
  return with_epilogue(c);
}

/* Whether the lanes path is expected for c at AVX-512. */
static int lanes_expected(const conv_case *c) {
  ge__aic_cv p;
  memset(&p, 0, sizeof p);
  p.n = c->n, p.c = c->c, p.h = c->h, p.w = c->w, p.m = c->m, p.group = c->group, p.cg = c->c / c->group;
  p.mg = c->m / c->group, p.kh = p.kw = c->k, p.dh = p.dw = 1, p.ph = c->pads[0], p.pw = c->pads[1];
  p.sh = p.sw = c->s > 0 ? c->s : 1;
  p.oh = out_dim(c->h, c->k, c->s, c->pads[0], c->pads[2]), p.ow = out_dim(c->w, c->k, c->s, c->pads[1], c->pads[3]);
  return ge__aic_cl_fits(ge__aic_kern_pick(2), &p);
}

GE_TEST(test_growth_convs_in_lanes) {
  int i, done = 0, lanes = 0, other = 0, avx512 = __builtin_cpu_supports("avx512f");
  double worst = 0;
  if (!GE_CHECK(pool_start())) return;
  tu_seed(&R, 12101);
  for (i = 0; done < 90; i++) {
    conv_case c = rand_growth();
    int level = i % 3 == 2 ? 1 : 2, threads = 1 + (i / 3) % 2, want = avx512 && level == 2 && lanes_expected(&c);
    double er;
    ge__aic_conv_level_cap = level;
    er = run_conv_case(&c, threads);
    if (er < 0) continue;
    if (!GE_CHECK(er < TOL) || !GE_CHECK(want == (last_packed_level == 56 + 2 + 1)))
      printf("  growth conv level %d threads %d: n %lld c %lld %lldx%lld m %lld g %lld pads %lld,%lld,%lld,%lld act %s "
             "res %d bias %d: %.2g (packed %d)\n",
             level, threads, (long long)c.n, (long long)c.c, (long long)c.h, (long long)c.w, (long long)c.m,
             (long long)c.group, (long long)c.pads[0], (long long)c.pads[1], (long long)c.pads[2],
             (long long)c.pads[3], c.act ? c.act : "-", c.residual, c.bias, er, last_packed_level);
    if (er > worst) worst = er;
    lanes += want, other += !want;
    done++;
  }
  ge__aic_conv_level_cap = 2;
  pool_stop();
  GE_CHECK(!avx512 || (lanes > 40 && other > 20));
  printf("  growth convs: %d cases (1 and 2 threads), %d in lanes, %d on other paths, worst rel err %.2g\n", done, lanes,
         other, worst);
}

/* Stems through the lanes conv at stride 1 and 2 (its second tile set),
 * and the ones that must stay elsewhere (3x3, partial blocks), 1 and 2
 * threads, AVX-512 and AVX2. */
GE_TEST(test_stems_in_lanes) {
  int i, done = 0, lanes = 0, strided = 0, other = 0, avx512 = __builtin_cpu_supports("avx512f");
  double worst = 0;
  if (!GE_CHECK(pool_start())) return;
  tu_seed(&R, 12103);
  for (i = 0; done < 90; i++) {
    conv_case c = rand_stem();
    int level = i % 3 == 2 ? 1 : 2, threads = 1 + (i / 3) % 2, want = avx512 && level == 2 && lanes_expected(&c);
    double er;
    ge__aic_conv_level_cap = level;
    er = run_conv_case(&c, threads);
    if (er < 0) continue;
    if (!GE_CHECK(er < TOL) || !GE_CHECK(want == (last_packed_level == 56 + 2 + 1)))
      printf("  stem level %d threads %d: n %lld c %lld %lldx%lld m %lld g %lld k %lld s %lld pads %lld,%lld,%lld,%lld "
             "act %s res %d bias %d: %.2g (packed %d)\n",
             level, threads, (long long)c.n, (long long)c.c, (long long)c.h, (long long)c.w, (long long)c.m,
             (long long)c.group, (long long)c.k, (long long)c.s, (long long)c.pads[0], (long long)c.pads[1],
             (long long)c.pads[2], (long long)c.pads[3], c.act ? c.act : "-", c.residual, c.bias, er,
             last_packed_level);
    if (er > worst) worst = er;
    lanes += want, strided += want && c.s == 2, other += !want;
    done++;
  }
  ge__aic_conv_level_cap = 2;
  pool_stop();
  GE_CHECK(!avx512 || (lanes > 20 && strided > 10 && other > 10));
  printf("  stems: %d cases (1 and 2 threads), %d in lanes (%d at stride 2), %d on other paths, worst rel err %.2g\n",
         done, lanes, strided, other, worst);
}

/* 1x1 convs on images past L2 (chunk-major) and within it, widening and
 * narrowing, at every level on 1 and 2 threads. */
GE_TEST(test_pointwise_large_images) {
  int i, done = 0, cmajor = 0, pmajor = 0;
  double worst = 0;
  if (!GE_CHECK(pool_start())) return;
  tu_seed(&R, 12102);
  for (i = 0; done < 24; i++) {
    conv_case c;
    ge__aic_cv p;
    int level = 2 - i % 3, threads = 1 + (i / 3) % 2;
    double er;
    memset(&c, 0, sizeof c);
    c.n = 1, c.group = 1, c.k = 1;
    c.c = rint_in(40, 100);
    c.m = c.c + rint_in(0, 40); /* widening or even: panel-major unless the image is large */
    c.h = rint_in(20, 64), c.w = rint_in(20, 70);
    if (i % 2) c.c = rint_in(72, 110), c.h = rint_in(50, 80), c.w = rint_in(50, 80); /* past 1 MB */
    c = with_epilogue(c);
    memset(&p, 0, sizeof p);
    p.cg = c.c, p.mg = c.m, p.oh = c.h, p.ow = c.w;
    ge__aic_conv_level_cap = level;
    er = run_conv_case(&c, threads);
    if (er < 0) continue;
    if (!GE_CHECK(er < TOL) || !GE_CHECK(last_packed_level >= 9 && last_packed_level <= 11))
      printf("  pointwise level %d threads %d: c %lld %lldx%lld m %lld act %s res %d: %.2g (packed %d)\n", level,
             threads, (long long)c.c, (long long)c.h, (long long)c.w, (long long)c.m, c.act ? c.act : "-",
             c.residual, er, last_packed_level);
    if (er > worst) worst = er;
    if (ge__aic_pw_chunk_major(&p)) cmajor++;
    else pmajor++;
    done++;
  }
  ge__aic_conv_level_cap = 2;
  pool_stop();
  GE_CHECK(cmajor > 5 && pmajor > 5);
  printf("  pointwise, large images: %d cases (%d chunk-major, %d panel-major), worst rel err %.2g\n", done, cmajor,
         pmajor, worst);
}

/* Inception-like layers on the paths chosen for them at AVX-512: 1xN and
 * Nx1 convs (N = 3, 5, 7; "same" pads along the long axis) and 5x5 convs
 * whose K = input channels x taps is past the small-image direct conv's
 * first limit (1152) but within its last-resort one (2048), which it takes
 * before the implicit GEMM (packing tag 16 + level) unless the pixel rows
 * below pay, and valid 3x3 stride-2
 * convs on small odd maps, whose 9-column phase rows make the implicit
 * GEMM's tiles a third junk, by the transposed direct conv (pixels as rows,
 * tag 40 + level); K within the limits too, at both micro-kernel levels,
 * on 1 and 2 threads, against the reference. */
static conv_case rand_inception(int kind) {
  conv_case c;
  int64_t n = 3 + 2 * (int64_t)tu_below(&R, 3), i;
  memset(&c, 0, sizeof c);
  c.n = tu_below(&R, 8) == 0 ? 2 : 1;
  c.group = 1;
  c.m = tu_below(&R, 2) ? rint_in(16, 80) : rint_in(81, 200);
  if (kind == 0) { /* 1xN or Nx1, same size */
    int wide = (int)tu_below(&R, 2);
    c.kh = wide ? 1 : n, c.kw = wide ? n : 1;
    c.c = tu_below(&R, 3) ? rint_in(1153, 2048) / n : rint_in(16, 1152 / n);
    c.h = rint_in(5, 17), c.w = rint_in(5, 17);
    c.pads[0] = c.pads[2] = (c.kh - 1) / 2, c.pads[1] = c.pads[3] = (c.kw - 1) / 2;
  } else if (kind == 1) { /* 5x5, pads 2 */
    c.k = 5;
    c.c = tu_below(&R, 3) ? rint_in(47, 81) : rint_in(8, 46);
    c.h = rint_in(6, 24), c.w = rint_in(6, 24);
    for (i = 0; i < 4; i++) c.pads[i] = 2;
  } else { /* 3x3 stride 2 valid on odd maps */
    c.k = 3, c.s = 2;
    c.c = rint_in(16, 220);
    c.h = 2 * rint_in(3, 9) + 1, c.w = 2 * rint_in(3, 9) + 1;
    c.m = rint_in(32, 200);
  }
  return with_epilogue(c);
}

GE_TEST(test_inception_layers) {
  int i, done = 0, small = 0, rows = 0, avx512 = __builtin_cpu_supports("avx512f");
  double worst = 0;
  if (!GE_CHECK(pool_start())) return;
  tu_seed(&R, 12107);
  for (i = 0; done < 120; i++) {
    int kind = i % 3;
    conv_case c = rand_inception(kind);
    int level = i % 4 == 3 ? 1 : 2, threads = 1 + (i / 4) % 2;
    int64_t K = (c.c / c.group) * kh_of(&c) * kw_of(&c);
    double er;
    ge__aic_conv_level_cap = level;
    er = run_conv_case(&c, threads);
    if (er < 0) continue;
    if (!GE_CHECK(er < TOL) ||
        !GE_CHECK(!(avx512 && level == 2 && kind < 2 && K > 1152) || last_packed_level == 16 + 2 + 1 ||
                  last_packed_level == 40 + 2 + 1)) /* the pixel rows where they pay, else the small-image conv */
      printf("  inception layer level %d threads %d: n %lld c %lld %lldx%lld m %lld k %lldx%lld s %lld pads "
             "%lld,%lld act %s res %d bias %d: %.2g (packed %d)\n",
             level, threads, (long long)c.n, (long long)c.c, (long long)c.h, (long long)c.w, (long long)c.m,
             (long long)kh_of(&c), (long long)kw_of(&c), (long long)c.s, (long long)c.pads[0], (long long)c.pads[1],
             c.act ? c.act : "-", c.residual, c.bias, er, last_packed_level);
    if (er > worst) worst = er;
    small += last_packed_level == 16 + level + 1 && K > 1152;
    rows += last_packed_level == 40 + level + 1 && kind == 2;
    done++;
  }
  ge__aic_conv_level_cap = 2;
  pool_stop();
  GE_CHECK(!avx512 || (small > 15 && rows > 15));
  printf("  inception layers: %d cases (1 and 2 threads), %d with K > 1152 by the small-image conv, %d strided by "
         "pixel rows, worst rel err %.2g\n",
         done, small, rows, worst);
}

/* RegNet- and ResNeXt-like grouped strided convs: 3x3 stride 2 (or 3),
 * "same" pads, 2..32 groups of 4..16 channels, 1 or 2 images, 1 and 2
 * threads, against the reference. At AVX-512 they take the small-image
 * direct conv on phase planes (tag 16 + level): with at least two (image,
 * group) pairs a thread, each share makes its own groups' planes; with
 * fewer, the planes are made first, split over the threads. */
static conv_case rand_grouped_strided(void) {
  conv_case c;
  int i;
  memset(&c, 0, sizeof c);
  c.n = tu_below(&R, 4) == 0 ? 2 : 1;
  c.group = tu_below(&R, 3) == 0 ? rint_in(2, 3) : rint_in(4, 32);
  c.c = c.group * rint_in(4, 16), c.m = c.group * rint_in(4, 16);
  c.k = 3, c.s = tu_below(&R, 4) == 0 ? 3 : 2;
  c.h = rint_in(8, 40), c.w = rint_in(8, 40);
  for (i = 0; i < 4; i++) c.pads[i] = 1;
  return with_epilogue(c);
}

GE_TEST(test_grouped_strided_convs) {
  int i, done = 0, own = 0, split = 0, avx512 = __builtin_cpu_supports("avx512f");
  double worst = 0;
  if (!GE_CHECK(pool_start())) return;
  tu_seed(&R, 7219);
  for (i = 0; done < 80; i++) {
    conv_case c = rand_grouped_strided();
    int threads = 1 + i % 2;
    double er = run_conv_case(&c, threads);
    if (er < 0) continue;
    if (!GE_CHECK(er < TOL) || !GE_CHECK(!avx512 || last_packed_level == 16 + 2 + 1))
      printf("  grouped strided conv threads %d: n %lld c %lld %lldx%lld m %lld group %lld s %lld act %s res %d bias "
             "%d: %.2g (packed %d)\n",
             threads, (long long)c.n, (long long)c.c, (long long)c.h, (long long)c.w, (long long)c.m,
             (long long)c.group, (long long)c.s, c.act ? c.act : "-", c.residual, c.bias, er, last_packed_level);
    if (er > worst) worst = er;
    own += c.n * c.group >= 2 * threads, split += c.n * c.group < 2 * threads;
    done++;
  }
  pool_stop();
  GE_CHECK(own > 20 && split > 5);
  printf("  grouped strided convs: %d cases (1 and 2 threads), %d with each share's own phase planes, %d with the "
         "planes split first, worst rel err %.2g\n",
         done, own, split, worst);
}

int main(int argc, char **argv) {
  ge_test_init(argc, argv);
  GE_RUN(test_growth_convs_in_lanes);
  GE_RUN(test_stems_in_lanes);
  GE_RUN(test_pointwise_large_images);
  GE_RUN(test_inception_layers);
  GE_RUN(test_grouped_strided_convs);
  return ge_test_main_end();
}


/* 3-D Conv on AI Core (ge_engines/ai_core.h, "3-D Conv") against the host
 * CPU reference kernel (+ residual + activation in double) on seeded random
 * shapes, on 1 thread and on a real 2-thread ge_runtime pool, every
 * micro-kernel level this CPU runs; weights Const, half the cases prepared
 * at load (ge_kernel_preparing: weights packed there, nothing allocated per
 * run), every case run twice, the second time on a new input after the
 * kernel's scratch was filled with NaN bytes:
 *   - Winograd over H and W (3x3 stride-1 undilated in H, W; any depth
 *     kernel, stride, dilation and pads; enough channels and tiles), with
 *     odd planes, depth taps in the padding, groups, batches; both
 *     layouts: blocks that cross output planes, and input planes
 *     transformed once per block of tile rows (a ring of kz planes, the
 *     depth taps as accumulating products); its error measured against the
 *     pre-activation sums (its rounding scales with them);
 *   - the GEMM with vol2col panels packed from the volume: strides 1 and 2,
 *     dilations, pads, groups, bias, 1x1x1 strided (downsample) and in
 *     place, K past one KC slice and columns past one NC block;
 * and checks which path packed the weights (the packing's tag); and the
 * optimiser's Conv3d -> Add -> Relu fusion, run through ge_exec.h. */
#define GE_AI_CORE_IMPLEMENTATION /* its private ge__aic_* and test knobs; the rest from libge.a */
#define GE_AI_CORE_TEST_KNOBS     /* Conv on every micro-kernel level */
#define GE__AIC_SHARE_FLOPS 0     /* threaded products in 4 shares a thread even when small */
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

static int64_t out_dim(int64_t in, int64_t k, int64_t s, int64_t d, int64_t pb, int64_t pe) {
  int64_t eff = (k - 1) * d + 1;
  return in + pb + pe - eff < 0 ? 0 : (in + pb + pe - eff) / s + 1;
}

/* The fused activations, in double, as ONNX defines them. */
static double act_ref(const char *k, double a, double b, double x) {
  if (!k) return x;
  if (!strcmp(k, "Relu")) return x > 0 ? x : 0;
  if (!strcmp(k, "LeakyRelu")) return x < 0 ? a * x : x;
  if (!strcmp(k, "Clip")) return x < a ? a : x > b ? b : x;
  if (!strcmp(k, "HardSwish")) return x * fmax(0.0, fmin(1.0, x / 6.0 + 0.5));
  if (!strcmp(k, "Sigmoid")) return 1.0 / (1.0 + exp(-x));
  if (!strcmp(k, "Tanh")) return tanh(x);
  return x;
}
static const char *const act_names[] = {NULL, "Relu", "LeakyRelu", "Clip", "HardSwish", "Sigmoid", "Tanh", "Relu"};

typedef struct vcase {
  int64_t n, c, m, group, x[3], k[3], s[3], d[3], pb[3], pe[3];
  int bias, residual;
  const char *act;
} vcase;

/* Winograd kind: H, W 3x3 stride 1 undilated with enough channels and
 * at least 32 2x2 tiles over the output planes (under 32 a plane: the
 * flattened blocks); the depth anything. */
static vcase rand_wino(void) {
  vcase v;
  int i;
  int64_t oz, oh, ow;
again:
  memset(&v, 0, sizeof v);
  v.n = rint_in(1, 2), v.group = tu_below(&R, 4) == 0 ? 2 : 1;
  v.c = rint_in(16, 40), v.m = rint_in(48 - v.c > 16 ? 48 - v.c : 16, 40) * v.group, v.c *= v.group;
  v.k[0] = rint_in(1, 3), v.s[0] = rint_in(1, 2), v.d[0] = rint_in(1, 2), v.x[0] = rint_in(1, 6) + (v.k[0] - 1) * v.d[0];
  v.pb[0] = rint_in(0, 2), v.pe[0] = rint_in(0, 2);
  for (i = 1; i < 3; i++) {
    v.k[i] = 3, v.s[i] = v.d[i] = 1, v.x[i] = rint_in(6, 23);
    v.pb[i] = rint_in(0, 1), v.pe[i] = rint_in(0, 1);
  }
  oz = out_dim(v.x[0], v.k[0], v.s[0], v.d[0], v.pb[0], v.pe[0]);
  oh = out_dim(v.x[1], 3, 1, 1, v.pb[1], v.pe[1]), ow = out_dim(v.x[2], 3, 1, 1, v.pb[2], v.pe[2]);
  if (oz < 1 || oh < 2 || ow < 4 || oz * ((oh + 1) / 2) * ((ow + 1) / 2) < 32) goto again; /* too few tiles */
  v.bias = (int)tu_below(&R, 2), v.residual = (int)tu_below(&R, 2), v.act = act_names[tu_below(&R, 8)];
  return v;
}

/* GEMM kind: any kernel 1..3 (1x1x1 strided or in place now and then),
 * strides and dilations 1..2, pads, groups; some K past a KC slice and
 * columns past an NC block. */
static vcase rand_gemm(void) {
  vcase v;
  int i, big = tu_below(&R, 3) == 0, one = tu_below(&R, 5) == 0;
  memset(&v, 0, sizeof v);
  v.n = rint_in(1, 2), v.group = tu_below(&R, 4) == 0 ? 2 : 1;
  v.c = (big ? rint_in(10, 24) : rint_in(1, 6)) * v.group, v.m = rint_in(1, 30) * v.group;
  for (i = 0; i < 3; i++) {
    v.k[i] = one ? 1 : rint_in(1, 3), v.s[i] = rint_in(1, 2), v.d[i] = rint_in(1, 2);
    v.pb[i] = one ? 0 : rint_in(0, 2), v.pe[i] = one ? 0 : rint_in(0, 2);
    v.x[i] = rint_in(1, big ? 14 : 9) + (v.k[i] - 1) * v.d[i];
  }
  if (one && tu_below(&R, 2)) v.s[0] = v.s[1] = v.s[2] = 1; /* read in place */
  v.bias = (int)tu_below(&R, 2), v.residual = (int)tu_below(&R, 2), v.act = act_names[tu_below(&R, 8)];
  return v;
}

/* Fills the kernel's scratch (past its packed weights) with NaN bytes. */
static void poison_scratch(ge_kernel_ctx *c) {
  ge__aic_state *s = (ge__aic_state *)c->state;
  size_t packed = s ? ge__aic_pack_bytes(s) : 0;
  if (s && packed < s->cap) memset((char *)ge__aic_area_of(s) + packed, 0xff, s->cap - packed);
}

/* Runs case v on `threads` threads (prepared at load when `prep`); returns
 * the worse relative error of its two runs (-1: no such conv), the
 * packing's tag in *tag. With sum_scale the error is relative to the
 * largest pre-activation sum when that is larger than the output. */
static double run_case(const vcase *v, int threads, int prep, int sum_scale, int *tag) {
  int64_t xd[5], wd[5], yd[5], bd[1], pd[6], xn = 1, wn = 1, yn = 1;
  int d, round;
  double worst = 0;
  float *w, *b;
  ge_value vw, vb, out, *in[4];
  ge_kernel_env env;
  ge_kernel_ctx c;
  ge_value *outs[1];
  ge_edge e[4];
  kt t;
  const char *act = v->act;
  float alpha = act && !strcmp(act, "Clip") ? -0.3f : 0.1f, beta = 0.4f;
  xd[0] = yd[0] = v->n, xd[1] = v->c, wd[0] = yd[1] = bd[0] = v->m, wd[1] = v->c / v->group;
  for (d = 0; d < 3; d++) {
    xd[2 + d] = v->x[d], wd[2 + d] = v->k[d], pd[d] = v->pb[d], pd[3 + d] = v->pe[d];
    yd[2 + d] = out_dim(v->x[d], v->k[d], v->s[d], v->d[d], v->pb[d], v->pe[d]);
    if (yd[2 + d] < 1) return -1;
  }
  for (d = 0; d < 5; d++) xn *= xd[d], wn *= wd[d], yn *= yd[d];
  w = rand_floats(wn), b = rand_floats(v->m);
  memset(&t, 0, sizeof t);
  ge_graph_create(NULL, &t.g, &t.err);
  ge_graph_add_data(t.g, NULL, GE_DTYPE_FLOAT32, 5, xd, &e[0].node, NULL);
  e[1].node = add_const(t.g, 5, wd, w, wn);
  e[2].node = v->bias ? add_const(t.g, 1, bd, b, v->m) : GE_NONE;
  e[3].node = GE_NONE;
  if (v->residual) ge_graph_add_data(t.g, NULL, GE_DTYPE_FLOAT32, 5, yd, &e[3].node, NULL);
  e[0].index = e[1].index = e[2].index = e[3].index = 0;
  ge_graph_add_node(t.g, "Conv", "conv3d", v->residual ? 4 : 3, e, 1, &t.id, &t.err);
  ge_node_set_attr_ints(t.g, t.id, "strides", v->s, 3, NULL);
  ge_node_set_attr_ints(t.g, t.id, "dilations", v->d, 3, NULL);
  ge_node_set_attr_ints(t.g, t.id, "pads", pd, 6, NULL);
  ge_node_set_attr_int(t.g, t.id, "group", v->group, NULL);
  if (act) ge_node_set_attr_string(t.g, t.id, "_fused_activation", act, NULL);
  if (act && (!strcmp(act, "Clip") || !strcmp(act, "LeakyRelu"))) {
    ge_node_set_attr_float(t.g, t.id, "_fused_alpha", alpha, NULL);
    ge_node_set_attr_float(t.g, t.id, "_fused_beta", beta, NULL);
  }
  if (v->residual) ge_node_set_attr_int(t.g, t.id, GE_ATTR_FUSED_INPUTS, 1, NULL);
  vw = kh_value(GE_DTYPE_FLOAT32, 5, wd, w), vb = kh_value(GE_DTYPE_FLOAT32, 1, bd, b);
  memset(&out, 0, sizeof out);
  memset(&env, 0, sizeof env);
  memset(&c, 0, sizeof c);
  env.alloc_output = kh_alloc_output;
  env.num_threads = threads;
  if (threads > 1) env.parallel_for = rt_parallel_for, env.executor = RT;
  outs[0] = &out;
  c.inputs = in, c.outputs = outs, c.num_inputs = v->residual ? 4 : 3, c.num_outputs = 1, c.env = &env;
  c.node = ge_graph_node(t.g, t.id), c.graph = t.g, c.err = &t.err;
  if (prep) { /* the executor's load: Const weights only, the other inputs without bytes */
    const ge_engine *eng = ge_ai_core_engine();
    ge_value px, pres;
    memset(&px, 0, sizeof px), memset(&pres, 0, sizeof pres);
    ge_value_set_shape(&px, GE_DTYPE_FLOAT32, 5, xd), ge_value_set_shape(&pres, GE_DTYPE_FLOAT32, 5, yd);
    in[0] = &px, in[1] = &vw, in[2] = v->bias ? &vb : NULL, in[3] = v->residual ? &pres : NULL;
    c.flags = GE_KERNEL_FIXED_SHAPES;
    GE_CHECK(kh_prepare(eng->prepare(eng, c.node), &c) == GE_OK);
    c.flags = 0;
    GE_CHECK(c.state && ((ge__aic_state *)c.state)->packed_level > 0); /* packed at load */
  }
  for (round = 0; round < 2; round++) {
    float *xr = rand_floats(xn), *res = rand_floats(yn);
    ge_value vx = kh_value(GE_DTYPE_FLOAT32, 5, xd, xr), vres = kh_value(GE_DTYPE_FLOAT32, 5, yd, res), ref;
    size_t cap = c.state ? ((ge__aic_state *)c.state)->cap : 0;
    int64_t i;
    if (round) poison_scratch(&c);
    in[0] = &vx, in[1] = &vw, in[2] = v->bias ? &vb : NULL, in[3] = v->residual ? &vres : NULL;
    memset(&ref, 0, sizeof ref);
    if (!GE_CHECK(kh_run(ge_host_cpu_kernel(c.node), t.g, t.id, in, 3, &ref, 1, &t.err) == GE_OK) ||
        !GE_CHECK(ge_ai_core_engine()->kernel(ge_ai_core_engine(), c.node)(&c) == GE_OK) ||
        !GE_CHECK(out.numel == yn && ref.numel == yn && out.rank == 5)) {
      printf("  conv3d error: %s\n", t.err.message);
      worst = 1e9;
    } else {
      double sums = 0, outs_max = 0, er;
      for (i = 0; i < yn; i++) {
        double s = ((float *)ref.data)[i] + (v->residual ? res[i] : 0.0f);
        if (fabs(s) > sums) sums = fabs(s);
        ((float *)ref.data)[i] = (float)act_ref(act, alpha, beta, s);
        if (fabs(((float *)ref.data)[i]) > outs_max) outs_max = fabs(((float *)ref.data)[i]);
      }
      for (d = 0; d < 5; d++) GE_CHECK_EQ_INT(out.dims[d], yd[d]);
      {
        double m = 0, e2 = 0;
        for (i = 0; i < yn; i++) {
          float a = ((float *)out.data)[i], r = ((float *)ref.data)[i];
          if (fabs(r) > m) m = fabs(r);
          if (a != a) e2 = 1e9;
          else if (fabs((double)a - r) > e2) e2 = fabs((double)a - r);
        }
        er = e2 / (m + 1e-6);
      }
      if (sum_scale && sums > outs_max) er *= (outs_max + 1e-6) / (sums + 1e-6);
      if (er > worst) worst = er;
    }
    /* prepared at load or run once: nothing grows on a later run */
    GE_CHECK(!(prep || round) || ((ge__aic_state *)c.state)->cap == cap);
    kh_free(&ref), kh_free(&vx), kh_free(&vres);
    free(xr), free(res);
  }
  *tag = c.state ? ((ge__aic_state *)c.state)->packed_level : -1;
  ge_kernel_free_state(&c);
  kh_free(&out), kh_free(&vw), kh_free(&vb);
  free(w), free(b);
  kt_free(&t);
  return worst;
}

static void print_case(const char *what, const vcase *v, int threads, int level, double er) {
  printf("  %s n %lld c %lld m %lld g %lld x %lldx%lldx%lld k %lldx%lldx%lld s %lld,%lld,%lld d %lld,%lld,%lld "
         "pads %lld,%lld,%lld/%lld,%lld,%lld bias %d res %d act %s, %d threads, level %d: rel err %.3g\n",
         what, (long long)v->n, (long long)v->c, (long long)v->m, (long long)v->group, (long long)v->x[0],
         (long long)v->x[1], (long long)v->x[2], (long long)v->k[0], (long long)v->k[1], (long long)v->k[2],
         (long long)v->s[0], (long long)v->s[1], (long long)v->s[2], (long long)v->d[0], (long long)v->d[1],
         (long long)v->d[2], (long long)v->pb[0], (long long)v->pb[1], (long long)v->pb[2], (long long)v->pe[0],
         (long long)v->pe[1], (long long)v->pe[2], v->bias, v->residual, v->act ? v->act : "none", threads, level, er);
}

/* Runs `cases` cases of one kind at every level, on 1 and 2 threads;
 * wino: the Winograd kind (its tag level + 56 + 1; the GEMM's level + 1). */
static void run_kind(int wino, int cases, unsigned seed) {
  int i, done = 0, on_path = 0, threaded = 0, rolled = 0;
  double worst = 0;
  tu_seed(&R, seed);
  for (i = 0; done < cases && i < 20 * cases; i++) {
    vcase v = wino ? rand_wino() : rand_gemm();
    int threads = 1 + i % 2, tag = 0, level;
    double er;
    ge__aic_conv_level_cap = (i / 2) % 3;
    level = ge__aic_kern_pick(ge__aic_conv_level_cap)->level;
    er = run_case(&v, threads, (i / 3) % 2, wino, &tag);
    if (er < 0) continue;
    if (!GE_CHECK(er < TOL)) print_case(wino ? "wino" : "gemm", &v, threads, level, er);
    if (er > worst) worst = er;
    on_path += tag == (wino ? 56 : 0) + level + 1 || (wino && tag == 64 + level + 1);
    rolled += wino && tag == 64 + level + 1;
    threaded += threads > 1;
    done++;
  }
  ge__aic_conv_level_cap = 2;
  GE_CHECK(done == cases && threaded >= cases / 3);
  /* Winograd's cases all fit it; a GEMM case fits it only by chance */
  if (!GE_CHECK(wino ? on_path == done : on_path >= done * 9 / 10))
    printf("  %d of %d cases took the expected path\n", on_path, done);
  /* both Winograd layouts: blocks over the flattened (plane, tile row)
     range, and planes transformed once a block (many tiles a plane) */
  GE_CHECK(!wino || (rolled >= done / 8 && done - rolled >= done / 8));
  printf("  %s: %d cases (%d on a 2-thread pool, %d with planes transformed once), %d on the path, worst rel err %.3g\n",
         wino ? "Winograd over H, W" : "GEMM on vol2col panels", done, threaded, rolled, on_path, worst);
}

GE_TEST(test_conv3d_winograd) { run_kind(1, 90, 3301); }
GE_TEST(test_conv3d_gemm) { run_kind(0, 120, 3302); }

/* r3d_18's kinds of layer at a reduced size, on 1 and 2 threads: a
 * Winograd layer (64 channels, 4 planes of 14x14), a strided 3x3x3, a
 * 1x1x1/2 downsample, a 3x7x7/2 stem, 96 channels on 2 planes of 9x9
 * (Winograd's tiles counted over both planes), and the last stage's 2
 * planes of 7x7 with 200 output channels (one block of tiles: on 2 threads
 * the output channels split over the shares). */
GE_TEST(test_conv3d_r3d_like) {
  static const int64_t g[][8] = {
      /* c, m, z, h, k (H, W), s, kz, pad */
      {64, 64, 4, 14, 3, 1, 3, 1}, {32, 64, 4, 14, 3, 2, 3, 1}, {32, 64, 4, 14, 1, 2, 1, 0},
      {3, 16, 4, 20, 7, 2, 3, 3},  {96, 96, 2, 9, 3, 1, 3, 1},  {64, 200, 2, 7, 3, 1, 3, 1},
  };
  int i;
  tu_seed(&R, 3303);
  for (i = 0; i < (int)(sizeof g / sizeof g[0]); i++) {
    vcase v;
    int d, tag = 0, threads;
    memset(&v, 0, sizeof v);
    v.n = 1, v.group = 1, v.c = g[i][0], v.m = g[i][1], v.bias = 1, v.residual = i % 2, v.act = "Relu";
    v.x[0] = g[i][2], v.k[0] = g[i][6], v.s[0] = g[i][5], v.d[0] = 1, v.pb[0] = v.pe[0] = g[i][7] > 1 ? 1 : g[i][7];
    for (d = 1; d < 3; d++) v.x[d] = g[i][3], v.k[d] = g[i][4], v.s[d] = g[i][5], v.d[d] = 1, v.pb[d] = v.pe[d] = g[i][7];
    for (threads = 1; threads <= 2; threads++) {
      double er = run_case(&v, threads, threads == 2, 1, &tag);
      if (!GE_CHECK(er >= 0 && er < TOL)) print_case("r3d", &v, threads, 2, er);
    }
  }
}

/* ------------------------------------------------- residual fusion */

static ge_kernel_fn lookup_host(const ge_node *n, void *user) {
  (void)user;
  return ge_host_cpu_kernel(n);
}
static ge_kernel_fn lookup_aic(const ge_node *n, void *user) {
  (void)user;
  return ge_ai_core_engine()->kernel(ge_ai_core_engine(), n);
}

/* x -> Conv3d(Const w, b) -> Add(conv, r) -> Relu -> out (r is x, or a
 * second input; kind 2: r broadcasts over the depth, not fused), as
 * r3d_18's blocks end: host kernels on the graph as it is against AI Core
 * kernels after its optimiser on `threads` threads (run twice). Returns the
 * relative error (-1 on failure); *fused: the Add and the Relu went into
 * the Conv. */
static double run_residual_graph(int kind, int threads, int *fused) {
  int64_t C = rint_in(16, 24), Z = rint_in(1, 4), H = rint_in(8, 14), W = rint_in(8, 14), k = 3;
  int64_t xd[5] = {1, C, Z, H, W}, wd[5] = {C, C, k, k, k}, rd[5] = {1, C, Z, H, W}, pads[6] = {1, 1, 1, 1, 1, 1};
  int64_t i, nw = C * C * k * k * k;
  ge_graph *g = NULL, *h = NULL;
  ge_node_id x, r = GE_NONE, conv, add, relu;
  ge_edge e[3], out;
  ge_error err;
  ge_program *p1 = NULL, *p2 = NULL;
  ge_exec_desc d1, d2;
  uint32_t id;
  float *w = rand_floats(nw), *b = rand_floats(C);
  ge_value vx, vr;
  const ge_value *ins[2];
  double er = -1;
  memset(&err, 0, sizeof err);
  if (kind == 2) rd[2] = 1, Z = xd[2] = Z < 2 ? 2 : Z;
  ge_graph_create(NULL, &g, &err);
  ge_graph_add_data(g, "x", GE_DTYPE_FLOAT32, 5, xd, &x, NULL);
  if (kind) ge_graph_add_data(g, "r", GE_DTYPE_FLOAT32, 5, rd, &r, NULL);
  memset(e, 0, sizeof e);
  e[0].node = x, e[1].node = add_const(g, 5, wd, w, nw), e[2].node = add_const(g, 1, wd, b, C);
  ge_graph_add_node(g, "Conv", "conv", 3, e, 1, &conv, NULL);
  ge_node_set_attr_ints(g, conv, "pads", pads, 6, NULL);
  e[0].node = tu_below(&R, 2) ? conv : (kind ? r : x), e[1].node = e[0].node == conv ? (kind ? r : x) : conv;
  ge_graph_add_node(g, "Add", "add", 2, e, 1, &add, NULL);
  e[0].node = add;
  ge_graph_add_node(g, "Relu", "relu", 1, e, 1, &relu, NULL);
  out.node = relu, out.index = 0;
  ge_graph_set_outputs(g, 1, &out, NULL, NULL);
  if (ge_graph_infer_shapes(g, &err) != GE_OK || ge_graph_clone(g, NULL, &h, &err) != GE_OK) goto done;
  for (id = 0; id < ge_graph_id_bound(h); id++)
    if (ge_graph_node(h, id)) ge_graph_node(h, id)->engine = 0;
  if (ge_ai_core_engine()->optimize_subgraph(ge_ai_core_engine(), h, 0, &err) != GE_OK) goto done;
  memset(&d1, 0, sizeof d1);
  d1.lookup = lookup_host;
  d2 = d1;
  d2.lookup = lookup_aic;
  d2.num_threads = threads;
  if (ge_program_create(g, &d1, &p1, &err) != GE_OK || ge_program_create(h, &d2, &p2, &err) != GE_OK) goto done;
  *fused = ge_graph_find(h, "add") == GE_NONE && ge_graph_find(h, "relu") == GE_NONE &&
           ge_node_attr_int(ge_graph_node(h, ge_graph_find(h, "conv")), GE_ATTR_FUSED_INPUTS, 0) == 1;
  vx = kh_value(GE_DTYPE_FLOAT32, 5, xd, NULL);
  vr = kh_value(GE_DTYPE_FLOAT32, 5, rd, NULL);
  for (i = 0; i < vx.numel; i++) ((float *)vx.data)[i] = rf();
  for (i = 0; i < vr.numel; i++) ((float *)vr.data)[i] = rf();
  ins[0] = &vx, ins[1] = &vr;
  if (ge_program_run(p1, ins, kind ? 2 : 1, &err) == GE_OK && ge_program_run(p2, ins, kind ? 2 : 1, &err) == GE_OK &&
      ge_program_run(p2, ins, kind ? 2 : 1, &err) == GE_OK) {
    const ge_value *y1 = ge_program_output(p1, 0), *y2 = ge_program_output(p2, 0);
    double m = 0, e2 = 0;
    if (y1->numel != y2->numel) e2 = 1e9;
    for (i = 0; i < y1->numel && e2 < 1e9; i++) {
      float a = ((const float *)y2->data)[i], ref = ((const float *)y1->data)[i];
      if (fabs(ref) > m) m = fabs(ref);
      e2 = a != a ? 1e9 : fabs((double)a - ref) > e2 ? fabs((double)a - ref) : e2;
    }
    er = e2 / (m + 1e-6);
  }
  kh_free(&vx);
  kh_free(&vr);
done:
  if (er < 0) printf("  residual graph: %s\n", err.message);
  ge_program_free(p1);
  ge_program_free(p2);
  ge_graph_free(g);
  ge_graph_free(h);
  free(w);
  free(b);
  return er;
}

/* The optimiser fuses a 3-D Conv's residual Add and the Relu after it
 * (not a broadcasting Add), and the fused graph computes what the plain
 * one does, on 1 and 2 threads. */
GE_TEST(test_conv3d_residual_fusion) {
  int i, fused_n = 0, plain_n = 0;
  tu_seed(&R, 3304);
  for (i = 0; i < 12; i++) {
    int kind = i % 3, fused = -1;
    double er = run_residual_graph(kind, 1 + i % 2, &fused);
    if (!GE_CHECK(er >= 0 && er < TOL)) printf("  residual graph kind %d: rel err %.3g\n", kind, er);
    if (kind == 2) plain_n += GE_CHECK(fused == 0);
    else fused_n += GE_CHECK(fused == 1);
  }
  printf("  residual fusion: %d fused, %d broadcasting Adds left alone\n", fused_n, plain_n);
}

int main(int argc, char **argv) {
  ge_runtime_desc rd;
  ge_error err;
  ge_test_init(argc, argv);
  memset(&rd, 0, sizeof rd);
  rd.num_threads = 2;
  if (ge_runtime_create(&rd, &RT, &err) != GE_OK) {
    printf("no runtime: %s\n", err.message);
    return 1;
  }
  GE_RUN(test_conv3d_winograd);
  GE_RUN(test_conv3d_gemm);
  GE_RUN(test_conv3d_r3d_like);
  GE_RUN(test_conv3d_residual_fusion);
  ge_runtime_free(RT);
  return ge_test_main_end();
}

/* The AI Core engine's fast paths (ge_engines/ai_core.h) against simple
 * references on seeded random shapes, with and without threads (a 2-thread
 * pool from tests/test_pool.h behind ge_kernel_env.parallel_for):
 *   - the blocked SGEMM with every micro-kernel this CPU runs (baseline,
 *     AVX2, AVX-512), plain, prepacked A or prepacked B, with the epilogue
 *     (row bias, residual, activation), against a double-precision loop;
 *     the skinny paths (a few rows, a few columns) on both sides of their
 *     limits;
 *   - Conv with Const weights (packed once, then reused with a new input
 *     after the kernel's scratch is filled with NaN bytes), bias, fused activation (HardSwish too) and fused residual, odd sizes,
 *     strides, dilations, pads, groups, depthwise, 1x1 and kernels > 255,
 *     a few output pixels (dot products), batch > 1, against the host CPU
 *     reference kernel;
 *   - the pointwise (1x1) Conv path at every level, 1 and 2 threads, rows
 *     past whole vectors, partial panels, groups, batch, epilogues;
 *   - atrous convs mostly in their padding (a GEMM per tap over the
 *     output it reads inside the image) at every level, 1 and 2 threads;
 *   - the depthwise kernel called at every vector level (scalar/baseline,
 *     AVX2, AVX-512) on 1 and 2 threads, rows long enough for several bands;
 *     on more threads at once than it has band buffers;
 *   - MobileNet-v2's depthwise and pointwise layers (conv kinds 20, 21)
 *     through Conv at every level, 1 and 2 threads (the channel-blocked
 *     depthwise kernel of small strided or narrow maps and the row-blocked
 *     3x3 stride-1 band kernel at AVX-512; the
 *     pointwise units panel-major when widening, chunk-major narrowing);
 *   - ConvTranspose (1-D and 2-D; groups, strides, dilations, pads,
 *     output_padding, output_shape, auto_pad; Const weights packed once or
 *     not Const) against the host CPU reference kernel;
 *   - MatMul and Gemm with a Const B packed once; batched MatMul of two
 *     run-time operands (broadcast batch dims) and its small-product kernel
 *     at every vector level;
 *   - the optimiser's Conv -> Add -> Relu fusion, run through ge_exec.h;
 *   - zero Pads folded into the AveragePool or Conv reading them (and the
 *     cases that must not fold), run through ge_exec.h;
 *   - a Relu after an inference BatchNormalization fused into it (ranks
 *     2..5; not when the BN is read twice), run through ge_exec.h;
 *   - a BatchNormalization (+ Relu) before a 1x1 Conv made the Conv's
 *     input prologue (every level, 1 and 2 threads, maps of single columns
 *     and partial vectors, groups, depthwise, 1-D; not for 3x3 or strided
 *     convs or a BN read twice), also run from the optimised graph's
 *     serialized copy, and malformed prologue attributes refused;
 *   - Gemm and Conv in If branches whose weights are Consts of the outer
 *     graph (read through parent_index Data): packed once, right results. */
#define GE_AI_CORE_IMPLEMENTATION /* its private ge__aic_* and test knobs; the rest from libge.a */
#define GE_AI_CORE_TEST_KNOBS /* Conv on every micro-kernel level */
#define GE__AIC_WT_MAX_THREADS 2 /* the tiles-as-rows Winograd on 2 threads too */
#define GE__AIC_SHARE_FLOPS 0    /* threaded products in 4 shares a thread even when small (their scratch claimed) */
#include "ge_exec.h"
#include "ge_engines/ai_core.h"
#include "tests/test.h"
#include "tests/kernel_harness.h"
#include "tests/rng.h"
#include "tests/conv_harness.h"
#include "tests/test_pool.h"

#include <math.h>
#include <stdlib.h>

#define TOL 1e-4

static ge_runtime *RT; /* non-NULL: threaded contexts run on this pool (shares claimed as threads come free) */

/* A kernel context whose env has `threads` threads (1: no pool). */
typedef struct ctx_env {
  ge_kernel_env env;
  ge_kernel_ctx c;
  ge_value *outs[1];
} ctx_env;

static void ctx_init(ctx_env *e, int threads, kt *t, ge_value **in, uint32_t n_in, ge_value *out) {
  memset(e, 0, sizeof *e);
  e->env.alloc_output = kh_alloc_output;
  e->env.num_threads = threads;
  if (threads > 1) e->env.parallel_for = RT ? rt_parallel_for : tp_parallel_for;
  e->env.executor = RT;
  e->outs[0] = out;
  e->c.inputs = in;
  e->c.outputs = e->outs;
  e->c.num_inputs = n_in;
  e->c.num_outputs = 1;
  e->c.env = &e->env;
  if (t) {
    e->c.node = ge_graph_node(t->g, t->id);
    e->c.graph = t->g;
    e->c.err = &t->err;
  }
}

/* The engine's prepare call at load on c (kh_prepare: inputs without
 * bytes but Const ones): AI Core prepares its kernels themselves. */
static ge_status aic_prepare(kt *t, ge_kernel_ctx *c) {
  const ge_engine *e = ge_ai_core_engine();
  const ge_node *n = ge_graph_node(t->g, t->id);
  ge_status st;
  if (!GE_CHECK(e->prepare(e, n) == e->kernel(e, n))) return GE_ERR_INTERNAL;
  c->flags = GE_KERNEL_FIXED_SHAPES;
  st = kh_prepare(e->prepare(e, n), c);
  c->flags = 0;
  return st;
}

/* The fused activations, in double, as ONNX defines them. */
static double act_ref(const char *k, double a, double b, double x) {
  if (!k) return x;
  if (!strcmp(k, "Relu")) return x > 0 ? x : 0;
  if (!strcmp(k, "LeakyRelu")) return x < 0 ? a * x : x;
  if (!strcmp(k, "Clip")) return x < a ? a : x > b ? b : x;
  if (!strcmp(k, "HardSwish")) return x * fmax(0.0, fmin(1.0, x / 6.0 + 0.5));
  if (!strcmp(k, "Sigmoid")) return 1.0 / (1.0 + exp(-x));
  if (!strcmp(k, "HardSigmoid")) return fmax(0.0, fmin(1.0, a * x + b));
  if (!strcmp(k, "Tanh")) return tanh(x);
  if (!strcmp(k, "Silu")) return x / (1.0 + exp(-x));
  return x;
}

/* ---------------------------------------------------------------- SGEMM */

/* One product through ge__aic_mm_run (mode 0 plain, 1 prepacked A, 2
 * prepacked B) against a double-precision loop; returns its rel err. Half
 * the products have alpha 1, so a row-major A is read in place (the
 * dmacro path); the epilogue's activation is Relu (in registers) or
 * Sigmoid (applied after the sums). */
static double sgemm_case(const ge__aic_kern *k, int64_t M, int64_t N, int64_t K, int ta, int tb, int mode, int threads,
                         int use_epi) {
  float alpha = mode == 1 || tu_below(&R, 2) ? 1.0f : 0.5f + rf(), beta = tu_below(&R, 2) ? 0.0f : rf();
  int late = (int)tu_below(&R, 2);
  float *A = rand_floats(M * K), *B = rand_floats(K * N), *C = rand_floats(M * N), *bias = rand_floats(M);
  float *res = rand_floats(M * N), *pack = NULL, *work;
  float *want = (float *)malloc((size_t)(M * N) * sizeof(float));
  ge__aic_mm mm;
  ge__aic_epi epi;
  ctx_env e;
  int64_t r, cc, p;
  double er;
  for (r = 0; r < M; r++)
    for (cc = 0; cc < N; cc++) {
      double s = 0;
      for (p = 0; p < K; p++) s += (double)A[ta ? p * M + r : r * K + p] * B[tb ? cc * K + p : p * N + cc];
      s = alpha * s + (beta == 0.0f ? 0.0 : (double)beta * C[r * N + cc]);
      if (use_epi) s = act_ref(late ? "Sigmoid" : "Relu", 0, 0, s + bias[r] + res[r * N + cc]);
      want[r * N + cc] = (float)s;
    }
  memset(&mm, 0, sizeof mm);
  memset(&epi, 0, sizeof epi);
  epi.row_bias = bias, epi.res = res, epi.ldr = N, epi.level = k->level;
  epi.act.kind = late ? GE__AIC_ACT_SIGMOID : GE__AIC_ACT_RELU;
  mm.k = k, mm.M = M, mm.N = N, mm.K = K, mm.alpha = alpha, mm.beta = beta;
  mm.A = A, mm.ars = ta ? 1 : K, mm.acs = ta ? M : 1;
  mm.B = B, mm.brs = tb ? 1 : N, mm.bcs = tb ? K : 1;
  mm.C = C, mm.ldc = N, mm.epi = use_epi ? &epi : NULL;
  if (mode == 1) { /* prepacked A (alpha 1) */
    pack = (float *)malloc(ge__aic_prepack_a_floats(k, M, K) * sizeof(float) + 64);
    ge__aic_prepack_a(k, A, mm.ars, mm.acs, M, K, pack);
    mm.apack = pack;
  } else if (mode == 2) {
    pack = (float *)malloc(ge__aic_prepack_b_floats(k, N, K) * sizeof(float) + 64);
    ge__aic_prepack_b(k, B, mm.brs, mm.bcs, K, N, pack);
    mm.bpack = pack;
  }
  work = (float *)malloc(2 * ge__aic_mm_work_floats() * sizeof(float));
  ctx_init(&e, threads, NULL, NULL, 0, NULL);
  ge__aic_mm_run(&e.c, &mm, threads, work);
  er = rel_err(C, want, M * N);
  if (!GE_CHECK(er < TOL))
    printf("  level %d M %lld N %lld K %lld ta %d tb %d mode %d threads %d: rel err %.2g\n", k->level, (long long)M,
           (long long)N, (long long)K, ta, tb, mode, threads, er);
  free(A), free(B), free(C), free(bias), free(res), free(pack), free(work), free(want);
  return er;
}

GE_TEST(test_sgemm_kernels) {
  static const int64_t dims[] = {1, 2, 5, 11, 12, 13, 31, 32, 33, 47, 143, 145, 200, 257, 300, 513, 530};
  int level, cases = 0, levels = 0;
  double worst = 0;
  tu_seed(&R, 16);
  for (level = 0; level <= 2; level++) {
    const ge__aic_kern *k = ge__aic_kern_pick(level);
    int i;
    if (k->level != level) continue; /* this CPU lacks it */
    levels++;
    for (i = 0; i < 70; i++) {
      int64_t M = dims[tu_below(&R, 17)], N = dims[tu_below(&R, 17)], K = dims[tu_below(&R, 15)];
      int ta = (int)tu_below(&R, 2), tb = (int)tu_below(&R, 2), mode = (int)tu_below(&R, 3);
      double er = sgemm_case(k, M, N, K, ta, tb, mode, 1 + (i & 1), (int)tu_below(&R, 2));
      if (er > worst) worst = er;
      cases++;
    }
  }
  GE_CHECK(levels >= 1);
  printf("  sgemm: %d cases over %d micro-kernels, worst rel err %.2g\n", cases, levels, worst);
}

/* The skinny paths: 1..4 rows against B's panels (plain, prepacked B, or a
 * prepacked A's first panel), and 1..8 columns against A's panels (the
 * vector levels), on both sides of their limits, K across slices. */
GE_TEST(test_sgemm_skinny) {
  static const int64_t ks[] = {1, 2, 3, 4, 5, 7, 64, 129, 387, 700};
  int level, cases = 0;
  double worst = 0;
  tu_seed(&R, 61);
  for (level = 0; level <= 2; level++) {
    const ge__aic_kern *k = ge__aic_kern_pick(level);
    int64_t M, N;
    if (k->level != level) continue;
    for (M = 1; M <= 5; M++) /* few rows, any columns */
      for (N = 1; N <= 70; N += 1 + (N > 8) * 30) {
        double er = sgemm_case(k, M, N, ks[tu_below(&R, 10)], (int)tu_below(&R, 2), (int)tu_below(&R, 2),
                               (int)tu_below(&R, 3), 1 + (int)tu_below(&R, 2), (int)tu_below(&R, 2));
        if (er > worst) worst = er;
        cases++;
      }
    for (N = 1; N <= 9; N++) /* few columns, many rows */
      for (M = 5; M <= 60; M += 11) {
        double er = sgemm_case(k, M * (1 + (N & 1) * 3), N, ks[tu_below(&R, 10)], (int)tu_below(&R, 2),
                               (int)tu_below(&R, 2), (int)tu_below(&R, 3), 1 + (int)tu_below(&R, 2),
                               (int)tu_below(&R, 2));
        if (er > worst) worst = er;
        cases++;
      }
  }
  printf("  skinny sgemm: %d cases, worst rel err %.2g\n", cases, worst);
}

/* ----------------------------------------------------------------- Conv */

typedef struct conv_case {
  int64_t n, c, h, w, m, group, kh, kw, sh, sw, dh, dw, pads[4];
  int one_d, bias, residual;
  const char *act;
  double alpha, beta;
} conv_case;

static const char *const act_names[] = {NULL,      "Relu",        "HardSwish", "Clip",
                                        "LeakyRelu", "Sigmoid", "HardSigmoid", "Tanh"};

/* A case's channels (cg, mg a group) and its random bias, residual and
 * activation (unless one is set already). */
static conv_case case_channels_and_epilogue(conv_case c, int64_t cg, int64_t mg) {
  c.c = cg * c.group;
  c.m = mg * c.group;
  c.bias = (int)tu_below(&R, 2);
  c.residual = (int)tu_below(&R, 2);
  if (!c.act) c.act = act_names[tu_below(&R, 8)];
  c.alpha = c.act && !strcmp(c.act, "Clip") ? -0.3 : 0.1;
  c.beta = 0.4;
  return c;
}

static conv_case rand_case(int kind) {
  conv_case c;
  int64_t cg = rint_in(1, 9), mg = rint_in(1, 20);
  memset(&c, 0, sizeof c);
  c.group = tu_below(&R, 4) == 0 ? rint_in(2, 3) : 1;
  c.n = rint_in(1, 3);
  c.h = rint_in(1, 20);
  c.w = rint_in(1, 23);
  c.kh = rint_in(1, 5);
  c.kw = rint_in(1, 5);
  c.sh = rint_in(1, 3);
  c.sw = rint_in(1, 3);
  c.dh = rint_in(1, 2);
  c.dw = rint_in(1, 2);
  c.pads[0] = rint_in(0, 2), c.pads[1] = rint_in(0, 2), c.pads[2] = rint_in(0, 2), c.pads[3] = rint_in(0, 2);
  if (kind == 1) { /* depthwise, MobileNet-like: 3x3 or 5x5, stride 1 or 2 */
    c.group = rint_in(1, 24);
    cg = 1;
    mg = rint_in(1, 2);
    c.kh = c.kw = tu_below(&R, 2) ? 3 : 5;
    c.sh = c.sw = rint_in(1, 2);
    c.dh = c.dw = 1;
    c.pads[0] = c.pads[1] = c.pads[2] = c.pads[3] = c.kh / 2;
    c.h = rint_in(1, 40), c.w = rint_in(1, 40);
  } else if (kind == 4) { /* depthwise, any geometry: strides and dilations 1..3, channel multipliers, odd
                              pads, kernels up to 9x9 (past 64 taps: the generic path) */
    c.group = rint_in(1, 12);
    cg = 1;
    mg = rint_in(1, 3);
    c.kh = rint_in(1, 9), c.kw = rint_in(1, 9);
    c.sh = rint_in(1, 3), c.sw = rint_in(1, 3);
    c.dh = rint_in(1, 3), c.dw = rint_in(1, 3);
    c.pads[0] = rint_in(0, 4), c.pads[1] = rint_in(0, 4), c.pads[2] = rint_in(0, 4), c.pads[3] = rint_in(0, 4);
    c.h = rint_in(1, 45), c.w = rint_in(1, 45);
    if (tu_below(&R, 4) == 0) { /* 1-D */
      c.one_d = 1;
      c.h = c.kh = c.sh = c.dh = 1;
      c.pads[0] = c.pads[2] = 0;
    }
  } else if (kind == 2) { /* 1x1 stride 1: the image is B */
    c.kh = c.kw = c.sh = c.sw = c.dh = c.dw = 1;
    c.pads[0] = c.pads[1] = c.pads[2] = c.pads[3] = 0;
    cg = rint_in(1, 70);
  } else if (kind == 5) { /* a few output pixels (streaming frames): the dot-product path, K up to ~900 */
    cg = rint_in(1, 130), mg = rint_in(1, 70);
    c.h = rint_in(1, 3), c.w = rint_in(1, 6);
    if (tu_below(&R, 2)) { /* 1-D, like an STFT or an encoder conv of a VAD */
      c.one_d = 1;
      c.h = c.kh = c.sh = c.dh = 1;
      c.pads[0] = c.pads[2] = 0;
      c.w = rint_in(1, 8);
    }
  } else if (kind == 6) { /* stride 1, dense: the implicit GEMM (several K slices, column blocks and row
                              blocks; dilations, pads, 1x1 with pads, 1-D) */
    c.group = tu_below(&R, 6) == 0 ? 2 : 1;
    cg = rint_in(1, 40);
    mg = rint_in(1, 40);
    if (tu_below(&R, 5) == 0) mg = rint_in(140, 160); /* past one MC block */
    c.kh = rint_in(1, 5), c.kw = rint_in(1, 5);
    c.sh = c.sw = 1;
    c.dh = rint_in(1, 3), c.dw = rint_in(1, 3);
    c.pads[0] = rint_in(0, 3), c.pads[1] = rint_in(0, 3), c.pads[2] = rint_in(0, 3), c.pads[3] = rint_in(0, 3);
    c.h = rint_in(1, 30), c.w = rint_in(1, 40);
    if (tu_below(&R, 4) == 0) { /* 1-D */
      c.one_d = 1;
      c.h = c.kh = c.sh = c.dh = 1;
      c.pads[0] = c.pads[2] = 0;
    }
  } else if (kind == 7) { /* 3x3 stride 1 undilated with channels: Winograd F(2x2, 3x3) (odd sizes, any pads,
                              groups, past one MC block and several K slices) */
    c.group = tu_below(&R, 6) == 0 ? 2 : 1;
    cg = rint_in(24, 48);
    mg = rint_in(24, 40);
    if (tu_below(&R, 3) == 0) cg = rint_in(64, 72); /* Winograd at AVX-512 too (fewer: the small-image path) */
    if (tu_below(&R, 5) == 0) cg = rint_in(250, 300), mg = rint_in(16, 24); /* two K slices */
    if (tu_below(&R, 5) == 0) mg = rint_in(140, 160);                      /* past one MC block */
    c.kh = c.kw = 3;
    c.sh = c.sw = c.dh = c.dw = 1;
    c.pads[0] = rint_in(0, 2), c.pads[1] = rint_in(0, 2), c.pads[2] = rint_in(0, 2), c.pads[3] = rint_in(0, 2);
    c.h = rint_in(10, 40), c.w = rint_in(18, 75); /* at least 4 x 8 tiles: the Winograd path runs */
    if (tu_below(&R, 3) == 0) c.n = rint_in(1, 2);
  } else if (kind == 8) { /* 1x1 stride 1 of MobileNet-like widths: the pointwise path (rows past whole vectors,
                              panels past the last full one, groups, batch) */
    c.kh = c.kw = c.sh = c.sw = c.dh = c.dw = 1;
    c.pads[0] = c.pads[1] = c.pads[2] = c.pads[3] = 0;
    c.group = tu_below(&R, 5) == 0 ? rint_in(2, 3) : 1;
    cg = tu_below(&R, 3) == 0 ? rint_in(100, 330) : rint_in(1, 40);
    if (c.group > 1 && cg == 1) cg = 2; /* one input channel per group is the depthwise path */
    mg = rint_in(1, 45);
    c.n = rint_in(1, 2);
    c.h = rint_in(1, 16), c.w = rint_in(3, 16);
    if (c.h * c.w <= 8) c.h = 3;
    if (tu_below(&R, 4) == 0) { /* 1-D */
      c.one_d = 1;
      c.h = c.kh = c.sh = c.dh = 1;
      c.pads[0] = c.pads[2] = 0;
      c.w = rint_in(9, 120);
    }
  } else if (kind == 9) { /* "same" W padding ((kw - 1) dw in all, sometimes one more): the small-image direct
                              conv (AVX-512) in place at stride 1, on phase planes at strides 2..3 (or one more
                              pad); batches, groups, 1x1, 1-D, several channel blocks */
    int64_t wp;
    c.group = tu_below(&R, 5) == 0 ? 2 : 1;
    c.n = rint_in(1, 4);
    cg = rint_in(1, 100);
    mg = rint_in(4, 100);
    c.kh = rint_in(1, 4), c.kw = rint_in(1, 4);
    c.sh = c.sw = 1;
    if (tu_below(&R, 2)) c.sh = rint_in(1, 3), c.sw = rint_in(1, 3);
    c.dh = rint_in(1, 2), c.dw = rint_in(1, 2);
    wp = (c.kw - 1) * c.dw + (tu_below(&R, 6) == 0);
    c.pads[1] = rint_in(0, wp), c.pads[3] = wp - c.pads[1];
    c.pads[0] = rint_in(0, c.kh - 1), c.pads[2] = rint_in(0, c.kh - 1);
    c.h = rint_in(1, 24), c.w = rint_in(1, 36);
    if (tu_below(&R, 5) == 0) { /* 1-D */
      c.one_d = 1;
      c.h = c.kh = c.sh = c.dh = 1;
      c.pads[0] = c.pads[2] = 0;
      c.w = rint_in(9, 120);
    }
  } else if (kind == 20) { /* MobileNet-v2's depthwise: 3x3, pad 1, stride 1 or 2, its map sizes or near them,
                               enough channels for four shares a thread */
    static const int64_t sizes[] = {7, 14, 28, 56, 112};
    c.group = rint_in(8, 120);
    cg = 1, mg = 1;
    c.kh = c.kw = 3;
    c.sh = c.sw = rint_in(1, 2);
    c.dh = c.dw = 1;
    c.pads[0] = c.pads[1] = c.pads[2] = c.pads[3] = 1;
    c.h = c.w = tu_below(&R, 2) ? sizes[tu_below(&R, 3)] : rint_in(3, 33);
    if (tu_below(&R, 8) == 0) c.h = c.w = sizes[3 + tu_below(&R, 2)], c.group = rint_in(8, 24);
  } else if (kind == 22) { /* EfficientNet's and MnasNet's depthwise: 5x5, pad 2, stride 1 or 2, their map sizes
                               or near them (the channel-blocked kernel up to 28x28, rows past it) */
    static const int64_t sizes[] = {7, 14, 28, 56};
    c.group = rint_in(8, 120);
    cg = 1, mg = 1;
    c.kh = c.kw = 5;
    c.sh = c.sw = rint_in(1, 2);
    c.dh = c.dw = 1;
    c.pads[0] = c.pads[1] = c.pads[2] = c.pads[3] = 2;
    if (tu_below(&R, 8) == 0) c.pads[2 + tu_below(&R, 2)] = 1; /* a short trailing pad */
    c.h = c.w = tu_below(&R, 2) ? sizes[tu_below(&R, 3)] : rint_in(3, 33);
    if (tu_below(&R, 8) == 0) c.h = c.w = 56, c.group = rint_in(8, 24);
    if (tu_below(&R, 6) == 0) c.w = rint_in(3, 20); /* not square */
  } else if (kind == 23) { /* ConvNeXt's depthwise: 7x7, pad 3, mostly stride 1, its map sizes or near them (the
                               channel-blocked kernel up to 56x56, the band kernel past it) */
    static const int64_t sizes[] = {7, 14, 28, 56};
    c.group = rint_in(8, 80);
    cg = 1, mg = 1;
    c.kh = c.kw = 7;
    c.sh = c.sw = tu_below(&R, 4) ? 1 : 2;
    c.dh = c.dw = 1;
    c.pads[0] = c.pads[1] = c.pads[2] = c.pads[3] = 3;
    if (tu_below(&R, 8) == 0) c.pads[2 + tu_below(&R, 2)] = 1; /* a short trailing pad */
    c.h = c.w = tu_below(&R, 2) ? sizes[tu_below(&R, 4)] : rint_in(3, 64);
    if (c.h > 28) c.group = rint_in(8, 24);
    if (tu_below(&R, 6) == 0) c.w = rint_in(3, 20); /* not square */
  } else if (kind == 26) { /* depthwise on narrow maps at stride 1 with "same" columns (ow == w: the flat
                               kernel at AVX-512): 3x3, 5x5, 7x7 and 1xk / kx1, dilations 1 or 2, channel
                               multipliers, channels not a multiple of four, batches, any rows of padding */
    static const int64_t ks[] = {3, 5, 7, 1};
    c.n = tu_below(&R, 5) == 0 ? 2 : 1;
    c.group = tu_below(&R, 3) == 0 ? rint_in(1, 9) : rint_in(8, 70);
    cg = 1, mg = tu_below(&R, 6) == 0 ? 2 : 1;
    c.kh = ks[tu_below(&R, 4)], c.kw = ks[tu_below(&R, 3)];
    c.sh = c.sw = 1;
    c.dh = c.dw = tu_below(&R, 5) == 0 ? 2 : 1;
    c.pads[1] = rint_in(0, (c.kw - 1) * c.dw), c.pads[3] = (c.kw - 1) * c.dw - c.pads[1];
    c.pads[0] = rint_in(0, c.kh - 1), c.pads[2] = rint_in(0, c.kh - 1);
    c.h = rint_in(c.kh, 24), c.w = rint_in(2, c.kw == 3 ? 16 : c.kw == 5 ? 32 : 8);
  } else if (kind == 28) { /* strided 3x3 and 5x5 depthwise (the stride-2 kernel at AVX-512 past 4 output
                               columns): pads up to k / 2 on each side, odd and even sizes, channel multipliers,
                               batches */
    c.n = tu_below(&R, 5) == 0 ? 2 : 1;
    c.group = tu_below(&R, 3) == 0 ? rint_in(1, 9) : rint_in(8, 40);
    cg = 1, mg = tu_below(&R, 6) == 0 ? 2 : 1;
    c.kh = c.kw = tu_below(&R, 2) ? 3 : 5;
    c.sh = c.sw = 2;
    c.dh = c.dw = 1;
    c.pads[0] = rint_in(0, c.kh / 2), c.pads[1] = rint_in(0, c.kw / 2);
    c.pads[2] = rint_in(0, c.kh / 2), c.pads[3] = rint_in(0, c.kw / 2);
    c.h = rint_in(3, 70), c.w = rint_in(5, 120);
  } else if (kind == 27) { /* squeeze-excite gates and frame convs: a few output pixels, wide (the 64-row
                               panels of packed constant weights at AVX-512, the dot products elsewhere) */
    c.n = tu_below(&R, 5) == 0 ? 2 : 1;
    c.group = tu_below(&R, 6) == 0 ? 2 : 1;
    cg = rint_in(8, 300), mg = rint_in(1, 300);
    c.kh = c.kw = c.sh = c.sw = c.dh = c.dw = 1;
    c.pads[0] = c.pads[1] = c.pads[2] = c.pads[3] = 0;
    c.h = c.w = 1;
    if (tu_below(&R, 3) == 0) { /* 1-D frames: up to eight outputs of a k=3 conv */
      c.one_d = 1;
      c.kw = 3, c.w = rint_in(3, 10);
    }
  } else if (kind == 24) { /* patchify convs (kernel = stride, no pads: ConvNeXt's stem and downsamplings), the map
                               a whole number of patches (the 1x1 path over phase planes) or not (the others) */
    c.group = tu_below(&R, 6) ? 1 : 2;
    c.kh = c.sh = rint_in(1, 4), c.kw = c.sw = rint_in(1, 4);
    if (c.kh * c.kw == 1) c.kh = c.sh = 2;
    c.dh = c.dw = 1;
    c.pads[0] = c.pads[1] = c.pads[2] = c.pads[3] = 0;
    c.h = c.kh * rint_in(1, 20), c.w = c.kw * rint_in(1, 20);
    if (tu_below(&R, 8) == 0) c.h += rint_in(1, c.kh); /* a partial patch */
    cg = tu_below(&R, 4) ? rint_in(1, 48) : 3, mg = rint_in(1, 64);
  } else if (kind == 25) { /* strided 1x1 convs (ResNet's downsampling shortcuts): without pads the 1x1 path
                               over the subsampled input, with pads the others */
    c.kh = c.kw = c.dh = c.dw = 1;
    c.sh = rint_in(1, 4), c.sw = rint_in(1, 4);
    if (c.sh * c.sw == 1) c.sh = c.sw = 2;
    if (tu_below(&R, 6)) c.pads[0] = c.pads[1] = c.pads[2] = c.pads[3] = 0;
    c.h = rint_in(1, 40), c.w = rint_in(1, 40);
    cg = rint_in(1, 70), mg = rint_in(1, 70);
  } else if (kind == 21) { /* MobileNet-v2's pointwise: 1x1 on its small maps, wide */
    static const int64_t sizes[] = {7, 14, 28};
    c.group = 1;
    c.kh = c.kw = c.sh = c.sw = c.dh = c.dw = 1;
    c.pads[0] = c.pads[1] = c.pads[2] = c.pads[3] = 0;
    c.h = c.w = tu_below(&R, 4) ? sizes[tu_below(&R, 3)] : rint_in(3, 30);
    cg = rint_in(8, 200), mg = rint_in(8, 200);
  } else if (kind == 30) { /* few output channels (4..16 per group: 8-row tiles of the small-image direct conv)
                               on images past its 2560-pixel limit or below it; dilations up to 8 with "same"
                               pads, as in RSU blocks; now and then a pad short or long by one, 1-D, batch */
    int64_t d;
    c.group = tu_below(&R, 6) == 0 ? 2 : 1;
    c.n = tu_below(&R, 4) == 0 ? 2 : 1;
    cg = tu_below(&R, 4) == 0 ? rint_in(17, 70) : rint_in(1, 16);
    mg = rint_in(4, 16);
    c.kh = c.kw = tu_below(&R, 4) == 0 ? rint_in(1, 5) : 3;
    c.sh = c.sw = 1;
    d = tu_below(&R, 3) == 0 ? 1 : (int64_t)1 << rint_in(1, 3);
    c.dh = c.dw = d;
    c.pads[0] = c.pads[1] = (c.kh - 1) * d / 2;
    c.pads[2] = c.pads[3] = (c.kh - 1) * d - c.pads[0];
    if (tu_below(&R, 6) == 0) c.pads[rint_in(0, 3)] += tu_below(&R, 2) ? 1 : -1;
    if (c.pads[0] < 0) c.pads[0] = 0;
    if (c.pads[1] < 0) c.pads[1] = 0;
    if (c.pads[2] < 0) c.pads[2] = 0;
    if (c.pads[3] < 0) c.pads[3] = 0;
    if (tu_below(&R, 3) == 0) c.act = "Silu"; /* after the common fields: set below unless kept */
    c.h = tu_below(&R, 3) == 0 ? rint_in(9, 50) : rint_in(51, 90);
    c.w = rint_in(9, 110);
    if (tu_below(&R, 6) == 0) { /* 1-D */
      c.one_d = 1;
      c.h = c.kh = c.sh = c.dh = 1;
      c.pads[0] = c.pads[2] = 0;
      c.w = rint_in(100, 4000);
    }
  } else if (kind == 31) { /* SqueezeNet's expand convs: 3x3 pad 1 stride 1, 16..63 input channels on maps
                               around 13, 27 and 55 (the small-image direct conv at AVX-512 instead of
                               Winograd up to 51200 input channels x pixels, Winograd past it) */
    static const int64_t sizes[] = {13, 27, 55};
    c.n = tu_below(&R, 6) == 0 ? 2 : 1;
    cg = tu_below(&R, 4) == 0 ? rint_in(16, 63) : 16 * rint_in(1, 3);
    mg = tu_below(&R, 4) == 0 ? rint_in(16, 100) : 4 * cg;
    c.kh = c.kw = 3;
    c.sh = c.sw = c.dh = c.dw = 1;
    c.pads[0] = c.pads[1] = c.pads[2] = c.pads[3] = 1;
    if (tu_below(&R, 6) == 0) c.pads[rint_in(0, 3)] = 0;
    c.h = c.w = sizes[tu_below(&R, 3)] + rint_in(-2, 2);
    if (tu_below(&R, 4) == 0) c.w = rint_in(8, 70);
    c.act = "Relu";
  } else if (kind == 3) { /* 1-D with a kernel wider than 255 */
    c.one_d = 1;
    c.h = c.kh = c.sh = c.dh = 1;
    c.pads[0] = c.pads[2] = 0;
    c.kw = rint_in(256, 300);
    c.w = c.kw + rint_in(0, 40);
    c.dw = 1;
  }
  return case_channels_and_epilogue(c, cg, mg);
}

static int64_t out_dim(int64_t in, int64_t k, int64_t s, int64_t d, int64_t pb, int64_t pe) {
  int64_t eff = (k - 1) * d + 1;
  return in + pb + pe - eff < 0 ? 0 : (in + pb + pe - eff) / s + 1;
}

/* The packed_level the last run_conv_case left (which path packed the weights). */
static int last_packed_level;

/* Runs one conv case: the AI Core kernel (twice, the second time on a new
 * input, weights packed once) against the host reference + residual +
 * activation. Returns the worse relative error (sum_scale: relative to the
 * largest pre-activation sum when that is larger than the output). */
/* Fills the kernel's scratch (past its packed operand) with NaN bytes, so
 * that a second run relying on what the first left there (pad cells zeroed
 * once) fails. */
static void poison_scratch(ge_kernel_ctx *c) {
  ge__aic_state *s = (ge__aic_state *)c->state;
  size_t packed = s ? ge__aic_pack_bytes(s) : 0;
  if (s && packed < s->cap) memset((char *)ge__aic_area_of(s) + packed, 0xff, s->cap - packed);
}

static double run_conv_case(const conv_case *cs, int threads, int sum_scale) {
  int32_t r = cs->one_d ? 3 : 4, sp = r - 2;
  int64_t xd[4], wd[4], bd[1], yd[4], oh, ow, wn, xn, yn, st[2], dl[2], pd[4];
  float *w, *b, *res = NULL;
  ge_value vx, vres, out, ref;
  ge_value *in[4];
  ge_edge e[4];
  kt t;
  ctx_env ce;
  double worst = 0;
  int round;
  oh = cs->one_d ? 1 : out_dim(cs->h, cs->kh, cs->sh, cs->dh, cs->pads[0], cs->pads[2]);
  ow = out_dim(cs->w, cs->kw, cs->sw, cs->dw, cs->pads[1], cs->pads[3]);
  if (oh < 1 || ow < 1) return -1;
  xd[0] = cs->n, xd[1] = cs->c, wd[0] = cs->m, wd[1] = cs->c / cs->group, yd[0] = cs->n, yd[1] = cs->m;
  if (cs->one_d) xd[2] = cs->w, wd[2] = cs->kw, yd[2] = ow;
  else xd[2] = cs->h, xd[3] = cs->w, wd[2] = cs->kh, wd[3] = cs->kw, yd[2] = oh, yd[3] = ow;
  bd[0] = cs->m;
  wn = cs->m * (cs->c / cs->group) * cs->kh * cs->kw;
  xn = cs->n * cs->c * cs->h * cs->w;
  yn = cs->n * cs->m * oh * ow;
  w = rand_floats(wn);
  b = rand_floats(cs->m);
  memset(&t, 0, sizeof t);
  ge_graph_create(NULL, &t.g, &t.err);
  ge_graph_add_data(t.g, NULL, GE_DTYPE_FLOAT32, r, xd, &e[0].node, NULL);
  e[1].node = add_const(t.g, r, wd, w, wn);
  e[2].node = cs->bias ? add_const(t.g, 1, bd, b, cs->m) : GE_NONE;
  e[3].node = GE_NONE;
  if (cs->residual) ge_graph_add_data(t.g, NULL, GE_DTYPE_FLOAT32, r, yd, &e[3].node, NULL);
  e[0].index = e[1].index = e[2].index = e[3].index = 0;
  ge_graph_add_node(t.g, "Conv", "conv", cs->residual ? 4 : 3, e, 1, &t.id, &t.err);
  st[0] = cs->sh, st[1] = cs->sw, dl[0] = cs->dh, dl[1] = cs->dw;
  pd[0] = cs->pads[0], pd[1] = cs->pads[1], pd[2] = cs->pads[2], pd[3] = cs->pads[3];
  if (cs->one_d) st[0] = cs->sw, dl[0] = cs->dw, pd[0] = cs->pads[1], pd[1] = cs->pads[3];
  ge_node_set_attr_ints(t.g, t.id, "strides", st, sp, NULL);
  ge_node_set_attr_ints(t.g, t.id, "dilations", dl, sp, NULL);
  ge_node_set_attr_ints(t.g, t.id, "pads", pd, 2 * sp, NULL);
  ge_node_set_attr_int(t.g, t.id, "group", cs->group, NULL);
  if (cs->act) {
    ge_node_set_attr_string(t.g, t.id, "_fused_activation", cs->act, NULL);
    if (!strcmp(cs->act, "Clip") || !strcmp(cs->act, "LeakyRelu") || !strcmp(cs->act, "HardSigmoid")) {
      ge_node_set_attr_float(t.g, t.id, "_fused_alpha", cs->alpha, NULL);
      ge_node_set_attr_float(t.g, t.id, "_fused_beta", cs->beta, NULL);
    }
  }
  if (cs->residual) ge_node_set_attr_int(t.g, t.id, GE_ATTR_FUSED_INPUTS, 1, NULL);
  {
    ge_value vw = kh_value(GE_DTYPE_FLOAT32, r, wd, w), vb = kh_value(GE_DTYPE_FLOAT32, 1, bd, b);
    memset(&out, 0, sizeof out);
    ctx_init(&ce, threads, &t, in, cs->residual ? 4 : 3, &out);
    if (cs->m & 1) { /* half the cases are prepared at load first */
      ge_value px, pres;
      memset(&px, 0, sizeof px), memset(&pres, 0, sizeof pres);
      ge_value_set_shape(&px, GE_DTYPE_FLOAT32, r, xd), ge_value_set_shape(&pres, GE_DTYPE_FLOAT32, r, yd);
      in[0] = &px, in[1] = &vw, in[2] = cs->bias ? &vb : NULL, in[3] = cs->residual ? &pres : NULL;
      GE_CHECK(aic_prepare(&t, &ce.c) == GE_OK);
      GE_CHECK(ce.c.state && (((ge__aic_state *)ce.c.state)->packed_level > 0 || cs->c == cs->group ||
                              yn / (cs->n * cs->m) <= GE__AIC_FEW_PIXELS));
    }
    for (round = 0; round < 2; round++) {
      float *xr = rand_floats(xn);
      int64_t i;
      if (round) poison_scratch(&ce.c);
      vx = kh_value(GE_DTYPE_FLOAT32, r, xd, xr);
      res = rand_floats(yn);
      vres = kh_value(GE_DTYPE_FLOAT32, r, yd, res);
      in[0] = &vx, in[1] = &vw, in[2] = cs->bias ? &vb : NULL, in[3] = cs->residual ? &vres : NULL;
      memset(&ref, 0, sizeof ref);
      if (!GE_CHECK(kh_run(ge_host_cpu_kernel(ge_graph_node(t.g, t.id)), t.g, t.id, in, 3, &ref, 1, &t.err) == GE_OK) ||
          !GE_CHECK(ge_ai_core_engine()->kernel(ge_ai_core_engine(), ge_graph_node(t.g, t.id))(&ce.c) == GE_OK) ||
          !GE_CHECK(out.numel == yn && ref.numel == yn)) {
        printf("  conv error: %s\n", t.err.message);
        worst = 1e9;
      } else {
        double er, sums = 0, outs = 0;
        for (i = 0; i < yn; i++) {
          double v = ((float *)ref.data)[i] + (cs->residual ? res[i] : 0.0f);
          if (fabs(v) > sums) sums = fabs(v);
          ((float *)ref.data)[i] = (float)act_ref(cs->act, cs->alpha, cs->beta, v);
          if (fabs(((float *)ref.data)[i]) > outs) outs = fabs(((float *)ref.data)[i]);
        }
        er = rel_err((const float *)out.data, (const float *)ref.data, yn);
        /* Winograd's rounding scales with the sums, not with an output an
           activation clipped: its error is measured against the sums */
        if (sum_scale && sums > outs) er *= (outs + 1e-6) / (sums + 1e-6);
        if (er > worst) worst = er;
      }
      /* packed once: but depthwise and few-pixel convs read the weights as they are */
      GE_CHECK(round == 0 || ((ge__aic_state *)ce.c.state)->packed_level > 0 || cs->c == cs->group ||
               yn / (cs->n * cs->m) <= GE__AIC_FEW_PIXELS);
      kh_free(&ref);
      kh_free(&vx);
      kh_free(&vres);
      free(xr);
      free(res);
    }
    last_packed_level = ce.c.state ? ((ge__aic_state *)ce.c.state)->packed_level : -1;
    ge_kernel_free_state(&ce.c);
    kh_free(&out);
    kh_free(&vw);
    kh_free(&vb);
  }
  free(w);
  free(b);
  kt_free(&t);
  return worst;
}

GE_TEST(test_conv_fast) {
  int i, done = 0, kinds[10] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, small = 0;
  double worst = 0, worst9 = 0;
  tu_seed(&R, 1601);
  for (i = 0; done < 620; i++) {
    int j = i % 23, kind = j < 5   ? 0
                           : j < 8  ? 1
                           : j == 8 ? 2
                           : j == 9 ? 3
                           : j < 13 ? 4
                           : j < 15 ? 5
                           : j < 18 ? 6
                           : j < 20 ? 7
                                    : 9;
    conv_case c = rand_case(kind);
    double er;
    ge__aic_conv_level_cap = (i / 2) % 3; /* every micro-kernel level (the CPU's best at most) */
    er = run_conv_case(&c, 1 + (i & 1), kind == 7);
    if (er < 0) continue;
    if (!GE_CHECK(er < TOL))
      printf("  conv kind %d n %lld c %lld %lldx%lld m %lld g %lld k %lldx%lld s %lld,%lld d %lld,%lld act %s res %d: "
             "%.2g\n",
             kind, (long long)c.n, (long long)c.c, (long long)c.h, (long long)c.w, (long long)c.m, (long long)c.group,
             (long long)c.kh, (long long)c.kw, (long long)c.sh, (long long)c.sw, (long long)c.dh, (long long)c.dw,
             c.act ? c.act : "-", c.residual, er);
    if (er > worst) worst = er;
    if (kind == 9 && er > worst9) worst9 = er;
    kinds[kind]++;
    small += kind == 9 && ge__aic_kern_pick(ge__aic_conv_level_cap)->level >= 2;
    done++;
  }
  ge__aic_conv_level_cap = 2;
  GE_CHECK(kinds[1] > 30 && kinds[2] > 10 && kinds[3] > 10 && kinds[4] > 40 && kinds[5] > 30 && kinds[6] > 40 &&
           kinds[7] > 40 && kinds[9] > 40);
  GE_CHECK(small > 20 || !__builtin_cpu_supports("avx512f"));
  printf("  conv: %d cases (%d depthwise, %d depthwise of any geometry, %d 1x1, %d 1-D wide, %d few pixels, %d stride-1 "
         "dense, %d Winograd, %d same-width (%d at AVX-512: the small-image path)), worst rel err %.2g (same-width "
         "%.2g)\n",
         done, kinds[1], kinds[4], kinds[2], kinds[3], kinds[5], kinds[6], kinds[7], kinds[9], small, worst, worst9);
}

/* Winograd F(4x4, 3x3) (packing tag 72 + level), forced wherever F(2x2)
 * runs (ge__aic_w4_choice 1), at every micro-kernel level, on 1 and 2
 * threads: odd sizes and sizes past whole 4x4 tiles (partial tiles on the
 * right and bottom), pads 0..2 on each side, channels not multiples of 16,
 * past one K slice and one MC block, groups, batches, bias, residual and
 * activations. Its rounding grows with the transforms' factors (B^T's
 * rows sum up to 10 in magnitude, A^T's up to 18): the worst error against
 * the largest sum measured over these cases was 8.9e-6 (F(2x2) 2.1e-6 on
 * the same cases, printed for the record), bounded here by W4_TOL, about
 * twice that. */
#define W4_TOL 2e-5
static conv_case rand_case_wino43(void) {
  conv_case c;
  int64_t cg = rint_in(24, 90), mg = rint_in(33, 72);
  memset(&c, 0, sizeof c);
  if (tu_below(&R, 6) == 0) cg = rint_in(250, 300); /* two K slices */
  if (tu_below(&R, 6) == 0) mg = rint_in(140, 160); /* past one MC block */
  c.group = tu_below(&R, 6) == 0 ? 2 : 1;
  c.n = tu_below(&R, 4) == 0 ? 2 : 1;
  c.kh = c.kw = 3;
  c.sh = c.sw = c.dh = c.dw = 1;
  c.pads[0] = rint_in(0, 2), c.pads[1] = rint_in(0, 2), c.pads[2] = rint_in(0, 2), c.pads[3] = rint_in(0, 2);
  c.h = rint_in(9, 45), c.w = rint_in(14, 70);
  if (tu_below(&R, 4) == 0) c.pads[0] = c.pads[1] = c.pads[2] = c.pads[3] = tu_below(&R, 2); /* 0 or 1 all round */
  return case_channels_and_epilogue(c, cg, mg);
}

GE_TEST(test_conv_wino43) {
  int i, taken = 0;
  double worst = 0, worst2 = 0;
  tu_seed(&R, 1643);
  ge__aic_w4_choice = 1;
  for (i = 0; i < 60; i++) {
    conv_case c = rand_case_wino43();
    int level;
    double er;
    ge__aic_conv_level_cap = i % 3;
    level = ge__aic_kern_pick(ge__aic_conv_level_cap)->level;
    er = run_conv_case(&c, 1 + (i / 3) % 2, 1);
    if (last_packed_level != 72 + level + 1) continue; /* another path took it (the small-image or lanes conv) */
    if (!GE_CHECK(er >= 0 && er < W4_TOL))
      printf("  wino43 n %lld c %lld %lldx%lld m %lld g %lld pads %lld %lld %lld %lld act %s res %d level %d: %.2g\n",
             (long long)c.n, (long long)c.c, (long long)c.h, (long long)c.w, (long long)c.m, (long long)c.group,
             (long long)c.pads[0], (long long)c.pads[1], (long long)c.pads[2], (long long)c.pads[3],
             c.act ? c.act : "-", c.residual, level, er);
    if (er > worst) worst = er;
    taken++;
    ge__aic_w4_choice = 2; /* the same case by F(2x2), for the record */
    er = run_conv_case(&c, 1, 1);
    ge__aic_w4_choice = 1;
    if (er > worst2) worst2 = er;
  }
  ge__aic_w4_choice = 0;
  ge__aic_conv_level_cap = 2;
  GE_CHECK(taken >= 40);
  printf("  Winograd F(4x4, 3x3): 60 cases, %d took the path, worst rel err (of the sums) %.2g (F(2x2): %.2g)\n", taken,
         worst, worst2);
}

/* Conv kind 10: 3x3 stride-1 convs with many channels and a few tiles
 * (a ResNet's last stages): Winograd with the tiles as the products' rows
 * (weights packed as B, tagged 32 + level; more than 128 input channels:
 * fewer go to the small-image path when it fits), at every micro-kernel level,
 * on 1 and 2 threads; channels past one K slice, output channels past
 * whole panels, groups and batches. */
static conv_case rand_case_wino_rows(void) {
  conv_case c;
  int64_t cg = rint_in(129, 180), mg = rint_in(64, 150), T;
  memset(&c, 0, sizeof c);
  if (tu_below(&R, 5) == 0) cg = rint_in(257, 300); /* two K slices */
  c.group = tu_below(&R, 6) == 0 ? 2 : 1;
  c.n = tu_below(&R, 3) == 0 ? 2 : 1;
  c.kh = c.kw = 3;
  c.sh = c.sw = c.dh = c.dw = 1;
  do { /* between the skinny rows and GE__AIC_WT_MAX_TILES tiles */
    int64_t oh, ow;
    c.pads[0] = rint_in(0, 2), c.pads[1] = rint_in(0, 2), c.pads[2] = rint_in(0, 2), c.pads[3] = rint_in(0, 2);
    c.h = rint_in(2, 16), c.w = rint_in(2, 16);
    oh = c.h + c.pads[0] + c.pads[2] - 2, ow = c.w + c.pads[1] + c.pads[3] - 2;
    T = oh < 2 || ow < 2 ? 0 : (oh + 1) / 2 * ((ow + 1) / 2);
  } while (T <= GE__AIC_SKINNY_ROWS || T > GE__AIC_WT_MAX_TILES);
  return case_channels_and_epilogue(c, cg, mg);
}

GE_TEST(test_conv_wino_rows) {
  int i, taken = 0;
  double worst = 0;
  tu_seed(&R, 1610);
  for (i = 0; i < 48; i++) {
    conv_case c = rand_case_wino_rows();
    int level;
    double er;
    ge__aic_conv_level_cap = i % 3;
    level = ge__aic_kern_pick(ge__aic_conv_level_cap)->level;
    er = run_conv_case(&c, 1 + (i / 3) % 2, 1);
    if (!GE_CHECK(er >= 0 && er < TOL))
      printf("  conv kind 10 n %lld c %lld %lldx%lld m %lld g %lld pads %lld %lld %lld %lld act %s res %d: %.2g\n",
             (long long)c.n, (long long)c.c, (long long)c.h, (long long)c.w, (long long)c.m, (long long)c.group,
             (long long)c.pads[0], (long long)c.pads[1], (long long)c.pads[2], (long long)c.pads[3],
             c.act ? c.act : "-", c.residual, er);
    if (er > worst) worst = er;
    taken += GE_CHECK_EQ_INT(last_packed_level, 32 + level + 1);
  }
  ge__aic_conv_level_cap = 2;
  printf("  conv kind 10 (Winograd, tiles as rows): 48 cases, %d took the path, worst rel err %.2g\n", taken, worst);
}

/* Conv kind 11: the direct conv with output pixels as GEMM rows (weights
 * packed as B, tagged 40 + level; ResNet's last stages: 9..256 output
 * pixels, 32+ output channels) forced where it fits, at the vector levels
 * (level 0 takes other paths), 1 and 2 threads: any kernel size, strides,
 * dilations and pads, groups and batches, K across slices, output channels
 * past whole panels, pixels past one row block (the plain block product)
 * and within it (the streaming kernel); prepared at load in half the cases. */
static conv_case rand_case_pixel_rows(void) {
  conv_case c;
  int64_t cg = rint_in(1, 90), mg = rint_in(32, 110), P;
  memset(&c, 0, sizeof c);
  if (tu_below(&R, 4) == 0) cg = rint_in(260, 330); /* K past two slices with 1x1 */
  c.group = tu_below(&R, 6) == 0 ? 2 : 1;
  c.n = tu_below(&R, 3) == 0 ? 2 : 1;
  do {
    int64_t oh, ow;
    c.kh = rint_in(1, 3), c.kw = rint_in(1, 3);
    c.sh = rint_in(1, 2), c.sw = rint_in(1, 2);
    c.dh = tu_below(&R, 4) == 0 ? 2 : 1, c.dw = tu_below(&R, 4) == 0 ? 2 : 1;
    c.pads[0] = rint_in(0, 1), c.pads[1] = rint_in(0, 1), c.pads[2] = rint_in(0, 1), c.pads[3] = rint_in(0, 1);
    c.h = rint_in(3, 30), c.w = rint_in(3, 30);
    oh = out_dim(c.h, c.kh, c.sh, c.dh, c.pads[0], c.pads[2]);
    ow = out_dim(c.w, c.kw, c.sw, c.dw, c.pads[1], c.pads[3]);
    P = oh * ow;
  } while (P <= GE__AIC_FEW_PIXELS || P > GE__AIC_DT_MAX_PIXELS ||
           ge__aic_round_up(P, 12) * cg * c.kh * c.kw > GE__AIC_DT_MAX_A);
  return case_channels_and_epilogue(c, cg, mg);
}

GE_TEST(test_conv_pixel_rows) {
  int i, taken = 0, vec = 0, streamed = 0;
  double worst = 0;
  tu_seed(&R, 1611);
  ge__aic_dt_choice = 1;
  for (i = 0; i < 60; i++) {
    conv_case c = rand_case_pixel_rows();
    int level;
    int64_t P = out_dim(c.h, c.kh, c.sh, c.dh, c.pads[0], c.pads[2]) * out_dim(c.w, c.kw, c.sw, c.dw, c.pads[1], c.pads[3]);
    double er;
    ge__aic_conv_level_cap = 1 + i % 2;
    level = ge__aic_kern_pick(ge__aic_conv_level_cap)->level;
    er = run_conv_case(&c, 1 + (i / 2) % 2, 0);
    if (!GE_CHECK(er >= 0 && er < TOL))
      printf("  conv kind 11 n %lld c %lld %lldx%lld m %lld g %lld k %lldx%lld s %lld,%lld d %lld,%lld act %s res %d: "
             "%.2g\n",
             (long long)c.n, (long long)c.c, (long long)c.h, (long long)c.w, (long long)c.m, (long long)c.group,
             (long long)c.kh, (long long)c.kw, (long long)c.sh, (long long)c.sw, (long long)c.dh, (long long)c.dw,
             c.act ? c.act : "-", c.residual, er);
    if (er > worst) worst = er;
    if (level >= 1) {
      vec++;
      taken += GE_CHECK_EQ_INT(last_packed_level, 40 + level + 1);
      streamed += level >= 2 && P <= GE__AIC_MC;
    }
  }
  ge__aic_dt_choice = 0;
  ge__aic_conv_level_cap = 2;
  GE_CHECK(vec == 0 || taken == vec);
  GE_CHECK(streamed > 5 || !__builtin_cpu_supports("avx512f"));
  printf("  conv kind 11 (pixels as rows): 60 cases, %d at a vector level took the path (%d streamed), worst rel err "
         "%.2g\n",
         taken, streamed, worst);
}

/* The pointwise path (1x1, stride 1, no pads: weights packed in its own
 * panels, tagged level + 9) at every micro-kernel level, 1 and 2 threads. */
GE_TEST(test_pointwise_levels) {
  int i, done = 0, tails = 0;
  double worst = 0;
  tu_seed(&R, 1616);
  for (i = 0; done < 240; i++) {
    conv_case c = rand_case(8);
    int64_t P = c.one_d ? c.w : c.h * c.w;
    double er;
    ge__aic_conv_level_cap = i % 3;
    er = run_conv_case(&c, 1 + (i / 3) % 2, 0);
    if (er < 0) continue;
    if (!GE_CHECK(er < TOL) || !GE_CHECK(last_packed_level >= 9))
      printf("  pointwise level %d threads %d: n %lld c %lld %lldx%lld m %lld g %lld act %s res %d bias %d: %.2g "
             "(packed %d)\n",
             i % 3, 1 + (i / 3) % 2, (long long)c.n, (long long)c.c, (long long)c.h, (long long)c.w, (long long)c.m,
             (long long)c.group, c.act ? c.act : "-", c.residual, c.bias, er, last_packed_level);
    if (er > worst) worst = er;
    tails += P % 16 != 0;
    done++;
  }
  ge__aic_conv_level_cap = 2;
  GE_CHECK(tails > 100);
  printf("  pointwise: %d cases at 3 levels (1 and 2 threads), %d with pixels past whole vectors, worst rel err %.2g\n",
         done, tails, worst);
}

/* Conv kind 12: convs whose taps read padding for most output pixels
 * (atrous: dilations up to 14 with pads as large on small maps, DeepLab's
 * ASPP) by the path with a GEMM per tap over the output rectangle it reads
 * inside the image (weights packed per tap, tagged 48 + level), at every
 * micro-kernel level, 1 and 2 threads, prepared at load in half the cases:
 * taps dead everywhere, taps reading whole rows in place and gathered
 * windows, strides, groups, batches, 1-D, every epilogue. */
static conv_case rand_case_atrous(void) {
  conv_case c;
  int64_t cg = rint_in(1, 40), mg = rint_in(1, 40);
  memset(&c, 0, sizeof c);
  c.group = tu_below(&R, 5) == 0 ? 2 : 1;
  c.n = tu_below(&R, 4) == 0 ? 2 : 1;
  c.one_d = tu_below(&R, 8) == 0;
  c.h = c.one_d ? 1 : rint_in(1, 16), c.w = rint_in(1, 16);
  c.kh = c.one_d ? 1 : rint_in(1, 3), c.kw = rint_in(1, 3);
  c.sh = c.one_d ? 1 : (tu_below(&R, 4) == 0 ? 2 : 1), c.sw = tu_below(&R, 4) == 0 ? 2 : 1;
  c.dh = c.one_d ? 1 : rint_in(1, 14), c.dw = rint_in(1, 14);
  c.pads[0] = c.one_d ? 0 : rint_in(0, c.dh * (c.kh - 1)), c.pads[2] = c.one_d ? 0 : rint_in(0, c.dh * (c.kh - 1));
  c.pads[1] = rint_in(0, c.dw * (c.kw - 1)), c.pads[3] = rint_in(0, c.dw * (c.kw - 1));
  if (tu_below(&R, 2)) { /* "same" pads, as ASPP has */
    if (!c.one_d) c.pads[0] = c.pads[2] = c.dh * (c.kh - 1) / 2;
    c.pads[1] = c.pads[3] = c.dw * (c.kw - 1) / 2;
  }
  return case_channels_and_epilogue(c, cg, mg);
}

GE_TEST(test_conv_atrous) {
  int i, done = 0, dead = 0;
  double worst = 0;
  tu_seed(&R, 1617);
  for (i = 0; done < 150; i++) {
    conv_case c = rand_case_atrous();
    ge__aic_cv p;
    int level;
    double er;
    memset(&p, 0, sizeof p);
    p.h = c.h, p.w = c.w, p.kh = c.kh, p.kw = c.kw, p.sh = c.sh, p.sw = c.sw, p.dh = c.dh, p.dw = c.dw;
    p.ph = c.pads[0], p.pw = c.pads[1];
    p.oh = out_dim(c.h, c.kh, c.sh, c.dh, c.pads[0], c.pads[2]);
    p.ow = out_dim(c.w, c.kw, c.sw, c.dw, c.pads[1], c.pads[3]);
    if (p.oh < 1 || p.ow < 1 || p.oh * p.ow <= GE__AIC_FEW_PIXELS || !ge__aic_taps_fits(&p) ||
        (c.c == c.group && (c.group > 1 || c.m == 1))) /* few pixels and depthwise go first */
      continue;
    ge__aic_conv_level_cap = i % 3;
    level = ge__aic_kern_pick(ge__aic_conv_level_cap)->level;
    er = run_conv_case(&c, 1 + (i / 3) % 2, 0);
    if (!GE_CHECK(er >= 0 && er < TOL) || !GE_CHECK_EQ_INT(last_packed_level, 48 + level + 1))
      printf("  conv kind 12 n %lld c %lld %lldx%lld m %lld g %lld k %lldx%lld s %lld,%lld d %lld,%lld pads %lld %lld "
             "%lld %lld act %s res %d: %.2g\n",
             (long long)c.n, (long long)c.c, (long long)c.h, (long long)c.w, (long long)c.m, (long long)c.group,
             (long long)c.kh, (long long)c.kw, (long long)c.sh, (long long)c.sw, (long long)c.dh, (long long)c.dw,
             (long long)c.pads[0], (long long)c.pads[1], (long long)c.pads[2], (long long)c.pads[3],
             c.act ? c.act : "-", c.residual, er);
    if (er > worst) worst = er;
    dead += ge__aic_taps_live(p.kh, p.sh, p.dh, p.ph, p.h, p.oh) < p.kh * p.oh &&
            ge__aic_taps_live(p.kh, p.sh, p.dh, p.ph, p.h, p.oh) <= (p.kh - 1) * p.oh;
    done++;
  }
  ge__aic_conv_level_cap = 2;
  GE_CHECK(dead > 30);
  printf("  conv kind 12 (a GEMM per tap): %d cases, %d with a row of taps dead, worst rel err %.2g\n", done, dead,
         worst);
}

/* --------------------------------------- MobileNet-v2 layers (kinds 20, 21) */

/* Its depthwise and pointwise layers through the Conv kernel at every
 * micro-kernel level on 1 and 2 threads (2 threads: four shares a thread,
 * band buffers claimed per share). */
GE_TEST(test_mobilenet_layers) {
  int i, done = 0, kinds[2] = {0, 0}, blocked = 0, narrow = 0, rowed = 0;
  double worst = 0;
  tu_seed(&R, 1620);
  for (i = 0; done < 180; i++) {
    int kind = 20 + i % 2, threads = 1 + (i / 6) % 2;
    conv_case c = rand_case(kind);
    double er;
    ge__aic_conv_level_cap = (i / 2) % 3;
    er = run_conv_case(&c, threads, 0);
    if (er < 0) continue;
    if (!GE_CHECK(er < TOL))
      printf("  mobilenet kind %d level %d threads %d: c %lld %lldx%lld m %lld g %lld s %lld act %s res %d bias %d: "
             "%.2g\n",
             kind, (i / 2) % 3, threads, (long long)c.c, (long long)c.h, (long long)c.w, (long long)c.m,
             (long long)c.group, (long long)c.sh, c.act ? c.act : "-", c.residual, c.bias, er);
    if (er > worst) worst = er;
    kinds[kind - 20]++;
    narrow += kind == 21 && c.m < c.c; /* the pointwise units chunk-major */
    if (kind == 20) {
      ge__aic_cv p;
      memset(&p, 0, sizeof p);
      p.h = c.h, p.w = c.w, p.kh = p.kw = 3, p.sh = c.sh, p.sw = c.sw, p.dh = p.dw = 1, p.ph = p.pw = 1;
      p.oh = out_dim(c.h, 3, c.sh, 1, 1, 1), p.ow = out_dim(c.w, 3, c.sw, 1, 1, 1), p.cg = p.mg = 1;
      blocked += ge__aic_dwc_fits(&p, ge__aic_kern_pick(ge__aic_conv_level_cap)->level) &&
                 !ge__aic_dws_fits(&p, ge__aic_kern_pick(ge__aic_conv_level_cap)->level);
      rowed += !ge__aic_dwc_fits(&p, ge__aic_kern_pick(ge__aic_conv_level_cap)->level) &&
               ge__aic_dw3_fits(&p, ge__aic_kern_pick(ge__aic_conv_level_cap)->level,
                                ge__aic_dw_vl(ge__aic_kern_pick(ge__aic_conv_level_cap)->level, p.ow));
    }
    done++;
  }
  ge__aic_conv_level_cap = 2;
  GE_CHECK(kinds[0] > 60 && kinds[1] > 60 && narrow > 20 && kinds[1] - narrow > 20);
  GE_CHECK((blocked > 3 && rowed > 10) || !__builtin_cpu_supports("avx512f")); /* strided: the stride-2 kernel */
  printf("  MobileNet-v2 layers: %d depthwise (%d channel-blocked, %d 3x3 by rows), %d pointwise (%d narrowing) at 3 "
         "levels (1 and 2 threads), worst rel err %.2g\n",
         kinds[0], blocked, rowed, kinds[1], narrow, worst);
}

/* EfficientNet's 3x3 stride-1 depthwise with SiLU: the 3x3 band kernel
 * (AVX-512, rows past 8) sums, the SiLU follows over each band's rows;
 * residual and bias as drawn, 1 and 2 threads, half prepared at load. */
GE_TEST(test_dw3_band_silu) {
  int i, done = 0;
  double worst = 0;
  tu_seed(&R, 1623);
  for (i = 0; done < 40; i++) {
    conv_case c = rand_case(20);
    double er;
    c.act = "Silu";
    c.sh = c.sw = 1;
    if (c.w <= 8) c.h = c.w = 9 + (int64_t)tu_below(&R, 60);
    ge__aic_conv_level_cap = 2;
    er = run_conv_case(&c, 1 + i % 2, 0);
    if (er < 0) continue;
    if (!GE_CHECK(er < TOL))
      printf("  dw3 SiLU: c %lld %lldx%lld res %d bias %d: %.2g\n", (long long)c.group, (long long)c.h, (long long)c.w,
             c.residual, c.bias, er);
    if (er > worst) worst = er;
    done++;
  }
  printf("  3x3 stride-1 depthwise with SiLU: %d cases, worst rel err %.2g\n", done, worst);
}

/* SiLU applied in the AVX-512 registers (GE__AIC_SILU_V16): depthwise 3x3
 * and 5x5 (the channel-blocked kernel, the 3x3 band kernel on rows of at
 * most 16, the tap-list kernel), pointwise (panel-major, chunk-major with
 * its single columns merged into the last chunk: 7x7 and 14x14 maps) with
 * and without a residual, 1 and 2 threads, against the reference. */
GE_TEST(test_silu_in_registers) {
  int i, done = 0, kinds[3] = {0, 0, 0}, narrow_cols = 0;
  double worst = 0;
  tu_seed(&R, 1631);
  for (i = 0; done < 90; i++) {
    static const int kind_of[3] = {20, 21, 22};
    int k = i % 3, threads = 1 + (i / 3) % 2;
    conv_case c = rand_case(kind_of[k]);
    double er;
    c.act = "Silu";
    if (k == 0 && tu_below(&R, 2)) c.sh = c.sw = 1, c.h = c.w = 9 + (int64_t)tu_below(&R, 8); /* the band kernel */
    ge__aic_conv_level_cap = 2;
    er = run_conv_case(&c, threads, 0);
    if (er < 0) continue;
    if (!GE_CHECK(er < TOL))
      printf("  SiLU in registers kind %d threads %d: c %lld %lldx%lld m %lld s %lld res %d bias %d: %.2g\n",
             kind_of[k], threads, (long long)c.c, (long long)c.h, (long long)c.w, (long long)c.m, (long long)c.sh,
             c.residual, c.bias, er);
    if (er > worst) worst = er;
    kinds[k]++;
    narrow_cols += k == 1 && c.m < c.c && c.h * c.w % 16 != 0;
    done++;
  }
  GE_CHECK(kinds[0] > 20 && kinds[1] > 20 && kinds[2] > 20 && narrow_cols > 3);
  printf("  SiLU in registers: %d depthwise 3x3, %d pointwise (%d narrowing with single columns), %d depthwise 5x5 "
         "(1 and 2 threads), worst rel err %.2g\n",
         kinds[0], kinds[1], narrow_cols, kinds[2], worst);
}

/* n cases of kind through the Conv kernel at every micro-kernel level on
 * 1 and 2 threads against the reference (run_conv_case: activations,
 * residuals and biases as drawn, half the weights prepared at load); each
 * case passed to tally with its level and acc. The worst error. */
static double run_kind_cases(int kind, int n, const char *what, void (*tally)(const conv_case *, int, void *),
                             void *acc) {
  int i, done = 0;
  double worst = 0;
  for (i = 0; done < n; i++) {
    int threads = 1 + (i / 3) % 2;
    conv_case c = rand_case(kind);
    double er;
    ge__aic_conv_level_cap = i % 3;
    er = run_conv_case(&c, threads, 0);
    if (er < 0) continue;
    if (!GE_CHECK(er < TOL))
      printf("  %s level %d threads %d: n %lld c %lld %lldx%lld m %lld k %lldx%lld strides %lld,%lld pads "
             "%lld,%lld,%lld,%lld group %lld act %s res %d bias %d: %.2g\n",
             what, i % 3, threads, (long long)c.n, (long long)c.c, (long long)c.h, (long long)c.w, (long long)c.m,
             (long long)c.kh, (long long)c.kw, (long long)c.sh, (long long)c.sw, (long long)c.pads[0],
             (long long)c.pads[1], (long long)c.pads[2], (long long)c.pads[3], (long long)c.group,
             c.act ? c.act : "-", c.residual, c.bias, er);
    if (er > worst) worst = er;
    tally(&c, i % 3, acc);
    done++;
  }
  ge__aic_conv_level_cap = 2;
  return worst;
}

/* Depthwise tallies (k x k taps, pad k / 2) at level 2: the cases the
 * channel-blocked kernel takes, and those the 5x5 band kernel does. */
typedef struct dw_tally {
  int64_t k;
  int blocked, banded;
} dw_tally;

static void tally_dw(const conv_case *c, int level, void *acc) {
  dw_tally *t = (dw_tally *)acc;
  ge__aic_cv p;
  if (level != 2) return;
  memset(&p, 0, sizeof p);
  p.h = c->h, p.w = c->w, p.kh = p.kw = t->k, p.sh = c->sh, p.sw = c->sw, p.dh = p.dw = 1, p.ph = p.pw = t->k / 2;
  p.oh = out_dim(c->h, t->k, c->sh, 1, t->k / 2, c->pads[2]), p.ow = out_dim(c->w, t->k, c->sw, 1, t->k / 2, c->pads[3]);
  p.cg = p.mg = 1;
  t->blocked += ge__aic_dwc_fits(&p, 2);
  t->banded += !ge__aic_dwc_fits(&p, 2) && ge__aic_dw3_fits(&p, 2, ge__aic_dw_vl(2, p.ow)) == 5; /* dw5_band */
}

/* EfficientNet's 5x5 depthwise layers (kind 22): the channel-blocked
 * kernel at AVX-512 (small maps, any stride, partial 16-channel blocks, a
 * short trailing pad), the band kernel elsewhere. */
GE_TEST(test_efficientnet_dw5) {
  dw_tally t = {5, 0, 0};
  double worst;
  tu_seed(&R, 1622);
  worst = run_kind_cases(22, 120, "dw5", tally_dw, &t);
  GE_CHECK((t.blocked > 10 && t.banded > 3) || !__builtin_cpu_supports("avx512f"));
  printf("  EfficientNet 5x5 depthwise: 120 cases at 3 levels (1 and 2 threads), %d "
         "channel-blocked, %d by the 5x5 band kernel, worst rel err %.2g\n",
         t.blocked, t.banded, worst);
}

/* n cases of a kind at 3 levels (1 and 2 threads) from seed, right; at
 * AVX-512 more than `least` of them on the path tally counts. */
static void check_kind_path(int kind, int n, uint64_t seed, const char *what, const char *path,
                            void (*tally)(const conv_case *, int, void *), int least) {
  int taken = 0;
  double worst;
  tu_seed(&R, seed);
  worst = run_kind_cases(kind, n, what, tally, &taken);
  GE_CHECK(taken > least || !__builtin_cpu_supports("avx512f"));
  printf("  %s: %d cases at 3 levels (1 and 2 threads), %d by the %s, worst rel err %.2g\n", what, n, taken, path,
         worst);
}

/* The geometry of a depthwise case (one input channel a group). */
static ge__aic_cv depthwise_cv(const conv_case *c) {
  ge__aic_cv p;
  memset(&p, 0, sizeof p);
  p.h = c->h, p.w = c->w, p.kh = c->kh, p.kw = c->kw, p.sh = c->sh, p.sw = c->sw, p.dh = c->dh, p.dw = c->dw;
  p.ph = c->pads[0], p.pw = c->pads[1];
  p.oh = out_dim(c->h, c->kh, c->sh, c->dh, c->pads[0], c->pads[2]);
  p.ow = out_dim(c->w, c->kw, c->sw, c->dw, c->pads[1], c->pads[3]);
  p.cg = 1, p.mg = c->m / c->group;
  return p;
}

/* The cases the stride-2 depthwise kernel takes at level 2. */
static void tally_dws(const conv_case *c, int level, void *acc) {
  ge__aic_cv p = depthwise_cv(c);
  *(int *)acc += level == 2 && ge__aic_dws_fits(&p, 2);
}

/* Strided 3x3 and 5x5 depthwise convs (kind 28): at AVX-512 past 4 output columns
 * the stride-2 kernel, which reads even, odd and shifted columns out of two
 * vectors by permutes, masks the padding's lanes and skips its rows; the
 * channel-blocked and band kernels elsewhere. */
GE_TEST(test_dw_stride2) { check_kind_path(28, 200, 2828, "stride-2 depthwise", "stride-2 kernel", tally_dws, 30); }

/* Tallies of the cases the flat depthwise kernel takes at level 2. */
static void tally_dwf(const conv_case *c, int level, void *acc) {
  ge__aic_cv p = depthwise_cv(c);
  *(int *)acc += level == 2 && ge__aic_dwf_fits(&p, 2);
}

/* Depthwise on narrow maps (kind 26): the flat kernel at AVX-512 (plain
 * loads with masked FMAs in the middle planes, masked loads in the first
 * and last, four planes at a time and single ones), the others elsewhere. */
GE_TEST(test_dw_flat) { check_kind_path(26, 150, 1626, "flat depthwise", "flat kernel", tally_dwf, 30); }

/* Few-pixel wide convs (kind 27) at level 2 past one 64-row panel. */
static void tally_wide_few(const conv_case *c, int level, void *acc) {
  *(int *)acc += level == 2 && c->m / c->group > 64;
}

/* Squeeze-excite gates and frame convs (kind 27): constant weights in
 * 64-row panels at AVX-512 (half the cases prepare them at load), two
 * pixels at a time, partial panels; dot products otherwise. */
GE_TEST(test_few_pixels_wide) {
  int wide = 0;
  double worst;
  tu_seed(&R, 1627);
  worst = run_kind_cases(27, 120, "few", tally_wide_few, &wide);
  GE_CHECK(wide > 15);
  printf("  few-pixel wide convs: 120 cases at 3 levels (1 and 2 threads), %d past a panel at level 2, worst rel err "
         "%.2g\n",
         wide, worst);
}

/* ConvNeXt's 7x7 depthwise layers (kind 23): the channel-blocked kernel
 * at AVX-512 on maps up to 56x56 (any stride, partial 16-channel blocks,
 * a short trailing pad, rows shorter than four pixels), the band kernel
 * on larger ones and elsewhere. */
GE_TEST(test_convnext_dw7) {
  dw_tally t = {7, 0, 0};
  double worst;
  tu_seed(&R, 1623);
  worst = run_kind_cases(23, 90, "dw7", tally_dw, &t);
  GE_CHECK(t.blocked > 10 || !__builtin_cpu_supports("avx512f"));
  printf("  ConvNeXt 7x7 depthwise: 90 cases at 3 levels (1 and 2 threads), %d channel-blocked, worst rel err %.2g\n",
         t.blocked, worst);
}

/* Tallies of the cases run as a 1x1 conv over a copy of the input. */
static void tally_patchify(const conv_case *c, int level, void *acc) {
  (void)level;
  *(int *)acc += c->group == 1 && c->h % c->kh == 0 && c->w % c->kw == 0;
}

static void tally_strided_1x1(const conv_case *c, int level, void *acc) {
  int64_t oh = (c->h - 1) / c->sh + 1, ow = (c->w - 1) / c->sw + 1;
  (void)level;
  *(int *)acc += !c->pads[0] && !c->pads[1] && !c->pads[2] && !c->pads[3] && oh * ow > GE__AIC_FEW_PIXELS;
}

/* Convs run as a 1x1 conv over a copy of the input: patchify convs (kind
 * 24) over the input's phase planes where the map is a whole number of
 * patches in one group, strided 1x1 convs (kind 25) without pads over
 * every sh-th row and sw-th column (past a few output pixels); the other
 * paths elsewhere. */
GE_TEST(test_conv_as_1x1) {
  int patch = 0, sub = 0;
  double worst[2];
  tu_seed(&R, 1624);
  worst[0] = run_kind_cases(24, 120, "patchify", tally_patchify, &patch);
  worst[1] = run_kind_cases(25, 120, "strided 1x1", tally_strided_1x1, &sub);
  GE_CHECK(patch > 60 && sub > 60);
  printf("  patchify and strided 1x1 convs: 120 cases each at 3 levels (1 and 2 threads), %d over phase planes and %d "
         "over the subsampled input, worst rel err %.2g and %.2g\n",
         patch, sub, worst[0], worst[1]);
}

/* SqueezeNet's expand convs (kind 31) at every micro-kernel level on 1 and 2
 * threads: at AVX-512 most take the small-image direct conv (packing tags
 * 16..23) rather than Winograd (24..), the largest Winograd; where a 512-bit
 * FMA runs as two halves (ge__aic_fma512_half) most take Winograd, those
 * F(2x2) would take the direct conv. */
GE_TEST(test_squeeze_expand) {
  int i, done = 0, direct = 0, wino = 0;
  double worst = 0;
  tu_seed(&R, 3131);
  for (i = 0; done < 60; i++) {
    conv_case c = rand_case(31);
    int level = 2 - i % 3, threads = 1 + (i / 3) % 2;
    double er;
    ge__aic_conv_level_cap = level;
    er = run_conv_case(&c, threads, 1);
    if (er < 0) continue;
    if (!GE_CHECK(er < TOL))
      printf("  squeeze expand level %d threads %d: n %lld c %lld %lldx%lld m %lld pads %lld,%lld,%lld,%lld res %d: "
             "%.2g (packed %d)\n",
             level, threads, (long long)c.n, (long long)c.c, (long long)c.h, (long long)c.w, (long long)c.m,
             (long long)c.pads[0], (long long)c.pads[1], (long long)c.pads[2], (long long)c.pads[3], c.residual, er,
             last_packed_level);
    if (er > worst) worst = er;
    if (level == 2) direct += last_packed_level >= 16 && last_packed_level < 24, wino += last_packed_level >= 24;
    done++;
  }
  ge__aic_conv_level_cap = 2;
  GE_CHECK(!__builtin_cpu_supports("avx512f") ||
           (ge__aic_fma512_half() ? direct > 1 && wino > 8 : direct > 8 && wino > 1));
  printf("  squeeze expand convs: %d cases at 3 levels (1 and 2 threads), at AVX-512 %d direct and %d Winograd, "
         "worst rel err %.2g\n",
         done, direct, wino, worst);
}

/* Few output channels (kind 30): the small-image direct conv's 8-row tiles,
 * past its pixel limit too, with dilations up to 8, at every micro-kernel
 * level (below AVX-512 the implicit GEMM) on 1 and 2 threads. */
GE_TEST(test_few_channel_levels) {
  int i, done = 0, direct = 0, big = 0, dilated = 0;
  double worst = 0;
  tu_seed(&R, 3030);
  for (i = 0; done < 150; i++) {
    conv_case c = rand_case(30);
    int64_t oh = c.one_d ? 1 : out_dim(c.h, c.kh, c.sh, c.dh, c.pads[0], c.pads[2]);
    int64_t ow = out_dim(c.w, c.kw, c.sw, c.dw, c.pads[1], c.pads[3]);
    int level = i % 3, threads = 1 + (i / 3) % 2;
    double er;
    ge__aic_conv_level_cap = level;
    er = run_conv_case(&c, threads, 0);
    if (er < 0) continue;
    if (!GE_CHECK(er < TOL))
      printf("  few-channel level %d threads %d: n %lld c %lld %lldx%lld m %lld g %lld k %lldx%lld d %lld pads "
             "%lld,%lld,%lld,%lld act %s res %d: %.2g (packed %d)\n",
             level, threads, (long long)c.n, (long long)c.c, (long long)c.h, (long long)c.w, (long long)c.m,
             (long long)c.group, (long long)c.kh, (long long)c.kw, (long long)c.dh, (long long)c.pads[0],
             (long long)c.pads[1], (long long)c.pads[2], (long long)c.pads[3], c.act ? c.act : "-", c.residual, er,
             last_packed_level);
    if (er > worst) worst = er;
    if (last_packed_level >= 16 && last_packed_level < 24) {
      direct++;
      big += oh * ow > 2560;
      dilated += c.dh > 1;
    }
    done++;
  }
  ge__aic_conv_level_cap = 2;
  GE_CHECK(!__builtin_cpu_supports("avx512f") || (direct > 25 && big > 10 && dilated > 10));
  printf("  few-channel convs: %d cases at 3 levels (1 and 2 threads), %d on the direct path (%d past 2560 pixels, "
         "%d dilated), worst rel err %.2g\n",
         done, direct, big, dilated, worst);
}

/* ----------------------------------------------------- depthwise levels */

/* A parallel_for that runs every index on a thread of its own, up to 16 at
 * once, whatever num_threads says: more shares at once than the kernel has
 * band buffers (a pool larger than its thread count). */
typedef struct every_share {
  ge_parallel_fn fn;
  void *arg;
  int64_t i;
} every_share;

static void *every_share_run(void *p) {
  every_share *s = (every_share *)p;
  s->fn(s->arg, s->i, s->i + 1);
  return NULL;
}

static void every_index_parallel_for(ge_kernel_env *env, int64_t n, int64_t grain, ge_parallel_fn fn, void *arg) {
  every_share sh[16];
  pthread_t th[16];
  int started[16];
  int64_t b, i, k;
  (void)env, (void)grain;
  for (b = 0; b < n; b += k) {
    k = n - b < 16 ? n - b : 16;
    for (i = 0; i < k; i++) {
      sh[i].fn = fn, sh[i].arg = arg, sh[i].i = b + i;
      started[i] = pthread_create(&th[i], NULL, every_share_run, &sh[i]) == 0;
      if (!started[i]) every_share_run(&sh[i]);
    }
    for (i = 0; i < k; i++)
      if (started[i]) pthread_join(th[i], NULL);
  }
}

/* run_dw_level's pool when not NULL (2 threads and more). */
static void (*dw_pool)(ge_kernel_env *, int64_t, int64_t, ge_parallel_fn, void *);

/* The depthwise kernel called directly at vector level `level` (0 the
 * baseline or scalar code, 1 AVX2, 2 AVX-512) on `threads` threads, against
 * the host CPU reference Conv plus residual and activation in double. The
 * output starts as NaN, so a lane never written shows. */
static double run_dw_level(const conv_case *cs, int level, int threads) {
  int32_t r = cs->one_d ? 3 : 4;
  int64_t xd[4], wd[4], bd[1], yd[4], pd[4], st[2], dl[2], xn, yn, wn, i;
  float *x, *w, *b, *res, *y, *work;
  ge_value vx, vw, vb, vres, ref;
  ge_value *in[3];
  ge_edge e[3];
  ge__aic_cv p;
  ge__aic_act act;
  kt t;
  ctx_env ce;
  double er = 1e9;
  memset(&p, 0, sizeof p);
  p.n = cs->n, p.c = cs->c, p.m = cs->m, p.group = cs->group, p.cg = 1, p.mg = cs->m / cs->group;
  p.h = cs->one_d ? 1 : cs->h, p.w = cs->w, p.kh = cs->one_d ? 1 : cs->kh, p.kw = cs->kw;
  p.sh = cs->one_d ? 1 : cs->sh, p.sw = cs->sw, p.dh = cs->one_d ? 1 : cs->dh, p.dw = cs->dw;
  p.ph = cs->one_d ? 0 : cs->pads[0], p.pw = cs->pads[1];
  p.oh = cs->one_d ? 1 : out_dim(cs->h, cs->kh, cs->sh, cs->dh, cs->pads[0], cs->pads[2]);
  p.ow = out_dim(cs->w, cs->kw, cs->sw, cs->dw, cs->pads[1], cs->pads[3]);
  if (p.oh < 1 || p.ow < 1) return -1;
  xd[0] = p.n, xd[1] = p.c, wd[0] = p.m, wd[1] = 1, yd[0] = p.n, yd[1] = p.m, bd[0] = p.m;
  if (cs->one_d) xd[2] = p.w, wd[2] = p.kw, yd[2] = p.ow;
  else xd[2] = p.h, xd[3] = p.w, wd[2] = p.kh, wd[3] = p.kw, yd[2] = p.oh, yd[3] = p.ow;
  xn = p.n * p.c * p.h * p.w, yn = p.n * p.m * p.oh * p.ow, wn = p.m * p.kh * p.kw;
  x = rand_floats(xn), w = rand_floats(wn), b = rand_floats(p.m), res = rand_floats(yn);
  y = (float *)malloc((size_t)yn * sizeof(float));
  for (i = 0; i < yn; i++) y[i] = NAN;
  work = (float *)malloc(((size_t)threads * ge__aic_dw_floats(&p, level) + 16) * sizeof(float));
  memset(&t, 0, sizeof t);
  ge_graph_create(NULL, &t.g, &t.err);
  ge_graph_add_data(t.g, NULL, GE_DTYPE_FLOAT32, r, xd, &e[0].node, NULL);
  ge_graph_add_data(t.g, NULL, GE_DTYPE_FLOAT32, r, wd, &e[1].node, NULL);
  ge_graph_add_data(t.g, NULL, GE_DTYPE_FLOAT32, 1, bd, &e[2].node, NULL);
  e[0].index = e[1].index = e[2].index = 0;
  ge_graph_add_node(t.g, "Conv", "conv", cs->bias ? 3 : 2, e, 1, &t.id, &t.err);
  st[0] = p.sh, st[1] = p.sw, dl[0] = p.dh, dl[1] = p.dw;
  pd[0] = cs->pads[0], pd[1] = cs->pads[1], pd[2] = cs->pads[2], pd[3] = cs->pads[3];
  if (cs->one_d) st[0] = p.sw, dl[0] = p.dw, pd[0] = cs->pads[1], pd[1] = cs->pads[3];
  ge_node_set_attr_ints(t.g, t.id, "strides", st, r - 2, NULL);
  ge_node_set_attr_ints(t.g, t.id, "dilations", dl, r - 2, NULL);
  ge_node_set_attr_ints(t.g, t.id, "pads", pd, 2 * (r - 2), NULL);
  ge_node_set_attr_int(t.g, t.id, "group", p.group, NULL);
  if (cs->act) {
    ge_node_set_attr_string(t.g, t.id, "_fused_activation", cs->act, NULL);
    if (!strcmp(cs->act, "Clip") || !strcmp(cs->act, "LeakyRelu") || !strcmp(cs->act, "HardSigmoid")) {
      ge_node_set_attr_float(t.g, t.id, "_fused_alpha", cs->alpha, NULL);
      ge_node_set_attr_float(t.g, t.id, "_fused_beta", cs->beta, NULL);
    }
  }
  ge__aic_act_parse(ge_graph_node(t.g, t.id), &act);
  vx = kh_value(GE_DTYPE_FLOAT32, r, xd, x), vw = kh_value(GE_DTYPE_FLOAT32, r, wd, w);
  vb = kh_value(GE_DTYPE_FLOAT32, 1, bd, b), vres = kh_value(GE_DTYPE_FLOAT32, r, yd, res);
  in[0] = &vx, in[1] = &vw, in[2] = &vb;
  memset(&ref, 0, sizeof ref);
  ctx_init(&ce, threads, &t, in, 3, NULL);
  if (threads > 1 && dw_pool) ce.env.parallel_for = dw_pool;
  if (GE_CHECK(kh_run(ge_host_cpu_kernel(ge_graph_node(t.g, t.id)), t.g, t.id, in, cs->bias ? 3 : 2, &ref, 1,
                      &t.err) == GE_OK) &&
      GE_CHECK(ref.numel == yn) && GE_CHECK(work != NULL)) {
    ge__aic_conv_depthwise(&ce.c, &p, x, w, cs->bias ? b : NULL, cs->residual ? res : NULL, &act, y, level, work);
    for (i = 0; i < yn; i++) {
      double v = ((float *)ref.data)[i] + (cs->residual ? res[i] : 0.0f);
      ((float *)ref.data)[i] = (float)act_ref(cs->act, cs->alpha, cs->beta, v);
    }
    er = rel_err(y, (const float *)ref.data, yn);
  }
  kh_free(&ref), kh_free(&vx), kh_free(&vw), kh_free(&vb), kh_free(&vres);
  free(x), free(w), free(b), free(res), free(y), free(work);
  kt_free(&t);
  return er;
}

GE_TEST(test_depthwise_levels) {
  int levels = 1, i, lv, done = 0, banded = 0;
  double worst = 0;
#ifdef GE__AIC_X86
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) levels = 2;
  if (levels == 2 && __builtin_cpu_supports("avx512f")) levels = 3;
#endif
  tu_seed(&R, 1602);
  for (i = 0; done < 240; i++) {
    conv_case c = rand_case(i % 3 ? 4 : 1);
    ge__aic_dwg g;
    if (i % 5 == 0) c.w = rint_in(100, 330), c.h = c.one_d ? 1 : rint_in(20, 70); /* several bands, long rows */
    if (c.kh * c.kw > GE__AIC_DW_TAPS) continue;
    for (lv = 0; lv < levels; lv++) {
      int threads = 1 + ((i + lv) & 1);
      double er = run_dw_level(&c, lv, threads);
      if (er < 0) break;
      if (!GE_CHECK(er < TOL))
        printf("  depthwise level %d threads %d: n %lld c %lld %lldx%lld m %lld k %lldx%lld s %lld,%lld d %lld,%lld "
               "pads %lld,%lld,%lld,%lld act %s res %d bias %d: %.2g\n",
               lv, threads, (long long)c.n, (long long)c.c, (long long)c.h, (long long)c.w, (long long)c.m,
               (long long)c.kh, (long long)c.kw, (long long)c.sh, (long long)c.sw, (long long)c.dh, (long long)c.dw,
               (long long)c.pads[0], (long long)c.pads[1], (long long)c.pads[2], (long long)c.pads[3],
               c.act ? c.act : "-", c.residual, c.bias, er);
      if (er > worst) worst = er;
      if (lv == levels - 1) done++;
    }
    {
      ge__aic_cv p;
      memset(&p, 0, sizeof p);
      p.h = c.h, p.w = c.w, p.kh = c.kh, p.kw = c.kw, p.sh = c.sh, p.sw = c.sw, p.dh = c.dh, p.dw = c.dw;
      p.ph = c.pads[0], p.pw = c.pads[1];
      p.oh = out_dim(c.h, c.kh, c.sh, c.dh, c.pads[0], c.pads[2]), p.ow = out_dim(c.w, c.kw, c.sw, c.dw, c.pads[1], c.pads[3]);
      if (p.oh > 0 && p.ow > 0) {
        ge__aic_dw_geom(&p, 0, &g);
        banded += g.band < p.oh;
      }
    }
  }
  GE_CHECK(banded > 10);
  printf("  depthwise: %d cases at %d vector levels (1 and 2 threads), %d in several bands, worst rel err %.2g\n", done,
         levels, banded, worst);
}

/* Depthwise shares on more threads at once than the kernel has band
 * buffers: the shares left without one take the generic path, and the
 * result stays right (kind 20 shapes, every level). */
GE_TEST(test_depthwise_oversubscribed) {
  int levels = 1, i, lv, done = 0;
  double worst = 0;
#ifdef GE__AIC_X86
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) levels = 2;
  if (levels == 2 && __builtin_cpu_supports("avx512f")) levels = 3;
#endif
  tu_seed(&R, 1621);
  dw_pool = every_index_parallel_for;
  for (i = 0; i < 30; i++) {
    conv_case c = rand_case(20);
    for (lv = 0; lv < levels; lv++) {
      double er = run_dw_level(&c, lv, 2);
      if (er < 0) continue;
      if (!GE_CHECK(er < TOL))
        printf("  depthwise oversubscribed level %d: c %lld %lldx%lld s %lld act %s res %d: %.2g\n", lv,
               (long long)c.c, (long long)c.h, (long long)c.w, (long long)c.sh, c.act ? c.act : "-", c.residual, er);
      if (er > worst) worst = er;
      done++;
    }
  }
  dw_pool = NULL;
  printf("  depthwise on more threads than band buffers: %d cases, worst rel err %.2g\n", done, worst);
}

/* -------------------------------------------------------- ConvTranspose */

/* One random ConvTranspose (1-D or 2-D; groups, strides, dilations, pads,
 * output_padding, output_shape or auto_pad, bias or none): the AI Core
 * kernel twice (weights packed once when Const, a new input the second
 * time) against the host reference. Returns the worse relative error, -1
 * when the shape is invalid (the reference refuses it too). */
static double run_convt_case(int threads, int const_w, int *shape_kind) {
  int one_d = tu_below(&R, 4) == 0, r = one_d ? 3 : 4, sp = r - 2, round, i;
  int64_t group = tu_below(&R, 3) == 0 ? rint_in(2, 3) : 1, cg = rint_in(1, 9), mg = rint_in(1, 8), n = rint_in(1, 2);
  int64_t xd[4], wd[4], bd[1], st[2], dl[2], pd[4], op[2], os[2], wn, xn;
  const char *auto_pad = NULL;
  float *w, *b;
  ge_value vw, vb, out, ref;
  ge_value *in[3];
  ge_edge e[3];
  kt t;
  ctx_env ce;
  double worst = 0;
  xd[0] = n, xd[1] = cg * group, wd[0] = cg * group, wd[1] = mg, bd[0] = mg * group;
  for (i = 0; i < sp; i++) {
    int64_t k = rint_in(1, 4);
    xd[2 + i] = rint_in(1, 15);
    wd[2 + i] = k;
    st[i] = rint_in(1, 3);
    dl[i] = rint_in(1, 2);
    pd[i] = rint_in(0, k - 1);
    pd[sp + i] = rint_in(0, k - 1);
    op[i] = rint_in(0, (st[i] > dl[i] ? st[i] : dl[i]) - 1);
    os[i] = st[i] * (xd[2 + i] - 1) + op[i] + (k - 1) * dl[i] + 1 - rint_in(0, 2 * k - 2);
  }
  *shape_kind = (int)tu_below(&R, 4); /* 0, 1 pads + output_padding; 2 output_shape; 3 auto_pad SAME_* */
  if (*shape_kind == 3) auto_pad = tu_below(&R, 2) ? "SAME_UPPER" : "SAME_LOWER";
  wn = wd[0] * wd[1] * wd[2] * (one_d ? 1 : wd[3]);
  xn = xd[0] * xd[1] * xd[2] * (one_d ? 1 : xd[3]);
  w = rand_floats(wn);
  b = rand_floats(bd[0]);
  memset(&t, 0, sizeof t);
  ge_graph_create(NULL, &t.g, &t.err);
  ge_graph_add_data(t.g, NULL, GE_DTYPE_FLOAT32, r, xd, &e[0].node, NULL);
  if (const_w) e[1].node = add_const(t.g, r, wd, w, wn);
  else ge_graph_add_data(t.g, NULL, GE_DTYPE_FLOAT32, r, wd, &e[1].node, NULL);
  e[2].node = tu_below(&R, 2) ? add_const(t.g, 1, bd, b, bd[0]) : GE_NONE;
  e[0].index = e[1].index = e[2].index = 0;
  ge_graph_add_node(t.g, "ConvTranspose", "convt", 3, e, 1, &t.id, &t.err);
  ge_node_set_attr_ints(t.g, t.id, "strides", st, sp, NULL);
  ge_node_set_attr_ints(t.g, t.id, "dilations", dl, sp, NULL);
  ge_node_set_attr_int(t.g, t.id, "group", group, NULL);
  if (*shape_kind <= 1) {
    ge_node_set_attr_ints(t.g, t.id, "pads", pd, 2 * sp, NULL);
    ge_node_set_attr_ints(t.g, t.id, "output_padding", op, sp, NULL);
  } else if (*shape_kind == 2) {
    ge_node_set_attr_ints(t.g, t.id, "output_shape", os, sp, NULL);
  } else {
    ge_node_set_attr_string(t.g, t.id, "auto_pad", auto_pad, NULL);
  }
  {
    ge_value vx;
    vw = kh_value(GE_DTYPE_FLOAT32, r, wd, w);
    vb = kh_value(GE_DTYPE_FLOAT32, 1, bd, b);
    ge_status ps = GE_OK;
    memset(&out, 0, sizeof out);
    ctx_init(&ce, threads, &t, in, 3, &out);
    if (group & 1) { /* prepared at load first (an error there is the run's error) */
      memset(&vx, 0, sizeof vx);
      ge_value_set_shape(&vx, GE_DTYPE_FLOAT32, r, xd);
      in[0] = &vx, in[1] = &vw, in[2] = e[2].node != GE_NONE ? &vb : NULL;
      ps = aic_prepare(&t, &ce.c);
    }
    for (round = 0; round < 2 && worst >= 0; round++) {
      float *xr = rand_floats(xn);
      ge_status rs;
      vx = kh_value(GE_DTYPE_FLOAT32, r, xd, xr);
      in[0] = &vx, in[1] = &vw, in[2] = e[2].node != GE_NONE ? &vb : NULL;
      memset(&ref, 0, sizeof ref);
      rs = kh_run(ge_host_cpu_kernel(ge_graph_node(t.g, t.id)), t.g, t.id, in, 3, &ref, 1, &t.err);
      GE_CHECK(rs != GE_OK || ps == GE_OK);
      if (rs != GE_OK) {
        GE_CHECK(ge_ai_core_engine()->kernel(ge_ai_core_engine(), ge_graph_node(t.g, t.id))(&ce.c) != GE_OK);
        worst = -1;
      } else if (!GE_CHECK(ge_ai_core_engine()->kernel(ge_ai_core_engine(), ge_graph_node(t.g, t.id))(&ce.c) ==
                           GE_OK) ||
                 !GE_CHECK(out.numel == ref.numel && out.rank == ref.rank)) {
        printf("  convtranspose error: %s\n", t.err.message);
        worst = 1e9;
      } else {
        double er = rel_err((const float *)out.data, (const float *)ref.data, ref.numel);
        for (i = 0; i < ref.rank; i++) GE_CHECK(out.dims[i] == ref.dims[i]);
        if (er > worst) worst = er;
      }
      kh_free(&ref);
      kh_free(&vx);
      free(xr);
    }
    ge_kernel_free_state(&ce.c);
    kh_free(&out);
    kh_free(&vw);
    kh_free(&vb);
  }
  free(w);
  free(b);
  kt_free(&t);
  return worst;
}

GE_TEST(test_convtranspose_fast) {
  int i, done = 0, kinds[4] = {0, 0, 0, 0}, refused = 0;
  double worst = 0;
  tu_seed(&R, 1603);
  for (i = 0; done < 200 && i < 1000; i++) {
    int kind;
    double er = run_convt_case(1 + (i & 1), (i & 2) == 0, &kind);
    if (er < 0) {
      refused++;
      continue;
    }
    if (!GE_CHECK(er < TOL)) printf("  convtranspose case %d (shape kind %d): rel err %.2g\n", i, kind, er);
    if (er > worst) worst = er;
    kinds[kind]++;
    done++;
  }
  GE_CHECK(done == 200 && kinds[2] > 20 && kinds[3] > 20);
  printf("  ConvTranspose: %d cases (%d output_shape, %d auto_pad), %d refused by both, worst rel err %.2g\n", done,
         kinds[2], kinds[3], refused, worst);
}

/* ------------------------------------------------------- MatMul, Gemm */

/* MatMul A [b, M, K] x Const B [K, N], or Gemm (transA/transB, alpha, beta,
 * C [N]) with a Const B: the AI Core kernel twice (B packed once) against
 * the host reference. */
static double run_product_case(int gemm, int threads) {
  int64_t bt = gemm ? 1 : rint_in(1, 3), M = rint_in(1, 70), K = rint_in(1, 300), N = rint_in(1, 90);
  int ta = gemm && tu_below(&R, 2), tb = gemm && tu_below(&R, 2);
  int64_t ad[3], bd[2], cd[1], an, bn;
  float *bdat, *cdat;
  ge_value va, vb, vc, out, ref;
  ge_value *in[3];
  ge_edge e[3];
  kt t;
  ctx_env ce;
  double worst = 0;
  int round;
  if (gemm) ad[0] = ta ? K : M, ad[1] = ta ? M : K;
  else ad[0] = bt, ad[1] = M, ad[2] = K;
  bd[0] = tb ? N : K, bd[1] = tb ? K : N;
  cd[0] = N;
  an = bt * M * K;
  bn = K * N;
  bdat = rand_floats(bn);
  cdat = rand_floats(N);
  memset(&t, 0, sizeof t);
  ge_graph_create(NULL, &t.g, &t.err);
  ge_graph_add_data(t.g, NULL, GE_DTYPE_FLOAT32, gemm ? 2 : 3, ad, &e[0].node, NULL);
  e[1].node = add_const(t.g, 2, bd, bdat, bn);
  e[2].node = gemm ? add_const(t.g, 1, cd, cdat, N) : GE_NONE;
  e[0].index = e[1].index = e[2].index = 0;
  ge_graph_add_node(t.g, gemm ? "Gemm" : "MatMul", "mm", gemm ? 3 : 2, e, 1, &t.id, &t.err);
  if (gemm) {
    ge_node_set_attr_int(t.g, t.id, "transA", ta, NULL);
    ge_node_set_attr_int(t.g, t.id, "transB", tb, NULL);
    ge_node_set_attr_float(t.g, t.id, "alpha", 0.75, NULL);
    ge_node_set_attr_float(t.g, t.id, "beta", 1.5, NULL);
  }
  vb = kh_value(GE_DTYPE_FLOAT32, 2, bd, bdat);
  vc = kh_value(GE_DTYPE_FLOAT32, 1, cd, cdat);
  memset(&out, 0, sizeof out);
  ctx_init(&ce, threads, &t, in, gemm ? 3 : 2, &out);
  if (N & 1) { /* half the cases are prepared at load first: B packed */
    memset(&va, 0, sizeof va);
    ge_value_set_shape(&va, GE_DTYPE_FLOAT32, gemm ? 2 : 3, ad);
    in[0] = &va, in[1] = &vb, in[2] = gemm ? &vc : NULL;
    GE_CHECK(aic_prepare(&t, &ce.c) == GE_OK);
    GE_CHECK((N <= GE__AIC_SKINNY_COLS && bt * M > GE__AIC_SKINNY_ROWS) ||
             ((ge__aic_state *)ce.c.state)->packed_level > 0);
  }
  for (round = 0; round < 2; round++) {
    float *adat = rand_floats(an);
    va = kh_value(GE_DTYPE_FLOAT32, gemm ? 2 : 3, ad, adat);
    in[0] = &va, in[1] = &vb, in[2] = gemm ? &vc : NULL;
    memset(&ref, 0, sizeof ref);
    if (!GE_CHECK(kh_run(ge_host_cpu_kernel(ge_graph_node(t.g, t.id)), t.g, t.id, in, gemm ? 3 : 2, &ref, 1, &t.err) ==
                  GE_OK) ||
        !GE_CHECK(ge_ai_core_engine()->kernel(ge_ai_core_engine(), ge_graph_node(t.g, t.id))(&ce.c) == GE_OK) ||
        !GE_CHECK(out.numel == ref.numel)) {
      printf("  product error: %s\n", t.err.message);
      worst = 1e9;
    } else {
      double er = rel_err((const float *)out.data, (const float *)ref.data, ref.numel);
      if (er > worst) worst = er;
    }
    /* packed once, but for a B of a few columns against many rows (packed 8 wide per run) */
    GE_CHECK(round == 0 || (N <= GE__AIC_SKINNY_COLS && bt * M > GE__AIC_SKINNY_ROWS) ||
             ((ge__aic_state *)ce.c.state)->packed_level > 0);
    kh_free(&ref);
    kh_free(&va);
    free(adat);
  }
  ge_kernel_free_state(&ce.c);
  kh_free(&out);
  kh_free(&vb);
  kh_free(&vc);
  free(bdat);
  free(cdat);
  kt_free(&t);
  return worst;
}

GE_TEST(test_products_const_b) {
  int i;
  double worst = 0;
  tu_seed(&R, 1602);
  for (i = 0; i < 120; i++) {
    double er = run_product_case(i % 2, 1 + (i / 2) % 2);
    GE_CHECK(er < TOL);
    if (er > worst) worst = er;
  }
  printf("  MatMul/Gemm with Const B: 120 cases, worst rel err %.2g\n", worst);
}

/* --------------------------------------------- small batched MatMul */

/* The attention-sized product at every vector level this CPU runs, against
 * a double loop: N across several 4-vector chunks and tails, K 0 too. */
GE_TEST(test_small_batched_levels) {
  int level, i, levels = 0;
  double worst = 0;
  tu_seed(&R, 1616);
  for (level = 0; level <= 2; level++) {
    if (ge__aic_kern_pick(level)->level != level) continue;
    levels++;
    for (i = 0; i < 40; i++) {
      int64_t M = rint_in(1, 40), N = rint_in(1, 140), K = rint_in(0, 70), r, cc, p;
      float *A = rand_floats(M * K), *B = rand_floats(K * N), *C = rand_floats(M * N);
      float *want = (float *)malloc((size_t)(M * N) * sizeof(float));
      double er;
      for (r = 0; r < M; r++)
        for (cc = 0; cc < N; cc++) {
          double acc = 0;
          for (p = 0; p < K; p++) acc += (double)A[r * K + p] * B[p * N + cc];
          want[r * N + cc] = (float)acc;
        }
      ge__aic_sbmm(level, A, B, C, M, N, K);
      er = rel_err(C, want, M * N);
      if (!GE_CHECK(er < TOL))
        printf("  level %d M %lld N %lld K %lld: rel err %.2g\n", level, (long long)M, (long long)N, (long long)K, er);
      if (er > worst) worst = er;
      free(A), free(B), free(C), free(want);
    }
  }
  GE_CHECK(levels >= 1);
  printf("  small batched products: 40 cases at %d levels, worst rel err %.2g\n", levels, worst);
}

/* MatMul of two run-time operands with batch dims (ranks 3 and 4, dims of
 * 1 broadcast on either side, a batch dim of 0), small enough for the
 * batched path or above its limit, on 1 and 2 threads, against the host
 * reference. */
GE_TEST(test_matmul_batched) {
  int i, small = 0;
  double worst = 0;
  tu_seed(&R, 1617);
  for (i = 0; i < 80; i++) {
    int threads = 1 + i % 2, big = i % 10 == 9;
    int32_t ra = (int32_t)rint_in(3, 4), rb = (int32_t)rint_in(3, 4), r = ra > rb ? ra : rb, d;
    int64_t M = big ? 70 : rint_in(1, 64), K = big ? 70 : rint_in(1, 64), N = big ? 60 : rint_in(1, 64);
    int64_t ad[4], bd[4], an = M * K, bn = K * N;
    float *adat, *bdat;
    ge_value va, vb, out, ref, *in[2];
    ge_edge e[2];
    kt t;
    ctx_env ce;
    for (d = 0; d < r - 2; d++) { /* batch dim d of the broadcast shape */
      int64_t full = i % 17 == 5 && d == 0 ? 0 : rint_in(1, 3), ia = d - (r - ra), ib = d - (r - rb);
      int which = (int)tu_below(&R, 3); /* 0 both full, 1 A broadcast, 2 B broadcast */
      if (ia >= 0) ad[ia] = which == 1 ? 1 : full;
      if (ib >= 0) bd[ib] = which == 2 ? 1 : full;
    }
    ad[ra - 2] = M, ad[ra - 1] = K, bd[rb - 2] = K, bd[rb - 1] = N;
    for (d = 0; d < ra - 2; d++) an *= ad[d];
    for (d = 0; d < rb - 2; d++) bn *= bd[d];
    small += !big;
    adat = rand_floats(an), bdat = rand_floats(bn);
    memset(&t, 0, sizeof t);
    ge_graph_create(NULL, &t.g, &t.err);
    ge_graph_add_data(t.g, NULL, GE_DTYPE_FLOAT32, ra, ad, &e[0].node, NULL);
    ge_graph_add_data(t.g, NULL, GE_DTYPE_FLOAT32, rb, bd, &e[1].node, NULL);
    e[0].index = e[1].index = 0;
    ge_graph_add_node(t.g, "MatMul", "mm", 2, e, 1, &t.id, &t.err);
    va = kh_value(GE_DTYPE_FLOAT32, ra, ad, adat);
    vb = kh_value(GE_DTYPE_FLOAT32, rb, bd, bdat);
    in[0] = &va, in[1] = &vb;
    memset(&out, 0, sizeof out);
    memset(&ref, 0, sizeof ref);
    ctx_init(&ce, threads, &t, in, 2, &out);
    if (!GE_CHECK(kh_run(ge_host_cpu_kernel(ge_graph_node(t.g, t.id)), t.g, t.id, in, 2, &ref, 1, &t.err) == GE_OK) ||
        !GE_CHECK(ge_ai_core_engine()->kernel(ge_ai_core_engine(), ge_graph_node(t.g, t.id))(&ce.c) == GE_OK) ||
        !GE_CHECK(out.numel == ref.numel && out.rank == ref.rank)) {
      printf("  batched MatMul error: %s\n", t.err.message);
    } else {
      double er = rel_err((const float *)out.data, (const float *)ref.data, ref.numel);
      for (d = 0; d < ref.rank; d++) GE_CHECK_EQ_INT(out.dims[d], ref.dims[d]);
      if (!GE_CHECK(er < TOL)) printf("  batched MatMul ranks %d %d M %lld N %lld K %lld: rel err %.2g\n", (int)ra,
                                      (int)rb, (long long)M, (long long)N, (long long)K, er);
      if (er > worst) worst = er;
    }
    ge_kernel_free_state(&ce.c);
    kh_free(&out), kh_free(&ref), kh_free(&va), kh_free(&vb);
    free(adat), free(bdat);
    kt_free(&t);
  }
  printf("  batched MatMul: 80 cases (%d on the small path), worst rel err %.2g\n", small, worst);
}

/* ------------------------------------------------------------ 3-D Conv */

/* Random 3-D convs (groups, strides, dilations, pads, bias, a fused
 * residual and activation; some with enough channels for several blocks
 * of unfolded input) on 1 and 2 threads, half prepared at load, against
 * the host reference + residual + activation. */
GE_TEST(test_conv3d_fast) {
  int i;
  double worst = 0;
  tu_seed(&R, 1660);
  for (i = 0; i < 60; i++) {
    int64_t group = tu_below(&R, 4) == 0 ? 2 : 1, cg = i % 10 == 9 ? 40 : rint_in(1, 4), mg = rint_in(1, 9);
    int64_t xd[5], wd[5], yd[5], bd[1], st[3], dl[3], pd[6], xn = 1, wn = 1, yn = 1;
    int bias = (int)tu_below(&R, 2), residual = (int)tu_below(&R, 2), threads = 1 + i % 2, d, ok = 1;
    const char *act = act_names[tu_below(&R, 8)];
    float *xr, *w, *b, *res;
    ge_value vx, vw, vb, vres, out, ref, *in[4];
    ge_edge e[4];
    kt t;
    ctx_env ce;
    xd[0] = yd[0] = rint_in(1, 2), xd[1] = cg * group, wd[0] = yd[1] = mg * group, wd[1] = cg, bd[0] = mg * group;
    for (d = 0; d < 3; d++) {
      wd[2 + d] = rint_in(1, 3), st[d] = rint_in(1, 2), dl[d] = rint_in(1, 2);
      pd[d] = rint_in(0, 2), pd[3 + d] = rint_in(0, 2);
      xd[2 + d] = rint_in(1, 9) + (wd[2 + d] - 1) * dl[d];
      yd[2 + d] = out_dim(xd[2 + d], wd[2 + d], st[d], dl[d], pd[d], pd[3 + d]);
      ok &= yd[2 + d] >= 1;
    }
    if (!ok) continue;
    for (d = 0; d < 5; d++) xn *= xd[d], wn *= wd[d], yn *= yd[d];
    xr = rand_floats(xn), w = rand_floats(wn), b = rand_floats(bd[0]), res = rand_floats(yn);
    memset(&t, 0, sizeof t);
    ge_graph_create(NULL, &t.g, &t.err);
    ge_graph_add_data(t.g, NULL, GE_DTYPE_FLOAT32, 5, xd, &e[0].node, NULL);
    e[1].node = add_const(t.g, 5, wd, w, wn);
    e[2].node = bias ? add_const(t.g, 1, bd, b, bd[0]) : GE_NONE;
    e[3].node = GE_NONE;
    if (residual) ge_graph_add_data(t.g, NULL, GE_DTYPE_FLOAT32, 5, yd, &e[3].node, NULL);
    e[0].index = e[1].index = e[2].index = e[3].index = 0;
    ge_graph_add_node(t.g, "Conv", "conv3d", residual ? 4 : 3, e, 1, &t.id, &t.err);
    ge_node_set_attr_ints(t.g, t.id, "strides", st, 3, NULL);
    ge_node_set_attr_ints(t.g, t.id, "dilations", dl, 3, NULL);
    ge_node_set_attr_ints(t.g, t.id, "pads", pd, 6, NULL);
    ge_node_set_attr_int(t.g, t.id, "group", group, NULL);
    if (act) ge_node_set_attr_string(t.g, t.id, "_fused_activation", act, NULL);
    if (act && (!strcmp(act, "Clip") || !strcmp(act, "LeakyRelu") || !strcmp(act, "HardSigmoid"))) {
      ge_node_set_attr_float(t.g, t.id, "_fused_alpha", !strcmp(act, "Clip") ? -0.3 : 0.1, NULL);
      ge_node_set_attr_float(t.g, t.id, "_fused_beta", 0.4, NULL);
    }
    if (residual) ge_node_set_attr_int(t.g, t.id, GE_ATTR_FUSED_INPUTS, 1, NULL);
    vx = kh_value(GE_DTYPE_FLOAT32, 5, xd, xr), vw = kh_value(GE_DTYPE_FLOAT32, 5, wd, w);
    vb = kh_value(GE_DTYPE_FLOAT32, 1, bd, b), vres = kh_value(GE_DTYPE_FLOAT32, 5, yd, res);
    in[0] = &vx, in[1] = &vw, in[2] = bias ? &vb : NULL, in[3] = residual ? &vres : NULL;
    memset(&out, 0, sizeof out), memset(&ref, 0, sizeof ref);
    ctx_init(&ce, threads, &t, in, residual ? 4 : 3, &out);
    if (!GE_CHECK(kh_run(ge_host_cpu_kernel(ge_graph_node(t.g, t.id)), t.g, t.id, in, 3, &ref, 1, &t.err) == GE_OK) ||
        !GE_CHECK(i % 2 == 0 || aic_prepare(&t, &ce.c) == GE_OK) ||
        !GE_CHECK(ge_ai_core_engine()->kernel(ge_ai_core_engine(), ge_graph_node(t.g, t.id))(&ce.c) == GE_OK) ||
        !GE_CHECK(out.numel == yn && ref.numel == yn && out.rank == 5)) {
      printf("  conv3d error: %s\n", t.err.message);
    } else {
      int64_t q;
      double er;
      for (q = 0; q < yn; q++)
        ((float *)ref.data)[q] = (float)act_ref(act, !strcmp(act ? act : "", "Clip") ? -0.3 : 0.1, 0.4,
                                                ((float *)ref.data)[q] + (residual ? res[q] : 0.0f));
      for (d = 0; d < 5; d++) GE_CHECK_EQ_INT(out.dims[d], yd[d]);
      er = rel_err((const float *)out.data, (const float *)ref.data, yn);
      if (!GE_CHECK(er < TOL))
        printf("  conv3d case %d (x %lldx%lldx%lldx%lldx%lld, kernel %lldx%lldx%lld, %s): rel err %.2g\n", i,
               (long long)xd[0], (long long)xd[1], (long long)xd[2], (long long)xd[3], (long long)xd[4],
               (long long)wd[2], (long long)wd[3], (long long)wd[4], act ? act : "none", er);
      if (er > worst) worst = er;
      GE_CHECK(((ge__aic_state *)ce.c.state)->packed_level > 0); /* weights packed once */
    }
    ge_kernel_free_state(&ce.c);
    kh_free(&out), kh_free(&ref), kh_free(&vx), kh_free(&vw), kh_free(&vb), kh_free(&vres);
    free(xr), free(w), free(b), free(res);
    kt_free(&t);
  }
  printf("  3-D Conv: worst rel err %.2g\n", worst);
}

/* ------------------------------------------------------------- Einsum */

/* Shuffles n ints. */
static void shuffle_ints(int *v, int n) {
  int i;
  for (i = n - 1; i > 0; i--) {
    int j = (int)tu_below(&R, (uint32_t)i + 1), x = v[i];
    v[i] = v[j], v[j] = x;
  }
}

/* One Einsum on AI Core against the host reference; the second operand a
 * Const when b_const (then packed once at prepare). Returns its rel err,
 * or -1 on a failure (printed). */
static double einsum_case(const char *eq, int32_t ra, const int64_t *ad, int32_t rb, const int64_t *bd, int threads,
                          int prepared, int b_const) {
  int64_t an = 1, bn = 1;
  int32_t d;
  float *adat, *bdat;
  ge_value va, vb, out, ref, *in[2];
  ge_edge e[2];
  ge_tensor bt;
  kt t;
  ctx_env ce;
  double er = -1;
  ge_kernel_fn fast;
  for (d = 0; d < ra; d++) an *= ad[d];
  for (d = 0; d < rb; d++) bn *= bd[d];
  adat = rand_floats(an), bdat = rand_floats(bn);
  memset(&t, 0, sizeof t);
  ge_graph_create(NULL, &t.g, &t.err);
  ge_graph_add_data(t.g, NULL, GE_DTYPE_FLOAT32, ra, ad, &e[0].node, NULL);
  memset(&bt, 0, sizeof bt);
  bt.dtype = GE_DTYPE_FLOAT32, bt.rank = rb, bt.dims = (int64_t *)bd, bt.data = bdat, bt.nbytes = (size_t)bn * sizeof(float);
  if (b_const) ge_graph_add_const(t.g, NULL, &bt, &e[1].node, NULL);
  else ge_graph_add_data(t.g, NULL, GE_DTYPE_FLOAT32, rb, bd, &e[1].node, NULL);
  e[0].index = e[1].index = 0;
  ge_graph_add_node(t.g, "Einsum", "ein", 2, e, 1, &t.id, &t.err);
  ge_node_set_attr_string(t.g, t.id, "equation", eq, NULL);
  va = kh_value(GE_DTYPE_FLOAT32, ra, ad, adat);
  vb = kh_value(GE_DTYPE_FLOAT32, rb, bd, bdat);
  in[0] = &va, in[1] = &vb;
  memset(&out, 0, sizeof out);
  memset(&ref, 0, sizeof ref);
  ctx_init(&ce, threads, &t, in, 2, &out);
  fast = ge_ai_core_engine()->kernel(ge_ai_core_engine(), ge_graph_node(t.g, t.id));
  if (!GE_CHECK(kh_run(ge_host_cpu_kernel(ge_graph_node(t.g, t.id)), t.g, t.id, in, 2, &ref, 1, &t.err) == GE_OK) ||
      !GE_CHECK(!prepared || aic_prepare(&t, &ce.c) == GE_OK) || !GE_CHECK(fast(&ce.c) == GE_OK) ||
      !GE_CHECK(out.numel == ref.numel && out.rank == ref.rank)) {
    printf("  Einsum '%s' error: %s\n", eq, t.err.message);
  } else {
    for (d = 0; d < ref.rank; d++) GE_CHECK_EQ_INT(out.dims[d], ref.dims[d]);
    er = rel_err((const float *)out.data, (const float *)ref.data, ref.numel);
  }
  ge_kernel_free_state(&ce.c);
  kh_free(&out), kh_free(&ref), kh_free(&va), kh_free(&vb);
  free(adat), free(bdat);
  kt_free(&t);
  return er;
}

/* Random batched products written as Einsum: batch, row, column and summed
 * labels in random orders (the operands sometimes in the layouts read in
 * place), sizes 0 to 7, on 1 and 2 threads, prepared or not, the second
 * operand a Const or not; then fixed equations: attention's, ellipsis,
 * and ones that run the reference (a diagonal, a label summed in one
 * operand, broadcast ellipsis dims, three operands). */
GE_TEST(test_einsum_fast) {
  static const struct {
    const char *eq;
    int32_t ra, rb;
    int64_t ad[4], bd[4];
  } fixed[] = {
      {"bhid,bhjd->bhij", 4, 4, {2, 3, 9, 8}, {2, 3, 7, 8}}, {"bhij,bhjd->bhid", 4, 4, {2, 3, 9, 7}, {2, 3, 7, 8}},
      {"...ij,...jk->...ik", 3, 3, {4, 5, 6}, {4, 6, 3}},    {"bnd,dh->bnh", 3, 2, {2, 70, 80}, {80, 90}},
      {"ij,jk", 2, 2, {5, 6}, {6, 7}},                        {"ii,ij->j", 2, 2, {4, 4}, {4, 3}},
      {"ij,jk->k", 2, 2, {5, 6}, {6, 7}},                     {"...ij,...jk->...ik", 4, 3, {2, 1, 3, 4}, {5, 4, 2}},
      {"bij,bjk->bki", 3, 3, {3, 40, 50}, {3, 50, 60}},       {"ij,kj->ik", 2, 2, {65, 70}, {66, 70}},
  };
  int i, labels[12];
  double worst = 0, er;
  tu_seed(&R, 1650);
  for (i = 0; i < 120; i++) {
    int count[4], g, k, n = 0, na = 0, nb = 0, no = 0, la[8], lb[8], lo[8], layout = (int)tu_below(&R, 3);
    int64_t size[12], ad[8], bd[8], total;
    char eq[64], *p = eq;
    for (g = 0; g < 4; g++) count[g] = (int)tu_below(&R, 3); /* batch, row, column, summed */
    for (k = 0; k < 12; k++) labels[k] = k;
    shuffle_ints(labels, 12);
    for (g = 0; g < 4; g++)
      for (k = 0; k < count[g]; k++, n++) {
        size[labels[n]] = i % 23 == 7 && k == 0 ? 0 : rint_in(1, i % 5 == 4 ? 40 : 7);
        if (g != 2) la[na++] = labels[n];
        if (g != 1) lb[nb++] = labels[n];
        if (g != 3) lo[no++] = labels[n];
      }
    for (k = 0, total = 1; k < n; k++) total *= size[labels[k]] ? size[labels[k]] : 1;
    for (k = 0; k < n && total > (1 << 18); k++) /* the reference's work is the product of all sizes */
      if (size[labels[k]] > 7) total = total / size[labels[k]] * 7, size[labels[k]] = 7;
    if (layout) shuffle_ints(la, na), shuffle_ints(lb, nb); /* else [batch, rows, sums] and [batch, sums, cols] */
    shuffle_ints(lo + count[0], no - count[0]);
    for (k = 0; k < na; k++) *p++ = (char)('a' + la[k]), ad[k] = size[la[k]];
    *p++ = ',';
    for (k = 0; k < nb; k++) *p++ = (char)('a' + lb[k]), bd[k] = size[lb[k]];
    *p++ = '-', *p++ = '>';
    for (k = 0; k < no; k++) *p++ = (char)('a' + lo[k]);
    *p = 0;
    er = einsum_case(eq, na, ad, nb, bd, 1 + i % 2, i % 3 == 1, i % 4 == 2);
    if (!GE_CHECK(er >= 0 && er < TOL)) printf("  Einsum '%s': rel err %.2g\n", eq, er);
    if (er > worst) worst = er;
  }
  for (i = 0; i < (int)(sizeof fixed / sizeof fixed[0]); i++) {
    er = einsum_case(fixed[i].eq, fixed[i].ra, fixed[i].ad, fixed[i].rb, fixed[i].bd, 2, i % 2, i == 3);
    if (!GE_CHECK(er >= 0 && er < TOL)) printf("  Einsum '%s': rel err %.2g\n", fixed[i].eq, er);
    if (er > worst) worst = er;
  }
  printf("  Einsum: %d cases, worst rel err %.2g\n", 120 + i, worst);
}

/* One Einsum kernel state run on operands whose shapes change from run to
 * run (as a dynamic-shape task's do): the plan made for the first shapes
 * must be remade, never reused, when they change. */
GE_TEST(test_einsum_fast_follows_shapes) {
  static const int64_t shapes[][2][3] = {{{2, 3, 4}, {2, 4, 5}}, {{2, 3, 4}, {2, 4, 5}}, {{3, 5, 2}, {3, 2, 6}},
                                         {{1, 7, 9}, {1, 9, 3}}, {{3, 5, 2}, {3, 2, 6}}};
  static const char *eqs[] = {"bij,bjk->bik", "bij,bjk->kbi"}; /* in place; output permuted */
  int e, r;
  tu_seed(&R, 1651);
  for (e = 0; e < 2; e++) {
    kt t;
    ctx_env ce;
    ge_edge ed[2];
    ge_kernel_fn fast;
    memset(&t, 0, sizeof t);
    ge_graph_create(NULL, &t.g, &t.err);
    ge_graph_add_data(t.g, NULL, GE_DTYPE_FLOAT32, 3, shapes[0][0], &ed[0].node, NULL);
    ge_graph_add_data(t.g, NULL, GE_DTYPE_FLOAT32, 3, shapes[0][1], &ed[1].node, NULL);
    ed[0].index = ed[1].index = 0;
    ge_graph_add_node(t.g, "Einsum", "ein", 2, ed, 1, &t.id, &t.err);
    ge_node_set_attr_string(t.g, t.id, "equation", eqs[e], NULL);
    fast = ge_ai_core_engine()->kernel(ge_ai_core_engine(), ge_graph_node(t.g, t.id));
    ctx_init(&ce, 2, &t, NULL, 2, NULL);
    for (r = 0; r < (int)(sizeof shapes / sizeof shapes[0]); r++) {
      float *a = rand_floats(shapes[r][0][0] * shapes[r][0][1] * shapes[r][0][2]);
      float *b = rand_floats(shapes[r][1][0] * shapes[r][1][1] * shapes[r][1][2]);
      ge_value va = kh_value(GE_DTYPE_FLOAT32, 3, shapes[r][0], a), vb = kh_value(GE_DTYPE_FLOAT32, 3, shapes[r][1], b);
      ge_value out, ref, *in[2];
      in[0] = &va, in[1] = &vb;
      memset(&out, 0, sizeof out), memset(&ref, 0, sizeof ref);
      ce.c.inputs = in, ce.outs[0] = &out;
      if (GE_CHECK(kh_run(ge_host_cpu_kernel(ge_graph_node(t.g, t.id)), t.g, t.id, in, 2, &ref, 1, &t.err) == GE_OK) &&
          GE_CHECK(fast(&ce.c) == GE_OK) && GE_CHECK(out.numel == ref.numel && out.rank == ref.rank)) {
        double er = rel_err((const float *)out.data, (const float *)ref.data, ref.numel);
        if (!GE_CHECK(er < TOL)) printf("  Einsum '%s' run %d: rel err %.2g\n", eqs[e], r, er);
      }
      kh_free(&out), kh_free(&ref), kh_free(&va), kh_free(&vb);
      free(a), free(b);
    }
    ge_kernel_free_state(&ce.c);
    kt_free(&t);
  }
}

/* ----------------------------------------- weights of an If's branch */

static ge_kernel_fn lookup_aic_only(const ge_node *n, void *user) {
  (void)user;
  return ge_ai_core_engine()->kernel(ge_ai_core_engine(), n);
}

/* y = If(cond, then: Gemm(x, W^T) + b, else: Conv1d(x3, V) over more than
 * GE__AIC_FEW_PIXELS pixels, so that V is packed): W, b and V are
 * Consts of the outer graph that the branches read through Data nodes with
 * parent_index (an ONNX exporter's outer-scope weights). Their kernels must
 * see Consts and pack them once: after the first run the Const bytes are
 * changed behind the program's back, and the second run must still use the
 * values packed the first time (a kernel that packed on every run would
 * see the new ones). Both runs are checked against double loops. */
static int run_branch_weights(int take_then, int threads) {
  int64_t M = rint_in(1, 3), K = rint_in(1, 40), N = rint_in(1, 70), T = rint_in(9, 20), k = 2 * rint_in(0, 1) + 1;
  int64_t xd[2] = {M, K}, wd[2] = {N, K}, bd[1] = {N}, x3d[3] = {M, K, T}, vd[3] = {N, K, k}, pads[2] = {k / 2, k / 2};
  int64_t cd[1] = {1}, i, r, j, p, t, q;
  unsigned char cond = (unsigned char)take_then;
  float *w = rand_floats(N * K), *b = rand_floats(N), *v = rand_floats(N * K * k), *xf = rand_floats(M * K * T);
  ge_graph *g = NULL, *tg = NULL, *eg = NULL;
  ge_node_id x, x3, wc, bc, vc, cc, iff, tx, tw, tb, gemm, ex, ev, conv;
  ge_edge e[6];
  ge_tensor ct;
  ge_exec_desc d;
  ge_program *prog = NULL;
  ge_error err;
  ge_value vx, vx3;
  const ge_value *ins[2] = {&vx, &vx3};
  int ok = 0, run;
  float *wconst, *vconst;
  memset(&err, 0, sizeof err);
  memset(&ct, 0, sizeof ct);
  ct.dtype = GE_DTYPE_BOOL, ct.rank = 1, ct.dims = cd, ct.data = &cond, ct.nbytes = 1;
  ge_graph_create(NULL, &g, &err);
  ge_graph_create(NULL, &tg, &err);
  ge_graph_create(NULL, &eg, &err);
  ge_graph_add_data(g, "x", GE_DTYPE_FLOAT32, 2, xd, &x, NULL);
  ge_graph_add_data(g, "x3", GE_DTYPE_FLOAT32, 3, x3d, &x3, NULL);
  wc = add_const(g, 2, wd, w, N * K), bc = add_const(g, 1, bd, b, N), vc = add_const(g, 3, vd, v, N * K * k);
  ge_graph_add_const(g, "cond", &ct, &cc, NULL);
  /* then: Gemm(x, W, b) transB = 1, all three from the parent */
  ge_graph_add_node(tg, "Data", "tx", 0, NULL, 1, &tx, NULL);
  ge_node_set_attr_int(tg, tx, "parent_index", 1, NULL);
  ge_graph_add_node(tg, "Data", "tw", 0, NULL, 1, &tw, NULL);
  ge_node_set_attr_int(tg, tw, "parent_index", 2, NULL);
  ge_graph_add_node(tg, "Data", "tb", 0, NULL, 1, &tb, NULL);
  ge_node_set_attr_int(tg, tb, "parent_index", 3, NULL);
  memset(e, 0, sizeof e);
  e[0].node = tx, e[1].node = tw, e[2].node = tb;
  ge_graph_add_node(tg, "Gemm", "gemm", 3, e, 1, &gemm, NULL);
  ge_node_set_attr_int(tg, gemm, "transB", 1, NULL);
  e[0].node = gemm;
  ge_graph_set_outputs(tg, 1, e, NULL, NULL);
  /* else: Conv(x, V) with pads, 1-D */
  ge_graph_add_node(eg, "Data", "ex", 0, NULL, 1, &ex, NULL);
  ge_node_set_attr_int(eg, ex, "parent_index", 5, NULL);
  ge_graph_add_node(eg, "Data", "ev", 0, NULL, 1, &ev, NULL);
  ge_node_set_attr_int(eg, ev, "parent_index", 4, NULL);
  e[0].node = ex, e[1].node = ev;
  ge_graph_add_node(eg, "Conv", "conv", 2, e, 1, &conv, NULL);
  ge_node_set_attr_ints(eg, conv, "pads", pads, 2, NULL);
  e[0].node = conv;
  ge_graph_set_outputs(eg, 1, e, NULL, NULL);
  e[0].node = cc, e[1].node = x, e[2].node = wc, e[3].node = bc, e[4].node = vc, e[5].node = x3;
  ge_graph_add_node(g, "If", "if", 6, e, 1, &iff, NULL);
  ge_node_set_attr_graph(g, iff, "then_branch", tg, NULL);
  ge_node_set_attr_graph(g, iff, "else_branch", eg, NULL);
  e[0].node = iff;
  ge_graph_set_outputs(g, 1, e, NULL, NULL);
  /* what the branch kernels see: a Const of the outer graph */
  GE_CHECK(ge_graph_input_origin(tg, ge_graph_node(tg, gemm), 1, NULL) == ge_graph_node(g, wc));
  GE_CHECK(ge_graph_input_origin(eg, ge_graph_node(eg, conv), 1, NULL) == ge_graph_node(g, vc));
  GE_CHECK(ge_graph_input_origin(eg, ge_graph_node(eg, conv), 0, NULL) == ge_graph_node(g, x3)); /* a model input */
  memset(&d, 0, sizeof d);
  d.lookup = lookup_aic_only;
  d.num_threads = threads;
  if (ge_program_create(g, &d, &prog, &err) != GE_OK) goto done;
  wconst = (float *)ge_node_attr(ge_graph_node(g, wc), "value")->v.t->data;
  vconst = (float *)ge_node_attr(ge_graph_node(g, vc), "value")->v.t->data;
  vx = kh_value(GE_DTYPE_FLOAT32, 2, xd, xf);
  vx3 = kh_value(GE_DTYPE_FLOAT32, 3, x3d, xf);
  ok = 1;
  for (run = 0; run < 2 && ok; run++) {
    const ge_value *y;
    double worst = 0, m = 0;
    for (i = 0; i < vx.numel; i++) ((float *)vx.data)[i] = rf();
    for (i = 0; i < vx3.numel; i++) ((float *)vx3.data)[i] = rf();
    if (ge_program_run(prog, ins, 2, &err) != GE_OK) {
      ok = 0;
      break;
    }
    y = ge_program_output(prog, 0);
    for (r = 0; r < M; r++)
      for (j = 0; j < N; j++)
        for (t = 0; t < (take_then ? 1 : T); t++) {
          double s = take_then ? b[j] : 0, got;
          const float *xs = (const float *)(take_then ? vx.data : vx3.data);
          if (take_then)
            for (p = 0; p < K; p++) s += (double)xs[r * K + p] * w[j * K + p];
          else
            for (p = 0; p < K; p++)
              for (q = 0; q < k; q++) {
                int64_t at = t + q - k / 2;
                if (at >= 0 && at < T) s += (double)xs[(r * K + p) * T + at] * v[(j * K + p) * k + q];
              }
          got = ((const float *)y->data)[(r * N + j) * (take_then ? 1 : T) + t];
          if (fabs(got - s) > worst) worst = fabs(got - s);
          if (fabs(s) > m) m = fabs(s);
        }
    if (!GE_CHECK(worst / (m + 1e-6) < TOL)) {
      printf("  branch weights: %s run %d M %lld K %lld N %lld T %lld threads %d: rel err %.2g\n",
             take_then ? "Gemm" : "Conv", run, (long long)M, (long long)K, (long long)N, (long long)T, threads,
             worst / (m + 1e-6));
      ok = 0;
    }
    /* the Consts change behind the program: packed-once weights must not notice */
    for (i = 0; i < N * K; i++) wconst[i] = 100.0f;
    for (i = 0; i < N * K * k; i++) vconst[i] = 100.0f;
  }
  kh_free(&vx);
  kh_free(&vx3);
done:
  if (!ok) printf("  branch weights: %s\n", err.message);
  ge_program_free(prog);
  ge_graph_free(g);
  free(w), free(b), free(v), free(xf);
  return ok;
}

GE_TEST(test_branch_weights_packed_once) {
  int i, good = 0;
  tu_seed(&R, 1616);
  for (i = 0; i < 40; i++) good += GE_CHECK(run_branch_weights(i & 1, 1 + (i >> 1 & 1)));
  printf("  If branches reading outer Const weights: %d of 40 cases packed once and right\n", good);
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

/* g's clone *h with every node on AI Core and its optimiser run (fusions),
 * and the programs running g on host kernels (*p1) and *h on AI Core's
 * (*p2, `threads` threads). 0 on any failure (err says which). */
static int optimized_pair(ge_graph *g, int threads, ge_graph **h, ge_program **p1, ge_program **p2, ge_error *err) {
  ge_exec_desc d1, d2;
  uint32_t id;
  if (ge_graph_infer_shapes(g, err) != GE_OK || ge_graph_clone(g, NULL, h, err) != GE_OK) return 0;
  for (id = 0; id < ge_graph_id_bound(*h); id++)
    if (ge_graph_node(*h, id)) ge_graph_node(*h, id)->engine = 0;
  if (ge_ai_core_engine()->optimize_subgraph(ge_ai_core_engine(), *h, 0, err) != GE_OK) return 0;
  memset(&d1, 0, sizeof d1);
  d1.lookup = lookup_host;
  d2 = d1;
  d2.lookup = lookup_aic;
  d2.num_threads = threads;
  return ge_program_create(g, &d1, p1, err) == GE_OK && ge_program_create(*h, &d2, p2, err) == GE_OK;
}

/* x -> Conv(Const w, b) -> Add(conv, r) -> [Relu] -> out, where r is x
 * itself (a ResNet block) or a second input; run by host kernels as it is
 * and by AI Core kernels after the optimiser. kind 2: the Add's other input
 * broadcasts (not fused). Returns the relative error, -1 on failure. */
static double run_residual_graph(int kind, int relu, int threads, uint32_t *nodes_after, int *fused) {
  int64_t C = rint_in(1, 20), H = rint_in(1, 12), W = rint_in(1, 12), N = rint_in(1, 2), k = 2 * rint_in(0, 2) + 1;
  int64_t xd[4], wd[4], rd[4], pads[4], i;
  ge_graph *g = NULL, *h = NULL;
  ge_node_id x, r = GE_NONE, conv, add, last;
  ge_edge e[3], out;
  ge_error err;
  ge_program *p1 = NULL, *p2 = NULL;
  float *w, *b;
  ge_value vx, vr;
  const ge_value *ins[2];
  double er = -1;
  memset(&err, 0, sizeof err);
  if (kind == 2 && H == 1) H = 2; /* so that r really broadcasts */
  xd[0] = N, xd[1] = C, xd[2] = H, xd[3] = W;
  wd[0] = C, wd[1] = C, wd[2] = k, wd[3] = k;
  rd[0] = N, rd[1] = C, rd[2] = kind == 2 ? 1 : H, rd[3] = W;
  pads[0] = pads[1] = pads[2] = pads[3] = k / 2;
  w = rand_floats(C * C * k * k);
  b = rand_floats(C);
  ge_graph_create(NULL, &g, &err);
  ge_graph_add_data(g, "x", GE_DTYPE_FLOAT32, 4, xd, &x, NULL);
  if (kind) ge_graph_add_data(g, "r", GE_DTYPE_FLOAT32, 4, rd, &r, NULL);
  memset(e, 0, sizeof e);
  e[0].node = x, e[1].node = add_const(g, 4, wd, w, C * C * k * k), e[2].node = add_const(g, 1, wd, b, C);
  ge_graph_add_node(g, "Conv", "conv", 3, e, 1, &conv, NULL);
  ge_node_set_attr_ints(g, conv, "pads", pads, 4, NULL);
  e[0].node = tu_below(&R, 2) ? conv : (kind ? r : x), e[1].node = e[0].node == conv ? (kind ? r : x) : conv;
  ge_graph_add_node(g, "Add", "add", 2, e, 1, &add, NULL);
  last = add;
  if (relu) {
    e[0].node = add;
    ge_graph_add_node(g, "Relu", "relu", 1, e, 1, &last, NULL);
  }
  out.node = last, out.index = 0;
  ge_graph_set_outputs(g, 1, &out, NULL, NULL);
  if (!optimized_pair(g, threads, &h, &p1, &p2, &err)) goto done;
  *nodes_after = ge_graph_node_count(h);
  *fused = ge_graph_find(h, "add") == GE_NONE && ge_node_attr_int(ge_graph_node(h, ge_graph_find(h, "conv")), GE_ATTR_FUSED_INPUTS, 0);
  vx = kh_value(GE_DTYPE_FLOAT32, 4, xd, NULL);
  vr = kh_value(GE_DTYPE_FLOAT32, 4, rd, NULL);
  for (i = 0; i < vx.numel; i++) ((float *)vx.data)[i] = rf();
  for (i = 0; i < vr.numel; i++) ((float *)vr.data)[i] = rf();
  ins[0] = &vx, ins[1] = &vr;
  if (ge_program_run(p1, ins, kind ? 2 : 1, &err) == GE_OK && ge_program_run(p2, ins, kind ? 2 : 1, &err) == GE_OK &&
      ge_program_run(p2, ins, kind ? 2 : 1, &err) == GE_OK) {
    const ge_value *y1 = ge_program_output(p1, 0), *y2 = ge_program_output(p2, 0);
    er = y1->numel == y2->numel ? rel_err((const float *)y2->data, (const float *)y1->data, y1->numel) : 1e9;
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

/* SiLU written out: x -> P -> {Sigmoid(P), Mul(P, Sigmoid) in either
 * order} -> out, P a Conv (shapes that reach the direct, GEMM, pointwise,
 * depthwise and dot-product paths; kind 1: through a residual Add first) or
 * a MatMul (kind 3); kind 2: P also feeds the output's Add (a third reader:
 * no fusion); kind 4: the Sigmoid reads x, not P (not SiLU: no fusion).
 * The host kernels run the graph as it is, the AI Core kernels after the
 * optimiser, at micro-kernel level `level`. Returns the relative error (-1
 * on failure); *fused: the Sigmoid and the Mul are gone. */
static double run_silu_graph(int kind, int level, int threads, int *fused) {
  int64_t C = rint_in(1, 20), M = kind == 4 ? C : rint_in(1, 24), H = rint_in(1, 40), W = rint_in(1, 40);
  int64_t k = tu_below(&R, 3) ? 3 : 1, i, xd[4], wd[4], pads[4];
  int depthwise = kind != 3 && kind != 4 && tu_below(&R, 5) == 0;
  ge_graph *g = NULL, *h = NULL;
  ge_node_id x, p, sg, mul, last;
  ge_edge e[3], out;
  ge_error err;
  ge_program *p1 = NULL, *p2 = NULL;
  float *w, *b;
  ge_value vx;
  const ge_value *ins[1];
  double er = -1;
  memset(&err, 0, sizeof err);
  if (depthwise || kind == 1) M = C;
  if (tu_below(&R, 4) == 0) H = rint_in(1, 2), W = rint_in(1, 4); /* a few pixels */
  xd[0] = rint_in(1, 2), xd[1] = C, xd[2] = H, xd[3] = W;
  wd[0] = M, wd[1] = depthwise ? 1 : C, wd[2] = wd[3] = k;
  pads[0] = pads[1] = pads[2] = pads[3] = k / 2;
  w = rand_floats(M * C * k * k);
  b = rand_floats(M);
  ge_graph_create(NULL, &g, &err);
  memset(e, 0, sizeof e);
  if (kind == 3) { /* MatMul [H, C] x [C, M] */
    xd[0] = H, xd[1] = C, wd[0] = C, wd[1] = M;
    ge_graph_add_data(g, "x", GE_DTYPE_FLOAT32, 2, xd, &x, NULL);
    e[0].node = x, e[1].node = add_const(g, 2, wd, w, C * M);
    ge_graph_add_node(g, "MatMul", "p", 2, e, 1, &p, NULL);
  } else {
    ge_graph_add_data(g, "x", GE_DTYPE_FLOAT32, 4, xd, &x, NULL);
    e[0].node = x, e[1].node = add_const(g, 4, wd, w, wd[0] * wd[1] * k * k), e[2].node = add_const(g, 1, wd, b, M);
    ge_graph_add_node(g, "Conv", "p", 3, e, 1, &p, NULL);
    ge_node_set_attr_ints(g, p, "pads", pads, 4, NULL);
    if (depthwise) ge_node_set_attr_int(g, p, "group", C, NULL);
    if (kind == 1) { /* Conv -> Add(x) first: the residual fuses, then the SiLU */
      e[0].node = p, e[1].node = x;
      ge_graph_add_node(g, "Add", "add", 2, e, 1, &p, NULL);
    }
  }
  e[0].node = kind == 4 ? x : p;
  ge_graph_add_node(g, "Sigmoid", "sig", 1, e, 1, &sg, NULL);
  if (tu_below(&R, 2)) e[0].node = p, e[1].node = sg;
  else e[0].node = sg, e[1].node = p;
  ge_graph_add_node(g, "Mul", "mul", 2, e, 1, &mul, NULL);
  last = mul;
  if (kind == 2) {
    e[0].node = mul, e[1].node = p;
    ge_graph_add_node(g, "Add", "add2", 2, e, 1, &last, NULL);
  }
  out.node = last, out.index = 0;
  ge_graph_set_outputs(g, 1, &out, NULL, NULL);
  if (!optimized_pair(g, threads, &h, &p1, &p2, &err)) goto done;
  *fused = ge_graph_find(h, "sig") == GE_NONE && ge_graph_find(h, "mul") == GE_NONE;
  vx = kh_value(GE_DTYPE_FLOAT32, kind == 3 ? 2 : 4, xd, NULL);
  for (i = 0; i < vx.numel; i++) ((float *)vx.data)[i] = 4.0f * rf(); /* both tails of the sigmoid */
  ins[0] = &vx;
  ge__aic_conv_level_cap = level;
  if (ge_program_run(p1, ins, 1, &err) == GE_OK && ge_program_run(p2, ins, 1, &err) == GE_OK &&
      ge_program_run(p2, ins, 1, &err) == GE_OK) {
    const ge_value *y1 = ge_program_output(p1, 0), *y2 = ge_program_output(p2, 0);
    er = y1->numel == y2->numel ? rel_err((const float *)y2->data, (const float *)y1->data, y1->numel) : 1e9;
  }
  ge__aic_conv_level_cap = 2;
  kh_free(&vx);
done:
  if (er < 0) printf("  SiLU graph: %s\n", err.message);
  ge_program_free(p1);
  ge_program_free(p2);
  ge_graph_free(g);
  ge_graph_free(h);
  free(w);
  free(b);
  return er;
}

/* The dense products' shares (GE__AIC_SHARES a thread) on a real 2-thread
 * runtime pool, where either thread may run any share and claims a free
 * scratch buffer for it: SGEMMs (every mode, remainder panels, 1..3 rows
 * or columns) bit-identical to one thread, and the conv paths that split
 * (implicit GEMM, Winograd, the small-image path, both transposed paths)
 * against the reference. */
static void sgemm_pool_case(const ge__aic_kern *k, int64_t M, int64_t N, int64_t K, int mode, int *same) {
  float *A = rand_floats(M * K), *B = rand_floats(K * N), *C0 = rand_floats(M * N), *bias = rand_floats(M);
  float *C1 = (float *)malloc((size_t)(M * N) * sizeof(float)), *pack = NULL;
  float *work = (float *)malloc(2 * ge__aic_mm_work_floats() * sizeof(float));
  ge__aic_mm mm;
  ge__aic_epi epi;
  ctx_env e;
  memcpy(C1, C0, (size_t)(M * N) * sizeof(float));
  memset(&mm, 0, sizeof mm);
  memset(&epi, 0, sizeof epi);
  epi.row_bias = bias, epi.ldr = N, epi.act.kind = GE__AIC_ACT_RELU, epi.level = k->level;
  mm.k = k, mm.M = M, mm.N = N, mm.K = K, mm.alpha = 1.0f, mm.beta = mode == 0 ? 0.5f : 0.0f, mm.epi = &epi;
  mm.A = A, mm.ars = K, mm.acs = 1, mm.B = B, mm.brs = N, mm.bcs = 1, mm.ldc = N;
  if (mode == 1) {
    pack = (float *)malloc(ge__aic_prepack_a_floats(k, M, K) * sizeof(float) + 64);
    ge__aic_prepack_a(k, A, mm.ars, mm.acs, M, K, pack);
    mm.apack = pack;
  } else if (mode == 2) {
    pack = (float *)malloc(ge__aic_prepack_b_floats(k, N, K) * sizeof(float) + 64);
    ge__aic_prepack_b(k, B, mm.brs, mm.bcs, K, N, pack);
    mm.bpack = pack;
  }
  mm.C = C0;
  ge__aic_mm_run(NULL, &mm, 1, work);
  mm.C = C1;
  ctx_init(&e, 2, NULL, NULL, 0, NULL);
  ge__aic_mm_run(&e.c, &mm, 2, work);
  if (!GE_CHECK(!memcmp(C0, C1, (size_t)(M * N) * sizeof(float))))
    printf("  pool sgemm level %d M %lld N %lld K %lld mode %d: 2 threads differ from 1\n", k->level, (long long)M,
           (long long)N, (long long)K, mode);
  else
    (*same)++;
  free(A), free(B), free(C0), free(C1), free(bias), free(pack), free(work);
}

GE_TEST(test_shares_on_pool) {
  static const int64_t dims[] = {1, 2, 3, 13, 33, 47, 145, 300, 530};
  ge_runtime_desc rd;
  ge_error err;
  int i, level, same = 0, cases = 0, convs = 0;
  double worst = 0;
  memset(&rd, 0, sizeof rd);
  rd.num_threads = 2;
  if (!GE_CHECK(ge_runtime_create(&rd, &RT, &err) == GE_OK)) return;
  tu_seed(&R, 1616);
  for (level = 0; level <= 2; level++) {
    const ge__aic_kern *k = ge__aic_kern_pick(level);
    if (k->level != level) continue;
    for (i = 0; i < 40; i++) {
      int64_t M = dims[tu_below(&R, 9)], N = dims[tu_below(&R, 9)], K = dims[3 + tu_below(&R, 6)];
      if (i < 6) M = 1 + i % 3, N = 530; /* a few rows: split over the columns */
      else if (i < 12) N = 1 + i % 3, M = 530; /* a few columns: split over the rows */
      sgemm_pool_case(k, M, N, K, (int)tu_below(&R, 3), &same);
      cases++;
    }
  }
  for (i = 0; i < 60; i++) {
    conv_case c = i % 5 == 0   ? rand_case(6)
                  : i % 5 == 1 ? rand_case(7)
                  : i % 5 == 2 ? rand_case(9)
                  : i % 5 == 3 ? rand_case_wino_rows()
                               : rand_case_pixel_rows();
    double er;
    ge__aic_conv_level_cap = (i / 5) % 3;
    er = run_conv_case(&c, 2, i % 5 == 1 || i % 5 == 3); /* Winograd's error scales with the sums */
    if (er < 0) continue;
    if (!GE_CHECK(er < TOL))
      printf("  pool conv %d n %lld c %lld %lldx%lld m %lld g %lld k %lldx%lld s %lld,%lld: %.2g\n", i % 5,
             (long long)c.n, (long long)c.c, (long long)c.h, (long long)c.w, (long long)c.m, (long long)c.group,
             (long long)c.kh, (long long)c.kw, (long long)c.sh, (long long)c.sw, er);
    if (er > worst) worst = er;
    convs++;
  }
  ge__aic_conv_level_cap = 2;
  ge_runtime_free(RT);
  RT = NULL;
  GE_CHECK(cases >= 40 && convs >= 50);
  printf("  shares on a 2-thread pool: %d of %d SGEMMs bit-identical to 1 thread; %d convs, worst rel err %.2g\n", same,
         cases, convs, worst);
}

GE_TEST(test_silu_fusion) {
  int i, fused_n = 0;
  double worst = 0;
  tu_seed(&R, 3031);
  for (i = 0; i < 150; i++) {
    int kind = i % 5, level = (i / 5) % 3, threads = 1 + (i / 15) % 2, fused = 0;
    double er = run_silu_graph(kind, level, threads, &fused);
    if (!GE_CHECK(er >= 0 && er < TOL)) printf("  SiLU kind %d level %d threads %d: %.2g\n", kind, level, threads, er);
    if (er > worst) worst = er;
    if (!GE_CHECK_EQ_INT(fused, kind < 2 || kind == 3)) printf("  SiLU kind %d: fused %d\n", kind, fused);
    fused_n += fused;
  }
  printf("  SiLU fusion: 150 graphs at 3 levels (1 and 2 threads), %d fused, worst rel err %.2g\n", fused_n, worst);
}

GE_TEST(test_residual_fusion) {
  int i, fused_n = 0;
  double worst = 0;
  tu_seed(&R, 1603);
  for (i = 0; i < 60; i++) {
    int kind = i % 3, relu = (i / 3) % 2, fused = 0;
    uint32_t after = 0;
    double er = run_residual_graph(kind, relu, 1 + (i / 6) % 2, &after, &fused);
    GE_CHECK(er >= 0 && er < TOL);
    if (er > worst) worst = er;
    /* fused: Add (and Relu) gone; a broadcasting Add stays */
    if (!GE_CHECK_EQ_INT(fused, kind != 2)) printf("  kind %d relu %d after %u\n", kind, relu, after);
    if (kind != 2) GE_CHECK_EQ_INT(after, (uint32_t)(kind ? 6 : 5));
    fused_n += fused;
  }
  printf("  residual fusion: 60 graphs, %d fused, worst rel err %.2g\n", fused_n, worst);
}

/* Nodes off AI Core's op set (a Pad left in place) on the host kernels. */
static ge_kernel_fn lookup_aic_or_host(const ge_node *n, void *user) {
  ge_kernel_fn f = ge_ai_core_engine()->kernel(ge_ai_core_engine(), n);
  (void)user;
  return f ? f : ge_host_cpu_kernel(n);
}

/* x -> Pad(zeros) -> AveragePool or Conv -> out, run by host kernels as it
 * is and by AI Core's after its optimize_original (the Pad folds into the
 * consumer's pads). kind 0: AveragePool without pads of its own
 * (Inception's), 1: AveragePool with its own pads and count_include_pad, 2:
 * Conv with pads of its own, 3: pads all zero (DenseNet's no-op Pad), 4..7
 * must not fold: AveragePool with ceil_mode, a pad value of 0.5, channels
 * padded, AveragePool with own pads and count_include_pad 0. Returns the
 * relative error (-1 on failure); *folded: the Pad is gone. */
static double run_pad_graph(int kind, int threads, int *folded) {
  int64_t C = rint_in(1, 12), H = rint_in(1, 14), W = rint_in(1, 14), N = rint_in(1, 2), i;
  int64_t xd[4], wd[4], pd[1] = {8}, pads[8] = {0, 0, 0, 0, 0, 0, 0, 0}, own[4], ks[2], one[1] = {1}, st[2];
  int64_t M = rint_in(1, 9);
  float *w = NULL, half[1] = {0.5f};
  ge_graph *g = NULL, *h = NULL;
  ge_node_id x, pad, op, pid;
  ge_edge e[3], out;
  ge_error err;
  ge_tensor t;
  ge_program *p1 = NULL, *p2 = NULL;
  ge_exec_desc d1, d2;
  ge_value vx;
  const ge_value *ins[1];
  double er = -1;
  memset(&err, 0, sizeof err);
  xd[0] = N, xd[1] = C, xd[2] = H, xd[3] = W;
  for (i = 0; i < 4; i++) own[i] = kind == 1 || kind == 2 || kind == 7 ? rint_in(0, 1) : 0;
  if (kind != 3) pads[2] = rint_in(0, 2), pads[3] = rint_in(0, 2), pads[6] = rint_in(0, 2), pads[7] = 1;
  if (kind == 6) pads[1] = 1;
  if (kind == 7) own[0] = 1;
  ks[0] = rint_in(1, 3), ks[1] = rint_in(1, 3);
  st[0] = rint_in(1, 2), st[1] = rint_in(1, 2);
  ge_graph_create(NULL, &g, &err);
  ge_graph_add_data(g, "x", GE_DTYPE_FLOAT32, 4, xd, &x, NULL);
  memset(&t, 0, sizeof t);
  t.dtype = GE_DTYPE_INT64, t.rank = 1, t.dims = pd, t.data = pads, t.nbytes = sizeof pads;
  ge_graph_add_const(g, NULL, &t, &pid, NULL);
  memset(e, 0, sizeof e);
  e[0].node = x, e[1].node = pid;
  e[2].node = kind == 5 ? add_const(g, 1, one, half, 1) : GE_NONE;
  ge_graph_add_node(g, "Pad", "pad", kind == 5 ? 3 : 2, e, 1, &pad, NULL);
  e[0].node = pad;
  if (kind == 2) {
    wd[0] = M, wd[1] = C, wd[2] = ks[0], wd[3] = ks[1];
    w = rand_floats(M * C * ks[0] * ks[1]);
    e[1].node = add_const(g, 4, wd, w, M * C * ks[0] * ks[1]);
    ge_graph_add_node(g, "Conv", "op", 2, e, 1, &op, NULL);
  } else {
    ge_graph_add_node(g, "AveragePool", "op", 1, e, 1, &op, NULL);
    ge_node_set_attr_ints(g, op, "kernel_shape", ks, 2, NULL);
    if (kind == 1) ge_node_set_attr_int(g, op, "count_include_pad", 1, NULL);
    if (kind == 4) ge_node_set_attr_int(g, op, "ceil_mode", 1, NULL);
  }
  ge_node_set_attr_ints(g, op, "strides", st, 2, NULL);
  if (kind == 1 || kind == 2 || kind == 7) ge_node_set_attr_ints(g, op, "pads", own, 4, NULL);
  out.node = op, out.index = 0;
  ge_graph_set_outputs(g, 1, &out, NULL, NULL);
  if (ge_graph_infer_shapes(g, &err) != GE_OK) { /* a window larger than the padded input: no such graph */
    er = 0, *folded = kind < 4;
    goto done;
  }
  if (ge_graph_clone(g, NULL, &h, &err) != GE_OK ||
      ge_ai_core_engine()->optimize_original(ge_ai_core_engine(), h, &err) != GE_OK ||
      ge_graph_infer_shapes(h, &err) != GE_OK)
    goto done;
  *folded = ge_graph_find(h, "pad") == GE_NONE;
  memset(&d1, 0, sizeof d1);
  d1.lookup = lookup_host;
  d2 = d1;
  d2.lookup = lookup_aic_or_host;
  d2.num_threads = threads;
  if (ge_program_create(g, &d1, &p1, &err) != GE_OK || ge_program_create(h, &d2, &p2, &err) != GE_OK) goto done;
  vx = kh_value(GE_DTYPE_FLOAT32, 4, xd, NULL);
  for (i = 0; i < vx.numel; i++) ((float *)vx.data)[i] = rf();
  ins[0] = &vx;
  if (ge_program_run(p1, ins, 1, &err) == GE_OK && ge_program_run(p2, ins, 1, &err) == GE_OK) {
    const ge_value *y1 = ge_program_output(p1, 0), *y2 = ge_program_output(p2, 0);
    int same = y1->rank == y2->rank;
    for (i = 0; same && i < y1->rank; i++) same = y1->dims[i] == y2->dims[i];
    er = same ? rel_err((const float *)y2->data, (const float *)y1->data, y1->numel) : 1e9;
  }
  kh_free(&vx);
done:
  if (er < 0) printf("  pad graph kind %d: %s\n", kind, err.message);
  ge_program_free(p1);
  ge_program_free(p2);
  ge_graph_free(g);
  ge_graph_free(h);
  free(w);
  return er;
}

GE_TEST(test_pad_fold) {
  int i, n_folded = 0;
  double worst = 0;
  tu_seed(&R, 1618);
  for (i = 0; i < 96; i++) {
    int kind = i % 8, folded = -1;
    double er = run_pad_graph(kind, 1 + (i / 8) % 2, &folded);
    if (!GE_CHECK(er >= 0 && er < TOL) || !GE_CHECK_EQ_INT(folded, kind < 4)) printf("  pad fold kind %d: %.2g\n", kind, er);
    if (er > worst) worst = er;
    n_folded += folded == 1;
  }
  printf("  Pad into AveragePool / Conv: 96 graphs, %d folded, worst rel err %.2g\n", n_folded, worst);
}

/* A new graph with a float32 input "x" of shape xd[0..rank) and
 * x -> BatchNormalization "bn" over its xd[1] channels, the parameters
 * random Consts (variances > 0); *bn is the BN. */
static ge_graph *graph_x_bn(int32_t rank, const int64_t *xd, ge_node_id *bn) {
  int64_t C = xd[1], i;
  ge_graph *g = NULL;
  ge_edge e[5];
  int k;
  ge_graph_create(NULL, &g, NULL);
  memset(e, 0, sizeof e);
  ge_graph_add_data(g, "x", GE_DTYPE_FLOAT32, rank, xd, &e[0].node, NULL);
  for (k = 0; k < 4; k++) {
    float *par = rand_floats(C);
    if (k == 3)
      for (i = 0; i < C; i++) par[i] = 0.1f + fabsf(par[i]); /* variances */
    e[1 + k].node = add_const(g, 1, &C, par, C);
    free(par);
  }
  ge_graph_add_node(g, "BatchNormalization", "bn", 5, e, 1, bn, NULL);
  return g;
}

/* p1 and p2 run `runs` times on one random float32 input of shape
 * xd[0..rank): the worst relative error of p2's outputs against p1's (-1
 * when a run fails; err says why). */
static double pair_error(ge_program *p1, ge_program *p2, int32_t rank, const int64_t *xd, int runs, ge_error *err) {
  ge_value vx = kh_value(GE_DTYPE_FLOAT32, rank, xd, NULL);
  const ge_value *ins[1];
  double er = 0;
  int64_t i;
  int r;
  uint32_t o;
  for (i = 0; i < vx.numel; i++) ((float *)vx.data)[i] = rf();
  ins[0] = &vx;
  for (r = 0; r < runs; r++) {
    if (ge_program_run(p1, ins, 1, err) != GE_OK || ge_program_run(p2, ins, 1, err) != GE_OK) {
      er = -1;
      break;
    }
    for (o = 0; o < ge_program_num_outputs(p1); o++) {
      const ge_value *y1 = ge_program_output(p1, o), *y2 = ge_program_output(p2, o);
      double e1 = y1->numel == y2->numel ? rel_err((const float *)y2->data, (const float *)y1->data, y1->numel) : 1e9;
      if (e1 > er) er = e1;
    }
  }
  kh_free(&vx);
  return er;
}

/* x -> BatchNormalization (inference, Const parameters) -> Relu -> out
 * (DenseNet's pre-activation), run by host kernels as it is and by AI
 * Core's after its optimiser: the Relu becomes the BN's fused activation,
 * applied per channel plane by the vector kernel, on 1 and 2 threads, rank
 * 2..5. kind 1: the BN's output is read twice (by the Relu and an Add): no
 * fusion. Returns the relative error (-1 on failure). */
static double run_bn_relu_graph(int kind, int threads, int *fused) {
  int64_t C = rint_in(1, 24), xd[5];
  int32_t rank = (int32_t)rint_in(2, 5), k;
  ge_graph *g = NULL, *h = NULL;
  ge_node_id bn, relu, last;
  ge_edge e[5], out;
  ge_error err;
  ge_program *p1 = NULL, *p2 = NULL;
  double er = -1;
  memset(&err, 0, sizeof err);
  xd[0] = rint_in(1, 2), xd[1] = C;
  for (k = 2; k < rank; k++) xd[k] = rint_in(1, 30);
  g = graph_x_bn(rank, xd, &bn);
  memset(e, 0, sizeof e);
  e[0].node = bn;
  ge_graph_add_node(g, "Relu", "relu", 1, e, 1, &relu, NULL);
  last = relu;
  if (kind == 1) {
    e[0].node = relu, e[1].node = bn;
    ge_graph_add_node(g, "Add", "add", 2, e, 1, &last, NULL);
  }
  out.node = last, out.index = 0;
  ge_graph_set_outputs(g, 1, &out, NULL, NULL);
  if (!optimized_pair(g, threads, &h, &p1, &p2, &err)) goto done;
  *fused = ge_graph_find(h, "relu") == GE_NONE &&
           !strcmp(ge_node_attr_string(ge_graph_node(h, ge_graph_find(h, "bn")), "_fused_activation", ""), "Relu");
  er = pair_error(p1, p2, rank, xd, 1, &err);
done:
  if (er < 0) printf("  bn relu graph: %s\n", err.message);
  ge_program_free(p1);
  ge_program_free(p2);
  ge_graph_free(g);
  ge_graph_free(h);
  return er;
}

GE_TEST(test_bn_relu_fusion) {
  int i, n_fused = 0;
  double worst = 0;
  tu_seed(&R, 1619);
  for (i = 0; i < 40; i++) {
    int kind = i % 2, fused = -1;
    double er = run_bn_relu_graph(kind, 1 + (i / 2) % 2, &fused);
    GE_CHECK(er >= 0 && er < TOL);
    if (!GE_CHECK_EQ_INT(fused, kind == 0) || !(er < TOL)) printf("  bn relu kind %d: %.2g\n", kind, er);
    if (er > worst) worst = er;
    n_fused += fused == 1;
  }
  { /* the kernel refuses any other fused activation */
    ge_graph *g = NULL;
    ge_node_id x, bn;
    ge_edge e[5];
    int64_t xd[2] = {1, 3}, cd[1] = {3};
    float one[3] = {1, 1, 1};
    int k;
    ge_graph_create(NULL, &g, NULL);
    ge_graph_add_data(g, "x", GE_DTYPE_FLOAT32, 2, xd, &x, NULL);
    memset(e, 0, sizeof e);
    e[0].node = x;
    for (k = 0; k < 4; k++) e[1 + k].node = add_const(g, 1, cd, one, 3);
    ge_graph_add_node(g, "BatchNormalization", "bn", 5, e, 1, &bn, NULL);
    ge_node_set_attr_string(g, bn, "_fused_activation", "Tanh", NULL);
    {
      ge_value vx = kh_value(GE_DTYPE_FLOAT32, 2, xd, one), vp = kh_value(GE_DTYPE_FLOAT32, 1, cd, one), out;
      ge_value *in[5] = {&vx, &vp, &vp, &vp, &vp};
      ge_error err;
      memset(&out, 0, sizeof out);
      memset(&err, 0, sizeof err);
      GE_CHECK(kh_run(ge_vector_fast_kernel(ge_graph_node(g, bn)), g, bn, in, 5, &out, 1, &err) != GE_OK);
      GE_CHECK(strstr(err.message, "Relu") != NULL);
      kh_free(&vx), kh_free(&vp), kh_free(&out);
    }
    ge_graph_free(g);
  }
  printf("  BatchNormalization + Relu: 40 graphs, %d fused, worst rel err %.2g\n", n_fused, worst);
}

/* ------------------------------------------- BN (+ Relu) into the 1x1 Conv after it */

/* *h through its binary form (a compiled model file's graph) and *p made
 * again from the copy (AI Core kernels, `threads` threads); 0 on failure. */
static int roundtrip_program(ge_graph **h, int threads, ge_program **p, ge_error *err) {
  uint8_t *bytes = NULL;
  size_t size = 0;
  ge_graph *h2 = NULL;
  ge_exec_desc d;
  int ok;
  if (ge_graph_serialize(*h, &bytes, &size, err) != GE_OK) return 0;
  ok = ge_graph_deserialize(bytes, size, NULL, &h2, err) == GE_OK;
  ge_graph_free_bytes(*h, bytes, size);
  if (!ok) return 0;
  ge_program_free(*p);
  *p = NULL;
  ge_graph_free(*h);
  *h = h2;
  memset(&d, 0, sizeof d);
  d.lookup = lookup_aic;
  d.num_threads = threads;
  return ge_program_create(h2, &d, p, err) == GE_OK;
}

/* g (input x [1, 3, 4, 4], output node id alone on AI Core) must fail
 * to run with an error naming `needle`; frees g. */
static void expect_run_error(ge_graph *g, ge_node_id id, const char *needle, const char *what, int which) {
  int64_t xd[4] = {1, 3, 4, 4};
  ge_program *p = NULL;
  ge_error err;
  ge_exec_desc d;
  ge_value vx = kh_value(GE_DTYPE_FLOAT32, 4, xd, NULL);
  const ge_value *ins[1] = {&vx};
  ge_edge out;
  memset(&err, 0, sizeof err);
  out.node = id, out.index = 0;
  ge_graph_set_outputs(g, 1, &out, NULL, NULL);
  ge_graph_infer_shapes(g, NULL);
  ge_graph_node(g, id)->engine = 0;
  memset(&d, 0, sizeof d);
  d.lookup = lookup_aic;
  if (GE_CHECK_EQ_INT(ge_program_create(g, &d, &p, &err), GE_OK)) {
    GE_CHECK(ge_program_run(p, ins, 1, &err) != GE_OK);
    if (!GE_CHECK(strstr(err.message, needle) != NULL)) printf("  %s %d: %s\n", what, which, err.message);
  }
  ge_program_free(p);
  ge_graph_free(g);
  kh_free(&vx);
}

/* g's host run against AI Core's after its optimiser (*h, kept for the
 * caller to inspect; through its serialized copy when roundtrip), twice
 * on one random input of shape xd[0..rank): the worst relative error, -1
 * on failure (printed with `what`). */
static double optimized_error(ge_graph *g, int threads, int roundtrip, int32_t rank, const int64_t *xd, ge_graph **h,
                              const char *what) {
  ge_program *p1 = NULL, *p2 = NULL;
  ge_error err;
  double er = -1;
  memset(&err, 0, sizeof err);
  if (optimized_pair(g, threads, h, &p1, &p2, &err) && (!roundtrip || roundtrip_program(h, threads, &p2, &err)))
    er = pair_error(p1, p2, rank, xd, 2, &err); /* twice: the kernel's state and buffers reused */
  if (er < 0) printf("  %s: %s\n", what, err.message);
  ge_program_free(p1);
  ge_program_free(p2);
  return er;
}

/* x -> BatchNormalization (Const) -> [Relu] -> Conv (Const w, [b]) ->
 * [Relu] -> out, run by host kernels as it is and by AI Core's after its
 * optimiser, at micro-kernel level `level`, on 1 or 2 threads. kind 0: a
 * 1x1 Conv, strides 1, no pads: the BN (and its Relu) becomes the Conv's
 * prologue (maps of every width: single columns, partial vectors, a few
 * pixels; groups, depthwise, 1-D; the depthwise and few-pixel paths run
 * it on a copy of the input); 1: the BN is read twice (also a graph
 * output); 2: a 3x3 Conv with pads; 3: a 1x1 Conv of stride 2: none
 * fuses. roundtrip: the optimised graph runs from its serialized copy.
 * Returns the worst relative error (-1 on failure). */
static double run_pre_graph(int kind, int level, int threads, int roundtrip, int *fused) {
  static const int64_t sides[] = {1, 2, 3, 4, 7, 9, 13, 14, 17, 28};
  int64_t N = rint_in(1, 2), C = rint_in(1, 40), M = rint_in(1, 40), G = 1, xd[4], wd[4];
  int32_t rank = rint_in(0, 4) ? 4 : 3, relu_pre = (int)rint_in(0, 3) != 0, relu_post = (int)rint_in(0, 1);
  int64_t ks = kind == 2 ? 3 : 1, st[2] = {kind == 3 ? 2 : 1, kind == 3 ? 2 : 1}, pads[4] = {1, 1, 1, 1};
  float *wv, *bv;
  ge_graph *g = NULL, *h = NULL;
  ge_node_id bn, prev, conv, last, cid;
  ge_edge e[5], outs[2];
  double er = -1;
  if (rint_in(0, 3) == 0 && C % 2 == 0 && M % 2 == 0) G = 2;
  else if (rint_in(0, 5) == 0) G = C, M = C * rint_in(1, 2); /* depthwise */
  xd[0] = N, xd[1] = C, xd[2] = sides[rint_in(0, 9)], xd[3] = sides[rint_in(0, 9)];
  if (rank == 3) xd[2] = xd[3] * sides[rint_in(0, 9)];
  wd[0] = M, wd[1] = C / G, wd[2] = wd[3] = ks;
  wv = rand_floats(M * (C / G) * ks * ks), bv = rand_floats(M);
  g = graph_x_bn(rank, xd, &bn);
  memset(e, 0, sizeof e);
  prev = bn;
  if (relu_pre) e[0].node = bn, ge_graph_add_node(g, "Relu", "relu", 1, e, 1, &prev, NULL);
  e[0].node = prev;
  e[1].node = add_const(g, rank, wd, wv, M * (C / G) * (rank == 4 ? ks * ks : ks));
  cid = add_const(g, 1, wd, bv, M);
  e[2].node = rint_in(0, 1) ? cid : GE_NONE;
  ge_graph_add_node(g, "Conv", "conv", e[2].node != GE_NONE ? 3 : 2, e, 1, &conv, NULL);
  if (e[2].node == GE_NONE) ge_graph_remove_node(g, cid, NULL);
  ge_node_set_attr_int(g, conv, "group", G, NULL);
  ge_node_set_attr_ints(g, conv, "strides", st, rank - 2, NULL);
  if (kind == 2) ge_node_set_attr_ints(g, conv, "pads", pads, 2 * (rank - 2), NULL);
  last = conv;
  if (relu_post) e[0].node = conv, ge_graph_add_node(g, "Relu", "relu2", 1, e, 1, &last, NULL);
  outs[0].node = last, outs[0].index = 0, outs[1].node = bn, outs[1].index = 0;
  ge_graph_set_outputs(g, kind == 1 ? 2 : 1, outs, NULL, NULL);
  ge__aic_conv_level_cap = level;
  er = optimized_error(g, threads, roundtrip, rank, xd, &h, "pre graph");
  if (er >= 0)
    *fused = ge_graph_find(h, "bn") == GE_NONE && ge_node_attr(ge_graph_node(h, ge_graph_find(h, "conv")), "_pre_affine");
  ge__aic_conv_level_cap = 2;
  ge_graph_free(g);
  ge_graph_free(h);
  free(wv), free(bv);
  return er;
}

/* A Conv whose _pre_affine does not fit its input, or names an activation
 * other than Relu: an error naming the attribute. */
static void check_pre_malformed(int which) {
  ge_graph *g = NULL;
  ge_node_id x, conv;
  ge_edge e[2];
  ge_tensor t;
  int64_t xd[4] = {1, 3, 4, 4}, wd[4] = {2, 3, 1, 1}, td[2] = {2, 4};
  float w[6] = {1, 2, 3, 4, 5, 6}, aff[8] = {1, 1, 1, 1, 0, 0, 0, 0};
  ge_graph_create(NULL, &g, NULL);
  ge_graph_add_data(g, "x", GE_DTYPE_FLOAT32, 4, xd, &x, NULL);
  memset(e, 0, sizeof e);
  e[0].node = x;
  e[1].node = add_const(g, 4, wd, w, 6);
  ge_graph_add_node(g, "Conv", "conv", 2, e, 1, &conv, NULL);
  memset(&t, 0, sizeof t);
  t.dtype = GE_DTYPE_FLOAT32, t.rank = 2, t.dims = td, t.data = aff, t.nbytes = sizeof aff;
  if (which == 1) td[1] = 3; /* right size, wrong activation */
  ge_node_set_attr_tensor(g, conv, "_pre_affine", &t, NULL);
  if (which == 1) ge_node_set_attr_string(g, conv, "_pre_activation", "Tanh", NULL);
  expect_run_error(g, conv, "_pre_", "malformed prologue", which);
}

GE_TEST(test_bn_conv_prologue) {
  int i, n_fused = 0, bad = 0;
  double worst = 0;
  tu_seed(&R, 2711);
  for (i = 0; i < 160; i++) {
    int kind = i % 8 < 5 ? 0 : i % 8 - 4, fused = -1, level = (i / 8) % 3, threads = 1 + (i / 24) % 2;
    double er = run_pre_graph(kind, level, threads, i % 16 == 3, &fused);
    if (!GE_CHECK(er >= 0 && er < TOL) || !GE_CHECK_EQ_INT(fused, kind == 0))
      printf("  prologue kind %d level %d threads %d: %.2g fused %d\n", kind, level, threads, er, fused), bad++;
    if (er > worst) worst = er;
    n_fused += fused == 1;
  }
  check_pre_malformed(0);
  check_pre_malformed(1);
  printf("  BatchNormalization (+ Relu) into a 1x1 Conv: 160 graphs, %d fused, worst rel err %.2g\n", n_fused, worst);
}

/* ------------------------------- a 1x1 Conv moved before the AveragePool it reads */

/* x -> AveragePool -> Conv 1x1 (Const w, [b]) -> [Relu or Sigmoid] -> out,
 * run by host kernels as it is and by AI Core's after its optimiser, on 1
 * or 2 threads. kind 0: a 3x3 pool, pads 1 (Inception's pool branches);
 * 1: kh x kw in 1..3 with the pads that keep the map's size (asymmetric
 * for even sides), ceil_mode at random; both with count_include_pad at
 * random and fewer output than input channels: the Conv moves before the
 * pool, which ends with its bias and Relu. Not moved: 2: a pool of stride
 * 2; 3: as many output channels as input ones or more; 4: a 3x3 Conv; 5:
 * a Sigmoid after the Conv; 6: the pool's output read twice (a graph
 * output too). roundtrip: the optimised graph runs from its serialized
 * copy. Returns the worst relative error (-1 on failure). */
static double run_pool_conv_graph(int kind, int threads, int roundtrip, int *moved) {
  static const int64_t sides[] = {1, 2, 3, 5, 8, 13, 17, 35};
  int64_t N = rint_in(1, 2), C = rint_in(2, 48), M = kind == 3 ? C + rint_in(0, 4) : rint_in(1, C - 1), xd[4], wd[4];
  int64_t k[2] = {3, 3}, pads[4] = {1, 1, 1, 1}, st[2] = {1, 1}, ks = kind == 4 ? 3 : 1;
  int act = kind == 5 ? 2 : (int)rint_in(0, 1), a;
  float *wv, *bv;
  ge_graph *g = NULL, *h = NULL;
  ge_node_id x, pool, conv, last, bid;
  ge_edge e[3], outs[2];
  double er = -1;
  xd[0] = N, xd[1] = C, xd[2] = sides[rint_in(kind == 2, 7)], xd[3] = sides[rint_in(kind == 2, 7)]; /* 1x1 keeps its size */
  if (kind == 1)
    for (a = 0; a < 2; a++) k[a] = rint_in(1, 3), pads[a] = (k[a] - 1) / 2, pads[a + 2] = k[a] - 1 - pads[a];
  if (kind == 2) st[0] = st[1] = 2;
  wd[0] = M, wd[1] = C, wd[2] = wd[3] = ks;
  wv = rand_floats(M * C * ks * ks), bv = rand_floats(M);
  ge_graph_create(NULL, &g, NULL);
  ge_graph_add_data(g, "x", GE_DTYPE_FLOAT32, 4, xd, &x, NULL);
  memset(e, 0, sizeof e);
  e[0].node = x;
  ge_graph_add_node(g, "AveragePool", "pool", 1, e, 1, &pool, NULL);
  ge_node_set_attr_ints(g, pool, "kernel_shape", k, 2, NULL);
  ge_node_set_attr_ints(g, pool, "pads", pads, 4, NULL);
  ge_node_set_attr_ints(g, pool, "strides", st, 2, NULL);
  ge_node_set_attr_int(g, pool, "count_include_pad", rint_in(0, 1), NULL);
  if (kind == 1) ge_node_set_attr_int(g, pool, "ceil_mode", rint_in(0, 1), NULL);
  e[0].node = pool;
  e[1].node = add_const(g, 4, wd, wv, M * C * ks * ks);
  bid = add_const(g, 1, wd, bv, M);
  e[2].node = rint_in(0, 1) ? bid : GE_NONE;
  ge_graph_add_node(g, "Conv", "conv", e[2].node != GE_NONE ? 3 : 2, e, 1, &conv, NULL);
  if (e[2].node == GE_NONE) ge_graph_remove_node(g, bid, NULL);
  if (kind == 4) ge_node_set_attr_ints(g, conv, "pads", pads, 4, NULL);
  last = conv;
  if (act) e[0].node = conv, ge_graph_add_node(g, act == 1 ? "Relu" : "Sigmoid", "act", 1, e, 1, &last, NULL);
  outs[0].node = last, outs[0].index = 0, outs[1].node = pool, outs[1].index = 0;
  ge_graph_set_outputs(g, kind == 6 ? 2 : 1, outs, NULL, NULL);
  er = optimized_error(g, threads, roundtrip, 4, xd, &h, "pool conv graph");
  if (er >= 0) *moved = ge_graph_node(h, ge_graph_find(h, "pool"))->inputs[0].node == ge_graph_find(h, "conv");
  ge_graph_free(g);
  ge_graph_free(h);
  free(wv), free(bv);
  return er;
}

/* An AveragePool whose fused bias does not fit its channels (which 0),
 * whose _fused_activation is not Relu (1) or whose _pre_affine does not
 * fit its input (2): an error naming the attribute. */
static void check_pool_post_malformed(int which) {
  ge_graph *g = NULL;
  ge_node_id x, pool;
  ge_edge e[2];
  int64_t xd[4] = {1, 3, 4, 4}, k[2] = {3, 3}, pads[4] = {1, 1, 1, 1}, bd[1] = {which == 0 ? 2 : 3};
  float b[3] = {1, 2, 3};
  ge_graph_create(NULL, &g, NULL);
  ge_graph_add_data(g, "x", GE_DTYPE_FLOAT32, 4, xd, &x, NULL);
  memset(e, 0, sizeof e);
  e[0].node = x;
  e[1].node = add_const(g, 1, bd, b, bd[0]);
  ge_graph_add_node(g, "AveragePool", "pool", 2, e, 1, &pool, NULL);
  ge_node_set_attr_ints(g, pool, "kernel_shape", k, 2, NULL);
  ge_node_set_attr_ints(g, pool, "pads", pads, 4, NULL);
  ge_node_set_attr_int(g, pool, "_fused_inputs", 1, NULL);
  ge_node_set_attr_string(g, pool, "_fused_activation", which == 1 ? "Tanh" : "Relu", NULL);
  if (which == 2) {
    float aff[8] = {1, 1, 1, 1, 0, 0, 0, 0};
    int64_t td[2] = {2, 4};
    ge_tensor t;
    memset(&t, 0, sizeof t);
    t.dtype = GE_DTYPE_FLOAT32, t.rank = 2, t.dims = td, t.data = aff, t.nbytes = sizeof aff;
    ge_node_set_attr_tensor(g, pool, "_pre_affine", &t, NULL);
  }
  expect_run_error(g, pool, which == 2 ? "_pre_affine" : "_fused_", "malformed pool epilogue", which);
}

/* A 1-D AveragePool (the reference kernel's) with the epilogue: x [1, 2,
 * 4] = 0..7, kernel 3, pads 1 counted in, bias {1, -100}, Relu. */
static void check_pool_post_reference(void) {
  ge_graph *g = NULL;
  ge_node_id x, pool;
  ge_edge e[2];
  int64_t xd[3] = {1, 2, 4}, k[1] = {3}, pads[2] = {1, 1}, bd[1] = {2};
  float b[2] = {1, -100}, xv[8] = {0, 1, 2, 3, 4, 5, 6, 7}, want[4] = {4.0f / 3, 2, 3, 8.0f / 3};
  ge_program *p = NULL;
  ge_error err;
  ge_exec_desc d;
  ge_value vx = kh_value(GE_DTYPE_FLOAT32, 3, xd, xv);
  const ge_value *ins[1] = {&vx};
  int i;
  memset(&err, 0, sizeof err);
  ge_graph_create(NULL, &g, NULL);
  ge_graph_add_data(g, "x", GE_DTYPE_FLOAT32, 3, xd, &x, NULL);
  memset(e, 0, sizeof e);
  e[0].node = x;
  e[1].node = add_const(g, 1, bd, b, 2);
  ge_graph_add_node(g, "AveragePool", "pool", 2, e, 1, &pool, NULL);
  ge_node_set_attr_ints(g, pool, "kernel_shape", k, 1, NULL);
  ge_node_set_attr_ints(g, pool, "pads", pads, 2, NULL);
  ge_node_set_attr_int(g, pool, "count_include_pad", 1, NULL);
  ge_node_set_attr_int(g, pool, "_fused_inputs", 1, NULL);
  ge_node_set_attr_string(g, pool, "_fused_activation", "Relu", NULL);
  e[0].node = pool;
  ge_graph_set_outputs(g, 1, e, NULL, NULL);
  ge_graph_infer_shapes(g, NULL);
  ge_graph_node(g, pool)->engine = 0;
  memset(&d, 0, sizeof d);
  d.lookup = lookup_aic;
  if (GE_CHECK_EQ_INT(ge_program_create(g, &d, &p, &err), GE_OK) && GE_CHECK_EQ_INT(ge_program_run(p, ins, 1, &err), GE_OK)) {
    const float *y = (const float *)ge_program_output(p, 0)->data;
    for (i = 0; i < 8; i++) GE_CHECK(fabsf(y[i] - (i < 4 ? want[i] : 0.0f)) < 1e-5f);
  }
  ge_program_free(p);
  ge_graph_free(g);
  kh_free(&vx);
}

GE_TEST(test_conv_before_pool) {
  int i, n_moved = 0;
  double worst = 0;
  tu_seed(&R, 2712);
  for (i = 0; i < 112; i++) {
    int kind = i % 7, moved = -1, threads = 1 + (i / 7) % 2;
    double er = run_pool_conv_graph(kind, threads, i % 14 == 5, &moved);
    if (!GE_CHECK(er >= 0 && er < TOL) || !GE_CHECK_EQ_INT(moved, kind < 2))
      printf("  pool conv kind %d threads %d: %.2g moved %d\n", kind, threads, er, moved);
    if (er > worst) worst = er;
    n_moved += moved == 1;
  }
  check_pool_post_malformed(0);
  check_pool_post_malformed(1);
  check_pool_post_malformed(2);
  check_pool_post_reference();
  printf("  a 1x1 Conv before the AveragePool it reads: 112 graphs, %d moved, worst rel err %.2g\n", n_moved, worst);
}

/* x -> [BatchNormalization (Const) -> Relu ->] Conv 1x1 (Const w, [b]) ->
 * [Relu] -> AveragePool -> out, run by host kernels as it is and by AI
 * Core's after its optimiser, on 1 or 2 threads. kind 0: BN and Relu
 * first (the Conv's prologue, which moves to the pool), a 2x2 stride-2
 * pool (DenseNet's transitions; maps up to 97x97, past the pool's stack
 * buffer); 1: a bias and a pool of stride 2 with pads not counted in
 * (kernel 2 or 3, ceil_mode at random, maps from 7x7): the pool moves
 * before the Conv. Not moved: 2: a bias and pads counted in; 3: a 3x3
 * pool of stride 1 (the map keeps its size); 4: a
 * Relu after the Conv; 5: the Conv's output read twice (a graph output
 * too). Returns the worst relative error (-1 on failure). */
static double run_conv_pool_graph(int kind, int threads, int roundtrip, int *moved) {
  static const int64_t sides[] = {2, 3, 4, 7, 14, 28, 56, 97};
  int64_t N = rint_in(1, 2), C = rint_in(1, 40), M = rint_in(1, 40), xd[4], wd[4];
  int64_t k[2] = {2, 2}, pads[4] = {0, 0, 0, 0}, st[2] = {2, 2};
  float *wv, *bv;
  ge_graph *g = NULL, *h = NULL;
  ge_node_id x, prev, conv, pool, last, bid;
  ge_edge e[3], outs[2];
  double er = -1;
  int a;
  xd[0] = N, xd[1] = C, xd[2] = sides[rint_in(kind == 1 ? 3 : 0, 7)], xd[3] = sides[rint_in(kind == 1 ? 3 : 0, 7)];
  wd[0] = M, wd[1] = C, wd[2] = wd[3] = 1;
  wv = rand_floats(M * C), bv = rand_floats(M);
  memset(e, 0, sizeof e);
  if (kind == 0) {
    g = graph_x_bn(4, xd, &prev);
    e[0].node = prev;
    ge_graph_add_node(g, "Relu", "relu", 1, e, 1, &prev, NULL);
  } else {
    ge_graph_create(NULL, &g, NULL);
    ge_graph_add_data(g, "x", GE_DTYPE_FLOAT32, 4, xd, &x, NULL);
    prev = x;
  }
  e[0].node = prev;
  e[1].node = add_const(g, 4, wd, wv, M * C);
  bid = add_const(g, 1, wd, bv, M);
  e[2].node = kind == 1 || kind == 2 || (kind > 2 && rint_in(0, 1)) ? bid : GE_NONE;
  ge_graph_add_node(g, "Conv", "conv", e[2].node != GE_NONE ? 3 : 2, e, 1, &conv, NULL);
  if (e[2].node == GE_NONE) ge_graph_remove_node(g, bid, NULL);
  last = conv;
  if (kind == 4) e[0].node = conv, ge_graph_add_node(g, "Relu", "relu2", 1, e, 1, &last, NULL);
  e[0].node = last;
  ge_graph_add_node(g, "AveragePool", "pool", 1, e, 1, &pool, NULL);
  if (kind == 1 || kind == 2)
    for (a = 0; a < 2; a++) k[a] = rint_in(2, 3), pads[a] = 1, pads[a + 2] = rint_in(0, 1);
  if (kind == 3) /* 3x3, pads 1: the map keeps its size */
    for (a = 0; a < 2; a++) k[a] = 3, st[a] = 1, pads[a] = pads[a + 2] = 1;
  ge_node_set_attr_ints(g, pool, "kernel_shape", k, 2, NULL);
  ge_node_set_attr_ints(g, pool, "pads", pads, 4, NULL);
  ge_node_set_attr_ints(g, pool, "strides", st, 2, NULL);
  ge_node_set_attr_int(g, pool, "count_include_pad", kind == 2 ? 1 : kind == 1 ? 0 : rint_in(0, 1), NULL);
  if (kind == 1) ge_node_set_attr_int(g, pool, "ceil_mode", rint_in(0, 1), NULL);
  outs[0].node = pool, outs[0].index = 0, outs[1].node = conv, outs[1].index = 0;
  ge_graph_set_outputs(g, kind == 5 ? 2 : 1, outs, NULL, NULL);
  er = optimized_error(g, threads, roundtrip, 4, xd, &h, "conv pool graph");
  if (er >= 0) *moved = ge_graph_node(h, ge_graph_find(h, "conv"))->inputs[0].node == ge_graph_find(h, "pool");
  ge_graph_free(g);
  ge_graph_free(h);
  free(wv), free(bv);
  return er;
}

GE_TEST(test_pool_before_conv) {
  int i, n_moved = 0;
  double worst = 0;
  tu_seed(&R, 2713);
  for (i = 0; i < 96; i++) {
    int kind = i % 6, moved = -1, threads = 1 + (i / 6) % 2;
    double er = run_conv_pool_graph(kind, threads, i % 12 == 1, &moved);
    if (!GE_CHECK(er >= 0 && er < TOL) || !GE_CHECK_EQ_INT(moved, kind < 2))
      printf("  conv pool kind %d threads %d: %.2g moved %d\n", kind, threads, er, moved);
    if (er > worst) worst = er;
    n_moved += moved == 1;
  }
  printf("  an AveragePool before the 1x1 Conv it reads: 96 graphs, %d moved, worst rel err %.2g\n", n_moved, worst);
}

int main(int argc, char **argv) {
  ge_test_init(argc, argv);
  GE_RUN(test_sgemm_kernels);
  GE_RUN(test_sgemm_skinny);
  GE_RUN(test_shares_on_pool);
  GE_RUN(test_conv_fast);
  GE_RUN(test_conv_wino_rows);
  GE_RUN(test_conv_wino43);
  GE_RUN(test_squeeze_expand);
  GE_RUN(test_conv_pixel_rows);
  GE_RUN(test_depthwise_levels);
  GE_RUN(test_mobilenet_layers);
  GE_RUN(test_efficientnet_dw5);
  GE_RUN(test_convnext_dw7);
  GE_RUN(test_dw_flat);
  GE_RUN(test_dw_stride2);
  GE_RUN(test_few_pixels_wide);
  GE_RUN(test_conv_as_1x1);
  GE_RUN(test_dw3_band_silu);
  GE_RUN(test_depthwise_oversubscribed);
  GE_RUN(test_silu_in_registers);
  GE_RUN(test_pointwise_levels);
  GE_RUN(test_conv_atrous);
  GE_RUN(test_convtranspose_fast);
  GE_RUN(test_products_const_b);
  GE_RUN(test_small_batched_levels);
  GE_RUN(test_few_channel_levels);
  GE_RUN(test_matmul_batched);
  GE_RUN(test_einsum_fast);
  GE_RUN(test_einsum_fast_follows_shapes);
  GE_RUN(test_conv3d_fast);
  GE_RUN(test_residual_fusion);
  GE_RUN(test_pad_fold);
  GE_RUN(test_bn_relu_fusion);
  GE_RUN(test_bn_conv_prologue);
  GE_RUN(test_conv_before_pool);
  GE_RUN(test_pool_before_conv);
  GE_RUN(test_silu_fusion);
  GE_RUN(test_branch_weights_packed_once);
  return ge_test_main_end();
}

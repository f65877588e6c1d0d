/* Fast float32 kernels (ge_engines/vector_kernels.h) against the reference
 * kernels of host_cpu.h: the vector math per instruction set (errors in ulps
 * against double; AVX2 and AVX-512, which both fuse multiply-adds, give the
 * same bits), and every fast kernel on
 * seeded random shapes (broadcasting, odd sizes, edge attributes and
 * values), run serially and on a two-thread pool; Resize's state reused
 * across shapes; the element-wise chain fusion on graphs run before and
 * after it. */
/* Its private ge__vk_*; rnn_kernels.h's SIMD path needs vector_kernels.h in its TU, so both
 * are here (libge.a has them in one object); the rest from libge.a. */
#define GE_VECTOR_KERNELS_IMPLEMENTATION
#define GE_RNN_KERNELS_IMPLEMENTATION
#include "ge_exec.h"
#include "ge_engines/ai_core.h"
#include "ge_engines/vector.h"
#include "tests/test.h"
#include "tests/kernel_harness.h"
#include "tests/rng.h"

#include <float.h>
#include <pthread.h>
#include <stdlib.h>

/* ------------------------------------------------ a two-thread pool */

typedef struct pool_job {
  ge_parallel_fn fn;
  void *arg;
  int64_t n, chunk;
} pool_job;

/* The helper thread takes the odd chunks. */
static void *pool_helper(void *p) {
  const pool_job *j = (const pool_job *)p;
  int64_t b;
  for (b = j->chunk; b < j->n; b += 2 * j->chunk) j->fn(j->arg, b, b + j->chunk < j->n ? b + j->chunk : j->n);
  return NULL;
}

/* Splits [0, n) in up to 5 chunks of at least grain; the caller runs the
 * even ones while a second thread runs the odd ones. */
static void pool_parallel_for(ge_kernel_env *env, int64_t n, int64_t grain, ge_parallel_fn fn, void *arg) {
  pool_job j;
  pthread_t t;
  int64_t b;
  (void)env;
  j.fn = fn;
  j.arg = arg;
  j.n = n;
  j.chunk = (n + 4) / 5 > grain ? (n + 4) / 5 : grain;
  if (pthread_create(&t, NULL, pool_helper, &j) != 0) {
    fn(arg, 0, n);
    return;
  }
  for (b = 0; b < n; b += 2 * j.chunk) fn(arg, b, b + j.chunk < n ? b + j.chunk : n);
  pthread_join(t, NULL);
}

/* Runs fn on node id of g; threads: the two-thread pool. */
static ge_status run_kernel(ge_kernel_fn fn, const ge_graph *g, ge_node_id id, ge_value **in, uint32_t n_in,
                            ge_value *out, uint32_t n_out, int threads, ge_error *err) {
  return kh_run_threads(fn, g, id, in, n_in, out, n_out, threads ? pool_parallel_for : NULL, threads ? 2 : 1, err);
}

/* ------------------------------------------------------ comparisons */

/* Floats in an order where neighbours differ by 1. */
static int64_t ordered(float f) {
  int32_t b;
  memcpy(&b, &f, 4);
  return b < 0 ? -(int64_t)(b & 0x7fffffff) : (int64_t)b;
}

static double ulps(float a, float b) {
  if (a != a || b != b) return (a != a) == (b != b) ? 0 : 1e30;
  if (a == b) return 0;
  if (isinf(a) || isinf(b)) return 1e30;
  return fabs((double)(ordered(a) - ordered(b)));
}

/* Max ulps of got against want over n values, ignoring pairs within abs_tol. */
static double max_ulps(const float *got, const float *want, int64_t n, double abs_tol, int64_t *worst) {
  double m = 0;
  int64_t i;
  *worst = -1;
  for (i = 0; i < n; i++) {
    double u = ulps(got[i], want[i]);
    if (u > 0 && fabs((double)got[i] - (double)want[i]) <= abs_tol) continue;
    if (u > m) {
      m = u;
      *worst = i;
    }
  }
  return m;
}

static float rand_float(tu_rng *r, float lo, float hi) {
  return lo + (hi - lo) * (float)((double)(tu_next(r) >> 11) / 9007199254740992.0);
}

/* Edge values sprinkled into inputs. */
static const float edge_values[] = {0.0f, -0.0f, 1.0f, -1.0f, 1e-30f, -1e-30f, 1e-40f, 88.0f, -88.0f, 100.0f,
                                    -100.0f, 1e30f, -1e30f, 0.5f, -0.5f, 3.0f, -3.0f, 6.0f};

static void fill(tu_rng *r, float *p, int64_t n, float lo, float hi, int edges) {
  int64_t i;
  for (i = 0; i < n; i++) {
    p[i] = rand_float(r, lo, hi);
    if (edges && tu_below(r, 16) == 0)
      p[i] = edge_values[tu_below(r, (uint32_t)(sizeof edge_values / sizeof edge_values[0]))];
  }
  if (edges && n > 3) {
    p[0] = HUGE_VALF;
    p[1] = -HUGE_VALF;
    p[2] = NAN;
  }
}

/* ---------------------------------------------- the math per ISA */

static int isa_available(int isa) {
  if (isa == GE__VK_ISA_AVX512) return __builtin_cpu_supports("avx512f");
  if (isa == GE__VK_ISA_AVX2) return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return 1;
}

typedef struct math_case {
  int op;
  const char *name;
  double (*ref)(double);
  float lo, hi; /* input range */
  double max_ulps, abs_tol;
} math_case;

static double ref_sigmoid(double x) { return x >= 0 ? 1 / (1 + exp(-x)) : exp(x) / (1 + exp(x)); }
/* erfc keeps gelu's negative tail accurate (1 + erf cancels there). */
static double ref_gelu(double x) { return 0.5 * x * erfc(-x * 0.70710678118654752440); }
static double ref_gelu_tanh(double x) {
  return 0.5 * x * (1 + tanh(0.79788456080286535588 * (x + 0.044715 * x * x * x)));
}
static double ref_softplus(double x) { return x > 0 ? x + log1p(exp(-x)) : log1p(exp(x)); }
static double ref_elu(double x) { return x < 0 ? expm1(x) : x; }
static double ref_mish(double x) { return x * tanh(ref_softplus(x)); }

/* Bounds: the measured worst case rounded up (the double formulas here are
 * accurate, so the want values are within half an ulp of the truth);
 * abs_tol 1e-37 lets denormal results differ. Gelu-tanh rounds the
 * argument w of its sigmoid in float: the result moves by |w| times that
 * relative error, which matters only where the result is below 1e-6. */
static const math_case math_cases[] = {
    {GE__VK_U_EXP, "exp", exp, -105, 90, 2, 0},
    {GE__VK_U_EXP, "exp near 0", exp, -1, 1, 2, 0},
    {GE__VK_U_LOG, "log", log, 0, 1e6f, 2, 0},
    {GE__VK_U_LOG, "log near 1", log, 0.5f, 2, 2, 0},
    {GE__VK_U_SIGMOID, "sigmoid", ref_sigmoid, -110, 110, 3, 0},
    {GE__VK_U_TANH, "tanh", tanh, -12, 12, 3, 0},
    {GE__VK_U_TANH, "tanh near 0", tanh, -0.05f, 0.05f, 3, 0},
    {GE__VK_U_ERF, "erf", erf, -6, 6, 3, 0},
    {GE__VK_U_ERF, "erf near 0", erf, -1e-3f, 1e-3f, 3, 0},
    {GE__VK_U_GELU, "gelu", ref_gelu, -3, 12, 6, 0},
    {GE__VK_U_GELU, "gelu tail", ref_gelu, -14, -3, 8, 1e-37},
    {GE__VK_U_GELU_TANH, "gelu tanh", ref_gelu_tanh, -12, 12, 8, 1e-6},
    {GE__VK_U_SOFTPLUS, "softplus", ref_softplus, -100, 100, 3, 0},
    {GE__VK_U_ELU, "elu", ref_elu, -30, 5, 2, 0},
    {GE__VK_U_MISH, "mish", ref_mish, -30, 30, 8, 1e-30},
};

/* GELU's far tails give 0 or x, never a denormal (each costs a microcode
 * assist; a denormal intermediate costs the same and shows here too, as
 * the results past x = -13.05 are below FLT_MIN). Every set, x in [-40, 40]. */
GE_TEST(test_gelu_no_denormals) {
  enum { N = 20000 };
  float x[N], y[N];
  ge__vk_upar par;
  int isa, i, bad;
  memset(&par, 0, sizeof par);
  for (i = 0; i < N; i++) x[i] = -40.0f + 80.0f * (float)i / (float)(N - 1);
  for (isa = GE__VK_ISA_BASE; isa <= GE__VK_ISA_AVX512; isa++) {
    if (!isa_available(isa)) continue;
    ge__vk_unary_rows(isa, GE__VK_U_GELU, &par, x, y, N);
    for (bad = 0, i = 0; i < N; i++) bad += y[i] != 0.0f && fabsf(y[i]) < FLT_MIN;
    if (bad) fprintf(stderr, "  set %d: %d denormal results\n", isa, bad);
    GE_CHECK_EQ_INT(bad, 0);
  }
}

GE_TEST(test_math_per_isa_against_double) {
  enum { N = 100000 };
  float *x = (float *)malloc(N * sizeof(float)), *want = (float *)malloc(N * sizeof(float));
  float *got = (float *)malloc(3 * N * sizeof(float));
  tu_rng r;
  size_t ci;
  ge__vk_upar par;
  GE_REQUIRE(x && want && got);
  memset(&par, 0, sizeof par);
  par.alpha = 1.0f;
  tu_seed(&r, 16);
  for (ci = 0; ci < sizeof math_cases / sizeof math_cases[0]; ci++) {
    const math_case *mc = &math_cases[ci];
    int isa, i;
    int64_t worst;
    double m;
    fill(&r, x, N, mc->lo, mc->hi, 0);
    for (i = 0; i < N; i++) want[i] = (float)mc->ref((double)x[i]);
    for (isa = GE__VK_ISA_BASE; isa <= GE__VK_ISA_AVX512; isa++) {
      float *g = got + isa * N;
      if (!isa_available(isa)) continue;
      ge__vk_unary_rows(isa, mc->op, &par, x, g, N);
      if (isa == GE__VK_ISA_AVX512 && isa_available(GE__VK_ISA_AVX2)) /* both fuse multiply-adds: the same bits */
        GE_CHECK_EQ_INT(memcmp(g, got + GE__VK_ISA_AVX2 * N, N * sizeof(float)), 0);
      m = max_ulps(g, want, N, mc->abs_tol, &worst);
      if (m > mc->max_ulps)
        fprintf(stderr, "  %s (set %d): %.0f ulps at x=%.9g (got %.9g, want %.9g)\n", mc->name, isa, m, x[worst],
                g[worst], want[worst]);
      GE_CHECK(m <= mc->max_ulps);
    }
  }
  free(x);
  free(want);
  free(got);
}

/* SiLU for the conv epilogues (ge_vector_activation) per set against x
 * Sigmoid(x) in double: the portable sets give the Sigmoid-then-Mul bits,
 * AVX-512 its own form within 4 ulp; every row length 1..40 writes only
 * its row; NaN stays NaN, inf gives inf, -inf NaN (-inf times 0). */
typedef void (*silu_fn)(float *y, int64_t n);
static double ref_silu(double x) { return x * ref_sigmoid(x); }

GE_TEST(test_silu_per_isa_against_double) {
  enum { N = 100000 };
  static const silu_fn fns[] = {ge__vk_silu_base, ge__vk_silu_avx2, ge__vk_silu_avx512};
  static const float lo[] = {-110.0f, -8.0f, -0.01f}, hi[] = {110.0f, 8.0f, 0.01f};
  float *x = (float *)malloc(N * sizeof(float)), *want = (float *)malloc(N * sizeof(float));
  float *got = (float *)malloc(N * sizeof(float)), row[48];
  tu_rng r;
  int isa, range;
  GE_REQUIRE(x && want && got);
  tu_seed(&r, 18);
  for (range = 0; range < 3; range++) {
    int i;
    fill(&r, x, N, lo[range], hi[range], 0);
    for (i = 0; i < N; i++) want[i] = (float)ref_silu((double)x[i]);
    for (isa = GE__VK_ISA_BASE; isa <= GE__VK_ISA_AVX512; isa++) {
      int64_t worst;
      double m;
      if (!isa_available(isa)) continue;
      memcpy(got, x, N * sizeof(float));
      fns[isa](got, N);
      m = max_ulps(got, want, N, 1e-37, &worst);
      if (m > 4)
        fprintf(stderr, "  silu isa %d: %.0f ulps at x=%.9g (got %.9g, want %.9g)\n", isa, m, x[worst], got[worst],
                want[worst]);
      GE_CHECK(m <= 4);
    }
  }
  for (isa = GE__VK_ISA_BASE; isa <= GE__VK_ISA_AVX512; isa++) {
    static const float sp[4] = {NAN, HUGE_VALF, -HUGE_VALF, -0.0f};
    int64_t n, k;
    if (!isa_available(isa)) continue;
    for (n = 1; n <= 40; n++) {
      for (k = 0; k < 48; k++) row[k] = 12345.0f; /* guards */
      for (k = 0; k < n; k++) row[k + 1] = k < 4 ? sp[k] : x[k];
      fns[isa](row + 1, n);
      GE_CHECK(row[0] == 12345.0f && row[n + 1] == 12345.0f);
      GE_CHECK(row[1] != row[1]);
      if (n > 1) GE_CHECK(row[2] == HUGE_VALF);
      if (n > 2) GE_CHECK(row[3] != row[3]);
      if (n > 3) GE_CHECK(row[4] == 0.0f);
      for (k = 4; k < n; k++) GE_CHECK(ulps(row[k + 1], want[k]) <= 4 || fabs(row[k + 1] - want[k]) <= 1e-37);
    }
  }
  free(x);
  free(want);
  free(got);
}

/* Rows of every length 1..40 at every set: a row's tail (masked loads and
 * stores) gives AVX2's bits on AVX-512 and writes nothing past the row. */
GE_TEST(test_row_tails_per_isa) {
  static const int ops[] = {GE__VK_U_NEG, GE__VK_U_EXP, GE__VK_U_RELU};
  float x[48], y[3][48];
  tu_rng r;
  ge__vk_upar par;
  int64_t n;
  size_t oi;
  memset(&par, 0, sizeof par);
  tu_seed(&r, 17);
  fill(&r, x, 48, -4, 4, 0);
  for (oi = 0; oi < sizeof ops / sizeof ops[0]; oi++)
    for (n = 1; n <= 40; n++) {
      int isa, k;
      for (isa = GE__VK_ISA_BASE; isa <= GE__VK_ISA_AVX512; isa++) {
        if (!isa_available(isa)) continue;
        for (k = 0; k < 48; k++) y[isa][k] = 12345.0f; /* guards */
        ge__vk_unary_rows(isa, ops[oi], &par, x + 1, y[isa] + 1, n);
        GE_CHECK(y[isa][0] == 12345.0f && y[isa][n + 1] == 12345.0f);
        if (isa == GE__VK_ISA_AVX512 && isa_available(GE__VK_ISA_AVX2))
          GE_CHECK_EQ_INT(memcmp(y[isa], y[GE__VK_ISA_AVX2], sizeof y[0]), 0);
      }
    }
}

/* Specials: NaN in gives NaN; infinities and zeros as the reference. */
GE_TEST(test_math_specials) {
  static const float in[16] = {NAN, HUGE_VALF, -HUGE_VALF, 0.0f, -0.0f, 1e-45f, -1e-45f, 89.0f,
                               -104.0f, 1e-38f, 20.0f, -20.0f, 1.0f, -1.0f, 0.25f, 4.0f};
  static const int ops[] = {GE__VK_U_EXP, GE__VK_U_LOG, GE__VK_U_SIGMOID, GE__VK_U_TANH, GE__VK_U_ERF,
                            GE__VK_U_GELU, GE__VK_U_SOFTPLUS};
  static double (*const refs[])(double) = {exp, log, ref_sigmoid, tanh, erf, ref_gelu, ref_softplus};
  ge__vk_upar par;
  float got[16];
  size_t k;
  int i;
  memset(&par, 0, sizeof par);
  for (k = 0; k < sizeof ops / sizeof ops[0]; k++) {
    ge__vk_unary_rows(ge__vk_isa(), ops[k], &par, in, got, 16);
    for (i = 0; i < 16; i++) {
      float want = (float)refs[k]((double)in[i]);
      double u = ulps(got[i], want);
      if (u > 4 && fabs(got[i] - want) > 1e-37) {
        fprintf(stderr, "  op %d at %g: got %.9g want %.9g\n", ops[k], in[i], got[i], want);
        GE_CHECK(0);
      }
    }
  }
}

/* -------------------------------------- sequence-model rows per ISA */

/* Softmax in double (NaN anywhere in the row: NaN everywhere). */
static void ref_softmax(const float *x, float *y, int64_t n, int64_t stride) {
  double m = -HUGE_VAL, s = 0;
  int64_t i;
  int nan = 0;
  for (i = 0; i < n; i++) {
    if (x[i * stride] != x[i * stride]) nan = 1;
    if (x[i * stride] > m) m = x[i * stride];
  }
  for (i = 0; i < n; i++) s += exp((double)x[i * stride] - m);
  for (i = 0; i < n; i++) y[i * stride] = nan ? NAN : (float)(exp((double)x[i * stride] - m) / s);
}

/* Rows and column blocks of every length 1..70 at every set, with masked
 * scores (-1e9, as attention masks write them, and -inf), differences
 * where e^d is denormal (d near -87..-104) and NaN rows: within 12 ulps of
 * double (1e-37 absolute), nothing written
 * past the row; columns (one per lane) give the same bits on every set. */
GE_TEST(test_softmax_rows_per_isa) {
  enum { L = 70, C = 19 };
  static float x[L * C + 2], y[3][L * C + 2], want[L * C + 2];
  tu_rng r;
  int64_t n, k;
  int worst_ok = 1;
  tu_seed(&r, 1616);
  for (n = 1; n <= L; n++) {
    int isa, kind = (int)(n % 4);
    fill(&r, x + 1, n * C, -30, 30, 0);
    for (k = 1; k <= n * C; k++) {
      uint32_t u = tu_below(&r, 8);
      if (kind >= 1 && u == 0) x[k] = -1e9f;
      if (kind >= 2 && u == 1) x[k] = x[1] - rand_float(&r, 80, 110);
      if (kind == 3 && u == 2) x[k] = -HUGE_VALF;
    }
    if (n % 9 == 0) x[1 + n / 2] = NAN;
    for (k = 0; k < C; k++) ref_softmax(x + 1 + k * n, want + 1 + k * n, n, 1);
    for (isa = GE__VK_ISA_BASE; isa <= GE__VK_ISA_AVX512; isa++) {
      int64_t worst;
      double m;
      if (!isa_available(isa)) continue;
      for (k = 0; k < L * C + 2; k++) y[isa][k] = 12345.0f;
      for (k = 0; k < C; k++) GE__VK_PICK(isa, ge__vk_softmax_row)(0, x + 1 + k * n, y[isa] + 1 + k * n, n);
      GE_CHECK(y[isa][0] == 12345.0f && y[isa][n * C + 1] == 12345.0f);
      m = max_ulps(y[isa] + 1, want + 1, n * C, 1e-37, &worst);
      if (m > 12 && worst_ok) {
        fprintf(stderr, "  softmax row n=%d isa %d: %.0f ulps at x=%.9g (got %.9g, want %.9g)\n", (int)n, isa, m,
                x[1 + worst], y[isa][1 + worst], want[1 + worst]);
        worst_ok = 0;
      }
      GE_CHECK(m <= 12); /* a row sums in lanes of the set's width: no common bits */
    }
    /* the same values as n rows of C columns: softmax down the columns */
    for (k = 0; k < C; k++) ref_softmax(x + 1 + k, want + 1 + k, n, C);
    for (isa = GE__VK_ISA_BASE; isa <= GE__VK_ISA_AVX512; isa++) {
      int64_t worst;
      if (!isa_available(isa)) continue;
      for (k = 0; k < L * C + 2; k++) y[isa][k] = 12345.0f;
      GE__VK_PICK(isa, ge__vk_softmax_cols)(0, x + 1, y[isa] + 1, n, C, 16);
      GE__VK_PICK(isa, ge__vk_softmax_cols)(0, x + 17, y[isa] + 17, n, C, C - 16);
      GE_CHECK(y[isa][0] == 12345.0f && y[isa][n * C + 1] == 12345.0f);
      GE_CHECK(max_ulps(y[isa] + 1, want + 1, n * C, 1e-37, &worst) <= 12);
      if (isa == GE__VK_ISA_AVX512 && isa_available(GE__VK_ISA_AVX2)) /* columns: lane order is not summed */
        GE_CHECK_EQ_INT(memcmp(y[isa], y[GE__VK_ISA_AVX2], sizeof y[0]), 0);
    }
  }
}

/* Where's rows at every set against a scalar loop, bit for bit: lengths
 * 0..70, operands advancing or one value, condition bytes 0, 1, 2, 255. */
GE_TEST(test_where_rows_per_isa) {
  static const uint8_t cv[4] = {0, 1, 2, 255};
  uint8_t c[72];
  float a[72], b[72], want[72], y[72];
  tu_rng r;
  int64_t n, k;
  tu_seed(&r, 2121);
  for (n = 0; n <= 70; n++) {
    int sa, sb, isa;
    for (k = 0; k < 72; k++) c[k] = cv[tu_below(&r, 4)];
    fill(&r, a, 72, -5, 5, 1);
    fill(&r, b, 72, -5, 5, 1);
    for (sa = 0; sa < 2; sa++)
      for (sb = 0; sb < 2; sb++) {
        for (k = 0; k < n; k++) want[k] = c[k] ? a[sa ? k : 0] : b[sb ? k : 0];
        for (isa = GE__VK_ISA_BASE; isa <= GE__VK_ISA_AVX512; isa++) {
          if (!isa_available(isa)) continue;
          for (k = 0; k < 72; k++) y[k] = 12345.0f;
          GE__VK_PICK(isa, ge__vk_where_row)(c, a, sa, b, sb, y, n);
          GE_CHECK_EQ_INT(memcmp(y, want, (size_t)n * sizeof(float)), 0);
          GE_CHECK(y[n] == 12345.0f);
        }
      }
  }
}

/* ----------------------------------------- kernels against the reference */

typedef void (*set_attrs_fn)(kt *t, int variant);

/* Whether the fast kernel's outputs (status s2) agree with the reference's
 * (s1) within max_ulps (abs_tol ignored differences); `how` names the run. */
static int same_outputs(const char *op, int variant, int threads, const char *how, ge_status s1, const ge_error *e1,
                        const ge_value *ref, ge_status s2, const ge_error *e2, const ge_value *fast, uint32_t n_out,
                        double max_ulps_ok, double abs_tol) {
  int ok = GE_CHECK_EQ_INT(s2, s1);
  uint32_t o;
  if (s1 != GE_OK && s1 == s2) ok &= GE_CHECK_STR(e2->message, e1->message);
  for (o = 0; o < n_out && s1 == GE_OK && s2 == GE_OK; o++) {
    int64_t worst;
    double m;
    int32_t k;
    ok &= GE_CHECK_EQ_INT(fast[o].dtype, ref[o].dtype) && GE_CHECK_EQ_INT(fast[o].rank, ref[o].rank) &&
          GE_CHECK_EQ_INT(fast[o].numel, ref[o].numel);
    for (k = 0; k < ref[o].rank && k < fast[o].rank; k++) ok &= GE_CHECK_EQ_INT(fast[o].dims[k], ref[o].dims[k]);
    if (!ok || ref[o].dtype != GE_DTYPE_FLOAT32) continue;
    m = max_ulps((const float *)fast[o].data, (const float *)ref[o].data, ref[o].numel, abs_tol, &worst);
    if (m > max_ulps_ok) {
      fprintf(stderr, "  %s variant %d threads %d, %s: %.0f ulps at %lld: fast %.9g ref %.9g\n", op, variant, threads,
              how, m, (long long)worst, ((const float *)fast[o].data)[worst], ((const float *)ref[o].data)[worst]);
      ok = GE_CHECK(0);
    }
  }
  return ok;
}

/* Runs op (reference and fast, serial and threaded) on in[0..n_in) and
 * checks the outputs agree within max_ulps (abs_tol ignored differences).
 * The fast kernel runs three ways: into fresh outputs, into those outputs
 * poisoned (an executor's planned outputs: the inline path), and twice as
 * a task of fixed shapes (the second run on the memo of the first). */
static int check_op(const char *op, ge_value **in, uint32_t n_in, uint32_t n_out, set_attrs_fn attrs, int variant,
                    double max_ulps_ok, double abs_tol) {
  kt t;
  ge_value ref[4], fast[4];
  ge_kernel_fn fr, ff;
  int threads, ok = 1;
  uint32_t o;
  if (!kt_make(&t, op, n_in, in, (int32_t)n_out)) {
    kt_free(&t);
    return GE_CHECK(0);
  }
  if (attrs) attrs(&t, variant);
  fr = ge_host_cpu_kernel(ge_graph_node(t.g, t.id));
  ff = ge_vector_fast_kernel(ge_graph_node(t.g, t.id));
  if (!GE_CHECK(fr && ff)) {
    kt_free(&t);
    return 0;
  }
  for (threads = 0; threads < 2; threads++) {
    ge_error e1, e2;
    ge_status s1, s2;
    memset(ref, 0, sizeof ref);
    memset(fast, 0, sizeof fast);
    memset(&e1, 0, sizeof e1);
    memset(&e2, 0, sizeof e2);
    s1 = run_kernel(fr, t.g, t.id, in, n_in, ref, n_out, 0, &e1);
    s2 = run_kernel(ff, t.g, t.id, in, n_in, fast, n_out, threads, &e2);
    if (s2 == GE_OK) {
      for (o = 0; o < n_out; o++)
        if (fast[o].data) memset(fast[o].data, 0xff, fast[o].nbytes); /* NaN floats */
      s2 = run_kernel(ff, t.g, t.id, in, n_in, fast, n_out, threads, &e2);
    }
    ok &= same_outputs(op, variant, threads, "planned", s1, &e1, ref, s2, &e2, fast, n_out, max_ulps_ok, abs_tol);
    if (ok && s2 == GE_OK) {
      int prepared = ge_vector_fast_prepare(ge_graph_node(t.g, t.id)) == ff;
      s2 = kh_run_fixed(ff, t.g, t.id, in, n_in, fast, n_out, threads ? pool_parallel_for : NULL, threads ? 2 : 1,
                        prepared ? KH_PREPARED : 1, &e2);
      ok &= same_outputs(op, variant, threads, "fixed shapes", s1, &e1, ref, s2, &e2, fast, n_out, max_ulps_ok,
                         abs_tol);
    }
    for (o = 0; o < n_out; o++) {
      kh_free(&ref[o]);
      kh_free(&fast[o]);
    }
  }
  kt_free(&t);
  return ok;
}

/* A random shape of rank 0..4 with dims 1..9, sometimes large. */
static int32_t rand_shape(tu_rng *r, int64_t *dims) {
  int32_t rank = (int32_t)tu_below(r, 5), k;
  for (k = 0; k < rank; k++) dims[k] = 1 + tu_below(r, 9);
  if (rank >= 2 && tu_below(r, 4) == 0) {
    dims[rank - 1] = 100 + tu_below(r, 200); /* over the parallel grain */
    dims[rank - 2] = 60 + tu_below(r, 140);
  }
  return rank;
}

static ge_value rand_value(tu_rng *r, int32_t rank, const int64_t *dims, float lo, float hi, int edges) {
  ge_value v = kh_value(GE_DTYPE_FLOAT32, rank, dims, NULL);
  fill(r, (float *)v.data, v.numel, lo, hi, edges);
  return v;
}

typedef struct unary_case {
  const char *op;
  set_attrs_fn attrs;
  int variants;
  float lo, hi;
  double max_ulps, abs_tol;
} unary_case;

static void attrs_leaky(kt *t, int v) {
  if (v) ge_node_set_attr_float(t->g, t->id, "alpha", v == 1 ? 0.2 : -1.5, &t->err);
}
static void attrs_hardsigmoid(kt *t, int v) {
  if (v) {
    ge_node_set_attr_float(t->g, t->id, "alpha", 1.0 / 6, &t->err);
    ge_node_set_attr_float(t->g, t->id, "beta", v == 1 ? 0.5 : -0.25, &t->err);
  }
}
static void attrs_gelu(kt *t, int v) {
  if (v) ge_node_set_attr_string(t->g, t->id, "approximate", v == 1 ? "tanh" : "none", &t->err);
}
static void attrs_alpha(kt *t, int v) {
  if (v) ge_node_set_attr_float(t->g, t->id, "alpha", v == 1 ? 0.5 : 2.0, &t->err);
}
static void attrs_clip_old(kt *t, int v) {
  ge_node_set_attr_float(t->g, t->id, "min", v ? -0.5 : 0.0, &t->err);
  if (v != 2) ge_node_set_attr_float(t->g, t->id, "max", 6.0, &t->err);
}

static const unary_case unary_cases[] = {
    {"Relu", NULL, 1, -5, 5, 0, 0},
    {"Neg", NULL, 1, -5, 5, 0, 0},
    {"Abs", NULL, 1, -5, 5, 0, 0},
    {"Sqrt", NULL, 1, -1, 100, 0, 0},
    {"Reciprocal", NULL, 1, -5, 5, 0, 0},
    {"Exp", NULL, 1, -100, 90, 2, 0},
    {"Log", NULL, 1, -1, 1000, 2, 0},
    {"Sigmoid", NULL, 1, -20, 20, 3, 0},
    {"Tanh", NULL, 1, -10, 10, 3, 0},
    {"Erf", NULL, 1, -5, 5, 3, 0},
    {"Gelu", attrs_gelu, 3, -3, 10, 8, 1e-6}, /* the reference cancels in its tail */
    {"Softplus", NULL, 1, -30, 30, 3, 0},
    {"Softsign", NULL, 1, -30, 30, 1, 0},
    {"Mish", NULL, 1, -20, 20, 8, 1e-30},
    {"HardSigmoid", attrs_hardsigmoid, 3, -8, 8, 2, 1e-7},
    {"HardSwish", NULL, 1, -8, 8, 2, 1e-7},
    {"LeakyRelu", attrs_leaky, 3, -5, 5, 1, 0} /* alpha rounded to float */,
    {"ThresholdedRelu", attrs_alpha, 3, -5, 5, 0, 0},
    {"Elu", attrs_alpha, 3, -20, 5, 2, 0},
    {"Celu", attrs_alpha, 3, -20, 5, 3, 0},
    {"Selu", NULL, 1, -20, 5, 2, 0},
    {"Clip", attrs_clip_old, 3, -10, 10, 0, 0},
};

GE_TEST(test_unary_kernels_against_reference) {
  tu_rng r;
  size_t ci;
  tu_seed(&r, 1601);
  for (ci = 0; ci < sizeof unary_cases / sizeof unary_cases[0]; ci++) {
    const unary_case *uc = &unary_cases[ci];
    int v, rep;
    for (v = 0; v < uc->variants; v++)
      for (rep = 0; rep < 4; rep++) {
        int64_t dims[8];
        int32_t rank = rand_shape(&r, dims);
        ge_value x = rand_value(&r, rank, dims, uc->lo, uc->hi, 1);
        ge_value *in[1];
        in[0] = &x;
        if (!check_op(uc->op, in, 1, 1, uc->attrs, v, uc->max_ulps, uc->abs_tol))
          fprintf(stderr, "  (%s, rank %d)\n", uc->op, (int)rank);
        kh_free(&x);
      }
  }
}

/* Clip with bound inputs (opset >= 11): absent, one, both, crossed. */
GE_TEST(test_clip_inputs) {
  static const float bounds[][2] = {{0, 6}, {-1, 1}, {2, -2}, {-HUGE_VALF, 0.5f}};
  tu_rng r;
  size_t b;
  int64_t dims[2] = {37, 41}, one = 1;
  tu_seed(&r, 77);
  for (b = 0; b < sizeof bounds / sizeof bounds[0]; b++) {
    int form;
    for (form = 0; form < 3; form++) {
      ge_value x = rand_value(&r, 2, dims, -10, 10, 1);
      ge_value lo = kh_value(GE_DTYPE_FLOAT32, 0, &one, &bounds[b][0]);
      ge_value hi = kh_value(GE_DTYPE_FLOAT32, 1, &one, &bounds[b][1]);
      ge_value *in[3];
      in[0] = &x;
      in[1] = form == 1 ? NULL : &lo;
      in[2] = form == 2 ? NULL : &hi;
      check_op("Clip", in, 3, 1, NULL, 0, 0, 0);
      kh_free(&x);
      kh_free(&lo);
      kh_free(&hi);
    }
  }
}

/* A shape that broadcasts to y (rank ry): leading dims dropped, some 1. */
static int32_t bcast_operand(tu_rng *r, int32_t ry, const int64_t *y, int64_t *d) {
  int32_t drop = (int32_t)tu_below(r, (uint32_t)ry + 1), k;
  for (k = drop; k < ry; k++) d[k - drop] = tu_below(r, 3) == 0 ? 1 : y[k];
  return ry - drop;
}

GE_TEST(test_binary_kernels_broadcasting) {
  static const char *const ops[] = {"Add", "Sub", "Mul", "Div", "Max", "Min", "Sum", "PRelu", "Pow"};
  tu_rng r;
  size_t oi;
  tu_seed(&r, 42);
  for (oi = 0; oi < sizeof ops / sizeof ops[0]; oi++) {
    int rep;
    for (rep = 0; rep < 24; rep++) {
      int64_t y[8], da[8], db[8];
      int32_t ry = rand_shape(&r, y), ra, rb;
      int prelu = !strcmp(ops[oi], "PRelu"), pw = !strcmp(ops[oi], "Pow");
      ge_value a, b, *in[2];
      ra = prelu ? ry : bcast_operand(&r, ry, y, da);
      if (prelu) memcpy(da, y, sizeof y);
      rb = bcast_operand(&r, ry, y, db);
      if (!prelu && tu_below(&r, 2)) { /* swap: the broadcast side is a */
        int64_t t[8];
        int32_t tr = ra;
        memcpy(t, da, sizeof t);
        memcpy(da, db, sizeof t);
        memcpy(db, t, sizeof t);
        ra = rb;
        rb = tr;
      }
      if (pw) { /* scalar exponents of each shortcut, and a general one */
        static const float ex[] = {2.0f, 0.5f, -1.0f, 0.0f, 1.0f, 3.0f, -2.5f};
        rb = 0;
        a = rand_value(&r, ra, da, -4, 4, 1);
        b = kh_value(GE_DTYPE_FLOAT32, 0, db, &ex[rep % 7]);
      } else {
        a = rand_value(&r, ra, da, -4, 4, 1);
        b = rand_value(&r, rb, db, -4, 4, 1);
      }
      in[0] = &a;
      in[1] = &b;
      if (!check_op(ops[oi], in, 2, 1, NULL, 0, pw ? 1 : 0, 0))
        fprintf(stderr, "  (%s ranks %d %d)\n", ops[oi], (int)ra, (int)rb);
      kh_free(&a);
      kh_free(&b);
    }
  }
}

/* Where: a bool condition and float32 operands, each the output's shape, a
 * suffix of it or one value (the fast path), or any other broadcast (the
 * reference, through the fast kernel). */
GE_TEST(test_where_against_reference) {
  tu_rng r;
  int rep, suffix_only = 0;
  tu_seed(&r, 4242);
  for (rep = 0; rep < 120; rep++) {
    int64_t y[8], d[3][8], k;
    int32_t ry = rand_shape(&r, y), rk[3], i;
    ge_value v[3], *in[3];
    int plain = rep % 2 == 0;
    for (i = 0; i < 3; i++) {
      if (plain) { /* a suffix of y, or one value */
        int32_t drop = (int32_t)tu_below(&r, (uint32_t)ry + 1);
        rk[i] = ry - drop;
        for (k = drop; k < ry; k++) d[i][k - drop] = y[k];
        if (tu_below(&r, 4) == 0) rk[i] = 0;
      } else {
        rk[i] = bcast_operand(&r, ry, y, d[i]);
      }
    }
    v[0] = kh_value(GE_DTYPE_BOOL, rk[0], d[0], NULL);
    for (k = 0; k < v[0].numel; k++) ((uint8_t *)v[0].data)[k] = (uint8_t)(tu_below(&r, 2));
    v[1] = rand_value(&r, rk[1], d[1], -4, 4, 1);
    v[2] = rand_value(&r, rk[2], d[2], -4, 4, 1);
    for (i = 0; i < 3; i++) in[i] = &v[i];
    suffix_only += plain;
    if (!check_op("Where", in, 3, 1, NULL, 0, 0, 0))
      fprintf(stderr, "  (Where ranks %d %d %d of %d)\n", (int)rk[0], (int)rk[1], (int)rk[2], (int)ry);
    for (i = 0; i < 3; i++) kh_free(&v[i]);
  }
  printf("  Where: 120 cases, %d on the suffix/one-value path\n", suffix_only);
}

/* ------------------------------------------------------------- pooling */

/* The attributes the next pool/norm node gets (a test program is one TU). */
static struct {
  int64_t k[2], s[2], d[2], pads[4];
  int ceil_mode, include_pad, auto_pad, has_strides, has_dil, has_pads;
  int64_t axis;
  double eps;
} attrs_now;

static void attrs_pool(kt *t, int v) {
  static const char *const ap[] = {"NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID"};
  (void)v;
  ge_node_set_attr_ints(t->g, t->id, "kernel_shape", attrs_now.k, 2, &t->err);
  if (attrs_now.has_strides) ge_node_set_attr_ints(t->g, t->id, "strides", attrs_now.s, 2, &t->err);
  if (attrs_now.has_dil) ge_node_set_attr_ints(t->g, t->id, "dilations", attrs_now.d, 2, &t->err);
  if (attrs_now.has_pads && attrs_now.auto_pad == 0)
    ge_node_set_attr_ints(t->g, t->id, "pads", attrs_now.pads, 4, &t->err);
  if (attrs_now.auto_pad) ge_node_set_attr_string(t->g, t->id, "auto_pad", ap[attrs_now.auto_pad], &t->err);
  if (attrs_now.ceil_mode) ge_node_set_attr_int(t->g, t->id, "ceil_mode", 1, &t->err);
  if (attrs_now.include_pad) ge_node_set_attr_int(t->g, t->id, "count_include_pad", 1, &t->err);
}

GE_TEST(test_pool2d_against_reference) {
  tu_rng r;
  int rep, op;
  tu_seed(&r, 2024);
  for (op = 0; op < 2; op++)
    for (rep = 0; rep < 160; rep++) {
      int64_t dims[4];
      int i, big = rep % 40 == 0;
      ge_value x, *in[1];
      dims[0] = 1 + tu_below(&r, 2);
      dims[1] = big ? 16 : 1 + tu_below(&r, 4);
      dims[2] = big ? 57 : 1 + tu_below(&r, 19);
      dims[3] = big ? 64 : 1 + tu_below(&r, 23);
      memset(&attrs_now, 0, sizeof attrs_now);
      for (i = 0; i < 2; i++) {
        attrs_now.k[i] = 1 + tu_below(&r, 4);
        attrs_now.s[i] = 1 + tu_below(&r, 3);
        attrs_now.d[i] = 1 + (tu_below(&r, 4) == 0);
        attrs_now.pads[i] = tu_below(&r, (uint32_t)attrs_now.k[i]);
        attrs_now.pads[i + 2] = tu_below(&r, (uint32_t)attrs_now.k[i]);
      }
      attrs_now.has_strides = tu_below(&r, 4) != 0;
      attrs_now.has_dil = tu_below(&r, 3) == 0;
      attrs_now.has_pads = tu_below(&r, 3) != 0;
      attrs_now.auto_pad = tu_below(&r, 3) == 0 ? 1 + (int)tu_below(&r, 3) : 0;
      attrs_now.ceil_mode = tu_below(&r, 3) == 0;
      attrs_now.include_pad = tu_below(&r, 2);
      if (rep % 4 == 1) { /* no padding, rows of 8..57 outputs: whole vectors straight from the rows */
        attrs_now.has_pads = 0, attrs_now.auto_pad = 0, attrs_now.ceil_mode = 0;
        dims[3] = attrs_now.k[1] + (8 + tu_below(&r, 50) - 1) * (attrs_now.has_strides ? attrs_now.s[1] : 1);
      }
      x = rand_value(&r, 4, dims, -4, 4, 0);
      if (rep % 7 == 3) ((float *)x.data)[tu_below(&r, (uint32_t)x.numel)] = NAN;
      in[0] = &x;
      if (!check_op(op ? "AveragePool" : "MaxPool", in, 1, 1, attrs_pool, 0, op ? 4 : 0, 1e-6))
        fprintf(stderr, "  (x %lldx%lldx%lldx%lld k %lldx%lld s %lldx%lld d %lldx%lld auto %d ceil %d incl %d)\n",
                (long long)dims[0], (long long)dims[1], (long long)dims[2], (long long)dims[3],
                (long long)attrs_now.k[0], (long long)attrs_now.k[1], (long long)attrs_now.s[0],
                (long long)attrs_now.s[1], (long long)attrs_now.d[0], (long long)attrs_now.d[1], attrs_now.auto_pad,
                attrs_now.ceil_mode, attrs_now.include_pad);
      kh_free(&x);
    }
}

/* The window max of output (i, j) of plane x, taps in row then column
 * order, numpy's max: what the reference kernel computes. */
static float maxpool_direct(const float *x, const ge__vk_pool *p, int64_t i, int64_t j) {
  float acc = 0.0f;
  int64_t r, t, any = 0;
  for (r = 0; r < p->k[0]; r++)
    for (t = 0; t < p->k[1]; t++) {
      int64_t row = i * p->s[0] - p->pb[0] + r * p->d[0], col = j * p->s[1] - p->pb[1] + t * p->d[1];
      float v;
      if (row < 0 || row >= p->ih || col < 0 || col >= p->iw) continue;
      v = x[row * p->iw + col];
      acc = !any++ || v > acc || v != v ? v : acc;
    }
  return acc;
}

/* The AveragePool of the same geometry (count_include_pad drawn) by whole
 * planes at every vector level against a double-precision average, then
 * through the kernel (threads) against the reference kernel, on x refilled
 * without the edge values (sums of +-1e30 cancel in any order's own way).
 * want and got hold the outputs and two guards. 1 when the planes path
 * took it. */
static int taken_avg_planes(tu_rng *r, ge__vk_pool *p, int ceil_mode, float *x, float *want, float *got) {
  int64_t n = p->planes * p->oh * p->ow, pl, oi, oj, a, b, j, dims[4];
  float *inv = (float *)malloc((size_t)(p->oh * p->ow) * sizeof(float));
  ge__vk_mpjob job;
  ge_value xv, *in[1];
  int isa, took = 0, i;
  p->is_max = 0;
  p->include_pad = (int)tu_below(r, 2);
  fill(r, x, p->planes * p->ih * p->iw, -4, 4, 0);
  x[tu_below(r, (uint32_t)(p->planes * p->ih * p->iw))] = NAN;
  ge__vk_pool_fill_inv(p, inv); /* the kernel's reciprocal counts */
  p->inv = inv;
  for (pl = 0; pl < p->planes; pl++) /* the ONNX definition in double */
    for (oi = 0; oi < p->oh; oi++)
      for (oj = 0; oj < p->ow; oj++) {
        double sum = 0;
        int64_t cnt = 0;
        for (a = 0; a < p->k[0]; a++)
          for (b = 0; b < p->k[1]; b++) {
            int64_t yy = oi * p->s[0] - p->pb[0] + a, xx = oj * p->s[1] - p->pb[1] + b;
            int inside = yy >= 0 && yy < p->ih && xx >= 0 && xx < p->iw;
            int padded = yy >= -p->pb[0] && yy < p->ih + p->pe[0] && xx >= -p->pb[1] && xx < p->iw + p->pe[1];
            if (inside) sum += x[(pl * p->ih + yy) * p->iw + xx];
            cnt += p->include_pad ? padded : inside;
          }
        want[(pl * p->oh + oi) * p->ow + oj] = cnt ? (float)(sum / (double)cnt) : 0.0f;
      }
  job.p = p;
  if (ge__vk_maxpool_geom(p, &job.g)) {
    took = 1;
    for (isa = GE__VK_ISA_BASE; isa <= GE__VK_ISA_AVX512; isa++) {
      double worst = 0;
      if (!isa_available(isa)) continue;
      got[0] = got[n + 1] = 12345.0f;
      p->isa = isa;
      p->y = got + 1;
      ge__vk_maxpool_planes(&job, 0, p->planes * job.g.bands);
      for (j = 0; j < n; j++) {
        double d = want[j] != want[j] ? (got[j + 1] != got[j + 1] ? 0 : 1) : fabs((double)got[j + 1] - want[j]);
        if (d > worst) worst = d;
      }
      if (!GE_CHECK(got[0] == 12345.0f && got[n + 1] == 12345.0f && worst < 1e-5))
        fprintf(stderr, "  avg (isa %d x %lldx%lldx%lld k %lldx%lld s %lldx%lld pads %lld,%lld,%lld,%lld incl %d): %.2g\n",
                isa, (long long)p->planes, (long long)p->ih, (long long)p->iw, (long long)p->k[0], (long long)p->k[1],
                (long long)p->s[0], (long long)p->s[1], (long long)p->pb[0], (long long)p->pb[1], (long long)p->pe[0],
                (long long)p->pe[1], p->include_pad, worst);
    }
  }
  memset(&attrs_now, 0, sizeof attrs_now);
  for (i = 0; i < 2; i++) {
    attrs_now.k[i] = p->k[i], attrs_now.s[i] = p->s[i], attrs_now.d[i] = 1;
    attrs_now.pads[i] = p->pb[i], attrs_now.pads[i + 2] = p->pe[i];
  }
  attrs_now.has_strides = attrs_now.has_pads = 1;
  attrs_now.ceil_mode = ceil_mode;
  attrs_now.include_pad = p->include_pad;
  dims[0] = p->planes, dims[1] = 1, dims[2] = p->ih, dims[3] = p->iw;
  xv = kh_value(GE_DTYPE_FLOAT32, 4, dims, x);
  in[0] = &xv;
  check_op("AveragePool", in, 1, 1, attrs_pool, 0, 4, 1e-6);
  kh_free(&xv);
  free(inv);
  return took;
}

/* MaxPool by whole planes at every vector level against the direct loop,
 * bit for bit (a max is one of its inputs; NaN, -inf and signed zeros
 * included), on the shapes it takes: tiles (k = s, the pools of speech
 * CNNs), stride-1 "same" windows (SPPF), and any stride, pads and ceil
 * mode, planes too big for one buffer in bands of rows; then the same shapes
 * through the kernel with and without threads against the reference kernel. */
GE_TEST(test_maxpool_planes_per_isa) {
  tu_rng r;
  int rep, taken = 0, kinds[3] = {0, 0, 0}, avg_taken = 0, banded = 0, rowwise = 0;
  tu_seed(&r, 1616);
  for (rep = 0; rep < 360; rep++) {
    ge__vk_pool p;
    ge__vk_mpjob job;
    int kind = rep % 3, isa, i, ceil_mode, big = rep % 9 == 4;
    int64_t n, pl, oi, oj, dims[4];
    float *x, *want, *got;
    ge_value xv, *in[1];
    memset(&p, 0, sizeof p);
    p.is_max = 1;
    p.planes = 1 + tu_below(&r, 5);
    p.ih = 1 + tu_below(&r, 40), p.iw = 1 + tu_below(&r, 40);
    if (big) p.planes = 1 + tu_below(&r, 2), p.ih = 80 + tu_below(&r, 60), p.iw = 80 + tu_below(&r, 60); /* in bands */
    p.d[0] = p.d[1] = 1;
    if (kind == 0) { /* tiles */
      p.k[0] = p.s[0] = 1 + tu_below(&r, 3), p.k[1] = p.s[1] = 1 + tu_below(&r, 2);
    } else if (kind == 1) { /* stride 1, same size */
      p.k[0] = p.k[1] = 1 + 2 * tu_below(&r, 4);
      p.s[0] = p.s[1] = 1;
      p.pb[0] = p.pb[1] = p.pe[0] = p.pe[1] = p.k[0] / 2;
    } else {
      for (i = 0; i < 2; i++) {
        p.k[i] = 1 + tu_below(&r, 5), p.s[i] = 1 + tu_below(&r, i ? 2 : 3);
        p.pb[i] = tu_below(&r, (uint32_t)p.k[i]), p.pe[i] = tu_below(&r, (uint32_t)p.k[i]);
      }
      if (rep % 6 == 5) /* SqueezeNet's 3x3 stride 2 without pads (odd sizes by rows in place), the ResNets' with pads of 1 */
        for (i = 0; i < 2; i++) p.k[i] = 3, p.s[i] = 2, p.pb[i] = p.pe[i] = rep % 12 == 11;
    }
    ceil_mode = kind == 2 && tu_below(&r, 2);
    p.oh = ge__vk_pool_axis(0, ceil_mode, p.ih, p.k[0], p.s[0], 1, &p.pb[0], &p.pe[0]);
    p.ow = ge__vk_pool_axis(0, ceil_mode, p.iw, p.k[1], p.s[1], 1, &p.pb[1], &p.pe[1]);
    if (p.oh < 1 || p.ow < 1) continue;
    n = p.planes * p.oh * p.ow;
    x = (float *)malloc((size_t)(p.planes * p.ih * p.iw) * sizeof(float));
    want = (float *)malloc((size_t)n * sizeof(float));
    got = (float *)malloc((size_t)(n + 2) * sizeof(float));
    fill(&r, x, p.planes * p.ih * p.iw, -4, 4, 1);
    for (i = 0; i < 3; i++) x[tu_below(&r, (uint32_t)(p.planes * p.ih * p.iw))] = i == 0 ? NAN : i == 1 ? -HUGE_VALF : -0.0f;
    for (pl = 0; pl < p.planes; pl++)
      for (oi = 0; oi < p.oh; oi++)
        for (oj = 0; oj < p.ow; oj++)
          want[(pl * p.oh + oi) * p.ow + oj] = maxpool_direct(x + pl * p.ih * p.iw, &p, oi, oj);
    p.x = x;
    job.p = &p;
    if (ge__vk_maxpool_geom(&p, &job.g)) {
      taken++;
      kinds[kind]++;
      banded += job.g.bands > 1;
      rowwise += job.g.rowwise;
      for (isa = GE__VK_ISA_BASE; isa <= GE__VK_ISA_AVX512; isa++) {
        if (!isa_available(isa)) continue;
        got[0] = got[n + 1] = 12345.0f; /* guards */
        p.isa = isa;
        p.y = got + 1;
        ge__vk_maxpool_planes(&job, 0, p.planes * job.g.bands);
        if (!GE_CHECK(got[0] == 12345.0f && got[n + 1] == 12345.0f && !memcmp(got + 1, want, (size_t)n * sizeof(float))))
          fprintf(stderr, "  (isa %d kind %d x %lldx%lldx%lld k %lldx%lld s %lldx%lld pads %lld,%lld,%lld,%lld)\n", isa,
                  kind, (long long)p.planes, (long long)p.ih, (long long)p.iw, (long long)p.k[0], (long long)p.k[1],
                  (long long)p.s[0], (long long)p.s[1], (long long)p.pb[0], (long long)p.pb[1], (long long)p.pe[0],
                  (long long)p.pe[1]);
      }
    }
    /* through the kernel (threads, batch > 1) against the reference kernel */
    memset(&attrs_now, 0, sizeof attrs_now);
    for (i = 0; i < 2; i++) {
      attrs_now.k[i] = p.k[i], attrs_now.s[i] = p.s[i], attrs_now.d[i] = 1;
      attrs_now.pads[i] = p.pb[i], attrs_now.pads[i + 2] = p.pe[i];
    }
    attrs_now.has_strides = attrs_now.has_pads = 1;
    attrs_now.ceil_mode = ceil_mode;
    dims[0] = p.planes, dims[1] = 1, dims[2] = p.ih, dims[3] = p.iw;
    xv = kh_value(GE_DTYPE_FLOAT32, 4, dims, x);
    in[0] = &xv;
    check_op("MaxPool", in, 1, 1, attrs_pool, 0, 0, 0);
    kh_free(&xv);
    if (taken_avg_planes(&r, &p, ceil_mode, x, want, got)) avg_taken++;
    free(x);
    free(want);
    free(got);
  }
  GE_CHECK(kinds[0] > 60 && kinds[1] > 60 && kinds[2] > 30 && avg_taken > 150 && banded > 20 && rowwise > 20);
  printf("  MaxPool by planes: %d cases (%d tiles, %d same-size, %d other, %d in bands, %d by rows); AveragePool: %d\n",
         taken, kinds[0], kinds[1], kinds[2], banded, rowwise, avg_taken);
}

GE_TEST(test_global_pool_against_reference) {
  tu_rng r;
  int rep;
  tu_seed(&r, 7);
  for (rep = 0; rep < 40; rep++) {
    int64_t dims[4] = {1 + tu_below(&r, 2), 1 + tu_below(&r, 9), 1 + tu_below(&r, 30), 1 + tu_below(&r, 30)};
    int32_t rank = 2 + (int32_t)tu_below(&r, 3);
    ge_value x = rand_value(&r, rank, dims, -4, 4, 0), *in[1];
    in[0] = &x;
    check_op("GlobalMaxPool", in, 1, 1, NULL, 0, 0, 0);
    check_op("GlobalAveragePool", in, 1, 1, NULL, 0, 4, 1e-6);
    kh_free(&x);
  }
}

/* ------------------------------------------------------ softmax, norms */

static void attrs_axis(kt *t, int v) {
  (void)v;
  ge_node_set_attr_int(t->g, t->id, "axis", attrs_now.axis, &t->err);
  if (attrs_now.eps > 0) ge_node_set_attr_float(t->g, t->id, "epsilon", attrs_now.eps, &t->err);
}

GE_TEST(test_softmax_against_reference) {
  tu_rng r;
  int rep;
  tu_seed(&r, 13);
  for (rep = 0; rep < 60; rep++) {
    int64_t dims[8];
    int32_t rank = rand_shape(&r, dims);
    ge_value x, *in[1];
    if (rank == 0) rank = 1, dims[0] = 1 + tu_below(&r, 40);
    x = rand_value(&r, rank, dims, -30, 30, 0);
    in[0] = &x;
    memset(&attrs_now, 0, sizeof attrs_now);
    attrs_now.axis = (int64_t)tu_below(&r, (uint32_t)(2 * rank)) - rank;
    /* exp's 2 ulps, the float sum of the row and the division */
    check_op("Softmax", in, 1, 1, attrs_axis, 0, 12, 1e-37);
    check_op("LogSoftmax", in, 1, 1, attrs_axis, 0, 12, 1e-5);
    kh_free(&x);
  }
}

/* Normalized outputs are O(1): the float statistics (sums of up to a few
 * thousand terms) leave errors near 1e-6 absolute. */
GE_TEST(test_norms_against_reference) {
  tu_rng r;
  int rep;
  tu_seed(&r, 99);
  for (rep = 0; rep < 40; rep++) {
    int64_t dims[8], sd[8], cd[1];
    int32_t rank = rand_shape(&r, dims), k, axis;
    ge_value x, g, b, m, v, *in[5];
    if (rank < 2) rank = 2, dims[0] = 2, dims[1] = 1 + tu_below(&r, 70);
    x = rand_value(&r, rank, dims, -3, 5, 0);
    memset(&attrs_now, 0, sizeof attrs_now);
    axis = (int32_t)tu_below(&r, (uint32_t)rank);
    attrs_now.axis = tu_below(&r, 2) ? axis : axis - rank;
    attrs_now.eps = tu_below(&r, 2) ? 1e-3 : 0;
    for (k = axis; k < rank; k++) sd[k - axis] = dims[k];
    g = rand_value(&r, rank - axis, sd, -2, 2, 0);
    b = rand_value(&r, rank - axis, sd, -2, 2, 0);
    in[0] = &x;
    in[1] = &g;
    in[2] = &b;
    check_op("LayerNormalization", in, 3, 1, attrs_axis, 0, 64, 2e-5);
    check_op("LayerNormalization", in, 2, 1, attrs_axis, 0, 64, 2e-5);
    kh_free(&g);
    kh_free(&b);
    cd[0] = dims[1];
    g = rand_value(&r, 1, cd, -2, 2, 0);
    b = rand_value(&r, 1, cd, -2, 2, 0);
    m = rand_value(&r, 1, cd, -1, 1, 0);
    v = rand_value(&r, 1, cd, 0.1f, 3, 0);
    in[1] = &g;
    in[2] = &b;
    in[3] = &m;
    in[4] = &v;
    attrs_now.axis = 1;
    check_op("BatchNormalization", in, 5, 1, attrs_axis, 0, 64, 2e-5);
    check_op("InstanceNormalization", in, 3, 1, attrs_axis, 0, 64, 2e-5);
    kh_free(&x);
    kh_free(&g);
    kh_free(&b);
    kh_free(&m);
    kh_free(&v);
  }
}

static int64_t perm_now[8];
static int32_t perm_len;
static void attrs_perm(kt *t, int v) {
  (void)v;
  if (perm_len >= 0) ge_node_set_attr_ints(t->g, t->id, "perm", perm_now, perm_len, &t->err);
}

/* Random permutations (and the default reverse), dims of 1 included. */
GE_TEST(test_transpose_against_reference) {
  tu_rng r;
  int rep;
  tu_seed(&r, 31);
  for (rep = 0; rep < 80; rep++) {
    int64_t dims[8];
    int32_t rank = rand_shape(&r, dims), i;
    ge_value x, *in[1];
    if (rep % 5 == 0) rank = 5, dims[0] = 2, dims[1] = 1, dims[2] = 3, dims[3] = 4, dims[4] = 5;
    x = rand_value(&r, rank, dims, -4, 4, 0);
    in[0] = &x;
    for (i = 0; i < rank; i++) perm_now[i] = i;
    for (i = rank - 1; i > 0; i--) { /* Fisher-Yates */
      int32_t j = (int32_t)tu_below(&r, (uint32_t)i + 1);
      int64_t tmp = perm_now[i];
      perm_now[i] = perm_now[j];
      perm_now[j] = tmp;
    }
    perm_len = rep % 7 == 0 ? -1 : rank;
    check_op("Transpose", in, 1, 1, attrs_perm, 0, 0, 0);
    kh_free(&x);
  }
  { /* a bad perm gets the reference's error */
    int64_t d[2] = {2, 3};
    ge_value x = kh_value(GE_DTYPE_FLOAT32, 2, d, NULL), *in[1];
    in[0] = &x;
    perm_now[0] = perm_now[1] = 0;
    perm_len = 2;
    check_op("Transpose", in, 1, 1, attrs_perm, 0, 0, 0);
    kh_free(&x);
  }
}

/* The tiled 2-D transposition at every vector level against the element
 * loop (odd sizes: full tiles, row and column tails, strides wider than
 * the tile), with guards around y; then channel <-> spatial permutations
 * of 4-D and 5-D tensors (the NCHW <-> NHWC of ConvNeXt) through the
 * kernel with and without threads against the reference kernel. */
GE_TEST(test_transpose_tiles_per_isa) {
  tu_rng r;
  int rep, tiled = 0;
  tu_seed(&r, 1617);
  for (rep = 0; rep < 120; rep++) {
    int64_t ni = 1 + tu_below(&r, 70), nk = 1 + tu_below(&r, 70), xs = ni + tu_below(&r, 4);
    int64_t ys = nk + tu_below(&r, 4), i, k, ny = ni * ys + 2;
    float *x = (float *)malloc((size_t)(nk * xs) * sizeof(float));
    float *want = (float *)malloc((size_t)ny * sizeof(float)), *got = (float *)malloc((size_t)ny * sizeof(float));
    int isa;
    fill(&r, x, nk * xs, -4, 4, 1);
    for (i = 0; i < ny; i++) want[i] = 777.0f;
    for (i = 0; i < ni; i++)
      for (k = 0; k < nk; k++) want[1 + i * ys + k] = x[i + k * xs];
    for (isa = GE__VK_ISA_BASE; isa <= GE__VK_ISA_AVX512; isa++) {
      if (!isa_available(isa)) continue;
      for (i = 0; i < ny; i++) got[i] = 777.0f;
      ge__vk_tiles(isa, x, xs, got + 1, ys, ni, nk);
      if (!GE_CHECK(!memcmp(got, want, (size_t)ny * sizeof(float))))
        fprintf(stderr, "  (isa %d ni %lld nk %lld xs %lld ys %lld)\n", isa, (long long)ni, (long long)nk,
                (long long)xs, (long long)ys);
    }
    free(x);
    free(want);
    free(got);
  }
  for (rep = 0; rep < 40; rep++) {
    int64_t dims[5];
    int32_t rank = rep % 4 == 3 ? 5 : 4, i;
    ge_value x, *in[1];
    for (i = 0; i < rank; i++) dims[i] = 1 + tu_below(&r, i == 0 ? 3 : 40);
    x = rand_value(&r, rank, dims, -4, 4, 0);
    in[0] = &x;
    for (i = 0; i < rank; i++) perm_now[i] = i;
    if (rep % 2 == 0) { /* channels last: 0, 2, .., rank-1, 1 */
      for (i = 1; i < rank - 1; i++) perm_now[i] = i + 1;
      perm_now[rank - 1] = 1;
    } else { /* channels first: 0, rank-1, 1, .., rank-2 */
      perm_now[1] = rank - 1;
      for (i = 2; i < rank; i++) perm_now[i] = i - 1;
    }
    if (rep % 8 == 5) perm_now[0] = perm_now[1], perm_now[1] = 0; /* the batch moves too */
    perm_len = rank;
    tiled += dims[1] >= 8 && dims[rank - 1] >= 8;
    check_op("Transpose", in, 1, 1, attrs_perm, 0, 0, 0);
    kh_free(&x);
  }
  GE_CHECK(tiled > 10);
}

/* Off the fast paths the reference answers: errors and other dtypes. */
GE_TEST(test_fallbacks_match_reference) {
  int64_t d1[2] = {3, 4}, d2[2] = {2, 4};
  ge_value a = kh_value(GE_DTYPE_FLOAT32, 2, d1, NULL), b = kh_value(GE_DTYPE_FLOAT32, 2, d2, NULL);
  ge_value i64 = kh_value(GE_DTYPE_INT64, 2, d1, NULL), *in[2];
  in[0] = &a;
  in[1] = &b;
  check_op("Add", in, 2, 1, NULL, 0, 0, 0); /* shapes do not broadcast: the same error */
  in[0] = &i64;
  in[1] = &i64;
  check_op("Mul", in, 2, 1, NULL, 0, 0, 0); /* int64 */
  in[0] = &a;
  check_op("Gelu", in, 1, 1, attrs_gelu, 0, 4, 0);
  kh_free(&a);
  kh_free(&b);
  kh_free(&i64);
}

GE_TEST(test_lookup) {
  size_t i;
  kt t;
  int64_t d[1] = {4};
  ge_value x = kh_value(GE_DTYPE_FLOAT32, 1, d, NULL), *in[1];
  for (i = 1; i < GE__VK_NUM_OPS; i++) GE_CHECK(strcmp(ge__vk_table[i - 1].op, ge__vk_table[i].op) < 0);
  in[0] = &x;
  GE_REQUIRE(kt_make(&t, "Relu", 1, in, 1));
  GE_CHECK(ge_vector_fast_kernel(ge_graph_node(t.g, t.id)) != NULL);
  GE_CHECK(ge_vector_engine()->kernel(ge_vector_engine(), ge_graph_node(t.g, t.id)) ==
           ge_vector_fast_kernel(ge_graph_node(t.g, t.id)));
  ge_graph_node(t.g, t.id)->outputs[0].dtype = GE_DTYPE_FLOAT64;
  GE_CHECK(ge_vector_fast_kernel(ge_graph_node(t.g, t.id)) == NULL);
  kt_free(&t);
  GE_REQUIRE(kt_make(&t, "Floor", 1, in, 1));
  GE_CHECK(ge_vector_fast_kernel(ge_graph_node(t.g, t.id)) == NULL);
  kt_free(&t);
  kh_free(&x);
}

/* ---------------------------------------------------------- reductions */

static int64_t red_axes[4];
static int32_t red_naxes, red_keep;
static void attrs_reduce(kt *t, int v) {
  if (v == 0 && red_naxes > 0) ge_node_set_attr_ints(t->g, t->id, "axes", red_axes, red_naxes, &t->err);
  if (!red_keep) ge_node_set_attr_int(t->g, t->id, "keepdims", 0, &t->err);
}

GE_TEST(test_reduce_against_reference) {
  static const char *const ops[] = {"ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin"};
  tu_rng r;
  int rep;
  tu_seed(&r, 1618);
  for (rep = 0; rep < 400; rep++) {
    int op = rep % 4, as_input = op == 0 && tu_below(&r, 2);
    int64_t dims[4], ad[1];
    int32_t rank = 1 + (int32_t)tu_below(&r, 4), k;
    ge_value x, a, *in[2];
    for (k = 0; k < rank; k++) dims[k] = 1 + tu_below(&r, 9);
    if (rep % 13 == 0) dims[tu_below(&r, (uint32_t)rank)] = 200 + tu_below(&r, 300); /* over the grain */
    red_naxes = (int32_t)tu_below(&r, (uint32_t)rank + 1);
    for (k = 0; k < red_naxes; k++) { /* a run of axes, sometimes with a gap, negative at times */
      int64_t ax = k == 0 ? (int64_t)tu_below(&r, (uint32_t)(rank - red_naxes + 1)) : red_axes[k - 1] + 1;
      if (k > 0 && tu_below(&r, 5) == 0 && ax + 1 < rank) ax++;
      red_axes[k] = ax < rank ? ax : rank - 1;
    }
    for (k = 1; k < red_naxes; k++)
      if (red_axes[k] <= red_axes[k - 1]) red_naxes = k; /* keep them distinct */
    for (k = 0; k < red_naxes; k++)
      if (tu_below(&r, 3) == 0) red_axes[k] -= rank;
    red_keep = tu_below(&r, 3) != 0;
    x = rand_value(&r, rank, dims, -4, 4, 0);
    if (rep % 17 == 5) ((float *)x.data)[tu_below(&r, (uint32_t)x.numel)] = NAN;
    ad[0] = red_naxes;
    a = kh_value(GE_DTYPE_INT64, 1, ad, red_axes);
    in[0] = &x;
    in[1] = &a;
    /* sums in float against double: differences up to ~1e-6 of sum |x| */
    if (!check_op(ops[op], in, as_input ? 2 : 1, 1, attrs_reduce, as_input, op >= 2 ? 0 : 64,
                  op >= 2 ? 0 : 2e-6 * 4 * (double)x.numel))
      fprintf(stderr, "  (%s rank %d naxes %d keep %d input %d)\n", ops[op], (int)rank, (int)red_naxes, (int)red_keep,
              as_input);
    kh_free(&x);
    kh_free(&a);
  }
}

/* -------------------------------------------------------------- Resize */

/* Runs fn on node t with *state kept across calls (as an executor does). */
static ge_status run_stateful(ge_kernel_fn fn, kt *t, ge_value **in, uint32_t n_in, ge_value *out, int threads,
                              void **state, ge_error *err) {
  ge_kernel_env env;
  ge_kernel_ctx c;
  ge_value *outs[1];
  ge_status st;
  memset(&env, 0, sizeof env);
  env.alloc_output = kh_alloc_output;
  env.num_threads = threads ? 2 : 1;
  env.parallel_for = threads ? pool_parallel_for : NULL;
  memset(&c, 0, sizeof c);
  outs[0] = out;
  c.inputs = in;
  c.outputs = outs;
  c.num_inputs = n_in;
  c.num_outputs = 1;
  c.node = ge_graph_node(t->g, t->id);
  c.graph = t->g;
  c.env = &env;
  c.err = err;
  c.state = *state;
  st = fn(&c);
  *state = c.state;
  return st;
}

static const char *const rs_modes[] = {"nearest", "linear", "cubic"};
static const char *const rs_ctms[] = {"half_pixel",           "pytorch_half_pixel", "align_corners", "asymmetric",
                                      "tf_half_pixel_for_nn", "half_pixel_symmetric"};
static const char *const rs_nearest[] = {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"};

/* One Resize (or Upsample) node, run by the reference and by the fast
 * kernel on three inputs in a row (shapes A, B, A) with one state. */
static int resize_case(tu_rng *r, int rep) {
  int upsample = rep % 9 == 8, opset10 = !upsample && rep % 5 == 4, use_sizes = !upsample && !opset10 && rep % 2;
  int mode = (int)tu_below(r, upsample ? 2 : 3), ctm = (int)tu_below(r, 6), nm = (int)tu_below(r, 4);
  int32_t rank = 2 + (int32_t)tu_below(r, 3), k, shape;
  int64_t dims[2][4], sd[1], outd[4];
  float scl[4];
  int64_t szs[4];
  ge_value x[2], sc, sz, *in[4];
  kt t;
  void *state = NULL;
  int ok = 1, threads;
  sd[0] = rank;
  for (shape = 0; shape < 2; shape++)
    for (k = 0; k < rank; k++)
      dims[shape][k] = k < rank - 2 ? 1 + tu_below(r, 3) : 1 + tu_below(r, rep % 11 == 0 && k == rank - 1 ? 300 : 13);
  for (k = 0; k < rank; k++) {
    static const float nice[] = {2.0f, 0.5f, 3.0f, 1.0f, 1.5f, 0.75f, 2.5f, 0.6f};
    scl[k] = k < rank - 2 ? 1.0f : tu_below(r, 3) ? nice[tu_below(r, 8)] : 0.3f + (float)tu_below(r, 300) / 100.0f;
    szs[k] = k < rank - 2 ? dims[0][k] : 1 + tu_below(r, 30);
  }
  for (shape = 0; shape < 2; shape++) {
    x[shape] = rand_value(r, rank, dims[shape], -4, 4, 0);
  }
  if (use_sizes)
    for (k = 0; k < rank - 2; k++) dims[1][k] = dims[0][k]; /* sizes fix the leading axes */
  kh_free(&x[1]);
  x[1] = rand_value(r, rank, dims[1], -4, 4, 0);
  sc = kh_value(GE_DTYPE_FLOAT32, 1, sd, scl);
  sz = kh_value(GE_DTYPE_INT64, 1, sd, szs);
  in[0] = &x[0];
  if (upsample || opset10) {
    in[1] = &sc;
    if (!kt_make(&t, upsample ? "Upsample" : "Resize", 2, in, 1)) return GE_CHECK(0);
  } else {
    in[1] = NULL;
    in[2] = use_sizes ? NULL : &sc;
    in[3] = use_sizes ? &sz : NULL;
    if (!kt_make(&t, "Resize", 4, in, 1)) return GE_CHECK(0);
  }
  ge_node_set_attr_string(t.g, t.id, "mode", rs_modes[mode], &t.err);
  if (!upsample && !(opset10 && rep % 3 == 0)) {
    ge_node_set_attr_string(t.g, t.id, "coordinate_transformation_mode", rs_ctms[ctm], &t.err);
    ge_node_set_attr_string(t.g, t.id, "nearest_mode", rs_nearest[nm], &t.err);
  }
  if (mode == 2 && tu_below(r, 2)) ge_node_set_attr_int(t.g, t.id, "exclude_outside", 1, &t.err);
  if (mode == 2 && tu_below(r, 2)) ge_node_set_attr_float(t.g, t.id, "cubic_coeff_a", -0.5, &t.err);
  for (threads = 0; threads < 2; threads++)
    for (shape = 0; shape < 3; shape++) {
      ge_value ref, fast;
      ge_error e1, e2;
      ge_status s1, s2;
      ge_kernel_fn fr = ge_host_cpu_kernel(ge_graph_node(t.g, t.id)), ff = ge_vector_fast_kernel(ge_graph_node(t.g, t.id));
      if (!GE_CHECK(fr && ff)) break;
      in[0] = &x[shape == 1];
      memset(&ref, 0, sizeof ref);
      memset(&fast, 0, sizeof fast);
      memset(&e1, 0, sizeof e1);
      memset(&e2, 0, sizeof e2);
      s1 = run_kernel(fr, t.g, t.id, in, upsample || opset10 ? 2 : 4, &ref, 1, 0, &e1);
      s2 = run_stateful(ff, &t, in, upsample || opset10 ? 2 : 4, &fast, threads, &state, &e2);
      ok &= GE_CHECK_EQ_INT(s2, s1);
      if (s1 == GE_OK && s2 == GE_OK) {
        int64_t worst = 0;
        double m;
        ok &= GE_CHECK_EQ_INT(fast.rank, ref.rank) && GE_CHECK_EQ_INT(fast.numel, ref.numel);
        for (k = 0; k < ref.rank && k < fast.rank; k++) outd[k] = fast.dims[k], ok &= GE_CHECK_EQ_INT(fast.dims[k], ref.dims[k]);
        if (ok && ref.numel > 0) {
          /* nearest copies exactly; linear and cubic weigh in float, not double */
          m = max_ulps((const float *)fast.data, (const float *)ref.data, ref.numel, mode ? 2e-5 : 0, &worst);
          if (m > (mode ? 64 : 0)) {
            fprintf(stderr, "  %s mode %s ctm %s nearest %s rank %d shape %d threads %d: %.0f ulps at %lld: %.9g vs %.9g\n",
                    upsample ? "Upsample" : opset10 ? "Resize-10" : use_sizes ? "Resize(sizes)" : "Resize",
                    rs_modes[mode], rs_ctms[ctm], rs_nearest[nm], (int)rank, shape, threads, m, (long long)worst,
                    ((const float *)fast.data)[worst], ((const float *)ref.data)[worst]);
            ok = GE_CHECK(0);
          }
        }
      } else if (s1 == s2)
        ok &= GE_CHECK_STR(e2.message, e1.message);
      kh_free(&ref);
      kh_free(&fast);
    }
  (void)outd;
  free(state);
  kt_free(&t);
  kh_free(&x[0]);
  kh_free(&x[1]);
  kh_free(&sc);
  kh_free(&sz);
  return ok;
}

GE_TEST(test_resize_against_reference) {
  tu_rng r;
  int rep;
  tu_seed(&r, 1616);
  for (rep = 0; rep < 400; rep++) resize_case(&r, rep);
}

/* ------------------------------------------------------- chain fusion */

static ge_node_id chain_const(ge_graph *g, int32_t rank, const int64_t *dims, const float *data) {
  ge_tensor t;
  ge_node_id id = GE_NONE;
  int64_t n = 1;
  int32_t k;
  for (k = 0; k < rank; k++) n *= dims[k];
  memset(&t, 0, sizeof t);
  t.dtype = GE_DTYPE_FLOAT32;
  t.rank = rank;
  t.dims = (int64_t *)dims;
  t.data = (void *)data;
  t.nbytes = (size_t)n * sizeof(float);
  ge_graph_add_const(g, NULL, &t, &id, NULL);
  return id;
}

static ge_node_id chain_node(ge_graph *g, const char *op, ge_node_id a, ge_node_id b, ge_node_id c) {
  ge_edge e[3];
  ge_node_id id = GE_NONE;
  uint32_t n = c != GE_NONE ? 3 : b != GE_NONE ? 2 : 1;
  memset(e, 0, sizeof e);
  e[0].node = a, e[1].node = b, e[2].node = c;
  ge_graph_add_node(g, op, NULL, n, e, 1, &id, NULL);
  return id;
}

static ge_kernel_fn chain_lookup_host(const ge_node *n, void *user) {
  (void)user;
  return ge_host_cpu_kernel(n);
}
static ge_kernel_fn chain_lookup_aic(const ge_node *n, void *user) {
  (void)user;
  return ge_ai_core_engine()->kernel(ge_ai_core_engine(), n);
}

/* Nodes of op type `op` in h (0 for no graph). */
static int count_op(const ge_graph *h, const char *op) {
  ge_node_id id;
  int k = 0;
  for (id = 0; h && id < ge_graph_id_bound(h); id++) k += ge_graph_node(h, id) && !strcmp(ge_graph_node(h, id)->op, op);
  return k;
}

/* Runs graph g (one input x of shape xd) on the reference kernels as built,
 * and a clone on AI Core's kernels after its optimiser (*opt, for the
 * caller to inspect and free); returns the largest difference relative to
 * max |y| over the outputs (-1 on failure, printed). */
static double ref_vs_optimized(tu_rng *r, ge_graph *g, int32_t rank, const int64_t *xd, int threads, ge_graph **opt) {
  ge_graph *h = NULL;
  ge_exec_desc d1, d2;
  ge_program *p1 = NULL, *p2 = NULL;
  ge_error err;
  ge_value vx;
  const ge_value *ins[1];
  ge_node_id id;
  double er = -1;
  memset(&err, 0, sizeof err);
  *opt = NULL;
  if (ge_graph_infer_shapes(g, &err) != GE_OK || ge_graph_clone(g, NULL, &h, &err) != GE_OK) goto done;
  for (id = 0; id < ge_graph_id_bound(h); id++)
    if (ge_graph_node(h, id)) ge_graph_node(h, id)->engine = 0;
  if (ge_ai_core_engine()->optimize_subgraph(ge_ai_core_engine(), h, 0, &err) != GE_OK) goto done;
  memset(&d1, 0, sizeof d1);
  d1.lookup = chain_lookup_host;
  d2 = d1;
  d2.lookup = chain_lookup_aic;
  d2.num_threads = threads;
  if (ge_program_create(g, &d1, &p1, &err) != GE_OK || ge_program_create(h, &d2, &p2, &err) != GE_OK) goto done;
  vx = rand_value(r, rank, xd, -5, 5, 0);
  ins[0] = &vx;
  if (ge_program_run(p1, ins, 1, &err) == GE_OK && ge_program_run(p2, ins, 1, &err) == GE_OK) {
    uint32_t o;
    int64_t i;
    er = 0;
    for (o = 0; o < ge_program_num_outputs(p1); o++) {
      const ge_value *y1 = ge_program_output(p1, o), *y2 = ge_program_output(p2, o);
      double mx = 1e-6, md = 0;
      if (y1->numel != y2->numel) {
        er = 1e9;
        break;
      }
      for (i = 0; i < y1->numel; i++) {
        double a1 = ((const float *)y1->data)[i], a2 = ((const float *)y2->data)[i];
        if (fabs(a1) > mx) mx = fabs(a1);
        if (fabs(a1 - a2) > md) md = fabs(a1 - a2);
      }
      if (md / mx > er) er = md / mx;
    }
  }
  kh_free(&vx);
done:
  if (er < 0) fprintf(stderr, "  optimised graph: %s\n", err.message);
  ge_program_free(p1);
  ge_program_free(p2);
  *opt = h;
  return er;
}

/* x -> [Conv] -> Mul(s) -> Add(b) -> HardSwish as Add 3, Clip 0 6, Mul,
 * Div 6 -> Mul(scalar) -> Add(scalar), the constants per channel or
 * scalars, operands in either order; variant 3 gives the first Mul a second
 * reader (then it stays). Runs the reference on the graph as built and AI
 * Core's kernels after its optimiser; returns the largest difference
 * relative to max |y| (-1 on failure) and the op counts left. */
static double chain_graph(tu_rng *r, int variant, int threads, int *n_div, int *n_mul, int *n_bn) {
  int64_t N = 1 + tu_below(r, 2), C = 1 + tu_below(r, 8), H = 1 + tu_below(r, 9), W = 1 + tu_below(r, 40);
  int64_t xd[4], wd[4], cd[3], one[1] = {1}, i;
  float w[8 * 8 * 9], bias[8], s[8], b[8], three = 3, zero = 0, six = 6, sa, sb;
  ge_graph *g = NULL, *h = NULL;
  ge_node_id x, cur, m, a, t, u, v, d, extra = GE_NONE;
  ge_edge out[2];
  double er;
  int conv = variant != 1;
  xd[0] = N, xd[1] = C, xd[2] = H, xd[3] = W;
  wd[0] = C, wd[1] = C, wd[2] = 3, wd[3] = 3;
  cd[0] = C, cd[1] = 1, cd[2] = 1;
  for (i = 0; i < C * C * 9; i++) w[i] = (float)((int)tu_below(r, 2001) - 1000) / 3000.0f;
  for (i = 0; i < C; i++) {
    bias[i] = (float)((int)tu_below(r, 201) - 100) / 100.0f;
    s[i] = (float)((int)tu_below(r, 201) - 100) / 50.0f;
    b[i] = (float)((int)tu_below(r, 201) - 100) / 30.0f;
  }
  sa = 0.5f + (float)tu_below(r, 100) / 100.0f;
  sb = (float)((int)tu_below(r, 201) - 100) / 100.0f;
  ge_graph_create(NULL, &g, NULL);
  ge_graph_add_data(g, "x", GE_DTYPE_FLOAT32, 4, xd, &x, NULL);
  cur = x;
  if (conv) {
    int64_t pads[4] = {1, 1, 1, 1};
    cur = chain_node(g, "Conv", x, chain_const(g, 4, wd, w), chain_const(g, 1, wd, bias));
    ge_node_set_attr_ints(g, cur, "pads", pads, 4, NULL);
  }
  m = variant == 2 ? chain_node(g, "Mul", chain_const(g, 0, one, s), cur, GE_NONE)
                   : chain_node(g, "Mul", cur, chain_const(g, 3, cd, s), GE_NONE);
  a = chain_node(g, "Add", m, chain_const(g, 3, cd, b), GE_NONE);
  t = variant == 2 ? chain_node(g, "Add", chain_const(g, 0, one, &three), a, GE_NONE)
                   : chain_node(g, "Add", a, chain_const(g, 0, one, &three), GE_NONE);
  u = chain_node(g, "Clip", t, chain_const(g, 0, one, &zero), chain_const(g, 0, one, &six));
  v = variant == 2 ? chain_node(g, "Mul", u, a, GE_NONE) : chain_node(g, "Mul", a, u, GE_NONE);
  d = chain_node(g, "Div", v, chain_const(g, 0, one, &six), GE_NONE);
  cur = chain_node(g, "Mul", d, chain_const(g, 1, one, &sa), GE_NONE);
  cur = chain_node(g, "Add", cur, chain_const(g, 1, one, &sb), GE_NONE);
  out[0].node = cur, out[0].index = 0;
  if (variant == 3) { /* the first Mul read by a second node too */
    extra = chain_node(g, "Neg", m, GE_NONE, GE_NONE);
    out[1].node = extra, out[1].index = 0;
  }
  ge_graph_set_outputs(g, variant == 3 ? 2 : 1, out, NULL, NULL);
  er = ref_vs_optimized(r, g, 4, xd, threads, &h);
  *n_div = count_op(h, "Div"), *n_mul = count_op(h, "Mul"), *n_bn = count_op(h, "BatchNormalization");
  ge_graph_free(g);
  ge_graph_free(h);
  return er;
}

GE_TEST(test_chain_fusion) {
  tu_rng r;
  int i;
  double worst = 0;
  tu_seed(&r, 1617);
  for (i = 0; i < 80; i++) {
    int variant = i % 4, n_div = -1, n_mul = -1, n_bn = -1;
    double er = chain_graph(&r, variant, 1 + (i / 4) % 2, &n_div, &n_mul, &n_bn);
    if (!GE_CHECK(er >= 0 && er < 1e-5)) fprintf(stderr, "  variant %d: rel err %.3g\n", variant, er);
    if (er > worst) worst = er;
    GE_CHECK_EQ_INT(n_div, 0); /* the HardSwish chain is one op (or fused into the Conv) */
    if (variant == 3) { /* Mul+Add kept, the trailing scalar affine fused */
      GE_CHECK_EQ_INT(n_mul, 1);
      GE_CHECK_EQ_INT(n_bn, 1);
    } else {
      GE_CHECK_EQ_INT(n_mul, 0);
      GE_CHECK_EQ_INT(n_bn, variant == 1 ? 2 : 1); /* after a Conv the first folds into it */
    }
  }
  printf("  chain fusion: 80 graphs, worst rel err %.2g\n", worst);
}

/* The exact GELU as exporters decompose it: variant 0 (x * (1 + Erf(x /
 * sqrt 2))) * 0.5 with Div, 1 the same with Mul(1/sqrt 2) and operands
 * swapped, 2 (x * 0.5) * (1 + Erf(...)), 3 as 0 but with the Erf read by a
 * second node (then nothing fuses). Returns the rel err against the
 * reference and the Erf and Gelu nodes left. */
static double gelu_graph(tu_rng *r, int variant, int threads, int *n_erf, int *n_gelu) {
  int64_t xd[3], one[1] = {1};
  float sq2 = 1.41421356f, isq2 = 0.70710678f, unit = 1.0f, half = 0.5f;
  ge_graph *g = NULL, *h = NULL;
  ge_node_id x, s, e, a, m, extra;
  ge_edge out[2];
  double er;
  xd[0] = 1 + tu_below(r, 2), xd[1] = 1 + tu_below(r, 9), xd[2] = 1 + tu_below(r, 70);
  ge_graph_create(NULL, &g, NULL);
  ge_graph_add_data(g, "x", GE_DTYPE_FLOAT32, 3, xd, &x, NULL);
  s = variant == 1 ? chain_node(g, "Mul", chain_const(g, 0, one, &isq2), x, GE_NONE)
                   : chain_node(g, "Div", x, chain_const(g, 1, one, &sq2), GE_NONE);
  e = chain_node(g, "Erf", s, GE_NONE, GE_NONE);
  a = variant == 1 ? chain_node(g, "Add", chain_const(g, 0, one, &unit), e, GE_NONE)
                   : chain_node(g, "Add", e, chain_const(g, 0, one, &unit), GE_NONE);
  if (variant == 2) {
    m = chain_node(g, "Mul", chain_node(g, "Mul", x, chain_const(g, 0, one, &half), GE_NONE), a, GE_NONE);
  } else {
    m = variant == 1 ? chain_node(g, "Mul", a, x, GE_NONE) : chain_node(g, "Mul", x, a, GE_NONE);
    m = chain_node(g, "Mul", m, chain_const(g, 0, one, &half), GE_NONE);
  }
  out[0].node = m, out[0].index = 0;
  if (variant == 3) {
    extra = chain_node(g, "Neg", e, GE_NONE, GE_NONE);
    out[1].node = extra, out[1].index = 0;
  }
  ge_graph_set_outputs(g, variant == 3 ? 2 : 1, out, NULL, NULL);
  er = ref_vs_optimized(r, g, 3, xd, threads, &h);
  *n_erf = count_op(h, "Erf"), *n_gelu = count_op(h, "Gelu");
  ge_graph_free(g);
  ge_graph_free(h);
  return er;
}

GE_TEST(test_gelu_fusion) {
  tu_rng r;
  int i;
  double worst = 0;
  tu_seed(&r, 1618);
  for (i = 0; i < 40; i++) {
    int variant = i % 4, n_erf = -1, n_gelu = -1;
    double er = gelu_graph(&r, variant, 1 + (i / 4) % 2, &n_erf, &n_gelu);
    if (!GE_CHECK(er >= 0 && er < 1e-5)) fprintf(stderr, "  variant %d: rel err %.3g\n", variant, er);
    if (er > worst) worst = er;
    if (!GE_CHECK_EQ_INT(n_erf, variant == 3 ? 1 : 0)) fprintf(stderr, "  variant %d not fused\n", variant);
    GE_CHECK_EQ_INT(n_gelu, variant == 3 ? 0 : 1);
  }
  printf("  GELU fusion: 40 graphs, worst rel err %.2g\n", worst);
}

int main(int argc, char **argv) {
  ge_test_init(argc, argv);
  GE_RUN(test_math_per_isa_against_double);
  GE_RUN(test_gelu_no_denormals);
  GE_RUN(test_math_specials);
  GE_RUN(test_silu_per_isa_against_double);
  GE_RUN(test_row_tails_per_isa);
  GE_RUN(test_softmax_rows_per_isa);
  GE_RUN(test_where_rows_per_isa);
  GE_RUN(test_unary_kernels_against_reference);
  GE_RUN(test_clip_inputs);
  GE_RUN(test_binary_kernels_broadcasting);
  GE_RUN(test_where_against_reference);
  GE_RUN(test_pool2d_against_reference);
  GE_RUN(test_maxpool_planes_per_isa);
  GE_RUN(test_global_pool_against_reference);
  GE_RUN(test_softmax_against_reference);
  GE_RUN(test_norms_against_reference);
  GE_RUN(test_transpose_against_reference);
  GE_RUN(test_transpose_tiles_per_isa);
  GE_RUN(test_fallbacks_match_reference);
  GE_RUN(test_lookup);
  GE_RUN(test_reduce_against_reference);
  GE_RUN(test_resize_against_reference);
  GE_RUN(test_chain_fusion);
  GE_RUN(test_gelu_fusion);
  return ge_test_main_end();
}

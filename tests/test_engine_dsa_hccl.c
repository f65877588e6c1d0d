/* test_engine_dsa_hccl.c — the DSA engine (random ops on Philox4x32-10) and
 * the HCCL engine (collectives, one process).
 *
 * Philox is checked against the known-answer vectors of the Random123 paper
 * (Salmon et al., SC 2011) for philox4x32-10. The distributions are checked
 * by statistics over >= 100k samples with 5-sigma bounds (or a chi-square
 * bound), so a correct generator fails with negligible probability and the
 * seeds make every run identical anyway. Kernels run on one-node graphs
 * (tests/kernel_harness.h) through a runner that keeps the kernel's state
 * between runs, as an executor does. */
#define GE_DSA_IMPLEMENTATION /* its private ge__dsa_*; the rest from libge.a */
#include "ge_engines/dsa.h"
#include "ge_engines/hccl.h"
#include "tests/test.h"
#include "tests/kernel_harness.h"

#include <time.h>

/* ------------------------------------------------------------ helpers */

/* A one-node graph and its kernel, run like an executor runs it: the
 * kernel's state survives between runs and is freed at the end. */
typedef struct rk {
  kt t;
  ge_kernel_fn fn;
  void *state;
  ge_value out[4];
  ge_error err;
} rk;

static int rk_make(rk *r, const char *op, uint32_t n_in, ge_value **in, int32_t n_out) {
  memset(r, 0, sizeof *r);
  if (!kt_make(&r->t, op, n_in, in, n_out)) return 0;
  r->fn = ge_dsa_kernel(ge_graph_node(r->t.g, r->t.id));
  if (!r->fn) r->fn = ge_hccl_kernel(ge_graph_node(r->t.g, r->t.id));
  return r->fn != NULL;
}

static ge_status rk_run(rk *r, ge_value **in, uint32_t n_in) {
  ge_kernel_env env;
  ge_kernel_ctx c;
  ge_value *outs[4];
  uint32_t i, n_out = ge_graph_node(r->t.g, r->t.id)->num_outputs;
  ge_status st;
  memset(&env, 0, sizeof env);
  env.alloc_output = kh_alloc_output;
  env.num_threads = 1;
  memset(&c, 0, sizeof c);
  for (i = 0; i < 4; i++) outs[i] = &r->out[i];
  c.inputs = in;
  c.outputs = outs;
  c.num_inputs = n_in;
  c.num_outputs = n_out;
  c.node = ge_graph_node(r->t.g, r->t.id);
  c.graph = r->t.g;
  c.env = &env;
  c.err = &r->err;
  c.state = r->state;
  memset(&r->err, 0, sizeof r->err);
  st = r->fn(&c);
  r->state = c.state;
  return st;
}

static void rk_free(rk *r) {
  int i;
  for (i = 0; i < 4; i++) kh_free(&r->out[i]);
  free(r->state);
  kt_free(&r->t);
}

static ge_node_id rk_id(const rk *r) { return r->t.id; }
static void set_f(rk *r, const char *name, double v) { ge_node_set_attr_float(r->t.g, rk_id(r), name, v, NULL); }
static void set_i(rk *r, const char *name, int64_t v) { ge_node_set_attr_int(r->t.g, rk_id(r), name, v, NULL); }
static void set_s(rk *r, const char *name, const char *v) { ge_node_set_attr_string(r->t.g, rk_id(r), name, v, NULL); }
static void set_shape(rk *r, int32_t n, const int64_t *dims) {
  ge_node_set_attr_ints(r->t.g, rk_id(r), "shape", dims, n, NULL);
}

static double get_f(const ge_value *v, int64_t i) {
  switch (v->dtype) {
  case GE_DTYPE_FLOAT16: return ge_half_to_float(((const uint16_t *)v->data)[i]);
  case GE_DTYPE_FLOAT32: return ((const float *)v->data)[i];
  case GE_DTYPE_FLOAT64: return ((const double *)v->data)[i];
  default: {
    ge_tensor t;
    memset(&t, 0, sizeof t);
    t.dtype = v->dtype;
    t.data = v->data;
    return ge_tensor_get_float(&t, i);
  }
  }
}

/* A small deterministic generator for test parameters. */
static uint64_t lcg_state = 0x1234567887654321ull;
static double lcg_unit(void) {
  lcg_state = lcg_state * 6364136223846793005ull + 1442695040888963407ull;
  return (double)(lcg_state >> 11) * (1.0 / 9007199254740992.0);
}

static int same_bytes(const ge_value *a, const ge_value *b) {
  return a->nbytes == b->nbytes && a->dtype == b->dtype && (a->nbytes == 0 || memcmp(a->data, b->data, a->nbytes) == 0);
}

/* A copy of a value (to compare runs). */
static ge_value copy_value(const ge_value *v) { return kh_value(v->dtype, v->rank, v->dims, v->data); }

/* ------------------------------------------------------------- Philox */

GE_TEST(test_philox_known_answers) {
  static const uint32_t ctr[3][4] = {
      {0, 0, 0, 0}, {0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu}, {0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u}};
  static const uint32_t key[3][2] = {{0, 0}, {0xffffffffu, 0xffffffffu}, {0xa4093822u, 0x299f31d0u}};
  static const uint32_t want[3][4] = {{0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u},
                                      {0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu},
                                      {0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u}};
  int i, k;
  for (i = 0; i < 3; i++) {
    uint32_t out[4];
    ge__dsa_philox(ctr[i], key[i], out);
    for (k = 0; k < 4; k++) GE_CHECK_EQ_INT(out[k], want[i][k]);
  }
}

/* The word stream: block b is philox({b, run}, key); words in order. */
GE_TEST(test_philox_stream_layout) {
  ge__dsa_gen g;
  uint32_t key[2] = {0x01234567u, 0x89abcdefu}, ctr[4], blk[4];
  int b, k;
  ge__dsa_gen_start(&g, key, 0x0000000500000007ull);
  for (b = 0; b < 3; b++) {
    ctr[0] = (uint32_t)b;
    ctr[1] = 0;
    ctr[2] = 7;
    ctr[3] = 5;
    ge__dsa_philox(ctr, key, blk);
    for (k = 0; k < 4; k++) GE_CHECK_EQ_INT(ge__dsa_next(&g), blk[k]);
  }
}

GE_TEST(test_float16_conversion) {
  GE_CHECK_EQ_INT(ge_float_to_half(1.0f), 0x3C00);
  GE_CHECK_EQ_INT(ge_float_to_half(-2.0f), 0xC000);
  GE_CHECK_EQ_INT(ge_float_to_half(65504.0f), 0x7BFF);
  GE_CHECK_EQ_INT(ge_float_to_half(1e6f), 0x7C00);
  GE_CHECK_EQ_INT(ge_float_to_half(5.9604645e-8f), 0x0001);
  GE_CHECK_EQ_INT(ge_float_to_half(1.0f + 1.0f / 2048), 0x3C00); /* tie to even */
  GE_CHECK_EQ_INT(ge_float_to_half(1.0f + 3.0f / 2048), 0x3C02);
  GE_CHECK_NEAR(ge_half_to_float(0x3555), 0.333251953125, 0);
  GE_CHECK_NEAR(ge_half_to_float(ge__dsa_h_below(0x3C00)), 0.99951171875, 0);
  GE_CHECK_EQ_INT(ge__dsa_h_below(0), 0x8001);
}

/* ------------------------------------------------------- distributions */

static const ge_dtype float_types[3] = {GE_DTYPE_FLOAT16, GE_DTYPE_FLOAT32, GE_DTYPE_FLOAT64};

/* Mean and variance of v. */
static void moments(const ge_value *v, double *mean, double *var) {
  double s = 0, q = 0;
  int64_t i;
  for (i = 0; i < v->numel; i++) s += get_f(v, i);
  s /= (double)v->numel;
  for (i = 0; i < v->numel; i++) q += (get_f(v, i) - s) * (get_f(v, i) - s);
  *mean = s;
  *var = q / (double)(v->numel - 1);
}

GE_TEST(test_uniform_statistics) {
  int trial, t;
  for (trial = 0; trial < 3; trial++) {
    double lo = -10 + 20 * lcg_unit(), hi = lo + 0.5 + 10 * lcg_unit();
    for (t = 0; t < 3; t++) {
      rk r;
      int64_t dims[2] = {400, 300}, i, n;
      double mean, var, w = hi - lo, vmin = HUGE_VAL, vmax = -HUGE_VAL;
      GE_REQUIRE(rk_make(&r, "RandomUniform", 0, NULL, -1));
      set_shape(&r, 2, dims);
      set_f(&r, "low", lo);
      set_f(&r, "high", hi);
      set_i(&r, "dtype", float_types[t]);
      set_f(&r, "seed", 17 + trial);
      GE_CHECK_EQ_INT(rk_run(&r, NULL, 0), GE_OK);
      n = r.out[0].numel;
      GE_CHECK_EQ_INT(n, 120000);
      GE_CHECK_EQ_INT(r.out[0].dtype, float_types[t]);
      GE_CHECK_EQ_INT(r.out[0].rank, 2);
      moments(&r.out[0], &mean, &var);
      /* 5 sigma: sd of the mean sqrt(w^2/12/n), of the variance sqrt(w^4/180/n) */
      GE_CHECK(fabs(mean - (lo + hi) / 2) < 5 * sqrt(w * w / 12 / (double)n));
      GE_CHECK(fabs(var - w * w / 12) < 5 * sqrt(w * w * w * w / 180 / (double)n) + (t == 0 ? 1e-3 * w : 0));
      for (i = 0; i < n; i++) {
        double x = get_f(&r.out[0], i);
        vmin = x < vmin ? x : vmin;
        vmax = x > vmax ? x : vmax;
      }
      GE_CHECK(vmin >= (t == 0 ? lo - 0.01 * fabs(lo) : lo) && vmax < hi);
      GE_CHECK(vmin < lo + w * 1e-3 + (t == 0 ? 0.01 : 0) && vmax > hi - w * 1e-3 - (t == 0 ? 0.01 : 0));
      rk_free(&r);
    }
  }
}

/* Rounding to the output dtype never reaches high. */
GE_TEST(test_uniform_never_reaches_high) {
  struct {
    ge_dtype t;
    double lo, hi;
  } cases[3] = {{GE_DTYPE_FLOAT16, 1000, 1001}, {GE_DTYPE_FLOAT32, 16777216.0, 16777218.0}, {GE_DTYPE_FLOAT64, 0, 1}};
  int k;
  for (k = 0; k < 3; k++) {
    rk r;
    int64_t dims[1] = {100000}, i;
    int saw_lo = 0;
    GE_REQUIRE(rk_make(&r, "RandomUniform", 0, NULL, -1));
    set_shape(&r, 1, dims);
    set_f(&r, "low", cases[k].lo);
    set_f(&r, "high", cases[k].hi);
    set_i(&r, "dtype", cases[k].t);
    GE_CHECK_EQ_INT(rk_run(&r, NULL, 0), GE_OK);
    for (i = 0; i < r.out[0].numel; i++) {
      double x = get_f(&r.out[0], i);
      if (!(x >= cases[k].lo && x < cases[k].hi)) break;
      saw_lo |= x == cases[k].lo;
    }
    GE_CHECK_EQ_INT(i, 100000);
    GE_CHECK(k == 2 || saw_lo);
    rk_free(&r);
  }
}

GE_TEST(test_normal_statistics) {
  int trial, t;
  for (trial = 0; trial < 2; trial++) {
    double mu = -5 + 10 * lcg_unit(), sd = 0.1 + 3 * lcg_unit();
    for (t = 0; t < 3; t++) {
      rk r;
      int64_t dims[1] = {150001}, i, n, in1 = 0;
      double mean, var, m4 = 0, q16 = t == 0 ? 2e-3 * (fabs(mu) + 4 * sd) : 0;
      GE_REQUIRE(rk_make(&r, "RandomNormal", 0, NULL, -1));
      set_shape(&r, 1, dims);
      set_f(&r, "mean", mu);
      set_f(&r, "scale", sd);
      set_i(&r, "dtype", float_types[t]);
      set_f(&r, "seed", 3.5 + trial);
      GE_CHECK_EQ_INT(rk_run(&r, NULL, 0), GE_OK);
      n = r.out[0].numel;
      GE_CHECK_EQ_INT(n, 150001); /* odd: the last pair is cut */
      moments(&r.out[0], &mean, &var);
      for (i = 0; i < n; i++) {
        double z = (get_f(&r.out[0], i) - mu) / sd;
        m4 += z * z * z * z;
        in1 += fabs(z) < 1;
      }
      m4 /= (double)n;
      GE_CHECK(fabs(mean - mu) < 5 * sd / sqrt((double)n) + q16);
      GE_CHECK(fabs(sqrt(var) - sd) < 5 * sd / sqrt(2.0 * (double)n) + q16);
      GE_CHECK(fabs(m4 - 3) < 5 * sqrt(96 / (double)n) + (t == 0 ? 0.05 : 0)); /* E z^4 = 3, Var z^4 = 96 */
      GE_CHECK(fabs((double)in1 / (double)n - 0.682689492) < 5 * sqrt(0.2167 / (double)n) + (t == 0 ? 0.01 : 0));
      rk_free(&r);
    }
  }
}

GE_TEST(test_like_ops) {
  int64_t dims[3] = {20, 50, 101};
  ge_value x = kh_value(GE_DTYPE_FLOAT64, 3, dims, NULL), xi = kh_value(GE_DTYPE_INT32, 3, dims, NULL);
  ge_value *in[1];
  rk r;
  double mean, var;
  /* dtype from the input */
  in[0] = &x;
  GE_REQUIRE(rk_make(&r, "RandomUniformLike", 1, in, -1));
  set_f(&r, "low", 2);
  set_f(&r, "high", 4);
  GE_CHECK_EQ_INT(rk_run(&r, in, 1), GE_OK);
  GE_CHECK_EQ_INT(r.out[0].dtype, GE_DTYPE_FLOAT64);
  GE_CHECK_EQ_INT(r.out[0].rank, 3);
  GE_CHECK_EQ_INT(r.out[0].dims[2], 101);
  moments(&r.out[0], &mean, &var);
  GE_CHECK(fabs(mean - 3) < 5 * sqrt(4.0 / 12 / 101000));
  rk_free(&r);
  /* an int input needs the dtype attribute */
  in[0] = &xi;
  GE_REQUIRE(rk_make(&r, "RandomNormalLike", 1, in, -1));
  GE_CHECK_EQ_INT(rk_run(&r, in, 1), GE_ERR_UNSUPPORTED);
  GE_CHECK(strstr(r.err.message, "output dtype int32 is not float16, float32 or float64") != NULL);
  rk_free(&r);
  GE_REQUIRE(rk_make(&r, "RandomNormalLike", 1, in, -1));
  ge_node_set_attr_dtype(r.t.g, rk_id(&r), "dtype", GE_DTYPE_FLOAT16, NULL);
  set_f(&r, "mean", 1);
  set_f(&r, "scale", 2);
  GE_CHECK_EQ_INT(rk_run(&r, in, 1), GE_OK);
  GE_CHECK_EQ_INT(r.out[0].dtype, GE_DTYPE_FLOAT16);
  moments(&r.out[0], &mean, &var);
  GE_CHECK(fabs(mean - 1) < 5 * 2 / sqrt(101000.0) + 0.01);
  GE_CHECK(fabs(sqrt(var) - 2) < 0.05);
  GE_CHECK_EQ_INT(rk_run(&r, NULL, 0), GE_ERR_INVALID); /* no input */
  rk_free(&r);
  kh_free(&x);
  kh_free(&xi);
}

GE_TEST(test_bernoulli_frequency) {
  static const double ps[5] = {0, 0.1, 0.5, 0.93, 1};
  static const ge_dtype outs[6] = {GE_DTYPE_FLOAT32, GE_DTYPE_BOOL, GE_DTYPE_INT64, GE_DTYPE_FLOAT16, GE_DTYPE_BFLOAT16,
                                   GE_DTYPE_UINT16};
  int t, o;
  const int64_t per = 30000;
  for (t = 0; t < 3; t++) {
    int64_t dims[2] = {5, per}, i;
    ge_value x = kh_value(float_types[t], 2, dims, NULL);
    ge_value *in[1];
    for (i = 0; i < 5 * per; i++) {
      double p = ps[i / per];
      if (t == 0) ((uint16_t *)x.data)[i] = ge_float_to_half((float)p);
      else if (t == 1) ((float *)x.data)[i] = (float)p;
      else ((double *)x.data)[i] = p;
    }
    in[0] = &x;
    for (o = 0; o < 6; o++) {
      rk r;
      int k;
      GE_REQUIRE(rk_make(&r, "Bernoulli", 1, in, -1));
      if (o || t != 1) set_i(&r, "dtype", outs[o]); /* float32 over float32 by default */
      set_f(&r, "seed", 1234);
      GE_CHECK_EQ_INT(rk_run(&r, in, 1), GE_OK);
      GE_CHECK_EQ_INT(r.out[0].dtype, outs[o]);
      GE_CHECK_EQ_INT(r.out[0].numel, 5 * per);
      for (k = 0; k < 5; k++) {
        double p = t == 0 ? ge_half_to_float(ge_float_to_half((float)ps[k])) : t == 1 ? (float)ps[k] : ps[k];
        int64_t ones = 0, bad = 0;
        for (i = k * per; i < (k + 1) * per; i++) {
          double y = get_f(&r.out[0], i);
          ones += y == 1;
          bad += y != 0 && y != 1;
        }
        GE_CHECK_EQ_INT(bad, 0);
        if (p == 0 || p == 1) GE_CHECK_EQ_INT(ones, (int64_t)p * per);
        else GE_CHECK(fabs((double)ones / (double)per - p) < 5 * sqrt(p * (1 - p) / (double)per));
      }
      rk_free(&r);
    }
    kh_free(&x);
  }
}

/* Multinomial: frequencies against softmax(input), chi-square with 3
 * degrees of freedom (P(chi2 > 30) ~ 1.4e-6). */
GE_TEST(test_multinomial_frequencies) {
  static const double probs[2][4] = {{0.1, 0.2, 0.3, 0.4}, {0.5, 0.25, 0.25, 0}};
  int t, o;
  for (t = 0; t < 3; t++)
    for (o = 0; o < 2; o++) {
      int64_t dims[2] = {2, 4}, i, r0, k;
      ge_value x = kh_value(float_types[t], 2, dims, NULL);
      ge_value *in[1];
      rk r;
      const int64_t ss = 100000;
      for (i = 0; i < 8; i++) { /* unnormalized: log p + 7 */
        double v = probs[i / 4][i % 4] > 0 ? log(probs[i / 4][i % 4]) + 7 : -HUGE_VAL;
        if (t == 0) ((uint16_t *)x.data)[i] = ge_float_to_half((float)v);
        else if (t == 1) ((float *)x.data)[i] = (float)v;
        else ((double *)x.data)[i] = v;
      }
      in[0] = &x;
      GE_REQUIRE(rk_make(&r, "Multinomial", 1, in, -1));
      set_i(&r, "sample_size", ss);
      if (o) set_i(&r, "dtype", GE_DTYPE_INT64);
      set_f(&r, "seed", 99);
      GE_CHECK_EQ_INT(rk_run(&r, in, 1), GE_OK);
      GE_CHECK_EQ_INT(r.out[0].dtype, o ? GE_DTYPE_INT64 : GE_DTYPE_INT32);
      GE_CHECK_EQ_INT(r.out[0].rank, 2);
      GE_CHECK_EQ_INT(r.out[0].dims[0], 2);
      GE_CHECK_EQ_INT(r.out[0].dims[1], ss);
      for (r0 = 0; r0 < 2; r0++) {
        int64_t count[4] = {0, 0, 0, 0}, bad = 0;
        double chi2 = 0, z[4], tot = 0;
        for (i = 0; i < ss; i++) {
          int64_t c = (int64_t)get_f(&r.out[0], r0 * ss + i);
          if (c < 0 || c > 3) bad++;
          else count[c]++;
        }
        GE_CHECK_EQ_INT(bad, 0);
        for (k = 0; k < 4; k++) { /* the probabilities the input really holds (float16 rounds) */
          double v = get_f(&x, r0 * 4 + k);
          z[k] = v > -HUGE_VAL ? exp(v - 7) : 0;
          tot += z[k];
        }
        for (k = 0; k < 4; k++) {
          double e = (double)ss * z[k] / tot;
          if (e > 0) chi2 += ((double)count[k] - e) * ((double)count[k] - e) / e;
          else GE_CHECK_EQ_INT(count[k], 0);
        }
        GE_CHECK(chi2 < 30);
      }
      rk_free(&r);
      kh_free(&x);
    }
}

GE_TEST(test_multinomial_errors) {
  int64_t dims[2] = {2, 3}, d3[3] = {1, 2, 3};
  double v[6] = {0, 0, 0, -HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
  ge_value x = kh_value(GE_DTYPE_FLOAT64, 2, dims, v), x3 = kh_value(GE_DTYPE_FLOAT32, 3, d3, NULL);
  ge_value xi = kh_value(GE_DTYPE_INT32, 2, dims, NULL);
  ge_value *in[1];
  rk r;
  in[0] = &x;
  GE_REQUIRE(rk_make(&r, "Multinomial", 1, in, -1));
  GE_CHECK_EQ_INT(rk_run(&r, in, 1), GE_ERR_INVALID);
  GE_CHECK(strstr(r.err.message, "row 1 has no finite positive probability") != NULL);
  in[0] = &x3;
  GE_CHECK_EQ_INT(rk_run(&r, in, 1), GE_ERR_SHAPE);
  in[0] = &xi;
  GE_CHECK_EQ_INT(rk_run(&r, in, 1), GE_ERR_UNSUPPORTED);
  GE_CHECK(strstr(r.err.message, "input dtype int32 is not float16, float32 or float64") != NULL);
  rk_free(&r);
  in[0] = &x;
  GE_REQUIRE(rk_make(&r, "Multinomial", 1, in, -1));
  set_i(&r, "sample_size", 0);
  GE_CHECK_EQ_INT(rk_run(&r, in, 1), GE_ERR_INVALID);
  GE_CHECK(strstr(r.err.message, "sample_size 0 is below 1") != NULL);
  rk_free(&r);
  kh_free(&x);
  kh_free(&x3);
  kh_free(&xi);
}

/* ------------------------------------------------------- reproducibility */

/* Runs op (no input; shape [1000]) with seed and dtype on a node named
 * name, `runs` times; the last output is copied to *out. */
static int run_seeded(const char *op, const char *name, double seed, int has_seed, ge_dtype dt, int runs, ge_value *out) {
  rk r;
  int64_t dims[1] = {1000};
  int i, ok = 1;
  if (!rk_make(&r, op, 0, NULL, -1)) return 0;
  ge_node_set_name(r.t.g, rk_id(&r), name, NULL);
  set_shape(&r, 1, dims);
  set_i(&r, "dtype", dt);
  if (has_seed) set_f(&r, "seed", seed);
  for (i = 0; i < runs && ok; i++) ok = rk_run(&r, NULL, 0) == GE_OK;
  *out = copy_value(&r.out[0]);
  rk_free(&r);
  return ok;
}

GE_TEST(test_seed_reproducible) {
  int t, op;
  static const char *const ops[2] = {"RandomUniform", "RandomNormal"};
  for (op = 0; op < 2; op++)
    for (t = 0; t < 3; t++) {
      ge_value a, b, c, d, e;
      GE_REQUIRE(run_seeded(ops[op], "a", 42, 1, float_types[t], 1, &a));
      GE_REQUIRE(run_seeded(ops[op], "other_name", 42, 1, float_types[t], 3, &b)); /* any node, any run */
      GE_REQUIRE(run_seeded(ops[op], "a", 43, 1, float_types[t], 1, &c));
      GE_REQUIRE(run_seeded(ops[op], "a", -0.0, 1, float_types[t], 1, &d));
      GE_REQUIRE(run_seeded(ops[op], "a", 0.0, 1, float_types[t], 1, &e));
      GE_CHECK(same_bytes(&a, &b));
      GE_CHECK(!same_bytes(&a, &c));
      GE_CHECK(same_bytes(&d, &e));
      kh_free(&a);
      kh_free(&b);
      kh_free(&c);
      kh_free(&d);
      kh_free(&e);
    }
}

/* The stream is a pure function of (seed, element index): a longer output
 * starts with the shorter one. */
GE_TEST(test_seed_prefix) {
  int t, op;
  static const char *const ops[2] = {"RandomUniform", "RandomNormal"};
  for (op = 0; op < 2; op++)
    for (t = 0; t < 3; t++) {
      rk r1, r2;
      int64_t d1[1] = {7}, d2[2] = {3, 5};
      GE_REQUIRE(rk_make(&r1, ops[op], 0, NULL, -1));
      GE_REQUIRE(rk_make(&r2, ops[op], 0, NULL, -1));
      set_shape(&r1, 1, d1);
      set_shape(&r2, 2, d2);
      set_i(&r1, "dtype", float_types[t]);
      set_i(&r2, "dtype", float_types[t]);
      set_f(&r1, "seed", 5);
      set_f(&r2, "seed", 5);
      GE_CHECK_EQ_INT(rk_run(&r1, NULL, 0), GE_OK);
      GE_CHECK_EQ_INT(rk_run(&r2, NULL, 0), GE_OK);
      GE_CHECK(memcmp(r1.out[0].data, r2.out[0].data, r1.out[0].nbytes) == 0);
      rk_free(&r1);
      rk_free(&r2);
    }
}

GE_TEST(test_unseeded_runs_differ) {
  int t;
  for (t = 0; t < 3; t++) {
    ge_value a, b, a2, c;
    GE_REQUIRE(run_seeded("RandomUniform", "a", 0, 0, float_types[t], 1, &a));
    GE_REQUIRE(run_seeded("RandomUniform", "a", 0, 0, float_types[t], 2, &b));  /* second run */
    GE_REQUIRE(run_seeded("RandomUniform", "a", 0, 0, float_types[t], 1, &a2)); /* a new program */
    GE_REQUIRE(run_seeded("RandomUniform", "b", 0, 0, float_types[t], 1, &c));  /* another node */
    GE_CHECK(!same_bytes(&a, &b));
    GE_CHECK(same_bytes(&a, &a2));
    GE_CHECK(!same_bytes(&a, &c));
    kh_free(&a);
    kh_free(&b);
    kh_free(&a2);
    kh_free(&c);
  }
  { /* Bernoulli and Multinomial too */
    int64_t dims[2] = {4, 50}, i;
    ge_value x = kh_value(GE_DTYPE_FLOAT32, 2, dims, NULL), first[2];
    ge_value *in[1];
    static const char *const ops[2] = {"Bernoulli", "Multinomial"};
    int op;
    for (i = 0; i < 200; i++) ((float *)x.data)[i] = 0.5f;
    in[0] = &x;
    for (op = 0; op < 2; op++) {
      rk r;
      GE_REQUIRE(rk_make(&r, ops[op], 1, in, -1));
      set_i(&r, "sample_size", 64);
      GE_CHECK_EQ_INT(rk_run(&r, in, 1), GE_OK);
      first[op] = copy_value(&r.out[0]);
      GE_CHECK_EQ_INT(rk_run(&r, in, 1), GE_OK);
      GE_CHECK(!same_bytes(&first[op], &r.out[0]));
      rk_free(&r);
      kh_free(&first[op]);
    }
    kh_free(&x);
  }
}

/* Every dtype every op produces, and empty outputs. */
GE_TEST(test_every_dtype) {
  static const char *const gens[4] = {"RandomUniform", "RandomNormal", "RandomUniformLike", "RandomNormalLike"};
  int op, t;
  for (op = 0; op < 4; op++)
    for (t = 0; t < 3; t++) {
      int64_t dims[2] = {3, 4}, e[2] = {0, 4};
      ge_value x = kh_value(float_types[t], 2, dims, NULL), x0 = kh_value(float_types[t], 2, e, NULL);
      ge_value *in[1];
      rk r;
      int64_t i;
      in[0] = &x;
      GE_REQUIRE(rk_make(&r, gens[op], op >= 2, in, -1));
      if (op < 2) {
        set_shape(&r, 2, dims);
        set_i(&r, "dtype", float_types[t]);
      }
      GE_CHECK_EQ_INT(rk_run(&r, in, op >= 2), GE_OK);
      GE_CHECK_EQ_INT(r.out[0].dtype, float_types[t]);
      GE_CHECK_EQ_INT(r.out[0].numel, 12);
      for (i = 0; i < 12; i++) GE_CHECK(get_f(&r.out[0], i) == get_f(&r.out[0], i)); /* no NaN */
      if (op >= 2) {
        in[0] = &x0;
        GE_CHECK_EQ_INT(rk_run(&r, in, 1), GE_OK);
        GE_CHECK_EQ_INT(r.out[0].numel, 0);
      }
      rk_free(&r);
      kh_free(&x);
      kh_free(&x0);
    }
}

/* --------------------------------------------------------- support */

static int dsa_ok(const ge_graph *g, ge_node_id id, char *why, size_t cap) {
  const ge_engine *e = ge_dsa_engine();
  if (why) why[0] = 0;
  return e->check_supported(e, g, ge_graph_node(g, id), why, cap);
}

static int hccl_ok(const ge_graph *g, ge_node_id id, char *why, size_t cap) {
  const ge_engine *e = ge_hccl_engine();
  if (why) why[0] = 0;
  return e->check_supported(e, g, ge_graph_node(g, id), why, cap);
}

GE_TEST(test_engine_descriptors) {
  const ge_engine *d = ge_dsa_engine(), *h = ge_hccl_engine();
  GE_REQUIRE(d && h);
  GE_CHECK_EQ_INT(d->abi_version, GE_ENGINE_ABI_VERSION);
  GE_CHECK_STR(d->name, "DSAEngine");
  GE_CHECK_STR(d->accelerator, "Dsa");
  GE_CHECK_EQ_INT(d->cost, 2);
  GE_CHECK_EQ_INT(d->runtime, GE_RUNTIME_DEVICE);
  GE_CHECK_EQ_INT(d->flags, 0);
  GE_CHECK(d->check_supported && d->kernel && !d->members);
  GE_CHECK_EQ_INT(h->abi_version, GE_ENGINE_ABI_VERSION);
  GE_CHECK_STR(h->name, "DNN_HCCL");
  GE_CHECK_STR(h->accelerator, "Hccl");
  GE_CHECK_EQ_INT(h->cost, 2);
  GE_CHECK_EQ_INT(h->runtime, GE_RUNTIME_DEVICE);
  GE_CHECK_EQ_INT(h->flags, GE_ENGINE_INDEPENDENT);
  GE_CHECK(h->check_supported && h->kernel && !h->members);
}

GE_TEST(test_dsa_check_supported) {
  ge_graph *g = NULL;
  ge_node_id u, x, xi, x3, n, big;
  char why[200];
  int64_t dims[2] = {3, 4}, d3[3] = {2, 3, 4}, huge[2] = {65536, 32769}, ok2[2] = {65536, 32768}, neg[2] = {2, -1};
  ge_edge e;
  GE_REQUIRE(ge_graph_create(NULL, &g, NULL) == GE_OK);
  ge_graph_add_data(g, "x", GE_DTYPE_FLOAT32, 2, dims, &x, NULL);
  ge_graph_add_data(g, "xi", GE_DTYPE_INT32, 2, dims, &xi, NULL);
  ge_graph_add_data(g, "x3", GE_DTYPE_FLOAT64, 3, d3, &x3, NULL);
  ge_graph_add_data(g, "big", GE_DTYPE_FLOAT16, 2, huge, &big, NULL);
  /* RandomUniform: shape and dtype */
  ge_graph_add_node(g, "RandomUniform", "u", 0, NULL, -1, &u, NULL);
  GE_CHECK(!dsa_ok(g, u, why, sizeof why));
  GE_CHECK_STR(why, "no shape attribute");
  ge_node_set_attr_ints(g, u, "shape", dims, 2, NULL);
  GE_CHECK(dsa_ok(g, u, why, sizeof why));
  GE_CHECK(dsa_ok(g, u, NULL, 0));
  ge_node_set_attr_int(g, u, "dtype", GE_DTYPE_INT32, NULL);
  GE_CHECK(!dsa_ok(g, u, why, sizeof why));
  GE_CHECK_STR(why, "output dtype int32 is not float16, float32 or float64");
  GE_CHECK(!dsa_ok(g, u, NULL, 0));
  ge_node_set_attr_int(g, u, "dtype", GE_DTYPE_FLOAT64, NULL);
  ge_node_set_attr_ints(g, u, "shape", huge, 2, NULL);
  GE_CHECK(!dsa_ok(g, u, why, sizeof why));
  GE_CHECK_STR(why, "more than 2^31 elements");
  ge_node_set_attr_ints(g, u, "shape", ok2, 2, NULL); /* exactly 2^31 */
  GE_CHECK(dsa_ok(g, u, why, sizeof why));
  ge_node_set_attr_ints(g, u, "shape", neg, 2, NULL);
  GE_CHECK(!dsa_ok(g, u, why, sizeof why));
  GE_CHECK_STR(why, "shape entry 1 is negative");
  /* Like ops: dtype from the input or the attribute */
  e.node = x;
  e.index = 0;
  ge_graph_add_node(g, "RandomNormalLike", "nl", 1, &e, -1, &n, NULL);
  GE_CHECK(dsa_ok(g, n, why, sizeof why));
  e.node = xi;
  ge_graph_add_node(g, "RandomUniformLike", "ul", 1, &e, -1, &n, NULL);
  GE_CHECK(!dsa_ok(g, n, why, sizeof why));
  GE_CHECK_STR(why, "output dtype int32 is not float16, float32 or float64");
  ge_node_set_attr_int(g, n, "dtype", GE_DTYPE_FLOAT16, NULL);
  GE_CHECK(dsa_ok(g, n, why, sizeof why));
  e.node = big;
  ge_graph_add_node(g, "RandomUniformLike", "ul_big", 1, &e, -1, &n, NULL);
  GE_CHECK(!dsa_ok(g, n, why, sizeof why));
  GE_CHECK_STR(why, "more than 2^31 elements");
  /* Bernoulli */
  e.node = xi;
  ge_graph_add_node(g, "Bernoulli", "b_int", 1, &e, -1, &n, NULL);
  GE_CHECK(!dsa_ok(g, n, why, sizeof why));
  GE_CHECK_STR(why, "input dtype int32 is not float16, float32 or float64");
  e.node = x;
  ge_graph_add_node(g, "Bernoulli", "b", 1, &e, -1, &n, NULL);
  GE_CHECK(dsa_ok(g, n, why, sizeof why));
  ge_node_set_attr_int(g, n, "dtype", GE_DTYPE_BOOL, NULL);
  GE_CHECK(dsa_ok(g, n, why, sizeof why));
  ge_node_set_attr_int(g, n, "dtype", GE_DTYPE_STRING, NULL);
  GE_CHECK(!dsa_ok(g, n, why, sizeof why));
  GE_CHECK_STR(why, "output dtype string is not numeric or bool");
  /* Multinomial */
  ge_graph_add_node(g, "Multinomial", "m", 1, &e, -1, &n, NULL);
  GE_CHECK(dsa_ok(g, n, why, sizeof why));
  ge_node_set_attr_int(g, n, "sample_size", 0, NULL);
  GE_CHECK(!dsa_ok(g, n, why, sizeof why));
  GE_CHECK_STR(why, "sample_size 0 is below 1");
  ge_node_set_attr_int(g, n, "sample_size", 1 << 30, NULL);
  GE_CHECK(!dsa_ok(g, n, why, sizeof why)); /* 3 rows */
  GE_CHECK_STR(why, "more than 2^31 elements");
  ge_node_set_attr_int(g, n, "sample_size", 5, NULL);
  ge_node_set_attr_int(g, n, "dtype", GE_DTYPE_FLOAT32, NULL);
  GE_CHECK(!dsa_ok(g, n, why, sizeof why));
  GE_CHECK_STR(why, "output dtype float32 is not int32 or int64");
  ge_node_set_attr_int(g, n, "dtype", GE_DTYPE_INT64, NULL);
  GE_CHECK(dsa_ok(g, n, why, sizeof why));
  e.node = x3;
  ge_graph_add_node(g, "Multinomial", "m3", 1, &e, -1, &n, NULL);
  GE_CHECK(!dsa_ok(g, n, why, sizeof why));
  GE_CHECK_STR(why, "input rank 3 is not 2");
  e.node = xi;
  ge_graph_add_node(g, "Multinomial", "mi", 1, &e, -1, &n, NULL);
  GE_CHECK(!dsa_ok(g, n, why, sizeof why));
  GE_CHECK_STR(why, "input dtype int32 is not float16, float32 or float64");
  /* other ops and domains */
  e.node = x;
  ge_graph_add_node(g, "Relu", "r", 1, &e, -1, &n, NULL);
  GE_CHECK(!dsa_ok(g, n, why, sizeof why));
  GE_CHECK_STR(why, "not a random op");
  GE_CHECK(ge_dsa_kernel(ge_graph_node(g, n)) == NULL);
  ge_graph_add_node(g, "Bernoulli", "b_dom", 1, &e, -1, &n, NULL);
  ge_node_set_domain(g, n, "com.example", NULL);
  GE_CHECK(!dsa_ok(g, n, why, sizeof why));
  GE_CHECK_STR(why, "domain 'com.example' is not onnx");
  GE_CHECK(ge_dsa_kernel(ge_graph_node(g, n)) == NULL);
  /* the engine's kernel is ge_dsa_kernel's (other engines reuse it) */
  GE_CHECK(ge_dsa_engine()->kernel(ge_dsa_engine(), ge_graph_node(g, u)) == ge_dsa_kernel(ge_graph_node(g, u)));
  GE_CHECK(ge_dsa_kernel(ge_graph_node(g, u)) != NULL);
  ge_graph_free(g);
}

/* check_supported is on the placement hot path: 100k nodes well under 50 ms
 * (the bound here is loose so that sanitizer builds pass too). */
GE_TEST(test_check_supported_speed) {
  ge_graph *g = NULL;
  ge_node_id ids[4], x;
  int64_t dims[2] = {3, 4};
  ge_edge e;
  int i, yes = 0;
  clock_t t0;
  double ms;
  GE_REQUIRE(ge_graph_create(NULL, &g, NULL) == GE_OK);
  ge_graph_add_data(g, "x", GE_DTYPE_FLOAT32, 2, dims, &x, NULL);
  e.node = x;
  e.index = 0;
  ge_graph_add_node(g, "RandomUniform", "u", 0, NULL, -1, &ids[0], NULL);
  ge_node_set_attr_ints(g, ids[0], "shape", dims, 2, NULL);
  ge_graph_add_node(g, "Relu", "r", 1, &e, -1, &ids[1], NULL);
  ge_graph_add_node(g, "Bernoulli", "b", 1, &e, -1, &ids[2], NULL);
  ge_graph_add_node(g, "AllReduce", "a", 1, &e, -1, &ids[3], NULL);
  t0 = clock();
  for (i = 0; i < 100000; i++) {
    const ge_node *n = ge_graph_node(g, ids[i & 3]);
    yes += ge_dsa_engine()->check_supported(ge_dsa_engine(), g, n, NULL, 0);
    yes += ge_hccl_engine()->check_supported(ge_hccl_engine(), g, n, NULL, 0);
  }
  ms = 1000.0 * (double)(clock() - t0) / CLOCKS_PER_SEC;
  GE_CHECK_EQ_INT(yes, 75000);
  GE_CHECK(ms < 250);
  ge_graph_free(g);
}

/* ------------------------------------------------------ shape inference */

static ge_status infer(ge_graph *g, ge_node_id id, ge_error *err) {
  memset(err, 0, sizeof *err);
  return ge_node_infer_shape(g, id, err);
}

static int out_is(const ge_graph *g, ge_node_id id, uint32_t i, ge_dtype dt, int32_t rank, const int64_t *dims) {
  const ge_tensor_desc *d = &ge_graph_node(g, id)->outputs[i];
  int32_t k;
  if (d->dtype != dt || d->shape.rank != rank) return 0;
  for (k = 0; k < rank; k++)
    if (d->shape.dims[k] != dims[k]) return 0;
  return 1;
}

GE_TEST(test_random_shape_inference) {
  ge_graph *g = NULL;
  ge_node_id n, x, xi, x3, xu;
  ge_error err;
  ge_edge e;
  int64_t dims[2] = {3, 4}, d3[3] = {2, 3, 4}, neg[2] = {2, -3}, du[2] = {-1, 6}, o[2];
  GE_REQUIRE(ge_graph_create(NULL, &g, NULL) == GE_OK);
  ge_graph_add_data(g, "x", GE_DTYPE_FLOAT32, 2, dims, &x, NULL);
  ge_graph_add_data(g, "xi", GE_DTYPE_INT64, 2, dims, &xi, NULL);
  ge_graph_add_data(g, "x3", GE_DTYPE_FLOAT16, 3, d3, &x3, NULL);
  ge_graph_add_data(g, "xu", GE_DTYPE_FLOAT64, 2, du, &xu, NULL);
  e.index = 0;
  /* RandomUniform / RandomNormal */
  ge_graph_add_node(g, "RandomUniform", "u", 0, NULL, -1, &n, NULL);
  GE_CHECK_EQ_INT(infer(g, n, &err), GE_ERR_INVALID);
  GE_CHECK(strstr(err.message, "attribute 'shape' is missing") != NULL);
  ge_node_set_attr_ints(g, n, "shape", d3, 3, NULL);
  GE_CHECK_EQ_INT(infer(g, n, &err), GE_OK);
  GE_CHECK(out_is(g, n, 0, GE_DTYPE_FLOAT32, 3, d3));
  ge_node_set_attr_dtype(g, n, "dtype", GE_DTYPE_FLOAT64, NULL);
  GE_CHECK_EQ_INT(infer(g, n, &err), GE_OK);
  GE_CHECK(out_is(g, n, 0, GE_DTYPE_FLOAT64, 3, d3));
  ge_node_set_attr_ints(g, n, "shape", NULL, 0, NULL);
  GE_CHECK_EQ_INT(infer(g, n, &err), GE_OK);
  GE_CHECK(out_is(g, n, 0, GE_DTYPE_FLOAT64, 0, NULL));
  ge_node_set_attr_ints(g, n, "shape", neg, 2, NULL);
  GE_CHECK_EQ_INT(infer(g, n, &err), GE_ERR_SHAPE);
  GE_CHECK(strstr(err.message, "shape entry 1 is negative (-3)") != NULL);
  ge_graph_add_node(g, "RandomNormal", "nn", 0, NULL, -1, &n, NULL);
  ge_node_set_attr_ints(g, n, "shape", dims, 2, NULL);
  ge_node_set_attr_int(g, n, "dtype", GE_DTYPE_INT32, NULL);
  GE_CHECK_EQ_INT(infer(g, n, &err), GE_ERR_SHAPE);
  GE_CHECK(strstr(err.message, "output dtype int32 is not float16, float32 or float64") != NULL);
  ge_node_set_attr_int(g, n, "dtype", GE_DTYPE_FLOAT16, NULL);
  GE_CHECK_EQ_INT(infer(g, n, &err), GE_OK);
  GE_CHECK(out_is(g, n, 0, GE_DTYPE_FLOAT16, 2, dims));
  /* Like ops keep the input's shape (unknown dims too) */
  e.node = xu;
  ge_graph_add_node(g, "RandomUniformLike", "ul", 1, &e, -1, &n, NULL);
  GE_CHECK_EQ_INT(infer(g, n, &err), GE_OK);
  GE_CHECK(out_is(g, n, 0, GE_DTYPE_FLOAT64, 2, du));
  ge_node_set_attr_int(g, n, "dtype", GE_DTYPE_FLOAT16, NULL);
  GE_CHECK_EQ_INT(infer(g, n, &err), GE_OK);
  GE_CHECK(out_is(g, n, 0, GE_DTYPE_FLOAT16, 2, du));
  e.node = xi;
  ge_graph_add_node(g, "RandomNormalLike", "nl", 1, &e, -1, &n, NULL);
  GE_CHECK_EQ_INT(infer(g, n, &err), GE_ERR_SHAPE);
  GE_CHECK(strstr(err.message, "output dtype int64 is not float16, float32 or float64") != NULL);
  ge_node_set_attr_int(g, n, "dtype", GE_DTYPE_FLOAT32, NULL);
  GE_CHECK_EQ_INT(infer(g, n, &err), GE_OK);
  GE_CHECK(out_is(g, n, 0, GE_DTYPE_FLOAT32, 2, dims));
  /* Bernoulli */
  e.node = x3;
  ge_graph_add_node(g, "Bernoulli", "b", 1, &e, -1, &n, NULL);
  GE_CHECK_EQ_INT(infer(g, n, &err), GE_OK);
  GE_CHECK(out_is(g, n, 0, GE_DTYPE_FLOAT16, 3, d3));
  ge_node_set_attr_int(g, n, "dtype", GE_DTYPE_BOOL, NULL);
  GE_CHECK_EQ_INT(infer(g, n, &err), GE_OK);
  GE_CHECK(out_is(g, n, 0, GE_DTYPE_BOOL, 3, d3));
  ge_node_set_attr_int(g, n, "dtype", GE_DTYPE_STRING, NULL);
  GE_CHECK_EQ_INT(infer(g, n, &err), GE_ERR_SHAPE);
  e.node = xi;
  ge_graph_add_node(g, "Bernoulli", "bi", 1, &e, -1, &n, NULL);
  GE_CHECK_EQ_INT(infer(g, n, &err), GE_ERR_SHAPE);
  GE_CHECK(strstr(err.message, "input dtype int64 is not float16, float32 or float64") != NULL);
  /* Multinomial */
  e.node = x;
  ge_graph_add_node(g, "Multinomial", "m", 1, &e, -1, &n, NULL);
  GE_CHECK_EQ_INT(infer(g, n, &err), GE_OK);
  o[0] = 3;
  o[1] = 1;
  GE_CHECK(out_is(g, n, 0, GE_DTYPE_INT32, 2, o));
  ge_node_set_attr_int(g, n, "sample_size", 10, NULL);
  ge_node_set_attr_int(g, n, "dtype", GE_DTYPE_INT64, NULL);
  GE_CHECK_EQ_INT(infer(g, n, &err), GE_OK);
  o[1] = 10;
  GE_CHECK(out_is(g, n, 0, GE_DTYPE_INT64, 2, o));
  ge_node_set_attr_int(g, n, "sample_size", 0, NULL);
  GE_CHECK_EQ_INT(infer(g, n, &err), GE_ERR_INVALID);
  GE_CHECK(strstr(err.message, "sample_size 0 is below 1") != NULL);
  ge_node_set_attr_int(g, n, "sample_size", 2, NULL);
  ge_node_set_attr_int(g, n, "dtype", GE_DTYPE_FLOAT32, NULL);
  GE_CHECK_EQ_INT(infer(g, n, &err), GE_ERR_SHAPE);
  GE_CHECK(strstr(err.message, "output dtype float32 is not int32 or int64") != NULL);
  e.node = xu;
  ge_graph_add_node(g, "Multinomial", "mu", 1, &e, -1, &n, NULL);
  GE_CHECK_EQ_INT(infer(g, n, &err), GE_OK);
  o[0] = -1;
  o[1] = 1;
  GE_CHECK(out_is(g, n, 0, GE_DTYPE_INT32, 2, o));
  e.node = x3;
  ge_graph_add_node(g, "Multinomial", "m3", 1, &e, -1, &n, NULL);
  GE_CHECK_EQ_INT(infer(g, n, &err), GE_ERR_SHAPE);
  GE_CHECK(strstr(err.message, "input has rank 3, expected 2") != NULL);
  /* the whole graph validates against the schemas */
  ge_graph_free(g);
}

GE_TEST(test_collective_shape_inference) {
  ge_graph *g = NULL;
  ge_node_id n, x, xs, xu, xb;
  ge_error err;
  ge_edge e[2];
  int64_t dims[2] = {8, 3}, du[2] = {-1, 3}, o[2];
  GE_REQUIRE(ge_graph_create(NULL, &g, NULL) == GE_OK);
  ge_graph_add_data(g, "x", GE_DTYPE_FLOAT32, 2, dims, &x, NULL);
  ge_graph_add_data(g, "xs", GE_DTYPE_INT32, 0, NULL, &xs, NULL);
  ge_graph_add_data(g, "xu", GE_DTYPE_FLOAT16, 2, du, &xu, NULL);
  ge_graph_add_data(g, "xb", GE_DTYPE_BOOL, 1, dims, &xb, NULL);
  e[0].index = e[1].index = 0;
  e[0].node = x;
  /* AllReduce */
  ge_graph_add_node(g, "AllReduce", "ar", 1, e, -1, &n, NULL);
  GE_CHECK_EQ_INT(infer(g, n, &err), GE_OK);
  GE_CHECK(out_is(g, n, 0, GE_DTYPE_FLOAT32, 2, dims));
  ge_node_set_attr_int(g, n, "rank_size", 8, NULL);
  GE_CHECK_EQ_INT(infer(g, n, &err), GE_OK);
  GE_CHECK(out_is(g, n, 0, GE_DTYPE_FLOAT32, 2, dims));
  ge_node_set_attr_string(g, n, "reduction", "avg", NULL);
  GE_CHECK_EQ_INT(infer(g, n, &err), GE_ERR_INVALID);
  GE_CHECK(strstr(err.message, "reduction 'avg' is not sum, prod, max or min") != NULL);
  ge_node_set_attr_string(g, n, "reduction", "max", NULL);
  ge_node_set_attr_int(g, n, "rank_size", 0, NULL);
  GE_CHECK_EQ_INT(infer(g, n, &err), GE_ERR_INVALID);
  GE_CHECK(strstr(err.message, "rank_size 0 is not positive") != NULL);
  /* Broadcast: every input, any dtypes */
  e[1].node = xb;
  ge_graph_add_node(g, "Broadcast", "bc", 2, e, 2, &n, NULL);
  GE_CHECK_EQ_INT(infer(g, n, &err), GE_OK);
  GE_CHECK(out_is(g, n, 0, GE_DTYPE_FLOAT32, 2, dims));
  GE_CHECK(out_is(g, n, 1, GE_DTYPE_BOOL, 1, dims));
  ge_node_set_attr_int(g, n, "root_rank", 1, NULL);
  GE_CHECK_EQ_INT(infer(g, n, &err), GE_ERR_INVALID);
  GE_CHECK(strstr(err.message, "root_rank 1 is not a rank of 1") != NULL);
  ge_node_set_attr_int(g, n, "rank_size", 2, NULL);
  GE_CHECK_EQ_INT(infer(g, n, &err), GE_OK);
  /* AllGather: dim 0 times rank_size */
  ge_graph_add_node(g, "AllGather", "ag", 1, e, -1, &n, NULL);
  GE_CHECK_EQ_INT(infer(g, n, &err), GE_OK);
  GE_CHECK(out_is(g, n, 0, GE_DTYPE_FLOAT32, 2, dims));
  ge_node_set_attr_int(g, n, "rank_size", 4, NULL);
  GE_CHECK_EQ_INT(infer(g, n, &err), GE_OK);
  o[0] = 32;
  o[1] = 3;
  GE_CHECK(out_is(g, n, 0, GE_DTYPE_FLOAT32, 2, o));
  e[0].node = xu;
  ge_graph_add_node(g, "AllGather", "agu", 1, e, -1, &n, NULL);
  ge_node_set_attr_int(g, n, "rank_size", 4, NULL);
  GE_CHECK_EQ_INT(infer(g, n, &err), GE_OK);
  GE_CHECK(out_is(g, n, 0, GE_DTYPE_FLOAT16, 2, du));
  e[0].node = xs;
  ge_graph_add_node(g, "AllGather", "ags", 1, e, -1, &n, NULL);
  GE_CHECK_EQ_INT(infer(g, n, &err), GE_ERR_SHAPE);
  GE_CHECK(strstr(err.message, "a scalar has no axis 0 to gather along") != NULL);
  /* ReduceScatter: dim 0 divided by rank_size */
  e[0].node = x;
  ge_graph_add_node(g, "ReduceScatter", "rs", 1, e, -1, &n, NULL);
  GE_CHECK_EQ_INT(infer(g, n, &err), GE_OK);
  GE_CHECK(out_is(g, n, 0, GE_DTYPE_FLOAT32, 2, dims));
  ge_node_set_attr_int(g, n, "rank_size", 4, NULL);
  GE_CHECK_EQ_INT(infer(g, n, &err), GE_OK);
  o[0] = 2;
  GE_CHECK(out_is(g, n, 0, GE_DTYPE_FLOAT32, 2, o));
  ge_node_set_attr_int(g, n, "rank_size", 3, NULL);
  GE_CHECK_EQ_INT(infer(g, n, &err), GE_ERR_SHAPE);
  GE_CHECK(strstr(err.message, "dim 0 (8) is not divisible by rank_size 3") != NULL);
  ge_node_set_attr_int(g, n, "rank_size", 1, NULL);
  ge_node_set_attr_string(g, n, "reduction", "mean", NULL);
  GE_CHECK_EQ_INT(infer(g, n, &err), GE_ERR_INVALID);
  e[0].node = xs;
  ge_graph_add_node(g, "ReduceScatter", "rss", 1, e, -1, &n, NULL);
  GE_CHECK_EQ_INT(infer(g, n, &err), GE_ERR_SHAPE);
  GE_CHECK(strstr(err.message, "a scalar has no axis 0 to scatter along") != NULL);
  ge_graph_free(g);
}

/* The schemas' attributes, input counts and dtypes validate. */
GE_TEST(test_schemas_validate) {
  ge_graph *g = NULL;
  ge_node_id x, n, m;
  ge_error err;
  ge_edge e;
  int64_t dims[2] = {4, 2};
  ge_edge outs[2];
  GE_REQUIRE(ge_graph_create(NULL, &g, NULL) == GE_OK);
  ge_graph_add_data(g, "x", GE_DTYPE_FLOAT32, 2, dims, &x, NULL);
  e.node = x;
  e.index = 0;
  ge_graph_add_node(g, "ReduceScatter", "rs", 1, &e, -1, &n, NULL);
  ge_graph_add_node(g, "RandomUniform", "u", 0, NULL, -1, &m, NULL);
  ge_node_set_attr_ints(g, m, "shape", dims, 2, NULL);
  ge_node_set_attr_float(g, m, "seed", 3, NULL);
  outs[0].node = n;
  outs[0].index = 0;
  outs[1].node = m;
  outs[1].index = 0;
  ge_graph_set_outputs(g, 2, outs, NULL, NULL);
  GE_CHECK_EQ_INT(ge_graph_infer_shapes(g, &err), GE_OK);
  GE_CHECK_EQ_INT(ge_graph_validate(g, NULL, &err), GE_OK);
  ge_node_set_attr_int(g, m, "seed", 3, NULL); /* ONNX: seed is a float */
  GE_CHECK_EQ_INT(ge_graph_validate(g, NULL, &err), GE_ERR_INVALID);
  ge_graph_free(g);
}

/* ----------------------------------------------------------------- HCCL */

static const ge_dtype all_types[] = {GE_DTYPE_FLOAT32, GE_DTYPE_UINT8,  GE_DTYPE_INT8,    GE_DTYPE_UINT16,
                                     GE_DTYPE_INT16,   GE_DTYPE_INT32,  GE_DTYPE_INT64,   GE_DTYPE_BOOL,
                                     GE_DTYPE_FLOAT16, GE_DTYPE_FLOAT64, GE_DTYPE_UINT32, GE_DTYPE_UINT64,
                                     GE_DTYPE_COMPLEX64, GE_DTYPE_COMPLEX128, GE_DTYPE_BFLOAT16};

GE_TEST(test_hccl_identity_every_op_and_dtype) {
  static const char *const ops[4] = {"AllReduce", "AllGather", "ReduceScatter", "Broadcast"};
  static const char *const reds[4] = {"sum", "prod", "max", "min"};
  size_t t;
  int op;
  for (op = 0; op < 4; op++)
    for (t = 0; t < sizeof all_types / sizeof all_types[0]; t++) {
      int64_t dims[3] = {4, 3, 5}, i;
      ge_value x = kh_value(all_types[t], 3, dims, NULL);
      ge_value *in[1];
      rk r;
      for (i = 0; i < (int64_t)x.nbytes; i++) ((uint8_t *)x.data)[i] = (uint8_t)(i * 37 + t);
      in[0] = &x;
      GE_REQUIRE(rk_make(&r, ops[op], 1, in, -1));
      if (op == 0 || op == 2) set_s(&r, "reduction", reds[t % 4]);
      if (t % 2) set_s(&r, "group", "hccl_world_group");
      if (t % 3 == 0) set_i(&r, "rank_size", 1);
      GE_CHECK_EQ_INT(rk_run(&r, in, 1), GE_OK);
      GE_CHECK(same_bytes(&r.out[0], &x));
      GE_CHECK_EQ_INT(r.out[0].rank, 3);
      GE_CHECK(r.out[0].dims[0] == 4 && r.out[0].dims[1] == 3 && r.out[0].dims[2] == 5);
      GE_CHECK_EQ_INT(rk_run(&r, in, 1), GE_OK); /* the second run (state set) */
      GE_CHECK(same_bytes(&r.out[0], &x));
      rk_free(&r);
      kh_free(&x);
    }
}

GE_TEST(test_hccl_broadcast_many) {
  int64_t d1[1] = {7}, d2[2] = {2, 2};
  double a[7] = {1, 2, 3, 4, 5, 6, 7};
  int32_t b[4] = {-1, 0, 1, 2};
  ge_value x = kh_value(GE_DTYPE_FLOAT64, 1, d1, a), y = kh_value(GE_DTYPE_INT32, 2, d2, b), s = kh_value(GE_DTYPE_INT8, 0, NULL, "\x05");
  ge_value *in[3];
  rk r;
  in[0] = &x;
  in[1] = &y;
  in[2] = &s;
  GE_REQUIRE(rk_make(&r, "Broadcast", 3, in, 3));
  GE_CHECK_EQ_INT(rk_run(&r, in, 3), GE_OK);
  GE_CHECK(same_bytes(&r.out[0], &x));
  GE_CHECK(same_bytes(&r.out[1], &y));
  GE_CHECK(same_bytes(&r.out[2], &s));
  GE_CHECK_EQ_INT(r.out[1].rank, 2);
  GE_CHECK_EQ_INT(r.out[2].rank, 0);
  rk_free(&r);
  kh_free(&x);
  kh_free(&y);
  kh_free(&s);
}

/* The kernel refuses what check_supported refuses (a node placed by hand). */
GE_TEST(test_hccl_kernel_refuses) {
  int64_t d[1] = {3};
  ge_value x = kh_value(GE_DTYPE_FLOAT32, 1, d, NULL);
  ge_value *in[1];
  rk r;
  in[0] = &x;
  GE_REQUIRE(rk_make(&r, "AllReduce", 1, in, -1));
  set_i(&r, "rank_size", 2);
  GE_CHECK_EQ_INT(rk_run(&r, in, 1), GE_ERR_UNSUPPORTED);
  GE_CHECK(strstr(r.err.message, "rank_size 2 needs 2 processes; multi-process collectives are not built yet") != NULL);
  GE_CHECK(r.state == NULL);
  rk_free(&r);
  GE_REQUIRE(rk_make(&r, "Broadcast", 1, in, -1));
  set_i(&r, "root_rank", 3);
  GE_CHECK_EQ_INT(rk_run(&r, in, 1), GE_ERR_UNSUPPORTED);
  GE_CHECK(strstr(r.err.message, "root_rank 3") != NULL);
  rk_free(&r);
  kh_free(&x);
}

GE_TEST(test_hccl_check_supported) {
  ge_graph *g = NULL;
  ge_node_id x, xs, xstr, n;
  ge_edge e[2];
  char why[200];
  int64_t dims[2] = {4, 2};
  GE_REQUIRE(ge_graph_create(NULL, &g, NULL) == GE_OK);
  ge_graph_add_data(g, "x", GE_DTYPE_FLOAT32, 2, dims, &x, NULL);
  ge_graph_add_data(g, "xs", GE_DTYPE_FLOAT32, 0, NULL, &xs, NULL);
  ge_graph_add_data(g, "xstr", GE_DTYPE_STRING, 1, dims, &xstr, NULL);
  e[0].index = e[1].index = 0;
  e[0].node = x;
  e[1].node = xs;
  ge_graph_add_node(g, "AllReduce", "ar", 1, e, -1, &n, NULL);
  GE_CHECK(hccl_ok(g, n, why, sizeof why));
  GE_CHECK(hccl_ok(g, n, NULL, 0));
  GE_CHECK(ge_hccl_engine()->kernel(ge_hccl_engine(), ge_graph_node(g, n)) != NULL);
  ge_node_set_attr_int(g, n, "rank_size", 2, NULL);
  GE_CHECK(!hccl_ok(g, n, why, sizeof why));
  GE_CHECK_STR(why, "rank_size 2 needs 2 processes; multi-process collectives are not built yet");
  GE_CHECK(!hccl_ok(g, n, NULL, 0));
  ge_node_set_attr_int(g, n, "rank_size", 8, NULL);
  GE_CHECK(!hccl_ok(g, n, why, sizeof why));
  GE_CHECK_STR(why, "rank_size 8 needs 8 processes; multi-process collectives are not built yet");
  ge_node_set_attr_int(g, n, "rank_size", 0, NULL);
  GE_CHECK(!hccl_ok(g, n, why, sizeof why));
  GE_CHECK_STR(why, "rank_size 0 is not positive");
  ge_node_set_attr_int(g, n, "rank_size", 1, NULL);
  ge_node_set_attr_string(g, n, "group", "my_group", NULL);
  GE_CHECK(!hccl_ok(g, n, why, sizeof why));
  GE_CHECK_STR(why, "group 'my_group' is not hccl_world_group");
  ge_node_set_attr_string(g, n, "group", "hccl_world_group", NULL);
  GE_CHECK(hccl_ok(g, n, why, sizeof why));
  ge_node_set_attr_string(g, n, "reduction", "avg", NULL);
  GE_CHECK(!hccl_ok(g, n, why, sizeof why));
  GE_CHECK_STR(why, "reduction 'avg' is not sum, prod, max or min");
  ge_node_set_attr_string(g, n, "reduction", "prod", NULL);
  GE_CHECK(hccl_ok(g, n, why, sizeof why));
  /* ReduceScatter: reduction too; scalars have no axis 0 */
  ge_graph_add_node(g, "ReduceScatter", "rs", 1, e, -1, &n, NULL);
  GE_CHECK(hccl_ok(g, n, why, sizeof why));
  ge_node_set_attr_string(g, n, "reduction", "", NULL);
  GE_CHECK(!hccl_ok(g, n, why, sizeof why));
  GE_CHECK_STR(why, "reduction '' is not sum, prod, max or min");
  ge_graph_add_node(g, "AllGather", "ags", 1, &e[1], -1, &n, NULL);
  GE_CHECK(!hccl_ok(g, n, why, sizeof why));
  GE_CHECK_STR(why, "a scalar has no axis 0");
  ge_graph_add_node(g, "AllReduce", "ars", 1, &e[1], -1, &n, NULL);
  GE_CHECK(hccl_ok(g, n, why, sizeof why));
  /* Broadcast */
  ge_graph_add_node(g, "Broadcast", "bc", 2, e, 2, &n, NULL);
  GE_CHECK(hccl_ok(g, n, why, sizeof why));
  ge_node_set_attr_int(g, n, "root_rank", 1, NULL);
  GE_CHECK(!hccl_ok(g, n, why, sizeof why));
  GE_CHECK_STR(why, "root_rank 1 is not the only rank, 0");
  ge_graph_add_node(g, "Broadcast", "bc2", 2, e, 1, &n, NULL);
  GE_CHECK(!hccl_ok(g, n, why, sizeof why));
  GE_CHECK_STR(why, "2 inputs but 1 outputs");
  /* strings, other ops, other domains */
  e[0].node = xstr;
  ge_graph_add_node(g, "Broadcast", "bcs", 1, e, 1, &n, NULL);
  GE_CHECK(!hccl_ok(g, n, why, sizeof why));
  GE_CHECK_STR(why, "input 0 is a string tensor");
  e[0].node = x;
  ge_graph_add_node(g, "Relu", "r", 1, e, -1, &n, NULL);
  GE_CHECK(!hccl_ok(g, n, why, sizeof why));
  GE_CHECK_STR(why, "not a collective op");
  GE_CHECK(ge_hccl_kernel(ge_graph_node(g, n)) == NULL);
  ge_graph_add_node(g, "AllReduce", "ard", 1, e, -1, &n, NULL);
  ge_node_set_domain(g, n, "custom", NULL);
  GE_CHECK(!hccl_ok(g, n, why, sizeof why));
  GE_CHECK_STR(why, "domain 'custom' is not ge's");
  GE_CHECK(ge_hccl_kernel(ge_graph_node(g, n)) == NULL);
  ge_graph_free(g);
}

int main(int argc, char **argv) {
  ge_test_init(argc, argv);
  GE_RUN(test_philox_known_answers);
  GE_RUN(test_philox_stream_layout);
  GE_RUN(test_float16_conversion);
  GE_RUN(test_uniform_statistics);
  GE_RUN(test_uniform_never_reaches_high);
  GE_RUN(test_normal_statistics);
  GE_RUN(test_like_ops);
  GE_RUN(test_bernoulli_frequency);
  GE_RUN(test_multinomial_frequencies);
  GE_RUN(test_multinomial_errors);
  GE_RUN(test_seed_reproducible);
  GE_RUN(test_seed_prefix);
  GE_RUN(test_unseeded_runs_differ);
  GE_RUN(test_every_dtype);
  GE_RUN(test_engine_descriptors);
  GE_RUN(test_dsa_check_supported);
  GE_RUN(test_check_supported_speed);
  GE_RUN(test_random_shape_inference);
  GE_RUN(test_collective_shape_inference);
  GE_RUN(test_schemas_validate);
  GE_RUN(test_hccl_identity_every_op_and_dtype);
  GE_RUN(test_hccl_broadcast_many);
  GE_RUN(test_hccl_kernel_refuses);
  GE_RUN(test_hccl_check_supported);
  return ge_test_main_end();
}

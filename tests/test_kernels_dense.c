/* Dense, pooling, normalization and reduction kernels of the host CPU
 * engine (ge_engines/host_cpu.h): MatMul, MatMulInteger, Gemm, Conv,
 * ConvTranspose, ConvInteger, the pools, the normalizations, softmax and
 * friends, the reductions, ArgMax/ArgMin, CumSum, Einsum, Det, Resize and
 * Upsample, and errors on bad input. Expected values are computed here
 * independently, straight from the ONNX definitions: per-output-element
 * sums with explicit index arithmetic, gathers where the kernels scatter,
 * a literal port of the ONNX reference's 1-D resize applied axis by axis,
 * statistics in double. Inputs are seeded pseudo-random. */
#define GE_HOST_CPU_IMPLEMENTATION /* its private ge__hc_*; the rest from libge.a */
#include "ge_engines/host_cpu.h"
#include "tests/test.h"
#include "tests/kernel_harness.h"

#include <stdlib.h>

/* ------------------------------------------------------------ helpers */


static void kt_int(kt *t, const char *name, int64_t v) { ge_node_set_attr_int(t->g, t->id, name, v, &t->err); }
static void kt_float(kt *t, const char *name, double v) { ge_node_set_attr_float(t->g, t->id, name, v, &t->err); }
static void kt_str(kt *t, const char *name, const char *v) { ge_node_set_attr_string(t->g, t->id, name, v, &t->err); }
static void kt_ints(kt *t, const char *name, const int64_t *v, int32_t n) {
  ge_node_set_attr_ints(t->g, t->id, name, v, n, &t->err);
}

/* Runs the node's kernel (free the outputs with kh_free). Each output
 * starts with a 1-byte buffer: kh_alloc_output leaves data NULL (and
 * reports running out of memory) for an empty result otherwise. */
static ge_status kt_run(kt *t, ge_value **in, uint32_t n_in, ge_value *out, uint32_t n_out) {
  ge_kernel_fn fn = ge_host_cpu_kernel(ge_graph_node(t->g, t->id));
  uint32_t i;
  memset(out, 0, n_out * sizeof *out);
  for (i = 0; i < n_out; i++) {
    out[i].data = calloc(1, 1);
    out[i].capacity = out[i].data ? 1 : 0;
  }
  memset(&t->err, 0, sizeof t->err);
  if (!fn) return GE_ERR_NOT_FOUND;
  return kh_run(fn, t->g, t->id, in, n_in, out, n_out, &t->err);
}

/* Runs the kernel and frees its outputs; returns the status. */
static ge_status kt_try(kt *t, ge_value **in, uint32_t n_in, uint32_t n_out) {
  ge_value out[8];
  uint32_t i;
  ge_status s = kt_run(t, in, n_in, out, n_out);
  for (i = 0; i < n_out; i++) kh_free(&out[i]);
  return s;
}


static uint64_t lcg(uint64_t *s) {
  *s = *s * 6364136223846793005ull + 1442695040888963407ull;
  return *s >> 33;
}

/* Uniform in [-1, 1), on a grid of 1/256 so float16 holds it exactly. */
static double rnd(uint64_t *s) { return (double)((int64_t)(lcg(s) % 512) - 256) / 256.0; }

/* A value of dtype and shape filled with rnd() (integers: small ints). */
static ge_value rand_value(ge_dtype t, int32_t rank, const int64_t *dims, uint64_t *s) {
  ge_value v = kh_value(t, rank, dims, NULL);
  int64_t i;
  for (i = 0; i < v.numel; i++) {
    if (ge__hc_is_float(t))
      ge__hc_set_f(&v, i, rnd(s));
    else if (t == GE_DTYPE_UINT8)
      ge__hc_set_i(&v, i, (int64_t)(lcg(s) % 256));
    else
      ge__hc_set_i(&v, i, (int64_t)(lcg(s) % 19) - 9);
  }
  return v;
}

static double val(const ge_value *v, int64_t i) { return ge__hc_get_f(v, i); }

/* Advances a row-major multi-index; 0 when it wraps. */
static int next_idx(int64_t *idx, int32_t r, const int64_t *dims) {
  int32_t d;
  for (d = r - 1; d >= 0; d--) {
    if (++idx[d] < dims[d]) return 1;
    idx[d] = 0;
  }
  return 0;
}

/* Flat row-major offset of idx in dims. */
static int64_t flat(const int64_t *idx, int32_t r, const int64_t *dims) {
  int64_t off = 0;
  int32_t d;
  for (d = 0; d < r; d++) off = off * dims[d] + idx[d];
  return off;
}

static int same_shape(const ge_value *v, int32_t rank, const int64_t *dims) {
  int32_t i;
  if (v->rank != rank) return 0;
  for (i = 0; i < rank; i++)
    if (v->dims[i] != dims[i]) return 0;
  return 1;
}

/* Counts elements of got differing from want[] beyond tol (relative to
 * max(1, |want|)); NaN matches NaN. */
static int64_t count_bad(const ge_value *got, const double *want, int64_t n, double tol) {
  int64_t i, bad = 0;
  if (got->numel != n) return n ? n : 1;
  for (i = 0; i < n; i++) {
    double a = val(got, i), b = want[i], m = fabs(b) > 1 ? fabs(b) : 1;
    if (a != a && b != b) continue;
    if (a == b) continue;
    if (!(fabs(a - b) <= tol * m)) bad++;
  }
  return bad;
}

static double tol_of(ge_dtype t) {
  return t == GE_DTYPE_FLOAT64 ? 1e-12 : t == GE_DTYPE_FLOAT16 ? 4e-3 : t == GE_DTYPE_BFLOAT16 ? 2e-2 : 1e-5;
}

static double *dalloc(int64_t n) { return (double *)calloc((size_t)(n ? n : 1), sizeof(double)); }

/* ------------------------------------------------------------- MatMul */

/* numpy matmul, computed per output element from the promoted shapes. */
static double *naive_matmul(const ge_value *a, const ge_value *b, int32_t *orank, int64_t *odims) {
  int64_t ad[GE_MAX_RANK], bd[GE_MAX_RANK], bat[GE_MAX_RANK], idx[GE_MAX_RANK], M, N, K, n;
  int32_t ar = a->rank, br = b->rank, r, i, k;
  double *y;
  /* promote 1-D operands */
  if (ar == 1) {
    ad[0] = 1;
    ad[1] = a->dims[0];
    ar = 2;
  } else
    memcpy(ad, a->dims, sizeof(int64_t) * (size_t)ar);
  if (br == 1) {
    bd[0] = b->dims[0];
    bd[1] = 1;
    br = 2;
  } else
    memcpy(bd, b->dims, sizeof(int64_t) * (size_t)br);
  M = ad[ar - 2];
  K = ad[ar - 1];
  N = bd[br - 1];
  r = (ar > br ? ar : br) - 2;
  for (i = 0; i < r; i++) {
    int32_t ia = i - (r - (ar - 2)), ib = i - (r - (br - 2));
    int64_t x = ia >= 0 ? ad[ia] : 1, z = ib >= 0 ? bd[ib] : 1;
    bat[i] = x == 1 ? z : x;
  }
  n = 1;
  for (i = 0; i < r; i++) n *= bat[i];
  y = dalloc(n * M * N);
  memset(idx, 0, sizeof idx);
  for (k = 0; k < n; k++) {
    int64_t aoff = 0, boff = 0, mi, ni, kk;
    for (i = 0; i < r; i++) {
      int32_t ia = i - (r - (ar - 2)), ib = i - (r - (br - 2));
      if (ia >= 0) aoff = aoff * ad[ia] + (ad[ia] == 1 ? 0 : idx[i]);
      if (ib >= 0) boff = boff * bd[ib] + (bd[ib] == 1 ? 0 : idx[i]);
    }
    for (mi = 0; mi < M; mi++)
      for (ni = 0; ni < N; ni++) {
        double s = 0;
        for (kk = 0; kk < K; kk++) s += val(a, (aoff * M + mi) * K + kk) * val(b, (boff * K + kk) * N + ni);
        y[(k * M + mi) * N + ni] = s;
      }
    next_idx(idx, r, bat);
  }
  *orank = 0;
  for (i = 0; i < r; i++) odims[(*orank)++] = bat[i];
  if (a->rank > 1) odims[(*orank)++] = M;
  if (b->rank > 1) odims[(*orank)++] = N;
  return y;
}

GE_TEST(test_matmul_shapes_and_dtypes) {
  static const int32_t ra[] = {2, 1, 1, 2, 3, 4, 3, 2, 4, 1, 2};
  static const int64_t da[][4] = {{3, 4},    {4},    {4},          {3, 4}, {2, 3, 4}, {2, 1, 3, 4},
                                  {1, 3, 4}, {5, 4}, {3, 1, 2, 3}, {3},    {0, 4}};
  static const int32_t rb[] = {2, 1, 2, 1, 3, 3, 3, 4, 2, 3, 2};
  static const int64_t db[][4] = {{4, 5},    {4},          {4, 2}, {4},       {2, 4, 5}, {5, 4, 2},
                                  {4, 4, 2}, {2, 3, 4, 1}, {3, 6}, {2, 3, 2}, {4, 3}};
  static const ge_dtype types[] = {GE_DTYPE_FLOAT32, GE_DTYPE_FLOAT64, GE_DTYPE_FLOAT16, GE_DTYPE_BFLOAT16,
                                   GE_DTYPE_INT32,   GE_DTYPE_INT64,   GE_DTYPE_UINT32,  GE_DTYPE_UINT64};
  uint64_t seed = 1;
  size_t c, t;
  for (t = 0; t < sizeof types / sizeof types[0]; t++)
    for (c = 0; c < sizeof ra / sizeof ra[0]; c++) {
      ge_dtype dt = types[t] == GE_DTYPE_UINT32 || types[t] == GE_DTYPE_UINT64 ? GE_DTYPE_UINT8 : types[t];
      ge_value a = rand_value(dt, ra[c], da[c], &seed), b = rand_value(dt, rb[c], db[c], &seed), y, *in[2];
      ge_value a2 = kh_value(types[t], a.rank, a.dims, NULL), b2 = kh_value(types[t], b.rank, b.dims, NULL);
      int64_t odims[GE_MAX_RANK], i;
      int32_t orank;
      double *want;
      kt k;
      for (i = 0; i < a.numel; i++) ge__hc_set_f(&a2, i, val(&a, i));
      for (i = 0; i < b.numel; i++) ge__hc_set_f(&b2, i, val(&b, i));
      want = naive_matmul(&a2, &b2, &orank, odims);
      in[0] = &a2;
      in[1] = &b2;
      GE_REQUIRE(kt_make(&k, "MatMul", 2, in, 1));
      if (!GE_CHECK_EQ_INT(kt_run(&k, in, 2, &y, 1), GE_OK)) printf("    %s\n", k.err.message);
      GE_CHECK_EQ_INT(y.dtype, types[t]);
      GE_CHECK(same_shape(&y, orank, odims));
      if (ge__hc_is_float(types[t])) {
        /* float16/bfloat16 results are rounded once from float */
        GE_CHECK_EQ_INT(count_bad(&y, want, y.numel, tol_of(types[t]) * 4), 0);
      } else {
        GE_CHECK_EQ_INT(count_bad(&y, want, y.numel, 0), 0); /* small values: exact */
      }
      free(want);
      kh_free(&y);
      kh_free(&a);
      kh_free(&b);
      kh_free(&a2);
      kh_free(&b2);
      kt_free(&k);
    }
}

/* int32 MatMul wraps like two's complement arithmetic (ONNX leaves
 * overflow to the implementation; wrapping is what C int32 hardware does). */
GE_TEST(test_matmul_int_exact) {
  int64_t d[2] = {1, 2}, e[2] = {2, 1}, big = 3037000499LL; /* big^2 < 2^63 */
  ge_value a = kh_value(GE_DTYPE_INT64, 2, d, NULL), b = kh_value(GE_DTYPE_INT64, 2, e, NULL), y, *in[2];
  kt k;
  ((int64_t *)a.data)[0] = big;
  ((int64_t *)a.data)[1] = -7;
  ((int64_t *)b.data)[0] = big;
  ((int64_t *)b.data)[1] = 3;
  in[0] = &a;
  in[1] = &b;
  GE_REQUIRE(kt_make(&k, "MatMul", 2, in, 1));
  GE_CHECK_EQ_INT(kt_run(&k, in, 2, &y, 1), GE_OK);
  GE_CHECK_EQ_INT(((int64_t *)y.data)[0], big * big - 21); /* exact beyond double precision */
  kh_free(&y);
  kt_free(&k);
  kh_free(&a);
  kh_free(&b);
}

GE_TEST(test_matmul_errors) {
  int64_t d34[2] = {3, 4}, d54[2] = {5, 4}, d234[3] = {2, 3, 4}, d345[3] = {3, 4, 5};
  ge_value a = kh_value(GE_DTYPE_FLOAT32, 2, d34, NULL), b = kh_value(GE_DTYPE_FLOAT32, 2, d54, NULL);
  ge_value c = kh_value(GE_DTYPE_FLOAT32, 3, d234, NULL), d = kh_value(GE_DTYPE_FLOAT32, 3, d345, NULL);
  ge_value s = kh_value(GE_DTYPE_FLOAT32, 0, d34, NULL), i64 = kh_value(GE_DTYPE_INT64, 2, d54, NULL);
  ge_value str = kh_value(GE_DTYPE_BOOL, 2, d34, NULL), *in[2];
  kt k;
  in[0] = &a;
  in[1] = &b; /* K 4 vs 5 */
  GE_REQUIRE(kt_make(&k, "MatMul", 2, in, 1));
  GE_CHECK_EQ_INT(kt_try(&k, in, 2, 1), GE_ERR_SHAPE);
  GE_CHECK(strstr(k.err.message, "'n'") != NULL);
  in[0] = &c;
  in[1] = &d; /* batch 2 vs 3 */
  GE_CHECK_EQ_INT(kt_try(&k, in, 2, 1), GE_ERR_SHAPE);
  in[0] = &s;
  in[1] = &a;
  GE_CHECK_EQ_INT(kt_try(&k, in, 2, 1), GE_ERR_SHAPE);
  in[0] = &a;
  in[1] = &i64;
  GE_CHECK_EQ_INT(kt_try(&k, in, 2, 1), GE_ERR_INVALID);
  in[0] = &str;
  in[1] = &str;
  GE_CHECK_EQ_INT(kt_try(&k, in, 2, 1), GE_ERR_UNSUPPORTED);
  in[1] = NULL;
  GE_CHECK_EQ_INT(kt_try(&k, in, 2, 1), GE_ERR_INVALID);
  kt_free(&k);
  kh_free(&a);
  kh_free(&b);
  kh_free(&c);
  kh_free(&d);
  kh_free(&s);
  kh_free(&i64);
  kh_free(&str);
}

GE_TEST(test_matmulinteger_zero_points) {
  int64_t da[3] = {2, 3, 4}, db[2] = {4, 5}, dza[1] = {3}, dzb[1] = {5}, one[1] = {1};
  uint64_t seed = 7;
  ge_value a = rand_value(GE_DTYPE_UINT8, 3, da, &seed), b = kh_value(GE_DTYPE_INT8, 2, db, NULL);
  ge_value za = rand_value(GE_DTYPE_UINT8, 1, dza, &seed), zb = kh_value(GE_DTYPE_INT8, 1, dzb, NULL);
  ge_value zs = kh_value(GE_DTYPE_UINT8, 0, one, NULL), y, *in[4];
  int64_t i, n, m, j, kk, bad = 0;
  kt k;
  for (i = 0; i < b.numel; i++) ((int8_t *)b.data)[i] = (int8_t)((int64_t)(lcg(&seed) % 256) - 128);
  for (i = 0; i < zb.numel; i++) ((int8_t *)zb.data)[i] = (int8_t)((int64_t)(lcg(&seed) % 256) - 128);
  ((uint8_t *)zs.data)[0] = 200;
  in[0] = &a;
  in[1] = &b;
  in[2] = &za; /* per row of A */
  in[3] = &zb; /* per column of B */
  GE_REQUIRE(kt_make(&k, "MatMulInteger", 4, in, 1));
  GE_CHECK_EQ_INT(kt_run(&k, in, 4, &y, 1), GE_OK);
  GE_CHECK_EQ_INT(y.dtype, GE_DTYPE_INT32);
  GE_CHECK_EQ_INT(y.numel, 2 * 3 * 5);
  for (n = 0; n < 2 && y.data; n++)
    for (m = 0; m < 3; m++)
      for (j = 0; j < 5; j++) {
        int64_t s = 0;
        for (kk = 0; kk < 4; kk++)
          s += ((int64_t)((uint8_t *)a.data)[(n * 3 + m) * 4 + kk] - ((uint8_t *)za.data)[m]) *
               ((int64_t)((int8_t *)b.data)[kk * 5 + j] - ((int8_t *)zb.data)[j]);
        bad += ((int32_t *)y.data)[(n * 3 + m) * 5 + j] != s;
      }
  GE_CHECK_EQ_INT(bad, 0);
  kh_free(&y);
  in[2] = &zs; /* scalar zero point, B's absent */
  in[3] = NULL;
  GE_CHECK_EQ_INT(kt_run(&k, in, 4, &y, 1), GE_OK);
  bad = 0;
  for (n = 0; n < 2 && y.data; n++)
    for (m = 0; m < 3; m++)
      for (j = 0; j < 5; j++) {
        int64_t s = 0;
        for (kk = 0; kk < 4; kk++)
          s += ((int64_t)((uint8_t *)a.data)[(n * 3 + m) * 4 + kk] - 200) * ((int8_t *)b.data)[kk * 5 + j];
        bad += ((int32_t *)y.data)[(n * 3 + m) * 5 + j] != s;
      }
  GE_CHECK_EQ_INT(bad, 0);
  kh_free(&y);
  in[2] = &zb; /* 5 values for 3 rows: no fit */
  GE_CHECK_EQ_INT(kt_try(&k, in, 4, 1), GE_ERR_SHAPE);
  kh_free(&y);
  in[0] = &y; /* int32 input: unsupported */
  y = kh_value(GE_DTYPE_INT32, 3, da, NULL);
  in[2] = NULL;
  GE_CHECK_EQ_INT(kt_try(&k, in, 4, 1), GE_ERR_UNSUPPORTED);
  kh_free(&y);
  kt_free(&k);
  kh_free(&a);
  kh_free(&b);
  kh_free(&za);
  kh_free(&zb);
  kh_free(&zs);
}

/* --------------------------------------------------------------- Gemm */

GE_TEST(test_gemm_attributes_and_bias_shapes) {
  static const int32_t cr[] = {-1, 0, 1, 2, 2, 2, 1};
  static const int64_t cd[][2] = {{0, 0}, {0, 0}, {5, 0}, {1, 5}, {3, 1}, {3, 5}, {1, 0}};
  static const ge_dtype types[] = {GE_DTYPE_FLOAT32, GE_DTYPE_FLOAT64, GE_DTYPE_FLOAT16, GE_DTYPE_INT32,
                                   GE_DTYPE_INT64};
  const int64_t M = 3, N = 5, K = 4;
  uint64_t seed = 3;
  size_t ci, t;
  int ta, tb, ab;
  for (t = 0; t < sizeof types / sizeof types[0]; t++)
    for (ci = 0; ci < sizeof cr / sizeof cr[0]; ci++)
      for (ta = 0; ta < 2; ta++)
        for (tb = 0; tb < 2; tb++)
          for (ab = 0; ab < 2; ab++) {
            int isint = !ge__hc_is_float(types[t]);
            double alpha = ab ? (isint ? 2.0 : 0.25) : 1.0, beta = ab ? (isint ? 3.0 : 0.35) : 1.0, want[15];
            int64_t adims[2], bdims[2], i, j, kk;
            ge_value a, b, c, y, *in[3];
            kt k;
            adims[0] = ta ? K : M;
            adims[1] = ta ? M : K;
            bdims[0] = tb ? N : K;
            bdims[1] = tb ? K : N;
            a = rand_value(types[t], 2, adims, &seed);
            b = rand_value(types[t], 2, bdims, &seed);
            c = rand_value(types[t], cr[ci] < 0 ? 0 : cr[ci], cd[ci], &seed);
            in[0] = &a;
            in[1] = &b;
            in[2] = cr[ci] < 0 ? NULL : &c;
            for (i = 0; i < M; i++)
              for (j = 0; j < N; j++) {
                double s = 0, cv = 0;
                for (kk = 0; kk < K; kk++)
                  s += val(&a, ta ? kk * M + i : i * K + kk) * val(&b, tb ? j * K + kk : kk * N + j);
                if (cr[ci] == 0) cv = val(&c, 0);
                if (cr[ci] == 1) cv = val(&c, c.dims[0] == 1 ? 0 : j);
                if (cr[ci] == 2) cv = val(&c, (c.dims[0] == 1 ? 0 : i) * c.dims[1] + (c.dims[1] == 1 ? 0 : j));
                want[i * N + j] = alpha * s + (cr[ci] < 0 ? 0 : beta * cv);
              }
            GE_REQUIRE(kt_make(&k, "Gemm", 3, in, 1));
            kt_int(&k, "transA", ta);
            kt_int(&k, "transB", tb);
            if (ab) {
              kt_float(&k, "alpha", alpha);
              kt_float(&k, "beta", beta);
            }
            GE_CHECK_EQ_INT(kt_run(&k, in, 3, &y, 1), GE_OK);
            GE_CHECK_EQ_INT(y.dtype, types[t]);
            GE_CHECK_EQ_INT(y.numel, M * N);
            GE_CHECK_EQ_INT(count_bad(&y, want, M * N, isint ? 0 : tol_of(types[t]) * 4), 0);
            kh_free(&y);
            kh_free(&a);
            kh_free(&b);
            kh_free(&c);
            kt_free(&k);
          }
}

GE_TEST(test_gemm_errors) {
  int64_t d34[2] = {3, 4}, d45[2] = {4, 5}, d35[2] = {3, 5}, d2[1] = {2}, d345[3] = {3, 4, 5};
  ge_value a = kh_value(GE_DTYPE_FLOAT32, 2, d34, NULL), b = kh_value(GE_DTYPE_FLOAT32, 2, d45, NULL);
  ge_value c2 = kh_value(GE_DTYPE_FLOAT32, 1, d2, NULL), a3 = kh_value(GE_DTYPE_FLOAT32, 3, d345, NULL);
  ge_value bad = kh_value(GE_DTYPE_FLOAT32, 2, d35, NULL), *in[3];
  kt k;
  in[0] = &a;
  in[1] = &b;
  in[2] = &c2; /* [2] does not broadcast to [3, 5] */
  GE_REQUIRE(kt_make(&k, "Gemm", 3, in, 1));
  GE_CHECK_EQ_INT(kt_try(&k, in, 3, 1), GE_ERR_SHAPE);
  in[2] = NULL;
  in[1] = &bad; /* K 4 vs 3 */
  GE_CHECK_EQ_INT(kt_try(&k, in, 3, 1), GE_ERR_SHAPE);
  in[0] = &a3;
  GE_CHECK_EQ_INT(kt_try(&k, in, 3, 1), GE_ERR_SHAPE);
  kt_free(&k);
  kh_free(&a);
  kh_free(&b);
  kh_free(&c2);
  kh_free(&a3);
  kh_free(&bad);
}

/* --------------------------------------------------------------- Conv */

typedef struct conv_case {
  int32_t r; /* spatial dims */
  int64_t n, c, m, group;
  int64_t in[3], k[3], s[3], d[3], pads[6];
  const char *auto_pad; /* NULL: NOTSET */
  int bias;
} conv_case;

/* Output sizes and leading pads of a Conv, from the ONNX formulas. */
static void conv_geometry(const conv_case *cc, int64_t *out, int64_t *pb) {
  int32_t i;
  for (i = 0; i < cc->r; i++) {
    int64_t eff = (cc->k[i] - 1) * cc->d[i] + 1, s = cc->s[i];
    if (!cc->auto_pad) {
      pb[i] = cc->pads[i];
      out[i] = (cc->in[i] + cc->pads[i] + cc->pads[cc->r + i] - eff) / s + 1;
    } else if (!strcmp(cc->auto_pad, "VALID")) {
      pb[i] = 0;
      out[i] = (cc->in[i] - eff + s) / s; /* ceil((in - eff + 1) / s) */
    } else {
      int64_t total;
      out[i] = (cc->in[i] + s - 1) / s;
      total = (out[i] - 1) * s + eff - cc->in[i];
      if (total < 0) total = 0;
      pb[i] = !strcmp(cc->auto_pad, "SAME_UPPER") ? total / 2 : (total + 1) / 2;
    }
  }
}

/* y[n, m, o] = b[m] + sum over the group's channels c and kernel offsets
 * k of x[n, c, o*s - pb + k*d] * w[m, c, k], out-of-range x being 0. */
static double *naive_conv(const conv_case *cc, const ge_value *x, const ge_value *w, const ge_value *b,
                          int64_t *ydims) {
  int64_t out[3], pb[3], oidx[5], kidx[3], xidx[5], wdims[5], n_out = 1, cg = cc->c / cc->group, mg = cc->m / cc->group;
  int32_t i, r = cc->r;
  double *y;
  conv_geometry(cc, out, pb);
  ydims[0] = cc->n;
  ydims[1] = cc->m;
  for (i = 0; i < r; i++) ydims[2 + i] = out[i];
  for (i = 0; i < r + 2; i++) n_out *= ydims[i];
  wdims[0] = cc->m;
  wdims[1] = cg;
  for (i = 0; i < r; i++) wdims[2 + i] = cc->k[i];
  y = dalloc(n_out);
  memset(oidx, 0, sizeof oidx);
  do {
    int64_t m = oidx[1], g = m / mg, c;
    double s = b ? val(b, m) : 0;
    for (c = 0; c < cg; c++) {
      memset(kidx, 0, sizeof kidx);
      do {
        int ok = 1;
        int64_t widx[5];
        xidx[0] = oidx[0];
        xidx[1] = g * cg + c;
        widx[0] = m;
        widx[1] = c;
        for (i = 0; i < r; i++) {
          xidx[2 + i] = oidx[2 + i] * cc->s[i] - pb[i] + kidx[i] * cc->d[i];
          if (xidx[2 + i] < 0 || xidx[2 + i] >= cc->in[i]) ok = 0;
          widx[2 + i] = kidx[i];
        }
        if (ok) s += val(x, flat(xidx, r + 2, x->dims)) * val(w, flat(widx, r + 2, wdims));
      } while (next_idx(kidx, r, cc->k));
    }
    y[flat(oidx, r + 2, ydims)] = s;
  } while (next_idx(oidx, r + 2, ydims));
  return y;
}

static void set_conv_attrs(kt *k, const conv_case *cc, int with_kernel_shape) {
  kt_ints(k, "strides", cc->s, cc->r);
  kt_ints(k, "dilations", cc->d, cc->r);
  kt_int(k, "group", cc->group);
  if (cc->auto_pad)
    kt_str(k, "auto_pad", cc->auto_pad);
  else
    kt_ints(k, "pads", cc->pads, 2 * cc->r);
  if (with_kernel_shape) kt_ints(k, "kernel_shape", cc->k, cc->r);
}

GE_TEST(test_conv_against_definition) {
  static const conv_case cases[] = {
      {2, 2, 4, 6, 2, {7, 6, 0}, {3, 2, 0}, {2, 1, 0}, {1, 2, 0}, {1, 0, 2, 1}, NULL, 1},
      {1, 1, 3, 2, 1, {11, 0, 0}, {3, 0, 0}, {3, 0, 0}, {2, 0, 0}, {2, 1}, NULL, 0},
      {3, 1, 2, 4, 2, {5, 4, 6}, {2, 3, 2}, {1, 2, 1}, {2, 1, 1}, {0, 1, 1, 1, 0, 1}, NULL, 1},
      {2, 1, 6, 6, 6, {8, 8, 0}, {3, 3, 0}, {2, 2, 0}, {1, 1, 0}, {0}, "SAME_UPPER", 1},
      {2, 1, 2, 3, 1, {7, 5, 0}, {4, 4, 0}, {2, 3, 0}, {1, 1, 0}, {0}, "SAME_LOWER", 0},
      {2, 1, 2, 3, 1, {7, 5, 0}, {4, 4, 0}, {2, 3, 0}, {1, 1, 0}, {0}, "SAME_UPPER", 0},
      {2, 2, 3, 2, 1, {9, 8, 0}, {2, 3, 0}, {3, 2, 0}, {1, 1, 0}, {0}, "VALID", 1},
      {2, 2, 5, 8, 1, {4, 3, 0}, {1, 1, 0}, {1, 1, 0}, {1, 1, 0}, {0, 0, 0, 0}, NULL, 1},
      {2, 1, 1, 2, 1, {2, 3, 0}, {3, 5, 0}, {1, 1, 0}, {1, 1, 0}, {1, 2, 0, 0}, NULL, 1},
      {1, 3, 4, 4, 4, {9, 0, 0}, {3, 0, 0}, {1, 0, 0}, {3, 0, 0}, {3, 3}, NULL, 1},
  };
  static const ge_dtype types[] = {GE_DTYPE_FLOAT32, GE_DTYPE_FLOAT64, GE_DTYPE_FLOAT16, GE_DTYPE_BFLOAT16};
  uint64_t seed = 11;
  size_t ci, t;
  for (ci = 0; ci < sizeof cases / sizeof cases[0]; ci++)
    for (t = 0; t < sizeof types / sizeof types[0]; t++) {
      const conv_case *cc = &cases[ci];
      int64_t xd[5], wd[5], bd[1], yd[5];
      ge_value x, w, b, y, *in[3];
      double *want;
      int32_t i;
      kt k;
      xd[0] = cc->n;
      xd[1] = cc->c;
      wd[0] = cc->m;
      wd[1] = cc->c / cc->group;
      bd[0] = cc->m;
      for (i = 0; i < cc->r; i++) {
        xd[2 + i] = cc->in[i];
        wd[2 + i] = cc->k[i];
      }
      x = rand_value(types[t], cc->r + 2, xd, &seed);
      w = rand_value(types[t], cc->r + 2, wd, &seed);
      b = rand_value(types[t], 1, bd, &seed);
      in[0] = &x;
      in[1] = &w;
      in[2] = cc->bias ? &b : NULL;
      want = naive_conv(cc, &x, &w, cc->bias ? &b : NULL, yd);
      GE_REQUIRE(kt_make(&k, "Conv", 3, in, 1));
      set_conv_attrs(&k, cc, ci % 2 == 0);
      GE_CHECK_EQ_INT(kt_run(&k, in, 3, &y, 1), GE_OK);
      if (!GE_CHECK(same_shape(&y, cc->r + 2, yd))) printf("    conv case %u\n", (unsigned)ci);
      GE_CHECK_EQ_INT(y.dtype, types[t]);
      if (GE_CHECK_EQ_INT(count_bad(&y, want, y.numel, tol_of(types[t]) * 8), 0) == 0)
        printf("    conv case %u dtype %s\n", (unsigned)ci, ge_dtype_name(types[t]));
      free(want);
      kh_free(&y);
      kh_free(&x);
      kh_free(&w);
      kh_free(&b);
      kt_free(&k);
    }
}

GE_TEST(test_conv_errors) {
  int64_t xd[4] = {1, 4, 5, 5}, wd[4] = {6, 2, 3, 3}, wbad[4] = {6, 3, 3, 3}, big[4] = {2, 4, 7, 7}, bd[1] = {5};
  int64_t ks[2] = {2, 2}, pads3[3] = {1, 1, 1}, x3[3] = {1, 4, 5};
  ge_value x = kh_value(GE_DTYPE_FLOAT32, 4, xd, NULL), w = kh_value(GE_DTYPE_FLOAT32, 4, wd, NULL);
  ge_value wb = kh_value(GE_DTYPE_FLOAT32, 4, wbad, NULL), wbig = kh_value(GE_DTYPE_FLOAT32, 4, big, NULL);
  ge_value b5 = kh_value(GE_DTYPE_FLOAT32, 1, bd, NULL), xi = kh_value(GE_DTYPE_INT32, 4, xd, NULL);
  ge_value wi = kh_value(GE_DTYPE_INT32, 4, wd, NULL), xr3 = kh_value(GE_DTYPE_FLOAT32, 3, x3, NULL), y, *in[3];
  kt k;
  in[0] = &x;
  in[1] = &w;
  in[2] = NULL;
  GE_REQUIRE(kt_make(&k, "Conv", 3, in, 1));
  kt_int(&k, "group", 2);
  GE_CHECK_EQ_INT(kt_run(&k, in, 3, &y, 1), GE_OK); /* 4 channels, 2 groups, 2 per group: fine */
  kh_free(&y);
  kt_int(&k, "group", 3); /* does not divide 4 */
  GE_CHECK_EQ_INT(kt_try(&k, in, 3, 1), GE_ERR_SHAPE);
  kt_int(&k, "group", 0);
  GE_CHECK_EQ_INT(kt_try(&k, in, 3, 1), GE_ERR_INVALID);
  kt_int(&k, "group", 1); /* weight has 2 channels, input 4 */
  GE_CHECK_EQ_INT(kt_try(&k, in, 3, 1), GE_ERR_SHAPE);
  kt_int(&k, "group", 2);
  in[1] = &wb; /* 3 channels per group: no */
  GE_CHECK_EQ_INT(kt_try(&k, in, 3, 1), GE_ERR_SHAPE);
  in[1] = &w;
  kt_ints(&k, "kernel_shape", ks, 2); /* weight says 3x3 */
  GE_CHECK_EQ_INT(kt_try(&k, in, 3, 1), GE_ERR_SHAPE);
  ge_node_remove_attr(k.g, k.id, "kernel_shape", &k.err);
  kt_ints(&k, "pads", pads3, 3); /* 2-D conv needs 4 pads */
  GE_CHECK_EQ_INT(kt_try(&k, in, 3, 1), GE_ERR_INVALID);
  ge_node_remove_attr(k.g, k.id, "pads", &k.err);
  in[2] = &b5; /* 6 output channels */
  GE_CHECK_EQ_INT(kt_try(&k, in, 3, 1), GE_ERR_SHAPE);
  in[2] = NULL;
  kt_int(&k, "group", 1);
  in[1] = &wbig; /* 7x7 kernel on a 5x5 input */
  GE_CHECK_EQ_INT(kt_try(&k, in, 3, 1), GE_ERR_SHAPE);
  kt_str(&k, "auto_pad", "SAME");
  GE_CHECK_EQ_INT(kt_try(&k, in, 3, 1), GE_ERR_INVALID);
  ge_node_remove_attr(k.g, k.id, "auto_pad", &k.err);
  in[0] = &xi;
  in[1] = &wi;
  GE_CHECK_EQ_INT(kt_try(&k, in, 3, 1), GE_ERR_UNSUPPORTED);
  in[0] = &xr3; /* rank 3 input, rank 4 weight */
  in[1] = &w;
  GE_CHECK_EQ_INT(kt_try(&k, in, 3, 1), GE_ERR_SHAPE);
  in[0] = &x;
  in[1] = NULL;
  GE_CHECK_EQ_INT(kt_try(&k, in, 3, 1), GE_ERR_INVALID);
  kh_free(&y);
  kt_free(&k);
  kh_free(&x);
  kh_free(&w);
  kh_free(&wb);
  kh_free(&wbig);
  kh_free(&b5);
  kh_free(&xi);
  kh_free(&wi);
  kh_free(&xr3);
}

/* ------------------------------------------------------ ConvTranspose */

typedef struct convt_case {
  int32_t r;
  int64_t n, c, m, group;
  int64_t in[3], k[3], s[3], d[3], pads[6], opad[3], oshape[3];
  int has_oshape;
  const char *auto_pad;
  int bias;
} convt_case;

static int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

/* Gather form of ConvTranspose: y[n, m, o] = b[m] + sum over the group's
 * input channels c and kernel offsets k with o + pb - k*d = i*s, i inside,
 * of x[n, c, i] * w[c, m mod M/group, k]. */
static double *naive_convt(const convt_case *cc, const ge_value *x, const ge_value *w, const ge_value *b,
                           int64_t *ydims) {
  int64_t out[3], pb[3], oidx[5], kidx[3], xidx[5], wdims[5], n_out = 1, cg = cc->c / cc->group, mg = cc->m / cc->group;
  int32_t i, r = cc->r;
  double *y;
  for (i = 0; i < r; i++) {
    int64_t eff = (cc->k[i] - 1) * cc->d[i] + 1;
    if (cc->has_oshape || cc->auto_pad) {
      int64_t total;
      out[i] = cc->has_oshape ? cc->oshape[i] : cc->in[i] * cc->s[i];
      total = cc->s[i] * (cc->in[i] - 1) + cc->opad[i] + eff - out[i];
      pb[i] = cc->auto_pad && !strcmp(cc->auto_pad, "SAME_UPPER") ? floor_div(total, 2) : total - floor_div(total, 2);
    } else {
      pb[i] = cc->pads[i];
      out[i] = cc->s[i] * (cc->in[i] - 1) + cc->opad[i] + eff - cc->pads[i] - cc->pads[r + i];
    }
  }
  ydims[0] = cc->n;
  ydims[1] = cc->m;
  for (i = 0; i < r; i++) ydims[2 + i] = out[i];
  for (i = 0; i < r + 2; i++) n_out *= ydims[i];
  wdims[0] = cc->c;
  wdims[1] = mg;
  for (i = 0; i < r; i++) wdims[2 + i] = cc->k[i];
  y = dalloc(n_out);
  memset(oidx, 0, sizeof oidx);
  do {
    int64_t m = oidx[1], g = m / mg, c;
    double s = b ? val(b, m) : 0;
    for (c = 0; c < cg; c++) {
      memset(kidx, 0, sizeof kidx);
      do {
        int ok = 1;
        int64_t widx[5];
        xidx[0] = oidx[0];
        xidx[1] = g * cg + c;
        widx[0] = g * cg + c;
        widx[1] = m - g * mg;
        for (i = 0; i < r; i++) {
          int64_t t = oidx[2 + i] + pb[i] - kidx[i] * cc->d[i];
          if (t < 0 || t % cc->s[i] || t / cc->s[i] >= cc->in[i]) ok = 0;
          xidx[2 + i] = t / cc->s[i];
          widx[2 + i] = kidx[i];
        }
        if (ok) s += val(x, flat(xidx, r + 2, x->dims)) * val(w, flat(widx, r + 2, wdims));
      } while (next_idx(kidx, r, cc->k));
    }
    y[flat(oidx, r + 2, ydims)] = s;
  } while (next_idx(oidx, r + 2, ydims));
  return y;
}

GE_TEST(test_convtranspose_against_definition) {
  static const convt_case cases[] = {
      {2, 2, 4, 6, 2, {3, 4, 0}, {3, 2, 0}, {2, 3, 0}, {1, 2, 0}, {1, 0, 0, 2}, {1, 2, 0}, {0}, 0, NULL, 1},
      {1, 1, 2, 3, 1, {5, 0, 0}, {4, 0, 0}, {3, 0, 0}, {1, 0, 0}, {0, 0}, {0}, {17, 0, 0}, 1, NULL, 0},
      {1, 1, 2, 3, 1, {5, 0, 0}, {4, 0, 0}, {3, 0, 0}, {1, 0, 0}, {0, 0}, {0}, {12, 0, 0}, 1, NULL, 1},
      {3, 1, 2, 2, 1, {2, 3, 2}, {2, 2, 3}, {2, 1, 2}, {1, 2, 1}, {0, 0, 0, 0, 0, 0}, {0, 0, 0}, {0}, 0, NULL, 1},
      {2, 1, 1, 2, 1, {3, 3, 0}, {3, 3, 0}, {2, 2, 0}, {1, 1, 0}, {0}, {0, 0, 0}, {0}, 0, "SAME_UPPER", 0},
      {2, 1, 1, 2, 1, {3, 3, 0}, {3, 3, 0}, {2, 2, 0}, {1, 1, 0}, {0}, {0, 0, 0}, {0}, 0, "SAME_LOWER", 0},
      {2, 1, 2, 2, 2, {3, 3, 0}, {3, 3, 0}, {3, 2, 0}, {1, 1, 0}, {0}, {1, 1, 0}, {10, 8, 0}, 1, "SAME_UPPER", 1},
      {2, 2, 3, 3, 3, {4, 5, 0}, {3, 3, 0}, {1, 1, 0}, {2, 1, 0}, {2, 1, 2, 1}, {0, 0, 0}, {0}, 0, NULL, 1},
  };
  uint64_t seed = 13;
  size_t ci;
  for (ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
    const convt_case *cc = &cases[ci];
    int64_t xd[5], wd[5], bd[1], yd[5];
    ge_value x, w, b, y, *in[3];
    double *want;
    int32_t i;
    kt k;
    xd[0] = cc->n;
    xd[1] = cc->c;
    wd[0] = cc->c;
    wd[1] = cc->m / cc->group;
    bd[0] = cc->m;
    for (i = 0; i < cc->r; i++) {
      xd[2 + i] = cc->in[i];
      wd[2 + i] = cc->k[i];
    }
    x = rand_value(GE_DTYPE_FLOAT32, cc->r + 2, xd, &seed);
    w = rand_value(GE_DTYPE_FLOAT32, cc->r + 2, wd, &seed);
    b = rand_value(GE_DTYPE_FLOAT32, 1, bd, &seed);
    in[0] = &x;
    in[1] = &w;
    in[2] = cc->bias ? &b : NULL;
    want = naive_convt(cc, &x, &w, cc->bias ? &b : NULL, yd);
    GE_REQUIRE(kt_make(&k, "ConvTranspose", 3, in, 1));
    kt_ints(&k, "strides", cc->s, cc->r);
    kt_ints(&k, "dilations", cc->d, cc->r);
    kt_int(&k, "group", cc->group);
    kt_ints(&k, "output_padding", cc->opad, cc->r);
    if (cc->auto_pad) kt_str(&k, "auto_pad", cc->auto_pad);
    if (!cc->auto_pad && !cc->has_oshape) kt_ints(&k, "pads", cc->pads, 2 * cc->r);
    if (cc->has_oshape) kt_ints(&k, "output_shape", cc->oshape, cc->r);
    GE_CHECK_EQ_INT(kt_run(&k, in, 3, &y, 1), GE_OK);
    if (!GE_CHECK(same_shape(&y, cc->r + 2, yd))) printf("    convtranspose case %u\n", (unsigned)ci);
    if (GE_CHECK_EQ_INT(count_bad(&y, want, y.numel, 1e-5), 0) == 0)
      printf("    convtranspose case %u\n", (unsigned)ci);
    free(want);
    kh_free(&y);
    kh_free(&x);
    kh_free(&w);
    kh_free(&b);
    kt_free(&k);
  }
}

GE_TEST(test_convtranspose_errors) {
  int64_t xd[4] = {1, 4, 3, 3}, wd[4] = {3, 2, 3, 3}, os[3] = {1, 2, 3};
  ge_value x = kh_value(GE_DTYPE_FLOAT32, 4, xd, NULL), w = kh_value(GE_DTYPE_FLOAT32, 4, wd, NULL), y, *in[2];
  kt k;
  in[0] = &x;
  in[1] = &w; /* weight for 3 input channels, input has 4 */
  GE_REQUIRE(kt_make(&k, "ConvTranspose", 2, in, 1));
  GE_CHECK_EQ_INT(kt_try(&k, in, 2, 1), GE_ERR_SHAPE);
  xd[1] = 3;
  kh_free(&x);
  x = kh_value(GE_DTYPE_FLOAT32, 4, xd, NULL);
  kt_ints(&k, "output_shape", os, 3);
  GE_CHECK_EQ_INT(kt_try(&k, in, 2, 1), GE_ERR_INVALID);
  os[0] = 0;
  kt_ints(&k, "output_shape", os, 2); /* an empty output */
  GE_CHECK_EQ_INT(kt_try(&k, in, 2, 1), GE_ERR_SHAPE);
  ge_node_remove_attr(k.g, k.id, "output_shape", &k.err);
  GE_CHECK_EQ_INT(kt_run(&k, in, 2, &y, 1), GE_OK);
  kh_free(&y);
  kt_free(&k);
  kh_free(&x);
  kh_free(&w);
}

GE_TEST(test_convinteger_zero_points) {
  int64_t xd[4] = {1, 2, 5, 4}, wd[4] = {3, 2, 2, 3}, zd[1] = {3}, one[1] = {1}, pads[4] = {1, 0, 1, 2};
  int64_t oh = (5 + 2 - 2) / 1 + 1, ow = (4 + 2 - 3) / 1 + 1, m, c, oy, ox, ky, kx, bad = 0;
  uint64_t seed = 5;
  ge_value x = rand_value(GE_DTYPE_UINT8, 4, xd, &seed), w = kh_value(GE_DTYPE_INT8, 4, wd, NULL);
  ge_value xz = kh_value(GE_DTYPE_UINT8, 0, one, NULL), wz = kh_value(GE_DTYPE_INT8, 1, zd, NULL), y, *in[4];
  int64_t i;
  kt k;
  for (i = 0; i < w.numel; i++) ((int8_t *)w.data)[i] = (int8_t)((int64_t)(lcg(&seed) % 256) - 128);
  for (i = 0; i < 3; i++) ((int8_t *)wz.data)[i] = (int8_t)(i * 5 - 4);
  ((uint8_t *)xz.data)[0] = 100;
  in[0] = &x;
  in[1] = &w;
  in[2] = &xz;
  in[3] = &wz;
  GE_REQUIRE(kt_make(&k, "ConvInteger", 4, in, 1));
  kt_ints(&k, "pads", pads, 4);
  GE_CHECK_EQ_INT(kt_run(&k, in, 4, &y, 1), GE_OK);
  GE_CHECK_EQ_INT(y.dtype, GE_DTYPE_INT32);
  GE_CHECK_EQ_INT(y.numel, 3 * oh * ow);
  for (m = 0; m < 3 && y.numel == 3 * oh * ow; m++)
    for (oy = 0; oy < oh; oy++)
      for (ox = 0; ox < ow; ox++) {
        int64_t s = 0;
        for (c = 0; c < 2; c++)
          for (ky = 0; ky < 2; ky++)
            for (kx = 0; kx < 3; kx++) {
              int64_t iy = oy - 1 + ky, ix = ox - 0 + kx;
              if (iy < 0 || iy >= 5 || ix < 0 || ix >= 4) continue; /* padding is zero after the shift */
              s += ((int64_t)((uint8_t *)x.data)[(c * 5 + iy) * 4 + ix] - 100) *
                   ((int64_t)((int8_t *)w.data)[((m * 2 + c) * 2 + ky) * 3 + kx] - ((int8_t *)wz.data)[m]);
            }
        bad += ((int32_t *)y.data)[(m * oh + oy) * ow + ox] != s;
      }
  GE_CHECK_EQ_INT(bad, 0);
  kh_free(&y);
  kt_free(&k);
  kh_free(&x);
  kh_free(&w);
  kh_free(&xz);
  kh_free(&wz);
}

/* ------------------------------------------------------------- pooling */

typedef struct pool_case {
  int32_t r;
  int64_t n, c, in[3], k[3], s[3], d[3], pads[6];
  const char *auto_pad;
  int ceil_mode;
} pool_case;

/* Output sizes and pads of a pool (ceil_mode: no window may start in the
 * end padding, as in PyTorch and ONNX opset 19). */
static void pool_geometry(const pool_case *pc, int64_t *out, int64_t *pb, int64_t *pe) {
  int32_t i;
  for (i = 0; i < pc->r; i++) {
    int64_t eff = (pc->k[i] - 1) * pc->d[i] + 1, s = pc->s[i];
    if (!pc->auto_pad) {
      int64_t num = pc->in[i] + pc->pads[i] + pc->pads[pc->r + i] - eff;
      pb[i] = pc->pads[i];
      pe[i] = pc->pads[pc->r + i];
      out[i] = (pc->ceil_mode ? (num + s - 1) / s : num / s) + 1;
      if (pc->ceil_mode && (out[i] - 1) * s >= pc->in[i] + pb[i]) out[i]--;
    } else if (!strcmp(pc->auto_pad, "VALID")) {
      pb[i] = pe[i] = 0;
      out[i] = (pc->in[i] - eff + s) / s;
    } else {
      int64_t total;
      out[i] = (pc->in[i] + s - 1) / s;
      total = (out[i] - 1) * s + eff - pc->in[i];
      if (total < 0) total = 0;
      pb[i] = !strcmp(pc->auto_pad, "SAME_UPPER") ? total / 2 : (total + 1) / 2;
      pe[i] = total - pb[i];
    }
  }
}

/* op 0 max (idx gets row-major and column-major argmax), 1 average
 * (include_pad), 2 Lp with p. */
static double *naive_pool(const pool_case *pc, const ge_value *x, int op, int include_pad, double p, int64_t *ydims,
                          int64_t *idx_row, int64_t *idx_col) {
  int64_t out[3], pb[3], pe[3], oidx[5], j[3], n_out = 1, plane = 1;
  int32_t i, r = pc->r;
  double *y;
  pool_geometry(pc, out, pb, pe);
  ydims[0] = pc->n;
  ydims[1] = pc->c;
  for (i = 0; i < r; i++) {
    ydims[2 + i] = out[i];
    plane *= pc->in[i];
  }
  for (i = 0; i < r + 2; i++) n_out *= ydims[i];
  y = dalloc(n_out);
  memset(oidx, 0, sizeof oidx);
  do {
    double acc = op == 0 ? -HUGE_VAL : 0;
    int64_t cnt = 0, padded = 0, best_r = -1, best_c = -1, yo = flat(oidx, r + 2, ydims);
    memset(j, 0, sizeof j);
    do {
      int inside = 1, inpad = 1;
      int64_t xi[5], cs = 1, coff = 0;
      xi[0] = oidx[0];
      xi[1] = oidx[1];
      for (i = 0; i < r; i++) {
        int64_t pos = oidx[2 + i] * pc->s[i] - pb[i] + j[i] * pc->d[i];
        if (pos < 0 || pos >= pc->in[i]) inside = 0;
        if (pos < -pb[i] || pos >= pc->in[i] + pe[i]) inpad = 0;
        xi[2 + i] = pos;
        coff += pos * cs;
        cs *= pc->in[i];
      }
      padded += inpad;
      if (inside) {
        double v = val(x, flat(xi, r + 2, x->dims));
        cnt++;
        if (op == 0 && (best_r < 0 || v > acc)) {
          acc = v;
          best_r = flat(xi, r + 2, x->dims);
          best_c = (oidx[0] * pc->c + oidx[1]) * plane + coff;
        }
        if (op == 1) acc += v;
        if (op == 2) acc += pow(fabs(v), p);
      }
    } while (next_idx(j, r, pc->k));
    if (op == 1) acc /= (double)(include_pad ? padded : cnt);
    if (op == 2) acc = pow(acc, 1 / p);
    y[yo] = acc;
    if (idx_row) idx_row[yo] = best_r;
    if (idx_col) idx_col[yo] = best_c;
  } while (next_idx(oidx, r + 2, ydims));
  return y;
}

static const pool_case pool_cases[] = {
    {2, 2, 3, {7, 6, 0}, {3, 2, 0}, {2, 2, 0}, {1, 2, 0}, {1, 0, 1, 1}, NULL, 1},
    {1, 1, 2, {5, 0, 0}, {2, 0, 0}, {2, 0, 0}, {1, 0, 0}, {1, 1}, NULL, 1}, /* the ceil correction */
    {1, 1, 2, {10, 0, 0}, {3, 0, 0}, {3, 0, 0}, {1, 0, 0}, {1, 1}, NULL, 1},
    {3, 1, 2, {4, 5, 3}, {2, 2, 2}, {2, 1, 2}, {1, 1, 1}, {0, 0, 0, 0, 0, 0}, NULL, 0},
    {2, 1, 1, {5, 5, 0}, {3, 3, 0}, {2, 2, 0}, {1, 1, 0}, {0}, "SAME_UPPER", 0},
    {2, 1, 2, {6, 7, 0}, {2, 2, 0}, {2, 2, 0}, {1, 1, 0}, {0}, "SAME_LOWER", 0},
    {2, 1, 1, {6, 7, 0}, {3, 3, 0}, {2, 2, 0}, {1, 1, 0}, {0}, "VALID", 0},
    {2, 1, 1, {4, 4, 0}, {3, 3, 0}, {2, 2, 0}, {1, 1, 0}, {0, 0, 0, 0}, NULL, 1},
    {2, 1, 1, {5, 5, 0}, {5, 5, 0}, {1, 1, 0}, {1, 1, 0}, {2, 2, 2, 2}, NULL, 0},
};

static void set_pool_attrs(kt *k, const pool_case *pc) {
  kt_ints(k, "kernel_shape", pc->k, pc->r);
  kt_ints(k, "strides", pc->s, pc->r);
  kt_ints(k, "dilations", pc->d, pc->r);
  if (pc->auto_pad)
    kt_str(k, "auto_pad", pc->auto_pad);
  else
    kt_ints(k, "pads", pc->pads, 2 * pc->r);
  kt_int(k, "ceil_mode", pc->ceil_mode);
}

GE_TEST(test_maxpool_with_indices) {
  static const ge_dtype types[] = {GE_DTYPE_FLOAT32, GE_DTYPE_FLOAT16, GE_DTYPE_FLOAT64, GE_DTYPE_UINT8, GE_DTYPE_INT8};
  uint64_t seed = 17;
  size_t ci, t;
  int order;
  for (ci = 0; ci < sizeof pool_cases / sizeof pool_cases[0]; ci++)
    for (t = 0; t < sizeof types / sizeof types[0]; t++)
      for (order = 0; order < 2; order++) {
        const pool_case *pc = &pool_cases[ci];
        int64_t xd[5], yd[5], *ir, *ic, i, bad = 0;
        ge_value x, y[2], *in[1];
        double *want;
        int32_t d;
        kt k;
        xd[0] = pc->n;
        xd[1] = pc->c;
        for (d = 0; d < pc->r; d++) xd[2 + d] = pc->in[d];
        x = rand_value(types[t], pc->r + 2, xd, &seed);
        in[0] = &x;
        ir = (int64_t *)calloc(512, sizeof(int64_t));
        ic = (int64_t *)calloc(512, sizeof(int64_t));
        want = naive_pool(pc, &x, 0, 0, 0, yd, ir, ic);
        GE_REQUIRE(kt_make(&k, "MaxPool", 1, in, 2));
        set_pool_attrs(&k, pc);
        kt_int(&k, "storage_order", order);
        GE_CHECK_EQ_INT(kt_run(&k, in, 1, y, 2), GE_OK);
        if (!GE_CHECK(same_shape(&y[0], pc->r + 2, yd))) printf("    maxpool case %u\n", (unsigned)ci);
        GE_CHECK(same_shape(&y[1], pc->r + 2, yd));
        GE_CHECK_EQ_INT(y[0].dtype, types[t]);
        GE_CHECK_EQ_INT(y[1].dtype, GE_DTYPE_INT64);
        GE_CHECK_EQ_INT(count_bad(&y[0], want, y[0].numel, 0), 0);
        for (i = 0; i < y[1].numel && y[1].numel == y[0].numel; i++) {
          /* ties (small integer inputs) may pick any maximal element */
          int64_t got = ((int64_t *)y[1].data)[i], w = order ? ic[i] : ir[i];
          if (got != w && (types[t] == GE_DTYPE_FLOAT32 || types[t] == GE_DTYPE_FLOAT64)) bad++;
        }
        if (GE_CHECK_EQ_INT(bad, 0) == 0) printf("    maxpool indices case %u order %d\n", (unsigned)ci, order);
        free(want);
        free(ir);
        free(ic);
        kh_free(&y[0]);
        kh_free(&y[1]);
        kh_free(&x);
        kt_free(&k);
      }
}

GE_TEST(test_average_and_lp_pool) {
  static const ge_dtype types[] = {GE_DTYPE_FLOAT32, GE_DTYPE_FLOAT64, GE_DTYPE_FLOAT16};
  uint64_t seed = 19;
  size_t ci, t;
  int mode;
  for (ci = 0; ci < sizeof pool_cases / sizeof pool_cases[0]; ci++)
    for (t = 0; t < sizeof types / sizeof types[0]; t++)
      for (mode = 0; mode < 3; mode++) { /* average, average counting pads, Lp */
        const pool_case *pc = &pool_cases[ci];
        int64_t xd[5], yd[5];
        ge_value x, y, *in[1];
        double *want;
        int32_t d;
        kt k;
        xd[0] = pc->n;
        xd[1] = pc->c;
        for (d = 0; d < pc->r; d++) xd[2 + d] = pc->in[d];
        x = rand_value(types[t], pc->r + 2, xd, &seed);
        in[0] = &x;
        want = naive_pool(pc, &x, mode == 2 ? 2 : 1, mode == 1, 3.0, yd, NULL, NULL);
        GE_REQUIRE(kt_make(&k, mode == 2 ? "LpPool" : "AveragePool", 1, in, 1));
        set_pool_attrs(&k, pc);
        if (mode == 1) kt_int(&k, "count_include_pad", 1);
        if (mode == 2) kt_int(&k, "p", 3);
        GE_CHECK_EQ_INT(kt_run(&k, in, 1, &y, 1), GE_OK);
        GE_CHECK(same_shape(&y, pc->r + 2, yd));
        if (GE_CHECK_EQ_INT(count_bad(&y, want, y.numel, tol_of(types[t]) * 2), 0) == 0)
          printf("    pool case %u mode %d %s\n", (unsigned)ci, mode, ge_dtype_name(types[t]));
        free(want);
        kh_free(&y);
        kh_free(&x);
        kt_free(&k);
      }
}

GE_TEST(test_global_pools) {
  static const char *ops[] = {"GlobalMaxPool", "GlobalAveragePool", "GlobalLpPool"};
  int64_t xd[5] = {2, 3, 4, 5, 2}, n, c, i;
  uint64_t seed = 23;
  int o;
  int32_t rank;
  for (rank = 3; rank <= 5; rank++)
    for (o = 0; o < 3; o++) {
      ge_value x = rand_value(GE_DTYPE_FLOAT32, rank, xd, &seed), y, *in[1];
      int64_t inner = x.numel / 6, yd[5] = {2, 3, 1, 1, 1};
      double want[6];
      kt k;
      for (n = 0; n < 2; n++)
        for (c = 0; c < 3; c++) {
          double acc = o == 0 ? -HUGE_VAL : 0;
          for (i = 0; i < inner; i++) {
            double v = val(&x, (n * 3 + c) * inner + i);
            if (o == 0 && v > acc) acc = v;
            if (o == 1) acc += v / (double)inner;
            if (o == 2) acc += v * v;
          }
          want[n * 3 + c] = o == 2 ? sqrt(acc) : acc;
        }
      in[0] = &x;
      GE_REQUIRE(kt_make(&k, ops[o], 1, in, 1));
      GE_CHECK_EQ_INT(kt_run(&k, in, 1, &y, 1), GE_OK);
      GE_CHECK(same_shape(&y, rank, yd));
      GE_CHECK_EQ_INT(count_bad(&y, want, 6, 1e-5), 0);
      kh_free(&y);
      kh_free(&x);
      kt_free(&k);
    }
}

GE_TEST(test_pool_errors) {
  int64_t xd[4] = {1, 1, 4, 4}, ks[2] = {5, 5}, k3[3] = {2, 2, 2}, neg[4] = {-1, 0, 0, 0}, d2[2] = {2, 2};
  ge_value x = kh_value(GE_DTYPE_FLOAT32, 4, xd, NULL), xi = kh_value(GE_DTYPE_INT32, 4, xd, NULL);
  ge_value x2 = kh_value(GE_DTYPE_FLOAT32, 2, xd, NULL), *in[1];
  kt k;
  in[0] = &x;
  GE_REQUIRE(kt_make(&k, "MaxPool", 1, in, 1));
  GE_CHECK_EQ_INT(kt_try(&k, in, 1, 1), GE_ERR_INVALID); /* no kernel_shape */
  kt_ints(&k, "kernel_shape", ks, 2);                    /* larger than the input */
  GE_CHECK_EQ_INT(kt_try(&k, in, 1, 1), GE_ERR_SHAPE);
  kt_ints(&k, "kernel_shape", k3, 3);
  GE_CHECK_EQ_INT(kt_try(&k, in, 1, 1), GE_ERR_INVALID);
  kt_ints(&k, "kernel_shape", d2, 2);
  kt_ints(&k, "pads", neg, 4);
  GE_CHECK_EQ_INT(kt_try(&k, in, 1, 1), GE_ERR_INVALID);
  ge_node_remove_attr(k.g, k.id, "pads", &k.err);
  kt_ints(&k, "strides", neg, 2);
  GE_CHECK_EQ_INT(kt_try(&k, in, 1, 1), GE_ERR_INVALID);
  ge_node_remove_attr(k.g, k.id, "strides", &k.err);
  GE_CHECK_EQ_INT(kt_try(&k, in, 1, 1), GE_OK);
  in[0] = &x2;
  GE_CHECK_EQ_INT(kt_try(&k, in, 1, 1), GE_ERR_SHAPE);
  kt_free(&k);
  in[0] = &xi;
  GE_REQUIRE(kt_make(&k, "AveragePool", 1, in, 1));
  kt_ints(&k, "kernel_shape", d2, 2);
  GE_CHECK_EQ_INT(kt_try(&k, in, 1, 1), GE_ERR_UNSUPPORTED);
  kt_free(&k);
  GE_REQUIRE(kt_make(&k, "GlobalAveragePool", 1, in, 1));
  GE_CHECK_EQ_INT(kt_try(&k, in, 1, 1), GE_ERR_UNSUPPORTED);
  kt_free(&k);
  kh_free(&x);
  kh_free(&xi);
  kh_free(&x2);
}

/* ------------------------------------------------------- normalization */

GE_TEST(test_batchnorm_inference_and_training) {
  int64_t xd[4] = {3, 4, 2, 5}, cd[1] = {4}, n, c, i, inner = 10;
  uint64_t seed = 29;
  int training;
  for (training = 0; training < 2; training++) {
    ge_value x = rand_value(GE_DTYPE_FLOAT32, 4, xd, &seed), s = rand_value(GE_DTYPE_FLOAT32, 1, cd, &seed);
    ge_value b = rand_value(GE_DTYPE_FLOAT32, 1, cd, &seed), m = rand_value(GE_DTYPE_FLOAT64, 1, cd, &seed);
    ge_value v = rand_value(GE_DTYPE_FLOAT64, 1, cd, &seed), y[3], *in[5];
    double want[120], rm[4], rv[4], eps = 0.01, mom = 0.8;
    kt k;
    for (c = 0; c < 4; c++) ((double *)v.data)[c] = fabs(((double *)v.data)[c]) + 0.1;
    for (c = 0; c < 4; c++) {
      double mean = val(&m, c), var = val(&v, c);
      if (training) {
        double sum = 0, sq = 0;
        for (n = 0; n < 3; n++)
          for (i = 0; i < inner; i++) sum += val(&x, (n * 4 + c) * inner + i);
        mean = sum / 30;
        for (n = 0; n < 3; n++)
          for (i = 0; i < inner; i++) sq += pow(val(&x, (n * 4 + c) * inner + i) - mean, 2);
        var = sq / 30;
        rm[c] = val(&m, c) * mom + mean * (1 - mom);
        rv[c] = val(&v, c) * mom + var * (1 - mom);
      }
      for (n = 0; n < 3; n++)
        for (i = 0; i < inner; i++) {
          int64_t at = (n * 4 + c) * inner + i;
          want[at] = (val(&x, at) - mean) / sqrt(var + eps) * val(&s, c) + val(&b, c);
        }
    }
    in[0] = &x;
    in[1] = &s;
    in[2] = &b;
    in[3] = &m;
    in[4] = &v;
    GE_REQUIRE(kt_make(&k, "BatchNormalization", 5, in, training ? 3 : 1));
    kt_float(&k, "epsilon", eps);
    kt_float(&k, "momentum", mom);
    kt_int(&k, "training_mode", training);
    GE_CHECK_EQ_INT(kt_run(&k, in, 5, y, training ? 3 : 1), GE_OK);
    GE_CHECK(same_shape(&y[0], 4, xd));
    GE_CHECK_EQ_INT(count_bad(&y[0], want, 120, 1e-5), 0);
    if (training) {
      GE_CHECK_EQ_INT(y[1].dtype, GE_DTYPE_FLOAT64);
      GE_CHECK_EQ_INT(count_bad(&y[1], rm, 4, 1e-12), 0);
      GE_CHECK_EQ_INT(count_bad(&y[2], rv, 4, 1e-12), 0);
      kh_free(&y[1]);
      kh_free(&y[2]);
    }
    kh_free(&y[0]);
    in[1] = &m; /* wrong dtype mix is fine (all float); a wrong size is not */
    xd[1] = 5;
    kh_free(&x);
    x = kh_value(GE_DTYPE_FLOAT32, 4, xd, NULL);
    GE_CHECK_EQ_INT(kt_try(&k, in, 5, 1), GE_ERR_SHAPE);
    xd[1] = 4;
    kt_free(&k);
    kh_free(&x);
    kh_free(&s);
    kh_free(&b);
    kh_free(&m);
    kh_free(&v);
  }
}

GE_TEST(test_instance_norm) {
  int64_t xd[4] = {2, 3, 4, 3}, cd[1] = {3}, pl, i;
  uint64_t seed = 31;
  ge_value x = rand_value(GE_DTYPE_FLOAT32, 4, xd, &seed), s = rand_value(GE_DTYPE_FLOAT32, 1, cd, &seed);
  ge_value b = rand_value(GE_DTYPE_FLOAT32, 1, cd, &seed), y, *in[3];
  double want[72];
  kt k;
  for (pl = 0; pl < 6; pl++) {
    double mean = 0, var = 0;
    for (i = 0; i < 12; i++) mean += val(&x, pl * 12 + i) / 12;
    for (i = 0; i < 12; i++) var += pow(val(&x, pl * 12 + i) - mean, 2) / 12;
    for (i = 0; i < 12; i++)
      want[pl * 12 + i] = (val(&x, pl * 12 + i) - mean) / sqrt(var + 1e-5) * val(&s, pl % 3) + val(&b, pl % 3);
  }
  in[0] = &x;
  in[1] = &s;
  in[2] = &b;
  GE_REQUIRE(kt_make(&k, "InstanceNormalization", 3, in, 1));
  GE_CHECK_EQ_INT(kt_run(&k, in, 3, &y, 1), GE_OK);
  GE_CHECK_EQ_INT(count_bad(&y, want, 72, 1e-5), 0);
  kh_free(&y);
  in[1] = &x;
  GE_CHECK_EQ_INT(kt_try(&k, in, 3, 1), GE_ERR_SHAPE);
  kt_free(&k);
  kh_free(&x);
  kh_free(&s);
  kh_free(&b);
}

GE_TEST(test_layer_norm_axes_and_stats) {
  int64_t xd[3] = {2, 3, 4};
  uint64_t seed = 37;
  int32_t axis;
  int with_bias;
  for (axis = -3; axis < 3; axis++)
    for (with_bias = 0; with_bias < 2; with_bias++) {
      int32_t a = axis < 0 ? axis + 3 : axis;
      int64_t outer = 1, inner = 1, o, i, sdims[3];
      ge_value x = rand_value(GE_DTYPE_FLOAT32, 3, xd, &seed), s, b, y[3], *in[3];
      double want[24], wm[24], wi[24];
      kt k;
      for (i = 0; i < 3; i++) {
        if (i < a)
          outer *= xd[i];
        else
          inner *= xd[i];
      }
      /* scale of the normalized shape; bias broadcast from its last dim only */
      s = rand_value(GE_DTYPE_FLOAT32, 3 - a, xd + a, &seed);
      b = rand_value(GE_DTYPE_FLOAT32, 1, xd + 2, &seed);
      for (o = 0; o < outer; o++) {
        double mean = 0, var = 0;
        for (i = 0; i < inner; i++) mean += val(&x, o * inner + i) / (double)inner;
        for (i = 0; i < inner; i++) var += pow(val(&x, o * inner + i) - mean, 2) / (double)inner;
        for (i = 0; i < inner; i++)
          want[o * inner + i] = (val(&x, o * inner + i) - mean) / sqrt(var + 1e-3) * val(&s, i) +
                                (with_bias ? val(&b, (o * inner + i) % 4) : 0);
        wm[o] = mean;
        wi[o] = 1 / sqrt(var + 1e-3);
      }
      in[0] = &x;
      in[1] = &s;
      in[2] = with_bias ? &b : NULL;
      GE_REQUIRE(kt_make(&k, "LayerNormalization", 3, in, 3));
      kt_int(&k, "axis", axis);
      kt_float(&k, "epsilon", 1e-3);
      GE_CHECK_EQ_INT(kt_run(&k, in, 3, y, 3), GE_OK);
      GE_CHECK(same_shape(&y[0], 3, xd));
      GE_CHECK_EQ_INT(count_bad(&y[0], want, 24, 1e-5), 0);
      GE_CHECK_EQ_INT(y[1].dtype, GE_DTYPE_FLOAT32);
      for (i = 0; i < 3; i++) sdims[i] = i < a ? xd[i] : 1;
      GE_CHECK(same_shape(&y[1], 3, sdims) && same_shape(&y[2], 3, sdims));
      GE_CHECK_EQ_INT(count_bad(&y[1], wm, outer, 1e-6), 0);
      GE_CHECK_EQ_INT(count_bad(&y[2], wi, outer, 1e-5), 0);
      kh_free(&y[0]);
      kh_free(&y[1]);
      kh_free(&y[2]);
      kt_free(&k);
      kh_free(&x);
      kh_free(&s);
      kh_free(&b);
    }
}

GE_TEST(test_group_norm_per_group_and_channel) {
  int64_t xd[4] = {2, 6, 3, 2}, gd[1] = {3}, cd[1] = {6}, n, c, i;
  uint64_t seed = 41;
  int per_channel;
  for (per_channel = 0; per_channel < 2; per_channel++) {
    ge_value x = rand_value(GE_DTYPE_FLOAT32, 4, xd, &seed);
    ge_value s = rand_value(GE_DTYPE_FLOAT32, 1, per_channel ? cd : gd, &seed);
    ge_value b = rand_value(GE_DTYPE_FLOAT32, 1, per_channel ? cd : gd, &seed), y, *in[3];
    double want[72];
    kt k;
    for (n = 0; n < 2; n++)
      for (c = 0; c < 6; c += 2) { /* 3 groups of 2 channels */
        int64_t base = (n * 6 + c) * 6;
        double mean = 0, var = 0;
        for (i = 0; i < 12; i++) mean += val(&x, base + i) / 12;
        for (i = 0; i < 12; i++) var += pow(val(&x, base + i) - mean, 2) / 12;
        for (i = 0; i < 12; i++) {
          int64_t p = per_channel ? c + i / 6 : c / 2;
          want[base + i] = (val(&x, base + i) - mean) / sqrt(var + 1e-5) * val(&s, p) + val(&b, p);
        }
      }
    in[0] = &x;
    in[1] = &s;
    in[2] = &b;
    GE_REQUIRE(kt_make(&k, "GroupNormalization", 3, in, 1));
    kt_int(&k, "num_groups", 3);
    GE_CHECK_EQ_INT(kt_run(&k, in, 3, &y, 1), GE_OK);
    GE_CHECK_EQ_INT(count_bad(&y, want, 72, 1e-5), 0);
    kh_free(&y);
    kt_int(&k, "num_groups", 4);
    GE_CHECK_EQ_INT(kt_try(&k, in, 3, 1), GE_ERR_INVALID);
    kt_int(&k, "num_groups", 2); /* 3 values fit neither 2 groups nor 6 channels */
    GE_CHECK_EQ_INT(kt_try(&k, in, 3, 1), per_channel ? GE_OK : GE_ERR_SHAPE);
    kt_free(&k);
    kh_free(&x);
    kh_free(&s);
    kh_free(&b);
  }
}

GE_TEST(test_lrn_mvn_lpnorm) {
  int64_t xd[4] = {2, 5, 3, 2}, n, c, i, j;
  uint64_t seed = 43;
  ge_value x = rand_value(GE_DTYPE_FLOAT32, 4, xd, &seed), y, *in[1];
  double want[60];
  int64_t axes[2] = {1, -1};
  int p;
  kt k;
  in[0] = &x;
  /* LRN, size 4: channels c-1 .. c+2 */
  for (n = 0; n < 2; n++)
    for (c = 0; c < 5; c++)
      for (i = 0; i < 6; i++) {
        double ss = 0;
        for (j = c - 1; j <= c + 2; j++)
          if (j >= 0 && j < 5) ss += pow(val(&x, (n * 5 + j) * 6 + i), 2);
        want[(n * 5 + c) * 6 + i] = val(&x, (n * 5 + c) * 6 + i) / pow(1.5 + 0.01 / 4 * ss, 0.6);
      }
  GE_REQUIRE(kt_make(&k, "LRN", 1, in, 1));
  kt_int(&k, "size", 4);
  kt_float(&k, "alpha", 0.01);
  kt_float(&k, "beta", 0.6);
  kt_float(&k, "bias", 1.5);
  GE_CHECK_EQ_INT(kt_run(&k, in, 1, &y, 1), GE_OK);
  GE_CHECK_EQ_INT(count_bad(&y, want, 60, 1e-5), 0);
  kh_free(&y);
  kt_int(&k, "size", 0);
  GE_CHECK_EQ_INT(kt_try(&k, in, 1, 1), GE_ERR_INVALID);
  kt_free(&k);
  /* MeanVarianceNormalization over axes 1 and 3 */
  for (n = 0; n < 2; n++)
    for (j = 0; j < 3; j++) {
      double mean = 0, var = 0;
      for (c = 0; c < 5; c++)
        for (i = 0; i < 2; i++) mean += val(&x, ((n * 5 + c) * 3 + j) * 2 + i) / 10;
      for (c = 0; c < 5; c++)
        for (i = 0; i < 2; i++) var += pow(val(&x, ((n * 5 + c) * 3 + j) * 2 + i) - mean, 2) / 10;
      for (c = 0; c < 5; c++)
        for (i = 0; i < 2; i++) {
          int64_t at = ((n * 5 + c) * 3 + j) * 2 + i;
          want[at] = (val(&x, at) - mean) / (sqrt(var) + 1e-9);
        }
    }
  GE_REQUIRE(kt_make(&k, "MeanVarianceNormalization", 1, in, 1));
  kt_ints(&k, "axes", axes, 2);
  GE_CHECK_EQ_INT(kt_run(&k, in, 1, &y, 1), GE_OK);
  GE_CHECK_EQ_INT(count_bad(&y, want, 60, 1e-5), 0);
  kh_free(&y);
  axes[0] = 4;
  kt_ints(&k, "axes", axes, 2);
  GE_CHECK_EQ_INT(kt_try(&k, in, 1, 1), GE_ERR_INVALID);
  kt_free(&k);
  /* LpNormalization along axis 1, p 1 and 2 */
  for (p = 1; p <= 2; p++) {
    for (n = 0; n < 2; n++)
      for (i = 0; i < 6; i++) {
        double s = 0;
        for (c = 0; c < 5; c++) s += p == 1 ? fabs(val(&x, (n * 5 + c) * 6 + i)) : pow(val(&x, (n * 5 + c) * 6 + i), 2);
        if (p == 2) s = sqrt(s);
        for (c = 0; c < 5; c++) want[(n * 5 + c) * 6 + i] = val(&x, (n * 5 + c) * 6 + i) / s;
      }
    GE_REQUIRE(kt_make(&k, "LpNormalization", 1, in, 1));
    kt_int(&k, "axis", 1);
    kt_int(&k, "p", p);
    GE_CHECK_EQ_INT(kt_run(&k, in, 1, &y, 1), GE_OK);
    GE_CHECK_EQ_INT(count_bad(&y, want, 60, 1e-5), 0);
    kh_free(&y);
    kt_int(&k, "p", 3);
    GE_CHECK_EQ_INT(kt_try(&k, in, 1, 1), GE_ERR_INVALID);
    kt_free(&k);
  }
  kh_free(&x);
}

/* ------------------------------------------------------------- softmax */

GE_TEST(test_softmax_family_every_axis) {
  static const char *ops[] = {"Softmax", "LogSoftmax", "Hardmax"};
  int64_t xd[3] = {3, 4, 5}, dims[3], idx[3];
  uint64_t seed = 47;
  ge_value x = rand_value(GE_DTYPE_FLOAT32, 3, xd, &seed), y, *in[1];
  int o, axis;
  int64_t i;
  for (i = 0; i < 60; i++) ge__hc_set_f(&x, i, val(&x, i) * 50 + 1000); /* large: needs the max shift */
  ((float *)x.data)[7] = ((float *)x.data)[2];                          /* a tie for Hardmax */
  in[0] = &x;
  for (o = 0; o < 3; o++)
    for (axis = -3; axis <= 3; axis++) { /* axis 3: default (-1) */
      int32_t a = axis == 3 ? 2 : axis < 0 ? axis + 3 : axis;
      double want[60];
      kt k;
      memcpy(dims, xd, sizeof dims);
      memset(idx, 0, sizeof idx);
      do {
        double mx = -HUGE_VAL, s = 0;
        int64_t j, at, first = -1, t[3];
        memcpy(t, idx, sizeof t);
        if (idx[a] != 0) continue;
        for (j = 0; j < xd[a]; j++) {
          t[a] = j;
          if (val(&x, flat(t, 3, xd)) > mx) {
            mx = val(&x, flat(t, 3, xd));
            first = j;
          }
        }
        for (j = 0; j < xd[a]; j++) {
          t[a] = j;
          s += exp(val(&x, flat(t, 3, xd)) - mx);
        }
        for (j = 0; j < xd[a]; j++) {
          t[a] = j;
          at = flat(t, 3, xd);
          want[at] = o == 0 ? exp(val(&x, at) - mx) / s : o == 1 ? val(&x, at) - mx - log(s) : (j == first);
        }
      } while (next_idx(idx, 3, dims));
      GE_REQUIRE(kt_make(&k, ops[o], 1, in, 1));
      if (axis != 3) kt_int(&k, "axis", axis);
      GE_CHECK_EQ_INT(kt_run(&k, in, 1, &y, 1), GE_OK);
      if (GE_CHECK_EQ_INT(count_bad(&y, want, 60, 1e-5), 0) == 0) printf("    %s axis %d\n", ops[o], axis);
      kh_free(&y);
      kt_int(&k, "axis", 3);
      GE_CHECK_EQ_INT(kt_try(&k, in, 1, 1), GE_ERR_INVALID);
      kt_free(&k);
    }
  kh_free(&x);
}

/* ---------------------------------------------------------- reductions */

static const char *const reduce_ops[] = {"ReduceSum",       "ReduceMean",     "ReduceMax", "ReduceMin",
                                         "ReduceProd",      "ReduceL1",       "ReduceL2",  "ReduceLogSum",
                                         "ReduceLogSumExp", "ReduceSumSquare"};

/* Reduces x over mask[] with reduce_ops[op], into the keepdims layout. */
static double *naive_reduce(const ge_value *x, const int *mask, int op, int64_t *kd) {
  int64_t oidx[GE_MAX_RANK], ridx[GE_MAX_RANK], rd[GE_MAX_RANK], n = 1;
  int32_t i, r = x->rank;
  double *y;
  for (i = 0; i < r; i++) {
    kd[i] = mask[i] ? 1 : x->dims[i];
    rd[i] = mask[i] ? x->dims[i] : 1;
    n *= kd[i];
  }
  y = dalloc(n);
  memset(oidx, 0, sizeof oidx);
  if (n) do {
      double acc = op == 2 ? -HUGE_VAL : op == 3 ? HUGE_VAL : op == 4 ? 1 : 0, mx = -HUGE_VAL;
      int64_t cnt = 0, pass;
      for (pass = op == 8 ? 0 : 1; pass < 2; pass++) { /* LogSumExp: the maximum first */
        memset(ridx, 0, sizeof ridx);
        cnt = 0;
        do {
          int64_t xi[GE_MAX_RANK];
          double v;
          int empty = 0;
          for (i = 0; i < r; i++) {
            xi[i] = mask[i] ? ridx[i] : oidx[i];
            if (x->dims[i] == 0) empty = 1;
          }
          if (empty) break;
          v = val(x, flat(xi, r, x->dims));
          cnt++;
          if (pass == 0) {
            if (v > mx) mx = v;
            continue;
          }
          switch (op) {
          case 2: acc = v > acc ? v : acc; break;
          case 3: acc = v < acc ? v : acc; break;
          case 4: acc *= v; break;
          case 5: acc += fabs(v); break;
          case 6:
          case 9: acc += v * v; break;
          case 8: acc += exp(v - mx); break;
          default: acc += v; break;
          }
        } while (next_idx(ridx, r, rd));
      }
      if (op == 1) acc /= (double)cnt;
      if (op == 6) acc = sqrt(acc);
      if (op == 7) acc = log(acc);
      if (op == 8) acc = mx + log(acc);
      y[flat(oidx, r, kd)] = acc;
    } while (next_idx(oidx, r, kd));
  return y;
}

GE_TEST(test_reductions_axes_keepdims_dtypes) {
  static const int32_t na[] = {0, 1, 1, 1, 1, 2, 2, 3};
  static const int64_t axes[][3] = {{0}, {0}, {1}, {2}, {-1}, {0, 2}, {-3, 1}, {0, 1, 2}};
  static const ge_dtype types[] = {GE_DTYPE_FLOAT32, GE_DTYPE_FLOAT64, GE_DTYPE_FLOAT16,
                                   GE_DTYPE_INT32,   GE_DTYPE_INT64,   GE_DTYPE_UINT8};
  int64_t xd[3] = {2, 3, 4};
  uint64_t seed = 53;
  size_t a, t;
  int op, keep, form;
  for (t = 0; t < sizeof types / sizeof types[0]; t++)
    for (op = 0; op < 10; op++) {
      ge_value x;
      int64_t i;
      if (!ge__hc_is_float(types[t]) && (op == 6 || op == 7 || op == 8)) continue;
      x = rand_value(types[t], 3, xd, &seed);
      if (op == 7)
        for (i = 0; i < x.numel; i++) ge__hc_set_f(&x, i, fabs(val(&x, i)) + 0.125);
      if (op == 4 && !ge__hc_is_float(types[t]))
        for (i = 0; i < x.numel; i++) ge__hc_set_i(&x, i, ge__hc_get_i(&x, i) % 3);
      for (a = 0; a < sizeof na / sizeof na[0]; a++)
        for (keep = 0; keep < 2; keep++)
          for (form = 0; form < 2; form++) { /* axes as attribute (opset < 18) or input */
            int mask[3] = {na[a] == 0, na[a] == 0, na[a] == 0}, j;
            int64_t kd[3], od[3], i2;
            int32_t orank = 0;
            int64_t three = 3;
            ge_value av = kh_value(GE_DTYPE_INT64, 1, &three, NULL), y, *in[2];
            double *want;
            kt k;
            av.dims[0] = na[a];
            ge_value_set_shape(&av, GE_DTYPE_INT64, 1, av.dims);
            for (j = 0; j < na[a]; j++) {
              mask[(axes[a][j] + 3) % 3] = 1;
              ((int64_t *)av.data)[j] = axes[a][j];
            }
            want = naive_reduce(&x, mask, op, kd);
            for (j = 0; j < 3; j++)
              if (!mask[j] || keep) od[orank++] = kd[j];
            in[0] = &x;
            in[1] = form ? &av : NULL;
            GE_REQUIRE(kt_make(&k, reduce_ops[op], 2, in, 1));
            kt_int(&k, "keepdims", keep);
            if (!form && na[a]) kt_ints(&k, "axes", axes[a], na[a]);
            GE_CHECK_EQ_INT(kt_run(&k, in, 2, &y, 1), GE_OK);
            GE_CHECK_EQ_INT(y.dtype, types[t]);
            GE_CHECK(same_shape(&y, orank, od));
            if (!ge__hc_is_float(types[t])) { /* exact, wrapping to the dtype like the kernel's integers */
              ge_value w = kh_value(types[t], 0, od, NULL);
              int64_t bad = 0;
              for (i2 = 0; i2 < y.numel; i2++) {
                ge__hc_set_i(&w, 0, op == 1 ? (int64_t)want[i2] : (int64_t)(uint64_t)(int64_t)want[i2]);
                bad += ge__hc_get_i(&y, i2) != ge__hc_get_i(&w, 0);
              }
              if (GE_CHECK_EQ_INT(bad, 0) == 0)
                printf("    %s %s axes %u keep %d\n", reduce_ops[op], ge_dtype_name(types[t]), (unsigned)a, keep);
              kh_free(&w);
            } else if (GE_CHECK_EQ_INT(count_bad(&y, want, y.numel, tol_of(types[t]) * 4), 0) == 0)
              printf("    %s %s axes %u keep %d\n", reduce_ops[op], ge_dtype_name(types[t]), (unsigned)a, keep);
            free(want);
            kh_free(&y);
            kh_free(&av);
            kt_free(&k);
          }
      kh_free(&x);
    }
}

GE_TEST(test_reductions_empty_axes_and_sets) {
  int64_t xd[3] = {2, 3, 4}, ed[3] = {2, 0, 3}, zero = 0, one = 1, i;
  uint64_t seed = 59;
  ge_value x = rand_value(GE_DTYPE_FLOAT32, 3, xd, &seed), e = kh_value(GE_DTYPE_FLOAT32, 3, ed, NULL);
  ge_value noax = kh_value(GE_DTYPE_INT64, 1, &zero, NULL), ax1 = kh_value(GE_DTYPE_INT64, 1, &one, NULL);
  ge_value ei = kh_value(GE_DTYPE_INT32, 3, ed, NULL), y, *in[2];
  int op;
  kt k;
  ((int64_t *)ax1.data)[0] = 1;
  /* noop_with_empty_axes: identity; without it: everything */
  in[0] = &x;
  in[1] = &noax;
  GE_REQUIRE(kt_make(&k, "ReduceSum", 2, in, 1));
  kt_int(&k, "noop_with_empty_axes", 1);
  GE_CHECK_EQ_INT(kt_run(&k, in, 2, &y, 1), GE_OK);
  GE_CHECK(same_shape(&y, 3, xd) && memcmp(y.data, x.data, x.nbytes) == 0);
  kh_free(&y);
  kt_int(&k, "noop_with_empty_axes", 0);
  kt_int(&k, "keepdims", 0);
  GE_CHECK_EQ_INT(kt_run(&k, in, 2, &y, 1), GE_OK);
  GE_CHECK_EQ_INT(y.rank, 0);
  {
    double s = 0;
    for (i = 0; i < 24; i++) s += val(&x, i);
    GE_CHECK_NEAR(val(&y, 0), s, 1e-5);
  }
  kh_free(&y);
  kt_free(&k);
  /* reducing an empty set: the identities of ONNX opset 18 */
  for (op = 0; op < 10; op++) {
    double want = op == 2              ? -HUGE_VAL
                  : op == 3            ? HUGE_VAL
                  : op == 4            ? 1
                  : op == 1            ? NAN
                  : op == 7 || op == 8 ? -HUGE_VAL
                                       : 0;
    int64_t od[3] = {2, 1, 3};
    in[0] = &e;
    in[1] = &ax1;
    GE_REQUIRE(kt_make(&k, reduce_ops[op], 2, in, 1));
    GE_CHECK_EQ_INT(kt_run(&k, in, 2, &y, 1), GE_OK);
    GE_CHECK(same_shape(&y, 3, od));
    for (i = 0; i < y.numel; i++)
      if (!GE_CHECK(val(&y, i) == want || (want != want && val(&y, i) != val(&y, i)))) break;
    kh_free(&y);
    if (op == 2 || op == 3) { /* integers: the dtype's extreme */
      in[0] = &ei;
      GE_CHECK_EQ_INT(kt_run(&k, in, 2, &y, 1), GE_OK);
      GE_CHECK_EQ_INT(ge__hc_get_i(&y, 0), op == 2 ? INT32_MIN : INT32_MAX);
      kh_free(&y);
    }
    kt_free(&k);
  }
  /* errors */
  in[0] = &x;
  in[1] = &ax1;
  ((int64_t *)ax1.data)[0] = 3;
  GE_REQUIRE(kt_make(&k, "ReduceMean", 2, in, 1));
  GE_CHECK_EQ_INT(kt_try(&k, in, 2, 1), GE_ERR_INVALID);
  in[1] = &x; /* float axes */
  GE_CHECK_EQ_INT(kt_try(&k, in, 2, 1), GE_ERR_INVALID);
  kt_free(&k);
  kh_free(&x);
  kh_free(&e);
  kh_free(&noax);
  kh_free(&ax1);
  kh_free(&ei);
}

GE_TEST(test_argmax_argmin) {
  int64_t xd[3] = {3, 4, 5}, idx[3];
  uint64_t seed = 61;
  ge_value x = rand_value(GE_DTYPE_FLOAT32, 3, xd, &seed), xi = rand_value(GE_DTYPE_INT64, 3, xd, &seed), *in[1];
  int mn, keep, last, axis, t;
  for (t = 0; t < 2; t++)
    for (mn = 0; mn < 2; mn++)
      for (axis = -3; axis < 3; axis++)
        for (keep = 0; keep < 2; keep++)
          for (last = 0; last < 2; last++) {
            const ge_value *v = t ? &xi : &x;
            int32_t a = axis < 0 ? axis + 3 : axis, j, orank = 0;
            int64_t od[3], kd[3], want[60], bad = 0, n = 0;
            ge_value y;
            kt k;
            for (j = 0; j < 3; j++) {
              kd[j] = j == a ? 1 : xd[j];
              if (j != a || keep) od[orank++] = kd[j];
            }
            memset(idx, 0, sizeof idx);
            do {
              int64_t best = 0, q, tt[3];
              memcpy(tt, idx, sizeof tt);
              for (q = 0; q < xd[a]; q++) {
                double b, c;
                tt[a] = best;
                b = val(v, flat(tt, 3, xd));
                tt[a] = q;
                c = val(v, flat(tt, 3, xd));
                if (mn ? (c < b || (last && c == b)) : (c > b || (last && c == b))) best = q;
              }
              want[n++] = best;
            } while (next_idx(idx, 3, kd));
            in[0] = (ge_value *)v;
            GE_REQUIRE(kt_make(&k, mn ? "ArgMin" : "ArgMax", 1, in, 1));
            kt_int(&k, "axis", axis);
            kt_int(&k, "keepdims", keep);
            kt_int(&k, "select_last_index", last);
            GE_CHECK_EQ_INT(kt_run(&k, in, 1, &y, 1), GE_OK);
            GE_CHECK_EQ_INT(y.dtype, GE_DTYPE_INT64);
            GE_CHECK(same_shape(&y, orank, od));
            for (n = 0; n < y.numel && y.numel == x.numel / xd[a]; n++) bad += ((int64_t *)y.data)[n] != want[n];
            GE_CHECK_EQ_INT(bad, 0);
            kh_free(&y);
            kt_int(&k, "axis", 3);
            GE_CHECK_EQ_INT(kt_try(&k, in, 1, 1), GE_ERR_INVALID);
            kt_free(&k);
          }
  kh_free(&x);
  kh_free(&xi);
}

GE_TEST(test_cumsum_modes) {
  static const ge_dtype types[] = {GE_DTYPE_FLOAT32, GE_DTYPE_FLOAT64, GE_DTYPE_INT32, GE_DTYPE_INT64, GE_DTYPE_UINT32};
  int64_t xd[2] = {3, 4}, one = 1;
  uint64_t seed = 67;
  size_t t;
  int axis, excl, rev;
  for (t = 0; t < sizeof types / sizeof types[0]; t++)
    for (axis = -2; axis < 2; axis++)
      for (excl = 0; excl < 2; excl++)
        for (rev = 0; rev < 2; rev++) {
          ge_value x = rand_value(types[t] == GE_DTYPE_UINT32 ? GE_DTYPE_UINT8 : types[t], 2, xd, &seed), x2;
          ge_value ax = kh_value(axis & 1 ? GE_DTYPE_INT32 : GE_DTYPE_INT64, 0, &one, NULL), y, *in[2];
          int32_t a = axis < 0 ? axis + 2 : axis;
          double want[12];
          int64_t i, j, q;
          kt k;
          x2 = kh_value(types[t], 2, xd, NULL);
          for (i = 0; i < 12; i++) ge__hc_set_f(&x2, i, val(&x, i));
          ge__hc_set_i(&ax, 0, axis);
          for (i = 0; i < 3; i++)
            for (j = 0; j < 4; j++) {
              double s = 0;
              int64_t p = a == 0 ? i : j, len = a == 0 ? 3 : 4;
              for (q = 0; q < len; q++) {
                int take = rev ? (excl ? q > p : q >= p) : (excl ? q < p : q <= p);
                if (take) s += val(&x2, a == 0 ? q * 4 + j : i * 4 + q);
              }
              want[i * 4 + j] = s;
            }
          in[0] = &x2;
          in[1] = &ax;
          GE_REQUIRE(kt_make(&k, "CumSum", 2, in, 1));
          kt_int(&k, "exclusive", excl);
          kt_int(&k, "reverse", rev);
          GE_CHECK_EQ_INT(kt_run(&k, in, 2, &y, 1), GE_OK);
          GE_CHECK_EQ_INT(count_bad(&y, want, 12, 1e-6), 0);
          kh_free(&y);
          ge__hc_set_i(&ax, 0, 2);
          GE_CHECK_EQ_INT(kt_try(&k, in, 2, 1), GE_ERR_INVALID);
          in[1] = NULL;
          GE_CHECK_EQ_INT(kt_try(&k, in, 2, 1), GE_ERR_INVALID);
          kt_free(&k);
          kh_free(&x);
          kh_free(&x2);
          kh_free(&ax);
        }
}

/* -------------------------------------------------------------- Einsum */

/* Brute-force einsum for equations without ellipsis: every assignment of
 * the distinct letters, products of the operands' elements at the indices
 * their letters name, summed into the output element. */
static double *naive_einsum(const char *const *terms, const ge_value *const *ops, int n, const char *outl,
                            int64_t *odims, int32_t *orank) {
  char letters[16];
  int64_t size[16], cur[16], total = 1, q;
  int nl = 0, t, i, j;
  double *y;
  for (t = 0; t < n; t++)
    for (i = 0; terms[t][i]; i++) {
      for (j = 0; j < nl && letters[j] != terms[t][i]; j++) {
      }
      if (j == nl) {
        letters[nl] = terms[t][i];
        size[nl++] = ops[t]->dims[i];
      }
    }
  *orank = (int32_t)strlen(outl);
  for (i = 0; i < *orank; i++)
    for (j = 0; j < nl; j++)
      if (letters[j] == outl[i]) odims[i] = size[j];
  for (j = 0; j < nl; j++) total *= size[j];
  y = dalloc(ge__hc_dn_prod(odims, 0, *orank));
  memset(cur, 0, sizeof cur);
  for (q = 0; q < total; q++) {
    double p = 1;
    int64_t oi[16];
    for (t = 0; t < n; t++) {
      int64_t ix[16];
      for (i = 0; terms[t][i]; i++)
        for (j = 0; j < nl; j++)
          if (letters[j] == terms[t][i]) ix[i] = cur[j];
      p *= val(ops[t], flat(ix, ops[t]->rank, ops[t]->dims));
    }
    for (i = 0; i < *orank; i++)
      for (j = 0; j < nl; j++)
        if (letters[j] == outl[i]) oi[i] = cur[j];
    y[flat(oi, *orank, odims)] += p;
    next_idx(cur, nl, size);
  }
  return y;
}

GE_TEST(test_einsum_equations) {
  static const struct {
    const char *eq, *terms[3], *out;
    int n;
    int32_t rank[3];
    int64_t dims[3][3];
  } cases[] = {
      {"ij,jk->ik", {"ij", "jk"}, "ik", 2, {2, 2}, {{3, 4}, {4, 5}}},
      {"bij, bjk -> bik", {"bij", "bjk"}, "bik", 2, {3, 3}, {{2, 3, 4}, {2, 4, 2}}},
      {"ii->i", {"ii"}, "i", 1, {2}, {{4, 4}}},
      {"ii", {"ii"}, "", 1, {2}, {{4, 4}}},
      {"ij->ji", {"ij"}, "ji", 1, {2}, {{3, 5}}},
      {"ji", {"ji"}, "ij", 1, {2}, {{3, 5}}},
      {"ij->", {"ij"}, "", 1, {2}, {{3, 5}}},
      {"i,j->ij", {"i", "j"}, "ij", 2, {1, 1}, {{3}, {4}}},
      {"i,i", {"i", "i"}, "", 2, {1, 1}, {{6}, {6}}},
      {"ij,jk,kl->il", {"ij", "jk", "kl"}, "il", 3, {2, 2, 2}, {{2, 3}, {3, 4}, {4, 2}}},
      {"bA,Cb", {"bA", "Cb"}, "AC", 2, {2, 2}, {{3, 2}, {4, 3}}},
      {"iij->j", {"iij"}, "j", 1, {3}, {{3, 3, 2}}},
      {"ijk,ikj->i", {"ijk", "ikj"}, "i", 2, {3, 3}, {{2, 3, 4}, {2, 4, 3}}},
  };
  static const ge_dtype types[] = {GE_DTYPE_FLOAT32, GE_DTYPE_FLOAT64, GE_DTYPE_INT64, GE_DTYPE_INT32};
  uint64_t seed = 71;
  size_t ci, t;
  for (ci = 0; ci < sizeof cases / sizeof cases[0]; ci++)
    for (t = 0; t < sizeof types / sizeof types[0]; t++) {
      ge_value v[3], y, *in[3];
      const ge_value *cv[3];
      int64_t od[GE_MAX_RANK];
      int32_t orank;
      double *want;
      int i;
      kt k;
      for (i = 0; i < cases[ci].n; i++) {
        v[i] = rand_value(types[t], cases[ci].rank[i], cases[ci].dims[i], &seed);
        in[i] = &v[i];
        cv[i] = &v[i];
      }
      want = naive_einsum(cases[ci].terms, cv, cases[ci].n, cases[ci].out, od, &orank);
      GE_REQUIRE(kt_make(&k, "Einsum", (uint32_t)cases[ci].n, in, 1));
      kt_str(&k, "equation", cases[ci].eq);
      if (!GE_CHECK_EQ_INT(kt_run(&k, in, (uint32_t)cases[ci].n, &y, 1), GE_OK)) printf("    %s\n", k.err.message);
      if (!GE_CHECK(same_shape(&y, orank, od))) printf("    einsum '%s'\n", cases[ci].eq);
      GE_CHECK_EQ_INT(count_bad(&y, want, y.numel, ge__hc_is_float(types[t]) ? 1e-5 : 0), 0);
      free(want);
      kh_free(&y);
      for (i = 0; i < cases[ci].n; i++) kh_free(&v[i]);
      kt_free(&k);
    }
}

GE_TEST(test_einsum_ellipsis_broadcast) {
  int64_t ad[4] = {2, 1, 3, 4}, bd[3] = {5, 4, 2}, dd[3] = {3, 4, 4}, b0, b1, i, j, q, od[4] = {2, 5, 3, 2};
  uint64_t seed = 73;
  ge_value a = rand_value(GE_DTYPE_FLOAT64, 4, ad, &seed), b = rand_value(GE_DTYPE_FLOAT64, 3, bd, &seed);
  ge_value d = rand_value(GE_DTYPE_FLOAT32, 3, dd, &seed), y, *in[2];
  double want[60], wd[12];
  int64_t dgd[2] = {3, 4};
  kt k;
  for (b0 = 0; b0 < 2; b0++)
    for (b1 = 0; b1 < 5; b1++)
      for (i = 0; i < 3; i++)
        for (j = 0; j < 2; j++) {
          double s = 0;
          for (q = 0; q < 4; q++) s += val(&a, (b0 * 3 + i) * 4 + q) * val(&b, (b1 * 4 + q) * 2 + j);
          want[((b0 * 5 + b1) * 3 + i) * 2 + j] = s;
        }
  in[0] = &a;
  in[1] = &b;
  GE_REQUIRE(kt_make(&k, "Einsum", 2, in, 1));
  kt_str(&k, "equation", "...ij,...jk->...ik");
  GE_CHECK_EQ_INT(kt_run(&k, in, 2, &y, 1), GE_OK);
  GE_CHECK(same_shape(&y, 4, od));
  GE_CHECK_EQ_INT(count_bad(&y, want, 60, 1e-12), 0);
  kh_free(&y);
  kt_str(&k, "equation", "...ij,...jk"); /* implicit: the same */
  GE_CHECK_EQ_INT(kt_run(&k, in, 2, &y, 1), GE_OK);
  GE_CHECK(same_shape(&y, 4, od));
  GE_CHECK_EQ_INT(count_bad(&y, want, 60, 1e-12), 0);
  kh_free(&y);
  kt_free(&k);
  for (b0 = 0; b0 < 3; b0++)
    for (i = 0; i < 4; i++) wd[b0 * 4 + i] = val(&d, (b0 * 4 + i) * 4 + i);
  in[0] = &d;
  GE_REQUIRE(kt_make(&k, "Einsum", 1, in, 1));
  kt_str(&k, "equation", "...ii ->...i");
  GE_CHECK_EQ_INT(kt_run(&k, in, 1, &y, 1), GE_OK);
  GE_CHECK(same_shape(&y, 2, dgd));
  GE_CHECK_EQ_INT(count_bad(&y, wd, 12, 1e-6), 0);
  kh_free(&y);
  kt_free(&k);
  kh_free(&a);
  kh_free(&b);
  kh_free(&d);
}

GE_TEST(test_einsum_errors) {
  static const char *const bad_eq[] = {"ij,jk->ik", "ij->k", "ijk",    "i.j",   "ij->ii",
                                       "ij-ji",     "i,j",   "ij->i?", "....ij"};
  static const ge_status want[] = {GE_ERR_INVALID, GE_ERR_INVALID, GE_ERR_SHAPE,   GE_ERR_INVALID, GE_ERR_INVALID,
                                   GE_ERR_INVALID, GE_ERR_INVALID, GE_ERR_INVALID, GE_ERR_INVALID};
  int64_t d[2] = {3, 4}, e[2] = {5, 5};
  ge_value a = kh_value(GE_DTYPE_FLOAT32, 2, d, NULL), b = kh_value(GE_DTYPE_FLOAT32, 2, e, NULL), *in[2];
  size_t i;
  kt k;
  in[0] = &a;
  GE_REQUIRE(kt_make(&k, "Einsum", 1, in, 1));
  GE_CHECK_EQ_INT(kt_try(&k, in, 1, 1), GE_ERR_INVALID); /* no equation */
  for (i = 0; i < sizeof bad_eq / sizeof bad_eq[0]; i++) {
    kt_str(&k, "equation", bad_eq[i]);
    if (!GE_CHECK_EQ_INT(kt_try(&k, in, 1, 1), want[i])) printf("    equation '%s'\n", bad_eq[i]);
  }
  kt_free(&k);
  in[1] = &b; /* j is 4 in a, 5 in b */
  GE_REQUIRE(kt_make(&k, "Einsum", 2, in, 1));
  kt_str(&k, "equation", "ij,jk->ik");
  GE_CHECK_EQ_INT(kt_try(&k, in, 2, 1), GE_ERR_SHAPE);
  kt_free(&k);
  kh_free(&a);
  kh_free(&b);
}

/* ----------------------------------------------------------------- Det */

static double leibniz_det(const double *m, int n) {
  int perm[5], i, j, sign;
  double total = 0;
  for (i = 0; i < n; i++) perm[i] = i;
  for (;;) {
    double p = 1;
    int inv = 0, k, l;
    for (i = 0; i < n; i++)
      for (j = i + 1; j < n; j++) inv += perm[i] > perm[j];
    sign = inv % 2 ? -1 : 1;
    for (i = 0; i < n; i++) p *= m[i * n + perm[i]];
    total += sign * p;
    /* next permutation in lexicographic order */
    for (k = n - 2; k >= 0 && perm[k] > perm[k + 1]; k--) {
    }
    if (k < 0) break;
    for (l = n - 1; perm[l] < perm[k]; l--) {
    }
    i = perm[k];
    perm[k] = perm[l];
    perm[l] = i;
    for (i = k + 1, j = n - 1; i < j; i++, j--) {
      int tmp = perm[i];
      perm[i] = perm[j];
      perm[j] = tmp;
    }
  }
  return total;
}

GE_TEST(test_det_batched) {
  uint64_t seed = 79;
  int n;
  for (n = 1; n <= 4; n++) {
    int64_t xd[4] = {2, 3, n, n}, q, i;
    ge_value x = rand_value(GE_DTYPE_FLOAT64, 4, xd, &seed), y, *in[1];
    double want[6], m[16];
    kt k;
    if (n == 3)
      for (i = 0; i < 3; i++) ((double *)x.data)[2 * 9 + 6 + i] = ((double *)x.data)[2 * 9 + i] * 2; /* singular */
    for (q = 0; q < 6; q++) {
      for (i = 0; i < n * n; i++) m[i] = val(&x, q * n * n + i);
      want[q] = leibniz_det(m, n);
    }
    in[0] = &x;
    GE_REQUIRE(kt_make(&k, "Det", 1, in, 1));
    GE_CHECK_EQ_INT(kt_run(&k, in, 1, &y, 1), GE_OK);
    GE_CHECK(same_shape(&y, 2, xd));
    GE_CHECK_EQ_INT(count_bad(&y, want, 6, 1e-12), 0);
    kh_free(&y);
    kt_free(&k);
    kh_free(&x);
  }
  {
    int64_t xd[2] = {2, 3};
    ge_value x = kh_value(GE_DTYPE_FLOAT32, 2, xd, NULL), *in[1];
    kt k;
    in[0] = &x;
    GE_REQUIRE(kt_make(&k, "Det", 1, in, 1));
    GE_CHECK_EQ_INT(kt_try(&k, in, 1, 1), GE_ERR_SHAPE);
    kt_free(&k);
    kh_free(&x);
  }
}

/* ------------------------------------------------------ Resize, Upsample */

/* A literal port of the ONNX reference's 1-D interpolation (onnx/reference
 * op_resize: coordinate transform, coefficients of the ratio, the n nearest
 * neighbours of the edge-padded data), applied axis by axis. */
typedef struct rs_opts {
  const char *mode, *ctm, *nearest;
  double A, extrap;
  int exclude, antialias;
} rs_opts;

static double ref_coord(const rs_opts *o, double x, double scale, int64_t in, int64_t out_int, double rs, double re,
                        int *outside) {
  /* length_resized: the integer output length (the spec's definition, ONNX
   * Runtime's and PyTorch's); half_pixel_symmetric alone uses scale * in */
  double ow = scale * (double)in, lr = (double)out_int;
  *outside = 0;
  if (!strcmp(o->ctm, "align_corners")) return lr == 1 ? 0 : x * (double)(in - 1) / (lr - 1);
  if (!strcmp(o->ctm, "asymmetric")) return x / scale;
  if (!strcmp(o->ctm, "tf_half_pixel_for_nn")) return (x + 0.5) / scale;
  if (!strcmp(o->ctm, "pytorch_half_pixel")) return lr == 1 ? 0 : (x + 0.5) / scale - 0.5; /* the spec's 0 */
  if (!strcmp(o->ctm, "half_pixel_symmetric")) {
    double adj = (double)out_int / ow, off = (double)in / 2 * (1 - adj);
    return off + (x + 0.5) / scale - 0.5;
  }
  if (!strcmp(o->ctm, "tf_crop_and_resize")) {
    double xo = lr == 1 ? (re - rs) * (double)(in - 1) / 2 : x * (re - rs) * (double)(in - 1) / (lr - 1);
    xo += rs * (double)(in - 1);
    *outside = xo < 0 || xo > (double)(in - 1);
    return xo;
  }
  return (x + 0.5) / scale - 0.5; /* half_pixel */
}

static double cubic_kernel(double x, double A) {
  x = fabs(x);
  if (x <= 1) return (A + 2) * x * x * x - (A + 3) * x * x + 1;
  if (x < 2) return A * x * x * x - 5 * A * x * x + 8 * A * x - 4 * A;
  return 0;
}

static int ref_coeffs(const rs_opts *o, double r, double scale, double *c) {
  int n = 0, i;
  double sum = 0;
  if (!strcmp(o->mode, "nearest")) {
    int hi;
    if (r == 1)
      hi = 1;
    else if (!strcmp(o->nearest, "round_prefer_ceil"))
      hi = r >= 0.5;
    else if (!strcmp(o->nearest, "floor"))
      hi = 0;
    else if (!strcmp(o->nearest, "ceil"))
      hi = 1;
    else
      hi = r > 0.5;
    c[0] = !hi;
    c[1] = hi;
    return 2;
  }
  if (!o->antialias) {
    if (!strcmp(o->mode, "linear")) {
      c[0] = 1 - r;
      c[1] = r;
      return 2;
    }
    c[0] = ((o->A * (r + 1) - 5 * o->A) * (r + 1) + 8 * o->A) * (r + 1) - 4 * o->A;
    c[1] = ((o->A + 2) * r - (o->A + 3)) * r * r + 1;
    c[2] = ((o->A + 2) * (1 - r) - (o->A + 3)) * (1 - r) * (1 - r) + 1;
    c[3] = ((o->A * ((1 - r) + 1) - 5 * o->A) * ((1 - r) + 1) + 8 * o->A) * ((1 - r) + 1) - 4 * o->A;
    return 4;
  }
  if (scale > 1) scale = 1;
  if (!strcmp(o->mode, "linear")) {
    int start = (int)(floor(-1 / scale) + 1), fp = 2 - 2 * start;
    for (i = 0; i < fp; i++) {
      double a = 1 - fabs(((double)(start + i) - r) * scale);
      c[n++] = a < 0 ? 0 : a > 1 ? 1 : a;
    }
  } else {
    int is = (int)(floor(-2 / scale) + 1), ie = 2 - is;
    for (i = is; i < ie; i++) c[n++] = cubic_kernel(scale * ((double)i - r), o->A);
  }
  for (i = 0; i < n; i++) sum += c[i];
  for (i = 0; i < n; i++) c[i] /= sum;
  return n;
}

/* The n indices nearest to x among [-pad, in + pad), ties to the smaller,
 * ascending (the reference's _get_neighbor on edge-padded data). */
static void ref_neighbors(double x, int n, int64_t in, int64_t *idx) {
  int64_t pad = (n + 1) / 2, lim = in + 2 * pad, i;
  char taken[256];
  int k;
  memset(taken, 0, sizeof taken);
  for (k = 0; k < n; k++) {
    int64_t best = -1;
    for (i = 0; i < lim && i < 256; i++)
      if (!taken[i] && (best < 0 || fabs(x + (double)pad - (double)i) < fabs(x + (double)pad - (double)best))) best = i;
    taken[best] = 1;
  }
  for (i = 0, k = 0; i < lim && i < 256; i++)
    if (taken[i]) idx[k++] = i - pad;
}

static double ref_interp_1d(const rs_opts *o, const double *data, int64_t stride, int64_t in, double scale,
                            int64_t out_int, double x, double rs, double re) {
  double c[64], s = 0, xo, ratio, sum = 0;
  int64_t idx[64];
  int n, i, outside;
  xo = ref_coord(o, x, scale, in, out_int, rs, re, &outside);
  if (outside) return o->extrap;
  ratio = xo == floor(xo) ? 1 : xo - floor(xo);
  n = ref_coeffs(o, ratio, scale, c);
  ref_neighbors(xo, n, in, idx);
  if (o->exclude) {
    for (i = 0; i < n; i++) {
      if (idx[i] < 0 || idx[i] >= in) c[i] = 0;
      sum += c[i];
    }
    for (i = 0; i < n; i++) c[i] /= sum;
  }
  for (i = 0; i < n; i++) {
    int64_t p = idx[i] < 0 ? 0 : idx[i] >= in ? in - 1 : idx[i];
    s += c[i] * data[p * stride];
  }
  return s;
}

/* Resizes x (as doubles) to out[] axis by axis with per-axis scales. */
static double *ref_resize(const rs_opts *o, const ge_value *x, const int64_t *out, const double *scale,
                          const double *rs, const double *re) {
  int64_t cur[GE_MAX_RANK], n = x->numel, i;
  int32_t r = x->rank, a;
  double *t = dalloc(n);
  for (i = 0; i < n; i++) t[i] = val(x, i);
  memcpy(cur, x->dims, sizeof(int64_t) * (size_t)r);
  for (a = 0; a < r; a++) {
    int64_t nd[GE_MAX_RANK], idx[GE_MAX_RANK], inner = ge__hc_dn_prod(cur, a + 1, r), m;
    double *u;
    memcpy(nd, cur, sizeof nd);
    nd[a] = out[a];
    m = ge__hc_dn_prod(nd, 0, r);
    u = dalloc(m);
    memset(idx, 0, sizeof idx);
    for (i = 0; i < m; i++) {
      int64_t base, k;
      for (k = 0, base = 0; k < r; k++) base = base * cur[k] + (k == a ? 0 : idx[k]);
      u[i] = ref_interp_1d(o, t + base, inner, cur[a], scale[a], out[a], (double)idx[a], rs[a], re[a]);
      next_idx(idx, r, nd);
    }
    free(t);
    t = u;
    memcpy(cur, nd, sizeof cur);
  }
  return t;
}

/* align_corners when scale * in is not an integer: [1 2 3 4; 5 6 7 8] by
 * scales (1, 1, 0.6, 0.6) is 1 x 2, its source columns 0 and 3 (the spec's
 * length_resized = 2; ONNX Runtime gives [1 4]; the ONNX reference's
 * scale * in = 2.4 would give [1 3.142857]). */
GE_TEST(test_resize_align_corners_output_length) {
  int64_t xd[4] = {1, 1, 2, 4}, four = 4;
  ge_value x = kh_value(GE_DTYPE_FLOAT32, 4, xd, NULL), scales = kh_value(GE_DTYPE_FLOAT32, 1, &four, NULL), y, *in[3];
  static const float sv[4] = {1, 1, 0.6f, 0.6f};
  int64_t want_dims[4] = {1, 1, 1, 2}, i;
  kt k;
  for (i = 0; i < 8; i++) ((float *)x.data)[i] = (float)(i + 1);
  memcpy(scales.data, sv, sizeof sv);
  in[0] = &x;
  in[1] = NULL;
  in[2] = &scales;
  GE_REQUIRE(kt_make(&k, "Resize", 3, in, 1));
  kt_str(&k, "mode", "linear");
  kt_str(&k, "coordinate_transformation_mode", "align_corners");
  if (GE_CHECK_EQ_INT(kt_run(&k, in, 3, &y, 1), GE_OK)) {
    GE_CHECK(same_shape(&y, 4, want_dims));
    GE_CHECK_NEAR(((float *)y.data)[0], 1.0, 1e-6);
    GE_CHECK_NEAR(((float *)y.data)[1], 4.0, 1e-6);
    kh_free(&y);
  }
  kt_free(&k);
  kh_free(&x);
  kh_free(&scales);
}

GE_TEST(test_resize_against_reference) {
  static const char *const modes[] = {"nearest", "linear", "cubic"};
  static const char *const ctms[] = {"half_pixel",           "pytorch_half_pixel", "align_corners",       "asymmetric",
                                     "tf_half_pixel_for_nn", "tf_crop_and_resize", "half_pixel_symmetric"};
  static const char *const nms[] = {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"};
  static const double scale_sets[][4] = {{1, 1, 2, 1.5}, {1, 1, 0.6, 0.5}, {1, 1, 0.35, 2.6}, {1, 1, 1, 1}};
  static const int64_t size_sets[][4] = {{1, 2, 7, 3}, {1, 2, 1, 9}};
  int64_t xd[4] = {1, 2, 5, 6}, four = 4, eight = 8;
  uint64_t seed = 83;
  ge_value x = rand_value(GE_DTYPE_FLOAT32, 4, xd, &seed);
  size_t m, c, nm, ss;
  int ex, aa, use_sizes;
  int64_t cases = 0;
  for (m = 0; m < 3; m++)
    for (c = 0; c < 7; c++)
      for (nm = 0; nm < (m == 0 ? 4u : 1u); nm++)
        for (ex = 0; ex < (m == 2 ? 2 : 1); ex++)
          for (aa = 0; aa < (m == 0 ? 1 : 2); aa++)
            for (use_sizes = 0; use_sizes < 2; use_sizes++)
              for (ss = 0; ss < (use_sizes ? 2u : 4u); ss++) {
                rs_opts o;
                ge_value scales = kh_value(GE_DTYPE_FLOAT32, 1, &four, NULL),
                         sizes = kh_value(GE_DTYPE_INT64, 1, &four, NULL);
                ge_value roi = kh_value(GE_DTYPE_FLOAT32, 1, &eight, NULL), y, *in[4];
                int64_t out[4], j;
                double sc[4], rs[4], re[4], *want;
                kt k;
                o.mode = modes[m];
                o.ctm = ctms[c];
                o.nearest = nms[nm];
                o.A = ex ? -0.5 : -0.75;
                o.exclude = ex;
                o.antialias = aa;
                o.extrap = 10;
                for (j = 0; j < 4; j++) {
                  rs[j] = j < 2 ? 0 : 0.2 + 0.1 * (double)j;
                  re[j] = j < 2 ? 1 : 0.9 - 0.05 * (double)j;
                  ((float *)roi.data)[j] = (float)rs[j];
                  ((float *)roi.data)[4 + j] = (float)re[j];
                  rs[j] = ((float *)roi.data)[j];
                  re[j] = ((float *)roi.data)[4 + j];
                  if (use_sizes) {
                    out[j] = size_sets[ss][j];
                    sc[j] = (double)out[j] / (double)xd[j];
                    ((int64_t *)sizes.data)[j] = out[j];
                  } else {
                    ((float *)scales.data)[j] = (float)scale_sets[ss][j];
                    sc[j] = ((float *)scales.data)[j];
                    out[j] = (int64_t)floor(sc[j] * (double)xd[j]);
                  }
                }
                if (c != 5) /* roi only counts for tf_crop_and_resize */
                  for (j = 0; j < 4; j++) {
                    rs[j] = 0;
                    re[j] = 1;
                  }
                want = ref_resize(&o, &x, out, sc, rs, re);
                in[0] = &x;
                in[1] = &roi;
                in[2] = use_sizes ? NULL : &scales;
                in[3] = use_sizes ? &sizes : NULL;
                GE_REQUIRE(kt_make(&k, "Resize", 4, in, 1));
                kt_str(&k, "mode", o.mode);
                kt_str(&k, "coordinate_transformation_mode", o.ctm);
                kt_str(&k, "nearest_mode", o.nearest);
                kt_float(&k, "cubic_coeff_a", o.A);
                kt_int(&k, "exclude_outside", ex);
                kt_int(&k, "antialias", aa);
                kt_float(&k, "extrapolation_value", o.extrap);
                if (!GE_CHECK_EQ_INT(kt_run(&k, in, 4, &y, 1), GE_OK)) printf("    %s\n", k.err.message);
                if (!GE_CHECK(same_shape(&y, 4, out)) || GE_CHECK_EQ_INT(count_bad(&y, want, y.numel, 1e-5), 0) == 0)
                  printf("    resize %s %s %s exclude %d antialias %d %s set %u\n", o.mode, o.ctm, o.nearest, ex, aa,
                         use_sizes ? "sizes" : "scales", (unsigned)ss);
                cases++;
                free(want);
                kh_free(&y);
                kh_free(&scales);
                kh_free(&sizes);
                kh_free(&roi);
                kt_free(&k);
              }
  GE_CHECK(cases > 300);
  kh_free(&x);
}

/* axes (opset 18) and keep_aspect_ratio_policy with sizes. */
GE_TEST(test_resize_axes_and_aspect_policy) {
  static const char *const pols[] = {"stretch", "not_larger", "not_smaller"};
  int64_t xd[4] = {2, 3, 4, 6}, two = 2, axes[2] = {3, -2};
  uint64_t seed = 89;
  ge_value x = rand_value(GE_DTYPE_FLOAT32, 4, xd, &seed);
  int p;
  for (p = 0; p < 3; p++) {
    ge_value sizes = kh_value(GE_DTYPE_INT64, 1, &two, NULL), y, *in[4];
    rs_opts o;
    int64_t out[4] = {2, 3, 0, 0}, j;
    double sc[4] = {1, 1, 0, 0}, rs[4] = {0, 0, 0, 0}, re[4] = {1, 1, 1, 1}, *want, s;
    kt k;
    ((int64_t *)sizes.data)[0] = 9; /* axis 3: 6 -> 9 (1.5) */
    ((int64_t *)sizes.data)[1] = 5; /* axis 2: 4 -> 5 (1.25) */
    s = p == 1 ? 1.25 : 1.5;
    for (j = 2; j < 4; j++) {
      sc[j] = p == 0 ? (j == 3 ? 1.5 : 1.25) : s;
      out[j] = p == 0 ? (j == 3 ? 9 : 5) : (int64_t)floor(s * (double)xd[j] + 0.5);
    }
    o.mode = "linear";
    o.ctm = "half_pixel";
    o.nearest = "round_prefer_floor";
    o.A = -0.75;
    o.exclude = 0;
    o.antialias = 0;
    o.extrap = 0;
    want = ref_resize(&o, &x, out, sc, rs, re);
    in[0] = &x;
    in[1] = NULL;
    in[2] = NULL;
    in[3] = &sizes;
    GE_REQUIRE(kt_make(&k, "Resize", 4, in, 1));
    kt_str(&k, "mode", "linear");
    kt_ints(&k, "axes", axes, 2);
    kt_str(&k, "keep_aspect_ratio_policy", pols[p]);
    GE_CHECK_EQ_INT(kt_run(&k, in, 4, &y, 1), GE_OK);
    if (!GE_CHECK(same_shape(&y, 4, out))) printf("    policy %s\n", pols[p]);
    GE_CHECK_EQ_INT(count_bad(&y, want, y.numel, 1e-5), 0);
    kh_free(&y);
    free(want);
    kh_free(&sizes);
    kt_free(&k);
  }
  kh_free(&x);
}

/* Resize-10 (X, scales) and Upsample: asymmetric, nearest by floor. */
GE_TEST(test_resize10_and_upsample) {
  int64_t xd[4] = {1, 1, 2, 3}, four = 4, yd[4] = {1, 1, 4, 7}, i, j;
  uint64_t seed = 97;
  ge_value x = rand_value(GE_DTYPE_FLOAT32, 4, xd, &seed), sc = kh_value(GE_DTYPE_FLOAT32, 1, &four, NULL), y, *in[2];
  double want[28], fl[4] = {1, 1, 2, 2.5};
  static const char *const ops[] = {"Resize", "Upsample", "Upsample"};
  int o, lin;
  for (i = 0; i < 4; i++) ((float *)sc.data)[i] = (float)fl[i];
  for (o = 0; o < 3; o++)
    for (lin = 0; lin < 2; lin++) {
      kt k;
      for (i = 0; i < 4; i++)
        for (j = 0; j < 7; j++) {
          double yi = i / 2.0, xj = j / 2.5;
          if (!lin) {
            want[i * 7 + j] = val(&x, (int64_t)floor(yi) * 3 + (int64_t)floor(xj));
          } else {
            int64_t y0 = (int64_t)floor(yi), x0 = (int64_t)floor(xj), y1 = y0 + 1 > 1 ? 1 : y0 + 1,
                    x1 = x0 + 1 > 2 ? 2 : x0 + 1;
            double fy = yi - (double)y0, fx = xj - (double)x0;
            want[i * 7 + j] = (1 - fy) * ((1 - fx) * val(&x, y0 * 3 + x0) + fx * val(&x, y0 * 3 + x1)) +
                              fy * ((1 - fx) * val(&x, y1 * 3 + x0) + fx * val(&x, y1 * 3 + x1));
          }
        }
      in[0] = &x;
      in[1] = &sc;
      GE_REQUIRE(kt_make(&k, ops[o], o == 2 ? 1 : 2, in, 1));
      kt_str(&k, "mode", lin ? "linear" : "nearest");
      if (o == 2) ge_node_set_attr_floats(k.g, k.id, "scales", fl, 4, &k.err); /* Upsample-7 */
      GE_CHECK_EQ_INT(kt_run(&k, in, o == 2 ? 1 : 2, &y, 1), GE_OK);
      GE_CHECK(same_shape(&y, 4, yd));
      if (GE_CHECK_EQ_INT(count_bad(&y, want, 28, 1e-5), 0) == 0)
        printf("    %s %d %s\n", ops[o], o, lin ? "linear" : "nearest");
      kh_free(&y);
      kt_free(&k);
    }
  kh_free(&x);
  kh_free(&sc);
}

GE_TEST(test_resize_errors) {
  int64_t xd[4] = {1, 1, 2, 2}, three = 3, four = 4;
  ge_value x = kh_value(GE_DTYPE_FLOAT32, 4, xd, NULL), s3 = kh_value(GE_DTYPE_FLOAT32, 1, &three, NULL);
  ge_value s4 = kh_value(GE_DTYPE_FLOAT32, 1, &four, NULL), z4 = kh_value(GE_DTYPE_INT64, 1, &four, NULL), *in[4];
  kt k;
  in[0] = &x;
  in[1] = NULL;
  in[2] = &s3; /* 3 scales for rank 4 */
  in[3] = NULL;
  GE_REQUIRE(kt_make(&k, "Resize", 4, in, 1));
  GE_CHECK_EQ_INT(kt_try(&k, in, 4, 1), GE_ERR_INVALID);
  in[2] = &s4; /* zero scales */
  GE_CHECK_EQ_INT(kt_try(&k, in, 4, 1), GE_ERR_INVALID);
  in[2] = NULL; /* neither */
  GE_CHECK_EQ_INT(kt_try(&k, in, 4, 1), GE_ERR_INVALID);
  in[3] = &z4; /* sizes of 0: an empty result is fine */
  GE_CHECK_EQ_INT(kt_try(&k, in, 4, 1), GE_OK);
  ((int64_t *)z4.data)[2] = -1;
  GE_CHECK_EQ_INT(kt_try(&k, in, 4, 1), GE_ERR_INVALID);
  kt_str(&k, "mode", "area");
  GE_CHECK_EQ_INT(kt_try(&k, in, 4, 1), GE_ERR_UNSUPPORTED);
  kt_str(&k, "mode", "linear");
  kt_str(&k, "coordinate_transformation_mode", "tf_crop_and_resize"); /* needs roi */
  ((int64_t *)z4.data)[2] = 3;
  GE_CHECK_EQ_INT(kt_try(&k, in, 4, 1), GE_ERR_INVALID);
  kt_free(&k);
  kh_free(&x);
  kh_free(&s3);
  kh_free(&s4);
  kh_free(&z4);
}

/* ------------------------------------------------------------ robustness */

/* Every kernel of the family on random inputs (ranks 0-4, empty dims,
 * mixed dtypes, absent inputs) and random attributes returns a status:
 * no crash, no out-of-bounds access (this runs under ASan in make test
 * SAN=1). */
GE_TEST(test_random_inputs_never_crash) {
  static const char *const ops[] = {"ArgMax",
                                    "ArgMin",
                                    "AveragePool",
                                    "BatchNormalization",
                                    "Conv",
                                    "ConvInteger",
                                    "ConvTranspose",
                                    "CumSum",
                                    "Det",
                                    "Einsum",
                                    "Gemm",
                                    "GlobalAveragePool",
                                    "GlobalLpPool",
                                    "GlobalMaxPool",
                                    "GroupNormalization",
                                    "Hardmax",
                                    "InstanceNormalization",
                                    "LRN",
                                    "LayerNormalization",
                                    "LogSoftmax",
                                    "LpNormalization",
                                    "LpPool",
                                    "MatMul",
                                    "MatMulInteger",
                                    "MaxPool",
                                    "MeanVarianceNormalization",
                                    "ReduceL1",
                                    "ReduceL2",
                                    "ReduceLogSum",
                                    "ReduceLogSumExp",
                                    "ReduceMax",
                                    "ReduceMean",
                                    "ReduceMin",
                                    "ReduceProd",
                                    "ReduceSum",
                                    "ReduceSumSquare",
                                    "Resize",
                                    "Softmax",
                                    "Upsample"};
  static const ge_dtype types[] = {GE_DTYPE_FLOAT32, GE_DTYPE_FLOAT16, GE_DTYPE_INT64,   GE_DTYPE_UINT8,
                                   GE_DTYPE_INT8,    GE_DTYPE_BOOL,    GE_DTYPE_FLOAT64, GE_DTYPE_INT32};
  static const char *const int_attrs[] = {"axis",
                                          "keepdims",
                                          "group",
                                          "p",
                                          "size",
                                          "num_groups",
                                          "transA",
                                          "transB",
                                          "select_last_index",
                                          "exclusive",
                                          "reverse",
                                          "noop_with_empty_axes",
                                          "training_mode",
                                          "ceil_mode",
                                          "count_include_pad",
                                          "storage_order",
                                          "exclude_outside",
                                          "antialias"};
  static const char *const ints_attrs[] = {"kernel_shape", "pads",           "strides",     "dilations",
                                           "axes",         "output_padding", "output_shape"};
  static const char *const str_attrs[][2] = {{"auto_pad", "SAME_UPPER"},
                                             {"auto_pad", "SAME_LOWER"},
                                             {"auto_pad", "VALID"},
                                             {"auto_pad", "bogus"},
                                             {"mode", "linear"},
                                             {"mode", "cubic"},
                                             {"mode", "nearest"},
                                             {"coordinate_transformation_mode", "tf_crop_and_resize"},
                                             {"coordinate_transformation_mode", "align_corners"},
                                             {"keep_aspect_ratio_policy", "not_larger"},
                                             {"nearest_mode", "ceil"},
                                             {"equation", "ij,jk->ik"},
                                             {"equation", "...ii->...i"},
                                             {"equation", "i,i"},
                                             {"equation", "a...b,...bc"},
                                             {"equation", "->"},
                                             {"equation", "ab,bc,cd"},
                                             {"equation", "...,..."}};
  uint64_t seed = 101;
  size_t o;
  int iter, runs = 0;
  for (o = 0; o < sizeof ops / sizeof ops[0]; o++)
    for (iter = 0; iter < 150; iter++) {
      ge_value v[5], *in[5];
      uint32_t n_in = 1 + (uint32_t)(lcg(&seed) % 5), n_out = 1 + (uint32_t)(lcg(&seed) % 3), i;
      ge_dtype base = types[lcg(&seed) % 8];
      int a, na = (int)(lcg(&seed) % 6);
      kt k;
      for (i = 0; i < n_in; i++) {
        int64_t dims[4], j;
        int32_t rank = (int32_t)(lcg(&seed) % 5);
        ge_dtype t = lcg(&seed) % 4 ? base : types[lcg(&seed) % 8];
        for (j = 0; j < 4; j++) dims[j] = lcg(&seed) % 8 ? 1 + (int64_t)(lcg(&seed) % 4) : 0;
        v[i] = kh_value(t, rank, dims, NULL);
        for (j = 0; j < v[i].numel; j++) {
          if (ge__hc_is_float(t))
            ge__hc_set_f(&v[i], j, rnd(&seed) * 3);
          else
            ge__hc_set_i(&v[i], j, (int64_t)(lcg(&seed) % 9) - 3);
        }
        in[i] = i > 0 && lcg(&seed) % 8 == 0 ? NULL : &v[i];
      }
      if (!kt_make(&k, ops[o], n_in, in, (int32_t)n_out)) {
        GE_CHECK(0);
        kt_free(&k);
        for (i = 0; i < n_in; i++) kh_free(&v[i]);
        continue;
      }
      for (a = 0; a < na; a++) {
        uint64_t kind = lcg(&seed) % 4;
        if (kind == 0)
          kt_int(&k, int_attrs[lcg(&seed) % (sizeof int_attrs / sizeof int_attrs[0])], (int64_t)(lcg(&seed) % 8) - 3);
        else if (kind == 1) {
          int64_t vals[6];
          int32_t cnt = (int32_t)(lcg(&seed) % 6), j;
          for (j = 0; j < cnt; j++) vals[j] = (int64_t)(lcg(&seed) % 8) - 2;
          kt_ints(&k, ints_attrs[lcg(&seed) % (sizeof ints_attrs / sizeof ints_attrs[0])], vals, cnt);
        } else if (kind == 2) {
          size_t s = lcg(&seed) % (sizeof str_attrs / sizeof str_attrs[0]);
          kt_str(&k, str_attrs[s][0], str_attrs[s][1]);
        } else
          kt_float(&k, lcg(&seed) % 2 ? "alpha" : "epsilon", rnd(&seed) * 2);
      }
      (void)kt_try(&k, in, n_in, n_out);
      runs++;
      kt_free(&k);
      for (i = 0; i < n_in; i++) kh_free(&v[i]);
    }
  GE_CHECK_EQ_INT(runs, (int)(sizeof ops / sizeof ops[0]) * 150);
}

/* Absurd sizes from attributes and inputs are errors, not allocations. */
GE_TEST(test_huge_shapes_rejected) {
  int64_t xd[4] = {1, 1, 2, 2}, ad[2] = {((int64_t)1) << 40, 0}, bd[2] = {0, ((int64_t)1) << 40}, four = 4;
  int64_t big[2] = {((int64_t)1) << 40, ((int64_t)1) << 40}, pads[4] = {((int64_t)1) << 50, 0, 0, 0}, ks[2] = {1, 1};
  ge_value x = kh_value(GE_DTYPE_FLOAT32, 4, xd, NULL), a = kh_value(GE_DTYPE_FLOAT32, 2, ad, NULL);
  ge_value b = kh_value(GE_DTYPE_FLOAT32, 2, bd, NULL), sz = kh_value(GE_DTYPE_INT64, 1, &four, NULL), *in[4];
  kt k;
  in[0] = &a; /* [2^40, 0] x [0, 2^40]: 2^80 outputs */
  in[1] = &b;
  GE_REQUIRE(kt_make(&k, "MatMul", 2, in, 1));
  GE_CHECK_EQ_INT(kt_try(&k, in, 2, 1), GE_ERR_SHAPE);
  kt_free(&k);
  in[0] = &x;
  in[1] = NULL;
  in[2] = NULL;
  in[3] = &sz;
  ((int64_t *)sz.data)[0] = 1;
  ((int64_t *)sz.data)[1] = 1;
  ((int64_t *)sz.data)[2] = big[0];
  ((int64_t *)sz.data)[3] = big[1];
  GE_REQUIRE(kt_make(&k, "Resize", 4, in, 1));
  GE_CHECK_EQ_INT(kt_try(&k, in, 4, 1), GE_ERR_SHAPE);
  kt_free(&k);
  in[1] = NULL;
  GE_REQUIRE(kt_make(&k, "MaxPool", 1, in, 1));
  kt_ints(&k, "kernel_shape", ks, 2);
  kt_ints(&k, "pads", pads, 4);
  GE_CHECK_EQ_INT(kt_try(&k, in, 1, 1), GE_ERR_INVALID);
  kt_free(&k);
  kh_free(&x);
  kh_free(&a);
  kh_free(&b);
  kh_free(&sz);
}

int main(int argc, char **argv) {
  ge_test_init(argc, argv);
  GE_RUN(test_matmul_shapes_and_dtypes);
  GE_RUN(test_matmul_int_exact);
  GE_RUN(test_matmul_errors);
  GE_RUN(test_matmulinteger_zero_points);
  GE_RUN(test_gemm_attributes_and_bias_shapes);
  GE_RUN(test_gemm_errors);
  GE_RUN(test_conv_against_definition);
  GE_RUN(test_conv_errors);
  GE_RUN(test_convtranspose_against_definition);
  GE_RUN(test_convtranspose_errors);
  GE_RUN(test_convinteger_zero_points);
  GE_RUN(test_maxpool_with_indices);
  GE_RUN(test_average_and_lp_pool);
  GE_RUN(test_global_pools);
  GE_RUN(test_pool_errors);
  GE_RUN(test_batchnorm_inference_and_training);
  GE_RUN(test_instance_norm);
  GE_RUN(test_layer_norm_axes_and_stats);
  GE_RUN(test_group_norm_per_group_and_channel);
  GE_RUN(test_lrn_mvn_lpnorm);
  GE_RUN(test_softmax_family_every_axis);
  GE_RUN(test_reductions_axes_keepdims_dtypes);
  GE_RUN(test_reductions_empty_axes_and_sets);
  GE_RUN(test_argmax_argmin);
  GE_RUN(test_cumsum_modes);
  GE_RUN(test_einsum_equations);
  GE_RUN(test_einsum_ellipsis_broadcast);
  GE_RUN(test_einsum_errors);
  GE_RUN(test_det_batched);
  GE_RUN(test_resize_align_corners_output_length);
  GE_RUN(test_resize_against_reference);
  GE_RUN(test_resize_axes_and_aspect_policy);
  GE_RUN(test_resize10_and_upsample);
  GE_RUN(test_resize_errors);
  GE_RUN(test_random_inputs_never_crash);
  GE_RUN(test_huge_shapes_rejected);
  return ge_test_main_end();
}

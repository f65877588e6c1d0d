/* Element-wise kernels of the host CPU engine (ge_engines/host_cpu.h):
 * arithmetic with broadcasting in every dtype family, variadic folds,
 * comparisons, logical/bitwise ops, Where, Clip, unary math and
 * activations, Cast, Identity, Dropout, and errors on bad input. Expected
 * values are computed here independently (index arithmetic for
 * broadcasting, libm in double, exact integer arithmetic). */
#define GE_HOST_CPU_IMPLEMENTATION /* its private ge__hc_*; the rest from libge.a */
#include "ge_engines/host_cpu.h"
#include "tests/test.h"
#include "tests/kernel_harness.h"

#include <stdlib.h>

/* ------------------------------------------------------------ helpers */


static ge_status kt_run(kt *t, ge_value **in, uint32_t n_in, ge_value *out, uint32_t n_out) {
  ge_kernel_fn fn = ge_host_cpu_kernel(ge_graph_node(t->g, t->id));
  memset(&t->err, 0, sizeof t->err);
  if (!fn) return GE_ERR_NOT_FOUND;
  return kh_run(fn, t->g, t->id, in, n_in, out, n_out, &t->err);
}


/* Runs op on inputs (one output into *out, zeroed first). */
static ge_status run_op(const char *op, uint32_t n_in, ge_value **in, ge_value *out) {
  kt t;
  ge_status s;
  memset(out, 0, sizeof *out);
  if (!kt_make(&t, op, n_in, in, 1)) {
    kt_free(&t);
    return GE_ERR_INTERNAL;
  }
  s = kt_run(&t, in, n_in, out, 1);
  kt_free(&t);
  return s;
}

static ge_status run2(const char *op, ge_value *a, ge_value *b, ge_value *out) {
  ge_value *in[2];
  in[0] = a;
  in[1] = b;
  return run_op(op, 2, in, out);
}

static ge_status run1(const char *op, ge_value *a, ge_value *out) { return run_op(op, 1, &a, out); }

/* Offset of the element of v that output index idx (rank r) reads under
 * numpy broadcasting, computed directly from v's dims. */
static int64_t bc_off(const ge_value *v, int32_t r, const int64_t *idx) {
  int64_t off = 0;
  int32_t k;
  for (k = 0; k < v->rank; k++) {
    int64_t d = v->dims[k] == 1 ? 0 : idx[k + (r - v->rank)];
    off = off * v->dims[k] + d;
  }
  return off;
}

/* Advances a row-major multi-index; 0 when it wraps. */
static int next_idx(int64_t *idx, int32_t r, const int64_t *dims) {
  int32_t d;
  for (d = r - 1; d >= 0; d--) {
    if (++idx[d] < dims[d]) return 1;
    idx[d] = 0;
  }
  return 0;
}

static float F(const ge_value *v, int64_t i) { return ((const float *)v->data)[i]; }
static double D(const ge_value *v, int64_t i) { return ((const double *)v->data)[i]; }
static int64_t I64(const ge_value *v, int64_t i) { return ((const int64_t *)v->data)[i]; }
static uint64_t U64(const ge_value *v, int64_t i) { return ((const uint64_t *)v->data)[i]; }
static int32_t I32(const ge_value *v, int64_t i) { return ((const int32_t *)v->data)[i]; }
static uint8_t U8(const ge_value *v, int64_t i) { return ((const uint8_t *)v->data)[i]; }
static uint16_t U16(const ge_value *v, int64_t i) { return ((const uint16_t *)v->data)[i]; }

static int is_nan(double x) { return x != x; }

static uint64_t lcg(uint64_t *s) {
  *s = *s * 6364136223846793005ull + 1442695040888963407ull;
  return *s >> 33;
}

static const int64_t D1[1] = {1};

/* ------------------------------------------- broadcasting, arithmetic */

/* Add/Sub/Mul/Div on float32 over a set of broadcasting shape pairs,
 * checked element by element against direct index arithmetic. */
GE_TEST(test_float32_broadcast_shapes) {
  static const int32_t ra[] = {3, 3, 4, 2, 0, 1, 4};
  static const int64_t da[][4] = {{3, 4, 5}, {3, 4, 5}, {1, 4, 1, 6}, {2, 3}, {0}, {5}, {2, 1, 3, 1}};
  static const int32_t rb[] = {3, 1, 4, 0, 2, 3, 3};
  static const int64_t db[][4] = {{3, 4, 5}, {5}, {3, 1, 5, 6}, {0}, {2, 3}, {3, 4, 1}, {4, 1, 5}};
  static const char *ops[] = {"Add", "Sub", "Mul", "Div"};
  size_t c, o;
  for (c = 0; c < sizeof ra / sizeof ra[0]; c++) {
    for (o = 0; o < 4; o++) {
      ge_value a = kh_value(GE_DTYPE_FLOAT32, ra[c], da[c], NULL), b = kh_value(GE_DTYPE_FLOAT32, rb[c], db[c], NULL), y;
      int64_t i, idx[GE_MAX_RANK], n = 0;
      int bad = 0;
      for (i = 0; i < a.numel; i++) ((float *)a.data)[i] = (float)(i % 7) - 2.5f;
      for (i = 0; i < b.numel; i++) ((float *)b.data)[i] = (float)(i % 5) + 0.5f;
      GE_CHECK_EQ_INT(run2(ops[o], &a, &b, &y), GE_OK);
      if (y.data) {
        GE_CHECK_EQ_INT(y.dtype, GE_DTYPE_FLOAT32);
        GE_CHECK_EQ_INT(y.rank, ra[c] > rb[c] ? ra[c] : rb[c]);
        memset(idx, 0, sizeof idx);
        do {
          float x = F(&a, bc_off(&a, y.rank, idx)), z = F(&b, bc_off(&b, y.rank, idx));
          float want = o == 0 ? x + z : o == 1 ? x - z : o == 2 ? x * z : x / z;
          if (F(&y, n) != want) bad++;
          n++;
        } while (next_idx(idx, y.rank, y.dims));
        GE_CHECK_EQ_INT(n, y.numel);
        GE_CHECK_EQ_INT(bad, 0);
      }
      kh_free(&a);
      kh_free(&b);
      kh_free(&y);
    }
  }
}

/* Random shapes (rank <= 5, dims from {1,2,3}, operands dropping leading
 * dims or using 1s) for Add in float64, int64, int32, uint8 and float16:
 * exercises the dimension merging of the walk. */
GE_TEST(test_random_broadcast_all_dtypes) {
  static const ge_dtype dts[] = {GE_DTYPE_FLOAT64, GE_DTYPE_INT64, GE_DTYPE_INT32, GE_DTYPE_UINT8, GE_DTYPE_FLOAT16,
                                 GE_DTYPE_UINT64, GE_DTYPE_INT16};
  uint64_t seed = 12345;
  int iter, bad = 0;
  for (iter = 0; iter < 400; iter++) {
    ge_dtype dt = dts[iter % 7];
    int32_t r = (int32_t)(lcg(&seed) % 6), i, ra, rb;
    int64_t full[GE_MAX_RANK], da[GE_MAX_RANK], db[GE_MAX_RANK], idx[GE_MAX_RANK], k, n = 0;
    ge_value a, b, y;
    for (i = 0; i < r; i++) full[i] = 1 + (int64_t)(lcg(&seed) % 3);
    ra = r - (int32_t)(lcg(&seed) % (uint64_t)(r + 1));
    rb = r - (int32_t)(lcg(&seed) % (uint64_t)(r + 1));
    if (lcg(&seed) % 2) ra = r;
    else rb = r;
    for (i = 0; i < ra; i++) da[i] = lcg(&seed) % 3 == 0 ? 1 : full[i + r - ra];
    for (i = 0; i < rb; i++) db[i] = lcg(&seed) % 3 == 0 ? 1 : full[i + r - rb];
    a = kh_value(dt, ra, da, NULL);
    b = kh_value(dt, rb, db, NULL);
    for (k = 0; k < a.numel; k++) ge__hc_set_i(&a, k, (int64_t)(lcg(&seed) % 50));
    for (k = 0; k < b.numel; k++) ge__hc_set_i(&b, k, (int64_t)(lcg(&seed) % 50));
    GE_CHECK_EQ_INT(run2("Add", &a, &b, &y), GE_OK);
    if (!y.data) bad++;
    else {
      memset(idx, 0, sizeof idx);
      do {
        int64_t want = ge__hc_get_i(&a, bc_off(&a, y.rank, idx)) + ge__hc_get_i(&b, bc_off(&b, y.rank, idx));
        if (ge__hc_get_i(&y, n) != want) bad++;
        n++;
      } while (y.rank > 0 && next_idx(idx, y.rank, y.dims));
      if (n != y.numel) bad++;
    }
    kh_free(&a);
    kh_free(&b);
    kh_free(&y);
  }
  GE_CHECK_EQ_INT(bad, 0);
}

GE_TEST(test_int64_exact_beyond_2p53) {
  const int64_t big = 9007199254740993LL; /* 2^53 + 1: not a double */
  int64_t av[4] = {big, INT64_MAX, INT64_MIN, -7}, bv[4] = {2, 1, -1, 2};
  int64_t d4[1] = {4};
  ge_value a = kh_value(GE_DTYPE_INT64, 1, d4, av), b = kh_value(GE_DTYPE_INT64, 1, d4, bv), y;
  GE_REQUIRE(run2("Add", &a, &b, &y) == GE_OK);
  GE_CHECK(I64(&y, 0) == 9007199254740995LL);
  GE_CHECK(I64(&y, 1) == INT64_MIN); /* wraps, no UB */
  GE_CHECK(I64(&y, 2) == INT64_MAX);
  kh_free(&y);
  GE_REQUIRE(run2("Mul", &a, &b, &y) == GE_OK);
  GE_CHECK(I64(&y, 0) == 18014398509481986LL);
  GE_CHECK(I64(&y, 2) == INT64_MIN); /* INT64_MIN * -1 wraps */
  kh_free(&y);
  GE_REQUIRE(run2("Div", &a, &b, &y) == GE_OK);
  GE_CHECK(I64(&y, 0) == 4503599627370496LL);
  GE_CHECK(I64(&y, 1) == INT64_MAX);
  GE_CHECK(I64(&y, 2) == INT64_MIN); /* INT64_MIN / -1: no trap */
  GE_CHECK(I64(&y, 3) == -3);        /* truncates toward zero */
  kh_free(&y);
  GE_REQUIRE(run2("Sub", &a, &b, &y) == GE_OK);
  GE_CHECK(I64(&y, 0) == 9007199254740991LL);
  kh_free(&y);
  kh_free(&a);
  kh_free(&b);
}

GE_TEST(test_integer_division_and_wrap) {
  int32_t a32[6] = {7, -7, 7, -7, 5, INT32_MIN}, b32[6] = {2, 2, -2, -2, 0, -1};
  uint8_t a8[3] = {200, 3, 7}, b8[3] = {100, 5, 0};
  int16_t a16[2] = {-32768, 100}, b16[2] = {-1, -7};
  uint64_t au[2] = {18446744073709551615ull, 9223372036854775809ull}, bu[2] = {2, 3};
  int64_t d6[1] = {6}, d3[1] = {3}, d2[1] = {2};
  ge_value a = kh_value(GE_DTYPE_INT32, 1, d6, a32), b = kh_value(GE_DTYPE_INT32, 1, d6, b32), y;
  GE_REQUIRE(run2("Div", &a, &b, &y) == GE_OK);
  GE_CHECK_EQ_INT(I32(&y, 0), 3);
  GE_CHECK_EQ_INT(I32(&y, 1), -3);
  GE_CHECK_EQ_INT(I32(&y, 2), -3);
  GE_CHECK_EQ_INT(I32(&y, 3), 3);
  GE_CHECK_EQ_INT(I32(&y, 4), 0); /* x/0 = 0, no trap */
  GE_CHECK_EQ_INT(I32(&y, 5), INT32_MIN);
  kh_free(&y);
  kh_free(&a);
  kh_free(&b);
  a = kh_value(GE_DTYPE_UINT8, 1, d3, a8);
  b = kh_value(GE_DTYPE_UINT8, 1, d3, b8);
  GE_REQUIRE(run2("Add", &a, &b, &y) == GE_OK);
  GE_CHECK_EQ_INT(U8(&y, 0), 44); /* 300 mod 256 */
  kh_free(&y);
  GE_REQUIRE(run2("Sub", &a, &b, &y) == GE_OK);
  GE_CHECK_EQ_INT(U8(&y, 1), 254);
  kh_free(&y);
  GE_REQUIRE(run2("Div", &a, &b, &y) == GE_OK);
  GE_CHECK_EQ_INT(U8(&y, 0), 2);
  GE_CHECK_EQ_INT(U8(&y, 2), 0);
  kh_free(&y);
  kh_free(&a);
  kh_free(&b);
  a = kh_value(GE_DTYPE_INT16, 1, d2, a16);
  b = kh_value(GE_DTYPE_INT16, 1, d2, b16);
  GE_REQUIRE(run2("Div", &a, &b, &y) == GE_OK);
  GE_CHECK_EQ_INT(((int16_t *)y.data)[0], -32768); /* wraps back into int16 */
  GE_CHECK_EQ_INT(((int16_t *)y.data)[1], -14);
  kh_free(&y);
  kh_free(&a);
  kh_free(&b);
  a = kh_value(GE_DTYPE_UINT64, 1, d2, au);
  b = kh_value(GE_DTYPE_UINT64, 1, d2, bu);
  GE_REQUIRE(run2("Div", &a, &b, &y) == GE_OK);
  GE_CHECK(U64(&y, 0) == 9223372036854775807ull);
  GE_CHECK(U64(&y, 1) == 3074457345618258603ull);
  kh_free(&y);
  GE_REQUIRE(run2("Sub", &a, &b, &y) == GE_OK);
  GE_CHECK(U64(&y, 0) == 18446744073709551613ull);
  kh_free(&y);
  kh_free(&a);
  kh_free(&b);
}

/* float16 and bfloat16 compute in float and round once, to nearest even. */
GE_TEST(test_half_rounding) {
  /* 1+2^-10 + 2^-11 = tie -> even 1+2^-9; 1 + 2^-11 = tie -> 1; 65504 + 16 = 65520 -> inf; 1 + -1 = 0 */
  uint16_t ha[4] = {0x3C01, 0x3C00, 0x7BFF, 0x3C00}, hb[4] = {0x1000, 0x1000, 0x4C00, 0xBC00};
  uint16_t ba[2] = {0x3F81, 0x7F7F}, bb[2] = {0x3F81, 0x4000};
  int64_t d4[1] = {4}, d2[1] = {2};
  ge_value a = kh_value(GE_DTYPE_FLOAT16, 1, d4, ha), b = kh_value(GE_DTYPE_FLOAT16, 1, d4, hb), y;
  GE_REQUIRE(run2("Add", &a, &b, &y) == GE_OK);
  GE_CHECK_EQ_INT(y.dtype, GE_DTYPE_FLOAT16);
  GE_CHECK_EQ_INT(U16(&y, 0), 0x3C02);
  GE_CHECK_EQ_INT(U16(&y, 1), 0x3C00);
  GE_CHECK_EQ_INT(U16(&y, 2), 0x7C00);
  GE_CHECK_EQ_INT(U16(&y, 3), 0x0000);
  kh_free(&y);
  kh_free(&a);
  kh_free(&b);
  a = kh_value(GE_DTYPE_BFLOAT16, 1, d2, ba);
  b = kh_value(GE_DTYPE_BFLOAT16, 1, d2, bb);
  GE_REQUIRE(run2("Mul", &a, &b, &y) == GE_OK);
  GE_CHECK_EQ_INT(U16(&y, 0), 0x3F82); /* (1+2^-7)^2 = 1+2^-6+2^-14 -> 1+2^-6 */
  GE_CHECK_EQ_INT(U16(&y, 1), 0x7F80); /* max * 2 -> inf */
  kh_free(&y);
  kh_free(&a);
  kh_free(&b);
}

GE_TEST(test_float_nan_inf_arithmetic) {
  double av[4] = {1.0, -1.0, 0.0, HUGE_VAL}, bv[4] = {0.0, 0.0, 0.0, HUGE_VAL};
  int64_t d4[1] = {4};
  ge_value a = kh_value(GE_DTYPE_FLOAT64, 1, d4, av), b = kh_value(GE_DTYPE_FLOAT64, 1, d4, bv), y;
  GE_REQUIRE(run2("Div", &a, &b, &y) == GE_OK);
  GE_CHECK(D(&y, 0) == HUGE_VAL);
  GE_CHECK(D(&y, 1) == -HUGE_VAL);
  GE_CHECK(is_nan(D(&y, 2)));
  GE_CHECK(is_nan(D(&y, 3)));
  kh_free(&y);
  GE_REQUIRE(run2("Sub", &a, &b, &y) == GE_OK);
  GE_CHECK(is_nan(D(&y, 3)));
  kh_free(&y);
  kh_free(&a);
  kh_free(&b);
}

/* ------------------------------------------------------------- Pow */

GE_TEST(test_pow_types) {
  float xf[3] = {2.0f, -2.0f, 9.0f};
  int64_t ei[3] = {10, 3, -1}, xi[4] = {2, -8, 9, 3}, d3[1] = {3}, d4[1] = {4};
  float ef[4] = {0.5f, 0.3333333f, 0.5f, 39.0f};
  int64_t bi[5] = {3, 2, -1, 1, 0}, ebi[5] = {39, -1, -3, -5, 0}, d5[1] = {5};
  int32_t b32[3] = {2, 3, -2}, e32[3] = {31, 21, 2};
  ge_value a = kh_value(GE_DTYPE_FLOAT32, 1, d3, xf), b = kh_value(GE_DTYPE_INT64, 1, d3, ei), y;
  GE_REQUIRE(run2("Pow", &a, &b, &y) == GE_OK); /* float ^ int -> float */
  GE_CHECK_EQ_INT(y.dtype, GE_DTYPE_FLOAT32);
  GE_CHECK(F(&y, 0) == 1024.0f);
  GE_CHECK(F(&y, 1) == -8.0f);
  GE_CHECK_NEAR(F(&y, 2), 1.0 / 9.0, 1e-7);
  kh_free(&y);
  kh_free(&a);
  kh_free(&b);
  a = kh_value(GE_DTYPE_INT64, 1, d4, xi);
  b = kh_value(GE_DTYPE_FLOAT32, 1, d4, ef);
  GE_REQUIRE(run2("Pow", &a, &b, &y) == GE_OK); /* int ^ float -> int, truncated */
  GE_CHECK_EQ_INT(y.dtype, GE_DTYPE_INT64);
  GE_CHECK_EQ_INT(I64(&y, 0), 1);           /* sqrt(2) = 1.41 */
  GE_CHECK_EQ_INT(I64(&y, 1), 0);           /* (-8)^(1/3) = NaN -> 0 */
  GE_CHECK_EQ_INT(I64(&y, 2), 3);
  kh_free(&y);
  kh_free(&a);
  kh_free(&b);
  a = kh_value(GE_DTYPE_INT64, 1, d5, bi);
  b = kh_value(GE_DTYPE_INT64, 1, d5, ebi);
  GE_REQUIRE(run2("Pow", &a, &b, &y) == GE_OK); /* exact integer power */
  GE_CHECK(I64(&y, 0) == 4052555153018976267LL); /* 3^39, beyond 2^53 */
  GE_CHECK_EQ_INT(I64(&y, 1), 0);
  GE_CHECK_EQ_INT(I64(&y, 2), -1);
  GE_CHECK_EQ_INT(I64(&y, 3), 1);
  GE_CHECK_EQ_INT(I64(&y, 4), 1);
  kh_free(&y);
  kh_free(&a);
  kh_free(&b);
  a = kh_value(GE_DTYPE_INT32, 1, d3, b32);
  b = kh_value(GE_DTYPE_INT32, 1, d3, e32);
  GE_REQUIRE(run2("Pow", &a, &b, &y) == GE_OK);
  GE_CHECK_EQ_INT(I32(&y, 0), INT32_MIN); /* 2^31 wraps */
  GE_CHECK_EQ_INT(I32(&y, 2), 4);
  kh_free(&y);
  kh_free(&a);
  kh_free(&b);
  b = kh_value(GE_DTYPE_INT32, 0, NULL, e32); /* scalar exponent, mixed int64 ^ int32 */
  a = kh_value(GE_DTYPE_INT64, 1, d5, bi);
  GE_REQUIRE(run2("Pow", &a, &b, &y) == GE_OK);
  GE_CHECK_EQ_INT(y.rank, 1);
  GE_CHECK(I64(&y, 0) == 617673396283947LL); /* 3^31 */
  GE_CHECK(I64(&y, 1) == 2147483648LL);
  kh_free(&y);
  kh_free(&a);
  kh_free(&b);
}

/* ------------------------------------------------------------- Mod */

GE_TEST(test_mod) {
  int64_t xa[6] = {-4, 4, -4, 4, 5, INT64_MIN}, xb[6] = {3, -3, -3, 3, 0, -1}, d6[1] = {6}, d4[1] = {4}, d2[1] = {2};
  double fa[4] = {-4.5, 4.5, 6.0, -6.0}, fb[4] = {2.0, -2.0, 3.0, 3.0};
  int8_t ia8[2] = {-128, 100}, ib8[2] = {3, -7};
  ge_value a = kh_value(GE_DTYPE_INT64, 1, d6, xa), b = kh_value(GE_DTYPE_INT64, 1, d6, xb), y;
  ge_value *in[2];
  kt t;
  GE_REQUIRE(run2("Mod", &a, &b, &y) == GE_OK); /* sign follows the divisor */
  GE_CHECK_EQ_INT(I64(&y, 0), 2);
  GE_CHECK_EQ_INT(I64(&y, 1), -2);
  GE_CHECK_EQ_INT(I64(&y, 2), -1);
  GE_CHECK_EQ_INT(I64(&y, 3), 1);
  GE_CHECK_EQ_INT(I64(&y, 4), 0);
  GE_CHECK_EQ_INT(I64(&y, 5), 0);
  kh_free(&y);
  in[0] = &a;
  in[1] = &b;
  GE_REQUIRE(kt_make(&t, "Mod", 2, in, 1));
  ge_node_set_attr_int(t.g, t.id, "fmod", 1, NULL);
  memset(&y, 0, sizeof y);
  GE_REQUIRE(kt_run(&t, in, 2, &y, 1) == GE_OK); /* sign follows the dividend */
  GE_CHECK_EQ_INT(I64(&y, 0), -1);
  GE_CHECK_EQ_INT(I64(&y, 1), 1);
  GE_CHECK_EQ_INT(I64(&y, 2), -1);
  kh_free(&y);
  ge_node_set_attr_int(t.g, t.id, "fmod", 2, NULL);
  GE_CHECK_EQ_INT(kt_run(&t, in, 2, &y, 1), GE_ERR_INVALID);
  kh_free(&y);
  kt_free(&t);
  kh_free(&a);
  kh_free(&b);
  a = kh_value(GE_DTYPE_FLOAT64, 1, d4, fa);
  b = kh_value(GE_DTYPE_FLOAT64, 1, d4, fb);
  GE_REQUIRE(run2("Mod", &a, &b, &y) == GE_OK); /* fmod=0 on floats: numpy mod */
  GE_CHECK(D(&y, 0) == 1.5);
  GE_CHECK(D(&y, 1) == -1.5);
  GE_CHECK(D(&y, 2) == 0.0);
  kh_free(&y);
  GE_REQUIRE(kt_make(&t, "Mod", 2, in, 1));
  ge_node_set_attr_int(t.g, t.id, "fmod", 1, NULL);
  GE_REQUIRE(kt_run(&t, in, 2, &y, 1) == GE_OK);
  GE_CHECK(D(&y, 0) == -0.5);
  GE_CHECK(D(&y, 1) == 0.5);
  kh_free(&y);
  kt_free(&t);
  kh_free(&a);
  kh_free(&b);
  a = kh_value(GE_DTYPE_INT8, 1, d2, ia8);
  b = kh_value(GE_DTYPE_INT8, 1, d2, ib8);
  GE_REQUIRE(run2("Mod", &a, &b, &y) == GE_OK);
  GE_CHECK_EQ_INT(((int8_t *)y.data)[0], 1);  /* -128 = -43*3 + 1 */
  GE_CHECK_EQ_INT(((int8_t *)y.data)[1], -5); /* 100 = -15*-7 - 5 */
  kh_free(&y);
  kh_free(&a);
  kh_free(&b);
}

/* --------------------------------------------------------- BitShift */

GE_TEST(test_bitshift) {
  uint8_t x8[3] = {200, 1, 255}, s8[3] = {1, 9, 7};
  uint64_t x64[3] = {1, 1, 0x8000000000000000ull}, s64[3] = {63, 64, 63};
  int32_t i32[1] = {1};
  int64_t d3[1] = {3};
  ge_value a = kh_value(GE_DTYPE_UINT8, 1, d3, x8), b = kh_value(GE_DTYPE_UINT8, 1, d3, s8), y;
  ge_value *in[2];
  kt t;
  in[0] = &a;
  in[1] = &b;
  GE_REQUIRE(kt_make(&t, "BitShift", 2, in, 1));
  memset(&y, 0, sizeof y);
  GE_CHECK_EQ_INT(kt_run(&t, in, 2, &y, 1), GE_ERR_INVALID); /* no direction */
  ge_node_set_attr_string(t.g, t.id, "direction", "LEFT", NULL);
  GE_REQUIRE(kt_run(&t, in, 2, &y, 1) == GE_OK);
  GE_CHECK_EQ_INT(U8(&y, 0), 144);
  GE_CHECK_EQ_INT(U8(&y, 1), 0);
  GE_CHECK_EQ_INT(U8(&y, 2), 128);
  ge_node_set_attr_string(t.g, t.id, "direction", "RIGHT", NULL);
  GE_REQUIRE(kt_run(&t, in, 2, &y, 1) == GE_OK);
  GE_CHECK_EQ_INT(U8(&y, 0), 100);
  GE_CHECK_EQ_INT(U8(&y, 1), 0);
  GE_CHECK_EQ_INT(U8(&y, 2), 1);
  ge_node_set_attr_string(t.g, t.id, "direction", "UP", NULL);
  GE_CHECK_EQ_INT(kt_run(&t, in, 2, &y, 1), GE_ERR_INVALID);
  kh_free(&y);
  kh_free(&a);
  kh_free(&b);
  a = kh_value(GE_DTYPE_UINT64, 1, d3, x64);
  b = kh_value(GE_DTYPE_UINT64, 1, d3, s64);
  ge_node_set_attr_string(t.g, t.id, "direction", "LEFT", NULL);
  GE_REQUIRE(kt_run(&t, in, 2, &y, 1) == GE_OK);
  GE_CHECK(U64(&y, 0) == 0x8000000000000000ull);
  GE_CHECK(U64(&y, 1) == 0); /* shift by >= 64: 0, no UB */
  ge_node_set_attr_string(t.g, t.id, "direction", "RIGHT", NULL);
  GE_REQUIRE(kt_run(&t, in, 2, &y, 1) == GE_OK);
  GE_CHECK(U64(&y, 2) == 1);
  kh_free(&y);
  kh_free(&a);
  kh_free(&b);
  a = kh_value(GE_DTYPE_INT32, 1, D1, i32);
  b = kh_value(GE_DTYPE_INT32, 1, D1, i32);
  GE_CHECK_EQ_INT(kt_run(&t, in, 2, &y, 1), GE_ERR_UNSUPPORTED); /* signed */
  kh_free(&y);
  kh_free(&a);
  kh_free(&b);
  kt_free(&t);
}

/* ------------------------------------------------------------ PRelu */

GE_TEST(test_prelu) {
  int64_t dx[3] = {2, 3, 4}, d4[1] = {4}, d3[1] = {3}, d5[1] = {5}, i, idx[3] = {0, 0, 0};
  float s4[4] = {0.1f, 0.2f, 0.3f, 0.4f}, s3[3] = {0.5f, 1.5f, 2.5f};
  int32_t xi[4] = {-3, 4, -5, 0}, si[1] = {2};
  ge_value x = kh_value(GE_DTYPE_FLOAT32, 3, dx, NULL), s = kh_value(GE_DTYPE_FLOAT32, 1, d4, s4), y;
  int bad = 0;
  for (i = 0; i < x.numel; i++) ((float *)x.data)[i] = (float)(i - 12);
  GE_REQUIRE(run2("PRelu", &x, &s, &y) == GE_OK); /* slope along the last axis */
  for (i = 0; i < x.numel; i++) {
    float v = F(&x, i), want = v < 0 ? v * s4[i % 4] : v;
    if (F(&y, i) != want) bad++;
  }
  GE_CHECK_EQ_INT(bad, 0);
  kh_free(&y);
  kh_free(&s);
  s = kh_value(GE_DTYPE_FLOAT32, 1, d3, s3); /* [C] per channel (opset < 7) */
  GE_REQUIRE(run2("PRelu", &x, &s, &y) == GE_OK);
  for (i = 0; i < x.numel; i++) {
    float v = F(&x, i), want = v < 0 ? v * s3[idx[1]] : v;
    if (F(&y, i) != want) bad++;
    next_idx(idx, 3, dx);
  }
  GE_CHECK_EQ_INT(bad, 0);
  kh_free(&y);
  kh_free(&s);
  s = kh_value(GE_DTYPE_FLOAT32, 1, d5, NULL);
  GE_CHECK_EQ_INT(run2("PRelu", &x, &s, &y), GE_ERR_SHAPE);
  kh_free(&s);
  {
    int64_t big[4] = {2, 2, 3, 4};
    s = kh_value(GE_DTYPE_FLOAT32, 4, big, NULL); /* slope larger than x */
    GE_CHECK_EQ_INT(run2("PRelu", &x, &s, &y), GE_ERR_SHAPE);
    kh_free(&s);
  }
  kh_free(&x);
  x = kh_value(GE_DTYPE_INT32, 1, d4, xi);
  s = kh_value(GE_DTYPE_INT32, 0, NULL, si);
  GE_REQUIRE(run2("PRelu", &x, &s, &y) == GE_OK);
  GE_CHECK_EQ_INT(I32(&y, 0), -6);
  GE_CHECK_EQ_INT(I32(&y, 1), 4);
  GE_CHECK_EQ_INT(I32(&y, 2), -10);
  kh_free(&y);
  kh_free(&x);
  kh_free(&s);
}

/* ------------------------------------------------ Max/Min/Sum/Mean */

GE_TEST(test_variadic_broadcast) {
  int64_t d3[1] = {3}, d21[2] = {2, 1};
  float a3[3] = {1, 5, -2}, b21[2] = {0, 4}, c0[1] = {3};
  ge_value a = kh_value(GE_DTYPE_FLOAT32, 1, d3, a3), b = kh_value(GE_DTYPE_FLOAT32, 2, d21, b21);
  ge_value c = kh_value(GE_DTYPE_FLOAT32, 0, NULL, c0), y, *in[3];
  static const char *ops[] = {"Max", "Min", "Sum", "Mean"};
  int o, i, j;
  in[0] = &a;
  in[1] = &b;
  in[2] = &c;
  for (o = 0; o < 4; o++) {
    GE_REQUIRE(run_op(ops[o], 3, in, &y) == GE_OK);
    GE_CHECK_EQ_INT(y.rank, 2);
    GE_CHECK_EQ_INT(y.dims[0], 2);
    GE_CHECK_EQ_INT(y.dims[1], 3);
    for (i = 0; i < 2; i++)
      for (j = 0; j < 3; j++) {
        float p = a3[j], q = b21[i], r = c0[0], want;
        if (o == 0) want = p > q ? (p > r ? p : r) : (q > r ? q : r);
        else if (o == 1) want = p < q ? (p < r ? p : r) : (q < r ? q : r);
        else if (o == 2) want = p + q + r;
        else want = (p + q + r) / 3;
        GE_CHECK_NEAR(F(&y, i * 3 + j), want, 1e-6);
      }
    kh_free(&y);
  }
  GE_REQUIRE(run_op("Max", 1, in, &y) == GE_OK); /* one input: a copy */
  GE_CHECK(F(&y, 1) == 5.0f);
  kh_free(&y);
  GE_CHECK_EQ_INT(run_op("Max", 0, in, &y), GE_ERR_INVALID);
  kh_free(&y);
  in[1] = NULL;
  GE_CHECK_EQ_INT(run_op("Sum", 3, in, &y), GE_ERR_INVALID);
  kh_free(&y);
  kh_free(&a);
  kh_free(&b);
  kh_free(&c);
}

GE_TEST(test_max_min_nan_and_ints) {
  float an[3] = {NAN, 1.0f, 2.0f}, bn[3] = {1.0f, NAN, -HUGE_VALF};
  int64_t ai[2] = {9007199254740993LL, -5}, bi[2] = {9007199254740992LL, -6}, d3[1] = {3}, d2[1] = {2};
  uint64_t au[2] = {9223372036854775809ull, 1}, bu[2] = {1, 18446744073709551615ull};
  ge_value a = kh_value(GE_DTYPE_FLOAT32, 1, d3, an), b = kh_value(GE_DTYPE_FLOAT32, 1, d3, bn), y;
  GE_REQUIRE(run2("Max", &a, &b, &y) == GE_OK); /* NaN propagates (numpy maximum) */
  GE_CHECK(is_nan(F(&y, 0)));
  GE_CHECK(is_nan(F(&y, 1)));
  GE_CHECK(F(&y, 2) == 2.0f);
  kh_free(&y);
  GE_REQUIRE(run2("Min", &a, &b, &y) == GE_OK);
  GE_CHECK(is_nan(F(&y, 0)));
  GE_CHECK(is_nan(F(&y, 1)));
  GE_CHECK(F(&y, 2) == -HUGE_VALF);
  kh_free(&y);
  kh_free(&a);
  kh_free(&b);
  a = kh_value(GE_DTYPE_INT64, 1, d2, ai);
  b = kh_value(GE_DTYPE_INT64, 1, d2, bi);
  GE_REQUIRE(run2("Max", &a, &b, &y) == GE_OK);
  GE_CHECK(I64(&y, 0) == 9007199254740993LL);
  GE_CHECK(I64(&y, 1) == -5);
  kh_free(&y);
  kh_free(&a);
  kh_free(&b);
  a = kh_value(GE_DTYPE_UINT64, 1, d2, au);
  b = kh_value(GE_DTYPE_UINT64, 1, d2, bu);
  GE_REQUIRE(run2("Max", &a, &b, &y) == GE_OK); /* unsigned compare above 2^63 */
  GE_CHECK(U64(&y, 0) == 9223372036854775809ull);
  GE_CHECK(U64(&y, 1) == 18446744073709551615ull);
  kh_free(&y);
  GE_REQUIRE(run2("Min", &a, &b, &y) == GE_OK);
  GE_CHECK(U64(&y, 0) == 1);
  GE_CHECK(U64(&y, 1) == 1);
  kh_free(&y);
  kh_free(&a);
  kh_free(&b);
}

/* An executor may hand a kernel output storage shared with an input of
 * the same shape (in-place): the fold must still read every input. */
GE_TEST(test_variadic_output_aliases_input) {
  int64_t d3[1] = {3};
  float a3[3] = {1, 2, 3}, b3[3] = {10, 20, 30}, c3[3] = {100, 200, 300};
  ge_value a = kh_value(GE_DTYPE_FLOAT32, 1, d3, a3), b = kh_value(GE_DTYPE_FLOAT32, 1, d3, b3);
  ge_value c = kh_value(GE_DTYPE_FLOAT32, 1, d3, c3), y, *in[3];
  kt t;
  in[0] = &a;
  in[1] = &b;
  in[2] = &c;
  GE_REQUIRE(kt_make(&t, "Sum", 3, in, 1));
  y = b; /* output planned onto input 1's buffer */
  GE_REQUIRE(kt_run(&t, in, 3, &y, 1) == GE_OK);
  GE_CHECK(y.data == b.data);
  GE_CHECK(F(&y, 0) == 111.0f);
  GE_CHECK(F(&y, 1) == 222.0f);
  GE_CHECK(F(&y, 2) == 333.0f);
  kt_free(&t);
  /* Mean(a, a, a) computed onto a's own buffer */
  in[1] = &a;
  in[2] = &a;
  GE_REQUIRE(kt_make(&t, "Mean", 3, in, 1));
  y = a;
  GE_REQUIRE(kt_run(&t, in, 3, &y, 1) == GE_OK);
  GE_CHECK(y.data == a.data);
  GE_CHECK(F(&y, 0) == 1.0f && F(&y, 1) == 2.0f && F(&y, 2) == 3.0f);
  kt_free(&t);
  kh_free(&a);
  kh_free(&b);
  kh_free(&c);
}

GE_TEST(test_mean_half) {
  uint16_t a[2] = {0x3C00, 0x4000}, b[2] = {0x4000, 0x4400}; /* 1,2 and 2,4 */
  int64_t d2[1] = {2};
  ge_value x = kh_value(GE_DTYPE_FLOAT16, 1, d2, a), z = kh_value(GE_DTYPE_FLOAT16, 1, d2, b), y;
  GE_REQUIRE(run2("Mean", &x, &z, &y) == GE_OK);
  GE_CHECK_EQ_INT(U16(&y, 0), 0x3E00); /* 1.5 */
  GE_CHECK_EQ_INT(U16(&y, 1), 0x4200); /* 3 */
  kh_free(&y);
  kh_free(&x);
  kh_free(&z);
  x = kh_value(GE_DTYPE_INT32, 1, d2, NULL);
  GE_CHECK_EQ_INT(run1("Mean", &x, &y), GE_ERR_UNSUPPORTED);
  kh_free(&x);
}

/* ------------------------------------------------------ comparisons */

GE_TEST(test_comparisons) {
  int64_t ai[3] = {9007199254740993LL, 5, -1}, bi[3] = {9007199254740992LL, 5, 0}, d3[1] = {3}, d13[2] = {1, 3};
  int64_t d31[2] = {3, 1};
  float af[3] = {NAN, 1.0f, 2.0f}, bf[3] = {NAN, 1.0f, 1.0f};
  uint64_t au[3] = {9223372036854775809ull, 1, 7}, bu[3] = {9223372036854775808ull, 2, 7};
  static const char *ops[] = {"Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual"};
  ge_value a, b, y;
  int o, i, j;
  a = kh_value(GE_DTYPE_INT64, 1, d3, ai);
  b = kh_value(GE_DTYPE_INT64, 1, d3, bi);
  for (o = 0; o < 5; o++) {
    GE_REQUIRE(run2(ops[o], &a, &b, &y) == GE_OK);
    GE_CHECK_EQ_INT(y.dtype, GE_DTYPE_BOOL);
    for (i = 0; i < 3; i++) {
      int64_t p = ai[i], q = bi[i];
      int want = o == 0 ? p == q : o == 1 ? p < q : o == 2 ? p > q : o == 3 ? p <= q : p >= q;
      GE_CHECK_EQ_INT(U8(&y, i), want); /* exact: 2^53+1 != 2^53 */
    }
    kh_free(&y);
  }
  kh_free(&a);
  kh_free(&b);
  a = kh_value(GE_DTYPE_FLOAT32, 1, d3, af);
  b = kh_value(GE_DTYPE_FLOAT32, 1, d3, bf);
  for (o = 0; o < 5; o++) {
    GE_REQUIRE(run2(ops[o], &a, &b, &y) == GE_OK);
    GE_CHECK_EQ_INT(U8(&y, 0), 0); /* NaN compares false */
    GE_CHECK_EQ_INT(U8(&y, 1), o == 0 || o >= 3);
    GE_CHECK_EQ_INT(U8(&y, 2), o == 2 || o == 4);
    kh_free(&y);
  }
  kh_free(&a);
  kh_free(&b);
  a = kh_value(GE_DTYPE_UINT64, 1, d3, au);
  b = kh_value(GE_DTYPE_UINT64, 1, d3, bu);
  GE_REQUIRE(run2("Greater", &a, &b, &y) == GE_OK);
  GE_CHECK_EQ_INT(U8(&y, 0), 1);
  GE_CHECK_EQ_INT(U8(&y, 1), 0);
  GE_CHECK_EQ_INT(U8(&y, 2), 0);
  kh_free(&y);
  kh_free(&a);
  kh_free(&b);
  {
    int16_t p[3] = {1, 2, 3}, q[3] = {3, 2, 1};
    a = kh_value(GE_DTYPE_INT16, 2, d13, p); /* [1,3] vs [3,1] -> [3,3] */
    b = kh_value(GE_DTYPE_INT16, 2, d31, q);
    GE_REQUIRE(run2("LessOrEqual", &a, &b, &y) == GE_OK);
    GE_CHECK_EQ_INT(y.numel, 9);
    for (i = 0; i < 3; i++)
      for (j = 0; j < 3; j++) GE_CHECK_EQ_INT(U8(&y, i * 3 + j), p[j] <= q[i]);
    kh_free(&y);
    kh_free(&a);
    kh_free(&b);
  }
  {
    uint8_t p[2] = {1, 0}, q[2] = {1, 1};
    int64_t d2[1] = {2};
    a = kh_value(GE_DTYPE_BOOL, 1, d2, p);
    b = kh_value(GE_DTYPE_BOOL, 1, d2, q);
    GE_REQUIRE(run2("Equal", &a, &b, &y) == GE_OK);
    GE_CHECK_EQ_INT(U8(&y, 0), 1);
    GE_CHECK_EQ_INT(U8(&y, 1), 0);
    kh_free(&y);
    GE_CHECK_EQ_INT(run2("Less", &a, &b, &y), GE_ERR_UNSUPPORTED);
    kh_free(&y);
    kh_free(&a);
    kh_free(&b);
  }
}

/* --------------------------------------------- logical and bitwise */

GE_TEST(test_logical) {
  uint8_t p[4] = {0, 0, 1, 1}, q[2] = {0, 1};
  int64_t d22[2] = {2, 2}, d2[1] = {2};
  ge_value a = kh_value(GE_DTYPE_BOOL, 2, d22, p), b = kh_value(GE_DTYPE_BOOL, 1, d2, q), y;
  int i;
  GE_REQUIRE(run2("And", &a, &b, &y) == GE_OK);
  for (i = 0; i < 4; i++) GE_CHECK_EQ_INT(U8(&y, i), p[i] && q[i % 2]);
  kh_free(&y);
  GE_REQUIRE(run2("Or", &a, &b, &y) == GE_OK);
  for (i = 0; i < 4; i++) GE_CHECK_EQ_INT(U8(&y, i), p[i] || q[i % 2]);
  kh_free(&y);
  GE_REQUIRE(run2("Xor", &a, &b, &y) == GE_OK);
  for (i = 0; i < 4; i++) GE_CHECK_EQ_INT(U8(&y, i), p[i] != q[i % 2]);
  kh_free(&y);
  GE_REQUIRE(run1("Not", &a, &y) == GE_OK);
  GE_CHECK_EQ_INT(y.dtype, GE_DTYPE_BOOL);
  for (i = 0; i < 4; i++) GE_CHECK_EQ_INT(U8(&y, i), !p[i]);
  kh_free(&y);
  kh_free(&a);
  kh_free(&b);
  a = kh_value(GE_DTYPE_INT32, 1, d2, NULL);
  b = kh_value(GE_DTYPE_INT32, 1, d2, NULL);
  GE_CHECK_EQ_INT(run2("And", &a, &b, &y), GE_ERR_UNSUPPORTED);
  GE_CHECK_EQ_INT(run1("Not", &a, &y), GE_ERR_UNSUPPORTED);
  kh_free(&a);
  kh_free(&b);
}

GE_TEST(test_bitwise) {
  int32_t a32[3] = {0x0F0F, -1, 12}, b32[3] = {0x00FF, 0x1234, 10};
  uint8_t a8[2] = {0xF0, 5}, b8[1] = {0x3C};
  int64_t a64[1] = {INT64_MIN + 5}, d3[1] = {3}, d2[1] = {2};
  ge_value a = kh_value(GE_DTYPE_INT32, 1, d3, a32), b = kh_value(GE_DTYPE_INT32, 1, d3, b32), y;
  GE_REQUIRE(run2("BitwiseAnd", &a, &b, &y) == GE_OK);
  GE_CHECK_EQ_INT(I32(&y, 0), 0x000F);
  GE_CHECK_EQ_INT(I32(&y, 1), 0x1234);
  GE_CHECK_EQ_INT(I32(&y, 2), 8);
  kh_free(&y);
  GE_REQUIRE(run2("BitwiseOr", &a, &b, &y) == GE_OK);
  GE_CHECK_EQ_INT(I32(&y, 0), 0x0FFF);
  GE_CHECK_EQ_INT(I32(&y, 1), -1);
  kh_free(&y);
  GE_REQUIRE(run2("BitwiseXor", &a, &b, &y) == GE_OK);
  GE_CHECK_EQ_INT(I32(&y, 0), 0x0FF0);
  GE_CHECK_EQ_INT(I32(&y, 2), 6);
  kh_free(&y);
  GE_REQUIRE(run1("BitwiseNot", &a, &y) == GE_OK);
  GE_CHECK_EQ_INT(I32(&y, 1), 0);
  GE_CHECK_EQ_INT(I32(&y, 2), -13);
  kh_free(&y);
  kh_free(&a);
  kh_free(&b);
  a = kh_value(GE_DTYPE_UINT8, 1, d2, a8);
  b = kh_value(GE_DTYPE_UINT8, 0, NULL, b8);
  GE_REQUIRE(run2("BitwiseXor", &a, &b, &y) == GE_OK);
  GE_CHECK_EQ_INT(U8(&y, 0), 0xCC);
  GE_CHECK_EQ_INT(U8(&y, 1), 0x39);
  kh_free(&y);
  GE_REQUIRE(run1("BitwiseNot", &a, &y) == GE_OK);
  GE_CHECK_EQ_INT(U8(&y, 0), 0x0F);
  GE_CHECK_EQ_INT(U8(&y, 1), 0xFA);
  kh_free(&y);
  kh_free(&a);
  kh_free(&b);
  a = kh_value(GE_DTYPE_INT64, 1, D1, a64);
  GE_REQUIRE(run1("BitwiseNot", &a, &y) == GE_OK);
  GE_CHECK(I64(&y, 0) == INT64_MAX - 5);
  kh_free(&y);
  kh_free(&a);
  a = kh_value(GE_DTYPE_FLOAT32, 1, D1, NULL);
  GE_CHECK_EQ_INT(run1("BitwiseNot", &a, &y), GE_ERR_UNSUPPORTED);
  kh_free(&a);
}

/* ------------------------------------------------------------ Where */

GE_TEST(test_where) {
  uint8_t cv[2] = {1, 0};
  int64_t d21[2] = {2, 1}, d3[1] = {3}, i, j;
  float xv[3] = {1, 2, 3}, zv[1] = {-1};
  int64_t xl[3] = {9007199254740993LL, 2, 3}, zl[1] = {INT64_MIN};
  const char *xs[3] = {"a", "b", "c"}, *zs[1] = {"z"};
  ge_value c = kh_value(GE_DTYPE_BOOL, 2, d21, cv), x = kh_value(GE_DTYPE_FLOAT32, 1, d3, xv);
  ge_value z = kh_value(GE_DTYPE_FLOAT32, 0, NULL, zv), y, *in[3];
  in[0] = &c;
  in[1] = &x;
  in[2] = &z;
  GE_REQUIRE(run_op("Where", 3, in, &y) == GE_OK);
  GE_CHECK_EQ_INT(y.rank, 2);
  GE_CHECK_EQ_INT(y.numel, 6);
  for (i = 0; i < 2; i++)
    for (j = 0; j < 3; j++) GE_CHECK(F(&y, i * 3 + j) == (cv[i] ? xv[j] : zv[0]));
  kh_free(&y);
  kh_free(&x);
  kh_free(&z);
  x = kh_value(GE_DTYPE_INT64, 1, d3, xl);
  z = kh_value(GE_DTYPE_INT64, 0, NULL, zl);
  GE_REQUIRE(run_op("Where", 3, in, &y) == GE_OK);
  GE_CHECK(I64(&y, 0) == 9007199254740993LL);
  GE_CHECK(I64(&y, 3) == INT64_MIN);
  kh_free(&y);
  kh_free(&x);
  kh_free(&z);
  x = kh_value(GE_DTYPE_STRING, 1, d3, xs);
  z = kh_value(GE_DTYPE_STRING, 0, NULL, zs);
  GE_REQUIRE(run_op("Where", 3, in, &y) == GE_OK);
  GE_CHECK_EQ_INT(y.dtype, GE_DTYPE_STRING);
  GE_CHECK(((char **)y.data)[1] == xs[1]); /* pointers copied */
  GE_CHECK(((char **)y.data)[4] == zs[0]);
  kh_free(&y);
  kh_free(&z);
  z = kh_value(GE_DTYPE_INT32, 0, NULL, NULL);
  GE_CHECK_EQ_INT(run_op("Where", 3, in, &y), GE_ERR_INVALID); /* x, y dtypes differ */
  kh_free(&z);
  kh_free(&x);
  kh_free(&c);
  c = kh_value(GE_DTYPE_INT32, 1, d3, NULL);
  x = kh_value(GE_DTYPE_INT32, 1, d3, NULL);
  z = kh_value(GE_DTYPE_INT32, 1, d3, NULL);
  GE_CHECK_EQ_INT(run_op("Where", 3, in, &y), GE_ERR_INVALID); /* condition not bool */
  kh_free(&c);
  kh_free(&x);
  kh_free(&z);
}

/* ------------------------------------------------------------- Clip */

GE_TEST(test_clip) {
  float xv[6] = {-5, -1, 0, 1, 5, NAN}, lo = -1.5f, hi = 2.0f;
  int8_t x8[4] = {-128, -3, 3, 127}, lo8 = -4, hi8 = 4;
  int64_t xl[3] = {9007199254740993LL, INT64_MIN, 0}, hil = 9007199254740992LL, d6[1] = {6}, d4[1] = {4}, d3[1] = {3};
  ge_value x = kh_value(GE_DTYPE_FLOAT32, 1, d6, xv), mn = kh_value(GE_DTYPE_FLOAT32, 0, NULL, &lo);
  ge_value mx = kh_value(GE_DTYPE_FLOAT32, 0, NULL, &hi), y, *in[3];
  kt t;
  in[0] = &x;
  in[1] = &mn;
  in[2] = &mx;
  GE_REQUIRE(run_op("Clip", 3, in, &y) == GE_OK);
  GE_CHECK(F(&y, 0) == -1.5f);
  GE_CHECK(F(&y, 1) == -1.0f);
  GE_CHECK(F(&y, 4) == 2.0f);
  GE_CHECK(is_nan(F(&y, 5))); /* NaN stays */
  kh_free(&y);
  in[1] = NULL; /* max only */
  GE_REQUIRE(run_op("Clip", 3, in, &y) == GE_OK);
  GE_CHECK(F(&y, 0) == -5.0f);
  GE_CHECK(F(&y, 4) == 2.0f);
  kh_free(&y);
  GE_REQUIRE(run_op("Clip", 1, in, &y) == GE_OK); /* no bounds: a copy */
  GE_CHECK(F(&y, 0) == -5.0f && F(&y, 4) == 5.0f);
  kh_free(&y);
  in[1] = &mx; /* min 2 > max -1.5: every value is max */
  in[2] = &mn;
  GE_REQUIRE(run_op("Clip", 3, in, &y) == GE_OK);
  GE_CHECK(F(&y, 0) == -1.5f && F(&y, 3) == -1.5f && F(&y, 4) == -1.5f);
  kh_free(&y);
  /* opset < 11: bounds are attributes */
  GE_REQUIRE(kt_make(&t, "Clip", 1, in, 1));
  ge_node_set_attr_float(t.g, t.id, "min", -0.5, NULL);
  ge_node_set_attr_float(t.g, t.id, "max", 0.5, NULL);
  memset(&y, 0, sizeof y);
  GE_REQUIRE(kt_run(&t, in, 1, &y, 1) == GE_OK);
  GE_CHECK(F(&y, 0) == -0.5f && F(&y, 2) == 0.0f && F(&y, 4) == 0.5f);
  kh_free(&y);
  kt_free(&t);
  kh_free(&mn);
  mn = kh_value(GE_DTYPE_FLOAT32, 1, d3, NULL);
  in[1] = &mn;
  GE_CHECK_EQ_INT(run_op("Clip", 2, in, &y), GE_ERR_SHAPE); /* min not a scalar */
  kh_free(&mn);
  kh_free(&mx);
  kh_free(&x);
  x = kh_value(GE_DTYPE_INT8, 1, d4, x8);
  mn = kh_value(GE_DTYPE_INT8, 0, NULL, &lo8);
  mx = kh_value(GE_DTYPE_INT8, 0, NULL, &hi8);
  in[1] = &mn;
  in[2] = &mx;
  GE_REQUIRE(run_op("Clip", 3, in, &y) == GE_OK);
  GE_CHECK_EQ_INT(((int8_t *)y.data)[0], -4);
  GE_CHECK_EQ_INT(((int8_t *)y.data)[1], -3);
  GE_CHECK_EQ_INT(((int8_t *)y.data)[3], 4);
  kh_free(&y);
  in[2] = &x; /* max of another shape/dtype mix: x is not a scalar */
  GE_CHECK_EQ_INT(run_op("Clip", 3, in, &y), GE_ERR_SHAPE);
  kh_free(&mn);
  kh_free(&mx);
  kh_free(&x);
  x = kh_value(GE_DTYPE_INT64, 1, d3, xl);
  mx = kh_value(GE_DTYPE_INT64, 0, NULL, &hil);
  in[1] = NULL;
  in[2] = &mx;
  GE_REQUIRE(run_op("Clip", 3, in, &y) == GE_OK);
  GE_CHECK(I64(&y, 0) == 9007199254740992LL); /* exact beyond 2^53 */
  GE_CHECK(I64(&y, 1) == INT64_MIN);
  kh_free(&y);
  kh_free(&mx);
  mx = kh_value(GE_DTYPE_INT32, 0, NULL, NULL);
  GE_CHECK_EQ_INT(run_op("Clip", 3, in, &y), GE_ERR_INVALID); /* bound dtype differs */
  kh_free(&mx);
  kh_free(&x);
}

/* ------------------------------------------------------------ unary */

static double ref_unary(const char *op, double x) {
  if (!strcmp(op, "Relu")) return x < 0 ? 0 : x;
  if (!strcmp(op, "Abs")) return fabs(x);
  if (!strcmp(op, "Neg")) return -x;
  if (!strcmp(op, "Sign")) return x > 0 ? 1 : x < 0 ? -1 : x;
  if (!strcmp(op, "Floor")) return floor(x);
  if (!strcmp(op, "Ceil")) return ceil(x);
  if (!strcmp(op, "Reciprocal")) return 1 / x;
  if (!strcmp(op, "Sqrt")) return sqrt(x);
  if (!strcmp(op, "Exp")) return exp(x);
  if (!strcmp(op, "Log")) return log(x);
  if (!strcmp(op, "Erf")) return erf(x);
  if (!strcmp(op, "Sin")) return sin(x);
  if (!strcmp(op, "Cos")) return cos(x);
  if (!strcmp(op, "Tan")) return tan(x);
  if (!strcmp(op, "Asin")) return asin(x);
  if (!strcmp(op, "Acos")) return acos(x);
  if (!strcmp(op, "Atan")) return atan(x);
  if (!strcmp(op, "Sinh")) return sinh(x);
  if (!strcmp(op, "Cosh")) return cosh(x);
  if (!strcmp(op, "Tanh")) return tanh(x);
  if (!strcmp(op, "Asinh")) return asinh(x);
  if (!strcmp(op, "Acosh")) return acosh(x);
  if (!strcmp(op, "Atanh")) return atanh(x);
  if (!strcmp(op, "Sigmoid")) return 1 / (1 + exp(-x));
  if (!strcmp(op, "Softplus")) return x > 30 ? x : log1p(exp(x));
  if (!strcmp(op, "Softsign")) return x / (1 + fabs(x));
  if (!strcmp(op, "Mish")) return x * tanh(x > 30 ? x : log1p(exp(x)));
  if (!strcmp(op, "HardSwish")) return x * (x / 6 + 0.5 < 0 ? 0 : x / 6 + 0.5 > 1 ? 1 : x / 6 + 0.5);
  if (!strcmp(op, "LeakyRelu")) return x < 0 ? 0.01 * x : x;
  if (!strcmp(op, "Elu")) return x < 0 ? exp(x) - 1 : x;
  if (!strcmp(op, "Celu")) return x > 0 ? x : exp(x) - 1;
  if (!strcmp(op, "Selu")) /* the ONNX defaults are these float32 values */
    return x > 0 ? 1.05070102214813232421875 * x : 1.05070102214813232421875 * 1.67326319217681884765625 * (exp(x) - 1);
  if (!strcmp(op, "ThresholdedRelu")) return x > 1 ? x : 0;
  if (!strcmp(op, "HardSigmoid")) return 0.2 * x + 0.5 < 0 ? 0 : 0.2 * x + 0.5 > 1 ? 1 : 0.2 * x + 0.5;
  if (!strcmp(op, "Gelu")) return 0.5 * x * (1 + erf(x / sqrt(2.0)));
  if (!strcmp(op, "Shrink")) return x < -0.5 ? x : x > 0.5 ? x : 0;
  return -12345;
}

static int close_rel(double got, double want, double rel) {
  if (is_nan(want)) return is_nan(got);
  if (want == got) return 1;
  return fabs(got - want) <= rel * fabs(want) + 1e-30;
}

/* Every float unary op with default attributes against libm, in float32 and
 * float64 (and float16 within its precision), over ordinary values and
 * the edges (+-0, +-inf, NaN, large magnitudes). */
GE_TEST(test_unary_float_ops) {
  static const char *ops[] = {"Relu", "Abs", "Neg", "Sign", "Floor", "Ceil", "Reciprocal", "Sqrt", "Exp", "Log",
                              "Erf", "Sin", "Cos", "Tan", "Asin", "Acos", "Atan", "Sinh", "Cosh", "Tanh",
                              "Asinh", "Acosh", "Atanh", "Sigmoid", "Softplus", "Softsign", "Mish", "HardSwish",
                              "LeakyRelu", "Elu", "Celu", "Selu", "ThresholdedRelu", "HardSigmoid", "Gelu", "Shrink"};
  static const double vals[] = {-3.7, -1.0, -0.4, -0.0, 0.0, 0.3, 0.5, 0.99, 1.0, 1.5, 2.25, 7.0, 40.0, -40.0};
  int64_t n[1];
  size_t o, i;
  n[0] = (int64_t)(sizeof vals / sizeof vals[0]);
  for (o = 0; o < sizeof ops / sizeof ops[0]; o++) {
    ge_value x32 = kh_value(GE_DTYPE_FLOAT32, 1, n, NULL), x64 = kh_value(GE_DTYPE_FLOAT64, 1, n, NULL);
    ge_value x16 = kh_value(GE_DTYPE_FLOAT16, 1, n, NULL), y;
    int bad32 = 0, bad64 = 0, bad16 = 0;
    for (i = 0; i < (size_t)n[0]; i++) {
      ((float *)x32.data)[i] = (float)vals[i];
      ((double *)x64.data)[i] = vals[i];
      ((uint16_t *)x16.data)[i] = ge__hc_f2h((float)vals[i]);
    }
    GE_REQUIRE(run1(ops[o], &x64, &y) == GE_OK);
    for (i = 0; i < (size_t)n[0]; i++)
      if (!close_rel(D(&y, (int64_t)i), ref_unary(ops[o], vals[i]), 1e-12)) bad64++;
    kh_free(&y);
    GE_REQUIRE(run1(ops[o], &x32, &y) == GE_OK);
    for (i = 0; i < (size_t)n[0]; i++)
      if (!close_rel(F(&y, (int64_t)i), (float)ref_unary(ops[o], (float)vals[i]), 1e-6)) bad32++;
    kh_free(&y);
    GE_REQUIRE(run1(ops[o], &x16, &y) == GE_OK);
    GE_CHECK_EQ_INT(y.dtype, GE_DTYPE_FLOAT16);
    for (i = 0; i < (size_t)n[0]; i++) {
      double in = ge__hc_h2f(((uint16_t *)x16.data)[i]);
      double want = ge__hc_h2f(ge__hc_f2h((float)ref_unary(ops[o], in))); /* overflow -> inf, underflow -> 0 */
      if (!close_rel(ge__hc_h2f(U16(&y, (int64_t)i)), want, 1e-3)) bad16++;
    }
    kh_free(&y);
    if (bad64 || bad32 || bad16) printf("    %s: %d/%d/%d mismatches (f64/f32/f16)\n", ops[o], bad64, bad32, bad16);
    GE_CHECK_EQ_INT(bad64 + bad32 + bad16, 0);
    kh_free(&x32);
    kh_free(&x64);
    kh_free(&x16);
  }
}

GE_TEST(test_unary_edges) {
  float xv[6] = {HUGE_VALF, -HUGE_VALF, NAN, -1000.0f, 1000.0f, -0.0f};
  int64_t d6[1] = {6};
  ge_value x = kh_value(GE_DTYPE_FLOAT32, 1, d6, xv), y;
  GE_REQUIRE(run1("Sigmoid", &x, &y) == GE_OK);
  GE_CHECK(F(&y, 0) == 1.0f && F(&y, 1) == 0.0f && is_nan(F(&y, 2)) && F(&y, 3) == 0.0f && F(&y, 4) == 1.0f);
  kh_free(&y);
  GE_REQUIRE(run1("Softplus", &x, &y) == GE_OK); /* no overflow to inf or NaN */
  GE_CHECK(F(&y, 0) == HUGE_VALF && F(&y, 1) == 0.0f && is_nan(F(&y, 2)) && F(&y, 3) == 0.0f && F(&y, 4) == 1000.0f);
  kh_free(&y);
  GE_REQUIRE(run1("Tanh", &x, &y) == GE_OK);
  GE_CHECK(F(&y, 0) == 1.0f && F(&y, 1) == -1.0f && is_nan(F(&y, 2)));
  kh_free(&y);
  GE_REQUIRE(run1("Relu", &x, &y) == GE_OK);
  GE_CHECK(F(&y, 0) == HUGE_VALF && F(&y, 1) == 0.0f && is_nan(F(&y, 2)));
  kh_free(&y);
  GE_REQUIRE(run1("Log", &x, &y) == GE_OK);
  GE_CHECK(F(&y, 0) == HUGE_VALF && is_nan(F(&y, 3)) && F(&y, 5) == -HUGE_VALF);
  kh_free(&y);
  GE_REQUIRE(run1("Sign", &x, &y) == GE_OK);
  GE_CHECK(F(&y, 0) == 1.0f && F(&y, 1) == -1.0f && is_nan(F(&y, 2)) && F(&y, 5) == 0.0f);
  kh_free(&y);
  GE_REQUIRE(run1("Mish", &x, &y) == GE_OK);
  GE_CHECK(F(&y, 0) == HUGE_VALF && F(&y, 4) == 1000.0f && F(&y, 3) == 0.0f);
  kh_free(&y);
  kh_free(&x);
}

GE_TEST(test_round_half_even) {
  double xv[12] = {0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 2.4999999, 2.5000001, -0.4, 4503599627370497.0, HUGE_VAL, NAN};
  double want[12] = {0, 2, 2, -0.0, -2, -2, 2, 3, -0.0, 4503599627370497.0, HUGE_VAL, NAN};
  int64_t d12[1] = {12};
  int i;
  ge_value x = kh_value(GE_DTYPE_FLOAT64, 1, d12, xv), y;
  GE_REQUIRE(run1("Round", &x, &y) == GE_OK);
  for (i = 0; i < 12; i++) GE_CHECK(close_rel(D(&y, i), want[i], 0));
  GE_CHECK(signbit(D(&y, 3)) && signbit(D(&y, 8)));
  kh_free(&y);
  kh_free(&x);
  {
    uint16_t h[2] = {0x4100, 0x4300}; /* 2.5, 3.5 */
    int64_t d2[1] = {2};
    x = kh_value(GE_DTYPE_FLOAT16, 1, d2, h);
    GE_REQUIRE(run1("Round", &x, &y) == GE_OK);
    GE_CHECK_EQ_INT(U16(&y, 0), 0x4000);
    GE_CHECK_EQ_INT(U16(&y, 1), 0x4400);
    kh_free(&y);
    kh_free(&x);
  }
  x = kh_value(GE_DTYPE_INT32, 1, D1, NULL);
  GE_CHECK_EQ_INT(run1("Round", &x, &y), GE_ERR_UNSUPPORTED);
  GE_CHECK_EQ_INT(run1("Exp", &x, &y), GE_ERR_UNSUPPORTED);
  kh_free(&x);
}

GE_TEST(test_unary_ints) {
  int64_t xl[4] = {INT64_MIN, -5, 0, 9007199254740993LL}, d4[1] = {4}, d3[1] = {3};
  int8_t x8[3] = {-128, -1, 5};
  uint64_t xu[3] = {0, 1, 18446744073709551615ull};
  ge_value x = kh_value(GE_DTYPE_INT64, 1, d4, xl), y;
  GE_REQUIRE(run1("Abs", &x, &y) == GE_OK);
  GE_CHECK(I64(&y, 0) == INT64_MIN); /* wraps, no UB */
  GE_CHECK(I64(&y, 1) == 5);
  GE_CHECK(I64(&y, 3) == 9007199254740993LL);
  kh_free(&y);
  GE_REQUIRE(run1("Neg", &x, &y) == GE_OK);
  GE_CHECK(I64(&y, 0) == INT64_MIN);
  GE_CHECK(I64(&y, 3) == -9007199254740993LL);
  kh_free(&y);
  GE_REQUIRE(run1("Sign", &x, &y) == GE_OK);
  GE_CHECK(I64(&y, 0) == -1 && I64(&y, 2) == 0 && I64(&y, 3) == 1);
  kh_free(&y);
  GE_REQUIRE(run1("Relu", &x, &y) == GE_OK);
  GE_CHECK(I64(&y, 0) == 0 && I64(&y, 3) == 9007199254740993LL);
  kh_free(&y);
  kh_free(&x);
  x = kh_value(GE_DTYPE_INT8, 1, d3, x8);
  GE_REQUIRE(run1("Neg", &x, &y) == GE_OK);
  GE_CHECK_EQ_INT(((int8_t *)y.data)[0], -128);
  GE_CHECK_EQ_INT(((int8_t *)y.data)[1], 1);
  kh_free(&y);
  GE_REQUIRE(run1("Abs", &x, &y) == GE_OK);
  GE_CHECK_EQ_INT(((int8_t *)y.data)[2], 5);
  kh_free(&y);
  kh_free(&x);
  x = kh_value(GE_DTYPE_UINT64, 1, d3, xu);
  GE_REQUIRE(run1("Sign", &x, &y) == GE_OK);
  GE_CHECK(U64(&y, 0) == 0 && U64(&y, 1) == 1 && U64(&y, 2) == 1);
  kh_free(&y);
  GE_REQUIRE(run1("Abs", &x, &y) == GE_OK);
  GE_CHECK(U64(&y, 2) == 18446744073709551615ull);
  kh_free(&y);
  GE_CHECK_EQ_INT(run1("Relu", &x, &y), GE_ERR_UNSUPPORTED);
  kh_free(&x);
}

/* Activations with attributes: values and the ONNX defaults. */
GE_TEST(test_activation_attrs) {
  double xv[5] = {-2.0, -0.5, 0.0, 0.5, 3.0};
  int64_t d5[1] = {5};
  ge_value x = kh_value(GE_DTYPE_FLOAT64, 1, d5, xv), y, *in[1];
  kt t;
  int i;
  in[0] = &x;
#define ACT(op, a1, v1, a2, v2, expr)                                           \
  do {                                                                          \
    GE_REQUIRE(kt_make(&t, op, 1, in, 1));                                      \
    if (a1) ge_node_set_attr_float(t.g, t.id, a1, v1, NULL);                    \
    if (a2) ge_node_set_attr_float(t.g, t.id, a2, v2, NULL);                    \
    memset(&y, 0, sizeof y);                                                    \
    GE_REQUIRE(kt_run(&t, in, 1, &y, 1) == GE_OK);                              \
    for (i = 0; i < 5; i++) {                                                   \
      double xx = xv[i];                                                        \
      GE_CHECK_NEAR(D(&y, i), (expr), 1e-12);                                   \
    }                                                                           \
    kh_free(&y);                                                                \
    kt_free(&t);                                                                \
  } while (0)
  ACT("LeakyRelu", "alpha", 0.1, NULL, 0, xx < 0 ? 0.1 * xx : xx);
  ACT("Elu", "alpha", 2.0, NULL, 0, xx < 0 ? 2 * (exp(xx) - 1) : xx);
  ACT("Selu", "alpha", 2.0, "gamma", 3.0, xx > 0 ? 3 * xx : 3 * (2 * exp(xx) - 2));
  ACT("Celu", "alpha", 2.0, NULL, 0, (xx > 0 ? xx : 0) + (2 * (exp(xx / 2) - 1) < 0 ? 2 * (exp(xx / 2) - 1) : 0));
  ACT("ThresholdedRelu", "alpha", 0.4, NULL, 0, xx > 0.4 ? xx : 0);
  ACT("HardSigmoid", "alpha", 0.5, "beta", 0.6, fmax(0, fmin(1, 0.5 * xx + 0.6)));
  ACT("Shrink", "lambd", 1.0, "bias", 0.25, xx < -1 ? xx + 0.25 : xx > 1 ? xx - 0.25 : 0);
  ACT("Shrink", "lambd", 0.5, NULL, 0, xx < -0.5 ? xx : xx > 0.5 ? xx : 0);
#undef ACT
  /* Gelu: approximate = none (default) / tanh / bad */
  GE_REQUIRE(kt_make(&t, "Gelu", 1, in, 1));
  memset(&y, 0, sizeof y);
  GE_REQUIRE(kt_run(&t, in, 1, &y, 1) == GE_OK);
  for (i = 0; i < 5; i++) GE_CHECK_NEAR(D(&y, i), 0.5 * xv[i] * (1 + erf(xv[i] / sqrt(2.0))), 1e-12);
  ge_node_set_attr_string(t.g, t.id, "approximate", "tanh", NULL);
  GE_REQUIRE(kt_run(&t, in, 1, &y, 1) == GE_OK);
  for (i = 0; i < 5; i++) {
    double v = xv[i];
    GE_CHECK_NEAR(D(&y, i), 0.5 * v * (1 + tanh(sqrt(2 / 3.14159265358979323846) * (v + 0.044715 * v * v * v))),
                  1e-12);
  }
  ge_node_set_attr_string(t.g, t.id, "approximate", "erf", NULL);
  GE_CHECK_EQ_INT(kt_run(&t, in, 1, &y, 1), GE_ERR_INVALID);
  kh_free(&y);
  kt_free(&t);
  kh_free(&x);
}

GE_TEST(test_isnan_isinf) {
  float xv[5] = {-HUGE_VALF, HUGE_VALF, NAN, 0.0f, 3.4e38f};
  int64_t d5[1] = {5};
  ge_value x = kh_value(GE_DTYPE_FLOAT32, 1, d5, xv), y, *in[1];
  kt t;
  int i;
  in[0] = &x;
  GE_REQUIRE(run1("IsNaN", &x, &y) == GE_OK);
  GE_CHECK_EQ_INT(y.dtype, GE_DTYPE_BOOL);
  for (i = 0; i < 5; i++) GE_CHECK_EQ_INT(U8(&y, i), i == 2);
  kh_free(&y);
  GE_REQUIRE(kt_make(&t, "IsInf", 1, in, 1));
  memset(&y, 0, sizeof y);
  GE_REQUIRE(kt_run(&t, in, 1, &y, 1) == GE_OK);
  for (i = 0; i < 5; i++) GE_CHECK_EQ_INT(U8(&y, i), i < 2);
  ge_node_set_attr_int(t.g, t.id, "detect_positive", 0, NULL);
  GE_REQUIRE(kt_run(&t, in, 1, &y, 1) == GE_OK);
  for (i = 0; i < 5; i++) GE_CHECK_EQ_INT(U8(&y, i), i == 0);
  ge_node_set_attr_int(t.g, t.id, "detect_positive", 1, NULL);
  ge_node_set_attr_int(t.g, t.id, "detect_negative", 0, NULL);
  GE_REQUIRE(kt_run(&t, in, 1, &y, 1) == GE_OK);
  for (i = 0; i < 5; i++) GE_CHECK_EQ_INT(U8(&y, i), i == 1);
  kh_free(&y);
  kt_free(&t);
  kh_free(&x);
  {
    uint16_t h[3] = {0x7C00, 0x7E00, 0xFC00};
    int64_t d3[1] = {3};
    x = kh_value(GE_DTYPE_FLOAT16, 1, d3, h);
    GE_REQUIRE(run1("IsNaN", &x, &y) == GE_OK);
    GE_CHECK(U8(&y, 0) == 0 && U8(&y, 1) == 1 && U8(&y, 2) == 0);
    kh_free(&y);
    GE_REQUIRE(run1("IsInf", &x, &y) == GE_OK);
    GE_CHECK(U8(&y, 0) == 1 && U8(&y, 1) == 0 && U8(&y, 2) == 1);
    kh_free(&y);
    kh_free(&x);
  }
}

/* ------------------------------------------------------------- Cast */

static ge_status cast_to(ge_value *x, ge_dtype to, ge_value *y) {
  kt t;
  ge_status s;
  memset(y, 0, sizeof *y);
  if (!kt_make(&t, "Cast", 1, &x, 1)) {
    kt_free(&t);
    return GE_ERR_INTERNAL;
  }
  ge_node_set_attr_int(t.g, t.id, "to", to, NULL);
  s = kt_run(&t, &x, 1, y, 1);
  kt_free(&t);
  return s;
}

GE_TEST(test_cast_float_to_int_bool) {
  float xv[6] = {-1.7f, 2.9f, -0.0f, NAN, 255.0f, 300.0f};
  int64_t d6[1] = {6};
  ge_value x = kh_value(GE_DTYPE_FLOAT32, 1, d6, xv), y;
  GE_REQUIRE(cast_to(&x, GE_DTYPE_INT32, &y) == GE_OK);
  GE_CHECK_EQ_INT(I32(&y, 0), -1); /* truncation toward zero */
  GE_CHECK_EQ_INT(I32(&y, 1), 2);
  GE_CHECK_EQ_INT(I32(&y, 3), 0); /* NaN -> 0 (ONNX: undefined) */
  kh_free(&y);
  GE_REQUIRE(cast_to(&x, GE_DTYPE_BOOL, &y) == GE_OK);
  GE_CHECK(U8(&y, 0) == 1 && U8(&y, 2) == 0 && U8(&y, 3) == 1);
  kh_free(&y);
  GE_REQUIRE(cast_to(&x, GE_DTYPE_UINT8, &y) == GE_OK);
  GE_CHECK(U8(&y, 0) == 255 && U8(&y, 4) == 255 && U8(&y, 5) == 44); /* wraps as numpy on x86 */
  kh_free(&y);
  kh_free(&x);
  {
    double big[4] = {1e19, 1e30, -1e30, 18446744073709549568.0};
    int64_t d4[1] = {4};
    x = kh_value(GE_DTYPE_FLOAT64, 1, d4, big);
    GE_REQUIRE(cast_to(&x, GE_DTYPE_UINT64, &y) == GE_OK); /* no UB out of range */
    GE_CHECK(U64(&y, 0) == 10000000000000000000ull);
    GE_CHECK(U64(&y, 1) == 18446744073709551615ull);
    GE_CHECK(U64(&y, 3) == 18446744073709549568ull);
    kh_free(&y);
    GE_REQUIRE(cast_to(&x, GE_DTYPE_INT64, &y) == GE_OK);
    GE_CHECK(I64(&y, 1) == INT64_MAX && I64(&y, 2) == INT64_MIN);
    kh_free(&y);
    kh_free(&x);
  }
}

GE_TEST(test_cast_ints_to_float_exact) {
  int64_t xv[4] = {16777217, 9007199254740993LL, -9007199254740993LL, INT64_MIN}, d4[1] = {4};
  uint64_t xu[2] = {18446744073709551615ull, 9007199254740993ull};
  int64_t d2[1] = {2};
  ge_value x = kh_value(GE_DTYPE_INT64, 1, d4, xv), y;
  GE_REQUIRE(cast_to(&x, GE_DTYPE_FLOAT32, &y) == GE_OK);
  GE_CHECK(F(&y, 0) == 16777216.0f);
  GE_CHECK(F(&y, 3) == -9223372036854775808.0f);
  kh_free(&y);
  GE_REQUIRE(cast_to(&x, GE_DTYPE_FLOAT64, &y) == GE_OK);
  GE_CHECK(D(&y, 1) == 9007199254740992.0); /* ties to even */
  kh_free(&y);
  GE_REQUIRE(cast_to(&x, GE_DTYPE_INT32, &y) == GE_OK); /* wraps */
  GE_CHECK_EQ_INT(I32(&y, 0), 16777217);
  GE_CHECK_EQ_INT(I32(&y, 1), 1);
  kh_free(&y);
  GE_REQUIRE(cast_to(&x, GE_DTYPE_FLOAT16, &y) == GE_OK);
  GE_CHECK_EQ_INT(U16(&y, 0), 0x7C00); /* beyond 65504: inf */
  GE_CHECK_EQ_INT(U16(&y, 2), 0xFC00);
  kh_free(&y);
  kh_free(&x);
  x = kh_value(GE_DTYPE_UINT64, 1, d2, xu);
  GE_REQUIRE(cast_to(&x, GE_DTYPE_FLOAT64, &y) == GE_OK);
  GE_CHECK(D(&y, 0) == 18446744073709551616.0);
  kh_free(&y);
  GE_REQUIRE(cast_to(&x, GE_DTYPE_INT64, &y) == GE_OK);
  GE_CHECK(I64(&y, 0) == -1 && I64(&y, 1) == 9007199254740993LL);
  kh_free(&y);
  kh_free(&x);
  {
    uint8_t b[3] = {0, 1, 1};
    int64_t d3[1] = {3};
    x = kh_value(GE_DTYPE_BOOL, 1, d3, b);
    GE_REQUIRE(cast_to(&x, GE_DTYPE_FLOAT32, &y) == GE_OK);
    GE_CHECK(F(&y, 0) == 0.0f && F(&y, 1) == 1.0f);
    kh_free(&y);
    GE_REQUIRE(cast_to(&x, GE_DTYPE_BFLOAT16, &y) == GE_OK);
    GE_CHECK(U16(&y, 0) == 0 && U16(&y, 1) == 0x3F80);
    kh_free(&y);
    kh_free(&x);
  }
}

GE_TEST(test_cast_half_rounding) {
  /* 1 + 2^-11 + 2^-40 rounds up to 1+2^-10 in float16; rounding through
   * float first would make it a tie and give 1.0 */
  double xv[5] = {1.0 + 1.0 / 2048 + 1.0 / 1099511627776.0, 65520.0, 65519.99, 5.960464477539063e-08, -0.0};
  int64_t d5[1] = {5};
  ge_value x = kh_value(GE_DTYPE_FLOAT64, 1, d5, xv), y, z;
  GE_REQUIRE(cast_to(&x, GE_DTYPE_FLOAT16, &y) == GE_OK);
  GE_CHECK_EQ_INT(U16(&y, 0), 0x3C01);
  GE_CHECK_EQ_INT(U16(&y, 1), 0x7C00);
  GE_CHECK_EQ_INT(U16(&y, 2), 0x7BFF);
  GE_CHECK_EQ_INT(U16(&y, 3), 0x0001); /* smallest subnormal */
  GE_CHECK_EQ_INT(U16(&y, 4), 0x8000);
  GE_REQUIRE(cast_to(&y, GE_DTYPE_FLOAT64, &z) == GE_OK);
  GE_CHECK(D(&z, 0) == 1.0 + 1.0 / 1024);
  GE_CHECK(D(&z, 1) == HUGE_VAL);
  kh_free(&z);
  GE_REQUIRE(cast_to(&y, GE_DTYPE_BFLOAT16, &z) == GE_OK); /* float16 -> bfloat16 */
  GE_CHECK_EQ_INT(U16(&z, 0), 0x3F80);                     /* 1+2^-10 -> 1 in bfloat16 */
  GE_CHECK_EQ_INT(U16(&z, 1), 0x7F80);
  kh_free(&z);
  kh_free(&y);
  GE_REQUIRE(cast_to(&x, GE_DTYPE_BFLOAT16, &y) == GE_OK);
  GE_CHECK_EQ_INT(U16(&y, 1), 0x4780); /* 65520 -> 65536 */
  kh_free(&y);
  kh_free(&x);
  {
    float f[3] = {NAN, HUGE_VALF, 1.00390625f}; /* 1 + 2^-8: a bfloat16 tie -> even */
    int64_t d3[1] = {3};
    x = kh_value(GE_DTYPE_FLOAT32, 1, d3, f);
    GE_REQUIRE(cast_to(&x, GE_DTYPE_BFLOAT16, &y) == GE_OK);
    GE_CHECK((U16(&y, 0) & 0x7FFF) > 0x7F80); /* NaN stays NaN */
    GE_CHECK_EQ_INT(U16(&y, 1), 0x7F80);
    GE_CHECK_EQ_INT(U16(&y, 2), 0x3F80);
    kh_free(&y);
    kh_free(&x);
  }
}

GE_TEST(test_cast_strings_and_errors) {
  const char *s[6] = {"1.5", "NaN", "-INF", "+INF", "9007199254740993", "junk"};
  int64_t d6[1] = {6};
  ge_value x = kh_value(GE_DTYPE_STRING, 1, d6, s), y, l, *in[2];
  GE_REQUIRE(cast_to(&x, GE_DTYPE_FLOAT32, &y) == GE_OK);
  GE_CHECK(F(&y, 0) == 1.5f && is_nan(F(&y, 1)) && F(&y, 2) == -HUGE_VALF && F(&y, 3) == HUGE_VALF);
  GE_CHECK(F(&y, 5) == 0.0f);
  kh_free(&y);
  GE_REQUIRE(cast_to(&x, GE_DTYPE_INT64, &y) == GE_OK);
  GE_CHECK(I64(&y, 4) == 9007199254740993LL); /* exact, not through double */
  GE_CHECK(I64(&y, 0) == 1);
  kh_free(&y);
  GE_REQUIRE(cast_to(&x, GE_DTYPE_STRING, &y) == GE_OK); /* same dtype: pointers copied */
  GE_CHECK(((char **)y.data)[2] == s[2]);
  kh_free(&y);
  kh_free(&x);
  x = kh_value(GE_DTYPE_FLOAT32, 1, d6, NULL);
  ((float *)x.data)[1] = 1.5f;
  GE_REQUIRE(cast_to(&x, GE_DTYPE_STRING, &y) == GE_OK); /* numbers to text */
  GE_CHECK(strcmp(((char **)y.data)[1], "1.5") == 0);
  kh_free(&y);
  GE_CHECK_EQ_INT(cast_to(&x, GE_DTYPE_COMPLEX64, &y), GE_ERR_UNSUPPORTED);
  GE_CHECK_EQ_INT(cast_to(&x, (ge_dtype)99, &y), GE_ERR_UNSUPPORTED);
  /* CastLike: the dtype of input 1 */
  l = kh_value(GE_DTYPE_INT8, 0, NULL, NULL);
  ((float *)x.data)[0] = -3.9f;
  in[0] = &x;
  in[1] = &l;
  GE_REQUIRE(run_op("CastLike", 2, in, &y) == GE_OK);
  GE_CHECK_EQ_INT(y.dtype, GE_DTYPE_INT8);
  GE_CHECK_EQ_INT(y.numel, 6);
  GE_CHECK_EQ_INT(((int8_t *)y.data)[0], -3);
  kh_free(&y);
  kh_free(&l);
  kh_free(&x);
}

/* ------------------------------------------------ Identity, Dropout */

GE_TEST(test_identity_dropout) {
  const char *s[2] = {"x", "y"};
  int64_t d2[1] = {2}, xl[2] = {9007199254740993LL, -1};
  float r = 0.3f;
  uint8_t on = 1;
  ge_value x = kh_value(GE_DTYPE_STRING, 1, d2, s), y[2], ratio, train, *in[3];
  kt t;
  GE_REQUIRE(run1("Identity", &x, &y[0]) == GE_OK);
  GE_CHECK(((char **)y[0].data)[1] == s[1]);
  kh_free(&y[0]);
  kh_free(&x);
  x = kh_value(GE_DTYPE_INT64, 1, d2, xl);
  GE_REQUIRE(run1("Identity", &x, &y[0]) == GE_OK);
  GE_CHECK(I64(&y[0], 0) == 9007199254740993LL);
  kh_free(&y[0]);
  ratio = kh_value(GE_DTYPE_FLOAT32, 0, NULL, &r);
  train = kh_value(GE_DTYPE_BOOL, 0, NULL, &on);
  in[0] = &x;
  in[1] = &ratio;
  in[2] = NULL;
  GE_REQUIRE(kt_make(&t, "Dropout", 2, in, 2));
  memset(y, 0, sizeof y);
  GE_REQUIRE(kt_run(&t, in, 2, y, 2) == GE_OK);
  GE_CHECK(I64(&y[0], 0) == 9007199254740993LL && I64(&y[0], 1) == -1);
  GE_CHECK_EQ_INT(y[1].dtype, GE_DTYPE_BOOL);
  GE_CHECK(U8(&y[1], 0) == 1 && U8(&y[1], 1) == 1);
  kh_free(&y[0]);
  kh_free(&y[1]);
  kt_free(&t);
  in[2] = &train; /* training on an int64 input: unsupported */
  GE_REQUIRE(kt_make(&t, "Dropout", 3, in, 1));
  GE_CHECK_EQ_INT(kt_run(&t, in, 3, y, 1), GE_ERR_UNSUPPORTED);
  ((float *)ratio.data)[0] = 0.0f; /* training with ratio 0: identity */
  GE_CHECK_EQ_INT(kt_run(&t, in, 3, y, 1), GE_OK);
  GE_CHECK(I64(&y[0], 1) == -1);
  ((float *)ratio.data)[0] = 1.5f;
  GE_CHECK_EQ_INT(kt_run(&t, in, 3, y, 1), GE_ERR_INVALID);
  kh_free(&y[0]);
  kt_free(&t);
  kh_free(&x);
  /* training: numpy's np.random.seed(0) draws 0.5488, 0.7152, 0.6028,
   * 0.5449, 0.4237; ratio 0.55 keeps draws >= 0.55, scaled by 1/0.45 */
  {
    float xv[5] = {1, 2, 3, 4, 5};
    double scale = 1.0 / (1.0 - (double)0.55f);
    int64_t d5[1] = {5};
    x = kh_value(GE_DTYPE_FLOAT32, 1, d5, xv);
    ((float *)ratio.data)[0] = 0.55f;
    GE_REQUIRE(kt_make(&t, "Dropout", 3, in, 2));
    ge_node_set_attr_int(t.g, t.id, "seed", 0, NULL);
    memset(y, 0, sizeof y);
    GE_REQUIRE(kt_run(&t, in, 3, y, 2) == GE_OK);
    GE_CHECK(F(&y[0], 0) == 0.0f && F(&y[0], 3) == 0.0f && F(&y[0], 4) == 0.0f);
    GE_CHECK_NEAR(F(&y[0], 1), 2 * scale, 1e-5);
    GE_CHECK_NEAR(F(&y[0], 2), 3 * scale, 1e-5);
    GE_CHECK(U8(&y[1], 0) == 0 && U8(&y[1], 1) == 1 && U8(&y[1], 2) == 1 && U8(&y[1], 3) == 0 && U8(&y[1], 4) == 0);
    kh_free(&y[0]);
    kh_free(&y[1]);
    kt_free(&t);
    kh_free(&x);
  }
  kh_free(&ratio);
  kh_free(&train);
}

/* ------------------------------------------------------------ errors */

GE_TEST(test_errors) {
  int64_t d23[2] = {2, 3}, d4[1] = {4}, d0[1] = {0}, d03[2] = {0, 3}, d3[1] = {3};
  ge_value a = kh_value(GE_DTYPE_FLOAT32, 2, d23, NULL), b = kh_value(GE_DTYPE_FLOAT32, 1, d4, NULL), y;
  ge_value *in[2];
  kt t;
  in[0] = &a;
  in[1] = &b;
  GE_REQUIRE(kt_make(&t, "Add", 2, in, 1));
  memset(&y, 0, sizeof y);
  GE_CHECK_EQ_INT(kt_run(&t, in, 2, &y, 1), GE_ERR_SHAPE);
  GE_CHECK(strstr(t.err.message, "[2,3]") && strstr(t.err.message, "[4]"));
  GE_CHECK(strstr(t.err.message, "'n'") != NULL); /* names the node */
  kt_free(&t);
  GE_CHECK_EQ_INT(run2("Equal", &a, &b, &y), GE_ERR_SHAPE);
  GE_CHECK_EQ_INT(run2("Pow", &a, &b, &y), GE_ERR_SHAPE);
  kh_free(&b);
  b = kh_value(GE_DTYPE_FLOAT64, 1, d3, NULL);
  GE_CHECK_EQ_INT(run2("Add", &a, &b, &y), GE_ERR_INVALID); /* dtypes differ */
  GE_CHECK_EQ_INT(run2("Less", &a, &b, &y), GE_ERR_INVALID);
  kh_free(&b);
  in[1] = NULL;
  GE_CHECK_EQ_INT(run_op("Add", 2, in, &y), GE_ERR_INVALID); /* missing input */
  GE_CHECK_EQ_INT(run_op("Add", 1, in, &y), GE_ERR_INVALID);
  GE_CHECK_EQ_INT(run_op("Relu", 0, in, &y), GE_ERR_INVALID);
  kh_free(&a);
  {
    const char *s[1] = {"a"};
    a = kh_value(GE_DTYPE_STRING, 1, D1, s);
    b = kh_value(GE_DTYPE_STRING, 1, D1, s);
    GE_CHECK_EQ_INT(run2("Add", &a, &b, &y), GE_ERR_UNSUPPORTED);
    GE_CHECK_EQ_INT(run1("Neg", &a, &y), GE_ERR_UNSUPPORTED);
    GE_CHECK_EQ_INT(run2("Equal", &a, &b, &y), GE_ERR_UNSUPPORTED);
    kh_free(&a);
    kh_free(&b);
  }
  /* a broadcast too large to allocate: rejected before any allocation */
  {
    int64_t big1[2] = {(int64_t)1 << 40, 1}, big2[2] = {1, (int64_t)1 << 40};
    float dummy = 0;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    a.dtype = b.dtype = GE_DTYPE_FLOAT32;
    a.rank = b.rank = 2;
    memcpy(a.dims, big1, sizeof big1);
    memcpy(b.dims, big2, sizeof big2);
    a.numel = b.numel = (int64_t)1 << 40;
    a.data = b.data = &dummy;
    GE_CHECK_EQ_INT(run2("Mul", &a, &b, &y), GE_ERR_SHAPE);
    a.dims[0] = -1; /* a negative dimension */
    GE_CHECK_EQ_INT(run2("Mul", &a, &b, &y), GE_ERR_SHAPE);
  }
  /* empty tensors broadcast to empty outputs (the output starts with a
   * buffer: the harness's alloc_output reports a 0-byte value without
   * one as out of memory) */
  a = kh_value(GE_DTYPE_FLOAT32, 2, d03, NULL);
  b = kh_value(GE_DTYPE_FLOAT32, 1, d3, NULL);
  in[0] = &a;
  in[1] = &b;
  GE_REQUIRE(kt_make(&t, "Add", 2, in, 1));
  y = kh_value(GE_DTYPE_FLOAT32, 1, D1, NULL);
  GE_CHECK_EQ_INT(kt_run(&t, in, 2, &y, 1), GE_OK);
  GE_CHECK_EQ_INT(y.numel, 0);
  GE_CHECK_EQ_INT(y.rank, 2);
  kh_free(&b);
  b = kh_value(GE_DTYPE_FLOAT32, 1, d0, NULL);
  GE_CHECK_EQ_INT(kt_run(&t, in, 2, &y, 1), GE_ERR_SHAPE); /* 3 vs 0 */
  kh_free(&b);
  b = kh_value(GE_DTYPE_FLOAT32, 1, D1, NULL);
  GE_CHECK_EQ_INT(kt_run(&t, in, 2, &y, 1), GE_OK);
  GE_CHECK_EQ_INT(y.numel, 0);
  kt_free(&t);
  GE_REQUIRE(kt_make(&t, "Max", 2, in, 1));
  GE_CHECK_EQ_INT(kt_run(&t, in, 2, &y, 1), GE_OK);
  GE_CHECK_EQ_INT(y.numel, 0);
  kt_free(&t);
  GE_REQUIRE(kt_make(&t, "Exp", 1, in, 1));
  GE_CHECK_EQ_INT(kt_run(&t, in, 1, &y, 1), GE_OK);
  GE_CHECK_EQ_INT(y.numel, 0);
  kt_free(&t);
  kh_free(&y);
  kh_free(&a);
  kh_free(&b);
}

GE_TEST(test_table_lists_every_op) {
  static const char *ops[] = {
      "Add", "Sub", "Mul", "Div", "Pow", "Mod", "BitShift", "PRelu", "Max", "Min", "Sum", "Mean", "Equal", "Less",
      "Greater", "LessOrEqual", "GreaterOrEqual", "And", "Or", "Xor", "Not", "BitwiseAnd", "BitwiseOr", "BitwiseXor",
      "BitwiseNot", "Where", "Clip", "Relu", "LeakyRelu", "Elu", "Selu", "Celu", "ThresholdedRelu", "Sigmoid",
      "HardSigmoid", "HardSwish", "Softplus", "Softsign", "Gelu", "Mish", "Shrink", "Tanh", "Exp", "Log", "Sqrt",
      "Reciprocal", "Neg", "Abs", "Erf", "Floor", "Ceil", "Round", "Sign", "Sin", "Cos", "Tan", "Asin", "Acos", "Atan",
      "Sinh", "Cosh", "Asinh", "Acosh", "Atanh", "IsNaN", "IsInf", "Identity", "Cast", "CastLike", "Dropout"};
  size_t i;
  ge_graph *g = NULL;
  ge_node_id id;
  GE_REQUIRE(ge_graph_create(NULL, &g, NULL) == GE_OK);
  for (i = 0; i < sizeof ops / sizeof ops[0]; i++) {
    GE_REQUIRE(ge_graph_add_node(g, ops[i], NULL, 0, NULL, 1, &id, NULL) == GE_OK);
    if (!ge_host_cpu_kernel(ge_graph_node(g, id))) printf("    no kernel for %s\n", ops[i]);
    GE_CHECK(ge_host_cpu_kernel(ge_graph_node(g, id)) != NULL);
  }
  ge_graph_free(g);
}

int main(int argc, char **argv) {
  ge_test_init(argc, argv);
  GE_RUN(test_float32_broadcast_shapes);
  GE_RUN(test_random_broadcast_all_dtypes);
  GE_RUN(test_int64_exact_beyond_2p53);
  GE_RUN(test_integer_division_and_wrap);
  GE_RUN(test_half_rounding);
  GE_RUN(test_float_nan_inf_arithmetic);
  GE_RUN(test_pow_types);
  GE_RUN(test_mod);
  GE_RUN(test_bitshift);
  GE_RUN(test_prelu);
  GE_RUN(test_variadic_broadcast);
  GE_RUN(test_max_min_nan_and_ints);
  GE_RUN(test_variadic_output_aliases_input);
  GE_RUN(test_mean_half);
  GE_RUN(test_comparisons);
  GE_RUN(test_logical);
  GE_RUN(test_bitwise);
  GE_RUN(test_where);
  GE_RUN(test_clip);
  GE_RUN(test_unary_float_ops);
  GE_RUN(test_unary_edges);
  GE_RUN(test_round_half_even);
  GE_RUN(test_unary_ints);
  GE_RUN(test_activation_attrs);
  GE_RUN(test_isnan_isinf);
  GE_RUN(test_cast_float_to_int_bool);
  GE_RUN(test_cast_ints_to_float_exact);
  GE_RUN(test_cast_half_rounding);
  GE_RUN(test_cast_strings_and_errors);
  GE_RUN(test_identity_dropout);
  GE_RUN(test_errors);
  GE_RUN(test_table_lists_every_op);
  return ge_test_main_end();
}

/* ge_engines/host_cpu/elementwise.h — the host CPU engine's element-wise
 * kernels: broadcasting binary ops, comparisons, logical and bitwise ops,
 * Where, variadic Max/Min/Sum/Mean, unary math and activations, Clip,
 * Identity, Dropout, Cast.
 *
 * A part of ge_engines/host_cpu.h, which includes it inside its
 * implementation section, after the shared helpers (ge__hc_get_f, ...)
 * and before the op table; not a header to include on its own. */
#ifndef GE_HOST_CPU_IMPLEMENTATION_DONE
#error "ge_engines/host_cpu/elementwise.h is a part of ge_engines/host_cpu.h: include that instead"
#endif

/* ------------------------------------------------- element-wise kernels */

/* Add, Sub, Mul, Div, Pow, Mod, BitShift, PRelu, Max/Min/Sum/Mean,
 * comparisons, logical and bitwise ops, Where, Clip, unary math and
 * activations, IsNaN/IsInf, Identity, Cast/CastLike, Dropout.
 *
 * Broadcasting ops walk the output shape once (ge__hc_ew_walk: dimensions
 * of 1 dropped, contiguous runs merged) and compute one innermost row at a
 * time with a row function picked once per call from the dtype: typed rows
 * for float32, float64, int32, int64 and uint64, a generic row through the
 * shared get/set helpers for the other dtypes.
 *
 * Arithmetic: floats (float32/64, float16, bfloat16) compute in double and
 * round once on store; for + - * / that equals computing in the narrow type,
 * and float16/bfloat16 stores go through a round-to-odd float so the double
 * rounding stays correct. Signed integers and uint8..uint32 compute in
 * int64 with two's-complement wrap-around (no signed overflow), uint64 in
 * uint64. Integer division or remainder by zero gives 0 (numpy's answer)
 * rather than a trap. */

#define GE__HC_EW_M_FLOAT GE_DTYPES_FLOAT
#define GE__HC_EW_M_INT GE_DTYPES_INT
#define GE__HC_EW_M_NUM GE_DTYPES_NUMERIC
#define GE__HC_EW_M_BOOL GE_DTYPE_BIT(GE_DTYPE_BOOL)
#define GE__HC_EW_M_SIGNED                                                                 \
  (GE_DTYPES_FLOAT | GE_DTYPE_BIT(GE_DTYPE_INT8) | GE_DTYPE_BIT(GE_DTYPE_INT16) |          \
   GE_DTYPE_BIT(GE_DTYPE_INT32) | GE_DTYPE_BIT(GE_DTYPE_INT64))
#define GE__HC_EW_M_UINT                                                                   \
  (GE_DTYPE_BIT(GE_DTYPE_UINT8) | GE_DTYPE_BIT(GE_DTYPE_UINT16) | GE_DTYPE_BIT(GE_DTYPE_UINT32) | \
   GE_DTYPE_BIT(GE_DTYPE_UINT64))
#define GE__HC_EW_M_ALL                                                                    \
  (GE_DTYPES_NUMERIC | GE_DTYPE_BIT(GE_DTYPE_BOOL) | GE_DTYPE_BIT(GE_DTYPE_STRING))

/* ---------------------------------------------------- scalar helpers */

static int64_t ge__hc_ew_iadd(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }
static int64_t ge__hc_ew_isub(int64_t a, int64_t b) { return (int64_t)((uint64_t)a - (uint64_t)b); }
static int64_t ge__hc_ew_imul(int64_t a, int64_t b) { return (int64_t)((uint64_t)a * (uint64_t)b); }
static int64_t ge__hc_ew_ineg(int64_t a) { return (int64_t)(0u - (uint64_t)a); }
/* C division (toward zero); x/0 = 0, INT64_MIN/-1 wraps. */
static int64_t ge__hc_ew_idiv(int64_t a, int64_t b) {
  if (b == 0) return 0;
  if (b == -1) return ge__hc_ew_ineg(a);
  return a / b;
}
/* C remainder (sign of the dividend, as fmod). */
static int64_t ge__hc_ew_irem(int64_t a, int64_t b) {
  if (b == 0 || b == -1) return 0;
  return a % b;
}
/* Python / numpy remainder (sign of the divisor). */
static int64_t ge__hc_ew_imod(int64_t a, int64_t b) {
  int64_t r = ge__hc_ew_irem(a, b);
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}
static uint64_t ge__hc_ew_upow(uint64_t base, uint64_t e) {
  uint64_t r = 1;
  while (e) {
    if (e & 1) r *= base;
    base *= base;
    e >>= 1;
  }
  return r;
}
/* Integer power by squaring with wrap-around; a negative exponent gives the
 * truncated 1/a^-e (1, -1 or 0). */
static int64_t ge__hc_ew_ipow(int64_t a, int64_t e) {
  if (e < 0) return a == 1 ? 1 : a == -1 ? ((e & 1) ? -1 : 1) : 0;
  return (int64_t)ge__hc_ew_upow((uint64_t)a, (uint64_t)e);
}
static uint64_t ge__hc_ew_ushl(uint64_t a, uint64_t b) { return b >= 64 ? 0 : a << b; }
static uint64_t ge__hc_ew_ushr(uint64_t a, uint64_t b) { return b >= 64 ? 0 : a >> b; }

static double ge__hc_ew_fmod_py(double a, double b) {
  double r = fmod(a, b);
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  else if (r == 0) r = copysign(0.0, b);
  return r;
}

/* Round half to even, independent of the rounding mode. */
static double ge__hc_ew_round(double x) {
  double f = floor(x), d = x - f, r;
  if (d > 0.5) r = f + 1;
  else if (d < 0.5) r = f;
  else r = fmod(f, 2.0) == 0 ? f : f + 1;
  return r == 0 ? copysign(0.0, x) : r;
}

static double ge__hc_ew_softplus(double x) { return x > 0 ? x + log1p(exp(-x)) : log1p(exp(x)); }

/* Float -> integer conversions without undefined behaviour: truncation
 * toward zero, saturating at the int64 / uint64 range, NaN -> 0. */
static int64_t ge__hc_ew_f2i(double x) {
  if (x != x) return 0;
  if (x >= 9223372036854775808.0) return INT64_MAX;
  if (x < -9223372036854775808.0) return INT64_MIN;
  return (int64_t)x;
}
static uint64_t ge__hc_ew_f2u(double x) {
  if (x >= 18446744073709551616.0) return UINT64_MAX;
  if (x >= 9223372036854775808.0) return (uint64_t)x;
  return (uint64_t)ge__hc_ew_f2i(x); /* negatives wrap, as C on x86 and numpy do */
}

/* double -> float rounding to odd (truncate, then set the last bit when
 * inexact): a later round-to-nearest to float16/bfloat16 is then correct. */
static float ge__hc_ew_d2f_odd(double d) {
  float f = (float)d;
  uint32_t bits;
  if ((double)f == d || d != d || !(fabs(d) <= 3.4028234663852886e38)) return f;
  memcpy(&bits, &f, 4);
  if (fabs((double)f) > fabs(d)) bits--; /* toward zero */
  bits |= 1;
  memcpy(&f, &bits, 4);
  return f;
}

/* Stores a double as element i of v in v's dtype (float: rounded once;
 * integer: truncated, saturating to 64 bits then wrapping; bool: x != 0). */
static void ge__hc_ew_store_f(ge_value *v, int64_t i, double x) {
  switch (v->dtype) {
  case GE_DTYPE_FLOAT16: ((uint16_t *)v->data)[i] = ge__hc_f2h(ge__hc_ew_d2f_odd(x)); break;
  case GE_DTYPE_BFLOAT16: ((uint16_t *)v->data)[i] = ge__hc_f2bf(ge__hc_ew_d2f_odd(x)); break;
  case GE_DTYPE_FLOAT32: case GE_DTYPE_FLOAT64: case GE_DTYPE_BOOL: ge__hc_set_f(v, i, x); break;
  case GE_DTYPE_UINT64: ((uint64_t *)v->data)[i] = ge__hc_ew_f2u(x); break;
  default: ge__hc_set_i(v, i, ge__hc_ew_f2i(x)); break;
  }
}
/* Stores an integer (exactly converted: int64 -> float32 rounds once). */
static void ge__hc_ew_store_i(ge_value *v, int64_t i, int64_t x) {
  switch (v->dtype) {
  case GE_DTYPE_FLOAT32: ((float *)v->data)[i] = (float)x; break;
  case GE_DTYPE_FLOAT64: ((double *)v->data)[i] = (double)x; break;
  case GE_DTYPE_FLOAT16: case GE_DTYPE_BFLOAT16: ge__hc_ew_store_f(v, i, (double)x); break;
  default: ge__hc_set_i(v, i, x); break;
  }
}
static void ge__hc_ew_store_u(ge_value *v, int64_t i, uint64_t x) {
  switch (v->dtype) {
  case GE_DTYPE_FLOAT32: ((float *)v->data)[i] = (float)x; break;
  case GE_DTYPE_FLOAT64: ((double *)v->data)[i] = (double)x; break;
  case GE_DTYPE_FLOAT16: case GE_DTYPE_BFLOAT16: ge__hc_ew_store_f(v, i, (double)x); break;
  case GE_DTYPE_BOOL: ((uint8_t *)v->data)[i] = x != 0; break;
  default: ge__hc_set_i(v, i, (int64_t)x); break;
  }
}

/* ---------------------------------------------------- checks, shapes */

static const char *ge__hc_ew_shape_str(const ge_value *v, char *buf, size_t n) {
  size_t at = 0;
  int32_t i;
  buf[0] = 0;
  at += (size_t)snprintf(buf, n, "[");
  for (i = 0; i < v->rank && at < n; i++)
    at += (size_t)snprintf(buf + at, n - at, "%s%lld", i ? "," : "", (long long)v->dims[i]);
  if (at < n) snprintf(buf + at, n - at, "]");
  return buf;
}

static ge_status ge__hc_ew_check_value(ge_kernel_ctx *c, const ge_value *v, uint32_t k) {
  int32_t i;
  if (v->rank < 0 || v->rank > GE_MAX_RANK)
    return ge_kernel_error(c, GE_ERR_SHAPE, "input %u has rank %d", (unsigned)k, (int)v->rank);
  for (i = 0; i < v->rank; i++)
    if (v->dims[i] < 0) return ge_kernel_error(c, GE_ERR_SHAPE, "input %u has a negative dimension", (unsigned)k);
  if (v->numel > 0 && !v->data) return ge_kernel_error(c, GE_ERR_INVALID, "input %u has no data", (unsigned)k);
  return GE_OK;
}

/* Inputs 0..n-1 present and sane, and at least one output. */
static ge_status ge__hc_ew_need(ge_kernel_ctx *c, uint32_t n) {
  uint32_t i;
  ge_status s;
  if (c->num_inputs < n)
    return ge_kernel_error(c, GE_ERR_INVALID, "needs %u inputs, has %u", (unsigned)n, (unsigned)c->num_inputs);
  if (c->num_outputs < 1) return ge_kernel_error(c, GE_ERR_INVALID, "has no output");
  for (i = 0; i < n; i++) {
    if (!c->inputs[i]) return ge_kernel_error(c, GE_ERR_INVALID, "input %u is missing", (unsigned)i);
    if ((s = ge__hc_ew_check_value(c, c->inputs[i], i)) != GE_OK) return s;
  }
  return GE_OK;
}

static ge_status ge__hc_ew_dtype(ge_kernel_ctx *c, const ge_value *v, uint32_t mask) {
  if ((unsigned)v->dtype >= GE_DTYPE_COUNT || !(GE_DTYPE_BIT((unsigned)v->dtype) & mask))
    return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "dtype %s is not supported", ge_dtype_name(v->dtype));
  return GE_OK;
}

static ge_status ge__hc_ew_same_dtype(ge_kernel_ctx *c, const ge_value *a, const ge_value *b) {
  if (a->dtype != b->dtype)
    return ge_kernel_error(c, GE_ERR_INVALID, "inputs have different dtypes (%s and %s)", ge_dtype_name(a->dtype),
                           ge_dtype_name(b->dtype));
  return GE_OK;
}

/* Broadcasts shape (*rank, dims) with v in place; errors name both shapes. */
static ge_status ge__hc_ew_bcast_into(ge_kernel_ctx *c, int32_t *rank, int64_t *dims, const ge_value *v) {
  ge_value t;
  int32_t r, i;
  int64_t d[GE_MAX_RANK], numel = 1;
  char s1[160], s2[160];
  memset(&t, 0, sizeof t);
  t.rank = *rank;
  if (*rank > 0) memcpy(t.dims, dims, (size_t)*rank * sizeof *dims);
  if (!ge__hc_bcast_shape(&t, v, &r, d))
    return ge_kernel_error(c, GE_ERR_SHAPE, "shapes %s and %s do not broadcast", ge__hc_ew_shape_str(&t, s1, sizeof s1),
                           ge__hc_ew_shape_str(v, s2, sizeof s2));
  for (i = 0; i < r; i++) {
    if (d[i] && numel > (INT64_MAX / 16) / d[i])
      return ge_kernel_error(c, GE_ERR_SHAPE, "broadcast shape is too large");
    numel *= d[i];
  }
  *rank = r;
  if (r > 0) memcpy(dims, d, (size_t)r * sizeof *d);
  return GE_OK;
}

/* The broadcast shape of inputs [0, n). */
static ge_status ge__hc_ew_bcast_all(ge_kernel_ctx *c, uint32_t n, int32_t *rank, int64_t *dims) {
  uint32_t k;
  ge_status s;
  *rank = 0;
  for (k = 0; k < n; k++)
    if ((s = ge__hc_ew_bcast_into(c, rank, dims, c->inputs[k])) != GE_OK) return s;
  return GE_OK;
}

/* ------------------------------------------------- the broadcast walk */

/* Walks output y row by row: each row is `inner` contiguous outputs; operand
 * k's row starts at it.off[k] and steps by istride[k] (0 when broadcast). */
typedef struct ge__hc_ew_walk {
  ge__hc_iter it;
  int64_t inner, rows;
  int64_t istride[4];
} ge__hc_ew_walk;

static void ge__hc_ew_walk_init(ge__hc_ew_walk *w, const ge_value *y, int n, const ge_value *const *ops) {
  int64_t st[4][GE_MAX_RANK], md[GE_MAX_RANK], ms[4][GE_MAX_RANK];
  int32_t r = y->rank, m = 0, d;
  int k;
  for (k = 0; k < n; k++) ge__hc_bcast_strides(ops[k], r, st[k]);
  for (d = 0; d < r; d++) {
    int merge = m > 0;
    if (y->dims[d] == 1) continue;
    for (k = 0; k < n && merge; k++)
      if (ms[k][m - 1] != st[k][d] * y->dims[d]) merge = 0;
    if (merge) {
      md[m - 1] *= y->dims[d];
      for (k = 0; k < n; k++) ms[k][m - 1] = st[k][d];
      continue;
    }
    md[m] = y->dims[d];
    for (k = 0; k < n; k++) ms[k][m] = st[k][d];
    m++;
  }
  if (m == 0) {
    md[0] = 1;
    for (k = 0; k < n; k++) ms[k][0] = 0;
    m = 1;
  }
  ge__hc_iter_init(&w->it, m - 1, md, n);
  w->inner = md[m - 1];
  w->rows = 1;
  for (d = 0; d < m - 1; d++) w->rows *= md[d];
  for (k = 0; k < n; k++) {
    w->istride[k] = ms[k][m - 1];
    for (d = 0; d < m - 1; d++) w->it.strides[k][d] = ms[k][d];
  }
}

/* A row of a binary op: y[iy + i] = f(a[ia + i*sa], b[ib + i*sb]), i < n. */
#define GE__HC_EW_ROW_ARGS                                                                   \
  const ge_value *a, int64_t ia, int64_t sa, const ge_value *b, int64_t ib, int64_t sb, ge_value *y, \
      int64_t iy, int64_t n
typedef void (*ge__hc_ew_row)(GE__HC_EW_ROW_ARGS);
typedef ge__hc_ew_row (*ge__hc_ew_pick)(ge_dtype t);

/* y = row(a, b) over y's shape (a and b broadcast to it; either may be y). */
static void ge__hc_ew_apply2(const ge_value *a, const ge_value *b, ge_value *y, ge__hc_ew_row row) {
  ge__hc_ew_walk w;
  const ge_value *ops[2];
  int64_t r;
  if (y->numel == 0) return;
  ops[0] = a;
  ops[1] = b;
  ge__hc_ew_walk_init(&w, y, 2, ops);
  for (r = 0; r < w.rows; r++) {
    row(a, w.it.off[0], w.istride[0], b, w.it.off[1], w.istride[1], y, r * w.inner, w.inner);
    ge__hc_step(&w.it);
  }
}

/* Binary op rows. FX computes on doubles xa, xb (all float dtypes); IX on
 * int64 (signed ints, uint8..uint32, bool); UX on uint64. Each expression
 * must compile for its type even where the op's dtypes exclude it. */
#define GE__HC_EW_BIN(name, FX, IX, UX)                                                      \
  GE__HC_HELPER void ge__hc_ew_##name##_f32(GE__HC_EW_ROW_ARGS) {                              \
    const float *pa = (const float *)a->data + ia, *pb = (const float *)b->data + ib;        \
    float *py = (float *)y->data + iy;                                                       \
    int64_t i;                                                                               \
    for (i = 0; i < n; i++) {                                                                \
      double xa = pa[i * sa], xb = pb[i * sb];                                               \
      (void)xa; (void)xb;                                                                    \
      py[i] = (float)(FX);                                                                   \
    }                                                                                        \
  }                                                                                          \
  GE__HC_HELPER void ge__hc_ew_##name##_f64(GE__HC_EW_ROW_ARGS) {                              \
    const double *pa = (const double *)a->data + ia, *pb = (const double *)b->data + ib;     \
    double *py = (double *)y->data + iy;                                                     \
    int64_t i;                                                                               \
    for (i = 0; i < n; i++) {                                                                \
      double xa = pa[i * sa], xb = pb[i * sb];                                               \
      (void)xa; (void)xb;                                                                    \
      py[i] = (FX);                                                                          \
    }                                                                                        \
  }                                                                                          \
  GE__HC_HELPER void ge__hc_ew_##name##_i32(GE__HC_EW_ROW_ARGS) {                              \
    const int32_t *pa = (const int32_t *)a->data + ia, *pb = (const int32_t *)b->data + ib;  \
    int32_t *py = (int32_t *)y->data + iy;                                                   \
    int64_t i;                                                                               \
    for (i = 0; i < n; i++) {                                                                \
      int64_t xa = pa[i * sa], xb = pb[i * sb];                                              \
      (void)xa; (void)xb;                                                                    \
      py[i] = (int32_t)(IX);                                                                 \
    }                                                                                        \
  }                                                                                          \
  GE__HC_HELPER void ge__hc_ew_##name##_i64(GE__HC_EW_ROW_ARGS) {                              \
    const int64_t *pa = (const int64_t *)a->data + ia, *pb = (const int64_t *)b->data + ib;  \
    int64_t *py = (int64_t *)y->data + iy;                                                   \
    int64_t i;                                                                               \
    for (i = 0; i < n; i++) {                                                                \
      int64_t xa = pa[i * sa], xb = pb[i * sb];                                              \
      (void)xa; (void)xb;                                                                    \
      py[i] = (int64_t)(IX);                                                                 \
    }                                                                                        \
  }                                                                                          \
  GE__HC_HELPER void ge__hc_ew_##name##_u64(GE__HC_EW_ROW_ARGS) {                              \
    const uint64_t *pa = (const uint64_t *)a->data + ia, *pb = (const uint64_t *)b->data + ib; \
    uint64_t *py = (uint64_t *)y->data + iy;                                                 \
    int64_t i;                                                                               \
    for (i = 0; i < n; i++) {                                                                \
      uint64_t xa = pa[i * sa], xb = pb[i * sb];                                             \
      (void)xa; (void)xb;                                                                    \
      py[i] = (uint64_t)(UX);                                                                \
    }                                                                                        \
  }                                                                                          \
  GE__HC_HELPER void ge__hc_ew_##name##_gen(GE__HC_EW_ROW_ARGS) {                              \
    int64_t i;                                                                               \
    if (ge__hc_is_float(a->dtype)) {                                                         \
      for (i = 0; i < n; i++) {                                                              \
        double xa = ge__hc_get_f(a, ia + i * sa), xb = ge__hc_get_f(b, ib + i * sb);         \
        (void)xa; (void)xb;                                                                  \
        ge__hc_ew_store_f(y, iy + i, (double)(FX));                                          \
      }                                                                                      \
    } else {                                                                                 \
      for (i = 0; i < n; i++) {                                                              \
        int64_t xa = ge__hc_get_i(a, ia + i * sa), xb = ge__hc_get_i(b, ib + i * sb);        \
        (void)xa; (void)xb;                                                                  \
        ge__hc_set_i(y, iy + i, (int64_t)(IX));                                              \
      }                                                                                      \
    }                                                                                        \
  }                                                                                          \
  GE__HC_HELPER ge__hc_ew_row ge__hc_ew_##name##_pick(ge_dtype t) {                            \
    switch (t) {                                                                             \
    case GE_DTYPE_FLOAT32: return ge__hc_ew_##name##_f32;                                    \
    case GE_DTYPE_FLOAT64: return ge__hc_ew_##name##_f64;                                    \
    case GE_DTYPE_INT32: return ge__hc_ew_##name##_i32;                                      \
    case GE_DTYPE_INT64: return ge__hc_ew_##name##_i64;                                      \
    case GE_DTYPE_UINT64: return ge__hc_ew_##name##_u64;                                     \
    default: return ge__hc_ew_##name##_gen;                                                  \
    }                                                                                        \
  }

/* Comparison rows: bool output, EX on the input type (double, int64 or
 * uint64 operands xa, xb). */
#define GE__HC_EW_CMP_ROW(name, sfx, T, LT)                                                  \
  GE__HC_HELPER void ge__hc_ew_##name##_##sfx(GE__HC_EW_ROW_ARGS) {                            \
    const T *pa = (const T *)a->data + ia, *pb = (const T *)b->data + ib;                    \
    uint8_t *py = (uint8_t *)y->data + iy;                                                   \
    int64_t i;                                                                               \
    for (i = 0; i < n; i++) {                                                                \
      LT xa = pa[i * sa], xb = pb[i * sb];                                                   \
      py[i] = (uint8_t)(GE__HC_EW_CMP_EXPR_##name);                                          \
    }                                                                                        \
  }
#define GE__HC_EW_CMP(name)                                                                  \
  GE__HC_EW_CMP_ROW(name, f32, float, double)                                                \
  GE__HC_EW_CMP_ROW(name, f64, double, double)                                               \
  GE__HC_EW_CMP_ROW(name, i32, int32_t, int64_t)                                             \
  GE__HC_EW_CMP_ROW(name, i64, int64_t, int64_t)                                             \
  GE__HC_EW_CMP_ROW(name, u64, uint64_t, uint64_t)                                           \
  GE__HC_HELPER void ge__hc_ew_##name##_gen(GE__HC_EW_ROW_ARGS) {                              \
    uint8_t *py = (uint8_t *)y->data + iy;                                                   \
    int64_t i;                                                                               \
    if (ge__hc_is_float(a->dtype)) {                                                         \
      for (i = 0; i < n; i++) {                                                              \
        double xa = ge__hc_get_f(a, ia + i * sa), xb = ge__hc_get_f(b, ib + i * sb);         \
        py[i] = (uint8_t)(GE__HC_EW_CMP_EXPR_##name);                                        \
      }                                                                                      \
    } else {                                                                                 \
      for (i = 0; i < n; i++) {                                                              \
        int64_t xa = ge__hc_get_i(a, ia + i * sa), xb = ge__hc_get_i(b, ib + i * sb);        \
        py[i] = (uint8_t)(GE__HC_EW_CMP_EXPR_##name);                                        \
      }                                                                                      \
    }                                                                                        \
  }                                                                                          \
  GE__HC_HELPER ge__hc_ew_row ge__hc_ew_##name##_pick(ge_dtype t) {                            \
    switch (t) {                                                                             \
    case GE_DTYPE_FLOAT32: return ge__hc_ew_##name##_f32;                                    \
    case GE_DTYPE_FLOAT64: return ge__hc_ew_##name##_f64;                                    \
    case GE_DTYPE_INT32: return ge__hc_ew_##name##_i32;                                      \
    case GE_DTYPE_INT64: return ge__hc_ew_##name##_i64;                                      \
    case GE_DTYPE_UINT64: return ge__hc_ew_##name##_u64;                                     \
    default: return ge__hc_ew_##name##_gen;                                                  \
    }                                                                                        \
  }

GE__HC_EW_BIN(add, xa + xb, ge__hc_ew_iadd(xa, xb), xa + xb)
GE__HC_EW_BIN(sub, xa - xb, ge__hc_ew_isub(xa, xb), xa - xb)
GE__HC_EW_BIN(mul, xa * xb, ge__hc_ew_imul(xa, xb), xa * xb)
GE__HC_EW_BIN(div, xa / xb, ge__hc_ew_idiv(xa, xb), xb ? xa / xb : 0)
GE__HC_EW_BIN(pow, pow(xa, xb), ge__hc_ew_ipow(xa, xb), ge__hc_ew_upow(xa, xb))
GE__HC_EW_BIN(mod, ge__hc_ew_fmod_py(xa, xb), ge__hc_ew_imod(xa, xb), xb ? xa % xb : 0)
GE__HC_EW_BIN(fmod, fmod(xa, xb), ge__hc_ew_irem(xa, xb), xb ? xa % xb : 0)
GE__HC_EW_BIN(shl, 0, (int64_t)ge__hc_ew_ushl((uint64_t)xa, (uint64_t)xb), ge__hc_ew_ushl(xa, xb))
GE__HC_EW_BIN(shr, 0, (int64_t)ge__hc_ew_ushr((uint64_t)xa, (uint64_t)xb), ge__hc_ew_ushr(xa, xb))
GE__HC_EW_BIN(prelu, xa < 0 ? xa * xb : xa, xa < 0 ? ge__hc_ew_imul(xa, xb) : xa, xa)
/* numpy maximum/minimum: a NaN operand gives NaN */
GE__HC_EW_BIN(max, (xa > xb || xa != xa) ? xa : xb, xa > xb ? xa : xb, xa > xb ? xa : xb)
GE__HC_EW_BIN(min, (xa < xb || xa != xa) ? xa : xb, xa < xb ? xa : xb, xa < xb ? xa : xb)
GE__HC_EW_BIN(and, xa != 0 && xb != 0, xa != 0 && xb != 0, xa != 0 && xb != 0)
GE__HC_EW_BIN(or, xa != 0 || xb != 0, xa != 0 || xb != 0, xa != 0 || xb != 0)
GE__HC_EW_BIN(xor, (xa != 0) != (xb != 0), (xa != 0) != (xb != 0), (xa != 0) != (xb != 0))
GE__HC_EW_BIN(band, 0, xa & xb, xa & xb)
GE__HC_EW_BIN(bor, 0, xa | xb, xa | xb)
GE__HC_EW_BIN(bxor, 0, xa ^ xb, xa ^ xb)

#define GE__HC_EW_CMP_EXPR_eq (xa == xb)
#define GE__HC_EW_CMP_EXPR_lt (xa < xb)
#define GE__HC_EW_CMP_EXPR_gt (xa > xb)
#define GE__HC_EW_CMP_EXPR_le (xa <= xb)
#define GE__HC_EW_CMP_EXPR_ge (xa >= xb)
GE__HC_EW_CMP(eq)
GE__HC_EW_CMP(lt)
GE__HC_EW_CMP(gt)
GE__HC_EW_CMP(le)
GE__HC_EW_CMP(ge)

/* Pow with different base and exponent dtypes; the output has the base's
 * dtype (an integer base with a float exponent truncates toward zero). */
static void ge__hc_ew_pow_mixed(GE__HC_EW_ROW_ARGS) {
  int64_t i;
  int fa = ge__hc_is_float(a->dtype), fb = ge__hc_is_float(b->dtype);
  for (i = 0; i < n; i++) {
    int64_t ja = ia + i * sa, jb = ib + i * sb;
    if (fa || fb) {
      ge__hc_ew_store_f(y, iy + i, pow(ge__hc_get_f(a, ja), ge__hc_get_f(b, jb)));
    } else { /* integers: wrap-around arithmetic modulo 2^64, stored narrowed */
      uint64_t base = (uint64_t)ge__hc_get_i(a, ja), r;
      int64_t e = ge__hc_get_i(b, jb);
      if (b->dtype != GE_DTYPE_UINT64 && e < 0)
        r = a->dtype == GE_DTYPE_UINT64 ? (uint64_t)(base == 1) : (uint64_t)ge__hc_ew_ipow((int64_t)base, e);
      else
        r = ge__hc_ew_upow(base, (uint64_t)e);
      ge__hc_ew_store_u(y, iy + i, r);
    }
  }
}

/* ----------------------------------------------------- binary kernels */

/* a op b with broadcasting; cmp: bool output. */
static ge_status ge__hc_ew_binary(ge_kernel_ctx *c, ge__hc_ew_pick pick, uint32_t mask, int cmp) {
  const ge_value *a, *b;
  ge_value *y;
  int32_t r;
  int64_t dims[GE_MAX_RANK];
  ge_status s;
  if ((s = ge__hc_ew_need(c, 2)) != GE_OK) return s;
  a = c->inputs[0];
  b = c->inputs[1];
  if ((s = ge__hc_ew_dtype(c, a, mask)) != GE_OK || (s = ge__hc_ew_same_dtype(c, a, b)) != GE_OK) return s;
  if ((s = ge__hc_ew_bcast_all(c, 2, &r, dims)) != GE_OK) return s;
  y = ge_kernel_output(c, 0, cmp ? GE_DTYPE_BOOL : a->dtype, r, dims);
  if (!y) return GE__HC_OUT_FAILED(c);
  ge__hc_ew_apply2(a, b, y, pick(a->dtype));
  return GE_OK;
}

static ge_status ge__hc_add(ge_kernel_ctx *c) { return ge__hc_ew_binary(c, ge__hc_ew_add_pick, GE__HC_EW_M_NUM, 0); }
static ge_status ge__hc_sub(ge_kernel_ctx *c) { return ge__hc_ew_binary(c, ge__hc_ew_sub_pick, GE__HC_EW_M_NUM, 0); }
static ge_status ge__hc_mul(ge_kernel_ctx *c) { return ge__hc_ew_binary(c, ge__hc_ew_mul_pick, GE__HC_EW_M_NUM, 0); }
static ge_status ge__hc_div(ge_kernel_ctx *c) { return ge__hc_ew_binary(c, ge__hc_ew_div_pick, GE__HC_EW_M_NUM, 0); }
static ge_status ge__hc_and(ge_kernel_ctx *c) { return ge__hc_ew_binary(c, ge__hc_ew_and_pick, GE__HC_EW_M_BOOL, 0); }
static ge_status ge__hc_or(ge_kernel_ctx *c) { return ge__hc_ew_binary(c, ge__hc_ew_or_pick, GE__HC_EW_M_BOOL, 0); }
static ge_status ge__hc_xor(ge_kernel_ctx *c) { return ge__hc_ew_binary(c, ge__hc_ew_xor_pick, GE__HC_EW_M_BOOL, 0); }
static ge_status ge__hc_bitwise_and(ge_kernel_ctx *c) {
  return ge__hc_ew_binary(c, ge__hc_ew_band_pick, GE__HC_EW_M_INT, 0);
}
static ge_status ge__hc_bitwise_or(ge_kernel_ctx *c) {
  return ge__hc_ew_binary(c, ge__hc_ew_bor_pick, GE__HC_EW_M_INT, 0);
}
static ge_status ge__hc_bitwise_xor(ge_kernel_ctx *c) {
  return ge__hc_ew_binary(c, ge__hc_ew_bxor_pick, GE__HC_EW_M_INT, 0);
}
static ge_status ge__hc_equal(ge_kernel_ctx *c) {
  return ge__hc_ew_binary(c, ge__hc_ew_eq_pick, GE__HC_EW_M_NUM | GE__HC_EW_M_BOOL, 1);
}
static ge_status ge__hc_less(ge_kernel_ctx *c) { return ge__hc_ew_binary(c, ge__hc_ew_lt_pick, GE__HC_EW_M_NUM, 1); }
static ge_status ge__hc_greater(ge_kernel_ctx *c) { return ge__hc_ew_binary(c, ge__hc_ew_gt_pick, GE__HC_EW_M_NUM, 1); }
static ge_status ge__hc_less_or_equal(ge_kernel_ctx *c) {
  return ge__hc_ew_binary(c, ge__hc_ew_le_pick, GE__HC_EW_M_NUM, 1);
}
static ge_status ge__hc_greater_or_equal(ge_kernel_ctx *c) {
  return ge__hc_ew_binary(c, ge__hc_ew_ge_pick, GE__HC_EW_M_NUM, 1);
}

static ge_status ge__hc_mod(ge_kernel_ctx *c) {
  int64_t f = ge_node_attr_int(c->node, "fmod", 0);
  if (f != 0 && f != 1) return ge_kernel_error(c, GE_ERR_INVALID, "fmod must be 0 or 1, not %lld", (long long)f);
  return ge__hc_ew_binary(c, f ? ge__hc_ew_fmod_pick : ge__hc_ew_mod_pick, GE__HC_EW_M_NUM, 0);
}

static ge_status ge__hc_bit_shift(ge_kernel_ctx *c) {
  const char *d = ge_node_attr_string(c->node, "direction", NULL);
  if (!d) return ge_kernel_error(c, GE_ERR_INVALID, "needs the direction attribute");
  if (strcmp(d, "LEFT") == 0) return ge__hc_ew_binary(c, ge__hc_ew_shl_pick, GE__HC_EW_M_UINT, 0);
  if (strcmp(d, "RIGHT") == 0) return ge__hc_ew_binary(c, ge__hc_ew_shr_pick, GE__HC_EW_M_UINT, 0);
  return ge_kernel_error(c, GE_ERR_INVALID, "direction must be LEFT or RIGHT, not '%.40s'", d);
}

static ge_status ge__hc_pow(ge_kernel_ctx *c) {
  const ge_value *a, *b;
  ge_value *y;
  int32_t r;
  int64_t dims[GE_MAX_RANK];
  ge_status s;
  if ((s = ge__hc_ew_need(c, 2)) != GE_OK) return s;
  a = c->inputs[0];
  b = c->inputs[1];
  if ((s = ge__hc_ew_dtype(c, a, GE__HC_EW_M_NUM)) != GE_OK || (s = ge__hc_ew_dtype(c, b, GE__HC_EW_M_NUM)) != GE_OK)
    return s;
  if ((s = ge__hc_ew_bcast_all(c, 2, &r, dims)) != GE_OK) return s;
  y = ge_kernel_output(c, 0, a->dtype, r, dims);
  if (!y) return GE__HC_OUT_FAILED(c);
  ge__hc_ew_apply2(a, b, y, a->dtype == b->dtype ? ge__hc_ew_pow_pick(a->dtype) : ge__hc_ew_pow_mixed);
  return GE_OK;
}

/* PRelu: slope broadcasts to x (unidirectionally). Opset < 7 applied a
 * slope of shape [C] per channel (x's axis 1); numpy broadcasting rejects
 * that shape unless C is last, so it is read as [C,1,...,1] then. */
static ge_status ge__hc_prelu(ge_kernel_ctx *c) {
  const ge_value *x, *slope;
  ge_value *y, chan;
  int32_t r = 0, i;
  int64_t dims[GE_MAX_RANK];
  ge_status s;
  char s1[160], s2[160];
  if ((s = ge__hc_ew_need(c, 2)) != GE_OK) return s;
  x = c->inputs[0];
  slope = c->inputs[1];
  if ((s = ge__hc_ew_dtype(c, x, GE__HC_EW_M_NUM)) != GE_OK || (s = ge__hc_ew_same_dtype(c, x, slope)) != GE_OK)
    return s;
  if (slope->rank == 1 && x->rank >= 2 && slope->dims[0] == x->dims[1] && slope->dims[0] != x->dims[x->rank - 1] &&
      slope->dims[0] != 1) {
    chan = *slope;
    chan.rank = x->rank - 1;
    for (i = 1; i < chan.rank; i++) chan.dims[i] = 1;
    slope = &chan;
  }
  if (!ge__hc_bcast_shape(x, slope, &r, dims)) r = -1;
  for (i = 0; i < r && r == x->rank && dims[i] == x->dims[i]; i++) {
  }
  if (r != x->rank || i != r)
    return ge_kernel_error(c, GE_ERR_SHAPE, "slope %s does not broadcast to x %s",
                           ge__hc_ew_shape_str(slope, s1, sizeof s1), ge__hc_ew_shape_str(x, s2, sizeof s2));
  y = ge_kernel_output(c, 0, x->dtype, x->rank, x->dims);
  if (!y) return GE__HC_OUT_FAILED(c);
  ge__hc_ew_apply2(x, slope, y, ge__hc_ew_prelu_pick(x->dtype));
  return GE_OK;
}

/* ------------------------------------------------------ copies, Where */

/* Copies n elements of esize bytes with source stride sx (elements). */
static void ge__hc_ew_copy_row(char *dst, const char *src, int64_t sx, int64_t n, size_t esize) {
  int64_t i;
  switch (esize) {
  case 1: for (i = 0; i < n; i++) memcpy(dst + i, src + i * sx, 1); break;
  case 2: for (i = 0; i < n; i++) memcpy(dst + 2 * i, src + 2 * i * sx, 2); break;
  case 4: for (i = 0; i < n; i++) memcpy(dst + 4 * i, src + 4 * i * sx, 4); break;
  case 8: for (i = 0; i < n; i++) memcpy(dst + 8 * i, src + 8 * i * sx, 8); break;
  default: for (i = 0; i < n; i++) memcpy(dst + esize * (size_t)i, src + esize * (size_t)(i * sx), esize); break;
  }
}

static size_t ge__hc_ew_esize(ge_dtype t) { return t == GE_DTYPE_STRING ? sizeof(char *) : ge_dtype_size(t); }

/* y = x broadcast to y's shape (same dtype). */
static void ge__hc_ew_bcast_copy(const ge_value *x, ge_value *y) {
  ge__hc_ew_walk w;
  int64_t r;
  size_t es = ge__hc_ew_esize(y->dtype);
  if (y->numel == 0) return;
  ge__hc_ew_walk_init(&w, y, 1, &x);
  for (r = 0; r < w.rows; r++) {
    ge__hc_ew_copy_row((char *)y->data + (size_t)(r * w.inner) * es, (const char *)x->data + (size_t)w.it.off[0] * es,
                       w.istride[0], w.inner, es);
    ge__hc_step(&w.it);
  }
}

static ge_status ge__hc_where(ge_kernel_ctx *c) {
  const ge_value *ops[3];
  ge_value *y;
  int32_t r;
  int64_t dims[GE_MAX_RANK], row, i;
  ge__hc_ew_walk w;
  size_t es;
  ge_status s;
  if ((s = ge__hc_ew_need(c, 3)) != GE_OK) return s;
  ops[0] = c->inputs[0];
  ops[1] = c->inputs[1];
  ops[2] = c->inputs[2];
  if (ops[0]->dtype != GE_DTYPE_BOOL)
    return ge_kernel_error(c, GE_ERR_INVALID, "condition must be bool, not %s", ge_dtype_name(ops[0]->dtype));
  if ((s = ge__hc_ew_dtype(c, ops[1], GE__HC_EW_M_ALL)) != GE_OK || (s = ge__hc_ew_same_dtype(c, ops[1], ops[2])) != GE_OK)
    return s;
  if ((s = ge__hc_ew_bcast_all(c, 3, &r, dims)) != GE_OK) return s;
  y = ge_kernel_output(c, 0, ops[1]->dtype, r, dims);
  if (!y) return GE__HC_OUT_FAILED(c);
  if (y->numel == 0) return GE_OK;
  es = ge__hc_ew_esize(y->dtype);
  ge__hc_ew_walk_init(&w, y, 3, ops);
  for (row = 0; row < w.rows; row++) {
    const uint8_t *pc = (const uint8_t *)ops[0]->data + w.it.off[0];
    const char *px = (const char *)ops[1]->data + (size_t)w.it.off[1] * es;
    const char *pz = (const char *)ops[2]->data + (size_t)w.it.off[2] * es;
    char *py = (char *)y->data + (size_t)(row * w.inner) * es;
    for (i = 0; i < w.inner; i++)
      memcpy(py + (size_t)i * es,
             pc[i * w.istride[0]] ? px + (size_t)(i * w.istride[1]) * es : pz + (size_t)(i * w.istride[2]) * es, es);
    ge__hc_step(&w.it);
  }
  return GE_OK;
}

/* ------------------------------------------------ variadic: Max ... Mean */

static ge_status ge__hc_ew_variadic(ge_kernel_ctx *c, ge__hc_ew_pick pick, uint32_t mask, int mean) {
  ge_value *y, acc;
  int aliases = 0;
  int32_t r;
  int64_t dims[GE_MAX_RANK], i;
  uint32_t k, start = 0, n = c->num_inputs;
  ge__hc_ew_row row;
  ge_status s;
  if (n < 1) return ge_kernel_error(c, GE_ERR_INVALID, "needs at least one input");
  if ((s = ge__hc_ew_need(c, n)) != GE_OK) return s;
  if ((s = ge__hc_ew_dtype(c, c->inputs[0], mask)) != GE_OK) return s;
  for (k = 1; k < n; k++)
    if ((s = ge__hc_ew_same_dtype(c, c->inputs[0], c->inputs[k])) != GE_OK) return s;
  if ((s = ge__hc_ew_bcast_all(c, n, &r, dims)) != GE_OK) return s;
  y = ge_kernel_output(c, 0, c->inputs[0]->dtype, r, dims);
  if (!y) return GE__HC_OUT_FAILED(c);
  if (y->numel == 0) return GE_OK;
  /* The ops are commutative: when y shares storage with one input (an
   * executor computing in place), the fold starts from that input. When
   * several inputs share it, the fold runs in a scratch buffer. */
  for (k = 0; k < n; k++)
    if (c->inputs[k]->data == y->data) {
      aliases++;
      start = k;
    }
  acc = *y;
  if (aliases > 1) {
    acc.data = malloc(y->nbytes);
    if (!acc.data) return ge_kernel_error(c, GE_ERR_NOMEM, "out of memory");
    start = 0;
  }
  if (c->inputs[start]->data != acc.data) ge__hc_ew_bcast_copy(c->inputs[start], &acc);
  row = pick(y->dtype);
  for (k = 0; k < n; k++)
    if (k != start) ge__hc_ew_apply2(&acc, c->inputs[k], &acc, row);
  if (mean && n > 1) {
    if (acc.dtype == GE_DTYPE_FLOAT32)
      for (i = 0; i < acc.numel; i++) ((float *)acc.data)[i] = (float)(((float *)acc.data)[i] / (double)n);
    else
      for (i = 0; i < acc.numel; i++) ge__hc_ew_store_f(&acc, i, ge__hc_get_f(&acc, i) / (double)n);
  }
  if (acc.data != y->data) {
    memcpy(y->data, acc.data, y->nbytes);
    free(acc.data);
  }
  return GE_OK;
}

static ge_status ge__hc_max(ge_kernel_ctx *c) { return ge__hc_ew_variadic(c, ge__hc_ew_max_pick, GE__HC_EW_M_NUM, 0); }
static ge_status ge__hc_min(ge_kernel_ctx *c) { return ge__hc_ew_variadic(c, ge__hc_ew_min_pick, GE__HC_EW_M_NUM, 0); }
static ge_status ge__hc_sum(ge_kernel_ctx *c) { return ge__hc_ew_variadic(c, ge__hc_ew_add_pick, GE__HC_EW_M_NUM, 0); }
static ge_status ge__hc_mean(ge_kernel_ctx *c) {
  return ge__hc_ew_variadic(c, ge__hc_ew_add_pick, GE__HC_EW_M_FLOAT, 1);
}

/* ----------------------------------------------------------- unary ops */

/* Attributes of a unary op. */
typedef struct ge__hc_ew_par {
  double alpha, beta, gamma;
  int flag;
} ge__hc_ew_par;

#define GE__HC_EW_UN_ARGS const ge__hc_ew_par *k, const ge_value *x, ge_value *y
typedef void (*ge__hc_ew_urow)(GE__HC_EW_UN_ARGS);
typedef ge__hc_ew_urow (*ge__hc_ew_upick)(ge_dtype t);

/* Unary rows over the whole tensor: FX on double xa (float dtypes), IX on
 * int64 xa (signed ints, uint8..uint32, bool), UX on uint64 xa. */
#define GE__HC_EW_UN(name, FX, IX, UX)                                                       \
  GE__HC_HELPER void ge__hc_ew_##name##_uf32(GE__HC_EW_UN_ARGS) {                              \
    const float *px = (const float *)x->data;                                                \
    float *py = (float *)y->data;                                                            \
    int64_t i;                                                                               \
    (void)k;                                                                                 \
    for (i = 0; i < x->numel; i++) {                                                         \
      double xa = px[i];                                                                     \
      (void)xa;                                                                              \
      py[i] = (float)(FX);                                                                   \
    }                                                                                        \
  }                                                                                          \
  GE__HC_HELPER void ge__hc_ew_##name##_uf64(GE__HC_EW_UN_ARGS) {                              \
    const double *px = (const double *)x->data;                                              \
    double *py = (double *)y->data;                                                          \
    int64_t i;                                                                               \
    (void)k;                                                                                 \
    for (i = 0; i < x->numel; i++) {                                                         \
      double xa = px[i];                                                                     \
      (void)xa;                                                                              \
      py[i] = (FX);                                                                          \
    }                                                                                        \
  }                                                                                          \
  GE__HC_HELPER void ge__hc_ew_##name##_ugen(GE__HC_EW_UN_ARGS) {                              \
    int64_t i;                                                                               \
    (void)k;                                                                                 \
    if (ge__hc_is_float(x->dtype)) {                                                         \
      for (i = 0; i < x->numel; i++) {                                                       \
        double xa = ge__hc_get_f(x, i);                                                      \
        (void)xa;                                                                            \
        ge__hc_ew_store_f(y, i, (double)(FX));                                               \
      }                                                                                      \
    } else if (x->dtype == GE_DTYPE_UINT64) {                                                \
      for (i = 0; i < x->numel; i++) {                                                       \
        uint64_t xa = ((const uint64_t *)x->data)[i];                                        \
        (void)xa;                                                                            \
        ((uint64_t *)y->data)[i] = (uint64_t)(UX);                                           \
      }                                                                                      \
    } else {                                                                                 \
      for (i = 0; i < x->numel; i++) {                                                       \
        int64_t xa = ge__hc_get_i(x, i);                                                     \
        (void)xa;                                                                            \
        ge__hc_set_i(y, i, (int64_t)(IX));                                                   \
      }                                                                                      \
    }                                                                                        \
  }                                                                                          \
  GE__HC_HELPER ge__hc_ew_urow ge__hc_ew_##name##_upick(ge_dtype t) {                          \
    return t == GE_DTYPE_FLOAT32 ? ge__hc_ew_##name##_uf32                                   \
         : t == GE_DTYPE_FLOAT64 ? ge__hc_ew_##name##_uf64                                   \
                                 : ge__hc_ew_##name##_ugen;                                  \
  }

static double ge__hc_ew_shrink(const ge__hc_ew_par *k, double x) {
  return x < -k->alpha ? x + k->beta : x > k->alpha ? x - k->beta : 0.0;
}
static double ge__hc_ew_hardsigmoid(double t) { return t > 1 ? 1.0 : t < 0 ? 0.0 : t; }
static double ge__hc_ew_gelu(const ge__hc_ew_par *k, double x) {
  if (k->flag) return 0.5 * x * (1 + tanh(0.79788456080286535588 * (x + 0.044715 * x * x * x)));
  return 0.5 * x * (1 + erf(x * 0.70710678118654752440));
}

GE__HC_EW_UN(relu, xa < 0 ? 0.0 : xa, xa < 0 ? 0 : xa, xa)
GE__HC_EW_UN(abs, fabs(xa), xa < 0 ? ge__hc_ew_ineg(xa) : xa, xa)
GE__HC_EW_UN(neg, -xa, ge__hc_ew_ineg(xa), 0u - xa)
GE__HC_EW_UN(sign, xa > 0 ? 1.0 : xa < 0 ? -1.0 : xa, (xa > 0) - (xa < 0), xa != 0)
GE__HC_EW_UN(not, xa == 0, xa == 0, xa == 0)
GE__HC_EW_UN(bnot, 0, ~xa, ~xa)
GE__HC_EW_UN(floor, floor(xa), xa, xa)
GE__HC_EW_UN(ceil, ceil(xa), xa, xa)
GE__HC_EW_UN(round, ge__hc_ew_round(xa), xa, xa)
GE__HC_EW_UN(reciprocal, 1.0 / xa, 0, 0)
GE__HC_EW_UN(sqrt, sqrt(xa), 0, 0)
GE__HC_EW_UN(exp, exp(xa), 0, 0)
GE__HC_EW_UN(log, log(xa), 0, 0)
GE__HC_EW_UN(erf, erf(xa), 0, 0)
GE__HC_EW_UN(sin, sin(xa), 0, 0)
GE__HC_EW_UN(cos, cos(xa), 0, 0)
GE__HC_EW_UN(tan, tan(xa), 0, 0)
GE__HC_EW_UN(asin, asin(xa), 0, 0)
GE__HC_EW_UN(acos, acos(xa), 0, 0)
GE__HC_EW_UN(atan, atan(xa), 0, 0)
GE__HC_EW_UN(sinh, sinh(xa), 0, 0)
GE__HC_EW_UN(cosh, cosh(xa), 0, 0)
GE__HC_EW_UN(tanh, tanh(xa), 0, 0)
GE__HC_EW_UN(asinh, asinh(xa), 0, 0)
GE__HC_EW_UN(acosh, acosh(xa), 0, 0)
GE__HC_EW_UN(atanh, atanh(xa), 0, 0)
GE__HC_EW_UN(sigmoid, xa >= 0 ? 1 / (1 + exp(-xa)) : exp(xa) / (1 + exp(xa)), 0, 0)
GE__HC_EW_UN(softplus, ge__hc_ew_softplus(xa), 0, 0)
GE__HC_EW_UN(softsign, xa / (1 + fabs(xa)), 0, 0)
GE__HC_EW_UN(mish, xa * tanh(ge__hc_ew_softplus(xa)), 0, 0)
GE__HC_EW_UN(leaky_relu, xa < 0 ? k->alpha * xa : xa, 0, 0)
GE__HC_EW_UN(elu, xa < 0 ? k->alpha * expm1(xa) : xa, 0, 0)
GE__HC_EW_UN(selu, xa <= 0 ? k->gamma * k->alpha * expm1(xa) : k->gamma * xa, 0, 0)
GE__HC_EW_UN(celu, xa > 0 ? xa : k->alpha * expm1(xa / k->alpha), 0, 0)
GE__HC_EW_UN(thresholded_relu, xa > k->alpha ? xa : 0.0, 0, 0)
GE__HC_EW_UN(hard_sigmoid, ge__hc_ew_hardsigmoid(k->alpha * xa + k->beta), 0, 0)
GE__HC_EW_UN(hard_swish, xa * ge__hc_ew_hardsigmoid(xa / 6 + 0.5), 0, 0)
GE__HC_EW_UN(gelu, ge__hc_ew_gelu(k, xa), 0, 0)
GE__HC_EW_UN(shrink, ge__hc_ew_shrink(k, xa), ge__hc_ew_f2i(ge__hc_ew_shrink(k, (double)xa)),
             ge__hc_ew_f2u(ge__hc_ew_shrink(k, (double)xa)))

static ge_status ge__hc_ew_unary(ge_kernel_ctx *c, ge__hc_ew_upick pick, uint32_t mask, const ge__hc_ew_par *k) {
  const ge_value *x;
  ge_value *y;
  ge_status s;
  if ((s = ge__hc_ew_need(c, 1)) != GE_OK) return s;
  x = c->inputs[0];
  if ((s = ge__hc_ew_dtype(c, x, mask)) != GE_OK) return s;
  y = ge_kernel_output(c, 0, x->dtype, x->rank, x->dims);
  if (!y) return GE__HC_OUT_FAILED(c);
  pick(x->dtype)(k, x, y);
  return GE_OK;
}

/* Unary kernels without attributes. */
#define GE__HC_EW_UNARY_KERNEL(name, mask)                                                   \
  static ge_status ge__hc_##name(ge_kernel_ctx *c) {                                         \
    ge__hc_ew_par k;                                                                         \
    memset(&k, 0, sizeof k);                                                                 \
    return ge__hc_ew_unary(c, ge__hc_ew_##name##_upick, mask, &k);                           \
  }
GE__HC_EW_UNARY_KERNEL(relu, GE__HC_EW_M_SIGNED)
GE__HC_EW_UNARY_KERNEL(abs, GE__HC_EW_M_NUM)
GE__HC_EW_UNARY_KERNEL(neg, GE__HC_EW_M_NUM)
GE__HC_EW_UNARY_KERNEL(sign, GE__HC_EW_M_NUM)
GE__HC_EW_UNARY_KERNEL(not, GE__HC_EW_M_BOOL)
GE__HC_EW_UNARY_KERNEL(bnot, GE__HC_EW_M_INT)
GE__HC_EW_UNARY_KERNEL(floor, GE__HC_EW_M_FLOAT)
GE__HC_EW_UNARY_KERNEL(ceil, GE__HC_EW_M_FLOAT)
GE__HC_EW_UNARY_KERNEL(round, GE__HC_EW_M_FLOAT)
GE__HC_EW_UNARY_KERNEL(reciprocal, GE__HC_EW_M_FLOAT)
GE__HC_EW_UNARY_KERNEL(sqrt, GE__HC_EW_M_FLOAT)
GE__HC_EW_UNARY_KERNEL(exp, GE__HC_EW_M_FLOAT)
GE__HC_EW_UNARY_KERNEL(log, GE__HC_EW_M_FLOAT)
GE__HC_EW_UNARY_KERNEL(erf, GE__HC_EW_M_FLOAT)
GE__HC_EW_UNARY_KERNEL(sin, GE__HC_EW_M_FLOAT)
GE__HC_EW_UNARY_KERNEL(cos, GE__HC_EW_M_FLOAT)
GE__HC_EW_UNARY_KERNEL(tan, GE__HC_EW_M_FLOAT)
GE__HC_EW_UNARY_KERNEL(asin, GE__HC_EW_M_FLOAT)
GE__HC_EW_UNARY_KERNEL(acos, GE__HC_EW_M_FLOAT)
GE__HC_EW_UNARY_KERNEL(atan, GE__HC_EW_M_FLOAT)
GE__HC_EW_UNARY_KERNEL(sinh, GE__HC_EW_M_FLOAT)
GE__HC_EW_UNARY_KERNEL(cosh, GE__HC_EW_M_FLOAT)
GE__HC_EW_UNARY_KERNEL(tanh, GE__HC_EW_M_FLOAT)
GE__HC_EW_UNARY_KERNEL(asinh, GE__HC_EW_M_FLOAT)
GE__HC_EW_UNARY_KERNEL(acosh, GE__HC_EW_M_FLOAT)
GE__HC_EW_UNARY_KERNEL(atanh, GE__HC_EW_M_FLOAT)
GE__HC_EW_UNARY_KERNEL(sigmoid, GE__HC_EW_M_FLOAT)
GE__HC_EW_UNARY_KERNEL(softplus, GE__HC_EW_M_FLOAT)
GE__HC_EW_UNARY_KERNEL(softsign, GE__HC_EW_M_FLOAT)
GE__HC_EW_UNARY_KERNEL(mish, GE__HC_EW_M_FLOAT)
GE__HC_EW_UNARY_KERNEL(hard_swish, GE__HC_EW_M_FLOAT)

/* Unary kernels with attributes (ONNX defaults when absent). */
static ge_status ge__hc_ew_unary_attrs(ge_kernel_ctx *c, ge__hc_ew_upick pick, uint32_t mask, const char *a1,
                                       double d1, const char *a2, double d2) {
  ge__hc_ew_par k;
  memset(&k, 0, sizeof k);
  if (a1) k.alpha = ge_node_attr_float(c->node, a1, d1);
  if (a2) k.beta = ge_node_attr_float(c->node, a2, d2);
  return ge__hc_ew_unary(c, pick, mask, &k);
}
static ge_status ge__hc_leaky_relu(ge_kernel_ctx *c) {
  return ge__hc_ew_unary_attrs(c, ge__hc_ew_leaky_relu_upick, GE__HC_EW_M_FLOAT, "alpha", 0.01, NULL, 0);
}
static ge_status ge__hc_elu(ge_kernel_ctx *c) {
  return ge__hc_ew_unary_attrs(c, ge__hc_ew_elu_upick, GE__HC_EW_M_FLOAT, "alpha", 1.0, NULL, 0);
}
static ge_status ge__hc_celu(ge_kernel_ctx *c) {
  return ge__hc_ew_unary_attrs(c, ge__hc_ew_celu_upick, GE__HC_EW_M_FLOAT, "alpha", 1.0, NULL, 0);
}
static ge_status ge__hc_thresholded_relu(ge_kernel_ctx *c) {
  return ge__hc_ew_unary_attrs(c, ge__hc_ew_thresholded_relu_upick, GE__HC_EW_M_FLOAT, "alpha", 1.0, NULL, 0);
}
static ge_status ge__hc_hard_sigmoid(ge_kernel_ctx *c) {
  return ge__hc_ew_unary_attrs(c, ge__hc_ew_hard_sigmoid_upick, GE__HC_EW_M_FLOAT, "alpha", 0.2, "beta", 0.5);
}
/* Shrink: alpha = lambd, beta = bias. */
static ge_status ge__hc_shrink(ge_kernel_ctx *c) {
  return ge__hc_ew_unary_attrs(c, ge__hc_ew_shrink_upick, GE__HC_EW_M_NUM, "lambd", 0.5, "bias", 0.0);
}
static ge_status ge__hc_selu(ge_kernel_ctx *c) {
  ge__hc_ew_par k;
  memset(&k, 0, sizeof k);
  k.alpha = ge_node_attr_float(c->node, "alpha", 1.67326319217681884765625);
  k.gamma = ge_node_attr_float(c->node, "gamma", 1.05070102214813232421875);
  return ge__hc_ew_unary(c, ge__hc_ew_selu_upick, GE__HC_EW_M_FLOAT, &k);
}
static ge_status ge__hc_gelu(ge_kernel_ctx *c) {
  ge__hc_ew_par k;
  const char *a = ge_node_attr_string(c->node, "approximate", "none");
  memset(&k, 0, sizeof k);
  if (strcmp(a, "tanh") == 0) k.flag = 1;
  else if (strcmp(a, "none") != 0)
    return ge_kernel_error(c, GE_ERR_INVALID, "approximate must be 'none' or 'tanh', not '%.40s'", a);
  return ge__hc_ew_unary(c, ge__hc_ew_gelu_upick, GE__HC_EW_M_FLOAT, &k);
}

/* IsNaN, IsInf: float in, bool out. */
static ge_status ge__hc_ew_classify(ge_kernel_ctx *c, int nan, int neg, int pos) {
  const ge_value *x;
  ge_value *y;
  int64_t i;
  ge_status s;
  if ((s = ge__hc_ew_need(c, 1)) != GE_OK) return s;
  x = c->inputs[0];
  if ((s = ge__hc_ew_dtype(c, x, GE__HC_EW_M_FLOAT)) != GE_OK) return s;
  y = ge_kernel_output(c, 0, GE_DTYPE_BOOL, x->rank, x->dims);
  if (!y) return GE__HC_OUT_FAILED(c);
  for (i = 0; i < x->numel; i++) {
    double v = ge__hc_get_f(x, i);
    int inf = v - v != v - v && v == v; /* inf - inf is NaN */
    ((uint8_t *)y->data)[i] = (uint8_t)(nan ? v != v : inf && ((v < 0 && neg) || (v > 0 && pos)));
  }
  return GE_OK;
}
static ge_status ge__hc_isnan(ge_kernel_ctx *c) { return ge__hc_ew_classify(c, 1, 0, 0); }
static ge_status ge__hc_isinf(ge_kernel_ctx *c) {
  return ge__hc_ew_classify(c, 0, ge_node_attr_int(c->node, "detect_negative", 1) != 0,
                            ge_node_attr_int(c->node, "detect_positive", 1) != 0);
}

/* ---------------------------------------------------------------- Clip */

/* Clip(x, min, max): y = min(max(x, lo), hi) as numpy computes it (a NaN
 * bound or x gives NaN; lo > hi gives hi). Bounds are inputs 1 and 2
 * (opset >= 11, scalars of x's dtype) or the min/max attributes (opset < 11). */
static ge_status ge__hc_clip(ge_kernel_ctx *c) {
  const ge_value *x, *lo = NULL, *hi = NULL;
  ge_value *y;
  int64_t i;
  uint32_t k;
  ge_status s;
  if ((s = ge__hc_ew_need(c, 1)) != GE_OK) return s;
  x = c->inputs[0];
  if ((s = ge__hc_ew_dtype(c, x, GE__HC_EW_M_NUM)) != GE_OK) return s;
  for (k = 1; k < 3 && k < c->num_inputs; k++) {
    const ge_value *b = c->inputs[k];
    if (!b) continue;
    if ((s = ge__hc_ew_check_value(c, b, k)) != GE_OK || (s = ge__hc_ew_same_dtype(c, x, b)) != GE_OK) return s;
    if (b->numel != 1)
      return ge_kernel_error(c, GE_ERR_SHAPE, "%s must be a scalar (has %lld elements)", k == 1 ? "min" : "max",
                             (long long)b->numel);
    if (k == 1) lo = b;
    else hi = b;
  }
  y = ge_kernel_output(c, 0, x->dtype, x->rank, x->dims);
  if (!y) return GE__HC_OUT_FAILED(c);
  if (ge__hc_is_float(x->dtype)) {
    double l = lo ? ge__hc_get_f(lo, 0) : ge_node_attr_float(c->node, "min", -HUGE_VAL);
    double h = hi ? ge__hc_get_f(hi, 0) : ge_node_attr_float(c->node, "max", HUGE_VAL);
    for (i = 0; i < x->numel; i++) {
      double v = ge__hc_get_f(x, i);
      if (l != l || v < l) v = l;
      if (h != h || v > h) v = h;
      ge__hc_ew_store_f(y, i, v);
    }
  } else if (x->dtype == GE_DTYPE_UINT64) {
    uint64_t l = lo ? ((const uint64_t *)lo->data)[0] : 0, h = hi ? ((const uint64_t *)hi->data)[0] : UINT64_MAX;
    for (i = 0; i < x->numel; i++) {
      uint64_t v = ((const uint64_t *)x->data)[i];
      if (v < l) v = l;
      if (v > h) v = h;
      ((uint64_t *)y->data)[i] = v;
    }
  } else {
    int64_t l = lo ? ge__hc_get_i(lo, 0) : INT64_MIN, h = hi ? ge__hc_get_i(hi, 0) : INT64_MAX;
    for (i = 0; i < x->numel; i++) {
      int64_t v = ge__hc_get_i(x, i);
      if (v < l) v = l;
      if (v > h) v = h;
      ge__hc_set_i(y, i, v);
    }
  }
  return GE_OK;
}

/* ------------------------------------------------ Identity, Dropout */

/* Identity: any tensor dtype (strings: the pointers are copied). */
static ge_status ge__hc_identity(ge_kernel_ctx *c) {
  ge_status s;
  if ((s = ge__hc_ew_need(c, 1)) != GE_OK) return s;
  if (c->inputs[0]->dtype == GE_DTYPE_UNDEFINED || (unsigned)c->inputs[0]->dtype >= GE_DTYPE_COUNT)
    return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "dtype %s is not supported", ge_dtype_name(c->inputs[0]->dtype));
  if (c->inputs[0]->dtype != GE_DTYPE_STRING)
    return ge_kernel_output_view(c, 0, c->inputs[0], c->inputs[0]->rank, c->inputs[0]->dims) ? GE_OK : c->err->code;
  return ge__hc_copy_to_output(c, 0, c->inputs[0]);
}

/* Mersenne Twister MT19937 seeded as numpy's legacy np.random.seed(s), and
 * numpy's random_sample() doubles from it (53 bits from two outputs). */
typedef struct ge__hc_ew_mt {
  uint32_t key[624];
  int pos;
} ge__hc_ew_mt;

static void ge__hc_ew_mt_seed(ge__hc_ew_mt *m, uint32_t s) {
  int i;
  for (i = 0; i < 624; i++) {
    m->key[i] = s;
    s = 1812433253u * (s ^ (s >> 30)) + (uint32_t)i + 1u;
  }
  m->pos = 624;
}

static uint32_t ge__hc_ew_mt_next(ge__hc_ew_mt *m) {
  uint32_t y;
  if (m->pos == 624) {
    int i;
    for (i = 0; i < 624; i++) {
      y = (m->key[i] & 0x80000000u) | (m->key[(i + 1) % 624] & 0x7fffffffu);
      m->key[i] = m->key[(i + 397) % 624] ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
    }
    m->pos = 0;
  }
  y = m->key[m->pos++];
  y ^= y >> 11;
  y ^= (y << 7) & 0x9d2c5680u;
  y ^= (y << 15) & 0xefc60000u;
  y ^= y >> 18;
  return y;
}

static double ge__hc_ew_mt_double(ge__hc_ew_mt *m) {
  uint32_t a = ge__hc_ew_mt_next(m) >> 5, b = ge__hc_ew_mt_next(m) >> 6;
  return ((double)a * 67108864.0 + (double)b) / 9007199254740992.0;
}

/* Dropout. Inference (the default): y = x, mask (output 1, when present)
 * all true. Training mode (input 2 true) with ratio r > 0: element i is
 * kept when the i-th uniform draw is >= r and scaled by 1/(1-r); the draws
 * are numpy's legacy generator seeded with the seed attribute (0 when
 * absent), which reproduces the ONNX reference and its test data. */
static ge_status ge__hc_dropout(ge_kernel_ctx *c) {
  const ge_value *x;
  ge_value *y = NULL, *m = NULL;
  double ratio;
  int training = 0;
  int64_t i;
  ge_status s;
  if ((s = ge__hc_ew_need(c, 1)) != GE_OK) return s;
  x = c->inputs[0];
  if ((s = ge__hc_ew_dtype(c, x, GE__HC_EW_M_NUM)) != GE_OK) return s;
  ratio = ge_node_attr_float(c->node, "ratio", 0.5);
  if (c->num_inputs > 1 && c->inputs[1]) {
    if ((s = ge__hc_ew_check_value(c, c->inputs[1], 1)) != GE_OK) return s;
    if (c->inputs[1]->numel != 1 || !ge__hc_is_float(c->inputs[1]->dtype))
      return ge_kernel_error(c, GE_ERR_INVALID, "ratio must be a float scalar");
    ratio = ge__hc_get_f(c->inputs[1], 0);
  }
  if (c->num_inputs > 2 && c->inputs[2]) {
    if ((s = ge__hc_ew_check_value(c, c->inputs[2], 2)) != GE_OK) return s;
    if (c->inputs[2]->numel != 1 || c->inputs[2]->dtype != GE_DTYPE_BOOL)
      return ge_kernel_error(c, GE_ERR_INVALID, "training_mode must be a bool scalar");
    training = ((const uint8_t *)c->inputs[2]->data)[0] != 0;
  }
  if (!(ratio >= 0 && ratio < 1)) return ge_kernel_error(c, GE_ERR_INVALID, "ratio must be in [0, 1), not %g", ratio);
  if (training && ratio != 0 && !ge__hc_is_float(x->dtype))
    return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "training mode needs a float input, not %s", ge_dtype_name(x->dtype));
  if (!training || ratio == 0) {
    if ((s = ge__hc_copy_to_output(c, 0, x)) != GE_OK) return s;
  } else if (!(y = ge_kernel_output(c, 0, x->dtype, x->rank, x->dims))) {
    return GE__HC_OUT_FAILED(c);
  }
  if (c->num_outputs > 1) {
    m = ge_kernel_output(c, 1, GE_DTYPE_BOOL, x->rank, x->dims);
    if (!m) return GE__HC_OUT_FAILED(c);
    if (m->numel) memset(m->data, 1, (size_t)m->numel);
  }
  if (training && ratio != 0) {
    ge__hc_ew_mt mt;
    double scale = 1.0 / (1.0 - ratio);
    ge__hc_ew_mt_seed(&mt, (uint32_t)ge_node_attr_int(c->node, "seed", 0));
    for (i = 0; i < x->numel; i++) {
      int keep = ge__hc_ew_mt_double(&mt) >= ratio;
      ge__hc_ew_store_f(y, i, keep ? ge__hc_get_f(x, i) * scale : 0.0);
      if (m) ((uint8_t *)m->data)[i] = (uint8_t)keep;
    }
  }
  return GE_OK;
}

/* ---------------------------------------------------------- Cast */

/* Parses a string as ONNX Cast does ("1.5", "-3", "NaN", "INF", "-inf"):
 * integers exactly when the whole string is one. 0 if unparseable. */
static void ge__hc_ew_store_str(ge_value *y, int64_t i, const char *s) {
  char *end;
  if (!s) s = "";
  if (!ge__hc_is_float(y->dtype)) {
    if (y->dtype == GE_DTYPE_UINT64 && *s != '-') {
      unsigned long long u = strtoull(s, &end, 10);
      if (end != s && *end == 0) {
        ge__hc_ew_store_u(y, i, (uint64_t)u);
        return;
      }
    } else {
      long long v = strtoll(s, &end, 10);
      if (end != s && *end == 0) {
        ge__hc_ew_store_i(y, i, (int64_t)v);
        return;
      }
    }
  }
  {
    double d = strtod(s, &end);
    ge__hc_ew_store_f(y, i, end == s ? 0.0 : d);
  }
}

/* Number -> string formatting lives with the string kernels (extra.h). */
static ge_status ge__hc_ex_cast_to_string(ge_kernel_ctx *c, const ge_value *x, uint32_t out);

static ge_status ge__hc_ew_cast(ge_kernel_ctx *c, const ge_value *x, int64_t to) {
  ge_value *y;
  int64_t i;
  ge_dtype t = (ge_dtype)to;
  if (to <= GE_DTYPE_UNDEFINED || to >= GE_DTYPE_COUNT || to == GE_DTYPE_COMPLEX64 || to == GE_DTYPE_COMPLEX128)
    return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "cannot cast to dtype %lld", (long long)to);
  if (x->dtype == GE_DTYPE_UNDEFINED || (unsigned)x->dtype >= GE_DTYPE_COUNT || x->dtype == GE_DTYPE_COMPLEX64 ||
      x->dtype == GE_DTYPE_COMPLEX128)
    return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "cannot cast from dtype %s", ge_dtype_name(x->dtype));
  if (t == x->dtype && t != GE_DTYPE_STRING) /* to its own dtype: a view, as Identity (a copy where the executor cannot alias) */
    return ge_kernel_output_view(c, 0, x, x->rank, x->dims) ? GE_OK : GE__HC_OUT_FAILED(c);
  if (t == x->dtype) return ge__hc_copy_to_output(c, 0, x);
  if (t == GE_DTYPE_STRING) return ge__hc_ex_cast_to_string(c, x, 0);
  y = ge_kernel_output(c, 0, t, x->rank, x->dims);
  if (!y) return GE__HC_OUT_FAILED(c);
  if (x->dtype == GE_DTYPE_STRING) {
    for (i = 0; i < x->numel; i++) ge__hc_ew_store_str(y, i, ((char *const *)x->data)[i]);
  } else if (ge__hc_is_float(x->dtype)) {
    for (i = 0; i < x->numel; i++) ge__hc_ew_store_f(y, i, ge__hc_get_f(x, i));
  } else if (x->dtype == GE_DTYPE_UINT64) {
    for (i = 0; i < x->numel; i++) ge__hc_ew_store_u(y, i, ((const uint64_t *)x->data)[i]);
  } else {
    for (i = 0; i < x->numel; i++) ge__hc_ew_store_i(y, i, ge__hc_get_i(x, i));
  }
  return GE_OK;
}

static ge_status ge__hc_cast(ge_kernel_ctx *c) {
  ge_status s;
  if ((s = ge__hc_ew_need(c, 1)) != GE_OK) return s;
  if (!ge_node_attr(c->node, "to")) return ge_kernel_error(c, GE_ERR_INVALID, "needs the 'to' attribute");
  return ge__hc_ew_cast(c, c->inputs[0], ge_node_attr_int(c->node, "to", -1));
}

static ge_status ge__hc_cast_like(ge_kernel_ctx *c) {
  ge_status s;
  if ((s = ge__hc_ew_need(c, 2)) != GE_OK) return s;
  return ge__hc_ew_cast(c, c->inputs[0], c->inputs[1]->dtype);
}

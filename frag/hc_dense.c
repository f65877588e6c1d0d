/* ------------------------------------------- dense, pooling, norms, reductions
 *
 * MatMul, Gemm, Conv, ConvTranspose and the integer variants run on three
 * typed cores (float for float32/float16/bfloat16, double for float64,
 * uint64 for every integer type, whose wrap-around arithmetic gives the
 * two's complement result of any narrower integer type). Everything else
 * reads elements as double (or int64 where integer results must be exact)
 * and writes them back converted. Statistics (means, variances, sums of
 * reductions) accumulate in double. */

#define GE__HC_DN_F 0 /* float core */
#define GE__HC_DN_D 1 /* double core */
#define GE__HC_DN_U 2 /* uint64 core (integers) */

static void *ge__hc_dn_alloc(size_t n) { return malloc(n ? n : 1); }

/* Input i, or NULL when absent or past the inputs given. */
static const ge_value *ge__hc_dn_in(const ge_kernel_ctx *c, uint32_t i) {
  return i < c->num_inputs ? c->inputs[i] : NULL;
}

/* Whether output i is wanted (present in the context). */
static int ge__hc_dn_want(const ge_kernel_ctx *c, uint32_t i) { return i < c->num_outputs && c->outputs[i] != NULL; }

static ge_status ge__hc_dn_missing(ge_kernel_ctx *c, unsigned i) {
  return ge_kernel_error(c, GE_ERR_INVALID, "required input %u is missing", i);
}

static ge_status ge__hc_dn_nomem(ge_kernel_ctx *c) { return ge_kernel_error(c, GE_ERR_NOMEM, "out of memory"); }

static ge_status ge__hc_dn_bad_dtype(ge_kernel_ctx *c, ge_dtype t) {
  return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "dtype %s is not supported", ge_dtype_name(t));
}

static int ge__hc_dn_is_int(ge_dtype t) { return (GE_DTYPE_BIT(t) & GE_DTYPES_INT) != 0; }

/* The core for a dtype, or -1. */
static int ge__hc_dn_kind(ge_dtype t) {
  if (t == GE_DTYPE_FLOAT64) return GE__HC_DN_D;
  if (t == GE_DTYPE_FLOAT32 || t == GE_DTYPE_FLOAT16 || t == GE_DTYPE_BFLOAT16) return GE__HC_DN_F;
  if (ge__hc_dn_is_int(t)) return GE__HC_DN_U;
  return -1;
}

static size_t ge__hc_dn_kind_size(int kind) { return kind == GE__HC_DN_F ? sizeof(float) : 8; }

/* Whether values of dtype t are stored exactly as the core's elements. */
static int ge__hc_dn_native(ge_dtype t, int kind) {
  return (kind == GE__HC_DN_F && t == GE_DTYPE_FLOAT32) || (kind == GE__HC_DN_D && t == GE_DTYPE_FLOAT64) ||
         (kind == GE__HC_DN_U && (t == GE_DTYPE_INT64 || t == GE_DTYPE_UINT64));
}

/* v's elements as the core's element type: v->data itself when already so,
 * else a malloc'ed converted copy (*owned set). NULL when out of memory. */
static void *ge__hc_dn_load(const ge_value *v, int kind, int *owned) {
  int64_t i;
  void *p;
  *owned = 0;
  if (ge__hc_dn_native(v->dtype, kind)) return v->data;
  p = ge__hc_dn_alloc((size_t)v->numel * ge__hc_dn_kind_size(kind));
  if (!p) return NULL;
  *owned = 1;
  for (i = 0; i < v->numel; i++) {
    if (kind == GE__HC_DN_F)
      ((float *)p)[i] = (float)ge__hc_get_f(v, i);
    else if (kind == GE__HC_DN_D)
      ((double *)p)[i] = ge__hc_get_f(v, i);
    else
      ((uint64_t *)p)[i] = (uint64_t)ge__hc_get_i(v, i);
  }
  return p;
}

/* Storage for a result of y's shape in the core's type: y->data itself when
 * native, else a malloc'ed buffer (*owned set) for ge__hc_dn_store. */
static void *ge__hc_dn_result(ge_value *y, int kind, int *owned) {
  *owned = !ge__hc_dn_native(y->dtype, kind);
  return *owned ? ge__hc_dn_alloc((size_t)y->numel * ge__hc_dn_kind_size(kind)) : y->data;
}

/* Stores x as element i of y; for integer dtypes NaN becomes 0 and values
 * out of range saturate (a plain conversion would be undefined). */
static void ge__hc_dn_set_f(ge_value *y, int64_t i, double x) {
  double lo = 0, hi = 0;
  switch (y->dtype) {
  case GE_DTYPE_INT8: lo = -128.0, hi = 127.0; break;
  case GE_DTYPE_UINT8: hi = 255.0; break;
  case GE_DTYPE_INT16: lo = -32768.0, hi = 32767.0; break;
  case GE_DTYPE_UINT16: hi = 65535.0; break;
  case GE_DTYPE_INT32: lo = -2147483648.0, hi = 2147483647.0; break;
  case GE_DTYPE_UINT32: hi = 4294967295.0; break;
  case GE_DTYPE_INT64:
    if (x != x) x = 0;
    if (x >= 9223372036854775807.0) {
      ge__hc_set_i(y, i, INT64_MAX);
      return;
    }
    if (x <= -9223372036854775807.0) {
      ge__hc_set_i(y, i, INT64_MIN);
      return;
    }
    ge__hc_set_f(y, i, x);
    return;
  case GE_DTYPE_UINT64:
    if (x != x || x <= 0) x = 0;
    if (x >= 18446744073709551615.0) {
      ge__hc_set_i(y, i, -1); /* all ones: the largest uint64 */
      return;
    }
    ge__hc_set_f(y, i, x);
    return;
  default: ge__hc_set_f(y, i, x); return;
  }
  if (x != x) x = 0;
  ge__hc_set_f(y, i, x < lo ? lo : x > hi ? hi : x);
}

/* Copies a result in the core's type into y (no-op when buf is y's data). */
static void ge__hc_dn_store(ge_value *y, int kind, const void *buf) {
  int64_t i;
  if (buf == y->data) return;
  for (i = 0; i < y->numel; i++) {
    if (kind == GE__HC_DN_F)
      ge__hc_set_f(y, i, ((const float *)buf)[i]);
    else if (kind == GE__HC_DN_D)
      ge__hc_set_f(y, i, ((const double *)buf)[i]);
    else
      ge__hc_set_i(y, i, (int64_t)((const uint64_t *)buf)[i]);
  }
}

/* A numeric value as a malloc'ed array of doubles (NULL: out of memory). */
static double *ge__hc_dn_doubles(const ge_value *v) {
  double *p = (double *)ge__hc_dn_alloc((size_t)v->numel * sizeof(double));
  int64_t i;
  if (p)
    for (i = 0; i < v->numel; i++) p[i] = ge__hc_get_f(v, i);
  return p;
}

/* Reads an ints attribute of n entries into out (dflt for each entry when
 * absent). 0 when present with another count. */
static int ge__hc_dn_ints(const ge_node *nd, const char *name, int32_t n, int64_t dflt, int64_t *out) {
  const int64_t *v;
  int32_t cnt = ge_node_attr_ints(nd, name, &v), i;
  if (cnt < 0) {
    for (i = 0; i < n; i++) out[i] = dflt;
    return 1;
  }
  if (cnt != n) return 0;
  for (i = 0; i < n; i++) out[i] = v[i];
  return 1;
}

/* Product of dims[from, to). */
static int64_t ge__hc_dn_prod(const int64_t *dims, int32_t from, int32_t to) {
  int64_t p = 1;
  for (; from < to; from++) p *= dims[from];
  return p;
}

static int64_t ge__hc_dn_floordiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

/* The j with 0 <= j < jn and 0 <= j*s + off < lim, as [*lo, *hi). */
static void ge__hc_dn_span(int64_t off, int64_t s, int64_t lim, int64_t jn, int64_t *lo, int64_t *hi) {
  int64_t a = off < 0 ? (-off + s - 1) / s : 0, b = lim - 1 - off < 0 ? 0 : (lim - 1 - off) / s + 1;
  if (b > jn) b = jn;
  if (a > b) a = b;
  *lo = a;
  *hi = b;
}

/* Splits dims around axis: outer (before), len (at), inner (after). */
static void ge__hc_dn_split(const ge_value *v, int32_t axis, int64_t *outer, int64_t *len, int64_t *inner) {
  *outer = ge__hc_dn_prod(v->dims, 0, axis);
  *len = v->rank ? v->dims[axis] : 1;
  *inner = v->rank ? ge__hc_dn_prod(v->dims, axis + 1, v->rank) : 1;
}

/* -------------------------------------------------- typed dense cores */

/* Convolution geometry: n batches, c input and m output channels in group
 * groups, r spatial dims with input sizes in, kernel k, output out,
 * strides s, dilations d and leading pads pb. */
typedef struct ge__hc_dn_cv {
  int64_t n, c, m, group;
  int32_t r;
  int64_t in[GE_MAX_RANK], k[GE_MAX_RANK], out[GE_MAX_RANK];
  int64_t s[GE_MAX_RANK], d[GE_MAX_RANK], pb[GE_MAX_RANK];
  int64_t in_sz, k_sz, out_sz;
} ge__hc_dn_cv;

/* mm: y[M,N] = a[M,K] b[K,N], element (i,k) of a at i*ars + k*acs, (k,j)
 *   of b at k*brs + j*bcs; loop order i-k-j when b's rows are contiguous.
 * conv: y[n,m,o] = bias[m] + sum over c in m's group and kernel positions
 *   of x[n,c,o*s + k*d - pb] * w[m,c,k] (out-of-range x are zero padding);
 *   the innermost loop runs along the last output dimension.
 * convt: the transpose: each x[n,c,i] * w[c,m,k] adds into
 *   y[n,m,i*s + k*d - pb], with w [C, M/group, k...]. */
#define GE__HC_DN_CORES(T, S)                                                                                        \
  GE__HC_HELPER void ge__hc_dn_mm_##S(int64_t M, int64_t N, int64_t K, const T *a, int64_t ars, int64_t acs,         \
                                      const T *b, int64_t brs, int64_t bcs, T *y) {                                   \
    int64_t i, j, k;                                                                                                 \
    if (bcs == 1) {                                                                                                  \
      for (i = 0; i < M; i++) {                                                                                      \
        T *yr = y + i * N;                                                                                           \
        for (j = 0; j < N; j++) yr[j] = (T)0;                                                                        \
        for (k = 0; k < K; k++) {                                                                                    \
          T av = a[i * ars + k * acs];                                                                               \
          const T *br = b + k * brs;                                                                                 \
          for (j = 0; j < N; j++) yr[j] += av * br[j];                                                               \
        }                                                                                                            \
      }                                                                                                              \
    } else {                                                                                                         \
      for (i = 0; i < M; i++)                                                                                        \
        for (j = 0; j < N; j++) {                                                                                    \
          T acc = (T)0;                                                                                              \
          for (k = 0; k < K; k++) acc += a[i * ars + k * acs] * b[k * brs + j * bcs];                                \
          y[i * N + j] = acc;                                                                                        \
        }                                                                                                            \
    }                                                                                                                \
  }                                                                                                                  \
  GE__HC_HELPER void ge__hc_dn_conv_##S(const ge__hc_dn_cv *p, const T *x, const T *w, const T *bias, T *y) {        \
    int64_t cg = p->c / p->group, mg = p->m / p->group, b, g, mm, cc, kp, o, q, lo, hi;                              \
    int32_t j, last = p->r - 1;                                                                                      \
    int64_t nouter = p->out_sz / (p->out[last] ? p->out[last] : 1);                                                  \
    if (p->out_sz == 0) return;                                                                                      \
    for (b = 0; b < p->n; b++)                                                                                       \
      for (g = 0; g < p->group; g++)                                                                                 \
        for (mm = 0; mm < mg; mm++) {                                                                                \
          int64_t oc = g * mg + mm;                                                                                  \
          T *yp = y + (b * p->m + oc) * p->out_sz;                                                                   \
          for (o = 0; o < p->out_sz; o++) yp[o] = bias ? bias[oc] : (T)0;                                            \
          for (cc = 0; cc < cg; cc++) {                                                                              \
            const T *xp = x + (b * p->c + g * cg + cc) * p->in_sz;                                                   \
            const T *wp = w + (oc * cg + cc) * p->k_sz;                                                              \
            int64_t kk[GE_MAX_RANK], oo[GE_MAX_RANK];                                                                \
            memset(kk, 0, sizeof kk);                                                                                \
            for (kp = 0; kp < p->k_sz; kp++) {                                                                       \
              T wv = wp[kp];                                                                                         \
              int64_t off = kk[last] * p->d[last] - p->pb[last], sl = p->s[last];                                    \
              ge__hc_dn_span(off, sl, p->in[last], p->out[last], &lo, &hi);                                          \
              memset(oo, 0, sizeof oo);                                                                              \
              for (q = 0; lo < hi && q < nouter; q++) {                                                              \
                int64_t xo = 0;                                                                                      \
                for (j = 0; j < last; j++) {                                                                         \
                  int64_t i = oo[j] * p->s[j] + kk[j] * p->d[j] - p->pb[j];                                          \
                  if (i < 0 || i >= p->in[j]) break;                                                                 \
                  xo = xo * p->in[j] + i;                                                                            \
                }                                                                                                    \
                if (j == last) {                                                                                     \
                  T *yr = yp + q * p->out[last];                                                                     \
                  int64_t xb = xo * p->in[last] + off;                                                               \
                  for (o = lo; o < hi; o++) yr[o] += wv * xp[xb + o * sl];                                           \
                }                                                                                                    \
                for (j = last - 1; j >= 0; j--) {                                                                    \
                  if (++oo[j] < p->out[j]) break;                                                                    \
                  oo[j] = 0;                                                                                         \
                }                                                                                                    \
              }                                                                                                      \
              for (j = last; j >= 0; j--) {                                                                          \
                if (++kk[j] < p->k[j]) break;                                                                        \
                kk[j] = 0;                                                                                           \
              }                                                                                                      \
            }                                                                                                        \
          }                                                                                                          \
        }                                                                                                            \
  }                                                                                                                  \
  GE__HC_HELPER void ge__hc_dn_convt_##S(const ge__hc_dn_cv *p, const T *x, const T *w, const T *bias, T *y) {       \
    int64_t cg = p->c / p->group, mg = p->m / p->group, b, g, mm, cc, kp, o, q, lo, hi;                              \
    int32_t j, last = p->r - 1;                                                                                      \
    int64_t nouter = p->in_sz / (p->in[last] ? p->in[last] : 1);                                                     \
    for (b = 0; b < p->n; b++)                                                                                       \
      for (mm = 0; mm < p->m; mm++)                                                                                  \
        for (o = 0; o < p->out_sz; o++) y[(b * p->m + mm) * p->out_sz + o] = bias ? bias[mm] : (T)0;                \
    if (p->in_sz == 0) return;                                                                                       \
    for (b = 0; b < p->n; b++)                                                                                       \
      for (g = 0; g < p->group; g++)                                                                                 \
        for (cc = 0; cc < cg; cc++) {                                                                                \
          int64_t ic = g * cg + cc;                                                                                  \
          const T *xp = x + (b * p->c + ic) * p->in_sz;                                                              \
          for (mm = 0; mm < mg; mm++) {                                                                              \
            int64_t oc = g * mg + mm;                                                                                \
            T *yp = y + (b * p->m + oc) * p->out_sz;                                                                 \
            const T *wp = w + (ic * mg + mm) * p->k_sz;                                                              \
            int64_t kk[GE_MAX_RANK], ii[GE_MAX_RANK];                                                                \
            memset(kk, 0, sizeof kk);                                                                                \
            for (kp = 0; kp < p->k_sz; kp++) {                                                                       \
              T wv = wp[kp];                                                                                         \
              int64_t off = kk[last] * p->d[last] - p->pb[last], sl = p->s[last];                                    \
              ge__hc_dn_span(off, sl, p->out[last], p->in[last], &lo, &hi);                                          \
              memset(ii, 0, sizeof ii);                                                                              \
              for (q = 0; lo < hi && q < nouter; q++) {                                                              \
                int64_t yo = 0;                                                                                      \
                for (j = 0; j < last; j++) {                                                                         \
                  int64_t t = ii[j] * p->s[j] + kk[j] * p->d[j] - p->pb[j];                                          \
                  if (t < 0 || t >= p->out[j]) break;                                                                \
                  yo = yo * p->out[j] + t;                                                                           \
                }                                                                                                    \
                if (j == last) {                                                                                     \
                  const T *xr = xp + q * p->in[last];                                                                \
                  int64_t yb = yo * p->out[last] + off;                                                              \
                  for (o = lo; o < hi; o++) yp[yb + o * sl] += wv * xr[o];                                           \
                }                                                                                                    \
                for (j = last - 1; j >= 0; j--) {                                                                    \
                  if (++ii[j] < p->in[j]) break;                                                                     \
                  ii[j] = 0;                                                                                         \
                }                                                                                                    \
              }                                                                                                      \
              for (j = last; j >= 0; j--) {                                                                          \
                if (++kk[j] < p->k[j]) break;                                                                        \
                kk[j] = 0;                                                                                           \
              }                                                                                                      \
            }                                                                                                        \
          }                                                                                                          \
        }                                                                                                            \
  }

GE__HC_DN_CORES(float, f)
GE__HC_DN_CORES(double, d)
GE__HC_DN_CORES(uint64_t, u)

/* The cores by kind; offsets are in elements. */
static void ge__hc_dn_mm(int kind, int64_t M, int64_t N, int64_t K, const void *a, int64_t aoff, int64_t ars,
                         int64_t acs, const void *b, int64_t boff, int64_t brs, int64_t bcs, void *y, int64_t yoff) {
  if (kind == GE__HC_DN_F)
    ge__hc_dn_mm_f(M, N, K, (const float *)a + aoff, ars, acs, (const float *)b + boff, brs, bcs, (float *)y + yoff);
  else if (kind == GE__HC_DN_D)
    ge__hc_dn_mm_d(M, N, K, (const double *)a + aoff, ars, acs, (const double *)b + boff, brs, bcs,
                   (double *)y + yoff);
  else
    ge__hc_dn_mm_u(M, N, K, (const uint64_t *)a + aoff, ars, acs, (const uint64_t *)b + boff, brs, bcs,
                   (uint64_t *)y + yoff);
}

static void ge__hc_dn_conv_any(int kind, int transpose, const ge__hc_dn_cv *p, const void *x, const void *w,
                               const void *b, void *y) {
  if (kind == GE__HC_DN_F) {
    if (transpose)
      ge__hc_dn_convt_f(p, (const float *)x, (const float *)w, (const float *)b, (float *)y);
    else
      ge__hc_dn_conv_f(p, (const float *)x, (const float *)w, (const float *)b, (float *)y);
  } else if (kind == GE__HC_DN_D) {
    if (transpose)
      ge__hc_dn_convt_d(p, (const double *)x, (const double *)w, (const double *)b, (double *)y);
    else
      ge__hc_dn_conv_d(p, (const double *)x, (const double *)w, (const double *)b, (double *)y);
  } else {
    if (transpose)
      ge__hc_dn_convt_u(p, (const uint64_t *)x, (const uint64_t *)w, (const uint64_t *)b, (uint64_t *)y);
    else
      ge__hc_dn_conv_u(p, (const uint64_t *)x, (const uint64_t *)w, (const uint64_t *)b, (uint64_t *)y);
  }
}

/* Subtracts zero point zp (NULL: none) from buf, the uint64 elements of v.
 * zp is a scalar, a 1-D tensor along dimension axis of v (axis < 0: no
 * such form), or broadcasts to v. 0 if it fits none. */
static int ge__hc_dn_sub_zp(uint64_t *buf, const ge_value *v, const ge_value *zp, int32_t axis) {
  int64_t i;
  if (!zp) return 1;
  if (zp->numel == 1) {
    uint64_t z = (uint64_t)ge__hc_get_i(zp, 0);
    for (i = 0; i < v->numel; i++) buf[i] -= z;
    return 1;
  }
  if (axis >= 0 && axis < v->rank && zp->rank == 1 && zp->dims[0] == v->dims[axis]) {
    int64_t inner = ge__hc_dn_prod(v->dims, axis + 1, v->rank), len = v->dims[axis];
    for (i = 0; i < v->numel; i++) buf[i] -= (uint64_t)ge__hc_get_i(zp, (i / inner) % len);
    return 1;
  }
  if (zp->rank > v->rank) return 0;
  for (i = 0; i < zp->rank; i++) {
    int64_t d = zp->dims[i], vd = v->dims[i + v->rank - zp->rank];
    if (d != vd && d != 1) return 0;
  }
  {
    ge__hc_iter it;
    ge__hc_iter_init(&it, v->rank, v->dims, 1);
    ge__hc_bcast_strides(zp, v->rank, it.strides[0]);
    for (i = 0; i < v->numel; i++, ge__hc_step(&it)) buf[i] -= (uint64_t)ge__hc_get_i(zp, it.off[0]);
  }
  return 1;
}

/* ------------------------------------------------------------- MatMul */

/* numpy matmul shapes: 1-D operands are promoted (and the promoted dim
 * dropped from the result); batch dims broadcast. */
typedef struct ge__hc_dn_mmshape {
  int64_t M, N, K;
  int32_t rank, brank;
  int64_t dims[GE_MAX_RANK], bdims[GE_MAX_RANK], astr[GE_MAX_RANK], bstr[GE_MAX_RANK];
} ge__hc_dn_mmshape;

static ge_status ge__hc_dn_mm_shape(ge_kernel_ctx *c, const ge_value *a, const ge_value *b, ge__hc_dn_mmshape *s) {
  int32_t abr, bbr, i;
  int64_t K2, as = 1, bs = 1;
  if (a->rank < 1 || b->rank < 1) return ge_kernel_error(c, GE_ERR_SHAPE, "MatMul operands must have rank >= 1");
  s->M = a->rank == 1 ? 1 : a->dims[a->rank - 2];
  s->K = a->dims[a->rank - 1];
  K2 = b->rank == 1 ? b->dims[0] : b->dims[b->rank - 2];
  s->N = b->rank == 1 ? 1 : b->dims[b->rank - 1];
  if (s->K != K2)
    return ge_kernel_error(c, GE_ERR_SHAPE, "inner dimensions differ: %lld vs %lld", (long long)s->K, (long long)K2);
  abr = a->rank > 2 ? a->rank - 2 : 0;
  bbr = b->rank > 2 ? b->rank - 2 : 0;
  s->brank = abr > bbr ? abr : bbr;
  for (i = s->brank - 1; i >= 0; i--) {
    int32_t ia = i - (s->brank - abr), ib = i - (s->brank - bbr);
    int64_t da = ia >= 0 ? a->dims[ia] : 1, db = ib >= 0 ? b->dims[ib] : 1;
    if (da != db && da != 1 && db != 1)
      return ge_kernel_error(c, GE_ERR_SHAPE, "batch dimensions %lld and %lld do not broadcast", (long long)da,
                             (long long)db);
    s->bdims[i] = da == 1 ? db : da;
    s->astr[i] = da == 1 ? 0 : as * s->M * s->K;
    s->bstr[i] = db == 1 ? 0 : bs * s->K * s->N;
    as *= da;
    bs *= db;
  }
  s->rank = s->brank;
  for (i = 0; i < s->brank; i++) s->dims[i] = s->bdims[i];
  if (a->rank > 1) s->dims[s->rank++] = s->M;
  if (b->rank > 1) s->dims[s->rank++] = s->N;
  return GE_OK;
}

/* y = a b over the batch, with a and b in the core's type. */
static void ge__hc_dn_mm_batched(int kind, const ge__hc_dn_mmshape *s, const void *a, const void *b, void *y) {
  ge__hc_iter it;
  int64_t nb = ge__hc_dn_prod(s->bdims, 0, s->brank), q;
  int32_t i;
  ge__hc_iter_init(&it, s->brank, s->bdims, 2);
  for (i = 0; i < s->brank; i++) {
    it.strides[0][i] = s->astr[i];
    it.strides[1][i] = s->bstr[i];
  }
  for (q = 0; q < nb; q++, ge__hc_step(&it))
    ge__hc_dn_mm(kind, s->M, s->N, s->K, a, it.off[0], s->K, 1, b, it.off[1], s->N, 1, y, q * s->M * s->N);
}

/* MatMul and MatMulInteger (zero points subtracted, int32 result). */
static ge_status ge__hc_dn_matmul(ge_kernel_ctx *c, int integer) {
  const ge_value *A = ge__hc_dn_in(c, 0), *B = ge__hc_dn_in(c, 1);
  ge__hc_dn_mmshape s;
  ge_value *y;
  int kind, oa = 0, ob = 0, oy = 0;
  void *a = NULL, *b = NULL, *yb = NULL;
  ge_status st = GE_OK;
  if (!A || !B) return ge__hc_dn_missing(c, A ? 1 : 0);
  kind = ge__hc_dn_kind(A->dtype);
  if (integer) {
    if ((A->dtype != GE_DTYPE_INT8 && A->dtype != GE_DTYPE_UINT8) ||
        (B->dtype != GE_DTYPE_INT8 && B->dtype != GE_DTYPE_UINT8))
      return ge__hc_dn_bad_dtype(c, A->dtype == GE_DTYPE_INT8 || A->dtype == GE_DTYPE_UINT8 ? B->dtype : A->dtype);
    kind = GE__HC_DN_U;
  } else {
    if (kind < 0) return ge__hc_dn_bad_dtype(c, A->dtype);
    if (B->dtype != A->dtype)
      return ge_kernel_error(c, GE_ERR_INVALID, "operand dtypes differ: %s and %s", ge_dtype_name(A->dtype),
                             ge_dtype_name(B->dtype));
  }
  if ((st = ge__hc_dn_mm_shape(c, A, B, &s)) != GE_OK) return st;
  if (!(y = ge_kernel_output(c, 0, integer ? GE_DTYPE_INT32 : A->dtype, s.rank, s.dims))) return GE__HC_OUT_FAILED(c);
  /* integer inputs are copied so that zero points can be subtracted */
  a = integer ? NULL : ge__hc_dn_load(A, kind, &oa);
  b = integer ? NULL : ge__hc_dn_load(B, kind, &ob);
  if (integer) {
    a = ge__hc_dn_alloc((size_t)A->numel * 8);
    b = ge__hc_dn_alloc((size_t)B->numel * 8);
    oa = ob = 1;
    if (a && b) {
      int64_t i;
      for (i = 0; i < A->numel; i++) ((uint64_t *)a)[i] = (uint64_t)ge__hc_get_i(A, i);
      for (i = 0; i < B->numel; i++) ((uint64_t *)b)[i] = (uint64_t)ge__hc_get_i(B, i);
      if (!ge__hc_dn_sub_zp((uint64_t *)a, A, ge__hc_dn_in(c, 2), A->rank - 2) ||
          !ge__hc_dn_sub_zp((uint64_t *)b, B, ge__hc_dn_in(c, 3), B->rank - 1))
        st = ge_kernel_error(c, GE_ERR_SHAPE, "zero point does not fit its operand");
    }
  }
  yb = ge__hc_dn_result(y, kind, &oy);
  if (st == GE_OK && (!a || !b || !yb)) st = ge__hc_dn_nomem(c);
  if (st == GE_OK) {
    ge__hc_dn_mm_batched(kind, &s, a, b, yb);
    ge__hc_dn_store(y, kind, yb);
  }
  if (oa) free(a);
  if (ob) free(b);
  if (oy) free(yb);
  return st;
}

static ge_status ge__hc_matmul(ge_kernel_ctx *c) { return ge__hc_dn_matmul(c, 0); }
static ge_status ge__hc_matmulinteger(ge_kernel_ctx *c) { return ge__hc_dn_matmul(c, 1); }

/* --------------------------------------------------------------- Gemm */

static ge_status ge__hc_gemm(ge_kernel_ctx *c) {
  const ge_value *A = ge__hc_dn_in(c, 0), *B = ge__hc_dn_in(c, 1), *C = ge__hc_dn_in(c, 2);
  int ta = ge_node_attr_int(c->node, "transA", 0) != 0, tb = ge_node_attr_int(c->node, "transB", 0) != 0;
  double alpha = ge_node_attr_float(c->node, "alpha", 1.0), beta = ge_node_attr_float(c->node, "beta", 1.0);
  int64_t M, N, K, K2, dims[2], cstr[2] = {0, 0}, i, j;
  int kind, oa = 0, ob = 0, oy = 0;
  void *a, *b, *yb;
  ge_value *y;
  ge_status st = GE_OK;
  if (!A || !B) return ge__hc_dn_missing(c, A ? 1 : 0);
  if ((kind = ge__hc_dn_kind(A->dtype)) < 0) return ge__hc_dn_bad_dtype(c, A->dtype);
  if (B->dtype != A->dtype || (C && C->dtype != A->dtype))
    return ge_kernel_error(c, GE_ERR_INVALID, "operand dtypes differ");
  if (A->rank != 2 || B->rank != 2) return ge_kernel_error(c, GE_ERR_SHAPE, "A and B must be 2-D");
  M = A->dims[ta ? 1 : 0];
  K = A->dims[ta ? 0 : 1];
  K2 = B->dims[tb ? 1 : 0];
  N = B->dims[tb ? 0 : 1];
  if (K != K2)
    return ge_kernel_error(c, GE_ERR_SHAPE, "inner dimensions differ: %lld vs %lld", (long long)K, (long long)K2);
  if (C) { /* unidirectional broadcast to [M, N] */
    int64_t cm = C->rank == 2 ? C->dims[0] : 1, cn = C->rank >= 1 ? C->dims[C->rank - 1] : 1;
    if (C->rank > 2 || (cm != M && cm != 1) || (cn != N && cn != 1))
      return ge_kernel_error(c, GE_ERR_SHAPE, "C does not broadcast to [%lld, %lld]", (long long)M, (long long)N);
    cstr[0] = cm == 1 ? 0 : cn;
    cstr[1] = cn == 1 ? 0 : 1;
  }
  dims[0] = M;
  dims[1] = N;
  if (!(y = ge_kernel_output(c, 0, A->dtype, 2, dims))) return GE__HC_OUT_FAILED(c);
  a = ge__hc_dn_load(A, kind, &oa);
  b = ge__hc_dn_load(B, kind, &ob);
  yb = ge__hc_dn_result(y, kind, &oy);
  if (!a || !b || !yb) {
    st = ge__hc_dn_nomem(c);
  } else {
    ge__hc_dn_mm(kind, M, N, K, a, 0, ta ? 1 : K, ta ? M : 1, b, 0, tb ? 1 : N, tb ? K : 1, yb, 0);
    ge__hc_dn_store(y, kind, yb);
    if (kind == GE__HC_DN_U && alpha == 1.0 && (beta == 1.0 || beta == 0.0 || !C)) {
      for (i = 0; i < M; i++) /* exact integer result */
        for (j = 0; j < N; j++) {
          uint64_t v = ((const uint64_t *)yb)[i * N + j];
          if (C && beta != 0.0) v += (uint64_t)ge__hc_get_i(C, i * cstr[0] + j * cstr[1]);
          ge__hc_set_i(y, i * N + j, (int64_t)v);
        }
    } else if (alpha != 1.0 || (C && beta != 0.0)) {
      for (i = 0; i < M; i++)
        for (j = 0; j < N; j++) {
          int64_t at = i * N + j;
          double acc = kind == GE__HC_DN_U   ? (double)(int64_t)((const uint64_t *)yb)[at]
                       : kind == GE__HC_DN_F ? (double)((const float *)yb)[at]
                                             : ((const double *)yb)[at];
          double v = alpha * acc;
          if (C && beta != 0.0) v += beta * ge__hc_get_f(C, i * cstr[0] + j * cstr[1]);
          ge__hc_dn_set_f(y, i * N + j, v);
        }
    }
  }
  if (oa) free(a);
  if (ob) free(b);
  if (oy) free(yb);
  return st;
}

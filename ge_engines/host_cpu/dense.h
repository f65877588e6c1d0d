/* ge_engines/host_cpu/dense.h — the host CPU engine's dense kernels: MatMul,
 * Gemm, Conv and their typed cores, pooling, normalizations, Softmax,
 * reductions, ArgMax/ArgMin, Einsum, Det, Resize and Upsample.
 *
 * A part of ge_engines/host_cpu.h, which includes it inside its
 * implementation section, after the shared helpers (ge__hc_get_f, ...)
 * and before the op table; not a header to include on its own.
 *
 * Contents, in file order (each section opens with a "---- name" comment):
 *   dense, pooling, ...   the family's helpers (ge__hc_dn_*): typed cores
 *                         by dtype, element access, attribute readers
 *   typed dense cores     GEMM and convolution loops for float, double and
 *                         uint64 (GE__HC_DN_CORES)
 *   MatMul, Gemm, Conv    MatMul(Integer), Gemm, Conv(Integer/Transpose)
 *   pooling               Max/Average/LpPool and their Global forms
 *   normalization         BatchNormalization, Instance/Layer/Group/LRN,
 *                         MeanVarianceNormalization, LpNormalization
 *   softmax               Softmax, LogSoftmax, Hardmax
 *   reductions            Reduce*, ArgMax/ArgMin, CumSum
 *   Einsum, Det
 *   Resize, Upsample      coordinate modes, nearest/linear/cubic resampling
 */
#ifndef GE_HOST_CPU_IMPLEMENTATION_DONE
#error "ge_engines/host_cpu/dense.h is a part of ge_engines/host_cpu.h: include that instead"
#endif

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

/* Largest output a kernel of this family asks for, in bytes: shapes made
 * from attributes or sizes inputs beyond it are an error rather than an
 * allocation that cannot succeed (or a size that overflows). */
#ifndef GE__HC_DN_MAX_BYTES
#define GE__HC_DN_MAX_BYTES ((int64_t)1 << 40)
#endif

/* Largest stride, pad, dilation, kernel size or output size taken from an
 * attribute: keeps every index computation far from int64 overflow. */
#define GE__HC_DN_MAX_DIM ((int64_t)1 << 31)

/* ge_kernel_output after checking the shape: no negative dims, at most
 * GE__HC_DN_MAX_BYTES (counting a zero dim's neighbours too, so that loops
 * over the other dims stay bounded). */
static ge_value *ge__hc_dn_output(ge_kernel_ctx *c, uint32_t i, ge_dtype t, int32_t rank, const int64_t *dims) {
  int64_t n = 1, es = (int64_t)ge_dtype_size(t);
  int32_t k;
  for (k = 0; k < rank; k++) {
    int64_t d = dims[k] ? dims[k] : 1;
    if (dims[k] < 0 || d > GE__HC_DN_MAX_BYTES / n) {
      ge_kernel_error(c, GE_ERR_SHAPE, "output %u would be too large (dim %d is %lld)", (unsigned)i, (int)k,
                      (long long)dims[k]);
      return NULL;
    }
    n *= d;
  }
  if (es > 0 && n > GE__HC_DN_MAX_BYTES / es) {
    ge_kernel_error(c, GE_ERR_SHAPE, "output %u would be too large", (unsigned)i);
    return NULL;
  }
  return ge_kernel_output(c, i, t, rank, dims);
}

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
  if (ge__hc_dn_native(v->dtype, kind) && v->data) return v->data;
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
  *owned = !ge__hc_dn_native(y->dtype, kind) || !y->data;
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
  const int64_t *v = NULL;
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
#define GE__HC_DN_CORES(T, S)                                                                                          \
  GE__HC_HELPER void ge__hc_dn_mm_##S(int64_t M, int64_t N, int64_t K, const T *a, int64_t ars, int64_t acs,           \
                                      const T *b, int64_t brs, int64_t bcs, T *y) {                                    \
    int64_t i, j, k;                                                                                                   \
    if (bcs == 1) {                                                                                                    \
      for (i = 0; i < M; i++) {                                                                                        \
        T *yr = y + i * N;                                                                                             \
        for (j = 0; j < N; j++) yr[j] = (T)0;                                                                          \
        for (k = 0; k < K; k++) {                                                                                      \
          T av = a[i * ars + k * acs];                                                                                 \
          const T *br = b + k * brs;                                                                                   \
          for (j = 0; j < N; j++) yr[j] += av * br[j];                                                                 \
        }                                                                                                              \
      }                                                                                                                \
    } else {                                                                                                           \
      for (i = 0; i < M; i++)                                                                                          \
        for (j = 0; j < N; j++) {                                                                                      \
          T acc = (T)0;                                                                                                \
          for (k = 0; k < K; k++) acc += a[i * ars + k * acs] * b[k * brs + j * bcs];                                  \
          y[i * N + j] = acc;                                                                                          \
        }                                                                                                              \
    }                                                                                                                  \
  }                                                                                                                    \
  GE__HC_HELPER void ge__hc_dn_conv_##S(const ge__hc_dn_cv *p, const T *x, const T *w, const T *bias, T *y) {          \
    int64_t cg = p->c / p->group, mg = p->m / p->group, b, g, mm, cc, kp, o, lo, hi;                                   \
    int64_t kk[GE_MAX_RANK], oo[GE_MAX_RANK], olo[GE_MAX_RANK], ohi[GE_MAX_RANK];                                      \
    int32_t j, last = p->r - 1;                                                                                        \
    if (p->out_sz == 0) return;                                                                                        \
    for (b = 0; b < p->n; b++)                                                                                         \
      for (g = 0; g < p->group; g++)                                                                                   \
        for (mm = 0; mm < mg; mm++) {                                                                                  \
          int64_t oc = g * mg + mm;                                                                                    \
          T *yp = y + (b * p->m + oc) * p->out_sz;                                                                     \
          for (o = 0; o < p->out_sz; o++) yp[o] = bias ? bias[oc] : (T)0;                                              \
          for (cc = 0; cc < cg; cc++) {                                                                                \
            const T *xp = x + (b * p->c + g * cg + cc) * p->in_sz;                                                     \
            const T *wp = w + (oc * cg + cc) * p->k_sz;                                                                \
            for (j = 0; j <= last; j++) kk[j] = 0;                                                                     \
            for (kp = 0; kp < p->k_sz; kp++) {                                                                         \
              T wv = wp[kp];                                                                                           \
              int64_t off = kk[last] * p->d[last] - p->pb[last], sl = p->s[last];                                      \
              /* the output positions whose input is inside: a box */                                                  \
              ge__hc_dn_span(off, sl, p->in[last], p->out[last], &lo, &hi);                                            \
              for (j = 0; j < last; j++) {                                                                             \
                ge__hc_dn_span(kk[j] * p->d[j] - p->pb[j], p->s[j], p->in[j], p->out[j], &olo[j], &ohi[j]);            \
                if (olo[j] >= ohi[j]) lo = hi;                                                                         \
                oo[j] = olo[j];                                                                                        \
              }                                                                                                        \
              while (lo < hi) {                                                                                        \
                int64_t xo = 0, yo = 0;                                                                                \
                T *yr;                                                                                                 \
                const T *xr;                                                                                           \
                for (j = 0; j < last; j++) {                                                                           \
                  xo = xo * p->in[j] + oo[j] * p->s[j] + kk[j] * p->d[j] - p->pb[j];                                   \
                  yo = yo * p->out[j] + oo[j];                                                                         \
                }                                                                                                      \
                yr = yp + yo * p->out[last] + lo;                                                                      \
                xr = xp + xo * p->in[last] + off + lo * sl;                                                            \
                if (sl == 1)                                                                                           \
                  for (o = 0; o < hi - lo; o++) yr[o] += wv * xr[o];                                                   \
                else                                                                                                   \
                  for (o = 0; o < hi - lo; o++) yr[o] += wv * xr[o * sl];                                              \
                for (j = last - 1; j >= 0; j--) {                                                                      \
                  if (++oo[j] < ohi[j]) break;                                                                         \
                  oo[j] = olo[j];                                                                                      \
                }                                                                                                      \
                if (j < 0) break;                                                                                      \
              }                                                                                                        \
              for (j = last; j >= 0; j--) {                                                                            \
                if (++kk[j] < p->k[j]) break;                                                                          \
                kk[j] = 0;                                                                                             \
              }                                                                                                        \
            }                                                                                                          \
          }                                                                                                            \
        }                                                                                                              \
  }                                                                                                                    \
  GE__HC_HELPER void ge__hc_dn_convt_##S(const ge__hc_dn_cv *p, const T *x, const T *w, const T *bias, T *y) {         \
    int64_t cg = p->c / p->group, mg = p->m / p->group, b, g, mm, cc, kp, o, lo, hi;                                   \
    int64_t kk[GE_MAX_RANK], ii[GE_MAX_RANK], ilo[GE_MAX_RANK], ihi[GE_MAX_RANK];                                      \
    int32_t j, last = p->r - 1;                                                                                        \
    for (b = 0; b < p->n; b++)                                                                                         \
      for (mm = 0; mm < p->m; mm++)                                                                                    \
        for (o = 0; o < p->out_sz; o++) y[(b * p->m + mm) * p->out_sz + o] = bias ? bias[mm] : (T)0;                   \
    if (p->in_sz == 0) return;                                                                                         \
    for (b = 0; b < p->n; b++)                                                                                         \
      for (g = 0; g < p->group; g++)                                                                                   \
        for (cc = 0; cc < cg; cc++) {                                                                                  \
          int64_t ic = g * cg + cc;                                                                                    \
          const T *xp = x + (b * p->c + ic) * p->in_sz;                                                                \
          for (mm = 0; mm < mg; mm++) {                                                                                \
            int64_t oc = g * mg + mm;                                                                                  \
            T *yp = y + (b * p->m + oc) * p->out_sz;                                                                   \
            const T *wp = w + (ic * mg + mm) * p->k_sz;                                                                \
            for (j = 0; j <= last; j++) kk[j] = 0;                                                                     \
            for (kp = 0; kp < p->k_sz; kp++) {                                                                         \
              T wv = wp[kp];                                                                                           \
              int64_t off = kk[last] * p->d[last] - p->pb[last], sl = p->s[last];                                      \
              /* the input positions whose output is inside: a box */                                                  \
              ge__hc_dn_span(off, sl, p->out[last], p->in[last], &lo, &hi);                                            \
              for (j = 0; j < last; j++) {                                                                             \
                ge__hc_dn_span(kk[j] * p->d[j] - p->pb[j], p->s[j], p->out[j], p->in[j], &ilo[j], &ihi[j]);            \
                if (ilo[j] >= ihi[j]) lo = hi;                                                                         \
                ii[j] = ilo[j];                                                                                        \
              }                                                                                                        \
              while (lo < hi) {                                                                                        \
                int64_t xo = 0, yo = 0;                                                                                \
                T *yr;                                                                                                 \
                const T *xr;                                                                                           \
                for (j = 0; j < last; j++) {                                                                           \
                  yo = yo * p->out[j] + ii[j] * p->s[j] + kk[j] * p->d[j] - p->pb[j];                                  \
                  xo = xo * p->in[j] + ii[j];                                                                          \
                }                                                                                                      \
                xr = xp + xo * p->in[last] + lo;                                                                       \
                yr = yp + yo * p->out[last] + off + lo * sl;                                                           \
                for (o = 0; o < hi - lo; o++) yr[o * sl] += wv * xr[o];                                                \
                for (j = last - 1; j >= 0; j--) {                                                                      \
                  if (++ii[j] < ihi[j]) break;                                                                         \
                  ii[j] = ilo[j];                                                                                      \
                }                                                                                                      \
                if (j < 0) break;                                                                                      \
              }                                                                                                        \
              for (j = last; j >= 0; j--) {                                                                            \
                if (++kk[j] < p->k[j]) break;                                                                          \
                kk[j] = 0;                                                                                             \
              }                                                                                                        \
            }                                                                                                          \
          }                                                                                                            \
        }                                                                                                              \
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
    ge__hc_dn_mm_d(M, N, K, (const double *)a + aoff, ars, acs, (const double *)b + boff, brs, bcs, (double *)y + yoff);
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
  if (!(y = ge__hc_dn_output(c, 0, integer ? GE_DTYPE_INT32 : A->dtype, s.rank, s.dims))) return GE__HC_OUT_FAILED(c);
  if (y->numel == 0) return GE_OK;
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
  if (!(y = ge__hc_dn_output(c, 0, A->dtype, 2, dims))) return GE__HC_OUT_FAILED(c);
  if (y->numel == 0) return GE_OK;
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

/* ---------------------------------------------------------------- Conv */

/* auto_pad: 0 NOTSET, 1 SAME_UPPER, 2 SAME_LOWER, 3 VALID, -1 unknown. */
static int ge__hc_dn_auto_pad(const ge_node *n) {
  const char *s = ge_node_attr_string(n, "auto_pad", "NOTSET");
  if (!*s || !strcmp(s, "NOTSET")) return 0;
  if (!strcmp(s, "SAME_UPPER")) return 1;
  if (!strcmp(s, "SAME_LOWER")) return 2;
  if (!strcmp(s, "VALID")) return 3;
  return -1;
}

/* Geometry of Conv, ConvInteger (transpose 0) or ConvTranspose (1) from x,
 * w and the node's attributes; ydims gets the output shape. */
static ge_status ge__hc_dn_conv_setup(ge_kernel_ctx *c, const ge_value *x, const ge_value *w, int transpose,
                                      ge__hc_dn_cv *p, int64_t *ydims) {
  const ge_node *nd = c->node;
  int64_t pads[2 * GE_MAX_RANK], ks[GE_MAX_RANK], opad[GE_MAX_RANK], oshape[GE_MAX_RANK + 2];
  const int64_t *osv = NULL;
  int32_t r, i, nos;
  int ap = ge__hc_dn_auto_pad(nd);
  memset(p, 0, sizeof *p);
  if (x->rank < 3) return ge_kernel_error(c, GE_ERR_SHAPE, "input must have rank >= 3 (N, C, spatial dims)");
  if (w->rank != x->rank)
    return ge_kernel_error(c, GE_ERR_SHAPE, "weight rank %d differs from input rank %d", (int)w->rank, (int)x->rank);
  if (ap < 0) return ge_kernel_error(c, GE_ERR_INVALID, "unknown auto_pad");
  p->r = r = x->rank - 2;
  p->group = ge_node_attr_int(nd, "group", 1);
  p->n = x->dims[0];
  p->c = x->dims[1];
  if (p->group < 1) return ge_kernel_error(c, GE_ERR_INVALID, "group must be >= 1");
  if (p->c % p->group)
    return ge_kernel_error(c, GE_ERR_SHAPE, "channels %lld not divisible by group %lld", (long long)p->c,
                           (long long)p->group);
  if (!transpose) {
    p->m = w->dims[0];
    if (w->dims[1] * p->group != p->c || p->m % p->group)
      return ge_kernel_error(c, GE_ERR_SHAPE, "weight [%lld, %lld, ...] does not fit %lld channels in %lld groups",
                             (long long)w->dims[0], (long long)w->dims[1], (long long)p->c, (long long)p->group);
  } else {
    if (w->dims[0] != p->c)
      return ge_kernel_error(c, GE_ERR_SHAPE, "weight has %lld input channels, input %lld", (long long)w->dims[0],
                             (long long)p->c);
    p->m = w->dims[1] * p->group;
  }
  if (!ge__hc_dn_ints(nd, "strides", r, 1, p->s) || !ge__hc_dn_ints(nd, "dilations", r, 1, p->d) ||
      !ge__hc_dn_ints(nd, "pads", 2 * r, 0, pads) || !ge__hc_dn_ints(nd, "kernel_shape", r, 0, ks) ||
      !ge__hc_dn_ints(nd, "output_padding", r, 0, opad))
    return ge_kernel_error(c, GE_ERR_INVALID,
                           "strides, dilations, pads, kernel_shape or output_padding has the wrong length");
  nos = transpose ? ge_node_attr_ints(nd, "output_shape", &osv) : -1;
  if (nos >= 0) {
    if (nos != r && nos != r + 2) return ge_kernel_error(c, GE_ERR_INVALID, "output_shape has the wrong length");
    for (i = 0; i < r; i++) oshape[i] = osv[nos - r + i];
  }
  ydims[0] = p->n;
  ydims[1] = p->m;
  p->in_sz = p->k_sz = p->out_sz = 1;
  for (i = 0; i < r; i++) {
    int64_t k = w->dims[2 + i], in = x->dims[2 + i], s = p->s[i], d = p->d[i], eff, out, total;
    if (ks[i] && ks[i] != k)
      return ge_kernel_error(c, GE_ERR_SHAPE, "kernel_shape %lld differs from the weight's %lld", (long long)ks[i],
                             (long long)k);
    if (s < 1 || d < 1 || s > GE__HC_DN_MAX_DIM || d > GE__HC_DN_MAX_DIM)
      return ge_kernel_error(c, GE_ERR_INVALID, "strides and dilations must be in [1, 2^31]");
    if (pads[i] < 0 || pads[r + i] < 0 || pads[i] > GE__HC_DN_MAX_DIM || pads[r + i] > GE__HC_DN_MAX_DIM ||
        opad[i] < 0 || opad[i] > GE__HC_DN_MAX_DIM || (nos >= 0 && (oshape[i] < 0 || oshape[i] > GE__HC_DN_MAX_DIM)))
      return ge_kernel_error(c, GE_ERR_INVALID, "pads, output_padding and output_shape must be in [0, 2^31]");
    if (k > GE__HC_DN_MAX_DIM || in > GE__HC_DN_MAX_DIM)
      return ge_kernel_error(c, GE_ERR_SHAPE, "spatial dims too large");
    eff = (k - 1) * d + 1;
    if (!transpose) {
      if (ap == 0) {
        p->pb[i] = pads[i];
        out = ge__hc_dn_floordiv(in + pads[i] + pads[r + i] - eff, s) + 1;
      } else if (ap == 3) {
        out = ge__hc_dn_floordiv(in - eff, s) + 1;
      } else {
        out = (in + s - 1) / s;
        total = (out - 1) * s + eff - in;
        if (total < 0) total = 0;
        p->pb[i] = ap == 1 ? total / 2 : total - total / 2;
      }
    } else {
      if (nos >= 0 || ap == 1 || ap == 2) {
        out = nos >= 0 ? oshape[i] : in * s;
        total = s * (in - 1) + opad[i] + eff - out;
        p->pb[i] = ap == 1 ? ge__hc_dn_floordiv(total, 2) : total - ge__hc_dn_floordiv(total, 2);
      } else {
        if (ap == 0) p->pb[i] = pads[i];
        out = s * (in - 1) + opad[i] + eff - (ap == 0 ? pads[i] + pads[r + i] : 0);
      }
    }
    if (out < 1 || k < 1)
      return ge_kernel_error(c, GE_ERR_SHAPE, "spatial dim %d: output size %lld for input %lld, kernel %lld", (int)i,
                             (long long)out, (long long)in, (long long)k);
    p->in[i] = in;
    p->k[i] = k;
    p->out[i] = out;
    ydims[2 + i] = out;
    p->in_sz *= in;
    p->k_sz *= k;
    p->out_sz *= out;
  }
  return GE_OK;
}

/* Conv (integer 0) and ConvTranspose, float dtypes; ConvInteger (1). */
static ge_status ge__hc_dn_conv(ge_kernel_ctx *c, int transpose, int integer) {
  const ge_value *x = ge__hc_dn_in(c, 0), *w = ge__hc_dn_in(c, 1), *bias = integer ? NULL : ge__hc_dn_in(c, 2);
  ge__hc_dn_cv p;
  int64_t ydims[GE_MAX_RANK];
  ge_value *y;
  int kind, ox = 0, ow = 0, ob = 0, oy = 0;
  void *xb = NULL, *wb = NULL, *bb = NULL, *yb = NULL;
  ge_status st;
  if (!x || !w) return ge__hc_dn_missing(c, x ? 1 : 0);
  if (integer) {
    if ((x->dtype != GE_DTYPE_INT8 && x->dtype != GE_DTYPE_UINT8) ||
        (w->dtype != GE_DTYPE_INT8 && w->dtype != GE_DTYPE_UINT8))
      return ge__hc_dn_bad_dtype(c, x->dtype == GE_DTYPE_INT8 || x->dtype == GE_DTYPE_UINT8 ? w->dtype : x->dtype);
    kind = GE__HC_DN_U;
  } else {
    if (!ge__hc_is_float(x->dtype)) return ge__hc_dn_bad_dtype(c, x->dtype);
    if (w->dtype != x->dtype || (bias && bias->dtype != x->dtype))
      return ge_kernel_error(c, GE_ERR_INVALID, "input, weight and bias dtypes differ");
    kind = ge__hc_dn_kind(x->dtype);
  }
  if ((st = ge__hc_dn_conv_setup(c, x, w, transpose, &p, ydims)) != GE_OK) return st;
  if (bias && bias->numel != p.m)
    return ge_kernel_error(c, GE_ERR_SHAPE, "bias has %lld elements for %lld output channels", (long long)bias->numel,
                           (long long)p.m);
  if (!(y = ge__hc_dn_output(c, 0, integer ? GE_DTYPE_INT32 : x->dtype, x->rank, ydims))) return GE__HC_OUT_FAILED(c);
  if (y->numel == 0) return GE_OK;
  if (integer) {
    xb = ge__hc_dn_alloc((size_t)x->numel * 8);
    wb = ge__hc_dn_alloc((size_t)w->numel * 8);
    ox = ow = 1;
    if (xb && wb) {
      int64_t i;
      for (i = 0; i < x->numel; i++) ((uint64_t *)xb)[i] = (uint64_t)ge__hc_get_i(x, i);
      for (i = 0; i < w->numel; i++) ((uint64_t *)wb)[i] = (uint64_t)ge__hc_get_i(w, i);
      if (!ge__hc_dn_sub_zp((uint64_t *)xb, x, ge__hc_dn_in(c, 2), -1) ||
          !ge__hc_dn_sub_zp((uint64_t *)wb, w, ge__hc_dn_in(c, 3), 0))
        st = ge_kernel_error(c, GE_ERR_SHAPE, "zero point does not fit its operand");
    }
  } else {
    xb = ge__hc_dn_load(x, kind, &ox);
    wb = ge__hc_dn_load(w, kind, &ow);
    if (bias) bb = ge__hc_dn_load(bias, kind, &ob);
  }
  yb = ge__hc_dn_result(y, kind, &oy);
  if (st == GE_OK && (!xb || !wb || (bias && !bb) || !yb)) st = ge__hc_dn_nomem(c);
  if (st == GE_OK) {
    ge__hc_dn_conv_any(kind, transpose, &p, xb, wb, bb, yb);
    ge__hc_dn_store(y, kind, yb);
  }
  if (ox) free(xb);
  if (ow) free(wb);
  if (ob) free(bb);
  if (oy) free(yb);
  return st;
}

static ge_status ge__hc_conv(ge_kernel_ctx *c) { return ge__hc_dn_conv(c, 0, 0); }
static ge_status ge__hc_convtranspose(ge_kernel_ctx *c) { return ge__hc_dn_conv(c, 1, 0); }
static ge_status ge__hc_convinteger(ge_kernel_ctx *c) { return ge__hc_dn_conv(c, 0, 1); }

/* Requantization of QLinearConv and QLinearMatMul, as ONNX Runtime (MLAS)
 * does it, all in float32: the int32 accumulator (bias added, wrapping)
 * converted to float, times the multiplier (x_scale * w_scale) / y_scale,
 * rounded half to even, plus the zero point, saturated to [lo, hi], NaN to
 * 0 (as QuantizeLinear). The fast kernels repeat these float operations. */
static float ge__hc_requant_mult(float xs, float ws, float ys) {
  float t = xs * ws;
  return t / ys;
}

/* Round half to even without the floating-point environment. */
static float ge__hc_dn_rintf(float x) {
  float f = floorf(x), d = x - f;
  if (d > 0.5f) return f + 1;
  if (d < 0.5f) return f;
  return fmodf(f, 2.0f) == 0 ? f : f + 1;
}

static int32_t ge__hc_requant(int32_t acc, float mult, float zp, float lo, float hi) {
  float v = (float)acc * mult;
  float q = ge__hc_dn_rintf(v) + zp;
  if (q != q) return 0;
  return (int32_t)(q < lo ? lo : q > hi ? hi : q);
}

/* A float32 scale and a zero point of dtype zt: one element each, or (per
 * output channel, when m > 0) m of them. */
static ge_status ge__hc_dn_qparam(ge_kernel_ctx *c, const ge_value *sc, const ge_value *zp, ge_dtype zt, int64_t m,
                                  const char *what) {
  if (!sc || sc->dtype != GE_DTYPE_FLOAT32 || (sc->numel != 1 && !(m > 0 && sc->rank == 1 && sc->numel == m)))
    return ge_kernel_error(c, GE_ERR_INVALID, "%s scale must be a float32 scalar%s", what,
                           m > 0 ? " or one per output channel" : "");
  if (zp && (zp->dtype != zt || (zp->numel != 1 && !(m > 0 && zp->rank == 1 && zp->numel == m))))
    return ge_kernel_error(c, GE_ERR_INVALID, "%s zero point must be a %s scalar%s", what, ge_dtype_name(zt),
                           m > 0 ? " or one per output channel" : "");
  return GE_OK;
}

/* QLinearConv: ConvInteger of x and w with their zero points, plus the
 * int32 bias, requantized per output channel into y's dtype. */
static ge_status ge__hc_qlinearconv(ge_kernel_ctx *c) {
  const ge_value *x = ge__hc_dn_in(c, 0), *xs = ge__hc_dn_in(c, 1), *xz = ge__hc_dn_in(c, 2);
  const ge_value *w = ge__hc_dn_in(c, 3), *ws = ge__hc_dn_in(c, 4), *wz = ge__hc_dn_in(c, 5);
  const ge_value *ys = ge__hc_dn_in(c, 6), *yz = ge__hc_dn_in(c, 7), *b = ge__hc_dn_in(c, 8);
  ge_dtype ot = yz ? yz->dtype : GE_DTYPE_UINT8;
  ge__hc_dn_cv p;
  int64_t ydims[GE_MAX_RANK], i;
  uint64_t *xb = NULL, *wb = NULL, *acc = NULL;
  ge_value *y;
  ge_status st;
  if (!x || !w) return ge__hc_dn_missing(c, x ? 3 : 0);
  if ((x->dtype != GE_DTYPE_INT8 && x->dtype != GE_DTYPE_UINT8) ||
      (w->dtype != GE_DTYPE_INT8 && w->dtype != GE_DTYPE_UINT8) || (ot != GE_DTYPE_INT8 && ot != GE_DTYPE_UINT8))
    return ge_kernel_error(c, GE_ERR_INVALID, "x, w and y must be int8 or uint8 (got %s, %s, %s)",
                           ge_dtype_name(x->dtype), ge_dtype_name(w->dtype), ge_dtype_name(ot));
  if ((st = ge__hc_dn_conv_setup(c, x, w, 0, &p, ydims)) != GE_OK) return st;
  if ((st = ge__hc_dn_qparam(c, xs, xz, x->dtype, 0, "x")) != GE_OK ||
      (st = ge__hc_dn_qparam(c, ws, wz, w->dtype, p.m, "w")) != GE_OK ||
      (st = ge__hc_dn_qparam(c, ys, yz, ot, 0, "y")) != GE_OK)
    return st;
  if (b && (b->dtype != GE_DTYPE_INT32 || b->numel != p.m))
    return ge_kernel_error(c, GE_ERR_INVALID, "bias must be int32 with one element per output channel (%lld)",
                           (long long)p.m);
  if (!(y = ge__hc_dn_output(c, 0, ot, x->rank, ydims))) return GE__HC_OUT_FAILED(c);
  if (y->numel == 0) return GE_OK;
  xb = (uint64_t *)ge__hc_dn_alloc((size_t)x->numel * 8);
  wb = (uint64_t *)ge__hc_dn_alloc((size_t)w->numel * 8);
  acc = (uint64_t *)ge__hc_dn_alloc((size_t)y->numel * 8);
  if (!xb || !wb || !acc) st = ge__hc_dn_nomem(c);
  if (st == GE_OK) {
    float lo = ot == GE_DTYPE_INT8 ? -128.0f : 0.0f, hi = ot == GE_DTYPE_INT8 ? 127.0f : 255.0f;
    float zy = yz ? (float)ge__hc_get_i(yz, 0) : 0.0f, sx = ((const float *)xs->data)[0];
    float sy = ((const float *)ys->data)[0];
    int64_t plane = y->numel / (p.n * p.m);
    for (i = 0; i < x->numel; i++) xb[i] = (uint64_t)ge__hc_get_i(x, i);
    for (i = 0; i < w->numel; i++) wb[i] = (uint64_t)ge__hc_get_i(w, i);
    ge__hc_dn_sub_zp(xb, x, xz, -1);
    ge__hc_dn_sub_zp(wb, w, wz, 0);
    ge__hc_dn_conv_any(GE__HC_DN_U, 0, &p, xb, wb, NULL, acc);
    for (i = 0; i < y->numel; i++) {
      int64_t m = (i / plane) % p.m;
      uint32_t a = (uint32_t)acc[i] + (b ? (uint32_t)((const int32_t *)b->data)[m] : 0u);
      float mult = ge__hc_requant_mult(sx, ((const float *)ws->data)[ws->numel == 1 ? 0 : m], sy);
      int32_t q = ge__hc_requant((int32_t)a, mult, zy, lo, hi);
      if (ot == GE_DTYPE_INT8) ((int8_t *)y->data)[i] = (int8_t)q;
      else ((uint8_t *)y->data)[i] = (uint8_t)q;
    }
  }
  free(xb);
  free(wb);
  free(acc);
  return st;
}

/* ------------------------------------------------------------- pooling */

typedef struct ge__hc_dn_pl {
  int32_t r;
  int64_t planes, in_sz, out_sz;
  int64_t in[GE_MAX_RANK], k[GE_MAX_RANK], s[GE_MAX_RANK], d[GE_MAX_RANK];
  int64_t pb[GE_MAX_RANK], pe[GE_MAX_RANK], out[GE_MAX_RANK];
} ge__hc_dn_pl;

/* Pool geometry (kernel_shape, strides, dilations, pads, auto_pad,
 * ceil_mode); ydims gets the output shape. */
static ge_status ge__hc_dn_pool_setup(ge_kernel_ctx *c, const ge_value *x, ge__hc_dn_pl *p, int64_t *ydims) {
  const ge_node *nd = c->node;
  int64_t pads[2 * GE_MAX_RANK];
  int32_t r, i;
  int ap = ge__hc_dn_auto_pad(nd), ceil_mode = ge_node_attr_int(nd, "ceil_mode", 0) != 0;
  memset(p, 0, sizeof *p);
  if (x->rank < 3) return ge_kernel_error(c, GE_ERR_SHAPE, "input must have rank >= 3 (N, C, spatial dims)");
  if (ap < 0) return ge_kernel_error(c, GE_ERR_INVALID, "unknown auto_pad");
  p->r = r = x->rank - 2;
  if (!ge_node_attr(nd, "kernel_shape")) return ge_kernel_error(c, GE_ERR_INVALID, "kernel_shape is required");
  if (!ge__hc_dn_ints(nd, "kernel_shape", r, 1, p->k) || !ge__hc_dn_ints(nd, "strides", r, 1, p->s) ||
      !ge__hc_dn_ints(nd, "dilations", r, 1, p->d) || !ge__hc_dn_ints(nd, "pads", 2 * r, 0, pads))
    return ge_kernel_error(c, GE_ERR_INVALID, "kernel_shape, strides, dilations or pads has the wrong length");
  p->planes = x->dims[0] * x->dims[1];
  ydims[0] = x->dims[0];
  ydims[1] = x->dims[1];
  p->in_sz = p->out_sz = 1;
  for (i = 0; i < r; i++) {
    int64_t in = x->dims[2 + i], k = p->k[i], s = p->s[i], d = p->d[i], eff = (k - 1) * d + 1, out, total;
    if (k < 1 || s < 1 || d < 1 || k > GE__HC_DN_MAX_DIM || s > GE__HC_DN_MAX_DIM || d > GE__HC_DN_MAX_DIM)
      return ge_kernel_error(c, GE_ERR_INVALID, "kernel_shape, strides and dilations must be in [1, 2^31]");
    if (pads[i] < 0 || pads[r + i] < 0 || pads[i] > GE__HC_DN_MAX_DIM || pads[r + i] > GE__HC_DN_MAX_DIM)
      return ge_kernel_error(c, GE_ERR_INVALID, "pads must be in [0, 2^31]");
    if (in > GE__HC_DN_MAX_DIM) return ge_kernel_error(c, GE_ERR_SHAPE, "spatial dims too large");
    if (ap == 0) {
      int64_t num = in + pads[i] + pads[r + i] - eff;
      p->pb[i] = pads[i];
      p->pe[i] = pads[r + i];
      if (num < 0)
        out = 0;
      else if (ceil_mode) {
        out = (num + s - 1) / s + 1;
        if ((out - 1) * s >= in + pads[i]) out--; /* no window may start in the end padding */
      } else
        out = num / s + 1;
    } else if (ap == 3) {
      out = in >= eff ? (in - eff) / s + 1 : 0;
    } else {
      out = (in + s - 1) / s;
      total = (out - 1) * s + eff - in;
      if (total < 0) total = 0;
      p->pb[i] = ap == 1 ? total / 2 : total - total / 2;
      p->pe[i] = total - p->pb[i];
    }
    if (out < 1) return ge_kernel_error(c, GE_ERR_SHAPE, "spatial dim %d: window larger than the padded input", (int)i);
    p->in[i] = in;
    p->out[i] = out;
    ydims[2 + i] = out;
    p->in_sz *= in;
    p->out_sz *= out;
  }
  return GE_OK;
}

/* MaxPool (op 0, with optional Indices), AveragePool (1), LpPool (2). */
static ge_status ge__hc_dn_pool(ge_kernel_ctx *c, int op) {
  const ge_value *x = ge__hc_dn_in(c, 0);
  const ge_attr *pa = ge_node_attr(c->node, "p");
  ge__hc_dn_pl p;
  int64_t ydims[GE_MAX_RANK], rstr[GE_MAX_RANK], cstr[GE_MAX_RANK], pl, q;
  int include_pad = ge_node_attr_int(c->node, "count_include_pad", 0) != 0;
  int colmajor = ge_node_attr_int(c->node, "storage_order", 0) != 0;
  double pw = pa ? (pa->type == GE_ATTR_FLOAT ? pa->v.f : (double)pa->v.i) : 2.0, *xd;
  ge_value *y, *ind = NULL;
  int32_t j, r;
  ge_status st;
  if (!x) return ge__hc_dn_missing(c, 0);
  if (op == 0 ? ge__hc_dn_kind(x->dtype) < 0 : !ge__hc_is_float(x->dtype)) return ge__hc_dn_bad_dtype(c, x->dtype);
  if ((st = ge__hc_dn_pool_setup(c, x, &p, ydims)) != GE_OK) return st;
  if (op == 2 && !(pw > 0)) return ge_kernel_error(c, GE_ERR_INVALID, "p must be > 0");
  r = p.r;
  if (!(y = ge__hc_dn_output(c, 0, x->dtype, x->rank, ydims))) return GE__HC_OUT_FAILED(c);
  if (op == 0 && ge__hc_dn_want(c, 1) && !(ind = ge__hc_dn_output(c, 1, GE_DTYPE_INT64, x->rank, ydims)))
    return GE__HC_OUT_FAILED(c);
  if (!(xd = ge__hc_dn_doubles(x))) return ge__hc_dn_nomem(c);
  for (j = r - 1; j >= 0; j--) rstr[j] = j == r - 1 ? 1 : rstr[j + 1] * p.in[j + 1];
  for (j = 0; j < r; j++) cstr[j] = j == 0 ? 1 : cstr[j - 1] * p.in[j - 1];
  for (pl = 0; pl < p.planes; pl++) {
    int64_t o[GE_MAX_RANK];
    memset(o, 0, sizeof o);
    for (q = 0; q < p.out_sz; q++) {
      int64_t lo[GE_MAX_RANK], hi[GE_MAX_RANK], kk[GE_MAX_RANK], start[GE_MAX_RANK], padded = 1, valid = 1;
      int64_t yi = pl * p.out_sz + q, best = -1;
      double acc = op == 0 ? -HUGE_VAL : 0.0;
      for (j = 0; j < r; j++) {
        int64_t a, b;
        start[j] = o[j] * p.s[j] - p.pb[j];
        ge__hc_dn_span(start[j], p.d[j], p.in[j], p.k[j], &lo[j], &hi[j]);
        ge__hc_dn_span(start[j] + p.pb[j], p.d[j], p.in[j] + p.pb[j] + p.pe[j], p.k[j], &a, &b);
        valid *= hi[j] - lo[j];
        padded *= b - a;
        kk[j] = lo[j];
      }
      while (valid > 0) { /* the window positions inside the input */
        int64_t off = 0, coff = 0;
        double v;
        for (j = 0; j < r; j++) {
          int64_t pos = start[j] + kk[j] * p.d[j];
          off += pos * rstr[j];
          coff += pos * cstr[j];
        }
        v = xd[pl * p.in_sz + off];
        if (op == 0) {
          if (v > acc || best < 0 || v != v) {
            if (!(acc != acc)) {
              acc = v;
              best = pl * p.in_sz + (colmajor ? coff : off);
            }
          }
        } else
          acc += op == 1 ? v : pow(fabs(v), pw);
        for (j = r - 1; j >= 0; j--) {
          if (++kk[j] < hi[j]) break;
          kk[j] = lo[j];
        }
        if (j < 0) break;
      }
      if (op == 1) acc = (include_pad ? padded : valid) ? acc / (double)(include_pad ? padded : valid) : 0.0;
      if (op == 2) acc = pow(acc, 1.0 / pw);
      ge__hc_dn_set_f(y, yi, acc);
      if (ind) ge__hc_set_i(ind, yi, best);
      for (j = r - 1; j >= 0; j--) {
        if (++o[j] < p.out[j]) break;
        o[j] = 0;
      }
    }
  }
  free(xd);
  return GE_OK;
}

static ge_status ge__hc_maxpool(ge_kernel_ctx *c) { return ge__hc_dn_pool(c, 0); }
static ge_status ge__hc_averagepool(ge_kernel_ctx *c) { return ge__hc_dn_pool(c, 1); }
static ge_status ge__hc_lppool(ge_kernel_ctx *c) { return ge__hc_dn_pool(c, 2); }

/* GlobalMaxPool (0), GlobalAveragePool (1), GlobalLpPool (2). */
static ge_status ge__hc_dn_global_pool(ge_kernel_ctx *c, int op) {
  const ge_value *x = ge__hc_dn_in(c, 0);
  const ge_attr *pa = ge_node_attr(c->node, "p");
  double pw = pa ? (pa->type == GE_ATTR_FLOAT ? pa->v.f : (double)pa->v.i) : 2.0;
  int64_t dims[GE_MAX_RANK], planes, inner, pl, i;
  int32_t j;
  ge_value *y;
  if (!x) return ge__hc_dn_missing(c, 0);
  if (op == 0 ? ge__hc_dn_kind(x->dtype) < 0 : !ge__hc_is_float(x->dtype)) return ge__hc_dn_bad_dtype(c, x->dtype);
  if (x->rank < 2) return ge_kernel_error(c, GE_ERR_SHAPE, "input must have rank >= 2 (N, C, spatial dims)");
  if (op == 2 && !(pw > 0)) return ge_kernel_error(c, GE_ERR_INVALID, "p must be > 0");
  for (j = 0; j < x->rank; j++) dims[j] = j < 2 ? x->dims[j] : 1;
  planes = x->dims[0] * x->dims[1];
  inner = ge__hc_dn_prod(x->dims, 2, x->rank);
  if (!(y = ge__hc_dn_output(c, 0, x->dtype, x->rank, dims))) return GE__HC_OUT_FAILED(c);
  for (pl = 0; pl < planes; pl++) {
    double acc = op == 0 ? -HUGE_VAL : 0.0;
    for (i = 0; i < inner; i++) {
      double v = ge__hc_get_f(x, pl * inner + i);
      if (op == 0) {
        if (v > acc || v != v) acc = v;
        if (acc != acc) break;
      } else
        acc += op == 1 ? v : pow(fabs(v), pw);
    }
    if (op == 1) acc = inner ? acc / (double)inner : 0.0;
    if (op == 2) acc = pow(acc, 1.0 / pw);
    ge__hc_dn_set_f(y, pl, acc);
  }
  return GE_OK;
}

static ge_status ge__hc_globalmaxpool(ge_kernel_ctx *c) { return ge__hc_dn_global_pool(c, 0); }
static ge_status ge__hc_globalaveragepool(ge_kernel_ctx *c) { return ge__hc_dn_global_pool(c, 1); }
static ge_status ge__hc_globallppool(ge_kernel_ctx *c) { return ge__hc_dn_global_pool(c, 2); }

/* ------------------------------------------------------- normalization */

/* For reduced axes mask[] of x: kdims (x's dims with reduced ones 1) and
 * the strides of a kdims-shaped tensor laid over x (0 on reduced axes).
 * Returns the number of elements of kdims. */
static int64_t ge__hc_dn_mask_strides(const ge_value *x, const int *mask, int64_t *kdims, int64_t *strides) {
  int64_t s = 1;
  int32_t i;
  for (i = x->rank - 1; i >= 0; i--) {
    kdims[i] = mask[i] ? 1 : x->dims[i];
    strides[i] = mask[i] ? 0 : s;
    s *= kdims[i];
  }
  return s;
}

/* Whether v broadcasts (numpy, one way) to x's shape. */
static int ge__hc_dn_bcasts_to(const ge_value *v, const ge_value *x) {
  int32_t i;
  if (v->rank > x->rank) return 0;
  for (i = 0; i < v->rank; i++) {
    int64_t d = v->dims[i], xd = x->dims[i + x->rank - v->rank];
    if (d != xd && d != 1) return 0;
  }
  return 1;
}

/* The dtype of a statistics output: what the graph says when it is a float
 * type, else stash_type when it is one, else float32. */
static ge_dtype ge__hc_dn_stat_dtype(const ge_kernel_ctx *c, uint32_t i) {
  ge_dtype t = i < c->node->num_outputs ? c->node->outputs[i].dtype : GE_DTYPE_UNDEFINED;
  int64_t st = ge_node_attr_int(c->node, "stash_type", GE_DTYPE_FLOAT32);
  if (ge__hc_is_float(t)) return t;
  if (st > 0 && st < GE_DTYPE_COUNT && ge__hc_is_float((ge_dtype)st)) return (ge_dtype)st;
  return GE_DTYPE_FLOAT32;
}

static ge_status ge__hc_batchnormalization(ge_kernel_ctx *c) {
  const ge_value *x = ge__hc_dn_in(c, 0), *sc = ge__hc_dn_in(c, 1), *bi = ge__hc_dn_in(c, 2);
  const ge_value *mean = ge__hc_dn_in(c, 3), *var = ge__hc_dn_in(c, 4);
  double eps = ge_node_attr_float(c->node, "epsilon", 1e-5), mom = ge_node_attr_float(c->node, "momentum", 0.9);
  int training = ge_node_attr_int(c->node, "training_mode", 0) != 0;
  int64_t C, N, inner, n, ch, i;
  double *bm = NULL, *bv = NULL;
  ge_value *y;
  uint32_t k;
  if (!x || !sc || !bi || !mean || !var) return ge__hc_dn_missing(c, !x ? 0 : !sc ? 1 : !bi ? 2 : !mean ? 3 : 4);
  if (!ge__hc_is_float(x->dtype) || !ge__hc_is_float(sc->dtype) || !ge__hc_is_float(bi->dtype) ||
      !ge__hc_is_float(mean->dtype) || !ge__hc_is_float(var->dtype))
    return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "inputs must be float tensors");
  if (x->rank < 2) return ge_kernel_error(c, GE_ERR_SHAPE, "input must have rank >= 2 (N, C, ...)");
  N = x->dims[0];
  C = x->dims[1];
  inner = ge__hc_dn_prod(x->dims, 2, x->rank);
  if (sc->numel != C || bi->numel != C || mean->numel != C || var->numel != C)
    return ge_kernel_error(c, GE_ERR_SHAPE, "scale, B, mean and var must have %lld elements", (long long)C);
  if (!(y = ge__hc_dn_output(c, 0, x->dtype, x->rank, x->dims))) return GE__HC_OUT_FAILED(c);
  bm = (double *)ge__hc_dn_alloc((size_t)C * sizeof(double));
  bv = (double *)ge__hc_dn_alloc((size_t)C * sizeof(double));
  if (!bm || !bv) {
    free(bm);
    free(bv);
    return ge__hc_dn_nomem(c);
  }
  for (ch = 0; ch < C; ch++) {
    double s = 0, ss = 0, cnt = (double)(N * inner), m;
    if (!training) {
      bm[ch] = ge__hc_get_f(mean, ch);
      bv[ch] = ge__hc_get_f(var, ch);
      continue;
    }
    for (n = 0; n < N; n++)
      for (i = 0; i < inner; i++) s += ge__hc_get_f(x, (n * C + ch) * inner + i);
    m = cnt > 0 ? s / cnt : 0;
    for (n = 0; n < N; n++)
      for (i = 0; i < inner; i++) {
        double d = ge__hc_get_f(x, (n * C + ch) * inner + i) - m;
        ss += d * d;
      }
    bm[ch] = m;
    bv[ch] = cnt > 0 ? ss / cnt : 0;
  }
  for (ch = 0; ch < C; ch++) {
    double a = ge__hc_get_f(sc, ch) / sqrt(bv[ch] + eps), b = ge__hc_get_f(bi, ch) - bm[ch] * a;
    for (n = 0; n < N; n++)
      for (i = 0; i < inner; i++) {
        int64_t at = (n * C + ch) * inner + i;
        ge__hc_set_f(y, at, ge__hc_get_f(x, at) * a + b);
      }
  }
  /* running mean and variance (training: blended with the batch's; else
   * the inputs'); opset <= 9 saved mean and variance after them */
  for (k = 1; k < 5 && ge__hc_dn_want(c, k); k++) {
    ge_value *o = ge__hc_dn_output(c, k, mean->dtype, mean->rank, mean->dims);
    if (!o) {
      free(bm);
      free(bv);
      return GE__HC_OUT_FAILED(c);
    }
    for (ch = 0; ch < C; ch++) {
      double v = k == 1 || k == 3 ? bm[ch] : bv[ch];
      if (training && k < 3) v = ge__hc_get_f(k == 1 ? mean : var, ch) * mom + v * (1 - mom);
      ge__hc_set_f(o, ch, v);
    }
  }
  free(bm);
  free(bv);
  return GE_OK;
}

static ge_status ge__hc_instancenormalization(ge_kernel_ctx *c) {
  const ge_value *x = ge__hc_dn_in(c, 0), *sc = ge__hc_dn_in(c, 1), *bi = ge__hc_dn_in(c, 2);
  double eps = ge_node_attr_float(c->node, "epsilon", 1e-5);
  int64_t C, inner, pl, i;
  ge_value *y;
  if (!x || !sc || !bi) return ge__hc_dn_missing(c, !x ? 0 : !sc ? 1 : 2);
  if (!ge__hc_is_float(x->dtype)) return ge__hc_dn_bad_dtype(c, x->dtype);
  if (x->rank < 2) return ge_kernel_error(c, GE_ERR_SHAPE, "input must have rank >= 2 (N, C, ...)");
  C = x->dims[1];
  inner = ge__hc_dn_prod(x->dims, 2, x->rank);
  if (sc->numel != C || bi->numel != C)
    return ge_kernel_error(c, GE_ERR_SHAPE, "scale and B must have %lld elements", (long long)C);
  if (!(y = ge__hc_dn_output(c, 0, x->dtype, x->rank, x->dims))) return GE__HC_OUT_FAILED(c);
  for (pl = 0; pl < x->dims[0] * C; pl++) {
    double s = 0, ss = 0, m, a, b;
    for (i = 0; i < inner; i++) s += ge__hc_get_f(x, pl * inner + i);
    m = inner ? s / (double)inner : 0;
    for (i = 0; i < inner; i++) {
      double d = ge__hc_get_f(x, pl * inner + i) - m;
      ss += d * d;
    }
    a = ge__hc_get_f(sc, pl % C) / sqrt((inner ? ss / (double)inner : 0) + eps);
    b = ge__hc_get_f(bi, pl % C) - m * a;
    for (i = 0; i < inner; i++) ge__hc_set_f(y, pl * inner + i, ge__hc_get_f(x, pl * inner + i) * a + b);
  }
  return GE_OK;
}

static ge_status ge__hc_layernormalization(ge_kernel_ctx *c) {
  const ge_value *x = ge__hc_dn_in(c, 0), *sc = ge__hc_dn_in(c, 1), *bi = ge__hc_dn_in(c, 2);
  double eps = ge_node_attr_float(c->node, "epsilon", 1e-5);
  int64_t outer, inner, o, i, sdims[GE_MAX_RANK];
  int32_t axis, j;
  ge_value *y, *mo = NULL, *io = NULL;
  ge__hc_iter it;
  if (!x || !sc) return ge__hc_dn_missing(c, x ? 1 : 0);
  if (!ge__hc_is_float(x->dtype)) return ge__hc_dn_bad_dtype(c, x->dtype);
  if (x->rank < 1 || !ge__hc_axis(ge_node_attr_int(c->node, "axis", -1), x->rank, &axis))
    return ge_kernel_error(c, GE_ERR_INVALID, "axis out of range for rank %d", (int)x->rank);
  if (!ge__hc_dn_bcasts_to(sc, x) || (bi && !ge__hc_dn_bcasts_to(bi, x)))
    return ge_kernel_error(c, GE_ERR_SHAPE, "Scale or B does not broadcast to the input");
  outer = ge__hc_dn_prod(x->dims, 0, axis);
  inner = ge__hc_dn_prod(x->dims, axis, x->rank);
  for (j = 0; j < x->rank; j++) sdims[j] = j < axis ? x->dims[j] : 1;
  if (!(y = ge__hc_dn_output(c, 0, x->dtype, x->rank, x->dims))) return GE__HC_OUT_FAILED(c);
  if (ge__hc_dn_want(c, 1) && !(mo = ge__hc_dn_output(c, 1, ge__hc_dn_stat_dtype(c, 1), x->rank, sdims)))
    return GE__HC_OUT_FAILED(c);
  if (ge__hc_dn_want(c, 2) && !(io = ge__hc_dn_output(c, 2, ge__hc_dn_stat_dtype(c, 2), x->rank, sdims)))
    return GE__HC_OUT_FAILED(c);
  ge__hc_iter_init(&it, x->rank, x->dims, 2);
  ge__hc_bcast_strides(sc, x->rank, it.strides[0]);
  if (bi) ge__hc_bcast_strides(bi, x->rank, it.strides[1]);
  for (o = 0; o < outer; o++) {
    double s = 0, ss = 0, m, inv;
    for (i = 0; i < inner; i++) s += ge__hc_get_f(x, o * inner + i);
    m = inner ? s / (double)inner : 0;
    for (i = 0; i < inner; i++) {
      double d = ge__hc_get_f(x, o * inner + i) - m;
      ss += d * d;
    }
    inv = 1.0 / sqrt((inner ? ss / (double)inner : 0) + eps);
    for (i = 0; i < inner; i++, ge__hc_step(&it)) {
      double v = (ge__hc_get_f(x, o * inner + i) - m) * inv * ge__hc_get_f(sc, it.off[0]);
      ge__hc_set_f(y, o * inner + i, bi ? v + ge__hc_get_f(bi, it.off[1]) : v);
    }
    if (mo) ge__hc_set_f(mo, o, m);
    if (io) ge__hc_set_f(io, o, inv);
  }
  return GE_OK;
}

static ge_status ge__hc_groupnormalization(ge_kernel_ctx *c) {
  const ge_value *x = ge__hc_dn_in(c, 0), *sc = ge__hc_dn_in(c, 1), *bi = ge__hc_dn_in(c, 2);
  double eps = ge_node_attr_float(c->node, "epsilon", 1e-5);
  int64_t G = ge_node_attr_int(c->node, "num_groups", 0), C, N, inner, per, n, g, i;
  int per_channel;
  ge_value *y;
  if (!x || !sc || !bi) return ge__hc_dn_missing(c, !x ? 0 : !sc ? 1 : 2);
  if (!ge__hc_is_float(x->dtype)) return ge__hc_dn_bad_dtype(c, x->dtype);
  if (x->rank < 2) return ge_kernel_error(c, GE_ERR_SHAPE, "input must have rank >= 2 (N, C, ...)");
  N = x->dims[0];
  C = x->dims[1];
  if (G < 1 || C % G)
    return ge_kernel_error(c, GE_ERR_INVALID, "num_groups %lld must divide %lld channels", (long long)G, (long long)C);
  /* opset 18: scale and bias per group; opset 21: per channel */
  per_channel = sc->numel == C;
  if ((sc->numel != G && !per_channel) || bi->numel != sc->numel)
    return ge_kernel_error(c, GE_ERR_SHAPE, "scale and bias must have num_groups or C elements");
  inner = ge__hc_dn_prod(x->dims, 2, x->rank);
  per = C / G * inner;
  if (!(y = ge__hc_dn_output(c, 0, x->dtype, x->rank, x->dims))) return GE__HC_OUT_FAILED(c);
  for (n = 0; n < N; n++)
    for (g = 0; g < G; g++) {
      int64_t base = (n * G + g) * per;
      double s = 0, ss = 0, m, inv;
      for (i = 0; i < per; i++) s += ge__hc_get_f(x, base + i);
      m = per ? s / (double)per : 0;
      for (i = 0; i < per; i++) {
        double d = ge__hc_get_f(x, base + i) - m;
        ss += d * d;
      }
      inv = 1.0 / sqrt((per ? ss / (double)per : 0) + eps);
      for (i = 0; i < per; i++) {
        int64_t k = per_channel ? g * (C / G) + i / inner : g;
        ge__hc_set_f(y, base + i, (ge__hc_get_f(x, base + i) - m) * inv * ge__hc_get_f(sc, k) + ge__hc_get_f(bi, k));
      }
    }
  return GE_OK;
}

static ge_status ge__hc_lrn(ge_kernel_ctx *c) {
  const ge_value *x = ge__hc_dn_in(c, 0);
  double alpha = ge_node_attr_float(c->node, "alpha", 1e-4), beta = ge_node_attr_float(c->node, "beta", 0.75);
  double bias = ge_node_attr_float(c->node, "bias", 1.0);
  int64_t size = ge_node_attr_int(c->node, "size", 0), C, inner, n, ch, i, k;
  ge_value *y;
  if (!x) return ge__hc_dn_missing(c, 0);
  if (!ge__hc_is_float(x->dtype)) return ge__hc_dn_bad_dtype(c, x->dtype);
  if (size < 1) return ge_kernel_error(c, GE_ERR_INVALID, "size must be >= 1");
  if (x->rank < 2) return ge_kernel_error(c, GE_ERR_SHAPE, "input must have rank >= 2 (N, C, ...)");
  C = x->dims[1];
  inner = ge__hc_dn_prod(x->dims, 2, x->rank);
  if (!(y = ge__hc_dn_output(c, 0, x->dtype, x->rank, x->dims))) return GE__HC_OUT_FAILED(c);
  for (n = 0; n < x->dims[0]; n++)
    for (ch = 0; ch < C; ch++)
      for (i = 0; i < inner; i++) {
        int64_t lo = ch - (size - 1) / 2, hi = ch + size / 2; /* ceil((size-1)/2) = size/2 */
        double ss = 0, v = ge__hc_get_f(x, (n * C + ch) * inner + i);
        for (k = lo < 0 ? 0 : lo; k <= hi && k < C; k++) {
          double t = ge__hc_get_f(x, (n * C + k) * inner + i);
          ss += t * t;
        }
        ge__hc_set_f(y, (n * C + ch) * inner + i, v / pow(bias + alpha / (double)size * ss, beta));
      }
  return GE_OK;
}

static ge_status ge__hc_meanvariancenormalization(ge_kernel_ctx *c) {
  const ge_value *x = ge__hc_dn_in(c, 0);
  const int64_t *axes = NULL, dflt[3] = {0, 2, 3};
  int32_t na = ge_node_attr_ints(c->node, "axes", &axes), j, ax;
  int mask[GE_MAX_RANK];
  int64_t kdims[GE_MAX_RANK], groups, i, per;
  double *sum, *sq;
  ge__hc_iter it;
  ge_value *y;
  if (!x) return ge__hc_dn_missing(c, 0);
  if (!ge__hc_is_float(x->dtype)) return ge__hc_dn_bad_dtype(c, x->dtype);
  if (na < 0) {
    axes = dflt;
    na = 3;
  }
  memset(mask, 0, sizeof mask);
  for (j = 0; j < na; j++) {
    if (!ge__hc_axis(axes[j], x->rank, &ax) || x->rank == 0)
      return ge_kernel_error(c, GE_ERR_INVALID, "axis %lld out of range for rank %d", (long long)axes[j], (int)x->rank);
    mask[ax] = 1;
  }
  if (!(y = ge__hc_dn_output(c, 0, x->dtype, x->rank, x->dims))) return GE__HC_OUT_FAILED(c);
  ge__hc_iter_init(&it, x->rank, x->dims, 1);
  groups = ge__hc_dn_mask_strides(x, mask, kdims, it.strides[0]);
  per = groups ? x->numel / groups : 0;
  sum = (double *)calloc((size_t)(groups ? groups : 1), sizeof(double));
  sq = (double *)calloc((size_t)(groups ? groups : 1), sizeof(double));
  if (!sum || !sq) {
    free(sum);
    free(sq);
    return ge__hc_dn_nomem(c);
  }
  for (i = 0; i < x->numel; i++, ge__hc_step(&it)) sum[it.off[0]] += ge__hc_get_f(x, i);
  for (i = 0; i < groups; i++) sum[i] = per ? sum[i] / (double)per : 0;
  ge__hc_iter_init(&it, x->rank, x->dims, 1);
  ge__hc_dn_mask_strides(x, mask, kdims, it.strides[0]);
  for (i = 0; i < x->numel; i++, ge__hc_step(&it)) {
    double d = ge__hc_get_f(x, i) - sum[it.off[0]];
    sq[it.off[0]] += d * d;
  }
  for (i = 0; i < groups; i++) sq[i] = sqrt(per ? sq[i] / (double)per : 0) + 1e-9;
  ge__hc_iter_init(&it, x->rank, x->dims, 1);
  ge__hc_dn_mask_strides(x, mask, kdims, it.strides[0]);
  for (i = 0; i < x->numel; i++, ge__hc_step(&it))
    ge__hc_set_f(y, i, (ge__hc_get_f(x, i) - sum[it.off[0]]) / sq[it.off[0]]);
  free(sum);
  free(sq);
  return GE_OK;
}

static ge_status ge__hc_lpnormalization(ge_kernel_ctx *c) {
  const ge_value *x = ge__hc_dn_in(c, 0);
  int64_t p = ge_node_attr_int(c->node, "p", 2), outer, len, inner, o, i, k;
  int32_t axis;
  ge_value *y;
  if (!x) return ge__hc_dn_missing(c, 0);
  if (!ge__hc_is_float(x->dtype)) return ge__hc_dn_bad_dtype(c, x->dtype);
  if (p != 1 && p != 2) return ge_kernel_error(c, GE_ERR_INVALID, "p must be 1 or 2");
  if (!ge__hc_axis(ge_node_attr_int(c->node, "axis", -1), x->rank, &axis))
    return ge_kernel_error(c, GE_ERR_INVALID, "axis out of range for rank %d", (int)x->rank);
  ge__hc_dn_split(x, axis, &outer, &len, &inner);
  if (!(y = ge__hc_dn_output(c, 0, x->dtype, x->rank, x->dims))) return GE__HC_OUT_FAILED(c);
  for (o = 0; o < outer; o++)
    for (i = 0; i < inner; i++) {
      double s = 0;
      for (k = 0; k < len; k++) {
        double v = ge__hc_get_f(x, (o * len + k) * inner + i);
        s += p == 1 ? fabs(v) : v * v;
      }
      if (p == 2) s = sqrt(s);
      for (k = 0; k < len; k++) {
        int64_t at = (o * len + k) * inner + i;
        ge__hc_set_f(y, at, s == 0 ? 0.0 : ge__hc_get_f(x, at) / s);
      }
    }
  return GE_OK;
}

/* ------------------------------------------------------------- softmax */

/* Softmax (op 0), LogSoftmax (1), Hardmax (2) along one axis, default -1
 * (the opset >= 13 definition; for the 2-D inputs and last-axis cases the
 * older definition, which flattens from the axis on, gives the same). */
static ge_status ge__hc_dn_softmax(ge_kernel_ctx *c, int op) {
  const ge_value *x = ge__hc_dn_in(c, 0);
  int64_t outer, len, inner, o, i, k;
  int32_t axis;
  ge_value *y;
  if (!x) return ge__hc_dn_missing(c, 0);
  if (!ge__hc_is_float(x->dtype)) return ge__hc_dn_bad_dtype(c, x->dtype);
  if (!ge__hc_axis(ge_node_attr_int(c->node, "axis", -1), x->rank, &axis))
    return ge_kernel_error(c, GE_ERR_INVALID, "axis out of range for rank %d", (int)x->rank);
  ge__hc_dn_split(x, axis, &outer, &len, &inner);
  if (!(y = ge__hc_dn_output(c, 0, x->dtype, x->rank, x->dims))) return GE__HC_OUT_FAILED(c);
  for (o = 0; o < outer; o++)
    for (i = 0; i < inner; i++) {
      int64_t base = o * len * inner + i, best = 0;
      double mx = -HUGE_VAL, s = 0;
      for (k = 0; k < len; k++) {
        double v = ge__hc_get_f(x, base + k * inner);
        if (v > mx || (k == 0)) {
          mx = v;
          best = k;
        }
      }
      if (op == 2) {
        for (k = 0; k < len; k++) ge__hc_set_f(y, base + k * inner, k == best ? 1.0 : 0.0);
        continue;
      }
      for (k = 0; k < len; k++) s += exp(ge__hc_get_f(x, base + k * inner) - mx);
      for (k = 0; k < len; k++) {
        double d = ge__hc_get_f(x, base + k * inner) - mx;
        ge__hc_set_f(y, base + k * inner, op == 0 ? exp(d) / s : d - log(s));
      }
    }
  return GE_OK;
}

static ge_status ge__hc_softmax(ge_kernel_ctx *c) { return ge__hc_dn_softmax(c, 0); }
static ge_status ge__hc_logsoftmax(ge_kernel_ctx *c) { return ge__hc_dn_softmax(c, 1); }
static ge_status ge__hc_hardmax(ge_kernel_ctx *c) { return ge__hc_dn_softmax(c, 2); }

/* ---------------------------------------------------------- reductions */

#define GE__HC_DN_RSUM 0
#define GE__HC_DN_RMEAN 1
#define GE__HC_DN_RMAX 2
#define GE__HC_DN_RMIN 3
#define GE__HC_DN_RPROD 4
#define GE__HC_DN_RL1 5
#define GE__HC_DN_RL2 6
#define GE__HC_DN_RLOGSUM 7
#define GE__HC_DN_RLOGSUMEXP 8
#define GE__HC_DN_RSUMSQ 9

/* The smallest and largest values of an integer dtype as int64 (the
 * largest uint64 comes back as -1, its bit pattern). */
static void ge__hc_dn_int_limits(ge_dtype t, int64_t *lo, int64_t *hi) {
  switch (t) {
  case GE_DTYPE_INT8: *lo = -128, *hi = 127; return;
  case GE_DTYPE_INT16: *lo = -32768, *hi = 32767; return;
  case GE_DTYPE_INT32: *lo = INT32_MIN, *hi = INT32_MAX; return;
  case GE_DTYPE_UINT8: *lo = 0, *hi = 255; return;
  case GE_DTYPE_BOOL: *lo = 0, *hi = 1; return;
  case GE_DTYPE_UINT16: *lo = 0, *hi = 65535; return;
  case GE_DTYPE_UINT32: *lo = 0, *hi = (int64_t)UINT32_MAX; return;
  case GE_DTYPE_UINT64: *lo = 0, *hi = -1; return;
  default: *lo = INT64_MIN, *hi = INT64_MAX; return;
  }
}

/* a > b for elements (as int64 bit patterns) of integer dtype t. */
static int ge__hc_dn_int_gt(ge_dtype t, int64_t a, int64_t b) {
  return t == GE_DTYPE_UINT64 ? (uint64_t)a > (uint64_t)b : a > b;
}

/* The axes to reduce into mask: from input 1 when given, else the axes
 * attribute. Returns how many were named (0: none). */
static ge_status ge__hc_dn_axes(ge_kernel_ctx *c, const ge_value *x, uint32_t input, int *mask, int32_t *count) {
  const ge_value *a = ge__hc_dn_in(c, input);
  const int64_t *av = NULL;
  int32_t n, j, ax;
  memset(mask, 0, GE_MAX_RANK * sizeof *mask);
  if (a) {
    if (!ge__hc_dn_is_int(a->dtype)) return ge_kernel_error(c, GE_ERR_INVALID, "axes must be an integer tensor");
    n = (int32_t)a->numel;
  } else {
    n = ge_node_attr_ints(c->node, "axes", &av);
    if (n < 0) n = 0;
  }
  for (j = 0; j < n; j++) {
    int64_t v = a ? ge__hc_get_i(a, j) : av[j];
    if (x->rank == 0 ? (v != 0 && v != -1) : !ge__hc_axis(v, x->rank, &ax))
      return ge_kernel_error(c, GE_ERR_INVALID, "axis %lld out of range for rank %d", (long long)v, (int)x->rank);
    if (x->rank) mask[ax] = 1;
  }
  *count = n;
  return GE_OK;
}

static ge_status ge__hc_dn_reduce(ge_kernel_ctx *c, int op) {
  const ge_value *x = ge__hc_dn_in(c, 0);
  int keep = ge_node_attr_int(c->node, "keepdims", 1) != 0;
  int noop = ge_node_attr_int(c->node, "noop_with_empty_axes", 0) != 0;
  int mask[GE_MAX_RANK], ints;
  int32_t na = 0, j, orank = 0;
  int64_t kdims[GE_MAX_RANK], odims[GE_MAX_RANK], groups, count = 1, i, lo, hi;
  double *acc = NULL, *mx = NULL;
  int64_t *iacc = NULL;
  ge__hc_iter it;
  ge_value *y;
  ge_status st;
  if (!x) return ge__hc_dn_missing(c, 0);
  if (ge__hc_dn_kind(x->dtype) < 0 && !(x->dtype == GE_DTYPE_BOOL && (op == GE__HC_DN_RMAX || op == GE__HC_DN_RMIN)))
    return ge__hc_dn_bad_dtype(c, x->dtype);
  if ((st = ge__hc_dn_axes(c, x, 1, mask, &na)) != GE_OK) return st;
  if (na == 0) {
    if (noop) return ge__hc_copy_to_output(c, 0, x);
    for (j = 0; j < x->rank; j++) mask[j] = 1;
  }
  for (j = 0; j < x->rank; j++) {
    if (mask[j]) count *= x->dims[j];
    if (!mask[j] || keep) odims[orank++] = mask[j] ? 1 : x->dims[j];
  }
  if (!(y = ge__hc_dn_output(c, 0, x->dtype, orank, odims))) return GE__HC_OUT_FAILED(c);
  ge__hc_iter_init(&it, x->rank, x->dims, 1);
  groups = ge__hc_dn_mask_strides(x, mask, kdims, it.strides[0]);
  ints = !ge__hc_is_float(x->dtype) && op != GE__HC_DN_RL2 && op != GE__HC_DN_RLOGSUM && op != GE__HC_DN_RLOGSUMEXP;
  if (ints) {
    ge__hc_dn_int_limits(x->dtype, &lo, &hi);
    if (!(iacc = (int64_t *)ge__hc_dn_alloc((size_t)groups * sizeof(int64_t)))) return ge__hc_dn_nomem(c);
    for (i = 0; i < groups; i++)
      iacc[i] = op == GE__HC_DN_RPROD ? 1 : op == GE__HC_DN_RMAX ? lo : op == GE__HC_DN_RMIN ? hi : 0;
    for (i = 0; i < x->numel; i++, ge__hc_step(&it)) {
      int64_t v = ge__hc_get_i(x, i), *a = &iacc[it.off[0]];
      switch (op) {
      case GE__HC_DN_RMAX:
        if (ge__hc_dn_int_gt(x->dtype, v, *a)) *a = v;
        break;
      case GE__HC_DN_RMIN:
        if (ge__hc_dn_int_gt(x->dtype, *a, v)) *a = v;
        break;
      case GE__HC_DN_RPROD: *a = (int64_t)((uint64_t)*a * (uint64_t)v); break;
      case GE__HC_DN_RL1: *a = (int64_t)((uint64_t)*a + (uint64_t)(v < 0 ? -(uint64_t)v : (uint64_t)v)); break;
      case GE__HC_DN_RSUMSQ: *a = (int64_t)((uint64_t)*a + (uint64_t)v * (uint64_t)v); break;
      default: *a = (int64_t)((uint64_t)*a + (uint64_t)v); break;
      }
    }
    for (i = 0; i < groups; i++) {
      int64_t v = iacc[i];
      if (op == GE__HC_DN_RMEAN)
        v = count == 0 ? 0 : x->dtype == GE_DTYPE_UINT64 ? (int64_t)((uint64_t)v / (uint64_t)count) : v / count;
      ge__hc_set_i(y, i, v);
    }
    free(iacc);
    return GE_OK;
  }
  acc = (double *)ge__hc_dn_alloc((size_t)groups * sizeof(double));
  if (op == GE__HC_DN_RLOGSUMEXP) mx = (double *)ge__hc_dn_alloc((size_t)groups * sizeof(double));
  if (!acc || (op == GE__HC_DN_RLOGSUMEXP && !mx)) {
    free(acc);
    free(mx);
    return ge__hc_dn_nomem(c);
  }
  for (i = 0; i < groups; i++) {
    acc[i] = op == GE__HC_DN_RPROD ? 1.0 : op == GE__HC_DN_RMAX ? -HUGE_VAL : op == GE__HC_DN_RMIN ? HUGE_VAL : 0.0;
    if (mx) mx[i] = -HUGE_VAL;
  }
  if (mx) { /* the maximum first, for a stable log-sum-exp */
    for (i = 0; i < x->numel; i++, ge__hc_step(&it)) {
      double v = ge__hc_get_f(x, i);
      if (v > mx[it.off[0]] || v != v) mx[it.off[0]] = v;
    }
    ge__hc_iter_init(&it, x->rank, x->dims, 1);
    ge__hc_dn_mask_strides(x, mask, kdims, it.strides[0]);
  }
  for (i = 0; i < x->numel; i++, ge__hc_step(&it)) {
    double v = ge__hc_get_f(x, i), *a = &acc[it.off[0]];
    switch (op) {
    case GE__HC_DN_RMAX:
      if (v > *a || v != v) *a = v;
      break;
    case GE__HC_DN_RMIN:
      if (v < *a || v != v) *a = v;
      break;
    case GE__HC_DN_RPROD: *a *= v; break;
    case GE__HC_DN_RL1: *a += fabs(v); break;
    case GE__HC_DN_RL2:
    case GE__HC_DN_RSUMSQ: *a += v * v; break;
    case GE__HC_DN_RLOGSUMEXP: {
      double m = mx[it.off[0]];
      *a += (m == HUGE_VAL || m == -HUGE_VAL) ? (v == m) : exp(v - m);
      break;
    }
    default: *a += v; break;
    }
  }
  for (i = 0; i < groups; i++) {
    double v = acc[i];
    switch (op) {
    case GE__HC_DN_RMEAN: v = count ? v / (double)count : NAN; break;
    case GE__HC_DN_RL2: v = sqrt(v); break;
    case GE__HC_DN_RLOGSUM: v = log(v); break;
    case GE__HC_DN_RLOGSUMEXP:
      v = (mx[i] == HUGE_VAL || mx[i] == -HUGE_VAL || mx[i] != mx[i]) ? mx[i] : mx[i] + log(v);
      break;
    default: break;
    }
    ge__hc_dn_set_f(y, i, v);
  }
  free(acc);
  free(mx);
  return GE_OK;
}

static ge_status ge__hc_reducesum(ge_kernel_ctx *c) { return ge__hc_dn_reduce(c, GE__HC_DN_RSUM); }
static ge_status ge__hc_reducemean(ge_kernel_ctx *c) { return ge__hc_dn_reduce(c, GE__HC_DN_RMEAN); }
static ge_status ge__hc_reducemax(ge_kernel_ctx *c) { return ge__hc_dn_reduce(c, GE__HC_DN_RMAX); }
static ge_status ge__hc_reducemin(ge_kernel_ctx *c) { return ge__hc_dn_reduce(c, GE__HC_DN_RMIN); }
static ge_status ge__hc_reduceprod(ge_kernel_ctx *c) { return ge__hc_dn_reduce(c, GE__HC_DN_RPROD); }
static ge_status ge__hc_reducel1(ge_kernel_ctx *c) { return ge__hc_dn_reduce(c, GE__HC_DN_RL1); }
static ge_status ge__hc_reducel2(ge_kernel_ctx *c) { return ge__hc_dn_reduce(c, GE__HC_DN_RL2); }
static ge_status ge__hc_reducelogsum(ge_kernel_ctx *c) { return ge__hc_dn_reduce(c, GE__HC_DN_RLOGSUM); }
static ge_status ge__hc_reducelogsumexp(ge_kernel_ctx *c) { return ge__hc_dn_reduce(c, GE__HC_DN_RLOGSUMEXP); }
static ge_status ge__hc_reducesumsquare(ge_kernel_ctx *c) { return ge__hc_dn_reduce(c, GE__HC_DN_RSUMSQ); }

/* ArgMax (want_min 0) and ArgMin (1). NaN counts as the extreme. */
static ge_status ge__hc_dn_arg(ge_kernel_ctx *c, int want_min) {
  const ge_value *x = ge__hc_dn_in(c, 0);
  int keep = ge_node_attr_int(c->node, "keepdims", 1) != 0,
      last = ge_node_attr_int(c->node, "select_last_index", 0) != 0;
  int64_t outer, len, inner, o, i, k, odims[GE_MAX_RANK];
  int32_t axis, j, orank = 0;
  int ints;
  ge_value *y;
  if (!x) return ge__hc_dn_missing(c, 0);
  if (ge__hc_dn_kind(x->dtype) < 0 && x->dtype != GE_DTYPE_BOOL) return ge__hc_dn_bad_dtype(c, x->dtype);
  if (!ge__hc_axis(ge_node_attr_int(c->node, "axis", 0), x->rank, &axis))
    return ge_kernel_error(c, GE_ERR_INVALID, "axis out of range for rank %d", (int)x->rank);
  ge__hc_dn_split(x, axis, &outer, &len, &inner);
  if (len == 0) return ge_kernel_error(c, GE_ERR_SHAPE, "cannot take the arg-extreme of an empty axis");
  for (j = 0; j < x->rank; j++)
    if (j != axis || keep) odims[orank++] = j == axis ? 1 : x->dims[j];
  if (!(y = ge__hc_dn_output(c, 0, GE_DTYPE_INT64, orank, odims))) return GE__HC_OUT_FAILED(c);
  ints = !ge__hc_is_float(x->dtype);
  for (o = 0; o < outer; o++)
    for (i = 0; i < inner; i++) {
      int64_t base = o * len * inner + i, best = 0;
      for (k = 1; k < len; k++) {
        int64_t at = base + k * inner, bt = base + best * inner;
        int better, equal;
        if (ints) {
          int64_t a = ge__hc_get_i(x, at), b = ge__hc_get_i(x, bt);
          better = want_min ? ge__hc_dn_int_gt(x->dtype, b, a) : ge__hc_dn_int_gt(x->dtype, a, b);
          equal = a == b;
        } else {
          double a = ge__hc_get_f(x, at), b = ge__hc_get_f(x, bt);
          if (b != b) { /* the first (or last) NaN wins */
            better = 0;
            equal = a != a;
          } else {
            better = a != a || (want_min ? a < b : a > b);
            equal = a == b;
          }
        }
        if (better || (last && equal)) best = k;
      }
      ge__hc_set_i(y, o * inner + i, best);
    }
  return GE_OK;
}

static ge_status ge__hc_argmax(ge_kernel_ctx *c) { return ge__hc_dn_arg(c, 0); }
static ge_status ge__hc_argmin(ge_kernel_ctx *c) { return ge__hc_dn_arg(c, 1); }

static ge_status ge__hc_cumsum(ge_kernel_ctx *c) {
  const ge_value *x = ge__hc_dn_in(c, 0), *ax = ge__hc_dn_in(c, 1);
  int excl = ge_node_attr_int(c->node, "exclusive", 0) != 0, rev = ge_node_attr_int(c->node, "reverse", 0) != 0;
  int64_t outer, len, inner, o, i, k;
  int32_t axis;
  int ints;
  ge_value *y;
  if (!x || !ax) return ge__hc_dn_missing(c, x ? 1 : 0);
  if (ge__hc_dn_kind(x->dtype) < 0) return ge__hc_dn_bad_dtype(c, x->dtype);
  if (!ge__hc_dn_is_int(ax->dtype) || ax->numel != 1 || ax->rank > 1)
    return ge_kernel_error(c, GE_ERR_INVALID, "axis must be an integer scalar");
  if (x->rank < 1 || !ge__hc_axis(ge__hc_get_i(ax, 0), x->rank, &axis))
    return ge_kernel_error(c, GE_ERR_INVALID, "axis %lld out of range for rank %d", (long long)ge__hc_get_i(ax, 0),
                           (int)x->rank);
  ge__hc_dn_split(x, axis, &outer, &len, &inner);
  if (!(y = ge__hc_dn_output(c, 0, x->dtype, x->rank, x->dims))) return GE__HC_OUT_FAILED(c);
  ints = !ge__hc_is_float(x->dtype);
  for (o = 0; o < outer; o++)
    for (i = 0; i < inner; i++) {
      uint64_t is = 0;
      double fs = 0;
      for (k = 0; k < len; k++) {
        int64_t at = (o * len + (rev ? len - 1 - k : k)) * inner + i;
        if (ints) {
          uint64_t v = (uint64_t)ge__hc_get_i(x, at);
          if (!excl) is += v;
          ge__hc_set_i(y, at, (int64_t)is);
          if (excl) is += v;
        } else {
          double v = ge__hc_get_f(x, at);
          if (!excl) fs += v;
          ge__hc_set_f(y, at, fs);
          if (excl) fs += v;
        }
      }
    }
  return GE_OK;
}

/* -------------------------------------------------------------- Einsum */

#define GE__HC_DN_EIN_OPS GE_EINSUM_MAX_OPERANDS
#define GE__HC_DN_EIN_LABELS GE_EINSUM_LABELS

/* Label of a subscript letter (a-z 0..25, A-Z 26..51), or -1. */
static int ge__hc_dn_letter(char ch) {
  if (ch >= 'a' && ch <= 'z') return ch - 'a';
  if (ch >= 'A' && ch <= 'Z') return 26 + ch - 'A';
  return -1;
}

/* Parses one term of an einsum equation at *s (spaces skipped): its labels
 * in lab[*nl] and the position of "..." in *ell (-1: none). Stops before ','
 * or "->" or the end. 0 on a malformed term. */
static int ge__hc_dn_ein_term(const char **s, int *lab, int32_t *nl, int32_t *ell) {
  const char *p = *s;
  *nl = 0;
  *ell = -1;
  for (;; p++) {
    if (*p == ' ') continue;
    if (*p == '.') {
      if (p[1] != '.' || p[2] != '.' || *ell >= 0) return 0;
      *ell = *nl;
      p += 2;
      continue;
    }
    if (ge__hc_dn_letter(*p) < 0) break;
    if (*nl >= GE_MAX_RANK) return 0;
    lab[(*nl)++] = ge__hc_dn_letter(*p);
  }
  *s = p;
  return 1;
}

GE_API ge_status ge_einsum_labels_of(ge_kernel_ctx *c, ge_einsum_labels *out) {
  const char *eq = ge_node_attr_string(c->node, "equation", NULL), *p;
  uint32_t n = c->num_inputs, t;
  int lab[GE__HC_DN_EIN_OPS][GE_MAX_RANK], (*dimlab)[GE_MAX_RANK] = out->dim_label, *olab = out->out_label;
  int used[GE__HC_DN_EIN_LABELS], count[GE__HC_DN_EIN_LABELS], explicit_out, l;
  int32_t nl[GE__HC_DN_EIN_OPS], ell[GE__HC_DN_EIN_OPS], E = 0, orank = 0, j, u, oell;
  int64_t *size = out->size;
  if (!eq) return ge_kernel_error(c, GE_ERR_INVALID, "equation is required");
  if (n < 1 || n > GE__HC_DN_EIN_OPS)
    return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "Einsum takes 1 to %d operands", GE__HC_DN_EIN_OPS);
  for (t = 0; t < n; t++) {
    if (!c->inputs[t]) return ge__hc_dn_missing(c, t);
    if (c->inputs[t]->dtype != c->inputs[0]->dtype) return ge_kernel_error(c, GE_ERR_INVALID, "operand dtypes differ");
  }
  /* the input terms */
  p = eq;
  for (t = 0; t < n; t++) {
    if (!ge__hc_dn_ein_term(&p, lab[t], &nl[t], &ell[t]))
      return ge_kernel_error(c, GE_ERR_INVALID, "malformed equation '%s'", eq);
    if (t + 1 < n) {
      if (*p != ',') return ge_kernel_error(c, GE_ERR_INVALID, "equation '%s' has fewer terms than %u inputs", eq, n);
      p++;
    }
  }
  while (*p == ' ') p++;
  if (*p && *p != '-') return ge_kernel_error(c, GE_ERR_INVALID, "equation '%s' has more terms than %u inputs", eq, n);
  for (t = 0; t < n; t++) {
    const ge_value *v = c->inputs[t];
    if (ell[t] < 0 ? v->rank != nl[t] : v->rank < nl[t])
      return ge_kernel_error(c, GE_ERR_SHAPE, "term %u of '%s' does not match rank %d", t, eq, (int)v->rank);
    if (ell[t] >= 0 && v->rank - nl[t] > E) E = v->rank - nl[t];
  }
  for (l = 0; l < GE__HC_DN_EIN_LABELS; l++) {
    size[l] = -1;
    count[l] = used[l] = 0;
  }
  /* label of every dim, label sizes (ellipsis dims broadcast) */
  for (t = 0; t < n; t++) {
    const ge_value *v = c->inputs[t];
    int32_t er = ell[t] >= 0 ? v->rank - nl[t] : 0;
    for (j = 0; j < v->rank; j++) {
      int64_t d = v->dims[j];
      if (ell[t] >= 0 && j >= ell[t] && j < ell[t] + er) {
        l = 52 + (E - er) + (j - ell[t]);
        if (size[l] < 0 || size[l] == 1)
          size[l] = d;
        else if (d != 1 && d != size[l])
          return ge_kernel_error(c, GE_ERR_SHAPE, "ellipsis dimensions do not broadcast");
      } else {
        l = lab[t][ell[t] >= 0 && j >= ell[t] ? j - er : j];
        if (size[l] >= 0 && size[l] != d)
          return ge_kernel_error(c, GE_ERR_SHAPE, "label '%c' has sizes %lld and %lld", l < 26 ? 'a' + l : 'A' + l - 26,
                                 (long long)size[l], (long long)d);
        size[l] = d;
        count[l]++;
      }
      dimlab[t][j] = l;
    }
  }
  /* the output labels */
  explicit_out = p[0] == '-';
  if (explicit_out) {
    int ol[GE_MAX_RANK];
    int32_t onl;
    if (p[1] != '>') return ge_kernel_error(c, GE_ERR_INVALID, "malformed equation '%s'", eq);
    p += 2;
    if (!ge__hc_dn_ein_term(&p, ol, &onl, &oell) || *p)
      return ge_kernel_error(c, GE_ERR_INVALID, "malformed output in equation '%s'", eq);
    if (onl + (oell >= 0 ? E : 0) > GE_MAX_RANK) return ge_kernel_error(c, GE_ERR_SHAPE, "output rank too large");
    for (j = 0; j <= onl; j++) {
      if (j == oell)
        for (u = 0; u < E; u++) olab[orank++] = 52 + u;
      if (j == onl) break;
      if (size[ol[j]] < 0 || used[ol[j]])
        return ge_kernel_error(c, GE_ERR_INVALID, "output label '%c' is repeated or not in the inputs",
                               ol[j] < 26 ? 'a' + ol[j] : 'A' + ol[j] - 26);
      used[ol[j]] = 1;
      olab[orank++] = ol[j];
    }
  } else {
    for (u = 0; u < E; u++) olab[orank++] = 52 + u;
    for (l = 26; l < 78; l++) { /* A-Z before a-z, as numpy orders them */
      int lb = l < 52 ? l : l - 52;
      if (count[lb] == 1) {
        if (orank >= GE_MAX_RANK) return ge_kernel_error(c, GE_ERR_SHAPE, "output rank too large");
        olab[orank++] = lb;
      }
    }
  }
  out->n = n;
  out->orank = orank;
  return GE_OK;
}

static ge_status ge__hc_einsum(ge_kernel_ctx *c) {
  ge_einsum_labels lb;
  int (*dimlab)[GE_MAX_RANK] = lb.dim_label, *olab = lb.out_label, used[GE__HC_DN_EIN_LABELS], kind, l;
  uint32_t n, t;
  int32_t orank, U = 0, j, u;
  int64_t *size = lb.size, odims[GE_MAX_RANK], usz[GE__HC_DN_EIN_LABELS], idx[GE__HC_DN_EIN_LABELS];
  int64_t st[GE__HC_DN_EIN_OPS + 1][GE__HC_DN_EIN_LABELS], off[GE__HC_DN_EIN_OPS + 1], total = 1, i;
  void *buf[GE__HC_DN_EIN_OPS];
  int owned[GE__HC_DN_EIN_OPS];
  void *acc;
  ge_value *y;
  ge_status st_ = ge_einsum_labels_of(c, &lb);
  if (st_) return st_;
  n = lb.n, orank = lb.orank;
  if ((kind = ge__hc_dn_kind(c->inputs[0]->dtype)) < 0) return ge__hc_dn_bad_dtype(c, c->inputs[0]->dtype);
  if (kind == GE__HC_DN_F) kind = GE__HC_DN_D; /* accumulate floats in double */
  /* iteration order: output labels, then the summed ones */
  for (l = 0; l < GE__HC_DN_EIN_LABELS; l++) used[l] = -1;
  for (j = 0; j < orank; j++) {
    used[olab[j]] = U;
    usz[U++] = size[olab[j]];
    odims[j] = size[olab[j]];
  }
  for (l = 0; l < GE__HC_DN_EIN_LABELS; l++)
    if (size[l] >= 0 && used[l] < 0) {
      used[l] = U;
      usz[U++] = size[l];
    }
  for (u = 0; u < U && total; u++) /* 0 when any label is empty */
    total = usz[u] == 0 ? 0 : total;
  for (u = 0; u < U && total; u++) {
    if (usz[u] > ((int64_t)1 << 62) / total) return ge_kernel_error(c, GE_ERR_SHAPE, "too many terms to sum");
    total *= usz[u];
  }
  memset(st, 0, sizeof st);
  for (t = 0; t < n; t++) {
    const ge_value *v = c->inputs[t];
    int64_t s = 1;
    for (j = v->rank - 1; j >= 0; j--) {
      if (v->dims[j] != 1) st[t][used[dimlab[t][j]]] += s;
      s *= v->dims[j];
    }
  }
  {
    int64_t s = 1;
    for (j = orank - 1; j >= 0; j--) {
      st[n][j] = s;
      s *= odims[j];
    }
  }
  if (!(y = ge__hc_dn_output(c, 0, c->inputs[0]->dtype, orank, odims))) return GE__HC_OUT_FAILED(c);
  acc = calloc((size_t)(y->numel ? y->numel : 1), 8);
  for (t = 0; t < n; t++) buf[t] = ge__hc_dn_load(c->inputs[t], kind, &owned[t]);
  for (t = 0; t < n; t++)
    if (!buf[t]) st_ = GE_ERR_NOMEM;
  if (!acc || st_) {
    st_ = ge__hc_dn_nomem(c);
  } else if (total > 0) {
    memset(idx, 0, sizeof idx);
    memset(off, 0, sizeof off);
    for (;;) {
      if (kind == GE__HC_DN_D) {
        double v = 1;
        for (t = 0; t < n; t++) v *= ((const double *)buf[t])[off[t]];
        ((double *)acc)[off[n]] += v;
      } else {
        uint64_t v = 1;
        for (t = 0; t < n; t++) v *= ((const uint64_t *)buf[t])[off[t]];
        ((uint64_t *)acc)[off[n]] += v;
      }
      for (u = U - 1; u >= 0; u--) {
        idx[u]++;
        for (t = 0; t <= n; t++) off[t] += st[t][u];
        if (idx[u] < usz[u]) break;
        for (t = 0; t <= n; t++) off[t] -= st[t][u] * usz[u];
        idx[u] = 0;
      }
      if (u < 0) break;
    }
  }
  if (!st_)
    for (i = 0; i < y->numel; i++) {
      if (kind == GE__HC_DN_D)
        ge__hc_set_f(y, i, ((const double *)acc)[i]);
      else
        ge__hc_set_i(y, i, (int64_t)((const uint64_t *)acc)[i]);
    }
  for (t = 0; t < n; t++)
    if (owned[t]) free(buf[t]);
  free(acc);
  return st_;
}

/* ----------------------------------------------------------------- Det */

static ge_status ge__hc_det(ge_kernel_ctx *c) {
  const ge_value *x = ge__hc_dn_in(c, 0);
  int64_t M, nm, q, i, j, k;
  double *a;
  ge_value *y;
  if (!x) return ge__hc_dn_missing(c, 0);
  if (!ge__hc_is_float(x->dtype)) return ge__hc_dn_bad_dtype(c, x->dtype);
  if (x->rank < 2 || x->dims[x->rank - 1] != x->dims[x->rank - 2])
    return ge_kernel_error(c, GE_ERR_SHAPE, "input must be [..., M, M]");
  M = x->dims[x->rank - 1];
  nm = ge__hc_dn_prod(x->dims, 0, x->rank - 2);
  if (!(y = ge__hc_dn_output(c, 0, x->dtype, x->rank - 2, x->dims))) return GE__HC_OUT_FAILED(c);
  if (!(a = (double *)ge__hc_dn_alloc((size_t)(M * M) * sizeof(double)))) return ge__hc_dn_nomem(c);
  for (q = 0; q < nm; q++) { /* LU with partial pivoting */
    double det = 1;
    for (i = 0; i < M * M; i++) a[i] = ge__hc_get_f(x, q * M * M + i);
    for (k = 0; k < M && det != 0; k++) {
      int64_t piv = k;
      for (i = k + 1; i < M; i++)
        if (fabs(a[i * M + k]) > fabs(a[piv * M + k])) piv = i;
      if (a[piv * M + k] == 0) {
        det = 0;
        break;
      }
      if (piv != k) {
        for (j = 0; j < M; j++) {
          double t = a[k * M + j];
          a[k * M + j] = a[piv * M + j];
          a[piv * M + j] = t;
        }
        det = -det;
      }
      det *= a[k * M + k];
      for (i = k + 1; i < M; i++) {
        double f = a[i * M + k] / a[k * M + k];
        for (j = k + 1; j < M; j++) a[i * M + j] -= f * a[k * M + j];
      }
    }
    ge__hc_set_f(y, q, det);
  }
  free(a);
  return GE_OK;
}

/* -------------------------------------------------- Resize, Upsample */

#define GE__HC_DN_NEAREST 0
#define GE__HC_DN_LINEAR 1
#define GE__HC_DN_CUBIC 2

/* coordinate transformation modes */
#define GE__HC_DN_HALF_PIXEL 0
#define GE__HC_DN_PYTORCH_HALF_PIXEL 1
#define GE__HC_DN_ALIGN_CORNERS 2
#define GE__HC_DN_ASYMMETRIC 3
#define GE__HC_DN_TF_HALF_PIXEL_FOR_NN 4
#define GE__HC_DN_TF_CROP_AND_RESIZE 5
#define GE__HC_DN_HALF_PIXEL_SYMMETRIC 6

/* nearest modes; SIMPLE is Resize-10's and Upsample's (floor when
 * upsampling, ceil when downsampling) */
#define GE__HC_DN_PREFER_FLOOR 0
#define GE__HC_DN_PREFER_CEIL 1
#define GE__HC_DN_FLOOR 2
#define GE__HC_DN_CEIL 3
#define GE__HC_DN_SIMPLE 4

typedef struct ge__hc_dn_rs {
  int mode, ctm, nearest, exclude, antialias;
  double cubic_a, extrapolation;
  int64_t out[GE_MAX_RANK];
  double scale[GE_MAX_RANK], roi_s[GE_MAX_RANK], roi_e[GE_MAX_RANK];
} ge__hc_dn_rs;

/* Source coordinate of output coordinate x on an axis of in elements
 * resized to out with the given scale. "length_resized" of align_corners,
 * pytorch_half_pixel and tf_crop_and_resize is the integer output length,
 * as the spec defines it and as ONNX Runtime and PyTorch compute (the ONNX
 * reference implementation, which made the test data of
 * test_resize_downsample_scales_*_align_corners, uses scale * in instead;
 * the two differ only when scale * in is not an integer); half_pixel_symmetric
 * is defined with scale * in. At output length 1 pytorch_half_pixel gives
 * the spec's 0 (the reference has -0.5; they differ only for cubic). */
static double ge__hc_dn_coord(const ge__hc_dn_rs *o, int32_t j, double x, int64_t in) {
  double s = o->scale[j], lr = s * (double)in, out = (double)o->out[j];
  switch (o->ctm) {
  case GE__HC_DN_PYTORCH_HALF_PIXEL: return out > 1 ? (x + 0.5) / s - 0.5 : 0.0;
  case GE__HC_DN_ALIGN_CORNERS: return out == 1 ? 0.0 : x * (double)(in - 1) / (out - 1);
  case GE__HC_DN_ASYMMETRIC: return x / s;
  case GE__HC_DN_TF_HALF_PIXEL_FOR_NN: return (x + 0.5) / s;
  case GE__HC_DN_TF_CROP_AND_RESIZE:
    return out == 1 ? 0.5 * (o->roi_e[j] - o->roi_s[j]) * (double)(in - 1) + o->roi_s[j] * (double)(in - 1)
                    : x * (o->roi_e[j] - o->roi_s[j]) * (double)(in - 1) / (out - 1) + o->roi_s[j] * (double)(in - 1);
  case GE__HC_DN_HALF_PIXEL_SYMMETRIC: {
    double adj = out / lr, off = (double)in * 0.5 * (1 - adj);
    return off + (x + 0.5) / s - 0.5;
  }
  default: return (x + 0.5) / s - 0.5;
  }
}

static int64_t ge__hc_dn_round_nearest(int mode, double x, int down) {
  double f = floor(x);
  switch (mode) {
  case GE__HC_DN_PREFER_CEIL: return (int64_t)(x - f == 0.5 ? f + 1 : floor(x + 0.5));
  case GE__HC_DN_FLOOR: return (int64_t)f;
  case GE__HC_DN_CEIL: return (int64_t)ceil(x);
  case GE__HC_DN_SIMPLE: return (int64_t)(down ? ceil(x) : f);
  default: return (int64_t)(x - f == 0.5 ? f : floor(x + 0.5));
  }
}

/* Number of taps of the linear or cubic kernel at scale s (< 1 only with
 * antialias, which widens the kernel by 1/s). */
static int64_t ge__hc_dn_ntaps(int mode, double s) {
  int64_t start = (int64_t)floor((mode == GE__HC_DN_LINEAR ? -1.0 : -2.0) / s) + 1;
  return 2 - 2 * start;
}

/* The taps of the linear or cubic kernel around source coordinate xo on an
 * axis of in elements: indices (clamped to the edge) and normalized
 * weights; returns their count. As in the ONNX reference, an integer xo
 * takes ratio 1 against the element on its left. */
static int64_t ge__hc_dn_taps(const ge__hc_dn_rs *o, double xo, int64_t in, double scale, int64_t *idx, double *w) {
  double s = o->antialias && scale < 1 ? scale : 1.0, A = o->cubic_a, sum = 0, f = floor(xo), ratio = xo - f;
  int64_t n = ge__hc_dn_ntaps(o->mode, s), start = 1 - n / 2, xi = (int64_t)f, i, k = 0;
  if (ratio == 0) {
    xi -= 1;
    ratio = 1;
  }
  for (i = start; i < start + n; i++) {
    double t = fabs(s * ((double)i - ratio)), cf;
    int64_t pos = xi + i;
    if (o->mode == GE__HC_DN_LINEAR)
      cf = t < 1 ? 1 - t : 0;
    else
      cf = t <= 1 ? ((A + 2) * t - (A + 3)) * t * t + 1 : t < 2 ? ((A * t - 5 * A) * t + 8 * A) * t - 4 * A : 0;
    if (o->exclude && (pos < 0 || pos >= in)) cf = 0;
    sum += cf;
    idx[k] = pos < 0 ? 0 : pos >= in ? in - 1 : pos;
    w[k++] = cf;
  }
  for (i = 0; i < k; i++) w[i] = sum != 0 ? w[i] / sum : 0;
  /* drop the zero taps */
  for (i = n = 0; i < k; i++)
    if (w[i] != 0) {
      idx[n] = idx[i];
      w[n++] = w[i];
    }
  return n;
}

/* Resamples x to o->out along every axis into output 0. */
static ge_status ge__hc_dn_resample(ge_kernel_ctx *c, const ge_value *x, const ge__hc_dn_rs *o) {
  int32_t r = x->rank, j;
  int64_t maxt[GE_MAX_RANK], base[GE_MAX_RANK], xstr[GE_MAX_RANK], total = 0, q, oo[GE_MAX_RANK];
  int64_t *tidx, *tn;
  double *tw;
  char *outside;
  ge_value *y;
  for (j = 0; j < r; j++) {
    double s = o->antialias && o->scale[j] < 1 ? o->scale[j] : 1.0;
    if (o->out[j] < 0) return ge_kernel_error(c, GE_ERR_SHAPE, "negative output size");
    if (o->mode != GE__HC_DN_NEAREST && s < 1.0 / 16384)
      return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "antialias for a scale below 1/16384");
    if (x->dims[j] == 0 && o->out[j] > 0)
      return ge_kernel_error(c, GE_ERR_SHAPE, "cannot resize an empty axis to %lld", (long long)o->out[j]);
  }
  if (!(y = ge__hc_dn_output(c, 0, x->dtype, r, o->out))) return GE__HC_OUT_FAILED(c);
  if (y->numel == 0) return GE_OK;
  for (j = 0; j < r; j++) {
    double s = o->antialias && o->scale[j] < 1 ? o->scale[j] : 1.0;
    maxt[j] = o->mode == GE__HC_DN_NEAREST ? 1 : ge__hc_dn_ntaps(o->mode, s);
    base[j] = total;
    total += o->out[j] * maxt[j];
  }
  for (j = r - 1; j >= 0; j--) xstr[j] = j == r - 1 ? 1 : xstr[j + 1] * x->dims[j + 1];
  tidx = (int64_t *)ge__hc_dn_alloc((size_t)total * sizeof(int64_t));
  tw = (double *)ge__hc_dn_alloc((size_t)total * sizeof(double));
  tn = (int64_t *)ge__hc_dn_alloc((size_t)(total + r) * sizeof(int64_t));
  outside = (char *)ge__hc_dn_alloc((size_t)(total + r));
  if (!tidx || !tw || !tn || !outside) {
    free(tidx);
    free(tw);
    free(tn);
    free(outside);
    return ge__hc_dn_nomem(c);
  }
  /* the taps of every output coordinate of every axis */
  for (j = 0; j < r; j++) {
    int64_t in = x->dims[j], k;
    for (k = 0; k < o->out[j]; k++) {
      int64_t at = base[j] + k * maxt[j], *ti = tidx + at, *cnt = tn + base[j] + k;
      double xo = ge__hc_dn_coord(o, j, (double)k, in), *w = tw + at;
      outside[base[j] + k] = o->ctm == GE__HC_DN_TF_CROP_AND_RESIZE && (xo < 0 || xo > (double)(in - 1));
      if (xo < -4) xo = -4; /* keep conversions to integers defined */
      if (xo > (double)in + 4) xo = (double)in + 4;
      if (o->mode == GE__HC_DN_NEAREST) {
        int64_t i = ge__hc_dn_round_nearest(o->nearest, xo, o->scale[j] < 1);
        ti[0] = i < 0 ? 0 : i >= in ? in - 1 : i;
        w[0] = 1;
        *cnt = 1;
      } else
        *cnt = ge__hc_dn_taps(o, xo, in, o->scale[j], ti, w);
    }
  }
  memset(oo, 0, sizeof oo);
  for (q = 0; q < y->numel; q++) {
    int64_t kk[GE_MAX_RANK];
    double v = 0;
    int out = 0, empty = 0;
    for (j = 0; j < r; j++) {
      out |= outside[base[j] + oo[j]];
      empty |= tn[base[j] + oo[j]] == 0;
      kk[j] = 0;
    }
    if (out)
      v = o->extrapolation;
    else if (!empty)
      for (;;) { /* every combination of the axes' taps */
        double w = 1;
        int64_t off = 0;
        for (j = 0; j < r; j++) {
          int64_t at = base[j] + oo[j] * maxt[j] + kk[j];
          w *= tw[at];
          off += tidx[at] * xstr[j];
        }
        v += w * ge__hc_get_f(x, off);
        for (j = r - 1; j >= 0; j--) {
          if (++kk[j] < tn[base[j] + oo[j]]) break;
          kk[j] = 0;
        }
        if (j < 0) break;
      }
    ge__hc_dn_set_f(y, q, v);
    for (j = r - 1; j >= 0; j--) {
      if (++oo[j] < o->out[j]) break;
      oo[j] = 0;
    }
  }
  free(tidx);
  free(tw);
  free(tn);
  free(outside);
  return GE_OK;
}

static int ge__hc_dn_mode(const char *s) {
  if (!strcmp(s, "nearest")) return GE__HC_DN_NEAREST;
  if (!strcmp(s, "linear") || !strcmp(s, "bilinear") || !strcmp(s, "trilinear")) return GE__HC_DN_LINEAR;
  if (!strcmp(s, "cubic") || !strcmp(s, "bicubic")) return GE__HC_DN_CUBIC;
  return -1;
}

static ge_status ge__hc_resize(ge_kernel_ctx *c) {
  static const char *const ctms[] = {"half_pixel",           "pytorch_half_pixel", "align_corners",       "asymmetric",
                                     "tf_half_pixel_for_nn", "tf_crop_and_resize", "half_pixel_symmetric"};
  static const char *const nms[] = {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"};
  const ge_value *x = ge__hc_dn_in(c, 0), *roi, *scales, *sizes;
  const ge_node *nd = c->node;
  const char *ctm = ge_node_attr_string(nd, "coordinate_transformation_mode", NULL);
  const char *nm = ge_node_attr_string(nd, "nearest_mode", "round_prefer_floor");
  const char *policy = ge_node_attr_string(nd, "keep_aspect_ratio_policy", "stretch");
  const int64_t *av = NULL;
  int32_t na = ge_node_attr_ints(nd, "axes", &av), axes[GE_MAX_RANK], j, k;
  int opset10 = c->num_inputs == 2, seen[GE_MAX_RANK];
  ge__hc_dn_rs o;
  if (!x) return ge__hc_dn_missing(c, 0);
  if (ge__hc_dn_kind(x->dtype) < 0) return ge__hc_dn_bad_dtype(c, x->dtype);
  /* Resize-10 has inputs (X, scales); later ones (X, roi, scales, sizes) */
  roi = opset10 ? NULL : ge__hc_dn_in(c, 1);
  scales = ge__hc_dn_in(c, opset10 ? 1 : 2);
  sizes = opset10 ? NULL : ge__hc_dn_in(c, 3);
  memset(&o, 0, sizeof o);
  o.mode = ge__hc_dn_mode(ge_node_attr_string(nd, "mode", "nearest"));
  o.ctm = opset10 && !ctm ? GE__HC_DN_ASYMMETRIC : -1;
  o.nearest = opset10 && !ge_node_attr(nd, "nearest_mode") ? GE__HC_DN_SIMPLE : -1;
  for (k = 0; o.ctm < 0 && k < 7; k++)
    if (!strcmp(ctm ? ctm : "half_pixel", ctms[k])) o.ctm = k;
  for (k = 0; o.nearest < 0 && k < 4; k++)
    if (!strcmp(nm, nms[k])) o.nearest = k;
  if (o.mode < 0 || o.ctm < 0 || o.nearest < 0)
    return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "unknown mode, coordinate_transformation_mode or nearest_mode");
  o.cubic_a = ge_node_attr_float(nd, "cubic_coeff_a", -0.75);
  o.exclude = ge_node_attr_int(nd, "exclude_outside", 0) != 0;
  o.extrapolation = ge_node_attr_float(nd, "extrapolation_value", 0.0);
  o.antialias = ge_node_attr_int(nd, "antialias", 0) != 0;
  memset(seen, 0, sizeof seen);
  if (na < 0) {
    na = x->rank;
    for (j = 0; j < na; j++) axes[j] = j;
  } else {
    if (na > x->rank) return ge_kernel_error(c, GE_ERR_INVALID, "too many axes");
    for (j = 0; j < na; j++)
      if (!ge__hc_axis(av[j], x->rank, &axes[j]) || seen[axes[j]]++)
        return ge_kernel_error(c, GE_ERR_INVALID, "axes must be distinct and in range");
  }
  for (j = 0; j < x->rank; j++) {
    o.out[j] = x->dims[j];
    o.scale[j] = 1;
    o.roi_s[j] = 0;
    o.roi_e[j] = 1;
  }
  if (o.ctm == GE__HC_DN_TF_CROP_AND_RESIZE) {
    if (!roi || roi->numel != 2 * na || !ge__hc_is_float(roi->dtype))
      return ge_kernel_error(c, GE_ERR_INVALID, "tf_crop_and_resize needs a float roi of %d values", (int)(2 * na));
    for (j = 0; j < na; j++) {
      o.roi_s[axes[j]] = ge__hc_get_f(roi, j);
      o.roi_e[axes[j]] = ge__hc_get_f(roi, na + j);
    }
  }
  if (sizes && sizes->numel > 0) {
    int pol = !strcmp(policy, "not_larger") ? 1 : !strcmp(policy, "not_smaller") ? 2 : 0;
    double s = pol == 1 ? HUGE_VAL : 0;
    if (!ge__hc_dn_is_int(sizes->dtype) || sizes->numel != na)
      return ge_kernel_error(c, GE_ERR_INVALID, "sizes must hold %d integers", (int)na);
    if (pol == 0 && strcmp(policy, "stretch"))
      return ge_kernel_error(c, GE_ERR_INVALID, "unknown keep_aspect_ratio_policy '%s'", policy);
    for (j = 0; j < na; j++) {
      int64_t in = x->dims[axes[j]], sz = ge__hc_get_i(sizes, j);
      double r = in ? (double)sz / (double)in : 1.0;
      if (sz < 0) return ge_kernel_error(c, GE_ERR_INVALID, "sizes must be >= 0");
      o.out[axes[j]] = sz;
      o.scale[axes[j]] = r;
      if ((pol == 1 && r < s) || (pol == 2 && r > s)) s = r;
    }
    for (j = 0; pol && j < na; j++) {
      double len = floor(s * (double)x->dims[axes[j]] + 0.5);
      if (!(len <= 1e15)) return ge_kernel_error(c, GE_ERR_SHAPE, "output would be too large");
      o.scale[axes[j]] = s;
      o.out[axes[j]] = (int64_t)len;
    }
  } else if (scales && scales->numel > 0) {
    if (!ge__hc_is_float(scales->dtype) || scales->numel != na)
      return ge_kernel_error(c, GE_ERR_INVALID, "scales must hold %d floats", (int)na);
    for (j = 0; j < na; j++) {
      double s = ge__hc_get_f(scales, j), len = (double)x->dims[axes[j]] * s;
      if (!(s > 0) || len > 1e15) return ge_kernel_error(c, GE_ERR_INVALID, "scales must be > 0 (and sane)");
      o.scale[axes[j]] = s;
      o.out[axes[j]] = len > 0 ? (int64_t)floor(len) : 0;
    }
  } else
    return ge_kernel_error(c, GE_ERR_INVALID, "one of scales and sizes is required");
  return ge__hc_dn_resample(c, x, &o);
}

/* Upsample (opset 7: scales attribute; 9: scales input): asymmetric
 * coordinates, nearest taking the floor. */
static ge_status ge__hc_upsample(ge_kernel_ctx *c) {
  const ge_value *x = ge__hc_dn_in(c, 0), *scales = ge__hc_dn_in(c, 1);
  const ge_attr *sa = ge_node_attr(c->node, "scales");
  ge__hc_dn_rs o;
  int32_t j, n = scales ? (int32_t)scales->numel : sa && sa->type == GE_ATTR_FLOATS ? sa->count : -1;
  if (!x) return ge__hc_dn_missing(c, 0);
  if (ge__hc_dn_kind(x->dtype) < 0) return ge__hc_dn_bad_dtype(c, x->dtype);
  memset(&o, 0, sizeof o);
  o.mode = ge__hc_dn_mode(ge_node_attr_string(c->node, "mode", "nearest"));
  o.ctm = GE__HC_DN_ASYMMETRIC;
  o.nearest = GE__HC_DN_SIMPLE;
  if (o.mode < 0 || o.mode == GE__HC_DN_CUBIC) return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "unknown mode");
  if (n != x->rank || (scales && !ge__hc_is_float(scales->dtype)))
    return ge_kernel_error(c, GE_ERR_INVALID, "scales must hold %d floats", (int)x->rank);
  for (j = 0; j < x->rank; j++) {
    double s = scales ? ge__hc_get_f(scales, j) : sa->v.floats[j], len = (double)x->dims[j] * s;
    if (!(s > 0) || len > 1e15) return ge_kernel_error(c, GE_ERR_INVALID, "scales must be > 0 (and sane)");
    o.scale[j] = s;
    o.out[j] = (int64_t)floor(len);
  }
  return ge__hc_dn_resample(c, x, &o);
}

/* ge_engines/host_cpu/data.h — the host CPU engine's shape and data-movement
 * kernels: Reshape, Transpose, Concat, Split, Slice, the Gathers and
 * Scatters, Pad, Expand, Tile, TopK, NonZero, Unique, NonMaxSuppression, ....
 *
 * A part of ge_engines/host_cpu.h, which includes it inside its
 * implementation section, after the shared helpers (ge__hc_get_f, ...)
 * and before the op table; not a header to include on its own. */
#ifndef GE_HOST_CPU_IMPLEMENTATION_DONE
#error "ge_engines/host_cpu/data.h is a part of ge_engines/host_cpu.h: include that instead"
#endif

/* ------------------------------------------ shape and data movement */

/* Reshape, Flatten, Squeeze, Unsqueeze, Transpose, Concat, Split, Slice,
 * Gather*, Scatter*, Expand, Tile, Pad, Shape, Size, ConstantOfShape, Range,
 * DepthToSpace, SpaceToDepth, OneHot, TopK, NonZero, Trilu, EyeLike,
 * Compress, Unique, NonMaxSuppression, ReverseSequence, Constant.
 *
 * Data movement is dtype-generic: an element is ge__hc_dt_esize bytes,
 * copied as they are, so every dtype works, strings included (their char *
 * pointers are copied; the strings stay where they are). Indices, shapes and
 * counts that come from data are checked before anything is allocated or
 * read: a bad value is an error, never a crash. The kernels a model runs
 * often take their attributes and Const parameter inputs from
 * ge__hc_params (GE__HC_DT_PARAMS): parsed at prepare, or at each run
 * when unprepared; the checks stay at run either way. */

/* Largest output a kernel of this family asks for, in bytes: shapes computed
 * from data (Expand, Tile, ConstantOfShape, Range, ...) beyond it are an
 * error rather than an allocation that cannot succeed. */
#ifndef GE__HC_DT_MAX_BYTES
#define GE__HC_DT_MAX_BYTES ((int64_t)1 << 40)
#endif

/* Bytes of one element (a pointer for strings; 0 for undefined dtypes). */
static size_t ge__hc_dt_esize(ge_dtype t) {
  return t == GE_DTYPE_STRING ? sizeof(char *) : ge_dtype_size(t);
}

static int ge__hc_dt_is_int(ge_dtype t) {
  switch (t) {
  case GE_DTYPE_INT8: case GE_DTYPE_INT16: case GE_DTYPE_INT32: case GE_DTYPE_INT64:
  case GE_DTYPE_UINT8: case GE_DTYPE_UINT16: case GE_DTYPE_UINT32: case GE_DTYPE_UINT64: return 1;
  default: return 0;
  }
}

/* Real numbers and bool: what ge__hc_get_f / get_i can read. */
static int ge__hc_dt_is_real(ge_dtype t) {
  return ge__hc_is_float(t) || ge__hc_dt_is_int(t) || t == GE_DTYPE_BOOL;
}

static const ge_value *ge__hc_dt_in(const ge_kernel_ctx *c, uint32_t i) {
  return i < c->num_inputs ? c->inputs[i] : NULL;
}

static ge_status ge__hc_dt_missing(ge_kernel_ctx *c, uint32_t i) {
  return ge_kernel_error(c, GE_ERR_INVALID, "input %u is missing", (unsigned)i);
}

/* a * b (both >= 0) into *out; 0 when it does not fit int64. */
static int ge__hc_dt_mul(int64_t a, int64_t b, int64_t *out) {
  if (a != 0 && b > INT64_MAX / a) return 0;
  *out = a * b;
  return 1;
}

/* Product of dims[lo..hi) (each >= 0): 0 if one is 0, -1 past int64. */
static int64_t ge__hc_dt_prod(const int64_t *dims, int32_t lo, int32_t hi) {
  int64_t p = 1;
  int32_t i;
  for (i = lo; i < hi; i++)
    if (dims[i] == 0) return 0;
  for (i = lo; i < hi; i++)
    if (!ge__hc_dt_mul(p, dims[i], &p)) return -1;
  return p;
}

/* Row-major strides in elements. An empty tensor gets all-zero strides: it
 * addresses nothing, and its dims may multiply past int64. */
static void ge__hc_dt_strides(int32_t rank, const int64_t *dims, int64_t *strides) {
  int64_t s = 1;
  int32_t i;
  int empty = ge__hc_dt_prod(dims, 0, rank) <= 0;
  for (i = rank - 1; i >= 0; i--) {
    strides[i] = empty ? 0 : s;
    if (!empty) s *= dims[i];
  }
}

/* One element; the common sizes are constants, so the copy is inlined
 * (a libc call per element costs more than the element). */
static void ge__hc_dt_cpy(void *dst, int64_t di, const void *src, int64_t si, size_t es) {
  char *d = (char *)dst + (size_t)di * es;
  const char *s = (const char *)src + (size_t)si * es;
  if (es == 4) memcpy(d, s, 4);
  else if (es == 8) memcpy(d, s, 8);
  else memcpy(d, s, es);
}

/* n elements from src (stride ss) to dst (stride ds), strides in elements. */
static void ge__hc_dt_run(char *dst, int64_t ds, const char *src, int64_t ss, int64_t n, size_t es) {
  int64_t k;
  if (ds == 1 && ss == 1) {
    memcpy(dst, src, (size_t)n * es);
  } else if (es == 4) {
    for (k = 0; k < n; k++) memcpy(dst + k * ds * 4, src + k * ss * 4, 4);
  } else if (es == 8) {
    for (k = 0; k < n; k++) memcpy(dst + k * ds * 8, src + k * ss * 8, 8);
  } else {
    for (k = 0; k < n; k++) memcpy(dst + k * ds * (int64_t)es, src + k * ss * (int64_t)es, es);
  }
}

/* Copies a rank/dims array of elements: element idx goes from src at
 * soff + sum idx*sstr to dst at doff + sum idx*dstr (strides may be 0 or
 * negative). Axes of 1 drop and axes adjacent in both tensors merge, so
 * the walk goes by runs of the innermost remaining axis (one memcpy when
 * it is contiguous in both): Slice, Transpose and Expand are plain copies. */
static void ge__hc_dt_strided(void *dst, int64_t doff, const int64_t *dstr, const void *src, int64_t soff,
                              const int64_t *sstr, int32_t rank, const int64_t *dims, size_t es) {
  int64_t n = ge__hc_dt_prod(dims, 0, rank), md[GE_MAX_RANK], mds[GE_MAX_RANK], mss[GE_MAX_RANK], idx[GE_MAX_RANK];
  int64_t inner, rows, r, dof = doff, sof = soff;
  int32_t d, m = 0;
  if (n <= 0) return;
  for (d = 0; d < rank; d++) {
    if (dims[d] == 1) continue;
    if (m > 0 && mds[m - 1] == dstr[d] * dims[d] && mss[m - 1] == sstr[d] * dims[d]) {
      md[m - 1] *= dims[d];
    } else {
      md[m] = dims[d];
      m++;
    }
    mds[m - 1] = dstr[d];
    mss[m - 1] = sstr[d];
  }
  if (m == 0) {
    md[0] = mds[0] = mss[0] = 1;
    m = 1;
  }
  inner = md[m - 1];
  rows = n / inner;
  memset(idx, 0, sizeof idx);
  for (r = 0; r < rows; r++) {
    ge__hc_dt_run((char *)dst + dof * (int64_t)es, mds[m - 1], (const char *)src + sof * (int64_t)es, mss[m - 1], inner, es);
    for (d = m - 2; d >= 0; d--) {
      dof += mds[d];
      sof += mss[d];
      if (++idx[d] < md[d]) break;
      dof -= mds[d] * md[d];
      sof -= mss[d] * md[d];
      idx[d] = 0;
    }
  }
}

/* Output i of dtype and shape, after checking the shape: no negative dim,
 * rank within GE_MAX_RANK, size within GE__HC_DT_MAX_BYTES. */
static ge_status ge__hc_dt_out(ge_kernel_ctx *c, uint32_t i, ge_dtype dt, int32_t rank, const int64_t *dims,
                               ge_value **out) {
  size_t es = ge__hc_dt_esize(dt);
  int64_t n = 1;
  int32_t k;
  *out = NULL;
  if (es == 0) return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "output %u: dtype %s is not supported", (unsigned)i, ge_dtype_name(dt));
  if (rank < 0 || rank > GE_MAX_RANK)
    return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "output %u would have rank %ld (at most %d)", (unsigned)i, (long)rank, GE_MAX_RANK);
  for (k = 0; k < rank; k++)
    if (dims[k] < 0)
      return ge_kernel_error(c, GE_ERR_SHAPE, "output %u: dimension %ld would be %lld", (unsigned)i, (long)k, (long long)dims[k]);
  for (k = 0; k < rank; k++)
    if (dims[k] == 0) n = 0;
  for (k = 0; k < rank && n > 0; k++)
    if (!ge__hc_dt_mul(n, dims[k], &n) || n > GE__HC_DT_MAX_BYTES / (int64_t)es)
      return ge_kernel_error(c, GE_ERR_SHAPE, "output %u would be too large (more than %lld bytes)", (unsigned)i,
                             (long long)GE__HC_DT_MAX_BYTES);
  *out = ge_kernel_output(c, i, dt, rank, dims);
  return *out ? GE_OK : GE__HC_OUT_FAILED(c);
}

/* Output 0 holding x's elements under a new shape (same element count). */
/* x's elements with another shape: a view sharing x's bytes when the
 * executor allows (GE local runs views without copying), else a copy. */
static ge_status ge__hc_dt_copy_as(ge_kernel_ctx *c, const ge_value *x, int32_t rank, const int64_t *dims) {
  ge_value *y;
  ge_status st;
  if (x->dtype != GE_DTYPE_STRING) return ge_kernel_output_view(c, 0, x, rank, dims) ? GE_OK : c->err->code;
  st = ge__hc_dt_out(c, 0, x->dtype, rank, dims, &y);
  if (st) return st;
  if (y->data != x->data && x->nbytes) memmove(y->data, x->data, x->nbytes);
  return GE_OK;
}

/* Element i of an integer tensor as an index; uint64 past int64 saturates
 * (and so fails every range check). */
static int64_t ge__hc_dt_idx(const ge_value *v, int64_t i) {
  if (v->dtype == GE_DTYPE_UINT64) {
    uint64_t u = ((const uint64_t *)v->data)[i];
    return u > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)u;
  }
  return ge__hc_get_i(v, i);
}

/* Index v against a dimension d: negative counts from the end. 0 if out of
 * range. */
static int ge__hc_dt_fix(int64_t v, int64_t d, int64_t *out) {
  if (v < -d || v >= d) return 0;
  *out = v < 0 ? v + d : v;
  return 1;
}

/* Reads the integer tensor v (rank 0 or 1, at most cap values) into vals. */
static ge_status ge__hc_dt_ints(ge_kernel_ctx *c, const ge_value *v, const char *what, int64_t *vals, int32_t cap,
                                int32_t *n) {
  int64_t i;
  if (!ge__hc_dt_is_int(v->dtype))
    return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "%s must be an integer tensor, not %s", what, ge_dtype_name(v->dtype));
  if (v->rank > 1) return ge_kernel_error(c, GE_ERR_SHAPE, "%s must be 1-D (it has rank %ld)", what, (long)v->rank);
  if (v->numel > cap)
    return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "%s has %lld values (at most %ld)", what, (long long)v->numel, (long)cap);
  for (i = 0; i < v->numel; i++) vals[i] = ge__hc_dt_idx(v, i);
  *n = (int32_t)v->numel;
  return GE_OK;
}

/* Reads an ints attribute into vals (at most cap); *n = -1 when absent. */
static ge_status ge__hc_dt_attr_ints(ge_kernel_ctx *c, const char *name, int64_t *vals, int32_t cap, int32_t *n) {
  const int64_t *v = NULL;
  int32_t k = ge_node_attr_ints(c->node, name, &v);
  *n = k;
  if (k > cap) return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "attribute %s has %ld values (at most %ld)", name, (long)k, (long)cap);
  if (k > 0) memcpy(vals, v, (size_t)k * sizeof *vals);
  return GE_OK;
}

/* List k of the prepared p (at most cap values), else the values of input
 * v or, without it, of attribute `name` (errors as those readers give). */
static ge_status ge__hc_dt_list(ge_kernel_ctx *c, const ge__hc_params *p, int k, const ge_value *v, const char *name,
                                int64_t *vals, int32_t cap, int32_t *n) {
  if (p->n[k] != GE__HC_PARAM_AT_RUN && p->n[k] <= cap) {
    *n = p->n[k];
    if (*n > 0) memcpy(vals, p->v[k], (size_t)*n * sizeof *vals);
    return GE_OK;
  }
  return v ? ge__hc_dt_ints(c, v, name, vals, cap, n) : ge__hc_dt_attr_ints(c, name, vals, cap, n);
}

/* List k from input i when present, else from attribute `name`. */
static void ge__hc_dt_parse_list(const ge_kernel_ctx *c, ge__hc_params *p, int k, uint32_t i, const char *name) {
  if (ge__hc_dt_in(c, i)) ge__hc_param_input_ints(c, p, k, i);
  else ge__hc_param_attr_ints(c, p, k, name);
}

/* The parameters or, while preparing, GE_OK once they are kept (or the
 * error): the first lines of every prepared kernel of this family. */
#define GE__HC_DT_PARAMS(c, parse, p, local)                                                                           \
  do {                                                                                                                 \
    if (!((p) = ge__hc_params_of((c), (parse), &(local)))) return GE_ERR_NOMEM;                                        \
    if (ge_kernel_preparing(c)) return GE_OK;                                                                          \
  } while (0)

/* The one value of an integer tensor (rank 0 or one element). */
static ge_status ge__hc_dt_scalar_i(ge_kernel_ctx *c, const ge_value *v, const char *what, int64_t *out) {
  if (!ge__hc_dt_is_int(v->dtype))
    return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "%s must be an integer tensor, not %s", what, ge_dtype_name(v->dtype));
  if (v->numel != 1) return ge_kernel_error(c, GE_ERR_SHAPE, "%s must hold one value (it holds %lld)", what, (long long)v->numel);
  *out = ge__hc_dt_idx(v, 0);
  return GE_OK;
}

static ge_status ge__hc_dt_axis(ge_kernel_ctx *c, int64_t axis, int32_t rank, int32_t *out) {
  if (rank < 1 || !ge__hc_axis(axis, rank, out))
    return ge_kernel_error(c, GE_ERR_INVALID, "axis %lld is out of range for rank %ld", (long long)axis, (long)rank);
  return GE_OK;
}

/* Normalizes n axes against rank into out; out-of-range or repeated axes
 * are an error. */
static ge_status ge__hc_dt_axes(ge_kernel_ctx *c, const int64_t *axes, int32_t n, int32_t rank, int32_t *out) {
  uint8_t seen[GE_MAX_RANK];
  int32_t i;
  ge_status st;
  memset(seen, 0, sizeof seen);
  for (i = 0; i < n; i++) {
    if ((st = ge__hc_dt_axis(c, axes[i], rank, &out[i])) != GE_OK) return st;
    if (seen[out[i]]) return ge_kernel_error(c, GE_ERR_INVALID, "axis %lld is repeated", (long long)axes[i]);
    seen[out[i]] = 1;
  }
  return GE_OK;
}

/* Three-way comparison of element i of a with element j of b (same dtype):
 * numbers by value (NaN after every number, equal to NaN), strings by
 * strcmp (NULL as ""). */
static int ge__hc_dt_cmp(const ge_value *a, int64_t i, const ge_value *b, int64_t j) {
  if (a->dtype == GE_DTYPE_STRING) {
    const char *x = ((char *const *)a->data)[i], *y = ((char *const *)b->data)[j];
    int r = strcmp(x ? x : "", y ? y : "");
    return (r > 0) - (r < 0);
  }
  if (ge__hc_is_float(a->dtype)) {
    double x = ge__hc_get_f(a, i), y = ge__hc_get_f(b, j);
    int xn = x != x, yn = y != y;
    if (xn || yn) return xn - yn;
    return (x > y) - (x < y);
  }
  if (a->dtype == GE_DTYPE_UINT64) {
    uint64_t x = ((const uint64_t *)a->data)[i], y = ((const uint64_t *)b->data)[j];
    return (x > y) - (x < y);
  }
  {
    int64_t x = ge__hc_get_i(a, i), y = ge__hc_get_i(b, j);
    return (x > y) - (x < y);
  }
}

/* Whether element i is non-zero (strings: non-empty). */
static int ge__hc_dt_nonzero(const ge_value *v, int64_t i) {
  if (v->dtype == GE_DTYPE_STRING) {
    const char *s = ((char *const *)v->data)[i];
    return s && *s;
  }
  if (ge__hc_is_float(v->dtype)) return ge__hc_get_f(v, i) != 0;
  if (v->dtype == GE_DTYPE_UINT64) return ((const uint64_t *)v->data)[i] != 0;
  return ge__hc_get_i(v, i) != 0;
}

/* Writes a zero into element i (an empty string for strings). */
static void ge__hc_dt_zero(ge_value *v, int64_t i, size_t es) {
  if (v->dtype == GE_DTYPE_STRING) {
    const char *e = "";
    memcpy((char *)v->data + (size_t)i * es, &e, sizeof e);
  } else {
    memset((char *)v->data + (size_t)i * es, 0, es);
  }
}

/* Stable merge sort of the ids a[0..n) by before(ctx, x, y) ("x goes before
 * y", strict); tmp holds n ids. Safe with any comparator. */
typedef int (*ge__hc_dt_before_fn)(const void *ctx, int64_t x, int64_t y);

static void ge__hc_dt_msort(int64_t *a, int64_t *tmp, int64_t n, ge__hc_dt_before_fn before, const void *ctx) {
  int64_t h = n / 2, i = 0, j = h, k = 0;
  if (n < 2) return;
  ge__hc_dt_msort(a, tmp, h, before, ctx);
  ge__hc_dt_msort(a + h, tmp, n - h, before, ctx);
  while (i < h && j < n) tmp[k++] = before(ctx, a[j], a[i]) ? a[j++] : a[i++];
  while (i < h) tmp[k++] = a[i++];
  while (j < n) tmp[k++] = a[j++];
  memcpy(a, tmp, (size_t)n * sizeof *a);
}

/* Scatter reductions. */
enum { GE__HC_DT_RED_NONE, GE__HC_DT_RED_ADD, GE__HC_DT_RED_MUL, GE__HC_DT_RED_MAX, GE__HC_DT_RED_MIN };

/* The reduction attribute's code; -1 for a name no scatter knows. */
static int ge__hc_dt_reduction_code(const ge_node *n) {
  const char *s = ge_node_attr_string(n, "reduction", "none");
  if (strcmp(s, "none") == 0) return GE__HC_DT_RED_NONE;
  if (strcmp(s, "add") == 0) return GE__HC_DT_RED_ADD;
  if (strcmp(s, "mul") == 0) return GE__HC_DT_RED_MUL;
  if (strcmp(s, "max") == 0) return GE__HC_DT_RED_MAX;
  if (strcmp(s, "min") == 0) return GE__HC_DT_RED_MIN;
  return -1;
}

/* Checks the reduction code `code` (from ge__hc_dt_reduction_code) for
 * data of dtype dt; the attribute is read again only for an error. */
static ge_status ge__hc_dt_reduction(ge_kernel_ctx *c, int64_t code, ge_dtype dt, int *red) {
  if (code < 0)
    return ge_kernel_error(c, GE_ERR_INVALID, "unknown reduction '%.40s'", ge_node_attr_string(c->node, "reduction", "none"));
  *red = (int)code;
  if (*red != GE__HC_DT_RED_NONE && !ge__hc_dt_is_real(dt))
    return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "reduction '%s' on %s", ge_node_attr_string(c->node, "reduction", "none"),
                           ge_dtype_name(dt));
  return GE_OK;
}

/* y[yi] = u[ui], or y[yi] combined with u[ui] by the reduction. Integers
 * wrap around like the dtype's arithmetic; max/min propagate NaN. */
static void ge__hc_dt_apply(ge_value *y, int64_t yi, const ge_value *u, int64_t ui, int red, size_t es) {
  if (red == GE__HC_DT_RED_NONE) {
    ge__hc_dt_cpy(y->data, yi, u->data, ui, es);
  } else if (ge__hc_is_float(y->dtype)) {
    double a = ge__hc_get_f(y, yi), b = ge__hc_get_f(u, ui), r;
    switch (red) {
    case GE__HC_DT_RED_ADD: r = a + b; break;
    case GE__HC_DT_RED_MUL: r = a * b; break;
    case GE__HC_DT_RED_MAX: r = (b > a || b != b) ? b : a; break;
    default: r = (b < a || b != b) ? b : a; break;
    }
    ge__hc_set_f(y, yi, r);
  } else if (y->dtype == GE_DTYPE_UINT64) {
    uint64_t *p = (uint64_t *)y->data, b = ((const uint64_t *)u->data)[ui];
    switch (red) {
    case GE__HC_DT_RED_ADD: p[yi] += b; break;
    case GE__HC_DT_RED_MUL: p[yi] *= b; break;
    case GE__HC_DT_RED_MAX: if (b > p[yi]) p[yi] = b; break;
    default: if (b < p[yi]) p[yi] = b; break;
    }
  } else { /* signed and narrow unsigned integers, bool (add is or, mul is and) */
    int64_t a = ge__hc_get_i(y, yi), b = ge__hc_get_i(u, ui), r;
    switch (red) {
    case GE__HC_DT_RED_ADD: r = (int64_t)((uint64_t)a + (uint64_t)b); break;
    case GE__HC_DT_RED_MUL: r = (int64_t)((uint64_t)a * (uint64_t)b); break;
    case GE__HC_DT_RED_MAX: r = b > a ? b : a; break;
    default: r = b < a ? b : a; break;
    }
    ge__hc_set_i(y, yi, r);
  }
}

/* ------------------------------------------------------- kernels */

/* Reshape: shape from input 1 (or attribute shape, opset < 5); 0 copies the
 * input dim (unless allowzero), -1 is inferred. */
static void ge__hc_dt_parse_reshape(const ge_kernel_ctx *c, ge__hc_params *p) {
  p->i[0] = ge_node_attr_int(c->node, "allowzero", 0) != 0;
  ge__hc_dt_parse_list(c, p, 0, 1, "shape");
}

static ge_status ge__hc_reshape(ge_kernel_ctx *c) {
  const ge_value *x = ge__hc_dt_in(c, 0), *s = ge__hc_dt_in(c, 1);
  int64_t dims[GE_MAX_RANK], known = 1;
  int32_t n = -1, i, infer = -1, zero = 0;
  int allowzero;
  ge__hc_params local;
  const ge__hc_params *p;
  ge_status st;
  GE__HC_DT_PARAMS(c, ge__hc_dt_parse_reshape, p, local);
  allowzero = (int)p->i[0];
  if (!x) return ge__hc_dt_missing(c, 0);
  if ((st = ge__hc_dt_list(c, p, 0, s, "shape", dims, GE_MAX_RANK, &n)) != GE_OK) return st;
  if (n < 0) return ge__hc_dt_missing(c, 1);
  for (i = 0; i < n; i++) {
    if (dims[i] == 0 && !allowzero) {
      if (i >= x->rank)
        return ge_kernel_error(c, GE_ERR_SHAPE, "shape[%ld] is 0 (keep the input dim) but the input has rank %ld", (long)i, (long)x->rank);
      dims[i] = x->dims[i];
    }
    if (dims[i] == -1) {
      if (infer >= 0) return ge_kernel_error(c, GE_ERR_INVALID, "shape has more than one -1");
      infer = i;
    } else if (dims[i] < 0) {
      return ge_kernel_error(c, GE_ERR_INVALID, "shape[%ld] is %lld", (long)i, (long long)dims[i]);
    } else if (dims[i] == 0) {
      zero = 1;
    }
  }
  if (zero) known = 0;
  for (i = 0; i < n && !zero; i++)
    if (i != infer && !ge__hc_dt_mul(known, dims[i], &known))
      return ge_kernel_error(c, GE_ERR_SHAPE, "cannot reshape %lld elements: the shape holds too many", (long long)x->numel);
  if (infer >= 0) {
    if (known == 0)
      return ge_kernel_error(c, GE_ERR_SHAPE, "cannot infer the -1 dim: the other dims hold no elements");
    if (x->numel % known)
      return ge_kernel_error(c, GE_ERR_SHAPE, "cannot reshape %lld elements into multiples of %lld", (long long)x->numel, (long long)known);
    dims[infer] = x->numel / known;
  } else if (known != x->numel) {
    return ge_kernel_error(c, GE_ERR_SHAPE, "cannot reshape %lld elements into %lld", (long long)x->numel, (long long)known);
  }
  return ge__hc_dt_copy_as(c, x, n, dims);
}

static void ge__hc_dt_parse_axis1(const ge_kernel_ctx *c, ge__hc_params *p) {
  p->i[0] = ge_node_attr_int(c->node, "axis", 1);
}

static void ge__hc_dt_parse_axis0(const ge_kernel_ctx *c, ge__hc_params *p) {
  p->i[0] = ge_node_attr_int(c->node, "axis", 0);
}

static ge_status ge__hc_flatten(ge_kernel_ctx *c) {
  const ge_value *x = ge__hc_dt_in(c, 0);
  int64_t axis, dims[2];
  ge__hc_params local;
  const ge__hc_params *p;
  GE__HC_DT_PARAMS(c, ge__hc_dt_parse_axis1, p, local);
  axis = p->i[0];
  if (!x) return ge__hc_dt_missing(c, 0);
  if (axis < -x->rank || axis > x->rank)
    return ge_kernel_error(c, GE_ERR_INVALID, "axis %lld is out of range for rank %ld", (long long)axis, (long)x->rank);
  if (axis < 0) axis += x->rank;
  dims[0] = ge__hc_dt_prod(x->dims, 0, (int32_t)axis);
  dims[1] = ge__hc_dt_prod(x->dims, (int32_t)axis, x->rank);
  if (dims[0] < 0 || dims[1] < 0) return ge_kernel_error(c, GE_ERR_SHAPE, "flattened dims do not fit int64");
  return ge__hc_dt_copy_as(c, x, 2, dims);
}

/* Squeeze: axes from input 1 (opset 13) or the attribute; none: every 1. */
static void ge__hc_dt_parse_axes(const ge_kernel_ctx *c, ge__hc_params *p) { ge__hc_dt_parse_list(c, p, 0, 1, "axes"); }

static ge_status ge__hc_squeeze(ge_kernel_ctx *c) {
  const ge_value *x = ge__hc_dt_in(c, 0), *a = ge__hc_dt_in(c, 1);
  int64_t axes[GE_MAX_RANK], dims[GE_MAX_RANK];
  int32_t na = -1, ax[GE_MAX_RANK], i, r = 0;
  uint8_t drop[GE_MAX_RANK];
  ge__hc_params local;
  const ge__hc_params *p;
  ge_status st;
  GE__HC_DT_PARAMS(c, ge__hc_dt_parse_axes, p, local);
  if (!x) return ge__hc_dt_missing(c, 0);
  if ((st = ge__hc_dt_list(c, p, 0, a, "axes", axes, GE_MAX_RANK, &na)) != GE_OK) return st;
  memset(drop, 0, sizeof drop);
  if (na <= 0) {
    for (i = 0; i < x->rank; i++) drop[i] = x->dims[i] == 1;
  } else {
    if ((st = ge__hc_dt_axes(c, axes, na, x->rank, ax)) != GE_OK) return st;
    for (i = 0; i < na; i++) {
      if (x->dims[ax[i]] != 1)
        return ge_kernel_error(c, GE_ERR_SHAPE, "cannot squeeze axis %ld of size %lld", (long)ax[i], (long long)x->dims[ax[i]]);
      drop[ax[i]] = 1;
    }
  }
  for (i = 0; i < x->rank; i++)
    if (!drop[i]) dims[r++] = x->dims[i];
  return ge__hc_dt_copy_as(c, x, r, dims);
}

/* Unsqueeze: axes (of the output) from input 1 (opset 13) or the attribute. */
static ge_status ge__hc_unsqueeze(ge_kernel_ctx *c) {
  const ge_value *x = ge__hc_dt_in(c, 0), *a = ge__hc_dt_in(c, 1);
  int64_t axes[GE_MAX_RANK], dims[GE_MAX_RANK];
  int32_t na = -1, ax[GE_MAX_RANK], i, j = 0, r;
  uint8_t ins[GE_MAX_RANK];
  ge__hc_params local;
  const ge__hc_params *p;
  ge_status st;
  GE__HC_DT_PARAMS(c, ge__hc_dt_parse_axes, p, local);
  if (!x) return ge__hc_dt_missing(c, 0);
  if ((st = ge__hc_dt_list(c, p, 0, a, "axes", axes, GE_MAX_RANK, &na)) != GE_OK) return st;
  if (na < 0) return ge_kernel_error(c, GE_ERR_INVALID, "axes are missing");
  r = x->rank + na;
  if (r > GE_MAX_RANK) return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "output rank %ld is beyond %d", (long)r, GE_MAX_RANK);
  if ((st = ge__hc_dt_axes(c, axes, na, r, ax)) != GE_OK) return st;
  memset(ins, 0, sizeof ins);
  for (i = 0; i < na; i++) ins[ax[i]] = 1;
  for (i = 0; i < r; i++) dims[i] = ins[i] ? 1 : x->dims[j++];
  return ge__hc_dt_copy_as(c, x, r, dims);
}

static void ge__hc_dt_parse_perm(const ge_kernel_ctx *c, ge__hc_params *p) { ge__hc_param_attr_ints(c, p, 0, "perm"); }

static ge_status ge__hc_transpose(ge_kernel_ctx *c) {
  const ge_value *x = ge__hc_dt_in(c, 0);
  int64_t perm[GE_MAX_RANK], dims[GE_MAX_RANK], istr[GE_MAX_RANK], sstr[GE_MAX_RANK], ostr[GE_MAX_RANK];
  int32_t np, i, r;
  uint8_t seen[GE_MAX_RANK];
  ge_value *y;
  ge__hc_params local;
  const ge__hc_params *p;
  ge_status st;
  GE__HC_DT_PARAMS(c, ge__hc_dt_parse_perm, p, local);
  if (!x) return ge__hc_dt_missing(c, 0);
  r = x->rank;
  if ((st = ge__hc_dt_list(c, p, 0, NULL, "perm", perm, GE_MAX_RANK, &np)) != GE_OK) return st;
  if (np < 0) {
    for (i = 0; i < r; i++) perm[i] = r - 1 - i;
    np = r;
  }
  if (np != r) return ge_kernel_error(c, GE_ERR_INVALID, "perm has %ld entries for rank %ld", (long)np, (long)r);
  memset(seen, 0, sizeof seen);
  for (i = 0; i < r; i++) {
    if (perm[i] < 0 || perm[i] >= r || seen[perm[i]])
      return ge_kernel_error(c, GE_ERR_INVALID, "perm is not a permutation of 0..%ld", (long)(r - 1));
    seen[perm[i]] = 1;
  }
  ge__hc_dt_strides(r, x->dims, istr);
  for (i = 0; i < r; i++) {
    dims[i] = x->dims[perm[i]];
    sstr[i] = istr[perm[i]];
  }
  if ((st = ge__hc_dt_out(c, 0, x->dtype, r, dims, &y)) != GE_OK) return st;
  ge__hc_dt_strides(r, dims, ostr);
  ge__hc_dt_strided(y->data, 0, ostr, x->data, 0, sstr, r, dims, ge__hc_dt_esize(x->dtype));
  return GE_OK;
}

static ge_status ge__hc_concat(ge_kernel_ctx *c) {
  const ge_value *x0 = ge__hc_dt_in(c, 0);
  int64_t dims[GE_MAX_RANK], outer, inner;
  int32_t axis = 0, d;
  uint32_t i;
  size_t es, pos = 0, ochunk;
  ge_value *y;
  ge__hc_params local;
  const ge__hc_params *p;
  ge_status st;
  GE__HC_DT_PARAMS(c, ge__hc_dt_parse_axis1, p, local);
  if (!x0) return ge__hc_dt_missing(c, 0);
  if (x0->rank < 1) return ge_kernel_error(c, GE_ERR_SHAPE, "cannot concatenate scalars");
  if ((st = ge__hc_dt_axis(c, p->i[0], x0->rank, &axis)) != GE_OK) return st;
  memcpy(dims, x0->dims, (size_t)x0->rank * sizeof *dims);
  dims[axis] = 0;
  for (i = 0; i < c->num_inputs; i++) {
    const ge_value *xi = c->inputs[i];
    if (!xi) return ge__hc_dt_missing(c, i);
    if (xi->dtype != x0->dtype)
      return ge_kernel_error(c, GE_ERR_SHAPE, "input %u is %s, input 0 is %s", (unsigned)i, ge_dtype_name(xi->dtype), ge_dtype_name(x0->dtype));
    if (xi->rank != x0->rank) return ge_kernel_error(c, GE_ERR_SHAPE, "input %u has rank %ld, input 0 has %ld", (unsigned)i, (long)xi->rank, (long)x0->rank);
    for (d = 0; d < x0->rank; d++)
      if (d != axis && xi->dims[d] != x0->dims[d])
        return ge_kernel_error(c, GE_ERR_SHAPE, "input %u has dim %ld = %lld, input 0 has %lld", (unsigned)i, (long)d,
                               (long long)xi->dims[d], (long long)x0->dims[d]);
    if (xi->dims[axis] > INT64_MAX - dims[axis]) return ge_kernel_error(c, GE_ERR_SHAPE, "concatenated dim does not fit int64");
    dims[axis] += xi->dims[axis];
  }
  if ((st = ge__hc_dt_out(c, 0, x0->dtype, x0->rank, dims, &y)) != GE_OK) return st;
  if (y->numel == 0) return GE_OK;
  es = ge__hc_dt_esize(x0->dtype);
  outer = ge__hc_dt_prod(dims, 0, axis);
  inner = ge__hc_dt_prod(dims, axis + 1, x0->rank);
  ochunk = (size_t)(dims[axis] * inner) * es;
  for (i = 0; i < c->num_inputs; i++) {
    const ge_value *xi = c->inputs[i];
    size_t chunk = (size_t)(xi->dims[axis] * inner) * es;
    int64_t o;
    for (o = 0; chunk && o < outer; o++) {
      char *dst = (char *)y->data + (size_t)o * ochunk + pos;
      const char *src = (const char *)xi->data + (size_t)o * chunk;
      if (dst != src) memcpy(dst, src, chunk); /* equal: the memory plan laid the input there (ge_mem.h) */
    }
    pos += chunk;
  }
  return GE_OK;
}

/* Split: sizes from input 1 (opset 13), attribute split (opset < 13),
 * num_outputs (opset 18: ceil-sized chunks, the last one smaller), or equal
 * parts. */
/* Split's parameters: axis, whether num_outputs is given and its value;
 * list 0 the split attribute, list 1 the split input when a Const. */
static void ge__hc_dt_parse_split(const ge_kernel_ctx *c, ge__hc_params *p) {
  p->i[0] = ge_node_attr_int(c->node, "axis", 0);
  p->i[1] = ge_node_attr(c->node, "num_outputs") != NULL;
  p->i[2] = ge_node_attr_int(c->node, "num_outputs", 0);
  ge__hc_param_attr_ints(c, p, 0, "split");
  ge__hc_param_input_ints(c, p, 1, 1);
}

/* Split size k: from the split input (kept at prepare when a Const), else
 * the attribute. */
static int64_t ge__hc_dt_split_size(const ge__hc_params *p, const ge_value *sv, const int64_t *sa, int64_t k) {
  if (!sv) return sa[k];
  return p->n[1] >= 0 ? p->v[1][k] : ge__hc_dt_idx(sv, k);
}

static ge_status ge__hc_split(ge_kernel_ctx *c) {
  const ge_value *x = ge__hc_dt_in(c, 0), *sv = ge__hc_dt_in(c, 1);
  const int64_t *sa = NULL;
  int32_t nsa, axis = 0;
  int has_num;
  uint32_t n = c->num_outputs, i;
  int64_t d, chunk = 0, acc = 0, outer, inner, dims[GE_MAX_RANK];
  size_t es;
  ge__hc_params local;
  const ge__hc_params *p;
  ge_status st;
  GE__HC_DT_PARAMS(c, ge__hc_dt_parse_split, p, local);
  if (p->n[0] == GE__HC_PARAM_AT_RUN) nsa = ge_node_attr_ints(c->node, "split", &sa); /* a split into over 16 */
  else nsa = p->n[0], sa = p->v[0];
  has_num = (int)p->i[1];
  if (!x) return ge__hc_dt_missing(c, 0);
  if (n == 0) return ge_kernel_error(c, GE_ERR_INVALID, "Split has no outputs");
  if (sv && sv->numel == 0) sv = NULL; /* an empty split input counts as absent */
  if ((st = ge__hc_dt_axis(c, p->i[0], x->rank, &axis)) != GE_OK) return st;
  d = x->dims[axis];
  if (sv || nsa >= 0) {
    int64_t k, count = sv ? sv->numel : nsa, sum = 0;
    if (sv && !ge__hc_dt_is_int(sv->dtype)) return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "split must be an integer tensor");
    if (sv && sv->rank > 1) return ge_kernel_error(c, GE_ERR_SHAPE, "split must be 1-D");
    if (count != (int64_t)n)
      return ge_kernel_error(c, GE_ERR_INVALID, "split has %lld sizes for %u outputs", (long long)count, (unsigned)n);
    for (k = 0; k < count; k++) {
      int64_t s = ge__hc_dt_split_size(p, sv, sa, k);
      if (s < 0 || s > d - sum)
        return ge_kernel_error(c, GE_ERR_SHAPE, "split sizes do not add up to dim %ld (%lld)", (long)axis, (long long)d);
      sum += s;
    }
    if (sum != d) return ge_kernel_error(c, GE_ERR_SHAPE, "split sizes add up to %lld, not %lld", (long long)sum, (long long)d);
  } else if (has_num) {
    if (p->i[2] != (int64_t)n)
      return ge_kernel_error(c, GE_ERR_INVALID, "num_outputs is %lld but the node has %u outputs", (long long)p->i[2],
                             (unsigned)n);
    chunk = d / (int64_t)n + (d % (int64_t)n != 0);
    if (chunk > 0 && (int64_t)(n - 1) > d / chunk)
      return ge_kernel_error(c, GE_ERR_SHAPE, "cannot split %lld into %u chunks of %lld", (long long)d, (unsigned)n, (long long)chunk);
  } else {
    if (d % (int64_t)n) return ge_kernel_error(c, GE_ERR_SHAPE, "cannot split %lld into %u equal parts", (long long)d, (unsigned)n);
    chunk = d / (int64_t)n;
  }
  es = ge__hc_dt_esize(x->dtype);
  outer = ge__hc_dt_prod(x->dims, 0, axis);
  inner = ge__hc_dt_prod(x->dims, axis + 1, x->rank);
  memcpy(dims, x->dims, (size_t)x->rank * sizeof *dims);
  for (i = 0; i < n; i++) {
    int64_t s, o;
    ge_value *y;
    if (sv || nsa >= 0) s = ge__hc_dt_split_size(p, sv, sa, i);
    else if (has_num) s = i + 1 < n ? chunk : d - chunk * (int64_t)(n - 1);
    else s = chunk;
    dims[axis] = s;
    if ((st = ge__hc_dt_out(c, i, x->dtype, x->rank, dims, &y)) != GE_OK) return st;
    if (y->numel)
      for (o = 0; o < outer; o++)
        memcpy((char *)y->data + (size_t)(o * s * inner) * es, (const char *)x->data + (size_t)((o * d + acc) * inner) * es,
               (size_t)(s * inner) * es);
    acc += s;
  }
  return GE_OK;
}

/* Slice: starts/ends/axes/steps from inputs 1..4 (opset 10), or attributes
 * starts/ends/axes (opset < 10). */
/* Slice's starts, ends, axes and steps: inputs 1..4 (kept when Consts) or
 * the attributes. */
static void ge__hc_dt_parse_slice(const ge_kernel_ctx *c, ge__hc_params *p) {
  static const char *const names[3] = {"starts", "ends", "axes"};
  int k, from_inputs = ge__hc_dt_in(c, 1) || ge__hc_dt_in(c, 2);
  for (k = 0; k < 4; k++) {
    if (from_inputs) ge__hc_param_input_ints(c, p, k, (uint32_t)k + 1);
    else if (k < 3) ge__hc_param_attr_ints(c, p, k, names[k]);
  }
}

static ge_status ge__hc_slice(ge_kernel_ctx *c) {
  const ge_value *x = ge__hc_dt_in(c, 0), *sv = ge__hc_dt_in(c, 1), *ev = ge__hc_dt_in(c, 2);
  const ge_value *av = ge__hc_dt_in(c, 3), *pv = ge__hc_dt_in(c, 4);
  int64_t starts[GE_MAX_RANK], ends[GE_MAX_RANK], axes[GE_MAX_RANK], steps[GE_MAX_RANK];
  int64_t dims[GE_MAX_RANK], istr[GE_MAX_RANK], sstr[GE_MAX_RANK], ostr[GE_MAX_RANK], base = 0;
  int32_t ns = -1, ne = -1, na = -1, np = -1, ax[GE_MAX_RANK], i;
  ge_value *y;
  ge__hc_params local;
  const ge__hc_params *p;
  ge_status st;
  GE__HC_DT_PARAMS(c, ge__hc_dt_parse_slice, p, local);
  if (!x) return ge__hc_dt_missing(c, 0);
  if (sv || ev) {
    if (!sv || !ev) return ge__hc_dt_missing(c, sv ? 2 : 1);
    if ((st = ge__hc_dt_list(c, p, 0, sv, "starts", starts, GE_MAX_RANK, &ns)) != GE_OK) return st;
    if ((st = ge__hc_dt_list(c, p, 1, ev, "ends", ends, GE_MAX_RANK, &ne)) != GE_OK) return st;
    if (av && (st = ge__hc_dt_list(c, p, 2, av, "axes", axes, GE_MAX_RANK, &na)) != GE_OK) return st;
    if (pv && (st = ge__hc_dt_list(c, p, 3, pv, "steps", steps, GE_MAX_RANK, &np)) != GE_OK) return st;
  } else {
    if ((st = ge__hc_dt_list(c, p, 0, NULL, "starts", starts, GE_MAX_RANK, &ns)) != GE_OK) return st;
    if ((st = ge__hc_dt_list(c, p, 1, NULL, "ends", ends, GE_MAX_RANK, &ne)) != GE_OK) return st;
    if ((st = ge__hc_dt_list(c, p, 2, NULL, "axes", axes, GE_MAX_RANK, &na)) != GE_OK) return st;
    if (ns < 0 || ne < 0) return ge_kernel_error(c, GE_ERR_INVALID, "starts and ends are missing");
  }
  if (ne != ns) return ge_kernel_error(c, GE_ERR_INVALID, "%ld starts but %ld ends", (long)ns, (long)ne);
  if (na < 0)
    for (na = 0; na < ns; na++) axes[na] = na;
  if (np < 0)
    for (np = 0; np < ns; np++) steps[np] = 1;
  if (na != ns || np != ns)
    return ge_kernel_error(c, GE_ERR_INVALID, "%ld starts, %ld axes and %ld steps", (long)ns, (long)na, (long)np);
  if ((st = ge__hc_dt_axes(c, axes, na, x->rank, ax)) != GE_OK) return st;
  memcpy(dims, x->dims, (size_t)x->rank * sizeof *dims);
  ge__hc_dt_strides(x->rank, x->dims, istr);
  memcpy(sstr, istr, (size_t)x->rank * sizeof *sstr);
  for (i = 0; i < ns; i++) {
    int64_t a = ax[i], d = x->dims[a], s = starts[i], e = ends[i], step = steps[i], cnt;
    if (step == 0) return ge_kernel_error(c, GE_ERR_INVALID, "step %ld is 0", (long)i);
    if (s < 0) s += d;
    if (e < 0) e += d;
    if (step > 0) {
      s = s < 0 ? 0 : s > d ? d : s;
      e = e < 0 ? 0 : e > d ? d : e;
      cnt = e > s ? 1 + (e - s - 1) / step : 0;
    } else {
      int64_t back = step == INT64_MIN ? INT64_MAX : -step;
      s = s < 0 ? 0 : s > d - 1 ? d - 1 : s;
      e = e < -1 ? -1 : e > d - 1 ? d - 1 : e;
      cnt = s > e ? 1 + (s - e - 1) / back : 0;
    }
    if (d == 0) cnt = 0;
    dims[a] = cnt;
    if (cnt > 0) base += s * istr[a];
    sstr[a] = cnt > 1 ? istr[a] * step : 0;
  }
  if ((st = ge__hc_dt_out(c, 0, x->dtype, x->rank, dims, &y)) != GE_OK) return st;
  ge__hc_dt_strides(x->rank, dims, ostr);
  ge__hc_dt_strided(y->data, 0, ostr, x->data, base, sstr, x->rank, dims, ge__hc_dt_esize(x->dtype));
  return GE_OK;
}

static ge_status ge__hc_gather(ge_kernel_ctx *c) {
  const ge_value *x = ge__hc_dt_in(c, 0), *ind = ge__hc_dt_in(c, 1);
  int64_t dims[GE_MAX_RANK], d, outer, inner, m, o, j, v = 0;
  int32_t axis = 0, r, k;
  size_t es;
  ge_value *y;
  ge__hc_params local;
  const ge__hc_params *p;
  ge_status st;
  GE__HC_DT_PARAMS(c, ge__hc_dt_parse_axis0, p, local);
  if (!x || !ind) return ge__hc_dt_missing(c, x ? 1 : 0);
  r = x->rank;
  if (r < 1) return ge_kernel_error(c, GE_ERR_SHAPE, "data must have rank >= 1");
  if ((st = ge__hc_dt_axis(c, p->i[0], r, &axis)) != GE_OK) return st;
  if (!ge__hc_dt_is_int(ind->dtype)) return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "indices are %s", ge_dtype_name(ind->dtype));
  if (r - 1 + ind->rank > GE_MAX_RANK) return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "output rank is beyond %d", GE_MAX_RANK);
  d = x->dims[axis];
  m = ind->numel;
  for (j = 0; j < m; j++)
    if (!ge__hc_dt_fix(ge__hc_dt_idx(ind, j), d, &v))
      return ge_kernel_error(c, GE_ERR_INVALID, "index %lld is out of range for dim %lld", (long long)ge__hc_dt_idx(ind, j), (long long)d);
  for (k = 0; k < axis; k++) dims[k] = x->dims[k];
  for (k = 0; k < ind->rank; k++) dims[axis + k] = ind->dims[k];
  for (k = axis + 1; k < r; k++) dims[ind->rank + k - 1] = x->dims[k];
  if ((st = ge__hc_dt_out(c, 0, x->dtype, r - 1 + ind->rank, dims, &y)) != GE_OK) return st;
  if (y->numel == 0) return GE_OK;
  es = ge__hc_dt_esize(x->dtype);
  outer = ge__hc_dt_prod(x->dims, 0, axis);
  inner = ge__hc_dt_prod(x->dims, axis + 1, r);
  for (o = 0; o < outer; o++)
    for (j = 0; j < m; j++) {
      ge__hc_dt_fix(ge__hc_dt_idx(ind, j), d, &v);
      memcpy((char *)y->data + (size_t)((o * m + j) * inner) * es, (const char *)x->data + (size_t)((o * d + v) * inner) * es,
             (size_t)inner * es);
    }
  return GE_OK;
}

/* GatherElements' and the scatters' axis and reduction code. */
static void ge__hc_dt_parse_elements(const ge_kernel_ctx *c, ge__hc_params *p) {
  p->i[0] = ge_node_attr_int(c->node, "axis", 0);
  p->i[1] = ge__hc_dt_reduction_code(c->node);
}

/* Checks the operands of GatherElements / ScatterElements (axis a): indices of the
 * data's rank, no larger than the data off the axis. */
static ge_status ge__hc_dt_elements_check(ge_kernel_ctx *c, int64_t a, const ge_value *x, const ge_value *ind,
                                          int32_t *axis) {
  int32_t k;
  ge_status st;
  if (x->rank < 1) return ge_kernel_error(c, GE_ERR_SHAPE, "data must have rank >= 1");
  if ((st = ge__hc_dt_axis(c, a, x->rank, axis)) != GE_OK) return st;
  if (!ge__hc_dt_is_int(ind->dtype)) return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "indices are %s", ge_dtype_name(ind->dtype));
  if (ind->rank != x->rank)
    return ge_kernel_error(c, GE_ERR_SHAPE, "indices have rank %ld, data %ld", (long)ind->rank, (long)x->rank);
  for (k = 0; k < x->rank; k++)
    if (k != *axis && ind->dims[k] > x->dims[k])
      return ge_kernel_error(c, GE_ERR_SHAPE, "indices dim %ld (%lld) is larger than the data's (%lld)", (long)k,
                             (long long)ind->dims[k], (long long)x->dims[k]);
  return GE_OK;
}

static ge_status ge__hc_gather_elements(ge_kernel_ctx *c) {
  const ge_value *x = ge__hc_dt_in(c, 0), *ind = ge__hc_dt_in(c, 1);
  int64_t xstr[GE_MAX_RANK], k, v;
  int32_t axis = 0, d;
  size_t es;
  ge__hc_iter it;
  ge_value *y;
  ge__hc_params local;
  const ge__hc_params *p;
  ge_status st;
  GE__HC_DT_PARAMS(c, ge__hc_dt_parse_elements, p, local);
  if (!x || !ind) return ge__hc_dt_missing(c, x ? 1 : 0);
  if ((st = ge__hc_dt_elements_check(c, p->i[0], x, ind, &axis)) != GE_OK) return st;
  if ((st = ge__hc_dt_out(c, 0, x->dtype, ind->rank, ind->dims, &y)) != GE_OK) return st;
  es = ge__hc_dt_esize(x->dtype);
  ge__hc_dt_strides(x->rank, x->dims, xstr);
  ge__hc_iter_init(&it, ind->rank, ind->dims, 1);
  for (d = 0; d < x->rank; d++) it.strides[0][d] = d == axis ? 0 : xstr[d];
  for (k = 0; k < y->numel; k++) {
    if (!ge__hc_dt_fix(ge__hc_dt_idx(ind, k), x->dims[axis], &v))
      return ge_kernel_error(c, GE_ERR_INVALID, "index %lld is out of range for dim %lld", (long long)ge__hc_dt_idx(ind, k),
                             (long long)x->dims[axis]);
    ge__hc_dt_cpy(y->data, k, x->data, it.off[0] + v * xstr[axis], es);
    ge__hc_step(&it);
  }
  return GE_OK;
}

static void ge__hc_dt_parse_gather_nd(const ge_kernel_ctx *c, ge__hc_params *p) {
  p->i[0] = ge_node_attr_int(c->node, "batch_dims", 0);
}

static ge_status ge__hc_gather_nd(ge_kernel_ctx *c) {
  const ge_value *x = ge__hc_dt_in(c, 0), *ind = ge__hc_dt_in(c, 1);
  int64_t b, k, dims[GE_MAX_RANK], xstr[GE_MAX_RANK];
  int64_t B, T, S, DB, bi, t, j, v;
  int32_t r, q, i, orank;
  size_t es;
  ge_value *y;
  ge__hc_params local;
  const ge__hc_params *p;
  ge_status st;
  GE__HC_DT_PARAMS(c, ge__hc_dt_parse_gather_nd, p, local);
  b = p->i[0];
  if (!x || !ind) return ge__hc_dt_missing(c, x ? 1 : 0);
  r = x->rank;
  q = ind->rank;
  if (r < 1 || q < 1) return ge_kernel_error(c, GE_ERR_SHAPE, "data and indices must have rank >= 1");
  if (!ge__hc_dt_is_int(ind->dtype)) return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "indices are %s", ge_dtype_name(ind->dtype));
  if (b < 0 || b >= r || b >= q)
    return ge_kernel_error(c, GE_ERR_INVALID, "batch_dims %lld must be below both ranks (%ld, %ld)", (long long)b, (long)r, (long)q);
  k = ind->dims[q - 1];
  if (k > r - b) return ge_kernel_error(c, GE_ERR_SHAPE, "index tuples of %lld entries for %lld data dims", (long long)k, (long long)(r - b));
  for (i = 0; i < b; i++)
    if (ind->dims[i] != x->dims[i])
      return ge_kernel_error(c, GE_ERR_SHAPE, "batch dim %ld differs: %lld in indices, %lld in data", (long)i,
                             (long long)ind->dims[i], (long long)x->dims[i]);
  orank = (int32_t)(q - 1 + r - b - k);
  if (orank > GE_MAX_RANK) return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "output rank is beyond %d", GE_MAX_RANK);
  for (i = 0; i < q - 1; i++) dims[i] = ind->dims[i];
  for (i = (int32_t)(b + k); i < r; i++) dims[q - 1 + i - (b + k)] = x->dims[i];
  if ((st = ge__hc_dt_out(c, 0, x->dtype, orank, dims, &y)) != GE_OK) return st;
  if (y->numel == 0) return GE_OK;
  es = ge__hc_dt_esize(x->dtype);
  ge__hc_dt_strides(r, x->dims, xstr);
  B = ge__hc_dt_prod(ind->dims, 0, (int32_t)b);
  T = ge__hc_dt_prod(ind->dims, (int32_t)b, q - 1);
  S = ge__hc_dt_prod(x->dims, (int32_t)(b + k), r);
  DB = ge__hc_dt_prod(x->dims, (int32_t)b, r);
  for (bi = 0; bi < B; bi++)
    for (t = 0; t < T; t++) {
      int64_t off = bi * DB, tup = (bi * T + t) * k;
      for (j = 0; j < k; j++) {
        if (!ge__hc_dt_fix(ge__hc_dt_idx(ind, tup + j), x->dims[b + j], &v))
          return ge_kernel_error(c, GE_ERR_INVALID, "index %lld is out of range for dim %lld", (long long)ge__hc_dt_idx(ind, tup + j),
                                 (long long)x->dims[b + j]);
        off += v * xstr[b + j];
      }
      memcpy((char *)y->data + (size_t)((bi * T + t) * S) * es, (const char *)x->data + (size_t)off * es, (size_t)S * es);
    }
  return GE_OK;
}

/* Output 0 as a copy of data (input 0), for the scatters. */
static ge_status ge__hc_dt_copy_data(ge_kernel_ctx *c, const ge_value *x, ge_value **y) {
  ge_status st = ge__hc_dt_out(c, 0, x->dtype, x->rank, x->dims, y);
  if (st) return st;
  if ((*y)->data != x->data && x->nbytes) memmove((*y)->data, x->data, x->nbytes);
  return GE_OK;
}

static ge_status ge__hc_scatter_nd(ge_kernel_ctx *c) {
  const ge_value *x = ge__hc_dt_in(c, 0), *ind = ge__hc_dt_in(c, 1), *u = ge__hc_dt_in(c, 2);
  int64_t k, T, S, t, s, j, v, xstr[GE_MAX_RANK];
  int32_t r, q, i;
  int red;
  size_t es;
  ge_value *y;
  ge__hc_params local;
  const ge__hc_params *p;
  ge_status st;
  GE__HC_DT_PARAMS(c, ge__hc_dt_parse_elements, p, local);
  if (!x || !ind || !u) return ge__hc_dt_missing(c, !x ? 0 : !ind ? 1 : 2);
  r = x->rank;
  q = ind->rank;
  if (r < 1 || q < 1) return ge_kernel_error(c, GE_ERR_SHAPE, "data and indices must have rank >= 1");
  if (!ge__hc_dt_is_int(ind->dtype)) return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "indices are %s", ge_dtype_name(ind->dtype));
  if (u->dtype != x->dtype) return ge_kernel_error(c, GE_ERR_SHAPE, "updates are %s, data %s", ge_dtype_name(u->dtype), ge_dtype_name(x->dtype));
  if ((st = ge__hc_dt_reduction(c, p->i[1], x->dtype, &red)) != GE_OK) return st;
  k = ind->dims[q - 1];
  if (k > r) return ge_kernel_error(c, GE_ERR_SHAPE, "index tuples of %lld entries for rank %ld", (long long)k, (long)r);
  if (u->rank != q - 1 + r - k) return ge_kernel_error(c, GE_ERR_SHAPE, "updates have rank %ld, expected %lld", (long)u->rank, (long long)(q - 1 + r - k));
  for (i = 0; i < u->rank; i++)
    if (u->dims[i] != (i < q - 1 ? ind->dims[i] : x->dims[k + i - (q - 1)]))
      return ge_kernel_error(c, GE_ERR_SHAPE, "updates dim %ld is %lld, expected %lld", (long)i, (long long)u->dims[i],
                             (long long)(i < q - 1 ? ind->dims[i] : x->dims[k + i - (q - 1)]));
  if ((st = ge__hc_dt_copy_data(c, x, &y)) != GE_OK) return st;
  if (u->numel == 0) return GE_OK;
  es = ge__hc_dt_esize(x->dtype);
  ge__hc_dt_strides(r, x->dims, xstr);
  T = ge__hc_dt_prod(ind->dims, 0, q - 1);
  S = ge__hc_dt_prod(x->dims, (int32_t)k, r);
  if (red == GE__HC_DT_RED_NONE && ind->dtype == GE_DTYPE_INT64) { /* plain stores: one copy per index tuple */
    const int64_t *ip = (const int64_t *)ind->data;
    for (t = 0; t < T; t++, ip += k) {
      int64_t off = 0;
      for (j = 0; j < k; j++) {
        if (!ge__hc_dt_fix(ip[j], x->dims[j], &v))
          return ge_kernel_error(c, GE_ERR_INVALID, "index %lld is out of range for dim %lld", (long long)ip[j],
                                 (long long)x->dims[j]);
        off += v * xstr[j];
      }
      memcpy((char *)y->data + (size_t)off * es, (const char *)u->data + (size_t)(t * S) * es, (size_t)S * es);
    }
    return GE_OK;
  }
  for (t = 0; t < T; t++) {
    int64_t off = 0;
    for (j = 0; j < k; j++) {
      if (!ge__hc_dt_fix(ge__hc_dt_idx(ind, t * k + j), x->dims[j], &v))
        return ge_kernel_error(c, GE_ERR_INVALID, "index %lld is out of range for dim %lld", (long long)ge__hc_dt_idx(ind, t * k + j),
                               (long long)x->dims[j]);
      off += v * xstr[j];
    }
    for (s = 0; s < S; s++) ge__hc_dt_apply(y, off + s, u, t * S + s, red, es);
  }
  return GE_OK;
}

/* ScatterElements, and Scatter (opset 9-10, no reduction). */
static ge_status ge__hc_scatter_elements(ge_kernel_ctx *c) {
  const ge_value *x = ge__hc_dt_in(c, 0), *ind = ge__hc_dt_in(c, 1), *u = ge__hc_dt_in(c, 2);
  int64_t xstr[GE_MAX_RANK], k, v;
  int32_t axis = 0, d;
  int red;
  size_t es;
  ge__hc_iter it;
  ge_value *y;
  ge__hc_params local;
  const ge__hc_params *p;
  ge_status st;
  GE__HC_DT_PARAMS(c, ge__hc_dt_parse_elements, p, local);
  if (!x || !ind || !u) return ge__hc_dt_missing(c, !x ? 0 : !ind ? 1 : 2);
  if ((st = ge__hc_dt_elements_check(c, p->i[0], x, ind, &axis)) != GE_OK) return st;
  if (u->dtype != x->dtype) return ge_kernel_error(c, GE_ERR_SHAPE, "updates are %s, data %s", ge_dtype_name(u->dtype), ge_dtype_name(x->dtype));
  if (u->rank != ind->rank) return ge_kernel_error(c, GE_ERR_SHAPE, "updates and indices differ in rank");
  for (d = 0; d < u->rank; d++)
    if (u->dims[d] != ind->dims[d]) return ge_kernel_error(c, GE_ERR_SHAPE, "updates and indices differ in dim %ld", (long)d);
  if ((st = ge__hc_dt_reduction(c, p->i[1], x->dtype, &red)) != GE_OK) return st;
  if ((st = ge__hc_dt_copy_data(c, x, &y)) != GE_OK) return st;
  es = ge__hc_dt_esize(x->dtype);
  ge__hc_dt_strides(x->rank, x->dims, xstr);
  ge__hc_iter_init(&it, ind->rank, ind->dims, 1);
  for (d = 0; d < x->rank; d++) it.strides[0][d] = d == axis ? 0 : xstr[d];
  for (k = 0; k < ind->numel; k++) {
    if (!ge__hc_dt_fix(ge__hc_dt_idx(ind, k), x->dims[axis], &v))
      return ge_kernel_error(c, GE_ERR_INVALID, "index %lld is out of range for dim %lld", (long long)ge__hc_dt_idx(ind, k),
                             (long long)x->dims[axis]);
    ge__hc_dt_apply(y, it.off[0] + v * xstr[axis], u, k, red, es);
    ge__hc_step(&it);
  }
  return GE_OK;
}

/* List 0: input 1 when a Const (Expand's shape, Tile's repeats). */
static void ge__hc_dt_parse_in1(const ge_kernel_ctx *c, ge__hc_params *p) { ge__hc_param_input_ints(c, p, 0, 1); }

static ge_status ge__hc_expand(ge_kernel_ctx *c) {
  const ge_value *x = ge__hc_dt_in(c, 0), *s = ge__hc_dt_in(c, 1);
  int64_t dims[GE_MAX_RANK], sstr[GE_MAX_RANK], ostr[GE_MAX_RANK];
  int32_t n, r, i;
  ge_value t, *y;
  ge__hc_params local;
  const ge__hc_params *p;
  ge_status st;
  GE__HC_DT_PARAMS(c, ge__hc_dt_parse_in1, p, local);
  if (!x || !s) return ge__hc_dt_missing(c, x ? 1 : 0);
  memset(&t, 0, sizeof t);
  if ((st = ge__hc_dt_list(c, p, 0, s, "shape", t.dims, GE_MAX_RANK, &n)) != GE_OK) return st;
  for (i = 0; i < n; i++)
    if (t.dims[i] < 0) return ge_kernel_error(c, GE_ERR_INVALID, "shape[%ld] is %lld", (long)i, (long long)t.dims[i]);
  t.rank = n;
  if (!ge__hc_bcast_shape(x, &t, &r, dims)) return ge_kernel_error(c, GE_ERR_SHAPE, "input does not broadcast to the shape");
  if ((st = ge__hc_dt_out(c, 0, x->dtype, r, dims, &y)) != GE_OK) return st;
  if (y->numel == 0) return GE_OK;
  ge__hc_bcast_strides(x, r, sstr);
  ge__hc_dt_strides(r, dims, ostr);
  ge__hc_dt_strided(y->data, 0, ostr, x->data, 0, sstr, r, dims, ge__hc_dt_esize(x->dtype));
  return GE_OK;
}

static ge_status ge__hc_tile(ge_kernel_ctx *c) {
  const ge_value *x = ge__hc_dt_in(c, 0), *rv = ge__hc_dt_in(c, 1);
  int64_t rep[GE_MAX_RANK], dims[GE_MAX_RANK], xstr[GE_MAX_RANK], k;
  int32_t n, i;
  size_t es;
  ge__hc_iter it;
  ge_value *y;
  ge__hc_params local;
  const ge__hc_params *p;
  ge_status st;
  GE__HC_DT_PARAMS(c, ge__hc_dt_parse_in1, p, local);
  if (!x || !rv) return ge__hc_dt_missing(c, x ? 1 : 0);
  if ((st = ge__hc_dt_list(c, p, 0, rv, "repeats", rep, GE_MAX_RANK, &n)) != GE_OK) return st;
  if (n != x->rank) return ge_kernel_error(c, GE_ERR_SHAPE, "%ld repeats for rank %ld", (long)n, (long)x->rank);
  for (i = 0; i < n; i++) {
    if (rep[i] < 0) return ge_kernel_error(c, GE_ERR_INVALID, "repeats[%ld] is %lld", (long)i, (long long)rep[i]);
    if (!ge__hc_dt_mul(x->dims[i], rep[i], &dims[i])) return ge_kernel_error(c, GE_ERR_SHAPE, "tiled dim %ld does not fit int64", (long)i);
  }
  if ((st = ge__hc_dt_out(c, 0, x->dtype, n, dims, &y)) != GE_OK) return st;
  es = ge__hc_dt_esize(x->dtype);
  ge__hc_dt_strides(n, x->dims, xstr);
  ge__hc_iter_init(&it, n, dims, 0);
  for (k = 0; k < y->numel; k++) {
    int64_t off = 0;
    for (i = 0; i < n; i++) off += (it.idx[i] % x->dims[i]) * xstr[i];
    ge__hc_dt_cpy(y->data, k, x->data, off, es);
    ge__hc_step(&it);
  }
  return GE_OK;
}

/* Pad: pads / constant_value / axes from inputs 1..3 (opset 11, 18), or
 * attributes pads (paddings in opset 1) and value (opset < 11). Modes
 * constant, reflect, edge, wrap; negative pads crop. */
/* Pad's source index along an axis of n for output index o (begin pads
 * before it), or -1 where constant mode writes the value. */
static int64_t ge__hc_pad_src(int64_t o, int64_t begin, int64_t n, int m) {
  int64_t j = o - begin, p;
  if (j >= 0 && j < n) return j;
  if (m == 0) return -1;
  if (m == 2) return j < 0 ? 0 : n - 1;
  if (m == 1) {
    p = 2 * (n - 1);
    if (p == 0) return 0;
    j %= p;
    if (j < 0) j += p;
    return j >= n ? p - j : j;
  }
  j %= n;
  return j < 0 ? j + n : j;
}

/* One output row of Pad (the last axis, w wide) from x's row xr (NULL:
 * the row is all padding in constant mode): the part inside x by memcpy,
 * the pads element by element. */
static void ge__hc_pad_row(char *yr, int64_t w, const char *xr, int64_t n, int64_t b, int m, const unsigned char *cval,
                           size_t es) {
  int64_t o, o0 = b < 0 ? 0 : b > w ? w : b, o1 = b + n < o0 ? o0 : b + n > w ? w : b + n;
  if (!xr) {
    for (o = 0; o < w; o++) memcpy(yr + o * (int64_t)es, cval, es);
    return;
  }
  for (o = 0; o < w; o++) {
    int64_t j;
    if (o == o0 && o1 > o0) {
      memcpy(yr + o0 * (int64_t)es, xr + (o0 - b) * (int64_t)es, (size_t)(o1 - o0) * es);
      o = o1 - 1;
      continue;
    }
    j = ge__hc_pad_src(o, b, n, m);
    if (j < 0) memcpy(yr + o * (int64_t)es, cval, es);
    else ge__hc_dt_cpy(yr, o, xr, j, es);
  }
}

/* Pad's output row by row: the outer axes map to a row of x once per row. */
static void ge__hc_pad_rows(const ge_value *x, ge_value *y, const int64_t *begin, const int64_t *xstr, int m,
                            const unsigned char *cval, size_t es) {
  int32_t r = y->rank, i;
  int64_t w = y->dims[r - 1], rows = y->numel / w, row, idx[GE_MAX_RANK];
  memset(idx, 0, sizeof idx);
  for (row = 0; row < rows; row++) {
    int64_t off = 0, j = 0;
    for (i = 0; i < r - 1 && j >= 0; i++) {
      j = ge__hc_pad_src(idx[i], begin[i], x->dims[i], m);
      off += j * xstr[i];
    }
    ge__hc_pad_row((char *)y->data + row * w * (int64_t)es, w, j < 0 ? NULL : (const char *)x->data + off * (int64_t)es,
                   x->dims[r - 1], begin[r - 1], m, cval, es);
    for (i = r - 2; i >= 0; i--) {
      if (++idx[i] < y->dims[i]) break;
      idx[i] = 0;
    }
  }
}

static const char *const ge__hc_pad_modes[4] = {"constant", "reflect", "edge", "wrap"};

/* Pad's mode (-1: unknown) and value attribute; list 0 the pads (input 1
 * when a Const, else attribute pads or paddings), list 1 the axes input
 * when a Const. */
static void ge__hc_dt_parse_pad(const ge_kernel_ctx *c, ge__hc_params *p) {
  const char *mode = ge_node_attr_string(c->node, "mode", "constant");
  int m;
  p->i[0] = -1;
  for (m = 0; m < 4; m++)
    if (!strcmp(mode, ge__hc_pad_modes[m])) p->i[0] = m;
  p->f[0] = ge_node_attr_float(c->node, "value", 0.0);
  ge__hc_dt_parse_list(c, p, 0, 1, "pads");
  if (p->n[0] == -1) ge__hc_param_attr_ints(c, p, 0, "paddings");
  ge__hc_param_input_ints(c, p, 1, 3);
}

static ge_status ge__hc_pad(ge_kernel_ctx *c) {
  const ge_value *x = ge__hc_dt_in(c, 0), *pv = ge__hc_dt_in(c, 1), *cv = ge__hc_dt_in(c, 2), *av = ge__hc_dt_in(c, 3);
  const char *mode;
  ge__hc_params local;
  const ge__hc_params *p;
  int64_t pads[2 * GE_MAX_RANK], axes[GE_MAX_RANK], begin[GE_MAX_RANK], end[GE_MAX_RANK], dims[GE_MAX_RANK], xstr[GE_MAX_RANK];
  int32_t np = -1, na, ax[GE_MAX_RANK], i, r;
  unsigned char cval[16];
  int m;
  size_t es;
  ge_value *y;
  ge_status st;
  GE__HC_DT_PARAMS(c, ge__hc_dt_parse_pad, p, local);
  if (!x) return ge__hc_dt_missing(c, 0);
  r = x->rank;
  es = ge__hc_dt_esize(x->dtype);
  if (es == 0 || es > sizeof cval) return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "dtype %s", ge_dtype_name(x->dtype));
  if (p->i[0] < 0)
    return ge_kernel_error(c, GE_ERR_INVALID, "unknown mode '%.40s'", ge_node_attr_string(c->node, "mode", "constant"));
  m = (int)p->i[0];
  mode = ge__hc_pad_modes[m];
  if (pv || p->n[0] != GE__HC_PARAM_AT_RUN) {
    if ((st = ge__hc_dt_list(c, p, 0, pv, "pads", pads, 2 * GE_MAX_RANK, &np)) != GE_OK) return st;
    if (!pv && np < 0) return ge_kernel_error(c, GE_ERR_INVALID, "pads are missing");
  } else {
    if ((st = ge__hc_dt_attr_ints(c, "pads", pads, 2 * GE_MAX_RANK, &np)) != GE_OK) return st;
    if (np < 0 && (st = ge__hc_dt_attr_ints(c, "paddings", pads, 2 * GE_MAX_RANK, &np)) != GE_OK) return st;
    if (np < 0) return ge_kernel_error(c, GE_ERR_INVALID, "pads are missing");
  }
  if (av) {
    if ((st = ge__hc_dt_list(c, p, 1, av, "axes", axes, GE_MAX_RANK, &na)) != GE_OK) return st;
    if ((st = ge__hc_dt_axes(c, axes, na, r, ax)) != GE_OK) return st;
  } else {
    for (na = 0; na < r; na++) ax[na] = na;
  }
  if (np != 2 * na) return ge_kernel_error(c, GE_ERR_INVALID, "%ld pads for %ld axes", (long)np, (long)na);
  memset(begin, 0, sizeof begin);
  memset(end, 0, sizeof end);
  for (i = 0; i < na; i++) {
    begin[ax[i]] = pads[i];
    end[ax[i]] = pads[na + i];
  }
  memset(cval, 0, sizeof cval);
  if (x->dtype == GE_DTYPE_STRING) {
    const char *e = "";
    memcpy(cval, &e, sizeof e);
  }
  if (pv) {
    if (cv && cv->numel > 0) {
      if (cv->dtype != x->dtype)
        return ge_kernel_error(c, GE_ERR_SHAPE, "constant_value is %s, data %s", ge_dtype_name(cv->dtype), ge_dtype_name(x->dtype));
      if (cv->numel != 1) return ge_kernel_error(c, GE_ERR_SHAPE, "constant_value must hold one value");
      memcpy(cval, cv->data, es);
    }
  } else if (x->dtype != GE_DTYPE_STRING) {
    ge_value t;
    memset(&t, 0, sizeof t);
    t.data = cval;
    t.dtype = x->dtype;
    ge__hc_set_f(&t, 0, p->f[0]);
  }
  for (i = 0; i < r; i++) {
    const int64_t lim = INT64_MAX / 4;
    if (begin[i] > lim || begin[i] < -lim || end[i] > lim || end[i] < -lim)
      return ge_kernel_error(c, GE_ERR_SHAPE, "pads of axis %ld are too large", (long)i);
    dims[i] = x->dims[i] + begin[i] + end[i];
    if (dims[i] < 0) return ge_kernel_error(c, GE_ERR_SHAPE, "pads make dim %ld negative (%lld)", (long)i, (long long)dims[i]);
  }
  if (m != 0 && x->numel == 0 && ge__hc_dt_prod(dims, 0, r) != 0)
    return ge_kernel_error(c, GE_ERR_INVALID, "cannot pad an empty tensor in mode '%s'", mode);
  if ((st = ge__hc_dt_out(c, 0, x->dtype, r, dims, &y)) != GE_OK) return st;
  if (y->numel == 0) return GE_OK;
  if (r == 0) {
    ge__hc_dt_cpy(y->data, 0, x->data, 0, es);
    return GE_OK;
  }
  ge__hc_dt_strides(r, x->dims, xstr);
  ge__hc_pad_rows(x, y, begin, xstr, m, cval, es);
  return GE_OK;
}

/* Shape's start, whether end is given and its value. */
static void ge__hc_dt_parse_shape(const ge_kernel_ctx *c, ge__hc_params *p) {
  p->i[0] = ge_node_attr_int(c->node, "start", 0);
  p->i[1] = ge_node_attr(c->node, "end") != NULL;
  p->i[2] = ge_node_attr_int(c->node, "end", 0);
}

static ge_status ge__hc_shape(ge_kernel_ctx *c) {
  const ge_value *x = ge__hc_dt_in(c, 0);
  int64_t r, start, end, n, i;
  ge_value *y;
  ge__hc_params local;
  const ge__hc_params *p;
  ge_status st;
  GE__HC_DT_PARAMS(c, ge__hc_dt_parse_shape, p, local);
  if (!x) return ge__hc_dt_missing(c, 0);
  r = x->rank;
  start = p->i[0];
  end = p->i[1] ? p->i[2] : r;
  if (start < 0) start += r;
  if (end < 0) end += r;
  start = start < 0 ? 0 : start > r ? r : start;
  end = end < 0 ? 0 : end > r ? r : end;
  n = end > start ? end - start : 0;
  if ((st = ge__hc_dt_out(c, 0, GE_DTYPE_INT64, 1, &n, &y)) != GE_OK) return st;
  for (i = 0; i < n; i++) ((int64_t *)y->data)[i] = x->dims[start + i];
  return GE_OK;
}

static ge_status ge__hc_size(ge_kernel_ctx *c) {
  const ge_value *x = ge__hc_dt_in(c, 0);
  ge_value *y;
  ge_status st;
  if (!x) return ge__hc_dt_missing(c, 0);
  if ((st = ge__hc_dt_out(c, 0, GE_DTYPE_INT64, 0, NULL, &y)) != GE_OK) return st;
  ((int64_t *)y->data)[0] = x->numel;
  return GE_OK;
}

/* Fills `bytes` (a multiple of es) with copies of the es bytes at val:
 * memset when they are all one byte, else the filled part copied onto the
 * rest, doubling (a few memcpy calls, not one per element). */
static void ge__hc_dt_fill(void *dst, size_t bytes, const void *val, size_t es) {
  const unsigned char *v = (const unsigned char *)val;
  size_t done = es, k;
  for (k = 1; k < es && v[k] == v[0]; k++) {
  }
  if (bytes == 0) return;
  if (k == es) {
    memset(dst, v[0], bytes);
    return;
  }
  memcpy(dst, val, es);
  while (done < bytes) {
    size_t n = done < bytes - done ? done : bytes - done;
    memcpy((char *)dst + done, dst, n);
    done += n;
  }
}

/* ConstantOfShape: attribute value (a one-element tensor; default float 0). */
static ge_status ge__hc_constant_of_shape(ge_kernel_ctx *c) {
  const ge_value *s = ge__hc_dt_in(c, 0);
  const ge_attr *a = ge_node_attr(c->node, "value");
  int64_t dims[GE_MAX_RANK];
  int32_t n, i;
  float zero = 0.0f;
  const void *val = &zero;
  ge_dtype dt = GE_DTYPE_FLOAT32;
  size_t es;
  ge_value *y;
  ge_status st;
  if (!s) return ge__hc_dt_missing(c, 0);
  if ((st = ge__hc_dt_ints(c, s, "shape", dims, GE_MAX_RANK, &n)) != GE_OK) return st;
  for (i = 0; i < n; i++)
    if (dims[i] < 0) return ge_kernel_error(c, GE_ERR_INVALID, "shape[%ld] is %lld", (long)i, (long long)dims[i]);
  if (a) {
    if (a->type != GE_ATTR_TENSOR || !a->v.t || ge_tensor_numel(a->v.t) != 1 || ge__hc_dt_esize(a->v.t->dtype) == 0 ||
        a->v.t->nbytes < ge__hc_dt_esize(a->v.t->dtype))
      return ge_kernel_error(c, GE_ERR_INVALID, "value must be a tensor of one element");
    dt = a->v.t->dtype;
    val = a->v.t->data;
  }
  if ((st = ge__hc_dt_out(c, 0, dt, n, dims, &y)) != GE_OK) return st;
  es = ge__hc_dt_esize(dt);
  ge__hc_dt_fill(y->data, (size_t)y->numel * es, val, es);
  return GE_OK;
}

static ge_status ge__hc_range(ge_kernel_ctx *c) {
  const ge_value *s = ge__hc_dt_in(c, 0), *l = ge__hc_dt_in(c, 1), *d = ge__hc_dt_in(c, 2);
  int64_t n, i;
  ge_value *y;
  ge_status st;
  if (!s || !l || !d) return ge__hc_dt_missing(c, !s ? 0 : !l ? 1 : 2);
  if (l->dtype != s->dtype || d->dtype != s->dtype) return ge_kernel_error(c, GE_ERR_SHAPE, "start, limit and delta differ in dtype");
  if (s->numel != 1 || l->numel != 1 || d->numel != 1) return ge_kernel_error(c, GE_ERR_SHAPE, "start, limit and delta must be scalars");
  if (ge__hc_is_float(s->dtype)) {
    double a = ge__hc_get_f(s, 0), b = ge__hc_get_f(l, 0), e = ge__hc_get_f(d, 0), q;
    if (!isfinite(a) || !isfinite(b) || !isfinite(e) || e == 0)
      return ge_kernel_error(c, GE_ERR_INVALID, "start %g, limit %g, delta %g", a, b, e);
    q = ceil((b - a) / e);
    if (q > 4503599627370496.0) return ge_kernel_error(c, GE_ERR_SHAPE, "range of %g elements is too large", q);
    n = q > 0 ? (int64_t)q : 0;
    if ((st = ge__hc_dt_out(c, 0, s->dtype, 1, &n, &y)) != GE_OK) return st;
    for (i = 0; i < n; i++) ge__hc_set_f(y, i, a + (double)i * e);
  } else if (ge__hc_dt_is_int(s->dtype)) {
    int64_t a = ge__hc_get_i(s, 0), b = ge__hc_get_i(l, 0), e = ge__hc_get_i(d, 0);
    uint64_t span, step, un = 0;
    if (s->dtype == GE_DTYPE_UINT64) return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "Range of uint64");
    if (e == 0) return ge_kernel_error(c, GE_ERR_INVALID, "delta is 0");
    if (e > 0 && b > a) {
      span = (uint64_t)b - (uint64_t)a;
      step = (uint64_t)e;
      un = (span - 1) / step + 1;
    } else if (e < 0 && b < a) {
      span = (uint64_t)a - (uint64_t)b;
      step = (uint64_t)0 - (uint64_t)e;
      un = (span - 1) / step + 1;
    }
    if (un > (uint64_t)INT64_MAX) return ge_kernel_error(c, GE_ERR_SHAPE, "range is too large");
    n = (int64_t)un;
    if ((st = ge__hc_dt_out(c, 0, s->dtype, 1, &n, &y)) != GE_OK) return st;
    for (i = 0; i < n; i++) ge__hc_set_i(y, i, (int64_t)((uint64_t)a + (uint64_t)i * (uint64_t)e));
  } else {
    return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "Range of %s", ge_dtype_name(s->dtype));
  }
  return GE_OK;
}

/* DepthToSpace (DCR or CRD) and SpaceToDepth share the checks. */
static ge_status ge__hc_dt_block(ge_kernel_ctx *c, const ge_value *x, int64_t *b) {
  if (x->rank != 4) return ge_kernel_error(c, GE_ERR_SHAPE, "input must have rank 4 (it has %ld)", (long)x->rank);
  if (!ge_node_attr(c->node, "blocksize")) return ge_kernel_error(c, GE_ERR_INVALID, "blocksize is missing");
  *b = ge_node_attr_int(c->node, "blocksize", 0);
  if (*b < 1 || *b > 3037000499LL) return ge_kernel_error(c, GE_ERR_INVALID, "blocksize %lld", (long long)*b);
  return GE_OK;
}

static ge_status ge__hc_depth_to_space(ge_kernel_ctx *c) {
  const ge_value *x = ge__hc_dt_in(c, 0);
  const char *mode = ge_node_attr_string(c->node, "mode", "DCR");
  int64_t b, N, C, H, W, oc, dims[4], n, ch, h, i, w, j, k = 0;
  int crd;
  size_t es;
  ge_value *y;
  ge_status st;
  if (!x) return ge__hc_dt_missing(c, 0);
  if ((st = ge__hc_dt_block(c, x, &b)) != GE_OK) return st;
  if (strcmp(mode, "DCR") == 0) crd = 0;
  else if (strcmp(mode, "CRD") == 0) crd = 1;
  else return ge_kernel_error(c, GE_ERR_INVALID, "unknown mode '%.40s'", mode);
  N = x->dims[0], C = x->dims[1], H = x->dims[2], W = x->dims[3];
  if (C % (b * b)) return ge_kernel_error(c, GE_ERR_SHAPE, "channels %lld are not a multiple of blocksize^2", (long long)C);
  oc = C / (b * b);
  dims[0] = N;
  dims[1] = oc;
  if (!ge__hc_dt_mul(H, b, &dims[2]) || !ge__hc_dt_mul(W, b, &dims[3])) return ge_kernel_error(c, GE_ERR_SHAPE, "output dims do not fit int64");
  if ((st = ge__hc_dt_out(c, 0, x->dtype, 4, dims, &y)) != GE_OK) return st;
  if (y->numel == 0) return GE_OK;
  es = ge__hc_dt_esize(x->dtype);
  for (n = 0; n < N; n++)
    for (ch = 0; ch < oc; ch++)
      for (h = 0; h < H; h++)
        for (i = 0; i < b; i++)
          for (w = 0; w < W; w++)
            for (j = 0; j < b; j++) {
              int64_t src = crd ? ch * b * b + i * b + j : (i * b + j) * oc + ch;
              ge__hc_dt_cpy(y->data, k++, x->data, ((n * C + src) * H + h) * W + w, es);
            }
  return GE_OK;
}

static ge_status ge__hc_space_to_depth(ge_kernel_ctx *c) {
  const ge_value *x = ge__hc_dt_in(c, 0);
  int64_t b, N, C, H, W, dims[4], n, ch, h, i, w, j;
  size_t es;
  ge_value *y;
  ge_status st;
  if (!x) return ge__hc_dt_missing(c, 0);
  if ((st = ge__hc_dt_block(c, x, &b)) != GE_OK) return st;
  N = x->dims[0], C = x->dims[1], H = x->dims[2], W = x->dims[3];
  if (H % b || W % b) return ge_kernel_error(c, GE_ERR_SHAPE, "height %lld and width %lld must be multiples of blocksize %lld",
                                             (long long)H, (long long)W, (long long)b);
  dims[0] = N;
  if (!ge__hc_dt_mul(C, b * b, &dims[1])) return ge_kernel_error(c, GE_ERR_SHAPE, "output dims do not fit int64");
  dims[2] = H / b;
  dims[3] = W / b;
  if ((st = ge__hc_dt_out(c, 0, x->dtype, 4, dims, &y)) != GE_OK) return st;
  if (y->numel == 0) return GE_OK;
  es = ge__hc_dt_esize(x->dtype);
  for (n = 0; n < N; n++)
    for (ch = 0; ch < C; ch++)
      for (h = 0; h < dims[2]; h++)
        for (i = 0; i < b; i++)
          for (w = 0; w < dims[3]; w++)
            for (j = 0; j < b; j++) {
              int64_t oc = (i * b + j) * C + ch;
              ge__hc_dt_cpy(y->data, ((n * dims[1] + oc) * dims[2] + h) * dims[3] + w, x->data, ((n * C + ch) * H + h * b + i) * W + w * b + j, es);
            }
  return GE_OK;
}

static ge_status ge__hc_one_hot(ge_kernel_ctx *c) {
  const ge_value *ind = ge__hc_dt_in(c, 0), *dv = ge__hc_dt_in(c, 1), *vals = ge__hc_dt_in(c, 2);
  int64_t depth, dims[GE_MAX_RANK], outer, inner, o, t, k;
  int32_t axis = 0, r, i;
  size_t es;
  ge_value *y;
  ge_status st;
  if (!ind || !dv || !vals) return ge__hc_dt_missing(c, !ind ? 0 : !dv ? 1 : 2);
  if (!ge__hc_dt_is_real(ind->dtype) || !ge__hc_dt_is_real(dv->dtype))
    return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "indices and depth must be numbers");
  if (dv->numel != 1) return ge_kernel_error(c, GE_ERR_SHAPE, "depth must hold one value");
  if (vals->numel != 2) return ge_kernel_error(c, GE_ERR_SHAPE, "values must hold two values (off, on)");
  if (ge__hc_is_float(dv->dtype)) {
    double f = ge__hc_get_f(dv, 0);
    if (!(f >= 0 && f < 4611686018427387904.0)) return ge_kernel_error(c, GE_ERR_INVALID, "depth %g", f);
    depth = (int64_t)f;
  } else {
    depth = ge__hc_dt_idx(dv, 0);
    if (depth < 0) return ge_kernel_error(c, GE_ERR_INVALID, "depth %lld", (long long)depth);
  }
  r = ind->rank;
  if (r + 1 > GE_MAX_RANK) return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "output rank is beyond %d", GE_MAX_RANK);
  if ((st = ge__hc_dt_axis(c, ge_node_attr_int(c->node, "axis", -1), r + 1, &axis)) != GE_OK) return st;
  for (i = 0; i < axis; i++) dims[i] = ind->dims[i];
  dims[axis] = depth;
  for (i = axis; i < r; i++) dims[i + 1] = ind->dims[i];
  if ((st = ge__hc_dt_out(c, 0, vals->dtype, r + 1, dims, &y)) != GE_OK) return st;
  if (y->numel == 0) return GE_OK;
  es = ge__hc_dt_esize(vals->dtype);
  for (k = 0; k < y->numel; k++) ge__hc_dt_cpy(y->data, k, vals->data, 0, es);
  outer = ge__hc_dt_prod(ind->dims, 0, axis);
  inner = ge__hc_dt_prod(ind->dims, axis, r);
  for (o = 0; o < outer; o++)
    for (t = 0; t < inner; t++) {
      int64_t v;
      if (ge__hc_is_float(ind->dtype)) {
        double f = ge__hc_get_f(ind, o * inner + t);
        if (!(f > -(double)depth - 1 && f < (double)depth)) continue;
        v = (int64_t)f;
      } else {
        v = ge__hc_dt_idx(ind, o * inner + t);
      }
      if (!ge__hc_dt_fix(v, depth, &v)) continue; /* out of range: all off */
      ge__hc_dt_cpy(y->data, (o * depth + v) * inner + t, vals->data, 1, es);
    }
  return GE_OK;
}

/* TopK ordering: element ids along one axis slice of x. */
typedef struct ge__hc_dt_topk_ctx {
  const ge_value *x;
  int64_t base, stride;
  int largest;
} ge__hc_dt_topk_ctx;

static int ge__hc_dt_topk_before(const void *p, int64_t a, int64_t b) {
  const ge__hc_dt_topk_ctx *t = (const ge__hc_dt_topk_ctx *)p;
  int r = ge__hc_dt_cmp(t->x, t->base + a * t->stride, t->x, t->base + b * t->stride);
  return t->largest ? r > 0 : r < 0;
}

/* ge__hc_dt_cmp on two float32 values. */
static int ge__hc_dt_cmp_f32(float x, float y) {
  int xn = x != x, yn = y != y;
  if (xn || yn) return xn - yn;
  return (x > y) - (x < y);
}

/* The first k ids of the stable sort of one float32 slice (k small): each
 * element, in index order, goes into a sorted list of the best k so far
 * after every element it does not beat (so ties keep the lower index
 * first), without sorting the rest. */
static void ge__hc_dt_topk_f32(const float *x, int64_t d, int64_t stride, int64_t k, int largest, int64_t *best) {
  int64_t j, n = 0, p;
  for (j = 0; j < d; j++) {
    float v = x[j * stride];
    for (p = n; p > 0; p--) {
      int r = ge__hc_dt_cmp_f32(v, x[best[p - 1] * stride]);
      if (!(largest ? r > 0 : r < 0)) break;
    }
    if (p >= k) continue;
    if (n < k) n++;
    memmove(best + p + 1, best + p, (size_t)(n - 1 - p) * sizeof *best);
    best[p] = j;
  }
}

/* TopK: k from input 1 (opset 10) or attribute k (opset 1); always sorted,
 * ties keep the lower index first. */
/* TopK's axis, largest, whether attribute k is given and its value; list
 * 0 the K input when a Const. */
static void ge__hc_dt_parse_topk(const ge_kernel_ctx *c, ge__hc_params *p) {
  p->i[0] = ge_node_attr_int(c->node, "axis", -1);
  p->i[1] = ge_node_attr_int(c->node, "largest", 1) != 0;
  p->i[2] = ge_node_attr(c->node, "k") != NULL;
  p->i[3] = ge_node_attr_int(c->node, "k", 0);
  ge__hc_param_input_ints(c, p, 0, 1);
}

static ge_status ge__hc_topk(ge_kernel_ctx *c) {
  const ge_value *x = ge__hc_dt_in(c, 0), *kv = ge__hc_dt_in(c, 1);
  int64_t k, d, dims[GE_MAX_RANK], outer, inner, o, t, j, *order;
  int32_t axis = 0;
  size_t es;
  ge__hc_dt_topk_ctx ctx;
  ge_value *y, *yi;
  ge__hc_params local;
  const ge__hc_params *p;
  ge_status st;
  void *room;
  if (!(p = ge__hc_params_of(c, ge__hc_dt_parse_topk, &local))) return GE_ERR_NOMEM;
  if (ge_kernel_preparing(c)) /* the sort's room, from the shape */
    return x && x->rank >= 1 && ge__hc_axis(p->i[0], x->rank, &axis) && x->dims[axis] <= GE__HC_DT_MAX_BYTES / 16
               ? ge__hc_params_reserve(c, (size_t)x->dims[axis] * 2 * sizeof(int64_t))
               : GE_OK;
  if (!x) return ge__hc_dt_missing(c, 0);
  if (c->num_outputs < 2) return ge_kernel_error(c, GE_ERR_INVALID, "TopK needs two outputs");
  if (!ge__hc_dt_is_real(x->dtype)) return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "TopK of %s", ge_dtype_name(x->dtype));
  if (x->rank < 1) return ge_kernel_error(c, GE_ERR_SHAPE, "input must have rank >= 1");
  if (kv && p->n[0] == 1) {
    k = p->v[0][0];
  } else if (kv) {
    if ((st = ge__hc_dt_scalar_i(c, kv, "K", &k)) != GE_OK) return st;
  } else {
    if (!p->i[2]) return ge__hc_dt_missing(c, 1);
    k = p->i[3];
  }
  if ((st = ge__hc_dt_axis(c, p->i[0], x->rank, &axis)) != GE_OK) return st;
  d = x->dims[axis];
  if (k < 0 || k > d) return ge_kernel_error(c, GE_ERR_INVALID, "k %lld is outside [0, %lld]", (long long)k, (long long)d);
  memcpy(dims, x->dims, (size_t)x->rank * sizeof *dims);
  dims[axis] = k;
  if ((st = ge__hc_dt_out(c, 0, x->dtype, x->rank, dims, &y)) != GE_OK) return st;
  if ((st = ge__hc_dt_out(c, 1, GE_DTYPE_INT64, x->rank, dims, &yi)) != GE_OK) return st;
  if (y->numel == 0) return GE_OK;
  room = ge__hc_params_scratch(c, p, (size_t)d * 2 * sizeof *order);
  order = room ? (int64_t *)room : (int64_t *)malloc((size_t)d * 2 * sizeof *order);
  if (!order) return ge_kernel_error(c, GE_ERR_NOMEM, "out of memory");
  es = ge__hc_dt_esize(x->dtype);
  outer = ge__hc_dt_prod(x->dims, 0, axis);
  inner = ge__hc_dt_prod(x->dims, axis + 1, x->rank);
  ctx.x = x;
  ctx.stride = inner;
  ctx.largest = (int)p->i[1];
  for (o = 0; o < outer; o++)
    for (t = 0; t < inner; t++) {
      ctx.base = o * d * inner + t;
      if (x->dtype == GE_DTYPE_FLOAT32 && k <= 64) {
        ge__hc_dt_topk_f32((const float *)x->data + ctx.base, d, inner, k, ctx.largest, order);
      } else {
        for (j = 0; j < d; j++) order[j] = j;
        ge__hc_dt_msort(order, order + d, d, ge__hc_dt_topk_before, &ctx);
      }
      for (j = 0; j < k; j++) {
        int64_t dst = (o * k + j) * inner + t;
        ge__hc_dt_cpy(y->data, dst, x->data, ctx.base + order[j] * inner, es);
        ((int64_t *)yi->data)[dst] = order[j];
      }
    }
  if (!room) free(order);
  return GE_OK;
}

/* NonZero: int64 [rank, count] of the non-zero positions in row-major
 * order (a scalar counts as rank 1, like numpy). */
static ge_status ge__hc_non_zero(ge_kernel_ctx *c) {
  const ge_value *x = ge__hc_dt_in(c, 0);
  int64_t nz = 0, k, j = 0, dims[2];
  int32_t d, r;
  ge__hc_iter it;
  ge_value *y;
  ge_status st;
  if (!x) return ge__hc_dt_missing(c, 0);
  if (!ge__hc_dt_is_real(x->dtype) && x->dtype != GE_DTYPE_STRING)
    return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "NonZero of %s", ge_dtype_name(x->dtype));
  for (k = 0; k < x->numel; k++) nz += ge__hc_dt_nonzero(x, k);
  r = x->rank > 0 ? x->rank : 1;
  dims[0] = r;
  dims[1] = nz;
  if ((st = ge__hc_dt_out(c, 0, GE_DTYPE_INT64, 2, dims, &y)) != GE_OK) return st;
  ge__hc_iter_init(&it, x->rank, x->dims, 0);
  for (k = 0; k < x->numel; k++) {
    if (ge__hc_dt_nonzero(x, k)) {
      for (d = 0; d < r; d++) ((int64_t *)y->data)[d * nz + j] = x->rank ? it.idx[d] : 0;
      j++;
    }
    ge__hc_step(&it);
  }
  return GE_OK;
}

/* Trilu: keeps j - i >= k (upper) or j - i <= k (lower) in the last two
 * dims; k from input 1, default 0. */
static ge_status ge__hc_trilu(ge_kernel_ctx *c) {
  const ge_value *x = ge__hc_dt_in(c, 0), *kv = ge__hc_dt_in(c, 1);
  int64_t k = 0, R, C, nb, b, i, j;
  int upper = ge_node_attr_int(c->node, "upper", 1) != 0;
  size_t es;
  ge_value *y;
  ge_status st;
  if (!x) return ge__hc_dt_missing(c, 0);
  if (x->rank < 2) return ge_kernel_error(c, GE_ERR_SHAPE, "input must have rank >= 2");
  if (kv && (st = ge__hc_dt_scalar_i(c, kv, "k", &k)) != GE_OK) return st;
  if ((st = ge__hc_dt_copy_data(c, x, &y)) != GE_OK) return st;
  if (y->numel == 0) return GE_OK;
  es = ge__hc_dt_esize(x->dtype);
  R = x->dims[x->rank - 2];
  C = x->dims[x->rank - 1];
  nb = y->numel / (R * C);
  for (b = 0; b < nb; b++)
    for (i = 0; i < R; i++)
      for (j = 0; j < C; j++)
        if (upper ? j - i < k : j - i > k) ge__hc_dt_zero(y, (b * R + i) * C + j, es);
  return GE_OK;
}

static ge_status ge__hc_eye_like(ge_kernel_ctx *c) {
  const ge_value *x = ge__hc_dt_in(c, 0);
  int64_t k = ge_node_attr_int(c->node, "k", 0), dt, i;
  ge_value *y;
  ge_status st;
  if (!x) return ge__hc_dt_missing(c, 0);
  if (x->rank != 2) return ge_kernel_error(c, GE_ERR_SHAPE, "input must have rank 2 (it has %ld)", (long)x->rank);
  dt = ge_node_attr_int(c->node, "dtype", x->dtype);
  if (dt <= 0 || dt >= GE_DTYPE_COUNT || !ge__hc_dt_is_real((ge_dtype)dt))
    return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "EyeLike of dtype %lld", (long long)dt);
  if ((st = ge__hc_dt_out(c, 0, (ge_dtype)dt, 2, x->dims, &y)) != GE_OK) return st;
  if (y->nbytes) memset(y->data, 0, y->nbytes);
  if (k >= x->dims[1] || k <= -x->dims[0]) return GE_OK;
  for (i = k < 0 ? -k : 0; i < x->dims[0] && i + k < x->dims[1]; i++) ge__hc_set_f(y, i * x->dims[1] + i + k, 1.0);
  return GE_OK;
}

/* Compress: slices (or, without axis, elements of the flattened input)
 * where condition is true; a short condition drops the rest. */
static ge_status ge__hc_compress(ge_kernel_ctx *c) {
  const ge_value *x = ge__hc_dt_in(c, 0), *cond = ge__hc_dt_in(c, 1);
  int has_axis = ge_node_attr(c->node, "axis") != NULL;
  int64_t L, count = 0, i, outer = 1, inner = 1, o, j, dims[GE_MAX_RANK];
  int32_t axis = 0;
  size_t es;
  ge_value *y;
  ge_status st;
  if (!x || !cond) return ge__hc_dt_missing(c, x ? 1 : 0);
  if (cond->rank != 1) return ge_kernel_error(c, GE_ERR_SHAPE, "condition must be 1-D");
  if (!ge__hc_dt_is_real(cond->dtype)) return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "condition is %s", ge_dtype_name(cond->dtype));
  if (has_axis) {
    if ((st = ge__hc_dt_axis(c, ge_node_attr_int(c->node, "axis", 0), x->rank, &axis)) != GE_OK) return st;
    L = x->dims[axis];
  } else {
    L = x->numel;
  }
  for (i = 0; i < cond->numel; i++)
    if (ge__hc_dt_nonzero(cond, i)) {
      if (i >= L) return ge_kernel_error(c, GE_ERR_INVALID, "condition selects entry %lld of %lld", (long long)i, (long long)L);
      count++;
    }
  if (has_axis) {
    memcpy(dims, x->dims, (size_t)x->rank * sizeof *dims);
    dims[axis] = count;
    st = ge__hc_dt_out(c, 0, x->dtype, x->rank, dims, &y);
    outer = ge__hc_dt_prod(x->dims, 0, axis);
    inner = ge__hc_dt_prod(x->dims, axis + 1, x->rank);
  } else {
    st = ge__hc_dt_out(c, 0, x->dtype, 1, &count, &y);
  }
  if (st) return st;
  if (y->numel == 0) return GE_OK;
  es = ge__hc_dt_esize(x->dtype);
  for (o = 0; o < outer; o++)
    for (i = 0, j = 0; i < cond->numel && i < L; i++)
      if (ge__hc_dt_nonzero(cond, i)) {
        memcpy((char *)y->data + (size_t)((o * count + j) * inner) * es, (const char *)x->data + (size_t)((o * L + i) * inner) * es,
               (size_t)inner * es);
        j++;
      }
  return GE_OK;
}

/* Unique: slices along an axis (or elements) compared lexicographically. */
typedef struct ge__hc_dt_uniq_ctx {
  const ge_value *x;
  int64_t outer, L, inner;
  const int64_t *first;
} ge__hc_dt_uniq_ctx;

static int ge__hc_dt_uniq_cmp(const ge__hc_dt_uniq_ctx *u, int64_t a, int64_t b) {
  int64_t o, t;
  for (o = 0; o < u->outer; o++)
    for (t = 0; t < u->inner; t++) {
      int r = ge__hc_dt_cmp(u->x, (o * u->L + a) * u->inner + t, u->x, (o * u->L + b) * u->inner + t);
      if (r) return r;
    }
  return 0;
}

static int ge__hc_dt_uniq_before(const void *p, int64_t a, int64_t b) {
  return ge__hc_dt_uniq_cmp((const ge__hc_dt_uniq_ctx *)p, a, b) < 0;
}

static int ge__hc_dt_uniq_first_before(const void *p, int64_t a, int64_t b) {
  const ge__hc_dt_uniq_ctx *u = (const ge__hc_dt_uniq_ctx *)p;
  return u->first[a] < u->first[b];
}

static ge_status ge__hc_unique(ge_kernel_ctx *c) {
  const ge_value *x = ge__hc_dt_in(c, 0);
  int has_axis = ge_node_attr(c->node, "axis") != NULL, sorted = ge_node_attr_int(c->node, "sorted", 1) != 0;
  int64_t U = 0, p, i, o, dims[GE_MAX_RANK], *buf, *order, *tmp, *inv, *first, *counts, *rank, *gorder;
  int32_t axis = 0;
  size_t es;
  ge__hc_dt_uniq_ctx u;
  ge_value *y;
  ge_status st = GE_OK;
  if (!x) return ge__hc_dt_missing(c, 0);
  if (!ge__hc_dt_is_real(x->dtype) && x->dtype != GE_DTYPE_STRING)
    return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "Unique of %s", ge_dtype_name(x->dtype));
  u.x = x;
  if (has_axis) {
    if ((st = ge__hc_dt_axis(c, ge_node_attr_int(c->node, "axis", 0), x->rank, &axis)) != GE_OK) return st;
    u.outer = ge__hc_dt_prod(x->dims, 0, axis);
    u.L = x->dims[axis];
    u.inner = ge__hc_dt_prod(x->dims, axis + 1, x->rank);
    if (x->numel == 0) u.outer = u.inner = 0; /* L empty slices: all equal */
  } else {
    u.outer = u.inner = 1;
    u.L = x->numel;
  }
  if (u.L > GE__HC_DT_MAX_BYTES / 64) return ge_kernel_error(c, GE_ERR_SHAPE, "%lld slices are too many", (long long)u.L);
  buf = (int64_t *)malloc((size_t)u.L * 7 * sizeof *buf + 1);
  if (!buf) return ge_kernel_error(c, GE_ERR_NOMEM, "out of memory");
  order = buf, tmp = buf + u.L, inv = buf + 2 * u.L, first = buf + 3 * u.L, counts = buf + 4 * u.L;
  rank = buf + 5 * u.L, gorder = buf + 6 * u.L;
  for (i = 0; i < u.L; i++) order[i] = i;
  ge__hc_dt_msort(order, tmp, u.L, ge__hc_dt_uniq_before, &u);
  for (p = 0; p < u.L; p++) {
    if (p == 0 || ge__hc_dt_uniq_cmp(&u, order[p - 1], order[p]) != 0) {
      first[U] = order[p]; /* the stable sort puts the first occurrence first */
      counts[U++] = 0;
    }
    inv[order[p]] = U - 1;
    counts[U - 1]++;
  }
  for (i = 0; i < U; i++) gorder[i] = i;
  if (!sorted) {
    u.first = first;
    ge__hc_dt_msort(gorder, tmp, U, ge__hc_dt_uniq_first_before, &u);
  }
  for (i = 0; i < U; i++) rank[gorder[i]] = i;
  es = ge__hc_dt_esize(x->dtype);
  if (has_axis) {
    memcpy(dims, x->dims, (size_t)x->rank * sizeof *dims);
    dims[axis] = U;
    st = ge__hc_dt_out(c, 0, x->dtype, x->rank, dims, &y);
  } else {
    st = ge__hc_dt_out(c, 0, x->dtype, 1, &U, &y);
  }
  if (!st && y->numel)
    for (i = 0; i < U; i++)
      for (o = 0; o < u.outer; o++)
        memcpy((char *)y->data + (size_t)((o * U + i) * u.inner) * es,
               (const char *)x->data + (size_t)((o * u.L + first[gorder[i]]) * u.inner) * es, (size_t)u.inner * es);
  if (!st && c->num_outputs > 1 && (st = ge__hc_dt_out(c, 1, GE_DTYPE_INT64, 1, &U, &y)) == GE_OK)
    for (i = 0; i < U; i++) ((int64_t *)y->data)[i] = first[gorder[i]];
  if (!st && c->num_outputs > 2 && (st = ge__hc_dt_out(c, 2, GE_DTYPE_INT64, 1, &u.L, &y)) == GE_OK)
    for (i = 0; i < u.L; i++) ((int64_t *)y->data)[i] = rank[inv[i]];
  if (!st && c->num_outputs > 3 && (st = ge__hc_dt_out(c, 3, GE_DTYPE_INT64, 1, &U, &y)) == GE_OK)
    for (i = 0; i < U; i++) ((int64_t *)y->data)[i] = counts[gorder[i]];
  free(buf);
  return st;
}

/* NonMaxSuppression: per batch and class, boxes by decreasing score (ties:
 * lower index), dropping those whose IoU with a kept box exceeds the
 * threshold; output int64 [n, 3] of (batch, class, box). */
typedef struct ge__hc_dt_nms_ctx {
  const ge_value *scores;
  const float *f32; /* the scores when they are float32 (read directly), else NULL */
  int64_t base;
} ge__hc_dt_nms_ctx;

static int ge__hc_dt_nms_before(const void *p, int64_t a, int64_t b) {
  const ge__hc_dt_nms_ctx *n = (const ge__hc_dt_nms_ctx *)p;
  if (n->f32) return n->f32[n->base + a] > n->f32[n->base + b];
  return ge__hc_get_f(n->scores, n->base + a) > ge__hc_get_f(n->scores, n->base + b);
}

/* Corners (y1, x1, y2, x2) of box i of batch b. */
static void ge__hc_dt_nms_box(const ge_value *boxes, int64_t at, int center, double *bx) {
  double v[4];
  int k;
  for (k = 0; k < 4; k++) v[k] = ge__hc_get_f(boxes, at + k);
  if (center) { /* x_center, y_center, width, height */
    bx[0] = v[1] - v[3] / 2;
    bx[2] = v[1] + v[3] / 2;
    bx[1] = v[0] - v[2] / 2;
    bx[3] = v[0] + v[2] / 2;
  } else {
    bx[0] = v[0] < v[2] ? v[0] : v[2];
    bx[2] = v[0] < v[2] ? v[2] : v[0];
    bx[1] = v[1] < v[3] ? v[1] : v[3];
    bx[3] = v[1] < v[3] ? v[3] : v[1];
  }
}

static double ge__hc_dt_iou(const double *a, const double *b) {
  double ih = (a[2] < b[2] ? a[2] : b[2]) - (a[0] > b[0] ? a[0] : b[0]);
  double iw = (a[3] < b[3] ? a[3] : b[3]) - (a[1] > b[1] ? a[1] : b[1]);
  double aa = (a[2] - a[0]) * (a[3] - a[1]), ab = (b[2] - b[0]) * (b[3] - b[1]), inter;
  if (aa <= 0 || ab <= 0) return 0;
  inter = (ih > 0 ? ih : 0) * (iw > 0 ? iw : 0);
  return inter / (aa + ab - inter);
}

static ge_status ge__hc_non_max_suppression(ge_kernel_ctx *c) {
  const ge_value *boxes = ge__hc_dt_in(c, 0), *scores = ge__hc_dt_in(c, 1), *mv = ge__hc_dt_in(c, 2);
  const ge_value *iv = ge__hc_dt_in(c, 3), *sv = ge__hc_dt_in(c, 4);
  int64_t B, N, C, maxout = 0, keep, cap, count = 0, b, cl, i, p, q, *sel, *cand, dims[2];
  int64_t center = ge_node_attr_int(c->node, "center_point_box", 0);
  double iou = 0, thr = 0;
  ge__hc_dt_nms_ctx ctx;
  ge_value *y;
  ge_status st;
  if (!boxes || !scores) return ge__hc_dt_missing(c, boxes ? 1 : 0);
  if (!ge__hc_is_float(boxes->dtype) || !ge__hc_is_float(scores->dtype))
    return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "boxes and scores must be floating point");
  if (boxes->rank != 3 || boxes->dims[2] != 4) return ge_kernel_error(c, GE_ERR_SHAPE, "boxes must be [batch, boxes, 4]");
  if (scores->rank != 3 || scores->dims[0] != boxes->dims[0] || scores->dims[2] != boxes->dims[1])
    return ge_kernel_error(c, GE_ERR_SHAPE, "scores must be [batch, classes, boxes] matching boxes");
  if (center != 0 && center != 1) return ge_kernel_error(c, GE_ERR_INVALID, "center_point_box %lld", (long long)center);
  if (mv && mv->numel > 0 && (st = ge__hc_dt_scalar_i(c, mv, "max_output_boxes_per_class", &maxout)) != GE_OK) return st;
  if (iv && iv->numel > 0) {
    if (iv->numel != 1 || !ge__hc_dt_is_real(iv->dtype)) return ge_kernel_error(c, GE_ERR_SHAPE, "iou_threshold must be one number");
    iou = ge__hc_get_f(iv, 0);
  }
  if (sv && sv->numel > 0) {
    if (sv->numel != 1 || !ge__hc_dt_is_real(sv->dtype)) return ge_kernel_error(c, GE_ERR_SHAPE, "score_threshold must be one number");
    thr = ge__hc_get_f(sv, 0);
  }
  B = boxes->dims[0], N = boxes->dims[1], C = scores->dims[1];
  if (maxout < 0) maxout = 0;
  keep = maxout < N ? maxout : N;
  cap = 0;
  if (keep > 0 && B > 0 && C > 0) {
    if (!ge__hc_dt_mul(B, C, &cap) || !ge__hc_dt_mul(cap, keep, &cap) || cap > GE__HC_DT_MAX_BYTES / 24)
      return ge_kernel_error(c, GE_ERR_SHAPE, "too many boxes");
  }
  sel = (int64_t *)malloc((size_t)cap * 3 * sizeof *sel + (size_t)N * 2 * sizeof *sel + 1);
  if (!sel) return ge_kernel_error(c, GE_ERR_NOMEM, "out of memory");
  cand = sel + cap * 3;
  ctx.scores = scores;
  ctx.f32 = scores->dtype == GE_DTYPE_FLOAT32 ? (const float *)scores->data : NULL;
  for (b = 0; b < B && keep > 0; b++)
    for (cl = 0; cl < C; cl++) {
      int64_t nc = 0, start = count;
      ctx.base = (b * C + cl) * N;
      for (i = 0; i < N; i++)
        if (!sv || sv->numel == 0 || (ctx.f32 ? ctx.f32[ctx.base + i] : ge__hc_get_f(scores, ctx.base + i)) > thr)
          cand[nc++] = i;
      ge__hc_dt_msort(cand, cand + N, nc, ge__hc_dt_nms_before, &ctx);
      for (p = 0; p < nc && count - start < keep; p++) {
        double bi[4], bj[4];
        int ok = 1;
        ge__hc_dt_nms_box(boxes, (b * N + cand[p]) * 4, (int)center, bi);
        for (q = start; q < count && ok; q++) {
          ge__hc_dt_nms_box(boxes, (b * N + sel[q * 3 + 2]) * 4, (int)center, bj);
          if (ge__hc_dt_iou(bi, bj) > iou) ok = 0;
        }
        if (ok) {
          sel[count * 3] = b;
          sel[count * 3 + 1] = cl;
          sel[count * 3 + 2] = cand[p];
          count++;
        }
      }
    }
  dims[0] = count;
  dims[1] = 3;
  if ((st = ge__hc_dt_out(c, 0, GE_DTYPE_INT64, 2, dims, &y)) == GE_OK && count)
    memcpy(y->data, sel, (size_t)count * 3 * sizeof *sel);
  free(sel);
  return st;
}

static ge_status ge__hc_reverse_sequence(ge_kernel_ctx *c) {
  const ge_value *x = ge__hc_dt_in(c, 0), *lens = ge__hc_dt_in(c, 1);
  int64_t ta = ge_node_attr_int(c->node, "time_axis", 0), ba = ge_node_attr_int(c->node, "batch_axis", 1);
  int64_t xstr[GE_MAX_RANK], k, i;
  size_t es;
  ge__hc_iter it;
  ge_value *y;
  ge_status st;
  if (!x || !lens) return ge__hc_dt_missing(c, x ? 1 : 0);
  if (x->rank < 2) return ge_kernel_error(c, GE_ERR_SHAPE, "input must have rank >= 2");
  if (ta < 0 || ta > 1 || ba < 0 || ba > 1 || ta == ba)
    return ge_kernel_error(c, GE_ERR_INVALID, "time_axis %lld and batch_axis %lld must be 0 and 1", (long long)ta, (long long)ba);
  if (!ge__hc_dt_is_int(lens->dtype)) return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "sequence_lens are %s", ge_dtype_name(lens->dtype));
  if (lens->rank != 1 || lens->dims[0] != x->dims[ba])
    return ge_kernel_error(c, GE_ERR_SHAPE, "sequence_lens must be [%lld]", (long long)x->dims[ba]);
  for (i = 0; i < lens->numel; i++)
    if (ge__hc_dt_idx(lens, i) < 0 || ge__hc_dt_idx(lens, i) > x->dims[ta])
      return ge_kernel_error(c, GE_ERR_INVALID, "sequence length %lld is outside [0, %lld]", (long long)ge__hc_dt_idx(lens, i),
                             (long long)x->dims[ta]);
  if ((st = ge__hc_dt_out(c, 0, x->dtype, x->rank, x->dims, &y)) != GE_OK) return st;
  es = ge__hc_dt_esize(x->dtype);
  ge__hc_dt_strides(x->rank, x->dims, xstr);
  ge__hc_iter_init(&it, x->rank, x->dims, 0);
  for (k = 0; k < y->numel; k++) {
    int64_t t = it.idx[ta], len = ge__hc_dt_idx(lens, it.idx[ba]);
    ge__hc_dt_cpy(y->data, k, x->data, t < len ? k + (len - 1 - 2 * t) * xstr[ta] : k, es);
    ge__hc_step(&it);
  }
  return GE_OK;
}

/* Constant: value (tensor), value_float(s), value_int(s), value_string(s).
 * String outputs point at the attribute's strings, which the graph owns. */
static ge_status ge__hc_constant(ge_kernel_ctx *c) {
  const ge_attr *a;
  int64_t n, i;
  ge_value *y;
  ge_status st;
  if ((a = ge_node_attr(c->node, "value")) != NULL) {
    const ge_tensor *t = a->type == GE_ATTR_TENSOR ? a->v.t : NULL;
    size_t es = t ? ge__hc_dt_esize(t->dtype) : 0;
    if (!t || es == 0 || t->rank < 0 || t->rank > GE_MAX_RANK || (n = ge_tensor_numel(t)) < 0 || (n && !t->data) ||
        t->nbytes < (size_t)n * es)
      return ge_kernel_error(c, GE_ERR_INVALID, "value is not a usable tensor");
    if ((st = ge__hc_dt_out(c, 0, t->dtype, t->rank, t->dims, &y)) != GE_OK) return st;
    if (n) memcpy(y->data, t->data, (size_t)n * es);
  } else if ((a = ge_node_attr(c->node, "value_float")) != NULL) {
    if ((st = ge__hc_dt_out(c, 0, GE_DTYPE_FLOAT32, 0, NULL, &y)) != GE_OK) return st;
    ((float *)y->data)[0] = (float)ge_node_attr_float(c->node, "value_float", 0);
  } else if ((a = ge_node_attr(c->node, "value_floats")) != NULL) {
    n = a->type == GE_ATTR_FLOATS ? a->count : 0;
    if ((st = ge__hc_dt_out(c, 0, GE_DTYPE_FLOAT32, 1, &n, &y)) != GE_OK) return st;
    for (i = 0; i < n; i++) ((float *)y->data)[i] = (float)a->v.floats[i];
  } else if ((a = ge_node_attr(c->node, "value_int")) != NULL) {
    if ((st = ge__hc_dt_out(c, 0, GE_DTYPE_INT64, 0, NULL, &y)) != GE_OK) return st;
    ((int64_t *)y->data)[0] = ge_node_attr_int(c->node, "value_int", 0);
  } else if ((a = ge_node_attr(c->node, "value_ints")) != NULL) {
    n = a->type == GE_ATTR_INTS ? a->count : 0;
    if ((st = ge__hc_dt_out(c, 0, GE_DTYPE_INT64, 1, &n, &y)) != GE_OK) return st;
    for (i = 0; i < n; i++) ((int64_t *)y->data)[i] = a->v.ints[i];
  } else if ((a = ge_node_attr(c->node, "value_string")) != NULL) {
    const char *s = a->type == GE_ATTR_STRING ? a->v.s : "";
    if ((st = ge__hc_dt_out(c, 0, GE_DTYPE_STRING, 0, NULL, &y)) != GE_OK) return st;
    memcpy(y->data, &s, sizeof s);
  } else if ((a = ge_node_attr(c->node, "value_strings")) != NULL) {
    n = a->type == GE_ATTR_STRINGS ? a->count : 0;
    if ((st = ge__hc_dt_out(c, 0, GE_DTYPE_STRING, 1, &n, &y)) != GE_OK) return st;
    if (n) memcpy(y->data, a->v.strings, (size_t)n * sizeof(char *));
  } else if (ge_node_attr(c->node, "sparse_value")) {
    return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "sparse_value is not supported");
  } else {
    return ge_kernel_error(c, GE_ERR_INVALID, "no value attribute");
  }
  return GE_OK;
}

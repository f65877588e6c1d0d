/* ge_engines/host_cpu.h — DNN_VM_HOST_CPU, the reference engine.
 *
 * Part of ge. Kernels with ONNX semantics (default domain, opsets up to 18)
 * for the ops ge supports, in every dtype the ONNX tests use. They are
 * written to be obviously right rather than fast: they are the oracle every
 * faster kernel is tested against. Include after (or instead of) ge_graph.h;
 * define GE_HOST_CPU_IMPLEMENTATION (or GE_IMPLEMENTATION) in one
 * translation unit for the implementation.
 *
 *   ge_kernel_fn k = ge_host_cpu_kernel(node);   NULL: not supported here
 *
 * Kernels follow the kernel interface of ge_graph.h (ge_kernel_ctx). They
 * are thread-safe: no state outside the context.
 */
#ifndef GE_HOST_CPU_H
#define GE_HOST_CPU_H

#include "ge_graph.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The kernel for a node (by op type, default domain), or NULL. */
GE_API ge_kernel_fn ge_host_cpu_kernel(const ge_node *n);
/* Op types with a kernel, for listing: NULL past the end. */
GE_API const char *ge_host_cpu_op(uint32_t i);

/* The engine: DNN_VM_HOST_CPU, cost 10, host runtime; it supports every op
 * with a kernel here. Its original-graph optimiser folds constants. */
GE_API const ge_engine *ge_host_cpu_engine(void);

/* Constant folding (seed 000 §4.5.9): evaluates, in topological order, every
 * node whose inputs are all Const and replaces it by Const nodes, so chains
 * fold. A node is left alone when its outputs would exceed both max_bytes
 * (0: GE_HOST_CPU_FOLD_MAX_BYTES) and the size of its inputs — weights are
 * not blown up — or when it has control edges, subgraphs, a pinned engine,
 * or its kernel fails (the run reports that). *folded grows by the count. */
#define GE_HOST_CPU_FOLD_MAX_BYTES ((size_t)64 * 1024)
GE_API ge_status ge_host_cpu_fold_constants(ge_graph *g, size_t max_bytes, uint32_t *folded, ge_error *err);

#ifdef __cplusplus
}
#endif
#endif /* GE_HOST_CPU_H */

#if defined(GE_IMPLEMENTATION) || defined(GE_HOST_CPU_IMPLEMENTATION)
#ifndef GE_HOST_CPU_IMPLEMENTATION_DONE
#define GE_HOST_CPU_IMPLEMENTATION_DONE

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------ helpers */

/* Helpers shared by the kernel families; each family uses some of them. */
#if defined(__GNUC__) || defined(__clang__)
#define GE__HC_HELPER static __attribute__((unused))
#else
#define GE__HC_HELPER static
#endif

/* IEEE binary16 (ge_graph.h has it) and bfloat16 <-> float (round to
 * nearest even). */
#define ge__hc_h2f ge_half_to_float
#define ge__hc_f2h ge_float_to_half

GE__HC_HELPER float ge__hc_bf2f(uint16_t b) {
  uint32_t x = (uint32_t)b << 16;
  float f;
  memcpy(&f, &x, 4);
  return f;
}

GE__HC_HELPER uint16_t ge__hc_f2bf(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  if ((x & 0x7FFFFFFF) > 0x7F800000) return (uint16_t)((x >> 16) | 0x40); /* NaN stays NaN */
  x += 0x7FFF + ((x >> 16) & 1);
  return (uint16_t)(x >> 16);
}

/* x truncated toward zero and saturated to [lo, hi]; NaN gives 0 (a plain
 * C cast of an out-of-range double is undefined). */
GE__HC_HELPER double ge__hc_sat(double x, double lo, double hi) {
  if (x != x) return 0;
  x = x < 0 ? ceil(x) : floor(x);
  return x < lo ? lo : x > hi ? hi : x;
}

/* Element i of a numeric value as double / int64 (any dtype but string;
 * float to int truncates and saturates, NaN gives 0). */
GE__HC_HELPER double ge__hc_get_f(const ge_value *v, int64_t i) {
  ge_tensor t;
  memset(&t, 0, sizeof t);
  t.dtype = v->dtype;
  t.data = v->data;
  return ge_tensor_get_float(&t, i);
}

GE__HC_HELPER int64_t ge__hc_get_i(const ge_value *v, int64_t i) {
  ge_tensor t;
  memset(&t, 0, sizeof t);
  t.dtype = v->dtype;
  t.data = v->data;
  return ge_tensor_get_int(&t, i);
}

/* Stores x as element i of v, converting to v's dtype (ONNX Cast rules for
 * float -> int: truncation toward zero; out of range saturates). */
GE__HC_HELPER void ge__hc_set_f(ge_value *v, int64_t i, double x) {
  void *p = v->data;
  switch (v->dtype) {
  case GE_DTYPE_FLOAT32: ((float *)p)[i] = (float)x; break;
  case GE_DTYPE_FLOAT64: ((double *)p)[i] = x; break;
  case GE_DTYPE_FLOAT16: ((uint16_t *)p)[i] = ge__hc_f2h((float)x); break;
  case GE_DTYPE_BFLOAT16: ((uint16_t *)p)[i] = ge__hc_f2bf((float)x); break;
  case GE_DTYPE_INT8: ((int8_t *)p)[i] = (int8_t)ge__hc_sat(x, -128, 127); break;
  case GE_DTYPE_INT16: ((int16_t *)p)[i] = (int16_t)ge__hc_sat(x, -32768, 32767); break;
  case GE_DTYPE_INT32: ((int32_t *)p)[i] = (int32_t)ge__hc_sat(x, -2147483648.0, 2147483647.0); break;
  case GE_DTYPE_INT64: ((int64_t *)p)[i] = (int64_t)ge__hc_sat(x, -9223372036854775808.0, 9223372036854774784.0); break;
  case GE_DTYPE_UINT8: ((uint8_t *)p)[i] = (uint8_t)ge__hc_sat(x, 0, 255); break;
  case GE_DTYPE_BOOL: ((uint8_t *)p)[i] = x != 0; break;
  case GE_DTYPE_UINT16: ((uint16_t *)p)[i] = (uint16_t)ge__hc_sat(x, 0, 65535); break;
  case GE_DTYPE_UINT32: ((uint32_t *)p)[i] = (uint32_t)ge__hc_sat(x, 0, 4294967295.0); break;
  case GE_DTYPE_UINT64: ((uint64_t *)p)[i] = (uint64_t)ge__hc_sat(x, 0, 18446744073709549568.0); break;
  default: break;
  }
}

GE__HC_HELPER void ge__hc_set_i(ge_value *v, int64_t i, int64_t x) {
  void *p = v->data;
  switch (v->dtype) {
  case GE_DTYPE_INT64: ((int64_t *)p)[i] = x; break;
  case GE_DTYPE_INT32: ((int32_t *)p)[i] = (int32_t)x; break;
  case GE_DTYPE_INT16: ((int16_t *)p)[i] = (int16_t)x; break;
  case GE_DTYPE_INT8: ((int8_t *)p)[i] = (int8_t)x; break;
  case GE_DTYPE_UINT8: ((uint8_t *)p)[i] = (uint8_t)x; break;
  case GE_DTYPE_BOOL: ((uint8_t *)p)[i] = x != 0; break;
  case GE_DTYPE_UINT16: ((uint16_t *)p)[i] = (uint16_t)x; break;
  case GE_DTYPE_UINT32: ((uint32_t *)p)[i] = (uint32_t)x; break;
  case GE_DTYPE_UINT64: ((uint64_t *)p)[i] = (uint64_t)x; break;
  default: ge__hc_set_f(v, i, (double)x); break;
  }
}

GE__HC_HELPER int ge__hc_is_float(ge_dtype t) {
  return t == GE_DTYPE_FLOAT32 || t == GE_DTYPE_FLOAT64 || t == GE_DTYPE_FLOAT16 || t == GE_DTYPE_BFLOAT16;
}

/* Strides of v (in elements) laid against an output of rank r, as numpy
 * broadcasting sees it: 0 where v has (or lacks) a dimension of 1. */
GE__HC_HELPER void ge__hc_bcast_strides(const ge_value *v, int32_t r, int64_t *strides) {
  int64_t s = 1;
  int32_t i;
  for (i = r - 1; i >= 0; i--) {
    int32_t k = i - (r - v->rank);
    strides[i] = (k < 0 || v->dims[k] == 1) ? 0 : s;
    if (k >= 0) s *= v->dims[k];
  }
}

/* Walks a row-major index over dims, keeping the offsets of n operands with
 * the given strides: call ge__hc_step after each element. */
typedef struct ge__hc_iter {
  int32_t rank, n;
  int64_t dims[GE_MAX_RANK], idx[GE_MAX_RANK];
  int64_t strides[4][GE_MAX_RANK];
  int64_t off[4];
} ge__hc_iter;

GE__HC_HELPER void ge__hc_iter_init(ge__hc_iter *it, int32_t rank, const int64_t *dims, int n) {
  memset(it, 0, sizeof *it);
  it->rank = rank;
  it->n = n;
  if (rank > 0) memcpy(it->dims, dims, (size_t)rank * sizeof *dims);
}

GE__HC_HELPER void ge__hc_step(ge__hc_iter *it) {
  int32_t d;
  int k;
  for (d = it->rank - 1; d >= 0; d--) {
    it->idx[d]++;
    for (k = 0; k < it->n; k++) it->off[k] += it->strides[k][d];
    if (it->idx[d] < it->dims[d]) return;
    for (k = 0; k < it->n; k++) it->off[k] -= it->strides[k][d] * it->dims[d];
    it->idx[d] = 0;
  }
}

/* The broadcast shape of inputs a and b (rank <= GE_MAX_RANK); 0 if they
 * do not broadcast. */
GE__HC_HELPER int ge__hc_bcast_shape(const ge_value *a, const ge_value *b, int32_t *rank, int64_t *dims) {
  int32_t r = a->rank > b->rank ? a->rank : b->rank, i;
  for (i = 0; i < r; i++) {
    int32_t ia = i - (r - a->rank), ib = i - (r - b->rank);
    int64_t da = ia >= 0 ? a->dims[ia] : 1, db = ib >= 0 ? b->dims[ib] : 1;
    if (da != db && da != 1 && db != 1) return 0;
    dims[i] = da == 1 ? db : da;
  }
  *rank = r;
  return 1;
}

/* Normalizes axis against rank (negative counts from the end); 0 if out of
 * range. */
GE__HC_HELPER int ge__hc_axis(int64_t axis, int32_t rank, int32_t *out) {
  if (axis < 0) axis += rank;
  if (axis < 0 || axis >= (rank ? rank : 1)) return 0;
  *out = (int32_t)axis;
  return 1;
}

/* Copies a value (same dtype) into output i with the same shape. */
GE__HC_HELPER ge_status ge__hc_copy_to_output(ge_kernel_ctx *c, uint32_t i, const ge_value *x) {
  ge_value *y = ge_kernel_output(c, i, x->dtype, x->rank, x->dims);
  if (!y) return c->err ? c->err->code : GE_ERR_NOMEM;
  if (y->data != x->data && x->nbytes) memcpy(y->data, x->data, x->nbytes);
  return GE_OK;
}

/* The status to return after ge_kernel_output gave NULL. */
#define GE__HC_OUT_FAILED(c) ((c)->err && (c)->err->code ? (c)->err->code : GE_ERR_NOMEM)

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
 * read: a bad value is an error, never a crash. */

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

static void ge__hc_dt_cpy(void *dst, int64_t di, const void *src, int64_t si, size_t es) {
  memcpy((char *)dst + (size_t)di * es, (const char *)src + (size_t)si * es, es);
}

/* Copies a rank/dims array of elements: element idx goes from src at
 * soff + sum idx*sstr to dst at doff + sum idx*dstr (strides may be 0 or
 * negative). */
static void ge__hc_dt_strided(void *dst, int64_t doff, const int64_t *dstr, const void *src, int64_t soff,
                              const int64_t *sstr, int32_t rank, const int64_t *dims, size_t es) {
  ge__hc_iter it;
  int64_t n = ge__hc_dt_prod(dims, 0, rank), k;
  int32_t d;
  if (n <= 0) return;
  ge__hc_iter_init(&it, rank, dims, 2);
  for (d = 0; d < rank; d++) {
    it.strides[0][d] = dstr[d];
    it.strides[1][d] = sstr[d];
  }
  it.off[0] = doff;
  it.off[1] = soff;
  for (k = 0; k < n; k++) {
    ge__hc_dt_cpy(dst, it.off[0], src, it.off[1], es);
    ge__hc_step(&it);
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

static ge_status ge__hc_dt_reduction(ge_kernel_ctx *c, ge_dtype dt, int *red) {
  const char *s = ge_node_attr_string(c->node, "reduction", "none");
  if (strcmp(s, "none") == 0) *red = GE__HC_DT_RED_NONE;
  else if (strcmp(s, "add") == 0) *red = GE__HC_DT_RED_ADD;
  else if (strcmp(s, "mul") == 0) *red = GE__HC_DT_RED_MUL;
  else if (strcmp(s, "max") == 0) *red = GE__HC_DT_RED_MAX;
  else if (strcmp(s, "min") == 0) *red = GE__HC_DT_RED_MIN;
  else return ge_kernel_error(c, GE_ERR_INVALID, "unknown reduction '%.40s'", s);
  if (*red != GE__HC_DT_RED_NONE && !ge__hc_dt_is_real(dt))
    return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "reduction '%s' on %s", s, ge_dtype_name(dt));
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
static ge_status ge__hc_reshape(ge_kernel_ctx *c) {
  const ge_value *x = ge__hc_dt_in(c, 0), *s = ge__hc_dt_in(c, 1);
  int64_t dims[GE_MAX_RANK], known = 1;
  int32_t n = -1, i, infer = -1, zero = 0;
  int allowzero = ge_node_attr_int(c->node, "allowzero", 0) != 0;
  ge_status st;
  if (!x) return ge__hc_dt_missing(c, 0);
  st = s ? ge__hc_dt_ints(c, s, "shape", dims, GE_MAX_RANK, &n) : ge__hc_dt_attr_ints(c, "shape", dims, GE_MAX_RANK, &n);
  if (st) return st;
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

static ge_status ge__hc_flatten(ge_kernel_ctx *c) {
  const ge_value *x = ge__hc_dt_in(c, 0);
  int64_t axis = ge_node_attr_int(c->node, "axis", 1), dims[2];
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
static ge_status ge__hc_squeeze(ge_kernel_ctx *c) {
  const ge_value *x = ge__hc_dt_in(c, 0), *a = ge__hc_dt_in(c, 1);
  int64_t axes[GE_MAX_RANK], dims[GE_MAX_RANK];
  int32_t na = -1, ax[GE_MAX_RANK], i, r = 0;
  uint8_t drop[GE_MAX_RANK];
  ge_status st;
  if (!x) return ge__hc_dt_missing(c, 0);
  st = a ? ge__hc_dt_ints(c, a, "axes", axes, GE_MAX_RANK, &na) : ge__hc_dt_attr_ints(c, "axes", axes, GE_MAX_RANK, &na);
  if (st) return st;
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
  ge_status st;
  if (!x) return ge__hc_dt_missing(c, 0);
  st = a ? ge__hc_dt_ints(c, a, "axes", axes, GE_MAX_RANK, &na) : ge__hc_dt_attr_ints(c, "axes", axes, GE_MAX_RANK, &na);
  if (st) return st;
  if (na < 0) return ge_kernel_error(c, GE_ERR_INVALID, "axes are missing");
  r = x->rank + na;
  if (r > GE_MAX_RANK) return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "output rank %ld is beyond %d", (long)r, GE_MAX_RANK);
  if ((st = ge__hc_dt_axes(c, axes, na, r, ax)) != GE_OK) return st;
  memset(ins, 0, sizeof ins);
  for (i = 0; i < na; i++) ins[ax[i]] = 1;
  for (i = 0; i < r; i++) dims[i] = ins[i] ? 1 : x->dims[j++];
  return ge__hc_dt_copy_as(c, x, r, dims);
}

static ge_status ge__hc_transpose(ge_kernel_ctx *c) {
  const ge_value *x = ge__hc_dt_in(c, 0);
  int64_t perm[GE_MAX_RANK], dims[GE_MAX_RANK], istr[GE_MAX_RANK], sstr[GE_MAX_RANK], ostr[GE_MAX_RANK];
  int32_t np, i, r;
  uint8_t seen[GE_MAX_RANK];
  ge_value *y;
  ge_status st;
  if (!x) return ge__hc_dt_missing(c, 0);
  r = x->rank;
  if ((st = ge__hc_dt_attr_ints(c, "perm", perm, GE_MAX_RANK, &np)) != GE_OK) return st;
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
  ge_status st;
  if (!x0) return ge__hc_dt_missing(c, 0);
  if (x0->rank < 1) return ge_kernel_error(c, GE_ERR_SHAPE, "cannot concatenate scalars");
  if ((st = ge__hc_dt_axis(c, ge_node_attr_int(c->node, "axis", 1), x0->rank, &axis)) != GE_OK) return st;
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
    if (chunk)
      for (o = 0; o < outer; o++) memcpy((char *)y->data + (size_t)o * ochunk + pos, (const char *)xi->data + (size_t)o * chunk, chunk);
    pos += chunk;
  }
  return GE_OK;
}

/* Split: sizes from input 1 (opset 13), attribute split (opset < 13),
 * num_outputs (opset 18: ceil-sized chunks, the last one smaller), or equal
 * parts. */
static ge_status ge__hc_split(ge_kernel_ctx *c) {
  const ge_value *x = ge__hc_dt_in(c, 0), *sv = ge__hc_dt_in(c, 1);
  const int64_t *sa = NULL;
  int32_t nsa = ge_node_attr_ints(c->node, "split", &sa), axis = 0;
  int has_num = ge_node_attr(c->node, "num_outputs") != NULL;
  uint32_t n = c->num_outputs, i;
  int64_t d, chunk = 0, acc = 0, outer, inner, dims[GE_MAX_RANK];
  size_t es;
  ge_status st;
  if (!x) return ge__hc_dt_missing(c, 0);
  if (n == 0) return ge_kernel_error(c, GE_ERR_INVALID, "Split has no outputs");
  if (sv && sv->numel == 0) sv = NULL; /* an empty split input counts as absent */
  if ((st = ge__hc_dt_axis(c, ge_node_attr_int(c->node, "axis", 0), x->rank, &axis)) != GE_OK) return st;
  d = x->dims[axis];
  if (sv || nsa >= 0) {
    int64_t k, count = sv ? sv->numel : nsa, sum = 0;
    if (sv && !ge__hc_dt_is_int(sv->dtype)) return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "split must be an integer tensor");
    if (sv && sv->rank > 1) return ge_kernel_error(c, GE_ERR_SHAPE, "split must be 1-D");
    if (count != (int64_t)n)
      return ge_kernel_error(c, GE_ERR_INVALID, "split has %lld sizes for %u outputs", (long long)count, (unsigned)n);
    for (k = 0; k < count; k++) {
      int64_t s = sv ? ge__hc_dt_idx(sv, k) : sa[k];
      if (s < 0 || s > d - sum)
        return ge_kernel_error(c, GE_ERR_SHAPE, "split sizes do not add up to dim %ld (%lld)", (long)axis, (long long)d);
      sum += s;
    }
    if (sum != d) return ge_kernel_error(c, GE_ERR_SHAPE, "split sizes add up to %lld, not %lld", (long long)sum, (long long)d);
  } else if (has_num) {
    if (ge_node_attr_int(c->node, "num_outputs", 0) != (int64_t)n)
      return ge_kernel_error(c, GE_ERR_INVALID, "num_outputs is %lld but the node has %u outputs",
                             (long long)ge_node_attr_int(c->node, "num_outputs", 0), (unsigned)n);
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
    if (sv) s = ge__hc_dt_idx(sv, i);
    else if (nsa >= 0) s = sa[i];
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
static ge_status ge__hc_slice(ge_kernel_ctx *c) {
  const ge_value *x = ge__hc_dt_in(c, 0), *sv = ge__hc_dt_in(c, 1), *ev = ge__hc_dt_in(c, 2);
  const ge_value *av = ge__hc_dt_in(c, 3), *pv = ge__hc_dt_in(c, 4);
  int64_t starts[GE_MAX_RANK], ends[GE_MAX_RANK], axes[GE_MAX_RANK], steps[GE_MAX_RANK];
  int64_t dims[GE_MAX_RANK], istr[GE_MAX_RANK], sstr[GE_MAX_RANK], ostr[GE_MAX_RANK], base = 0;
  int32_t ns = -1, ne = -1, na = -1, np = -1, ax[GE_MAX_RANK], i;
  ge_value *y;
  ge_status st;
  if (!x) return ge__hc_dt_missing(c, 0);
  if (sv || ev) {
    if (!sv || !ev) return ge__hc_dt_missing(c, sv ? 2 : 1);
    if ((st = ge__hc_dt_ints(c, sv, "starts", starts, GE_MAX_RANK, &ns)) != GE_OK) return st;
    if ((st = ge__hc_dt_ints(c, ev, "ends", ends, GE_MAX_RANK, &ne)) != GE_OK) return st;
    if (av && (st = ge__hc_dt_ints(c, av, "axes", axes, GE_MAX_RANK, &na)) != GE_OK) return st;
    if (pv && (st = ge__hc_dt_ints(c, pv, "steps", steps, GE_MAX_RANK, &np)) != GE_OK) return st;
  } else {
    if ((st = ge__hc_dt_attr_ints(c, "starts", starts, GE_MAX_RANK, &ns)) != GE_OK) return st;
    if ((st = ge__hc_dt_attr_ints(c, "ends", ends, GE_MAX_RANK, &ne)) != GE_OK) return st;
    if ((st = ge__hc_dt_attr_ints(c, "axes", axes, GE_MAX_RANK, &na)) != GE_OK) return st;
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
  ge_status st;
  if (!x || !ind) return ge__hc_dt_missing(c, x ? 1 : 0);
  r = x->rank;
  if (r < 1) return ge_kernel_error(c, GE_ERR_SHAPE, "data must have rank >= 1");
  if ((st = ge__hc_dt_axis(c, ge_node_attr_int(c->node, "axis", 0), r, &axis)) != GE_OK) return st;
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

/* Checks the operands of GatherElements / ScatterElements: indices of the
 * data's rank, no larger than the data off the axis. */
static ge_status ge__hc_dt_elements_check(ge_kernel_ctx *c, const ge_value *x, const ge_value *ind, int32_t *axis) {
  int32_t k;
  ge_status st;
  if (x->rank < 1) return ge_kernel_error(c, GE_ERR_SHAPE, "data must have rank >= 1");
  if ((st = ge__hc_dt_axis(c, ge_node_attr_int(c->node, "axis", 0), x->rank, axis)) != GE_OK) return st;
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
  ge_status st;
  if (!x || !ind) return ge__hc_dt_missing(c, x ? 1 : 0);
  if ((st = ge__hc_dt_elements_check(c, x, ind, &axis)) != GE_OK) return st;
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

static ge_status ge__hc_gather_nd(ge_kernel_ctx *c) {
  const ge_value *x = ge__hc_dt_in(c, 0), *ind = ge__hc_dt_in(c, 1);
  int64_t b = ge_node_attr_int(c->node, "batch_dims", 0), k, dims[GE_MAX_RANK], xstr[GE_MAX_RANK];
  int64_t B, T, S, DB, bi, t, j, v;
  int32_t r, q, i, orank;
  size_t es;
  ge_value *y;
  ge_status st;
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
  ge_status st;
  if (!x || !ind || !u) return ge__hc_dt_missing(c, !x ? 0 : !ind ? 1 : 2);
  r = x->rank;
  q = ind->rank;
  if (r < 1 || q < 1) return ge_kernel_error(c, GE_ERR_SHAPE, "data and indices must have rank >= 1");
  if (!ge__hc_dt_is_int(ind->dtype)) return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "indices are %s", ge_dtype_name(ind->dtype));
  if (u->dtype != x->dtype) return ge_kernel_error(c, GE_ERR_SHAPE, "updates are %s, data %s", ge_dtype_name(u->dtype), ge_dtype_name(x->dtype));
  if ((st = ge__hc_dt_reduction(c, x->dtype, &red)) != GE_OK) return st;
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
  ge_status st;
  if (!x || !ind || !u) return ge__hc_dt_missing(c, !x ? 0 : !ind ? 1 : 2);
  if ((st = ge__hc_dt_elements_check(c, x, ind, &axis)) != GE_OK) return st;
  if (u->dtype != x->dtype) return ge_kernel_error(c, GE_ERR_SHAPE, "updates are %s, data %s", ge_dtype_name(u->dtype), ge_dtype_name(x->dtype));
  if (u->rank != ind->rank) return ge_kernel_error(c, GE_ERR_SHAPE, "updates and indices differ in rank");
  for (d = 0; d < u->rank; d++)
    if (u->dims[d] != ind->dims[d]) return ge_kernel_error(c, GE_ERR_SHAPE, "updates and indices differ in dim %ld", (long)d);
  if ((st = ge__hc_dt_reduction(c, x->dtype, &red)) != GE_OK) return st;
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

static ge_status ge__hc_expand(ge_kernel_ctx *c) {
  const ge_value *x = ge__hc_dt_in(c, 0), *s = ge__hc_dt_in(c, 1);
  int64_t dims[GE_MAX_RANK], sstr[GE_MAX_RANK], ostr[GE_MAX_RANK];
  int32_t n, r, i;
  ge_value t, *y;
  ge_status st;
  if (!x || !s) return ge__hc_dt_missing(c, x ? 1 : 0);
  memset(&t, 0, sizeof t);
  if ((st = ge__hc_dt_ints(c, s, "shape", t.dims, GE_MAX_RANK, &n)) != GE_OK) return st;
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
  ge_status st;
  if (!x || !rv) return ge__hc_dt_missing(c, x ? 1 : 0);
  if ((st = ge__hc_dt_ints(c, rv, "repeats", rep, GE_MAX_RANK, &n)) != GE_OK) return st;
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
static ge_status ge__hc_pad(ge_kernel_ctx *c) {
  const ge_value *x = ge__hc_dt_in(c, 0), *pv = ge__hc_dt_in(c, 1), *cv = ge__hc_dt_in(c, 2), *av = ge__hc_dt_in(c, 3);
  const char *mode = ge_node_attr_string(c->node, "mode", "constant");
  int64_t pads[2 * GE_MAX_RANK], axes[GE_MAX_RANK], begin[GE_MAX_RANK], end[GE_MAX_RANK], dims[GE_MAX_RANK], xstr[GE_MAX_RANK], k;
  int32_t np = -1, na, ax[GE_MAX_RANK], i, r;
  unsigned char cval[16];
  int m;
  size_t es;
  ge__hc_iter it;
  ge_value *y;
  ge_status st;
  if (!x) return ge__hc_dt_missing(c, 0);
  r = x->rank;
  es = ge__hc_dt_esize(x->dtype);
  if (es == 0 || es > sizeof cval) return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "dtype %s", ge_dtype_name(x->dtype));
  if (strcmp(mode, "constant") == 0) m = 0;
  else if (strcmp(mode, "reflect") == 0) m = 1;
  else if (strcmp(mode, "edge") == 0) m = 2;
  else if (strcmp(mode, "wrap") == 0) m = 3;
  else return ge_kernel_error(c, GE_ERR_INVALID, "unknown mode '%.40s'", mode);
  if (pv) {
    if ((st = ge__hc_dt_ints(c, pv, "pads", pads, 2 * GE_MAX_RANK, &np)) != GE_OK) return st;
  } else {
    if ((st = ge__hc_dt_attr_ints(c, "pads", pads, 2 * GE_MAX_RANK, &np)) != GE_OK) return st;
    if (np < 0 && (st = ge__hc_dt_attr_ints(c, "paddings", pads, 2 * GE_MAX_RANK, &np)) != GE_OK) return st;
    if (np < 0) return ge_kernel_error(c, GE_ERR_INVALID, "pads are missing");
  }
  if (av) {
    if ((st = ge__hc_dt_ints(c, av, "axes", axes, GE_MAX_RANK, &na)) != GE_OK) return st;
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
    ge__hc_set_f(&t, 0, ge_node_attr_float(c->node, "value", 0.0));
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
  ge__hc_dt_strides(r, x->dims, xstr);
  ge__hc_iter_init(&it, r, dims, 0);
  for (k = 0; k < y->numel; k++) {
    int64_t off = 0;
    int inside = 1;
    for (i = 0; i < r && inside; i++) {
      int64_t j = it.idx[i] - begin[i], n = x->dims[i];
      if (j < 0 || j >= n) {
        if (m == 0) {
          inside = 0;
        } else if (m == 2) {
          j = j < 0 ? 0 : n - 1;
        } else if (m == 1) {
          int64_t p = 2 * (n - 1);
          if (p == 0) {
            j = 0;
          } else {
            j %= p;
            if (j < 0) j += p;
            if (j >= n) j = p - j;
          }
        } else {
          j %= n;
          if (j < 0) j += n;
        }
      }
      off += j * xstr[i];
    }
    if (inside) ge__hc_dt_cpy(y->data, k, x->data, off, es);
    else memcpy((char *)y->data + (size_t)k * es, cval, es);
    ge__hc_step(&it);
  }
  return GE_OK;
}

static ge_status ge__hc_shape(ge_kernel_ctx *c) {
  const ge_value *x = ge__hc_dt_in(c, 0);
  int64_t r, start, end, n, i;
  ge_value *y;
  ge_status st;
  if (!x) return ge__hc_dt_missing(c, 0);
  r = x->rank;
  start = ge_node_attr_int(c->node, "start", 0);
  end = ge_node_attr(c->node, "end") ? ge_node_attr_int(c->node, "end", r) : r;
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

/* ConstantOfShape: attribute value (a one-element tensor; default float 0). */
static ge_status ge__hc_constant_of_shape(ge_kernel_ctx *c) {
  const ge_value *s = ge__hc_dt_in(c, 0);
  const ge_attr *a = ge_node_attr(c->node, "value");
  int64_t dims[GE_MAX_RANK], k;
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
  for (k = 0; k < y->numel; k++) memcpy((char *)y->data + (size_t)k * es, val, es);
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

/* TopK: k from input 1 (opset 10) or attribute k (opset 1); always sorted,
 * ties keep the lower index first. */
static ge_status ge__hc_topk(ge_kernel_ctx *c) {
  const ge_value *x = ge__hc_dt_in(c, 0), *kv = ge__hc_dt_in(c, 1);
  int64_t k, d, dims[GE_MAX_RANK], outer, inner, o, t, j, *order;
  int32_t axis = 0;
  size_t es;
  ge__hc_dt_topk_ctx ctx;
  ge_value *y, *yi;
  ge_status st;
  if (!x) return ge__hc_dt_missing(c, 0);
  if (c->num_outputs < 2) return ge_kernel_error(c, GE_ERR_INVALID, "TopK needs two outputs");
  if (!ge__hc_dt_is_real(x->dtype)) return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "TopK of %s", ge_dtype_name(x->dtype));
  if (x->rank < 1) return ge_kernel_error(c, GE_ERR_SHAPE, "input must have rank >= 1");
  if (kv) {
    if ((st = ge__hc_dt_scalar_i(c, kv, "K", &k)) != GE_OK) return st;
  } else {
    if (!ge_node_attr(c->node, "k")) return ge__hc_dt_missing(c, 1);
    k = ge_node_attr_int(c->node, "k", 0);
  }
  if ((st = ge__hc_dt_axis(c, ge_node_attr_int(c->node, "axis", -1), x->rank, &axis)) != GE_OK) return st;
  d = x->dims[axis];
  if (k < 0 || k > d) return ge_kernel_error(c, GE_ERR_INVALID, "k %lld is outside [0, %lld]", (long long)k, (long long)d);
  memcpy(dims, x->dims, (size_t)x->rank * sizeof *dims);
  dims[axis] = k;
  if ((st = ge__hc_dt_out(c, 0, x->dtype, x->rank, dims, &y)) != GE_OK) return st;
  if ((st = ge__hc_dt_out(c, 1, GE_DTYPE_INT64, x->rank, dims, &yi)) != GE_OK) return st;
  if (y->numel == 0) return GE_OK;
  order = (int64_t *)malloc((size_t)d * 2 * sizeof *order);
  if (!order) return ge_kernel_error(c, GE_ERR_NOMEM, "out of memory");
  es = ge__hc_dt_esize(x->dtype);
  outer = ge__hc_dt_prod(x->dims, 0, axis);
  inner = ge__hc_dt_prod(x->dims, axis + 1, x->rank);
  ctx.x = x;
  ctx.stride = inner;
  ctx.largest = ge_node_attr_int(c->node, "largest", 1) != 0;
  for (o = 0; o < outer; o++)
    for (t = 0; t < inner; t++) {
      ctx.base = o * d * inner + t;
      for (j = 0; j < d; j++) order[j] = j;
      ge__hc_dt_msort(order, order + d, d, ge__hc_dt_topk_before, &ctx);
      for (j = 0; j < k; j++) {
        int64_t dst = (o * k + j) * inner + t;
        ge__hc_dt_cpy(y->data, dst, x->data, ctx.base + order[j] * inner, es);
        ((int64_t *)yi->data)[dst] = order[j];
      }
    }
  free(order);
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
  int64_t base;
} ge__hc_dt_nms_ctx;

static int ge__hc_dt_nms_before(const void *p, int64_t a, int64_t b) {
  const ge__hc_dt_nms_ctx *n = (const ge__hc_dt_nms_ctx *)p;
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
  for (b = 0; b < B && keep > 0; b++)
    for (cl = 0; cl < C; cl++) {
      int64_t nc = 0, start = count;
      ctx.base = (b * C + cl) * N;
      for (i = 0; i < N; i++)
        if (!sv || sv->numel == 0 || ge__hc_get_f(scores, ctx.base + i) > thr) cand[nc++] = i;
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

#define GE__HC_DN_EIN_OPS 16
#define GE__HC_DN_EIN_LABELS (52 + GE_MAX_RANK)

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

static ge_status ge__hc_einsum(ge_kernel_ctx *c) {
  const char *eq = ge_node_attr_string(c->node, "equation", NULL), *p;
  uint32_t n = c->num_inputs, t;
  int lab[GE__HC_DN_EIN_OPS][GE_MAX_RANK], dimlab[GE__HC_DN_EIN_OPS][GE_MAX_RANK], olab[GE__HC_DN_EIN_LABELS];
  int used[GE__HC_DN_EIN_LABELS], count[GE__HC_DN_EIN_LABELS];
  int32_t nl[GE__HC_DN_EIN_OPS], ell[GE__HC_DN_EIN_OPS], E = 0, orank = 0, U = 0, j, u, oell;
  int64_t size[GE__HC_DN_EIN_LABELS], odims[GE_MAX_RANK], usz[GE__HC_DN_EIN_LABELS], idx[GE__HC_DN_EIN_LABELS];
  int64_t st[GE__HC_DN_EIN_OPS + 1][GE__HC_DN_EIN_LABELS], off[GE__HC_DN_EIN_OPS + 1], total = 1, i;
  void *buf[GE__HC_DN_EIN_OPS];
  int owned[GE__HC_DN_EIN_OPS], kind, explicit_out, l;
  void *acc;
  ge_value *y;
  ge_status st_ = GE_OK;
  if (!eq) return ge_kernel_error(c, GE_ERR_INVALID, "equation is required");
  if (n < 1 || n > GE__HC_DN_EIN_OPS)
    return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "Einsum takes 1 to %d operands", GE__HC_DN_EIN_OPS);
  for (t = 0; t < n; t++) {
    if (!c->inputs[t]) return ge__hc_dn_missing(c, t);
    if (c->inputs[t]->dtype != c->inputs[0]->dtype) return ge_kernel_error(c, GE_ERR_INVALID, "operand dtypes differ");
  }
  if ((kind = ge__hc_dn_kind(c->inputs[0]->dtype)) < 0) return ge__hc_dn_bad_dtype(c, c->inputs[0]->dtype);
  if (kind == GE__HC_DN_F) kind = GE__HC_DN_D; /* accumulate floats in double */
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
 * resized to out with the given scale. As in the ONNX reference (which made
 * the test data), "the resized length" of align_corners and
 * tf_crop_and_resize is scale * in, not the integer output size; for
 * pytorch_half_pixel at output size 1 the spec's 0 is used (the reference
 * has -0.5; they differ only for cubic). */
static double ge__hc_dn_coord(const ge__hc_dn_rs *o, int32_t j, double x, int64_t in) {
  double s = o->scale[j], lr = s * (double)in, out = (double)o->out[j];
  switch (o->ctm) {
  case GE__HC_DN_PYTORCH_HALF_PIXEL: return lr > 1 ? (x + 0.5) / s - 0.5 : 0.0;
  case GE__HC_DN_ALIGN_CORNERS: return lr == 1 ? 0.0 : x * (double)(in - 1) / (lr - 1);
  case GE__HC_DN_ASYMMETRIC: return x / s;
  case GE__HC_DN_TF_HALF_PIXEL_FOR_NN: return (x + 0.5) / s;
  case GE__HC_DN_TF_CROP_AND_RESIZE:
    return lr == 1 ? 0.5 * (o->roi_e[j] - o->roi_s[j]) * (double)(in - 1) + o->roi_s[j] * (double)(in - 1)
                   : x * (o->roi_e[j] - o->roi_s[j]) * (double)(in - 1) / (lr - 1) + o->roi_s[j] * (double)(in - 1);
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

/* Number -> string formatting lives with the string kernels (hc_extra). */
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

/* ------------------------------------------------------ extra kernels */

/* Losses (NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss), recurrent
 * layers (RNN, LSTM, GRU), GridSample, quantization (QuantizeLinear,
 * DequantizeLinear, DynamicQuantizeLinear, QLinearMatMul, QLinearConv),
 * MaxUnpool, RoiAlign, signal ops (window functions, DFT, STFT,
 * MelWeightMatrix) and text ops (StringNormalizer, TfIdfVectorizer), plus a
 * number -> string formatter for Cast.
 *
 * Float math runs in double and rounds once on store (ge__hc_set_f); the
 * ONNX reference computes in float32 for some of these ops, and the
 * conformance tolerance absorbs the difference. */

/* ---------------------------------------------------- small helpers */

/* Number of elements of a dims array, or -1 on a negative dimension. */
static int64_t ge__hc_ex_prod(const int64_t *dims, int32_t lo, int32_t hi) {
  int64_t p = 1;
  int32_t i;
  for (i = lo; i < hi; i++) {
    if (dims[i] < 0) return -1;
    p *= dims[i];
  }
  return p;
}

/* A scalar (or one-element) input as int64 / double; 0 if absent or empty. */
static int ge__hc_ex_scalar_i(const ge_value *v, int64_t *out) {
  if (!v || v->numel < 1 || v->dtype == GE_DTYPE_STRING) return 0;
  *out = ge__hc_get_i(v, 0);
  return 1;
}
GE__HC_HELPER int ge__hc_ex_scalar_f(const ge_value *v, double *out) {
  if (!v || v->numel < 1 || v->dtype == GE_DTYPE_STRING) return 0;
  *out = ge__hc_get_f(v, 0);
  return 1;
}

/* A float-list attribute: count (or -1 when absent) and its values. */
static int32_t ge__hc_ex_attr_floats(const ge_node *n, const char *name, const double **vals) {
  const ge_attr *a = ge_node_attr(n, name);
  if (!a || a->type != GE_ATTR_FLOATS) return -1;
  *vals = a->v.floats;
  return a->count;
}

/* A string-list attribute: count (or -1 when absent) and its values. */
static int32_t ge__hc_ex_attr_strings(const ge_node *n, const char *name, const char *const **vals) {
  const ge_attr *a = ge_node_attr(n, name);
  if (!a || a->type != GE_ATTR_STRINGS) return -1;
  *vals = a->v.strings;
  return a->count;
}

static int ge__hc_ex_streq_nocase(const char *a, const char *b) {
  for (; *a && *b; a++, b++) {
    int x = (unsigned char)*a, y = (unsigned char)*b;
    if (x >= 'A' && x <= 'Z') x += 32;
    if (y >= 'A' && y <= 'Z') y += 32;
    if (x != y) return 0;
  }
  return *a == *b;
}

/* Round half to even (the rounding of QuantizeLinear). */
static double ge__hc_ex_rint(double x) {
  double f = floor(x), d = x - f;
  if (d > 0.5) return f + 1;
  if (d < 0.5) return f;
  return fmod(f, 2.0) == 0 ? f : f + 1;
}

static void *ge__hc_ex_alloc(ge_kernel_ctx *c, size_t n) {
  void *p = calloc(1, n ? n : 1);
  if (!p) ge_kernel_error(c, GE_ERR_NOMEM, "out of memory (%lu bytes)", (unsigned long)n);
  return p;
}

/* ------------------------------------------------------------- losses */

/* The reduction attribute: 0 none, 1 sum, 2 mean; -1 if unknown. */
static int ge__hc_ex_reduction(const ge_node *n) {
  const char *r = ge_node_attr_string(n, "reduction", "mean");
  if (strcmp(r, "none") == 0) return 0;
  if (strcmp(r, "sum") == 0) return 1;
  if (strcmp(r, "mean") == 0) return 2;
  return -1;
}

/* Checks NLL-shaped operands: x (N, C, d...), target (N, d...) integer,
 * weight (C) or NULL. Sets n, cls, inner (product of d...). */
static ge_status ge__hc_ex_nll_check(ge_kernel_ctx *c, const ge_value *x, const ge_value *t, const ge_value *w,
                                     int64_t *n, int64_t *cls, int64_t *inner) {
  int32_t i;
  if (!x || !t) return ge_kernel_error(c, GE_ERR_INVALID, "missing input or target");
  if (!ge__hc_is_float(x->dtype)) return ge_kernel_error(c, GE_ERR_INVALID, "input must be a float tensor");
  if (t->dtype != GE_DTYPE_INT32 && t->dtype != GE_DTYPE_INT64)
    return ge_kernel_error(c, GE_ERR_INVALID, "target must be int32 or int64");
  if (x->rank < 2 || t->rank != x->rank - 1)
    return ge_kernel_error(c, GE_ERR_SHAPE, "input of rank %d needs a target of rank %d (got %d)", (int)x->rank,
                           (int)x->rank - 1, (int)t->rank);
  if (t->dims[0] != x->dims[0]) return ge_kernel_error(c, GE_ERR_SHAPE, "target batch differs from input batch");
  for (i = 2; i < x->rank; i++)
    if (t->dims[i - 1] != x->dims[i]) return ge_kernel_error(c, GE_ERR_SHAPE, "target dim %d differs from input", (int)i - 1);
  if (w && (w->rank != 1 || w->dims[0] != x->dims[1] || w->dtype != x->dtype))
    return ge_kernel_error(c, GE_ERR_SHAPE, "weight must be a 1-D tensor of C elements of the input's dtype");
  *n = x->dims[0];
  *cls = x->dims[1];
  *inner = ge__hc_ex_prod(x->dims, 2, x->rank);
  return GE_OK;
}

/* The NLL loss of log-probabilities lp (read through get(src, index)) into
 * output 0: shared by both loss kernels. lp is x itself (NLL) or the
 * computed log-softmax (SCE). */
static ge_status ge__hc_ex_nll_core(ge_kernel_ctx *c, const ge_value *x, const double *lp, const ge_value *t,
                                    const ge_value *w, int64_t n, int64_t cls, int64_t inner) {
  int red = ge__hc_ex_reduction(c->node);
  const ge_attr *ia = ge_node_attr(c->node, "ignore_index");
  int has_ii = ia != NULL;
  int64_t ii = ge_node_attr_int(c->node, "ignore_index", 0), b, k;
  double sum = 0, wsum = 0;
  ge_value *y;
  if (red < 0) return ge_kernel_error(c, GE_ERR_INVALID, "reduction must be none, sum or mean");
  if (red == 0) y = ge_kernel_output(c, 0, x->dtype, t->rank, t->dims);
  else y = ge_kernel_output(c, 0, x->dtype, 0, t->dims);
  if (!y) return GE__HC_OUT_FAILED(c);
  for (b = 0; b < n; b++)
    for (k = 0; k < inner; k++) {
      int64_t ti = b * inner + k, cl = ge__hc_get_i(t, ti);
      double l = 0, wt = 0;
      if (!(has_ii && cl == ii)) {
        if (cl < 0 || cl >= cls)
          return ge_kernel_error(c, GE_ERR_INVALID, "target %lld out of range [0, %lld)", (long long)cl, (long long)cls);
        wt = w ? ge__hc_get_f(w, cl) : 1.0;
        l = -(lp ? lp[(b * cls + cl) * inner + k] : ge__hc_get_f(x, (b * cls + cl) * inner + k)) * wt;
      }
      if (red == 0) ge__hc_set_f(y, ti, l);
      sum += l;
      wsum += wt;
    }
  if (red == 1) ge__hc_set_f(y, 0, sum);
  if (red == 2) ge__hc_set_f(y, 0, sum / wsum);
  return GE_OK;
}

static ge_status ge__hc_negative_log_likelihood_loss(ge_kernel_ctx *c) {
  const ge_value *x = c->num_inputs > 0 ? c->inputs[0] : NULL, *t = c->num_inputs > 1 ? c->inputs[1] : NULL;
  const ge_value *w = c->num_inputs > 2 ? c->inputs[2] : NULL;
  int64_t n = 0, cls = 0, inner = 0;
  ge_status s = ge__hc_ex_nll_check(c, x, t, w, &n, &cls, &inner);
  if (s) return s;
  return ge__hc_ex_nll_core(c, x, NULL, t, w, n, cls, inner);
}

static ge_status ge__hc_softmax_cross_entropy_loss(ge_kernel_ctx *c) {
  const ge_value *x = c->num_inputs > 0 ? c->inputs[0] : NULL, *t = c->num_inputs > 1 ? c->inputs[1] : NULL;
  const ge_value *w = c->num_inputs > 2 ? c->inputs[2] : NULL;
  int64_t n = 0, cls = 0, inner = 0, b, k, j;
  double *lp;
  ge_status s = ge__hc_ex_nll_check(c, x, t, w, &n, &cls, &inner);
  if (s) return s;
  if (!(lp = (double *)ge__hc_ex_alloc(c, (size_t)x->numel * sizeof(double)))) return GE__HC_OUT_FAILED(c);
  for (b = 0; b < n; b++)
    for (k = 0; k < inner; k++) {
      double m = -HUGE_VAL, z = 0;
      for (j = 0; j < cls; j++) {
        double v = ge__hc_get_f(x, (b * cls + j) * inner + k);
        if (v > m) m = v;
      }
      for (j = 0; j < cls; j++) z += exp(ge__hc_get_f(x, (b * cls + j) * inner + k) - m);
      z = log(z);
      for (j = 0; j < cls; j++) lp[(b * cls + j) * inner + k] = ge__hc_get_f(x, (b * cls + j) * inner + k) - m - z;
    }
  s = ge__hc_ex_nll_core(c, x, lp, t, w, n, cls, inner);
  if (!s && c->num_outputs > 1) {
    ge_value *y = ge_kernel_output(c, 1, x->dtype, x->rank, x->dims);
    if (!y) s = GE__HC_OUT_FAILED(c);
    else
      for (j = 0; j < x->numel; j++) ge__hc_set_f(y, j, lp[j]);
  }
  free(lp);
  return s;
}

/* ------------------------------------------------------------ windows */

static ge_status ge__hc_ex_window(ge_kernel_ctx *c, int kind) {
  const ge_value *sz = c->num_inputs > 0 ? c->inputs[0] : NULL;
  int64_t n, i, dt = ge_node_attr_int(c->node, "output_datatype", GE_DTYPE_FLOAT32);
  int periodic = ge_node_attr_int(c->node, "periodic", 1) != 0;
  double denom, pi = 3.14159265358979323846;
  ge_value *y;
  if (!ge__hc_ex_scalar_i(sz, &n) || ge__hc_is_float(sz->dtype))
    return ge_kernel_error(c, GE_ERR_INVALID, "size must be an integer scalar");
  if (n < 0) return ge_kernel_error(c, GE_ERR_INVALID, "size %lld is negative", (long long)n);
  if (dt <= 0 || dt >= GE_DTYPE_COUNT || dt == GE_DTYPE_STRING || dt == GE_DTYPE_COMPLEX64 || dt == GE_DTYPE_COMPLEX128)
    return ge_kernel_error(c, GE_ERR_INVALID, "bad output_datatype %lld", (long long)dt);
  if (!(y = ge_kernel_output(c, 0, (ge_dtype)dt, 1, &n))) return GE__HC_OUT_FAILED(c);
  denom = periodic ? (double)n : (double)(n - 1);
  for (i = 0; i < n; i++) {
    double a = denom > 0 ? 2 * pi * (double)i / denom : 0, v;
    if (kind == 0) v = 0.5 - 0.5 * cos(a);
    else if (kind == 1) v = 25.0 / 46.0 - 21.0 / 46.0 * cos(a);
    else v = 0.42 - 0.5 * cos(a) + 0.08 * cos(2 * a);
    ge__hc_set_f(y, i, v);
  }
  return GE_OK;
}
static ge_status ge__hc_hann_window(ge_kernel_ctx *c) { return ge__hc_ex_window(c, 0); }
static ge_status ge__hc_hamming_window(ge_kernel_ctx *c) { return ge__hc_ex_window(c, 1); }
static ge_status ge__hc_blackman_window(ge_kernel_ctx *c) { return ge__hc_ex_window(c, 2); }

/* ------------------------------------------------------- quantization */

/* a / b, rounded to float32 when `narrow` (as the reference computes). */
static double ge__hc_ex_div(double a, double b, int narrow) {
  return narrow ? (double)((float)a / (float)b) : a / b;
}

/* Saturating store of a rounded integer into a quantized dtype. */
static int ge__hc_ex_qrange(ge_dtype t, double *lo, double *hi) {
  switch (t) {
  case GE_DTYPE_UINT8: *lo = 0; *hi = 255; return 1;
  case GE_DTYPE_INT8: *lo = -128; *hi = 127; return 1;
  case GE_DTYPE_UINT16: *lo = 0; *hi = 65535; return 1;
  case GE_DTYPE_INT16: *lo = -32768; *hi = 32767; return 1;
  case GE_DTYPE_INT32: *lo = -2147483648.0; *hi = 2147483647.0; return 1;
  default: return 0;
  }
}

static double ge__hc_ex_sat(double v, double lo, double hi) {
  if (v != v) return 0;
  return v < lo ? lo : v > hi ? hi : v;
}

/* Checks a scale / zero point pair against x and axis: per-tensor (one
 * element) or per-axis (1-D of x's dim along axis). Sets *axis_len and
 * *inner (1 and 1 for per-tensor). */
static ge_status ge__hc_ex_qparams(ge_kernel_ctx *c, const ge_value *x, const ge_value *scale, const ge_value *zp,
                                   int64_t *axis_len, int64_t *inner) {
  int32_t ax;
  if (!scale || !ge__hc_is_float(scale->dtype)) return ge_kernel_error(c, GE_ERR_INVALID, "scale must be a float tensor");
  if (zp && zp->numel != scale->numel) return ge_kernel_error(c, GE_ERR_SHAPE, "zero point and scale differ in size");
  if (scale->rank == 0 || scale->numel == 1) {
    if (scale->numel != 1) return ge_kernel_error(c, GE_ERR_SHAPE, "empty scale");
    *axis_len = 1;
    *inner = 1;
    return GE_OK;
  }
  if (scale->rank != 1) return ge_kernel_error(c, GE_ERR_SHAPE, "scale must be a scalar or 1-D");
  if (!ge__hc_axis(ge_node_attr_int(c->node, "axis", 1), x->rank, &ax) || x->rank == 0)
    return ge_kernel_error(c, GE_ERR_INVALID, "axis out of range");
  if (x->dims[ax] != scale->dims[0]) return ge_kernel_error(c, GE_ERR_SHAPE, "scale length differs from the axis");
  *axis_len = scale->dims[0];
  *inner = ge__hc_ex_prod(x->dims, ax + 1, x->rank);
  return GE_OK;
}

static ge_status ge__hc_quantize_linear(ge_kernel_ctx *c) {
  const ge_value *x = c->num_inputs > 0 ? c->inputs[0] : NULL, *sc = c->num_inputs > 1 ? c->inputs[1] : NULL;
  const ge_value *zp = c->num_inputs > 2 ? c->inputs[2] : NULL;
  ge_dtype ot = zp ? zp->dtype : GE_DTYPE_UINT8;
  int64_t alen, inner, i;
  double lo, hi;
  ge_value *y;
  ge_status s;
  if (!x || !(ge__hc_is_float(x->dtype) || x->dtype == GE_DTYPE_INT32))
    return ge_kernel_error(c, GE_ERR_INVALID, "x must be float or int32");
  if (!ge__hc_ex_qrange(ot, &lo, &hi) || ot == GE_DTYPE_INT32)
    return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "output dtype %s is not supported", ge_dtype_name(ot));
  if ((s = ge__hc_ex_qparams(c, x, sc, zp, &alen, &inner))) return s;
  if (!(y = ge_kernel_output(c, 0, ot, x->rank, x->dims))) return GE__HC_OUT_FAILED(c);
  for (i = 0; i < x->numel; i++) {
    int64_t k = alen == 1 ? 0 : (i / inner) % alen;
    double q = ge__hc_ex_div(ge__hc_get_f(x, i), ge__hc_get_f(sc, k), sc->dtype != GE_DTYPE_FLOAT64);
    q = ge__hc_ex_rint(q) + (zp ? ge__hc_get_f(zp, k) : 0);
    ge__hc_set_f(y, i, ge__hc_ex_sat(q, lo, hi));
  }
  return GE_OK;
}

static ge_status ge__hc_dequantize_linear(ge_kernel_ctx *c) {
  const ge_value *x = c->num_inputs > 0 ? c->inputs[0] : NULL, *sc = c->num_inputs > 1 ? c->inputs[1] : NULL;
  const ge_value *zp = c->num_inputs > 2 ? c->inputs[2] : NULL;
  int64_t alen, inner, i;
  double lo, hi;
  ge_value *y;
  ge_status s;
  if (!x || !ge__hc_ex_qrange(x->dtype, &lo, &hi)) return ge_kernel_error(c, GE_ERR_INVALID, "x must be a quantized integer tensor");
  if (zp && zp->dtype != x->dtype) return ge_kernel_error(c, GE_ERR_INVALID, "zero point dtype differs from x");
  if ((s = ge__hc_ex_qparams(c, x, sc, zp, &alen, &inner))) return s;
  if (!(y = ge_kernel_output(c, 0, sc->dtype, x->rank, x->dims))) return GE__HC_OUT_FAILED(c);
  for (i = 0; i < x->numel; i++) {
    int64_t k = alen == 1 ? 0 : (i / inner) % alen;
    ge__hc_set_f(y, i, (ge__hc_get_f(x, i) - (zp ? ge__hc_get_f(zp, k) : 0)) * ge__hc_get_f(sc, k));
  }
  return GE_OK;
}

static ge_status ge__hc_dynamic_quantize_linear(ge_kernel_ctx *c) {
  const ge_value *x = c->num_inputs > 0 ? c->inputs[0] : NULL;
  double mn = 0, mx = 0, scale, zp;
  float fscale;
  int64_t i;
  ge_value *y, *ys, *yz;
  if (!x || x->dtype != GE_DTYPE_FLOAT32) return ge_kernel_error(c, GE_ERR_INVALID, "x must be float32");
  if (c->num_outputs < 3) return ge_kernel_error(c, GE_ERR_INVALID, "needs three outputs");
  for (i = 0; i < x->numel; i++) {
    double v = ge__hc_get_f(x, i);
    if (v < mn) mn = v;
    if (v > mx) mx = v;
  }
  fscale = (float)((mx - mn) / 255.0);
  scale = fscale;
  zp = scale > 0 ? ge__hc_ex_sat(ge__hc_ex_rint(ge__hc_ex_div(0 - mn, scale, 1)), 0, 255) : 0;
  if (!(y = ge_kernel_output(c, 0, GE_DTYPE_UINT8, x->rank, x->dims))) return GE__HC_OUT_FAILED(c);
  if (!(ys = ge_kernel_output(c, 1, GE_DTYPE_FLOAT32, 0, x->dims))) return GE__HC_OUT_FAILED(c);
  if (!(yz = ge_kernel_output(c, 2, GE_DTYPE_UINT8, 0, x->dims))) return GE__HC_OUT_FAILED(c);
  for (i = 0; i < x->numel; i++) {
    double q = scale > 0 ? ge__hc_ex_rint(ge__hc_ex_div(ge__hc_get_f(x, i), scale, 1)) + zp : zp;
    ge__hc_set_f(y, i, ge__hc_ex_sat(q, 0, 255));
  }
  ((float *)ys->data)[0] = fscale;
  ((uint8_t *)yz->data)[0] = (uint8_t)zp;
  return GE_OK;
}

/* Reads a per-tensor quantization parameter pair (scale must be float,
 * zero point of dtype zt, one element each). */
static ge_status ge__hc_ex_qpair(ge_kernel_ctx *c, const ge_value *sc, const ge_value *zp, ge_dtype zt, const char *what,
                                 double *s, double *z) {
  if (!sc || !ge__hc_is_float(sc->dtype) || sc->numel != 1)
    return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "%s scale must be a float scalar", what);
  *s = ge__hc_get_f(sc, 0);
  *z = 0;
  if (zp) {
    if (zp->dtype != zt || zp->numel != 1)
      return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "%s zero point must be a scalar of its tensor's dtype", what);
    *z = ge__hc_get_f(zp, 0);
  }
  return GE_OK;
}

static ge_status ge__hc_qlinear_mat_mul(ge_kernel_ctx *c) {
  const ge_value *a = c->num_inputs > 0 ? c->inputs[0] : NULL, *b = c->num_inputs > 3 ? c->inputs[3] : NULL;
  const ge_value *yzp = c->num_inputs > 7 ? c->inputs[7] : NULL;
  double as, az, bs, bz, ys, yz, lo, hi;
  int64_t m, k, n, batch = 1, bi, i, j, l, dims[GE_MAX_RANK], astr[GE_MAX_RANK], bstr[GE_MAX_RANK];
  int32_t r, d;
  ge_dtype ot;
  ge_value *y;
  ge_status s;
  if (!a || !b || a->rank < 2 || b->rank < 2) return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "a and b must have rank >= 2");
  if (!ge__hc_ex_qrange(a->dtype, &lo, &hi) || !ge__hc_ex_qrange(b->dtype, &lo, &hi))
    return ge_kernel_error(c, GE_ERR_INVALID, "a and b must be int8 or uint8");
  ot = yzp ? yzp->dtype : GE_DTYPE_UINT8;
  if (!ge__hc_ex_qrange(ot, &lo, &hi)) return ge_kernel_error(c, GE_ERR_INVALID, "bad output dtype");
  if ((s = ge__hc_ex_qpair(c, c->inputs[1], c->inputs[2], a->dtype, "a", &as, &az))) return s;
  if ((s = ge__hc_ex_qpair(c, c->inputs[4], c->inputs[5], b->dtype, "b", &bs, &bz))) return s;
  if ((s = ge__hc_ex_qpair(c, c->num_inputs > 6 ? c->inputs[6] : NULL, yzp, ot, "y", &ys, &yz))) return s;
  m = a->dims[a->rank - 2];
  k = a->dims[a->rank - 1];
  n = b->dims[b->rank - 1];
  if (b->dims[b->rank - 2] != k) return ge_kernel_error(c, GE_ERR_SHAPE, "inner dimensions differ");
  r = a->rank > b->rank ? a->rank : b->rank;
  /* broadcast batch dims (row-major strides in matrices) */
  {
    int64_t sa = 1, sb = 1;
    for (d = r - 3; d >= 0; d--) {
      int32_t ka = d - (r - a->rank), kb = d - (r - b->rank);
      int64_t da = ka >= 0 ? a->dims[ka] : 1, db = kb >= 0 ? b->dims[kb] : 1;
      if (da != db && da != 1 && db != 1) return ge_kernel_error(c, GE_ERR_SHAPE, "batch dimensions do not broadcast");
      dims[d] = da == 1 ? db : da;
      astr[d] = da == 1 ? 0 : sa;
      bstr[d] = db == 1 ? 0 : sb;
      sa *= da;
      sb *= db;
      batch *= dims[d];
    }
  }
  dims[r - 2] = m;
  dims[r - 1] = n;
  if (!(y = ge_kernel_output(c, 0, ot, r, dims))) return GE__HC_OUT_FAILED(c);
  for (bi = 0; bi < batch; bi++) {
    int64_t ao = 0, bo = 0, rem = bi;
    for (d = r - 3; d >= 0; d--) {
      int64_t id = rem % dims[d];
      rem /= dims[d];
      ao += id * astr[d];
      bo += id * bstr[d];
    }
    for (i = 0; i < m; i++)
      for (j = 0; j < n; j++) {
        double acc = 0;
        for (l = 0; l < k; l++)
          acc += (ge__hc_get_f(a, ao * m * k + i * k + l) - az) * (ge__hc_get_f(b, bo * k * n + l * n + j) - bz);
        ge__hc_set_f(y, bi * m * n + i * n + j, ge__hc_ex_sat(ge__hc_ex_rint(acc * as * bs / ys) + yz, lo, hi));
      }
  }
  return GE_OK;
}

/* ------------------------------------------------------------ strings */

/* Shortest decimal that reads back as the same float32 (or double), in the
 * style numpy prints: "1.5", "1e-05", "NaN"/"INF"/"-INF" as ONNX's Cast
 * spells them. buf needs 32 bytes. For Cast to string. */
GE__HC_HELPER void ge__hc_ex_format_number(const ge_value *x, int64_t i, char *buf) {
  int p;
  if (ge__hc_is_float(x->dtype)) {
    double v = ge__hc_get_f(x, i);
    if (v != v) {
      strcpy(buf, "NaN");
      return;
    }
    if (v == HUGE_VAL || v == -HUGE_VAL) {
      strcpy(buf, v > 0 ? "INF" : "-INF");
      return;
    }
    for (p = 1; p <= 17; p++) {
      snprintf(buf, 32, "%.*g", p, v);
      if (x->dtype == GE_DTYPE_FLOAT64 ? strtod(buf, NULL) == v : (float)strtod(buf, NULL) == (float)v) break;
    }
    return;
  }
  if (x->dtype == GE_DTYPE_UINT64) snprintf(buf, 32, "%llu", (unsigned long long)((const uint64_t *)x->data)[i]);
  else snprintf(buf, 32, "%lld", (long long)ge__hc_get_i(x, i));
}

/* Cast of a numeric tensor x to a string tensor in output `out` (for the
 * element-wise Cast/CastLike to call). */
static ge_status ge__hc_ex_cast_to_string(ge_kernel_ctx *c, const ge_value *x, uint32_t out) {
  char buf[32], *pool, **slot;
  size_t chars = 0;
  int64_t i;
  ge_value *y;
  if (x->dtype == GE_DTYPE_STRING || x->dtype == GE_DTYPE_COMPLEX64 || x->dtype == GE_DTYPE_COMPLEX128)
    return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "cannot format %s as string", ge_dtype_name(x->dtype));
  for (i = 0; i < x->numel; i++) {
    ge__hc_ex_format_number(x, i, buf);
    chars += strlen(buf) + 1;
  }
  if (!(y = ge_kernel_output_strings(c, out, x->rank, x->dims, chars, &pool))) return GE__HC_OUT_FAILED(c);
  slot = (char **)y->data;
  for (i = 0; i < x->numel; i++) {
    size_t l;
    ge__hc_ex_format_number(x, i, buf);
    l = strlen(buf) + 1;
    memcpy(pool, buf, l);
    slot[i] = pool;
    pool += l;
  }
  return GE_OK;
}

static ge_status ge__hc_string_normalizer(ge_kernel_ctx *c) {
  const ge_value *x = c->num_inputs > 0 ? c->inputs[0] : NULL;
  const char *act = ge_node_attr_string(c->node, "case_change_action", "NONE");
  int cs = ge_node_attr_int(c->node, "is_case_sensitive", 0) != 0, mode;
  const char *const *stop = NULL;
  int32_t nstop = ge__hc_ex_attr_strings(c->node, "stopwords", &stop), s;
  const char *const *in;
  int64_t cols, rows = 1, i, kept = 0, dims[2];
  size_t chars = 0;
  uint8_t *keep;
  char *pool, **slot;
  ge_value *y;
  if (!x || x->dtype != GE_DTYPE_STRING) return ge_kernel_error(c, GE_ERR_INVALID, "input must be a string tensor");
  if (x->rank == 1) cols = x->dims[0];
  else if (x->rank == 2 && x->dims[0] == 1) {
    cols = x->dims[1];
    rows = 1;
  } else
    return ge_kernel_error(c, GE_ERR_SHAPE, "input must be [C] or [1, C]");
  (void)rows;
  if (strcmp(act, "NONE") == 0) mode = 0;
  else if (strcmp(act, "LOWER") == 0) mode = 1;
  else if (strcmp(act, "UPPER") == 0) mode = 2;
  else return ge_kernel_error(c, GE_ERR_INVALID, "bad case_change_action '%s'", act);
  in = (const char *const *)x->data;
  if (!(keep = (uint8_t *)ge__hc_ex_alloc(c, (size_t)cols))) return GE__HC_OUT_FAILED(c);
  for (i = 0; i < cols; i++) {
    const char *w = in[i] ? in[i] : "";
    keep[i] = 1;
    for (s = 0; s < nstop; s++)
      if (cs ? strcmp(w, stop[s]) == 0 : ge__hc_ex_streq_nocase(w, stop[s])) keep[i] = 0;
    if (keep[i]) {
      kept++;
      chars += strlen(w) + 1;
    }
  }
  if (kept == 0) chars = 1;
  dims[0] = 1;
  dims[x->rank - 1] = kept ? kept : 1;
  if (!(y = ge_kernel_output_strings(c, 0, x->rank, dims, chars, &pool))) {
    free(keep);
    return GE__HC_OUT_FAILED(c);
  }
  slot = (char **)y->data;
  if (!kept) {
    *pool = 0;
    slot[0] = pool;
  }
  for (i = 0, kept = 0; i < cols; i++) {
    const char *w = in[i] ? in[i] : "";
    size_t l = strlen(w), j;
    if (!keep[i]) continue;
    for (j = 0; j < l; j++) {
      int ch = (unsigned char)w[j];
      if (mode == 1 && ch >= 'A' && ch <= 'Z') ch += 32;
      if (mode == 2 && ch >= 'a' && ch <= 'z') ch -= 32;
      pool[j] = (char)ch;
    }
    pool[l] = 0;
    slot[kept++] = pool;
    pool += l + 1;
  }
  free(keep);
  return GE_OK;
}

/* Does the n-gram of pool entries [p, p + len) equal the tokens of x at
 * start, start + step, ...? */
static int ge__hc_ex_gram_eq(const ge_value *x, int64_t base, int64_t start, int64_t step, int64_t len,
                             const int64_t *ipool, const char *const *spool, int64_t p) {
  int64_t j;
  for (j = 0; j < len; j++) {
    int64_t at = base + start + j * step;
    if (x->dtype == GE_DTYPE_STRING) {
      const char *s = ((const char *const *)x->data)[at];
      if (strcmp(s ? s : "", spool[p + j]) != 0) return 0;
    } else if (ge__hc_get_i(x, at) != ipool[p + j])
      return 0;
  }
  return 1;
}

static ge_status ge__hc_tf_idf_vectorizer(ge_kernel_ctx *c) {
  const ge_value *x = c->num_inputs > 0 ? c->inputs[0] : NULL;
  const ge_node *nd = c->node;
  int64_t maxg = ge_node_attr_int(nd, "max_gram_length", 0), ming = ge_node_attr_int(nd, "min_gram_length", 0);
  int64_t maxskip = ge_node_attr_int(nd, "max_skip_count", 0);
  const char *mode = ge_node_attr_string(nd, "mode", "TF");
  const int64_t *counts = NULL, *idx = NULL, *ipool = NULL;
  const char *const *spool = NULL;
  const double *wts = NULL;
  int32_t ncounts = ge_node_attr_ints(nd, "ngram_counts", &counts), nidx = ge_node_attr_ints(nd, "ngram_indexes", &idx);
  int32_t npool, nw = ge__hc_ex_attr_floats(nd, "weights", &wts), md, g;
  int64_t rows, cols, nout = 0, r, i, dims[2];
  double *cnt;
  ge_value *y;
  if (!x) return ge_kernel_error(c, GE_ERR_INVALID, "missing input");
  if (x->dtype == GE_DTYPE_STRING) {
    npool = ge__hc_ex_attr_strings(nd, "pool_strings", &spool);
  } else if (x->dtype == GE_DTYPE_INT32 || x->dtype == GE_DTYPE_INT64) {
    npool = ge_node_attr_ints(nd, "pool_int64s", &ipool);
  } else
    return ge_kernel_error(c, GE_ERR_INVALID, "input must be string, int32 or int64");
  if (strcmp(mode, "TF") == 0) md = 0;
  else if (strcmp(mode, "IDF") == 0) md = 1;
  else if (strcmp(mode, "TFIDF") == 0) md = 2;
  else return ge_kernel_error(c, GE_ERR_INVALID, "bad mode '%s'", mode);
  if (npool < 0 || ncounts < 0 || nidx < 0) return ge_kernel_error(c, GE_ERR_INVALID, "missing pool, ngram_counts or ngram_indexes");
  if (nidx != npool && ncounts > 0) {
    /* ngram_indexes has one entry per n-gram, not per pool item: checked below */
  }
  if (ming < 1 || maxg < ming || maxskip < 0) return ge_kernel_error(c, GE_ERR_INVALID, "bad gram lengths or skip count");
  if (nw >= 0 && nw != nidx) return ge_kernel_error(c, GE_ERR_INVALID, "weights and ngram_indexes differ in length");
  for (i = 0; i < nidx; i++) {
    if (idx[i] < 0) return ge_kernel_error(c, GE_ERR_INVALID, "negative ngram index");
    if (idx[i] + 1 > nout) nout = idx[i] + 1;
  }
  for (g = 0; g < ncounts; g++)
    if (counts[g] < 0 || counts[g] > npool || (g > 0 && counts[g] < counts[g - 1]))
      return ge_kernel_error(c, GE_ERR_INVALID, "bad ngram_counts");
  if (x->rank == 1) {
    rows = 1;
    cols = x->dims[0];
    dims[0] = nout;
  } else if (x->rank == 2) {
    rows = x->dims[0];
    cols = x->dims[1];
    dims[0] = rows;
    dims[1] = nout;
  } else
    return ge_kernel_error(c, GE_ERR_SHAPE, "input must be [C] or [N, C]");
  if (!(y = ge_kernel_output(c, 0, GE_DTYPE_FLOAT32, x->rank, dims))) return GE__HC_OUT_FAILED(c);
  if (!(cnt = (double *)ge__hc_ex_alloc(c, (size_t)(nout ? nout : 1) * sizeof(double)))) return GE__HC_OUT_FAILED(c);
  for (r = 0; r < rows; r++) {
    int64_t base = r * cols, start, skip, n;
    memset(cnt, 0, (size_t)(nout ? nout : 1) * sizeof(double));
    for (start = 0; start < cols; start++)
      for (skip = 0; skip <= maxskip; skip++)
        for (n = ming; n <= maxg && n <= ncounts; n++) {
          int64_t p0, p1, p, gi;
          if (n == 1 && skip > 0) continue; /* a unigram is counted once */
          if (start + (n - 1) * (skip + 1) >= cols) continue;
          p0 = counts[n - 1];
          p1 = n < ncounts ? counts[n] : npool;
          if ((p1 - p0) % n) {
            free(cnt);
            return ge_kernel_error(c, GE_ERR_INVALID, "pool section of %lld-grams is not a multiple of %lld", (long long)n, (long long)n);
          }
          for (p = p0, gi = 0; p + n <= p1; p += n) {
            /* n-gram number: p0's grams come after the earlier sections */
            int64_t ord = 0, gg;
            for (gg = 0; gg < n - 1; gg++) ord += ((gg + 1 < ncounts ? counts[gg + 1] : npool) - counts[gg]) / (gg + 1);
            ord += (p - p0) / n;
            (void)gi;
            if (ord >= nidx) break;
            if (ge__hc_ex_gram_eq(x, base, start, skip + 1, n, ipool, spool, p)) {
              cnt[idx[ord]] += 1;
              break;
            }
          }
        }
    for (i = 0; i < nout; i++) {
      double v = cnt[i];
      ge__hc_set_f(y, r * nout + i, v);
    }
    if (md != 0 || wts) {
      /* weights are per n-gram: apply through the index map */
      for (i = 0; i < nidx; i++) {
        double v = cnt[idx[i]], w = wts ? wts[i] : 1.0;
        if (md == 1) v = v > 0 ? w : 0;
        else if (md == 2) v = v * w;
        ge__hc_set_f(y, r * nout + idx[i], v);
      }
    }
  }
  free(cnt);
  return GE_OK;
}

/* ---------------------------------------------------- recurrent layers */

/* One activation function of the recurrent ops, with its alpha / beta. */
typedef struct ge__hc_ex_act {
  int kind;
  double alpha, beta;
} ge__hc_ex_act;

enum {
  GE__HC_EX_SIGMOID,
  GE__HC_EX_TANH,
  GE__HC_EX_RELU,
  GE__HC_EX_AFFINE,
  GE__HC_EX_LEAKY_RELU,
  GE__HC_EX_THRESHOLDED_RELU,
  GE__HC_EX_SCALED_TANH,
  GE__HC_EX_HARD_SIGMOID,
  GE__HC_EX_ELU,
  GE__HC_EX_SOFTSIGN,
  GE__HC_EX_SOFTPLUS
};

static double ge__hc_ex_act_apply(const ge__hc_ex_act *a, double x) {
  switch (a->kind) {
  case GE__HC_EX_SIGMOID: return x >= 0 ? 1 / (1 + exp(-x)) : exp(x) / (1 + exp(x));
  case GE__HC_EX_TANH: return tanh(x);
  case GE__HC_EX_RELU: return x > 0 ? x : 0;
  case GE__HC_EX_AFFINE: return a->alpha * x + a->beta;
  case GE__HC_EX_LEAKY_RELU: return x >= 0 ? x : a->alpha * x;
  case GE__HC_EX_THRESHOLDED_RELU: return x > a->alpha ? x : 0;
  case GE__HC_EX_SCALED_TANH: return a->alpha * tanh(a->beta * x);
  case GE__HC_EX_HARD_SIGMOID: {
    double v = a->alpha * x + a->beta;
    return v < 0 ? 0 : v > 1 ? 1 : v;
  }
  case GE__HC_EX_ELU: return x >= 0 ? x : a->alpha * (exp(x) - 1);
  case GE__HC_EX_SOFTSIGN: return x / (1 + fabs(x));
  default: return x > 0 ? x + log1p(exp(-x)) : log1p(exp(x));
  }
}

/* Parses the activations attribute (nact per direction, defaults dflt)
 * into acts[dir * nact + k]. alpha/beta are consumed in order by the
 * functions that take them. */
static ge_status ge__hc_ex_acts(ge_kernel_ctx *c, int ndir, int nact, const int *dflt, ge__hc_ex_act *acts) {
  const char *const *names = NULL;
  const double *al = NULL, *be = NULL;
  int32_t n = ge__hc_ex_attr_strings(c->node, "activations", &names);
  int32_t nal = ge__hc_ex_attr_floats(c->node, "activation_alpha", &al);
  int32_t nbe = ge__hc_ex_attr_floats(c->node, "activation_beta", &be), ia = 0, ib = 0;
  int i;
  if (n >= 0 && n != ndir * nact && n != nact)
    return ge_kernel_error(c, GE_ERR_INVALID, "activations needs %d entries, has %d", ndir * nact, (int)n);
  for (i = 0; i < ndir * nact; i++) {
    ge__hc_ex_act *a = &acts[i];
    const char *nm;
    a->kind = dflt[i % nact];
    a->alpha = 0;
    a->beta = 0;
    if (n < 0) continue;
    nm = names[n == nact ? i % nact : i];
    if (ge__hc_ex_streq_nocase(nm, "Sigmoid")) a->kind = GE__HC_EX_SIGMOID;
    else if (ge__hc_ex_streq_nocase(nm, "Tanh")) a->kind = GE__HC_EX_TANH;
    else if (ge__hc_ex_streq_nocase(nm, "Relu")) a->kind = GE__HC_EX_RELU;
    else if (ge__hc_ex_streq_nocase(nm, "Affine")) {
      a->kind = GE__HC_EX_AFFINE;
      a->alpha = 1;
    } else if (ge__hc_ex_streq_nocase(nm, "LeakyRelu")) {
      a->kind = GE__HC_EX_LEAKY_RELU;
      a->alpha = 0.01;
    } else if (ge__hc_ex_streq_nocase(nm, "ThresholdedRelu")) {
      a->kind = GE__HC_EX_THRESHOLDED_RELU;
      a->alpha = 1;
    } else if (ge__hc_ex_streq_nocase(nm, "ScaledTanh")) {
      a->kind = GE__HC_EX_SCALED_TANH;
      a->alpha = 1;
      a->beta = 1;
    } else if (ge__hc_ex_streq_nocase(nm, "HardSigmoid")) {
      a->kind = GE__HC_EX_HARD_SIGMOID;
      a->alpha = 0.2;
      a->beta = 0.5;
    } else if (ge__hc_ex_streq_nocase(nm, "Elu")) {
      a->kind = GE__HC_EX_ELU;
      a->alpha = 1;
    } else if (ge__hc_ex_streq_nocase(nm, "Softsign")) a->kind = GE__HC_EX_SOFTSIGN;
    else if (ge__hc_ex_streq_nocase(nm, "Softplus")) a->kind = GE__HC_EX_SOFTPLUS;
    else return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "unknown activation '%s'", nm);
    if (a->kind == GE__HC_EX_AFFINE || a->kind == GE__HC_EX_LEAKY_RELU || a->kind == GE__HC_EX_THRESHOLDED_RELU ||
        a->kind == GE__HC_EX_SCALED_TANH || a->kind == GE__HC_EX_HARD_SIGMOID || a->kind == GE__HC_EX_ELU) {
      if (ia < nal) a->alpha = al[ia++];
    }
    if (a->kind == GE__HC_EX_AFFINE || a->kind == GE__HC_EX_SCALED_TANH || a->kind == GE__HC_EX_HARD_SIGMOID) {
      if (ib < nbe) a->beta = be[ib++];
    }
  }
  return GE_OK;
}

/* RNN (kind 0, 1 gate), GRU (kind 1, gates z r h), LSTM (kind 2, gates
 * i o f c). */
static ge_status ge__hc_ex_recurrent(ge_kernel_ctx *c, int kind) {
  static const int dflt_rnn[1] = {GE__HC_EX_TANH};
  static const int dflt_gru[2] = {GE__HC_EX_SIGMOID, GE__HC_EX_TANH};
  static const int dflt_lstm[3] = {GE__HC_EX_SIGMOID, GE__HC_EX_TANH, GE__HC_EX_TANH};
  const ge_node *nd = c->node;
  const ge_value *in[8];
  const ge_value *X, *W, *R, *B, *SL, *H0, *C0, *P;
  const char *dir = ge_node_attr_string(nd, "direction", "forward");
  int layout = (int)ge_node_attr_int(nd, "layout", 0), ndir, nact = kind == 0 ? 1 : kind == 1 ? 2 : 3;
  int ng = kind == 0 ? 1 : kind == 1 ? 3 : 4, lbr = ge_node_attr_int(nd, "linear_before_reset", 0) != 0;
  int input_forget = ge_node_attr_int(nd, "input_forget", 0) != 0, has_clip = ge_node_attr(nd, "clip") != NULL;
  double clip = ge_node_attr_float(nd, "clip", 0);
  int64_t hs = ge_node_attr_int(nd, "hidden_size", -1), seq, batch, isz, d, b, t, j, k, ydims[4], hdims[3];
  ge__hc_ex_act acts[6];
  ge_value *Y = NULL, *Yh = NULL, *Yc = NULL;
  double *h = NULL, *cs = NULL, *g = NULL, *hn = NULL;
  ge_status s = GE_OK;
  uint32_t i;
  for (i = 0; i < 8; i++) in[i] = i < c->num_inputs ? c->inputs[i] : NULL;
  X = in[0];
  W = in[1];
  R = in[2];
  B = in[3];
  SL = in[4];
  H0 = in[5];
  C0 = kind == 2 ? in[6] : NULL;
  P = kind == 2 ? in[7] : NULL;
  if (strcmp(dir, "forward") == 0 || strcmp(dir, "reverse") == 0) ndir = 1;
  else if (strcmp(dir, "bidirectional") == 0) ndir = 2;
  else return ge_kernel_error(c, GE_ERR_INVALID, "bad direction '%s'", dir);
  if (!X || !W || !R) return ge_kernel_error(c, GE_ERR_INVALID, "X, W and R are required");
  if (!ge__hc_is_float(X->dtype) || W->dtype != X->dtype || R->dtype != X->dtype)
    return ge_kernel_error(c, GE_ERR_INVALID, "X, W and R must be float tensors of one dtype");
  if (X->rank != 3 || W->rank != 3 || R->rank != 3) return ge_kernel_error(c, GE_ERR_SHAPE, "X, W and R must have rank 3");
  if (layout != 0 && layout != 1) return ge_kernel_error(c, GE_ERR_INVALID, "layout must be 0 or 1");
  seq = layout ? X->dims[1] : X->dims[0];
  batch = layout ? X->dims[0] : X->dims[1];
  isz = X->dims[2];
  if (hs < 0) hs = R->dims[2];
  if (W->dims[0] != ndir || W->dims[1] != ng * hs || W->dims[2] != isz)
    return ge_kernel_error(c, GE_ERR_SHAPE, "W must be [%d, %lld, %lld]", ndir, (long long)(ng * hs), (long long)isz);
  if (R->dims[0] != ndir || R->dims[1] != ng * hs || R->dims[2] != hs)
    return ge_kernel_error(c, GE_ERR_SHAPE, "R must be [%d, %lld, %lld]", ndir, (long long)(ng * hs), (long long)hs);
  if (B && (B->rank != 2 || B->dims[0] != ndir || B->dims[1] != 2 * ng * hs || B->dtype != X->dtype))
    return ge_kernel_error(c, GE_ERR_SHAPE, "B must be [%d, %lld]", ndir, (long long)(2 * ng * hs));
  if (SL && (SL->rank != 1 || SL->dims[0] != batch || ge__hc_is_float(SL->dtype) || SL->dtype == GE_DTYPE_STRING))
    return ge_kernel_error(c, GE_ERR_SHAPE, "sequence_lens must be an integer [batch] tensor");
  for (k = 0; k < 2; k++) {
    const ge_value *st = k ? C0 : H0;
    if (st && (st->rank != 3 || st->dtype != X->dtype || st->dims[2] != hs ||
               (layout ? st->dims[0] != batch || st->dims[1] != ndir : st->dims[0] != ndir || st->dims[1] != batch)))
      return ge_kernel_error(c, GE_ERR_SHAPE, "initial state has the wrong shape");
  }
  if (P && (P->rank != 2 || P->dims[0] != ndir || P->dims[1] != 3 * hs || P->dtype != X->dtype))
    return ge_kernel_error(c, GE_ERR_SHAPE, "P must be [%d, %lld]", ndir, (long long)(3 * hs));
  for (b = 0; SL && b < batch; b++)
    if (ge__hc_get_i(SL, b) < 0 || ge__hc_get_i(SL, b) > seq)
      return ge_kernel_error(c, GE_ERR_INVALID, "sequence length out of range");
  if ((s = ge__hc_ex_acts(c, ndir, nact, kind == 0 ? dflt_rnn : kind == 1 ? dflt_gru : dflt_lstm, acts))) return s;
  if (layout) {
    ydims[0] = batch;
    ydims[1] = seq;
    ydims[2] = ndir;
    hdims[0] = batch;
    hdims[1] = ndir;
  } else {
    ydims[0] = seq;
    ydims[1] = ndir;
    ydims[2] = batch;
    hdims[0] = ndir;
    hdims[1] = batch;
  }
  ydims[3] = hs;
  hdims[2] = hs;
  if (c->num_outputs > 0 && !(Y = ge_kernel_output(c, 0, X->dtype, 4, ydims))) return GE__HC_OUT_FAILED(c);
  if (c->num_outputs > 1 && !(Yh = ge_kernel_output(c, 1, X->dtype, 3, hdims))) return GE__HC_OUT_FAILED(c);
  if (kind == 2 && c->num_outputs > 2 && !(Yc = ge_kernel_output(c, 2, X->dtype, 3, hdims))) return GE__HC_OUT_FAILED(c);
  for (k = 0; Y && k < Y->numel; k++) ge__hc_set_f(Y, k, 0);
  h = (double *)ge__hc_ex_alloc(c, (size_t)(hs + 1) * sizeof(double));
  cs = (double *)ge__hc_ex_alloc(c, (size_t)(hs + 1) * sizeof(double));
  hn = (double *)ge__hc_ex_alloc(c, (size_t)(hs + 1) * sizeof(double));
  g = (double *)ge__hc_ex_alloc(c, (size_t)(2 * ng * hs + 1) * sizeof(double));
  if (!h || !cs || !hn || !g) {
    s = GE__HC_OUT_FAILED(c);
    goto done;
  }
  for (d = 0; d < ndir; d++) {
    int rev = ndir == 2 ? d == 1 : strcmp(dir, "reverse") == 0;
    const ge__hc_ex_act *fa = &acts[d * nact], *ga = &acts[d * nact + (nact > 1)], *ha = &acts[d * nact + nact - 1];
    for (b = 0; b < batch; b++) {
      int64_t len = SL ? ge__hc_get_i(SL, b) : seq, step;
      /* state index within [dir, batch, hs] or [batch, dir, hs] */
      int64_t so = (layout ? b * ndir + d : d * batch + b) * hs;
      for (j = 0; j < hs; j++) {
        h[j] = H0 ? ge__hc_get_f(H0, so + j) : 0;
        cs[j] = C0 ? ge__hc_get_f(C0, so + j) : 0;
      }
      for (step = 0; step < len; step++) {
        int64_t tt = rev ? len - 1 - step : step;
        int64_t xo = (layout ? b * seq + tt : tt * batch + b) * isz;
        t = tt;
        /* g[0 .. ng*hs): X*W^T + Wb; g[ng*hs ..): H*R^T + Rb */
        for (j = 0; j < ng * hs; j++) {
          double xw = B ? ge__hc_get_f(B, d * 2 * ng * hs + j) : 0, hr = B ? ge__hc_get_f(B, d * 2 * ng * hs + ng * hs + j) : 0;
          for (k = 0; k < isz; k++) xw += ge__hc_get_f(X, xo + k) * ge__hc_get_f(W, (d * ng * hs + j) * isz + k);
          for (k = 0; k < hs; k++) hr += h[k] * ge__hc_get_f(R, (d * ng * hs + j) * hs + k);
          g[j] = xw;
          g[ng * hs + j] = hr;
        }
        for (j = 0; j < hs; j++) {
          if (kind == 0) {
            double v = g[j] + g[hs + j];
            if (has_clip) v = v < -clip ? -clip : v > clip ? clip : v;
            hn[j] = ge__hc_ex_act_apply(fa, v);
          } else if (kind == 1) {
            double z = g[j] + g[3 * hs + j], r = g[hs + j] + g[4 * hs + j], hh;
            if (has_clip) {
              z = z < -clip ? -clip : z > clip ? clip : z;
              r = r < -clip ? -clip : r > clip ? clip : r;
            }
            z = ge__hc_ex_act_apply(fa, z);
            r = ge__hc_ex_act_apply(fa, r);
            if (lbr) hh = g[2 * hs + j] + r * g[5 * hs + j];
            else {
              double acc = B ? ge__hc_get_f(B, d * 6 * hs + 5 * hs + j) : 0;
              for (k = 0; k < hs; k++) {
                /* r of hidden unit k is needed: recompute it */
                double rk = g[hs + k] + g[4 * hs + k];
                if (has_clip) rk = rk < -clip ? -clip : rk > clip ? clip : rk;
                acc += ge__hc_ex_act_apply(fa, rk) * h[k] * ge__hc_get_f(R, (d * 3 * hs + 2 * hs + j) * hs + k);
              }
              hh = g[2 * hs + j] + acc;
            }
            if (has_clip) hh = hh < -clip ? -clip : hh > clip ? clip : hh;
            hh = ge__hc_ex_act_apply(ga, hh);
            hn[j] = (1 - z) * hh + z * h[j];
          } else {
            double gi = g[j] + g[4 * hs + j], go = g[hs + j] + g[5 * hs + j], gf = g[2 * hs + j] + g[6 * hs + j];
            double gc = g[3 * hs + j] + g[7 * hs + j], cn;
            if (P) {
              gi += ge__hc_get_f(P, d * 3 * hs + j) * cs[j];
              gf += ge__hc_get_f(P, d * 3 * hs + 2 * hs + j) * cs[j];
            }
            if (has_clip) {
              gi = gi < -clip ? -clip : gi > clip ? clip : gi;
              gf = gf < -clip ? -clip : gf > clip ? clip : gf;
              gc = gc < -clip ? -clip : gc > clip ? clip : gc;
            }
            gi = ge__hc_ex_act_apply(fa, gi);
            gf = input_forget ? 1 - gi : ge__hc_ex_act_apply(fa, gf);
            gc = ge__hc_ex_act_apply(ga, gc);
            cn = gf * cs[j] + gi * gc;
            if (P) go += ge__hc_get_f(P, d * 3 * hs + hs + j) * cn;
            if (has_clip) go = go < -clip ? -clip : go > clip ? clip : go;
            go = ge__hc_ex_act_apply(fa, go);
            hn[j] = go * ge__hc_ex_act_apply(ha, cn);
            g[ng * hs + j] = cn; /* the new cell state (this slot is consumed) */
          }
        }
        for (j = 0; j < hs; j++) {
          if (kind == 2) cs[j] = g[ng * hs + j];
          h[j] = hn[j];
          if (Y) ge__hc_set_f(Y, (layout ? (b * seq + t) * ndir + d : (t * ndir + d) * batch + b) * hs + j, h[j]);
        }
      }
      for (j = 0; j < hs; j++) {
        if (Yh) ge__hc_set_f(Yh, so + j, h[j]);
        if (Yc) ge__hc_set_f(Yc, so + j, cs[j]);
      }
    }
  }
done:
  free(h);
  free(cs);
  free(hn);
  free(g);
  return s;
}
static ge_status ge__hc_rnn(ge_kernel_ctx *c) { return ge__hc_ex_recurrent(c, 0); }
static ge_status ge__hc_gru(ge_kernel_ctx *c) { return ge__hc_ex_recurrent(c, 1); }
static ge_status ge__hc_lstm(ge_kernel_ctx *c) { return ge__hc_ex_recurrent(c, 2); }

/* --------------------------------------------------------- GridSample */

static double ge__hc_ex_gs_reflect(double x, double lo, double hi) {
  double rng = hi - lo, dx, r;
  int64_t n;
  if (rng <= 0) return lo;
  if (x < lo) {
    dx = lo - x;
    n = (int64_t)(dx / rng);
    r = dx - (double)n * rng;
    return n % 2 == 0 ? lo + r : hi - r;
  }
  if (x > hi) {
    dx = x - hi;
    n = (int64_t)(dx / rng);
    r = dx - (double)n * rng;
    return n % 2 == 0 ? hi - r : lo + r;
  }
  return x;
}

/* Pixel (r, col) of one H x W image at offset base, with the padding mode
 * (0 zeros, 1 border, 2 reflection) deciding out-of-range reads. */
static double ge__hc_ex_gs_pixel(const ge_value *x, int64_t base, int64_t hgt, int64_t wid, int64_t r, int64_t col, int pad,
                                 const double *border) {
  if (pad == 0) {
    if (col < 0 || col >= wid || r < 0 || r >= hgt) return 0;
  } else if (pad == 1) {
    col = col < 0 ? 0 : col >= wid ? wid - 1 : col;
    r = r < 0 ? 0 : r >= hgt ? hgt - 1 : r;
  } else {
    col = (int64_t)ge__hc_ex_gs_reflect((double)col, border[0], border[2]);
    r = (int64_t)ge__hc_ex_gs_reflect((double)r, border[1], border[3]);
    col = col < 0 ? 0 : col >= wid ? wid - 1 : col;
    r = r < 0 ? 0 : r >= hgt ? hgt - 1 : r;
  }
  return ge__hc_get_f(x, base + r * wid + col);
}

static void ge__hc_ex_cubic_coeffs(double x, double *cf) {
  double a = -0.75;
  x = fabs(x);
  cf[0] = ((a * (x + 1) - 5 * a) * (x + 1) + 8 * a) * (x + 1) - 4 * a;
  cf[1] = ((a + 2) * x - (a + 3)) * x * x + 1;
  cf[2] = ((a + 2) * (1 - x) - (a + 3)) * (1 - x) * (1 - x) + 1;
  cf[3] = ((a * (2 - x) - 5 * a) * (2 - x) + 8 * a) * (2 - x) - 4 * a;
}

static ge_status ge__hc_grid_sample(ge_kernel_ctx *c) {
  const ge_value *x = c->num_inputs > 0 ? c->inputs[0] : NULL, *gr = c->num_inputs > 1 ? c->inputs[1] : NULL;
  const char *ms = ge_node_attr_string(c->node, "mode", "bilinear"), *ps = ge_node_attr_string(c->node, "padding_mode", "zeros");
  int ac = ge_node_attr_int(c->node, "align_corners", 0) != 0, mode, pad;
  int64_t nb, ch, hgt, wid, oh, ow, n, cc, i, j, dims[4];
  double border[4];
  ge_value *y;
  if (strcmp(ms, "bilinear") == 0 || strcmp(ms, "linear") == 0) mode = 0;
  else if (strcmp(ms, "nearest") == 0) mode = 1;
  else if (strcmp(ms, "bicubic") == 0 || strcmp(ms, "cubic") == 0) mode = 2;
  else return ge_kernel_error(c, GE_ERR_INVALID, "bad mode '%s'", ms);
  if (strcmp(ps, "zeros") == 0) pad = 0;
  else if (strcmp(ps, "border") == 0) pad = 1;
  else if (strcmp(ps, "reflection") == 0) pad = 2;
  else return ge_kernel_error(c, GE_ERR_INVALID, "bad padding_mode '%s'", ps);
  if (!x || !gr || !ge__hc_is_float(x->dtype) || !ge__hc_is_float(gr->dtype))
    return ge_kernel_error(c, GE_ERR_INVALID, "X and grid must be float tensors");
  if (x->rank != 4 || gr->rank != 4 || gr->dims[3] != 2 || gr->dims[0] != x->dims[0])
    return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "only 4-D X (N, C, H, W) with grid (N, H_out, W_out, 2) is supported");
  nb = x->dims[0];
  ch = x->dims[1];
  hgt = x->dims[2];
  wid = x->dims[3];
  oh = gr->dims[1];
  ow = gr->dims[2];
  dims[0] = nb;
  dims[1] = ch;
  dims[2] = oh;
  dims[3] = ow;
  if (!(y = ge_kernel_output(c, 0, x->dtype, 4, dims))) return GE__HC_OUT_FAILED(c);
  if (ac) {
    border[0] = 0;
    border[1] = 0;
    border[2] = (double)wid - 1;
    border[3] = (double)hgt - 1;
  } else {
    border[0] = -0.5;
    border[1] = -0.5;
    border[2] = (double)wid - 0.5;
    border[3] = (double)hgt - 0.5;
  }
  for (n = 0; n < nb; n++)
    for (cc = 0; cc < ch; cc++) {
      int64_t base = (n * ch + cc) * hgt * wid;
      for (i = 0; i < oh; i++)
        for (j = 0; j < ow; j++) {
          int64_t go = ((n * oh + i) * ow + j) * 2;
          double gx = ge__hc_get_f(gr, go), gy = ge__hc_get_f(gr, go + 1), px, py, v;
          px = ac ? (gx + 1) / 2 * (double)(wid - 1) : ((gx + 1) * (double)wid - 1) / 2;
          py = ac ? (gy + 1) / 2 * (double)(hgt - 1) : ((gy + 1) * (double)hgt - 1) / 2;
          if (mode == 1) {
            px = ge__hc_ex_rint(px);
            py = ge__hc_ex_rint(py);
          }
          if (pad == 1) {
            px = px < 0 ? 0 : px > (double)(wid - 1) ? (double)(wid - 1) : px;
            py = py < 0 ? 0 : py > (double)(hgt - 1) ? (double)(hgt - 1) : py;
          } else if (pad == 2) {
            px = ge__hc_ex_gs_reflect(px, border[0], border[2]);
            py = ge__hc_ex_gs_reflect(py, border[1], border[3]);
          }
          if (px != px || py != py || fabs(px) > 1e15 || fabs(py) > 1e15) v = 0;
          else if (mode == 1) {
            v = ge__hc_ex_gs_pixel(x, base, hgt, wid, (int64_t)py, (int64_t)px, pad, border);
          } else if (mode == 0) {
            double x1 = floor(px), y1 = floor(py), dx1 = px - x1, dy1 = py - y1, dx2 = 1 - dx1, dy2 = 1 - dy1;
            int64_t ix = (int64_t)x1, iy = (int64_t)y1;
            double p11 = ge__hc_ex_gs_pixel(x, base, hgt, wid, iy, ix, pad, border);
            double p12 = ge__hc_ex_gs_pixel(x, base, hgt, wid, iy, ix + 1, pad, border);
            double p21 = ge__hc_ex_gs_pixel(x, base, hgt, wid, iy + 1, ix, pad, border);
            double p22 = ge__hc_ex_gs_pixel(x, base, hgt, wid, iy + 1, ix + 1, pad, border);
            v = dy2 * (dx2 * p11 + dx1 * p12) + dy1 * (dx2 * p21 + dx1 * p22);
          } else {
            double x0 = floor(px) - 1, y0 = floor(py) - 1, cx[4], cy[4], rows[4];
            int64_t ix = (int64_t)x0, iy = (int64_t)y0, a, bb;
            ge__hc_ex_cubic_coeffs(px - x0 - 1, cx);
            ge__hc_ex_cubic_coeffs(py - y0 - 1, cy);
            v = 0;
            for (a = 0; a < 4; a++) {
              rows[a] = 0;
              for (bb = 0; bb < 4; bb++) rows[a] += cx[bb] * ge__hc_ex_gs_pixel(x, base, hgt, wid, iy + a, ix + bb, pad, border);
              v += cy[a] * rows[a];
            }
          }
          ge__hc_set_f(y, ((n * ch + cc) * oh + i) * ow + j, v);
        }
    }
  return GE_OK;
}

/* ------------------------------------------------------------- signal */

/* The DFT of n complex samples (re/im at stride st from in, zero past
 * avail) into out (len bins, interleaved re/im). */
static void ge__hc_ex_dft1(const ge_value *x, int64_t off, int64_t st, int cplx, int64_t avail, int64_t n, int64_t len,
                           int inverse, const ge_value *win, double *out) {
  const double pi = 3.14159265358979323846;
  int64_t k, t;
  for (k = 0; k < len; k++) {
    double re = 0, im = 0;
    for (t = 0; t < n && t < avail; t++) {
      double xr = ge__hc_get_f(x, off + t * st * (cplx ? 2 : 1)), xi = cplx ? ge__hc_get_f(x, off + t * st * 2 + 1) : 0;
      double ang = (inverse ? 2 : -2) * pi * (double)((k * t) % n) / (double)n, cr = cos(ang), si = sin(ang);
      if (win) {
        double w = ge__hc_get_f(win, t);
        xr *= w;
        xi *= w;
      }
      re += xr * cr - xi * si;
      im += xr * si + xi * cr;
    }
    if (inverse) {
      re /= (double)n;
      im /= (double)n;
    }
    out[2 * k] = re;
    out[2 * k + 1] = im;
  }
}

static ge_status ge__hc_dft(ge_kernel_ctx *c) {
  const ge_value *x = c->num_inputs > 0 ? c->inputs[0] : NULL, *lv = c->num_inputs > 1 ? c->inputs[1] : NULL;
  int inverse = ge_node_attr_int(c->node, "inverse", 0) != 0, onesided = ge_node_attr_int(c->node, "onesided", 0) != 0;
  int64_t n, len, outer, inner, o, in_, dims[GE_MAX_RANK], k;
  int32_t ax, r;
  int cplx;
  double *buf;
  ge_value *y;
  if (!x || !ge__hc_is_float(x->dtype)) return ge_kernel_error(c, GE_ERR_INVALID, "input must be a float tensor");
  r = x->rank;
  if (r < 2 || (x->dims[r - 1] != 1 && x->dims[r - 1] != 2))
    return ge_kernel_error(c, GE_ERR_SHAPE, "input must end in a dimension of 1 (real) or 2 (complex)");
  cplx = x->dims[r - 1] == 2;
  if (!ge__hc_axis(ge_node_attr_int(c->node, "axis", 1), r, &ax) || ax == r - 1)
    return ge_kernel_error(c, GE_ERR_INVALID, "axis out of range");
  n = x->dims[ax];
  if (lv) {
    if (!ge__hc_ex_scalar_i(lv, &n) || ge__hc_is_float(lv->dtype)) return ge_kernel_error(c, GE_ERR_INVALID, "dft_length must be an integer scalar");
    if (n < 1) return ge_kernel_error(c, GE_ERR_INVALID, "dft_length must be positive");
  }
  if (n < 1) return ge_kernel_error(c, GE_ERR_SHAPE, "empty signal axis");
  len = onesided ? n / 2 + 1 : n;
  memcpy(dims, x->dims, (size_t)r * sizeof *dims);
  dims[ax] = len;
  dims[r - 1] = 2;
  if (!(y = ge_kernel_output(c, 0, x->dtype, r, dims))) return GE__HC_OUT_FAILED(c);
  outer = ge__hc_ex_prod(x->dims, 0, ax);
  inner = ge__hc_ex_prod(x->dims, ax + 1, r - 1);
  if (!(buf = (double *)ge__hc_ex_alloc(c, (size_t)len * 2 * sizeof(double)))) return GE__HC_OUT_FAILED(c);
  for (o = 0; o < outer; o++)
    for (in_ = 0; in_ < inner; in_++) {
      int64_t off = (o * x->dims[ax] * inner + in_) * (cplx ? 2 : 1);
      ge__hc_ex_dft1(x, off, inner, cplx, x->dims[ax], n, len, inverse, NULL, buf);
      for (k = 0; k < len; k++) {
        int64_t yo = ((o * len + k) * inner + in_) * 2;
        ge__hc_set_f(y, yo, buf[2 * k]);
        ge__hc_set_f(y, yo + 1, buf[2 * k + 1]);
      }
    }
  free(buf);
  return GE_OK;
}

static ge_status ge__hc_stft(ge_kernel_ctx *c) {
  const ge_value *x = c->num_inputs > 0 ? c->inputs[0] : NULL, *sv = c->num_inputs > 1 ? c->inputs[1] : NULL;
  const ge_value *win = c->num_inputs > 2 ? c->inputs[2] : NULL, *fv = c->num_inputs > 3 ? c->inputs[3] : NULL;
  int onesided = ge_node_attr_int(c->node, "onesided", 1) != 0, cplx;
  int64_t step, fl = -1, frames, bins, b, f, k, dims[4];
  double *buf;
  ge_value *y;
  if (!x || !ge__hc_is_float(x->dtype) || x->rank != 3 || (x->dims[2] != 1 && x->dims[2] != 2))
    return ge_kernel_error(c, GE_ERR_SHAPE, "signal must be a float [batch, length, 1 or 2] tensor");
  cplx = x->dims[2] == 2;
  if (!ge__hc_ex_scalar_i(sv, &step) || ge__hc_is_float(sv->dtype) || step < 1)
    return ge_kernel_error(c, GE_ERR_INVALID, "frame_step must be a positive integer scalar");
  if (win && (win->rank != 1 || !ge__hc_is_float(win->dtype))) return ge_kernel_error(c, GE_ERR_SHAPE, "window must be a 1-D float tensor");
  if (fv && (!ge__hc_ex_scalar_i(fv, &fl) || ge__hc_is_float(fv->dtype)))
    return ge_kernel_error(c, GE_ERR_INVALID, "frame_length must be an integer scalar");
  if (win && fl >= 0 && win->dims[0] != fl) return ge_kernel_error(c, GE_ERR_SHAPE, "window length differs from frame_length");
  if (win) fl = win->dims[0];
  if (fl < 1 || fl > x->dims[1]) return ge_kernel_error(c, GE_ERR_INVALID, "frame length must be in [1, signal length]");
  frames = (x->dims[1] - fl) / step + 1;
  bins = onesided ? fl / 2 + 1 : fl;
  dims[0] = x->dims[0];
  dims[1] = frames;
  dims[2] = bins;
  dims[3] = 2;
  if (!(y = ge_kernel_output(c, 0, x->dtype, 4, dims))) return GE__HC_OUT_FAILED(c);
  if (!(buf = (double *)ge__hc_ex_alloc(c, (size_t)bins * 2 * sizeof(double)))) return GE__HC_OUT_FAILED(c);
  for (b = 0; b < x->dims[0]; b++)
    for (f = 0; f < frames; f++) {
      int64_t off = (b * x->dims[1] + f * step) * (cplx ? 2 : 1);
      ge__hc_ex_dft1(x, off, 1, cplx, fl, fl, bins, 0, win, buf);
      for (k = 0; k < bins; k++) {
        int64_t yo = ((b * frames + f) * bins + k) * 2;
        ge__hc_set_f(y, yo, buf[2 * k]);
        ge__hc_set_f(y, yo + 1, buf[2 * k + 1]);
      }
    }
  free(buf);
  return GE_OK;
}

static ge_status ge__hc_mel_weight_matrix(ge_kernel_ctx *c) {
  int64_t nmel, dftl, dt = ge_node_attr_int(c->node, "output_datatype", GE_DTYPE_FLOAT32), nspec, i, j, dims[2];
  double rate, lo, hi, lmel, hmel, step;
  int64_t *bins;
  ge_value *y;
  if (c->num_inputs < 5 || !ge__hc_ex_scalar_i(c->inputs[0], &nmel) || !ge__hc_ex_scalar_i(c->inputs[1], &dftl) ||
      !ge__hc_ex_scalar_f(c->inputs[2], &rate) || !ge__hc_ex_scalar_f(c->inputs[3], &lo) ||
      !ge__hc_ex_scalar_f(c->inputs[4], &hi))
    return ge_kernel_error(c, GE_ERR_INVALID, "needs five scalar inputs");
  if (nmel < 1 || dftl < 1 || rate <= 0 || lo < 0 || hi < lo || hi > rate)
    return ge_kernel_error(c, GE_ERR_INVALID, "bad mel parameters");
  if (dt <= 0 || dt >= GE_DTYPE_COUNT || dt == GE_DTYPE_STRING || dt == GE_DTYPE_COMPLEX64 || dt == GE_DTYPE_COMPLEX128)
    return ge_kernel_error(c, GE_ERR_INVALID, "bad output_datatype %lld", (long long)dt);
  nspec = dftl / 2 + 1;
  dims[0] = nspec;
  dims[1] = nmel;
  if (!(y = ge_kernel_output(c, 0, (ge_dtype)dt, 2, dims))) return GE__HC_OUT_FAILED(c);
  for (i = 0; i < y->numel; i++) ge__hc_set_f(y, i, 0);
  if (!(bins = (int64_t *)ge__hc_ex_alloc(c, (size_t)(nmel + 2) * sizeof(int64_t)))) return GE__HC_OUT_FAILED(c);
  lmel = 2595 * log10(1 + lo / 700);
  hmel = 2595 * log10(1 + hi / 700);
  step = (hmel - lmel) / (double)(nmel + 2);
  for (i = 0; i < nmel + 2; i++) {
    double hz = 700 * (pow(10, ((double)i * step + lmel) / 2595) - 1);
    bins[i] = (int64_t)floor((double)(dftl + 1) * hz / rate);
    if (bins[i] < 0) bins[i] = 0;
    if (bins[i] >= nspec) bins[i] = nspec - 1;
  }
  for (i = 0; i < nmel; i++) {
    int64_t l = bins[i], ce = bins[i + 1], h = bins[i + 2];
    if (ce - l == 0) ge__hc_set_f(y, ce * nmel + i, 1);
    else
      for (j = l; j <= ce; j++) ge__hc_set_f(y, j * nmel + i, (double)(j - l) / (double)(ce - l));
    if (h - ce > 0)
      for (j = ce; j < h; j++) ge__hc_set_f(y, j * nmel + i, (double)(h - j) / (double)(h - ce));
  }
  free(bins);
  return GE_OK;
}

/* ---------------------------------------------------------- MaxUnpool */

static ge_status ge__hc_max_unpool(ge_kernel_ctx *c) {
  const ge_value *x = c->num_inputs > 0 ? c->inputs[0] : NULL, *ix = c->num_inputs > 1 ? c->inputs[1] : NULL;
  const ge_value *os = c->num_inputs > 2 ? c->inputs[2] : NULL;
  const int64_t *ks = NULL, *pads = NULL, *strides = NULL;
  int32_t nk = ge_node_attr_ints(c->node, "kernel_shape", &ks), np = ge_node_attr_ints(c->node, "pads", &pads);
  int32_t ns = ge_node_attr_ints(c->node, "strides", &strides), sp, d;
  int64_t dims[GE_MAX_RANK], odims[GE_MAX_RANK], i, total;
  ge_value *y;
  if (!x || !ix || x->rank < 3 || ix->rank != x->rank) return ge_kernel_error(c, GE_ERR_SHAPE, "X and I must be (N, C, ...) of one rank");
  for (d = 0; d < x->rank; d++)
    if (ix->dims[d] != x->dims[d]) return ge_kernel_error(c, GE_ERR_SHAPE, "I differs in shape from X");
  if (ix->dtype != GE_DTYPE_INT64) return ge_kernel_error(c, GE_ERR_INVALID, "I must be int64");
  sp = x->rank - 2;
  if (nk != sp) return ge_kernel_error(c, GE_ERR_INVALID, "kernel_shape needs %d entries", (int)sp);
  if ((np >= 0 && np != 2 * sp) || (ns >= 0 && ns != sp)) return ge_kernel_error(c, GE_ERR_INVALID, "bad pads or strides");
  dims[0] = x->dims[0];
  dims[1] = x->dims[1];
  for (d = 0; d < sp; d++)
    dims[d + 2] = (x->dims[d + 2] - 1) * (ns > 0 ? strides[d] : 1) + ks[d] - (np > 0 ? pads[d] + pads[d + sp] : 0);
  memcpy(odims, dims, sizeof dims);
  if (os) { /* indices stay relative to the default shape (as the reference) */
    if (os->rank != 1 || os->dims[0] != x->rank || ge__hc_is_float(os->dtype))
      return ge_kernel_error(c, GE_ERR_SHAPE, "output_shape must be an integer [%d] tensor", (int)x->rank);
    for (d = 0; d < x->rank; d++) odims[d] = ge__hc_get_i(os, d);
  }
  for (d = 0; d < x->rank; d++)
    if (dims[d] < 0 || odims[d] < 0) return ge_kernel_error(c, GE_ERR_SHAPE, "negative output dimension");
  if (!(y = ge_kernel_output(c, 0, x->dtype, x->rank, odims))) return GE__HC_OUT_FAILED(c);
  memset(y->data, 0, y->nbytes);
  total = ge__hc_ex_prod(dims, 0, x->rank);
  for (i = 0; i < x->numel; i++) {
    int64_t at = ge__hc_get_i(ix, i), rem, to = 0, mul = 1;
    if (at < 0 || at >= total) return ge_kernel_error(c, GE_ERR_INVALID, "index %lld out of range", (long long)at);
    for (d = x->rank - 1, rem = at; d >= 0; d--) {
      int64_t q = rem % dims[d];
      rem /= dims[d];
      if (q >= odims[d]) return ge_kernel_error(c, GE_ERR_INVALID, "index %lld falls outside output_shape", (long long)at);
      to += q * mul;
      mul *= odims[d];
    }
    memcpy((char *)y->data + (size_t)to * ge_dtype_size(x->dtype), (const char *)x->data + (size_t)i * ge_dtype_size(x->dtype),
           ge_dtype_size(x->dtype));
  }
  return GE_OK;
}

/* ----------------------------------------------------------- RoiAlign */

static ge_status ge__hc_roi_align(ge_kernel_ctx *c) {
  const ge_value *x = c->num_inputs > 0 ? c->inputs[0] : NULL, *rois = c->num_inputs > 1 ? c->inputs[1] : NULL;
  const ge_value *bi = c->num_inputs > 2 ? c->inputs[2] : NULL;
  const char *ms = ge_node_attr_string(c->node, "mode", "avg");
  const char *ct = ge_node_attr_string(c->node, "coordinate_transformation_mode", "half_pixel");
  int64_t oh = ge_node_attr_int(c->node, "output_height", 1), ow = ge_node_attr_int(c->node, "output_width", 1);
  int64_t sr = ge_node_attr_int(c->node, "sampling_ratio", 0), nr, ch, hgt, wid, r, cc, ph, pw, iy, ix, dims[4];
  double scale = ge_node_attr_float(c->node, "spatial_scale", 1.0);
  int is_max, half;
  ge_value *y;
  if (strcmp(ms, "avg") == 0) is_max = 0;
  else if (strcmp(ms, "max") == 0) is_max = 1;
  else return ge_kernel_error(c, GE_ERR_INVALID, "bad mode '%s'", ms);
  if (strcmp(ct, "half_pixel") == 0) half = 1;
  else if (strcmp(ct, "output_half_pixel") == 0) half = 0;
  else return ge_kernel_error(c, GE_ERR_INVALID, "bad coordinate_transformation_mode '%s'", ct);
  if (!x || !rois || !bi || !ge__hc_is_float(x->dtype) || x->rank != 4 || rois->rank != 2 || rois->dims[1] != 4 ||
      !ge__hc_is_float(rois->dtype) || bi->rank != 1 || bi->dims[0] != rois->dims[0] || ge__hc_is_float(bi->dtype))
    return ge_kernel_error(c, GE_ERR_SHAPE, "needs X (N, C, H, W), rois (R, 4) and batch_indices (R)");
  if (oh < 1 || ow < 1 || sr < 0) return ge_kernel_error(c, GE_ERR_INVALID, "bad output size or sampling_ratio");
  nr = rois->dims[0];
  ch = x->dims[1];
  hgt = x->dims[2];
  wid = x->dims[3];
  dims[0] = nr;
  dims[1] = ch;
  dims[2] = oh;
  dims[3] = ow;
  if (!(y = ge_kernel_output(c, 0, x->dtype, 4, dims))) return GE__HC_OUT_FAILED(c);
  for (r = 0; r < nr; r++) {
    int64_t b = ge__hc_get_i(bi, r), gh, gw;
    double off = half ? 0.5 : 0, sw = ge__hc_get_f(rois, r * 4) * scale - off, sh = ge__hc_get_f(rois, r * 4 + 1) * scale - off;
    double rw = ge__hc_get_f(rois, r * 4 + 2) * scale - off - sw, rh = ge__hc_get_f(rois, r * 4 + 3) * scale - off - sh, bh, bw, cnt;
    if (b < 0 || b >= x->dims[0]) return ge_kernel_error(c, GE_ERR_INVALID, "batch index %lld out of range", (long long)b);
    if (!half) {
      if (rw < 1) rw = 1;
      if (rh < 1) rh = 1;
    }
    bh = rh / (double)oh;
    bw = rw / (double)ow;
    gh = sr > 0 ? sr : (int64_t)ceil(rh / (double)oh);
    gw = sr > 0 ? sr : (int64_t)ceil(rw / (double)ow);
    if (gh < 0 || gw < 0 || gh > 1 << 20 || gw > 1 << 20) return ge_kernel_error(c, GE_ERR_INVALID, "bad roi");
    cnt = (double)(gh * gw > 1 ? gh * gw : 1);
    for (cc = 0; cc < ch; cc++) {
      int64_t base = (b * ch + cc) * hgt * wid;
      for (ph = 0; ph < oh; ph++)
        for (pw = 0; pw < ow; pw++) {
          double acc = 0;
          int first = 1;
          for (iy = 0; iy < gh; iy++)
            for (ix = 0; ix < gw; ix++) {
              double yy = sh + (double)ph * bh + ((double)iy + 0.5) * bh / (double)gh;
              double xx = sw + (double)pw * bw + ((double)ix + 0.5) * bw / (double)gw, ly, lx, v[4], w[4];
              int64_t y0, x0, y1, x1;
              int q;
              if (yy < -1.0 || yy > (double)hgt || xx < -1.0 || xx > (double)wid || yy != yy || xx != xx) {
                for (q = 0; q < 4; q++) v[q] = w[q] = 0;
              } else {
                if (yy < 0) yy = 0;
                if (xx < 0) xx = 0;
                y0 = (int64_t)yy;
                x0 = (int64_t)xx;
                if (y0 >= hgt - 1) {
                  y0 = y1 = hgt - 1;
                  yy = (double)y0;
                } else
                  y1 = y0 + 1;
                if (x0 >= wid - 1) {
                  x0 = x1 = wid - 1;
                  xx = (double)x0;
                } else
                  x1 = x0 + 1;
                ly = yy - (double)y0;
                lx = xx - (double)x0;
                w[0] = (1 - ly) * (1 - lx);
                w[1] = (1 - ly) * lx;
                w[2] = ly * (1 - lx);
                w[3] = ly * lx;
                v[0] = ge__hc_get_f(x, base + y0 * wid + x0);
                v[1] = ge__hc_get_f(x, base + y0 * wid + x1);
                v[2] = ge__hc_get_f(x, base + y1 * wid + x0);
                v[3] = ge__hc_get_f(x, base + y1 * wid + x1);
              }
              if (is_max) {
                double m = w[0] * v[0];
                for (q = 1; q < 4; q++)
                  if (w[q] * v[q] > m) m = w[q] * v[q];
                if (first || m > acc) acc = m;
                first = 0;
              } else
                acc += w[0] * v[0] + w[1] * v[1] + w[2] * v[2] + w[3] * v[3];
            }
          ge__hc_set_f(y, ((r * ch + cc) * oh + ph) * ow + pw, is_max ? acc : acc / cnt);
        }
    }
  }
  return GE_OK;
}


/* ---------------------------------------------------------- the table */

typedef struct ge__hc_entry {
  const char *op;
  ge_kernel_fn fn;
} ge__hc_entry;

static const ge__hc_entry ge__hc_table[] = {
    {"Abs", ge__hc_abs},
    {"Acos", ge__hc_acos},
    {"Acosh", ge__hc_acosh},
    {"Add", ge__hc_add},
    {"And", ge__hc_and},
    {"ArgMax", ge__hc_argmax},
    {"ArgMin", ge__hc_argmin},
    {"Asin", ge__hc_asin},
    {"Asinh", ge__hc_asinh},
    {"Atan", ge__hc_atan},
    {"Atanh", ge__hc_atanh},
    {"AveragePool", ge__hc_averagepool},
    {"BatchNormalization", ge__hc_batchnormalization},
    {"BitShift", ge__hc_bit_shift},
    {"BitwiseAnd", ge__hc_bitwise_and},
    {"BitwiseNot", ge__hc_bnot},
    {"BitwiseOr", ge__hc_bitwise_or},
    {"BitwiseXor", ge__hc_bitwise_xor},
    {"BlackmanWindow", ge__hc_blackman_window},
    {"Cast", ge__hc_cast},
    {"CastLike", ge__hc_cast_like},
    {"Ceil", ge__hc_ceil},
    {"Celu", ge__hc_celu},
    {"Clip", ge__hc_clip},
    {"Compress", ge__hc_compress},
    {"Concat", ge__hc_concat},
    {"Constant", ge__hc_constant},
    {"ConstantOfShape", ge__hc_constant_of_shape},
    {"Conv", ge__hc_conv},
    {"ConvInteger", ge__hc_convinteger},
    {"ConvTranspose", ge__hc_convtranspose},
    {"Cos", ge__hc_cos},
    {"Cosh", ge__hc_cosh},
    {"CumSum", ge__hc_cumsum},
    {"DFT", ge__hc_dft},
    {"DepthToSpace", ge__hc_depth_to_space},
    {"DequantizeLinear", ge__hc_dequantize_linear},
    {"Det", ge__hc_det},
    {"Div", ge__hc_div},
    {"Dropout", ge__hc_dropout},
    {"DynamicQuantizeLinear", ge__hc_dynamic_quantize_linear},
    {"Einsum", ge__hc_einsum},
    {"Elu", ge__hc_elu},
    {"Equal", ge__hc_equal},
    {"Erf", ge__hc_erf},
    {"Exp", ge__hc_exp},
    {"Expand", ge__hc_expand},
    {"EyeLike", ge__hc_eye_like},
    {"Flatten", ge__hc_flatten},
    {"Floor", ge__hc_floor},
    {"GRU", ge__hc_gru},
    {"Gather", ge__hc_gather},
    {"GatherElements", ge__hc_gather_elements},
    {"GatherND", ge__hc_gather_nd},
    {"Gelu", ge__hc_gelu},
    {"Gemm", ge__hc_gemm},
    {"GlobalAveragePool", ge__hc_globalaveragepool},
    {"GlobalLpPool", ge__hc_globallppool},
    {"GlobalMaxPool", ge__hc_globalmaxpool},
    {"Greater", ge__hc_greater},
    {"GreaterOrEqual", ge__hc_greater_or_equal},
    {"GridSample", ge__hc_grid_sample},
    {"GroupNormalization", ge__hc_groupnormalization},
    {"HammingWindow", ge__hc_hamming_window},
    {"HannWindow", ge__hc_hann_window},
    {"HardSigmoid", ge__hc_hard_sigmoid},
    {"HardSwish", ge__hc_hard_swish},
    {"Hardmax", ge__hc_hardmax},
    {"Identity", ge__hc_identity},
    {"InstanceNormalization", ge__hc_instancenormalization},
    {"IsInf", ge__hc_isinf},
    {"IsNaN", ge__hc_isnan},
    {"LRN", ge__hc_lrn},
    {"LSTM", ge__hc_lstm},
    {"LayerNormalization", ge__hc_layernormalization},
    {"LeakyRelu", ge__hc_leaky_relu},
    {"Less", ge__hc_less},
    {"LessOrEqual", ge__hc_less_or_equal},
    {"Log", ge__hc_log},
    {"LogSoftmax", ge__hc_logsoftmax},
    {"LpNormalization", ge__hc_lpnormalization},
    {"LpPool", ge__hc_lppool},
    {"MatMul", ge__hc_matmul},
    {"MatMulInteger", ge__hc_matmulinteger},
    {"Max", ge__hc_max},
    {"MaxPool", ge__hc_maxpool},
    {"MaxUnpool", ge__hc_max_unpool},
    {"Mean", ge__hc_mean},
    {"MeanVarianceNormalization", ge__hc_meanvariancenormalization},
    {"MelWeightMatrix", ge__hc_mel_weight_matrix},
    {"Min", ge__hc_min},
    {"Mish", ge__hc_mish},
    {"Mod", ge__hc_mod},
    {"Mul", ge__hc_mul},
    {"Neg", ge__hc_neg},
    {"NegativeLogLikelihoodLoss", ge__hc_negative_log_likelihood_loss},
    {"NonMaxSuppression", ge__hc_non_max_suppression},
    {"NonZero", ge__hc_non_zero},
    {"Not", ge__hc_not},
    {"OneHot", ge__hc_one_hot},
    {"Or", ge__hc_or},
    {"PRelu", ge__hc_prelu},
    {"Pad", ge__hc_pad},
    {"Pow", ge__hc_pow},
    {"QLinearMatMul", ge__hc_qlinear_mat_mul},
    {"QuantizeLinear", ge__hc_quantize_linear},
    {"RNN", ge__hc_rnn},
    {"Range", ge__hc_range},
    {"Reciprocal", ge__hc_reciprocal},
    {"ReduceL1", ge__hc_reducel1},
    {"ReduceL2", ge__hc_reducel2},
    {"ReduceLogSum", ge__hc_reducelogsum},
    {"ReduceLogSumExp", ge__hc_reducelogsumexp},
    {"ReduceMax", ge__hc_reducemax},
    {"ReduceMean", ge__hc_reducemean},
    {"ReduceMin", ge__hc_reducemin},
    {"ReduceProd", ge__hc_reduceprod},
    {"ReduceSum", ge__hc_reducesum},
    {"ReduceSumSquare", ge__hc_reducesumsquare},
    {"Relu", ge__hc_relu},
    {"Reshape", ge__hc_reshape},
    {"Resize", ge__hc_resize},
    {"ReverseSequence", ge__hc_reverse_sequence},
    {"RoiAlign", ge__hc_roi_align},
    {"Round", ge__hc_round},
    {"STFT", ge__hc_stft},
    {"Scatter", ge__hc_scatter_elements},
    {"ScatterElements", ge__hc_scatter_elements},
    {"ScatterND", ge__hc_scatter_nd},
    {"Selu", ge__hc_selu},
    {"Shape", ge__hc_shape},
    {"Shrink", ge__hc_shrink},
    {"Sigmoid", ge__hc_sigmoid},
    {"Sign", ge__hc_sign},
    {"Sin", ge__hc_sin},
    {"Sinh", ge__hc_sinh},
    {"Size", ge__hc_size},
    {"Slice", ge__hc_slice},
    {"Softmax", ge__hc_softmax},
    {"SoftmaxCrossEntropyLoss", ge__hc_softmax_cross_entropy_loss},
    {"Softplus", ge__hc_softplus},
    {"Softsign", ge__hc_softsign},
    {"SpaceToDepth", ge__hc_space_to_depth},
    {"Split", ge__hc_split},
    {"Sqrt", ge__hc_sqrt},
    {"Squeeze", ge__hc_squeeze},
    {"StringNormalizer", ge__hc_string_normalizer},
    {"Sub", ge__hc_sub},
    {"Sum", ge__hc_sum},
    {"Tan", ge__hc_tan},
    {"Tanh", ge__hc_tanh},
    {"TfIdfVectorizer", ge__hc_tf_idf_vectorizer},
    {"ThresholdedRelu", ge__hc_thresholded_relu},
    {"Tile", ge__hc_tile},
    {"TopK", ge__hc_topk},
    {"Transpose", ge__hc_transpose},
    {"Trilu", ge__hc_trilu},
    {"Unique", ge__hc_unique},
    {"Unsqueeze", ge__hc_unsqueeze},
    {"Upsample", ge__hc_upsample},
    {"Where", ge__hc_where},
    {"Xor", ge__hc_xor},
    {NULL, NULL}};

/* The table is sorted by op name (a test checks it): binary search. */
GE_API ge_kernel_fn ge_host_cpu_kernel(const ge_node *n) {
  size_t lo = 0, hi = sizeof ge__hc_table / sizeof ge__hc_table[0] - 1;
  if (!ge_node_in_onnx_domain(n)) return NULL;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = strcmp(n->op, ge__hc_table[mid].op);
    if (c == 0) return ge__hc_table[mid].fn;
    if (c < 0) hi = mid;
    else lo = mid + 1;
  }
  return NULL;
}

GE_API const char *ge_host_cpu_op(uint32_t i) {
  return i < sizeof ge__hc_table / sizeof ge__hc_table[0] ? ge__hc_table[i].op : NULL;
}

/* ------------------------------------------------------------ the engine */

static int ge__hc_check_supported(const ge_engine *e, const ge_graph *g, const ge_node *n, char *why, size_t cap) {
  (void)e, (void)g;
  if (!ge_node_in_onnx_domain(n)) return ge_engine_why(why, cap, "domain %s has no host CPU kernels", n->domain);
  if (!ge_host_cpu_kernel(n)) return ge_engine_why(why, cap, "no host CPU kernel for op %s", n->op);
  return 1;
}

static ge_kernel_fn ge__hc_engine_kernel(const ge_engine *e, const ge_node *n) {
  (void)e;
  return ge_host_cpu_kernel(n);
}

/* Outputs of a folding kernel: plain malloc, freed by the folder. */
static ge_value *ge__hc_fold_alloc(ge_kernel_ctx *c, uint32_t i, ge_dtype dtype, int32_t rank, const int64_t *dims) {
  ge_value *v = c->outputs[i];
  void *q;
  if (ge_value_set_shape(v, dtype, rank, dims)) {
    ge_kernel_error(c, GE_ERR_SHAPE, "output %u: its element count or byte size overflows", (unsigned)i);
    return NULL;
  }
  if (v->nbytes > ((size_t)1 << 34) || !(q = realloc(v->data, v->nbytes ? v->nbytes : 1))) {
    ge_kernel_error(c, GE_ERR_NOMEM, "cannot hold output %u (%zu bytes) while folding", (unsigned)i, v->nbytes);
    return NULL;
  }
  v->data = q;
  v->capacity = v->nbytes ? v->nbytes : 1;
  return v;
}

/* Bytes of a known-shape tensor description, or -1. */
static int64_t ge__hc_desc_bytes(const ge_tensor_desc *d) {
  int64_t k = ge_shape_numel(&d->shape);
  return k < 0 || d->dtype == GE_DTYPE_STRING ? -1 : k * (int64_t)ge_dtype_size(d->dtype);
}

#define GE__HC_FOLD_MAX_IO 16

/* Whether n may be folded: a host CPU kernel, every input a non-string
 * Const, no control edges, no subgraphs, not pinned, and no known output
 * larger than the cap. *in_bytes gets the inputs' total size. */
static int ge__hc_foldable(const ge_graph *g, const ge_node *n, size_t cap, size_t *in_bytes) {
  uint32_t i, present = 0;
  size_t total = 0;
  if (!n->num_inputs || n->num_inputs > GE__HC_FOLD_MAX_IO || !n->num_outputs || n->num_outputs > GE__HC_FOLD_MAX_IO ||
      n->num_control_inputs || n->num_control_outputs || !ge_host_cpu_kernel(n) ||
      ge_node_attr(n, "_specified_engine_name"))
    return 0;
  for (i = 0; i < n->num_attrs; i++)
    if (n->attrs[i].type == GE_ATTR_GRAPH || n->attrs[i].type == GE_ATTR_GRAPHS) return 0;
  for (i = 0; i < n->num_inputs; i++) {
    const ge_node *src;
    const ge_attr *v;
    if (n->inputs[i].node == GE_NONE) continue;
    src = ge_graph_node(g, n->inputs[i].node);
    if (strcmp(src->op, "Const") != 0 || !(v = ge_node_attr(src, "value")) || v->type != GE_ATTR_TENSOR ||
        v->v.t->dtype == GE_DTYPE_STRING)
      return 0;
    total += v->v.t->nbytes;
    present++;
  }
  if (!present) return 0;
  for (i = 0; i < n->num_outputs; i++) {
    int64_t b = ge__hc_desc_bytes(&n->outputs[i]);
    if (b > 0 && (size_t)b > cap && (size_t)b > total) return 0;
  }
  *in_bytes = total;
  return 1;
}

/* Runs n's kernel on its Const inputs; outs[] receive malloc'ed values. */
static ge_status ge__hc_fold_eval(const ge_graph *g, const ge_node *n, ge_value *outs, ge_error *err) {
  ge_value ins[GE__HC_FOLD_MAX_IO], *in_ptrs[GE__HC_FOLD_MAX_IO], *out_ptrs[GE__HC_FOLD_MAX_IO];
  ge_kernel_env env;
  ge_kernel_ctx c;
  uint32_t i;
  memset(&env, 0, sizeof env);
  env.alloc_output = ge__hc_fold_alloc;
  env.num_threads = 1;
  for (i = 0; i < n->num_inputs; i++) {
    const ge_tensor *t;
    in_ptrs[i] = NULL;
    if (n->inputs[i].node == GE_NONE) continue;
    t = ge_node_attr(ge_graph_node(g, n->inputs[i].node), "value")->v.t;
    memset(&ins[i], 0, sizeof ins[i]);
    ge_value_set_shape(&ins[i], t->dtype, t->rank, t->dims);
    ins[i].data = t->data;
    in_ptrs[i] = &ins[i];
  }
  for (i = 0; i < n->num_outputs; i++) {
    memset(&outs[i], 0, sizeof outs[i]);
    out_ptrs[i] = &outs[i];
  }
  memset(&c, 0, sizeof c);
  c.inputs = in_ptrs;
  c.outputs = out_ptrs;
  c.num_inputs = n->num_inputs;
  c.num_outputs = n->num_outputs;
  c.node = n;
  c.graph = g;
  c.env = &env;
  c.err = err;
  {
    ge_status st = ge_host_cpu_kernel(n)(&c);
    free(c.state);
    return st;
  }
}

/* Replaces node id by Const nodes holding outs[] (named after it). */
static ge_status ge__hc_fold_replace(ge_graph *g, ge_node_id id, const ge_value *outs, uint32_t n_out, ge_error *err) {
  char name[256];
  uint32_t i;
  ge_status st = GE_OK;
  ge_node_id consts[GE__HC_FOLD_MAX_IO];
  snprintf(name, sizeof name, "%s", ge_graph_node(g, id)->name);
  for (i = 0; i < n_out && st == GE_OK; i++) {
    ge_tensor t;
    ge_edge from, to;
    memset(&t, 0, sizeof t);
    t.dtype = outs[i].dtype;
    t.rank = outs[i].rank;
    t.dims = (int64_t *)outs[i].dims;
    t.data = outs[i].data;
    t.nbytes = outs[i].nbytes;
    if ((st = ge_graph_add_const(g, NULL, &t, &consts[i], err)) != GE_OK) break;
    from.node = id, from.index = i;
    to.node = consts[i], to.index = 0;
    st = ge_graph_replace_uses(g, from, to, err);
  }
  if (st != GE_OK) return st;
  if ((st = ge_graph_remove_node(g, id, err)) != GE_OK) return st;
  for (i = 0; i < n_out && st == GE_OK; i++) {
    char nm[300];
    if (n_out == 1) snprintf(nm, sizeof nm, "%s", name);
    else snprintf(nm, sizeof nm, "%s:%u", name, (unsigned)i);
    if (ge_graph_find(g, nm) == GE_NONE) st = ge_node_set_name(g, consts[i], nm, err);
  }
  return st;
}

/* Removes Const nodes left without consumers by folding n's inputs. */
static ge_status ge__hc_drop_unused_inputs(ge_graph *g, const ge_node_id *srcs, uint32_t n, ge_error *err) {
  uint32_t i;
  for (i = 0; i < n; i++) {
    ge_node *s = srcs[i] == GE_NONE ? NULL : ge_graph_node(g, srcs[i]);
    ge_status st;
    if (s && !s->num_uses && !s->num_control_outputs && (st = ge_graph_remove_node(g, srcs[i], err)) != GE_OK) return st;
  }
  return GE_OK;
}

GE_API ge_status ge_host_cpu_fold_constants(ge_graph *g, size_t max_bytes, uint32_t *folded, ge_error *err) {
  uint32_t count = ge_graph_node_count(g), k, done = 0;
  ge_node_id *order = (ge_node_id *)malloc((count ? count : 1) * sizeof *order);
  ge_status st;
  if (!order) return GE_ERR_NOMEM;
  if (!max_bytes) max_bytes = GE_HOST_CPU_FOLD_MAX_BYTES;
  st = ge_graph_topo_sort(g, GE_TOPO_BFS, order, err);
  for (k = 0; k < count && st == GE_OK; k++) {
    const ge_node *n = ge_graph_node(g, order[k]);
    ge_value outs[GE__HC_FOLD_MAX_IO];
    ge_node_id srcs[GE__HC_FOLD_MAX_IO];
    ge_error local;
    size_t in_bytes = 0, out_bytes = 0;
    uint32_t i, n_out, n_in;
    if (!n || !ge__hc_foldable(g, n, max_bytes, &in_bytes)) continue;
    n_out = n->num_outputs, n_in = n->num_inputs;
    for (i = 0; i < n_in; i++) srcs[i] = n->inputs[i].node;
    memset(&local, 0, sizeof local);
    if (ge__hc_fold_eval(g, n, outs, &local) == GE_OK) { /* a failing kernel is left for run time to report */
      for (i = 0; i < n_out; i++) out_bytes += outs[i].data && outs[i].dtype != GE_DTYPE_STRING ? outs[i].nbytes : (size_t)-1 / 2;
      if (out_bytes <= max_bytes || out_bytes <= in_bytes) {
        st = ge__hc_fold_replace(g, order[k], outs, n_out, err);
        if (st == GE_OK) st = ge__hc_drop_unused_inputs(g, srcs, n_in, err);
        done++;
      }
    }
    for (i = 0; i < n_out; i++) free(outs[i].data);
  }
  free(order);
  if (folded) *folded += done;
  return st;
}

static ge_status ge__hc_optimize_original(const ge_engine *e, ge_graph *g, ge_error *err) {
  uint32_t folded = 0;
  (void)e;
  return ge_host_cpu_fold_constants(g, 0, &folded, err);
}

static const ge_engine ge__hc_engine = {
    GE_ENGINE_ABI_VERSION, "DNN_VM_HOST_CPU", "HostCpu", 10, GE_RUNTIME_HOST,
    GE_ENGINE_ATTACH | GE_ENGINE_SKIP_ASSIGN_STREAM, NULL, ge__hc_check_supported, ge__hc_engine_kernel, NULL,
    ge__hc_optimize_original, NULL, NULL};

GE_API const ge_engine *ge_host_cpu_engine(void) { return &ge__hc_engine; }

#ifdef __cplusplus
}
#endif
#endif /* GE_HOST_CPU_IMPLEMENTATION_DONE */
#endif /* GE_HOST_CPU_IMPLEMENTATION */

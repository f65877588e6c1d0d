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

#ifdef __cplusplus
}
#endif
#endif /* GE_HOST_CPU_H */

#if defined(GE_IMPLEMENTATION) || defined(GE_HOST_CPU_IMPLEMENTATION)
#ifndef GE_HOST_CPU_IMPLEMENTATION_DONE
#define GE_HOST_CPU_IMPLEMENTATION_DONE

#include <math.h>
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

/* IEEE binary16 and bfloat16 <-> float (round to nearest even). */
GE__HC_HELPER float ge__hc_h2f(uint16_t h) {
  uint32_t sign = (uint32_t)(h >> 15) << 31, exp = (h >> 10) & 31, man = h & 1023, bits;
  float f;
  if (exp == 0) {
    f = (float)man * (1.0f / 16777216.0f);
    return sign ? -f : f;
  }
  bits = exp == 31 ? sign | 0x7F800000u | (man << 13) : sign | ((exp + 112) << 23) | (man << 13);
  memcpy(&f, &bits, 4);
  return f;
}

GE__HC_HELPER uint16_t ge__hc_f2h(float f) {
  uint32_t x, sign, exp, man;
  memcpy(&x, &f, 4);
  sign = (x >> 16) & 0x8000;
  exp = (x >> 23) & 255;
  man = x & 0x7FFFFF;
  if (exp == 255) return (uint16_t)(sign | 0x7C00 | (man ? 0x200 : 0));
  {
    int e = (int)exp - 127 + 15;
    if (e >= 31) return (uint16_t)(sign | 0x7C00);
    if (e <= 0) { /* subnormal or zero */
      uint32_t m, shift, half, r;
      if (e < -10) return (uint16_t)sign;
      m = man | 0x800000;
      shift = (uint32_t)(14 - e);
      half = 1u << (shift - 1);
      r = m >> shift;
      if ((m & ((1u << shift) - 1)) > half || ((m & ((1u << shift) - 1)) == half && (r & 1))) r++;
      return (uint16_t)(sign | r);
    }
    {
      uint32_t r = ((uint32_t)e << 10) | (man >> 13), rest = man & 0x1FFF;
      if (rest > 0x1000 || (rest == 0x1000 && (r & 1))) r++; /* may carry into the exponent: right */
      return (uint16_t)(sign | r);
    }
  }
}

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

/* Element i of a numeric value as double / int64 (any dtype but string). */
GE__HC_HELPER double ge__hc_get_f(const ge_value *v, int64_t i) {
  const void *p = v->data;
  switch (v->dtype) {
  case GE_DTYPE_FLOAT32: return ((const float *)p)[i];
  case GE_DTYPE_FLOAT64: return ((const double *)p)[i];
  case GE_DTYPE_FLOAT16: return ge__hc_h2f(((const uint16_t *)p)[i]);
  case GE_DTYPE_BFLOAT16: return ge__hc_bf2f(((const uint16_t *)p)[i]);
  case GE_DTYPE_INT8: return ((const int8_t *)p)[i];
  case GE_DTYPE_INT16: return ((const int16_t *)p)[i];
  case GE_DTYPE_INT32: return ((const int32_t *)p)[i];
  case GE_DTYPE_INT64: return (double)((const int64_t *)p)[i];
  case GE_DTYPE_UINT8: case GE_DTYPE_BOOL: return ((const uint8_t *)p)[i];
  case GE_DTYPE_UINT16: return ((const uint16_t *)p)[i];
  case GE_DTYPE_UINT32: return ((const uint32_t *)p)[i];
  case GE_DTYPE_UINT64: return (double)((const uint64_t *)p)[i];
  default: return 0;
  }
}

GE__HC_HELPER int64_t ge__hc_get_i(const ge_value *v, int64_t i) {
  const void *p = v->data;
  switch (v->dtype) {
  case GE_DTYPE_INT64: return ((const int64_t *)p)[i];
  case GE_DTYPE_INT32: return ((const int32_t *)p)[i];
  case GE_DTYPE_INT16: return ((const int16_t *)p)[i];
  case GE_DTYPE_INT8: return ((const int8_t *)p)[i];
  case GE_DTYPE_UINT8: case GE_DTYPE_BOOL: return ((const uint8_t *)p)[i];
  case GE_DTYPE_UINT16: return ((const uint16_t *)p)[i];
  case GE_DTYPE_UINT32: return ((const uint32_t *)p)[i];
  case GE_DTYPE_UINT64: return (int64_t)((const uint64_t *)p)[i];
  default: return (int64_t)ge__hc_sat(ge__hc_get_f(v, i), -9223372036854775808.0, 9223372036854774784.0);
  }
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

/* GE_HC_KERNELS */

/* ---------------------------------------------------------- the table */

typedef struct ge__hc_entry {
  const char *op;
  ge_kernel_fn fn;
} ge__hc_entry;

static const ge__hc_entry ge__hc_table[] = {
    /* GE_HC_TABLE */
    {NULL, NULL}};

GE_API ge_kernel_fn ge_host_cpu_kernel(const ge_node *n) {
  uint32_t i;
  if (n->domain && *n->domain && strcmp(n->domain, "ai.onnx") != 0) return NULL;
  for (i = 0; ge__hc_table[i].op; i++)
    if (strcmp(ge__hc_table[i].op, n->op) == 0) return ge__hc_table[i].fn;
  return NULL;
}

GE_API const char *ge_host_cpu_op(uint32_t i) {
  return i < sizeof ge__hc_table / sizeof ge__hc_table[0] ? ge__hc_table[i].op : NULL;
}

#ifdef __cplusplus
}
#endif
#endif /* GE_HOST_CPU_IMPLEMENTATION_DONE */
#endif /* GE_HOST_CPU_IMPLEMENTATION */

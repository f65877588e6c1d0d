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
 * are thread-safe: no state outside the context. The data-movement kernels
 * on hot paths (Concat, Gather, Slice, Split, Pad, Reshape, ...) parse their
 * attributes and Const parameters once, when prepared at load
 * (ge_host_cpu_prepare); unprepared they parse them at each run. Fast
 * kernels of other engines fall back to these through
 * ge_host_cpu_run_reference.
 *
 * Layout: this file holds the declarations, the helpers every kernel family
 * shares (ge__hc_*), the op table, the engine and constant folding. The
 * kernels are in parts under ge_engines/host_cpu/, included by the
 * implementation section below (amalgamate.py inlines them there):
 *   data.h         shape and data movement              (ge__hc_dt_*)
 *   dense.h        MatMul, Gemm, Conv, pooling, norms,
 *                  Softmax, reductions, Einsum, Resize  (ge__hc_dn_*)
 *   elementwise.h  broadcasting math, comparisons, unary
 *                  ops and activations, Clip, Cast      (ge__hc_ew_*)
 *   extra.h        losses, quantization, strings, RNNs,
 *                  GridSample, DFT/STFT, RoiAlign       (ge__hc_ex_*)
 * An op is added by writing its kernel in the family's part and adding a
 * row to ge__hc_table (sorted by op name).
 */
#ifndef GE_HOST_CPU_H
#define GE_HOST_CPU_H

#include "ge_graph.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The kernel for a node (by op type, default domain), or NULL. */
GE_API ge_kernel_fn ge_host_cpu_kernel(const ge_node *n);
/* The prepare function of n's reference kernel (the kernel itself, which
 * parses its attributes and Const parameters into c->state at load and
 * returns), or NULL when it has nothing to prepare. */
GE_API ge_kernel_fn ge_host_cpu_prepare(const ge_node *n);
/* Runs the reference kernel of c's node for a fast kernel off its paths,
 * with c->ref_state as the reference's state (c->state stays the fast
 * kernel's). Under fixed shapes the reference is prepared into it once:
 * when called while preparing (then nothing runs), or else at the first
 * run that falls back; otherwise it parses its attributes at each run. An
 * error when the op has no reference kernel. */
GE_API ge_status ge_host_cpu_run_reference(ge_kernel_ctx *c);
/* Op types with a kernel, for listing: NULL past the end. */
GE_API const char *ge_host_cpu_op(uint32_t i);

/* The engine: DNN_VM_HOST_CPU, cost 10, host runtime; it supports every op
 * with a kernel here. Its original-graph optimiser folds constants. */
GE_API const ge_engine *ge_host_cpu_engine(void);

/* Constant folding (seed 000 §4.5.9): evaluates, in topological order, every
 * node whose inputs are all Const (or outer constants a subgraph reads
 * through parent_index Data nodes, as shape inference bound them), and
 * every Shape or Size whose input's inferred shape is static, and
 * replaces it by Const nodes, so chains fold. A node is left alone when its outputs would exceed both max_bytes
 * (0: GE_HOST_CPU_FOLD_MAX_BYTES) and the size of its inputs — weights are
 * not blown up — or when it has control edges, subgraphs, a pinned engine,
 * or its kernel fails (the run reports that). *folded grows by the count.
 * The default cap holds an attention mask (Swin's 64 windows of 49 x 49
 * floats, 614 KB), which would otherwise be recomputed every run. */
#define GE_HOST_CPU_FOLD_MAX_BYTES ((size_t)1024 * 1024)
GE_API ge_status ge_host_cpu_fold_constants(ge_graph *g, size_t max_bytes, uint32_t *folded, ge_error *err);

/* An Einsum node's labels, as the reference kernel reads its equation for
 * the operands c->inputs (shared with the fast kernels, so both read an
 * equation the same way). Labels 0..51 are the letters a-z, A-Z; 52.. the
 * dims an ellipsis stands for, from the left. */
#define GE_EINSUM_MAX_OPERANDS 16
#define GE_EINSUM_LABELS (52 + GE_MAX_RANK)
typedef struct ge_einsum_labels {
  uint32_t n;                                        /* operands */
  int32_t orank;                                     /* output rank */
  int dim_label[GE_EINSUM_MAX_OPERANDS][GE_MAX_RANK]; /* label of each operand dim */
  int out_label[GE_MAX_RANK];                        /* label of each output dim */
  int64_t size[GE_EINSUM_LABELS];                    /* each label's size; -1 unused */
} ge_einsum_labels;
/* Checks the equation against the operands (dtypes alike, ranks, sizes,
 * ellipsis broadcasting) and fills *out; an error names what is wrong. */
GE_API ge_status ge_einsum_labels_of(ge_kernel_ctx *c, ge_einsum_labels *out);

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

/* ------------------------------------------------ prepared parameters */

/* What a reference kernel reads from its node besides input bytes: integer
 * and float attributes and short int lists (an ints attribute, or the
 * values of a Const input such as Slice's starts or Reshape's shape). A
 * kernel with a parse function reads them once, at prepare, into c->state
 * (ge__hc_params_of); unprepared (constant folding, a dynamic graph) it
 * parses them into a local copy at each run.
 * The slots are each kernel's own. A list taken from an input is only
 * filled at prepare, from a Const; elsewhere its count is
 * GE__HC_PARAM_AT_RUN and the kernel reads the input itself. */
#define GE__HC_PARAM_LISTS 4
#define GE__HC_PARAM_AT_RUN (-2)
typedef struct ge__hc_params {
  int64_t i[4];
  double f[2];
  int32_t n[GE__HC_PARAM_LISTS]; /* values of list k; -1: absent */
  int64_t v[GE__HC_PARAM_LISTS][2 * GE_MAX_RANK]; /* Pad's pads are the longest */
  size_t scratch; /* bytes of scratch after the parameters (ge__hc_params_reserve) */
} ge__hc_params;
typedef void (*ge__hc_parse_fn)(const ge_kernel_ctx *c, ge__hc_params *p);

/* The parameters of c's kernel: c->state when prepared; while preparing,
 * parsed into a new c->state (NULL: out of memory, the error set); else
 * parsed into *local. c->state is the reference's own here: fast kernels
 * reach the reference through ge_host_cpu_run_reference, which hands it
 * their context's ref_state. */
GE__HC_HELPER const ge__hc_params *ge__hc_params_of(ge_kernel_ctx *c, ge__hc_parse_fn parse, ge__hc_params *local) {
  ge__hc_params *p = (ge__hc_params *)c->state;
  if (p && !ge_kernel_preparing(c)) return p;
  if (!ge_kernel_preparing(c)) p = local;
  else if (!p && !(p = (ge__hc_params *)malloc(sizeof *p))) {
    ge_kernel_error(c, GE_ERR_NOMEM, "out of memory for the parameters of %s", c->node->op);
    return NULL;
  }
  {
    size_t scratch = p == c->state ? p->scratch : 0; /* a second prepare keeps the room it made */
    memset(p, 0, sizeof *p);
    p->scratch = scratch;
  }
  parse(c, p);
  if (ge_kernel_preparing(c)) c->state = p;
  return p;
}

/* While preparing: makes room for `bytes` of scratch after the prepared
 * parameters (the run's buffers, sized from the shapes), so the run
 * allocates nothing. GE_OK, or the error when out of memory. */
GE__HC_HELPER ge_status ge__hc_params_reserve(ge_kernel_ctx *c, size_t bytes) {
  ge__hc_params *p = (ge__hc_params *)c->state;
  if (!p || p->scratch >= bytes) return GE_OK;
  if (!(p = (ge__hc_params *)realloc(p, sizeof *p + bytes)))
    return ge_kernel_error(c, GE_ERR_NOMEM, "out of memory for the scratch of %s", c->node->op);
  p->scratch = bytes;
  c->state = p;
  return GE_OK;
}

/* The prepared scratch when it holds `bytes`, else NULL (the caller
 * allocates: unprepared, or the shapes grew). */
GE__HC_HELPER void *ge__hc_params_scratch(const ge_kernel_ctx *c, const ge__hc_params *p, size_t bytes) {
  return p == c->state && p->scratch >= bytes ? (void *)((ge__hc_params *)c->state + 1) : NULL;
}

/* List k of p from an ints attribute (-1 when absent; more than
 * 2 * GE_MAX_RANK values are left for the run: GE__HC_PARAM_AT_RUN). */
GE__HC_HELPER void ge__hc_param_attr_ints(const ge_kernel_ctx *c, ge__hc_params *p, int k, const char *name) {
  const int64_t *v = NULL;
  int32_t n = ge_node_attr_ints(c->node, name, &v);
  p->n[k] = n > 2 * GE_MAX_RANK ? GE__HC_PARAM_AT_RUN : n;
  if (n > 0 && n <= 2 * GE_MAX_RANK) memcpy(p->v[k], v, (size_t)n * sizeof *v);
}

/* List k of p from input i when it is a Const read while preparing (a 0-D
 * or 1-D integer tensor of at most 2 * GE_MAX_RANK values); -1 when the input
 * is absent; else GE__HC_PARAM_AT_RUN. */
GE__HC_HELPER void ge__hc_param_input_ints(const ge_kernel_ctx *c, ge__hc_params *p, int k, uint32_t i) {
  const ge_value *v = i < c->num_inputs ? c->inputs[i] : NULL;
  const ge_node *o;
  int64_t j;
  p->n[k] = GE__HC_PARAM_AT_RUN;
  if (!v) {
    p->n[k] = -1;
    return;
  }
  if (!ge_kernel_preparing(c) || !c->graph || !v->data || v->rank > 1 || v->numel > 2 * GE_MAX_RANK) return;
  if (v->dtype != GE_DTYPE_INT64 && v->dtype != GE_DTYPE_INT32) return;
  o = ge_graph_input_origin(c->graph, c->node, i, NULL);
  if (!o || strcmp(o->op, "Const") != 0) return;
  for (j = 0; j < v->numel; j++)
    p->v[k][j] = v->dtype == GE_DTYPE_INT64 ? ((const int64_t *)v->data)[j] : ((const int32_t *)v->data)[j];
  p->n[k] = (int32_t)v->numel;
}

/* The kernel families, one file each. Each uses only the helpers above and
 * its own (prefixes ge__hc_dt_, _dn_, _ew_, _ex_); element-wise Cast reaches
 * the string formatter of extra.h through a forward declaration. */
#include "host_cpu/data.h"        /* shape and data movement */
#include "host_cpu/dense.h"       /* MatMul, Conv, pooling, norms, reductions, Resize */
#include "host_cpu/elementwise.h" /* broadcasting math, unary ops, Cast */
#include "host_cpu/extra.h"       /* losses, quantization, strings, RNNs, signal */

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
    {"QLinearConv", ge__hc_qlinearconv},
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

/* The reference kernels that keep their parameters from a prepare. */
static const ge_kernel_fn ge__hc_prepared[] = {
    ge__hc_concat,     ge__hc_expand,           ge__hc_flatten,    ge__hc_gather,  ge__hc_gather_elements,
    ge__hc_gather_nd,  ge__hc_pad,              ge__hc_reshape,    ge__hc_scatter_elements, ge__hc_scatter_nd,
    ge__hc_shape,      ge__hc_slice,            ge__hc_split,      ge__hc_squeeze, ge__hc_tile,
    ge__hc_topk,       ge__hc_transpose,        ge__hc_unsqueeze};

GE_API ge_kernel_fn ge_host_cpu_prepare(const ge_node *n) {
  ge_kernel_fn k = ge_host_cpu_kernel(n);
  size_t i;
  for (i = 0; k && i < sizeof ge__hc_prepared / sizeof *ge__hc_prepared; i++)
    if (ge__hc_prepared[i] == k) return k;
  return NULL;
}

GE_API ge_status ge_host_cpu_run_reference(ge_kernel_ctx *c) {
  ge_kernel_fn ref = ge_host_cpu_kernel(c->node), prep = ge_host_cpu_prepare(c->node);
  ge_kernel_ctx rc;
  ge_status st = GE_OK;
  if (!ref)
    return ge_kernel_preparing(c) ? GE_OK
                                  : ge_kernel_error(c, GE_ERR_UNSUPPORTED, "no reference kernel for op %s", c->node->op);
  rc = *c;
  rc.state = c->ref_state; /* the reference's own; c->state stays the fast kernel's */
  if (prep && !rc.state && (c->flags & GE_KERNEL_FIXED_SHAPES)) { /* prepared once: no parsing per run */
    rc.flags |= GE_KERNEL_PREPARE;
    st = prep(&rc);
    rc.flags = c->flags;
    c->ref_state = rc.state;
  }
  if (st != GE_OK || ge_kernel_preparing(c)) return st;
  st = ref(&rc);
  c->ref_state = rc.state;
  return st;
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

static ge_kernel_fn ge__hc_engine_prepare(const ge_engine *e, const ge_node *n) {
  (void)e;
  return ge_host_cpu_prepare(n);
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

/* The constant feeding input i of n (present): a Const's tensor, or the
 * value shape inference bound to a subgraph's parent_index Data (an outer
 * constant, e.g. weights an If branch reads); NULL otherwise. */
static const ge_tensor *ge__hc_fold_input(const ge_graph *g, const ge_node *n, uint32_t i) {
  const ge_node *src = ge_graph_node(g, n->inputs[i].node);
  const ge_attr *v;
  if (!strcmp(src->op, "Const")) return (v = ge_node_attr(src, "value")) && v->type == GE_ATTR_TENSOR ? v->v.t : NULL;
  if (strcmp(src->op, "Data") != 0 || !ge_node_attr(src, "parent_index")) return NULL;
  return src->outputs[n->inputs[i].index].value;
}

/* Input i of n is the input of a Shape or Size whose shape inference
 * found static: those read only its dims, so they fold though it is no
 * constant (a static model's Shape -> Slice -> Concat -> Resize sizes
 * become one Const, and no host node is left to run). */
static const ge_tensor_desc *ge__hc_fold_dims_only(const ge_graph *g, const ge_node *n, uint32_t i) {
  const ge_tensor_desc *d;
  int32_t k;
  if (i != 0 || !ge_node_in_onnx_domain(n) || (strcmp(n->op, "Shape") != 0 && strcmp(n->op, "Size") != 0)) return NULL;
  if (!(d = ge_node_input_desc(g, n, 0)) || d->shape.rank < 0 || d->dtype == GE_DTYPE_UNDEFINED) return NULL;
  for (k = 0; k < d->shape.rank; k++)
    if (d->shape.dims[k] < 0) return NULL;
  return d;
}

/* Whether n may be folded: a host CPU kernel, every input a non-string
 * constant (ge__hc_fold_input) or dims only (ge__hc_fold_dims_only), no
 * control edges, no subgraphs, not pinned,
 * and no known output larger than the cap. *in_bytes gets the inputs'
 * total size. */
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
    const ge_tensor *t;
    if (n->inputs[i].node == GE_NONE) continue;
    if (ge__hc_fold_dims_only(g, n, i)) {
      present++;
      continue;
    }
    if (!(t = ge__hc_fold_input(g, n, i)) || t->dtype == GE_DTYPE_STRING || (t->nbytes && !t->data)) return 0;
    total += t->nbytes;
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
    const ge_tensor_desc *d;
    in_ptrs[i] = NULL;
    if (n->inputs[i].node == GE_NONE) continue;
    memset(&ins[i], 0, sizeof ins[i]);
    in_ptrs[i] = &ins[i];
    if ((d = ge__hc_fold_dims_only(g, n, i)) != NULL) { /* dims, no data */
      ge_value_set_shape(&ins[i], d->dtype, d->shape.rank, d->shape.dims);
      continue;
    }
    t = ge__hc_fold_input(g, n, i);
    ge_value_set_shape(&ins[i], t->dtype, t->rank, t->dims);
    ins[i].data = t->data;
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
    ge_kernel_free_state(&c);
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

/* Removes the constants (ge__hc_fold_input) left without consumers by
 * folding n's inputs. A graph input a folded Shape read stays: it is the
 * graph's interface. */
static ge_status ge__hc_drop_unused_inputs(ge_graph *g, const ge_node_id *srcs, uint32_t n, ge_error *err) {
  uint32_t i;
  for (i = 0; i < n; i++) {
    ge_node *s = srcs[i] == GE_NONE ? NULL : ge_graph_node(g, srcs[i]);
    ge_status st;
    if (!s || s->num_uses || s->num_control_outputs) continue;
    if (strcmp(s->op, "Const") != 0 && !(!strcmp(s->op, "Data") && ge_node_attr(s, "parent_index"))) continue;
    if ((st = ge_graph_remove_node(g, srcs[i], err)) != GE_OK) return st;
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

/* The constant feeding input i of n (ge__hc_fold_input), or NULL (absent
 * or computed). */
static const ge_tensor *ge__hc_const_input(const ge_graph *g, const ge_node *n, uint32_t i) {
  return i < n->num_inputs && n->inputs[i].node != GE_NONE ? ge__hc_fold_input(g, n, i) : NULL;
}

/* A Dropout that is an identity: ratio absent or a Const scalar in [0, 1)
 * (else the kernel's error stays), and training_mode absent or a Const
 * false, or ratio 0 (Swin's attention dropout, exported in training mode
 * with p = 0); its mask unused and its output no graph output. */
static int ge__hc_identity_dropout(const ge_graph *g, const ge_node *n) {
  const ge_tensor *ratio = ge__hc_const_input(g, n, 1), *train = ge__hc_const_input(g, n, 2);
  ge_node_id out = ge_graph_output_node(g);
  uint32_t u;
  double r;
  if (strcmp(n->op, "Dropout") != 0 || !ge_node_in_onnx_domain(n) || n->num_inputs < 1 ||
      n->inputs[0].node == GE_NONE || n->num_control_inputs || n->num_control_outputs)
    return 0;
  r = ge_node_attr_float(n, "ratio", 0.5);
  if (n->num_inputs > 1 && n->inputs[1].node != GE_NONE) {
    if (!ratio || ge_tensor_numel(ratio) != 1 || !ge__hc_is_float(ratio->dtype)) return 0;
    r = ge_tensor_get_float(ratio, 0);
  }
  if (!(r >= 0 && r < 1)) return 0;
  if (r != 0 && n->num_inputs > 2 && n->inputs[2].node != GE_NONE &&
      !(train && train->dtype == GE_DTYPE_BOOL && ge_tensor_numel(train) == 1 && !((const uint8_t *)train->data)[0]))
    return 0;
  for (u = 0; u < n->num_uses; u++)
    if (n->uses[u].node == out || ge_graph_node(g, n->uses[u].node)->inputs[n->uses[u].input].index != 0) return 0;
  return 1;
}

/* Removes every Dropout that is an identity: its readers read its input
 * (ONNX Runtime does the same); *removed grows by the count. */
static ge_status ge__hc_drop_dropouts(ge_graph *g, uint32_t *removed, ge_error *err) {
  ge_node_id id, bound = ge_graph_id_bound(g);
  ge_status st = GE_OK;
  for (id = 0; id < bound && st == GE_OK; id++) {
    const ge_node *n = ge_graph_node(g, id);
    ge_edge from;
    if (!n || !ge__hc_identity_dropout(g, n)) continue;
    from.node = id, from.index = 0;
    if ((st = ge_graph_replace_uses(g, from, n->inputs[0], err)) == GE_OK) st = ge_graph_remove_node(g, id, err);
    ++*removed;
  }
  return st;
}

/* Folding, then while it folded something, shape inference and folding
 * again: a folded Shape can make a Pad's pads or a Reshape's shape
 * constant, whose output shape inference then finds static, so the Shape
 * of that folds in the next round (Swin's window attention). A failing
 * inference stops the rounds; the session's own inference reports it. */
#define GE__HC_FOLD_ROUNDS 16

static ge_status ge__hc_optimize_original(const ge_engine *e, ge_graph *g, ge_error *err) {
  uint32_t folded = 0, round;
  ge_status st = GE_OK;
  (void)e;
  if ((st = ge__hc_drop_dropouts(g, &folded, err)) != GE_OK) return st;
  for (round = 0; round < GE__HC_FOLD_ROUNDS && st == GE_OK; round++) {
    uint32_t before = folded;
    ge_error local;
    if ((st = ge_host_cpu_fold_constants(g, 0, &folded, err)) != GE_OK || folded == before) break;
    memset(&local, 0, sizeof local);
    if (ge_graph_infer_shapes(g, &local) != GE_OK) break;
  }
  return st;
}

static const ge_engine ge__hc_engine = {
    GE_ENGINE_ABI_VERSION, "DNN_VM_HOST_CPU", "HostCpu", 10, GE_RUNTIME_HOST,
    GE_ENGINE_ATTACH | GE_ENGINE_SKIP_ASSIGN_STREAM, NULL, ge__hc_check_supported, ge__hc_engine_kernel, NULL,
    ge__hc_optimize_original, NULL, NULL, ge__hc_engine_prepare};

GE_API const ge_engine *ge_host_cpu_engine(void) { return &ge__hc_engine; }

#ifdef __cplusplus
}
#endif
#endif /* GE_HOST_CPU_IMPLEMENTATION_DONE */
#endif /* GE_HOST_CPU_IMPLEMENTATION */

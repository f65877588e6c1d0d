/* ge_engines/half_kernels.h — float16 models on the float32 fast kernels.
 *
 * Part of ge (issue 16). Two pieces:
 *
 * 1. Conversion: ge_half_to_float_n / ge_float_to_half_n convert arrays
 *    with F16C (vcvtph2ps / vcvtps2ph, round to nearest even) when the CPU
 *    has it, chosen at run time with __builtin_cpu_supports and a target
 *    attribute (no -march; taken on CPUs with AVX2, which all have F16C),
 *    else with the exact scalar conversions of
 *    ge_graph.h (also round to nearest even, subnormals, overflow to inf).
 *    Both give the same bits except for NaN payloads. ge_half_fast_kernel
 *    hands out a Cast kernel for float32 <-> float16 built on them, and
 *    int32 / uint8 / int8 -> float32 (the Casts of quantized models),
 *    split over the executor's threads; any other Cast runs the reference.
 *
 * 2. Promotion (ge_half_promote, the AI Core and VectorEngine
 *    optimize_original): regions of float16 compute run in float32, the
 *    way ONNX Runtime's CPU provider runs float16 ops it has no kernel for
 *    (its inserted Casts make float islands). A node is promoted when it
 *    is an ONNX op of the list below (ops whose float16 and float32 forms
 *    differ only in precision), it reads or writes float16, and every
 *    dtype it touches is known. Then:
 *      - its float16 outputs become float32;
 *      - a float16 Const it reads is read through a float32 twin, made
 *        once here (so Conv weights reach the packed-weight paths);
 *      - a float16 tensor it reads from a node that is not promoted (Data,
 *        Cast, an op off the list) goes through an inserted Cast to float;
 *      - a node that is not promoted (NetOutput, Cast, ...) and read a
 *        promoted float16 output reads it through an inserted Cast to
 *        float16, so graph outputs and explicit Casts keep their dtypes and
 *        their rounding.
 *    Inside a region no value is rounded to float16 any more, so results
 *    are at least as close to the float32 model as ONNX Runtime's (the
 *    test and bench/README measure both against it). The pass is
 *    idempotent (inserted Casts are never promoted) and leaves a graph
 *    without float16 untouched. Subgraphs get their own call (the placer
 *    recurses); their Data and NetOutput are interfaces like any other.
 *
 * Include after (or instead of) ge_graph.h; define
 * GE_HALF_KERNELS_IMPLEMENTATION (or GE_IMPLEMENTATION) in one translation
 * unit; host_cpu.h's implementation must be compiled too.
 * Thread safety: no state outside the kernel context and the graph passed.
 */
#ifndef GE_ENGINE_HALF_KERNELS_H
#define GE_ENGINE_HALF_KERNELS_H

#include "ge_graph.h"
#include "host_cpu.h"

#ifdef __cplusplus
extern "C" {
#endif

/* dst[i] = src[i] as float32 (exact). */
GE_API void ge_half_to_float_n(const uint16_t *src, float *dst, int64_t n);
/* dst[i] = src[i] rounded to float16 (nearest even; overflow to inf). */
GE_API void ge_float_to_half_n(const float *src, uint16_t *dst, int64_t n);
/* 1 when the F16C path is in use on this CPU (for tests and logs). */
GE_API int ge_half_f16c(void);
/* The fast Cast kernel for a Cast node (float32 <-> float16 at run time,
 * anything else through the reference), or NULL for other nodes. */
GE_API ge_kernel_fn ge_half_fast_kernel(const ge_node *n);
/* Runs float16 regions of g in float32 (see the top of this file). */
GE_API ge_status ge_half_promote(ge_graph *g, ge_error *err);
/* The ops ge_half_promote runs in float32, sorted by strcmp: NULL past
 * the end. */
GE_API const char *ge_half_promoted_op(uint32_t i);
/* ge_half_promote with an engine's optimize_original signature. */
GE_API ge_status ge_half_optimize_original(const ge_engine *e, ge_graph *g, ge_error *err);

#ifdef __cplusplus
}
#endif
#endif /* GE_ENGINE_HALF_KERNELS_H */

#if defined(GE_IMPLEMENTATION) || defined(GE_HALF_KERNELS_IMPLEMENTATION)
#ifndef GE_HALF_KERNELS_IMPLEMENTATION_DONE
#define GE_HALF_KERNELS_IMPLEMENTATION_DONE

#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__)) && !defined(GE_HALF_NO_SIMD)
#define GE__HK_F16C 1
#include <immintrin.h>
#else
#define GE__HK_F16C 0
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------- conversion */

#if GE__HK_F16C
__attribute__((target("avx,f16c"))) static void ge__hk_h2f_f16c(const uint16_t *src, float *dst, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm256_storeu_ps(dst + i, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(const void *)(src + i))));
  for (; i < n; i++) dst[i] = ge_half_to_float(src[i]);
}

__attribute__((target("avx,f16c"))) static void ge__hk_f2h_f16c(const float *src, uint16_t *dst, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm_storeu_si128((__m128i *)(void *)(dst + i), _mm256_cvtps_ph(_mm256_loadu_ps(src + i), 0));
  for (; i < n; i++) {
    /* the tail through the same instruction, so NaNs match the body */
    float t[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    uint16_t h[8];
    t[0] = src[i];
    _mm_storeu_si128((__m128i *)(void *)h, _mm256_cvtps_ph(_mm256_loadu_ps(t), 0));
    dst[i] = h[0];
  }
}
#endif

/* Every CPU with AVX2 has F16C (Ivy Bridge and Piledriver brought it, one
 * generation before AVX2); the AVX2 test is one that every compiler's
 * __builtin_cpu_supports knows. */
GE_API int ge_half_f16c(void) {
#if GE__HK_F16C
  return __builtin_cpu_supports("avx2");
#else
  return 0;
#endif
}

GE_API void ge_half_to_float_n(const uint16_t *src, float *dst, int64_t n) {
  int64_t i;
#if GE__HK_F16C
  if (ge_half_f16c()) {
    ge__hk_h2f_f16c(src, dst, n);
    return;
  }
#endif
  for (i = 0; i < n; i++) dst[i] = ge_half_to_float(src[i]);
}

GE_API void ge_float_to_half_n(const float *src, uint16_t *dst, int64_t n) {
  int64_t i;
#if GE__HK_F16C
  if (ge_half_f16c()) {
    ge__hk_f2h_f16c(src, dst, n);
    return;
  }
#endif
  for (i = 0; i < n; i++) dst[i] = ge_float_to_half(src[i]);
}

/* ------------------------------------------------------------- Cast */

/* int32 -> float32, rounding to nearest even (cvtdq2ps, as C's cast). */
#if GE__HK_F16C
__attribute__((target("avx2"))) static int64_t ge__hk_i2f_avx2(const int32_t *src, float *dst, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm256_storeu_ps(dst + i, _mm256_cvtepi32_ps(_mm256_loadu_si256((const __m256i *)(const void *)(src + i))));
  return i;
}
#endif

typedef struct ge__hk_cast_job {
  const void *src;
  void *dst;
  ge_dtype from, to;
} ge__hk_cast_job;

static void ge__hk_cast_range(void *arg, int64_t b, int64_t e) {
  const ge__hk_cast_job *j = (const ge__hk_cast_job *)arg;
  float *f = (float *)j->dst;
  int64_t i;
  switch (j->from) {
  case GE_DTYPE_FLOAT32: ge_float_to_half_n((const float *)j->src + b, (uint16_t *)j->dst + b, e - b); break;
  case GE_DTYPE_FLOAT16: ge_half_to_float_n((const uint16_t *)j->src + b, f + b, e - b); break;
  /* integer to float32 rounds to nearest even, as the reference's double
   * then float (a double holds every int32 exactly) */
  case GE_DTYPE_INT32:
    i = b;
#if GE__HK_F16C
    if (__builtin_cpu_supports("avx2")) i = b + ge__hk_i2f_avx2((const int32_t *)j->src + b, f + b, e - b);
#endif
    for (; i < e; i++) f[i] = (float)((const int32_t *)j->src)[i];
    break;
  case GE_DTYPE_UINT8:
    for (i = b; i < e; i++) f[i] = (float)((const uint8_t *)j->src)[i];
    break;
  default:
    for (i = b; i < e; i++) f[i] = (float)((const int8_t *)j->src)[i];
    break;
  }
}

/* The output dtype is the node's (shape inference wrote Cast's `to`
 * there), so no attribute is read per run. */
static ge_status ge__hk_cast(ge_kernel_ctx *c) {
  const ge_value *x = c->num_inputs > 0 ? c->inputs[0] : NULL;
  ge_dtype to = c->node->num_outputs ? c->node->outputs[0].dtype : GE_DTYPE_UNDEFINED;
  ge__hk_cast_job j;
  ge_value *y;
  ge_kernel_fn ref;
  if (!x || !((x->dtype == GE_DTYPE_FLOAT32 && to == GE_DTYPE_FLOAT16) ||
              (to == GE_DTYPE_FLOAT32 && (x->dtype == GE_DTYPE_FLOAT16 || x->dtype == GE_DTYPE_INT32 ||
                                          x->dtype == GE_DTYPE_UINT8 || x->dtype == GE_DTYPE_INT8)))) {
    ref = ge_host_cpu_kernel(c->node);
    return ref ? ref(c) : ge_kernel_error(c, GE_ERR_UNSUPPORTED, "no Cast kernel");
  }
  if (!(y = ge_kernel_output(c, 0, to, x->rank, x->dims))) return GE_ERR_NOMEM;
  j.src = x->data;
  j.dst = y->data;
  j.from = x->dtype;
  j.to = to;
  ge_kernel_parallel_for(c, x->numel, 1 << 16, ge__hk_cast_range, &j);
  return GE_OK;
}

GE_API ge_kernel_fn ge_half_fast_kernel(const ge_node *n) {
  if (!n || !ge_node_in_onnx_domain(n) || strcmp(n->op, "Cast") != 0 || n->num_outputs != 1) return NULL;
  return ge__hk_cast;
}

/* -------------------------------------------------------- promotion */

/* Ops whose float16 form is their float32 form at lower precision, sorted
 * by strcmp (a test checks it). */
static const char *const ge__hk_ops[] = {
    "Abs", "Acos", "Acosh", "Add", "Asin", "Asinh", "Atan", "Atanh", "AveragePool", "BatchNormalization", "Ceil",
    "Celu", "Clip", "Concat", "Conv", "ConvTranspose", "Cos", "Cosh", "DepthToSpace", "Div", "Elu", "Equal", "Erf",
    "Exp", "Expand", "Flatten", "Floor", "Gather", "GatherElements", "GatherND", "Gelu", "Gemm", "GlobalAveragePool",
    "GlobalMaxPool", "Greater", "GreaterOrEqual", "HardSigmoid", "HardSwish", "Identity", "InstanceNormalization",
    "LayerNormalization", "LeakyRelu", "Less", "LessOrEqual", "Log", "LogSoftmax", "MatMul", "Max", "MaxPool", "Mean",
    "Min", "Mish", "Mul", "Neg", "PRelu", "Pad", "Pow", "Reciprocal", "ReduceL1", "ReduceL2", "ReduceLogSum",
    "ReduceLogSumExp", "ReduceMax", "ReduceMean", "ReduceMin", "ReduceProd", "ReduceSum", "ReduceSumSquare", "Relu",
    "Reshape", "Resize", "Round", "Selu", "Shape", "Sigmoid", "Sign", "Sin", "Sinh", "Size", "Slice", "Softmax",
    "Softplus", "Softsign", "SpaceToDepth", "Split", "Sqrt", "Squeeze", "Sub", "Sum", "Tan", "Tanh",
    "ThresholdedRelu", "Tile", "Transpose", "Unsqueeze", "Where"};
#define GE__HK_NUM_OPS (sizeof ge__hk_ops / sizeof ge__hk_ops[0])

GE_API const char *ge_half_promoted_op(uint32_t i) { return i < GE__HK_NUM_OPS ? ge__hk_ops[i] : NULL; }

static int ge__hk_promotable(const ge_graph *g, const ge_node *n) {
  uint32_t i;
  int half = 0;
  if (!ge_node_in_onnx_domain(n) || !ge_op_in_sorted(n->op, ge__hk_ops, GE__HK_NUM_OPS)) return 0;
  for (i = 0; i < n->num_inputs; i++) {
    const ge_tensor_desc *d = ge_node_input_desc(g, n, i);
    if (!d) continue;
    if (d->dtype == GE_DTYPE_UNDEFINED) return 0;
    half |= d->dtype == GE_DTYPE_FLOAT16;
  }
  for (i = 0; i < n->num_outputs; i++) {
    if (n->outputs[i].dtype == GE_DTYPE_UNDEFINED) return 0;
    half |= n->outputs[i].dtype == GE_DTYPE_FLOAT16;
  }
  return half;
}

/* One converted tensor: producer output (node, index) seen as `to`. */
typedef struct ge__hk_conv {
  ge_node_id node;
  int32_t index;
  ge_dtype to;
  ge_node_id made;
} ge__hk_conv;

typedef struct ge__hk_pass {
  ge_graph *g;
  ge__hk_conv *conv;
  uint32_t n, cap;
} ge__hk_pass;

/* The float32 twin of a float16 Const (made once). */
static ge_status ge__hk_const_twin(ge__hk_pass *p, const ge_node *k, ge_node_id *out, ge_error *err) {
  const ge_attr *a = ge_node_attr(k, "value");
  ge_tensor t;
  int64_t numel;
  float *data;
  ge_status st;
  if (!a || a->type != GE_ATTR_TENSOR || !a->v.t || a->v.t->dtype != GE_DTYPE_FLOAT16 ||
      (numel = ge_tensor_numel(a->v.t)) < 0 || (numel > 0 && !a->v.t->data))
    return ge_error_set(err, GE_ERR_INVALID, "Const '%s': float16 output without a float16 value", k->name);
  if (!(data = (float *)malloc((size_t)(numel ? numel : 1) * sizeof(float))))
    return ge_error_set(err, GE_ERR_NOMEM, "Const '%s': no memory for its float32 twin", k->name);
  if (numel) ge_half_to_float_n((const uint16_t *)a->v.t->data, data, numel);
  t = *a->v.t;
  t.dtype = GE_DTYPE_FLOAT32;
  t.data = data;
  t.nbytes = (size_t)numel * sizeof(float);
  t.borrowed = NULL;
  st = ge_graph_add_const(p->g, NULL, &t, out, err);
  free(data);
  if (st == GE_OK) ge_graph_node(p->g, *out)->engine = -1;
  return st;
}

/* The node reading (src) as dtype `to`: a Const twin or an inserted Cast,
 * made at the first request and shared by later ones. */
static ge_status ge__hk_converted(ge__hk_pass *p, ge_edge src, ge_dtype to, ge_edge *out, ge_error *err) {
  const ge_node *sn = ge_graph_node(p->g, src.node);
  ge_tensor_desc d;
  ge_node_id made = GE_NONE;
  uint32_t i;
  ge_status st;
  for (i = 0; i < p->n; i++)
    if (p->conv[i].node == src.node && p->conv[i].index == src.index && p->conv[i].to == to) {
      out->node = p->conv[i].made;
      out->index = 0;
      return GE_OK;
    }
  d = sn->outputs[src.index];
  if (to == GE_DTYPE_FLOAT32 && !strcmp(sn->op, "Const") && !sn->num_control_inputs) {
    if ((st = ge__hk_const_twin(p, sn, &made, err)) != GE_OK) return st;
  } else {
    if ((st = ge_graph_add_node(p->g, "Cast", NULL, 1, &src, 1, &made, err)) != GE_OK) return st;
    if ((st = ge_node_set_attr_int(p->g, made, "to", (int64_t)to, err)) != GE_OK) return st;
    ge_graph_node(p->g, made)->engine = -1;
  }
  if ((st = ge_node_set_output(p->g, made, 0, to, d.shape.rank, d.shape.dims, d.shape.info, err)) != GE_OK) return st;
  if (p->n == p->cap) {
    uint32_t cap = p->cap ? 2 * p->cap : 16;
    ge__hk_conv *nc = (ge__hk_conv *)realloc(p->conv, cap * sizeof *nc);
    if (!nc) return ge_error_set(err, GE_ERR_NOMEM, "float16 promotion: no memory");
    p->conv = nc;
    p->cap = cap;
  }
  p->conv[p->n].node = src.node;
  p->conv[p->n].index = src.index;
  p->conv[p->n].to = to;
  p->conv[p->n].made = made;
  p->n++;
  out->node = made;
  out->index = 0;
  return GE_OK;
}

static ge_status ge__hk_promote(ge__hk_pass *p, uint8_t *prom, uint32_t bound, ge_error *err) {
  ge_graph *g = p->g;
  uint32_t id, i, any = 0;
  ge_status st;
  for (id = 0; id < bound; id++) {
    const ge_node *n = ge_graph_node(g, id);
    prom[id] = (uint8_t)(n && ge__hk_promotable(g, n));
    any |= prom[id];
  }
  if (!any) return GE_OK;
  /* rewire the float16 edges that cross a region's border */
  for (id = 0; id < bound; id++) {
    ge_node *n = ge_graph_node(g, id);
    if (!n) continue;
    for (i = 0; i < n->num_inputs; i++) {
      ge_edge src = n->inputs[i], to;
      const ge_node *sn;
      if (src.node == GE_NONE || src.node >= bound || !(sn = ge_graph_node(g, src.node))) continue;
      if (sn->outputs[src.index].dtype != GE_DTYPE_FLOAT16) continue;
      if (prom[id] == prom[src.node]) continue; /* both in (float32 now) or both out (float16) */
      st = ge__hk_converted(p, src, prom[id] ? GE_DTYPE_FLOAT32 : GE_DTYPE_FLOAT16, &to, err);
      if (st == GE_OK) st = ge_graph_set_input(g, id, i, to, err);
      if (st != GE_OK) return st;
      n = ge_graph_node(g, id); /* the node table may have moved */
    }
  }
  /* the promoted nodes' float16 outputs become float32 */
  for (id = 0; id < bound; id++) {
    ge_node *n = prom[id] ? ge_graph_node(g, id) : NULL;
    if (!n) continue;
    for (i = 0; i < n->num_outputs; i++) {
      ge_tensor_desc d = n->outputs[i];
      if (d.dtype != GE_DTYPE_FLOAT16) continue;
      if ((st = ge_node_set_output(g, id, i, GE_DTYPE_FLOAT32, d.shape.rank, d.shape.dims, d.shape.info, err)) != GE_OK)
        return st;
      n = ge_graph_node(g, id);
    }
  }
  /* float16 Consts whose readers all moved to a twin */
  for (i = 0; i < p->n; i++) {
    ge_node *k = ge_graph_node(g, p->conv[i].node);
    if (k && !strcmp(k->op, "Const") && !k->num_uses && !k->num_control_outputs && !k->num_control_inputs)
      if ((st = ge_graph_remove_node(g, p->conv[i].node, err)) != GE_OK) return st;
  }
  return GE_OK;
}

GE_API ge_status ge_half_promote(ge_graph *g, ge_error *err) {
  uint32_t bound;
  uint8_t *prom;
  ge__hk_pass p;
  ge_status st;
  if (!g) return ge_error_set(err, GE_ERR_INVALID, "ge_half_promote: no graph");
  bound = ge_graph_id_bound(g);
  if (!(prom = (uint8_t *)malloc(bound ? bound : 1)))
    return ge_error_set(err, GE_ERR_NOMEM, "float16 promotion: no memory");
  memset(&p, 0, sizeof p);
  p.g = g;
  st = ge__hk_promote(&p, prom, bound, err);
  free(prom);
  free(p.conv);
  return st;
}

GE_API ge_status ge_half_optimize_original(const ge_engine *e, ge_graph *g, ge_error *err) {
  (void)e;
  return ge_half_promote(g, err);
}

#ifdef __cplusplus
}
#endif
#endif /* GE_HALF_KERNELS_IMPLEMENTATION_DONE */
#endif /* GE_HALF_KERNELS_IMPLEMENTATION */

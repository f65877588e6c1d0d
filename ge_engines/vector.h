/* ge_engines/vector.h — VectorEngine (accelerator "AiVector"), cost 2.
 *
 * Part of ge. Ascend's vector unit runs element-wise math, activations,
 * comparisons, casts and reductions. Here it is a CPU engine with that op
 * set: it decides which nodes it takes (ge_vector_supports) and hands out
 * kernels: the fast float32 kernels of vector_kernels.h where they exist,
 * the fast Cast of half_kernels.h, else the host CPU reference kernels
 * (host_cpu.h). Its optimize_original (as AI Core's) runs float16 regions
 * in float32 (ge_half_promote, half_kernels.h).
 * DESIGN §5: the placer excludes it unless ge.engineType=VectorEngine (it
 * and AI Core are mutually exclusive); the AI Core engine (ai_core.h) runs
 * the same element-wise ops and reuses ge_vector_supports for them.
 *
 * Include after (or instead of) ge_graph.h; define GE_VECTOR_IMPLEMENTATION
 * (or GE_IMPLEMENTATION) in one translation unit. The implementations of
 * ge_graph.h and host_cpu.h must be compiled somewhere too.
 *
 * Support rules (ge_vector_supports), checked in this order:
 *   - the node is in the ONNX domain;
 *   - its op is in the vector op set (ge_vector_op lists it);
 *   - every present input and every output has a known rank <= 8
 *     (dimensions may be dynamic);
 *   - dtypes, by op kind:
 *       math, activations, reductions   float32, float16, bfloat16 (the
 *                                       axes input of Reduce* may be int64)
 *       Equal Greater GreaterOrEqual    inputs float or int8/uint8/int16/
 *       Less LessOrEqual                int32 (Equal also bool); output bool
 *       And Or Xor Not                  bool
 *       IsInf IsNaN                     float input, bool output
 *       Where                           bool condition; values float or
 *                                       int8/uint8/int16/int32
 *       Cast                            float, int8/uint8/int16/int32, bool
 *     int64, float64 and the rest belong to the AI CPU engines.
 * A refused node gets a short reason naming the fact, e.g.
 * "dtype int64 of input 0 not supported (float32, float16, bfloat16)".
 * The check allocates nothing and formats nothing when why is NULL.
 *
 * Thread safety: everything here is read-only and thread-safe.
 */
#ifndef GE_ENGINE_VECTOR_H
#define GE_ENGINE_VECTOR_H

#include "ge_graph.h"
#include "host_cpu.h"
#include "vector_kernels.h"
#include "half_kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The VectorEngine descriptor (static storage). */
GE_API const ge_engine *ge_vector_engine(void);
/* 1 when the vector engine runs node n of g; else 0 with the reason in
 * why[0..cap) (why may be NULL). */
GE_API int ge_vector_supports(const ge_graph *g, const ge_node *n, char *why, size_t cap);
/* The vector op set, sorted by strcmp: NULL past the end. */
GE_API const char *ge_vector_op(uint32_t i);

#ifdef __cplusplus
}
#endif
#endif /* GE_ENGINE_VECTOR_H */

#if defined(GE_IMPLEMENTATION) || defined(GE_VECTOR_IMPLEMENTATION)
#ifndef GE_VECTOR_IMPLEMENTATION_DONE
#define GE_VECTOR_IMPLEMENTATION_DONE

#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Sorted by strcmp (a test checks it): ge_op_in_sorted searches it. */
static const char *const ge__vec_ops[] = {
    "Abs", "Acos", "Acosh", "Add", "And", "Asin", "Asinh", "Atan", "Atanh", "Cast", "Ceil", "Celu", "Clip", "Cos",
    "Cosh", "Div", "Elu", "Equal", "Erf", "Exp", "Floor", "Gelu", "Greater", "GreaterOrEqual", "HardSigmoid",
    "HardSwish", "IsInf", "IsNaN", "LeakyRelu", "Less", "LessOrEqual", "Log", "Max", "Mean", "Min", "Mish", "Mod",
    "Mul", "Neg", "Not", "Or", "PRelu", "Pow", "Reciprocal", "ReduceL1", "ReduceL2", "ReduceLogSum",
    "ReduceLogSumExp", "ReduceMax", "ReduceMean", "ReduceMin", "ReduceProd", "ReduceSum", "ReduceSumSquare", "Relu",
    "Round", "Selu", "Shrink", "Sigmoid", "Sign", "Sin", "Sinh", "Softplus", "Softsign", "Sqrt", "Sub", "Sum", "Tan",
    "Tanh", "ThresholdedRelu", "Where", "Xor"};

#define GE__VEC_NUM_OPS (sizeof ge__vec_ops / sizeof ge__vec_ops[0])
#define GE__VEC_MAX_RANK 8

/* dtype masks */
#define GE__VEC_M_FLOAT                                                                                                \
  (GE_DTYPE_BIT(GE_DTYPE_FLOAT32) | GE_DTYPE_BIT(GE_DTYPE_FLOAT16) | GE_DTYPE_BIT(GE_DTYPE_BFLOAT16))
#define GE__VEC_M_SMALLINT                                                                                             \
  (GE_DTYPE_BIT(GE_DTYPE_INT8) | GE_DTYPE_BIT(GE_DTYPE_UINT8) | GE_DTYPE_BIT(GE_DTYPE_INT16) |                          \
   GE_DTYPE_BIT(GE_DTYPE_INT32))
#define GE__VEC_M_BOOL GE_DTYPE_BIT(GE_DTYPE_BOOL)
#define GE__VEC_M_INT64 GE_DTYPE_BIT(GE_DTYPE_INT64)

/* Op kinds (how dtypes are checked). */
enum { GE__VEC_K_FLOAT, GE__VEC_K_REDUCE, GE__VEC_K_CMP, GE__VEC_K_EQUAL, GE__VEC_K_LOGIC, GE__VEC_K_TEST,
       GE__VEC_K_WHERE, GE__VEC_K_CAST };

/* The kind of an op of the set: a switch on the first letter, then at most
 * a few comparisons (cheap on the placement path). */
static int ge__vec_kind(const char *op) {
  switch (op[0]) {
  case 'A': return strcmp(op, "And") == 0 ? GE__VEC_K_LOGIC : GE__VEC_K_FLOAT;
  case 'C': return strcmp(op, "Cast") == 0 ? GE__VEC_K_CAST : GE__VEC_K_FLOAT;
  case 'E': return strcmp(op, "Equal") == 0 ? GE__VEC_K_EQUAL : GE__VEC_K_FLOAT;
  case 'G':
    return (strcmp(op, "Greater") == 0 || strcmp(op, "GreaterOrEqual") == 0) ? GE__VEC_K_CMP : GE__VEC_K_FLOAT;
  case 'I': return GE__VEC_K_TEST; /* IsInf, IsNaN */
  case 'L': return (strcmp(op, "Less") == 0 || strcmp(op, "LessOrEqual") == 0) ? GE__VEC_K_CMP : GE__VEC_K_FLOAT;
  case 'N': return strcmp(op, "Not") == 0 ? GE__VEC_K_LOGIC : GE__VEC_K_FLOAT;
  case 'O': return GE__VEC_K_LOGIC; /* Or */
  case 'R': return strncmp(op, "Reduce", 6) == 0 ? GE__VEC_K_REDUCE : GE__VEC_K_FLOAT;
  case 'W': return GE__VEC_K_WHERE;
  case 'X': return GE__VEC_K_LOGIC; /* Xor */
  default: return GE__VEC_K_FLOAT;
  }
}

static const char *ge__vec_mask_text(uint32_t m) {
  if (m == GE__VEC_M_FLOAT) return "float32, float16, bfloat16";
  if (m == (GE__VEC_M_FLOAT | GE__VEC_M_INT64)) return "float32, float16, bfloat16, int64";
  if (m == GE__VEC_M_BOOL) return "bool";
  if (m == (GE__VEC_M_FLOAT | GE__VEC_M_SMALLINT)) return "float32, float16, bfloat16, int8, uint8, int16, int32";
  if (m == (GE__VEC_M_FLOAT | GE__VEC_M_SMALLINT | GE__VEC_M_BOOL))
    return "float32, float16, bfloat16, int8, uint8, int16, int32, bool";
  return "?";
}

/* dtype masks allowed for input i / the outputs of an op of kind k. */
static uint32_t ge__vec_in_mask(int k, uint32_t i) {
  switch (k) {
  case GE__VEC_K_REDUCE: return i == 1 ? GE__VEC_M_INT64 : GE__VEC_M_FLOAT;
  case GE__VEC_K_CMP: return GE__VEC_M_FLOAT | GE__VEC_M_SMALLINT;
  case GE__VEC_K_EQUAL: return GE__VEC_M_FLOAT | GE__VEC_M_SMALLINT | GE__VEC_M_BOOL;
  case GE__VEC_K_LOGIC: return GE__VEC_M_BOOL;
  case GE__VEC_K_WHERE: return i == 0 ? GE__VEC_M_BOOL : GE__VEC_M_FLOAT | GE__VEC_M_SMALLINT;
  case GE__VEC_K_CAST: return GE__VEC_M_FLOAT | GE__VEC_M_SMALLINT | GE__VEC_M_BOOL;
  default: return GE__VEC_M_FLOAT;
  }
}

static uint32_t ge__vec_out_mask(int k) {
  switch (k) {
  case GE__VEC_K_CMP:
  case GE__VEC_K_EQUAL:
  case GE__VEC_K_LOGIC:
  case GE__VEC_K_TEST: return GE__VEC_M_BOOL;
  case GE__VEC_K_WHERE: return GE__VEC_M_FLOAT | GE__VEC_M_SMALLINT;
  case GE__VEC_K_CAST: return GE__VEC_M_FLOAT | GE__VEC_M_SMALLINT | GE__VEC_M_BOOL;
  default: return GE__VEC_M_FLOAT;
  }
}

/* Rank check of one tensor: 1 when known and <= 8. */
static int ge__vec_rank_ok(const ge_tensor_desc *d, const char *what, uint32_t i, char *why, size_t cap) {
  if (d->shape.rank == GE_RANK_UNKNOWN || d->shape.rank < 0) {
    if (why) ge_engine_why(why, cap, "rank of %s %u unknown", what, (unsigned)i);
    return 0;
  }
  if (d->shape.rank > GE__VEC_MAX_RANK) {
    if (why) ge_engine_why(why, cap, "rank %d of %s %u exceeds %d", (int)d->shape.rank, what, (unsigned)i,
                           GE__VEC_MAX_RANK);
    return 0;
  }
  return 1;
}

static int ge__vec_dtype_ok(ge_dtype t, uint32_t mask, const char *what, uint32_t i, char *why, size_t cap) {
  if ((unsigned)t < 32u && (GE_DTYPE_BIT(t) & mask)) return 1;
  if (why) ge_engine_why(why, cap, "dtype %s of %s %u not supported (%s)", ge_dtype_name(t), what, (unsigned)i,
                         ge__vec_mask_text(mask));
  return 0;
}

GE_API int ge_vector_supports(const ge_graph *g, const ge_node *n, char *why, size_t cap) {
  uint32_t i;
  int k;
  if (!ge_node_in_onnx_domain(n)) {
    if (why) ge_engine_why(why, cap, "op domain %s not supported (ONNX only)", n->domain);
    return 0;
  }
  if (!ge_op_in_sorted(n->op, ge__vec_ops, GE__VEC_NUM_OPS)) {
    if (why) ge_engine_why(why, cap, "op %s not in the vector op set", n->op);
    return 0;
  }
  k = ge__vec_kind(n->op);
  for (i = 0; i < n->num_inputs; i++) {
    const ge_tensor_desc *d = ge_node_input_desc(g, n, i);
    if (!d) continue;
    if (!ge__vec_rank_ok(d, "input", i, why, cap)) return 0;
    if (!ge__vec_dtype_ok(d->dtype, ge__vec_in_mask(k, i), "input", i, why, cap)) return 0;
  }
  for (i = 0; i < n->num_outputs; i++) {
    const ge_tensor_desc *d = &n->outputs[i];
    if (!ge__vec_rank_ok(d, "output", i, why, cap)) return 0;
    if (!ge__vec_dtype_ok(d->dtype, ge__vec_out_mask(k), "output", i, why, cap)) return 0;
  }
  return 1;
}

GE_API const char *ge_vector_op(uint32_t i) { return i < GE__VEC_NUM_OPS ? ge__vec_ops[i] : NULL; }

static int ge__vec_check(const ge_engine *e, const ge_graph *g, const ge_node *n, char *why, size_t cap) {
  (void)e;
  return ge_vector_supports(g, n, why, cap);
}

/* A fast float32 kernel when there is one, else the reference kernel (the
 * support rules do not change with it). */
static ge_kernel_fn ge__vec_kernel(const ge_engine *e, const ge_node *n) {
  ge_kernel_fn fast;
  (void)e;
  if (!ge_node_in_onnx_domain(n) || !ge_op_in_sorted(n->op, ge__vec_ops, GE__VEC_NUM_OPS)) return NULL;
  if ((fast = ge_vector_fast_kernel(n)) != NULL) return fast;
  if ((fast = ge_half_fast_kernel(n)) != NULL) return fast; /* Cast float32 <-> float16 */
  return ge_host_cpu_kernel(n);
}

static const ge_engine ge__vec_engine = {
    GE_ENGINE_ABI_VERSION, /* abi_version */
    "VectorEngine",        /* name */
    "AiVector",            /* accelerator */
    2,                     /* cost */
    GE_RUNTIME_DEVICE,     /* runtime */
    0,                     /* flags */
    NULL,                  /* members */
    ge__vec_check,         /* check_supported */
    ge__vec_kernel,        /* kernel */
    NULL,                  /* workspace_size */
    ge_half_optimize_original, /* optimize_original: float16 regions run in float32 */
    NULL,                  /* optimize_subgraph */
    NULL                   /* user */
};

GE_API const ge_engine *ge_vector_engine(void) { return &ge__vec_engine; }

#ifdef __cplusplus
}
#endif
#endif /* GE_VECTOR_IMPLEMENTATION_DONE */
#endif /* GE_VECTOR_IMPLEMENTATION */

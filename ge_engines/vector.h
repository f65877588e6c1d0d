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
 * Chain fusion (ge_vector_fuse_chains), on float32 nodes of one engine
 * whose intermediate results have no other reader and no control edges:
 *   - Mul(x, Const s) -> Add(., Const b), s and b scalars or one value per
 *     channel (axis 1 of x, whose size is known): BatchNormalization(x,
 *     s, b, mean 0, var 1, epsilon 0), i.e. y = x s + b in one pass, and
 *     foldable into a Conv before it (what exporters make of a folded BN);
 *   - Div(Mul(x, Clip(Add(x, Const 3), Const 0, Const 6)), Const 6) (the
 *     decomposed HardSwish of PaddlePaddle exports): HardSwish(x);
 *   - x * 0.5 * (1 + Erf(x / sqrt 2)) in the two orders exporters write it
 *     (PyTorch's GELU before opset 20, BERT's): Gelu(x).
 * Results agree with the chain up to float rounding (a few ulps).
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
/* Rewrites element-wise chains of nodes with engine == self into single
 * ops (see "Chain fusion" above); the AI Core optimiser calls it first, so
 * that its own folds and fusions then take the results. */
GE_API ge_status ge_vector_fuse_chains(ge_graph *g, int32_t self, ge_error *err);

#ifdef __cplusplus
}
#endif
#endif /* GE_ENGINE_VECTOR_H */

#if defined(GE_IMPLEMENTATION) || defined(GE_VECTOR_IMPLEMENTATION)
#ifndef GE_VECTOR_IMPLEMENTATION_DONE
#define GE_VECTOR_IMPLEMENTATION_DONE

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
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

/* ------------------------------------------------------- chain fusion */

static int ge__vec_is(const ge_node *n, const char *op) {
  return n && ge_node_in_onnx_domain(n) && !strcmp(n->op, op);
}

/* The float32 tensor of the Const feeding input i of n, or NULL. */
static const ge_tensor *ge__vec_const_in(const ge_graph *g, const ge_node *n, uint32_t i) {
  const ge_tensor *t = ge_node_const_input(g, n, i);
  return t && t->dtype == GE_DTYPE_FLOAT32 ? t : NULL;
}

/* The one value of a float32 scalar-like Const input (1 on success). */
static int ge__vec_const_scalar(const ge_graph *g, const ge_node *n, uint32_t i, float *v) {
  const ge_tensor *t = ge__vec_const_in(g, n, i);
  if (!t || ge_tensor_numel(t) != 1) return 0;
  *v = ((const float *)t->data)[0];
  return 1;
}

static int ge__vec_same_desc(const ge_tensor_desc *a, const ge_tensor_desc *b) {
  int32_t i;
  if (a->dtype != b->dtype || a->shape.rank != b->shape.rank || a->shape.rank < 0) return 0;
  for (i = 0; i < a->shape.rank; i++)
    if (a->shape.dims[i] != b->shape.dims[i]) return 0;
  return 1;
}

/* n is an element-wise link of a chain: this engine, float32 output 0,
 * no control edges; with `single`, output 0 has exactly one reader. */
static int ge__vec_link(const ge_node *n, int32_t self, int single) {
  if (!n || n->engine != self || n->num_outputs != 1 || n->num_control_inputs || n->num_control_outputs ||
      n->outputs[0].dtype != GE_DTYPE_FLOAT32 || !ge_node_in_onnx_domain(n))
    return 0;
  return !single || n->num_uses == 1;
}

/* The node reading n's output 0 when it is the only reader, else NULL. */
static ge_node *ge__vec_only_use(const ge_graph *g, const ge_node *n) {
  if (n->num_outputs != 1 || n->num_uses != 1) return NULL;
  return ge_graph_node(g, n->uses[0].node);
}

/* Input k of n (0 or 1) is a Const, the other one is the variable: which. */
static int ge__vec_const_side(const ge_graph *g, const ge_node *n) {
  if (n->num_inputs != 2) return -1;
  if (ge__vec_const_in(g, n, 1) && !ge__vec_const_in(g, n, 0)) return 1;
  if (ge__vec_const_in(g, n, 0) && !ge__vec_const_in(g, n, 1)) return 0;
  return -1;
}

/* Per-channel values of Const t for x of rank r with C channels (axis 1):
 * a scalar, or C values whose only non-1 dim lands on axis 1. */
static int ge__vec_per_channel(const ge_tensor *t, int32_t r, int64_t C, float *out) {
  int64_t n = ge_tensor_numel(t), i;
  int32_t k;
  if (n == 1) {
    for (i = 0; i < C; i++) out[i] = ((const float *)t->data)[0];
    return 1;
  }
  if (n != C || t->rank > r) return 0;
  for (k = 0; k < t->rank; k++)
    if (t->dims[k] != 1 && k + (r - t->rank) != 1) return 0;
  memcpy(out, t->data, (size_t)C * sizeof(float));
  return 1;
}

/* A fresh node name: base + suffix (+ "_<k>"). */
static void ge__vec_name(ge_graph *g, const char *base, const char *suffix, char *buf, size_t cap) {
  unsigned k;
  snprintf(buf, cap, "%.200s%s", base, suffix);
  for (k = 1; ge_graph_find(g, buf) != GE_NONE; k++) snprintf(buf, cap, "%.200s%s_%u", base, suffix, k);
}

static ge_status ge__vec_add_const(ge_graph *g, const char *base, const char *suffix, int64_t C, float *data,
                                   ge_edge *out, ge_error *err) {
  ge_tensor t;
  char name[256];
  ge_status st;
  memset(&t, 0, sizeof t);
  t.dtype = GE_DTYPE_FLOAT32;
  t.rank = 1;
  t.dims = &C;
  t.data = data;
  t.nbytes = (size_t)C * sizeof(float);
  ge__vec_name(g, base, suffix, name, sizeof name);
  if ((st = ge_graph_add_const(g, name, &t, &out->node, err)) != GE_OK) return st;
  out->index = 0;
  ge_graph_node(g, out->node)->engine = -1; /* the placer places it */
  return GE_OK;
}

/* Removes Const id when nobody reads it any more. */
static void ge__vec_drop_orphan(ge_graph *g, ge_node_id id) {
  ge_node *n = id == GE_NONE ? NULL : ge_graph_node(g, id);
  if (n && !strcmp(n->op, "Const") && n->num_uses == 0 && !n->num_control_inputs && !n->num_control_outputs)
    ge_graph_remove_node(g, id, NULL);
}

/* Adds op(inputs) with the output descriptor of `last`, moves last's
 * readers to it and removes the chain nodes[0..k) (last among them) and
 * the Consts only they read. */
static ge_status ge__vec_replace_chain(ge_graph *g, const char *op, uint32_t n_in, const ge_edge *in,
                                       ge_node_id *chain, uint32_t k, ge_node_id *made, ge_error *err) {
  ge_node *last = ge_graph_node(g, chain[k - 1]);
  const ge_tensor_desc *d = &last->outputs[0];
  ge_node_id consts[16], id;
  uint32_t i, j, nc = 0;
  int32_t engine = last->engine;
  uint32_t flags = last->flags & (GE_NODE_FORCE_DYNAMIC | GE_NODE_IS_DYNAMIC);
  char name[256];
  ge_edge from, to;
  ge_status st;
  ge__vec_name(g, last->name, "_fused", name, sizeof name);
  if ((st = ge_graph_add_node(g, op, name, n_in, in, 1, &id, err)) != GE_OK) return st;
  last = ge_graph_node(g, chain[k - 1]);
  d = &last->outputs[0];
  if ((st = ge_node_set_output(g, id, 0, d->dtype, d->shape.rank, d->shape.dims, d->shape.info, err)) != GE_OK)
    return st;
  if (d->name && (st = ge_node_set_output_name(g, id, 0, d->name, err)) != GE_OK) return st;
  ge_graph_node(g, id)->engine = engine;
  ge_graph_node(g, id)->flags |= flags;
  from.node = chain[k - 1];
  from.index = 0;
  to.node = id;
  to.index = 0;
  if ((st = ge_graph_replace_uses(g, from, to, err)) != GE_OK) return st;
  for (i = 0; i < k; i++) {
    ge_node *n = ge_graph_node(g, chain[i]);
    for (j = 0; j < n->num_inputs && nc < 16; j++)
      if (n->inputs[j].node != GE_NONE && !strcmp(ge_graph_node(g, n->inputs[j].node)->op, "Const"))
        consts[nc++] = n->inputs[j].node;
  }
  for (i = k; i-- > 0;)
    if ((st = ge_graph_remove_node(g, chain[i], err)) != GE_OK) return st;
  for (i = 0; i < nc; i++) ge__vec_drop_orphan(g, consts[i]);
  *made = id;
  return GE_OK;
}

/* Mul(x, Const s) -> Add(., Const b) into BatchNormalization (x s + b). */
static ge_status ge__vec_fuse_affine(ge_graph *g, ge_node_id id, int32_t self, ge_error *err) {
  ge_node *m = ge_graph_node(g, id), *a;
  const ge_tensor_desc *xd;
  const ge_tensor *s, *b;
  int ms, as;
  int64_t C;
  float *buf;
  ge_edge in[5];
  ge_node_id chain[2], made;
  ge_status st = GE_OK;
  if (!ge__vec_is(m, "Mul") || !ge__vec_link(m, self, 1) || (ms = ge__vec_const_side(g, m)) < 0) return GE_OK;
  a = ge__vec_only_use(g, m);
  if (!ge__vec_is(a, "Add") || !ge__vec_link(a, self, 0) || (as = ge__vec_const_side(g, a)) < 0 ||
      a->inputs[1 - as].node != id || a->inputs[1 - as].index != 0)
    return GE_OK;
  xd = ge_node_input_desc(g, m, (uint32_t)(1 - ms));
  if (!xd || xd->dtype != GE_DTYPE_FLOAT32 || xd->shape.rank < 2 || (C = xd->shape.dims[1]) <= 0 || C > (1 << 20) ||
      !ge__vec_same_desc(xd, &m->outputs[0]) || !ge__vec_same_desc(xd, &a->outputs[0]))
    return GE_OK;
  s = ge__vec_const_in(g, m, (uint32_t)ms);
  b = ge__vec_const_in(g, a, (uint32_t)as);
  if (!(buf = (float *)malloc((size_t)C * 4 * sizeof(float))))
    return ge_error_set(err, GE_ERR_NOMEM, "out of memory fusing '%s'", m->name);
  if (ge__vec_per_channel(s, xd->shape.rank, C, buf) && ge__vec_per_channel(b, xd->shape.rank, C, buf + C)) {
    int64_t i;
    for (i = 0; i < C; i++) {
      buf[2 * C + i] = 0.0f;
      buf[3 * C + i] = 1.0f;
    }
    in[0] = m->inputs[1 - ms];
    chain[0] = id;
    chain[1] = a->id;
    if ((st = ge__vec_add_const(g, a->name, "_scale", C, buf, &in[1], err)) == GE_OK &&
        (st = ge__vec_add_const(g, a->name, "_shift", C, buf + C, &in[2], err)) == GE_OK &&
        (st = ge__vec_add_const(g, a->name, "_zero", C, buf + 2 * C, &in[3], err)) == GE_OK &&
        (st = ge__vec_add_const(g, a->name, "_one", C, buf + 3 * C, &in[4], err)) == GE_OK &&
        (st = ge__vec_replace_chain(g, "BatchNormalization", 5, in, chain, 2, &made, err)) == GE_OK)
      st = ge_node_set_attr_float(g, made, "epsilon", 0.0, err);
  }
  free(buf);
  return st;
}

/* Div(Mul(x, Clip(Add(x, 3), 0, 6)), 6) into HardSwish(x); id is the Add. */
static ge_status ge__vec_fuse_hardswish(ge_graph *g, ge_node_id id, int32_t self, ge_error *err) {
  ge_node *t = ge_graph_node(g, id), *u, *v, *d;
  int ts, vs;
  float c, lo = -HUGE_VALF, hi = HUGE_VALF;
  ge_edge x;
  ge_node_id chain[4], made;
  if (!ge__vec_is(t, "Add") || !ge__vec_link(t, self, 1) || (ts = ge__vec_const_side(g, t)) < 0 ||
      !ge__vec_const_scalar(g, t, (uint32_t)ts, &c) || c != 3.0f)
    return GE_OK;
  x = t->inputs[1 - ts];
  u = ge__vec_only_use(g, t);
  if (!ge__vec_is(u, "Clip") || !ge__vec_link(u, self, 1) || u->num_inputs < 1 || u->inputs[0].node != id) return GE_OK;
  if (u->num_inputs == 1) { /* opset < 11: attributes */
    lo = (float)ge_node_attr_float(u, "min", -HUGE_VAL);
    hi = (float)ge_node_attr_float(u, "max", HUGE_VAL);
  } else if (u->num_inputs != 3 || !ge__vec_const_scalar(g, u, 1, &lo) || !ge__vec_const_scalar(g, u, 2, &hi))
    return GE_OK;
  if (lo != 0.0f || hi != 6.0f) return GE_OK;
  v = ge__vec_only_use(g, u);
  if (!ge__vec_is(v, "Mul") || !ge__vec_link(v, self, 1) || v->num_inputs != 2) return GE_OK;
  vs = v->inputs[0].node == u->id ? 0 : 1;
  if (v->inputs[vs].node != u->id || v->inputs[1 - vs].node != x.node || v->inputs[1 - vs].index != x.index)
    return GE_OK;
  d = ge__vec_only_use(g, v);
  if (!ge__vec_is(d, "Div") || !ge__vec_link(d, self, 0) || d->num_inputs != 2 || d->inputs[0].node != v->id ||
      !ge__vec_const_scalar(g, d, 1, &c) || c != 6.0f)
    return GE_OK;
  {
    const ge_tensor_desc *xd = ge_node_input_desc(g, t, (uint32_t)(1 - ts));
    if (!xd || !ge__vec_same_desc(xd, &t->outputs[0]) || !ge__vec_same_desc(xd, &u->outputs[0]) ||
        !ge__vec_same_desc(xd, &v->outputs[0]) || !ge__vec_same_desc(xd, &d->outputs[0]))
      return GE_OK;
  }
  chain[0] = id;
  chain[1] = u->id;
  chain[2] = v->id;
  chain[3] = d->id;
  return ge__vec_replace_chain(g, "HardSwish", 1, &x, chain, 4, &made, err);
}

/* Whether v is c to float rounding (exporters write 1/sqrt(2) and sqrt(2)
 * with a few digits fewer or more). */
static int ge__vec_near(float v, double c) { return fabs(v - c) <= 1e-6 * fabs(c); }

/* The exact GELU as exporters decompose it, x * 0.5 * (1 + erf(x / sqrt 2)):
 * Erf(Div(x, sqrt 2) or Mul(x, 1/sqrt 2)) -> Add(1) -> Mul with x then
 * Mul(0.5), or Mul with Mul(x, 0.5): into Gelu(x); id is the Erf. */
static ge_status ge__vec_fuse_gelu(ge_graph *g, ge_node_id id, int32_t self, ge_error *err) {
  ge_node *e = ge_graph_node(g, id), *s, *a, *m, *h = NULL, *last;
  int as, ms, xs, k;
  float c;
  ge_edge x;
  ge_node_id chain[5], made;
  if (!ge__vec_is(e, "Erf") || !ge__vec_link(e, self, 1) || e->num_inputs != 1 || e->inputs[0].node == GE_NONE)
    return GE_OK;
  s = ge_graph_node(g, e->inputs[0].node);
  if (!(ge__vec_is(s, "Div") || ge__vec_is(s, "Mul")) || !ge__vec_link(s, self, 1) || s->num_inputs != 2) return GE_OK;
  if (ge__vec_is(s, "Div") ? !ge__vec_const_scalar(g, s, 1, &c) || !ge__vec_near(c, 1.4142135623730951)
                           : (k = ge__vec_const_side(g, s)) < 0 || !ge__vec_const_scalar(g, s, (uint32_t)k, &c) ||
                                 !ge__vec_near(c, 0.7071067811865476))
    return GE_OK;
  xs = ge__vec_is(s, "Div") ? 0 : 1 - ge__vec_const_side(g, s);
  x = s->inputs[xs];
  a = ge__vec_only_use(g, e);
  if (!ge__vec_is(a, "Add") || !ge__vec_link(a, self, 1) || (as = ge__vec_const_side(g, a)) < 0 ||
      !ge__vec_const_scalar(g, a, (uint32_t)as, &c) || c != 1.0f)
    return GE_OK;
  m = ge__vec_only_use(g, a);
  if (!ge__vec_is(m, "Mul") || !ge__vec_link(m, self, 0) || m->num_inputs != 2) return GE_OK;
  ms = m->inputs[0].node == a->id ? 1 : 0; /* the side that is not the Add */
  if (m->inputs[1 - ms].node != a->id || m->inputs[ms].node == GE_NONE) return GE_OK;
  if (m->inputs[ms].node == x.node && m->inputs[ms].index == x.index) { /* (x * add) * 0.5 */
    if (!ge__vec_link(m, self, 1)) return GE_OK;
    last = ge__vec_only_use(g, m);
    if (!ge__vec_is(last, "Mul") || !ge__vec_link(last, self, 0) || (k = ge__vec_const_side(g, last)) < 0 ||
        !ge__vec_const_scalar(g, last, (uint32_t)k, &c) || c != 0.5f)
      return GE_OK;
  } else { /* (x * 0.5) * add */
    h = ge_graph_node(g, m->inputs[ms].node);
    if (!ge__vec_is(h, "Mul") || !ge__vec_link(h, self, 1) || (k = ge__vec_const_side(g, h)) < 0 ||
        !ge__vec_const_scalar(g, h, (uint32_t)k, &c) || c != 0.5f || h->inputs[1 - k].node != x.node ||
        h->inputs[1 - k].index != x.index)
      return GE_OK;
    last = m;
  }
  {
    const ge_tensor_desc *xd = ge_node_input_desc(g, s, (uint32_t)xs);
    if (!xd || !ge__vec_same_desc(xd, &s->outputs[0]) || !ge__vec_same_desc(xd, &last->outputs[0])) return GE_OK;
  }
  k = 0;
  if (h) chain[k++] = h->id;
  chain[k++] = s->id, chain[k++] = id, chain[k++] = a->id, chain[k++] = m->id;
  if (!h) chain[k++] = last->id;
  return ge__vec_replace_chain(g, "Gelu", 1, &x, chain, (uint32_t)k, &made, err);
}

GE_API ge_status ge_vector_fuse_chains(ge_graph *g, int32_t self, ge_error *err) {
  uint32_t id, bound = ge_graph_id_bound(g);
  ge_status st;
  for (id = 0; id < bound; id++) {
    ge_node *n = ge_graph_node(g, id);
    if (!n || n->engine != self) continue;
    if ((st = ge__vec_fuse_affine(g, id, self, err)) != GE_OK) return st;
  }
  bound = ge_graph_id_bound(g);
  for (id = 0; id < bound; id++) {
    ge_node *n = ge_graph_node(g, id);
    if (!n || n->engine != self) continue;
    if ((st = ge__vec_fuse_hardswish(g, id, self, err)) != GE_OK) return st;
  }
  bound = ge_graph_id_bound(g);
  for (id = 0; id < bound; id++) {
    ge_node *n = ge_graph_node(g, id);
    if (!n || n->engine != self) continue;
    if ((st = ge__vec_fuse_gelu(g, id, self, err)) != GE_OK) return st;
  }
  return GE_OK;
}

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

/* The fast kernels with state to build at load. */
static ge_kernel_fn ge__vec_prepare(const ge_engine *e, const ge_node *n) {
  ge_kernel_fn fn = ge__vec_kernel(e, n);
  return fn && fn == ge_vector_fast_kernel(n) ? ge_vector_fast_prepare(n) : NULL;
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
    NULL,                  /* user */
    ge__vec_prepare        /* prepare */
};

GE_API const ge_engine *ge_vector_engine(void) { return &ge__vec_engine; }

#ifdef __cplusplus
}
#endif
#endif /* GE_VECTOR_IMPLEMENTATION_DONE */
#endif /* GE_VECTOR_IMPLEMENTATION */

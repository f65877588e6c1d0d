/* ge_engines/ai_cpu.h — the AI CPU engines: DNN_VM_AICPU_ASCEND (cost 3) and
 * DNN_VM_AICPU (cost 4, the second op library).
 *
 * Part of ge. On Ascend the AI CPU runs the general ops that do not suit the
 * AI Core: gathers and scatters, sorting, TopK, NonZero, NonMaxSuppression,
 * Unique (data-dependent output shapes), int64 arithmetic, shape arithmetic.
 * Here both libraries run on this machine's CPU with the reference kernels
 * of host_cpu.h (and the DSA random kernels when DSA is excluded), except
 * where a fast kernel exists: the float32 ones of vector_kernels.h, Cast
 * between float32 and float16 / int32 / int8 / uint8 (half_kernels.h) and
 * the quantization kernels of quant_kernels.h (DynamicQuantizeLinear,
 * Quantize/DequantizeLinear, ConvInteger, MatMulInteger). They differ in
 * what they accept:
 *
 *   DNN_VM_AICPU_ASCEND  every op with a kernel, numeric and bool tensors,
 *                        rank at most 8; no strings, no views
 *   DNN_VM_AICPU         the same plus string tensors (the TensorFlow-style
 *                        library is where string ops live)
 *
 * Views (Reshape, Squeeze, Unsqueeze, Flatten, Identity) of non-string
 * tensors belong to GE local, which runs them without copying.
 *
 * Float32 Conv, MatMul, Gemm, LSTM, GRU and RNN take AI Core's kernels
 * (which check their shapes at run time), so an unknown rank at placement
 * does not keep them on the reference.
 *
 * Define GE_AI_CPU_IMPLEMENTATION (or GE_IMPLEMENTATION) in one translation
 * unit; ai_core.h's implementation is needed too. */
#ifndef GE_ENGINE_AI_CPU_H
#define GE_ENGINE_AI_CPU_H

#include "ge_graph.h"
#include "host_cpu.h"
#include "ai_core.h"
#include "dsa.h"
#include "vector.h"
#include "quant_kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

GE_API const ge_engine *ge_ai_cpu_ascend_engine(void);
GE_API const ge_engine *ge_ai_cpu_engine(void);

#ifdef __cplusplus
}
#endif
#endif /* GE_ENGINE_AI_CPU_H */

#if defined(GE_IMPLEMENTATION) || defined(GE_AI_CPU_IMPLEMENTATION)
#ifndef GE_AI_CPU_IMPLEMENTATION_DONE
#define GE_AI_CPU_IMPLEMENTATION_DONE

#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GE__AICPU_MAX_RANK 8

static const char *const ge__aicpu_views[] = {"Flatten", "Identity", "Reshape", "Squeeze", "Unsqueeze"};

/* Refuses a tensor the library cannot hold; 1 when fine. */
static int ge__aicpu_tensor_ok(const ge_tensor_desc *t, int strings, const char *what, uint32_t i, char *why,
                               size_t cap) {
  if (!t) return 1;
  if (t->dtype == GE_DTYPE_STRING && !strings)
    return ge_engine_why(why, cap, "string tensor at %s %u (string ops run on DNN_VM_AICPU)", what, (unsigned)i);
  if (t->shape.rank > GE__AICPU_MAX_RANK)
    return ge_engine_why(why, cap, "rank %d at %s %u exceeds %d", (int)t->shape.rank, what, (unsigned)i,
                         GE__AICPU_MAX_RANK);
  return 1;
}

static int ge__aicpu_supports(const ge_graph *g, const ge_node *n, int strings, char *why, size_t cap) {
  uint32_t i;
  int has_string = 0;
  if (!ge_node_in_onnx_domain(n)) return ge_engine_why(why, cap, "domain %s is not an AI CPU op library", n->domain);
  if (!ge_host_cpu_kernel(n) && !ge_dsa_kernel(n)) return ge_engine_why(why, cap, "no AI CPU kernel for op %s", n->op);
  for (i = 0; i < n->num_inputs; i++) {
    const ge_tensor_desc *t = ge_node_input_desc(g, n, i);
    if (!ge__aicpu_tensor_ok(t, strings, "input", i, why, cap)) return 0;
    has_string |= t && t->dtype == GE_DTYPE_STRING;
  }
  for (i = 0; i < n->num_outputs; i++) {
    if (!ge__aicpu_tensor_ok(&n->outputs[i], strings, "output", i, why, cap)) return 0;
    has_string |= n->outputs[i].dtype == GE_DTYPE_STRING;
  }
  if (!has_string && ge_op_in_sorted(n->op, ge__aicpu_views, sizeof ge__aicpu_views / sizeof *ge__aicpu_views))
    return ge_engine_why(why, cap, "view op %s runs on DNN_VM_GE_LOCAL without copying", n->op);
  return 1;
}

static int ge__aicpu_check_ascend(const ge_engine *e, const ge_graph *g, const ge_node *n, char *why, size_t cap) {
  (void)e;
  return ge__aicpu_supports(g, n, 0, why, cap);
}

static int ge__aicpu_check_tf(const ge_engine *e, const ge_graph *g, const ge_node *n, char *why, size_t cap) {
  (void)e;
  return ge__aicpu_supports(g, n, 1, why, cap);
}

/* The fast float32 kernel where there is one (Transpose, Resize, Upsample,
 * element-wise ops and reductions; AI Core's Conv, MatMul, Gemm, LSTM, GRU
 * and RNN, which land here when a rank is unknown at placement: every one
 * checks its run-time inputs and falls back to the reference off its
 * paths), else the reference. */
static ge_kernel_fn ge__aicpu_kernel(const ge_engine *e, const ge_node *n) {
  ge_kernel_fn k = ge_vector_fast_kernel(n);
  (void)e;
  if (!k) k = ge_half_fast_kernel(n);
  if (!k) k = ge_quant_fast_kernel(n); /* int8 / uint8 quantization and integer products */
  if (!k && (ge_rnn_op(n) || (ge_node_in_onnx_domain(n) && (!strcmp(n->op, "Conv") || !strcmp(n->op, "MatMul") ||
                                                             !strcmp(n->op, "Gemm")))))
    k = ge_ai_core_engine()->kernel(ge_ai_core_engine(), n);
  if (!k) k = ge_host_cpu_kernel(n);
  return k ? k : ge_dsa_kernel(n);
}

/* The kernels above with state to build at load: the vector engine's,
 * the integer products' and AI Core's (their engines' prepare). */
static ge_kernel_fn ge__aicpu_prepare(const ge_engine *e, const ge_node *n) {
  const ge_engine *aic = ge_ai_core_engine();
  ge_kernel_fn k = ge__aicpu_kernel(e, n);
  if (!k) return NULL;
  if (k == ge_vector_fast_kernel(n)) return ge_vector_fast_prepare(n);
  if (k == ge_quant_fast_kernel(n)) return ge_quant_fast_prepare(n);
  return k == aic->kernel(aic, n) ? aic->prepare(aic, n) : NULL;
}

static const ge_engine ge__aicpu_ascend_engine = {
    GE_ENGINE_ABI_VERSION, "DNN_VM_AICPU_ASCEND", "AiCpuAscend", 3, GE_RUNTIME_DEVICE, GE_ENGINE_ATTACH, NULL,
    ge__aicpu_check_ascend, ge__aicpu_kernel, NULL, NULL, NULL, NULL, ge__aicpu_prepare};

static const ge_engine ge__aicpu_tf_engine = {
    GE_ENGINE_ABI_VERSION, "DNN_VM_AICPU", "AiCpu", 4, GE_RUNTIME_DEVICE, GE_ENGINE_ATTACH, NULL,
    ge__aicpu_check_tf, ge__aicpu_kernel, NULL, NULL, NULL, NULL, ge__aicpu_prepare};

GE_API const ge_engine *ge_ai_cpu_ascend_engine(void) { return &ge__aicpu_ascend_engine; }
GE_API const ge_engine *ge_ai_cpu_engine(void) { return &ge__aicpu_tf_engine; }

#ifdef __cplusplus
}
#endif
#endif /* GE_AI_CPU_IMPLEMENTATION_DONE */
#endif /* GE_AI_CPU_IMPLEMENTATION */

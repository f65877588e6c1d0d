/* ge_engines/ai_core.h — AIcoreEngine (accelerator "AiCore"), cost 1.
 *
 * Part of ge. Ascend's AI Core runs dense float kernels (its cube unit does
 * matrix products) and, like Ascend's FE, the element-wise ops of the
 * vector unit too. Here it is a CPU engine with that op set and with fast
 * float32 kernels for the dense products (checked against the host CPU
 * reference kernels in tests/test_engine_ai_core.c and
 * tests/test_ai_core_fast.c):
 *
 *   Conv      2-D NCHW (1-D as H = 1), any kernel size: an implicit GEMM
 *             per group with weights packed once when they are Const. 3x3
 *             stride-1 undilated convs with >= 16 input and output channels
 *             and >= 32 2x2 output tiles run by Winograd F(2x2, 3x3): 16
 *             GEMMs on weights transformed once, 2.25x fewer multiplies
 *             (error within a few ulps of the sums) -- at AVX2 and AVX-512
 *             on maps of >= 24 4x4 tiles by F(4x4, 3x3): 36 GEMMs, 4x
 *             fewer multiplies (error ~1e-5 of the sums) --, unless they have < 64
 *             input channels and input channels x output pixels <= 51200
 *             (SqueezeNet's expand convs): the small-image direct conv
 *             below is faster there at AVX-512; with 16..32 output
 *             channels, >= 64 input channels and rows of >= 12 pixels
 *             (DenseNet's growth convs) at AVX-512 a direct conv with the
 *             output channels in vector lanes (32 channels x 14 pixels a
 *             register tile, the pixels' inputs broadcast, 16 input
 *             channels a pass over a row, input read in place: taps off
 *             the image skipped, edge pixels by one-pixel tiles),
 *             as are stems of >= 5x5 kernels on <= 4 input channels
 *             (strides <= 2);
 *             with >= 64 output
 *             channels, >= 64 input channels (more than the small-image
 *             path takes) and 5..64 tiles (7x7 and 14x14 maps) the 16
 *             products run transposed, tiles as rows and output channels
 *             as columns (on up to 2 threads: more unmeasured), the
             weights streamed by a kernel that prefetches the next chunk
             of them while it multiplies the current one. Convs with
             9..144 output pixels that Winograd and the small-image path
             do not take (strided 3x3 and 1x1 of the last stages), when
             pixel panels waste fewer lanes than 32-pixel columns (the implicit GEMM's junk columns counted), run
             transposed too: im2col^T packed per run as A, the weights
             prepacked as B, read once and streamed alike. With
 *             strides up to 4 (not 1x1 strided) the group's channels are
 *             copied once into zero-padded planes split by stride phase and
 *             the micro-kernels read each im2col row at a fixed offset of
 *             them (no im2col packing; a few junk columns per output row are
 *             computed and dropped); other convs pack im2col straight from
 *             the image into the GEMM's B panels; 1x1 stride-1 convs without
 *             pads (pointwise) read the image in place with their own
 *             register tiles (8 channels x 48 pixels on AVX-512, weights
 *             packed once in 8-row panels, the epilogue in registers, the
 *             pixels past the last whole vector -- 7x7 and 14x14 maps -- by
 *             a column kernel vectorised over channels, run with the last
 *             chunk of vectors when chunks are outermost; pixel chunks
 *             outermost when narrowing or when the image passes 1 MB,
 *             else weight panels; SiLU in the registers at AVX-512); depthwise (one input channel
 *             per group, several groups or one output channel; a group-1
 *             conv of one input channel stays a GEMM) as a direct kernel: per
 *             channel, bands of output rows whose padded input rows, split
 *             by stride phase, fit in L1, so every tap of an output vector
 *             is one contiguous run (any stride and dilation); the taps sum
 *             in registers, eight vectors at a time, with bias, residual and
 *             activation applied there and one store into y (3x3 stride 1
 *             at AVX-512: four or eight output rows a step, each input
 *             vector loaded once for the rows reading it; 5x5 stride 1
 *             on rows of at most 16 likewise, four rows a step; SiLU in
 *             the registers too at AVX-512; past 64 taps a row kernel; 3x3 on small strided or narrow maps at AVX-512,
 *             16 channels transposed into a pixel-major block, the taps
 *             over 16 lanes of channels, transposed back); small images
 *             (9..2560 output pixels, or any size with <= 16 output
 *             channels per group; not
 *             1x1, K <= 1152, or up to 2048 where only the implicit
 *             GEMM is left: Inception's 1x7 and 5x5) whose output is as wide as the input at
 *             stride 1, or whose input split by stride phase (strides <= 4)
 *             is no wider than the output, on AVX-512 as a direct conv:
 *             12 x 32 (or 8 x 32 for few output channels) register tiles
 *             read each tap as a shifted run of the
 *             flattened image (or of its phase planes) with the padding
 *             lanes masked off (no junk columns, no per-row epilogue);
 *             a few output pixels per image (<= 8, the
 *             short frames of streaming models) as dot products of weight
 *             rows with a transposed im2col (weights read in place);
 *             strides, dilations, pads, auto_pad, bias. Dilated convs
 *             whose taps read padding for most output pixels (atrous
 *             convs on small maps) run a GEMM per tap over just the
 *             output rectangle it reads inside the image.
 *             3-D (NCDHW): convs that are 3x3 stride-1 undilated in H and
 *             W with enough channels by Winograd F(2x2, 3x3) over H and W,
 *             the depth taps summed inside its products (any depth kernel,
 *             stride, dilation, pads); others as a GEMM whose vol2col
 *             panels are packed straight from the volume (section "3-D
 *             Conv"). Non-float32 convs run the host CPU reference kernel.
 *   ConvTranspose  1-D and 2-D float32: per image and group a GEMM
 *             W_g^T x_g (weights packed once when Const) into columns, then
 *             col2im with the bias and activation, output channels over
 *             threads; groups, strides, dilations, pads, output_padding,
 *             output_shape, auto_pad as the host reference kernel.
 *   MatMul    numpy semantics: batched, broadcast batch dims, 1-D operands.
 *   Gemm      transA/transB, alpha, beta, C broadcast to [M, N].
 *   MatMul and Gemm pack a Const B once (one row of A too). A weight is
 *             Const when its producer is, in this graph or, through a
 *             branch's parent_index Data, in an enclosing one
 *             (ge_graph_input_origin): If/Loop bodies pack once too.
 *   LSTM, GRU, RNN  rnn_kernels.h (one SGEMM for the input projection of all
 *             steps, then a GEMV per step against R packed once).
 *
 * The SGEMM is ours: cache-blocked (KC x NC panels of B, MC x KC blocks of
 * A, both packed, or prepacked once) around register micro-kernels written
 * with GCC/Clang vector types and picked at run time with
 * __builtin_cpu_supports and target attributes (no -march needed):
 * AVX-512 12 x 32, AVX2+FMA 6 x 16, baseline SSE2 6 x 8 on x86-64; other
 * compilers get a scalar micro-kernel. Skinny products skip the tile: 1-4
 * rows of A stream against B's panels, and 1-8 columns of B against A's
 * row panels (a vector per panel column). The bias, a fused residual and the
 * activation are applied in the GEMM's epilogue, on each strip of C while
 * it is in L1 (Relu, Clip, LeakyRelu, HardSigmoid and HardSwish as vector
 * code). Heavy kernels split their work (GEMM columns or rows, depthwise
 * and col2im channels) with ge_kernel_parallel_for over the executor's
 * threads (serially without a pool); depthwise, pointwise and the dense
 * products (GEMM, implicit, Winograd, small-image and transposed convs, when
 * an op has >= 4 MFLOP a share) in several shares a thread, claimed as
 * threads come free (the convs' shares guided: shrinking from both ends
 * toward the middle, as the caller claims from the front and the workers
 * from the back, so the threads finish together), scratch one buffer a thread claimed by the
 * running share; a few rows against >= 1 MB of packed weights (an fc layer)
 * split over threads too. With GE_USE_OPENBLAS, MatMul and Gemm
 * on non-constant operands call cblas_sgemm (link -lopenblas); Conv and
 * ge_ai_core_sgemm stay ours. Packed weights and scratch live in the
 * kernel's c->state, grown once and reused, so a static graph allocates
 * nothing per run; parsed attributes are cached there too.
 *
 * Fused activations: Conv, Gemm and MatMul honour the node attributes
 * _fused_activation (string: Relu, LeakyRelu, Clip, Sigmoid, Tanh,
 * HardSigmoid, HardSwish, Silu = x Sigmoid(x), Gelu, GeluTanh = Gelu with
 * approximate "tanh"), _fused_alpha and _fused_beta (LeakyRelu alpha;
 * Clip min and max; HardSigmoid and HardSwish alpha and beta; ONNX defaults
 * when absent). A fused residual: a Conv with _fused_inputs = 1 adds its
 * input 3 (float32, shaped like the output; input 2, the bias, may be
 * absent) before the activation; this goes beyond ONNX's Conv schema, so
 * ge_graph_validate rejects such a node (only this engine's optimiser makes
 * them, after validation). The optimiser (engine optimize_subgraph, over
 * nodes with engine == self) does, in order:
 *   0. ge_vector_fuse_chains (vector.h): Mul+Add by constants into an
 *      inference BatchNormalization, decomposed HardSwish into HardSwish;
 *   1. Conv or Gemm whose only consumer is an inference BatchNormalization
 *      (one output, Const scale/B/mean/var) with Const weights (and bias):
 *      the BN folds into new Const weights and bias; the BN goes.
 *   2. Add(Conv, other) where the Conv (1-D, 2-D or 3-D, float32, no fused
 *      activation yet) has the Add as its only consumer and other has the
 *      sum's shape (equal dims; unknown ones only under the same symbol):
 *      other becomes the Conv's residual input; the Add goes. Add(MatMul,
 *      Const bias along the last dim) where the MatMul's B is a Const
 *      matrix and the Add its only consumer: the bias becomes the MatMul's
 *      input 2 (_fused_inputs = 1), added in its GEMM epilogue.
 *   3. Relu, LeakyRelu, Clip (Const or absent min/max), Sigmoid, Tanh,
 *      HardSigmoid, HardSwish or Gelu (ConvNeXt's and transformers' MLPs,
 *      applied while the GEMM's tile is in cache) whose producer is a Conv/Gemm/MatMul of this
 *      engine with no other consumer: becomes the producer's fused
 *      activation (so Conv -> Add -> Relu ends as one Conv); a Relu after
 *      an inference BatchNormalization (that the vector kernel runs) too; SiLU written
 *      as Mul(x, Sigmoid(x)) of such a producer read by just the two (the
 *      YOLO convs) becomes its fused activation Silu;
 *   4. an inference BatchNormalization (Const parameters; its fused
 *      activation Relu or none) read only by a 1x1 Conv (strides 1, no
 *      pads): the BN becomes the Conv's input prologue, the attributes
 *      _pre_affine (float32 tensor [2, C]: scale, then shift per input
 *      channel) and _pre_activation ("Relu" or absent); the BN goes. The
 *      pointwise kernel runs it on each chunk of the input in the chunk's
 *      first tile and keeps the result for the other panels (DenseNet's
 *      pre-activation BN + ReLU never goes to memory); any other path runs
 *      it on a copy of the input.
 *   5. an AveragePool that keeps the map's size read only by a 1x1 Conv
 *      (group 1, no residual or prologue, Relu or no activation) with
 *      fewer output than input channels: the Conv moves before the pool
 *      (both linear, they commute), so the pool averages the fewer
 *      channels (Inception's pool branches: 288 -> 64, 2048 -> 192); the
 *      pool ends with the Conv's bias (input 1, _fused_inputs = 1) and its
 *      Relu (_fused_activation), which the vector kernel applies per plane.
 *   6. a 1x1 Conv (group 1, no residual or activation) read only by an
 *      AveragePool that at least halves the pixels: the pool moves before
 *      the Conv, which then multiplies over its fewer pixels (DenseNet's
 *      transitions, 2x2 stride 2: a quarter); the Conv's prologue moves
 *      to the pool (_pre_affine, _pre_activation), which runs it per plane
 *      into a stack buffer before averaging. A bias stays on the Conv (no
 *      move where pads counted in would scale it).
 * All only when every tensor involved is float32, shapes agree, and the
 * removed node has no control edges. New Const nodes get engine -1 (the
 * placer places them again); Consts left without consumers are removed.
 * Before placement, its optimize_original runs float16 regions in float32
 * (ge_half_promote, half_kernels.h), so float16 models reach these paths,
 * then folds a Pad of zeros over the spatial dims into the AveragePool
 * (count_include_pad) or Conv that alone reads it.
 *
 * Support rules (ge_ai_core_supports): element-wise ops follow
 * ge_vector_supports (vector.h). Dense ops (ge_ai_core_op lists them): ONNX
 * domain; every input and output float32 or float16 (MaxPool's indices
 * int64), known rank <= 8; Conv, ConvTranspose and the windowed pools have
 * 1..3 spatial dims, kernel dims >= 1 (any size on the CPU; kernel_shape
 * must match the weight's dims), strides
 * and dilations >= 1, pads >= 0, a known auto_pad, and a group that divides
 * the channels where they are known; BatchNormalization only in inference
 * (one output, training_mode 0); MatMul operands of rank >= 1, Gemm's A and
 * B of rank 2.
 *
 * Include after (or instead of) ge_graph.h; define GE_AI_CORE_IMPLEMENTATION
 * (or GE_IMPLEMENTATION) in one translation unit; the implementations of
 * ge_graph.h, host_cpu.h, vector.h and rnn_kernels.h must be compiled
 * somewhere too.
 * Thread safety: the descriptor and the support check are read-only;
 * kernels keep their state in their context (one context per thread); the
 * shares a kernel hands to ge_kernel_parallel_for write disjoint outputs
 * and scratch.
 */
#ifndef GE_ENGINE_AI_CORE_H
#define GE_ENGINE_AI_CORE_H

#include "ge_graph.h"
#include "host_cpu.h"
#include "rnn_kernels.h"
#include "vector.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The AIcoreEngine descriptor (static storage). */
GE_API const ge_engine *ge_ai_core_engine(void);
/* 1 when AI Core runs node n of g; else 0 with the reason in why[0..cap)
 * (why may be NULL: then nothing is formatted). */
GE_API int ge_ai_core_supports(const ge_graph *g, const ge_node *n, char *why, size_t cap);
/* The dense op set (besides the vector set), sorted by strcmp: NULL past
 * the end. */
GE_API const char *ge_ai_core_op(uint32_t i);
/* Applies n's fused activation (_fused_activation, _fused_alpha,
 * _fused_beta) to y[0..count) in place; no-op without the attribute. */
GE_API void ge_ai_core_apply_activation(const ge_node *n, float *y, int64_t count);

/* C = alpha op(A) op(B) + beta C, row-major float32, BLAS semantics (C is
 * not read when beta is 0): op(A) is M x K (A is K x M when trans_a), op(B)
 * is K x N; lda, ldb, ldc are row strides. work needs
 * ge_ai_core_sgemm_work_size(M, N, K) bytes (any alignment). Always the
 * engine's own packed SGEMM (best micro-kernel of this CPU), on the calling
 * thread, even with GE_USE_OPENBLAS. */
GE_API void ge_ai_core_sgemm(int trans_a, int trans_b, int64_t M, int64_t N, int64_t K, float alpha, const float *A,
                             int64_t lda, const float *B, int64_t ldb, float beta, float *C, int64_t ldc, void *work);
GE_API size_t ge_ai_core_sgemm_work_size(int64_t M, int64_t N, int64_t K);

#ifdef __cplusplus
}
#endif
#endif /* GE_ENGINE_AI_CORE_H */

#if defined(GE_IMPLEMENTATION) || defined(GE_AI_CORE_IMPLEMENTATION)
#ifndef GE_AI_CORE_IMPLEMENTATION_DONE
#define GE_AI_CORE_IMPLEMENTATION_DONE

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef GE_USE_OPENBLAS
#include <cblas.h>
#endif
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
#include <immintrin.h> /* masked loads and stores of the small-image conv */
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------- op set */

/* Sorted by strcmp (a test checks it). */
static const char *const ge__aic_ops[] = {
    "AveragePool",        "BatchNormalization", "Conv",          "ConvTranspose",      "Einsum",
    "GRU",                "Gemm",               "GlobalAveragePool",  "GlobalLpPool",  "GlobalMaxPool",
    "GroupNormalization", "Hardmax",            "InstanceNormalization", "LRN",          "LSTM",
    "LayerNormalization", "LogSoftmax",         "LpNormalization",       "LpPool",
    "MatMul",             "MaxPool",            "MeanVarianceNormalization", "RNN",   "Softmax"};
#define GE__AIC_NUM_OPS (sizeof ge__aic_ops / sizeof ge__aic_ops[0])
#define GE__AIC_MAX_RANK 8

GE_API const char *ge_ai_core_op(uint32_t i) { return i < GE__AIC_NUM_OPS ? ge__aic_ops[i] : NULL; }

/* ------------------------------------------------------ support check */

static int ge__aic_dtype_ok(const ge_node *n, const ge_tensor_desc *d, int is_out, uint32_t i, char *why, size_t cap) {
  const char *what = is_out ? "output" : "input";
  if (d->shape.rank == GE_RANK_UNKNOWN || d->shape.rank < 0) {
    if (why) ge_engine_why(why, cap, "rank of %s %u unknown", what, (unsigned)i);
    return 0;
  }
  if (d->shape.rank > GE__AIC_MAX_RANK) {
    if (why) ge_engine_why(why, cap, "rank %d of %s %u exceeds %d", (int)d->shape.rank, what, (unsigned)i,
                           GE__AIC_MAX_RANK);
    return 0;
  }
  if (d->dtype == GE_DTYPE_FLOAT32 || d->dtype == GE_DTYPE_FLOAT16) return 1;
  if (is_out && i == 1 && d->dtype == GE_DTYPE_INT64 && strcmp(n->op, "MaxPool") == 0) return 1;
  if (why) ge_engine_why(why, cap, "dtype %s of %s %u not supported (float32, float16)", ge_dtype_name(d->dtype), what,
                         (unsigned)i);
  return 0;
}

/* An ints attribute of a windowed op: count (when present) must be want,
 * each value >= lo and <= hi (hi < 0: no upper limit). */
static int ge__aic_ints_ok(const ge_node *n, const char *name, int32_t want, int64_t lo, int64_t hi, const char *noun,
                           char *why, size_t cap) {
  const int64_t *v = NULL;
  int32_t cnt = ge_node_attr_ints(n, name, &v), i;
  if (cnt < 0) return 1;
  if (cnt != want) {
    if (why) ge_engine_why(why, cap, "%s has %d values for %d spatial dims", name, (int)cnt, (int)(want > 0 ? want : 0));
    return 0;
  }
  for (i = 0; i < cnt; i++) {
    if (v[i] < lo) {
      if (why) ge_engine_why(why, cap, "%s %lld must be >= %lld", noun, (long long)v[i], (long long)lo);
      return 0;
    }
    if (hi >= 0 && v[i] > hi) {
      if (why) ge_engine_why(why, cap, "%s %lld exceeds %lld", noun, (long long)v[i], (long long)hi);
      return 0;
    }
  }
  return 1;
}

/* Conv, ConvTranspose and the windowed pools. */
static int ge__aic_window_ok(const ge_graph *g, const ge_node *n, int conv, char *why, size_t cap) {
  const ge_tensor_desc *x = ge_node_input_desc(g, n, 0), *w = conv ? ge_node_input_desc(g, n, 1) : NULL;
  const char *ap = ge_node_attr_string(n, "auto_pad", "NOTSET");
  int32_t r, i;
  int64_t group = conv ? ge_node_attr_int(n, "group", 1) : 1;
  if (!x) {
    if (why) ge_engine_why(why, cap, "input 0 missing");
    return 0;
  }
  r = x->shape.rank - 2;
  if (r < 1 || r > 3) {
    if (why) ge_engine_why(why, cap, "spatial rank %d not supported (1..3)", (int)r);
    return 0;
  }
  if (!ge__aic_ints_ok(n, "kernel_shape", r, 1, -1, "kernel dim", why, cap) ||
      !ge__aic_ints_ok(n, "strides", r, 1, -1, "stride", why, cap) ||
      !ge__aic_ints_ok(n, "dilations", r, 1, -1, "dilation", why, cap) ||
      !ge__aic_ints_ok(n, "pads", 2 * r, 0, -1, "pad", why, cap))
    return 0;
  if (!conv && !ge_node_attr(n, "kernel_shape")) {
    if (why) ge_engine_why(why, cap, "kernel_shape missing");
    return 0;
  }
  if (*ap && strcmp(ap, "NOTSET") && strcmp(ap, "SAME_UPPER") && strcmp(ap, "SAME_LOWER") && strcmp(ap, "VALID")) {
    if (why) ge_engine_why(why, cap, "auto_pad %s unknown", ap);
    return 0;
  }
  if (w && w->shape.rank == x->shape.rank) {
    const int64_t *ks = NULL;
    int32_t nks = ge_node_attr_ints(n, "kernel_shape", &ks);
    for (i = 0; i < r; i++) {
      int64_t k = w->shape.dims[2 + i];
      if (k == 0) {
        if (why) ge_engine_why(why, cap, "kernel dim %d of the weight is 0", (int)i);
        return 0;
      }
      if (k > 0 && nks == r && ks[i] != k) {
        if (why) ge_engine_why(why, cap, "kernel_shape %lld differs from the weight's kernel dim %lld", (long long)ks[i],
                               (long long)k);
        return 0;
      }
    }
  }
  if (conv) {
    int64_t c = x->shape.dims[1], m = w && w->shape.rank >= 2 ? w->shape.dims[0] : -1;
    if (group < 1) {
      if (why) ge_engine_why(why, cap, "group %lld must be >= 1", (long long)group);
      return 0;
    }
    if (c > 0 && c % group) {
      if (why) ge_engine_why(why, cap, "group %lld does not divide %lld input channels", (long long)group, (long long)c);
      return 0;
    }
    if (strcmp(n->op, "Conv") == 0 && m > 0 && m % group) {
      if (why) ge_engine_why(why, cap, "group %lld does not divide %lld output channels", (long long)group,
                             (long long)m);
      return 0;
    }
  }
  return 1;
}

GE_API int ge_ai_core_supports(const ge_graph *g, const ge_node *n, char *why, size_t cap) {
  const char *op = n->op;
  uint32_t i;
  if (!ge_node_in_onnx_domain(n)) {
    if (why) ge_engine_why(why, cap, "op domain %s not supported (ONNX only)", n->domain);
    return 0;
  }
  if (!ge_op_in_sorted(op, ge__aic_ops, GE__AIC_NUM_OPS)) {
    if (ge_vector_supports(g, n, why, cap)) return 1;
    if (why && cap && strstr(why, "not in the vector op set")) ge_engine_why(why, cap, "op %s not in the AI Core op set", op);
    return 0;
  }
  for (i = 0; i < n->num_inputs; i++) {
    const ge_tensor_desc *d = ge_node_input_desc(g, n, i);
    if (d && i == 4 && ge_rnn_op(n) && (d->dtype == GE_DTYPE_INT32 || d->dtype == GE_DTYPE_INT64))
      continue; /* sequence_lens of LSTM, GRU, RNN */
    if (d && !ge__aic_dtype_ok(n, d, 0, i, why, cap)) return 0;
  }
  for (i = 0; i < n->num_outputs; i++)
    if (!ge__aic_dtype_ok(n, &n->outputs[i], 1, i, why, cap)) return 0;
  switch (op[0]) {
  case 'A': return ge__aic_window_ok(g, n, 0, why, cap); /* AveragePool */
  case 'B':                                              /* BatchNormalization */
    if (n->num_outputs != 1 || ge_node_attr_int(n, "training_mode", 0) != 0) {
      if (why) ge_engine_why(why, cap, "BatchNormalization in training mode (%u outputs) not supported",
                             (unsigned)n->num_outputs);
      return 0;
    }
    return 1;
  case 'C': return ge__aic_window_ok(g, n, 1, why, cap); /* Conv, ConvTranspose */
  case 'L':
    if (strcmp(op, "LpPool") == 0) return ge__aic_window_ok(g, n, 0, why, cap);
    return 1;
  case 'M':
    if (strcmp(op, "MaxPool") == 0) return ge__aic_window_ok(g, n, 0, why, cap);
    if (strcmp(op, "MatMul") == 0)
      for (i = 0; i < 2 && i < n->num_inputs; i++) {
        const ge_tensor_desc *d = ge_node_input_desc(g, n, i);
        if (d && d->shape.rank < 1) {
          if (why) ge_engine_why(why, cap, "MatMul operand %u is a scalar", (unsigned)i);
          return 0;
        }
      }
    return 1;
  case 'G':
    if (strcmp(op, "Gemm") == 0)
      for (i = 0; i < 2 && i < n->num_inputs; i++) {
        const ge_tensor_desc *d = ge_node_input_desc(g, n, i);
        if (d && d->shape.rank != 2) {
          if (why) ge_engine_why(why, cap, "Gemm operand %u has rank %d (needs 2)", (unsigned)i, (int)d->shape.rank);
          return 0;
        }
      }
    if (strncmp(op, "Global", 6) == 0) {
      const ge_tensor_desc *x = ge_node_input_desc(g, n, 0);
      if (x && (x->shape.rank < 3 || x->shape.rank > 5)) {
        if (why) ge_engine_why(why, cap, "spatial rank %d not supported (1..3)", (int)x->shape.rank - 2);
        return 0;
      }
    }
    return 1;
  default: return 1;
  }
}

/* ------------------------------------------------ fused activations */

enum { GE__AIC_ACT_NONE, GE__AIC_ACT_RELU, GE__AIC_ACT_LEAKY, GE__AIC_ACT_CLIP, GE__AIC_ACT_SIGMOID,
       GE__AIC_ACT_TANH, GE__AIC_ACT_HARDSIGMOID, GE__AIC_ACT_HARDSWISH, GE__AIC_ACT_SILU, GE__AIC_ACT_GELU,
       GE__AIC_ACT_GELU_TANH, GE__AIC_ACT_BAD };

/* Activations the register epilogues leave to ge__aic_act_apply after the
 * store (they need exp or erf). */
static int ge__aic_act_late(int kind) {
  return kind == GE__AIC_ACT_SIGMOID || kind == GE__AIC_ACT_TANH || kind >= GE__AIC_ACT_SILU;
}

typedef struct ge__aic_act {
  int kind;
  float alpha, beta;
} ge__aic_act;

static void ge__aic_act_parse(const ge_node *n, ge__aic_act *a) {
  const char *s = ge_node_attr_string(n, "_fused_activation", NULL);
  double da = 0, db = 0;
  a->kind = GE__AIC_ACT_NONE;
  a->alpha = a->beta = 0.0f;
  if (!s || !*s) return;
  if (!strcmp(s, "Relu")) a->kind = GE__AIC_ACT_RELU;
  else if (!strcmp(s, "LeakyRelu")) a->kind = GE__AIC_ACT_LEAKY, da = 0.01;
  else if (!strcmp(s, "Clip")) a->kind = GE__AIC_ACT_CLIP, da = -HUGE_VAL, db = HUGE_VAL;
  else if (!strcmp(s, "Sigmoid")) a->kind = GE__AIC_ACT_SIGMOID;
  else if (!strcmp(s, "Tanh")) a->kind = GE__AIC_ACT_TANH;
  else if (!strcmp(s, "HardSigmoid")) a->kind = GE__AIC_ACT_HARDSIGMOID, da = 0.2, db = 0.5;
  else if (!strcmp(s, "HardSwish")) a->kind = GE__AIC_ACT_HARDSWISH, da = 1.0 / 6.0, db = 0.5;
  else if (!strcmp(s, "Silu")) a->kind = GE__AIC_ACT_SILU;
  else if (!strcmp(s, "Gelu")) a->kind = GE__AIC_ACT_GELU;
  else if (!strcmp(s, "GeluTanh")) a->kind = GE__AIC_ACT_GELU_TANH;
  else a->kind = GE__AIC_ACT_BAD;
  a->alpha = (float)ge_node_attr_float(n, "_fused_alpha", da);
  a->beta = (float)ge_node_attr_float(n, "_fused_beta", db);
}

static void ge__aic_act_apply(const ge__aic_act *a, float *y, int64_t count) {
  static const int vec[] = {0, GE_VECTOR_ACT_RELU, GE_VECTOR_ACT_LEAKYRELU, GE_VECTOR_ACT_CLIP, GE_VECTOR_ACT_SIGMOID,
                            GE_VECTOR_ACT_TANH, GE_VECTOR_ACT_HARDSIGMOID, GE_VECTOR_ACT_HARDSWISH, GE_VECTOR_ACT_SILU,
                            GE_VECTOR_ACT_GELU, GE_VECTOR_ACT_GELU_TANH, 0};
  int64_t i;
  float al = a->alpha, be = a->beta;
  if (a->kind > GE__AIC_ACT_NONE && a->kind < GE__AIC_ACT_BAD && ge_vector_activation(vec[a->kind], al, be, y, count))
    return; /* vectorised (vector_kernels.h) */
  switch (a->kind) {
  case GE__AIC_ACT_RELU:
    for (i = 0; i < count; i++) y[i] = y[i] > 0.0f ? y[i] : (y[i] != y[i] ? y[i] : 0.0f);
    break;
  case GE__AIC_ACT_LEAKY:
    for (i = 0; i < count; i++) y[i] = y[i] < 0.0f ? al * y[i] : y[i];
    break;
  case GE__AIC_ACT_CLIP:
    for (i = 0; i < count; i++) y[i] = y[i] < al ? al : y[i] > be ? be : y[i];
    break;
  case GE__AIC_ACT_SIGMOID:
    for (i = 0; i < count; i++) y[i] = (float)(1.0 / (1.0 + exp(-(double)y[i])));
    break;
  case GE__AIC_ACT_TANH:
    for (i = 0; i < count; i++) y[i] = (float)tanh((double)y[i]);
    break;
  case GE__AIC_ACT_SILU: /* as Mul(y, Sigmoid(y)): the sigmoid rounded to float first */
    for (i = 0; i < count; i++) y[i] *= (float)(1.0 / (1.0 + exp(-(double)y[i])));
    break;
  case GE__AIC_ACT_HARDSIGMOID:
    for (i = 0; i < count; i++) {
      float v = al * y[i] + be;
      y[i] = v > 1.0f ? 1.0f : v < 0.0f ? 0.0f : v;
    }
    break;
  case GE__AIC_ACT_HARDSWISH:
    for (i = 0; i < count; i++) {
      float v = al * y[i] + be;
      y[i] *= v > 1.0f ? 1.0f : v < 0.0f ? 0.0f : v;
    }
    break;
  case GE__AIC_ACT_GELU:
    for (i = 0; i < count; i++) y[i] = (float)(0.5 * y[i] * (1.0 + erf(y[i] * 0.70710678118654752)));
    break;
  case GE__AIC_ACT_GELU_TANH:
    for (i = 0; i < count; i++) {
      double x = y[i];
      y[i] = (float)(0.5 * x * (1.0 + tanh(0.79788456080286536 * (x + 0.044715 * x * x * x))));
    }
    break;
  default: break;
  }
}

GE_API void ge_ai_core_apply_activation(const ge_node *n, float *y, int64_t count) {
  ge__aic_act a;
  ge__aic_act_parse(n, &a);
  ge__aic_act_apply(&a, y, count);
}

/* ------------------------------------------------------------- SGEMM
 *
 * Goto/BLIS blocking: for each NC-wide column block of B and KC-deep slice,
 * pack B into NR-wide panels; for each MC-tall row block of A, pack A
 * (times alpha) into MR-tall panels; a micro-kernel computes each MR x NR
 * tile of C over the KC slice in registers. The row panel of A stays in L1
 * while the column panels of B stream from L2. Packing zero-pads partial
 * panels, so the micro-kernel always runs full tiles; the tile update
 * writes only the valid part. After the last K slice the epilogue (bias,
 * residual, activation) runs on each MR-row strip of C while it is in L1.
 *
 * Three micro-kernels, picked at run time: AVX-512 12 x 32, AVX2+FMA 6 x 16
 * and baseline 6 x 8 (SSE2 on x86-64). Either operand may come prepacked
 * (constant weights, packed once per kernel), and B may be the im2col of
 * a convolution's input, packed straight from the image. */

#define GE__AIC_KC 256
#define GE__AIC_MC 144 /* multiple of every MR */
#define GE__AIC_NC 512 /* multiple of every NR */
#define GE__AIC_MAX_TILE (12 * 32)

#if defined(__GNUC__) || defined(__clang__)
#define GE__AIC_VEC 1
typedef float ge__aic_v4 __attribute__((vector_size(16), may_alias));
#if defined(__x86_64__) || defined(__i386__)
#define GE__AIC_X86 1
typedef float ge__aic_v8 __attribute__((vector_size(32), may_alias));
typedef float ge__aic_v16 __attribute__((vector_size(64), may_alias));
#endif
#define GE__AIC_ALIGNED(n) __attribute__((aligned(n)))
#else
#define GE__AIC_ALIGNED(n)
#endif

/* gcc keeps a*b+c unfused under -std=c99 (-ffp-contract=off); the FMA
 * kernels ask for contraction explicitly. */
#if defined(__GNUC__) && !defined(__clang__)
#define GE__AIC_CONTRACT __attribute__((optimize("fp-contract=fast")))
#else
#define GE__AIC_CONTRACT
#endif

static int64_t ge__aic_min(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t ge__aic_max(int64_t a, int64_t b) { return a > b ? a : b; }
static int64_t ge__aic_round_up(int64_t a, int64_t b) { return (a + b - 1) / b * b; }
/* The depth of K slices: at most KC, K split evenly (no thin last slice). */
static int64_t ge__aic_kc(int64_t K) {
  int64_t n = (K + GE__AIC_KC - 1) / GE__AIC_KC;
  return n > 1 ? (K + n - 1) / n : K;
}

/* 2-D convolution geometry of one group (1-D: H = kh = 1). */
typedef struct ge__aic_cv {
  int64_t n, c, h, w, m, group, cg, mg, kh, kw, sh, sw, dh, dw, ph, pw, oh, ow;
  int64_t z, kz, sz, dz, pz, oz; /* depth of a 3-D conv (1, 0 for 1-D and 2-D) */
} ge__aic_cv;

/* What a finished tile of C gets while it is in cache: + row_bias[row],
 * + res[row * ldr + col], then the activation (rows and cols global). */
typedef struct ge__aic_epi {
  const float *row_bias;
  const float *res;
  int64_t ldr;
  ge__aic_act act;
  int level; /* the vector code to use (ge__aic_kern.level) */
} ge__aic_epi;

static int ge__aic_epi_empty(const ge__aic_epi *e) {
  return !e || (!e->row_bias && !e->res && e->act.kind == GE__AIC_ACT_NONE);
}

/* SiLU in AVX-512 register epilogues (ge_vector_silu_v16, vector_kernels.h:
 * the bits of the activation pass it replaces): the depthwise and pointwise
 * kernels and the epilogue rows apply it to a vector before its one store,
 * where a pass over the rows after the store cost as much as the conv on
 * 7x7 and 14x14 maps (a call per short row) and a second pass over a GEMM
 * strip elsewhere. LATE hooks of the
 * kernels' macros: GE__AIC_SILU_V16 where the kernel's flag silu_ is set. */
#if defined(GE__AIC_X86) && defined(GE_VECTOR_SILU_V16)
#define GE__AIC_SILU_REGS 1
#define GE__AIC_SILU_V16(v)                                                                                            \
  if (silu_) v = (__typeof__(v))ge_vector_silu_v16((__m512)v);
#define GE__AIC_SILU_V8(v) /* 8 lanes (the pointwise column kernel's): the upper half is dropped */                  \
  if (silu_) v = (__typeof__(v))_mm512_castps512_ps256(ge_vector_silu_v16(_mm512_castps256_ps512((__m256)v)));
#else
#define GE__AIC_SILU_V16(v)
#define GE__AIC_SILU_V8(v)
#endif
#define GE__AIC_NO_LATE(v)

/* Whether the register epilogues at this level apply act (the vector forms
 * of ge__aic_act_late's complement, and SiLU at AVX-512). */
static int ge__aic_act_in_regs(const ge__aic_act *a, int level) {
#ifdef GE__AIC_SILU_REGS
  if (a->kind == GE__AIC_ACT_SILU && level >= 2) return 1;
#endif
  (void)level;
#ifdef GE__AIC_VEC
  return !ge__aic_act_late(a->kind);
#else
  return a->kind == GE__AIC_ACT_NONE;
#endif
}

/* r[0..n) = act(r + bias + res) (res may be NULL) for the activations
 * with a vector form (none, Relu, Clip, LeakyRelu, HardSigmoid, HardSwish:
 * kind; lo and hi are the activation's alpha and beta), per target, with
 * the scalar code's roundings (no contraction). Comparisons make lane
 * masks; NaN keeps flowing like in ge__aic_act_apply. */
#define GE__AIC_SEL(VI, v, m, r)                                                                                       \
  {                                                                                                                    \
    VI vi_, ri_;                                                                                                       \
    memcpy(&vi_, &v, sizeof vi_);                                                                                      \
    memcpy(&ri_, &r, sizeof ri_);                                                                                      \
    vi_ = (vi_ & ~(m)) | (ri_ & (m));                                                                                  \
    memcpy(&v, &vi_, sizeof v);                                                                                        \
  }
#define GE__AIC_EPI_VEC(VT, VI, v, q, at)                                                                              \
  {                                                                                                                    \
    VI m;                                                                                                              \
    v += vb;                                                                                                           \
    if (res) {                                                                                                         \
      memcpy(&q, at, sizeof q);                                                                                        \
      v += q;                                                                                                          \
    }                                                                                                                  \
    if (kind == GE__AIC_ACT_RELU || kind == GE__AIC_ACT_CLIP) {                                                        \
      m = v < vlo;                                                                                                     \
      GE__AIC_SEL(VI, v, m, vlo)                                                                                       \
      if (kind == GE__AIC_ACT_CLIP) {                                                                                  \
        m = v > vhi;                                                                                                   \
        GE__AIC_SEL(VI, v, m, vhi)                                                                                     \
      }                                                                                                                \
    } else if (kind == GE__AIC_ACT_LEAKY) {                                                                            \
      VT t_ = v * vlo;                                                                                                 \
      m = v < vz;                                                                                                      \
      GE__AIC_SEL(VI, v, m, t_)                                                                                        \
    } else if (kind != GE__AIC_ACT_NONE) { /* HardSigmoid, HardSwish */                                                \
      VT t_ = v * vlo;                                                                                                 \
      t_ += vhi;                                                                                                       \
      m = t_ > vone;                                                                                                   \
      GE__AIC_SEL(VI, t_, m, vone)                                                                                     \
      m = t_ < vz;                                                                                                     \
      GE__AIC_SEL(VI, t_, m, vz)                                                                                       \
      if (kind == GE__AIC_ACT_HARDSWISH) v *= t_;                                                                      \
      else v = t_;                                                                                                     \
    }                                                                                                                  \
  }
/* An AVX-512 vector's epilogue into the lanes of mask mk (a row's or a
 * tile's last < 16 floats): the residual's lanes from resp (read only when
 * res is set) by a masked load, the vector epilogue with SiLU in
 * registers, a masked store at dst; bias, res, kind and the silu_ flag in
 * scope as for GE__AIC_EPI_VEC. */
#define GE__AIC_EPI_MASKED_V16(v, mk, resp, dst)                                                                       \
  {                                                                                                                    \
    ge__aic_v16 rq_[1];                                                                                                \
    if (res) rq_[0] = (ge__aic_v16)_mm512_maskz_loadu_ps(mk, resp);                                                    \
    GE__AIC_EPI_VEC(ge__aic_v16, ge__aic_i16, v, q, rq_)                                                               \
    GE__AIC_SILU_V16(v)                                                                                                \
    _mm512_mask_storeu_ps(dst, mk, (__m512)(v));                                                                       \
  }
/* The last n - j < VL floats of a row through one full vector: copied in
 * and out of a zeroed buffer, or at AVX-512 by masked loads and stores (the
 * two copies of variable length cost a 111-pixel stem's 7104 rows a fifth
 * of the conv: 0.44 -> 0.35 ms). */
#define GE__AIC_EPI_COPIED(VT, VI, VL, LATE)                                                                           \
  {                                                                                                                    \
    float tv[VL] = {0}, tq[VL] = {0};                                                                                  \
    memcpy(tv, src + j, (size_t)(n - j) * sizeof(float));                                                             \
    if (res) memcpy(tq, res + j, (size_t)(n - j) * sizeof(float));                                                     \
    memcpy(&v, tv, sizeof v);                                                                                          \
    GE__AIC_EPI_VEC(VT, VI, v, q, tq)                                                                                  \
    LATE(v)                                                                                                            \
    memcpy(tv, &v, sizeof v);                                                                                          \
    memcpy(r + j, tv, (size_t)(n - j) * sizeof(float));                                                                \
  }
#define GE__AIC_EPI_MASKED(VT, VI, VL, LATE) /* AVX-512 only: its LATE is SiLU in registers */                     \
  {                                                                                                                    \
    const __mmask16 mk_ = (__mmask16)((1u << (n - j)) - 1u);                                                           \
    v = (VT)_mm512_maskz_loadu_ps(mk_, src + j);                                                                       \
    GE__AIC_EPI_MASKED_V16(v, mk_, res + j, r + j)                                                                     \
  }
#define GE__AIC_EPI_ROW(S, ATTR, VT, VI, VL, LATE, TAIL)                                                               \
  static ATTR void ge__aic_epi_row_##S(float *r, const float *src, int64_t n, float bias, const float *res, int kind, \
                                       float lo, float hi) {                                                           \
    VT vb = {0}, vlo = {0}, vhi = {0}, vz = {0}, vone = {0}, v, q;                                                     \
    int64_t j = 0;                                                                                                     \
    const int silu_ = kind == GE__AIC_ACT_SILU; /* kind SiLU: only where LATE applies it */                            \
    if (silu_) kind = GE__AIC_ACT_NONE;                                                                                \
    vb += bias;                                                                                                        \
    vlo += kind == GE__AIC_ACT_RELU ? 0.0f : lo;                                                                       \
    vhi += hi;                                                                                                         \
    vone += 1.0f;                                                                                                      \
    for (; j + (VL) <= n; j += (VL)) {                                                                                 \
      memcpy(&v, src + j, sizeof v);                                                                                   \
      GE__AIC_EPI_VEC(VT, VI, v, q, res + j)                                                                           \
      LATE(v)                                                                                                          \
      memcpy(r + j, &v, sizeof v);                                                                                     \
    }                                                                                                                  \
    if (j < n) TAIL(VT, VI, VL, LATE)                                                                                  \
    (void)silu_;                                                                                                       \
  }

#ifdef GE__AIC_VEC
typedef int32_t ge__aic_i4 __attribute__((vector_size(16), may_alias));
GE__AIC_EPI_ROW(base, , ge__aic_v4, ge__aic_i4, 4, GE__AIC_NO_LATE, GE__AIC_EPI_COPIED)
#ifdef GE__AIC_X86
typedef int32_t ge__aic_i8 __attribute__((vector_size(32), may_alias));
typedef int32_t ge__aic_i16 __attribute__((vector_size(64), may_alias));
GE__AIC_EPI_ROW(avx2, __attribute__((target("avx2"))), ge__aic_v8, ge__aic_i8, 8, GE__AIC_NO_LATE, GE__AIC_EPI_COPIED)
/* fma for ge_vector_silu_v16 (no contraction elsewhere: -std=c99 keeps it off) */
GE__AIC_EPI_ROW(avx512, __attribute__((target("avx512f,fma"))), ge__aic_v16, ge__aic_i16, 16, GE__AIC_SILU_V16,
                GE__AIC_EPI_MASKED)
#endif
#endif

/* One row of the epilogue: r = src + bias + res (may be NULL), then the
 * activation; src may be r, else a row apart from it (a GEMM's scratch
 * block: one pass writes r, instead of a copy and a second pass over it). */
static void ge__aic_epi_copy_row(const ge__aic_act *act, int level, float *r, const float *src, int64_t n, float bias,
                                 const float *res) {
  int64_t j;
#ifdef GE__AIC_VEC
  /* the sums in vector code (SiLU in them too at AVX-512: ge__aic_act_in_regs); an activation that needs exp or
   * erf after them */
  int late = !ge__aic_act_in_regs(act, level), kind = late ? GE__AIC_ACT_NONE : act->kind;
#ifdef GE__AIC_X86
  if (level >= 2) ge__aic_epi_row_avx512(r, src, n, bias, res, kind, act->alpha, act->beta);
  else if (level == 1) ge__aic_epi_row_avx2(r, src, n, bias, res, kind, act->alpha, act->beta);
  else
#endif
    ge__aic_epi_row_base(r, src, n, bias, res, kind, act->alpha, act->beta);
  if (late) ge__aic_act_apply(act, r, n);
  return;
#endif
  (void)level;
  if (src != r) memcpy(r, src, (size_t)n * sizeof(float));
  if (bias != 0.0f)
    for (j = 0; j < n; j++) r[j] += bias;
  if (res)
    for (j = 0; j < n; j++) r[j] += res[j];
  ge__aic_act_apply(act, r, n);
}
static void ge__aic_epi_row(const ge__aic_act *act, int level, float *r, int64_t n, float bias, const float *res) {
  ge__aic_epi_copy_row(act, level, r, r, n, bias, res);
}

static void ge__aic_epilogue(const ge__aic_epi *e, float *c, int64_t ldc, int64_t row0, int64_t col0, int64_t rows,
                             int64_t cols) {
  int64_t i;
  for (i = 0; i < rows; i++)
    ge__aic_epi_row(&e->act, e->level, c + i * ldc, cols, e->row_bias ? e->row_bias[row0 + i] : 0.0f,
                    e->res ? e->res + (row0 + i) * e->ldr + col0 : NULL);
}

/* A's rows, mr at a time: dst[panel][p][i] = alpha A(i, p). */
static void ge__aic_pack_a(const float *A, int64_t rs, int64_t cs, int64_t mc, int64_t kc, float alpha, int64_t mr,
                           float *dst) {
  int64_t i0, i, p;
  for (i0 = 0; i0 < mc; i0 += mr, dst += mr * kc) {
    int64_t h = ge__aic_min(mr, mc - i0);
    const float *a = A + i0 * rs;
    if (h == mr && cs == 1) {
      for (p = 0; p < kc; p++)
        for (i = 0; i < mr; i++) dst[p * mr + i] = alpha * a[i * rs + p];
    } else {
      for (p = 0; p < kc; p++) {
        for (i = 0; i < h; i++) dst[p * mr + i] = alpha * a[i * rs + p * cs];
        for (; i < mr; i++) dst[p * mr + i] = 0.0f;
      }
    }
  }
}

/* B's columns, nr at a time: dst[panel][p][j] = B(p, j). */
static void ge__aic_pack_b(const float *B, int64_t rs, int64_t cs, int64_t kc, int64_t nc, int64_t nr, float *dst) {
  int64_t j0, j, p;
  for (j0 = 0; j0 < nc; j0 += nr, dst += nr * kc) {
    int64_t w = ge__aic_min(nr, nc - j0);
    const float *b = B + j0 * cs;
    if (w == nr && cs == 1) { /* constant sizes: the copies are inlined */
      if (nr == 32)
        for (p = 0; p < kc; p++) memcpy(dst + p * 32, b + p * rs, 32 * sizeof(float));
      else if (nr == 16)
        for (p = 0; p < kc; p++) memcpy(dst + p * 16, b + p * rs, 16 * sizeof(float));
      else
        for (p = 0; p < kc; p++) memcpy(dst + p * nr, b + p * rs, (size_t)nr * sizeof(float));
    } else {
      for (p = 0; p < kc; p++) {
        for (j = 0; j < w; j++) dst[p * nr + j] = b[p * rs + j * cs];
        for (; j < nr; j++) dst[p * nr + j] = 0.0f;
      }
    }
  }
}

/* The j in [0, jn) with 0 <= j*s + off < lim, as [*lo, *hi). */
static void ge__aic_span(int64_t off, int64_t s, int64_t lim, int64_t jn, int64_t *lo, int64_t *hi) {
  int64_t a = off < 0 ? (-off + s - 1) / s : 0, b = lim - 1 - off < 0 ? 0 : (lim - 1 - off) / s + 1;
  if (b > jn) b = jn;
  if (a > b) a = b;
  *lo = a;
  *hi = b;
}

/* Splits src[0..n) into its even and odd elements, 32 at a time with
 * AVX-512 permutes (GCC 12+ and Clang have __builtin_shufflevector);
 * returns how many it split (the caller does the rest). */
#if defined(GE__AIC_X86) && (defined(__clang__) || __GNUC__ >= 12)
#define GE__AIC_EO16 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30
#define GE__AIC_OD16 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31
__attribute__((target("avx512f"))) static int64_t ge__aic_split2_avx512(const float *src, int64_t n, float *ev,
                                                                         float *od) {
  int64_t i = 0;
  for (; i + 32 <= n; i += 32) {
    ge__aic_v16 a, b, e, o;
    memcpy(&a, src + i, sizeof a);
    memcpy(&b, src + i + 16, sizeof b);
    e = __builtin_shufflevector(a, b, GE__AIC_EO16);
    o = __builtin_shufflevector(a, b, GE__AIC_OD16);
    memcpy(ev + i / 2, &e, sizeof e);
    memcpy(od + i / 2, &o, sizeof o);
  }
  if (i + 16 <= n) { /* a row's last 16 */
    ge__aic_v16 a;
    ge__aic_v8 e, o;
    memcpy(&a, src + i, sizeof a);
    e = __builtin_shufflevector(a, a, 0, 2, 4, 6, 8, 10, 12, 14);
    o = __builtin_shufflevector(a, a, 1, 3, 5, 7, 9, 11, 13, 15);
    memcpy(ev + i / 2, &e, sizeof e);
    memcpy(od + i / 2, &o, sizeof o);
    i += 16;
  }
  return i;
}
/* dst[i] = src[2 i] for i < n, 16 at a time (reading no further than
 * src[2 n - 2]); returns how many it gathered. */
__attribute__((target("avx512f"))) static int64_t ge__aic_even_avx512(const float *src, int64_t n, float *dst) {
  int64_t i = 0;
  for (; i + 17 <= n; i += 16) {
    ge__aic_v16 a, b, e;
    memcpy(&a, src + 2 * i, sizeof a);
    memcpy(&b, src + 2 * i + 16, sizeof b);
    e = __builtin_shufflevector(a, b, GE__AIC_EO16);
    memcpy(dst + i, &e, sizeof e);
  }
  return i;
}
#endif
static int64_t ge__aic_split2(int level, const float *src, int64_t n, float *ev, float *od) {
#if defined(GE__AIC_X86) && (defined(__clang__) || __GNUC__ >= 12)
  if (level >= 2) return ge__aic_split2_avx512(src, n, ev, od);
#endif
  (void)level, (void)src, (void)n, (void)ev, (void)od;
  return 0;
}

/* dst[2 i] = a[i], dst[2 i + 1] = b[i] for i < n, 16 at a time; returns
 * how many pairs it wrote (the caller does the rest). */
#if defined(GE__AIC_X86) && (defined(__clang__) || __GNUC__ >= 12)
__attribute__((target("avx512f"))) static int64_t ge__aic_zip2_avx512(const float *a, const float *b, int64_t n,
                                                                       float *dst) {
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    ge__aic_v16 x, y, lo, hi;
    memcpy(&x, a + i, sizeof x);
    memcpy(&y, b + i, sizeof y);
    lo = __builtin_shufflevector(x, y, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
    hi = __builtin_shufflevector(x, y, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
    memcpy(dst + 2 * i, &lo, sizeof lo);
    memcpy(dst + 2 * i + 16, &hi, sizeof hi);
  }
  return i;
}
#endif
static int64_t ge__aic_zip2(int level, const float *a, const float *b, int64_t n, float *dst) {
#if defined(GE__AIC_X86) && (defined(__clang__) || __GNUC__ >= 12)
  if (level >= 2) return ge__aic_zip2_avx512(a, b, n, dst);
#endif
  (void)level, (void)a, (void)b, (void)n, (void)dst;
  return 0;
}

static int64_t ge__aic_even(int level, const float *src, int64_t n, float *dst) {
#if defined(GE__AIC_X86) && (defined(__clang__) || __GNUC__ >= 12)
  if (level >= 2) return ge__aic_even_avx512(src, n, dst);
#endif
  (void)level, (void)src, (void)n, (void)dst;
  return 0;
}

/* Packs rows k0..k0+kc and columns j0..j0+nc of im2col(x) (x: the cg
 * channels of one group; vol2col for a volume) like ge__aic_pack_b,
 * without materialising the columns: row k is (channel, kd, ki, kj),
 * column j the output pixel (od, oh, ow). Runs of pixels inside the image
 * with stride 1 are copied whole. */
static void ge__aic_pack_b_conv(const ge__aic_cv *p, const float *x, int64_t k0, int64_t kc, int64_t j0, int64_t nc,
                                int64_t nr, float *dst, int level) {
  int64_t q, khw = p->kh * p->kw, kdhw = p->kz * khw;
  for (q = 0; q < kc; q++) {
    int64_t k = k0 + q, ch = k / kdhw, kd = k % kdhw / khw, ki = k % khw / p->kw, kj = k % p->kw;
    int64_t off = kj * p->dw - p->pw, oh = j0 / p->ow % p->oh, od = j0 / (p->ow * p->oh), o = j0 % p->ow, j = 0, l = 0,
            lo, hi;
    const float *xc = x + ch * p->z * p->h * p->w;
    float *dp = dst + q * nr; /* this row of the current panel; lane l */
    ge__aic_span(off, p->sw, p->w, p->ow, &lo, &hi);
    while (j < nc) { /* one output row (or its part) at a time */
      int64_t end = o + ge__aic_min(p->ow - o, nc - j), ih = oh * p->sh - p->ph + ki * p->dh;
      int64_t id = od * p->sz - p->pz + kd * p->dz;
      const float *src = ih >= 0 && ih < p->h && id >= 0 && id < p->z ? xc + (id * p->h + ih) * p->w + off : NULL;
      while (o < end) {
        int64_t seg = ge__aic_min(nr - l, end - o), t;
        if (!src || o >= hi || o + seg <= lo) {
          memset(dp + l, 0, (size_t)seg * sizeof(float));
        } else if (p->sw == 1 && o >= lo && o + seg <= hi) {
          memcpy(dp + l, src + o, (size_t)seg * sizeof(float));
        } else { /* zeros, then the strided run inside the row, then zeros */
          int64_t a = o > lo ? o : lo, b = o + seg < hi ? o + seg : hi;
          float *d = dp + l - o;
          const float *sp = src + a * p->sw;
          for (t = o; t < a; t++) d[t] = 0.0f;
          t = a;
          if (p->sw == 1 && b > a) memcpy(d + a, sp, (size_t)(b - a) * sizeof(float)), t = b;
          else if (p->sw == 2) t += ge__aic_even(level, sp, b - a, d + a);
          for (; t < b; t++) d[t] = src[t * p->sw];
          for (; t < o + seg; t++) d[t] = 0.0f;
        }
        o += seg, l += seg, j += seg;
        if (l == nr) l = 0, dp += nr * kc;
      }
      o = 0;
      if (++oh == p->oh) oh = 0, od++;
    }
    if (l) memset(dp + l, 0, (size_t)(nr - l) * sizeof(float));
  }
}

/* Adds an MR x NR tile t into C's mr x nr corner: C = t (first slice, beta
 * 0), beta C + t (first slice), or C + t. */
#define GE__AIC_UPDATE(NR)                                                                                             \
  {                                                                                                                    \
    int64_t i_, j_;                                                                                                    \
    for (i_ = 0; i_ < mr; i_++) {                                                                                      \
      float *row = cp + i_ * ldc;                                                                                      \
      const float *tr = t + i_ * (NR);                                                                                 \
      if (!first)                                                                                                      \
        for (j_ = 0; j_ < nr; j_++) row[j_] += tr[j_];                                                                 \
      else if (beta == 0.0f)                                                                                           \
        for (j_ = 0; j_ < nr; j_++) row[j_] = tr[j_];                                                                  \
      else                                                                                                             \
        for (j_ = 0; j_ < nr; j_++) row[j_] = beta * row[j_] + tr[j_];                                                 \
    }                                                                                                                  \
  }

/* Per-row pieces of the micro-kernel (z_ is a zero vector of its type, VL
 * floats, vl_; each row holds two vectors). */
#define GE__AIC_R1(X) X(0)
#define GE__AIC_R2(X) X(0) X(1)
#define GE__AIC_R3(X) X(0) X(1) X(2)
#define GE__AIC_R4(X) GE__AIC_R3(X) X(3)
#define GE__AIC_R6(X) GE__AIC_R3(X) X(3) X(4) X(5)
#define GE__AIC_R8(X) GE__AIC_R6(X) X(6) X(7)
#define GE__AIC_R12(X) GE__AIC_R6(X) X(6) X(7) X(8) X(9) X(10) X(11)
#define GE__AIC_DECL(i) __typeof__(z_) c##i##a = z_, c##i##b = z_;
#define GE__AIC_STEP(i)                                                                                                \
  c##i##a += a[(i) * a_rs] * b0;                                                                                       \
  c##i##b += a[(i) * a_rs] * b1;
/* Row i of a full tile into C: mode 0 C = acc, 1 C += acc, 2 C = beta C + acc. */
#define GE__AIC_STORE(i)                                                                                               \
  {                                                                                                                    \
    float *r_ = cp + (i) * ldc;                                                                                        \
    __typeof__(z_) o0 = c##i##a, o1 = c##i##b;                                                                         \
    if (mode) {                                                                                                        \
      __typeof__(z_) q0, q1;                                                                                           \
      memcpy(&q0, r_, sizeof q0);                                                                                      \
      memcpy(&q1, r_ + vl_, sizeof q1);                                                                                 \
      if (mode == 1) o0 += q0, o1 += q1;                                                                               \
      else o0 += beta * q0, o1 += beta * q1;                                                                           \
    }                                                                                                                  \
    memcpy(r_, &o0, sizeof o0);                                                                                        \
    memcpy(r_ + vl_, &o1, sizeof o1);                                                                                   \
  }
#define GE__AIC_TSTORE(i)                                                                                              \
  memcpy(t + 2 * (i) * vl_, &c##i##a, sizeof z_);                                                                       \
  memcpy(t + (2 * (i) + 1) * vl_, &c##i##b, sizeof z_);

/* Micro-kernel NAME: the first rows (ROWS) of an MR x 2 vectors of VT
 * tile; writes a full tile into C at cp, or into the tile buffer t when cp
 * is NULL. Row i of A at a + i RS, the next k KS further: a packed panel
 * (RS 1, KS MR) or A read in place (RS lda, KS 1). */
#define GE__AIC_MICRO(NAME, ATTR, VT, VL, ROWS, RS, KS)                                                                \
  static ATTR void NAME(int64_t kc, const float *a, int64_t lda, const float *b, float *t, float *cp, int64_t ldc,     \
                        int mode, float beta) {                                                                        \
    VT z_ = {0};                                                                                                       \
    const int64_t vl_ = (VL), a_rs = (RS);                                                                             \
    int64_t p;                                                                                                         \
    ROWS(GE__AIC_DECL)                                                                                                 \
    for (p = 0; p < kc; p++, a += (KS), b += 2 * (VL)) {                                                               \
      VT b0, b1;                                                                                                       \
      memcpy(&b0, b, sizeof b0);                                                                                       \
      memcpy(&b1, b + (VL), sizeof b1);                                                                                \
      ROWS(GE__AIC_STEP)                                                                                               \
    }                                                                                                                  \
    if (cp) {                                                                                                          \
      ROWS(GE__AIC_STORE)                                                                                              \
    } else {                                                                                                           \
      ROWS(GE__AIC_TSTORE)                                                                                             \
    }                                                                                                                  \
    (void)lda;                                                                                                         \
  }

/* The micro-kernels of one vector type and target (full height, and half
 * height for the last rows of a block; full height reading A in place) and
 * the loops over the tiles of one block: A packed (macro) or read in place
 * (dmacro: mc a multiple of MR, alpha 1, A's rows lda apart; a product
 * whose N fits few panels spends more on packing A than on multiplying). */
#define GE__AIC_TIER_MICRO(n, S, ATTR, VT, VL, MR) GE__AIC_MICRO(ge__aic_r##n##_##S, ATTR, VT, VL, GE__AIC_R##n, 1, MR)
/* In a tier chooser: the tier of n rows (kernel PRE n _S) when it covers mr. */
#define GE__AIC_TIER_CALL(n, PRE, S, ARGS)                                                                             \
  if (mr <= (n)) {                                                                                                     \
    PRE##n##_##S ARGS;                                                                                                 \
    return;                                                                                                            \
  }
/* The row counts of the kernels for a tile's last rows, smallest first:
 * the tile's height modulo 12 is 4 for most products (196, 784 or 3136
 * pixels, 64 or 256 channels) and 1 for 49 (ConvNeXt's last stage). */
#define GE__AIC_TIERS12(X, ...)                                                                                        \
  X(1, __VA_ARGS__) X(2, __VA_ARGS__) X(4, __VA_ARGS__) X(6, __VA_ARGS__) X(8, __VA_ARGS__)
#define GE__AIC_TIERS6(X, ...) X(1, __VA_ARGS__) X(3, __VA_ARGS__)
#define GE__AIC_KERNELS(S, ATTR, VT, VL, MR, ROWS, TIERS)                                                              \
  GE__AIC_MICRO(ge__aic_micro_##S, ATTR, VT, VL, ROWS, 1, MR)                                                         \
  TIERS(GE__AIC_TIER_MICRO, S, ATTR, VT, VL, MR)                                                                       \
  /* The first mr rows of a packed panel into the tile buffer t, by the                                                \
   * smallest kernel that covers them. */                                                                              \
  static ATTR void ge__aic_part_##S(int64_t mr, int64_t kc, const float *a, const float *b, float *t, int mode,       \
                                    float beta) {                                                                      \
    TIERS(GE__AIC_TIER_CALL, ge__aic_r, S, (kc, a, 1, b, t, NULL, 0, mode, beta))                                      \
    ge__aic_micro_##S(kc, a, 1, b, t, NULL, 0, mode, beta);                                                            \
  }                                                                                                                    \
  static ATTR void ge__aic_macro_##S(int64_t mc, int64_t ncols, int64_t kc, const float *pa, const float *pb,          \
                                     float *C, int64_t ldc, int first, float beta, const ge__aic_epi *epi,             \
                                     int64_t row0, int64_t col0) {                                                     \
    float t[(MR) * 2 * (VL)] GE__AIC_ALIGNED(64);                                                                      \
    int64_t ir, jr;                                                                                                    \
    int mode = !first ? 1 : beta == 0.0f ? 0 : 2;                                                                      \
    for (ir = 0; ir < mc; ir += (MR)) {                                                                                \
      int64_t mr = ge__aic_min((MR), mc - ir);                                                                         \
      for (jr = 0; jr < ncols; jr += 2 * (VL)) {                                                                       \
        int64_t nr = ge__aic_min(2 * (VL), ncols - jr);                                                                \
        float *cp = C + ir * ldc + jr;                                                                                 \
        if (mr == (MR) && nr == 2 * (VL)) {                                                                            \
          ge__aic_micro_##S(kc, pa + ir * kc, 1, pb + jr * kc, t, cp, ldc, mode, beta);                                \
        } else {                                                                                                       \
          ge__aic_part_##S(mr, kc, pa + ir * kc, pb + jr * kc, t, mode, beta);                                        \
          GE__AIC_UPDATE(2 * (VL))                                                                                     \
        }                                                                                                              \
      }                                                                                                                \
      if (epi) ge__aic_epilogue(epi, C + ir * ldc, ldc, row0 + ir, col0, mr, ncols); /* rows still in L1 */          \
    }                                                                                                                  \
  }                                                                                                                    \
  GE__AIC_MICRO(ge__aic_dmicro_##S, ATTR, VT, VL, ROWS, lda, 1)                                                       \
  static ATTR void ge__aic_dmacro_##S(int64_t mc, int64_t ncols, int64_t kc, const float *A, int64_t lda,             \
                                      const float *pb, float *C, int64_t ldc, int first, float beta,                   \
                                      const ge__aic_epi *epi, int64_t row0, int64_t col0) {                            \
    float t[(MR) * 2 * (VL)] GE__AIC_ALIGNED(64);                                                                      \
    const int64_t mr = (MR);                                                                                           \
    int64_t ir, jr;                                                                                                    \
    int mode = !first ? 1 : beta == 0.0f ? 0 : 2;                                                                      \
    for (ir = 0; ir < mc; ir += (MR)) {                                                                                \
      for (jr = 0; jr < ncols; jr += 2 * (VL)) {                                                                       \
        int64_t nr = ge__aic_min(2 * (VL), ncols - jr);                                                                \
        float *cp = C + ir * ldc + jr;                                                                                 \
        if (nr == 2 * (VL)) {                                                                                          \
          ge__aic_dmicro_##S(kc, A + ir * lda, lda, pb + jr * kc, t, cp, ldc, mode, beta);                             \
        } else {                                                                                                       \
          ge__aic_dmicro_##S(kc, A + ir * lda, lda, pb + jr * kc, t, NULL, ldc, mode, beta);                           \
          GE__AIC_UPDATE(2 * (VL))                                                                                     \
        }                                                                                                              \
      }                                                                                                                \
      if (epi) ge__aic_epilogue(epi, C + ir * ldc, ldc, row0 + ir, col0, mr, ncols);                                   \
    }                                                                                                                  \
  }

#ifdef GE__AIC_VEC
GE__AIC_KERNELS(base, , ge__aic_v4, 4, 6, GE__AIC_R6, GE__AIC_TIERS6)
#ifdef GE__AIC_X86
GE__AIC_KERNELS(avx2, __attribute__((target("avx2,fma"))) GE__AIC_CONTRACT, ge__aic_v8, 8, 6, GE__AIC_R6,
                GE__AIC_TIERS6)
GE__AIC_KERNELS(avx512, __attribute__((target("avx512f,fma"))) GE__AIC_CONTRACT, ge__aic_v16, 16, 12, GE__AIC_R12,
                GE__AIC_TIERS12)
#endif

/* Implicit-GEMM kernels for stride-1 convs: row p of B is the 2 VL floats
 * at b + boff[p], a shifted view of the zero-padded image, so B is never
 * packed. They write whole MR x 2 VL tiles (C is a scratch block with room
 * for them): mode 0 C = acc, 1 C += acc. */
#define GE__AIC_XMICRO1(NAME, ATTR, VT, VL, MR, ROWS)                                                                  \
  static ATTR void NAME(int64_t kc, const float *a, const float *b, const int64_t *boff, float *cp, int64_t ldc,       \
                        int mode) {                                                                                    \
    VT z_ = {0};                                                                                                       \
    const int64_t vl_ = (VL), a_rs = 1;                                                                                \
    const float beta = 0.0f;                                                                                           \
    int64_t p;                                                                                                         \
    ROWS(GE__AIC_DECL)                                                                                                 \
    for (p = 0; p < kc; p++, a += (MR)) {                                                                              \
      const float *bp = b + boff[p];                                                                                   \
      VT b0, b1;                                                                                                       \
      memcpy(&b0, bp, sizeof b0);                                                                                      \
      memcpy(&b1, bp + (VL), sizeof b1);                                                                               \
      ROWS(GE__AIC_STEP)                                                                                               \
    }                                                                                                                  \
    ROWS(GE__AIC_STORE)                                                                                                \
    (void)beta;                                                                                                        \
  }
#define GE__AIC_XTIER_MICRO(n, S, ATTR, VT, VL, MR) GE__AIC_XMICRO1(ge__aic_xr##n##_##S, ATTR, VT, VL, MR, GE__AIC_R##n)
/* The full-height kernel, the smaller ones for a last panel's mr rows (its
 * rows past them are junk they leave alone; GE__AIC_TIERS12: a grouped
 * conv's 16 rows a group are a panel and 4) and the loop over one block:
 * mc rows and ncols whole tiles. */
#define GE__AIC_XMICRO(S, ATTR, VT, VL, MR, ROWS, TIERS)                                                               \
  GE__AIC_XMICRO1(ge__aic_xmicro_##S, ATTR, VT, VL, MR, ROWS)                                                          \
  TIERS(GE__AIC_XTIER_MICRO, S, ATTR, VT, VL, MR)                                                                      \
  static ATTR void ge__aic_xpart_##S(int64_t mr, int64_t kc, const float *a, const float *b, const int64_t *boff,     \
                                     float *cp, int64_t ldc, int mode) {                                               \
    TIERS(GE__AIC_TIER_CALL, ge__aic_xr, S, (kc, a, b, boff, cp, ldc, mode))                                           \
    ge__aic_xmicro_##S(kc, a, b, boff, cp, ldc, mode);                                                                 \
  }                                                                                                                    \
  static ATTR void ge__aic_xmacro_##S(int64_t mc, int64_t m, int64_t ncols, int64_t kc, const float *pa,              \
                                      const float *b, const int64_t *boff, float *C, int64_t ldc, int first) {         \
    int64_t ir, jr;                                                                                                    \
    for (ir = 0; ir < mc; ir += (MR))                                                                                  \
      for (jr = 0; jr < ncols; jr += 2 * (VL))                                                                         \
        if (m - ir < (MR)) ge__aic_xpart_##S(m - ir, kc, pa + ir * kc, b + jr, boff, C + ir * ldc + jr, ldc, !first); \
        else ge__aic_xmicro_##S(kc, pa + ir * kc, b + jr, boff, C + ir * ldc + jr, ldc, !first);                      \
  }
GE__AIC_XMICRO(base, , ge__aic_v4, 4, 6, GE__AIC_R6, GE__AIC_TIERS6)
#ifdef GE__AIC_X86
GE__AIC_XMICRO(avx2, __attribute__((target("avx2,fma"))) GE__AIC_CONTRACT, ge__aic_v8, 8, 6, GE__AIC_R6,
               GE__AIC_TIERS6)
GE__AIC_XMICRO(avx512, __attribute__((target("avx512f,fma"))) GE__AIC_CONTRACT, ge__aic_v16, 16, 12, GE__AIC_R12,
               GE__AIC_TIERS12)
#endif

/* Streaming kernels for products whose B (weights, prepacked) is read once
 * from memory and used by few rows of A: each k step also asks for two
 * cache lines of the next B chunk (pf, the same size as this one) to come
 * into L2, so the next chunk's memory reads overlap this chunk's
 * multiplies (the hardware prefetchers stop at 4 KB pages, a fraction of a
 * chunk). One column tile (ncols <= 2 VL) and mc rows; mode 0 C = acc,
 * 1 C += acc. */
#define GE__AIC_PMICRO(NAME, ATTR, VT, VL, MR, ROWS)                                                                   \
  static ATTR void NAME(int64_t kc, const float *a, const float *b, float *t, float *cp, int64_t ldc, int mode,        \
                        const float *pf) {                                                                             \
    VT z_ = {0};                                                                                                       \
    const int64_t vl_ = (VL), a_rs = 1;                                                                                \
    const float beta = 0.0f;                                                                                           \
    int64_t p;                                                                                                         \
    ROWS(GE__AIC_DECL)                                                                                                 \
    for (p = 0; p < kc; p++, a += (MR), b += 2 * (VL), pf += 2 * (VL)) {                                               \
      VT b0, b1;                                                                                                       \
      __builtin_prefetch(pf, 0, 2);                                                                                    \
      __builtin_prefetch(pf + (VL), 0, 2);                                                                             \
      memcpy(&b0, b, sizeof b0);                                                                                       \
      memcpy(&b1, b + (VL), sizeof b1);                                                                                \
      ROWS(GE__AIC_STEP)                                                                                               \
    }                                                                                                                  \
    if (cp) {                                                                                                          \
      ROWS(GE__AIC_STORE)                                                                                              \
    } else {                                                                                                           \
      ROWS(GE__AIC_TSTORE)                                                                                             \
    }                                                                                                                  \
    (void)beta;                                                                                                        \
  }
#ifdef GE__AIC_X86
#define GE__AIC_PMACRO 1
GE__AIC_PMICRO(ge__aic_pmicro_avx512, __attribute__((target("avx512f,fma"))) GE__AIC_CONTRACT, ge__aic_v16, 16, 12,
               GE__AIC_R12)
GE__AIC_PMICRO(ge__aic_phalf_avx512, __attribute__((target("avx512f,fma"))) GE__AIC_CONTRACT, ge__aic_v16, 16, 12,
               GE__AIC_R6)
/* Rows [0, mc) against one column tile of ncols <= 32; only the first row
 * panel prefetches (the others read the chunk from L1). */
static __attribute__((target("avx512f,fma"))) void ge__aic_pmacro_avx512(int64_t mc, int64_t ncols, int64_t kc,
                                                                          const float *pa, const float *pb, float *C,
                                                                          int64_t ldc, int first, const float *pf) {
  float t[12 * 32] GE__AIC_ALIGNED(64);
  const float beta = 0.0f;
  int64_t ir, nr = ncols;
  int mode = first ? 0 : 1;
  for (ir = 0; ir < mc; ir += 12) {
    int64_t mr = ge__aic_min(12, mc - ir);
    float *cp = C + ir * ldc;
    const float *f = ir == 0 ? pf : pb;
    if (mr == 12 && nr == 32) {
      ge__aic_pmicro_avx512(kc, pa + ir * kc, pb, t, cp, ldc, mode, f);
    } else {
      if (2 * mr <= 12) ge__aic_phalf_avx512(kc, pa + ir * kc, pb, t, NULL, ldc, mode, f);
      else ge__aic_pmicro_avx512(kc, pa + ir * kc, pb, t, NULL, ldc, mode, f);
      GE__AIC_UPDATE(32)
    }
  }
}
#endif
#else
/* Portable scalar kernel: 6 x 8 tiles. */
static void ge__aic_macro_base(int64_t mc, int64_t ncols, int64_t kc, const float *pa, const float *pb, float *C,
                               int64_t ldc, int first, float beta, const ge__aic_epi *epi, int64_t row0,
                               int64_t col0) {
  float t[6 * 8];
  int64_t ir, jr, p, i, j;
  for (ir = 0; ir < mc; ir += 6) {
    int64_t mr = ge__aic_min(6, mc - ir);
    for (jr = 0; jr < ncols; jr += 8) {
      int64_t nr = ge__aic_min(8, ncols - jr);
      float *cp = C + ir * ldc + jr;
      const float *a = pa + ir * kc, *b = pb + jr * kc;
      for (i = 0; i < 6 * 8; i++) t[i] = 0.0f;
      for (p = 0; p < kc; p++, a += 6, b += 8)
        for (i = 0; i < 6; i++)
          for (j = 0; j < 8; j++) t[i * 8 + j] += a[i] * b[j];
      GE__AIC_UPDATE(8)
    }
    if (epi) ge__aic_epilogue(epi, C + ir * ldc, ldc, row0 + ir, col0, mr, ncols);
  }
}
#endif

typedef void (*ge__aic_macro_fn)(int64_t mc, int64_t ncols, int64_t kc, const float *pa, const float *pb, float *C,
                                 int64_t ldc, int first, float beta, const ge__aic_epi *epi, int64_t row0,
                                 int64_t col0);
typedef void (*ge__aic_dmacro_fn)(int64_t mc, int64_t ncols, int64_t kc, const float *A, int64_t lda, const float *pb,
                                  float *C, int64_t ldc, int first, float beta, const ge__aic_epi *epi, int64_t row0,
                                  int64_t col0);
typedef void (*ge__aic_xmacro_fn)(int64_t mc, int64_t m, int64_t ncols, int64_t kc, const float *pa, const float *b,
                                  const int64_t *boff, float *C, int64_t ldc, int first);

/* A micro-kernel and its tile: level 0 baseline, 1 AVX2+FMA, 2 AVX-512. */
typedef struct ge__aic_kern {
  int level;
  int64_t mr, nr;
  ge__aic_macro_fn macro;
  ge__aic_xmacro_fn xmacro; /* implicit-GEMM conv blocks (NULL: none) */
  ge__aic_dmacro_fn dmacro; /* blocks with A read in place (NULL: none) */
} ge__aic_kern;

#ifdef GE__AIC_VEC
#define GE__AIC_XM(S) ge__aic_xmacro_##S, ge__aic_dmacro_##S
#else
#define GE__AIC_XM(S) NULL, NULL
#endif
static const ge__aic_kern ge__aic_kerns[] = {
    {0, 6, 8, ge__aic_macro_base, GE__AIC_XM(base)},
#ifdef GE__AIC_X86
    {1, 6, 16, ge__aic_macro_avx2, GE__AIC_XM(avx2)},
    {2, 12, 32, ge__aic_macro_avx512, GE__AIC_XM(avx512)},
#endif
};

/* Whether the CPU runs a 512-bit FMA as two 256-bit halves (AMD family
 * 19h with AVX-512: Zen 4), one a cycle where Intel's AVX-512 cores issue
 * two: there kernels bound by their FMAs lose ground to ones whose other
 * work runs on the adders (ge__aic_sc_beats_wino). libgcc caches the
 * answer. */
static int ge__aic_fma512_half(void) {
#ifdef GE__AIC_X86
  return __builtin_cpu_is("amdfam19h") && __builtin_cpu_supports("avx512f");
#else
  return 0;
#endif
}

/* The best kernel this CPU runs, at most level `cap` (tests force lower ones). */
static const ge__aic_kern *ge__aic_kern_pick(int cap) {
#ifdef GE__AIC_X86
  if (cap >= 2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("fma")) return &ge__aic_kerns[2];
  if (cap >= 1 && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return &ge__aic_kerns[1];
#else
  (void)cap;
#endif
  return &ge__aic_kerns[0];
}

/* Skinny products, where a register tile of MR x 2 VL would be mostly
 * padding: a few rows of A against B's packed panels (a Gemm or MatMul of
 * batch 1 against weights packed once), and a few columns of B against A's
 * packed row panels (a convolution with a handful of output pixels). */

/* Stores one of C's rows: mode 0 C = v, 1 C += v, 2 C = beta C + v. */
static void ge__aic_row_update(float *c, const float *v, int64_t n, int mode, float beta) {
  int64_t j;
  if (mode == 0) memcpy(c, v, (size_t)n * sizeof(float));
  else if (mode == 1)
    for (j = 0; j < n; j++) c[j] += v[j];
  else
    for (j = 0; j < n; j++) c[j] = beta * c[j] + v[j];
}

/* C[i][0..ncols) (mode) += sum_p alpha A(i, p) B(p, .) for the m rows of A
 * (A(i, p) at a[i*ars + p*acs]), B as kc-deep panels of 2 VL columns (the
 * layout of ge__aic_pack_b with nr = 2 VL). Four steps of p at a time keep
 * eight FMA chains in flight; B streams through once per row. */
#define GE__AIC_ROWS(S, ATTR, VT, VL)                                                                                  \
  static ATTR void ge__aic_rows_##S(int64_t m, int64_t kc, const float *a, int64_t ars, int64_t acs, float alpha,     \
                                    const float *pb, int64_t ncols, float *C, int64_t ldc, int mode, float beta) {    \
    const VT z_ = {0};                                                                                                 \
    int64_t i, jr, p;                                                                                                  \
    for (i = 0; i < m; i++) {                                                                                          \
      const float *ai = a + i * ars;                                                                                   \
      for (jr = 0; jr < ncols; jr += 2 * (VL)) {                                                                       \
        const float *b = pb + jr * kc;                                                                                 \
        VT x0 = z_, x1 = z_, y0 = z_, y1 = z_, u0 = z_, u1 = z_, w0 = z_, w1 = z_, b0, b1, b2, b3;                     \
        float out[2 * (VL)];                                                                                           \
        for (p = 0; p + 4 <= kc; p += 4, b += 8 * (VL)) {                                                              \
          float s0 = alpha * ai[p * acs], s1 = alpha * ai[(p + 1) * acs];                                              \
          float s2 = alpha * ai[(p + 2) * acs], s3 = alpha * ai[(p + 3) * acs];                                        \
          memcpy(&b0, b, sizeof b0);                                                                                   \
          memcpy(&b1, b + (VL), sizeof b1);                                                                            \
          memcpy(&b2, b + 2 * (VL), sizeof b2);                                                                        \
          memcpy(&b3, b + 3 * (VL), sizeof b3);                                                                        \
          x0 += s0 * b0, x1 += s0 * b1, y0 += s1 * b2, y1 += s1 * b3;                                                  \
          memcpy(&b0, b + 4 * (VL), sizeof b0);                                                                        \
          memcpy(&b1, b + 5 * (VL), sizeof b1);                                                                        \
          memcpy(&b2, b + 6 * (VL), sizeof b2);                                                                        \
          memcpy(&b3, b + 7 * (VL), sizeof b3);                                                                        \
          u0 += s2 * b0, u1 += s2 * b1, w0 += s3 * b2, w1 += s3 * b3;                                                  \
        }                                                                                                              \
        for (; p < kc; p++, b += 2 * (VL)) {                                                                           \
          float s0 = alpha * ai[p * acs];                                                                              \
          memcpy(&b0, b, sizeof b0);                                                                                   \
          memcpy(&b1, b + (VL), sizeof b1);                                                                            \
          x0 += s0 * b0, x1 += s0 * b1;                                                                                \
        }                                                                                                              \
        x0 = (x0 + y0) + (u0 + w0);                                                                                    \
        x1 = (x1 + y1) + (u1 + w1);                                                                                    \
        memcpy(out, &x0, sizeof x0);                                                                                   \
        memcpy(out + (VL), &x1, sizeof x1);                                                                            \
        ge__aic_row_update(C + i * ldc + jr, out, ge__aic_min(2 * (VL), ncols - jr), mode, beta);                     \
      }                                                                                                                \
    }                                                                                                                  \
  }

/* C[ir + i][0..n) (mode) += sum_p A(ir + i, p) B(p, .) for the mc rows of A
 * packed as ge__aic_pack_a panels of mr <= VL rows, B packed as one panel
 * of 8 columns (ge__aic_pack_b with nr = 8; columns past n are zeros). A
 * vector holds a panel's column of A; two panels at a time keep sixteen
 * FMA chains in flight. The last step of a panel is read through a copy:
 * a vector load would pass the panel's end. */
#define GE__AIC_C8(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7)
#define GE__AIC_CDECL(j) VZ_ d##j = z_, e##j = z_;
#define GE__AIC_CFMA(j) d##j += v0 * b[j], e##j += v1 * b[j];
#define GE__AIC_CSAVE(j) memcpy(t0[j], &d##j, sizeof v0), memcpy(t1[j], &e##j, sizeof v1);
#define GE__AIC_COLS(S, ATTR, VT, VL)                                                                                  \
  static ATTR void ge__aic_cols_##S(int64_t mc, int64_t mr, int64_t n, int64_t kc, const float *pa, const float *pb,  \
                                    float *C, int64_t ldc, int mode, float beta) {                                     \
    typedef VT VZ_;                                                                                                    \
    const VT z_ = {0};                                                                                                 \
    int64_t ir, p, i, j;                                                                                               \
    for (ir = 0; ir < mc; ir += 2 * mr) {                                                                              \
      const float *a0 = pa + ir * kc, *a1 = ir + mr < mc ? a0 + mr * kc : a0;                                          \
      int64_t rows = ge__aic_min(2 * mr, mc - ir);                                                                     \
      float last[2][VL], t0[8][VL], t1[8][VL];                                                                         \
      VT v0, v1;                                                                                                       \
      GE__AIC_C8(GE__AIC_CDECL)                                                                                        \
      for (p = 0; p < kc; p++) {                                                                                       \
        const float *b = pb + p * 8;                                                                                   \
        if (p + 1 < kc) {                                                                                              \
          memcpy(&v0, a0 + p * mr, sizeof v0);                                                                         \
          memcpy(&v1, a1 + p * mr, sizeof v1);                                                                         \
        } else {                                                                                                       \
          memset(last, 0, sizeof last);                                                                                \
          memcpy(last[0], a0 + p * mr, (size_t)mr * sizeof(float));                                                   \
          memcpy(last[1], a1 + p * mr, (size_t)mr * sizeof(float));                                                   \
          memcpy(&v0, last[0], sizeof v0);                                                                             \
          memcpy(&v1, last[1], sizeof v1);                                                                             \
        }                                                                                                              \
        GE__AIC_C8(GE__AIC_CFMA)                                                                                       \
      }                                                                                                                \
      GE__AIC_C8(GE__AIC_CSAVE)                                                                                        \
      for (i = 0; i < rows; i++) {                                                                                     \
        float out[8];                                                                                                  \
        for (j = 0; j < n; j++) out[j] = i < mr ? t0[j][i] : t1[j][i - mr];                                            \
        ge__aic_row_update(C + (ir + i) * ldc, out, n, mode, beta);                                                    \
      }                                                                                                                \
    }                                                                                                                  \
  }

#ifdef GE__AIC_VEC
GE__AIC_ROWS(base, , ge__aic_v4, 4)
#ifdef GE__AIC_X86
GE__AIC_ROWS(avx2, __attribute__((target("avx2,fma"))) GE__AIC_CONTRACT, ge__aic_v8, 8)
GE__AIC_ROWS(avx512, __attribute__((target("avx512f,fma"))) GE__AIC_CONTRACT, ge__aic_v16, 16)
GE__AIC_COLS(avx2, __attribute__((target("avx2,fma"))) GE__AIC_CONTRACT, ge__aic_v8, 8)
GE__AIC_COLS(avx512, __attribute__((target("avx512f,fma"))) GE__AIC_CONTRACT, ge__aic_v16, 16)
#endif
#else
static void ge__aic_rows_base(int64_t m, int64_t kc, const float *a, int64_t ars, int64_t acs, float alpha,
                              const float *pb, int64_t ncols, float *C, int64_t ldc, int mode, float beta) {
  int64_t i, jr, p, j;
  for (i = 0; i < m; i++)
    for (jr = 0; jr < ncols; jr += 8) {
      float out[8] = {0, 0, 0, 0, 0, 0, 0, 0};
      for (p = 0; p < kc; p++)
        for (j = 0; j < 8; j++) out[j] += alpha * a[i * ars + p * acs] * pb[jr * kc + p * 8 + j];
      ge__aic_row_update(C + i * ldc + jr, out, ge__aic_min(8, ncols - jr), mode, beta);
    }
}
#endif

/* The rows kernel of a level (its panels are 2 VL = the level's nr wide). */
static void ge__aic_rows(int level, int64_t m, int64_t kc, const float *a, int64_t ars, int64_t acs, float alpha,
                         const float *pb, int64_t ncols, float *C, int64_t ldc, int mode, float beta) {
#ifdef GE__AIC_X86
  if (level >= 2) ge__aic_rows_avx512(m, kc, a, ars, acs, alpha, pb, ncols, C, ldc, mode, beta);
  else if (level == 1) ge__aic_rows_avx2(m, kc, a, ars, acs, alpha, pb, ncols, C, ldc, mode, beta);
  else
#endif
    ge__aic_rows_base(m, kc, a, ars, acs, alpha, pb, ncols, C, ldc, mode, beta);
  (void)level;
}

/* Rows of C a skinny kernel handles; columns of B the columns kernel takes. */
#define GE__AIC_SKINNY_ROWS 4
#define GE__AIC_SKINNY_COLS 8

/* One product C = alpha op(A) op(B) + beta C, then the epilogue. A(i, k)
 * at A[i*ars + k*acs] unless apack holds A packed by ge__aic_prepack_a
 * with this kernel (alpha 1); B(k, j) at B[k*brs + j*bcs] unless bpack
 * holds it packed by ge__aic_prepack_b, or conv is set: then B is the
 * im2col of x under conv's geometry. */
typedef struct ge__aic_mm {
  const ge__aic_kern *k;
  int64_t M, N, K;
  float alpha, beta;
  const float *A, *apack;
  int64_t ars, acs;
  const float *B, *bpack;
  int64_t brs, bcs;
  const ge__aic_cv *conv;
  const float *x;
  float *C;
  int64_t ldc;
  const ge__aic_epi *epi; /* NULL: none */
} ge__aic_mm;

/* Floats of packing scratch one thread needs. */
static size_t ge__aic_mm_work_floats(void) { return (size_t)(GE__AIC_MC * GE__AIC_KC + GE__AIC_KC * GE__AIC_NC) + 32; }

static size_t ge__aic_prepack_a_floats(const ge__aic_kern *k, int64_t M, int64_t K) {
  return (size_t)(ge__aic_round_up(M, k->mr) * K);
}
static size_t ge__aic_prepack_b_floats(const ge__aic_kern *k, int64_t N, int64_t K) {
  return (size_t)(ge__aic_round_up(N, k->nr) * K);
}

/* Packs all of A (M x K) for kernel k: slice pc of KC rows at pc * Mp. */
static void ge__aic_prepack_a(const ge__aic_kern *k, const float *A, int64_t ars, int64_t acs, int64_t M, int64_t K,
                              float *dst) {
  int64_t pc, Mp = ge__aic_round_up(M, k->mr);
  for (pc = 0; pc < K; pc += ge__aic_kc(K))
    ge__aic_pack_a(A + pc * acs, ars, acs, M, ge__aic_min(ge__aic_kc(K), K - pc), 1.0f, k->mr, dst + pc * Mp);
}

/* Packs all of B (K x N) for kernel k: slice pc at pc * Np. */
static void ge__aic_prepack_b(const ge__aic_kern *k, const float *B, int64_t brs, int64_t bcs, int64_t K, int64_t N,
                              float *dst) {
  int64_t pc, Np = ge__aic_round_up(N, k->nr);
  for (pc = 0; pc < K; pc += ge__aic_kc(K))
    ge__aic_pack_b(B + pc * brs, brs, bcs, ge__aic_min(ge__aic_kc(K), K - pc), N, k->nr, dst + pc * Np);
}

/* C's block [m0, m1) x [n0, n1) when there is nothing to multiply. */
static void ge__aic_mm_empty(const ge__aic_mm *g, int64_t m0, int64_t m1, int64_t n0, int64_t n1) {
  int64_t i, j;
  for (i = m0; i < m1; i++) {
    float *c = g->C + i * g->ldc;
    for (j = n0; j < n1; j++) c[j] = g->beta == 0.0f ? 0.0f : g->beta * c[j];
  }
  if (!ge__aic_epi_empty(g->epi)) ge__aic_epilogue(g->epi, g->C + m0 * g->ldc + n0, g->ldc, m0, n0, m1 - m0, n1 - n0);
}

/* acc[0..n) += w * src[0..n). */
#define GE__AIC_AXPY(S, ATTR, VT, VL)                                                                                  \
  static ATTR void ge__aic_axpy_##S(float *acc, const float *src, float w, int64_t n) {                               \
    int64_t o = 0;                                                                                                     \
    for (; o + (VL) <= n; o += (VL)) {                                                                                 \
      VT a, s;                                                                                                         \
      memcpy(&a, acc + o, sizeof a);                                                                                   \
      memcpy(&s, src + o, sizeof s);                                                                                   \
      a += w * s;                                                                                                      \
      memcpy(acc + o, &a, sizeof a);                                                                                   \
    }                                                                                                                  \
    for (; o < n; o++) acc[o] += w * src[o];                                                                           \
  }
#ifdef GE__AIC_VEC
GE__AIC_AXPY(base, , ge__aic_v4, 4)
#ifdef GE__AIC_X86
GE__AIC_AXPY(avx2, __attribute__((target("avx2,fma"))) GE__AIC_CONTRACT, ge__aic_v8, 8)
GE__AIC_AXPY(avx512, __attribute__((target("avx512f,fma"))) GE__AIC_CONTRACT, ge__aic_v16, 16)
#endif
#else
static void ge__aic_axpy_base(float *acc, const float *src, float w, int64_t n) {
  int64_t o;
  for (o = 0; o < n; o++) acc[o] += w * src[o];
}
#endif

static void ge__aic_axpy(int level, float *acc, const float *src, float w, int64_t n) {
#ifdef GE__AIC_X86
  if (level >= 2) ge__aic_axpy_avx512(acc, src, w, n);
  else if (level == 1) ge__aic_axpy_avx2(acc, src, w, n);
  else
#endif
    ge__aic_axpy_base(acc, src, w, n);
  (void)level;
}

/* A row vector times a plain B: axpy over B's rows or dot products with
 * its columns, no packing. */
static void ge__aic_mm_row(const ge__aic_mm *g, int64_t n0, int64_t n1) {
  int64_t i, j, K = g->K;
  float *c = g->C, beta = g->beta;
  if (g->bcs == 1) {
    for (j = n0; j < n1; j++) c[j] = beta == 0.0f ? 0.0f : beta * c[j];
    for (i = 0; i < K; i++) ge__aic_axpy(g->k->level, c + n0, g->B + i * g->brs + n0, g->alpha * g->A[i * g->acs], n1 - n0);
  } else {
    for (j = n0; j < n1; j++) {
      const float *bc = g->B + j * g->bcs;
      float s8[8] = {0, 0, 0, 0, 0, 0, 0, 0}, acc;
      int64_t k = 0;
      int q;
      for (; k + 8 <= K; k += 8)
        for (q = 0; q < 8; q++) s8[q] += g->A[(k + q) * g->acs] * bc[(k + q) * g->brs];
      acc = ((s8[0] + s8[4]) + (s8[1] + s8[5])) + ((s8[2] + s8[6]) + (s8[3] + s8[7]));
      for (; k < K; k++) acc += g->A[k * g->acs] * bc[k * g->brs];
      c[j] = g->alpha * acc + (beta == 0.0f ? 0.0f : beta * c[j]);
    }
  }
  if (!ge__aic_epi_empty(g->epi)) ge__aic_epilogue(g->epi, c + n0, g->ldc, 0, n0, 1, n1 - n0);
}

/* The block [m0, m1) x [n0, n1) of g (m0 a multiple of MR and n0 of NR
 * when an operand is prepacked); work: ge__aic_mm_work_floats() floats. */
static void ge__aic_mm_block(const ge__aic_mm *g, int64_t m0, int64_t m1, int64_t n0, int64_t n1, float *work) {
  const ge__aic_kern *k = g->k;
  const ge__aic_epi *epi = ge__aic_epi_empty(g->epi) ? NULL : g->epi;
  int64_t Mp = ge__aic_round_up(g->M, k->mr), Np = ge__aic_round_up(g->N, k->nr), jc, pc, ic, bnr;
  int skinny_rows, skinny_cols, in_place;
  float *pa_buf = (float *)(((uintptr_t)work + 63) & ~(uintptr_t)63), *pb_buf = pa_buf + GE__AIC_MC * GE__AIC_KC;
  if (m0 >= m1 || n0 >= n1) return;
  if (g->K <= 0 || (g->alpha == 0.0f && !g->apack)) {
    ge__aic_mm_empty(g, m0, m1, n0, n1);
    return;
  }
  if (g->M == 1 && !g->apack && !g->bpack && !g->conv && (g->bcs == 1 || g->brs == 1)) {
    ge__aic_mm_row(g, n0, n1);
    return;
  }
  /* a few rows: each against B's panels; a few columns: A's panels against them */
  skinny_rows = m1 - m0 <= GE__AIC_SKINNY_ROWS && (!g->apack || m1 <= k->mr);
  skinny_cols = !skinny_rows && !g->bpack && n1 - n0 <= GE__AIC_SKINNY_COLS && k->level >= 1;
  bnr = skinny_cols ? GE__AIC_SKINNY_COLS : k->nr;
  in_place = !skinny_cols && !g->apack && k->dmacro && g->acs == 1 && g->alpha == 1.0f;
  for (jc = n0; jc < n1; jc += GE__AIC_NC) {
    int64_t nc = ge__aic_min(GE__AIC_NC, n1 - jc);
    for (pc = 0; pc < g->K; pc += ge__aic_kc(g->K)) {
      int64_t kc = ge__aic_min(ge__aic_kc(g->K), g->K - pc);
      const float *pb = pb_buf;
      int mode = pc > 0 ? 1 : g->beta == 0.0f ? 0 : 2;
      if (g->bpack) pb = g->bpack + pc * Np + jc * kc;
      else if (g->conv) ge__aic_pack_b_conv(g->conv, g->x, pc, kc, jc, nc, bnr, pb_buf, k->level);
      else ge__aic_pack_b(g->B + pc * g->brs + jc * g->bcs, g->brs, g->bcs, kc, nc, bnr, pb_buf);
      if (skinny_rows) { /* A read in place: a packed A's rows are lanes of its first panel */
        float *cb = g->C + m0 * g->ldc + jc;
        if (g->apack) ge__aic_rows(k->level, m1 - m0, kc, g->apack + pc * Mp + m0, 1, k->mr, 1.0f, pb, nc, cb, g->ldc, mode, g->beta);
        else ge__aic_rows(k->level, m1 - m0, kc, g->A + m0 * g->ars + pc * g->acs, g->ars, g->acs, g->alpha, pb, nc, cb, g->ldc, mode, g->beta);
        if (epi && pc + kc >= g->K) ge__aic_epilogue(epi, cb, g->ldc, m0, jc, m1 - m0, nc);
        continue;
      }
      for (ic = m0; ic < m1; ic += GE__AIC_MC) {
        int64_t mc = ge__aic_min(GE__AIC_MC, m1 - ic), i0 = ic;
        const float *pa = pa_buf;
        if (in_place && mc >= k->mr) { /* whole row panels read in place, the rest packed */
          int64_t whole = mc / k->mr * k->mr;
          k->dmacro(whole, nc, kc, g->A + ic * g->ars + pc, g->ars, pb, g->C + ic * g->ldc + jc, g->ldc, pc == 0,
                    g->beta, pc + kc >= g->K ? epi : NULL, ic, jc);
          if ((mc -= whole) == 0) continue;
          i0 += whole;
        }
        if (g->apack) pa = g->apack + pc * Mp + i0 * kc;
        else ge__aic_pack_a(g->A + i0 * g->ars + pc * g->acs, g->ars, g->acs, mc, kc, g->alpha, k->mr, pa_buf);
#ifdef GE__AIC_X86
        if (skinny_cols) {
          float *cb = g->C + i0 * g->ldc + jc;
          if (k->level >= 2) ge__aic_cols_avx512(mc, k->mr, nc, kc, pa, pb, cb, g->ldc, mode, g->beta);
          else ge__aic_cols_avx2(mc, k->mr, nc, kc, pa, pb, cb, g->ldc, mode, g->beta);
          if (epi && pc + kc >= g->K) ge__aic_epilogue(epi, cb, g->ldc, i0, jc, mc, nc);
          continue;
        }
#endif
        k->macro(mc, nc, kc, pa, pb, g->C + i0 * g->ldc + jc, g->ldc, pc == 0, g->beta,
                 pc + kc >= g->K ? epi : NULL, i0, jc);
      }
    }
  }
}

/* The threads a kernel may use (1 without a pool). */
static int64_t ge__aic_threads(const ge_kernel_ctx *c) {
  const ge_kernel_env *env = c ? c->env : NULL;
  return env && env->parallel_for && env->num_threads > 1 ? env->num_threads : 1;
}

/* Dense products split into GE__AIC_SHARES shares a thread, claimed as
 * threads come free (the loop hands out shares one at a time): a thread
 * that starts late, is preempted or runs on a slower core leaves its shares
 * to the others instead of holding the whole loop back (a shared VM: one
 * core measured at half the FMA rate of the other, so even halves ran at
 * the slower core's pace). Scratch stays one buffer a thread: a share
 * claims a free one (ge__aic_slots) for as long as it runs. */
#define GE__AIC_SHARES 4
#ifndef GE__AIC_SHARE_FLOPS
#define GE__AIC_SHARE_FLOPS 4e6 /* a share at least (~25 us): smaller ops keep one share a thread (a test may lower it) */
#endif
#define GE__AIC_SLOTS 16 /* up to this many threads; more run one share a thread */

typedef struct ge__aic_slots {
  int64_t shares, n; /* shares <= n: share t uses buffer t, no claiming */
  int busy[GE__AIC_SLOTS];
} ge__aic_slots;

/* Shares for `units` units of an op of `flops` on `threads` threads,
 * each share at least min_units units where that leaves at least one a
 * thread. */
static int64_t ge__aic_shares(int64_t threads, int64_t units, int64_t min_units, double flops) {
  int64_t s = threads;
#if defined(__GNUC__) || defined(__clang__)
  if (threads > 1 && threads <= GE__AIC_SLOTS && flops >= (double)(threads * GE__AIC_SHARES) * GE__AIC_SHARE_FLOPS) {
    s = threads * GE__AIC_SHARES;
    if (min_units > 1 && s > units / min_units) s = ge__aic_max(threads, units / min_units);
  }
#endif
  return ge__aic_min(s, units);
}

/* Shares that shrink toward the middle (trapezoid self-scheduling from
 * both ends): up to GE__AIC_SHARES a thread, their sizes falling linearly
 * from each end to a quarter of it, each at least min_units. The runtime's
 * caller claims shares from the front and its workers from the back, so
 * each starts on a long share and whichever thread frees up first takes
 * the short ones in the middle (shrinking toward the end only, the worker
 * began on the shortest, so the caller ran the larger part of a loop:
 * ResNet-18's 3x3 64->64 split its 14 tile rows 5, 3, 3, 3 and now 4, 3,
 * 3, 4; the model at 2 threads 13.77 -> 13.20 ms, alternating builds).
 * With equal shares the loop's end waited up to
 * a whole share on the thread that claimed the last one: in ResNet-18 at 2
 * threads a third of a conv's tail, as one vCPU often ran its shares
 * slower (measured per share: 1.3-2x). A few units (<= 4 a thread) stay
 * one a share, and every thread gets one where there are units enough
 * (below min_units then, as ge__aic_shares does); below the flops of ge__aic_shares' split (or on one thread)
 * the shares stay one a thread, equal. Share t is units [at[t], at[t + 1]). */
#define GE__AIC_GUIDE_MAX (GE__AIC_SHARES * GE__AIC_SLOTS)
typedef struct ge__aic_guide {
  int64_t n;
  int64_t at[GE__AIC_GUIDE_MAX + 1];
} ge__aic_guide;

/* Share t's weight of n: 4 (h - 1) - 3 d, d its distance from the nearer
 * end and h the shares from an end to the middle (all 1 where h is 1). */
static int64_t ge__aic_guide_weight(int64_t n, int64_t t) {
  int64_t h = (n + 1) / 2, d = ge__aic_min(t, n - 1 - t);
  return h > 1 ? 4 * (h - 1) - 3 * d : 1;
}

static void ge__aic_guide_make(ge__aic_guide *g, int64_t threads, int64_t units, int64_t min_units, double flops) {
  int64_t left = units > 0 ? units : 0, n, t, total, sum, size[GE__AIC_GUIDE_MAX], r;
  if (min_units < 1) min_units = 1;
  g->at[0] = 0;
  if (ge__aic_shares(threads, left, 1, flops) <= threads) { /* equal, one a thread */
    n = ge__aic_max(1, ge__aic_min(ge__aic_min(threads, GE__AIC_GUIDE_MAX), left)); /* more threads: some idle */
    for (t = 1; t <= n; t++) g->at[t] = left * t / n;
    g->n = n;
    return;
  }
  /* every thread a share even where that leaves them below min_units */
  n = ge__aic_max(ge__aic_min(threads, left), ge__aic_min(GE__AIC_SHARES * threads, left / min_units));
  if (n > 1 && left / n < min_units) min_units = left / n;
  for (t = 0, total = 0; t < n; t++) total += ge__aic_guide_weight(n, t);
  for (t = 0, sum = 0; t < n; t++) sum += size[t] = ge__aic_max(min_units, left * ge__aic_guide_weight(n, t) / total);
  /* the rounding and the minimum off the largest shares and onto the ends,
   * the two halves in turn, so that neither end's shares outweigh the other's */
  for (r = 0; sum != left; r++) {
    int64_t pick = r % 2 ? n - 1 : 0;
    if (sum > left)
      for (t = 0; t < n; t++) {
        int64_t u = r % 2 ? n - 1 - t : t;
        if (size[u] > size[pick]) pick = u;
      }
    size[pick] += sum > left ? -1 : 1;
    sum += sum > left ? -1 : 1;
  }
  for (t = 0; t < n; t++) g->at[t + 1] = g->at[t] + size[t];
  g->n = n;
}

static void ge__aic_slots_init(ge__aic_slots *s, int64_t shares, int64_t threads) {
  memset(s, 0, sizeof *s);
  s->shares = shares, s->n = threads;
}

/* The buffer of share t: its own when every share has one, else a free
 * one. At most `threads` shares run at once (the pool never runs more), so
 * a free one exists; the retry only covers a CAS lost to a share leaving. */
static int64_t ge__aic_slot_claim(ge__aic_slots *s, int64_t t) {
#if defined(__GNUC__) || defined(__clang__)
  int64_t i;
  if (s->shares <= s->n) return t;
  for (;;)
    for (i = 0; i < s->n; i++) {
      int free_ = 0;
      if (__atomic_compare_exchange_n(&s->busy[i], &free_, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) return i;
    }
#else
  (void)s;
  return t;
#endif
}

static void ge__aic_slot_release(ge__aic_slots *s, int64_t slot) {
#if defined(__GNUC__) || defined(__clang__)
  if (s->shares > s->n) __atomic_store_n(&s->busy[slot], 0, __ATOMIC_RELEASE);
#endif
  (void)s, (void)slot;
}

/* Threads: g's rows or columns split into `tasks` shares on whole tiles;
 * a share packs into one of the slots' buffers (ge__aic_mm_work_floats()
 * floats each). */
typedef struct ge__aic_par {
  const ge__aic_mm *g;
  float *work;
  int64_t tasks, unit;
  int split_n;
  ge__aic_slots slots;
} ge__aic_par;

static void ge__aic_par_fn(void *arg, int64_t begin, int64_t end) {
  ge__aic_par *p = (ge__aic_par *)arg;
  const ge__aic_mm *g = p->g;
  int64_t t, total = p->split_n ? g->N : g->M, units = (total + p->unit - 1) / p->unit;
  for (t = begin; t < end; t++) {
    int64_t a = units * t / p->tasks * p->unit, b = ge__aic_min(total, units * (t + 1) / p->tasks * p->unit);
    int64_t slot = ge__aic_slot_claim(&p->slots, t);
    float *w = p->work + (size_t)slot * ge__aic_mm_work_floats();
    if (p->split_n) ge__aic_mm_block(g, 0, g->M, a, b, w);
    else ge__aic_mm_block(g, a, b, 0, g->N, w);
    ge__aic_slot_release(&p->slots, slot);
  }
}

/* Runs g over up to `tasks` threads of c (c NULL: this thread); work
 * holds tasks * ge__aic_mm_work_floats() floats. Columns are split when
 * there are enough of them (so a prepacked A is shared, each thread packing
 * its own B), else rows. */
/* fn over shares [0, tasks): inline when there is one (no hand-off), else
 * on the kernel's threads. */
static void ge__aic_on_tasks(ge_kernel_ctx *c, int64_t tasks, ge_parallel_fn fn, void *arg) {
  if (tasks <= 1) fn(arg, 0, 1);
  else ge_kernel_parallel_for(c, tasks, 1, fn, arg);
}

/* A product of a few rows against a prepacked B of at least 1 MB (a
 * classifier's fc layer: 1 x 512 x 1000) streams B's bytes rather than
 * computes: below the flops that pay a hand-off, but its columns split
 * over threads read B's halves at once (measured 1.5-1.8x on 2 threads). */
static int ge__aic_mm_streams(const ge__aic_mm *g) {
  return g->bpack && g->M <= GE__AIC_SKINNY_ROWS && (double)g->K * (double)g->N >= 262144.0;
}

static void ge__aic_mm_run(ge_kernel_ctx *c, const ge__aic_mm *g, int64_t tasks, float *work) {
  ge__aic_par p;
  int64_t mu = (g->M + g->k->mr - 1) / g->k->mr, nu = (g->N + g->k->nr - 1) / g->k->nr;
  double flops = 2.0 * (double)g->M * (double)g->N * (double)g->K;
  if (tasks <= 1 || !c || (flops < 2e6 && !ge__aic_mm_streams(g)) || (mu < 2 && nu < 2)) {
    ge__aic_mm_block(g, 0, g->M, 0, g->N, work);
    return;
  }
  p.g = g;
  p.work = work;
  p.split_n = g->bpack ? mu < 2 * tasks && nu >= mu : nu >= 2 * tasks || nu >= mu;
  p.unit = p.split_n ? g->k->nr : g->k->mr;
  /* a share packs the operand it does not split (unless prepacked): keep
   * those shares wide enough that the repacking stays small */
  p.tasks = ge__aic_shares(tasks, p.split_n ? nu : mu, (p.split_n ? !g->apack : !g->bpack) ? 8 : 2, flops);
  ge__aic_slots_init(&p.slots, p.tasks, tasks);
  ge_kernel_parallel_for(c, p.tasks, 1, ge__aic_par_fn, &p);
}

static size_t ge__aic_gemm_work_floats(int64_t M, int64_t N, int64_t K) {
  if (M <= 0 || N <= 0 || K <= 0) return 0;
  return ge__aic_mm_work_floats();
}

/* Our SGEMM on strided operands, on this thread. */
static void ge__aic_sgemm_own(int64_t M, int64_t N, int64_t K, float alpha, const float *A, int64_t ars, int64_t acs,
                              const float *B, int64_t brs, int64_t bcs, float beta, float *C, int64_t ldc,
                              float *work) {
  ge__aic_mm g;
  memset(&g, 0, sizeof g);
  g.k = ge__aic_kern_pick(2);
  g.M = M, g.N = N, g.K = K, g.alpha = alpha, g.beta = beta;
  g.A = A, g.ars = ars, g.acs = acs;
  g.B = B, g.brs = brs, g.bcs = bcs;
  g.C = C, g.ldc = ldc;
  ge__aic_mm_block(&g, 0, M, 0, N, work);
}

GE_API size_t ge_ai_core_sgemm_work_size(int64_t M, int64_t N, int64_t K) {
  size_t f = ge__aic_gemm_work_floats(M, N, K);
  return f ? f * sizeof(float) : 0;
}

GE_API void ge_ai_core_sgemm(int trans_a, int trans_b, int64_t M, int64_t N, int64_t K, float alpha, const float *A,
                             int64_t lda, const float *B, int64_t ldb, float beta, float *C, int64_t ldc, void *work) {
  if (M <= 0 || N <= 0) return;
  ge__aic_sgemm_own(M, N, K, alpha, A, trans_a ? 1 : lda, trans_a ? lda : 1, B, trans_b ? 1 : ldb, trans_b ? ldb : 1,
                    beta, C, ldc, (float *)work);
}

#ifdef GE_USE_OPENBLAS
/* The kernels' GEMM: OpenBLAS when GE_USE_OPENBLAS, else ours. */
static void ge__aic_gemm(int64_t M, int64_t N, int64_t K, float alpha, const float *A, int64_t ars, int64_t acs,
                         const float *B, int64_t brs, int64_t bcs, float beta, float *C, int64_t ldc, float *work) {
  if (M > 0 && N > 0 && K > 0) {
    enum CBLAS_TRANSPOSE ta, tb;
    int64_t lda, ldb;
    if (acs == 1 && ars >= K) ta = CblasNoTrans, lda = ars;
    else if (ars == 1 && acs >= M) ta = CblasTrans, lda = acs;
    else ta = CblasNoTrans, lda = -1;
    if (bcs == 1 && brs >= N) tb = CblasNoTrans, ldb = brs;
    else if (brs == 1 && bcs >= K) tb = CblasTrans, ldb = bcs;
    else tb = CblasNoTrans, ldb = -1;
    if (lda > 0 && ldb > 0) {
      cblas_sgemm(CblasRowMajor, ta, tb, (blasint)M, (blasint)N, (blasint)K, alpha, A, (blasint)lda, B, (blasint)ldb,
                  beta, C, (blasint)ldc);
      return;
    }
    { /* strides BLAS cannot express (never produced by the kernels): plain loops */
      int64_t i, j, k;
      for (i = 0; i < M; i++)
        for (j = 0; j < N; j++) {
          float acc = 0.0f;
          for (k = 0; k < K; k++) acc += A[i * ars + k * acs] * B[k * brs + j * bcs];
          C[i * ldc + j] = alpha * acc + (beta == 0.0f ? 0.0f : beta * C[i * ldc + j]);
        }
      return;
    }
  }
  ge__aic_sgemm_own(M, N, K, alpha, A, ars, acs, B, brs, bcs, beta, C, ldc, work);
}
#endif

/* ------------------------------------------------------ kernel state */

/* c->state: this header, then a 64-byte aligned area: the packed constant
 * operand (pack_floats, rounded to 64 bytes), then scratch. Attributes are
 * parsed and the constant operand packed once: at load (the prepare call,
 * GE_KERNEL_PREPARE, which returns before computing) or at the first run. */
/* An Einsum's product, worked out once per pair of operand shapes (the
 * equation is parsed and the labels sorted only when the shapes change). */
typedef struct ge__aic_ein_plan {
  int made, fast;                                /* fast 0: the reference runs it */
  int32_t ra, rb, orank;                         /* the operand and output ranks */
  int64_t adims[GE_MAX_RANK], bdims[GE_MAX_RANK]; /* the operand shapes it was made for */
  int64_t odims[GE_MAX_RANK];
  int64_t nb, M, N, K;                           /* batch, rows, columns, sums */
  int small, a_in_place, a_t, b_in_place, b_t, y_in_place;
  int32_t pa[GE_MAX_RANK], pb[GE_MAX_RANK], py[GE_MAX_RANK]; /* into and out of [batch, rows, cols] order */
} ge__aic_ein_plan;

typedef struct ge__aic_state {
  size_t cap;         /* bytes of the area */
  size_t pack_floats; /* the packed operand's floats */
  int packed_level;   /* micro-kernel level + 1 it was packed for; 0: none */
  signed char in_const[4]; /* per input: 0 not known yet, 1 varies, 2 a Const (found once) */
  ge__aic_act act;
  int fused_res; /* _fused_inputs: Conv's input 3 is a residual to add, MatMul's input 2 a bias */
  /* Conv's input prologue (_pre_affine [2, pre_c]: scale, shift; then Relu
   * if pre_relu); pre_bad: the attributes are malformed */
  const float *pre;
  int64_t pre_c;
  int pre_relu, pre_bad;
  /* Conv */
  int64_t group, s[3], d[3], pads[6], ks[3]; /* up to 3 spatial dims */
  int32_t n_s, n_d, n_pads, n_ks;
  int auto_pad; /* 0 NOTSET, 1 SAME_UPPER, 2 SAME_LOWER, 3 VALID, -1 unknown */
  /* ConvTranspose */
  int64_t opad[2], oshape[4];
  int32_t n_opad, n_oshape;
  /* Gemm */
  int trans_a, trans_b;
  float alpha, beta;
  ge__aic_ein_plan ein;
} ge__aic_state;

static int32_t ge__aic_ints(const ge_node *n, const char *name, int64_t *out, int32_t cap) {
  const int64_t *v = NULL;
  int32_t cnt = ge_node_attr_ints(n, name, &v), i;
  for (i = 0; i < cnt && i < cap; i++) out[i] = v[i];
  return cnt;
}

/* A Conv's input prologue, made by the optimiser (ge__aic_fuse_pre). */
static void ge__aic_pre_parse(const ge_node *n, ge__aic_state *s) {
  const ge_attr *a = ge_node_attr(n, "_pre_affine");
  const char *act = ge_node_attr_string(n, "_pre_activation", "");
  const ge_tensor *t = a && a->type == GE_ATTR_TENSOR ? a->v.t : NULL;
  if (!a && !*act) return;
  s->pre_bad = !t || !t->data || t->dtype != GE_DTYPE_FLOAT32 || t->rank != 2 || t->dims[0] != 2 ||
               t->nbytes != (size_t)(2 * t->dims[1]) * sizeof(float) || (*act && strcmp(act, "Relu"));
  if (s->pre_bad) return;
  s->pre = (const float *)t->data, s->pre_c = t->dims[1], s->pre_relu = *act != 0;
}

static ge__aic_state *ge__aic_state_new(ge_kernel_ctx *c) {
  ge__aic_state *s = (ge__aic_state *)malloc(sizeof(ge__aic_state) + 64);
  const ge_node *n = c->node;
  const char *ap;
  if (!s) return NULL;
  memset(s, 0, sizeof *s);
  ge__aic_act_parse(n, &s->act);
  s->fused_res = ge_node_attr_int(n, GE_ATTR_FUSED_INPUTS, 0) != 0;
  ge__aic_pre_parse(n, s);
  s->group = ge_node_attr_int(n, "group", 1);
  s->n_s = ge__aic_ints(n, "strides", s->s, 3);
  s->n_d = ge__aic_ints(n, "dilations", s->d, 3);
  s->n_pads = ge__aic_ints(n, "pads", s->pads, 6);
  s->n_ks = ge__aic_ints(n, "kernel_shape", s->ks, 3);
  s->n_opad = ge__aic_ints(n, "output_padding", s->opad, 2);
  s->n_oshape = ge__aic_ints(n, "output_shape", s->oshape, 4);
  ap = ge_node_attr_string(n, "auto_pad", "NOTSET");
  s->auto_pad = (!*ap || !strcmp(ap, "NOTSET")) ? 0 : !strcmp(ap, "SAME_UPPER") ? 1 : !strcmp(ap, "SAME_LOWER") ? 2
                : !strcmp(ap, "VALID")                                          ? 3
                                                                                : -1;
  s->trans_a = ge_node_attr_int(n, "transA", 0) != 0;
  s->trans_b = ge_node_attr_int(n, "transB", 0) != 0;
  s->alpha = (float)ge_node_attr_float(n, "alpha", 1.0);
  s->beta = (float)ge_node_attr_float(n, "beta", 1.0);
  c->state = s;
  return s;
}

static ge__aic_state *ge__aic_state_get(ge_kernel_ctx *c) {
  return c->state ? (ge__aic_state *)c->state : ge__aic_state_new(c);
}

static float *ge__aic_area_of(ge__aic_state *s) { return (float *)(((uintptr_t)(s + 1) + 63) & ~(uintptr_t)63); }
static float *ge__aic_pack_area(ge_kernel_ctx *c) { return ge__aic_area_of((ge__aic_state *)c->state); }
static size_t ge__aic_pack_bytes(const ge__aic_state *s) { return (s->pack_floats * sizeof(float) + 63) & ~(size_t)63; }

/* Grows the area to `bytes`, keeping the packed operand (NULL: no memory). */
static ge__aic_state *ge__aic_grow(ge_kernel_ctx *c, size_t bytes) {
  ge__aic_state *s = ge__aic_state_get(c), *t;
  size_t old_off;
  if (!s) return NULL;
  if (bytes <= s->cap) return s;
  old_off = (size_t)((char *)ge__aic_area_of(s) - (char *)s);
  if (!(t = (ge__aic_state *)realloc(s, sizeof(ge__aic_state) + 64 + bytes))) return NULL;
  c->state = t;
  if ((size_t)((char *)ge__aic_area_of(t) - (char *)t) != old_off && t->pack_floats)
    memmove(ge__aic_area_of(t), (char *)t + old_off, ge__aic_pack_bytes(t));
  t->cap = bytes;
  return t;
}

/* At least `floats` floats of 64-byte aligned scratch after the packed
 * operand (NULL: no memory); valid until the next call. */
static float *ge__aic_scratch(ge_kernel_ctx *c, size_t floats) {
  ge__aic_state *s = ge__aic_state_get(c);
  if (!s || !(s = ge__aic_grow(c, ge__aic_pack_bytes(s) + floats * sizeof(float)))) return NULL;
  return ge__aic_area_of(s) + ge__aic_pack_bytes(s) / sizeof(float);
}

/* Room for a packed operand of `floats` floats (forgets the old one). */
static float *ge__aic_pack_reserve(ge_kernel_ctx *c, size_t floats) {
  ge__aic_state *s = ge__aic_state_get(c);
  if (!s) return NULL;
  s->pack_floats = 0;
  s->packed_level = 0;
  if (!(s = ge__aic_grow(c, (floats * sizeof(float) + 63) & ~(size_t)63))) return NULL;
  s->pack_floats = floats;
  return ge__aic_area_of(s);
}

static ge_status ge__aic_nomem(ge_kernel_ctx *c) { return ge_kernel_error(c, GE_ERR_NOMEM, "out of memory"); }

static const ge_value *ge__aic_in(const ge_kernel_ctx *c, uint32_t i) { return i < c->num_inputs ? c->inputs[i] : NULL; }

static int ge__aic_f32(const ge_value *v) { return !v || v->dtype == GE_DTYPE_FLOAT32; }

/* A residual to add before the activation (input 3 when fused, i.e.
 * _fused_inputs = 1), shaped like y. */
static ge_status ge__aic_residual(ge_kernel_ctx *c, int fused, const ge_value *y, const float **res) {
  const ge_value *r = ge__aic_in(c, 3);
  int32_t i;
  *res = NULL;
  if (!fused) return GE_OK;
  if (!r) return ge_kernel_error(c, GE_ERR_INVALID, "_fused_inputs = 1 but input 3 (the residual) is missing");
  if (r->dtype != GE_DTYPE_FLOAT32 || r->rank != y->rank)
    return ge_kernel_error(c, GE_ERR_SHAPE, "residual input must be float32 shaped like the output");
  for (i = 0; i < r->rank; i++)
    if (r->dims[i] != y->dims[i])
      return ge_kernel_error(c, GE_ERR_SHAPE, "residual dim %d differs from the output", (int)i);
  *res = (const float *)r->data;
  return GE_OK;
}

/* The reference kernel, then the fused residual and activation (float32
 * outputs only). */
static ge_status ge__aic_reference(ge_kernel_ctx *c) {
  ge__aic_act a;
  ge_status st;
  ge_kernel_ctx rc = *c;
  int fused_res = ge_node_attr_int(c->node, GE_ATTR_FUSED_INPUTS, 0) != 0;
  if (fused_res && rc.num_inputs > 3) rc.num_inputs = 3; /* the residual is ours, not the op's */
  st = ge_host_cpu_run_reference(&rc); /* our state stays ours; the reference's is rc.ref_state */
  c->ref_state = rc.ref_state;
  if (st != GE_OK || ge_kernel_preparing(c)) return st;
  ge__aic_act_parse(c->node, &a);
  if (a.kind == GE__AIC_ACT_BAD) return ge_kernel_error(c, GE_ERR_INVALID, "unknown _fused_activation");
  if (a.kind == GE__AIC_ACT_NONE && !fused_res) return GE_OK;
  if (c->num_outputs < 1 || !c->outputs[0] || c->outputs[0]->dtype != GE_DTYPE_FLOAT32)
    return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "a fused activation or residual needs a float32 output");
  if (fused_res) {
    const float *r;
    int64_t i;
    float *y = (float *)c->outputs[0]->data;
    if ((st = ge__aic_residual(c, 1, c->outputs[0], &r)) != GE_OK) return st;
    for (i = 0; i < c->outputs[0]->numel; i++) y[i] += r[i];
  }
  ge__aic_act_apply(&a, (float *)c->outputs[0]->data, c->outputs[0]->numel);
  return GE_OK;
}

static ge_status ge__aic_finish(ge_kernel_ctx *c, const ge__aic_state *s, ge_value *y) {
  if (s->act.kind == GE__AIC_ACT_BAD) return ge_kernel_error(c, GE_ERR_INVALID, "unknown _fused_activation");
  if (!ge_kernel_preparing(c)) ge__aic_act_apply(&s->act, (float *)y->data, y->numel);
  return GE_OK;
}

/* Whether input i of the node comes from a Const (so its value never
 * changes and may be packed once), of this graph or, through a branch's or
 * call body's Data, of an enclosing one. */
static int ge__aic_input_const(const ge_kernel_ctx *c, uint32_t i) {
  ge__aic_state *s = (ge__aic_state *)c->state;
  const ge_node *p;
  int yes;
  if (!c->graph || i >= c->node->num_inputs || c->node->inputs[i].node == GE_NONE) return 0;
  if (s && i < 4 && s->in_const[i]) return s->in_const[i] == 2;
  p = ge_graph_input_origin(c->graph, c->node, i, NULL);
  yes = p && !strcmp(p->op, "Const");
  if (s && i < 4) s->in_const[i] = (signed char)(yes ? 2 : 1);
  return yes;
}

/* A constant operand packed by fn(arg, dst) into `floats` floats: packed
 * once into the state when input `input` is a Const, else into scratch on
 * every call. *scratch receives scratch_floats floats of scratch. NULL: no
 * memory. */
typedef void (*ge__aic_pack_fn)(const void *arg, float *dst);

static const float *ge__aic_packed(ge_kernel_ctx *c, uint32_t input, int level, size_t floats, ge__aic_pack_fn fn,
                                   const void *arg, size_t scratch_floats, float **scratch) {
  ge__aic_state *s = ge__aic_state_get(c);
  float *dst;
  if (!s) return NULL;
  if (ge__aic_input_const(c, input)) {
    int fresh = s->packed_level == level + 1 && s->pack_floats == floats;
    if (!fresh && !ge__aic_pack_reserve(c, floats)) return NULL;
    if (!(*scratch = ge__aic_scratch(c, scratch_floats))) return NULL;
    dst = ge__aic_pack_area(c);
    if (!fresh) {
      fn(arg, dst);
      ((ge__aic_state *)c->state)->packed_level = level + 1;
    }
    return dst;
  }
  if (!(*scratch = ge__aic_scratch(c, (scratch_floats + 15) / 16 * 16 + floats))) return NULL;
  dst = *scratch + (scratch_floats + 15) / 16 * 16;
  if (!ge_kernel_preparing(c)) fn(arg, dst); /* a varying operand's bytes come with the run */
  return dst;
}

/* ---------------------------------------------------------------- Conv */

static int64_t ge__aic_floordiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

/* Conv's and ConvTranspose's output [N, M, ((OZ,) OH,) OW] (rank 3: 1-D). */
static ge_value *ge__aic_conv_output(ge_kernel_ctx *c, const ge__aic_cv *p, int32_t rank) {
  int64_t dims[5];
  dims[0] = p->n, dims[1] = p->m;
  if (rank == 3) dims[2] = p->ow;
  else if (rank == 4) dims[2] = p->oh, dims[3] = p->ow;
  else dims[2] = p->oz, dims[3] = p->oh, dims[4] = p->ow;
  return ge_kernel_output(c, 0, GE_DTYPE_FLOAT32, rank, dims);
}

static ge_status ge__aic_conv_setup(ge_kernel_ctx *c, const ge__aic_state *s, const ge_value *x, const ge_value *w,
                                    const ge_value *b, ge__aic_cv *p) {
  int32_t r = x->rank - 2, i;
  int64_t in[3] = {1, 1, 1}, k[3] = {1, 1, 1}, out[3] = {1, 1, 1}, pb[3] = {0, 0, 0}, st[3] = {1, 1, 1};
  int64_t dl[3] = {1, 1, 1};
  memset(p, 0, sizeof *p);
  if (r < 1 || r > 3) return ge_kernel_error(c, GE_ERR_SHAPE, "spatial rank %d not supported here", (int)r);
  if (w->rank != x->rank)
    return ge_kernel_error(c, GE_ERR_SHAPE, "weight rank %d differs from input rank %d", (int)w->rank, (int)x->rank);
  if (s->auto_pad < 0) return ge_kernel_error(c, GE_ERR_INVALID, "unknown auto_pad");
  if ((s->n_s >= 0 && s->n_s != r) || (s->n_d >= 0 && s->n_d != r) || (s->n_pads >= 0 && s->n_pads != 2 * r) ||
      (s->n_ks >= 0 && s->n_ks != r))
    return ge_kernel_error(c, GE_ERR_INVALID, "strides, dilations, pads or kernel_shape has the wrong length");
  p->n = x->dims[0];
  p->c = x->dims[1];
  p->m = w->dims[0];
  p->group = s->group;
  if (p->group < 1) return ge_kernel_error(c, GE_ERR_INVALID, "group must be >= 1");
  if (p->c % p->group || w->dims[1] * p->group != p->c || p->m % p->group)
    return ge_kernel_error(c, GE_ERR_SHAPE, "weight [%lld, %lld, ...] does not fit %lld channels in %lld groups",
                           (long long)w->dims[0], (long long)w->dims[1], (long long)p->c, (long long)p->group);
  if (b && b->numel != p->m)
    return ge_kernel_error(c, GE_ERR_SHAPE, "bias has %lld elements for %lld output channels", (long long)b->numel,
                           (long long)p->m);
  p->cg = p->c / p->group;
  p->mg = p->m / p->group;
  for (i = 0; i < r; i++) {
    int64_t pa = s->n_pads >= 0 ? s->pads[i] : 0, pe = s->n_pads >= 0 ? s->pads[r + i] : 0, eff, total;
    in[i] = x->dims[2 + i];
    k[i] = w->dims[2 + i];
    st[i] = s->n_s >= 0 ? s->s[i] : 1;
    dl[i] = s->n_d >= 0 ? s->d[i] : 1;
    if (s->n_ks >= 0 && s->ks[i] != k[i])
      return ge_kernel_error(c, GE_ERR_SHAPE, "kernel_shape %lld differs from the weight's %lld", (long long)s->ks[i],
                             (long long)k[i]);
    if (st[i] < 1 || dl[i] < 1 || st[i] > ((int64_t)1 << 31) || dl[i] > ((int64_t)1 << 31))
      return ge_kernel_error(c, GE_ERR_INVALID, "strides and dilations must be in [1, 2^31]");
    if (pa < 0 || pe < 0 || pa > ((int64_t)1 << 31) || pe > ((int64_t)1 << 31))
      return ge_kernel_error(c, GE_ERR_INVALID, "pads must be in [0, 2^31]");
    if (k[i] < 1 || k[i] > ((int64_t)1 << 31) || in[i] > ((int64_t)1 << 31))
      return ge_kernel_error(c, GE_ERR_SHAPE, "spatial dims out of range");
    eff = (k[i] - 1) * dl[i] + 1;
    if (s->auto_pad == 0) {
      pb[i] = pa;
      out[i] = ge__aic_floordiv(in[i] + pa + pe - eff, st[i]) + 1;
    } else if (s->auto_pad == 3) {
      pb[i] = 0;
      out[i] = ge__aic_floordiv(in[i] - eff, st[i]) + 1;
    } else {
      out[i] = (in[i] + st[i] - 1) / st[i];
      total = (out[i] - 1) * st[i] + eff - in[i];
      if (total < 0) total = 0;
      pb[i] = s->auto_pad == 1 ? total / 2 : total - total / 2;
    }
    if (out[i] < 1)
      return ge_kernel_error(c, GE_ERR_SHAPE, "spatial dim %d: output size %lld for input %lld, kernel %lld", (int)i,
                             (long long)out[i], (long long)in[i], (long long)k[i]);
  }
  p->z = p->kz = p->sz = p->dz = p->oz = 1;
  if (r == 3) {
    p->z = in[0], p->kz = k[0], p->sz = st[0], p->dz = dl[0], p->pz = pb[0], p->oz = out[0];
    for (i = 0; i < 2; i++) in[i] = in[i + 1], k[i] = k[i + 1], st[i] = st[i + 1], dl[i] = dl[i + 1], pb[i] = pb[i + 1],
                           out[i] = out[i + 1];
  }
  if (r == 1) {
    p->h = p->kh = p->sh = p->dh = p->oh = 1;
    p->ph = 0;
    p->w = in[0], p->kw = k[0], p->sw = st[0], p->dw = dl[0], p->pw = pb[0], p->ow = out[0];
  } else {
    p->h = in[0], p->kh = k[0], p->sh = st[0], p->dh = dl[0], p->ph = pb[0], p->oh = out[0];
    p->w = in[1], p->kw = k[1], p->sw = st[1], p->dw = dl[1], p->pw = pb[1], p->ow = out[1];
  }
  return GE_OK;
}

/* Image n, group g of a Conv: its first input channel (returned), its
 * first output row (*yg), and the epilogue's bias and residual rows. */
static const float *ge__aic_conv_group(const ge__aic_cv *p, const ge_value *x, const ge_value *b, const float *res,
                                       ge_value *y, int64_t n, int64_t g, ge__aic_epi *epi, float **yg) {
  int64_t P = p->oz * p->oh * p->ow, first = n * p->m + g * p->mg;
  *yg = (float *)y->data + first * P;
  epi->row_bias = b ? (const float *)b->data + g * p->mg : NULL;
  epi->res = res ? res + first * P : NULL;
  return (const float *)x->data + (n * p->c + g * p->cg) * p->z * p->h * p->w;
}

/* Depthwise (one input channel per group) as a direct kernel. Per output
 * channel, in bands of output rows: the zero-padded input rows a band needs
 * are scattered into a small buffer that stays in L1, split by stride
 * phase (phase block (r % sh, c % sw) holds padded pixel (r, c) at
 * (r / sh, c / sw), rows of L floats, a whole number of vectors, the
 * buffer shifted so that the most taps read whole cache lines), so every
 * tap of an output vector reads one contiguous run whatever the strides
 * and dilations (3x3 stride 1 at AVX-512: ge__aic_dw3_band). Each output
 * vector sums its taps in a register, gets the bias, residual and
 * activation there (those needing exp, SiLU's, over the band's rows just
 * after, still in L1) and is stored once, straight into y (a row's tail
 * through a partial copy). Output vectors are taken eight at a time (eight
 * FMA chains in flight) across row ends, so short rows keep the FMA units
 * busy too; rows of at most 8 (4) use 8-wide (4-wide) vectors. Past 64
 * taps a row kernel. Channels split over threads in four shares a thread,
 * claimed as threads come free (each share takes a free band buffer). */

#define GE__AIC_DW_TAPS 64
#define GE__AIC_DW_ATTR512 __attribute__((target("avx512f")))
#define GE__AIC_DW_BAND 6144 /* floats of the band buffer to aim for (it stays in L1) */

/* One output vector of a band: taps read tp[t] + src, the sum goes to
 * out[0..n) (offsets from the band's first output row). */
typedef struct ge__aic_dwjob {
  int64_t src, out, n;
} ge__aic_dwjob;

/* The band geometry of one depthwise conv at one vector length. */
typedef struct ge__aic_dwg {
  int64_t L;     /* floats per row of a phase block */
  int64_t band;  /* output rows per band */
  int64_t block; /* floats per phase block of a band */
  int64_t buf;   /* floats of the band buffer, with slack for a vector read past the last row */
  int64_t vl;    /* vector length */
  int64_t per;   /* output vectors per row */
} ge__aic_dwg;

static int64_t ge__aic_dw_vl(int level, int64_t ow) {
#ifdef GE__AIC_VEC
  if (level >= 2 && ow > 8) return 16;
  if (level >= 1 && ow > 4) return 8;
  return 4;
#else
  (void)level, (void)ow;
  return 1;
#endif
}

static void ge__aic_dw_geom(const ge__aic_cv *p, int level, ge__aic_dwg *g) {
  int64_t wp = (p->ow - 1) * p->sw + (p->kw - 1) * p->dw + 1, ext = ((p->kh - 1) * p->dh + 1 + p->sh - 1) / p->sh;
  int64_t row = p->sh * p->sw; /* phase blocks: each band row of L floats appears in every one */
  if (wp < p->w + p->pw) wp = p->w + p->pw;
  g->L = ge__aic_round_up((wp + p->sw - 1) / p->sw, 16); /* whole vectors: a row's taps share their alignment */
  g->band = GE__AIC_DW_BAND / (row * g->L) - ext + 1;
  if (g->band > p->oh) g->band = p->oh;
  if (g->band < 1) g->band = 1;
  g->block = (g->band - 1 + ext) * g->L;
  g->buf = (row * g->block + 32 + 15) / 16 * 16; /* a vector read past the last row; the aligning shift */
  g->vl = ge__aic_dw_vl(level, p->ow);
  g->per = (p->ow + g->vl - 1) / g->vl;
}

/* Channel-blocked 3x3, 5x5 and 7x7 depthwise for small maps (AVX-512; the padded image
 * at most GE__AIC_DWC_PIXELS pixels, one input channel per output channel):
 * 16 channels at a time are transposed into a zero-padded pixel-major
 * block (pixel (r, c)'s 16 channels in one vector), every output pixel sums
 * its nine taps over 16 lanes of channels (no row ends, no partial vectors,
 * no scatter per row), and the block is transposed back into the 16 output
 * planes; the sum starts from the bias, the residual and activation follow
 * per plane. Taken where the band kernel spends most of its time on
 * per-row work: strided (the phase split of every row) or rows of at most
 * 8 (half-width vectors); on stride-1 14x14 and 28x28 maps the two
 * transposes cost more than they save (measured). 5x5 (EfficientNet's,
 * MnasNet's) the same way (ge__aic_dwc_sumk; measured on EfficientNet-B0:
 * 10-15% faster strided and on 7x7, 40% slower on stride-1 14x14). */
#define GE__AIC_DWC_PIXELS 1024
/* 7x7 (ConvNeXt's) at any stride and on maps up to 62x62 padded (a 440 KB
 * block in L2): its 49 taps outweigh the transposes (build/conv_bench 5
 * "cnx", 1 thread, against the band kernel: 96 channels on 56x56 0.46 ->
 * 0.36 ms, 192 on 28x28 0.24 -> 0.17, 384 on 14x14 0.150 -> 0.101, 768
 * on 7x7 0.136 -> 0.074). */
#define GE__AIC_DWC7_PIXELS 4096

/* Rows and columns of the padded block: every tap read and every pixel. */
static int64_t ge__aic_dwc_hp(const ge__aic_cv *p) {
  int64_t e = (p->oh - 1) * p->sh + (p->kh - 1) * p->dh + 1;
  return e > p->h + p->ph ? e : p->h + p->ph;
}
static int64_t ge__aic_dwc_wp(const ge__aic_cv *p) {
  int64_t e = (p->ow - 1) * p->sw + (p->kw - 1) * p->dw + 1;
  return e > p->w + p->pw ? e : p->w + p->pw;
}

static int ge__aic_dwc_fits(const ge__aic_cv *p, int level) {
#ifdef GE__AIC_X86
  int64_t hp = ge__aic_dwc_hp(p), wp = ge__aic_dwc_wp(p);
  int k3 = p->kh == 3 && p->kw == 3, k5 = p->kh == 5 && p->kw == 5, k7 = p->kh == 7 && p->kw == 7;
  int64_t lim = k7 ? GE__AIC_DWC7_PIXELS : GE__AIC_DWC_PIXELS;
  return level >= 2 && (k3 || k5 || k7) && p->cg == 1 && p->mg == 1 && (p->sh * p->sw > 1 || p->ow <= 8 || k7) &&
         hp <= lim && wp <= lim && hp * wp <= lim && p->oh * p->ow <= lim;
#else
  (void)p, (void)level;
  return 0;
#endif
}

/* The padded input block, then the output block. */
static size_t ge__aic_dwc_floats(const ge__aic_cv *p) {
  return (size_t)(ge__aic_dwc_hp(p) * ge__aic_dwc_wp(p) + p->oh * p->ow) * 16 + 16;
}

/* Floats of scratch one thread of the depthwise kernel needs: the band
 * buffer, then a band's jobs (0: taps past GE__AIC_DW_TAPS); the
 * channel-blocked kernel's blocks where it runs. */
static size_t ge__aic_dw_floats(const ge__aic_cv *p, int level) {
  ge__aic_dwg g;
  if (ge__aic_dwc_fits(p, level)) return ge__aic_dwc_floats(p);
  if (p->kh * p->kw > GE__AIC_DW_TAPS) return 0;
  ge__aic_dw_geom(p, level, &g);
  return (size_t)g.buf + ((size_t)(g.band * g.per) * sizeof(ge__aic_dwjob) + 63) / 64 * 16;
}

/* y[job] = act(bias + sum_t tw[t] * tp[t][job.src] + res[job]) for every
 * job (in ascending order of out; nj >= 1): eight output vectors at a time
 * (eight FMA chains), then four, then one; without a residual the rest
 * is one block ending at the last job (overlapping done ones, which store
 * the same values again, later jobs after earlier ones). A row's partial vector is
 * stored whole when the lanes past it belong to a later job of this call
 * (which overwrites them; not with a residual, which may be y itself); the
 * others go through a copy. */
#define GE__AIC_DWK_DECL(u)                                                                                            \
  VZ_ a##u = z_;                                                                                                       \
  const int64_t s##u = jb[k + (u)].src;
#define GE__AIC_DWK_FMA(u)                                                                                             \
  memcpy(&v_, s_ + s##u, sizeof v_);                                                                                   \
  a##u += w_ * v_;
#define GE__AIC_DWK_OUTX(u, LATE)                                                                                      \
  {                                                                                                                    \
    const ge__aic_dwjob *j_ = jb + k + (u);                                                                            \
    if (j_->n == (int64_t)(sizeof(VZ_) / sizeof(float)) || j_->out + (int64_t)(sizeof(VZ_) / sizeof(float)) <= lim) { \
      GE__AIC_EPI_VEC(VZ_, VI_, a##u, q, res + j_->out)                                                                \
      LATE(a##u)                                                                                                       \
      memcpy(y + j_->out, &a##u, sizeof a##u);                                                                         \
    } else {                                                                                                           \
      float tv_[sizeof(VZ_) / sizeof(float)], tq_[sizeof(VZ_) / sizeof(float)] = {0};                                  \
      int64_t e_;                                                                                                      \
      if (res)                                                                                                         \
        for (e_ = 0; e_ < j_->n; e_++) tq_[e_] = res[j_->out + e_];                                                    \
      GE__AIC_EPI_VEC(VZ_, VI_, a##u, q, tq_)                                                                          \
      LATE(a##u)                                                                                                       \
      memcpy(tv_, &a##u, sizeof a##u);                                                                                 \
      for (e_ = 0; e_ < j_->n; e_++) y[j_->out + e_] = tv_[e_];                                                        \
    }                                                                                                                  \
  }
#define GE__AIC_DWK_OUT_avx512(u) GE__AIC_DWK_OUTX(u, GE__AIC_SILU_V16)
#define GE__AIC_DWK_OUT_avx2(u) GE__AIC_DWK_OUTX(u, GE__AIC_NO_LATE)
#define GE__AIC_DWK_OUT_base(u) GE__AIC_DWK_OUTX(u, GE__AIC_NO_LATE)
#define GE__AIC_DWK_BLOCK(UNITS, OUT)                                                                                  \
  {                                                                                                                    \
    VZ_ v_, w_;                                                                                                        \
    UNITS(GE__AIC_DWK_DECL)                                                                                            \
    for (t = 0; t < nt; t++) {                                                                                         \
      const float *s_ = tp[t];                                                                                         \
      w_ = z_ + tw[t];                                                                                                 \
      UNITS(GE__AIC_DWK_FMA)                                                                                           \
    }                                                                                                                  \
    UNITS(OUT)                                                                                                         \
  }
#define GE__AIC_DW_U1(X) X(0)
#define GE__AIC_DW_U4(X) X(0) X(1) X(2) X(3)
#define GE__AIC_DW_U8(X) GE__AIC_DW_U4(X) X(4) X(5) X(6) X(7)
/* kind SiLU reaches only the AVX-512 copy (GE__AIC_SILU_V16 applies it). */
#define GE__AIC_DWK(S, ATTR, VT, VI)                                                                                   \
  static ATTR void ge__aic_dwk_##S(const ge__aic_dwjob *jb, int64_t nj, const float *const *tp, const float *tw,      \
                                   int nt, float bias, float *y, const float *res, int kind, float lo, float hi) {     \
    typedef VT VZ_;                                                                                                    \
    typedef VI VI_;                                                                                                    \
    const VT z_ = {0};                                                                                                 \
    const int64_t lim = res ? 0 : jb[nj - 1].out + jb[nj - 1].n; /* a residual may share y's bytes: no spill */     \
    const int silu_ = kind == GE__AIC_ACT_SILU;                                                                        \
    VT vb = z_ + bias, vlo = z_ + (kind == GE__AIC_ACT_RELU ? 0.0f : lo), vhi = z_ + hi, vz = z_, vone = z_ + 1.0f, q; \
    int64_t k = 0;                                                                                                     \
    int t;                                                                                                             \
    if (silu_) kind = GE__AIC_ACT_NONE;                                                                                \
    for (; k + 8 <= nj; k += 8) GE__AIC_DWK_BLOCK(GE__AIC_DW_U8, GE__AIC_DWK_OUT_##S)                                  \
    if (!res && nj >= 8 && nj - k > 4) { /* the last eight again: done ones store what they stored */                 \
      k = nj - 8;                                                                                                      \
      GE__AIC_DWK_BLOCK(GE__AIC_DW_U8, GE__AIC_DWK_OUT_##S)                                                            \
      k = nj;                                                                                                          \
    }                                                                                                                  \
    for (; k + 4 <= nj; k += 4) GE__AIC_DWK_BLOCK(GE__AIC_DW_U4, GE__AIC_DWK_OUT_##S)                                  \
    if (!res && nj >= 4 && k < nj) {                                                                                   \
      k = nj - 4;                                                                                                      \
      GE__AIC_DWK_BLOCK(GE__AIC_DW_U4, GE__AIC_DWK_OUT_##S)                                                            \
      k = nj;                                                                                                          \
    }                                                                                                                  \
    for (; k < nj; k++) GE__AIC_DWK_BLOCK(GE__AIC_DW_U1, GE__AIC_DWK_OUT_##S)                                          \
    (void)silu_;                                                                                                       \
  }
#ifdef GE__AIC_VEC
GE__AIC_DWK(base, , ge__aic_v4, ge__aic_i4)
#ifdef GE__AIC_X86
GE__AIC_DWK(avx2, __attribute__((target("avx2,fma"))) GE__AIC_CONTRACT, ge__aic_v8, ge__aic_i8)
GE__AIC_DWK(avx512, __attribute__((target("avx512f,fma"))) GE__AIC_CONTRACT, ge__aic_v16, ge__aic_i16)
#endif
#else
static void ge__aic_dwk_base(const ge__aic_dwjob *jb, int64_t nj, const float *const *tp, const float *tw, int nt,
                             float bias, float *y, const float *res, int kind, float lo, float hi) {
  int64_t k, o;
  int t;
  for (k = 0; k < nj; k++)
    for (o = 0; o < jb[k].n; o++) {
      float acc = 0.0f;
      for (t = 0; t < nt; t++) acc += tw[t] * tp[t][jb[k].src + o];
      y[jb[k].out + o] = acc + bias + (res ? res[jb[k].out + o] : 0.0f);
    }
  (void)kind, (void)lo, (void)hi; /* the caller applies the activation */
}
#endif

/* The vector epilogue covers these activations (SiLU too at AVX-512); the
 * others are applied after the channel (ge__aic_act_apply). */
static int ge__aic_dw_act_inline(const ge__aic_act *a, int level) { return ge__aic_act_in_regs(a, level); }

static void ge__aic_dwk(int level, int64_t vl, const ge__aic_dwjob *jb, int64_t nj, const float *const *tp,
                        const float *tw, int nt, float bias, float *y, const float *res, const ge__aic_act *a) {
  int kind = ge__aic_dw_act_inline(a, level) ? a->kind : GE__AIC_ACT_NONE;
#ifdef GE__AIC_X86
  if (level >= 2 && vl == 16) ge__aic_dwk_avx512(jb, nj, tp, tw, nt, bias, y, res, kind, a->alpha, a->beta);
  else if (level >= 1 && vl == 8) ge__aic_dwk_avx2(jb, nj, tp, tw, nt, bias, y, res, kind, a->alpha, a->beta);
  else
#endif
    ge__aic_dwk_base(jb, nj, tp, tw, nt, bias, y, res, kind, a->alpha, a->beta);
  (void)level, (void)vl;
}

/* 3x3 stride-1 undilated depthwise over one band (AVX-512): band row i
 * (L floats apart) holds padded input row r0 + i, so output (r, x) sums
 * band[(r + a) * L + x + b] * w[a][b]. R output rows by NV vectors a step
 * (8 FMA chains): every input row's three shifted vectors are loaded once
 * for the up to three output rows that read them, half a load per FMA
 * where the tap-list kernel takes one; the nine weights stay in registers.
 * Partial vectors at a row's end are stored (and their residual read)
 * under a mask. Reads stay inside the band buffer's slack: a second vector
 * is read only where the row has more than 16 outputs left. */
#ifdef GE__AIC_X86
#define GE__AIC_DW3_ATTR __attribute__((target("avx512f,fma"))) GE__AIC_CONTRACT
#define GE__AIC_DW3_ACC(o, a, b)                                                                                       \
  if ((a) - (o) >= 0 && (a) - (o) < K) {                                                                               \
    acc[o][0] += w[((a) - (o)) * K + (b)] * v0;                                                                        \
    if (NV > 1) acc[o][1] += w[((a) - (o)) * K + (b)] * v1;                                                            \
  }
/* K x K taps (K 3 or 5: the 5x5 band kernel shares the step). */
static inline __attribute__((always_inline)) GE__AIC_DW3_ATTR void
ge__aic_dwk_step(const float *band, int64_t L, int64_t r, int64_t x, int64_t ow, const ge__aic_v16 *w, int K, int R,
                 int NV, float *y, const float *res, int kind, ge__aic_v16 vb, ge__aic_v16 vlo, ge__aic_v16 vhi) {
  typedef ge__aic_v16 VZ_;
  typedef ge__aic_i16 VI_;
  const VZ_ z_ = {0}, vz = z_, vone = z_ + 1.0f;
  VZ_ acc[8][2], v0 = z_, v1 = z_, q;
  const int silu_ = kind == GE__AIC_ACT_SILU; /* applied by GE__AIC_SILU_V16 */
  int o, a, b, u;
  if (silu_) kind = GE__AIC_ACT_NONE;
#pragma GCC unroll 8
  for (o = 0; o < R; o++) acc[o][0] = acc[o][1] = z_;
#pragma GCC unroll 12
  for (a = 0; a < R + K - 1; a++) {
    const float *s_ = band + (r + a) * L + x;
#pragma GCC unroll 5
    for (b = 0; b < K; b++) {
      memcpy(&v0, s_ + b, sizeof v0);
      __asm__("" : "+v"(v0)); /* one load for the three rows (else the compiler folds it into each FMA) */
      if (NV > 1) {
        memcpy(&v1, s_ + b + 16, sizeof v1);
        __asm__("" : "+v"(v1));
      }
#pragma GCC unroll 8
      for (o = 0; o < R; o++) GE__AIC_DW3_ACC(o, a, b)
    }
  }
#pragma GCC unroll 8
  for (o = 0; o < R; o++)
#pragma GCC unroll 2
    for (u = 0; u < NV; u++) {
      int64_t at = (r + o) * ow + x + 16 * u, n = ge__aic_min(16, ow - x - 16 * u);
      VZ_ v = acc[o][u];
      if (n == 16) {
        GE__AIC_EPI_VEC(VZ_, VI_, v, q, res + at)
        GE__AIC_SILU_V16(v)
        memcpy(y + at, &v, sizeof v);
      } else {
        __mmask16 m = (__mmask16)((1u << n) - 1);
        GE__AIC_EPI_MASKED_V16(v, m, res + at, y + at)
      }
    }
}

static GE__AIC_DW3_ATTR void ge__aic_dw3_band(const float *band, int64_t L, int64_t rows, int64_t ow, const float *tw,
                                              float bias, float *y, const float *res, int kind, float lo, float hi) {
  const ge__aic_v16 z_ = {0}, vb = z_ + bias, vhi = z_ + hi, vlo = z_ + (kind == GE__AIC_ACT_RELU ? 0.0f : lo);
  ge__aic_v16 w[9];
  int64_t r = 0, x;
  int t;
  for (t = 0; t < 9; t++) w[t] = z_ + tw[t];
  if (ow > 16) { /* four rows by two vectors */
    for (; r + 4 <= rows; r += 4)
      for (x = 0; x < ow; x += 32) {
        if (ow - x > 16) ge__aic_dwk_step(band, L, r, x, ow, w, 3, 4, 2, y, res, kind, vb, vlo, vhi);
        else ge__aic_dwk_step(band, L, r, x, ow, w, 3, 4, 1, y, res, kind, vb, vlo, vhi);
      }
  } else { /* one vector a row: eight rows */
    for (; r + 8 <= rows; r += 8) ge__aic_dwk_step(band, L, r, 0, ow, w, 3, 8, 1, y, res, kind, vb, vlo, vhi);
  }
  /* the last rows in one step a vector (a step takes the nine-FMA chain's
   * latency however few rows it has) */
  for (x = 0; r < rows && x < ow; x += 16) switch (rows - r) {
    case 7: ge__aic_dwk_step(band, L, r, x, ow, w, 3, 7, 1, y, res, kind, vb, vlo, vhi); break;
    case 6: ge__aic_dwk_step(band, L, r, x, ow, w, 3, 6, 1, y, res, kind, vb, vlo, vhi); break;
    case 5: ge__aic_dwk_step(band, L, r, x, ow, w, 3, 5, 1, y, res, kind, vb, vlo, vhi); break;
    case 4: ge__aic_dwk_step(band, L, r, x, ow, w, 3, 4, 1, y, res, kind, vb, vlo, vhi); break;
    case 3: ge__aic_dwk_step(band, L, r, x, ow, w, 3, 3, 1, y, res, kind, vb, vlo, vhi); break;
    case 2: ge__aic_dwk_step(band, L, r, x, ow, w, 3, 2, 1, y, res, kind, vb, vlo, vhi); break;
    default: ge__aic_dwk_step(band, L, r, x, ow, w, 3, 1, 1, y, res, kind, vb, vlo, vhi); break;
    }
}

/* 5x5 stride-1 undilated depthwise over one band (AVX-512), as the 3x3
 * band above: every input row's five shifted vectors loaded once for the
 * up to five output rows that read them (a load per five FMAs where the
 * tap-list kernel takes one per FMA); the 25 weights in registers, so
 * four rows by one vector a step (two by two past 16 outputs a row, where
 * ge__aic_dw3_fits does not send it). */
static GE__AIC_DW3_ATTR void ge__aic_dw5_band(const float *band, int64_t L, int64_t rows, int64_t ow, const float *tw,
                                              float bias, float *y, const float *res, int kind, float lo, float hi) {
  const ge__aic_v16 z_ = {0}, vb = z_ + bias, vhi = z_ + hi, vlo = z_ + (kind == GE__AIC_ACT_RELU ? 0.0f : lo);
  ge__aic_v16 w[25];
  int64_t r = 0, x;
  int t;
  for (t = 0; t < 25; t++) w[t] = z_ + tw[t];
  if (ow > 16) {
    for (; r + 2 <= rows; r += 2)
      for (x = 0; x < ow; x += 32) {
        if (ow - x > 16) ge__aic_dwk_step(band, L, r, x, ow, w, 5, 2, 2, y, res, kind, vb, vlo, vhi);
        else ge__aic_dwk_step(band, L, r, x, ow, w, 5, 2, 1, y, res, kind, vb, vlo, vhi);
      }
  } else {
    for (; r + 4 <= rows; r += 4) ge__aic_dwk_step(band, L, r, 0, ow, w, 5, 4, 1, y, res, kind, vb, vlo, vhi);
  }
  for (x = 0; r < rows && x < ow; x += 16) switch (rows - r) {
    case 3: ge__aic_dwk_step(band, L, r, x, ow, w, 5, 3, 1, y, res, kind, vb, vlo, vhi); break;
    case 2: ge__aic_dwk_step(band, L, r, x, ow, w, 5, 2, 1, y, res, kind, vb, vlo, vhi); break;
    default: ge__aic_dwk_step(band, L, r, x, ow, w, 5, 1, 1, y, res, kind, vb, vlo, vhi); break;
    }
}
#endif

#ifdef GE_AI_CORE_TEST_KNOBS
static int ge__aic_dw_choice = 0; /* 2: never the 5x5 band kernel (tests and benchmarks compare with it) */
#else
#define ge__aic_dw_choice 0
#endif

/* Whether a band of p runs on ge__aic_dw3_band (3) or ge__aic_dw5_band (5)
 * at this level and vector length (else 0). */
static int ge__aic_dw3_fits(const ge__aic_cv *p, int level, int64_t vl) {
#ifdef GE__AIC_X86
  if (!(level >= 2 && vl == 16 && p->kh == p->kw && p->sh == 1 && p->sw == 1 && p->dh == 1 && p->dw == 1)) return 0;
  /* 5x5 on rows of at most 16 (measured on 28-wide rows: no faster than
   * the tap-list kernel with its SiLU in registers) */
  return p->kh == 3 ? 3 : p->kh == 5 && p->ow <= 16 && ge__aic_dw_choice != 2 ? 5 : 0;
#else
  (void)p, (void)level, (void)vl;
  return 0;
#endif
}

#define GE__AIC_DW_SLOTS 16 /* up to this many threads, 4 shares a thread claimed as threads come free */

typedef struct ge__aic_dw {
  const ge__aic_cv *p;
  const float *x, *w, *b, *res;
  float *y, *work; /* work: `slots` buffers of ge__aic_dw_floats floats (NULL: taps past GE__AIC_DW_TAPS) */
  const ge__aic_act *act;
  int64_t tasks, slots;
  int *busy; /* tasks > slots: which buffers are in use */
  int level;
} ge__aic_dw;

/* The band buffer of share t: its own when every share has one, else a free
 * one claimed (*slot; released by ge__aic_dw_release). NULL when more
 * threads than buffers run at once (a pool larger than the kernel's thread
 * count): the share then takes the generic path, which needs none. */
static float *ge__aic_dw_claim(const ge__aic_dw *d, int64_t t, int64_t *slot) {
  size_t floats = ge__aic_dw_floats(d->p, d->level);
  int64_t i;
  *slot = -1;
  if (!d->work) return NULL;
  if (d->tasks <= d->slots) return d->work + (size_t)t * floats;
#if defined(__GNUC__) || defined(__clang__)
  for (i = 0; i < d->slots; i++) {
    int free_ = 0;
    if (__atomic_compare_exchange_n(&d->busy[i], &free_, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
      *slot = i;
      return d->work + (size_t)i * floats;
    }
  }
#endif
  (void)i;
  return NULL;
}

static void ge__aic_dw_release(const ge__aic_dw *d, int64_t slot) {
#if defined(__GNUC__) || defined(__clang__)
  if (slot >= 0) __atomic_store_n(&d->busy[slot], 0, __ATOMIC_RELEASE);
#endif
  (void)d, (void)slot;
}

/* The rest of a row split into even and odd elements past what
 * ge__aic_split2 did (< 32 left): one or two masked loads and two masked
 * permutes, so a short row (a 14x14 map) needs no scalar loop. Returns the
 * elements done (all of them at AVX-512; else none). */
#ifdef GE__AIC_X86
static GE__AIC_DW_ATTR512 int64_t ge__aic_dw_split_tail_avx512(const float *src, int64_t i, int64_t n, float *ev,
                                                                 float *od) {
  const __m512i ie = _mm512_set_epi32(30, 28, 26, 24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 0);
  const __m512i io = _mm512_set_epi32(31, 29, 27, 25, 23, 21, 19, 17, 15, 13, 11, 9, 7, 5, 3, 1);
  int64_t r = n - i;
  __mmask16 ma = (__mmask16)(r >= 16 ? 0xFFFF : (1u << r) - 1), mb = (__mmask16)(r > 16 ? (1u << (r - 16)) - 1 : 0);
  __m512 a = _mm512_maskz_loadu_ps(ma, src + i), b = _mm512_maskz_loadu_ps(mb, src + i + 16);
  _mm512_mask_storeu_ps(ev + i / 2, (__mmask16)((1u << ((r + 1) / 2)) - 1), _mm512_permutex2var_ps(a, ie, b));
  _mm512_mask_storeu_ps(od + i / 2, (__mmask16)((1u << (r / 2)) - 1), _mm512_permutex2var_ps(a, io, b));
  return n;
}
#endif

#ifdef GE__AIC_X86
/* dst[0..n) = src[0..n) in vectors, the tail under a mask: rows of a
 * 14x14 map went through a libc call each, which cost more than the row's
 * nine taps. */
static GE__AIC_DW_ATTR512 void ge__aic_dw_copy_avx512(float *dst, const float *src, int64_t n) {
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) _mm512_storeu_ps(dst + i, _mm512_loadu_ps(src + i));
  if (i < n) {
    __mmask16 m = (__mmask16)((1u << (n - i)) - 1);
    _mm512_mask_storeu_ps(dst + i, m, _mm512_maskz_loadu_ps(m, src + i));
  }
}
#endif

/* src[0..n) split into ev (even elements) and od (odd ones). */
static void ge__aic_dw_split_row(int level, const float *src, int64_t n, float *ev, float *od) {
  int64_t iw = ge__aic_split2(level, src, n, ev, od);
#ifdef GE__AIC_X86
  if (level >= 2 && iw < n && n - iw < 32) iw = ge__aic_dw_split_tail_avx512(src, iw, n, ev, od);
#endif
  for (; iw + 1 < n; iw += 2) ev[iw / 2] = src[iw], od[iw / 2] = src[iw + 1];
  if (iw < n) ev[iw / 2] = src[iw];
}

/* Scatters the padded rows [r0, r0 + span) of channel xc into the phase
 * blocks of the band buffer (zeroed once per thread: the pad columns stay
 * 0; pad rows are cleared here, the buffer being reused). The row phase
 * and the row in its block are counted, not divided (a 64-bit division per
 * row cost more than copying a 14-float row). */
static void ge__aic_dw_scatter(const ge__aic_cv *p, const ge__aic_dwg *g, const float *xc, int64_t r0, int64_t span,
                               float *buf, int level) {
  int64_t rr, iw, q, ph = 0, prow = 0, ih = r0 - p->ph;
  const int64_t pblock = p->sw * g->block; /* floats per row phase */
  const int64_t ev_at = (p->pw % 2) * g->block + p->pw / 2, od_at = (1 - p->pw % 2) * g->block + (p->pw + 1) / 2;
  for (rr = 0; rr < span; rr++, ih++) {
    float *dst = buf + ph * pblock + prow * g->L;
    const float *src = xc + (ih < 0 || ih >= p->h ? 0 : ih * p->w);
    if (ih < 0 || ih >= p->h) {
      for (q = 0; q < p->sw; q++) memset(dst + q * g->block, 0, (size_t)g->L * sizeof(float));
    } else if (p->sw == 1) {
#ifdef GE__AIC_X86
      if (level >= 2) ge__aic_dw_copy_avx512(dst + p->pw, src, p->w);
      else
#endif
        memcpy(dst + p->pw, src, (size_t)p->w * sizeof(float));
    } else if (p->sw == 2) {
      ge__aic_dw_split_row(level, src, p->w, dst + ev_at, dst + od_at);
    } else {
      for (iw = 0; iw < p->w; iw++) {
        int64_t c = iw + p->pw;
        dst[(c % p->sw) * g->block + c / p->sw] = src[iw];
      }
    }
    if (++ph == p->sh) ph = 0, prow++;
  }
}

/* Any tap count: per output row, every tap adds a run of the input row
 * into the output row (stride 1 as axpy). */
static void ge__aic_dw_generic(const ge__aic_dw *d, const float *xc, const float *wk, float bv, const float *res,
                               float *yp) {
  const ge__aic_cv *p = d->p;
  int64_t i, j, oh, o;
  for (oh = 0; oh < p->oh; oh++) {
    float *acc = yp + oh * p->ow;
    for (o = 0; o < p->ow; o++) acc[o] = bv;
    for (i = 0; i < p->kh; i++) {
      int64_t ih = oh * p->sh - p->ph + i * p->dh;
      if (ih < 0 || ih >= p->h) continue;
      for (j = 0; j < p->kw; j++) {
        float wv = wk[i * p->kw + j];
        int64_t off = j * p->dw - p->pw, lo, hi;
        const float *src = xc + ih * p->w + off;
        ge__aic_span(off, p->sw, p->w, p->ow, &lo, &hi);
        if (lo >= hi) continue;
        if (p->sw == 1) ge__aic_axpy(d->level, acc + lo, src + lo, wv, hi - lo);
        else
          for (o = lo; o < hi; o++) acc[o] += wv * src[o * p->sw];
      }
    }
    ge__aic_epi_row(d->act, d->level, acc, p->ow, 0.0f, res ? res + oh * p->ow : NULL);
  }
}

/* Share t of the output channels of every image (index n * m + channel). */
/* Floats (< 16) to shift the band buffer by so that the most taps read
 * whole 64-byte lines: rows are whole vectors, so a tap's alignment is its
 * offset's mod 16 (a row's taps at stride 1: one of three; at stride 2 the
 * even and odd phases' first taps: two of three). A load across two lines
 * costs about two. */
static int64_t ge__aic_dw_shift(const float *buf, const int64_t *toff, int nt) {
  int cnt[16] = {0}, tap, best = 0, r;
  for (tap = 0; tap < nt; tap++) cnt[toff[tap] % 16]++;
  for (r = 1; r < 16; r++)
    if (cnt[r] > cnt[best]) best = r;
  return (int64_t)((32u - ((unsigned)((uintptr_t)buf / sizeof(float)) % 16u) - (unsigned)best) % 16u);
}

static void ge__aic_dw_fn(void *arg, int64_t begin, int64_t end) {
  const ge__aic_dw *d = (const ge__aic_dw *)arg;
  const ge__aic_cv *p = d->p;
  int64_t P = p->oh * p->ow, total = p->n * p->m, t, q, i, j, r0, rows, ext = (p->kh - 1) * p->dh + 1;
  int64_t toff[GE__AIC_DW_TAPS];
  const float *tp[GE__AIC_DW_TAPS];
  float tw[GE__AIC_DW_TAPS];
  int nt = (int)(p->kh * p->kw), after = !ge__aic_dw_act_inline(d->act, d->level), tap, dw3;
  ge__aic_dwg g;
  ge__aic_dw_geom(p, d->level, &g);
  dw3 = ge__aic_dw3_fits(p, d->level, g.vl);
  /* SiLU over the band's rows after it, not in the 3x3 steps' registers,
   * on rows wider than a vector: there the steps hold 8 accumulators and
   * nine weights and the pass runs over long rows (measured 5% faster) */
  if (dw3 && p->ow > 16 && d->act->kind == GE__AIC_ACT_SILU) after = 1;
  for (i = 0, tap = 0; i < p->kh && d->work; i++)
    for (j = 0; j < p->kw; j++, tap++) {
      int64_t a = i * p->dh, b = j * p->dw;
      toff[tap] = ((a % p->sh) * p->sw + b % p->sw) * g.block + (a / p->sh) * g.L + b / p->sw;
    }
  for (t = begin; t < end; t++) {
    int64_t slot, last = -1;
    float *buf = ge__aic_dw_claim(d, t, &slot), *base = buf;
    ge__aic_dwjob *jb = buf ? (ge__aic_dwjob *)(void *)(buf + g.buf) : NULL;
    if (buf) {
      memset(buf, 0, (size_t)g.buf * sizeof(float));
      base = buf + ge__aic_dw_shift(buf, toff, nt);
      for (i = 0; i < g.band; i++) /* a full band's output vectors, row by row */
        for (j = 0; j < g.per; j++) {
          ge__aic_dwjob *e = jb + i * g.per + j;
          e->src = i * g.L + j * g.vl;
          e->out = i * p->ow + j * g.vl;
          e->n = ge__aic_min(g.vl, p->ow - j * g.vl);
        }
      for (tap = 0; tap < nt; tap++) tp[tap] = base + toff[tap];
    }
    for (q = total * t / d->tasks; q < total * (t + 1) / d->tasks; q++) {
      int64_t n = q / p->m, m = q % p->m, src = n * p->c + m / p->mg;
      const float *xc = d->x + src * p->h * p->w, *wk = d->w + m * p->kh * p->kw, *res = d->res ? d->res + q * P : NULL;
      float bv = d->b ? d->b[m] : 0.0f, *yp = d->y + q * P;
      if (!buf) {
        ge__aic_dw_generic(d, xc, wk, bv, res, yp);
        continue;
      }
      for (tap = 0; tap < nt; tap++) tw[tap] = wk[tap];
      for (r0 = 0; r0 < p->oh; r0 += rows) {
        rows = ge__aic_min(g.band, p->oh - r0);
        if (src != last || g.band < p->oh) /* one band: a channel multiplier reuses the scatter */
          ge__aic_dw_scatter(p, &g, xc, r0 * p->sh, (rows - 1) * p->sh + ext, base, d->level);
        last = src;
#ifdef GE__AIC_X86
        if (dw3)
          (dw3 == 5 ? ge__aic_dw5_band : ge__aic_dw3_band)(base, g.L, rows, p->ow, tw, bv, yp + r0 * p->ow,
                                                           res ? res + r0 * p->ow : NULL,
                                                           after ? GE__AIC_ACT_NONE : d->act->kind, d->act->alpha,
                                                           d->act->beta);
        else
#endif
          ge__aic_dwk(d->level, g.vl, jb, rows * g.per, tp, tw, nt, bv, yp + r0 * p->ow,
                      res ? res + r0 * p->ow : NULL, d->act);
        if (after) ge__aic_act_apply(d->act, yp + r0 * p->ow, rows * p->ow); /* the band's rows, still in L1 */
      }
    }
    ge__aic_dw_release(d, slot);
  }
}

#ifdef GE__AIC_X86
/* r[0..16) transposed in place (r[i] lane j <-> r[j] lane i): 32-bit and
 * 64-bit unpacks make 4x4 blocks in every 128-bit lane, two rounds of lane
 * shuffles put the blocks in place. */
static GE__AIC_DW_ATTR512 void ge__aic_tr16_avx512(__m512 *r) {
  __m512 a[16], b[16];
  int k, j;
  for (k = 0; k < 8; k++) {
    a[2 * k] = _mm512_unpacklo_ps(r[2 * k], r[2 * k + 1]);
    a[2 * k + 1] = _mm512_unpackhi_ps(r[2 * k], r[2 * k + 1]);
  }
  for (k = 0; k < 4; k++) { /* b[4k + j] lane L: rows 4k..4k+3 of column 4L + j */
    __m512d a0 = _mm512_castps_pd(a[4 * k]), a1 = _mm512_castps_pd(a[4 * k + 1]);
    __m512d a2 = _mm512_castps_pd(a[4 * k + 2]), a3 = _mm512_castps_pd(a[4 * k + 3]);
    b[4 * k] = _mm512_castpd_ps(_mm512_unpacklo_pd(a0, a2));
    b[4 * k + 1] = _mm512_castpd_ps(_mm512_unpackhi_pd(a0, a2));
    b[4 * k + 2] = _mm512_castpd_ps(_mm512_unpacklo_pd(a1, a3));
    b[4 * k + 3] = _mm512_castpd_ps(_mm512_unpackhi_pd(a1, a3));
  }
  for (j = 0; j < 4; j++) {
    __m512 c0 = _mm512_shuffle_f32x4(b[j], b[4 + j], 0x88), c1 = _mm512_shuffle_f32x4(b[j], b[4 + j], 0xDD);
    __m512 c2 = _mm512_shuffle_f32x4(b[8 + j], b[12 + j], 0x88), c3 = _mm512_shuffle_f32x4(b[8 + j], b[12 + j], 0xDD);
    r[j] = _mm512_shuffle_f32x4(c0, c2, 0x88);
    r[8 + j] = _mm512_shuffle_f32x4(c0, c2, 0xDD);
    r[4 + j] = _mm512_shuffle_f32x4(c1, c3, 0x88);
    r[12 + j] = _mm512_shuffle_f32x4(c1, c3, 0xDD);
  }
}

/* nc (<= 16) input planes from x into the padded block xb (lanes past nc
 * 0; the pad pixels are left as they are: zero). */
static GE__AIC_DW_ATTR512 void ge__aic_dwc_in(const ge__aic_cv *p, const float *x, int64_t nc, float *xb, int64_t wp) {
  int64_t HW = p->h * p->w, px0, k, ch, r = 0, col = 0;
  __m512 v[16];
  for (px0 = 0; px0 < HW; px0 += 16) {
    int64_t cnt = HW - px0 < 16 ? HW - px0 : 16;
    __mmask16 m = (__mmask16)((1u << cnt) - 1);
    for (ch = 0; ch < 16; ch++) v[ch] = ch < nc ? _mm512_maskz_loadu_ps(m, x + ch * HW + px0) : _mm512_setzero_ps();
    ge__aic_tr16_avx512(v);
    for (k = 0; k < cnt; k++) {
      _mm512_storeu_ps(xb + ((r + p->ph) * wp + col + p->pw) * 16, v[k]);
      if (++col == p->w) col = 0, r++;
    }
  }
}

/* The activation of 16 output lanes in registers (a kind of
 * ge__aic_dw_act_inline; SiLU as GE__AIC_SILU_V16). */
typedef struct ge__aic_dwc_act {
  int kind, silu_;
  ge__aic_v16 vlo, vhi;
} ge__aic_dwc_act;

static ge__aic_dwc_act ge__aic_dwc_act_of(const ge__aic_act *a, int on) {
  ge__aic_dwc_act r;
  const ge__aic_v16 z_ = {0};
  r.kind = on ? a->kind : GE__AIC_ACT_NONE;
  r.silu_ = r.kind == GE__AIC_ACT_SILU;
  if (r.silu_) r.kind = GE__AIC_ACT_NONE;
  r.vlo = z_ + (r.kind == GE__AIC_ACT_RELU ? 0.0f : a->alpha), r.vhi = z_ + a->beta;
  return r;
}

static inline __attribute__((always_inline)) GE__AIC_DW3_ATTR __m512 ge__aic_dwc_apply(const ge__aic_dwc_act *ac,
                                                                                      __m512 x) {
  typedef ge__aic_v16 VZ_;
  typedef ge__aic_i16 VI_;
  const VZ_ z_ = {0}, vz = z_, vone = z_ + 1.0f, vb = z_, vlo = ac->vlo, vhi = ac->vhi;
  const float *res = NULL;
  const int kind = ac->kind, silu_ = ac->silu_;
  VZ_ v = (VZ_)x, q;
  if (kind == GE__AIC_ACT_NONE && !silu_) return x;
  GE__AIC_EPI_VEC(VZ_, VI_, v, q, res)
  GE__AIC_SILU_V16(v)
  (void)silu_;
  return (__m512)v;
}

/* ob[pixel] = act(bias + the nine taps of 16 channels) (wv: tap-major, 16
 * lanes each), three partial sums a pixel. */
static GE__AIC_DW3_ATTR void ge__aic_dwc_sum(const ge__aic_cv *p, const float *xb, int64_t wp, const float *wv,
                                             __m512 bias, const ge__aic_dwc_act *ac, float *ob) {
  const __m512 w0 = _mm512_loadu_ps(wv), w1 = _mm512_loadu_ps(wv + 16), w2 = _mm512_loadu_ps(wv + 32);
  const __m512 w3 = _mm512_loadu_ps(wv + 48), w4 = _mm512_loadu_ps(wv + 64), w5 = _mm512_loadu_ps(wv + 80);
  const __m512 w6 = _mm512_loadu_ps(wv + 96), w7 = _mm512_loadu_ps(wv + 112), w8 = _mm512_loadu_ps(wv + 128);
  const int64_t rs = p->dh * wp * 16, cs = p->dw * 16;
  int64_t oh, ow;
  for (oh = 0; oh < p->oh; oh++) {
    const float *row = xb + oh * p->sh * wp * 16;
    float *o = ob + oh * p->ow * 16;
    for (ow = 0; ow < p->ow; ow++) {
      const float *s0 = row + ow * p->sw * 16, *s1 = s0 + rs, *s2 = s1 + rs;
      __m512 a = _mm512_fmadd_ps(w0, _mm512_loadu_ps(s0), bias);
      __m512 b = _mm512_mul_ps(w1, _mm512_loadu_ps(s0 + cs)), c = _mm512_mul_ps(w2, _mm512_loadu_ps(s0 + 2 * cs));
      a = _mm512_fmadd_ps(w3, _mm512_loadu_ps(s1), a);
      b = _mm512_fmadd_ps(w4, _mm512_loadu_ps(s1 + cs), b);
      c = _mm512_fmadd_ps(w5, _mm512_loadu_ps(s1 + 2 * cs), c);
      a = _mm512_fmadd_ps(w6, _mm512_loadu_ps(s2), a);
      b = _mm512_fmadd_ps(w7, _mm512_loadu_ps(s2 + cs), b);
      c = _mm512_fmadd_ps(w8, _mm512_loadu_ps(s2 + 2 * cs), c);
      _mm512_storeu_ps(o + ow * 16, ge__aic_dwc_apply(ac, _mm512_add_ps(_mm512_add_ps(a, b), c)));
    }
  }
}

/* Four pixels' sums through the activation into o. */
static inline __attribute__((always_inline)) GE__AIC_DW3_ATTR void ge__aic_dwc_store4(const ge__aic_dwc_act *ac, float *o,
                                                                                     __m512 a0, __m512 a1, __m512 a2,
                                                                                     __m512 a3) {
  _mm512_storeu_ps(o, ge__aic_dwc_apply(ac, a0));
  _mm512_storeu_ps(o + 16, ge__aic_dwc_apply(ac, a1));
  _mm512_storeu_ps(o + 32, ge__aic_dwc_apply(ac, a2));
  _mm512_storeu_ps(o + 48, ge__aic_dwc_apply(ac, a3));
}

/* ob[pixel] = act(bias + the k x k taps of 16 channels) (wv: tap-major,
 * 16 lanes each), four pixels of a row at a time (four FMA chains, each
 * weight vector loaded once a tap for its four FMAs; 49 of them would not
 * fit the registers), then the row's last ones. Inlined with k a constant
 * (ge__aic_dwc_sum5: EfficientNet's, ge__aic_dwc_sum7: ConvNeXt's), so
 * the tap loops unroll. */
static inline __attribute__((always_inline)) GE__AIC_DW3_ATTR void
ge__aic_dwc_sumk(const ge__aic_cv *p, const float *xb, int64_t wp, const float *wv, __m512 bias,
                 const ge__aic_dwc_act *ac, float *ob, const int k) {
  const int64_t rs = p->dh * wp * 16, cs = p->dw * 16, ps = p->sw * 16;
  int64_t oh, ow, ki, kj;
  for (oh = 0; oh < p->oh; oh++) {
    const float *row = xb + oh * p->sh * wp * 16;
    float *o = ob + oh * p->ow * 16;
    for (ow = 0; ow + 4 <= p->ow; ow += 4) {
      __m512 a0 = bias, a1 = bias, a2 = bias, a3 = bias;
      for (ki = 0; ki < k; ki++)
        for (kj = 0; kj < k; kj++) {
          const float *s = row + ow * ps + ki * rs + kj * cs;
          const __m512 w = _mm512_loadu_ps(wv + (ki * k + kj) * 16);
          a0 = _mm512_fmadd_ps(w, _mm512_loadu_ps(s), a0);
          a1 = _mm512_fmadd_ps(w, _mm512_loadu_ps(s + ps), a1);
          a2 = _mm512_fmadd_ps(w, _mm512_loadu_ps(s + 2 * ps), a2);
          a3 = _mm512_fmadd_ps(w, _mm512_loadu_ps(s + 3 * ps), a3);
        }
      ge__aic_dwc_store4(ac, o + ow * 16, a0, a1, a2, a3);
    }
    for (; ow < p->ow; ow++) {
      __m512 a = bias;
      for (ki = 0; ki < k; ki++)
        for (kj = 0; kj < k; kj++)
          a = _mm512_fmadd_ps(_mm512_loadu_ps(wv + (ki * k + kj) * 16), _mm512_loadu_ps(row + ow * ps + ki * rs + kj * cs), a);
      _mm512_storeu_ps(o + ow * 16, ge__aic_dwc_apply(ac, a));
    }
  }
}
static GE__AIC_DW3_ATTR void ge__aic_dwc_sum5(const ge__aic_cv *p, const float *xb, int64_t wp, const float *wv,
                                              __m512 bias, const ge__aic_dwc_act *ac, float *ob) {
  ge__aic_dwc_sumk(p, xb, wp, wv, bias, ac, ob, 5);
}
static GE__AIC_DW3_ATTR void ge__aic_dwc_sum7(const ge__aic_cv *p, const float *xb, int64_t wp, const float *wv,
                                              __m512 bias, const ge__aic_dwc_act *ac, float *ob) {
  ge__aic_dwc_sumk(p, xb, wp, wv, bias, ac, ob, 7);
}

/* The output block ob (P pixels) into nc planes of y. */
static GE__AIC_DW_ATTR512 void ge__aic_dwc_out(const float *ob, int64_t P, int64_t nc, float *y) {
  int64_t px0, k, ch;
  __m512 v[16];
  for (px0 = 0; px0 < P; px0 += 16) {
    int64_t cnt = P - px0 < 16 ? P - px0 : 16;
    __mmask16 m = (__mmask16)((1u << cnt) - 1);
    for (k = 0; k < 16; k++) v[k] = k < cnt ? _mm512_loadu_ps(ob + (px0 + k) * 16) : _mm512_setzero_ps();
    ge__aic_tr16_avx512(v);
    for (ch = 0; ch < nc; ch++) _mm512_mask_storeu_ps(y + ch * P + px0, m, v[ch]);
  }
}

/* One block of nc channels from c0 of image n into its planes of y: the
 * activation on the pixel-major sums when it has a register form and no
 * residual comes first (a pass per plane after the transpose cost as much
 * as the taps on 7x7 maps), else per plane after it. */
static GE__AIC_DW_ATTR512 void ge__aic_dwc_block(const ge__aic_dw *d, float *buf, int64_t n, int64_t c0, int64_t nc) {
  const ge__aic_cv *p = d->p;
  int64_t P = p->oh * p->ow, wp = ge__aic_dwc_wp(p), ch, t, nt = p->kh * p->kw;
  float wv[49 * 16], bv[16], *ob = buf + ge__aic_dwc_hp(p) * wp * 16, *y = d->y + (n * p->m + c0) * P;
  const float *res = d->res ? d->res + (n * p->m + c0) * P : NULL;
  const int in_sum = !res && ge__aic_dw_act_inline(d->act, 2);
  const ge__aic_dwc_act ac = ge__aic_dwc_act_of(d->act, in_sum);
  for (t = 0; t < nt; t++)
    for (ch = 0; ch < 16; ch++) wv[t * 16 + ch] = ch < nc ? d->w[(c0 + ch) * nt + t] : 0.0f;
  for (ch = 0; ch < 16; ch++) bv[ch] = ch < nc && d->b ? d->b[c0 + ch] : 0.0f;
  ge__aic_dwc_in(p, d->x + (n * p->c + c0) * p->h * p->w, nc, buf, wp);
  if (nt == 9) ge__aic_dwc_sum(p, buf, wp, wv, _mm512_loadu_ps(bv), &ac, ob);
  else if (nt == 25) ge__aic_dwc_sum5(p, buf, wp, wv, _mm512_loadu_ps(bv), &ac, ob);
  else ge__aic_dwc_sum7(p, buf, wp, wv, _mm512_loadu_ps(bv), &ac, ob);
  ge__aic_dwc_out(ob, P, nc, y);
  if (!in_sum && (res || d->act->kind != GE__AIC_ACT_NONE))
    for (ch = 0; ch < nc; ch++) ge__aic_epi_row(d->act, 2, y + ch * P, P, 0.0f, res ? res + ch * P : NULL);
}

/* The pad cells of the padded block xb (every block fills the others):
 * zeroing all of it once per share cost as much as the block's work on
 * 28x28 maps at four shares a thread. */
static void ge__aic_dwc_zero_pads(const ge__aic_cv *p, float *xb) {
  const int64_t wp = ge__aic_dwc_wp(p), hp = ge__aic_dwc_hp(p), row = wp * 16;
  const size_t f = sizeof(float);
  int64_t r;
  memset(xb, 0, (size_t)(p->ph * row) * f);
  for (r = p->ph; r < p->ph + p->h; r++) {
    memset(xb + r * row, 0, (size_t)(p->pw * 16) * f);
    memset(xb + r * row + (p->pw + p->w) * 16, 0, (size_t)((wp - p->pw - p->w) * 16) * f);
  }
  memset(xb + (p->ph + p->h) * row, 0, (size_t)((hp - p->ph - p->h) * row) * f);
}

/* Shares of the (image, 16-channel block) units; a share left without a
 * buffer takes the generic path channel by channel. */
static void ge__aic_dwc_fn(void *arg, int64_t begin, int64_t end) {
  const ge__aic_dw *d = (const ge__aic_dw *)arg;
  const ge__aic_cv *p = d->p;
  int64_t blocks = (p->m + 15) / 16, units = p->n * blocks, P = p->oh * p->ow, t, u, ch;
  for (t = begin; t < end; t++) {
    int64_t slot;
    float *buf = ge__aic_dw_claim(d, t, &slot);
    if (buf) ge__aic_dwc_zero_pads(p, buf);
    for (u = units * t / d->tasks; u < units * (t + 1) / d->tasks; u++) {
      int64_t n = u / blocks, c0 = u % blocks * 16, nc = ge__aic_min(16, p->m - c0);
      if (buf) {
        ge__aic_dwc_block(d, buf, n, c0, nc);
        continue;
      }
      for (ch = c0; ch < c0 + nc; ch++) {
        int64_t q = n * p->m + ch;
        ge__aic_dw_generic(d, d->x + (n * p->c + ch) * p->h * p->w, d->w + ch * p->kh * p->kw, d->b ? d->b[ch] : 0.0f,
                           d->res ? d->res + q * P : NULL, d->y + q * P);
      }
    }
    ge__aic_dw_release(d, slot);
  }
}
#endif

/* work: ge__aic_threads(c) * ge__aic_dw_floats(p, level) floats. */
static void ge__aic_conv_depthwise(ge_kernel_ctx *c, const ge__aic_cv *p, const float *x, const float *w,
                                   const float *b, const float *res, const ge__aic_act *act, float *y, int level,
                                   float *work) {
  ge__aic_dw d;
  int busy[GE__AIC_DW_SLOTS];
  int64_t total = p->n * p->m, per = p->oh * p->ow * p->kh * p->kw;
  d.p = p, d.x = x, d.w = w, d.b = b, d.res = res, d.y = y, d.act = act, d.level = level;
  d.work = ge__aic_dw_floats(p, level) ? work : NULL;
  d.slots = ge__aic_threads(c);
  d.tasks = ge__aic_min(d.slots, total);
#if defined(__GNUC__) || defined(__clang__)
  if (d.slots > 1 && d.slots <= GE__AIC_DW_SLOTS) d.tasks = ge__aic_min(4 * d.slots, total);
#endif
  memset(busy, 0, sizeof busy);
  d.busy = busy;
  if ((double)per * (double)total < 65536.0) d.tasks = 1;
#ifdef GE__AIC_X86
  if (d.work && ge__aic_dwc_fits(p, level)) { /* shares of 16-channel blocks */
    int64_t units = p->n * ((p->m + 15) / 16);
    if (d.tasks > units) d.tasks = units;
    ge_kernel_parallel_for(c, d.tasks, 1, ge__aic_dwc_fn, &d);
    return;
  }
#endif
  ge_kernel_parallel_for(c, d.tasks, 1, ge__aic_dw_fn, &d);
}

/* Pointwise (1x1, stride 1, no pads) convolution, per image and group
 * y = W x as a product whose B is the image read in place (rows of N =
 * oh * ow pixels, nothing packed per run): W is packed once into panels of
 * MR output channels (a[k * MR + r]); a register tile of MR channels x NV
 * vectors of pixels sums its K terms with the weights broadcast from the
 * panel, then gets the bias, residual and activation and is stored once.
 * AVX-512: MR 8 x 3 vectors (48 pixels), AVX2 and baseline: MR 4 x 3
 * vectors. Pixels past the last whole vector (7x7 and 14x14 maps leave 1
 * and 4) go to a column kernel whose vectors run over the panel's MR
 * channels instead, so a short row costs no padded vector. Work is split
 * by (image, group, panel, column chunk) into four shares a thread that the
 * threads claim as they come free. Where the conv widens (an expansion) the
 * order is panel-major: the panel stays in L1 while the image streams from
 * L2 and each tile row is written as a run. Where it narrows (a projection
 * from a wide image) it is chunk-major: a chunk's K x 48 pixels are read
 * once for all the (few) panels instead of once per panel, and two
 * threads each read only their own pixels of the wide image (measured:
 * MobileNet-v2's 144->24 at 56x56 12% faster on one thread). */

/* k steps a tile asks for its weight panel ahead (at its end, the next
 * panel's), so weights coming from memory stream in under the multiplies
 * (ResNeXt's 2048->1024 on 7x7, cold weights: 1.76 -> 1.20 ms, COLD=96
 * build/conv_bench). */
#define GE__AIC_PW_PF 64
#define GE__AIC_PW_NV 3     /* vectors of pixels per register tile */
#define GE__AIC_PW_SHARES 4 /* shares of the work per thread */
#define GE__AIC_PW_L2_IMAGE (1 << 20) /* bytes of one image at most for panel-major order */
#define GE__AIC_PW_RUN 6144 /* floats of tiles whose late activation goes in one call a row (in L1) */

#define GE__AIC_PW_R4(X) X(0) X(1) X(2) X(3)
#define GE__AIC_PW_R8(X) GE__AIC_PW_R4(X) X(4) X(5) X(6) X(7)
#define GE__AIC_PW_DECL(r) VZ_ c##r##_0 = z_, c##r##_1 = z_, c##r##_2 = z_;
#define GE__AIC_PW_FMA(r)                                                                                              \
  {                                                                                                                    \
    c##r##_0 += ak[r] * b0;                                                                                            \
    if (nv_ > 1) c##r##_1 += ak[r] * b1;                                                                               \
    if (nv_ > 2) c##r##_2 += ak[r] * b2;                                                                               \
  }
#define GE__AIC_PW_OUTX(r, LATE)                                                                                       \
  if ((r) < rows) {                                                                                                    \
    float *cr = c + (r) * ldc;                                                                                         \
    const float *res = resb ? resb + (r) * ldr : NULL, *rp = res ? res : cr; /* rp: read only with res */            \
    vb = z_ + (bias ? bias[r] : 0.0f);                                                                                 \
    GE__AIC_EPI_VEC(VZ_, VI_, c##r##_0, q, rp)                                                                        \
    LATE(c##r##_0)                                                                                                     \
    memcpy(cr, &c##r##_0, sizeof q);                                                                                   \
    if (nv_ > 1) {                                                                                                     \
      GE__AIC_EPI_VEC(VZ_, VI_, c##r##_1, q, rp + vl_)                                                                \
      LATE(c##r##_1)                                                                                                   \
      memcpy(cr + vl_, &c##r##_1, sizeof q);                                                                           \
    }                                                                                                                  \
    if (nv_ > 2) {                                                                                                     \
      GE__AIC_EPI_VEC(VZ_, VI_, c##r##_2, q, rp + 2 * vl_)                                                            \
      LATE(c##r##_2)                                                                                                   \
      memcpy(cr + 2 * vl_, &c##r##_2, sizeof q);                                                                       \
    }                                                                                                                  \
  }
#define GE__AIC_PW_OUT_avx512(r) GE__AIC_PW_OUTX(r, GE__AIC_SILU_V16)
#define GE__AIC_PW_OUT_avx2(r) GE__AIC_PW_OUTX(r, GE__AIC_NO_LATE)
#define GE__AIC_PW_OUT_base(r) GE__AIC_PW_OUTX(r, GE__AIC_NO_LATE)
/* A tile's input prologue (ge__aic_pw_tile_pre): b[k * ldb + j] becomes
 * act(b scale[k] + shift[k]) (act Relu if relu, else none), also stored
 * at dst[k * ldd + j] for the panels that read the chunk after it. */
typedef struct ge__aic_pre_tile {
  const float *scale, *shift;
  int relu;
  float *dst;
  int64_t ldd;
} ge__aic_pre_tile;
/* The input prologue on one value: v scale + shift, then Relu if relu
 * (v < 0 ? 0 : v, so NaN stays NaN as in the tiles). */
static float ge__aic_pre1(float v, float scale, float shift, int relu) {
  v = v * scale + shift;
  return relu && v < 0.0f ? 0.0f : v;
}

#define GE__AIC_PW_PRE1(v, off)                                                                                        \
  {                                                                                                                    \
    v = v * ps_ + pt_;                                                                                                 \
    if (pre->relu) {                                                                                                   \
      VI_ m_ = v < z_;                                                                                                 \
      GE__AIC_SEL(VI_, v, m_, z_)                                                                                      \
    }                                                                                                                  \
    memcpy(pre->dst + k * pre->ldd + (off), &v, sizeof v);                                                             \
  }
/* c[r * ldc + j] = act(bias[r] + sum_k a[k * MR + r] b[k * ldb + j] +
 * resb[r * ldr + j]) for r < rows, j < NV * VL (bias, resb may be NULL);
 * the _pre copies (PRE 1) run the prologue `pre` on b first. */
#define GE__AIC_PWK(S, NV, ATTR, VT, VI, MR, ROWS) GE__AIC_PWKX(S, NV, ATTR, VT, VI, MR, ROWS, , 0)
#define GE__AIC_PWKX(S, NV, ATTR, VT, VI, MR, ROWS, SUF, PRE)                                                          \
  static ATTR void ge__aic_pwk##SUF##_##S##_##NV(const float *a, const float *b, int64_t ldb, int64_t K, float *c,    \
                                          int64_t ldc, int64_t rows, const float *bias, const float *resb,            \
                                          int64_t ldr, int kind, float lo, float hi, const ge__aic_pre_tile *pre) {    \
    typedef VT VZ_;                                                                                                    \
    typedef VI VI_;                                                                                                    \
    const int nv_ = NV, vl_ = (int)(sizeof(VT) / sizeof(float));                                                       \
    const VT z_ = {0};                                                                                                 \
    VT b0 = z_, b1 = z_, b2 = z_, vb, vlo = z_ + (kind == GE__AIC_ACT_RELU ? 0.0f : lo), vhi = z_ + hi, vz = z_;     \
    VT vone = z_ + 1.0f, q;                                                                                            \
    const int silu_ = kind == GE__AIC_ACT_SILU; /* kind SiLU: the AVX-512 copies only */                               \
    int64_t k;                                                                                                         \
    if (silu_) kind = GE__AIC_ACT_NONE;                                                                                \
    ROWS(GE__AIC_PW_DECL)                                                                                              \
    for (k = 0; k < K; k++) {                                                                                          \
      const float *bk = b + k * ldb, *ak = a + k * (MR);                                                               \
      __builtin_prefetch(ak + GE__AIC_PW_PF * (MR));                                                                   \
      memcpy(&b0, bk, sizeof b0);                                                                                      \
      if (nv_ > 1) memcpy(&b1, bk + vl_, sizeof b1);                                                                   \
      if (nv_ > 2) memcpy(&b2, bk + 2 * vl_, sizeof b2);                                                               \
      if (PRE) {                                                                                                       \
        VT ps_ = z_ + pre->scale[k], pt_ = z_ + pre->shift[k];                                                         \
        GE__AIC_PW_PRE1(b0, 0)                                                                                         \
        if (nv_ > 1) GE__AIC_PW_PRE1(b1, vl_)                                                                          \
        if (nv_ > 2) GE__AIC_PW_PRE1(b2, 2 * vl_)                                                                      \
      }                                                                                                                \
      ROWS(GE__AIC_PW_FMA)                                                                                             \
    }                                                                                                                  \
    ROWS(GE__AIC_PW_OUT_##S)                                                                                           \
    (void)b1, (void)b2, (void)vz, (void)vone, (void)silu_, (void)pre;                                                  \
  }
/* The same for `cols` single columns (any count), vectors over the panel's
 * MR rows (VH holds MR floats): four columns at a time over two phases of
 * k, or the last one or two over four phases (eight FMA chains either way,
 * so a lone column is not bound by the FMA latency). */
#define GE__AIC_PWC_OUTX(u, acc, LATE)                                                                                       \
  if (j + (u) < cols) {                                                                                                \
    const float *res = resb ? tq : NULL;                                                                               \
    for (i = 0; i < rows && resb; i++) tq[i] = resb[i * ldr + j + (u)];                                                \
    GE__AIC_EPI_VEC(VH, VIH, acc, q, tq)                                                                               \
    LATE(acc)                                                                                                          \
    memcpy(tv, &acc, sizeof tv);                                                                                       \
    for (i = 0; i < rows; i++) c[i * ldc + j + (u)] = tv[i];                                                           \
  }
#define GE__AIC_PWC_OUT_avx512(u, acc) GE__AIC_PWC_OUTX(u, acc, GE__AIC_SILU_V8)
#define GE__AIC_PWC_OUT_avx2(u, acc) GE__AIC_PWC_OUTX(u, acc, GE__AIC_NO_LATE)
#define GE__AIC_PWC_OUT_base(u, acc) GE__AIC_PWC_OUTX(u, acc, GE__AIC_NO_LATE)
#define GE__AIC_PWC_LD(d, kk) memcpy(&d, a + (kk) * mr_, sizeof d);
#define GE__AIC_PWC(S, ATTR, VH_, VIH_, MR)                                                                            \
  static ATTR void ge__aic_pwc_##S(const float *a, const float *b, int64_t ldb, int64_t K, float *c, int64_t ldc,    \
                                   int64_t rows, int64_t cols, const float *bias, const float *resb, int64_t ldr,      \
                                   int kind, float lo, float hi) {                                                     \
    typedef VH_ VH;                                                                                                    \
    typedef VIH_ VIH;                                                                                                  \
    const VH z_ = {0};                                                                                                 \
    VH vb, vlo = z_ + (kind == GE__AIC_ACT_RELU ? 0.0f : lo), vhi = z_ + hi, vz = z_, vone = z_ + 1.0f, q, v0, v1,   \
                                                                                                   v2, v3;            \
    float tb[MR] = {0}, tq[MR] = {0}, tv[MR];                                                                          \
    const int64_t mr_ = (MR);                                                                                          \
    const int silu_ = kind == GE__AIC_ACT_SILU; /* kind SiLU: the AVX-512 copy only */                                 \
    int64_t i, j, k;                                                                                                   \
    if (silu_) kind = GE__AIC_ACT_NONE;                                                                                \
    for (i = 0; i < rows && bias; i++) tb[i] = bias[i];                                                                \
    memcpy(&vb, tb, sizeof vb);                                                                                        \
    for (j = 0; j < cols; j += 4) {                                                                                    \
      VH a0 = z_, a1 = z_, a2 = z_, a3 = z_, e0 = z_, e1 = z_, e2 = z_, e3 = z_;                                       \
      if (cols - j >= 3) { /* four columns (the fourth may repeat the third), k in pairs */                           \
        const int64_t j3 = ge__aic_min(j + 3, cols - 1);                                                               \
        for (k = 0; k + 2 <= K; k += 2) {                                                                              \
          const float *p0 = b + k * ldb, *p1 = p0 + ldb;                                                               \
          GE__AIC_PWC_LD(v0, k) GE__AIC_PWC_LD(v1, k + 1)                                                              \
          a0 += v0 * p0[j], a1 += v0 * p0[j + 1], a2 += v0 * p0[j + 2], a3 += v0 * p0[j3];                             \
          e0 += v1 * p1[j], e1 += v1 * p1[j + 1], e2 += v1 * p1[j + 2], e3 += v1 * p1[j3];                             \
        }                                                                                                              \
        for (; k < K; k++) {                                                                                           \
          const float *p0 = b + k * ldb;                                                                               \
          GE__AIC_PWC_LD(v0, k)                                                                                        \
          a0 += v0 * p0[j], a1 += v0 * p0[j + 1], a2 += v0 * p0[j + 2], a3 += v0 * p0[j3];                             \
        }                                                                                                              \
        a0 += e0, a1 += e1, a2 += e2, a3 += e3;                                                                        \
      } else { /* one or two columns (the second may repeat the first), k in fours */                                \
        const int64_t j1 = ge__aic_min(j + 1, cols - 1);                                                               \
        for (k = 0; k + 4 <= K; k += 4) {                                                                              \
          const float *p0 = b + k * ldb, *p1 = p0 + ldb, *p2 = p1 + ldb, *p3 = p2 + ldb;                               \
          GE__AIC_PWC_LD(v0, k) GE__AIC_PWC_LD(v1, k + 1) GE__AIC_PWC_LD(v2, k + 2) GE__AIC_PWC_LD(v3, k + 3)          \
          a0 += v0 * p0[j], a1 += v0 * p0[j1], a2 += v1 * p1[j], a3 += v1 * p1[j1];                                    \
          e0 += v2 * p2[j], e1 += v2 * p2[j1], e2 += v3 * p3[j], e3 += v3 * p3[j1];                                    \
        }                                                                                                              \
        for (; k < K; k++) {                                                                                           \
          const float *p0 = b + k * ldb;                                                                               \
          GE__AIC_PWC_LD(v0, k)                                                                                        \
          a0 += v0 * p0[j], a1 += v0 * p0[j1];                                                                         \
        }                                                                                                              \
        a0 = (a0 + a2) + (e0 + e2), a1 = (a1 + a3) + (e1 + e3);                                                        \
      }                                                                                                                \
      GE__AIC_PWC_OUT_##S(0, a0) GE__AIC_PWC_OUT_##S(1, a1) GE__AIC_PWC_OUT_##S(2, a2)                                 \
      GE__AIC_PWC_OUT_##S(3, a3)                                                                                       \
    }                                                                                                                  \
    (void)vz, (void)vone, (void)silu_;                                                                                 \
  }
#ifdef GE__AIC_VEC
#define GE__AIC_PW_BASE_ATTR
#define GE__AIC_PWK2(S, NV, ATTR, VT, VI, MR, ROWS)                                                                    \
  GE__AIC_PWK(S, NV, ATTR, VT, VI, MR, ROWS)                                                                           \
  GE__AIC_PWKX(S, NV, ATTR, VT, VI, MR, ROWS, _pre, 1)
GE__AIC_PWK2(base, 1, GE__AIC_PW_BASE_ATTR, ge__aic_v4, ge__aic_i4, 4, GE__AIC_PW_R4)
GE__AIC_PWK2(base, 2, GE__AIC_PW_BASE_ATTR, ge__aic_v4, ge__aic_i4, 4, GE__AIC_PW_R4)
GE__AIC_PWK2(base, 3, GE__AIC_PW_BASE_ATTR, ge__aic_v4, ge__aic_i4, 4, GE__AIC_PW_R4)
GE__AIC_PWC(base, GE__AIC_PW_BASE_ATTR, ge__aic_v4, ge__aic_i4, 4)
#ifdef GE__AIC_X86
#define GE__AIC_PW_AVX2_ATTR __attribute__((target("avx2,fma"))) GE__AIC_CONTRACT
#define GE__AIC_PW_AVX512_ATTR __attribute__((target("avx512f,fma"))) GE__AIC_CONTRACT
GE__AIC_PWK2(avx2, 1, GE__AIC_PW_AVX2_ATTR, ge__aic_v8, ge__aic_i8, 4, GE__AIC_PW_R4)
GE__AIC_PWK2(avx2, 2, GE__AIC_PW_AVX2_ATTR, ge__aic_v8, ge__aic_i8, 4, GE__AIC_PW_R4)
GE__AIC_PWK2(avx2, 3, GE__AIC_PW_AVX2_ATTR, ge__aic_v8, ge__aic_i8, 4, GE__AIC_PW_R4)
GE__AIC_PWC(avx2, GE__AIC_PW_AVX2_ATTR, ge__aic_v4, ge__aic_i4, 4)
GE__AIC_PWK2(avx512, 1, GE__AIC_PW_AVX512_ATTR, ge__aic_v16, ge__aic_i16, 8, GE__AIC_PW_R8)
GE__AIC_PWK2(avx512, 2, GE__AIC_PW_AVX512_ATTR, ge__aic_v16, ge__aic_i16, 8, GE__AIC_PW_R8)
GE__AIC_PWK2(avx512, 3, GE__AIC_PW_AVX512_ATTR, ge__aic_v16, ge__aic_i16, 8, GE__AIC_PW_R8)
GE__AIC_PWC(avx512, GE__AIC_PW_AVX512_ATTR, ge__aic_v8, ge__aic_i8, 8)
#endif

#ifdef GE__AIC_X86
/* The same for cols < 16 single columns as one masked vector over the
 * pixels (AVX-512, MR 8): eight FMA chains a k like the tile kernels, where
 * the column kernel needs a broadcast and an FMA of 8 lanes per column
 * pair; from GE__AIC_PW_MASKED_COLS columns on it is the cheaper (a
 * 13x13 map leaves 9: 512->1000 1.02 -> 0.94 ms). */
#define GE__AIC_PW_MASKED_COLS 8
#define GE__AIC_PWM_DECL(r) VT c##r = z_;
#define GE__AIC_PWM_FMA(r) c##r += ak[r] * bv;
#define GE__AIC_PWM_OUT(r)                                                                                             \
  if ((r) < rows) {                                                                                                    \
    const float *res = resb ? resb + (r) * ldr : NULL;                                                                 \
    vb = z_ + (bias ? bias[r] : 0.0f);                                                                                 \
    GE__AIC_EPI_MASKED_V16(c##r, mk, res, c + (r) * ldc)                                                               \
  }
static GE__AIC_PW_AVX512_ATTR void ge__aic_pwm_avx512(const float *a, const float *b, int64_t ldb, int64_t K, float *c,
                                                      int64_t ldc, int64_t rows, int64_t cols, const float *bias,
                                                      const float *resb, int64_t ldr, int kind, float lo, float hi) {
  typedef ge__aic_v16 VT;
  const __mmask16 mk = (__mmask16)((1u << cols) - 1u);
  const VT z_ = {0};
  VT vb, vlo = z_ + (kind == GE__AIC_ACT_RELU ? 0.0f : lo), vhi = z_ + hi, vz = z_, vone = z_ + 1.0f, q, bv;
  const int silu_ = kind == GE__AIC_ACT_SILU; /* in registers, as the tile kernels */
  int64_t k;
  if (silu_) kind = GE__AIC_ACT_NONE;
  GE__AIC_PW_R8(GE__AIC_PWM_DECL)
  for (k = 0; k < K; k++) {
    const float *ak = a + k * 8;
    bv = (VT)_mm512_maskz_loadu_ps(mk, b + k * ldb);
    GE__AIC_PW_R8(GE__AIC_PWM_FMA)
  }
  GE__AIC_PW_R8(GE__AIC_PWM_OUT)
  (void)vz, (void)vone, (void)silu_;
}
#endif

/* Panel rows (MR) and vector length of the pointwise tiles at a level. */
static int64_t ge__aic_pw_mr(int level) { return level >= 2 ? 8 : 4; }
static int64_t ge__aic_pw_vl(int level) { return level >= 2 ? 16 : level == 1 ? 8 : 4; }

/* One tile: nv vectors of pixels (0: `cols` single columns); pre (NULL:
 * none; nv > 0 only) runs the input prologue on the tile's pixels. */
static void ge__aic_pw_tile(int level, int nv, const float *a, const float *b, int64_t ldb, int64_t K, float *c,
                            int64_t ldc, int64_t rows, int64_t cols, const float *bias, const float *res, int64_t ldr,
                            int kind, float lo, float hi, const ge__aic_pre_tile *pre) {
  typedef void (*tile_fn)(const float *, const float *, int64_t, int64_t, float *, int64_t, int64_t, const float *,
                          const float *, int64_t, int, float, float, const ge__aic_pre_tile *);
  static const tile_fn base[2][3] = {{ge__aic_pwk_base_1, ge__aic_pwk_base_2, ge__aic_pwk_base_3},
                                     {ge__aic_pwk_pre_base_1, ge__aic_pwk_pre_base_2, ge__aic_pwk_pre_base_3}};
#ifdef GE__AIC_X86
  static const tile_fn avx2[2][3] = {{ge__aic_pwk_avx2_1, ge__aic_pwk_avx2_2, ge__aic_pwk_avx2_3},
                                     {ge__aic_pwk_pre_avx2_1, ge__aic_pwk_pre_avx2_2, ge__aic_pwk_pre_avx2_3}};
  static const tile_fn avx512[2][3] = {{ge__aic_pwk_avx512_1, ge__aic_pwk_avx512_2, ge__aic_pwk_avx512_3},
                                       {ge__aic_pwk_pre_avx512_1, ge__aic_pwk_pre_avx512_2, ge__aic_pwk_pre_avx512_3}};
  if (level >= 2) {
    if (nv) avx512[pre != NULL][nv - 1](a, b, ldb, K, c, ldc, rows, bias, res, ldr, kind, lo, hi, pre);
    else if (cols >= GE__AIC_PW_MASKED_COLS) ge__aic_pwm_avx512(a, b, ldb, K, c, ldc, rows, cols, bias, res, ldr, kind, lo, hi);
    else ge__aic_pwc_avx512(a, b, ldb, K, c, ldc, rows, cols, bias, res, ldr, kind, lo, hi);
    return;
  }
  if (level == 1) {
    if (nv) avx2[pre != NULL][nv - 1](a, b, ldb, K, c, ldc, rows, bias, res, ldr, kind, lo, hi, pre);
    else ge__aic_pwc_avx2(a, b, ldb, K, c, ldc, rows, cols, bias, res, ldr, kind, lo, hi);
    return;
  }
#endif
  if (nv) base[pre != NULL][nv - 1](a, b, ldb, K, c, ldc, rows, bias, res, ldr, kind, lo, hi, pre);
  else ge__aic_pwc_base(a, b, ldb, K, c, ldc, rows, cols, bias, res, ldr, kind, lo, hi);
}

/* Floats of the packed weights of one group. */
static size_t ge__aic_pw_floats(const ge__aic_cv *p, int level) {
  return (size_t)ge__aic_round_up(p->mg, ge__aic_pw_mr(level)) * (size_t)p->cg;
}

typedef struct ge__aic_pwpack {
  const ge__aic_cv *p;
  const float *w;
  int level;
} ge__aic_pwpack;

/* Every group's weights [mg, cg] into panels of MR rows, zero-padded. */
static void ge__aic_pw_pack_fn(const void *arg, float *dst) {
  const ge__aic_pwpack *a = (const ge__aic_pwpack *)arg;
  const ge__aic_cv *p = a->p;
  int64_t mr = ge__aic_pw_mr(a->level), g, m, k, K = p->cg;
  size_t per = ge__aic_pw_floats(p, a->level);
  for (g = 0; g < p->group; g++) {
    float *d = dst + (size_t)g * per;
    const float *w = a->w + g * p->mg * K;
    for (m = 0; m < ge__aic_round_up(p->mg, mr); m++)
      for (k = 0; k < K; k++) d[(m / mr) * mr * K + k * mr + m % mr] = m < p->mg ? w[m * K + k] : 0.0f;
  }
}

typedef struct ge__aic_pw {
  const ge__aic_cv *p;
  const float *x, *apack, *b, *res;
  const float *pre; /* the input prologue: scale[c] then shift[c] (NULL: none) */
  int pre_relu;
  float *work;      /* pre: a buffer of K x lb floats a thread (the chunk after the prologue) */
  int64_t lb;
  ge__aic_slots slots;
  float *y;
  const ge__aic_act *act;
  int level, nv_tail;      /* nv_tail: vectors of the chunk after the full ones (0: none) */
  int64_t mr, vl, full;    /* full: chunks of GE__AIC_PW_NV vectors */
  int64_t cols, chunks;    /* cols: single columns at the end (the column kernel) */
  int64_t panels, units, tasks;
  int cmajor; /* units chunk-major (panel fastest); else panel-major */
  int merged; /* the single columns go with the last chunk of vectors (chunk-major) */
} ge__aic_pw;

/* The activation the register epilogue leaves (SiLU, Sigmoid, Tanh) over
 * a run of tiles: rows x [j0, j1) of y (row stride P). */
typedef struct ge__aic_pwrun {
  float *y;
  int64_t rows, j0, j1;
} ge__aic_pwrun;

static void ge__aic_pw_run_flush(const ge__aic_pw *d, ge__aic_pwrun *r) {
  int64_t i, P = d->p->oh * d->p->ow;
  for (i = 0; r->y && i < r->rows; i++) ge__aic_act_apply(d->act, r->y + i * P + r->j0, r->j1 - r->j0);
  r->y = NULL;
}

/* Adds tile (y, rows, [j0, j0 + n)) to the run, flushing the run first
 * unless the tile continues it (same rows, next pixels) and it is still
 * short enough to be in L1: one activation call per row of the run instead
 * of one per row of every tile (a SiLU call per 48 pixels cost about as
 * much as its math on EfficientNet's expansions). */
static void ge__aic_pw_run_add(const ge__aic_pw *d, ge__aic_pwrun *r, float *y, int64_t rows, int64_t j0, int64_t n) {
  if (r->y != y || r->rows != rows || r->j1 != j0 || (r->j1 - r->j0) * rows >= GE__AIC_PW_RUN) {
    ge__aic_pw_run_flush(d, r);
    r->y = y, r->rows = rows, r->j0 = j0;
  }
  r->j1 = j0 + n;
}

/* Pixels [j, j + n) of the K channels at x (row stride P) through the
 * prologue pt into pt->dst + off: the single columns past the chunk's
 * vectors (n < the vector length), which no tile with a prologue covers. */
#ifdef GE__AIC_X86
static GE__AIC_DW_ATTR512 void ge__aic_pw_pre_cols_avx512(const ge__aic_pre_tile *pt, const float *x, int64_t P,
                                                          int64_t K, int64_t n, float *dst) {
  const __mmask16 m = (__mmask16)((1u << n) - 1u); /* n < 16 */
  const __m512 z = _mm512_setzero_ps();
  int64_t k;
  for (k = 0; k < K; k++) {
    __m512 v = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(m, x + k * P), _mm512_set1_ps(pt->scale[k]), _mm512_set1_ps(pt->shift[k]));
    if (pt->relu) v = _mm512_mask_mov_ps(v, _mm512_cmp_ps_mask(v, z, _CMP_LT_OQ), z);
    _mm512_mask_storeu_ps(dst + k * pt->ldd, m, v);
  }
}
#endif

static void ge__aic_pw_pre_cols(int level, const ge__aic_pre_tile *pt, const float *x, int64_t P, int64_t K, int64_t j,
                                int64_t n, int64_t off) {
  int64_t k, i;
#ifdef GE__AIC_X86
  if (level >= 2) {
    ge__aic_pw_pre_cols_avx512(pt, x + j, P, K, n, pt->dst + off);
    return;
  }
#endif
  (void)level;
  for (k = 0; k < K; k++)
    for (i = 0; i < n; i++) pt->dst[k * pt->ldd + off + i] = ge__aic_pre1(x[k * P + j + i], pt->scale[k], pt->shift[k], pt->relu);
}

/* Share t of the units (image, group, panel, chunk), chunk fastest. With
 * a prologue (chunk-major), the first tile of a chunk in the share runs
 * it and keeps the result in the share's buffer (pixel j of channel k at
 * buf[k * lb + j - jb]), which the chunk's other panels then read. */
static void ge__aic_pw_fn(void *arg, int64_t begin, int64_t end) {
  ge__aic_pw *d = (ge__aic_pw *)arg;
  const ge__aic_cv *p = d->p;
  int64_t P = p->oh * p->ow, K = p->cg, t, u, w = GE__AIC_PW_NV * d->vl;
  int inl = ge__aic_dw_act_inline(d->act, d->level), kind = inl ? d->act->kind : GE__AIC_ACT_NONE;
  size_t per = ge__aic_pw_floats(p, d->level);
  ge__aic_pwrun run;
  run.y = NULL, run.rows = run.j0 = run.j1 = 0;
  for (t = begin; t < end; t++) {
    int64_t slot = d->pre ? ge__aic_slot_claim(&d->slots, t) : 0, have = -1, jb = 0;
    float *buf = d->pre ? d->work + (size_t)slot * (size_t)(K * d->lb) : NULL;
    ge__aic_pre_tile pt;
    for (u = d->units * t / d->tasks; u < d->units * (t + 1) / d->tasks; u++) {
      int64_t ch = d->cmajor ? u / d->panels % d->chunks : u % d->chunks;
      int64_t pn = d->cmajor ? u % d->panels : u / d->chunks % d->panels, ig = u / d->chunks / d->panels;
      int64_t n = ig / p->group, g = ig % p->group, m0 = g * p->mg + pn * d->mr, rows = ge__aic_min(d->mr, p->mg - pn * d->mr);
      int64_t j0 = ch * w, cols = 0, ldb;
      int nv = GE__AIC_PW_NV, first = 0;
      const float *a = d->apack + (size_t)g * per + pn * d->mr * K, *x = d->x + (n * p->c + g * p->cg) * P, *src;
      const float *res = d->res ? d->res + (n * p->m + m0) * P : NULL;
      float *y = d->y + (n * p->m + m0) * P;
      if (ch == d->full && d->nv_tail) nv = d->nv_tail;
      else if (ch >= d->full) nv = 0, j0 = d->full * w + d->nv_tail * d->vl, cols = d->cols;
      if (buf && have != ig * d->chunks + ch) {
        first = 1, have = ig * d->chunks + ch, jb = j0;
        pt.scale = d->pre + g * K, pt.shift = d->pre + p->c + g * K, pt.relu = d->pre_relu, pt.dst = buf, pt.ldd = d->lb;
        if (!nv) ge__aic_pw_pre_cols(d->level, &pt, x, P, K, j0, cols, 0);
      }
      src = x + j0, ldb = P;
      if (buf && !(first && nv)) src = buf + (j0 - jb), ldb = d->lb; /* the chunk after the prologue */
      ge__aic_pw_tile(d->level, nv, a, src, ldb, K, y + j0, P, rows, cols, d->b ? d->b + m0 : NULL,
                      res ? res + j0 : NULL, P, kind, d->act->alpha, d->act->beta, first && nv ? &pt : NULL);
      if (!inl) ge__aic_pw_run_add(d, &run, y, rows, j0, nv ? nv * d->vl : cols);
      if (d->merged && ch == d->chunks - 1) { /* the columns while the panel is in L1 */
        j0 = d->full * w + d->nv_tail * d->vl;
        if (first) ge__aic_pw_pre_cols(d->level, &pt, x, P, K, j0, d->cols, j0 - jb);
        ge__aic_pw_tile(d->level, 0, a, buf ? buf + (j0 - jb) : x + j0, buf ? d->lb : P, K, y + j0, P, rows, d->cols,
                        d->b ? d->b + m0 : NULL, res ? res + j0 : NULL, P, kind, d->act->alpha, d->act->beta, NULL);
        if (!inl) ge__aic_pw_run_add(d, &run, y, rows, j0, d->cols);
      }
    }
    ge__aic_pw_run_flush(d, &run);
    if (buf) ge__aic_slot_release(&d->slots, slot);
  }
}

/* Whether Conv p runs here: 1x1, stride 1, no pads. */
static int ge__aic_pw_fits(const ge__aic_cv *p) {
  return p->kh == 1 && p->kw == 1 && p->sh == 1 && p->sw == 1 && p->ph == 0 && p->pw == 0 && p->oh == p->h &&
         p->ow == p->w;
}

/* The units' order: chunk-major keeps a chunk's K x 48 pixels in cache
 * while every panel reads it (narrowing convs); panel-major keeps a panel's
 * weights while the whole image streams past it once per panel, which pays
 * only while the image stays in L2 (ResNeXt's 256->256 on 56x56, a 3 MB
 * image, ran 2x slower panel-major than chunk-major). */
static int ge__aic_pw_chunk_major(const ge__aic_cv *p) {
  return p->mg < p->cg || (double)p->cg * (double)(p->oh * p->ow) * sizeof(float) > GE__AIC_PW_L2_IMAGE;
}

/* Row stride of a thread's prologue buffer: a chunk and its merged columns. */
static int64_t ge__aic_pw_lb(int level) { return (GE__AIC_PW_NV + 1) * ge__aic_pw_vl(level); }

/* Floats of the prologue buffers of `threads` threads. */
static size_t ge__aic_pw_pre_floats(const ge__aic_cv *p, int level, int64_t threads) {
  return (size_t)threads * (size_t)p->cg * (size_t)ge__aic_pw_lb(level);
}

/* pre: the input prologue (scale[c], shift[c]; NULL: none), Relu after it
 * if pre_relu; work: ge__aic_pw_pre_floats for ge__aic_threads(c). */
static void ge__aic_conv_pointwise(ge_kernel_ctx *c, const ge__aic_cv *p, const float *x, const float *apack,
                                   const float *b, const float *res, const ge__aic_act *act, float *y, int level,
                                   const float *pre, int pre_relu, float *work) {
  ge__aic_pw d;
  int64_t P = p->oh * p->ow, w, rest;
  d.p = p, d.x = x, d.apack = apack, d.b = b, d.res = res, d.y = y, d.act = act, d.level = level;
  d.pre = pre, d.pre_relu = pre_relu, d.work = work, d.lb = ge__aic_pw_lb(level);
  d.mr = ge__aic_pw_mr(level), d.vl = ge__aic_pw_vl(level), w = GE__AIC_PW_NV * d.vl;
  d.full = P / w, rest = P % w;
  d.nv_tail = (int)(rest / d.vl), d.cols = rest % d.vl;
  d.cmajor = pre || ge__aic_pw_chunk_major(p); /* a prologue goes once a chunk */
  /* chunk-major, a chunk of single columns would read every panel again
   * (7x7 maps: 48 pixels then 1, the weights streamed twice) */
  d.merged = d.cmajor && d.cols > 0 && d.full + (d.nv_tail > 0) > 0;
  d.chunks = d.full + (d.nv_tail > 0) + (d.cols > 0 && !d.merged);
  d.panels = (p->mg + d.mr - 1) / d.mr;
  d.units = p->n * p->group * d.panels * d.chunks;
  /* GE__AIC_PW_SHARES shares a thread, claimed as threads come free: a thread
   * that starts late or is preempted (a shared machine) leaves its shares to
   * the others instead of holding the whole loop back */
  d.tasks = ge__aic_min(ge__aic_threads(c) * (ge__aic_threads(c) <= GE__AIC_SLOTS ? GE__AIC_PW_SHARES : 1), d.units);
  if (pre) d.tasks = ge__aic_min(d.tasks, ge__aic_max(ge__aic_threads(c), p->n * p->group * d.chunks));
  if (2.0 * (double)p->n * (double)p->m * (double)P * (double)p->cg < 1e6 || ge__aic_threads(c) <= 1) d.tasks = 1;
  ge__aic_slots_init(&d.slots, d.tasks, ge__aic_threads(c));
  ge__aic_on_tasks(c, d.tasks, ge__aic_pw_fn, &d);
}
#endif /* GE__AIC_VEC */

/* A convolution with a handful of output pixels per image (the short
 * frames of a streaming model): each output is the dot product of a weight
 * row with one im2col column, both contiguous along K, so nothing is padded
 * to a register tile and the weights are read as they are (no packing). */
#define GE__AIC_FEW_PIXELS 8

/* cols[j*K + k] = im2col(x)(k, j) for the P output pixels of one group. */
static void ge__aic_im2col_t(const ge__aic_cv *p, const float *x, int64_t K, float *cols) {
  int64_t j, ch, ki, kj, P = p->oh * p->ow;
  for (j = 0; j < P; j++) {
    int64_t oh = j / p->ow, ow = j % p->ow;
    float *d = cols + j * K;
    for (ch = 0; ch < p->cg; ch++) {
      const float *xc = x + ch * p->h * p->w;
      for (ki = 0; ki < p->kh; ki++) {
        int64_t ih = oh * p->sh - p->ph + ki * p->dh, iw = ow * p->sw - p->pw;
        if (ih < 0 || ih >= p->h) {
          memset(d, 0, (size_t)p->kw * sizeof(float));
          d += p->kw;
          continue;
        }
        for (kj = 0; kj < p->kw; kj++, iw += p->dw) *d++ = iw >= 0 && iw < p->w ? xc[ih * p->w + iw] : 0.0f;
      }
    }
  }
}

/* C[i*ldc + j] = w[i*K ..] . cols[j*K ..] for rows [i0, i1): four weight
 * rows against two columns at a time (eight FMA chains), K in vectors,
 * lanes summed in four partial chains, then the tail. An odd last column
 * is computed twice and stored once. */
#define GE__AIC_DOT_FMA(a, wp) memcpy(&q, wp + k, sizeof q), a##0 += q * v0, a##1 += q * v1;
#define GE__AIC_DOTS(S, ATTR, VT, VL)                                                                                  \
  static ATTR void ge__aic_dots_##S(int64_t i0, int64_t i1, int64_t N, int64_t K, const float *w, const float *cols,   \
                                    float *C, int64_t ldc) {                                                          \
    const VT z_ = {0};                                                                                                 \
    int64_t i, j, k, r, l, c;                                                                                          \
    for (i = i0; i < i1; i += 4) {                                                                                     \
      const float *w0 = w + i * K, *w1 = w0, *w2 = w0, *w3 = w0;                                                       \
      r = ge__aic_min(4, i1 - i);                                                                                      \
      if (r > 1) w1 = w0 + K;                                                                                          \
      if (r > 2) w2 = w0 + 2 * K;                                                                                      \
      if (r > 3) w3 = w0 + 3 * K;                                                                                      \
      for (j = 0; j < N; j += 2) {                                                                                     \
        const float *c0 = cols + j * K, *c1 = j + 1 < N ? c0 + K : c0;                                                 \
        VT a0 = z_, a1 = z_, b0 = z_, b1 = z_, d0 = z_, d1 = z_, e0 = z_, e1 = z_, v0, v1, q;                          \
        float t[8][VL], s[8];                                                                                          \
        for (k = 0; k + (VL) <= K; k += (VL)) {                                                                        \
          memcpy(&v0, c0 + k, sizeof v0);                                                                              \
          memcpy(&v1, c1 + k, sizeof v1);                                                                              \
          GE__AIC_DOT_FMA(a, w0) GE__AIC_DOT_FMA(b, w1) GE__AIC_DOT_FMA(d, w2) GE__AIC_DOT_FMA(e, w3)                  \
        }                                                                                                              \
        memcpy(t[0], &a0, sizeof a0), memcpy(t[1], &a1, sizeof a1), memcpy(t[2], &b0, sizeof b0);                      \
        memcpy(t[3], &b1, sizeof b1), memcpy(t[4], &d0, sizeof d0), memcpy(t[5], &d1, sizeof d1);                      \
        memcpy(t[6], &e0, sizeof e0), memcpy(t[7], &e1, sizeof e1);                                                    \
        for (c = 0; c < 8; c++) {                                                                                      \
          const float *wr = c < 2 ? w0 : c < 4 ? w1 : c < 6 ? w2 : w3, *cc = c & 1 ? c1 : c0;                          \
          float p0 = 0, p1 = 0, p2 = 0, p3 = 0;                                                                        \
          for (l = 0; l < (VL); l += 4) p0 += t[c][l], p1 += t[c][l + 1], p2 += t[c][l + 2], p3 += t[c][l + 3];        \
          s[c] = (p0 + p1) + (p2 + p3);                                                                                \
          for (l = k; l < K; l++) s[c] += wr[l] * cc[l];                                                               \
        }                                                                                                              \
        for (l = 0; l < r; l++) {                                                                                      \
          C[(i + l) * ldc + j] = s[2 * l];                                                                             \
          if (j + 1 < N) C[(i + l) * ldc + j + 1] = s[2 * l + 1];                                                      \
        }                                                                                                              \
      }                                                                                                                \
    }                                                                                                                  \
  }
#ifdef GE__AIC_VEC
GE__AIC_DOTS(base, , ge__aic_v4, 4)
#ifdef GE__AIC_X86
GE__AIC_DOTS(avx2, __attribute__((target("avx2,fma"))) GE__AIC_CONTRACT, ge__aic_v8, 8)
GE__AIC_DOTS(avx512, __attribute__((target("avx512f,fma"))) GE__AIC_CONTRACT, ge__aic_v16, 16)
#endif
#else
static void ge__aic_dots_base(int64_t i0, int64_t i1, int64_t N, int64_t K, const float *w, const float *cols,
                              float *C, int64_t ldc) {
  int64_t i, j, k;
  for (i = i0; i < i1; i++)
    for (j = 0; j < N; j++) {
      float s = 0.0f;
      for (k = 0; k < K; k++) s += w[i * K + k] * cols[j * K + k];
      C[i * ldc + j] = s;
    }
}
#endif

/* Constant weights of a few-pixel conv packed once for AVX-512 as
 * [group][64-row panel][k][64] (zeros past mg): the panel's rows in lanes,
 * so a pixel's sums are vertical FMAs over one contiguous weight stream
 * (a squeeze-excite gate, one pixel against 960 x 240 weights, spent as
 * long summing its dot products' lanes as multiplying). */
#define GE__AIC_DOTP_MR 64
typedef struct ge__aic_dotpack {
  const ge__aic_cv *p;
  const float *w;
} ge__aic_dotpack;

static size_t ge__aic_dotp_floats(const ge__aic_cv *p) {
  return (size_t)(p->group * ge__aic_round_up(p->mg, GE__AIC_DOTP_MR) * p->cg * p->kh * p->kw);
}
static void ge__aic_dotp_pack_fn(const void *arg, float *dst) {
  const ge__aic_dotpack *a = (const ge__aic_dotpack *)arg;
  const ge__aic_cv *p = a->p;
  int64_t K = p->cg * p->kh * p->kw, g, i0, k, r;
  for (g = 0; g < p->group; g++)
    for (i0 = 0; i0 < p->mg; i0 += GE__AIC_DOTP_MR)
      for (k = 0; k < K; k++)
        for (r = 0; r < GE__AIC_DOTP_MR; r++)
          *dst++ = i0 + r < p->mg ? a->w[(g * p->mg + i0 + r) * K + k] : 0.0f;
}

#ifdef GE__AIC_X86
/* Rows [i0, i0 + 64) of C (ldc P) from panel wp: two pixels at a time,
 * eight FMA chains, rows past M not stored. */
static __attribute__((target("avx512f"))) void ge__aic_dotp_avx512(const float *wp, int64_t i0, int64_t M, int64_t P,
                                                                  int64_t K, const float *cols, float *C) {
  int64_t j, k, r, rows = ge__aic_min(GE__AIC_DOTP_MR, M - i0);
  float t[2][GE__AIC_DOTP_MR];
  for (j = 0; j < P; j += 2) {
    const float *c0 = cols + j * K, *c1 = j + 1 < P ? c0 + K : c0;
    __m512 a0 = _mm512_setzero_ps(), a1 = a0, a2 = a0, a3 = a0, b0 = a0, b1 = a0, b2 = a0, b3 = a0;
    for (k = 0; k < K; k++) {
      const float *w = wp + k * GE__AIC_DOTP_MR;
      const __m512 x0 = _mm512_set1_ps(c0[k]), x1 = _mm512_set1_ps(c1[k]);
      const __m512 w0 = _mm512_loadu_ps(w), w1 = _mm512_loadu_ps(w + 16), w2 = _mm512_loadu_ps(w + 32);
      const __m512 w3 = _mm512_loadu_ps(w + 48);
      a0 = _mm512_fmadd_ps(w0, x0, a0), a1 = _mm512_fmadd_ps(w1, x0, a1);
      a2 = _mm512_fmadd_ps(w2, x0, a2), a3 = _mm512_fmadd_ps(w3, x0, a3);
      b0 = _mm512_fmadd_ps(w0, x1, b0), b1 = _mm512_fmadd_ps(w1, x1, b1);
      b2 = _mm512_fmadd_ps(w2, x1, b2), b3 = _mm512_fmadd_ps(w3, x1, b3);
    }
    _mm512_storeu_ps(t[0], a0), _mm512_storeu_ps(t[0] + 16, a1), _mm512_storeu_ps(t[0] + 32, a2);
    _mm512_storeu_ps(t[0] + 48, a3), _mm512_storeu_ps(t[1], b0), _mm512_storeu_ps(t[1] + 16, b1);
    _mm512_storeu_ps(t[1] + 32, b2), _mm512_storeu_ps(t[1] + 48, b3);
    for (r = 0; r < rows; r++) {
      C[(i0 + r) * P + j] = t[0][r];
      if (j + 1 < P) C[(i0 + r) * P + j + 1] = t[1][r];
    }
  }
}
#endif

typedef struct ge__aic_dotjob {
  int level;
  int64_t M, N, K;
  const float *w, *cols, *wpack; /* wpack: 64-row panels (ge__aic_dotp_pack_fn) or NULL */
  float *C;
} ge__aic_dotjob;

/* Rows [4 begin, 4 end) of a dot job (panels [begin, end) when packed). */
static void ge__aic_dots_fn(void *arg, int64_t begin, int64_t end) {
  const ge__aic_dotjob *d = (const ge__aic_dotjob *)arg;
  int64_t i0 = 4 * begin, i1 = ge__aic_min(d->M, 4 * end), u;
#ifdef GE__AIC_X86
  if (d->wpack) {
    for (u = begin; u < end; u++)
      ge__aic_dotp_avx512(d->wpack + u * GE__AIC_DOTP_MR * d->K, u * GE__AIC_DOTP_MR, d->M, d->N, d->K, d->cols, d->C);
    return;
  }
  if (d->level >= 2) ge__aic_dots_avx512(i0, i1, d->N, d->K, d->w, d->cols, d->C, d->N);
  else if (d->level == 1) ge__aic_dots_avx2(i0, i1, d->N, d->K, d->w, d->cols, d->C, d->N);
  else
#endif
    ge__aic_dots_base(i0, i1, d->N, d->K, d->w, d->cols, d->C, d->N);
}

/* The epilogue of a few-pixel block c[rows][P] (contiguous): the bias and
 * residual per value, then the activation over the whole block in one call
 * (per row it was one call per 1..8 values: a squeeze-excite conv's gate,
 * 1152 Sigmoids of one value each, took 20x its dot products). The same
 * roundings as ge__aic_epilogue: bias, then residual, then activation. */
static void ge__aic_dots_epilogue(const ge__aic_epi *e, float *c, int64_t rows, int64_t P) {
  int64_t i, j;
  for (i = 0; i < rows; i++)
    for (j = 0; j < P; j++) {
      float v = c[i * P + j];
      if (e->row_bias) v += e->row_bias[i];
      if (e->res) v += e->res[i * e->ldr + j];
      c[i * P + j] = v;
    }
  ge__aic_act_apply(&e->act, c, rows * P);
}

/* The conv of every image and group as dot products (P <= GE__AIC_FEW_PIXELS);
 * cols: P * K floats of scratch; wpack: the weights packed by
 * ge__aic_dotp_pack_fn (AVX-512) or NULL. Row blocks go to threads only
 * when each share has about a million multiply-adds. */
static void ge__aic_conv_dots(ge_kernel_ctx *c, const ge__aic_cv *p, const float *x, const float *w, const float *wpack,
                              const float *b, const float *res, const ge__aic_act *act, float *y, int level,
                              float *cols) {
  int64_t P = p->oh * p->ow, K = p->cg * p->kh * p->kw, n, g, mr = wpack ? GE__AIC_DOTP_MR : 4;
  int64_t blocks = (p->mg + mr - 1) / mr, grain = 1 + (int64_t)(1e6 / ((double)mr * (double)P * (double)K));
  ge__aic_epi epi;
  ge__aic_dotjob d;
  memset(&epi, 0, sizeof epi);
  epi.act = *act, epi.ldr = P, epi.level = level;
  d.level = level, d.M = p->mg, d.N = P, d.K = K, d.cols = cols;
  for (n = 0; n < p->n; n++)
    for (g = 0; g < p->group; g++) {
      ge__aic_im2col_t(p, x + (n * p->c + g * p->cg) * p->h * p->w, K, cols);
      d.w = w + g * p->mg * K;
      d.wpack = wpack ? wpack + g * (ge__aic_dotp_floats(p) / (size_t)p->group) : NULL;
      d.C = y + (n * p->m + g * p->mg) * P;
      ge_kernel_parallel_for(c, blocks, grain, ge__aic_dots_fn, &d);
      epi.row_bias = b ? b + g * p->mg : NULL;
      epi.res = res ? res + (n * p->m + g * p->mg) * P : NULL;
      if (!ge__aic_epi_empty(&epi)) ge__aic_dots_epilogue(&epi, d.C, p->mg, P);
    }
}

/* Dense convs as an implicit GEMM: the group's channels are copied once
 * into zero-padded planes split by stride phase (plane (a, b) of a channel
 * holds the padded image's rows a, a + sh, ... and columns b, b + sw, ...),
 * of wq = ow + (kw-1) dw / sw columns and hq = oh + (kh-1) dh / sh rows.
 * The output computed over the wide grid of oh x wq pixels then has, for
 * each row k = (channel, ki, kj) of im2col, its columns at a fixed offset
 * boff[k] of the planes. The micro-kernels read B there directly (no
 * im2col packing); each block of the wide output is accumulated in a
 * per-thread scratch block and then copied to y without the junk columns
 * at the end of each row, with the epilogue. */
typedef struct ge__aic_xc {
  const ge__aic_kern *k;
  const ge__aic_cv *p;
  const float *apack, *xp;
  const int64_t *boff;
  int64_t M, K, Nw, wq, ldb, tasks;
  int split_m;
  float *y, *work; /* work: per thread Mp x ldb floats (+ 16), claimed through slots */
  const ge__aic_epi *epi;
  ge__aic_slots slots;
  ge__aic_guide guide; /* the shares' units (mr rows or nr columns) */
} ge__aic_xc;

static int64_t ge__aic_xc_wq(const ge__aic_cv *p) { return p->ow + (p->kw - 1) * p->dw / p->sw; }
static int64_t ge__aic_xc_hq(const ge__aic_cv *p) { return p->oh + (p->kh - 1) * p->dh / p->sh; }
/* Floats of one channel's phase planes. */
static int64_t ge__aic_xc_plane(const ge__aic_cv *p) { return p->sh * p->sw * ge__aic_xc_hq(p) * ge__aic_xc_wq(p); }
/* Floats past the planes the kernels may read (junk columns only). */
static int64_t ge__aic_xc_slack(const ge__aic_cv *p) { return ge__aic_xc_wq(p) + 2 * GE__AIC_NC / 8 + 64; }

/* Whether a conv takes the implicit path: strides up to 4, the junk columns
 * at most half a row. Not 1x1 convs with strides (they would copy phases
 * they never read; im2col packing picks the pixels they need), nor 1x1
 * stride-1 convs without pads (the image is B as it is). */
static int ge__aic_xc_fits(const ge__aic_kern *k, const ge__aic_cv *p) {
  if (!k->xmacro || p->sh > 4 || p->sw > 4) return 0;
  if (p->kh == 1 && p->kw == 1 && (p->sh > 1 || p->sw > 1)) return 0;
  if (p->kh == 1 && p->kw == 1 && p->sh == 1 && p->sw == 1 && p->ph == 0 && p->pw == 0 && p->oh == p->h &&
      p->ow == p->w)
    return 0;
  return 2 * (ge__aic_xc_wq(p) - p->ow) <= p->ow;
}

/* Scratch floats of the implicit path: planes, offsets, per-share blocks. */
static size_t ge__aic_xc_floats(const ge__aic_kern *k, const ge__aic_cv *p, int64_t tasks) {
  int64_t K = p->cg * p->kh * p->kw, Nw = p->oh * ge__aic_xc_wq(p);
  int64_t ldb = ge__aic_min(GE__AIC_NC, ge__aic_round_up(Nw, k->nr));
  return (size_t)(p->cg * ge__aic_xc_plane(p) + ge__aic_xc_slack(p) + 16) + (size_t)(2 * K + 16) +
         (size_t)tasks * (size_t)(ge__aic_round_up(p->mg, k->mr) * ldb + 16);
}

/* Plane rows [ra, rb) of channels [c0, c1) of the group (x) into the
 * zero-padded phase planes xp. */
static void ge__aic_xc_pad(const ge__aic_cv *p, const float *x, float *xp, int64_t c0, int64_t c1, int64_t ra, int64_t rb,
                           int level) {
  int64_t wq = ge__aic_xc_wq(p), hq = ge__aic_xc_hq(p), ch, a, b, r, q;
  for (ch = c0; ch < c1; ch++)
    for (a = 0; a < p->sh; a++)
      for (b = 0; b < p->sw; b++) {
        float *d = xp + ch * ge__aic_xc_plane(p) + (a * p->sw + b) * hq * wq;
        int64_t lo, hi; /* plane columns q inside the image: 0 <= q sw + b - pw < w */
        ge__aic_span(b - p->pw, p->sw, p->w, wq, &lo, &hi);
        if (p->sw == 1 && lo == 0 && hi == wq && wq == p->w && b == p->pw) { /* whole rows: one run */
          int64_t r0, r1; /* plane rows inside the image, then inside [ra, rb) */
          ge__aic_span(a - p->ph, p->sh, p->h, hq, &r0, &r1);
          r0 = ge__aic_min(ge__aic_max(r0, ra), rb), r1 = ge__aic_max(ge__aic_min(r1, rb), r0);
          memset(d + ra * wq, 0, (size_t)((r0 - ra) * wq) * sizeof(float));
          if (p->sh == 1) memcpy(d + r0 * wq, x + (ch * p->h + r0 + a - p->ph) * p->w, (size_t)((r1 - r0) * wq) * sizeof(float));
          else
            for (r = r0; r < r1; r++)
              memcpy(d + r * wq, x + (ch * p->h + r * p->sh + a - p->ph) * p->w, (size_t)wq * sizeof(float));
          memset(d + r1 * wq, 0, (size_t)((rb - r1) * wq) * sizeof(float));
          continue;
        }
        for (r = ra, d += ra * wq; r < rb; r++, d += wq) {
          int64_t ir = r * p->sh + a - p->ph;
          const float *src = x + (ch * p->h + ir) * p->w + b - p->pw;
          if (ir < 0 || ir >= p->h || hi <= lo) {
            memset(d, 0, (size_t)wq * sizeof(float));
            continue;
          }
          memset(d, 0, (size_t)lo * sizeof(float));
          if (p->sw == 1) memcpy(d + lo, src + lo, (size_t)(hi - lo) * sizeof(float));
          else {
            q = lo + (p->sw == 2 ? ge__aic_even(level, src + 2 * lo, hi - lo, d + lo) : 0);
            for (; q < hi; q++) d[q] = src[q * p->sw];
          }
          memset(d + hi, 0, (size_t)(wq - hi) * sizeof(float));
        }
      }
}

/* A padded or phase-plane copy split over threads. */
typedef struct ge__aic_xpad {
  const ge__aic_cv *p;
  const float *x;
  float *xp;
  int64_t tasks;
  int level;
  const int64_t *rows; /* NULL: share t makes its channels' planes; else plane rows [rows[t], rows[t + 1]) of all */
} ge__aic_xpad;

/* Share t of the channels, or of the plane rows. */
static void ge__aic_xpad_fn(void *arg, int64_t begin, int64_t end) {
  const ge__aic_xpad *a = (const ge__aic_xpad *)arg;
  const ge__aic_cv *p = a->p;
  int64_t t;
  for (t = begin; t < end; t++)
    if (a->rows) ge__aic_xc_pad(p, a->x, a->xp, 0, p->cg, a->rows[t], a->rows[t + 1], a->level);
    else ge__aic_xc_pad(p, a->x, a->xp, p->cg * t / a->tasks, p->cg * (t + 1) / a->tasks, 0, ge__aic_xc_hq(p), a->level);
}

/* Rows [m0, m1) and wide columns [jc, jc + nc) of the block buf (row m0 at
 * buf, leading dimension ldb) into y, without junk columns, the epilogue
 * applied on the way (one pass over y). */
static void ge__aic_xc_store(const ge__aic_xc *x, const float *buf, int64_t m0, int64_t m1, int64_t jc, int64_t nc) {
  const ge__aic_cv *p = x->p;
  const ge__aic_epi *e = x->epi;
  int64_t P = p->oh * p->ow, i, r;
  if (x->wq == p->ow) { /* no junk columns: one run per row */
    for (i = m0; i < m1; i++) {
      float *d = x->y + i * P + jc;
      if (e)
        ge__aic_epi_copy_row(&e->act, e->level, d, buf + (i - m0) * x->ldb, nc, e->row_bias ? e->row_bias[i] : 0.0f,
                             e->res ? e->res + i * e->ldr + jc : NULL);
      else memcpy(d, buf + (i - m0) * x->ldb, (size_t)nc * sizeof(float));
    }
    return;
  }
  for (i = m0; i < m1; i++) {
    const float *b = buf + (i - m0) * x->ldb - jc;
    for (r = jc / x->wq; r * x->wq < jc + nc; r++) {
      int64_t a = ge__aic_min(p->ow, jc > r * x->wq ? jc - r * x->wq : 0);
      int64_t z = ge__aic_min(p->ow, jc + nc - r * x->wq);
      float *d = x->y + i * P + r * p->ow;
      if (z <= a) continue;
      if (e)
        ge__aic_epi_copy_row(&e->act, e->level, d + a, b + r * x->wq + a, z - a, e->row_bias ? e->row_bias[i] : 0.0f,
                             e->res ? e->res + i * e->ldr + r * p->ow + a : NULL);
      else memcpy(d + a, b + r * x->wq + a, (size_t)(z - a) * sizeof(float));
    }
  }
}

/* Share t: rows or wide columns split on whole tiles. */
static void ge__aic_xc_fn(void *arg, int64_t begin, int64_t end) {
  ge__aic_xc *x = (ge__aic_xc *)arg;
  const ge__aic_kern *k = x->k;
  int64_t t, Mp = ge__aic_round_up(x->M, k->mr), kcs = ge__aic_kc(x->K);
  for (t = begin; t < end; t++) {
    int64_t unit = x->split_m ? k->mr : k->nr, total = x->split_m ? x->M : x->Nw;
    int64_t a = x->guide.at[t] * unit, b = ge__aic_min(total, x->guide.at[t + 1] * unit);
    int64_t m0 = x->split_m ? a : 0, m1 = x->split_m ? b : x->M, n0 = x->split_m ? 0 : a, n1 = x->split_m ? x->Nw : b;
    int64_t jc, pc, ic, slot = ge__aic_slot_claim(&x->slots, t);
    float *buf = x->work + (size_t)slot * (size_t)(Mp * x->ldb + 16), *bufa;
    bufa = (float *)(((uintptr_t)buf + 63) & ~(uintptr_t)63);
    for (jc = n0; jc < n1; jc += GE__AIC_NC) {
      int64_t nc = ge__aic_min(GE__AIC_NC, n1 - jc), ncr = ge__aic_round_up(nc, k->nr);
      for (pc = 0; pc < x->K; pc += kcs) {
        int64_t kc = ge__aic_min(kcs, x->K - pc);
        for (ic = m0; ic < m1; ic += GE__AIC_MC) {
          int64_t mc = ge__aic_round_up(ge__aic_min(GE__AIC_MC, m1 - ic), k->mr);
          k->xmacro(mc, ge__aic_min(GE__AIC_MC, m1 - ic), ncr, kc, x->apack + pc * Mp + ic * kc, x->xp + jc,
                    x->boff + pc, bufa + (ic - m0) * x->ldb, x->ldb, pc == 0);
        }
      }
      ge__aic_xc_store(x, bufa, m0, m1, jc, nc);
    }
    ge__aic_slot_release(&x->slots, slot);
  }
}

/* One image and group: y (mg x oh ow) from x (its cg channels); work holds
 * ge__aic_xc_floats(k, p, tasks) floats. */
static void ge__aic_conv_implicit(ge_kernel_ctx *c, const ge__aic_kern *k, const ge__aic_cv *p, const float *x,
                                  const float *apack, const ge__aic_epi *epi, float *y, int64_t tasks, float *work) {
  ge__aic_xc xc;
  ge__aic_xpad xa;
  int64_t hq = ge__aic_xc_hq(p), q, mu, nu, rows[GE__AIC_GUIDE_MAX + 1];
  int64_t *boff;
  float *xp = work;
  double flops;
  memset(&xc, 0, sizeof xc);
  xc.k = k, xc.p = p, xc.apack = apack, xc.xp = xp, xc.y = y, xc.epi = ge__aic_epi_empty(epi) ? NULL : epi;
  xc.M = p->mg, xc.K = p->cg * p->kh * p->kw, xc.wq = ge__aic_xc_wq(p), xc.Nw = p->oh * xc.wq;
  xc.ldb = ge__aic_min(GE__AIC_NC, ge__aic_round_up(xc.Nw, k->nr));
  boff = (int64_t *)(void *)(xp + ((p->cg * ge__aic_xc_plane(p) + ge__aic_xc_slack(p) + 15) & ~(int64_t)15));
  xc.work = (float *)(void *)(boff + ((xc.K + 7) & ~(int64_t)7));
  xc.boff = boff;
  for (q = 0; q < xc.K; q++) {
    int64_t khw = p->kh * p->kw, ch = q / khw, ki = q % khw / p->kw, kj = q % p->kw;
    int64_t phase = ki * p->dh % p->sh * p->sw + kj * p->dw % p->sw;
    boff[q] = ch * ge__aic_xc_plane(p) + (phase * hq + ki * p->dh / p->sh) * xc.wq + kj * p->dw / p->sw;
  }
  mu = (xc.M + k->mr - 1) / k->mr, nu = (xc.Nw + k->nr - 1) / k->nr;
  flops = 2.0 * (double)xc.M * (double)xc.Nw * (double)xc.K;
  if (tasks <= 1 || !c || flops < 2e6 || (mu < 2 && nu < 2)) tasks = 1;
  /* the columns when they give every thread its GE__AIC_SHARES shares
   * (each thread reads only the plane rows under its own pixels; by rows
   * both read every plane row, half written by the other vCPU: Inception's
   * 3x3/2 288->384 on 35x35 at 2 threads 2.8 -> 2.2 ms), else the rows when
   * they do (a 64-channel stem's 6 row panels did not), else the columns;
   * guided shares, B read in place either way */
  xc.split_m = nu < GE__AIC_SHARES * tasks && (mu >= GE__AIC_SHARES * tasks || mu >= nu);
  ge__aic_guide_make(&xc.guide, tasks, xc.split_m ? mu : nu, 1, flops);
  xc.tasks = xc.guide.n;
  xa.p = p, xa.x = x, xa.xp = xp, xa.level = k->level, xa.rows = NULL, xa.tasks = 1;
  if (tasks > 1 && !xc.split_m) { /* each column share makes the plane rows under its pixels first, so that the
                                     thread that runs it reads them from its own cache (RGB stems: 3 channels) */
    for (q = 0; q < xc.tasks; q++) rows[q] = q ? xc.guide.at[q] * k->nr / xc.wq : 0;
    rows[xc.tasks] = hq;
    xa.tasks = xc.tasks, xa.rows = rows;
  } else if (tasks > 1 && p->cg >= tasks) { /* the planes over the threads by channels */
    xa.tasks = ge__aic_shares(tasks, p->cg, 1, flops);
  }
  ge__aic_on_tasks(c, xa.tasks, ge__aic_xpad_fn, &xa);
  memset(xp + p->cg * ge__aic_xc_plane(p), 0, (size_t)ge__aic_xc_slack(p) * sizeof(float));
  ge__aic_slots_init(&xc.slots, xc.tasks, tasks);
  ge__aic_on_tasks(c, xc.tasks, ge__aic_xc_fn, &xc);
}

/* ------------------------------------------------ small-image direct conv
 *
 * Convs whose output is as wide as the input (ow == w: stride 1 and "same"
 * padding along W, or kw = 1 without W pads), like the 1x3 and 3x1 convs of
 * small speech CNNs. Then every tap (ki, kj) reads, for output pixel p of
 * the flattened oh x ow plane, the input pixel p + toff[tap] of the
 * flattened h x w plane: a run of 16 output pixels reads 16 contiguous
 * input floats, with the lanes whose row or column falls in the padding
 * masked off (AVX-512 masked loads; no padded copy, no junk columns, no
 * im2col). Strided convs (up to 4) whose input split by stride phase is no
 * wider than the output (ceil(w / sw) <= ow: "same" padding, as in the
 * downsampling convs of detectors) read the same way from a copy of the
 * input split into phase planes of ow columns (plane (a, b) holds rows a,
 * a + sh, ... and columns b, b + sw, ...): a tap is then a phase plane and
 * a shift. A 12 x 32 tile (12 output channels, 32 pixels; 8 x 32 when
 * 8-channel blocks waste fewer rows, as for 8 or 16 channels) sums over taps
 * and channels in registers, gets the bias, residual and activation there
 * and is stored once into y with the pixel tail masked. Tiles run over
 * images, groups and pixel blocks too, so a batch fills the threads. The
 * weights are packed once as [group][MR-channel block][tap][channel][MR];
 * the lane masks (per 32-pixel block and tap) are computed with them and
 * recomputed when the image size changes. AVX-512 only; other CPUs take
 * the implicit GEMM. */
#define GE__AIC_SC_MR 12
#define GE__AIC_SC_NP 32
#define GE__AIC_SC_KEY 14 /* int64 fields of the geometry key */
#define GE__AIC_SC_PHASE_SPLIT 65536 /* floats of phase planes worth splitting over threads */

typedef struct ge__aic_sc {
  const ge__aic_cv *p;
  const float *x, *wpack, *bias, *res; /* x: the input or its phase planes */
  const float *in;                     /* the input, where the shares make their groups' phase planes */
  const int64_t *toff;    /* per tap: input offset of output pixel 0 */
  const uint16_t *masks;  /* per pixel block and tap: two 16-lane masks */
  float *y;
  ge__aic_act act;
  int64_t P, T, nblk, nmb, per; /* per: packed floats of one group */
  int64_t mr;                   /* output channels of a tile: 12 or 8 */
  int64_t cs;                   /* floats from one input channel to the next */
  int64_t units, tasks;
  int mb_inner; /* the channel block innermost: the input outweighs the group's weights */
  int level;
  ge__aic_guide guide; /* the shares' units */
} ge__aic_sc;

/* Packed layout: weights (groups * per floats), then the geometry key, the
 * tap offsets and the masks. */
/* Output channels of a tile: 12, or 8 when 12-row tiles would compute
 * over a tenth more rows (mg 4..8, 13..16: the few-channel convs of U-Net
 * style blocks, whose 12-row tiles would be a third or half empty; 32 and
 * 64, an eleventh: SqueezeNet's 16->64 on 55x55 0.33 -> 0.28 ms, 32->32 on
 * 40x40 0.16 -> 0.15 at 1 thread, build/conv_bench; 128 and 256 stay 12). */
static int64_t ge__aic_sc_mr(const ge__aic_cv *p) {
  return ge__aic_round_up(p->mg, 8) * 10 < ge__aic_round_up(p->mg, GE__AIC_SC_MR) * 9 ? 8 : GE__AIC_SC_MR;
}
static int64_t ge__aic_sc_nmb(const ge__aic_cv *p) { return (p->mg + ge__aic_sc_mr(p) - 1) / ge__aic_sc_mr(p); }
static int64_t ge__aic_sc_per(const ge__aic_cv *p) {
  return ge__aic_sc_nmb(p) * p->kh * p->kw * p->cg * ge__aic_sc_mr(p);
}
static int64_t ge__aic_sc_nblk(const ge__aic_cv *p) { return (p->oh * p->ow + GE__AIC_SC_NP - 1) / GE__AIC_SC_NP; }
/* Floats of the geometry key, tap offsets and lane masks (ge__aic_sc_masks_at), and where they start. */
static size_t ge__aic_sc_masks_floats(const ge__aic_cv *p) {
  int64_t T = p->kh * p->kw;
  return (size_t)(2 * (GE__AIC_SC_KEY + T) + (ge__aic_sc_nblk(p) * T * 2 + 1) / 2 + 16);
}
static int64_t *ge__aic_key_at(float *at) { return (int64_t *)(void *)(((uintptr_t)at + 7) & ~(uintptr_t)7); }
static size_t ge__aic_sc_floats(const ge__aic_cv *p) {
  return (size_t)(p->group * ge__aic_sc_per(p)) + ge__aic_sc_masks_floats(p);
}
static int64_t *ge__aic_sc_key(const ge__aic_cv *p, float *pack) {
  return ge__aic_key_at(pack + p->group * ge__aic_sc_per(p));
}

/* Whether the input is read in place (else split into phase planes). */
static int ge__aic_sc_direct(const ge__aic_cv *p) { return p->sh == 1 && p->sw == 1 && p->ow == p->w; }
/* Rows of a phase plane, and floats from one channel's planes to the next. */
static int64_t ge__aic_sc_hp(const ge__aic_cv *p) { return (p->h + p->sh - 1) / p->sh; }
static int64_t ge__aic_sc_cs(const ge__aic_cv *p) {
  return ge__aic_sc_direct(p) ? p->h * p->w : p->sh * p->sw * ge__aic_sc_hp(p) * p->ow;
}

/* Whether a conv takes this path: AVX-512, ow == w at stride 1 or phase
 * planes no wider than the output (strides up to 4), more than a few
 * pixels (fewer: dot products) and at most GE__AIC_SC_MAX_PIXELS (larger
 * images keep the implicit GEMM, unless a group has at most 16 output
 * channels: there whole 8-channel tiles beat the GEMM's 12-row tiles at any
 * size, 1.5x on the RSU convs of seg_rsu), not 1x1 (the pointwise path), not
 * depthwise, K small enough that a pixel block's input stays in L1/L2
 * while every channel block reads it. */
#define GE__AIC_SC_MAX_PIXELS 2560
#define GE__AIC_SC_MAX_K 1152 /* K where this path is preferred to the transposed ones */
/* K up to which it still beats the implicit GEMM (the last choice), measured
 * at 1 thread (bench/conv_bench.c): Inception's 1x7 and 7x1 192->192 on
 * 17x17 (K = 1344) 137 -> 193 and 185 -> 207 GFLOP/s, its 5x5 48->64 on
 * 35x35 (1200) 172 -> 196, AlexNet's 5x5 64->192 on 27x27 (1600) 171 -> 216. */
#define GE__AIC_SC_MAX_K_LAST 2048
static int ge__aic_sc_fits_up_to(const ge__aic_kern *k, const ge__aic_cv *p, int64_t max_pixels, int64_t max_k) {
  int64_t K = p->cg * p->kh * p->kw;
#ifndef GE__AIC_X86
  (void)k, (void)p, (void)K, (void)max_pixels, (void)max_k;
  return 0;
#else
  return k->level >= 2 && p->sh <= 4 && p->sw <= 4 && (p->w + p->sw - 1) / p->sw <= p->ow &&
         p->oh * p->ow > GE__AIC_FEW_PIXELS && (p->oh * p->ow <= max_pixels || p->mg <= 16) && K <= max_k &&
         p->mg >= 4 && p->kh * p->kw > 1 && p->n * p->c * ge__aic_sc_cs(p) <= ((int64_t)1 << 26);
#endif
}
static int ge__aic_sc_fits(const ge__aic_kern *k, const ge__aic_cv *p) {
  return ge__aic_sc_fits_up_to(k, p, GE__AIC_SC_MAX_PIXELS, GE__AIC_SC_MAX_K);
}
/* Whether it takes a conv no other path before the implicit GEMM took. */
static int ge__aic_sc_fits_last(const ge__aic_kern *k, const ge__aic_cv *p) {
  return ge__aic_sc_fits_up_to(k, p, GE__AIC_SC_MAX_PIXELS, GE__AIC_SC_MAX_K_LAST);
}

/* Whether this path beats Winograd on a conv both could take (four: the
 * Winograd would be F(4x4)): with fewer than 64 input channels the 16
 * transformed products have a short depth (cg multiply-adds per C element
 * between its load and store) and the transforms weigh more next to them.
 * Measured at 1 thread: 1.2-1.3x on SqueezeNet's expand convs (16..48
 * input channels, 13x13..55x55 maps) and on cg x pixels up to 51200;
 * slower past it (24->96 on 48x48, 32->32 on 64x64), where Winograd stays.
 * At 64 channels against F(2x2) (maps below 17x17): as fast at 1 thread,
 * 1.55x at 2, where F(2x2)'s two shares (4 and 3 of 7 tile rows) each
 * took 3/4 of the 1-thread time (SqueezeNet's 64->256 on 13x13: 0.248 -> 0.160 ms,
 * build/conv_bench 7 "sq e3x3 64"); F(4x4) stays (64->64 on 28x28: 0.20
 * against 0.32 ms at 1 thread). Where a 512-bit FMA runs as two halves
 * (ge__aic_fma512_half) F(4x4) wins instead, its transforms on the adders:
 * SqueezeNet's 16->64 on 55x55 0.545 -> 0.370 ms and 32->128 on 27x27
 * 0.519 -> 0.298 at 1 thread (build/conv_bench 7 "sq e3x3"; in the model,
 * whose F(4x4) weights, 4x the direct conv's, come from memory, 0.54 ->
 * 0.49 and 0.51 -> 0.40); F(2x2)'s maps stay here (48->192 on 13x13 in the
 * model 0.281 against 0.293). */
#define GE__AIC_SC_WINO_INPUT 51200 /* input channels x output pixels at most */
static int ge__aic_sc_beats_wino(const ge__aic_kern *k, const ge__aic_cv *p, int four) {
  if (four && ge__aic_fma512_half()) return 0;
  return (p->cg < 64 || (p->cg == 64 && !four)) && p->cg * p->oh * p->ow <= GE__AIC_SC_WINO_INPUT &&
         ge__aic_sc_fits_up_to(k, p, GE__AIC_SC_WINO_INPUT, GE__AIC_SC_MAX_K);
}

static void ge__aic_sc_geom(const ge__aic_cv *p, int64_t *key) {
  key[0] = p->h, key[1] = p->w, key[2] = p->kh, key[3] = p->kw, key[4] = p->dh, key[5] = p->dw;
  key[6] = p->ph, key[7] = p->pw, key[8] = p->oh, key[9] = p->ow, key[10] = p->cg, key[11] = p->group;
  key[12] = p->sh, key[13] = p->sw;
}

/* The key, tap offsets and lane masks after the packed weights. */
static void ge__aic_sc_masks_at(const ge__aic_cv *p, int64_t *key) {
  int64_t *toff = key + GE__AIC_SC_KEY, T = p->kh * p->kw, P = p->oh * p->ow;
  int64_t nblk = ge__aic_sc_nblk(p), blk, t, l;
  uint16_t *masks = (uint16_t *)(void *)(toff + T);
  ge__aic_sc_geom(p, key);
  for (t = 0; t < T; t++) {
    /* the tap's input row ri = a + sh dr: phase a, shift dr (columns alike);
     * the phase plane has hpa rows and wpb columns of the input */
    int64_t ri = t / p->kw * p->dh - p->ph, ci = t % p->kw * p->dw - p->pw;
    int64_t a = (ri % p->sh + p->sh) % p->sh, b = (ci % p->sw + p->sw) % p->sw, dr = (ri - a) / p->sh;
    int64_t dc = (ci - b) / p->sw, hpa = (p->h - a + p->sh - 1) / p->sh, wpb = (p->w - b + p->sw - 1) / p->sw;
    toff[t] = (a * p->sw + b) * ge__aic_sc_hp(p) * p->ow + dr * p->ow + dc;
    for (blk = 0; blk < nblk; blk++) {
      int64_t q = blk * GE__AIC_SC_NP, r = q / p->ow, col = q % p->ow;
      uint32_t bits = 0;
      for (l = 0; l < GE__AIC_SC_NP; l++, q++) {
        if (q < P && r + dr >= 0 && r + dr < hpa && col + dc >= 0 && col + dc < wpb) bits |= (uint32_t)1 << l;
        if (++col == p->ow) col = 0, r++;
      }
      masks[(blk * T + t) * 2] = (uint16_t)(bits & 0xffffu);
      masks[(blk * T + t) * 2 + 1] = (uint16_t)(bits >> 16);
    }
  }
}

static void ge__aic_sc_masks(const ge__aic_cv *p, float *pack) { ge__aic_sc_masks_at(p, ge__aic_sc_key(p, pack)); }

/* The masks at key made again when they were made for another image shape
 * (the packing is kept while its size stays). */
static void ge__aic_sc_masks_fresh(const ge__aic_cv *p, int64_t *key) {
  int64_t now[GE__AIC_SC_KEY], i;
  ge__aic_sc_geom(p, now);
  for (i = 0; i < GE__AIC_SC_KEY; i++)
    if (key[i] != now[i]) {
      ge__aic_sc_masks_at(p, key);
      return;
    }
}

typedef struct ge__aic_scpack {
  const ge__aic_cv *p;
  const float *w;
} ge__aic_scpack;

/* Weights of every group as [MR-channel block][tap][channel][MR] (zero rows
 * past mg), then the masks. */
static void ge__aic_sc_pack_fn(const void *arg, float *dst) {
  const ge__aic_scpack *a = (const ge__aic_scpack *)arg;
  const ge__aic_cv *p = a->p;
  int64_t T = p->kh * p->kw, g, mb, t, ch, r, per = ge__aic_sc_per(p), mr = ge__aic_sc_mr(p);
  for (g = 0; g < p->group; g++) {
    float *d = dst + g * per;
    for (mb = 0; mb < ge__aic_sc_nmb(p); mb++)
      for (t = 0; t < T; t++)
        for (ch = 0; ch < p->cg; ch++)
          for (r = 0; r < mr; r++) {
            int64_t m = mb * mr + r;
            *d++ = m < p->mg ? a->w[((g * p->mg + m) * p->cg + ch) * T + t] : 0.0f;
          }
  }
  ge__aic_sc_masks(p, dst);
}

/* Channels [ch0, ch1) of the images (image-major) split into sh x sw phase
 * planes of hp x ow floats (plane (a, b): input rows a + sh r, columns
 * b + sw j; zeros past the input). */
static void ge__aic_sc_phases(const ge__aic_cv *p, const float *x, float *xp, int level, int64_t ch0, int64_t ch1) {
  int64_t hp = ge__aic_sc_hp(p), ch, a, b, r, j;
  for (ch = ch0; ch < ch1; ch++)
    for (a = 0; a < p->sh; a++) {
      if (p->sw == 2) { /* both column phases of a row at once, 32 floats at a time */
        for (r = 0; r < hp; r++) {
          float *d0 = xp + (ch * p->sh + a) * 2 * hp * p->ow + r * p->ow, *d1 = d0 + hp * p->ow;
          int64_t done = 0;
          const float *src;
          if (r * p->sh + a >= p->h) {
            memset(d0, 0, (size_t)p->ow * sizeof(float));
            memset(d1, 0, (size_t)p->ow * sizeof(float));
            continue;
          }
          src = x + (ch * p->h + r * p->sh + a) * p->w;
          if (2 * p->ow >= p->w) done = ge__aic_split2(level, src, p->w, d0, d1) / 2;
          for (j = done; j < p->ow; j++) {
            d0[j] = 2 * j < p->w ? src[2 * j] : 0.0f;
            d1[j] = 2 * j + 1 < p->w ? src[2 * j + 1] : 0.0f;
          }
        }
        continue;
      }
      for (b = 0; b < p->sw; b++)
        for (r = 0; r < hp; r++) {
          float *d = xp + ((ch * p->sh + a) * p->sw + b) * hp * p->ow + r * p->ow;
          int64_t in = r * p->sh + a < p->h && b < p->w ? (p->w - b + p->sw - 1) / p->sw : 0;
          if (in > p->ow) in = p->ow;
          if (in > 0) {
            const float *src = x + (ch * p->h + r * p->sh + a) * p->w + b;
            if (p->sw == 1) memcpy(d, src, (size_t)in * sizeof(float));
            else
              for (j = 0; j < in; j++) d[j] = src[j * p->sw];
          }
          for (j = in > 0 ? in : 0; j < p->ow; j++) d[j] = 0.0f;
        }
    }
}

#ifdef GE__AIC_VEC
/* Share t: the phase planes of channels [n c t / tasks, n c (t + 1) / tasks). */
static void ge__aic_sc_phase_fn(void *arg, int64_t begin, int64_t end) {
  const ge__aic_xpad *a = (const ge__aic_xpad *)arg;
  int64_t t, chans = a->p->n * a->p->c;
  for (t = begin; t < end; t++)
    ge__aic_sc_phases(a->p, a->x, a->xp, a->level, chans * t / a->tasks, chans * (t + 1) / a->tasks);
}
#endif

#ifdef GE__AIC_X86
#define GE__AIC_SC_ATTR __attribute__((target("avx512f,fma")))

/* Bias, residual and activation of one output row's two vectors, then the
 * masked store (an activation not in registers, ge__aic_act_in_regs, after it). */
static GE__AIC_SC_ATTR void ge__aic_sc_out_avx512(const ge__aic_sc *s, __m512 v0, __m512 v1, int64_t row,
                                                 int64_t q0, __mmask16 s0, __mmask16 s1) {
  const ge__aic_act *a = &s->act;
  float *y = s->y + row * s->P + q0;
  const __m512 z = _mm512_setzero_ps();
  int j;
  if (s->bias) {
    __m512 vb = _mm512_set1_ps(s->bias[row % s->p->m]);
    v0 = _mm512_add_ps(v0, vb), v1 = _mm512_add_ps(v1, vb);
  }
  if (s->res) {
    const float *r = s->res + row * s->P + q0;
    v0 = _mm512_add_ps(v0, _mm512_maskz_loadu_ps(s0, r));
    v1 = _mm512_add_ps(v1, _mm512_maskz_loadu_ps(s1, r + 16));
  }
  for (j = 0; j < 2; j++) {
    __m512 v = j ? v1 : v0, lo = _mm512_set1_ps(a->alpha), hi = _mm512_set1_ps(a->beta), one = _mm512_set1_ps(1.0f), t;
    switch (a->kind) {
    case GE__AIC_ACT_RELU: v = _mm512_max_ps(z, v); break; /* a NaN stays */
    case GE__AIC_ACT_LEAKY: v = _mm512_mask_mul_ps(v, _mm512_cmp_ps_mask(v, z, _CMP_LT_OQ), v, lo); break;
    case GE__AIC_ACT_CLIP:
      t = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(v, hi, _CMP_GT_OQ), v, hi);
      v = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(v, lo, _CMP_LT_OQ), t, lo);
      break;
    case GE__AIC_ACT_HARDSIGMOID:
    case GE__AIC_ACT_HARDSWISH:
      t = _mm512_add_ps(_mm512_mul_ps(lo, v), hi);
      t = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(t, one, _CMP_GT_OQ), t, one);
      t = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(t, z, _CMP_LT_OQ), t, z);
      v = a->kind == GE__AIC_ACT_HARDSWISH ? _mm512_mul_ps(v, t) : t;
      break;
#ifdef GE__AIC_SILU_REGS
    case GE__AIC_ACT_SILU: v = ge_vector_silu_v16(v); break;
#endif
    default: break;
    }
    if (j) v1 = v;
    else v0 = v;
  }
  _mm512_mask_storeu_ps(y, s0, v0);
  _mm512_mask_storeu_ps(y + 16, s1, v1);
  if (!ge__aic_act_in_regs(a, 2)) ge__aic_act_apply(a, y, ge__aic_min(GE__AIC_SC_NP, s->P - q0));
}

#define GE__AIC_SC_DECL(i) __m512 c##i##a = _mm512_setzero_ps(), c##i##b = c##i##a;
#define GE__AIC_SC_STEP(i)                                                                                             \
  {                                                                                                                    \
    __m512 a_ = _mm512_set1_ps(wp[i]);                                                                                 \
    c##i##a = _mm512_fmadd_ps(a_, b0, c##i##a);                                                                        \
    c##i##b = _mm512_fmadd_ps(a_, b1, c##i##b);                                                                        \
  }
#define GE__AIC_SC_OUT(i)                                                                                              \
  if ((i) < rows) ge__aic_sc_out_avx512(s, c##i##a, c##i##b, row0 + (i), q0, s0, s1);

/* Weights read ahead of the FMAs, in floats: a model's weights come from
 * DRAM, and the hardware prefetcher stops at each 4 KB page of the
 * stream (2 KB ahead: Inception-v3 at 1 thread, CPU time of 5
 * alternating runs, 62.3 -> 61.0 ms). */
#define GE__AIC_SC_PF 512

/* A tap's sums over the group's channels, its two input vectors loaded by L0 and L1. */
#define GE__AIC_SC_CHANNELS(MR, RN, L0, L1)                                                                            \
  for (ch = 0; ch < p->cg; ch++, xp += HW, wp += (MR)) {                                                               \
    __m512 b0 = L0, b1 = L1;                                                                                           \
    _mm_prefetch((const char *)(wp + GE__AIC_SC_PF), _MM_HINT_T0);                                                     \
    RN(GE__AIC_SC_STEP)                                                                                                \
  }

/* One tile: image n, group g, pixel block blk, channel block mb; MR
 * output channels (RN repeats a step MR times). */
#define GE__AIC_SC_TILE(NAME, MR, RN)                                                                                  \
  static GE__AIC_SC_ATTR void NAME(const ge__aic_sc *s, int64_t n, int64_t g, int64_t blk, int64_t mb) {              \
    const ge__aic_cv *p = s->p;                                                                                        \
    int64_t HW = s->cs, q0 = blk * GE__AIC_SC_NP, t, ch, row0 = (n * p->m + g * p->mg) + mb * (MR);                    \
    int64_t rows = ge__aic_min((MR), p->mg - mb * (MR));                                                               \
    const float *xn = s->x + (n * p->c + g * p->cg) * HW + q0;                                                         \
    const float *wp = s->wpack + g * s->per + mb * s->T * p->cg * (MR);                                                \
    const uint16_t *mk = s->masks + blk * s->T * 2;                                                                    \
    __mmask16 s0 = (__mmask16)(s->P - q0 >= 16 ? 0xffff : (1u << (s->P - q0)) - 1u), s1;                              \
    RN(GE__AIC_SC_DECL)                                                                                                \
    s1 = (__mmask16)(s->P - q0 >= 32 ? 0xffff : s->P - q0 <= 16 ? 0 : (1u << (s->P - q0 - 16)) - 1u);                  \
    for (t = 0; t < s->T; t++) {                                                                                       \
      __mmask16 m0 = (__mmask16)mk[2 * t], m1 = (__mmask16)mk[2 * t + 1];                                              \
      /* lanes of the padding are masked off: the address may lie outside x */                                        \
      const float *xp = (const float *)((uintptr_t)xn + (uintptr_t)(s->toff[t] * (int64_t)sizeof(float)));             \
      if (!(m0 | m1)) {                                                                                                \
        wp += p->cg * (MR);                                                                                            \
        continue;                                                                                                      \
      }                                                                                                                \
      if ((m0 & m1) == 0xffff) /* plain loads: a masked one costs Zen 4 half again */                               \
        GE__AIC_SC_CHANNELS(MR, RN, _mm512_loadu_ps(xp), _mm512_loadu_ps(xp + 16))                                     \
      else                                                                                                             \
        GE__AIC_SC_CHANNELS(MR, RN, _mm512_maskz_loadu_ps(m0, xp), _mm512_maskz_loadu_ps(m1, xp + 16))                 \
    }                                                                                                                  \
    RN(GE__AIC_SC_OUT)                                                                                                 \
  }
#define GE__AIC_SC_R8(X) GE__AIC_R6(X) X(6) X(7)
GE__AIC_SC_TILE(ge__aic_sc_tile_avx512, GE__AIC_SC_MR, GE__AIC_R12)
GE__AIC_SC_TILE(ge__aic_sc_tile8_avx512, 8, GE__AIC_SC_R8)

static void ge__aic_sc_unit(const ge__aic_sc *s, int64_t u) {
  int64_t inner = u % (s->nblk * s->nmb), ng = u / (s->nblk * s->nmb);
  int64_t blk = s->mb_inner ? inner / s->nmb : inner % s->nblk, mb = s->mb_inner ? inner % s->nmb : inner / s->nblk;
  if (s->mr == 8) ge__aic_sc_tile8_avx512(s, ng / s->p->group, ng % s->p->group, blk, mb);
  else ge__aic_sc_tile_avx512(s, ng / s->p->group, ng % s->p->group, blk, mb);
}

/* Share t of the tiles (image, group, then channel and pixel block): the
 * larger of the group's input and weights is read once. With weights
 * larger, the pixel block innermost, so that each thread reads only the
 * weights of its own channel blocks, which in a model come from memory
 * (Inception-v3's 7x1, 1x7, 5x5 and 3x3 convs at 2 threads 20.7 -> 19.9
 * ms against the channel block innermost, the same at 1 thread); with the
 * input larger, the channel block innermost, so that a pixel block's input
 * is read from L1 by every channel block (ResNet-18's 3x3/2 64->128 on
 * 56x56: 800 KB of phase planes against 288 KB of weights). With
 * s->in, share t is (image, group) pairs instead: each makes its group's
 * phase planes, then runs the group's tiles, so that the thread that wrote
 * the planes reads them from its own cache (from the other vCPU's cache
 * they came 3x slower, a regnet's 3x3/2 group convs ran slower on 2
 * threads than on 1). */
static void ge__aic_sc_fn(void *arg, int64_t begin, int64_t end) {
  const ge__aic_sc *s = (const ge__aic_sc *)arg;
  int64_t t, u, v, per_group = s->nblk * s->nmb;
  for (t = begin; t < end; t++)
    for (u = s->guide.at[t]; u < s->guide.at[t + 1]; u++) {
      if (!s->in) {
        ge__aic_sc_unit(s, u);
        continue;
      }
      ge__aic_sc_phases(s->p, s->in, (float *)(uintptr_t)s->x, s->level, u * s->p->cg, (u + 1) * s->p->cg);
      for (v = u * per_group; v < (u + 1) * per_group; v++) ge__aic_sc_unit(s, v);
    }
}

#endif

/* The conv by this path (ge__aic_sc_fits said yes). */
static ge_status ge__aic_conv_small(ge_kernel_ctx *c, const ge__aic_kern *k, const ge__aic_cv *p, const ge_value *x,
                                    const ge_value *w, const ge_value *b, const float *res, const ge__aic_act *act,
                                    ge_value *y) {
#ifdef GE__AIC_X86
  ge__aic_sc s;
  ge__aic_scpack sp;
  ge__aic_act a = *act; /* act may live in c->state, which packing may move */
  int64_t threads = ge__aic_threads(c);
  float *pack, *scratch;
  double flops;
  size_t phase_floats = ge__aic_sc_direct(p) ? 0 : (size_t)(p->n * p->c * ge__aic_sc_cs(p)) + 16;
  sp.p = p, sp.w = (const float *)w->data;
  /* tag 16 + level: never taken for the GEMM's packing of the same size */
  pack = (float *)(uintptr_t)ge__aic_packed(c, 1, 16 + k->level, ge__aic_sc_floats(p), ge__aic_sc_pack_fn, &sp,
                                            phase_floats, &scratch);
  if (!pack) return ge__aic_nomem(c);
  ge__aic_sc_masks_fresh(p, ge__aic_sc_key(p, pack));
  if (ge_kernel_preparing(c)) return GE_OK;
  memset(&s, 0, sizeof s);
  s.x = (const float *)x->data;
  flops = 2.0 * (double)p->n * (double)p->m * (double)(p->oh * p->ow) * (double)(p->cg * p->kh * p->kw);
  threads = threads > 1 && flops >= 2e6 ? threads : 1;
  s.in = phase_floats && p->n * p->group >= 2 * threads ? s.x : NULL; /* each share its groups' planes */
  s.units = s.in ? p->n * p->group : p->n * p->group * ge__aic_sc_nblk(p) * ge__aic_sc_nmb(p);
  if (phase_floats && !s.in) { /* every tile reads every channel: the planes first, split over the threads */
    ge__aic_xpad ph;
    ph.p = p, ph.x = s.x, ph.xp = scratch, ph.level = k->level;
    ph.tasks = threads > 1 && phase_floats >= GE__AIC_SC_PHASE_SPLIT ? threads : 1;
    ge__aic_on_tasks(c, ph.tasks, ge__aic_sc_phase_fn, &ph);
  }
  if (phase_floats) s.x = scratch;
  s.level = k->level;
  s.cs = ge__aic_sc_cs(p);
  s.p = p, s.wpack = pack, s.bias = b ? (const float *)b->data : NULL, s.res = res;
  s.toff = ge__aic_sc_key(p, pack) + GE__AIC_SC_KEY;
  s.T = p->kh * p->kw;
  s.masks = (const uint16_t *)(const void *)(s.toff + s.T);
  s.y = (float *)y->data, s.act = a;
  s.P = p->oh * p->ow, s.nblk = ge__aic_sc_nblk(p), s.nmb = ge__aic_sc_nmb(p), s.per = ge__aic_sc_per(p);
  s.mr = ge__aic_sc_mr(p);
  s.mb_inner = p->cg * s.cs > s.per;
  ge__aic_guide_make(&s.guide, threads, s.units, 1, flops); /* guided */
  s.tasks = s.guide.n;
  ge__aic_on_tasks(c, s.tasks, ge__aic_sc_fn, &s);
  return GE_OK;
#else
  (void)c, (void)k, (void)p, (void)x, (void)w, (void)b, (void)res, (void)act, (void)y, (void)ge__aic_sc_pack_fn,
      (void)ge__aic_sc_phases;
  return GE_ERR_UNSUPPORTED;
#endif
}

/* ------------------------------------------ depthwise over flat planes
 *
 * Stride-1 depthwise convs whose output is as wide as the input (ow == w:
 * the "same" 3x3 and 5x5 of MobileNets and EfficientNets) read the input
 * plane in place as the small-image direct conv does: output pixel q of
 * the flattened plane sums, over the taps, input pixel q + toff[tap], 32
 * pixels a block as two 16-lane vectors, the lanes whose row or column
 * falls in the padding masked off (ge__aic_sc_masks_at's offsets and
 * masks, made once with the packing). No band copy, no transposes and no
 * part-empty vector at every row's end: a 14x14 plane is 13 vectors where
 * its rows take 14. Four planes at a time, block by block (eight FMA
 * chains), the sums start from the bias, the residual and the activation
 * follow in registers before the masked store. AVX-512 only. Taken on narrow maps,
 * where the band kernel's rows leave vectors part empty: 3x3 up to 16
 * columns, 5x5 up to 32 and 7x7 up to 8 (build/conv_bench 5 "dw", 1
 * thread, against the band and channel-blocked kernels: 960 channels on
 * 7x7 0.045 -> 0.032 ms, 576 on 14x14 0.070 -> 0.064, 5x5 240 on 28x28
 * 0.275 -> 0.254, 7x7 768 on 7x7 0.106 -> 0.098; slower past these widths:
 * 3x3 192 on 28x28 0.070 -> 0.074, 32 on 112x112 0.15 -> 0.20, as every
 * FMA here needs a load of its own where the band kernel shares a row's
 * loads between three output rows). */
#define GE__AIC_DWF_MAX_PIXELS 65536 /* masks of larger planes would outgrow L1 */

typedef struct ge__aic_dwf {
  const ge__aic_cv *p;
  const float *x, *w, *b, *res;
  const int64_t *toff;
  const uint16_t *masks; /* per 32-pixel block and tap: two 16-lane masks */
  float *y;
  const ge__aic_act *act;
  int64_t T, P, nblk, tasks;
  int64_t tmin, tmax; /* the least tap offset (<= 0) and the largest (>= 0) */
} ge__aic_dwf;

static int ge__aic_dwf_fits(const ge__aic_cv *p, int level) {
#ifdef GE__AIC_X86
  const int64_t T = p->kh * p->kw;
  return level >= 2 && p->cg == 1 && ge__aic_sc_direct(p) && p->oh * p->ow > GE__AIC_FEW_PIXELS &&
         p->oh * p->ow <= GE__AIC_DWF_MAX_PIXELS &&
         (T <= 9 ? p->ow <= 16 : T <= 25 ? p->ow <= 32 : T <= 49 && p->ow <= 8);
#else
  (void)p, (void)level;
  return 0;
#endif
}
/* The packing: the geometry key, tap offsets and masks of ge__aic_sc_masks_at. */
static void ge__aic_dwf_pack_fn(const void *arg, float *dst) {
  ge__aic_sc_masks_at((const ge__aic_cv *)arg, ge__aic_key_at(dst));
}

#ifdef GE__AIC_X86
/* One block's two vectors (pixels q.. of the plane) out: residual, activation, masked store. */
static inline __attribute__((always_inline)) GE__AIC_DW3_ATTR void
ge__aic_dwf_out(const ge__aic_dwc_act *ac, float *y, const float *res, int64_t q, int64_t P, __m512 v0, __m512 v1) {
  const int64_t left = P - q;
  const __mmask16 s0 = (__mmask16)(left >= 16 ? 0xffffu : (1u << left) - 1u);
  const __mmask16 s1 = (__mmask16)(left >= 32 ? 0xffffu : left <= 16 ? 0u : (1u << (left - 16)) - 1u);
  if (res) {
    v0 = _mm512_add_ps(v0, _mm512_maskz_loadu_ps(s0, res + q));
    v1 = _mm512_add_ps(v1, _mm512_maskz_loadu_ps(s1, res + q + 16));
  }
  _mm512_mask_storeu_ps(y + q, s0, ge__aic_dwc_apply(ac, v0));
  _mm512_mask_storeu_ps(y + q + 16, s1, ge__aic_dwc_apply(ac, v1));
}

/* The planes of one unit: up to four output channels. */
typedef struct ge__aic_dwf_unit {
  const float *x[4], *w[4], *res[4];
  float *y[4];
  float b[4];
} ge__aic_dwf_unit;

/* The n (4 or 1) output planes from q (index n * m + channel) of a
 * depthwise conv as a unit: each one's input plane, taps, bias, output and
 * residual. */
static void ge__aic_dw_unit(const ge__aic_cv *p, const float *x, const float *w, const float *b, const float *res,
                            float *y, int64_t q, int n, ge__aic_dwf_unit *un) {
  const int64_t HW = p->h * p->w, P = p->oh * p->ow, T = p->kh * p->kw;
  int i;
  for (i = 0; i < n; i++) {
    int64_t m = (q + i) % p->m, src = (q + i) / p->m * p->c + m / p->mg;
    un->x[i] = x + src * HW, un->w[i] = w + m * T, un->b[i] = b ? b[m] : 0.0f;
    un->y[i] = y + (q + i) * P, un->res[i] = res ? res + (q + i) * P : NULL;
  }
}

/* Shares of the output planes: four a thread, one below 64K multiply-adds. */
static int64_t ge__aic_dw_plane_tasks(ge_kernel_ctx *c, const ge__aic_cv *p) {
  const int64_t threads = ge__aic_threads(c), total = p->n * p->m;
  if ((double)p->oh * (double)p->ow * (double)(p->kh * p->kw) * (double)total < 65536.0) return 1;
  return ge__aic_min(threads > 1 ? 4 * threads : 1, total);
}

/* Masked loads cost Zen 4 half again a plain one and a mask from memory as
 * much again: a tap's two masks serve four channels' FMAs, and where every
 * read stays inside the input (safe) the loads are plain and the masks go
 * on the FMAs (the lanes they drop read the next row, or the next plane). */
#define GE__AIC_DWF_DECL(u) __m512 a##u##0 = _mm512_set1_ps(un->b[u]), a##u##1 = a##u##0;
#define GE__AIC_DWF_FMA(u)                                                                                             \
  {                                                                                                                    \
    const __m512 w_ = _mm512_set1_ps(un->w[u][t]);                                                                     \
    const float *s_ = (const float *)((uintptr_t)un->x[u] + off);                                                      \
    if (safe) {                                                                                                        \
      a##u##0 = _mm512_mask3_fmadd_ps(w_, _mm512_loadu_ps(s_), a##u##0, k0);                                           \
      a##u##1 = _mm512_mask3_fmadd_ps(w_, _mm512_loadu_ps(s_ + 16), a##u##1, k1);                                      \
    } else {                                                                                                           \
      a##u##0 = _mm512_fmadd_ps(w_, _mm512_maskz_loadu_ps(k0, s_), a##u##0);                                           \
      a##u##1 = _mm512_fmadd_ps(w_, _mm512_maskz_loadu_ps(k1, s_ + 16), a##u##1);                                      \
    }                                                                                                                  \
  }
#define GE__AIC_DWF_OUT(u) ge__aic_dwf_out(ac, un->y[u], un->res[u], q0, f->P, a##u##0, a##u##1);
#define GE__AIC_DWF_UNIT(UNITS)                                                                                        \
  for (blk = 0; blk < f->nblk; blk++) {                                                                                \
    const int64_t q0 = blk * 32;                                                                                       \
    const uint16_t *mt = f->masks + blk * T * 2;                                                                       \
    UNITS(GE__AIC_DWF_DECL)                                                                                            \
    for (t = 0; t < T; t++) {                                                                                          \
      const __mmask16 k0 = (__mmask16)mt[2 * t], k1 = (__mmask16)mt[2 * t + 1];                                        \
      /* lanes in the padding are masked off: the address may lie outside the plane */                               \
      const uintptr_t off = (uintptr_t)((q0 + f->toff[t]) * (int64_t)sizeof(float));                                 \
      UNITS(GE__AIC_DWF_FMA)                                                                                           \
    }                                                                                                                  \
    UNITS(GE__AIC_DWF_OUT)                                                                                             \
  }

/* n planes (4 or 1) of one unit; safe: every unmasked read inside the input. */
static GE__AIC_DW3_ATTR void ge__aic_dwf_planes(const ge__aic_dwf *f, const ge__aic_dwc_act *ac,
                                                const ge__aic_dwf_unit *un, int n, int safe) {
  const int64_t T = f->T;
  int64_t blk, t;
  if (n == 4) GE__AIC_DWF_UNIT(GE__AIC_DW_U4)
  else GE__AIC_DWF_UNIT(GE__AIC_DW_U1)
}

/* Shares of the output planes (index n * m + channel), four at a time. */
static void ge__aic_dwf_fn(void *arg, int64_t begin, int64_t end) {
  const ge__aic_dwf *f = (const ge__aic_dwf *)arg;
  const ge__aic_cv *p = f->p;
  const int in_regs = ge__aic_dw_act_inline(f->act, 2);
  const ge__aic_dwc_act ac = ge__aic_dwc_act_of(f->act, in_regs);
  const int64_t total = p->n * p->m, in_floats = p->n * p->c * p->h * p->w;
  int64_t t, q, q1, i;
  ge__aic_dwf_unit un;
  for (t = begin; t < end; t++)
    for (q = total * t / f->tasks, q1 = total * (t + 1) / f->tasks; q < q1;) {
      const int n = q1 - q >= 4 ? 4 : 1;
      int64_t lo = in_floats, hi = 0;
      ge__aic_dw_unit(p, f->x, f->w, f->b, f->res, f->y, q, n, &un);
      for (i = 0; i < n; i++) lo = ge__aic_min(lo, un.x[i] - f->x), hi = ge__aic_max(hi, un.x[i] - f->x);
      ge__aic_dwf_planes(f, &ac, &un, n, lo + f->tmin >= 0 && hi + f->nblk * 32 + f->tmax <= in_floats);
      for (i = 0; i < n && !in_regs; i++) ge__aic_act_apply(f->act, un.y[i], f->P);
      q += n;
    }
}
#endif

/* The conv by this path (ge__aic_dwf_fits said yes). */
static ge_status ge__aic_conv_dwf(ge_kernel_ctx *c, const ge__aic_cv *p, const ge_value *x, const ge_value *w,
                                  const ge_value *b, const float *res, ge_value *y, int level) {
#ifdef GE__AIC_X86
  ge__aic_dwf f;
  ge__aic_act a;
  int64_t i;
  float *pack, *scratch;
  /* tag 96 + level: no other path's packing */
  pack = (float *)(uintptr_t)ge__aic_packed(c, 1, 96 + level, ge__aic_sc_masks_floats(p), ge__aic_dwf_pack_fn, p, 0,
                                            &scratch);
  if (!pack) return ge__aic_nomem(c);
  ge__aic_sc_masks_fresh(p, ge__aic_key_at(pack));
  if (ge_kernel_preparing(c)) return GE_OK;
  a = ((ge__aic_state *)c->state)->act; /* the packing may have moved the state */
  f.p = p, f.x = (const float *)x->data, f.w = (const float *)w->data, f.b = b ? (const float *)b->data : NULL;
  f.res = res, f.y = (float *)y->data, f.act = &a;
  f.T = p->kh * p->kw, f.P = p->oh * p->ow, f.nblk = ge__aic_sc_nblk(p);
  f.toff = ge__aic_key_at(pack) + GE__AIC_SC_KEY;
  f.masks = (const uint16_t *)(const void *)(f.toff + f.T);
  for (i = 0, f.tmin = f.tmax = 0; i < f.T; i++)
    f.tmin = ge__aic_min(f.tmin, f.toff[i]), f.tmax = f.toff[i] > f.tmax ? f.toff[i] : f.tmax;
  f.tasks = ge__aic_dw_plane_tasks(c, p);
  ge_kernel_parallel_for(c, f.tasks, 1, ge__aic_dwf_fn, &f);
  return GE_OK;
#else
  (void)c, (void)p, (void)x, (void)w, (void)b, (void)res, (void)y, (void)level, (void)ge__aic_dwf_pack_fn;
  return GE_ERR_UNSUPPORTED;
#endif
}

/* ------------------------------- stride-2 3x3 and 5x5 depthwise in registers
 *
 * The strided 3x3 and 5x5 depthwise convs of MobileNets and EfficientNets
 * with more than 4 output columns (before, the band kernel split every
 * input row into its even and odd columns first, and the channel-blocked
 * kernel took the small maps with two transposes): 16 output columns of a
 * row read 33 (35) input columns, two vectors and a few lanes, from the
 * input plane in place; two permutes give the even and the odd columns (the
 * taps at column offsets 0 and 1) and aligns with the next lanes the
 * shifted ones (offsets 2, 3, 4). Masked loads give the padding's zeros; rows in the
 * padding are skipped. Four planes at a time (four FMA chains), the sums
 * start from the bias and get the residual and activation in registers
 * before the masked store. AVX-512 only. build/conv_bench 9 "mb2 dw3x3/2",
 * 1 thread, against the band kernel: 144 channels on 56x56 0.116 -> 0.077
 * ms, 96 on 112x112 0.259 -> 0.213; against the channel-blocked kernel
 * 192 on 28x28 0.055 -> 0.026, 576 on 14x14 0.046 -> 0.040, 5x5 240 on
 * 28x28 (SiLU) 0.104 -> 0.074. Its time did
 * not move with the
 * permutes taken out (timing only), nor with a partial sum per kernel row,
 * nor with the next rows prefetched (slower). */
static int ge__aic_dws_fits(const ge__aic_cv *p, int level) {
#ifdef GE__AIC_X86
  return level >= 2 && p->cg == 1 && (p->kh == 3 || p->kh == 5) && p->kw == p->kh && p->sh == 2 && p->sw == 2 &&
         p->dh == 1 && p->dw == 1 && p->ph <= p->kh / 2 && p->pw <= p->kw / 2 && p->ow > 4;
#else
  (void)p, (void)level;
  return 0;
#endif
}

#ifdef GE__AIC_X86
/* Lanes of a load at column c0 of a row of w columns that lie inside it. */
static inline __attribute__((always_inline)) __mmask16 ge__aic_dws_mask(int64_t c0, int64_t w) {
  const int64_t lo = c0 < 0 ? -c0 : 0, hi = w - c0 >= 16 ? 16 : w - c0;
  return hi <= lo ? (__mmask16)0 : (__mmask16)(((1u << hi) - 1u) & ~((1u << lo) - 1u));
}

#define GE__AIC_DWS_DECL(u) __m512 a##u = _mm512_set1_ps(un->b[u]);
/* One kernel row of K taps: offsets 0 and 1 the evens and odds, 2 and 3
 * those shifted by one lane, 4 the evens by two (the lanes shifted in are
 * the next vector's: nx's even and odd columns). */
#define GE__AIC_DWS_TAPS(u)                                                                                            \
  {                                                                                                                    \
    const float *r_ = un->x[u] + ih * p->w + c0, *w_ = un->w[u] + ki * K;                                              \
    const __m512 lo_ = _mm512_maskz_loadu_ps(m0, r_), hi_ = _mm512_maskz_loadu_ps(m1, r_ + 16);                        \
    const __m512 nx_ = _mm512_maskz_loadu_ps(m2, r_ + 32);                                                             \
    const __m512 ev_ = _mm512_permutex2var_ps(lo_, ie, hi_), od_ = _mm512_permutex2var_ps(lo_, io, hi_);               \
    const __m512 ne_ = K == 5 ? _mm512_permutexvar_ps(ie, nx_) : nx_;                                                  \
    a##u = _mm512_fmadd_ps(_mm512_set1_ps(w_[0]), ev_, a##u);                                                          \
    a##u = _mm512_fmadd_ps(_mm512_set1_ps(w_[1]), od_, a##u);                                                          \
    a##u = _mm512_fmadd_ps(_mm512_set1_ps(w_[2]), (__m512)_mm512_alignr_epi32((__m512i)ne_, (__m512i)ev_, 1), a##u);   \
    if (K == 5) {                                                                                                      \
      const __m512 no_ = _mm512_permutexvar_ps(io, nx_);                                                               \
      a##u = _mm512_fmadd_ps(_mm512_set1_ps(w_[3]), (__m512)_mm512_alignr_epi32((__m512i)no_, (__m512i)od_, 1), a##u); \
      a##u = _mm512_fmadd_ps(_mm512_set1_ps(w_[4]), (__m512)_mm512_alignr_epi32((__m512i)ne_, (__m512i)ev_, 2), a##u); \
    }                                                                                                                  \
  }
#define GE__AIC_DWS_OUT(u)                                                                                             \
  {                                                                                                                    \
    float *y_ = un->y[u] + oi * p->ow + j0;                                                                            \
    if (un->res[u]) a##u = _mm512_add_ps(a##u, _mm512_maskz_loadu_ps(ms, un->res[u] + oi * p->ow + j0));              \
    _mm512_mask_storeu_ps(y_, ms, ge__aic_dwc_apply(ac, a##u));                                                        \
  }
#define GE__AIC_DWS_PLANES(UNITS)                                                                                      \
  for (oi = 0; oi < p->oh; oi++)                                                                                       \
    for (j0 = 0; j0 < p->ow; j0 += 16) {                                                                               \
      const int64_t c0 = 2 * j0 - p->pw;                                                                               \
      const __mmask16 m0 = ge__aic_dws_mask(c0, p->w), m1 = ge__aic_dws_mask(c0 + 16, p->w);                           \
      const __mmask16 m2 = (__mmask16)(ge__aic_dws_mask(c0 + 32, p->w) & ((1u << (K - 2)) - 1u));                      \
      const __mmask16 ms = (__mmask16)(p->ow - j0 >= 16 ? 0xffffu : (1u << (p->ow - j0)) - 1u);                        \
      int64_t ki;                                                                                                      \
      UNITS(GE__AIC_DWS_DECL)                                                                                          \
      for (ki = 0; ki < K; ki++) {                                                                                     \
        const int64_t ih = 2 * oi - p->ph + ki;                                                                        \
        if (ih < 0 || ih >= p->h) continue;                                                                            \
        UNITS(GE__AIC_DWS_TAPS)                                                                                        \
      }                                                                                                                \
      UNITS(GE__AIC_DWS_OUT)                                                                                           \
    }
/* n planes (4 or 1) of one unit (ge__aic_dwf_unit's fields), K x K taps. */
#define GE__AIC_DWS_PLANES_FN(NAME, KS)                                                                                \
  static GE__AIC_DW3_ATTR void NAME(const ge__aic_cv *p, const ge__aic_dwc_act *ac, const ge__aic_dwf_unit *un,        \
                                    int n) {                                                                           \
    const int64_t K = (KS);                                                                                            \
    const __m512i ie = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);                   \
    const __m512i io = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);                   \
    int64_t oi, j0;                                                                                                    \
    if (n == 4) GE__AIC_DWS_PLANES(GE__AIC_DW_U4)                                                                      \
    else GE__AIC_DWS_PLANES(GE__AIC_DW_U1)                                                                             \
  }
GE__AIC_DWS_PLANES_FN(ge__aic_dws_planes3, 3)
GE__AIC_DWS_PLANES_FN(ge__aic_dws_planes5, 5)

/* Shares of the output planes (index n * m + channel), four at a time. */
static void ge__aic_dws_fn(void *arg, int64_t begin, int64_t end) {
  const ge__aic_dw *d = (const ge__aic_dw *)arg;
  const ge__aic_cv *p = d->p;
  const int in_regs = ge__aic_dw_act_inline(d->act, 2);
  const ge__aic_dwc_act ac = ge__aic_dwc_act_of(d->act, in_regs);
  const int64_t total = p->n * p->m, P = p->oh * p->ow;
  int64_t t, q, q1, i;
  ge__aic_dwf_unit un;
  for (t = begin; t < end; t++)
    for (q = total * t / d->tasks, q1 = total * (t + 1) / d->tasks; q < q1;) {
      const int n = q1 - q >= 4 ? 4 : 1;
      ge__aic_dw_unit(p, d->x, d->w, d->b, d->res, d->y, q, n, &un);
      if (p->kw == 5) ge__aic_dws_planes5(p, &ac, &un, n);
      else ge__aic_dws_planes3(p, &ac, &un, n);
      for (i = 0; i < n && !in_regs; i++) ge__aic_act_apply(d->act, un.y[i], P);
      q += n;
    }
}
#endif

/* The conv by this path (ge__aic_dws_fits said yes). */
static void ge__aic_conv_dws(ge_kernel_ctx *c, const ge__aic_cv *p, const float *x, const float *w, const float *b,
                             const float *res, const ge__aic_act *act, float *y) {
#ifdef GE__AIC_X86
  ge__aic_dw d; /* the band kernel's job, without its buffers */
  memset(&d, 0, sizeof d);
  d.p = p, d.x = x, d.w = w, d.b = b, d.res = res, d.y = y, d.act = act, d.tasks = ge__aic_dw_plane_tasks(c, p);
  ge_kernel_parallel_for(c, d.tasks, 1, ge__aic_dws_fn, &d);
#else
  (void)c, (void)p, (void)x, (void)w, (void)b, (void)res, (void)act, (void)y;
#endif
}

/* Conv weights, every group packed as A for kernel k. */
typedef struct ge__aic_wpack {
  const ge__aic_kern *k;
  const ge__aic_cv *p;
  const float *w;
  int64_t K;
  size_t per;
} ge__aic_wpack;

static void ge__aic_wpack_fn(const void *arg, float *dst) {
  const ge__aic_wpack *a = (const ge__aic_wpack *)arg;
  int64_t g;
  for (g = 0; g < a->p->group; g++)
    ge__aic_prepack_a(a->k, a->w + g * a->p->mg * a->K, a->K, 1, a->p->mg, a->K, dst + (size_t)g * a->per);
}

#ifdef GE_AI_CORE_TEST_KNOBS
static int ge__aic_dt_choice = 0; /* 0 by cost, 1 always where it fits, 2 never */
#define GE__AIC_PF_ON (ge__aic_dt_choice != 3)
#else
#define ge__aic_dt_choice 0
#define GE__AIC_PF_ON 1
#endif

/* ------------------------------ direct conv with output channels in lanes
 *
 * Convs with few output channels a group (DenseNet's 3x3 128->32 growth
 * convs) fill the GEMM's 12-row tiles and Winograd's products badly: 32
 * rows leave a 12-row tile a third empty, and Winograd's input transform
 * over 128 channels outweighs its 32-row products. Here a register tile
 * holds 32 output channels (two vectors, channels in lanes) x up to 14
 * output pixels of one output row: per input channel and tap it loads two
 * weight vectors and broadcasts each pixel's input value, 28 FMAs per 2
 * loads and 14 broadcasts, with no transform and no junk columns. A row's
 * pixels are split into tiles of even widths (56 = 4 x 14: no narrow tail
 * tile). The input is read in place: a row's taps above or below the image
 * are skipped for the whole row, and the few output pixels whose window
 * crosses the left or right edge (1 at 3x3 pad 1, 2 at 7x7/2 pad 3) take a
 * one-pixel tile over their inside taps, so no padded copy is made per run
 * (it cost DenseNet-121 1.5 ms a run); the weights are packed once as [group][32-channel
 * block][input channel][tap][32] (zeros past the group's channels). A row
 * is summed 16 input channels at a time over all its tiles (those
 * channels' weights stay in L1), the sums kept in a row buffer, then
 * transposed into y in registers; bias, residual and activation run on the
 * row's block while it is in L1. Tiles for strides 1 and 2 (the
 * broadcasts at fixed displacements; any dilation): the growth convs and
 * 5x5/7x7 RGB stems (ResNet's and DenseNet's 7x7/2 3->64). AVX-512 only. */
#define GE__AIC_CL_NP 14 /* output pixels of a tile at most (28 accumulators) */
#define GE__AIC_CL_MB 32 /* output channels of a tile */

typedef struct ge__aic_cl {
  const ge__aic_cv *p;
  const float *x, *wpack;
  float *y;
  ge__aic_epi epi;
  int64_t nb, per, units, tasks; /* nb: 32-channel blocks a group; per: packed floats a group */
} ge__aic_cl;

static int64_t ge__aic_cl_nb(const ge__aic_cv *p) { return (p->mg + GE__AIC_CL_MB - 1) / GE__AIC_CL_MB; }
static int64_t ge__aic_cl_per(const ge__aic_cv *p) { return ge__aic_cl_nb(p) * GE__AIC_CL_MB * p->cg * p->kh * p->kw; }
/* Output columns [*lo, *hi) whose every tap is inside the image. */
static void ge__aic_cl_inner(const ge__aic_cv *p, int64_t *lo, int64_t *hi) {
  *lo = ge__aic_min((p->pw + p->sw - 1) / p->sw, p->ow);
  *hi = p->w + p->pw - p->kw >= 0 ? ge__aic_min((p->w + p->pw - p->kw) / p->sw + 1, p->ow) : 0;
  if (*hi < *lo) *hi = *lo;
}

/* Whether a conv takes this path (AVX-512), undilated, rows of at least
 * 12 output pixels (shorter rows leave the tile's columns empty: 7x7 maps
 * keep Winograd), every window reading some input row and column, and either
 *   - a 3x3 stride-1 conv with 16..32 output channels a group and at least
 *     64 input channels, where Winograd's input transform dominates (fewer
 *     input channels keep Winograd or the small-image conv), or
 *   - a stem: at most 4 input channels a group, a kernel of at least 5x5,
 *     strides up to 2, at least 32 output channels a group in 32-channel
 *     blocks at least half full (the implicit GEMM's short K wastes its
 *     tiles there; a 3x3/2 RGB stem, K = 27, stays there).
 * Measured at 1 thread (bench/conv_bench.c, best of 5): 128->32 on 56x56
 * 145 GFLOP/s (Winograd 116), 28x28 150 (120), 14x14 128 (103), 7x7 even;
 * the 7x7/2 3->64 stem 128-132 (implicit GEMM 104-122), SqueezeNet's 3x3/2
 * stem 52 (56). */
static int ge__aic_cl_fits(const ge__aic_kern *k, const ge__aic_cv *p) {
#ifndef GE__AIC_X86
  (void)k, (void)p;
  return 0;
#else
  int growth = p->kh == 3 && p->kw == 3 && p->sh == 1 && p->sw == 1 && p->mg <= GE__AIC_CL_MB && p->mg >= 16 &&
               p->cg >= 64;
  int stem = p->cg <= 4 && !(p->cg == 1 && p->group > 1) /* depthwise */ && p->kh * p->kw >= 25 && p->sh <= 2 && p->sw <= 2 && p->mg >= GE__AIC_CL_MB &&
             (p->mg % GE__AIC_CL_MB == 0 || p->mg % GE__AIC_CL_MB >= GE__AIC_CL_MB / 2);
  int inside = p->ph < p->kh && p->pw < p->kw && (p->oh - 1) * p->sh < p->h + p->ph &&
               (p->ow - 1) * p->sw < p->w + p->pw;
  return k->level >= 2 && (growth || stem) && p->dh == 1 && p->dw == 1 && p->ow >= 12 &&
         p->oh * p->ow > GE__AIC_FEW_PIXELS && inside;
#endif
}

typedef struct ge__aic_clpack {
  const ge__aic_cv *p;
  const float *w;
} ge__aic_clpack;

static void ge__aic_cl_pack_fn(const void *arg, float *dst) {
  const ge__aic_clpack *a = (const ge__aic_clpack *)arg;
  const ge__aic_cv *p = a->p;
  int64_t K = p->cg * p->kh * p->kw, per = ge__aic_cl_per(p), g, m, kk;
  for (g = 0; g < p->group; g++)
    for (m = 0; m < ge__aic_cl_nb(p) * GE__AIC_CL_MB; m++)
      for (kk = 0; kk < K; kk++)
        dst[g * per + (m / GE__AIC_CL_MB) * K * GE__AIC_CL_MB + kk * GE__AIC_CL_MB + m % GE__AIC_CL_MB] =
            m < p->mg ? a->w[(g * p->mg + m) * K + kk] : 0.0f;
}

#ifdef GE__AIC_X86
#define GE__AIC_CL_ATTR __attribute__((target("avx512f,fma")))
#define GE__AIC_CL_CB 16  /* input channels a pass (their weights, 18 KB at 3x3, stay in L1) */
#define GE__AIC_CL_SEG 112 /* output pixels of a row summed together (a 14 KB buffer) */
#define GE__AIC_CL_R14(X) GE__AIC_R12(X) X(12) X(13)
#define GE__AIC_CL_DECL(i) __m512 a##i = _mm512_setzero_ps(), b##i = a##i;
#define GE__AIC_CL_LOAD(i)                                                                                             \
  if ((i) < NP_) a##i = _mm512_loadu_ps(t + (i) * GE__AIC_CL_MB), b##i = _mm512_loadu_ps(t + (i) * GE__AIC_CL_MB + 16);
#define GE__AIC_CL_FMA(i)                                                                                              \
  if ((i) < NP_) {                                                                                                     \
    __m512 v_ = _mm512_set1_ps(xt[(i) * SW_]);                                                                         \
    a##i = _mm512_fmadd_ps(w0, v_, a##i);                                                                              \
    b##i = _mm512_fmadd_ps(w1, v_, b##i);                                                                              \
  }
#define GE__AIC_CL_SAVE(i)                                                                                             \
  if ((i) < NP_) _mm512_storeu_ps(t + (i) * GE__AIC_CL_MB, a##i), _mm512_storeu_ps(t + (i) * GE__AIC_CL_MB + 16, b##i);
/* t[i * 32 + j] (+)= sum over nch channels and the taps ki < nki, kj <
 * nkj of w[.][j] x[ki w + kj + i sw] for the NP pixels i of a tile (x: the
 * first pixel's first inside tap in the first channel of the image, w: that
 * tap's weights; the taps outside the image are left out; add: t holds
 * earlier channels' sums). */
#define GE__AIC_CL_TILE(NP, SW)                                                                                        \
  static GE__AIC_CL_ATTR void ge__aic_cl_tile##NP##_##SW(const ge__aic_cl *s, const float *x, const float *w,          \
                                                         int64_t nch, int64_t nki, int64_t nkj, int add, float *t) {   \
    const ge__aic_cv *p = s->p;                                                                                        \
    const int64_t NP_ = (NP), SW_ = (SW), cs = p->h * p->w, rs = p->w;                                                 \
    const int64_t skip_row = (p->kw - nkj) * GE__AIC_CL_MB, skip_ch = (p->kh - nki) * p->kw * GE__AIC_CL_MB;           \
    int64_t ch, ki, kj;                                                                                                \
    GE__AIC_CL_R14(GE__AIC_CL_DECL)                                                                                    \
    if (add) {                                                                                                         \
      GE__AIC_CL_R14(GE__AIC_CL_LOAD)                                                                                  \
    }                                                                                                                  \
    for (ch = 0; ch < nch; ch++, x += cs, w += skip_ch)                                                                \
      for (ki = 0; ki < nki; ki++, w += skip_row)                                                                      \
        for (kj = 0; kj < nkj; kj++, w += GE__AIC_CL_MB) {                                                             \
          /* dw (1 here): a tap step the compiler cannot see keeps it from reusing loads across taps (spills) */     \
          const float *xt = x + ki * rs + kj * p->dw;                                                                  \
          __m512 w0 = _mm512_loadu_ps(w), w1 = _mm512_loadu_ps(w + 16);                                                \
          GE__AIC_CL_R14(GE__AIC_CL_FMA)                                                                               \
        }                                                                                                              \
    GE__AIC_CL_R14(GE__AIC_CL_SAVE)                                                                                    \
  }
GE__AIC_CL_TILE(1, 1)
GE__AIC_CL_TILE(2, 1)
GE__AIC_CL_TILE(3, 1)
GE__AIC_CL_TILE(4, 1)
GE__AIC_CL_TILE(5, 1)
GE__AIC_CL_TILE(6, 1)
GE__AIC_CL_TILE(7, 1)
GE__AIC_CL_TILE(8, 1)
GE__AIC_CL_TILE(9, 1)
GE__AIC_CL_TILE(10, 1)
GE__AIC_CL_TILE(11, 1)
GE__AIC_CL_TILE(12, 1)
GE__AIC_CL_TILE(13, 1)
GE__AIC_CL_TILE(14, 1)
GE__AIC_CL_TILE(1, 2)
GE__AIC_CL_TILE(2, 2)
GE__AIC_CL_TILE(3, 2)
GE__AIC_CL_TILE(4, 2)
GE__AIC_CL_TILE(5, 2)
GE__AIC_CL_TILE(6, 2)
GE__AIC_CL_TILE(7, 2)
GE__AIC_CL_TILE(8, 2)
GE__AIC_CL_TILE(9, 2)
GE__AIC_CL_TILE(10, 2)
GE__AIC_CL_TILE(11, 2)
GE__AIC_CL_TILE(12, 2)
GE__AIC_CL_TILE(13, 2)
GE__AIC_CL_TILE(14, 2)

/* y[j * P + i] = t[i * 32 + j] for j < rows, i < n. */
static GE__AIC_CL_ATTR void ge__aic_cl_transpose(const float *t, int64_t n, int64_t rows, float *y, int64_t P) {
  int64_t i, j0, q;
  __m512 r[16];
  for (i = 0; i < n; i += 16) { /* 16 pixels x 16 channels at a time, transposed in registers */
    __mmask16 m = (__mmask16)(n - i >= 16 ? 0xffff : (1u << (n - i)) - 1u);
    for (j0 = 0; j0 < rows; j0 += 16) {
      for (q = 0; q < 16; q++)
        r[q] = i + q < n ? _mm512_loadu_ps(t + (i + q) * GE__AIC_CL_MB + j0) : _mm512_setzero_ps();
      ge__aic_tr16_avx512(r);
      for (q = 0; q < 16 && j0 + q < rows; q++) _mm512_mask_storeu_ps(y + (j0 + q) * P + i, m, r[q]);
    }
  }
}

/* One output row oy of image n, group g, channel block mb: per segment of
 * the row, GE__AIC_CL_CB input channels at a time over all its tiles (the
 * weights of those channels read from L1 by every tile), the sums in a
 * buffer, then transposed into y and the epilogue over the segment. */
static void ge__aic_cl_row(const ge__aic_cl *s, int64_t n, int64_t g, int64_t mb, int64_t oy) {
  typedef void (*tile_fn)(const ge__aic_cl *, const float *, const float *, int64_t, int64_t, int64_t, int, float *);
  static const tile_fn tiles[2][GE__AIC_CL_NP] = {
      {ge__aic_cl_tile1_1, ge__aic_cl_tile2_1, ge__aic_cl_tile3_1, ge__aic_cl_tile4_1, ge__aic_cl_tile5_1,
       ge__aic_cl_tile6_1, ge__aic_cl_tile7_1, ge__aic_cl_tile8_1, ge__aic_cl_tile9_1, ge__aic_cl_tile10_1,
       ge__aic_cl_tile11_1, ge__aic_cl_tile12_1, ge__aic_cl_tile13_1, ge__aic_cl_tile14_1},
      {ge__aic_cl_tile1_2, ge__aic_cl_tile2_2, ge__aic_cl_tile3_2, ge__aic_cl_tile4_2, ge__aic_cl_tile5_2,
       ge__aic_cl_tile6_2, ge__aic_cl_tile7_2, ge__aic_cl_tile8_2, ge__aic_cl_tile9_2, ge__aic_cl_tile10_2,
       ge__aic_cl_tile11_2, ge__aic_cl_tile12_2, ge__aic_cl_tile13_2, ge__aic_cl_tile14_2}};
  const ge__aic_cv *p = s->p;
  int64_t P = p->oh * p->ow, rows = ge__aic_min(GE__AIC_CL_MB, p->mg - mb * GE__AIC_CL_MB), T = p->kh * p->kw;
  int64_t row0 = g * p->mg + mb * GE__AIC_CL_MB; /* the block's first output channel */
  int64_t cs = p->h * p->w, s0, c0, lo, hi, r0 = oy * p->sh - p->ph;
  int64_t ki0 = ge__aic_max(0, -r0), nki = ge__aic_min(p->kh, p->h - r0) - ki0; /* the window's rows inside */
  const float *x = s->x + (n * p->c + g * p->cg) * cs + (r0 + ki0) * p->w;
  const float *w = s->wpack + g * s->per + mb * (s->per / s->nb) + ki0 * p->kw * GE__AIC_CL_MB;
  float *y = s->y + (n * p->m + row0) * P + oy * p->ow;
  float t[GE__AIC_CL_SEG * GE__AIC_CL_MB];
  ge__aic_epi e = s->epi;
  if (e.row_bias) e.row_bias += row0;
  if (e.res) e.res += (n * p->m + row0) * P + oy * p->ow;
  ge__aic_cl_inner(p, &lo, &hi);
  for (s0 = 0; s0 < p->ow; s0 += GE__AIC_CL_SEG) {
    int64_t sn = ge__aic_min(GE__AIC_CL_SEG, p->ow - s0), i0 = ge__aic_max(s0, lo), i1 = ge__aic_min(s0 + sn, hi);
    int64_t ni = i1 > i0 ? i1 - i0 : 0, nt = (ni + GE__AIC_CL_NP - 1) / GE__AIC_CL_NP, i, ox;
    for (c0 = 0; c0 < p->cg; c0 += GE__AIC_CL_CB) {
      int64_t nch = ge__aic_min(GE__AIC_CL_CB, p->cg - c0);
      const float *xc = x + c0 * cs, *wc = w + c0 * T * GE__AIC_CL_MB;
      for (i = 0; i < nt; i++) { /* nt tiles of even widths: no narrow tail tile (56 = 4 x 14, 100 = 4 x 13 + 4 x 12) */
        int64_t a = i0 + ni * i / nt, z = i0 + ni * (i + 1) / nt;
        tiles[p->sw - 1][z - a - 1](s, xc + a * p->sw - p->pw, wc, nch, nki, p->kw, c0 > 0,
                                    t + (a - s0) * GE__AIC_CL_MB);
      }
      for (ox = s0; ox < s0 + sn; ox++) { /* the edge pixels over their inside taps */
        int64_t c = ox * p->sw - p->pw, kj0 = ge__aic_max(0, -c), kj1 = ge__aic_min(p->kw, p->w - c);
        if (ox == i0 && ni > 0) ox = i1 - 1;
        else tiles[0][0](s, xc + c + kj0, wc + kj0 * GE__AIC_CL_MB, nch, nki, kj1 - kj0, c0 > 0, t + (ox - s0) * GE__AIC_CL_MB);
      }
    }
    ge__aic_cl_transpose(t, sn, rows, y + s0, P);
    if (!ge__aic_epi_empty(&e)) ge__aic_epilogue(&e, y + s0, P, 0, s0, rows, sn);
  }
}

/* Share t of the units (image, group, output row, channel block; the
 * block innermost, so the row's input is read from L1 by every block). */
static void ge__aic_cl_fn(void *arg, int64_t begin, int64_t end) {
  const ge__aic_cl *s = (const ge__aic_cl *)arg;
  const ge__aic_cv *p = s->p;
  int64_t t, u;
  for (t = begin; t < end; t++)
    for (u = s->units * t / s->tasks; u < s->units * (t + 1) / s->tasks; u++) {
      int64_t mb = u % s->nb, oy = u / s->nb % p->oh, ng = u / s->nb / p->oh;
      ge__aic_cl_row(s, ng / p->group, ng % p->group, mb, oy);
    }
}
#endif

/* The conv by this path (ge__aic_cl_fits said yes). Tag 56 + level. */
static ge_status ge__aic_conv_lanes(ge_kernel_ctx *c, const ge__aic_kern *k, const ge__aic_cv *p, const ge_value *x,
                                    const ge_value *w, const ge_value *b, const float *res, const ge__aic_act *act,
                                    ge_value *y) {
#ifdef GE__AIC_X86
  ge__aic_cl s;
  ge__aic_clpack cp;
  ge__aic_act a = *act; /* act may live in c->state, which packing may move */
  int64_t threads = ge__aic_threads(c);
  float *scratch;
  const float *pack;
  double flops;
  cp.p = p, cp.w = (const float *)w->data;
  pack = ge__aic_packed(c, 1, 56 + k->level, (size_t)(p->group * ge__aic_cl_per(p)), ge__aic_cl_pack_fn, &cp, 16,
                        &scratch);
  if (!pack) return ge__aic_nomem(c);
  if (ge_kernel_preparing(c)) return GE_OK;
  memset(&s, 0, sizeof s);
  (void)scratch;
  s.p = p, s.x = (const float *)x->data, s.wpack = pack, s.y = (float *)y->data;
  s.epi.row_bias = b ? (const float *)b->data : NULL, s.epi.res = res, s.epi.ldr = p->oh * p->ow;
  s.epi.act = a, s.epi.level = k->level;
  s.nb = ge__aic_cl_nb(p), s.per = ge__aic_cl_per(p);
  flops = 2.0 * (double)p->n * (double)p->m * (double)(p->oh * p->ow) * (double)(p->cg * p->kh * p->kw);
  s.units = p->n * p->group * p->oh * s.nb;
  s.tasks = threads > 1 && flops >= 2e6 ? ge__aic_shares(threads, s.units, 1, flops) : 1;
  ge__aic_on_tasks(c, s.tasks, ge__aic_cl_fn, &s);
  return GE_OK;
#else
  (void)c, (void)k, (void)p, (void)x, (void)w, (void)b, (void)res, (void)act, (void)y, (void)ge__aic_cl_pack_fn,
      (void)ge__aic_cl_inner;
  return GE_ERR_UNSUPPORTED;
#endif
}

/* ------------------------------------------ Winograd F(2x2, 3x3) conv
 *
 * 3x3 stride-1 undilated convs with enough channels: each 2x2 block of
 * outputs ("tile") comes from a 4x4 input patch d as A^T [(G g G^T) .*
 * (B^T d B)] A, so the 16 elementwise products of the transformed domain
 * are 16 GEMMs (M x C times C x tiles) and a tile costs 16 multiplies per
 * channel pair instead of 36. The weights are transformed and packed once
 * (16 matrices in the micro-kernel's A layout); per block of whole tile
 * rows each thread transforms the input straight into the kernel's packed
 * B layout, runs the 16 products, transforms back into y and applies bias,
 * residual and activation on the block's output rows. The transforms
 * only add, subtract and halve (exactly representable factors); the error
 * stays within a few float ulps of the direct sum. */

/* Where element (i, p) of an R x K operand lies in the packed layout of
 * ge__aic_prepack_a/b with tile r (rows padded to Rp): K slices of
 * ge__aic_kc(K), each Rp x its depth, r-row panels p-major inside. */
static int64_t ge__aic_packed_at(int64_t i, int64_t p, int64_t Rp, int64_t r, int64_t K) {
  int64_t kcs = ge__aic_kc(K), s0 = p / kcs * kcs, kcd = ge__aic_min(kcs, K - s0);
  return s0 * Rp + i / r * r * kcd + (p - s0) * r + i % r;
}

/* Where it pays: enough channels that the transforms cost little next to
 * the products, and enough tiles to fill the register tiles' columns. */
static int ge__aic_wino_fits(const ge__aic_cv *p) {
  return p->kh == 3 && p->kw == 3 && p->sh == 1 && p->sw == 1 && p->dh == 1 && p->dw == 1 && p->cg >= 16 &&
         p->mg >= 16 && p->cg + p->mg >= 48 && p->oh >= 2 && p->ow >= 4 &&
         (p->oh + 1) / 2 * ((p->ow + 1) / 2) >= 32;
}

/* Tile rows, tile columns, and tile rows per block (about 16K floats of
 * transformed input and output per channel pair, at least 2 blocks when
 * there are threads to share them). */
static int64_t ge__aic_wino_th(const ge__aic_cv *p) { return (p->oh + 1) / 2; }
static int64_t ge__aic_wino_tw(const ge__aic_cv *p) { return (p->ow + 1) / 2; }
#ifndef GE__AIC_WINO_BLOCK
#define GE__AIC_WINO_BLOCK 16384 /* floats per transformed input and output channel pair of a block */
#endif
#ifndef GE__AIC_WINO_MIN_TILES
#define GE__AIC_WINO_MIN_TILES 32 /* tiles of a block at least (the products' columns) */
#endif
/* Tile rows per block of a th x tw tile grid: about `block` tiles x (cg +
 * mg), at least GE__AIC_WINO_MIN_TILES tiles, at most a thread's share. */
static int64_t ge__aic_block_rows(const ge__aic_cv *p, int64_t th, int64_t tw, int64_t block, int64_t tasks) {
  int64_t want = block / (p->cg + p->mg), r;
  if (want < GE__AIC_WINO_MIN_TILES) want = GE__AIC_WINO_MIN_TILES;
  r = want / tw > 1 ? want / tw : 1;
  if (tasks > 1 && r > (th + tasks - 1) / tasks) r = (th + tasks - 1) / tasks;
  return r;
}
static int64_t ge__aic_wino_rows(const ge__aic_cv *p, int64_t tasks) {
  return ge__aic_block_rows(p, ge__aic_wino_th(p), ge__aic_wino_tw(p), GE__AIC_WINO_BLOCK, tasks);
}

/* Floats of one share's scratch: transformed input and products of a
 * block, then the row buffers of the transforms. */
static size_t ge__aic_wino_share(const ge__aic_kern *k, const ge__aic_cv *p, int64_t tasks) {
  int64_t tbp = ge__aic_round_up(ge__aic_wino_rows(p, tasks) * ge__aic_wino_tw(p), k->nr);
  return (size_t)(16 * ((p->cg + p->mg) * tbp + 32) + 16 * (tbp + 32) + 128);
}
static size_t ge__aic_wino_floats(const ge__aic_kern *k, const ge__aic_cv *p, int64_t tasks) {
  return (size_t)tasks * ge__aic_wino_share(k, p, tasks) + 16;
}

/* The 16 transformed weight matrices of every group, each packed as A. */
static size_t ge__aic_wino_wfloats(const ge__aic_kern *k, const ge__aic_cv *p) {
  return 16 * ge__aic_prepack_a_floats(k, p->mg, p->cg);
}
/* G g G^T of one 3x3 filter w: u[4 i + j]. */
static void ge__aic_wino_filter(const float *w, float *u) {
  double t[4][3];
  int i, j;
  for (j = 0; j < 3; j++) { /* G g: rows g0, (g0+g1+g2)/2, (g0-g1+g2)/2, g2 */
    t[0][j] = w[j];
    t[1][j] = 0.5 * ((double)w[j] + w[3 + j] + w[6 + j]);
    t[2][j] = 0.5 * ((double)w[j] - w[3 + j] + w[6 + j]);
    t[3][j] = w[6 + j];
  }
  for (i = 0; i < 4; i++) /* (G g) G^T, the same on columns */
    for (j = 0; j < 4; j++)
      u[4 * i + j] = (float)(j == 0   ? t[i][0]
                             : j == 1 ? 0.5 * (t[i][0] + t[i][1] + t[i][2])
                             : j == 2 ? 0.5 * (t[i][0] - t[i][1] + t[i][2])
                                      : t[i][2]);
}

static void ge__aic_wino_wpack_fn(const void *arg, float *dst) {
  const ge__aic_wpack *a = (const ge__aic_wpack *)arg;
  const ge__aic_cv *p = a->p;
  int64_t Mp = ge__aic_round_up(p->mg, a->k->mr), per = (int64_t)ge__aic_prepack_a_floats(a->k, p->mg, p->cg);
  int64_t g, m, ch, e;
  float u[16];
  memset(dst, 0, (size_t)p->group * ge__aic_wino_wfloats(a->k, p) * sizeof(float));
  for (g = 0; g < p->group; g++)
    for (m = 0; m < p->mg; m++)
      for (ch = 0; ch < p->cg; ch++) {
        float *base = dst + (size_t)(g * 16) * (size_t)per;
        int64_t at = ge__aic_packed_at(m, ch, Mp, a->k->mr, p->cg);
        ge__aic_wino_filter(a->w + ((g * p->mg + m) * p->cg + ch) * 9, u);
        for (e = 0; e < 16; e++) base[e * per + at] = u[e];
      }
}

/* The transforms, VL tiles at a time over one tile row (arrays padded so
 * whole vectors stay inside). In: fl holds the 16 values d of each patch,
 * row 4r+q at fl + (4r+q) fs; v gets B^T d B, value e of tile j at v + e vs
 * + j/nr ps + j%nr (the packed B layout). Out: m holds the 16 products, row
 * e at m + e ms; o gets the 2x2 outputs A^T m A, row 2a+b at o + (2a+b) os. */
#define GE__AIC_WINO(S, ATTR, VT, VL)                                                                                  \
  static ATTR void ge__aic_wino_in_##S(const float *fl, int64_t fs, int64_t n, float *v, int64_t vs, int64_t nr,      \
                                       int64_t ps) {                                                                   \
    int64_t j, r, q;                                                                                                   \
    for (j = 0; j < n; j += (VL)) {                                                                                    \
      VT d[4][4], t[4][4], o;                                                                                          \
      float *at = v + j / nr * ps + j % nr;                                                                            \
      for (r = 0; r < 4; r++)                                                                                          \
        for (q = 0; q < 4; q++) memcpy(&d[r][q], fl + (4 * r + q) * fs + j, sizeof o);                                 \
      for (q = 0; q < 4; q++) { /* B^T d */                                                                           \
        t[0][q] = d[0][q] - d[2][q];                                                                                   \
        t[1][q] = d[1][q] + d[2][q];                                                                                   \
        t[2][q] = d[2][q] - d[1][q];                                                                                   \
        t[3][q] = d[1][q] - d[3][q];                                                                                   \
      }                                                                                                                \
      for (r = 0; r < 4; r++) { /* (B^T d) B */                                                                       \
        o = t[r][0] - t[r][2];                                                                                         \
        memcpy(at + (4 * r) * vs, &o, sizeof o);                                                                       \
        o = t[r][1] + t[r][2];                                                                                         \
        memcpy(at + (4 * r + 1) * vs, &o, sizeof o);                                                                   \
        o = t[r][2] - t[r][1];                                                                                         \
        memcpy(at + (4 * r + 2) * vs, &o, sizeof o);                                                                   \
        o = t[r][1] - t[r][3];                                                                                         \
        memcpy(at + (4 * r + 3) * vs, &o, sizeof o);                                                                   \
      }                                                                                                                \
    }                                                                                                                  \
  }                                                                                                                    \
  static ATTR void ge__aic_wino_out_##S(const float *m, int64_t ms, int64_t n, float *o, int64_t os) {                \
    int64_t j, e, q;                                                                                                   \
    for (j = 0; j < n; j += (VL)) {                                                                                    \
      VT x[16], s0[4], s1[4], y;                                                                                       \
      for (e = 0; e < 16; e++) memcpy(&x[e], m + e * ms + j, sizeof y);                                                \
      for (q = 0; q < 4; q++) { /* A^T m: rows m0 + m1 + m2, m1 - m2 - m3 */                                          \
        s0[q] = x[q] + x[4 + q] + x[8 + q];                                                                            \
        s1[q] = x[4 + q] - x[8 + q] - x[12 + q];                                                                       \
      }                                                                                                                \
      y = s0[0] + s0[1] + s0[2];                                                                                       \
      memcpy(o + j, &y, sizeof y);                                                                                     \
      y = s0[1] - s0[2] - s0[3];                                                                                       \
      memcpy(o + os + j, &y, sizeof y);                                                                                \
      y = s1[0] + s1[1] + s1[2];                                                                                       \
      memcpy(o + 2 * os + j, &y, sizeof y);                                                                            \
      y = s1[1] - s1[2] - s1[3];                                                                                       \
      memcpy(o + 3 * os + j, &y, sizeof y);                                                                            \
    }                                                                                                                  \
  }
#ifdef GE__AIC_VEC
GE__AIC_WINO(base, , ge__aic_v4, 4)
#ifdef GE__AIC_X86
GE__AIC_WINO(avx2, __attribute__((target("avx2"))), ge__aic_v8, 8)
GE__AIC_WINO(avx512, __attribute__((target("avx512f"))), ge__aic_v16, 16)
#endif
#else
GE__AIC_WINO(base, , float, 1)
#endif

static void ge__aic_wino_in(int level, const float *fl, int64_t fs, int64_t n, float *v, int64_t vs, int64_t nr,
                            int64_t ps) {
#ifdef GE__AIC_X86
  if (level >= 2) ge__aic_wino_in_avx512(fl, fs, n, v, vs, nr, ps);
  else if (level == 1) ge__aic_wino_in_avx2(fl, fs, n, v, vs, nr, ps);
  else
#endif
    ge__aic_wino_in_base(fl, fs, n, v, vs, nr, ps);
  (void)level;
}
static void ge__aic_wino_out(int level, const float *m, int64_t ms, int64_t n, float *o, int64_t os) {
#ifdef GE__AIC_X86
  if (level >= 2) ge__aic_wino_out_avx512(m, ms, n, o, os);
  else if (level == 1) ge__aic_wino_out_avx2(m, ms, n, o, os);
  else
#endif
    ge__aic_wino_out_base(m, ms, n, o, os);
  (void)level;
}

typedef struct ge__aic_wino {
  const ge__aic_kern *k;
  const ge__aic_cv *p;
  const float *x, *wpack; /* the group's channels; its 16 packed matrices */
  const ge__aic_epi *epi; /* NULL: none */
  float *y, *work;
  int64_t rows, tasks;
  size_t share;
  int four;            /* F(4x4, 3x3) (section below), else F(2x2, 3x3) */
  ge__aic_slots slots; /* work: a buffer of `share` floats a thread */
  ge__aic_guide guide; /* the shares' tile rows */
} ge__aic_wino;

/* The 4 patch rows of tile row i of channel xc, split into even and odd
 * columns of the zero-padded row: at fl + 4r fs, row(2j - pw), at fl +
 * (4r+1) fs, row(2j + 1 - pw), j in [0, tw]; then their copies one tile on
 * (rows 4r+2, 4r+3): the 16 patch values of every tile, as flat rows. */
static void ge__aic_wino_split(const ge__aic_cv *p, const float *xc, int64_t i, float *fl, int64_t fs, int level) {
  int64_t tw = ge__aic_wino_tw(p), ja = (p->pw + 1) / 2, jb = (p->w + p->pw) / 2, r, j;
  if (jb > tw + 1) jb = tw + 1;
  if (ja > jb) ja = jb;
  for (r = 0; r < 4; r++) {
    int64_t ir = 2 * i - p->ph + r;
    float *ev = fl + 4 * r * fs, *od = ev + fs;
    const float *row = xc + ir * p->w - p->pw;
    if (ir < 0 || ir >= p->h) {
      memset(ev, 0, (size_t)(tw + 1) * sizeof(float));
      memset(od, 0, (size_t)(tw + 1) * sizeof(float));
    } else {
      for (j = 0; j < ja; j++) {
        ev[j] = 2 * j >= p->pw && 2 * j - p->pw < p->w ? row[2 * j] : 0.0f;
        od[j] = 2 * j + 1 >= p->pw && 2 * j + 1 - p->pw < p->w ? row[2 * j + 1] : 0.0f;
      }
      j += ge__aic_split2(level, row + 2 * j, 2 * (jb - j), ev + j, od + j) / 2; /* inside the image */
      for (; j < jb; j++) ev[j] = row[2 * j], od[j] = row[2 * j + 1];
      for (; j <= tw; j++) {
        ev[j] = 2 * j >= p->pw && 2 * j - p->pw < p->w ? row[2 * j] : 0.0f;
        od[j] = 2 * j + 1 >= p->pw && 2 * j + 1 - p->pw < p->w ? row[2 * j + 1] : 0.0f;
      }
    }
    memcpy(ev + 2 * fs, ev + 1, (size_t)tw * sizeof(float));
    memcpy(od + 2 * fs, od + 1, (size_t)tw * sizeof(float));
  }
}

/* The n products M_e (mg x Np, stride ms) = U_e (packed A, stride per)
 * V_e (packed B, stride vs) of a block over all Np columns: the padding
 * columns past its tiles, computed and dropped, keep the micro-kernel on
 * whole tiles (odd widths leave a part-filled last panel, which took the
 * slow edge path: a 63x65 map ran 1.5x a 64x64 one's time). */
static void ge__aic_wino_products(const ge__aic_kern *k, const ge__aic_cv *p, const float *wpack, int64_t per,
                                  const float *V, int64_t vs, float *Mb, int64_t ms, int64_t Np, int n) {
  ge__aic_mm mm;
  int e;
  memset(&mm, 0, sizeof mm);
  mm.k = k, mm.M = p->mg, mm.N = Np, mm.K = p->cg, mm.alpha = 1.0f, mm.ldc = Np;
  for (e = 0; e < n; e++) {
    mm.apack = wpack + e * per;
    mm.bpack = V + e * vs;
    mm.C = Mb + e * ms;
    ge__aic_mm_block(&mm, 0, mm.M, 0, Np, Mb); /* both operands packed: no packing scratch used */
  }
}

/* Tile rows [i0, i1): the input transform into V (packed B, nb tiles,
 * Np columns with zero padding), the 16 products into Mb (mg x Np each),
 * the output transform into y, the epilogue on the block's output rows. */
static void ge__aic_wino_block(const ge__aic_wino *wn, int64_t i0, int64_t i1, float *sh) {
  const ge__aic_cv *p = wn->p;
  const ge__aic_kern *k = wn->k;
  int64_t tw = ge__aic_wino_tw(p), nb = (i1 - i0) * tw, Np = ge__aic_round_up(nb, k->nr), fs = Np + 32;
  int64_t per = (int64_t)ge__aic_prepack_a_floats(k, p->mg, p->cg), kcs = ge__aic_kc(p->cg);
  int64_t P = p->oh * p->ow, ch, i, j, e, m, r0, r1;
  /* matrix strides 64 bytes off a multiple of 4 KB (at 64 channels x 64 tiles they would be one): the
   * transforms touch all 16 matrices at one offset, which would then share an L1 set */
  int64_t vs = p->cg * Np + 16, ms = p->mg * Np + 16;
  float *V = sh, *Mb = V + 16 * vs, *fl = Mb + 16 * ms + 32;
  for (ch = 0; ch < p->cg; ch++) {
    const float *xc = wn->x + ch * p->h * p->w;
    int64_t s0 = ch / kcs * kcs, kcd = ge__aic_min(kcs, p->cg - s0);
    for (i = i0; i < i1; i++) ge__aic_wino_split(p, xc, i, fl + (i - i0) * tw, fs, k->level);
    for (e = 0; e < 16; e++) memset(fl + e * fs + nb, 0, (size_t)(fs - nb) * sizeof(float));
    ge__aic_wino_in(k->level, fl, fs, Np, V + s0 * Np + (ch - s0) * k->nr, vs, k->nr, k->nr * kcd);
  }
  ge__aic_wino_products(k, p, wn->wpack, per, V, vs, Mb, ms, Np, 16);
  r0 = 2 * i0, r1 = ge__aic_min(p->oh, 2 * i1);
  for (m = 0; m < p->mg; m++) {
    float *ym = wn->y + m * P;
    ge__aic_wino_out(k->level, Mb + m * Np, ms, nb, fl, fs);
    for (i = i0; i < i1; i++)
      for (e = 0; e < 2 && 2 * i + e < p->oh; e++) {
        float *d = ym + (2 * i + e) * p->ow;
        const float *a = fl + 2 * e * fs + (i - i0) * tw, *b = a + fs;
        for (j = ge__aic_zip2(k->level, a, b, p->ow / 2, d); 2 * j + 1 < p->ow; j++) d[2 * j] = a[j], d[2 * j + 1] = b[j];
        if (2 * j < p->ow) d[2 * j] = a[j];
      }
    if (wn->epi) ge__aic_epilogue(wn->epi, ym + r0 * p->ow, 0, m, r0 * p->ow, 1, (r1 - r0) * p->ow);
  }
}

static void ge__aic_w4_block(const ge__aic_wino *wn, int64_t i0, int64_t i1, float *sh);
static int64_t ge__aic_w4_th(const ge__aic_cv *p);
static int64_t ge__aic_w4_tw(const ge__aic_cv *p);
static int64_t ge__aic_w4_rows(const ge__aic_cv *p, int64_t tasks);
static size_t ge__aic_w4_share(const ge__aic_kern *k, const ge__aic_cv *p, int64_t tasks);

/* Share t: its tile rows (wn->guide), in blocks of at most wn->rows. */
static void ge__aic_wino_fn(void *arg, int64_t begin, int64_t end) {
  ge__aic_wino *wn = (ge__aic_wino *)arg;
  int64_t t, i;
  for (t = begin; t < end; t++) {
    int64_t slot = ge__aic_slot_claim(&wn->slots, t);
    float *sh = (float *)(((uintptr_t)(wn->work + (size_t)slot * wn->share) + 63) & ~(uintptr_t)63);
    int64_t a = wn->guide.at[t], b = wn->guide.at[t + 1], nb = (b - a + wn->rows - 1) / wn->rows;
    for (i = 0; i < nb; i++) /* blocks of equal height */
      (wn->four ? ge__aic_w4_block : ge__aic_wino_block)(wn, a + (b - a) * i / nb, a + (b - a) * (i + 1) / nb, sh);
    ge__aic_slot_release(&wn->slots, slot);
  }
}

/* Shares of the tile rows on `tasks` threads (guided: shrinking toward the
 * end); the last ones keep a block of at least GE__AIC_WINO_MIN_TILES tiles
 * (the products' columns; shorter blocks reread the transformed weights,
 * 1 MB at 128 channels, too often: 28-tile blocks measured 20% slower). */
static void ge__aic_wino_shares(ge__aic_guide *g, const ge__aic_cv *p, int64_t tasks, int four) {
  int64_t th = four ? ge__aic_w4_th(p) : ge__aic_wino_th(p), tw = four ? ge__aic_w4_tw(p) : ge__aic_wino_tw(p);
  double flops = 18.0 * (double)p->mg * (double)p->cg * (double)(p->oh * p->ow);
  ge__aic_guide_make(g, tasks, th, (GE__AIC_WINO_MIN_TILES + tw - 1) / tw, flops);
}

/* One image and group by Winograd F(4x4, 3x3) when four, else F(2x2,
 * 3x3); work holds ge__aic_w4_floats or ge__aic_wino_floats(k, p, tasks)
 * floats. */
static void ge__aic_conv_wino(ge_kernel_ctx *c, const ge__aic_kern *k, const ge__aic_cv *p, const float *x,
                              const float *wpack, const ge__aic_epi *epi, float *y, int64_t tasks, float *work,
                              int four) {
  ge__aic_wino wn;
  memset(&wn, 0, sizeof wn);
  wn.k = k, wn.p = p, wn.x = x, wn.wpack = wpack, wn.epi = ge__aic_epi_empty(epi) ? NULL : epi, wn.y = y;
  wn.work = work, wn.four = four;
  ge__aic_wino_shares(&wn.guide, p, c ? tasks : 1, four);
  wn.tasks = wn.guide.n;
  /* a share runs in blocks of at most the rows one thread's buffer (its
   * ge__aic_wino_share(k, p, tasks) floats) holds */
  wn.share = four ? ge__aic_w4_share(k, p, c ? tasks : 1) : ge__aic_wino_share(k, p, c ? tasks : 1);
  wn.rows = four ? ge__aic_w4_rows(p, c ? tasks : 1) : ge__aic_wino_rows(p, c ? tasks : 1);
  ge__aic_slots_init(&wn.slots, wn.tasks, c ? tasks : 1);
  ge__aic_on_tasks(c, wn.tasks, ge__aic_wino_fn, &wn);
}

/* ------------------------------------------ Winograd F(4x4, 3x3) conv
 *
 * As F(2x2, 3x3) above with 4x4 output tiles from 6x6 input patches: 36
 * products per 16 outputs and channel pair, 4x fewer multiplies than the
 * direct conv (F(2x2): 2.25x), so the products shrink by 1.78x while the
 * transforms, over 6x6 tiles, grow. Interpolation points 0, 1, -1, 2, -2
 * and infinity (Lavin and Gray's matrices): B^T and A^T hold small
 * integers (no rounding in their factors), G holds 1/4, 1/6, 1/12, 1/24,
 * applied once to the weights in double. The transformed values grow
 * (B^T's rows sum up to 10 in magnitude, A^T's up to 18), so the
 * rounding error is about 4x F(2x2)'s: at most 9e-6 of the largest sum
 * over test_conv_wino43's cases (F(2x2): 2e-6). Same blocks of whole tile
 * rows, guided shares, scratch and packed layouts as F(2x2); the input
 * rows of a tile row are split by column phase (4j + q) before the
 * transform, and the 4 phases of an output row interleaved back into y
 * after it. Where it beats F(2x2): ge__aic_w4_pays (Conv's dispatch). */

/* Tile rows, tile columns, and tile rows per block (about
 * GE__AIC_W4_BLOCK floats a channel pair of transformed input and
 * products, at least GE__AIC_WINO_MIN_TILES tiles). */
static int64_t ge__aic_w4_th(const ge__aic_cv *p) { return (p->oh + 3) / 4; }
static int64_t ge__aic_w4_tw(const ge__aic_cv *p) { return (p->ow + 3) / 4; }
#ifndef GE__AIC_W4_BLOCK
#define GE__AIC_W4_BLOCK 8192 /* tiles x (cg + mg) of a block (36 matrices of each: 1.1 MB, about F(2x2)'s) */
#endif
static int64_t ge__aic_w4_rows(const ge__aic_cv *p, int64_t tasks) {
  return ge__aic_block_rows(p, ge__aic_w4_th(p), ge__aic_w4_tw(p), GE__AIC_W4_BLOCK, tasks);
}
/* Floats of one share's scratch: transformed input and products of a
 * block, then the 36 rows of the transforms. */
static size_t ge__aic_w4_share(const ge__aic_kern *k, const ge__aic_cv *p, int64_t tasks) {
  int64_t tbp = ge__aic_round_up(ge__aic_w4_rows(p, tasks) * ge__aic_w4_tw(p), k->nr);
  return (size_t)(36 * ((p->cg + p->mg) * tbp + 32) + 36 * (tbp + 32) + 256);
}
static size_t ge__aic_w4_floats(const ge__aic_kern *k, const ge__aic_cv *p, int64_t tasks) {
  return (size_t)tasks * ge__aic_w4_share(k, p, tasks) + 16;
}
/* The 36 transformed weight matrices of every group, each packed as A. */
static size_t ge__aic_w4_wfloats(const ge__aic_kern *k, const ge__aic_cv *p) {
  return 36 * ge__aic_prepack_a_floats(k, p->mg, p->cg);
}

/* Whether F(4x4) beats F(2x2) on a conv F(2x2) takes (measured below).
 * GE_AI_CORE_TEST_KNOBS: ge__aic_w4_choice 1 takes it wherever F(2x2)
 * would run, 2 never. */
#ifdef GE_AI_CORE_TEST_KNOBS
static int ge__aic_w4_choice = 0;
#else
#define ge__aic_w4_choice 0
#endif
#ifndef GE__AIC_W4_MIN_TILES
#define GE__AIC_W4_MIN_TILES 24 /* 4x4 tiles of a map at least */
#endif
/* Measured at 1 thread (CPU time, medians of 5-7 alternating rounds, 3x3
 * convs of ResNet-18, GoogLeNet, Inception-v3, U-Net-like shapes): F(4x4)
 * 1.2-1.6x F(2x2) at AVX-512 from 20x20 maps (25 tiles) up to 256x256
 * (ResNet-18's 56x56 64->64 1.28x, 28x28 128->128 1.49x), and 1.15-1.6x
 * at AVX2 (one shape 0.91x); 0.88x on a 14x14 map (16 tiles: half of the
 * products' 32 columns empty). The SSE level keeps F(2x2) (unmeasured). */
static int ge__aic_w4_pays(const ge__aic_kern *k, const ge__aic_cv *p) {
  if (ge__aic_w4_choice) return ge__aic_w4_choice == 1;
  return k->level >= 1 && ge__aic_w4_th(p) * ge__aic_w4_tw(p) >= GE__AIC_W4_MIN_TILES;
}

/* G g G^T of one 3x3 filter w: u[6 i + j]. */
static void ge__aic_w4_filter(const float *w, float *u) {
  static const double G[6][3] = {{0.25, 0, 0},
                                 {-1.0 / 6, -1.0 / 6, -1.0 / 6},
                                 {-1.0 / 6, 1.0 / 6, -1.0 / 6},
                                 {1.0 / 24, 1.0 / 12, 1.0 / 6},
                                 {1.0 / 24, -1.0 / 12, 1.0 / 6},
                                 {0, 0, 1}};
  double t[6][3];
  int i, j, r;
  for (i = 0; i < 6; i++)
    for (j = 0; j < 3; j++)
      for (t[i][j] = 0, r = 0; r < 3; r++) t[i][j] += G[i][r] * w[3 * r + j];
  for (i = 0; i < 6; i++)
    for (j = 0; j < 6; j++) u[6 * i + j] = (float)(t[i][0] * G[j][0] + t[i][1] * G[j][1] + t[i][2] * G[j][2]);
}

static void ge__aic_w4_wpack_fn(const void *arg, float *dst) {
  const ge__aic_wpack *a = (const ge__aic_wpack *)arg;
  const ge__aic_cv *p = a->p;
  int64_t Mp = ge__aic_round_up(p->mg, a->k->mr), per = (int64_t)ge__aic_prepack_a_floats(a->k, p->mg, p->cg);
  int64_t g, m, ch, e;
  float u[36];
  memset(dst, 0, (size_t)p->group * ge__aic_w4_wfloats(a->k, p) * sizeof(float));
  for (g = 0; g < p->group; g++)
    for (m = 0; m < p->mg; m++)
      for (ch = 0; ch < p->cg; ch++) {
        float *base = dst + (size_t)(g * 36) * (size_t)per;
        int64_t at = ge__aic_packed_at(m, ch, Mp, a->k->mr, p->cg);
        ge__aic_w4_filter(a->w + ((g * p->mg + m) * p->cg + ch) * 9, u);
        for (e = 0; e < 36; e++) base[e * per + at] = u[e];
      }
}

/* The transforms, VL tiles at a time over one tile row (arrays padded so
 * whole vectors stay inside), 1-D on 6 values s apart then on their rows.
 * In: fl holds the 36 values d of each patch, row 6r+q at fl + (6r+q) fs;
 * v gets B^T d B, value e of tile j at v + e vs + j/nr ps + j%nr (the
 * packed B layout). Out: m holds the 36 products, row e at m + e ms; o
 * gets the 4x4 outputs A^T m A, row 4a+b at o + (4a+b) os. */
#define GE__AIC_W4(S, ATTR, VT, VL)                                                                                    \
  static ATTR inline void ge__aic_w4_bt_##S(const VT *d, int s, VT *t) { /* B^T d: 4 d0 - 5 d2 + d4, ... */          \
    VT a = d[4 * s] - 4.0f * d[2 * s], b = d[3 * s] - 4.0f * d[s], c = d[4 * s] - d[2 * s];                           \
    VT e = 2.0f * (d[3 * s] - d[s]);                                                                                   \
    t[0] = 4.0f * d[0] - 5.0f * d[2 * s] + d[4 * s];                                                                   \
    t[s] = a + b, t[2 * s] = a - b, t[3 * s] = c + e, t[4 * s] = c - e;                                                \
    t[5 * s] = 4.0f * d[s] - 5.0f * d[3 * s] + d[5 * s];                                                               \
  }                                                                                                                    \
  static ATTR inline void ge__aic_w4_at_##S(const VT *m, int s, VT *o) { /* A^T m: m0+..+m4, ... */                   \
    VT a = m[s] + m[2 * s], b = m[s] - m[2 * s], c = m[3 * s] + m[4 * s], d = m[3 * s] - m[4 * s];                    \
    o[0] = m[0] + a + c, o[s] = b + 2.0f * d, o[2 * s] = a + 4.0f * c, o[3 * s] = b + 8.0f * d + m[5 * s];            \
  }                                                                                                                    \
  static ATTR void ge__aic_w4_in_##S(const float *fl, int64_t fs, int64_t n, float *v, int64_t vs, int64_t nr,        \
                                     int64_t ps) {                                                                     \
    int64_t j, e;                                                                                                      \
    for (j = 0; j < n; j += (VL)) {                                                                                    \
      VT d[36], t[36], o[6];                                                                                           \
      float *at = v + j / nr * ps + j % nr;                                                                            \
      for (e = 0; e < 36; e++) memcpy(&d[e], fl + e * fs + j, sizeof o[0]);                                            \
      for (e = 0; e < 6; e++) ge__aic_w4_bt_##S(d + e, 6, t + e); /* columns: t = B^T d */                             \
      for (e = 0; e < 36; e += 6) {                                 /* rows: (B^T d) B */                              \
        int q;                                                                                                         \
        ge__aic_w4_bt_##S(t + e, 1, o);                                                                                \
        for (q = 0; q < 6; q++) memcpy(at + (e + q) * vs, &o[q], sizeof o[0]);                                         \
      }                                                                                                                \
    }                                                                                                                  \
  }                                                                                                                    \
  static ATTR void ge__aic_w4_out_##S(const float *m, int64_t ms, int64_t n, float *o, int64_t os) {                  \
    int64_t j, e;                                                                                                      \
    for (j = 0; j < n; j += (VL)) {                                                                                    \
      VT x[36], s[24], y[4];                                                                                           \
      for (e = 0; e < 36; e++) memcpy(&x[e], m + e * ms + j, sizeof y[0]);                                             \
      for (e = 0; e < 6; e++) ge__aic_w4_at_##S(x + e, 6, s + e); /* columns: s = A^T m, 4 x 6 */                      \
      for (e = 0; e < 4; e++) {                                     /* rows: (A^T m) A */                              \
        int q;                                                                                                         \
        ge__aic_w4_at_##S(s + 6 * e, 1, y);                                                                            \
        for (q = 0; q < 4; q++) memcpy(o + (4 * e + q) * os + j, &y[q], sizeof y[0]);                                  \
      }                                                                                                                \
    }                                                                                                                  \
  }
#ifdef GE__AIC_VEC
GE__AIC_W4(base, , ge__aic_v4, 4)
#ifdef GE__AIC_X86
GE__AIC_W4(avx2, __attribute__((target("avx2,fma"))), ge__aic_v8, 8)
GE__AIC_W4(avx512, __attribute__((target("avx512f"))), ge__aic_v16, 16)
#endif
#else
GE__AIC_W4(base, , float, 1)
#endif

static void ge__aic_w4_in(int level, const float *fl, int64_t fs, int64_t n, float *v, int64_t vs, int64_t nr,
                          int64_t ps) {
#ifdef GE__AIC_X86
  if (level >= 2) ge__aic_w4_in_avx512(fl, fs, n, v, vs, nr, ps);
  else if (level == 1) ge__aic_w4_in_avx2(fl, fs, n, v, vs, nr, ps);
  else
#endif
    ge__aic_w4_in_base(fl, fs, n, v, vs, nr, ps);
  (void)level;
}
static void ge__aic_w4_out(int level, const float *m, int64_t ms, int64_t n, float *o, int64_t os) {
#ifdef GE__AIC_X86
  if (level >= 2) ge__aic_w4_out_avx512(m, ms, n, o, os);
  else if (level == 1) ge__aic_w4_out_avx2(m, ms, n, o, os);
  else
#endif
    ge__aic_w4_out_base(m, ms, n, o, os);
  (void)level;
}

/* Column phases of a row, 16 tiles a step with AVX-512 masked loads and
 * two rounds of even/odd permutes: ph[q fs + j] = row[4 j + q - pw], zero
 * outside [0, w), for the n tiles j < n (and up to 15 more written: the
 * caller's rows have the room), and ph[(4 + q) fs + j] = ph[q fs + j + 1]
 * for q < 2, j < n - 1 (the patches' last two columns). Back: d[4 j + q] = ph[q fs + j] for the
 * columns 4 j + q < ow, stores masked past ow. Whole rows: no scalar edge
 * loops (the 14 tiles of a 56-wide row were all edge and cost a quarter of
 * the conv). */
#ifdef GE__AIC_X86
__attribute__((target("avx512f"))) static void ge__aic_w4_split_avx512(const float *row, int64_t pw, int64_t w,
                                                                        int64_t n, float *ph, int64_t fs) {
  const __m512i ie = _mm512_set_epi32(30, 28, 26, 24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 0);
  const __m512i io = _mm512_set_epi32(31, 29, 27, 25, 23, 21, 19, 17, 15, 13, 11, 9, 7, 5, 3, 1);
  int64_t j, k;
  for (j = 0; j < n; j += 16) {
    __m512 v[4], ae, ao, ce, co;
    for (k = 0; k < 4; k++) {
      int64_t c0 = 4 * j + 16 * k - pw, lo = c0 < 0 ? -c0 : 0, hi = w - c0 < 16 ? w - c0 : 16;
      __mmask16 m = (__mmask16)(hi > lo ? ((1u << hi) - 1) & ~((1u << lo) - 1) : 0);
      v[k] = _mm512_maskz_loadu_ps(m, row + c0);
    }
    ae = _mm512_permutex2var_ps(v[0], ie, v[1]), ao = _mm512_permutex2var_ps(v[0], io, v[1]);
    ce = _mm512_permutex2var_ps(v[2], ie, v[3]), co = _mm512_permutex2var_ps(v[2], io, v[3]);
    v[0] = _mm512_permutex2var_ps(ae, ie, ce), v[1] = _mm512_permutex2var_ps(ao, ie, co);
    _mm512_storeu_ps(ph + j, v[0]);
    _mm512_storeu_ps(ph + fs + j, v[1]);
    _mm512_storeu_ps(ph + 2 * fs + j, _mm512_permutex2var_ps(ae, io, ce));
    _mm512_storeu_ps(ph + 3 * fs + j, _mm512_permutex2var_ps(ao, io, co));
    /* rows 4, 5: phases 0, 1 one tile on (tile 0's lane dropped: it is the previous tile row's last) */
    _mm512_mask_storeu_ps(ph + 4 * fs + j - 1, (__mmask16)(j ? 0xFFFF : 0xFFFE), v[0]);
    _mm512_mask_storeu_ps(ph + 5 * fs + j - 1, (__mmask16)(j ? 0xFFFF : 0xFFFE), v[1]);
  }
}
__attribute__((target("avx512f"))) static void ge__aic_w4_zip_avx512(const float *ph, int64_t fs, int64_t ow,
                                                                      float *d) {
  const __m512i lo = _mm512_set_epi32(23, 7, 22, 6, 21, 5, 20, 4, 19, 3, 18, 2, 17, 1, 16, 0);
  const __m512i hi = _mm512_set_epi32(31, 15, 30, 14, 29, 13, 28, 12, 27, 11, 26, 10, 25, 9, 24, 8);
  const __m512i lo2 = _mm512_set_epi32(23, 22, 7, 6, 21, 20, 5, 4, 19, 18, 3, 2, 17, 16, 1, 0);
  const __m512i hi2 = _mm512_set_epi32(31, 30, 15, 14, 29, 28, 13, 12, 27, 26, 11, 10, 25, 24, 9, 8);
  int64_t j, k;
  for (j = 0; 4 * j < ow; j += 16) {
    __m512 x0 = _mm512_loadu_ps(ph + j), x1 = _mm512_loadu_ps(ph + fs + j), x2 = _mm512_loadu_ps(ph + 2 * fs + j);
    __m512 x3 = _mm512_loadu_ps(ph + 3 * fs + j), l01, h01, l23, h23, o[4];
    l01 = _mm512_permutex2var_ps(x0, lo, x1), h01 = _mm512_permutex2var_ps(x0, hi, x1);
    l23 = _mm512_permutex2var_ps(x2, lo, x3), h23 = _mm512_permutex2var_ps(x2, hi, x3);
    o[0] = _mm512_permutex2var_ps(l01, lo2, l23), o[1] = _mm512_permutex2var_ps(l01, hi2, l23);
    o[2] = _mm512_permutex2var_ps(h01, lo2, h23), o[3] = _mm512_permutex2var_ps(h01, hi2, h23);
    for (k = 0; k < 4; k++) {
      int64_t c0 = 4 * j + 16 * k, left = ow - c0;
      if (left >= 16) _mm512_storeu_ps(d + c0, o[k]);
      else if (left > 0) _mm512_mask_storeu_ps(d + c0, (__mmask16)((1u << left) - 1), o[k]);
    }
  }
}
#endif

/* The 6 patch rows of tile row i of channel xc as 36 flat rows: row 6r+q
 * at fl + (6r+q) fs holds column 4j + q - pw of input row 4i - ph + r
 * (zero outside the image) for tiles j in [0, tw] (q < 4: the row split
 * by phase, up to 15 tiles more written at AVX-512; q = 4, 5: phases 0, 1
 * one tile on). */
static void ge__aic_w4_split(const ge__aic_cv *p, const float *xc, int64_t i, float *fl, int64_t fs, int level) {
  int64_t tw = ge__aic_w4_tw(p), r, j, q;
  for (r = 0; r < 6; r++) {
    int64_t ir = 4 * i - p->ph + r;
    float *ph = fl + 6 * r * fs;
    const float *row = xc + ir * p->w;
    if (ir < 0 || ir >= p->h) {
      for (q = 0; q < 6; q++) memset(ph + q * fs, 0, (size_t)(tw + 1) * sizeof(float));
      continue;
    }
#ifdef GE__AIC_X86
    if (level >= 2) {
      ge__aic_w4_split_avx512(row, p->pw, p->w, tw + 1, ph, fs);
      continue;
    }
#endif
    for (j = 0; j <= tw; j++)
      for (q = 0; q < 4; q++) {
        int64_t col = 4 * j + q - p->pw;
        ph[q * fs + j] = col >= 0 && col < p->w ? row[col] : 0.0f;
      }
    memcpy(ph + 4 * fs, ph + 1, (size_t)tw * sizeof(float));
    memcpy(ph + 5 * fs, ph + fs + 1, (size_t)tw * sizeof(float));
  }
  (void)level;
}

/* Tile rows [i0, i1): the input transform into V (packed B, nb tiles,
 * Np columns with zero padding), the 36 products into Mb (mg x Np each),
 * the output transform into y, the epilogue on the block's output rows. */
static void ge__aic_w4_block(const ge__aic_wino *wn, int64_t i0, int64_t i1, float *sh) {
  const ge__aic_cv *p = wn->p;
  const ge__aic_kern *k = wn->k;
  int64_t tw = ge__aic_w4_tw(p), nb = (i1 - i0) * tw, Np = ge__aic_round_up(nb, k->nr), fs = Np + 32;
  int64_t per = (int64_t)ge__aic_prepack_a_floats(k, p->mg, p->cg), kcs = ge__aic_kc(p->cg);
  int64_t P = p->oh * p->ow, ch, i, j, e, m, r0, r1;
  /* matrix strides 64 bytes past a multiple of 4 KB or so: the transforms touch all 36 matrices at one
   * offset, which at a multiple of 4 KB (64 channels x 64 tiles) would share one L1 set */
  int64_t vs = p->cg * Np + 16, ms = p->mg * Np + 16;
  float *V = sh, *Mb = V + 36 * vs, *fl = Mb + 36 * ms + 32;
  int64_t ra = ge__aic_max(0, 4 * i0 - p->ph), rb = ge__aic_min(p->h, 4 * i1 - p->ph + 2); /* input rows read */
  (void)ra, (void)rb;
  for (e = 0; e < 36; e++) /* past the tiles zeros (or a split's spill): all Np columns of V hold numbers */
    memset(fl + e * fs + nb, 0, (size_t)(fs - nb) * sizeof(float));
  for (ch = 0; ch < p->cg; ch++) {
    const float *xc = wn->x + ch * p->h * p->w;
    int64_t s0 = ch / kcs * kcs, kcd = ge__aic_min(kcs, p->cg - s0);
#ifdef GE__AIC_VEC
    if (ch + 1 < p->cg) /* the next channel's rows on their way while this one is split */
      for (j = ra * p->w; j < rb * p->w; j += 16) __builtin_prefetch(xc + p->h * p->w + j);
#endif
    for (i = i0; i < i1; i++) ge__aic_w4_split(p, xc, i, fl + (i - i0) * tw, fs, k->level);
    ge__aic_w4_in(k->level, fl, fs, Np, V + s0 * Np + (ch - s0) * k->nr, vs, k->nr, k->nr * kcd);
  }
  ge__aic_wino_products(k, p, wn->wpack, per, V, vs, Mb, ms, Np, 36);
  r0 = 4 * i0, r1 = ge__aic_min(p->oh, 4 * i1);
  for (m = 0; m < p->mg; m++) {
    float *ym = wn->y + m * P;
    ge__aic_w4_out(k->level, Mb + m * Np, ms, nb, fl, fs);
    for (i = i0; i < i1; i++)
      for (e = 0; e < 4 && 4 * i + e < p->oh; e++) { /* output row 4i+e from its 4 phases */
        float *d = ym + (4 * i + e) * p->ow;
        const float *ph = fl + 4 * e * fs + (i - i0) * tw;
        int64_t q;
#ifdef GE__AIC_X86
        if (k->level >= 2) {
          ge__aic_w4_zip_avx512(ph, fs, p->ow, d);
          continue;
        }
#endif
        for (j = 0; 4 * j < p->ow; j++)
          for (q = 0; q < 4 && 4 * j + q < p->ow; q++) d[4 * j + q] = ph[q * fs + j];
      }
    if (wn->epi) ge__aic_epilogue(wn->epi, ym + r0 * p->ow, 0, m, r0 * p->ow, 1, (r1 - r0) * p->ow);
  }
}

/* ------------------------- Winograd F(2x2, 3x3) with tiles as GEMM rows
 *
 * The last stages of a classification net (7x7 or 14x14 outputs, hundreds
 * of channels) have too few tiles to fill the columns of the register
 * tiles above: 16 tiles would fill half of each 32-wide B panel. Here the
 * 16 products are transposed, M_e^T (tiles x mg) = V_e^T (tiles x cg)
 * U_e^T (cg x mg): the transformed input is packed as A (mr tiles a panel,
 * few rows is cheap), the transformed weights are prepacked once as B, so
 * the output channels fill the panels' columns; threads split the output
 * channels (whole nr panels), each running its columns of the 16 products,
 * the output transform and the epilogue of its channels. The input is
 * transformed once per image and group (channels split over threads). The
 * transforms are those of the section above. */

#ifndef GE__AIC_WT_MAX_TILES
#define GE__AIC_WT_MAX_TILES 64 /* tiles of an image at most (more fill the untransposed products well) */
#endif

#ifndef GE__AIC_WT_MAX_THREADS
/* On more threads the untransposed paths were once measured faster (each
 * thread streams its share of 16 transformed matrices); with the output
 * channels in 4 shares a thread, 2 threads measured faster here (ResNet-18
 * at 2 threads, medians of 30 alternating runs: 18.3 ms against 20.0 ms
 * with the implicit GEMM for its 7x7 stage). More threads: unmeasured. */
#define GE__AIC_WT_MAX_THREADS 2
#endif

static int64_t ge__aic_wt_tiles(const ge__aic_cv *p) { return ge__aic_wino_th(p) * ge__aic_wino_tw(p); }

/* Where it pays: 3x3 stride-1 undilated, many channels, a few tiles
 * (more than the skinny-row kernels take). */
static int ge__aic_wt_fits(const ge__aic_cv *p) {
  int64_t T = ge__aic_wt_tiles(p);
  return p->kh == 3 && p->kw == 3 && p->sh == 1 && p->sw == 1 && p->dh == 1 && p->dw == 1 && p->cg >= 64 &&
         p->mg >= 64 && T > GE__AIC_SKINNY_ROWS && T <= GE__AIC_WT_MAX_TILES && p->oh >= 2 && p->ow >= 2;
}

/* The 16 transformed weight matrices (cg x mg) of every group, each packed as B. */
static size_t ge__aic_wt_wfloats(const ge__aic_kern *k, const ge__aic_cv *p) {
  return 16 * ge__aic_prepack_b_floats(k, p->mg, p->cg);
}
static void ge__aic_wt_wpack_fn(const void *arg, float *dst) {
  const ge__aic_wpack *a = (const ge__aic_wpack *)arg;
  const ge__aic_cv *p = a->p;
  int64_t Np = ge__aic_round_up(p->mg, a->k->nr), per = (int64_t)ge__aic_prepack_b_floats(a->k, p->mg, p->cg);
  int64_t g, m, ch, e;
  float u[16];
  memset(dst, 0, (size_t)p->group * ge__aic_wt_wfloats(a->k, p) * sizeof(float));
  for (g = 0; g < p->group; g++)
    for (m = 0; m < p->mg; m++)
      for (ch = 0; ch < p->cg; ch++) {
        float *base = dst + (size_t)(g * 16) * (size_t)per;
        int64_t at = ge__aic_packed_at(m, ch, Np, a->k->nr, p->cg);
        ge__aic_wino_filter(a->w + ((g * p->mg + m) * p->cg + ch) * 9, u);
        for (e = 0; e < 16; e++) base[e * per + at] = u[e];
      }
}

/* The output transform of one tile for VL channels: m holds the 16
 * products of channel c at m + e ms + c; o gets its 2x2 outputs, output
 * 2a+b of channel c at o + (2a+b) VL + c. */
#define GE__AIC_WT_OUT(S, ATTR, VT, VL)                                                                                \
  static ATTR void ge__aic_wt_out_##S(const float *m, int64_t ms, float *o) {                                         \
    VT x[16], s0[4], s1[4], y;                                                                                         \
    int q;                                                                                                             \
    for (q = 0; q < 16; q++) memcpy(&x[q], m + q * ms, sizeof y);                                                      \
    for (q = 0; q < 4; q++) { /* A^T m: rows m0 + m1 + m2, m1 - m2 - m3 */                                            \
      s0[q] = x[q] + x[4 + q] + x[8 + q];                                                                              \
      s1[q] = x[4 + q] - x[8 + q] - x[12 + q];                                                                         \
    }                                                                                                                  \
    y = s0[0] + s0[1] + s0[2];                                                                                         \
    memcpy(o, &y, sizeof y);                                                                                           \
    y = s0[1] - s0[2] - s0[3];                                                                                         \
    memcpy(o + (VL), &y, sizeof y);                                                                                    \
    y = s1[0] + s1[1] + s1[2];                                                                                         \
    memcpy(o + 2 * (VL), &y, sizeof y);                                                                                \
    y = s1[1] - s1[2] - s1[3];                                                                                         \
    memcpy(o + 3 * (VL), &y, sizeof y);                                                                                \
  }
#ifdef GE__AIC_VEC
GE__AIC_WT_OUT(base, , ge__aic_v4, 4)
#ifdef GE__AIC_X86
GE__AIC_WT_OUT(avx512, __attribute__((target("avx512f"))), ge__aic_v16, 16)
#endif
#endif

/* Columns [j0, j1) (one panel) of a product with both operands prepacked
 * (C = A B, no epilogue), the panel read once: at AVX-512 by the streaming
 * kernel, which fetches the next chunk of B meanwhile: the next K slice of
 * this panel, else the next panel up to m1, else the first panel (m0) of
 * the product whose B lies next_b floats on (0: none). */
static void ge__aic_panel_mm(const ge__aic_mm *g, int64_t j0, int64_t j1, int64_t next_b, int64_t m0, int64_t m1,
                             float *work) {
#ifdef GE__AIC_PMACRO
  const ge__aic_kern *k = g->k;
  int64_t kcs = ge__aic_kc(g->K), Mp = ge__aic_round_up(g->M, k->mr), Np = ge__aic_round_up(g->N, k->nr), pc;
  if (k->level >= 2 && GE__AIC_PF_ON && g->M <= GE__AIC_MC) {
    for (pc = 0; pc < g->K; pc += kcs) {
      int64_t kc = ge__aic_min(kcs, g->K - pc);
      const float *pb = g->bpack + pc * Np + j0 * kc, *pf = pb;
      if (pc + kc < g->K) pf = g->bpack + (pc + kc) * Np + j0 * ge__aic_min(kcs, g->K - pc - kc);
      else if (j0 + k->nr < m1) pf = g->bpack + (j0 + k->nr) * ge__aic_min(kcs, g->K);
      else if (next_b) pf = g->bpack + next_b + m0 * ge__aic_min(kcs, g->K);
      ge__aic_pmacro_avx512(g->M, j1 - j0, kc, g->apack + pc * Mp, pb, g->C + j0, g->ldc, pc == 0, pf);
    }
    return;
  }
#endif
  (void)next_b, (void)m0, (void)m1;
  ge__aic_mm_block(g, 0, g->M, j0, j1, work); /* both packed: no scratch used */
}

/* At AVX-512 the input transform takes a channel in 16-tile chunks, one
 * tile a lane: each of a patch's 16 values is fetched for all 16 tiles at
 * once (by permutes from the plane held in 4 registers when it has at most
 * 64 floats, else by a gather) and transformed in registers; each of the
 * chunk's pieces (its tiles in one A panel) is moved to its place in the
 * panel and stored under a mask. The plan, made once a call: */
#define GE__AIC_WT_CHUNKS ((GE__AIC_WT_MAX_TILES + 15) / 16)
#define GE__AIC_WT_PIECES (3 * GE__AIC_WT_CHUNKS) /* a chunk spans at most 3 panels of mr >= 8 */
typedef struct ge__aic_wt_piece {
  int64_t chunk, panel;
  int32_t lane[16];     /* the chunk's lane for each position in the panel */
  uint16_t mask;        /* the panel positions it writes */
} ge__aic_wt_piece;
typedef struct ge__aic_wt_plan {
  int64_t chunks, pieces;
  int in_regs;                                /* the plane fits 4 registers */
  int32_t offset[16];                         /* of value 4r+q from the corner: r w + q */
  int32_t corner[GE__AIC_WT_CHUNKS][16];      /* plane offset of each lane's patch corner */
  uint16_t valid[GE__AIC_WT_CHUNKS][16];      /* lanes whose value 4r+q lies in the image */
  uint16_t high[GE__AIC_WT_CHUNKS][16];       /* ... and in the plane's second 32 floats */
  ge__aic_wt_piece piece[GE__AIC_WT_PIECES]; /* in chunk order */
  int64_t tail_panel;                        /* the last panel, whose positions */
  uint16_t tail_mask;                        /* past the last tile hold zeros (0: none) */
} ge__aic_wt_plan;

typedef struct ge__aic_wt {
  const ge__aic_kern *k;
  const ge__aic_cv *p;
  const float *x, *wpack; /* the group's channels; its 16 packed matrices */
  const ge__aic_epi *epi; /* NULL: none */
  float *y, *V, *Mb, *work;
  int64_t T, fs, vs, ms, perB, tasks; /* vs, ms: the strides of V_e and of the products */
  size_t share;
  ge__aic_slots slots;  /* work: below AVX-512, a transform buffer of `share` floats a thread */
  ge__aic_guide guide;  /* the running loop's shares: channels (in), panels (mm) */
  ge__aic_wt_plan plan; /* level 2's input transform */
} ge__aic_wt;

static void ge__aic_wt_plan_make(ge__aic_wt_plan *pl, const ge__aic_cv *p, int64_t T, int64_t mr) {
  int64_t tw = ge__aic_wino_tw(p), c, l, v, pi, j;
  memset(pl, 0, sizeof *pl);
  pl->chunks = (T + 15) / 16;
  pl->in_regs = p->h * p->w <= 64;
  for (v = 0; v < 16; v++) pl->offset[v] = (int32_t)(v / 4 * p->w + v % 4);
  for (c = 0; c < pl->chunks; c++)
    for (l = 0; l < 16 && 16 * c + l < T; l++) {
      int64_t t = 16 * c + l, r0 = 2 * (t / tw) - p->ph, c0 = 2 * (t % tw) - p->pw;
      pl->corner[c][l] = (int32_t)(r0 * p->w + c0);
      for (v = 0; v < 16; v++) {
        int64_t r = r0 + v / 4, q = c0 + v % 4;
        if (r < 0 || r >= p->h || q < 0 || q >= p->w) continue;
        pl->valid[c][v] |= (uint16_t)(1u << l);
        if (r * p->w + q >= 32) pl->high[c][v] |= (uint16_t)(1u << l);
      }
    }
  for (c = 0; c < pl->chunks; c++) /* a piece per panel a chunk's tiles touch */
    for (pi = 16 * c / mr; pi * mr < ge__aic_min(T, 16 * c + 16); pi++) {
      ge__aic_wt_piece *pc = &pl->piece[pl->pieces++];
      pc->chunk = c, pc->panel = pi;
      for (j = 0; j < mr; j++) {
        int64_t t = pi * mr + j;
        if (t < 16 * c || t >= ge__aic_min(T, 16 * c + 16)) continue;
        pc->lane[j] = (int32_t)(t - 16 * c);
        pc->mask |= (uint16_t)(1u << j);
      }
    }
  pl->tail_panel = T / mr;
  for (j = T % mr; T % mr && j < mr; j++) pl->tail_mask |= (uint16_t)(1u << j);
}

#ifdef GE__AIC_X86
/* Value v of the patches whose corners are `corner` (plane offsets) for
 * the lanes in `ok` (zero elsewhere): gathered, or by permutes from the
 * plane in 4 registers (hi: the lanes in its second 32 floats). */
static GE__AIC_DW_ATTR512 inline __m512 ge__aic_wt_fetch(const ge__aic_wt_plan *pl, const float *xc, __m512i corner,
                                                          __m512 r0, __m512 r1, __m512 r2, __m512 r3, int v,
                                                          __mmask16 ok, __mmask16 hi) {
  __m512i at = _mm512_add_epi32(corner, _mm512_set1_epi32(pl->offset[v]));
  if (!pl->in_regs) return _mm512_mask_i32gather_ps(_mm512_setzero_ps(), ok, at, xc, 4);
  return _mm512_mask_mov_ps(_mm512_maskz_permutex2var_ps((__mmask16)(ok & ~hi), r0, at, r1), hi,
                            _mm512_permutex2var_ps(r2, at, r3));
}

static GE__AIC_DW_ATTR512 inline __m512 ge__aic_load_upto(const float *x, int64_t n) {
  return n <= 0 ? _mm512_setzero_ps() : _mm512_maskz_loadu_ps((__mmask16)(n >= 16 ? 0xffff : (1u << n) - 1), x);
}

/* Channel ch: B^T d B of every tile into its rows of the 16 V_e. */
static GE__AIC_DW_ATTR512 void ge__aic_wt_in512(const ge__aic_wt *wt, int64_t ch) {
  const ge__aic_wt_plan *pl = &wt->plan;
  const ge__aic_cv *p = wt->p;
  const float *xc = wt->x + ch * p->h * p->w;
  int64_t mr = wt->k->mr, kcs = ge__aic_kc(p->cg), s0 = ch / kcs * kcs, kcd = ge__aic_min(kcs, p->cg - s0);
  int64_t plane = p->h * p->w, vs = wt->vs, c, i;
  float *rows = wt->V + s0 * ge__aic_round_up(wt->T, mr) + (ch - s0) * mr; /* + e vs + panel mr kcd */
  __m512 r0 = _mm512_setzero_ps(), r1 = r0, r2 = r0, r3 = r0, d[16], t[16], v[16];
  int e;
  if (pl->in_regs)
    r0 = ge__aic_load_upto(xc, plane), r1 = ge__aic_load_upto(xc + 16, plane - 16),
    r2 = ge__aic_load_upto(xc + 32, plane - 32), r3 = ge__aic_load_upto(xc + 48, plane - 48);
  for (c = 0, i = 0; c < pl->chunks; c++) {
    __m512i corner = _mm512_loadu_si512(pl->corner[c]);
#pragma GCC unroll 16
    for (e = 0; e < 16; e++) d[e] = ge__aic_wt_fetch(pl, xc, corner, r0, r1, r2, r3, e, pl->valid[c][e], pl->high[c][e]);
#pragma GCC unroll 4
    for (e = 0; e < 4; e++) { /* B^T d, then (B^T d) B: as ge__aic_wino_in */
      t[e] = _mm512_sub_ps(d[e], d[8 + e]);
      t[4 + e] = _mm512_add_ps(d[4 + e], d[8 + e]);
      t[8 + e] = _mm512_sub_ps(d[8 + e], d[4 + e]);
      t[12 + e] = _mm512_sub_ps(d[4 + e], d[12 + e]);
    }
#pragma GCC unroll 4
    for (e = 0; e < 16; e += 4) {
      v[e] = _mm512_sub_ps(t[e], t[e + 2]);
      v[e + 1] = _mm512_add_ps(t[e + 1], t[e + 2]);
      v[e + 2] = _mm512_sub_ps(t[e + 2], t[e + 1]);
      v[e + 3] = _mm512_sub_ps(t[e + 1], t[e + 3]);
    }
    for (; i < pl->pieces && pl->piece[i].chunk == c; i++) {
      const ge__aic_wt_piece *pc = &pl->piece[i];
      __m512i lane = _mm512_loadu_si512(pc->lane);
      float *at = rows + pc->panel * mr * kcd;
#pragma GCC unroll 16
      for (e = 0; e < 16; e++) _mm512_mask_storeu_ps(at + e * vs, pc->mask, _mm512_permutexvar_ps(lane, v[e]));
    }
  }
  if (pl->tail_mask) {
    float *at = rows + pl->tail_panel * mr * kcd;
#pragma GCC unroll 16
    for (e = 0; e < 16; e++) _mm512_mask_storeu_ps(at + e * vs, pl->tail_mask, _mm512_setzero_ps());
  }
}
#endif

/* Per-thread scratch of the input transform: 16 rows of patch values and
 * 16 rows of transformed values, fs floats each. */
static int64_t ge__aic_wt_fs(const ge__aic_cv *p) { return ge__aic_round_up(ge__aic_wt_tiles(p), 16) + 32; }
static size_t ge__aic_wt_share(const ge__aic_cv *p) { return (size_t)(32 * ge__aic_wt_fs(p) + 64); }
/* The strides of the 16 V_e and of the 16 products: a line past a
 * multiple of 16 floats, so the transforms' 16 streams (often 4 KB apart
 * otherwise) fall in different cache sets. */
static int64_t ge__aic_wt_vs(const ge__aic_kern *k, const ge__aic_cv *p) {
  return ge__aic_round_up((int64_t)ge__aic_prepack_a_floats(k, ge__aic_wt_tiles(p), p->cg), 16) + 16;
}
static int64_t ge__aic_wt_ms(const ge__aic_cv *p) { return ge__aic_round_up(ge__aic_wt_tiles(p) * p->mg, 16) + 16; }
/* Scratch floats: V, Mb, the shares. */
static size_t ge__aic_wt_floats(const ge__aic_kern *k, const ge__aic_cv *p, int64_t tasks) {
  return (size_t)(16 * (ge__aic_wt_vs(k, p) + ge__aic_wt_ms(p)) + 64) + (size_t)tasks * ge__aic_wt_share(p);
}

/* Share t of the channels: their 16 transformed rows of tiles into the
 * packed A layout of the 16 V_e. */
static void ge__aic_wt_in_fn(void *arg, int64_t begin, int64_t end) {
  ge__aic_wt *wt = (ge__aic_wt *)arg;
  const ge__aic_cv *p = wt->p;
  int64_t mr = wt->k->mr, T = wt->T, fs = wt->fs, Tp = ge__aic_round_up(T, mr), kcs = ge__aic_kc(p->cg);
  int64_t tw = ge__aic_wino_tw(p), t, ch, i, e, q;
  for (t = begin; t < end; t++) {
    int64_t slot;
    float *fl, *tv;
#ifdef GE__AIC_X86
    if (wt->k->level >= 2) { /* in registers: no buffer */
      for (ch = wt->guide.at[t]; ch < wt->guide.at[t + 1]; ch++) ge__aic_wt_in512(wt, ch);
      continue;
    }
#endif
    slot = ge__aic_slot_claim(&wt->slots, t);
    fl = (float *)(((uintptr_t)(wt->work + (size_t)slot * wt->share) + 63) & ~(uintptr_t)63), tv = fl + 16 * fs;
    for (ch = wt->guide.at[t]; ch < wt->guide.at[t + 1]; ch++) {
      int64_t s0 = ch / kcs * kcs, kcd = ge__aic_min(kcs, p->cg - s0);
      for (i = 0; i < ge__aic_wino_th(p); i++) ge__aic_wino_split(p, wt->x + ch * p->h * p->w, i, fl + i * tw, fs, wt->k->level);
      for (e = 0; e < 16; e++) memset(fl + e * fs + T, 0, (size_t)(fs - T) * sizeof(float));
      ge__aic_wino_in(wt->k->level, fl, fs, T, tv, fs, fs, 0);
      for (e = 0; e < 16; e++) /* row e: mr tiles a panel, zeros past the last tile */
        for (q = 0; q < Tp; q += mr) {
          float *d = wt->V + e * wt->vs + s0 * Tp + q * kcd + (ch - s0) * mr;
          int64_t h = ge__aic_min(mr, T - q);
          memcpy(d, tv + e * fs + q, (size_t)h * sizeof(float));
          if (h < mr) memset(d + h, 0, (size_t)(mr - h) * sizeof(float));
        }
    }
    ge__aic_slot_release(&wt->slots, slot);
  }
}

/* Output channels [m0, m1) of one tile from the products (ldm = mg). */
static void ge__aic_wt_place(const ge__aic_wt *wt, int64_t tile, int64_t m0, int64_t m1) {
  const ge__aic_cv *p = wt->p;
  int64_t tw = ge__aic_wino_tw(p), oi = 2 * (tile / tw), oj = 2 * (tile % tw), P = p->oh * p->ow, ms = wt->ms;
  int64_t m = m0, c, ab;
  const float *src = wt->Mb + tile * p->mg;
  float o[4 * 16];
  while (m < m1) {
    int64_t vl = 1;
#if defined(GE__AIC_VEC) && defined(GE__AIC_X86)
    if (wt->k->level >= 2 && m + 16 <= m1) ge__aic_wt_out_avx512(src + m, ms, o), vl = 16;
    else
#endif
#ifdef GE__AIC_VEC
        if (m + 4 <= m1) ge__aic_wt_out_base(src + m, ms, o), vl = 4;
    else
#endif
    { /* one channel: the scalar transform */
      float s0[4], s1[4];
      int q;
      for (q = 0; q < 4; q++) {
        s0[q] = src[m + q * ms] + src[m + (4 + q) * ms] + src[m + (8 + q) * ms];
        s1[q] = src[m + (4 + q) * ms] - src[m + (8 + q) * ms] - src[m + (12 + q) * ms];
      }
      o[0] = s0[0] + s0[1] + s0[2], o[1] = s0[1] - s0[2] - s0[3];
      o[2] = s1[0] + s1[1] + s1[2], o[3] = s1[1] - s1[2] - s1[3];
    }
    for (ab = 0; ab < 4; ab++) {
      int64_t r = oi + ab / 2, col = oj + ab % 2;
      if (r >= p->oh || col >= p->ow) continue;
      for (c = 0; c < vl; c++) wt->y[(m + c) * P + r * p->ow + col] = o[ab * vl + c];
    }
    m += vl;
  }
}

/* Share t of the output channels (whole nr panels): the 16 products'
 * columns, the output transform, the epilogue of those channels. */
static void ge__aic_wt_mm_fn(void *arg, int64_t begin, int64_t end) {
  const ge__aic_wt *wt = (const ge__aic_wt *)arg;
  const ge__aic_cv *p = wt->p;
  int64_t P = p->oh * p->ow, t, e, tile;
  ge__aic_mm mm;
  memset(&mm, 0, sizeof mm);
  mm.k = wt->k, mm.M = wt->T, mm.N = p->mg, mm.K = p->cg, mm.alpha = 1.0f, mm.ldc = p->mg;
  for (t = begin; t < end; t++) {
    int64_t m0 = ge__aic_min(p->mg, wt->guide.at[t] * wt->k->nr), m1 = ge__aic_min(p->mg, wt->guide.at[t + 1] * wt->k->nr);
    if (m0 >= m1) continue;
    for (e = 0; e < 16; e++) {
      int64_t j;
      mm.apack = wt->V + e * wt->vs;
      mm.bpack = wt->wpack + e * wt->perB;
      mm.C = wt->Mb + e * wt->ms;
      for (j = m0; j < m1; j += wt->k->nr) /* one panel of weights at a time: in L1 for all the tiles */
        ge__aic_panel_mm(&mm, j, ge__aic_min(m1, j + wt->k->nr), e + 1 < 16 ? wt->perB : 0, m0, m1, wt->Mb);
    }
    for (tile = 0; tile < wt->T; tile++) ge__aic_wt_place(wt, tile, m0, m1);
    if (wt->epi) ge__aic_epilogue(wt->epi, wt->y + m0 * P, P, m0, 0, m1 - m0, P);
  }
}

/* Every image and group; the weights packed once (tag 32 + level). */
static ge_status ge__aic_conv_wt(ge_kernel_ctx *c, const ge__aic_kern *k, const ge__aic_cv *p, const ge_value *x,
                                 const ge_value *w, const ge_value *b, const float *res, const ge__aic_act *act,
                                 ge_value *y) {
  ge__aic_act a = *act; /* act may live in c->state, which packing may move */
  ge__aic_wpack wp;
  ge__aic_epi epi;
  ge__aic_wt wt;
  int64_t threads = ge__aic_threads(c), n, g, P = p->oh * p->ow, panels = (p->mg + k->nr - 1) / k->nr;
  const float *wpack;
  float *work;
  size_t per = ge__aic_wt_wfloats(k, p);
  memset(&wp, 0, sizeof wp);
  wp.k = k, wp.p = p, wp.w = (const float *)w->data, wp.K = p->cg * 9, wp.per = per;
  if (!(wpack = ge__aic_packed(c, 1, 32 + k->level, per * (size_t)p->group, ge__aic_wt_wpack_fn, &wp,
                               ge__aic_wt_floats(k, p, threads), &work)))
    return ge__aic_nomem(c);
  if (ge_kernel_preparing(c)) return GE_OK;
  memset(&wt, 0, sizeof wt);
  memset(&epi, 0, sizeof epi);
  epi.act = a, epi.ldr = P, epi.level = k->level;
  wt.k = k, wt.p = p, wt.T = ge__aic_wt_tiles(p), wt.fs = ge__aic_wt_fs(p);
  wt.vs = ge__aic_wt_vs(k, p), wt.ms = ge__aic_wt_ms(p);
  wt.perB = (int64_t)ge__aic_prepack_b_floats(k, p->mg, p->cg);
  wt.V = (float *)(((uintptr_t)work + 63) & ~(uintptr_t)63);
  wt.Mb = wt.V + 16 * wt.vs;
  wt.work = wt.Mb + 16 * wt.ms;
  wt.share = ge__aic_wt_share(p);
  if (k->level >= 2) ge__aic_wt_plan_make(&wt.plan, p, wt.T, k->mr);
  for (n = 0; n < p->n; n++)
    for (g = 0; g < p->group; g++) {
      wt.x = ge__aic_conv_group(p, x, b, res, y, n, g, &epi, &wt.y);
      wt.wpack = wpack + (size_t)g * per;
      wt.epi = ge__aic_epi_empty(&epi) ? NULL : &epi;
      /* the input transform in guided shares of at least 4 channels (a
       * couple of us each), each (below AVX-512) in a free thread's buffer */
      ge__aic_guide_make(&wt.guide, threads, p->cg, 4, 32.0 * (double)wt.T * (double)p->cg * (double)p->mg);
      wt.tasks = wt.guide.n;
      ge__aic_slots_init(&wt.slots, wt.tasks, threads);
      ge__aic_on_tasks(c, wt.tasks, ge__aic_wt_in_fn, &wt);
      ge__aic_guide_make(&wt.guide, threads, panels, 1, 32.0 * (double)wt.T * (double)p->cg * (double)p->mg);
      wt.tasks = wt.guide.n;
      ge__aic_on_tasks(c, wt.tasks, ge__aic_wt_mm_fn, &wt);
    }
  return GE_OK;
}

/* ----------------------- direct conv with output pixels as GEMM rows
 *
 * The late stages of a classification net (7x7 or 14x14 outputs, hundreds
 * of channels; 3x3, strided 3x3 and strided 1x1 convs) have few pixels and
 * big weights: the weights' bytes, not the multiplies, set the time, and
 * 32-pixel column tiles waste a fifth to a third of their lanes (49 or 196
 * pixels). Here the product runs transposed, C^T (pixels x mg) = im2col^T
 * (pixels x K) W^T (K x mg): the weights are prepacked once as B (nr output
 * channels a panel), so the output channels fill the panels' columns and
 * every weight is read once per run, in order; the im2col^T (P x K floats,
 * small when P is) is packed per run as A straight from the image, mr
 * pixels a panel (input channels split over threads). Threads split the
 * output channels (whole panels): each streams its share of the weights,
 * keeps one panel in L1 while every pixel panel passes it, then copies its
 * channels of C^T into y with the bias, residual and activation. Unlike
 * Winograd's transformed weights (16 / 9 as many bytes) this reads the
 * plain weights once. */

#ifndef GE__AIC_DT_MAX_PIXELS
#define GE__AIC_DT_MAX_PIXELS 256 /* output pixels at most (A = P x K stays in L2 beside the weight panel) */
#endif
#define GE__AIC_DT_MAX_A (1 << 18) /* floats of the packed im2col^T at most (1 MB) */

/* Rows the micro-kernels compute for P pixels: whole panels, the last at
 * half height when it fits there. */
static int64_t ge__aic_dt_rows(const ge__aic_kern *k, int64_t P) {
  int64_t full = P / k->mr * k->mr, rest = P - full;
  return full + (rest == 0 ? 0 : 2 * rest <= k->mr ? k->mr / 2 : k->mr);
}

static int ge__aic_dt_fits(const ge__aic_kern *k, const ge__aic_cv *p) {
  int64_t P = p->oh * p->ow, K = p->cg * p->kh * p->kw;
  return k->level >= 1 && P > GE__AIC_FEW_PIXELS && P <= GE__AIC_DT_MAX_PIXELS && p->mg >= k->nr &&
         ge__aic_round_up(P, k->mr) * K <= GE__AIC_DT_MAX_A;
}

/* Whether it pays (the cost model): the pixels fit one row block of A, so
 * each weight panel is read once, streamed by ge__aic_panel_mm, and the
 * pixel panels compute at least a ninth fewer lanes than the nr-pixel
 * column tiles of the paths that take the pixels as columns (49 pixels:
 * 54 rows against 64 columns at AVX-512), counting the implicit GEMM's
 * junk columns where it would run (Inception's valid 3x3/2 convs on 17x17,
 * 8 outputs a row of 9 columns: 72 pixels as 66 rows against 96 columns,
 * 192->320 measured 103 -> 150 GFLOP/s at 1 thread). Winograd keeps the
 * convs it takes (ge__aic_conv tries it first). */
static int ge__aic_dt_pays(const ge__aic_kern *k, const ge__aic_cv *p) {
  int64_t P = p->oh * p->ow, cols = ge__aic_xc_fits(k, p) ? p->oh * ge__aic_xc_wq(p) : P;
  return P <= GE__AIC_MC && 9 * ge__aic_dt_rows(k, P) <= 8 * ge__aic_round_up(cols, k->nr);
}

static size_t ge__aic_dt_wfloats(const ge__aic_kern *k, const ge__aic_cv *p) {
  return ge__aic_prepack_b_floats(k, p->mg, p->cg * p->kh * p->kw);
}
static void ge__aic_dt_wpack_fn(const void *arg, float *dst) {
  const ge__aic_wpack *a = (const ge__aic_wpack *)arg;
  int64_t g;
  for (g = 0; g < a->p->group; g++) /* B(k, m) = W[m][k]: row stride 1, column stride K */
    ge__aic_prepack_b(a->k, a->w + g * a->p->mg * a->K, 1, a->K, a->K, a->p->mg, dst + (size_t)g * a->per);
}
/* Scratch: the packed A, then C^T (P x mg). */
static size_t ge__aic_dt_floats(const ge__aic_kern *k, const ge__aic_cv *p) {
  int64_t P = p->oh * p->ow;
  return (size_t)(ge__aic_round_up(P, k->mr) * p->cg * p->kh * p->kw + P * p->mg + 32);
}

typedef struct ge__aic_dt {
  const ge__aic_kern *k;
  const ge__aic_cv *p;
  const float *x, *wpack; /* the group's channels; its packed weights */
  const ge__aic_epi *epi; /* NULL: none */
  float *y, *A, *Ct;
  int64_t P, K, tasks;
  ge__aic_guide guide; /* the products' shares of output panels */
} ge__aic_dt;

/* Row k = (ch, ki, kj) of im2col, pixels [0, Mp), into A's packed layout
 * (mr pixels a panel, panels mr kcd floats apart; zeros in the padding and
 * past the last pixel). */
static void ge__aic_dt_pack_row(const ge__aic_dt *d, int64_t kk) {
  const ge__aic_cv *p = d->p;
  int64_t mr = d->k->mr, Mp = ge__aic_round_up(d->P, mr), kcs = ge__aic_kc(d->K), s0 = kk / kcs * kcs;
  int64_t kcd = ge__aic_min(kcs, d->K - s0), ch = kk / (p->kh * p->kw), t = kk % (p->kh * p->kw);
  int64_t ki = t / p->kw, kj = t % p->kw, oy, ox, lane = 0, left = 0, right, i;
  const float *xc = d->x + ch * p->h * p->w;
  float *dst = d->A + s0 * Mp + (kk - s0) * mr, v;
  /* output columns [left, right) read inside the image */
  while (left < p->ow && left * p->sw + kj * p->dw - p->pw < 0) left++;
  for (right = p->ow; right > left && (right - 1) * p->sw + kj * p->dw - p->pw >= p->w; right--) {}
#define GE__AIC_DT_PUT(val)                                                                                           \
  {                                                                                                                    \
    dst[lane] = (val);                                                                                                 \
    if (++lane == mr) lane = 0, dst += mr * kcd;                                                                       \
  }
  for (oy = 0; oy < p->oh; oy++) {
    int64_t iy = oy * p->sh - p->ph + ki * p->dh;
    const float *row = xc + iy * p->w + kj * p->dw - p->pw;
    if (iy < 0 || iy >= p->h) {
      for (ox = 0; ox < p->ow; ox++) GE__AIC_DT_PUT(0.0f)
      continue;
    }
    for (ox = 0; ox < left; ox++) GE__AIC_DT_PUT(0.0f)
    for (; ox < right; ox++) {
      v = row[ox * p->sw];
      GE__AIC_DT_PUT(v)
    }
    for (; ox < p->ow; ox++) GE__AIC_DT_PUT(0.0f)
  }
  for (i = d->P; i < Mp; i++) GE__AIC_DT_PUT(0.0f)
#undef GE__AIC_DT_PUT
}

/* Share t of the input channels: their rows of A. */
static void ge__aic_dt_pack_fn(void *arg, int64_t begin, int64_t end) {
  const ge__aic_dt *d = (const ge__aic_dt *)arg;
  int64_t t, taps = d->p->kh * d->p->kw, ch, q;
  for (t = begin; t < end; t++)
    for (ch = d->p->cg * t / d->tasks; ch < d->p->cg * (t + 1) / d->tasks; ch++)
      for (q = 0; q < taps; q++) ge__aic_dt_pack_row(d, ch * taps + q);
}

/* Share t of the output channels (whole nr panels): their columns of
 * C^T, one weight panel at a time, then into y with the epilogue. */
static void ge__aic_dt_mm_fn(void *arg, int64_t begin, int64_t end) {
  const ge__aic_dt *d = (const ge__aic_dt *)arg;
  const ge__aic_cv *p = d->p;
  int64_t nr = d->k->nr, t, j, m, i;
  ge__aic_mm mm;
  memset(&mm, 0, sizeof mm);
  mm.k = d->k, mm.M = d->P, mm.N = p->mg, mm.K = d->K, mm.alpha = 1.0f, mm.ldc = p->mg;
  mm.apack = d->A, mm.bpack = d->wpack, mm.C = d->Ct;
  for (t = begin; t < end; t++) {
    int64_t m0 = ge__aic_min(p->mg, d->guide.at[t] * nr), m1 = ge__aic_min(p->mg, d->guide.at[t + 1] * nr);
    for (j = m0; j < m1; j += nr) ge__aic_panel_mm(&mm, j, ge__aic_min(m1, j + nr), 0, m0, m1, d->Ct);
    for (m = m0; m < m1; m++) /* C transposed back: output channels as rows */
      for (i = 0; i < d->P; i++) d->y[m * d->P + i] = d->Ct[i * p->mg + m];
    if (d->epi) ge__aic_epilogue(d->epi, d->y + m0 * d->P, d->P, m0, 0, m1 - m0, d->P);
  }
}

/* Every image and group; the weights packed once (tag 40 + level). */
static ge_status ge__aic_conv_dt(ge_kernel_ctx *c, const ge__aic_kern *k, const ge__aic_cv *p, const ge_value *x,
                                 const ge_value *w, const ge_value *b, const float *res, const ge__aic_act *act,
                                 ge_value *y) {
  ge__aic_act a = *act; /* act may live in c->state, which packing may move */
  ge__aic_wpack wp;
  ge__aic_epi epi;
  ge__aic_dt d;
  int64_t threads = ge__aic_threads(c), n, g, P = p->oh * p->ow, K = p->cg * p->kh * p->kw;
  int64_t panels = (p->mg + k->nr - 1) / k->nr;
  const float *wpack;
  float *work;
  size_t per = ge__aic_dt_wfloats(k, p);
  memset(&wp, 0, sizeof wp);
  wp.k = k, wp.p = p, wp.w = (const float *)w->data, wp.K = K, wp.per = per;
  if (!(wpack = ge__aic_packed(c, 1, 40 + k->level, per * (size_t)p->group, ge__aic_dt_wpack_fn, &wp,
                               ge__aic_dt_floats(k, p), &work)))
    return ge__aic_nomem(c);
  if (ge_kernel_preparing(c)) return GE_OK;
  memset(&d, 0, sizeof d);
  memset(&epi, 0, sizeof epi);
  epi.act = a, epi.ldr = P, epi.level = k->level;
  d.k = k, d.p = p, d.P = P, d.K = K;
  d.A = (float *)(((uintptr_t)work + 63) & ~(uintptr_t)63);
  d.Ct = d.A + ge__aic_round_up(P, k->mr) * K;
  for (n = 0; n < p->n; n++)
    for (g = 0; g < p->group; g++) {
      d.x = ge__aic_conv_group(p, x, b, res, y, n, g, &epi, &d.y);
      d.wpack = wpack + (size_t)g * per;
      d.epi = ge__aic_epi_empty(&epi) ? NULL : &epi;
      d.tasks = ge__aic_shares(threads, p->cg, 1, 2.0 * (double)P * (double)K * (double)p->mg);
      ge__aic_on_tasks(c, d.tasks, ge__aic_dt_pack_fn, &d);
      ge__aic_guide_make(&d.guide, threads, panels, 1, 2.0 * (double)P * (double)K * (double)p->mg);
      d.tasks = d.guide.n;
      ge__aic_on_tasks(c, d.tasks, ge__aic_dt_mm_fn, &d);
    }
  return GE_OK;
}

/* ------------------------------------- dilated convs mostly in padding
 *
 * Atrous convs (DeepLab's ASPP: 3x3 at dilation 12, 24, 36 on a 14x14 or
 * 28x28 map) have taps that read padding for most, or all, output pixels:
 * im2col would multiply zeros for most of its rows. Here each tap (ki, kj)
 * is a GEMM of its own, W[:, :, ki, kj] (mg x cg, packed once per tap)
 * times the input window it reads inside the image, over just the
 * rectangle of output pixels where it does (rows x columns: the bounds
 * are separable); the taps' products add up in y. A window of whole
 * image rows is read in place (stride 1, no column shift), else gathered;
 * a rectangle of whole output rows is summed straight into y, else into a
 * buffer added after. The bias, residual and activation come last. Taken
 * for dilated convs whose taps' rectangles hold at most half the pixels of
 * the dense kernel's (so convs with a few pads on ordinary maps keep
 * im2col). */

/* Output indices [lo, hi) of one spatial dim where tap t reads inside the
 * image (0 <= o s - pad + t d < in). */
static void ge__aic_taps_span(int64_t t, int64_t s, int64_t d, int64_t pad, int64_t in, int64_t out, int64_t *lo,
                              int64_t *hi) {
  ge__aic_span(t * d - pad, s, in, out, lo, hi);
}

/* Sum over a kernel dim's taps of the outputs each reads inside the image. */
static int64_t ge__aic_taps_live(int64_t k, int64_t s, int64_t d, int64_t pad, int64_t in, int64_t out) {
  int64_t t, lo, hi, sum = 0;
  for (t = 0; t < k; t++) {
    ge__aic_taps_span(t, s, d, pad, in, out, &lo, &hi);
    sum += hi - lo;
  }
  return sum;
}

static int ge__aic_taps_fits(const ge__aic_cv *p) {
  int64_t live, dense = p->kh * p->kw * p->oh * p->ow;
  if (p->kh * p->kw < 2 || (p->dh == 1 && p->dw == 1)) return 0; /* undilated: the other paths' (tiny maps) */
  live = ge__aic_taps_live(p->kh, p->sh, p->dh, p->ph, p->h, p->oh) *
         ge__aic_taps_live(p->kw, p->sw, p->dw, p->pw, p->w, p->ow);
  return 2 * live <= dense;
}

/* Floats of one tap's packed weights, and of the scratch: the GEMM's per
 * thread blocks, a gathered window (cg x P), a product buffer (mg x P). */
static size_t ge__aic_taps_per(const ge__aic_kern *k, const ge__aic_cv *p) {
  return ge__aic_prepack_a_floats(k, p->mg, p->cg);
}
static size_t ge__aic_taps_floats(const ge__aic_cv *p, int64_t tasks) {
  return (size_t)tasks * (ge__aic_mm_work_floats() + 16) + (size_t)((p->cg + p->mg) * p->oh * p->ow) + 64;
}

static void ge__aic_taps_wpack_fn(const void *arg, float *dst) {
  const ge__aic_wpack *a = (const ge__aic_wpack *)arg;
  const ge__aic_cv *p = a->p;
  int64_t g, t, taps = p->kh * p->kw;
  for (g = 0; g < p->group; g++) /* tap t of group g: A(m, ch) = W[g mg + m][ch][t] */
    for (t = 0; t < taps; t++)
      ge__aic_prepack_a(a->k, a->w + g * p->mg * a->K + t, a->K, taps, p->mg, p->cg,
                        dst + (size_t)g * a->per + (size_t)t * ge__aic_taps_per(a->k, p));
}

/* The window tap (ki, kj) reads for output rows [y0, y1) and columns
 * [x0, x1), channel-major (cg x ny nx), into buf. */
static void ge__aic_taps_gather(const ge__aic_cv *p, const float *x, int64_t ki, int64_t kj, int64_t y0, int64_t y1,
                                int64_t x0, int64_t x1, float *buf) {
  int64_t ch, oy, ox, nx = x1 - x0;
  for (ch = 0; ch < p->cg; ch++)
    for (oy = y0; oy < y1; oy++) {
      const float *row = x + (ch * p->h + oy * p->sh - p->ph + ki * p->dh) * p->w + kj * p->dw - p->pw;
      float *d = buf + (ch * (y1 - y0) + oy - y0) * nx;
      if (p->sw == 1) memcpy(d, row + x0, (size_t)nx * sizeof(float));
      else
        for (ox = x0; ox < x1; ox++) d[ox - x0] = row[ox * p->sw];
    }
}

/* One group of one image: yg (mg x P) = sum over taps, then the epilogue. */
static void ge__aic_taps_group(ge_kernel_ctx *c, const ge__aic_kern *k, const ge__aic_cv *p, const float *xg,
                               const float *wpack, const ge__aic_epi *epi, float *yg, int64_t tasks, float *work) {
  int64_t P = p->oh * p->ow, taps = p->kh * p->kw, t, q, first = -1, y0, y1, x0, x1, m;
  float *mmw = work, *buf = work + (size_t)tasks * (ge__aic_mm_work_floats() + 16);
  float *prod = buf + p->cg * P + 32;
  ge__aic_mm mm;
  for (t = 0; t < taps && first < 0; t++) { /* a tap over every output pixel writes y first */
    ge__aic_taps_span(t / p->kw, p->sh, p->dh, p->ph, p->h, p->oh, &y0, &y1);
    ge__aic_taps_span(t % p->kw, p->sw, p->dw, p->pw, p->w, p->ow, &x0, &x1);
    if (y0 == 0 && y1 == p->oh && x0 == 0 && x1 == p->ow) first = t;
  }
  if (first < 0) memset(yg, 0, (size_t)(p->mg * P) * sizeof(float));
  for (q = -1; q < taps; q++) { /* the first tap, then the others */
    int64_t tap = q < 0 ? first : q, ki = tap / p->kw, kj = tap % p->kw, ny, nx;
    int whole_rows, in_place;
    if (tap < 0 || (q >= 0 && tap == first)) continue;
    ge__aic_taps_span(ki, p->sh, p->dh, p->ph, p->h, p->oh, &y0, &y1);
    ge__aic_taps_span(kj, p->sw, p->dw, p->pw, p->w, p->ow, &x0, &x1);
    ny = y1 - y0, nx = x1 - x0;
    if (ny <= 0 || nx <= 0) continue;
    whole_rows = x0 == 0 && x1 == p->ow;
    in_place = whole_rows && p->sh == 1 && p->sw == 1 && p->ow == p->w && kj * p->dw == p->pw;
    memset(&mm, 0, sizeof mm);
    mm.k = k, mm.M = p->mg, mm.N = ny * nx, mm.K = p->cg, mm.alpha = 1.0f;
    mm.apack = wpack + (size_t)tap * ge__aic_taps_per(k, p);
    if (in_place) mm.B = xg + (y0 - p->ph + ki * p->dh) * p->w, mm.brs = p->h * p->w, mm.bcs = 1;
    else ge__aic_taps_gather(p, xg, ki, kj, y0, y1, x0, x1, buf), mm.B = buf, mm.brs = ny * nx, mm.bcs = 1;
    if (whole_rows) mm.C = yg + y0 * p->ow, mm.ldc = P, mm.beta = tap == first ? 0.0f : 1.0f;
    else mm.C = prod, mm.ldc = ny * nx, mm.beta = 0.0f;
    ge__aic_mm_run(c, &mm, tasks, mmw);
    if (!whole_rows)
      for (m = 0; m < p->mg; m++) {
        int64_t oy, ox;
        for (oy = 0; oy < ny; oy++) {
          float *d = yg + m * P + (y0 + oy) * p->ow + x0;
          const float *s = prod + m * ny * nx + oy * nx;
          for (ox = 0; ox < nx; ox++) d[ox] += s[ox];
        }
      }
  }
  if (!ge__aic_epi_empty(epi)) ge__aic_epilogue(epi, yg, P, 0, 0, p->mg, P);
}

/* Every image and group; each tap's weights packed once (tag 48 + level). */
static ge_status ge__aic_conv_taps(ge_kernel_ctx *c, const ge__aic_kern *k, const ge__aic_cv *p, const ge_value *x,
                                   const ge_value *w, const ge_value *b, const float *res, const ge__aic_act *act,
                                   ge_value *y) {
  ge__aic_act a = *act; /* act may live in c->state, which packing may move */
  ge__aic_wpack wp;
  ge__aic_epi epi;
  int64_t tasks = ge__aic_threads(c), n, g;
  size_t per = ge__aic_taps_per(k, p) * (size_t)(p->kh * p->kw);
  const float *wpack;
  float *work, *yg;
  memset(&wp, 0, sizeof wp);
  wp.k = k, wp.p = p, wp.w = (const float *)w->data, wp.K = p->cg * p->kh * p->kw, wp.per = per;
  if (!(wpack = ge__aic_packed(c, 1, 48 + k->level, per * (size_t)p->group, ge__aic_taps_wpack_fn, &wp,
                               ge__aic_taps_floats(p, tasks), &work)))
    return ge__aic_nomem(c);
  if (ge_kernel_preparing(c)) return GE_OK;
  memset(&epi, 0, sizeof epi);
  epi.act = a, epi.ldr = p->oh * p->ow, epi.level = k->level;
  for (n = 0; n < p->n; n++)
    for (g = 0; g < p->group; g++) {
      const float *xg = ge__aic_conv_group(p, x, b, res, y, n, g, &epi, &yg);
      ge__aic_taps_group(c, k, p, xg, wpack + (size_t)g * per, &epi, yg, tasks, work);
    }
  return GE_OK;
}

/* The highest micro-kernel level Conv uses: a test defining
 * GE_AI_CORE_TEST_KNOBS may lower it to check every level's kernels;
 * otherwise a constant (the library keeps no writable global data). */
#ifdef GE_AI_CORE_TEST_KNOBS
static int ge__aic_conv_level_cap = 2;
#else
#define ge__aic_conv_level_cap 2
#endif

/* ------------------------------------------------------------ 3-D Conv
 *
 * Volumes (rank 5) as GEMMs: per group the weights, packed once, are A
 * (M/group x C/group kz kh kw); B is the unfolded input (vol2col: a row per
 * weight tap, a column per output position), never materialised: the
 * GEMM packs each KC x NC panel of it straight from the volume
 * (ge__aic_pack_b_conv), so the products run on full-size blocks, columns
 * split over the threads; the epilogue (bias, residual, activation) runs
 * on each tile of C as it finishes. A 1x1x1 stride-1 conv without pads
 * reads the volume in place as B. */
/* Convs whose H and W are a 3x3 stride-1 undilated conv with enough
 * channels and tiles (ge__aic_wino_fits) run by Winograd F(2x2, 3x3) over
 * H and W, the depth taps summed inside the products: a 2x2 tile of an
 * output plane oz is the sum over depth taps kd and channels of the 2-D
 * transforms of input plane oz sz - pz + kd dz, so the 16 products are
 * GEMMs of mg x (kz cg) weights (transformed and packed once, rows of K in
 * (kd, channel) order) times kz cg transformed input rows. Blocks are runs
 * of tile rows of the flattened (oz, tile row) range, so small planes
 * still fill the register tiles' columns; an input plane past the depth
 * padding transforms as zeros. 2.25x fewer multiplies than the GEMM. */
static int ge__aic_w3_fits(const ge__aic_cv *p) {
  return p->kh == 3 && p->kw == 3 && p->sh == 1 && p->sw == 1 && p->dh == 1 && p->dw == 1 && p->cg >= 16 &&
         p->mg >= 16 && p->cg + p->mg >= 48 && p->oh >= 2 && p->ow >= 4 &&
         p->oz * ge__aic_wino_th(p) * ge__aic_wino_tw(p) >= 32;
}

/* Tile rows of the flattened (depth, tile row) range per block, and the
 * floats of one share's scratch (transformed input and products of a
 * block, then the transforms' row buffers). */
#ifndef GE__AIC_W3_BLOCK
#define GE__AIC_W3_BLOCK 16384 /* floats per transformed input and output channel pair of a block */
#endif
static int64_t ge__aic_w3_rows(const ge__aic_cv *p) {
  int64_t tw = ge__aic_wino_tw(p), want = GE__AIC_W3_BLOCK / (p->kz * p->cg + p->mg);
  if (want < GE__AIC_WINO_MIN_TILES) want = GE__AIC_WINO_MIN_TILES;
  return want / tw > 1 ? want / tw : 1;
}
static size_t ge__aic_w3_share(const ge__aic_kern *k, const ge__aic_cv *p) {
  int64_t tbp = ge__aic_round_up(ge__aic_w3_rows(p) * ge__aic_wino_tw(p), k->nr);
  return (size_t)(16 * (p->kz * p->cg + ge__aic_round_up(p->mg, k->mr)) * tbp + 16 * (tbp + 32) + 128);
}
static size_t ge__aic_w3_wfloats(const ge__aic_kern *k, const ge__aic_cv *p) {
  return 16 * ge__aic_prepack_a_floats(k, p->mg, p->kz * p->cg);
}

static void ge__aic_w3_wpack_fn(const void *arg, float *dst) {
  const ge__aic_wpack *a = (const ge__aic_wpack *)arg;
  const ge__aic_cv *p = a->p;
  int64_t K = p->kz * p->cg, Mp = ge__aic_round_up(p->mg, a->k->mr), per = (int64_t)ge__aic_prepack_a_floats(a->k, p->mg, K);
  int64_t g, m, ch, kd, e;
  float u[16];
  memset(dst, 0, (size_t)p->group * ge__aic_w3_wfloats(a->k, p) * sizeof(float));
  for (g = 0; g < p->group; g++)
    for (m = 0; m < p->mg; m++)
      for (ch = 0; ch < p->cg; ch++)
        for (kd = 0; kd < p->kz; kd++) {
          float *base = dst + (size_t)(g * 16) * (size_t)per;
          int64_t at = ge__aic_packed_at(m, kd * p->cg + ch, Mp, a->k->mr, K);
          ge__aic_wino_filter(a->w + (((g * p->mg + m) * p->cg + ch) * p->kz + kd) * 9, u);
          for (e = 0; e < 16; e++) base[e * per + at] = u[e];
        }
}

typedef struct ge__aic_w3 {
  const ge__aic_kern *k;
  const ge__aic_cv *p;
  const float *x, *wpack; /* the group's channels; its 16 packed matrices */
  const ge__aic_epi *epi; /* NULL: none */
  float *y, *work;
  int64_t rows, tasks;
  int64_t mparts; /* flattened layout: shares split the output channels too, in this many parts */
  size_t share;
  ge__aic_slots slots;
} ge__aic_w3;

/* Tile rows [u0, u1) of the flattened range (u = oz th + i), output
 * channels [m0, m1) (m0 a multiple of MR): the input transform into V
 * (packed B, K = kz cg rows), the 16 products into Mb, the output transform
 * into y with the epilogue, a tile row at a time. */
static void ge__aic_w3_block(const ge__aic_w3 *wn, int64_t u0, int64_t u1, int64_t m0, int64_t m1, float *sh) {
  const ge__aic_cv *p = wn->p;
  const ge__aic_kern *k = wn->k;
  int64_t K = p->kz * p->cg, th = ge__aic_wino_th(p), tw = ge__aic_wino_tw(p), nb = (u1 - u0) * tw;
  int64_t Np = ge__aic_round_up(nb, k->nr), fs = Np + 32, per = (int64_t)ge__aic_prepack_a_floats(k, p->mg, K);
  int64_t kcs = ge__aic_kc(K), plane = p->h * p->w, oplane = p->oh * p->ow, P = p->oz * oplane, r, u, e, m, j;
  int64_t Mp = ge__aic_round_up(p->mg, k->mr);
  float *V = sh, *Mb = V + ((16 * K * Np + 15) & ~(int64_t)15), *fl = Mb + ((16 * Mp * Np + 32 + 15) & ~(int64_t)15);
  ge__aic_mm mm;
  for (r = 0; r < K; r++) { /* row r of K: depth tap kd, channel ch */
    int64_t kd = r / p->cg, ch = r % p->cg, s0 = r / kcs * kcs, kcd = ge__aic_min(kcs, K - s0);
    for (u = u0; u < u1; u++) {
      int64_t iz = u / th * p->sz - p->pz + kd * p->dz;
      if (iz >= 0 && iz < p->z) ge__aic_wino_split(p, wn->x + (ch * p->z + iz) * plane, u % th, fl + (u - u0) * tw, fs, k->level);
      else
        for (e = 0; e < 16; e++) memset(fl + e * fs + (u - u0) * tw, 0, (size_t)tw * sizeof(float));
    }
    for (e = 0; e < 16; e++) memset(fl + e * fs + nb, 0, (size_t)(fs - nb) * sizeof(float));
    ge__aic_wino_in(k->level, fl, fs, Np, V + s0 * Np + (r - s0) * k->nr, K * Np, k->nr, k->nr * kcd);
  }
  memset(&mm, 0, sizeof mm);
  /* whole register tiles: the padding rows of the packed weights and the
     zero columns of V make junk in rows and columns nobody reads */
  mm.k = k, mm.M = Mp, mm.N = Np, mm.K = K, mm.alpha = 1.0f, mm.ldc = Np;
  for (e = 0; e < 16; e++) {
    mm.apack = wn->wpack + e * per;
    mm.bpack = V + e * K * Np;
    mm.C = Mb + e * Mp * Np;
    ge__aic_mm_block(&mm, m0, ge__aic_round_up(m1, k->mr), 0, Np, Mb); /* both operands packed: no packing scratch */
  }
  for (m = m0; m < m1; m++) {
    ge__aic_wino_out(k->level, Mb + m * Np, Mp * Np, nb, fl, fs);
    for (u = u0; u < u1; u++) {
      int64_t i = u % th, r0 = 2 * i, r1 = ge__aic_min(p->oh, 2 * i + 2), col0 = u / th * oplane + r0 * p->ow;
      float *ym = wn->y + m * P + col0;
      for (r = r0; r < r1; r++) {
        float *d = ym + (r - r0) * p->ow;
        const float *a = fl + 2 * (r - r0) * fs + (u - u0) * tw, *b = a + fs;
        for (j = ge__aic_zip2(k->level, a, b, p->ow / 2, d); 2 * j + 1 < p->ow; j++) d[2 * j] = a[j], d[2 * j + 1] = b[j];
        if (2 * j < p->ow) d[2 * j] = a[j];
      }
      if (wn->epi) ge__aic_epilogue(wn->epi, ym, 0, m, col0, 1, (r1 - r0) * p->ow);
    }
  }
}

/* Share t: its tile rows of the flattened range, in blocks of at most
 * wn->rows, and its part of the output channels (whole MR panels). */
static void ge__aic_w3_fn(void *arg, int64_t begin, int64_t end) {
  ge__aic_w3 *wn = (ge__aic_w3 *)arg;
  int64_t t, i, units = wn->p->oz * ge__aic_wino_th(wn->p), cols = wn->tasks / wn->mparts, mr = wn->k->mr;
  int64_t mu = (wn->p->mg + mr - 1) / mr;
  for (t = begin; t < end; t++) {
    int64_t slot = ge__aic_slot_claim(&wn->slots, t), tc = t / wn->mparts, tm = t % wn->mparts;
    float *sh = (float *)(((uintptr_t)(wn->work + (size_t)slot * wn->share) + 63) & ~(uintptr_t)63);
    int64_t a = units * tc / cols, b = units * (tc + 1) / cols, nb = (b - a + wn->rows - 1) / wn->rows;
    int64_t m0 = mu * tm / wn->mparts * mr, m1 = ge__aic_min(wn->p->mg, mu * (tm + 1) / wn->mparts * mr);
    for (i = 0; i < nb; i++) ge__aic_w3_block(wn, a + (b - a) * i / nb, a + (b - a) * (i + 1) / nb, m0, m1, sh);
    ge__aic_slot_release(&wn->slots, slot);
  }
}

/* The same products with each input plane transformed once per block
 * of tile rows instead of once per output plane reading it (kz times):
 * a share walks the output planes of one block of tile rows in order,
 * keeping the transformed planes in a ring of kz slots (an input plane
 * stays while an output plane still reads it), and sums the depth taps
 * as kz accumulating products of mg x cg weights (packed once per tap and
 * transform element; taps in the depth padding are skipped). For planes
 * of at least 32 tiles, where blocks of tile rows within a plane fill the
 * register tiles' columns (r3d_18: 28x28 to 7x7 tiles); smaller planes
 * take the flattened blocks above. */
#define GE__AIC_W3_RING 8 /* depth taps at most */
static int ge__aic_w3r_fits(const ge__aic_cv *p) {
  return p->kz <= GE__AIC_W3_RING && ge__aic_wino_th(p) * ge__aic_wino_tw(p) >= 32;
}
/* Tile rows of a block (the last block of a plane takes the rest): the
 * count up to GE__AIC_W3_TILES tiles whose blocks waste the fewest
 * columns of NR-wide register tiles, the fewer rows on a tie. */
#ifndef GE__AIC_W3_TILES
#define GE__AIC_W3_TILES 256
#endif
static int64_t ge__aic_w3r_rows_nr(const ge__aic_cv *p, int64_t nr) {
  int64_t th = ge__aic_wino_th(p), tw = ge__aic_wino_tw(p), best = 1, r;
  double best_fill = 0;
  for (r = 1; r <= th && (r == 1 || r * tw <= GE__AIC_W3_TILES); r++) {
    int64_t whole = th / r, rest = th % r;
    double used = (double)(th * tw), padded = (double)(whole * ge__aic_round_up(r * tw, nr) + (rest ? ge__aic_round_up(rest * tw, nr) : 0));
    if (used / padded > best_fill + 1e-9) best_fill = used / padded, best = r;
  }
  return best;
}
static size_t ge__aic_w3r_share(const ge__aic_kern *k, const ge__aic_cv *p) {
  int64_t tbp = ge__aic_round_up(ge__aic_w3r_rows_nr(p, k->nr) * ge__aic_wino_tw(p), k->nr);
  return (size_t)(p->kz * (16 * p->cg * tbp + 16) + 16 * ge__aic_round_up(p->mg, k->mr) * tbp + 16 * (tbp + 32) + 128);
}
static size_t ge__aic_w3r_wfloats(const ge__aic_kern *k, const ge__aic_cv *p) {
  return (size_t)(16 * p->kz) * ge__aic_prepack_a_floats(k, p->mg, p->cg);
}

/* Matrix kd 16 + e: transform element e of depth tap kd, mg x cg as A. */
static void ge__aic_w3r_wpack_fn(const void *arg, float *dst) {
  const ge__aic_wpack *a = (const ge__aic_wpack *)arg;
  const ge__aic_cv *p = a->p;
  int64_t Mp = ge__aic_round_up(p->mg, a->k->mr), per = (int64_t)ge__aic_prepack_a_floats(a->k, p->mg, p->cg);
  int64_t g, m, ch, kd, e;
  float u[16];
  memset(dst, 0, (size_t)p->group * ge__aic_w3r_wfloats(a->k, p) * sizeof(float));
  for (g = 0; g < p->group; g++)
    for (m = 0; m < p->mg; m++)
      for (ch = 0; ch < p->cg; ch++)
        for (kd = 0; kd < p->kz; kd++) {
          float *base = dst + (size_t)((g * p->kz + kd) * 16) * (size_t)per;
          int64_t at = ge__aic_packed_at(m, ch, Mp, a->k->mr, p->cg);
          ge__aic_wino_filter(a->w + (((g * p->mg + m) * p->cg + ch) * p->kz + kd) * 9, u);
          for (e = 0; e < 16; e++) base[e * per + at] = u[e];
        }
}

/* Input plane iz, tile rows [i0, i1), transformed into V (packed B of cg rows). */
static void ge__aic_w3r_plane(const ge__aic_w3 *wn, int64_t iz, int64_t i0, int64_t i1, int64_t Np, float *V, float *fl) {
  const ge__aic_cv *p = wn->p;
  const ge__aic_kern *k = wn->k;
  int64_t tw = ge__aic_wino_tw(p), nb = (i1 - i0) * tw, fs = Np + 32, kcs = ge__aic_kc(p->cg), ch, i, e;
  for (ch = 0; ch < p->cg; ch++) {
    const float *xc = wn->x + (ch * p->z + iz) * p->h * p->w;
    int64_t s0 = ch / kcs * kcs, kcd = ge__aic_min(kcs, p->cg - s0);
    for (i = i0; i < i1; i++) ge__aic_wino_split(p, xc, i, fl + (i - i0) * tw, fs, k->level);
    for (e = 0; e < 16; e++) memset(fl + e * fs + nb, 0, (size_t)(fs - nb) * sizeof(float));
    ge__aic_wino_in(k->level, fl, fs, Np, V + s0 * Np + (ch - s0) * k->nr, p->cg * Np, k->nr, k->nr * kcd);
  }
}

/* Output planes [o0, o1) of tile rows [i0, i1). */
static void ge__aic_w3r_run(const ge__aic_w3 *wn, int64_t i0, int64_t i1, int64_t o0, int64_t o1, float *sh) {
  const ge__aic_cv *p = wn->p;
  const ge__aic_kern *k = wn->k;
  int64_t tw = ge__aic_wino_tw(p), nb = (i1 - i0) * tw, Np = ge__aic_round_up(nb, k->nr), fs = Np + 32;
  int64_t slot_floats = (16 * p->cg * Np + 15) & ~(int64_t)15, per = (int64_t)ge__aic_prepack_a_floats(k, p->mg, p->cg);
  int64_t oplane = p->oh * p->ow, P = p->oz * oplane, tag[GE__AIC_W3_RING], oz, kd, e, m, r, j, q;
  int64_t r0 = 2 * i0, r1 = ge__aic_min(p->oh, 2 * i1), Mp = ge__aic_round_up(p->mg, k->mr);
  float *Mb = sh + p->kz * slot_floats, *fl = Mb + ((16 * Mp * Np + 32 + 15) & ~(int64_t)15);
  ge__aic_mm mm;
  memset(&mm, 0, sizeof mm);
  /* whole register tiles (junk in the padding rows and zero columns) */
  mm.k = k, mm.M = Mp, mm.N = Np, mm.K = p->cg, mm.alpha = 1.0f, mm.ldc = Np;
  for (q = 0; q < p->kz; q++) tag[q] = INT64_MIN; /* empty: below every plane */
  for (oz = o0; oz < o1; oz++) {
    int64_t lo = oz * p->sz - p->pz, hi = lo + (p->kz - 1) * p->dz; /* the input planes it reads */
    int first = 1;
    for (kd = 0; kd < p->kz; kd++) {
      int64_t iz = lo + kd * p->dz, at = -1;
      if (iz < 0 || iz >= p->z) continue;
      for (q = 0; q < p->kz && at < 0; q++)
        if (tag[q] == iz) at = q;
      if (at < 0) { /* a slot no tap of this output plane reads */
        for (q = 0; q < p->kz && at < 0; q++)
          if (tag[q] < lo || tag[q] > hi || (tag[q] - lo) % p->dz) at = q;
        ge__aic_w3r_plane(wn, iz, i0, i1, Np, sh + at * slot_floats, fl);
        tag[at] = iz;
      }
      mm.beta = first ? 0.0f : 1.0f;
      for (e = 0; e < 16; e++) {
        mm.apack = wn->wpack + (kd * 16 + e) * per;
        mm.bpack = sh + at * slot_floats + e * p->cg * Np;
        mm.C = Mb + e * Mp * Np;
        ge__aic_mm_block(&mm, 0, Mp, 0, Np, Mb); /* both operands packed: no packing scratch used */
      }
      first = 0;
    }
    if (first) memset(Mb, 0, (size_t)(16 * Mp * Np) * sizeof(float)); /* every tap in the padding */
    for (m = 0; m < p->mg; m++) {
      float *ym = wn->y + m * P + oz * oplane;
      ge__aic_wino_out(k->level, Mb + m * Np, Mp * Np, nb, fl, fs);
      for (r = r0; r < r1; r++) {
        float *d = ym + r * p->ow;
        const float *a = fl + 2 * (r & 1) * fs + (r / 2 - i0) * tw, *b = a + fs;
        for (j = ge__aic_zip2(k->level, a, b, p->ow / 2, d); 2 * j + 1 < p->ow; j++) d[2 * j] = a[j], d[2 * j + 1] = b[j];
        if (2 * j < p->ow) d[2 * j] = a[j];
      }
      if (wn->epi) ge__aic_epilogue(wn->epi, ym + r0 * p->ow, 0, m, oz * oplane + r0 * p->ow, 1, (r1 - r0) * p->ow);
    }
  }
}

/* Share t: a run of the (block of tile rows, output plane) pairs, block-major. */
static void ge__aic_w3r_fn(void *arg, int64_t begin, int64_t end) {
  ge__aic_w3 *wn = (ge__aic_w3 *)arg;
  const ge__aic_cv *p = wn->p;
  int64_t t, th = ge__aic_wino_th(p), nbk = (th + wn->rows - 1) / wn->rows, units = nbk * p->oz;
  for (t = begin; t < end; t++) {
    int64_t slot = ge__aic_slot_claim(&wn->slots, t);
    float *sh = (float *)(((uintptr_t)(wn->work + (size_t)slot * wn->share) + 63) & ~(uintptr_t)63);
    int64_t u = units * t / wn->tasks, b = units * (t + 1) / wn->tasks;
    while (u < b) {
      int64_t blk = u / p->oz, o0 = u % p->oz, o1 = ge__aic_min(p->oz, o0 + (b - u));
      ge__aic_w3r_run(wn, blk * wn->rows, ge__aic_min(th, (blk + 1) * wn->rows), o0, o1, sh);
      u += o1 - o0;
    }
    ge__aic_slot_release(&wn->slots, slot);
  }
}

/* One image and group by Winograd over H and W; work holds tasks *
 * ge__aic_w3_share(k, p) + 16 floats. */
static void ge__aic_conv3d_wino(ge_kernel_ctx *c, const ge__aic_kern *k, const ge__aic_cv *p, const float *x,
                                const float *wpack, const ge__aic_epi *epi, float *y, int64_t tasks, float *work) {
  ge__aic_w3 wn;
  int64_t units = p->oz * ge__aic_wino_th(p), tw = ge__aic_wino_tw(p);
  double flops = 18.0 * (double)p->mg * (double)(p->kz * p->cg) * (double)(p->oz * p->oh * p->ow);
  memset(&wn, 0, sizeof wn);
  wn.k = k, wn.p = p, wn.x = x, wn.wpack = wpack, wn.epi = ge__aic_epi_empty(epi) ? NULL : epi, wn.y = y;
  wn.work = work;
  if (ge__aic_w3r_fits(p)) { /* (block, output plane) pairs */
    wn.share = ge__aic_w3r_share(k, p);
    wn.rows = ge__aic_w3r_rows_nr(p, k->nr);
    units = (ge__aic_wino_th(p) + wn.rows - 1) / wn.rows * p->oz;
    wn.tasks = c ? ge__aic_shares(tasks, units, 1, flops) : 1;
    ge__aic_slots_init(&wn.slots, wn.tasks, c ? tasks : 1);
    ge__aic_on_tasks(c, wn.tasks, ge__aic_w3r_fn, &wn);
    return;
  }
  wn.share = ge__aic_w3_share(k, p);
  wn.rows = ge__aic_w3_rows(p);
  wn.tasks = c ? ge__aic_shares(tasks, units, (GE__AIC_WINO_MIN_TILES + tw - 1) / tw, flops) : 1;
  wn.mparts = 1;
  if (c && tasks > 1 && units / ((GE__AIC_WINO_MIN_TILES + tw - 1) / tw) < tasks) /* no full block a thread */
    wn.tasks = ge__aic_max(1, units / ((GE__AIC_WINO_MIN_TILES + tw - 1) / tw));
  if (c && tasks > 1 && wn.tasks < tasks * GE__AIC_SHARES) {
    /* too few tiles for the threads (the last stage's small planes): the
       output channels split too, each part at least 8 register rows, every
       part of a block transforming its input again (small next to the
       weights it saves reading twice) */
    int64_t cols = wn.tasks, want = (tasks * GE__AIC_SHARES + cols - 1) / cols, most = p->mg / (8 * k->mr);
    wn.mparts = ge__aic_max(1, ge__aic_min(want, most));
    if (cols == 1 && wn.mparts > tasks) wn.mparts -= wn.mparts % tasks; /* as many parts a thread */
    wn.tasks = cols * wn.mparts;
  }
  ge__aic_slots_init(&wn.slots, wn.tasks, c ? tasks : 1);
  ge__aic_on_tasks(c, wn.tasks, ge__aic_w3_fn, &wn);
}

static ge_status ge__aic_conv3d(ge_kernel_ctx *c, ge__aic_state *s, const ge_value *x, const ge_value *w,
                                const ge_value *b) {
  const ge__aic_kern *k = ge__aic_kern_pick(ge__aic_conv_level_cap);
  ge__aic_cv p;
  ge__aic_mm mm;
  ge__aic_epi epi;
  ge__aic_wpack wp;
  ge_value *y;
  const float *wpack, *res;
  float *work;
  int64_t P, K, n, g, tasks;
  size_t per;
  int wino;
  ge_status st;
  if ((st = ge__aic_conv_setup(c, s, x, w, b, &p)) != GE_OK) return st;
  if (!(y = ge__aic_conv_output(c, &p, 5))) return GE_ERR_NOMEM;
  if (y->numel == 0) return GE_OK;
  if ((st = ge__aic_residual(c, s->fused_res, y, &res)) != GE_OK) return st;
  P = p.oz * p.oh * p.ow;
  K = p.cg * p.kz * p.kh * p.kw;
  tasks = ge__aic_threads(c);
  wino = ge__aic_w3_fits(&p) ? 1 + ge__aic_w3r_fits(&p) : 0; /* 2: planes transformed once a block */
  per = wino == 2 ? ge__aic_w3r_wfloats(k, &p) : wino ? ge__aic_w3_wfloats(k, &p) : ge__aic_prepack_a_floats(k, p.mg, K);
  wp.k = k, wp.p = &p, wp.w = (const float *)w->data, wp.K = K, wp.per = per;
  /* the packing's tag tells the layouts apart (Winograd over H, W: level + 56, 64 by depth tap) */
  if (!(wpack = ge__aic_packed(c, 1, k->level + (wino == 2 ? 64 : wino ? 56 : 0), per * (size_t)p.group,
                               wino == 2 ? ge__aic_w3r_wpack_fn : wino ? ge__aic_w3_wpack_fn : ge__aic_wpack_fn, &wp,
                               wino == 2 ? (size_t)tasks * ge__aic_w3r_share(k, &p) + 16
                               : wino    ? (size_t)tasks * ge__aic_w3_share(k, &p) + 16
                                         : (size_t)tasks * ge__aic_mm_work_floats(),
                               &work)))
    return ge__aic_nomem(c);
  if (ge_kernel_preparing(c)) return GE_OK;
  s = (ge__aic_state *)c->state;
  memset(&mm, 0, sizeof mm);
  memset(&epi, 0, sizeof epi);
  epi.act = s->act, epi.ldr = P, epi.level = k->level;
  mm.k = k, mm.M = p.mg, mm.N = P, mm.K = K, mm.alpha = 1.0f, mm.ldc = P, mm.epi = &epi;
  if (K == p.cg && p.sz == 1 && p.sh == 1 && p.sw == 1 && p.pz == 0 && p.ph == 0 && p.pw == 0 && P == p.z * p.h * p.w)
    mm.brs = P, mm.bcs = 1; /* 1x1x1: the volume is B as it is */
  else
    mm.conv = &p;
  for (n = 0; n < p.n; n++)
    for (g = 0; g < p.group; g++) {
      mm.B = mm.x = ge__aic_conv_group(&p, x, b, res, y, n, g, &epi, &mm.C);
      mm.apack = wpack + (size_t)g * per;
      if (wino) ge__aic_conv3d_wino(c, k, &p, mm.x, mm.apack, &epi, mm.C, tasks, work);
      else ge__aic_mm_run(c, &mm, tasks, work);
    }
  return GE_OK;
}

/* Whether Conv p takes the pointwise kernel (the one that runs an input
 * prologue itself): not depthwise, more than a few pixels, 1x1. */
static int ge__aic_conv_is_pw(const ge__aic_cv *p) {
#ifdef GE__AIC_VEC
  return !(p->cg == 1 && (p->group > 1 || p->m == 1)) && p->oh * p->ow > GE__AIC_FEW_PIXELS && ge__aic_pw_fits(p);
#else
  (void)p;
  return 0;
#endif
}

#ifdef GE__AIC_VEC
/* A patchify conv: kernel = stride, no pads or dilation, the map a whole
 * number of patches, one group (ConvNeXt's 4x4/4 stem and 2x2/2
 * downsamplings, ViT's patch embeddings). Its patches do not overlap, so
 * it is a 1x1 conv over the input split into its kh x kw phase planes
 * (channel c's plane (a, b) is channel (c kh + a) kw + b, the order of the
 * weights' [M, C, kh, kw]). */
static int ge__aic_conv_is_patchify(const ge__aic_cv *p) {
  return p->group == 1 && p->kh == p->sh && p->kw == p->sw && p->kh * p->kw > 1 && p->dh == 1 && p->dw == 1 &&
         p->ph == 0 && p->pw == 0 && p->h == p->oh * p->sh && p->w == p->ow * p->sw && p->z == 1;
}

/* A strided 1x1 conv without pads (ResNet's downsampling shortcuts): a 1x1
 * conv over every sh-th row and sw-th column of the input. */
static int ge__aic_conv_is_strided_1x1(const ge__aic_cv *p) {
  return p->kh == 1 && p->kw == 1 && p->sh * p->sw > 1 && p->ph == 0 && p->pw == 0 && p->z == 1 &&
         p->oh == (p->h - 1) / p->sh + 1 && p->ow == (p->w - 1) / p->sw + 1;
}

/* Share t of the channels: every sh-th row and sw-th column of the input
 * into xp (n c oh ow floats). */
static void ge__aic_subsample_fn(void *arg, int64_t begin, int64_t end) {
  const ge__aic_xpad *a = (const ge__aic_xpad *)arg;
  const ge__aic_cv *p = a->p;
  int64_t t, ch, i, j, chans = p->n * p->c;
  for (t = begin; t < end; t++)
    for (ch = chans * t / a->tasks; ch < chans * (t + 1) / a->tasks; ch++)
      for (i = 0; i < p->oh; i++) {
        const float *src = a->x + (ch * p->h + i * p->sh) * p->w;
        float *dst = a->xp + (ch * p->oh + i) * p->ow;
        for (j = 0; j < p->ow; j++) dst[j] = src[j * p->sw];
      }
}

/* The 1x1 conv q (kernel, strides and pads 1, 1, 0) over the copy of the
 * input that fn makes of x for conv p (q.c channels of q.h x q.w): the
 * copy split over the threads where it is big, then the pointwise kernel
 * with the weights read as [M, q.c]. */
static ge_status ge__aic_conv_copied_1x1(ge_kernel_ctx *c, const ge__aic_kern *k, const ge__aic_cv *p,
                                         const ge__aic_cv *q, ge_parallel_fn fn, const ge_value *x, const ge_value *w,
                                         const ge_value *b, const float *res, ge_value *y) {
  ge__aic_pwpack pp;
  ge__aic_xpad ph;
  const ge__aic_state *s;
  const float *wpack;
  float *work;
  int64_t tasks = ge__aic_threads(c);
  size_t planes = (size_t)(p->n * q->c * q->h * q->w);
  pp.p = q, pp.w = (const float *)w->data, pp.level = k->level;
  if (!(wpack = ge__aic_packed(c, 1, k->level + 8, ge__aic_pw_floats(q, k->level) * (size_t)q->group,
                               ge__aic_pw_pack_fn, &pp, planes + 32, &work)))
    return ge__aic_nomem(c);
  if (ge_kernel_preparing(c)) return GE_OK;
  s = (const ge__aic_state *)c->state; /* the packing may have moved the state */
  ph.p = p, ph.x = (const float *)x->data, ph.xp = work, ph.level = k->level;
  ph.tasks = tasks > 1 && planes >= GE__AIC_SC_PHASE_SPLIT ? tasks : 1;
  ge__aic_on_tasks(c, ph.tasks, fn, &ph);
  ge__aic_conv_pointwise(c, q, work, wpack, b ? (const float *)b->data : NULL, res, &s->act, (float *)y->data,
                         k->level, NULL, 0, work + planes + 16);
  return GE_OK;
}

/* Conv p, patchify or a strided 1x1, as a 1x1 conv over a copy of its input. */
static ge_status ge__aic_conv_as_1x1(ge_kernel_ctx *c, const ge__aic_kern *k, const ge__aic_cv *p, const ge_value *x,
                                     const ge_value *w, const ge_value *b, const float *res, ge_value *y) {
  ge__aic_cv q = *p;
  q.h = p->oh, q.w = p->ow;
  q.kh = q.kw = q.sh = q.sw = 1;
  if (ge__aic_conv_is_patchify(p)) {
    q.c = q.cg = p->c * p->kh * p->kw;
    return ge__aic_conv_copied_1x1(c, k, p, &q, ge__aic_sc_phase_fn, x, w, b, res, y);
  }
  return ge__aic_conv_copied_1x1(c, k, p, &q, ge__aic_subsample_fn, x, w, b, res, y);
}
#endif

static ge_status ge__aic_conv_with(ge_kernel_ctx *c, int pre_on);

/* A Conv whose input prologue its path does not run: the input through the
 * prologue into a buffer of its own (this run's), then the Conv without. */
static ge_status ge__aic_conv_pre_apart(ge_kernel_ctx *c) {
  const ge__aic_state *s = (const ge__aic_state *)c->state;
  const ge_value *x = c->inputs[0];
  ge_value xv, *ins[8];
  ge_kernel_ctx rc = *c;
  int64_t planes, hw, i, k;
  uint32_t j;
  ge_status st;
  if (x->dtype != GE_DTYPE_FLOAT32 || x->rank < 3 || x->dims[1] != s->pre_c)
    return ge_kernel_error(c, GE_ERR_SHAPE, "_pre_affine holds %lld channels; input 0 must be float32 [N, %lld, ...]",
                           (long long)s->pre_c, (long long)s->pre_c);
  if (c->num_inputs > 8) return ge_kernel_error(c, GE_ERR_INVALID, "%u inputs: too many for a Conv", c->num_inputs);
  xv = *x;
  xv.capacity = 0;
  if (!ge_kernel_preparing(c) && x->numel > 0) {
    if (!(xv.data = malloc(x->nbytes))) return ge__aic_nomem(c);
    planes = x->dims[0] * x->dims[1], hw = x->numel / planes;
    for (i = 0; i < planes; i++) {
      const float *src = (const float *)x->data + i * hw;
      float *dst = (float *)xv.data + i * hw, sc = s->pre[i % s->pre_c], sh = s->pre[s->pre_c + i % s->pre_c];
      for (k = 0; k < hw; k++) dst[k] = ge__aic_pre1(src[k], sc, sh, s->pre_relu);
    }
  }
  for (j = 0; j < c->num_inputs; j++) ins[j] = j ? c->inputs[j] : &xv;
  rc.inputs = ins;
  st = ge__aic_conv_with(&rc, 0);
  rc.inputs = c->inputs;
  *c = rc; /* the state may have moved */
  if (xv.data != x->data) free(xv.data);
  return st;
}

static ge_status ge__aic_conv(ge_kernel_ctx *c) { return ge__aic_conv_with(c, 1); }

/* pre_on: run the input prologue if the node has one (0: its input has
 * been through it). */
static ge_status ge__aic_conv_with(ge_kernel_ctx *c, int pre_on) {
  const ge_value *x = ge__aic_in(c, 0), *w = ge__aic_in(c, 1), *b = ge__aic_in(c, 2);
  const ge__aic_kern *k = ge__aic_kern_pick(ge__aic_conv_level_cap);
  ge__aic_state *s;
  ge__aic_cv p;
  ge__aic_mm mm;
  ge__aic_epi epi;
  ge__aic_wpack wp;
  ge_value *y;
  int64_t P, K, n, g, tasks;
  const float *wpack, *res;
  float *work;
  size_t per, scratch;
  int implicit, wino;
  ge_status st;
  if (!x || !w) return ge_kernel_error(c, GE_ERR_INVALID, "required input %d is missing", x ? 1 : 0);
  if (!(s = ge__aic_state_get(c))) return ge__aic_nomem(c);
  if (s->pre_bad) return ge_kernel_error(c, GE_ERR_INVALID, "malformed _pre_affine or _pre_activation");
  pre_on = pre_on && s->pre;
  if (pre_on && (!ge__aic_f32(x) || x->rank < 3 || x->rank > 4 || x->dims[1] != s->pre_c)) return ge__aic_conv_pre_apart(c);
  if (!ge__aic_f32(x) || !ge__aic_f32(w) || !ge__aic_f32(b) || x->rank < 3 || x->rank > 5) return ge__aic_reference(c);
  if (s->act.kind == GE__AIC_ACT_BAD) return ge_kernel_error(c, GE_ERR_INVALID, "unknown _fused_activation");
  if (x->rank == 5) return ge__aic_conv3d(c, s, x, w, b);
  if ((st = ge__aic_conv_setup(c, s, x, w, b, &p)) != GE_OK) return st;
  if (pre_on && !ge__aic_conv_is_pw(&p)) return ge__aic_conv_pre_apart(c);
  if (!(y = ge__aic_conv_output(c, &p, x->rank))) return GE_ERR_NOMEM;
  if (y->numel == 0) return GE_OK;
  if ((st = ge__aic_residual(c, s->fused_res, y, &res)) != GE_OK) return st;
  P = p.oh * p.ow;
  K = p.cg * p.kh * p.kw;
  tasks = ge__aic_threads(c);
  if (p.cg == 1 && (p.group > 1 || p.m == 1)) { /* group 1 with one input channel (an STFT as a Conv) is a GEMM */
    ge__aic_act act = s->act;
    if (ge__aic_dwf_fits(&p, k->level)) return ge__aic_conv_dwf(c, &p, x, w, b, res, y, k->level);
    if (ge__aic_dws_fits(&p, k->level)) {
      if (!ge_kernel_preparing(c))
        ge__aic_conv_dws(c, &p, (const float *)x->data, (const float *)w->data, b ? (const float *)b->data : NULL, res,
                         &act, (float *)y->data);
      return GE_OK;
    }
    if (!(work = ge__aic_scratch(c, (size_t)tasks * ge__aic_dw_floats(&p, k->level) + 16))) return ge__aic_nomem(c);
    if (ge_kernel_preparing(c)) return GE_OK;
    ge__aic_conv_depthwise(c, &p, (const float *)x->data, (const float *)w->data, b ? (const float *)b->data : NULL,
                           res, &act, (float *)y->data, k->level, work);
    return GE_OK;
  }
  if (P <= GE__AIC_FEW_PIXELS) { /* a few pixels: dot products, constant weights packed at AVX-512 */
    ge__aic_dotpack dp;
    wpack = NULL;
    dp.p = &p, dp.w = (const float *)w->data;
    if (k->level >= 2 && ge__aic_input_const(c, 1)) {
      /* tag 120 + level: no other path's packing */
      if (!(wpack = ge__aic_packed(c, 1, 120 + k->level, ge__aic_dotp_floats(&p), ge__aic_dotp_pack_fn, &dp,
                                   (size_t)(P * K) + 16, &work)))
        return ge__aic_nomem(c);
    } else if (!(work = ge__aic_scratch(c, (size_t)(P * K) + 16)))
      return ge__aic_nomem(c);
    if (ge_kernel_preparing(c)) return GE_OK;
    s = (ge__aic_state *)c->state; /* the scratch may have moved the state */
    ge__aic_conv_dots(c, &p, (const float *)x->data, (const float *)w->data, wpack, b ? (const float *)b->data : NULL,
                      res, &s->act, (float *)y->data, k->level, work);
    return GE_OK;
  }
#ifdef GE__AIC_VEC
  if (ge__aic_conv_is_pw(&p)) { /* 1x1: the image read in place, weights in panels (own layout: level + 8) */
    ge__aic_pwpack pp;
    pp.p = &p, pp.w = (const float *)w->data, pp.level = k->level;
    if (!(wpack = ge__aic_packed(c, 1, k->level + 8, ge__aic_pw_floats(&p, k->level) * (size_t)p.group,
                                 ge__aic_pw_pack_fn, &pp, (pre_on ? ge__aic_pw_pre_floats(&p, k->level, tasks) : 0) + 16,
                                 &work)))
      return ge__aic_nomem(c);
    if (ge_kernel_preparing(c)) return GE_OK;
    s = (ge__aic_state *)c->state;
    ge__aic_conv_pointwise(c, &p, (const float *)x->data, wpack, b ? (const float *)b->data : NULL, res, &s->act,
                           (float *)y->data, k->level, pre_on ? s->pre : NULL, s->pre_relu, work);
    return GE_OK;
  }
  if (ge__aic_dt_choice != 1 && (ge__aic_conv_is_patchify(&p) || ge__aic_conv_is_strided_1x1(&p)))
    return ge__aic_conv_as_1x1(c, k, &p, x, w, b, res, y);
#endif
  if (ge__aic_cl_fits(k, &p)) /* few output channels or a stem: channels in lanes */
    return ge__aic_conv_lanes(c, k, &p, x, w, b, res, &s->act, y);
  if (ge__aic_dt_choice != 1 && ge__aic_taps_fits(&p)) /* taps mostly in the padding: a GEMM per tap */
    return ge__aic_conv_taps(c, k, &p, x, w, b, res, &s->act, y);
  if (tasks <= GE__AIC_WT_MAX_THREADS && ge__aic_wt_fits(&p) && !ge__aic_sc_fits(k, &p) && ge__aic_dt_choice != 1)
    return ge__aic_conv_wt(c, k, &p, x, w, b, res, &s->act, y);
  wino = ge__aic_wino_fits(&p);
  if (wino && ge__aic_w4_pays(k, &p)) wino = 2; /* F(4x4, 3x3) */
  if (wino && ge__aic_dt_choice != 1 && ge__aic_sc_beats_wino(k, &p, wino == 2))
    return ge__aic_conv_small(c, k, &p, x, w, b, res, &s->act, y);
  if (ge__aic_dt_fits(k, &p) && ge__aic_dt_choice != 2 &&
      (ge__aic_dt_choice == 1 || (!wino && !ge__aic_sc_fits(k, &p) && ge__aic_dt_pays(k, &p)))) /* pixels as rows */
    return ge__aic_conv_dt(c, k, &p, x, w, b, res, &s->act, y);
  if (!wino && ge__aic_sc_fits_last(k, &p)) return ge__aic_conv_small(c, k, &p, x, w, b, res, &s->act, y);
  per = wino == 2 ? ge__aic_w4_wfloats(k, &p) : wino ? ge__aic_wino_wfloats(k, &p) : ge__aic_prepack_a_floats(k, p.mg, K);
  wp.k = k, wp.p = &p, wp.w = (const float *)w->data, wp.K = K, wp.per = per;
  implicit = !wino && ge__aic_xc_fits(k, &p);
  scratch = wino == 2  ? ge__aic_w4_floats(k, &p, tasks)
            : wino     ? ge__aic_wino_floats(k, &p, tasks)
            : implicit ? ge__aic_xc_floats(k, &p, tasks)
                       : (size_t)tasks * ge__aic_mm_work_floats();
  /* the packing's tag tells the layouts apart (Winograd: level + 24, F(4x4): + 72), should the shape change between runs */
  if (!(wpack = ge__aic_packed(c, 1, k->level + (wino == 2 ? 72 : wino ? 24 : 0), per * (size_t)p.group,
                               wino == 2 ? ge__aic_w4_wpack_fn : wino ? ge__aic_wino_wpack_fn : ge__aic_wpack_fn, &wp,
                               scratch, &work)))
    return ge__aic_nomem(c);
  if (ge_kernel_preparing(c)) return GE_OK;
  s = (ge__aic_state *)c->state;
  memset(&mm, 0, sizeof mm);
  memset(&epi, 0, sizeof epi);
  epi.act = s->act;
  epi.ldr = P;
  epi.level = k->level;
  mm.k = k;
  mm.M = p.mg, mm.N = P, mm.K = K, mm.alpha = 1.0f;
  mm.ldc = P;
  mm.epi = &epi;
  if (p.kh == 1 && p.kw == 1 && p.sh == 1 && p.sw == 1 && p.ph == 0 && p.pw == 0 && p.oh == p.h && p.ow == p.w)
    mm.brs = P, mm.bcs = 1; /* 1x1: the image is B as it is */
  else
    mm.conv = &p;
  for (n = 0; n < p.n; n++)
    for (g = 0; g < p.group; g++) {
      const float *xg = ge__aic_conv_group(&p, x, b, res, y, n, g, &epi, &mm.C);
      mm.apack = wpack + (size_t)g * per;
      mm.B = mm.x = xg;
      if (wino) ge__aic_conv_wino(c, k, &p, xg, mm.apack, &epi, mm.C, tasks, work, wino == 2);
      else if (implicit) ge__aic_conv_implicit(c, k, &p, xg, mm.apack, &epi, mm.C, tasks, work);
      else ge__aic_mm_run(c, &mm, tasks, work);
    }
  return GE_OK;
}

/* --------------------------------------------------------- ConvTranspose
 *
 * Per image and group: cols = W_g^T x_g, a GEMM of (mg kh kw) x (h w) x cg
 * with the weights packed once as A (Const), then col2im: every output
 * channel starts at its bias and adds its kh kw rows of cols at their
 * strided, dilated places (output channels split over threads), then the
 * activation while the plane is in cache. The geometry follows the host
 * reference kernel (host_cpu/dense.h): output_shape, output_padding,
 * auto_pad and pads. */

/* p: input h, w; output oh, ow; ph, pw the pads at the beginning (may be
 * negative under output_shape). */
static ge_status ge__aic_convt_setup(ge_kernel_ctx *c, const ge__aic_state *s, const ge_value *x, const ge_value *w,
                                     const ge_value *b, ge__aic_cv *p) {
  int32_t r = x->rank - 2, i;
  int64_t in[2] = {1, 1}, k[2] = {1, 1}, out[2] = {1, 1}, pb[2] = {0, 0}, st[2] = {1, 1}, dl[2] = {1, 1};
  const int64_t lim = (int64_t)1 << 31;
  memset(p, 0, sizeof *p);
  if (w->rank != x->rank)
    return ge_kernel_error(c, GE_ERR_SHAPE, "weight rank %d differs from input rank %d", (int)w->rank, (int)x->rank);
  if (s->auto_pad < 0) return ge_kernel_error(c, GE_ERR_INVALID, "unknown auto_pad");
  if ((s->n_s >= 0 && s->n_s != r) || (s->n_d >= 0 && s->n_d != r) || (s->n_pads >= 0 && s->n_pads != 2 * r) ||
      (s->n_ks >= 0 && s->n_ks != r) || (s->n_opad >= 0 && s->n_opad != r) ||
      (s->n_oshape >= 0 && s->n_oshape != r && s->n_oshape != r + 2))
    return ge_kernel_error(c, GE_ERR_INVALID,
                           "strides, dilations, pads, kernel_shape, output_padding or output_shape has the wrong length");
  p->n = x->dims[0];
  p->c = x->dims[1];
  p->group = s->group;
  if (p->group < 1) return ge_kernel_error(c, GE_ERR_INVALID, "group must be >= 1");
  if (p->c % p->group || w->dims[0] != p->c)
    return ge_kernel_error(c, GE_ERR_SHAPE, "weight [%lld, %lld, ...] does not fit %lld channels in %lld groups",
                           (long long)w->dims[0], (long long)w->dims[1], (long long)p->c, (long long)p->group);
  p->cg = p->c / p->group;
  p->mg = w->dims[1];
  p->m = p->mg * p->group;
  if (b && b->numel != p->m)
    return ge_kernel_error(c, GE_ERR_SHAPE, "bias has %lld elements for %lld output channels", (long long)b->numel,
                           (long long)p->m);
  for (i = 0; i < r; i++) {
    int64_t pa = s->n_pads >= 0 ? s->pads[i] : 0, pe = s->n_pads >= 0 ? s->pads[r + i] : 0, eff, total;
    int64_t op = s->n_opad >= 0 ? s->opad[i] : 0, os = s->n_oshape >= 0 ? s->oshape[s->n_oshape - r + i] : 0;
    in[i] = x->dims[2 + i];
    k[i] = w->dims[2 + i];
    st[i] = s->n_s >= 0 ? s->s[i] : 1;
    dl[i] = s->n_d >= 0 ? s->d[i] : 1;
    if (s->n_ks >= 0 && s->ks[i] != k[i])
      return ge_kernel_error(c, GE_ERR_SHAPE, "kernel_shape %lld differs from the weight's %lld", (long long)s->ks[i],
                             (long long)k[i]);
    if (st[i] < 1 || dl[i] < 1 || st[i] > lim || dl[i] > lim)
      return ge_kernel_error(c, GE_ERR_INVALID, "strides and dilations must be in [1, 2^31]");
    if (pa < 0 || pe < 0 || pa > lim || pe > lim || op < 0 || op > lim || os < 0 || os > lim)
      return ge_kernel_error(c, GE_ERR_INVALID, "pads, output_padding and output_shape must be in [0, 2^31]");
    if (k[i] < 1 || k[i] > lim || in[i] > lim) return ge_kernel_error(c, GE_ERR_SHAPE, "spatial dims out of range");
    eff = (k[i] - 1) * dl[i] + 1;
    if (s->n_oshape >= 0 || s->auto_pad == 1 || s->auto_pad == 2) {
      out[i] = s->n_oshape >= 0 ? os : in[i] * st[i];
      total = st[i] * (in[i] - 1) + op + eff - out[i];
      pb[i] = s->auto_pad == 1 ? ge__aic_floordiv(total, 2) : total - ge__aic_floordiv(total, 2);
    } else {
      pb[i] = s->auto_pad == 0 ? pa : 0;
      out[i] = st[i] * (in[i] - 1) + op + eff - (s->auto_pad == 0 ? pa + pe : 0);
    }
    if (out[i] < 1)
      return ge_kernel_error(c, GE_ERR_SHAPE, "spatial dim %d: output size %lld for input %lld, kernel %lld", (int)i,
                             (long long)out[i], (long long)in[i], (long long)k[i]);
  }
  if (r == 1) {
    p->h = p->kh = p->sh = p->dh = p->oh = 1;
    p->w = in[0], p->kw = k[0], p->sw = st[0], p->dw = dl[0], p->pw = pb[0], p->ow = out[0];
  } else {
    p->h = in[0], p->kh = k[0], p->sh = st[0], p->dh = dl[0], p->ph = pb[0], p->oh = out[0];
    p->w = in[1], p->kw = k[1], p->sw = st[1], p->dw = dl[1], p->pw = pb[1], p->ow = out[1];
  }
  return GE_OK;
}

/* col2im of one image and group: output channels [begin, end) of it. */
typedef struct ge__aic_c2i {
  const ge__aic_cv *p;
  const float *cols, *b; /* b: this group's bias (NULL: none) */
  float *y;              /* this group's first output plane */
  const ge__aic_act *act;
  int level;
} ge__aic_c2i;

static void ge__aic_col2im_fn(void *arg, int64_t begin, int64_t end) {
  const ge__aic_c2i *a = (const ge__aic_c2i *)arg;
  const ge__aic_cv *p = a->p;
  int64_t P = p->h * p->w, OP = p->oh * p->ow, m, ki, kj, ih, iw, o;
  for (m = begin; m < end; m++) {
    float *yp = a->y + m * OP, bv = a->b ? a->b[m] : 0.0f;
    for (o = 0; o < OP; o++) yp[o] = bv;
    for (ki = 0; ki < p->kh; ki++)
      for (kj = 0; kj < p->kw; kj++) {
        const float *col = a->cols + ((m * p->kh + ki) * p->kw + kj) * P;
        int64_t offw = kj * p->dw - p->pw, lo, hi;
        ge__aic_span(offw, p->sw, p->ow, p->w, &lo, &hi); /* iw in [lo, hi) lands inside the row */
        if (lo >= hi) continue;
        for (ih = 0; ih < p->h; ih++) {
          int64_t oh = ih * p->sh - p->ph + ki * p->dh;
          float *yr = yp + oh * p->ow + offw;
          const float *cr = col + ih * p->w;
          if (oh < 0 || oh >= p->oh) continue;
          if (p->sw == 1) ge__aic_axpy(a->level, yr + lo, cr + lo, 1.0f, hi - lo);
          else
            for (iw = lo; iw < hi; iw++) yr[iw * p->sw] += cr[iw];
        }
      }
    if (a->act->kind != GE__AIC_ACT_NONE) ge__aic_epi_row(a->act, a->level, yp, OP, 0.0f, NULL);
  }
}

/* ConvTranspose weights [C, mg, kh, kw], every group's W_g^T packed as A. */
static void ge__aic_wpack_t_fn(const void *arg, float *dst) {
  const ge__aic_wpack *a = (const ge__aic_wpack *)arg;
  int64_t g, rows = a->p->mg * a->p->kh * a->p->kw;
  for (g = 0; g < a->p->group; g++)
    ge__aic_prepack_a(a->k, a->w + g * a->p->cg * rows, 1, rows, rows, a->p->cg, dst + (size_t)g * a->per);
}

static ge_status ge__aic_convtranspose(ge_kernel_ctx *c) {
  const ge_value *x = ge__aic_in(c, 0), *w = ge__aic_in(c, 1), *b = ge__aic_in(c, 2);
  const ge__aic_kern *k = ge__aic_kern_pick(2);
  ge__aic_state *s;
  ge__aic_cv p;
  ge__aic_mm mm;
  ge__aic_wpack wp;
  ge__aic_c2i ci;
  ge__aic_act act;
  ge_value *y;
  int64_t P, rows, n, g, tasks;
  const float *wpack;
  float *work, *cols;
  size_t per, work_floats;
  ge_status st;
  if (!x || !w) return ge_kernel_error(c, GE_ERR_INVALID, "required input %d is missing", x ? 1 : 0);
  if (!ge__aic_f32(x) || !ge__aic_f32(w) || !ge__aic_f32(b) || (x->rank != 3 && x->rank != 4) ||
      c->num_inputs > 3) /* a fused residual (ConvTranspose has three inputs) */
    return ge__aic_reference(c);
  if (!(s = ge__aic_state_get(c))) return ge__aic_nomem(c);
  if (s->act.kind == GE__AIC_ACT_BAD) return ge_kernel_error(c, GE_ERR_INVALID, "unknown _fused_activation");
  if ((st = ge__aic_convt_setup(c, s, x, w, b, &p)) != GE_OK) return st;
  act = s->act;
  if (!(y = ge__aic_conv_output(c, &p, x->rank))) return GE_ERR_NOMEM;
  if (y->numel == 0) return GE_OK;
  P = p.h * p.w;
  rows = p.mg * p.kh * p.kw;
  tasks = ge__aic_threads(c);
  per = ge__aic_prepack_a_floats(k, rows, p.cg);
  work_floats = (size_t)tasks * ge__aic_mm_work_floats();
  wp.k = k, wp.p = &p, wp.w = (const float *)w->data, wp.K = p.cg, wp.per = per;
  if (!(wpack = ge__aic_packed(c, 1, k->level, per * (size_t)p.group, ge__aic_wpack_t_fn, &wp,
                               work_floats + (size_t)(rows * P) + 16, &work)))
    return ge__aic_nomem(c);
  if (ge_kernel_preparing(c)) return GE_OK;
  cols = work + (work_floats + 15) / 16 * 16;
  memset(&mm, 0, sizeof mm);
  mm.k = k;
  mm.M = rows, mm.N = P, mm.K = p.cg, mm.alpha = 1.0f;
  mm.brs = P, mm.bcs = 1;
  mm.C = cols, mm.ldc = P;
  ci.p = &p, ci.cols = cols, ci.act = &act, ci.level = k->level;
  for (n = 0; n < p.n; n++)
    for (g = 0; g < p.group; g++) {
      mm.apack = wpack + (size_t)g * per;
      mm.B = (const float *)x->data + (n * p.c + g * p.cg) * P;
      ge__aic_mm_run(c, &mm, tasks, work);
      ci.b = b ? (const float *)b->data + g * p.mg : NULL;
      ci.y = (float *)y->data + (n * p.m + g * p.mg) * p.oh * p.ow;
      ge_kernel_parallel_for(c, p.mg, 1, ge__aic_col2im_fn, &ci);
    }
  return GE_OK;
}

/* --------------------------------------- small batched MatMul (attention)
 *
 * Attention's products ([h, s, d] x [h, d, s] and back) are a few thousand
 * multiply-adds per matrix: packing A and B for each costs about as much
 * as the product. Here four rows of C, two vectors wide, stay in
 * registers while the rows of B (N contiguous floats, in L1) stream:
 * C(i, :) = sum over k in order of A(i, k) B(k, :). */

/* Per-matrix size (M N K) up to which a batch takes this path. */
#define GE__AIC_SB_MAX_MNK (64 * 64 * 64)

#define GE__AIC_SBMM(S, ATTR, VT, VL)                                                                                  \
  /* Rows a[0..4) of A against nv (1 or 2) vectors of B's columns from j0. */                                          \
  static inline __attribute__((always_inline)) ATTR void ge__aic_sb_tile_##S(                                          \
      const float *const *a, const float *B, float *const *c, int h, int64_t N, int64_t K, int64_t j0, int nv) {       \
    VT c00, c01, c10, c11, c20, c21, c30, c31, b0, b1;                                                                 \
    int64_t k;                                                                                                         \
    int r;                                                                                                             \
    memset(&c00, 0, sizeof c00);                                                                                       \
    c01 = c10 = c11 = c20 = c21 = c30 = c31 = b1 = c00;                                                                \
    for (k = 0; k < K; k++) {                                                                                          \
      const float *b = B + k * N + j0;                                                                                 \
      memcpy(&b0, b, sizeof b0);                                                                                       \
      if (nv > 1) memcpy(&b1, b + (VL), sizeof b1);                                                                    \
      c00 += a[0][k] * b0, c10 += a[1][k] * b0, c20 += a[2][k] * b0, c30 += a[3][k] * b0;                              \
      if (nv > 1) c01 += a[0][k] * b1, c11 += a[1][k] * b1, c21 += a[2][k] * b1, c31 += a[3][k] * b1;                  \
    }                                                                                                                  \
    for (r = 0; r < h; r++) {                                                                                          \
      VT v0 = r == 0 ? c00 : r == 1 ? c10 : r == 2 ? c20 : c30, v1 = r == 0 ? c01 : r == 1 ? c11 : r == 2 ? c21 : c31; \
      memcpy(c[r] + j0, &v0, sizeof v0);                                                                               \
      if (nv > 1) memcpy(c[r] + j0 + (VL), &v1, sizeof v1);                                                            \
    }                                                                                                                  \
  }                                                                                                                    \
  /* Four rows at a time (a short block repeats its first row, not stored),                                            \
   * 8 independent accumulators: the FMA latency is hidden, not paid per k. */                                         \
  static ATTR void ge__aic_sbmm_##S(const float *A, const float *B, float *C, int64_t M, int64_t N, int64_t K) {       \
    const int64_t nvec = N / (VL) * (VL);                                                                              \
    int64_t i0, j0, j, k;                                                                                              \
    for (i0 = 0; i0 < M; i0 += 4) {                                                                                    \
      const int h = (int)ge__aic_min(4, M - i0);                                                                       \
      const float *a[4];                                                                                               \
      float *c[4];                                                                                                     \
      int r;                                                                                                           \
      for (r = 0; r < 4; r++) {                                                                                        \
        a[r] = A + (i0 + (r < h ? r : 0)) * K;                                                                         \
        c[r] = C + (i0 + (r < h ? r : 0)) * N;                                                                         \
      }                                                                                                                \
      for (j0 = 0; j0 + 2 * (VL) <= nvec; j0 += 2 * (VL)) ge__aic_sb_tile_##S(a, B, c, h, N, K, j0, 2);                \
      if (j0 < nvec) ge__aic_sb_tile_##S(a, B, c, h, N, K, j0, 1);                                                     \
      for (j = nvec; j < N; j++) { /* the columns past the last whole vector */                                        \
        float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;                                                              \
        for (k = 0; k < K; k++) {                                                                                      \
          const float bk = B[k * N + j];                                                                               \
          s0 += a[0][k] * bk, s1 += a[1][k] * bk, s2 += a[2][k] * bk, s3 += a[3][k] * bk;                              \
        }                                                                                                              \
        for (r = 0; r < h; r++) c[r][j] = r == 0 ? s0 : r == 1 ? s1 : r == 2 ? s2 : s3;                                \
      }                                                                                                                \
    }                                                                                                                  \
  }
#ifdef GE__AIC_VEC
GE__AIC_SBMM(base, , ge__aic_v4, 4)
#ifdef GE__AIC_X86
GE__AIC_SBMM(avx2, __attribute__((target("avx2,fma"))) GE__AIC_CONTRACT, ge__aic_v8, 8)
GE__AIC_SBMM(avx512, __attribute__((target("avx512f,fma"))) GE__AIC_CONTRACT, ge__aic_v16, 16)
#endif
#else
static void ge__aic_sbmm_base(const float *A, const float *B, float *C, int64_t M, int64_t N, int64_t K) {
  int64_t i, j, k;
  for (i = 0; i < M; i++)
    for (j = 0; j < N; j++) {
      float acc = 0.0f;
      for (k = 0; k < K; k++) acc += A[i * K + k] * B[k * N + j];
      C[i * N + j] = acc;
    }
}
#endif

/* C = A B for row-major A (M x K), B (K x N), C (M x N) at vector level. */
static void ge__aic_sbmm(int level, const float *A, const float *B, float *C, int64_t M, int64_t N, int64_t K) {
#ifdef GE__AIC_X86
  if (level >= 2) ge__aic_sbmm_avx512(A, B, C, M, N, K);
  else if (level == 1) ge__aic_sbmm_avx2(A, B, C, M, N, K);
  else
#endif
    ge__aic_sbmm_base(A, B, C, M, N, K);
}

/* A batch of small products: matrix q of C from A and B at offsets found
 * from q through the broadcast batch dims (strides 0 where broadcast). */
typedef struct ge__aic_sb {
  int level;
  int32_t br;
  int64_t M, N, K;
  const int64_t *bd, *ast, *bst;
  const float *A, *B;
  float *C;
} ge__aic_sb;

static void ge__aic_sb_fn(void *arg, int64_t begin, int64_t end) {
  const ge__aic_sb *sb = (const ge__aic_sb *)arg;
  int64_t q;
  for (q = begin; q < end; q++) {
    int64_t rem = q, aoff = 0, boff = 0;
    int32_t i;
    for (i = sb->br - 1; i >= 0; i--) {
      aoff += rem % sb->bd[i] * sb->ast[i];
      boff += rem % sb->bd[i] * sb->bst[i];
      rem /= sb->bd[i];
    }
    ge__aic_sbmm(sb->level, sb->A + aoff, sb->B + boff, sb->C + q * sb->M * sb->N, sb->M, sb->N, sb->K);
  }
}

/* Runs nb small products; a share of the threads takes at least ~2^18
 * multiply-adds (waking a thread for less costs more than it saves). */
static void ge__aic_small_batched(ge_kernel_ctx *c, const ge__aic_sb *sb, int64_t nb) {
  int64_t grain = 1 + ((int64_t)1 << 18) / (sb->M * sb->N * sb->K + 1);
  ge_kernel_parallel_for(c, nb, grain, ge__aic_sb_fn, (void *)sb);
}

/* -------------------------------------------------------------- MatMul */

/* A constant B (K x N, strides brs/bcs) packed for kernel k. */
typedef struct ge__aic_bpack {
  const ge__aic_kern *k;
  const float *B;
  int64_t brs, bcs, K, N;
} ge__aic_bpack;

static void ge__aic_bpack_fn(const void *arg, float *dst) {
  const ge__aic_bpack *a = (const ge__aic_bpack *)arg;
  ge__aic_prepack_b(a->k, a->B, a->brs, a->bcs, a->K, a->N, dst);
}

/* Y = alpha op(A) op(B) + beta Y (rows x N) on the kernel's threads: B
 * packed once when it is a Const (input 1), else the plain GEMM (OpenBLAS
 * with GE_USE_OPENBLAS). */
/* Y = alpha A B + beta Y, then the epilogue epi (NULL: none; its level is
 * set here) on each block of Y while it is in cache. */
static ge_status ge__aic_product_epi(ge_kernel_ctx *c, int64_t rows, int64_t N, int64_t K, float alpha,
                                     const float *A, int64_t ars, int64_t acs, const float *B, int64_t brs,
                                     int64_t bcs, float beta, float *Y, ge__aic_epi *epi) {
  const ge__aic_kern *k = ge__aic_kern_pick(2);
  int64_t tasks = ge__aic_threads(c);
  ge__aic_mm mm;
  ge__aic_bpack bp;
  float *work;
  memset(&mm, 0, sizeof mm);
  mm.k = k;
  mm.M = rows, mm.N = N, mm.K = K, mm.alpha = alpha, mm.beta = beta;
  mm.A = A, mm.ars = ars, mm.acs = acs;
  mm.B = B, mm.brs = brs, mm.bcs = bcs;
  mm.C = Y, mm.ldc = N;
  if (epi) epi->level = k->level, mm.epi = epi;
  /* a Const B is packed once; but a B of a few columns is packed 8 wide per
   * run (a copy of K x N floats) for the columns kernel, since panels of nr
   * would be mostly zeros */
  if (K > 0 && (N > GE__AIC_SKINNY_COLS || rows <= GE__AIC_SKINNY_ROWS) && ge__aic_input_const(c, 1)) {
    bp.k = k, bp.B = B, bp.brs = brs, bp.bcs = bcs, bp.K = K, bp.N = N;
    if (!(mm.bpack = ge__aic_packed(c, 1, k->level, ge__aic_prepack_b_floats(k, N, K), ge__aic_bpack_fn, &bp,
                                    (size_t)tasks * ge__aic_mm_work_floats(), &work)))
      return ge__aic_nomem(c);
    if (!ge_kernel_preparing(c)) ge__aic_mm_run(c, &mm, tasks, work);
    return GE_OK;
  }
#ifdef GE_USE_OPENBLAS
  if (!(work = ge__aic_scratch(c, ge__aic_mm_work_floats()))) return ge__aic_nomem(c); /* for the own fallback */
  if (!ge_kernel_preparing(c)) {
    ge__aic_gemm(rows, N, K, alpha, A, ars, acs, B, brs, bcs, beta, Y, N, work);
    if (!ge__aic_epi_empty(epi)) ge__aic_epilogue(epi, Y, N, 0, 0, rows, N);
  }
#else
  if (!(work = ge__aic_scratch(c, (size_t)tasks * ge__aic_mm_work_floats()))) return ge__aic_nomem(c);
  if (!ge_kernel_preparing(c)) ge__aic_mm_run(c, &mm, tasks, work);
#endif
  return GE_OK;
}

static ge_status ge__aic_product(ge_kernel_ctx *c, int64_t rows, int64_t N, int64_t K, float alpha, const float *A,
                                 int64_t ars, int64_t acs, const float *B, int64_t brs, int64_t bcs, float beta,
                                 float *Y) {
  return ge__aic_product_epi(c, rows, N, K, alpha, A, ars, acs, B, brs, bcs, beta, Y, NULL);
}

/* A fused bias (_fused_inputs = 1: input 2, N floats along the last dim,
 * AI Core's MatMul + Add fusion) into *bias; NULL when none. */
static ge_status ge__aic_matmul_bias(ge_kernel_ctx *c, const ge__aic_state *s, int64_t N, const float **bias) {
  const ge_value *b = ge__aic_in(c, 2);
  *bias = NULL;
  if (!s->fused_res) return GE_OK;
  if (!b || !ge__aic_f32(b) || b->numel != N)
    return ge_kernel_error(c, GE_ERR_INVALID, "_fused_inputs = 1 needs input 2: a float32 bias of %lld values",
                           (long long)N);
  *bias = (const float *)b->data;
  return GE_OK;
}

/* The bias and activation after a MatMul path without a fused epilogue. */
static ge_status ge__aic_matmul_finish(ge_kernel_ctx *c, ge_value *y, int64_t N, const float *bias) {
  const ge__aic_state *s = (const ge__aic_state *)c->state;
  ge__aic_epi epi;
  if (!bias) return ge__aic_finish(c, s, y);
  if (ge_kernel_preparing(c)) return GE_OK;
  memset(&epi, 0, sizeof epi);
  epi.act = s->act, epi.res = bias, epi.level = ge__aic_kern_pick(2)->level; /* ldr 0: the bias on every row */
  ge__aic_epilogue(&epi, (float *)y->data, N, 0, 0, y->numel / N, N);
  return GE_OK;
}

static ge_status ge__aic_matmul(ge_kernel_ctx *c) {
  const ge_value *A = ge__aic_in(c, 0), *B = ge__aic_in(c, 1);
  ge__aic_state *s;
  ge_value *y;
  int64_t M, K, K2, N, dims[GE_MAX_RANK], bd[GE_MAX_RANK], ast[GE_MAX_RANK], bst[GE_MAX_RANK], idx[GE_MAX_RANK];
  int64_t nb = 1, as = 1, bs = 1, q, aoff, boff;
  int32_t abr, bbr, br, rank = 0, i;
  const float *bias;
  ge_status st;
  if (!A || !B) return ge_kernel_error(c, GE_ERR_INVALID, "required input %d is missing", A ? 1 : 0);
  if (!ge__aic_f32(A) || !ge__aic_f32(B)) return ge__aic_reference(c);
  if (A->rank < 1 || B->rank < 1) return ge_kernel_error(c, GE_ERR_SHAPE, "MatMul operands must have rank >= 1");
  if (!(s = ge__aic_state_get(c))) return ge__aic_nomem(c);
  M = A->rank == 1 ? 1 : A->dims[A->rank - 2];
  K = A->dims[A->rank - 1];
  K2 = B->rank == 1 ? B->dims[0] : B->dims[B->rank - 2];
  N = B->rank == 1 ? 1 : B->dims[B->rank - 1];
  if (K != K2)
    return ge_kernel_error(c, GE_ERR_SHAPE, "inner dimensions differ: %lld vs %lld", (long long)K, (long long)K2);
  abr = A->rank > 2 ? A->rank - 2 : 0;
  bbr = B->rank > 2 ? B->rank - 2 : 0;
  br = abr > bbr ? abr : bbr;
  for (i = br - 1; i >= 0; i--) { /* broadcast batch dims, strides in whole matrices */
    int32_t ia = i - (br - abr), ib = i - (br - bbr);
    int64_t da = ia >= 0 ? A->dims[ia] : 1, db = ib >= 0 ? B->dims[ib] : 1;
    if (da != db && da != 1 && db != 1)
      return ge_kernel_error(c, GE_ERR_SHAPE, "batch dimensions %lld and %lld do not broadcast", (long long)da,
                             (long long)db);
    bd[i] = da == 1 ? db : da;
    ast[i] = da == 1 ? 0 : as * M * K;
    bst[i] = db == 1 ? 0 : bs * K * N;
    as *= da;
    bs *= db;
  }
  for (i = 0; i < br; i++) {
    dims[rank++] = bd[i];
    nb *= bd[i];
  }
  if (A->rank > 1) dims[rank++] = M;
  if (B->rank > 1) dims[rank++] = N;
  if ((st = ge__aic_matmul_bias(c, s, N, &bias)) != GE_OK) return st;
  if (s->act.kind == GE__AIC_ACT_BAD) return ge_kernel_error(c, GE_ERR_INVALID, "unknown _fused_activation");
  if (!(y = ge_kernel_output(c, 0, GE_DTYPE_FLOAT32, rank, dims))) return GE_ERR_NOMEM;
  if (y->numel == 0) return GE_OK;
  if (bbr == 0 && A->rank >= 2) { /* B shared by every batch: one GEMM over all rows of A, epilogue fused */
    int64_t rows = K ? A->numel / K : nb * M;
    ge__aic_epi epi;
    memset(&epi, 0, sizeof epi);
    epi.act = s->act, epi.res = bias; /* the bias as a residual of row stride 0 */
    return ge__aic_product_epi(c, rows, N, K, 1.0f, (const float *)A->data, K, 1, (const float *)B->data,
                               B->rank == 1 ? 1 : N, 1, 0.0f, (float *)y->data, &epi);
  }
  if (A->rank >= 2 && B->rank >= 2 && M * N * K <= GE__AIC_SB_MAX_MNK) { /* attention-sized batches */
    ge__aic_sb sb;
    sb.level = ge__aic_kern_pick(2)->level, sb.br = br, sb.M = M, sb.N = N, sb.K = K;
    sb.bd = bd, sb.ast = ast, sb.bst = bst;
    sb.A = (const float *)A->data, sb.B = (const float *)B->data, sb.C = (float *)y->data;
    if (!ge_kernel_preparing(c)) ge__aic_small_batched(c, &sb, nb);
    return ge__aic_matmul_finish(c, y, N, bias);
  }
  for (i = 0; i < br; i++) idx[i] = 0;
  aoff = boff = 0;
  for (q = 0; q < nb; q++) {
    ge_kernel_ctx plain = *c; /* per-batch B is not one constant: no packing once */
    plain.graph = NULL;
    st = ge__aic_product(&plain, M, N, K, 1.0f, (const float *)A->data + aoff, K, 1, (const float *)B->data + boff,
                         B->rank == 1 ? 1 : N, 1, 0.0f, (float *)y->data + q * M * N);
    c->state = plain.state;
    if (st != GE_OK) return st;
    for (i = br - 1; i >= 0; i--) { /* next batch index */
      aoff += ast[i];
      boff += bst[i];
      if (++idx[i] < bd[i]) break;
      aoff -= ast[i] * bd[i];
      boff -= bst[i] * bd[i];
      idx[i] = 0;
    }
  }
  return ge__aic_matmul_finish(c, y, N, bias);
}

/* -------------------------------------------------------------- Einsum */

/* A two-operand float32 Einsum that is a batched matrix product: each
 * label is a batch label (in both operands and the output), a row (first
 * operand and output), a column (second operand and output) or summed
 * (both operands, not the output). Batch, row and column labels keep the
 * output's order, summed ones the first operand's. An operand already
 * laid out as [batch, rows, sums] or [batch, sums, rows] (the second:
 * [batch, sums, cols] or [batch, cols, sums]) is read in place with the
 * product's strides, others are copied into order first; the result is
 * written in place when the output is [batch, rows, cols] and copied into
 * the output's order otherwise. Anything else (a diagonal, a label summed
 * in one operand only, broadcast ellipsis dims) runs the reference. */
enum { GE__AIC_EIN_BATCH, GE__AIC_EIN_ROW, GE__AIC_EIN_COL, GE__AIC_EIN_SUM, GE__AIC_EIN_GROUPS };

typedef struct ge__aic_ein {
  int32_t order[GE__AIC_EIN_GROUPS][GE_MAX_RANK]; /* labels of each group, in order */
  int32_t count[GE__AIC_EIN_GROUPS];
  int64_t extent[GE__AIC_EIN_GROUPS]; /* product of each group's sizes */
} ge__aic_ein;

/* Sorts the labels into groups; 0 when the equation is no batched product. */
static int ge__aic_ein_groups(const ge_einsum_labels *lb, const ge_value *A, const ge_value *B, ge__aic_ein *e) {
  const ge_value *ops[2];
  int where[GE_EINSUM_LABELS]; /* bit 0: first operand, 1: second, 2: output */
  int32_t t, j, g, l;
  memset(where, 0, sizeof where);
  memset(e, 0, sizeof *e);
  ops[0] = A, ops[1] = B;
  for (t = 0; t < 2; t++)
    for (j = 0; j < ops[t]->rank; j++) {
      l = lb->dim_label[t][j];
      if (where[l] & (1 << t) || ops[t]->dims[j] != lb->size[l]) return 0; /* diagonal, or broadcast */
      where[l] |= 1 << t;
    }
  for (j = 0; j < lb->orank; j++) where[lb->out_label[j]] |= 4;
  for (g = 0; g < GE__AIC_EIN_GROUPS; g++) e->extent[g] = 1;
  for (j = 0; j < lb->orank; j++) {
    l = lb->out_label[j];
    g = where[l] == 7 ? GE__AIC_EIN_BATCH : where[l] == 5 ? GE__AIC_EIN_ROW : GE__AIC_EIN_COL;
    e->order[g][e->count[g]++] = l;
    e->extent[g] *= lb->size[l];
  }
  for (j = 0; j < ops[0]->rank; j++) {
    l = lb->dim_label[0][j];
    if (where[l] == 3) {
      e->order[GE__AIC_EIN_SUM][e->count[GE__AIC_EIN_SUM]++] = l;
      e->extent[GE__AIC_EIN_SUM] *= lb->size[l];
    } else if (where[l] == 1)
      return 0; /* summed in the first operand alone */
  }
  for (j = 0; j < ops[1]->rank; j++)
    if (where[lb->dim_label[1][j]] == 2) return 0; /* summed in the second alone */
  return 1;
}

/* perm[k] = the dim of `labels` (n of them) holding the label of group
 * list `want` (concatenated groups g0, g1, g2); 1 when perm is the identity. */
static int ge__aic_ein_perm(const int *labels, int32_t n, const ge__aic_ein *e, const int *groups, int32_t *perm) {
  int32_t k = 0, i, j, q, identity = 1;
  for (q = 0; q < 3; q++)
    for (i = 0; i < e->count[groups[q]]; i++, k++) {
      for (j = 0; j < n && labels[j] != e->order[groups[q]][i]; j++) {
      }
      perm[k] = j;
      identity &= j == k;
    }
  return identity;
}

/* dst = src (dims sdims) with its dims permuted: dst dim k is src dim perm[k]. */
static void ge__aic_permute(const float *src, int32_t rank, const int64_t *sdims, const int32_t *perm, float *dst) {
  int64_t sstride[GE_MAX_RANK], dd[GE_MAX_RANK], st[GE_MAX_RANK], idx[GE_MAX_RANK], s = 1, off = 0, i, inner;
  int32_t k;
  for (k = rank - 1; k >= 0; k--) sstride[k] = s, s *= sdims[k];
  for (k = 0; k < rank; k++) dd[k] = sdims[perm[k]], st[k] = sstride[perm[k]], idx[k] = 0;
  if (!rank) {
    dst[0] = src[0];
    return;
  }
  inner = dd[rank - 1];
  for (;;) {
    for (i = 0; i < inner; i++) *dst++ = src[off + i * st[rank - 1]];
    for (k = rank - 2; k >= 0; k--) {
      off += st[k];
      if (++idx[k] < dd[k]) break;
      off -= st[k] * dd[k];
      idx[k] = 0;
    }
    if (k < 0) return;
  }
}

static int ge__aic_same_dims(int32_t rank, const int64_t *dims, const ge_value *v) {
  return v->rank == rank && !memcmp(v->dims, dims, (size_t)rank * sizeof *dims);
}

/* Makes p for operands A, B: which group each label is in and how each
 * operand and the output are laid out (p->fast 0: no batched product). */
static ge_status ge__aic_ein_plan_make(ge_kernel_ctx *c, const ge_value *A, const ge_value *B, ge__aic_ein_plan *p) {
  static const int a_order[3] = {GE__AIC_EIN_BATCH, GE__AIC_EIN_ROW, GE__AIC_EIN_SUM},
                   a_trans[3] = {GE__AIC_EIN_BATCH, GE__AIC_EIN_SUM, GE__AIC_EIN_ROW},
                   b_order[3] = {GE__AIC_EIN_BATCH, GE__AIC_EIN_SUM, GE__AIC_EIN_COL},
                   b_trans[3] = {GE__AIC_EIN_BATCH, GE__AIC_EIN_COL, GE__AIC_EIN_SUM},
                   y_order[3] = {GE__AIC_EIN_BATCH, GE__AIC_EIN_ROW, GE__AIC_EIN_COL};
  ge_einsum_labels lb;
  ge__aic_ein e;
  int32_t unused[GE_MAX_RANK], j;
  ge_status st;
  memset(p, 0, sizeof *p);
  if ((st = ge_einsum_labels_of(c, &lb)) != GE_OK) return st;
  p->made = 1, p->ra = A->rank, p->rb = B->rank, p->orank = lb.orank;
  memcpy(p->adims, A->dims, (size_t)A->rank * sizeof *A->dims);
  memcpy(p->bdims, B->dims, (size_t)B->rank * sizeof *B->dims);
  if (!(p->fast = ge__aic_ein_groups(&lb, A, B, &e))) return GE_OK;
  p->nb = e.extent[GE__AIC_EIN_BATCH], p->M = e.extent[GE__AIC_EIN_ROW], p->N = e.extent[GE__AIC_EIN_COL];
  p->K = e.extent[GE__AIC_EIN_SUM];
  p->small = p->nb > 1 && p->M * p->N * p->K <= GE__AIC_SB_MAX_MNK; /* attention-sized: batched small products */
  p->a_in_place = ge__aic_ein_perm(lb.dim_label[0], A->rank, &e, a_order, p->pa);
  if (!p->a_in_place && !p->small && (p->a_t = ge__aic_ein_perm(lb.dim_label[0], A->rank, &e, a_trans, unused)) != 0)
    p->a_in_place = 1;
  p->b_in_place = ge__aic_ein_perm(lb.dim_label[1], B->rank, &e, b_order, p->pb);
  if (!p->b_in_place && !p->small && (p->b_t = ge__aic_ein_perm(lb.dim_label[1], B->rank, &e, b_trans, unused)) != 0)
    p->b_in_place = 1;
  p->y_in_place = ge__aic_ein_perm(lb.out_label, lb.orank, &e, y_order, p->py); /* py: output dim of canonical k */
  for (j = 0; j < lb.orank; j++) p->odims[j] = lb.size[lb.out_label[j]];
  return GE_OK;
}

/* The batched products of p over operands a, b into y, all in canonical order. */
static ge_status ge__aic_ein_products(ge_kernel_ctx *c, const ge__aic_ein_plan *p, const float *a, const float *b,
                                      float *y) {
  int64_t q, M = p->M, N = p->N, K = p->K, nb = p->nb;
  ge_status st;
  if (p->small) {
    int64_t ast = M * K, bst = K * N;
    ge__aic_sb sb;
    sb.level = ge__aic_kern_pick(2)->level, sb.br = 1, sb.M = M, sb.N = N, sb.K = K;
    sb.bd = &nb, sb.ast = &ast, sb.bst = &bst, sb.A = a, sb.B = b, sb.C = y;
    ge__aic_small_batched(c, &sb, nb);
    return GE_OK;
  }
  for (q = 0; q < nb; q++) {
    ge_kernel_ctx plain = *c; /* per-batch operands are not one constant: no packing once */
    plain.graph = NULL;
    st = ge__aic_product(&plain, M, N, K, 1.0f, a + q * M * K, p->a_t ? 1 : K, p->a_t ? M : 1, b + q * K * N,
                         p->b_t ? 1 : N, p->b_t ? K : 1, 0.0f, y + q * M * N);
    c->state = plain.state;
    if (st != GE_OK) return st;
  }
  return GE_OK;
}

static ge_status ge__aic_einsum(ge_kernel_ctx *c) {
  const ge_value *A = ge__aic_in(c, 0), *B = ge__aic_in(c, 1);
  ge__aic_state *s;
  ge__aic_ein_plan *p, pl;
  int32_t inv[GE_MAX_RANK], j;
  int64_t cdims[GE_MAX_RANK], work, a_floats, b_floats, y_floats;
  const float *a, *b;
  float *scratch, *y;
  ge_value *out;
  ge_status st;
  if (c->num_inputs != 2 || !A || !B || !ge__aic_f32(A) || !ge__aic_f32(B)) return ge__aic_reference(c);
  if (!(s = ge__aic_state_get(c))) return ge__aic_nomem(c);
  p = &s->ein;
  if (!p->made || !ge__aic_same_dims(p->ra, p->adims, A) || !ge__aic_same_dims(p->rb, p->bdims, B))
    if ((st = ge__aic_ein_plan_make(c, A, B, p)) != GE_OK) return st;
  if (!p->fast) return ge__aic_reference(c);
  pl = *p, p = &pl; /* a copy: growing the scratch may move the state */
  if (!(out = ge_kernel_output(c, 0, GE_DTYPE_FLOAT32, p->orank, p->odims))) return GE_ERR_NOMEM;
  if (out->numel == 0) return GE_OK;
  if (p->K == 0) { /* empty sums */
    if (!ge_kernel_preparing(c)) memset(out->data, 0, (size_t)out->numel * sizeof(float));
    return GE_OK;
  }
  if (p->nb == 1 && p->b_in_place && !p->b_t && p->a_in_place && p->y_in_place) /* a Const B may be packed once */
    return ge__aic_product(c, p->M, p->N, p->K, 1.0f, (const float *)A->data, p->a_t ? 1 : p->K, p->a_t ? p->M : 1,
                           (const float *)B->data, p->N, 1, 0.0f, (float *)out->data);
  /* scratch: the products' packing work, then the copies (reserved first:
   * the products' own scratch calls then neither move nor reach them) */
  work = ge__aic_threads(c) * (int64_t)ge__aic_mm_work_floats();
  a_floats = p->a_in_place ? 0 : A->numel, b_floats = p->b_in_place ? 0 : B->numel;
  y_floats = p->y_in_place ? 0 : out->numel;
  if (!(scratch = ge__aic_scratch(c, (size_t)(work + a_floats + b_floats + y_floats)))) return ge__aic_nomem(c);
  if (ge_kernel_preparing(c)) return GE_OK;
  a = (const float *)A->data, b = (const float *)B->data;
  if (!p->a_in_place) ge__aic_permute(a, A->rank, A->dims, p->pa, scratch + work), a = scratch + work;
  if (!p->b_in_place) ge__aic_permute(b, B->rank, B->dims, p->pb, scratch + work + a_floats), b = scratch + work + a_floats;
  y = p->y_in_place ? (float *)out->data : scratch + work + a_floats + b_floats;
  if ((st = ge__aic_ein_products(c, p, a, b, y)) != GE_OK) return st;
  if (!p->y_in_place) { /* canonical [batch, rows, cols] -> the output's order */
    for (j = 0; j < p->orank; j++) cdims[j] = p->odims[p->py[j]], inv[p->py[j]] = j;
    ge__aic_permute(y, p->orank, cdims, inv, (float *)out->data);
  }
  return GE_OK;
}

/* ---------------------------------------------------------------- Gemm */

static ge_status ge__aic_gemm_kernel(ge_kernel_ctx *c) {
  const ge_value *A = ge__aic_in(c, 0), *B = ge__aic_in(c, 1), *C = ge__aic_in(c, 2);
  ge__aic_state *s;
  ge_value *y;
  int64_t M, N, K, K2, dims[2], cs0 = 0, cs1 = 0, i, j;
  float *yd, beta = 0.0f;
  ge_status st;
  if (!A || !B) return ge_kernel_error(c, GE_ERR_INVALID, "required input %d is missing", A ? 1 : 0);
  if (!ge__aic_f32(A) || !ge__aic_f32(B) || !ge__aic_f32(C)) return ge__aic_reference(c);
  if (A->rank != 2 || B->rank != 2) return ge_kernel_error(c, GE_ERR_SHAPE, "A and B must be 2-D");
  if (!(s = ge__aic_state_get(c))) return ge__aic_nomem(c);
  M = A->dims[s->trans_a ? 1 : 0];
  K = A->dims[s->trans_a ? 0 : 1];
  K2 = B->dims[s->trans_b ? 1 : 0];
  N = B->dims[s->trans_b ? 0 : 1];
  if (K != K2)
    return ge_kernel_error(c, GE_ERR_SHAPE, "inner dimensions differ: %lld vs %lld", (long long)K, (long long)K2);
  if (C) {
    int64_t cm = C->rank == 2 ? C->dims[0] : 1, cn = C->rank >= 1 ? C->dims[C->rank - 1] : 1;
    if (C->rank > 2 || (cm != M && cm != 1) || (cn != N && cn != 1))
      return ge_kernel_error(c, GE_ERR_SHAPE, "C does not broadcast to [%lld, %lld]", (long long)M, (long long)N);
    cs0 = cm == 1 ? 0 : cn;
    cs1 = cn == 1 ? 0 : 1;
  }
  dims[0] = M;
  dims[1] = N;
  if (!(y = ge_kernel_output(c, 0, GE_DTYPE_FLOAT32, 2, dims))) return GE_ERR_NOMEM;
  if (y->numel == 0) return GE_OK;
  yd = (float *)y->data;
  if (s->act.kind == GE__AIC_ACT_BAD) return ge_kernel_error(c, GE_ERR_INVALID, "unknown _fused_activation");
  if (C && s->beta == 1.0f && cs1 == 1) { /* C a bias row or a matrix: added in the epilogue, with the activation */
    ge__aic_epi epi;
    memset(&epi, 0, sizeof epi);
    epi.act = s->act, epi.res = (const float *)C->data, epi.ldr = cs0;
    return ge__aic_product_epi(c, M, N, K, s->alpha, (const float *)A->data, s->trans_a ? 1 : K, s->trans_a ? M : 1,
                               (const float *)B->data, s->trans_b ? 1 : N, s->trans_b ? K : 1, 0.0f, yd, &epi);
  }
  if (C && s->beta != 0.0f && !ge_kernel_preparing(c)) {
    const float *cd = (const float *)C->data;
    for (i = 0; i < M; i++)
      for (j = 0; j < N; j++) yd[i * N + j] = s->beta * cd[i * cs0 + j * cs1];
    beta = 1.0f;
  }
  if ((st = ge__aic_product(c, M, N, K, s->alpha, (const float *)A->data, s->trans_a ? 1 : K, s->trans_a ? M : 1,
                            (const float *)B->data, s->trans_b ? 1 : N, s->trans_b ? K : 1, beta, yd)) != GE_OK)
    return st;
  return ge__aic_finish(c, (ge__aic_state *)c->state, y);
}

/* LSTM, GRU and RNN with this engine's SGEMM for the input projection. */
static ge_status ge__aic_rnn(ge_kernel_ctx *c) {
  static const ge_rnn_gemm gemm = {ge_ai_core_sgemm, ge_ai_core_sgemm_work_size};
  return ge_rnn_run(c, &gemm);
}

/* -------------------------------------------------------------- engine */

static int ge__aic_check(const ge_engine *e, const ge_graph *g, const ge_node *n, char *why, size_t cap) {
  (void)e;
  return ge_ai_core_supports(g, n, why, cap);
}

static ge_kernel_fn ge__aic_kernel(const ge_engine *e, const ge_node *n) {
  (void)e;
  if (!ge_node_in_onnx_domain(n)) return NULL;
  if (!strcmp(n->op, "Conv")) return ge__aic_conv;
  if (!strcmp(n->op, "ConvTranspose")) return ge__aic_convtranspose;
  if (!strcmp(n->op, "MatMul")) return ge__aic_matmul;
  if (!strcmp(n->op, "Gemm")) return ge__aic_gemm_kernel;
  if (!strcmp(n->op, "Einsum")) return ge__aic_einsum;
  if (ge_rnn_op(n)) return ge__aic_rnn;
  if (ge_op_in_sorted(n->op, ge__aic_ops, GE__AIC_NUM_OPS) && ge_vector_fast_kernel(n)) return ge_vector_fast_kernel(n);
  if (ge_op_in_sorted(n->op, ge__aic_ops, GE__AIC_NUM_OPS)) return ge_host_cpu_kernel(n);
  return ge_vector_engine()->kernel(ge_vector_engine(), n);
}

/* The kernels with state to build at load (their prepare call returns
 * once attributes are parsed, weights packed and scratch reserved); the
 * vector engine's for the ops it lends. */
static ge_kernel_fn ge__aic_prepare(const ge_engine *e, const ge_node *n) {
  ge_kernel_fn fn = ge__aic_kernel(e, n);
  const ge_engine *v = ge_vector_engine();
  if (fn == ge__aic_conv || fn == ge__aic_convtranspose || fn == ge__aic_matmul || fn == ge__aic_gemm_kernel ||
      fn == ge__aic_einsum || fn == ge__aic_rnn)
    return fn;
  return fn && v->prepare && fn == v->kernel(v, n) ? v->prepare(v, n) : NULL;
}

/* Packing scratch of one thread for a Conv that is not depthwise, MatMul
 * or Gemm (im2col is packed straight from the image: no column buffer). */
static size_t ge__aic_workspace(const ge_engine *e, const ge_graph *g, const ge_node *n) {
  const ge_tensor_desc *w;
  (void)e;
  if (!strcmp(n->op, "MatMul") || !strcmp(n->op, "Gemm") || !strcmp(n->op, "Einsum"))
    return ge__aic_mm_work_floats() * sizeof(float);
  if (strcmp(n->op, "Conv") != 0 || !(w = ge_node_input_desc(g, n, 1)) || w->shape.rank < 2 ||
      (w->shape.dims[1] == 1 && (ge_node_attr_int(n, "group", 1) > 1 || w->shape.dims[0] == 1)))
    return 0;
  return ge__aic_mm_work_floats() * sizeof(float);
}

/* ------------------------------------------------------------ fusion */

static int ge__aic_is(const ge_node *n, const char *op) { return ge_node_in_onnx_domain(n) && !strcmp(n->op, op); }

/* The float32 tensor of the Const feeding input i of n (NULL otherwise). */
static const ge_tensor *ge__aic_const_in(const ge_graph *g, const ge_node *n, uint32_t i) {
  const ge_tensor *t = ge_node_const_input(g, n, i);
  return t && t->dtype == GE_DTYPE_FLOAT32 ? t : NULL;
}

static int ge__aic_desc_f32(const ge_tensor_desc *d) { return d && d->dtype == GE_DTYPE_FLOAT32; }

static int ge__aic_same_desc(const ge_tensor_desc *a, const ge_tensor_desc *b) {
  int32_t i;
  if (a->dtype != b->dtype || a->shape.rank != b->shape.rank) return 0;
  for (i = 0; i < a->shape.rank; i++)
    if (a->shape.dims[i] != b->shape.dims[i]) return 0;
  return 1;
}

/* a and b are the same shape at run time: equal known dims, and unknown
 * dims only where both name the same symbol. */
static int ge__aic_same_at_run(const ge_tensor_desc *a, const ge_tensor_desc *b) {
  int32_t i;
  if (a->dtype != b->dtype || a->shape.rank != b->shape.rank || a->shape.rank < 0) return 0;
  for (i = 0; i < a->shape.rank; i++) {
    const char *sa = a->shape.info ? a->shape.info[i].symbol : NULL, *sb = b->shape.info ? b->shape.info[i].symbol : NULL;
    if (a->shape.dims[i] != b->shape.dims[i]) return 0;
    if (a->shape.dims[i] < 0 && (!sa || !sb || strcmp(sa, sb))) return 0;
  }
  return 1;
}

/* Every present input and every output of n is float32. */
static int ge__aic_all_f32(const ge_graph *g, const ge_node *n) {
  uint32_t i;
  for (i = 0; i < n->num_inputs; i++) {
    const ge_tensor_desc *d = ge_node_input_desc(g, n, i);
    if (n->inputs[i].node != GE_NONE && !ge__aic_desc_f32(d)) return 0;
  }
  for (i = 0; i < n->num_outputs; i++)
    if (!ge__aic_desc_f32(&n->outputs[i])) return 0;
  return 1;
}

/* The single consumer of n's output 0 (GE_NONE unless exactly one use). */
static ge_node_id ge__aic_only_use(const ge_node *n) {
  if (n->num_outputs != 1 || n->num_uses != 1 || n->uses[0].input != 0) return GE_NONE;
  return n->uses[0].node;
}

/* A fresh node name: base + suffix, then base + suffix + "_<k>". */
static void ge__aic_name(ge_graph *g, const char *base, const char *suffix, char *buf, size_t cap) {
  unsigned k;
  snprintf(buf, cap, "%s%s", base, suffix);
  for (k = 1; ge_graph_find(g, buf) != GE_NONE; k++) snprintf(buf, cap, "%s%s_%u", base, suffix, k);
}

/* Adds a Const of dtype float32 and shape dims[0..rank) holding data. */
static ge_status ge__aic_add_const(ge_graph *g, const char *base, const char *suffix, int32_t rank,
                                   const int64_t *dims, float *data, int64_t numel, ge_node_id *out, ge_error *err) {
  ge_tensor t;
  char name[256];
  ge_status st;
  memset(&t, 0, sizeof t);
  t.dtype = GE_DTYPE_FLOAT32;
  t.rank = rank;
  t.dims = (int64_t *)dims;
  t.data = data;
  t.nbytes = (size_t)numel * sizeof(float);
  ge__aic_name(g, base, suffix, name, sizeof name);
  if ((st = ge_graph_add_const(g, name, &t, out, err)) != GE_OK) return st;
  ge_graph_node(g, *out)->engine = -1;
  return GE_OK;
}

/* Removes node id if it is a Const nobody reads any more. */
static void ge__aic_drop_orphan(ge_graph *g, ge_node_id id) {
  ge_node *n = id == GE_NONE ? NULL : ge_graph_node(g, id);
  if (n && !strcmp(n->op, "Const") && n->num_uses == 0 && !n->num_control_inputs && !n->num_control_outputs)
    ge_graph_remove_node(g, id, NULL);
}

/* Points every reader of `gone`'s output 0 at `keep`'s output 0, removes
 * `gone` and the Consts only it read. */
static ge_status ge__aic_bypass(ge_graph *g, ge_node_id gone, ge_node_id keep, ge_error *err) {
  ge_node *n = ge_graph_node(g, gone);
  ge_node_id ins[8];
  uint32_t i, k = 0;
  ge_edge from, to;
  ge_status st;
  for (i = 0; i < n->num_inputs && k < 8; i++)
    if (n->inputs[i].node != GE_NONE && n->inputs[i].node != keep) ins[k++] = n->inputs[i].node;
  from.node = gone;
  from.index = 0;
  to.node = keep;
  to.index = 0;
  if ((st = ge_graph_replace_uses(g, from, to, err)) != GE_OK) return st;
  if ((st = ge_graph_remove_node(g, gone, err)) != GE_OK) return st;
  for (i = 0; i < k; i++) ge__aic_drop_orphan(g, ins[i]);
  return GE_OK;
}

static ge_status ge__aic_fold_nomem(const ge_node *n, ge_error *err) {
  return ge_error_set(err, GE_ERR_NOMEM, "out of memory folding BatchNormalization into '%s'", n->name);
}

/* BN scale s and shift t per channel (length ch), from its Const inputs. */
static int ge__aic_bn_params(const ge_graph *g, const ge_node *bn, int64_t ch, double *s, double *t) {
  const ge_tensor *sc = ge__aic_const_in(g, bn, 1), *bi = ge__aic_const_in(g, bn, 2);
  const ge_tensor *mean = ge__aic_const_in(g, bn, 3), *var = ge__aic_const_in(g, bn, 4);
  double eps = ge_node_attr_float(bn, "epsilon", 1e-5);
  int64_t i;
  if (!sc || !bi || !mean || !var) return 0;
  if (ge_tensor_numel(sc) != ch || ge_tensor_numel(bi) != ch || ge_tensor_numel(mean) != ch ||
      ge_tensor_numel(var) != ch)
    return 0;
  for (i = 0; i < ch; i++) {
    double v = (double)((const float *)var->data)[i] + eps;
    if (!(v > 0)) return 0;
    s[i] = (double)((const float *)sc->data)[i] / sqrt(v);
    t[i] = (double)((const float *)bi->data)[i] - (double)((const float *)mean->data)[i] * s[i];
  }
  return 1;
}

/* The inference BatchNormalization n's output flows into alone, when it
 * can fold (GE_NONE otherwise). */
static ge_node_id ge__aic_bn_after(const ge_graph *g, const ge_node *n, int32_t self) {
  ge_node_id id = ge__aic_only_use(n);
  const ge_node *bn = id == GE_NONE ? NULL : ge_graph_node(g, id);
  if (!bn || !ge__aic_is(bn, "BatchNormalization") || bn->engine != self || bn->num_outputs != 1 ||
      bn->num_inputs != 5 || ge_node_attr_int(bn, "training_mode", 0) != 0 || bn->num_control_inputs ||
      bn->num_control_outputs || !ge__aic_all_f32(g, bn) || !ge__aic_same_desc(&n->outputs[0], &bn->outputs[0]))
    return GE_NONE;
  return id;
}

/* Conv -> BN: W'[m] = W[m] s[m], b'[m] = b[m] s[m] + t[m]. */
static ge_status ge__aic_fold_conv(ge_graph *g, ge_node_id id, int32_t self, int *done, ge_error *err) {
  ge_node *n = ge_graph_node(g, id);
  const ge_tensor *w = ge__aic_const_in(g, n, 1), *b = n->num_inputs > 2 ? ge__aic_const_in(g, n, 2) : NULL;
  ge_node_id bn_id = ge__aic_bn_after(g, n, self), wid, bid, old_w, old_b;
  int64_t m, per, i, numel;
  double *s = NULL, *t = NULL;
  float *nw = NULL, *nbias = NULL;
  ge_status st = GE_OK;
  ge_edge e;
  *done = 0;
  if (bn_id == GE_NONE || !w || w->rank < 3 || (n->num_inputs > 2 && n->inputs[2].node != GE_NONE && !b) ||
      !ge__aic_all_f32(g, n))
    return GE_OK;
  m = w->dims[0];
  numel = ge_tensor_numel(w);
  if (m <= 0 || numel <= 0 || (b && ge_tensor_numel(b) != m) ||
      (n->outputs[0].shape.rank >= 2 && n->outputs[0].shape.dims[1] >= 0 && n->outputs[0].shape.dims[1] != m))
    return GE_OK;
  per = numel / m;
  s = (double *)malloc((size_t)m * 2 * sizeof(double));
  nw = (float *)malloc((size_t)numel * sizeof(float));
  nbias = (float *)malloc((size_t)m * sizeof(float));
  if (!s || !nw || !nbias) {
    st = ge__aic_fold_nomem(n, err);
    goto done;
  }
  t = s + m;
  if (!ge__aic_bn_params(g, ge_graph_node(g, bn_id), m, s, t)) goto done;
  for (i = 0; i < numel; i++) nw[i] = (float)((double)((const float *)w->data)[i] * s[i / per]);
  for (i = 0; i < m; i++) nbias[i] = (float)((b ? (double)((const float *)b->data)[i] : 0.0) * s[i] + t[i]);
  if ((st = ge__aic_add_const(g, n->name, "_bn_weight", w->rank, w->dims, nw, numel, &wid, err)) != GE_OK) goto done;
  if ((st = ge__aic_add_const(g, n->name, "_bn_bias", 1, &m, nbias, m, &bid, err)) != GE_OK) goto done;
  n = ge_graph_node(g, id);
  old_w = n->inputs[1].node;
  old_b = n->num_inputs > 2 ? n->inputs[2].node : GE_NONE;
  e.node = wid;
  e.index = 0;
  if ((st = ge_graph_set_input(g, id, 1, e, err)) != GE_OK) goto done;
  e.node = bid;
  st = n->num_inputs > 2 ? ge_graph_set_input(g, id, 2, e, err) : ge_graph_add_input(g, id, e, err);
  if (st != GE_OK) goto done;
  if ((st = ge__aic_bypass(g, bn_id, id, err)) != GE_OK) goto done;
  ge__aic_drop_orphan(g, old_w);
  ge__aic_drop_orphan(g, old_b);
  *done = 1;
done:
  free(s);
  free(nw);
  free(nbias);
  return st;
}

/* Gemm -> BN over its columns: Y = alpha op(A) op(B) + beta C; folded,
 * op(B)'s column j scales by s[j] and C' = beta C s + t (beta becomes 1). */
static ge_status ge__aic_fold_gemm(ge_graph *g, ge_node_id id, int32_t self, int *done, ge_error *err) {
  ge_node *n = ge_graph_node(g, id);
  const ge_tensor *B = ge__aic_const_in(g, n, 1), *C = n->num_inputs > 2 ? ge__aic_const_in(g, n, 2) : NULL;
  ge_node_id bn_id = ge__aic_bn_after(g, n, self), bid, cid, old_b, old_c;
  int tb = ge_node_attr_int(n, "transB", 0) != 0;
  double beta = ge_node_attr_float(n, "beta", 1.0);
  const ge_tensor_desc *y = &n->outputs[0];
  int64_t N, K, cm = 1, cn = 1, rows, i, j, cdims[2];
  double *s = NULL, *t = NULL;
  float *nbm = NULL, *nc = NULL;
  ge_status st = GE_OK;
  ge_edge e;
  *done = 0;
  if (bn_id == GE_NONE || !B || B->rank != 2 || (n->num_inputs > 2 && n->inputs[2].node != GE_NONE && !C) ||
      !ge__aic_all_f32(g, n) || y->shape.rank != 2)
    return GE_OK;
  N = B->dims[tb ? 0 : 1];
  K = B->dims[tb ? 1 : 0];
  if (N <= 0 || y->shape.dims[1] != N) return GE_OK;
  if (C) {
    if (C->rank > 2) return GE_OK;
    cm = C->rank == 2 ? C->dims[0] : 1;
    cn = C->rank >= 1 ? C->dims[C->rank - 1] : 1;
    if ((cn != 1 && cn != N) || (cm != 1 && cm != y->shape.dims[0])) return GE_OK;
  }
  rows = cm;
  s = (double *)malloc((size_t)N * 2 * sizeof(double));
  nbm = (float *)malloc((size_t)(N * K > 0 ? N * K : 1) * sizeof(float));
  nc = (float *)malloc((size_t)(rows * N) * sizeof(float));
  if (!s || !nbm || !nc) {
    st = ge__aic_fold_nomem(n, err);
    goto done;
  }
  t = s + N;
  if (!ge__aic_bn_params(g, ge_graph_node(g, bn_id), N, s, t)) goto done;
  for (i = 0; i < N * K; i++) { /* element i of B is column j of op(B) */
    j = tb ? i / K : i % N;
    nbm[i] = (float)((double)((const float *)B->data)[i] * s[j]);
  }
  for (i = 0; i < rows; i++)
    for (j = 0; j < N; j++) {
      double cv = C ? beta * (double)((const float *)C->data)[(cm == 1 ? 0 : i * cn) + (cn == 1 ? 0 : j)] : 0.0;
      nc[i * N + j] = (float)(cv * s[j] + t[j]);
    }
  if ((st = ge__aic_add_const(g, n->name, "_bn_weight", 2, B->dims, nbm, N * K, &bid, err)) != GE_OK) goto done;
  cdims[0] = rows;
  cdims[1] = N;
  if ((st = ge__aic_add_const(g, n->name, "_bn_bias", rows == 1 ? 1 : 2, rows == 1 ? cdims + 1 : cdims, nc,
                              rows * N, &cid, err)) != GE_OK)
    goto done;
  n = ge_graph_node(g, id);
  old_b = n->inputs[1].node;
  old_c = n->num_inputs > 2 ? n->inputs[2].node : GE_NONE;
  e.node = bid;
  e.index = 0;
  if ((st = ge_graph_set_input(g, id, 1, e, err)) != GE_OK) goto done;
  e.node = cid;
  st = n->num_inputs > 2 ? ge_graph_set_input(g, id, 2, e, err) : ge_graph_add_input(g, id, e, err);
  if (st != GE_OK) goto done;
  if ((st = ge_node_set_attr_float(g, id, "beta", 1.0, err)) != GE_OK) goto done;
  if ((st = ge__aic_bypass(g, bn_id, id, err)) != GE_OK) goto done;
  ge__aic_drop_orphan(g, old_b);
  ge__aic_drop_orphan(g, old_c);
  *done = 1;
done:
  free(s);
  free(nbm);
  free(nc);
  return st;
}

/* The activation kinds that fuse, with their alpha/beta (0 if n is none,
 * or a Clip whose bounds are not Const scalars). */
static int ge__aic_fusable_act(const ge_graph *g, const ge_node *n, double *alpha, double *beta) {
  const char *op = n->op;
  *alpha = *beta = 0.0;
  if (!ge_node_in_onnx_domain(n)) return 0;
  if (!strcmp(op, "Relu") || !strcmp(op, "Sigmoid") || !strcmp(op, "Tanh") || !strcmp(op, "HardSwish")) return 1;
  if (!strcmp(op, "Gelu")) {
    const char *form = ge_node_attr_string(n, "approximate", "none");
    return !strcmp(form, "none") || !strcmp(form, "tanh");
  }
  if (!strcmp(op, "LeakyRelu")) {
    *alpha = ge_node_attr_float(n, "alpha", 0.01);
    return 1;
  }
  if (!strcmp(op, "HardSigmoid")) {
    *alpha = ge_node_attr_float(n, "alpha", 0.2);
    *beta = ge_node_attr_float(n, "beta", 0.5);
    return 1;
  }
  if (!strcmp(op, "Clip")) {
    uint32_t i;
    *alpha = ge_node_attr_float(n, "min", -HUGE_VAL); /* opset < 11: attributes */
    *beta = ge_node_attr_float(n, "max", HUGE_VAL);
    for (i = 1; i < 3 && i < n->num_inputs; i++) {
      const ge_tensor *v;
      if (n->inputs[i].node == GE_NONE) continue;
      v = ge__aic_const_in(g, n, i);
      if (!v || ge_tensor_numel(v) != 1) return 0;
      if (i == 1) *alpha = ((const float *)v->data)[0];
      else *beta = ((const float *)v->data)[0];
    }
    return 1;
  }
  return 0;
}

/* An inference BatchNormalization (one output) then a Relu, where the BN
 * runs the vector kernel (it applies a fused Relu per channel plane while
 * the plane is in cache: DenseNet's pre-activation BN + ReLU). */
static int ge__aic_bn_relu(const ge_node *bn, const ge_node *act) {
  return ge__aic_is(bn, "BatchNormalization") && !strcmp(act->op, "Relu") && bn->num_outputs == 1 &&
         ge_node_attr_int(bn, "training_mode", 0) == 0 && ge_vector_fast_kernel(bn) != NULL;
}

/* The _fused_activation naming a fusable activation node. */
static const char *ge__aic_fused_name(const ge_node *a) {
  if (ge__aic_is(a, "Gelu") && !strcmp(ge_node_attr_string(a, "approximate", "none"), "tanh")) return "GeluTanh";
  return a->op;
}

static ge_status ge__aic_fuse_act(ge_graph *g, ge_node_id id, int32_t self, int *done, ge_error *err) {
  ge_node *a = ge_graph_node(g, id), *p;
  double alpha, beta;
  ge_node_id pid;
  ge_status st;
  *done = 0;
  if (a->engine != self || a->num_inputs < 1 || a->num_outputs != 1 || a->num_control_inputs ||
      a->num_control_outputs || !ge__aic_fusable_act(g, a, &alpha, &beta) || !ge__aic_all_f32(g, a))
    return GE_OK;
  pid = a->inputs[0].node;
  p = pid == GE_NONE ? NULL : ge_graph_node(g, pid);
  if (!p || p->engine != self || a->inputs[0].index != 0 || ge__aic_only_use(p) != id ||
      !(ge__aic_is(p, "Conv") || ge__aic_is(p, "Gemm") || ge__aic_is(p, "MatMul") || ge__aic_bn_relu(p, a)) ||
      ge_node_attr(p, "_fused_activation") || !ge__aic_all_f32(g, p) || !ge__aic_same_desc(&p->outputs[0], &a->outputs[0]))
    return GE_OK;
  if ((st = ge_node_set_attr_string(g, pid, "_fused_activation", ge__aic_fused_name(a), err)) != GE_OK) return st;
  if (ge__aic_is(a, "LeakyRelu") || ge__aic_is(a, "Clip") || ge__aic_is(a, "HardSigmoid")) {
    if ((st = ge_node_set_attr_float(g, pid, "_fused_alpha", alpha, err)) != GE_OK) return st;
    if (strcmp(a->op, "LeakyRelu") && (st = ge_node_set_attr_float(g, pid, "_fused_beta", beta, err)) != GE_OK)
      return st;
  }
  if ((st = ge__aic_bypass(g, id, pid, err)) != GE_OK) return st;
  *done = 1;
  return GE_OK;
}

/* Whether a is a float32 binary op `op` of this engine, one output, no
 * control edges: what a fusion may remove. */
static int ge__aic_binary_to_fuse(const ge_graph *g, const ge_node *a, const char *op, int32_t self) {
  return ge__aic_is(a, op) && a->engine == self && a->num_inputs == 2 && a->num_outputs == 1 &&
         !a->num_control_inputs && !a->num_control_outputs && ge__aic_all_f32(g, a);
}

/* SiLU written out: Mul(p, Sigmoid(p)) (either order) where p is a Conv,
 * Gemm or MatMul of this engine read only by the two, the Sigmoid only by
 * the Mul: p gets _fused_activation Silu; the Sigmoid and the Mul go. */
static ge_status ge__aic_fuse_silu(ge_graph *g, ge_node_id id, int32_t self, int *done, ge_error *err) {
  ge_node *a = ge_graph_node(g, id);
  uint32_t k;
  ge_status st;
  *done = 0;
  if (!ge__aic_binary_to_fuse(g, a, "Mul", self)) return GE_OK;
  for (k = 0; k < 2; k++) {
    ge_edge se = a->inputs[k], pe = a->inputs[1 - k];
    ge_node *sg = se.node == GE_NONE ? NULL : ge_graph_node(g, se.node);
    ge_node *p = pe.node == GE_NONE ? NULL : ge_graph_node(g, pe.node);
    if (!sg || !p || !ge__aic_is(sg, "Sigmoid") || sg->engine != self || sg->num_inputs != 1 ||
        sg->inputs[0].node != pe.node || sg->inputs[0].index != 0 || pe.index != 0 || sg->num_outputs != 1 || sg->num_uses != 1 ||
        sg->uses[0].node != id ||
        sg->num_control_inputs || sg->num_control_outputs || !ge__aic_all_f32(g, sg))
      continue;
    if (p->engine != self || p->num_outputs != 1 || p->num_uses != 2 ||
        !(ge__aic_is(p, "Conv") || ge__aic_is(p, "Gemm") || ge__aic_is(p, "MatMul")) ||
        ge_node_attr(p, "_fused_activation") || !ge__aic_all_f32(g, p) ||
        !ge__aic_same_desc(&p->outputs[0], &a->outputs[0]))
      continue;
    if ((st = ge_node_set_attr_string(g, pe.node, "_fused_activation", "Silu", err)) != GE_OK) return st;
    if ((st = ge__aic_bypass(g, id, pe.node, err)) != GE_OK) return st;
    if ((st = ge_graph_remove_node(g, se.node, err)) != GE_OK) return st;
    *done = 1;
    return GE_OK;
  }
  return GE_OK;
}

/* Conv (1-D, 2-D or 3-D) -> Add(other) with other shaped like the sum and the Add the Conv's
 * only consumer: other becomes the Conv's input 3 (input 2, the bias, left
 * absent if there was none) with _fused_inputs = 1, added in the GEMM
 * epilogue before the activation; the Add goes. */
static ge_status ge__aic_fuse_residual(ge_graph *g, ge_node_id id, int32_t self, int *done, ge_error *err) {
  ge_node *a = ge_graph_node(g, id);
  uint32_t k;
  ge_status st;
  *done = 0;
  if (!ge__aic_binary_to_fuse(g, a, "Add", self) || a->outputs[0].shape.rank < 3 || a->outputs[0].shape.rank > 5)
    return GE_OK;
  for (k = 0; k < 2; k++) {
    ge_edge ce = a->inputs[k], other = a->inputs[1 - k];
    ge_node *p = ce.node == GE_NONE ? NULL : ge_graph_node(g, ce.node);
    const ge_tensor_desc *od = ge_node_input_desc(g, a, 1 - k);
    ge_edge none;
    if (!p || !ge__aic_is(p, "Conv") || p->engine != self || ce.index != 0 || p->num_outputs != 1 ||
        p->num_uses != 1 || p->uses[0].node != id ||
        p->num_inputs < 2 || p->num_inputs > 3 || p->num_control_outputs || ge_node_attr(p, "_fused_activation") ||
        ge_node_attr(p, GE_ATTR_FUSED_INPUTS) || !ge__aic_all_f32(g, p) || !od || other.node == GE_NONE ||
        !ge__aic_same_at_run(od, &a->outputs[0]) || !ge__aic_same_at_run(&p->outputs[0], &a->outputs[0]))
      continue;
    none.node = GE_NONE;
    none.index = 0;
    if (p->num_inputs == 2 && (st = ge_graph_add_input(g, ce.node, none, err)) != GE_OK) return st;
    if ((st = ge_graph_add_input(g, ce.node, other, err)) != GE_OK) return st;
    if ((st = ge_node_set_attr_int(g, ce.node, GE_ATTR_FUSED_INPUTS, 1, err)) != GE_OK) return st;
    if ((st = ge__aic_bypass(g, id, ce.node, err)) != GE_OK) return st;
    *done = 1;
    return GE_OK;
  }
  return GE_OK;
}

/* Whether Conv n reads every input pixel once, as it is: a 1x1 kernel
 * (Const weights of x's rank), strides 1, no pads. */
static int ge__aic_conv_1x1(const ge_graph *g, const ge_node *n, int32_t rank) {
  const ge_tensor *w = ge__aic_const_in(g, n, 1);
  const int64_t *v = NULL;
  int32_t i, cnt;
  if (!w || w->rank != rank) return 0;
  for (i = 2; i < rank; i++)
    if (w->dims[i] != 1) return 0;
  cnt = ge_node_attr(n, "strides") ? ge_node_attr_ints(n, "strides", &v) : 0;
  for (i = 0; i < cnt; i++)
    if (v[i] != 1) return 0;
  cnt = ge_node_attr(n, "pads") ? ge_node_attr_ints(n, "pads", &v) : 0;
  for (i = 0; i < cnt; i++)
    if (v[i] != 0) return 0;
  return 1;
}

/* BatchNormalization (inference, Const parameters; its fused activation
 * Relu or none) -> a 1x1 Conv (strides 1, no pads) that alone reads it:
 * the BN becomes the Conv's input prologue, _pre_affine (float32 [2, C]:
 * scale, then shift) and _pre_activation (Relu or absent), which the
 * pointwise kernel applies to each chunk of the input as it reads it (any
 * other path to a copy of the input first); the BN goes. DenseNet's
 * pre-activation BN + ReLU before every 1x1 conv: its output never goes to
 * memory (at 2 threads its planes, half written by the other vCPU, cost
 * more than the convs that read them again). */
static ge_status ge__aic_fuse_pre(ge_graph *g, ge_node_id id, int32_t self, int *done, ge_error *err) {
  ge_node *n = ge_graph_node(g, id), *bn;
  const ge_tensor_desc *xd;
  const char *act;
  ge_node_id bid, old[4];
  ge_tensor t;
  int64_t C, i, dims[2];
  double *st_ = NULL;
  float *aff = NULL;
  ge_status st = GE_OK;
  *done = 0;
  if (!ge__aic_is(n, "Conv") || n->engine != self || n->num_inputs < 2 || n->inputs[0].index != 0 ||
      ge_node_attr(n, "_pre_affine") || !ge__aic_all_f32(g, n))
    return GE_OK;
  bid = n->inputs[0].node;
  bn = bid == GE_NONE ? NULL : ge_graph_node(g, bid);
  if (!bn || !ge__aic_is(bn, "BatchNormalization") || bn->engine != self || ge__aic_only_use(bn) != id ||
      bn->num_inputs != 5 || ge_node_attr_int(bn, "training_mode", 0) != 0 || bn->num_control_inputs ||
      bn->num_control_outputs || !ge__aic_all_f32(g, bn))
    return GE_OK;
  act = ge_node_attr_string(bn, "_fused_activation", "");
  xd = ge_node_input_desc(g, bn, 0);
  if ((*act && strcmp(act, "Relu")) || !xd || xd->shape.rank < 3 || xd->shape.rank > 4 || xd->shape.dims[1] <= 0 ||
      !ge__aic_conv_1x1(g, n, xd->shape.rank))
    return GE_OK;
  C = xd->shape.dims[1];
  st_ = (double *)malloc((size_t)C * 2 * sizeof(double));
  aff = (float *)malloc((size_t)C * 2 * sizeof(float));
  if (!st_ || !aff) {
    st = ge__aic_fold_nomem(n, err);
    goto done;
  }
  if (!ge__aic_bn_params(g, bn, C, st_, st_ + C)) goto done;
  for (i = 0; i < 2 * C; i++) aff[i] = (float)st_[i];
  memset(&t, 0, sizeof t);
  dims[0] = 2, dims[1] = C;
  t.dtype = GE_DTYPE_FLOAT32, t.rank = 2, t.dims = dims, t.data = aff, t.nbytes = (size_t)(2 * C) * sizeof(float);
  if ((st = ge_node_set_attr_tensor(g, id, "_pre_affine", &t, err)) != GE_OK) goto done;
  if (*act && (st = ge_node_set_attr_string(g, id, "_pre_activation", "Relu", err)) != GE_OK) goto done;
  bn = ge_graph_node(g, bid);
  for (i = 0; i < 4; i++) old[i] = bn->inputs[i + 1].node;
  if ((st = ge_graph_set_input(g, id, 0, bn->inputs[0], err)) != GE_OK) goto done;
  if ((st = ge_graph_remove_node(g, bid, err)) != GE_OK) goto done;
  for (i = 0; i < 4; i++) ge__aic_drop_orphan(g, old[i]);
  *done = 1;
done:
  free(st_);
  free(aff);
  return st;
}

/* AveragePool -> a 1x1 Conv (group 1, no residual, no prologue; Relu or
 * no activation) that alone reads it, where the pool keeps the map's size
 * and the Conv has fewer output than input channels (Inception's pool
 * branches: 288 -> 64, 768 -> 192 channels): both are linear, one over
 * pixels and one over channels, so they commute, and the pool runs over
 * the fewer channels. The Conv reads the pool's input, without bias and
 * activation; the pool reads the Conv and ends with them (the bias as its
 * input 1 with _fused_inputs = 1, after the average: a padded border
 * counted in would scale it) and takes the Conv's readers and output
 * name. */
static ge_status ge__aic_conv_before_pool(ge_graph *g, ge_node_id id, int32_t self, int *done, ge_error *err) {
  ge_node *q = ge_graph_node(g, id), *cv;
  const ge_tensor_desc *xd;
  const ge_tensor *w, *b;
  const char *act;
  const char *qname, *cname; /* in the graph's arena: they outlive the renaming */
  ge_node_id cid;
  ge_edge x, bias, from, to;
  ge_tensor_desc yd;
  ge_status st;
  int32_t i;
  *done = 0;
  if (!ge__aic_is(q, "AveragePool") || q->engine != self || q->num_inputs != 1 || q->num_control_inputs ||
      q->num_control_outputs || ge_node_attr(q, "_fused_inputs") || ge_node_attr(q, "_fused_activation") ||
      (cid = ge__aic_only_use(q)) == GE_NONE || !ge__aic_all_f32(g, q))
    return GE_OK;
  cv = ge_graph_node(g, cid);
  xd = ge_node_input_desc(g, q, 0);
  w = ge__aic_const_in(g, cv, 1);
  b = cv->num_inputs > 2 && cv->inputs[2].node != GE_NONE ? ge__aic_const_in(g, cv, 2) : NULL;
  act = ge_node_attr_string(cv, "_fused_activation", "");
  if (!ge__aic_is(cv, "Conv") || cv->engine != self || cv->inputs[0].index != 0 || cv->num_inputs > 3 ||
      (cv->num_inputs > 2 && cv->inputs[2].node != GE_NONE && !b) || cv->num_control_inputs || cv->num_control_outputs ||
      ge_node_attr_int(cv, "group", 1) != 1 || ge_node_attr(cv, "_fused_inputs") || ge_node_attr(cv, "_pre_affine") ||
      (*act && strcmp(act, "Relu")) || !ge__aic_all_f32(g, cv) || !xd || xd->shape.rank != 4 || !w ||
      !ge__aic_conv_1x1(g, cv, 4) || w->dims[0] >= w->dims[1] || (b && ge_tensor_numel(b) != w->dims[0]) ||
      !ge__aic_same_desc(xd, &q->outputs[0]))
    return GE_OK;
  for (i = 0; i < 4; i++)
    if (xd->shape.dims[i] <= 0) return GE_OK;
  x = q->inputs[0];
  bias = b ? cv->inputs[2] : x;
  yd = cv->outputs[0];
  qname = q->outputs[0].name, cname = cv->outputs[0].name;
  from.node = cid, from.index = 0, to.node = id, to.index = 0;
  if ((st = ge_graph_replace_uses(g, from, to, err)) != GE_OK || (st = ge_graph_set_input(g, cid, 0, x, err)) != GE_OK ||
      (st = ge_graph_set_input(g, id, 0, from, err)) != GE_OK)
    return st;
  if (b) {
    ge_edge none;
    none.node = GE_NONE, none.index = 0;
    if ((st = ge_graph_set_input(g, cid, 2, none, err)) != GE_OK || (st = ge_graph_add_input(g, id, bias, err)) != GE_OK ||
        (st = ge_node_set_attr_int(g, id, "_fused_inputs", 1, err)) != GE_OK)
      return st;
  }
  if (*act && ((st = ge_node_set_attr_string(g, id, "_fused_activation", "Relu", err)) != GE_OK ||
               (st = ge_node_remove_attr(g, cid, "_fused_activation", err)) != GE_OK))
    return st;
  if ((st = ge_node_set_output(g, id, 0, yd.dtype, yd.shape.rank, yd.shape.dims, yd.shape.info, err)) != GE_OK ||
      (st = ge_node_set_output_name(g, id, 0, cname, err)) != GE_OK ||
      (st = ge_node_set_output_name(g, cid, 0, qname, err)) != GE_OK)
    return st;
  *done = 1;
  return GE_OK;
}

/* A 1x1 Conv (group 1, no residual, no activation; its prologue, if any,
 * with it) read only by an AveragePool that at least halves the pixels
 * (DenseNet's transitions: BN, ReLU, 1x1 Conv, 2x2 stride-2 average):
 * they commute, so the pool runs first and the Conv multiplies over a
 * quarter of the pixels. The pool reads the Conv's input and takes its
 * prologue; the Conv reads the pool and takes its readers and output
 * name. A bias stays on the Conv unless pads counted in would scale it
 * (then no move). */
static ge_status ge__aic_pool_before_conv(ge_graph *g, ge_node_id id, int32_t self, int *done, ge_error *err) {
  ge_node *cv = ge_graph_node(g, id), *q;
  const ge_tensor_desc *xd;
  const ge_attr *pre;
  const char *qname, *cname, *pre_act, *ap;
  const int64_t *pads = NULL;
  ge_node_id qid;
  ge_edge x, from, to;
  ge_tensor_desc zd, yd;
  int64_t qdims[4], cdims[4]; /* the new outputs: the pool's [N, C, oh, ow], the Conv's [N, M, oh, ow] */
  int32_t i, n_pads;
  int padded = 0;
  ge_status st;
  *done = 0;
  if (!ge__aic_is(cv, "Conv") || cv->engine != self || cv->num_inputs < 2 || cv->num_inputs > 3 ||
      cv->num_control_inputs || cv->num_control_outputs || ge_node_attr_int(cv, "group", 1) != 1 ||
      ge_node_attr(cv, "_fused_inputs") || ge_node_attr(cv, "_fused_activation") || !ge__aic_all_f32(g, cv) ||
      !ge__aic_conv_1x1(g, cv, 4) || (qid = ge__aic_only_use(cv)) == GE_NONE)
    return GE_OK;
  q = ge_graph_node(g, qid);
  xd = ge_node_input_desc(g, cv, 0);
  if (!ge__aic_is(q, "AveragePool") || q->engine != self || q->num_inputs != 1 || q->num_control_inputs ||
      q->num_control_outputs || ge_node_attr(q, "_fused_inputs") || ge_node_attr(q, "_fused_activation") ||
      ge_node_attr(q, "_pre_affine") || !ge__aic_all_f32(g, q) || !xd || xd->shape.rank != 4 ||
      q->outputs[0].shape.rank != 4)
    return GE_OK;
  for (i = 0; i < 4; i++)
    if (xd->shape.dims[i] <= 0 || q->outputs[0].shape.dims[i] <= 0) return GE_OK;
  if (2 * q->outputs[0].shape.dims[2] * q->outputs[0].shape.dims[3] > xd->shape.dims[2] * xd->shape.dims[3]) return GE_OK;
  n_pads = ge_node_attr(q, "pads") ? ge_node_attr_ints(q, "pads", &pads) : 0;
  for (i = 0; i < n_pads; i++) padded |= pads[i] != 0;
  ap = ge_node_attr_string(q, "auto_pad", "NOTSET");
  padded |= strcmp(ap, "NOTSET") && strcmp(ap, "VALID");
  if (cv->num_inputs > 2 && cv->inputs[2].node != GE_NONE && padded && ge_node_attr_int(q, "count_include_pad", 0))
    return GE_OK;
  x = cv->inputs[0];
  yd = q->outputs[0], zd = cv->outputs[0];
  qname = yd.name, cname = zd.name;
  for (i = 0; i < 4; i++) qdims[i] = cdims[i] = yd.shape.dims[i];
  qdims[1] = xd->shape.dims[1];
  from.node = qid, from.index = 0, to.node = id, to.index = 0;
  if ((st = ge_graph_replace_uses(g, from, to, err)) != GE_OK || (st = ge_graph_set_input(g, qid, 0, x, err)) != GE_OK ||
      (st = ge_graph_set_input(g, id, 0, from, err)) != GE_OK)
    return st;
  cv = ge_graph_node(g, id);
  if ((pre = ge_node_attr(cv, "_pre_affine")) != NULL) {
    pre_act = ge_node_attr_string(cv, "_pre_activation", "");
    if ((st = ge_node_copy_attr(g, qid, pre, err)) != GE_OK ||
        (*pre_act && (st = ge_node_set_attr_string(g, qid, "_pre_activation", pre_act, err)) != GE_OK) ||
        (st = ge_node_remove_attr(g, id, "_pre_affine", err)) != GE_OK ||
        (*pre_act && (st = ge_node_remove_attr(g, id, "_pre_activation", err)) != GE_OK))
      return st;
  }
  if ((st = ge_node_set_output(g, qid, 0, yd.dtype, 4, qdims, NULL, err)) != GE_OK ||
      (st = ge_node_set_output(g, id, 0, zd.dtype, 4, cdims, NULL, err)) != GE_OK)
    return st;
  if ((st = ge_node_set_output_name(g, id, 0, qname, err)) != GE_OK || (st = ge_node_set_output_name(g, qid, 0, cname, err)) != GE_OK)
    return st;
  *done = 1;
  return GE_OK;
}

/* The values of a Const bias along the last dim of an output of n dims
 * (shape [N] or [1, .., 1, N], numel N); NULL otherwise. */
static const ge_tensor *ge__aic_last_dim_bias(const ge_graph *g, const ge_node *a, uint32_t i, int64_t N, int32_t rank) {
  const ge_tensor *t = ge__aic_const_in(g, a, i);
  int32_t d;
  if (!t || t->rank < 1 || t->rank > rank || t->dims[t->rank - 1] != N) return NULL;
  for (d = 0; d < t->rank - 1; d++)
    if (t->dims[d] != 1) return NULL;
  return t;
}

/* MatMul(A, Const B [K, N]) -> Add(Const bias along the last dim), the
 * Add its only consumer (a Linear layer as exporters write it): the bias
 * becomes the MatMul's input 2 with _fused_inputs = 1, added in the GEMM
 * epilogue; the Add goes. */
static ge_status ge__aic_fuse_matmul_bias(ge_graph *g, ge_node_id id, int32_t self, int *done, ge_error *err) {
  ge_node *a = ge_graph_node(g, id);
  uint32_t k;
  ge_status st;
  *done = 0;
  if (!ge__aic_binary_to_fuse(g, a, "Add", self) || a->outputs[0].shape.rank < 2) return GE_OK;
  for (k = 0; k < 2; k++) {
    ge_edge me = a->inputs[k], be = a->inputs[1 - k];
    ge_node *p = me.node == GE_NONE ? NULL : ge_graph_node(g, me.node);
    const ge_tensor *w = p ? ge__aic_const_in(g, p, 1) : NULL;
    if (!p || !ge__aic_is(p, "MatMul") || p->engine != self || me.index != 0 || p->num_inputs != 2 ||
        p->num_outputs != 1 || p->num_uses != 1 || p->uses[0].node != id || p->num_control_outputs || !w || w->rank != 2 ||
        ge_node_attr(p, "_fused_activation") || ge_node_attr(p, GE_ATTR_FUSED_INPUTS) || !ge__aic_all_f32(g, p) ||
        p->outputs[0].shape.rank < 2 || !ge__aic_same_at_run(&p->outputs[0], &a->outputs[0]) ||
        !ge__aic_last_dim_bias(g, a, 1 - k, w->dims[1], a->outputs[0].shape.rank))
      continue;
    if ((st = ge_graph_add_input(g, me.node, be, err)) != GE_OK) return st;
    if ((st = ge_node_set_attr_int(g, me.node, GE_ATTR_FUSED_INPUTS, 1, err)) != GE_OK) return st;
    if ((st = ge__aic_bypass(g, id, me.node, err)) != GE_OK) return st;
    *done = 1;
    return GE_OK;
  }
  return GE_OK;
}

/* The spatial pads a Pad node adds (begin[0..sp), end[0..sp) for the dims
 * after N and C), when it pads with zeros (mode constant, value 0 or
 * absent, no axes input), N and C not at all, every pad >= 0, rank 3..5:
 * sp, else 0. Pads from the Const input 1 (opset 11+) or the pads
 * attribute (older). */
static int32_t ge__aic_zero_pads(const ge_graph *g, const ge_node *p, int64_t *begin, int64_t *end) {
  const char *mode = ge_node_attr_string(p, "mode", "constant");
  const int64_t *v = NULL;
  const ge_tensor *pt = NULL, *cv;
  int32_t n, r, i;
  if (strcmp(mode, "constant") || p->num_inputs > 3 || p->num_inputs < 1) return 0;
  if (ge_node_attr(p, "pads")) {
    n = ge_node_attr_ints(p, "pads", &v);
    if (ge_node_attr_float(p, "value", 0.0) != 0.0) return 0;
  } else {
    if (p->num_inputs < 2 || !(pt = ge_node_const_input(g, p, 1)) || pt->dtype != GE_DTYPE_INT64 || pt->rank != 1)
      return 0;
    n = (int32_t)pt->dims[0];
    v = (const int64_t *)pt->data;
    if (p->num_inputs > 2 && p->inputs[2].node != GE_NONE) { /* the pad value: a float32 zero */
      if (!(cv = ge__aic_const_in(g, p, 2)) || ge_tensor_numel(cv) != 1 || ((const float *)cv->data)[0] != 0.0f)
        return 0;
    }
  }
  r = n / 2;
  if (!v || n % 2 || r < 3 || r > 5) return 0;
  if (v[0] || v[1] || v[r] || v[r + 1]) return 0;
  for (i = 0; i < r - 2; i++) {
    begin[i] = v[2 + i], end[i] = v[r + 2 + i];
    if (begin[i] < 0 || end[i] < 0 || begin[i] > ((int64_t)1 << 31) || end[i] > ((int64_t)1 << 31)) return 0;
  }
  return r - 2;
}

/* Pad (zeros, spatial dims only) -> AveragePool or Conv, the Pad's only
 * consumer: its pads move into the consumer's (Inception's avg_pool with
 * padding exports as Pad + AveragePool with count_include_pad: the padded
 * zeros count, as they do when the pool pads with count_include_pad = 1;
 * a Conv's pads are zeros). Not with auto_pad, nor for an AveragePool with
 * ceil_mode (its last window may not start in its own padding) or with
 * pads of its own that count_include_pad = 0 leaves out of the count. */
static ge_status ge__aic_fold_pad(ge_graph *g, ge_node_id id, int *done, ge_error *err) {
  ge_node *p = ge_graph_node(g, id), *q;
  ge_node_id qid = ge__aic_only_use(p), old[3];
  const int64_t *own = NULL;
  int64_t begin[3], end[3], pads[6];
  int32_t sp, n_own, i, avg, any = 0;
  uint32_t k, nk = 0;
  ge_status st;
  *done = 0;
  if (!ge__aic_is(p, "Pad") || p->num_outputs != 1 || p->num_control_inputs || p->num_control_outputs ||
      qid == GE_NONE || !ge__aic_desc_f32(ge_node_input_desc(g, p, 0)) || !(sp = ge__aic_zero_pads(g, p, begin, end)))
    return GE_OK;
  q = ge_graph_node(g, qid);
  avg = ge__aic_is(q, "AveragePool");
  if ((!avg && !ge__aic_is(q, "Conv")) || q->num_control_inputs || strcmp(ge_node_attr_string(q, "auto_pad", "NOTSET"), "NOTSET"))
    return GE_OK;
  n_own = ge_node_attr(q, "pads") ? ge_node_attr_ints(q, "pads", &own) : 0;
  if (n_own && n_own != 2 * sp) return GE_OK;
  for (i = 0; i < sp; i++) {
    pads[i] = begin[i] + (n_own ? own[i] : 0), pads[sp + i] = end[i] + (n_own ? own[sp + i] : 0);
    any |= begin[i] || end[i];
  }
  if (avg && any) {
    int own_pads = 0;
    for (i = 0; i < n_own; i++) own_pads |= own[i] != 0;
    if (ge_node_attr_int(q, "ceil_mode", 0) || (own_pads && !ge_node_attr_int(q, "count_include_pad", 0))) return GE_OK;
    if ((st = ge_node_set_attr_int(g, qid, "count_include_pad", 1, err)) != GE_OK) return st;
  }
  if ((st = ge_node_set_attr_ints(g, qid, "pads", pads, 2 * sp, err)) != GE_OK) return st;
  p = ge_graph_node(g, id);
  for (k = 1; k < p->num_inputs && nk < 3; k++)
    if (p->inputs[k].node != GE_NONE) old[nk++] = p->inputs[k].node;
  if ((st = ge_graph_set_input(g, qid, 0, p->inputs[0], err)) != GE_OK) return st;
  if ((st = ge_graph_remove_node(g, id, err)) != GE_OK) return st;
  for (k = 0; k < nk; k++) ge__aic_drop_orphan(g, old[k]);
  *done = 1;
  return GE_OK;
}

/* Before placement: float16 regions in float32 (ge_half_promote), then
 * zero Pads into the AveragePool or Conv that reads them. */
static ge_status ge__aic_optimize_original(const ge_engine *e, ge_graph *g, ge_error *err) {
  uint32_t id, bound;
  int done;
  ge_status st;
  if ((st = ge_half_optimize_original(e, g, err)) != GE_OK) return st;
  bound = ge_graph_id_bound(g);
  for (id = 0; id < bound; id++) {
    ge_node *n = ge_graph_node(g, id);
    if (!n || !ge__aic_is(n, "Pad")) continue;
    if ((st = ge__aic_fold_pad(g, id, &done, err)) != GE_OK) return st;
  }
  return GE_OK;
}

static ge_status ge__aic_optimize(const ge_engine *e, ge_graph *g, int32_t self, ge_error *err) {
  uint32_t id, bound = ge_graph_id_bound(g);
  int done;
  ge_status st;
  (void)e;
  if ((st = ge_vector_fuse_chains(g, self, err)) != GE_OK) return st; /* 0: element-wise chains into single ops */
  bound = ge_graph_id_bound(g);
  for (id = 0; id < bound; id++) { /* 1: BatchNormalization into Conv / Gemm */
    ge_node *n = ge_graph_node(g, id);
    if (!n || n->engine != self) continue;
    if (ge__aic_is(n, "Conv")) st = ge__aic_fold_conv(g, id, self, &done, err);
    else if (ge__aic_is(n, "Gemm")) st = ge__aic_fold_gemm(g, id, self, &done, err);
    else continue;
    if (st != GE_OK) return st;
  }
  bound = ge_graph_id_bound(g);
  for (id = 0; id < bound; id++) { /* 2: residual Adds into their Conv, bias Adds into their MatMul */
    ge_node *n = ge_graph_node(g, id);
    if (!n || n->engine != self) continue;
    if ((st = ge__aic_fuse_residual(g, id, self, &done, err)) != GE_OK) return st;
    if (!done && (st = ge__aic_fuse_matmul_bias(g, id, self, &done, err)) != GE_OK) return st;
  }
  bound = ge_graph_id_bound(g);
  for (id = 0; id < bound; id++) { /* 3: activations into their producer */
    ge_node *n = ge_graph_node(g, id);
    if (!n || n->engine != self) continue;
    if ((st = ge__aic_fuse_act(g, id, self, &done, err)) != GE_OK) return st;
    if (!done && (st = ge__aic_fuse_silu(g, id, self, &done, err)) != GE_OK) return st;
  }
  bound = ge_graph_id_bound(g);
  for (id = 0; id < bound; id++) { /* 4: BatchNormalization (+ Relu) into the 1x1 Conv after it */
    ge_node *n = ge_graph_node(g, id);
    if (n && n->engine == self && (st = ge__aic_fuse_pre(g, id, self, &done, err)) != GE_OK) return st;
  }
  bound = ge_graph_id_bound(g);
  for (id = 0; id < bound; id++) { /* 5: a channel-narrowing 1x1 Conv before the AveragePool it reads */
    ge_node *n = ge_graph_node(g, id);
    if (n && n->engine == self && (st = ge__aic_conv_before_pool(g, id, self, &done, err)) != GE_OK) return st;
  }
  bound = ge_graph_id_bound(g);
  for (id = 0; id < bound; id++) { /* 6: an AveragePool that shrinks the map before the 1x1 Conv it reads */
    ge_node *n = ge_graph_node(g, id);
    if (n && n->engine == self && (st = ge__aic_pool_before_conv(g, id, self, &done, err)) != GE_OK) return st;
  }
  return GE_OK;
}

static const ge_engine ge__aic_engine = {
    GE_ENGINE_ABI_VERSION, /* abi_version */
    "AIcoreEngine",        /* name */
    "AiCore",              /* accelerator */
    1,                     /* cost */
    GE_RUNTIME_DEVICE,     /* runtime */
    0,                     /* flags */
    NULL,                  /* members */
    ge__aic_check,         /* check_supported */
    ge__aic_kernel,        /* kernel */
    ge__aic_workspace,     /* workspace_size */
    ge__aic_optimize_original, /* optimize_original: float16 regions in float32, zero Pads into pools */
    ge__aic_optimize,      /* optimize_subgraph */
    NULL,                  /* user */
    ge__aic_prepare        /* prepare */
};

GE_API const ge_engine *ge_ai_core_engine(void) { return &ge__aic_engine; }

#ifdef __cplusplus
}
#endif
#endif /* GE_AI_CORE_IMPLEMENTATION_DONE */
#endif /* GE_AI_CORE_IMPLEMENTATION */

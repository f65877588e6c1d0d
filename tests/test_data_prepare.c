/* test_data_prepare.c — the reference data kernels prepared at load
 * (ge_host_cpu_prepare) against the same kernels unprepared, and AI CPU's
 * fast NonMaxSuppression against the reference.
 *
 * Prepared: the kernel is called with GE_KERNEL_PREPARE first (non-Const
 * inputs without bytes, tests/kernel_harness.h), then run twice on the
 * same context; unprepared: one plain run. On seeded random shapes,
 * attributes and Const or Data parameter inputs (bad ones included) both
 * must give the same status, message and output bytes (GatherElements,
 * ScatterElements and ScatterND included: axis and reduction read once).
 *
 * NonMaxSuppression: seeded random boxes in both formats with tied and
 * quantised scores, degenerate and flipped boxes, NaN scores, thresholds
 * on and beside the scores, every max_output_boxes_per_class from absent
 * to past the box count, batches and classes, and boxes spread far
 * beyond their sizes (the fast kernel's x grid): the fast kernel
 * (prepared and not) must give the reference's output exactly. */
/* Its private ge__aicpu_*; ai_cpu.h's x86 kernels (GE__AIC_X86) need ai_core.h's implementation
 * in the same translation unit, so both are here; the rest from libge.a. */
#define GE_AI_CORE_IMPLEMENTATION
#define GE_AI_CPU_IMPLEMENTATION
#include "ge_engines/ai_cpu.h"
#include "tests/test.h"
#include "tests/kernel_harness.h"
#include "tests/rng.h"

#include <math.h>

/* ------------------------------------------------------------ a case */

#define DP_MAX_IN 6
#define DP_MAX_OUT 4

/* One node with its inputs (each a Data node or, konst, a Const node)
 * and attributes (ints lists when n >= 0, else one int; a string when
 * str is set). */
typedef struct dp_attr {
  const char *name, *str;
  int64_t v[16];
  int32_t n;
} dp_attr;

typedef struct dp_case {
  const char *op;
  uint32_t n_in, n_out;
  ge_value in[DP_MAX_IN];
  int present[DP_MAX_IN], konst[DP_MAX_IN];
  dp_attr attr[4];
  int n_attr;
  ge_graph *g;
  ge_node_id id;
} dp_case;

static void dp_init(dp_case *t, const char *op, uint32_t n_in, uint32_t n_out) {
  memset(t, 0, sizeof *t);
  t->op = op;
  t->n_in = n_in;
  t->n_out = n_out;
}

static void dp_attr_int(dp_case *t, const char *name, int64_t v) {
  dp_attr *a = &t->attr[t->n_attr++];
  a->name = name;
  a->v[0] = v;
  a->n = -1;
}

static void dp_attr_ints(dp_case *t, const char *name, const int64_t *v, int32_t n) {
  dp_attr *a = &t->attr[t->n_attr++];
  a->name = name;
  memcpy(a->v, v, (size_t)n * sizeof *v);
  a->n = n;
}

static void dp_attr_str(dp_case *t, const char *name, const char *v) {
  dp_attr *a = &t->attr[t->n_attr++];
  a->name = name;
  a->str = v;
}

/* Input i of dtype and dims holding data (NULL: zeros). */
static void dp_in(dp_case *t, uint32_t i, ge_dtype dt, int32_t rank, const int64_t *dims, const void *data, int konst) {
  t->in[i] = kh_value(dt, rank, dims, data);
  t->present[i] = 1;
  t->konst[i] = konst;
}

static void dp_in_ints(dp_case *t, uint32_t i, const int64_t *v, int64_t n, int konst) {
  dp_in(t, i, GE_DTYPE_INT64, 1, &n, v, konst);
}

/* Builds the graph (after the inputs and attributes are set); 0 on failure. */
static int dp_build(dp_case *t) {
  ge_edge e[DP_MAX_IN];
  ge_error err;
  uint32_t i;
  int k;
  memset(&err, 0, sizeof err);
  if (ge_graph_create(NULL, &t->g, &err)) return 0;
  for (i = 0; i < t->n_in; i++) {
    e[i].node = GE_NONE;
    e[i].index = 0;
    if (!t->present[i]) continue;
    if (t->konst[i]) {
      ge_tensor k2;
      memset(&k2, 0, sizeof k2);
      k2.dtype = t->in[i].dtype;
      k2.rank = t->in[i].rank;
      k2.dims = t->in[i].dims;
      k2.data = t->in[i].data;
      k2.nbytes = t->in[i].nbytes;
      if (ge_graph_add_const(t->g, NULL, &k2, &e[i].node, &err)) return 0;
    } else if (ge_graph_add_data(t->g, NULL, t->in[i].dtype, t->in[i].rank, t->in[i].dims, &e[i].node, &err)) {
      return 0;
    }
  }
  if (ge_graph_add_node(t->g, t->op, "n", t->n_in, e, (int32_t)t->n_out, &t->id, &err)) return 0;
  for (k = 0; k < t->n_attr; k++) {
    const dp_attr *a = &t->attr[k];
    ge_status st = a->str ? ge_node_set_attr_string(t->g, t->id, a->name, a->str, &err)
                   : a->n < 0 ? ge_node_set_attr_int(t->g, t->id, a->name, a->v[0], &err)
                              : ge_node_set_attr_ints(t->g, t->id, a->name, a->v, a->n, &err);
    if (st) return 0;
  }
  return 1;
}

static void dp_free(dp_case *t) {
  uint32_t i;
  for (i = 0; i < t->n_in; i++) kh_free(&t->in[i]);
  ge_graph_free(t->g);
}

/* A run's result: status, message and outputs. */
typedef struct dp_result {
  ge_status st;
  ge_error err;
  ge_value out[DP_MAX_OUT];
} dp_result;

/* Runs fn (after prep when given, fixed: twice) on one thread: none of
 * these kernels splits its work. */
static void dp_run(dp_case *t, ge_kernel_fn fn, ge_kernel_fn prep, int fixed, dp_result *r) {
  ge_value *ins[DP_MAX_IN];
  uint32_t i;
  memset(r, 0, sizeof *r);
  for (i = 0; i < t->n_in; i++) ins[i] = t->present[i] ? &t->in[i] : NULL;
  r->st = kh_run_prep(fn, prep, t->g, t->id, ins, t->n_in, r->out, t->n_out, NULL, 1, fixed, &r->err);
}

static void dp_result_free(dp_result *r) {
  int i;
  for (i = 0; i < DP_MAX_OUT; i++) kh_free(&r->out[i]);
}

/* Same status, message, dtypes, shapes and bytes; 1 if so. */
static int dp_same(const dp_case *t, const dp_result *a, const dp_result *b, const char *what, int seed) {
  uint32_t i;
  int ok = GE_CHECK_EQ_INT(a->st, b->st);
  if (a->st != GE_OK) {
    ok &= GE_CHECK_STR(a->err.message, b->err.message);
  } else {
    for (i = 0; i < t->n_out; i++) {
      const ge_value *x = &a->out[i], *y = &b->out[i];
      ok &= GE_CHECK_EQ_INT(x->dtype, y->dtype) && GE_CHECK_EQ_INT(x->rank, y->rank) &&
            GE_CHECK(!memcmp(x->dims, y->dims, sizeof x->dims)) && GE_CHECK_EQ_INT(x->nbytes, y->nbytes) &&
            GE_CHECK(!x->nbytes || !memcmp(x->data, y->data, x->nbytes));
    }
  }
  if (!ok) fprintf(stderr, "  %s: %s case %d differs (status %d: %s)\n", t->op, what, seed, (int)a->st, a->err.message);
  return ok;
}

/* Runs t's reference kernel unprepared and prepared; the two must agree.
 * Counts the cases that ran without error in *good. */
static void dp_check_prepared(dp_case *t, int seed, int *good) {
  ge_kernel_fn fn, prep;
  dp_result a, b;
  if (!GE_CHECK(dp_build(t))) return;
  fn = ge_host_cpu_kernel(ge_graph_node(t->g, t->id));
  prep = ge_host_cpu_prepare(ge_graph_node(t->g, t->id));
  if (!GE_CHECK(fn && prep == fn)) return;
  dp_run(t, fn, NULL, 0, &a);
  dp_run(t, fn, prep, 1, &b);
  dp_same(t, &a, &b, "prepared", seed);
  *good += a.st == GE_OK;
  dp_result_free(&a);
  dp_result_free(&b);
}

/* ------------------------------------------------------------ random */

static int64_t dp_range(tu_rng *r, int64_t lo, int64_t hi) { return lo + (int64_t)tu_below(r, (uint32_t)(hi - lo + 1)); }

static const ge_dtype dp_dtypes[] = {GE_DTYPE_FLOAT32, GE_DTYPE_INT64, GE_DTYPE_UINT8, GE_DTYPE_FLOAT16};

/* A random value of rank r (dims 1..dmax, or the given dims) with random
 * bytes. */
static void dp_rand_in(dp_case *t, uint32_t i, tu_rng *r, ge_dtype dt, int32_t rank, const int64_t *dims_or_null,
                       int64_t dmax) {
  int64_t dims[GE_MAX_RANK];
  int32_t k;
  size_t b;
  for (k = 0; k < rank; k++) dims[k] = dims_or_null ? dims_or_null[k] : dp_range(r, 1, dmax);
  dp_in(t, i, dt, rank, dims, NULL, 0);
  for (b = 0; b < t->in[i].nbytes; b++) ((unsigned char *)t->in[i].data)[b] = (unsigned char)tu_below(r, 256);
  if (dt == GE_DTYPE_FLOAT32 || dt == GE_DTYPE_FLOAT16) /* keep floats finite and readable */
    for (b = 0; b < (size_t)t->in[i].numel; b++) {
      if (dt == GE_DTYPE_FLOAT32) ((float *)t->in[i].data)[b] = (float)dp_range(r, -100, 100) / 8;
      else ((uint16_t *)t->in[i].data)[b] = ge_float_to_half((float)dp_range(r, -100, 100) / 8);
    }
}

static ge_dtype dp_rand_dtype(tu_rng *r) { return dp_dtypes[tu_below(r, sizeof dp_dtypes / sizeof *dp_dtypes)]; }

/* ------------------------------------------------- prepared vs not */

#define DP_CASES 60

/* The axis of a random case, sometimes out of range. */
static int64_t dp_axis(tu_rng *r, int32_t rank, int bad) { return dp_range(r, -rank, rank - 1 + bad); }
static int32_t dp_fix(int64_t axis, int32_t rank) {
  return axis < -rank || axis >= rank ? 0 : (int32_t)(axis < 0 ? axis + rank : axis);
}

/* One random case of op number which (seed s) into t. */
static void dp_make(dp_case *t, int which, tu_rng *r, int s) {
  int64_t dims[GE_MAX_RANK], v[16], axis;
  int32_t rank = (int32_t)dp_range(r, 1, 4), k, a;
  ge_dtype dt = dp_rand_dtype(r);
  int bad = s % 13 == 0, konst = (int)tu_below(r, 3) != 0; /* mostly Consts, as models have them */
  uint32_t i, n;
  for (k = 0; k < rank; k++) dims[k] = dp_range(r, 1, 4);
  axis = dp_axis(r, rank, bad);
  a = dp_fix(axis, rank);
  switch (which) {
  case 0: /* Concat */
    n = (uint32_t)dp_range(r, 1, 4);
    dp_init(t, "Concat", n, 1);
    for (i = 0; i < n; i++) {
      int64_t d2[GE_MAX_RANK];
      memcpy(d2, dims, sizeof d2);
      d2[a] = dp_range(r, 0, 3);
      dp_rand_in(t, i, r, dt, rank, d2, 4);
    }
    dp_attr_int(t, "axis", axis);
    break;
  case 1: /* Gather */
    n = (uint32_t)dp_range(r, 1, 6);
    dp_init(t, "Gather", 2, 1);
    dp_rand_in(t, 0, r, dt, rank, dims, 4);
    for (i = 0; i < n; i++) v[i] = dp_range(r, -dims[a], dims[a] - 1 + bad);
    dp_in_ints(t, 1, v, n, konst);
    if (tu_below(r, 4)) dp_attr_int(t, "axis", axis);
    break;
  case 2: { /* Split: sizes from an input, the attribute, num_outputs or equal parts */
    int64_t left, kind = dp_range(r, 0, 3);
    n = (uint32_t)dp_range(r, 1, 3);
    dims[a] = dp_range(r, 2, 7);
    left = dims[a];
    for (i = 0; i < n; i++) {
      v[i] = i + 1 < n ? dp_range(r, 0, left) : left;
      left -= v[i];
    }
    if (bad) v[0]++;
    dp_init(t, "Split", kind == 0 ? 2 : 1, n);
    dp_rand_in(t, 0, r, dt, rank, dims, 4);
    if (kind == 0) dp_in_ints(t, 1, v, n, konst);
    if (kind == 1) dp_attr_ints(t, "split", v, (int32_t)n);
    if (kind == 2) dp_attr_int(t, "num_outputs", n + (uint32_t)bad);
    dp_attr_int(t, "axis", axis);
    break;
  }
  case 3: { /* Slice: inputs (Const or Data) or the attributes */
    int64_t st[GE_MAX_RANK], en[GE_MAX_RANK], ax[GE_MAX_RANK], sp[GE_MAX_RANK];
    int from_attr = tu_below(r, 4) == 0, with_axes = (int)tu_below(r, 2), with_steps = (int)tu_below(r, 2);
    n = (uint32_t)dp_range(r, 1, rank);
    for (i = 0; i < n; i++) {
      ax[i] = ((int64_t)i + a) % rank - (tu_below(r, 2) ? rank : 0);
      st[i] = dp_range(r, -6, 6);
      en[i] = tu_below(r, 5) ? dp_range(r, -6, 6) : INT64_MAX;
      sp[i] = from_attr ? 1 : dp_range(r, -3, 3);
      if (sp[i] == 0 && !bad) sp[i] = 1;
    }
    dp_init(t, "Slice", from_attr ? 1 : 5, 1);
    dp_rand_in(t, 0, r, dt, rank, dims, 5);
    if (from_attr) {
      dp_attr_ints(t, "starts", st, (int32_t)n);
      dp_attr_ints(t, "ends", en, (int32_t)n);
      if (with_axes) dp_attr_ints(t, "axes", ax, (int32_t)n);
    } else {
      dp_in_ints(t, 1, st, n, konst);
      dp_in_ints(t, 2, en, n - (uint32_t)bad, konst);
      if (with_axes) dp_in_ints(t, 3, ax, n, konst);
      if (with_steps) dp_in_ints(t, 4, sp, n, konst);
    }
    break;
  }
  case 4: { /* Transpose */
    int64_t perm[GE_MAX_RANK];
    for (k = 0; k < rank; k++) perm[k] = k;
    for (k = rank - 1; k > 0; k--) {
      int32_t j = (int32_t)tu_below(r, (uint32_t)k + 1);
      int64_t x = perm[k];
      perm[k] = perm[j], perm[j] = x;
    }
    if (bad) perm[0] = rank;
    dp_init(t, "Transpose", 1, 1);
    dp_rand_in(t, 0, r, dt, rank, dims, 4);
    if (tu_below(r, 4)) dp_attr_ints(t, "perm", perm, rank);
    break;
  }
  case 5: { /* Pad: pads and axes as inputs (or pads as the attribute), every mode */
    static const char *const modes[5] = {"constant", "reflect", "edge", "wrap", "mirror"};
    int64_t pads[2 * GE_MAX_RANK];
    int from_attr = tu_below(r, 4) == 0;
    for (k = 0; k < 2 * rank; k++) pads[k] = dp_range(r, -1, 3);
    dp_init(t, "Pad", from_attr ? 1 : 4, 1);
    dp_rand_in(t, 0, r, dt, rank, dims, 4);
    if (from_attr) {
      dp_attr_ints(t, "pads", pads, 2 * rank - bad);
      if (tu_below(r, 2)) dp_attr_int(t, "value", 3);
    } else {
      dp_in_ints(t, 1, pads, 2 * rank - bad, konst);
      if (dt == GE_DTYPE_INT64 && tu_below(r, 2)) dp_in(t, 2, GE_DTYPE_INT64, 0, NULL, &pads[0], konst);
    }
    dp_attr_str(t, "mode", modes[tu_below(r, bad ? 5 : 4)]);
    break;
  }
  case 6: /* Squeeze / Unsqueeze: axes from an input or the attribute */
  case 7: {
    int from_attr = (int)tu_below(r, 3) == 0;
    n = (uint32_t)dp_range(r, which == 6 ? 0 : 1, 2);
    for (k = 0; k < rank; k++)
      if (which == 6 && tu_below(r, 2)) dims[k] = 1;
    for (i = 0; i < n; i++) v[i] = which == 6 ? dp_fix(dp_axis(r, rank, bad), rank) : (int64_t)i * 2 - (int64_t)bad * 9;
    dp_init(t, which == 6 ? "Squeeze" : "Unsqueeze", from_attr ? 1 : 2, 1);
    dp_rand_in(t, 0, r, dt, rank, dims, 4);
    if (from_attr) dp_attr_ints(t, "axes", v, (int32_t)n);
    else if (n || which == 7) dp_in_ints(t, 1, v, n, konst);
    break;
  }
  case 8: { /* Reshape: 0 and -1 in the shape */
    int64_t total = 1;
    for (k = 0; k < rank; k++) total *= dims[k];
    v[0] = 0, v[1] = -1, v[2] = 1;
    if (bad) v[2] = 7;
    dp_init(t, "Reshape", 2, 1);
    dp_rand_in(t, 0, r, dt, rank, dims, 4);
    dp_in_ints(t, 1, v, 3, konst);
    if (tu_below(r, 3) == 0) dp_attr_int(t, "allowzero", 0);
    (void)total;
    break;
  }
  case 9: /* Expand / Tile */
  case 10:
    for (k = 0; k < rank; k++) v[k] = which == 9 ? (tu_below(r, 2) ? dims[k] : 1) : dp_range(r, 0, 3);
    if (which == 9)
      for (k = 0; k < rank; k++)
        if (tu_below(r, 2)) dims[k] = 1;
    if (bad) v[0] = which == 9 ? 5 : -1;
    dp_init(t, which == 9 ? "Expand" : "Tile", 2, 1);
    dp_rand_in(t, 0, r, dt, rank, dims, 4);
    dp_in_ints(t, 1, v, rank, konst);
    break;
  case 11: /* TopK: K from an input */
    v[0] = dp_range(r, 0, dims[a] + bad);
    dp_init(t, "TopK", 2, 2);
    dp_rand_in(t, 0, r, dt == GE_DTYPE_FLOAT16 ? GE_DTYPE_FLOAT32 : dt, rank, dims, 4);
    dp_in(t, 1, GE_DTYPE_INT64, 1, (const int64_t[]){1}, v, konst);
    dp_attr_int(t, "axis", axis);
    if (tu_below(r, 2)) dp_attr_int(t, "largest", 0);
    break;
  case 12: /* Shape */
    dp_init(t, "Shape", 1, 1);
    dp_rand_in(t, 0, r, dt, rank, dims, 4);
    if (tu_below(r, 2)) dp_attr_int(t, "start", dp_range(r, -5, 5));
    if (tu_below(r, 2)) dp_attr_int(t, "end", dp_range(r, -5, 5));
    break;
  case 13: /* Flatten */
    dp_init(t, "Flatten", 1, 1);
    dp_rand_in(t, 0, r, dt, rank, dims, 4);
    dp_attr_int(t, "axis", dp_range(r, -rank, rank + bad));
    break;
  case 15: /* GatherElements / ScatterElements: indices no larger than the data off the axis */
  case 16: {
    static const char *const reds[6] = {"none", "add", "mul", "max", "min", "mean"};
    int64_t idims[GE_MAX_RANK];
    for (k = 0; k < rank; k++) idims[k] = k == a ? dp_range(r, 0, 4) : dp_range(r, 1, dims[k]);
    dp_init(t, which == 15 ? "GatherElements" : "ScatterElements", which == 15 ? 2 : 3, 1);
    dp_rand_in(t, 0, r, dt, rank, dims, 4);
    dp_in(t, 1, tu_below(r, 2) ? GE_DTYPE_INT64 : GE_DTYPE_INT32, rank, idims, NULL, 0);
    for (k = 0; k < t->in[1].numel; k++) {
      int64_t x = dp_range(r, -dims[a], dims[a] - 1 + bad);
      if (t->in[1].dtype == GE_DTYPE_INT64) ((int64_t *)t->in[1].data)[k] = x;
      else ((int32_t *)t->in[1].data)[k] = (int32_t)x;
    }
    if (which == 16) dp_rand_in(t, 2, r, dt, rank, idims, 4);
    if (tu_below(r, 4)) dp_attr_int(t, "axis", axis);
    if (which == 16 && tu_below(r, 2)) dp_attr_str(t, "reduction", reds[tu_below(r, bad ? 6 : 5)]);
    break;
  }
  case 17: { /* ScatterND: index tuples of 1..rank entries, updates shaped to them */
    static const char *const reds[6] = {"none", "add", "mul", "max", "min", "mean"};
    int64_t idims[2], udims[GE_MAX_RANK];
    int32_t urank;
    idims[0] = dp_range(r, 1, 3);
    idims[1] = dp_range(r, 1, rank);
    urank = (int32_t)(1 + rank - idims[1]);
    udims[0] = idims[0];
    for (k = 1; k < urank; k++) udims[k] = dims[idims[1] + k - 1];
    dp_init(t, "ScatterND", 3, 1);
    dp_rand_in(t, 0, r, dt, rank, dims, 4);
    dp_in(t, 1, GE_DTYPE_INT64, 2, idims, NULL, konst);
    for (k = 0; k < idims[0] * idims[1]; k++) ((int64_t *)t->in[1].data)[k] = dp_range(r, 0, dims[k % idims[1]] - 1 + bad);
    dp_rand_in(t, 2, r, dt, urank, udims, 4);
    if (tu_below(r, 2)) dp_attr_str(t, "reduction", reds[tu_below(r, bad ? 6 : 5)]);
    break;
  }
  default: { /* GatherND */
    int64_t idims[2];
    idims[0] = dp_range(r, 1, 3);
    idims[1] = dp_range(r, 1, rank);
    dp_init(t, "GatherND", 2, 1);
    dp_rand_in(t, 0, r, dt, rank, dims, 4);
    dp_in(t, 1, GE_DTYPE_INT64, 2, idims, NULL, konst);
    for (k = 0; k < idims[0] * idims[1]; k++) ((int64_t *)t->in[1].data)[k] = dp_range(r, 0, dims[k % idims[1]] - 1 + bad);
    break;
  }
  }
}

#define DP_OPS 18

GE_TEST(test_prepared_matches_unprepared) {
  static const char *const names[DP_OPS] = {"Concat",  "Gather",    "Split",   "Slice",  "Transpose",
                                            "Pad",     "Squeeze",   "Unsqueeze", "Reshape", "Expand",
                                            "Tile",    "TopK",      "Shape",   "Flatten", "GatherND",
                                            "GatherElements", "ScatterElements", "ScatterND"};
  int op;
  for (op = 0; op < DP_OPS; op++) {
    int s, good = 0;
    for (s = 0; s < DP_CASES; s++) {
      dp_case t;
      tu_rng r;
      tu_seed(&r, 7000 + (uint64_t)op * 1000 + (uint64_t)s);
      dp_make(&t, op, &r, s);
      dp_check_prepared(&t, s, &good);
      dp_free(&t);
    }
    if (!GE_CHECK(good >= DP_CASES / 3)) fprintf(stderr, "  %s: only %d valid cases\n", names[op], good);
  }
}

/* Every kernel named in ge_host_cpu_prepare keeps nothing but parameters:
 * one without a prepare says so. */
GE_TEST(test_prepare_lookup) {
  dp_case t;
  int64_t d = 2;
  dp_init(&t, "Abs", 1, 1);
  dp_in(&t, 0, GE_DTYPE_FLOAT32, 1, &d, NULL, 0);
  GE_REQUIRE(dp_build(&t));
  GE_CHECK(ge_host_cpu_prepare(ge_graph_node(t.g, t.id)) == NULL);
  dp_free(&t);
}

/* ------------------------------------------------- NonMaxSuppression */

/* A random NonMaxSuppression case: boxes on a coarse grid (so IoUs tie the
 * threshold), some degenerate or flipped, scores from a few levels (ties),
 * NaN scores now and then, thresholds taken from the scores themselves. */
static void dp_make_nms(dp_case *t, tu_rng *r, int s) {
  int64_t B = dp_range(r, 1, 3), C = dp_range(r, 1, 4), N = dp_range(r, 0, 40), bd[3], sd[3], i, maxout;
  int center = (int)tu_below(r, 2), nan = s % 7 == 0, konst = (int)tu_below(r, 2);
  float iou, thr;
  bd[0] = B, bd[1] = N, bd[2] = 4;
  sd[0] = B, sd[1] = C, sd[2] = N;
  dp_init(t, "NonMaxSuppression", 5, 1);
  dp_in(t, 0, GE_DTYPE_FLOAT32, 3, bd, NULL, 0);
  dp_in(t, 1, GE_DTYPE_FLOAT32, 3, sd, NULL, 0);
  for (i = 0; i < B * N * 4; i++) {
    float *b = (float *)t->in[0].data;
    b[i] = (float)dp_range(r, center && i % 4 >= 2 ? -1 : 0, 8) / 4; /* center boxes: widths may be negative */
    if (i % 4 == 3 && tu_below(r, 10) == 0) b[i] = b[i - 2]; /* zero height */
  }
  for (i = 0; i < B * C * N; i++) {
    float *sc = (float *)t->in[1].data;
    sc[i] = (float)dp_range(r, 0, 6) / 6;
    if (nan && tu_below(r, 8) == 0) sc[i] = NAN;
  }
  maxout = tu_below(r, 6) == 0 ? -1 : dp_range(r, 0, N + 2);
  iou = (float)dp_range(r, -1, 8) / 8; /* includes < 0, 0 and 1 */
  thr = (float)dp_range(r, -1, 6) / 6; /* equal to score levels */
  switch (tu_below(r, 4)) { /* which optional inputs there are */
  case 0: break;
  case 1: dp_in(t, 2, GE_DTYPE_INT64, 1, (const int64_t[]){1}, &maxout, konst); break;
  case 2:
    dp_in(t, 2, GE_DTYPE_INT64, 1, (const int64_t[]){1}, &maxout, konst);
    dp_in(t, 3, GE_DTYPE_FLOAT32, 1, (const int64_t[]){1}, &iou, konst);
    break;
  default:
    dp_in(t, 2, GE_DTYPE_INT64, 0, NULL, &maxout, konst);
    dp_in(t, 3, GE_DTYPE_FLOAT32, 0, NULL, &iou, konst);
    if (!nan || tu_below(r, 2)) dp_in(t, 4, GE_DTYPE_FLOAT32, 0, NULL, &thr, konst);
    break;
  }
  if (center || tu_below(r, 3) == 0) dp_attr_int(t, "center_point_box", s % 29 == 0 ? 2 : center);
}

GE_TEST(test_fast_nms_matches_reference) {
  int s, good = 0, kept = 0;
  for (s = 0; s < 400; s++) {
    dp_case t;
    tu_rng r;
    ge_kernel_fn ref, fast;
    const ge_engine *e = ge_ai_cpu_ascend_engine();
    dp_result a, b, c;
    tu_seed(&r, 90000 + (uint64_t)s);
    dp_make_nms(&t, &r, s);
    if (!GE_CHECK(dp_build(&t))) break;
    ref = ge_host_cpu_kernel(ge_graph_node(t.g, t.id));
    fast = e->kernel(e, ge_graph_node(t.g, t.id));
    GE_REQUIRE(ref && fast && fast != ref && e->prepare(e, ge_graph_node(t.g, t.id)) == fast);
    dp_run(&t, ref, NULL, 0, &a);
    dp_run(&t, fast, NULL, 0, &b);
    dp_run(&t, fast, fast, 1, &c);
    dp_same(&t, &a, &b, "fast", s);
    dp_same(&t, &a, &c, "fast prepared", s);
    good += a.st == GE_OK;
    kept += a.st == GE_OK ? (int)a.out[0].dims[0] : 0;
    dp_result_free(&a);
    dp_result_free(&b);
    dp_result_free(&c);
    dp_free(&t);
  }
  GE_CHECK(good > 300);
  GE_CHECK(kept > 1000); /* the cases select boxes, not only nothing */
}

/* A larger case at the edge the heap takes: many candidates, few kept. */
GE_TEST(test_fast_nms_large) {
  int s;
  for (s = 0; s < 6; s++) {
    dp_case t;
    tu_rng r;
    int64_t bd[3] = {1, 2000, 4}, sd[3] = {1, 3, 2000}, i, maxout = s < 3 ? 5 + s * 40 : 2000;
    float iou = 0.5f, thr = s % 2 ? 0.25f : 0.0f;
    const ge_engine *e = ge_ai_cpu_ascend_engine();
    dp_result a, b;
    tu_seed(&r, 123 + (uint64_t)s);
    dp_init(&t, "NonMaxSuppression", 5, 1);
    dp_in(&t, 0, GE_DTYPE_FLOAT32, 3, bd, NULL, 0);
    dp_in(&t, 1, GE_DTYPE_FLOAT32, 3, sd, NULL, 0);
    for (i = 0; i < 2000 * 4; i++) ((float *)t.in[0].data)[i] = (float)dp_range(&r, 0, 1000) / 100;
    for (i = 0; i < 6000; i++) ((float *)t.in[1].data)[i] = (float)dp_range(&r, 0, 1000) / 1000;
    dp_in(&t, 2, GE_DTYPE_INT64, 1, (const int64_t[]){1}, &maxout, 1);
    dp_in(&t, 3, GE_DTYPE_FLOAT32, 1, (const int64_t[]){1}, &iou, 1);
    dp_in(&t, 4, GE_DTYPE_FLOAT32, 1, (const int64_t[]){1}, &thr, 1);
    GE_REQUIRE(dp_build(&t));
    dp_run(&t, ge_host_cpu_kernel(ge_graph_node(t.g, t.id)), NULL, 0, &a);
    dp_run(&t, e->kernel(e, ge_graph_node(t.g, t.id)), e->kernel(e, ge_graph_node(t.g, t.id)), 1, &b);
    GE_CHECK_EQ_INT(a.st, GE_OK);
    dp_same(&t, &a, &b, "large", s);
    dp_result_free(&a);
    dp_result_free(&b);
    dp_free(&t);
  }
}

/* Boxes spread far beyond their sizes, as a batched NMS offsets each
 * class's boxes: the fast kernel's x grid takes over (N >= 64, span >= 8
 * widths), and must still give the reference's output exactly — with
 * boxes on a coarse grid (IoUs on the threshold), flipped and zero-width
 * ones, thresholds 0 to 1, both box formats, some classes in one place. */
GE_TEST(test_fast_nms_spread) {
  int s, kept = 0;
  for (s = 0; s < 40; s++) {
    dp_case t;
    tu_rng r;
    int64_t N, C, groups, bd[3], sd[3], i, maxout;
    int center = s % 4 == 3;
    float iou, thr = s % 3 ? 0.0f : 0.5f;
    const ge_engine *e = ge_ai_cpu_ascend_engine();
    dp_result a, b;
    tu_seed(&r, 777 + (uint64_t)s);
    N = dp_range(&r, 64, 900), C = dp_range(&r, 1, 3), groups = dp_range(&r, 1, 60);
    maxout = s % 5 == 0 ? 20 : N;
    iou = (float)dp_range(&r, 0, 8) / 8;
    bd[0] = 1, bd[1] = N, bd[2] = 4;
    sd[0] = 1, sd[1] = C, sd[2] = N;
    dp_init(&t, "NonMaxSuppression", 5, 1);
    dp_in(&t, 0, GE_DTYPE_FLOAT32, 3, bd, NULL, 0);
    dp_in(&t, 1, GE_DTYPE_FLOAT32, 3, sd, NULL, 0);
    for (i = 0; i < N; i++) {
      float *bx = (float *)t.in[0].data + i * 4, off = (float)(dp_range(&r, 0, groups - 1) * 21);
      float p = (float)dp_range(&r, 0, 16) / 2, q = (float)dp_range(&r, 0, 16) / 2;
      float w = (float)dp_range(&r, 0, 8) / 2, h = (float)dp_range(&r, 0, 8) / 2;
      if (tu_below(&r, 20) == 0) w = -w; /* flipped */
      if (center) bx[0] = q + h / 2, bx[1] = off + p + w / 2, bx[2] = h, bx[3] = w;
      else if (tu_below(&r, 2)) bx[0] = q, bx[1] = off + p, bx[2] = q + h, bx[3] = off + p + w;
      else bx[0] = q + h, bx[1] = off + p + w, bx[2] = q, bx[3] = off + p; /* corners given the other way round */
    }
    for (i = 0; i < C * N; i++) ((float *)t.in[1].data)[i] = (float)dp_range(&r, 0, 12) / 12;
    dp_in(&t, 2, GE_DTYPE_INT64, 1, (const int64_t[]){1}, &maxout, 1);
    dp_in(&t, 3, GE_DTYPE_FLOAT32, 1, (const int64_t[]){1}, &iou, 1);
    dp_in(&t, 4, GE_DTYPE_FLOAT32, 1, (const int64_t[]){1}, &thr, 1);
    if (center) dp_attr_int(&t, "center_point_box", 1);
    GE_REQUIRE(dp_build(&t));
    dp_run(&t, ge_host_cpu_kernel(ge_graph_node(t.g, t.id)), NULL, 0, &a);
    dp_run(&t, e->kernel(e, ge_graph_node(t.g, t.id)), e->kernel(e, ge_graph_node(t.g, t.id)), 1, &b);
    GE_CHECK_EQ_INT(a.st, GE_OK);
    dp_same(&t, &a, &b, "spread", s);
    kept += a.st == GE_OK ? (int)a.out[0].dims[0] : 0;
    dp_result_free(&a);
    dp_result_free(&b);
    dp_free(&t);
  }
  GE_CHECK(kept > 2000);
}

/* The fast NMS's intersection test in float, scalar and AVX-512 (where
 * the CPU has it), on random corners (touching, nested, disjoint, with
 * infinities and NaN): the two agree bit for bit, and neither misses a
 * pair that intersects in double (the exact IoU then decides). */
GE_TEST(test_fast_nms_intersection_test) {
  static double c[5][40];
  static float f[4][40];
  tu_rng r;
  int i, misses = 0, differ = 0, avx512 = 0;
  ge__aicpu_kept k;
  tu_seed(&r, 1670);
#ifdef GE__AIC_X86
  avx512 = __builtin_cpu_supports("avx512f");
#endif
  for (i = 0; i < 5; i++) k.c[i] = c[i];
  for (i = 0; i < 4; i++) k.f[i] = f[i];
  for (i = 0; i < 400; i++) {
    double a[4];
    float af[4];
    int64_t n = 1 + (int64_t)tu_below(&r, 40), q, q0, j;
    for (q = 0; q < n; q++)
      for (j = 0; j < 4; j++) {
        double v = (double)tu_below(&r, 40) / 4.0 + (tu_below(&r, 3) == 0 ? 1e-9 * (double)tu_below(&r, 3) : 0.0);
        if (tu_below(&r, 50) == 0) v = tu_below(&r, 2) ? HUGE_VAL : NAN;
        c[j][q] = v, f[j][q] = (float)v;
      }
    for (j = 0; j < 4; j++) a[j] = (double)tu_below(&r, 40) / 4.0 + 1e-9 * (double)tu_below(&r, 2), af[j] = (float)a[j];
    for (q0 = 0; q0 < n; q0 += 16) {
      uint32_t h = ge__aicpu_nms_hits(af, &k, q0, n);
#ifdef GE__AIC_X86
      if (avx512) differ += ge__aicpu_nms_hits_avx512(af, &k, q0, n) != h;
#endif
      for (q = q0; q < n && q < q0 + 16; q++) {
        double ih = (a[2] < c[2][q] ? a[2] : c[2][q]) - (a[0] > c[0][q] ? a[0] : c[0][q]);
        double iw = (a[3] < c[3][q] ? a[3] : c[3][q]) - (a[1] > c[1][q] ? a[1] : c[1][q]);
        misses += ih > 0 && iw > 0 && !((h >> (q - q0)) & 1);
      }
    }
  }
  GE_CHECK_EQ_INT(misses, 0);
  GE_CHECK_EQ_INT(differ, 0);
  printf("  NMS intersection test: 400 cases, AVX-512 %s\n", avx512 ? "checked against scalar" : "not on this CPU");
}

int main(int argc, char **argv) {
  ge_test_init(argc, argv);
  GE_RUN(test_prepared_matches_unprepared);
  GE_RUN(test_prepare_lookup);
  GE_RUN(test_fast_nms_matches_reference);
  GE_RUN(test_fast_nms_large);
  GE_RUN(test_fast_nms_spread);
  GE_RUN(test_fast_nms_intersection_test);
  return ge_test_main_end();
}

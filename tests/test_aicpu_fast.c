/* test_aicpu_fast.c — AI CPU's fast RoiAlign, TopK, ScatterElements and NonZero
 * against the reference kernels (host_cpu) on seeded random cases.
 *
 * Every case runs the fast kernel three ways — plain on one thread, on a
 * two-thread pool, and prepared at load (kh_prepare: non-Const inputs
 * without bytes) then run twice on the same state — and the reference
 * once; statuses must match, and outputs must agree (TopK and
 * ScatterElements bit for bit, RoiAlign within float rounding).
 *
 * RoiAlign: both modes and coordinate modes, fixed and adaptive sampling,
 * rois crossing the border or off the map, zero-size and flipped rois,
 * channel counts past the kernel's chunk, no rois, a bad batch index.
 * TopK: ties (values from a few levels), NaN, -0, any axis, largest and
 * smallest, k from 0 to the axis, K as a Const or a Data input, bad k.
 * ScatterElements: every axis, negative indices, int32 and int64 indices,
 * 1- to 8-byte dtypes, an index out of range. NonZero: ranks 0 to 4,
 * empty tensors, -0 and NaN, every dtype of its path (and float16, which
 * runs the reference). A last test checks that
 * the comparison itself fails on a one-element mutation. */
#include "ge_engines/ai_cpu.h"
#include "tests/test.h"
#include "tests/kernel_harness.h"
#include "tests/rng.h"
#include "tests/test_pool.h"

#include <math.h>

#define FC_MAX_IN 3

typedef struct fc_case {
  const char *op;
  uint32_t n_in, n_out;
  ge_value in[FC_MAX_IN];
  int present[FC_MAX_IN], konst[FC_MAX_IN];
  ge_graph *g;
  ge_node_id id;
  ge_error err;
} fc_case;

static void fc_init(fc_case *t, const char *op, uint32_t n_in, uint32_t n_out) {
  memset(t, 0, sizeof *t);
  t->op = op;
  t->n_in = n_in;
  t->n_out = n_out;
}

static void fc_in(fc_case *t, uint32_t i, ge_dtype dt, int32_t rank, const int64_t *dims, int konst) {
  t->in[i] = kh_value(dt, rank, dims, NULL);
  t->present[i] = 1;
  t->konst[i] = konst;
}

/* The graph (after the inputs' bytes are set); 0 on failure. */
static int fc_build(fc_case *t) {
  ge_edge e[FC_MAX_IN];
  uint32_t i;
  if (ge_graph_create(NULL, &t->g, &t->err)) return 0;
  for (i = 0; i < t->n_in; i++) {
    e[i].node = GE_NONE;
    e[i].index = 0;
    if (!t->present[i]) continue;
    if (t->konst[i]) {
      ge_tensor k;
      memset(&k, 0, sizeof k);
      k.dtype = t->in[i].dtype;
      k.rank = t->in[i].rank;
      k.dims = t->in[i].dims;
      k.data = t->in[i].data;
      k.nbytes = t->in[i].nbytes;
      if (ge_graph_add_const(t->g, NULL, &k, &e[i].node, &t->err)) return 0;
    } else if (ge_graph_add_data(t->g, NULL, t->in[i].dtype, t->in[i].rank, t->in[i].dims, &e[i].node, &t->err)) {
      return 0;
    }
  }
  return ge_graph_add_node(t->g, t->op, "n", t->n_in, e, (int32_t)t->n_out, &t->id, &t->err) == GE_OK;
}

static void fc_free(fc_case *t) {
  uint32_t i;
  for (i = 0; i < t->n_in; i++) kh_free(&t->in[i]);
  ge_graph_free(t->g);
}

typedef struct fc_result {
  ge_status st;
  ge_error err;
  ge_value out[2];
} fc_result;

/* how: 0 plain, 1 on two threads, 2 prepared then run twice. */
static void fc_run(fc_case *t, ge_kernel_fn fn, int how, fc_result *r) {
  ge_value *ins[FC_MAX_IN];
  uint32_t i;
  memset(r, 0, sizeof *r);
  for (i = 0; i < t->n_in; i++) ins[i] = t->present[i] ? &t->in[i] : NULL;
  r->st = kh_run_prep(fn, how == 2 ? fn : NULL, t->g, t->id, ins, t->n_in, r->out, t->n_out,
                      how == 1 ? tp_parallel_for : NULL, how == 1 ? 2 : 1, how == 2, &r->err);
}

static void fc_result_free(fc_result *r) {
  kh_free(&r->out[0]);
  kh_free(&r->out[1]);
}

/* Largest |a - b| over float32 outputs, or (tol < 0) 0 / 1 for equal
 * bytes; shapes must match. Returns -1 when the shapes differ. */
static double fc_diff(const ge_value *a, const ge_value *b, double tol) {
  int64_t i;
  double m = 0;
  if (a->dtype != b->dtype || a->rank != b->rank || memcmp(a->dims, b->dims, sizeof a->dims) || a->nbytes != b->nbytes)
    return -1;
  if (tol < 0) return a->nbytes && memcmp(a->data, b->data, a->nbytes) ? 1 : 0;
  for (i = 0; i < a->numel; i++) {
    double d = fabs((double)((const float *)a->data)[i] - (double)((const float *)b->data)[i]);
    if (d > m || d != d) m = d != d ? HUGE_VAL : d;
  }
  return m;
}

/* 1 when the fast result agrees with the reference's. */
static int fc_agrees(const fc_case *t, const fc_result *ref, const fc_result *fast, double tol) {
  uint32_t i;
  if (ref->st != fast->st) return 0;
  if (ref->st != GE_OK) return !strcmp(ref->err.message, fast->err.message);
  for (i = 0; i < t->n_out; i++) {
    double d = fc_diff(&ref->out[i], &fast->out[i], tol);
    if (d < 0 || d > (tol < 0 ? 0 : tol)) return 0;
  }
  return 1;
}

static int64_t fc_range(tu_rng *r, int64_t lo, int64_t hi) { return lo + (int64_t)tu_below(r, (uint32_t)(hi - lo + 1)); }
static float fc_unit(tu_rng *r) { return (float)fc_range(r, -1000, 1000) / 1000.0f; }

/* ---------------------------------------------------------- RoiAlign */

static void fc_make_roi(fc_case *t, tu_rng *r, int s) {
  int64_t N = fc_range(r, 1, 2), C = s % 9 == 0 ? fc_range(r, 250, 300) : fc_range(r, 1, 20), H = fc_range(r, 1, 12),
          W = fc_range(r, 1, 12), R = s % 17 == 0 ? 0 : fc_range(r, 1, 6), xd[4], rd[2], i;
  int opset16 = (int)tu_below(r, 2);
  double scale = tu_below(r, 2) ? 1.0 : 0.5 / (double)fc_range(r, 1, 4);
  fc_init(t, "RoiAlign", 3, 1);
  xd[0] = N, xd[1] = C, xd[2] = H, xd[3] = W;
  rd[0] = R, rd[1] = 4;
  fc_in(t, 0, GE_DTYPE_FLOAT32, 4, xd, 0);
  fc_in(t, 1, GE_DTYPE_FLOAT32, 2, rd, 0);
  fc_in(t, 2, s % 3 == 0 ? GE_DTYPE_INT32 : GE_DTYPE_INT64, 1, rd, 0);
  for (i = 0; i < t->in[0].numel; i++) ((float *)t->in[0].data)[i] = fc_unit(r);
  for (i = 0; i < R; i++) {
    float *b = (float *)t->in[1].data + i * 4, lim = (float)(W > H ? W : H) / (float)scale;
    int kind = (int)tu_below(r, 6);
    b[0] = fc_unit(r) * lim * 1.2f, b[1] = fc_unit(r) * lim * 1.2f; /* crosses the border now and then */
    b[2] = b[0] + (float)fabs(fc_unit(r)) * lim, b[3] = b[1] + (float)fabs(fc_unit(r)) * lim;
    if (kind == 0) b[2] = b[0], b[3] = b[1]; /* zero size */
    if (kind == 1) b[2] = b[0] - 1.5f;       /* flipped */
    if (kind == 2) b[0] = b[2] = lim * 3;    /* off the map */
    if (t->in[2].dtype == GE_DTYPE_INT64) ((int64_t *)t->in[2].data)[i] = fc_range(r, 0, N - 1);
    else ((int32_t *)t->in[2].data)[i] = (int32_t)fc_range(r, 0, N - 1);
  }
  if (R && s % 31 == 0) { /* a bad batch index */
    if (t->in[2].dtype == GE_DTYPE_INT64) ((int64_t *)t->in[2].data)[0] = N;
    else ((int32_t *)t->in[2].data)[0] = (int32_t)N;
  }
  if (!fc_build(t)) return;
  ge_node_set_attr_int(t->g, t->id, "output_height", fc_range(r, 1, 7), &t->err);
  ge_node_set_attr_int(t->g, t->id, "output_width", fc_range(r, 1, 7), &t->err);
  ge_node_set_attr_int(t->g, t->id, "sampling_ratio", tu_below(r, 2) ? 0 : fc_range(r, 1, 3), &t->err);
  ge_node_set_attr_float(t->g, t->id, "spatial_scale", scale, &t->err);
  if (tu_below(r, 2)) ge_node_set_attr_string(t->g, t->id, "mode", s % 37 == 0 ? "mean" : "max", &t->err);
  if (opset16 || tu_below(r, 2))
    ge_node_set_attr_string(t->g, t->id, "coordinate_transformation_mode",
                            tu_below(r, 2) ? "half_pixel" : "output_half_pixel", &t->err);
}

/* fc_check with the graph already built by fc_make_*. */
static void fc_check_built(fc_case *t, double tol, int seed, int *good) {
  ge_graph *g = t->g;
  ge_node_id id = t->id;
  const ge_engine *e = ge_ai_cpu_ascend_engine();
  const ge_node *n;
  ge_kernel_fn ref, fast;
  fc_result a, b;
  int how;
  if (!GE_CHECK(g != NULL)) return;
  n = ge_graph_node(g, id);
  ref = ge_host_cpu_kernel(n);
  fast = e->kernel(e, n);
  if (!GE_CHECK(ref && fast && fast != ref && e->prepare(e, n) == fast)) return;
  fc_run(t, ref, 0, &a);
  for (how = 0; how < 3; how++) {
    fc_run(t, fast, how, &b);
    if (!GE_CHECK(fc_agrees(t, &a, &b, tol)))
      fprintf(stderr, "  %s case %d (run %d): ref status %d '%s', fast %d '%s', diff %g\n", t->op, seed, how, (int)a.st,
              a.err.message, (int)b.st, b.err.message,
              a.st == GE_OK && b.st == GE_OK ? fc_diff(&a.out[0], &b.out[0], tol) : 0.0);
    fc_result_free(&b);
  }
  *good += a.st == GE_OK;
  fc_result_free(&a);
}

/* n seeded cases of one op (case s from seed base + s, built by make),
 * each checked by fc_check_built; returns how many ran without error. */
typedef void (*fc_make_fn)(fc_case *t, tu_rng *r, int s);
static int fc_sweep(fc_make_fn make, uint64_t base, int n, double tol) {
  int s, good = 0;
  for (s = 0; s < n; s++) {
    fc_case t;
    tu_rng r;
    tu_seed(&r, base + (uint64_t)s);
    make(&t, &r, s);
    fc_check_built(&t, tol, s, &good);
    fc_free(&t);
  }
  return good;
}

GE_TEST(test_roi_align_matches_reference) {
  int good = fc_sweep(fc_make_roi, 51000, 300, 2e-5);
  GE_CHECK(good > 250);
}

/* -------------------------------------------------------------- TopK */

static void fc_make_topk(fc_case *t, tu_rng *r, int s) {
  int32_t rank = (int32_t)fc_range(r, 1, 3), k;
  int64_t dims[3], axis, a, kk, i, levels = fc_range(r, 2, 40);
  int kconst = (int)tu_below(r, 2);
  for (k = 0; k < rank; k++) dims[k] = fc_range(r, 1, 5);
  axis = fc_range(r, -rank, rank - 1);
  a = axis < 0 ? axis + rank : axis;
  dims[a] = s % 5 == 0 ? fc_range(r, 200, 3000) : fc_range(r, 0, 60);
  kk = fc_range(r, 0, dims[a]);
  if (s % 4 == 0) kk = dims[a] < 8 ? dims[a] : fc_range(r, 0, 8);
  if (s % 41 == 0) kk = dims[a] + 1; /* too large */
  fc_init(t, "TopK", 2, 2);
  fc_in(t, 0, GE_DTYPE_FLOAT32, rank, dims, 0);
  fc_in(t, 1, GE_DTYPE_INT64, 1, (const int64_t[]){1}, kconst);
  for (i = 0; i < t->in[0].numel; i++) {
    float v = (float)fc_range(r, -levels, levels) / 4; /* ties */
    if (s % 7 == 0 && tu_below(r, 10) == 0) v = tu_below(r, 2) ? NAN : -0.0f;
    if (s % 11 == 0 && tu_below(r, 20) == 0) v = tu_below(r, 2) ? HUGE_VALF : -HUGE_VALF;
    ((float *)t->in[0].data)[i] = v;
  }
  ((int64_t *)t->in[1].data)[0] = kk;
  if (!fc_build(t)) return;
  ge_node_set_attr_int(t->g, t->id, "axis", axis, &t->err);
  if (tu_below(r, 2)) ge_node_set_attr_int(t->g, t->id, "largest", 0, &t->err);
  if (tu_below(r, 3) == 0) ge_node_set_attr_int(t->g, t->id, "sorted", 1, &t->err);
}

GE_TEST(test_topk_matches_reference) {
  int good = fc_sweep(fc_make_topk, 52000, 400, -1);
  GE_CHECK(good > 350);
}

/* --------------------------------------------------- ScatterElements */

static const ge_dtype fc_scatter_dtypes[] = {GE_DTYPE_FLOAT32, GE_DTYPE_INT64, GE_DTYPE_UINT8, GE_DTYPE_FLOAT16};

static void fc_make_scatter(fc_case *t, tu_rng *r, int s) {
  int32_t rank = (int32_t)fc_range(r, 1, 4), k;
  int64_t dims[4], idims[4], axis = 0, a, i;
  ge_dtype dt = fc_scatter_dtypes[tu_below(r, 4)];
  int wide = (int)tu_below(r, 3) != 0;
  size_t b;
  for (k = 0; k < rank; k++) dims[k] = fc_range(r, 1, 6), idims[k] = fc_range(r, 0, dims[k]);
  if (s % 3 == 0)
    for (k = 0; k < rank; k++) idims[k] = dims[k]; /* full rows, as Faster R-CNN's */
  axis = fc_range(r, -rank, rank - 1);
  a = axis < 0 ? axis + rank : axis;
  idims[a] = fc_range(r, 0, 8);
  fc_init(t, tu_below(r, 8) == 0 ? "Scatter" : "ScatterElements", 3, 1);
  fc_in(t, 0, dt, rank, dims, 0);
  fc_in(t, 1, wide ? GE_DTYPE_INT64 : GE_DTYPE_INT32, rank, idims, 0);
  fc_in(t, 2, dt, rank, idims, 0);
  for (b = 0; b < t->in[0].nbytes; b++) ((unsigned char *)t->in[0].data)[b] = (unsigned char)tu_below(r, 256);
  for (b = 0; b < t->in[2].nbytes; b++) ((unsigned char *)t->in[2].data)[b] = (unsigned char)tu_below(r, 256);
  for (i = 0; i < t->in[1].numel; i++) {
    int64_t v = fc_range(r, -dims[a], dims[a] - 1);
    if (s % 23 == 0 && i == t->in[1].numel - 1) v = dims[a]; /* out of range */
    if (wide) ((int64_t *)t->in[1].data)[i] = v;
    else ((int32_t *)t->in[1].data)[i] = (int32_t)v;
  }
  if (!fc_build(t)) return;
  ge_node_set_attr_int(t->g, t->id, "axis", axis, &t->err);
}

GE_TEST(test_scatter_elements_matches_reference) {
  int good = fc_sweep(fc_make_scatter, 53000, 400, -1);
  GE_CHECK(good > 300);
}

/* ----------------------------------------------------------- NonZero */

static const ge_dtype fc_nz_dtypes[] = {GE_DTYPE_FLOAT32, GE_DTYPE_INT64, GE_DTYPE_INT32, GE_DTYPE_BOOL, GE_DTYPE_UINT8,
                                        GE_DTYPE_INT8,    GE_DTYPE_FLOAT16};

static void fc_make_nonzero(fc_case *t, tu_rng *r, int s) {
  int32_t rank = (int32_t)fc_range(r, 0, 4), k;
  int64_t dims[4], i, zeros = fc_range(r, 0, 4);
  ge_dtype dt = fc_nz_dtypes[tu_below(r, 7)];
  for (k = 0; k < rank; k++) dims[k] = fc_range(r, s % 10 == 0 ? 0 : 1, 7);
  fc_init(t, "NonZero", 1, 1);
  fc_in(t, 0, dt, rank, dims, 0);
  for (i = 0; i < t->in[0].numel; i++) {
    int64_t v = tu_below(r, 4) < (uint32_t)zeros ? 0 : fc_range(r, -3, 3);
    switch (dt) {
    case GE_DTYPE_FLOAT32:
      ((float *)t->in[0].data)[i] = v == 0 && tu_below(r, 3) == 0 ? -0.0f : v == 3 && s % 5 == 0 ? NAN : (float)v / 2;
      break;
    case GE_DTYPE_INT64: ((int64_t *)t->in[0].data)[i] = v << 40; break;
    case GE_DTYPE_INT32: ((int32_t *)t->in[0].data)[i] = (int32_t)v; break;
    case GE_DTYPE_FLOAT16: ((uint16_t *)t->in[0].data)[i] = ge_float_to_half((float)v); break;
    case GE_DTYPE_BOOL: ((uint8_t *)t->in[0].data)[i] = v != 0; break;
    default: ((int8_t *)t->in[0].data)[i] = (int8_t)v; break;
    }
  }
  fc_build(t);
}

GE_TEST(test_nonzero_matches_reference) {
  int good = fc_sweep(fc_make_nonzero, 54000, 300, -1);
  GE_CHECK(good == 300);
}

/* ------------------------------------------------- the check can fail */

/* A fast result with one element changed (a RoiAlign value by 1e-4, a
 * TopK index swapped with its tied neighbour's) must be refused. */
GE_TEST(test_mutation_is_caught) {
  const ge_engine *e = ge_ai_cpu_ascend_engine();
  fc_case t;
  fc_result a, b;
  tu_rng r;
  int s, caught = 0, tried = 0;
  for (s = 1; s < 40 && tried < 6; s++) {
    tu_seed(&r, 51000 + (uint64_t)s);
    fc_make_roi(&t, &r, s);
    fc_run(&t, ge_host_cpu_kernel(ge_graph_node(t.g, t.id)), 0, &a);
    fc_run(&t, e->kernel(e, ge_graph_node(t.g, t.id)), 0, &b);
    if (a.st == GE_OK && b.out[0].numel > 0 && fc_agrees(&t, &a, &b, 2e-5)) {
      ((float *)b.out[0].data)[b.out[0].numel / 2] += 1e-4f;
      caught += !fc_agrees(&t, &a, &b, 2e-5);
      tried++;
    }
    fc_result_free(&a);
    fc_result_free(&b);
    fc_free(&t);
  }
  GE_CHECK(tried == 6 && caught == tried);
  for (s = 1, tried = caught = 0; s < 200 && tried < 6; s++) {
    tu_seed(&r, 52000 + (uint64_t)s);
    fc_make_topk(&t, &r, s);
    fc_run(&t, ge_host_cpu_kernel(ge_graph_node(t.g, t.id)), 0, &a);
    fc_run(&t, e->kernel(e, ge_graph_node(t.g, t.id)), 0, &b);
    if (a.st == GE_OK && b.out[1].numel >= 2 && fc_agrees(&t, &a, &b, -1)) {
      int64_t *ix = (int64_t *)b.out[1].data, j, tmp;
      for (j = 0; j + 1 < b.out[1].numel; j++)
        if (((const float *)b.out[0].data)[j] == ((const float *)b.out[0].data)[j + 1] && ix[j] != ix[j + 1]) break;
      if (j + 1 < b.out[1].numel) { /* a tie: the order of its indices is what is checked */
        tmp = ix[j], ix[j] = ix[j + 1], ix[j + 1] = tmp;
        caught += !fc_agrees(&t, &a, &b, -1);
        tried++;
      }
    }
    fc_result_free(&a);
    fc_result_free(&b);
    fc_free(&t);
  }
  GE_CHECK(tried == 6 && caught == tried);
}

/* A fast kernel off its paths (TopK of int64 values: the reference's) gets
 * the reference prepared once into its context's ref_state at load, so no
 * run parses attributes; its own state stays apart; the outputs match the
 * plain reference's, and the executor's free takes both states. */
GE_TEST(test_fallback_reference_is_prepared) {
  const ge_engine *e = ge_ai_cpu_ascend_engine();
  fc_case t;
  fc_result ref;
  ge_kernel_env env;
  ge_kernel_ctx c;
  ge_value out[2], *outs[2] = {&out[0], &out[1]}, *ins[2];
  ge_kernel_fn fast;
  void *prepared;
  int64_t dims[2] = {3, 50}, i;
  int run;
  fc_init(&t, "TopK", 2, 2);
  fc_in(&t, 0, GE_DTYPE_INT64, 2, dims, 0);
  fc_in(&t, 1, GE_DTYPE_INT64, 1, (const int64_t[]){1}, 1);
  for (i = 0; i < t.in[0].numel; i++) ((int64_t *)t.in[0].data)[i] = (i * 7919) % 101 - 50;
  ((int64_t *)t.in[1].data)[0] = 5;
  GE_REQUIRE(fc_build(&t));
  fast = e->kernel(e, ge_graph_node(t.g, t.id));
  GE_REQUIRE(fast && fast != ge_host_cpu_kernel(ge_graph_node(t.g, t.id)));
  fc_run(&t, ge_host_cpu_kernel(ge_graph_node(t.g, t.id)), 0, &ref);
  GE_REQUIRE(ref.st == GE_OK);
  memset(&env, 0, sizeof env);
  env.alloc_output = kh_alloc_output;
  env.num_threads = 1;
  memset(&c, 0, sizeof c);
  memset(out, 0, sizeof out);
  ins[0] = &t.in[0], ins[1] = &t.in[1];
  c.inputs = ins, c.outputs = outs, c.num_inputs = 2, c.num_outputs = 2;
  c.node = ge_graph_node(t.g, t.id), c.graph = t.g, c.env = &env, c.err = &t.err;
  c.flags = GE_KERNEL_FIXED_SHAPES;
  GE_CHECK_EQ_INT(kh_prepare(fast, &c), GE_OK);
  prepared = c.ref_state;
  GE_CHECK(prepared != NULL && prepared != c.state);
  for (run = 0; run < 2; run++) {
    GE_CHECK_EQ_INT(fast(&c), GE_OK);
    GE_CHECK(c.ref_state == prepared);
    GE_CHECK(fc_diff(&ref.out[0], &out[0], -1) == 0 && fc_diff(&ref.out[1], &out[1], -1) == 0);
  }
  ge_kernel_free_state(&c);
  GE_CHECK(!c.state && !c.ref_state);
  kh_free(&out[0]), kh_free(&out[1]);
  fc_result_free(&ref);
  fc_free(&t);
}

int main(int argc, char **argv) {
  ge_test_init(argc, argv);
  GE_RUN(test_roi_align_matches_reference);
  GE_RUN(test_topk_matches_reference);
  GE_RUN(test_scatter_elements_matches_reference);
  GE_RUN(test_nonzero_matches_reference);
  GE_RUN(test_mutation_is_caught);
  GE_RUN(test_fallback_reference_is_prepared);
  return ge_test_main_end();
}

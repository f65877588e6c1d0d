/* Low-precision fast paths against the reference kernels of host_cpu.h:
 * float16 conversion (F16C or scalar) bit for bit, the fast Cast, float16
 * promotion (ge_engines/half_kernels.h: a float16 graph run by a session
 * equals its float32 twin rounded to float16, and stays near the float16
 * reference), and the quantization kernels (ge_engines/quant_kernels.h:
 * DynamicQuantizeLinear, QuantizeLinear, DequantizeLinear, ConvInteger,
 * MatMulInteger, QLinearConv, QLinearMatMul) bit for bit on seeded random shapes, values and
 * attributes, serially and on a two-thread pool, with Const weights packed
 * once and reused; the integer products on every GEMM ISA the CPU has
 * (scalar, AVX2, AVX512-VNNI). */
#define GE_QUANT_KERNELS_IMPLEMENTATION /* its private ge__qk_* and test knobs; the rest from libge.a */
#define GE_QUANT_TEST_KNOBS /* the integer GEMM on every ISA, small GEMMs split */
#include "ge_session.h"
#include "tests/test.h"
#include "tests/kernel_harness.h"
#include "tests/rng.h"
#include "tests/test_pool.h"

#include <math.h>
#include <stdlib.h>

/* Runs fn on node id `reps` times with one kernel state (so packed
 * weights are reused), then frees the state. */
static ge_status run_node(ge_kernel_fn fn, const ge_graph *g, ge_node_id id, ge_value **in, uint32_t n_in,
                          ge_value *out, uint32_t n_out, int threads, int reps, ge_error *err) {
  ge_kernel_env env;
  ge_kernel_ctx c;
  ge_value *outs[8];
  ge_status st = GE_OK;
  uint32_t i;
  memset(&env, 0, sizeof env);
  env.alloc_output = kh_alloc_output;
  env.num_threads = threads ? 2 : 1;
  env.parallel_for = threads ? tp_parallel_for : NULL;
  memset(&c, 0, sizeof c);
  for (i = 0; i < n_out && i < 8; i++) outs[i] = &out[i];
  c.inputs = in;
  c.outputs = outs;
  c.num_inputs = n_in;
  c.num_outputs = n_out;
  c.node = ge_graph_node(g, id);
  c.graph = g;
  c.env = &env;
  c.err = err;
  if (fn == ge_quant_fast_kernel(c.node) && ge_quant_fast_prepare(c.node)) { /* prepared at load first */
    c.flags = GE_KERNEL_FIXED_SHAPES;
    st = kh_prepare(ge_quant_fast_prepare(c.node), &c);
    c.flags = 0;
  }
  for (i = 0; i < (uint32_t)reps && st == GE_OK; i++) st = fn(&c);
  ge_kernel_free_state(&c);
  return st;
}

static int same_value(const ge_value *a, const ge_value *b) {
  int32_t i;
  if (a->dtype != b->dtype || a->rank != b->rank || a->nbytes != b->nbytes) return 0;
  for (i = 0; i < a->rank; i++)
    if (a->dims[i] != b->dims[i]) return 0;
  return a->nbytes == 0 || memcmp(a->data, b->data, a->nbytes) == 0;
}

static float rnd_float(tu_rng *r, float lo, float hi) { return lo + (hi - lo) * (float)tu_below(r, 1u << 24) / 16777216.0f; }

/* ------------------------------------------------ float16 conversion */

GE_TEST(test_half_conversion_bits) {
  static uint16_t h[65536], h2[40007];
  static float f[65536], f2[40007];
  tu_rng r;
  uint32_t i, bad = 0;
  for (i = 0; i < 65536; i++) h[i] = (uint16_t)i;
  ge_half_to_float_n(h, f, 65536);
  for (i = 0; i < 65536; i++) {
    float want = ge_half_to_float((uint16_t)i);
    if (want != want ? f[i] == f[i] : memcmp(&want, &f[i], 4) != 0) bad++;
  }
  GE_CHECK_EQ_INT(bad, 0);
  /* every half back to itself (NaNs stay NaNs) */
  ge_float_to_half_n(f, h2, 40000);
  for (i = 0, bad = 0; i < 40000; i++)
    if (((i & 0x7C00) == 0x7C00 && (i & 0x3FF)) ? (h2[i] & 0x7FFF) <= 0x7C00 : h2[i] != i) bad++;
  GE_CHECK_EQ_INT(bad, 0);
  /* random float bits: ties, subnormals, overflow, odd lengths */
  tu_seed(&r, 16);
  for (i = 0; i < 40007; i++) {
    uint32_t b = (uint32_t)tu_next(&r);
    if (i % 3 == 0) b = (b & 0x80000000u) | ((uint32_t)(102 + tu_below(&r, 40)) << 23) | (b & 0x7FE000u) | 0x1000u;
    memcpy(&f2[i], &b, 4);
  }
  ge_float_to_half_n(f2, h2, 40007);
  for (i = 0, bad = 0; i < 40007; i++) {
    uint16_t want = ge_float_to_half(f2[i]);
    if (f2[i] != f2[i] ? (h2[i] & 0x7FFF) <= 0x7C00 : h2[i] != want) bad++;
  }
  GE_CHECK_EQ_INT(bad, 0);
  printf("    (F16C %s)\n", ge_half_f16c() ? "in use" : "absent: scalar path");
}

GE_TEST(test_fast_cast_against_reference) {
  static const ge_dtype from[] = {GE_DTYPE_FLOAT32, GE_DTYPE_FLOAT16, GE_DTYPE_INT32, GE_DTYPE_UINT8, GE_DTYPE_INT8};
  static const ge_dtype to[] = {GE_DTYPE_FLOAT16, GE_DTYPE_FLOAT32, GE_DTYPE_FLOAT32, GE_DTYPE_FLOAT32, GE_DTYPE_FLOAT32};
  tu_rng r;
  int k, th, trial;
  tu_seed(&r, 161);
  for (k = 0; k < 5; k++)
    for (trial = 0; trial < 4; trial++)
      for (th = 0; th < 2; th++) {
        int64_t dims[2] = {1 + tu_below(&r, 300), 1 + tu_below(&r, 700)}, i;
        ge_value x = kh_value(from[k], 2, dims, NULL), *in[1], got[1], want[1];
        kt t;
        ge_error err;
        for (i = 0; i < (int64_t)x.nbytes; i++) ((uint8_t *)x.data)[i] = (uint8_t)tu_next(&r);
        if (from[k] == GE_DTYPE_FLOAT32) /* no NaNs: payloads differ by design */
          for (i = 0; i < x.numel; i++)
            if (((float *)x.data)[i] != ((float *)x.data)[i]) ((float *)x.data)[i] = 1.5f;
        if (from[k] == GE_DTYPE_FLOAT16)
          for (i = 0; i < x.numel; i++)
            if ((((uint16_t *)x.data)[i] & 0x7C00) == 0x7C00) ((uint16_t *)x.data)[i] = 0x3C00;
        in[0] = &x;
        memset(got, 0, sizeof got);
        memset(want, 0, sizeof want);
        GE_REQUIRE(kt_make(&t, "Cast", 1, in, 1));
        GE_REQUIRE(ge_node_set_attr_int(t.g, t.id, "to", to[k], NULL) == GE_OK);
        ge_graph_node(t.g, t.id)->outputs[0].dtype = to[k];
        GE_REQUIRE(ge_half_fast_kernel(ge_graph_node(t.g, t.id)) != NULL);
        GE_CHECK(run_node(ge_half_fast_kernel(ge_graph_node(t.g, t.id)), t.g, t.id, in, 1, got, 1, th, 1, &err) ==
                 GE_OK);
        GE_CHECK(kh_run(ge_host_cpu_kernel(ge_graph_node(t.g, t.id)), t.g, t.id, in, 1, want, 1, &err) == GE_OK);
        if (!GE_CHECK(same_value(&got[0], &want[0])))
          printf("    Cast %s -> %s differs\n", ge_dtype_name(from[k]), ge_dtype_name(to[k]));
        kh_free(&got[0]);
        kh_free(&want[0]);
        kh_free(&x);
        kt_free(&t);
      }
}

/* ------------------------------------------------ float16 promotion */

static ge_node_id add_const(ge_graph *g, ge_dtype dt, int32_t rank, const int64_t *dims, tu_rng *r, float scale) {
  ge_tensor t;
  int64_t n = 1, i;
  int32_t k;
  void *data;
  ge_node_id id = GE_NONE;
  for (k = 0; k < rank; k++) n *= dims[k];
  data = malloc((size_t)n * 4);
  for (i = 0; i < n; i++) {
    float v = rnd_float(r, -scale, scale);
    if (dt == GE_DTYPE_FLOAT16) ((uint16_t *)data)[i] = ge_float_to_half(v);
    else ((float *)data)[i] = ge_half_to_float(ge_float_to_half(v)); /* same values in both twins */
  }
  memset(&t, 0, sizeof t);
  t.dtype = dt;
  t.rank = rank;
  t.dims = (int64_t *)dims;
  t.data = data;
  t.nbytes = (size_t)n * ge_dtype_size(dt);
  ge_graph_add_const(g, NULL, &t, &id, NULL);
  free(data);
  return id;
}

static ge_node_id add_op(ge_graph *g, const char *op, uint32_t n, ge_node_id a, ge_node_id b, ge_node_id c) {
  ge_edge e[3];
  ge_node_id id = GE_NONE, ids[3];
  uint32_t i;
  ids[0] = a, ids[1] = b, ids[2] = c;
  for (i = 0; i < n; i++) e[i].node = ids[i], e[i].index = 0;
  ge_graph_add_node(g, op, NULL, n, e, 1, &id, NULL);
  return id;
}

/* x -> Conv(W, B) -> BatchNormalization -> HardSwish -> Add(Const) ->
 * MaxPool -> GlobalAveragePool -> Reshape -> MatMul -> Softmax, in dt,
 * with the same values whatever dt (the seed fixes them). */
static ge_graph *promo_graph(ge_dtype dt, uint64_t seed) {
  ge_graph *g = NULL;
  tu_rng r;
  ge_node_id x, w, b, cv, sc, bb, mu, var, bn, hs, ad, mp, gp, rs, mm, sm, shp;
  int64_t xd[4] = {1, 3, 12, 10}, wd[4] = {8, 3, 3, 3}, bd[1] = {8}, ad_d[4] = {1, 8, 1, 10}, md[2] = {8, 5};
  int64_t sd[1] = {2}, sv[2] = {1, 8};
  ge_tensor st;
  ge_edge out;
  tu_seed(&r, seed);
  if (ge_graph_create(NULL, &g, NULL) != GE_OK) return NULL;
  ge_graph_add_data(g, "x", dt, 4, xd, &x, NULL);
  w = add_const(g, dt, 4, wd, &r, 0.5f);
  b = add_const(g, dt, 1, bd, &r, 0.5f);
  cv = add_op(g, "Conv", 3, x, w, b);
  ge_node_set_attr_ints(g, cv, "pads", (const int64_t[]){1, 1, 1, 1}, 4, NULL);
  sc = add_const(g, dt, 1, bd, &r, 1.0f);
  bb = add_const(g, dt, 1, bd, &r, 0.5f);
  mu = add_const(g, dt, 1, bd, &r, 0.5f);
  var = add_const(g, dt, 1, bd, &r, 0.5f);
  { /* variances positive */
    ge_node *vn = ge_graph_node(g, var);
    const ge_attr *a = ge_node_attr(vn, "value");
    int i;
    for (i = 0; i < 8; i++) {
      if (dt == GE_DTYPE_FLOAT16) ((uint16_t *)a->v.t->data)[i] &= 0x7FFF;
      else ((float *)a->v.t->data)[i] = fabsf(((float *)a->v.t->data)[i]);
    }
  }
  {
    ge_edge e[5];
    ge_node_id ids[5];
    int i;
    ids[0] = cv, ids[1] = sc, ids[2] = bb, ids[3] = mu, ids[4] = var;
    for (i = 0; i < 5; i++) e[i].node = ids[i], e[i].index = 0;
    ge_graph_add_node(g, "BatchNormalization", NULL, 5, e, 1, &bn, NULL);
  }
  hs = add_op(g, "HardSwish", 1, bn, 0, 0);
  ad = add_op(g, "Add", 2, hs, add_const(g, dt, 4, ad_d, &r, 1.0f), 0);
  mp = add_op(g, "MaxPool", 1, ad, 0, 0);
  ge_node_set_attr_ints(g, mp, "kernel_shape", (const int64_t[]){2, 2}, 2, NULL);
  gp = add_op(g, "GlobalAveragePool", 1, mp, 0, 0);
  memset(&st, 0, sizeof st);
  st.dtype = GE_DTYPE_INT64;
  st.rank = 1;
  st.dims = sd;
  st.data = sv;
  st.nbytes = sizeof sv;
  ge_graph_add_const(g, NULL, &st, &shp, NULL);
  rs = add_op(g, "Reshape", 2, gp, shp, 0);
  mm = add_op(g, "MatMul", 2, rs, add_const(g, dt, 2, md, &r, 1.0f), 0);
  sm = add_op(g, "Softmax", 1, mm, 0, 0);
  out.node = sm;
  out.index = 0;
  if (ge_graph_set_outputs(g, 1, &out, NULL, NULL) != GE_OK) {
    ge_graph_free(g);
    return NULL;
  }
  return g;
}

/* Runs g (owned) in a session at level with input x; copies output 0. */
static int run_graph(ge_graph *g, ge_compile_level level, int threads, const ge_value *x, ge_value *out) {
  ge_session_desc d;
  ge_session *s = NULL;
  ge_error err;
  const ge_value *in[1], *y;
  int ok = 0;
  memset(&d, 0, sizeof d);
  d.level = level;
  d.num_threads = threads;
  in[0] = x;
  if (!ge_session_create(&d, &s, &err) && !ge_session_add_graph(s, 1, g, &err) &&
      !ge_session_run_graph(s, 1, in, 1, &err) && (y = ge_session_output(s, 1, 0)) != NULL) {
    *out = kh_value(y->dtype, y->rank, y->dims, y->data);
    ok = 1;
  } else {
    printf("    session: %s\n", err.message);
  }
  ge_session_free(s);
  return ok;
}

GE_TEST(test_promotion_equals_float32_twin) {
  tu_rng r;
  int seed, th;
  tu_seed(&r, 1616);
  for (seed = 1; seed <= 4; seed++)
    for (th = 1; th <= 2; th++) {
      int64_t xd[4] = {1, 3, 12, 10}, i;
      ge_value x16 = kh_value(GE_DTYPE_FLOAT16, 4, xd, NULL), x32 = kh_value(GE_DTYPE_FLOAT32, 4, xd, NULL);
      ge_value fast, ref, twin;
      double worst = 0;
      int bad = 0;
      for (i = 0; i < x16.numel; i++) {
        uint16_t h = ge_float_to_half(rnd_float(&r, -2.0f, 2.0f));
        ((uint16_t *)x16.data)[i] = h;
        ((float *)x32.data)[i] = ge_half_to_float(h);
      }
      GE_REQUIRE(run_graph(promo_graph(GE_DTYPE_FLOAT16, (uint64_t)seed), GE_COMPILE_FULL, th, &x16, &fast));
      GE_REQUIRE(run_graph(promo_graph(GE_DTYPE_FLOAT16, (uint64_t)seed), GE_COMPILE_REFERENCE, 1, &x16, &ref));
      GE_REQUIRE(run_graph(promo_graph(GE_DTYPE_FLOAT32, (uint64_t)seed), GE_COMPILE_FULL, th, &x32, &twin));
      GE_CHECK(fast.dtype == GE_DTYPE_FLOAT16 && fast.numel == twin.numel && ref.numel == twin.numel);
      for (i = 0; i < fast.numel && i < twin.numel && i < ref.numel; i++) {
        uint16_t got = ((uint16_t *)fast.data)[i];
        double d = fabs((double)ge_half_to_float(got) - (double)ge_half_to_float(((uint16_t *)ref.data)[i]));
        bad += got != ge_float_to_half(((float *)twin.data)[i]);
        if (d > worst) worst = d;
      }
      GE_CHECK_EQ_INT(bad, 0);      /* promoted: the float32 kernels, rounded once at the output */
      GE_CHECK(worst <= 1e-2);      /* and near the float16 reference */
      kh_free(&x16), kh_free(&x32), kh_free(&fast), kh_free(&ref), kh_free(&twin);
    }
}

GE_TEST(test_promotion_structure) {
  ge_graph *g = promo_graph(GE_DTYPE_FLOAT16, 7);
  ge_error err;
  ge_node *n;
  uint32_t before, after, i, halves = 0;
  GE_REQUIRE(g != NULL);
  for (i = 1; ge_half_promoted_op(i); i++) GE_CHECK(strcmp(ge_half_promoted_op(i - 1), ge_half_promoted_op(i)) < 0);
  GE_REQUIRE(ge_graph_infer_shapes(g, &err) == GE_OK);
  GE_REQUIRE(ge_half_promote(g, &err) == GE_OK);
  GE_REQUIRE(ge_graph_infer_shapes(g, &err) == GE_OK);
  before = ge_graph_node_count(g);
  GE_CHECK(ge_half_promote(g, &err) == GE_OK); /* idempotent */
  after = ge_graph_node_count(g);
  GE_CHECK_EQ_INT(after, before);
  GE_GRAPH_FOREACH(g, n) {
    if (!strcmp(n->op, "Data") || !strcmp(n->op, "NetOutput")) continue;
    if (!strcmp(n->op, "Cast")) continue;
    for (i = 0; i < n->num_outputs; i++) halves += n->outputs[i].dtype == GE_DTYPE_FLOAT16;
  }
  GE_CHECK_EQ_INT(halves, 0); /* float16 lives only at the interface */
  n = ge_graph_node(g, ge_graph_output_node(g));
  GE_CHECK(ge_node_input_desc(g, n, 0)->dtype == GE_DTYPE_FLOAT16);
  ge_graph_free(g);
}

/* ---------------------------------------------------- quantization */

static void fill_q8(tu_rng *r, ge_value *v, int extremes) {
  int64_t i;
  for (i = 0; i < v->numel; i++) {
    uint8_t b = (uint8_t)tu_next(r);
    if (extremes && tu_below(r, 2)) b = tu_below(r, 2) ? 0x7F : 0x80;
    if (extremes && v->dtype == GE_DTYPE_UINT8) b = tu_below(r, 3) ? (tu_below(r, 2) ? 255 : 0) : b;
    ((uint8_t *)v->data)[i] = b;
  }
}

static ge_dtype q8(tu_rng *r) { return tu_below(r, 2) ? GE_DTYPE_UINT8 : GE_DTYPE_INT8; }

/* Runs op with inputs in[] (Const producers for the indices in const_mask)
 * through the fast kernel (twice, one state) and the reference; checks
 * the outputs are identical. */
static int check_op(const char *op, ge_value **in, uint32_t n_in, uint32_t n_out, unsigned const_mask, int th,
                    void (*attrs)(ge_graph *, ge_node_id, void *), void *arg) {
  ge_graph *g = NULL;
  ge_edge e[10];
  ge_node_id id;
  ge_value got[3], want[3];
  ge_error err;
  ge_status s1, s2;
  uint32_t i;
  int ok = 1;
  memset(got, 0, sizeof got);
  memset(want, 0, sizeof want);
  if (ge_graph_create(NULL, &g, NULL) != GE_OK) return 0;
  for (i = 0; i < n_in; i++) {
    e[i].node = GE_NONE;
    e[i].index = 0;
    if (!in[i]) continue;
    if (const_mask >> i & 1u) {
      ge_tensor t;
      memset(&t, 0, sizeof t);
      t.dtype = in[i]->dtype;
      t.rank = in[i]->rank;
      t.dims = in[i]->dims;
      t.data = in[i]->data;
      t.nbytes = in[i]->nbytes;
      ge_graph_add_const(g, NULL, &t, &e[i].node, NULL);
    } else {
      ge_graph_add_data(g, NULL, in[i]->dtype, in[i]->rank, in[i]->dims, &e[i].node, NULL);
    }
  }
  ge_graph_add_node(g, op, "n", n_in, e, (int32_t)n_out, &id, NULL);
  if (attrs) attrs(g, id, arg);
  if (!ge_quant_fast_kernel(ge_graph_node(g, id))) ok = 0;
  s1 = ok ? run_node(ge_quant_fast_kernel(ge_graph_node(g, id)), g, id, in, n_in, got, n_out, th, 2, &err) : GE_OK;
  s2 = kh_run(ge_host_cpu_kernel(ge_graph_node(g, id)), g, id, in, n_in, want, n_out, &err);
  if (ok && s1 != GE_OK && s1 == s2) { /* off the fast path: the reference's error, word for word */
    ge_error e1;
    memset(&e1, 0, sizeof e1);
    run_node(ge_quant_fast_kernel(ge_graph_node(g, id)), g, id, in, n_in, got, n_out, th, 1, &e1);
    ok = strcmp(e1.message, err.message) == 0;
    for (i = 0; i < n_out; i++) kh_free(&got[i]), kh_free(&want[i]);
    ge_graph_free(g);
    return ok;
  }
  ok = ok && s1 == GE_OK && s2 == GE_OK;
  for (i = 0; i < n_out && ok; i++) ok = same_value(&got[i], &want[i]);
  for (i = 0; i < n_out; i++) kh_free(&got[i]), kh_free(&want[i]);
  ge_graph_free(g);
  return ok;
}

GE_TEST(test_dynamic_quantize_linear) {
  tu_rng r;
  int trial, th;
  tu_seed(&r, 1601);
  for (trial = 0; trial < 60; trial++)
    for (th = 0; th < 2; th++) {
      int64_t dims[3] = {1 + tu_below(&r, 4), 1 + tu_below(&r, 60), 1 + tu_below(&r, 300)}, i;
      ge_value x = kh_value(GE_DTYPE_FLOAT32, 3, dims, NULL), *in[1];
      float lo = rnd_float(&r, -50, 10), hi = lo + rnd_float(&r, 0, 60);
      int kind = trial % 6;
      for (i = 0; i < x.numel; i++) {
        float v = rnd_float(&r, lo, hi);
        if (kind == 1) v = 0;                                /* scale 0 */
        if (kind == 2) v = 3.25f;                            /* constant */
        if (kind == 3 && tu_below(&r, 7) == 0) v = NAN;      /* NaNs are skipped, quantize to 0 */
        if (kind == 4) v = (float)(int)rnd_float(&r, -6, 6) * 0.5f; /* ties */
        ((float *)x.data)[i] = v;
      }
      in[0] = &x;
      if (!GE_CHECK(check_op("DynamicQuantizeLinear", in, 1, 3, 0, th, NULL, NULL)))
        printf("    trial %d kind %d\n", trial, kind);
      kh_free(&x);
    }
}

/* DynamicQuantizeLinear's scale is (max - min) / 255 in float32 (two
 * roundings, as the spec on float32 x and ONNX Runtime), not the exact
 * quotient rounded once: the two differ by an ulp on about a quarter of
 * random inputs, which flips quantized values downstream. */
GE_TEST(test_dynamic_quantize_scale_in_float32) {
  tu_rng r;
  int trial, off = 0;
  tu_seed(&r, 1605);
  for (trial = 0; trial < 200; trial++) {
    int64_t n = 1 + tu_below(&r, 64), i;
    ge_value x = kh_value(GE_DTYPE_FLOAT32, 1, &n, NULL), out[3], *in[1];
    ge_graph *g = NULL;
    ge_edge e;
    ge_node_id id;
    ge_error err;
    float mn = 0, mx = 0, want;
    for (i = 0; i < n; i++) {
      float v = rnd_float(&r, -3, 3) * (float)(1 + tu_below(&r, 1000));
      ((float *)x.data)[i] = v;
      if (v < mn) mn = v;
      if (v > mx) mx = v;
    }
    want = (mx - mn) / 255.0f;
    memset(out, 0, sizeof out);
    in[0] = &x;
    GE_REQUIRE(ge_graph_create(NULL, &g, NULL) == GE_OK);
    ge_graph_add_data(g, NULL, GE_DTYPE_FLOAT32, 1, &n, &e.node, NULL);
    e.index = 0;
    ge_graph_add_node(g, "DynamicQuantizeLinear", "n", 1, &e, 3, &id, NULL);
    GE_CHECK(kh_run(ge_host_cpu_kernel(ge_graph_node(g, id)), g, id, in, 1, out, 3, &err) == GE_OK);
    off += ((float *)out[1].data)[0] != want;
    for (i = 0; i < 3; i++) kh_free(&out[i]);
    kh_free(&x);
    ge_graph_free(g);
  }
  GE_CHECK_EQ_INT(off, 0); /* the fast kernel equals the reference (test_dynamic_quantize_linear) */
}

static void set_axis(ge_graph *g, ge_node_id id, void *arg) { (void)g, (void)id, (void)arg; }

GE_TEST(test_quantize_dequantize_linear) {
  tu_rng r;
  int trial, th;
  tu_seed(&r, 1602);
  for (trial = 0; trial < 60; trial++)
    for (th = 0; th < 2; th++) {
      int64_t dims[2] = {1 + tu_below(&r, 40), 1 + tu_below(&r, 500)}, one = 1, i;
      ge_dtype qt = q8(&r);
      ge_value x = kh_value(GE_DTYPE_FLOAT32, 2, dims, NULL), s = kh_value(GE_DTYPE_FLOAT32, 0, &one, NULL);
      ge_value z = kh_value(qt, 0, &one, NULL), q = kh_value(qt, 2, dims, NULL), *in[3];
      ((float *)s.data)[0] = trial % 5 == 0 ? 0.5f : rnd_float(&r, 0.001f, 0.2f);
      fill_q8(&r, &z, 0);
      fill_q8(&r, &q, trial % 3 == 0);
      for (i = 0; i < x.numel; i++) ((float *)x.data)[i] = trial % 5 == 0 ? (float)(int)rnd_float(&r, -300, 300) * 0.25f
                                                                          : rnd_float(&r, -40, 40);
      if (trial % 7 == 0) ((float *)x.data)[0] = NAN;
      in[0] = &x, in[1] = &s, in[2] = trial % 4 == 1 ? NULL : &z;
      GE_CHECK(check_op("QuantizeLinear", in, 3, 1, 0, th, set_axis, NULL));
      in[0] = &q;
      in[2] = trial % 4 == 1 ? NULL : &z;
      if (!in[2] && qt == GE_DTYPE_INT8) in[2] = &z;
      GE_CHECK(check_op("DequantizeLinear", in, 3, 1, 0, th, NULL, NULL));
      kh_free(&x), kh_free(&s), kh_free(&z), kh_free(&q);
    }
}

typedef struct conv_attrs {
  int64_t group, s[2], d[2], p[4], sp;
  const char *auto_pad;
} conv_attrs;

static void set_conv(ge_graph *g, ge_node_id id, void *arg) {
  const conv_attrs *a = (const conv_attrs *)arg;
  int64_t p1[2];
  if (a->group != 1) ge_node_set_attr_int(g, id, "group", a->group, NULL);
  if (a->auto_pad) ge_node_set_attr_string(g, id, "auto_pad", a->auto_pad, NULL);
  if (a->sp == 2) {
    ge_node_set_attr_ints(g, id, "strides", a->s, 2, NULL);
    ge_node_set_attr_ints(g, id, "dilations", a->d, 2, NULL);
    if (!a->auto_pad) ge_node_set_attr_ints(g, id, "pads", a->p, 4, NULL);
  } else {
    ge_node_set_attr_ints(g, id, "strides", &a->s[1], 1, NULL);
    ge_node_set_attr_ints(g, id, "dilations", &a->d[1], 1, NULL);
    p1[0] = a->p[1], p1[1] = a->p[3];
    if (!a->auto_pad) ge_node_set_attr_ints(g, id, "pads", p1, 2, NULL);
  }
}

/* Each integer GEMM ISA this CPU has (scalar, AVX2, AVX512-VNNI): the
 * caps ge__qk_isa() honours. */
static int isa_count(void) {
  int saved = ge__qk_isa_cap, top;
  ge__qk_isa_cap = GE__QK_ISA_VNNI;
  top = ge__qk_isa();
  ge__qk_isa_cap = saved;
  return top + 1;
}

static const char *const isa_names[] = {"scalar", "AVX2", "AVX512-VNNI"};

/* Runs trials at every integer GEMM ISA this CPU has. */
static void on_each_isa(void (*trials)(int isa)) {
  int isa;
  for (isa = 0; isa < isa_count(); isa++) {
    printf("    integer GEMM on %s\n", isa_names[isa]);
    trials(isa);
  }
}

static void conv_integer_trials(int isa) {
  static const char *const aps[] = {"SAME_UPPER", "SAME_LOWER", "VALID"};
  tu_rng r;
  int trial, th, fails = 0;
  tu_seed(&r, 1603 + 100 * (unsigned)isa);
  ge__qk_isa_cap = isa;
  ge__qk_share_grain_log2 = 0; /* small GEMMs split too */
  for (trial = 0; trial < 150; trial++)
    for (th = 0; th < 2; th++) {
      conv_attrs a;
      /* 0 dense, 1 depthwise, 2 grouped, 3 deep (K > 258, extreme values),
       * 4 one channel with a wide 1-D kernel and a long stride (an STFT) */
      int kind = trial % 5;
      int64_t cg = kind == 1 || kind == 4 ? 1 : kind == 3 ? 40 + tu_below(&r, 40) : 1 + tu_below(&r, 6);
      int64_t mg = kind == 1 ? 1 + tu_below(&r, 2) : 1 + tu_below(&r, kind == 0 ? 40 : 12);
      int64_t xd[4], wd[4], one = 1, md[1];
      ge_value x, w, zx, zw, *in[4];
      memset(&a, 0, sizeof a);
      a.sp = trial % 9 == 4 || kind == 4 ? 1 : 2;
      a.group = kind == 0 || kind == 3 || kind == 4 ? 1 : 1 + tu_below(&r, 4);
      if (kind == 1) a.group = 1 + tu_below(&r, 12);
      a.s[0] = 1 + tu_below(&r, 2), a.s[1] = 1 + tu_below(&r, 3);
      a.d[0] = 1 + (tu_below(&r, 4) == 0), a.d[1] = 1 + (tu_below(&r, 4) == 0);
      a.p[0] = tu_below(&r, 3), a.p[1] = tu_below(&r, 3), a.p[2] = tu_below(&r, 3), a.p[3] = tu_below(&r, 3);
      if (tu_below(&r, 5) == 0) a.auto_pad = aps[tu_below(&r, 3)];
      xd[0] = 1 + tu_below(&r, 2), xd[1] = cg * a.group;
      xd[2] = a.sp == 2 ? 3 + tu_below(&r, 14) : 1 + tu_below(&r, 200);
      xd[3] = 3 + tu_below(&r, 40);
      wd[0] = mg * a.group, wd[1] = cg;
      wd[2] = 1 + tu_below(&r, 3), wd[3] = 1 + tu_below(&r, 3);
      if (kind == 4) {
        wd[3] = 1 + tu_below(&r, 520), xd[3] = wd[3] + tu_below(&r, 900), a.s[1] = 1 + tu_below(&r, 200);
        a.d[1] = 1, a.p[1] = a.p[3] = 0, a.auto_pad = NULL;
      }
      if (a.sp == 1) xd[2] = xd[3], wd[2] = wd[3];
      x = kh_value(q8(&r), 2 + a.sp, xd, NULL);
      w = kh_value(q8(&r), 2 + a.sp, wd, NULL);
      zx = kh_value(x.dtype, 0, &one, NULL);
      md[0] = wd[0];
      zw = tu_below(&r, 2) ? kh_value(w.dtype, 1, md, NULL) : kh_value(w.dtype, 0, &one, NULL);
      fill_q8(&r, &x, kind == 3);
      fill_q8(&r, &w, kind == 3);
      fill_q8(&r, &zx, 0);
      fill_q8(&r, &zw, 0);
      if (kind == 3) { /* the worst case: |x - zx| and |w - zw| at 255 */
        int64_t i;
        for (i = 0; i < x.numel; i++) ((uint8_t *)x.data)[i] = x.dtype == GE_DTYPE_UINT8 ? 255 : 0x7F;
        ((uint8_t *)zx.data)[0] = x.dtype == GE_DTYPE_UINT8 ? 0 : 0x80;
        for (i = 0; i < zw.numel; i++) ((uint8_t *)zw.data)[i] = w.dtype == GE_DTYPE_UINT8 ? 0 : 0x80;
        for (i = 0; i < w.numel; i++) ((uint8_t *)w.data)[i] = w.dtype == GE_DTYPE_UINT8 ? 255 : 0x7F;
      }
      in[0] = &x, in[1] = &w, in[2] = tu_below(&r, 4) ? &zx : NULL, in[3] = tu_below(&r, 4) ? &zw : NULL;
      if (!GE_CHECK(check_op("ConvInteger", in, 4, 1, (trial & 8) ? 0xAu : 0u, th, set_conv, &a)) && fails++ < 5)
        printf("    trial %d kind %d sp %d x [%lld %lld %lld %lld] w [%lld %lld %lld %lld] group %lld\n", trial, kind,
               (int)a.sp, (long long)xd[0], (long long)xd[1], (long long)xd[2], (long long)xd[3], (long long)wd[0],
               (long long)wd[1], (long long)wd[2], (long long)wd[3], (long long)a.group);
      kh_free(&x), kh_free(&w), kh_free(&zx), kh_free(&zw);
    }
  ge__qk_isa_cap = GE__QK_ISA_VNNI;
  ge__qk_share_grain_log2 = 22;
}

GE_TEST(test_conv_integer) { on_each_isa(conv_integer_trials); }

static void matmul_integer_trials(int isa) {
  tu_rng r;
  int trial, th;
  tu_seed(&r, 1604 + 100 * (unsigned)isa);
  ge__qk_isa_cap = isa;
  ge__qk_share_grain_log2 = 0;
  for (trial = 0; trial < 80; trial++)
    for (th = 0; th < 2; th++) {
      int deep = trial % 4 == 3;
      int64_t K = deep ? 300 + tu_below(&r, 500) : 1 + tu_below(&r, 70), N = 1 + tu_below(&r, 150);
      int64_t ad[3] = {1 + tu_below(&r, 3), 1 + tu_below(&r, trial % 5 == 0 ? 90 : 40), K}, bd[2] = {K, N}, one = 1, i;
      int32_t ar = 2 + (int32_t)tu_below(&r, 2);
      ge_value A, B, za, zb, *in[4];
      if (ar == 2) ad[0] = ad[1], ad[1] = K;
      A = kh_value(q8(&r), ar, ad, NULL);
      B = kh_value(q8(&r), 2, bd, NULL);
      za = kh_value(A.dtype, 0, &one, NULL);
      zb = tu_below(&r, 2) ? kh_value(B.dtype, 1, &N, NULL) : kh_value(B.dtype, 0, &one, NULL);
      fill_q8(&r, &A, deep);
      fill_q8(&r, &B, deep);
      fill_q8(&r, &za, 0);
      fill_q8(&r, &zb, 0);
      if (deep) {
        for (i = 0; i < A.numel; i++) ((uint8_t *)A.data)[i] = A.dtype == GE_DTYPE_UINT8 ? 255 : 0x80;
        ((uint8_t *)za.data)[0] = A.dtype == GE_DTYPE_UINT8 ? 0 : 0x7F;
      }
      in[0] = &A, in[1] = &B, in[2] = tu_below(&r, 4) ? &za : NULL, in[3] = tu_below(&r, 4) ? &zb : NULL;
      if (!GE_CHECK(check_op("MatMulInteger", in, 4, 1, (trial & 4) ? 0xAu : 0u, th, NULL, NULL)))
        printf("    trial %d K %lld N %lld\n", trial, (long long)K, (long long)N);
      kh_free(&A), kh_free(&B), kh_free(&za), kh_free(&zb);
    }
  ge__qk_isa_cap = GE__QK_ISA_VNNI;
  ge__qk_share_grain_log2 = 22;
}

GE_TEST(test_matmul_integer) { on_each_isa(matmul_integer_trials); }

/* Quantization parameters of a QLinear trial: scales by kind (0 random,
 * 1 a multiplier of 1/2 (ties everywhere), 2 x_scale 0, 3 y_scale 0 (inf
 * and NaN products), 4 a tiny y_scale (saturation)), zero points random or
 * at the extremes. */
typedef struct qlin_params {
  ge_value xs, ws, ys, yz;
} qlin_params;

static void qlin_params_make(tu_rng *r, int kind, ge_dtype yt, int64_t m, qlin_params *q) {
  int64_t one = 1, i;
  q->xs = kh_value(GE_DTYPE_FLOAT32, 0, &one, NULL);
  q->ws = m > 0 ? kh_value(GE_DTYPE_FLOAT32, 1, &m, NULL) : kh_value(GE_DTYPE_FLOAT32, 0, &one, NULL);
  q->ys = kh_value(GE_DTYPE_FLOAT32, 0, &one, NULL);
  q->yz = kh_value(yt, 0, &one, NULL);
  ((float *)q->xs.data)[0] = kind == 1 ? 1.0f : kind == 2 ? 0.0f : rnd_float(r, 0.001f, 0.1f);
  for (i = 0; i < q->ws.numel; i++) ((float *)q->ws.data)[i] = kind == 1 ? 0.5f : rnd_float(r, 0.0005f, 0.05f);
  ((float *)q->ys.data)[0] = kind == 1 ? 1.0f : kind == 3 ? 0.0f : kind == 4 ? 1e-6f : rnd_float(r, 0.01f, 0.5f);
  fill_q8(r, &q->yz, tu_below(r, 2));
}

static void qlin_params_free(qlin_params *q) { kh_free(&q->xs), kh_free(&q->ws), kh_free(&q->ys), kh_free(&q->yz); }

static void qlinear_conv_trials(int isa) {
  tu_rng r;
  int trial, th, fails = 0;
  tu_seed(&r, 1606 + 100 * (unsigned)isa);
  ge__qk_isa_cap = isa;
  ge__qk_share_grain_log2 = 0;
  for (trial = 0; trial < 120; trial++)
    for (th = 0; th < 2; th++) {
      conv_attrs a;
      int kind = trial % 4; /* 0 dense, 1 depthwise, 2 grouped, 3 1-D */
      int qk = (trial / 4) % 5;
      int64_t cg = kind == 1 ? 1 : 1 + tu_below(&r, kind == 0 ? 20 : 5);
      int64_t mg = kind == 1 ? 1 + tu_below(&r, 2) : 1 + tu_below(&r, kind == 0 ? 40 : 12);
      int64_t xd[4], wd[4], one = 1, md[1], i;
      ge_value x, w, zx, zw, b, *in[9];
      qlin_params q;
      memset(&a, 0, sizeof a);
      a.sp = kind == 3 ? 1 : 2;
      a.group = kind == 0 || kind == 3 ? 1 : 2 + tu_below(&r, kind == 1 ? 24 : 3);
      a.s[0] = 1 + tu_below(&r, 2), a.s[1] = 1 + (tu_below(&r, 3) == 0);
      a.d[0] = 1 + (tu_below(&r, 4) == 0), a.d[1] = 1 + (tu_below(&r, 4) == 0);
      a.p[0] = tu_below(&r, 3), a.p[1] = tu_below(&r, 3), a.p[2] = tu_below(&r, 3), a.p[3] = tu_below(&r, 3);
      xd[0] = 1 + tu_below(&r, 2), xd[1] = cg * a.group;
      xd[2] = 3 + tu_below(&r, 20), xd[3] = 3 + tu_below(&r, 45);
      wd[0] = mg * a.group, wd[1] = cg, wd[2] = 1 + tu_below(&r, 5), wd[3] = 1 + tu_below(&r, 5);
      if (trial % 10 == 6) { /* pointwise: 1x1, stride 1, no pads */
        wd[2] = wd[3] = 1, a.s[0] = a.s[1] = 1, a.p[0] = a.p[1] = a.p[2] = a.p[3] = 0;
        cg = 1 + tu_below(&r, 30), xd[1] = cg * a.group, wd[1] = cg;
      }
      if (a.sp == 1) xd[2] = xd[3], wd[2] = wd[3];
      x = kh_value(q8(&r), 2 + a.sp, xd, NULL);
      w = kh_value(q8(&r), 2 + a.sp, wd, NULL);
      zx = kh_value(x.dtype, 0, &one, NULL);
      md[0] = wd[0];
      zw = tu_below(&r, 2) ? kh_value(w.dtype, 1, md, NULL) : kh_value(w.dtype, 0, &one, NULL);
      b = kh_value(GE_DTYPE_INT32, 1, md, NULL);
      fill_q8(&r, &x, trial % 3 == 0);
      fill_q8(&r, &w, trial % 3 == 0);
      fill_q8(&r, &zx, trial % 2);
      fill_q8(&r, &zw, 0);
      for (i = 0; i < b.numel; i++) /* near the int32 limits now and then: the sum wraps as in int32 */
        ((int32_t *)b.data)[i] = tu_below(&r, 9) == 0 ? (int32_t)(tu_below(&r, 2) ? 0x7FFFFFF0 : -0x7FFFFFF0)
                                                      : (int32_t)tu_below(&r, 40001) - 20000;
      qlin_params_make(&r, qk, q8(&r), tu_below(&r, 2) ? wd[0] : 0, &q);
      in[0] = &x, in[1] = &q.xs, in[2] = tu_below(&r, 4) ? &zx : NULL, in[3] = &w, in[4] = &q.ws;
      in[5] = tu_below(&r, 4) ? &zw : NULL, in[6] = &q.ys, in[7] = tu_below(&r, 5) ? &q.yz : NULL;
      in[8] = tu_below(&r, 4) ? &b : NULL;
      if (!GE_CHECK(check_op("QLinearConv", in, 9, 1, (trial & 8) ? 0x138u : 0u, th, set_conv, &a)) && fails++ < 5)
        printf("    trial %d kind %d scales %d x [%lld %lld %lld %lld] w [%lld %lld %lld %lld] group %lld\n", trial,
               kind, qk, (long long)xd[0], (long long)xd[1], (long long)xd[2], (long long)xd[3], (long long)wd[0],
               (long long)wd[1], (long long)wd[2], (long long)wd[3], (long long)a.group);
      kh_free(&x), kh_free(&w), kh_free(&zx), kh_free(&zw), kh_free(&b);
      qlin_params_free(&q);
    }
  ge__qk_isa_cap = GE__QK_ISA_VNNI;
  ge__qk_share_grain_log2 = 22;
}

GE_TEST(test_qlinear_conv) { on_each_isa(qlinear_conv_trials); }

/* Depthwise convs the way quantizers write them (int8 weights with a zero
 * point of 0, or one small enough that w - zw stays int8, so the
 * AVX512-VNNI depthwise path runs; now and then one that leaves int8),
 * kernels 1..7 with strides 1..3, dilations 1..2, images up to 90 wide,
 * several channels per thread: ConvInteger and QLinearConv bit for bit. */
static void depthwise_trials(int isa) {
  tu_rng r;
  int trial, th, fails = 0;
  tu_seed(&r, 1608 + 100 * (unsigned)isa);
  ge__qk_isa_cap = isa;
  for (trial = 0; trial < 160; trial++)
    for (th = 0; th < 2; th++) {
      conv_attrs a;
      int qlinear = trial % 2, mult = trial % 7 == 3 ? 2 : 1;
      int64_t k = 1 + tu_below(&r, 7), xd[4], wd[4], one = 1, md[1], i;
      ge_value x, w, zx, zw, b, *in[9];
      qlin_params q;
      memset(&a, 0, sizeof a);
      a.sp = trial % 11 == 5 ? 1 : 2;
      a.group = 1 + tu_below(&r, 40);
      a.s[0] = 1 + tu_below(&r, 3), a.s[1] = 1 + tu_below(&r, 3);
      a.d[0] = 1 + (tu_below(&r, 4) == 0), a.d[1] = 1 + (tu_below(&r, 4) == 0);
      a.p[0] = tu_below(&r, k), a.p[1] = tu_below(&r, k), a.p[2] = tu_below(&r, k), a.p[3] = tu_below(&r, k);
      xd[0] = 1 + tu_below(&r, 2), xd[1] = a.group;
      xd[2] = k * 2 + tu_below(&r, 40), xd[3] = k * 2 + tu_below(&r, 90);
      wd[0] = mult * a.group, wd[1] = 1, wd[2] = k, wd[3] = tu_below(&r, 3) ? k : 1 + tu_below(&r, 7);
      if (a.sp == 1) xd[2] = xd[3], wd[2] = wd[3];
      x = kh_value(q8(&r), 2 + a.sp, xd, NULL);
      w = kh_value(trial % 13 == 7 ? GE_DTYPE_UINT8 : GE_DTYPE_INT8, 2 + a.sp, wd, NULL);
      zx = kh_value(x.dtype, 0, &one, NULL);
      md[0] = wd[0];
      zw = tu_below(&r, 2) ? kh_value(w.dtype, 1, md, NULL) : kh_value(w.dtype, 0, &one, NULL);
      b = kh_value(GE_DTYPE_INT32, 1, md, NULL);
      fill_q8(&r, &x, trial % 3 == 0);
      fill_q8(&r, &zx, trial % 2);
      for (i = 0; i < w.numel; i++) /* int8 weights in [-127, 127], or small ones */
        ((int8_t *)w.data)[i] = (int8_t)(trial % 5 == 1 ? (int)tu_below(&r, 61) - 30 : (int)tu_below(&r, 255) - 127);
      for (i = 0; i < zw.numel; i++) /* 0; a small shift; rarely any byte (w - zw may leave int8) */
        ((int8_t *)zw.data)[i] = (int8_t)(trial % 5 == 1 ? (int)tu_below(&r, 21) - 10 : trial % 17 == 9 ? (int)tu_next(&r) : 0);
      for (i = 0; i < b.numel; i++) ((int32_t *)b.data)[i] = (int32_t)tu_below(&r, 40001) - 20000;
      if (qlinear) {
        qlin_params_make(&r, (trial / 2) % 5, GE_DTYPE_UINT8, tu_below(&r, 2) ? wd[0] : 0, &q);
        in[0] = &x, in[1] = &q.xs, in[2] = tu_below(&r, 6) ? &zx : NULL, in[3] = &w, in[4] = &q.ws;
        in[5] = tu_below(&r, 6) ? &zw : NULL, in[6] = &q.ys, in[7] = &q.yz, in[8] = tu_below(&r, 4) ? &b : NULL;
        if (!GE_CHECK(check_op("QLinearConv", in, 9, 1, (trial & 4) ? 0x138u : 0u, th, set_conv, &a)) && fails++ < 5)
          printf("    trial %d x [%lld %lld %lld %lld] w [%lld %lld %lld %lld]\n", trial, (long long)xd[0],
                 (long long)xd[1], (long long)xd[2], (long long)xd[3], (long long)wd[0], (long long)wd[1],
                 (long long)wd[2], (long long)wd[3]);
        qlin_params_free(&q);
      } else {
        in[0] = &x, in[1] = &w, in[2] = tu_below(&r, 6) ? &zx : NULL, in[3] = tu_below(&r, 6) ? &zw : NULL;
        if (!GE_CHECK(check_op("ConvInteger", in, 4, 1, (trial & 4) ? 0xAu : 0u, th, set_conv, &a)) && fails++ < 5)
          printf("    trial %d x [%lld %lld %lld %lld] w [%lld %lld %lld %lld]\n", trial, (long long)xd[0],
                 (long long)xd[1], (long long)xd[2], (long long)xd[3], (long long)wd[0], (long long)wd[1],
                 (long long)wd[2], (long long)wd[3]);
      }
      kh_free(&x), kh_free(&w), kh_free(&zx), kh_free(&zw), kh_free(&b);
    }
  ge__qk_isa_cap = GE__QK_ISA_VNNI;
}

GE_TEST(test_depthwise_int8) { on_each_isa(depthwise_trials); }

static void qlinear_matmul_trials(int isa) {
  tu_rng r;
  int trial, th;
  tu_seed(&r, 1607 + 100 * (unsigned)isa);
  ge__qk_isa_cap = isa;
  ge__qk_share_grain_log2 = 0;
  for (trial = 0; trial < 80; trial++)
    for (th = 0; th < 2; th++) {
      int qk = trial % 5;
      int64_t K = trial % 7 == 3 ? 300 + tu_below(&r, 400) : 1 + tu_below(&r, 70), N = 1 + tu_below(&r, 100);
      int64_t ad[3] = {1 + tu_below(&r, 3), 1 + tu_below(&r, 40), K}, bd[2] = {K, N}, one = 1;
      int32_t ar = 2 + (int32_t)tu_below(&r, 2);
      ge_value A, B, za, zb, *in[8];
      qlin_params q;
      if (ar == 2) ad[0] = ad[1], ad[1] = K;
      A = kh_value(q8(&r), ar, ad, NULL);
      B = kh_value(q8(&r), 2, bd, NULL);
      za = kh_value(A.dtype, 0, &one, NULL);
      zb = kh_value(B.dtype, 0, &one, NULL);
      fill_q8(&r, &A, trial % 3 == 0);
      fill_q8(&r, &B, trial % 3 == 0);
      fill_q8(&r, &za, trial % 2);
      fill_q8(&r, &zb, trial % 2);
      qlin_params_make(&r, qk, q8(&r), 0, &q);
      in[0] = &A, in[1] = &q.xs, in[2] = tu_below(&r, 4) ? &za : NULL, in[3] = &B, in[4] = &q.ws;
      in[5] = tu_below(&r, 4) ? &zb : NULL, in[6] = &q.ys, in[7] = tu_below(&r, 5) ? &q.yz : NULL;
      if (!GE_CHECK(check_op("QLinearMatMul", in, 8, 1, (trial & 4) ? 0x38u : 0u, th, NULL, NULL)))
        printf("    trial %d K %lld N %lld scales %d\n", trial, (long long)K, (long long)N, qk);
      kh_free(&A), kh_free(&B), kh_free(&za), kh_free(&zb);
      qlin_params_free(&q);
    }
  ge__qk_isa_cap = GE__QK_ISA_VNNI;
  ge__qk_share_grain_log2 = 22;
}

GE_TEST(test_qlinear_matmul) { on_each_isa(qlinear_matmul_trials); }

/* Off the fast paths the reference answers (errors included). */
GE_TEST(test_quant_fallbacks) {
  int64_t xd[4] = {1, 2, 5, 5}, wd[4] = {3, 2, 2, 2}, two = 2, one = 1;
  ge_value x = kh_value(GE_DTYPE_UINT8, 4, xd, NULL), w = kh_value(GE_DTYPE_INT8, 4, wd, NULL);
  ge_value zx = kh_value(GE_DTYPE_UINT8, 1, &two, NULL), s = kh_value(GE_DTYPE_FLOAT32, 0, &one, NULL), *in[4];
  ge_value f = kh_value(GE_DTYPE_FLOAT32, 4, xd, NULL);
  in[0] = &x, in[1] = &w, in[2] = &zx, in[3] = NULL;
  GE_CHECK(check_op("ConvInteger", in, 4, 1, 0, 0, NULL, NULL)); /* a 2-element zero point: the same error */
  in[0] = &f, in[1] = &w, in[2] = NULL;
  GE_CHECK(check_op("ConvInteger", in, 4, 1, 0, 0, NULL, NULL)); /* float input: the same error */
  ((float *)s.data)[0] = 0.25f;
  in[0] = &f, in[1] = &s, in[2] = NULL;
  GE_CHECK(check_op("QuantizeLinear", in, 3, 1, 0, 1, NULL, NULL));
  kh_free(&x), kh_free(&w), kh_free(&zx), kh_free(&s), kh_free(&f);
}

int main(int argc, char **argv) {
  ge_test_init(argc, argv);
  GE_RUN(test_half_conversion_bits);
  GE_RUN(test_fast_cast_against_reference);
  GE_RUN(test_promotion_structure);
  GE_RUN(test_promotion_equals_float32_twin);
  GE_RUN(test_dynamic_quantize_linear);
  GE_RUN(test_dynamic_quantize_scale_in_float32);
  GE_RUN(test_quantize_dequantize_linear);
  GE_RUN(test_conv_integer);
  GE_RUN(test_matmul_integer);
  GE_RUN(test_qlinear_conv);
  GE_RUN(test_depthwise_int8);
  GE_RUN(test_qlinear_matmul);
  GE_RUN(test_quant_fallbacks);
  return ge_test_main_end();
}

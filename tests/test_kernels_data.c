/* test_kernels_data.c — host CPU kernels of the shape and data movement
 * family (Reshape, Transpose, Slice, Gather, Scatter, Pad, TopK, Unique, ...).
 *
 * Each kernel runs on one node through tests/kernel_harness.h. Expected
 * values come from index arithmetic written from the ONNX definitions
 * (seeded random shapes, every element size and strings), from the
 * examples in the ONNX operator documentation, and from error cases that
 * must fail cleanly: out-of-range indices, bad shapes, shapes from data too
 * large to allocate. */
#define GE_HOST_CPU_IMPLEMENTATION /* its private ge__hc_*; the rest from libge.a */
#include "ge_engines/host_cpu.h"
#include "tests/test.h"
#include "tests/kernel_harness.h"

/* ------------------------------------------------------------ helpers */

typedef struct tk {
  ge_graph *g;
  ge_node_id id;
  ge_kernel_fn fn;
  ge_value out[4];
  ge_error err;
} tk;

/* A graph with one node of op (inputs absent: the test passes values). */
static int tk_make(tk *t, const char *op, uint32_t n_in, int32_t n_out) {
  memset(t, 0, sizeof *t);
  if (ge_graph_create(NULL, &t->g, &t->err)) return 0;
  if (ge_graph_add_node(t->g, op, NULL, n_in, NULL, n_out, &t->id, &t->err)) return 0;
  t->fn = ge_host_cpu_kernel(ge_graph_node(t->g, t->id));
  return t->fn != NULL;
}

static void tk_free_outputs(tk *t) {
  int i;
  for (i = 0; i < 4; i++) kh_free(&t->out[i]);
}

/* Runs the node on inputs (NULL entries absent). Outputs start with a
 * 1-byte block so that empty outputs get storage from the harness. */
static ge_status tk_run(tk *t, ge_value **in, uint32_t n_in) {
  uint32_t i, n_out = ge_graph_node(t->g, t->id)->num_outputs;
  tk_free_outputs(t);
  for (i = 0; i < n_out && i < 4; i++) {
    t->out[i].data = malloc(1);
    t->out[i].capacity = 1;
  }
  memset(&t->err, 0, sizeof t->err);
  return kh_run(t->fn, t->g, t->id, in, n_in, t->out, n_out, &t->err);
}

static void tk_free(tk *t) {
  tk_free_outputs(t);
  ge_graph_free(t->g);
  t->g = NULL;
}

static void set_i(tk *t, const char *name, int64_t v) { ge_node_set_attr_int(t->g, t->id, name, v, NULL); }
static void set_f(tk *t, const char *name, double v) { ge_node_set_attr_float(t->g, t->id, name, v, NULL); }
static void set_s(tk *t, const char *name, const char *v) { ge_node_set_attr_string(t->g, t->id, name, v, NULL); }
static void set_is(tk *t, const char *name, const int64_t *v, int32_t n) { ge_node_set_attr_ints(t->g, t->id, name, v, n, NULL); }

static ge_value vi64(int32_t rank, const int64_t *dims, const int64_t *data) { return kh_value(GE_DTYPE_INT64, rank, dims, data); }
static ge_value vf32(int32_t rank, const int64_t *dims, const float *data) { return kh_value(GE_DTYPE_FLOAT32, rank, dims, data); }
static ge_value v1i(int64_t n, const int64_t *data) { return kh_value(GE_DTYPE_INT64, 1, &n, data); }
static ge_value v0i(int64_t x) { return kh_value(GE_DTYPE_INT64, 0, NULL, &x); }

static int same_shape(const ge_value *v, int32_t rank, const int64_t *dims) {
  int32_t i;
  if (v->rank != rank) return 0;
  for (i = 0; i < rank; i++)
    if (v->dims[i] != dims[i]) return 0;
  return 1;
}

static int eq_i64(const ge_value *v, const int64_t *want, int64_t n) {
  int64_t i;
  if (v->numel != n) return 0;
  for (i = 0; i < n; i++)
    if (ge__hc_get_i(v, i) != want[i]) return 0;
  return 1;
}

static int eq_f(const ge_value *v, const float *want, int64_t n) {
  int64_t i;
  if (v->numel != n) return 0;
  for (i = 0; i < n; i++)
    if (fabs(ge__hc_get_f(v, i) - want[i]) > 1e-6) return 0;
  return 1;
}

/* xorshift64 */
static uint64_t rng_next(uint64_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}
static int64_t rng_int(uint64_t *s, int64_t lo, int64_t hi) { return lo + (int64_t)(rng_next(s) % (uint64_t)(hi - lo + 1)); }

static void unravel(int64_t k, int32_t r, const int64_t *dims, int64_t *idx) {
  int32_t i;
  for (i = r - 1; i >= 0; i--) {
    idx[i] = dims[i] ? k % dims[i] : 0;
    k = dims[i] ? k / dims[i] : 0;
  }
}
static int64_t ravel(int32_t r, const int64_t *dims, const int64_t *idx) {
  int64_t k = 0;
  int32_t i;
  for (i = 0; i < r; i++) k = k * dims[i] + idx[i];
  return k;
}

/* The dtypes the random data-movement tests run in: every element size
 * (1, 2, 4, 8, 16 bytes) and strings. */
static const ge_dtype dtypes[] = {GE_DTYPE_FLOAT32, GE_DTYPE_INT8,  GE_DTYPE_BOOL,   GE_DTYPE_FLOAT16, GE_DTYPE_BFLOAT16,
                                  GE_DTYPE_INT16,   GE_DTYPE_INT32, GE_DTYPE_UINT32, GE_DTYPE_INT64,   GE_DTYPE_FLOAT64,
                                  GE_DTYPE_UINT64,  GE_DTYPE_COMPLEX128, GE_DTYPE_STRING};
#define N_DTYPES ((int)(sizeof dtypes / sizeof dtypes[0]))

static char str_pool[4096][16];

static size_t esize(ge_dtype t) { return t == GE_DTYPE_STRING ? sizeof(char *) : ge_dtype_size(t); }

/* A value of random contents (random bytes; strings from the pool). */
static ge_value rand_value(uint64_t *s, ge_dtype t, int32_t rank, const int64_t *dims) {
  ge_value v = kh_value(t, rank, dims, NULL);
  int64_t i;
  size_t b;
  if (t == GE_DTYPE_STRING) {
    for (i = 0; i < v.numel; i++) ((const char **)v.data)[i] = str_pool[rng_next(s) % 4096];
  } else {
    for (b = 0; b < v.nbytes; b++) ((unsigned char *)v.data)[b] = (unsigned char)rng_next(s);
  }
  return v;
}

static int elem_eq(const ge_value *a, int64_t i, const ge_value *b, int64_t j) {
  size_t es = esize(a->dtype);
  return memcmp((const char *)a->data + (size_t)i * es, (const char *)b->data + (size_t)j * es, es) == 0;
}

static void rand_dims(uint64_t *s, int32_t rank, int64_t lo, int64_t hi, int64_t *dims) {
  int32_t i;
  for (i = 0; i < rank; i++) dims[i] = rng_int(s, lo, hi);
}

/* ------------------------------------------------------ reshape family */

GE_TEST(test_reshape) {
  tk t;
  uint64_t seed = 3;
  int64_t xd[3] = {2, 3, 4}, sh[4] = {2, 0, -1, 2}, want[4] = {2, 3, 2, 2};
  ge_value x = rand_value(&seed, GE_DTYPE_FLOAT32, 3, xd), s = v1i(4, sh), *in[2];
  int64_t i;
  in[0] = &x;
  in[1] = &s;
  GE_REQUIRE(tk_make(&t, "Reshape", 2, 1));
  GE_CHECK_EQ_INT(tk_run(&t, in, 2), GE_OK);
  GE_CHECK(same_shape(&t.out[0], 4, want));
  for (i = 0; i < 24; i++) GE_CHECK(elem_eq(&t.out[0], i, &x, i));
  /* -1 twice, -2, wrong count, 0 past the input rank */
  ((int64_t *)s.data)[0] = -1;
  GE_CHECK_EQ_INT(tk_run(&t, in, 2), GE_ERR_INVALID);
  ((int64_t *)s.data)[0] = -2;
  GE_CHECK_EQ_INT(tk_run(&t, in, 2), GE_ERR_INVALID);
  ((int64_t *)s.data)[0] = 5;
  GE_CHECK_EQ_INT(tk_run(&t, in, 2), GE_ERR_SHAPE);
  kh_free(&s);
  {
    int64_t sh2[4] = {2, 3, 4, 0};
    s = v1i(4, sh2);
    in[1] = &s;
    GE_CHECK_EQ_INT(tk_run(&t, in, 2), GE_ERR_SHAPE);
    /* allowzero: a real 0 dim; 24 elements do not fit */
    set_i(&t, "allowzero", 1);
    GE_CHECK_EQ_INT(tk_run(&t, in, 2), GE_ERR_SHAPE);
    kh_free(&s);
  }
  kh_free(&x);
  {
    /* allowzero with an empty input: [0,3,4] -> [3,4,0] */
    int64_t ed[3] = {0, 3, 4}, sh3[3] = {3, 4, 0};
    x = kh_value(GE_DTYPE_FLOAT32, 3, ed, NULL);
    s = v1i(3, sh3);
    in[0] = &x;
    in[1] = &s;
    GE_CHECK_EQ_INT(tk_run(&t, in, 2), GE_OK);
    GE_CHECK(same_shape(&t.out[0], 3, sh3));
    kh_free(&s);
    kh_free(&x);
  }
  {
    /* huge dims in the shape: an error, no overflow */
    int64_t sh4[3] = {INT64_MAX / 2, 4, -1}, d1 = 6;
    x = kh_value(GE_DTYPE_FLOAT32, 1, &d1, NULL);
    s = v1i(3, sh4);
    GE_CHECK(tk_run(&t, in, 2) != GE_OK);
    kh_free(&s);
    kh_free(&x);
  }
  tk_free(&t);
}

GE_TEST(test_flatten_squeeze_unsqueeze) {
  tk t;
  uint64_t seed = 1;
  int64_t xd[4] = {2, 1, 3, 1}, ax[2], w2[2], w3[3], w6[6];
  ge_value x = rand_value(&seed, GE_DTYPE_INT16, 4, xd), a, *in[2];
  int64_t axis;
  in[0] = &x;
  GE_REQUIRE(tk_make(&t, "Flatten", 1, 1));
  for (axis = -4; axis <= 4; axis++) {
    int64_t k = axis < 0 ? axis + 4 : axis, i;
    set_i(&t, "axis", axis);
    GE_CHECK_EQ_INT(tk_run(&t, in, 1), GE_OK);
    w2[0] = 1;
    for (i = 0; i < k; i++) w2[0] *= xd[i];
    w2[1] = 6 / w2[0];
    GE_CHECK(same_shape(&t.out[0], 2, w2));
    GE_CHECK(elem_eq(&t.out[0], 5, &x, 5));
  }
  set_i(&t, "axis", 5);
  GE_CHECK_EQ_INT(tk_run(&t, in, 1), GE_ERR_INVALID);
  tk_free(&t);

  GE_REQUIRE(tk_make(&t, "Squeeze", 2, 1));
  GE_CHECK_EQ_INT(tk_run(&t, in, 1), GE_OK); /* no axes: every 1 goes */
  w2[0] = 2, w2[1] = 3;
  GE_CHECK(same_shape(&t.out[0], 2, w2));
  ax[0] = -1;
  a = v1i(1, ax);
  in[1] = &a;
  GE_CHECK_EQ_INT(tk_run(&t, in, 2), GE_OK);
  w3[0] = 2, w3[1] = 1, w3[2] = 3;
  GE_CHECK(same_shape(&t.out[0], 3, w3));
  ((int64_t *)a.data)[0] = 0; /* size 2: cannot squeeze */
  GE_CHECK_EQ_INT(tk_run(&t, in, 2), GE_ERR_SHAPE);
  ((int64_t *)a.data)[0] = 4;
  GE_CHECK_EQ_INT(tk_run(&t, in, 2), GE_ERR_INVALID);
  kh_free(&a);
  /* opset < 13: axes as an attribute */
  ax[0] = 1;
  set_is(&t, "axes", ax, 1);
  GE_CHECK_EQ_INT(tk_run(&t, in, 1), GE_OK);
  w3[0] = 2, w3[1] = 3, w3[2] = 1;
  GE_CHECK(same_shape(&t.out[0], 3, w3));
  tk_free(&t);

  GE_REQUIRE(tk_make(&t, "Unsqueeze", 2, 1));
  ax[0] = -1, ax[1] = 0;
  a = v1i(2, ax);
  in[1] = &a;
  GE_CHECK_EQ_INT(tk_run(&t, in, 2), GE_OK);
  w6[0] = 1, w6[1] = 2, w6[2] = 1, w6[3] = 3, w6[4] = 1, w6[5] = 1;
  GE_CHECK(same_shape(&t.out[0], 6, w6));
  GE_CHECK(elem_eq(&t.out[0], 4, &x, 4));
  ((int64_t *)a.data)[1] = 5; /* repeated axis */
  GE_CHECK_EQ_INT(tk_run(&t, in, 2), GE_ERR_INVALID);
  ((int64_t *)a.data)[1] = 6;
  GE_CHECK_EQ_INT(tk_run(&t, in, 2), GE_ERR_INVALID);
  kh_free(&a);
  ax[0] = 0;
  set_is(&t, "axes", ax, 1);
  GE_CHECK_EQ_INT(tk_run(&t, in, 1), GE_OK);
  GE_CHECK_EQ_INT(t.out[0].rank, 5);
  tk_free(&t);
  kh_free(&x);
}

/* ---------------------------------------------------------- transpose */

GE_TEST(test_transpose_random) {
  uint64_t seed = 0x1234567;
  int iter;
  tk t;
  GE_REQUIRE(tk_make(&t, "Transpose", 1, 1));
  for (iter = 0; iter < 200; iter++) {
    ge_dtype dt = dtypes[iter % N_DTYPES];
    int32_t r = (int32_t)rng_int(&seed, 0, 5), i, j;
    int64_t dims[GE_MAX_RANK], perm[GE_MAX_RANK], od[GE_MAX_RANK], oi[GE_MAX_RANK], ii[GE_MAX_RANK], k;
    ge_value x, *in[1];
    int ok = 1;
    rand_dims(&seed, r, iter % 7 == 0 ? 0 : 1, 4, dims);
    for (i = 0; i < r; i++) perm[i] = i;
    for (i = r - 1; i > 0; i--) {
      int64_t tmp;
      j = (int32_t)rng_int(&seed, 0, i);
      tmp = perm[i], perm[i] = perm[j], perm[j] = tmp;
    }
    x = rand_value(&seed, dt, r, dims);
    in[0] = &x;
    if (iter % 5 == 0) {
      ge_node_remove_attr(t.g, t.id, "perm", NULL); /* default: reversed */
      for (i = 0; i < r; i++) perm[i] = r - 1 - i;
    } else {
      set_is(&t, "perm", perm, r);
    }
    GE_CHECK_EQ_INT(tk_run(&t, in, 1), GE_OK);
    for (i = 0; i < r; i++) od[i] = dims[perm[i]];
    GE_CHECK(same_shape(&t.out[0], r, od));
    for (k = 0; k < t.out[0].numel && ok; k++) {
      unravel(k, r, od, oi);
      for (i = 0; i < r; i++) ii[perm[i]] = oi[i];
      ok = elem_eq(&t.out[0], k, &x, ravel(r, dims, ii));
    }
    GE_CHECK(ok);
    kh_free(&x);
  }
  {
    int64_t d2[2] = {2, 3}, bad[2] = {0, 0};
    ge_value x = rand_value(&seed, GE_DTYPE_FLOAT32, 2, d2), *in[1];
    in[0] = &x;
    set_is(&t, "perm", bad, 2);
    GE_CHECK_EQ_INT(tk_run(&t, in, 1), GE_ERR_INVALID);
    set_is(&t, "perm", bad, 1);
    GE_CHECK_EQ_INT(tk_run(&t, in, 1), GE_ERR_INVALID);
    bad[0] = 1, bad[1] = 2;
    set_is(&t, "perm", bad, 2);
    GE_CHECK_EQ_INT(tk_run(&t, in, 1), GE_ERR_INVALID);
    kh_free(&x);
  }
  tk_free(&t);
}

/* ------------------------------------------------------ concat, split */

GE_TEST(test_concat_split_random) {
  uint64_t seed = 99;
  int iter;
  for (iter = 0; iter < 120; iter++) {
    ge_dtype dt = dtypes[iter % N_DTYPES];
    int32_t r = (int32_t)rng_int(&seed, 1, 4), n = (int32_t)rng_int(&seed, 1, 4), i, axis = (int32_t)rng_int(&seed, 0, r - 1);
    int64_t dims[GE_MAX_RANK], sizes[4], od[GE_MAX_RANK], idx[GE_MAX_RANK], k, total = 0;
    ge_value xs[4], *in[4], sv;
    tk t, s;
    int ok = 1;
    rand_dims(&seed, r, 1, 3, dims);
    for (i = 0; i < n; i++) {
      sizes[i] = rng_int(&seed, 0, 3);
      dims[axis] = sizes[i];
      total += sizes[i];
      xs[i] = rand_value(&seed, dt, r, dims);
      in[i] = &xs[i];
    }
    GE_REQUIRE(tk_make(&t, "Concat", (uint32_t)n, 1));
    set_i(&t, "axis", iter % 2 ? axis : axis - r);
    GE_CHECK_EQ_INT(tk_run(&t, in, (uint32_t)n), GE_OK);
    memcpy(od, dims, sizeof od);
    od[axis] = total;
    GE_CHECK(same_shape(&t.out[0], r, od));
    for (k = 0; k < t.out[0].numel && ok; k++) {
      int64_t a;
      unravel(k, r, od, idx);
      for (i = 0, a = idx[axis]; a >= sizes[i]; i++) a -= sizes[i];
      idx[axis] = a;
      dims[axis] = sizes[i];
      ok = elem_eq(&t.out[0], k, &xs[i], ravel(r, dims, idx));
    }
    GE_CHECK(ok);
    /* split the result back with the sizes as input, then compare */
    GE_REQUIRE(tk_make(&s, "Split", 2, n));
    set_i(&s, "axis", axis);
    sv = v1i(n, sizes);
    {
      ge_value *sin[2];
      sin[0] = &t.out[0];
      sin[1] = &sv;
      GE_CHECK_EQ_INT(tk_run(&s, sin, 2), GE_OK);
      for (i = 0; i < n; i++) {
        GE_CHECK_EQ_INT(s.out[i].nbytes, xs[i].nbytes);
        if (s.out[i].nbytes == xs[i].nbytes && xs[i].nbytes) GE_CHECK(memcmp(s.out[i].data, xs[i].data, xs[i].nbytes) == 0);
      }
      ((int64_t *)sv.data)[0] += 1; /* sizes no longer add up */
      GE_CHECK_EQ_INT(tk_run(&s, sin, 2), GE_ERR_SHAPE);
    }
    kh_free(&sv);
    tk_free(&s);
    tk_free(&t);
    for (i = 0; i < n; i++) kh_free(&xs[i]);
  }
}

GE_TEST(test_split_modes) {
  tk t;
  int64_t d = 7, i;
  float x7[7] = {0, 1, 2, 3, 4, 5, 6};
  ge_value x = vf32(1, &d, x7), *in[2];
  in[0] = &x;
  /* opset 18 num_outputs: 3, 3, 1 */
  GE_REQUIRE(tk_make(&t, "Split", 1, 3));
  set_i(&t, "num_outputs", 3);
  GE_CHECK_EQ_INT(tk_run(&t, in, 1), GE_OK);
  GE_CHECK_EQ_INT(t.out[0].numel, 3);
  GE_CHECK_EQ_INT(t.out[1].numel, 3);
  GE_CHECK_EQ_INT(t.out[2].numel, 1);
  GE_CHECK_NEAR(ge__hc_get_f(&t.out[2], 0), 6, 0);
  set_i(&t, "num_outputs", 2); /* disagrees with the node */
  GE_CHECK_EQ_INT(tk_run(&t, in, 1), GE_ERR_INVALID);
  ge_node_remove_attr(t.g, t.id, "num_outputs", NULL);
  GE_CHECK_EQ_INT(tk_run(&t, in, 1), GE_ERR_SHAPE); /* 7 into 3 equal parts */
  {
    int64_t sp[3] = {1, 0, 6}; /* opset < 13: attribute */
    set_is(&t, "split", sp, 3);
    GE_CHECK_EQ_INT(tk_run(&t, in, 1), GE_OK);
    GE_CHECK_EQ_INT(t.out[1].numel, 0);
    GE_CHECK_NEAR(ge__hc_get_f(&t.out[2], 0), 1, 0);
    sp[2] = -1;
    set_is(&t, "split", sp, 3);
    GE_CHECK_EQ_INT(tk_run(&t, in, 1), GE_ERR_SHAPE);
  }
  tk_free(&t);
  /* an empty split input counts as absent: 7 into 4 by num_outputs */
  {
    int64_t z = 0;
    ge_value e = kh_value(GE_DTYPE_INT64, 1, &z, NULL);
    GE_REQUIRE(tk_make(&t, "Split", 2, 4));
    set_i(&t, "num_outputs", 4);
    in[1] = &e;
    GE_CHECK_EQ_INT(tk_run(&t, in, 2), GE_OK);
    GE_CHECK_EQ_INT(t.out[3].numel, 1);
    tk_free(&t);
    kh_free(&e);
  }
  /* num_outputs 4 of 7: 2, 2, 2, 1 */
  GE_REQUIRE(tk_make(&t, "Split", 1, 4));
  set_i(&t, "num_outputs", 4);
  GE_CHECK_EQ_INT(tk_run(&t, in, 1), GE_OK);
  for (i = 0; i < 4; i++) GE_CHECK_EQ_INT(t.out[i].numel, i < 3 ? 2 : 1);
  tk_free(&t);
  /* num_outputs that leaves the last chunk negative: 5 of 7 -> 2,2,2,2,-1 */
  GE_REQUIRE(tk_make(&t, "Split", 1, 5));
  set_i(&t, "num_outputs", 5);
  GE_CHECK_EQ_INT(tk_run(&t, in, 1), GE_ERR_SHAPE);
  tk_free(&t);
  kh_free(&x);
}

/* -------------------------------------------------------------- slice */

/* The indices a slice takes along one axis, from the ONNX definition
 * (clamp, then every step-th index from start towards end), by
 * membership rather than by counting. */
static int64_t slice_ref(int64_t d, int64_t s, int64_t e, int64_t st, int64_t *out) {
  int64_t n = 0, i;
  if (s < 0) s += d;
  if (e < 0) e += d;
  if (st > 0) {
    s = s < 0 ? 0 : s > d ? d : s;
    e = e < 0 ? 0 : e > d ? d : e;
    for (i = 0; i < d; i++)
      if (i >= s && i < e && (i - s) % st == 0) out[n++] = i;
  } else {
    s = s < 0 ? 0 : s > d - 1 ? d - 1 : s;
    e = e < -1 ? -1 : e > d - 1 ? d - 1 : e;
    for (i = d - 1; i >= 0; i--)
      if (i <= s && i > e && (s - i) % (st == INT64_MIN ? INT64_MAX : -st) == 0) out[n++] = i;
  }
  return n;
}

GE_TEST(test_slice_random) {
  uint64_t seed = 4242;
  int iter;
  static const int64_t extremes[] = {INT64_MIN, INT64_MAX, -1000, 1000};
  tk t;
  GE_REQUIRE(tk_make(&t, "Slice", 5, 1));
  for (iter = 0; iter < 300; iter++) {
    ge_dtype dt = dtypes[iter % N_DTYPES];
    int32_t r = (int32_t)rng_int(&seed, 1, 4), n = (int32_t)rng_int(&seed, 0, r), i, j;
    int64_t dims[GE_MAX_RANK], starts[4], ends[4], axes[4], steps[4], od[GE_MAX_RANK], lists[GE_MAX_RANK][16];
    int64_t idx[GE_MAX_RANK], perm[GE_MAX_RANK], k;
    ge_value x, sv, ev, av, pv, *in[5];
    int ok = 1, with_axes = (int)rng_int(&seed, 0, 1), with_steps = (int)rng_int(&seed, 0, 1);
    rand_dims(&seed, r, iter % 9 == 0 ? 0 : 1, 6, dims);
    for (i = 0; i < r; i++) perm[i] = i;
    for (i = r - 1; i > 0; i--) {
      int64_t tmp;
      j = (int32_t)rng_int(&seed, 0, i);
      tmp = perm[i], perm[i] = perm[j], perm[j] = tmp;
    }
    if (!with_axes)
      for (i = 0; i < r; i++) perm[i] = i;
    for (i = 0; i < n; i++) {
      axes[i] = perm[i] - (rng_int(&seed, 0, 1) ? r : 0);
      starts[i] = rng_int(&seed, 0, 5) == 0 ? extremes[rng_int(&seed, 0, 3)] : rng_int(&seed, -8, 8);
      ends[i] = rng_int(&seed, 0, 5) == 0 ? extremes[rng_int(&seed, 0, 3)] : rng_int(&seed, -8, 8);
      steps[i] = with_steps ? (rng_int(&seed, 0, 1) ? 1 : -1) * rng_int(&seed, 1, 3) : 1;
      if (with_steps && rng_int(&seed, 0, 15) == 0) steps[i] = rng_int(&seed, 0, 1) ? INT64_MAX : INT64_MIN;
    }
    x = rand_value(&seed, dt, r, dims);
    sv = v1i(n, starts), ev = v1i(n, ends), av = v1i(n, axes), pv = v1i(n, steps);
    in[0] = &x, in[1] = &sv, in[2] = &ev, in[3] = with_axes ? &av : NULL, in[4] = with_steps ? &pv : NULL;
    for (i = 0; i < r; i++) {
      od[i] = dims[i];
      for (k = 0; k < dims[i] && k < 16; k++) lists[i][k] = k;
    }
    for (i = 0; i < n; i++) {
      int32_t a = (int32_t)(axes[i] < 0 ? axes[i] + r : axes[i]);
      od[a] = slice_ref(dims[a], starts[i], ends[i], steps[i], lists[a]);
    }
    GE_CHECK_EQ_INT(tk_run(&t, in, 5), GE_OK);
    GE_CHECK(same_shape(&t.out[0], r, od));
    for (k = 0; k < t.out[0].numel && ok; k++) {
      unravel(k, r, od, idx);
      for (i = 0; i < r; i++) idx[i] = lists[i][idx[i]];
      ok = elem_eq(&t.out[0], k, &x, ravel(r, dims, idx));
    }
    if (!ok) printf("  slice mismatch at iteration %d\n", iter);
    GE_CHECK(ok);
    kh_free(&x), kh_free(&sv), kh_free(&ev), kh_free(&av), kh_free(&pv);
  }
  tk_free(&t);
}

GE_TEST(test_slice_errors_and_attr_form) {
  tk t;
  int64_t d[2] = {4, 5}, s1 = 1, e1 = 3, ax = 1, zero = 0;
  uint64_t seed = 5;
  ge_value x = rand_value(&seed, GE_DTYPE_INT32, 2, d), sv = v1i(1, &s1), ev = v1i(1, &e1), av = v1i(1, &ax), pv = v1i(1, &zero);
  ge_value *in[5];
  int64_t want[2] = {4, 2};
  in[0] = &x, in[1] = &sv, in[2] = &ev, in[3] = &av, in[4] = &pv;
  GE_REQUIRE(tk_make(&t, "Slice", 5, 1));
  GE_CHECK_EQ_INT(tk_run(&t, in, 5), GE_ERR_INVALID); /* step 0 */
  ((int64_t *)av.data)[0] = 2;
  in[4] = NULL;
  GE_CHECK_EQ_INT(tk_run(&t, in, 5), GE_ERR_INVALID); /* axis out of range */
  tk_free(&t);
  /* opset 1: attributes */
  GE_REQUIRE(tk_make(&t, "Slice", 1, 1));
  set_is(&t, "starts", &s1, 1);
  set_is(&t, "ends", &e1, 1);
  ax = -1;
  set_is(&t, "axes", &ax, 1);
  GE_CHECK_EQ_INT(tk_run(&t, in, 1), GE_OK);
  GE_CHECK(same_shape(&t.out[0], 2, want));
  GE_CHECK(elem_eq(&t.out[0], 3, &x, 1 * 5 + 2));
  tk_free(&t);
  kh_free(&x), kh_free(&sv), kh_free(&ev), kh_free(&av), kh_free(&pv);
}

/* ------------------------------------------------------------- gather */

GE_TEST(test_gather_random) {
  uint64_t seed = 777;
  int iter;
  tk t;
  GE_REQUIRE(tk_make(&t, "Gather", 2, 1));
  for (iter = 0; iter < 200; iter++) {
    ge_dtype dt = dtypes[iter % N_DTYPES];
    int32_t r = (int32_t)rng_int(&seed, 1, 4), q = (int32_t)rng_int(&seed, 0, 2), axis = (int32_t)rng_int(&seed, 0, r - 1), i;
    int64_t dims[GE_MAX_RANK], id[GE_MAX_RANK], od[GE_MAX_RANK], oi[GE_MAX_RANK], xi[GE_MAX_RANK], k;
    ge_value x, ind, *in[2];
    int ok = 1;
    rand_dims(&seed, r, 1, 4, dims);
    rand_dims(&seed, q, iter % 11 == 0 ? 0 : 1, 3, id);
    x = rand_value(&seed, dt, r, dims);
    ind = kh_value(iter % 2 ? GE_DTYPE_INT32 : GE_DTYPE_INT64, q, id, NULL);
    for (k = 0; k < ind.numel; k++) ge__hc_set_i(&ind, k, rng_int(&seed, -dims[axis], dims[axis] - 1));
    in[0] = &x, in[1] = &ind;
    set_i(&t, "axis", rng_int(&seed, 0, 1) ? axis : axis - r);
    GE_CHECK_EQ_INT(tk_run(&t, in, 2), GE_OK);
    for (i = 0; i < axis; i++) od[i] = dims[i];
    for (i = 0; i < q; i++) od[axis + i] = id[i];
    for (i = axis + 1; i < r; i++) od[q + i - 1] = dims[i];
    GE_CHECK(same_shape(&t.out[0], r - 1 + q, od));
    for (k = 0; k < t.out[0].numel && ok; k++) {
      int64_t v;
      unravel(k, r - 1 + q, od, oi);
      for (i = 0; i < axis; i++) xi[i] = oi[i];
      v = ge__hc_get_i(&ind, ravel(q, id, oi + axis));
      xi[axis] = v < 0 ? v + dims[axis] : v;
      for (i = axis + 1; i < r; i++) xi[i] = oi[q + i - 1];
      ok = elem_eq(&t.out[0], k, &x, ravel(r, dims, xi));
    }
    GE_CHECK(ok);
    if (ind.numel) { /* one index out of range: an error */
      ge__hc_set_i(&ind, ind.numel - 1, dims[axis]);
      GE_CHECK_EQ_INT(tk_run(&t, in, 2), GE_ERR_INVALID);
      ge__hc_set_i(&ind, ind.numel - 1, -dims[axis] - 1);
      GE_CHECK_EQ_INT(tk_run(&t, in, 2), GE_ERR_INVALID);
    }
    kh_free(&x), kh_free(&ind);
  }
  tk_free(&t);
}

GE_TEST(test_gather_elements_scatter_elements_random) {
  uint64_t seed = 31337;
  int iter;
  tk g, s;
  static const char *const reds[] = {"none", "add", "mul", "max", "min"};
  GE_REQUIRE(tk_make(&g, "GatherElements", 2, 1));
  GE_REQUIRE(tk_make(&s, "ScatterElements", 3, 1));
  for (iter = 0; iter < 200; iter++) {
    int numeric = iter % 3 == 0;
    ge_dtype dt = numeric ? (iter % 2 ? GE_DTYPE_FLOAT32 : GE_DTYPE_INT32) : dtypes[iter % N_DTYPES];
    int red = numeric ? (int)rng_int(&seed, 0, 4) : 0;
    int32_t r = (int32_t)rng_int(&seed, 1, 4), axis = (int32_t)rng_int(&seed, 0, r - 1), i;
    int64_t dims[GE_MAX_RANK], id[GE_MAX_RANK], oi[GE_MAX_RANK], k;
    ge_value x, ind, u, ref, *in[3];
    int ok = 1;
    rand_dims(&seed, r, 1, 4, dims);
    for (i = 0; i < r; i++) id[i] = i == axis ? rng_int(&seed, 0, 5) : rng_int(&seed, 0, dims[i]);
    x = rand_value(&seed, dt, r, dims);
    u = rand_value(&seed, dt, r, id);
    if (numeric) { /* small values: exact arithmetic */
      for (k = 0; k < x.numel; k++) ge__hc_set_f(&x, k, (double)rng_int(&seed, -4, 4));
      for (k = 0; k < u.numel; k++) ge__hc_set_f(&u, k, (double)rng_int(&seed, -4, 4));
    }
    ind = kh_value(GE_DTYPE_INT64, r, id, NULL);
    for (k = 0; k < ind.numel; k++) ge__hc_set_i(&ind, k, rng_int(&seed, -dims[axis], dims[axis] - 1));
    in[0] = &x, in[1] = &ind, in[2] = &u;
    set_i(&g, "axis", axis);
    GE_CHECK_EQ_INT(tk_run(&g, in, 2), GE_OK);
    GE_CHECK(same_shape(&g.out[0], r, id));
    for (k = 0; k < g.out[0].numel && ok; k++) {
      int64_t v = ge__hc_get_i(&ind, k);
      unravel(k, r, id, oi);
      oi[axis] = v < 0 ? v + dims[axis] : v;
      ok = elem_eq(&g.out[0], k, &x, ravel(r, dims, oi));
    }
    GE_CHECK(ok);
    /* scatter: the reference applies the updates one by one */
    set_i(&s, "axis", axis - r);
    set_s(&s, "reduction", reds[red]);
    GE_CHECK_EQ_INT(tk_run(&s, in, 3), GE_OK);
    ref = kh_value(dt, r, dims, x.data);
    for (k = 0; k < ind.numel; k++) {
      int64_t v = ge__hc_get_i(&ind, k), at;
      double a, b;
      unravel(k, r, id, oi);
      oi[axis] = v < 0 ? v + dims[axis] : v;
      at = ravel(r, dims, oi);
      if (red == 0) {
        memcpy((char *)ref.data + at * esize(dt), (char *)u.data + k * esize(dt), esize(dt));
        continue;
      }
      a = ge__hc_get_f(&ref, at), b = ge__hc_get_f(&u, k);
      ge__hc_set_f(&ref, at, red == 1 ? a + b : red == 2 ? a * b : red == 3 ? (a > b ? a : b) : (a < b ? a : b));
    }
    GE_CHECK(s.out[0].nbytes == ref.nbytes && memcmp(s.out[0].data, ref.data, ref.nbytes) == 0);
    if (ind.numel) {
      ge__hc_set_i(&ind, 0, dims[axis] + 3);
      GE_CHECK_EQ_INT(tk_run(&g, in, 2), GE_ERR_INVALID);
      GE_CHECK_EQ_INT(tk_run(&s, in, 3), GE_ERR_INVALID);
    }
    kh_free(&x), kh_free(&ind), kh_free(&u), kh_free(&ref);
  }
  /* strings cannot be added; unknown reductions are refused */
  {
    int64_t d1 = 2, i0 = 0;
    ge_value x = kh_value(GE_DTYPE_STRING, 1, &d1, NULL), ind = v1i(1, &i0), u = kh_value(GE_DTYPE_STRING, 1, &d1, NULL), *in[3];
    in[0] = &x, in[1] = &ind, in[2] = &u;
    u.dims[0] = 1, u.numel = 1, u.nbytes = sizeof(char *);
    set_i(&s, "axis", 0);
    set_s(&s, "reduction", "add");
    GE_CHECK_EQ_INT(tk_run(&s, in, 3), GE_ERR_UNSUPPORTED);
    set_s(&s, "reduction", "sum");
    GE_CHECK_EQ_INT(tk_run(&s, in, 3), GE_ERR_INVALID);
    kh_free(&x), kh_free(&ind), kh_free(&u);
  }
  tk_free(&g);
  tk_free(&s);
}

GE_TEST(test_scatter_deprecated_and_examples) {
  /* ONNX ScatterElements example 2 (axis 1), also as the deprecated Scatter */
  tk t;
  int64_t d15[2] = {1, 5}, d12[2] = {1, 2}, iv[2] = {1, 3};
  float xv[5] = {1, 2, 3, 4, 5}, uv[2] = {1.1f, 2.1f}, want[5] = {1, 1.1f, 3, 2.1f, 5};
  ge_value x = vf32(2, d15, xv), ind = vi64(2, d12, iv), u = vf32(2, d12, uv), *in[3];
  in[0] = &x, in[1] = &ind, in[2] = &u;
  GE_REQUIRE(tk_make(&t, "Scatter", 3, 1));
  set_i(&t, "axis", 1);
  GE_CHECK_EQ_INT(tk_run(&t, in, 3), GE_OK);
  GE_CHECK(eq_f(&t.out[0], want, 5));
  tk_free(&t);
  kh_free(&x), kh_free(&ind), kh_free(&u);
}

GE_TEST(test_gather_nd_scatter_nd) {
  tk t;
  /* ONNX GatherND examples 1-5 */
  {
    int64_t d222[3] = {2, 2, 2}, d21[2] = {2, 1}, iv[2] = {1, 0}, w[4] = {2, 3, 4, 5}, wd[2] = {2, 2};
    int32_t dv[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    ge_value x = kh_value(GE_DTYPE_INT32, 3, d222, dv), ind = vi64(2, d21, iv), *in[2];
    in[0] = &x, in[1] = &ind;
    GE_REQUIRE(tk_make(&t, "GatherND", 2, 1));
    set_i(&t, "batch_dims", 1); /* example 5: [[2,3],[4,5]] */
    GE_CHECK_EQ_INT(tk_run(&t, in, 2), GE_OK);
    GE_CHECK(same_shape(&t.out[0], 2, wd));
    GE_CHECK(eq_i64(&t.out[0], w, 4));
    set_i(&t, "batch_dims", 0); /* example 3: indices [[1],[0]] -> [[[4,5],[6,7]],[[0,1],[2,3]]] */
    GE_CHECK_EQ_INT(tk_run(&t, in, 2), GE_OK);
    {
      int64_t w3[8] = {4, 5, 6, 7, 0, 1, 2, 3};
      GE_CHECK(eq_i64(&t.out[0], w3, 8));
    }
    ((int64_t *)ind.data)[0] = 2;
    GE_CHECK_EQ_INT(tk_run(&t, in, 2), GE_ERR_INVALID);
    ((int64_t *)ind.data)[0] = -2;
    GE_CHECK_EQ_INT(tk_run(&t, in, 2), GE_OK); /* negative: from the end */
    set_i(&t, "batch_dims", 2);
    GE_CHECK_EQ_INT(tk_run(&t, in, 2), GE_ERR_INVALID);
    tk_free(&t);
    kh_free(&x), kh_free(&ind);
  }
  {
    /* example 4: data [2,2,2], indices [2,1,2] = [[[0,1]],[[1,0]]] -> [[[2,3]],[[4,5]]] */
    int64_t d222[3] = {2, 2, 2}, d212[3] = {2, 1, 2}, iv[4] = {0, 1, 1, 0}, w[4] = {2, 3, 4, 5};
    float dv[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    ge_value x = vf32(3, d222, dv), ind = vi64(3, d212, iv), *in[2];
    int64_t wd[3] = {2, 1, 2};
    in[0] = &x, in[1] = &ind;
    GE_REQUIRE(tk_make(&t, "GatherND", 2, 1));
    GE_CHECK_EQ_INT(tk_run(&t, in, 2), GE_OK);
    GE_CHECK(same_shape(&t.out[0], 3, wd));
    GE_CHECK(eq_i64(&t.out[0], w, 4));
    tk_free(&t);
    kh_free(&x), kh_free(&ind);
  }
  {
    /* ScatterND example 1 and its reductions */
    int64_t d8 = 8, d41[2] = {4, 1}, d4 = 4, iv[4] = {4, 3, 1, 7};
    float xv[8] = {1, 2, 3, 4, 5, 6, 7, 8}, uv[4] = {9, 10, 11, 12};
    float w_none[8] = {1, 11, 3, 10, 9, 6, 7, 12}, w_add[8] = {1, 13, 3, 14, 14, 6, 7, 20};
    float w_mul[8] = {1, 22, 3, 40, 45, 6, 7, 96};
    ge_value x = vf32(1, &d8, xv), ind = vi64(2, d41, iv), u = vf32(1, &d4, uv), *in[3];
    in[0] = &x, in[1] = &ind, in[2] = &u;
    GE_REQUIRE(tk_make(&t, "ScatterND", 3, 1));
    GE_CHECK_EQ_INT(tk_run(&t, in, 3), GE_OK);
    GE_CHECK(eq_f(&t.out[0], w_none, 8));
    set_s(&t, "reduction", "add");
    GE_CHECK_EQ_INT(tk_run(&t, in, 3), GE_OK);
    GE_CHECK(eq_f(&t.out[0], w_add, 8));
    set_s(&t, "reduction", "mul");
    GE_CHECK_EQ_INT(tk_run(&t, in, 3), GE_OK);
    GE_CHECK(eq_f(&t.out[0], w_mul, 8));
    set_s(&t, "reduction", "max");
    ((float *)u.data)[0] = 0; /* max(5, 0) keeps 5 */
    GE_CHECK_EQ_INT(tk_run(&t, in, 3), GE_OK);
    GE_CHECK_NEAR(((float *)t.out[0].data)[4], 5, 0);
    GE_CHECK_NEAR(((float *)t.out[0].data)[1], 11, 0);
    set_s(&t, "reduction", "min");
    GE_CHECK_EQ_INT(tk_run(&t, in, 3), GE_OK);
    GE_CHECK_NEAR(((float *)t.out[0].data)[4], 0, 0);
    GE_CHECK_NEAR(((float *)t.out[0].data)[1], 2, 0);
    ((int64_t *)ind.data)[2] = 8;
    GE_CHECK_EQ_INT(tk_run(&t, in, 3), GE_ERR_INVALID);
    ((int64_t *)ind.data)[2] = 1;
    u.dims[0] = 3, u.numel = 3, u.nbytes = 12; /* updates of the wrong shape */
    GE_CHECK_EQ_INT(tk_run(&t, in, 3), GE_ERR_SHAPE);
    tk_free(&t);
    kh_free(&x), kh_free(&ind), kh_free(&u);
  }
  {
    /* ScatterND on int8 with add wraps around; on uint64 with max is unsigned */
    int64_t d2 = 2, d11[2] = {1, 1}, d1 = 1, iv = 1;
    int8_t xv[2] = {100, 1}, uv[1] = {100};
    uint64_t xu[2] = {1, 2}, uu[1] = {UINT64_MAX};
    ge_value x = kh_value(GE_DTYPE_INT8, 1, &d2, xv), ind = vi64(2, d11, &iv), u = kh_value(GE_DTYPE_INT8, 1, &d1, uv), *in[3];
    in[0] = &x, in[1] = &ind, in[2] = &u;
    GE_REQUIRE(tk_make(&t, "ScatterND", 3, 1));
    set_s(&t, "reduction", "add");
    GE_CHECK_EQ_INT(tk_run(&t, in, 3), GE_OK);
    GE_CHECK_EQ_INT(((int8_t *)t.out[0].data)[1], 101);
    kh_free(&x), kh_free(&u);
    x = kh_value(GE_DTYPE_UINT64, 1, &d2, xu), u = kh_value(GE_DTYPE_UINT64, 1, &d1, uu);
    in[0] = &x, in[2] = &u;
    set_s(&t, "reduction", "max");
    GE_CHECK_EQ_INT(tk_run(&t, in, 3), GE_OK);
    GE_CHECK(((uint64_t *)t.out[0].data)[1] == UINT64_MAX);
    tk_free(&t);
    kh_free(&x), kh_free(&ind), kh_free(&u);
  }
}

/* ---------------------------------------------------- expand, tile, pad */

GE_TEST(test_expand_tile_random) {
  uint64_t seed = 2024;
  int iter;
  tk e, t;
  GE_REQUIRE(tk_make(&e, "Expand", 2, 1));
  GE_REQUIRE(tk_make(&t, "Tile", 2, 1));
  for (iter = 0; iter < 150; iter++) {
    ge_dtype dt = dtypes[iter % N_DTYPES];
    int32_t r = (int32_t)rng_int(&seed, 0, 3), sr = (int32_t)rng_int(&seed, 0, 4), orank, i;
    int64_t dims[GE_MAX_RANK], sh[GE_MAX_RANK], od[GE_MAX_RANK], oi[GE_MAX_RANK], xi[GE_MAX_RANK], rep[GE_MAX_RANK], k;
    ge_value x, s, rv, *in[2];
    int ok = 1;
    rand_dims(&seed, r, 1, 3, dims);
    for (i = 0; i < r; i++)
      if (rng_int(&seed, 0, 2) == 0) dims[i] = 1;
    for (i = 0; i < sr; i++) {
      int32_t xa = i - (sr - r);
      sh[i] = xa >= 0 && dims[xa] != 1 ? (rng_int(&seed, 0, 3) ? dims[xa] : 1) : rng_int(&seed, 0, 3);
    }
    x = rand_value(&seed, dt, r, dims);
    s = v1i(sr, sh);
    in[0] = &x, in[1] = &s;
    GE_CHECK_EQ_INT(tk_run(&e, in, 2), GE_OK);
    orank = r > sr ? r : sr;
    for (i = 0; i < orank; i++) {
      int32_t xa = i - (orank - r), sa = i - (orank - sr);
      int64_t a = xa >= 0 ? dims[xa] : 1, b = sa >= 0 ? sh[sa] : 1;
      od[i] = a == 1 ? b : a;
    }
    GE_CHECK(same_shape(&e.out[0], orank, od));
    for (k = 0; k < e.out[0].numel && ok; k++) {
      unravel(k, orank, od, oi);
      for (i = 0; i < r; i++) xi[i] = dims[i] == 1 ? 0 : oi[i + orank - r];
      ok = elem_eq(&e.out[0], k, &x, ravel(r, dims, xi));
    }
    GE_CHECK(ok);
    /* Tile */
    for (i = 0; i < r; i++) rep[i] = rng_int(&seed, 0, 3);
    rv = v1i(r, rep);
    in[1] = &rv;
    GE_CHECK_EQ_INT(tk_run(&t, in, 2), GE_OK);
    for (i = 0; i < r; i++) od[i] = dims[i] * rep[i];
    GE_CHECK(same_shape(&t.out[0], r, od));
    for (k = 0, ok = 1; k < t.out[0].numel && ok; k++) {
      unravel(k, r, od, oi);
      for (i = 0; i < r; i++) xi[i] = oi[i] % dims[i];
      ok = elem_eq(&t.out[0], k, &x, ravel(r, dims, xi));
    }
    GE_CHECK(ok);
    kh_free(&x), kh_free(&s), kh_free(&rv);
  }
  {
    /* shapes from data too large to allocate, mismatched shapes */
    int64_t d2[2] = {2, 3}, huge[2] = {1LL << 40, 1LL << 40}, bad[2] = {4, 3}, neg[2] = {-1, 3}, rep2[2] = {1LL << 62, 4};
    ge_value x = kh_value(GE_DTYPE_FLOAT32, 2, d2, NULL), s = v1i(2, huge), *in[2];
    in[0] = &x, in[1] = &s;
    huge[0] = 1;
    kh_free(&s);
    s = v1i(2, huge); /* [1, 2^40] against [2, 3]: does not broadcast */
    GE_CHECK_EQ_INT(tk_run(&e, in, 2), GE_ERR_SHAPE);
    kh_free(&s);
    {
      int64_t h3[3] = {1LL << 40, 1LL << 30, 1};
      s = v1i(3, h3);
      in[1] = &s;
      GE_CHECK_EQ_INT(tk_run(&e, in, 2), GE_ERR_SHAPE);
      kh_free(&s);
    }
    s = v1i(2, bad);
    in[1] = &s;
    GE_CHECK_EQ_INT(tk_run(&e, in, 2), GE_ERR_SHAPE);
    kh_free(&s);
    s = v1i(2, neg);
    in[1] = &s;
    GE_CHECK_EQ_INT(tk_run(&e, in, 2), GE_ERR_INVALID);
    GE_CHECK_EQ_INT(tk_run(&t, in, 2), GE_ERR_INVALID);
    kh_free(&s);
    s = v1i(2, rep2);
    in[1] = &s;
    GE_CHECK_EQ_INT(tk_run(&t, in, 2), GE_ERR_SHAPE);
    kh_free(&s);
    s = v1i(1, rep2);
    in[1] = &s;
    GE_CHECK_EQ_INT(tk_run(&t, in, 2), GE_ERR_SHAPE); /* wrong count of repeats */
    kh_free(&s);
    kh_free(&x);
  }
  tk_free(&e);
  tk_free(&t);
}

/* Pad reference: the source index along one axis, numpy style (reflect by
 * repeated mirroring, wrap by repeated shifting); -1 for the constant. */
static int64_t pad_src(int mode, int64_t j, int64_t n) {
  if (j >= 0 && j < n) return j;
  switch (mode) {
  case 0: return -1;
  case 2: return j < 0 ? 0 : n - 1;
  case 1:
    if (n == 1) return 0;
    while (j < 0 || j >= n) {
      if (j < 0) j = -j;
      if (j >= n) j = 2 * (n - 1) - j;
    }
    return j;
  default:
    while (j < 0) j += n;
    while (j >= n) j -= n;
    return j;
  }
}

GE_TEST(test_pad_random) {
  uint64_t seed = 8080;
  int iter;
  static const char *const modes[] = {"constant", "reflect", "edge", "wrap"};
  tk t;
  GE_REQUIRE(tk_make(&t, "Pad", 4, 1));
  for (iter = 0; iter < 240; iter++) {
    ge_dtype dt = dtypes[iter % N_DTYPES];
    int mode = (int)rng_int(&seed, 0, 3), use_axes = (int)rng_int(&seed, 0, 1), use_const = (int)rng_int(&seed, 0, 1);
    int32_t r = (int32_t)rng_int(&seed, 1, 3), na, i;
    int64_t dims[GE_MAX_RANK], pads[2 * GE_MAX_RANK], axes[GE_MAX_RANK], b[GE_MAX_RANK], e[GE_MAX_RANK], od[GE_MAX_RANK];
    int64_t oi[GE_MAX_RANK], xi[GE_MAX_RANK], k;
    ge_value x, p, cv, av, *in[4];
    int ok = 1;
    rand_dims(&seed, r, 1, 4, dims);
    na = use_axes ? (int32_t)rng_int(&seed, 0, r) : r;
    for (i = 0; i < r; i++) b[i] = e[i] = 0;
    for (i = 0; i < na; i++) {
      axes[i] = use_axes ? (i + r - na) - (rng_int(&seed, 0, 1) ? r : 0) : i;
      pads[i] = rng_int(&seed, mode == 0 ? -dims[i + r - na] : 0, 5);
      pads[na + i] = rng_int(&seed, mode == 0 ? -dims[i + r - na] + (pads[i] < 0 ? -pads[i] : 0) : -1, 5);
      if (pads[na + i] < 0 && mode != 0) pads[na + i] = 0;
      if (pads[i] + pads[na + i] + dims[i + r - na] < 0) pads[na + i] = 0;
      b[i + r - na] = pads[i];
      e[i + r - na] = pads[na + i];
    }
    x = rand_value(&seed, dt, r, dims);
    p = v1i(2 * na, pads);
    cv = rand_value(&seed, dt, 0, NULL);
    av = v1i(na, axes);
    in[0] = &x, in[1] = &p, in[2] = use_const ? &cv : NULL, in[3] = use_axes ? &av : NULL;
    set_s(&t, "mode", modes[mode]);
    GE_CHECK_EQ_INT(tk_run(&t, in, 4), GE_OK);
    for (i = 0; i < r; i++) od[i] = dims[i] + b[i] + e[i];
    GE_CHECK(same_shape(&t.out[0], r, od));
    for (k = 0; k < t.out[0].numel && ok; k++) {
      int inside = 1;
      unravel(k, r, od, oi);
      for (i = 0; i < r; i++) {
        xi[i] = pad_src(mode, oi[i] - b[i], dims[i]);
        if (xi[i] < 0) inside = 0;
      }
      if (inside) {
        ok = elem_eq(&t.out[0], k, &x, ravel(r, dims, xi));
      } else if (use_const) {
        ok = elem_eq(&t.out[0], k, &cv, 0);
      } else if (dt == GE_DTYPE_STRING) {
        ok = strcmp(((const char **)t.out[0].data)[k], "") == 0;
      } else {
        size_t z, es = esize(dt);
        for (z = 0; z < es; z++) ok &= ((unsigned char *)t.out[0].data)[k * es + z] == 0;
      }
    }
    if (!ok) printf("  pad mismatch at iteration %d (mode %s)\n", iter, modes[mode]);
    GE_CHECK(ok);
    kh_free(&x), kh_free(&p), kh_free(&cv), kh_free(&av);
  }
  tk_free(&t);
}

GE_TEST(test_pad_examples_and_errors) {
  tk t;
  /* ONNX Pad example: reflect of [[1,1.2],[2.3,3.4],[4.5,5.7]] with pads [0,2,0,0] */
  int64_t d[2] = {3, 2}, pads[4] = {0, 2, 0, 0}, wd[2] = {3, 4};
  float xv[6] = {1.0f, 1.2f, 2.3f, 3.4f, 4.5f, 5.7f};
  float w_reflect[12] = {1.0f, 1.2f, 1.0f, 1.2f, 2.3f, 3.4f, 2.3f, 3.4f, 4.5f, 5.7f, 4.5f, 5.7f};
  float w_edge[12] = {1.0f, 1.0f, 1.0f, 1.2f, 2.3f, 2.3f, 2.3f, 3.4f, 4.5f, 4.5f, 4.5f, 5.7f};
  float w_const[12] = {0, 0, 1.0f, 1.2f, 0, 0, 2.3f, 3.4f, 0, 0, 4.5f, 5.7f};
  ge_value x = vf32(2, d, xv), p = v1i(4, pads), *in[4];
  in[0] = &x, in[1] = &p, in[2] = NULL, in[3] = NULL;
  GE_REQUIRE(tk_make(&t, "Pad", 4, 1));
  set_s(&t, "mode", "reflect");
  GE_CHECK_EQ_INT(tk_run(&t, in, 4), GE_OK);
  GE_CHECK(same_shape(&t.out[0], 2, wd));
  GE_CHECK(eq_f(&t.out[0], w_reflect, 12));
  set_s(&t, "mode", "edge");
  GE_CHECK_EQ_INT(tk_run(&t, in, 4), GE_OK);
  GE_CHECK(eq_f(&t.out[0], w_edge, 12));
  set_s(&t, "mode", "constant");
  GE_CHECK_EQ_INT(tk_run(&t, in, 2), GE_OK);
  GE_CHECK(eq_f(&t.out[0], w_const, 12));
  set_s(&t, "mode", "mirror");
  GE_CHECK_EQ_INT(tk_run(&t, in, 2), GE_ERR_INVALID);
  set_s(&t, "mode", "constant");
  ((int64_t *)p.data)[1] = -5; /* crops below zero */
  GE_CHECK_EQ_INT(tk_run(&t, in, 2), GE_ERR_SHAPE);
  ((int64_t *)p.data)[1] = INT64_MAX;
  GE_CHECK_EQ_INT(tk_run(&t, in, 2), GE_ERR_SHAPE);
  ((int64_t *)p.data)[1] = 1LL << 45;
  GE_CHECK_EQ_INT(tk_run(&t, in, 2), GE_ERR_SHAPE);
  kh_free(&p);
  p = v1i(3, pads);
  in[1] = &p;
  GE_CHECK_EQ_INT(tk_run(&t, in, 2), GE_ERR_INVALID);
  kh_free(&p);
  tk_free(&t);
  /* opset 2: pads and value as attributes; value converted to the dtype */
  GE_REQUIRE(tk_make(&t, "Pad", 1, 1));
  pads[1] = 1;
  set_is(&t, "pads", pads, 4);
  set_f(&t, "value", 2.5);
  GE_CHECK_EQ_INT(tk_run(&t, in, 1), GE_OK);
  GE_CHECK_NEAR(((float *)t.out[0].data)[0], 2.5, 0);
  GE_CHECK_EQ_INT(t.out[0].dims[1], 3);
  tk_free(&t);
  kh_free(&x);
  {
    /* edge/reflect/wrap of an empty tensor to a non-empty one: an error */
    int64_t e2[2] = {0, 2}, p2[4] = {1, 0, 0, 0};
    ge_value xe = kh_value(GE_DTYPE_FLOAT32, 2, e2, NULL), pe = v1i(4, p2);
    in[0] = &xe, in[1] = &pe;
    GE_REQUIRE(tk_make(&t, "Pad", 2, 1));
    set_s(&t, "mode", "edge");
    GE_CHECK_EQ_INT(tk_run(&t, in, 2), GE_ERR_INVALID);
    set_s(&t, "mode", "constant");
    GE_CHECK_EQ_INT(tk_run(&t, in, 2), GE_OK);
    GE_CHECK_EQ_INT(t.out[0].numel, 2);
    tk_free(&t);
    kh_free(&xe), kh_free(&pe);
  }
}

/* ---------------------------------------------- shape, size, constants */

GE_TEST(test_shape_size) {
  tk t;
  int64_t d[3] = {3, 4, 5}, s, e;
  ge_value x = kh_value(GE_DTYPE_FLOAT32, 3, d, NULL), *in[1];
  in[0] = &x;
  GE_REQUIRE(tk_make(&t, "Shape", 1, 1));
  for (s = -5; s <= 5; s++)
    for (e = -5; e <= 6; e++) {
      int64_t a = s < 0 ? s + 3 : s, b = e < 0 ? e + 3 : e, n, i;
      int ok = 1;
      a = a < 0 ? 0 : a > 3 ? 3 : a;
      b = b < 0 ? 0 : b > 3 ? 3 : b;
      n = b > a ? b - a : 0;
      set_i(&t, "start", s);
      if (e == 6) ge_node_remove_attr(t.g, t.id, "end", NULL);
      else set_i(&t, "end", e);
      if (e == 6) n = 3 - a;
      GE_CHECK_EQ_INT(tk_run(&t, in, 1), GE_OK);
      GE_CHECK_EQ_INT(t.out[0].numel, n);
      for (i = 0; i < n && ok; i++) ok = ((int64_t *)t.out[0].data)[i] == d[a + i];
      GE_CHECK(ok);
    }
  tk_free(&t);
  GE_REQUIRE(tk_make(&t, "Size", 1, 1));
  GE_CHECK_EQ_INT(tk_run(&t, in, 1), GE_OK);
  GE_CHECK_EQ_INT(t.out[0].rank, 0);
  GE_CHECK_EQ_INT(((int64_t *)t.out[0].data)[0], 60);
  tk_free(&t);
  kh_free(&x);
}

GE_TEST(test_constant_of_shape) {
  tk t;
  int64_t sh[2] = {2, 3}, one = 1, big[3] = {1LL << 20, 1LL << 20, 1LL << 20}, neg[1] = {-1};
  int32_t seven = 7;
  ge_tensor tv;
  ge_value s = v1i(2, sh), *in[1];
  in[0] = &s;
  GE_REQUIRE(tk_make(&t, "ConstantOfShape", 1, 1));
  GE_CHECK_EQ_INT(tk_run(&t, in, 1), GE_OK); /* default: float 0 */
  GE_CHECK_EQ_INT(t.out[0].dtype, GE_DTYPE_FLOAT32);
  GE_CHECK_EQ_INT(t.out[0].numel, 6);
  GE_CHECK_NEAR(ge__hc_get_f(&t.out[0], 5), 0, 0);
  memset(&tv, 0, sizeof tv);
  tv.dtype = GE_DTYPE_INT32;
  tv.rank = 1;
  tv.dims = &one;
  tv.data = &seven;
  tv.nbytes = 4;
  ge_node_set_attr_tensor(t.g, t.id, "value", &tv, NULL);
  GE_CHECK_EQ_INT(tk_run(&t, in, 1), GE_OK);
  GE_CHECK_EQ_INT(t.out[0].dtype, GE_DTYPE_INT32);
  GE_CHECK_EQ_INT(((int32_t *)t.out[0].data)[4], 7);
  kh_free(&s);
  s = v1i(0, NULL); /* empty shape: a scalar */
  in[0] = &s;
  GE_CHECK_EQ_INT(tk_run(&t, in, 1), GE_OK);
  GE_CHECK_EQ_INT(t.out[0].rank, 0);
  GE_CHECK_EQ_INT(((int32_t *)t.out[0].data)[0], 7);
  kh_free(&s);
  s = v1i(3, big); /* 2^60 elements: refused before allocating */
  GE_CHECK_EQ_INT(tk_run(&t, in, 1), GE_ERR_SHAPE);
  kh_free(&s);
  s = v1i(1, neg);
  GE_CHECK_EQ_INT(tk_run(&t, in, 1), GE_ERR_INVALID);
  kh_free(&s);
  tk_free(&t);
}

GE_TEST(test_range) {
  tk t;
  ge_value a, b, d, *in[3];
  GE_REQUIRE(tk_make(&t, "Range", 3, 1));
  in[0] = &a, in[1] = &b, in[2] = &d;
  {
    float fa = 3, fb = 9, fd = 3, w[2] = {3, 6};
    a = vf32(0, NULL, &fa), b = vf32(0, NULL, &fb), d = vf32(0, NULL, &fd);
    GE_CHECK_EQ_INT(tk_run(&t, in, 3), GE_OK);
    GE_CHECK(eq_f(&t.out[0], w, 2));
    ((float *)d.data)[0] = 0;
    GE_CHECK_EQ_INT(tk_run(&t, in, 3), GE_ERR_INVALID);
    ((float *)d.data)[0] = 1e-30f; /* 9e30 elements */
    GE_CHECK_EQ_INT(tk_run(&t, in, 3), GE_ERR_SHAPE);
    ((float *)d.data)[0] = -1; /* empty */
    GE_CHECK_EQ_INT(tk_run(&t, in, 3), GE_OK);
    GE_CHECK_EQ_INT(t.out[0].numel, 0);
    kh_free(&a), kh_free(&b), kh_free(&d);
  }
  {
    int32_t ia = 10, ib = 4, id = -3;
    int64_t w[2] = {10, 7};
    a = kh_value(GE_DTYPE_INT32, 0, NULL, &ia), b = kh_value(GE_DTYPE_INT32, 0, NULL, &ib), d = kh_value(GE_DTYPE_INT32, 0, NULL, &id);
    GE_CHECK_EQ_INT(tk_run(&t, in, 3), GE_OK);
    GE_CHECK_EQ_INT(t.out[0].dtype, GE_DTYPE_INT32);
    GE_CHECK(eq_i64(&t.out[0], w, 2));
    kh_free(&a), kh_free(&b), kh_free(&d);
  }
  {
    int64_t ia = INT64_MIN, ib = INT64_MAX, id = 1; /* 2^64 elements */
    a = v0i(ia), b = v0i(ib), d = v0i(id);
    GE_CHECK_EQ_INT(tk_run(&t, in, 3), GE_ERR_SHAPE);
    ((int64_t *)d.data)[0] = INT64_MAX / 4; /* 2^61 - 1: 9 elements, exact near the limits */
    GE_CHECK_EQ_INT(tk_run(&t, in, 3), GE_OK);
    GE_CHECK_EQ_INT(t.out[0].numel, 9);
    GE_CHECK(((int64_t *)t.out[0].data)[8] == INT64_MAX - 7);
    kh_free(&a), kh_free(&b), kh_free(&d);
  }
  tk_free(&t);
}

GE_TEST(test_constant) {
  tk t;
  float fv[6] = {1, 2, 3, 4, 5, 6};
  int64_t d23[2] = {2, 3}, iv[3] = {4, 5, 6};
  double ff[2] = {0.5, 1.5};
  const char *ss[2] = {"ab", "cd"};
  ge_tensor tv;
  GE_REQUIRE(tk_make(&t, "Constant", 0, 1));
  GE_CHECK_EQ_INT(tk_run(&t, NULL, 0), GE_ERR_INVALID);
  memset(&tv, 0, sizeof tv);
  tv.dtype = GE_DTYPE_FLOAT32, tv.rank = 2, tv.dims = d23, tv.data = fv, tv.nbytes = sizeof fv;
  ge_node_set_attr_tensor(t.g, t.id, "value", &tv, NULL);
  GE_CHECK_EQ_INT(tk_run(&t, NULL, 0), GE_OK);
  GE_CHECK(same_shape(&t.out[0], 2, d23));
  GE_CHECK(eq_f(&t.out[0], fv, 6));
  tk_free(&t);
  GE_REQUIRE(tk_make(&t, "Constant", 0, 1));
  set_f(&t, "value_float", 2.5);
  GE_CHECK_EQ_INT(tk_run(&t, NULL, 0), GE_OK);
  GE_CHECK_EQ_INT(t.out[0].rank, 0);
  GE_CHECK_NEAR(((float *)t.out[0].data)[0], 2.5, 0);
  tk_free(&t);
  GE_REQUIRE(tk_make(&t, "Constant", 0, 1));
  ge_node_set_attr_floats(t.g, t.id, "value_floats", ff, 2, NULL);
  GE_CHECK_EQ_INT(tk_run(&t, NULL, 0), GE_OK);
  GE_CHECK_EQ_INT(t.out[0].dtype, GE_DTYPE_FLOAT32);
  GE_CHECK_NEAR(((float *)t.out[0].data)[1], 1.5, 0);
  tk_free(&t);
  GE_REQUIRE(tk_make(&t, "Constant", 0, 1));
  set_i(&t, "value_int", -7);
  GE_CHECK_EQ_INT(tk_run(&t, NULL, 0), GE_OK);
  GE_CHECK_EQ_INT(((int64_t *)t.out[0].data)[0], -7);
  tk_free(&t);
  GE_REQUIRE(tk_make(&t, "Constant", 0, 1));
  set_is(&t, "value_ints", iv, 3);
  GE_CHECK_EQ_INT(tk_run(&t, NULL, 0), GE_OK);
  GE_CHECK(eq_i64(&t.out[0], iv, 3));
  tk_free(&t);
  GE_REQUIRE(tk_make(&t, "Constant", 0, 1));
  set_s(&t, "value_string", "hello");
  GE_CHECK_EQ_INT(tk_run(&t, NULL, 0), GE_OK);
  GE_CHECK_EQ_INT(t.out[0].dtype, GE_DTYPE_STRING);
  GE_CHECK_STR(((const char **)t.out[0].data)[0], "hello");
  tk_free(&t);
  GE_REQUIRE(tk_make(&t, "Constant", 0, 1));
  ge_node_set_attr_strings(t.g, t.id, "value_strings", ss, 2, NULL);
  GE_CHECK_EQ_INT(tk_run(&t, NULL, 0), GE_OK);
  GE_CHECK_EQ_INT(t.out[0].numel, 2);
  GE_CHECK_STR(((const char **)t.out[0].data)[1], "cd");
  tk_free(&t);
}

/* ------------------------------------------------ depth/space, one-hot */

GE_TEST(test_depth_space_random) {
  uint64_t seed = 5151;
  int iter;
  tk d2s, s2d;
  GE_REQUIRE(tk_make(&d2s, "DepthToSpace", 1, 1));
  GE_REQUIRE(tk_make(&s2d, "SpaceToDepth", 1, 1));
  for (iter = 0; iter < 60; iter++) {
    ge_dtype dt = dtypes[iter % N_DTYPES];
    int64_t b = rng_int(&seed, 1, 3), N = rng_int(&seed, 1, 2), C = rng_int(&seed, 1, 3), H = rng_int(&seed, 1, 3), W = rng_int(&seed, 1, 3);
    int64_t xd[4], od[4], t6[6], s6[6], ti[6], si[6], k;
    int crd = iter % 2, ok = 1;
    ge_value x, *in[1];
    /* DepthToSpace: x [N, C*b*b, H, W]; reference through the ONNX
     * reshape-transpose-reshape formulation, in 6-D index arithmetic */
    xd[0] = N, xd[1] = C * b * b, xd[2] = H, xd[3] = W;
    x = rand_value(&seed, dt, 4, xd);
    in[0] = &x;
    set_i(&d2s, "blocksize", b);
    set_s(&d2s, "mode", crd ? "CRD" : "DCR");
    GE_CHECK_EQ_INT(tk_run(&d2s, in, 1), GE_OK);
    od[0] = N, od[1] = C, od[2] = H * b, od[3] = W * b;
    GE_CHECK(same_shape(&d2s.out[0], 4, od));
    /* transposed tensor [N, C, H, b, W, b] */
    t6[0] = N, t6[1] = C, t6[2] = H, t6[3] = b, t6[4] = W, t6[5] = b;
    for (k = 0; k < d2s.out[0].numel && ok; k++) {
      unravel(k, 6, t6, ti); /* (n, c, h, b1, w, b2) */
      if (crd) { /* reshape [N, C, b, b, H, W], perm [0,1,4,2,5,3] */
        s6[0] = N, s6[1] = C, s6[2] = b, s6[3] = b, s6[4] = H, s6[5] = W;
        si[0] = ti[0], si[1] = ti[1], si[2] = ti[3], si[3] = ti[5], si[4] = ti[2], si[5] = ti[4];
      } else { /* reshape [N, b, b, C, H, W], perm [0,3,4,1,5,2] */
        s6[0] = N, s6[1] = b, s6[2] = b, s6[3] = C, s6[4] = H, s6[5] = W;
        si[0] = ti[0], si[1] = ti[3], si[2] = ti[5], si[3] = ti[1], si[4] = ti[2], si[5] = ti[4];
      }
      ok = elem_eq(&d2s.out[0], k, &x, ravel(6, s6, si));
    }
    GE_CHECK(ok);
    kh_free(&x);
    /* SpaceToDepth: x [N, C, H*b, W*b]; reshape [N, C, H, b, W, b],
     * perm [0, 3, 5, 1, 2, 4] -> [N, b, b, C, H, W] */
    xd[0] = N, xd[1] = C, xd[2] = H * b, xd[3] = W * b;
    x = rand_value(&seed, dt, 4, xd);
    in[0] = &x;
    set_i(&s2d, "blocksize", b);
    GE_CHECK_EQ_INT(tk_run(&s2d, in, 1), GE_OK);
    od[0] = N, od[1] = C * b * b, od[2] = H, od[3] = W;
    GE_CHECK(same_shape(&s2d.out[0], 4, od));
    t6[0] = N, t6[1] = b, t6[2] = b, t6[3] = C, t6[4] = H, t6[5] = W;
    s6[0] = N, s6[1] = C, s6[2] = H, s6[3] = b, s6[4] = W, s6[5] = b;
    for (k = 0, ok = 1; k < s2d.out[0].numel && ok; k++) {
      unravel(k, 6, t6, ti); /* (n, b1, b2, c, h, w) */
      si[0] = ti[0], si[1] = ti[3], si[2] = ti[4], si[3] = ti[1], si[4] = ti[5], si[5] = ti[2];
      ok = elem_eq(&s2d.out[0], k, &x, ravel(6, s6, si));
    }
    GE_CHECK(ok);
    kh_free(&x);
  }
  {
    int64_t xd[4] = {1, 3, 2, 2};
    ge_value x = kh_value(GE_DTYPE_FLOAT32, 4, xd, NULL), *in[1];
    in[0] = &x;
    set_i(&d2s, "blocksize", 2); /* 3 channels */
    GE_CHECK_EQ_INT(tk_run(&d2s, in, 1), GE_ERR_SHAPE);
    set_i(&d2s, "blocksize", 0);
    GE_CHECK_EQ_INT(tk_run(&d2s, in, 1), GE_ERR_INVALID);
    set_i(&s2d, "blocksize", 3); /* 2x2 spatial */
    GE_CHECK_EQ_INT(tk_run(&s2d, in, 1), GE_ERR_SHAPE);
    kh_free(&x);
  }
  tk_free(&d2s);
  tk_free(&s2d);
}

GE_TEST(test_one_hot) {
  tk t;
  /* ONNX example with axis 1: indices [[1,9],[2,4]], depth 10, values [1,3] */
  int64_t d22[2] = {2, 2}, wd[3] = {2, 10, 2}, k;
  float iv[4] = {1, 9, 2, 4}, depth = 10, vals[2] = {1, 3};
  ge_value ind = vf32(2, d22, iv), dep = vf32(0, NULL, &depth), v, *in[3];
  int64_t two = 2;
  v = vf32(1, &two, vals);
  in[0] = &ind, in[1] = &dep, in[2] = &v;
  GE_REQUIRE(tk_make(&t, "OneHot", 3, 1));
  set_i(&t, "axis", 1);
  GE_CHECK_EQ_INT(tk_run(&t, in, 3), GE_OK);
  GE_CHECK(same_shape(&t.out[0], 3, wd));
  for (k = 0; k < 40; k++) {
    int64_t idx[3];
    float want;
    unravel(k, 3, wd, idx);
    want = iv[idx[0] * 2 + idx[2]] == (float)idx[1] ? 3.0f : 1.0f;
    GE_CHECK_NEAR(((float *)t.out[0].data)[k], want, 0);
  }
  set_i(&t, "axis", -2); /* the same axis */
  GE_CHECK_EQ_INT(tk_run(&t, in, 3), GE_OK);
  GE_CHECK(same_shape(&t.out[0], 3, wd));
  /* negative indices count from the end; out of range gives all off */
  kh_free(&ind);
  {
    int64_t n3 = 3, ii[3] = {-1, 10, -11};
    ind = v1i(3, ii);
    in[0] = &ind;
    set_i(&t, "axis", -1);
    GE_CHECK_EQ_INT(tk_run(&t, in, 3), GE_OK);
    GE_CHECK_EQ_INT(t.out[0].numel, 30);
    for (k = 0; k < 30; k++) GE_CHECK_NEAR(((float *)t.out[0].data)[k], k == 9 ? 3 : 1, 0);
    (void)n3;
  }
  set_i(&t, "axis", 3);
  GE_CHECK_EQ_INT(tk_run(&t, in, 3), GE_ERR_INVALID);
  set_i(&t, "axis", -1);
  ((float *)dep.data)[0] = -1;
  GE_CHECK_EQ_INT(tk_run(&t, in, 3), GE_ERR_INVALID);
  ((float *)dep.data)[0] = 1e30f;
  GE_CHECK_EQ_INT(tk_run(&t, in, 3), GE_ERR_INVALID);
  ((float *)dep.data)[0] = 1e15f; /* 3e15 floats */
  GE_CHECK_EQ_INT(tk_run(&t, in, 3), GE_ERR_SHAPE);
  tk_free(&t);
  kh_free(&ind), kh_free(&dep), kh_free(&v);
}

/* ------------------------------------------------------ index-producing */

GE_TEST(test_topk_random) {
  uint64_t seed = 606;
  int iter;
  tk t;
  GE_REQUIRE(tk_make(&t, "TopK", 2, 2));
  for (iter = 0; iter < 150; iter++) {
    static const ge_dtype tdt[] = {GE_DTYPE_FLOAT32, GE_DTYPE_INT32, GE_DTYPE_FLOAT16, GE_DTYPE_INT64, GE_DTYPE_UINT8, GE_DTYPE_FLOAT64};
    ge_dtype dt = tdt[iter % 6];
    int32_t r = (int32_t)rng_int(&seed, 1, 3), axis = (int32_t)rng_int(&seed, 0, r - 1);
    int64_t dims[GE_MAX_RANK], od[GE_MAX_RANK], k, K, outer = 1, inner = 1, o, s, j, d;
    int largest = (int)rng_int(&seed, 0, 1), ok = 1;
    ge_value x, kv, *in[2];
    rand_dims(&seed, r, 1, 5, dims);
    d = dims[axis];
    K = rng_int(&seed, 0, d);
    x = kh_value(dt, r, dims, NULL);
    for (k = 0; k < x.numel; k++) ge__hc_set_f(&x, k, (double)rng_int(&seed, 0, 5)); /* many ties */
    kv = v1i(1, &K);
    in[0] = &x, in[1] = &kv;
    set_i(&t, "axis", axis - (iter % 2 ? r : 0));
    set_i(&t, "largest", largest);
    GE_CHECK_EQ_INT(tk_run(&t, in, 2), GE_OK);
    memcpy(od, dims, sizeof od);
    od[axis] = K;
    GE_CHECK(same_shape(&t.out[0], r, od));
    GE_CHECK(same_shape(&t.out[1], r, od));
    for (j = 0; j < axis; j++) outer *= dims[j];
    for (j = axis + 1; j < r; j++) inner *= dims[j];
    for (o = 0; o < outer && ok; o++)
      for (s = 0; s < inner && ok; s++) {
        uint8_t taken[8] = {0};
        for (j = 0; j < K && ok; j++) { /* selection: best remaining, lowest index on ties */
          int64_t best = -1, i;
          for (i = 0; i < d; i++) {
            double vi = ge__hc_get_f(&x, (o * d + i) * inner + s), vb;
            if (taken[i]) continue;
            if (best < 0) { best = i; continue; }
            vb = ge__hc_get_f(&x, (o * d + best) * inner + s);
            if (largest ? vi > vb : vi < vb) best = i;
          }
          taken[best] = 1;
          ok = ((int64_t *)t.out[1].data)[(o * K + j) * inner + s] == best &&
               ge__hc_get_f(&t.out[0], (o * K + j) * inner + s) == ge__hc_get_f(&x, (o * d + best) * inner + s);
        }
      }
    GE_CHECK(ok);
    ((int64_t *)kv.data)[0] = d + 1;
    GE_CHECK_EQ_INT(tk_run(&t, in, 2), GE_ERR_INVALID);
    ((int64_t *)kv.data)[0] = -1;
    GE_CHECK_EQ_INT(tk_run(&t, in, 2), GE_ERR_INVALID);
    kh_free(&x), kh_free(&kv);
  }
  {
    /* opset 1: k as an attribute; strings are refused */
    int64_t d4 = 4;
    float xv[4] = {1, 4, 2, 4};
    ge_value x = vf32(1, &d4, xv), *in[1];
    in[0] = &x;
    set_i(&t, "k", 2);
    set_i(&t, "largest", 1);
    set_i(&t, "axis", 0);
    GE_CHECK_EQ_INT(tk_run(&t, in, 1), GE_OK);
    GE_CHECK_EQ_INT(((int64_t *)t.out[1].data)[0], 1);
    GE_CHECK_EQ_INT(((int64_t *)t.out[1].data)[1], 3);
    kh_free(&x);
    x = kh_value(GE_DTYPE_STRING, 1, &d4, NULL);
    in[0] = &x;
    GE_CHECK_EQ_INT(tk_run(&t, in, 1), GE_ERR_UNSUPPORTED);
    kh_free(&x);
  }
  tk_free(&t);
}

GE_TEST(test_unique_random) {
  uint64_t seed = 9191;
  int iter;
  tk t;
  GE_REQUIRE(tk_make(&t, "Unique", 1, 4));
  for (iter = 0; iter < 100; iter++) {
    int sorted = iter % 2;
    int64_t n = rng_int(&seed, 0, 12), k, i, U = 0, vals[16], first[16], cnt[16], inv[16];
    ge_value x = kh_value(iter % 3 ? GE_DTYPE_INT32 : GE_DTYPE_FLOAT32, 1, &n, NULL), *in[1];
    int ok = 1;
    for (k = 0; k < n; k++) ge__hc_set_f(&x, k, (double)rng_int(&seed, -3, 3));
    /* reference: first occurrences in order, then (sorted) a selection sort */
    for (k = 0; k < n; k++) {
      int64_t v = (int64_t)ge__hc_get_f(&x, k);
      for (i = 0; i < U && vals[i] != v; i++) {
      }
      if (i == U) vals[U] = v, first[U] = k, cnt[U] = 0, U++;
      cnt[i]++;
    }
    if (sorted)
      for (i = 0; i < U; i++) {
        int64_t m = i, j, tmp;
        for (j = i + 1; j < U; j++)
          if (vals[j] < vals[m]) m = j;
        tmp = vals[i], vals[i] = vals[m], vals[m] = tmp;
        tmp = first[i], first[i] = first[m], first[m] = tmp;
        tmp = cnt[i], cnt[i] = cnt[m], cnt[m] = tmp;
      }
    for (k = 0; k < n; k++)
      for (i = 0; i < U; i++)
        if (vals[i] == (int64_t)ge__hc_get_f(&x, k)) inv[k] = i;
    in[0] = &x;
    set_i(&t, "sorted", sorted);
    GE_CHECK_EQ_INT(tk_run(&t, in, 1), GE_OK);
    GE_CHECK_EQ_INT(t.out[0].numel, U);
    for (i = 0; i < U && ok; i++) ok = (int64_t)ge__hc_get_f(&t.out[0], i) == vals[i];
    ok = ok && eq_i64(&t.out[1], first, U) && eq_i64(&t.out[2], inv, n) && eq_i64(&t.out[3], cnt, U);
    GE_CHECK(ok);
    kh_free(&x);
  }
  tk_free(&t);
}

GE_TEST(test_unique_axis_examples) {
  tk t;
  /* ONNX example 3: [[1,0,0],[1,0,0],[2,3,4]], axis 0 */
  int64_t d33[2] = {3, 3};
  float xv[9] = {1, 0, 0, 1, 0, 0, 2, 3, 4};
  ge_value x = vf32(2, d33, xv), *in[1];
  in[0] = &x;
  GE_REQUIRE(tk_make(&t, "Unique", 1, 4));
  set_i(&t, "axis", 0);
  GE_CHECK_EQ_INT(tk_run(&t, in, 1), GE_OK);
  {
    float wy[6] = {1, 0, 0, 2, 3, 4};
    int64_t wi[2] = {0, 2}, winv[3] = {0, 0, 1}, wc[2] = {2, 1}, wd[2] = {2, 3};
    GE_CHECK(same_shape(&t.out[0], 2, wd));
    GE_CHECK(eq_f(&t.out[0], wy, 6));
    GE_CHECK(eq_i64(&t.out[1], wi, 2));
    GE_CHECK(eq_i64(&t.out[2], winv, 3));
    GE_CHECK(eq_i64(&t.out[3], wc, 2));
  }
  kh_free(&x);
  {
    /* example 4: [2,4,2] along axis 1 */
    int64_t d[3] = {2, 4, 2};
    float v[16] = {1, 1, 0, 1, 2, 1, 0, 1, 1, 1, 0, 1, 2, 1, 0, 1};
    float wy[12] = {0, 1, 1, 1, 2, 1, 0, 1, 1, 1, 2, 1};
    int64_t wi[3] = {1, 0, 2}, winv[4] = {1, 0, 2, 0}, wc[3] = {2, 1, 1}, wd[3] = {2, 3, 2};
    x = vf32(3, d, v);
    in[0] = &x;
    set_i(&t, "axis", -2);
    GE_CHECK_EQ_INT(tk_run(&t, in, 1), GE_OK);
    GE_CHECK(same_shape(&t.out[0], 3, wd));
    GE_CHECK(eq_f(&t.out[0], wy, 12));
    GE_CHECK(eq_i64(&t.out[1], wi, 3));
    GE_CHECK(eq_i64(&t.out[2], winv, 4));
    GE_CHECK(eq_i64(&t.out[3], wc, 3));
    kh_free(&x);
  }
  {
    /* strings, unsorted: first occurrence order */
    int64_t d4 = 4;
    const char *sv[4] = {"b", "a", "b", "c"};
    x = kh_value(GE_DTYPE_STRING, 1, &d4, sv);
    in[0] = &x;
    ge_node_remove_attr(t.g, t.id, "axis", NULL);
    set_i(&t, "sorted", 0);
    GE_CHECK_EQ_INT(tk_run(&t, in, 1), GE_OK);
    GE_CHECK_EQ_INT(t.out[0].numel, 3);
    GE_CHECK_STR(((const char **)t.out[0].data)[0], "b");
    GE_CHECK_STR(((const char **)t.out[0].data)[2], "c");
    kh_free(&x);
  }
  tk_free(&t);
  /* only the first output */
  GE_REQUIRE(tk_make(&t, "Unique", 1, 1));
  x = vf32(2, d33, xv);
  in[0] = &x;
  GE_CHECK_EQ_INT(tk_run(&t, in, 1), GE_OK);
  GE_CHECK_EQ_INT(t.out[0].numel, 5);
  tk_free(&t);
  kh_free(&x);
}

GE_TEST(test_non_zero_compress) {
  tk t;
  int64_t d[2] = {2, 3}, k;
  int32_t xv[6] = {1, 0, 3, 0, 0, -2};
  ge_value x = kh_value(GE_DTYPE_INT32, 2, d, xv), c, *in[2];
  int64_t want[6] = {0, 0, 1, 0, 2, 2}, wd[2] = {2, 3};
  in[0] = &x;
  GE_REQUIRE(tk_make(&t, "NonZero", 1, 1));
  GE_CHECK_EQ_INT(tk_run(&t, in, 1), GE_OK);
  GE_CHECK(same_shape(&t.out[0], 2, wd));
  GE_CHECK(eq_i64(&t.out[0], want, 6));
  {
    int64_t e[2] = {0, 3}, wz[2] = {2, 0};
    ge_value z = kh_value(GE_DTYPE_FLOAT32, 2, e, NULL);
    in[0] = &z;
    GE_CHECK_EQ_INT(tk_run(&t, in, 1), GE_OK);
    GE_CHECK(same_shape(&t.out[0], 2, wz));
    kh_free(&z);
  }
  {
    uint8_t b = 1;
    int64_t ws[2] = {1, 1};
    ge_value s = kh_value(GE_DTYPE_BOOL, 0, NULL, &b);
    in[0] = &s;
    GE_CHECK_EQ_INT(tk_run(&t, in, 1), GE_OK);
    GE_CHECK(same_shape(&t.out[0], 2, ws));
    kh_free(&s);
  }
  tk_free(&t);

  /* Compress: ONNX examples */
  GE_REQUIRE(tk_make(&t, "Compress", 2, 1));
  in[0] = &x;
  {
    uint8_t cv[3] = {0, 1, 1};
    int64_t n3 = 3, w13[2] = {2, 2};
    c = kh_value(GE_DTYPE_BOOL, 1, &n3, cv);
    in[1] = &c;
    set_i(&t, "axis", 1);
    GE_CHECK_EQ_INT(tk_run(&t, in, 2), GE_OK);
    GE_CHECK(same_shape(&t.out[0], 2, w13));
    {
      int64_t w[4] = {0, 3, 0, -2};
      GE_CHECK(eq_i64(&t.out[0], w, 4));
    }
    ge_node_remove_attr(t.g, t.id, "axis", NULL); /* flattened: elements 1 and 2 */
    GE_CHECK_EQ_INT(tk_run(&t, in, 2), GE_OK);
    GE_CHECK_EQ_INT(t.out[0].rank, 1);
    {
      int64_t w[2] = {0, 3};
      GE_CHECK(eq_i64(&t.out[0], w, 2));
    }
    set_i(&t, "axis", 0); /* condition true past dim 0 (2) */
    GE_CHECK_EQ_INT(tk_run(&t, in, 2), GE_ERR_INVALID);
    ((uint8_t *)c.data)[2] = 0;
    GE_CHECK_EQ_INT(tk_run(&t, in, 2), GE_OK); /* longer but false: fine */
    for (k = 0; k < 3; k++) GE_CHECK_EQ_INT(((int32_t *)t.out[0].data)[k], xv[3 + k]);
    kh_free(&c);
  }
  tk_free(&t);
  kh_free(&x);
}

GE_TEST(test_trilu_eye_like) {
  uint64_t seed = 11;
  tk t;
  int64_t d[3] = {2, 3, 4}, k, kk;
  ge_value x = rand_value(&seed, GE_DTYPE_INT64, 3, d), kv, *in[2];
  GE_REQUIRE(tk_make(&t, "Trilu", 2, 1));
  in[0] = &x;
  for (kk = -5; kk <= 5; kk++) {
    int upper;
    kv = v0i(kk);
    in[1] = &kv;
    for (upper = 0; upper <= 1; upper++) {
      int ok = 1;
      set_i(&t, "upper", upper);
      GE_CHECK_EQ_INT(tk_run(&t, in, 2), GE_OK);
      for (k = 0; k < 24 && ok; k++) {
        int64_t i = (k / 4) % 3, j = k % 4, keep = upper ? j - i >= kk : j - i <= kk;
        ok = keep ? elem_eq(&t.out[0], k, &x, k) : ((int64_t *)t.out[0].data)[k] == 0;
      }
      GE_CHECK(ok);
    }
    kh_free(&kv);
  }
  kv = v0i(INT64_MIN);
  in[1] = &kv;
  set_i(&t, "upper", 1);
  GE_CHECK_EQ_INT(tk_run(&t, in, 2), GE_OK); /* keeps everything */
  GE_CHECK(memcmp(t.out[0].data, x.data, x.nbytes) == 0);
  kh_free(&kv);
  tk_free(&t);
  kh_free(&x);

  GE_REQUIRE(tk_make(&t, "EyeLike", 1, 1));
  {
    int64_t d45[2] = {4, 5};
    x = kh_value(GE_DTYPE_INT32, 2, d45, NULL);
    in[0] = &x;
    for (kk = -5; kk <= 6; kk++) {
      int ok = 1;
      set_i(&t, "k", kk);
      set_i(&t, "dtype", GE_DTYPE_FLOAT64);
      GE_CHECK_EQ_INT(tk_run(&t, in, 1), GE_OK);
      GE_CHECK_EQ_INT(t.out[0].dtype, GE_DTYPE_FLOAT64);
      for (k = 0; k < 20 && ok; k++) ok = ((double *)t.out[0].data)[k] == (k % 5 - k / 5 == kk ? 1.0 : 0.0);
      GE_CHECK(ok);
    }
    set_i(&t, "dtype", GE_DTYPE_STRING);
    GE_CHECK_EQ_INT(tk_run(&t, in, 1), GE_ERR_UNSUPPORTED);
    set_i(&t, "dtype", 99);
    GE_CHECK_EQ_INT(tk_run(&t, in, 1), GE_ERR_UNSUPPORTED);
    kh_free(&x);
  }
  tk_free(&t);
}

GE_TEST(test_non_max_suppression) {
  /* ONNX examples: suppress by IOU (corners and centers), with scores, two classes */
  static const float corners[24] = {0, 0, 1, 1, 0, 0.1f, 1, 1.1f, 0, -0.1f, 1, 0.9f, 0, 10, 1, 11, 0, 10.1f, 1, 11.1f, 0, 100, 1, 101};
  static const float centers[24] = {0.5f, 0.5f, 1, 1, 0.5f, 0.6f, 1, 1, 0.5f, 0.4f, 1, 1, 0.5f, 10.5f, 1, 1, 0.5f, 10.6f, 1, 1, 0.5f, 100.5f, 1, 1};
  static const float scores[12] = {0.9f, 0.75f, 0.6f, 0.95f, 0.5f, 0.3f, 0.9f, 0.75f, 0.6f, 0.95f, 0.5f, 0.3f};
  int64_t bd[3] = {1, 6, 4}, sd[3] = {1, 1, 6}, one = 1, maxo = 3;
  float iou = 0.5f, thr = 0.0f;
  ge_value boxes = vf32(3, bd, corners), sc = vf32(3, sd, scores), mv = v1i(1, &maxo), iv = vf32(1, &one, &iou), tv = vf32(1, &one, &thr);
  ge_value *in[5];
  int64_t w3[9] = {0, 0, 3, 0, 0, 0, 0, 0, 5}, wd[2] = {3, 3};
  tk t;
  in[0] = &boxes, in[1] = &sc, in[2] = &mv, in[3] = &iv, in[4] = &tv;
  GE_REQUIRE(tk_make(&t, "NonMaxSuppression", 5, 1));
  GE_CHECK_EQ_INT(tk_run(&t, in, 5), GE_OK);
  GE_CHECK(same_shape(&t.out[0], 2, wd));
  GE_CHECK(eq_i64(&t.out[0], w3, 9));
  ((float *)tv.data)[0] = 0.4f; /* box 5 (0.3) goes */
  GE_CHECK_EQ_INT(tk_run(&t, in, 5), GE_OK);
  GE_CHECK(eq_i64(&t.out[0], w3, 6));
  ((float *)tv.data)[0] = 0;
  ((int64_t *)mv.data)[0] = 2; /* limit output size */
  GE_CHECK_EQ_INT(tk_run(&t, in, 5), GE_OK);
  GE_CHECK(eq_i64(&t.out[0], w3, 6));
  ((int64_t *)mv.data)[0] = 3;
  GE_CHECK_EQ_INT(tk_run(&t, in, 2), GE_OK); /* no max_output: nothing selected */
  GE_CHECK_EQ_INT(t.out[0].numel, 0);
  kh_free(&boxes);
  boxes = vf32(3, bd, centers);
  in[0] = &boxes;
  set_i(&t, "center_point_box", 1);
  GE_CHECK_EQ_INT(tk_run(&t, in, 5), GE_OK);
  GE_CHECK(eq_i64(&t.out[0], w3, 9));
  tk_free(&t);
  {
    int64_t sd2[3] = {1, 2, 6}, w4[12] = {0, 0, 3, 0, 0, 0, 0, 1, 3, 0, 1, 0};
    ge_value sc2 = vf32(3, sd2, scores);
    kh_free(&boxes);
    boxes = vf32(3, bd, corners);
    in[0] = &boxes, in[1] = &sc2;
    ((int64_t *)mv.data)[0] = 2;
    GE_REQUIRE(tk_make(&t, "NonMaxSuppression", 5, 1));
    GE_CHECK_EQ_INT(tk_run(&t, in, 5), GE_OK);
    GE_CHECK(eq_i64(&t.out[0], w4, 12));
    sc2.dims[2] = 5; /* scores no longer match boxes */
    GE_CHECK_EQ_INT(tk_run(&t, in, 5), GE_ERR_SHAPE);
    tk_free(&t);
    kh_free(&sc2);
  }
  kh_free(&boxes), kh_free(&sc), kh_free(&mv), kh_free(&iv), kh_free(&tv);
}

GE_TEST(test_reverse_sequence) {
  tk t;
  int64_t d[2] = {4, 4}, lens[4] = {4, 3, 2, 1}, k;
  float xv[16], w_time[16] = {3, 6, 9, 12, 2, 5, 8, 13, 1, 4, 10, 14, 0, 7, 11, 15};
  float w_batch[16] = {0, 1, 2, 3, 5, 4, 6, 7, 10, 9, 8, 11, 15, 14, 13, 12};
  ge_value x, l = v1i(4, lens), *in[2];
  /* ONNX example 1: time major, x[t][b] = 4b + t */
  for (k = 0; k < 16; k++) xv[k] = (float)((k % 4) * 4 + k / 4);
  x = vf32(2, d, xv);
  in[0] = &x, in[1] = &l;
  GE_REQUIRE(tk_make(&t, "ReverseSequence", 2, 1));
  set_i(&t, "time_axis", 0);
  set_i(&t, "batch_axis", 1);
  GE_CHECK_EQ_INT(tk_run(&t, in, 2), GE_OK);
  GE_CHECK(eq_f(&t.out[0], w_time, 16));
  kh_free(&x);
  /* example 2: batch major, lens 1..4 */
  for (k = 0; k < 16; k++) xv[k] = (float)k;
  for (k = 0; k < 4; k++) ((int64_t *)l.data)[k] = k + 1;
  x = vf32(2, d, xv);
  in[0] = &x;
  set_i(&t, "time_axis", 1);
  set_i(&t, "batch_axis", 0);
  GE_CHECK_EQ_INT(tk_run(&t, in, 2), GE_OK);
  GE_CHECK(eq_f(&t.out[0], w_batch, 16));
  ((int64_t *)l.data)[3] = 5;
  GE_CHECK_EQ_INT(tk_run(&t, in, 2), GE_ERR_INVALID);
  set_i(&t, "batch_axis", 1);
  GE_CHECK_EQ_INT(tk_run(&t, in, 2), GE_ERR_INVALID);
  tk_free(&t);
  kh_free(&x), kh_free(&l);
}

/* ------------------------------------------------------------- errors */

/* Every kernel of the family on missing inputs, scalars, wrong dtypes for
 * index inputs and empty tensors: an error or a result, never a crash
 * (the sanitizer build checks the "never a crash"). */
GE_TEST(test_hostile_inputs) {
  static const char *const ops[] = {"Reshape", "Flatten", "Squeeze", "Unsqueeze", "Transpose", "Concat", "Split", "Slice",
                                    "Gather", "GatherElements", "GatherND", "ScatterND", "ScatterElements", "Scatter",
                                    "Expand", "Tile", "Pad", "Shape", "Size", "ConstantOfShape", "Range", "DepthToSpace",
                                    "SpaceToDepth", "OneHot", "TopK", "NonZero", "Trilu", "EyeLike", "Compress", "Unique",
                                    "NonMaxSuppression", "ReverseSequence", "Constant"};
  uint64_t seed = 77;
  size_t o;
  int iter;
  for (o = 0; o < sizeof ops / sizeof ops[0]; o++) {
    tk t;
    GE_REQUIRE(tk_make(&t, ops[o], 5, 4));
    for (iter = 0; iter < 60; iter++) {
      ge_value vals[5], *in[5];
      int i;
      uint32_t n_in = (uint32_t)rng_int(&seed, 0, 5);
      for (i = 0; i < 5; i++) {
        int32_t r = (int32_t)rng_int(&seed, 0, 4);
        int64_t dims[4];
        ge_dtype dt = rng_int(&seed, 0, 2) ? GE_DTYPE_INT64 : dtypes[rng_int(&seed, 0, N_DTYPES - 1)];
        int64_t k;
        rand_dims(&seed, r, 0, 4, dims);
        vals[i] = rand_value(&seed, dt, r, dims);
        if (dt == GE_DTYPE_INT64)
          for (k = 0; k < vals[i].numel; k++) ((int64_t *)vals[i].data)[k] = rng_int(&seed, -6, 6);
        in[i] = rng_int(&seed, 0, 6) ? &vals[i] : NULL;
      }
      if (iter % 3 == 0) set_i(&t, "axis", rng_int(&seed, -5, 5));
      if (iter % 7 == 0) set_i(&t, "blocksize", rng_int(&seed, -1, 3));
      (void)tk_run(&t, in, n_in);
      for (i = 0; i < 5; i++) kh_free(&vals[i]);
    }
    tk_free(&t);
  }
  GE_CHECK(1);
}

/* Each op of the family has a kernel; other ops do not come from here. */
GE_TEST(test_table) {
  static const char *const ops[] = {"Reshape", "Flatten", "Squeeze", "Unsqueeze", "Transpose", "Concat", "Split", "Slice",
                                    "Gather", "GatherElements", "GatherND", "ScatterND", "ScatterElements", "Scatter",
                                    "Expand", "Tile", "Pad", "Shape", "Size", "ConstantOfShape", "Range", "DepthToSpace",
                                    "SpaceToDepth", "OneHot", "TopK", "NonZero", "Trilu", "EyeLike", "Compress", "Unique",
                                    "NonMaxSuppression", "ReverseSequence", "Constant"};
  size_t o;
  tk t;
  for (o = 0; o < sizeof ops / sizeof ops[0]; o++) {
    GE_CHECK(tk_make(&t, ops[o], 1, 1));
    tk_free(&t);
  }
  GE_CHECK(!tk_make(&t, "NoSuchOp", 1, 1));
  tk_free(&t);
}

int main(int argc, char **argv) {
  int i;
  for (i = 0; i < 4096; i++) snprintf(str_pool[i], sizeof str_pool[i], "s%d", i);
  ge_test_init(argc, argv);
  GE_RUN(test_table);
  GE_RUN(test_reshape);
  GE_RUN(test_flatten_squeeze_unsqueeze);
  GE_RUN(test_transpose_random);
  GE_RUN(test_concat_split_random);
  GE_RUN(test_split_modes);
  GE_RUN(test_slice_random);
  GE_RUN(test_slice_errors_and_attr_form);
  GE_RUN(test_gather_random);
  GE_RUN(test_gather_elements_scatter_elements_random);
  GE_RUN(test_scatter_deprecated_and_examples);
  GE_RUN(test_gather_nd_scatter_nd);
  GE_RUN(test_expand_tile_random);
  GE_RUN(test_pad_random);
  GE_RUN(test_pad_examples_and_errors);
  GE_RUN(test_shape_size);
  GE_RUN(test_constant_of_shape);
  GE_RUN(test_range);
  GE_RUN(test_constant);
  GE_RUN(test_depth_space_random);
  GE_RUN(test_one_hot);
  GE_RUN(test_topk_random);
  GE_RUN(test_unique_random);
  GE_RUN(test_unique_axis_examples);
  GE_RUN(test_non_zero_compress);
  GE_RUN(test_trilu_eye_like);
  GE_RUN(test_non_max_suppression);
  GE_RUN(test_reverse_sequence);
  GE_RUN(test_hostile_inputs);
  return ge_test_main_end();
}

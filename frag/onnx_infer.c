/* ------------------------------------ ONNX compute ops: shape inference */

/* Inference for the ONNX compute ops (default domain, opsets up to 18).
 * Unknown dims stay -1, unknown ranks -2; a dim that passes through keeps
 * its ge_dim_info (range, symbol). A value that is needed but not constant
 * gives unknown dims, never an error; real conflicts are GE_ERR_SHAPE.
 * Small int64/int32 values (at most GE__OX_VMAX elements) are followed
 * through Shape, Gather, Unsqueeze, Squeeze, Concat, Slice, Cast, Reshape,
 * Identity, Range, ConstantOfShape, Equal, Where and Add/Sub/Mul/Div, which
 * is how exported models compute Reshape and Expand targets. */

#define GE__OX_VMAX 64
#define GE__OX_BIT(t) GE_DTYPE_BIT(GE_DTYPE_##t)
#define GE__OX_SIGNED                                                      \
  (GE_DTYPES_FLOAT | GE__OX_BIT(INT8) | GE__OX_BIT(INT16) | GE__OX_BIT(INT32) | GE__OX_BIT(INT64))
#define GE__OX_UINT (GE__OX_BIT(UINT8) | GE__OX_BIT(UINT16) | GE__OX_BIT(UINT32) | GE__OX_BIT(UINT64))
#define GE__OX_MM                                                          \
  (GE_DTYPES_FLOAT | GE__OX_BIT(INT32) | GE__OX_BIT(INT64) | GE__OX_BIT(UINT32) | GE__OX_BIT(UINT64))
#define GE__OX_CMP (GE_DTYPES_NUMERIC | GE__OX_BIT(BOOL) | GE__OX_BIT(STRING))
#define GE__OX_RANGE                                                       \
  (GE__OX_BIT(FLOAT32) | GE__OX_BIT(FLOAT64) | GE__OX_BIT(INT16) | GE__OX_BIT(INT32) | GE__OX_BIT(INT64))
#define GE__OX_POOL (GE_DTYPES_FLOAT | GE__OX_BIT(INT8) | GE__OX_BIT(UINT8))

/* A shape being built: dims and their info side by side. rank < 0: unknown. */
typedef struct ge__ox_shape {
  int32_t rank;
  int64_t d[GE_MAX_RANK];
  ge_dim_info x[GE_MAX_RANK];
} ge__ox_shape;

static const ge_dim_info ge__ox_none = {0, -1, NULL};

static void ge__ox_load(ge__ox_shape *s, const ge_tensor_desc *d) {
  int32_t i;
  s->rank = GE_RANK_UNKNOWN;
  if (!d || d->shape.rank < 0 || d->shape.rank > GE_MAX_RANK) return;
  s->rank = d->shape.rank;
  for (i = 0; i < s->rank; i++) {
    s->d[i] = d->shape.dims[i];
    s->x[i] = d->shape.info ? d->shape.info[i] : ge__ox_none;
  }
}

static ge_shape ge__ox_view(const ge__ox_shape *s) {
  ge_shape v;
  v.rank = s->rank;
  v.dims = (int64_t *)s->d;
  v.info = (ge_dim_info *)s->x;
  return v;
}

static const char *ge__ox_str(const ge__ox_shape *s, char *buf, size_t n) {
  ge_shape v = ge__ox_view(s);
  return ge_shape_str(&v, buf, n);
}

/* Sets dimension i to a known (or unknown, anonymous) size. */
static void ge__ox_dim(ge__ox_shape *s, int32_t i, int64_t v) {
  s->d[i] = v < 0 ? GE_DIM_UNKNOWN : v;
  s->x[i] = ge__ox_none;
}

/* Appends dimension j of src (size and info). */
static void ge__ox_push(ge__ox_shape *s, const ge__ox_shape *src, int32_t j) {
  s->d[s->rank] = src->d[j];
  s->x[s->rank] = src->x[j];
  s->rank++;
}

static ge_status ge__ox_out(ge_infer_ctx *c, uint32_t i, ge_dtype dt, const ge__ox_shape *s) {
  if (s->rank < 0) return ge_infer_set_output(c, i, dt, GE_RANK_UNKNOWN, NULL, NULL);
  return ge_infer_set_output(c, i, dt, s->rank, s->d, s->x);
}

static ge_status ge__ox_out_unknown(ge_infer_ctx *c, uint32_t i, ge_dtype dt) {
  return ge_infer_set_output(c, i, dt, GE_RANK_UNKNOWN, NULL, NULL);
}

/* A shape of rank r with every dim unknown (r < 0: unknown rank). */
static void ge__ox_unknown_dims(ge__ox_shape *s, int32_t r) {
  int32_t i;
  s->rank = r < 0 ? GE_RANK_UNKNOWN : r;
  for (i = 0; i < r; i++) ge__ox_dim(s, i, GE_DIM_UNKNOWN);
}

static int ge__ox_int_dtype(ge_dtype t) {
  return t == GE_DTYPE_INT64 || t == GE_DTYPE_INT32 || t == GE_DTYPE_INT16 || t == GE_DTYPE_INT8 ||
         t == GE_DTYPE_UINT8 || t == GE_DTYPE_UINT16 || t == GE_DTYPE_UINT32 || t == GE_DTYPE_UINT64 ||
         t == GE_DTYPE_BOOL;
}

/* Elements of a known value that is safe to read; -1 when not readable or
 * larger than cap. */
static int64_t ge__ox_numel(const ge_tensor *t, int64_t cap) {
  int64_t n;
  if (!t || t->rank < 0 || t->rank > GE_MAX_RANK || t->dtype == GE_DTYPE_STRING) return -1;
  n = ge_tensor_numel(t);
  if (n < 0 || n > cap) return -1;
  if (n && (!t->data || t->nbytes < (size_t)n * ge_dtype_size(t->dtype))) return -1;
  return n;
}

/* Reads a known integer (or bool) value of at most cap elements; -1 if
 * unknown or too large. */
static int32_t ge__ox_ints(const ge_tensor *t, int64_t *v, int64_t cap) {
  int64_t n = ge__ox_numel(t, cap), i;
  if (n < 0 || !ge__ox_int_dtype(t->dtype)) return -1;
  for (i = 0; i < n; i++) v[i] = ge_tensor_get_int(t, i);
  return (int32_t)n;
}

/* Reads a known numeric value as doubles (any numeric dtype). */
static int32_t ge__ox_floats(const ge_tensor *t, double *v, int64_t cap) {
  int64_t n = ge__ox_numel(t, cap), i;
  if (n < 0 || t->dtype == GE_DTYPE_COMPLEX64 || t->dtype == GE_DTYPE_COMPLEX128) return -1;
  for (i = 0; i < n; i++) v[i] = ge_tensor_get_float(t, i);
  return (int32_t)n;
}

/* Known int value of input i (NULL-safe). */
static int32_t ge__ox_input_ints(ge_infer_ctx *c, uint32_t i, int64_t *v, int64_t cap) {
  return ge__ox_ints(ge_infer_input_value(c, i), v, cap);
}

/* Records output i's value from int64 elements, stored as dtype dt (int64,
 * int32 or bool); other dtypes or large values are not recorded. */
static ge_status ge__ox_put_ints(ge_infer_ctx *c, uint32_t i, ge_dtype dt, int32_t rank, const int64_t *dims,
                                 const int64_t *v, int64_t n) {
  ge_tensor t;
  int32_t b32[GE__OX_VMAX];
  uint8_t b8[GE__OX_VMAX];
  int64_t k;
  if (n < 0 || n > GE__OX_VMAX || rank < 0 || rank > GE_MAX_RANK) return GE_OK;
  memset(&t, 0, sizeof t);
  t.dtype = dt;
  t.rank = rank;
  t.dims = (int64_t *)dims;
  if (dt == GE_DTYPE_INT64) {
    t.data = (void *)v;
  } else if (dt == GE_DTYPE_INT32) {
    for (k = 0; k < n; k++) b32[k] = (int32_t)v[k];
    t.data = b32;
  } else if (dt == GE_DTYPE_BOOL) {
    for (k = 0; k < n; k++) b8[k] = (uint8_t)(v[k] != 0);
    t.data = b8;
  } else {
    return GE_OK;
  }
  t.nbytes = (size_t)n * ge_dtype_size(dt);
  return ge_infer_set_value(c, i, &t);
}

/* Same, with the shape of a ge__ox_shape. */
static ge_status ge__ox_put_shape_ints(ge_infer_ctx *c, uint32_t i, ge_dtype dt, const ge__ox_shape *s,
                                       const int64_t *v, int64_t n) {
  return ge__ox_put_ints(c, i, dt, s->rank, s->d, v, n);
}

/* Normalizes an axis in [-rank, rank-1]; an error names `what`. */
static ge_status ge__ox_axis(ge_infer_ctx *c, const char *what, int64_t a, int32_t rank, int32_t *out) {
  *out = 0;
  if (a < -(int64_t)rank || a >= (int64_t)rank)
    return ge_infer_error(c, GE_ERR_SHAPE, "%s %lld is out of range for rank %d", what, (long long)a, (int)rank);
  *out = (int32_t)(a < 0 ? a + rank : a);
  return GE_OK;
}

/* Copies an ints attribute (up to cap values); -1 when absent. */
static int32_t ge__ox_attr_ints(ge_infer_ctx *c, const char *name, int64_t *v, int32_t cap) {
  const int64_t *a;
  int32_t n = ge_infer_attr_ints(c, name, &a), i;
  if (n < 0) return -1;
  if (n > cap) n = cap;
  for (i = 0; i < n; i++) v[i] = a[i];
  return n;
}

/* A list such as axes, given by input `in` (a constant) or else by the
 * attribute `attr`. Returns 1 when known (*n may be 0: absent or empty),
 * 0 when the input is connected but its value is not known. */
static int ge__ox_list(ge_infer_ctx *c, uint32_t in, const char *attr, int64_t *v, int32_t *n, int32_t cap) {
  const ge_tensor_desc *d = ge_infer_input(c, in);
  int32_t k;
  if (d) {
    k = ge__ox_ints(d->value, v, cap);
    if (k < 0) return 0;
    *n = k;
    return 1;
  }
  k = attr ? ge__ox_attr_ints(c, attr, v, cap) : -1;
  *n = k < 0 ? 0 : k;
  return 1;
}

/* Normalizes a list of axes for rank r into flags[r]; duplicates are an error. */
static ge_status ge__ox_axis_flags(ge_infer_ctx *c, const int64_t *axes, int32_t n, int32_t r, uint8_t *flags) {
  int32_t i, a;
  ge_status st;
  memset(flags, 0, (size_t)(r > 0 ? r : 1));
  for (i = 0; i < n; i++) {
    if ((st = ge__ox_axis(c, "axis", axes[i], r, &a))) return st;
    if (flags[a]) return ge_infer_error(c, GE_ERR_SHAPE, "axis %lld is repeated", (long long)axes[i]);
    flags[a] = 1;
  }
  return GE_OK;
}

static ge_dtype ge__ox_dtype(ge_infer_ctx *c, uint32_t i) {
  const ge_tensor_desc *d = ge_infer_input(c, i);
  return d ? d->dtype : GE_DTYPE_UNDEFINED;
}

/* ------------------------------------------------------ element-wise */

/* Flat index into an input of shape id[irank] broadcast to od[orank]. */
static int64_t ge__ox_bidx(const int64_t *od, int32_t orank, const int64_t *id, int32_t irank, int64_t flat) {
  int64_t idx = 0, mul = 1;
  int32_t k;
  for (k = orank - 1; k >= 0; k--) {
    int64_t coord = od[k] ? flat % od[k] : 0;
    int32_t j = k - (orank - irank);
    flat = od[k] ? flat / od[k] : 0;
    if (j >= 0) {
      if (id[j] != 1) idx += coord * mul;
      mul *= id[j];
    }
  }
  return idx;
}

/* Folds a binary op over known int inputs a, b into output 0. */
static ge_status ge__ox_fold2(ge_infer_ctx *c, int op) {
  const ge_tensor *ta = ge_infer_input_value(c, 0), *tb = ge_infer_input_value(c, 1);
  const ge_tensor_desc *o = c->n->num_outputs ? &c->n->outputs[0] : NULL;
  int64_t a[GE__OX_VMAX], b[GE__OX_VMAX], r[GE__OX_VMAX], n, i;
  if (!o || !ta || !tb || !ge_shape_is_static(&o->shape)) return GE_OK;
  n = ge_shape_numel(&o->shape);
  if (n > GE__OX_VMAX || ge__ox_ints(ta, a, GE__OX_VMAX) < 0 || ge__ox_ints(tb, b, GE__OX_VMAX) < 0) return GE_OK;
  for (i = 0; i < n; i++) {
    int64_t x = a[ge__ox_bidx(o->shape.dims, o->shape.rank, ta->dims, ta->rank, i)];
    int64_t y = b[ge__ox_bidx(o->shape.dims, o->shape.rank, tb->dims, tb->rank, i)];
    switch (op) {
    case '+': r[i] = x + y; break;
    case '-': r[i] = x - y; break;
    case '*': r[i] = x * y; break;
    case '/':
      if (y == 0) return GE_OK;
      r[i] = x / y;
      break;
    default: r[i] = x == y; break;
    }
  }
  return ge__ox_put_ints(c, 0, o->dtype, o->shape.rank, o->shape.dims, r, n);
}

/* Add, Sub, Mul, Div: broadcast, then fold known int values. */
static ge_status ge__ox_arith(ge_infer_ctx *c) {
  const char *op = c->n->op;
  ge_status st = ge__infer_broadcast(c);
  if (st) return st;
  return ge__ox_fold2(c, op[0] == 'A' ? '+' : op[0] == 'S' ? '-' : op[0] == 'M' ? '*' : '/');
}

/* Equal: broadcast to bool, folding known ints (Expand targets use it). */
static ge_status ge__ox_equal(ge_infer_ctx *c) {
  ge_status st = ge__infer_broadcast(c);
  return st ? st : ge__ox_fold2(c, '=');
}

/* Where(cond, X, Y): three-way broadcast, dtype of X. */
static ge_status ge__ox_where(ge_infer_ctx *c) {
  ge__ox_shape s[3], o;
  int64_t cv[GE__OX_VMAX], xv[GE__OX_VMAX], yv[GE__OX_VMAX], r[GE__OX_VMAX], n, i;
  const ge_tensor *t[3];
  ge_shape va, vb;
  ge_dtype dt = ge__ox_dtype(c, 1);
  ge_status st;
  int k;
  for (k = 0; k < 3; k++) {
    if (!ge_infer_input(c, (uint32_t)k)) return GE_OK;
    ge__ox_load(&s[k], ge_infer_input(c, (uint32_t)k));
    t[k] = ge_infer_input_value(c, (uint32_t)k);
  }
  o = s[0];
  for (k = 1; k < 3; k++) {
    ge__ox_shape tmp;
    va = ge__ox_view(&o);
    vb = ge__ox_view(&s[k]);
    tmp.rank = ge_shape_broadcast(&va, &vb, tmp.d, tmp.x);
    if (tmp.rank == -1) {
      char b1[128], b2[128];
      return ge_infer_error(c, GE_ERR_SHAPE, "shapes %s and %s do not broadcast", ge__ox_str(&o, b1, sizeof b1),
                            ge__ox_str(&s[k], b2, sizeof b2));
    }
    o = tmp;
  }
  if ((st = ge__ox_out(c, 0, dt, &o))) return st;
  /* fold known int values */
  if (o.rank < 0) return GE_OK;
  va = ge__ox_view(&o);
  n = ge_shape_numel(&va);
  if (n < 0 || n > GE__OX_VMAX || ge__ox_ints(t[0], cv, GE__OX_VMAX) < 0 || ge__ox_ints(t[1], xv, GE__OX_VMAX) < 0 ||
      ge__ox_ints(t[2], yv, GE__OX_VMAX) < 0)
    return GE_OK;
  for (i = 0; i < n; i++)
    r[i] = cv[ge__ox_bidx(o.d, o.rank, t[0]->dims, t[0]->rank, i)]
               ? xv[ge__ox_bidx(o.d, o.rank, t[1]->dims, t[1]->rank, i)]
               : yv[ge__ox_bidx(o.d, o.rank, t[2]->dims, t[2]->rank, i)];
  return ge__ox_put_shape_ints(c, 0, dt, &o, r, n);
}

/* Output 0 like input 0, with a known value carried over (Identity). */
static ge_status ge__ox_identity(ge_infer_ctx *c) {
  const ge_tensor_desc *x = ge_infer_input(c, 0);
  ge_status st;
  if (!x) return GE_OK;
  if ((st = ge_infer_copy_output(c, 0, x))) return st;
  if (x->value && c->n->num_outputs) c->n->outputs[0].value = x->value;
  return GE_OK;
}

/* Output 0 shaped like input 0 with dtype bool (IsNaN, IsInf). */
static ge_status ge__ox_same_bool(ge_infer_ctx *c) {
  ge__ox_shape s;
  if (!ge_infer_input(c, 0)) return GE_OK;
  ge__ox_load(&s, ge_infer_input(c, 0));
  return ge__ox_out(c, 0, GE_DTYPE_BOOL, &s);
}

/* Cast: dtype from attribute `to`; known int values are converted. */
static ge_status ge__ox_cast(ge_infer_ctx *c) {
  const ge_tensor_desc *x = ge_infer_input(c, 0);
  int64_t to = ge_infer_attr_int(c, "to", 0), v[GE__OX_VMAX];
  int32_t n;
  ge__ox_shape s;
  ge_status st;
  if (to <= 0 || to >= GE_DTYPE_COUNT) return ge_infer_error(c, GE_ERR_INVALID, "attribute 'to' is not a valid dtype (%lld)", (long long)to);
  if (!x) return GE_OK;
  ge__ox_load(&s, x);
  if ((st = ge__ox_out(c, 0, (ge_dtype)to, &s))) return st;
  if ((n = ge__ox_ints(x->value, v, GE__OX_VMAX)) < 0) return GE_OK;
  return ge__ox_put_ints(c, 0, (ge_dtype)to, x->value->rank, x->value->dims, v, n);
}

/* CastLike: shape of input 0, dtype of input 1. */
static ge_status ge__ox_castlike(ge_infer_ctx *c) {
  ge__ox_shape s;
  if (!ge_infer_input(c, 0) || !ge_infer_input(c, 1)) return GE_OK;
  ge__ox_load(&s, ge_infer_input(c, 0));
  return ge__ox_out(c, 0, ge__ox_dtype(c, 1), &s);
}

/* Dropout: output like the input, optional bool mask of the same shape. */
static ge_status ge__ox_dropout(ge_infer_ctx *c) {
  ge__ox_shape s;
  ge_status st;
  if (!ge_infer_input(c, 0)) return GE_OK;
  if ((st = ge__infer_same(c))) return st;
  ge__ox_load(&s, ge_infer_input(c, 0));
  return ge__ox_out(c, 1, GE_DTYPE_BOOL, &s);
}

/* Softmax, LogSoftmax, Hardmax, LpNormalization: like the input, axis checked. */
static ge_status ge__ox_axis_same(ge_infer_ctx *c) {
  const ge_tensor_desc *x = ge_infer_input(c, 0);
  int32_t a;
  ge_status st;
  if (!x) return GE_OK;
  if (x->shape.rank >= 0 &&
      (st = ge__ox_axis(c, "axis", ge_infer_attr_int(c, "axis", -1), x->shape.rank > 0 ? x->shape.rank : 1, &a)))
    return st;
  return ge__infer_same(c);
}

/* ------------------------------------------------------------- MatMul */

static ge_status ge__ox_matmul(ge_infer_ctx *c) {
  const ge_tensor_desc *da = ge_infer_input(c, 0), *db = ge_infer_input(c, 1);
  ge__ox_shape a, b, ba, bb, o;
  ge_shape va, vb;
  int a1, b1, i;
  char s1[128], s2[128];
  if (!da || !db) return GE_OK;
  ge__ox_load(&a, da);
  ge__ox_load(&b, db);
  if (a.rank < 0 || b.rank < 0) return ge__ox_out_unknown(c, 0, da->dtype);
  if (a.rank == 0 || b.rank == 0)
    return ge_infer_error(c, GE_ERR_SHAPE, "inputs must have rank >= 1, got %s and %s", ge__ox_str(&a, s1, sizeof s1),
                          ge__ox_str(&b, s2, sizeof s2));
  {
    int64_t ka = a.d[a.rank - 1], kb = b.d[b.rank == 1 ? 0 : b.rank - 2];
    if (ka >= 0 && kb >= 0 && ka != kb)
      return ge_infer_error(c, GE_ERR_SHAPE, "inner dimensions differ: %lld vs %lld (shapes %s and %s)", (long long)ka,
                            (long long)kb, ge__ox_str(&a, s1, sizeof s1), ge__ox_str(&b, s2, sizeof s2));
  }
  a1 = a.rank == 1;
  b1 = b.rank == 1;
  /* batch parts */
  ba.rank = a1 ? 0 : a.rank - 2;
  bb.rank = b1 ? 0 : b.rank - 2;
  for (i = 0; i < ba.rank; i++) { ba.d[i] = a.d[i]; ba.x[i] = a.x[i]; }
  for (i = 0; i < bb.rank; i++) { bb.d[i] = b.d[i]; bb.x[i] = b.x[i]; }
  va = ge__ox_view(&ba);
  vb = ge__ox_view(&bb);
  o.rank = ge_shape_broadcast(&va, &vb, o.d, o.x);
  if (o.rank < 0)
    return ge_infer_error(c, GE_ERR_SHAPE, "batch dimensions of %s and %s do not broadcast", ge__ox_str(&a, s1, sizeof s1),
                          ge__ox_str(&b, s2, sizeof s2));
  if (!a1) ge__ox_push(&o, &a, a.rank - 2);
  if (!b1) ge__ox_push(&o, &b, b.rank - 1);
  return ge__ox_out(c, 0, da->dtype, &o);
}

/* --------------------------------------------------------------- Gemm */

static ge_status ge__ox_gemm(ge_infer_ctx *c) {
  const ge_tensor_desc *da = ge_infer_input(c, 0), *db = ge_infer_input(c, 1), *dc = ge_infer_input(c, 2);
  ge__ox_shape a, b, o;
  int ta = ge_infer_attr_int(c, "transA", 0) != 0, tb = ge_infer_attr_int(c, "transB", 0) != 0;
  char s1[128], s2[128];
  int64_t ka, kb;
  if (!da || !db) return GE_OK;
  ge__ox_load(&a, da);
  ge__ox_load(&b, db);
  if ((a.rank >= 0 && a.rank != 2) || (b.rank >= 0 && b.rank != 2))
    return ge_infer_error(c, GE_ERR_SHAPE, "A and B must be 2-D, got %s and %s", ge__ox_str(&a, s1, sizeof s1),
                          ge__ox_str(&b, s2, sizeof s2));
  o.rank = 2;
  ge__ox_dim(&o, 0, GE_DIM_UNKNOWN);
  ge__ox_dim(&o, 1, GE_DIM_UNKNOWN);
  ka = kb = GE_DIM_UNKNOWN;
  if (a.rank == 2) {
    o.d[0] = a.d[ta]; o.x[0] = a.x[ta];
    ka = a.d[1 - ta];
  }
  if (b.rank == 2) {
    o.d[1] = b.d[1 - tb]; o.x[1] = b.x[1 - tb];
    kb = b.d[tb];
  }
  if (ka >= 0 && kb >= 0 && ka != kb)
    return ge_infer_error(c, GE_ERR_SHAPE, "inner dimensions differ: %lld vs %lld (A %s%s, B %s%s)", (long long)ka,
                          (long long)kb, ge__ox_str(&a, s1, sizeof s1), ta ? " transposed" : "",
                          ge__ox_str(&b, s2, sizeof s2), tb ? " transposed" : "");
  if (dc && dc->shape.rank >= 0) {
    int32_t r = dc->shape.rank, i;
    int ok = r <= 2;
    for (i = 0; ok && i < r; i++) {
      int64_t cd = dc->shape.dims[i], od = o.d[2 - r + i];
      if (cd >= 0 && cd != 1 && od >= 0 && cd != od) ok = 0;
    }
    if (!ok) {
      ge__ox_shape cs;
      ge__ox_load(&cs, dc);
      return ge_infer_error(c, GE_ERR_SHAPE, "C %s does not broadcast to %s", ge__ox_str(&cs, s1, sizeof s1),
                            ge__ox_str(&o, s2, sizeof s2));
    }
  }
  return ge__ox_out(c, 0, da->dtype, &o);
}

/* ------------------------------------------------ conv and pooling */

enum { GE__OX_PAD_NOTSET, GE__OX_PAD_SAME, GE__OX_PAD_VALID };

/* Window parameters of n spatial axes. */
typedef struct ge__ox_win {
  int32_t n;
  int mode, ceil_mode;
  int64_t k[GE_MAX_RANK], s[GE_MAX_RANK], dil[GE_MAX_RANK], pb[GE_MAX_RANK], pe[GE_MAX_RANK];
} ge__ox_win;

/* Reads an ints attribute of exactly n values (default dflt each). */
static ge_status ge__ox_win_list(ge_infer_ctx *c, const char *name, int32_t n, int64_t dflt, int64_t *out) {
  int64_t v[2 * GE_MAX_RANK];
  int32_t k = ge__ox_attr_ints(c, name, v, 2 * GE_MAX_RANK), i;
  for (i = 0; i < n; i++) out[i] = dflt;
  if (k <= 0) return GE_OK;
  if (k != n)
    return ge_infer_error(c, GE_ERR_SHAPE, "attribute '%s' has %d values for %d spatial axes", name, (int)k, (int)n);
  for (i = 0; i < n; i++) out[i] = v[i];
  return GE_OK;
}

/* Reads kernel_shape (else from W dims 2.., else unknown), strides,
 * dilations, pads, auto_pad and ceil_mode for n spatial axes. */
static ge_status ge__ox_win_attrs(ge_infer_ctx *c, int32_t n, const ge__ox_shape *w, ge__ox_win *win) {
  const char *ap = ge_infer_attr_string(c, "auto_pad", "NOTSET");
  int64_t pads[2 * GE_MAX_RANK];
  int32_t np, i;
  ge_status st;
  win->n = n;
  win->ceil_mode = ge_infer_attr_int(c, "ceil_mode", 0) != 0;
  if (!strcmp(ap, "SAME_UPPER") || !strcmp(ap, "SAME_LOWER")) win->mode = GE__OX_PAD_SAME;
  else if (!strcmp(ap, "VALID")) win->mode = GE__OX_PAD_VALID;
  else if (!strcmp(ap, "NOTSET") || !*ap) win->mode = GE__OX_PAD_NOTSET;
  else return ge_infer_error(c, GE_ERR_INVALID, "unknown auto_pad '%s'", ap);
  if (ge_infer_attr_ints(c, "kernel_shape", NULL) > 0) {
    if ((st = ge__ox_win_list(c, "kernel_shape", n, 1, win->k))) return st;
  } else {
    for (i = 0; i < n; i++) win->k[i] = w && w->rank == n + 2 ? w->d[i + 2] : GE_DIM_UNKNOWN;
  }
  if ((st = ge__ox_win_list(c, "strides", n, 1, win->s))) return st;
  if ((st = ge__ox_win_list(c, "dilations", n, 1, win->dil))) return st;
  for (i = 0; i < n; i++)
    if (win->s[i] <= 0 || win->dil[i] <= 0 || win->k[i] == 0)
      return ge_infer_error(c, GE_ERR_SHAPE, "kernel, strides and dilations must be positive (axis %d: %lld, %lld, %lld)",
                            (int)i, (long long)win->k[i], (long long)win->s[i], (long long)win->dil[i]);
  np = ge__ox_attr_ints(c, "pads", pads, 2 * GE_MAX_RANK);
  if (np > 0 && np != 2 * n)
    return ge_infer_error(c, GE_ERR_SHAPE, "attribute 'pads' has %d values for %d spatial axes", (int)np, (int)n);
  for (i = 0; i < n; i++) {
    win->pb[i] = np > 0 ? pads[i] : 0;
    win->pe[i] = np > 0 ? pads[i + n] : 0;
  }
  return GE_OK;
}

/* One pooled/convolved extent; -1 unknown, < -1 when the window does not fit. */
static int64_t ge__ox_window(const ge__ox_win *w, int32_t i, int64_t in) {
  int64_t ek, num, out;
  if (in < 0 || w->k[i] < 0) return GE_DIM_UNKNOWN;
  ek = w->dil[i] * (w->k[i] - 1) + 1;
  if (w->mode == GE__OX_PAD_SAME) return (in + w->s[i] - 1) / w->s[i];
  if (w->mode == GE__OX_PAD_VALID) return in < ek ? -2 : (in - ek) / w->s[i] + 1;
  num = in + w->pb[i] + w->pe[i] - ek;
  if (num < 0) return -2;
  out = (w->ceil_mode ? (num + w->s[i] - 1) / w->s[i] : num / w->s[i]) + 1;
  /* a window starting in the end padding is dropped */
  if (w->ceil_mode && (out - 1) * w->s[i] >= in + w->pb[i]) out--;
  return out;
}

/* Fills o's spatial dims (2..) from x with window w. */
static ge_status ge__ox_spatial(ge_infer_ctx *c, const ge__ox_win *w, const ge__ox_shape *x, ge__ox_shape *o) {
  int32_t i;
  for (i = 0; i < w->n; i++) {
    int64_t in = x->rank == w->n + 2 ? x->d[i + 2] : GE_DIM_UNKNOWN, v = ge__ox_window(w, i, in);
    if (v < -1)
      return ge_infer_error(c, GE_ERR_SHAPE,
                            "spatial axis %d: input %lld with pads %lld+%lld is smaller than the kernel %lld (dilation %lld)",
                            (int)i, (long long)in, (long long)w->pb[i], (long long)w->pe[i], (long long)w->k[i],
                            (long long)w->dil[i]);
    if (v >= 0 && v == in) o->x[i + 2] = x->x[i + 2], o->d[i + 2] = v;
    else ge__ox_dim(o, i + 2, v);
  }
  return GE_OK;
}

/* Rank of a conv-like op from X and W; checks they agree and are >= 3. */
static ge_status ge__ox_conv_rank(ge_infer_ctx *c, const ge__ox_shape *x, const ge__ox_shape *w, int32_t *r) {
  char s1[128], s2[128];
  *r = x->rank >= 0 ? x->rank : w ? w->rank : GE_RANK_UNKNOWN;
  if ((x->rank >= 0 && x->rank < 3) || (w && w->rank >= 0 && w->rank < 3) ||
      (w && x->rank >= 0 && w->rank >= 0 && x->rank != w->rank))
    return ge_infer_error(c, GE_ERR_SHAPE, "X %s and W %s must have the same rank >= 3", ge__ox_str(x, s1, sizeof s1),
                          w ? ge__ox_str(w, s2, sizeof s2) : "");
  return GE_OK;
}

static ge_status ge__ox_conv(ge_infer_ctx *c) {
  const ge_tensor_desc *dx = ge_infer_input(c, 0), *dw = ge_infer_input(c, 1), *db = ge_infer_input(c, 2);
  ge__ox_shape x, w, o;
  ge__ox_win win;
  int64_t group = ge_infer_attr_int(c, "group", 1);
  int transposed = c->n->op[4] == 'T';
  int32_t r, i;
  char s1[128], s2[128];
  ge_status st;
  if (!dx || !dw) return GE_OK;
  ge__ox_load(&x, dx);
  ge__ox_load(&w, dw);
  if ((st = ge__ox_conv_rank(c, &x, &w, &r))) return st;
  if (r < 0) return ge__ox_out_unknown(c, 0, dx->dtype);
  if (group <= 0) return ge_infer_error(c, GE_ERR_SHAPE, "group must be positive, got %lld", (long long)group);
  /* channels */
  if (x.rank >= 0 && w.rank >= 0 && x.d[1] >= 0 && w.d[transposed ? 0 : 1] >= 0) {
    int64_t have = x.d[1], want = transposed ? w.d[0] : w.d[1] * group;
    if (have != want)
      return ge_infer_error(c, GE_ERR_SHAPE, "input channels %lld do not match W %s with group %lld (X %s)",
                            (long long)have, ge__ox_str(&w, s1, sizeof s1), (long long)group, ge__ox_str(&x, s2, sizeof s2));
  }
  if (!transposed && w.rank >= 0 && w.d[0] >= 0 && w.d[0] % group)
    return ge_infer_error(c, GE_ERR_SHAPE, "output channels %lld are not a multiple of group %lld", (long long)w.d[0],
                          (long long)group);
  if ((st = ge__ox_win_attrs(c, r - 2, &w, &win))) return st;
  o.rank = r;
  if (x.rank >= 0) o.d[0] = x.d[0], o.x[0] = x.x[0];
  else ge__ox_dim(&o, 0, GE_DIM_UNKNOWN);
  ge__ox_dim(&o, 1, w.rank < 0 ? GE_DIM_UNKNOWN : transposed ? (w.d[1] < 0 ? -1 : w.d[1] * group) : w.d[0]);
  if (o.d[1] < 0 && db && db->shape.rank == 1) ge__ox_dim(&o, 1, db->shape.dims[0]);
  if (db && db->shape.rank == 1 && db->shape.dims[0] >= 0 && o.d[1] >= 0 && db->shape.dims[0] != o.d[1])
    return ge_infer_error(c, GE_ERR_SHAPE, "bias has %lld elements for %lld output channels",
                          (long long)db->shape.dims[0], (long long)o.d[1]);
  if (!transposed) return (st = ge__ox_spatial(c, &win, &x, &o)) ? st : ge__ox_out(c, 0, dx->dtype, &o);
  /* ConvTranspose */
  {
    int64_t os[GE_MAX_RANK + 2], op[GE_MAX_RANK];
    int32_t nos = ge__ox_attr_ints(c, "output_shape", os, GE_MAX_RANK + 2), n = r - 2;
    if ((st = ge__ox_win_list(c, "output_padding", n, 0, op))) return st;
    if (nos > 0 && nos != n && nos != n + 2)
      return ge_infer_error(c, GE_ERR_SHAPE, "attribute 'output_shape' has %d values for %d spatial axes", (int)nos, (int)n);
    for (i = 0; i < n; i++) {
      int64_t in = x.rank >= 0 ? x.d[i + 2] : GE_DIM_UNKNOWN, v;
      if (nos > 0) v = os[nos - n + i];
      else if (in < 0 || win.k[i] < 0) v = GE_DIM_UNKNOWN;
      else if (win.mode == GE__OX_PAD_SAME) v = in * win.s[i];
      else {
        v = win.s[i] * (in - 1) + op[i] + (win.k[i] - 1) * win.dil[i] + 1;
        if (win.mode == GE__OX_PAD_NOTSET) v -= win.pb[i] + win.pe[i];
        if (v <= 0)
          return ge_infer_error(c, GE_ERR_SHAPE, "spatial axis %d: output size %lld is not positive", (int)i, (long long)v);
      }
      ge__ox_dim(&o, i + 2, v);
    }
  }
  return ge__ox_out(c, 0, dx->dtype, &o);
}

/* MaxPool, AveragePool, LpPool: [N, C, pooled...]; MaxPool's Indices int64. */
static ge_status ge__ox_pool(ge_infer_ctx *c) {
  const ge_tensor_desc *dx = ge_infer_input(c, 0);
  ge__ox_shape x, o;
  ge__ox_win win;
  int32_t nk, r;
  ge_status st;
  if (!dx) return GE_OK;
  ge__ox_load(&x, dx);
  nk = ge_infer_attr_ints(c, "kernel_shape", NULL);
  if (nk <= 0) return ge_infer_error(c, GE_ERR_INVALID, "attribute 'kernel_shape' is missing");
  r = x.rank >= 0 ? x.rank : nk + 2;
  if (r != nk + 2) {
    char s1[128];
    return ge_infer_error(c, GE_ERR_SHAPE, "input %s does not have %d spatial axes (kernel_shape)",
                          ge__ox_str(&x, s1, sizeof s1), (int)nk);
  }
  if ((st = ge__ox_win_attrs(c, nk, NULL, &win))) return st;
  o = x;
  if (x.rank < 0) ge__ox_unknown_dims(&o, r);
  if ((st = ge__ox_spatial(c, &win, &x, &o))) return st;
  if ((st = ge__ox_out(c, 0, dx->dtype, &o))) return st;
  return ge__ox_out(c, 1, GE_DTYPE_INT64, &o);
}

/* GlobalAveragePool, GlobalMaxPool: [N, C, 1, ...]. */
static ge_status ge__ox_global_pool(ge_infer_ctx *c) {
  const ge_tensor_desc *dx = ge_infer_input(c, 0);
  ge__ox_shape o;
  int32_t i;
  if (!dx) return GE_OK;
  ge__ox_load(&o, dx);
  if (o.rank >= 0 && o.rank < 2) {
    char s1[128];
    return ge_infer_error(c, GE_ERR_SHAPE, "input %s needs rank >= 2", ge__ox_str(&o, s1, sizeof s1));
  }
  for (i = 2; i < o.rank; i++) ge__ox_dim(&o, i, 1);
  return ge__ox_out(c, 0, dx->dtype, &o);
}

/* --------------------------------------------------------- reductions */

/* Reduce*: axes from input 1 (opset 13/18) or attribute; keepdims;
 * noop_with_empty_axes. */
static ge_status ge__ox_reduce(ge_infer_ctx *c) {
  const ge_tensor_desc *dx = ge_infer_input(c, 0);
  ge__ox_shape x, o;
  int64_t axes[GE_MAX_RANK];
  int32_t n = 0, i;
  uint8_t flags[GE_MAX_RANK];
  int keep = ge_infer_attr_int(c, "keepdims", 1) != 0, known;
  ge_status st;
  if (!dx) return GE_OK;
  ge__ox_load(&x, dx);
  known = ge__ox_list(c, 1, "axes", axes, &n, GE_MAX_RANK);
  if (x.rank < 0) return ge__ox_out_unknown(c, 0, dx->dtype);
  if (!known) {
    /* which axes go is unknown: with keepdims the rank stays */
    if (!keep) return ge__ox_out_unknown(c, 0, dx->dtype);
    o = x;
    for (i = 0; i < o.rank; i++)
      if (o.d[i] != 1) ge__ox_dim(&o, i, GE_DIM_UNKNOWN);
    return ge__ox_out(c, 0, dx->dtype, &o);
  }
  if (n == 0) {
    if (ge_infer_attr_int(c, "noop_with_empty_axes", 0)) return ge__infer_same(c);
    memset(flags, 1, sizeof flags);
  } else if ((st = ge__ox_axis_flags(c, axes, n, x.rank, flags))) {
    return st;
  }
  o.rank = 0;
  for (i = 0; i < x.rank; i++) {
    if (!flags[i]) ge__ox_push(&o, &x, i);
    else if (keep) ge__ox_dim(&o, o.rank++, 1);
  }
  return ge__ox_out(c, 0, dx->dtype, &o);
}

/* ArgMax, ArgMin: int64 indices along axis. */
static ge_status ge__ox_argreduce(ge_infer_ctx *c) {
  const ge_tensor_desc *dx = ge_infer_input(c, 0);
  ge__ox_shape x, o;
  int32_t a, i;
  int keep = ge_infer_attr_int(c, "keepdims", 1) != 0;
  ge_status st;
  if (!dx) return GE_OK;
  ge__ox_load(&x, dx);
  if (x.rank < 0) return ge__ox_out_unknown(c, 0, GE_DTYPE_INT64);
  if ((st = ge__ox_axis(c, "axis", ge_infer_attr_int(c, "axis", 0), x.rank, &a))) return st;
  o.rank = 0;
  for (i = 0; i < x.rank; i++) {
    if (i != a) ge__ox_push(&o, &x, i);
    else if (keep) ge__ox_dim(&o, o.rank++, 1);
  }
  return ge__ox_out(c, 0, GE_DTYPE_INT64, &o);
}

/* ------------------------------------------------------ shape ops */

static ge_status ge__ox_reshape(ge_infer_ctx *c) {
  const ge_tensor_desc *dx = ge_infer_input(c, 0), *ds = ge_infer_input(c, 1);
  ge__ox_shape x, o;
  int64_t v[GE_MAX_RANK + 1], vals[GE__OX_VMAX], pin = 1, pout = 1;
  uint8_t copied[GE_MAX_RANK];
  int allowzero = ge_infer_attr_int(c, "allowzero", 0) != 0, in_known = 1, out_known = 1;
  int32_t n, i, neg = -1, nv;
  char s1[128], s2[128];
  ge_status st;
  if (!dx) return GE_OK;
  ge__ox_load(&x, dx);
  n = ds ? ge__ox_ints(ds->value, v, GE_MAX_RANK + 1) : ge__ox_attr_ints(c, "shape", v, GE_MAX_RANK + 1);
  if (n > GE_MAX_RANK) return ge_infer_error(c, GE_ERR_UNSUPPORTED, "target rank %d exceeds %d", (int)n, GE_MAX_RANK);
  if (n < 0) {
    if (ds && ds->shape.rank == 1 && ds->shape.dims[0] >= 0 && ds->shape.dims[0] <= GE_MAX_RANK) {
      ge__ox_unknown_dims(&o, (int32_t)ds->shape.dims[0]);
      return ge__ox_out(c, 0, dx->dtype, &o);
    }
    return ge__ox_out_unknown(c, 0, dx->dtype);
  }
  o.rank = n;
  memset(copied, 0, sizeof copied);
  for (i = 0; i < n; i++) {
    if (v[i] == 0 && !allowzero) {
      if (x.rank >= 0 && i >= x.rank)
        return ge_infer_error(c, GE_ERR_SHAPE, "target dim %d is 0 (copy) but the input %s has no dim %d", (int)i,
                              ge__ox_str(&x, s1, sizeof s1), (int)i);
      if (x.rank >= 0) o.d[i] = x.d[i], o.x[i] = x.x[i], copied[i] = 1;
      else ge__ox_dim(&o, i, GE_DIM_UNKNOWN);
    } else if (v[i] == -1) {
      if (neg >= 0) return ge_infer_error(c, GE_ERR_SHAPE, "target shape has more than one -1");
      neg = i;
      ge__ox_dim(&o, i, GE_DIM_UNKNOWN);
    } else if (v[i] < 0) {
      return ge_infer_error(c, GE_ERR_SHAPE, "target dim %d is %lld", (int)i, (long long)v[i]);
    } else {
      ge__ox_dim(&o, i, v[i]);
    }
  }
  /* element counts over the dims not copied one-to-one */
  if (x.rank < 0) in_known = 0;
  for (i = 0; i < x.rank; i++)
    if (!(i < n && copied[i])) {
      if (x.d[i] < 0) in_known = 0;
      else pin *= x.d[i];
    }
  for (i = 0; i < n; i++)
    if (!copied[i] && i != neg) {
      if (o.d[i] < 0) out_known = 0;
      else pout *= o.d[i];
    }
  if (in_known && out_known) {
    if (neg >= 0) {
      if (pout == 0 || pin % pout)
        return ge_infer_error(c, GE_ERR_SHAPE, "cannot reshape %s to %s: %lld elements do not divide by %lld",
                              ge__ox_str(&x, s1, sizeof s1), ge__ox_str(&o, s2, sizeof s2), (long long)pin, (long long)pout);
      ge__ox_dim(&o, neg, pin / pout);
    } else if (pin != pout) {
      return ge_infer_error(c, GE_ERR_SHAPE, "cannot reshape %s to %s: element counts differ",
                            ge__ox_str(&x, s1, sizeof s1), ge__ox_str(&o, s2, sizeof s2));
    }
  }
  if ((st = ge__ox_out(c, 0, dx->dtype, &o))) return st;
  if ((nv = ge__ox_ints(dx->value, vals, GE__OX_VMAX)) < 0) return GE_OK;
  {
    ge_shape vo = ge__ox_view(&o);
    if (ge_shape_numel(&vo) != nv) return GE_OK;
  }
  return ge__ox_put_shape_ints(c, 0, dx->dtype, &o, vals, nv);
}

static ge_status ge__ox_flatten(ge_infer_ctx *c) {
  const ge_tensor_desc *dx = ge_infer_input(c, 0);
  ge__ox_shape x, o;
  int64_t axis = ge_infer_attr_int(c, "axis", 1);
  int32_t a, i, part;
  if (!dx) return GE_OK;
  ge__ox_load(&x, dx);
  if (x.rank < 0) {
    ge__ox_unknown_dims(&o, 2);
    return ge__ox_out(c, 0, dx->dtype, &o);
  }
  if (axis < -(int64_t)x.rank || axis > x.rank)
    return ge_infer_error(c, GE_ERR_SHAPE, "axis %lld is out of range for rank %d", (long long)axis, (int)x.rank);
  a = (int32_t)(axis < 0 ? axis + x.rank : axis);
  o.rank = 2;
  for (part = 0; part < 2; part++) {
    int32_t lo = part ? a : 0, hi = part ? x.rank : a, unknown = 0;
    int64_t p = 1;
    for (i = lo; i < hi; i++) {
      if (x.d[i] < 0) unknown++;
      else p *= x.d[i];
    }
    ge__ox_dim(&o, part, unknown ? GE_DIM_UNKNOWN : p);
    /* a single unknown dim times ones keeps its info (the batch dim) */
    if (unknown == 1 && p == 1)
      for (i = lo; i < hi; i++)
        if (x.d[i] < 0) o.x[part] = x.x[i];
  }
  return ge__ox_out(c, 0, dx->dtype, &o);
}

static ge_status ge__ox_squeeze(ge_infer_ctx *c) {
  const ge_tensor_desc *dx = ge_infer_input(c, 0);
  ge__ox_shape x, o;
  int64_t axes[GE_MAX_RANK], vals[GE__OX_VMAX];
  int32_t n = 0, i, nv;
  uint8_t flags[GE_MAX_RANK];
  ge_status st;
  if (!dx) return GE_OK;
  ge__ox_load(&x, dx);
  if (!ge__ox_list(c, 1, "axes", axes, &n, GE_MAX_RANK) || x.rank < 0) return ge__ox_out_unknown(c, 0, dx->dtype);
  if (n == 0) {
    for (i = 0; i < x.rank; i++) {
      if (x.d[i] < 0) return ge__ox_out_unknown(c, 0, dx->dtype);
      flags[i] = x.d[i] == 1;
    }
  } else if ((st = ge__ox_axis_flags(c, axes, n, x.rank, flags))) {
    return st;
  }
  o.rank = 0;
  for (i = 0; i < x.rank; i++) {
    if (!flags[i]) ge__ox_push(&o, &x, i);
    else if (x.d[i] >= 0 && x.d[i] != 1) {
      char s1[128];
      return ge_infer_error(c, GE_ERR_SHAPE, "cannot squeeze axis %d of %s: its size is %lld", (int)i,
                            ge__ox_str(&x, s1, sizeof s1), (long long)x.d[i]);
    }
  }
  if ((st = ge__ox_out(c, 0, dx->dtype, &o))) return st;
  if ((nv = ge__ox_ints(dx->value, vals, GE__OX_VMAX)) < 0) return GE_OK;
  return ge__ox_put_shape_ints(c, 0, dx->dtype, &o, vals, nv);
}

static ge_status ge__ox_unsqueeze(ge_infer_ctx *c) {
  const ge_tensor_desc *dx = ge_infer_input(c, 0);
  ge__ox_shape x, o;
  int64_t axes[GE_MAX_RANK], vals[GE__OX_VMAX];
  int32_t n = 0, i, j, r, nv;
  uint8_t flags[GE_MAX_RANK];
  ge_status st;
  if (!dx) return GE_OK;
  ge__ox_load(&x, dx);
  if (!ge__ox_list(c, 1, "axes", axes, &n, GE_MAX_RANK) || x.rank < 0) return ge__ox_out_unknown(c, 0, dx->dtype);
  if (n == 0) return ge_infer_error(c, GE_ERR_INVALID, "axes are missing");
  r = x.rank + n;
  if (r > GE_MAX_RANK) return ge_infer_error(c, GE_ERR_UNSUPPORTED, "output rank %d exceeds %d", (int)r, GE_MAX_RANK);
  if ((st = ge__ox_axis_flags(c, axes, n, r, flags))) return st;
  o.rank = 0;
  for (i = 0, j = 0; i < r; i++) {
    if (flags[i]) ge__ox_dim(&o, o.rank++, 1);
    else ge__ox_push(&o, &x, j++);
  }
  if ((st = ge__ox_out(c, 0, dx->dtype, &o))) return st;
  if ((nv = ge__ox_ints(dx->value, vals, GE__OX_VMAX)) < 0) return GE_OK;
  return ge__ox_put_shape_ints(c, 0, dx->dtype, &o, vals, nv);
}

static ge_status ge__ox_transpose(ge_infer_ctx *c) {
  const ge_tensor_desc *dx = ge_infer_input(c, 0);
  ge__ox_shape x, o;
  int64_t perm[GE_MAX_RANK + 1];
  int32_t n, i;
  uint8_t seen[GE_MAX_RANK];
  if (!dx) return GE_OK;
  ge__ox_load(&x, dx);
  n = ge__ox_attr_ints(c, "perm", perm, GE_MAX_RANK + 1);
  if (x.rank < 0) {
    if (n <= 0 || n > GE_MAX_RANK) return ge__ox_out_unknown(c, 0, dx->dtype);
    ge__ox_unknown_dims(&o, n);
    return ge__ox_out(c, 0, dx->dtype, &o);
  }
  if (n < 0) {
    n = x.rank;
    for (i = 0; i < n; i++) perm[i] = n - 1 - i;
  }
  if (n != x.rank)
    return ge_infer_error(c, GE_ERR_SHAPE, "perm has %d entries for rank %d", (int)n, (int)x.rank);
  memset(seen, 0, sizeof seen);
  o.rank = 0;
  for (i = 0; i < n; i++) {
    if (perm[i] < 0 || perm[i] >= n || seen[perm[i]])
      return ge_infer_error(c, GE_ERR_SHAPE, "perm is not a permutation of 0..%d (entry %d is %lld)", (int)n - 1, (int)i,
                            (long long)perm[i]);
    seen[perm[i]] = 1;
    ge__ox_push(&o, &x, (int32_t)perm[i]);
  }
  return ge__ox_out(c, 0, dx->dtype, &o);
}

static ge_status ge__ox_concat(ge_infer_ctx *c) {
  uint32_t k, nin = ge_infer_num_inputs(c);
  ge__ox_shape o, x;
  int64_t vals[GE__OX_VMAX], sum = 0;
  int32_t a = 0, i, nv = 0, values = 1, first = -1;
  ge_dtype dt = GE_DTYPE_UNDEFINED;
  char s1[128], s2[128];
  ge_status st;
  o.rank = GE_RANK_UNKNOWN;
  for (k = 0; k < nin; k++) {
    const ge_tensor_desc *d = ge_infer_input(c, k);
    if (!d) continue;
    if (dt == GE_DTYPE_UNDEFINED) dt = d->dtype;
    ge__ox_load(&x, d);
    if (x.rank < 0) continue;
    if (o.rank < 0) {
      o = x;
      first = (int32_t)k;
      if ((st = ge__ox_axis(c, "axis", ge_infer_attr_int(c, "axis", 0), x.rank, &a))) return st;
      continue;
    }
    if (x.rank != o.rank)
      return ge_infer_error(c, GE_ERR_SHAPE, "input %u %s and input %d %s have different ranks", (unsigned)k,
                            ge__ox_str(&x, s1, sizeof s1), (int)first, ge__ox_str(&o, s2, sizeof s2));
    for (i = 0; i < x.rank; i++) {
      if (i == a) continue;
      if (x.d[i] >= 0 && o.d[i] >= 0 && x.d[i] != o.d[i])
        return ge_infer_error(c, GE_ERR_SHAPE, "input %u %s and input %d %s differ in dim %d (concat axis %d)",
                              (unsigned)k, ge__ox_str(&x, s1, sizeof s1), (int)first, ge__ox_str(&o, s2, sizeof s2),
                              (int)i, (int)a);
      if (o.d[i] < 0 && (x.d[i] >= 0 || (!o.x[i].symbol && x.x[i].symbol))) o.d[i] = x.d[i], o.x[i] = x.x[i];
    }
  }
  if (o.rank < 0) return ge__ox_out_unknown(c, 0, dt);
  /* the axis: sum when every input's extent is known */
  for (k = 0; k < nin && sum >= 0; k++) {
    const ge_tensor_desc *d = ge_infer_input(c, k);
    if (!d) continue;
    if (d->shape.rank != o.rank || d->shape.dims[a] < 0) sum = -1;
    else sum += d->shape.dims[a];
  }
  if (nin > 1 || sum < 0) ge__ox_dim(&o, a, sum);
  if ((st = ge__ox_out(c, 0, dt, &o))) return st;
  /* values: 1-D int inputs all known */
  if (o.rank != 1) return GE_OK;
  for (k = 0; k < nin && values; k++) {
    const ge_tensor *t = ge_infer_input_value(c, k);
    int32_t m;
    if (!ge_infer_input(c, k)) continue;
    if (!t || (m = ge__ox_ints(t, vals + nv, GE__OX_VMAX - nv)) < 0) values = 0;
    else nv += m;
  }
  return values ? ge__ox_put_shape_ints(c, 0, dt, &o, vals, nv) : GE_OK;
}

static ge_status ge__ox_split(ge_infer_ctx *c) {
  const ge_tensor_desc *dx = ge_infer_input(c, 0);
  uint32_t nout = c->n->num_outputs, i;
  ge__ox_shape x, o;
  int64_t split[GE__OX_VMAX], dim, sum = 0;
  int32_t a, n = 0;
  int known;
  ge_status st;
  if (!dx) return GE_OK;
  ge__ox_load(&x, dx);
  known = ge__ox_list(c, 1, "split", split, &n, GE__OX_VMAX);
  if (x.rank < 0) {
    for (i = 0; i < nout; i++)
      if ((st = ge__ox_out_unknown(c, i, dx->dtype))) return st;
    return GE_OK;
  }
  if ((st = ge__ox_axis(c, "axis", ge_infer_attr_int(c, "axis", 0), x.rank, &a))) return st;
  dim = x.d[a];
  {
    int64_t want = ge_infer_attr_int(c, "num_outputs", -1);
    if (want >= 0 && want != (int64_t)nout)
      return ge_infer_error(c, GE_ERR_SHAPE, "num_outputs is %lld but the node has %u outputs", (long long)want,
                            (unsigned)nout);
  }
  if (known && n > 0) {
    if ((uint32_t)n != nout)
      return ge_infer_error(c, GE_ERR_SHAPE, "split has %d entries for %u outputs", (int)n, (unsigned)nout);
    for (i = 0; i < nout; i++) {
      if (split[i] < 0) return ge_infer_error(c, GE_ERR_SHAPE, "split entry %u is negative", (unsigned)i);
      sum += split[i];
    }
    if (dim >= 0 && sum != dim) {
      char s1[128];
      return ge_infer_error(c, GE_ERR_SHAPE, "split sizes add up to %lld but axis %d of %s is %lld", (long long)sum,
                            (int)a, ge__ox_str(&x, s1, sizeof s1), (long long)dim);
    }
  }
  for (i = 0; i < nout; i++) {
    int64_t v = GE_DIM_UNKNOWN;
    if (known && n > 0) v = split[i];
    else if (known && dim >= 0 && nout) {
      int64_t chunk = (dim + (int64_t)nout - 1) / (int64_t)nout, left = dim - (int64_t)i * chunk;
      v = left < 0 ? 0 : left < chunk ? left : chunk;
    }
    o = x;
    if (!(nout == 1 && v < 0)) ge__ox_dim(&o, a, v);
    if ((st = ge__ox_out(c, i, dx->dtype, &o))) return st;
  }
  return GE_OK;
}

/* Clamped slice extent and first index of one axis (ONNX Slice rules). */
static int64_t ge__ox_slice_dim(int64_t dim, int64_t start, int64_t end, int64_t step, int64_t *first) {
  int64_t n;
  if (start < 0) start += dim;
  if (end < 0) end += dim;
  if (step > 0) {
    start = start < 0 ? 0 : start > dim ? dim : start;
    end = end < 0 ? 0 : end > dim ? dim : end;
    n = end > start ? (end - start + step - 1) / step : 0;
  } else {
    start = start < 0 ? -1 : start > dim - 1 ? dim - 1 : start;
    end = end < -1 ? -1 : end > dim - 1 ? dim - 1 : end;
    n = start > end ? (start - end + (-step) - 1) / (-step) : 0;
  }
  *first = start;
  return n;
}

static ge_status ge__ox_slice(ge_infer_ctx *c) {
  const ge_tensor_desc *dx = ge_infer_input(c, 0);
  ge__ox_shape x, o;
  int64_t starts[GE_MAX_RANK], ends[GE_MAX_RANK], axes[GE_MAX_RANK], steps[GE_MAX_RANK];
  int64_t first[GE_MAX_RANK], vals[GE__OX_VMAX], res[GE__OX_VMAX];
  int32_t ns = 0, ne = 0, na = 0, nst = 0, i, ax[GE_MAX_RANK];
  int attrs = ge_infer_num_inputs(c) < 3, ks, ke, ka, kst;
  ge_status st;
  if (!dx) return GE_OK;
  ge__ox_load(&x, dx);
  if (x.rank < 0) return ge__ox_out_unknown(c, 0, dx->dtype);
  ks = ge__ox_list(c, attrs ? 99 : 1, "starts", starts, &ns, GE_MAX_RANK);
  ke = ge__ox_list(c, attrs ? 99 : 2, "ends", ends, &ne, GE_MAX_RANK);
  ka = ge__ox_list(c, attrs ? 99 : 3, "axes", axes, &na, GE_MAX_RANK);
  kst = attrs ? 1 : ge__ox_list(c, 4, NULL, steps, &nst, GE_MAX_RANK);
  o = x;
  if (!ks || !ke || !kst) {
    /* extents unknown: only the listed axes change */
    if (ka && na > 0) {
      for (i = 0; i < na; i++) {
        if ((st = ge__ox_axis(c, "axis", axes[i], x.rank, &ax[i]))) return st;
        ge__ox_dim(&o, ax[i], GE_DIM_UNKNOWN);
      }
    } else {
      ge__ox_unknown_dims(&o, x.rank);
    }
    return ge__ox_out(c, 0, dx->dtype, &o);
  }
  if (ns != ne) return ge_infer_error(c, GE_ERR_SHAPE, "starts has %d entries, ends %d", (int)ns, (int)ne);
  if (!ka) { /* any axis may change */
    ge__ox_unknown_dims(&o, x.rank);
    return ge__ox_out(c, 0, dx->dtype, &o);
  }
  if (na == 0) {
    na = ns;
    for (i = 0; i < na; i++) axes[i] = i;
  }
  if (nst == 0) {
    nst = ns;
    for (i = 0; i < nst; i++) steps[i] = 1;
  }
  if (na != ns || nst != ns)
    return ge_infer_error(c, GE_ERR_SHAPE, "starts, ends, axes and steps have %d, %d, %d and %d entries", (int)ns,
                          (int)ne, (int)na, (int)nst);
  for (i = 0; i < ns; i++) {
    int32_t j;
    if ((st = ge__ox_axis(c, "axis", axes[i], x.rank, &ax[i]))) return st;
    for (j = 0; j < i; j++)
      if (ax[j] == ax[i]) return ge_infer_error(c, GE_ERR_SHAPE, "axis %d is repeated", (int)ax[i]);
    if (steps[i] == 0) return ge_infer_error(c, GE_ERR_SHAPE, "step of axis %d is 0", (int)ax[i]);
    if (x.d[ax[i]] < 0) {
      /* unknown extent: only [0, huge) with step 1 keeps the dim */
      if (!(starts[i] == 0 && steps[i] == 1 && ends[i] >= INT32_MAX)) ge__ox_dim(&o, ax[i], GE_DIM_UNKNOWN);
      first[i] = 0;
      continue;
    }
    {
      int64_t f, e = ge__ox_slice_dim(x.d[ax[i]], starts[i], ends[i], steps[i], &f);
      first[i] = f;
      if (e != x.d[ax[i]]) ge__ox_dim(&o, ax[i], e);
    }
  }
  if ((st = ge__ox_out(c, 0, dx->dtype, &o))) return st;
  /* value of a 1-D int input (Shape -> Slice) */
  if (x.rank == 1 && o.d[0] >= 0 && ge__ox_ints(dx->value, vals, GE__OX_VMAX) == x.d[0]) {
    int64_t k, step = 1;
    for (i = 0; i < ns; i++) step = steps[i];
    if (ns == 0) first[0] = 0;
    for (k = 0; k < o.d[0]; k++) res[k] = vals[first[0] + k * step];
    return ge__ox_put_shape_ints(c, 0, dx->dtype, &o, res, o.d[0]);
  }
  return GE_OK;
}

static ge_status ge__ox_gather(ge_infer_ctx *c) {
  const ge_tensor_desc *dd = ge_infer_input(c, 0), *di = ge_infer_input(c, 1);
  ge__ox_shape d, idx, o;
  int64_t iv[GE__OX_VMAX], dv[GE__OX_VMAX], res[GE__OX_VMAX];
  int32_t a, i, ni, nd;
  ge_status st;
  if (!dd || !di) return GE_OK;
  ge__ox_load(&d, dd);
  ge__ox_load(&idx, di);
  if (d.rank < 0 || idx.rank < 0) return ge__ox_out_unknown(c, 0, dd->dtype);
  if (d.rank == 0) return ge_infer_error(c, GE_ERR_SHAPE, "data must have rank >= 1");
  if ((st = ge__ox_axis(c, "axis", ge_infer_attr_int(c, "axis", 0), d.rank, &a))) return st;
  if (d.rank - 1 + idx.rank > GE_MAX_RANK)
    return ge_infer_error(c, GE_ERR_UNSUPPORTED, "output rank exceeds %d", GE_MAX_RANK);
  o.rank = 0;
  for (i = 0; i < a; i++) ge__ox_push(&o, &d, i);
  for (i = 0; i < idx.rank; i++) ge__ox_push(&o, &idx, i);
  for (i = a + 1; i < d.rank; i++) ge__ox_push(&o, &d, i);
  ni = ge__ox_input_ints(c, 1, iv, GE__OX_VMAX);
  for (i = 0; i < ni && d.d[a] >= 0; i++) {
    if (iv[i] < -d.d[a] || iv[i] >= d.d[a])
      return ge_infer_error(c, GE_ERR_SHAPE, "index %lld is out of range for axis %d of size %lld", (long long)iv[i],
                            (int)a, (long long)d.d[a]);
    if (iv[i] < 0) iv[i] += d.d[a];
  }
  if ((st = ge__ox_out(c, 0, dd->dtype, &o))) return st;
  if (ni < 0 || d.rank != 1 || (nd = ge__ox_ints(dd->value, dv, GE__OX_VMAX)) < 0 || nd != d.d[0]) return GE_OK;
  for (i = 0; i < ni; i++) res[i] = dv[iv[i]];
  return ge__ox_put_shape_ints(c, 0, dd->dtype, &o, res, ni);
}

/* GatherElements: the shape of the indices, dtype of the data. */
static ge_status ge__ox_gather_elements(ge_infer_ctx *c) {
  const ge_tensor_desc *dd = ge_infer_input(c, 0), *di = ge_infer_input(c, 1);
  ge__ox_shape idx;
  int32_t a;
  ge_status st;
  if (!dd || !di) return GE_OK;
  ge__ox_load(&idx, di);
  if (dd->shape.rank >= 0 && idx.rank >= 0 && dd->shape.rank != idx.rank)
    return ge_infer_error(c, GE_ERR_SHAPE, "data rank %d and indices rank %d differ", (int)dd->shape.rank, (int)idx.rank);
  if (dd->shape.rank > 0 && (st = ge__ox_axis(c, "axis", ge_infer_attr_int(c, "axis", 0), dd->shape.rank, &a)))
    return st;
  return ge__ox_out(c, 0, dd->dtype, &idx);
}

static ge_status ge__ox_gather_nd(ge_infer_ctx *c) {
  const ge_tensor_desc *dd = ge_infer_input(c, 0), *di = ge_infer_input(c, 1);
  ge__ox_shape d, idx, o;
  int64_t b = ge_infer_attr_int(c, "batch_dims", 0), k;
  int32_t i;
  if (!dd || !di) return GE_OK;
  ge__ox_load(&d, dd);
  ge__ox_load(&idx, di);
  if (d.rank < 0 || idx.rank < 0 || (idx.rank > 0 && idx.d[idx.rank - 1] < 0)) return ge__ox_out_unknown(c, 0, dd->dtype);
  if (idx.rank < 1 || b < 0 || b >= idx.rank || b >= d.rank)
    return ge_infer_error(c, GE_ERR_SHAPE, "batch_dims %lld does not fit data rank %d and indices rank %d", (long long)b,
                          (int)d.rank, (int)idx.rank);
  k = idx.d[idx.rank - 1];
  if (b + k > d.rank)
    return ge_infer_error(c, GE_ERR_SHAPE, "indices address %lld dims after %lld batch dims of a rank %d input",
                          (long long)k, (long long)b, (int)d.rank);
  o.rank = 0;
  for (i = 0; i < idx.rank - 1; i++) ge__ox_push(&o, &idx, i);
  for (i = (int32_t)(b + k); i < d.rank; i++) ge__ox_push(&o, &d, i);
  return ge__ox_out(c, 0, dd->dtype, &o);
}

static ge_status ge__ox_expand(ge_infer_ctx *c) {
  const ge_tensor_desc *dx = ge_infer_input(c, 0), *ds = ge_infer_input(c, 1);
  ge__ox_shape x, t, o;
  int64_t v[GE_MAX_RANK + 1];
  int32_t n, i;
  ge_shape va, vb;
  char s1[128], s2[128];
  if (!dx || !ds) return GE_OK;
  ge__ox_load(&x, dx);
  n = ge__ox_ints(ds->value, v, GE_MAX_RANK + 1);
  if (n > GE_MAX_RANK) return ge_infer_error(c, GE_ERR_UNSUPPORTED, "target rank %d exceeds %d", (int)n, GE_MAX_RANK);
  if (n < 0) {
    int32_t k = ds->shape.rank == 1 ? (int32_t)ds->shape.dims[0] : -1;
    if (x.rank < 0 || k < 0 || k > GE_MAX_RANK) return ge__ox_out_unknown(c, 0, dx->dtype);
    /* rank known, a dim is known only where the input's is > 1 */
    ge__ox_unknown_dims(&t, k);
    for (i = 0; i < t.rank; i++) t.d[i] = GE_DIM_UNKNOWN;
  } else {
    t.rank = n;
    for (i = 0; i < n; i++) {
      if (v[i] < 0) return ge_infer_error(c, GE_ERR_SHAPE, "target shape has a negative dim %lld", (long long)v[i]);
      ge__ox_dim(&t, i, v[i]);
    }
  }
  if (x.rank < 0) return ge__ox_out_unknown(c, 0, dx->dtype);
  va = ge__ox_view(&x);
  vb = ge__ox_view(&t);
  o.rank = ge_shape_broadcast(&va, &vb, o.d, o.x);
  if (o.rank == -1)
    return ge_infer_error(c, GE_ERR_SHAPE, "input %s does not broadcast to %s", ge__ox_str(&x, s1, sizeof s1),
                          ge__ox_str(&t, s2, sizeof s2));
  return ge__ox_out(c, 0, dx->dtype, &o);
}

static ge_status ge__ox_tile(ge_infer_ctx *c) {
  const ge_tensor_desc *dx = ge_infer_input(c, 0);
  ge__ox_shape o;
  int64_t rep[GE_MAX_RANK + 1];
  int32_t n, i;
  if (!dx) return GE_OK;
  ge__ox_load(&o, dx);
  n = ge__ox_input_ints(c, 1, rep, GE_MAX_RANK + 1);
  if (o.rank < 0) return ge__ox_out_unknown(c, 0, dx->dtype);
  if (n >= 0 && n != o.rank)
    return ge_infer_error(c, GE_ERR_SHAPE, "repeats has %d entries for rank %d", (int)n, (int)o.rank);
  for (i = 0; i < o.rank; i++) {
    if (n < 0) ge__ox_dim(&o, i, GE_DIM_UNKNOWN);
    else if (rep[i] < 0) return ge_infer_error(c, GE_ERR_SHAPE, "repeats entry %d is negative", (int)i);
    else if (rep[i] != 1) ge__ox_dim(&o, i, o.d[i] < 0 ? GE_DIM_UNKNOWN : o.d[i] * rep[i]);
  }
  return ge__ox_out(c, 0, dx->dtype, &o);
}

static ge_status ge__ox_pad(ge_infer_ctx *c) {
  const ge_tensor_desc *dx = ge_infer_input(c, 0);
  ge__ox_shape x, o;
  int64_t pads[2 * GE_MAX_RANK], axes[GE_MAX_RANK];
  int32_t np = 0, na = 0, i, a;
  int kp, ka;
  ge_status st;
  if (!dx) return GE_OK;
  ge__ox_load(&x, dx);
  if (x.rank < 0) return ge__ox_out_unknown(c, 0, dx->dtype);
  kp = ge__ox_list(c, 1, "pads", pads, &np, 2 * GE_MAX_RANK);
  ka = ge__ox_list(c, 3, NULL, axes, &na, GE_MAX_RANK);
  if (ka && na == 0) {
    na = x.rank;
    for (i = 0; i < na; i++) axes[i] = i;
  }
  o = x;
  if (!ka) {
    ge__ox_unknown_dims(&o, x.rank);
    return ge__ox_out(c, 0, dx->dtype, &o);
  }
  if (kp && np != 2 * na)
    return ge_infer_error(c, GE_ERR_SHAPE, "pads has %d entries for %d axes", (int)np, (int)na);
  for (i = 0; i < na; i++) {
    if ((st = ge__ox_axis(c, "axis", axes[i], x.rank, &a))) return st;
    if (!kp) ge__ox_dim(&o, a, GE_DIM_UNKNOWN);
    else if (pads[i] || pads[i + na]) {
      int64_t v = x.d[a] < 0 ? GE_DIM_UNKNOWN : x.d[a] + pads[i] + pads[i + na];
      if (x.d[a] >= 0 && v < 0)
        return ge_infer_error(c, GE_ERR_SHAPE, "pads %lld, %lld make axis %d of size %lld negative", (long long)pads[i],
                              (long long)pads[i + na], (int)a, (long long)x.d[a]);
      ge__ox_dim(&o, a, v);
    }
  }
  return ge__ox_out(c, 0, dx->dtype, &o);
}

/* Shape: int64 [end - start], its value when those dims are static. */
static ge_status ge__ox_shape_op(ge_infer_ctx *c) {
  const ge_tensor_desc *dx = ge_infer_input(c, 0);
  ge__ox_shape o;
  int64_t start = ge_infer_attr_int(c, "start", 0), end, v[GE_MAX_RANK], i;
  int32_t r;
  ge_status st;
  if (!dx) return GE_OK;
  r = dx->shape.rank;
  o.rank = 1;
  if (r < 0) {
    ge__ox_dim(&o, 0, GE_DIM_UNKNOWN);
    return ge__ox_out(c, 0, GE_DTYPE_INT64, &o);
  }
  end = ge_infer_attr_int(c, "end", r);
  if (start < 0) start += r;
  if (end < 0) end += r;
  start = start < 0 ? 0 : start > r ? r : start;
  end = end < 0 ? 0 : end > r ? r : end;
  if (end < start) end = start;
  ge__ox_dim(&o, 0, end - start);
  if ((st = ge__ox_out(c, 0, GE_DTYPE_INT64, &o))) return st;
  for (i = start; i < end; i++) {
    if (dx->shape.dims[i] < 0) return GE_OK;
    v[i - start] = dx->shape.dims[i];
  }
  return ge__ox_put_shape_ints(c, 0, GE_DTYPE_INT64, &o, v, end - start);
}

static ge_status ge__ox_size(ge_infer_ctx *c) {
  const ge_tensor_desc *dx = ge_infer_input(c, 0);
  int64_t n;
  ge_status st;
  if (!dx) return GE_OK;
  if ((st = ge_infer_set_output(c, 0, GE_DTYPE_INT64, 0, NULL, NULL))) return st;
  n = ge_shape_numel(&dx->shape);
  return n < 0 ? GE_OK : ge__ox_put_ints(c, 0, GE_DTYPE_INT64, 0, NULL, &n, 1);
}

static ge_status ge__ox_constant_of_shape(ge_infer_ctx *c) {
  const ge_tensor_desc *ds = ge_infer_input(c, 0);
  const ge_attr *va = ge_infer_attr(c, "value");
  const ge_tensor *vt = va && va->type == GE_ATTR_TENSOR ? va->v.t : NULL;
  ge_dtype dt = vt ? vt->dtype : GE_DTYPE_FLOAT32;
  ge__ox_shape o;
  int64_t v[GE_MAX_RANK + 1], fill[GE__OX_VMAX], x0, numel = 1;
  int32_t n, i;
  ge_status st;
  if (!ds) return GE_OK;
  if (vt && ge_tensor_numel(vt) != 1)
    return ge_infer_error(c, GE_ERR_SHAPE, "attribute 'value' must have one element");
  n = ge__ox_ints(ds->value, v, GE_MAX_RANK + 1);
  if (n > GE_MAX_RANK) return ge_infer_error(c, GE_ERR_UNSUPPORTED, "output rank %d exceeds %d", (int)n, GE_MAX_RANK);
  if (n < 0) {
    if (ds->shape.rank == 1 && ds->shape.dims[0] >= 0 && ds->shape.dims[0] <= GE_MAX_RANK)
      ge__ox_unknown_dims(&o, (int32_t)ds->shape.dims[0]);
    else
      o.rank = GE_RANK_UNKNOWN;
    return ge__ox_out(c, 0, dt, &o);
  }
  o.rank = n;
  for (i = 0; i < n; i++) {
    if (v[i] < 0) return ge_infer_error(c, GE_ERR_SHAPE, "shape entry %d is negative (%lld)", (int)i, (long long)v[i]);
    ge__ox_dim(&o, i, v[i]);
    numel *= v[i];
  }
  if ((st = ge__ox_out(c, 0, dt, &o))) return st;
  if (numel > GE__OX_VMAX || !ge__ox_int_dtype(dt)) return GE_OK;
  if (vt) {
    if (ge__ox_ints(vt, &x0, 1) != 1) return GE_OK;
  } else {
    x0 = 0;
  }
  for (i = 0; i < numel; i++) fill[i] = x0;
  return ge__ox_put_shape_ints(c, 0, dt, &o, fill, numel);
}

static ge_status ge__ox_range(ge_infer_ctx *c) {
  ge_dtype dt = ge__ox_dtype(c, 0);
  ge__ox_shape o;
  ge_status st;
  int64_t n = GE_DIM_UNKNOWN, iv[3], k;
  double fv[3];
  int i, known = 1;
  o.rank = 1;
  for (i = 0; i < 3; i++) {
    const ge_tensor_desc *d = ge_infer_input(c, (uint32_t)i);
    if (d && d->shape.rank > 0 && !(d->shape.rank == 1 && d->shape.dims[0] == 1))
      return ge_infer_error(c, GE_ERR_SHAPE, "input %d must be a scalar", i);
    if (ge__ox_floats(ge_infer_input_value(c, (uint32_t)i), &fv[i], 1) != 1) known = 0;
  }
  if (known) {
    if (fv[2] == 0) return ge_infer_error(c, GE_ERR_SHAPE, "delta is 0");
    if (ge__ox_int_dtype(dt)) {
      for (i = 0; i < 3; i++) ge__ox_ints(ge_infer_input_value(c, (uint32_t)i), &iv[i], 1);
      {
        int64_t diff = iv[1] - iv[0], q = diff / iv[2];
        if (q * iv[2] != diff && ((diff > 0) == (iv[2] > 0))) q++;
        n = q < 0 ? 0 : q;
      }
    } else {
      double q = (fv[1] - fv[0]) / fv[2];
      n = q > 0 ? (int64_t)q : 0;
      if (q > 0 && (double)n < q) n++; /* ceil without libm */
    }
  }
  ge__ox_dim(&o, 0, n);
  if ((st = ge__ox_out(c, 0, dt, &o))) return st;
  if (known && ge__ox_int_dtype(dt) && n <= GE__OX_VMAX) {
    int64_t v[GE__OX_VMAX];
    for (k = 0; k < n; k++) v[k] = iv[0] + k * iv[2];
    return ge__ox_put_shape_ints(c, 0, dt, &o, v, n);
  }
  return GE_OK;
}

/* Resize (opset 10: X, scales; 11+: X, roi, scales, sizes) and Upsample
 * (X, scales, or attribute scales). */
static ge_status ge__ox_resize(ge_infer_ctx *c) {
  const ge_tensor_desc *dx = ge_infer_input(c, 0);
  int upsample = c->n->op[0] == 'U';
  uint32_t nin = ge_infer_num_inputs(c), si = upsample || nin == 2 ? 1 : 2;
  ge__ox_shape x, o;
  int64_t axes_v[GE_MAX_RANK], sizes[GE_MAX_RANK];
  double scales[GE_MAX_RANK];
  int32_t na, nsz = -1, nsc = -1, i, ax[GE_MAX_RANK];
  ge_status st;
  if (!dx) return GE_OK;
  ge__ox_load(&x, dx);
  if (x.rank < 0) return ge__ox_out_unknown(c, 0, dx->dtype);
  na = upsample ? -1 : ge__ox_attr_ints(c, "axes", axes_v, GE_MAX_RANK);
  if (na <= 0) {
    na = x.rank;
    for (i = 0; i < na; i++) axes_v[i] = i;
  }
  for (i = 0; i < na; i++)
    if ((st = ge__ox_axis(c, "axis", axes_v[i], x.rank, &ax[i]))) return st;
  if (!upsample && nin > 3) nsz = ge__ox_input_ints(c, 3, sizes, GE_MAX_RANK);
  if (ge_infer_input(c, si)) nsc = ge__ox_floats(ge_infer_input_value(c, si), scales, GE_MAX_RANK);
  else if (upsample) {
    const ge_attr *a = ge_infer_attr(c, "scales");
    if (a && a->type == GE_ATTR_FLOATS && a->count <= GE_MAX_RANK)
      for (nsc = 0; nsc < a->count; nsc++) scales[nsc] = a->v.floats[nsc];
  }
  o = x;
  if (nsz > 0) {
    const char *pol = ge_infer_attr_string(c, "keep_aspect_ratio_policy", "stretch");
    double scale = strcmp(pol, "not_larger") == 0 ? 1e300 : 0;
    int keep = strcmp(pol, "stretch") != 0;
    if (nsz != na) return ge_infer_error(c, GE_ERR_SHAPE, "sizes has %d entries for %d axes", (int)nsz, (int)na);
    for (i = 0; keep && i < na; i++) {
      double r;
      if (x.d[ax[i]] <= 0) { scale = -1; break; }
      r = (double)sizes[i] / (double)x.d[ax[i]];
      if (strcmp(pol, "not_larger") == 0 ? r < scale : r > scale) scale = r;
    }
    for (i = 0; i < na; i++) {
      if (sizes[i] < 0) return ge_infer_error(c, GE_ERR_SHAPE, "sizes entry %d is negative", (int)i);
      if (!keep) ge__ox_dim(&o, ax[i], sizes[i]);
      else ge__ox_dim(&o, ax[i], scale < 0 ? GE_DIM_UNKNOWN : (int64_t)(scale * (double)x.d[ax[i]] + 0.5));
    }
  } else if (nsc > 0) {
    if (nsc != na) return ge_infer_error(c, GE_ERR_SHAPE, "scales has %d entries for %d axes", (int)nsc, (int)na);
    for (i = 0; i < na; i++) {
      if (!(scales[i] > 0)) return ge_infer_error(c, GE_ERR_SHAPE, "scale %g of axis %d is not positive", scales[i], (int)ax[i]);
      if (scales[i] != 1.0)
        ge__ox_dim(&o, ax[i], x.d[ax[i]] < 0 ? GE_DIM_UNKNOWN : (int64_t)((double)x.d[ax[i]] * scales[i]));
    }
  } else {
    for (i = 0; i < na; i++) ge__ox_dim(&o, ax[i], GE_DIM_UNKNOWN);
  }
  return ge__ox_out(c, 0, dx->dtype, &o);
}

/* DepthToSpace, SpaceToDepth on NCHW. */
static ge_status ge__ox_depth_space(ge_infer_ctx *c) {
  const ge_tensor_desc *dx = ge_infer_input(c, 0);
  int to_space = c->n->op[0] == 'D';
  int64_t b = ge_infer_attr_int(c, "blocksize", 0), bb;
  ge__ox_shape x, o;
  char s1[128];
  int32_t i;
  if (!dx) return GE_OK;
  if (b <= 0) return ge_infer_error(c, GE_ERR_INVALID, "blocksize must be positive, got %lld", (long long)b);
  bb = b * b;
  ge__ox_load(&x, dx);
  if (x.rank < 0) {
    ge__ox_unknown_dims(&o, 4);
    return ge__ox_out(c, 0, dx->dtype, &o);
  }
  if (x.rank != 4) return ge_infer_error(c, GE_ERR_SHAPE, "input %s is not 4-D", ge__ox_str(&x, s1, sizeof s1));
  o = x;
  if (to_space) {
    if (x.d[1] >= 0 && x.d[1] % bb)
      return ge_infer_error(c, GE_ERR_SHAPE, "channels %lld are not a multiple of blocksize^2 = %lld", (long long)x.d[1],
                            (long long)bb);
    ge__ox_dim(&o, 1, x.d[1] < 0 ? -1 : x.d[1] / bb);
    for (i = 2; i < 4; i++) ge__ox_dim(&o, i, x.d[i] < 0 ? -1 : x.d[i] * b);
  } else {
    for (i = 2; i < 4; i++)
      if (x.d[i] >= 0 && x.d[i] % b)
        return ge_infer_error(c, GE_ERR_SHAPE, "spatial dim %lld is not a multiple of blocksize %lld", (long long)x.d[i],
                              (long long)b);
    ge__ox_dim(&o, 1, x.d[1] < 0 ? -1 : x.d[1] * bb);
    for (i = 2; i < 4; i++) ge__ox_dim(&o, i, x.d[i] < 0 ? -1 : x.d[i] / b);
  }
  return ge__ox_out(c, 0, dx->dtype, &o);
}

static ge_status ge__ox_onehot(ge_infer_ctx *c) {
  const ge_tensor_desc *di = ge_infer_input(c, 0), *dv = ge_infer_input(c, 2);
  ge__ox_shape x, o;
  double depth;
  int64_t axis = ge_infer_attr_int(c, "axis", -1);
  int32_t a, i, j;
  ge_status st;
  if (!di || !dv) return GE_OK;
  ge__ox_load(&x, di);
  if (x.rank < 0) return ge__ox_out_unknown(c, 0, dv->dtype);
  if (x.rank + 1 > GE_MAX_RANK) return ge_infer_error(c, GE_ERR_UNSUPPORTED, "output rank exceeds %d", GE_MAX_RANK);
  if ((st = ge__ox_axis(c, "axis", axis, x.rank + 1, &a))) return st;
  o.rank = 0;
  for (i = 0, j = 0; i <= x.rank; i++) {
    if (i == a) {
      int64_t dd = GE_DIM_UNKNOWN;
      if (ge__ox_floats(ge_infer_input_value(c, 1), &depth, 1) == 1) {
        if (depth < 1) return ge_infer_error(c, GE_ERR_SHAPE, "depth %g is not positive", depth);
        dd = (int64_t)depth;
      }
      ge__ox_dim(&o, o.rank++, dd);
    } else {
      ge__ox_push(&o, &x, j++);
    }
  }
  return ge__ox_out(c, 0, dv->dtype, &o);
}

static ge_status ge__ox_topk(ge_infer_ctx *c) {
  const ge_tensor_desc *dx = ge_infer_input(c, 0);
  ge__ox_shape o;
  int64_t k = GE_DIM_UNKNOWN;
  int32_t a;
  ge_status st;
  if (!dx) return GE_OK;
  ge__ox_load(&o, dx);
  if (ge_infer_input(c, 1)) {
    if (ge__ox_input_ints(c, 1, &k, 1) != 1) k = GE_DIM_UNKNOWN;
  } else {
    k = ge_infer_attr_int(c, "k", GE_DIM_UNKNOWN);
  }
  if (o.rank >= 0) {
    if ((st = ge__ox_axis(c, "axis", ge_infer_attr_int(c, "axis", -1), o.rank, &a))) return st;
    if (k < GE_DIM_UNKNOWN) return ge_infer_error(c, GE_ERR_SHAPE, "k = %lld is negative", (long long)k);
    if (k >= 0 && o.d[a] >= 0 && k > o.d[a])
      return ge_infer_error(c, GE_ERR_SHAPE, "k = %lld exceeds axis %d of size %lld", (long long)k, (int)a, (long long)o.d[a]);
    if (!(k >= 0 && k == o.d[a])) ge__ox_dim(&o, a, k);
  }
  if ((st = ge__ox_out(c, 0, dx->dtype, &o))) return st;
  return ge__ox_out(c, 1, GE_DTYPE_INT64, &o);
}

static ge_status ge__ox_nonzero(ge_infer_ctx *c) {
  const ge_tensor_desc *dx = ge_infer_input(c, 0);
  ge__ox_shape o;
  if (!dx) return GE_OK;
  o.rank = 2;
  ge__ox_dim(&o, 0, dx->shape.rank >= 0 ? dx->shape.rank : GE_DIM_UNKNOWN);
  ge__ox_dim(&o, 1, GE_DIM_UNKNOWN);
  return ge__ox_out(c, 0, GE_DTYPE_INT64, &o);
}

/* Einsum: labels bound per input term, the ellipsis broadcast; explicit
 * ("->") or implicit (ellipsis, then labels seen once, sorted) output. */
static ge_status ge__ox_einsum(ge_infer_ctx *c) {
  const char *eq = ge_infer_attr_string(c, "equation", NULL), *p;
  int64_t ld[128];
  ge_dim_info li[128];
  int count[128];
  ge__ox_shape ell, o;
  int ell_unknown = 0, ell_seen = 0;
  uint32_t k = 0, nin = ge_infer_num_inputs(c);
  ge_dtype dt = ge__ox_dtype(c, 0);
  int i;
  char s1[128];
  if (!eq) return ge_infer_error(c, GE_ERR_INVALID, "attribute 'equation' is missing");
  for (i = 0; i < 128; i++) ld[i] = -2, li[i] = ge__ox_none, count[i] = 0;
  ell.rank = 0;
  p = eq;
  /* input terms */
  for (;;) {
    const ge_tensor_desc *d = ge_infer_input(c, k);
    ge__ox_shape x;
    int32_t nl = 0, pos = 0, ell_dims = 0;
    int has_ell = 0;
    const char *q;
    while (*p == ' ') p++;
    for (q = p; *q && *q != ',' && *q != '-'; q++) {
      if (*q == '.') {
        if (q[1] != '.' || q[2] != '.' || has_ell)
          return ge_infer_error(c, GE_ERR_INVALID, "bad ellipsis in equation '%s'", eq);
        has_ell = 1;
        q += 2;
      } else if ((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z')) {
        nl++;
      } else if (*q != ' ') {
        return ge_infer_error(c, GE_ERR_INVALID, "bad character '%c' in equation '%s'", *q, eq);
      }
    }
    if (k >= nin) return ge_infer_error(c, GE_ERR_INVALID, "equation '%s' has more terms than the %u inputs", eq, (unsigned)nin);
    ge__ox_load(&x, d);
    if (x.rank >= 0) {
      ell_dims = x.rank - nl;
      if (ell_dims < 0 || (!has_ell && ell_dims))
        return ge_infer_error(c, GE_ERR_SHAPE, "term %u of '%s' has %d labels but input %s has rank %d", (unsigned)k, eq,
                              (int)nl, ge__ox_str(&x, s1, sizeof s1), (int)x.rank);
    } else if (has_ell) {
      ell_unknown = 1;
    }
    for (; p < q; p++) {
      if (*p == '.') {
        if (x.rank >= 0) {
          ge__ox_shape sub, tmp;
          ge_shape va, vb;
          sub.rank = 0;
          for (i = 0; i < ell_dims; i++) ge__ox_push(&sub, &x, pos + i);
          va = ge__ox_view(&ell);
          vb = ge__ox_view(&sub);
          tmp.rank = ge_shape_broadcast(&va, &vb, tmp.d, tmp.x);
          if (tmp.rank < 0) return ge_infer_error(c, GE_ERR_SHAPE, "ellipsis dims of input %u do not broadcast", (unsigned)k);
          ell = tmp;
          pos += ell_dims;
        }
        ell_seen = 1;
        p += 2;
      } else if (*p != ' ') {
        int l = (unsigned char)*p;
        count[l]++;
        if (x.rank >= 0) {
          int64_t v = x.d[pos];
          if (ld[l] == -2 || (ld[l] == -1 && (v >= 0 || (!li[l].symbol && x.x[pos].symbol))) ||
              (ld[l] == 1 && v != 1)) {
            ld[l] = v; /* first sight, or better known than before */
            li[l] = x.x[pos];
          } else if (ld[l] >= 0 && v >= 0 && v != 1 && v != ld[l]) {
            return ge_infer_error(c, GE_ERR_SHAPE, "label '%c' is %lld in input %u but %lld before", *p, (long long)v,
                                  (unsigned)k, (long long)ld[l]);
          }
          pos++;
        } else if (ld[l] == -2) {
          ld[l] = GE_DIM_UNKNOWN;
        }
      }
    }
    k++;
    if (*p == ',') {
      p++;
      continue;
    }
    break;
  }
  if (k != nin) return ge_infer_error(c, GE_ERR_INVALID, "equation '%s' has %u terms for %u inputs", eq, (unsigned)k, (unsigned)nin);
  o.rank = 0;
  if (*p == '-') {
    if (p[1] != '>') return ge_infer_error(c, GE_ERR_INVALID, "bad equation '%s'", eq);
    for (p += 2; *p; p++) {
      if (*p == ' ') continue;
      if (*p == '.') {
        if (p[1] != '.' || p[2] != '.') return ge_infer_error(c, GE_ERR_INVALID, "bad ellipsis in equation '%s'", eq);
        if (ell_unknown) return ge__ox_out_unknown(c, 0, dt);
        if (o.rank + ell.rank > GE_MAX_RANK) return ge_infer_error(c, GE_ERR_UNSUPPORTED, "output rank exceeds %d", GE_MAX_RANK);
        for (i = 0; i < ell.rank; i++) ge__ox_push(&o, &ell, i);
        p += 2;
      } else {
        int l = (unsigned char)*p;
        if (l >= 128 || !count[l])
          return ge_infer_error(c, GE_ERR_INVALID, "output label '%c' of '%s' is not in any input", *p, eq);
        if (o.rank >= GE_MAX_RANK) return ge_infer_error(c, GE_ERR_UNSUPPORTED, "output rank exceeds %d", GE_MAX_RANK);
        o.d[o.rank] = ld[l] < 0 ? GE_DIM_UNKNOWN : ld[l];
        o.x[o.rank++] = li[l];
      }
    }
  } else {
    if (ell_seen) {
      if (ell_unknown) return ge__ox_out_unknown(c, 0, dt);
      for (i = 0; i < ell.rank; i++) ge__ox_push(&o, &ell, i);
    }
    for (i = 0; i < 128; i++)
      if (count[i] == 1) {
        if (o.rank >= GE_MAX_RANK) return ge_infer_error(c, GE_ERR_UNSUPPORTED, "output rank exceeds %d", GE_MAX_RANK);
        o.d[o.rank] = ld[i] < 0 ? GE_DIM_UNKNOWN : ld[i];
        o.x[o.rank++] = li[i];
      }
  }
  return ge__ox_out(c, 0, dt, &o);
}

/* ----------------------------------------------------- normalizations */

/* Checks that input `in` (a per-channel vector) has C = dim 1 of X. */
static ge_status ge__ox_check_channels(ge_infer_ctx *c, uint32_t in, const char *what) {
  const ge_tensor_desc *dx = ge_infer_input(c, 0), *dp = ge_infer_input(c, in);
  if (!dx || !dp || dx->shape.rank < 2 || dp->shape.rank != 1) return GE_OK;
  if (dx->shape.dims[1] >= 0 && dp->shape.dims[0] >= 0 && dx->shape.dims[1] != dp->shape.dims[0])
    return ge_infer_error(c, GE_ERR_SHAPE, "%s has %lld elements for %lld channels", what,
                          (long long)dp->shape.dims[0], (long long)dx->shape.dims[1]);
  return GE_OK;
}

static ge_status ge__ox_batchnorm(ge_infer_ctx *c) {
  const ge_tensor_desc *dx = ge_infer_input(c, 0), *dm = ge_infer_input(c, 3);
  ge__ox_shape ch;
  uint32_t i;
  ge_status st;
  if (!dx) return GE_OK;
  if ((st = ge__ox_check_channels(c, 1, "scale")) || (st = ge__ox_check_channels(c, 2, "B")) ||
      (st = ge__ox_check_channels(c, 3, "mean")) || (st = ge__ox_check_channels(c, 4, "var")))
    return st;
  if ((st = ge__infer_same(c))) return st;
  ch.rank = 1;
  ge__ox_dim(&ch, 0, dx->shape.rank >= 2 ? dx->shape.dims[1] : GE_DIM_UNKNOWN);
  for (i = 1; i < c->n->num_outputs; i++)
    if ((st = ge__ox_out(c, i, dm ? dm->dtype : dx->dtype, &ch))) return st;
  return GE_OK;
}

static ge_status ge__ox_layernorm(ge_infer_ctx *c) {
  const ge_tensor_desc *dx = ge_infer_input(c, 0);
  int64_t stash = ge_infer_attr_int(c, "stash_type", 1);
  ge_dtype ut = stash > 0 && stash < GE_DTYPE_COUNT ? (ge_dtype)stash : GE_DTYPE_FLOAT32;
  ge__ox_shape o;
  int32_t a, i;
  ge_status st;
  if (!dx) return GE_OK;
  if ((st = ge__infer_same(c))) return st;
  ge__ox_load(&o, dx);
  if (o.rank >= 0) {
    if ((st = ge__ox_axis(c, "axis", ge_infer_attr_int(c, "axis", -1), o.rank, &a))) return st;
    for (i = a; i < o.rank; i++) ge__ox_dim(&o, i, 1);
  }
  if ((st = ge__ox_out(c, 1, ut, &o))) return st;
  return ge__ox_out(c, 2, ut, &o);
}

static ge_status ge__ox_instnorm(ge_infer_ctx *c) {
  ge_status st;
  if ((st = ge__ox_check_channels(c, 1, "scale")) || (st = ge__ox_check_channels(c, 2, "B"))) return st;
  return ge__infer_same(c);
}

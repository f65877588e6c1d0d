/* ge_engines/host_cpu/extra.h — the host CPU engine's remaining kernels:
 * losses, window functions, quantization, string ops, recurrent layers
 * (RNN, GRU, LSTM), GridSample, DFT/STFT, MaxUnpool, RoiAlign.
 *
 * A part of ge_engines/host_cpu.h, which includes it inside its
 * implementation section, after the shared helpers (ge__hc_get_f, ...)
 * and before the op table; not a header to include on its own. */
#ifndef GE_HOST_CPU_IMPLEMENTATION_DONE
#error "ge_engines/host_cpu/extra.h is a part of ge_engines/host_cpu.h: include that instead"
#endif

/* ------------------------------------------------------ extra kernels */

/* Losses (NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss), recurrent
 * layers (RNN, LSTM, GRU), GridSample, quantization (QuantizeLinear,
 * DequantizeLinear, DynamicQuantizeLinear, QLinearMatMul, QLinearConv),
 * MaxUnpool, RoiAlign, signal ops (window functions, DFT, STFT,
 * MelWeightMatrix) and text ops (StringNormalizer, TfIdfVectorizer), plus a
 * number -> string formatter for Cast.
 *
 * Float math runs in double and rounds once on store (ge__hc_set_f); the
 * ONNX reference computes in float32 for some of these ops, and the
 * conformance tolerance absorbs the difference. */

/* ---------------------------------------------------- small helpers */

/* Number of elements of a dims array, or -1 on a negative dimension. */
static int64_t ge__hc_ex_prod(const int64_t *dims, int32_t lo, int32_t hi) {
  int64_t p = 1;
  int32_t i;
  for (i = lo; i < hi; i++) {
    if (dims[i] < 0) return -1;
    p *= dims[i];
  }
  return p;
}

/* A scalar (or one-element) input as int64 / double; 0 if absent or empty. */
static int ge__hc_ex_scalar_i(const ge_value *v, int64_t *out) {
  if (!v || v->numel < 1 || v->dtype == GE_DTYPE_STRING) return 0;
  *out = ge__hc_get_i(v, 0);
  return 1;
}
GE__HC_HELPER int ge__hc_ex_scalar_f(const ge_value *v, double *out) {
  if (!v || v->numel < 1 || v->dtype == GE_DTYPE_STRING) return 0;
  *out = ge__hc_get_f(v, 0);
  return 1;
}

/* A float-list attribute: count (or -1 when absent) and its values. */
static int32_t ge__hc_ex_attr_floats(const ge_node *n, const char *name, const double **vals) {
  const ge_attr *a = ge_node_attr(n, name);
  if (!a || a->type != GE_ATTR_FLOATS) return -1;
  *vals = a->v.floats;
  return a->count;
}

/* A string-list attribute: count (or -1 when absent) and its values. */
static int32_t ge__hc_ex_attr_strings(const ge_node *n, const char *name, const char *const **vals) {
  const ge_attr *a = ge_node_attr(n, name);
  if (!a || a->type != GE_ATTR_STRINGS) return -1;
  *vals = a->v.strings;
  return a->count;
}

static int ge__hc_ex_streq_nocase(const char *a, const char *b) {
  for (; *a && *b; a++, b++) {
    int x = (unsigned char)*a, y = (unsigned char)*b;
    if (x >= 'A' && x <= 'Z') x += 32;
    if (y >= 'A' && y <= 'Z') y += 32;
    if (x != y) return 0;
  }
  return *a == *b;
}

/* Round half to even (the rounding of QuantizeLinear). */
static double ge__hc_ex_rint(double x) {
  double f = floor(x), d = x - f;
  if (d > 0.5) return f + 1;
  if (d < 0.5) return f;
  return fmod(f, 2.0) == 0 ? f : f + 1;
}

static void *ge__hc_ex_alloc(ge_kernel_ctx *c, size_t n) {
  void *p = calloc(1, n ? n : 1);
  if (!p) ge_kernel_error(c, GE_ERR_NOMEM, "out of memory (%lu bytes)", (unsigned long)n);
  return p;
}

/* ------------------------------------------------------------- losses */

/* The reduction attribute: 0 none, 1 sum, 2 mean; -1 if unknown. */
static int ge__hc_ex_reduction(const ge_node *n) {
  const char *r = ge_node_attr_string(n, "reduction", "mean");
  if (strcmp(r, "none") == 0) return 0;
  if (strcmp(r, "sum") == 0) return 1;
  if (strcmp(r, "mean") == 0) return 2;
  return -1;
}

/* Checks NLL-shaped operands: x (N, C, d...), target (N, d...) integer,
 * weight (C) or NULL. Sets n, cls, inner (product of d...). */
static ge_status ge__hc_ex_nll_check(ge_kernel_ctx *c, const ge_value *x, const ge_value *t, const ge_value *w,
                                     int64_t *n, int64_t *cls, int64_t *inner) {
  int32_t i;
  if (!x || !t) return ge_kernel_error(c, GE_ERR_INVALID, "missing input or target");
  if (!ge__hc_is_float(x->dtype)) return ge_kernel_error(c, GE_ERR_INVALID, "input must be a float tensor");
  if (t->dtype != GE_DTYPE_INT32 && t->dtype != GE_DTYPE_INT64)
    return ge_kernel_error(c, GE_ERR_INVALID, "target must be int32 or int64");
  if (x->rank < 2 || t->rank != x->rank - 1)
    return ge_kernel_error(c, GE_ERR_SHAPE, "input of rank %d needs a target of rank %d (got %d)", (int)x->rank,
                           (int)x->rank - 1, (int)t->rank);
  if (t->dims[0] != x->dims[0]) return ge_kernel_error(c, GE_ERR_SHAPE, "target batch differs from input batch");
  for (i = 2; i < x->rank; i++)
    if (t->dims[i - 1] != x->dims[i]) return ge_kernel_error(c, GE_ERR_SHAPE, "target dim %d differs from input", (int)i - 1);
  if (w && (w->rank != 1 || w->dims[0] != x->dims[1] || w->dtype != x->dtype))
    return ge_kernel_error(c, GE_ERR_SHAPE, "weight must be a 1-D tensor of C elements of the input's dtype");
  *n = x->dims[0];
  *cls = x->dims[1];
  *inner = ge__hc_ex_prod(x->dims, 2, x->rank);
  return GE_OK;
}

/* The NLL loss of log-probabilities lp (read through get(src, index)) into
 * output 0: shared by both loss kernels. lp is x itself (NLL) or the
 * computed log-softmax (SCE). */
static ge_status ge__hc_ex_nll_core(ge_kernel_ctx *c, const ge_value *x, const double *lp, const ge_value *t,
                                    const ge_value *w, int64_t n, int64_t cls, int64_t inner) {
  int red = ge__hc_ex_reduction(c->node);
  const ge_attr *ia = ge_node_attr(c->node, "ignore_index");
  int has_ii = ia != NULL;
  int64_t ii = ge_node_attr_int(c->node, "ignore_index", 0), b, k;
  double sum = 0, wsum = 0;
  ge_value *y;
  if (red < 0) return ge_kernel_error(c, GE_ERR_INVALID, "reduction must be none, sum or mean");
  if (red == 0) y = ge_kernel_output(c, 0, x->dtype, t->rank, t->dims);
  else y = ge_kernel_output(c, 0, x->dtype, 0, t->dims);
  if (!y) return GE__HC_OUT_FAILED(c);
  for (b = 0; b < n; b++)
    for (k = 0; k < inner; k++) {
      int64_t ti = b * inner + k, cl = ge__hc_get_i(t, ti);
      double l = 0, wt = 0;
      if (!(has_ii && cl == ii)) {
        if (cl < 0 || cl >= cls)
          return ge_kernel_error(c, GE_ERR_INVALID, "target %lld out of range [0, %lld)", (long long)cl, (long long)cls);
        wt = w ? ge__hc_get_f(w, cl) : 1.0;
        l = -(lp ? lp[(b * cls + cl) * inner + k] : ge__hc_get_f(x, (b * cls + cl) * inner + k)) * wt;
      }
      if (red == 0) ge__hc_set_f(y, ti, l);
      sum += l;
      wsum += wt;
    }
  if (red == 1) ge__hc_set_f(y, 0, sum);
  if (red == 2) ge__hc_set_f(y, 0, sum / wsum);
  return GE_OK;
}

static ge_status ge__hc_negative_log_likelihood_loss(ge_kernel_ctx *c) {
  const ge_value *x = c->num_inputs > 0 ? c->inputs[0] : NULL, *t = c->num_inputs > 1 ? c->inputs[1] : NULL;
  const ge_value *w = c->num_inputs > 2 ? c->inputs[2] : NULL;
  int64_t n = 0, cls = 0, inner = 0;
  ge_status s = ge__hc_ex_nll_check(c, x, t, w, &n, &cls, &inner);
  if (s) return s;
  return ge__hc_ex_nll_core(c, x, NULL, t, w, n, cls, inner);
}

static ge_status ge__hc_softmax_cross_entropy_loss(ge_kernel_ctx *c) {
  const ge_value *x = c->num_inputs > 0 ? c->inputs[0] : NULL, *t = c->num_inputs > 1 ? c->inputs[1] : NULL;
  const ge_value *w = c->num_inputs > 2 ? c->inputs[2] : NULL;
  int64_t n = 0, cls = 0, inner = 0, b, k, j;
  double *lp;
  ge_status s = ge__hc_ex_nll_check(c, x, t, w, &n, &cls, &inner);
  if (s) return s;
  if (!(lp = (double *)ge__hc_ex_alloc(c, (size_t)x->numel * sizeof(double)))) return GE__HC_OUT_FAILED(c);
  for (b = 0; b < n; b++)
    for (k = 0; k < inner; k++) {
      double m = -HUGE_VAL, z = 0;
      for (j = 0; j < cls; j++) {
        double v = ge__hc_get_f(x, (b * cls + j) * inner + k);
        if (v > m) m = v;
      }
      for (j = 0; j < cls; j++) z += exp(ge__hc_get_f(x, (b * cls + j) * inner + k) - m);
      z = log(z);
      for (j = 0; j < cls; j++) lp[(b * cls + j) * inner + k] = ge__hc_get_f(x, (b * cls + j) * inner + k) - m - z;
    }
  s = ge__hc_ex_nll_core(c, x, lp, t, w, n, cls, inner);
  if (!s && c->num_outputs > 1) {
    ge_value *y = ge_kernel_output(c, 1, x->dtype, x->rank, x->dims);
    if (!y) s = GE__HC_OUT_FAILED(c);
    else
      for (j = 0; j < x->numel; j++) ge__hc_set_f(y, j, lp[j]);
  }
  free(lp);
  return s;
}

/* ------------------------------------------------------------ windows */

static ge_status ge__hc_ex_window(ge_kernel_ctx *c, int kind) {
  const ge_value *sz = c->num_inputs > 0 ? c->inputs[0] : NULL;
  int64_t n, i, dt = ge_node_attr_int(c->node, "output_datatype", GE_DTYPE_FLOAT32);
  int periodic = ge_node_attr_int(c->node, "periodic", 1) != 0;
  double denom, pi = 3.14159265358979323846;
  ge_value *y;
  if (!ge__hc_ex_scalar_i(sz, &n) || ge__hc_is_float(sz->dtype))
    return ge_kernel_error(c, GE_ERR_INVALID, "size must be an integer scalar");
  if (n < 0) return ge_kernel_error(c, GE_ERR_INVALID, "size %lld is negative", (long long)n);
  if (dt <= 0 || dt >= GE_DTYPE_COUNT || dt == GE_DTYPE_STRING || dt == GE_DTYPE_COMPLEX64 || dt == GE_DTYPE_COMPLEX128)
    return ge_kernel_error(c, GE_ERR_INVALID, "bad output_datatype %lld", (long long)dt);
  if (!(y = ge_kernel_output(c, 0, (ge_dtype)dt, 1, &n))) return GE__HC_OUT_FAILED(c);
  denom = periodic ? (double)n : (double)(n - 1);
  for (i = 0; i < n; i++) {
    double a = denom > 0 ? 2 * pi * (double)i / denom : 0, v;
    if (kind == 0) v = 0.5 - 0.5 * cos(a);
    else if (kind == 1) v = 25.0 / 46.0 - 21.0 / 46.0 * cos(a);
    else v = 0.42 - 0.5 * cos(a) + 0.08 * cos(2 * a);
    ge__hc_set_f(y, i, v);
  }
  return GE_OK;
}
static ge_status ge__hc_hann_window(ge_kernel_ctx *c) { return ge__hc_ex_window(c, 0); }
static ge_status ge__hc_hamming_window(ge_kernel_ctx *c) { return ge__hc_ex_window(c, 1); }
static ge_status ge__hc_blackman_window(ge_kernel_ctx *c) { return ge__hc_ex_window(c, 2); }

/* ------------------------------------------------------- quantization */

/* a / b, rounded to float32 when `narrow` (as the reference computes). */
static double ge__hc_ex_div(double a, double b, int narrow) {
  return narrow ? (double)((float)a / (float)b) : a / b;
}

/* Saturating store of a rounded integer into a quantized dtype. */
static int ge__hc_ex_qrange(ge_dtype t, double *lo, double *hi) {
  switch (t) {
  case GE_DTYPE_UINT8: *lo = 0; *hi = 255; return 1;
  case GE_DTYPE_INT8: *lo = -128; *hi = 127; return 1;
  case GE_DTYPE_UINT16: *lo = 0; *hi = 65535; return 1;
  case GE_DTYPE_INT16: *lo = -32768; *hi = 32767; return 1;
  case GE_DTYPE_INT32: *lo = -2147483648.0; *hi = 2147483647.0; return 1;
  default: return 0;
  }
}

static double ge__hc_ex_sat(double v, double lo, double hi) {
  if (v != v) return 0;
  return v < lo ? lo : v > hi ? hi : v;
}

/* Checks a scale / zero point pair against x and axis: per-tensor (one
 * element) or per-axis (1-D of x's dim along axis). Sets *axis_len and
 * *inner (1 and 1 for per-tensor). */
static ge_status ge__hc_ex_qparams(ge_kernel_ctx *c, const ge_value *x, const ge_value *scale, const ge_value *zp,
                                   int64_t *axis_len, int64_t *inner) {
  int32_t ax;
  if (!scale || !ge__hc_is_float(scale->dtype)) return ge_kernel_error(c, GE_ERR_INVALID, "scale must be a float tensor");
  if (zp && zp->numel != scale->numel) return ge_kernel_error(c, GE_ERR_SHAPE, "zero point and scale differ in size");
  if (scale->rank == 0 || scale->numel == 1) {
    if (scale->numel != 1) return ge_kernel_error(c, GE_ERR_SHAPE, "empty scale");
    *axis_len = 1;
    *inner = 1;
    return GE_OK;
  }
  if (scale->rank != 1) return ge_kernel_error(c, GE_ERR_SHAPE, "scale must be a scalar or 1-D");
  if (!ge__hc_axis(ge_node_attr_int(c->node, "axis", 1), x->rank, &ax) || x->rank == 0)
    return ge_kernel_error(c, GE_ERR_INVALID, "axis out of range");
  if (x->dims[ax] != scale->dims[0]) return ge_kernel_error(c, GE_ERR_SHAPE, "scale length differs from the axis");
  *axis_len = scale->dims[0];
  *inner = ge__hc_ex_prod(x->dims, ax + 1, x->rank);
  return GE_OK;
}

static ge_status ge__hc_quantize_linear(ge_kernel_ctx *c) {
  const ge_value *x = c->num_inputs > 0 ? c->inputs[0] : NULL, *sc = c->num_inputs > 1 ? c->inputs[1] : NULL;
  const ge_value *zp = c->num_inputs > 2 ? c->inputs[2] : NULL;
  ge_dtype ot = zp ? zp->dtype : GE_DTYPE_UINT8;
  int64_t alen, inner, i;
  double lo, hi;
  ge_value *y;
  ge_status s;
  if (!x || !(ge__hc_is_float(x->dtype) || x->dtype == GE_DTYPE_INT32))
    return ge_kernel_error(c, GE_ERR_INVALID, "x must be float or int32");
  if (!ge__hc_ex_qrange(ot, &lo, &hi) || ot == GE_DTYPE_INT32)
    return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "output dtype %s is not supported", ge_dtype_name(ot));
  if ((s = ge__hc_ex_qparams(c, x, sc, zp, &alen, &inner))) return s;
  if (!(y = ge_kernel_output(c, 0, ot, x->rank, x->dims))) return GE__HC_OUT_FAILED(c);
  for (i = 0; i < x->numel; i++) {
    int64_t k = alen == 1 ? 0 : (i / inner) % alen;
    double q = ge__hc_ex_div(ge__hc_get_f(x, i), ge__hc_get_f(sc, k), sc->dtype != GE_DTYPE_FLOAT64);
    q = ge__hc_ex_rint(q) + (zp ? ge__hc_get_f(zp, k) : 0);
    ge__hc_set_f(y, i, ge__hc_ex_sat(q, lo, hi));
  }
  return GE_OK;
}

static ge_status ge__hc_dequantize_linear(ge_kernel_ctx *c) {
  const ge_value *x = c->num_inputs > 0 ? c->inputs[0] : NULL, *sc = c->num_inputs > 1 ? c->inputs[1] : NULL;
  const ge_value *zp = c->num_inputs > 2 ? c->inputs[2] : NULL;
  int64_t alen, inner, i;
  double lo, hi;
  ge_value *y;
  ge_status s;
  if (!x || !ge__hc_ex_qrange(x->dtype, &lo, &hi)) return ge_kernel_error(c, GE_ERR_INVALID, "x must be a quantized integer tensor");
  if (zp && zp->dtype != x->dtype) return ge_kernel_error(c, GE_ERR_INVALID, "zero point dtype differs from x");
  if ((s = ge__hc_ex_qparams(c, x, sc, zp, &alen, &inner))) return s;
  if (!(y = ge_kernel_output(c, 0, sc->dtype, x->rank, x->dims))) return GE__HC_OUT_FAILED(c);
  for (i = 0; i < x->numel; i++) {
    int64_t k = alen == 1 ? 0 : (i / inner) % alen;
    ge__hc_set_f(y, i, (ge__hc_get_f(x, i) - (zp ? ge__hc_get_f(zp, k) : 0)) * ge__hc_get_f(sc, k));
  }
  return GE_OK;
}

static ge_status ge__hc_dynamic_quantize_linear(ge_kernel_ctx *c) {
  const ge_value *x = c->num_inputs > 0 ? c->inputs[0] : NULL;
  double mn = 0, mx = 0, scale, zp;
  float fscale;
  int64_t i;
  ge_value *y, *ys, *yz;
  if (!x || x->dtype != GE_DTYPE_FLOAT32) return ge_kernel_error(c, GE_ERR_INVALID, "x must be float32");
  if (c->num_outputs < 3) return ge_kernel_error(c, GE_ERR_INVALID, "needs three outputs");
  for (i = 0; i < x->numel; i++) {
    double v = ge__hc_get_f(x, i);
    if (v < mn) mn = v;
    if (v > mx) mx = v;
  }
  /* in float32, as the spec's (max - min) / (qmax - qmin) on float32 x: two
   * roundings (difference, quotient), not one of the exact quotient */
  fscale = ((float)mx - (float)mn) / 255.0f;
  scale = fscale;
  zp = scale > 0 ? ge__hc_ex_sat(ge__hc_ex_rint(ge__hc_ex_div(0 - mn, scale, 1)), 0, 255) : 0;
  if (!(y = ge_kernel_output(c, 0, GE_DTYPE_UINT8, x->rank, x->dims))) return GE__HC_OUT_FAILED(c);
  if (!(ys = ge_kernel_output(c, 1, GE_DTYPE_FLOAT32, 0, x->dims))) return GE__HC_OUT_FAILED(c);
  if (!(yz = ge_kernel_output(c, 2, GE_DTYPE_UINT8, 0, x->dims))) return GE__HC_OUT_FAILED(c);
  for (i = 0; i < x->numel; i++) {
    double q = scale > 0 ? ge__hc_ex_rint(ge__hc_ex_div(ge__hc_get_f(x, i), scale, 1)) + zp : zp;
    ge__hc_set_f(y, i, ge__hc_ex_sat(q, 0, 255));
  }
  ((float *)ys->data)[0] = fscale;
  ((uint8_t *)yz->data)[0] = (uint8_t)zp;
  return GE_OK;
}

/* Reads a per-tensor quantization parameter pair (scale must be float,
 * zero point of dtype zt, one element each). */
static ge_status ge__hc_ex_qpair(ge_kernel_ctx *c, const ge_value *sc, const ge_value *zp, ge_dtype zt, const char *what,
                                 double *s, double *z) {
  if (!sc || !ge__hc_is_float(sc->dtype) || sc->numel != 1)
    return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "%s scale must be a float scalar", what);
  *s = ge__hc_get_f(sc, 0);
  *z = 0;
  if (zp) {
    if (zp->dtype != zt || zp->numel != 1)
      return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "%s zero point must be a scalar of its tensor's dtype", what);
    *z = ge__hc_get_f(zp, 0);
  }
  return GE_OK;
}

static ge_status ge__hc_qlinear_mat_mul(ge_kernel_ctx *c) {
  const ge_value *a = c->num_inputs > 0 ? c->inputs[0] : NULL, *b = c->num_inputs > 3 ? c->inputs[3] : NULL;
  const ge_value *yzp = c->num_inputs > 7 ? c->inputs[7] : NULL;
  double as, az, bs, bz, ys, yz, lo, hi;
  float mult;
  int64_t m, k, n, batch = 1, bi, i, j, l, dims[GE_MAX_RANK], astr[GE_MAX_RANK], bstr[GE_MAX_RANK];
  int32_t r, d;
  ge_dtype ot;
  ge_value *y;
  ge_status s;
  if (!a || !b || a->rank < 2 || b->rank < 2) return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "a and b must have rank >= 2");
  if (!ge__hc_ex_qrange(a->dtype, &lo, &hi) || !ge__hc_ex_qrange(b->dtype, &lo, &hi))
    return ge_kernel_error(c, GE_ERR_INVALID, "a and b must be int8 or uint8");
  ot = yzp ? yzp->dtype : GE_DTYPE_UINT8;
  if (!ge__hc_ex_qrange(ot, &lo, &hi)) return ge_kernel_error(c, GE_ERR_INVALID, "bad output dtype");
  if ((s = ge__hc_ex_qpair(c, c->inputs[1], c->inputs[2], a->dtype, "a", &as, &az))) return s;
  if ((s = ge__hc_ex_qpair(c, c->inputs[4], c->inputs[5], b->dtype, "b", &bs, &bz))) return s;
  if ((s = ge__hc_ex_qpair(c, c->num_inputs > 6 ? c->inputs[6] : NULL, yzp, ot, "y", &ys, &yz))) return s;
  m = a->dims[a->rank - 2];
  k = a->dims[a->rank - 1];
  n = b->dims[b->rank - 1];
  if (b->dims[b->rank - 2] != k) return ge_kernel_error(c, GE_ERR_SHAPE, "inner dimensions differ");
  r = a->rank > b->rank ? a->rank : b->rank;
  /* broadcast batch dims (row-major strides in matrices) */
  {
    int64_t sa = 1, sb = 1;
    for (d = r - 3; d >= 0; d--) {
      int32_t ka = d - (r - a->rank), kb = d - (r - b->rank);
      int64_t da = ka >= 0 ? a->dims[ka] : 1, db = kb >= 0 ? b->dims[kb] : 1;
      if (da != db && da != 1 && db != 1) return ge_kernel_error(c, GE_ERR_SHAPE, "batch dimensions do not broadcast");
      dims[d] = da == 1 ? db : da;
      astr[d] = da == 1 ? 0 : sa;
      bstr[d] = db == 1 ? 0 : sb;
      sa *= da;
      sb *= db;
      batch *= dims[d];
    }
  }
  dims[r - 2] = m;
  dims[r - 1] = n;
  mult = ge__hc_requant_mult((float)as, (float)bs, (float)ys);
  if (!(y = ge_kernel_output(c, 0, ot, r, dims))) return GE__HC_OUT_FAILED(c);
  for (bi = 0; bi < batch; bi++) {
    int64_t ao = 0, bo = 0, rem = bi;
    for (d = r - 3; d >= 0; d--) {
      int64_t id = rem % dims[d];
      rem /= dims[d];
      ao += id * astr[d];
      bo += id * bstr[d];
    }
    for (i = 0; i < m; i++)
      for (j = 0; j < n; j++) {
        double acc = 0;
        for (l = 0; l < k; l++)
          acc += (ge__hc_get_f(a, ao * m * k + i * k + l) - az) * (ge__hc_get_f(b, bo * k * n + l * n + j) - bz);
        ge__hc_set_f(y, bi * m * n + i * n + j,
                     ge__hc_requant((int32_t)(uint32_t)(int64_t)acc, mult, (float)yz, (float)lo, (float)hi));
      }
  }
  return GE_OK;
}

/* ------------------------------------------------------------ strings */

/* Shortest decimal that reads back as the same float32 (or double), in the
 * style numpy prints: "1.5", "1e-05", "NaN"/"INF"/"-INF" as ONNX's Cast
 * spells them. buf needs 32 bytes. For Cast to string. */
GE__HC_HELPER void ge__hc_ex_format_number(const ge_value *x, int64_t i, char *buf) {
  int p;
  if (ge__hc_is_float(x->dtype)) {
    double v = ge__hc_get_f(x, i);
    if (v != v) {
      strcpy(buf, "NaN");
      return;
    }
    if (v == HUGE_VAL || v == -HUGE_VAL) {
      strcpy(buf, v > 0 ? "INF" : "-INF");
      return;
    }
    for (p = 1; p <= 17; p++) {
      snprintf(buf, 32, "%.*g", p, v);
      if (x->dtype == GE_DTYPE_FLOAT64 ? strtod(buf, NULL) == v : (float)strtod(buf, NULL) == (float)v) break;
    }
    return;
  }
  if (x->dtype == GE_DTYPE_UINT64) snprintf(buf, 32, "%llu", (unsigned long long)((const uint64_t *)x->data)[i]);
  else snprintf(buf, 32, "%lld", (long long)ge__hc_get_i(x, i));
}

/* Cast of a numeric tensor x to a string tensor in output `out` (for the
 * element-wise Cast/CastLike to call). */
static ge_status ge__hc_ex_cast_to_string(ge_kernel_ctx *c, const ge_value *x, uint32_t out) {
  char buf[32], *pool, **slot;
  size_t chars = 0;
  int64_t i;
  ge_value *y;
  if (x->dtype == GE_DTYPE_STRING || x->dtype == GE_DTYPE_COMPLEX64 || x->dtype == GE_DTYPE_COMPLEX128)
    return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "cannot format %s as string", ge_dtype_name(x->dtype));
  for (i = 0; i < x->numel; i++) {
    ge__hc_ex_format_number(x, i, buf);
    chars += strlen(buf) + 1;
  }
  if (!(y = ge_kernel_output_strings(c, out, x->rank, x->dims, chars, &pool))) return GE__HC_OUT_FAILED(c);
  slot = (char **)y->data;
  for (i = 0; i < x->numel; i++) {
    size_t l;
    ge__hc_ex_format_number(x, i, buf);
    l = strlen(buf) + 1;
    memcpy(pool, buf, l);
    slot[i] = pool;
    pool += l;
  }
  return GE_OK;
}

static ge_status ge__hc_string_normalizer(ge_kernel_ctx *c) {
  const ge_value *x = c->num_inputs > 0 ? c->inputs[0] : NULL;
  const char *act = ge_node_attr_string(c->node, "case_change_action", "NONE");
  int cs = ge_node_attr_int(c->node, "is_case_sensitive", 0) != 0, mode;
  const char *const *stop = NULL;
  int32_t nstop = ge__hc_ex_attr_strings(c->node, "stopwords", &stop), s;
  const char *const *in;
  int64_t cols, rows = 1, i, kept = 0, dims[2];
  size_t chars = 0;
  uint8_t *keep;
  char *pool, **slot;
  ge_value *y;
  if (!x || x->dtype != GE_DTYPE_STRING) return ge_kernel_error(c, GE_ERR_INVALID, "input must be a string tensor");
  if (x->rank == 1) cols = x->dims[0];
  else if (x->rank == 2 && x->dims[0] == 1) {
    cols = x->dims[1];
    rows = 1;
  } else
    return ge_kernel_error(c, GE_ERR_SHAPE, "input must be [C] or [1, C]");
  (void)rows;
  if (strcmp(act, "NONE") == 0) mode = 0;
  else if (strcmp(act, "LOWER") == 0) mode = 1;
  else if (strcmp(act, "UPPER") == 0) mode = 2;
  else return ge_kernel_error(c, GE_ERR_INVALID, "bad case_change_action '%s'", act);
  in = (const char *const *)x->data;
  if (!(keep = (uint8_t *)ge__hc_ex_alloc(c, (size_t)cols))) return GE__HC_OUT_FAILED(c);
  for (i = 0; i < cols; i++) {
    const char *w = in[i] ? in[i] : "";
    keep[i] = 1;
    for (s = 0; s < nstop; s++)
      if (cs ? strcmp(w, stop[s]) == 0 : ge__hc_ex_streq_nocase(w, stop[s])) keep[i] = 0;
    if (keep[i]) {
      kept++;
      chars += strlen(w) + 1;
    }
  }
  if (kept == 0) chars = 1;
  dims[0] = 1;
  dims[x->rank - 1] = kept ? kept : 1;
  if (!(y = ge_kernel_output_strings(c, 0, x->rank, dims, chars, &pool))) {
    free(keep);
    return GE__HC_OUT_FAILED(c);
  }
  slot = (char **)y->data;
  if (!kept) {
    *pool = 0;
    slot[0] = pool;
  }
  for (i = 0, kept = 0; i < cols; i++) {
    const char *w = in[i] ? in[i] : "";
    size_t l = strlen(w), j;
    if (!keep[i]) continue;
    for (j = 0; j < l; j++) {
      int ch = (unsigned char)w[j];
      if (mode == 1 && ch >= 'A' && ch <= 'Z') ch += 32;
      if (mode == 2 && ch >= 'a' && ch <= 'z') ch -= 32;
      pool[j] = (char)ch;
    }
    pool[l] = 0;
    slot[kept++] = pool;
    pool += l + 1;
  }
  free(keep);
  return GE_OK;
}

/* Does the n-gram of pool entries [p, p + len) equal the tokens of x at
 * start, start + step, ...? */
static int ge__hc_ex_gram_eq(const ge_value *x, int64_t base, int64_t start, int64_t step, int64_t len,
                             const int64_t *ipool, const char *const *spool, int64_t p) {
  int64_t j;
  for (j = 0; j < len; j++) {
    int64_t at = base + start + j * step;
    if (x->dtype == GE_DTYPE_STRING) {
      const char *s = ((const char *const *)x->data)[at];
      if (strcmp(s ? s : "", spool[p + j]) != 0) return 0;
    } else if (ge__hc_get_i(x, at) != ipool[p + j])
      return 0;
  }
  return 1;
}

static ge_status ge__hc_tf_idf_vectorizer(ge_kernel_ctx *c) {
  const ge_value *x = c->num_inputs > 0 ? c->inputs[0] : NULL;
  const ge_node *nd = c->node;
  int64_t maxg = ge_node_attr_int(nd, "max_gram_length", 0), ming = ge_node_attr_int(nd, "min_gram_length", 0);
  int64_t maxskip = ge_node_attr_int(nd, "max_skip_count", 0);
  const char *mode = ge_node_attr_string(nd, "mode", "TF");
  const int64_t *counts = NULL, *idx = NULL, *ipool = NULL;
  const char *const *spool = NULL;
  const double *wts = NULL;
  int32_t ncounts = ge_node_attr_ints(nd, "ngram_counts", &counts), nidx = ge_node_attr_ints(nd, "ngram_indexes", &idx);
  int32_t npool, nw = ge__hc_ex_attr_floats(nd, "weights", &wts), md, g;
  int64_t rows, cols, nout = 0, r, i, dims[2];
  double *cnt;
  ge_value *y;
  if (!x) return ge_kernel_error(c, GE_ERR_INVALID, "missing input");
  if (x->dtype == GE_DTYPE_STRING) {
    npool = ge__hc_ex_attr_strings(nd, "pool_strings", &spool);
  } else if (x->dtype == GE_DTYPE_INT32 || x->dtype == GE_DTYPE_INT64) {
    npool = ge_node_attr_ints(nd, "pool_int64s", &ipool);
  } else
    return ge_kernel_error(c, GE_ERR_INVALID, "input must be string, int32 or int64");
  if (strcmp(mode, "TF") == 0) md = 0;
  else if (strcmp(mode, "IDF") == 0) md = 1;
  else if (strcmp(mode, "TFIDF") == 0) md = 2;
  else return ge_kernel_error(c, GE_ERR_INVALID, "bad mode '%s'", mode);
  if (npool < 0 || ncounts < 0 || nidx < 0) return ge_kernel_error(c, GE_ERR_INVALID, "missing pool, ngram_counts or ngram_indexes");
  if (nidx != npool && ncounts > 0) {
    /* ngram_indexes has one entry per n-gram, not per pool item: checked below */
  }
  if (ming < 1 || maxg < ming || maxskip < 0) return ge_kernel_error(c, GE_ERR_INVALID, "bad gram lengths or skip count");
  if (nw >= 0 && nw != nidx) return ge_kernel_error(c, GE_ERR_INVALID, "weights and ngram_indexes differ in length");
  for (i = 0; i < nidx; i++) {
    if (idx[i] < 0) return ge_kernel_error(c, GE_ERR_INVALID, "negative ngram index");
    if (idx[i] + 1 > nout) nout = idx[i] + 1;
  }
  for (g = 0; g < ncounts; g++)
    if (counts[g] < 0 || counts[g] > npool || (g > 0 && counts[g] < counts[g - 1]))
      return ge_kernel_error(c, GE_ERR_INVALID, "bad ngram_counts");
  if (x->rank == 1) {
    rows = 1;
    cols = x->dims[0];
    dims[0] = nout;
  } else if (x->rank == 2) {
    rows = x->dims[0];
    cols = x->dims[1];
    dims[0] = rows;
    dims[1] = nout;
  } else
    return ge_kernel_error(c, GE_ERR_SHAPE, "input must be [C] or [N, C]");
  if (!(y = ge_kernel_output(c, 0, GE_DTYPE_FLOAT32, x->rank, dims))) return GE__HC_OUT_FAILED(c);
  if (!(cnt = (double *)ge__hc_ex_alloc(c, (size_t)(nout ? nout : 1) * sizeof(double)))) return GE__HC_OUT_FAILED(c);
  for (r = 0; r < rows; r++) {
    int64_t base = r * cols, start, skip, n;
    memset(cnt, 0, (size_t)(nout ? nout : 1) * sizeof(double));
    for (start = 0; start < cols; start++)
      for (skip = 0; skip <= maxskip; skip++)
        for (n = ming; n <= maxg && n <= ncounts; n++) {
          int64_t p0, p1, p, gi;
          if (n == 1 && skip > 0) continue; /* a unigram is counted once */
          if (start + (n - 1) * (skip + 1) >= cols) continue;
          p0 = counts[n - 1];
          p1 = n < ncounts ? counts[n] : npool;
          if ((p1 - p0) % n) {
            free(cnt);
            return ge_kernel_error(c, GE_ERR_INVALID, "pool section of %lld-grams is not a multiple of %lld", (long long)n, (long long)n);
          }
          for (p = p0, gi = 0; p + n <= p1; p += n) {
            /* n-gram number: p0's grams come after the earlier sections */
            int64_t ord = 0, gg;
            for (gg = 0; gg < n - 1; gg++) ord += ((gg + 1 < ncounts ? counts[gg + 1] : npool) - counts[gg]) / (gg + 1);
            ord += (p - p0) / n;
            (void)gi;
            if (ord >= nidx) break;
            if (ge__hc_ex_gram_eq(x, base, start, skip + 1, n, ipool, spool, p)) {
              cnt[idx[ord]] += 1;
              break;
            }
          }
        }
    for (i = 0; i < nout; i++) {
      double v = cnt[i];
      ge__hc_set_f(y, r * nout + i, v);
    }
    if (md != 0 || wts) {
      /* weights are per n-gram: apply through the index map */
      for (i = 0; i < nidx; i++) {
        double v = cnt[idx[i]], w = wts ? wts[i] : 1.0;
        if (md == 1) v = v > 0 ? w : 0;
        else if (md == 2) v = v * w;
        ge__hc_set_f(y, r * nout + idx[i], v);
      }
    }
  }
  free(cnt);
  return GE_OK;
}

/* ---------------------------------------------------- recurrent layers */

/* One activation function of the recurrent ops, with its alpha / beta. */
typedef struct ge__hc_ex_act {
  int kind;
  double alpha, beta;
} ge__hc_ex_act;

enum {
  GE__HC_EX_SIGMOID,
  GE__HC_EX_TANH,
  GE__HC_EX_RELU,
  GE__HC_EX_AFFINE,
  GE__HC_EX_LEAKY_RELU,
  GE__HC_EX_THRESHOLDED_RELU,
  GE__HC_EX_SCALED_TANH,
  GE__HC_EX_HARD_SIGMOID,
  GE__HC_EX_ELU,
  GE__HC_EX_SOFTSIGN,
  GE__HC_EX_SOFTPLUS
};

static double ge__hc_ex_act_apply(const ge__hc_ex_act *a, double x) {
  switch (a->kind) {
  case GE__HC_EX_SIGMOID: return x >= 0 ? 1 / (1 + exp(-x)) : exp(x) / (1 + exp(x));
  case GE__HC_EX_TANH: return tanh(x);
  case GE__HC_EX_RELU: return x > 0 ? x : 0;
  case GE__HC_EX_AFFINE: return a->alpha * x + a->beta;
  case GE__HC_EX_LEAKY_RELU: return x >= 0 ? x : a->alpha * x;
  case GE__HC_EX_THRESHOLDED_RELU: return x > a->alpha ? x : 0;
  case GE__HC_EX_SCALED_TANH: return a->alpha * tanh(a->beta * x);
  case GE__HC_EX_HARD_SIGMOID: {
    double v = a->alpha * x + a->beta;
    return v < 0 ? 0 : v > 1 ? 1 : v;
  }
  case GE__HC_EX_ELU: return x >= 0 ? x : a->alpha * (exp(x) - 1);
  case GE__HC_EX_SOFTSIGN: return x / (1 + fabs(x));
  default: return x > 0 ? x + log1p(exp(-x)) : log1p(exp(x));
  }
}

/* Parses the activations attribute (nact per direction, defaults dflt)
 * into acts[dir * nact + k]. alpha/beta are consumed in order by the
 * functions that take them. */
static ge_status ge__hc_ex_acts(ge_kernel_ctx *c, int ndir, int nact, const int *dflt, ge__hc_ex_act *acts) {
  const char *const *names = NULL;
  const double *al = NULL, *be = NULL;
  int32_t n = ge__hc_ex_attr_strings(c->node, "activations", &names);
  int32_t nal = ge__hc_ex_attr_floats(c->node, "activation_alpha", &al);
  int32_t nbe = ge__hc_ex_attr_floats(c->node, "activation_beta", &be), ia = 0, ib = 0;
  int i;
  if (n >= 0 && n != ndir * nact && n != nact)
    return ge_kernel_error(c, GE_ERR_INVALID, "activations needs %d entries, has %d", ndir * nact, (int)n);
  for (i = 0; i < ndir * nact; i++) {
    ge__hc_ex_act *a = &acts[i];
    const char *nm;
    a->kind = dflt[i % nact];
    a->alpha = 0;
    a->beta = 0;
    if (n < 0) continue;
    nm = names[n == nact ? i % nact : i];
    if (ge__hc_ex_streq_nocase(nm, "Sigmoid")) a->kind = GE__HC_EX_SIGMOID;
    else if (ge__hc_ex_streq_nocase(nm, "Tanh")) a->kind = GE__HC_EX_TANH;
    else if (ge__hc_ex_streq_nocase(nm, "Relu")) a->kind = GE__HC_EX_RELU;
    else if (ge__hc_ex_streq_nocase(nm, "Affine")) {
      a->kind = GE__HC_EX_AFFINE;
      a->alpha = 1;
    } else if (ge__hc_ex_streq_nocase(nm, "LeakyRelu")) {
      a->kind = GE__HC_EX_LEAKY_RELU;
      a->alpha = 0.01;
    } else if (ge__hc_ex_streq_nocase(nm, "ThresholdedRelu")) {
      a->kind = GE__HC_EX_THRESHOLDED_RELU;
      a->alpha = 1;
    } else if (ge__hc_ex_streq_nocase(nm, "ScaledTanh")) {
      a->kind = GE__HC_EX_SCALED_TANH;
      a->alpha = 1;
      a->beta = 1;
    } else if (ge__hc_ex_streq_nocase(nm, "HardSigmoid")) {
      a->kind = GE__HC_EX_HARD_SIGMOID;
      a->alpha = 0.2;
      a->beta = 0.5;
    } else if (ge__hc_ex_streq_nocase(nm, "Elu")) {
      a->kind = GE__HC_EX_ELU;
      a->alpha = 1;
    } else if (ge__hc_ex_streq_nocase(nm, "Softsign")) a->kind = GE__HC_EX_SOFTSIGN;
    else if (ge__hc_ex_streq_nocase(nm, "Softplus")) a->kind = GE__HC_EX_SOFTPLUS;
    else return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "unknown activation '%s'", nm);
    if (a->kind == GE__HC_EX_AFFINE || a->kind == GE__HC_EX_LEAKY_RELU || a->kind == GE__HC_EX_THRESHOLDED_RELU ||
        a->kind == GE__HC_EX_SCALED_TANH || a->kind == GE__HC_EX_HARD_SIGMOID || a->kind == GE__HC_EX_ELU) {
      if (ia < nal) a->alpha = al[ia++];
    }
    if (a->kind == GE__HC_EX_AFFINE || a->kind == GE__HC_EX_SCALED_TANH || a->kind == GE__HC_EX_HARD_SIGMOID) {
      if (ib < nbe) a->beta = be[ib++];
    }
  }
  return GE_OK;
}

/* RNN (kind 0, 1 gate), GRU (kind 1, gates z r h), LSTM (kind 2, gates
 * i o f c). */
static ge_status ge__hc_ex_recurrent(ge_kernel_ctx *c, int kind) {
  static const int dflt_rnn[1] = {GE__HC_EX_TANH};
  static const int dflt_gru[2] = {GE__HC_EX_SIGMOID, GE__HC_EX_TANH};
  static const int dflt_lstm[3] = {GE__HC_EX_SIGMOID, GE__HC_EX_TANH, GE__HC_EX_TANH};
  const ge_node *nd = c->node;
  const ge_value *in[8];
  const ge_value *X, *W, *R, *B, *SL, *H0, *C0, *P;
  const char *dir = ge_node_attr_string(nd, "direction", "forward");
  int layout = (int)ge_node_attr_int(nd, "layout", 0), ndir, nact = kind == 0 ? 1 : kind == 1 ? 2 : 3;
  int ng = kind == 0 ? 1 : kind == 1 ? 3 : 4, lbr = ge_node_attr_int(nd, "linear_before_reset", 0) != 0;
  int input_forget = ge_node_attr_int(nd, "input_forget", 0) != 0, has_clip = ge_node_attr(nd, "clip") != NULL;
  double clip = ge_node_attr_float(nd, "clip", 0);
  int64_t hs = ge_node_attr_int(nd, "hidden_size", -1), seq, batch, isz, d, b, t, j, k, ydims[4], hdims[3];
  ge__hc_ex_act acts[6];
  ge_value *Y = NULL, *Yh = NULL, *Yc = NULL;
  double *h = NULL, *cs = NULL, *g = NULL, *hn = NULL;
  ge_status s = GE_OK;
  uint32_t i;
  for (i = 0; i < 8; i++) in[i] = i < c->num_inputs ? c->inputs[i] : NULL;
  X = in[0];
  W = in[1];
  R = in[2];
  B = in[3];
  SL = in[4];
  H0 = in[5];
  C0 = kind == 2 ? in[6] : NULL;
  P = kind == 2 ? in[7] : NULL;
  if (strcmp(dir, "forward") == 0 || strcmp(dir, "reverse") == 0) ndir = 1;
  else if (strcmp(dir, "bidirectional") == 0) ndir = 2;
  else return ge_kernel_error(c, GE_ERR_INVALID, "bad direction '%s'", dir);
  if (!X || !W || !R) return ge_kernel_error(c, GE_ERR_INVALID, "X, W and R are required");
  if (!ge__hc_is_float(X->dtype) || W->dtype != X->dtype || R->dtype != X->dtype)
    return ge_kernel_error(c, GE_ERR_INVALID, "X, W and R must be float tensors of one dtype");
  if (X->rank != 3 || W->rank != 3 || R->rank != 3) return ge_kernel_error(c, GE_ERR_SHAPE, "X, W and R must have rank 3");
  if (layout != 0 && layout != 1) return ge_kernel_error(c, GE_ERR_INVALID, "layout must be 0 or 1");
  seq = layout ? X->dims[1] : X->dims[0];
  batch = layout ? X->dims[0] : X->dims[1];
  isz = X->dims[2];
  if (hs < 0) hs = R->dims[2];
  if (W->dims[0] != ndir || W->dims[1] != ng * hs || W->dims[2] != isz)
    return ge_kernel_error(c, GE_ERR_SHAPE, "W must be [%d, %lld, %lld]", ndir, (long long)(ng * hs), (long long)isz);
  if (R->dims[0] != ndir || R->dims[1] != ng * hs || R->dims[2] != hs)
    return ge_kernel_error(c, GE_ERR_SHAPE, "R must be [%d, %lld, %lld]", ndir, (long long)(ng * hs), (long long)hs);
  if (B && (B->rank != 2 || B->dims[0] != ndir || B->dims[1] != 2 * ng * hs || B->dtype != X->dtype))
    return ge_kernel_error(c, GE_ERR_SHAPE, "B must be [%d, %lld]", ndir, (long long)(2 * ng * hs));
  if (SL && (SL->rank != 1 || SL->dims[0] != batch || ge__hc_is_float(SL->dtype) || SL->dtype == GE_DTYPE_STRING))
    return ge_kernel_error(c, GE_ERR_SHAPE, "sequence_lens must be an integer [batch] tensor");
  for (k = 0; k < 2; k++) {
    const ge_value *st = k ? C0 : H0;
    if (st && (st->rank != 3 || st->dtype != X->dtype || st->dims[2] != hs ||
               (layout ? st->dims[0] != batch || st->dims[1] != ndir : st->dims[0] != ndir || st->dims[1] != batch)))
      return ge_kernel_error(c, GE_ERR_SHAPE, "initial state has the wrong shape");
  }
  if (P && (P->rank != 2 || P->dims[0] != ndir || P->dims[1] != 3 * hs || P->dtype != X->dtype))
    return ge_kernel_error(c, GE_ERR_SHAPE, "P must be [%d, %lld]", ndir, (long long)(3 * hs));
  for (b = 0; SL && b < batch; b++)
    if (ge__hc_get_i(SL, b) < 0 || ge__hc_get_i(SL, b) > seq)
      return ge_kernel_error(c, GE_ERR_INVALID, "sequence length out of range");
  if ((s = ge__hc_ex_acts(c, ndir, nact, kind == 0 ? dflt_rnn : kind == 1 ? dflt_gru : dflt_lstm, acts))) return s;
  if (layout) {
    ydims[0] = batch;
    ydims[1] = seq;
    ydims[2] = ndir;
    hdims[0] = batch;
    hdims[1] = ndir;
  } else {
    ydims[0] = seq;
    ydims[1] = ndir;
    ydims[2] = batch;
    hdims[0] = ndir;
    hdims[1] = batch;
  }
  ydims[3] = hs;
  hdims[2] = hs;
  if (c->num_outputs > 0 && !(Y = ge_kernel_output(c, 0, X->dtype, 4, ydims))) return GE__HC_OUT_FAILED(c);
  if (c->num_outputs > 1 && !(Yh = ge_kernel_output(c, 1, X->dtype, 3, hdims))) return GE__HC_OUT_FAILED(c);
  if (kind == 2 && c->num_outputs > 2 && !(Yc = ge_kernel_output(c, 2, X->dtype, 3, hdims))) return GE__HC_OUT_FAILED(c);
  for (k = 0; Y && k < Y->numel; k++) ge__hc_set_f(Y, k, 0);
  h = (double *)ge__hc_ex_alloc(c, (size_t)(hs + 1) * sizeof(double));
  cs = (double *)ge__hc_ex_alloc(c, (size_t)(hs + 1) * sizeof(double));
  hn = (double *)ge__hc_ex_alloc(c, (size_t)(hs + 1) * sizeof(double));
  g = (double *)ge__hc_ex_alloc(c, (size_t)(2 * ng * hs + 1) * sizeof(double));
  if (!h || !cs || !hn || !g) {
    s = GE__HC_OUT_FAILED(c);
    goto done;
  }
  for (d = 0; d < ndir; d++) {
    int rev = ndir == 2 ? d == 1 : strcmp(dir, "reverse") == 0;
    const ge__hc_ex_act *fa = &acts[d * nact], *ga = &acts[d * nact + (nact > 1)], *ha = &acts[d * nact + nact - 1];
    for (b = 0; b < batch; b++) {
      int64_t len = SL ? ge__hc_get_i(SL, b) : seq, step;
      /* state index within [dir, batch, hs] or [batch, dir, hs] */
      int64_t so = (layout ? b * ndir + d : d * batch + b) * hs;
      for (j = 0; j < hs; j++) {
        h[j] = H0 ? ge__hc_get_f(H0, so + j) : 0;
        cs[j] = C0 ? ge__hc_get_f(C0, so + j) : 0;
      }
      for (step = 0; step < len; step++) {
        int64_t tt = rev ? len - 1 - step : step;
        int64_t xo = (layout ? b * seq + tt : tt * batch + b) * isz;
        t = tt;
        /* g[0 .. ng*hs): X*W^T + Wb; g[ng*hs ..): H*R^T + Rb */
        for (j = 0; j < ng * hs; j++) {
          double xw = B ? ge__hc_get_f(B, d * 2 * ng * hs + j) : 0, hr = B ? ge__hc_get_f(B, d * 2 * ng * hs + ng * hs + j) : 0;
          for (k = 0; k < isz; k++) xw += ge__hc_get_f(X, xo + k) * ge__hc_get_f(W, (d * ng * hs + j) * isz + k);
          for (k = 0; k < hs; k++) hr += h[k] * ge__hc_get_f(R, (d * ng * hs + j) * hs + k);
          g[j] = xw;
          g[ng * hs + j] = hr;
        }
        for (j = 0; j < hs; j++) {
          if (kind == 0) {
            double v = g[j] + g[hs + j];
            if (has_clip) v = v < -clip ? -clip : v > clip ? clip : v;
            hn[j] = ge__hc_ex_act_apply(fa, v);
          } else if (kind == 1) {
            double z = g[j] + g[3 * hs + j], r = g[hs + j] + g[4 * hs + j], hh;
            if (has_clip) {
              z = z < -clip ? -clip : z > clip ? clip : z;
              r = r < -clip ? -clip : r > clip ? clip : r;
            }
            z = ge__hc_ex_act_apply(fa, z);
            r = ge__hc_ex_act_apply(fa, r);
            if (lbr) hh = g[2 * hs + j] + r * g[5 * hs + j];
            else {
              double acc = B ? ge__hc_get_f(B, d * 6 * hs + 5 * hs + j) : 0;
              for (k = 0; k < hs; k++) {
                /* r of hidden unit k is needed: recompute it */
                double rk = g[hs + k] + g[4 * hs + k];
                if (has_clip) rk = rk < -clip ? -clip : rk > clip ? clip : rk;
                acc += ge__hc_ex_act_apply(fa, rk) * h[k] * ge__hc_get_f(R, (d * 3 * hs + 2 * hs + j) * hs + k);
              }
              hh = g[2 * hs + j] + acc;
            }
            if (has_clip) hh = hh < -clip ? -clip : hh > clip ? clip : hh;
            hh = ge__hc_ex_act_apply(ga, hh);
            hn[j] = (1 - z) * hh + z * h[j];
          } else {
            double gi = g[j] + g[4 * hs + j], go = g[hs + j] + g[5 * hs + j], gf = g[2 * hs + j] + g[6 * hs + j];
            double gc = g[3 * hs + j] + g[7 * hs + j], cn;
            if (P) {
              gi += ge__hc_get_f(P, d * 3 * hs + j) * cs[j];
              gf += ge__hc_get_f(P, d * 3 * hs + 2 * hs + j) * cs[j];
            }
            if (has_clip) {
              gi = gi < -clip ? -clip : gi > clip ? clip : gi;
              gf = gf < -clip ? -clip : gf > clip ? clip : gf;
              gc = gc < -clip ? -clip : gc > clip ? clip : gc;
            }
            gi = ge__hc_ex_act_apply(fa, gi);
            gf = input_forget ? 1 - gi : ge__hc_ex_act_apply(fa, gf);
            gc = ge__hc_ex_act_apply(ga, gc);
            cn = gf * cs[j] + gi * gc;
            if (P) go += ge__hc_get_f(P, d * 3 * hs + hs + j) * cn;
            if (has_clip) go = go < -clip ? -clip : go > clip ? clip : go;
            go = ge__hc_ex_act_apply(fa, go);
            hn[j] = go * ge__hc_ex_act_apply(ha, cn);
            g[ng * hs + j] = cn; /* the new cell state (this slot is consumed) */
          }
        }
        for (j = 0; j < hs; j++) {
          if (kind == 2) cs[j] = g[ng * hs + j];
          h[j] = hn[j];
          if (Y) ge__hc_set_f(Y, (layout ? (b * seq + t) * ndir + d : (t * ndir + d) * batch + b) * hs + j, h[j]);
        }
      }
      for (j = 0; j < hs; j++) {
        if (Yh) ge__hc_set_f(Yh, so + j, h[j]);
        if (Yc) ge__hc_set_f(Yc, so + j, cs[j]);
      }
    }
  }
done:
  free(h);
  free(cs);
  free(hn);
  free(g);
  return s;
}
static ge_status ge__hc_rnn(ge_kernel_ctx *c) { return ge__hc_ex_recurrent(c, 0); }
static ge_status ge__hc_gru(ge_kernel_ctx *c) { return ge__hc_ex_recurrent(c, 1); }
static ge_status ge__hc_lstm(ge_kernel_ctx *c) { return ge__hc_ex_recurrent(c, 2); }

/* --------------------------------------------------------- GridSample */

static double ge__hc_ex_gs_reflect(double x, double lo, double hi) {
  double rng = hi - lo, dx, r;
  int64_t n;
  if (rng <= 0) return lo;
  if (x < lo) {
    dx = lo - x;
    n = (int64_t)(dx / rng);
    r = dx - (double)n * rng;
    return n % 2 == 0 ? lo + r : hi - r;
  }
  if (x > hi) {
    dx = x - hi;
    n = (int64_t)(dx / rng);
    r = dx - (double)n * rng;
    return n % 2 == 0 ? hi - r : lo + r;
  }
  return x;
}

/* Pixel (r, col) of one H x W image at offset base, with the padding mode
 * (0 zeros, 1 border, 2 reflection) deciding out-of-range reads. */
static double ge__hc_ex_gs_pixel(const ge_value *x, int64_t base, int64_t hgt, int64_t wid, int64_t r, int64_t col, int pad,
                                 const double *border) {
  if (pad == 0) {
    if (col < 0 || col >= wid || r < 0 || r >= hgt) return 0;
  } else if (pad == 1) {
    col = col < 0 ? 0 : col >= wid ? wid - 1 : col;
    r = r < 0 ? 0 : r >= hgt ? hgt - 1 : r;
  } else {
    col = (int64_t)ge__hc_ex_gs_reflect((double)col, border[0], border[2]);
    r = (int64_t)ge__hc_ex_gs_reflect((double)r, border[1], border[3]);
    col = col < 0 ? 0 : col >= wid ? wid - 1 : col;
    r = r < 0 ? 0 : r >= hgt ? hgt - 1 : r;
  }
  return ge__hc_get_f(x, base + r * wid + col);
}

static void ge__hc_ex_cubic_coeffs(double x, double *cf) {
  double a = -0.75;
  x = fabs(x);
  cf[0] = ((a * (x + 1) - 5 * a) * (x + 1) + 8 * a) * (x + 1) - 4 * a;
  cf[1] = ((a + 2) * x - (a + 3)) * x * x + 1;
  cf[2] = ((a + 2) * (1 - x) - (a + 3)) * (1 - x) * (1 - x) + 1;
  cf[3] = ((a * (2 - x) - 5 * a) * (2 - x) + 8 * a) * (2 - x) - 4 * a;
}

static ge_status ge__hc_grid_sample(ge_kernel_ctx *c) {
  const ge_value *x = c->num_inputs > 0 ? c->inputs[0] : NULL, *gr = c->num_inputs > 1 ? c->inputs[1] : NULL;
  const char *ms = ge_node_attr_string(c->node, "mode", "bilinear"), *ps = ge_node_attr_string(c->node, "padding_mode", "zeros");
  int ac = ge_node_attr_int(c->node, "align_corners", 0) != 0, mode, pad;
  int64_t nb, ch, hgt, wid, oh, ow, n, cc, i, j, dims[4];
  double border[4];
  ge_value *y;
  if (strcmp(ms, "bilinear") == 0 || strcmp(ms, "linear") == 0) mode = 0;
  else if (strcmp(ms, "nearest") == 0) mode = 1;
  else if (strcmp(ms, "bicubic") == 0 || strcmp(ms, "cubic") == 0) mode = 2;
  else return ge_kernel_error(c, GE_ERR_INVALID, "bad mode '%s'", ms);
  if (strcmp(ps, "zeros") == 0) pad = 0;
  else if (strcmp(ps, "border") == 0) pad = 1;
  else if (strcmp(ps, "reflection") == 0) pad = 2;
  else return ge_kernel_error(c, GE_ERR_INVALID, "bad padding_mode '%s'", ps);
  if (!x || !gr || !ge__hc_is_float(x->dtype) || !ge__hc_is_float(gr->dtype))
    return ge_kernel_error(c, GE_ERR_INVALID, "X and grid must be float tensors");
  if (x->rank != 4 || gr->rank != 4 || gr->dims[3] != 2 || gr->dims[0] != x->dims[0])
    return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "only 4-D X (N, C, H, W) with grid (N, H_out, W_out, 2) is supported");
  nb = x->dims[0];
  ch = x->dims[1];
  hgt = x->dims[2];
  wid = x->dims[3];
  oh = gr->dims[1];
  ow = gr->dims[2];
  dims[0] = nb;
  dims[1] = ch;
  dims[2] = oh;
  dims[3] = ow;
  if (!(y = ge_kernel_output(c, 0, x->dtype, 4, dims))) return GE__HC_OUT_FAILED(c);
  if (ac) {
    border[0] = 0;
    border[1] = 0;
    border[2] = (double)wid - 1;
    border[3] = (double)hgt - 1;
  } else {
    border[0] = -0.5;
    border[1] = -0.5;
    border[2] = (double)wid - 0.5;
    border[3] = (double)hgt - 0.5;
  }
  for (n = 0; n < nb; n++)
    for (cc = 0; cc < ch; cc++) {
      int64_t base = (n * ch + cc) * hgt * wid;
      for (i = 0; i < oh; i++)
        for (j = 0; j < ow; j++) {
          int64_t go = ((n * oh + i) * ow + j) * 2;
          double gx = ge__hc_get_f(gr, go), gy = ge__hc_get_f(gr, go + 1), px, py, v;
          px = ac ? (gx + 1) / 2 * (double)(wid - 1) : ((gx + 1) * (double)wid - 1) / 2;
          py = ac ? (gy + 1) / 2 * (double)(hgt - 1) : ((gy + 1) * (double)hgt - 1) / 2;
          if (mode == 1) {
            px = ge__hc_ex_rint(px);
            py = ge__hc_ex_rint(py);
          }
          if (pad == 1) {
            px = px < 0 ? 0 : px > (double)(wid - 1) ? (double)(wid - 1) : px;
            py = py < 0 ? 0 : py > (double)(hgt - 1) ? (double)(hgt - 1) : py;
          } else if (pad == 2) {
            px = ge__hc_ex_gs_reflect(px, border[0], border[2]);
            py = ge__hc_ex_gs_reflect(py, border[1], border[3]);
          }
          if (px != px || py != py || fabs(px) > 1e15 || fabs(py) > 1e15) v = 0;
          else if (mode == 1) {
            v = ge__hc_ex_gs_pixel(x, base, hgt, wid, (int64_t)py, (int64_t)px, pad, border);
          } else if (mode == 0) {
            double x1 = floor(px), y1 = floor(py), dx1 = px - x1, dy1 = py - y1, dx2 = 1 - dx1, dy2 = 1 - dy1;
            int64_t ix = (int64_t)x1, iy = (int64_t)y1;
            double p11 = ge__hc_ex_gs_pixel(x, base, hgt, wid, iy, ix, pad, border);
            double p12 = ge__hc_ex_gs_pixel(x, base, hgt, wid, iy, ix + 1, pad, border);
            double p21 = ge__hc_ex_gs_pixel(x, base, hgt, wid, iy + 1, ix, pad, border);
            double p22 = ge__hc_ex_gs_pixel(x, base, hgt, wid, iy + 1, ix + 1, pad, border);
            v = dy2 * (dx2 * p11 + dx1 * p12) + dy1 * (dx2 * p21 + dx1 * p22);
          } else {
            double x0 = floor(px) - 1, y0 = floor(py) - 1, cx[4], cy[4], rows[4];
            int64_t ix = (int64_t)x0, iy = (int64_t)y0, a, bb;
            ge__hc_ex_cubic_coeffs(px - x0 - 1, cx);
            ge__hc_ex_cubic_coeffs(py - y0 - 1, cy);
            v = 0;
            for (a = 0; a < 4; a++) {
              rows[a] = 0;
              for (bb = 0; bb < 4; bb++) rows[a] += cx[bb] * ge__hc_ex_gs_pixel(x, base, hgt, wid, iy + a, ix + bb, pad, border);
              v += cy[a] * rows[a];
            }
          }
          ge__hc_set_f(y, ((n * ch + cc) * oh + i) * ow + j, v);
        }
    }
  return GE_OK;
}

/* ------------------------------------------------------------- signal */

/* The DFT of n complex samples (re/im at stride st from in, zero past
 * avail) into out (len bins, interleaved re/im). */
static void ge__hc_ex_dft1(const ge_value *x, int64_t off, int64_t st, int cplx, int64_t avail, int64_t n, int64_t len,
                           int inverse, const ge_value *win, double *out) {
  const double pi = 3.14159265358979323846;
  int64_t k, t;
  for (k = 0; k < len; k++) {
    double re = 0, im = 0;
    for (t = 0; t < n && t < avail; t++) {
      double xr = ge__hc_get_f(x, off + t * st * (cplx ? 2 : 1)), xi = cplx ? ge__hc_get_f(x, off + t * st * 2 + 1) : 0;
      double ang = (inverse ? 2 : -2) * pi * (double)((k * t) % n) / (double)n, cr = cos(ang), si = sin(ang);
      if (win) {
        double w = ge__hc_get_f(win, t);
        xr *= w;
        xi *= w;
      }
      re += xr * cr - xi * si;
      im += xr * si + xi * cr;
    }
    if (inverse) {
      re /= (double)n;
      im /= (double)n;
    }
    out[2 * k] = re;
    out[2 * k + 1] = im;
  }
}

static ge_status ge__hc_dft(ge_kernel_ctx *c) {
  const ge_value *x = c->num_inputs > 0 ? c->inputs[0] : NULL, *lv = c->num_inputs > 1 ? c->inputs[1] : NULL;
  int inverse = ge_node_attr_int(c->node, "inverse", 0) != 0, onesided = ge_node_attr_int(c->node, "onesided", 0) != 0;
  int64_t n, len, outer, inner, o, in_, dims[GE_MAX_RANK], k;
  int32_t ax, r;
  int cplx;
  double *buf;
  ge_value *y;
  if (!x || !ge__hc_is_float(x->dtype)) return ge_kernel_error(c, GE_ERR_INVALID, "input must be a float tensor");
  r = x->rank;
  if (r < 2 || (x->dims[r - 1] != 1 && x->dims[r - 1] != 2))
    return ge_kernel_error(c, GE_ERR_SHAPE, "input must end in a dimension of 1 (real) or 2 (complex)");
  cplx = x->dims[r - 1] == 2;
  if (!ge__hc_axis(ge_node_attr_int(c->node, "axis", 1), r, &ax) || ax == r - 1)
    return ge_kernel_error(c, GE_ERR_INVALID, "axis out of range");
  n = x->dims[ax];
  if (lv) {
    if (!ge__hc_ex_scalar_i(lv, &n) || ge__hc_is_float(lv->dtype)) return ge_kernel_error(c, GE_ERR_INVALID, "dft_length must be an integer scalar");
    if (n < 1) return ge_kernel_error(c, GE_ERR_INVALID, "dft_length must be positive");
  }
  if (n < 1) return ge_kernel_error(c, GE_ERR_SHAPE, "empty signal axis");
  len = onesided ? n / 2 + 1 : n;
  memcpy(dims, x->dims, (size_t)r * sizeof *dims);
  dims[ax] = len;
  dims[r - 1] = 2;
  if (!(y = ge_kernel_output(c, 0, x->dtype, r, dims))) return GE__HC_OUT_FAILED(c);
  outer = ge__hc_ex_prod(x->dims, 0, ax);
  inner = ge__hc_ex_prod(x->dims, ax + 1, r - 1);
  if (!(buf = (double *)ge__hc_ex_alloc(c, (size_t)len * 2 * sizeof(double)))) return GE__HC_OUT_FAILED(c);
  for (o = 0; o < outer; o++)
    for (in_ = 0; in_ < inner; in_++) {
      int64_t off = (o * x->dims[ax] * inner + in_) * (cplx ? 2 : 1);
      ge__hc_ex_dft1(x, off, inner, cplx, x->dims[ax], n, len, inverse, NULL, buf);
      for (k = 0; k < len; k++) {
        int64_t yo = ((o * len + k) * inner + in_) * 2;
        ge__hc_set_f(y, yo, buf[2 * k]);
        ge__hc_set_f(y, yo + 1, buf[2 * k + 1]);
      }
    }
  free(buf);
  return GE_OK;
}

static ge_status ge__hc_stft(ge_kernel_ctx *c) {
  const ge_value *x = c->num_inputs > 0 ? c->inputs[0] : NULL, *sv = c->num_inputs > 1 ? c->inputs[1] : NULL;
  const ge_value *win = c->num_inputs > 2 ? c->inputs[2] : NULL, *fv = c->num_inputs > 3 ? c->inputs[3] : NULL;
  int onesided = ge_node_attr_int(c->node, "onesided", 1) != 0, cplx;
  int64_t step, fl = -1, frames, bins, b, f, k, dims[4];
  double *buf;
  ge_value *y;
  if (!x || !ge__hc_is_float(x->dtype) || x->rank != 3 || (x->dims[2] != 1 && x->dims[2] != 2))
    return ge_kernel_error(c, GE_ERR_SHAPE, "signal must be a float [batch, length, 1 or 2] tensor");
  cplx = x->dims[2] == 2;
  if (!ge__hc_ex_scalar_i(sv, &step) || ge__hc_is_float(sv->dtype) || step < 1)
    return ge_kernel_error(c, GE_ERR_INVALID, "frame_step must be a positive integer scalar");
  if (win && (win->rank != 1 || !ge__hc_is_float(win->dtype))) return ge_kernel_error(c, GE_ERR_SHAPE, "window must be a 1-D float tensor");
  if (fv && (!ge__hc_ex_scalar_i(fv, &fl) || ge__hc_is_float(fv->dtype)))
    return ge_kernel_error(c, GE_ERR_INVALID, "frame_length must be an integer scalar");
  if (win && fl >= 0 && win->dims[0] != fl) return ge_kernel_error(c, GE_ERR_SHAPE, "window length differs from frame_length");
  if (win) fl = win->dims[0];
  if (fl < 1 || fl > x->dims[1]) return ge_kernel_error(c, GE_ERR_INVALID, "frame length must be in [1, signal length]");
  frames = (x->dims[1] - fl) / step + 1;
  bins = onesided ? fl / 2 + 1 : fl;
  dims[0] = x->dims[0];
  dims[1] = frames;
  dims[2] = bins;
  dims[3] = 2;
  if (!(y = ge_kernel_output(c, 0, x->dtype, 4, dims))) return GE__HC_OUT_FAILED(c);
  if (!(buf = (double *)ge__hc_ex_alloc(c, (size_t)bins * 2 * sizeof(double)))) return GE__HC_OUT_FAILED(c);
  for (b = 0; b < x->dims[0]; b++)
    for (f = 0; f < frames; f++) {
      int64_t off = (b * x->dims[1] + f * step) * (cplx ? 2 : 1);
      ge__hc_ex_dft1(x, off, 1, cplx, fl, fl, bins, 0, win, buf);
      for (k = 0; k < bins; k++) {
        int64_t yo = ((b * frames + f) * bins + k) * 2;
        ge__hc_set_f(y, yo, buf[2 * k]);
        ge__hc_set_f(y, yo + 1, buf[2 * k + 1]);
      }
    }
  free(buf);
  return GE_OK;
}

static ge_status ge__hc_mel_weight_matrix(ge_kernel_ctx *c) {
  int64_t nmel, dftl, dt = ge_node_attr_int(c->node, "output_datatype", GE_DTYPE_FLOAT32), nspec, i, j, dims[2];
  double rate, lo, hi, lmel, hmel, step;
  int64_t *bins;
  ge_value *y;
  if (c->num_inputs < 5 || !ge__hc_ex_scalar_i(c->inputs[0], &nmel) || !ge__hc_ex_scalar_i(c->inputs[1], &dftl) ||
      !ge__hc_ex_scalar_f(c->inputs[2], &rate) || !ge__hc_ex_scalar_f(c->inputs[3], &lo) ||
      !ge__hc_ex_scalar_f(c->inputs[4], &hi))
    return ge_kernel_error(c, GE_ERR_INVALID, "needs five scalar inputs");
  if (nmel < 1 || dftl < 1 || rate <= 0 || lo < 0 || hi < lo || hi > rate)
    return ge_kernel_error(c, GE_ERR_INVALID, "bad mel parameters");
  if (dt <= 0 || dt >= GE_DTYPE_COUNT || dt == GE_DTYPE_STRING || dt == GE_DTYPE_COMPLEX64 || dt == GE_DTYPE_COMPLEX128)
    return ge_kernel_error(c, GE_ERR_INVALID, "bad output_datatype %lld", (long long)dt);
  nspec = dftl / 2 + 1;
  dims[0] = nspec;
  dims[1] = nmel;
  if (!(y = ge_kernel_output(c, 0, (ge_dtype)dt, 2, dims))) return GE__HC_OUT_FAILED(c);
  for (i = 0; i < y->numel; i++) ge__hc_set_f(y, i, 0);
  if (!(bins = (int64_t *)ge__hc_ex_alloc(c, (size_t)(nmel + 2) * sizeof(int64_t)))) return GE__HC_OUT_FAILED(c);
  lmel = 2595 * log10(1 + lo / 700);
  hmel = 2595 * log10(1 + hi / 700);
  step = (hmel - lmel) / (double)(nmel + 2);
  for (i = 0; i < nmel + 2; i++) {
    double hz = 700 * (pow(10, ((double)i * step + lmel) / 2595) - 1);
    bins[i] = (int64_t)floor((double)(dftl + 1) * hz / rate);
    if (bins[i] < 0) bins[i] = 0;
    if (bins[i] >= nspec) bins[i] = nspec - 1;
  }
  for (i = 0; i < nmel; i++) {
    int64_t l = bins[i], ce = bins[i + 1], h = bins[i + 2];
    if (ce - l == 0) ge__hc_set_f(y, ce * nmel + i, 1);
    else
      for (j = l; j <= ce; j++) ge__hc_set_f(y, j * nmel + i, (double)(j - l) / (double)(ce - l));
    if (h - ce > 0)
      for (j = ce; j < h; j++) ge__hc_set_f(y, j * nmel + i, (double)(h - j) / (double)(h - ce));
  }
  free(bins);
  return GE_OK;
}

/* ---------------------------------------------------------- MaxUnpool */

static ge_status ge__hc_max_unpool(ge_kernel_ctx *c) {
  const ge_value *x = c->num_inputs > 0 ? c->inputs[0] : NULL, *ix = c->num_inputs > 1 ? c->inputs[1] : NULL;
  const ge_value *os = c->num_inputs > 2 ? c->inputs[2] : NULL;
  const int64_t *ks = NULL, *pads = NULL, *strides = NULL;
  int32_t nk = ge_node_attr_ints(c->node, "kernel_shape", &ks), np = ge_node_attr_ints(c->node, "pads", &pads);
  int32_t ns = ge_node_attr_ints(c->node, "strides", &strides), sp, d;
  int64_t dims[GE_MAX_RANK], odims[GE_MAX_RANK], i, total;
  ge_value *y;
  if (!x || !ix || x->rank < 3 || ix->rank != x->rank) return ge_kernel_error(c, GE_ERR_SHAPE, "X and I must be (N, C, ...) of one rank");
  for (d = 0; d < x->rank; d++)
    if (ix->dims[d] != x->dims[d]) return ge_kernel_error(c, GE_ERR_SHAPE, "I differs in shape from X");
  if (ix->dtype != GE_DTYPE_INT64) return ge_kernel_error(c, GE_ERR_INVALID, "I must be int64");
  sp = x->rank - 2;
  if (nk != sp) return ge_kernel_error(c, GE_ERR_INVALID, "kernel_shape needs %d entries", (int)sp);
  if ((np >= 0 && np != 2 * sp) || (ns >= 0 && ns != sp)) return ge_kernel_error(c, GE_ERR_INVALID, "bad pads or strides");
  dims[0] = x->dims[0];
  dims[1] = x->dims[1];
  for (d = 0; d < sp; d++)
    dims[d + 2] = (x->dims[d + 2] - 1) * (ns > 0 ? strides[d] : 1) + ks[d] - (np > 0 ? pads[d] + pads[d + sp] : 0);
  memcpy(odims, dims, sizeof dims);
  if (os) { /* indices stay relative to the default shape (as the reference) */
    if (os->rank != 1 || os->dims[0] != x->rank || ge__hc_is_float(os->dtype))
      return ge_kernel_error(c, GE_ERR_SHAPE, "output_shape must be an integer [%d] tensor", (int)x->rank);
    for (d = 0; d < x->rank; d++) odims[d] = ge__hc_get_i(os, d);
  }
  for (d = 0; d < x->rank; d++)
    if (dims[d] < 0 || odims[d] < 0) return ge_kernel_error(c, GE_ERR_SHAPE, "negative output dimension");
  if (!(y = ge_kernel_output(c, 0, x->dtype, x->rank, odims))) return GE__HC_OUT_FAILED(c);
  memset(y->data, 0, y->nbytes);
  total = ge__hc_ex_prod(dims, 0, x->rank);
  for (i = 0; i < x->numel; i++) {
    int64_t at = ge__hc_get_i(ix, i), rem, to = 0, mul = 1;
    if (at < 0 || at >= total) return ge_kernel_error(c, GE_ERR_INVALID, "index %lld out of range", (long long)at);
    for (d = x->rank - 1, rem = at; d >= 0; d--) {
      int64_t q = rem % dims[d];
      rem /= dims[d];
      if (q >= odims[d]) return ge_kernel_error(c, GE_ERR_INVALID, "index %lld falls outside output_shape", (long long)at);
      to += q * mul;
      mul *= odims[d];
    }
    memcpy((char *)y->data + (size_t)to * ge_dtype_size(x->dtype), (const char *)x->data + (size_t)i * ge_dtype_size(x->dtype),
           ge_dtype_size(x->dtype));
  }
  return GE_OK;
}

/* ----------------------------------------------------------- RoiAlign */

static ge_status ge__hc_roi_align(ge_kernel_ctx *c) {
  const ge_value *x = c->num_inputs > 0 ? c->inputs[0] : NULL, *rois = c->num_inputs > 1 ? c->inputs[1] : NULL;
  const ge_value *bi = c->num_inputs > 2 ? c->inputs[2] : NULL;
  const char *ms = ge_node_attr_string(c->node, "mode", "avg");
  const char *ct = ge_node_attr_string(c->node, "coordinate_transformation_mode", "half_pixel");
  int64_t oh = ge_node_attr_int(c->node, "output_height", 1), ow = ge_node_attr_int(c->node, "output_width", 1);
  int64_t sr = ge_node_attr_int(c->node, "sampling_ratio", 0), nr, ch, hgt, wid, r, cc, ph, pw, iy, ix, dims[4];
  double scale = ge_node_attr_float(c->node, "spatial_scale", 1.0);
  int is_max, half;
  ge_value *y;
  if (strcmp(ms, "avg") == 0) is_max = 0;
  else if (strcmp(ms, "max") == 0) is_max = 1;
  else return ge_kernel_error(c, GE_ERR_INVALID, "bad mode '%s'", ms);
  if (strcmp(ct, "half_pixel") == 0) half = 1;
  else if (strcmp(ct, "output_half_pixel") == 0) half = 0;
  else return ge_kernel_error(c, GE_ERR_INVALID, "bad coordinate_transformation_mode '%s'", ct);
  if (!x || !rois || !bi || !ge__hc_is_float(x->dtype) || x->rank != 4 || rois->rank != 2 || rois->dims[1] != 4 ||
      !ge__hc_is_float(rois->dtype) || bi->rank != 1 || bi->dims[0] != rois->dims[0] || ge__hc_is_float(bi->dtype))
    return ge_kernel_error(c, GE_ERR_SHAPE, "needs X (N, C, H, W), rois (R, 4) and batch_indices (R)");
  if (oh < 1 || ow < 1 || sr < 0) return ge_kernel_error(c, GE_ERR_INVALID, "bad output size or sampling_ratio");
  nr = rois->dims[0];
  ch = x->dims[1];
  hgt = x->dims[2];
  wid = x->dims[3];
  dims[0] = nr;
  dims[1] = ch;
  dims[2] = oh;
  dims[3] = ow;
  if (!(y = ge_kernel_output(c, 0, x->dtype, 4, dims))) return GE__HC_OUT_FAILED(c);
  for (r = 0; r < nr; r++) {
    int64_t b = ge__hc_get_i(bi, r), gh, gw;
    double off = half ? 0.5 : 0, sw = ge__hc_get_f(rois, r * 4) * scale - off, sh = ge__hc_get_f(rois, r * 4 + 1) * scale - off;
    double rw = ge__hc_get_f(rois, r * 4 + 2) * scale - off - sw, rh = ge__hc_get_f(rois, r * 4 + 3) * scale - off - sh, bh, bw, cnt;
    if (b < 0 || b >= x->dims[0]) return ge_kernel_error(c, GE_ERR_INVALID, "batch index %lld out of range", (long long)b);
    if (!half) {
      if (rw < 1) rw = 1;
      if (rh < 1) rh = 1;
    }
    bh = rh / (double)oh;
    bw = rw / (double)ow;
    gh = sr > 0 ? sr : (int64_t)ceil(rh / (double)oh);
    gw = sr > 0 ? sr : (int64_t)ceil(rw / (double)ow);
    if (gh < 0 || gw < 0 || gh > 1 << 20 || gw > 1 << 20) return ge_kernel_error(c, GE_ERR_INVALID, "bad roi");
    cnt = (double)(gh * gw > 1 ? gh * gw : 1);
    for (cc = 0; cc < ch; cc++) {
      int64_t base = (b * ch + cc) * hgt * wid;
      for (ph = 0; ph < oh; ph++)
        for (pw = 0; pw < ow; pw++) {
          double acc = 0;
          int first = 1;
          for (iy = 0; iy < gh; iy++)
            for (ix = 0; ix < gw; ix++) {
              double yy = sh + (double)ph * bh + ((double)iy + 0.5) * bh / (double)gh;
              double xx = sw + (double)pw * bw + ((double)ix + 0.5) * bw / (double)gw, ly, lx, v[4], w[4];
              int64_t y0, x0, y1, x1;
              int q;
              if (yy < -1.0 || yy > (double)hgt || xx < -1.0 || xx > (double)wid || yy != yy || xx != xx) {
                for (q = 0; q < 4; q++) v[q] = w[q] = 0;
              } else {
                if (yy < 0) yy = 0;
                if (xx < 0) xx = 0;
                y0 = (int64_t)yy;
                x0 = (int64_t)xx;
                if (y0 >= hgt - 1) {
                  y0 = y1 = hgt - 1;
                  yy = (double)y0;
                } else
                  y1 = y0 + 1;
                if (x0 >= wid - 1) {
                  x0 = x1 = wid - 1;
                  xx = (double)x0;
                } else
                  x1 = x0 + 1;
                ly = yy - (double)y0;
                lx = xx - (double)x0;
                w[0] = (1 - ly) * (1 - lx);
                w[1] = (1 - ly) * lx;
                w[2] = ly * (1 - lx);
                w[3] = ly * lx;
                v[0] = ge__hc_get_f(x, base + y0 * wid + x0);
                v[1] = ge__hc_get_f(x, base + y0 * wid + x1);
                v[2] = ge__hc_get_f(x, base + y1 * wid + x0);
                v[3] = ge__hc_get_f(x, base + y1 * wid + x1);
              }
              if (is_max) {
                double m = w[0] * v[0];
                for (q = 1; q < 4; q++)
                  if (w[q] * v[q] > m) m = w[q] * v[q];
                if (first || m > acc) acc = m;
                first = 0;
              } else
                acc += w[0] * v[0] + w[1] * v[1] + w[2] * v[2] + w[3] * v[3];
            }
          ge__hc_set_f(y, ((r * ch + cc) * oh + ph) * ow + pw, is_max ? acc : acc / cnt);
        }
    }
  }
  return GE_OK;
}

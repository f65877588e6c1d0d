/* partition_frag/multibatch.h — fragment of ge_partition.h (merged later). */
#include "ge_partition.h"
/* @decl-begin */
#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------- multi-batch */

/* Multi-batch (seed 001 §2.1, §4.1, §5.5, GE's MultiBatchClonePass): a
 * graph with dynamic input dims and a list of shape tiers becomes
 *
 *   root:   Data... (-1 at the dynamic dims, range min..max of the tiers)
 *           GetDynamicDims(the dynamic inputs) -> int64 [S]
 *           MapIndex(dims, Const tiers [T, S]) -> int32 tier index
 *           Case(index, Data...) -> NetOutput (the original output names)
 *   branch t of the Case: a clone of the original graph whose Data nodes
 *           have tier t's static shapes, shapes re-inferred.
 *
 * Options (atc's flags, GE's keys; the three dynamic ones are mutually
 * exclusive; tier counts 2..100, values > 0, tiers distinct):
 *   ge.dynamicBatchSize  "1,4,8,16"         dim 0 of the dynamic inputs
 *   ge.dynamicImageSize  "224,224;256,256"  H,W of 4-D inputs (per ge.inputFormat)
 *   ge.dynamicDims       "1,32;1,64"        a value for each -1 of ge.inputShape, in order
 *   ge.inputShape        "x:1,-1,128;y:-1,3" shapes of named inputs, -1 at dynamic dims
 *                        (needed by ge.dynamicDims; otherwise the dynamic inputs are those
 *                        whose dim 0 / H and W are -1 or symbolic)
 *   ge.inputFormat       NCHW, NHWC or ND (unset: each input's own format, else NCHW)
 *
 * The structural ops get their kernels here (ge_multibatch_kernel):
 *   GetDynamicDims  inputs: any tensors (only their dims are read); attr
 *                   shape_info = for each input [rank, d0, .., d(rank-1)]
 *                   with -1 at the dims to collect (the others must match),
 *                   attr N = number of inputs. Output: int64 [S], the
 *                   collected dims in input order.
 *   MapIndex        input 0: int32/int64 [S] dims; input 1: int32/int64
 *                   [T, S] tiers. Output: int32 scalar, the first tier equal
 *                   to the dims; none equal is an error naming the input
 *                   shapes and the tiers (attrs option, tiers, input_names,
 *                   shape_info describe them for the message).
 *
 * Thread safety: one graph is rewritten by one thread at a time; the
 * kernels are reentrant. */

/* Option strings are borrowed: they must outlive the desc. Zero: no
 * multi-batch. */
typedef struct ge_multibatch_desc {
  const char *dynamic_batch_size; /* ge.dynamicBatchSize */
  const char *dynamic_image_size; /* ge.dynamicImageSize */
  const char *dynamic_dims;       /* ge.dynamicDims */
  const char *input_shape;        /* ge.inputShape */
  const char *input_format;       /* ge.inputFormat: NULL = NCHW */
} ge_multibatch_desc;

/* Sets one option by its GE key after checking its value: GE_ERR_NOT_FOUND
 * for another key, GE_ERR_INVALID for a bad value or a second dynamic
 * option (the message names the option and the part at fault). An empty
 * value unsets the option. */
GE_API ge_status ge_multibatch_set_option(ge_multibatch_desc *d, const char *key, const char *value, ge_error *err);
/* True when one of the three dynamic options is set. */
GE_API int ge_multibatch_enabled(const ge_multibatch_desc *d);
/* Rewrites g (a root graph) in place as described above. GE_OK and nothing
 * changed when no dynamic option is set. Errors (g unchanged): a bad
 * option, a graph already holding a multi-batch Case, ge.inputShape naming
 * an input g lacks or giving another rank, inputs left dynamic that no tier
 * fixes, shape inference failing for a tier (the tier is named). */
GE_API ge_status ge_multibatch_apply(ge_graph *g, const ge_multibatch_desc *d, ge_error *err);
/* The kernels of GetDynamicDims and MapIndex (default domain); NULL for
 * any other op. For an engine's kernel lookup or an executor's. */
GE_API ge_kernel_fn ge_multibatch_kernel(const ge_node *n);
GE_API ge_status ge_multibatch_kernel_get_dynamic_dims(ge_kernel_ctx *c);
GE_API ge_status ge_multibatch_kernel_map_index(ge_kernel_ctx *c);

/* The attribute marking the Case this pass made (string: the option key). */
#define GE_MULTIBATCH_ATTR "_multibatch_option"
#define GE_MULTIBATCH_MIN_TIERS 2
#define GE_MULTIBATCH_MAX_TIERS 100

#ifdef __cplusplus
}
#endif
/* @decl-end */
#if defined(GE_IMPLEMENTATION) || defined(GE_PARTITION_IMPLEMENTATION)
#ifndef GE_PARTITION_MB_DONE
#define GE_PARTITION_MB_DONE
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
/* @impl-begin */
#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------ option parsing */

#define GE__MB_KEY_BATCH "ge.dynamicBatchSize"
#define GE__MB_KEY_IMAGE "ge.dynamicImageSize"
#define GE__MB_KEY_DIMS "ge.dynamicDims"
#define GE__MB_KEY_SHAPE "ge.inputShape"
#define GE__MB_KEY_FORMAT "ge.inputFormat"
#define GE__MB_VALUE_MAX ((int64_t)1 << 40)

typedef enum ge__mb_kind { GE__MB_NONE, GE__MB_BATCH, GE__MB_IMAGE, GE__MB_DIMS } ge__mb_kind;

/* Tiers: count rows of width values each. */
typedef struct ge__mb_tiers {
  int64_t *v;
  int32_t count, width;
} ge__mb_tiers;

/* One ge.inputShape entry: name (not NUL-terminated) and dims. */
typedef struct ge__mb_entry {
  const char *name;
  size_t name_len;
  int32_t rank;
  int64_t dims[GE_MAX_RANK];
} ge__mb_entry;

static int ge__mb_space(char ch) { return ch == ' ' || ch == '\t'; }

/* Parses an integer from s[0..n) (spaces around allowed). */
static int ge__mb_int(const char *s, size_t n, int64_t *out) {
  size_t i = 0;
  int neg = 0;
  int64_t v = 0;
  while (i < n && ge__mb_space(s[i])) i++;
  while (n > i && ge__mb_space(s[n - 1])) n--;
  if (i < n && (s[i] == '-' || s[i] == '+')) neg = s[i++] == '-';
  if (i == n) return 0;
  for (; i < n; i++) {
    if (s[i] < '0' || s[i] > '9') return 0;
    if (v > (GE__MB_VALUE_MAX - (s[i] - '0')) / 10) return 0; /* absurdly large */
    v = v * 10 + (s[i] - '0');
  }
  *out = neg ? -v : v;
  return 1;
}

/* Number of occurrences of ch in s[0..n). */
static size_t ge__mb_count(const char *s, size_t n, char ch) {
  size_t i, k = 0;
  for (i = 0; i < n; i++) k += s[i] == ch;
  return k;
}

/* True when s[0..n) is only spaces. */
static int ge__mb_blank(const char *s, size_t n) {
  size_t i;
  for (i = 0; i < n; i++)
    if (!ge__mb_space(s[i])) return 0;
  return 1;
}

/* Parses tiers: batch "1,4,8" (one value per tier), else "a,b;c,d". */
static ge_status ge__mb_parse_tiers(const char *key, const char *s, ge__mb_kind kind, ge__mb_tiers *out, ge_error *err) {
  size_t len = strlen(s), pos = 0, ntiers;
  char tsep = kind == GE__MB_BATCH ? ',' : ';';
  int32_t t = 0, used = 0, cap;
  memset(out, 0, sizeof *out);
  ntiers = ge__mb_count(s, len, tsep) + 1;
  if (ge__mb_blank(s, len)) return ge_error_set(err, GE_ERR_INVALID, "%s: no tiers given", key);
  if (ntiers < GE_MULTIBATCH_MIN_TIERS)
    return ge_error_set(err, GE_ERR_INVALID, "%s=%.200s: %u tier given, at least %d are needed", key, s, (unsigned)ntiers,
                        GE_MULTIBATCH_MIN_TIERS);
  if (ntiers > GE_MULTIBATCH_MAX_TIERS)
    return ge_error_set(err, GE_ERR_INVALID, "%s=%.120s...: %lu tiers given, at most %d are allowed", key, s,
                        (unsigned long)ntiers, GE_MULTIBATCH_MAX_TIERS);
  /* the widest tier bounds the storage: no tier can be wider than the string */
  cap = (int32_t)(ntiers * (ge__mb_count(s, len, ',') + 1));
  if (!(out->v = (int64_t *)malloc(sizeof(int64_t) * (size_t)cap)))
    return ge_error_set(err, GE_ERR_NOMEM, "%s: out of memory", key);
  for (t = 0; t < (int32_t)ntiers; t++) {
    size_t end = pos, p, w = 0;
    while (end < len && s[end] != tsep) end++;
    if (ge__mb_blank(s + pos, end - pos)) {
      ge_error_set(err, GE_ERR_INVALID, "%s=%.200s: tier %d is empty", key, s, (int)t + 1);
      goto fail;
    }
    for (p = pos; p <= end; w++) {
      size_t q = p;
      int64_t v;
      while (q < end && s[q] != ',') q++;
      if (!ge__mb_int(s + p, q - p, &v) || v <= 0) {
        int ok = ge__mb_int(s + p, q - p, &v);
        if (ok)
          ge_error_set(err, GE_ERR_INVALID, "%s=%.200s: tier %d has value %lld; values must be positive", key, s, (int)t + 1,
                       (long long)v);
        else
          ge_error_set(err, GE_ERR_INVALID, "%s=%.200s: '%.*s' in tier %d is not a positive integer", key, s,
                       (int)(q - p > 40 ? 40 : q - p), s + p, (int)t + 1);
        goto fail;
      }
      out->v[used++] = v;
      p = q + 1;
    }
    if (t == 0) out->width = (int32_t)w;
    else if ((int32_t)w != out->width) {
      ge_error_set(err, GE_ERR_INVALID, "%s=%.200s: tier %d has %u values but tier 1 has %d; every tier needs the same count",
                   key, s, (int)t + 1, (unsigned)w, (int)out->width);
      goto fail;
    }
    pos = end + 1;
  }
  out->count = (int32_t)ntiers;
  if (kind == GE__MB_IMAGE && out->width != 2) {
    ge_error_set(err, GE_ERR_INVALID, "%s=%.200s: each tier needs 2 values (H,W), tier 1 has %d", key, s, (int)out->width);
    goto fail;
  }
  for (t = 1; t < out->count; t++) {
    int32_t u;
    for (u = 0; u < t; u++)
      if (!memcmp(out->v + (size_t)t * (size_t)out->width, out->v + (size_t)u * (size_t)out->width,
                  sizeof(int64_t) * (size_t)out->width)) {
        ge_error_set(err, GE_ERR_INVALID, "%s=%.200s: tiers %d and %d are the same; tiers must be distinct", key, s, (int)u + 1,
                     (int)t + 1);
        goto fail;
      }
  }
  return GE_OK;
fail:
  free(out->v);
  memset(out, 0, sizeof *out);
  return err ? err->code : GE_ERR_INVALID;
}

/* Parses ge.inputShape into *out (malloc'ed, *n entries). */
static ge_status ge__mb_parse_shape(const char *s, ge__mb_entry **out, int32_t *n, ge_error *err) {
  size_t len = strlen(s), pos = 0, count = ge__mb_count(s, len, ';') + 1, k;
  ge__mb_entry *e;
  *out = NULL;
  *n = 0;
  if (ge__mb_blank(s, len)) return ge_error_set(err, GE_ERR_INVALID, GE__MB_KEY_SHAPE ": no inputs given");
  if (!(e = (ge__mb_entry *)calloc(count, sizeof *e))) return ge_error_set(err, GE_ERR_NOMEM, GE__MB_KEY_SHAPE ": out of memory");
  for (k = 0; k < count; k++) {
    size_t end = pos, colon, p, j;
    while (end < len && s[end] != ';') end++;
    for (colon = end; colon > pos && s[colon - 1] != ':'; colon--) {
    }
    if (colon == pos) {
      ge_error_set(err, GE_ERR_INVALID, GE__MB_KEY_SHAPE "=%.200s: entry %u ('%.*s') is not NAME:DIMS", s, (unsigned)k + 1,
                   (int)(end - pos > 60 ? 60 : end - pos), s + pos);
      goto fail;
    }
    e[k].name = s + pos;
    e[k].name_len = colon - 1 - pos;
    while (e[k].name_len && ge__mb_space(*e[k].name)) e[k].name++, e[k].name_len--;
    while (e[k].name_len && ge__mb_space(e[k].name[e[k].name_len - 1])) e[k].name_len--;
    if (!e[k].name_len) {
      ge_error_set(err, GE_ERR_INVALID, GE__MB_KEY_SHAPE "=%.200s: entry %u has no input name", s, (unsigned)k + 1);
      goto fail;
    }
    for (j = 0; j < k; j++)
      if (e[j].name_len == e[k].name_len && !memcmp(e[j].name, e[k].name, e[k].name_len)) {
        ge_error_set(err, GE_ERR_INVALID, GE__MB_KEY_SHAPE "=%.200s: input '%.*s' is given twice", s, (int)e[k].name_len,
                     e[k].name);
        goto fail;
      }
    if (!ge__mb_blank(s + colon, end - colon)) /* empty dims: a scalar */
      for (p = colon; p <= end;) {
        size_t q = p;
        int64_t v;
        while (q < end && s[q] != ',') q++;
        if (e[k].rank == GE_MAX_RANK) {
          ge_error_set(err, GE_ERR_INVALID, GE__MB_KEY_SHAPE "=%.200s: input '%.*s' has more than %d dims", s,
                       (int)e[k].name_len, e[k].name, GE_MAX_RANK);
          goto fail;
        }
        if (!ge__mb_int(s + p, q - p, &v) || v < -1) {
          ge_error_set(err, GE_ERR_INVALID, GE__MB_KEY_SHAPE "=%.200s: dim '%.*s' of input '%.*s' is not -1 or a size >= 0", s,
                       (int)(q - p > 40 ? 40 : q - p), s + p, (int)e[k].name_len, e[k].name);
          goto fail;
        }
        e[k].dims[e[k].rank++] = v;
        p = q + 1;
      }
    pos = end + 1;
  }
  *out = e;
  *n = (int32_t)count;
  return GE_OK;
fail:
  free(e);
  return err ? err->code : GE_ERR_INVALID;
}

static ge_status ge__mb_parse_format(const char *v, ge_format *f, ge_error *err) {
  if (!v || !*v || !strcmp(v, "NCHW")) *f = GE_FORMAT_NCHW;
  else if (!strcmp(v, "NHWC")) *f = GE_FORMAT_NHWC;
  else if (!strcmp(v, "ND")) *f = GE_FORMAT_ND;
  else return ge_error_set(err, GE_ERR_INVALID, GE__MB_KEY_FORMAT "=%.60s: expected NCHW, NHWC or ND", v);
  return GE_OK;
}

/* The set dynamic option (kind, key, value); an error when two are set. */
static ge_status ge__mb_which(const ge_multibatch_desc *d, ge__mb_kind *kind, const char **key, const char **value,
                              ge_error *err) {
  const char *keys[3] = {GE__MB_KEY_BATCH, GE__MB_KEY_IMAGE, GE__MB_KEY_DIMS};
  const char *vals[3];
  int i, first = -1;
  vals[0] = d->dynamic_batch_size, vals[1] = d->dynamic_image_size, vals[2] = d->dynamic_dims;
  *kind = GE__MB_NONE;
  for (i = 0; i < 3; i++) {
    if (!vals[i] || !*vals[i]) continue;
    if (first >= 0)
      return ge_error_set(err, GE_ERR_INVALID, "%s and %s are mutually exclusive: set only one", keys[first], keys[i]);
    first = i;
  }
  if (first < 0) return GE_OK;
  *kind = (ge__mb_kind)(GE__MB_BATCH + first);
  *key = keys[first];
  *value = vals[first];
  return GE_OK;
}

GE_API int ge_multibatch_enabled(const ge_multibatch_desc *d) {
  return d && ((d->dynamic_batch_size && *d->dynamic_batch_size) || (d->dynamic_image_size && *d->dynamic_image_size) ||
               (d->dynamic_dims && *d->dynamic_dims));
}

GE_API ge_status ge_multibatch_set_option(ge_multibatch_desc *d, const char *key, const char *value, ge_error *err) {
  ge_multibatch_desc t;
  const char **slot;
  ge__mb_kind kind = GE__MB_NONE, k2;
  const char *k_, *v_;
  ge_status st;
  if (!d || !key) return ge_error_set(err, GE_ERR_INVALID, "ge_multibatch_set_option: no desc or key");
  t = *d;
  if (!strcmp(key, GE__MB_KEY_BATCH)) slot = &t.dynamic_batch_size, kind = GE__MB_BATCH;
  else if (!strcmp(key, GE__MB_KEY_IMAGE)) slot = &t.dynamic_image_size, kind = GE__MB_IMAGE;
  else if (!strcmp(key, GE__MB_KEY_DIMS)) slot = &t.dynamic_dims, kind = GE__MB_DIMS;
  else if (!strcmp(key, GE__MB_KEY_SHAPE)) slot = &t.input_shape;
  else if (!strcmp(key, GE__MB_KEY_FORMAT)) slot = &t.input_format;
  else return ge_error_set(err, GE_ERR_NOT_FOUND, "unknown multi-batch option '%.100s'", key);
  if (value && !*value) value = NULL; /* empty: unset */
  if (value && kind != GE__MB_NONE) {
    ge__mb_tiers tiers;
    if ((st = ge__mb_parse_tiers(key, value, kind, &tiers, err))) return st;
    free(tiers.v);
  } else if (value && slot == &t.input_shape) {
    ge__mb_entry *e;
    int32_t n;
    if ((st = ge__mb_parse_shape(value, &e, &n, err))) return st;
    free(e);
  } else if (value) {
    ge_format f;
    if ((st = ge__mb_parse_format(value, &f, err))) return st;
  }
  *slot = value;
  if ((st = ge__mb_which(&t, &k2, &k_, &v_, err))) return st;
  *d = t;
  return GE_OK;
}

/* ----------------------------------------------------------- the kernels */

static int ge__mb_int_dtype(const ge_value *v) { return v && (v->dtype == GE_DTYPE_INT32 || v->dtype == GE_DTYPE_INT64); }
static int64_t ge__mb_at(const ge_value *v, int64_t i) {
  return v->dtype == GE_DTYPE_INT64 ? ((const int64_t *)v->data)[i] : (int64_t)((const int32_t *)v->data)[i];
}

GE_API ge_status ge_multibatch_kernel_get_dynamic_dims(ge_kernel_ctx *c) {
  const int64_t *info = NULL;
  int32_t ni = ge_node_attr_ints(c->node, "shape_info", &info), pass;
  int64_t want_n = ge_node_attr_int(c->node, "N", -1), count = 0;
  ge_value *y = NULL;
  if (ni < 0) return ge_kernel_error(c, GE_ERR_INVALID, "attribute shape_info is missing");
  if (want_n >= 0 && want_n != (int64_t)c->num_inputs)
    return ge_kernel_error(c, GE_ERR_INVALID, "attribute N is %lld but the node has %u inputs", (long long)want_n,
                           (unsigned)c->num_inputs);
  for (pass = 0; pass < 2; pass++) { /* count, then fill */
    int32_t pos = 0;
    int64_t at = 0;
    uint32_t i;
    for (i = 0; i < c->num_inputs; i++) {
      const ge_value *x = c->inputs[i];
      int64_t r;
      int32_t j;
      if (pos >= ni || (r = info[pos]) < 0 || r > GE_MAX_RANK || r > ni - pos - 1)
        return ge_kernel_error(c, GE_ERR_INVALID, "attribute shape_info does not describe input %u", (unsigned)i);
      if (!x) return ge_kernel_error(c, GE_ERR_INVALID, "input %u is missing", (unsigned)i);
      if (x->rank != (int32_t)r)
        return ge_kernel_error(c, GE_ERR_SHAPE, "input %u has rank %d, %lld expected", (unsigned)i, (int)x->rank, (long long)r);
      for (j = 0; j < (int32_t)r; j++) {
        int64_t w = info[pos + 1 + j];
        if (w < 0) {
          if (pass) ((int64_t *)y->data)[at] = x->dims[j];
          at++;
        } else if (x->dims[j] != w) {
          return ge_kernel_error(c, GE_ERR_SHAPE, "input %u: dim %d is %lld, %lld expected", (unsigned)i, (int)j,
                                 (long long)x->dims[j], (long long)w);
        }
      }
      pos += 1 + (int32_t)r;
    }
    if (pos != ni) return ge_kernel_error(c, GE_ERR_INVALID, "attribute shape_info describes more inputs than the node has");
    count = at;
    if (!pass && !(y = ge_kernel_output(c, 0, GE_DTYPE_INT64, 1, &count))) return c->err->code ? c->err->code : GE_ERR_NOMEM;
  }
  return GE_OK;
}

/* Appends to buf[*at..cap) like snprintf, keeping it NUL-terminated. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 4, 5)))
#endif
static void ge__mb_put(char *buf, size_t cap, size_t *at, const char *fmt, ...);
static void ge__mb_put(char *buf, size_t cap, size_t *at, const char *fmt, ...) {
  va_list ap;
  int w;
  if (*at >= cap) return;
  va_start(ap, fmt);
  w = vsnprintf(buf + *at, cap - *at, fmt, ap);
  va_end(ap);
  if (w > 0) *at = *at + (size_t)w < cap ? *at + (size_t)w : cap - 1;
}

/* "input shape x[3,8]" / "input shapes x[3,8], y[3,2]" from the attrs
 * input_names and shape_info and the dims found; "dynamic dims [3]"
 * without them. */
static int ge__mb_describe(const ge_kernel_ctx *c, const ge_value *dims, char *buf, size_t cap) {
  const ge_attr *names = ge_node_attr(c->node, "input_names");
  const int64_t *info = NULL;
  int32_t ni = ge_node_attr_ints(c->node, "shape_info", &info), pos = 0, k = 0, j, r;
  int64_t used = 0;
  size_t at = 0;
  int ok = names && names->type == GE_ATTR_STRINGS && ni > 0;
  buf[0] = 0;
  /* check the attributes describe dims exactly */
  for (k = 0; ok && pos < ni; k++) {
    r = (int32_t)info[pos];
    if (r < 0 || r > GE_MAX_RANK || r > ni - pos - 1 || k >= names->count) ok = 0;
    for (j = 0; ok && j < r; j++) used += info[pos + 1 + j] < 0;
    pos += 1 + r;
  }
  if (ok && (k != names->count || used != dims->numel)) ok = 0;
  if (!ok) {
    ge__mb_put(buf, cap, &at, "dynamic dims [");
    for (j = 0; j < dims->numel && j < 16; j++) ge__mb_put(buf, cap, &at, "%s%lld", j ? "," : "", (long long)ge__mb_at(dims, j));
    ge__mb_put(buf, cap, &at, "%s]", dims->numel > 16 ? ",..." : "");
    return 1;
  }
  ge__mb_put(buf, cap, &at, "input shape%s ", names->count > 1 ? "s" : "");
  used = 0;
  for (k = 0, pos = 0; k < names->count; k++) {
    r = (int32_t)info[pos];
    ge__mb_put(buf, cap, &at, "%s%.40s[", k ? ", " : "", names->v.strings[k]);
    for (j = 0; j < r; j++) {
      int64_t w = info[pos + 1 + j];
      ge__mb_put(buf, cap, &at, "%s%lld", j ? "," : "", (long long)(w < 0 ? ge__mb_at(dims, used++) : w));
    }
    ge__mb_put(buf, cap, &at, "]");
    pos += 1 + r;
  }
  return names->count > 1;
}

GE_API ge_status ge_multibatch_kernel_map_index(ge_kernel_ctx *c) {
  const ge_value *x = c->num_inputs > 0 ? c->inputs[0] : NULL, *tab = c->num_inputs > 1 ? c->inputs[1] : NULL;
  int64_t s, t, rows, j;
  ge_value *y;
  char shapes[160], tiers[120];
  const char *option, *tier_text;
  int plural;
  if (!ge__mb_int_dtype(x)) return ge_kernel_error(c, GE_ERR_INVALID, "input 0 (the dims) must be int32 or int64");
  if (!ge__mb_int_dtype(tab)) return ge_kernel_error(c, GE_ERR_INVALID, "input 1 (the tiers) must be int32 or int64");
  s = x->numel;
  if (s < 1 || tab->numel % s) return ge_kernel_error(c, GE_ERR_SHAPE, "%lld tier values do not make rows of %lld dims",
                                                       (long long)tab->numel, (long long)s);
  rows = tab->numel / s;
  for (t = 0; t < rows; t++) {
    for (j = 0; j < s && ge__mb_at(tab, t * s + j) == ge__mb_at(x, j); j++) {
    }
    if (j == s) break;
  }
  if (t < rows) {
    if (!(y = ge_kernel_output(c, 0, GE_DTYPE_INT32, 0, NULL))) return c->err->code ? c->err->code : GE_ERR_NOMEM;
    *(int32_t *)y->data = (int32_t)t;
    return GE_OK;
  }
  plural = ge__mb_describe(c, x, shapes, sizeof shapes);
  option = ge_node_attr_string(c->node, "option", "the tiers");
  tier_text = ge_node_attr_string(c->node, "tiers", NULL);
  if (tier_text) {
    size_t n = strlen(tier_text);
    if (n < sizeof tiers) memcpy(tiers, tier_text, n + 1);
    else snprintf(tiers, sizeof tiers, "%.*s...", (int)sizeof tiers - 4, tier_text);
  } else {
    size_t at = 0;
    tiers[0] = 0;
    for (t = 0; t < rows && at + 8 < sizeof tiers; t++)
      for (j = 0; j < s; j++)
        ge__mb_put(tiers, sizeof tiers, &at, "%s%lld", j ? "," : t ? ";" : "", (long long)ge__mb_at(tab, t * s + j));
  }
  return ge_kernel_error(c, GE_ERR_SHAPE, "%s match%s no tier of %s (%s)", shapes, plural ? "" : "es", option, tiers);
}

GE_API ge_kernel_fn ge_multibatch_kernel(const ge_node *n) {
  if (!n || !ge_node_in_onnx_domain(n)) return NULL;
  if (!strcmp(n->op, "GetDynamicDims")) return ge_multibatch_kernel_get_dynamic_dims;
  if (!strcmp(n->op, "MapIndex")) return ge_multibatch_kernel_map_index;
  return NULL;
}

/* -------------------------------------------------------------- the pass */

static int ge__mb_is(const ge_node *n, const char *op) { return !strcmp(n->op, op) && ge_node_in_onnx_domain(n); }

/* One graph input as the branches will see it. */
typedef struct ge__mb_input {
  ge_node_id id;
  const ge_node *node;
  int32_t rank;
  int64_t dims[GE_MAX_RANK]; /* the shape, -1 at the tier dims */
  int32_t col[GE_MAX_RANK];  /* tier column of a tier dim, -1 for the others */
  int32_t order;             /* position among the dynamic inputs, -1 if none */
} ge__mb_input;

typedef struct ge__mb_plan {
  ge__mb_kind kind;
  const char *key, *value;
  ge__mb_tiers tiers;
  ge__mb_entry *entries;
  int32_t num_entries;
  ge_format format; /* ge.inputFormat */
  int format_given;
  ge__mb_input *in;
  uint32_t num_in;
  uint32_t *dyn; /* indices into in[], in GetDynamicDims order */
  uint32_t num_dyn;
  int32_t slots; /* S: tier dims over all dynamic inputs */
} ge__mb_plan;

static void ge__mb_plan_free(ge__mb_plan *p) {
  free(p->tiers.v);
  free(p->entries);
  free(p->in);
  free(p->dyn);
}

static char *ge__mb_shape_text(int32_t rank, const int64_t *dims, char *buf, size_t cap) {
  ge_shape s;
  s.rank = rank, s.dims = (int64_t *)dims, s.info = NULL;
  return ge_shape_str(&s, buf, cap);
}

static ge__mb_input *ge__mb_find_input(ge__mb_plan *p, const char *name, size_t len) {
  uint32_t i;
  for (i = 0; i < p->num_in; i++)
    if (strlen(p->in[i].node->name) == len && !memcmp(p->in[i].node->name, name, len)) return &p->in[i];
  return NULL;
}

/* The H and W axes of a 4-D input. */
static void ge__mb_hw(ge_format f, int32_t *h, int32_t *w) {
  if (f == GE_FORMAT_NHWC) *h = 1, *w = 2;
  else *h = 2, *w = 3;
}

/* Marks the -1 dims of input x as tier columns per the option; an error
 * when they do not fit it. */
static ge_status ge__mb_mark(ge__mb_plan *p, ge__mb_input *x, int32_t *next_col, ge_error *err) {
  int32_t j, h, w, any = 0;
  char sh[160];
  ge_format fmt = p->format;
  if (!p->format_given) /* the input's own layout, NCHW when it has none */
    fmt = x->node->num_outputs && x->node->outputs[0].format == GE_FORMAT_NHWC ? GE_FORMAT_NHWC : GE_FORMAT_NCHW;
  ge__mb_hw(fmt, &h, &w);
  for (j = 0; j < x->rank; j++) any |= x->dims[j] < 0;
  if (!any) return GE_OK;
  ge__mb_shape_text(x->rank, x->dims, sh, sizeof sh);
  for (j = 0; j < x->rank; j++) {
    if (x->dims[j] >= 0) continue;
    if (p->kind == GE__MB_BATCH && j == 0) x->col[j] = 0;
    else if (p->kind == GE__MB_IMAGE && x->rank == 4 && (j == h || j == w)) x->col[j] = j == h ? 0 : 1;
    else if (p->kind == GE__MB_DIMS) x->col[j] = (*next_col)++;
    else if (p->kind == GE__MB_BATCH)
      return ge_error_set(err, GE_ERR_INVALID, "%s: input '%s' %s has dynamic dim %d, but the option sets only dim 0 (give the shape with " GE__MB_KEY_SHAPE ")",
                          p->key, x->node->name, sh, (int)j);
    else if (x->rank != 4)
      return ge_error_set(err, GE_ERR_INVALID, "%s: input '%s' %s is dynamic but not 4-D (H and W are set per %s)", p->key,
                          x->node->name, sh, ge_format_name(fmt));
    else
      return ge_error_set(err, GE_ERR_INVALID, "%s: input '%s' %s has dynamic dim %d, but the option sets only H and W (dims %d and %d in %s)",
                          p->key, x->node->name, sh, (int)j, (int)h, (int)w, ge_format_name(fmt));
  }
  if (p->kind == GE__MB_IMAGE && (x->col[h] < 0 || x->col[w] < 0))
    return ge_error_set(err, GE_ERR_INVALID, "%s: input '%s' %s needs both H and W dynamic (dims %d and %d in %s)", p->key,
                        x->node->name, sh, (int)h, (int)w, ge_format_name(fmt));
  x->order = (int32_t)p->num_dyn;
  p->dyn[p->num_dyn++] = (uint32_t)(x - p->in);
  for (j = 0; j < x->rank; j++) p->slots += x->col[j] >= 0;
  return GE_OK;
}

/* Reads the options and the graph's inputs into p. */
static ge_status ge__mb_plan_make(ge_graph *g, const ge_multibatch_desc *d, ge__mb_plan *p, ge_error *err) {
  ge_node_id *ids = NULL;
  uint32_t i;
  int32_t k, j, next_col = 0;
  ge_status st;
  memset(p, 0, sizeof *p);
  if ((st = ge__mb_which(d, &p->kind, &p->key, &p->value, err))) return st;
  if ((st = ge__mb_parse_tiers(p->key, p->value, p->kind, &p->tiers, err))) return st;
  if ((st = ge__mb_parse_format(d->input_format, &p->format, err))) return st;
  p->format_given = d->input_format && *d->input_format;
  if (d->input_shape && *d->input_shape && (st = ge__mb_parse_shape(d->input_shape, &p->entries, &p->num_entries, err)))
    return st;
  if (p->kind == GE__MB_DIMS && !p->entries)
    return ge_error_set(err, GE_ERR_INVALID, GE__MB_KEY_DIMS " needs " GE__MB_KEY_SHAPE " (the inputs and their -1 dims)");
  if (p->kind == GE__MB_IMAGE && p->format == GE_FORMAT_ND)
    return ge_error_set(err, GE_ERR_INVALID, GE__MB_KEY_IMAGE " needs " GE__MB_KEY_FORMAT " NCHW or NHWC, not ND");
  p->num_in = ge_graph_inputs(g, NULL, 0);
  if (!p->num_in) return ge_error_set(err, GE_ERR_INVALID, "%s: graph '%s' has no inputs", p->key, ge_graph_name(g));
  ids = (ge_node_id *)malloc(sizeof *ids * p->num_in);
  p->in = (ge__mb_input *)calloc(p->num_in, sizeof *p->in);
  p->dyn = (uint32_t *)calloc(p->num_in, sizeof *p->dyn);
  if (!ids || !p->in || !p->dyn) {
    free(ids);
    return ge_error_set(err, GE_ERR_NOMEM, "%s: out of memory", p->key);
  }
  ge_graph_inputs(g, ids, p->num_in);
  for (i = 0; i < p->num_in; i++) {
    ge__mb_input *x = &p->in[i];
    const ge_tensor_desc *o;
    x->id = ids[i];
    x->node = ge_graph_node(g, ids[i]);
    x->order = -1;
    o = x->node->num_outputs ? &x->node->outputs[0] : NULL;
    x->rank = o ? o->shape.rank : GE_RANK_UNKNOWN;
    for (j = 0; j < GE_MAX_RANK; j++) x->col[j] = -1;
    for (j = 0; j < x->rank; j++) x->dims[j] = o->shape.dims[j] < 0 ? -1 : o->shape.dims[j];
  }
  free(ids);
  /* ge.inputShape overrides the shapes of the inputs it names */
  for (k = 0; k < p->num_entries; k++) {
    ge__mb_entry *e = &p->entries[k];
    ge__mb_input *x = ge__mb_find_input(p, e->name, e->name_len);
    char a[160], b[160];
    if (!x) {
      size_t at = 0;
      char names[200];
      names[0] = 0;
      for (i = 0; i < p->num_in && i < 12; i++) ge__mb_put(names, sizeof names, &at, "%s%.40s", i ? ", " : "", p->in[i].node->name);
      if (p->num_in > 12) ge__mb_put(names, sizeof names, &at, ", ...");
      return ge_error_set(err, GE_ERR_NOT_FOUND, GE__MB_KEY_SHAPE " names input '%.*s', which graph '%s' does not have (its inputs: %s)",
                          (int)(e->name_len > 100 ? 100 : e->name_len), e->name, ge_graph_name(g), names);
    }
    if (x->rank >= 0 && x->rank != e->rank)
      return ge_error_set(err, GE_ERR_SHAPE, GE__MB_KEY_SHAPE " gives input '%s' rank %d %s, the graph's input has rank %d %s",
                          x->node->name, (int)e->rank, ge__mb_shape_text(e->rank, e->dims, a, sizeof a), (int)x->rank,
                          ge__mb_shape_text(x->rank, x->dims, b, sizeof b));
    for (j = 0; x->rank >= 0 && j < e->rank; j++)
      if (e->dims[j] >= 0 && x->dims[j] >= 0 && e->dims[j] != x->dims[j])
        return ge_error_set(err, GE_ERR_SHAPE, GE__MB_KEY_SHAPE " gives input '%s' dim %d = %lld, the graph fixes it to %lld",
                            x->node->name, (int)j, (long long)e->dims[j], (long long)x->dims[j]);
    x->rank = e->rank;
    memcpy(x->dims, e->dims, sizeof(int64_t) * (size_t)e->rank);
  }
  /* the dynamic inputs: in ge.inputShape's order when given, else by index */
  if (p->entries) {
    for (k = 0; k < p->num_entries; k++)
      if ((st = ge__mb_mark(p, ge__mb_find_input(p, p->entries[k].name, p->entries[k].name_len), &next_col, err))) return st;
  } else {
    for (i = 0; i < p->num_in; i++)
      if (p->in[i].rank >= 0 && (st = ge__mb_mark(p, &p->in[i], &next_col, err))) return st;
  }
  if (!p->num_dyn)
    return ge_error_set(err, GE_ERR_INVALID, "%s: no input of graph '%s' has %s", p->key, ge_graph_name(g),
                        p->kind == GE__MB_BATCH   ? "a dynamic dim 0 (-1 or symbolic; or mark it -1 in " GE__MB_KEY_SHAPE ")"
                        : p->kind == GE__MB_IMAGE ? "dynamic H and W (-1 or symbolic; or mark them -1 in " GE__MB_KEY_SHAPE ")"
                                                  : "a -1 dim in " GE__MB_KEY_SHAPE);
  if (p->kind == GE__MB_DIMS && next_col != p->tiers.width)
    return ge_error_set(err, GE_ERR_INVALID, GE__MB_KEY_DIMS "=%.200s: each tier has %d values but " GE__MB_KEY_SHAPE " has %d -1 dims",
                        p->value, (int)p->tiers.width, (int)next_col);
  /* every other input must be static for the branches to be */
  for (i = 0; i < p->num_in; i++) {
    ge__mb_input *x = &p->in[i];
    char a[160];
    if (x->order >= 0) continue;
    if (x->rank < 0)
      return ge_error_set(err, GE_ERR_INVALID, "%s: input '%s' has an unknown rank; give its shape with " GE__MB_KEY_SHAPE, p->key,
                          x->node->name);
    for (j = 0; j < x->rank; j++)
      if (x->dims[j] < 0)
        return ge_error_set(err, GE_ERR_INVALID, "%s: input '%s' %s stays dynamic: no tier sets dim %d (give it in " GE__MB_KEY_SHAPE ")",
                            p->key, x->node->name, ge__mb_shape_text(x->rank, x->dims, a, sizeof a), (int)j);
  }
  return GE_OK;
}

/* Input x's shape in tier t. */
static void ge__mb_tier_shape(const ge__mb_plan *p, const ge__mb_input *x, int32_t t, int64_t *dims) {
  int32_t j;
  for (j = 0; j < x->rank; j++)
    dims[j] = x->col[j] >= 0 ? p->tiers.v[(size_t)t * (size_t)p->tiers.width + (size_t)x->col[j]] : x->dims[j];
}

/* "4" / "224x224" for tier t. */
static void ge__mb_tier_text(const ge__mb_plan *p, int32_t t, char *buf, size_t cap) {
  size_t at = 0;
  int32_t j;
  buf[0] = 0;
  for (j = 0; j < p->tiers.width; j++)
    ge__mb_put(buf, cap, &at, "%s%lld", j ? "x" : "", (long long)p->tiers.v[(size_t)t * (size_t)p->tiers.width + (size_t)j]);
}

/* Clones g for tier t with static inputs and infers its shapes. */
static ge_status ge__mb_branch(ge_graph *g, const ge__mb_plan *p, int32_t t, ge_graph **out, ge_error *err) {
  ge_graph_desc gd;
  ge_node_id *ids;
  char name[200], tier[120];
  uint32_t i;
  ge_status st;
  *out = NULL;
  ge__mb_tier_text(p, t, tier, sizeof tier);
  snprintf(name, sizeof name, "%.60s_tier%d_%s", *ge_graph_name(g) ? ge_graph_name(g) : "graph", (int)t, tier);
  memset(&gd, 0, sizeof gd);
  gd.name = name;
  gd.allocator = *ge_graph_allocator(g);
  gd.registry = ge_graph_registry(g);
  if ((st = ge_graph_clone(g, &gd, out, err))) return st;
  if (!(ids = (ge_node_id *)malloc(sizeof *ids * p->num_in))) {
    ge_graph_free(*out);
    *out = NULL;
    return ge_error_set(err, GE_ERR_NOMEM, "%s: out of memory", p->key);
  }
  ge_graph_inputs(*out, ids, p->num_in);
  for (i = 0; i < p->num_in && !st; i++) {
    const ge__mb_input *x = &p->in[i];
    int64_t dims[GE_MAX_RANK];
    ge_node *dn = ge_graph_node(*out, ids[i]);
    ge__mb_tier_shape(p, x, t, dims);
    st = ge_node_set_output(*out, ids[i], 0, dn->outputs[0].dtype, x->rank, dims, NULL, err);
  }
  free(ids);
  if (!st && (st = ge_graph_infer_shapes(*out, err)) != GE_OK && err) {
    char msg[sizeof err->message];
    snprintf(msg, sizeof msg, "%s", err->message);
    ge_error_set(err, st, "%s tier %d (%s): %s", p->key, (int)t + 1, tier, msg);
  }
  if (st) {
    ge_graph_free(*out);
    *out = NULL;
  }
  return st;
}

/* The Case's output i: equal dims over the branches stay, others become -1
 * with their range (and the original output's symbol when it had one). */
static ge_status ge__mb_case_output(ge_graph *g, ge_node_id cs, uint32_t i, ge_graph *const *br, int32_t nb,
                                    const ge_tensor_desc *orig, ge_error *err) {
  int64_t dims[GE_MAX_RANK];
  ge_dim_info info[GE_MAX_RANK];
  const ge_tensor_desc *d0;
  ge_dtype dt;
  int32_t rank, t, j;
  d0 = ge_node_input_desc(br[0], ge_graph_node(br[0], ge_graph_output_node(br[0])), i);
  if (!d0) return ge_error_set(err, GE_ERR_INVALID, "graph output %u is not connected", (unsigned)i);
  dt = d0->dtype;
  rank = d0->shape.rank;
  for (t = 1; t < nb; t++) {
    const ge_tensor_desc *d = ge_node_input_desc(br[t], ge_graph_node(br[t], ge_graph_output_node(br[t])), i);
    if (!d || d->shape.rank != rank) rank = GE_RANK_UNKNOWN;
    if (d && d->dtype != dt) dt = GE_DTYPE_UNDEFINED;
  }
  if (rank > GE_MAX_RANK) rank = GE_RANK_UNKNOWN;
  for (j = 0; j < rank; j++) {
    int64_t lo = d0->shape.dims[j], hi = lo;
    int same = 1;
    for (t = 1; t < nb; t++) {
      const ge_tensor_desc *d = ge_node_input_desc(br[t], ge_graph_node(br[t], ge_graph_output_node(br[t])), i);
      int64_t v = d->shape.dims[j];
      if (v != d0->shape.dims[j]) same = 0;
      if (v < 0 || lo < 0) lo = hi = -1;
      else {
        if (v < lo) lo = v;
        if (v > hi) hi = v;
      }
    }
    info[j].symbol = NULL;
    info[j].lo = 0, info[j].hi = -1;
    if (same) {
      dims[j] = d0->shape.dims[j];
      continue;
    }
    dims[j] = -1;
    if (lo >= 0) info[j].lo = lo, info[j].hi = hi;
    if (orig && orig->shape.rank == rank && orig->shape.dims[j] < 0 && orig->shape.info) info[j].symbol = orig->shape.info[j].symbol;
  }
  return ge_node_set_output(g, cs, i, dt, rank, dims, info, err);
}

/* Rewrites g once the plan and the branches are ready; nothing can fail
 * here but memory. */
static ge_status ge__mb_rewrite(ge_graph *g, ge__mb_plan *p, ge_graph **br, ge_error *err) {
  ge_node_id out = ge_graph_output_node(g), gdd = GE_NONE, tab = GE_NONE, mi = GE_NONE, cs = GE_NONE;
  uint32_t nout = ge_graph_node(g, out)->num_inputs, i, bound = ge_graph_id_bound(g);
  ge_edge *edges = NULL;
  ge_tensor_desc *orig = NULL;
  char **names = NULL;
  const char **in_names = NULL;
  int64_t *info = NULL, *table = NULL;
  int32_t ninfo = 0, t, j, k;
  ge_status st = GE_OK;
  int branches_owned = 1;
  edges = (ge_edge *)calloc((size_t)p->num_in + nout + 1, sizeof *edges);
  orig = (ge_tensor_desc *)calloc((size_t)nout + 1, sizeof *orig);
  names = (char **)calloc((size_t)nout + 1, sizeof *names);
  in_names = (const char **)calloc((size_t)p->num_dyn + 1, sizeof *in_names);
  info = (int64_t *)malloc(sizeof(int64_t) * ((size_t)p->num_dyn * (GE_MAX_RANK + 1) + 1));
  table = (int64_t *)malloc(sizeof(int64_t) * ((size_t)p->tiers.count * (size_t)p->slots + 1));
  if (!edges || !orig || !names || !in_names || !info || !table) goto oom;
  /* what the outputs were called and looked like */
  {
    const ge_node *o = ge_graph_node(g, out);
    for (i = 0; i < nout; i++) {
      const char *nm = o->outputs[i].name;
      const ge_tensor_desc *d = ge_node_input_desc(g, o, i);
      if (!nm) nm = o->inputs[i].node != GE_NONE ? ge_graph_node(g, o->inputs[i].node)->name : "";
      if (!(names[i] = (char *)malloc(strlen(nm) + 1))) goto oom;
      memcpy(names[i], nm, strlen(nm) + 1);
      if (d) {
        orig[i] = *d;
        orig[i].shape.rank = GE_RANK_UNKNOWN; /* the symbols only, below */
        if (d->shape.rank > 0 && d->shape.rank <= GE_MAX_RANK && d->shape.info) {
          orig[i].shape.rank = d->shape.rank;
          orig[i].shape.dims = (int64_t *)calloc((size_t)d->shape.rank, sizeof(int64_t));
          orig[i].shape.info = (ge_dim_info *)calloc((size_t)d->shape.rank, sizeof(ge_dim_info));
          if (!orig[i].shape.dims || !orig[i].shape.info) goto oom;
          for (j = 0; j < d->shape.rank; j++) {
            orig[i].shape.dims[j] = d->shape.dims[j];
            if (d->shape.info[j].symbol && !(orig[i].shape.info[j].symbol = (const char *)malloc(strlen(d->shape.info[j].symbol) + 1)))
              goto oom;
            if (d->shape.info[j].symbol) memcpy((char *)orig[i].shape.info[j].symbol, d->shape.info[j].symbol, strlen(d->shape.info[j].symbol) + 1);
          }
        }
      }
    }
  }
  /* GetDynamicDims' shape_info and the tier table, in its input order */
  for (k = 0; k < (int32_t)p->num_dyn; k++) {
    const ge__mb_input *x = &p->in[p->dyn[k]];
    info[ninfo++] = x->rank;
    for (j = 0; j < x->rank; j++) info[ninfo++] = x->col[j] >= 0 ? -1 : x->dims[j];
    in_names[k] = x->node->name;
  }
  for (t = 0; t < p->tiers.count; t++) {
    int32_t s = 0;
    for (k = 0; k < (int32_t)p->num_dyn; k++) {
      const ge__mb_input *x = &p->in[p->dyn[k]];
      for (j = 0; j < x->rank; j++)
        if (x->col[j] >= 0) table[(size_t)t * (size_t)p->slots + (size_t)s++] = p->tiers.v[(size_t)t * (size_t)p->tiers.width + (size_t)x->col[j]];
    }
  }
  /* everything but the inputs goes */
  for (i = 0; i < bound && !st; i++) {
    const ge_node *n = ge_graph_node(g, i);
    if (n && !ge__mb_is(n, "Data")) st = ge_graph_remove_node(g, i, err);
  }
  /* the inputs: -1 at the tier dims, ranged over the tiers */
  for (i = 0; i < p->num_in && !st; i++) {
    const ge__mb_input *x = &p->in[i];
    ge_node *dn = ge_graph_node(g, x->id);
    ge_dim_info di[GE_MAX_RANK];
    const ge_shape *old = &dn->outputs[0].shape;
    for (j = 0; j < x->rank; j++) {
      di[j].lo = 0, di[j].hi = -1;
      di[j].symbol = old->rank == x->rank && old->info ? old->info[j].symbol : NULL;
      if (x->col[j] >= 0) {
        int64_t lo = INT64_MAX, hi = 0;
        for (t = 0; t < p->tiers.count; t++) {
          int64_t v = p->tiers.v[(size_t)t * (size_t)p->tiers.width + (size_t)x->col[j]];
          if (v < lo) lo = v;
          if (v > hi) hi = v;
        }
        di[j].lo = lo, di[j].hi = hi;
      } else {
        di[j].symbol = NULL;
      }
    }
    st = ge_node_set_output(g, x->id, 0, dn->outputs[0].dtype, x->rank, x->dims, di, err);
  }
  /* GetDynamicDims -> MapIndex(dims, tiers) -> Case */
  for (k = 0; k < (int32_t)p->num_dyn; k++) edges[k].node = p->in[p->dyn[k]].id, edges[k].index = 0;
  if (!st) st = ge_graph_add_node(g, "GetDynamicDims", "multibatch_dynamic_dims", p->num_dyn, edges, 1, &gdd, err);
  if (!st) {
    int64_t s = p->slots;
    st = ge_node_set_output(g, gdd, 0, GE_DTYPE_INT64, 1, &s, NULL, err);
  }
  if (!st) st = ge_node_set_attr_int(g, gdd, "N", (int64_t)p->num_dyn, err);
  if (!st) st = ge_node_set_attr_ints(g, gdd, "shape_info", info, ninfo, err);
  if (!st) {
    ge_tensor tt;
    int64_t td[2];
    memset(&tt, 0, sizeof tt);
    td[0] = p->tiers.count, td[1] = p->slots;
    tt.dtype = GE_DTYPE_INT64;
    tt.rank = 2;
    tt.dims = td;
    tt.data = table;
    tt.nbytes = sizeof(int64_t) * (size_t)p->tiers.count * (size_t)p->slots;
    st = ge_graph_add_const(g, "multibatch_tiers", &tt, &tab, err);
  }
  if (!st) {
    ge_edge two[2];
    two[0].node = gdd, two[0].index = 0;
    two[1].node = tab, two[1].index = 0;
    st = ge_graph_add_node(g, "MapIndex", "multibatch_index", 2, two, 1, &mi, err);
  }
  if (!st) st = ge_node_set_output(g, mi, 0, GE_DTYPE_INT32, 0, NULL, NULL, err);
  if (!st) st = ge_node_set_attr_string(g, mi, "option", p->key, err);
  if (!st) st = ge_node_set_attr_string(g, mi, "tiers", p->value, err);
  if (!st) st = ge_node_set_attr_strings(g, mi, "input_names", in_names, (int32_t)p->num_dyn, err);
  if (!st) st = ge_node_set_attr_ints(g, mi, "shape_info", info, ninfo, err);
  if (!st) {
    edges[0].node = mi, edges[0].index = 0;
    for (i = 0; i < p->num_in; i++) edges[1 + i].node = p->in[i].id, edges[1 + i].index = 0;
    st = ge_graph_add_node(g, "Case", "multibatch_case", 1 + p->num_in, edges, (int32_t)nout, &cs, err);
  }
  if (!st) {
    branches_owned = 0;
    st = ge_node_set_attr_graphs(g, cs, "branches", br, p->tiers.count, err); /* owns them, even on error */
  }
  if (!st) st = ge_node_set_attr_string(g, cs, GE_MULTIBATCH_ATTR, p->key, err);
  if (!st) st = ge_node_set_attr_string(g, cs, "_multibatch_tiers", p->value, err);
  for (i = 0; i < nout && !st; i++) st = ge__mb_case_output(g, cs, i, br, p->tiers.count, &orig[i], err);
  for (i = 0; i < nout; i++) edges[i].node = cs, edges[i].index = (int32_t)i;
  if (!st) st = ge_graph_set_outputs(g, nout, edges, (const char *const *)names, err);
  goto done;
oom:
  st = ge_error_set(err, GE_ERR_NOMEM, "%s: out of memory", p->key);
done:
  if (branches_owned)
    for (t = 0; t < p->tiers.count; t++) ge_graph_free(br[t]);
  for (i = 0; names && i < nout; i++) free(names[i]);
  for (i = 0; orig && i < nout; i++) {
    for (j = 0; orig[i].shape.info && j < orig[i].shape.rank; j++) free((void *)orig[i].shape.info[j].symbol);
    if (orig[i].shape.rank > 0) free(orig[i].shape.dims), free(orig[i].shape.info);
  }
  free(edges), free(orig), free(names), free(in_names), free(info), free(table);
  return st;
}

GE_API ge_status ge_multibatch_apply(ge_graph *g, const ge_multibatch_desc *d, ge_error *err) {
  ge__mb_plan p;
  ge_graph **br = NULL;
  ge_node *n;
  int32_t t;
  ge_status st;
  if (!ge_multibatch_enabled(d)) {
    const char *k_, *v_;
    ge__mb_kind kind;
    return d ? ge__mb_which(d, &kind, &k_, &v_, err) : GE_OK;
  }
  if (!g) return ge_error_set(err, GE_ERR_INVALID, "ge_multibatch_apply: no graph");
  if (ge_graph_parent(g))
    return ge_error_set(err, GE_ERR_INVALID, "multi-batch: graph '%s' is a subgraph; apply it to the root graph", ge_graph_name(g));
  GE_GRAPH_FOREACH(g, n) {
    if (ge_node_attr(n, GE_MULTIBATCH_ATTR))
      return ge_error_set(err, GE_ERR_INVALID, "multi-batch: graph '%s' already holds the multi-batch Case '%s' (made for %s)",
                          ge_graph_name(g), n->name, ge_node_attr_string(n, GE_MULTIBATCH_ATTR, "?"));
  }
  if (ge_graph_output_node(g) == GE_NONE)
    return ge_error_set(err, GE_ERR_INVALID, "multi-batch: graph '%s' has no NetOutput", ge_graph_name(g));
  if ((st = ge__mb_plan_make(g, d, &p, err)) != GE_OK) {
    ge__mb_plan_free(&p);
    return st;
  }
  if (!(br = (ge_graph **)calloc((size_t)p.tiers.count, sizeof *br))) {
    ge__mb_plan_free(&p);
    return ge_error_set(err, GE_ERR_NOMEM, "%s: out of memory", p.key);
  }
  for (t = 0; t < p.tiers.count && !st; t++) st = ge__mb_branch(g, &p, t, &br[t], err);
  if (st) {
    for (t = 0; t < p.tiers.count; t++) ge_graph_free(br[t]);
  } else {
    st = ge__mb_rewrite(g, &p, br, err); /* takes the branches */
  }
  free(br);
  ge__mb_plan_free(&p);
  return st;
}

#ifdef __cplusplus
}
#endif
/* @impl-end */
#endif
#endif

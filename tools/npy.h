/* npy.h — NumPy .npy files in and out of ge_values, for the ge tool.
 * Version 1.0–3.0 headers, little-endian numeric dtypes and bool, C order;
 * anything else (big-endian, structured, Fortran order, a malformed header,
 * a shape whose size overflows) is refused with a message saying what.
 * Include after ge_graph.h; everything here is static. */
#ifndef GE_TOOL_NPY_H
#define GE_TOOL_NPY_H

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const struct {
  const char *descr;
  ge_dtype dtype;
} npy_types[] = {{"f4", GE_DTYPE_FLOAT32}, {"f8", GE_DTYPE_FLOAT64}, {"f2", GE_DTYPE_FLOAT16},
                 {"i1", GE_DTYPE_INT8},    {"i2", GE_DTYPE_INT16},   {"i4", GE_DTYPE_INT32},
                 {"i8", GE_DTYPE_INT64},   {"u1", GE_DTYPE_UINT8},   {"u2", GE_DTYPE_UINT16},
                 {"u4", GE_DTYPE_UINT32},  {"u8", GE_DTYPE_UINT64},  {"b1", GE_DTYPE_BOOL}};

static int npy_fail(ge_error *err, const char *path, const char *fmt, ...) {
  char why[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, sizeof why, fmt, ap);
  va_end(ap);
  err->code = GE_ERR_FORMAT;
  snprintf(err->message, sizeof err->message, "'%.300s' is not a usable .npy file: %s", path, why);
  return GE_ERR_FORMAT;
}

/* The header is a Python dict literal; this is a strict reader of the three
 * keys numpy writes ('descr', 'fortran_order', 'shape'), whatever the
 * spacing or quotes. */
typedef struct npy_header {
  ge_dtype dtype;
  int rank, fortran;
  int64_t dims[GE_MAX_RANK];
} npy_header;

static const char *npy_skip_space(const char *p, const char *end) {
  while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) p++;
  return p;
}

/* A quoted string at p into buf; NULL when p holds none. */
static const char *npy_string(const char *p, const char *end, char *buf, size_t cap) {
  char q;
  size_t n = 0;
  if (p >= end || (*p != '\'' && *p != '"')) return NULL;
  q = *p++;
  while (p < end && *p != q) {
    if (n + 1 < cap) buf[n++] = *p;
    p++;
  }
  buf[n] = 0;
  return p < end ? p + 1 : NULL;
}

static int npy_descr(const char *d, npy_header *h, const char *path, ge_error *err) {
  size_t i;
  if (d[0] == '>') return npy_fail(err, path, "dtype '%s' is big-endian; only little-endian ('<') data is supported", d);
  if (d[0] == '=')
    return npy_fail(err, path, "dtype '%s' has native byte order ('='), which does not say how the bytes were written; expected '<' or '|'", d);
  if (d[0] != '<' && d[0] != '|') return npy_fail(err, path, "dtype '%s' has no byte order ('<' or '|')", d);
  for (i = 0; i < sizeof npy_types / sizeof npy_types[0]; i++)
    if (strcmp(d + 1, npy_types[i].descr) == 0) h->dtype = npy_types[i].dtype;
  if (h->dtype == GE_DTYPE_UNDEFINED) return npy_fail(err, path, "unsupported dtype '%s'", d);
  return GE_OK;
}

/* '(' int, int, ... ')' with an optional trailing comma. */
static const char *npy_shape(const char *p, const char *end, npy_header *h, const char *path, ge_error *err) {
  p = npy_skip_space(p + 1, end);
  while (p < end && *p != ')') {
    const char *q = p;
    int64_t d = 0;
    while (q < end && *q >= '0' && *q <= '9') {
      if (d > (INT64_MAX - (*q - '0')) / 10) {
        npy_fail(err, path, "shape entry %d is too large", h->rank);
        return NULL;
      }
      d = d * 10 + (*q++ - '0');
    }
    if (q == p && (*p == '}' || *p == ']')) break; /* the tuple ends without ')' */
    if (q == p || (q < end && *q != ',' && *q != ')' && *q != ' ')) {
      const char *e = p;
      while (e < end && *e != ',' && *e != ')' && e - p < 20) e++;
      npy_fail(err, path, "shape entry %d ('%.*s') is not a non-negative integer", h->rank, (int)(e - p), p);
      return NULL;
    }
    if (h->rank == GE_MAX_RANK) {
      npy_fail(err, path, "shape has more than %d dimensions", GE_MAX_RANK);
      return NULL;
    }
    h->dims[h->rank++] = d;
    p = npy_skip_space(q, end);
    if (p < end && *p == ',') p = npy_skip_space(p + 1, end);
    else if (p < end && *p != ')') break;
  }
  if (p >= end || *p != ')') {
    npy_fail(err, path, "the shape tuple is not closed with ')'");
    return NULL;
  }
  return p + 1;
}

static int npy_parse_header(const char *p, size_t len, npy_header *h, const char *path, ge_error *err) {
  const char *end = p + len;
  char key[32], descr[32];
  int seen = 0; /* bits: descr, fortran_order, shape */
  memset(h, 0, sizeof *h);
  p = npy_skip_space(p, end);
  if (p >= end || *p != '{') return npy_fail(err, path, "the header is not a dict");
  for (p = npy_skip_space(p + 1, end); p < end && *p != '}';) {
    int bit;
    if (!(p = npy_string(p, end, key, sizeof key))) return npy_fail(err, path, "a header key is not a quoted string");
    p = npy_skip_space(p, end);
    if (p >= end || *p != ':') return npy_fail(err, path, "no ':' after header key '%s'", key);
    p = npy_skip_space(p + 1, end);
    bit = !strcmp(key, "descr") ? 1 : !strcmp(key, "fortran_order") ? 2 : !strcmp(key, "shape") ? 4 : 0;
    if (!bit) return npy_fail(err, path, "unknown header key '%s'", key);
    if (seen & bit) return npy_fail(err, path, "header key '%s' given twice", key);
    seen |= bit;
    if (bit == 1) {
      if (p < end && *p == '[') return npy_fail(err, path, "structured dtypes (a list of fields) are not supported");
      if (!(p = npy_string(p, end, descr, sizeof descr))) return npy_fail(err, path, "'descr' is not a quoted dtype string");
      if (npy_descr(descr, h, path, err)) return GE_ERR_FORMAT;
    } else if (bit == 2) {
      if ((size_t)(end - p) >= 4 && !memcmp(p, "True", 4)) h->fortran = 1, p += 4;
      else if ((size_t)(end - p) >= 5 && !memcmp(p, "False", 5)) p += 5;
      else return npy_fail(err, path, "'fortran_order' is neither True nor False");
    } else {
      if (p >= end || *p != '(') return npy_fail(err, path, "'shape' is not a tuple");
      if (!(p = npy_shape(p, end, h, path, err))) return GE_ERR_FORMAT;
    }
    p = npy_skip_space(p, end);
    if (p < end && *p == ',') p = npy_skip_space(p + 1, end);
    else if (p < end && *p != '}') return npy_fail(err, path, "header entries are not separated by ','");
  }
  if (p >= end) return npy_fail(err, path, "the header dict is not closed with '}'");
  if (seen != 7) return npy_fail(err, path, "the header has no '%s'", !(seen & 1) ? "descr" : !(seen & 2) ? "fortran_order" : "shape");
  if (h->fortran && h->rank > 1) return npy_fail(err, path, "Fortran-ordered (column-major) data is not supported");
  return GE_OK;
}

/* Decodes a whole .npy file held in bytes[0..n) into *v (v->data malloc'ed,
 * v->capacity set); path only names it in messages. */
static int npy_decode(const unsigned char *bytes, size_t n, const char *path, ge_value *v, ge_error *err) {
  size_t hlen, at, want;
  npy_header h;
  memset(v, 0, sizeof *v);
  if (n < 10 || memcmp(bytes, "\x93NUMPY", 6) != 0) return npy_fail(err, path, "no NUMPY magic");
  if (bytes[6] == 1) hlen = (size_t)bytes[8] | (size_t)bytes[9] << 8, at = 10;
  else if ((bytes[6] == 2 || bytes[6] == 3) && n >= 12)
    hlen = (size_t)bytes[8] | (size_t)bytes[9] << 8 | (size_t)bytes[10] << 16 | (size_t)bytes[11] << 24, at = 12;
  else return npy_fail(err, path, "unknown format version %u", (unsigned)bytes[6]);
  if (hlen > n - at) return npy_fail(err, path, "the header says %zu bytes but the file ends first", hlen);
  if (npy_parse_header((const char *)bytes + at, hlen, &h, path, err)) return GE_ERR_FORMAT;
  at += hlen;
  if (!ge_dims_nbytes_checked(h.dtype, h.dims, h.rank, &want))
    return npy_fail(err, path, "the shape's element count or byte size overflows");
  if (want > n - at)
    return npy_fail(err, path, "data shorter than the shape says (%zu bytes, %zu given)", want, n - at);
  ge_value_set_shape(v, h.dtype, h.rank, h.dims);
  v->data = malloc(want ? want : 1);
  if (!v->data) {
    memset(v, 0, sizeof *v);
    err->code = GE_ERR_NOMEM;
    snprintf(err->message, sizeof err->message, "out of memory reading '%.300s' (%zu bytes)", path, want);
    return GE_ERR_NOMEM;
  }
  v->capacity = want ? want : 1;
  if (want) memcpy(v->data, bytes + at, want);
  return GE_OK;
}

/* Reads path into *v (v->data malloc'ed, v->capacity set). */
static int npy_read(const char *path, ge_value *v, ge_error *err) {
  FILE *f = fopen(path, "rb");
  unsigned char *bytes = NULL;
  long size;
  int rc;
  struct stat st;
  memset(v, 0, sizeof *v);
  if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
    if (f) fclose(f);
    err->code = GE_ERR_IO;
    snprintf(err->message, sizeof err->message, "'%.300s' is a directory, not a .npy file", path);
    return GE_ERR_IO;
  }
  if (!f) {
    err->code = GE_ERR_IO;
    snprintf(err->message, sizeof err->message, "cannot open '%.300s': %s", path, strerror(errno));
    return GE_ERR_IO;
  }
  if (fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
    fclose(f);
    err->code = GE_ERR_IO;
    snprintf(err->message, sizeof err->message, "cannot read '%.300s' (not a regular file)", path);
    return GE_ERR_IO;
  }
  if (!(bytes = (unsigned char *)malloc((size_t)size + 1)) || fread(bytes, 1, (size_t)size, f) != (size_t)size) {
    free(bytes);
    fclose(f);
    err->code = GE_ERR_IO;
    snprintf(err->message, sizeof err->message, "cannot read '%.300s' (%ld bytes)", path, size);
    return GE_ERR_IO;
  }
  fclose(f);
  rc = npy_decode(bytes, (size_t)size, path, v, err);
  free(bytes);
  return rc;
}

/* Writes v to path. */
static int npy_write(const char *path, const ge_value *v, ge_error *err) {
  const char *descr = NULL;
  char header[512];
  size_t i, n = 0;
  int32_t k;
  FILE *f;
  for (i = 0; i < sizeof npy_types / sizeof npy_types[0]; i++)
    if (npy_types[i].dtype == v->dtype) descr = npy_types[i].descr;
  if (!descr) {
    err->code = GE_ERR_UNSUPPORTED;
    snprintf(err->message, sizeof err->message, "cannot write %s values to .npy ('%.300s')", ge_dtype_name(v->dtype), path);
    return GE_ERR_UNSUPPORTED;
  }
  n = (size_t)snprintf(header, sizeof header, "{'descr': '%c%s', 'fortran_order': False, 'shape': (",
                       v->dtype == GE_DTYPE_BOOL || ge_dtype_size(v->dtype) == 1 ? '|' : '<', descr);
  for (k = 0; k < v->rank; k++)
    n += (size_t)snprintf(header + n, sizeof header - n, "%lld%s", (long long)v->dims[k], v->rank == 1 ? "," : k + 1 < v->rank ? ", " : "");
  n += (size_t)snprintf(header + n, sizeof header - n, "), }");
  while ((10 + n + 1) % 64) header[n++] = ' '; /* pad so data starts 64-aligned */
  header[n++] = '\n';
  if (!(f = fopen(path, "wb"))) {
    err->code = GE_ERR_IO;
    snprintf(err->message, sizeof err->message, "cannot write '%.300s'", path);
    return GE_ERR_IO;
  }
  fwrite("\x93NUMPY\x01\x00", 1, 8, f);
  fputc((int)(n & 255), f);
  fputc((int)(n >> 8), f);
  fwrite(header, 1, n, f);
  if (v->nbytes) fwrite(v->data, 1, v->nbytes, f);
  if (fclose(f) != 0) {
    err->code = GE_ERR_IO;
    snprintf(err->message, sizeof err->message, "cannot write '%.300s'", path);
    return GE_ERR_IO;
  }
  return GE_OK;
}

#endif

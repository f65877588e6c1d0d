/* npy.h — NumPy .npy files in and out of ge_values, for the ge tool.
 * Version 1.0–3.0 headers, little-endian numeric dtypes and bool, C order.
 * Include after ge_graph.h; everything here is static. */
#ifndef GE_TOOL_NPY_H
#define GE_TOOL_NPY_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
  const char *descr;
  ge_dtype dtype;
} npy_types[] = {{"f4", GE_DTYPE_FLOAT32}, {"f8", GE_DTYPE_FLOAT64}, {"f2", GE_DTYPE_FLOAT16},
                 {"i1", GE_DTYPE_INT8},    {"i2", GE_DTYPE_INT16},   {"i4", GE_DTYPE_INT32},
                 {"i8", GE_DTYPE_INT64},   {"u1", GE_DTYPE_UINT8},   {"u2", GE_DTYPE_UINT16},
                 {"u4", GE_DTYPE_UINT32},  {"u8", GE_DTYPE_UINT64},  {"b1", GE_DTYPE_BOOL}};

static int npy_fail(ge_error *err, const char *path, const char *why) {
  err->code = GE_ERR_FORMAT;
  snprintf(err->message, sizeof err->message, "'%.300s' is not a usable .npy file: %s", path, why);
  return GE_ERR_FORMAT;
}

/* Reads path into *v (v->data malloc'ed, v->capacity set). */
static int npy_read(const char *path, ge_value *v, ge_error *err) {
  FILE *f = fopen(path, "rb");
  unsigned char pre[12];
  char *header = NULL, *p;
  size_t hlen, i, want;
  int rc = GE_ERR_FORMAT, rank = 0, major;
  int64_t dims[GE_MAX_RANK];
  ge_dtype dtype = GE_DTYPE_UNDEFINED;
  memset(v, 0, sizeof *v);
  if (!f) {
    err->code = GE_ERR_IO;
    snprintf(err->message, sizeof err->message, "cannot open '%.300s'", path);
    return GE_ERR_IO;
  }
  if (fread(pre, 1, 10, f) != 10 || memcmp(pre, "\x93NUMPY", 6) != 0) {
    rc = npy_fail(err, path, "no NUMPY magic");
    goto done;
  }
  major = pre[6];
  if (major == 1) hlen = (size_t)pre[8] | (size_t)pre[9] << 8;
  else if ((major == 2 || major == 3) && fread(pre + 10, 1, 2, f) == 2)
    hlen = (size_t)pre[8] | (size_t)pre[9] << 8 | (size_t)pre[10] << 16 | (size_t)pre[11] << 24;
  else {
    rc = npy_fail(err, path, "unknown version");
    goto done;
  }
  if (hlen > 65536 || !(header = (char *)malloc(hlen + 1)) || fread(header, 1, hlen, f) != hlen) {
    rc = npy_fail(err, path, "bad header");
    goto done;
  }
  header[hlen] = 0;
  if (!(p = strstr(header, "'descr':"))) {
    rc = npy_fail(err, path, "no descr");
    goto done;
  }
  p = strchr(p + 8, '\'');
  if (!p || (p[1] != '<' && p[1] != '|')) {
    rc = npy_fail(err, path, "only little-endian dtypes are supported");
    goto done;
  }
  for (i = 0; i < sizeof npy_types / sizeof npy_types[0]; i++)
    if (strncmp(p + 2, npy_types[i].descr, 2) == 0 && p[4] == '\'') dtype = npy_types[i].dtype;
  if (dtype == GE_DTYPE_UNDEFINED) {
    rc = npy_fail(err, path, "unsupported dtype");
    goto done;
  }
  if ((p = strstr(header, "'fortran_order':")) && strstr(p, "True") == p + 17) {
    rc = npy_fail(err, path, "Fortran order is not supported");
    goto done;
  }
  if (!(p = strstr(header, "'shape':")) || !(p = strchr(p, '('))) {
    rc = npy_fail(err, path, "no shape");
    goto done;
  }
  for (p++; *p && *p != ')';) {
    char *end;
    long long d = strtoll(p, &end, 10);
    if (end == p) break;
    if (rank == GE_MAX_RANK || d < 0) {
      rc = npy_fail(err, path, "bad shape");
      goto done;
    }
    dims[rank++] = d;
    p = end;
    while (*p == ',' || *p == ' ') p++;
  }
  ge_value_set_shape(v, dtype, rank, dims);
  want = v->nbytes;
  v->data = malloc(want ? want : 1);
  v->capacity = want ? want : 1;
  if (!v->data || fread(v->data, 1, want, f) != want) {
    free(v->data);
    memset(v, 0, sizeof *v);
    rc = npy_fail(err, path, "data shorter than the shape says");
    goto done;
  }
  rc = GE_OK;
done:
  free(header);
  fclose(f);
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

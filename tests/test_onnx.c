/* test_onnx.c — ONNX import and export (ge_onnx.h).
 *
 * Over the ONNX conformance models (Debian libonnx-testdata; the tests that
 * need them are skipped with a message when it is missing): every model
 * imports and validates, import -> export -> import keeps the structural
 * hash and all names, export is deterministic, every test tensor file reads,
 * and (when Debian's python3-onnx is there) every exported model passes
 * onnx.checker.check_model. Hand-made models (built here with a tiny
 * protobuf writer) cover typed tensor fields, Constant forms, outer-scope
 * references three levels deep, external data and zero-copy weights,
 * non-tensor types, hostile bytes, allocation failure at every point, and a
 * seeded mutation fuzzer (GE_FUZZ_SEED, GE_FUZZ_ITERS). */
#define _POSIX_C_SOURCE 200809L
#include "ge_onnx.h"
#include "tests/test.h"
#include "tests/graph_util.h"

#include <dirent.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef CONF_ROOT /* overridable, e.g. to check the skip path */
#define CONF_ROOT "/usr/share/libonnx-testdata/data"
#endif

/* ------------------------------------------------------ protobuf writer */

typedef struct pb {
  uint8_t *p;
  size_t n, cap;
} pb;

static void pb_raw(pb *b, const void *d, size_t n) {
  if (b->n + n > b->cap) {
    size_t cap = b->cap ? b->cap : 64;
    while (cap < b->n + n) cap *= 2;
    b->p = (uint8_t *)realloc(b->p, cap);
    if (!b->p) abort();
    b->cap = cap;
  }
  if (n) memcpy(b->p + b->n, d, n);
  b->n += n;
}
static void pb_varint(pb *b, uint64_t v) {
  uint8_t t[10];
  size_t n = 0;
  while (v >= 0x80) {
    t[n++] = (uint8_t)(v | 0x80);
    v >>= 7;
  }
  t[n++] = (uint8_t)v;
  pb_raw(b, t, n);
}
static void pb_tag(pb *b, uint32_t f, uint32_t w) { pb_varint(b, ((uint64_t)f << 3) | w); }
static void pb_int(pb *b, uint32_t f, int64_t v) {
  pb_tag(b, f, 0);
  pb_varint(b, (uint64_t)v);
}
static void pb_fixed32(pb *b, uint32_t f, uint32_t v) {
  uint8_t t[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
  pb_tag(b, f, 5);
  pb_raw(b, t, 4);
}
static void pb_f32(pb *b, uint32_t f, float v) {
  uint32_t x;
  memcpy(&x, &v, 4);
  pb_fixed32(b, f, x);
}
static void pb_bytes(pb *b, uint32_t f, const void *d, size_t n) {
  pb_tag(b, f, 2);
  pb_varint(b, n);
  pb_raw(b, d, n);
}
static void pb_str(pb *b, uint32_t f, const char *s) { pb_bytes(b, f, s, strlen(s)); }
static void pb_free(pb *b) {
  free(b->p);
  memset(b, 0, sizeof *b);
}
/* Appends sub as a length-delimited field and frees it. */
static void pb_msg(pb *b, uint32_t f, pb *sub) {
  pb_bytes(b, f, sub->p, sub->n);
  pb_free(sub);
}

/* ValueInfoProto of a tensor; dims < 0 are unknown, sym[i] (if any) names
 * dim i; rank < 0: no shape. */
static pb vi_tensor(const char *name, int elem, int rank, const int64_t *dims, const char *const *sym) {
  pb v = {0}, t = {0}, tt = {0}, sh = {0};
  int i;
  pb_str(&v, 1, name);
  pb_int(&tt, 1, elem);
  if (rank >= 0) {
    for (i = 0; i < rank; i++) {
      pb d = {0};
      if (sym && sym[i]) pb_str(&d, 2, sym[i]);
      else if (dims[i] >= 0) pb_int(&d, 1, dims[i]);
      pb_msg(&sh, 1, &d);
    }
    pb_msg(&tt, 2, &sh);
  }
  pb_msg(&t, 1, &tt);
  pb_msg(&v, 2, &t);
  return v;
}

/* NodeProto without attributes (append them with pb_msg(&node, 5, ...)). */
static pb node(const char *op, const char *name, int n_in, const char *const *in, int n_out, const char *const *out) {
  pb b = {0};
  int i;
  for (i = 0; i < n_in; i++) pb_str(&b, 1, in[i]);
  for (i = 0; i < n_out; i++) pb_str(&b, 2, out[i]);
  if (name) pb_str(&b, 3, name);
  pb_str(&b, 4, op);
  return b;
}
static pb attr_int(const char *name, int64_t v) {
  pb a = {0};
  pb_str(&a, 1, name);
  pb_int(&a, 3, v);
  pb_int(&a, 20, 2);
  return a;
}
static pb attr_graph(const char *name, pb *g) {
  pb a = {0};
  pb_str(&a, 1, name);
  pb_msg(&a, 6, g);
  pb_int(&a, 20, 5);
  return a;
}
/* A TensorProto with raw_data. */
static pb tensor_raw(const char *name, int dtype, int rank, const int64_t *dims, const void *data, size_t n) {
  pb t = {0};
  int i;
  for (i = 0; i < rank; i++) pb_int(&t, 1, dims[i]);
  pb_int(&t, 2, dtype);
  if (name) pb_str(&t, 8, name);
  pb_bytes(&t, 9, data, n);
  return t;
}
/* ModelProto around graph (consumed) with the default opset (if > 0). */
static pb model(int64_t ir, int64_t opset, pb *graph) {
  pb m = {0}, o = {0};
  pb_int(&m, 1, ir);
  pb_str(&m, 2, "test_onnx");
  pb_msg(&m, 7, graph);
  if (opset > 0) {
    pb_str(&o, 1, "");
    pb_int(&o, 2, opset);
    pb_msg(&m, 8, &o);
  }
  return m;
}

/* ------------------------------------------------------------ helpers */

static int have_conformance(void) {
  struct stat st;
  return stat(CONF_ROOT "/node", &st) == 0;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Every conformance model directory ("<root>/<suite>/<test>"), sorted. */
typedef struct model_list {
  char **dirs;
  int n;
} model_list;

static model_list list_models(void) {
  static const char *const suites[4] = {"node", "pytorch-converted", "pytorch-operator", "simple"};
  model_list l = {NULL, 0};
  int cap = 0, s;
  for (s = 0; s < 4; s++) {
    char dir[512];
    DIR *d;
    struct dirent *e;
    snprintf(dir, sizeof dir, "%s/%s", CONF_ROOT, suites[s]);
    if (!(d = opendir(dir))) continue;
    while ((e = readdir(d)) != NULL) {
      char path[1024];
      struct stat st;
      if (e->d_name[0] == '.') continue;
      snprintf(path, sizeof path, "%s/%s/model.onnx", dir, e->d_name);
      if (stat(path, &st) != 0) continue;
      if (l.n == cap) {
        cap = cap ? cap * 2 : 256;
        l.dirs = (char **)realloc(l.dirs, (size_t)cap * sizeof(char *));
      }
      l.dirs[l.n] = (char *)malloc(strlen(dir) + strlen(e->d_name) + 2);
      sprintf(l.dirs[l.n++], "%s/%s", dir, e->d_name);
    }
    closedir(d);
  }
  qsort(l.dirs, (size_t)l.n, sizeof(char *), cmp_str);
  return l;
}

static void free_models(model_list *l) {
  int i;
  for (i = 0; i < l->n; i++) free(l->dirs[i]);
  free(l->dirs);
  memset(l, 0, sizeof *l);
}

static uint8_t *read_file(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  uint8_t *p;
  long len;
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  len = ftell(f);
  fseek(f, 0, SEEK_SET);
  p = (uint8_t *)malloc((size_t)len + 1);
  if (fread(p, 1, (size_t)len, f) != (size_t)len) {
    free(p);
    p = NULL;
  }
  fclose(f);
  *n = (size_t)len;
  return p;
}

static int write_file(const char *path, const void *d, size_t n) {
  FILE *f = fopen(path, "wb");
  int ok;
  if (!f) return 0;
  ok = fwrite(d, 1, n, f) == n;
  return fclose(f) == 0 && ok;
}

/* A fresh temporary directory (removed by rm_dir). */
static int make_temp_dir(char *buf, size_t n) {
  const char *t = getenv("TMPDIR");
  snprintf(buf, n, "%s/ge_test_onnx_XXXXXX", t && *t ? t : "/tmp");
  return mkdtemp(buf) != NULL;
}
static void rm_dir(const char *dir) {
  DIR *d = opendir(dir);
  struct dirent *e;
  char path[1024];
  if (!d) return;
  while ((e = readdir(d)) != NULL) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    remove(path);
  }
  closedir(d);
  rmdir(dir);
}

static ge_graph *load_buf(const pb *m, ge_error *err) {
  ge_graph *g = NULL;
  if (ge_onnx_load_buffer(m->p, m->n, NULL, NULL, &g, err) != GE_OK) return NULL;
  return g;
}

static ge_node *find_node(ge_graph *g, const char *name) {
  ge_node_id id = ge_graph_find(g, name);
  return id == GE_NONE ? NULL : ge_graph_node(g, id);
}

/* The node of g producing the value named name (an output desc name). */
static ge_node *producer(ge_graph *g, const char *name, uint32_t *k) {
  uint32_t i, j;
  for (i = 0; i < ge_graph_id_bound(g); i++) {
    ge_node *n = ge_graph_node(g, i);
    for (j = 0; n && j < n->num_outputs; j++)
      if (n->outputs[j].name && strcmp(n->outputs[j].name, name) == 0 && strcmp(n->op, "NetOutput") != 0) {
        if (k) *k = j;
        return n;
      }
  }
  return NULL;
}

/* Same node names, ops, input/output counts and output names (recursively
 * into subgraphs), and the same graph names. Writes the first difference. */
static int same_names(ge_graph *a, ge_graph *b, char *why, size_t wn) {
  uint32_t i, k;
  if (ge_graph_node_count(a) != ge_graph_node_count(b)) {
    snprintf(why, wn, "graph '%s': %u vs %u nodes", ge_graph_name(a), ge_graph_node_count(a), ge_graph_node_count(b));
    return 0;
  }
  if (strcmp(ge_graph_name(a), ge_graph_name(b)) != 0) {
    snprintf(why, wn, "graph name '%s' vs '%s'", ge_graph_name(a), ge_graph_name(b));
    return 0;
  }
  for (i = 0; i < ge_graph_id_bound(a); i++) {
    ge_node *n = ge_graph_node(a, i), *m;
    if (!n) continue;
    if (!(m = find_node(b, n->name))) {
      snprintf(why, wn, "node '%s' is missing", n->name);
      return 0;
    }
    if (strcmp(n->op, m->op) != 0 || n->num_inputs != m->num_inputs || n->num_outputs != m->num_outputs) {
      snprintf(why, wn, "node '%s' differs", n->name);
      return 0;
    }
    for (k = 0; k < n->num_outputs; k++) {
      const char *x = n->outputs[k].name, *y = m->outputs[k].name;
      if ((!x) != (!y) || (x && strcmp(x, y) != 0)) {
        snprintf(why, wn, "node '%s' output %u: '%s' vs '%s'", n->name, (unsigned)k, x ? x : "(none)", y ? y : "(none)");
        return 0;
      }
    }
    for (k = 0; k < n->num_attrs; k++) {
      const ge_attr *x = &n->attrs[k], *y = ge_node_attr(m, x->name);
      int32_t j, cnt = x->type == GE_ATTR_GRAPH ? 1 : x->type == GE_ATTR_GRAPHS ? x->count : 0;
      if (!cnt) continue;
      if (!y || y->type != x->type || (x->type == GE_ATTR_GRAPHS && y->count != x->count)) {
        snprintf(why, wn, "node '%s' attribute '%s' differs", n->name, x->name);
        return 0;
      }
      for (j = 0; j < cnt; j++)
        if (!same_names(x->type == GE_ATTR_GRAPH ? x->v.g : x->v.graphs[j], y->type == GE_ATTR_GRAPH ? y->v.g : y->v.graphs[j], why, wn))
          return 0;
    }
  }
  return 1;
}

/* import -> export -> import: equal hashes and names; the second export is
 * byte-identical to the first. */
static int round_trip(ge_graph *g, char *why, size_t wn) {
  uint8_t *b1 = NULL, *b2 = NULL;
  size_t n1 = 0, n2 = 0;
  ge_graph *h = NULL;
  ge_error err;
  uint64_t h1 = 0, h2 = 0;
  int ok = 0;
  if (ge_onnx_save_buffer(g, &b1, &n1, &err)) snprintf(why, wn, "export: %.400s", err.message);
  else if (ge_onnx_load_buffer(b1, n1, NULL, NULL, &h, &err)) snprintf(why, wn, "re-import: %.400s", err.message);
  else if (ge_graph_hash(g, &h1, &err) || ge_graph_hash(h, &h2, &err)) snprintf(why, wn, "hash: %.400s", err.message);
  else if (h1 != h2) snprintf(why, wn, "structural hash differs");
  else if (!same_names(g, h, why, wn)) {
  } else if (ge_onnx_save_buffer(h, &b2, &n2, &err)) snprintf(why, wn, "second export: %.400s", err.message);
  else if (n1 != n2 || memcmp(b1, b2, n1) != 0) snprintf(why, wn, "second export differs (%zu vs %zu bytes)", n1, n2);
  else ok = 1;
  if (b1) ge_graph_free_bytes(g, b1, n1);
  if (b2) ge_graph_free_bytes(h, b2, n2);
  ge_graph_free(h);
  return ok;
}

static int validate_ok(const ge_graph *g, ge_error *err) {
  ge_validate_desc vd;
  vd.allow_unknown_ops = 1;
  return ge_graph_validate(g, &vd, err) == GE_OK;
}

/* Models the importer refuses on purpose, and why (matched in the message). */
static const char *expected_refusal(const char *dir) {
  if (strstr(dir, "/test_if_opt")) return "type protos";
  return NULL;
}

/* ------------------------------------------------ conformance models */

GE_TEST(test_conformance_import_validate) {
  model_list l = list_models();
  int i, ok = 0, refused = 0;
  GE_REQUIRE(l.n > 1000);
  for (i = 0; i < l.n; i++) {
    char path[1100];
    ge_graph *g;
    ge_error err;
    const char *why = expected_refusal(l.dirs[i]);
    snprintf(path, sizeof path, "%s/model.onnx", l.dirs[i]);
    if (ge_onnx_load(path, NULL, &g, &err) != GE_OK) {
      if (why && strstr(err.message, why)) refused++;
      else ge_test__check(0, __FILE__, __LINE__, "%s: %s", path, err.message);
      continue;
    }
    if (why) ge_test__check(0, __FILE__, __LINE__, "%s: expected a refusal (%s)", path, why);
    if (!validate_ok(g, &err)) ge_test__check(0, __FILE__, __LINE__, "%s: validate: %s", path, err.message);
    else ok++;
    ge_graph_free(g);
  }
  printf("    %d conformance models imported and validated, %d refused as expected (TYPE_PROTO attribute)\n", ok, refused);
  GE_CHECK_EQ_INT(refused, 1);
  free_models(&l);
}

GE_TEST(test_conformance_round_trip) {
  model_list l = list_models();
  int i, ok = 0;
  GE_REQUIRE(l.n > 1000);
  for (i = 0; i < l.n; i++) {
    char path[1100], why[480];
    ge_graph *g;
    ge_error err;
    snprintf(path, sizeof path, "%s/model.onnx", l.dirs[i]);
    if (ge_onnx_load(path, NULL, &g, &err) != GE_OK) continue;
    if (round_trip(g, why, sizeof why)) ok++;
    else ge_test__check(0, __FILE__, __LINE__, "%s: %s", path, why);
    ge_graph_free(g);
  }
  printf("    %d conformance models: import -> export -> import keeps hash and names, export is deterministic\n", ok);
  GE_CHECK(ok > 1000);
  free_models(&l);
}

/* Every .pb file of the test data sets reads; sizes agree with the dims. */
GE_TEST(test_conformance_tensor_files) {
  model_list l = list_models();
  int i, files = 0, strings = 0;
  for (i = 0; i < l.n; i++) {
    DIR *d = opendir(l.dirs[i]);
    struct dirent *e;
    if (!d) continue;
    while ((e = readdir(d)) != NULL) {
      char sub[1100];
      DIR *d2;
      struct dirent *f;
      if (strncmp(e->d_name, "test_data_set_", 14) != 0) continue;
      snprintf(sub, sizeof sub, "%s/%s", l.dirs[i], e->d_name);
      if (!(d2 = opendir(sub))) continue;
      while ((f = readdir(d2)) != NULL) {
        char path[1400];
        ge_onnx_tensor t;
        ge_error err;
        int64_t n = 1;
        int32_t k;
        size_t len = strlen(f->d_name);
        if (len < 4 || strcmp(f->d_name + len - 3, ".pb") != 0) continue;
        snprintf(path, sizeof path, "%s/%s", sub, f->d_name);
        if (ge_onnx_read_tensor_file(path, NULL, &t, &err) != GE_OK) {
          /* sequence / optional test values are SequenceProto / OptionalProto */
          if (!strstr(l.dirs[i], "seq") && !strstr(l.dirs[i], "optional") && !strstr(l.dirs[i], "_opt"))
            ge_test__check(0, __FILE__, __LINE__, "%s: %s", path, err.message);
          continue;
        }
        for (k = 0; k < t.rank; k++) n *= t.dims[k];
        GE_CHECK_EQ_INT(n, t.numel);
        if (t.dtype == GE_DTYPE_STRING) {
          strings++;
          GE_CHECK_EQ_INT(t.nbytes, (size_t)n * sizeof(char *));
          for (k = 0; k < (int32_t)n; k++) GE_CHECK(((char **)t.data)[k] != NULL);
        } else
          GE_CHECK_EQ_INT(t.nbytes, (size_t)n * ge_dtype_size(t.dtype));
        files++;
        ge_onnx_tensor_free(&t);
      }
      closedir(d2);
    }
    closedir(d);
  }
  printf("    %d test tensor files read (%d string tensors)\n", files, strings);
  GE_CHECK(files > 2000);
  free_models(&l);
}

/* A known tensor: test_abs input_0 is float32 [3,4,5]; its output is |x|. */
GE_TEST(test_conformance_tensor_values) {
  ge_onnx_tensor x, y;
  ge_error err;
  int64_t i;
  int ok = 1;
  GE_REQUIRE(ge_onnx_read_tensor_file(CONF_ROOT "/node/test_abs/test_data_set_0/input_0.pb", NULL, &x, &err) == GE_OK);
  GE_REQUIRE(ge_onnx_read_tensor_file(CONF_ROOT "/node/test_abs/test_data_set_0/output_0.pb", NULL, &y, &err) == GE_OK);
  GE_CHECK_EQ_INT(x.dtype, GE_DTYPE_FLOAT32);
  GE_CHECK_EQ_INT(x.rank, 3);
  GE_CHECK_EQ_INT(x.dims[0] * 100 + x.dims[1] * 10 + x.dims[2], 345);
  GE_CHECK_STR(x.name, "x");
  for (i = 0; i < x.numel; i++) ok &= fabsf(((float *)x.data)[i]) == ((float *)y.data)[i];
  GE_CHECK(ok);
  {
    ge_tensor v;
    ge_onnx_tensor_view(&x, &v);
    GE_CHECK_EQ_INT(ge_tensor_numel(&v), 60);
    GE_CHECK(v.data == x.data);
  }
  ge_onnx_tensor_free(&x);
  ge_onnx_tensor_free(&y);
  ge_onnx_tensor_free(&y); /* a second free is harmless */
}

/* Optional: every exported conformance model (plus the hand-made ones with
 * outer-scope references and non-tensor types) passes onnx.checker. */
static const char *find_python_onnx(void) {
  if (system("/usr/bin/python3 -c 'import onnx' >/dev/null 2>&1") == 0) return "/usr/bin/python3";
  if (system("python3 -c 'import onnx' >/dev/null 2>&1") == 0) return "python3";
  return NULL;
}

static pb outer_scope_model(void);
static pb typed_io_model(void);

GE_TEST(test_conformance_onnx_checker) {
  model_list l = list_models();
  const char *py = find_python_onnx();
  char dir[512], path[1200], cmd[2048];
  int i, written = 0, rc;
  FILE *f;
  if (!py) {
    printf("    (python3-onnx is not installed: onnx.checker not run)\n");
    free_models(&l);
    return;
  }
  GE_REQUIRE(make_temp_dir(dir, sizeof dir));
  for (i = 0; i < l.n; i++) {
    ge_graph *g;
    ge_error err;
    snprintf(path, sizeof path, "%s/model.onnx", l.dirs[i]);
    if (ge_onnx_load(path, NULL, &g, &err) != GE_OK) continue;
    snprintf(path, sizeof path, "%s/m%04d.onnx", dir, i);
    if (ge_onnx_save(g, path, &err) == GE_OK) written++;
    else ge_test__check(0, __FILE__, __LINE__, "%s: %s", l.dirs[i], err.message);
    ge_graph_free(g);
  }
  {
    pb ms[2];
    ms[0] = outer_scope_model();
    ms[1] = typed_io_model();
    for (i = 0; i < 2; i++) {
      ge_graph *g;
      ge_error err;
      g = load_buf(&ms[i], &err);
      GE_CHECK(g != NULL);
      snprintf(path, sizeof path, "%s/hand%d.onnx", dir, i);
      if (g && ge_onnx_save(g, path, &err) == GE_OK) written++;
      ge_graph_free(g);
      pb_free(&ms[i]);
    }
  }
  snprintf(path, sizeof path, "%s/check.py", dir);
  f = fopen(path, "w");
  GE_REQUIRE(f);
  fprintf(f, "import glob, sys, onnx\n"
             "bad = 0\n"
             "files = sorted(glob.glob(sys.argv[1] + '/*.onnx'))\n"
             "for p in files:\n"
             "    try:\n"
             "        onnx.checker.check_model(onnx.load(p))\n"
             "    except Exception as e:\n"
             "        bad += 1\n"
             "        print('    checker: %%s: %%s' %% (p, str(e).splitlines()[0][:200]))\n"
             "print('    onnx.checker: %%d exported models, %%d rejected' %% (len(files), bad))\n"
             "sys.exit(1 if bad or not files else 0)\n");
  fclose(f);
  snprintf(cmd, sizeof cmd, "%s %s/check.py %s", py, dir, dir);
  fflush(stdout);
  rc = system(cmd);
  GE_CHECK_EQ_INT(rc, 0);
  GE_CHECK(written > 1000);
  rm_dir(dir);
  free_models(&l);
}

/* ------------------------------------------------------- type protos */

static pb tp_tensor(int field, int elem, int rank, const int64_t *dims, const char *const *sym) {
  pb t = {0}, tt = {0}, sh = {0};
  int i;
  pb_int(&tt, 1, elem);
  if (rank >= 0) {
    for (i = 0; i < rank; i++) {
      pb d = {0};
      if (sym && sym[i]) pb_str(&d, 2, sym[i]);
      else if (dims[i] >= 0) pb_int(&d, 1, dims[i]);
      pb_msg(&sh, 1, &d);
    }
    pb_msg(&tt, 2, &sh);
  }
  pb_msg(&t, (uint32_t)field, &tt);
  return t;
}
static pb tp_wrap(int field, pb *elem) { /* sequence (4) or optional (9) */
  pb t = {0}, s = {0};
  pb_msg(&s, 1, elem);
  pb_msg(&t, (uint32_t)field, &s);
  return t;
}
static pb tp_map(int key, pb *val) {
  pb t = {0}, m = {0};
  pb_int(&m, 1, key);
  pb_msg(&m, 2, val);
  pb_msg(&t, 5, &m);
  return t;
}
static pb vi(const char *name, pb *type) {
  pb v = {0};
  pb_str(&v, 1, name);
  pb_msg(&v, 2, type);
  return v;
}

/* Inputs of sequence, optional and map type (ops that take them). */
static pb typed_io_model(void) {
  pb g = {0}, t, e, v, n;
  int64_t d2[2] = {-1, 3};
  const char *sym[2] = {"N", NULL};
  const char *in1[1] = {"s"}, *out1[1] = {"len"}, *in2[1] = {"o"}, *out2[1] = {"has"}, *out3[1] = {"s2"};
  n = node("SequenceLength", "seqlen", 1, in1, 1, out1);
  pb_msg(&g, 1, &n);
  n = node("OptionalHasElement", "hasel", 1, in2, 1, out2);
  pb_msg(&g, 1, &n);
  n = node("Identity", "copy_seq", 1, in1, 1, out3);
  pb_msg(&g, 1, &n);
  pb_str(&g, 2, "typed_io");
  e = tp_tensor(1, 1, 2, d2, sym);
  t = tp_wrap(4, &e);
  v = vi("s", &t);
  pb_msg(&g, 11, &v);
  e = tp_tensor(1, 7, -1, NULL, NULL);
  t = tp_wrap(4, &e);
  e = tp_wrap(9, &t);
  v = vi("o", &e);
  pb_msg(&g, 11, &v);
  e = tp_tensor(1, 1, -1, NULL, NULL);
  t = tp_map(7, &e);
  v = vi("m", &t);
  pb_msg(&g, 11, &v);
  v = vi_tensor("len", 7, 0, NULL, NULL);
  pb_msg(&g, 12, &v);
  v = vi_tensor("has", 9, 0, NULL, NULL);
  pb_msg(&g, 12, &v);
  e = tp_tensor(1, 1, 2, d2, sym);
  t = tp_wrap(4, &e);
  v = vi("s2", &t);
  pb_msg(&g, 12, &v);
  e = tp_tensor(1, 1, -1, NULL, NULL);
  t = tp_map(7, &e);
  v = vi("m", &t);
  pb_msg(&g, 12, &v);
  return model(8, 16, &g);
}

GE_TEST(test_non_tensor_types) {
  pb m = typed_io_model();
  ge_error err;
  ge_graph *g = load_buf(&m, &err);
  ge_node *s, *o, *mm, *out;
  const ge_attr *a;
  char why[480];
  GE_REQUIRE(g);
  GE_CHECK(validate_ok(g, &err));
  s = find_node(g, "s");
  o = find_node(g, "o");
  mm = find_node(g, "m");
  GE_REQUIRE(s && o && mm);
  GE_CHECK_STR(ge_node_attr_string(s, "onnx_type", NULL), "seq(tensor(float32)[N,3])");
  GE_CHECK_STR(ge_node_attr_string(o, "onnx_type", NULL), "optional(seq(tensor(int64)))");
  GE_CHECK_STR(ge_node_attr_string(mm, "onnx_type", NULL), "map(int64,tensor(float32))");
  GE_CHECK_EQ_INT(s->outputs[0].dtype, GE_DTYPE_UNDEFINED);
  GE_CHECK_EQ_INT(s->outputs[0].shape.rank, GE_RANK_UNKNOWN);
  out = ge_graph_node(g, ge_graph_output_node(g));
  GE_REQUIRE(out);
  a = ge_node_attr(out, "onnx_output_types");
  GE_REQUIRE(a && a->type == GE_ATTR_STRINGS && a->count == 4);
  GE_CHECK_STR(a->v.strings[0], "");
  GE_CHECK_STR(a->v.strings[2], "seq(tensor(float32)[N,3])");
  GE_CHECK_STR(a->v.strings[3], "map(int64,tensor(float32))");
  GE_CHECK_EQ_INT(out->outputs[0].dtype, GE_DTYPE_INT64);
  GE_CHECK_EQ_INT(out->outputs[0].shape.rank, 0);
  GE_CHECK(round_trip(g, why, sizeof why));
  ge_graph_free(g);
  pb_free(&m);
  /* opaque, sparse tensor and symbols that need quoting, in and out */
  {
    pb gr = {0}, t, e, v;
    int64_t d2[2] = {2, -1}, d1[1] = {-1};
    const char *sym[1] = {"batch \"size\""};
    pb op = {0}, oq = {0};
    pb_str(&oq, 1, "my.domain");
    pb_str(&oq, 2, "thing, 1");
    pb_msg(&op, 7, &oq);
    v = vi("q", &op);
    pb_msg(&gr, 11, &v);
    t = tp_tensor(8, 1, 2, d2, NULL);
    v = vi("sp", &t);
    pb_msg(&gr, 11, &v);
    e = tp_tensor(1, 10, 1, d1, sym);
    t = tp_wrap(4, &e);
    v = vi("h", &t);
    pb_msg(&gr, 11, &v);
    t = tp_wrap(9, &op); /* optional(none): op was consumed, so an empty message */
    v = vi("none_opt", &t);
    pb_msg(&gr, 11, &v);
    {
      pb o2 = {0};
      pb_str(&o2, 1, "h");
      pb_msg(&gr, 12, &o2); /* output without a type */
    }
    m = model(8, 17, &gr);
    g = load_buf(&m, &err);
    GE_REQUIRE(g);
    GE_CHECK_STR(ge_node_attr_string(find_node(g, "q"), "onnx_type", NULL), "opaque(my.domain,\"thing, 1\")");
    GE_CHECK_STR(ge_node_attr_string(find_node(g, "sp"), "onnx_type", NULL), "sparse_tensor(float32)[2,?]");
    GE_CHECK_STR(ge_node_attr_string(find_node(g, "h"), "onnx_type", NULL), "seq(tensor(float16)[\"batch \\\"size\\\"\"])");
    GE_CHECK_STR(ge_node_attr_string(find_node(g, "none_opt"), "onnx_type", NULL), "optional(none)");
    GE_CHECK(round_trip(g, why, sizeof why));
    ge_graph_free(g);
    pb_free(&m);
  }
}

/* -------------------------------------------------- outer-scope values */

/* If(c) { Loop(n, c, x) { If(cond) { Add(v, x) } else { Sub(v, x) } } }
 * else { Identity(x) }: x is used three levels below the root and by both
 * branches of the outer If. */
static pb outer_scope_model(void) {
  pb root = {0}, T = {0}, E = {0}, B = {0}, T2 = {0}, E2 = {0}, n, a, v;
  const char *in_add[2] = {"v", "x"}, *o_t2[1] = {"t2"}, *o_e2[1] = {"e2"};
  const char *in_if[1] = {"cond"}, *o_if[1] = {"v_out"}, *o_id[1] = {"cond_out"};
  const char *in_loop[3] = {"n", "c", "x"}, *o_loop[1] = {"lv"}, *in_x[1] = {"x"}, *o_ex[1] = {"ex"};
  const char *in_c[1] = {"c"}, *o_r[1] = {"r"};
  int64_t d1[1] = {2};
  /* innermost branches */
  n = node("Add", "add", 2, in_add, 1, o_t2);
  pb_msg(&T2, 1, &n);
  pb_str(&T2, 2, "then2");
  v = vi_tensor("t2", 1, 1, d1, NULL);
  pb_msg(&T2, 12, &v);
  n = node("Sub", "sub", 2, in_add, 1, o_e2);
  pb_msg(&E2, 1, &n);
  pb_str(&E2, 2, "else2");
  v = vi_tensor("e2", 1, 1, d1, NULL);
  pb_msg(&E2, 12, &v);
  /* loop body */
  n = node("Identity", NULL, 1, in_if, 1, o_id);
  pb_msg(&B, 1, &n);
  n = node("If", "inner_if", 1, in_if, 1, o_if);
  a = attr_graph("then_branch", &T2);
  pb_msg(&n, 5, &a);
  a = attr_graph("else_branch", &E2);
  pb_msg(&n, 5, &a);
  pb_msg(&B, 1, &n);
  pb_str(&B, 2, "body");
  v = vi_tensor("i", 7, 0, NULL, NULL);
  pb_msg(&B, 11, &v);
  v = vi_tensor("cond", 9, 0, NULL, NULL);
  pb_msg(&B, 11, &v);
  v = vi_tensor("v", 1, 1, d1, NULL);
  pb_msg(&B, 11, &v);
  v = vi_tensor("cond_out", 9, 0, NULL, NULL);
  pb_msg(&B, 12, &v);
  v = vi_tensor("v_out", 1, 1, d1, NULL);
  pb_msg(&B, 12, &v);
  /* outer then: the loop */
  n = node("Loop", "loop", 3, in_loop, 1, o_loop);
  a = attr_graph("body", &B);
  pb_msg(&n, 5, &a);
  pb_msg(&T, 1, &n);
  pb_str(&T, 2, "then1");
  v = vi_tensor("lv", 1, 1, d1, NULL);
  pb_msg(&T, 12, &v);
  /* outer else */
  n = node("Identity", "else_copy", 1, in_x, 1, o_ex);
  pb_msg(&E, 1, &n);
  pb_str(&E, 2, "else1");
  v = vi_tensor("ex", 1, 1, d1, NULL);
  pb_msg(&E, 12, &v);
  /* root */
  n = node("If", "outer_if", 1, in_c, 1, o_r);
  a = attr_graph("then_branch", &T);
  pb_msg(&n, 5, &a);
  a = attr_graph("else_branch", &E);
  pb_msg(&n, 5, &a);
  pb_msg(&root, 1, &n);
  pb_str(&root, 2, "outer_scope");
  v = vi_tensor("c", 9, 0, NULL, NULL);
  pb_msg(&root, 11, &v);
  v = vi_tensor("x", 1, 1, d1, NULL);
  pb_msg(&root, 11, &v);
  v = vi_tensor("n", 7, 0, NULL, NULL);
  pb_msg(&root, 11, &v);
  v = vi_tensor("r", 1, 1, d1, NULL);
  pb_msg(&root, 12, &v);
  return model(8, 16, &root);
}

static const ge_graph *sub_of(const ge_node *n, const char *attr) {
  const ge_attr *a = ge_node_attr(n, attr);
  return a && a->type == GE_ATTR_GRAPH ? a->v.g : NULL;
}

/* The Data node of g standing for parent input k, or NULL. */
static ge_node *parent_data(const ge_graph *g, const char *name) {
  uint32_t i;
  for (i = 0; i < ge_graph_id_bound(g); i++) {
    ge_node *n = ge_graph_node(g, i);
    if (n && strcmp(n->op, "Data") == 0 && ge_node_attr(n, "parent_index") && strcmp(n->outputs[0].name, name) == 0)
      return n;
  }
  return NULL;
}

static const char *input_name(const ge_graph *g, const ge_node *n, uint32_t i) {
  const ge_node *p;
  if (i >= n->num_inputs || n->inputs[i].node == GE_NONE) return "";
  p = ge_graph_node(g, n->inputs[i].node);
  return p->outputs[n->inputs[i].index].name ? p->outputs[n->inputs[i].index].name : "?";
}

GE_TEST(test_outer_scope_references) {
  pb m = outer_scope_model();
  ge_error err;
  ge_graph *g = load_buf(&m, &err);
  ge_node *oif, *loop, *iif, *d;
  const ge_graph *T, *E, *B, *T2;
  char why[480];
  uint8_t *bytes;
  size_t nb;
  if (!g) printf("    %s\n", err.message);
  GE_REQUIRE(g);
  GE_CHECK(validate_ok(g, &err));
  oif = find_node(g, "outer_if");
  GE_REQUIRE(oif);
  /* cond, then n, c, x from the then branch; the else branch reuses x */
  GE_CHECK_EQ_INT(oif->num_inputs, 4);
  GE_CHECK_STR(input_name(g, oif, 0), "c");
  GE_CHECK_STR(input_name(g, oif, 1), "n");
  GE_CHECK_STR(input_name(g, oif, 2), "c");
  GE_CHECK_STR(input_name(g, oif, 3), "x");
  T = sub_of(oif, "then_branch");
  E = sub_of(oif, "else_branch");
  GE_REQUIRE(T && E);
  GE_CHECK_STR(ge_graph_name(T), "then1");
  d = parent_data(E, "x");
  GE_REQUIRE(d);
  GE_CHECK_EQ_INT(ge_node_attr_int(d, "parent_index", -1), 3);
  GE_CHECK_EQ_INT(d->outputs[0].dtype, GE_DTYPE_FLOAT32); /* desc copied from the outer value */
  GE_CHECK_EQ_INT(d->outputs[0].shape.rank, 1);
  GE_CHECK_EQ_INT(ge_graph_inputs(E, NULL, 0), 0);
  d = parent_data(T, "n");
  GE_REQUIRE(d);
  GE_CHECK_EQ_INT(ge_node_attr_int(d, "parent_index", -1), 1);
  loop = find_node((ge_graph *)T, "loop");
  GE_REQUIRE(loop);
  /* M, cond, v_initial, and x again for the body's inner If */
  GE_CHECK_EQ_INT(loop->num_inputs, 4);
  GE_CHECK_STR(input_name(T, loop, 3), "x");
  GE_CHECK(ge_graph_node(T, loop->inputs[3].node) == parent_data(T, "x"));
  B = sub_of(loop, "body");
  GE_REQUIRE(B);
  GE_CHECK_EQ_INT(ge_graph_inputs(B, NULL, 0), 3);
  d = parent_data(B, "x");
  GE_REQUIRE(d);
  GE_CHECK_EQ_INT(ge_node_attr_int(d, "parent_index", -1), 3);
  iif = find_node((ge_graph *)B, "inner_if");
  GE_REQUIRE(iif);
  GE_CHECK_EQ_INT(iif->num_inputs, 3); /* cond, v, x */
  GE_CHECK_STR(input_name(B, iif, 1), "v");
  GE_CHECK_STR(input_name(B, iif, 2), "x");
  T2 = sub_of(iif, "then_branch");
  GE_REQUIRE(T2);
  GE_CHECK_EQ_INT(ge_node_attr_int(parent_data(T2, "v"), "parent_index", -1), 1);
  GE_CHECK_EQ_INT(ge_node_attr_int(parent_data(T2, "x"), "parent_index", -1), 2);
  GE_CHECK(parent_data(sub_of(iif, "else_branch"), "v") != NULL);
  /* export: the extra inputs become names again (had the written If kept
     its 4 inputs, the re-import would have 7 and the hash would differ) */
  GE_CHECK(round_trip(g, why, sizeof why));
  GE_REQUIRE(ge_onnx_save_buffer(g, &bytes, &nb, &err) == GE_OK);
  {
    ge_graph *h;
    GE_REQUIRE(ge_onnx_load_buffer(bytes, nb, NULL, NULL, &h, &err) == GE_OK);
    GE_CHECK_EQ_INT(find_node(h, "outer_if")->num_inputs, 4);
    ge_graph_free(h);
  }
  ge_graph_free_bytes(g, bytes, nb);
  ge_graph_free(g);
  pb_free(&m);
}

/* ------------------------------------------------------------ tensors */

/* A TensorProto of dtype with dims, and fields appended by the caller. */
static pb tensor_head(int dtype, int rank, const int64_t *dims) {
  pb t = {0};
  int i;
  for (i = 0; i < rank; i++) pb_int(&t, 1, dims[i]);
  pb_int(&t, 2, dtype);
  return t;
}
static void pb_packed_varints(pb *t, uint32_t field, const int64_t *v, int n) {
  pb p = {0};
  int i;
  for (i = 0; i < n; i++) pb_varint(&p, (uint64_t)v[i]);
  pb_msg(t, field, &p);
}

static ge_status read_pb(pb *t, ge_onnx_tensor *out, ge_error *err) {
  ge_status st = ge_onnx_read_tensor(t->p, t->n, NULL, out, err);
  pb_free(t);
  return st;
}

GE_TEST(test_tensor_typed_fields) {
  ge_onnx_tensor o;
  ge_error err;
  pb t, p;
  int64_t d1[1], d2[2];
  /* float_data, packed and not */
  d1[0] = 3;
  t = tensor_head(1, 1, d1);
  {
    float f[2] = {1.5f, -2.0f};
    pb_bytes(&t, 4, f, 8);
    pb_f32(&t, 4, 3.0f);
  }
  pb_str(&t, 8, "floats");
  GE_REQUIRE(read_pb(&t, &o, &err) == GE_OK);
  GE_CHECK_EQ_INT(o.dtype, GE_DTYPE_FLOAT32);
  GE_CHECK_STR(o.name, "floats");
  GE_CHECK(((float *)o.data)[0] == 1.5f && ((float *)o.data)[1] == -2.0f && ((float *)o.data)[2] == 3.0f);
  ge_onnx_tensor_free(&o);
  /* int32_data into every narrow type */
  {
    static const struct { int dtype; int64_t v[3]; uint8_t bytes[12]; int size; } cases[] = {
        {6, {-1, 7, 2147483647}, {0xff, 0xff, 0xff, 0xff, 7, 0, 0, 0, 0xff, 0xff, 0xff, 0x7f}, 4},
        {5, {-2, 300, 0}, {0xfe, 0xff, 0x2c, 0x01, 0, 0}, 2},
        {3, {-128, 127, 1}, {0x80, 0x7f, 1}, 1},
        {4, {65535, 1, 2}, {0xff, 0xff, 1, 0, 2, 0}, 2},
        {2, {255, 0, 9}, {0xff, 0, 9}, 1},
        {9, {1, 0, 1}, {1, 0, 1}, 1},
        {10, {0x3C00, 0xC000, 0}, {0x00, 0x3c, 0x00, 0xc0, 0, 0}, 2},
        {16, {0x3F80, 0, 0x4000}, {0x80, 0x3f, 0, 0, 0x00, 0x40}, 2},
    };
    size_t c;
    for (c = 0; c < sizeof cases / sizeof cases[0]; c++) {
      t = tensor_head(cases[c].dtype, 1, d1);
      if (c % 2) pb_packed_varints(&t, 5, cases[c].v, 3);
      else { /* unpacked */
        int i;
        for (i = 0; i < 3; i++) pb_int(&t, 5, cases[c].v[i]);
      }
      if (read_pb(&t, &o, &err) != GE_OK) {
        ge_test__check(0, __FILE__, __LINE__, "dtype %d: %s", cases[c].dtype, err.message);
        continue;
      }
      GE_CHECK_EQ_INT(o.nbytes, 3 * cases[c].size);
      if (memcmp(o.data, cases[c].bytes, o.nbytes) != 0)
        ge_test__check(0, __FILE__, __LINE__, "dtype %d: wrong bytes", cases[c].dtype);
      ge_onnx_tensor_free(&o);
    }
  }
  /* int64_data, double_data, uint64_data, complex */
  d1[0] = 2;
  t = tensor_head(7, 1, d1);
  {
    int64_t v[2] = {-5, (int64_t)1 << 40};
    pb_packed_varints(&t, 7, v, 2);
    GE_REQUIRE(read_pb(&t, &o, &err) == GE_OK);
    GE_CHECK(((int64_t *)o.data)[0] == -5 && ((int64_t *)o.data)[1] == ((int64_t)1 << 40));
    ge_onnx_tensor_free(&o);
  }
  t = tensor_head(11, 1, d1);
  {
    double v[2] = {0.25, -1e300};
    pb_bytes(&t, 10, v, 16);
    GE_REQUIRE(read_pb(&t, &o, &err) == GE_OK);
    GE_CHECK(((double *)o.data)[0] == 0.25 && ((double *)o.data)[1] == -1e300);
    ge_onnx_tensor_free(&o);
  }
  t = tensor_head(12, 1, d1);
  {
    int64_t v[2] = {4000000000ll, 3};
    pb_packed_varints(&t, 11, v, 2);
    GE_REQUIRE(read_pb(&t, &o, &err) == GE_OK);
    GE_CHECK(((uint32_t *)o.data)[0] == 4000000000u && ((uint32_t *)o.data)[1] == 3);
    ge_onnx_tensor_free(&o);
  }
  t = tensor_head(13, 1, d1);
  pb_int(&t, 11, -1); /* UINT64_MAX */
  pb_int(&t, 11, 0);
  GE_REQUIRE(read_pb(&t, &o, &err) == GE_OK);
  GE_CHECK(((uint64_t *)o.data)[0] == UINT64_MAX);
  ge_onnx_tensor_free(&o);
  d1[0] = 1;
  t = tensor_head(14, 1, d1); /* complex64: two floats per element */
  pb_f32(&t, 4, 1.0f);
  pb_f32(&t, 4, -1.0f);
  GE_REQUIRE(read_pb(&t, &o, &err) == GE_OK);
  GE_CHECK(o.nbytes == 8 && ((float *)o.data)[1] == -1.0f);
  ge_onnx_tensor_free(&o);
  /* strings, raw_data, scalars, empty */
  d2[0] = 1;
  d2[1] = 3;
  t = tensor_head(8, 2, d2);
  pb_str(&t, 6, "a");
  pb_str(&t, 6, "");
  pb_str(&t, 6, "xyz");
  GE_REQUIRE(read_pb(&t, &o, &err) == GE_OK);
  GE_CHECK_EQ_INT(o.numel, 3);
  GE_CHECK_STR(((char **)o.data)[0], "a");
  GE_CHECK_STR(((char **)o.data)[1], "");
  GE_CHECK_STR(((char **)o.data)[2], "xyz");
  GE_CHECK_STR(o.name, "");
  ge_onnx_tensor_free(&o);
  {
    int16_t v[3] = {-3, 0, 1000};
    d1[0] = 3;
    t = tensor_raw("r", 5, 1, d1, v, 6);
    GE_REQUIRE(read_pb(&t, &o, &err) == GE_OK);
    GE_CHECK(memcmp(o.data, v, 6) == 0);
    ge_onnx_tensor_free(&o);
  }
  t = tensor_head(7, 0, NULL); /* scalar */
  pb_int(&t, 7, 42);
  GE_REQUIRE(read_pb(&t, &o, &err) == GE_OK);
  GE_CHECK(o.rank == 0 && o.numel == 1 && *(int64_t *)o.data == 42);
  ge_onnx_tensor_free(&o);
  d2[0] = 0;
  d2[1] = (int64_t)1 << 62;
  t = tensor_head(1, 2, d2); /* empty, no data needed */
  GE_REQUIRE(read_pb(&t, &o, &err) == GE_OK);
  GE_CHECK(o.numel == 0 && o.nbytes == 0);
  ge_onnx_tensor_free(&o);
  (void)p;
}

/* Every bad TensorProto gets the right code. */
GE_TEST(test_tensor_errors) {
  ge_onnx_tensor o;
  ge_error err;
  pb t;
  int64_t d1[1] = {3}, big[2] = {(int64_t)1 << 20, (int64_t)1 << 20}, huge[2] = {(int64_t)1 << 40, (int64_t)1 << 40};
  int64_t d17[17];
  int i;
  float f[2] = {1, 2};
#define EXPECT(code, frag)                                                                          \
  do {                                                                                              \
    ge_status st_ = read_pb(&t, &o, &err);                                                          \
    GE_CHECK_EQ_INT(st_, code);                                                                     \
    if (st_ && !strstr(err.message, frag)) ge_test__check(0, __FILE__, __LINE__, "message '%s' lacks '%s'", err.message, frag); \
    if (!st_) ge_onnx_tensor_free(&o);                                                              \
  } while (0)
  t = tensor_head(1, 1, d1);
  pb_bytes(&t, 4, f, 8);
  EXPECT(GE_ERR_FORMAT, "float_data has 2 values");
  t = tensor_raw(NULL, 1, 1, d1, f, 8);
  EXPECT(GE_ERR_FORMAT, "raw_data has 8 bytes");
  t = tensor_raw(NULL, 1, 1, d1, f, 8);
  pb_f32(&t, 4, 1);
  EXPECT(GE_ERR_FORMAT, "more than one field");
  t = tensor_head(1, 1, d1);
  pb_int(&t, 7, 1);
  pb_int(&t, 7, 1);
  pb_int(&t, 7, 1);
  EXPECT(GE_ERR_FORMAT, "stores its data in int64_data");
  t = tensor_head(1, 1, d1);
  EXPECT(GE_ERR_FORMAT, "no data");
  t = (pb){0};
  pb_int(&t, 1, -2);
  pb_int(&t, 2, 1);
  EXPECT(GE_ERR_FORMAT, "negative dimension");
  for (i = 0; i < 17; i++) d17[i] = 1;
  t = tensor_head(1, 17, d17);
  EXPECT(GE_ERR_UNSUPPORTED, "more than 16 dimensions");
  t = (pb){0};
  pb_bytes(&t, 9, f, 4);
  EXPECT(GE_ERR_FORMAT, "no data_type");
  t = tensor_head(17, 1, d1); /* float8 */
  EXPECT(GE_ERR_UNSUPPORTED, "element type 17");
  t = tensor_head(1, 1, d1);
  {
    pb seg = {0};
    pb_int(&seg, 1, 0);
    pb_msg(&t, 3, &seg);
  }
  EXPECT(GE_ERR_UNSUPPORTED, "segments");
  t = tensor_head(1, 1, d1);
  pb_int(&t, 14, 1);
  {
    pb kv = {0};
    pb_str(&kv, 1, "location");
    pb_str(&kv, 2, "w.bin");
    pb_msg(&t, 13, &kv);
  }
  EXPECT(GE_ERR_UNSUPPORTED, "needs the model's directory");
  t = tensor_head(1, 2, big);
  pb_f32(&t, 4, 1);
  EXPECT(GE_ERR_FORMAT, "need 1099511627776");
  t = tensor_head(1, 2, huge);
  pb_bytes(&t, 9, f, 4);
  EXPECT(GE_ERR_FORMAT, "too many elements");
  t = tensor_head(1, 1, d1);
  pb_bytes(&t, 4, f, 5);
  EXPECT(GE_ERR_FORMAT, "not a multiple of 4");
  t = tensor_head(8, 1, d1);
  pb_str(&t, 6, "a");
  pb_bytes(&t, 6, "b\0c", 3);
  pb_str(&t, 6, "d");
  EXPECT(GE_ERR_UNSUPPORTED, "NUL byte");
  t = tensor_head(8, 1, d1);
  pb_bytes(&t, 9, "abc", 3);
  EXPECT(GE_ERR_FORMAT, "string tensor");
  t = tensor_head(7, 1, d1);
  pb_tag(&t, 7, 2);
  pb_varint(&t, 2);
  pb_raw(&t, "\x80\x80", 2);
  EXPECT(GE_ERR_FORMAT, "ends inside a varint");
  t = tensor_head(1, 1, d1);
  pb_int(&t, 14, 7);
  EXPECT(GE_ERR_FORMAT, "data_location");
#undef EXPECT
  GE_CHECK_EQ_INT(ge_onnx_read_tensor(NULL, 4, NULL, &o, &err), GE_ERR_INVALID);
  GE_CHECK_EQ_INT(ge_onnx_read_tensor("", 0, NULL, NULL, &err), GE_ERR_INVALID);
  GE_CHECK_EQ_INT(ge_onnx_read_tensor_file("/nonexistent/x.pb", NULL, &o, &err), GE_ERR_IO);
}

/* ----------------------------------------------------- Constant nodes */

GE_TEST(test_constant_forms) {
  pb g = {0}, n, a, m, v;
  const char *names[7] = {"c_value", "c_float", "c_floats", "c_int", "c_ints", "c_string", "c_strings"};
  ge_error err;
  ge_graph *gr;
  ge_node *c;
  char why[480];
  int i;
  int64_t d1[1] = {2};
  for (i = 0; i < 7; i++) {
    const char *out[1];
    out[0] = names[i];
    n = node("Constant", i == 3 ? names[i] : NULL, 0, NULL, 1, out);
    a = (pb){0};
    switch (i) {
    case 0: {
      int32_t raw[2] = {5, -6};
      pb tt = tensor_raw("ignored", 6, 1, d1, raw, 8);
      pb_str(&a, 1, "value");
      pb_msg(&a, 5, &tt);
      pb_int(&a, 20, 4);
      break;
    }
    case 1: pb_str(&a, 1, "value_float"); pb_f32(&a, 2, 0.5f); pb_int(&a, 20, 1); break;
    case 2: pb_str(&a, 1, "value_floats"); pb_f32(&a, 7, 1.0f); pb_f32(&a, 7, 2.0f); pb_int(&a, 20, 6); break;
    case 3: pb_str(&a, 1, "value_int"); pb_int(&a, 3, -9); pb_int(&a, 20, 2); break;
    case 4: pb_str(&a, 1, "value_ints"); pb_int(&a, 8, 3); pb_int(&a, 8, 4); pb_int(&a, 8, 5); pb_int(&a, 20, 7); break;
    case 5: pb_str(&a, 1, "value_string"); pb_str(&a, 4, "hello"); pb_int(&a, 20, 3); break;
    default: pb_str(&a, 1, "value_strings"); pb_str(&a, 9, "p"); pb_str(&a, 9, "q"); pb_int(&a, 20, 8); break;
    }
    pb_msg(&n, 5, &a);
    pb_msg(&g, 1, &n);
    v = vi_tensor(names[i], 0, -1, NULL, NULL);
    pb_msg(&g, 12, &v);
  }
  m = model(8, 13, &g);
  gr = load_buf(&m, &err);
  if (!gr) printf("    %s\n", err.message);
  GE_REQUIRE(gr);
  GE_CHECK(validate_ok(gr, &err));
  for (i = 0; i < 7; i++) {
    uint32_t k;
    const ge_tensor *t;
    c = producer(gr, names[i], &k);
    GE_REQUIRE(c);
    GE_CHECK_STR(c->op, "Const");
    t = ge_node_attr(c, "value")->v.t;
    switch (i) {
    case 0: GE_CHECK(t->dtype == GE_DTYPE_INT32 && t->rank == 1 && ((int32_t *)t->data)[1] == -6); break;
    case 1: GE_CHECK(t->dtype == GE_DTYPE_FLOAT32 && t->rank == 0 && *(float *)t->data == 0.5f); break;
    case 2: GE_CHECK(t->dtype == GE_DTYPE_FLOAT32 && t->rank == 1 && t->dims[0] == 2 && ((float *)t->data)[1] == 2.0f); break;
    case 3:
      GE_CHECK(t->dtype == GE_DTYPE_INT64 && t->rank == 0 && *(int64_t *)t->data == -9);
      GE_CHECK_STR(c->name, "c_int"); /* named like its value: written back as an initializer */
      break;
    case 4: GE_CHECK(t->dtype == GE_DTYPE_INT64 && t->dims[0] == 3 && ((int64_t *)t->data)[2] == 5); break;
    case 5: GE_CHECK(t->dtype == GE_DTYPE_STRING && t->rank == 0 && strcmp(((char **)t->data)[0], "hello") == 0); break;
    default: GE_CHECK(t->dtype == GE_DTYPE_STRING && t->dims[0] == 2 && strcmp(((char **)t->data)[1], "q") == 0); break;
    }
    GE_CHECK_EQ_INT(c->outputs[0].dtype, t->dtype);
  }
  GE_CHECK(round_trip(gr, why, sizeof why));
  ge_graph_free(gr);
  pb_free(&m);
  /* bad Constants */
  {
    static const char *const frags[4] = {"sparse_value", "more than one value", "0 and 1", "no value"};
    for (i = 0; i < 4; i++) {
      const char *out[1] = {"k"}, *in[1] = {"x"};
      pb gg = {0};
      n = node("Constant", "bad", i == 2 ? 1 : 0, in, 1, out);
      a = (pb){0};
      pb_str(&a, 1, i == 0 ? "sparse_value" : "value_int");
      pb_int(&a, 3, 1);
      pb_int(&a, 20, i == 0 ? 11 : 2);
      if (i != 3) pb_msg(&n, 5, &a);
      else pb_free(&a);
      if (i == 1) {
        a = attr_int("value_int", 2);
        pb_msg(&n, 5, &a);
      }
      pb_msg(&gg, 1, &n);
      v = vi_tensor("x", 1, 0, NULL, NULL);
      pb_msg(&gg, 11, &v);
      m = model(8, 13, &gg);
      gr = load_buf(&m, &err);
      GE_CHECK(gr == NULL);
      GE_CHECK_EQ_INT(err.code, i == 0 ? GE_ERR_UNSUPPORTED : GE_ERR_FORMAT);
      if (!strstr(err.message, frags[i])) ge_test__check(0, __FILE__, __LINE__, "'%s' lacks '%s'", err.message, frags[i]);
      ge_graph_free(gr);
      pb_free(&m);
    }
  }
}

/* ---------------------------------------- external data, zero copy */

static pb external_tensor(const char *name, int64_t numel, const char *loc, long long off, long long len) {
  pb t = {0}, kv;
  char num[32];
  pb_int(&t, 1, numel);
  pb_int(&t, 2, 1);
  pb_str(&t, 8, name);
  kv = (pb){0};
  pb_str(&kv, 1, "location");
  pb_str(&kv, 2, loc);
  pb_msg(&t, 13, &kv);
  if (off >= 0) {
    kv = (pb){0};
    snprintf(num, sizeof num, "%lld", off);
    pb_str(&kv, 1, "offset");
    pb_str(&kv, 2, num);
    pb_msg(&t, 13, &kv);
  }
  if (len >= 0) {
    kv = (pb){0};
    snprintf(num, sizeof num, "%lld", len);
    pb_str(&kv, 1, "length");
    pb_str(&kv, 2, num);
    pb_msg(&t, 13, &kv);
  }
  pb_int(&t, 14, 1);
  return t;
}

/* A model whose outputs are Identity copies of the given initializers. */
static pb model_of_initializers(pb *inits, int n, const char *const *names) {
  pb g = {0}, nd, v;
  int i;
  for (i = 0; i < n; i++) {
    char out[64];
    const char *o[1];
    snprintf(out, sizeof out, "%s_out", names[i]);
    o[0] = out;
    nd = node("Identity", NULL, 1, &names[i], 1, o);
    pb_msg(&g, 1, &nd);
    pb_msg(&g, 5, &inits[i]);
    v = vi_tensor(out, 1, -1, NULL, NULL);
    pb_msg(&g, 12, &v);
  }
  return model(8, 17, &g);
}

static const ge_tensor *const_value(ge_graph *g, const char *name) {
  ge_node *n = find_node(g, name);
  const ge_attr *a = n ? ge_node_attr(n, "value") : NULL;
  return a && a->type == GE_ATTR_TENSOR ? a->v.t : NULL;
}

GE_TEST(test_external_data) {
  char dir[512], path[700], sub[700], why[480];
  float w[2048];
  uint8_t file[8 + 4096 + 2 + 4096];
  pb inits[3], m;
  const char *names[3] = {"aligned", "unaligned", "small"};
  ge_graph *g;
  ge_error err;
  const ge_tensor *t;
  int i;
  for (i = 0; i < 2048; i++) w[i] = (float)i * 0.5f;
  memset(file, 0, sizeof file);
  memcpy(file + 8, w, 4096);
  memcpy(file + 8 + 4096 + 2, w + 1024, 4096);
  GE_REQUIRE(make_temp_dir(dir, sizeof dir));
  snprintf(sub, sizeof sub, "%s/weights", dir);
  GE_REQUIRE(mkdir(sub, 0700) == 0);
  snprintf(path, sizeof path, "%s/weights/w.bin", dir);
  GE_REQUIRE(write_file(path, file, sizeof file));
  inits[0] = external_tensor("aligned", 1024, "weights/w.bin", 8, 4096);
  inits[1] = external_tensor("unaligned", 1024, "weights/./w.bin", 8 + 4096 + 2, -1);
  inits[2] = external_tensor("small", 2, "weights/w.bin", 8, 8);
  m = model_of_initializers(inits, 3, names);
  snprintf(path, sizeof path, "%s/model.onnx", dir);
  GE_REQUIRE(write_file(path, m.p, m.n));
  GE_REQUIRE(ge_onnx_load(path, NULL, &g, &err) == GE_OK);
  GE_CHECK(validate_ok(g, &err));
  t = const_value(g, "aligned");
  GE_REQUIRE(t);
  GE_CHECK(t->borrowed != NULL); /* zero-copy from the mapped weights file */
  GE_CHECK(memcmp(t->data, w, 4096) == 0);
  t = const_value(g, "unaligned");
  GE_REQUIRE(t);
  GE_CHECK(t->borrowed == NULL);
  GE_CHECK(memcmp(t->data, w + 1024, 4096) == 0);
  t = const_value(g, "small");
  GE_REQUIRE(t);
  GE_CHECK(t->borrowed == NULL && t->nbytes == 8 && ((float *)t->data)[1] == 0.5f);
  /* the mapping outlives the files */
  snprintf(path, sizeof path, "%s/weights/w.bin", dir);
  remove(path);
  GE_CHECK(memcmp(const_value(g, "aligned")->data, w, 4096) == 0);
  GE_CHECK(round_trip(g, why, sizeof why)); /* exported inline: raw_data */
  ge_graph_free(g);
  GE_REQUIRE(write_file(path, file, sizeof file));
  /* from memory: needs the directory */
  GE_CHECK_EQ_INT(ge_onnx_load_buffer(m.p, m.n, NULL, NULL, &g, &err), GE_ERR_UNSUPPORTED);
  GE_CHECK(strstr(err.message, "tensor 'aligned'") != NULL);
  GE_REQUIRE(ge_onnx_load_buffer(m.p, m.n, dir, NULL, &g, &err) == GE_OK);
  GE_CHECK(const_value(g, "aligned")->borrowed != NULL);
  ge_graph_free(g);
  {
    ge_onnx_desc d;
    memset(&d, 0, sizeof d);
    d.no_borrow = 1;
    GE_REQUIRE(ge_onnx_load_buffer(m.p, m.n, dir, &d, &g, &err) == GE_OK);
    GE_CHECK(const_value(g, "aligned")->borrowed == NULL);
    GE_CHECK(memcmp(const_value(g, "aligned")->data, w, 4096) == 0);
    ge_graph_free(g);
  }
  pb_free(&m);
  /* a lone tensor file next to its data */
  {
    pb t1 = external_tensor("lone", 1024, "weights/w.bin", 8, 4096);
    ge_onnx_tensor o;
    snprintf(path, sizeof path, "%s/lone.pb", dir);
    GE_REQUIRE(write_file(path, t1.p, t1.n));
    GE_REQUIRE(ge_onnx_read_tensor_file(path, NULL, &o, &err) == GE_OK);
    GE_CHECK(o.numel == 1024 && memcmp(o.data, w, 4096) == 0);
    GE_CHECK_STR(o.name, "lone");
    ge_onnx_tensor_free(&o);
    pb_free(&t1);
  }
  /* locations that leave the directory, missing files, bad ranges */
  {
    static const struct { const char *loc; long long off, len; ge_status code; const char *frag; } bad[] = {
        {"../w.bin", 0, 16, GE_ERR_FORMAT, "leaves the model's directory"},
        {"/etc/passwd", 0, 16, GE_ERR_FORMAT, "leaves the model's directory"},
        {"weights/../../w.bin", 0, 16, GE_ERR_FORMAT, "leaves the model's directory"},
        {"weights\\..\\..\\w.bin", 0, 16, GE_ERR_FORMAT, "leaves the model's directory"},
        {"C:x.bin", 0, 16, GE_ERR_FORMAT, "leaves the model's directory"},
        {"", 0, 16, GE_ERR_FORMAT, "leaves the model's directory"},
        {"missing.bin", 0, 16, GE_ERR_IO, "missing.bin"},
        {"weights/w.bin", 100000, 16, GE_ERR_FORMAT, "past the end"},
        {"weights/w.bin", 8200, 100, GE_ERR_FORMAT, "runs past the end"},
        {"weights/w.bin", 0, 12, GE_ERR_FORMAT, "need 16"},
        {"weights/w.bin", 0, -1, GE_ERR_FORMAT, "need 16"},
    };
    size_t k;
    for (k = 0; k < sizeof bad / sizeof bad[0]; k++) {
      const char *nm[1] = {"t"};
      pb one = external_tensor("t", 4, bad[k].loc, bad[k].off, bad[k].len);
      m = model_of_initializers(&one, 1, nm);
      GE_CHECK_EQ_INT(ge_onnx_load_buffer(m.p, m.n, dir, NULL, &g, &err), bad[k].code);
      GE_CHECK(g == NULL);
      if (!strstr(err.message, bad[k].frag))
        ge_test__check(0, __FILE__, __LINE__, "%s: '%s' lacks '%s'", bad[k].loc, err.message, bad[k].frag);
      pb_free(&m);
    }
  }
  rm_dir(sub);
  rm_dir(dir);
}

/* A big raw_data weight at an aligned place in the model file is borrowed
 * from the mapped file; memory input, no_borrow and a high threshold copy. */
GE_TEST(test_borrow_from_model_file) {
  char dir[512], path[700];
  float w[1024];
  int pad, i, found = 0;
  ge_graph *g;
  ge_error err;
  ge_onnx_desc d;
  pb m = {0};
  for (i = 0; i < 1024; i++) w[i] = (float)i + 0.25f;
  GE_REQUIRE(make_temp_dir(dir, sizeof dir));
  snprintf(path, sizeof path, "%s/big.onnx", dir);
  for (pad = 0; pad < 8 && !found; pad++) {
    int64_t d1[1] = {1024};
    const char *nm[1] = {"big"};
    pb t = tensor_raw("big", 1, 1, d1, w, 4096), doc = {0};
    size_t at;
    char padding[8] = "xxxxxxx";
    m = model_of_initializers(&t, 1, nm);
    pb_bytes(&doc, 6, padding, (size_t)pad); /* doc_string first shifts the graph */
    pb_raw(&doc, m.p, m.n);
    pb_free(&m);
    m = doc;
    for (at = 0; at + 4096 <= m.n; at++)
      if (memcmp(m.p + at, w, 4096) == 0) break;
    if (at % 4 == 0) found = 1;
    else pb_free(&m);
  }
  GE_REQUIRE(found);
  GE_REQUIRE(write_file(path, m.p, m.n));
  GE_REQUIRE(ge_onnx_load(path, NULL, &g, &err) == GE_OK);
  GE_CHECK(const_value(g, "big")->borrowed != NULL);
  remove(path);
  GE_CHECK(memcmp(const_value(g, "big")->data, w, 4096) == 0);
  ge_graph_free(g);
  GE_REQUIRE(write_file(path, m.p, m.n));
  memset(&d, 0, sizeof d);
  d.no_borrow = 1;
  GE_REQUIRE(ge_onnx_load(path, &d, &g, &err) == GE_OK);
  GE_CHECK(const_value(g, "big")->borrowed == NULL);
  ge_graph_free(g);
  d.no_borrow = 0;
  d.borrow_min_bytes = 8192;
  GE_REQUIRE(ge_onnx_load(path, &d, &g, &err) == GE_OK);
  GE_CHECK(const_value(g, "big")->borrowed == NULL);
  ge_graph_free(g);
  GE_REQUIRE(ge_onnx_load_buffer(m.p, m.n, NULL, NULL, &g, &err) == GE_OK);
  GE_CHECK(const_value(g, "big")->borrowed == NULL);
  GE_CHECK(memcmp(const_value(g, "big")->data, w, 4096) == 0);
  ge_graph_free(g);
  pb_free(&m);
  rm_dir(dir);
}

/* ------------------------------------------------------ hostile bytes */

static void expect_refused(const uint8_t *p, size_t n, ge_status code, const char *frag, const char *what) {
  ge_graph *g = (ge_graph *)1;
  ge_error err;
  ge_status st = ge_onnx_load_buffer(p, n, NULL, NULL, &g, &err);
  if (st != code) ge_test__check(0, __FILE__, __LINE__, "%s: status %d, expected %d (%s)", what, st, code, st ? err.message : "ok");
  else if (frag && !strstr(err.message, frag))
    ge_test__check(0, __FILE__, __LINE__, "%s: message '%s' lacks '%s'", what, err.message, frag);
  GE_CHECK(g == NULL || st == GE_OK);
  if (st == GE_OK) ge_graph_free(g);
}
static void expect_model_refused(pb *m, ge_status code, const char *frag, const char *what) {
  expect_refused(m->p, m->n, code, frag, what);
  pb_free(m);
}

/* A one-node graph x -> op -> y around a node the caller finishes. */
static pb graph_one(pb *nd) {
  pb g = {0}, v;
  pb_msg(&g, 1, nd);
  v = vi_tensor("x", 1, 0, NULL, NULL);
  pb_msg(&g, 11, &v);
  v = vi_tensor("y", 1, 0, NULL, NULL);
  pb_msg(&g, 12, &v);
  return g;
}

/* IR 10 and 11 (ONNX 1.16, 1.18) add metadata_props to nodes and graphs
 * (NodeProto 9, GraphProto 16), node device configurations (NodeProto 10),
 * ModelProto.configuration (26) and the 4-bit element types: the new fields
 * are skipped, a value of a new element type is refused naming it. */
GE_TEST(test_ir_10_and_11) {
  static const char *const x[1] = {"x"}, *const y[1] = {"y"};
  int64_t ir;
  for (ir = 10; ir <= 11; ir++) {
    pb n = node("Relu", "r1", 1, x, 1, y), md = {0}, dc = {0}, cfg = {0}, g, m;
    ge_graph *gg;
    ge_error err;
    pb_str(&md, 1, "origin");
    pb_str(&md, 2, "test");
    pb_msg(&n, 9, &md);
    pb_str(&dc, 1, "cfg0");
    pb_msg(&n, 10, &dc);
    g = graph_one(&n);
    pb_str(&md, 1, "graph_key");
    pb_msg(&g, 16, &md);
    m = model(ir, 13, &g);
    pb_str(&cfg, 1, "cfg0");
    pb_int(&cfg, 2, 1);
    pb_msg(&m, 26, &cfg);
    gg = load_buf(&m, &err);
    ge_test__check(gg != NULL, __FILE__, __LINE__, "IR %lld: %s", (long long)ir, err.message);
    if (gg) {
      GE_CHECK(find_node(gg, "r1") != NULL && strcmp(find_node(gg, "r1")->op, "Relu") == 0);
      GE_CHECK(ge_graph_attr(gg, "onnx_ir_version") && ge_graph_attr(gg, "onnx_ir_version")->v.i == ir);
      ge_graph_free(gg);
    }
    pb_free(&m);
  }
  {
    pb n = node("Relu", "r1", 1, x, 1, y), g = {0}, v;
    pb_msg(&g, 1, &n);
    v = vi_tensor("x", 22, 0, NULL, NULL); /* INT4 */
    pb_msg(&g, 11, &v);
    v = vi_tensor("y", 22, 0, NULL, NULL);
    pb_msg(&g, 12, &v);
    {
      pb m = model(10, 13, &g);
      expect_model_refused(&m, GE_ERR_UNSUPPORTED, "element type 22", "INT4 input");
    }
  }
}

GE_TEST(test_truncation_everywhere) {
  pb m = outer_scope_model();
  size_t n;
  int all_format = 1;
  for (n = 0; n < m.n; n++) {
    ge_graph *g = (ge_graph *)1;
    ge_error err;
    ge_status st = ge_onnx_load_buffer(m.p, n, NULL, NULL, &g, &err);
    if (st == GE_OK) {
      ge_test__check(0, __FILE__, __LINE__, "a %zu-byte prefix loaded", n);
      ge_graph_free(g);
    } else {
      all_format &= st == GE_ERR_FORMAT;
      GE_CHECK(g == NULL && err.message[0]);
    }
  }
  GE_CHECK(all_format);
  pb_free(&m);
}

GE_TEST(test_malformed_bytes) {
  static const uint8_t wire[] = {0x08, 0x08, 0x38, 0x01};                 /* graph as a varint */
  static const uint8_t past[] = {0x08, 0x08, 0x3a, 0x10, 0x00};           /* length past the end */
  static const uint8_t longv[] = {0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x81, 0x01};
  static const uint8_t over[] = {0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f};
  static const uint8_t group[] = {0x08, 0x08, 0x0b};
  static const uint8_t zero[] = {0x00, 0x01};
  static const uint8_t hugelen[] = {0x3a, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f};
  static const uint8_t fixed[] = {0x08, 0x08, 0x3d, 0x01, 0x02};
  expect_refused(wire, sizeof wire, GE_ERR_FORMAT, "wire type 0, expected 2", "wrong wire type");
  expect_refused(past, sizeof past, GE_ERR_FORMAT, "runs past the end", "length past the end");
  expect_refused(longv, sizeof longv, GE_ERR_FORMAT, "longer than 10 bytes", "11-byte varint");
  expect_refused(over, sizeof over, GE_ERR_FORMAT, "does not fit 64 bits", "varint overflow");
  expect_refused(group, sizeof group, GE_ERR_FORMAT, "wire type 3", "group");
  expect_refused(zero, sizeof zero, GE_ERR_FORMAT, "invalid field number", "field 0");
  expect_refused(hugelen, sizeof hugelen, GE_ERR_FORMAT, "runs past the end", "huge length");
  expect_refused(fixed, sizeof fixed, GE_ERR_FORMAT, "truncated 4-byte value", "truncated fixed32");
  expect_refused((const uint8_t *)"", 0, GE_ERR_FORMAT, "not an ONNX model", "empty");
  expect_refused((const uint8_t *)"\x12\x04onnx", 6, GE_ERR_FORMAT, "not an ONNX model", "no graph");
  {
    uint8_t junk[4096];
    tu_rng r;
    size_t i;
    tu_seed(&r, 7);
    for (i = 0; i < sizeof junk; i++) junk[i] = (uint8_t)tu_next(&r);
    expect_refused(junk, sizeof junk, GE_ERR_FORMAT, NULL, "random bytes");
  }
}

GE_TEST(test_nesting_limits) {
  /* If -> then_branch -> If -> ... 1000 deep */
  pb g = {0}, m;
  int i;
  const char *in[1] = {"c"}, *out[1] = {"y"};
  for (i = 0; i < 1000; i++) {
    pb n = node("If", NULL, 1, in, 1, out), a, outer = {0}, v;
    if (i) {
      a = attr_graph("then_branch", &g);
      pb_msg(&n, 5, &a);
    } else
      pb_free(&g);
    pb_msg(&outer, 1, &n);
    v = vi_tensor("y", 1, 0, NULL, NULL);
    pb_msg(&outer, 12, &v);
    g = outer;
  }
  {
    pb v = vi_tensor("c", 9, 0, NULL, NULL);
    pb_msg(&g, 11, &v);
  }
  m = model(8, 13, &g);
  expect_model_refused(&m, GE_ERR_FORMAT, "nested deeper than 64", "1000 nested subgraphs");
  /* seq(seq(seq(...))) 1000 deep as an input type */
  {
    pb t = tp_tensor(1, 1, -1, NULL, NULL), v;
    g = (pb){0};
    for (i = 0; i < 1000; i++) {
      pb w = tp_wrap(4, &t);
      t = w;
    }
    v = vi("s", &t);
    pb_msg(&g, 11, &v);
    m = model(8, 13, &g);
    expect_model_refused(&m, GE_ERR_FORMAT, "types nested deeper", "1000 nested sequence types");
  }
  /* 60 levels are fine (each level's value has its own name: ONNX values
     may not shadow outer ones) */
  {
    ge_graph *gr;
    ge_error err;
    g = (pb){0};
    for (i = 0; i < 60; i++) {
      char yname[16];
      const char *yo[1];
      pb n, a, outer = {0}, v;
      snprintf(yname, sizeof yname, "y%d", i);
      yo[0] = yname;
      n = node("If", NULL, 1, in, 1, yo);
      if (i) {
        a = attr_graph("then_branch", &g);
        pb_msg(&n, 5, &a);
      } else
        pb_free(&g);
      pb_msg(&outer, 1, &n);
      v = vi_tensor(yname, 1, 0, NULL, NULL);
      pb_msg(&outer, 12, &v);
      g = outer;
    }
    {
      pb v = vi_tensor("c", 9, 0, NULL, NULL);
      pb_msg(&g, 11, &v);
    }
    m = model(8, 13, &g);
    gr = load_buf(&m, &err);
    GE_CHECK(gr != NULL);
    if (gr) {
      char why[480];
      if (!round_trip(gr, why, sizeof why)) ge_test__check(0, __FILE__, __LINE__, "60 levels: %s", why);
      ge_graph_free(gr);
    }
    pb_free(&m);
  }
}

GE_TEST(test_model_errors) {
  const char *x[1] = {"x"}, *y[1] = {"y"}, *nowhere[1] = {"nowhere"};
  pb n, g, m, a;
  int64_t d1[1] = {3};
  /* an input nothing produces: names node and value */
  n = node("Relu", "r1", 1, nowhere, 1, y);
  g = graph_one(&n);
  m = model(8, 13, &g);
  expect_model_refused(&m, GE_ERR_FORMAT, "node 'r1' (Relu): input 'nowhere' is not produced", "missing producer");
  /* two nodes writing y */
  n = node("Relu", "r1", 1, x, 1, y);
  g = graph_one(&n);
  n = node("Neg", "r2", 1, x, 1, y);
  pb_msg(&g, 1, &n);
  m = model(8, 13, &g);
  expect_model_refused(&m, GE_ERR_FORMAT, "value 'y' is defined twice", "duplicate output");
  /* a node output named like a graph input */
  n = node("Relu", "r1", 1, x, 1, x);
  g = graph_one(&n);
  m = model(8, 13, &g);
  expect_model_refused(&m, GE_ERR_FORMAT, "value 'x' is defined twice", "output shadows an input");
  /* initializer size */
  n = node("Relu", "r1", 1, x, 1, y);
  g = (pb){0};
  pb_msg(&g, 1, &n);
  {
    float f[2] = {1, 2};
    pb t = tensor_raw("x", 1, 1, d1, f, 8), v = vi_tensor("y", 1, 0, NULL, NULL);
    pb_msg(&g, 5, &t);
    pb_msg(&g, 12, &v);
  }
  m = model(8, 13, &g);
  expect_model_refused(&m, GE_ERR_FORMAT, "raw_data has 8 bytes", "initializer size");
  /* duplicate initializer names */
  g = (pb){0};
  {
    float f[3] = {1, 2, 3};
    pb t = tensor_raw("w", 1, 1, d1, f, 12), t2 = tensor_raw("w", 1, 1, d1, f, 12);
    pb_msg(&g, 5, &t);
    pb_msg(&g, 5, &t2);
  }
  m = model(8, 13, &g);
  expect_model_refused(&m, GE_ERR_FORMAT, "two initializers are named 'w'", "duplicate initializer");
  /* duplicate graph inputs */
  n = node("Relu", "r1", 1, x, 1, y);
  g = graph_one(&n);
  {
    pb v = vi_tensor("x", 1, 0, NULL, NULL);
    pb_msg(&g, 11, &v);
  }
  m = model(8, 13, &g);
  expect_model_refused(&m, GE_ERR_FORMAT, "two inputs named 'x'", "duplicate input");
  /* a graph output nothing produces */
  n = node("Relu", "r1", 1, x, 1, x + 0);
  g = (pb){0};
  {
    pb v = vi_tensor("x", 1, 0, NULL, NULL), o = vi_tensor("zz", 1, 0, NULL, NULL);
    pb_msg(&g, 11, &v);
    pb_msg(&g, 12, &o);
  }
  pb_free(&n);
  m = model(8, 13, &g);
  expect_model_refused(&m, GE_ERR_FORMAT, "output 'zz' is not produced", "missing output");
  /* node without op_type, attribute twice, attribute without name */
  n = (pb){0};
  pb_str(&n, 1, "x");
  pb_str(&n, 2, "y");
  g = graph_one(&n);
  m = model(8, 13, &g);
  expect_model_refused(&m, GE_ERR_FORMAT, "has no op_type", "no op_type");
  n = node("Softmax", "sm", 1, x, 1, y);
  a = attr_int("axis", 1);
  pb_msg(&n, 5, &a);
  a = attr_int("axis", 0);
  pb_msg(&n, 5, &a);
  g = graph_one(&n);
  m = model(8, 13, &g);
  expect_model_refused(&m, GE_ERR_FORMAT, "two attributes named 'axis'", "duplicate attribute");
  n = node("Softmax", "sm", 1, x, 1, y);
  a = (pb){0};
  pb_int(&a, 3, 1);
  pb_int(&a, 20, 2);
  pb_msg(&n, 5, &a);
  g = graph_one(&n);
  m = model(8, 13, &g);
  expect_model_refused(&m, GE_ERR_FORMAT, "has no name", "nameless attribute");
  /* unsupported attribute kinds name the node and attribute */
  n = node("Foo", "foo", 1, x, 1, y);
  a = (pb){0};
  pb_str(&a, 1, "sp");
  pb_int(&a, 20, 11);
  pb_msg(&n, 5, &a);
  g = graph_one(&n);
  m = model(8, 13, &g);
  expect_model_refused(&m, GE_ERR_UNSUPPORTED, "node 'foo' (Foo): attribute 'sp' holds sparse tensors", "sparse attribute");
  n = node("Foo", "foo", 1, x, 1, y);
  a = (pb){0};
  pb_str(&a, 1, "tp");
  pb_int(&a, 20, 13);
  pb_msg(&n, 5, &a);
  g = graph_one(&n);
  m = model(8, 13, &g);
  expect_model_refused(&m, GE_ERR_UNSUPPORTED, "node 'foo' (Foo): attribute 'tp' holds type protos", "type proto attribute");
  /* versions */
  n = node("Relu", "r1", 1, x, 1, y);
  g = graph_one(&n);
  m = model(12, 13, &g);
  expect_model_refused(&m, GE_ERR_UNSUPPORTED, "IR version 12", "IR 12");
  n = node("Relu", "r1", 1, x, 1, y);
  g = graph_one(&n);
  m = model(2, 13, &g);
  expect_model_refused(&m, GE_ERR_UNSUPPORTED, "IR version 2", "IR 2");
  n = node("Relu", "r1", 1, x, 1, y);
  g = graph_one(&n);
  m = model(8, 19, &g);
  expect_model_refused(&m, GE_ERR_UNSUPPORTED, "opset 19 of the default domain", "opset 19");
  n = node("Relu", "r1", 1, x, 1, y);
  g = graph_one(&n);
  m = model(8, 0, &g);
  expect_model_refused(&m, GE_ERR_FORMAT, "imports no opset", "no opset");
  n = node("Relu", "r1", 1, x, 1, y);
  g = graph_one(&n);
  m = (pb){0};
  pb_msg(&m, 7, &g);
  expect_model_refused(&m, GE_ERR_FORMAT, "no ir_version", "no ir_version");
  /* sparse initializer, model-local function call */
  n = node("Relu", "r1", 1, x, 1, y);
  g = graph_one(&n);
  {
    pb sp = {0};
    pb_int(&sp, 3, 4);
    pb_msg(&g, 15, &sp);
  }
  m = model(8, 13, &g);
  expect_model_refused(&m, GE_ERR_UNSUPPORTED, "sparse initializers", "sparse initializer");
  n = node("MyFn", "call", 1, x, 1, y);
  pb_str(&n, 7, "local");
  g = graph_one(&n);
  m = model(8, 13, &g);
  {
    pb fn = {0};
    pb_str(&fn, 1, "MyFn");
    pb_str(&fn, 10, "local");
    pb_msg(&m, 25, &fn);
  }
  {
    pb o = {0};
    pb_str(&o, 1, "local");
    pb_int(&o, 2, 1);
    pb_msg(&m, 8, &o);
  }
  expect_model_refused(&m, GE_ERR_UNSUPPORTED, "calls the model-local function 'local.MyFn'", "function call");
  /* ge's structural ops are not ONNX ops */
  n = node("Const", "k", 1, x, 1, y);
  g = graph_one(&n);
  m = model(8, 13, &g);
  expect_model_refused(&m, GE_ERR_UNSUPPORTED, "'Const' is not an ONNX op", "reserved op");
  n = node("NetOutput", "k", 1, x, 1, y);
  pb_str(&n, 7, "ge");
  g = graph_one(&n);
  m = model(8, 13, &g);
  {
    pb o = {0};
    pb_str(&o, 1, "ge");
    pb_int(&o, 2, 1);
    pb_msg(&m, 8, &o);
  }
  expect_model_refused(&m, GE_ERR_UNSUPPORTED, "ge.NetOutput is a graph input, output or weight", "ge.NetOutput");
  /* a domain without an opset import */
  n = node("Thing", "thing", 1, x, 1, y);
  pb_str(&n, 7, "custom");
  g = graph_one(&n);
  m = model(8, 13, &g);
  expect_model_refused(&m, GE_ERR_FORMAT, "node 'thing' (Thing) is in domain 'custom', which the model imports no opset", "no domain opset");
  /* nodes reading each other */
  {
    const char *ab[2] = {"x", "b"}, *ba[2] = {"x", "a"}, *a1[1] = {"a"}, *b1[1] = {"b"};
    n = node("Add", "na", 2, ab, 1, a1);
    g = graph_one(&n);
    n = node("Add", "nb", 2, ba, 1, b1);
    pb_msg(&g, 1, &n);
    n = node("Identity", "out", 1, a1, 1, y);
    pb_msg(&g, 1, &n);
    m = model(8, 13, &g);
    expect_model_refused(&m, GE_ERR_FORMAT, "is on a cycle", "cycle");
  }
  /* nodes out of order are fine */
  {
    const char *yz[1] = {"z"}, *yy[1] = {"y"};
    ge_graph *gr;
    ge_error err;
    pb v;
    n = node("Neg", "second", 1, yz, 1, yy);
    g = (pb){0};
    pb_msg(&g, 1, &n);
    n = node("Relu", "first", 1, x, 1, yz);
    pb_msg(&g, 1, &n);
    v = vi_tensor("x", 1, 0, NULL, NULL);
    pb_msg(&g, 11, &v);
    v = vi_tensor("y", 1, 0, NULL, NULL);
    pb_msg(&g, 12, &v);
    m = model(8, 13, &g);
    gr = load_buf(&m, &err);
    GE_CHECK(gr && validate_ok(gr, &err));
    ge_graph_free(gr);
    pb_free(&m);
  }
}

/* ------------------------------------------------------------ logging */

typedef struct log_sink {
  char text[4096];
  int count;
} log_sink;

static void collect_log(void *user, ge_log_level level, const char *module, const char *message) {
  log_sink *s = (log_sink *)user;
  size_t n = strlen(s->text);
  s->count++;
  snprintf(s->text + n, sizeof s->text - n, "%d %s: %s\n", (int)level, module, message);
}

GE_TEST(test_model_fields_and_log) {
  const char *x[1] = {"x"}, *y[1] = {"y"}, *z[1] = {"z"};
  pb n = node("Relu", "r1", 1, x, 1, y), g, m, o;
  ge_onnx_desc d;
  log_sink sink;
  ge_graph *gr;
  ge_error err;
  const ge_attr *a;
  char why[480];
  g = graph_one(&n);
  n = node("Normalizer", "norm", 1, y, 1, z);
  pb_str(&n, 7, "ai.onnx.ml");
  pb_msg(&g, 1, &n);
  {
    pb v = vi_tensor("z", 1, 0, NULL, NULL), q = {0};
    pb_msg(&g, 12, &v);
    pb_str(&q, 1, "y");
    pb_msg(&g, 14, &q); /* quantization_annotation */
  }
  pb_str(&g, 2, "fields");
  m = model(7, 12, &g);
  pb_str(&m, 3, "1.2.3");
  pb_str(&m, 4, "org.example");
  pb_int(&m, 5, 42);
  pb_str(&m, 6, "a model\nfor tests");
  o = (pb){0};
  pb_str(&o, 1, "ai.onnx.ml");
  pb_int(&o, 2, 3);
  pb_msg(&m, 8, &o);
  o = (pb){0};
  pb_str(&o, 1, "author");
  pb_str(&o, 2, "ge");
  pb_msg(&m, 14, &o);
  o = (pb){0};
  pb_int(&o, 1, 1);
  pb_msg(&m, 20, &o); /* training_info */
  o = (pb){0};
  pb_str(&o, 1, "Unused");
  pb_msg(&m, 25, &o); /* a function nobody calls */
  memset(&d, 0, sizeof d);
  memset(&sink, 0, sizeof sink);
  d.logger.fn = collect_log;
  d.logger.user = &sink;
  d.logger.level = GE_LOG_DEBUG;
  GE_REQUIRE(ge_onnx_load_buffer(m.p, m.n, NULL, &d, &gr, &err) == GE_OK);
  GE_CHECK(strstr(sink.text, "domain 'ai.onnx.ml': no op schemas") != NULL);
  GE_CHECK(strstr(sink.text, "training_info ignored") != NULL);
  GE_CHECK(strstr(sink.text, "1 model-local functions ignored") != NULL);
  GE_CHECK(strstr(sink.text, "quantization_annotation ignored") != NULL);
  GE_CHECK(strstr(sink.text, " onnx: ") != NULL);
  GE_CHECK_EQ_INT(ge_graph_attr(gr, "onnx_ir_version")->v.i, 7);
  GE_CHECK_EQ_INT(ge_graph_attr(gr, "onnx_opset")->v.i, 12);
  GE_CHECK_EQ_INT(ge_graph_attr(gr, "onnx_opset:ai.onnx.ml")->v.i, 3);
  GE_CHECK_EQ_INT(ge_graph_attr(gr, "onnx_model_version")->v.i, 42);
  GE_CHECK_STR(ge_graph_attr(gr, "onnx_producer")->v.s, "test_onnx");
  GE_CHECK_STR(ge_graph_attr(gr, "onnx_producer_version")->v.s, "1.2.3");
  GE_CHECK_STR(ge_graph_attr(gr, "onnx_model_domain")->v.s, "org.example");
  GE_CHECK_STR(ge_graph_attr(gr, "onnx_doc_string")->v.s, "a model\nfor tests");
  GE_CHECK_STR(ge_graph_attr(gr, "onnx_metadata:author")->v.s, "ge");
  GE_CHECK_STR(ge_graph_name(gr), "fields");
  GE_CHECK_STR(find_node(gr, "norm")->domain, "ai.onnx.ml");
  GE_CHECK(find_node(gr, "r1")->domain == NULL);
  a = ge_graph_attr(gr, "onnx_opset");
  GE_CHECK(a && a->type == GE_ATTR_INT);
  GE_CHECK(round_trip(gr, why, sizeof why));
  ge_graph_free(gr);
  /* the desc's name overrides the graph's */
  d.graph.name = "renamed";
  GE_REQUIRE(ge_onnx_load_buffer(m.p, m.n, NULL, &d, &gr, &err) == GE_OK);
  GE_CHECK_STR(ge_graph_name(gr), "renamed");
  ge_graph_free(gr);
  pb_free(&m);
}

/* ------------------------------------------- graphs made with the C API */

GE_TEST(test_export_c_api_graph) {
  ge_graph *g = tu_new_graph("capi"), *h, *then_g, *else_g;
  ge_node_id x, c, w, add, relu, topk, iff, d, neg, id, k;
  int64_t dx[2] = {-1, 3}, d3[1] = {3}, one[1] = {1};
  ge_dim_info info[2];
  float wv[3] = {1, 2, 3};
  int64_t kv = 1;
  ge_tensor wt, kt;
  ge_edge e[3];
  const char *onames[4] = {"result", NULL, "x_copy", "branch"};
  uint8_t *bytes;
  size_t nb;
  ge_error err;
  ge_node *n;
  memset(info, 0, sizeof info);
  info[0].hi = -1;
  info[0].symbol = "N";
  info[1].hi = -1;
  TU_OK(ge_graph_add_data(g, "x", GE_DTYPE_FLOAT32, 2, dx, &x, NULL));
  TU_OK(ge_node_set_output(g, x, 0, GE_DTYPE_FLOAT32, 2, dx, info, NULL));
  TU_OK(ge_graph_add_data(g, "c", GE_DTYPE_BOOL, 0, NULL, &c, NULL));
  memset(&wt, 0, sizeof wt);
  wt.dtype = GE_DTYPE_FLOAT32;
  wt.rank = 1;
  wt.dims = d3;
  wt.data = wv;
  wt.nbytes = sizeof wv;
  TU_OK(ge_graph_add_const(g, "w", &wt, &w, NULL));
  e[0] = tu_e(x, 0);
  e[1] = tu_e(w, 0);
  TU_OK(ge_graph_add_node(g, "Add", "add", 2, e, 1, &add, NULL));
  e[0] = tu_e(add, 0);
  TU_OK(ge_graph_add_node(g, "Relu", "relu", 1, e, 1, &relu, NULL));
  TU_OK(ge_node_set_output_name(g, relu, 0, "act", NULL));
  TU_OK(ge_node_set_attr_bool(g, relu, "flag", 1, NULL));        /* written as an int */
  TU_OK(ge_node_set_attr_int(g, relu, "_private", 5, NULL));     /* written like any other */
  memset(&kt, 0, sizeof kt);
  kt.dtype = GE_DTYPE_INT64;
  kt.rank = 1;
  kt.dims = one;
  kt.data = &kv;
  kt.nbytes = 8;
  TU_OK(ge_graph_add_const(g, "kconst", &kt, &k, NULL));
  TU_OK(ge_node_set_output_name(g, k, 0, "kvalue", NULL)); /* differs: a Constant node */
  e[0] = tu_e(relu, 0);
  e[1] = tu_e(k, 0);
  TU_OK(ge_graph_add_node(g, "TopK", "topk", 2, e, 2, &topk, NULL)); /* output 1 unused */
  /* a GE-style If: the branches read input 1 through parent_index */
  then_g = tu_new_graph("then");
  TU_OK(ge_graph_add_node(then_g, "Data", "xin", 0, NULL, 1, &d, NULL));
  TU_OK(ge_node_set_attr_int(then_g, d, "parent_index", 1, NULL));
  e[0] = tu_e(d, 0);
  TU_OK(ge_graph_add_node(then_g, "Neg", "neg", 1, e, 1, &neg, NULL));
  e[0] = tu_e(neg, 0);
  TU_OK(ge_graph_set_outputs(then_g, 1, e, NULL, NULL));
  else_g = tu_new_graph("else");
  TU_OK(ge_graph_add_node(else_g, "Data", "xin", 0, NULL, 1, &d, NULL));
  TU_OK(ge_node_set_attr_int(else_g, d, "parent_index", 1, NULL));
  e[0] = tu_e(d, 0);
  TU_OK(ge_graph_add_node(else_g, "Identity", "id", 1, e, 1, &id, NULL));
  e[0] = tu_e(id, 0);
  TU_OK(ge_graph_set_outputs(else_g, 1, e, NULL, NULL));
  e[0] = tu_e(c, 0);
  e[1] = tu_e(x, 0);
  TU_OK(ge_graph_add_node(g, "If", "branch", 2, e, 1, &iff, NULL));
  TU_OK(ge_node_set_attr_graph(g, iff, "then_branch", then_g, NULL));
  TU_OK(ge_node_set_attr_graph(g, iff, "else_branch", else_g, NULL));
  { /* a ge op that is not ONNX: written in domain "ge", read back as it was */
    ge_graph *f = tu_new_graph("f");
    ge_node_id fd, fr;
    TU_OK(ge_graph_add_data(f, "fx", GE_DTYPE_FLOAT32, 2, dx, &fd, NULL));
    e[0] = tu_e(fd, 0);
    TU_OK(ge_graph_add_node(f, "Relu", "frelu", 1, e, 1, &fr, NULL));
    e[0] = tu_e(fr, 0);
    TU_OK(ge_graph_set_outputs(f, 1, e, NULL, NULL));
    e[0] = tu_e(x, 0);
    TU_OK(ge_graph_add_node(g, "PartitionedCall", "call", 1, e, 1, &id, NULL));
    TU_OK(ge_node_set_attr_graph(g, id, "f", f, NULL));
    TU_OK(ge_node_set_output_name(g, id, 0, "called", NULL));
  }
  {
    ge_edge outs[4];
    outs[0] = tu_e(topk, 0);
    outs[1] = tu_e(add, 0);
    outs[2] = tu_e(x, 0);
    outs[3] = tu_e(iff, 0);
    TU_OK(ge_graph_set_outputs(g, 4, outs, onames, NULL));
  }
  GE_REQUIRE(ge_onnx_save_buffer(g, &bytes, &nb, &err) == GE_OK);
  GE_REQUIRE(ge_onnx_load_buffer(bytes, nb, NULL, NULL, &h, &err) == GE_OK);
  GE_CHECK(validate_ok(h, &err));
  GE_CHECK_EQ_INT(ge_graph_attr(h, "onnx_opset")->v.i, 17);
  GE_CHECK_EQ_INT(ge_graph_attr(h, "onnx_opset:ge")->v.i, 1);
  n = find_node(h, "call");
  GE_REQUIRE(n);
  GE_CHECK_STR(n->op, "PartitionedCall");
  GE_CHECK(n->domain == NULL && n->schema != NULL);
  GE_CHECK(sub_of(n, "f") && ge_graph_inputs(sub_of(n, "f"), NULL, 0) == 1);
  GE_CHECK_EQ_INT(ge_graph_attr(h, "onnx_ir_version")->v.i, 8);
  GE_CHECK_STR(ge_graph_attr(h, "onnx_producer")->v.s, "ge");
  n = find_node(h, "x");
  GE_REQUIRE(n);
  GE_CHECK_EQ_INT(ge_node_attr_int(n, "index", -1), 0);
  GE_CHECK(n->outputs[0].shape.rank == 2 && n->outputs[0].shape.dims[0] == -1 && n->outputs[0].shape.info &&
           strcmp(n->outputs[0].shape.info[0].symbol, "N") == 0 && n->outputs[0].shape.dims[1] == 3);
  GE_CHECK_EQ_INT(ge_node_attr_int(find_node(h, "c"), "index", -1), 1);
  GE_CHECK_STR(find_node(h, "w")->op, "Const");
  n = find_node(h, "kconst");
  GE_REQUIRE(n);
  GE_CHECK_STR(n->op, "Const");
  GE_CHECK_STR(n->outputs[0].name, "kvalue");
  n = find_node(h, "add");
  GE_REQUIRE(n);
  GE_CHECK_STR(n->outputs[0].name, "add"); /* a made value name */
  n = find_node(h, "relu");
  GE_REQUIRE(n);
  GE_CHECK_EQ_INT(ge_node_attr_int(n, "flag", -1), 1);
  GE_CHECK_EQ_INT(ge_node_attr_int(n, "_private", -1), 5);
  n = find_node(h, "topk");
  GE_REQUIRE(n);
  GE_CHECK_EQ_INT(n->num_outputs, 2);
  GE_CHECK(n->outputs[1].name == NULL); /* unused and unnamed: "" */
  n = find_node(h, "branch");
  GE_REQUIRE(n);
  GE_CHECK_EQ_INT(n->num_inputs, 2); /* cond + x, which the branches read by name */
  GE_CHECK_STR(input_name(h, n, 1), "x");
  GE_CHECK(parent_data(sub_of(n, "then_branch"), "x") != NULL);
  /* graph outputs keep their names: Identity nodes rename values */
  n = ge_graph_node(h, ge_graph_output_node(h));
  GE_REQUIRE(n && n->num_outputs == 4);
  GE_CHECK_STR(n->outputs[0].name, "result");
  GE_CHECK_STR(n->outputs[1].name, "add");
  GE_CHECK_STR(n->outputs[2].name, "x_copy");
  GE_CHECK_STR(n->outputs[3].name, "branch");
  /* the unnamed TopK value took the output's name; x cannot: an Identity */
  GE_CHECK_STR(ge_graph_node(h, n->inputs[0].node)->op, "TopK");
  GE_CHECK_STR(ge_graph_node(h, n->inputs[0].node)->outputs[0].name, "result");
  GE_CHECK_STR(ge_graph_node(h, n->inputs[2].node)->op, "Identity");
  {
    char why[480];
    GE_CHECK(round_trip(h, why, sizeof why));
  }
  ge_graph_free(h);
  ge_graph_free_bytes(g, bytes, nb);
  /* a subgraph alone cannot be written; nor a cycle, a dangling output, a
     Data without index, a parent_index out of range */
  GE_CHECK_EQ_INT(ge_onnx_save_buffer(sub_of(ge_graph_node(g, iff), "then_branch"), &bytes, &nb, &err), GE_ERR_INVALID);
  GE_CHECK(strstr(err.message, "is a subgraph") != NULL);
  TU_OK(ge_node_set_attr_int((ge_graph *)sub_of(ge_graph_node(g, iff), "else_branch"), 0, "parent_index", 7, NULL));
  GE_CHECK_EQ_INT(ge_onnx_save_buffer(g, &bytes, &nb, &err), GE_ERR_INVALID);
  GE_CHECK(strstr(err.message, "parent_index 7") != NULL);
  GE_CHECK(strstr(err.message, "node 'branch'") != NULL);
  ge_graph_free(g);
  g = tu_new_graph("cyclic");
  TU_OK(ge_graph_add_node(g, "Relu", "a", 1, NULL, 1, &add, NULL));
  e[0] = tu_e(add, 0);
  TU_OK(ge_graph_add_node(g, "Relu", "b", 1, e, 1, &relu, NULL));
  TU_OK(ge_graph_set_input(g, add, 0, tu_e(relu, 0), NULL));
  GE_CHECK_EQ_INT(ge_onnx_save_buffer(g, &bytes, &nb, &err), GE_ERR_CYCLE);
  ge_graph_free(g);
  g = tu_new_graph("bad_data");
  TU_OK(ge_graph_add_node(g, "Data", "loose", 0, NULL, 1, &d, NULL));
  GE_CHECK_EQ_INT(ge_onnx_save_buffer(g, &bytes, &nb, &err), GE_ERR_INVALID);
  GE_CHECK(strstr(err.message, "neither index nor parent_index") != NULL);
  ge_graph_free(g);
  g = tu_new_graph("dangling");
  e[0].node = GE_NONE;
  e[0].index = 0;
  TU_OK(ge_graph_set_outputs(g, 1, e, NULL, NULL));
  GE_CHECK_EQ_INT(ge_onnx_save_buffer(g, &bytes, &nb, &err), GE_ERR_INVALID);
  GE_CHECK(strstr(err.message, "output 0 is not connected") != NULL);
  ge_graph_free(g);
}

/* tu_rich_graph (every feature of ge_graph.h) exports, and what comes back
 * validates. */
GE_TEST(test_export_rich_graph) {
  char path[256];
  ge_graph *g, *h;
  uint8_t *bytes;
  size_t nb;
  ge_error err;
  tu_temp_path(path, sizeof path, "onnx_rich");
  g = tu_rich_graph(path);
  if (ge_onnx_save_buffer(g, &bytes, &nb, &err) != GE_OK) {
    GE_CHECK(err.code == GE_ERR_UNSUPPORTED || err.code == GE_ERR_INVALID);
    printf("    rich graph not exportable: %s\n", err.message);
  } else {
    GE_CHECK(ge_onnx_load_buffer(bytes, nb, NULL, NULL, &h, &err) == GE_OK);
    if (h) {
      ge_validate_desc vd;
      vd.allow_unknown_ops = 1;
      GE_CHECK(ge_graph_validate(h, &vd, &err) == GE_OK || err.code == GE_ERR_SHAPE || err.code == GE_ERR_INVALID);
      GE_CHECK(ge_graph_node_count(h) > 5);
    }
    ge_graph_free(h);
    ge_graph_free_bytes(g, bytes, nb);
  }
  ge_graph_free(g);
  remove(path);
}

GE_TEST(test_api_arguments) {
  ge_graph *g = (ge_graph *)1;
  ge_error err;
  uint8_t *b = (uint8_t *)1;
  size_t n = 1;
  GE_CHECK_EQ_INT(ge_onnx_load(NULL, NULL, &g, &err), GE_ERR_INVALID);
  GE_CHECK(g == NULL);
  GE_CHECK_EQ_INT(ge_onnx_load("x.onnx", NULL, NULL, &err), GE_ERR_INVALID);
  GE_CHECK_EQ_INT(ge_onnx_load("/nonexistent/dir/model.onnx", NULL, &g, &err), GE_ERR_IO);
  GE_CHECK(strstr(err.message, "/nonexistent/dir/model.onnx") != NULL);
  GE_CHECK_EQ_INT(ge_onnx_load("/nonexistent/dir/model.onnx", NULL, &g, NULL), GE_ERR_IO);
  GE_CHECK_EQ_INT(ge_onnx_load_buffer(NULL, 3, NULL, NULL, &g, &err), GE_ERR_INVALID);
  GE_CHECK_EQ_INT(ge_onnx_load_buffer(NULL, 0, NULL, NULL, &g, NULL), GE_ERR_FORMAT);
  GE_CHECK_EQ_INT(ge_onnx_save_buffer(NULL, &b, &n, &err), GE_ERR_INVALID);
  GE_CHECK(b == NULL && n == 0);
  GE_CHECK_EQ_INT(ge_onnx_save(NULL, "/tmp/x", NULL), GE_ERR_INVALID);
  g = tu_new_graph("empty");
  GE_CHECK_EQ_INT(ge_onnx_save(g, NULL, &err), GE_ERR_INVALID);
  GE_CHECK_EQ_INT(ge_onnx_save(g, "/nonexistent/dir/out.onnx", &err), GE_ERR_IO);
  /* an empty graph is a valid (empty) model */
  GE_REQUIRE(ge_onnx_save_buffer(g, &b, &n, &err) == GE_OK);
  {
    ge_graph *h;
    GE_CHECK(ge_onnx_load_buffer(b, n, NULL, NULL, &h, &err) == GE_OK);
    GE_CHECK(h && ge_graph_node_count(h) == 0);
    ge_graph_free(h);
  }
  ge_graph_free_bytes(g, b, n);
  ge_graph_free(g);
  ge_onnx_tensor_free(NULL);
}

/* ------------------------------------------------- allocation failure */

/* Fails allocation k for k = 0, 1, ... while loading m, then while writing
 * the loaded graph back: every failure is GE_ERR_NOMEM and leaves nothing
 * allocated; free and realloc always get the size the block has. */
static void alloc_fail_sweep(const uint8_t *p, size_t n, const char *what) {
  tu_alloc_state s;
  ge_onnx_desc d;
  long long k, loads = 0, saves = 0;
  memset(&d, 0, sizeof d);
  for (k = 0; k < 200000; k++) {
    ge_graph *g = (ge_graph *)1;
    ge_error err;
    ge_status st;
    d.graph.allocator = tu_allocator(&s);
    s.fail_after = k;
    st = ge_onnx_load_buffer(p, n, NULL, &d, &g, &err);
    if (st != GE_OK) {
      loads++;
      if (st != GE_ERR_NOMEM || g != NULL || s.blocks != 0) {
        ge_test__check(0, __FILE__, __LINE__, "%s: load failing at allocation %lld: status %d, %lld blocks left: %s", what, k, st,
                       s.blocks, err.message);
        return;
      }
      continue;
    }
    { /* now the writer */
      long long j;
      for (j = 0; j < 100000; j++) {
        uint8_t *b;
        size_t nb;
        long long before = s.blocks;
        s.fail_after = s.allocs + j;
        st = ge_onnx_save_buffer(g, &b, &nb, &err);
        if (st == GE_OK) {
          s.fail_after = -1;
          ge_graph_free_bytes(g, b, nb);
          break;
        }
        saves++;
        if (st != GE_ERR_NOMEM || s.blocks != before) {
          ge_test__check(0, __FILE__, __LINE__, "%s: save failing at allocation %lld: status %d, %lld blocks leaked", what, j, st,
                         s.blocks - before);
          break;
        }
      }
    }
    ge_graph_free(g);
    GE_CHECK_EQ_INT(s.blocks, 0);
    GE_CHECK_EQ_INT(s.size_mismatches, 0);
    break;
  }
  if (loads < 5 || saves < 2)
    ge_test__check(0, __FILE__, __LINE__, "%s: only %lld load and %lld save failures", what, loads, saves);
}

static pb constant_model(void);

GE_TEST(test_allocation_failures) {
  pb ms[3];
  int i;
  ms[0] = outer_scope_model();
  ms[1] = typed_io_model();
  ms[2] = constant_model();
  for (i = 0; i < 3; i++) {
    alloc_fail_sweep(ms[i].p, ms[i].n, i == 0 ? "outer scope model" : i == 1 ? "typed io model" : "constant model");
    pb_free(&ms[i]);
  }
  if (have_conformance()) {
    static const char *const models[3] = {CONF_ROOT "/node/test_loop13_seq/model.onnx",
                                          CONF_ROOT "/pytorch-converted/test_Conv2d_groups/model.onnx",
                                          CONF_ROOT "/node/test_scan9_sum/model.onnx"};
    for (i = 0; i < 3; i++) {
      size_t n;
      uint8_t *p = read_file(models[i], &n);
      if (!p) continue;
      alloc_fail_sweep(p, n, models[i]);
      free(p);
    }
  }
  { /* the tensor reader */
    int64_t d1[1] = {3};
    pb t = tensor_head(8, 1, d1);
    tu_alloc_state s;
    ge_allocator a;
    long long k;
    pb_str(&t, 6, "one");
    pb_str(&t, 6, "two");
    pb_str(&t, 6, "three");
    pb_str(&t, 8, "strings");
    for (k = 0; k < 100; k++) {
      ge_onnx_tensor o;
      ge_error err;
      ge_status st;
      a = tu_allocator(&s);
      s.fail_after = k;
      st = ge_onnx_read_tensor(t.p, t.n, &a, &o, &err);
      if (st == GE_OK) {
        GE_CHECK_STR(((char **)o.data)[2], "three");
        GE_CHECK_STR(o.name, "strings");
        ge_onnx_tensor_free(&o);
        GE_CHECK_EQ_INT(s.blocks, 0);
        GE_CHECK_EQ_INT(s.size_mismatches, 0);
        break;
      }
      GE_CHECK_EQ_INT(st, GE_ERR_NOMEM);
      GE_CHECK_EQ_INT(s.blocks, 0);
    }
    GE_CHECK(k > 0 && k < 100);
    pb_free(&t);
  }
}

/* ------------------------------------------------------------- fuzzing */

static pb constant_model(void) {
  pb g = {0}, n, a, v;
  const char *o1[1] = {"k"}, *o2[1] = {"s"}, *in[2] = {"k", "x"}, *o3[1] = {"y"};
  int64_t d2[1] = {2};
  int32_t raw[2] = {1, 2};
  n = node("Constant", NULL, 0, NULL, 1, o1);
  a = (pb){0};
  pb_str(&a, 1, "value_ints");
  pb_int(&a, 8, 3);
  pb_int(&a, 8, 4);
  pb_int(&a, 20, 7);
  pb_msg(&n, 5, &a);
  pb_msg(&g, 1, &n);
  n = node("Constant", "s", 0, NULL, 1, o2);
  a = (pb){0};
  pb_str(&a, 1, "value_string");
  pb_str(&a, 4, "text");
  pb_int(&a, 20, 3);
  pb_msg(&n, 5, &a);
  pb_msg(&g, 1, &n);
  n = node("Add", "add", 2, in, 1, o3);
  pb_msg(&g, 1, &n);
  {
    pb t = tensor_raw("w", 6, 1, d2, raw, 8);
    pb_msg(&g, 5, &t);
  }
  v = vi_tensor("x", 7, 1, d2, NULL);
  pb_msg(&g, 11, &v);
  v = vi_tensor("w", 6, 1, d2, NULL); /* an input with a default */
  pb_msg(&g, 11, &v);
  v = vi_tensor("y", 7, 1, d2, NULL);
  pb_msg(&g, 12, &v);
  v = vi_tensor("s", 8, 0, NULL, NULL);
  pb_msg(&g, 12, &v);
  return model(8, 13, &g);
}

typedef struct fuzz_seed {
  uint8_t *p;
  size_t n;
} fuzz_seed;

static void add_seed(fuzz_seed *s, int *n, const uint8_t *p, size_t len) {
  s[*n].p = (uint8_t *)malloc(len ? len : 1);
  memcpy(s[*n].p, p, len);
  s[*n].n = len;
  (*n)++;
}

/* Mutates src into dst (capacity cap); returns the new length. */
static size_t mutate(tu_rng *r, const fuzz_seed *seeds, int nseeds, const fuzz_seed *src, uint8_t *dst, size_t cap) {
  size_t n = src->n < cap ? src->n : cap, k, edits = 1 + tu_below(r, 6);
  static const uint8_t interesting[8] = {0x00, 0x01, 0x7f, 0x80, 0xff, 0x08, 0x12, 0x0a};
  memcpy(dst, src->p, n);
  for (k = 0; k < edits; k++) {
    size_t at = n ? tu_below(r, (uint32_t)n) : 0, len;
    switch (tu_below(r, 8)) {
    case 0: if (n) dst[at] ^= (uint8_t)(1u << tu_below(r, 8)); break;
    case 1: if (n) dst[at] = interesting[tu_below(r, 8)]; break;
    case 2: if (n) dst[at] = (uint8_t)tu_next(r); break;
    case 3: /* delete a range */
      len = 1 + tu_below(r, 16);
      if (at + len > n) len = n - at;
      memmove(dst + at, dst + at + len, n - at - len);
      n -= len;
      break;
    case 4: /* insert random bytes */
      len = 1 + tu_below(r, 8);
      if (n + len <= cap) {
        size_t i;
        memmove(dst + at + len, dst + at, n - at);
        for (i = 0; i < len; i++) dst[at + i] = (uint8_t)tu_next(r);
        n += len;
      }
      break;
    case 5: /* duplicate a chunk */
      len = 1 + tu_below(r, 64);
      if (at + len <= n && n + len <= cap) {
        size_t to = tu_below(r, (uint32_t)n + 1);
        memmove(dst + to + len, dst + to, n - to);
        memmove(dst + to, to <= at ? dst + at + len : dst + at, len);
        n += len;
      }
      break;
    case 6: /* splice from another seed */
      {
        const fuzz_seed *o = &seeds[tu_below(r, (uint32_t)nseeds)];
        size_t from = o->n ? tu_below(r, (uint32_t)o->n) : 0;
        len = 1 + tu_below(r, 64);
        if (from + len > o->n) len = o->n - from;
        if (at + len <= cap) {
          memcpy(dst + at, o->p + from, len);
          if (at + len > n) n = at + len;
        }
      }
      break;
    default: if (n) n = tu_below(r, (uint32_t)n); break; /* truncate */
    }
  }
  return n;
}

GE_TEST(test_mutation_fuzz) {
  fuzz_seed seeds[16];
  int nseeds = 0, i;
  long iters = 40000, it, loaded = 0, tensors = 0, round_trips = 0;
  double budget = 4.0;
  uint64_t seed = 1;
  const char *env;
  tu_rng r;
  uint8_t *buf;
  size_t cap = 0;
  clock_t t0 = clock();
  pb ms[3];
  if ((env = getenv("GE_FUZZ_ITERS")) && atol(env) > 0) {
    iters = atol(env);
    budget = 1e9;
  }
  if ((env = getenv("GE_FUZZ_SEED"))) seed = (uint64_t)strtoull(env, NULL, 10);
  ms[0] = outer_scope_model();
  ms[1] = typed_io_model();
  ms[2] = constant_model();
  for (i = 0; i < 3; i++) {
    add_seed(seeds, &nseeds, ms[i].p, ms[i].n);
    pb_free(&ms[i]);
  }
  if (have_conformance()) {
    static const char *const files[] = {
        CONF_ROOT "/node/test_loop11/model.onnx", CONF_ROOT "/node/test_if_seq/model.onnx",
        CONF_ROOT "/node/test_scan9_sum/model.onnx", CONF_ROOT "/node/test_range_float_type_positive_delta_expanded/model.onnx",
        CONF_ROOT "/simple/test_sequence_model1/model.onnx", CONF_ROOT "/pytorch-operator/test_operator_repeat/model.onnx",
        CONF_ROOT "/node/test_cast_FLOAT_to_STRING/test_data_set_0/output_0.pb", CONF_ROOT "/node/test_abs/test_data_set_0/input_0.pb"};
    for (i = 0; i < (int)(sizeof files / sizeof files[0]); i++) {
      size_t n;
      uint8_t *p = read_file(files[i], &n);
      if (p && n < 65536) add_seed(seeds, &nseeds, p, n);
      free(p);
    }
  }
  for (i = 0; i < nseeds; i++)
    if (seeds[i].n * 2 + 256 > cap) cap = seeds[i].n * 2 + 256;
  buf = (uint8_t *)malloc(cap);
  tu_seed(&r, seed);
  for (it = 0; it < iters; it++) {
    const fuzz_seed *s = &seeds[tu_below(&r, (uint32_t)nseeds)];
    size_t n = mutate(&r, seeds, nseeds, s, buf, cap);
    ge_graph *g = (ge_graph *)1;
    ge_onnx_tensor t;
    ge_error err;
    ge_status st;
    if ((it & 255) == 0 && (double)(clock() - t0) / CLOCKS_PER_SEC > budget) break;
    st = ge_onnx_load_buffer(buf, n, NULL, NULL, &g, &err);
    if (st == GE_OK) {
      uint8_t *b1, *b2;
      size_t n1, n2;
      uint64_t h1, h2;
      ge_graph *g2, *g3;
      loaded++;
      validate_ok(g, &err);
      ge_graph_hash(g, &h1, &err);
      /* export, and export again what that reads as: the same bytes */
      if (ge_onnx_save_buffer(g, &b1, &n1, &err) != GE_OK) {
        ge_test__check(0, __FILE__, __LINE__, "iteration %ld (seed %llu): export failed: %s", it, (unsigned long long)seed, err.message);
      } else {
        if (ge_onnx_load_buffer(b1, n1, NULL, NULL, &g2, &err) != GE_OK) {
          ge_test__check(0, __FILE__, __LINE__, "iteration %ld (seed %llu): export does not load: %s", it, (unsigned long long)seed,
                         err.message);
        } else {
          if (ge_graph_hash(g2, &h2, &err) == GE_OK && h1 != h2)
            ge_test__check(0, __FILE__, __LINE__, "iteration %ld (seed %llu): import -> export -> import changed the hash", it,
                           (unsigned long long)seed);
          if (ge_onnx_save_buffer(g2, &b2, &n2, &err) == GE_OK) {
            if (n1 != n2 || memcmp(b1, b2, n1) != 0)
              ge_test__check(0, __FILE__, __LINE__, "iteration %ld (seed %llu): second export differs", it, (unsigned long long)seed);
            else round_trips++;
            if (ge_onnx_load_buffer(b2, n2, NULL, NULL, &g3, &err) == GE_OK) ge_graph_free(g3);
            ge_graph_free_bytes(g2, b2, n2);
          }
          ge_graph_free(g2);
        }
        ge_graph_free_bytes(g, b1, n1);
      }
      ge_graph_free(g);
    } else if (g != NULL || !err.message[0] || st > 0) {
      ge_test__check(0, __FILE__, __LINE__, "iteration %ld: failure left output %p, status %d", it, (void *)g, st);
    }
    if (ge_onnx_read_tensor(buf, n, NULL, &t, &err) == GE_OK) {
      tensors++;
      ge_onnx_tensor_free(&t);
    }
  }
  printf("    %ld mutated inputs (seed %llu, %d seeds): %ld loaded, %ld round-tripped, %ld read as tensors\n", it,
         (unsigned long long)seed, nseeds, loaded, round_trips, tensors);
  GE_CHECK(loaded > 0);
  free(buf);
  for (i = 0; i < nseeds; i++) free(seeds[i].p);
}

int main(int argc, char **argv) {
  ge_test_init(argc, argv);
  if (have_conformance()) {
    GE_RUN(test_conformance_import_validate);
    GE_RUN(test_conformance_round_trip);
    GE_RUN(test_conformance_tensor_files);
    GE_RUN(test_conformance_tensor_values);
    GE_RUN(test_conformance_onnx_checker);
  } else {
    printf("SKIP conformance tests: %s is missing (install libonnx-testdata; make test does)\n", CONF_ROOT);
  }
  GE_RUN(test_non_tensor_types);
  GE_RUN(test_outer_scope_references);
  GE_RUN(test_tensor_typed_fields);
  GE_RUN(test_tensor_errors);
  GE_RUN(test_constant_forms);
  GE_RUN(test_external_data);
  GE_RUN(test_borrow_from_model_file);
  GE_RUN(test_ir_10_and_11);
  GE_RUN(test_truncation_everywhere);
  GE_RUN(test_malformed_bytes);
  GE_RUN(test_nesting_limits);
  GE_RUN(test_model_errors);
  GE_RUN(test_model_fields_and_log);
  GE_RUN(test_export_c_api_graph);
  GE_RUN(test_export_rich_graph);
  GE_RUN(test_api_arguments);
  GE_RUN(test_allocation_failures);
  GE_RUN(test_mutation_fuzz);
  return ge_test_main_end();
}

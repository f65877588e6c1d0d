/* graph_util.h — helpers shared by the tests that build graphs: a graph
 * that uses every serializable feature, seeded random DAGs, a deep graph
 * comparison, and (from tests/rng.h and tests/check_alloc.h) the seeded
 * generator and the checking allocator. Include after ge_graph.h (with its
 * implementation) and tests/test.h. */
#ifndef GE_TEST_GRAPH_UTIL_H
#define GE_TEST_GRAPH_UTIL_H

#include <stdlib.h>
#include <string.h>
#include <unistd.h> /* getpid */

/* ------------------------------------------------------------ random */

#include "tests/rng.h"

#include "tests/check_alloc.h"

/* ------------------------------------------------------ building */

#define TU_OK(x)                                                              \
  do {                                                                        \
    ge_status tu_st_ = (x);                                                   \
    if (tu_st_ != GE_OK) {                                                    \
      fprintf(stderr, "%s:%d: %s failed: %d\n", __FILE__, __LINE__, #x, tu_st_); \
      abort();                                                                \
    }                                                                         \
  } while (0)

static GE_TEST__UNUSED ge_edge tu_e(ge_node_id n, int32_t i) {
  ge_edge e;
  e.node = n;
  e.index = i;
  return e;
}

static GE_TEST__UNUSED ge_graph *tu_new_graph(const char *name) {
  ge_graph_desc d;
  ge_graph *g;
  memset(&d, 0, sizeof d);
  d.name = name;
  TU_OK(ge_graph_create(&d, &g, NULL));
  return g;
}

/* Node builders: op with n inputs and one output. tu_add_op leaves the
 * output to shape inference; tu_add_op_shaped also declares its dtype and
 * shape (for graphs that are not inferred). */
static GE_TEST__UNUSED ge_node_id tu_add_op(ge_graph *g, const char *op, const char *name, uint32_t n, const ge_edge *in) {
  ge_node_id id;
  TU_OK(ge_graph_add_node(g, op, name, n, in, 1, &id, NULL));
  return id;
}

static GE_TEST__UNUSED ge_node_id tu_add_op_shaped(ge_graph *g, const char *op, const char *name, uint32_t n,
                                                   const ge_edge *in, ge_dtype dtype, int32_t rank, const int64_t *dims) {
  ge_node_id id = tu_add_op(g, op, name, n, in);
  TU_OK(ge_node_set_output(g, id, 0, dtype, rank, dims, NULL, NULL));
  return id;
}

/* A tensor of n elements of dtype t (rank 1, or rank 0 if n < 0 means scalar). */
static GE_TEST__UNUSED ge_tensor tu_tensor(ge_dtype t, int32_t rank, int64_t *dims, void *buf, size_t cap, uint32_t salt) {
  ge_tensor x;
  int64_t n = 1, i;
  int32_t k;
  memset(&x, 0, sizeof x);
  x.dtype = t;
  x.rank = rank;
  x.dims = dims;
  for (k = 0; k < rank; k++) n *= dims[k];
  if (t == GE_DTYPE_STRING) {
    static const char *const words[5] = {"", "alpha", "quote\"back\\slash", "new\nline", "utf8 \xc3\xa9"};
    const char **s = (const char **)buf;
    for (i = 0; i < n && (size_t)(i + 1) * sizeof(char *) <= cap; i++) s[i] = words[(i + salt) % 5];
    x.nbytes = (size_t)n * sizeof(char *);
  } else {
    unsigned char *b = (unsigned char *)buf;
    x.nbytes = (size_t)n * ge_dtype_size(t);
    for (i = 0; i < (int64_t)x.nbytes && (size_t)i < cap; i++) b[i] = (unsigned char)(i * 37 + salt * 11 + t);
    if (t == GE_DTYPE_BOOL)
      for (i = 0; i < n; i++) b[i] &= 1;
  }
  x.data = buf;
  return x;
}

/* A small graph: Data -> Relu -> NetOutput, named name, with one attribute. */
static GE_TEST__UNUSED ge_graph *tu_small_graph(const char *name, int64_t tag) {
  ge_graph *g = tu_new_graph(name);
  ge_node_id x, r;
  int64_t dims[2] = {2, 3};
  ge_edge e;
  TU_OK(ge_graph_add_data(g, "in", GE_DTYPE_FLOAT32, 2, dims, &x, NULL));
  TU_OK(ge_node_set_attr_int(g, x, "parent_index", 1, NULL));
  e = tu_e(x, 0);
  TU_OK(ge_graph_add_node(g, "Relu", "relu", 1, &e, 1, &r, NULL));
  TU_OK(ge_node_set_attr_int(g, r, "tag", tag, NULL));
  TU_OK(ge_node_set_output(g, r, 0, GE_DTYPE_FLOAT32, 2, dims, NULL, NULL));
  e = tu_e(r, 0);
  TU_OK(ge_graph_set_outputs(g, 1, &e, NULL, NULL));
  return g;
}

/* The file that backs the borrowed tensor of tu_rich_graph; the caller
 * removes it. */
static GE_TEST__UNUSED void tu_temp_path(char *buf, size_t n, const char *tag) {
  const char *dir = getenv("TMPDIR");
  snprintf(buf, n, "%s/ge_test_io_%s_%ld", dir && *dir ? dir : "/tmp", tag, (long)getpid());
}

/* Every feature the format carries: all attribute types, all dtypes,
 * symbols and ranges, unknown rank, subgraphs two levels deep (and graph
 * lists), holes from removed nodes, control edges, inputs reading later
 * nodes, absent inputs, module fields, a borrowed tensor from a mapped file
 * at path (which must not exist yet). */
static GE_TEST__UNUSED ge_graph *tu_rich_graph(const char *path) {
  ge_graph *g = tu_new_graph("main \"graph\"");
  ge_node_id x, y, w, bw, gone1, gone2, conv, bag, cif, cas, mine, late, early, out;
  int64_t d4[4] = {-1, 3, 224, 224}, d2[2] = {2, 3}, d1[1] = {4}, d0[1] = {0};
  ge_dim_info info[4];
  ge_edge e[4];
  float wv[6] = {1, 2, 3, 4, 5, 6};
  ge_tensor t;
  ge_mapped_file *m;
  FILE *f;
  int dt;
  memset(info, 0, sizeof info);
  info[0].lo = 1;
  info[0].hi = 8;
  info[0].symbol = "N";
  info[1].hi = -1;
  info[2].lo = 0;
  info[2].hi = -1;
  info[2].symbol = "";
  info[3].lo = 224;
  info[3].hi = 448;
  /* inputs */
  TU_OK(ge_graph_add_data(g, "x", GE_DTYPE_FLOAT32, 4, d4, &x, NULL));
  TU_OK(ge_node_set_output(g, x, 0, GE_DTYPE_FLOAT32, 4, d4, info, NULL));
  TU_OK(ge_node_set_output_format(g, x, 0, GE_FORMAT_NCHW, NULL));
  TU_OK(ge_graph_add_data(g, "y", GE_DTYPE_INT64, GE_RANK_UNKNOWN, NULL, &y, NULL));
  /* a node that reads a later node (set below) */
  TU_OK(ge_graph_add_node(g, "Identity", "early", 1, NULL, 1, &early, NULL));
  TU_OK(ge_graph_add_node(g, "Gone", "gone1", 0, NULL, 1, &gone1, NULL));
  /* constants: owned and borrowed */
  t = tu_tensor(GE_DTYPE_FLOAT32, 2, d2, wv, sizeof wv, 0);
  TU_OK(ge_graph_add_const(g, "w", &t, &w, NULL));
  f = fopen(path, "wb");
  if (!f) abort();
  {
    float bv[6] = {0.5f, 1.5f, 2.5f, 3.5f, 9, 9};
    fwrite(bv, sizeof(float), 6, f);
  }
  fclose(f);
  TU_OK(ge_file_map(path, &m, NULL));
  memset(&t, 0, sizeof t);
  t.dtype = GE_DTYPE_FLOAT32;
  t.rank = 1;
  t.dims = d1;
  t.data = (void *)ge_mapped_file_data(m);
  t.nbytes = 16;
  t.borrowed = m;
  TU_OK(ge_graph_add_const(g, "borrowed_w", &t, &bw, NULL));
  ge_mapped_file_release(m);
  /* a conv with an absent input in the middle, reading the removed node */
  e[0] = tu_e(x, 0);
  e[1] = tu_e(GE_NONE, 0);
  e[2] = tu_e(w, 0);
  e[3] = tu_e(gone1, 0);
  TU_OK(ge_graph_add_node(g, "Conv", "conv1", 4, e, 1, &conv, NULL));
  {
    int64_t ks[2] = {3, 3}, pads[4] = {1, 1, 1, 1};
    TU_OK(ge_node_set_attr_ints(g, conv, "kernel_shape", ks, 2, NULL));
    TU_OK(ge_node_set_attr_ints(g, conv, "pads", pads, 4, NULL));
  }
  TU_OK(ge_node_set_output(g, conv, 0, GE_DTYPE_FLOAT32, 4, d4, info, NULL));
  TU_OK(ge_graph_add_control(g, gone1, conv, NULL));
  ge_graph_node(g, conv)->engine = 1;
  ge_graph_node(g, conv)->stream = 0;
  ge_graph_node(g, conv)->topo_id = 7;
  ge_graph_node(g, conv)->cluster = 3;
  ge_graph_node(g, conv)->outputs[0].offset = 4096;
  ge_graph_node(g, conv)->flags |= GE_NODE_FORCE_DYNAMIC | GE_NODE_USER0 | (GE_NODE_USER0 << 5);
  TU_OK(ge_graph_add_node(g, "Gone", "gone2", 0, NULL, 2, &gone2, NULL));
  TU_OK(ge_graph_add_control(g, conv, gone2, NULL));
  /* every attribute type */
  TU_OK(ge_graph_add_node(g, "AttrBag", "bag", 2, NULL, 0, &bag, NULL));
  TU_OK(ge_node_set_attr_int(g, bag, "i_min", INT64_MIN, NULL));
  TU_OK(ge_node_set_attr_int(g, bag, "i_max", INT64_MAX, NULL));
  TU_OK(ge_node_set_attr_float(g, bag, "f_neg0", -0.0, NULL));
  TU_OK(ge_node_set_attr_float(g, bag, "f_big", 1e300, NULL));
  TU_OK(ge_node_set_attr_float(g, bag, "f_nan", NAN, NULL));
  TU_OK(ge_node_set_attr_bool(g, bag, "b", 1, NULL));
  TU_OK(ge_node_set_attr_string(g, bag, "s", "say \"hi\"\\\n", NULL));
  TU_OK(ge_node_set_attr_string(g, bag, "s_empty", "", NULL));
  TU_OK(ge_node_set_attr_dtype(g, bag, "dt", GE_DTYPE_BFLOAT16, NULL));
  {
    int64_t iv[5] = {0, -1, 1, INT64_MIN, INT64_MAX};
    double fv[3] = {0.25, -3.5e-300, INFINITY};
    uint8_t bv[4] = {1, 0, 1, 1};
    const char *sv[3] = {"a", "", "N"};
    ge_dtype dv[3] = {GE_DTYPE_FLOAT16, GE_DTYPE_STRING, GE_DTYPE_UNDEFINED};
    TU_OK(ge_node_set_attr_ints(g, bag, "ints", iv, 5, NULL));
    TU_OK(ge_node_set_attr_ints(g, bag, "ints_empty", iv, 0, NULL));
    TU_OK(ge_node_set_attr_floats(g, bag, "floats", fv, 3, NULL));
    TU_OK(ge_node_set_attr_bools(g, bag, "bools", bv, 4, NULL));
    TU_OK(ge_node_set_attr_strings(g, bag, "strings", sv, 3, NULL));
    TU_OK(ge_node_set_attr_dtypes(g, bag, "dtypes", dv, 3, NULL));
  }
  {
    /* one tensor per dtype, plus a scalar and an empty one */
    unsigned char (*store)[256] = (unsigned char (*)[256])calloc(GE_DTYPE_COUNT + 2, 256);
    int64_t dims[GE_DTYPE_COUNT + 2][2];
    ge_tensor ts[GE_DTYPE_COUNT + 2];
    const ge_tensor *tp[GE_DTYPE_COUNT + 2];
    int k = 0;
    char name[32];
    for (dt = 1; dt < GE_DTYPE_COUNT; dt++, k++) {
      dims[k][0] = 3;
      dims[k][1] = 2;
      ts[k] = tu_tensor((ge_dtype)dt, 2, dims[k], store[k], sizeof store[k], (uint32_t)dt);
      tp[k] = &ts[k];
      snprintf(name, sizeof name, "t_%s", ge_dtype_name((ge_dtype)dt));
      TU_OK(ge_node_set_attr_tensor(g, bag, name, &ts[k], NULL));
    }
    ts[k] = tu_tensor(GE_DTYPE_INT32, 0, NULL, store[k], sizeof store[k], 5);
    tp[k] = &ts[k];
    k++;
    ts[k] = tu_tensor(GE_DTYPE_FLOAT64, 1, d0, store[k], sizeof store[k], 6);
    tp[k] = &ts[k];
    k++;
    TU_OK(ge_node_set_attr_tensors(g, bag, "tensors", tp, k, NULL));
    TU_OK(ge_node_set_attr_tensors(g, bag, "tensors_empty", tp, 0, NULL));
    free(store);
  }
  TU_OK(ge_node_set_attr_graph(g, bag, "g", tu_small_graph("bag_g", 1), NULL));
  {
    ge_graph *gs[3];
    gs[0] = tu_small_graph("bag_gs0", 2);
    gs[1] = tu_small_graph("bag_gs1", 3);
    gs[2] = tu_new_graph(NULL); /* an empty, unnamed graph */
    TU_OK(ge_node_set_attr_graphs(g, bag, "gs", gs, 3, NULL));
    TU_OK(ge_node_set_attr_graphs(g, bag, "gs_empty", gs, 0, NULL));
  }
  /* If whose then-branch holds a PartitionedCall: two levels deep */
  {
    ge_graph *then_g = tu_small_graph("then", 10), *inner = tu_small_graph("inner", 20);
    ge_node_id call, d;
    ge_edge ce;
    d = ge_graph_find(then_g, "in");
    ce = tu_e(d, 0);
    TU_OK(ge_graph_add_node(then_g, "PartitionedCall", "call", 1, &ce, 1, &call, NULL));
    TU_OK(ge_node_set_attr_graph(then_g, call, "f", inner, NULL));
    ge_graph_node(then_g, call)->engine = 4;
    e[0] = tu_e(y, 0);
    e[1] = tu_e(conv, 0);
    TU_OK(ge_graph_add_node(g, "If", "cond", 2, e, 1, &cif, NULL));
    TU_OK(ge_node_set_attr_graph(g, cif, "then_branch", then_g, NULL));
    TU_OK(ge_node_set_attr_graph(g, cif, "else_branch", tu_small_graph("else", 11), NULL));
  }
  {
    ge_graph *br[2];
    br[0] = tu_small_graph("b0", 30);
    br[1] = tu_small_graph("b1", 31);
    e[0] = tu_e(y, 0);
    e[1] = tu_e(cif, 0);
    TU_OK(ge_graph_add_node(g, "Case", "case", 2, e, 1, &cas, NULL));
    TU_OK(ge_node_set_attr_graphs(g, cas, "branches", br, 2, NULL));
  }
  /* custom domain, several outputs with names, formats, offsets */
  e[0] = tu_e(cas, 0);
  e[1] = tu_e(bw, 0);
  TU_OK(ge_graph_add_node(g, "MyOp", "mine", 2, e, 3, &mine, NULL));
  TU_OK(ge_node_set_domain(g, mine, "com.example", NULL));
  TU_OK(ge_node_set_output_name(g, mine, 0, "first", NULL));
  TU_OK(ge_node_set_output_name(g, mine, 2, "", NULL));
  TU_OK(ge_node_set_output(g, mine, 1, GE_DTYPE_COMPLEX128, 0, NULL, NULL, NULL));
  TU_OK(ge_node_set_output_format(g, mine, 2, GE_FORMAT_FRACTAL_NZ, NULL));
  ge_graph_node(g, mine)->outputs[2].offset = -5;
  /* a known value that is not a Const's attribute (written inline) */
  ge_graph_node(g, mine)->outputs[1].value = ge_node_attr(ge_graph_node(g, w), "value")->v.t;
  ge_graph_node(g, mine)->stream = 2;
  /* the late node read by `early` */
  e[0] = tu_e(mine, 2);
  e[1] = tu_e(mine, 1);
  TU_OK(ge_graph_add_node(g, "Add", "late", 2, e, 1, &late, NULL));
  TU_OK(ge_graph_set_input(g, early, 0, tu_e(late, 0), NULL));
  TU_OK(ge_graph_add_control(g, late, bag, NULL));
  TU_OK(ge_graph_add_control(g, x, bag, NULL));
  TU_OK(ge_graph_add_control(g, mine, bag, NULL));
  TU_OK(ge_graph_set_input(g, bag, 1, tu_e(early, 0), NULL));
  /* outputs with names */
  {
    const char *names[2] = {"result", "side"};
    e[0] = tu_e(early, 0);
    e[1] = tu_e(mine, 0);
    TU_OK(ge_graph_set_outputs(g, 2, e, names, NULL));
    out = ge_graph_output_node(g);
    (void)out;
  }
  /* graph-level attributes */
  TU_OK(ge_graph_set_attr_int(g, "_dynamic_shape_partitioned", 1, NULL));
  TU_OK(ge_node_set_attr_string(g, GE_NONE, "producer", "test_io", NULL));
  TU_OK(ge_node_set_attr_graph(g, GE_NONE, "init", tu_small_graph("init", 40), NULL));
  /* holes */
  TU_OK(ge_graph_remove_node(g, gone1, NULL));
  TU_OK(ge_graph_remove_node(g, gone2, NULL));
  return g;
}

/* A seeded random graph: nodes with random ops, inputs, shapes, attributes,
 * control edges (acyclic), removed nodes, sometimes subgraphs. */
static GE_TEST__UNUSED ge_graph *tu_random_graph(uint64_t seed, int depth) {
  static const char *const ops[] = {"Add", "Relu", "Conv", "MatMul", "Custom", "Identity", "Concat", "Data", "NoOp"};
  static const char *const syms[] = {"N", "B", "seq", ""};
  static const char *const anames[] = {"alpha", "axis", "mode", "perm", "f", "value", "k"};
  tu_rng r;
  ge_graph *g;
  uint32_t n, i, k, *perm, *pos;
  ge_node_id *ids;
  char name[32];
  tu_seed(&r, seed);
  snprintf(name, sizeof name, "rand_%llu", (unsigned long long)seed);
  g = tu_new_graph(tu_below(&r, 5) ? name : NULL);
  n = 1 + tu_below(&r, depth ? 6 : 40);
  ids = (ge_node_id *)malloc(n * sizeof *ids);
  perm = (uint32_t *)malloc(n * sizeof *perm);
  pos = (uint32_t *)malloc(n * sizeof *pos);
  for (i = 0; i < n; i++) {
    const char *op = ops[tu_below(&r, 9)];
    uint32_t nin = tu_below(&r, 5), nout = tu_below(&r, 4);
    snprintf(name, sizeof name, "node%u_%u", i, tu_below(&r, 3));
    TU_OK(ge_graph_add_node(g, op, tu_below(&r, 4) ? name : NULL, nin, NULL, (int32_t)nout, &ids[i], NULL));
    if (!tu_below(&r, 6)) TU_OK(ge_node_set_domain(g, ids[i], tu_below(&r, 2) ? "com.x" : "ai.y", NULL));
    for (k = 0; k < nout; k++) {
      int64_t dims[GE_MAX_RANK];
      ge_dim_info info[GE_MAX_RANK];
      int32_t rank = (int32_t)tu_below(&r, 6) - 1, j;
      if (rank < 0) rank = GE_RANK_UNKNOWN;
      for (j = 0; j < rank; j++) {
        dims[j] = (int64_t)tu_below(&r, 12) - 1;
        info[j].lo = tu_below(&r, 3) ? 0 : tu_below(&r, 4);
        info[j].hi = tu_below(&r, 3) ? -1 : 4 + (int64_t)tu_below(&r, 100);
        info[j].symbol = tu_below(&r, 3) ? NULL : syms[tu_below(&r, 4)];
      }
      TU_OK(ge_node_set_output(g, ids[i], k, (ge_dtype)tu_below(&r, GE_DTYPE_COUNT), rank, dims,
                               tu_below(&r, 2) ? info : NULL, NULL));
      if (!tu_below(&r, 4)) TU_OK(ge_node_set_output_format(g, ids[i], k, (ge_format)tu_below(&r, GE_FORMAT_COUNT), NULL));
      if (!tu_below(&r, 4)) ge_graph_node(g, ids[i])->outputs[k].offset = (int64_t)tu_below(&r, 1u << 30) * 64;
      if (!tu_below(&r, 8)) TU_OK(ge_node_set_output_name(g, ids[i], k, "o", NULL));
    }
    for (k = tu_below(&r, 4); k > 0; k--) {
      const char *an = anames[tu_below(&r, 7)];
      switch (tu_below(&r, 7)) {
      case 0: TU_OK(ge_node_set_attr_int(g, ids[i], an, (int64_t)tu_next(&r), NULL)); break;
      case 1: TU_OK(ge_node_set_attr_float(g, ids[i], an, (double)tu_below(&r, 1000) / 7.0, NULL)); break;
      case 2: TU_OK(ge_node_set_attr_string(g, ids[i], an, syms[tu_below(&r, 4)], NULL)); break;
      case 3: {
        int64_t v[6];
        uint32_t c = tu_below(&r, 6), j;
        for (j = 0; j < c; j++) v[j] = (int64_t)tu_below(&r, 100) - 50;
        TU_OK(ge_node_set_attr_ints(g, ids[i], an, v, (int32_t)c, NULL));
        break;
      }
      case 4: {
        int64_t d[1];
        int32_t v[5];
        ge_tensor t;
        uint32_t j;
        d[0] = tu_below(&r, 5);
        for (j = 0; j < 5; j++) v[j] = (int32_t)tu_next(&r);
        memset(&t, 0, sizeof t);
        t.dtype = GE_DTYPE_INT32;
        t.rank = 1;
        t.dims = d;
        t.data = v;
        t.nbytes = (size_t)d[0] * 4;
        TU_OK(ge_node_set_attr_tensor(g, ids[i], an, &t, NULL));
        break;
      }
      case 5:
        if (depth < 2 && !tu_below(&r, 3)) {
          TU_OK(ge_node_set_attr_graph(g, ids[i], an, tu_random_graph(tu_next(&r), depth + 1), NULL));
          break;
        }
        /* fall through */
      default: TU_OK(ge_node_set_attr_dtype(g, ids[i], an, (ge_dtype)tu_below(&r, GE_DTYPE_COUNT), NULL)); break;
      }
    }
    if (!tu_below(&r, 3)) ge_graph_node(g, ids[i])->engine = (int32_t)tu_below(&r, 12);
    if (!tu_below(&r, 3)) ge_graph_node(g, ids[i])->stream = (int32_t)tu_below(&r, 5);
    if (!tu_below(&r, 8)) ge_graph_node(g, ids[i])->flags = GE_NODE_FORCE_DYNAMIC;
  }
  /* a random topological order: edges go from earlier to later in perm */
  for (i = 0; i < n; i++) perm[i] = i;
  for (i = n; i > 1; i--) {
    uint32_t j = tu_below(&r, i), t = perm[i - 1];
    perm[i - 1] = perm[j];
    perm[j] = t;
  }
  for (i = 0; i < n; i++) pos[perm[i]] = i;
  for (i = 0; i < n; i++) {
    ge_node *dst = ge_graph_node(g, ids[i]);
    for (k = 0; k < dst->num_inputs; k++) {
      uint32_t p;
      ge_node *src;
      if (!pos[i] || tu_below(&r, 5) == 0) continue;
      p = perm[tu_below(&r, pos[i])];
      src = ge_graph_node(g, ids[p]);
      if (!src->num_outputs) continue;
      TU_OK(ge_graph_set_input(g, ids[i], k, tu_e(ids[p], (int32_t)tu_below(&r, src->num_outputs)), NULL));
    }
    if (pos[i] && !tu_below(&r, 3))
      TU_OK(ge_graph_add_control(g, ids[perm[tu_below(&r, pos[i])]], ids[i], NULL));
  }
  for (k = tu_below(&r, 4); k > 0 && n > 1; k--) {
    i = tu_below(&r, n);
    if (ge_graph_node(g, ids[i])) TU_OK(ge_graph_remove_node(g, ids[i], NULL));
  }
  if (!tu_below(&r, 4)) TU_OK(ge_graph_set_attr_int(g, "level", depth, NULL));
  free(ids);
  free(perm);
  free(pos);
  return g;
}

/* ------------------------------------------------------ comparison */

/* The comparisons write what differs into diff (TU_DIFF bytes). */
#define TU_DIFF 512

static GE_TEST__UNUSED int tu_fail(char *diff, const char *fmt, const char *a, const char *b, long long x) {
  snprintf(diff, TU_DIFF, fmt, a ? a : "", b ? b : "", x);
  return 0;
}

static GE_TEST__UNUSED int tu_str_eq(const char *a, const char *b) { return (!a && !b) || (a && b && strcmp(a, b) == 0); }

static GE_TEST__UNUSED int tu_tensor_eq(const ge_tensor *a, const ge_tensor *b) {
  int32_t k;
  if (!a || !b) return a == b;
  if (a->dtype != b->dtype || a->rank != b->rank || a->nbytes != b->nbytes) return 0;
  for (k = 0; k < a->rank; k++)
    if (a->dims[k] != b->dims[k]) return 0;
  if (b->borrowed) return 0; /* loaded tensors are owned */
  if (a->dtype == GE_DTYPE_STRING) {
    int64_t i, n = ge_tensor_numel(a);
    for (i = 0; i < n; i++)
      if (strcmp(((const char *const *)a->data)[i], ((const char *const *)b->data)[i]) != 0) return 0;
    return 1;
  }
  return a->nbytes == 0 || memcmp(a->data, b->data, a->nbytes) == 0;
}

static GE_TEST__UNUSED int tu_graph_eq(const ge_graph *a, const ge_graph *b, char *diff);

/* Compares attribute lists; owner_b is the owner's id in b's graph. */
static GE_TEST__UNUSED int tu_attrs_eq(const ge_attr *x, uint32_t nx, const ge_attr *y, uint32_t ny, const ge_graph *gb,
                       ge_node_id owner_b, char *diff) {
  uint32_t i;
  int32_t k;
  if (nx != ny) return tu_fail(diff, "attribute counts differ%s%s (%lld)", NULL, NULL, (long long)nx - ny);
  for (i = 0; i < nx; i++) {
    const ge_attr *a = &x[i], *b = &y[i];
    if (strcmp(a->name, b->name) || a->type != b->type || a->count != b->count)
      return tu_fail(diff, "attribute '%s' vs '%s' differs in name, type or count (%lld)", a->name, b->name, i);
    switch (a->type) {
    case GE_ATTR_INT: if (a->v.i != b->v.i) return tu_fail(diff, "attr %s int%s %lld", a->name, "", a->v.i); break;
    case GE_ATTR_FLOAT:
      if (memcmp(&a->v.f, &b->v.f, sizeof(double))) return tu_fail(diff, "attr %s float%s %lld", a->name, "", 0);
      break;
    case GE_ATTR_BOOL: if (a->v.b != b->v.b) return tu_fail(diff, "attr %s bool%s %lld", a->name, "", 0); break;
    case GE_ATTR_STRING: if (strcmp(a->v.s, b->v.s)) return tu_fail(diff, "attr %s string '%s' %lld", a->name, b->v.s, 0); break;
    case GE_ATTR_DTYPE: if (a->v.dt != b->v.dt) return tu_fail(diff, "attr %s dtype%s %lld", a->name, "", 0); break;
    case GE_ATTR_TENSOR: if (!tu_tensor_eq(a->v.t, b->v.t)) return tu_fail(diff, "attr %s tensor%s %lld", a->name, "", 0); break;
    case GE_ATTR_GRAPH:
      if (ge_graph_parent(b->v.g) != gb || ge_graph_parent_node(b->v.g) != owner_b)
        return tu_fail(diff, "attr %s: subgraph parent link%s wrong %lld", a->name, "", 0);
      if (!tu_graph_eq(a->v.g, b->v.g, diff)) return 0;
      break;
    default:
      for (k = 0; k < a->count; k++) {
        int same = 1;
        switch (a->type) {
        case GE_ATTR_INTS: same = a->v.ints[k] == b->v.ints[k]; break;
        case GE_ATTR_FLOATS: same = !memcmp(&a->v.floats[k], &b->v.floats[k], sizeof(double)); break;
        case GE_ATTR_BOOLS: same = a->v.bools[k] == b->v.bools[k]; break;
        case GE_ATTR_STRINGS: same = !strcmp(a->v.strings[k], b->v.strings[k]); break;
        case GE_ATTR_DTYPES: same = a->v.dtypes[k] == b->v.dtypes[k]; break;
        case GE_ATTR_TENSORS: same = tu_tensor_eq(a->v.tensors[k], b->v.tensors[k]); break;
        case GE_ATTR_GRAPHS:
          if (ge_graph_parent(b->v.graphs[k]) != gb || ge_graph_parent_node(b->v.graphs[k]) != owner_b)
            return tu_fail(diff, "attr %s: subgraph parent link%s wrong %lld", a->name, "", k);
          if (!tu_graph_eq(a->v.graphs[k], b->v.graphs[k], diff)) return 0;
          break;
        default: same = 0;
        }
        if (!same) return tu_fail(diff, "attr %s list%s element %lld", a->name, "", k);
      }
    }
  }
  return 1;
}

/* Deep equality of a and b, where b may have dense ids for a's holes. */
static GE_TEST__UNUSED int tu_graph_eq(const ge_graph *a, const ge_graph *b, char *diff) {
  uint32_t na = ge_graph_id_bound(a), i, k, j, bi = 0;
  ge_node_id *map;
  int ok = 1;
  if (!tu_str_eq(ge_graph_name(a), ge_graph_name(b)))
    return tu_fail(diff, "graph names '%s' vs '%s' %lld", ge_graph_name(a), ge_graph_name(b), 0);
  if (ge_graph_node_count(a) != ge_graph_node_count(b) || ge_graph_id_bound(b) != ge_graph_node_count(b))
    return tu_fail(diff, "graph '%s'%s: node counts differ or b has holes (%lld)", ge_graph_name(a), "", 0);
  map = (ge_node_id *)malloc((na + 1) * sizeof *map);
  for (i = 0; i < na; i++) map[i] = ge_graph_node(a, i) ? bi++ : GE_NONE;
  /* the graph's attributes are one array: ge_graph_attr_at(g, 0) is its start */
  if (!tu_attrs_eq(ge_graph_attr_at(a, 0), ge_graph_num_attrs(a), ge_graph_attr_at(b, 0), ge_graph_num_attrs(b), b,
                   GE_NONE, diff))
    ok = 0;
  for (i = 0; i < na && ok; i++) {
    const ge_node *x = ge_graph_node(a, i), *y;
    if (!x) continue;
    y = ge_graph_node(b, map[i]);
    if (!y || y->id != map[i]) { ok = tu_fail(diff, "node %s%s missing %lld", x->name, "", i); break; }
    if (strcmp(x->name, y->name) || strcmp(x->op, y->op) || !tu_str_eq(x->domain, y->domain) || x->schema != y->schema)
      { ok = tu_fail(diff, "node '%s' vs '%s': name/op/domain/schema %lld", x->name, y->name, i); break; }
    if (x->engine != y->engine || x->stream != y->stream || x->topo_id != y->topo_id || x->cluster != y->cluster ||
        x->flags != y->flags)
      { ok = tu_fail(diff, "node '%s'%s: module fields or flags %lld", x->name, "", i); break; }
    if (x->num_inputs != y->num_inputs) { ok = tu_fail(diff, "node '%s'%s: input count %lld", x->name, "", i); break; }
    for (k = 0; k < x->num_inputs; k++) {
      ge_edge ea = x->inputs[k], eb = y->inputs[k];
      if (ea.node == GE_NONE ? eb.node != GE_NONE || eb.index != 0 : map[ea.node] != eb.node || ea.index != eb.index)
        { ok = tu_fail(diff, "node '%s'%s: input %lld", x->name, "", k); break; }
    }
    if (!ok) break;
    if (x->num_control_inputs != y->num_control_inputs || x->num_control_outputs != y->num_control_outputs ||
        x->num_uses != y->num_uses)
      { ok = tu_fail(diff, "node '%s'%s: control edge or use counts %lld", x->name, "", i); break; }
    for (k = 0; k < x->num_control_inputs; k++)
      if (map[x->control_inputs[k]] != y->control_inputs[k]) { ok = tu_fail(diff, "node '%s'%s: control input %lld", x->name, "", k); break; }
    for (k = 0; k < x->num_control_outputs && ok; k++) {
      for (j = 0; j < y->num_control_outputs; j++)
        if (map[x->control_outputs[k]] == y->control_outputs[j]) break;
      if (j == y->num_control_outputs) ok = tu_fail(diff, "node '%s'%s: control output %lld", x->name, "", k);
    }
    for (k = 0; k < x->num_uses && ok; k++) {
      for (j = 0; j < y->num_uses; j++)
        if (map[x->uses[k].node] == y->uses[j].node && x->uses[k].input == y->uses[j].input) break;
      if (j == y->num_uses) ok = tu_fail(diff, "node '%s'%s: use %lld", x->name, "", k);
    }
    if (!ok) break;
    if (x->num_outputs != y->num_outputs) { ok = tu_fail(diff, "node '%s'%s: output count %lld", x->name, "", i); break; }
    for (k = 0; k < x->num_outputs && ok; k++) {
      const ge_tensor_desc *da = &x->outputs[k], *db = &y->outputs[k];
      int32_t r;
      if (!tu_str_eq(da->name, db->name) || da->dtype != db->dtype || da->format != db->format ||
          da->offset != db->offset || da->shape.rank != db->shape.rank || !da->shape.info != !db->shape.info)
        { ok = tu_fail(diff, "node '%s'%s: output desc %lld", x->name, "", k); break; }
      for (r = 0; r < da->shape.rank; r++) {
        if (da->shape.dims[r] != db->shape.dims[r]) ok = 0;
        if (da->shape.info &&
            (da->shape.info[r].lo != db->shape.info[r].lo || da->shape.info[r].hi != db->shape.info[r].hi ||
             !tu_str_eq(da->shape.info[r].symbol, db->shape.info[r].symbol)))
          ok = 0;
      }
      if (!ok) { tu_fail(diff, "node '%s'%s: output shape %lld", x->name, "", k); break; }
      if (!tu_tensor_eq(da->value, db->value)) { ok = tu_fail(diff, "node '%s'%s: output value %lld", x->name, "", k); break; }
      if (da->value) { /* a Const's value stays its attribute */
        const ge_attr *va = ge_node_attr(x, "value"), *vb = ge_node_attr(y, "value");
        int alias_a = va && va->type == GE_ATTR_TENSOR && va->v.t == da->value;
        int alias_b = vb && vb->type == GE_ATTR_TENSOR && vb->v.t == db->value;
        if (alias_a != alias_b) { ok = tu_fail(diff, "node '%s'%s: value alias %lld", x->name, "", k); break; }
      }
    }
    if (!ok) break;
    if (!tu_attrs_eq(x->attrs, x->num_attrs, y->attrs, y->num_attrs, b, y->id, diff)) ok = 0;
  }
  free(map);
  return ok;
}

/* Serializes g; aborts on failure. */
static GE_TEST__UNUSED uint8_t *tu_ser(const ge_graph *g, size_t *n) {
  uint8_t *b;
  ge_error err;
  if (ge_graph_serialize(g, &b, n, &err) != GE_OK) {
    fprintf(stderr, "serialize failed: %s\n", err.message);
    abort();
  }
  return b;
}

/* ------------------------------------------------- random DAGs */

/* A random DAG of scalar float64 ops over n_data inputs: each node reads
 * 1-2 earlier tensors (or a Const); some random control edges; random
 * nodes forced dynamic (one in `dyn`) and given engines 0..n_engines-1;
 * NetOutput of every sink. */
static GE_TEST__UNUSED ge_graph *tu_random_dag(uint64_t seed, uint32_t n_nodes, uint32_t n_data, uint32_t dyn, uint32_t n_engines) {
  static const char *const ops[] = {"Add", "Sub", "Mul", "Neg"};
  tu_rng r, *s = &r;
  ge_graph *g = tu_new_graph("random");
  ge_node_id *ids = (ge_node_id *)malloc(sizeof(ge_node_id) * (n_nodes + n_data + 1));
  ge_edge *outs;
  uint32_t i, n_out = 0, total = 0;
  char name[32];
  tu_seed(s, seed);
  for (i = 0; i < n_data; i++) {
    snprintf(name, sizeof name, "in%u", (unsigned)i);
    TU_OK(ge_graph_add_data(g, name, GE_DTYPE_FLOAT64, 0, NULL, &ids[total++], NULL));
  }
  for (i = 0; i < n_nodes; i++) {
    const char *op = ops[tu_below(s, 4)];
    uint32_t arity = strcmp(op, "Neg") == 0 ? 1 : 2, k;
    ge_edge in[2];
    ge_node *x;
    for (k = 0; k < arity; k++) {
      if (tu_below(s, 10) == 0) { /* a Const input */
        double v = (double)tu_below(s, 7) - 3;
        ge_tensor t;
        ge_node_id cid;
        memset(&t, 0, sizeof t);
        t.dtype = GE_DTYPE_FLOAT64, t.data = &v, t.nbytes = sizeof v;
        snprintf(name, sizeof name, "c%u_%u", (unsigned)i, (unsigned)k);
        TU_OK(ge_graph_add_const(g, name, &t, &cid, NULL));
        in[k] = tu_e(cid, 0);
      } else {
        in[k] = tu_e(ids[tu_below(s, total)], 0);
      }
    }
    snprintf(name, sizeof name, "n%u", (unsigned)i);
    TU_OK(ge_graph_add_node(g, op, name, arity, in, 1, &ids[total], NULL));
    TU_OK(ge_node_set_output(g, ids[total], 0, GE_DTYPE_FLOAT64, 0, NULL, NULL, NULL));
    x = ge_graph_node(g, ids[total]);
    if (dyn && tu_below(s, dyn) == 0) x->flags |= GE_NODE_FORCE_DYNAMIC;
    x->engine = n_engines ? (int32_t)tu_below(s, n_engines) : -1;
    if (total > n_data && tu_below(s, 8) == 0)
      TU_OK(ge_graph_add_control(g, ids[n_data + tu_below(s, total - n_data)], ids[total], NULL));
    total++;
  }
  outs = (ge_edge *)malloc(sizeof(ge_edge) * (total + 1));
  for (i = n_data; i < total; i++)
    if (ge_graph_node(g, ids[i])->num_uses == 0) outs[n_out++] = tu_e(ids[i], 0);
  TU_OK(ge_graph_set_outputs(g, n_out, outs, NULL, NULL));
  free(ids);
  free(outs);
  return g;
}

/* Evaluates a graph of scalar ops (Data, Const, Add, Sub, Mul, Neg,
 * PartitionedCall, NetOutput, NoOp) in wrapping uint64 arithmetic (Consts
 * read as their integer value), so results are exact; returns the number of
 * outputs or -1 on anything unexpected. */
static GE_TEST__UNUSED int tu_evaluate(const ge_graph *g, const uint64_t *inputs, uint32_t n_inputs, uint64_t *outputs) {
  uint32_t n = ge_graph_node_count(g), i, k, n_out = 0;
  ge_node_id *order = (ge_node_id *)malloc(sizeof(ge_node_id) * (n + 1));
  uint64_t *val = (uint64_t *)calloc((size_t)ge_graph_id_bound(g) * 256 + 1, sizeof(uint64_t));
  int result = -1;
  if (ge_graph_topo_sort((ge_graph *)g, GE_TOPO_BFS, order, NULL) != GE_OK) goto done;
  for (i = 0; i < n; i++) {
    ge_node *x = ge_graph_node(g, order[i]);
    uint64_t in[256];
    if (x->num_inputs > 256 || x->num_outputs > 256) goto done;
    for (k = 0; k < x->num_inputs; k++) {
      if (x->inputs[k].node == GE_NONE) goto done;
      in[k] = val[x->inputs[k].node * 256 + (uint32_t)x->inputs[k].index];
    }
    if (!strcmp(x->op, "Data")) {
      int64_t idx = ge_node_attr_int(x, "index", -1);
      if (idx < 0 || (uint64_t)idx >= n_inputs) goto done;
      val[x->id * 256] = inputs[idx];
    } else if (!strcmp(x->op, "Const")) val[x->id * 256] = (uint64_t)(int64_t)ge_tensor_get_float(ge_node_attr(x, "value")->v.t, 0);
    else if (!strcmp(x->op, "Add")) val[x->id * 256] = in[0] + in[1];
    else if (!strcmp(x->op, "Sub")) val[x->id * 256] = in[0] - in[1];
    else if (!strcmp(x->op, "Mul")) val[x->id * 256] = in[0] * in[1];
    else if (!strcmp(x->op, "Neg")) val[x->id * 256] = 0 - in[0];
    else if (!strcmp(x->op, "NoOp")) {
    } else if (!strcmp(x->op, "NetOutput")) {
      for (k = 0; k < x->num_inputs; k++) outputs[k] = in[k];
      n_out = x->num_inputs;
    } else if (!strcmp(x->op, "PartitionedCall")) {
      uint64_t sub_out[256];
      int m = tu_evaluate(ge_node_attr(x, "f")->v.g, in, x->num_inputs, sub_out);
      if (m != (int)x->num_outputs) goto done;
      for (k = 0; k < x->num_outputs; k++) val[x->id * 256 + k] = sub_out[k];
    } else goto done;
  }
  result = (int)n_out;
done:
  free(order);
  free(val);
  return result;
}

static GE_TEST__UNUSED int tu_same_outputs(const ge_graph *a, const ge_graph *b, uint32_t n_inputs, uint64_t seed) {
  uint64_t in[16], oa[256], ob[256];
  tu_rng s;
  uint32_t i;
  int na, nb;
  tu_seed(&s, seed + 17);
  for (i = 0; i < n_inputs; i++) in[i] = tu_next(&s);
  na = tu_evaluate(a, in, n_inputs, oa);
  nb = tu_evaluate(b, in, n_inputs, ob);
  if (na < 0 || na != nb) return 0;
  for (i = 0; i < (uint32_t)na; i++)
    if (oa[i] != ob[i]) return 0;
  return 1;
}

#endif

#define _POSIX_C_SOURCE 200809L /* mkstemp */
/* Unit tests of ge_graph.h: structure, attributes, orders, validation,
 * clone/extract/inline, with seeded random DAGs checked by evaluation. */
#include "ge_graph.h"

#include "tests/test.h"
#include "tests/graph_util.h"

#include <stdlib.h>
#include <unistd.h>

#define E tu_e
#define OK(expr) GE_CHECK_EQ_INT((expr), GE_OK)

/* Every use is mirrored by an input and the reverse; control lists mirror. */
static int consistent(const ge_graph *g) {
  ge_node *n;
  GE_GRAPH_FOREACH(g, n) {
    uint32_t i, k, found;
    for (i = 0; i < n->num_inputs; i++) {
      ge_node *p;
      if (n->inputs[i].node == GE_NONE) continue;
      p = ge_graph_node(g, n->inputs[i].node);
      if (!p) return 0;
      for (k = 0, found = 0; k < p->num_uses; k++) found += p->uses[k].node == n->id && p->uses[k].input == i;
      if (found != 1) return 0;
    }
    for (i = 0; i < n->num_uses; i++) {
      ge_node *c = ge_graph_node(g, n->uses[i].node);
      if (!c || n->uses[i].input >= c->num_inputs || c->inputs[n->uses[i].input].node != n->id) return 0;
    }
    for (i = 0; i < n->num_control_inputs; i++) {
      ge_node *p = ge_graph_node(g, n->control_inputs[i]);
      if (!p) return 0;
      for (k = 0, found = 0; k < p->num_control_outputs; k++) found += p->control_outputs[k] == n->id;
      if (found != 1) return 0;
    }
  }
  return 1;
}

GE_TEST(test_build_and_edges) {
  ge_graph *g = tu_new_graph("g");
  ge_node_id a, b, c, d;
  ge_edge in2[2];
  ge_error err;
  int64_t dims[2] = {2, 3};
  GE_REQUIRE(g);
  OK(ge_graph_add_data(g, "a", GE_DTYPE_FLOAT32, 2, dims, &a, &err));
  OK(ge_graph_add_data(g, "b", GE_DTYPE_FLOAT32, 2, dims, &b, &err));
  in2[0] = E(a, 0);
  in2[1] = E(b, 0);
  OK(ge_graph_add_node(g, "Add", "c", 2, in2, -1, &c, &err));
  in2[0] = E(c, 0);
  in2[1] = E(a, 0);
  OK(ge_graph_add_node(g, "Mul", "d", 2, in2, 1, &d, &err));
  OK(ge_graph_set_outputs(g, 1, in2, NULL, &err));
  GE_CHECK_EQ_INT(ge_graph_node_count(g), 5);
  GE_CHECK_EQ_INT(ge_graph_node(g, a)->num_uses, 2);
  GE_CHECK_EQ_INT(ge_graph_find(g, "c"), c);
  GE_CHECK_EQ_INT(ge_graph_find(g, "nope"), GE_NONE);
  GE_CHECK(consistent(g));
  /* a bad source is refused, naming the node */
  GE_CHECK_EQ_INT(ge_graph_add_node(g, "Neg", "x", 1, &in2[1] + 0, 1, NULL, &err), GE_OK);
  in2[0] = E(a, 3);
  GE_CHECK_EQ_INT(ge_graph_add_node(g, "Neg", "y", 1, in2, 1, NULL, &err), GE_ERR_INVALID);
  GE_CHECK(strstr(err.message, "'a'") != NULL);
  /* replace uses: every reader of c now reads b */
  OK(ge_graph_replace_uses(g, E(c, 0), E(b, 0), &err));
  GE_CHECK_EQ_INT(ge_graph_node(g, c)->num_uses, 0);
  GE_CHECK_EQ_INT(ge_graph_node(g, d)->inputs[0].node, b);
  GE_CHECK(consistent(g));
  /* removing a node leaves its consumers with absent inputs */
  OK(ge_graph_remove_node(g, b, &err));
  GE_CHECK(ge_graph_node(g, b) == NULL);
  GE_CHECK_EQ_INT(ge_graph_node(g, d)->inputs[0].node, GE_NONE);
  GE_CHECK_EQ_INT(ge_graph_find(g, "b"), GE_NONE);
  GE_CHECK_EQ_INT(ge_graph_remove_node(g, b, &err), GE_ERR_NOT_FOUND);
  GE_CHECK(consistent(g));
  /* unnamed nodes get unique names */
  {
    ge_node_id x, y;
    OK(ge_graph_add_node(g, "Relu", NULL, 0, NULL, 1, &x, &err));
    OK(ge_node_set_name(g, x, "Relu_1", &err));
    OK(ge_graph_add_node(g, "Relu", NULL, 0, NULL, 1, &y, &err));
    GE_CHECK(strcmp(ge_graph_node(g, y)->name, "Relu_1") != 0);
    GE_CHECK_EQ_INT(ge_graph_find(g, ge_graph_node(g, y)->name), y);
  }
  ge_graph_free(g);
}

GE_TEST(test_control_edges) {
  ge_graph *g = tu_new_graph("g");
  ge_node_id a, b, c;
  ge_error err;
  OK(ge_graph_add_node(g, "NoOp", "a", 0, NULL, 0, &a, &err));
  OK(ge_graph_add_node(g, "NoOp", "b", 0, NULL, 0, &b, &err));
  OK(ge_graph_add_node(g, "NoOp", "c", 0, NULL, 0, &c, &err));
  OK(ge_graph_add_control(g, a, b, &err));
  OK(ge_graph_add_control(g, a, b, &err)); /* duplicate: no-op */
  OK(ge_graph_add_control(g, b, c, &err));
  GE_CHECK_EQ_INT(ge_graph_node(g, b)->num_control_inputs, 1);
  GE_CHECK_EQ_INT(ge_graph_add_control(g, a, a, &err), GE_ERR_CYCLE);
  OK(ge_graph_remove_control(g, a, b, &err));
  GE_CHECK_EQ_INT(ge_graph_node(g, a)->num_control_outputs, 0);
  OK(ge_graph_remove_node(g, b, &err));
  GE_CHECK_EQ_INT(ge_graph_node(g, c)->num_control_inputs, 0);
  GE_CHECK(consistent(g));
  ge_graph_free(g);
}

GE_TEST(test_attributes) {
  ge_graph *g = tu_new_graph("g"), *sub = tu_new_graph("body"), *subs[2];
  ge_node_id n, s0;
  ge_error err;
  const ge_attr *a;
  int64_t ints[3] = {1, 2, 3}, dims[2] = {2, 2};
  double fl[2] = {0.5, -1.25};
  uint8_t bools[3] = {1, 0, 1};
  const char *strs[2] = {"x", "yz"};
  ge_dtype dts[2] = {GE_DTYPE_INT8, GE_DTYPE_BFLOAT16};
  float data[4] = {1, 2, 3, 4};
  const char *sdata[2] = {"hello", "w"};
  ge_tensor t, st, *tl[2];
  memset(&t, 0, sizeof t);
  t.dtype = GE_DTYPE_FLOAT32;
  t.rank = 2;
  t.dims = dims;
  t.data = data;
  t.nbytes = sizeof data;
  memset(&st, 0, sizeof st);
  st.dtype = GE_DTYPE_STRING;
  st.rank = 1;
  st.dims = dims;
  st.data = (void *)sdata;
  OK(ge_graph_add_node(g, "Foo", "n", 0, NULL, 1, &n, &err));
  OK(ge_node_set_attr_int(g, n, "i", -7, &err));
  OK(ge_node_set_attr_float(g, n, "f", 2.5, &err));
  OK(ge_node_set_attr_bool(g, n, "b", 1, &err));
  OK(ge_node_set_attr_string(g, n, "s", "text", &err));
  OK(ge_node_set_attr_dtype(g, n, "dt", GE_DTYPE_FLOAT16, &err));
  OK(ge_node_set_attr_ints(g, n, "ints", ints, 3, &err));
  OK(ge_node_set_attr_floats(g, n, "floats", fl, 2, &err));
  OK(ge_node_set_attr_bools(g, n, "bools", bools, 3, &err));
  OK(ge_node_set_attr_strings(g, n, "strings", strs, 2, &err));
  OK(ge_node_set_attr_dtypes(g, n, "dtypes", dts, 2, &err));
  OK(ge_node_set_attr_tensor(g, n, "t", &t, &err));
  tl[0] = &t;
  tl[1] = &st;
  OK(ge_node_set_attr_tensors(g, n, "tl", (const ge_tensor *const *)tl, 2, &err));
  OK(ge_graph_add_node(sub, "NoOp", "inner", 0, NULL, 0, &s0, &err));
  OK(ge_node_set_attr_graph(g, n, "body", sub, &err));
  subs[0] = tu_new_graph("b0");
  subs[1] = tu_new_graph("b1");
  OK(ge_node_set_attr_graphs(g, n, "branches", subs, 2, &err));
  /* strings and data were copied */
  data[0] = 99;
  strs[0] = "changed";
  GE_CHECK_EQ_INT(ge_node_attr_int(ge_graph_node(g, n), "i", 0), -7);
  GE_CHECK_NEAR(ge_node_attr_float(ge_graph_node(g, n), "f", 0), 2.5, 0);
  GE_CHECK_STR(ge_node_attr_string(ge_graph_node(g, n), "s", NULL), "text");
  GE_CHECK_EQ_INT(ge_node_attr_int(ge_graph_node(g, n), "dt", 0), GE_DTYPE_FLOAT16);
  {
    const int64_t *v = NULL;
    GE_CHECK_EQ_INT(ge_node_attr_ints(ge_graph_node(g, n), "ints", &v), 3);
    GE_CHECK_EQ_INT(v[2], 3);
  }
  a = ge_node_attr(ge_graph_node(g, n), "strings");
  GE_REQUIRE(a && a->type == GE_ATTR_STRINGS && a->count == 2);
  GE_CHECK_STR(a->v.strings[0], "x");
  a = ge_node_attr(ge_graph_node(g, n), "t");
  GE_REQUIRE(a && a->type == GE_ATTR_TENSOR);
  GE_CHECK_NEAR(ge_tensor_get_float(a->v.t, 0), 1.0, 0);
  a = ge_node_attr(ge_graph_node(g, n), "tl");
  GE_REQUIRE(a && a->count == 2);
  GE_CHECK_STR(((const char **)a->v.tensors[1]->data)[0], "hello");
  /* subgraphs know their parent */
  GE_CHECK(ge_graph_parent(sub) == g);
  GE_CHECK_EQ_INT(ge_graph_parent_node(sub), n);
  GE_CHECK(ge_graph_parent(subs[1]) == g);
  {
    ge_graph *all[8];
    GE_CHECK_EQ_INT(ge_graph_subgraphs(g, all, 8), 3);
  }
  /* all of them at once onto a new node: equal values, own copies of the graphs */
  {
    ge_node_id m, ph;
    const ge_node *src = ge_graph_node(g, n);
    ge_attr dup[3], bad[2];
    uint32_t k;
    OK(ge_graph_add_node(g, "Foo", "m", 0, NULL, 1, &m, &err));
    OK(ge_node_set_attrs(g, m, src->attrs, src->num_attrs, &err));
    GE_REQUIRE(ge_graph_node(g, m)->num_attrs == src->num_attrs);
    for (k = 0; k < src->num_attrs; k++) GE_CHECK(ge_node_attr(ge_graph_node(g, m), src->attrs[k].name) != NULL);
    GE_CHECK_STR(ge_node_attr_string(ge_graph_node(g, m), "s", NULL), "text");
    GE_CHECK(ge_node_attr(ge_graph_node(g, m), "body")->v.g != sub);
    GE_CHECK_EQ_INT(ge_graph_parent_node(ge_node_attr(ge_graph_node(g, m), "body")->v.g), m);
    /* a repeated name: the later wins; onto a node with attributes: one by one */
    memset(dup, 0, sizeof dup);
    dup[0].name = "a", dup[0].type = GE_ATTR_INT, dup[0].v.i = 1;
    dup[1].name = "b", dup[1].type = GE_ATTR_INT, dup[1].v.i = 2;
    dup[2].name = "a", dup[2].type = GE_ATTR_INT, dup[2].v.i = 3;
    OK(ge_graph_add_node(g, "Foo", "d", 0, NULL, 1, &ph, &err));
    OK(ge_node_set_attrs(g, ph, dup, 3, &err));
    GE_CHECK_EQ_INT(ge_graph_node(g, ph)->num_attrs, 2);
    GE_CHECK_EQ_INT(ge_node_attr_int(ge_graph_node(g, ph), "a", 0), 3);
    OK(ge_node_set_attrs(g, ph, dup + 1, 2, &err));
    GE_CHECK_EQ_INT(ge_graph_node(g, ph)->num_attrs, 2);
    GE_CHECK_EQ_INT(ge_node_attr_int(ge_graph_node(g, ph), "b", 0), 2);
    /* a bad one: an error, and the node keeps what it had (none) */
    memset(bad, 0, sizeof bad);
    bad[0].name = "ok", bad[0].type = GE_ATTR_INT;
    bad[1].name = "bad", bad[1].type = GE_ATTR_DTYPE, bad[1].v.dt = (ge_dtype)999;
    OK(ge_graph_add_node(g, "Foo", "e", 0, NULL, 1, &ph, &err));
    GE_CHECK_EQ_INT(ge_node_set_attrs(g, ph, bad, 2, &err), GE_ERR_INVALID);
    GE_CHECK_EQ_INT(ge_graph_node(g, ph)->num_attrs, 0);
    GE_CHECK_EQ_INT(ge_node_set_attrs(g, GE_NONE, dup, 3, &err), GE_ERR_NOT_FOUND);
    /* a name the op's schema declares is the schema's own string */
    OK(ge_graph_add_node(g, "PlaceHolder", "ph", 0, NULL, 1, &ph, &err));
    OK(ge_node_set_attr_int(g, ph, "peer_index", 4, &err));
    GE_CHECK(ge_graph_node(g, ph)->attrs[0].name == ge_graph_node(g, ph)->schema->attrs[0].name);
    OK(ge_graph_remove_node(g, m, &err));
  }
  /* a graph that is already a subgraph cannot be adopted twice */
  GE_CHECK_EQ_INT(ge_node_set_attr_graph(g, n, "again", sub, &err), GE_ERR_INVALID);
  /* replacing an attribute with a new type; removing one frees its graph */
  OK(ge_node_set_attr_string(g, n, "i", "now a string", &err));
  GE_CHECK_STR(ge_node_attr_string(ge_graph_node(g, n), "i", NULL), "now a string");
  OK(ge_node_remove_attr(g, n, "branches", &err));
  GE_CHECK(ge_node_attr(ge_graph_node(g, n), "branches") == NULL);
  /* a tensor whose size disagrees with its shape is refused */
  t.nbytes = 3;
  GE_CHECK_EQ_INT(ge_node_set_attr_tensor(g, n, "bad", &t, &err), GE_ERR_INVALID);
  OK(ge_graph_set_attr_int(g, "_dynamic_shape_partitioned", 1, &err));
  GE_CHECK_EQ_INT(ge_graph_attr(g, "_dynamic_shape_partitioned")->v.i, 1);
  ge_graph_free(g); /* frees sub (LeakSanitizer checks) */
}

GE_TEST(test_mapped_weights) {
  char path[] = "/tmp/ge_test_weightsXXXXXX";
  int fd = mkstemp(path);
  float w[4] = {1, 2, 3, 4};
  ge_mapped_file *m = NULL;
  ge_graph *g = tu_new_graph("g");
  ge_tensor t;
  int64_t dims[1] = {4};
  ge_node_id c;
  ge_error err;
  GE_REQUIRE(fd >= 0);
  GE_REQUIRE(write(fd, w, sizeof w) == (ssize_t)sizeof w);
  close(fd);
  OK(ge_file_map(path, &m, &err));
  GE_REQUIRE(m);
  memset(&t, 0, sizeof t);
  t.dtype = GE_DTYPE_FLOAT32;
  t.rank = 1;
  t.dims = dims;
  t.data = (void *)ge_mapped_file_data(m);
  t.nbytes = 16;
  t.borrowed = m;
  OK(ge_graph_add_const(g, "w", &t, &c, &err));
  ge_mapped_file_release(m); /* the graph keeps its own reference */
  {
    const ge_tensor *v = ge_node_attr(ge_graph_node(g, c), "value")->v.t;
    GE_CHECK(v->data == t.data); /* zero copy */
    GE_CHECK_NEAR(ge_tensor_get_float(v, 3), 4.0, 0);
  }
  ge_graph_free(g);
  unlink(path);
  GE_CHECK_EQ_INT(ge_file_map("/nonexistent/file", &m, &err), GE_ERR_IO);
  GE_CHECK(strstr(err.message, "/nonexistent/file") != NULL);
}

/* ------------------------------------------------------ random DAGs */


/* Checks that order is a topological order of g. */
static int is_topological(const ge_graph *g, const ge_node_id *order) {
  uint32_t n = ge_graph_node_count(g), i, k, *pos = (uint32_t *)malloc(sizeof(uint32_t) * (ge_graph_id_bound(g) + 1));
  int ok = 1;
  ge_node *x;
  for (i = 0; i < ge_graph_id_bound(g); i++) pos[i] = UINT32_MAX;
  for (i = 0; i < n; i++) {
    if (pos[order[i]] != UINT32_MAX) ok = 0;
    pos[order[i]] = i;
  }
  GE_GRAPH_FOREACH(g, x) {
    if (pos[x->id] == UINT32_MAX || x->topo_id != (int32_t)pos[x->id]) ok = 0;
    for (k = 0; k < x->num_inputs; k++)
      if (x->inputs[k].node != GE_NONE && pos[x->inputs[k].node] >= pos[x->id]) ok = 0;
    for (k = 0; k < x->num_control_inputs; k++)
      if (pos[x->control_inputs[k]] >= pos[x->id]) ok = 0;
  }
  free(pos);
  return ok;
}

GE_TEST(test_topo_orders_random) {
  uint32_t seed, bad = 0;
  for (seed = 1; seed <= 300; seed++) {
    ge_graph *g = tu_random_dag(seed, 5 + seed % 60, 1 + seed % 4, 0, 0);
    ge_node_id *order = (ge_node_id *)malloc(sizeof(ge_node_id) * ge_graph_node_count(g));
    ge_topo_mode modes[3] = {GE_TOPO_BFS, GE_TOPO_DFS, GE_TOPO_STABLE_RDFS};
    int m;
    for (m = 0; m < 3; m++) {
      ge_error err;
      if (ge_graph_topo_sort(g, modes[m], order, &err) != GE_OK || !is_topological(g, order)) bad++;
    }
    free(order);
    ge_graph_free(g);
  }
  GE_CHECK_EQ_INT(bad, 0);
}

GE_TEST(test_topo_modes) {
  /* a diamond: d <- b <- a, d <- c <- a; BFS gives a b c d, RDFS a b c d,
     and a chain hanging off b shows DFS following one chain first */
  ge_graph *g = tu_new_graph("g");
  ge_node_id a, b, c, d, e, order[5];
  ge_edge in[2];
  ge_topo_mode mode;
  ge_error err;
  OK(ge_graph_add_node(g, "X", "a", 0, NULL, 1, &a, NULL));
  in[0] = E(a, 0);
  OK(ge_graph_add_node(g, "X", "b", 1, in, 1, &b, NULL));
  OK(ge_graph_add_node(g, "X", "c", 1, in, 1, &c, NULL));
  in[0] = E(b, 0);
  OK(ge_graph_add_node(g, "X", "e", 1, in, 1, &e, NULL));
  in[0] = E(e, 0);
  in[1] = E(c, 0);
  OK(ge_graph_add_node(g, "X", "d", 2, in, 1, &d, NULL));
  OK(ge_graph_topo_sort(g, GE_TOPO_BFS, order, NULL));
  GE_CHECK(order[0] == a && order[1] == b && order[2] == c && order[3] == e && order[4] == d);
  OK(ge_graph_topo_sort(g, GE_TOPO_DFS, order, NULL));
  GE_CHECK(order[0] == a && order[1] == b && order[2] == e && order[3] == c && order[4] == d);
  OK(ge_graph_topo_sort(g, GE_TOPO_STABLE_RDFS, order, NULL));
  GE_CHECK(order[0] == a && order[1] == b && order[2] == e && order[3] == c && order[4] == d);
  OK(ge_topo_mode_parse("3", &mode, &err));
  GE_CHECK_EQ_INT(mode, GE_TOPO_STABLE_RDFS);
  GE_CHECK_EQ_INT(ge_topo_mode_parse("2", &mode, &err), GE_ERR_INVALID);
  GE_CHECK(strstr(err.message, "ge.topoSortingMode") != NULL);
  ge_graph_free(g);
}

GE_TEST(test_cycle_named) {
  ge_graph *g = tu_new_graph("loopy");
  ge_node_id a, b, c, x, order[4];
  ge_edge in[1];
  ge_error err;
  ge_validate_desc lax = {1};
  int m;
  OK(ge_graph_add_node(g, "X", "x", 0, NULL, 1, &x, NULL));
  in[0] = E(x, 0);
  OK(ge_graph_add_node(g, "X", "a", 1, in, 1, &a, NULL));
  in[0] = E(a, 0);
  OK(ge_graph_add_node(g, "X", "b", 1, in, 1, &b, NULL));
  in[0] = E(b, 0);
  OK(ge_graph_add_node(g, "X", "c", 1, in, 1, &c, NULL));
  OK(ge_graph_set_input(g, a, 0, E(c, 0), NULL)); /* a <- c: cycle a b c */
  for (m = 0; m < 4; m++) {
    ge_topo_mode mode = m == 0 ? GE_TOPO_BFS : m == 1 ? GE_TOPO_DFS : GE_TOPO_STABLE_RDFS;
    memset(&err, 0, sizeof err);
    GE_CHECK_EQ_INT(ge_graph_topo_sort(g, mode, order, &err), GE_ERR_CYCLE);
    GE_CHECK(strstr(err.message, "a -> b -> c -> a") || strstr(err.message, "b -> c -> a -> b") ||
             strstr(err.message, "c -> a -> b -> c"));
    GE_CHECK(strstr(err.message, "x") == NULL || strstr(err.message, "'loopy'") != NULL);
  }
  /* a control edge closing a cycle is found too */
  OK(ge_graph_set_input(g, a, 0, E(x, 0), NULL));
  OK(ge_graph_add_control(g, c, a, NULL));
  GE_CHECK_EQ_INT(ge_graph_topo_sort(g, GE_TOPO_BFS, order, &err), GE_ERR_CYCLE);
  GE_CHECK_EQ_INT(ge_graph_validate(g, &lax, &err), GE_ERR_CYCLE);
  ge_graph_free(g);
}

GE_TEST(test_validation_errors) {
  ge_graph *g = tu_new_graph("g");
  ge_node_id a, b, n, o;
  ge_edge in[2];
  ge_error err;
  ge_validate_desc lax;
  int64_t dims[1] = {4};
  lax.allow_unknown_ops = 1;
  OK(ge_graph_add_data(g, "a", GE_DTYPE_FLOAT32, 1, dims, &a, NULL));
  OK(ge_graph_add_data(g, "b", GE_DTYPE_INT32, 1, dims, &b, NULL));
  in[0] = E(a, 0);
  OK(ge_graph_add_node(g, "MemcpyAsync", "copy", 1, in, 1, &n, NULL));
  OK(ge_graph_set_outputs(g, 1, in, NULL, NULL));
  o = ge_graph_output_node(g);
  OK(ge_graph_validate(g, NULL, &err));
  /* unknown op */
  OK(ge_graph_add_node(g, "Frobnicate", "f", 0, NULL, 1, NULL, NULL));
  GE_CHECK_EQ_INT(ge_graph_validate(g, NULL, &err), GE_ERR_UNSUPPORTED);
  GE_CHECK(strstr(err.message, "Frobnicate") && strstr(err.message, "'f'"));
  OK(ge_graph_validate(g, &lax, &err));
  /* wrong input count */
  OK(ge_graph_add_input(g, n, E(a, 0), NULL));
  GE_CHECK_EQ_INT(ge_graph_validate(g, &lax, &err), GE_ERR_INVALID);
  GE_CHECK(strstr(err.message, "'copy'") && strstr(err.message, "2 inputs"));
  ge_graph_remove_node(g, n, NULL);
  /* dtype mismatch between an input and the output of the same type var */
  in[0] = E(b, 0);
  OK(ge_graph_add_node(g, "MemcpyAsync", "copy2", 1, in, 1, &n, NULL));
  OK(ge_node_set_output(g, n, 0, GE_DTYPE_FLOAT32, 1, dims, NULL, NULL));
  GE_CHECK_EQ_INT(ge_graph_validate(g, &lax, &err), GE_ERR_SHAPE);
  GE_CHECK(strstr(err.message, "'copy2'") && strstr(err.message, "int32") && strstr(err.message, "float32"));
  OK(ge_node_set_output(g, n, 0, GE_DTYPE_INT32, 1, dims, NULL, NULL));
  OK(ge_graph_validate(g, &lax, &err));
  /* duplicate names */
  OK(ge_graph_add_node(g, "NoOp", "dup", 0, NULL, 0, NULL, NULL));
  OK(ge_graph_add_node(g, "NoOp", "dup", 0, NULL, 0, NULL, NULL));
  GE_CHECK_EQ_INT(ge_graph_validate(g, &lax, &err), GE_ERR_INVALID);
  GE_CHECK(strstr(err.message, "two nodes are named 'dup'") != NULL);
  ge_graph_remove_node(g, ge_graph_find(g, "dup"), NULL);
  OK(ge_graph_validate(g, &lax, &err));
  /* dangling edge (written behind the API's back) */
  ge_graph_node(g, o)->inputs[0].index = 5;
  GE_CHECK_EQ_INT(ge_graph_validate(g, &lax, &err), GE_ERR_INVALID);
  GE_CHECK(strstr(err.message, "no output 5") != NULL);
  ge_graph_node(g, o)->inputs[0].index = 0;
  /* required input missing */
  OK(ge_graph_set_input(g, o, 0, E(GE_NONE, 0), NULL));
  OK(ge_graph_add_node(g, "MemcpyAsync", "lonely", 1, NULL, 1, NULL, NULL));
  GE_CHECK_EQ_INT(ge_graph_validate(g, &lax, &err), GE_ERR_INVALID);
  GE_CHECK(strstr(err.message, "'lonely'") && strstr(err.message, "required input 0"));
  ge_graph_remove_node(g, ge_graph_find(g, "lonely"), NULL);
  /* duplicate Data index; second NetOutput */
  OK(ge_node_set_attr_int(g, b, "index", 0, NULL));
  GE_CHECK_EQ_INT(ge_graph_validate(g, &lax, &err), GE_ERR_INVALID);
  GE_CHECK(strstr(err.message, "index 0") != NULL);
  OK(ge_node_set_attr_int(g, b, "index", 1, NULL));
  OK(ge_graph_add_node(g, "NetOutput", "out2", 0, NULL, 0, NULL, NULL));
  GE_CHECK_EQ_INT(ge_graph_validate(g, &lax, &err), GE_ERR_INVALID);
  GE_CHECK(strstr(err.message, "more than one NetOutput") != NULL);
  /* missing required attribute */
  ge_graph_remove_node(g, ge_graph_find(g, "out2"), NULL);
  OK(ge_graph_add_node(g, "Send", "send", 0, NULL, 0, NULL, NULL));
  GE_CHECK_EQ_INT(ge_graph_validate(g, &lax, &err), GE_ERR_INVALID);
  GE_CHECK(strstr(err.message, "event_id") != NULL);
  ge_graph_free(g);
}

GE_TEST(test_inputs_outputs) {
  ge_graph *g = tu_new_graph("g");
  ge_node_id a, b, ids[2];
  ge_edge out[2];
  const char *names[2] = {"y0", "y1"};
  int64_t dims[2] = {-1, 3};
  ge_dim_info info[2] = {{1, 8, "N"}, {0, -1, NULL}};
  char buf[64];
  OK(ge_graph_add_data(g, "a", GE_DTYPE_FLOAT32, 2, dims, &a, NULL));
  OK(ge_graph_add_data(g, "b", GE_DTYPE_FLOAT32, 2, dims, &b, NULL));
  OK(ge_node_set_output(g, a, 0, GE_DTYPE_FLOAT32, 2, dims, info, NULL));
  GE_CHECK_STR(ge_shape_str(&ge_graph_node(g, a)->outputs[0].shape, buf, sizeof buf), "[-1(N:1..8),3]");
  GE_CHECK_EQ_INT(ge_graph_inputs(g, ids, 2), 2);
  GE_CHECK(ids[0] == a && ids[1] == b);
  out[0] = E(b, 0);
  out[1] = E(a, 0);
  OK(ge_graph_set_outputs(g, 2, out, names, NULL));
  {
    ge_node *o = ge_graph_node(g, ge_graph_output_node(g));
    GE_CHECK_EQ_INT(o->num_inputs, 2);
    GE_CHECK_STR(o->outputs[1].name, "y1");
    GE_CHECK_EQ_INT(o->outputs[1].shape.dims[0], -1);
    GE_CHECK_STR(o->outputs[1].shape.info[0].symbol, "N");
  }
  /* setting fewer outputs shrinks the NetOutput */
  OK(ge_graph_set_outputs(g, 1, out, NULL, NULL));
  GE_CHECK_EQ_INT(ge_graph_node(g, ge_graph_output_node(g))->num_inputs, 1);
  GE_CHECK_EQ_INT(ge_graph_node(g, a)->num_uses, 0);
  GE_CHECK(consistent(g));
  ge_graph_free(g);
}

/* ------------------------------------------ clone, extract, inline */

/* Replaces the nodes of a random subset by one PartitionedCall over their
 * extraction; returns the call's id. */
static ge_node_id wrap_subset(ge_graph *g, const ge_node_id *set, uint32_t n, ge_error *err) {
  ge_extract_result r;
  ge_node_id call;
  uint32_t i;
  if (ge_graph_extract(g, set, n, &r, err) != GE_OK) return GE_NONE;
  if (ge_graph_add_node(g, "PartitionedCall", NULL, r.num_boundary_inputs, r.boundary_inputs,
                        (int32_t)r.num_boundary_outputs, &call, err) != GE_OK)
    return GE_NONE;
  for (i = 0; i < r.num_boundary_outputs; i++) {
    ge_edge to;
    to.node = call;
    to.index = (int32_t)i;
    ge_graph_replace_uses(g, r.boundary_outputs[i], to, err);
  }
  /* control edges into and out of the set move to the call */
  for (i = 0; i < n; i++) {
    ge_node *x = ge_graph_node(g, set[i]);
    uint32_t k;
    for (k = 0; k < x->num_control_inputs; k++)
      if (r.node_map[x->control_inputs[k]] == GE_NONE) ge_graph_add_control(g, x->control_inputs[k], call, NULL);
    for (k = 0; k < x->num_control_outputs; k++)
      if (r.node_map[x->control_outputs[k]] == GE_NONE) ge_graph_add_control(g, call, x->control_outputs[k], NULL);
  }
  ge_node_set_attr_graph(g, call, "f", r.graph, err);
  r.graph = NULL;
  ge_extract_result_free(g, &r);
  for (i = 0; i < n; i++) ge_graph_remove_node(g, set[i], NULL);
  return call;
}

GE_TEST(test_clone_extract_inline_random) {
  uint32_t seed, bad_clone = 0, bad_wrap = 0, bad_inline = 0, cycles = 0;
  for (seed = 1; seed <= 300; seed++) {
    uint32_t n_data = 1 + seed % 3, i, n_set = 0;
    ge_graph *g = tu_random_dag(seed, 4 + seed % 40, n_data, 0, 0), *c = NULL, *w = NULL;
    ge_node_id *set = (ge_node_id *)malloc(sizeof(ge_node_id) * ge_graph_id_bound(g)), call;
    tu_rng s;
    ge_node *x;
    ge_error err;
    if (ge_graph_clone(g, NULL, &c, &err) != GE_OK || !tu_same_outputs(g, c, n_data, seed) || !consistent(c)) {
      if (!bad_clone) printf("seed %u: %d %d\n", seed, tu_same_outputs(g, c, n_data, seed), consistent(c));
      bad_clone++;
    }
    /* a convex subset (a range of topological positions) never makes a cycle */
    {
      ge_node_id *order = (ge_node_id *)malloc(sizeof(ge_node_id) * ge_graph_node_count(g));
      uint32_t lo, hi, nn = ge_graph_node_count(g);
      ge_graph_topo_sort(g, GE_TOPO_BFS, order, NULL);
      tu_seed(&s, seed);
      lo = tu_below(&s, nn);
      hi = lo + tu_below(&s, nn - lo);
      for (i = lo; i <= hi; i++) {
        x = ge_graph_node(g, order[i]);
        if (strcmp(x->op, "Data") && strcmp(x->op, "NetOutput")) set[n_set++] = order[i];
      }
      free(order);
    }
    ge_graph_clone(g, NULL, &w, NULL);
    if (n_set) {
      call = wrap_subset(w, set, n_set, &err);
      if (call == GE_NONE || ge_graph_validate(w, NULL, &err) == GE_ERR_CYCLE) cycles++;
      else if (!tu_same_outputs(g, w, n_data, seed) || !consistent(w)) bad_wrap++;
      else if (ge_graph_inline(w, call, &err) != GE_OK || !tu_same_outputs(g, w, n_data, seed) || !consistent(w) ||
               ge_graph_node_count(w) < ge_graph_node_count(g))
        bad_inline++;
    }
    (void)x;
    free(set);
    ge_graph_free(g);
    ge_graph_free(c);
    ge_graph_free(w);
  }
  GE_CHECK_EQ_INT(bad_clone, 0);
  GE_CHECK_EQ_INT(cycles, 0);
  GE_CHECK_EQ_INT(bad_wrap, 0);
  GE_CHECK_EQ_INT(bad_inline, 0);
}

GE_TEST(test_inline_control_noops) {
  /* x -> call(f: Neg) -> y with control edges p -> call -> q */
  ge_graph *g = tu_new_graph("g"), *f = tu_new_graph("f");
  ge_node_id x, call, y, p, q, fd, fn;
  ge_edge in[1];
  ge_error err;
  OK(ge_graph_add_data(f, "fx", GE_DTYPE_FLOAT64, 0, NULL, &fd, NULL));
  in[0] = E(fd, 0);
  OK(ge_graph_add_node(f, "Neg", "neg", 1, in, 1, &fn, NULL));
  in[0] = E(fn, 0);
  OK(ge_graph_set_outputs(f, 1, in, NULL, NULL));
  OK(ge_graph_add_data(g, "x", GE_DTYPE_FLOAT64, 0, NULL, &x, NULL));
  OK(ge_graph_add_node(g, "NoOp", "p", 0, NULL, 0, &p, NULL));
  OK(ge_graph_add_node(g, "NoOp", "q", 0, NULL, 0, &q, NULL));
  OK(ge_graph_add_node(g, "Neg", "neg", 0, NULL, 1, NULL, NULL)); /* name clash with the body */
  in[0] = E(x, 0);
  OK(ge_graph_add_node(g, "PartitionedCall", "call", 1, in, 1, &call, NULL));
  OK(ge_node_set_attr_graph(g, call, "f", f, NULL));
  OK(ge_graph_add_control(g, p, call, NULL));
  OK(ge_graph_add_control(g, call, q, NULL));
  in[0] = E(call, 0);
  OK(ge_graph_add_node(g, "Neg", "y", 1, in, 1, &y, NULL));
  OK(ge_graph_inline(g, call, &err));
  GE_CHECK(ge_graph_node(g, call) == NULL);
  {
    ge_node_id inner = ge_graph_find(g, "call/neg"), before = ge_graph_find(g, "call_before"),
               after = ge_graph_find(g, "call_after");
    GE_REQUIRE(inner != GE_NONE && before != GE_NONE && after != GE_NONE);
    GE_CHECK_EQ_INT(ge_graph_node(g, y)->inputs[0].node, inner);
    GE_CHECK_EQ_INT(ge_graph_node(g, inner)->inputs[0].node, x);
    GE_CHECK_EQ_INT(ge_graph_node(g, before)->control_inputs[0], p);
    GE_CHECK_EQ_INT(ge_graph_node(g, inner)->control_inputs[0], before);
    GE_CHECK_EQ_INT(ge_graph_node(g, after)->control_inputs[0], inner);
    GE_CHECK_EQ_INT(ge_graph_node(g, q)->control_inputs[0], after);
  }
  GE_CHECK(consistent(g));
  /* not a call */
  GE_CHECK_EQ_INT(ge_graph_inline(g, y, &err), GE_ERR_INVALID);
  ge_graph_free(g);
}

GE_TEST(test_extract_boundaries) {
  /* a -> b -> c -> out, extract {b}: one boundary input (a), one output */
  ge_graph *g = tu_new_graph("g");
  ge_node_id a, b, c, set[1];
  ge_edge in[1];
  ge_extract_result r;
  ge_error err;
  ge_validate_desc lax = {1};
  OK(ge_graph_add_data(g, "a", GE_DTYPE_FLOAT64, 0, NULL, &a, NULL));
  in[0] = E(a, 0);
  OK(ge_graph_add_node(g, "Neg", "b", 1, in, 1, &b, NULL));
  in[0] = E(b, 0);
  OK(ge_graph_add_node(g, "Neg", "c", 1, in, 1, &c, NULL));
  in[0] = E(c, 0);
  OK(ge_graph_set_outputs(g, 1, in, NULL, NULL));
  set[0] = b;
  OK(ge_graph_extract(g, set, 1, &r, &err));
  GE_CHECK_EQ_INT(r.num_boundary_inputs, 1);
  GE_CHECK_EQ_INT(r.boundary_inputs[0].node, a);
  GE_CHECK_EQ_INT(r.num_boundary_outputs, 1);
  GE_CHECK_EQ_INT(r.boundary_outputs[0].node, b);
  GE_CHECK_EQ_INT(ge_graph_node_count(r.graph), 3); /* Data, b, NetOutput */
  OK(ge_graph_validate(r.graph, &lax, &err));
  ge_extract_result_free(g, &r);
  set[0] = 12345;
  GE_CHECK_EQ_INT(ge_graph_extract(g, set, 1, &r, &err), GE_ERR_NOT_FOUND);
  ge_graph_free(g);
}

GE_TEST(test_custom_registry) {
  ge_op_registry *reg = NULL;
  ge_op_schema s;
  ge_graph_desc d;
  ge_graph *g = NULL;
  ge_node_id n;
  ge_error err;
  memset(&s, 0, sizeof s);
  s.name = "MyOp";
  s.domain = "com.example";
  s.min_inputs = 0;
  s.max_inputs = 0;
  s.min_outputs = s.max_outputs = s.default_outputs = 2;
  OK(ge_op_registry_create(NULL, &reg, &err));
  OK(ge_op_registry_add(reg, &s, &err));
  s.min_inputs = 3;
  s.max_inputs = 1;
  GE_CHECK_EQ_INT(ge_op_registry_add(reg, &s, &err), GE_ERR_INVALID);
  memset(&d, 0, sizeof d);
  d.registry = reg;
  OK(ge_graph_create(&d, &g, &err));
  OK(ge_graph_add_node(g, "MyOp", "m", 0, NULL, -1, &n, &err));
  GE_CHECK(ge_graph_node(g, n)->schema == NULL); /* wrong domain */
  OK(ge_node_set_domain(g, n, "com.example", &err));
  GE_CHECK(ge_graph_node(g, n)->schema != NULL);
  OK(ge_graph_set_num_outputs(g, n, 2, &err));
  OK(ge_graph_validate(g, NULL, &err));
  GE_CHECK(ge_op_registry_find(reg, "NetOutput", NULL) != NULL); /* builtins stay visible */
  ge_graph_free(g);
  ge_op_registry_free(reg);
}

GE_TEST(test_user_allocator) {
  tu_alloc_state cnt;
  ge_graph_desc d;
  ge_graph *g = NULL, *c = NULL;
  uint32_t i;
  memset(&d, 0, sizeof d);
  d.allocator = tu_allocator(&cnt); /* checks sizes, counts what is outstanding */
  OK(ge_graph_create(&d, &g, NULL));
  OK(ge_graph_add_data(g, "x", GE_DTYPE_FLOAT32, 0, NULL, NULL, NULL));
  for (i = 1; i < 2000; i++) {
    ge_edge in[1];
    in[0] = E(i - 1, 0);
    OK(ge_graph_add_node(g, "Neg", NULL, 1, in, 1, NULL, NULL));
  }
  OK(ge_graph_clone(g, NULL, &c, NULL));
  GE_CHECK(cnt.allocs > 0);
  {
    ge_node_id *order = (ge_node_id *)malloc(sizeof(ge_node_id) * 2000);
    OK(ge_graph_topo_sort(g, GE_TOPO_STABLE_RDFS, order, NULL));
    free(order);
  }
  {
    ge_validate_desc lax = {1};
    OK(ge_graph_validate(g, &lax, NULL));
  }
  ge_graph_free(c);
  ge_graph_free(g);
  GE_CHECK_EQ_INT(cnt.outstanding, 0);
  GE_CHECK_EQ_INT(cnt.size_mismatches, 0);
}

/* The output node the graph keeps equals a scan for the first NetOutput
 * by id, through random adds, removals and domain changes. */
static ge_node_id first_net_output(const ge_graph *g) {
  uint32_t i;
  for (i = 0; i < ge_graph_id_bound(g); i++) {
    const ge_node *n = ge_graph_node(g, i);
    if (n && !strcmp(n->op, "NetOutput") && (!n->domain || !*n->domain)) return i;
  }
  return GE_NONE;
}

GE_TEST(test_output_node_kept) {
  tu_rng rng;
  uint32_t step, bad = 0;
  ge_graph *g = tu_new_graph("g");
  tu_seed(&rng, 5);
  for (step = 0; step < 3000; step++) {
    uint32_t r = tu_below(&rng, 10), id = tu_below(&rng, ge_graph_id_bound(g) + 1);
    ge_node_id made;
    if (r < 3) OK(ge_graph_add_node(g, "NetOutput", NULL, 0, NULL, 0, &made, NULL));
    else if (r < 6) OK(ge_graph_add_node(g, "Relu", NULL, 0, NULL, 1, &made, NULL));
    else if (r < 9 && ge_graph_node(g, id)) OK(ge_graph_remove_node(g, id, NULL));
    else if (ge_graph_node(g, id)) OK(ge_node_set_domain(g, id, tu_below(&rng, 2) ? "custom" : "", NULL));
    bad += ge_graph_output_node(g) != first_net_output(g);
  }
  GE_CHECK_EQ_INT(bad, 0);
  ge_graph_free(g);
}

int main(int argc, char **argv) {
  ge_test_init(argc, argv);
  GE_RUN(test_build_and_edges);
  GE_RUN(test_control_edges);
  GE_RUN(test_attributes);
  GE_RUN(test_mapped_weights);
  GE_RUN(test_inputs_outputs);
  GE_RUN(test_topo_orders_random);
  GE_RUN(test_topo_modes);
  GE_RUN(test_cycle_named);
  GE_RUN(test_validation_errors);
  GE_RUN(test_clone_extract_inline_random);
  GE_RUN(test_inline_control_noops);
  GE_RUN(test_extract_boundaries);
  GE_RUN(test_custom_registry);
  GE_RUN(test_user_allocator);
  GE_RUN(test_output_node_kept);
  return ge_test_main_end();
}

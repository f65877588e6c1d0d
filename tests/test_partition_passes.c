/* Tests of the partition passes of ge_partition.h: pipeline
 * stages, scope subgraphs, Variables split into subgraphs and JIT binary
 * partitioning (with the onion-peeling execution order). Each pass has
 * unit cases (every error included) and seeded random DAGs checked by
 * evaluation: the transformed graph (or the slices then the remaining
 * graph) runs through ge_exec.h on the host CPU kernels and must give the
 * original's outputs bit for bit, stay valid, and hold every original
 * compute node exactly once. The executor has no Variable kernel; this test
 * gives it one (output = the node's "value"), so Variable graphs are
 * evaluated too. */
#include "ge_partition.h"
#include "ge_exec.h"
#include "ge_engines/host_cpu.h"

#include "tests/test.h"
#include "tests/graph_util.h"

#include <stdlib.h>
#include <string.h>

#define E tu_e
#define OK(expr) GE_CHECK_EQ_INT((expr), GE_OK)

static const int64_t D23[2] = {2, 3};

/* ------------------------------------------------------------ executor */

static ge_status k_variable(ge_kernel_ctx *c) {
  const ge_attr *v = ge_node_attr(c->node, "value");
  ge_value *y;
  if (!v || v->type != GE_ATTR_TENSOR) return ge_kernel_error(c, GE_ERR_INVALID, "Variable without value");
  if (!(y = ge_kernel_output(c, 0, v->v.t->dtype, v->v.t->rank, v->v.t->dims))) return GE_ERR_NOMEM;
  if (v->v.t->nbytes) memcpy(y->data, v->v.t->data, v->v.t->nbytes);
  return GE_OK;
}

static ge_kernel_fn lookup(const ge_node *n, void *user) {
  (void)user;
  if (!strcmp(n->op, "Variable")) return k_variable;
  return ge_host_cpu_kernel(n);
}

#define MAX_OUT 96
typedef struct outs {
  int n;
  float v[MAX_OUT][6];
} outs;

/* Runs g on inputs in[0..n_in) (float32 [2,3] each). Returns the output
 * count, or -1 (with the reason printed once per call site). */
static int run(ge_graph *g, float (*in)[6], uint32_t n_in, outs *o) {
  ge_exec_desc d;
  ge_program *p;
  ge_error err;
  ge_value vals[64];
  const ge_value *ptrs[64];
  uint32_t i;
  int n;
  memset(&d, 0, sizeof d);
  d.lookup = lookup;
  if (n_in > 64) return -1;
  if (ge_program_create(g, &d, &p, &err) != GE_OK) {
    printf("    program_create: %s\n", err.message);
    return -1;
  }
  for (i = 0; i < n_in; i++) {
    memset(&vals[i], 0, sizeof vals[i]);
    ge_value_set_shape(&vals[i], GE_DTYPE_FLOAT32, 2, D23);
    vals[i].data = in[i];
    ptrs[i] = &vals[i];
  }
  if (ge_program_run(p, ptrs, n_in, &err) != GE_OK) {
    printf("    run: %s\n", err.message);
    ge_program_free(p);
    return -1;
  }
  n = (int)ge_program_num_outputs(p);
  if (n > MAX_OUT) n = MAX_OUT;
  o->n = n;
  for (i = 0; i < (uint32_t)n; i++) {
    const ge_value *y = ge_program_output(p, i);
    memset(o->v[i], 0, sizeof o->v[i]);
    if (y->dtype == GE_DTYPE_FLOAT32 && y->numel <= 6) memcpy(o->v[i], y->data, (size_t)y->numel * 4);
  }
  ge_program_free(p);
  return n;
}

static int same(const outs *a, const outs *b) {
  int i;
  if (a->n != b->n) return 0;
  for (i = 0; i < a->n; i++)
    if (memcmp(a->v[i], b->v[i], sizeof a->v[i])) return 0;
  return 1;
}

static void rand_inputs(uint64_t seed, float (*in)[6], uint32_t n) {
  tu_rng r;
  uint32_t i, k;
  tu_seed(&r, seed * 7 + 3);
  for (i = 0; i < n; i++)
    for (k = 0; k < 6; k++) in[i][k] = (float)((int)tu_below(&r, 2001) - 1000) / 500.0f;
}

/* ------------------------------------------------------------ building */

/* A seeded random float32 [2,3] tensor over v (values in -100/scale..100/scale). */
static ge_tensor random23(float *v, tu_rng *r, float scale) {
  ge_tensor t;
  int k;
  for (k = 0; k < 6; k++) v[k] = (float)((int)tu_below(r, 201) - 100) / scale;
  memset(&t, 0, sizeof t);
  t.dtype = GE_DTYPE_FLOAT32;
  t.rank = 2;
  t.dims = (int64_t *)D23;
  t.data = v;
  t.nbytes = 6 * sizeof *v;
  return t;
}

static ge_node_id add_const_23(ge_graph *g, const char *name, tu_rng *r) {
  float v[6];
  ge_tensor t = random23(v, r, 50.0f);
  ge_node_id id;
  TU_OK(ge_graph_add_const(g, name, &t, &id, NULL));
  return id;
}

/* An op with one float32 [2, 3] output (declared here, not left to shape inference). */
static ge_node_id add_op_23(ge_graph *g, const char *op, const char *name, uint32_t n, const ge_edge *in) {
  return tu_add_op_shaped(g, op, name, n, in, GE_DTYPE_FLOAT32, 2, D23);
}

static ge_node_id add_data_23(ge_graph *g, const char *name) {
  ge_node_id id;
  TU_OK(ge_graph_add_data(g, name, GE_DTYPE_FLOAT32, 2, D23, &id, NULL));
  return id;
}

/* A random DAG of Relu/Add/Mul/Neg/Sigmoid on float32 [2,3] over n_data
 * inputs and n_const random constants: node i reads 1-2 earlier tensors
 * (so creation order is topological), a few control edges from earlier
 * nodes; the outputs are every sink, some inner tensors and sometimes an
 * input passed straight through. ids (when given) receives the compute
 * node ids in creation order (n_nodes of them). */
static ge_graph *rdag(uint64_t seed, uint32_t n_nodes, uint32_t n_data, uint32_t n_const, ge_node_id *ids) {
  static const char *const ops[] = {"Relu", "Add", "Mul", "Neg", "Sigmoid"};
  tu_rng r;
  ge_graph *g = tu_new_graph("rdag");
  ge_node_id *t = (ge_node_id *)malloc(sizeof(ge_node_id) * (n_nodes + n_data + n_const + 1));
  ge_edge *outs_e = (ge_edge *)malloc(sizeof(ge_edge) * (n_nodes + 4));
  uint32_t i, total = 0, n_out = 0, first;
  char name[32];
  tu_seed(&r, seed);
  for (i = 0; i < n_data; i++) {
    snprintf(name, sizeof name, "in%u", (unsigned)i);
    t[total++] = add_data_23(g, name);
  }
  for (i = 0; i < n_const; i++) {
    snprintf(name, sizeof name, "c%u", (unsigned)i);
    t[total++] = add_const_23(g, name, &r);
  }
  first = total;
  for (i = 0; i < n_nodes; i++) {
    const char *op = ops[tu_below(&r, 5)];
    uint32_t ar = (!strcmp(op, "Add") || !strcmp(op, "Mul")) ? 2 : 1, k;
    ge_edge in[2];
    /* prefer recent tensors so chains get long */
    for (k = 0; k < ar; k++) {
      uint32_t back = tu_below(&r, 3) ? tu_below(&r, total < 6 ? total : 6) : tu_below(&r, total);
      in[k] = E(t[total - 1 - back], 0);
    }
    snprintf(name, sizeof name, "n%u", (unsigned)i);
    t[total] = add_op_23(g, op, name, ar, in);
    if (ids) ids[i] = t[total];
    if (total > first && !tu_below(&r, 10)) TU_OK(ge_graph_add_control(g, t[first + tu_below(&r, total - first)], t[total], NULL));
    total++;
  }
  for (i = first; i < total; i++)
    if (!ge_graph_node(g, t[i])->num_uses || !tu_below(&r, 12)) outs_e[n_out++] = E(t[i], 0);
  if (n_data && !tu_below(&r, 4)) outs_e[n_out++] = E(t[tu_below(&r, n_data)], 0);
  if (n_const && !tu_below(&r, 6)) outs_e[n_out++] = E(t[n_data + tu_below(&r, n_const)], 0);
  TU_OK(ge_graph_set_outputs(g, n_out, outs_e, NULL, NULL));
  free(t);
  free(outs_e);
  return g;
}

/* Nodes named `name` (not Data or NetOutput) in g and all its subgraphs. */
static int count_named(const ge_graph *g, const char *name) {
  ge_node *x;
  int c = 0;
  GE_GRAPH_FOREACH(g, x) {
    uint32_t k;
    int32_t j;
    if (strcmp(x->op, "Data") && strcmp(x->op, "NetOutput") && !strcmp(x->name, name)) c++;
    for (k = 0; k < x->num_attrs; k++) {
      const ge_attr *a = &x->attrs[k];
      if (a->type == GE_ATTR_GRAPH) c += count_named(a->v.g, name);
      for (j = 0; a->type == GE_ATTR_GRAPHS && j < a->count; j++) c += count_named(a->v.graphs[j], name);
    }
  }
  return c;
}

/* Every compute node of orig (not Data/NetOutput) appears exactly once
 * across parts[0..n). */
static int each_once(const ge_graph *orig, ge_graph *const *parts, uint32_t n) {
  ge_node *x;
  GE_GRAPH_FOREACH(orig, x) {
    int c = 0;
    uint32_t i;
    if (!strcmp(x->op, "Data") || !strcmp(x->op, "NetOutput")) continue;
    for (i = 0; i < n; i++) c += parts[i] ? count_named(parts[i], x->name) : 0;
    if (c != 1) {
      printf("    node '%s' appears %d times\n", x->name, c);
      return 0;
    }
  }
  return 1;
}

static int valid(const ge_graph *g) {
  ge_error err;
  if (ge_graph_validate(g, NULL, &err) == GE_OK) return 1;
  printf("    invalid: %s\n", err.message);
  return 0;
}

static uint32_t count_op(const ge_graph *g, const char *op) {
  ge_node *x;
  uint32_t c = 0;
  GE_GRAPH_FOREACH(g, x) c += !strcmp(x->op, op);
  return c;
}

static const ge_graph *body_of(ge_graph *g, const char *name) {
  ge_node_id id = ge_graph_find(g, name);
  const ge_attr *f;
  if (id == GE_NONE || !(f = ge_node_attr(ge_graph_node(g, id), "f")) || f->type != GE_ATTR_GRAPH) return NULL;
  return f->v.g;
}

/* ===================================================== pipeline stages */

GE_TEST(test_stages_none) {
  ge_graph *g = rdag(1, 10, 2, 1, NULL);
  uint32_t before = ge_graph_node_count(g);
  ge_error err;
  OK(ge_partition_stages(g, &err));
  GE_CHECK_EQ_INT(ge_graph_node_count(g), before);
  GE_CHECK_EQ_INT(count_op(g, "PartitionedCall"), 0);
  /* a level on Data / NetOutput only is no stage either */
  OK(ge_node_set_attr_int(g, ge_graph_find(g, "in0"), "_stage_level", 3, NULL));
  OK(ge_partition_stages(g, &err));
  GE_CHECK_EQ_INT(ge_graph_node_count(g), before);
  GE_CHECK_EQ_INT(ge_partition_stages(NULL, &err), GE_ERR_INVALID);
  ge_graph_free(g);
}

GE_TEST(test_stages_rule) {
  /* x -> a(0) -> b -> c(2) -> out;  a -> d -> out;  b -> e(1) -> c;  f (reads x, unused but output) */
  ge_graph *g = tu_new_graph("g");
  ge_node_id x = add_data_23(g, "x"), a, b, c, d, e, f;
  ge_edge in[2], o[3];
  ge_error err;
  const ge_graph *s0, *s1, *s2;
  float inputs[1][6];
  outs before, after;
  in[0] = E(x, 0);
  a = add_op_23(g, "Relu", "a", 1, in);
  in[0] = E(a, 0);
  b = add_op_23(g, "Neg", "b", 1, in);
  d = add_op_23(g, "Sigmoid", "d", 1, in);
  in[0] = E(b, 0);
  e = add_op_23(g, "Relu", "e", 1, in);
  in[0] = E(b, 0), in[1] = E(e, 0);
  c = add_op_23(g, "Add", "c", 2, in);
  in[0] = E(x, 0);
  f = add_op_23(g, "Neg", "f", 1, in);
  o[0] = E(c, 0), o[1] = E(d, 0), o[2] = E(f, 0);
  OK(ge_graph_set_outputs(g, 3, o, NULL, NULL));
  OK(ge_node_set_attr_int(g, a, "_stage_level", 0, NULL));
  OK(ge_node_set_attr_int(g, e, "_stage_level", 1, NULL));
  OK(ge_node_set_attr_int(g, c, "_stage_level", 2, NULL));
  rand_inputs(1, inputs, 1);
  GE_REQUIRE(run(g, inputs, 1, &before) == 3);
  OK(ge_partition_stages(g, &err));
  GE_CHECK(valid(g));
  s0 = body_of(g, "stage_0"), s1 = body_of(g, "stage_1"), s2 = body_of(g, "stage_2");
  GE_REQUIRE(s0 && s1 && s2);
  GE_CHECK(ge_graph_node(g, b) == NULL);
  /* b: min of its consumers e(1), c(2) -> 1; d and f feed only the output -> last stage 2 */
  GE_CHECK_EQ_INT(ge_node_attr_int(ge_graph_node(s1, ge_graph_find((ge_graph *)s1, "b")), "_stage_level", -1), 1);
  GE_CHECK_EQ_INT(ge_node_attr_int(ge_graph_node(s2, ge_graph_find((ge_graph *)s2, "d")), "_stage_level", -1), 2);
  GE_CHECK_EQ_INT(ge_node_attr_int(ge_graph_node(s2, ge_graph_find((ge_graph *)s2, "f")), "_stage_level", -1), 2);
  GE_CHECK(ge_graph_find((ge_graph *)s0, "a") != GE_NONE);
  GE_CHECK(ge_graph_find((ge_graph *)s1, "b") != GE_NONE && ge_graph_find((ge_graph *)s1, "e") != GE_NONE);
  GE_CHECK(ge_graph_find((ge_graph *)s2, "c") != GE_NONE && ge_graph_find((ge_graph *)s2, "d") != GE_NONE &&
           ge_graph_find((ge_graph *)s2, "f") != GE_NONE);
  {
    ge_node *s = ge_graph_node(g, ge_graph_find(g, "stage_1"));
    GE_CHECK(s->flags & GE_NODE_FORCE_DYNAMIC);
    GE_CHECK_EQ_INT(ge_node_attr_int(s, "_stage_level", -1), 1);
  }
  GE_CHECK_EQ_INT(count_op(g, "PartitionedCall"), 3);
  GE_CHECK_EQ_INT(ge_graph_node_count(g), 5); /* x, 3 stages, NetOutput */
  GE_CHECK(run(g, inputs, 1, &after) == 3 && same(&before, &after));
  ge_graph_free(g);
}

GE_TEST(test_stages_errors) {
  ge_graph *g = tu_new_graph("g");
  ge_node_id x = add_data_23(g, "x"), a, b, c;
  ge_edge in[1];
  ge_error err;
  in[0] = E(x, 0);
  a = add_op_23(g, "Relu", "alpha", 1, in);
  in[0] = E(a, 0);
  b = add_op_23(g, "Neg", "beta", 1, in);
  OK(ge_graph_set_outputs(g, 1, in, NULL, NULL));
  /* backward data edge: alpha (stage 3) feeds beta (stage 1) */
  OK(ge_node_set_attr_int(g, a, "_stage_level", 3, NULL));
  OK(ge_node_set_attr_int(g, b, "_stage_level", 1, NULL));
  GE_CHECK_EQ_INT(ge_partition_stages(g, &err), GE_ERR_INVALID);
  GE_CHECK(strstr(err.message, "'alpha'") && strstr(err.message, "'beta'"));
  GE_CHECK_EQ_INT(count_op(g, "PartitionedCall"), 0);
  /* backward control edge */
  OK(ge_node_set_attr_int(g, b, "_stage_level", 5, NULL));
  in[0] = E(x, 0);
  c = add_op_23(g, "Sigmoid", "gamma", 1, in);
  OK(ge_node_set_attr_int(g, c, "_stage_level", 0, NULL));
  OK(ge_graph_add_control(g, b, c, NULL));
  GE_CHECK_EQ_INT(ge_partition_stages(g, &err), GE_ERR_INVALID);
  GE_CHECK(strstr(err.message, "'beta'") && strstr(err.message, "'gamma'"));
  OK(ge_graph_remove_control(g, b, c, NULL));
  /* not an int */
  OK(ge_node_set_attr_string(g, c, "_stage_level", "0", NULL));
  GE_CHECK_EQ_INT(ge_partition_stages(g, &err), GE_ERR_INVALID);
  GE_CHECK(strstr(err.message, "'gamma'") && strstr(err.message, "_stage_level"));
  OK(ge_node_set_attr_int(g, c, "_stage_level", 0, NULL));
  /* a cycle */
  OK(ge_graph_set_input(g, a, 0, E(b, 0), NULL));
  GE_CHECK_EQ_INT(ge_partition_stages(g, &err), GE_ERR_CYCLE);
  OK(ge_graph_set_input(g, a, 0, E(x, 0), NULL));
  /* name clash with the stage call: made unique */
  OK(ge_node_set_name(g, c, "stage_0", NULL));
  OK(ge_partition_stages(g, &err));
  GE_CHECK(valid(g));
  GE_CHECK(body_of(g, "stage_0_1") != NULL);
  ge_graph_free(g);
}

GE_TEST(test_stages_random) {
  uint32_t seed, bad_valid = 0, bad_eval = 0, bad_once = 0, bad_shape = 0, failed = 0, runs = 0;
  for (seed = 1; seed <= 600; seed++) {
    tu_rng r;
    uint32_t n_nodes = 3 + seed % 50, n_data = 1 + seed % 3, n_const = seed % 3, i, S, marked = 0;
    ge_node_id ids[64];
    ge_graph *g = rdag(seed, n_nodes, n_data, n_const, ids), *orig = NULL;
    int64_t levels[4];
    float in[4][6];
    outs a, b;
    ge_error err;
    ge_node *x;
    uint8_t used[4] = {0, 0, 0, 0};
    tu_seed(&r, seed + 1000);
    S = 1 + tu_below(&r, 4);
    for (i = 0; i < S; i++) levels[i] = (int64_t)i * 3 + tu_below(&r, 3) - 2; /* increasing, maybe negative */
    /* levels nondecreasing in creation order: never a backward edge */
    for (i = 0; i < n_nodes; i++)
      if (!tu_below(&r, 3)) {
        uint32_t s = i * S / n_nodes;
        OK(ge_node_set_attr_int(g, ids[i], "_stage_level", levels[s], NULL));
        used[s] = 1;
        marked++;
      }
    TU_OK(ge_graph_clone(g, NULL, &orig, NULL));
    rand_inputs(seed, in, n_data);
    if (run(orig, in, n_data, &a) < 0) {
      bad_eval++;
      goto next;
    }
    if (ge_partition_stages(g, &err) != GE_OK) {
      if (!failed++) printf("    seed %u: %s\n", seed, err.message);
      goto next;
    }
    runs++;
    if (!valid(g)) bad_valid++;
    if (!each_once(orig, &g, 1)) bad_once++;
    {
      uint32_t calls = 0, want = 0;
      for (i = 0; i < S; i++) want += used[i];
      GE_GRAPH_FOREACH(g, x) {
        if (!strcmp(x->op, "PartitionedCall")) {
          const ge_graph *f = ge_node_attr(x, "f")->v.g;
          ge_node *y;
          int64_t lv = ge_node_attr_int(x, "_stage_level", INT64_MIN);
          calls++;
          if (!(x->flags & GE_NODE_FORCE_DYNAMIC)) bad_shape++;
          GE_GRAPH_FOREACH(f, y)
          if (strcmp(y->op, "Data") && strcmp(y->op, "NetOutput") && ge_node_attr_int(y, "_stage_level", INT64_MIN) != lv)
            bad_shape++;
        } else if (marked && strcmp(x->op, "Data") && strcmp(x->op, "NetOutput"))
          bad_shape++; /* everything else moved into a stage */
      }
      if (calls != (marked ? want : 0)) bad_shape++;
    }
    if (run(g, in, n_data, &b) < 0 || !same(&a, &b)) bad_eval++;
  next:
    ge_graph_free(g);
    ge_graph_free(orig);
  }
  GE_CHECK_EQ_INT(failed, 0);
  GE_CHECK_EQ_INT(bad_valid, 0);
  GE_CHECK_EQ_INT(bad_once, 0);
  GE_CHECK_EQ_INT(bad_shape, 0);
  GE_CHECK_EQ_INT(bad_eval, 0);
  GE_CHECK(runs >= 500);
}

/* ===================================================== scope subgraphs */

#define SCOPE "_op_multi_dims_input_dims"

static void set_scope(ge_graph *g, ge_node_id id, int which) {
  static const int64_t v12[2] = {1, 2}, v3[1] = {3};
  switch (which) {
  case 0: TU_OK(ge_node_set_attr_string(g, id, SCOPE, "1,2;3,4", NULL)); break;
  case 1: TU_OK(ge_node_set_attr_ints(g, id, SCOPE, v12, 2, NULL)); break;
  case 2: TU_OK(ge_node_set_attr_ints(g, id, SCOPE, v3, 1, NULL)); break;
  default: TU_OK(ge_node_set_attr_int(g, id, SCOPE, 3, NULL)); break; /* int 3 is not ints [3] */
  }
}

static int attr_same(const ge_attr *a, const ge_attr *b) {
  int32_t k;
  if (!a || !b || a->type != b->type) return 0;
  if (a->type == GE_ATTR_STRING) return !strcmp(a->v.s, b->v.s);
  if (a->type == GE_ATTR_INT) return a->v.i == b->v.i;
  if (a->type != GE_ATTR_INTS || a->count != b->count) return 0;
  for (k = 0; k < a->count; k++)
    if (a->v.ints[k] != b->v.ints[k]) return 0;
  return 1;
}

GE_TEST(test_scopes_units) {
  ge_graph *g = tu_new_graph("g");
  ge_node_id x = add_data_23(g, "x"), a, r, b, c, d;
  ge_edge in[2], o[2];
  ge_error err;
  float inputs[1][6];
  outs before, after;
  /* a(S0) -> r -> b(S0) -> c(S1);  x -> d(S1);  {a, b} is not convex */
  in[0] = E(x, 0);
  a = add_op_23(g, "Relu", "a", 1, in);
  in[0] = E(a, 0);
  r = add_op_23(g, "Neg", "r", 1, in);
  in[0] = E(r, 0), in[1] = E(a, 0);
  b = add_op_23(g, "Add", "b", 2, in);
  in[0] = E(b, 0);
  c = add_op_23(g, "Sigmoid", "c", 1, in);
  in[0] = E(x, 0);
  d = add_op_23(g, "Neg", "d", 1, in);
  o[0] = E(c, 0), o[1] = E(d, 0);
  OK(ge_graph_set_outputs(g, 2, o, NULL, NULL));
  OK(ge_partition_scopes(g, &err)); /* nothing marked */
  GE_CHECK_EQ_INT(count_op(g, "PartitionedCall"), 0);
  set_scope(g, a, 0);
  set_scope(g, b, 0);
  set_scope(g, c, 1);
  set_scope(g, d, 1);
  rand_inputs(2, inputs, 1);
  GE_REQUIRE(run(g, inputs, 1, &before) == 2);
  OK(ge_partition_scopes(g, &err));
  GE_CHECK(valid(g));
  GE_CHECK(body_of(g, "scope_0_0") && body_of(g, "scope_0_1") && body_of(g, "scope_1"));
  GE_CHECK(ge_graph_find((ge_graph *)body_of(g, "scope_0_0"), "a") != GE_NONE);
  GE_CHECK(ge_graph_find((ge_graph *)body_of(g, "scope_0_1"), "b") != GE_NONE);
  GE_CHECK(ge_graph_find(g, "r") != GE_NONE);
  {
    const ge_attr *s = ge_node_attr(ge_graph_node(g, ge_graph_find(g, "scope_1")), SCOPE);
    GE_CHECK(s && s->type == GE_ATTR_INTS && s->count == 2);
  }
  GE_CHECK(run(g, inputs, 1, &after) == 2 && same(&before, &after));
  ge_graph_free(g);
  /* a tensor value is refused */
  g = tu_new_graph("g");
  x = add_data_23(g, "x");
  in[0] = E(x, 0);
  a = add_op_23(g, "Relu", "tensor_scope", 1, in);
  OK(ge_graph_set_outputs(g, 1, o, NULL, NULL) == GE_OK ? GE_OK : GE_OK);
  {
    int64_t dims[1] = {1};
    int32_t v = 1;
    ge_tensor t;
    memset(&t, 0, sizeof t);
    t.dtype = GE_DTYPE_INT32, t.rank = 1, t.dims = dims, t.data = &v, t.nbytes = 4;
    OK(ge_node_set_attr_tensor(g, a, SCOPE, &t, NULL));
  }
  GE_CHECK_EQ_INT(ge_partition_scopes(g, &err), GE_ERR_INVALID);
  GE_CHECK(strstr(err.message, "'tensor_scope'") != NULL);
  GE_CHECK_EQ_INT(ge_partition_scopes(NULL, &err), GE_ERR_INVALID);
  ge_graph_free(g);
}

/* Wrapping one value's set can make another's non-convex: b1 -> a1, a2 -> b2
 * with A = {a1, a2} independent and B = {b1, b2}: once A is one node, b1
 * reaches b2 through it. */
GE_TEST(test_scopes_interaction) {
  ge_graph *g = tu_new_graph("g");
  ge_node_id x = add_data_23(g, "x"), a1, a2, b1, b2;
  ge_edge in[1], o[2];
  ge_error err;
  float inputs[1][6];
  outs before, after;
  in[0] = E(x, 0);
  b1 = add_op_23(g, "Relu", "b1", 1, in);
  a2 = add_op_23(g, "Neg", "a2", 1, in);
  in[0] = E(b1, 0);
  a1 = add_op_23(g, "Sigmoid", "a1", 1, in);
  in[0] = E(a2, 0);
  b2 = add_op_23(g, "Relu", "b2", 1, in);
  o[0] = E(a1, 0), o[1] = E(b2, 0);
  OK(ge_graph_set_outputs(g, 2, o, NULL, NULL));
  set_scope(g, b1, 2);
  set_scope(g, b2, 2);
  set_scope(g, a2, 3);
  set_scope(g, a1, 3);
  rand_inputs(3, inputs, 1);
  GE_REQUIRE(run(g, inputs, 1, &before) == 2);
  OK(ge_partition_scopes(g, &err));
  GE_CHECK(valid(g));
  /* B = {b1, b2} (first node id) is convex and wrapped first; then A is not */
  GE_CHECK(body_of(g, "scope_0") && body_of(g, "scope_1_0") && body_of(g, "scope_1_1"));
  GE_CHECK(run(g, inputs, 1, &after) == 2 && same(&before, &after));
  ge_graph_free(g);
}

GE_TEST(test_scopes_random) {
  uint32_t seed, bad_valid = 0, bad_eval = 0, bad_once = 0, bad_attr = 0, failed = 0, runs = 0, split = 0;
  for (seed = 1; seed <= 600; seed++) {
    tu_rng r;
    uint32_t n_nodes = 3 + seed % 45, n_data = 1 + seed % 3, n_const = seed % 3, i, n_vals;
    ge_node_id ids[64];
    ge_graph *g = rdag(seed * 31, n_nodes, n_data, n_const, ids), *orig = NULL;
    float in[4][6];
    outs a, b;
    ge_error err;
    ge_node *x;
    tu_seed(&r, seed + 2000);
    n_vals = 1 + tu_below(&r, 4);
    for (i = 0; i < n_nodes; i++)
      if (tu_below(&r, 3)) set_scope(g, ids[i], (int)tu_below(&r, n_vals));
    TU_OK(ge_graph_clone(g, NULL, &orig, NULL));
    rand_inputs(seed, in, n_data);
    if (run(orig, in, n_data, &a) < 0) {
      bad_eval++;
      goto next;
    }
    if (ge_partition_scopes(g, &err) != GE_OK) {
      if (!failed++) printf("    seed %u: %s\n", seed, err.message);
      goto next;
    }
    runs++;
    if (!valid(g)) bad_valid++;
    if (!each_once(orig, &g, 1)) bad_once++;
    GE_GRAPH_FOREACH(g, x) {
      const ge_attr *s = ge_node_attr(x, SCOPE);
      if (!strcmp(x->op, "PartitionedCall")) {
        const ge_graph *f = ge_node_attr(x, "f")->v.g;
        ge_node *y;
        split += strchr(x->name + 6, '_') != NULL;
        GE_GRAPH_FOREACH(f, y)
        if (strcmp(y->op, "Data") && strcmp(y->op, "NetOutput") && !attr_same(s, ge_node_attr(y, SCOPE))) bad_attr++;
      } else if (s)
        bad_attr++; /* a marked node left outside */
    }
    if (run(g, in, n_data, &b) < 0 || !same(&a, &b)) bad_eval++;
  next:
    ge_graph_free(g);
    ge_graph_free(orig);
  }
  GE_CHECK_EQ_INT(failed, 0);
  GE_CHECK_EQ_INT(bad_valid, 0);
  GE_CHECK_EQ_INT(bad_once, 0);
  GE_CHECK_EQ_INT(bad_attr, 0);
  GE_CHECK_EQ_INT(bad_eval, 0);
  GE_CHECK(split > 0); /* non-convex sets did occur */
  GE_CHECK(runs >= 500);
}

/* ========================================== variables into subgraphs */

static ge_node_id add_variable(ge_graph *g, const char *name, tu_rng *r) {
  float v[6];
  ge_tensor t = random23(v, r, 40.0f);
  ge_node_id id;
  TU_OK(ge_graph_add_node(g, "Variable", name, 0, NULL, 1, &id, NULL));
  TU_OK(ge_node_set_attr_tensor(g, id, "value", &t, NULL));
  TU_OK(ge_node_set_output(g, id, 0, GE_DTYPE_FLOAT32, 2, D23, NULL, NULL));
  return id;
}

static ge_node_id add_scalar_const(ge_graph *g, const char *name, ge_dtype dt, int64_t v) {
  ge_tensor t;
  ge_node_id id;
  int32_t i32 = (int32_t)v;
  uint8_t b = (uint8_t)(v != 0);
  memset(&t, 0, sizeof t);
  t.dtype = dt;
  t.rank = 0;
  t.data = dt == GE_DTYPE_BOOL ? (void *)&b : (void *)&i32;
  t.nbytes = ge_dtype_size(dt);
  TU_OK(ge_graph_add_const(g, name, &t, &id, NULL));
  return id;
}

/* How a body's Data nodes name the holder input they read. */
enum { BY_INDEX, BY_PARENT, BY_CASE_INDEX };

/* A body reading holder inputs ks[0..n) (Data by `how`), computing n_out
 * float32 [2,3] outputs from them with a few random ops. `nested` > 0 adds
 * a PartitionedCall (or an If) inside that reads some of the body's Data. */
static ge_graph *make_body(tu_rng *r, const char *name, const uint32_t *ks, uint32_t n, int how, uint32_t n_out,
                           int nested, int prefix) {
  static const char *const ops[] = {"Relu", "Add", "Mul", "Neg", "Sigmoid"};
  ge_graph *b = tu_new_graph(name);
  ge_node_id t[32];
  ge_edge o[8];
  uint32_t i, total = 0, k;
  char nm[160];
  for (i = 0; i < n; i++) {
    snprintf(nm, sizeof nm, "%s_d%u", name, (unsigned)i);
    TU_OK(ge_graph_add_node(b, "Data", nm, 0, NULL, 1, &t[total], NULL));
    TU_OK(ge_node_set_output(b, t[total], 0, GE_DTYPE_FLOAT32, 2, D23, NULL, NULL));
    if (how == BY_INDEX) TU_OK(ge_node_set_attr_int(b, t[total], "index", (int64_t)i, NULL));
    if (how == BY_CASE_INDEX) TU_OK(ge_node_set_attr_int(b, t[total], "index", (int64_t)ks[i] - 1, NULL));
    if (how == BY_PARENT) TU_OK(ge_node_set_attr_int(b, t[total], "parent_index", (int64_t)ks[i], NULL));
    total++;
  }
  if (!n) t[total++] = add_const_23(b, "k0", r);
  if (nested > 0 && n) { /* an inner call over one or two of the Data */
    uint32_t m = 1 + tu_below(r, n < 2 ? 1 : 2), inner_ks[2];
    ge_edge ins[3];
    ge_graph *ib;
    ge_node_id call;
    int use_if = (int)tu_below(r, 2);
    for (k = 0; k < m; k++) inner_ks[k] = (use_if ? 1 : 0) + k;
    snprintf(nm, sizeof nm, "%s_in", name);
    if (use_if) {
      ge_graph *eb;
      char en[200];
      ins[0] = E(add_scalar_const(b, "inner_cond", GE_DTYPE_BOOL, (int64_t)tu_below(r, 2)), 0);
      for (k = 0; k < m; k++) ins[1 + k] = E(t[tu_below(r, n)], 0);
      ib = make_body(r, nm, inner_ks, m, BY_PARENT, 1, nested - 1, prefix);
      snprintf(en, sizeof en, "%s_else", nm);
      eb = make_body(r, en, inner_ks, m, BY_PARENT, 1, 0, prefix);
      snprintf(nm, sizeof nm, "%s_if", name);
      TU_OK(ge_graph_add_node(b, "If", nm, 1 + m, ins, 1, &call, NULL));
      TU_OK(ge_node_set_attr_graph(b, call, "then_branch", ib, NULL));
      TU_OK(ge_node_set_attr_graph(b, call, "else_branch", eb, NULL));
    } else {
      for (k = 0; k < m; k++) ins[k] = E(t[tu_below(r, n)], 0);
      ib = make_body(r, nm, inner_ks, m, BY_INDEX, 1, nested - 1, prefix);
      snprintf(nm, sizeof nm, "%s_call", name);
      TU_OK(ge_graph_add_node(b, "PartitionedCall", nm, m, ins, 1, &call, NULL));
      TU_OK(ge_node_set_attr_graph(b, call, "f", ib, NULL));
    }
    TU_OK(ge_node_set_output(b, call, 0, GE_DTYPE_FLOAT32, 2, D23, NULL, NULL));
    t[total++] = call;
  }
  for (i = 0; i < 2 + tu_below(r, 4) && total < 30; i++) {
    const char *op = ops[tu_below(r, 5)];
    uint32_t ar = (!strcmp(op, "Add") || !strcmp(op, "Mul")) ? 2 : 1;
    ge_edge ins[2];
    for (k = 0; k < ar; k++) ins[k] = E(t[tu_below(r, total)], 0);
    snprintf(nm, sizeof nm, "%s_op%u", name, (unsigned)i);
    t[total] = add_op_23(b, op, nm, ar, ins);
    total++;
  }
  for (i = 0; i < n_out; i++) o[i] = E(t[total - 1 - (i % total)], 0);
  TU_OK(ge_graph_set_outputs(b, n_out, o, NULL, NULL));
  (void)prefix;
  return b;
}

/* A random root graph: Data x, Variables, and holders (PartitionedCall,
 * If, Case, While) whose inputs mix x, Variables and earlier results. */
static ge_graph *rvar_graph(uint64_t seed, uint32_t *n_holders_of_kind) {
  tu_rng r;
  ge_graph *g = tu_new_graph("vars");
  ge_node_id t[48], vars[4];
  ge_edge outs_e[16];
  uint32_t i, total = 0, nv, nh, n_out = 0;
  char nm[32];
  tu_seed(&r, seed);
  t[total++] = add_data_23(g, "x");
  nv = 1 + tu_below(&r, 3);
  for (i = 0; i < nv; i++) {
    snprintf(nm, sizeof nm, "var%u", (unsigned)i);
    vars[i] = t[total++] = add_variable(g, nm, &r);
  }
  nh = 1 + tu_below(&r, 4);
  for (i = 0; i < nh; i++) {
    uint32_t kind = tu_below(&r, 4), n_in = 1 + tu_below(&r, 3), k, ks[4], first = kind == 1 || kind == 2 ? 1 : 0;
    ge_edge ins[5];
    ge_node_id h;
    char hn[32], bn[48];
    uint32_t n_out_h = kind == 3 ? n_in : 1 + tu_below(&r, 2);
    n_holders_of_kind[kind]++;
    for (k = 0; k < n_in; k++) {
      uint32_t pick = tu_below(&r, 3);
      ins[first + k] = pick == 0 ? E(vars[tu_below(&r, nv)], 0) : E(t[tu_below(&r, total)], 0);
      ks[k] = first + k;
    }
    snprintf(hn, sizeof hn, "h%u", (unsigned)i);
    if (kind == 0) { /* PartitionedCall, Data by index or by parent_index */
      int how = tu_below(&r, 2) ? BY_INDEX : BY_PARENT;
      snprintf(bn, sizeof bn, "%s_f", hn);
      TU_OK(ge_graph_add_node(g, "PartitionedCall", hn, n_in, ins, (int32_t)n_out_h, &h, NULL));
      TU_OK(ge_node_set_attr_graph(g, h, "f", make_body(&r, bn, ks, n_in, how, n_out_h, (int)tu_below(&r, 3), 0), NULL));
    } else if (kind == 1) { /* If */
      ge_graph *tb, *eb;
      ins[0] = E(add_scalar_const(g, NULL, GE_DTYPE_BOOL, (int64_t)tu_below(&r, 2)), 0);
      snprintf(bn, sizeof bn, "%s_then", hn);
      tb = make_body(&r, bn, ks, n_in, BY_PARENT, n_out_h, (int)tu_below(&r, 3), 0);
      snprintf(bn, sizeof bn, "%s_else", hn);
      eb = make_body(&r, bn, ks, n_in - tu_below(&r, 2), BY_PARENT, n_out_h, 0, 0); /* may not read the last input */
      TU_OK(ge_graph_add_node(g, "If", hn, 1 + n_in, ins, (int32_t)n_out_h, &h, NULL));
      TU_OK(ge_node_set_attr_graph(g, h, "then_branch", tb, NULL));
      TU_OK(ge_node_set_attr_graph(g, h, "else_branch", eb, NULL));
    } else if (kind == 2) { /* Case over 2-3 branches, Data by index (input - 1) or parent_index */
      ge_graph *br[3];
      uint32_t nb = 2 + tu_below(&r, 2), j;
      ins[0] = E(add_scalar_const(g, NULL, GE_DTYPE_INT32, (int64_t)tu_below(&r, nb + 1)), 0);
      for (j = 0; j < nb; j++) {
        snprintf(bn, sizeof bn, "%s_b%u", hn, (unsigned)j);
        br[j] = make_body(&r, bn, ks, n_in, tu_below(&r, 2) ? BY_CASE_INDEX : BY_PARENT, n_out_h, (int)tu_below(&r, 2), 0);
      }
      TU_OK(ge_graph_add_node(g, "Case", hn, 1 + n_in, ins, (int32_t)n_out_h, &h, NULL));
      TU_OK(ge_node_set_attr_graphs(g, h, "branches", br, (int32_t)nb, NULL));
    } else { /* While whose cond is false at once: the outputs are its inputs */
      ge_graph *cg = tu_new_graph("cond"), *bg;
      ge_node_id cd[4], cf;
      ge_edge ce;
      for (k = 0; k < n_in; k++) {
        snprintf(bn, sizeof bn, "cd%u", (unsigned)k);
        TU_OK(ge_graph_add_node(cg, "Data", bn, 0, NULL, 1, &cd[k], NULL));
        TU_OK(ge_node_set_attr_int(cg, cd[k], "index", (int64_t)k, NULL));
        TU_OK(ge_node_set_output(cg, cd[k], 0, GE_DTYPE_FLOAT32, 2, D23, NULL, NULL));
      }
      cf = add_scalar_const(cg, "stop", GE_DTYPE_BOOL, 0);
      ce = E(cf, 0);
      TU_OK(ge_graph_set_outputs(cg, 1, &ce, NULL, NULL));
      snprintf(bn, sizeof bn, "%s_body", hn);
      for (k = 0; k < n_in; k++) ks[k] = k;
      bg = make_body(&r, bn, ks, n_in, BY_INDEX, n_out_h, 0, 0);
      TU_OK(ge_graph_add_node(g, "While", hn, n_in, ins, (int32_t)n_out_h, &h, NULL));
      TU_OK(ge_node_set_attr_graph(g, h, "cond", cg, NULL));
      TU_OK(ge_node_set_attr_graph(g, h, "body", bg, NULL));
    }
    for (k = 0; k < n_out_h; k++) {
      TU_OK(ge_node_set_output(g, h, k, GE_DTYPE_FLOAT32, 2, D23, NULL, NULL));
      if (total < 48) t[total++] = h; /* output 0 only is reused below */
      if (n_out < 16) outs_e[n_out++] = E(h, (int32_t)k);
    }
  }
  if (!tu_below(&r, 3)) { /* a Variable also read in the root */
    ge_edge e = E(vars[0], 0);
    if (n_out < 16) outs_e[n_out++] = E(add_op_23(g, "Relu", "root_relu", 1, &e), 0);
  }
  TU_OK(ge_graph_set_outputs(g, n_out, outs_e, NULL, NULL));
  return g;
}

/* After the pass: no If/Case/PartitionedCall input is a Variable (in any
 * graph), and every While fed by a Variable has a control edge from it. */
static int variables_split(const ge_graph *g) {
  ge_node *x;
  GE_GRAPH_FOREACH(g, x) {
    uint32_t k, j;
    int32_t s;
    int loop = !strcmp(x->op, "While");
    int holder = loop || !strcmp(x->op, "If") || !strcmp(x->op, "Case") || !strcmp(x->op, "PartitionedCall");
    for (k = (!strcmp(x->op, "If") || !strcmp(x->op, "Case")) ? 1 : 0; holder && k < x->num_inputs; k++) {
      const ge_node *p = x->inputs[k].node == GE_NONE ? NULL : ge_graph_node(g, x->inputs[k].node);
      if (!p || strcmp(p->op, "Variable")) continue;
      if (!loop) return 0;
      for (j = 0; j < x->num_control_inputs && x->control_inputs[j] != p->id; j++) {
      }
      if (j == x->num_control_inputs) return 0;
    }
    for (k = 0; k < x->num_attrs; k++) {
      const ge_attr *a = &x->attrs[k];
      if (a->type == GE_ATTR_GRAPH && !variables_split(a->v.g)) return 0;
      for (s = 0; a->type == GE_ATTR_GRAPHS && s < a->count; s++)
        if (!variables_split(a->v.graphs[s])) return 0;
    }
  }
  return 1;
}

/* Variable copies in subgraphs carry the value of the root Variable of the
 * same name. */
static int copies_match(const ge_graph *root, const ge_graph *g, int *copies) {
  ge_node *x;
  GE_GRAPH_FOREACH(g, x) {
    uint32_t k;
    int32_t s;
    if (g != root && !strcmp(x->op, "Variable")) {
      ge_node_id id = ge_graph_find((ge_graph *)root, x->name);
      const ge_attr *a, *b;
      if (id == GE_NONE) return 0;
      a = ge_node_attr(ge_graph_node(root, id), "value");
      b = ge_node_attr(x, "value");
      if (!a || !b || a->v.t->nbytes != b->v.t->nbytes || memcmp(a->v.t->data, b->v.t->data, a->v.t->nbytes)) return 0;
      (*copies)++;
    }
    for (k = 0; k < x->num_attrs; k++) {
      const ge_attr *a = &x->attrs[k];
      if (a->type == GE_ATTR_GRAPH && !copies_match(root, a->v.g, copies)) return 0;
      for (s = 0; a->type == GE_ATTR_GRAPHS && s < a->count; s++)
        if (!copies_match(root, a->v.graphs[s], copies)) return 0;
    }
  }
  return 1;
}

GE_TEST(test_variables_units) {
  /* If: then reads var (parent_index 1) and x (parent_index 2); else reads x */
  ge_graph *g = tu_new_graph("g"), *tb = tu_new_graph("then"), *eb = tu_new_graph("else");
  ge_node_id x, v, cond, h, td1, td2, ed, a, n2, y;
  ge_edge in[3];
  ge_error err;
  tu_rng r;
  float inputs[1][6];
  outs before, after;
  tu_seed(&r, 5);
  x = add_data_23(g, "x");
  v = add_variable(g, "w", &r);
  cond = add_scalar_const(g, "cond", GE_DTYPE_BOOL, 1);
  TU_OK(ge_graph_add_node(tb, "Data", "w", 0, NULL, 1, &td1, NULL)); /* named like the variable */
  TU_OK(ge_node_set_attr_int(tb, td1, "parent_index", 1, NULL));
  TU_OK(ge_graph_add_node(tb, "Data", "tx", 0, NULL, 1, &td2, NULL));
  TU_OK(ge_node_set_attr_int(tb, td2, "parent_index", 2, NULL));
  in[0] = E(td1, 0), in[1] = E(td2, 0);
  a = add_op_23(tb, "Add", "t_add", 2, in);
  in[0] = E(a, 0);
  OK(ge_graph_set_outputs(tb, 1, in, NULL, NULL));
  TU_OK(ge_graph_add_node(eb, "Data", "ex", 0, NULL, 1, &ed, NULL));
  TU_OK(ge_node_set_attr_int(eb, ed, "parent_index", 2, NULL));
  in[0] = E(ed, 0);
  n2 = add_op_23(eb, "Neg", "e_neg", 1, in);
  in[0] = E(n2, 0);
  OK(ge_graph_set_outputs(eb, 1, in, NULL, NULL));
  in[0] = E(cond, 0), in[1] = E(v, 0), in[2] = E(x, 0);
  TU_OK(ge_graph_add_node(g, "If", "if", 3, in, 1, &h, NULL));
  OK(ge_node_set_attr_graph(g, h, "then_branch", tb, NULL));
  OK(ge_node_set_attr_graph(g, h, "else_branch", eb, NULL));
  OK(ge_node_set_output(g, h, 0, GE_DTYPE_FLOAT32, 2, D23, NULL, NULL));
  OK(ge_graph_add_control(g, x, h, NULL));
  in[0] = E(h, 0);
  y = add_op_23(g, "Relu", "y", 1, in);
  in[0] = E(y, 0);
  OK(ge_graph_set_outputs(g, 1, in, NULL, NULL));
  GE_CHECK(valid(g));
  rand_inputs(9, inputs, 1);
  GE_REQUIRE(run(g, inputs, 1, &before) == 1);
  OK(ge_partition_split_variables(g, &err));
  GE_CHECK(valid(g));
  {
    ge_node *hh = ge_graph_node(g, ge_graph_find(g, "if"));
    const ge_graph *t2 = ge_node_attr(hh, "then_branch")->v.g, *e2 = ge_node_attr(hh, "else_branch")->v.g;
    ge_node_id wv = ge_graph_find((ge_graph *)t2, "w");
    GE_REQUIRE(hh != NULL);
    GE_CHECK_EQ_INT(hh->num_inputs, 2); /* the variable's input is dropped */
    GE_CHECK_EQ_INT(hh->num_control_inputs, 1);
    GE_CHECK(wv != GE_NONE && !strcmp(ge_graph_node(t2, wv)->op, "Variable"));
    GE_CHECK_EQ_INT(ge_node_attr_int(ge_graph_node(t2, ge_graph_find((ge_graph *)t2, "tx")), "parent_index", -1), 1);
    GE_CHECK_EQ_INT(ge_node_attr_int(ge_graph_node(e2, ge_graph_find((ge_graph *)e2, "ex")), "parent_index", -1), 1);
    GE_CHECK(ge_graph_node(g, v) != NULL && ge_graph_node(g, v)->num_uses == 0); /* the root Variable stays */
  }
  GE_CHECK(run(g, inputs, 1, &after) == 1 && same(&before, &after));
  OK(ge_partition_split_variables(g, &err)); /* again: nothing to do */
  GE_CHECK(valid(g));
  ge_graph_free(g);
  GE_CHECK_EQ_INT(ge_partition_split_variables(NULL, &err), GE_ERR_INVALID);
}

GE_TEST(test_variables_call_while_clash) {
  ge_graph *g = tu_new_graph("g"), *f = tu_new_graph("f"), *cg = tu_new_graph("cond"), *bg = tu_new_graph("body");
  ge_node_id x, v, call, wh, d0, d1, d2, s, c, bd, cd, stop;
  ge_edge in[3];
  ge_error err;
  tu_rng r;
  float inputs[1][6];
  outs before, after;
  tu_seed(&r, 6);
  x = add_data_23(g, "x");
  v = add_variable(g, "v", &r);
  /* call(x, v, v): f's Data index 0, 1, 2; the variable feeds two inputs */
  TU_OK(ge_graph_add_data(f, "fx", GE_DTYPE_FLOAT32, 2, D23, &d0, NULL));
  TU_OK(ge_graph_add_data(f, "fv1", GE_DTYPE_FLOAT32, 2, D23, &d1, NULL));
  TU_OK(ge_graph_add_data(f, "fv2", GE_DTYPE_FLOAT32, 2, D23, &d2, NULL));
  in[0] = E(d0, 0), in[1] = E(d1, 0);
  s = add_op_23(f, "Mul", "f_mul", 2, in);
  in[0] = E(s, 0), in[1] = E(d2, 0);
  s = add_op_23(f, "Add", "f_add", 2, in);
  in[0] = E(s, 0);
  OK(ge_graph_set_outputs(f, 1, in, NULL, NULL));
  in[0] = E(x, 0), in[1] = E(v, 0), in[2] = E(v, 0);
  TU_OK(ge_graph_add_node(g, "PartitionedCall", "call", 3, in, 1, &call, NULL));
  OK(ge_node_set_attr_graph(g, call, "f", f, NULL));
  OK(ge_node_set_output(g, call, 0, GE_DTYPE_FLOAT32, 2, D23, NULL, NULL));
  /* While(v) with a cond false at once */
  TU_OK(ge_graph_add_data(cg, "cv", GE_DTYPE_FLOAT32, 2, D23, &cd, NULL));
  stop = add_scalar_const(cg, "stop", GE_DTYPE_BOOL, 0);
  in[0] = E(stop, 0);
  OK(ge_graph_set_outputs(cg, 1, in, NULL, NULL));
  TU_OK(ge_graph_add_data(bg, "bv", GE_DTYPE_FLOAT32, 2, D23, &bd, NULL));
  in[0] = E(bd, 0);
  c = add_op_23(bg, "Neg", "b_neg", 1, in);
  in[0] = E(c, 0);
  OK(ge_graph_set_outputs(bg, 1, in, NULL, NULL));
  in[0] = E(v, 0);
  TU_OK(ge_graph_add_node(g, "While", "loop", 1, in, 1, &wh, NULL));
  OK(ge_node_set_attr_graph(g, wh, "cond", cg, NULL));
  OK(ge_node_set_attr_graph(g, wh, "body", bg, NULL));
  OK(ge_node_set_output(g, wh, 0, GE_DTYPE_FLOAT32, 2, D23, NULL, NULL));
  in[0] = E(call, 0), in[1] = E(wh, 0);
  OK(ge_graph_set_outputs(g, 2, in, NULL, NULL));
  GE_CHECK(valid(g));
  rand_inputs(4, inputs, 1);
  GE_REQUIRE(run(g, inputs, 1, &before) == 2);
  OK(ge_partition_split_variables(g, &err));
  GE_CHECK(valid(g));
  {
    ge_node *cn = ge_graph_node(g, ge_graph_find(g, "call")), *wn = ge_graph_node(g, ge_graph_find(g, "loop"));
    const ge_graph *f2 = ge_node_attr(cn, "f")->v.g;
    GE_CHECK_EQ_INT(cn->num_inputs, 1);
    GE_CHECK_EQ_INT(count_op(f2, "Variable"), 1); /* one copy for both inputs */
    GE_CHECK_EQ_INT(count_op(f2, "Data"), 1);
    GE_CHECK_EQ_INT(wn->num_inputs, 1); /* While: no copy, a control edge */
    GE_CHECK(wn->num_control_inputs == 1 && wn->control_inputs[0] == v);
    GE_CHECK_EQ_INT(count_op(ge_node_attr(wn, "body")->v.g, "Variable"), 0);
  }
  GE_CHECK(run(g, inputs, 1, &after) == 2 && same(&before, &after));
  ge_graph_free(g);
  /* a clash: the body already has another node named like the Variable */
  g = tu_new_graph("g"), f = tu_new_graph("f");
  v = add_variable(g, "v", &r);
  TU_OK(ge_graph_add_data(f, "fv", GE_DTYPE_FLOAT32, 2, D23, &d0, NULL));
  in[0] = E(d0, 0);
  s = add_op_23(f, "Relu", "v", 1, in);
  in[0] = E(s, 0);
  OK(ge_graph_set_outputs(f, 1, in, NULL, NULL));
  in[0] = E(v, 0);
  TU_OK(ge_graph_add_node(g, "PartitionedCall", "call", 1, in, 1, &call, NULL));
  OK(ge_node_set_attr_graph(g, call, "f", f, NULL));
  GE_CHECK_EQ_INT(ge_partition_split_variables(g, &err), GE_ERR_INVALID);
  GE_CHECK(strstr(err.message, "'v'") != NULL);
  ge_graph_free(g);
}

GE_TEST(test_variables_random) {
  uint32_t seed, bad_valid = 0, bad_eval = 0, bad_split = 0, bad_copies = 0, failed = 0, runs = 0, copies_total = 0;
  uint32_t kinds[4] = {0, 0, 0, 0};
  for (seed = 1; seed <= 600; seed++) {
    ge_graph *g = rvar_graph(seed, kinds), *orig = NULL;
    float in[1][6];
    outs a, b;
    ge_error err;
    int copies = 0;
    if (!valid(g)) {
      bad_valid++;
      ge_graph_free(g);
      continue;
    }
    TU_OK(ge_graph_clone(g, NULL, &orig, NULL));
    rand_inputs(seed, in, 1);
    if (run(orig, in, 1, &a) < 0) {
      printf("    seed %u: the original does not run\n", seed);
      bad_eval++;
      goto next;
    }
    if (ge_partition_split_variables(g, &err) != GE_OK) {
      if (!failed++) printf("    seed %u: %s\n", seed, err.message);
      goto next;
    }
    runs++;
    if (!valid(g)) bad_valid++;
    if (!variables_split(g)) bad_split++;
    if (!copies_match(g, g, &copies)) bad_copies++;
    copies_total += (uint32_t)copies;
    if (run(g, in, 1, &b) < 0 || !same(&a, &b)) {
      if (!bad_eval) printf("    seed %u: outputs differ\n", seed);
      bad_eval++;
    }
  next:
    ge_graph_free(g);
    ge_graph_free(orig);
  }
  GE_CHECK_EQ_INT(failed, 0);
  GE_CHECK_EQ_INT(bad_valid, 0);
  GE_CHECK_EQ_INT(bad_split, 0);
  GE_CHECK_EQ_INT(bad_copies, 0);
  GE_CHECK_EQ_INT(bad_eval, 0);
  GE_CHECK(copies_total > 500);
  GE_CHECK(kinds[0] && kinds[1] && kinds[2] && kinds[3]);
  GE_CHECK(runs >= 500);
}

/* ============================================ JIT binary partitioning */

/* A random upward-closed set: a compute node joins (with probability 1/2)
 * only when every non-Data, non-Const producer did; Consts join at random. */
static uint32_t pick_inferred(const ge_graph *g, const ge_node_id *ids, uint32_t n_nodes, uint32_t n_const, tu_rng *r,
                              ge_node_id *out, uint8_t *in_set, uint32_t percent) {
  uint32_t i, k, m = 0;
  ge_node *x;
  GE_GRAPH_FOREACH(g, x)
  if (!strcmp(x->op, "Const") && n_const && !tu_below(r, 3)) {
    out[m++] = x->id;
    in_set[x->id] = 1;
  }
  for (i = 0; i < n_nodes; i++) {
    const ge_node *y = ge_graph_node(g, ids[i]);
    int ok = tu_below(r, 100) < percent;
    if (in_set[y->id]) continue; /* from an earlier call */
    for (k = 0; k < y->num_inputs && ok; k++) {
      const ge_node *p = ge_graph_node(g, y->inputs[k].node);
      if (strcmp(p->op, "Data") && strcmp(p->op, "Const") && !in_set[p->id]) ok = 0;
    }
    for (k = 0; k < y->num_control_inputs && ok; k++)
      if (!in_set[y->control_inputs[k]]) ok = 0;
    if (ok) {
      out[m++] = y->id;
      in_set[y->id] = 1;
    }
  }
  return m;
}

GE_TEST(test_binary_units) {
  ge_graph *g = tu_new_graph("g"), *sl = NULL, *rem = NULL;
  ge_node_id x, y, c, a, b, d, e, set[6];
  ge_edge in[2], o[4];
  ge_partition_binary_io io;
  ge_error err;
  tu_rng r;
  tu_seed(&r, 1);
  /* x -> a -> b(+c) -> out0;  y -> d(a) -> out1;  x -> out2;  c -> e -> out3 */
  x = add_data_23(g, "x");
  y = add_data_23(g, "y");
  c = add_const_23(g, "c", &r);
  in[0] = E(x, 0);
  a = add_op_23(g, "Relu", "a", 1, in);
  in[0] = E(a, 0), in[1] = E(c, 0);
  b = add_op_23(g, "Add", "b", 2, in);
  in[0] = E(y, 0), in[1] = E(a, 0);
  d = add_op_23(g, "Mul", "d", 2, in);
  in[0] = E(c, 0);
  e = add_op_23(g, "Neg", "e", 1, in);
  o[0] = E(b, 0), o[1] = E(d, 0), o[2] = E(x, 0), o[3] = E(e, 0);
  OK(ge_graph_set_outputs(g, 4, o, NULL, NULL));
  /* slice {a, b, x (ignored), a (duplicate)}: c joins it */
  set[0] = a, set[1] = b, set[2] = x, set[3] = a;
  OK(ge_partition_binary(g, set, 4, &sl, &rem, &io, &err));
  GE_REQUIRE(sl && rem);
  GE_CHECK(valid(sl) && valid(rem));
  GE_CHECK(ge_graph_find(sl, "c") != GE_NONE && ge_graph_find(rem, "c") == GE_NONE);
  GE_CHECK(ge_graph_find(sl, "x") != GE_NONE); /* the input keeps its name */
  GE_CHECK_EQ_INT(io.num_slice_inputs, 1);
  GE_CHECK_EQ_INT(io.slice_inputs[0], 0);
  GE_CHECK_EQ_INT(io.num_outputs, 4);
  GE_CHECK_EQ_INT(io.outputs[0].from, GE_BINARY_FROM_SLICE);
  GE_CHECK_EQ_INT(io.outputs[1].from, GE_BINARY_FROM_REMAINING);
  GE_CHECK(io.outputs[2].from == GE_BINARY_FROM_INPUT && io.outputs[2].index == 0);
  GE_CHECK_EQ_INT(io.outputs[3].from, GE_BINARY_FROM_REMAINING);
  GE_CHECK_EQ_INT(io.num_remaining_inputs, 3); /* y, a's output, c's output */
  {
    uint32_t i, from_slice = 0, from_input = 0;
    for (i = 0; i < io.num_remaining_inputs; i++) {
      from_slice += io.remaining_inputs[i].from == GE_BINARY_FROM_SLICE;
      from_input += io.remaining_inputs[i].from == GE_BINARY_FROM_INPUT && io.remaining_inputs[i].index == 1;
    }
    GE_CHECK(from_slice == 2 && from_input == 1);
  }
  ge_graph_free(sl), ge_graph_free(rem);
  ge_partition_binary_io_free(&io);
  /* refused: d reads a, which is not inferred */
  set[0] = d;
  GE_CHECK_EQ_INT(ge_partition_binary(g, set, 1, &sl, &rem, &io, &err), GE_ERR_CYCLE);
  GE_CHECK(strstr(err.message, "'d'") && strstr(err.message, "'a'"));
  GE_CHECK(sl == NULL && rem == NULL && io.outputs == NULL);
  /* refused: a control edge from the remainder */
  OK(ge_graph_add_control(g, e, a, NULL));
  set[0] = a;
  GE_CHECK_EQ_INT(ge_partition_binary(g, set, 1, &sl, &rem, &io, &err), GE_ERR_CYCLE);
  GE_CHECK(strstr(err.message, "'a'") && strstr(err.message, "'e'"));
  OK(ge_graph_remove_control(g, e, a, NULL));
  /* bad id, missing pointers */
  set[0] = 999;
  GE_CHECK_EQ_INT(ge_partition_binary(g, set, 1, &sl, &rem, &io, &err), GE_ERR_INVALID);
  GE_CHECK(strstr(err.message, "999") != NULL);
  GE_CHECK_EQ_INT(ge_partition_binary(g, set, 1, NULL, &rem, &io, &err), GE_ERR_INVALID);
  /* empty slice: everything remains */
  OK(ge_partition_binary(g, NULL, 0, &sl, &rem, &io, &err));
  GE_CHECK(valid(sl) && valid(rem));
  GE_CHECK_EQ_INT(ge_graph_node_count(sl), 0);
  ge_graph_free(sl), ge_graph_free(rem);
  ge_partition_binary_io_free(&io);
  ge_partition_binary_io_free(NULL);
  /* the order refuses another graph */
  {
    ge_jit_order order;
    ge_graph *other = tu_new_graph("other");
    ge_jit_order_init(&order);
    set[0] = a;
    OK(ge_jit_order_add_slice(&order, g, set, 1, &err));
    GE_CHECK_EQ_INT(ge_jit_order_add_slice(&order, other, NULL, 0, &err), GE_ERR_INVALID);
    set[0] = d; /* b depends on nothing left, d reads the slice's a: fine now */
    OK(ge_jit_order_add_slice(&order, g, set, 1, &err));
    set[0] = 12345;
    GE_CHECK_EQ_INT(ge_jit_order_add_slice(&order, g, set, 1, &err), GE_ERR_INVALID);
    GE_CHECK_EQ_INT(order.num_slices, 2);
    GE_CHECK_EQ_INT(order.outputs[2].slice, GE_JIT_FROM_INPUT);
    GE_CHECK_EQ_INT(order.outputs[1].slice, 1);
    ge_jit_order_free(&order);
    ge_jit_order_free(NULL);
    ge_graph_free(other);
  }
  ge_graph_free(g);
}

/* Runs a binary split: the slice on its inputs, the remaining graph on the
 * original inputs and the slice's exports; gathers the original outputs. */
static int run_binary(ge_graph *sl, ge_graph *rem, const ge_partition_binary_io *io, float (*in)[6], outs *res) {
  static float sin[64][6], rin[64][6];
  outs so, ro;
  uint32_t i;
  if (io->num_slice_inputs > 64 || io->num_remaining_inputs > 64) return -1;
  for (i = 0; i < io->num_slice_inputs; i++) memcpy(sin[i], in[io->slice_inputs[i]], sizeof sin[i]);
  if (run(sl, sin, io->num_slice_inputs, &so) < 0) return -1;
  for (i = 0; i < io->num_remaining_inputs; i++) {
    const ge_partition_binary_ref *r = &io->remaining_inputs[i];
    memcpy(rin[i], r->from == GE_BINARY_FROM_SLICE ? so.v[r->index] : in[r->index], sizeof rin[i]);
  }
  if (run(rem, rin, io->num_remaining_inputs, &ro) < 0) return -1;
  res->n = (int)io->num_outputs;
  for (i = 0; i < io->num_outputs; i++) {
    const ge_partition_binary_ref *r = &io->outputs[i];
    const float *src = r->from == GE_BINARY_FROM_SLICE ? so.v[r->index]
                       : r->from == GE_BINARY_FROM_REMAINING ? ro.v[r->index]
                       : r->from == GE_BINARY_FROM_INPUT ? in[r->index] : NULL;
    if (!src) return -1;
    memcpy(res->v[i], src, sizeof res->v[i]);
  }
  return res->n;
}

GE_TEST(test_binary_random) {
  uint32_t seed, bad_valid = 0, bad_eval = 0, bad_once = 0, failed = 0, runs = 0, refused_ok = 0;
  for (seed = 1; seed <= 600; seed++) {
    tu_rng r;
    uint32_t n_nodes = 2 + seed % 50, n_data = 1 + seed % 3, n_const = seed % 3, m;
    ge_node_id ids[64], set[80];
    ge_graph *g = rdag(seed * 13, n_nodes, n_data, n_const, ids), *sl = NULL, *rem = NULL;
    uint8_t *in_set = (uint8_t *)calloc(ge_graph_id_bound(g) + 1, 1);
    ge_partition_binary_io io;
    float in[4][6];
    outs a, b;
    ge_error err;
    tu_seed(&r, seed + 3000);
    m = pick_inferred(g, ids, n_nodes, n_const, &r, set, in_set, 20 + tu_below(&r, 70));
    rand_inputs(seed, in, n_data);
    if (run(g, in, n_data, &a) < 0) {
      bad_eval++;
      goto next;
    }
    if (ge_partition_binary(g, set, m, &sl, &rem, &io, &err) != GE_OK) {
      if (!failed++) printf("    seed %u: %s\n", seed, err.message);
      goto next;
    }
    runs++;
    if (!valid(sl) || !valid(rem)) bad_valid++;
    {
      ge_graph *parts[2];
      parts[0] = sl, parts[1] = rem;
      if (!each_once(g, parts, 2)) bad_once++;
    }
    if (run_binary(sl, rem, &io, in, &b) < 0 || !same(&a, &b)) bad_eval++;
    ge_graph_free(sl), ge_graph_free(rem);
    ge_partition_binary_io_free(&io);
    /* a node whose producer is left out is refused */
    {
      uint32_t i, k;
      for (i = 0; i < n_nodes; i++) {
        const ge_node *y = ge_graph_node(g, ids[i]);
        for (k = 0; k < y->num_inputs; k++) {
          const ge_node *p = ge_graph_node(g, y->inputs[k].node);
          if (strcmp(p->op, "Data") && strcmp(p->op, "Const") && !in_set[p->id]) break;
        }
        if (k < y->num_inputs && !in_set[y->id]) break;
      }
      if (i < n_nodes) {
        set[m] = ids[i];
        if (ge_partition_binary(g, set, m + 1, &sl, &rem, &io, &err) == GE_ERR_CYCLE && !sl && !rem &&
            strstr(err.message, ge_graph_node(g, ids[i])->name))
          refused_ok++;
        else
          bad_eval++;
      } else
        refused_ok++;
    }
  next:
    free(in_set);
    ge_graph_free(g);
  }
  GE_CHECK_EQ_INT(failed, 0);
  GE_CHECK_EQ_INT(bad_valid, 0);
  GE_CHECK_EQ_INT(bad_once, 0);
  GE_CHECK_EQ_INT(bad_eval, 0);
  GE_CHECK_EQ_INT(refused_ok, runs);
  GE_CHECK(runs >= 500);
}

/* Runs an execution order: every slice in turn, then the remaining graph. */
static int run_order(const ge_jit_order *o, float (*in)[6], outs *res) {
  outs *so = (outs *)malloc(sizeof(outs) * (o->num_slices + 1)), ro;
  static float buf[64][6];
  uint32_t s, i;
  int ok = -1;
#define SRC(src) ((src).slice >= 0 ? so[(src).slice].v[(src).index] : (src).slice == GE_JIT_FROM_INPUT ? in[(src).index] : NULL)
  for (s = 0; s < o->num_slices; s++) {
    const ge_jit_slice *sl = &o->slices[s];
    if (sl->num_inputs > 64) goto done;
    for (i = 0; i < sl->num_inputs; i++) {
      const float *p = SRC(sl->inputs[i]);
      if (!p || (sl->inputs[i].slice >= 0 && (uint32_t)sl->inputs[i].slice >= s)) goto done;
      memcpy(buf[i], p, sizeof buf[i]);
    }
    if (run(sl->graph, buf, sl->num_inputs, &so[s]) < 0) goto done;
  }
  if (o->num_remaining_inputs > 64) goto done;
  for (i = 0; i < o->num_remaining_inputs; i++) {
    const float *p = SRC(o->remaining_inputs[i]);
    if (!p) goto done;
    memcpy(buf[i], p, sizeof buf[i]);
  }
  if (run(o->remaining, buf, o->num_remaining_inputs, &ro) < 0) goto done;
  res->n = (int)o->num_outputs;
  for (i = 0; i < o->num_outputs; i++) {
    const float *p = o->outputs[i].slice == GE_JIT_FROM_REMAINING ? ro.v[o->outputs[i].index] : SRC(o->outputs[i]);
    if (!p) goto done;
    memcpy(res->v[i], p, sizeof res->v[i]);
  }
  ok = res->n;
#undef SRC
done:
  free(so);
  return ok;
}

GE_TEST(test_jit_order_random) {
  uint32_t seed, bad_valid = 0, bad_eval = 0, bad_once = 0, failed = 0, runs = 0, slices = 0;
  for (seed = 1; seed <= 500; seed++) {
    tu_rng r;
    uint32_t n_nodes = 2 + seed % 40, n_data = 1 + seed % 3, n_const = seed % 3, m = 0, step, steps, i;
    ge_node_id ids[64], set[128];
    ge_graph *g = rdag(seed * 17 + 5, n_nodes, n_data, n_const, ids);
    uint8_t *in_set = (uint8_t *)calloc(ge_graph_id_bound(g) + 1, 1);
    ge_jit_order order;
    float in[4][6];
    outs a, b;
    ge_error err;
    int ok = 1;
    tu_seed(&r, seed + 4000);
    ge_jit_order_init(&order);
    rand_inputs(seed, in, n_data);
    if (run(g, in, n_data, &a) < 0) {
      bad_eval++;
      goto next;
    }
    steps = 1 + tu_below(&r, 4);
    for (step = 0; step < steps && ok; step++) {
      /* cumulative sets (every call passes all inferred so far) or only the new nodes */
      uint32_t before = m, added = pick_inferred(g, ids, n_nodes, step ? 0 : n_const, &r, set + m, in_set, 30);
      m += added;
      if (tu_below(&r, 2)) ok = ge_jit_order_add_slice(&order, g, set, m, &err) == GE_OK;
      else ok = ge_jit_order_add_slice(&order, g, set + before, added, &err) == GE_OK;
      if (!ok && !failed++) printf("    seed %u step %u: %s\n", seed, step, err.message);
    }
    if (!ok) goto next;
    runs++;
    slices += order.num_slices;
    {
      ge_graph *parts[8];
      for (i = 0; i < order.num_slices; i++) {
        parts[i] = order.slices[i].graph;
        if (!valid(parts[i])) bad_valid++;
      }
      parts[i] = order.remaining;
      if (!valid(order.remaining)) bad_valid++;
      if (!each_once(g, parts, order.num_slices + 1)) bad_once++;
    }
    if (run_order(&order, in, &b) < 0 || !same(&a, &b)) bad_eval++;
  next:
    ge_jit_order_free(&order);
    free(in_set);
    ge_graph_free(g);
  }
  GE_CHECK_EQ_INT(failed, 0);
  GE_CHECK_EQ_INT(bad_valid, 0);
  GE_CHECK_EQ_INT(bad_once, 0);
  GE_CHECK_EQ_INT(bad_eval, 0);
  GE_CHECK(runs >= 500 && slices > runs);
}

/* A larger graph: each pass stays fast (near-linear work per call). */
GE_TEST(test_passes_large) {
  uint32_t n = 20000, i;
  ge_node_id *ids = (ge_node_id *)malloc(sizeof(ge_node_id) * n), *set;
  ge_graph *g = rdag(77, n, 2, 2, ids), *sl = NULL, *rem = NULL;
  uint8_t *in_set;
  ge_partition_binary_io io;
  ge_error err;
  tu_rng r;
  uint32_t m;
  for (i = 0; i < n; i++) OK(ge_node_set_attr_int(g, ids[i], "_stage_level", (int64_t)(i * 4 / n), NULL));
  OK(ge_partition_stages(g, &err));
  GE_CHECK(valid(g));
  GE_CHECK_EQ_INT(count_op(g, "PartitionedCall"), 4);
  ge_graph_free(g);
  g = rdag(78, n, 2, 2, ids);
  for (i = 0; i < n; i++) set_scope(g, ids[i], (int)(i * 3 / n));
  OK(ge_partition_scopes(g, &err));
  GE_CHECK(valid(g));
  ge_graph_free(g);
  g = rdag(79, n, 2, 2, ids);
  in_set = (uint8_t *)calloc(ge_graph_id_bound(g) + 1, 1);
  set = (ge_node_id *)malloc(sizeof(ge_node_id) * (n + 4));
  tu_seed(&r, 79);
  m = pick_inferred(g, ids, n, 2, &r, set, in_set, 95);
  OK(ge_partition_binary(g, set, m, &sl, &rem, &io, &err));
  GE_CHECK(valid(sl) && valid(rem));
  ge_graph_free(sl), ge_graph_free(rem);
  ge_partition_binary_io_free(&io);
  free(in_set);
  free(set);
  free(ids);
  ge_graph_free(g);
}

int main(int argc, char **argv) {
  ge_test_init(argc, argv);
  GE_RUN(test_stages_none);
  GE_RUN(test_stages_rule);
  GE_RUN(test_stages_errors);
  GE_RUN(test_stages_random);
  GE_RUN(test_scopes_units);
  GE_RUN(test_scopes_interaction);
  GE_RUN(test_scopes_random);
  GE_RUN(test_variables_units);
  GE_RUN(test_variables_call_while_clash);
  GE_RUN(test_variables_random);
  GE_RUN(test_binary_units);
  GE_RUN(test_binary_random);
  GE_RUN(test_jit_order_random);
  GE_RUN(test_passes_large);
  return ge_test_main_end();
}

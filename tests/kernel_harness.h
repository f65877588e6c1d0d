/* kernel_harness.h — runs one kernel on one node without an executor, for
 * kernel unit tests: inputs are ge_values the test fills, outputs are
 * malloc'ed by the harness's alloc_output. */
#ifndef GE_TEST_KERNEL_HARNESS_H
#define GE_TEST_KERNEL_HARNESS_H

#include <stdlib.h>
#include <string.h>

static ge_value *kh_alloc_output(ge_kernel_ctx *c, uint32_t i, ge_dtype dtype, int32_t rank, const int64_t *dims) {
  ge_value *v = c->outputs[i];
  ge_value_set_shape(v, dtype, rank, dims);
  if (v->nbytes > v->capacity || !v->data) {
    free(v->data);
    v->data = calloc(1, v->nbytes ? v->nbytes : 1);
    v->capacity = v->data ? v->nbytes : 0;
  }
  if (!v->data) ge_kernel_error(c, GE_ERR_NOMEM, "out of memory");
  return v->data ? v : NULL;
}

/* A value of dtype and shape holding a copy of data (nbytes from the shape). */
static GE_TEST__UNUSED ge_value kh_value(ge_dtype dtype, int32_t rank, const int64_t *dims, const void *data) {
  ge_value v;
  memset(&v, 0, sizeof v);
  ge_value_set_shape(&v, dtype, rank, dims);
  v.data = calloc(1, v.nbytes ? v.nbytes : 1);
  v.capacity = v.nbytes;
  if (data && v.nbytes) memcpy(v.data, data, v.nbytes);
  return v;
}

static GE_TEST__UNUSED void kh_free(ge_value *v) {
  free(v->data);
  memset(v, 0, sizeof *v);
}

/* fn's prepare call on c: inputs without bytes but Const ones. */
static GE_TEST__UNUSED ge_status kh_prepare(ge_kernel_fn fn, ge_kernel_ctx *c) {
  ge_value shaped[16], *ins[16], **saved = c->inputs;
  ge_status st;
  uint32_t i;
  if (c->num_inputs > 16) return GE_ERR_INVALID;
  for (i = 0; i < c->num_inputs; i++) {
    const ge_node *o = c->inputs[i] ? ge_graph_input_origin(c->graph, c->node, i, NULL) : NULL;
    ins[i] = c->inputs[i];
    if (!c->inputs[i] || (o && !strcmp(o->op, "Const"))) continue;
    shaped[i] = *c->inputs[i];
    shaped[i].data = NULL;
    ins[i] = &shaped[i];
  }
  c->inputs = ins;
  c->flags |= GE_KERNEL_PREPARE;
  st = fn(c);
  c->flags &= ~GE_KERNEL_PREPARE;
  c->inputs = saved;
  return st;
}

/* Runs kernel fn for node id of g with inputs (NULL entries absent);
 * outputs[i] receive malloc'ed values (free with kh_free). parallel_for
 * and num_threads: the intra-op threads offered (NULL, 1: none). With
 * `fixed`, the kernel runs twice on one context flagged
 * GE_KERNEL_FIXED_SHAPES (as an executor's static task): the first run
 * into the outputs given (planned by an earlier run), the second, after
 * they are poisoned (0xff bytes: NaN floats), on whatever memo it left.
 * With a prepare function `prep`, an executor's load comes first: prep
 * is called with GE_KERNEL_PREPARE on the same context (kh_prepare). */
static GE_TEST__UNUSED ge_status kh_run_prep(ge_kernel_fn fn, ge_kernel_fn prep, const ge_graph *g, ge_node_id id,
                                             ge_value **inputs, uint32_t n_in, ge_value *outputs, uint32_t n_out,
                                             void (*parallel_for)(ge_kernel_env *, int64_t, int64_t, ge_parallel_fn,
                                                                  void *),
                                             int num_threads, int fixed, ge_error *err) {
  ge_kernel_env env;
  ge_kernel_ctx c;
  ge_value *outs[16];
  ge_status st;
  uint32_t i;
  memset(&env, 0, sizeof env);
  env.alloc_output = kh_alloc_output;
  env.num_threads = num_threads;
  env.parallel_for = parallel_for;
  memset(&c, 0, sizeof c);
  for (i = 0; i < n_out && i < 16; i++) outs[i] = &outputs[i];
  c.inputs = inputs;
  c.outputs = outs;
  c.num_inputs = n_in;
  c.num_outputs = n_out;
  c.node = ge_graph_node(g, id);
  c.graph = g;
  c.env = &env;
  c.err = err;
  c.flags = fixed ? GE_KERNEL_FIXED_SHAPES : 0;
  st = prep ? kh_prepare(prep, &c) : GE_OK;
  if (st == GE_OK) st = fn(&c);
  if (fixed && st == GE_OK) {
    for (i = 0; i < n_out && i < 16; i++)
      if (outputs[i].data) memset(outputs[i].data, 0xff, outputs[i].nbytes);
    st = fn(&c);
  }
  ge_kernel_free_state(&c); /* as the executor frees it */
  return st;
}

/* kh_run_prep with no prepare, or (fixed KH_PREPARED) fn as its own. */
#define KH_PREPARED 2
static GE_TEST__UNUSED ge_status kh_run_fixed(ge_kernel_fn fn, const ge_graph *g, ge_node_id id, ge_value **inputs,
                                              uint32_t n_in, ge_value *outputs, uint32_t n_out,
                                              void (*parallel_for)(ge_kernel_env *, int64_t, int64_t, ge_parallel_fn,
                                                                   void *),
                                              int num_threads, int fixed, ge_error *err) {
  return kh_run_prep(fn, fixed == KH_PREPARED ? fn : NULL, g, id, inputs, n_in, outputs, n_out, parallel_for,
                     num_threads, fixed, err);
}

/* kh_run_fixed without `fixed`. */
static GE_TEST__UNUSED ge_status kh_run_threads(ge_kernel_fn fn, const ge_graph *g, ge_node_id id, ge_value **inputs,
                                                uint32_t n_in, ge_value *outputs, uint32_t n_out,
                                                void (*parallel_for)(ge_kernel_env *, int64_t, int64_t, ge_parallel_fn,
                                                                     void *),
                                                int num_threads, ge_error *err) {
  return kh_run_fixed(fn, g, id, inputs, n_in, outputs, n_out, parallel_for, num_threads, 0, err);
}

static GE_TEST__UNUSED ge_status kh_run(ge_kernel_fn fn, const ge_graph *g, ge_node_id id, ge_value **inputs,
                                        uint32_t n_in, ge_value *outputs, uint32_t n_out, ge_error *err) {
  return kh_run_threads(fn, g, id, inputs, n_in, outputs, n_out, NULL, 1, err);
}

/* A graph holding one node of op type `op` whose inputs are Data nodes
 * shaped like in[] (NULL: absent input); each test runs it its own way. */
typedef struct kt {
  ge_graph *g;
  ge_node_id id;
  ge_error err;
} kt;

static GE_TEST__UNUSED int kt_make(kt *t, const char *op, uint32_t n_in, ge_value **in, int32_t n_out) {
  ge_edge e[16];
  uint32_t i;
  memset(t, 0, sizeof *t);
  if (n_in > 16 || ge_graph_create(NULL, &t->g, &t->err) != GE_OK) return 0;
  for (i = 0; i < n_in; i++) {
    e[i].node = GE_NONE;
    e[i].index = 0;
    if (in[i] && ge_graph_add_data(t->g, NULL, in[i]->dtype, in[i]->rank, in[i]->dims, &e[i].node, &t->err) != GE_OK)
      return 0;
  }
  return ge_graph_add_node(t->g, op, "n", n_in, e, n_out, &t->id, &t->err) == GE_OK;
}

static GE_TEST__UNUSED void kt_free(kt *t) { ge_graph_free(t->g); }

#endif

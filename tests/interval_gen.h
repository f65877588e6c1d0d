/* interval_gen.h — interval sets shaped like a graph walked in node order,
 * for the memory planner's tests and benchmark: node i runs at step i and
 * produces one tensor, live from step i to its last reader's step.
 * Include after ge_mem.h. */
#ifndef GE_TEST_INTERVAL_GEN_H
#define GE_TEST_INTERVAL_GEN_H

#include <string.h>

/* A graph under construction: node i's tensor is iv[i] (room for cap). */
typedef struct tu_gen {
  ge_mem_interval *iv;
  size_t n, cap;
} tu_gen;

/* Adds a node whose tensor has `bytes`; returns its index. */
static int32_t tu_gen_node(tu_gen *g, uint64_t bytes) {
  ge_mem_interval *v = &g->iv[g->n];
  memset(v, 0, sizeof *v);
  v->size = bytes;
  v->first_use = v->last_use = (int32_t)g->n;
  return (int32_t)g->n++;
}

/* The node being added (step g->n) reads node producer's tensor. */
static void tu_gen_use(tu_gen *g, int32_t producer) {
  if (g->iv[producer].last_use < (int32_t)g->n) g->iv[producer].last_use = (int32_t)g->n;
}

#endif /* GE_TEST_INTERVAL_GEN_H */

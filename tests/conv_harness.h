/* conv_harness.h — shared by the AI Core conv tests (test_ai_core_fast,
 * test_conv3d, test_dense_paths, test_two_threads): seeded floats in
 * [-1, 1] and integers from R, the relative error the tests bound, a
 * float32 Const node, and the parallel_for of a threaded context that runs
 * on a ge_runtime pool (env->executor).
 * Include after tests/test.h and tests/rng.h. */
#ifndef GE_TEST_CONV_HARNESS_H
#define GE_TEST_CONV_HARNESS_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

static tu_rng R;

static GE_TEST__UNUSED float rf(void) { return (float)((int)tu_below(&R, 2001) - 1000) / 1000.0f; }

static GE_TEST__UNUSED int64_t rint_in(int64_t lo, int64_t hi) {
  return lo + (int64_t)tu_below(&R, (uint32_t)(hi - lo + 1));
}

/* n floats from rf, malloc'ed (at least one). */
static GE_TEST__UNUSED float *rand_floats(int64_t n) {
  float *p = (float *)malloc((size_t)(n > 0 ? n : 1) * sizeof(float));
  int64_t i;
  for (i = 0; i < n; i++) p[i] = rf();
  return p;
}

/* max |a - b| / (max |b| + 1e-6) over n floats; a NaN in a counts as 1e9. */
static GE_TEST__UNUSED double rel_err(const float *a, const float *b, int64_t n) {
  double m = 0, e = 0;
  int64_t i;
  for (i = 0; i < n; i++) {
    if (fabs(b[i]) > m) m = fabs(b[i]);
    if (a[i] != a[i]) e = 1e9;
    else if (fabs((double)a[i] - b[i]) > e) e = fabs((double)a[i] - b[i]);
  }
  return e / (m + 1e-6);
}

/* A Const node holding a copy of n floats of shape dims. */
static GE_TEST__UNUSED ge_node_id add_const(ge_graph *g, int32_t rank, const int64_t *dims, const float *data,
                                            int64_t n) {
  ge_tensor t;
  ge_node_id id = GE_NONE;
  memset(&t, 0, sizeof t);
  t.dtype = GE_DTYPE_FLOAT32;
  t.rank = rank;
  t.dims = (int64_t *)dims;
  t.data = (void *)data;
  t.nbytes = (size_t)n * sizeof(float);
  ge_graph_add_const(g, NULL, &t, &id, NULL);
  return id;
}

static GE_TEST__UNUSED void rt_parallel_for(ge_kernel_env *env, int64_t n, int64_t grain, ge_parallel_fn fn, void *arg) {
  ge_runtime_parallel_for((ge_runtime *)env->executor, n, grain, fn, arg);
}

#endif

/* Single-op execution: the first call of a signature (compile + load + run)
 * against a call served from the session's cache (run only), µs per call.
 *   build/single_op_bench [REPEAT]
 * First calls: the median over REPEAT fresh sessions; cached calls: the
 * median over REPEAT calls after 10 warm-up calls in one session. */
#define _POSIX_C_SOURCE 200809L
#define GE_IMPLEMENTATION
#include "ge_session.h"
#include "bench/bench_util.h"

#include <stdlib.h>

typedef struct case_ {
  const char *name, *op;
  int32_t rank_a, rank_b;
  int64_t dims_a[4], dims_b[4];
  const ge_attr *attrs;
  uint32_t num_attrs;
} case_;

static ge_value filled(int32_t rank, const int64_t *dims) {
  ge_value v;
  int64_t i;
  memset(&v, 0, sizeof v);
  ge_value_set_shape(&v, GE_DTYPE_FLOAT32, rank, dims);
  v.data = malloc(v.nbytes);
  for (i = 0; i < v.numel; i++) ((float *)v.data)[i] = (float)(i % 17) * 0.125f - 1.0f;
  return v;
}

static double call_us(ge_session *s, const ge_single_op_desc *d, const ge_value *const *in) {
  const ge_value *out[1];
  ge_error err;
  double t0 = bench_now();
  bench_ok(ge_session_run_op(s, d, in, 2, out, &err), &err, d->op);
  return (bench_now() - t0) * 1e6;
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, bench_cmp_double);
  return v[n / 2];
}

int main(int argc, char **argv) {
  int repeat = argc > 1 ? atoi(argv[1]) : 51, r, c;
  int64_t pads[4] = {1, 1, 1, 1};
  ge_attr conv_pads;
  case_ cases[3];
  double *t = (double *)malloc(sizeof(double) * (size_t)(repeat > 0 ? repeat : 1));
  if (repeat < 1 || !t) return 2;
  memset(&conv_pads, 0, sizeof conv_pads);
  conv_pads.name = "pads", conv_pads.type = GE_ATTR_INTS, conv_pads.count = 4, conv_pads.v.ints = pads;
  memset(cases, 0, sizeof cases);
  cases[0] = (case_){"Add [64,64]+[64,64]", "Add", 2, 2, {64, 64}, {64, 64}, NULL, 0};
  cases[1] = (case_){"Conv [1,16,32,32]*[16,16,3,3]", "Conv", 4, 4, {1, 16, 32, 32}, {16, 16, 3, 3}, &conv_pads, 1};
  cases[2] = (case_){"MatMul [64,128]x[128,64]", "MatMul", 2, 2, {64, 128}, {128, 64}, NULL, 0};
  printf("single ops: first call (compile + load + run) vs cached call, µs (median of %d)\n", repeat);
  printf("%-32s %12s %12s %8s\n", "op", "first us", "cached us", "ratio");
  for (c = 0; c < 3; c++) {
    ge_value a = filled(cases[c].rank_a, cases[c].dims_a), b = filled(cases[c].rank_b, cases[c].dims_b);
    const ge_value *in[2] = {&a, &b};
    ge_single_op_desc d;
    ge_session *s;
    ge_error err;
    double first, cached;
    memset(&d, 0, sizeof d);
    d.op = cases[c].op, d.attrs = cases[c].attrs, d.num_attrs = cases[c].num_attrs;
    for (r = 0; r < repeat; r++) {
      bench_ok(ge_session_create(NULL, &s, &err), &err, "session");
      t[r] = call_us(s, &d, in);
      ge_session_free(s);
    }
    first = median(t, repeat);
    bench_ok(ge_session_create(NULL, &s, &err), &err, "session");
    for (r = 0; r < 10; r++) call_us(s, &d, in);
    for (r = 0; r < repeat; r++) t[r] = call_us(s, &d, in);
    cached = median(t, repeat);
    ge_session_free(s);
    printf("%-32s %12.1f %12.1f %7.0fx\n", cases[c].name, first, cached, first / cached);
    free(a.data), free(b.data);
  }
  free(t);
  return 0;
}

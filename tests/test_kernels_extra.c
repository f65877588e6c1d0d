/* Extra kernels of the host CPU engine (ge_engines/host_cpu.h): losses against
 * hand-computed values, one LSTM step against its equations, window
 * functions, quantization rounding, StringNormalizer's string output, the
 * number -> string formatter for Cast, and errors on bad input. The ONNX
 * conformance runner is the main check; these pin the basics. */
#define GE_HOST_CPU_IMPLEMENTATION /* its private ge__hc_*; the rest from libge.a */
#include "ge_engines/host_cpu.h"
#include "tests/test.h"
#include "tests/kernel_harness.h"

#include <stdlib.h>


static ge_status kt_run(kt *t, ge_value **in, uint32_t n_in, ge_value *out, uint32_t n_out) {
  ge_kernel_fn fn = ge_host_cpu_kernel(ge_graph_node(t->g, t->id));
  memset(&t->err, 0, sizeof t->err);
  memset(out, 0, n_out * sizeof *out);
  if (!fn) return GE_ERR_NOT_FOUND;
  return kh_run(fn, t->g, t->id, in, n_in, out, n_out, &t->err);
}

static double sigm(double x) { return 1 / (1 + exp(-x)); }

GE_TEST(test_nll_weight_ignore_index) {
  /* x (N=2, C=3), target [2, 1], weight [0.5, 1, 2], ignore_index 1 */
  float xs[6] = {-1.0f, -2.0f, -3.0f, -0.5f, -1.5f, -2.5f}, ws[3] = {0.5f, 1.0f, 2.0f};
  int64_t ts[2] = {2, 1}, dx[2] = {2, 3}, dt[1] = {2}, dw[1] = {3};
  ge_value x = kh_value(GE_DTYPE_FLOAT32, 2, dx, xs), t = kh_value(GE_DTYPE_INT64, 1, dt, ts);
  ge_value w = kh_value(GE_DTYPE_FLOAT32, 1, dw, ws), out;
  ge_value *in[3];
  kt k;
  in[0] = &x;
  in[1] = &t;
  in[2] = &w;
  GE_REQUIRE(kt_make(&k, "NegativeLogLikelihoodLoss", 3, in, 1));
  GE_REQUIRE(ge_node_set_attr_int(k.g, k.id, "ignore_index", 1, NULL) == GE_OK);
  /* mean: (3 * 2 + 0) / (2 + 0) = 3 */
  GE_CHECK_EQ_INT(kt_run(&k, in, 3, &out, 1), GE_OK);
  GE_CHECK_EQ_INT(out.rank, 0);
  GE_CHECK_NEAR(((float *)out.data)[0], 3.0, 1e-6);
  kh_free(&out);
  GE_REQUIRE(ge_node_set_attr_string(k.g, k.id, "reduction", "none", NULL) == GE_OK);
  GE_CHECK_EQ_INT(kt_run(&k, in, 3, &out, 1), GE_OK);
  GE_CHECK_EQ_INT(out.numel, 2);
  GE_CHECK_NEAR(((float *)out.data)[0], 6.0, 1e-6);
  GE_CHECK_NEAR(((float *)out.data)[1], 0.0, 1e-6);
  kh_free(&out);
  /* a target out of range (and not ignored) is an error, not a crash */
  ((int64_t *)t.data)[0] = 7;
  GE_CHECK_EQ_INT(kt_run(&k, in, 3, &out, 1), GE_ERR_INVALID);
  kh_free(&out);
  ge_graph_free(k.g);
  kh_free(&x);
  kh_free(&t);
  kh_free(&w);
}

GE_TEST(test_sce_sum_and_log_prob) {
  /* two classes, logits [0, ln 3]: softmax [1/4, 3/4] */
  float xs[4] = {0.0f, 1.0986123f, 2.0f, 2.0f};
  int64_t ts[2] = {0, 1}, dx[2] = {2, 2}, dt[1] = {2};
  ge_value x = kh_value(GE_DTYPE_FLOAT32, 2, dx, xs), t = kh_value(GE_DTYPE_INT32, 1, dt, NULL), out[2];
  ge_value *in[2];
  kt k;
  ((int32_t *)t.data)[0] = (int32_t)ts[0];
  ((int32_t *)t.data)[1] = (int32_t)ts[1];
  in[0] = &x;
  in[1] = &t;
  GE_REQUIRE(kt_make(&k, "SoftmaxCrossEntropyLoss", 2, in, 2));
  GE_REQUIRE(ge_node_set_attr_string(k.g, k.id, "reduction", "sum", NULL) == GE_OK);
  GE_CHECK_EQ_INT(kt_run(&k, in, 2, out, 2), GE_OK);
  GE_CHECK_NEAR(((float *)out[0].data)[0], log(4.0) + log(2.0), 1e-5);
  GE_CHECK_EQ_INT(out[1].numel, 4);
  GE_CHECK_NEAR(((float *)out[1].data)[1], log(0.75), 1e-5);
  GE_CHECK_NEAR(((float *)out[1].data)[2], log(0.5), 1e-6);
  kh_free(&out[0]);
  kh_free(&out[1]);
  ge_graph_free(k.g);
  kh_free(&x);
  kh_free(&t);
}

GE_TEST(test_lstm_one_step) {
  /* seq 1, batch 1, input 1, hidden 1; gates i o f c; no bias, zero state */
  float xs[1] = {1.0f}, ws[4] = {0.5f, 0.25f, -0.5f, 1.0f}, rs[4] = {1, 1, 1, 1};
  int64_t dx[3] = {1, 1, 1}, dw[3] = {1, 4, 1};
  ge_value x = kh_value(GE_DTYPE_FLOAT32, 3, dx, xs), w = kh_value(GE_DTYPE_FLOAT32, 3, dw, ws);
  ge_value r = kh_value(GE_DTYPE_FLOAT32, 3, dw, rs), out[3];
  ge_value *in[3];
  double ci, h;
  kt k;
  in[0] = &x;
  in[1] = &w;
  in[2] = &r;
  GE_REQUIRE(kt_make(&k, "LSTM", 3, in, 3));
  GE_REQUIRE(ge_node_set_attr_int(k.g, k.id, "hidden_size", 1, NULL) == GE_OK);
  GE_CHECK_EQ_INT(kt_run(&k, in, 3, out, 3), GE_OK);
  ci = sigm(0.5) * tanh(1.0);
  h = sigm(0.25) * tanh(ci);
  GE_CHECK_EQ_INT(out[0].rank, 4);
  GE_CHECK_NEAR(((float *)out[0].data)[0], h, 1e-6);
  GE_CHECK_NEAR(((float *)out[1].data)[0], h, 1e-6);
  GE_CHECK_NEAR(((float *)out[2].data)[0], ci, 1e-6);
  kh_free(&out[0]);
  kh_free(&out[1]);
  kh_free(&out[2]);
  /* W of the wrong shape is an error */
  w.dims[1] = 3;
  GE_CHECK_EQ_INT(kt_run(&k, in, 3, out, 3), GE_ERR_SHAPE);
  kh_free(&out[0]);
  ge_graph_free(k.g);
  kh_free(&x);
  kh_free(&w);
  kh_free(&r);
}

GE_TEST(test_windows_and_quantize) {
  int64_t n = 4, d1[1] = {4};
  ge_value sz = kh_value(GE_DTYPE_INT64, 0, NULL, &n), out;
  float xs[4] = {0.5f, 1.5f, 2.5f, -300.0f}, sc = 1.0f;
  ge_value x = kh_value(GE_DTYPE_FLOAT32, 1, d1, xs), s = kh_value(GE_DTYPE_FLOAT32, 0, NULL, &sc);
  ge_value *in[2];
  kt k;
  in[0] = &sz;
  GE_REQUIRE(kt_make(&k, "HannWindow", 1, in, 1));
  GE_CHECK_EQ_INT(kt_run(&k, in, 1, &out, 1), GE_OK);
  GE_CHECK_NEAR(((float *)out.data)[0], 0.0, 1e-7);
  GE_CHECK_NEAR(((float *)out.data)[1], 0.5, 1e-7);
  GE_CHECK_NEAR(((float *)out.data)[2], 1.0, 1e-7);
  kh_free(&out);
  ge_graph_free(k.g);
  in[0] = &x;
  in[1] = &s;
  GE_REQUIRE(kt_make(&k, "QuantizeLinear", 2, in, 1));
  GE_CHECK_EQ_INT(kt_run(&k, in, 2, &out, 1), GE_OK);
  GE_CHECK_EQ_INT(out.dtype, GE_DTYPE_UINT8);
  /* half to even, saturating */
  GE_CHECK_EQ_INT(((uint8_t *)out.data)[0], 0);
  GE_CHECK_EQ_INT(((uint8_t *)out.data)[1], 2);
  GE_CHECK_EQ_INT(((uint8_t *)out.data)[2], 2);
  GE_CHECK_EQ_INT(((uint8_t *)out.data)[3], 0);
  kh_free(&out);
  ge_graph_free(k.g);
  kh_free(&sz);
  kh_free(&x);
  kh_free(&s);
}

GE_TEST(test_string_normalizer) {
  const char *words[4] = {"Monday", "tuesday", "AND", "x"}, *stop[2] = {"and", "monday"};
  int64_t d[1] = {4};
  ge_value x = kh_value(GE_DTYPE_STRING, 1, d, words), out;
  ge_value *in[1];
  kt k;
  in[0] = &x;
  GE_REQUIRE(kt_make(&k, "StringNormalizer", 1, in, 1));
  GE_REQUIRE(ge_node_set_attr_strings(k.g, k.id, "stopwords", stop, 2, NULL) == GE_OK);
  GE_REQUIRE(ge_node_set_attr_string(k.g, k.id, "case_change_action", "UPPER", NULL) == GE_OK);
  GE_CHECK_EQ_INT(kt_run(&k, in, 1, &out, 1), GE_OK);
  GE_REQUIRE(out.numel == 2);
  GE_CHECK_STR(((char **)out.data)[0], "TUESDAY");
  GE_CHECK_STR(((char **)out.data)[1], "X");
  kh_free(&out);
  ge_graph_free(k.g);
  kh_free(&x);
}

GE_TEST(test_format_number_for_cast) {
  float fs[5] = {0.1f, 1.0f, 1e-5f, 3.4028235e38f, -2.5f};
  int64_t d[1] = {5};
  ge_value x = kh_value(GE_DTYPE_FLOAT32, 1, d, fs);
  char buf[32];
  ge__hc_ex_format_number(&x, 0, buf);
  GE_CHECK_STR(buf, "0.1");
  ge__hc_ex_format_number(&x, 1, buf);
  GE_CHECK_STR(buf, "1");
  ge__hc_ex_format_number(&x, 2, buf);
  GE_CHECK_STR(buf, "1e-05");
  ge__hc_ex_format_number(&x, 4, buf);
  GE_CHECK_STR(buf, "-2.5");
  ((float *)x.data)[0] = (float)(HUGE_VAL - HUGE_VAL);
  ge__hc_ex_format_number(&x, 0, buf);
  GE_CHECK_STR(buf, "NaN");
  kh_free(&x);
}

/* The op table is sorted (ge_host_cpu_kernel bisects it): every listed op
 * finds its kernel, and an op between two listed names finds none. */
GE_TEST(test_op_table_sorted) {
  uint32_t i;
  const char *op;
  kt t;
  for (i = 0; (op = ge_host_cpu_op(i)) != NULL; i++) {
    if (i) GE_CHECK(strcmp(ge_host_cpu_op(i - 1), op) < 0);
    GE_REQUIRE(kt_make(&t, op, 0, NULL, 1));
    GE_CHECK(ge_host_cpu_kernel(ge_graph_node(t.g, t.id)) != NULL);
    kt_free(&t);
  }
  GE_CHECK(i >= 160);
  GE_REQUIRE(kt_make(&t, "Adds", 0, NULL, 1)); /* between Add and And */
  GE_CHECK(ge_host_cpu_kernel(ge_graph_node(t.g, t.id)) == NULL);
  kt_free(&t);
}

int main(int argc, char **argv) {
  ge_test_init(argc, argv);
  GE_RUN(test_nll_weight_ignore_index);
  GE_RUN(test_sce_sum_and_log_prob);
  GE_RUN(test_lstm_one_step);
  GE_RUN(test_windows_and_quantize);
  GE_RUN(test_string_normalizer);
  GE_RUN(test_format_number_for_cast);
  GE_RUN(test_op_table_sorted);
  return ge_test_main_end();
}

/* test_engine_dvpp.c — DNN_VM_DVPP (ge_engines/dvpp.h): the image engine.
 *
 * ImageDecoder decodes PNG and JPEG made here by stb_image_write from
 * seeded random images (PNG bit-exact, JPEG of smooth images above 30 dB
 * PSNR), in RGB, BGR and Grayscale, and fails cleanly on corrupt,
 * truncated and mutated bytes. Resize is checked against the host CPU
 * reference kernel on several hundred seeded random image shapes, scales,
 * sizes, modes and dtypes (uint8 exactly, float32 within 1e-5 relative).
 * ImageCrop and ColorConvert are checked against plain loops written here.
 * Then check_supported (yes and no with reasons) and the shape inference of
 * the new schemas, errors included.
 *
 * Built with -DGE_USE_STB_IMAGE and -lstb (see the Makefile). */
#define GE_DVPP_IMPLEMENTATION /* with stb_image (GE_USE_STB_IMAGE); the rest from libge.a */
#include "ge_engines/host_cpu.h"
#include "ge_engines/dvpp.h"
#include "tests/test.h"
#include "tests/kernel_harness.h"

#include <stb/stb_image_write.h>

/* ------------------------------------------------------------ helpers */

static uint64_t rng_next(uint64_t *s) { /* xorshift64 */
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}
static int64_t rng_int(uint64_t *s, int64_t lo, int64_t hi) { return lo + (int64_t)(rng_next(s) % (uint64_t)(hi - lo + 1)); }
static double rng_unit(uint64_t *s) { return (double)(rng_next(s) >> 11) / 9007199254740992.0; }

/* A one-node graph: node `op` named name with inputs from Data nodes (or
 * absent); the test adds Consts as needed. */
typedef struct tg {
  ge_graph *g;
  ge_node_id id;
  ge_error err;
  char why[256];
} tg;

static int tg_begin(tg *t) {
  memset(t, 0, sizeof *t);
  return ge_graph_create(NULL, &t->g, &t->err) == GE_OK;
}

static ge_edge tg_data(tg *t, const char *name, ge_dtype dt, int32_t rank, const int64_t *dims) {
  ge_edge e = {GE_NONE, 0};
  ge_graph_add_data(t->g, name, dt, rank, dims, &e.node, &t->err);
  return e;
}

static ge_edge tg_const(tg *t, const char *name, ge_dtype dt, int64_t n, const void *data) {
  ge_tensor v;
  ge_edge e = {GE_NONE, 0};
  memset(&v, 0, sizeof v);
  v.dtype = dt;
  v.rank = 1;
  v.dims = &n;
  v.data = (void *)data;
  v.nbytes = (size_t)n * ge_dtype_size(dt);
  ge_graph_add_const(t->g, name, &v, &e.node, &t->err);
  return e;
}

static int tg_node(tg *t, const char *op, uint32_t n_in, const ge_edge *in) {
  return ge_graph_add_node(t->g, op, "node", n_in, in, 1, &t->id, &t->err) == GE_OK;
}

static ge_node *tg_n(tg *t) { return ge_graph_node(t->g, t->id); }
static void tg_free(tg *t) { ge_graph_free(t->g); }

static void set_s(tg *t, const char *k, const char *v) { ge_node_set_attr_string(t->g, t->id, k, v, NULL); }
static void set_i(tg *t, const char *k, int64_t v) { ge_node_set_attr_int(t->g, t->id, k, v, NULL); }
static void set_is(tg *t, const char *k, const int64_t *v, int32_t n) { ge_node_set_attr_ints(t->g, t->id, k, v, n, NULL); }

/* check_supported with a reason, and without (the answers must agree). */
static int supported(tg *t) {
  const ge_engine *e = ge_dvpp_engine();
  int a, b;
  t->why[0] = 0;
  a = e->check_supported(e, t->g, tg_n(t), t->why, sizeof t->why);
  b = e->check_supported(e, t->g, tg_n(t), NULL, 0);
  GE_CHECK_EQ_INT(a, b);
  return a;
}

/* Runs kernel fn on the node with inputs; out receives the output. */
static ge_status run(tg *t, ge_kernel_fn fn, ge_value **in, uint32_t n_in, ge_value *out) {
  kh_free(out);
  out->data = malloc(1);
  out->capacity = 1;
  memset(&t->err, 0, sizeof t->err);
  return kh_run(fn, t->g, t->id, in, n_in, out, 1, &t->err);
}

static ge_kernel_fn dvpp_kernel(tg *t) {
  const ge_engine *e = ge_dvpp_engine();
  return e->kernel(e, tg_n(t));
}

static int same_dims(const ge_value *v, int32_t rank, const int64_t *dims) {
  int32_t i;
  if (v->rank != rank) return 0;
  for (i = 0; i < rank; i++)
    if (v->dims[i] != dims[i]) return 0;
  return 1;
}

/* ------------------------------------------------------ encoded bytes */

typedef struct buf {
  uint8_t *p;
  size_t n, cap;
} buf;

static void buf_write(void *ctx, void *data, int size) {
  buf *b = (buf *)ctx;
  if (b->n + (size_t)size > b->cap) {
    size_t cap = (b->n + (size_t)size) * 2;
    uint8_t *p = (uint8_t *)realloc(b->p, cap);
    if (!p) return;
    b->p = p;
    b->cap = cap;
  }
  memcpy(b->p + b->n, data, (size_t)size);
  b->n += (size_t)size;
}

static buf encode_png(const uint8_t *img, int w, int h, int comp) {
  buf b = {NULL, 0, 0};
  stbi_write_png_to_func(buf_write, &b, w, h, comp, img, w * comp);
  return b;
}

static buf encode_jpg(const uint8_t *img, int w, int h, int comp, int quality) {
  buf b = {NULL, 0, 0};
  stbi_write_jpg_to_func(buf_write, &b, w, h, comp, img, quality);
  return b;
}

/* A seeded random image of h x w x comp, noise or smooth. */
static uint8_t *make_image(uint64_t *s, int w, int h, int comp, int smooth) {
  uint8_t *img = (uint8_t *)malloc((size_t)w * h * comp);
  double fx[4], fy[4], ph[4];
  int x, y, c;
  for (c = 0; c < 4; c++) {
    fx[c] = 0.5 + 2.5 * rng_unit(s);
    fy[c] = 0.5 + 2.5 * rng_unit(s);
    ph[c] = 6.28 * rng_unit(s);
  }
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      for (c = 0; c < comp; c++) {
        uint8_t v;
        if (smooth) {
          double t = 127.5 + 60 * sin(fx[c] * 6.28 * x / w + ph[c]) + 60 * cos(fy[c] * 6.28 * y / h);
          v = (uint8_t)(t < 0 ? 0 : t > 255 ? 255 : t);
        } else
          v = (uint8_t)rng_next(s);
        img[((size_t)y * w + x) * comp + c] = v;
      }
  return img;
}

/* ImageDecoder node on [n] bytes with pixel_format (NULL: default). */
static int decoder_make(tg *t, int64_t n, const char *pf) {
  ge_edge e;
  if (!tg_begin(t)) return 0;
  e = tg_data(t, "bytes", GE_DTYPE_UINT8, 1, &n);
  if (!tg_node(t, "ImageDecoder", 1, &e)) return 0;
  if (pf) set_s(t, "pixel_format", pf);
  return 1;
}

static ge_status decode(const buf *b, const char *pf, ge_value *out, char *msg, size_t cap) {
  tg t;
  int64_t n = (int64_t)b->n;
  ge_value in = kh_value(GE_DTYPE_UINT8, 1, &n, b->p), *ins[1];
  ge_status st = GE_ERR_INTERNAL;
  ins[0] = &in;
  if (decoder_make(&t, n, pf) && dvpp_kernel(&t)) {
    st = run(&t, dvpp_kernel(&t), ins, 1, out);
    if (msg) snprintf(msg, cap, "%s", t.err.message);
  }
  tg_free(&t);
  kh_free(&in);
  return st;
}

static int gray_of(int r, int g, int b) { return (299 * r + 587 * g + 114 * b + 500) / 1000; }

/* ------------------------------------------------------ ImageDecoder */

GE_TEST(test_decode_png_exact) {
  uint64_t s = 0x1234567u;
  int k;
  for (k = 0; k < 24; k++) {
    int w = (int)rng_int(&s, 1, 70), h = (int)rng_int(&s, 1, 50), comp = k % 4 == 0 ? 1 : k % 4 == 1 ? 4 : 3;
    uint8_t *img = make_image(&s, w, h, comp, k & 1);
    buf b = encode_png(img, w, h, comp);
    ge_value out[3];
    int64_t want[3] = {h, w, 3}, p;
    int ok = 1, f;
    memset(out, 0, sizeof out);
    GE_REQUIRE(b.n > 8);
    GE_CHECK_EQ_INT(decode(&b, NULL, &out[0], NULL, 0), GE_OK);
    GE_CHECK_EQ_INT(decode(&b, "BGR", &out[1], NULL, 0), GE_OK);
    GE_CHECK_EQ_INT(decode(&b, "Grayscale", &out[2], NULL, 0), GE_OK);
    for (f = 0; f < 3; f++) {
      want[2] = f == 2 ? 1 : 3;
      GE_CHECK(same_dims(&out[f], 3, want));
      GE_CHECK_EQ_INT(out[f].dtype, GE_DTYPE_UINT8);
    }
    if (same_dims(&out[0], 3, want) && out[1].numel == (int64_t)w * h * 3 && out[2].numel == (int64_t)w * h)
      for (p = 0; p < (int64_t)w * h && ok; p++) {
        const uint8_t *src = img + p * comp, *rgb = (const uint8_t *)out[0].data + 3 * p,
                      *bgr = (const uint8_t *)out[1].data + 3 * p;
        int r = src[0], g = comp >= 3 ? src[1] : src[0], bl = comp >= 3 ? src[2] : src[0];
        int y = ((const uint8_t *)out[2].data)[p];
        ok = rgb[0] == r && rgb[1] == g && rgb[2] == bl && bgr[0] == bl && bgr[1] == g && bgr[2] == r &&
             y == (comp == 1 ? r : gray_of(r, g, bl));
      }
    GE_CHECK(ok);
    for (f = 0; f < 3; f++) kh_free(&out[f]);
    free(img);
    free(b.p);
  }
}

GE_TEST(test_decode_jpeg_psnr) {
  uint64_t s = 0xBADC0FFEEu;
  int k;
  for (k = 0; k < 10; k++) {
    int w = (int)rng_int(&s, 16, 96), h = (int)rng_int(&s, 16, 80), comp = k % 3 == 0 ? 1 : 3;
    uint8_t *img = make_image(&s, w, h, comp, 1);
    buf b = encode_jpg(img, w, h, comp, 95);
    ge_value out;
    int64_t want[3] = {h, w, comp == 1 ? 1 : 3}, i;
    double se = 0, psnr;
    memset(&out, 0, sizeof out);
    GE_REQUIRE(b.n > 100);
    GE_CHECK_EQ_INT(decode(&b, comp == 1 ? "Grayscale" : "RGB", &out, NULL, 0), GE_OK);
    GE_CHECK(same_dims(&out, 3, want));
    if (same_dims(&out, 3, want)) {
      for (i = 0; i < out.numel; i++) {
        double d = (double)((const uint8_t *)out.data)[i] - (double)img[i];
        se += d * d;
      }
      psnr = se == 0 ? 99 : 10 * log10(255.0 * 255.0 / (se / (double)out.numel));
      if (!GE_CHECK(psnr > 30)) printf("    JPEG %dx%dx%d: PSNR %.2f dB\n", w, h, comp, psnr);
    }
    kh_free(&out);
    free(img);
    free(b.p);
  }
}

GE_TEST(test_decode_errors) {
  uint64_t s = 77;
  uint8_t *img = make_image(&s, 40, 30, 3, 1);
  buf png = encode_png(img, 40, 30, 3), jpg = encode_jpg(img, 40, 30, 3, 90), bad;
  uint8_t junk[64];
  char msg[sizeof(ge_error)];
  ge_value out;
  size_t i, idat = 0;
  memset(&out, 0, sizeof out);
  for (i = 0; i < sizeof junk; i++) junk[i] = (uint8_t)rng_next(&s);
  /* random bytes, an empty stream */
  bad.p = junk, bad.n = sizeof junk;
  GE_CHECK_EQ_INT(decode(&bad, NULL, &out, msg, sizeof msg), GE_ERR_FORMAT);
  GE_CHECK(strstr(msg, "not a JPEG or PNG") != NULL);
  GE_CHECK(strstr(msg, "'node'") != NULL);
  bad.n = 0;
  GE_CHECK_EQ_INT(decode(&bad, NULL, &out, msg, sizeof msg), GE_ERR_FORMAT);
  /* truncated PNG and JPEG */
  bad.p = png.p, bad.n = png.n / 2;
  GE_CHECK(decode(&bad, NULL, &out, msg, sizeof msg) != GE_OK);
  GE_CHECK(strstr(msg, "stb_image") != NULL);
  bad.n = 20; /* signature and part of IHDR */
  GE_CHECK(decode(&bad, NULL, &out, msg, sizeof msg) != GE_OK);
  bad.p = jpg.p, bad.n = jpg.n / 2;
  GE_CHECK_EQ_INT(decode(&bad, NULL, &out, msg, sizeof msg), GE_ERR_FORMAT);
  GE_CHECK(strstr(msg, "truncated") != NULL);
  bad.n = jpg.n - 1;
  GE_CHECK_EQ_INT(decode(&bad, NULL, &out, msg, sizeof msg), GE_ERR_FORMAT);
  /* a JPEG header with the right end marker but garbage inside */
  {
    uint8_t fake[32] = {0xFF, 0xD8, 0xFF, 0xE0};
    fake[30] = 0xFF, fake[31] = 0xD9;
    bad.p = fake, bad.n = sizeof fake;
    GE_CHECK_EQ_INT(decode(&bad, NULL, &out, msg, sizeof msg), GE_ERR_FORMAT);
    GE_CHECK(strstr(msg, "stb_image") != NULL);
  }
  /* a PNG whose compressed data is overwritten: deflate block type 3 */
  for (i = 8; i + 8 < png.n; i++)
    if (!memcmp(png.p + i, "IDAT", 4)) {
      idat = i + 4;
      break;
    }
  GE_REQUIRE(idat > 0);
  {
    uint8_t *cp = (uint8_t *)malloc(png.n);
    memcpy(cp, png.p, png.n);
    for (i = idat + 2; i < idat + 40 && i < png.n; i++) cp[i] = 0xFF;
    bad.p = cp, bad.n = png.n;
    GE_CHECK(decode(&bad, NULL, &out, msg, sizeof msg) != GE_OK);
    GE_CHECK(strstr(msg, "stb_image cannot decode") != NULL);
    free(cp);
  }
  /* an image past 8192 wide: the header alone says so */
  {
    uint8_t *cp = (uint8_t *)malloc(png.n);
    memcpy(cp, png.p, png.n);
    cp[16] = 0, cp[17] = 0, cp[18] = 0x30, cp[19] = 0x00; /* IHDR width 12288 */
    bad.p = cp, bad.n = png.n;
    GE_CHECK(decode(&bad, NULL, &out, msg, sizeof msg) != GE_OK);
    free(cp);
  }
  /* wrong input: rank 2 */
  {
    tg t;
    int64_t d2[2] = {2, 3};
    uint8_t z[6] = {0};
    ge_value in = kh_value(GE_DTYPE_UINT8, 2, d2, z), *ins[1] = {&in};
    GE_REQUIRE(decoder_make(&t, 6, NULL));
    GE_CHECK_EQ_INT(run(&t, dvpp_kernel(&t), ins, 1, &out), GE_ERR_INVALID);
    tg_free(&t);
    kh_free(&in);
  }
  kh_free(&out);
  free(img);
  free(png.p);
  free(jpg.p);
}

/* Random mutations of valid streams: decoded or refused, never a crash. */
GE_TEST(test_decode_mutations) {
  uint64_t s = 4242;
  uint8_t *img = make_image(&s, 24, 20, 3, 1);
  buf src[2], m;
  int k, decoded = 0, refused = 0;
  ge_value out;
  memset(&out, 0, sizeof out);
  src[0] = encode_png(img, 24, 20, 3);
  src[1] = encode_jpg(img, 24, 20, 3, 80);
  m.p = (uint8_t *)malloc(src[0].n > src[1].n ? src[0].n : src[1].n);
  for (k = 0; k < 400; k++) {
    const buf *b = &src[k & 1];
    int j, flips = (int)rng_int(&s, 1, 6);
    memcpy(m.p, b->p, b->n);
    m.n = b->n;
    for (j = 0; j < flips; j++) {
      /* keep the signature so that the decoder itself sees the damage */
      size_t at = (size_t)rng_int(&s, 8, (int64_t)b->n - 3);
      m.p[at] = (uint8_t)rng_next(&s);
    }
    if (decode(&m, (k & 2) ? "Grayscale" : "BGR", &out, NULL, 0) == GE_OK) {
      decoded++;
      GE_CHECK(out.rank == 3 && out.dims[0] >= 1 && out.dims[1] >= 1 && out.dims[0] <= 8192);
    } else
      refused++;
  }
  GE_CHECK_EQ_INT(decoded + refused, 400);
  kh_free(&out);
  free(m.p);
  free(src[0].p);
  free(src[1].p);
  free(img);
}

/* ------------------------------------------------------------- Resize */

typedef struct rs_case {
  ge_dtype dt;
  int32_t rank;
  int64_t dims[4];
  int h;                /* first spatial axis */
  const char *mode, *ctm, *nm, *policy;
  int exclude, use_sizes, opset10, with_axes;
  float scales[4];
  int64_t sizes[4];
} rs_case;

static const char *const rs_ctms[] = {"half_pixel",    "pytorch_half_pixel", "align_corners",
                                      "asymmetric",    "half_pixel_symmetric", "tf_half_pixel_for_nn"};
static const char *const rs_nms[] = {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"};

static void rs_random(uint64_t *s, int k, rs_case *c) {
  static const float nice[] = {0.5f, 0.75f, 1.0f, 1.5f, 2.0f, 3.0f, 0.25f, 1.3333333f, 0.6f, 2.5f};
  int layout = (int)rng_int(s, 0, 2), j, n_ax;
  int64_t H = rng_int(s, 1, 24), W = rng_int(s, 1, 24), C = k % 3 == 0 ? 1 : k % 3 == 1 ? 3 : 4, N = rng_int(s, 1, 2);
  memset(c, 0, sizeof *c);
  c->dt = k & 1 ? GE_DTYPE_FLOAT32 : GE_DTYPE_UINT8;
  if (layout == 0) {
    c->rank = 3, c->h = 0, c->dims[0] = H, c->dims[1] = W, c->dims[2] = C;
  } else if (layout == 1) {
    c->rank = 4, c->h = 1, c->dims[0] = N, c->dims[1] = H, c->dims[2] = W, c->dims[3] = C;
  } else {
    c->rank = 4, c->h = 2, c->dims[0] = N, c->dims[1] = C, c->dims[2] = H, c->dims[3] = W;
  }
  c->mode = rng_int(s, 0, 1) ? "linear" : "nearest";
  c->ctm = rs_ctms[rng_int(s, 0, 4)];
  c->nm = rs_nms[rng_int(s, 0, 3)];
  if (!strcmp(c->mode, "nearest") && rng_int(s, 0, 5) == 0) {
    c->ctm = "tf_half_pixel_for_nn";
    c->nm = rng_int(s, 0, 1) ? "floor" : "round_prefer_floor";
  }
  c->exclude = !strcmp(c->mode, "linear") && rng_int(s, 0, 3) == 0;
  c->opset10 = rng_int(s, 0, 9) == 0;
  c->use_sizes = !c->opset10 && rng_int(s, 0, 2) == 0;
  c->with_axes = !c->opset10 && rng_int(s, 0, 2) == 0;
  c->policy = "stretch";
  if (c->use_sizes && c->with_axes && rng_int(s, 0, 2) == 0) c->policy = rng_int(s, 0, 1) ? "not_larger" : "not_smaller";
  n_ax = c->with_axes ? 2 : c->rank;
  for (j = 0; j < n_ax; j++) {
    int ax = c->with_axes ? c->h + j : j, spatial = ax == c->h || ax == c->h + 1;
    float sc = rng_int(s, 0, 2) ? nice[rng_int(s, 0, 9)] : (float)(0.3 + 2.7 * rng_unit(s));
    c->scales[j] = spatial ? sc : 1.0f;
    c->sizes[j] = spatial ? rng_int(s, 1, 40) : c->dims[ax];
  }
}

/* Fills x with random data: noise, or few levels (ties and flat areas). */
static void rs_fill(uint64_t *s, ge_value *x) {
  int64_t i;
  int levels = (int)rng_int(&*s, 0, 2);
  for (i = 0; i < x->numel; i++) {
    double v = levels == 0 ? (double)(rng_next(s) & 255) : levels == 1 ? (double)(100 * rng_int(s, 0, 2)) : 77.0;
    if (x->dtype == GE_DTYPE_UINT8)
      ((uint8_t *)x->data)[i] = (uint8_t)v;
    else
      ((float *)x->data)[i] = levels == 0 ? (float)(rng_unit(s) * 255.0) : (float)v;
  }
}

static int rs_build(tg *t, const rs_case *c) {
  ge_edge in[4] = {{GE_NONE, 0}, {GE_NONE, 0}, {GE_NONE, 0}, {GE_NONE, 0}};
  int64_t n_ax = c->with_axes ? 2 : c->rank, axes[2];
  if (!tg_begin(t)) return 0;
  in[0] = tg_data(t, "x", c->dt, c->rank, c->dims);
  if (c->opset10) {
    in[1] = tg_const(t, "scales", GE_DTYPE_FLOAT32, n_ax, c->scales);
    if (!tg_node(t, "Resize", 2, in)) return 0;
  } else {
    if (c->use_sizes)
      in[3] = tg_const(t, "sizes", GE_DTYPE_INT64, n_ax, c->sizes);
    else
      in[2] = tg_const(t, "scales", GE_DTYPE_FLOAT32, n_ax, c->scales);
    if (!tg_node(t, "Resize", 4, in)) return 0;
    set_s(t, "coordinate_transformation_mode", c->ctm);
    set_s(t, "nearest_mode", c->nm);
    set_s(t, "keep_aspect_ratio_policy", c->policy);
    if (c->exclude) set_i(t, "exclude_outside", 1);
    if (c->with_axes) {
      axes[0] = c->h, axes[1] = c->h + 1;
      set_is(t, "axes", axes, 2);
    }
  }
  set_s(t, "mode", c->mode);
  return 1;
}

static void rs_describe(const rs_case *c, int k) {
  printf("    case %d: %s rank %d [%lld,%lld,%lld,%lld] mode %s ctm %s nm %s policy %s exclude %d %s%s\n", k,
         ge_dtype_name(c->dt), (int)c->rank, (long long)c->dims[0], (long long)c->dims[1], (long long)c->dims[2],
         (long long)c->dims[3], c->mode, c->opset10 ? "(opset 10)" : c->ctm, c->nm, c->policy, c->exclude,
         c->use_sizes ? "sizes" : "scales", c->with_axes ? " axes" : "");
}

GE_TEST(test_resize_vs_reference) {
  uint64_t s = 0xD00D;
  int k, exact = 0, cases = 0, mism = 0;
  for (k = 0; k < 420; k++) {
    rs_case c;
    tg t;
    ge_value x, sc, sz, out_d, out_r, *ins[4];
    int64_t n_ax, i;
    ge_status st_d, st_r;
    const ge_node *nd;
    rs_random(&s, k, &c);
    n_ax = c.with_axes ? 2 : c.rank;
    GE_REQUIRE(rs_build(&t, &c));
    GE_CHECK_EQ_INT(ge_graph_infer_shapes(t.g, &t.err), GE_OK);
    if (!GE_CHECK(supported(&t))) {
      printf("    refused: %s\n", t.why);
      rs_describe(&c, k);
      tg_free(&t);
      continue;
    }
    x = kh_value(c.dt, c.rank, c.dims, NULL);
    rs_fill(&s, &x);
    sc = kh_value(GE_DTYPE_FLOAT32, 1, &n_ax, c.scales);
    sz = kh_value(GE_DTYPE_INT64, 1, &n_ax, c.sizes);
    ins[0] = &x;
    ins[1] = c.opset10 ? &sc : NULL;
    ins[2] = c.opset10 || c.use_sizes ? NULL : &sc;
    ins[3] = c.use_sizes ? &sz : NULL;
    memset(&out_d, 0, sizeof out_d);
    memset(&out_r, 0, sizeof out_r);
    nd = tg_n(&t);
    st_d = run(&t, dvpp_kernel(&t), ins, c.opset10 ? 2 : 4, &out_d);
    if (st_d) printf("    dvpp: %s\n", t.err.message);
    st_r = run(&t, ge_host_cpu_kernel(nd), ins, c.opset10 ? 2 : 4, &out_r);
    GE_CHECK_EQ_INT(st_d, GE_OK);
    GE_CHECK_EQ_INT(st_r, GE_OK);
    cases++;
    if (!st_d && !st_r) {
      int ok = same_dims(&out_d, out_r.rank, out_r.dims) && out_d.dtype == c.dt;
      /* shape inference agrees with the kernel */
      if (ge_shape_is_static(&nd->outputs[0].shape)) {
        GE_CHECK(same_dims(&out_d, nd->outputs[0].shape.rank, nd->outputs[0].shape.dims));
      }
      for (i = 0; ok && i < out_r.numel; i++) {
        if (c.dt == GE_DTYPE_UINT8)
          ok = ((uint8_t *)out_d.data)[i] == ((uint8_t *)out_r.data)[i];
        else {
          double a = ((float *)out_d.data)[i], b = ((float *)out_r.data)[i];
          ok = fabs(a - b) <= 1e-5 * (fabs(b) > 1 ? fabs(b) : 1);
        }
      }
      if (!GE_CHECK(ok)) {
        if (++mism < 5) rs_describe(&c, k);
      } else if (c.dt == GE_DTYPE_UINT8)
        exact++;
    }
    kh_free(&out_d);
    kh_free(&out_r);
    kh_free(&x);
    kh_free(&sc);
    kh_free(&sz);
    tg_free(&t);
  }
  GE_CHECK(cases >= 300);
  GE_CHECK(exact >= 150);
  printf("    resize: %d cases against the host CPU reference, %d of them uint8 and bit-exact\n", cases, exact);
}

/* A larger image through both resize paths (and a dynamic H/W at compile
 * time: check_supported takes it). */
GE_TEST(test_resize_large_and_dynamic) {
  uint64_t s = 99;
  int k;
  for (k = 0; k < 4; k++) {
    rs_case c;
    tg t;
    ge_value x, sc, out_d, out_r, *ins[4];
    int64_t n = 3, i, bad = 0, dyn[3] = {-1, -1, 3};
    memset(&c, 0, sizeof c);
    c.dt = k & 1 ? GE_DTYPE_FLOAT32 : GE_DTYPE_UINT8;
    c.rank = 3, c.dims[0] = 301, c.dims[1] = 257, c.dims[2] = 3;
    c.mode = k & 2 ? "nearest" : "linear";
    c.ctm = "half_pixel", c.nm = "round_prefer_floor", c.policy = "stretch";
    c.scales[0] = 0.63f, c.scales[1] = 1.71f, c.scales[2] = 1.0f;
    GE_REQUIRE(rs_build(&t, &c));
    GE_CHECK(supported(&t));
    x = kh_value(c.dt, 3, c.dims, NULL);
    rs_fill(&s, &x);
    sc = kh_value(GE_DTYPE_FLOAT32, 1, &n, c.scales);
    ins[0] = &x, ins[1] = NULL, ins[2] = &sc, ins[3] = NULL;
    memset(&out_d, 0, sizeof out_d);
    memset(&out_r, 0, sizeof out_r);
    GE_CHECK_EQ_INT(run(&t, dvpp_kernel(&t), ins, 4, &out_d), GE_OK);
    GE_CHECK_EQ_INT(run(&t, ge_host_cpu_kernel(tg_n(&t)), ins, 4, &out_r), GE_OK);
    GE_CHECK(same_dims(&out_d, out_r.rank, out_r.dims));
    for (i = 0; i < out_r.numel && same_dims(&out_d, out_r.rank, out_r.dims); i++)
      if (c.dt == GE_DTYPE_UINT8 ? ((uint8_t *)out_d.data)[i] != ((uint8_t *)out_r.data)[i]
                                 : fabs(((float *)out_d.data)[i] - ((float *)out_r.data)[i]) > 1e-3)
        bad++;
    GE_CHECK_EQ_INT(bad, 0);
    kh_free(&out_d);
    kh_free(&out_r);
    kh_free(&x);
    kh_free(&sc);
    tg_free(&t);
    /* the same with H and W unknown at compile time */
    memcpy(c.dims, dyn, sizeof dyn);
    GE_REQUIRE(rs_build(&t, &c));
    GE_CHECK(supported(&t));
    tg_free(&t);
  }
}

/* ------------------------------------------------------------ ImageCrop */

static int crop_make(tg *t, ge_dtype dt, int32_t rank, const int64_t *dims, const int64_t *off, const int64_t *size) {
  ge_edge e;
  if (!tg_begin(t)) return 0;
  e = tg_data(t, "x", dt, rank, dims);
  if (!tg_node(t, "ImageCrop", 1, &e)) return 0;
  if (off) set_is(t, "offsets", off, 2);
  if (size) set_is(t, "size", size, 2);
  return 1;
}

GE_TEST(test_crop_vs_loops) {
  static const ge_dtype dts[] = {GE_DTYPE_UINT8, GE_DTYPE_INT16, GE_DTYPE_FLOAT32, GE_DTYPE_FLOAT64,
                                 GE_DTYPE_INT64, GE_DTYPE_FLOAT16, GE_DTYPE_INT8, GE_DTYPE_UINT32};
  uint64_t s = 31337;
  int k;
  for (k = 0; k < 120; k++) {
    ge_dtype dt = dts[k % 8];
    int32_t rank = 3 + (k & 1), h = rank - 3;
    int64_t dims[4], off[2], size[2], want[4], N, n, r, col, esz = (int64_t)ge_dtype_size(dt);
    tg t;
    ge_value x, out, *ins[1];
    int ok = 1;
    uint8_t *p;
    dims[0] = rng_int(&s, 1, 3);
    dims[h] = rng_int(&s, 1, 30);
    dims[h + 1] = rng_int(&s, 1, 30);
    dims[h + 2] = k % 3 == 0 ? 1 : k % 3 == 1 ? 3 : 4;
    size[0] = rng_int(&s, 1, dims[h]);
    size[1] = rng_int(&s, 1, dims[h + 1]);
    off[0] = rng_int(&s, 0, dims[h] - size[0]);
    off[1] = rng_int(&s, 0, dims[h + 1] - size[1]);
    GE_REQUIRE(crop_make(&t, dt, rank, dims, off, size));
    GE_CHECK(supported(&t));
    GE_CHECK_EQ_INT(ge_graph_infer_shapes(t.g, &t.err), GE_OK);
    x = kh_value(dt, rank, dims, NULL);
    for (p = (uint8_t *)x.data, n = 0; n < (int64_t)x.nbytes; n++) p[n] = (uint8_t)rng_next(&s);
    ins[0] = &x;
    memset(&out, 0, sizeof out);
    GE_CHECK_EQ_INT(run(&t, dvpp_kernel(&t), ins, 1, &out), GE_OK);
    memcpy(want, dims, sizeof want);
    want[h] = size[0], want[h + 1] = size[1];
    GE_CHECK(same_dims(&out, rank, want));
    GE_CHECK(same_dims(&out, tg_n(&t)->outputs[0].shape.rank, tg_n(&t)->outputs[0].shape.dims));
    N = h ? dims[0] : 1;
    for (n = 0; n < N && ok && same_dims(&out, rank, want); n++)
      for (r = 0; r < size[0] && ok; r++)
        for (col = 0; col < size[1] && ok; col++) {
          int64_t C = dims[h + 2];
          int64_t si = ((n * dims[h] + off[0] + r) * dims[h + 1] + off[1] + col) * C;
          int64_t di = ((n * size[0] + r) * size[1] + col) * C;
          ok = !memcmp((uint8_t *)out.data + di * esz, (uint8_t *)x.data + si * esz, (size_t)(C * esz));
        }
    GE_CHECK(ok);
    kh_free(&out);
    kh_free(&x);
    tg_free(&t);
  }
}

GE_TEST(test_crop_runtime_errors) {
  /* H and W unknown at compile time: the kernel finds the window outside */
  int64_t dyn[3] = {-1, -1, 3}, real[3] = {8, 8, 3}, off[2] = {4, 2}, size[2] = {5, 3};
  tg t;
  ge_value x = kh_value(GE_DTYPE_UINT8, 3, real, NULL), out, *ins[1] = {&x};
  memset(&out, 0, sizeof out);
  GE_REQUIRE(crop_make(&t, GE_DTYPE_UINT8, 3, dyn, off, size));
  GE_CHECK(supported(&t));
  GE_CHECK_EQ_INT(run(&t, dvpp_kernel(&t), ins, 1, &out), GE_ERR_SHAPE);
  GE_CHECK(strstr(t.err.message, "'node'") && strstr(t.err.message, "outside"));
  size[0] = 4;
  set_is(&t, "size", size, 2);
  GE_CHECK_EQ_INT(run(&t, dvpp_kernel(&t), ins, 1, &out), GE_OK);
  kh_free(&out);
  kh_free(&x);
  tg_free(&t);
}

/* ---------------------------------------------------------- ColorConvert */

static const char *const convs[] = {"RGB2BGR", "BGR2RGB", "RGB2GRAY", "BGR2GRAY", "GRAY2RGB", "YUV2RGB", "RGB2YUV"};

static int clamp255(double v) { return v < 0 ? 0 : v > 255 ? 255 : (int)v; }

/* The expected pixel, written from the formulas in the header comment:
 * uint8 from integer numerators (exact halves round up), float in double. */
static void color_expect(int k, int u8, const double *in, double *out) {
  double r = in[0], g = k == 4 ? 0 : in[1], b = k == 4 ? 0 : in[2];
  switch (k) {
  case 0:
  case 1: out[0] = b, out[1] = g, out[2] = r; break;
  case 2:
  case 3:
    if (k == 3) {
      double t = r;
      r = b, b = t;
    }
    out[0] = u8 ? floor((299 * r + 587 * g + 114 * b) / 1000.0 + 0.5) : 0.299 * r + 0.587 * g + 0.114 * b;
    break;
  case 4: out[0] = out[1] = out[2] = r; break;
  case 5:
    if (u8) {
      out[0] = clamp255(floor((1000000 * r + 1402000 * (b - 128)) / 1e6 + 0.5));
      out[1] = clamp255(floor((1000000 * r - 344136 * (g - 128) - 714136 * (b - 128)) / 1e6 + 0.5));
      out[2] = clamp255(floor((1000000 * r + 1772000 * (g - 128)) / 1e6 + 0.5));
    } else {
      out[0] = r + 1.402 * (b - 128);
      out[1] = r - 0.344136 * (g - 128) - 0.714136 * (b - 128);
      out[2] = r + 1.772 * (g - 128);
    }
    break;
  default:
    if (u8) {
      out[0] = floor((299 * r + 587 * g + 114 * b) / 1000.0 + 0.5);
      out[1] = clamp255(floor((-168736 * r - 331264 * g + 500000 * b) / 1e6 + 128.5));
      out[2] = clamp255(floor((500000 * r - 418688 * g - 81312 * b) / 1e6 + 128.5));
    } else {
      out[0] = 0.299 * r + 0.587 * g + 0.114 * b;
      out[1] = -0.168736 * r - 0.331264 * g + 0.5 * b + 128;
      out[2] = 0.5 * r - 0.418688 * g - 0.081312 * b + 128;
    }
  }
}

static int color_make(tg *t, ge_dtype dt, int32_t rank, const int64_t *dims, const char *conv) {
  ge_edge e;
  if (!tg_begin(t)) return 0;
  e = tg_data(t, "x", dt, rank, dims);
  if (!tg_node(t, "ColorConvert", 1, &e)) return 0;
  if (conv) set_s(t, "conversion", conv);
  return 1;
}

/* Runs one conversion on x; out receives the result. */
static ge_status color_run(const ge_value *x, const char *conv, ge_value *out) {
  tg t;
  ge_value *ins[1];
  ge_status st = GE_ERR_INTERNAL;
  ins[0] = (ge_value *)x;
  if (color_make(&t, x->dtype, x->rank, x->dims, conv)) st = run(&t, dvpp_kernel(&t), ins, 1, out);
  tg_free(&t);
  return st;
}

GE_TEST(test_color_vs_loops) {
  uint64_t s = 2718;
  int k, rep;
  for (rep = 0; rep < 6; rep++)
    for (k = 0; k < 7; k++) {
      int u8 = rep & 1, cin = k == 4 ? 1 : 3, cout = k == 2 || k == 3 ? 1 : 3, ok = 1;
      int32_t rank = 3 + (rep >> 1 & 1);
      int64_t dims[4] = {2, 5, 7, cin}, i, pixels, want[4];
      ge_value x, out;
      tg t;
      if (rank == 3) dims[0] = 5, dims[1] = 7, dims[2] = cin;
      else dims[1] = rng_int(&s, 1, 9), dims[2] = rng_int(&s, 1, 9);
      GE_REQUIRE(color_make(&t, u8 ? GE_DTYPE_UINT8 : GE_DTYPE_FLOAT32, rank, dims, convs[k]));
      GE_CHECK(supported(&t));
      tg_free(&t);
      x = kh_value(u8 ? GE_DTYPE_UINT8 : GE_DTYPE_FLOAT32, rank, dims, NULL);
      for (i = 0; i < x.numel; i++) {
        if (u8) ((uint8_t *)x.data)[i] = (uint8_t)rng_next(&s);
        else ((float *)x.data)[i] = (float)(rng_unit(&s) * 255.0);
      }
      memset(&out, 0, sizeof out);
      GE_CHECK_EQ_INT(color_run(&x, convs[k], &out), GE_OK);
      memcpy(want, dims, sizeof want);
      want[rank - 1] = cout;
      GE_CHECK(same_dims(&out, rank, want));
      pixels = x.numel / cin;
      for (i = 0; i < pixels && ok && same_dims(&out, rank, want); i++) {
        double in[3], e[3], got;
        int ch;
        for (ch = 0; ch < cin; ch++) in[ch] = u8 ? ((uint8_t *)x.data)[i * cin + ch] : ((float *)x.data)[i * cin + ch];
        color_expect(k, u8, in, e);
        for (ch = 0; ch < cout && ok; ch++) {
          got = u8 ? ((uint8_t *)out.data)[i * cout + ch] : ((float *)out.data)[i * cout + ch];
          ok = u8 ? got == e[ch] : fabs(got - e[ch]) <= 1e-4;
          if (!ok) printf("    %s %s pixel %lld channel %d: %g, expected %g\n", convs[k], u8 ? "uint8" : "float32",
                          (long long)i, ch, got, e[ch]);
        }
      }
      GE_CHECK(ok);
      kh_free(&out);
      kh_free(&x);
    }
}

GE_TEST(test_color_known_values) {
  uint8_t px[4][3] = {{255, 0, 0}, {0, 255, 0}, {0, 0, 255}, {255, 255, 255}};
  uint8_t gray[4] = {76, 150, 29, 255}, yuv0[3] = {76, 85, 255};
  int64_t dims[3] = {1, 4, 3};
  ge_value x = kh_value(GE_DTYPE_UINT8, 3, dims, px), out, back;
  int i, maxerr = 0;
  memset(&out, 0, sizeof out);
  memset(&back, 0, sizeof back);
  GE_CHECK_EQ_INT(color_run(&x, "RGB2GRAY", &out), GE_OK);
  GE_CHECK(out.numel == 4 && !memcmp(out.data, gray, 4));
  GE_CHECK_EQ_INT(color_run(&x, "RGB2YUV", &out), GE_OK);
  GE_CHECK(out.numel == 12 && !memcmp(out.data, yuv0, 3));
  /* uint8 round trip RGB -> YUV -> RGB stays within 2 of the start */
  GE_CHECK_EQ_INT(color_run(&out, "YUV2RGB", &back), GE_OK);
  for (i = 0; i < 12 && back.numel == 12; i++) {
    int d = abs((int)((uint8_t *)back.data)[i] - (int)((uint8_t *)x.data)[i]);
    if (d > maxerr) maxerr = d;
  }
  GE_CHECK(maxerr <= 2);
  /* a bad conversion at run time */
  GE_CHECK_EQ_INT(color_run(&x, "HSV2RGB", &out), GE_ERR_INVALID);
  kh_free(&out);
  kh_free(&back);
  kh_free(&x);
}

/* ------------------------------------------------------ check_supported */

GE_TEST(test_engine_descriptor) {
  const ge_engine *e = ge_dvpp_engine();
  GE_REQUIRE(e != NULL);
  GE_CHECK_EQ_INT(e->abi_version, GE_ENGINE_ABI_VERSION);
  GE_CHECK_STR(e->name, "DNN_VM_DVPP");
  GE_CHECK_STR(e->accelerator, "Dvpp");
  GE_CHECK_EQ_INT(e->cost, 5);
  GE_CHECK_EQ_INT(e->runtime, GE_RUNTIME_DEVICE);
  GE_CHECK_EQ_INT(e->flags, GE_ENGINE_ATTACH);
  GE_CHECK(e->check_supported != NULL && e->kernel != NULL && e->members == NULL);
  GE_CHECK(ge_dvpp_engine() == e);
}

/* Resize node on x of dt/rank/dims with Const scales (n values). */
static int rs_simple(tg *t, ge_dtype dt, int32_t rank, const int64_t *dims, const float *scales, int64_t n,
                     const char *mode) {
  ge_edge in[4] = {{GE_NONE, 0}, {GE_NONE, 0}, {GE_NONE, 0}, {GE_NONE, 0}};
  if (!tg_begin(t)) return 0;
  in[0] = tg_data(t, "x", dt, rank, dims);
  in[2] = tg_const(t, "scales", GE_DTYPE_FLOAT32, n, scales);
  if (!tg_node(t, "Resize", 4, in)) return 0;
  if (mode) set_s(t, "mode", mode);
  return 1;
}

#define WHY_HAS(t, s) GE_CHECK(strstr((t).why, (s)) != NULL)

GE_TEST(test_supported_resize) {
  int64_t hwc[3] = {32, 48, 3}, nhwc[4] = {2, 32, 48, 3}, nchw[4] = {2, 3, 32, 48}, nchw64[4] = {1, 64, 32, 48},
          dyn[4] = {-1, -1, -1, 3}, big[3] = {9000, 10, 3}, r2[2] = {32, 48}, i2[3] = {4, 4, 3};
  float s3[3] = {2, 0.5f, 1}, s4a[4] = {1, 2, 0.5f, 1}, s4b[4] = {1, 1, 2, 0.5f}, sc[3] = {2, 2, 2}, s2[2] = {2, 2},
        huge[3] = {3000, 1, 1}, s4c[4] = {2, 1, 2, 1};
  tg t;
  ge_edge in[4];
  GE_REQUIRE(rs_simple(&t, GE_DTYPE_UINT8, 3, hwc, s3, 3, "linear"));
  GE_CHECK(supported(&t));
  tg_free(&t);
  GE_REQUIRE(rs_simple(&t, GE_DTYPE_FLOAT32, 4, nhwc, s4a, 4, "nearest"));
  GE_CHECK(supported(&t));
  tg_free(&t);
  GE_REQUIRE(rs_simple(&t, GE_DTYPE_FLOAT32, 4, nchw, s4b, 4, "linear"));
  GE_CHECK(supported(&t));
  tg_free(&t);
  GE_REQUIRE(rs_simple(&t, GE_DTYPE_UINT8, 4, dyn, s4a, 4, "linear")); /* dynamic N, H, W */
  GE_CHECK(supported(&t));
  tg_free(&t);
  /* refusals */
  GE_REQUIRE(rs_simple(&t, GE_DTYPE_INT32, 3, hwc, s3, 3, "linear"));
  GE_CHECK(!supported(&t));
  WHY_HAS(t, "dtype int32 is not uint8 or float32");
  tg_free(&t);
  GE_REQUIRE(rs_simple(&t, GE_DTYPE_UINT8, 2, r2, s2, 2, "linear"));
  GE_CHECK(!supported(&t));
  WHY_HAS(t, "rank 2 is not 3 or 4");
  tg_free(&t);
  GE_REQUIRE(rs_simple(&t, GE_DTYPE_UINT8, 3, hwc, s3, 3, "cubic"));
  GE_CHECK(!supported(&t));
  WHY_HAS(t, "mode cubic is not nearest or linear");
  tg_free(&t);
  GE_REQUIRE(rs_simple(&t, GE_DTYPE_UINT8, 3, hwc, s3, 3, "linear"));
  set_i(&t, "antialias", 1);
  GE_CHECK(!supported(&t));
  WHY_HAS(t, "antialias");
  tg_free(&t);
  GE_REQUIRE(rs_simple(&t, GE_DTYPE_UINT8, 3, hwc, s3, 3, "linear"));
  set_s(&t, "coordinate_transformation_mode", "tf_crop_and_resize");
  GE_CHECK(!supported(&t));
  WHY_HAS(t, "tf_crop_and_resize");
  tg_free(&t);
  GE_REQUIRE(rs_simple(&t, GE_DTYPE_UINT8, 3, hwc, s3, 3, "linear"));
  set_s(&t, "coordinate_transformation_mode", "tf_half_pixel_for_nn");
  GE_CHECK(!supported(&t));
  tg_free(&t);
  GE_REQUIRE(rs_simple(&t, GE_DTYPE_UINT8, 3, hwc, sc, 3, "linear"));
  GE_CHECK(!supported(&t));
  WHY_HAS(t, "resizes more than the two spatial axes");
  tg_free(&t);
  GE_REQUIRE(rs_simple(&t, GE_DTYPE_FLOAT32, 4, nhwc, s4c, 4, "linear"));
  GE_CHECK(!supported(&t));
  WHY_HAS(t, "spatial");
  tg_free(&t);
  GE_REQUIRE(rs_simple(&t, GE_DTYPE_FLOAT32, 4, nchw64, s4b, 4, "linear"));
  GE_CHECK(!supported(&t));
  WHY_HAS(t, "64 channels, not 1, 3 or 4");
  tg_free(&t);
  GE_REQUIRE(rs_simple(&t, GE_DTYPE_UINT8, 3, big, s3, 3, "linear"));
  GE_CHECK(!supported(&t));
  WHY_HAS(t, "input height 9000 exceeds 8192");
  tg_free(&t);
  GE_REQUIRE(rs_simple(&t, GE_DTYPE_UINT8, 3, i2, huge, 3, "linear"));
  GE_CHECK(!supported(&t));
  WHY_HAS(t, "output height 12000 exceeds 8192");
  tg_free(&t);
  /* scales and sizes that are not constants */
  GE_REQUIRE(tg_begin(&t));
  memset(in, 0, sizeof in);
  in[0] = tg_data(&t, "x", GE_DTYPE_UINT8, 3, hwc);
  in[1].node = in[3].node = GE_NONE;
  {
    int64_t three = 3;
    in[2] = tg_data(&t, "scales", GE_DTYPE_FLOAT32, 1, &three);
  }
  GE_REQUIRE(tg_node(&t, "Resize", 4, in));
  GE_CHECK(!supported(&t));
  WHY_HAS(t, "scales not known at compile time");
  tg_free(&t);
  GE_REQUIRE(tg_begin(&t));
  {
    int64_t three = 3;
    in[0] = tg_data(&t, "x", GE_DTYPE_UINT8, 3, hwc);
    in[2].node = GE_NONE;
    in[3] = tg_data(&t, "sizes", GE_DTYPE_INT64, 1, &three);
  }
  GE_REQUIRE(tg_node(&t, "Resize", 4, in));
  GE_CHECK(!supported(&t));
  WHY_HAS(t, "sizes not known at compile time");
  tg_free(&t);
}

GE_TEST(test_supported_other_ops) {
  int64_t img[3] = {10, 12, 3}, img5[3] = {10, 12, 5}, r2[2] = {10, 12}, dyn[4] = {-1, -1, -1, 3},
          big[3] = {10, 9000, 3}, off[2] = {2, 3}, size[2] = {4, 5}, size0[2] = {0, 5}, far[2] = {8, 3},
          nbytes = 100, gray[3] = {10, 12, 1};
  tg t;
  ge_edge e;
  /* ImageCrop */
  GE_REQUIRE(crop_make(&t, GE_DTYPE_FLOAT64, 3, img, off, size));
  GE_CHECK(supported(&t));
  tg_free(&t);
  GE_REQUIRE(crop_make(&t, GE_DTYPE_INT16, 4, dyn, off, size));
  GE_CHECK(supported(&t));
  tg_free(&t);
  GE_REQUIRE(crop_make(&t, GE_DTYPE_UINT8, 3, img, far, size));
  GE_CHECK(!supported(&t));
  WHY_HAS(t, "crop outside the image");
  tg_free(&t);
  GE_REQUIRE(crop_make(&t, GE_DTYPE_UINT8, 3, img, off, size0));
  GE_CHECK(!supported(&t));
  WHY_HAS(t, "crop size 0 is not > 0");
  tg_free(&t);
  GE_REQUIRE(crop_make(&t, GE_DTYPE_UINT8, 3, img, off, NULL));
  GE_CHECK(!supported(&t));
  WHY_HAS(t, "size is not [height, width]");
  tg_free(&t);
  GE_REQUIRE(crop_make(&t, GE_DTYPE_UINT8, 3, img5, off, size));
  GE_CHECK(!supported(&t));
  WHY_HAS(t, "5 channels, not 1, 3 or 4");
  tg_free(&t);
  GE_REQUIRE(crop_make(&t, GE_DTYPE_BOOL, 3, img, off, size));
  GE_CHECK(!supported(&t));
  WHY_HAS(t, "dtype bool is not numeric");
  tg_free(&t);
  GE_REQUIRE(crop_make(&t, GE_DTYPE_UINT8, 2, r2, off, size));
  GE_CHECK(!supported(&t));
  WHY_HAS(t, "rank 2 is not 3 or 4");
  tg_free(&t);
  GE_REQUIRE(crop_make(&t, GE_DTYPE_UINT8, 3, big, off, size));
  GE_CHECK(!supported(&t));
  WHY_HAS(t, "image width 9000 exceeds 8192");
  tg_free(&t);
  /* ColorConvert */
  GE_REQUIRE(color_make(&t, GE_DTYPE_FLOAT32, 4, dyn, "RGB2YUV"));
  GE_CHECK(supported(&t));
  tg_free(&t);
  GE_REQUIRE(color_make(&t, GE_DTYPE_UINT8, 3, gray, "GRAY2RGB"));
  GE_CHECK(supported(&t));
  tg_free(&t);
  GE_REQUIRE(color_make(&t, GE_DTYPE_INT16, 3, img, "RGB2BGR"));
  GE_CHECK(!supported(&t));
  WHY_HAS(t, "dtype int16 is not uint8 or float32");
  tg_free(&t);
  GE_REQUIRE(color_make(&t, GE_DTYPE_UINT8, 3, img, "RGB2HSV"));
  GE_CHECK(!supported(&t));
  WHY_HAS(t, "unknown conversion 'RGB2HSV'");
  tg_free(&t);
  GE_REQUIRE(color_make(&t, GE_DTYPE_UINT8, 3, img, "GRAY2RGB"));
  GE_CHECK(!supported(&t));
  WHY_HAS(t, "GRAY2RGB needs 1 channels, not 3");
  tg_free(&t);
  /* ImageDecoder (this test is built with stb_image) */
  GE_REQUIRE(decoder_make(&t, nbytes, "BGR"));
  GE_CHECK(supported(&t));
  tg_free(&t);
  GE_REQUIRE(decoder_make(&t, nbytes, "HSV"));
  GE_CHECK(!supported(&t));
  WHY_HAS(t, "pixel_format HSV is not RGB, BGR or Grayscale");
  tg_free(&t);
  GE_REQUIRE(tg_begin(&t));
  e = tg_data(&t, "b", GE_DTYPE_INT8, 1, &nbytes);
  GE_REQUIRE(tg_node(&t, "ImageDecoder", 1, &e));
  GE_CHECK(!supported(&t));
  WHY_HAS(t, "dtype int8 is not uint8");
  tg_free(&t);
  /* ops that are not DVPP's, other domains, no input */
  GE_REQUIRE(tg_begin(&t));
  e = tg_data(&t, "x", GE_DTYPE_FLOAT32, 3, img);
  GE_REQUIRE(tg_node(&t, "Relu", 1, &e));
  GE_CHECK(!supported(&t));
  WHY_HAS(t, "op Relu is not an image op");
  GE_CHECK(dvpp_kernel(&t) == NULL);
  tg_free(&t);
  GE_REQUIRE(color_make(&t, GE_DTYPE_UINT8, 3, img, "RGB2BGR"));
  ge_node_set_domain(t.g, t.id, "com.example", NULL);
  GE_CHECK(!supported(&t));
  WHY_HAS(t, "not in the default domain");
  tg_free(&t);
  GE_REQUIRE(tg_begin(&t));
  GE_REQUIRE(tg_node(&t, "ColorConvert", 0, NULL));
  GE_CHECK(!supported(&t));
  WHY_HAS(t, "input is not connected");
  tg_free(&t);
}

/* ------------------------------------------------------ shape inference */

static int infer(tg *t) {
  memset(&t->err, 0, sizeof t->err);
  return ge_graph_infer_shapes(t->g, &t->err) == GE_OK;
}

static int out_is(tg *t, ge_dtype dt, int32_t rank, const int64_t *dims) {
  const ge_tensor_desc *d = &tg_n(t)->outputs[0];
  int32_t i;
  if (d->dtype != dt || d->shape.rank != rank) return 0;
  for (i = 0; i < rank; i++)
    if (d->shape.dims[i] != dims[i]) return 0;
  return 1;
}

GE_TEST(test_infer_schemas) {
  int64_t n = 500, img[3] = {10, 12, 3}, img4[4] = {2, 10, 12, 3}, dynh[3] = {-1, 12, 3}, off[2] = {2, 3},
          size[2] = {4, 5}, far[2] = {7, 3}, neg[2] = {-1, 0}, r2[2] = {10, 12}, b2[2] = {10, 50};
  int64_t w_dec[3] = {-1, -1, 3}, w_gray[3] = {-1, -1, 1}, w_crop[3] = {4, 5, 3}, w_crop4[4] = {2, 4, 5, 3},
          w_g[3] = {10, 12, 1}, w_rgb4[4] = {2, 10, 12, 3}, gray4[4] = {2, 10, 12, 1};
  tg t;
  ge_edge e;
  ge_validate_desc vd = {0};
  /* ImageDecoder */
  GE_REQUIRE(decoder_make(&t, n, NULL));
  GE_CHECK(infer(&t) && out_is(&t, GE_DTYPE_UINT8, 3, w_dec));
  GE_CHECK_EQ_INT(ge_graph_validate(t.g, &vd, &t.err), GE_OK);
  tg_free(&t);
  GE_REQUIRE(decoder_make(&t, n, "Grayscale"));
  GE_CHECK(infer(&t) && out_is(&t, GE_DTYPE_UINT8, 3, w_gray));
  tg_free(&t);
  GE_REQUIRE(decoder_make(&t, n, "YUV"));
  GE_CHECK(!infer(&t));
  GE_CHECK(strstr(t.err.message, "'node'") && strstr(t.err.message, "pixel_format"));
  tg_free(&t);
  GE_REQUIRE(tg_begin(&t));
  e = tg_data(&t, "b", GE_DTYPE_UINT8, 2, b2);
  GE_REQUIRE(tg_node(&t, "ImageDecoder", 1, &e));
  GE_CHECK(!infer(&t));
  GE_CHECK(strstr(t.err.message, "1-D") != NULL);
  tg_free(&t);
  GE_REQUIRE(tg_begin(&t));
  e = tg_data(&t, "b", GE_DTYPE_FLOAT32, 1, &n);
  GE_REQUIRE(tg_node(&t, "ImageDecoder", 1, &e));
  GE_CHECK(ge_graph_validate(t.g, &vd, &t.err) != GE_OK); /* uint8 only */
  tg_free(&t);
  /* ImageCrop */
  GE_REQUIRE(crop_make(&t, GE_DTYPE_INT64, 3, img, off, size));
  GE_CHECK(infer(&t) && out_is(&t, GE_DTYPE_INT64, 3, w_crop));
  GE_CHECK_EQ_INT(ge_graph_validate(t.g, &vd, &t.err), GE_OK);
  tg_free(&t);
  GE_REQUIRE(crop_make(&t, GE_DTYPE_UINT8, 4, img4, off, size));
  GE_CHECK(infer(&t) && out_is(&t, GE_DTYPE_UINT8, 4, w_crop4));
  tg_free(&t);
  GE_REQUIRE(crop_make(&t, GE_DTYPE_UINT8, 3, dynh, off, size));
  GE_CHECK(infer(&t) && out_is(&t, GE_DTYPE_UINT8, 3, w_crop));
  tg_free(&t);
  GE_REQUIRE(crop_make(&t, GE_DTYPE_UINT8, 3, img, far, size));
  GE_CHECK(!infer(&t));
  GE_CHECK_EQ_INT(t.err.code, GE_ERR_SHAPE);
  GE_CHECK(strstr(t.err.message, "'node'") && strstr(t.err.message, "outside"));
  tg_free(&t);
  GE_REQUIRE(crop_make(&t, GE_DTYPE_UINT8, 3, img, neg, size));
  GE_CHECK(!infer(&t));
  tg_free(&t);
  GE_REQUIRE(crop_make(&t, GE_DTYPE_UINT8, 2, r2, off, size));
  GE_CHECK(!infer(&t));
  tg_free(&t);
  GE_REQUIRE(crop_make(&t, GE_DTYPE_UINT8, 3, img, off, NULL));
  GE_CHECK(!infer(&t));
  GE_CHECK(ge_graph_validate(t.g, &vd, &t.err) != GE_OK);
  GE_CHECK(strstr(t.err.message, "size") != NULL);
  tg_free(&t);
  /* ColorConvert */
  GE_REQUIRE(color_make(&t, GE_DTYPE_UINT8, 3, img, "BGR2GRAY"));
  GE_CHECK(infer(&t) && out_is(&t, GE_DTYPE_UINT8, 3, w_g));
  GE_CHECK_EQ_INT(ge_graph_validate(t.g, &vd, &t.err), GE_OK);
  tg_free(&t);
  GE_REQUIRE(color_make(&t, GE_DTYPE_FLOAT32, 4, gray4, "GRAY2RGB"));
  GE_CHECK(infer(&t) && out_is(&t, GE_DTYPE_FLOAT32, 4, w_rgb4));
  tg_free(&t);
  GE_REQUIRE(color_make(&t, GE_DTYPE_UINT8, 3, img, "RGB2LAB"));
  GE_CHECK(!infer(&t));
  GE_CHECK(strstr(t.err.message, "unknown conversion 'RGB2LAB'") != NULL);
  tg_free(&t);
  GE_REQUIRE(color_make(&t, GE_DTYPE_UINT8, 3, img, "GRAY2RGB"));
  GE_CHECK(!infer(&t));
  GE_CHECK(strstr(t.err.message, "needs 1 channels") != NULL);
  tg_free(&t);
  GE_REQUIRE(color_make(&t, GE_DTYPE_UINT8, 2, r2, "RGB2BGR"));
  GE_CHECK(!infer(&t));
  tg_free(&t);
  GE_REQUIRE(color_make(&t, GE_DTYPE_UINT8, 3, img, NULL));
  GE_CHECK(ge_graph_validate(t.g, &vd, &t.err) != GE_OK); /* conversion is required */
  tg_free(&t);
  GE_REQUIRE(color_make(&t, GE_DTYPE_INT32, 3, img, "RGB2BGR"));
  GE_CHECK(ge_graph_validate(t.g, &vd, &t.err) != GE_OK); /* uint8 or float32 */
  tg_free(&t);
}

int main(int argc, char **argv) {
  ge_test_init(argc, argv);
  GE_RUN(test_engine_descriptor);
  GE_RUN(test_decode_png_exact);
  GE_RUN(test_decode_jpeg_psnr);
  GE_RUN(test_decode_errors);
  GE_RUN(test_decode_mutations);
  GE_RUN(test_resize_vs_reference);
  GE_RUN(test_resize_large_and_dynamic);
  GE_RUN(test_crop_vs_loops);
  GE_RUN(test_crop_runtime_errors);
  GE_RUN(test_color_vs_loops);
  GE_RUN(test_color_known_values);
  GE_RUN(test_supported_resize);
  GE_RUN(test_supported_other_ops);
  GE_RUN(test_infer_schemas);
  return ge_test_main_end();
}

/* ge_engines/dvpp.h — DNN_VM_DVPP, the image preprocessing engine.
 *
 * Part of ge. On Ascend, DVPP is the media block that decodes JPEG/PNG and
 * resizes, crops and colour-converts images before a model sees them. Here
 * it is a CPU engine with the same name, cost (5) and flags (attach), for
 * four ops:
 *
 *   ImageDecoder  (ONNX opset 20) uint8 1-D JPEG or PNG bytes -> uint8
 *                 [H, W, C]; attr pixel_format "RGB" (default, C 3), "BGR"
 *                 (C 3) or "Grayscale" (C 1). Decoding is Debian's stb_image
 *                 (libstb-dev), compiled in only when GE_USE_STB_IMAGE is
 *                 defined (then link -lstb; this header never defines
 *                 STB_IMAGE_IMPLEMENTATION). Without it the engine refuses
 *                 ImageDecoder. Grayscale is the RGB decode converted with
 *                 ColorConvert's RGB2GRAY (so a grey image comes back
 *                 exactly). Streams other than JPEG (FF D8 FF) and PNG (the
 *                 8-byte signature) are refused, as is a JPEG that does not
 *                 end in its EOI marker FF D9 (trailing zero bytes allowed):
 *                 stb_image would decode a truncated JPEG into a partly grey
 *                 image, DVPP reports it. Images past 8192 x 8192 are refused
 *                 before decoding. Bad bytes give a kernel error carrying
 *                 stb_image's reason (stbi_failure_reason()).
 *   Resize        ONNX Resize (opsets 10..18) on images: see the support
 *                 rules below. The kernel reproduces the host CPU reference
 *                 (ge_engines/host_cpu.h) exactly for uint8 and within 1e-5
 *                 (relative) for float32.
 *   ImageCrop     (ge op) [H, W, C] or [N, H, W, C], any numeric dtype; attrs
 *                 offsets [top, left], size [height, width].
 *   ColorConvert  (ge op) uint8 or float32 [..., H, W, C]; attr conversion:
 *                 RGB2BGR, BGR2RGB   swap channels 0 and 2 (C 3)
 *                 RGB2GRAY, BGR2GRAY Y = 0.299 R + 0.587 G + 0.114 B (C 3 -> 1)
 *                 GRAY2RGB           R = G = B = Y (C 1 -> 3)
 *                 RGB2YUV            YUV 4:4:4, full-range BT.601 (JPEG/JFIF):
 *                     Y = 0.299 R + 0.587 G + 0.114 B
 *                     U = -0.168736 R - 0.331264 G + 0.5 B + 128
 *                     V = 0.5 R - 0.418688 G - 0.081312 B + 128
 *                 YUV2RGB            its inverse as JFIF writes it:
 *                     R = Y + 1.402 (V - 128)
 *                     G = Y - 0.344136 (U - 128) - 0.714136 (V - 128)
 *                     B = Y + 1.772 (U - 128)
 *                 uint8: the exact value of the formula (computed in
 *                 integers: the coefficients have 6 decimals) rounded half
 *                 up, i.e. floor(v + 0.5), then clamped to 0..255. float32:
 *                 the formula in double, stored as float, neither rounded
 *                 nor clamped; values are on the 0..255 scale (offset 128).
 *
 * Support rules (check_supported; reasons are short lowercase phrases):
 *   every op     default domain; rank known; H and W (and output H, W)
 *                <= 8192 when known; channels 1, 3 or 4 when known. H and W
 *                may be dynamic (-1): DVPP takes dynamic image sizes.
 *   ImageDecoder built with GE_USE_STB_IMAGE; uint8 1-D input;
 *                pixel_format RGB, BGR or Grayscale.
 *   Resize       uint8 or float32 x of rank 3 (HWC) or 4 (NHWC or NCHW);
 *                mode nearest or linear; antialias 0; any
 *                coordinate_transformation_mode but tf_crop_and_resize (and
 *                tf_half_pixel_for_nn only with mode nearest and
 *                nearest_mode round_prefer_floor or floor, which keep the
 *                axes it does not resize as they are); every
 *                keep_aspect_ratio_policy; scales or sizes known at compile
 *                time (Const or a known value) and resizing at most the two
 *                spatial axes: 0,1 of HWC, 1,2 of NHWC, 2,3 of NCHW.
 *   ImageCrop    numeric dtype; rank 3 or 4; offsets and size of 2 values,
 *                offsets >= 0, 0 < size <= 8192; the window inside the
 *                image where its size is known.
 *   ColorConvert uint8 or float32; rank 3 or 4; a known conversion; the
 *                channel count the conversion needs where known.
 *
 * Resize kernel. Per-axis tap tables (source indices and weights, computed
 * with the reference's formulas) for the two resized axes; axes that are
 * not resized must map to themselves. uint8 linear: the reference sums
 * the taps' products in double in a fixed order and truncates, so an exact
 * match needs that order: each output pixel takes the weight products
 * w_h * w_w once and sums w * x over the taps for every channel. float32
 * linear: separable, a horizontal pass into double rows (two cached source
 * rows), then a vertical pass. nearest: copies of source pixels. (On
 * targets that contract a * b + c into fused multiply-adds, compile both
 * engines with -ffp-contract=off for bit-exact uint8 agreement; x86-64's
 * default has no FMA.)
 *
 * Thread safety: the engine descriptor is constant and check_supported and
 * the kernels keep no state outside their arguments. stb_image keeps its
 * failure reason in thread-local storage in Debian's build; its global
 * switches (stbi_set_flip_vertically_on_load and friends) are never
 * touched here, and a program that flips them globally changes what
 * ImageDecoder returns.
 *
 * Include after (or instead of) ge_graph.h; define GE_DVPP_IMPLEMENTATION
 * (or GE_IMPLEMENTATION) in one translation unit for the implementation.
 */
#ifndef GE_ENGINE_DVPP_H
#define GE_ENGINE_DVPP_H

#include "ge_graph.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest image height or width the engine takes. */
#define GE_DVPP_MAX_DIM 8192

/* The DNN_VM_DVPP engine descriptor (static storage). */
GE_API const ge_engine *ge_dvpp_engine(void);

#ifdef __cplusplus
}
#endif
#endif /* GE_ENGINE_DVPP_H */

#if defined(GE_IMPLEMENTATION) || defined(GE_DVPP_IMPLEMENTATION)
#ifndef GE_DVPP_IMPLEMENTATION_DONE
#define GE_DVPP_IMPLEMENTATION_DONE

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef GE_USE_STB_IMAGE
#include <stb/stb_image.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------ helpers */

/* sorted by strcmp, for ge_op_in_sorted */
static const char *const ge__dvpp_ops[] = {"ColorConvert", "ImageCrop", "ImageDecoder", "Resize"};

static ge_status ge__dvpp_out_failed(ge_kernel_ctx *c) {
  return c->err && c->err->code ? c->err->code : GE_ERR_NOMEM;
}

static int ge__dvpp_is_int(ge_dtype t) {
  return t == GE_DTYPE_INT8 || t == GE_DTYPE_INT16 || t == GE_DTYPE_INT32 || t == GE_DTYPE_INT64 ||
         t == GE_DTYPE_UINT8 || t == GE_DTYPE_UINT16 || t == GE_DTYPE_UINT32 || t == GE_DTYPE_UINT64;
}

static int ge__dvpp_is_float(ge_dtype t) {
  return t == GE_DTYPE_FLOAT32 || t == GE_DTYPE_FLOAT64 || t == GE_DTYPE_FLOAT16 || t == GE_DTYPE_BFLOAT16;
}

static int ge__dvpp_channels_ok(int64_t c) { return c < 0 || c == 1 || c == 3 || c == 4; }

/* Input i is connected (not absent). */
static int ge__dvpp_has_input(const ge_node *n, uint32_t i) {
  return i < n->num_inputs && n->inputs[i].node != GE_NONE;
}

/* The known value of input i at compile time (a known value on the edge, or
 * a Const producer), NULL when absent or not known. */
static const ge_tensor *ge__dvpp_known_input(const ge_graph *g, const ge_node *n, uint32_t i) {
  const ge_tensor_desc *d;
  const ge_node *p;
  const ge_attr *a;
  if (!ge__dvpp_has_input(n, i)) return NULL;
  d = ge_node_input_desc(g, n, i);
  if (d && d->value) return d->value;
  p = ge_graph_node(g, n->inputs[i].node);
  if (p && !strcmp(p->op, "Const") && (a = ge_node_attr(p, "value")) && a->type == GE_ATTR_TENSOR) return a->v.t;
  return NULL;
}

/* A runtime value seen as a ge_tensor (no copy); NULL for NULL. */
static const ge_tensor *ge__dvpp_view(const ge_value *v, ge_tensor *t) {
  if (!v) return NULL;
  memset(t, 0, sizeof *t);
  t->dtype = v->dtype;
  t->rank = v->rank;
  t->dims = (int64_t *)v->dims;
  t->data = v->data;
  t->nbytes = v->nbytes;
  return t;
}

/* Image height and width (axes h and h + 1 of s) within the limit when
 * known; `what` names the tensor in the reason. */
static int ge__dvpp_hw_ok(const ge_shape *s, int32_t h, const char *what, char *why, size_t cap) {
  int32_t i;
  for (i = h; i < h + 2 && i < s->rank; i++)
    if (s->dims[i] > GE_DVPP_MAX_DIM)
      return ge_engine_why(why, cap, "%s %s %lld exceeds %d", what, i == h ? "height" : "width",
                           (long long)s->dims[i], GE_DVPP_MAX_DIM);
  return 1;
}

/* Common input checks: input 0 connected with a known rank. */
static const ge_tensor_desc *ge__dvpp_input(const ge_graph *g, const ge_node *n, char *why, size_t cap) {
  const ge_tensor_desc *x = ge__dvpp_has_input(n, 0) ? ge_node_input_desc(g, n, 0) : NULL;
  if (!x) {
    ge_engine_why(why, cap, "input is not connected");
    return NULL;
  }
  if (x->shape.rank < 0) {
    ge_engine_why(why, cap, "input rank unknown");
    return NULL;
  }
  return x;
}

/* ------------------------------------------------------- ColorConvert */

enum { GE__DVPP_RGB2BGR, GE__DVPP_BGR2RGB, GE__DVPP_RGB2GRAY, GE__DVPP_BGR2GRAY, GE__DVPP_GRAY2RGB,
       GE__DVPP_YUV2RGB, GE__DVPP_RGB2YUV, GE__DVPP_NCONV };

static int ge__dvpp_conversion(const char *s) {
  static const char *const names[GE__DVPP_NCONV] = {"RGB2BGR", "BGR2RGB", "RGB2GRAY", "BGR2GRAY",
                                                    "GRAY2RGB", "YUV2RGB", "RGB2YUV"};
  int k;
  for (k = 0; s && k < GE__DVPP_NCONV; k++)
    if (!strcmp(s, names[k])) return k;
  return -1;
}

static int ge__dvpp_conv_cin(int k) { return k == GE__DVPP_GRAY2RGB ? 1 : 3; }
static int ge__dvpp_conv_cout(int k) { return k == GE__DVPP_RGB2GRAY || k == GE__DVPP_BGR2GRAY ? 1 : 3; }

/* floor(num / 1000000) for any sign, clamped to 0..255. */
static uint8_t ge__dvpp_u8_micro(int64_t num) {
  int64_t q = num >= 0 ? num / 1000000 : -((-num + 999999) / 1000000);
  return (uint8_t)(q < 0 ? 0 : q > 255 ? 255 : q);
}

/* Y of BT.601 rounded half up: exact in integers. */
static uint8_t ge__dvpp_gray_u8(int r, int g, int b) { return (uint8_t)((299 * r + 587 * g + 114 * b + 500) / 1000); }

static void ge__dvpp_convert_u8(int k, const uint8_t *x, uint8_t *y, int64_t pixels) {
  int64_t p;
  for (p = 0; p < pixels; p++) {
    const uint8_t *s = x + p * ge__dvpp_conv_cin(k);
    uint8_t *d = y + p * ge__dvpp_conv_cout(k);
    switch (k) {
    case GE__DVPP_RGB2BGR:
    case GE__DVPP_BGR2RGB: {
      uint8_t a = s[0], b = s[1], cc = s[2];
      d[0] = cc, d[1] = b, d[2] = a;
      break;
    }
    case GE__DVPP_RGB2GRAY: d[0] = ge__dvpp_gray_u8(s[0], s[1], s[2]); break;
    case GE__DVPP_BGR2GRAY: d[0] = ge__dvpp_gray_u8(s[2], s[1], s[0]); break;
    case GE__DVPP_GRAY2RGB: d[0] = d[1] = d[2] = s[0]; break;
    case GE__DVPP_RGB2YUV: {
      int64_t r = s[0], g = s[1], b = s[2];
      d[0] = ge__dvpp_gray_u8(s[0], s[1], s[2]);
      d[1] = ge__dvpp_u8_micro(-168736 * r - 331264 * g + 500000 * b + 128500000);
      d[2] = ge__dvpp_u8_micro(500000 * r - 418688 * g - 81312 * b + 128500000);
      break;
    }
    default: { /* YUV2RGB */
      int64_t yy = s[0], u = (int64_t)s[1] - 128, v = (int64_t)s[2] - 128;
      d[0] = ge__dvpp_u8_micro(1000000 * yy + 1402000 * v + 500000);
      d[1] = ge__dvpp_u8_micro(1000000 * yy - 344136 * u - 714136 * v + 500000);
      d[2] = ge__dvpp_u8_micro(1000000 * yy + 1772000 * u + 500000);
      break;
    }
    }
  }
}

static void ge__dvpp_convert_f32(int k, const float *x, float *y, int64_t pixels) {
  int64_t p;
  for (p = 0; p < pixels; p++) {
    const float *s = x + p * ge__dvpp_conv_cin(k);
    float *d = y + p * ge__dvpp_conv_cout(k);
    double r = s[0], g = k == GE__DVPP_GRAY2RGB ? 0 : s[1], b = k == GE__DVPP_GRAY2RGB ? 0 : s[2];
    switch (k) {
    case GE__DVPP_RGB2BGR:
    case GE__DVPP_BGR2RGB: {
      float a = s[0], bb = s[1], cc = s[2];
      d[0] = cc, d[1] = bb, d[2] = a;
      break;
    }
    case GE__DVPP_RGB2GRAY: d[0] = (float)(0.299 * r + 0.587 * g + 0.114 * b); break;
    case GE__DVPP_BGR2GRAY: d[0] = (float)(0.299 * b + 0.587 * g + 0.114 * r); break;
    case GE__DVPP_GRAY2RGB: d[0] = d[1] = d[2] = s[0]; break;
    case GE__DVPP_RGB2YUV:
      d[0] = (float)(0.299 * r + 0.587 * g + 0.114 * b);
      d[1] = (float)(-0.168736 * r - 0.331264 * g + 0.5 * b + 128.0);
      d[2] = (float)(0.5 * r - 0.418688 * g - 0.081312 * b + 128.0);
      break;
    default: /* YUV2RGB: r, g, b hold Y, U, V */
      d[0] = (float)(r + 1.402 * (b - 128.0));
      d[1] = (float)(r - 0.344136 * (g - 128.0) - 0.714136 * (b - 128.0));
      d[2] = (float)(r + 1.772 * (g - 128.0));
      break;
    }
  }
}

static int ge__dvpp_check_color(const ge_graph *g, const ge_node *n, char *why, size_t cap) {
  const ge_tensor_desc *x = ge__dvpp_input(g, n, why, cap);
  const char *conv = ge_node_attr_string(n, "conversion", NULL);
  int k = ge__dvpp_conversion(conv);
  int64_t ch;
  if (!x) return 0;
  if (x->dtype != GE_DTYPE_UINT8 && x->dtype != GE_DTYPE_FLOAT32)
    return ge_engine_why(why, cap, "dtype %s is not uint8 or float32", ge_dtype_name(x->dtype));
  if (x->shape.rank != 3 && x->shape.rank != 4)
    return ge_engine_why(why, cap, "rank %d is not 3 or 4", (int)x->shape.rank);
  if (k < 0) return ge_engine_why(why, cap, "unknown conversion '%s'", conv ? conv : "(missing)");
  ch = x->shape.dims[x->shape.rank - 1];
  if (ch >= 0 && ch != ge__dvpp_conv_cin(k))
    return ge_engine_why(why, cap, "%s needs %d channels, not %lld", conv, ge__dvpp_conv_cin(k), (long long)ch);
  return ge__dvpp_hw_ok(&x->shape, x->shape.rank - 3, "image", why, cap);
}

static ge_status ge__dvpp_color_convert(ge_kernel_ctx *c) {
  const ge_value *x = c->num_inputs ? c->inputs[0] : NULL;
  const char *conv = ge_node_attr_string(c->node, "conversion", NULL);
  int k = ge__dvpp_conversion(conv);
  int64_t dims[GE_MAX_RANK], pixels;
  ge_value *y;
  if (!x) return ge_kernel_error(c, GE_ERR_INVALID, "input is missing");
  if (k < 0) return ge_kernel_error(c, GE_ERR_INVALID, "unknown conversion '%s'", conv ? conv : "(missing)");
  if (x->dtype != GE_DTYPE_UINT8 && x->dtype != GE_DTYPE_FLOAT32)
    return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "dtype %s is not uint8 or float32", ge_dtype_name(x->dtype));
  if (x->rank < 3 || x->dims[x->rank - 1] != ge__dvpp_conv_cin(k))
    return ge_kernel_error(c, GE_ERR_SHAPE, "%s needs [..., H, W, %d], got rank %d with %lld channels", conv,
                           ge__dvpp_conv_cin(k), (int)x->rank, (long long)(x->rank ? x->dims[x->rank - 1] : 0));
  memcpy(dims, x->dims, sizeof dims);
  dims[x->rank - 1] = ge__dvpp_conv_cout(k);
  if (!(y = ge_kernel_output(c, 0, x->dtype, x->rank, dims))) return ge__dvpp_out_failed(c);
  pixels = x->numel / ge__dvpp_conv_cin(k);
  if (x->dtype == GE_DTYPE_UINT8)
    ge__dvpp_convert_u8(k, (const uint8_t *)x->data, (uint8_t *)y->data, pixels);
  else
    ge__dvpp_convert_f32(k, (const float *)x->data, (float *)y->data, pixels);
  return GE_OK;
}

/* ---------------------------------------------------------- ImageCrop */

/* offsets and size attributes: 1 when well formed (reason otherwise). */
static int ge__dvpp_crop_attrs(const ge_node *n, int64_t *off, int64_t *size, char *why, size_t cap) {
  const int64_t *a;
  int i;
  if (ge_node_attr_ints(n, "offsets", &a) != 2) return ge_engine_why(why, cap, "offsets is not [top, left]");
  off[0] = a[0], off[1] = a[1];
  if (ge_node_attr_ints(n, "size", &a) != 2) return ge_engine_why(why, cap, "size is not [height, width]");
  size[0] = a[0], size[1] = a[1];
  for (i = 0; i < 2; i++) {
    if (off[i] < 0) return ge_engine_why(why, cap, "crop offset %lld is negative", (long long)off[i]);
    if (size[i] <= 0) return ge_engine_why(why, cap, "crop size %lld is not > 0", (long long)size[i]);
    if (size[i] > GE_DVPP_MAX_DIM)
      return ge_engine_why(why, cap, "crop size %lld exceeds %d", (long long)size[i], GE_DVPP_MAX_DIM);
  }
  return 1;
}

static int ge__dvpp_check_crop(const ge_graph *g, const ge_node *n, char *why, size_t cap) {
  const ge_tensor_desc *x = ge__dvpp_input(g, n, why, cap);
  int64_t off[2], size[2];
  int32_t h, i;
  if (!x) return 0;
  if (!(GE_DTYPES_NUMERIC & GE_DTYPE_BIT(x->dtype)) || x->dtype == GE_DTYPE_UNDEFINED)
    return ge_engine_why(why, cap, "dtype %s is not numeric", ge_dtype_name(x->dtype));
  if (x->shape.rank != 3 && x->shape.rank != 4)
    return ge_engine_why(why, cap, "rank %d is not 3 or 4", (int)x->shape.rank);
  if (!ge__dvpp_crop_attrs(n, off, size, why, cap)) return 0;
  h = x->shape.rank - 3;
  if (!ge__dvpp_channels_ok(x->shape.dims[h + 2]))
    return ge_engine_why(why, cap, "%lld channels, not 1, 3 or 4", (long long)x->shape.dims[h + 2]);
  if (!ge__dvpp_hw_ok(&x->shape, h, "image", why, cap)) return 0;
  for (i = 0; i < 2; i++) {
    int64_t d = x->shape.dims[h + i];
    if (d >= 0 && (off[i] > d || size[i] > d - off[i])) return ge_engine_why(why, cap, "crop outside the image");
  }
  return 1;
}

static ge_status ge__dvpp_image_crop(ge_kernel_ctx *c) {
  const ge_value *x = c->num_inputs ? c->inputs[0] : NULL;
  int64_t off[2], size[2], dims[4], n, i, row, esize, N, W, C;
  int32_t h;
  char why[128];
  ge_value *y;
  if (!x) return ge_kernel_error(c, GE_ERR_INVALID, "input is missing");
  if (!ge__dvpp_crop_attrs(c->node, off, size, why, sizeof why)) return ge_kernel_error(c, GE_ERR_INVALID, "%s", why);
  if (x->rank != 3 && x->rank != 4)
    return ge_kernel_error(c, GE_ERR_SHAPE, "input of rank %d is not [H, W, C] or [N, H, W, C]", (int)x->rank);
  if (x->dtype == GE_DTYPE_STRING || x->dtype == GE_DTYPE_UNDEFINED || ge_dtype_size(x->dtype) == 0)
    return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "dtype %s", ge_dtype_name(x->dtype));
  h = x->rank - 3;
  for (i = 0; i < 2; i++)
    if (off[i] > x->dims[h + i] || size[i] > x->dims[h + i] - off[i])
      return ge_kernel_error(c, GE_ERR_SHAPE, "crop %s %lld..%lld lie outside the %lld of the input",
                             i ? "columns" : "rows", (long long)off[i], (long long)(off[i] + size[i] - 1),
                             (long long)x->dims[h + i]);
  memcpy(dims, x->dims, (size_t)x->rank * sizeof(int64_t));
  dims[h] = size[0];
  dims[h + 1] = size[1];
  if (!(y = ge_kernel_output(c, 0, x->dtype, x->rank, dims))) return ge__dvpp_out_failed(c);
  esize = (int64_t)ge_dtype_size(x->dtype);
  N = h ? x->dims[0] : 1;
  W = x->dims[h + 1];
  C = x->dims[h + 2];
  for (n = 0; n < N; n++)
    for (row = 0; row < size[0]; row++) {
      const char *s = (const char *)x->data + (((n * x->dims[h] + off[0] + row) * W + off[1]) * C) * esize;
      char *d = (char *)y->data + ((n * size[0] + row) * size[1] * C) * esize;
      memcpy(d, s, (size_t)(size[1] * C * esize));
    }
  return GE_OK;
}

/* ------------------------------------------------------------- Resize */

/* Numbering as in the host CPU reference. */
enum { GE__DVPP_NEAREST = 0, GE__DVPP_LINEAR = 1 };
enum { GE__DVPP_HALF_PIXEL, GE__DVPP_PYTORCH_HALF_PIXEL, GE__DVPP_ALIGN_CORNERS, GE__DVPP_ASYMMETRIC,
       GE__DVPP_TF_HALF_PIXEL_FOR_NN, GE__DVPP_TF_CROP_AND_RESIZE, GE__DVPP_HALF_PIXEL_SYMMETRIC };
enum { GE__DVPP_PREFER_FLOOR, GE__DVPP_PREFER_CEIL, GE__DVPP_FLOOR, GE__DVPP_CEIL, GE__DVPP_SIMPLE };

typedef struct ge__dvpp_rs {
  int mode, ctm, nearest, exclude, policy; /* policy: 0 stretch, 1 not_larger, 2 not_smaller */
} ge__dvpp_rs;

/* The attributes of a Resize node, as the reference reads them; 0 with the
 * reason when DVPP does not run them. */
static int ge__dvpp_rs_attrs(const ge_node *n, ge__dvpp_rs *o, char *why, size_t cap) {
  static const char *const ctms[] = {"half_pixel",           "pytorch_half_pixel", "align_corners",       "asymmetric",
                                     "tf_half_pixel_for_nn", "tf_crop_and_resize", "half_pixel_symmetric"};
  static const char *const nms[] = {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"};
  const char *mode = ge_node_attr_string(n, "mode", "nearest");
  const char *ctm = ge_node_attr_string(n, "coordinate_transformation_mode", NULL);
  const char *nm = ge_node_attr_string(n, "nearest_mode", "round_prefer_floor");
  const char *pol = ge_node_attr_string(n, "keep_aspect_ratio_policy", "stretch");
  int opset10 = n->num_inputs == 2, k;
  memset(o, 0, sizeof *o);
  if (!strcmp(mode, "nearest")) o->mode = GE__DVPP_NEAREST;
  else if (!strcmp(mode, "linear")) o->mode = GE__DVPP_LINEAR;
  else return ge_engine_why(why, cap, "mode %s is not nearest or linear", mode);
  if (ge_node_attr_int(n, "antialias", 0) != 0) return ge_engine_why(why, cap, "antialias is not supported");
  o->ctm = opset10 && !ctm ? GE__DVPP_ASYMMETRIC : -1;
  for (k = 0; o->ctm < 0 && k < 7; k++)
    if (!strcmp(ctm ? ctm : "half_pixel", ctms[k])) o->ctm = k;
  if (o->ctm < 0) return ge_engine_why(why, cap, "unknown coordinate_transformation_mode %s", ctm);
  if (o->ctm == GE__DVPP_TF_CROP_AND_RESIZE) return ge_engine_why(why, cap, "tf_crop_and_resize is not supported");
  o->nearest = opset10 && !ge_node_attr(n, "nearest_mode") ? GE__DVPP_SIMPLE : -1;
  for (k = 0; o->nearest < 0 && k < 4; k++)
    if (!strcmp(nm, nms[k])) o->nearest = k;
  if (o->nearest < 0) return ge_engine_why(why, cap, "unknown nearest_mode %s", nm);
  if (o->ctm == GE__DVPP_TF_HALF_PIXEL_FOR_NN &&
      (o->mode != GE__DVPP_NEAREST || (o->nearest != GE__DVPP_PREFER_FLOOR && o->nearest != GE__DVPP_FLOOR)))
    return ge_engine_why(why, cap, "tf_half_pixel_for_nn moves axes it does not resize");
  if (!strcmp(pol, "stretch")) o->policy = 0;
  else if (!strcmp(pol, "not_larger")) o->policy = 1;
  else if (!strcmp(pol, "not_smaller")) o->policy = 2;
  else return ge_engine_why(why, cap, "unknown keep_aspect_ratio_policy %s", pol);
  o->exclude = ge_node_attr_int(n, "exclude_outside", 0) != 0;
  return 1;
}

/* Output size and scale of every axis of an input of dims in[0..r) (-1:
 * unknown) from the axes attribute and sizes or scales, as the reference
 * computes them; out -1 / scale -1 where unknown. 0 with the reason when
 * the values are bad. */
static int ge__dvpp_rs_plan(const ge__dvpp_rs *o, const ge_node *n, int32_t r, const int64_t *in,
                            const ge_tensor *scales, const ge_tensor *sizes, int64_t *out, double *scale, char *why,
                            size_t cap) {
  const int64_t *av = NULL;
  int32_t na = ge_node_attr_ints(n, "axes", &av), axes[GE_MAX_RANK], j, k;
  int seen[GE_MAX_RANK];
  memset(seen, 0, sizeof seen);
  if (na < 0) {
    na = r;
    for (j = 0; j < r; j++) axes[j] = j;
  } else {
    if (na > r) return ge_engine_why(why, cap, "too many axes");
    for (j = 0; j < na; j++) {
      int64_t a = av[j] < 0 ? av[j] + r : av[j];
      if (a < 0 || a >= r || seen[a]++) return ge_engine_why(why, cap, "axes must be distinct and in range");
      axes[j] = (int32_t)a;
    }
  }
  for (j = 0; j < r; j++) {
    out[j] = in[j];
    scale[j] = 1;
  }
  if (sizes) {
    double s = o->policy == 1 ? HUGE_VAL : 0;
    int unknown = 0;
    if (!ge__dvpp_is_int(sizes->dtype) || ge_tensor_numel(sizes) != na)
      return ge_engine_why(why, cap, "sizes must hold %d integers", (int)na);
    for (j = 0; j < na; j++) {
      int64_t sz = ge_tensor_get_int(sizes, j), a = axes[j];
      double rr;
      if (sz < 0) return ge_engine_why(why, cap, "sizes must be >= 0");
      out[a] = sz;
      if (in[a] < 0) {
        unknown = 1;
        scale[a] = -1;
        continue;
      }
      rr = in[a] ? (double)sz / (double)in[a] : 1.0;
      scale[a] = rr;
      if ((o->policy == 1 && rr < s) || (o->policy == 2 && rr > s)) s = rr;
    }
    for (k = 0; o->policy && k < na; k++) {
      int32_t a = axes[k];
      double len = unknown ? -1 : floor(s * (double)in[a] + 0.5);
      if (!(len <= 1e15)) return ge_engine_why(why, cap, "output would be too large");
      scale[a] = unknown ? -1 : s;
      out[a] = unknown ? -1 : (int64_t)len;
    }
  } else if (scales) {
    if (!ge__dvpp_is_float(scales->dtype) || ge_tensor_numel(scales) != na)
      return ge_engine_why(why, cap, "scales must hold %d floats", (int)na);
    for (j = 0; j < na; j++) {
      int32_t a = axes[j];
      double s = ge_tensor_get_float(scales, j), len = (double)in[a] * s;
      if (!(s > 0) || len > 1e15) return ge_engine_why(why, cap, "scales must be > 0 (and sane)");
      scale[a] = s;
      out[a] = in[a] < 0 ? -1 : len > 0 ? (int64_t)floor(len) : 0;
    }
  } else
    return ge_engine_why(why, cap, "one of scales and sizes is required");
  return 1;
}

/* The scales and sizes a Resize node uses (NULL when not used), from
 * runtime values; sizes win when they hold values, as in the reference. */
static void ge__dvpp_rs_inputs(const ge_node *n, const ge_tensor *const *vals, const ge_tensor **scales,
                               const ge_tensor **sizes) {
  int opset10 = n->num_inputs == 2;
  const ge_tensor *sc = vals[opset10 ? 1 : 2], *sz = opset10 || n->num_inputs < 4 ? NULL : vals[3];
  *sizes = sz && ge_tensor_numel(sz) > 0 ? sz : NULL;
  *scales = !*sizes && sc && ge_tensor_numel(sc) > 0 ? sc : NULL;
}

static int ge__dvpp_check_resize(const ge_graph *g, const ge_node *n, char *why, size_t cap) {
  const ge_tensor_desc *x = ge__dvpp_input(g, n, why, cap);
  const ge_tensor *vals[4] = {NULL, NULL, NULL, NULL}, *scales, *sizes;
  int32_t r, j, h;
  uint32_t moved = 0, i;
  int64_t out[GE_MAX_RANK];
  double scale[GE_MAX_RANK];
  ge__dvpp_rs o;
  if (!x) return 0;
  if (x->dtype != GE_DTYPE_UINT8 && x->dtype != GE_DTYPE_FLOAT32)
    return ge_engine_why(why, cap, "dtype %s is not uint8 or float32", ge_dtype_name(x->dtype));
  r = x->shape.rank;
  if (r != 3 && r != 4) return ge_engine_why(why, cap, "rank %d is not 3 or 4", (int)r);
  if (n->num_inputs < 2 || n->num_inputs > 4) return ge_engine_why(why, cap, "%u inputs", (unsigned)n->num_inputs);
  if (!ge__dvpp_rs_attrs(n, &o, why, cap)) return 0;
  for (i = 1; i < n->num_inputs; i++) {
    int is_roi = i == 1 && n->num_inputs > 2;
    if (is_roi || !ge__dvpp_has_input(n, i)) continue;
    if (!(vals[i] = ge__dvpp_known_input(g, n, i)))
      return ge_engine_why(why, cap, "%s not known at compile time", i == 3 ? "sizes" : "scales");
  }
  ge__dvpp_rs_inputs(n, vals, &scales, &sizes);
  if (!ge__dvpp_rs_plan(&o, n, r, x->shape.dims, scales, sizes, out, scale, why, cap)) return 0;
  for (j = 0; j < r; j++)
    if (scale[j] != 1.0 || out[j] != x->shape.dims[j]) moved |= 1u << j;
  /* the spatial axes: HWC 0,1; NHWC 1,2; NCHW 2,3 (axis 2 alone: NHWC when
   * its channels fit, else NCHW) */
  if (r == 3) h = 0;
  else if (!(moved & ~6u) && (!(moved & ~4u) ? ge__dvpp_channels_ok(x->shape.dims[3]) : 1)) h = 1;
  else h = 2;
  if (moved & ~(3u << h)) return ge_engine_why(why, cap, "resizes more than the two spatial axes");
  j = r == 3 || h == 1 ? r - 1 : 1; /* channel axis */
  if (!ge__dvpp_channels_ok(x->shape.dims[j]))
    return ge_engine_why(why, cap, "%lld channels, not 1, 3 or 4", (long long)x->shape.dims[j]);
  if (!ge__dvpp_hw_ok(&x->shape, h, "input", why, cap)) return 0;
  for (j = h; j < h + 2; j++)
    if (out[j] > GE_DVPP_MAX_DIM)
      return ge_engine_why(why, cap, "output %s %lld exceeds %d", j == h ? "height" : "width", (long long)out[j],
                           GE_DVPP_MAX_DIM);
  return 1;
}

/* The taps of one axis: for every output coordinate up to two source
 * indices and weights, computed exactly as the reference does. */
typedef struct ge__dvpp_taps {
  int64_t *idx; /* 2 per output coordinate */
  double *w;    /* 2 per output coordinate */
  int *cnt;
} ge__dvpp_taps;

/* Source coordinate of output coordinate x (the host CPU reference's
 * formula: the integer output length where the spec says length_resized). */
static double ge__dvpp_coord(int ctm, double s, double x, int64_t in, int64_t out) {
  double lr = s * (double)in;
  switch (ctm) {
  case GE__DVPP_PYTORCH_HALF_PIXEL: return out > 1 ? (x + 0.5) / s - 0.5 : 0.0;
  case GE__DVPP_ALIGN_CORNERS: return out == 1 ? 0.0 : x * (double)(in - 1) / (double)(out - 1);
  case GE__DVPP_ASYMMETRIC: return x / s;
  case GE__DVPP_TF_HALF_PIXEL_FOR_NN: return (x + 0.5) / s;
  case GE__DVPP_HALF_PIXEL_SYMMETRIC: {
    double adj = (double)out / lr, off = (double)in * 0.5 * (1 - adj);
    return off + (x + 0.5) / s - 0.5;
  }
  default: return (x + 0.5) / s - 0.5;
  }
}

static int64_t ge__dvpp_round_nearest(int mode, double x, int down) {
  double f = floor(x);
  switch (mode) {
  case GE__DVPP_PREFER_CEIL: return (int64_t)(x - f == 0.5 ? f + 1 : floor(x + 0.5));
  case GE__DVPP_FLOOR: return (int64_t)f;
  case GE__DVPP_CEIL: return (int64_t)ceil(x);
  case GE__DVPP_SIMPLE: return (int64_t)(down ? ceil(x) : f);
  default: return (int64_t)(x - f == 0.5 ? f : floor(x + 0.5));
  }
}

/* Taps of output coordinate k of an axis of in elements resized to out at
 * scale s; returns their count (0..2). */
static int ge__dvpp_tap(const ge__dvpp_rs *o, int64_t k, int64_t in, int64_t out, double s, int64_t *idx, double *w) {
  double xo = ge__dvpp_coord(o->ctm, s, (double)k, in, out), sum = 0, f, ratio, cf[2];
  int64_t xi, pos[2];
  int i, m = 0;
  if (xo < -4) xo = -4;
  if (xo > (double)in + 4) xo = (double)in + 4;
  if (o->mode == GE__DVPP_NEAREST) {
    int64_t t = ge__dvpp_round_nearest(o->nearest, xo, s < 1);
    idx[0] = t < 0 ? 0 : t >= in ? in - 1 : t;
    w[0] = 1;
    return 1;
  }
  f = floor(xo);
  ratio = xo - f;
  xi = (int64_t)f;
  if (ratio == 0) { /* an integer coordinate weighs 1 against its left neighbour */
    xi -= 1;
    ratio = 1;
  }
  for (i = 0; i < 2; i++) {
    double t = fabs(1.0 * ((double)i - ratio));
    pos[i] = xi + i;
    cf[i] = t < 1 ? 1 - t : 0;
    if (o->exclude && (pos[i] < 0 || pos[i] >= in)) cf[i] = 0;
    sum += cf[i];
  }
  for (i = 0; i < 2; i++) {
    double wi = sum != 0 ? cf[i] / sum : 0;
    if (wi == 0) continue;
    idx[m] = pos[i] < 0 ? 0 : pos[i] >= in ? in - 1 : pos[i];
    w[m++] = wi;
  }
  return m;
}

/* Whether an axis maps every coordinate onto itself with weight 1. */
static int ge__dvpp_axis_identity(const ge__dvpp_rs *o, int64_t in, int64_t out, double s) {
  int64_t k, idx[2];
  double w[2];
  if (in != out) return 0;
  for (k = 0; k < out; k++)
    if (ge__dvpp_tap(o, k, in, out, s, idx, w) != 1 || idx[0] != k || w[0] != 1.0) return 0;
  return 1;
}

static int ge__dvpp_taps_make(ge__dvpp_taps *t, const ge__dvpp_rs *o, int64_t in, int64_t out, double s) {
  int64_t k;
  t->idx = (int64_t *)malloc((size_t)(out ? out : 1) * 2 * sizeof(int64_t));
  t->w = (double *)malloc((size_t)(out ? out : 1) * 2 * sizeof(double));
  t->cnt = (int *)malloc((size_t)(out ? out : 1) * sizeof(int));
  if (!t->idx || !t->w || !t->cnt) return 0;
  for (k = 0; k < out; k++) t->cnt[k] = ge__dvpp_tap(o, k, in, out, s, t->idx + 2 * k, t->w + 2 * k);
  return 1;
}

static void ge__dvpp_taps_free(ge__dvpp_taps *t) {
  free(t->idx);
  free(t->w);
  free(t->cnt);
}

/* The resampling of x [outer, A, B, inner] to y [outer, Ao, Bo, inner]. */
typedef struct ge__dvpp_geom {
  int64_t outer, A, B, inner, Ao, Bo;
} ge__dvpp_geom;

static void ge__dvpp_resize_nearest(const ge__dvpp_geom *q, const ge__dvpp_taps *ta, const ge__dvpp_taps *tb,
                                    size_t esize, const char *x, char *y) {
  int64_t o, i, j;
  size_t px = (size_t)q->inner * esize;
  for (o = 0; o < q->outer; o++)
    for (i = 0; i < q->Ao; i++) {
      const char *row = x + (size_t)((o * q->A + ta->idx[2 * i]) * q->B) * px;
      char *d = y + (size_t)((o * q->Ao + i) * q->Bo) * px;
      for (j = 0; j < q->Bo; j++) memcpy(d + (size_t)j * px, row + (size_t)tb->idx[2 * j] * px, px);
    }
}

/* uint8 linear in the reference's order: v = sum over taps (a, b) of
 * (w_a * w_b) * x, from 0, b fastest; stored truncated and clamped. */
static void ge__dvpp_resize_u8(const ge__dvpp_geom *q, const ge__dvpp_taps *ta, const ge__dvpp_taps *tb,
                               const uint8_t *x, uint8_t *y) {
  int64_t o, i, j, ch;
  for (o = 0; o < q->outer; o++)
    for (i = 0; i < q->Ao; i++)
      for (j = 0; j < q->Bo; j++) {
        const uint8_t *src[4];
        double w[4];
        int na = ta->cnt[i], nb = tb->cnt[j], a, b, k = 0, t;
        uint8_t *d = y + ((o * q->Ao + i) * q->Bo + j) * q->inner;
        for (a = 0; a < na; a++)
          for (b = 0; b < nb; b++) {
            w[k] = ta->w[2 * i + a] * tb->w[2 * j + b];
            src[k++] = x + ((o * q->A + ta->idx[2 * i + a]) * q->B + tb->idx[2 * j + b]) * q->inner;
          }
        for (ch = 0; ch < q->inner; ch++) {
          double v = 0;
          for (t = 0; t < k; t++) v += w[t] * (double)src[t][ch];
          d[ch] = (uint8_t)(v > 255 ? 255 : v > 0 ? v : 0);
        }
      }
}

/* float32 linear, separable: rows of B resampled into double rows (two
 * cached), then combined along A. */
static int ge__dvpp_resize_f32(const ge__dvpp_geom *q, const ge__dvpp_taps *ta, const ge__dvpp_taps *tb,
                               const float *x, float *y) {
  size_t rowlen = (size_t)(q->Bo * q->inner);
  double *buf = (double *)malloc(2 * (rowlen ? rowlen : 1) * sizeof(double));
  int64_t key[2], o, i, j, ch;
  if (!buf) return 0;
  for (o = 0; o < q->outer; o++) {
    key[0] = key[1] = -1;
    for (i = 0; i < q->Ao; i++) {
      const double *rows[2];
      int na = ta->cnt[i], a, s;
      float *d = y + (o * q->Ao + i) * (int64_t)rowlen;
      for (a = 0; a < na; a++) {
        int64_t src = ta->idx[2 * i + a];
        if (key[0] == src) s = 0;
        else if (key[1] == src) s = 1;
        else { /* fill the slot this output row does not use */
          double *row;
          const float *xr = x + (o * q->A + src) * q->B * q->inner;
          s = (na == 2 && key[0] == ta->idx[2 * i + (1 - a)]) ? 1 : 0;
          row = buf + (size_t)s * rowlen;
          key[s] = src;
          for (j = 0; j < q->Bo; j++) {
            int nb = tb->cnt[j], b;
            for (ch = 0; ch < q->inner; ch++) {
              double v = 0;
              for (b = 0; b < nb; b++) v += tb->w[2 * j + b] * (double)xr[tb->idx[2 * j + b] * q->inner + ch];
              row[j * q->inner + ch] = v;
            }
          }
        }
        rows[a] = buf + (size_t)s * rowlen;
      }
      for (j = 0; j < (int64_t)rowlen; j++) {
        double v = 0;
        for (a = 0; a < na; a++) v += ta->w[2 * i + a] * rows[a][j];
        d[j] = (float)v;
      }
    }
  }
  free(buf);
  return 1;
}

static ge_status ge__dvpp_resize(ge_kernel_ctx *c) {
  const ge_node *n = c->node;
  const ge_value *x = c->num_inputs ? c->inputs[0] : NULL;
  ge_tensor views[4];
  const ge_tensor *vals[4] = {NULL, NULL, NULL, NULL}, *scales, *sizes;
  int64_t out[GE_MAX_RANK];
  double scale[GE_MAX_RANK];
  int32_t r, j, a = -1, b;
  uint32_t i, moved = 0;
  char why[160];
  ge__dvpp_rs o;
  ge__dvpp_geom q;
  ge__dvpp_taps ta, tb;
  ge_value *y;
  int ok;
  if (!x) return ge_kernel_error(c, GE_ERR_INVALID, "input X is missing");
  if (x->dtype != GE_DTYPE_UINT8 && x->dtype != GE_DTYPE_FLOAT32)
    return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "dtype %s is not uint8 or float32", ge_dtype_name(x->dtype));
  if (c->num_inputs < 2 || c->num_inputs > 4 || n->num_inputs != c->num_inputs)
    return ge_kernel_error(c, GE_ERR_INVALID, "%u inputs", (unsigned)c->num_inputs);
  if (!ge__dvpp_rs_attrs(n, &o, why, sizeof why)) return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "%s", why);
  for (i = 1; i < c->num_inputs; i++) vals[i] = ge__dvpp_view(c->inputs[i], &views[i]);
  ge__dvpp_rs_inputs(n, vals, &scales, &sizes);
  r = x->rank;
  if (!ge__dvpp_rs_plan(&o, n, r, x->dims, scales, sizes, out, scale, why, sizeof why))
    return ge_kernel_error(c, GE_ERR_INVALID, "%s", why);
  for (j = 0; j < r; j++) {
    if (x->dims[j] == 0 && out[j] > 0)
      return ge_kernel_error(c, GE_ERR_SHAPE, "cannot resize an empty axis to %lld", (long long)out[j]);
    if (!ge__dvpp_axis_identity(&o, x->dims[j], out[j], scale[j])) moved |= 1u << j;
  }
  for (j = 0; j < r && !(moved >> j & 1); j++) {
  }
  a = j < r ? j : 0;
  if (moved & ~(3u << a))
    return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "resizes axes other than two adjacent ones");
  if (!(y = ge_kernel_output(c, 0, x->dtype, r, out))) return ge__dvpp_out_failed(c);
  if (y->numel == 0) return GE_OK;
  if (!moved) {
    memcpy(y->data, x->data, x->nbytes);
    return GE_OK;
  }
  b = a + 1; /* r == 1 or a == r - 1: axis b is a virtual axis of size 1 */
  q.outer = q.inner = 1;
  for (j = 0; j < a; j++) q.outer *= x->dims[j];
  for (j = b + 1; j < r; j++) q.inner *= x->dims[j];
  q.A = x->dims[a];
  q.Ao = out[a];
  q.B = b < r ? x->dims[b] : 1;
  q.Bo = b < r ? out[b] : 1;
  memset(&ta, 0, sizeof ta);
  memset(&tb, 0, sizeof tb);
  ok = ge__dvpp_taps_make(&ta, &o, q.A, q.Ao, scale[a]) &&
       ge__dvpp_taps_make(&tb, &o, q.B, q.Bo, b < r ? scale[b] : 1.0);
  if (ok) {
    if (o.mode == GE__DVPP_NEAREST)
      ge__dvpp_resize_nearest(&q, &ta, &tb, ge_dtype_size(x->dtype), (const char *)x->data, (char *)y->data);
    else if (x->dtype == GE_DTYPE_UINT8)
      ge__dvpp_resize_u8(&q, &ta, &tb, (const uint8_t *)x->data, (uint8_t *)y->data);
    else
      ok = ge__dvpp_resize_f32(&q, &ta, &tb, (const float *)x->data, (float *)y->data);
  }
  ge__dvpp_taps_free(&ta);
  ge__dvpp_taps_free(&tb);
  return ok ? GE_OK : ge_kernel_error(c, GE_ERR_NOMEM, "out of memory");
}

/* ------------------------------------------------------- ImageDecoder */

#ifdef GE_USE_STB_IMAGE
/* pixel_format -> channels (3 RGB, -3 BGR, 1 Grayscale), 0 when unknown. */
static int ge__dvpp_pixel_format(const char *s) {
  if (!strcmp(s, "RGB")) return 3;
  if (!strcmp(s, "BGR")) return -3;
  if (!strcmp(s, "Grayscale")) return 1;
  return 0;
}
#endif

static int ge__dvpp_check_decoder(const ge_graph *g, const ge_node *n, char *why, size_t cap) {
#ifndef GE_USE_STB_IMAGE
  (void)g;
  (void)n;
  return ge_engine_why(why, cap, "built without stb_image (define GE_USE_STB_IMAGE, link -lstb)");
#else
  const char *pf = ge_node_attr_string(n, "pixel_format", "RGB");
  const ge_tensor_desc *x;
  if (!(x = ge__dvpp_input(g, n, why, cap))) return 0;
  if (x->dtype != GE_DTYPE_UINT8) return ge_engine_why(why, cap, "dtype %s is not uint8", ge_dtype_name(x->dtype));
  if (x->shape.rank != 1) return ge_engine_why(why, cap, "encoded bytes are not 1-D");
  if (!ge__dvpp_pixel_format(pf)) return ge_engine_why(why, cap, "pixel_format %s is not RGB, BGR or Grayscale", pf);
  return 1;
#endif
}

#ifdef GE_USE_STB_IMAGE
static ge_status ge__dvpp_image_decoder(ge_kernel_ctx *c) {
  static const uint8_t png_sig[8] = {0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A};
  const ge_value *x = c->num_inputs ? c->inputs[0] : NULL;
  const char *pf = ge_node_attr_string(c->node, "pixel_format", "RGB");
  int fmt = ge__dvpp_pixel_format(pf), w = 0, h = 0, comp = 0, is_jpeg;
  const uint8_t *bytes;
  uint8_t *px, *d;
  int64_t dims[3], p, len;
  ge_value *y;
  if (!x) return ge_kernel_error(c, GE_ERR_INVALID, "input encoded_stream is missing");
  if (!fmt) return ge_kernel_error(c, GE_ERR_INVALID, "pixel_format %s is not RGB, BGR or Grayscale", pf);
  if (x->dtype != GE_DTYPE_UINT8 || x->rank != 1)
    return ge_kernel_error(c, GE_ERR_INVALID, "encoded_stream must be uint8 1-D, got %s of rank %d",
                           ge_dtype_name(x->dtype), (int)x->rank);
  bytes = (const uint8_t *)x->data;
  len = x->numel;
  if (len > INT_MAX) return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "%lld bytes are too many", (long long)len);
  is_jpeg = len >= 3 && bytes[0] == 0xFF && bytes[1] == 0xD8 && bytes[2] == 0xFF;
  if (!is_jpeg && !(len >= 8 && !memcmp(bytes, png_sig, 8)))
    return ge_kernel_error(c, GE_ERR_FORMAT, "the %lld bytes are not a JPEG or PNG stream", (long long)len);
  if (is_jpeg) { /* stb_image decodes a truncated JPEG as grey: insist on the end marker */
    int64_t e = len;
    while (e > 2 && bytes[e - 1] == 0) e--;
    if (!(bytes[e - 2] == 0xFF && bytes[e - 1] == 0xD9))
      return ge_kernel_error(c, GE_ERR_FORMAT, "JPEG stream of %lld bytes is truncated (no end-of-image marker)",
                             (long long)len);
  }
  if (!stbi_info_from_memory(bytes, (int)len, &w, &h, &comp))
    return ge_kernel_error(c, GE_ERR_FORMAT, "stb_image cannot read the %s header: %s", is_jpeg ? "JPEG" : "PNG",
                           stbi_failure_reason() ? stbi_failure_reason() : "unknown reason");
  if (w > GE_DVPP_MAX_DIM || h > GE_DVPP_MAX_DIM)
    return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "image %dx%d exceeds %dx%d", w, h, GE_DVPP_MAX_DIM,
                           GE_DVPP_MAX_DIM);
  if (!(px = stbi_load_from_memory(bytes, (int)len, &w, &h, &comp, 3)))
    return ge_kernel_error(c, GE_ERR_FORMAT, "stb_image cannot decode the %s stream: %s", is_jpeg ? "JPEG" : "PNG",
                           stbi_failure_reason() ? stbi_failure_reason() : "unknown reason");
  dims[0] = h;
  dims[1] = w;
  dims[2] = fmt == 1 ? 1 : 3;
  if (!(y = ge_kernel_output(c, 0, GE_DTYPE_UINT8, 3, dims))) {
    stbi_image_free(px);
    return ge__dvpp_out_failed(c);
  }
  d = (uint8_t *)y->data;
  if (fmt == 3)
    memcpy(d, px, (size_t)w * (size_t)h * 3);
  else
    for (p = 0; p < (int64_t)w * h; p++) {
      const uint8_t *s = px + 3 * p;
      if (fmt == 1)
        d[p] = ge__dvpp_gray_u8(s[0], s[1], s[2]);
      else
        d[3 * p] = s[2], d[3 * p + 1] = s[1], d[3 * p + 2] = s[0];
    }
  stbi_image_free(px);
  return GE_OK;
}
#endif

/* ------------------------------------------------------------- engine */

static int ge__dvpp_check_supported(const ge_engine *e, const ge_graph *g, const ge_node *n, char *why, size_t cap) {
  (void)e;
  if (!ge_node_in_onnx_domain(n)) return ge_engine_why(why, cap, "op %s is not in the default domain", n->op);
  if (!ge_op_in_sorted(n->op, ge__dvpp_ops, sizeof ge__dvpp_ops / sizeof ge__dvpp_ops[0]))
    return ge_engine_why(why, cap, "op %s is not an image op", n->op);
  if (n->num_outputs != 1) return ge_engine_why(why, cap, "%u outputs, not 1", (unsigned)n->num_outputs);
  switch (n->op[0]) {
  case 'C': return ge__dvpp_check_color(g, n, why, cap);
  case 'R': return ge__dvpp_check_resize(g, n, why, cap);
  default: return n->op[5] == 'C' ? ge__dvpp_check_crop(g, n, why, cap) : ge__dvpp_check_decoder(g, n, why, cap);
  }
}

static ge_kernel_fn ge__dvpp_kernel(const ge_engine *e, const ge_node *n) {
  (void)e;
  if (!ge_node_in_onnx_domain(n)) return NULL;
  if (!strcmp(n->op, "Resize")) return ge__dvpp_resize;
  if (!strcmp(n->op, "ImageCrop")) return ge__dvpp_image_crop;
  if (!strcmp(n->op, "ColorConvert")) return ge__dvpp_color_convert;
#ifdef GE_USE_STB_IMAGE
  if (!strcmp(n->op, "ImageDecoder")) return ge__dvpp_image_decoder;
#endif
  return NULL;
}

static const ge_engine ge__dvpp_descriptor = {
    GE_ENGINE_ABI_VERSION, "DNN_VM_DVPP", "Dvpp",  5,    GE_RUNTIME_DEVICE, GE_ENGINE_ATTACH, NULL,
    ge__dvpp_check_supported, ge__dvpp_kernel, NULL, NULL, NULL, NULL, NULL};

GE_API const ge_engine *ge_dvpp_engine(void) { return &ge__dvpp_descriptor; }

#ifdef __cplusplus
}
#endif
#endif /* GE_DVPP_IMPLEMENTATION_DONE */
#endif /* GE_IMPLEMENTATION || GE_DVPP_IMPLEMENTATION */

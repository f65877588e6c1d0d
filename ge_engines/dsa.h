/* ge_engines/dsa.h — DSAEngine, the random number engine.
 *
 * Part of ge. On Ascend the DSA (data sampling accelerator) draws random
 * tensors with a counter-based generator; here the same engine model runs
 * on the CPU. It places the ONNX random ops (default domain):
 *
 *   RandomUniform, RandomNormal          attr shape, dtype (default float32)
 *   RandomUniformLike, RandomNormalLike  input's shape, dtype (default: input's)
 *   Bernoulli                            1 with probability input[i], else 0
 *   Multinomial                          [batch, classes] unnormalized log-
 *                                        probabilities -> [batch, sample_size]
 *                                        class indices (int32 default, int64)
 *
 * with attributes low/high (uniform in [low, high)), mean/scale (normal),
 * seed (float), sample_size. Other engines (the AI CPU fallback, when DSA is
 * excluded) reuse these kernels through ge_dsa_kernel, so a node computes
 * the same values wherever it runs.
 *
 * The generator is Philox4x32-10 (Salmon et al., "Parallel random numbers:
 * as easy as 1, 2, 3", SC 2011): a 128-bit counter and a 64-bit key go
 * through ten rounds of multiply-xor, giving four 32-bit words per counter.
 * Element i of an output reads the words at fixed positions: float16/float32
 * uniforms take word i (its top 24 bits), float64 uniforms and Bernoulli
 * over float64 take words 2i, 2i+1 (53 bits), Multinomial sample i takes
 * words 2i, 2i+1; normals come in Box–Muller pairs (elements 2j, 2j+1 from
 * the uniforms of words 2j, 2j+1, or 4j..4j+3 in float64). Word w is word
 * w % 4 of the block with counter {w / 4 (64 bits), run (64 bits)}.
 *
 *   - With attribute seed: the key is a hash of the seed (a double; -0 is
 *     0) and run is 0, so the output is a pure function of (seed, element
 *     index): the same seed gives the same tensor every run, on every engine.
 *   - Without seed: the key is a hash of the node's name and run counts the
 *     node's runs (kept in the kernel's state), so successive runs differ
 *     while a program is reproducible from its creation.
 *
 * Support (check_supported): the output dtype is float16, float32 or float64
 * (Bernoulli: any numeric dtype or bool, holding 0/1; Multinomial: int32 or
 * int64); Bernoulli and Multinomial inputs are float16/32/64; the output
 * shape (the shape attribute, or the input's shape when it is static) has at
 * most 2^31 elements; Multinomial has sample_size >= 1 and a rank-2 input.
 *
 * Include after (or instead of) ge_graph.h; define GE_DSA_IMPLEMENTATION (or
 * GE_IMPLEMENTATION) in one translation unit. Kernels are thread-safe: each
 * keeps its state in its own context.
 */
#ifndef GE_ENGINE_DSA_H
#define GE_ENGINE_DSA_H

#include "ge_graph.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The engine descriptor: "DSAEngine", accelerator "Dsa", cost 2, device. */
GE_API const ge_engine *ge_dsa_engine(void);
/* The kernel for a random op node (default domain), or NULL. */
GE_API ge_kernel_fn ge_dsa_kernel(const ge_node *n);

#ifdef __cplusplus
}
#endif
#endif /* GE_ENGINE_DSA_H */

#if defined(GE_IMPLEMENTATION) || defined(GE_DSA_IMPLEMENTATION)
#ifndef GE_DSA_IMPLEMENTATION_DONE
#define GE_DSA_IMPLEMENTATION_DONE

#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------- the generator */

/* Philox4x32-10: out = the ten-round bijection of ctr under key. */
static void ge__dsa_philox(const uint32_t ctr[4], const uint32_t key[2], uint32_t out[4]) {
  uint32_t c0 = ctr[0], c1 = ctr[1], c2 = ctr[2], c3 = ctr[3], k0 = key[0], k1 = key[1];
  int r;
  for (r = 0; r < 10; r++) {
    uint64_t p0 = (uint64_t)0xD2511F53u * c0, p1 = (uint64_t)0xCD9E8D57u * c2;
    uint32_t n0 = (uint32_t)(p1 >> 32) ^ c1 ^ k0, n2 = (uint32_t)(p0 >> 32) ^ c3 ^ k1;
    c1 = (uint32_t)p1;
    c3 = (uint32_t)p0;
    c0 = n0;
    c2 = n2;
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  out[0] = c0;
  out[1] = c1;
  out[2] = c2;
  out[3] = c3;
}

/* A stream of words: word w is word w % 4 of block w / 4. */
typedef struct ge__dsa_gen {
  uint32_t key[2];
  uint64_t run, block;
  uint32_t w[4];
  int pos;
} ge__dsa_gen;

static void ge__dsa_gen_start(ge__dsa_gen *g, const uint32_t key[2], uint64_t run) {
  g->key[0] = key[0];
  g->key[1] = key[1];
  g->run = run;
  g->block = 0;
  g->pos = 4;
}

static uint32_t ge__dsa_next(ge__dsa_gen *g) {
  if (g->pos == 4) {
    uint32_t ctr[4];
    ctr[0] = (uint32_t)g->block;
    ctr[1] = (uint32_t)(g->block >> 32);
    ctr[2] = (uint32_t)g->run;
    ctr[3] = (uint32_t)(g->run >> 32);
    ge__dsa_philox(ctr, g->key, g->w);
    g->block++;
    g->pos = 0;
  }
  return g->w[g->pos++];
}

/* Uniform in [0, 1) from the top 24 bits of one word / 53 bits of two. */
static double ge__dsa_u24(ge__dsa_gen *g) { return (double)(ge__dsa_next(g) >> 8) * (1.0 / 16777216.0); }
static double ge__dsa_u53(ge__dsa_gen *g) {
  uint64_t hi = ge__dsa_next(g), lo = ge__dsa_next(g);
  return (double)(((hi << 32) | lo) >> 11) * (1.0 / 9007199254740992.0);
}

/* Box–Muller: two uniforms in [0, 1) to two standard normals. */
static void ge__dsa_box_muller(double u1, double u2, double *z0, double *z1) {
  double r = sqrt(-2.0 * log(1.0 - u1)), t = 6.283185307179586476925 * u2;
  *z0 = r * cos(t);
  *z1 = r * sin(t);
}

/* splitmix64's finalizer: a 64-bit bijection that mixes every bit. */
static uint64_t ge__dsa_mix(uint64_t z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static void ge__dsa_key_of_seed(double seed, uint32_t key[2]) {
  uint64_t bits, k;
  if (seed == 0) seed = 0; /* -0 is 0 */
  memcpy(&bits, &seed, sizeof bits);
  k = ge__dsa_mix(bits);
  key[0] = (uint32_t)k;
  key[1] = (uint32_t)(k >> 32);
}

static void ge__dsa_key_of_name(const char *name, uint32_t key[2]) {
  uint64_t h = 0xcbf29ce484222325ull, k; /* FNV-1a */
  for (; name && *name; name++) h = (h ^ (unsigned char)*name) * 0x100000001b3ull;
  k = ge__dsa_mix(h ^ 0x6473614e616d6521ull);
  key[0] = (uint32_t)k;
  key[1] = (uint32_t)(k >> 32);
}

/* ------------------------------------------------ float16 and elements */

/* The float16 just below h (h finite or +inf). */
static uint16_t ge__dsa_h_below(uint16_t h) {
  return (uint16_t)(h == 0 ? 0x8001u : (h & 0x8000u) ? h + 1u : h - 1u);
}

static int ge__dsa_is_float(int64_t t) {
  return t == GE_DTYPE_FLOAT16 || t == GE_DTYPE_FLOAT32 || t == GE_DTYPE_FLOAT64;
}

/* Bernoulli's outputs: numeric dtypes and bool. */
static int ge__dsa_is_bernoulli_out(int64_t t) {
  return t > 0 && t < GE_DTYPE_COUNT && t != GE_DTYPE_STRING && t != GE_DTYPE_COMPLEX64 && t != GE_DTYPE_COMPLEX128;
}

/* Element i of a float16/32/64 value. */
static double ge__dsa_load(const ge_value *v, int64_t i) {
  switch (v->dtype) {
  case GE_DTYPE_FLOAT16: return ge_half_to_float(((const uint16_t *)v->data)[i]);
  case GE_DTYPE_FLOAT32: return ((const float *)v->data)[i];
  default: return ((const double *)v->data)[i];
  }
}

/* Stores 0 or 1 as element i of a Bernoulli output. */
static void ge__dsa_store01(ge_value *v, int64_t i, int one) {
  void *p = v->data;
  switch (v->dtype) {
  case GE_DTYPE_FLOAT16: ((uint16_t *)p)[i] = (uint16_t)(one ? 0x3C00u : 0); break;
  case GE_DTYPE_BFLOAT16: ((uint16_t *)p)[i] = (uint16_t)(one ? 0x3F80u : 0); break;
  case GE_DTYPE_FLOAT32: ((float *)p)[i] = (float)one; break;
  case GE_DTYPE_FLOAT64: ((double *)p)[i] = (double)one; break;
  case GE_DTYPE_INT8: case GE_DTYPE_UINT8: case GE_DTYPE_BOOL: ((uint8_t *)p)[i] = (uint8_t)one; break;
  case GE_DTYPE_INT16: case GE_DTYPE_UINT16: ((uint16_t *)p)[i] = (uint16_t)one; break;
  case GE_DTYPE_INT32: case GE_DTYPE_UINT32: ((uint32_t *)p)[i] = (uint32_t)one; break;
  default: ((uint64_t *)p)[i] = (uint64_t)one; break;
  }
}

/* ------------------------------------------------------------- kernels */

enum { GE__DSA_UNIFORM, GE__DSA_NORMAL, GE__DSA_UNIFORM_LIKE, GE__DSA_NORMAL_LIKE, GE__DSA_BERNOULLI, GE__DSA_MULTINOMIAL };

/* A kernel's state: the node's attributes, read on the first run, and the
 * run counter; Multinomial's scratch (scratch_cap doubles) follows it in
 * the same block, so the executor's free() releases everything. */
typedef struct ge__dsa_state {
  uint64_t runs;
  uint64_t scratch_cap;
  double a, b; /* low, high or mean, scale */
  int64_t sample_size;
  int64_t dims[GE_MAX_RANK];
  int32_t rank;
  int32_t dtype; /* 0: the input's */
  int32_t seeded;
  uint32_t key[2];
} ge__dsa_state;

static ge_status ge__dsa_state_get(ge_kernel_ctx *c, int kind, ge__dsa_state **out) {
  const ge_node *n = c->node;
  ge__dsa_state *s = (ge__dsa_state *)c->state;
  int normal = kind == GE__DSA_NORMAL || kind == GE__DSA_NORMAL_LIKE;
  if (s) {
    *out = s;
    return GE_OK;
  }
  s = (ge__dsa_state *)calloc(1, sizeof *s);
  if (!s) return ge_kernel_error(c, GE_ERR_NOMEM, "out of memory");
  s->a = ge_node_attr_float(n, normal ? "mean" : "low", 0.0);
  s->b = ge_node_attr_float(n, normal ? "scale" : "high", 1.0);
  s->dtype = (int32_t)ge_node_attr_int(n, "dtype", kind == GE__DSA_UNIFORM || kind == GE__DSA_NORMAL ? GE_DTYPE_FLOAT32
                                                    : kind == GE__DSA_MULTINOMIAL                   ? GE_DTYPE_INT32
                                                                                                    : GE_DTYPE_UNDEFINED);
  s->sample_size = ge_node_attr_int(n, "sample_size", 1);
  s->seeded = ge_node_attr(n, "seed") != NULL;
  if (s->seeded) ge__dsa_key_of_seed(ge_node_attr_float(n, "seed", 0.0), s->key);
  else ge__dsa_key_of_name(n->name, s->key);
  if (kind == GE__DSA_UNIFORM || kind == GE__DSA_NORMAL) {
    const int64_t *dims = NULL;
    int32_t r = ge_node_attr_ints(n, "shape", &dims), i;
    if (r < 0 || r > GE_MAX_RANK) {
      free(s);
      return ge_kernel_error(c, GE_ERR_INVALID, r < 0 ? "attribute 'shape' is missing" : "shape has more than %d dims",
                             GE_MAX_RANK);
    }
    for (i = 0; i < r; i++) {
      if (dims[i] < 0) {
        free(s);
        return ge_kernel_error(c, GE_ERR_INVALID, "shape entry %d is negative (%lld)", (int)i, (long long)dims[i]);
      }
      s->dims[i] = dims[i];
    }
    s->rank = r;
  }
  if (kind == GE__DSA_MULTINOMIAL && s->sample_size < 1) {
    ge_status st = ge_kernel_error(c, GE_ERR_INVALID, "sample_size %lld is below 1", (long long)s->sample_size);
    free(s);
    return st;
  }
  c->state = s;
  *out = s;
  return GE_OK;
}

/* The output dtype: the attribute's, else the input's; must satisfy ok. */
static ge_status ge__dsa_out_dtype(ge_kernel_ctx *c, const ge__dsa_state *s, const ge_value *x, int (*ok)(int64_t),
                                   const char *allowed, ge_dtype *out) {
  int64_t t = s->dtype ? s->dtype : x ? (int64_t)x->dtype : 0;
  if (!ok(t))
    return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "output dtype %s is not %s",
                           t > 0 && t < GE_DTYPE_COUNT ? ge_dtype_name((ge_dtype)t) : "invalid", allowed);
  *out = (ge_dtype)t;
  return GE_OK;
}

static ge_status ge__dsa_float_input(ge_kernel_ctx *c, const ge_value *x) {
  if (!x) return ge_kernel_error(c, GE_ERR_INVALID, "input 0 is absent");
  if (!ge__dsa_is_float(x->dtype))
    return ge_kernel_error(c, GE_ERR_UNSUPPORTED, "input dtype %s is not float16, float32 or float64",
                           ge_dtype_name(x->dtype));
  return GE_OK;
}

/* RandomUniform, RandomNormal and their Like forms. */
static ge_status ge__dsa_generate(ge_kernel_ctx *c, int kind) {
  ge__dsa_state *s;
  const ge_value *x = c->num_inputs ? c->inputs[0] : NULL;
  int like = kind == GE__DSA_UNIFORM_LIKE || kind == GE__DSA_NORMAL_LIKE;
  int normal = kind == GE__DSA_NORMAL || kind == GE__DSA_NORMAL_LIKE;
  ge__dsa_gen g;
  ge_value *y;
  ge_dtype dt = GE_DTYPE_UNDEFINED;
  ge_status st;
  int64_t i, n;
  double a, b, z1 = 0;
  if ((st = ge__dsa_state_get(c, kind, &s))) return st;
  if (like && !x) return ge_kernel_error(c, GE_ERR_INVALID, "input 0 is absent");
  if ((st = ge__dsa_out_dtype(c, s, like ? x : NULL, ge__dsa_is_float, "float16, float32 or float64", &dt))) return st;
  if (!(y = like ? ge_kernel_output(c, 0, dt, x->rank, x->dims) : ge_kernel_output(c, 0, dt, s->rank, s->dims)))
    return c->err ? c->err->code : GE_ERR_NOMEM;
  ge__dsa_gen_start(&g, s->key, s->seeded ? 0 : s->runs);
  s->runs++;
  n = y->numel;
  a = s->a;
  b = s->b;
  for (i = 0; i < n; i++) {
    double v;
    if (normal) {
      double z0;
      if (i & 1) {
        v = z1;
      } else if (dt == GE_DTYPE_FLOAT64) {
        double u1 = ge__dsa_u53(&g), u2 = ge__dsa_u53(&g);
        ge__dsa_box_muller(u1, u2, &z0, &z1);
        v = z0;
      } else {
        double u1 = ge__dsa_u24(&g), u2 = ge__dsa_u24(&g);
        ge__dsa_box_muller(u1, u2, &z0, &z1);
        v = z0;
      }
      v = a + b * v;
    } else {
      v = a + (b - a) * (dt == GE_DTYPE_FLOAT64 ? ge__dsa_u53(&g) : ge__dsa_u24(&g));
    }
    /* uniform: rounding must not reach high */
    switch (dt) {
    case GE_DTYPE_FLOAT64:
      if (!normal && b > a && v >= b) v = nextafter(b, a);
      ((double *)y->data)[i] = v;
      break;
    case GE_DTYPE_FLOAT32: {
      float f = (float)v;
      if (!normal && b > a && (double)f >= b) f = nextafterf(f, (float)a);
      ((float *)y->data)[i] = f;
      break;
    }
    default: {
      uint16_t h = ge_float_to_half((float)v);
      if (!normal && b > a && (double)ge_half_to_float(h) >= b) h = ge__dsa_h_below(h);
      ((uint16_t *)y->data)[i] = h;
      break;
    }
    }
  }
  return GE_OK;
}

static ge_status ge__dsa_random_uniform(ge_kernel_ctx *c) { return ge__dsa_generate(c, GE__DSA_UNIFORM); }
static ge_status ge__dsa_random_normal(ge_kernel_ctx *c) { return ge__dsa_generate(c, GE__DSA_NORMAL); }
static ge_status ge__dsa_random_uniform_like(ge_kernel_ctx *c) { return ge__dsa_generate(c, GE__DSA_UNIFORM_LIKE); }
static ge_status ge__dsa_random_normal_like(ge_kernel_ctx *c) { return ge__dsa_generate(c, GE__DSA_NORMAL_LIKE); }

/* Bernoulli: y[i] = u_i < x[i] (u from 53 bits over float64, else 24). */
static ge_status ge__dsa_bernoulli(ge_kernel_ctx *c) {
  ge__dsa_state *s;
  const ge_value *x = c->num_inputs ? c->inputs[0] : NULL;
  ge__dsa_gen g;
  ge_value *y;
  ge_dtype dt = GE_DTYPE_UNDEFINED;
  ge_status st;
  int64_t i;
  if ((st = ge__dsa_state_get(c, GE__DSA_BERNOULLI, &s)) || (st = ge__dsa_float_input(c, x)) ||
      (st = ge__dsa_out_dtype(c, s, x, ge__dsa_is_bernoulli_out, "numeric or bool", &dt)))
    return st;
  if (!(y = ge_kernel_output(c, 0, dt, x->rank, x->dims))) return c->err ? c->err->code : GE_ERR_NOMEM;
  ge__dsa_gen_start(&g, s->key, s->seeded ? 0 : s->runs);
  s->runs++;
  for (i = 0; i < x->numel; i++) {
    double u = x->dtype == GE_DTYPE_FLOAT64 ? ge__dsa_u53(&g) : ge__dsa_u24(&g);
    ge__dsa_store01(y, i, u < ge__dsa_load(x, i));
  }
  return GE_OK;
}

static int ge__dsa_is_index(int64_t t) { return t == GE_DTYPE_INT32 || t == GE_DTYPE_INT64; }

/* Multinomial: per row, the cumulative sums of exp(x - max) in scratch;
 * sample j of row r takes u (53 bits, element r * sample_size + j) and the
 * first class whose cumulative sum exceeds u * total. */
static ge_status ge__dsa_multinomial(ge_kernel_ctx *c) {
  ge__dsa_state *s;
  const ge_value *x = c->num_inputs ? c->inputs[0] : NULL;
  ge__dsa_gen g;
  ge_value *y;
  ge_dtype dt = GE_DTYPE_UNDEFINED;
  ge_status st;
  int64_t dims[2], rows, k, r, j, ss;
  double *cum;
  if ((st = ge__dsa_state_get(c, GE__DSA_MULTINOMIAL, &s)) || (st = ge__dsa_float_input(c, x)) ||
      (st = ge__dsa_out_dtype(c, s, x, ge__dsa_is_index, "int32 or int64", &dt)))
    return st;
  if (x->rank != 2) return ge_kernel_error(c, GE_ERR_SHAPE, "input has rank %d, expected 2", (int)x->rank);
  rows = x->dims[0];
  k = x->dims[1];
  ss = s->sample_size;
  if (k < 1 && rows > 0) return ge_kernel_error(c, GE_ERR_SHAPE, "input has no classes (class_size 0)");
  if ((uint64_t)k > s->scratch_cap) { /* grow the state block; c->state follows it */
    ge__dsa_state *t;
    if ((uint64_t)k > (SIZE_MAX - sizeof *s) / sizeof(double))
      return ge_kernel_error(c, GE_ERR_NOMEM, "class_size %lld is too large", (long long)k);
    t = (ge__dsa_state *)realloc(s, sizeof *s + (size_t)k * sizeof(double));
    if (!t) return ge_kernel_error(c, GE_ERR_NOMEM, "out of memory");
    c->state = s = t;
    s->scratch_cap = (uint64_t)k;
  }
  cum = (double *)(void *)(s + 1);
  dims[0] = rows;
  dims[1] = ss;
  if (!(y = ge_kernel_output(c, 0, dt, 2, dims))) return c->err ? c->err->code : GE_ERR_NOMEM;
  ge__dsa_gen_start(&g, s->key, s->seeded ? 0 : s->runs);
  s->runs++;
  for (r = 0; r < rows; r++) {
    double mx = -HUGE_VAL, total = 0;
    int64_t i;
    for (i = 0; i < k; i++) {
      double v = ge__dsa_load(x, r * k + i);
      if (v > mx) mx = v;
    }
    for (i = 0; i < k; i++) {
      double v = ge__dsa_load(x, r * k + i);
      total += v == v && mx > -HUGE_VAL ? exp(v - mx) : 0;
      cum[i] = total;
    }
    if (!(total > 0) || total >= HUGE_VAL)
      return ge_kernel_error(c, GE_ERR_INVALID, "row %lld has no finite positive probability", (long long)r);
    for (j = 0; j < ss; j++) {
      double t = ge__dsa_u53(&g) * total;
      int64_t lo = 0, hi = k - 1; /* first i with cum[i] > t; cum[k-1] = total > t */
      while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (cum[mid] > t) hi = mid;
        else lo = mid + 1;
      }
      if (dt == GE_DTYPE_INT32) ((int32_t *)y->data)[r * ss + j] = (int32_t)lo;
      else ((int64_t *)y->data)[r * ss + j] = lo;
    }
  }
  return GE_OK;
}

/* ------------------------------------------------------------- engine */

/* Sorted by strcmp (ge_op_in_sorted), with the kernels in the same order. */
static const char *const ge__dsa_ops[] = {"Bernoulli",        "Multinomial",   "RandomNormal",
                                          "RandomNormalLike", "RandomUniform", "RandomUniformLike"};
static const ge_kernel_fn ge__dsa_fns[] = {ge__dsa_bernoulli,          ge__dsa_multinomial,   ge__dsa_random_normal,
                                           ge__dsa_random_normal_like, ge__dsa_random_uniform, ge__dsa_random_uniform_like};
#define GE__DSA_NUM_OPS (sizeof ge__dsa_ops / sizeof ge__dsa_ops[0])

GE_API ge_kernel_fn ge_dsa_kernel(const ge_node *n) {
  size_t lo = 0, hi = GE__DSA_NUM_OPS;
  if (!ge_node_in_onnx_domain(n)) return NULL;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int d = strcmp(n->op, ge__dsa_ops[mid]);
    if (d == 0) return ge__dsa_fns[mid];
    if (d < 0) hi = mid;
    else lo = mid + 1;
  }
  return NULL;
}

#define GE__DSA_2P31 ((int64_t)1 << 31)

/* Refuses a shape of more than 2^31 elements (unknown dims pass). */
static int ge__dsa_check_numel(const int64_t *dims, int32_t rank, int64_t extra, char *why, size_t cap) {
  int64_t p = extra;
  int32_t i;
  for (i = 0; i < rank; i++)
    if (dims[i] < 0) return 1;
  for (i = 0; i < rank; i++) {
    if (dims[i] == 0) return 1;
    if (p > GE__DSA_2P31 / dims[i]) return ge_engine_why(why, cap, "more than 2^31 elements");
    p *= dims[i];
  }
  return 1;
}

static int ge__dsa_check_supported(const ge_engine *e, const ge_graph *g, const ge_node *n, char *why, size_t cap) {
  const ge_tensor_desc *x;
  const char *op = n->op;
  int64_t dt;
  (void)e;
  if (!ge_node_in_onnx_domain(n)) return ge_engine_why(why, cap, "domain '%s' is not onnx", n->domain);
  if (!ge_op_in_sorted(op, ge__dsa_ops, GE__DSA_NUM_OPS)) return ge_engine_why(why, cap, "not a random op");
  if (!strcmp(op, "RandomUniform") || !strcmp(op, "RandomNormal")) {
    const int64_t *dims = NULL;
    int32_t r = ge_node_attr_ints(n, "shape", &dims), i;
    dt = ge_node_attr_int(n, "dtype", GE_DTYPE_FLOAT32);
    if (!ge__dsa_is_float(dt)) goto bad_float;
    if (r < 0) return ge_engine_why(why, cap, "no shape attribute");
    if (r > GE_MAX_RANK) return ge_engine_why(why, cap, "shape has %d dims, more than %d", (int)r, GE_MAX_RANK);
    for (i = 0; i < r; i++)
      if (dims[i] < 0) return ge_engine_why(why, cap, "shape entry %d is negative", (int)i);
    return ge__dsa_check_numel(dims, r, 1, why, cap);
  }
  x = n->num_inputs ? ge_node_input_desc(g, n, 0) : NULL;
  if (!x) return ge_engine_why(why, cap, "input 0 is absent");
  if (!strcmp(op, "Multinomial")) {
    int64_t ss = ge_node_attr_int(n, "sample_size", 1);
    dt = ge_node_attr_int(n, "dtype", GE_DTYPE_INT32);
    if (!ge__dsa_is_index(dt))
      return ge_engine_why(why, cap, "output dtype %s is not int32 or int64",
                           dt > 0 && dt < GE_DTYPE_COUNT ? ge_dtype_name((ge_dtype)dt) : "invalid");
    if (ss < 1) return ge_engine_why(why, cap, "sample_size %lld is below 1", (long long)ss);
    if (!ge__dsa_is_float(x->dtype)) goto bad_input;
    if (x->shape.rank >= 0 && x->shape.rank != 2) return ge_engine_why(why, cap, "input rank %d is not 2", (int)x->shape.rank);
    return x->shape.rank == 2 ? ge__dsa_check_numel(x->shape.dims, 1, ss, why, cap) : 1;
  }
  dt = ge_node_attr_int(n, "dtype", x->dtype);
  if (!strcmp(op, "Bernoulli")) {
    if (!ge__dsa_is_float(x->dtype)) goto bad_input;
    if (!ge__dsa_is_bernoulli_out(dt))
      return ge_engine_why(why, cap, "output dtype %s is not numeric or bool",
                           dt > 0 && dt < GE_DTYPE_COUNT ? ge_dtype_name((ge_dtype)dt) : "invalid");
  } else if (!ge__dsa_is_float(dt)) {
    goto bad_float;
  }
  return x->shape.rank >= 0 ? ge__dsa_check_numel(x->shape.dims, x->shape.rank, 1, why, cap) : 1;
bad_float:
  return ge_engine_why(why, cap, "output dtype %s is not float16, float32 or float64",
                       dt > 0 && dt < GE_DTYPE_COUNT ? ge_dtype_name((ge_dtype)dt) : "invalid");
bad_input:
  return ge_engine_why(why, cap, "input dtype %s is not float16, float32 or float64", ge_dtype_name(x->dtype));
}

static ge_kernel_fn ge__dsa_engine_kernel(const ge_engine *e, const ge_node *n) {
  (void)e;
  return ge_dsa_kernel(n);
}

static const ge_engine ge__dsa_engine_desc = {
    GE_ENGINE_ABI_VERSION, "DSAEngine", "Dsa", 2, GE_RUNTIME_DEVICE, 0u, NULL, ge__dsa_check_supported,
    ge__dsa_engine_kernel, NULL, NULL, NULL, NULL, NULL};

GE_API const ge_engine *ge_dsa_engine(void) { return &ge__dsa_engine_desc; }

#ifdef __cplusplus
}
#endif
#endif /* GE_DSA_IMPLEMENTATION_DONE */
#endif /* GE_DSA_IMPLEMENTATION */

/* ge_onnx.h — ONNX import and export for ge.
 *
 * Part of ge, a heterogeneous graph compiler and executor. A single-file
 * module: include it anywhere for the declarations, and in one translation
 * unit define GE_ONNX_IMPLEMENTATION (or GE_IMPLEMENTATION) before including
 * it to compile the implementation. GE_STATIC makes every definition static.
 * It needs ge_graph.h (and its implementation somewhere in the program) and
 * libc; it reads and writes the protobuf wire format itself (no protobuf
 * library, no generated code).
 *
 *   ge_graph *g;
 *   ge_error err;
 *   if (ge_onnx_load("model.onnx", NULL, &g, &err)) fprintf(stderr, "%s\n", err.message);
 *   ... ge_graph_infer_shapes(g, &err) ... ge_onnx_save(g, "copy.onnx", &err);
 *   ge_graph_free(g);
 *
 * What an imported graph looks like (ONNX IR versions 3..11, default-domain
 * opsets up to 18):
 *   - Graph inputs that have no initializer become Data nodes named after the
 *     input, attribute "index" in input order, output desc from the declared
 *     type: dim_value -> the size, dim_param -> -1 with the symbol in the dim's
 *     ge_dim_info, a dimension with neither -> -1, no shape -> unknown rank.
 *   - Initializers become Const nodes named after the initializer, output 0
 *     named the same. From IR version 4 on, an initializer that is also a
 *     graph input (a default the caller may override) records its position
 *     in the ONNX input list as attribute "onnx_input_index" (int) on the
 *     Const (before IR 4 every initializer is an input). Data comes from
 *     raw_data, the typed fields (float_data, int32_data with the 8/16-bit and
 *     bool types packed into it, int64_data, double_data, uint64_data,
 *     string_data) or external data (data_location EXTERNAL, keys location /
 *     offset / length, relative to the model's directory; absolute locations
 *     and ".." components are refused). Weights of at least
 *     ge_onnx_desc.borrow_min_bytes (default 1 KiB) that are suitably aligned
 *     are borrowed zero-copy from the mapped model file (ge_onnx_load only) or
 *     external file; the graph keeps the mapping alive.
 *   - Constant nodes become Const nodes (value, value_float(s), value_int(s),
 *     value_string(s)); the node keeps the ONNX node's name, its output the
 *     ONNX value name.
 *   - Every other node keeps op type, domain (NULL for "" and "ai.onnx") and
 *     its name. Empty or repeated names are made unique ("<op>_<k>",
 *     "<name>_<k>"). Inputs are wired by value name; "" is an absent optional
 *     input. Output descs are named after the ONNX values ("" outputs stay
 *     unnamed). Attributes map to ge types: INT -> int, FLOAT -> float
 *     (double), STRING -> string, TENSOR(S) -> tensor(s), GRAPH(S) ->
 *     graph(s), INTS / FLOATS / STRINGS -> lists.
 *   - Graph outputs become the NetOutput node's inputs, its outputs named
 *     after the graph outputs (a graph without outputs has no NetOutput).
 *     value_info and the output types fill in what the producing node's
 *     output desc does not know yet (they never overwrite a known dtype or
 *     dimension).
 *   - Nodes may come in any order; data flow with a cycle is GE_ERR_FORMAT
 *     (ONNX nodes must be topologically sortable).
 *   - Subgraphs (If then/else_branch, Loop and Scan body, any graph
 *     attribute) become nested ge graphs. Their formal inputs are Data nodes
 *     with "index". A name a subgraph uses but does not define is an
 *     outer-scope reference: it is resolved in the enclosing graphs (through
 *     any number of levels), appended as an extra input of the node that holds
 *     the subgraph (one input per distinct outer value per node, shared by
 *     all of that node's subgraphs), and stands in the subgraph as a Data node
 *     with attribute "parent_index" = that input's index (and its output desc
 *     copied from the outer value). Inside an intermediate level the value is
 *     itself such a Data node, so If inside Loop inside If works.
 *   - The root graph records the model in graph attributes: "onnx_ir_version",
 *     "onnx_opset" (default domain), "onnx_opset:<domain>" (others),
 *     "onnx_producer", "onnx_producer_version", "onnx_model_domain",
 *     "onnx_model_version", "onnx_doc_string", "onnx_metadata:<key>".
 *   - Values whose type is not a tensor (sequence, optional, map, sparse
 *     tensor, opaque) keep their type as text: attribute "onnx_type" on a
 *     Data node, list attribute "onnx_output_types" on the NetOutput ("" for
 *     tensor outputs). The text reads like "seq(tensor(float32)[N,3])",
 *     "optional(seq(tensor(int64)))", "map(int64,tensor(float32))".
 *
 * Domains: every domain a node uses needs an opset import (ONNX's rule;
 * GE_ERR_FORMAT otherwise); a default-domain opset above 18 is
 * GE_ERR_UNSUPPORTED. ge's structural ops that are not ONNX ops
 * (PartitionedCall, Case, While, ... see ge_graph.h) are written in domain
 * "ge" and read back into the default domain; in the default domain of a
 * file they are refused (GE_ERR_UNSUPPORTED), since ge would give them its
 * own meaning. Nothing else is rejected for its domain: a node of a domain
 * the op registry has no schema for is an ordinary node without a schema
 * (an unknown op, which ge_graph_validate accepts with allow_unknown_ops);
 * the first such node of each domain is reported through the log callback.
 *
 * Refused (GE_ERR_FORMAT / GE_ERR_SHAPE naming the value): an opset version
 * <= 0, a declared dim below -1, a declared shape whose size overflows, a
 * root graph output whose declared dtype, rank or dims contradict what shape
 * inference computes from the declared inputs.
 *
 * Not supported (GE_ERR_UNSUPPORTED naming the node / value): sparse tensors
 * (sparse_initializer, SPARSE_TENSOR attributes, Constant sparse_value),
 * TYPE_PROTO attributes, calls to model-local functions (FunctionProto),
 * TensorProto segments, element types past bfloat16 (float8, int4), ranks
 * above GE_MAX_RANK, strings containing a NUL byte. Dropped with a log
 * message: training_info, unused model-local functions,
 * quantization_annotation. Dropped silently: doc strings of nodes, graphs and
 * values, dimension denotations, names of tensors held in attributes.
 *
 * Export (ge_onnx_save) writes a ModelProto: Data nodes (by index) -> graph
 * inputs (Consts with onnx_input_index are put back at their positions; the
 * input type of such an overridable initializer is the Const's own type),
 * Const nodes -> initializers with raw_data (a Const whose node name
 * differs from its output's name -> a Constant node, so the names survive),
 * other nodes in topological order (ids break ties, so an imported graph
 * keeps its node order), NetOutput -> graph outputs (an Identity node is added
 * when an output's name differs from its value's), value_info for every
 * other output whose dtype or rank is known, opset imports from the graph
 * attributes (default domain 17 when there is none, version 1 for other
 * domains nodes use without one), ir_version from "onnx_ir_version"
 * (default 8). Value names are unique across a graph and the graphs
 * enclosing it (ONNX's rule): a duplicate, or a subgraph value named like an
 * outer one, is written as "<name>_<k>". In subgraphs, a Data with
 * parent_index k becomes a reference to the name of the outer value feeding
 * input k of the node that holds the subgraph, and trailing inputs of that
 * node that are only such references are left out of the ONNX node. Every
 * node attribute is written (bool and dtype ones as ints); control edges,
 * dimension ranges and formats have no ONNX form and are dropped. Weights
 * are written inline (raw_data, no external data files). Import -> export ->
 * import keeps everything ONNX holds that is not listed as dropped above (the
 * structural hash and all names are equal, and the second export is
 * byte-identical to the first).
 *
 * Errors: malformed bytes (truncated, wrong wire types, lengths past the end,
 * varints over 10 bytes, sizes that do not match the dims, subgraphs nested
 * deeper than GE_ONNX_MAX_DEPTH, ...) give GE_ERR_FORMAT with the byte
 * offset; model-level problems (an input nothing produces, duplicate value
 * names, ...) name the node and value. Nothing is leaked on any error path.
 *
 * Memory: graphs use ge_graph_desc.allocator; the temporary state of a load
 * or save goes through the same allocator (saving: the graph's), and
 * ge_onnx_tensor through the one given. Mapped files are ge_file_map's.
 *
 * Thread safety: every call works on its own state (the log callback runs
 * on the calling thread); loading and saving distinct graphs concurrently is
 * safe, and saving one graph from several threads is safe (it only reads
 * the graph).
 *
 * Contents, in file order (each section opens with a "---- name" or
 * "==== name" comment):
 *   declarations        ge_onnx_desc, load/save (file and buffer), the
 *                       TensorProto reader ge_onnx_tensor
 *   implementation (GE_ONNX_IMPLEMENTATION)
 *     allocator, pool, map, string buffer, errors
 *                       scratch memory of one load or save, the name map,
 *                       error messages with byte offsets
 *     import            wire-format reader; tensors (raw, typed, external
 *                       data, borrowed from the mapped file); types (value
 *                       info to ge_tensor_desc); graphs (scopes and outer
 *                       references, attributes, Constant -> Const, nodes,
 *                       subgraphs, the acyclic check, the model); public API
 *     export            the writer, value naming, type text back to
 *                       TypeProto, attributes, GraphProto, ModelProto, and
 *                       the public save calls
 * Ops import generically (op type, domain, attributes as they are); only
 * Constant has its own path (ge__onnx_constant).
 */
#ifndef GE_ONNX_H
#define GE_ONNX_H

#include "ge_graph.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GE_ONNX_MAX_OPSET 18       /* newest default-domain opset imported */
#define GE_ONNX_MIN_IR_VERSION 3
#define GE_ONNX_MAX_IR_VERSION 11 /* 10: 4-bit types, metadata_props; 11: float4, device configurations (ignored) */
#define GE_ONNX_MAX_DEPTH 64       /* subgraph (and nested type) levels */
#define GE_ONNX_BORROW_MIN_BYTES 1024


/* Everything zero means the defaults. */
typedef struct ge_onnx_desc {
  ge_graph_desc graph;     /* allocator and op registry of the graphs made;
                              name NULL: the ONNX graph's name */
  size_t borrow_min_bytes; /* 0: GE_ONNX_BORROW_MIN_BYTES */
  int no_borrow;           /* 1: always copy weights into the graph */
  /* Findings that do not stop the import (module "onnx"): ignored parts
   * of the model at GE_LOG_WARN, what was read at GE_LOG_INFO. */
  ge_logger logger;
} ge_onnx_desc;

/* Reads an ONNX model file (mapped; big weights borrowed from the mapping). */
GE_API ge_status ge_onnx_load(const char *path, const ge_onnx_desc *desc, ge_graph **out, ge_error *err);
/* Reads a model from memory (copied; data need not outlive the call).
 * base_dir is where external data files live (NULL: external data is an
 * error). */
GE_API ge_status ge_onnx_load_buffer(const void *data, size_t size, const char *base_dir,
                                     const ge_onnx_desc *desc, ge_graph **out, ge_error *err);

/* Writes g (a root graph) as an ONNX model. */
GE_API ge_status ge_onnx_save(const ge_graph *g, const char *path, ge_error *err);
/* The same into memory allocated with g's allocator; free it with
 * ge_graph_free_bytes(g, *out, *size). */
GE_API ge_status ge_onnx_save_buffer(const ge_graph *g, uint8_t **out, size_t *size, ge_error *err);

/* A TensorProto read on its own (the ONNX test data stores inputs and
 * outputs as serialized TensorProto .pb files). data holds numel elements
 * in row-major order, little-endian as on the host; for GE_DTYPE_STRING it is
 * an array of numel NUL-terminated `char *`. Everything lives in one block
 * owned by the struct: free it with ge_onnx_tensor_free. */
typedef struct ge_onnx_tensor {
  const char *name; /* "" when the tensor has none */
  ge_dtype dtype;
  int32_t rank;
  int64_t dims[GE_MAX_RANK];
  int64_t numel;
  void *data;
  size_t nbytes; /* numel * dtype size; for strings numel * sizeof(char *) */
  /* private */
  ge_allocator allocator;
  void *block;
  size_t block_size;
} ge_onnx_tensor;

/* A NULL (or zero) allocator means the default (ge_allocator_or_default:
 * libc, or mimalloc with GE_USE_MIMALLOC). External data is refused by
 * read_tensor (no directory to find it in); read_tensor_file resolves it
 * next to the file. */
GE_API ge_status ge_onnx_read_tensor(const void *data, size_t size, const ge_allocator *a, ge_onnx_tensor *out,
                                     ge_error *err);
GE_API ge_status ge_onnx_read_tensor_file(const char *path, const ge_allocator *a, ge_onnx_tensor *out,
                                          ge_error *err);
GE_API void ge_onnx_tensor_free(ge_onnx_tensor *t);
/* A ge_tensor viewing t's storage (valid while t is). */
GE_API void ge_onnx_tensor_view(const ge_onnx_tensor *t, ge_tensor *view);

#ifdef __cplusplus
}
#endif
#endif /* GE_ONNX_H */

/* ===================================================================== */
/*                            IMPLEMENTATION                             */
/* ===================================================================== */

#if defined(GE_IMPLEMENTATION) || defined(GE_ONNX_IMPLEMENTATION)
#ifndef GE_ONNX_IMPLEMENTATION_DONE
#define GE_ONNX_IMPLEMENTATION_DONE

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#define GE__ONNX_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define GE__ONNX_PRINTF(fmt, args)
#endif

/* ONNX AttributeProto.AttributeType */
enum {
  GE__ONNX_A_UNDEFINED = 0, GE__ONNX_A_FLOAT = 1, GE__ONNX_A_INT = 2, GE__ONNX_A_STRING = 3,
  GE__ONNX_A_TENSOR = 4, GE__ONNX_A_GRAPH = 5, GE__ONNX_A_FLOATS = 6, GE__ONNX_A_INTS = 7,
  GE__ONNX_A_STRINGS = 8, GE__ONNX_A_TENSORS = 9, GE__ONNX_A_GRAPHS = 10, GE__ONNX_A_SPARSE_TENSOR = 11,
  GE__ONNX_A_SPARSE_TENSORS = 12, GE__ONNX_A_TYPE_PROTO = 13, GE__ONNX_A_TYPE_PROTOS = 14
};

/* ------------------------------------------------------------ allocator */

/* The default allocator is ge_graph.h's (ge_allocator_or_default). */
static void *ge__onnx_malloc(const ge_allocator *a, size_t n) { return a->alloc(a->user, n ? n : 1); }
static void ge__onnx_mfree(const ge_allocator *a, void *p, size_t n) {
  if (p) a->free(a->user, p, n ? n : 1);
}
static void *ge__onnx_mrealloc(const ge_allocator *a, void *p, size_t old_n, size_t n) {
  void *q;
  if (!p) return ge__onnx_malloc(a, n);
  if (a->realloc) return a->realloc(a->user, p, old_n ? old_n : 1, n ? n : 1);
  q = ge__onnx_malloc(a, n);
  if (q) {
    memcpy(q, p, old_n < n ? old_n : n);
    ge__onnx_mfree(a, p, old_n);
  }
  return q;
}

/* ----------------------------------------------------------------- pool */

/* Bump allocation for the short-lived strings and arrays of one import or
 * export; everything goes at once when it ends. */
typedef struct ge__onnx_blk {
  struct ge__onnx_blk *next;
  size_t size, used;
} ge__onnx_blk;

typedef struct ge__onnx_pool {
  ge_allocator a;
  ge__onnx_blk *head;
} ge__onnx_pool;

#define GE__ONNX_BLK_HDR ((sizeof(ge__onnx_blk) + 15) & ~(size_t)15)
#define GE__ONNX_BLK_SIZE ((size_t)16384)

static void *ge__onnx_palloc(ge__onnx_pool *p, size_t n) {
  ge__onnx_blk *b = p->head, *nb;
  size_t size;
  if (n > SIZE_MAX / 2) return NULL;
  n = (n + 7) & ~(size_t)7;
  if (n == 0) n = 8;
  if (b && b->size - b->used >= n) {
    void *r = (char *)b + b->used;
    b->used += n;
    return r;
  }
  size = n + GE__ONNX_BLK_HDR > GE__ONNX_BLK_SIZE ? n + GE__ONNX_BLK_HDR : GE__ONNX_BLK_SIZE;
  nb = (ge__onnx_blk *)ge__onnx_malloc(&p->a, size);
  if (!nb) return NULL;
  nb->size = size;
  nb->used = GE__ONNX_BLK_HDR + n;
  if (size > GE__ONNX_BLK_SIZE && b) { /* a big block: keep the current one for small requests */
    nb->next = b->next;
    b->next = nb;
  } else {
    nb->next = b;
    p->head = nb;
  }
  return (char *)nb + GE__ONNX_BLK_HDR;
}

static char *ge__onnx_pstrn(ge__onnx_pool *p, const char *s, size_t n) {
  char *r = (char *)ge__onnx_palloc(p, n + 1);
  if (r) {
    if (n) memcpy(r, s, n);
    r[n] = 0;
  }
  return r;
}

static void ge__onnx_pool_free(ge__onnx_pool *p) {
  ge__onnx_blk *b = p->head;
  while (b) {
    ge__onnx_blk *next = b->next;
    ge__onnx_mfree(&p->a, b, b->size);
    b = next;
  }
  p->head = NULL;
}

/* ------------------------------------------------------------------ map */

/* String -> (a, b), open addressing. Keys must outlive the map. */
typedef struct ge__onnx_ent {
  const char *key;
  uint64_t hash;
  int64_t a, b;
} ge__onnx_ent;

typedef struct ge__onnx_map {
  ge__onnx_ent *e;
  uint32_t cap, n;
} ge__onnx_map;

static uint64_t ge__onnx_hash(const char *s) {
  uint64_t h = 1469598103934665603ull;
  while (*s) {
    h ^= (unsigned char)*s++;
    h *= 1099511628211ull;
  }
  return h ^ (h >> 29);
}

static ge__onnx_ent *ge__onnx_map_find(const ge__onnx_map *m, const char *key) {
  uint64_t h;
  uint32_t i, mask;
  if (!m->cap) return NULL;
  h = ge__onnx_hash(key);
  mask = m->cap - 1;
  for (i = (uint32_t)h & mask; m->e[i].key; i = (i + 1) & mask)
    if (m->e[i].hash == h && strcmp(m->e[i].key, key) == 0) return &m->e[i];
  return NULL;
}

/* The entry for key, made (a = b = 0, *added = 1) when absent; NULL on OOM. */
static ge__onnx_ent *ge__onnx_map_add(const ge_allocator *a, ge__onnx_map *m, const char *key, int *added) {
  uint64_t h = ge__onnx_hash(key);
  uint32_t i, mask;
  *added = 0;
  if ((m->n + 1) * 2 > m->cap) {
    uint32_t cap = m->cap ? m->cap * 2 : 16, k;
    ge__onnx_ent *e;
    if (cap > (1u << 30)) return NULL;
    e = (ge__onnx_ent *)ge__onnx_malloc(a, (size_t)cap * sizeof *e);
    if (!e) return NULL;
    memset(e, 0, (size_t)cap * sizeof *e);
    for (k = 0; k < m->cap; k++)
      if (m->e[k].key) {
        uint32_t j = (uint32_t)m->e[k].hash & (cap - 1);
        while (e[j].key) j = (j + 1) & (cap - 1);
        e[j] = m->e[k];
      }
    ge__onnx_mfree(a, m->e, (size_t)m->cap * sizeof *e);
    m->e = e;
    m->cap = cap;
  }
  mask = m->cap - 1;
  for (i = (uint32_t)h & mask; m->e[i].key; i = (i + 1) & mask)
    if (m->e[i].hash == h && strcmp(m->e[i].key, key) == 0) return &m->e[i];
  m->e[i].key = key;
  m->e[i].hash = h;
  m->e[i].a = m->e[i].b = 0;
  m->n++;
  *added = 1;
  return &m->e[i];
}

static void ge__onnx_map_free(const ge_allocator *a, ge__onnx_map *m) {
  ge__onnx_mfree(a, m->e, (size_t)m->cap * sizeof(ge__onnx_ent));
  m->e = NULL;
  m->cap = m->n = 0;
}

/* --------------------------------------------------------- string buffer */

typedef struct ge__onnx_sb {
  char *p;
  size_t len, cap;
  const ge_allocator *a;
  int oom;
} ge__onnx_sb;

static void ge__onnx_sb_put(ge__onnx_sb *b, const char *s, size_t n) {
  if (b->oom) return;
  if (b->len + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 64;
    char *q;
    while (cap < b->len + n + 1) cap *= 2;
    q = (char *)ge__onnx_mrealloc(b->a, b->p, b->cap, cap);
    if (!q) {
      b->oom = 1;
      return;
    }
    b->p = q;
    b->cap = cap;
  }
  memcpy(b->p + b->len, s, n);
  b->len += n;
  b->p[b->len] = 0;
}
static void ge__onnx_sb_str(ge__onnx_sb *b, const char *s) { ge__onnx_sb_put(b, s, strlen(s)); }
static void ge__onnx_sb_free(ge__onnx_sb *b) {
  ge__onnx_mfree(b->a, b->p, b->cap);
  b->p = NULL;
  b->len = b->cap = 0;
}

/* A symbol or opaque name in type text: bare when it is an identifier-like
 * word, else quoted with \" and \\ escaped. */
static int ge__onnx_bare_char(char ch, int first) {
  if ((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || ch == '_') return 1;
  if (first) return 0;
  return (ch >= '0' && ch <= '9') || ch == '.' || ch == ':' || ch == '/' || ch == '-';
}
static void ge__onnx_sb_word(ge__onnx_sb *b, const char *s) {
  const char *q;
  int bare = *s != 0;
  for (q = s; *q && bare; q++) bare = ge__onnx_bare_char(*q, q == s);
  if (bare) {
    ge__onnx_sb_str(b, s);
    return;
  }
  ge__onnx_sb_put(b, "\"", 1);
  for (q = s; *q; q++) {
    if (*q == '"' || *q == '\\') ge__onnx_sb_put(b, "\\", 1);
    ge__onnx_sb_put(b, q, 1);
  }
  ge__onnx_sb_put(b, "\"", 1);
}

/* ---------------------------------------------------------------- errors */

static ge_status ge__onnx_seterr(ge_error *err, ge_status code, const char *fmt, ...) GE__ONNX_PRINTF(3, 4);
static ge_status ge__onnx_seterr(ge_error *err, ge_status code, const char *fmt, ...) {
  va_list ap;
  if (!err) return code;
  va_start(ap, fmt);
  err->code = code;
  vsnprintf(err->message, sizeof err->message, fmt, ap);
  va_end(ap);
  return code;
}

/* Prefixes err's message with context ("node 'x': ..."). When it gets too
 * long (deep subgraphs), the middle goes: the outermost context and the
 * innermost error stay. */
static void ge__onnx_context(ge_error *err, const char *fmt, ...) GE__ONNX_PRINTF(2, 3);
static void ge__onnx_context(ge_error *err, const char *fmt, ...) {
  char inner[sizeof err->message], pre[200];
  size_t lp, li, cap = sizeof err->message, head = 120;
  va_list ap;
  if (!err) return;
  memcpy(inner, err->message, sizeof inner);
  inner[sizeof inner - 1] = 0;
  va_start(ap, fmt);
  vsnprintf(pre, sizeof pre, fmt, ap);
  va_end(ap);
  lp = strlen(pre);
  li = strlen(inner);
  if (lp + 2 + li < cap) {
    memcpy(err->message, pre, lp);
    memcpy(err->message + lp, ": ", 2);
    memcpy(err->message + lp + 2, inner, li + 1);
    return;
  }
  /* pre + ": " + the first part of inner ... the end of inner */
  if (lp > head) lp = head;
  memcpy(err->message, pre, lp);
  memcpy(err->message + lp, ": ", 2);
  {
    size_t room = cap - 1 - lp - 2 - 5, keep_head = head > lp ? head - lp : 0, keep_tail;
    if (keep_head > li) keep_head = li;
    keep_tail = room - keep_head;
    if (keep_head + keep_tail >= li) {
      memcpy(err->message + lp + 2, inner, li + 1);
      err->message[cap - 1] = 0;
      return;
    }
    memcpy(err->message + lp + 2, inner, keep_head);
    memcpy(err->message + lp + 2 + keep_head, " ... ", 5);
    memcpy(err->message + lp + 2 + keep_head + 5, inner + li - keep_tail, keep_tail + 1);
  }
}

static int ge__onnx_little_endian(void) {
  const uint16_t one = 1;
  unsigned char b;
  memcpy(&b, &one, 1);
  return b == 1;
}

static void ge__onnx_swap(void *data, size_t nbytes, size_t elem) {
  unsigned char *p = (unsigned char *)data, t;
  size_t i, k;
  if (elem < 2) return;
  for (i = 0; i + elem <= nbytes; i += elem)
    for (k = 0; k < elem / 2; k++) {
      t = p[i + k];
      p[i + k] = p[i + elem - 1 - k];
      p[i + elem - 1 - k] = t;
    }
}

/* Alignment raw bytes need to be used in place as elements of dtype. */
static size_t ge__onnx_align_of(ge_dtype t) {
  size_t s = ge_dtype_size(t);
  if (t == GE_DTYPE_COMPLEX64) return 4;
  if (t == GE_DTYPE_COMPLEX128) return 8;
  return s ? s : 1;
}

/* Scalar size of a dtype for byte swapping (complex: its parts). */
static size_t ge__onnx_swap_unit(ge_dtype t) {
  if (t == GE_DTYPE_COMPLEX64) return 4;
  if (t == GE_DTYPE_COMPLEX128) return 8;
  return ge_dtype_size(t);
}

/* ge's structural ops (ge_graph.h) that are not ONNX ops. In ONNX files
 * they live in domain "ge"; a default-domain node with such a name is not
 * ONNX and is refused. */
static const char *const ge__onnx_reserved[] = {
    "Data", "Const", "Variable", "NetOutput", "PartitionedCall", "PlaceHolder", "End", "Case", "While",
    "StreamActive", "StreamSwitch", "Send", "Recv", "LabelSet", "LabelGoto", "LabelSwitchByIndex", "NoOp",
    "MemcpyAsync", "PhonyConcat", "PhonySplit", "GetDynamicDims", "MapIndex", "AllReduce", "Broadcast",
    "AllGather", "ReduceScatter"};

static int ge__onnx_is_reserved(const char *op) {
  size_t i;
  for (i = 0; i < sizeof ge__onnx_reserved / sizeof ge__onnx_reserved[0]; i++)
    if (strcmp(op, ge__onnx_reserved[i]) == 0) return 1;
  return 0;
}

/* ================================================================ import */

/* An external data file opened during one import. */
typedef struct ge__onnx_ext {
  const char *location;
  ge_mapped_file *map;
} ge__onnx_ext;

typedef struct ge__onnx_ctx {
  const uint8_t *base; /* the whole input; offsets in messages are from here */
  size_t size;
  ge_allocator a;
  ge__onnx_pool pool;
  ge_error *err;         /* never NULL */
  ge_mapped_file *map;   /* the model file, when there is one to borrow from */
  const char *base_dir;  /* where external data lives, or NULL */
  size_t borrow_min;     /* SIZE_MAX: never borrow */
  const ge_onnx_desc *desc;
  ge__onnx_ext *ext;
  uint32_t n_ext, cap_ext;
  ge__onnx_map functions; /* "domain\001name" of model-local functions */
  ge__onnx_map warned;    /* domains already reported */
  ge__onnx_map opsets;    /* domains the model imports an opset for ("" default) */
  int64_t ir_version;
  struct ge__onnx_declared *declared; /* the root graph's outputs as declared (pool) */
  size_t n_declared;
} ge__onnx_ctx;

/* A root graph output's declared tensor type, checked against inference. */
typedef struct ge__onnx_declared {
  const char *name;
  ge_dtype dtype;
  int32_t rank; /* GE_RANK_UNKNOWN: none declared */
  int64_t dims[GE_MAX_RANK];
} ge__onnx_declared;

static ge_status ge__onnx_fail(ge__onnx_ctx *c, ge_status code, const char *fmt, ...) GE__ONNX_PRINTF(3, 4);
static ge_status ge__onnx_fail(ge__onnx_ctx *c, ge_status code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  c->err->code = code;
  vsnprintf(c->err->message, sizeof c->err->message, fmt, ap);
  va_end(ap);
  return code;
}

static ge_status ge__onnx_oom(ge__onnx_ctx *c) {
  return ge__onnx_fail(c, GE_ERR_NOMEM, "out of memory reading the ONNX model");
}

static void ge__onnx_log(ge__onnx_ctx *c, ge_log_level level, const char *fmt, ...) GE__ONNX_PRINTF(3, 4);
static void ge__onnx_log(ge__onnx_ctx *c, ge_log_level level, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  if (!c->desc || !GE_LOG_ON(&c->desc->logger, level)) return;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  ge_log(&c->desc->logger, level, "onnx", "%s", msg);
}

static void ge__onnx_ctx_init(ge__onnx_ctx *c, const void *data, size_t size, const ge_allocator *a, ge_error *err) {
  memset(c, 0, sizeof *c);
  c->base = (const uint8_t *)data;
  c->size = size;
  c->a = ge_allocator_or_default(a);
  c->pool.a = c->a;
  c->err = err;
  c->borrow_min = GE_ONNX_BORROW_MIN_BYTES;
}

static void ge__onnx_ctx_free(ge__onnx_ctx *c) {
  uint32_t i;
  for (i = 0; i < c->n_ext; i++) ge_mapped_file_release(c->ext[i].map);
  ge__onnx_mfree(&c->a, c->ext, (size_t)c->cap_ext * sizeof(ge__onnx_ext));
  ge__onnx_map_free(&c->a, &c->functions);
  ge__onnx_map_free(&c->a, &c->warned);
  ge__onnx_map_free(&c->a, &c->opsets);
  ge__onnx_pool_free(&c->pool);
}

/* ------------------------------------------------------ wire-format reader */

typedef struct ge__onnx_fld {
  uint32_t num, wire;
  uint64_t v;        /* wire 0, 1, 5 */
  size_t off;        /* offset of the tag */
  size_t start, len; /* wire 2 payload */
} ge__onnx_fld;

static int ge__onnx_rvarint(ge__onnx_ctx *c, size_t *pos, size_t end, uint64_t *out) {
  uint64_t r = 0;
  size_t p = *pos;
  int i;
  for (i = 0; i < 10; i++) {
    uint8_t b;
    if (p >= end) {
      ge__onnx_fail(c, GE_ERR_FORMAT, "byte offset %zu: truncated varint", *pos);
      return 0;
    }
    b = c->base[p++];
    if (i == 9 && (b & 0x7f) > 1) {
      ge__onnx_fail(c, GE_ERR_FORMAT, "byte offset %zu: varint does not fit 64 bits", *pos);
      return 0;
    }
    r |= (uint64_t)(b & 0x7f) << (7 * i);
    if (!(b & 0x80)) {
      *pos = p;
      *out = r;
      return 1;
    }
  }
  ge__onnx_fail(c, GE_ERR_FORMAT, "byte offset %zu: varint longer than 10 bytes", *pos);
  return 0;
}

static uint64_t ge__onnx_le(const uint8_t *p, int n) {
  uint64_t v = 0;
  int i;
  for (i = n - 1; i >= 0; i--) v = (v << 8) | p[i];
  return v;
}

/* Reads the next field of the message ending at end: 1 read, 0 at the end,
 * -1 on malformed bytes (c->err set). */
static int ge__onnx_next(ge__onnx_ctx *c, size_t *pos, size_t end, ge__onnx_fld *f) {
  uint64_t tag, len;
  if (*pos >= end) return 0;
  f->off = *pos;
  if (!ge__onnx_rvarint(c, pos, end, &tag)) return -1;
  if ((tag >> 3) == 0 || (tag >> 3) > 0x1FFFFFFF) {
    ge__onnx_fail(c, GE_ERR_FORMAT, "byte offset %zu: invalid field number %llu", f->off,
                  (unsigned long long)(tag >> 3));
    return -1;
  }
  f->num = (uint32_t)(tag >> 3);
  f->wire = (uint32_t)(tag & 7);
  f->v = 0;
  f->start = f->len = 0;
  switch (f->wire) {
  case 0: return ge__onnx_rvarint(c, pos, end, &f->v) ? 1 : -1;
  case 1:
  case 5: {
    int n = f->wire == 1 ? 8 : 4;
    if (end - *pos < (size_t)n) {
      ge__onnx_fail(c, GE_ERR_FORMAT, "byte offset %zu: field %u: truncated %d-byte value", f->off, f->num, n);
      return -1;
    }
    f->v = ge__onnx_le(c->base + *pos, n);
    *pos += (size_t)n;
    return 1;
  }
  case 2:
    if (!ge__onnx_rvarint(c, pos, end, &len)) return -1;
    if (len > end - *pos) {
      ge__onnx_fail(c, GE_ERR_FORMAT, "byte offset %zu: field %u: length %llu runs past the end of its message (%zu bytes left)",
                    f->off, f->num, (unsigned long long)len, end - *pos);
      return -1;
    }
    f->start = *pos;
    f->len = (size_t)len;
    *pos += (size_t)len;
    return 1;
  default:
    ge__onnx_fail(c, GE_ERR_FORMAT, "byte offset %zu: field %u: unsupported wire type %u", f->off, f->num, f->wire);
    return -1;
  }
}

static int ge__onnx_want(ge__onnx_ctx *c, const ge__onnx_fld *f, uint32_t wire, const char *what) {
  if (f->wire == wire) return 1;
  ge__onnx_fail(c, GE_ERR_FORMAT, "byte offset %zu: %s (field %u) has wire type %u, expected %u", f->off, what, f->num,
                f->wire, wire);
  return 0;
}

/* A string field as a NUL-terminated pool copy. A NUL byte inside is
 * GE_ERR_FORMAT for names, nul_code for data. */
static ge_status ge__onnx_fstr(ge__onnx_ctx *c, const ge__onnx_fld *f, const char *what, ge_status nul_code,
                               const char **out) {
  char *s;
  if (!ge__onnx_want(c, f, 2, what)) return GE_ERR_FORMAT;
  if (memchr(c->base + f->start, 0, f->len))
    return ge__onnx_fail(c, nul_code, "byte offset %zu: %s contains a NUL byte", f->off, what);
  if (!(s = ge__onnx_pstrn(&c->pool, (const char *)c->base + f->start, f->len))) return ge__onnx_oom(c);
  *out = s;
  return GE_OK;
}

/* Elements of one occurrence of a repeated scalar field, packed or not.
 * kind: 0 varint, 5 fixed32, 1 fixed64. */
typedef struct ge__onnx_elems {
  size_t pos, end;
  int kind, packed, single_done;
  const ge__onnx_fld *f;
} ge__onnx_elems;

static int ge__onnx_elems_begin(ge__onnx_ctx *c, ge__onnx_elems *it, const ge__onnx_fld *f, int kind,
                                const char *what) {
  it->f = f;
  it->kind = kind;
  it->single_done = 0;
  it->packed = f->wire == 2;
  it->pos = f->start;
  it->end = f->start + f->len;
  if (it->packed) {
    if ((kind == 5 && f->len % 4) || (kind == 1 && f->len % 8)) {
      ge__onnx_fail(c, GE_ERR_FORMAT, "byte offset %zu: packed %s has %zu bytes, not a multiple of %d", f->off, what,
                    f->len, kind == 5 ? 4 : 8);
      return 0;
    }
    return 1;
  }
  return ge__onnx_want(c, f, (uint32_t)kind, what);
}

/* 1: *v is the next element, 0: no more, -1: malformed. */
static int ge__onnx_elems_next(ge__onnx_ctx *c, ge__onnx_elems *it, uint64_t *v) {
  if (!it->packed) {
    if (it->single_done) return 0;
    it->single_done = 1;
    *v = it->f->v;
    return 1;
  }
  if (it->pos >= it->end) return 0;
  if (it->kind == 0) return ge__onnx_rvarint(c, &it->pos, it->end, v) ? 1 : -1;
  {
    int n = it->kind == 5 ? 4 : 8;
    *v = ge__onnx_le(c->base + it->pos, n);
    it->pos += (size_t)n;
    return 1;
  }
}

/* Number of elements in one occurrence (varints are checked later). */
static int ge__onnx_elems_count(ge__onnx_ctx *c, const ge__onnx_fld *f, int kind, const char *what, size_t *n) {
  ge__onnx_elems it;
  size_t i, k = 0;
  if (!ge__onnx_elems_begin(c, &it, f, kind, what)) return 0;
  if (!it.packed) {
    *n = 1;
    return 1;
  }
  if (kind == 5) k = f->len / 4;
  else if (kind == 1) k = f->len / 8;
  else {
    for (i = 0; i < f->len; i++)
      if (!(c->base[f->start + i] & 0x80)) k++;
    if (f->len && (c->base[f->start + f->len - 1] & 0x80)) {
      ge__onnx_fail(c, GE_ERR_FORMAT, "byte offset %zu: packed %s ends inside a varint", f->off, what);
      return 0;
    }
  }
  *n = k;
  return 1;
}

static float ge__onnx_f32(uint64_t bits) {
  uint32_t b = (uint32_t)bits;
  float f;
  memcpy(&f, &b, 4);
  return f;
}

/* ------------------------------------------------------------- tensors */

/* A TensorProto read from the input. data is numel elements (possibly
 * unaligned, pointing into the input or a mapped file) or, for strings, an
 * array of pool strings. */
typedef struct ge__onnx_tp {
  const char *name;
  size_t off;
  ge_dtype dtype;
  int32_t rank;
  int64_t dims[GE_MAX_RANK];
  int64_t numel;
  const void *data;
  size_t nbytes;
  void *owned; /* allocated with the context allocator */
  size_t owned_size;
  ge_mapped_file *borrowed;
} ge__onnx_tp;

static void ge__onnx_tp_free(ge__onnx_ctx *c, ge__onnx_tp *t) {
  ge__onnx_mfree(&c->a, t->owned, t->owned_size);
  t->owned = NULL;
  t->owned_size = 0;
}

static ge_tensor ge__onnx_tp_view(ge__onnx_tp *t) {
  ge_tensor v;
  v.dtype = t->dtype;
  v.rank = t->rank;
  v.dims = t->dims;
  v.data = (void *)t->data;
  v.nbytes = t->nbytes;
  v.borrowed = t->borrowed;
  return v;
}

/* Decimal uint64 of an external_data value; 0 if malformed. */
static int ge__onnx_parse_u64(const char *s, uint64_t *out) {
  uint64_t v = 0;
  if (!*s) return 0;
  for (; *s; s++) {
    if (*s < '0' || *s > '9') return 0;
    if (v > (UINT64_MAX - (uint64_t)(*s - '0')) / 10) return 0;
    v = v * 10 + (uint64_t)(*s - '0');
  }
  *out = v;
  return 1;
}

/* Whether an external data location stays inside the model's directory. */
static int ge__onnx_safe_location(const char *loc) {
  const char *p = loc;
  if (!*loc || *loc == '/' || *loc == '\\') return 0;
  if (((loc[0] >= 'A' && loc[0] <= 'Z') || (loc[0] >= 'a' && loc[0] <= 'z')) && loc[1] == ':') return 0;
  while (*p) {
    const char *q = p;
    while (*q && *q != '/' && *q != '\\') q++;
    if (q - p == 2 && p[0] == '.' && p[1] == '.') return 0;
    p = *q ? q + 1 : q;
  }
  return 1;
}

/* The mapping of external file loc (opened once per import). */
static ge_status ge__onnx_external_map(ge__onnx_ctx *c, const char *loc, const char *tname, ge_mapped_file **out) {
  uint32_t i;
  char *path;
  size_t bl, ll;
  ge_status st;
  ge_mapped_file *m;
  for (i = 0; i < c->n_ext; i++)
    if (strcmp(c->ext[i].location, loc) == 0) {
      *out = c->ext[i].map;
      return GE_OK;
    }
  if (!c->base_dir)
    return ge__onnx_fail(c, GE_ERR_UNSUPPORTED, "tensor '%s': external data '%s' needs the model's directory (load the model from a file or pass base_dir)",
                         tname, loc);
  if (!ge__onnx_safe_location(loc))
    return ge__onnx_fail(c, GE_ERR_FORMAT, "tensor '%s': external data location '%s' leaves the model's directory", tname, loc);
  bl = strlen(c->base_dir);
  ll = strlen(loc);
  if (!(path = (char *)ge__onnx_palloc(&c->pool, bl + ll + 2))) return ge__onnx_oom(c);
  memcpy(path, c->base_dir, bl);
  path[bl] = '/';
  memcpy(path + bl + 1, loc, ll + 1);
  if (c->n_ext == c->cap_ext) {
    uint32_t cap = c->cap_ext ? c->cap_ext * 2 : 4;
    ge__onnx_ext *e = (ge__onnx_ext *)ge__onnx_mrealloc(&c->a, c->ext, (size_t)c->cap_ext * sizeof *e, (size_t)cap * sizeof *e);
    if (!e) return ge__onnx_oom(c);
    c->ext = e;
    c->cap_ext = cap;
  }
  if ((st = ge_file_map(path, &m, c->err))) {
    ge__onnx_context(c->err, "tensor '%s': external data", tname);
    return st;
  }
  c->ext[c->n_ext].location = loc;
  c->ext[c->n_ext].map = m;
  c->n_ext++;
  *out = m;
  return GE_OK;
}

/* Which typed field holds the elements of a dtype (0: none). */
static uint32_t ge__onnx_typed_field(ge_dtype t) {
  switch (t) {
  case GE_DTYPE_FLOAT32: case GE_DTYPE_COMPLEX64: return 4;
  case GE_DTYPE_INT32: case GE_DTYPE_INT16: case GE_DTYPE_INT8: case GE_DTYPE_UINT16: case GE_DTYPE_UINT8:
  case GE_DTYPE_BOOL: case GE_DTYPE_FLOAT16: case GE_DTYPE_BFLOAT16: return 5;
  case GE_DTYPE_STRING: return 6;
  case GE_DTYPE_INT64: return 7;
  case GE_DTYPE_FLOAT64: case GE_DTYPE_COMPLEX128: return 10;
  case GE_DTYPE_UINT32: case GE_DTYPE_UINT64: return 11;
  default: return 0;
  }
}

static const char *ge__onnx_field_name(uint32_t f) {
  switch (f) {
  case 4: return "float_data";
  case 5: return "int32_data";
  case 6: return "string_data";
  case 7: return "int64_data";
  case 9: return "raw_data";
  case 10: return "double_data";
  case 11: return "uint64_data";
  default: return "data";
  }
}

/* Reads the TensorProto in [start, start + len). allow_borrow: the data may
 * stay in a mapped file. */
static ge_status ge__onnx_tensor(ge__onnx_ctx *c, size_t start, size_t len, int allow_borrow, ge__onnx_tp *t) {
  size_t pos = start, end = start + len, counts[12], raw_start = 0, raw_len = 0, elem;
  uint64_t data_location = 0, ext_offset = 0, ext_length = 0;
  int has_raw = 0, has_ext_length = 0, kinds = 0, r;
  uint32_t src = 0, k;
  int64_t data_type = 0;
  const char *ext_loc = NULL;
  ge__onnx_fld f;
  ge_status st;
  memset(t, 0, sizeof *t);
  memset(counts, 0, sizeof counts);
  t->off = start;
  t->name = "";
  /* pass 1: scalars, counts, dims */
  while ((r = ge__onnx_next(c, &pos, end, &f)) == 1) {
    switch (f.num) {
    case 1: {
      ge__onnx_elems it;
      uint64_t v;
      int e;
      if (!ge__onnx_elems_begin(c, &it, &f, 0, "TensorProto.dims")) return GE_ERR_FORMAT;
      while ((e = ge__onnx_elems_next(c, &it, &v)) == 1) {
        if (t->rank >= GE_MAX_RANK)
          return ge__onnx_fail(c, GE_ERR_UNSUPPORTED, "byte offset %zu: tensor has more than %d dimensions", f.off, GE_MAX_RANK);
        if ((int64_t)v < 0)
          return ge__onnx_fail(c, GE_ERR_FORMAT, "byte offset %zu: tensor has a negative dimension %lld", f.off, (long long)(int64_t)v);
        t->dims[t->rank++] = (int64_t)v;
      }
      if (e < 0) return GE_ERR_FORMAT;
      break;
    }
    case 2:
      if (!ge__onnx_want(c, &f, 0, "TensorProto.data_type")) return GE_ERR_FORMAT;
      data_type = (int64_t)f.v;
      break;
    case 3: return ge__onnx_fail(c, GE_ERR_UNSUPPORTED, "byte offset %zu: tensor segments are not supported", f.off);
    case 4: case 5: case 7: case 10: case 11: {
      size_t n;
      int kind = f.num == 4 ? 5 : f.num == 10 ? 1 : 0;
      if (!ge__onnx_elems_count(c, &f, kind, ge__onnx_field_name(f.num), &n)) return GE_ERR_FORMAT;
      counts[f.num] += n;
      break;
    }
    case 6:
      if (!ge__onnx_want(c, &f, 2, "TensorProto.string_data")) return GE_ERR_FORMAT;
      counts[6]++;
      break;
    case 8:
      if ((st = ge__onnx_fstr(c, &f, "TensorProto.name", GE_ERR_FORMAT, &t->name))) return st;
      break;
    case 9:
      if (!ge__onnx_want(c, &f, 2, "TensorProto.raw_data")) return GE_ERR_FORMAT;
      has_raw = 1;
      raw_start = f.start;
      raw_len = f.len;
      break;
    case 13: { /* StringStringEntryProto */
      size_t p2 = f.start, e2 = f.start + f.len;
      const char *key = NULL, *val = NULL;
      ge__onnx_fld g;
      int r2;
      if (!ge__onnx_want(c, &f, 2, "TensorProto.external_data")) return GE_ERR_FORMAT;
      while ((r2 = ge__onnx_next(c, &p2, e2, &g)) == 1) {
        if (g.num == 1 && (st = ge__onnx_fstr(c, &g, "external_data key", GE_ERR_FORMAT, &key))) return st;
        if (g.num == 2 && (st = ge__onnx_fstr(c, &g, "external_data value", GE_ERR_FORMAT, &val))) return st;
      }
      if (r2 < 0) return GE_ERR_FORMAT;
      if (!key || !val) break;
      if (strcmp(key, "location") == 0) ext_loc = val;
      else if (strcmp(key, "offset") == 0) {
        if (!ge__onnx_parse_u64(val, &ext_offset))
          return ge__onnx_fail(c, GE_ERR_FORMAT, "byte offset %zu: external data offset '%s' is not a number", f.off, val);
      } else if (strcmp(key, "length") == 0) {
        if (!ge__onnx_parse_u64(val, &ext_length))
          return ge__onnx_fail(c, GE_ERR_FORMAT, "byte offset %zu: external data length '%s' is not a number", f.off, val);
        has_ext_length = 1;
      }
      break;
    }
    case 14:
      if (!ge__onnx_want(c, &f, 0, "TensorProto.data_location")) return GE_ERR_FORMAT;
      data_location = f.v;
      break;
    default: break;
    }
  }
  if (r < 0) return GE_ERR_FORMAT;
  if (data_type <= 0 || data_type >= 256)
    return ge__onnx_fail(c, GE_ERR_FORMAT, "byte offset %zu: tensor '%s' has %s data_type %lld", start, t->name,
                         data_type ? "an invalid" : "no", (long long)data_type);
  if (data_type >= GE_DTYPE_COUNT)
    return ge__onnx_fail(c, GE_ERR_UNSUPPORTED, "byte offset %zu: tensor '%s' has element type %lld, which ge does not support",
                         start, t->name, (long long)data_type);
  t->dtype = (ge_dtype)data_type;
  if (data_location > 1)
    return ge__onnx_fail(c, GE_ERR_FORMAT, "byte offset %zu: tensor '%s' has invalid data_location %llu", start, t->name,
                         (unsigned long long)data_location);
  /* element count, overflow-checked with room for 16 bytes an element */
  {
    uint64_t room;
    if (!ge_dims_numel_checked(t->dims, t->rank, &t->numel) || !ge_size_mul_checked((uint64_t)t->numel, 16, &room) ||
        room > (uint64_t)INT64_MAX)
      return ge__onnx_fail(c, GE_ERR_FORMAT, "byte offset %zu: tensor '%s' has too many elements", start, t->name);
  }
  elem = ge_dtype_size(t->dtype);
  if (t->dtype != GE_DTYPE_STRING && (uint64_t)t->numel > (uint64_t)SIZE_MAX / 16)
    return ge__onnx_fail(c, GE_ERR_FORMAT, "byte offset %zu: tensor '%s' is too big", start, t->name);
  t->nbytes = t->dtype == GE_DTYPE_STRING ? (size_t)t->numel * sizeof(char *) : (size_t)t->numel * elem;
  /* where the data is */
  for (k = 4; k <= 11; k++)
    if (k != 8 && k != 9 && counts[k]) {
      kinds++;
      src = k;
    }
  if (has_raw) {
    kinds++;
    src = 9;
  }
  if (data_location == 1) {
    if (kinds) return ge__onnx_fail(c, GE_ERR_FORMAT, "byte offset %zu: tensor '%s' has external data and %s", start, t->name, ge__onnx_field_name(src));
    src = 13;
  } else if (kinds > 1)
    return ge__onnx_fail(c, GE_ERR_FORMAT, "byte offset %zu: tensor '%s' stores its data in more than one field", start, t->name);
  if (src == 0) {
    if (t->numel)
      return ge__onnx_fail(c, GE_ERR_FORMAT, "byte offset %zu: tensor '%s' has %lld elements but no data", start, t->name, (long long)t->numel);
    return GE_OK;
  }
  if (t->dtype == GE_DTYPE_STRING) {
    const char **arr;
    size_t i = 0;
    if (src != 6)
      return ge__onnx_fail(c, GE_ERR_FORMAT, "byte offset %zu: string tensor '%s' stores its data in %s", start, t->name,
                           src == 13 ? "an external file" : ge__onnx_field_name(src));
    if ((uint64_t)counts[6] != (uint64_t)t->numel)
      return ge__onnx_fail(c, GE_ERR_FORMAT, "byte offset %zu: tensor '%s' has %zu strings for %lld elements", start, t->name,
                           counts[6], (long long)t->numel);
    if (!(arr = (const char **)ge__onnx_palloc(&c->pool, counts[6] * sizeof(char *)))) return ge__onnx_oom(c);
    pos = start;
    while ((r = ge__onnx_next(c, &pos, end, &f)) == 1)
      if (f.num == 6 && (st = ge__onnx_fstr(c, &f, "string_data element", GE_ERR_UNSUPPORTED, &arr[i++]))) return st;
    if (r < 0) return GE_ERR_FORMAT;
    t->data = arr;
    return GE_OK;
  }
  if (src == 9 || src == 13) {
    const uint8_t *bytes;
    ge_mapped_file *m = c->map;
    if (src == 9) {
      if (raw_len != t->nbytes)
        return ge__onnx_fail(c, GE_ERR_FORMAT, "byte offset %zu: tensor '%s': raw_data has %zu bytes, %lld %s elements need %zu",
                             start, t->name, raw_len, (long long)t->numel, ge_dtype_name(t->dtype), t->nbytes);
      bytes = c->base + raw_start;
    } else {
      size_t fsize;
      if (!ext_loc) return ge__onnx_fail(c, GE_ERR_FORMAT, "byte offset %zu: tensor '%s' has external data without a location", start, t->name);
      if ((st = ge__onnx_external_map(c, ext_loc, t->name, &m))) return st;
      fsize = ge_mapped_file_size(m);
      if (ext_offset > fsize)
        return ge__onnx_fail(c, GE_ERR_FORMAT, "tensor '%s': external data offset %llu is past the end of '%s' (%zu bytes)",
                             t->name, (unsigned long long)ext_offset, ext_loc, fsize);
      if (!has_ext_length) ext_length = fsize - ext_offset;
      if (ext_length > fsize - ext_offset)
        return ge__onnx_fail(c, GE_ERR_FORMAT, "tensor '%s': external data [%llu, +%llu) runs past the end of '%s' (%zu bytes)",
                             t->name, (unsigned long long)ext_offset, (unsigned long long)ext_length, ext_loc, fsize);
      if (ext_length != t->nbytes)
        return ge__onnx_fail(c, GE_ERR_FORMAT, "tensor '%s': external data has %llu bytes, %lld %s elements need %zu", t->name,
                             (unsigned long long)ext_length, (long long)t->numel, ge_dtype_name(t->dtype), t->nbytes);
      bytes = (const uint8_t *)ge_mapped_file_data(m) + ext_offset;
    }
    if (!ge__onnx_little_endian() && ge__onnx_swap_unit(t->dtype) > 1) {
      if (!(t->owned = ge__onnx_malloc(&c->a, t->nbytes))) return ge__onnx_oom(c);
      t->owned_size = t->nbytes;
      memcpy(t->owned, bytes, t->nbytes);
      ge__onnx_swap(t->owned, t->nbytes, ge__onnx_swap_unit(t->dtype));
      t->data = t->owned;
      return GE_OK;
    }
    t->data = bytes;
    if (allow_borrow && m && t->nbytes && t->nbytes >= c->borrow_min &&
        (uintptr_t)bytes % ge__onnx_align_of(t->dtype) == 0)
      t->borrowed = m;
    return GE_OK;
  }
  /* a typed field */
  {
    size_t want = (size_t)t->numel * (t->dtype == GE_DTYPE_COMPLEX64 || t->dtype == GE_DTYPE_COMPLEX128 ? 2 : 1), i = 0;
    uint8_t *out;
    if (ge__onnx_typed_field(t->dtype) != src)
      return ge__onnx_fail(c, GE_ERR_FORMAT, "byte offset %zu: tensor '%s' of dtype %s stores its data in %s", start, t->name,
                           ge_dtype_name(t->dtype), ge__onnx_field_name(src));
    if (counts[src] != want)
      return ge__onnx_fail(c, GE_ERR_FORMAT, "byte offset %zu: tensor '%s': %s has %zu values, %lld %s elements need %zu", start,
                           t->name, ge__onnx_field_name(src), counts[src], (long long)t->numel, ge_dtype_name(t->dtype), want);
    if (!(out = (uint8_t *)ge__onnx_malloc(&c->a, t->nbytes))) return ge__onnx_oom(c);
    t->owned = out;
    t->owned_size = t->nbytes;
    t->data = out;
    pos = start;
    while ((r = ge__onnx_next(c, &pos, end, &f)) == 1) {
      ge__onnx_elems it;
      uint64_t v;
      int e;
      if (f.num != src) continue;
      if (!ge__onnx_elems_begin(c, &it, &f, src == 4 ? 5 : src == 10 ? 1 : 0, ge__onnx_field_name(src))) return GE_ERR_FORMAT;
      while ((e = ge__onnx_elems_next(c, &it, &v)) == 1 && i < want) {
        switch (t->dtype) {
        case GE_DTYPE_FLOAT32: case GE_DTYPE_COMPLEX64: case GE_DTYPE_INT32: case GE_DTYPE_UINT32: {
          uint32_t x = (uint32_t)v;
          memcpy(out + i * 4, &x, 4);
          break;
        }
        case GE_DTYPE_INT16: case GE_DTYPE_UINT16: case GE_DTYPE_FLOAT16: case GE_DTYPE_BFLOAT16: {
          uint16_t x = (uint16_t)v;
          memcpy(out + i * 2, &x, 2);
          break;
        }
        case GE_DTYPE_INT8: case GE_DTYPE_UINT8: case GE_DTYPE_BOOL: out[i] = (uint8_t)v; break;
        default: memcpy(out + i * 8, &v, 8); break; /* int64, uint64, double, complex128 */
        }
        i++;
      }
      if (e < 0) return GE_ERR_FORMAT;
    }
    if (r < 0) return GE_ERR_FORMAT;
    return GE_OK;
  }
}

/* --------------------------------------------------------------- types */

/* A value's declared type. kind 0: unknown, 1: tensor (dtype + shape),
 * 2: anything else, kept as text. */
typedef struct ge__onnx_type {
  int kind;
  ge_dtype dtype;
  int32_t rank;
  int64_t dims[GE_MAX_RANK];
  ge_dim_info info[GE_MAX_RANK];
  const char *text;
} ge__onnx_type;

/* An element type number as a ge dtype (GE_DTYPE_COUNT: not supported). */
static ge_dtype ge__onnx_dtype(int64_t v) {
  return v >= 0 && v < GE_DTYPE_COUNT ? (ge_dtype)v : GE_DTYPE_COUNT;
}

/* TypeProto.Tensor (or SparseTensor) in [start, end): its dtype and shape.
 * With sb, the shape is appended to sb as text; without, it goes to t
 * (rank limited to GE_MAX_RANK). */
static ge_status ge__onnx_tensor_type(ge__onnx_ctx *c, size_t start, size_t end, const char *vname, ge__onnx_type *t,
                                      ge__onnx_sb *sb) {
  size_t pos = start, shape_start = 0, shape_end = 0;
  int has_shape = 0, r;
  int64_t elem = 0;
  ge__onnx_fld f;
  ge_dtype dt;
  while ((r = ge__onnx_next(c, &pos, end, &f)) == 1) {
    if (f.num == 1) {
      if (!ge__onnx_want(c, &f, 0, "TypeProto.Tensor.elem_type")) return GE_ERR_FORMAT;
      elem = (int64_t)f.v;
    } else if (f.num == 2) {
      if (!ge__onnx_want(c, &f, 2, "TypeProto.Tensor.shape")) return GE_ERR_FORMAT;
      has_shape = 1;
      shape_start = f.start;
      shape_end = f.start + f.len;
    }
  }
  if (r < 0) return GE_ERR_FORMAT;
  if ((dt = ge__onnx_dtype(elem)) == GE_DTYPE_COUNT)
    return ge__onnx_fail(c, GE_ERR_UNSUPPORTED, "byte offset %zu: value '%s' has element type %lld, which ge does not support",
                         start, vname, (long long)elem);
  if (sb) {
    ge__onnx_sb_str(sb, ge_dtype_name(dt));
    ge__onnx_sb_str(sb, ")");
  } else {
    t->kind = 1;
    t->dtype = dt;
    t->rank = GE_RANK_UNKNOWN;
  }
  if (!has_shape) return GE_OK;
  if (sb) ge__onnx_sb_str(sb, "[");
  else t->rank = 0;
  pos = shape_start;
  while ((r = ge__onnx_next(c, &pos, shape_end, &f)) == 1) {
    size_t p2, e2;
    int64_t dim = GE_DIM_UNKNOWN;
    const char *sym = NULL;
    ge__onnx_fld g;
    int r2;
    if (f.num != 1) continue;
    if (!ge__onnx_want(c, &f, 2, "TensorShapeProto.dim")) return GE_ERR_FORMAT;
    p2 = f.start;
    e2 = f.start + f.len;
    while ((r2 = ge__onnx_next(c, &p2, e2, &g)) == 1) {
      if (g.num == 1) {
        if (!ge__onnx_want(c, &g, 0, "Dimension.dim_value")) return GE_ERR_FORMAT;
        if ((int64_t)g.v < -1) /* -1 is how some exporters say unknown */
          return ge__onnx_fail(c, GE_ERR_FORMAT, "byte offset %zu: value '%s' declares dimension %lld; a dimension is >= 0 "
                               "(or -1 for unknown)", g.off, vname, (long long)(int64_t)g.v);
        dim = (int64_t)g.v < 0 ? GE_DIM_UNKNOWN : (int64_t)g.v;
        sym = NULL;
      } else if (g.num == 2) {
        ge_status st = ge__onnx_fstr(c, &g, "Dimension.dim_param", GE_ERR_FORMAT, &sym);
        if (st) return st;
        dim = GE_DIM_UNKNOWN;
        if (!*sym) sym = NULL;
      }
    }
    if (r2 < 0) return GE_ERR_FORMAT;
    if (sb) {
      char num[32];
      if (sb->len && sb->p[sb->len - 1] != '[') ge__onnx_sb_str(sb, ",");
      if (sym) ge__onnx_sb_word(sb, sym);
      else if (dim >= 0) {
        snprintf(num, sizeof num, "%lld", (long long)dim);
        ge__onnx_sb_str(sb, num);
      } else ge__onnx_sb_str(sb, "?");
      continue;
    }
    if (t->rank >= GE_MAX_RANK)
      return ge__onnx_fail(c, GE_ERR_UNSUPPORTED, "byte offset %zu: value '%s' has more than %d dimensions", f.off, vname,
                           GE_MAX_RANK);
    t->dims[t->rank] = dim;
    t->info[t->rank].lo = 0;
    t->info[t->rank].hi = -1;
    t->info[t->rank].symbol = sym;
    t->rank++;
  }
  if (r < 0) return GE_ERR_FORMAT;
  if (sb) ge__onnx_sb_str(sb, "]");
  return GE_OK;
}

/* The value field of a TypeProto in [start, end): the last of the oneof. */
static int ge__onnx_type_value(ge__onnx_ctx *c, size_t start, size_t end, ge__onnx_fld *v) {
  size_t pos = start;
  ge__onnx_fld f;
  int r, found = 0;
  while ((r = ge__onnx_next(c, &pos, end, &f)) == 1)
    if (f.num == 1 || f.num == 4 || f.num == 5 || f.num == 7 || f.num == 8 || f.num == 9) {
      if (!ge__onnx_want(c, &f, 2, "TypeProto value")) return -1;
      *v = f;
      found = 1;
    }
  return r < 0 ? -1 : found;
}

/* Appends the text form of the TypeProto in [start, end) to sb. */
static ge_status ge__onnx_type_text(ge__onnx_ctx *c, size_t start, size_t end, const char *vname, int depth, ge__onnx_sb *sb) {
  ge__onnx_fld v, f;
  size_t pos;
  int r, found;
  ge_status st;
  if (depth > GE_ONNX_MAX_DEPTH)
    return ge__onnx_fail(c, GE_ERR_FORMAT, "byte offset %zu: value '%s': types nested deeper than %d", start, vname,
                         GE_ONNX_MAX_DEPTH);
  if ((found = ge__onnx_type_value(c, start, end, &v)) < 0) return GE_ERR_FORMAT;
  if (!found) {
    ge__onnx_sb_str(sb, "none");
    return GE_OK;
  }
  pos = v.start;
  end = v.start + v.len;
  switch (v.num) {
  case 1:
  case 8:
    ge__onnx_sb_str(sb, v.num == 1 ? "tensor(" : "sparse_tensor(");
    return ge__onnx_tensor_type(c, v.start, end, vname, NULL, sb);
  case 4:
  case 9: { /* Sequence / Optional: elem_type = 1 */
    size_t es = 0, ee = 0;
    int has = 0;
    ge__onnx_sb_str(sb, v.num == 4 ? "seq(" : "optional(");
    while ((r = ge__onnx_next(c, &pos, end, &f)) == 1)
      if (f.num == 1) {
        if (!ge__onnx_want(c, &f, 2, "elem_type")) return GE_ERR_FORMAT;
        has = 1;
        es = f.start;
        ee = f.start + f.len;
      }
    if (r < 0) return GE_ERR_FORMAT;
    if (has) {
      if ((st = ge__onnx_type_text(c, es, ee, vname, depth + 1, sb))) return st;
    } else
      ge__onnx_sb_str(sb, "none");
    ge__onnx_sb_str(sb, ")");
    return GE_OK;
  }
  case 5: { /* Map: key_type = 1, value_type = 2 */
    size_t vs = 0, ve = 0;
    int has = 0;
    int64_t key = 0;
    ge_dtype kt;
    while ((r = ge__onnx_next(c, &pos, end, &f)) == 1) {
      if (f.num == 1) {
        if (!ge__onnx_want(c, &f, 0, "Map.key_type")) return GE_ERR_FORMAT;
        key = (int64_t)f.v;
      } else if (f.num == 2) {
        if (!ge__onnx_want(c, &f, 2, "Map.value_type")) return GE_ERR_FORMAT;
        has = 1;
        vs = f.start;
        ve = f.start + f.len;
      }
    }
    if (r < 0) return GE_ERR_FORMAT;
    if ((kt = ge__onnx_dtype(key)) == GE_DTYPE_COUNT)
      return ge__onnx_fail(c, GE_ERR_UNSUPPORTED, "byte offset %zu: value '%s' has map key type %lld, which ge does not support",
                           v.off, vname, (long long)key);
    ge__onnx_sb_str(sb, "map(");
    ge__onnx_sb_str(sb, ge_dtype_name(kt));
    ge__onnx_sb_str(sb, ",");
    if (has) {
      if ((st = ge__onnx_type_text(c, vs, ve, vname, depth + 1, sb))) return st;
    } else
      ge__onnx_sb_str(sb, "none");
    ge__onnx_sb_str(sb, ")");
    return GE_OK;
  }
  default: { /* 7: Opaque {domain = 1, name = 2} */
    const char *dom = "", *name = "";
    while ((r = ge__onnx_next(c, &pos, end, &f)) == 1) {
      if (f.num == 1 && (st = ge__onnx_fstr(c, &f, "Opaque.domain", GE_ERR_FORMAT, &dom))) return st;
      if (f.num == 2 && (st = ge__onnx_fstr(c, &f, "Opaque.name", GE_ERR_FORMAT, &name))) return st;
    }
    if (r < 0) return GE_ERR_FORMAT;
    ge__onnx_sb_str(sb, "opaque(");
    ge__onnx_sb_word(sb, dom);
    ge__onnx_sb_str(sb, ",");
    ge__onnx_sb_word(sb, name);
    ge__onnx_sb_str(sb, ")");
    return GE_OK;
  }
  }
}

/* A TypeProto in [start, end) into t. */
static ge_status ge__onnx_read_type(ge__onnx_ctx *c, size_t start, size_t end, const char *vname, ge__onnx_type *t) {
  ge__onnx_fld v;
  int found;
  ge_status st;
  ge__onnx_sb sb;
  memset(t, 0, sizeof *t);
  t->rank = GE_RANK_UNKNOWN;
  if ((found = ge__onnx_type_value(c, start, end, &v)) < 0) return GE_ERR_FORMAT;
  if (!found) return GE_OK;
  if (v.num == 1) return ge__onnx_tensor_type(c, v.start, v.start + v.len, vname, t, NULL);
  memset(&sb, 0, sizeof sb);
  sb.a = &c->a;
  st = ge__onnx_type_text(c, start, end, vname, 0, &sb);
  if (!st && sb.oom) st = ge__onnx_oom(c);
  if (!st && !(t->text = ge__onnx_pstrn(&c->pool, sb.p, sb.len))) st = ge__onnx_oom(c);
  ge__onnx_sb_free(&sb);
  if (!st) t->kind = 2;
  return st;
}

/* A ValueInfoProto: name and type. */
static ge_status ge__onnx_value_info(ge__onnx_ctx *c, const ge__onnx_fld *vf, const char **name, ge__onnx_type *t) {
  size_t pos = vf->start, end = vf->start + vf->len, ts = 0, te = 0;
  int has_type = 0, r;
  ge__onnx_fld f;
  ge_status st;
  *name = "";
  memset(t, 0, sizeof *t);
  t->rank = GE_RANK_UNKNOWN;
  while ((r = ge__onnx_next(c, &pos, end, &f)) == 1) {
    if (f.num == 1 && (st = ge__onnx_fstr(c, &f, "ValueInfoProto.name", GE_ERR_FORMAT, name))) return st;
    if (f.num == 2) {
      if (!ge__onnx_want(c, &f, 2, "ValueInfoProto.type")) return GE_ERR_FORMAT;
      has_type = 1;
      ts = f.start;
      te = f.start + f.len;
    }
  }
  if (r < 0) return GE_ERR_FORMAT;
  if (!**name) return ge__onnx_fail(c, GE_ERR_FORMAT, "byte offset %zu: a value has an empty name", vf->off);
  if (has_type && (st = ge__onnx_read_type(c, ts, te, *name, t))) return st;
  if (t->kind == 1 && t->rank > 0) { /* a declared size must be countable */
    int64_t dims[GE_MAX_RANK], numel;
    size_t nbytes;
    int32_t k;
    for (k = 0; k < t->rank; k++) dims[k] = t->dims[k] < 0 ? 1 : t->dims[k];
    if (!ge_dims_numel_checked(dims, t->rank, &numel) || !ge_dims_nbytes_checked(t->dtype, dims, t->rank, &nbytes))
      return ge__onnx_fail(c, GE_ERR_FORMAT, "byte offset %zu: value '%s' declares a shape whose element count or byte "
                           "size overflows", vf->off, *name);
  }
  return GE_OK;
}

/* --------------------------------------------------------------- graphs */

/* The node holding the subgraphs being read, with the outer values it
 * already passes in (name -> input index). */
typedef struct ge__onnx_holder {
  ge_node_id node;
  ge__onnx_map refs;
} ge__onnx_holder;

/* One graph being read: its value names and the way out. */
typedef struct ge__onnx_scope {
  struct ge__onnx_scope *up;
  ge_graph *g;
  ge__onnx_holder *holder; /* in up->g; NULL for the root */
  ge__onnx_map vals;       /* value name -> (node id, output index) */
  uint32_t counter;        /* suffix for made names */
  int depth;
} ge__onnx_scope;

/* A node name unique in s->g: want if free, else "<want or op>_<k>". */
static ge_status ge__onnx_unique(ge__onnx_ctx *c, ge__onnx_scope *s, const char *want, const char *op,
                                 const char **out) {
  const char *base = want && *want ? want : op;
  size_t n = strlen(base) + 16;
  char *buf;
  if (want && *want && ge_graph_find(s->g, want) == GE_NONE) {
    *out = want;
    return GE_OK;
  }
  if (!(buf = (char *)ge__onnx_palloc(&c->pool, n))) return ge__onnx_oom(c);
  do snprintf(buf, n, "%s_%u", base, (unsigned)s->counter++);
  while (ge_graph_find(s->g, buf) != GE_NONE);
  *out = buf;
  return GE_OK;
}

/* The tensor a value name stands for in scope s. A name defined in an
 * enclosing graph becomes an input of the holder node and a Data node with
 * parent_index here (made once per name). *found = 0 if nobody defines it. */
static ge_status ge__onnx_resolve(ge__onnx_ctx *c, ge__onnx_scope *s, const char *name, ge_edge *out, int *found) {
  ge__onnx_ent *e = ge__onnx_map_find(&s->vals, name), *h;
  ge_edge outer;
  ge_node_id id;
  const ge_tensor_desc *d;
  const char *dname;
  int added;
  ge_status st;
  *found = 0;
  if (e) {
    out->node = (ge_node_id)e->a;
    out->index = (int32_t)e->b;
    *found = 1;
    return GE_OK;
  }
  if (!s->up) return GE_OK;
  if ((st = ge__onnx_resolve(c, s->up, name, &outer, found)) || !*found) return st;
  *found = 0;
  if (!(h = ge__onnx_map_add(&c->a, &s->holder->refs, name, &added))) return ge__onnx_oom(c);
  if (added) {
    h->a = (int64_t)ge_graph_node(s->up->g, s->holder->node)->num_inputs;
    if ((st = ge_graph_add_input(s->up->g, s->holder->node, outer, c->err))) return st;
  }
  if ((st = ge__onnx_unique(c, s, name, "Data", &dname))) return st;
  if ((st = ge_graph_add_node(s->g, "Data", dname, 0, NULL, 1, &id, c->err))) return st;
  d = &ge_graph_node(s->up->g, outer.node)->outputs[outer.index];
  if ((st = ge_node_set_attr_int(s->g, id, "parent_index", h->a, c->err)) ||
      (st = ge_node_set_output(s->g, id, 0, d->dtype, d->shape.rank, d->shape.dims, d->shape.info, c->err)) ||
      (st = ge_node_set_output_name(s->g, id, 0, name, c->err)))
    return st;
  if (!(e = ge__onnx_map_add(&c->a, &s->vals, name, &added))) return ge__onnx_oom(c);
  e->a = id;
  e->b = 0;
  out->node = id;
  out->index = 0;
  *found = 1;
  return GE_OK;
}

/* Registers output k of node id as value name. */
static ge_status ge__onnx_define(ge__onnx_ctx *c, ge__onnx_scope *s, const char *name, ge_node_id id, uint32_t k,
                                 const char *node_name) {
  int added;
  ge__onnx_ent *e = ge__onnx_map_add(&c->a, &s->vals, name, &added);
  if (!e) return ge__onnx_oom(c);
  if (!added)
    return ge__onnx_fail(c, GE_ERR_FORMAT, "node '%s': value '%s' is defined twice in graph '%s'", node_name, name,
                         ge_graph_name(s->g));
  e->a = id;
  e->b = k;
  return ge_node_set_output_name(s->g, id, k, name, c->err);
}

/* What the declared type t adds to output e.index of node e.node: a dtype or
 * dims the desc does not know yet. Conflicts keep the desc (and are logged). */
static ge_status ge__onnx_merge(ge__onnx_ctx *c, ge_graph *g, ge_edge e, const ge__onnx_type *t, const char *vname) {
  ge_node *n = ge_graph_node(g, e.node);
  const ge_tensor_desc *d = &n->outputs[e.index];
  int64_t dims[GE_MAX_RANK];
  ge_dim_info info[GE_MAX_RANK];
  ge_dtype dt = d->dtype;
  int32_t rank = d->shape.rank, i;
  int changed = 0;
  /* a Const's desc is its tensor's; a value typed as a sequence, map, ...
     (onnx_type) takes no tensor desc */
  if (t->kind != 1 || (strcmp(n->op, "Const") == 0 && !n->domain) || ge_node_attr(n, "onnx_type")) return GE_OK;
  if (t->dtype != GE_DTYPE_UNDEFINED && dt != t->dtype) {
    if (dt == GE_DTYPE_UNDEFINED) {
      dt = t->dtype;
      changed = 1;
    } else
      ge__onnx_log(c, GE_LOG_WARN, "value '%s': declared dtype %s conflicts with %s; kept %s", vname,
                   ge_dtype_name(t->dtype), ge_dtype_name(dt), ge_dtype_name(dt));
  }
  for (i = 0; i < rank; i++) {
    dims[i] = d->shape.dims[i];
    if (d->shape.info) info[i] = d->shape.info[i];
    else {
      info[i].lo = 0;
      info[i].hi = -1;
      info[i].symbol = NULL;
    }
  }
  if (t->rank >= 0) {
    if (rank < 0) {
      rank = t->rank;
      for (i = 0; i < rank; i++) {
        dims[i] = t->dims[i];
        info[i] = t->info[i];
      }
      changed = 1;
    } else if (rank != t->rank)
      ge__onnx_log(c, GE_LOG_WARN, "value '%s': declared rank %d conflicts with rank %d; kept %d", vname,
                   (int)t->rank, (int)rank, (int)rank);
    else
      for (i = 0; i < rank; i++)
        if (dims[i] < 0) {
          if (t->dims[i] >= 0) {
            dims[i] = t->dims[i];
            changed = 1;
          }
          if (!info[i].symbol && t->info[i].symbol) {
            info[i].symbol = t->info[i].symbol;
            changed = 1;
          }
        }
  }
  if (!changed) return GE_OK;
  return ge_node_set_output(g, e.node, (uint32_t)e.index, dt, rank, dims, info, c->err);
}

/* An AttributeProto as read. Lists live in the pool. */
typedef struct ge__onnx_attr {
  const char *name;
  size_t off;
  int64_t type;
  double f;
  int64_t i;
  const char *s;
  ge__onnx_fld t, g;
  int has_f, has_i, has_s, has_t, has_g, has_sparse, has_tp;
  size_t n_floats, n_ints, n_strings, n_tensors, n_graphs;
  double *floats;
  int64_t *ints;
  const char **strings;
  ge__onnx_fld *tensors, *graphs;
} ge__onnx_attr;

static ge_status ge__onnx_attr_read(ge__onnx_ctx *c, const ge__onnx_fld *af, ge__onnx_attr *a) {
  size_t pos = af->start, end = af->start + af->len, n, kf = 0, ki = 0, ks = 0, kt = 0, kg = 0;
  ge__onnx_fld f;
  ge_status st;
  int r;
  memset(a, 0, sizeof *a);
  a->off = af->off;
  a->name = "";
  while ((r = ge__onnx_next(c, &pos, end, &f)) == 1) {
    switch (f.num) {
    case 1: if ((st = ge__onnx_fstr(c, &f, "AttributeProto.name", GE_ERR_FORMAT, &a->name))) return st; break;
    case 20:
      if (!ge__onnx_want(c, &f, 0, "AttributeProto.type")) return GE_ERR_FORMAT;
      a->type = (int64_t)f.v;
      break;
    case 2:
      if (!ge__onnx_want(c, &f, 5, "AttributeProto.f")) return GE_ERR_FORMAT;
      a->f = ge__onnx_f32(f.v);
      a->has_f = 1;
      break;
    case 3:
      if (!ge__onnx_want(c, &f, 0, "AttributeProto.i")) return GE_ERR_FORMAT;
      a->i = (int64_t)f.v;
      a->has_i = 1;
      break;
    case 4: if ((st = ge__onnx_fstr(c, &f, "AttributeProto.s", GE_ERR_UNSUPPORTED, &a->s))) return st; a->has_s = 1; break;
    case 5: if (!ge__onnx_want(c, &f, 2, "AttributeProto.t")) return GE_ERR_FORMAT; a->t = f; a->has_t = 1; break;
    case 6: if (!ge__onnx_want(c, &f, 2, "AttributeProto.g")) return GE_ERR_FORMAT; a->g = f; a->has_g = 1; break;
    case 7: if (!ge__onnx_elems_count(c, &f, 5, "AttributeProto.floats", &n)) return GE_ERR_FORMAT; a->n_floats += n; break;
    case 8: if (!ge__onnx_elems_count(c, &f, 0, "AttributeProto.ints", &n)) return GE_ERR_FORMAT; a->n_ints += n; break;
    case 9: if (!ge__onnx_want(c, &f, 2, "AttributeProto.strings")) return GE_ERR_FORMAT; a->n_strings++; break;
    case 10: if (!ge__onnx_want(c, &f, 2, "AttributeProto.tensors")) return GE_ERR_FORMAT; a->n_tensors++; break;
    case 11: if (!ge__onnx_want(c, &f, 2, "AttributeProto.graphs")) return GE_ERR_FORMAT; a->n_graphs++; break;
    case 22: case 23: a->has_sparse = 1; break;
    case 14: case 15: a->has_tp = 1; break;
    default: break;
    }
  }
  if (r < 0) return GE_ERR_FORMAT;
  if (!*a->name) return ge__onnx_fail(c, GE_ERR_FORMAT, "byte offset %zu: an attribute has no name", af->off);
  if (a->n_floats > INT32_MAX || a->n_ints > INT32_MAX || a->n_strings > INT32_MAX || a->n_tensors > INT32_MAX ||
      a->n_graphs > INT32_MAX)
    return ge__onnx_fail(c, GE_ERR_FORMAT, "byte offset %zu: attribute '%s' has too many values", af->off, a->name);
  if ((a->n_floats && !(a->floats = (double *)ge__onnx_palloc(&c->pool, a->n_floats * sizeof(double)))) ||
      (a->n_ints && !(a->ints = (int64_t *)ge__onnx_palloc(&c->pool, a->n_ints * sizeof(int64_t)))) ||
      (a->n_strings && !(a->strings = (const char **)ge__onnx_palloc(&c->pool, a->n_strings * sizeof(char *)))) ||
      (a->n_tensors && !(a->tensors = (ge__onnx_fld *)ge__onnx_palloc(&c->pool, a->n_tensors * sizeof(ge__onnx_fld)))) ||
      (a->n_graphs && !(a->graphs = (ge__onnx_fld *)ge__onnx_palloc(&c->pool, a->n_graphs * sizeof(ge__onnx_fld)))))
    return ge__onnx_oom(c);
  if (a->n_floats || a->n_ints || a->n_strings || a->n_tensors || a->n_graphs) {
    pos = af->start;
    while ((r = ge__onnx_next(c, &pos, end, &f)) == 1) {
      ge__onnx_elems it;
      uint64_t v;
      int e;
      switch (f.num) {
      case 7:
      case 8:
        if (!ge__onnx_elems_begin(c, &it, &f, f.num == 7 ? 5 : 0, "AttributeProto list")) return GE_ERR_FORMAT;
        while ((e = ge__onnx_elems_next(c, &it, &v)) == 1) {
          if (f.num == 7 && kf < a->n_floats) a->floats[kf++] = ge__onnx_f32(v);
          if (f.num == 8 && ki < a->n_ints) a->ints[ki++] = (int64_t)v;
        }
        if (e < 0) return GE_ERR_FORMAT;
        break;
      case 9:
        if ((st = ge__onnx_fstr(c, &f, "AttributeProto.strings element", GE_ERR_UNSUPPORTED, &a->strings[ks++]))) return st;
        break;
      case 10: a->tensors[kt++] = f; break;
      case 11: a->graphs[kg++] = f; break;
      default: break;
      }
    }
    if (r < 0) return GE_ERR_FORMAT;
  }
  if (a->type == GE__ONNX_A_UNDEFINED) { /* IR version 1 files: infer from the field set */
    a->type = a->has_f ? GE__ONNX_A_FLOAT : a->has_i ? GE__ONNX_A_INT : a->has_s ? GE__ONNX_A_STRING
            : a->has_t ? GE__ONNX_A_TENSOR : a->has_g ? GE__ONNX_A_GRAPH : a->n_floats ? GE__ONNX_A_FLOATS
            : a->n_ints ? GE__ONNX_A_INTS : a->n_strings ? GE__ONNX_A_STRINGS : a->n_tensors ? GE__ONNX_A_TENSORS
            : a->n_graphs ? GE__ONNX_A_GRAPHS : a->has_sparse ? GE__ONNX_A_SPARSE_TENSOR
            : a->has_tp ? GE__ONNX_A_TYPE_PROTO : GE__ONNX_A_UNDEFINED;
    if (a->type == GE__ONNX_A_UNDEFINED)
      return ge__onnx_fail(c, GE_ERR_FORMAT, "byte offset %zu: attribute '%s' has no type and no value", af->off, a->name);
  }
  return GE_OK;
}

static ge_status ge__onnx_graph(ge__onnx_ctx *c, ge__onnx_scope *s, size_t start, size_t end);

/* The name field of the GraphProto in [start, end) ("" if none). */
static ge_status ge__onnx_graph_name(ge__onnx_ctx *c, size_t start, size_t end, const char **name) {
  ge__onnx_fld f;
  ge_status st;
  int r;
  *name = "";
  while ((r = ge__onnx_next(c, &start, end, &f)) == 1)
    if (f.num == 2 && (st = ge__onnx_fstr(c, &f, "GraphProto.name", GE_ERR_FORMAT, name))) return st;
  return r < 0 ? GE_ERR_FORMAT : GE_OK;
}

/* Reads the GraphProto in gf as a subgraph of the node holder->node of s. */
static ge_status ge__onnx_subgraph(ge__onnx_ctx *c, ge__onnx_scope *s, ge__onnx_holder *holder, const ge__onnx_fld *gf,
                                   ge_graph **out) {
  ge__onnx_scope sub;
  ge_graph_desc gd;
  const char *name;
  ge_status st;
  *out = NULL;
  if (s->depth + 1 >= GE_ONNX_MAX_DEPTH)
    return ge__onnx_fail(c, GE_ERR_FORMAT, "byte offset %zu: subgraphs nested deeper than %d levels", gf->off,
                         GE_ONNX_MAX_DEPTH);
  if ((st = ge__onnx_graph_name(c, gf->start, gf->start + gf->len, &name))) return st;
  memset(&gd, 0, sizeof gd);
  if (c->desc) gd = c->desc->graph;
  gd.name = name;
  gd.registry = ge_graph_registry(s->g);
  if ((st = ge_graph_create(&gd, out, c->err))) return st;
  memset(&sub, 0, sizeof sub);
  sub.up = s;
  sub.g = *out;
  sub.holder = holder;
  sub.depth = s->depth + 1;
  st = ge__onnx_graph(c, &sub, gf->start, gf->start + gf->len);
  ge__onnx_map_free(&c->a, &sub.vals);
  if (st) {
    ge_graph_free(*out);
    *out = NULL;
  }
  return st;
}

/* Sets attribute a on node id of s->g. */
static ge_status ge__onnx_attr_apply(ge__onnx_ctx *c, ge__onnx_scope *s, ge__onnx_holder *holder, ge_node_id id,
                                     const ge__onnx_attr *a) {
  ge_graph *g = s->g;
  ge_status st = GE_OK;
  int32_t k;
  switch (a->type) {
  case GE__ONNX_A_FLOAT: return ge_node_set_attr_float(g, id, a->name, a->f, c->err);
  case GE__ONNX_A_INT: return ge_node_set_attr_int(g, id, a->name, a->i, c->err);
  case GE__ONNX_A_STRING: return ge_node_set_attr_string(g, id, a->name, a->s ? a->s : "", c->err);
  case GE__ONNX_A_FLOATS: return ge_node_set_attr_floats(g, id, a->name, a->floats, (int32_t)a->n_floats, c->err);
  case GE__ONNX_A_INTS: return ge_node_set_attr_ints(g, id, a->name, a->ints, (int32_t)a->n_ints, c->err);
  case GE__ONNX_A_STRINGS:
    return ge_node_set_attr_strings(g, id, a->name, a->strings, (int32_t)a->n_strings, c->err);
  case GE__ONNX_A_TENSOR: {
    ge__onnx_tp tp;
    ge_tensor v;
    if (!a->has_t) return ge__onnx_fail(c, GE_ERR_FORMAT, "byte offset %zu: attribute '%s' of type TENSOR has no tensor", a->off, a->name);
    if (!(st = ge__onnx_tensor(c, a->t.start, a->t.len, 1, &tp))) {
      v = ge__onnx_tp_view(&tp);
      st = ge_node_set_attr_tensor(g, id, a->name, &v, c->err);
    }
    ge__onnx_tp_free(c, &tp);
    return st;
  }
  case GE__ONNX_A_TENSORS: {
    size_t n = a->n_tensors;
    ge__onnx_tp *tps = (ge__onnx_tp *)ge__onnx_malloc(&c->a, n * sizeof *tps);
    ge_tensor *vs = (ge_tensor *)ge__onnx_malloc(&c->a, n * sizeof *vs);
    const ge_tensor **ps = (const ge_tensor **)ge__onnx_malloc(&c->a, n * sizeof *ps);
    size_t i, done = 0;
    if (!tps || !vs || !ps) st = ge__onnx_oom(c);
    for (i = 0; i < n && !st; i++) {
      st = ge__onnx_tensor(c, a->tensors[i].start, a->tensors[i].len, 1, &tps[i]);
      done = i + 1;
      vs[i] = ge__onnx_tp_view(&tps[i]);
      ps[i] = &vs[i];
    }
    if (!st) st = ge_node_set_attr_tensors(g, id, a->name, ps, (int32_t)n, c->err);
    for (i = 0; i < done; i++) ge__onnx_tp_free(c, &tps[i]);
    ge__onnx_mfree(&c->a, tps, n * sizeof *tps);
    ge__onnx_mfree(&c->a, vs, n * sizeof *vs);
    ge__onnx_mfree(&c->a, (void *)ps, n * sizeof *ps);
    return st;
  }
  case GE__ONNX_A_GRAPH: {
    ge_graph *sub;
    if (!a->has_g) return ge__onnx_fail(c, GE_ERR_FORMAT, "byte offset %zu: attribute '%s' of type GRAPH has no graph", a->off, a->name);
    if ((st = ge__onnx_subgraph(c, s, holder, &a->g, &sub))) {
      ge__onnx_context(c->err, "in subgraph '%s'", a->name);
      return st;
    }
    return ge_node_set_attr_graph(g, id, a->name, sub, c->err);
  }
  case GE__ONNX_A_GRAPHS: {
    size_t n = a->n_graphs;
    ge_graph **subs = (ge_graph **)ge__onnx_malloc(&c->a, n * sizeof *subs);
    if (!subs) return ge__onnx_oom(c);
    memset(subs, 0, n * sizeof *subs);
    for (k = 0; (size_t)k < n && !st; k++)
      if ((st = ge__onnx_subgraph(c, s, holder, &a->graphs[k], &subs[k])))
        ge__onnx_context(c->err, "in subgraph %d of '%s'", (int)k, a->name);
    if (st)
      for (k = 0; (size_t)k < n; k++) ge_graph_free(subs[k]);
    else
      st = ge_node_set_attr_graphs(g, id, a->name, subs, (int32_t)n, c->err);
    ge__onnx_mfree(&c->a, subs, n * sizeof *subs);
    return st;
  }
  case GE__ONNX_A_SPARSE_TENSOR:
  case GE__ONNX_A_SPARSE_TENSORS:
    return ge__onnx_fail(c, GE_ERR_UNSUPPORTED, "attribute '%s' holds sparse tensors, which ge does not support", a->name);
  case GE__ONNX_A_TYPE_PROTO:
  case GE__ONNX_A_TYPE_PROTOS:
    return ge__onnx_fail(c, GE_ERR_UNSUPPORTED, "attribute '%s' holds type protos, which ge does not support", a->name);
  default:
    return ge__onnx_fail(c, GE_ERR_FORMAT, "byte offset %zu: attribute '%s' has unknown type %lld", a->off, a->name,
                         (long long)a->type);
  }
}

/* A Constant node's value (value, value_float(s), value_int(s),
 * value_string(s)) as a Const node named name. */
static ge_status ge__onnx_constant(ge__onnx_ctx *c, ge__onnx_scope *s, const ge__onnx_fld *nf, const char *name,
                                   ge_node_id *id) {
  size_t pos = nf->start, end = nf->start + nf->len;
  ge__onnx_fld f;
  ge__onnx_attr a, val;
  ge__onnx_tp tp;
  ge_tensor t;
  int r, found = 0;
  size_t i;
  float scalar_f;
  ge_status st;
  memset(&val, 0, sizeof val);
  memset(&tp, 0, sizeof tp);
  while ((r = ge__onnx_next(c, &pos, end, &f)) == 1) {
    if (f.num != 5) continue;
    if ((st = ge__onnx_attr_read(c, &f, &a))) return st;
    if (strncmp(a.name, "value", 5) != 0 && strcmp(a.name, "sparse_value") != 0)
      return ge__onnx_fail(c, GE_ERR_FORMAT, "Constant node '%s' has an unexpected attribute '%s'", name, a.name);
    if (found++) return ge__onnx_fail(c, GE_ERR_FORMAT, "Constant node '%s' has more than one value attribute", name);
    val = a;
  }
  if (r < 0) return GE_ERR_FORMAT;
  if (!found) return ge__onnx_fail(c, GE_ERR_FORMAT, "Constant node '%s' has no value attribute", name);
  memset(&t, 0, sizeof t);
  t.dims = tp.dims;
#define GE__ONNX_CONST_WANT(ty)                                                                                      \
  if (val.type != (ty))                                                                                              \
  return ge__onnx_fail(c, GE_ERR_FORMAT, "Constant node '%s': attribute '%s' has type %lld, expected %d", name,      \
                       val.name, (long long)val.type, (int)(ty))
  if (strcmp(val.name, "sparse_value") == 0)
    return ge__onnx_fail(c, GE_ERR_UNSUPPORTED, "Constant node '%s': sparse_value is not supported", name);
  if (strcmp(val.name, "value") == 0) {
    GE__ONNX_CONST_WANT(GE__ONNX_A_TENSOR);
    if (!val.has_t) return ge__onnx_fail(c, GE_ERR_FORMAT, "Constant node '%s': value has no tensor", name);
    if ((st = ge__onnx_tensor(c, val.t.start, val.t.len, 1, &tp))) {
      ge__onnx_tp_free(c, &tp);
      return st;
    }
    t = ge__onnx_tp_view(&tp);
  } else if (strcmp(val.name, "value_float") == 0) {
    GE__ONNX_CONST_WANT(GE__ONNX_A_FLOAT);
    scalar_f = (float)val.f;
    t.dtype = GE_DTYPE_FLOAT32;
    t.data = &scalar_f;
    t.nbytes = 4;
  } else if (strcmp(val.name, "value_floats") == 0) {
    float *fl = (float *)ge__onnx_palloc(&c->pool, val.n_floats * sizeof(float));
    GE__ONNX_CONST_WANT(GE__ONNX_A_FLOATS);
    if (!fl) return ge__onnx_oom(c);
    for (i = 0; i < val.n_floats; i++) fl[i] = (float)val.floats[i];
    t.dtype = GE_DTYPE_FLOAT32;
    t.rank = 1;
    tp.dims[0] = (int64_t)val.n_floats;
    t.data = fl;
    t.nbytes = val.n_floats * sizeof(float);
  } else if (strcmp(val.name, "value_int") == 0) {
    GE__ONNX_CONST_WANT(GE__ONNX_A_INT);
    t.dtype = GE_DTYPE_INT64;
    t.data = &val.i;
    t.nbytes = 8;
  } else if (strcmp(val.name, "value_ints") == 0) {
    GE__ONNX_CONST_WANT(GE__ONNX_A_INTS);
    t.dtype = GE_DTYPE_INT64;
    t.rank = 1;
    tp.dims[0] = (int64_t)val.n_ints;
    t.data = val.ints;
    t.nbytes = val.n_ints * 8;
  } else if (strcmp(val.name, "value_string") == 0) {
    GE__ONNX_CONST_WANT(GE__ONNX_A_STRING);
    if (!val.s) val.s = "";
    t.dtype = GE_DTYPE_STRING;
    t.data = (void *)&val.s;
    t.nbytes = sizeof(char *);
  } else if (strcmp(val.name, "value_strings") == 0) {
    GE__ONNX_CONST_WANT(GE__ONNX_A_STRINGS);
    t.dtype = GE_DTYPE_STRING;
    t.rank = 1;
    tp.dims[0] = (int64_t)val.n_strings;
    t.data = (void *)val.strings;
    t.nbytes = val.n_strings * sizeof(char *);
  } else
    return ge__onnx_fail(c, GE_ERR_FORMAT, "Constant node '%s' has an unexpected attribute '%s'", name, val.name);
#undef GE__ONNX_CONST_WANT
  st = ge_graph_add_const(s->g, name, &t, id, c->err);
  ge__onnx_tp_free(c, &tp);
  return st;
}

/* Pass 1 over a NodeProto: makes the node and names its outputs. */
static ge_status ge__onnx_node_make(ge__onnx_ctx *c, ge__onnx_scope *s, const ge__onnx_fld *nf, ge_node_id *id,
                                    uint8_t *is_const) {
  size_t pos = nf->start, end = nf->start + nf->len;
  ge__onnx_fld f;
  const char *op = "", *domain = "", *name = "", *made, *out;
  uint32_t n_in = 0, n_out = 0, k = 0;
  ge_status st;
  int r;
  *is_const = 0;
  while ((r = ge__onnx_next(c, &pos, end, &f)) == 1) {
    switch (f.num) {
    case 1: if (!ge__onnx_want(c, &f, 2, "NodeProto.input")) return GE_ERR_FORMAT; n_in++; break;
    case 2: if (!ge__onnx_want(c, &f, 2, "NodeProto.output")) return GE_ERR_FORMAT; n_out++; break;
    case 3: if ((st = ge__onnx_fstr(c, &f, "NodeProto.name", GE_ERR_FORMAT, &name))) return st; break;
    case 4: if ((st = ge__onnx_fstr(c, &f, "NodeProto.op_type", GE_ERR_FORMAT, &op))) return st; break;
    case 5: if (!ge__onnx_want(c, &f, 2, "NodeProto.attribute")) return GE_ERR_FORMAT; break;
    case 7: if ((st = ge__onnx_fstr(c, &f, "NodeProto.domain", GE_ERR_FORMAT, &domain))) return st; break;
    default: break;
    }
  }
  if (r < 0) return GE_ERR_FORMAT;
  if (!*op) return ge__onnx_fail(c, GE_ERR_FORMAT, "byte offset %zu: node '%s' has no op_type", nf->off, name);
  if (strcmp(domain, "ai.onnx") == 0) domain = "";
  if (!ge__onnx_map_find(&c->opsets, domain))
    return ge__onnx_fail(c, GE_ERR_FORMAT, "node '%s' (%s) is in %s%s%s, which the model imports no opset for", name, op,
                         *domain ? "domain '" : "the default domain", domain, *domain ? "'" : "");
  if (!*domain && ge__onnx_is_reserved(op))
    return ge__onnx_fail(c, GE_ERR_UNSUPPORTED, "node '%s': '%s' is not an ONNX op but one of ge's structural ops (domain 'ge')",
                         name, op);
  if (strcmp(domain, "ge") == 0 && ge__onnx_is_reserved(op)) {
    if (strcmp(op, "Data") == 0 || strcmp(op, "Const") == 0 || strcmp(op, "Variable") == 0 || strcmp(op, "NetOutput") == 0)
      return ge__onnx_fail(c, GE_ERR_UNSUPPORTED, "node '%s': ge.%s is a graph input, output or weight, not a node", name, op);
    domain = "";
  }
  if (c->functions.n) {
    size_t dl = strlen(domain), ol = strlen(op);
    char *key = (char *)ge__onnx_palloc(&c->pool, dl + ol + 2);
    if (!key) return ge__onnx_oom(c);
    memcpy(key, domain, dl);
    key[dl] = 1;
    memcpy(key + dl + 1, op, ol + 1);
    if (ge__onnx_map_find(&c->functions, key))
      return ge__onnx_fail(c, GE_ERR_UNSUPPORTED, "node '%s' calls the model-local function '%s%s%s', which ge does not inline",
                           name, domain, *domain ? "." : "", op);
  }
  if ((st = ge__onnx_unique(c, s, name, op, &made))) return st;
  if (!*domain && strcmp(op, "Constant") == 0) {
    if (n_in || n_out != 1)
      return ge__onnx_fail(c, GE_ERR_FORMAT, "Constant node '%s' has %u inputs and %u outputs, expected 0 and 1", made,
                           (unsigned)n_in, (unsigned)n_out);
    if ((st = ge__onnx_constant(c, s, nf, made, id))) return st;
    *is_const = 1;
  } else {
    if ((st = ge_graph_add_node(s->g, op, made, n_in, NULL, (int32_t)n_out, id, c->err))) return st;
    if (*domain) {
      int added;
      if ((st = ge_node_set_domain(s->g, *id, domain, c->err))) return st;
      if (!ge_graph_node(s->g, *id)->schema) {
        if (!ge__onnx_map_add(&c->a, &c->warned, domain, &added)) return ge__onnx_oom(c);
        if (added)
          ge__onnx_log(c, GE_LOG_WARN, "domain '%s': no op schemas; its nodes (first: '%s', %s) are unknown ops",
                       domain, made, op);
      }
    }
  }
  pos = nf->start;
  while ((r = ge__onnx_next(c, &pos, end, &f)) == 1) {
    if (f.num != 2) continue;
    if ((st = ge__onnx_fstr(c, &f, "NodeProto.output", GE_ERR_FORMAT, &out))) return st;
    if (*out && (st = ge__onnx_define(c, s, out, *id, k, made))) return st;
    k++;
  }
  return r < 0 ? GE_ERR_FORMAT : GE_OK;
}

/* Pass 2 over a NodeProto: wires its inputs, sets its attributes. */
static ge_status ge__onnx_node_wire(ge__onnx_ctx *c, ge__onnx_scope *s, const ge__onnx_fld *nf, ge_node_id id) {
  size_t pos = nf->start, end = nf->start + nf->len;
  ge__onnx_fld f;
  ge__onnx_holder holder;
  const ge_node *n = ge_graph_node(s->g, id);
  const char *in;
  uint32_t k = 0;
  ge_status st = GE_OK;
  int r = 0, found;
  memset(&holder, 0, sizeof holder);
  holder.node = id;
  while (!st && (r = ge__onnx_next(c, &pos, end, &f)) == 1) {
    if (f.num == 1) {
      ge_edge e;
      if ((st = ge__onnx_fstr(c, &f, "NodeProto.input", GE_ERR_FORMAT, &in))) break;
      if (*in) {
        if ((st = ge__onnx_resolve(c, s, in, &e, &found))) break;
        if (!found) {
          st = ge__onnx_fail(c, GE_ERR_FORMAT, "node '%s' (%s): input '%s' is not produced by any node, graph input or initializer%s",
                             n->name, n->op, in, s->up ? " here or in an enclosing graph" : "");
          break;
        }
        if ((st = ge_graph_set_input(s->g, id, k, e, c->err))) break;
      }
      k++;
    } else if (f.num == 5) {
      ge__onnx_attr a;
      if ((st = ge__onnx_attr_read(c, &f, &a))) {
        ge__onnx_context(c->err, "node '%s' (%s)", n->name, n->op);
        break;
      }
      if (ge_node_attr(n, a.name)) {
        st = ge__onnx_fail(c, GE_ERR_FORMAT, "node '%s' (%s) has two attributes named '%s'", n->name, n->op, a.name);
        break;
      }
      if ((st = ge__onnx_attr_apply(c, s, &holder, id, &a))) {
        ge__onnx_context(c->err, "node '%s' (%s)", n->name, n->op);
        break;
      }
    }
  }
  ge__onnx_map_free(&c->a, &holder.refs);
  if (st) return st;
  return r < 0 ? GE_ERR_FORMAT : GE_OK;
}

/* ONNX nodes are topologically sorted; nodes that read each other's
 * outputs in a cycle cannot be. */
static ge_status ge__onnx_acyclic(ge__onnx_ctx *c, const ge_graph *g) {
  uint32_t bound = ge_graph_id_bound(g), i, k, top = 0, seen = 0;
  uint32_t *deg = (uint32_t *)ge__onnx_malloc(&c->a, (size_t)bound * 2 * sizeof(uint32_t) + 1), *stack;
  ge_status st = GE_OK;
  if (!deg) return ge__onnx_oom(c);
  stack = deg + bound;
  for (i = 0; i < bound; i++) {
    const ge_node *n = ge_graph_node(g, i);
    deg[i] = 0;
    if (!n) continue;
    for (k = 0; k < n->num_inputs; k++) deg[i] += n->inputs[k].node != GE_NONE;
    deg[i] += n->num_control_inputs;
    if (!deg[i]) stack[top++] = i;
  }
  while (top) {
    const ge_node *n = ge_graph_node(g, stack[--top]);
    seen++;
    for (k = 0; k < n->num_uses + n->num_control_outputs; k++) {
      ge_node_id u = k < n->num_uses ? n->uses[k].node : n->control_outputs[k - n->num_uses];
      if (u < bound && deg[u] && --deg[u] == 0) stack[top++] = u;
    }
  }
  if (seen < ge_graph_node_count(g)) {
    for (i = 0; i < bound; i++)
      if (ge_graph_node(g, i) && deg[i]) break;
    st = ge__onnx_fail(c, GE_ERR_FORMAT, "graph '%s': node '%s' is on a cycle (ONNX nodes must be topologically sortable)",
                       ge_graph_name(g), i < bound ? ge_graph_node(g, i)->name : "?");
  }
  ge__onnx_mfree(&c->a, deg, (size_t)bound * 2 * sizeof(uint32_t) + 1);
  return st;
}

/* Reads the GraphProto in [start, end) into s->g. */
static ge_status ge__onnx_graph(ge__onnx_ctx *c, ge__onnx_scope *s, size_t start, size_t end) {
  size_t pos = start, n_nodes = 0, n_outputs = 0, k;
  ge__onnx_fld f;
  ge__onnx_map inits;
  ge__onnx_type ty;
  ge_node_id *ids = NULL, id;
  uint8_t *is_const = NULL;
  ge_edge *outs = NULL;
  const char **onames = NULL, **otexts = NULL, *name;
  int64_t data_index = 0, input_pos = 0;
  int r, any_text = 0, added, quant = 0;
  ge_status st = GE_OK;
  memset(&inits, 0, sizeof inits);
  /* wire types and counts */
  while ((r = ge__onnx_next(c, &pos, end, &f)) == 1) {
    switch (f.num) {
    case 1: if (!ge__onnx_want(c, &f, 2, "GraphProto.node")) return GE_ERR_FORMAT; n_nodes++; break;
    case 5: if (!ge__onnx_want(c, &f, 2, "GraphProto.initializer")) return GE_ERR_FORMAT; break;
    case 11: if (!ge__onnx_want(c, &f, 2, "GraphProto.input")) return GE_ERR_FORMAT; break;
    case 12: if (!ge__onnx_want(c, &f, 2, "GraphProto.output")) return GE_ERR_FORMAT; n_outputs++; break;
    case 13: if (!ge__onnx_want(c, &f, 2, "GraphProto.value_info")) return GE_ERR_FORMAT; break;
    case 14: quant = 1; break;
    case 15:
      return ge__onnx_fail(c, GE_ERR_UNSUPPORTED, "byte offset %zu: graph '%s' has sparse initializers, which ge does not support",
                           f.off, ge_graph_name(s->g));
    default: break;
    }
  }
  if (r < 0) return GE_ERR_FORMAT;
  if (quant) ge__onnx_log(c, GE_LOG_INFO, "graph '%s': quantization_annotation ignored", ge_graph_name(s->g));
  /* initializer names first: graph inputs that have one are not Data */
  pos = start;
  while (!st && (r = ge__onnx_next(c, &pos, end, &f)) == 1) {
    size_t p2 = f.start, e2 = f.start + f.len;
    ge__onnx_fld g;
    int r2;
    if (f.num != 5) continue;
    name = "";
    while (!st && (r2 = ge__onnx_next(c, &p2, e2, &g)) == 1)
      if (g.num == 8) st = ge__onnx_fstr(c, &g, "TensorProto.name", GE_ERR_FORMAT, &name);
    if (st) break;
    if (r2 < 0) st = GE_ERR_FORMAT;
    else if (!*name) st = ge__onnx_fail(c, GE_ERR_FORMAT, "byte offset %zu: an initializer has no name", f.off);
    else if (!ge__onnx_map_add(&c->a, &inits, name, &added)) st = ge__onnx_oom(c);
    else if (!added) st = ge__onnx_fail(c, GE_ERR_FORMAT, "byte offset %zu: two initializers are named '%s'", f.off, name);
  }
  if (!st && r < 0) st = GE_ERR_FORMAT;
  /* graph inputs -> Data */
  pos = start;
  while (!st && (r = ge__onnx_next(c, &pos, end, &f)) == 1) {
    const char *made;
    ge__onnx_ent *ie;
    if (f.num != 11) continue;
    input_pos++;
    if ((st = ge__onnx_value_info(c, &f, &name, &ty))) break;
    if ((ie = ge__onnx_map_find(&inits, name))) { /* an input with a default value */
      if (!ie->b) ie->b = input_pos;
      continue;
    }
    if (ge__onnx_map_find(&s->vals, name)) {
      st = ge__onnx_fail(c, GE_ERR_FORMAT, "byte offset %zu: graph '%s' has two inputs named '%s'", f.off, ge_graph_name(s->g), name);
      break;
    }
    if ((st = ge__onnx_unique(c, s, name, "Data", &made)) ||
        (st = ge_graph_add_node(s->g, "Data", made, 0, NULL, 1, &id, c->err)) ||
        (st = ge_node_set_attr_int(s->g, id, "index", data_index++, c->err)) ||
        (st = ge_node_set_output(s->g, id, 0, ty.kind == 1 ? ty.dtype : GE_DTYPE_UNDEFINED, ty.kind == 1 ? ty.rank : GE_RANK_UNKNOWN,
                                 ty.dims, ty.info, c->err)) ||
        (ty.kind == 2 && (st = ge_node_set_attr_string(s->g, id, "onnx_type", ty.text, c->err))) ||
        (st = ge__onnx_define(c, s, name, id, 0, made)))
      break;
  }
  if (!st && r < 0) st = GE_ERR_FORMAT;
  /* initializers -> Const */
  pos = start;
  while (!st && (r = ge__onnx_next(c, &pos, end, &f)) == 1) {
    ge__onnx_tp tp;
    ge_tensor t;
    const char *made;
    if (f.num != 5) continue;
    if (!(st = ge__onnx_tensor(c, f.start, f.len, 1, &tp)) && !(st = ge__onnx_unique(c, s, tp.name, "Const", &made))) {
      ge__onnx_ent *ie = ge__onnx_map_find(&inits, tp.name);
      t = ge__onnx_tp_view(&tp);
      if (!(st = ge_graph_add_const(s->g, made, &t, &id, c->err))) st = ge__onnx_define(c, s, tp.name, id, 0, made);
      if (!st && ie && ie->b && c->ir_version >= 4) /* before IR 4 every initializer is an input */
        st = ge_node_set_attr_int(s->g, id, "onnx_input_index", ie->b - 1, c->err);
    }
    ge__onnx_tp_free(c, &tp);
  }
  if (!st && r < 0) st = GE_ERR_FORMAT;
  /* nodes, pass 1: make them and their output names */
  if (!st && n_nodes) {
    ids = (ge_node_id *)ge__onnx_malloc(&c->a, n_nodes * sizeof *ids);
    is_const = (uint8_t *)ge__onnx_malloc(&c->a, n_nodes);
    if (!ids || !is_const) st = ge__onnx_oom(c);
  }
  pos = start;
  k = 0;
  while (!st && (r = ge__onnx_next(c, &pos, end, &f)) == 1)
    if (f.num == 1) {
      st = ge__onnx_node_make(c, s, &f, &ids[k], &is_const[k]);
      k++;
    }
  if (!st && r < 0) st = GE_ERR_FORMAT;
  /* declared types fill in the producers' descs (before subgraphs copy them) */
  if (!st && n_outputs && !(otexts = (const char **)ge__onnx_palloc(&c->pool, n_outputs * sizeof(char *)))) st = ge__onnx_oom(c);
  pos = start;
  k = 0;
  while (!st && (r = ge__onnx_next(c, &pos, end, &f)) == 1) {
    ge__onnx_ent *e;
    if (f.num != 12 && f.num != 13) continue;
    if ((st = ge__onnx_value_info(c, &f, &name, &ty))) break;
    if (f.num == 12) {
      otexts[k++] = ty.kind == 2 ? ty.text : "";
      any_text |= ty.kind == 2;
    }
    if ((e = ge__onnx_map_find(&s->vals, name))) {
      ge_edge src;
      src.node = (ge_node_id)e->a;
      src.index = (int32_t)e->b;
      if ((st = ge__onnx_merge(c, s->g, src, &ty, name))) break;
    }
  }
  if (!st && r < 0) st = GE_ERR_FORMAT;
  /* nodes, pass 2: inputs, attributes, subgraphs */
  pos = start;
  k = 0;
  while (!st && (r = ge__onnx_next(c, &pos, end, &f)) == 1)
    if (f.num == 1) {
      if (!is_const[k]) st = ge__onnx_node_wire(c, s, &f, ids[k]);
      k++;
    }
  if (!st && r < 0) st = GE_ERR_FORMAT;
  /* graph outputs -> NetOutput */
  if (!st && n_outputs) {
    outs = (ge_edge *)ge__onnx_malloc(&c->a, n_outputs * sizeof *outs);
    if (!outs || !(onames = (const char **)ge__onnx_palloc(&c->pool, n_outputs * sizeof(char *)))) st = ge__onnx_oom(c);
    if (!st && !s->up &&
        !(c->declared = (ge__onnx_declared *)ge__onnx_palloc(&c->pool, n_outputs * sizeof *c->declared)))
      st = ge__onnx_oom(c);
  }
  pos = start;
  k = 0;
  while (!st && (r = ge__onnx_next(c, &pos, end, &f)) == 1) {
    int found;
    if (f.num != 12) continue;
    if ((st = ge__onnx_value_info(c, &f, &name, &ty)) || (st = ge__onnx_resolve(c, s, name, &outs[k], &found))) break;
    if (!found) {
      st = ge__onnx_fail(c, GE_ERR_FORMAT, "graph '%s': output '%s' is not produced by any node, graph input or initializer%s",
                         ge_graph_name(s->g), name, s->up ? " here or in an enclosing graph" : "");
      break;
    }
    if ((st = ge__onnx_merge(c, s->g, outs[k], &ty, name))) break;
    if (!s->up && c->declared) { /* kept to check what inference makes of the graph */
      ge__onnx_declared *d = &c->declared[k];
      d->name = name;
      d->dtype = ty.kind == 1 ? ty.dtype : GE_DTYPE_UNDEFINED;
      d->rank = ty.kind == 1 ? ty.rank : GE_RANK_UNKNOWN;
      if (d->rank > 0) memcpy(d->dims, ty.dims, (size_t)d->rank * sizeof *d->dims);
      c->n_declared = k + 1;
    }
    onames[k++] = name;
  }
  if (!st && r < 0) st = GE_ERR_FORMAT;
  if (!st && n_outputs) st = ge_graph_set_outputs(s->g, (uint32_t)n_outputs, outs, onames, c->err);
  if (!st && any_text)
    st = ge_node_set_attr_strings(s->g, ge_graph_output_node(s->g), "onnx_output_types", otexts, (int32_t)n_outputs, c->err);
  if (!st) st = ge__onnx_acyclic(c, s->g);
  ge__onnx_mfree(&c->a, ids, n_nodes * sizeof *ids);
  ge__onnx_mfree(&c->a, is_const, n_nodes);
  ge__onnx_mfree(&c->a, outs, n_outputs * sizeof *outs);
  ge__onnx_map_free(&c->a, &inits);
  return st;
}

/* Reads the ModelProto in the whole input into a new root graph. */
static ge_status ge__onnx_model(ge__onnx_ctx *c, ge_graph **out) {
  size_t pos = 0, end = c->size;
  ge__onnx_fld f, graph;
  ge__onnx_scope root;
  ge_graph_desc gd;
  int64_t ir = 0, model_version = 0;
  const char *producer = NULL, *producer_version = NULL, *domain = NULL, *doc = NULL, *gname;
  int r, has_graph = 0, has_ir = 0, training = 0, added;
  uint32_t n_functions = 0;
  ge_status st;
  ge_graph *g = NULL;
  *out = NULL;
  memset(&graph, 0, sizeof graph);
  while ((r = ge__onnx_next(c, &pos, end, &f)) == 1) {
    switch (f.num) {
    case 1:
      if (!ge__onnx_want(c, &f, 0, "ModelProto.ir_version")) return GE_ERR_FORMAT;
      ir = (int64_t)f.v;
      has_ir = 1;
      break;
    case 2: if ((st = ge__onnx_fstr(c, &f, "ModelProto.producer_name", GE_ERR_FORMAT, &producer))) return st; break;
    case 3: if ((st = ge__onnx_fstr(c, &f, "ModelProto.producer_version", GE_ERR_FORMAT, &producer_version))) return st; break;
    case 4: if ((st = ge__onnx_fstr(c, &f, "ModelProto.domain", GE_ERR_FORMAT, &domain))) return st; break;
    case 5:
      if (!ge__onnx_want(c, &f, 0, "ModelProto.model_version")) return GE_ERR_FORMAT;
      model_version = (int64_t)f.v;
      break;
    case 6: /* documentation only: dropped if it holds a NUL byte */
      if (!ge__onnx_want(c, &f, 2, "ModelProto.doc_string")) return GE_ERR_FORMAT;
      if (!memchr(c->base + f.start, 0, f.len) && (st = ge__onnx_fstr(c, &f, "ModelProto.doc_string", GE_ERR_FORMAT, &doc)))
        return st;
      break;
    case 7:
      if (!ge__onnx_want(c, &f, 2, "ModelProto.graph")) return GE_ERR_FORMAT;
      graph = f;
      has_graph = 1;
      break;
    case 8: case 14: if (!ge__onnx_want(c, &f, 2, f.num == 8 ? "ModelProto.opset_import" : "ModelProto.metadata_props")) return GE_ERR_FORMAT; break;
    case 20: training = 1; break;
    case 25: { /* FunctionProto: name = 1, domain = 10 */
      size_t p2 = f.start, e2 = f.start + f.len, dl, nl;
      const char *fname = "", *fdom = "";
      ge__onnx_fld g;
      char *key;
      int r2;
      if (!ge__onnx_want(c, &f, 2, "ModelProto.functions")) return GE_ERR_FORMAT;
      while ((r2 = ge__onnx_next(c, &p2, e2, &g)) == 1) {
        if (g.num == 1 && (st = ge__onnx_fstr(c, &g, "FunctionProto.name", GE_ERR_FORMAT, &fname))) return st;
        if (g.num == 10 && (st = ge__onnx_fstr(c, &g, "FunctionProto.domain", GE_ERR_FORMAT, &fdom))) return st;
      }
      if (r2 < 0) return GE_ERR_FORMAT;
      if (strcmp(fdom, "ai.onnx") == 0) fdom = "";
      dl = strlen(fdom);
      nl = strlen(fname);
      if (!(key = (char *)ge__onnx_palloc(&c->pool, dl + nl + 2))) return ge__onnx_oom(c);
      memcpy(key, fdom, dl);
      key[dl] = 1;
      memcpy(key + dl + 1, fname, nl + 1);
      if (!ge__onnx_map_add(&c->a, &c->functions, key, &added)) return ge__onnx_oom(c);
      n_functions++;
      break;
    }
    default: break;
    }
  }
  if (r < 0) return GE_ERR_FORMAT;
  if (!has_graph) return ge__onnx_fail(c, GE_ERR_FORMAT, "byte offset 0: not an ONNX model (no graph in %zu bytes)", c->size);
  if (!has_ir) return ge__onnx_fail(c, GE_ERR_FORMAT, "byte offset 0: the model has no ir_version");
  if (ir < GE_ONNX_MIN_IR_VERSION || ir > GE_ONNX_MAX_IR_VERSION)
    return ge__onnx_fail(c, GE_ERR_UNSUPPORTED, "the model has IR version %lld; ge reads versions %d to %d", (long long)ir,
                         GE_ONNX_MIN_IR_VERSION, GE_ONNX_MAX_IR_VERSION);
  c->ir_version = ir;
  if (training) ge__onnx_log(c, GE_LOG_INFO, "training_info ignored");
  if (n_functions)
    ge__onnx_log(c, GE_LOG_INFO, "%u model-local functions ignored (a node calling one is an error)", (unsigned)n_functions);
  if ((st = ge__onnx_graph_name(c, graph.start, graph.start + graph.len, &gname))) return st;
  memset(&gd, 0, sizeof gd);
  if (c->desc) gd = c->desc->graph;
  if (!gd.name) gd.name = gname;
  if ((st = ge_graph_create(&gd, &g, c->err))) return st;
  /* the model's fields as graph attributes */
  st = ge_graph_set_attr_int(g, "onnx_ir_version", ir, c->err);
  pos = 0;
  while (!st && (r = ge__onnx_next(c, &pos, end, &f)) == 1) {
    size_t p2 = f.start, e2 = f.start + f.len;
    const char *key = "", *val = "";
    int64_t version = 0;
    ge__onnx_fld g2;
    int r2;
    if (f.num != 8 && f.num != 14) continue;
    while (!st && (r2 = ge__onnx_next(c, &p2, e2, &g2)) == 1) {
      if (g2.num == 1) st = ge__onnx_fstr(c, &g2, f.num == 8 ? "OperatorSetIdProto.domain" : "metadata key", GE_ERR_FORMAT, &key);
      else if (g2.num == 2 && f.num == 14) st = ge__onnx_fstr(c, &g2, "metadata value", GE_ERR_UNSUPPORTED, &val);
      else if (g2.num == 2) {
        if (!ge__onnx_want(c, &g2, 0, "OperatorSetIdProto.version")) st = GE_ERR_FORMAT;
        version = (int64_t)g2.v;
      }
    }
    if (st) break;
    if (r2 < 0) {
      st = GE_ERR_FORMAT;
      break;
    }
    if (f.num == 8) {
      char *an;
      size_t kl;
      if (strcmp(key, "ai.onnx") == 0) key = "";
      if (!ge__onnx_map_add(&c->a, &c->opsets, key, &added)) {
        st = ge__onnx_oom(c);
        break;
      }
      if (version <= 0) {
        st = ge__onnx_fail(c, GE_ERR_FORMAT, "the model imports opset %lld of domain '%s'; opset versions start at 1",
                           (long long)version, *key ? key : "ai.onnx");
        break;
      }
      if (!*key) {
        if (version > GE_ONNX_MAX_OPSET) {
          st = ge__onnx_fail(c, GE_ERR_UNSUPPORTED, "the model imports opset %lld of the default domain; ge supports up to %d",
                             (long long)version, GE_ONNX_MAX_OPSET);
          break;
        }
        st = ge_graph_set_attr_int(g, "onnx_opset", version, c->err);
        continue;
      }
      kl = strlen(key);
      if (!(an = (char *)ge__onnx_palloc(&c->pool, kl + 12))) {
        st = ge__onnx_oom(c);
        break;
      }
      memcpy(an, "onnx_opset:", 11);
      memcpy(an + 11, key, kl + 1);
      st = ge_graph_set_attr_int(g, an, version, c->err);
    } else {
      char *an;
      size_t kl = strlen(key);
      if (!(an = (char *)ge__onnx_palloc(&c->pool, kl + 15))) {
        st = ge__onnx_oom(c);
        break;
      }
      memcpy(an, "onnx_metadata:", 14);
      memcpy(an + 14, key, kl + 1);
      st = ge_node_set_attr_string(g, GE_NONE, an, val, c->err);
    }
  }
  if (!st && r < 0) st = GE_ERR_FORMAT;
  if (!st && producer && *producer) st = ge_node_set_attr_string(g, GE_NONE, "onnx_producer", producer, c->err);
  if (!st && producer_version && *producer_version)
    st = ge_node_set_attr_string(g, GE_NONE, "onnx_producer_version", producer_version, c->err);
  if (!st && domain && *domain) st = ge_node_set_attr_string(g, GE_NONE, "onnx_model_domain", domain, c->err);
  if (!st && model_version) st = ge_graph_set_attr_int(g, "onnx_model_version", model_version, c->err);
  if (!st && doc && *doc) st = ge_node_set_attr_string(g, GE_NONE, "onnx_doc_string", doc, c->err);
  memset(&root, 0, sizeof root);
  root.g = g;
  if (!st) st = ge__onnx_graph(c, &root, graph.start, graph.start + graph.len);
  ge__onnx_map_free(&c->a, &root.vals);
  if (st) {
    ge_graph_free(g);
    return st;
  }
  *out = g;
  return GE_OK;
}

/* Graph outputs whose declared dtype, rank or dims contradict what shape
 * inference computes from the declared inputs are an error. Inference runs
 * on a copy (weights read from the file are shared, not copied), so the
 * graph keeps the declared types; a graph that cannot be inferred yet (an
 * unknown op, say) is left to later stages. */
static ge_status ge__onnx_check_declared(ge__onnx_ctx *c, const ge_graph *model) {
  ge_node_id o = ge_graph_output_node(model);
  const ge_node *out;
  ge_graph *g = NULL;
  ge_error ignored;
  ge_status st = GE_OK;
  size_t k;
  int32_t i;
  if (o == GE_NONE || !c->n_declared || ge_graph_clone(model, NULL, &g, &ignored) != GE_OK) return GE_OK;
  if (ge_graph_infer_shapes(g, &ignored) != GE_OK || (o = ge_graph_output_node(g)) == GE_NONE) {
    ge_graph_free(g);
    return GE_OK;
  }
  out = ge_graph_node(g, o);
  for (k = 0; k < c->n_declared && k < out->num_inputs; k++) {
    const ge__onnx_declared *d = &c->declared[k];
    const ge_node *src = ge_graph_node(g, out->inputs[k].node);
    const ge_tensor_desc *t = src ? &src->outputs[out->inputs[k].index] : NULL;
    int bad = 0;
    char a[160], b[160];
    ge_shape ds;
    if (!t || ge_node_attr(src, "onnx_type")) continue;
    if (d->dtype != GE_DTYPE_UNDEFINED && t->dtype != GE_DTYPE_UNDEFINED && d->dtype != t->dtype) bad = 1;
    if (d->rank >= 0 && t->shape.rank >= 0 && d->rank != t->shape.rank) bad = 1;
    for (i = 0; !bad && d->rank >= 0 && i < d->rank && d->rank == t->shape.rank; i++)
      if (d->dims[i] >= 0 && t->shape.dims[i] >= 0 && d->dims[i] != t->shape.dims[i]) bad = 1;
    if (!bad) continue;
    ds.rank = d->rank;
    ds.dims = (int64_t *)d->dims;
    ds.info = NULL;
    st = ge__onnx_fail(c, GE_ERR_SHAPE, "graph output '%s' is declared %s%s but the graph computes %s%s", d->name,
                       ge_dtype_name(d->dtype), ge_shape_str(&ds, a, sizeof a), ge_dtype_name(t->dtype),
                       ge_shape_str(&t->shape, b, sizeof b));
    break;
  }
  ge_graph_free(g);
  return st;
}

/* ------------------------------------------------------------ public API */

static ge_status ge__onnx_load(const void *data, size_t size, ge_mapped_file *map, const char *base_dir,
                               const ge_onnx_desc *desc, ge_graph **out, ge_error *err) {
  ge__onnx_ctx c;
  ge_status st;
  ge__onnx_ctx_init(&c, data, size, desc ? &desc->graph.allocator : NULL, err);
  c.desc = desc;
  c.map = map;
  c.base_dir = base_dir;
  if (desc && desc->borrow_min_bytes) c.borrow_min = desc->borrow_min_bytes;
  if (desc && desc->no_borrow) c.borrow_min = SIZE_MAX;
  st = ge__onnx_model(&c, out);
  if (!st && (st = ge__onnx_check_declared(&c, *out))) {
    ge_graph_free(*out);
    *out = NULL;
  }
  ge__onnx_ctx_free(&c);
  return st;
}

GE_API ge_status ge_onnx_load_buffer(const void *data, size_t size, const char *base_dir, const ge_onnx_desc *desc,
                                     ge_graph **out, ge_error *err) {
  ge_error local;
  if (!err) err = &local;
  if (!out) return ge__onnx_seterr(err, GE_ERR_INVALID, "ge_onnx_load_buffer: NULL output");
  *out = NULL;
  if (!data && size) return ge__onnx_seterr(err, GE_ERR_INVALID, "ge_onnx_load_buffer: NULL data");
  return ge__onnx_load(data ? data : "", size, NULL, base_dir, desc, out, err);
}

/* The directory part of path ("." when it has none), in a fresh block of
 * *n bytes from a. */
static char *ge__onnx_dirname(const ge_allocator *a, const char *path, size_t *n) {
  const char *slash = strrchr(path, '/');
  size_t len = slash ? (size_t)(slash - path) : 1;
  char *d;
  if (slash && len == 0) len = 1; /* "/model.onnx" */
  *n = len + 1;
  if (!(d = (char *)ge__onnx_malloc(a, *n))) return NULL;
  if (slash) memcpy(d, path, len);
  else d[0] = '.';
  d[len] = 0;
  return d;
}

GE_API ge_status ge_onnx_load(const char *path, const ge_onnx_desc *desc, ge_graph **out, ge_error *err) {
  ge_error local;
  ge_mapped_file *m;
  ge_allocator a;
  ge_status st;
  char *dir;
  size_t dn;
  if (!err) err = &local;
  if (!out) return ge__onnx_seterr(err, GE_ERR_INVALID, "ge_onnx_load: NULL output");
  *out = NULL;
  if (!path) return ge__onnx_seterr(err, GE_ERR_INVALID, "ge_onnx_load: NULL path");
  a = ge_allocator_or_default(desc ? &desc->graph.allocator : NULL);
  if (!(dir = ge__onnx_dirname(&a, path, &dn))) return ge__onnx_seterr(err, GE_ERR_NOMEM, "out of memory loading '%s'", path);
  if ((st = ge_file_map(path, &m, err))) {
    ge__onnx_mfree(&a, dir, dn);
    return st;
  }
  st = ge__onnx_load(ge_mapped_file_size(m) ? ge_mapped_file_data(m) : "", ge_mapped_file_size(m), m, dir, desc, out, err);
  ge_mapped_file_release(m);
  ge__onnx_mfree(&a, dir, dn);
  if (st) ge__onnx_context(err, "'%.200s'", path);
  return st;
}

/* Copies a read tensor into one block owned by out. */
static ge_status ge__onnx_pack(ge__onnx_ctx *c, const ge__onnx_tp *t, ge_onnx_tensor *out) {
  size_t size = t->nbytes, nl = strlen(t->name) + 1, i, strings = 0;
  char *p;
  if (t->dtype == GE_DTYPE_STRING)
    for (i = 0; i < (size_t)t->numel; i++) {
      size_t l = strlen(((const char *const *)t->data)[i]) + 1;
      if (strings > SIZE_MAX / 2 - l) return ge__onnx_oom(c);
      strings += l;
    }
  if (size > SIZE_MAX / 2 - strings - nl - 16) return ge__onnx_oom(c);
  size += strings + nl;
  if (!(p = (char *)ge__onnx_malloc(&c->a, size))) return ge__onnx_oom(c);
  memset(out, 0, sizeof *out);
  out->allocator = c->a;
  out->block = p;
  out->block_size = size;
  out->dtype = t->dtype;
  out->rank = t->rank;
  memcpy(out->dims, t->dims, sizeof out->dims);
  out->numel = t->numel;
  out->nbytes = t->nbytes;
  out->data = p;
  if (t->dtype == GE_DTYPE_STRING) {
    char **ptrs = (char **)p, *s = p + t->nbytes;
    for (i = 0; i < (size_t)t->numel; i++) {
      size_t l = strlen(((const char *const *)t->data)[i]) + 1;
      memcpy(s, ((const char *const *)t->data)[i], l);
      ptrs[i] = s;
      s += l;
    }
  } else if (t->nbytes)
    memcpy(p, t->data, t->nbytes);
  memcpy(p + t->nbytes + strings, t->name, nl);
  out->name = p + t->nbytes + strings;
  return GE_OK;
}

static ge_status ge__onnx_read_tensor(const void *data, size_t size, const char *base_dir, const ge_allocator *a,
                                      ge_onnx_tensor *out, ge_error *err) {
  ge__onnx_ctx c;
  ge__onnx_tp t;
  ge_status st;
  ge__onnx_ctx_init(&c, data, size, a, err);
  c.base_dir = base_dir;
  c.borrow_min = SIZE_MAX;
  if (!(st = ge__onnx_tensor(&c, 0, size, 0, &t))) st = ge__onnx_pack(&c, &t, out);
  ge__onnx_tp_free(&c, &t);
  ge__onnx_ctx_free(&c);
  return st;
}

GE_API ge_status ge_onnx_read_tensor(const void *data, size_t size, const ge_allocator *a, ge_onnx_tensor *out,
                                     ge_error *err) {
  ge_error local;
  if (!err) err = &local;
  if (!out) return ge__onnx_seterr(err, GE_ERR_INVALID, "ge_onnx_read_tensor: NULL output");
  memset(out, 0, sizeof *out);
  if (!data && size) return ge__onnx_seterr(err, GE_ERR_INVALID, "ge_onnx_read_tensor: NULL data");
  return ge__onnx_read_tensor(data ? data : "", size, NULL, a, out, err);
}

GE_API ge_status ge_onnx_read_tensor_file(const char *path, const ge_allocator *a, ge_onnx_tensor *out, ge_error *err) {
  ge_error local;
  ge_mapped_file *m;
  ge_allocator al = ge_allocator_or_default(a);
  ge_status st;
  char *dir;
  size_t dn;
  if (!err) err = &local;
  if (!out) return ge__onnx_seterr(err, GE_ERR_INVALID, "ge_onnx_read_tensor_file: NULL output");
  memset(out, 0, sizeof *out);
  if (!path) return ge__onnx_seterr(err, GE_ERR_INVALID, "ge_onnx_read_tensor_file: NULL path");
  if ((st = ge_file_map(path, &m, err))) return st;
  if (!(dir = ge__onnx_dirname(&al, path, &dn))) {
    ge_mapped_file_release(m);
    return ge__onnx_seterr(err, GE_ERR_NOMEM, "out of memory reading '%s'", path);
  }
  st = ge__onnx_read_tensor(ge_mapped_file_size(m) ? ge_mapped_file_data(m) : "", ge_mapped_file_size(m), dir, &al, out, err);
  ge_mapped_file_release(m);
  ge__onnx_mfree(&al, dir, dn);
  if (st) ge__onnx_context(err, "'%.200s'", path);
  return st;
}

GE_API void ge_onnx_tensor_free(ge_onnx_tensor *t) {
  if (!t) return;
  if (t->block) ge__onnx_mfree(&t->allocator, t->block, t->block_size);
  memset(t, 0, sizeof *t);
}

GE_API void ge_onnx_tensor_view(const ge_onnx_tensor *t, ge_tensor *view) {
  memset(view, 0, sizeof *view);
  view->dtype = t->dtype;
  view->rank = t->rank;
  view->dims = (int64_t *)t->dims;
  view->data = t->data;
  view->nbytes = t->nbytes;
}

/* ================================================================ export */

typedef struct ge__onnx_wbuf {
  uint8_t *p;
  size_t len, cap;
  ge_allocator a;
  int oom;
} ge__onnx_wbuf;

static int ge__onnx_wroom(ge__onnx_wbuf *w, size_t n) {
  size_t cap;
  uint8_t *q;
  if (w->oom) return 0;
  if (w->cap - w->len >= n) return 1;
  if (n > SIZE_MAX / 2 - w->len) {
    w->oom = 1;
    return 0;
  }
  cap = w->cap ? w->cap : 256;
  while (cap - w->len < n) cap *= 2;
  if (!(q = (uint8_t *)ge__onnx_mrealloc(&w->a, w->p, w->cap, cap))) {
    w->oom = 1;
    return 0;
  }
  w->p = q;
  w->cap = cap;
  return 1;
}

static void ge__onnx_wraw(ge__onnx_wbuf *w, const void *d, size_t n) {
  if (!n || !ge__onnx_wroom(w, n)) return;
  memcpy(w->p + w->len, d, n);
  w->len += n;
}

static size_t ge__onnx_varint_size(uint64_t v) {
  size_t n = 1;
  while (v >= 0x80) {
    v >>= 7;
    n++;
  }
  return n;
}

static size_t ge__onnx_put_varint(uint8_t *p, uint64_t v) {
  size_t n = 0;
  while (v >= 0x80) {
    p[n++] = (uint8_t)(v | 0x80);
    v >>= 7;
  }
  p[n++] = (uint8_t)v;
  return n;
}

static void ge__onnx_wvarint(ge__onnx_wbuf *w, uint64_t v) {
  if (ge__onnx_wroom(w, 10)) w->len += ge__onnx_put_varint(w->p + w->len, v);
}
static void ge__onnx_wtag(ge__onnx_wbuf *w, uint32_t field, uint32_t wire) {
  ge__onnx_wvarint(w, ((uint64_t)field << 3) | wire);
}
static void ge__onnx_wint(ge__onnx_wbuf *w, uint32_t field, int64_t v) {
  ge__onnx_wtag(w, field, 0);
  ge__onnx_wvarint(w, (uint64_t)v);
}
static void ge__onnx_wfloat(ge__onnx_wbuf *w, uint32_t field, double v) {
  float f = (float)v;
  uint32_t bits;
  uint8_t b[4];
  memcpy(&bits, &f, 4);
  b[0] = (uint8_t)bits;
  b[1] = (uint8_t)(bits >> 8);
  b[2] = (uint8_t)(bits >> 16);
  b[3] = (uint8_t)(bits >> 24);
  ge__onnx_wtag(w, field, 5);
  ge__onnx_wraw(w, b, 4);
}
static void ge__onnx_wbytes(ge__onnx_wbuf *w, uint32_t field, const void *d, size_t n) {
  ge__onnx_wtag(w, field, 2);
  ge__onnx_wvarint(w, n);
  ge__onnx_wraw(w, d, n);
}
static void ge__onnx_wstr(ge__onnx_wbuf *w, uint32_t field, const char *s) {
  ge__onnx_wbytes(w, field, s ? s : "", s ? strlen(s) : 0);
}
/* A length-delimited message: begin returns the mark end needs. The content
 * is written in place and moved up by the size of its length afterwards. */
static size_t ge__onnx_wbegin(ge__onnx_wbuf *w, uint32_t field) {
  ge__onnx_wtag(w, field, 2);
  return w->len;
}
static void ge__onnx_wend(ge__onnx_wbuf *w, size_t mark) {
  size_t n, vs;
  if (w->oom) return;
  n = w->len - mark;
  vs = ge__onnx_varint_size(n);
  if (!ge__onnx_wroom(w, vs)) return;
  memmove(w->p + mark + vs, w->p + mark, n);
  ge__onnx_put_varint(w->p + mark, n);
  w->len += vs;
}

typedef struct ge__onnx_ex {
  ge__onnx_wbuf w;
  ge__onnx_pool pool;
  ge_allocator a;
  ge_error *err;
  int64_t ir_version;
  int uses_default;
  ge__onnx_map domains;    /* non-default domains nodes use */
  const char **domain_list; /* in first-use order */
  uint32_t n_domains, cap_domains;
} ge__onnx_ex;

/* One graph being written: the ONNX name of every node output. */
typedef struct ge__onnx_exg {
  struct ge__onnx_exg *up;
  const ge_graph *g;
  const char ***names; /* [id][output]: "" for an unnamed, unused output */
  ge__onnx_map used;   /* value names defined in this graph */
} ge__onnx_exg;

static ge_status ge__onnx_ex_fail(ge__onnx_ex *ex, ge_status code, const char *fmt, ...) GE__ONNX_PRINTF(3, 4);
static ge_status ge__onnx_ex_fail(ge__onnx_ex *ex, ge_status code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ex->err->code = code;
  vsnprintf(ex->err->message, sizeof ex->err->message, fmt, ap);
  va_end(ap);
  return code;
}
static ge_status ge__onnx_ex_oom(ge__onnx_ex *ex) {
  return ge__onnx_ex_fail(ex, GE_ERR_NOMEM, "out of memory writing the ONNX model");
}

static int ge__onnx_is(const ge_node *n, const char *op) {
  return strcmp(n->op, op) == 0 && (!n->domain || !*n->domain);
}
/* A Data node standing for an input of the node holding its graph. */
static int ge__onnx_is_parent_data(const ge_node *n) {
  return ge__onnx_is(n, "Data") && ge_node_attr(n, "parent_index") && !ge_node_attr(n, "index");
}
/* A Const written as an initializer (its value keeps the node's name). */
static int ge__onnx_is_initializer(const ge_node *n) {
  if (ge__onnx_is(n, "Variable")) return 1;
  return ge__onnx_is(n, "Const") && n->num_outputs == 1 &&
         (!n->outputs[0].name || !*n->outputs[0].name || strcmp(n->outputs[0].name, n->name) == 0);
}

static int ge__onnx_name_used(const ge__onnx_exg *x, const char *s) {
  for (; x; x = x->up)
    if (ge__onnx_map_find(&x->used, s)) return 1;
  return 0;
}

/* Claims a value name: want if free, else want_<k>. */
static const char *ge__onnx_claim(ge__onnx_ex *ex, ge__onnx_exg *x, const char *want) {
  size_t n = strlen(want) + 16;
  char *buf;
  uint32_t k = 1;
  int added;
  if (!ge__onnx_name_used(x, want)) {
    if (!ge__onnx_map_add(&ex->a, &x->used, want, &added)) return NULL;
    return want;
  }
  if (!(buf = (char *)ge__onnx_palloc(&ex->pool, n))) return NULL;
  do snprintf(buf, n, "%s_%u", want, (unsigned)k++);
  while (ge__onnx_name_used(x, buf));
  if (!ge__onnx_map_add(&ex->a, &x->used, buf, &added)) return NULL;
  return buf;
}

/* Whether output k of n feeds some node. */
static int ge__onnx_consumed(const ge_graph *g, const ge_node *n, uint32_t k) {
  uint32_t i;
  for (i = 0; i < n->num_uses; i++) {
    const ge_node *c = ge_graph_node(g, n->uses[i].node);
    if (c && n->uses[i].input < c->num_inputs && (uint32_t)c->inputs[n->uses[i].input].index == k) return 1;
  }
  return 0;
}

static void ge__onnx_heap_push(ge_node_id *heap, uint32_t *n, ge_node_id v) {
  uint32_t p = (*n)++;
  heap[p] = v;
  while (p && heap[(p - 1) / 2] > heap[p]) {
    ge_node_id x = heap[p];
    heap[p] = heap[(p - 1) / 2];
    heap[(p - 1) / 2] = x;
    p = (p - 1) / 2;
  }
}

static ge_node_id ge__onnx_heap_pop(ge_node_id *heap, uint32_t *n) {
  ge_node_id top = heap[0], x;
  uint32_t j = 0;
  heap[0] = heap[--*n];
  for (;;) {
    uint32_t l = 2 * j + 1, r = l + 1, m = j;
    if (l < *n && heap[l] < heap[m]) m = l;
    if (r < *n && heap[r] < heap[m]) m = r;
    if (m == j) break;
    x = heap[m];
    heap[m] = heap[j];
    heap[j] = x;
    j = m;
  }
  return top;
}

/* Live node ids in a topological order: first the Data and initializer
 * nodes (not written as ONNX nodes), then the smallest ready id first, so a
 * graph read from ONNX keeps its node order. */
static ge_status ge__onnx_topo(ge__onnx_ex *ex, const ge_graph *g, ge_node_id **out, uint32_t *count) {
  uint32_t bound = ge_graph_id_bound(g), i, k, heap_n = 0, n_out = 0, pass;
  uint32_t *deg = (uint32_t *)ge__onnx_malloc(&ex->a, (size_t)bound * sizeof(uint32_t));
  ge_node_id *heap = (ge_node_id *)ge__onnx_malloc(&ex->a, (size_t)bound * sizeof(ge_node_id));
  ge_node_id *order = (ge_node_id *)ge__onnx_palloc(&ex->pool, (size_t)bound * sizeof(ge_node_id) + 1);
  ge_status st = GE_OK;
  *out = order;
  *count = 0;
  if (!deg || !heap || !order) {
    st = ge__onnx_ex_oom(ex);
    goto done;
  }
  for (i = 0; i < bound; i++) {
    const ge_node *n = ge_graph_node(g, i);
    deg[i] = 0;
    if (!n) continue;
    for (k = 0; k < n->num_inputs; k++) deg[i] += n->inputs[k].node != GE_NONE;
    deg[i] += n->num_control_inputs;
  }
  for (pass = 0; pass < 2; pass++)
    for (i = 0; i < bound; i++) {
      const ge_node *n = ge_graph_node(g, i);
      int source = n && (ge__onnx_is(n, "Data") || ge__onnx_is_initializer(n));
      if (!n || deg[i] || source != (pass == 0)) continue;
      if (pass == 1) {
        ge__onnx_heap_push(heap, &heap_n, i);
        continue;
      }
      order[n_out++] = i;
      for (k = 0; k < n->num_uses + n->num_control_outputs; k++) {
        ge_node_id c = k < n->num_uses ? n->uses[k].node : n->control_outputs[k - n->num_uses];
        if (c < bound && deg[c] && --deg[c] == 0) deg[c] = UINT32_MAX; /* ready: queued in pass 1 */
      }
    }
  for (i = 0; i < bound; i++)
    if (deg[i] == UINT32_MAX) {
      deg[i] = 0;
      ge__onnx_heap_push(heap, &heap_n, i);
    }
  while (heap_n) {
    ge_node_id top = ge__onnx_heap_pop(heap, &heap_n);
    const ge_node *n = ge_graph_node(g, top);
    order[n_out++] = top;
    for (k = 0; k < n->num_uses + n->num_control_outputs; k++) {
      ge_node_id c = k < n->num_uses ? n->uses[k].node : n->control_outputs[k - n->num_uses];
      if (c < bound && deg[c] && --deg[c] == 0) ge__onnx_heap_push(heap, &heap_n, c);
    }
  }
  if (n_out < ge_graph_node_count(g)) {
    for (i = 0; i < bound; i++)
      if (ge_graph_node(g, i) && deg[i]) break;
    st = ge__onnx_ex_fail(ex, GE_ERR_CYCLE, "graph '%s' has a cycle through node '%s'", ge_graph_name(g),
                          i < bound ? ge_graph_node(g, i)->name : "?");
  }
  *count = n_out;
done:
  ge__onnx_mfree(&ex->a, deg, (size_t)bound * sizeof(uint32_t));
  ge__onnx_mfree(&ex->a, heap, (size_t)bound * sizeof(ge_node_id));
  return st;
}

/* How many leading inputs of n are ONNX inputs: trailing inputs that only
 * carry outer values into n's subgraphs (parent_index Data) are not. */
static uint32_t ge__onnx_formal_inputs(ge__onnx_ex *ex, const ge_node *n) {
  uint8_t *ref;
  uint32_t m = n->num_inputs, k;
  int any = 0;
  for (k = 0; k < n->num_attrs; k++)
    any |= n->attrs[k].type == GE_ATTR_GRAPH || n->attrs[k].type == GE_ATTR_GRAPHS;
  if (!any || !m || !(ref = (uint8_t *)ge__onnx_palloc(&ex->pool, m))) return m;
  memset(ref, 0, m);
  for (k = 0; k < n->num_attrs; k++) {
    const ge_attr *a = &n->attrs[k];
    int32_t j, cnt = a->type == GE_ATTR_GRAPH ? 1 : a->type == GE_ATTR_GRAPHS ? a->count : 0;
    for (j = 0; j < cnt; j++) {
      const ge_graph *sub = a->type == GE_ATTR_GRAPH ? a->v.g : a->v.graphs[j];
      uint32_t i, b = ge_graph_id_bound(sub);
      for (i = 0; i < b; i++) {
        const ge_node *d = ge_graph_node(sub, i);
        if (d && ge__onnx_is_parent_data(d)) {
          int64_t x = ge_node_attr_int(d, "parent_index", -1);
          if (x >= 0 && x < (int64_t)m) ref[x] = 1;
        }
      }
    }
  }
  while (m && ref[m - 1]) m--;
  return m;
}

static void ge__onnx_wtensor(ge__onnx_ex *ex, const ge_tensor *t, const char *name) {
  int32_t i;
  int64_t n = ge_tensor_numel(t);
  for (i = 0; i < t->rank; i++) ge__onnx_wint(&ex->w, 1, t->dims[i]);
  ge__onnx_wint(&ex->w, 2, (int64_t)t->dtype);
  if (name && *name) ge__onnx_wstr(&ex->w, 8, name);
  if (t->dtype == GE_DTYPE_STRING) {
    for (i = 0; i < n; i++) ge__onnx_wstr(&ex->w, 6, ((const char *const *)t->data)[i]);
    return;
  }
  ge__onnx_wtag(&ex->w, 9, 2);
  ge__onnx_wvarint(&ex->w, t->nbytes);
  if (ge__onnx_wroom(&ex->w, t->nbytes) && t->nbytes) {
    memcpy(ex->w.p + ex->w.len, t->data, t->nbytes);
    if (!ge__onnx_little_endian()) ge__onnx_swap(ex->w.p + ex->w.len, t->nbytes, ge__onnx_swap_unit(t->dtype));
    ex->w.len += t->nbytes;
  }
}

/* Type text (see the header comment) back to TypeProto fields. */
static int ge__onnx_tword(ge__onnx_ex *ex, const char **s, const char **out) {
  const char *p = *s;
  char *buf;
  size_t n = 0;
  if (*p == '"') {
    const char *q = ++p;
    while (*q && *q != '"') q += (*q == '\\' && q[1]) ? 2 : 1;
    if (*q != '"') return 0;
    if (!(buf = (char *)ge__onnx_palloc(&ex->pool, (size_t)(q - p) + 1))) return 0;
    while (p < q) {
      if (*p == '\\') p++;
      buf[n++] = *p++;
    }
    buf[n] = 0;
    *s = q + 1;
    *out = buf;
    return 1;
  }
  while (p[n] && (ge__onnx_bare_char(p[n], n == 0) || (p[n] >= '0' && p[n] <= '9'))) n++;
  if (!n || !(buf = ge__onnx_pstrn(&ex->pool, p, n))) return 0;
  *s = p + n;
  *out = buf;
  return 1;
}

static int ge__onnx_tdtype(ge__onnx_ex *ex, const char **s, int64_t *dt) {
  const char *w;
  ge_dtype t;
  if (!ge__onnx_tword(ex, s, &w)) return 0;
  if (strcmp(w, "undefined") == 0) {
    *dt = 0;
    return 1;
  }
  if ((t = ge_dtype_from_name(w)) == GE_DTYPE_UNDEFINED) return 0;
  *dt = (int64_t)t;
  return 1;
}

static int ge__onnx_tlit(const char **s, const char *lit) {
  size_t n = strlen(lit);
  if (strncmp(*s, lit, n) != 0) return 0;
  *s += n;
  return 1;
}

static int ge__onnx_ttype(ge__onnx_ex *ex, const char **s, int depth) {
  ge__onnx_wbuf *w = &ex->w;
  size_t m, m2;
  int64_t dt;
  int sparse, seq;
  if (depth > GE_ONNX_MAX_DEPTH) return 0;
  if (ge__onnx_tlit(s, "none")) return 1;
  if ((sparse = ge__onnx_tlit(s, "sparse_tensor(")) || ge__onnx_tlit(s, "tensor(")) {
    m = ge__onnx_wbegin(w, sparse ? 8 : 1);
    if (!ge__onnx_tdtype(ex, s, &dt) || !ge__onnx_tlit(s, ")")) return 0;
    ge__onnx_wint(w, 1, dt);
    if (ge__onnx_tlit(s, "[")) {
      m2 = ge__onnx_wbegin(w, 2);
      while (!ge__onnx_tlit(s, "]")) {
        size_t dm = ge__onnx_wbegin(w, 1);
        if (**s == '?') (*s)++;
        else if (**s >= '0' && **s <= '9') {
          uint64_t v = 0;
          while (**s >= '0' && **s <= '9') {
            if (v > (UINT64_MAX >> 4)) return 0;
            v = v * 10 + (uint64_t)(*(*s)++ - '0');
          }
          ge__onnx_wint(w, 1, (int64_t)v);
        } else {
          const char *sym;
          if (!ge__onnx_tword(ex, s, &sym)) return 0;
          ge__onnx_wstr(w, 2, sym);
        }
        ge__onnx_wend(w, dm);
        if (**s != ']' && !ge__onnx_tlit(s, ",")) return 0;
      }
      ge__onnx_wend(w, m2);
    }
    ge__onnx_wend(w, m);
    return 1;
  }
  if ((seq = ge__onnx_tlit(s, "seq(")) || ge__onnx_tlit(s, "optional(")) {
    m = ge__onnx_wbegin(w, seq ? 4 : 9);
    m2 = ge__onnx_wbegin(w, 1);
    if (!ge__onnx_ttype(ex, s, depth + 1) || !ge__onnx_tlit(s, ")")) return 0;
    ge__onnx_wend(w, m2);
    ge__onnx_wend(w, m);
    return 1;
  }
  if (ge__onnx_tlit(s, "map(")) {
    m = ge__onnx_wbegin(w, 5);
    if (!ge__onnx_tdtype(ex, s, &dt) || !ge__onnx_tlit(s, ",")) return 0;
    ge__onnx_wint(w, 1, dt);
    m2 = ge__onnx_wbegin(w, 2);
    if (!ge__onnx_ttype(ex, s, depth + 1) || !ge__onnx_tlit(s, ")")) return 0;
    ge__onnx_wend(w, m2);
    ge__onnx_wend(w, m);
    return 1;
  }
  if (ge__onnx_tlit(s, "opaque(")) {
    const char *dom, *name;
    m = ge__onnx_wbegin(w, 7);
    if (!ge__onnx_tword(ex, s, &dom) || !ge__onnx_tlit(s, ",") || !ge__onnx_tword(ex, s, &name) || !ge__onnx_tlit(s, ")"))
      return 0;
    if (*dom) ge__onnx_wstr(w, 1, dom);
    if (*name) ge__onnx_wstr(w, 2, name);
    ge__onnx_wend(w, m);
    return 1;
  }
  return 0;
}

/* A ValueInfoProto as field `field`: the type from text when given, else from
 * the desc (nothing when neither says anything). */
static ge_status ge__onnx_wvalue(ge__onnx_ex *ex, uint32_t field, const char *name, const ge_tensor_desc *d,
                                 const char *text) {
  ge__onnx_wbuf *w = &ex->w;
  size_t m = ge__onnx_wbegin(w, field), tm;
  ge__onnx_wstr(w, 1, name);
  if (text && *text) {
    const char *s = text;
    tm = ge__onnx_wbegin(w, 2);
    if (!ge__onnx_ttype(ex, &s, 0) || *s)
      return ge__onnx_ex_fail(ex, GE_ERR_INVALID, "value '%s': cannot read type '%s'", name, text);
    ge__onnx_wend(w, tm);
  } else if (d && (d->dtype != GE_DTYPE_UNDEFINED || d->shape.rank >= 0)) {
    size_t t1;
    int32_t i;
    tm = ge__onnx_wbegin(w, 2);
    t1 = ge__onnx_wbegin(w, 1);
    ge__onnx_wint(w, 1, (int64_t)d->dtype);
    if (d->shape.rank >= 0) {
      size_t sm = ge__onnx_wbegin(w, 2);
      for (i = 0; i < d->shape.rank; i++) {
        size_t dm = ge__onnx_wbegin(w, 1);
        const char *sym = d->shape.info ? d->shape.info[i].symbol : NULL;
        if (d->shape.dims[i] >= 0) ge__onnx_wint(w, 1, d->shape.dims[i]);
        else if (sym && *sym) ge__onnx_wstr(w, 2, sym);
        ge__onnx_wend(w, dm);
      }
      ge__onnx_wend(w, sm);
    }
    ge__onnx_wend(w, t1);
    ge__onnx_wend(w, tm);
  }
  ge__onnx_wend(w, m);
  return GE_OK;
}

static ge_status ge__onnx_wgraph(ge__onnx_ex *ex, ge__onnx_exg *up, const ge_graph *g, int depth);

static ge_status ge__onnx_wsubgraph(ge__onnx_ex *ex, ge__onnx_exg *x, uint32_t field, const ge_graph *sub, int depth) {
  size_t m = ge__onnx_wbegin(&ex->w, field);
  ge_status st = ge__onnx_wgraph(ex, x, sub, depth + 1);
  ge__onnx_wend(&ex->w, m);
  return st;
}

/* An attribute of a node (field 5 of NodeProto). */
static ge_status ge__onnx_wattr(ge__onnx_ex *ex, ge__onnx_exg *x, const ge_attr *a, int depth) {
  ge__onnx_wbuf *w = &ex->w;
  size_t m = ge__onnx_wbegin(w, 5), tm;
  int32_t i;
  int type;
  ge_status st = GE_OK;
  ge__onnx_wstr(w, 1, a->name);
  switch (a->type) {
  case GE_ATTR_INT: ge__onnx_wint(w, 3, a->v.i); type = GE__ONNX_A_INT; break;
  case GE_ATTR_BOOL: ge__onnx_wint(w, 3, a->v.b ? 1 : 0); type = GE__ONNX_A_INT; break;
  case GE_ATTR_DTYPE: ge__onnx_wint(w, 3, (int64_t)a->v.dt); type = GE__ONNX_A_INT; break;
  case GE_ATTR_FLOAT: ge__onnx_wfloat(w, 2, a->v.f); type = GE__ONNX_A_FLOAT; break;
  case GE_ATTR_STRING: ge__onnx_wstr(w, 4, a->v.s); type = GE__ONNX_A_STRING; break;
  case GE_ATTR_TENSOR:
    tm = ge__onnx_wbegin(w, 5);
    ge__onnx_wtensor(ex, a->v.t, NULL);
    ge__onnx_wend(w, tm);
    type = GE__ONNX_A_TENSOR;
    break;
  case GE_ATTR_GRAPH: st = ge__onnx_wsubgraph(ex, x, 6, a->v.g, depth); type = GE__ONNX_A_GRAPH; break;
  case GE_ATTR_INTS:
    for (i = 0; i < a->count; i++) ge__onnx_wint(w, 8, a->v.ints[i]);
    type = GE__ONNX_A_INTS;
    break;
  case GE_ATTR_BOOLS:
    for (i = 0; i < a->count; i++) ge__onnx_wint(w, 8, a->v.bools[i] ? 1 : 0);
    type = GE__ONNX_A_INTS;
    break;
  case GE_ATTR_DTYPES:
    for (i = 0; i < a->count; i++) ge__onnx_wint(w, 8, (int64_t)a->v.dtypes[i]);
    type = GE__ONNX_A_INTS;
    break;
  case GE_ATTR_FLOATS:
    for (i = 0; i < a->count; i++) ge__onnx_wfloat(w, 7, a->v.floats[i]);
    type = GE__ONNX_A_FLOATS;
    break;
  case GE_ATTR_STRINGS:
    for (i = 0; i < a->count; i++) ge__onnx_wstr(w, 9, a->v.strings[i]);
    type = GE__ONNX_A_STRINGS;
    break;
  case GE_ATTR_TENSORS:
    for (i = 0; i < a->count; i++) {
      tm = ge__onnx_wbegin(w, 10);
      ge__onnx_wtensor(ex, a->v.tensors[i], NULL);
      ge__onnx_wend(w, tm);
    }
    type = GE__ONNX_A_TENSORS;
    break;
  case GE_ATTR_GRAPHS:
    for (i = 0; i < a->count && !st; i++) st = ge__onnx_wsubgraph(ex, x, 11, a->v.graphs[i], depth);
    type = GE__ONNX_A_GRAPHS;
    break;
  default: return ge__onnx_ex_fail(ex, GE_ERR_INVALID, "attribute '%s' has invalid type %d", a->name, (int)a->type);
  }
  ge__onnx_wint(w, 20, type);
  ge__onnx_wend(w, m);
  return st;
}

/* Names every node output of x->g with its ONNX value name. */
static ge_status ge__onnx_name_values(ge__onnx_ex *ex, ge__onnx_exg *x) {
  const ge_graph *g = x->g;
  uint32_t bound = ge_graph_id_bound(g), i, k;
  ge_node_id out = ge_graph_output_node(g);
  const ge_node *on = out != GE_NONE ? ge_graph_node(g, out) : NULL;
  if (!(x->names = (const char ***)ge__onnx_palloc(&ex->pool, (size_t)bound * sizeof(char **) + 1))) return ge__onnx_ex_oom(ex);
  for (i = 0; i < bound; i++) {
    const ge_node *n = ge_graph_node(g, i);
    x->names[i] = NULL;
    if (!n || !n->num_outputs) continue;
    if (!(x->names[i] = (const char **)ge__onnx_palloc(&ex->pool, n->num_outputs * sizeof(char *)))) return ge__onnx_ex_oom(ex);
    for (k = 0; k < n->num_outputs; k++) x->names[i][k] = NULL;
    if (ge__onnx_is_parent_data(n)) {
      int64_t p = ge_node_attr_int(n, "parent_index", -1);
      ge_node_id h = ge_graph_parent_node(g);
      const ge_node *hn;
      if (!x->up || h == GE_NONE || !(hn = ge_graph_node(x->up->g, h)))
        return ge__onnx_ex_fail(ex, GE_ERR_INVALID, "Data node '%s' has a parent_index but graph '%s' is not a subgraph",
                                n->name, ge_graph_name(g));
      if (p < 0 || p >= (int64_t)hn->num_inputs || hn->inputs[p].node == GE_NONE)
        return ge__onnx_ex_fail(ex, GE_ERR_INVALID, "Data node '%s' has parent_index %lld, which is no connected input of node '%s'",
                                n->name, (long long)p, hn->name);
      x->names[i][0] = x->up->names[hn->inputs[p].node][hn->inputs[p].index];
      continue;
    }
    if (ge__onnx_is(n, "NetOutput")) {
      for (k = 0; k < n->num_outputs; k++) x->names[i][k] = "";
      continue;
    }
    for (k = 0; k < n->num_outputs; k++) {
      const char *want = n->outputs[k].name;
      int added;
      if ((!want || !*want) && k == 0 && (ge__onnx_is(n, "Data") || ge__onnx_is(n, "Const") || ge__onnx_is(n, "Variable")))
        want = n->name;
      if (want && *want && !ge__onnx_name_used(x, want)) {
        if (!ge__onnx_map_add(&ex->a, &x->used, want, &added)) return ge__onnx_ex_oom(ex);
        x->names[i][k] = want;
      }
    }
  }
  /* a graph output takes its NetOutput name when its value has none */
  for (k = 0; on && k < on->num_inputs; k++) {
    ge_edge e = on->inputs[k];
    const char *want = k < on->num_outputs ? on->outputs[k].name : NULL;
    int added;
    if (e.node == GE_NONE || !x->names[e.node] || x->names[e.node][e.index] || !want || !*want || ge__onnx_name_used(x, want))
      continue;
    if (!ge__onnx_map_add(&ex->a, &x->used, want, &added)) return ge__onnx_ex_oom(ex);
    x->names[e.node][e.index] = want;
  }
  /* made names for the rest that need one */
  for (i = 0; i < bound; i++) {
    const ge_node *n = ge_graph_node(g, i);
    if (!n || !x->names[i]) continue;
    for (k = 0; k < n->num_outputs; k++) {
      const char *want = n->outputs[k].name;
      char buf[64];
      if (x->names[i][k]) continue;
      if ((!want || !*want) && !ge__onnx_consumed(g, n, k)) {
        x->names[i][k] = "";
        continue;
      }
      if (!want || !*want) {
        size_t nl = strlen(n->name) + 24;
        char *s = (char *)ge__onnx_palloc(&ex->pool, nl);
        if (!s) return ge__onnx_ex_oom(ex);
        snprintf(buf, sizeof buf, "_out%u", (unsigned)k);
        snprintf(s, nl, "%s%s", n->name, k || n->num_outputs > 1 ? buf : "");
        want = s;
      }
      if (!(x->names[i][k] = ge__onnx_claim(ex, x, want))) return ge__onnx_ex_oom(ex);
    }
  }
  return GE_OK;
}

/* Writes the content of a GraphProto for g. */
static ge_status ge__onnx_wgraph(ge__onnx_ex *ex, ge__onnx_exg *up, const ge_graph *g, int depth) {
  ge__onnx_wbuf *w = &ex->w;
  ge__onnx_exg x;
  ge_node_id *order = NULL, *inputs = NULL, *slots = NULL, out = ge_graph_output_node(g);
  const ge_node *on = out != GE_NONE ? ge_graph_node(g, out) : NULL;
  const char **gout = NULL, **ident_in = NULL;
  const ge_attr *otypes = on ? ge_node_attr(on, "onnx_output_types") : NULL;
  ge__onnx_map outset;
  uint32_t n_order = 0, i, k, n_in, n_ci = 0, n_out = on ? on->num_inputs : 0;
  ge_status st = GE_OK;
  memset(&x, 0, sizeof x);
  memset(&outset, 0, sizeof outset);
  x.up = up;
  x.g = g;
  if (depth > GE_ONNX_MAX_DEPTH)
    return ge__onnx_ex_fail(ex, GE_ERR_INVALID, "graph '%s': subgraphs nested deeper than %d", ge_graph_name(g), GE_ONNX_MAX_DEPTH);
  if ((st = ge__onnx_topo(ex, g, &order, &n_order)) || (st = ge__onnx_name_values(ex, &x))) goto done;
  /* graph outputs: an Identity renames a value whose name differs */
  if (n_out && (!(gout = (const char **)ge__onnx_palloc(&ex->pool, n_out * sizeof(char *))) ||
                !(ident_in = (const char **)ge__onnx_palloc(&ex->pool, n_out * sizeof(char *))))) {
    st = ge__onnx_ex_oom(ex);
    goto done;
  }
  for (k = 0; k < n_out; k++) {
    ge_edge e = on->inputs[k];
    const char *v, *o = k < on->num_outputs ? on->outputs[k].name : NULL;
    int added;
    if (e.node == GE_NONE) {
      st = ge__onnx_ex_fail(ex, GE_ERR_INVALID, "graph '%s': output %u is not connected", ge_graph_name(g), (unsigned)k);
      goto done;
    }
    v = x.names[e.node][e.index];
    ident_in[k] = NULL;
    gout[k] = v;
    if (o && *o && strcmp(o, v) != 0) {
      if (!(gout[k] = ge__onnx_claim(ex, &x, o))) {
        st = ge__onnx_ex_oom(ex);
        goto done;
      }
      ident_in[k] = v;
    }
    if (!ge__onnx_map_add(&ex->a, &outset, gout[k], &added)) {
      st = ge__onnx_ex_oom(ex);
      goto done;
    }
  }
  /* nodes */
  for (i = 0; i < n_order && !st; i++) {
    const ge_node *n = ge_graph_node(g, order[i]);
    size_t m;
    uint32_t nf;
    if (ge__onnx_is(n, "Data") || ge__onnx_is(n, "NetOutput") || ge__onnx_is_initializer(n)) continue;
    m = ge__onnx_wbegin(w, 1);
    if (ge__onnx_is(n, "Const")) { /* named differently from its value: a Constant node */
      const ge_attr *v = ge_node_attr(n, "value");
      size_t am, tm;
      if (!v || v->type != GE_ATTR_TENSOR) {
        st = ge__onnx_ex_fail(ex, GE_ERR_INVALID, "Const node '%s' has no tensor 'value'", n->name);
        break;
      }
      for (k = 0; k < n->num_outputs; k++) ge__onnx_wstr(w, 2, x.names[n->id][k]);
      ge__onnx_wstr(w, 3, n->name);
      ge__onnx_wstr(w, 4, "Constant");
      am = ge__onnx_wbegin(w, 5);
      ge__onnx_wstr(w, 1, "value");
      tm = ge__onnx_wbegin(w, 5);
      ge__onnx_wtensor(ex, v->v.t, NULL);
      ge__onnx_wend(w, tm);
      ge__onnx_wint(w, 20, GE__ONNX_A_TENSOR);
      ge__onnx_wend(w, am);
      ge__onnx_wend(w, m);
      ex->uses_default = 1;
      continue;
    }
    nf = ge__onnx_formal_inputs(ex, n);
    for (k = 0; k < nf; k++) {
      ge_edge e = n->inputs[k];
      ge__onnx_wstr(w, 1, e.node == GE_NONE ? "" : x.names[e.node][e.index]);
    }
    for (k = 0; k < n->num_outputs; k++) ge__onnx_wstr(w, 2, x.names[n->id][k]);
    ge__onnx_wstr(w, 3, n->name);
    ge__onnx_wstr(w, 4, n->op);
    if ((n->domain && *n->domain) || ge__onnx_is_reserved(n->op)) {
      const char *dom = n->domain && *n->domain ? n->domain : "ge";
      int added;
      ge__onnx_wstr(w, 7, dom);
      if (!ge__onnx_map_add(&ex->a, &ex->domains, dom, &added)) st = ge__onnx_ex_oom(ex);
      else if (added) {
        if (ex->n_domains == ex->cap_domains) {
          uint32_t cap = ex->cap_domains ? ex->cap_domains * 2 : 8;
          const char **l = (const char **)ge__onnx_palloc(&ex->pool, cap * sizeof(char *));
          if (!l) {
            st = ge__onnx_ex_oom(ex);
            break;
          }
          if (ex->n_domains) memcpy((void *)l, (const void *)ex->domain_list, ex->n_domains * sizeof(char *));
          ex->domain_list = l;
          ex->cap_domains = cap;
        }
        ex->domain_list[ex->n_domains++] = dom;
      }
    } else
      ex->uses_default = 1;
    for (k = 0; k < n->num_attrs && !st; k++) st = ge__onnx_wattr(ex, &x, &n->attrs[k], depth);
    ge__onnx_wend(w, m);
    if (st) ge__onnx_context(ex->err, "node '%s' (%s)", n->name, n->op);
  }
  for (k = 0; k < n_out && !st; k++)
    if (ident_in[k]) {
      size_t m = ge__onnx_wbegin(w, 1);
      ge__onnx_wstr(w, 1, ident_in[k]);
      ge__onnx_wstr(w, 2, gout[k]);
      ge__onnx_wstr(w, 3, gout[k]);
      ge__onnx_wstr(w, 4, "Identity");
      ge__onnx_wend(w, m);
      ex->uses_default = 1;
    }
  if (st) goto done;
  if (*ge_graph_name(g)) ge__onnx_wstr(w, 2, ge_graph_name(g));
  /* initializers */
  for (i = 0; i < n_order; i++) {
    const ge_node *n = ge_graph_node(g, order[i]);
    const ge_attr *v;
    size_t m;
    if (!ge__onnx_is_initializer(n)) continue;
    v = ge_node_attr(n, "value");
    if (!v || v->type != GE_ATTR_TENSOR) {
      st = ge__onnx_ex_fail(ex, ge__onnx_is(n, "Const") ? GE_ERR_INVALID : GE_ERR_UNSUPPORTED,
                            "%s node '%s' has no tensor 'value' to write as an initializer", n->op, n->name);
      goto done;
    }
    m = ge__onnx_wbegin(w, 5);
    ge__onnx_wtensor(ex, v->v.t, x.names[n->id][0]);
    ge__onnx_wend(w, m);
  }
  /* graph inputs: Data by index, initializers that are inputs too (before IR
     4: all of them) at their recorded positions */
  n_in = ge_graph_inputs(g, NULL, 0);
  for (i = 0; i < n_order; i++) {
    const ge_node *n = ge_graph_node(g, order[i]);
    if (ge__onnx_is(n, "Data") && !ge_node_attr(n, "index") && !ge_node_attr(n, "parent_index")) {
      st = ge__onnx_ex_fail(ex, GE_ERR_INVALID, "Data node '%s' has neither index nor parent_index", n->name);
      goto done;
    }
    if (ge__onnx_is_initializer(n) && (ex->ir_version < 4 || ge_node_attr(n, "onnx_input_index"))) n_ci++;
    /* (before IR 4 all initializers are inputs: after the Data nodes, unless placed) */
  }
  if (n_in + n_ci && (!(inputs = (ge_node_id *)ge__onnx_palloc(&ex->pool, (n_in + n_ci) * sizeof(ge_node_id))) ||
                      !(slots = (ge_node_id *)ge__onnx_palloc(&ex->pool, (n_in + n_ci) * sizeof(ge_node_id))))) {
    st = ge__onnx_ex_oom(ex);
    goto done;
  }
  for (k = 0; k < n_in + n_ci; k++) inputs[k] = slots[k] = GE_NONE;
  ge_graph_inputs(g, inputs, n_in);
  for (k = 0; k < n_in; k++)
    if (inputs[k] == GE_NONE) {
      st = ge__onnx_ex_fail(ex, GE_ERR_INVALID, "graph '%s': no Data node has index %u (indices must be 0..%u)", ge_graph_name(g),
                            (unsigned)k, (unsigned)n_in - 1);
      goto done;
    }
  for (i = 0, k = n_in; i < n_order; i++) { /* initializer inputs: at their place, else after the rest */
    const ge_node *n = ge_graph_node(g, order[i]);
    int64_t p;
    if (!ge__onnx_is_initializer(n) || (ex->ir_version >= 4 && !ge_node_attr(n, "onnx_input_index"))) continue;
    p = ge_node_attr_int(n, "onnx_input_index", -1);
    if (p >= 0 && p < (int64_t)(n_in + n_ci) && slots[p] == GE_NONE) slots[p] = n->id;
    else inputs[k++] = n->id; /* deferred */
  }
  for (i = 0, k = 0; i < n_in + n_ci && !st; i++) {
    const ge_node *n;
    if (slots[i] == GE_NONE) slots[i] = inputs[k++];
    n = ge_graph_node(g, slots[i]);
    st = ge__onnx_wvalue(ex, 11, x.names[n->id][0], &n->outputs[0],
                         ge__onnx_is(n, "Data") ? ge_node_attr_string(n, "onnx_type", NULL) : NULL);
  }
  /* graph outputs */
  for (k = 0; k < n_out && !st; k++) {
    const ge_tensor_desc *d = k < on->num_outputs ? &on->outputs[k] : NULL;
    const char *text = otypes && otypes->type == GE_ATTR_STRINGS && (int32_t)k < otypes->count ? otypes->v.strings[k] : NULL;
    if (!d || (d->dtype == GE_DTYPE_UNDEFINED && d->shape.rank < 0)) d = ge_node_input_desc(g, on, k);
    st = ge__onnx_wvalue(ex, 12, gout[k], d, text);
  }
  /* value_info: what is known about the other values */
  for (i = 0; i < n_order && !st; i++) {
    const ge_node *n = ge_graph_node(g, order[i]);
    if (ge__onnx_is(n, "Data") || ge__onnx_is(n, "NetOutput") || ge__onnx_is(n, "Const") || ge__onnx_is(n, "Variable"))
      continue;
    for (k = 0; k < n->num_outputs && !st; k++) {
      const ge_tensor_desc *d = &n->outputs[k];
      const char *v = x.names[n->id][k];
      if (!*v || ge__onnx_map_find(&outset, v) || (d->dtype == GE_DTYPE_UNDEFINED && d->shape.rank < 0)) continue;
      st = ge__onnx_wvalue(ex, 13, v, d, NULL);
    }
  }
  if (!st && w->oom) st = ge__onnx_ex_oom(ex);
done:
  if (st && up) ge__onnx_context(ex->err, "in subgraph '%s'", ge_graph_name(g));
  ge__onnx_map_free(&ex->a, &x.used);
  ge__onnx_map_free(&ex->a, &outset);
  return st;
}

/* The bytes of the ModelProto for root graph g, in ex->w. */
static ge_status ge__onnx_wmodel(ge__onnx_ex *ex, const ge_graph *g) {
  ge__onnx_wbuf *w = &ex->w;
  const ge_attr *a;
  uint32_t i, k;
  size_t m;
  int from_onnx;
  ge_status st;
  if (ge_graph_parent(g))
    return ge__onnx_ex_fail(ex, GE_ERR_INVALID, "graph '%s' is a subgraph: export its root graph", ge_graph_name(g));
  a = ge_graph_attr(g, "onnx_ir_version");
  from_onnx = a && a->type == GE_ATTR_INT;
  ex->ir_version = from_onnx ? a->v.i : 8;
  ge__onnx_wint(w, 1, ex->ir_version);
  a = ge_graph_attr(g, "onnx_producer");
  if (a && a->type == GE_ATTR_STRING) ge__onnx_wstr(w, 2, a->v.s);
  else if (!from_onnx) ge__onnx_wstr(w, 2, "ge");
  if ((a = ge_graph_attr(g, "onnx_producer_version")) && a->type == GE_ATTR_STRING) ge__onnx_wstr(w, 3, a->v.s);
  if ((a = ge_graph_attr(g, "onnx_model_domain")) && a->type == GE_ATTR_STRING) ge__onnx_wstr(w, 4, a->v.s);
  if ((a = ge_graph_attr(g, "onnx_model_version")) && a->type == GE_ATTR_INT) ge__onnx_wint(w, 5, a->v.i);
  if ((a = ge_graph_attr(g, "onnx_doc_string")) && a->type == GE_ATTR_STRING) ge__onnx_wstr(w, 6, a->v.s);
  m = ge__onnx_wbegin(w, 7);
  if ((st = ge__onnx_wgraph(ex, NULL, g, 0))) return st;
  ge__onnx_wend(w, m);
  /* opset imports: the recorded ones, then domains nodes use without one */
  a = ge_graph_attr(g, "onnx_opset");
  if ((a && a->type == GE_ATTR_INT) || ex->uses_default) {
    m = ge__onnx_wbegin(w, 8);
    ge__onnx_wstr(w, 1, "");
    ge__onnx_wint(w, 2, a && a->type == GE_ATTR_INT ? a->v.i : 17);
    ge__onnx_wend(w, m);
  }
  for (i = 0; i < ge_graph_num_attrs(g); i++) {
    const ge_attr *b = ge_graph_attr_at(g, i);
    if (strncmp(b->name, "onnx_opset:", 11) == 0 && b->type == GE_ATTR_INT) {
      ge__onnx_ent *e = ge__onnx_map_find(&ex->domains, b->name + 11);
      if (e) e->a = 1; /* written */
      m = ge__onnx_wbegin(w, 8);
      ge__onnx_wstr(w, 1, b->name + 11);
      ge__onnx_wint(w, 2, b->v.i);
      ge__onnx_wend(w, m);
    }
  }
  for (k = 0; k < ex->n_domains; k++) {
    ge__onnx_ent *e = ge__onnx_map_find(&ex->domains, ex->domain_list[k]);
    if (e && e->a) continue;
    m = ge__onnx_wbegin(w, 8);
    ge__onnx_wstr(w, 1, ex->domain_list[k]);
    ge__onnx_wint(w, 2, 1);
    ge__onnx_wend(w, m);
  }
  for (i = 0; i < ge_graph_num_attrs(g); i++) {
    const ge_attr *b = ge_graph_attr_at(g, i);
    if (strncmp(b->name, "onnx_metadata:", 14) == 0 && b->type == GE_ATTR_STRING) {
      m = ge__onnx_wbegin(w, 14);
      ge__onnx_wstr(w, 1, b->name + 14);
      ge__onnx_wstr(w, 2, b->v.s);
      ge__onnx_wend(w, m);
    }
  }
  return w->oom ? ge__onnx_ex_oom(ex) : GE_OK;
}

GE_API ge_status ge_onnx_save_buffer(const ge_graph *g, uint8_t **out, size_t *size, ge_error *err) {
  ge__onnx_ex ex;
  ge_error local;
  ge_status st;
  if (!err) err = &local;
  if (out) *out = NULL;
  if (size) *size = 0;
  if (!g || !out || !size) return ge__onnx_seterr(err, GE_ERR_INVALID, "ge_onnx_save_buffer: NULL argument");
  memset(&ex, 0, sizeof ex);
  ex.a = ge_allocator_or_default(ge_graph_allocator(g));
  ex.w.a = ex.a;
  ex.pool.a = ex.a;
  ex.err = err;
  st = ge__onnx_wmodel(&ex, g);
  ge__onnx_map_free(&ex.a, &ex.domains);
  ge__onnx_pool_free(&ex.pool);
  if (!st) { /* hand out a block of exactly the size: ge_graph_free_bytes frees that */
    uint8_t *q = ex.w.len == ex.w.cap ? ex.w.p : (uint8_t *)ge__onnx_mrealloc(&ex.a, ex.w.p, ex.w.cap, ex.w.len);
    if (q) {
      *out = q;
      *size = ex.w.len;
      return GE_OK;
    }
    st = ge__onnx_seterr(err, GE_ERR_NOMEM, "out of memory writing the ONNX model");
  }
  ge__onnx_mfree(&ex.a, ex.w.p, ex.w.cap);
  return st;
}

GE_API ge_status ge_onnx_save(const ge_graph *g, const char *path, ge_error *err) {
  uint8_t *bytes;
  size_t size;
  FILE *f;
  ge_status st;
  ge_error local;
  int bad;
  if (!err) err = &local;
  if (!path) return ge__onnx_seterr(err, GE_ERR_INVALID, "ge_onnx_save: NULL path");
  if ((st = ge_onnx_save_buffer(g, &bytes, &size, err))) return st;
  if (!(f = fopen(path, "wb"))) {
    ge_graph_free_bytes(g, bytes, size);
    return ge__onnx_seterr(err, GE_ERR_IO, "cannot create '%s'", path);
  }
  bad = fwrite(bytes, 1, size, f) != size;
  if (fclose(f) != 0) bad = 1;
  ge_graph_free_bytes(g, bytes, size);
  if (bad) {
    remove(path);
    return ge__onnx_seterr(err, GE_ERR_IO, "cannot write '%s'", path);
  }
  return GE_OK;
}

#ifdef __cplusplus
}
#endif
#endif /* GE_ONNX_IMPLEMENTATION_DONE */
#endif /* GE_ONNX_IMPLEMENTATION */

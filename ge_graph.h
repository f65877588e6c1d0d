/* ge_graph.h — the graph IR every ge module builds on.
 *
 * Part of ge, a heterogeneous graph compiler and executor. This header is a
 * single-file module: include it anywhere for the declarations, and in one
 * translation unit define GE_GRAPH_IMPLEMENTATION (or GE_IMPLEMENTATION)
 * before including it to compile the implementation. With GE_STATIC every
 * definition is static (private to that translation unit).
 *
 * Dependencies: libc, xxhash.h (header only, used with XXH_INLINE_ALL) in the
 * implementation; mimalloc when GE_USE_MIMALLOC is defined.
 *
 * What is here
 *   - dtypes, formats, shapes with unknown dims (-1), unknown rank (-2),
 *     per-dimension ranges and symbol names;
 *   - graphs of nodes with data edges (input i <- output j of a node),
 *     control edges, typed attributes, nested subgraphs with parent links;
 *   - graph inputs are Data nodes (attribute "index"), graph outputs are the
 *     inputs of the single NetOutput node;
 *   - per-node fields that later modules write: engine, stream, topological
 *     id, cluster, output offsets;
 *   - topological orders (BFS, DFS, stable reverse DFS), cycle detection;
 *   - validation, an op schema registry, whole-graph shape inference;
 *   - clone, extract a subgraph, inline a PartitionedCall;
 *   - binary serialization with a checksum, a text dump, DOT export and a
 *     stable structural hash.
 *
 * Contents, in file order (each section opens with a "---- name" comment):
 *   declarations
 *     errors, allocator, dtypes, shapes,   ge_status and ge_error, ge_allocator,
 *     tensors                              the value types
 *     attributes, nodes, graph,            the IR structs; building, editing
 *     attribute access                     and reading graphs
 *     graph inputs/outputs, topological orders, validation
 *     op schemas                           ge_op_schema, the registry, the infer
 *                                          context and ge_graph_infer_shapes
 *     clone, extract, inline; serialize and dump
 *     the kernel interface                 ge_value, ge_kernel_ctx, ge_kernel_fn
 *     the engine interface                 ge_engine: the descriptor engines fill
 *   implementation (GE_GRAPH_IMPLEMENTATION)
 *     errors, allocator, arena             the default allocator, per-graph arenas
 *     dtypes ... mapped files              value helpers, ge_file_map
 *     graph internals, name index, nodes,  interned strings, node slots, edges,
 *     tensor descs, attributes, inputs     attributes
 *     and outputs
 *     kernel interface                     ge_value and ge_kernel_* helpers
 *     topological orders, validation
 *     op registry, infer context           schema lookup, the inference driver
 *     builtin op schemas                   inference of the structural ops
 *     ONNX compute ops: shape inference    per family: element-wise, MatMul,
 *                                          Gemm, conv and pooling, reductions,
 *                                          shape ops, normalizations, DVPP image
 *                                          ops, random and collective ops; then
 *                                          the schema table ge__builtin_schemas
 *                                          (where an op's schema is added)
 *     clone, extract, inline
 *     serialization                        output buffer, string table, writer,
 *                                          reader (versioned, checksummed)
 *     structural hash, dump, DOT
 *
 * Thread safety: a graph is not thread-safe for mutation. Functions that only
 * read a graph (everything taking `const ge_graph *`) may run concurrently.
 * Distinct graphs are independent. There is no global mutable state.
 *
 * Structural ops (ge's own, inputs -> outputs):
 *   Data            0 -> 1   graph input; attr index (int), shape via output desc
 *   Const           0 -> 1   attr value (tensor)
 *   Variable        0 -> 1   persistent state; attr shape/dtype via output desc
 *   NetOutput       n -> n   graph outputs; output i names graph output i
 *   PartitionedCall n -> m   attr f (graph): runs subgraph f (its Data index k
 *                            takes input k, its NetOutput gives the outputs)
 *   PlaceHolder     0 -> 1   stands for a tensor cut out of a partition
 *   End             1 -> 0   marks a tensor leaving a partition
 *   If              1+n -> m attrs then_branch, else_branch (graphs)
 *   Case            1+n -> m attr branches (graphs): input 0 selects
 *   While           n -> n   attrs cond, body (graphs)
 *   StreamActive, StreamSwitch, Send, Recv, LabelSet, LabelGoto,
 *   LabelSwitchByIndex, NoOp   stream and label ops (control edges only)
 *   MemcpyAsync     1 -> 1   copy
 *   PhonyConcat     n -> 1   concat by laying inputs out back to back (attr axis)
 *   PhonySplit      1 -> n   split as views (attrs axis, split)
 *   GetDynamicDims  n -> 1   int64 vector of the dynamic dims of the inputs
 *   MapIndex        1 -> 1   index of the shape tier an input matches
 *   AllReduce, Broadcast, AllGather, ReduceScatter   collectives
 *
 * Image ops (ge's own, default domain; run by DNN_VM_DVPP, ge_engines/dvpp.h):
 *   ImageCrop       1 -> 1   x [H, W, C] or [N, H, W, C], any numeric dtype;
 *                            attrs offsets [top, left] (>= 0) and size
 *                            [height, width] (> 0), both required: rows
 *                            top..top+height-1, columns left..left+width-1;
 *                            a window past the image is an error
 *   ColorConvert    1 -> 1   x uint8 or float32 [..., H, W, C]; attr conversion
 *                            RGB2BGR, BGR2RGB (3 -> 3), RGB2GRAY, BGR2GRAY
 *                            (3 -> 1, Y = 0.299 R + 0.587 G + 0.114 B),
 *                            GRAY2RGB (1 -> 3), RGB2YUV, YUV2RGB (YUV 4:4:4,
 *                            full-range BT.601 as in JPEG, chroma offset 128);
 *                            uint8 rounds half up and clamps to 0..255,
 *                            float32 neither rounds nor clamps (same formulas)
 */
#ifndef GE_GRAPH_H
#define GE_GRAPH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifndef GE_API
#ifdef GE_STATIC
#if defined(__GNUC__) || defined(__clang__)
#define GE_API static __attribute__((unused))
#else
#define GE_API static
#endif
#else
#define GE_API extern
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- errors */

/* The base types (status, error, allocator) are repeated by modules whose
 * core needs no graph (ge_mem.h); the guard lets both be included. */
#ifndef GE_BASE_TYPES_DEFINED
#define GE_BASE_TYPES_DEFINED
typedef int ge_status;
enum {
  GE_OK = 0,
  GE_ERR_INVALID = -1,     /* bad argument or option */
  GE_ERR_NOMEM = -2,       /* allocation failed */
  GE_ERR_NOT_FOUND = -3,   /* named thing does not exist */
  GE_ERR_CYCLE = -4,       /* graph has a cycle */
  GE_ERR_SHAPE = -5,       /* shape or dtype mismatch */
  GE_ERR_UNSUPPORTED = -6, /* unknown op, dtype or feature */
  GE_ERR_FORMAT = -7,      /* malformed file or bytes */
  GE_ERR_IO = -8,          /* file system error */
  GE_ERR_INTERNAL = -9
};

/* Every fallible call takes an optional ge_error*; on failure it receives the
 * code and a message naming the node, byte offset or option at fault. */
typedef struct ge_error {
  ge_status code;
  char message[1024];
} ge_error;
#endif /* GE_BASE_TYPES_DEFINED (continued below for ge_allocator) */

GE_API const char *ge_status_name(ge_status s);
/* Fills err (when not NULL) with code and the formatted message; returns
 * code. For modules and engines reporting errors the way ge does. */
GE_API ge_status ge_error_set(ge_error *err, ge_status code, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* --------------------------------------------------------------- logging */

/* A logger in a desc: fn receives what a module decided (silent when fn is
 * NULL). Messages at levels above `level` are not formatted at all. */
typedef enum ge_log_level { GE_LOG_ERROR = 0, GE_LOG_WARN = 1, GE_LOG_INFO = 2, GE_LOG_DEBUG = 3 } ge_log_level;
typedef void (*ge_log_fn)(void *user, ge_log_level level, const char *module, const char *message);
typedef struct ge_logger {
  ge_log_fn fn;
  void *user;
  ge_log_level level; /* the most detailed level passed on */
} ge_logger;

/* Formats and passes a message to l (when l, l->fn and the level allow). */
GE_API void ge_log(const ge_logger *l, ge_log_level level, const char *module, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* Whether a message at that level would reach l's function. */
#define GE_LOG_ON(l, lvl) ((l) && (l)->fn && (int)(lvl) <= (int)(l)->level)

/* ------------------------------------------------------------- allocator */

/* All-zero means the default (libc, or mimalloc with GE_USE_MIMALLOC).
 * free and realloc receive the size the block was allocated with. */
#ifndef GE_ALLOCATOR_DEFINED
#define GE_ALLOCATOR_DEFINED
typedef struct ge_allocator {
  void *(*alloc)(void *user, size_t size);
  void *(*realloc)(void *user, void *ptr, size_t old_size, size_t new_size);
  void (*free)(void *user, void *ptr, size_t size);
  void *user;
} ge_allocator;
#endif

/* ---------------------------------------------------------------- dtypes */

/* Values equal ONNX TensorProto.DataType. */
typedef enum ge_dtype {
  GE_DTYPE_UNDEFINED = 0,
  GE_DTYPE_FLOAT32 = 1,
  GE_DTYPE_UINT8 = 2,
  GE_DTYPE_INT8 = 3,
  GE_DTYPE_UINT16 = 4,
  GE_DTYPE_INT16 = 5,
  GE_DTYPE_INT32 = 6,
  GE_DTYPE_INT64 = 7,
  GE_DTYPE_STRING = 8,
  GE_DTYPE_BOOL = 9,
  GE_DTYPE_FLOAT16 = 10,
  GE_DTYPE_FLOAT64 = 11,
  GE_DTYPE_UINT32 = 12,
  GE_DTYPE_UINT64 = 13,
  GE_DTYPE_COMPLEX64 = 14,
  GE_DTYPE_COMPLEX128 = 15,
  GE_DTYPE_BFLOAT16 = 16,
  GE_DTYPE_COUNT
} ge_dtype;

/* Bit mask of dtypes, for schema type constraints. */
#define GE_DTYPE_BIT(t) (1u << (t))
#define GE_DTYPES_FLOAT                                                   \
  (GE_DTYPE_BIT(GE_DTYPE_FLOAT32) | GE_DTYPE_BIT(GE_DTYPE_FLOAT16) |      \
   GE_DTYPE_BIT(GE_DTYPE_BFLOAT16) | GE_DTYPE_BIT(GE_DTYPE_FLOAT64))
#define GE_DTYPES_INT                                                     \
  (GE_DTYPE_BIT(GE_DTYPE_INT8) | GE_DTYPE_BIT(GE_DTYPE_INT16) |           \
   GE_DTYPE_BIT(GE_DTYPE_INT32) | GE_DTYPE_BIT(GE_DTYPE_INT64) |          \
   GE_DTYPE_BIT(GE_DTYPE_UINT8) | GE_DTYPE_BIT(GE_DTYPE_UINT16) |         \
   GE_DTYPE_BIT(GE_DTYPE_UINT32) | GE_DTYPE_BIT(GE_DTYPE_UINT64))
#define GE_DTYPES_NUMERIC (GE_DTYPES_FLOAT | GE_DTYPES_INT)
#define GE_DTYPES_ALL 0xFFFFFFFEu

GE_API const char *ge_dtype_name(ge_dtype t);       /* "float32", ... */
GE_API size_t ge_dtype_size(ge_dtype t);            /* bytes; 0 for string */
/* Overflow-checked sizes: every product of dims or byte count goes through
 * these. They return 1 and set *out, or return 0 (out untouched) when the
 * result would not fit (or a dim is negative). */
GE_API int ge_size_mul_checked(uint64_t a, uint64_t b, uint64_t *out);
GE_API int ge_dims_numel_checked(const int64_t *dims, int32_t rank, int64_t *out);
/* numel x element size (sizeof(char *) for strings), within SIZE_MAX. */
GE_API int ge_dims_nbytes_checked(ge_dtype dtype, const int64_t *dims, int32_t rank, size_t *out);
GE_API ge_dtype ge_dtype_from_name(const char *s);  /* UNDEFINED if unknown */

/* Memory layout of a tensor, carried as metadata. */
typedef enum ge_format {
  GE_FORMAT_ND = 0,
  GE_FORMAT_NCHW,
  GE_FORMAT_NHWC,
  GE_FORMAT_HWCN,
  GE_FORMAT_CHWN,
  GE_FORMAT_NC1HWC0,
  GE_FORMAT_FRACTAL_Z,
  GE_FORMAT_FRACTAL_NZ,
  GE_FORMAT_NCDHW,
  GE_FORMAT_NDHWC,
  GE_FORMAT_NDC1HWC0,
  GE_FORMAT_COUNT
} ge_format;

GE_API const char *ge_format_name(ge_format f);
GE_API ge_format ge_format_from_name(const char *s); /* GE_FORMAT_COUNT if unknown */

/* ---------------------------------------------------------------- shapes */

#define GE_DIM_UNKNOWN (-1)
#define GE_RANK_UNKNOWN (-2)
#define GE_MAX_RANK 16

/* A dimension's range [lo, hi]; hi == -1 means unbounded. Symbol names the
 * dimension (ONNX dim_param), NULL when anonymous. */
typedef struct ge_dim_info {
  int64_t lo, hi;
  const char *symbol;
} ge_dim_info;

/* rank == GE_RANK_UNKNOWN: nothing is known. dims[i] == GE_DIM_UNKNOWN: that
 * dimension is unknown. info is NULL or has rank entries. Storage belongs to
 * the graph the shape lives in. */
typedef struct ge_shape {
  int64_t *dims;
  ge_dim_info *info;
  int32_t rank;
} ge_shape;

GE_API int ge_shape_is_static(const ge_shape *s);
GE_API int64_t ge_shape_numel(const ge_shape *s); /* -1 if not static or past int64 */
/* "[1,3,-1(N:1..8),224]" into buf; returns buf. */
GE_API char *ge_shape_str(const ge_shape *s, char *buf, size_t n);

/* --------------------------------------------------------------- tensors */

typedef struct ge_graph ge_graph;
typedef struct ge_mapped_file ge_mapped_file;

/* A constant tensor (Const weights, tensor attributes, known values).
 * data is dtype-sized elements in row-major order; for GE_DTYPE_STRING it is
 * an array of numel `const char *`. borrowed != NULL means data points into
 * that mapped file (zero-copy), which the owning graph keeps alive. */
typedef struct ge_tensor {
  ge_dtype dtype;
  int32_t rank;
  int64_t *dims;
  void *data;
  size_t nbytes;
  ge_mapped_file *borrowed;
} ge_tensor;

GE_API int64_t ge_tensor_numel(const ge_tensor *t); /* -1 past int64 */
/* IEEE binary16 <-> float (round to nearest even; NaN stays NaN). */
GE_API float ge_half_to_float(uint16_t h);
GE_API uint16_t ge_float_to_half(float f);
/* Reads element i as int64 / double (any numeric dtype, bool). */
GE_API int64_t ge_tensor_get_int(const ge_tensor *t, int64_t i);
GE_API double ge_tensor_get_float(const ge_tensor *t, int64_t i);

/* A read-only memory mapping of a file, reference counted. */
GE_API ge_status ge_file_map(const char *path, ge_mapped_file **out, ge_error *err);
GE_API const void *ge_mapped_file_data(const ge_mapped_file *m);
GE_API size_t ge_mapped_file_size(const ge_mapped_file *m);
GE_API void ge_mapped_file_retain(ge_mapped_file *m);
GE_API void ge_mapped_file_release(ge_mapped_file *m);

/* ------------------------------------------------------------ attributes */

typedef enum ge_attr_type {
  GE_ATTR_NONE = 0,
  GE_ATTR_INT,
  GE_ATTR_FLOAT,
  GE_ATTR_BOOL,
  GE_ATTR_STRING,
  GE_ATTR_DTYPE,
  GE_ATTR_TENSOR,
  GE_ATTR_GRAPH,
  GE_ATTR_INTS,
  GE_ATTR_FLOATS,
  GE_ATTR_BOOLS,
  GE_ATTR_STRINGS,
  GE_ATTR_DTYPES,
  GE_ATTR_TENSORS,
  GE_ATTR_GRAPHS,
  GE_ATTR_TYPE_COUNT
} ge_attr_type;

/* Lists hold `count` elements. Graph attributes own their graph (a subgraph
 * whose parent is the node's graph). Strings are NUL-terminated. */
typedef struct ge_attr {
  const char *name;
  ge_attr_type type;
  int32_t count;
  union {
    int64_t i;
    double f;
    int b;
    const char *s;
    ge_dtype dt;
    ge_tensor *t;
    ge_graph *g;
    int64_t *ints;
    double *floats;
    uint8_t *bools;
    const char **strings;
    ge_dtype *dtypes;
    ge_tensor **tensors;
    ge_graph **graphs;
  } v;
} ge_attr;

/* ----------------------------------------------------------------- nodes */

typedef uint32_t ge_node_id;
#define GE_NONE ((ge_node_id)0xFFFFFFFFu)

/* A data edge source: output `index` of node `node`. {GE_NONE, 0} is an
 * absent optional input. */
typedef struct ge_edge {
  ge_node_id node;
  int32_t index;
} ge_edge;

/* A consumer of a node's outputs: input `input` of node `node`. */
typedef struct ge_use {
  ge_node_id node;
  uint32_t input;
} ge_use;

/* Description of one output tensor. offset is written by the memory planner
 * (-1 until then); value, when set, is the tensor's known constant value
 * (used by shape inference to follow shape computations). */
typedef struct ge_tensor_desc {
  const char *name;
  ge_shape shape;
  ge_dtype dtype;
  ge_format format;
  int64_t offset;
  const ge_tensor *value;
} ge_tensor_desc;

typedef struct ge_op_schema ge_op_schema;

/* Node flags. */
enum {
  GE_NODE_FORCE_DYNAMIC = 1u << 0, /* _force_unknown_shape */
  GE_NODE_IS_DYNAMIC = 1u << 1,    /* _is_unknown_shape, set by partitioning */
  /* bits 8..11: why the node has its engine (GE_PLACED_*, set by ge_place.h) */
  GE_NODE_PLACED_SHIFT = 8,
  GE_NODE_PLACED_MASK = 15u << 8,
  GE_NODE_REMOVED = 1u << 15,      /* private: slot of a removed node */
  GE_NODE_USER0 = 1u << 16         /* bits from here are free for users */
};

/* A node. Read fields directly; change structure through the API. The
 * engine/stream/topo_id/cluster fields and tensor offsets belong to the
 * modules that decide them and may be written directly (-1 = unset).
 * Growable arrays (inputs, uses, control edges, attrs) have a capacity of the next
 * power of two of their count. Node pointers stay valid until the node is
 * removed or the graph freed. */
typedef struct ge_node {
  /* the first 64 bytes: what a walk over the edges reads */
  ge_edge *inputs;          /* num_inputs */
  ge_use *uses;             /* num_uses consumers of the outputs, any order */
  ge_node_id *control_inputs;
  ge_node_id *control_outputs;
  ge_node_id id;
  uint32_t flags;
  uint32_t num_inputs, num_uses;
  uint32_t num_control_inputs, num_control_outputs;
  int32_t engine;           /* decided by placement (-1 = unset) */
  uint32_t num_outputs;
  /* the rest */
  const char *name;
  const char *op;     /* op type, e.g. "Conv" */
  const char *domain; /* NULL for the default (ONNX) domain */
  const ge_op_schema *schema; /* NULL when the op is unknown */
  ge_tensor_desc *outputs;  /* num_outputs */
  ge_attr *attrs;
  uint32_t num_attrs;
  /* decided by later modules */
  int32_t stream;
  int32_t topo_id;
  int32_t cluster;
} ge_node;

/* ----------------------------------------------------------------- graph */

typedef struct ge_op_registry ge_op_registry;

typedef struct ge_graph_desc {
  const char *name;
  ge_allocator allocator;              /* zero: default */
  const ge_op_registry *registry;      /* NULL: the builtin schemas */
} ge_graph_desc;

GE_API ge_status ge_graph_create(const ge_graph_desc *desc, ge_graph **out, ge_error *err);
/* Frees the graph, its subgraphs and everything they own. NULL is fine. */
GE_API void ge_graph_free(ge_graph *g);

GE_API const char *ge_graph_name(const ge_graph *g);
/* Parent of a subgraph (graph and node holding the graph attribute); NULL /
 * GE_NONE for a root graph. */
GE_API ge_graph *ge_graph_parent(const ge_graph *g);
GE_API ge_node_id ge_graph_parent_node(const ge_graph *g);
/* The node whose output feeds input i of n (NULL: absent), looking
 * through subgraph boundaries (a model input ends as the outermost
 * graph's Data): a Data with parent_index k (an outer-scope value of an
 * If/Loop/Scan body) is the parent node's input k; a Data with index k of
 * a PartitionedCall body is the call's input k. So a kernel in a branch
 * can tell that a weight it reads is a Const of an enclosing graph (and
 * pack it once). *out_graph (when given) receives the graph holding the
 * returned node. */
GE_API const ge_node *ge_graph_input_origin(const ge_graph *g, const ge_node *n, uint32_t i, const ge_graph **out_graph);
GE_API const ge_allocator *ge_graph_allocator(const ge_graph *g);
GE_API const ge_op_registry *ge_graph_registry(const ge_graph *g);

/* Node ids are stable: a removed node leaves a hole. id_bound() is one past
 * the largest id ever used; node(g, id) is NULL for holes. */
GE_API uint32_t ge_graph_id_bound(const ge_graph *g);
GE_API uint32_t ge_graph_node_count(const ge_graph *g);
GE_API ge_node *ge_graph_node(const ge_graph *g, ge_node_id id);
/* GE_NONE if absent. Builds a name index on first use (hence not const). */
GE_API ge_node_id ge_graph_find(ge_graph *g, const char *name);

#define GE_GRAPH_FOREACH(g, n)                                             \
  for (uint32_t ge__i_##n = 0, ge__b_##n = ge_graph_id_bound(g);           \
       ge__i_##n < ge__b_##n; ge__i_##n++)                                 \
    if (((n) = ge_graph_node((g), ge__i_##n)) != NULL)

/* Adds a node. name may be NULL (a unique name is made from the op). inputs
 * may be NULL (all inputs absent). num_outputs < 0 takes the schema's
 * default output count (1 for unknown ops). Strings are copied. */
GE_API ge_status ge_graph_add_node(ge_graph *g, const char *op, const char *name,
                                   uint32_t num_inputs, const ge_edge *inputs,
                                   int32_t num_outputs, ge_node_id *out, ge_error *err);
/* Removes a node: its input edges, control edges and attributes go with it;
 * consumers of its outputs are left with absent inputs. */
GE_API ge_status ge_graph_remove_node(ge_graph *g, ge_node_id id, ge_error *err);
GE_API ge_status ge_node_set_name(ge_graph *g, ge_node_id id, const char *name, ge_error *err);
GE_API ge_status ge_node_set_domain(ge_graph *g, ge_node_id id, const char *domain, ge_error *err);

/* Data edges. set_input replaces input i's source (src.node == GE_NONE
 * clears it); add_input appends one input. */
GE_API ge_status ge_graph_set_input(ge_graph *g, ge_node_id dst, uint32_t i, ge_edge src, ge_error *err);
GE_API ge_status ge_graph_add_input(ge_graph *g, ge_node_id dst, ge_edge src, ge_error *err);
/* Changes the number of outputs (new ones are undefined tensors; removing an
 * output that has consumers is an error). */
GE_API ge_status ge_graph_set_num_outputs(ge_graph *g, ge_node_id id, uint32_t n, ge_error *err);
/* Every consumer of `from` now reads `to` instead. */
GE_API ge_status ge_graph_replace_uses(ge_graph *g, ge_edge from, ge_edge to, ge_error *err);

/* Control edges: dst runs after src. Adding an existing edge is a no-op. */
GE_API ge_status ge_graph_add_control(ge_graph *g, ge_node_id src, ge_node_id dst, ge_error *err);
GE_API ge_status ge_graph_remove_control(ge_graph *g, ge_node_id src, ge_node_id dst, ge_error *err);

/* Output descriptors. The shape setter copies dims (and info if non-NULL). */
GE_API ge_status ge_node_set_output(ge_graph *g, ge_node_id id, uint32_t i, ge_dtype dtype,
                                    int32_t rank, const int64_t *dims, const ge_dim_info *info,
                                    ge_error *err);
GE_API ge_status ge_node_set_output_name(ge_graph *g, ge_node_id id, uint32_t i, const char *name,
                                         ge_error *err);
GE_API ge_status ge_node_set_output_format(ge_graph *g, ge_node_id id, uint32_t i, ge_format f,
                                           ge_error *err);
/* The descriptor of the tensor feeding input i (NULL if absent). */
GE_API const ge_tensor_desc *ge_node_input_desc(const ge_graph *g, const ge_node *n, uint32_t i);
/* The value of the Const (without control inputs) feeding input i of n, or
 * NULL: what engine optimisers fold. */
GE_API const ge_tensor *ge_node_const_input(const ge_graph *g, const ge_node *n, uint32_t i);

/* ------------------------------------------------------ attribute access */

GE_API const ge_attr *ge_node_attr(const ge_node *n, const char *name);
GE_API int64_t ge_node_attr_int(const ge_node *n, const char *name, int64_t dflt);
/* Node attribute (int): how many inputs an engine's fusion appended past
 * those of the op's schema (AI Core's Conv + Add: 1, the residual), which
 * the engine's kernel reads. Schema checks allow that many more inputs. */
#define GE_ATTR_FUSED_INPUTS "_fused_inputs"
GE_API double ge_node_attr_float(const ge_node *n, const char *name, double dflt);
GE_API const char *ge_node_attr_string(const ge_node *n, const char *name, const char *dflt);
/* Returns count (or -1 if absent / not a list of ints) and sets *vals. */
GE_API int32_t ge_node_attr_ints(const ge_node *n, const char *name, const int64_t **vals);

/* Setters copy their values into the graph (tensors and graphs too, except
 * set_attr_graph which takes ownership of `sub`, and tensors borrowing a
 * mapped file, which keep borrowing it). Setting an existing name replaces it. */
GE_API ge_status ge_node_set_attr_int(ge_graph *g, ge_node_id id, const char *name, int64_t v, ge_error *err);
GE_API ge_status ge_node_set_attr_float(ge_graph *g, ge_node_id id, const char *name, double v, ge_error *err);
GE_API ge_status ge_node_set_attr_bool(ge_graph *g, ge_node_id id, const char *name, int v, ge_error *err);
GE_API ge_status ge_node_set_attr_string(ge_graph *g, ge_node_id id, const char *name, const char *v, ge_error *err);
GE_API ge_status ge_node_set_attr_dtype(ge_graph *g, ge_node_id id, const char *name, ge_dtype v, ge_error *err);
GE_API ge_status ge_node_set_attr_ints(ge_graph *g, ge_node_id id, const char *name, const int64_t *v, int32_t n, ge_error *err);
GE_API ge_status ge_node_set_attr_floats(ge_graph *g, ge_node_id id, const char *name, const double *v, int32_t n, ge_error *err);
GE_API ge_status ge_node_set_attr_bools(ge_graph *g, ge_node_id id, const char *name, const uint8_t *v, int32_t n, ge_error *err);
GE_API ge_status ge_node_set_attr_strings(ge_graph *g, ge_node_id id, const char *name, const char *const *v, int32_t n, ge_error *err);
GE_API ge_status ge_node_set_attr_dtypes(ge_graph *g, ge_node_id id, const char *name, const ge_dtype *v, int32_t n, ge_error *err);
GE_API ge_status ge_node_set_attr_tensor(ge_graph *g, ge_node_id id, const char *name, const ge_tensor *t, ge_error *err);
GE_API ge_status ge_node_set_attr_tensors(ge_graph *g, ge_node_id id, const char *name, const ge_tensor *const *t, int32_t n, ge_error *err);
/* Takes ownership of `sub` (a root graph made with ge_graph_create), which
 * becomes a subgraph of g with parent node id. On error `sub` is freed. */
GE_API ge_status ge_node_set_attr_graph(ge_graph *g, ge_node_id id, const char *name, ge_graph *sub, ge_error *err);
GE_API ge_status ge_node_set_attr_graphs(ge_graph *g, ge_node_id id, const char *name, ge_graph *const *subs, int32_t n, ge_error *err);
/* Copies any attribute (from any graph) onto a node of g. */
GE_API ge_status ge_node_copy_attr(ge_graph *g, ge_node_id id, const ge_attr *a, ge_error *err);
/* Copies n attributes onto a node, as ge_node_copy_attr each (a later one
 * of a name replacing an earlier); on a node without attributes, in one
 * allocation, and an error leaves it without any (a node that had some
 * keeps those set before the error). */
GE_API ge_status ge_node_set_attrs(ge_graph *g, ge_node_id id, const ge_attr *attrs, uint32_t n, ge_error *err);
GE_API ge_status ge_node_remove_attr(ge_graph *g, ge_node_id id, const char *name, ge_error *err);

/* Makes a tensor owned by g: copies data unless `src->borrowed` is set, in
 * which case the bytes stay in the mapped file (retained by g). */
GE_API ge_status ge_graph_copy_tensor(ge_graph *g, const ge_tensor *src, ge_tensor **out, ge_error *err);

/* --------------------------------------------------- graph inputs/outputs */

/* Adds a Data node with the next input index and the given output desc. */
GE_API ge_status ge_graph_add_data(ge_graph *g, const char *name, ge_dtype dtype, int32_t rank,
                                   const int64_t *dims, ge_node_id *out, ge_error *err);
/* Adds a Const node holding a copy of t (or borrowing, see copy_tensor). */
GE_API ge_status ge_graph_add_const(ge_graph *g, const char *name, const ge_tensor *t,
                                    ge_node_id *out, ge_error *err);
/* Makes (or replaces the inputs of) the NetOutput node. names may be NULL. */
GE_API ge_status ge_graph_set_outputs(ge_graph *g, uint32_t n, const ge_edge *outputs,
                                      const char *const *names, ge_error *err);
/* Data nodes ordered by their index attribute, into ids (up to cap); returns
 * the number of Data nodes. */
GE_API uint32_t ge_graph_inputs(const ge_graph *g, ge_node_id *ids, uint32_t cap);
GE_API ge_node_id ge_graph_output_node(const ge_graph *g); /* NetOutput or GE_NONE */

/* Graph-level attributes (e.g. "_dynamic_shape_partitioned"). Same rules as
 * node attributes; the graph acts as node GE_NONE. */
GE_API ge_status ge_graph_set_attr_int(ge_graph *g, const char *name, int64_t v, ge_error *err);
GE_API const ge_attr *ge_graph_attr(const ge_graph *g, const char *name);
GE_API uint32_t ge_graph_num_attrs(const ge_graph *g);
GE_API const ge_attr *ge_graph_attr_at(const ge_graph *g, uint32_t i);

/* Every subgraph reachable from g's node attributes, depth-first, into subs
 * (up to cap); returns the count. */
GE_API uint32_t ge_graph_subgraphs(const ge_graph *g, ge_graph **subs, uint32_t cap);

/* -------------------------------------------------- topological orders */

typedef enum ge_topo_mode {
  GE_TOPO_BFS = 0,          /* Kahn, FIFO: default */
  GE_TOPO_DFS = 1,          /* Kahn, LIFO: follows one chain as far as it goes */
  GE_TOPO_STABLE_RDFS = 3   /* post-order DFS from the outputs over inputs in
                               order: stable under unrelated edits (GE mode 3) */
} ge_topo_mode;

/* Writes the live node ids in a topological order (data and control edges)
 * into order[ge_graph_node_count(g)] and sets each node's topo_id to its
 * position. A cycle is GE_ERR_CYCLE with the nodes on one cycle named. */
GE_API ge_status ge_graph_topo_sort(ge_graph *g, ge_topo_mode mode, ge_node_id *order, ge_error *err);
/* Parses GE's ge.topoSortingMode values ("0" BFS, "1" DFS, "3" stable RDFS). */
GE_API ge_status ge_topo_mode_parse(const char *s, ge_topo_mode *out, ge_error *err);

/* ----------------------------------------------------------- validation */

/* Checks edges (dangling, out-of-range, duplicate control edges), names
 * (unique, non-empty), input counts and dtypes against schemas, Data
 * indices, a single NetOutput, acyclicity, and subgraphs recursively.
 * Unknown ops are an error unless allow_unknown_ops. */
typedef struct ge_validate_desc {
  int allow_unknown_ops;
} ge_validate_desc;
GE_API ge_status ge_graph_validate(const ge_graph *g, const ge_validate_desc *desc, ge_error *err);

/* --------------------------------------------------------- op schemas */

typedef struct ge_infer_ctx ge_infer_ctx;
typedef ge_status (*ge_infer_fn)(ge_infer_ctx *ctx);

/* An attribute default, as a string parsed by type ("1", "1.0", "NOTSET",
 * "[1,1]"), or NULL when the attribute is required / has no default. */
typedef struct ge_attr_schema {
  const char *name;
  ge_attr_type type;
  const char *dflt;
  int required;
} ge_attr_schema;

#define GE_SCHEMA_MAX_ATTRS 12
#define GE_SCHEMA_MAX_TYPE_VARS 4

/* What an op type accepts. Inputs and outputs are bound to type variables:
 * input_types[i] is the index of the type variable of input i (inputs past
 * the 8th use entry 7; -1: unconstrained), likewise output_types; every
 * input and output bound to one variable has the same dtype, which must lie
 * in type_vars[v] (0: any dtype). Zero-filled entries bind to variable 0. */
struct ge_op_schema {
  const char *name;
  const char *domain; /* NULL: default */
  int32_t min_inputs, max_inputs;   /* max -1: variadic */
  int32_t min_outputs, max_outputs; /* max -1: variadic */
  int32_t default_outputs;
  int8_t input_types[8];
  int8_t output_types[8];
  uint32_t type_vars[GE_SCHEMA_MAX_TYPE_VARS];
  ge_attr_schema attrs[GE_SCHEMA_MAX_ATTRS];
  ge_infer_fn infer; /* NULL: outputs left as they are */
  const char *doc;
};

/* A registry of op schemas: the builtins plus what the user adds. */
GE_API ge_status ge_op_registry_create(const ge_allocator *a, ge_op_registry **out, ge_error *err);
GE_API void ge_op_registry_free(ge_op_registry *r);
/* The schema is copied by value (its strings must outlive the registry). A
 * schema with the name and domain of an existing one replaces it. */
GE_API ge_status ge_op_registry_add(ge_op_registry *r, const ge_op_schema *s, ge_error *err);
/* r NULL means the builtin schemas only. */
GE_API const ge_op_schema *ge_op_registry_find(const ge_op_registry *r, const char *op,
                                               const char *domain);
/* Builtin schemas, for listing. */
GE_API const ge_op_schema *ge_op_schema_builtin(uint32_t i); /* NULL past the end */

/* The view an infer function has of one node. */
GE_API const ge_node *ge_infer_node(const ge_infer_ctx *c);
GE_API uint32_t ge_infer_num_inputs(const ge_infer_ctx *c);
/* NULL for an absent optional input. */
GE_API const ge_tensor_desc *ge_infer_input(const ge_infer_ctx *c, uint32_t i);
/* The known constant value of input i, or NULL. */
GE_API const ge_tensor *ge_infer_input_value(const ge_infer_ctx *c, uint32_t i);
/* The node's attribute, or the schema default parsed into the context: such
 * a default stays valid for the next 7 default lookups (lists hold at most
 * 32 values), so copy what you keep. */
GE_API const ge_attr *ge_infer_attr(const ge_infer_ctx *c, const char *name);
GE_API int64_t ge_infer_attr_int(const ge_infer_ctx *c, const char *name, int64_t dflt);
GE_API double ge_infer_attr_float(const ge_infer_ctx *c, const char *name, double dflt);
GE_API int32_t ge_infer_attr_ints(const ge_infer_ctx *c, const char *name, const int64_t **vals);
GE_API const char *ge_infer_attr_string(const ge_infer_ctx *c, const char *name, const char *dflt);
/* Sets output i (and clears its known value: set a value after the shape).
 * info may be NULL (then dims carry no ranges/symbols). */
GE_API ge_status ge_infer_set_output(ge_infer_ctx *c, uint32_t i, ge_dtype dtype, int32_t rank,
                                     const int64_t *dims, const ge_dim_info *info);
/* Sets output i to a copy of a descriptor (shape, dims info and dtype). */
GE_API ge_status ge_infer_copy_output(ge_infer_ctx *c, uint32_t i, const ge_tensor_desc *d);
/* Records output i's known constant value (copied). */
GE_API ge_status ge_infer_set_value(ge_infer_ctx *c, uint32_t i, const ge_tensor *t);
/* Fails inference of this node with a message (node named automatically). */
GE_API ge_status ge_infer_error(ge_infer_ctx *c, ge_status code, const char *fmt, ...);
GE_API ge_graph *ge_infer_graph(const ge_infer_ctx *c);

/* Infers a subgraph of the node being inferred: its Data nodes carrying
 * attr parent_index k take the desc of the node's input k, then the whole
 * subgraph is inferred. The caller reads the subgraph's NetOutput. */
GE_API ge_status ge_infer_subgraph(ge_infer_ctx *c, ge_graph *sub);

/* Runs every node's infer function in topological order, recursing into
 * subgraphs. Data/Variable/Const output descs are taken as given. A shape
 * or dtype conflict is an error naming the node. */
GE_API ge_status ge_graph_infer_shapes(ge_graph *g, ge_error *err);
/* Infers one node (its inputs' descs must be set). */
GE_API ge_status ge_node_infer_shape(ge_graph *g, ge_node_id id, ge_error *err);

/* Broadcasts two shapes the ONNX (numpy) way into out (dims and info
 * arrays of GE_MAX_RANK). Unknown dims stay unknown unless the other side
 * fixes them; symbols and ranges carry over. Returns the rank, or -1 when
 * the shapes cannot broadcast, or GE_RANK_UNKNOWN. */
GE_API int32_t ge_shape_broadcast(const ge_shape *a, const ge_shape *b, int64_t *out_dims,
                                  ge_dim_info *out_info);

/* --------------------------------------------- clone, extract, inline */

/* Deep copy, subgraphs included; ids are renumbered densely in id order. */
GE_API ge_status ge_graph_clone(const ge_graph *g, const ge_graph_desc *desc, ge_graph **out, ge_error *err);

/* Copies nodes[0..n) into a new graph. Every edge entering the set becomes a
 * Data node (index k = k-th distinct boundary source, recorded in
 * boundary_inputs[k]); every node output used outside the set (or by the
 * NetOutput when it is not in the set) becomes a NetOutput input (recorded
 * in boundary_outputs[k]). Control edges across the boundary are dropped.
 * The boundary arrays are allocated with g's allocator; free them with
 * ge_graph_free_array. */
typedef struct ge_extract_result {
  ge_graph *graph;
  ge_edge *boundary_inputs;  /* source in g of each new Data node */
  uint32_t num_boundary_inputs;
  ge_edge *boundary_outputs; /* tensor in g of each new NetOutput input */
  uint32_t num_boundary_outputs;
  ge_node_id *node_map; /* id in g -> id in graph (GE_NONE if not copied), id_bound(g) entries */
} ge_extract_result;
GE_API ge_status ge_graph_extract(const ge_graph *g, const ge_node_id *nodes, uint32_t n,
                                  ge_extract_result *out, ge_error *err);
GE_API void ge_extract_result_free(const ge_graph *g, ge_extract_result *r);

/* Adds to dst a copy of node n of src without its edges: op, domain,
 * attributes (subgraphs deep-copied), output descriptors, flags and the
 * engine/stream/topo_id/cluster fields. name NULL keeps n's name. */
GE_API ge_status ge_graph_copy_node(ge_graph *dst, const ge_graph *src, const ge_node *n, const char *name,
                                    ge_node_id *out, ge_error *err);

/* Expands a PartitionedCall node (attr "f") into its graph: a NoOp before
 * and after carry its control edges, the subgraph's Data nodes are replaced
 * by the call's inputs, its NetOutput by the call's outputs, and its nodes
 * are moved into g. The call node is removed. */
GE_API ge_status ge_graph_inline(ge_graph *g, ge_node_id call, ge_error *err);

/* ------------------------------------------------- serialize and dump */

/* Versioned binary form with an xxhash64 checksum; exact round trip.
 * *out is allocated with the graph's allocator; free it with
 * ge_graph_free_bytes. */
GE_API ge_status ge_graph_serialize(const ge_graph *g, uint8_t **out, size_t *size, ge_error *err);
GE_API void ge_graph_free_bytes(const ge_graph *g, uint8_t *bytes, size_t size);
/* Bad, truncated or corrupted bytes give GE_ERR_FORMAT naming the offset. */
GE_API ge_status ge_graph_deserialize(const uint8_t *bytes, size_t size, const ge_graph_desc *desc,
                                      ge_graph **out, ge_error *err);
GE_API ge_status ge_graph_save(const ge_graph *g, const char *path, ge_error *err);
GE_API ge_status ge_graph_load(const char *path, const ge_graph_desc *desc, ge_graph **out, ge_error *err);

/* One line per node in id order, subgraphs indented. */
GE_API ge_status ge_graph_dump(const ge_graph *g, FILE *f);
/* Graphviz DOT. Nodes are filled by engine and outlined by stream when set. */
GE_API ge_status ge_graph_write_dot(const ge_graph *g, FILE *f);
/* Writes s as a JSON string (quotes, backslashes and control bytes escaped;
 * NULL as ""): names are the model's, anything may be in them. */
GE_API void ge_json_write_string(FILE *f, const char *s);

/* Structural hash: equal for graphs that compute the same thing built in any
 * order; node names other than Data's are ignored. Cycles are an error. */
GE_API ge_status ge_graph_hash(const ge_graph *g, uint64_t *out, ge_error *err);

/* Memory owned by g (arena bytes in use), for reporting. */
GE_API size_t ge_graph_memory_used(const ge_graph *g);

/* *a when it has alloc and free, else the default allocator. */
GE_API ge_allocator ge_allocator_or_default(const ge_allocator *a);

/* Allocation helpers through g's allocator (for results handed to users). */
GE_API void *ge_graph_alloc_array(const ge_graph *g, size_t size);
GE_API void ge_graph_free_array(const ge_graph *g, void *p, size_t size);

/* ------------------------------------------------- the kernel interface */

/* The seam between executors and engines: an engine's kernel computes one
 * node from runtime values; an executor owns the values and calls kernels.
 * Both sides need only these plain structs (DESIGN §3).
 *
 * A kernel reads its inputs (NULL for an absent optional input) and the
 * node's attributes, asks for each output with ge_kernel_output (which
 * returns storage of exactly that shape, reusing what the executor planned
 * when the shape matches) and writes it. It returns GE_OK or an error made
 * with ge_kernel_error. Kernels must not keep pointers across calls. */

/* A runtime tensor: dense, row-major, numel elements of dtype (for
 * GE_DTYPE_STRING, numel `char *`, owned by whoever made the value). */
typedef struct ge_value {
  void *data;
  int64_t numel;
  size_t nbytes;
  size_t capacity; /* bytes the executor allocated for data (0: borrowed) */
  ge_dtype dtype;
  int32_t rank;
  int64_t dims[GE_MAX_RANK];
} ge_value;

typedef struct ge_kernel_ctx ge_kernel_ctx;
typedef ge_status (*ge_kernel_fn)(ge_kernel_ctx *c);
/* One share of a parallel loop: the indices [begin, end). */
typedef void (*ge_parallel_fn)(void *arg, int64_t begin, int64_t end);
typedef struct ge_kernel_env ge_kernel_env;

/* Services an executor gives kernels. */
struct ge_kernel_env {
  /* Makes output i hold dtype and dims (reallocating when too small). */
  ge_value *(*alloc_output)(ge_kernel_ctx *c, uint32_t i, ge_dtype dtype, int32_t rank, const int64_t *dims);
  /* Runs a subgraph of the node (If/Loop/Scan bodies): its Data nodes with
   * index k take inputs[k]; those with parent_index k (outer-scope values)
   * take input k of the calling node. outputs[i] receive the NetOutput
   * values (executor-owned storage, valid until the next call). */
  ge_status (*run_graph)(ge_kernel_ctx *c, const ge_graph *sub, ge_value *const *inputs, uint32_t num_inputs,
                         ge_value **outputs, uint32_t num_outputs);
  void *executor; /* private to the executor */
  int num_threads;
  /* Makes output i a view of src with the given shape (same bytes, no copy;
   * NULL: the executor cannot alias and ge_kernel_output_view copies). */
  ge_value *(*alias_output)(ge_kernel_ctx *c, uint32_t i, const ge_value *src, int32_t rank, const int64_t *dims);
  /* Intra-op parallelism: calls fn(arg, begin, end) over disjoint ranges
   * covering [0, n), each at least `grain` long (but the last), on the
   * executor's worker threads with the calling thread taking part; returns
   * when every range is done. At most num_threads ranges run at once. NULL:
   * ge_kernel_parallel_for runs [0, n) on the calling thread. */
  void (*parallel_for)(ge_kernel_env *env, int64_t n, int64_t grain, ge_parallel_fn fn, void *arg);
};

struct ge_kernel_ctx {
  ge_value **inputs; /* num_inputs; NULL entries are absent inputs */
  ge_value **outputs;
  uint32_t num_inputs, num_outputs;
  const ge_node *node;
  const ge_graph *graph;
  ge_kernel_env *env;
  ge_error *err;
  void *state; /* the kernel's own (malloc'ed; the executor frees it), NULL at first */
  /* GE_KERNEL_FIXED_SHAPES, set by the executor at load when every input
   * and output holds at every run the dtype and shape the graph inferred,
   * its bytes in place (weights, planned outputs, graph inputs the executor
   * checks); data pointers may still change between runs. */
  uint32_t flags;
  /* The kernel's own word, zero at load and kept across runs: under fixed
   * shapes a kernel notes here that its checks passed (ge_kernel_set_memo)
   * and skips them on later runs. Should a shape move after all, the
   * executor zeroes every memo and drops the flag. */
  uint32_t memo;
  /* The reference kernel's own state when a fast kernel runs it as its
   * fallback (ge_host_cpu_run_reference prepares it once under fixed
   * shapes: at load, or at the first run that falls back), NULL at first;
   * malloc'ed, freed with state (ge_kernel_free_state). */
  void *ref_state;
};
#define GE_KERNEL_FIXED_SHAPES 1u
/* Set (with GE_KERNEL_FIXED_SHAPES) while the executor calls an engine's
 * prepare function at load (ge_engine.prepare): every input and output
 * has its dtype and shape, weights (Const inputs) their bytes, other
 * inputs' bytes are not there yet (data may be NULL). The function builds
 * what its kernel keeps in c->state (attributes parsed, weights packed,
 * scratch reserved), reads no other input bytes and writes no output. */
#define GE_KERNEL_PREPARE 2u
/* Frees what the kernels kept in c (state, ref_state), for whoever made
 * the context: the executor, or a caller running a kernel by itself. */
GE_API void ge_kernel_free_state(ge_kernel_ctx *c);
/* Whether the kernel is being prepared at load, not run. */
static inline int ge_kernel_preparing(const ge_kernel_ctx *c) { return (c->flags & GE_KERNEL_PREPARE) != 0; }

/* The kernel's memo (0: none; relaxed atomics, as the executor may zero it
 * from another thread). */
static inline uint32_t ge_kernel_memo(const ge_kernel_ctx *c) { return __atomic_load_n(&c->memo, __ATOMIC_RELAXED); }
/* Keeps m (nonzero) as c's memo when its shapes are fixed; else nothing. */
static inline void ge_kernel_set_memo(ge_kernel_ctx *c, uint32_t m) {
  if (__atomic_load_n(&c->flags, __ATOMIC_RELAXED) & GE_KERNEL_FIXED_SHAPES) __atomic_store_n(&c->memo, m, __ATOMIC_RELAXED);
}

/* Output i with the given dtype and shape: the planned value when it fits
 * (no allocation on the static path), else the executor grows it. NULL on
 * failure (the error is set). */
GE_API ge_value *ge_kernel_output(ge_kernel_ctx *c, uint32_t i, ge_dtype dtype, int32_t rank, const int64_t *dims);
/* Whether v already holds memory for dtype and dims: ge_kernel_output's
 * static path, inline for the smallest kernels. */
static inline int ge_value_is_planned(const ge_value *v, ge_dtype dtype, int32_t rank, const int64_t *dims) {
  int32_t k;
  if (!v->data || v->dtype != dtype || v->rank != rank) return 0;
  for (k = 0; k < rank; k++)
    if (v->dims[k] != dims[k]) return 0;
  return 1;
}
/* Output i as a string tensor of the given shape whose strings need `chars`
 * bytes in all (NULs included): data gets numel `char *` slots and *pool
 * points at `chars` bytes of storage, in the same block, for the kernel to
 * fill and point the slots into. */
GE_API ge_value *ge_kernel_output_strings(ge_kernel_ctx *c, uint32_t i, int32_t rank, const int64_t *dims, size_t chars,
                                          char **pool);
/* Output i as src's bytes seen with another shape of the same element count
 * (Reshape and friends): shares src's storage when the executor allows it,
 * else copies. */
GE_API ge_value *ge_kernel_output_view(ge_kernel_ctx *c, uint32_t i, const ge_value *src, int32_t rank,
                                       const int64_t *dims);
/* Runs fn over [0, n) split in ranges of at least `grain` indices on the
 * executor's threads (c->env->parallel_for), or on this thread alone when
 * the executor gives none, n <= grain, or c->env->num_threads <= 1. */
GE_API void ge_kernel_parallel_for(ge_kernel_ctx *c, int64_t n, int64_t grain, ge_parallel_fn fn, void *arg);
/* Fails the kernel with a message naming its node. */
GE_API ge_status ge_kernel_error(ge_kernel_ctx *c, ge_status code, const char *fmt, ...);
/* Sets v's dims and numel/nbytes from rank and dims (no allocation). */
/* GE_ERR_SHAPE, with numel -1 and nbytes SIZE_MAX (so that no allocation
 * of it can succeed), when a dim is negative or the byte size overflows. */
GE_API ge_status ge_value_set_shape(ge_value *v, ge_dtype dtype, int32_t rank, const int64_t *dims);

/* ------------------------------------------------- the engine interface */

/* An engine is a descriptor of data and function pointers (DESIGN §3): the
 * placer (ge_place.h) asks it which nodes it supports, the partitioner calls
 * its graph optimisers, the executor asks it for kernels, the stream
 * allocator reads its flags. Engines are compiled in (ge_engines/) or loaded
 * from a shared library whose entry function GE_ENGINE_PLUGIN_ENTRY returns
 * a ge_engine_plugin. A descriptor of another ABI version is refused. */
#define GE_ENGINE_ABI_VERSION 2u /* 2: ge_engine.prepare */
#define GE_ENGINE_PLUGIN_ENTRY "ge_engine_plugin_entry"
#define GE_ENGINE_COST_MAX 10

typedef enum ge_engine_runtime { GE_RUNTIME_DEVICE = 0, GE_RUNTIME_HOST = 1 } ge_engine_runtime;

enum {
  GE_ENGINE_COMPOSITE = 1u << 0,         /* runs fused subgraphs of its member engines; places no node itself */
  GE_ENGINE_INDEPENDENT = 1u << 1,       /* needs streams of its own (HCCL) */
  GE_ENGINE_ATTACH = 1u << 2,            /* its nodes attach to a neighbour's stream */
  GE_ENGINE_SKIP_ASSIGN_STREAM = 1u << 3 /* stream assignment skips its nodes */
};

typedef struct ge_engine ge_engine;
struct ge_engine {
  uint32_t abi_version;    /* GE_ENGINE_ABI_VERSION */
  const char *name;        /* registered name, e.g. "AIcoreEngine" */
  const char *accelerator; /* its name in ge.exec.exclude_engines, e.g. "AiCore" */
  int32_t cost;            /* 0 (tried first) .. GE_ENGINE_COST_MAX */
  ge_engine_runtime runtime;
  uint32_t flags;              /* GE_ENGINE_* */
  const char *const *members;  /* composite: names of its atomic engines, NULL-terminated */
  /* 1 when the engine runs node n of graph g; else 0 with the reason in
   * why[0..cap) when why is not NULL. Must be thread-safe and must not
   * change anything. Required for atomic engines. */
  int (*check_supported)(const ge_engine *e, const ge_graph *g, const ge_node *n, char *why, size_t cap);
  /* The kernel computing n (NULL: none, or an executor-owned structural
   * op). Required for atomic engines. */
  ge_kernel_fn (*kernel)(const ge_engine *e, const ge_node *n);
  /* Scratch bytes n needs besides its outputs (NULL: none). */
  size_t (*workspace_size)(const ge_engine *e, const ge_graph *g, const ge_node *n);
  /* Optional optimisers: over the whole graph before placement, and over a
   * graph whose nodes this engine runs (those with engine == self). */
  ge_status (*optimize_original)(const ge_engine *e, ge_graph *g, ge_error *err);
  ge_status (*optimize_subgraph)(const ge_engine *e, ge_graph *g, int32_t self, ge_error *err);
  void *user; /* the engine's own data */
  /* Optional: the function the executor calls once at load for a node of
   * fixed shapes, with GE_KERNEL_PREPARE set, on the context its kernel
   * will run with (the Init program, seed 003 §4.2): usually the kernel
   * itself, which then returns before computing. NULL (or a NULL result):
   * nothing to prepare; the kernel builds its state at its first run. */
  ge_kernel_fn (*prepare)(const ge_engine *e, const ge_node *n);
};

/* For check_supported: writes the formatted reason into why[0..cap) when why
 * is not NULL, and returns 0 (not supported). */
GE_API int ge_engine_why(char *why, size_t cap, const char *fmt, ...);

/* True when op is in names[0..n), sorted by strcmp (binary search): the op
 * sets of engines. */
GE_API int ge_op_in_sorted(const char *op, const char *const *names, size_t n);
/* True for the default (ONNX) domain: NULL, "" or "ai.onnx". */
GE_API int ge_node_in_onnx_domain(const ge_node *n);

/* The index in engines[0..n) of the composite engine listing engines[atomic]
 * among its members, or -1 (the atomic -> composite map). */
GE_API int32_t ge_engine_composite_index(const ge_engine *const *engines, uint32_t n, int32_t atomic);

/* What a plugin's entry function returns (static storage in the plugin). */
typedef struct ge_engine_plugin {
  uint32_t abi_version; /* GE_ENGINE_ABI_VERSION */
  uint32_t num_engines;
  const ge_engine *const *engines;
} ge_engine_plugin;
typedef const ge_engine_plugin *(*ge_engine_plugin_entry_fn)(void);

#ifdef __cplusplus
}
#endif
#endif /* GE_GRAPH_H */

/* ===================================================================== */
/*                            IMPLEMENTATION                             */
/* ===================================================================== */
#if defined(GE_IMPLEMENTATION) || defined(GE_GRAPH_IMPLEMENTATION)
#ifndef GE_GRAPH_IMPLEMENTATION_DONE
#define GE_GRAPH_IMPLEMENTATION_DONE

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef GE_USE_MIMALLOC
#include <mimalloc.h>
#endif
#ifndef XXH_INLINE_ALL
#define XXH_INLINE_ALL
#endif
#include <xxhash.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#define GE__PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define GE__PRINTF(fmt, args)
#endif

/* ------------------------------------------------------------ errors */

GE_API const char *ge_status_name(ge_status s) {
  switch (s) {
  case GE_OK: return "ok";
  case GE_ERR_INVALID: return "invalid argument";
  case GE_ERR_NOMEM: return "out of memory";
  case GE_ERR_NOT_FOUND: return "not found";
  case GE_ERR_CYCLE: return "cycle";
  case GE_ERR_SHAPE: return "shape mismatch";
  case GE_ERR_UNSUPPORTED: return "unsupported";
  case GE_ERR_FORMAT: return "malformed input";
  case GE_ERR_IO: return "i/o error";
  case GE_ERR_INTERNAL: return "internal error";
  default: return "unknown status";
  }
}

/* Sets *err (when given) and returns code. */
GE_API ge_status ge_error_set(ge_error *err, ge_status code, const char *fmt, ...) {
  if (err) {
    va_list ap;
    va_start(ap, fmt);
    err->code = code;
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
  }
  return code;
}

GE_API void ge_log(const ge_logger *l, ge_log_level level, const char *module, const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  if (!GE_LOG_ON(l, level)) return;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  l->fn(l->user, level, module, msg);
}

/* Prefixes err's message with where it happened ("in subgraph ..."). */
static void ge__error_context(ge_error *err, const char *what, const char *graph, const char *node) {
  char inner[sizeof err->message];
  if (!err) return;
  memcpy(inner, err->message, sizeof inner);
  snprintf(err->message, sizeof err->message, "in %.12s '%.60s' of node '%.60s': %.300s", what, graph, node, inner);
}

/* --------------------------------------------------------- allocator */

static void *ge__default_alloc(void *user, size_t size) {
  (void)user;
#ifdef GE_USE_MIMALLOC
  return mi_malloc(size);
#else
  return malloc(size);
#endif
}
static void *ge__default_realloc(void *user, void *p, size_t old_size, size_t new_size) {
  (void)user;
  (void)old_size;
#ifdef GE_USE_MIMALLOC
  return mi_realloc(p, new_size);
#else
  return realloc(p, new_size);
#endif
}
static void ge__default_free(void *user, void *p, size_t size) {
  (void)user;
  (void)size;
#ifdef GE_USE_MIMALLOC
  mi_free(p);
#else
  free(p);
#endif
}

/* A complete allocator: the user's, or the default for missing parts. */
static ge_allocator ge__allocator_or_default(const ge_allocator *a) {
  ge_allocator r;
  if (a && a->alloc && a->free) {
    r = *a;
    return r;
  }
  r.alloc = ge__default_alloc;
  r.realloc = ge__default_realloc;
  r.free = ge__default_free;
  r.user = NULL;
  return r;
}

GE_API ge_allocator ge_allocator_or_default(const ge_allocator *a) { return ge__allocator_or_default(a); }

static void *ge__mem_alloc(const ge_allocator *a, size_t n) { return a->alloc(a->user, n ? n : 1); }
static void ge__mem_free(const ge_allocator *a, void *p, size_t n) {
  if (p) a->free(a->user, p, n ? n : 1);
}
static void *ge__mem_realloc(const ge_allocator *a, void *p, size_t old_n, size_t new_n) {
  void *q;
  if (!p) return ge__mem_alloc(a, new_n);
  if (a->realloc) return a->realloc(a->user, p, old_n ? old_n : 1, new_n ? new_n : 1);
  q = ge__mem_alloc(a, new_n);
  if (q) {
    memcpy(q, p, old_n < new_n ? old_n : new_n);
    ge__mem_free(a, p, old_n);
  }
  return q;
}

/* ------------------------------------------------------------- arena */

/* A graph allocates everything from its arena; freeing the graph frees the
 * arena. Power-of-two blocks released by growing arrays are recycled. */
typedef struct ge__chunk {
  struct ge__chunk *next;
  size_t size, used;
} ge__chunk;

#define GE__ARENA_CLASSES 40
#define GE__CHUNK_HEADER ((sizeof(ge__chunk) + 15) & ~(size_t)15)

typedef struct ge__arena {
  ge_allocator a;
  ge__chunk *head;
  size_t next_chunk; /* size of the next chunk to request */
  size_t in_use;     /* bytes handed out and not recycled */
  void *free_blocks[GE__ARENA_CLASSES]; /* recycled 2^k blocks */
} ge__arena;

static void ge__arena_init(ge__arena *ar, const ge_allocator *a) {
  memset(ar, 0, sizeof *ar);
  ar->a = *a;
  ar->next_chunk = 1024; /* doubling: small graphs (subgraphs, engine pieces) stay small */
}

static void ge__arena_release(ge__arena *ar) {
  ge__chunk *c = ar->head;
  while (c) {
    ge__chunk *next = c->next;
    ge__mem_free(&ar->a, c, c->size);
    c = next;
  }
  ar->head = NULL;
}

static void *ge__arena_alloc(ge__arena *ar, size_t n, size_t align) {
  ge__chunk *c = ar->head;
  size_t at;
  if (n == 0) n = 1;
  if (c) {
    at = (c->used + align - 1) & ~(align - 1);
    if (at + n <= c->size) {
      c->used = at + n;
      ar->in_use += n;
      return (char *)c + at;
    }
  }
  {
    size_t want = GE__CHUNK_HEADER + n + align;
    size_t size = ar->next_chunk;
    if (size < want) size = want;
    c = (ge__chunk *)ge__mem_alloc(&ar->a, size);
    if (!c) return NULL;
    c->size = size;
    /* a big block gets a chunk of its own behind the current one, so the
       space left in the current chunk stays usable */
    if (want > ar->next_chunk / 2 && ar->head) {
      c->next = ar->head->next;
      ar->head->next = c;
    } else {
      c->next = ar->head;
      ar->head = c;
      if (ar->next_chunk < ((size_t)1 << 22)) ar->next_chunk *= 2;
    }
    at = (GE__CHUNK_HEADER + align - 1) & ~(align - 1);
    c->used = at + n;
    ar->in_use += n;
    return (char *)c + at;
  }
}

static uint32_t ge__log2_ceil(size_t n) {
#if defined(__GNUC__) || defined(__clang__)
  return n <= 1 ? 0 : 64u - (uint32_t)__builtin_clzll((unsigned long long)n - 1);
#else
  uint32_t k = 0;
  while (((size_t)1 << k) < n) k++;
  return k;
#endif
}

/* Capacity of a growable array of count elements: next power of two. */
static uint32_t ge__cap_of(uint32_t count) {
  return count ? (uint32_t)1 << ge__log2_ceil(count) : 0;
}

static void *ge__arena_block(ge__arena *ar, size_t bytes) {
  uint32_t k = ge__log2_ceil(bytes < 8 ? 8 : bytes);
  void *p;
  if (k < GE__ARENA_CLASSES && ar->free_blocks[k]) {
    p = ar->free_blocks[k];
    memcpy(&ar->free_blocks[k], p, sizeof(void *));
    ar->in_use += (size_t)1 << k;
    return p;
  }
  return ge__arena_alloc(ar, (size_t)1 << k, 8);
}

static void ge__arena_recycle(ge__arena *ar, void *p, size_t bytes) {
  uint32_t k;
  if (!p) return;
  k = ge__log2_ceil(bytes < 8 ? 8 : bytes);
  if (k >= GE__ARENA_CLASSES) return;
  memcpy(p, &ar->free_blocks[k], sizeof(void *));
  ar->free_blocks[k] = p;
  ar->in_use -= (size_t)1 << k;
}

/* Grows a power-of-two-capacity array holding count elements so that one
 * more fits. Returns the (possibly moved) array or NULL on OOM. */
static void *ge__arena_grow(ge__arena *ar, void *arr, uint32_t count, size_t elem) {
  uint32_t cap = ge__cap_of(count);
  void *q;
  if (count < cap) return arr;
  q = ge__arena_block(ar, (size_t)(cap ? cap * 2 : 1) * elem);
  if (!q) return NULL;
  if (count) memcpy(q, arr, (size_t)count * elem);
  if (arr) ge__arena_recycle(ar, arr, (size_t)cap * elem);
  return q;
}

static char *ge__arena_strdup(ge__arena *ar, const char *s) {
  size_t n;
  char *p;
  if (!s) return NULL;
  n = strlen(s);
  p = (char *)ge__arena_alloc(ar, n + 1, 1);
  if (p) memcpy(p, s, n + 1);
  return p;
}

static void *ge__arena_dup(ge__arena *ar, const void *src, size_t n, size_t align) {
  void *p = ge__arena_alloc(ar, n, align);
  if (p && n) memcpy(p, src, n);
  return p;
}

/* ----------------------------------------------------- dtypes, formats */

static const char *const ge__dtype_names[GE_DTYPE_COUNT] = {
    "undefined", "float32", "uint8",  "int8",   "uint16",    "int16",
    "int32",     "int64",   "string", "bool",   "float16",   "float64",
    "uint32",    "uint64",  "complex64", "complex128", "bfloat16"};
static const unsigned char ge__dtype_sizes[GE_DTYPE_COUNT] = {0, 4, 1, 1, 2, 2, 4, 8, 0,
                                                              1, 2, 8, 4, 8, 8, 16, 2};

GE_API const char *ge_dtype_name(ge_dtype t) {
  return (unsigned)t < GE_DTYPE_COUNT ? ge__dtype_names[t] : "invalid";
}
GE_API size_t ge_dtype_size(ge_dtype t) {
  return (unsigned)t < GE_DTYPE_COUNT ? ge__dtype_sizes[t] : 0;
}
GE_API ge_dtype ge_dtype_from_name(const char *s) {
  int i;
  if (!s) return GE_DTYPE_UNDEFINED;
  for (i = 1; i < GE_DTYPE_COUNT; i++)
    if (strcmp(s, ge__dtype_names[i]) == 0) return (ge_dtype)i;
  if (strcmp(s, "float") == 0) return GE_DTYPE_FLOAT32;
  if (strcmp(s, "double") == 0) return GE_DTYPE_FLOAT64;
  return GE_DTYPE_UNDEFINED;
}

static const char *const ge__format_names[GE_FORMAT_COUNT] = {
    "ND", "NCHW", "NHWC", "HWCN", "CHWN", "NC1HWC0", "FRACTAL_Z", "FRACTAL_NZ",
    "NCDHW", "NDHWC", "NDC1HWC0"};

GE_API const char *ge_format_name(ge_format f) {
  return (unsigned)f < GE_FORMAT_COUNT ? ge__format_names[f] : "invalid";
}
GE_API ge_format ge_format_from_name(const char *s) {
  int i;
  for (i = 0; s && i < GE_FORMAT_COUNT; i++)
    if (strcmp(s, ge__format_names[i]) == 0) return (ge_format)i;
  return GE_FORMAT_COUNT;
}

/* ------------------------------------------------------------ shapes */

GE_API int ge_shape_is_static(const ge_shape *s) {
  int32_t i;
  if (s->rank < 0) return 0;
  for (i = 0; i < s->rank; i++)
    if (s->dims[i] < 0) return 0;
  return 1;
}

GE_API int ge_size_mul_checked(uint64_t a, uint64_t b, uint64_t *out) {
  if (b && a > UINT64_MAX / b) return 0;
  *out = a * b;
  return 1;
}

GE_API int ge_dims_numel_checked(const int64_t *dims, int32_t rank, int64_t *out) {
  uint64_t n = 1;
  int32_t i;
  if (rank < 0) return 0;
  for (i = 0; i < rank; i++)
    if (dims[i] < 0 || !ge_size_mul_checked(n, (uint64_t)dims[i], &n) || n > (uint64_t)INT64_MAX) return 0;
  *out = (int64_t)n;
  return 1;
}

GE_API int ge_dims_nbytes_checked(ge_dtype dtype, const int64_t *dims, int32_t rank, size_t *out) {
  int64_t n;
  uint64_t b;
  uint64_t es = dtype == GE_DTYPE_STRING ? sizeof(char *) : ge_dtype_size(dtype);
  if (!ge_dims_numel_checked(dims, rank, &n) || !ge_size_mul_checked((uint64_t)n, es, &b) || b > (uint64_t)SIZE_MAX)
    return 0;
  *out = (size_t)b;
  return 1;
}

/* Product of dims, or -1 when it overflows int64. */
static int64_t ge__dims_product(const int64_t *dims, int32_t rank) {
  int64_t n;
  return ge_dims_numel_checked(dims, rank, &n) ? n : -1;
}

GE_API int64_t ge_shape_numel(const ge_shape *s) {
  return s->rank < 0 ? -1 : ge__dims_product(s->dims, s->rank);
}

GE_API char *ge_shape_str(const ge_shape *s, char *buf, size_t n) {
  size_t at = 0;
  int32_t i;
  if (!buf || n == 0) return buf;
  buf[0] = 0;
#define GE__PUT(...)                                                        \
  do {                                                                      \
    int w_ = snprintf(buf + at, at < n ? n - at : 0, __VA_ARGS__);          \
    if (w_ > 0) at += (size_t)w_;                                           \
  } while (0)
  if (s->rank == GE_RANK_UNKNOWN) {
    GE__PUT("[?]");
    return buf;
  }
  GE__PUT("[");
  for (i = 0; i < s->rank; i++) {
    const ge_dim_info *d = s->info ? &s->info[i] : NULL;
    GE__PUT("%s%lld", i ? "," : "", (long long)s->dims[i]);
    if (d && ((d->symbol && *d->symbol) || d->lo > 0 || d->hi >= 0)) {
      GE__PUT("(");
      if (d->symbol && *d->symbol) GE__PUT("%s%s", d->symbol, (d->lo > 0 || d->hi >= 0) ? ":" : "");
      if (d->lo > 0 || d->hi >= 0) {
        GE__PUT("%lld..", (long long)d->lo);
        if (d->hi >= 0) GE__PUT("%lld", (long long)d->hi);
      }
      GE__PUT(")");
    }
  }
  GE__PUT("]");
#undef GE__PUT
  if (at >= n) buf[n - 1] = 0;
  return buf;
}

/* ----------------------------------------------------------- tensors */

GE_API int64_t ge_tensor_numel(const ge_tensor *t) { return ge__dims_product(t->dims, t->rank); }

GE_API int64_t ge_tensor_get_int(const ge_tensor *t, int64_t i) {
  const void *p = t->data;
  switch (t->dtype) {
  case GE_DTYPE_INT64: return ((const int64_t *)p)[i];
  case GE_DTYPE_INT32: return ((const int32_t *)p)[i];
  case GE_DTYPE_INT16: return ((const int16_t *)p)[i];
  case GE_DTYPE_INT8: return ((const int8_t *)p)[i];
  case GE_DTYPE_UINT8: case GE_DTYPE_BOOL: return ((const uint8_t *)p)[i];
  case GE_DTYPE_UINT16: return ((const uint16_t *)p)[i];
  case GE_DTYPE_UINT32: return ((const uint32_t *)p)[i];
  case GE_DTYPE_UINT64: return (int64_t)((const uint64_t *)p)[i];
  case GE_DTYPE_FLOAT32: case GE_DTYPE_FLOAT64: case GE_DTYPE_FLOAT16: case GE_DTYPE_BFLOAT16: {
    double d = ge_tensor_get_float(t, i); /* truncated, saturated, NaN -> 0 */
    return d != d ? 0 : d >= 9223372036854775807.0 ? INT64_MAX : d <= -9223372036854775808.0 ? INT64_MIN : (int64_t)d;
  }
  default: return 0;
  }
}

GE_API float ge_half_to_float(uint16_t h) {
  uint32_t sign = (uint32_t)(h >> 15) << 31, exp = (h >> 10) & 31, man = h & 1023, bits;
  float f;
  if (exp == 0) {
    f = (float)man * (1.0f / 16777216.0f); /* 2^-24 */
    return sign ? -f : f;
  }
  if (exp == 31) bits = sign | 0x7F800000u | (man << 13);
  else bits = sign | ((exp + 112) << 23) | (man << 13);
  memcpy(&f, &bits, 4);
  return f;
}

GE_API uint16_t ge_float_to_half(float f) {
  uint32_t x, sign, exp, man;
  memcpy(&x, &f, 4);
  sign = (x >> 16) & 0x8000;
  exp = (x >> 23) & 255;
  man = x & 0x7FFFFF;
  if (exp == 255) return (uint16_t)(sign | 0x7C00 | (man ? 0x200 : 0));
  {
    int e = (int)exp - 127 + 15;
    if (e >= 31) return (uint16_t)(sign | 0x7C00);
    if (e <= 0) { /* subnormal or zero */
      uint32_t m, shift, half, r;
      if (e < -10) return (uint16_t)sign;
      m = man | 0x800000;
      shift = (uint32_t)(14 - e);
      half = 1u << (shift - 1);
      r = m >> shift;
      if ((m & ((1u << shift) - 1)) > half || ((m & ((1u << shift) - 1)) == half && (r & 1))) r++;
      return (uint16_t)(sign | r);
    }
    {
      uint32_t r = ((uint32_t)e << 10) | (man >> 13), rest = man & 0x1FFF;
      if (rest > 0x1000 || (rest == 0x1000 && (r & 1))) r++; /* may carry into the exponent: right */
      return (uint16_t)(sign | r);
    }
  }
}

GE_API double ge_tensor_get_float(const ge_tensor *t, int64_t i) {
  const void *p = t->data;
  switch (t->dtype) {
  case GE_DTYPE_FLOAT32: return ((const float *)p)[i];
  case GE_DTYPE_FLOAT64: return ((const double *)p)[i];
  case GE_DTYPE_FLOAT16: return ge_half_to_float(((const uint16_t *)p)[i]);
  case GE_DTYPE_BFLOAT16: {
    uint32_t bits = (uint32_t)((const uint16_t *)p)[i] << 16;
    float f;
    memcpy(&f, &bits, 4);
    return f;
  }
  case GE_DTYPE_UINT64: return (double)((const uint64_t *)p)[i];
  default: return (double)ge_tensor_get_int(t, i);
  }
}

/* ------------------------------------------------------- mapped files */

struct ge_mapped_file {
  void *data;
  size_t size;
  int refs;
};

GE_API ge_status ge_file_map(const char *path, ge_mapped_file **out, ge_error *err) {
  int fd;
  struct stat st;
  ge_mapped_file *m;
  *out = NULL;
  fd = open(path, O_RDONLY);
  if (fd < 0) return ge_error_set(err, GE_ERR_IO, "cannot open '%s': %s", path, strerror(errno));
  if (fstat(fd, &st) != 0) {
    close(fd);
    return ge_error_set(err, GE_ERR_IO, "cannot stat '%s': %s", path, strerror(errno));
  }
  m = (ge_mapped_file *)calloc(1, sizeof *m);
  if (!m) {
    close(fd);
    return ge_error_set(err, GE_ERR_NOMEM, "out of memory mapping '%s'", path);
  }
  m->size = (size_t)st.st_size;
  m->refs = 1;
  if (m->size) {
    m->data = mmap(NULL, m->size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (m->data == MAP_FAILED) {
      close(fd);
      free(m);
      return ge_error_set(err, GE_ERR_IO, "cannot map '%s': %s", path, strerror(errno));
    }
  }
  close(fd);
  *out = m;
  return GE_OK;
}
GE_API const void *ge_mapped_file_data(const ge_mapped_file *m) { return m->data; }
GE_API size_t ge_mapped_file_size(const ge_mapped_file *m) { return m->size; }
GE_API void ge_mapped_file_retain(ge_mapped_file *m) { m->refs++; }
GE_API void ge_mapped_file_release(ge_mapped_file *m) {
  if (!m || --m->refs > 0) return;
  if (m->size) munmap(m->data, m->size);
  free(m);
}

/* ---------------------------------------------------- graph internals */

/* Strings that recur (op types, domains, attribute names, dim symbols) are
 * interned once per graph; an op entry also caches the op's schema. */
typedef struct ge__interned { /* 32 bytes: tables of small graphs stay a few lines */
  const char *str;
  const char *domain; /* for op entries */
  const ge_op_schema *schema;
  uint32_t schema_seen; /* op entries: registry size + 1 when a lookup found no schema (0: not looked up) */
  uint32_t hash;
} ge__interned;

typedef struct ge__table {
  ge__interned *slots;
  uint32_t cap, count;
} ge__table;

/* Nodes live in chunks of growing size, so node pointers are stable and a
 * small graph stays small: chunk k holds GE__CHUNK0 << k nodes. */
#define GE__CHUNK0_LOG 3
#define GE__MAX_CHUNKS 28

struct ge_graph {
  ge__arena arena;
  const char *name;
  const ge_op_registry *registry;
  ge_node *chunks[GE__MAX_CHUNKS];
  uint32_t id_bound, live;
  ge_graph *parent;
  ge_node_id parent_node;
  ge_attr *attrs;
  uint32_t num_attrs;
  ge__table ops;   /* op types (with schema) */
  ge__table words; /* other interned strings */
  uint64_t *name_index; /* open addressing: name hash << 32 | node id + 1 per slot, 0 empty */
  uint32_t name_index_cap, name_index_used;
  ge_mapped_file **maps;
  uint32_t num_maps;
  uint32_t auto_names;
  ge_node_id output_node; /* the first NetOutput by id or GE_NONE, kept by every change (ids only grow) */
};

struct ge_op_registry {
  ge_allocator a;
  ge_op_schema *schemas;
  uint32_t count, cap;
};

static const ge_op_schema *ge__builtin_find(const char *op, const char *domain);

static uint64_t ge__hash_str(const char *s) { return XXH3_64bits(s, strlen(s)); }

static int ge__str_eq(const char *a, const char *b) {
  if (a == b) return 1;
  if (!a || !b) return (!a || !*a) && (!b || !*b);
  return strcmp(a, b) == 0;
}

/* Finds or adds s (with domain, for ops) in t; returns the entry. */
static ge__interned *ge__intern(ge_graph *g, ge__table *t, const char *s, const char *domain) {
  uint32_t h = (uint32_t)(ge__hash_str(s) ^ (domain && *domain ? ge__hash_str(domain) * 31 : 0));
  uint32_t i;
  if ((t->count + 1) * 4 > t->cap * 3) { /* at most 3/4 full; small: most subgraphs hold few ops */
    uint32_t ncap = t->cap ? t->cap * 2 : 4, j;
    ge__interned *ns = (ge__interned *)ge__arena_alloc(&g->arena, ncap * sizeof *ns, 8);
    if (!ns) return NULL;
    memset(ns, 0, ncap * sizeof *ns);
    for (j = 0; j < t->cap; j++) {
      ge__interned *e = &t->slots[j];
      uint32_t k;
      if (!e->str) continue;
      for (k = e->hash & (ncap - 1); ns[k].str; k = (k + 1) & (ncap - 1)) {
      }
      ns[k] = *e;
    }
    t->slots = ns; /* the old table stays: callers may hold entries of it */
    t->cap = ncap;
  }
  for (i = h & (t->cap - 1); t->slots[i].str; i = (i + 1) & (t->cap - 1)) {
    ge__interned *e = &t->slots[i];
    if (e->hash == h && strcmp(e->str, s) == 0 && ge__str_eq(e->domain, domain)) return e;
  }
  {
    ge__interned *e = &t->slots[i];
    e->str = ge__arena_strdup(&g->arena, s);
    e->domain = domain && *domain ? ge__arena_strdup(&g->arena, domain) : NULL;
    if (!e->str || (domain && *domain && !e->domain)) {
      e->str = NULL;
      return NULL;
    }
    e->hash = h;
    e->schema = NULL;
    e->schema_seen = 0;
    t->count++;
    return e;
  }
}

static const char *ge__word(ge_graph *g, const char *s) {
  ge__interned *e;
  if (!s) return NULL;
  e = ge__intern(g, &g->words, s, NULL);
  return e ? e->str : NULL;
}

/* The chunk and slot of node id. */
/* Index of the highest set bit of x > 0. */
static uint32_t ge__top_bit(uint32_t x) {
#if defined(__GNUC__) || defined(__clang__)
  return 31u - (uint32_t)__builtin_clz(x);
#else
  uint32_t b = 31;
  while (!(x >> b)) b--;
  return b;
#endif
}

static ge_node *ge__slot(const ge_graph *g, ge_node_id id) {
  uint32_t x = id + (1u << GE__CHUNK0_LOG), b = ge__top_bit(x);
  return &g->chunks[b - GE__CHUNK0_LOG][x - (1u << b)];
}

GE_API ge_node *ge_graph_node(const ge_graph *g, ge_node_id id) {
  ge_node *n;
  if (!g || id >= g->id_bound) return NULL;
  n = ge__slot(g, id);
  return (n->flags & GE_NODE_REMOVED) ? NULL : n;
}

GE_API uint32_t ge_graph_id_bound(const ge_graph *g) { return g->id_bound; }
GE_API uint32_t ge_graph_node_count(const ge_graph *g) { return g->live; }
GE_API const char *ge_graph_name(const ge_graph *g) { return g->name ? g->name : ""; }
GE_API ge_graph *ge_graph_parent(const ge_graph *g) { return g->parent; }
GE_API ge_node_id ge_graph_parent_node(const ge_graph *g) { return g->parent_node; }

static int ge__is_op(const ge_node *n, const char *op);
GE_API const ge_node *ge_graph_input_origin(const ge_graph *g, const ge_node *n, uint32_t i, const ge_graph **out_graph) {
  int depth;
  for (depth = 0; g && n && i < n->num_inputs && n->inputs[i].node != GE_NONE && depth < 64; depth++) {
    const ge_node *src = ge_graph_node(g, n->inputs[i].node), *up;
    int64_t k;
    if (out_graph) *out_graph = g;
    if (!src || !ge__is_op(src, "Data") || !g->parent || g->parent_node == GE_NONE) return src;
    up = ge_graph_node(g->parent, g->parent_node);
    if (!up) return src;
    if (ge_node_attr(src, "parent_index")) k = ge_node_attr_int(src, "parent_index", -1);
    else if (ge__is_op(up, "PartitionedCall")) k = ge_node_attr_int(src, "index", -1);
    else return src; /* a body's own input (a loop's iteration values) */
    if (k < 0 || k >= (int64_t)up->num_inputs) return src;
    g = g->parent, n = up, i = (uint32_t)k;
  }
  return NULL;
}
GE_API const ge_allocator *ge_graph_allocator(const ge_graph *g) { return &g->arena.a; }
GE_API const ge_op_registry *ge_graph_registry(const ge_graph *g) { return g->registry; }
GE_API size_t ge_graph_memory_used(const ge_graph *g) {
  size_t n = g->arena.in_use;
  uint32_t k;
  for (k = 0; k < GE__MAX_CHUNKS && g->chunks[k]; k++)
    n += ((size_t)1 << (GE__CHUNK0_LOG + k)) * sizeof(ge_node);
  return n + (size_t)g->name_index_cap * sizeof *g->name_index;
}

GE_API void *ge_graph_alloc_array(const ge_graph *g, size_t size) {
  return ge__mem_alloc(&g->arena.a, size);
}
GE_API void ge_graph_free_array(const ge_graph *g, void *p, size_t size) {
  ge__mem_free(&g->arena.a, p, size);
}

GE_API ge_status ge_graph_create(const ge_graph_desc *desc, ge_graph **out, ge_error *err) {
  ge_allocator a = ge__allocator_or_default(desc ? &desc->allocator : NULL);
  ge_graph *g = (ge_graph *)ge__mem_alloc(&a, sizeof *g);
  *out = NULL;
  if (!g) return ge_error_set(err, GE_ERR_NOMEM, "out of memory creating a graph");
  memset(g, 0, sizeof *g);
  ge__arena_init(&g->arena, &a);
  g->parent_node = g->output_node = GE_NONE;
  g->registry = desc ? desc->registry : NULL;
  if (desc && desc->name && !(g->name = ge__arena_strdup(&g->arena, desc->name))) {
    ge_graph_free(g);
    return ge_error_set(err, GE_ERR_NOMEM, "out of memory creating a graph");
  }
  *out = g;
  return GE_OK;
}

static void ge__free_attr_graphs(ge_attr *a) {
  int32_t i;
  if (a->type == GE_ATTR_GRAPH) ge_graph_free(a->v.g);
  if (a->type == GE_ATTR_GRAPHS)
    for (i = 0; i < a->count; i++) ge_graph_free(a->v.graphs[i]);
}

GE_API void ge_graph_free(ge_graph *g) {
  uint32_t i, k;
  ge_allocator a;
  if (!g) return;
  for (i = 0; i < g->id_bound; i++) {
    ge_node *n = ge_graph_node(g, i);
    for (k = 0; n && k < n->num_attrs; k++) ge__free_attr_graphs(&n->attrs[k]);
  }
  for (k = 0; k < g->num_attrs; k++) ge__free_attr_graphs(&g->attrs[k]);
  for (k = 0; k < g->num_maps; k++) ge_mapped_file_release(g->maps[k]);
  a = g->arena.a;
  for (k = 0; k < GE__MAX_CHUNKS; k++)
    ge__mem_free(&a, g->chunks[k], ((size_t)1 << (GE__CHUNK0_LOG + k)) * sizeof(ge_node));
  ge__mem_free(&a, g->name_index, (size_t)g->name_index_cap * sizeof *g->name_index);
  ge__arena_release(&g->arena);
  ge__mem_free(&a, g, sizeof *g);
}

/* ------------------------------------------------------- name index */

/* A slot keeps the name's hash, so the index is rebuilt without reading
 * names twice. Removing a node or renaming it leaves its old entry behind
 * (ids are never reused, and a lookup skips removed nodes and compares the
 * current name), so a pass moving thousands of nodes out pays nothing per
 * node; the stale entries go at the next rebuild. */
static void ge__name_index_insert(ge_graph *g, uint64_t slot) {
  uint32_t mask = g->name_index_cap - 1, i = (uint32_t)(slot >> 32) & mask;
  while (g->name_index[i]) i = (i + 1) & mask;
  g->name_index[i] = slot;
  g->name_index_used++;
}

static void ge__name_index_put(ge_graph *g, ge_node_id id) {
  uint32_t h = (uint32_t)ge__hash_str(ge__slot(g, id)->name);
  ge__name_index_insert(g, (uint64_t)h << 32 | (id + 1));
}

/* Builds or rebuilds the index so one more entry fits; 0 on OOM. A rebuild
 * sizes it for the live nodes (at most a third full), dropping stale
 * entries. */
static int ge__name_index_reserve(ge_graph *g) {
  uint32_t cap = 64, i;
  uint64_t *old = g->name_index;
  if (old && (g->name_index_used + 1) * 2 <= g->name_index_cap) return 1;
  while (cap < (g->live + 1) * 3) cap *= 2;
  g->name_index = (uint64_t *)ge__mem_alloc(&g->arena.a, cap * sizeof *old);
  if (!g->name_index) {
    g->name_index = old;
    return 0;
  }
  memset(g->name_index, 0, cap * sizeof *old);
  ge__mem_free(&g->arena.a, old, (size_t)g->name_index_cap * sizeof *old);
  g->name_index_cap = cap;
  g->name_index_used = 0;
  for (i = 0; i < g->id_bound; i++)
    if (ge_graph_node(g, i)) ge__name_index_put(g, i);
  return 1;
}

/* Whether a node is named name. Without an index, a few checks scan the
 * nodes (cheaper than building an index for a large graph); from the 16th
 * made name on, the index is built. */
static int ge__name_taken(ge_graph *g, const char *name, int *oom) {
  uint32_t i;
  *oom = 0;
  if (g->name_index || g->auto_names >= 16) {
    if (!ge__name_index_reserve(g)) {
      *oom = 1;
      return 0;
    }
    return ge_graph_find(g, name) != GE_NONE;
  }
  for (i = 0; i < g->id_bound; i++) {
    ge_node *n = ge__slot(g, i);
    if (!(n->flags & GE_NODE_REMOVED) && n->name && strcmp(n->name, name) == 0) return 1;
  }
  return 0;
}

GE_API ge_node_id ge_graph_find(ge_graph *g, const char *name) {
  uint32_t mask, i, h;
  if (!name || !ge__name_index_reserve(g)) return GE_NONE;
  mask = g->name_index_cap - 1;
  h = (uint32_t)ge__hash_str(name);
  for (i = h & mask; g->name_index[i]; i = (i + 1) & mask) {
    ge_node_id id = (uint32_t)g->name_index[i] - 1;
    const ge_node *n = ge__slot(g, id);
    if ((uint32_t)(g->name_index[i] >> 32) == h && !(n->flags & GE_NODE_REMOVED) && strcmp(n->name, name) == 0) return id;
  }
  return GE_NONE;
}

/* --------------------------------------------------------------- nodes */

static ge_status ge__oom(ge_error *err, const ge_graph *g) {
  return ge_error_set(err, GE_ERR_NOMEM, "out of memory in graph '%s'", ge_graph_name(g));
}

static ge_status ge__bad_node(ge_error *err, const ge_graph *g, ge_node_id id) {
  return ge_error_set(err, GE_ERR_NOT_FOUND, "graph '%s' has no node with id %u", ge_graph_name(g),
                  (unsigned)id);
}

static void ge__desc_init(ge_tensor_desc *d) {
  memset(d, 0, sizeof *d);
  d->shape.rank = GE_RANK_UNKNOWN;
  d->offset = -1;
}

/* Takes a fresh node slot (growing the chunk table). */
static ge_node *ge__new_slot(ge_graph *g) {
  ge_node_id id = g->id_bound;
  uint32_t x = id + (1u << GE__CHUNK0_LOG), b = ge__top_bit(x), k;
  ge_node *n;
  k = b - GE__CHUNK0_LOG;
  if (k >= GE__MAX_CHUNKS) return NULL;
  if (!g->chunks[k]) {
    g->chunks[k] = (ge_node *)ge__mem_alloc(&g->arena.a,
                                            ((size_t)1 << (GE__CHUNK0_LOG + k)) * sizeof(ge_node));
    if (!g->chunks[k]) return NULL;
  }
  n = &g->chunks[k][x - (1u << b)];
  memset(n, 0, sizeof *n);
  n->id = id;
  n->engine = n->stream = n->topo_id = n->cluster = -1;
  g->id_bound++;
  g->live++;
  return n;
}

static ge_status ge__check_source(const ge_graph *g, ge_edge src, ge_error *err) {
  ge_node *p;
  if (src.node == GE_NONE) return GE_OK;
  p = ge_graph_node(g, src.node);
  if (!p) return ge_error_set(err, GE_ERR_NOT_FOUND, "edge source id %u is not a node of graph '%s'",
                          (unsigned)src.node, ge_graph_name(g));
  if (src.index < 0 || (uint32_t)src.index >= p->num_outputs)
    return ge_error_set(err, GE_ERR_INVALID, "node '%s' has no output %d (it has %u)", p->name,
                    (int)src.index, (unsigned)p->num_outputs);
  return GE_OK;
}

static int ge__add_use(ge_graph *g, ge_node *p, ge_node_id consumer, uint32_t input) {
  ge_use *u = (ge_use *)ge__arena_grow(&g->arena, p->uses, p->num_uses, sizeof(ge_use));
  if (!u) return 0;
  p->uses = u;
  u[p->num_uses].node = consumer;
  u[p->num_uses].input = input;
  p->num_uses++;
  return 1;
}

static void ge__remove_use(ge_node *p, ge_node_id consumer, uint32_t input) {
  uint32_t i;
  for (i = 0; i < p->num_uses; i++)
    if (p->uses[i].node == consumer && p->uses[i].input == input) {
      p->uses[i] = p->uses[--p->num_uses];
      return;
    }
}

/* The op entry for op/domain (interned, schema looked up once; an op
 * without a schema is looked up again only once the registry grew). */
static ge__interned *ge__op_entry(ge_graph *g, const char *op, const char *domain) {
  ge__interned *e = ge__intern(g, &g->ops, op, domain);
  uint32_t seen = (g->registry ? g->registry->count : 0) + 1;
  if (e && !e->schema && e->schema_seen != seen) {
    e->schema = ge_op_registry_find(g->registry, op, domain);
    e->schema_seen = seen;
  }
  return e;
}

static ge_status ge__add_node(ge_graph *g, const ge__interned *e, const char *name, uint32_t num_inputs,
                              const ge_edge *inputs, int32_t num_outputs, ge_node_id *out, ge_error *err);
static int ge__is_op(const ge_node *n, const char *op);

/* Finds the first NetOutput by id again (after the one kept was removed or
 * a domain changed). */
static void ge__find_output_node(ge_graph *g) {
  uint32_t i;
  g->output_node = GE_NONE;
  for (i = 0; i < g->id_bound && g->output_node == GE_NONE; i++) {
    ge_node *n = ge_graph_node(g, i);
    if (n && ge__is_op(n, "NetOutput")) g->output_node = i;
  }
}

GE_API ge_status ge_graph_add_node(ge_graph *g, const char *op, const char *name,
                                   uint32_t num_inputs, const ge_edge *inputs,
                                   int32_t num_outputs, ge_node_id *out, ge_error *err) {
  ge__interned *e;
  uint32_t i;
  ge_status st;
  if (out) *out = GE_NONE;
  if (!op || !*op) return ge_error_set(err, GE_ERR_INVALID, "node '%s': empty op type", name ? name : "");
  for (i = 0; inputs && i < num_inputs; i++)
    if ((st = ge__check_source(g, inputs[i], err)) != GE_OK) return st;
  e = ge__op_entry(g, op, NULL);
  if (!e) return ge__oom(err, g);
  return ge__add_node(g, e, name, num_inputs, inputs, num_outputs, out, err);
}

/* ge_graph_add_node once the op's entry is known and the inputs checked. */
static ge_status ge__add_node(ge_graph *g, const ge__interned *e, const char *name, uint32_t num_inputs,
                              const ge_edge *inputs, int32_t num_outputs, ge_node_id *out, ge_error *err) {
  ge_node *n;
  uint32_t i, nout;
  char made[96];
  if (!name || !*name) { /* a made name, unique; chosen before the slot exists */
    int oom;
    do snprintf(made, sizeof made, "%.80s_%u", e->str, (unsigned)g->auto_names++);
    while (ge__name_taken(g, made, &oom) && !oom);
    if (oom) return ge__oom(err, g);
    name = made;
  }
  /* room in the name index first: growing it re-inserts every live node */
  if (g->name_index && !ge__name_index_reserve(g)) return ge__oom(err, g);
  nout = num_outputs >= 0 ? (uint32_t)num_outputs
         : e->schema      ? (uint32_t)e->schema->default_outputs
                          : 1;
  n = ge__new_slot(g);
  if (!n) return ge__oom(err, g);
  n->op = e->str;
  n->schema = e->schema;
  if (!(n->name = ge__arena_strdup(&g->arena, name))) goto oom;
  n->num_inputs = num_inputs;
  n->num_outputs = nout;
  if (num_inputs) {
    n->inputs = (ge_edge *)ge__arena_block(&g->arena, ge__cap_of(num_inputs) * sizeof(ge_edge));
    if (!n->inputs) goto oom;
    for (i = 0; i < num_inputs; i++) {
      n->inputs[i].node = inputs ? inputs[i].node : GE_NONE;
      n->inputs[i].index = inputs && inputs[i].node != GE_NONE ? inputs[i].index : 0;
      if (n->inputs[i].node != GE_NONE &&
          !ge__add_use(g, ge__slot(g, n->inputs[i].node), n->id, i))
        goto oom;
    }
  }
  if (nout) {
    n->outputs = (ge_tensor_desc *)ge__arena_alloc(&g->arena, nout * sizeof(ge_tensor_desc), 8);
    if (!n->outputs) goto oom;
    for (i = 0; i < nout; i++) ge__desc_init(&n->outputs[i]);
  }
  if (g->name_index) ge__name_index_put(g, n->id);
  if (g->output_node == GE_NONE && ge__is_op(n, "NetOutput")) g->output_node = n->id;
  if (out) *out = n->id;
  return GE_OK;
oom:
  /* undo the uses registered so far and drop the slot */
  for (i = 0; n->inputs && i < n->num_inputs; i++)
    if (n->inputs[i].node != GE_NONE) ge__remove_use(ge__slot(g, n->inputs[i].node), n->id, i);
  n->flags = GE_NODE_REMOVED;
  n->name = "";
  g->live--;
  return ge__oom(err, g);
}

static void ge__remove_id(ge_node_id *arr, uint32_t *count, ge_node_id id) {
  uint32_t i;
  for (i = 0; i < *count; i++)
    if (arr[i] == id) {
      memmove(arr + i, arr + i + 1, (*count - i - 1) * sizeof *arr);
      (*count)--;
      return;
    }
}

GE_API ge_status ge_graph_remove_node(ge_graph *g, ge_node_id id, ge_error *err) {
  ge_node *n = ge_graph_node(g, id);
  uint32_t i;
  if (!n) return ge__bad_node(err, g, id);
  for (i = 0; i < n->num_inputs; i++)
    if (n->inputs[i].node != GE_NONE) ge__remove_use(ge__slot(g, n->inputs[i].node), id, i);
  for (i = 0; i < n->num_uses; i++) {
    ge_node *c = ge__slot(g, n->uses[i].node);
    c->inputs[n->uses[i].input].node = GE_NONE;
    c->inputs[n->uses[i].input].index = 0;
  }
  for (i = 0; i < n->num_control_inputs; i++) {
    ge_node *p = ge__slot(g, n->control_inputs[i]);
    ge__remove_id(p->control_outputs, &p->num_control_outputs, id);
  }
  for (i = 0; i < n->num_control_outputs; i++) {
    ge_node *c = ge__slot(g, n->control_outputs[i]);
    ge__remove_id(c->control_inputs, &c->num_control_inputs, id);
  }
  for (i = 0; i < n->num_attrs; i++) ge__free_attr_graphs(&n->attrs[i]);
  n->flags = GE_NODE_REMOVED;
  n->num_uses = n->num_control_inputs = n->num_control_outputs = n->num_attrs = 0;
  g->live--;
  if (id == g->output_node) ge__find_output_node(g);
  return GE_OK;
}

GE_API ge_status ge_node_set_name(ge_graph *g, ge_node_id id, const char *name, ge_error *err) {
  ge_node *n = ge_graph_node(g, id);
  const char *copy;
  if (!n) return ge__bad_node(err, g, id);
  if (!name || !*name) return ge_error_set(err, GE_ERR_INVALID, "node '%s': empty name", n->name);
  if (!(copy = ge__arena_strdup(&g->arena, name))) return ge__oom(err, g);
  if (g->name_index && !ge__name_index_reserve(g)) return ge__oom(err, g);
  n->name = copy;
  if (g->name_index) ge__name_index_put(g, id);
  return GE_OK;
}

GE_API ge_status ge_node_set_domain(ge_graph *g, ge_node_id id, const char *domain, ge_error *err) {
  ge_node *n = ge_graph_node(g, id);
  ge__interned *e;
  if (!n) return ge__bad_node(err, g, id);
  if (!(e = ge__op_entry(g, n->op, domain))) return ge__oom(err, g);
  n->domain = e->domain;
  n->schema = e->schema;
  if (!strcmp(n->op, "NetOutput")) ge__find_output_node(g); /* in the default domain or not now */
  return GE_OK;
}

GE_API ge_status ge_graph_set_input(ge_graph *g, ge_node_id dst, uint32_t i, ge_edge src, ge_error *err) {
  ge_node *n = ge_graph_node(g, dst);
  ge_status st;
  if (!n) return ge__bad_node(err, g, dst);
  if (i >= n->num_inputs)
    return ge_error_set(err, GE_ERR_INVALID, "node '%s' has no input %u (it has %u)", n->name,
                    (unsigned)i, (unsigned)n->num_inputs);
  if ((st = ge__check_source(g, src, err)) != GE_OK) return st;
  if (src.node != GE_NONE && !ge__add_use(g, ge__slot(g, src.node), dst, i)) return ge__oom(err, g);
  if (n->inputs[i].node != GE_NONE) ge__remove_use(ge__slot(g, n->inputs[i].node), dst, i);
  n->inputs[i].node = src.node;
  n->inputs[i].index = src.node == GE_NONE ? 0 : src.index;
  return GE_OK;
}

GE_API ge_status ge_graph_add_input(ge_graph *g, ge_node_id dst, ge_edge src, ge_error *err) {
  ge_node *n = ge_graph_node(g, dst);
  ge_edge *in;
  ge_status st;
  if (!n) return ge__bad_node(err, g, dst);
  if ((st = ge__check_source(g, src, err)) != GE_OK) return st;
  in = (ge_edge *)ge__arena_grow(&g->arena, n->inputs, n->num_inputs, sizeof(ge_edge));
  if (!in) return ge__oom(err, g);
  n->inputs = in;
  in[n->num_inputs].node = GE_NONE;
  in[n->num_inputs].index = 0;
  n->num_inputs++;
  return ge_graph_set_input(g, dst, n->num_inputs - 1, src, err);
}

GE_API ge_status ge_graph_set_num_outputs(ge_graph *g, ge_node_id id, uint32_t count, ge_error *err) {
  ge_node *n = ge_graph_node(g, id);
  uint32_t i;
  if (!n) return ge__bad_node(err, g, id);
  for (i = 0; i < n->num_uses; i++) {
    const ge_edge *e = &ge__slot(g, n->uses[i].node)->inputs[n->uses[i].input];
    if ((uint32_t)e->index >= count)
      return ge_error_set(err, GE_ERR_INVALID, "node '%s': output %d still has consumers", n->name,
                      (int)e->index);
  }
  if (count > n->num_outputs) { /* outputs are sized exactly: changing them is rare */
    ge_tensor_desc *d = (ge_tensor_desc *)ge__arena_alloc(&g->arena, count * sizeof *d, 8);
    if (!d) return ge__oom(err, g);
    if (n->num_outputs) memcpy(d, n->outputs, n->num_outputs * sizeof *d);
    n->outputs = d;
  }
  for (i = n->num_outputs; i < count; i++) ge__desc_init(&n->outputs[i]);
  n->num_outputs = count;
  return GE_OK;
}

GE_API ge_status ge_graph_replace_uses(ge_graph *g, ge_edge from, ge_edge to, ge_error *err) {
  ge_node *p = ge_graph_node(g, from.node);
  ge_status st;
  uint32_t i;
  if (!p) return ge__bad_node(err, g, from.node);
  if ((st = ge__check_source(g, to, err)) != GE_OK) return st;
  if (from.node == to.node && from.index == to.index) return GE_OK;
  for (i = 0; i < p->num_uses;) {
    ge_use u = p->uses[i];
    if (ge__slot(g, u.node)->inputs[u.input].index == from.index) {
      /* set_input removes this use from p (swap-remove), so i stays */
      if ((st = ge_graph_set_input(g, u.node, u.input, to, err)) != GE_OK) return st;
    } else {
      i++;
    }
  }
  return GE_OK;
}

static int ge__has_id(const ge_node_id *arr, uint32_t count, ge_node_id id) {
  uint32_t i;
  for (i = 0; i < count; i++)
    if (arr[i] == id) return 1;
  return 0;
}

static int ge__push_id(ge_graph *g, ge_node_id **arr, uint32_t *count, ge_node_id id) {
  ge_node_id *a = (ge_node_id *)ge__arena_grow(&g->arena, *arr, *count, sizeof(ge_node_id));
  if (!a) return 0;
  *arr = a;
  a[(*count)++] = id;
  return 1;
}

GE_API ge_status ge_graph_add_control(ge_graph *g, ge_node_id src, ge_node_id dst, ge_error *err) {
  ge_node *s = ge_graph_node(g, src), *d = ge_graph_node(g, dst);
  if (!s) return ge__bad_node(err, g, src);
  if (!d) return ge__bad_node(err, g, dst);
  if (src == dst) return ge_error_set(err, GE_ERR_CYCLE, "control edge from node '%s' to itself", s->name);
  if (ge__has_id(d->control_inputs, d->num_control_inputs, src)) return GE_OK;
  if (!ge__push_id(g, &d->control_inputs, &d->num_control_inputs, src)) return ge__oom(err, g);
  if (!ge__push_id(g, &s->control_outputs, &s->num_control_outputs, dst)) {
    d->num_control_inputs--;
    return ge__oom(err, g);
  }
  return GE_OK;
}

GE_API ge_status ge_graph_remove_control(ge_graph *g, ge_node_id src, ge_node_id dst, ge_error *err) {
  ge_node *s = ge_graph_node(g, src), *d = ge_graph_node(g, dst);
  if (!s) return ge__bad_node(err, g, src);
  if (!d) return ge__bad_node(err, g, dst);
  ge__remove_id(d->control_inputs, &d->num_control_inputs, src);
  ge__remove_id(s->control_outputs, &s->num_control_outputs, dst);
  return GE_OK;
}

/* ------------------------------------------------------ tensor descs */

/* Copies a shape into g's arena, reusing dst's storage when ranks match. */
static int ge__set_shape(ge_graph *g, ge_shape *dst, int32_t rank, const int64_t *dims,
                         const ge_dim_info *info) {
  int32_t i;
  if (rank < 0) {
    dst->rank = GE_RANK_UNKNOWN;
    dst->dims = NULL;
    dst->info = NULL;
    return 1;
  }
  if (dst->rank != rank || (rank && !dst->dims)) {
    dst->dims = rank ? (int64_t *)ge__arena_alloc(&g->arena, (size_t)rank * sizeof(int64_t), 8) : NULL;
    if (rank && !dst->dims) return 0;
    dst->info = NULL;
  }
  dst->rank = rank;
  if (rank) memcpy(dst->dims, dims, (size_t)rank * sizeof(int64_t));
  if (!info) {
    dst->info = NULL;
    return 1;
  }
  for (i = 0; i < rank; i++)
    if (info[i].symbol || info[i].lo > 0 || info[i].hi >= 0) break;
  if (i == rank) { /* nothing to record */
    dst->info = NULL;
    return 1;
  }
  if (!dst->info &&
      !(dst->info = (ge_dim_info *)ge__arena_alloc(&g->arena, (size_t)rank * sizeof(ge_dim_info), 8)))
    return 0;
  for (i = 0; i < rank; i++) {
    dst->info[i].lo = info[i].lo;
    dst->info[i].hi = info[i].hi;
    dst->info[i].symbol = info[i].symbol ? ge__word(g, info[i].symbol) : NULL;
    if (info[i].symbol && !dst->info[i].symbol) return 0;
  }
  return 1;
}

static ge_status ge__output_of(ge_graph *g, ge_node_id id, uint32_t i, ge_tensor_desc **d, ge_error *err) {
  ge_node *n = ge_graph_node(g, id);
  *d = NULL;
  if (!n) return ge__bad_node(err, g, id);
  if (i >= n->num_outputs)
    return ge_error_set(err, GE_ERR_INVALID, "node '%s' has no output %u (it has %u)", n->name,
                    (unsigned)i, (unsigned)n->num_outputs);
  *d = &n->outputs[i];
  return GE_OK;
}

GE_API ge_status ge_node_set_output(ge_graph *g, ge_node_id id, uint32_t i, ge_dtype dtype,
                                    int32_t rank, const int64_t *dims, const ge_dim_info *info,
                                    ge_error *err) {
  ge_tensor_desc *d;
  ge_status st = ge__output_of(g, id, i, &d, err);
  if (st) return st;
  if ((unsigned)dtype >= GE_DTYPE_COUNT)
    return ge_error_set(err, GE_ERR_INVALID, "node '%s': invalid dtype %d", ge__slot(g, id)->name, (int)dtype);
  if (rank > GE_MAX_RANK || (rank < 0 && rank != GE_RANK_UNKNOWN))
    return ge_error_set(err, GE_ERR_INVALID, "node '%s': invalid rank %d", ge__slot(g, id)->name, (int)rank);
  for (int32_t k = 0; k < rank; k++)
    if (dims[k] < GE_DIM_UNKNOWN)
      return ge_error_set(err, GE_ERR_INVALID, "node '%s': invalid dimension %lld",
                      ge__slot(g, id)->name, (long long)dims[k]);
  d->dtype = dtype;
  if (!ge__set_shape(g, &d->shape, rank, dims, info)) return ge__oom(err, g);
  return GE_OK;
}

GE_API ge_status ge_node_set_output_name(ge_graph *g, ge_node_id id, uint32_t i, const char *name,
                                         ge_error *err) {
  ge_tensor_desc *d;
  ge_status st = ge__output_of(g, id, i, &d, err);
  if (st) return st;
  d->name = NULL;
  if (name && !(d->name = ge__arena_strdup(&g->arena, name))) return ge__oom(err, g);
  return GE_OK;
}

GE_API ge_status ge_node_set_output_format(ge_graph *g, ge_node_id id, uint32_t i, ge_format f,
                                           ge_error *err) {
  ge_tensor_desc *d;
  ge_status st = ge__output_of(g, id, i, &d, err);
  if (st) return st;
  if ((unsigned)f >= GE_FORMAT_COUNT) return ge_error_set(err, GE_ERR_INVALID, "invalid format %d", (int)f);
  d->format = f;
  return GE_OK;
}

GE_API const ge_tensor_desc *ge_node_input_desc(const ge_graph *g, const ge_node *n, uint32_t i) {
  const ge_node *p;
  if (i >= n->num_inputs || n->inputs[i].node == GE_NONE) return NULL;
  p = ge_graph_node(g, n->inputs[i].node);
  return p ? &p->outputs[n->inputs[i].index] : NULL;
}

/* --------------------------------------------------------- attributes */

static ge_status ge__retain_map(ge_graph *g, ge_mapped_file *m) {
  uint32_t i;
  ge_mapped_file **maps;
  for (i = 0; i < g->num_maps; i++)
    if (g->maps[i] == m) return GE_OK;
  maps = (ge_mapped_file **)ge__arena_grow(&g->arena, g->maps, g->num_maps, sizeof *maps);
  if (!maps) return GE_ERR_NOMEM;
  g->maps = maps;
  maps[g->num_maps++] = m;
  ge_mapped_file_retain(m);
  return GE_OK;
}

/* Deep copy of a tensor into g (borrowed data stays borrowed). */
static ge_tensor *ge__copy_tensor(ge_graph *g, const ge_tensor *src) {
  ge_tensor *t = (ge_tensor *)ge__arena_alloc(&g->arena, sizeof *t, 8);
  int64_t n, i;
  if (!t) return NULL;
  *t = *src;
  t->dims = NULL;
  if (src->rank > 0 &&
      !(t->dims = (int64_t *)ge__arena_dup(&g->arena, src->dims, (size_t)src->rank * 8, 8)))
    return NULL;
  if (src->borrowed) {
    return ge__retain_map(g, src->borrowed) == GE_OK ? t : NULL;
  }
  n = ge_tensor_numel(src);
  if (src->dtype == GE_DTYPE_STRING) {
    const char **in = (const char **)src->data, **outs;
    outs = (const char **)ge__arena_alloc(&g->arena, (size_t)(n ? n : 1) * sizeof(char *), 8);
    if (!outs) return NULL;
    for (i = 0; i < n; i++)
      if (!(outs[i] = ge__arena_strdup(&g->arena, in[i] ? in[i] : ""))) return NULL;
    t->data = (void *)outs;
    t->nbytes = (size_t)n * sizeof(char *);
    return t;
  }
  t->data = src->nbytes ? ge__arena_dup(&g->arena, src->data, src->nbytes, 64) : NULL;
  if (src->nbytes && !t->data) return NULL;
  return t;
}

GE_API ge_status ge_graph_copy_tensor(ge_graph *g, const ge_tensor *src, ge_tensor **out, ge_error *err) {
  int64_t n = 1;
  int32_t i;
  *out = NULL;
  if ((unsigned)src->dtype >= GE_DTYPE_COUNT || src->dtype == GE_DTYPE_UNDEFINED)
    return ge_error_set(err, GE_ERR_INVALID, "tensor has invalid dtype %d", (int)src->dtype);
  if (src->rank < 0 || src->rank > GE_MAX_RANK)
    return ge_error_set(err, GE_ERR_INVALID, "tensor has invalid rank %d", (int)src->rank);
  for (i = 0; i < src->rank; i++)
    if (src->dims[i] < 0) return ge_error_set(err, GE_ERR_INVALID, "tensor has negative dimension");
  if ((n = ge__dims_product(src->dims, src->rank)) < 0 ||
      (src->dtype != GE_DTYPE_STRING && (uint64_t)n > (uint64_t)SIZE_MAX / 16))
    return ge_error_set(err, GE_ERR_INVALID, "tensor has too many elements");
  if (src->dtype != GE_DTYPE_STRING && src->nbytes != (size_t)n * ge_dtype_size(src->dtype))
    return ge_error_set(err, GE_ERR_INVALID, "tensor of %lld %s elements has %zu bytes, expected %zu",
                    (long long)n, ge_dtype_name(src->dtype), src->nbytes,
                    (size_t)n * ge_dtype_size(src->dtype));
  if (!(*out = ge__copy_tensor(g, src))) return ge__oom(err, g);
  return GE_OK;
}

/* Copies src's value into dst (already named and typed) inside g, whose
 * node `owner` holds it. Graph values are cloned. */
static ge_status ge__copy_attr_value(ge_graph *g, ge_node_id owner, ge_attr *dst, const ge_attr *src,
                                     ge_error *err) {
  int32_t i, n = src->count;
  ge_status st;
  dst->type = src->type;
  dst->count = n;
  switch (src->type) {
  case GE_ATTR_INT: dst->v.i = src->v.i; return GE_OK;
  case GE_ATTR_FLOAT: dst->v.f = src->v.f; return GE_OK;
  case GE_ATTR_BOOL: dst->v.b = src->v.b ? 1 : 0; return GE_OK;
  case GE_ATTR_DTYPE:
    if ((unsigned)src->v.dt >= GE_DTYPE_COUNT)
      return ge_error_set(err, GE_ERR_INVALID, "attribute '%s': invalid dtype %d", src->name, (int)src->v.dt);
    dst->v.dt = src->v.dt;
    return GE_OK;
  case GE_ATTR_STRING:
    dst->v.s = ge__arena_strdup(&g->arena, src->v.s ? src->v.s : "");
    return dst->v.s ? GE_OK : ge__oom(err, g);
  case GE_ATTR_INTS: case GE_ATTR_FLOATS: case GE_ATTR_BOOLS: case GE_ATTR_DTYPES: {
    for (i = 0; src->type == GE_ATTR_DTYPES && i < n; i++)
      if ((unsigned)src->v.dtypes[i] >= GE_DTYPE_COUNT)
        return ge_error_set(err, GE_ERR_INVALID, "attribute '%s': invalid dtype %d", src->name, (int)src->v.dtypes[i]);
    size_t es = src->type == GE_ATTR_BOOLS ? 1 : src->type == GE_ATTR_DTYPES ? sizeof(ge_dtype) : 8;
    dst->v.ints = (int64_t *)ge__arena_dup(&g->arena, src->v.ints, (size_t)n * es, 8);
    return dst->v.ints || !n ? GE_OK : ge__oom(err, g);
  }
  case GE_ATTR_STRINGS:
    dst->v.strings = (const char **)ge__arena_alloc(&g->arena, (size_t)(n ? n : 1) * sizeof(char *), 8);
    if (!dst->v.strings) return ge__oom(err, g);
    for (i = 0; i < n; i++)
      if (!(dst->v.strings[i] = ge__arena_strdup(&g->arena, src->v.strings[i] ? src->v.strings[i] : "")))
        return ge__oom(err, g);
    return GE_OK;
  case GE_ATTR_TENSOR: return ge_graph_copy_tensor(g, src->v.t, &dst->v.t, err);
  case GE_ATTR_TENSORS:
    dst->v.tensors = (ge_tensor **)ge__arena_alloc(&g->arena, (size_t)(n ? n : 1) * sizeof(void *), 8);
    if (!dst->v.tensors) return ge__oom(err, g);
    for (i = 0; i < n; i++)
      if ((st = ge_graph_copy_tensor(g, src->v.tensors[i], &dst->v.tensors[i], err))) return st;
    return GE_OK;
  case GE_ATTR_GRAPH: case GE_ATTR_GRAPHS: {
    ge_graph *const *in = src->type == GE_ATTR_GRAPH ? &src->v.g : src->v.graphs;
    ge_graph **outs;
    int32_t m = src->type == GE_ATTR_GRAPH ? 1 : n;
    outs = src->type == GE_ATTR_GRAPH ? &dst->v.g
                                      : (ge_graph **)ge__arena_alloc(&g->arena, (size_t)(m ? m : 1) * sizeof(void *), 8);
    if (!outs) return ge__oom(err, g);
    if (src->type == GE_ATTR_GRAPHS) dst->v.graphs = outs;
    for (i = 0; i < m; i++) outs[i] = NULL;
    for (i = 0; i < m; i++) {
      ge_graph_desc d;
      memset(&d, 0, sizeof d);
      d.name = ge_graph_name(in[i]);
      d.allocator = g->arena.a;
      d.registry = in[i]->registry;
      if ((st = ge_graph_clone(in[i], &d, &outs[i], err))) {
        dst->type = src->type;
        dst->count = i;
        return st;
      }
      outs[i]->parent = g;
      outs[i]->parent_node = owner;
    }
    return GE_OK;
  }
  default: return ge_error_set(err, GE_ERR_INVALID, "attribute '%s' has invalid type %d", src->name, (int)src->type);
  }
}

/* The attribute array of node id, or of the graph when id == GE_NONE. */
static ge_status ge__attr_list(ge_graph *g, ge_node_id id, ge_attr ***arr, uint32_t **count, ge_error *err) {
  *arr = NULL;
  *count = NULL;
  if (id == GE_NONE) {
    *arr = &g->attrs;
    *count = &g->num_attrs;
    return GE_OK;
  } else {
    ge_node *n = ge_graph_node(g, id);
    if (!n) return ge__bad_node(err, g, id);
    *arr = &n->attrs;
    *count = &n->num_attrs;
    return GE_OK;
  }
}

/* The string an attribute name is kept as: the op schema's own when it
 * declares the name (static, or the registrant's, which outlives the
 * registry), so the common attributes cost no interning; else interned. */
static const char *ge__attr_name(ge_graph *g, const ge_node *n, const char *name) {
  uint32_t i;
  for (i = 0; n && n->schema && i < GE_SCHEMA_MAX_ATTRS && n->schema->attrs[i].name; i++)
    if (n->schema->attrs[i].name == name || strcmp(n->schema->attrs[i].name, name) == 0) return n->schema->attrs[i].name;
  return ge__word(g, name);
}

/* Stores src (copied) as an attribute of node id (or the graph). */
static ge_status ge__put_attr(ge_graph *g, ge_node_id id, const ge_attr *src, ge_error *err) {
  ge_attr **arr, tmp;
  uint32_t *count, i;
  ge_status st;
  if (!src->name || !*src->name) return ge_error_set(err, GE_ERR_INVALID, "attribute with an empty name");
  if ((st = ge__attr_list(g, id, &arr, &count, err))) return st;
  memset(&tmp, 0, sizeof tmp);
  if (!(tmp.name = ge__attr_name(g, id == GE_NONE ? NULL : ge__slot(g, id), src->name))) return ge__oom(err, g);
  if ((st = ge__copy_attr_value(g, id, &tmp, src, err))) {
    ge__free_attr_graphs(&tmp);
    return st;
  }
  for (i = 0; i < *count; i++)
    if (strcmp((*arr)[i].name, tmp.name) == 0) {
      ge__free_attr_graphs(&(*arr)[i]);
      (*arr)[i] = tmp;
      return GE_OK;
    }
  {
    ge_attr *na = (ge_attr *)ge__arena_grow(&g->arena, *arr, *count, sizeof(ge_attr));
    if (!na) {
      ge__free_attr_graphs(&tmp);
      return ge__oom(err, g);
    }
    *arr = na;
    na[(*count)++] = tmp;
  }
  return GE_OK;
}

static const ge_attr *ge__find_attr(const ge_attr *attrs, uint32_t n, const char *name) {
  uint32_t i;
  for (i = 0; i < n; i++)
    if (strcmp(attrs[i].name, name) == 0) return &attrs[i];
  return NULL;
}

GE_API const ge_attr *ge_node_attr(const ge_node *n, const char *name) {
  return ge__find_attr(n->attrs, n->num_attrs, name);
}
GE_API const ge_tensor *ge_node_const_input(const ge_graph *g, const ge_node *n, uint32_t i) {
  const ge_node *p;
  const ge_attr *a;
  if (i >= n->num_inputs || n->inputs[i].node == GE_NONE) return NULL;
  p = ge_graph_node(g, n->inputs[i].node);
  if (!p || strcmp(p->op, "Const") != 0 || p->num_control_inputs) return NULL;
  a = ge_node_attr(p, "value");
  return a && a->type == GE_ATTR_TENSOR && a->v.t && a->v.t->data ? a->v.t : NULL;
}
GE_API int64_t ge_node_attr_int(const ge_node *n, const char *name, int64_t dflt) {
  const ge_attr *a = ge_node_attr(n, name);
  if (!a) return dflt;
  if (a->type == GE_ATTR_INT) return a->v.i;
  if (a->type == GE_ATTR_BOOL) return a->v.b;
  if (a->type == GE_ATTR_DTYPE) return a->v.dt;
  return dflt;
}
GE_API double ge_node_attr_float(const ge_node *n, const char *name, double dflt) {
  const ge_attr *a = ge_node_attr(n, name);
  if (!a) return dflt;
  if (a->type == GE_ATTR_FLOAT) return a->v.f;
  if (a->type == GE_ATTR_INT) return (double)a->v.i;
  return dflt;
}
GE_API const char *ge_node_attr_string(const ge_node *n, const char *name, const char *dflt) {
  const ge_attr *a = ge_node_attr(n, name);
  return a && a->type == GE_ATTR_STRING ? a->v.s : dflt;
}
GE_API int32_t ge_node_attr_ints(const ge_node *n, const char *name, const int64_t **vals) {
  const ge_attr *a = ge_node_attr(n, name);
  if (!a || a->type != GE_ATTR_INTS) return -1;
  if (vals) *vals = a->v.ints;
  return a->count;
}

#define GE__SETTER(fn, ctype, attr_type, field)                                              \
  GE_API ge_status fn(ge_graph *g, ge_node_id id, const char *name, ctype v, ge_error *err) { \
    ge_attr a;                                                                                \
    memset(&a, 0, sizeof a);                                                                  \
    a.name = name;                                                                            \
    a.type = attr_type;                                                                       \
    a.v.field = v;                                                                            \
    return ge__put_attr(g, id, &a, err);                                                      \
  }
GE__SETTER(ge_node_set_attr_int, int64_t, GE_ATTR_INT, i)
GE__SETTER(ge_node_set_attr_float, double, GE_ATTR_FLOAT, f)
GE__SETTER(ge_node_set_attr_bool, int, GE_ATTR_BOOL, b)
GE__SETTER(ge_node_set_attr_string, const char *, GE_ATTR_STRING, s)
GE__SETTER(ge_node_set_attr_dtype, ge_dtype, GE_ATTR_DTYPE, dt)
#undef GE__SETTER

#define GE__LIST_SETTER(fn, ctype, attr_type, field, cast)                                        \
  GE_API ge_status fn(ge_graph *g, ge_node_id id, const char *name, ctype v, int32_t n,           \
                      ge_error *err) {                                                            \
    ge_attr a;                                                                                    \
    if (n < 0 || (n > 0 && !v)) return ge_error_set(err, GE_ERR_INVALID, "attribute '%s': bad list", name); \
    memset(&a, 0, sizeof a);                                                                      \
    a.name = name;                                                                                \
    a.type = attr_type;                                                                           \
    a.count = n;                                                                                  \
    a.v.field = (cast)v;                                                                          \
    return ge__put_attr(g, id, &a, err);                                                          \
  }
GE__LIST_SETTER(ge_node_set_attr_ints, const int64_t *, GE_ATTR_INTS, ints, int64_t *)
GE__LIST_SETTER(ge_node_set_attr_floats, const double *, GE_ATTR_FLOATS, floats, double *)
GE__LIST_SETTER(ge_node_set_attr_bools, const uint8_t *, GE_ATTR_BOOLS, bools, uint8_t *)
GE__LIST_SETTER(ge_node_set_attr_strings, const char *const *, GE_ATTR_STRINGS, strings, const char **)
GE__LIST_SETTER(ge_node_set_attr_dtypes, const ge_dtype *, GE_ATTR_DTYPES, dtypes, ge_dtype *)
GE__LIST_SETTER(ge_node_set_attr_tensors, const ge_tensor *const *, GE_ATTR_TENSORS, tensors, ge_tensor **)
#undef GE__LIST_SETTER

GE_API ge_status ge_node_set_attr_tensor(ge_graph *g, ge_node_id id, const char *name, const ge_tensor *t,
                                         ge_error *err) {
  ge_attr a;
  memset(&a, 0, sizeof a);
  a.name = name;
  a.type = GE_ATTR_TENSOR;
  a.v.t = (ge_tensor *)t;
  return ge__put_attr(g, id, &a, err);
}

/* Installs owned subgraphs (no copy) as attribute `name` of node id. */
static ge_status ge__adopt_graphs(ge_graph *g, ge_node_id id, const char *name, ge_graph *const *subs,
                                  int32_t n, int list, ge_error *err) {
  ge_attr **arr, a;
  uint32_t *count, i;
  int32_t k;
  ge_status st = GE_OK;
  memset(&a, 0, sizeof a);
  for (k = 0; k < n && !st; k++) {
    const ge_graph *up;
    if (!subs[k] || subs[k]->parent)
      st = ge_error_set(err, GE_ERR_INVALID, "attribute '%s': graph %d is missing or already a subgraph", name, (int)k);
    for (up = g; !st && up; up = up->parent) /* a graph cannot hold itself or an ancestor */
      if (up == subs[k])
        st = ge_error_set(err, GE_ERR_INVALID, "attribute '%s': graph '%s' would contain itself", name, ge_graph_name(up));
  }
  if (!st && !(a.name = ge__word(g, name ? name : ""))) st = ge__oom(err, g);
  if (!st && (!name || !*name)) st = ge_error_set(err, GE_ERR_INVALID, "attribute with an empty name");
  if (!st) st = ge__attr_list(g, id, &arr, &count, err);
  if (!st && list && !(a.v.graphs = (ge_graph **)ge__arena_dup(&g->arena, subs, (size_t)n * sizeof(void *), 8)) && n)
    st = ge__oom(err, g);
  if (st) { /* the graphs were handed over: free them, unless one is g's own ancestor */
    for (k = 0; k < n; k++) {
      const ge_graph *up = g;
      while (up && up != subs[k]) up = up->parent;
      if (subs[k] && !subs[k]->parent && !up) ge_graph_free(subs[k]);
    }
    return st;
  }
  a.type = list ? GE_ATTR_GRAPHS : GE_ATTR_GRAPH;
  a.count = list ? n : 0;
  if (!list) a.v.g = subs[0];
  for (k = 0; k < n; k++) {
    subs[k]->parent = g;
    subs[k]->parent_node = id;
  }
  for (i = 0; i < *count; i++)
    if (strcmp((*arr)[i].name, a.name) == 0) {
      ge__free_attr_graphs(&(*arr)[i]);
      (*arr)[i] = a;
      return GE_OK;
    }
  {
    ge_attr *na = (ge_attr *)ge__arena_grow(&g->arena, *arr, *count, sizeof(ge_attr));
    if (!na) {
      ge__free_attr_graphs(&a);
      return ge__oom(err, g);
    }
    *arr = na;
    na[(*count)++] = a;
  }
  return GE_OK;
}

GE_API ge_status ge_node_set_attr_graph(ge_graph *g, ge_node_id id, const char *name, ge_graph *sub, ge_error *err) {
  return ge__adopt_graphs(g, id, name, &sub, 1, 0, err);
}
GE_API ge_status ge_node_set_attr_graphs(ge_graph *g, ge_node_id id, const char *name, ge_graph *const *subs,
                                         int32_t n, ge_error *err) {
  return ge__adopt_graphs(g, id, name, subs, n, 1, err);
}

GE_API ge_status ge_node_copy_attr(ge_graph *g, ge_node_id id, const ge_attr *a, ge_error *err) {
  return ge__put_attr(g, id, a, err);
}

/* ge_node_set_attrs: a node with attributes takes them one by one; one
 * without gets one array (names are canonical pointers, so a repeat is
 * found by comparing them). */
static ge_status ge__put_attrs(ge_graph *g, ge_node_id id, const ge_attr *src, uint32_t n, ge_error *err) {
  ge_attr **arr, *na;
  uint32_t *count, i, j, k = 0;
  size_t bytes = (size_t)ge__cap_of(n) * sizeof *na;
  ge_status st = GE_OK;
  if ((st = ge__attr_list(g, id, &arr, &count, err))) return st;
  if (*count || n < 2) {
    for (i = 0; i < n && st == GE_OK; i++) st = ge__put_attr(g, id, &src[i], err);
    return st;
  }
  for (i = 0; i < n; i++)
    if (!src[i].name || !*src[i].name) return ge_error_set(err, GE_ERR_INVALID, "attribute with an empty name");
  if (!(na = (ge_attr *)ge__arena_block(&g->arena, bytes))) return ge__oom(err, g);
  for (i = 0; i < n && st == GE_OK; i++) {
    ge_attr tmp;
    memset(&tmp, 0, sizeof tmp);
    if (!(tmp.name = ge__attr_name(g, id == GE_NONE ? NULL : ge__slot(g, id), src[i].name))) st = ge__oom(err, g);
    else if ((st = ge__copy_attr_value(g, id, &tmp, &src[i], err)) != GE_OK) ge__free_attr_graphs(&tmp);
    else {
      for (j = 0; j < k && na[j].name != tmp.name; j++) {
      }
      if (j < k) ge__free_attr_graphs(&na[j]);
      else k++;
      na[j] = tmp;
    }
  }
  if (st != GE_OK) {
    for (j = 0; j < k; j++) ge__free_attr_graphs(&na[j]);
    ge__arena_recycle(&g->arena, na, bytes);
    return st;
  }
  *arr = na;
  *count = k;
  return GE_OK;
}

GE_API ge_status ge_node_set_attrs(ge_graph *g, ge_node_id id, const ge_attr *attrs, uint32_t n, ge_error *err) {
  if (id == GE_NONE) return ge__bad_node(err, g, id);
  if (n && !attrs) return ge_error_set(err, GE_ERR_INVALID, "ge_node_set_attrs: no attributes");
  return ge__put_attrs(g, id, attrs, n, err);
}

GE_API ge_status ge_node_remove_attr(ge_graph *g, ge_node_id id, const char *name, ge_error *err) {
  ge_attr **arr;
  uint32_t *count, i;
  ge_status st = ge__attr_list(g, id, &arr, &count, err);
  if (st) return st;
  for (i = 0; i < *count; i++)
    if (strcmp((*arr)[i].name, name) == 0) {
      ge__free_attr_graphs(&(*arr)[i]);
      memmove(&(*arr)[i], &(*arr)[i + 1], (*count - i - 1) * sizeof(ge_attr));
      (*count)--;
      return GE_OK;
    }
  return GE_OK;
}

GE_API ge_status ge_graph_set_attr_int(ge_graph *g, const char *name, int64_t v, ge_error *err) {
  return ge_node_set_attr_int(g, GE_NONE, name, v, err);
}
GE_API const ge_attr *ge_graph_attr(const ge_graph *g, const char *name) {
  return ge__find_attr(g->attrs, g->num_attrs, name);
}
GE_API uint32_t ge_graph_num_attrs(const ge_graph *g) { return g->num_attrs; }
GE_API const ge_attr *ge_graph_attr_at(const ge_graph *g, uint32_t i) {
  return i < g->num_attrs ? &g->attrs[i] : NULL;
}

/* Calls fn on every graph held by attribute a. */
#define GE__FOR_ATTR_GRAPHS(a, sub, body)                                   \
  do {                                                                      \
    if ((a)->type == GE_ATTR_GRAPH) {                                       \
      ge_graph *sub = (a)->v.g;                                             \
      body;                                                                 \
    } else if ((a)->type == GE_ATTR_GRAPHS) {                               \
      int32_t ge__gk;                                                       \
      for (ge__gk = 0; ge__gk < (a)->count; ge__gk++) {                     \
        ge_graph *sub = (a)->v.graphs[ge__gk];                              \
        body;                                                               \
      }                                                                     \
    }                                                                       \
  } while (0)

static uint32_t ge__collect_subgraphs(const ge_graph *g, ge_graph **subs, uint32_t cap, uint32_t n) {
  uint32_t i, k;
  for (i = 0; i < g->id_bound; i++) {
    ge_node *node = ge_graph_node(g, i);
    for (k = 0; node && k < node->num_attrs; k++)
      GE__FOR_ATTR_GRAPHS(&node->attrs[k], sub, {
        if (n < cap) subs[n] = sub;
        n = ge__collect_subgraphs(sub, subs, cap, n + 1);
      });
  }
  return n;
}

GE_API uint32_t ge_graph_subgraphs(const ge_graph *g, ge_graph **subs, uint32_t cap) {
  return ge__collect_subgraphs(g, subs, cap, 0);
}

/* ------------------------------------------------ inputs and outputs */

static int ge__is_op(const ge_node *n, const char *op) {
  return strcmp(n->op, op) == 0 && (!n->domain || !*n->domain);
}

GE_API ge_status ge_graph_add_data(ge_graph *g, const char *name, ge_dtype dtype, int32_t rank,
                                   const int64_t *dims, ge_node_id *out, ge_error *err) {
  ge_node_id id;
  ge_status st;
  uint32_t n = ge_graph_inputs(g, NULL, 0);
  if (out) *out = GE_NONE;
  if ((st = ge_graph_add_node(g, "Data", name, 0, NULL, 1, &id, err))) return st;
  if ((st = ge_node_set_attr_int(g, id, "index", (int64_t)n, err)) ||
      (st = ge_node_set_output(g, id, 0, dtype, rank, dims, NULL, err))) {
    ge_graph_remove_node(g, id, NULL);
    return st;
  }
  if (out) *out = id;
  return GE_OK;
}

GE_API ge_status ge_graph_add_const(ge_graph *g, const char *name, const ge_tensor *t, ge_node_id *out,
                                    ge_error *err) {
  ge_node_id id;
  ge_status st;
  if (out) *out = GE_NONE;
  if ((st = ge_graph_add_node(g, "Const", name, 0, NULL, 1, &id, err))) return st;
  if ((st = ge_node_set_attr_tensor(g, id, "value", t, err)) ||
      (st = ge_node_set_output(g, id, 0, t->dtype, t->rank, t->dims, NULL, err))) {
    ge_graph_remove_node(g, id, NULL);
    return st;
  }
  ge__slot(g, id)->outputs[0].value = ge_node_attr(ge__slot(g, id), "value")->v.t;
  if (out) *out = id;
  return GE_OK;
}

GE_API ge_node_id ge_graph_output_node(const ge_graph *g) { return g->output_node; }

GE_API ge_status ge_graph_set_outputs(ge_graph *g, uint32_t n, const ge_edge *outputs,
                                      const char *const *names, ge_error *err) {
  ge_node_id id = ge_graph_output_node(g);
  ge_node *o;
  ge_status st;
  uint32_t i;
  for (i = 0; i < n; i++)
    if ((st = ge__check_source(g, outputs[i], err))) return st;
  if (id == GE_NONE) {
    if ((st = ge_graph_add_node(g, "NetOutput", NULL, n, outputs, (int32_t)n, &id, err))) return st;
  } else {
    o = ge__slot(g, id);
    for (i = n; i < o->num_inputs; i++) /* drop inputs past the new count */
      if (o->inputs[i].node != GE_NONE) ge__remove_use(ge__slot(g, o->inputs[i].node), id, i);
    if (o->num_inputs > n) o->num_inputs = n;
    for (i = 0; i < n; i++) {
      if (i < o->num_inputs) st = ge_graph_set_input(g, id, i, outputs[i], err);
      else st = ge_graph_add_input(g, id, outputs[i], err);
      if (st) return st;
    }
    if ((st = ge_graph_set_num_outputs(g, id, n, err))) return st;
  }
  o = ge__slot(g, id);
  for (i = 0; i < n; i++) {
    const ge_tensor_desc *src = ge_node_input_desc(g, o, i);
    ge_tensor_desc *d = &o->outputs[i];
    if (src) {
      d->dtype = src->dtype;
      d->format = src->format;
      if (!ge__set_shape(g, &d->shape, src->shape.rank, src->shape.dims, src->shape.info)) return ge__oom(err, g);
    }
    if (names && names[i] && (st = ge_node_set_output_name(g, id, i, names[i], err))) return st;
  }
  return GE_OK;
}

GE_API uint32_t ge_graph_inputs(const ge_graph *g, ge_node_id *ids, uint32_t cap) {
  uint32_t i, n = 0;
  for (i = 0; i < g->id_bound; i++) {
    ge_node *d = ge_graph_node(g, i);
    if (d && ge__is_op(d, "Data") && ge_node_attr(d, "index")) {
      int64_t k = ge_node_attr_int(d, "index", -1);
      if (ids && k >= 0 && (uint64_t)k < cap) ids[k] = i;
      n++;
    }
  }
  return n;
}

/* ------------------------------------------------- kernel interface */

GE_API ge_status ge_value_set_shape(ge_value *v, ge_dtype dtype, int32_t rank, const int64_t *dims) {
  int32_t i;
  size_t nbytes;
  v->dtype = dtype;
  v->rank = rank;
  for (i = 0; i < rank; i++) v->dims[i] = dims[i];
  if (!ge_dims_nbytes_checked(dtype, dims, rank, &nbytes)) {
    v->numel = -1;
    v->nbytes = SIZE_MAX;
    return GE_ERR_SHAPE;
  }
  ge_dims_numel_checked(dims, rank, &v->numel);
  v->nbytes = nbytes;
  return GE_OK;
}

GE_API ge_value *ge_kernel_output(ge_kernel_ctx *c, uint32_t i, ge_dtype dtype, int32_t rank, const int64_t *dims) {
  ge_value *v;
  if (i >= c->num_outputs) {
    ge_kernel_error(c, GE_ERR_INTERNAL, "kernel asked for output %u of %u", (unsigned)i, (unsigned)c->num_outputs);
    return NULL;
  }
  v = c->outputs[i];
  if (ge_value_is_planned(v, dtype, rank, dims)) return v;
  return c->env->alloc_output(c, i, dtype, rank, dims);
}

GE_API ge_value *ge_kernel_output_strings(ge_kernel_ctx *c, uint32_t i, int32_t rank, const int64_t *dims, size_t chars,
                                          char **pool) {
  int64_t numel = ge__dims_product(dims, rank), raw;
  ge_value *v;
  if (numel < 0 || (uint64_t)numel > (SIZE_MAX - chars) / sizeof(char *) / 2) {
    ge_kernel_error(c, GE_ERR_SHAPE, "string output %u is too large", (unsigned)i);
    return NULL;
  }
  /* one raw block: the pointer slots, then the characters */
  raw = (int64_t)((size_t)numel * sizeof(char *) + chars);
  if (!(v = c->env->alloc_output(c, i, GE_DTYPE_UINT8, 1, &raw))) return NULL;
  ge_value_set_shape(v, GE_DTYPE_STRING, rank, dims);
  *pool = (char *)v->data + (size_t)numel * sizeof(char *);
  return v;
}

GE_API int32_t ge_engine_composite_index(const ge_engine *const *engines, uint32_t n, int32_t atomic) {
  const ge_engine *e = atomic >= 0 && (uint32_t)atomic < n ? engines[atomic] : NULL;
  uint32_t i;
  const char *const *m;
  if (!e || (e->flags & GE_ENGINE_COMPOSITE)) return -1;
  for (i = 0; i < n; i++)
    if (engines[i] && (engines[i]->flags & GE_ENGINE_COMPOSITE) && engines[i]->members)
      for (m = engines[i]->members; *m; m++)
        if (!strcmp(*m, e->name)) return (int32_t)i;
  return -1;
}

GE_API int ge_op_in_sorted(const char *op, const char *const *names, size_t n) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = strcmp(op, names[mid]);
    if (c == 0) return 1;
    if (c < 0) hi = mid;
    else lo = mid + 1;
  }
  return 0;
}

GE_API int ge_node_in_onnx_domain(const ge_node *n) {
  return !n->domain || !*n->domain || strcmp(n->domain, "ai.onnx") == 0;
}

GE_API int ge_engine_why(char *why, size_t cap, const char *fmt, ...) {
  if (why && cap) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, cap, fmt, ap);
    va_end(ap);
  }
  return 0;
}

GE_API ge_value *ge_kernel_output_view(ge_kernel_ctx *c, uint32_t i, const ge_value *src, int32_t rank,
                                       const int64_t *dims) {
  ge_value *v;
  if (i >= c->num_outputs || src->dtype == GE_DTYPE_STRING || ge__dims_product(dims, rank) != src->numel) {
    ge_kernel_error(c, GE_ERR_INTERNAL, "output %u cannot be a view of a value of %lld elements", (unsigned)i,
                    (long long)src->numel);
    return NULL;
  }
  if (c->env->alias_output) return c->env->alias_output(c, i, src, rank, dims);
  v = ge_kernel_output(c, i, src->dtype, rank, dims);
  if (v && v->data != src->data && src->nbytes) memcpy(v->data, src->data, src->nbytes);
  return v;
}

GE_API void ge_kernel_parallel_for(ge_kernel_ctx *c, int64_t n, int64_t grain, ge_parallel_fn fn, void *arg) {
  ge_kernel_env *env = c->env;
  if (n <= 0) return;
  if (grain < 1) grain = 1;
  if (!env || !env->parallel_for || env->num_threads <= 1 || n <= grain) fn(arg, 0, n);
  else env->parallel_for(env, n, grain, fn, arg);
}

GE_API void ge_kernel_free_state(ge_kernel_ctx *c) {
  if (!c) return;
  free(c->state); /* kernels malloc their state */
  free(c->ref_state);
  c->state = c->ref_state = NULL;
}

GE_API ge_status ge_kernel_error(ge_kernel_ctx *c, ge_status code, const char *fmt, ...) {
  char msg[360];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return ge_error_set(c->err, code, "node '%.60s' (%.40s): %s", c->node->name, c->node->op, msg);
}

/* ---------------------------------------------- topological orders */

/* Number of in-edges (data and control) of every node, into indeg. */
static void ge__in_degrees(const ge_graph *g, uint32_t *indeg) {
  uint32_t i, k;
  for (i = 0; i < g->id_bound; i++) {
    ge_node *n = ge_graph_node(g, i);
    uint32_t d = 0;
    if (!n) continue;
    for (k = 0; k < n->num_inputs; k++) d += n->inputs[k].node != GE_NONE;
    indeg[i] = d + n->num_control_inputs;
  }
}

/* Appends to a message the names along one cycle among the nodes that Kahn
 * could not order (indeg > 0): walking to unordered predecessors must
 * repeat a node, and the repeat closes a cycle. */
static ge_status ge__report_cycle(const ge_graph *g, const uint32_t *indeg, uint32_t *mark, ge_error *err) {
  uint32_t i, step = 0, start = GE_NONE;
  char msg[400];
  size_t at;
  for (i = 0; i < g->id_bound && start == GE_NONE; i++)
    if (ge_graph_node(g, i) && indeg[i] > 0) start = i;
  memset(mark, 0, g->id_bound * sizeof *mark);
  for (i = start; !mark[i];) {
    ge_node *n = ge__slot(g, i);
    uint32_t k, next = GE_NONE;
    mark[i] = ++step;
    for (k = 0; k < n->num_inputs && next == GE_NONE; k++)
      if (n->inputs[k].node != GE_NONE && indeg[n->inputs[k].node] > 0) next = n->inputs[k].node;
    for (k = 0; k < n->num_control_inputs && next == GE_NONE; k++)
      if (indeg[n->control_inputs[k]] > 0) next = n->control_inputs[k];
    i = next;
  }
  /* the cycle is the nodes marked from mark[i] on, walked backwards; print
     it forwards (producer -> consumer) */
  {
    uint32_t len = step - mark[i] + 1, j, *cyc = (uint32_t *)ge__mem_alloc(&g->arena.a, len * sizeof(uint32_t));
    at = (size_t)snprintf(msg, sizeof msg, "graph '%s' has a cycle: ", ge_graph_name(g));
    if (cyc) {
      for (j = 0; j < g->id_bound; j++)
        if (mark[j] >= mark[i]) cyc[mark[j] - mark[i]] = j;
      for (j = 0; j <= len && at < sizeof msg; j++)
        at += (size_t)snprintf(msg + at, sizeof msg - at, "%s%s", j ? " -> " : "",
                               ge__slot(g, cyc[(len - j) % len])->name);
      ge__mem_free(&g->arena.a, cyc, len * sizeof(uint32_t));
    }
  }
  return ge_error_set(err, GE_ERR_CYCLE, "%s", msg);
}

/* Kahn's algorithm; lifo selects DFS order. order gets node_count ids. */
static ge_status ge__kahn(const ge_graph *g, int lifo, ge_node_id *order, uint32_t *indeg, ge_error *err) {
  uint32_t i, k, head = 0, tail = 0, done = 0;
  ge__in_degrees(g, indeg);
  /* order doubles as the queue (FIFO) or stack (LIFO): for the stack,
     emitted ids are kept below `done` and pending ones above */
  if (!lifo) {
    for (i = 0; i < g->id_bound; i++)
      if (ge_graph_node(g, i) && indeg[i] == 0) order[tail++] = i;
    while (head < tail) {
      ge_node *n = ge__slot(g, order[head++]);
      for (k = 0; k < n->num_uses; k++)
        if (--indeg[n->uses[k].node] == 0) order[tail++] = n->uses[k].node;
      for (k = 0; k < n->num_control_outputs; k++)
        if (--indeg[n->control_outputs[k]] == 0) order[tail++] = n->control_outputs[k];
    }
    done = tail;
  } else {
    uint32_t *stack = (uint32_t *)ge__mem_alloc(&g->arena.a, (size_t)(g->live + 1) * sizeof(uint32_t));
    uint32_t sp = 0;
    if (!stack) return ge__oom(err, g);
    for (i = g->id_bound; i-- > 0;)
      if (ge_graph_node(g, i) && indeg[i] == 0) stack[sp++] = i;
    while (sp) {
      ge_node *n = ge__slot(g, stack[--sp]);
      order[done++] = n->id;
      for (k = n->num_control_outputs; k-- > 0;)
        if (--indeg[n->control_outputs[k]] == 0) stack[sp++] = n->control_outputs[k];
      for (k = n->num_uses; k-- > 0;)
        if (--indeg[n->uses[k].node] == 0) stack[sp++] = n->uses[k].node;
    }
    ge__mem_free(&g->arena.a, stack, (size_t)(g->live + 1) * sizeof(uint32_t));
  }
  if (done < g->live) return ge__report_cycle(g, indeg, order, err);
  return GE_OK;
}

/* Post-order DFS from the sinks over inputs in order (data, then control):
 * a node comes right after the last of its inputs' subtrees. */
static ge_status ge__stable_rdfs(const ge_graph *g, ge_node_id *order, uint32_t *state, ge_error *err) {
  /* state: 0 new, 1 on stack, 2 emitted; the stack holds (node, next input) */
  uint32_t *stack = (uint32_t *)ge__mem_alloc(&g->arena.a, (size_t)(g->live + 1) * 2 * sizeof(uint32_t));
  uint32_t i, sp = 0, done = 0;
  if (!stack) return ge__oom(err, g);
  memset(state, 0, g->id_bound * sizeof *state);
  for (i = 0; i < g->id_bound; i++) {
    ge_node *root = ge_graph_node(g, i);
    if (!root || root->num_uses || root->num_control_outputs || state[i]) continue;
    stack[0] = i;
    stack[1] = 0;
    sp = 1;
    state[i] = 1;
    while (sp) {
      ge_node *n = ge__slot(g, stack[2 * (sp - 1)]);
      uint32_t k = stack[2 * (sp - 1) + 1]++, pred;
      if (k >= n->num_inputs + n->num_control_inputs) {
        state[n->id] = 2;
        order[done++] = n->id;
        sp--;
        continue;
      }
      pred = k < n->num_inputs ? n->inputs[k].node : n->control_inputs[k - n->num_inputs];
      if (pred == GE_NONE || state[pred] == 2) continue;
      if (state[pred] == 1) break; /* back edge: a cycle */
      state[pred] = 1;
      stack[2 * sp] = pred;
      stack[2 * sp + 1] = 0;
      sp++;
    }
    if (sp) break;
  }
  ge__mem_free(&g->arena.a, stack, (size_t)(g->live + 1) * 2 * sizeof(uint32_t));
  if (done < g->live) { /* a cycle: let Kahn name it */
    ge_status st = ge__kahn(g, 0, order, state, err);
    return st ? st : ge_error_set(err, GE_ERR_INTERNAL, "topological sort lost nodes");
  }
  return GE_OK;
}

/* Topological order without touching the graph. scratch: id_bound entries. */
static ge_status ge__topo(const ge_graph *g, ge_topo_mode mode, ge_node_id *order, uint32_t *scratch,
                          ge_error *err) {
  if (mode == GE_TOPO_STABLE_RDFS) return ge__stable_rdfs(g, order, scratch, err);
  return ge__kahn(g, mode == GE_TOPO_DFS, order, scratch, err);
}

/* Allocates an order for g (node_count entries) and fills it. */
static ge_status ge__topo_alloc(const ge_graph *g, ge_topo_mode mode, ge_node_id **order, ge_error *err) {
  size_t n = (size_t)g->live + 1, b = (size_t)g->id_bound + 1;
  uint32_t *scratch = (uint32_t *)ge__mem_alloc(&g->arena.a, b * sizeof(uint32_t));
  ge_status st;
  *order = (ge_node_id *)ge__mem_alloc(&g->arena.a, (n > b ? n : b) * sizeof(ge_node_id));
  if (!scratch || !*order) {
    ge__mem_free(&g->arena.a, scratch, b * sizeof(uint32_t));
    ge__mem_free(&g->arena.a, *order, (n > b ? n : b) * sizeof(ge_node_id));
    *order = NULL;
    return ge__oom(err, g);
  }
  st = ge__topo(g, mode, *order, scratch, err);
  ge__mem_free(&g->arena.a, scratch, b * sizeof(uint32_t));
  if (st) {
    ge__mem_free(&g->arena.a, *order, (n > b ? n : b) * sizeof(ge_node_id));
    *order = NULL;
  }
  return st;
}
static void ge__topo_free(const ge_graph *g, ge_node_id *order) {
  size_t n = (size_t)g->live + 1, b = (size_t)g->id_bound + 1;
  ge__mem_free(&g->arena.a, order, (n > b ? n : b) * sizeof(ge_node_id));
}

GE_API ge_status ge_graph_topo_sort(ge_graph *g, ge_topo_mode mode, ge_node_id *order, ge_error *err) {
  uint32_t i;
  ge_node_id *tmp;
  ge_status st;
  if (mode != GE_TOPO_BFS && mode != GE_TOPO_DFS && mode != GE_TOPO_STABLE_RDFS)
    return ge_error_set(err, GE_ERR_INVALID, "unknown topological sort mode %d", (int)mode);
  if ((st = ge__topo_alloc(g, mode, &tmp, err))) return st;
  for (i = 0; i < g->live; i++) {
    order[i] = tmp[i];
    ge__slot(g, tmp[i])->topo_id = (int32_t)i;
  }
  ge__topo_free(g, tmp);
  return GE_OK;
}

GE_API ge_status ge_topo_mode_parse(const char *s, ge_topo_mode *out, ge_error *err) {
  if (s && (!strcmp(s, "0") || !strcmp(s, "bfs"))) *out = GE_TOPO_BFS;
  else if (s && (!strcmp(s, "1") || !strcmp(s, "dfs"))) *out = GE_TOPO_DFS;
  else if (s && (!strcmp(s, "3") || !strcmp(s, "rdfs"))) *out = GE_TOPO_STABLE_RDFS;
  else
    return ge_error_set(err, GE_ERR_INVALID,
                    "ge.topoSortingMode: '%s' is not one of 0 (BFS), 1 (DFS), 3 (stable reverse DFS)",
                    s ? s : "(null)");
  return GE_OK;
}

/* --------------------------------------------------------- validation */

static ge_status ge__validate_types(const ge_graph *g, const ge_node *n, ge_error *err) {
  const ge_op_schema *s = n->schema;
  ge_dtype bound[GE_SCHEMA_MAX_TYPE_VARS];
  const char *who[GE_SCHEMA_MAX_TYPE_VARS];
  uint32_t i, total = n->num_inputs + n->num_outputs;
  memset(bound, 0, sizeof bound);
  memset(who, 0, sizeof who);
  for (i = 0; i < total; i++) {
    int is_in = i < n->num_inputs;
    uint32_t k = is_in ? i : i - n->num_inputs;
    int v = is_in ? s->input_types[k < 8 ? k : 7] : s->output_types[k < 8 ? k : 7];
    const ge_tensor_desc *d = is_in ? ge_node_input_desc(g, n, k) : &n->outputs[k];
    if (v < 0 || v >= GE_SCHEMA_MAX_TYPE_VARS || !d || d->dtype == GE_DTYPE_UNDEFINED) continue;
    if (s->type_vars[v] && !(s->type_vars[v] & GE_DTYPE_BIT(d->dtype)))
      return ge_error_set(err, GE_ERR_SHAPE, "node '%s' (%s): %s %u has dtype %s, which %s does not accept",
                      n->name, n->op, is_in ? "input" : "output", (unsigned)k,
                      ge_dtype_name(d->dtype), n->op);
    if (bound[v] && bound[v] != d->dtype)
      return ge_error_set(err, GE_ERR_SHAPE, "node '%s' (%s): dtype mismatch, %s is %s but %s %u is %s",
                      n->name, n->op, who[v], ge_dtype_name(bound[v]), is_in ? "input" : "output",
                      (unsigned)k, ge_dtype_name(d->dtype));
    if (!bound[v]) {
      bound[v] = d->dtype;
      who[v] = is_in ? "an input" : "an output";
    }
  }
  return GE_OK;
}

static const char *ge__attr_type_name(ge_attr_type t) {
  static const char *const names[] = {"none", "an int", "a float", "a bool", "a string", "a dtype", "a tensor",
                                      "a graph", "ints", "floats", "bools", "strings", "dtypes", "tensors", "graphs"};
  return (unsigned)t < sizeof names / sizeof names[0] ? names[t] : "of an unknown type";
}

/* n against its schema: input and output counts, required inputs and
 * attributes, attribute types (a string where a float belongs is an error,
 * never a silent default). Shape inference runs it before each node. */
static ge_status ge__check_schema(const ge_node *n, ge_error *err) {
  const ge_op_schema *s = n->schema;
  uint32_t i;
  int64_t fused, max_inputs;
  if (!s) return GE_OK;
  fused = ge_node_attr_int(n, GE_ATTR_FUSED_INPUTS, 0);
  if (fused < 0 || fused > 8)
    return ge_error_set(err, GE_ERR_INVALID, "node '%s' (%s): %s is %lld, expected 0..8", n->name, n->op,
                        GE_ATTR_FUSED_INPUTS, (long long)fused);
  max_inputs = s->max_inputs < 0 ? -1 : s->max_inputs + fused;
  if ((int64_t)n->num_inputs < s->min_inputs || (max_inputs >= 0 && (int64_t)n->num_inputs > max_inputs)) {
    char range[32];
    if (max_inputs < 0) snprintf(range, sizeof range, "at least %d", (int)s->min_inputs);
    else snprintf(range, sizeof range, "%d..%d", (int)s->min_inputs, (int)max_inputs);
    return ge_error_set(err, GE_ERR_INVALID, "node '%s' (%s) has %u inputs, expected %s", n->name, n->op,
                    (unsigned)n->num_inputs, range);
  }
  for (i = 0; i < (uint32_t)s->min_inputs; i++)
    if (n->inputs[i].node == GE_NONE)
      return ge_error_set(err, GE_ERR_INVALID, "node '%s' (%s): required input %u is not connected", n->name,
                      n->op, (unsigned)i);
  if ((int64_t)n->num_outputs < s->min_outputs || (s->max_outputs >= 0 && (int64_t)n->num_outputs > s->max_outputs))
    return ge_error_set(err, GE_ERR_INVALID, "node '%s' (%s) has %u outputs, expected %d..%d", n->name, n->op,
                    (unsigned)n->num_outputs, (int)s->min_outputs, (int)s->max_outputs);
  for (i = 0; i < GE_SCHEMA_MAX_ATTRS && s->attrs[i].name; i++) {
    const ge_attr *a = ge_node_attr(n, s->attrs[i].name);
    if (!a && s->attrs[i].required)
      return ge_error_set(err, GE_ERR_INVALID, "node '%s' (%s): required attribute '%s' is missing", n->name,
                      n->op, s->attrs[i].name);
    if (a && a->type != s->attrs[i].type &&
        !(a->type == GE_ATTR_INT && (s->attrs[i].type == GE_ATTR_BOOL || s->attrs[i].type == GE_ATTR_DTYPE)))
      return ge_error_set(err, GE_ERR_INVALID, "node '%s' (%s): attribute '%s' is %s, expected %s", n->name,
                      n->op, s->attrs[i].name, ge__attr_type_name(a->type), ge__attr_type_name(s->attrs[i].type));
  }
  return GE_OK;
}

static ge_status ge__validate_node(const ge_graph *g, const ge_node *n, const ge_validate_desc *desc,
                                   ge_error *err) {
  const ge_op_schema *s = n->schema;
  uint32_t i, k;
  ge_status st;
  if (!n->name || !*n->name) return ge_error_set(err, GE_ERR_INVALID, "a node of op %s has an empty name", n->op);
  for (i = 0; i < n->num_inputs; i++) {
    ge_edge e = n->inputs[i];
    ge_node *p;
    if (e.node == GE_NONE) continue;
    if (e.node == n->id) return ge_error_set(err, GE_ERR_CYCLE, "node '%s' reads its own output (input %u)", n->name, (unsigned)i);
    p = ge_graph_node(g, e.node);
    if (!p) return ge_error_set(err, GE_ERR_INVALID, "node '%s' input %u: dangling edge from removed node id %u",
                            n->name, (unsigned)i, (unsigned)e.node);
    if (e.index < 0 || (uint32_t)e.index >= p->num_outputs)
      return ge_error_set(err, GE_ERR_INVALID, "node '%s' input %u: node '%s' has no output %d", n->name,
                      (unsigned)i, p->name, (int)e.index);
  }
  for (i = 0; i < n->num_control_inputs; i++) {
    if (!ge_graph_node(g, n->control_inputs[i]))
      return ge_error_set(err, GE_ERR_INVALID, "node '%s': dangling control edge from id %u", n->name,
                      (unsigned)n->control_inputs[i]);
    for (k = 0; k < i; k++)
      if (n->control_inputs[k] == n->control_inputs[i])
        return ge_error_set(err, GE_ERR_INVALID, "node '%s': duplicate control edge from '%s'", n->name,
                        ge__slot(g, n->control_inputs[i])->name);
  }
  if (!s) {
    if (desc && desc->allow_unknown_ops) return GE_OK;
    return ge_error_set(err, GE_ERR_UNSUPPORTED, "node '%s': unknown op '%s%s%s'", n->name,
                    n->domain ? n->domain : "", n->domain ? "::" : "", n->op);
  }
  if ((st = ge__check_schema(n, err))) return st;
  if ((st = ge__validate_types(g, n, err))) return st;
  return GE_OK;
}

/* Finds two nodes with the same name: (name hash << 32 | id) keys are
 * radix sorted on the hash (sequential passes, unlike probing a hash set
 * of a million entries), then equal hashes compare their names. */
static ge_status ge__check_unique_names(const ge_graph *g, ge_error *err) {
  uint64_t *keys = (uint64_t *)ge__mem_alloc(&g->arena.a, ((size_t)g->live + 1) * 2 * sizeof(uint64_t)), *tmp;
  uint32_t i, n = 0, pass, j;
  ge_status st = GE_OK;
  if (!keys) return ge__oom(err, g);
  tmp = keys + g->live + 1;
  for (i = 0; i < g->id_bound; i++) {
    const ge_node *x = ge_graph_node(g, i);
    if (x) keys[n++] = (ge__hash_str(x->name) >> 32 << 32) | i;
  }
  for (pass = 0; pass < 4; pass++) { /* LSD radix on the 4 hash bytes */
    uint32_t count[257] = {0}, shift = 32 + 8 * pass;
    for (i = 0; i < n; i++) count[((keys[i] >> shift) & 255) + 1]++;
    for (i = 0; i < 256; i++) count[i + 1] += count[i];
    for (i = 0; i < n; i++) tmp[count[(keys[i] >> shift) & 255]++] = keys[i];
    memcpy(keys, tmp, (size_t)n * sizeof *keys);
  }
  for (i = 0; i < n && !st; i++)
    for (j = i + 1; j < n && (keys[j] >> 32) == (keys[i] >> 32) && !st; j++) {
      const char *a = ge__slot(g, (uint32_t)keys[i])->name, *b = ge__slot(g, (uint32_t)keys[j])->name;
      if (strcmp(a, b) == 0) st = ge_error_set(err, GE_ERR_INVALID, "graph '%s': two nodes are named '%s'", ge_graph_name(g), a);
    }
  ge__mem_free(&g->arena.a, keys, ((size_t)g->live + 1) * 2 * sizeof(uint64_t));
  return st;
}

static ge_status ge__validate(const ge_graph *g, const ge_validate_desc *desc, ge_error *err) {
  uint32_t i, k, outputs = 0, inputs = 0;
  ge_status st = GE_OK;
  ge_node_id *order;
  for (i = 0; i < g->id_bound && !st; i++) {
    ge_node *n = ge_graph_node(g, i);
    if (!n) continue;
    if ((st = ge__validate_node(g, n, desc, err))) break;
    if (ge__is_op(n, "NetOutput") && ++outputs > 1)
      st = ge_error_set(err, GE_ERR_INVALID, "graph '%s' has more than one NetOutput ('%s')", ge_graph_name(g), n->name);
    if (ge__is_op(n, "Data") && ge_node_attr(n, "index")) inputs++;
    for (k = 0; k < n->num_attrs && !st; k++)
      GE__FOR_ATTR_GRAPHS(&n->attrs[k], sub, {
        if (!st && (st = ge__validate(sub, desc, err))) ge__error_context(err, "subgraph", ge_graph_name(sub), n->name);
      });
  }
  if (st || (st = ge__check_unique_names(g, err))) return st;
  /* Data indices: each of 0..inputs-1 exactly once */
  if (inputs) {
    ge_node_id *seen = (ge_node_id *)ge__mem_alloc(&g->arena.a, inputs * sizeof(ge_node_id));
    if (!seen) return ge__oom(err, g);
    for (i = 0; i < inputs; i++) seen[i] = GE_NONE;
    for (i = 0; i < g->id_bound && !st; i++) {
      ge_node *n = ge_graph_node(g, i);
      int64_t x;
      if (!n || !ge__is_op(n, "Data") || !ge_node_attr(n, "index")) continue;
      x = ge_node_attr_int(n, "index", -1);
      if (x < 0 || x >= (int64_t)inputs)
        st = ge_error_set(err, GE_ERR_INVALID, "Data node '%s' has index %lld, outside 0..%u", n->name,
                      (long long)x, (unsigned)inputs - 1);
      else if (seen[x] != GE_NONE)
        st = ge_error_set(err, GE_ERR_INVALID, "Data nodes '%s' and '%s' both have index %lld",
                      ge__slot(g, seen[x])->name, n->name, (long long)x);
      else
        seen[x] = i;
    }
    ge__mem_free(&g->arena.a, seen, inputs * sizeof(ge_node_id));
    if (st) return st;
  }
  if ((st = ge__topo_alloc(g, GE_TOPO_BFS, &order, err))) return st;
  ge__topo_free(g, order);
  return GE_OK;
}

GE_API ge_status ge_graph_validate(const ge_graph *g, const ge_validate_desc *desc, ge_error *err) {
  return ge__validate(g, desc, err);
}

/* ------------------------------------------------------- op registry */

GE_API ge_status ge_op_registry_create(const ge_allocator *a, ge_op_registry **out, ge_error *err) {
  ge_allocator al = ge__allocator_or_default(a);
  ge_op_registry *r = (ge_op_registry *)ge__mem_alloc(&al, sizeof *r);
  *out = NULL;
  if (!r) return ge_error_set(err, GE_ERR_NOMEM, "out of memory creating an op registry");
  memset(r, 0, sizeof *r);
  r->a = al;
  *out = r;
  return GE_OK;
}

GE_API void ge_op_registry_free(ge_op_registry *r) {
  ge_allocator a;
  if (!r) return;
  a = r->a;
  ge__mem_free(&a, r->schemas, (size_t)r->cap * sizeof(ge_op_schema));
  ge__mem_free(&a, r, sizeof *r);
}

GE_API ge_status ge_op_registry_add(ge_op_registry *r, const ge_op_schema *s, ge_error *err) {
  uint32_t i;
  if (!s->name || !*s->name) return ge_error_set(err, GE_ERR_INVALID, "op schema without a name");
  if (s->min_inputs < 0 || (s->max_inputs >= 0 && s->max_inputs < s->min_inputs) || s->min_outputs < 0 ||
      (s->max_outputs >= 0 && s->max_outputs < s->min_outputs) || s->default_outputs < 0)
    return ge_error_set(err, GE_ERR_INVALID, "op schema '%s': inconsistent input/output counts", s->name);
  for (i = 0; i < r->count; i++)
    if (strcmp(r->schemas[i].name, s->name) == 0 && ge__str_eq(r->schemas[i].domain, s->domain)) {
      r->schemas[i] = *s;
      return GE_OK;
    }
  if (r->count == r->cap) {
    uint32_t ncap = r->cap ? r->cap * 2 : 16;
    ge_op_schema *ns = (ge_op_schema *)ge__mem_realloc(&r->a, r->schemas, (size_t)r->cap * sizeof *ns,
                                                       (size_t)ncap * sizeof *ns);
    if (!ns) return ge_error_set(err, GE_ERR_NOMEM, "out of memory adding op schema '%s'", s->name);
    r->schemas = ns;
    r->cap = ncap;
  }
  r->schemas[r->count++] = *s;
  return GE_OK;
}

GE_API const ge_op_schema *ge_op_registry_find(const ge_op_registry *r, const char *op, const char *domain) {
  uint32_t i;
  for (i = 0; r && i < r->count; i++)
    if (strcmp(r->schemas[i].name, op) == 0 && ge__str_eq(r->schemas[i].domain, domain)) return &r->schemas[i];
  return ge__builtin_find(op, domain);
}

/* ------------------------------------------------------ infer context */

#define GE__INFER_SLOTS 8
#define GE__INFER_SLOT_VALUES 32

struct ge_infer_ctx {
  ge_graph *g;
  ge_node *n;
  ge_error *err;
  /* attribute defaults parsed from the schema, round robin */
  ge_attr defaults[GE__INFER_SLOTS];
  union {
    int64_t ints[GE__INFER_SLOT_VALUES];
    double floats[GE__INFER_SLOT_VALUES];
  } default_values[GE__INFER_SLOTS];
  uint32_t next_default;
};

GE_API const ge_node *ge_infer_node(const ge_infer_ctx *c) { return c->n; }
GE_API ge_graph *ge_infer_graph(const ge_infer_ctx *c) { return c->g; }
GE_API uint32_t ge_infer_num_inputs(const ge_infer_ctx *c) { return c->n->num_inputs; }
GE_API const ge_tensor_desc *ge_infer_input(const ge_infer_ctx *c, uint32_t i) {
  return ge_node_input_desc(c->g, c->n, i);
}
GE_API const ge_tensor *ge_infer_input_value(const ge_infer_ctx *c, uint32_t i) {
  const ge_tensor_desc *d = ge_infer_input(c, i);
  return d ? d->value : NULL;
}

/* Parses a schema default ("1", "0.5", "NOTSET", "[1,2]") as type t. */
static int ge__parse_default(const char *s, ge_attr_type t, ge_attr *a, int64_t *ints, double *floats) {
  char *end;
  int32_t n = 0;
  a->type = t;
  switch (t) {
  case GE_ATTR_INT: case GE_ATTR_BOOL: case GE_ATTR_DTYPE:
    a->v.i = strtoll(s, &end, 10);
    if (t == GE_ATTR_BOOL) a->v.b = a->v.i != 0;
    if (t == GE_ATTR_DTYPE) a->v.dt = (ge_dtype)a->v.i;
    return 1;
  case GE_ATTR_FLOAT: a->v.f = strtod(s, &end); return 1;
  case GE_ATTR_STRING: a->v.s = s; return 1;
  case GE_ATTR_INTS: case GE_ATTR_FLOATS:
    if (*s == '[') s++;
    while (*s && *s != ']' && n < GE__INFER_SLOT_VALUES) {
      if (t == GE_ATTR_INTS) ints[n] = strtoll(s, &end, 10);
      else floats[n] = strtod(s, &end);
      if (end == s) return 0;
      n++;
      s = end;
      while (*s == ',' || *s == ' ') s++;
    }
    a->count = n;
    if (t == GE_ATTR_INTS) a->v.ints = ints;
    else a->v.floats = floats;
    return 1;
  default: return 0;
  }
}

GE_API const ge_attr *ge_infer_attr(const ge_infer_ctx *cc, const char *name) {
  ge_infer_ctx *c = (ge_infer_ctx *)cc;
  const ge_attr *a = ge_node_attr(c->n, name);
  const ge_op_schema *s = c->n->schema;
  uint32_t i;
  if (a || !s) return a;
  for (i = 0; i < GE_SCHEMA_MAX_ATTRS && s->attrs[i].name; i++) {
    if (strcmp(s->attrs[i].name, name) == 0 && s->attrs[i].dflt) {
      uint32_t k = c->next_default++ % GE__INFER_SLOTS;
      ge_attr *d = &c->defaults[k];
      memset(d, 0, sizeof *d);
      d->name = s->attrs[i].name;
      return ge__parse_default(s->attrs[i].dflt, s->attrs[i].type, d, c->default_values[k].ints,
                               c->default_values[k].floats) ? d : NULL;
    }
  }
  return NULL;
}
GE_API int64_t ge_infer_attr_int(const ge_infer_ctx *c, const char *name, int64_t dflt) {
  const ge_attr *a = ge_infer_attr(c, name);
  if (!a) return dflt;
  return a->type == GE_ATTR_INT ? a->v.i : a->type == GE_ATTR_BOOL ? a->v.b : a->type == GE_ATTR_DTYPE ? (int64_t)a->v.dt : dflt;
}
GE_API double ge_infer_attr_float(const ge_infer_ctx *c, const char *name, double dflt) {
  const ge_attr *a = ge_infer_attr(c, name);
  return a && a->type == GE_ATTR_FLOAT ? a->v.f : a && a->type == GE_ATTR_INT ? (double)a->v.i : dflt;
}
GE_API int32_t ge_infer_attr_ints(const ge_infer_ctx *c, const char *name, const int64_t **vals) {
  const ge_attr *a = ge_infer_attr(c, name);
  if (!a || a->type != GE_ATTR_INTS) return -1;
  if (vals) *vals = a->v.ints;
  return a->count;
}
GE_API const char *ge_infer_attr_string(const ge_infer_ctx *c, const char *name, const char *dflt) {
  const ge_attr *a = ge_infer_attr(c, name);
  return a && a->type == GE_ATTR_STRING ? a->v.s : dflt;
}

GE_API ge_status ge_infer_error(ge_infer_ctx *c, ge_status code, const char *fmt, ...) {
  char msg[360];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return ge_error_set(c->err, code, "node '%s' (%s): %s", c->n->name, c->n->op, msg);
}

GE_API ge_status ge_infer_set_output(ge_infer_ctx *c, uint32_t i, ge_dtype dtype, int32_t rank,
                                     const int64_t *dims, const ge_dim_info *info) {
  if (i >= c->n->num_outputs) return GE_OK; /* optional output not present */
  if (rank > GE_MAX_RANK) return ge_infer_error(c, GE_ERR_UNSUPPORTED, "output rank %d exceeds %d", (int)rank, GE_MAX_RANK);
  c->n->outputs[i].dtype = dtype;
  c->n->outputs[i].value = NULL;
  if (!ge__set_shape(c->g, &c->n->outputs[i].shape, rank, dims, info)) return ge__oom(c->err, c->g);
  return GE_OK;
}

GE_API ge_status ge_infer_copy_output(ge_infer_ctx *c, uint32_t i, const ge_tensor_desc *d) {
  ge_status st = ge_infer_set_output(c, i, d->dtype, d->shape.rank, d->shape.dims, d->shape.info);
  if (!st && i < c->n->num_outputs) c->n->outputs[i].format = d->format;
  return st;
}

GE_API ge_status ge_infer_set_value(ge_infer_ctx *c, uint32_t i, const ge_tensor *t) {
  if (i >= c->n->num_outputs) return GE_OK;
  if (!(c->n->outputs[i].value = ge__copy_tensor(c->g, t))) return ge__oom(c->err, c->g);
  return GE_OK;
}

/* Broadcasts one dimension pair; 0 when incompatible. */
static int ge__broadcast_dim(int64_t a, const ge_dim_info *ai, int64_t b, const ge_dim_info *bi, int64_t *out,
                             ge_dim_info *oi) {
  static const ge_dim_info none = {0, -1, NULL};
  if (!ai) ai = &none;
  if (!bi) bi = &none;
  if (a == 1) { *out = b; *oi = *bi; return 1; }
  if (b == 1) { *out = a; *oi = *ai; return 1; }
  if (a >= 0 && b >= 0) {
    *out = a;
    *oi = none;
    return a == b;
  }
  if (a >= 0) { *out = a; *oi = none; return 1; } /* b unknown: must be a or 1; take a */
  if (b >= 0) { *out = b; *oi = none; return 1; }
  /* both unknown: keep what is known (same symbol, or either side's) */
  *out = GE_DIM_UNKNOWN;
  *oi = ai->symbol ? *ai : *bi;
  if (ai->symbol && bi->symbol && strcmp(ai->symbol, bi->symbol) != 0) *oi = none;
  return 1;
}

GE_API int32_t ge_shape_broadcast(const ge_shape *a, const ge_shape *b, int64_t *out_dims, ge_dim_info *out_info) {
  int32_t r, i;
  if (a->rank < 0 || b->rank < 0) return GE_RANK_UNKNOWN;
  r = a->rank > b->rank ? a->rank : b->rank;
  for (i = 0; i < r; i++) {
    int32_t ia = i - (r - a->rank), ib = i - (r - b->rank);
    int64_t da = ia >= 0 ? a->dims[ia] : 1, db = ib >= 0 ? b->dims[ib] : 1;
    const ge_dim_info *xa = ia >= 0 && a->info ? &a->info[ia] : NULL, *xb = ib >= 0 && b->info ? &b->info[ib] : NULL;
    if (!ge__broadcast_dim(da, xa, db, xb, &out_dims[i], &out_info[i])) return -1;
  }
  return r;
}

/* Infers node n (its inputs are inferred already) with context c. */
static ge_status ge__infer_node(ge_infer_ctx *c, ge_graph *g, ge_node *n, ge_error *err) {
  if (ge__is_op(n, "Const")) {
    const ge_attr *v = ge_node_attr(n, "value");
    if (!v || v->type != GE_ATTR_TENSOR)
      return ge_error_set(err, GE_ERR_INVALID, "Const node '%s' has no tensor attribute 'value'", n->name);
    if (n->num_outputs < 1) return ge_error_set(err, GE_ERR_INVALID, "Const node '%s' has no output", n->name);
    if (!ge__set_shape(g, &n->outputs[0].shape, v->v.t->rank, v->v.t->dims, NULL)) return ge__oom(err, g);
    n->outputs[0].dtype = v->v.t->dtype;
    n->outputs[0].value = v->v.t;
    return GE_OK;
  }
  if (!n->schema) return GE_OK;
  if (ge__check_schema(n, err)) return err ? err->code : GE_ERR_INVALID;
  if (!n->schema->infer) return GE_OK;
  c->g = g;
  c->n = n;
  c->err = err;
  c->next_default = 0;
  return n->schema->infer(c);
}

/* Infers nodes ids[0..n) in that order with one context (it is large). */
static ge_status ge__with_infer_ctx(ge_graph *g, const ge_node_id *ids, uint32_t n, ge_error *err) {
  ge_infer_ctx *c = (ge_infer_ctx *)ge__mem_alloc(&g->arena.a, sizeof *c);
  ge_status st = GE_OK;
  uint32_t i;
  if (!c) return ge__oom(err, g);
  for (i = 0; i < n && !st; i++) st = ge__infer_node(c, g, ge__slot(g, ids[i]), err);
  ge__mem_free(&g->arena.a, c, sizeof *c);
  return st;
}

GE_API ge_status ge_node_infer_shape(ge_graph *g, ge_node_id id, ge_error *err) {
  if (!ge_graph_node(g, id)) return ge__bad_node(err, g, id);
  return ge__with_infer_ctx(g, &id, 1, err);
}

GE_API ge_status ge_graph_infer_shapes(ge_graph *g, ge_error *err) {
  ge_node_id *order;
  ge_status st = ge__topo_alloc(g, GE_TOPO_BFS, &order, err);
  if (st) return st;
  st = ge__with_infer_ctx(g, order, g->live, err);
  ge__topo_free(g, order);
  return st;
}

GE_API ge_status ge_infer_subgraph(ge_infer_ctx *c, ge_graph *sub) {
  uint32_t i;
  ge_status st;
  for (i = 0; i < sub->id_bound; i++) {
    ge_node *d = ge_graph_node(sub, i);
    const ge_tensor_desc *src;
    int64_t k;
    if (!d || !ge__is_op(d, "Data") || !ge_node_attr(d, "parent_index")) continue;
    k = ge_node_attr_int(d, "parent_index", -1);
    if (k < 0 || k >= (int64_t)c->n->num_inputs)
      return ge_infer_error(c, GE_ERR_INVALID, "subgraph '%s': Data '%s' has parent_index %lld out of range",
                            ge_graph_name(sub), d->name, (long long)k);
    src = ge_infer_input(c, (uint32_t)k);
    if (src && d->num_outputs) {
      d->outputs[0].dtype = src->dtype;
      d->outputs[0].value = src->value;
      if (!ge__set_shape(sub, &d->outputs[0].shape, src->shape.rank, src->shape.dims, src->shape.info))
        return ge__oom(c->err, sub);
    }
  }
  st = ge_graph_infer_shapes(sub, c->err);
  if (st) ge__error_context(c->err, "subgraph", ge_graph_name(sub), c->n->name);
  return st;
}

/* ------------------------------------------------- builtin op schemas */

/* Output 0 like input 0. */
static ge_status ge__infer_same(ge_infer_ctx *c) {
  const ge_tensor_desc *x = ge_infer_input(c, 0);
  uint32_t i;
  ge_status st = GE_OK;
  if (!x) return GE_OK;
  for (i = 0; i < c->n->num_outputs && i < 1 && !st; i++) st = ge_infer_copy_output(c, i, x);
  return st;
}

/* Output i like input i (NetOutput, Identity-like pass-throughs). */
static ge_status ge__infer_passthrough(ge_infer_ctx *c) {
  uint32_t i;
  ge_status st = GE_OK;
  for (i = 0; i < c->n->num_outputs && i < c->n->num_inputs && !st; i++) {
    const ge_tensor_desc *x = ge_infer_input(c, i);
    if (x) st = ge_infer_copy_output(c, i, x);
  }
  return st;
}

/* Broadcast of all inputs; output dtype from input 0 (or bool if the
 * schema's output type variable is bool-only). */
static ge_status ge__infer_broadcast(ge_infer_ctx *c) {
  int64_t dims[GE_MAX_RANK];
  ge_dim_info info[GE_MAX_RANK];
  ge_shape acc;
  const ge_tensor_desc *x0 = ge_infer_input(c, 0);
  const ge_op_schema *s = c->n->schema;
  ge_dtype dt;
  uint32_t i;
  int32_t r;
  if (!x0) return GE_OK;
  acc = x0->shape;
  for (i = 1; i < c->n->num_inputs; i++) {
    const ge_tensor_desc *xi = ge_infer_input(c, i);
    int64_t d2[GE_MAX_RANK];
    ge_dim_info i2[GE_MAX_RANK];
    if (!xi) continue;
    r = ge_shape_broadcast(&acc, &xi->shape, d2, i2);
    if (r == -1) {
      char a[128], b[128];
      return ge_infer_error(c, GE_ERR_SHAPE, "shapes %s and %s do not broadcast", ge_shape_str(&acc, a, sizeof a),
                            ge_shape_str(&xi->shape, b, sizeof b));
    }
    if (r >= 0) {
      memcpy(dims, d2, (size_t)r * sizeof *dims);
      memcpy(info, i2, (size_t)r * sizeof *info);
    }
    acc.rank = r;
    acc.dims = dims;
    acc.info = info;
  }
  dt = x0->dtype;
  {
    int v = s->output_types[0];
    if (v >= 0 && v < GE_SCHEMA_MAX_TYPE_VARS && s->type_vars[v] == GE_DTYPE_BIT(GE_DTYPE_BOOL)) dt = GE_DTYPE_BOOL;
  }
  return ge_infer_set_output(c, 0, dt, acc.rank, acc.dims, acc.info);
}

/* ------------------------------------ ONNX compute ops: shape inference */

/* Inference for the ONNX compute ops (default domain, opsets up to 18).
 * Unknown dims stay -1, unknown ranks -2; a dim that passes through keeps
 * its ge_dim_info (range, symbol). A value that is needed but not constant
 * gives unknown dims, never an error; real conflicts are GE_ERR_SHAPE.
 * Small int64/int32 values (at most GE__OX_VMAX elements) are followed
 * through Shape, Gather, Unsqueeze, Squeeze, Concat, Slice, Cast, Reshape,
 * Identity, Range, ConstantOfShape, Equal, Where and Add/Sub/Mul/Div, which
 * is how exported models compute Reshape and Expand targets. */

#define GE__OX_VMAX 64
#define GE__OX_BIT(t) GE_DTYPE_BIT(GE_DTYPE_##t)
#define GE__OX_SIGNED (GE_DTYPES_FLOAT | GE__OX_BIT(INT8) | GE__OX_BIT(INT16) | GE__OX_BIT(INT32) | GE__OX_BIT(INT64))
#define GE__OX_UINT (GE__OX_BIT(UINT8) | GE__OX_BIT(UINT16) | GE__OX_BIT(UINT32) | GE__OX_BIT(UINT64))
#define GE__OX_MM (GE_DTYPES_FLOAT | GE__OX_BIT(INT32) | GE__OX_BIT(INT64) | GE__OX_BIT(UINT32) | GE__OX_BIT(UINT64))
#define GE__OX_CMP (GE_DTYPES_NUMERIC | GE__OX_BIT(BOOL) | GE__OX_BIT(STRING))
#define GE__OX_RANGE                                                                                                   \
  (GE__OX_BIT(FLOAT32) | GE__OX_BIT(FLOAT64) | GE__OX_BIT(INT16) | GE__OX_BIT(INT32) | GE__OX_BIT(INT64))
#define GE__OX_POOL (GE_DTYPES_FLOAT | GE__OX_BIT(INT8) | GE__OX_BIT(UINT8))

/* A shape being built: dims and their info side by side. rank < 0: unknown. */
typedef struct ge__ox_shape {
  int32_t rank;
  int64_t d[GE_MAX_RANK];
  ge_dim_info x[GE_MAX_RANK];
} ge__ox_shape;

static const ge_dim_info ge__ox_none = {0, -1, NULL};

static void ge__ox_load(ge__ox_shape *s, const ge_tensor_desc *d) {
  int32_t i;
  s->rank = GE_RANK_UNKNOWN;
  if (!d || d->shape.rank < 0 || d->shape.rank > GE_MAX_RANK) return;
  s->rank = d->shape.rank;
  for (i = 0; i < s->rank; i++) {
    s->d[i] = d->shape.dims[i];
    s->x[i] = d->shape.info ? d->shape.info[i] : ge__ox_none;
  }
}

static ge_shape ge__ox_view(const ge__ox_shape *s) {
  ge_shape v;
  v.rank = s->rank;
  v.dims = (int64_t *)s->d;
  v.info = (ge_dim_info *)s->x;
  return v;
}

static const char *ge__ox_str(const ge__ox_shape *s, char *buf, size_t n) {
  ge_shape v = ge__ox_view(s);
  return ge_shape_str(&v, buf, n);
}

/* Sets dimension i to a known (or unknown, anonymous) size. */
static void ge__ox_dim(ge__ox_shape *s, int32_t i, int64_t v) {
  s->d[i] = v < 0 ? GE_DIM_UNKNOWN : v;
  s->x[i] = ge__ox_none;
}

/* Appends dimension j of src (size and info). */
static void ge__ox_push(ge__ox_shape *s, const ge__ox_shape *src, int32_t j) {
  s->d[s->rank] = src->d[j];
  s->x[s->rank] = src->x[j];
  s->rank++;
}

static ge_status ge__ox_out(ge_infer_ctx *c, uint32_t i, ge_dtype dt, const ge__ox_shape *s) {
  if (s->rank < 0) return ge_infer_set_output(c, i, dt, GE_RANK_UNKNOWN, NULL, NULL);
  return ge_infer_set_output(c, i, dt, s->rank, s->d, s->x);
}

static ge_status ge__ox_out_unknown(ge_infer_ctx *c, uint32_t i, ge_dtype dt) {
  return ge_infer_set_output(c, i, dt, GE_RANK_UNKNOWN, NULL, NULL);
}

/* A shape of rank r with every dim unknown (r < 0: unknown rank). */
static void ge__ox_unknown_dims(ge__ox_shape *s, int32_t r) {
  int32_t i;
  s->rank = r < 0 ? GE_RANK_UNKNOWN : r;
  for (i = 0; i < r; i++)
    ge__ox_dim(s, i, GE_DIM_UNKNOWN);
}

static int ge__ox_int_dtype(ge_dtype t) {
  return t == GE_DTYPE_INT64 || t == GE_DTYPE_INT32 || t == GE_DTYPE_INT16 || t == GE_DTYPE_INT8 ||
         t == GE_DTYPE_UINT8 || t == GE_DTYPE_UINT16 || t == GE_DTYPE_UINT32 || t == GE_DTYPE_UINT64 ||
         t == GE_DTYPE_BOOL;
}

/* a * b for sizes >= 0; -1 when it would overflow. */
static int64_t ge__ox_mul(int64_t a, int64_t b) {
  if (a < 0 || b < 0 || (b && a > INT64_MAX / b)) return -1;
  return a * b;
}

/* a + b; INT64_MIN when it would overflow. */
static int64_t ge__ox_add(int64_t a, int64_t b) {
  if ((b > 0 && a > INT64_MAX - b) || (b < 0 && a < INT64_MIN - b)) return INT64_MIN;
  return a + b;
}

/* Window arithmetic (conv, pooling) is done only on sizes below this; past
 * it the result is an unknown dim, never an overflow. */
#define GE__OX_BIG ((int64_t)1 << 40)
static int ge__ox_sane(int64_t v) { return v > -GE__OX_BIG && v < GE__OX_BIG; }

/* Elements of a shape; -1 when not static or when the count overflows
 * (ge_shape_numel does not guard against overflow). */
static int64_t ge__ox_shape_numel(const ge_shape *s) {
  int64_t m = 1;
  int32_t k;
  if (s->rank < 0) return -1;
  for (k = 0; k < s->rank && m >= 0; k++)
    m = ge__ox_mul(m, s->dims[k]);
  return m;
}

/* Elements of a known value that is safe to read; -1 when not readable or
 * larger than cap. */
static int64_t ge__ox_numel(const ge_tensor *t, int64_t cap) {
  int64_t n;
  if (!t || t->rank < 0 || t->rank > GE_MAX_RANK || t->dtype == GE_DTYPE_STRING) return -1;
  n = ge_tensor_numel(t);
  if (n < 0 || n > cap) return -1;
  if (n && (!t->data || t->nbytes < (size_t)n * ge_dtype_size(t->dtype))) return -1;
  return n;
}

/* Reads a known integer (or bool) value of at most cap elements; -1 if
 * unknown or too large. */
static int32_t ge__ox_ints(const ge_tensor *t, int64_t *v, int64_t cap) {
  int64_t n = ge__ox_numel(t, cap), i;
  if (n < 0 || !ge__ox_int_dtype(t->dtype)) return -1;
  for (i = 0; i < n; i++)
    v[i] = ge_tensor_get_int(t, i);
  return (int32_t)n;
}

/* Reads a known numeric value as doubles (any numeric dtype). */
static int32_t ge__ox_floats(const ge_tensor *t, double *v, int64_t cap) {
  int64_t n = ge__ox_numel(t, cap), i;
  if (n < 0 || t->dtype == GE_DTYPE_COMPLEX64 || t->dtype == GE_DTYPE_COMPLEX128) return -1;
  for (i = 0; i < n; i++)
    v[i] = ge_tensor_get_float(t, i);
  return (int32_t)n;
}

/* Known int value of input i (NULL-safe). */
static int32_t ge__ox_input_ints(ge_infer_ctx *c, uint32_t i, int64_t *v, int64_t cap) {
  return ge__ox_ints(ge_infer_input_value(c, i), v, cap);
}

/* Records output i's value from int64 elements, stored as dtype dt (int64,
 * int32 or bool); other dtypes or large values are not recorded. */
static ge_status ge__ox_put_ints(ge_infer_ctx *c, uint32_t i, ge_dtype dt, int32_t rank, const int64_t *dims,
                                 const int64_t *v, int64_t n) {
  ge_tensor t;
  int32_t b32[GE__OX_VMAX];
  uint8_t b8[GE__OX_VMAX];
  int64_t k;
  if (n < 0 || n > GE__OX_VMAX || rank < 0 || rank > GE_MAX_RANK) return GE_OK;
  memset(&t, 0, sizeof t);
  t.dtype = dt;
  t.rank = rank;
  t.dims = (int64_t *)dims;
  if (dt == GE_DTYPE_INT64) {
    t.data = (void *)v;
  } else if (dt == GE_DTYPE_INT32) {
    for (k = 0; k < n; k++)
      b32[k] = (int32_t)v[k];
    t.data = b32;
  } else if (dt == GE_DTYPE_BOOL) {
    for (k = 0; k < n; k++)
      b8[k] = (uint8_t)(v[k] != 0);
    t.data = b8;
  } else {
    return GE_OK;
  }
  t.nbytes = (size_t)n * ge_dtype_size(dt);
  return ge_infer_set_value(c, i, &t);
}

/* Same, with the shape of a ge__ox_shape. */
static ge_status ge__ox_put_shape_ints(ge_infer_ctx *c, uint32_t i, ge_dtype dt, const ge__ox_shape *s,
                                       const int64_t *v, int64_t n) {
  int64_t m = 1;
  int32_t k;
  for (k = 0; k < s->rank && m >= 0; k++)
    m = ge__ox_mul(m, s->d[k]);
  if (s->rank < 0 || m != n) return GE_OK; /* shape and value disagree: record nothing */
  return ge__ox_put_ints(c, i, dt, s->rank, s->d, v, n);
}

/* Normalizes an axis in [-rank, rank-1]; an error names `what`. */
static ge_status ge__ox_axis(ge_infer_ctx *c, const char *what, int64_t a, int32_t rank, int32_t *out) {
  *out = 0;
  if (a < -(int64_t)rank || a >= (int64_t)rank)
    return ge_infer_error(c, GE_ERR_SHAPE, "%s %lld is out of range for rank %d", what, (long long)a, (int)rank);
  *out = (int32_t)(a < 0 ? a + rank : a);
  return GE_OK;
}

/* Copies an ints attribute (up to cap values); -1 when absent. */
static int32_t ge__ox_attr_ints(ge_infer_ctx *c, const char *name, int64_t *v, int32_t cap) {
  const int64_t *a;
  int32_t n = ge_infer_attr_ints(c, name, &a), i;
  if (n < 0) return -1;
  if (n > cap) n = cap;
  for (i = 0; i < n; i++)
    v[i] = a[i];
  return n;
}

/* A list such as axes, given by input `in` (a constant) or else by the
 * attribute `attr`. Returns 1 when known (*n may be 0: absent or empty),
 * 0 when the input is connected but its value is not known. */
static int ge__ox_list(ge_infer_ctx *c, uint32_t in, const char *attr, int64_t *v, int32_t *n, int32_t cap) {
  const ge_tensor_desc *d = ge_infer_input(c, in);
  int32_t k;
  if (d) {
    k = ge__ox_ints(d->value, v, cap);
    if (k < 0) return 0;
    *n = k;
    return 1;
  }
  k = attr ? ge__ox_attr_ints(c, attr, v, cap) : -1;
  *n = k < 0 ? 0 : k;
  return 1;
}

/* Normalizes a list of axes for rank r into flags[r]; duplicates are an error. */
static ge_status ge__ox_axis_flags(ge_infer_ctx *c, const int64_t *axes, int32_t n, int32_t r, uint8_t *flags) {
  int32_t i, a;
  ge_status st;
  memset(flags, 0, (size_t)(r > 0 ? r : 1));
  for (i = 0; i < n; i++) {
    if ((st = ge__ox_axis(c, "axis", axes[i], r, &a))) return st;
    if (flags[a]) return ge_infer_error(c, GE_ERR_SHAPE, "axes: axis %lld is repeated", (long long)axes[i]);
    flags[a] = 1;
  }
  return GE_OK;
}

static ge_dtype ge__ox_dtype(ge_infer_ctx *c, uint32_t i) {
  const ge_tensor_desc *d = ge_infer_input(c, i);
  return d ? d->dtype : GE_DTYPE_UNDEFINED;
}

/* ------------------------------------------------------ element-wise */

/* Flat index into an input of shape id[irank] broadcast to od[orank]. */
static int64_t ge__ox_bidx(const int64_t *od, int32_t orank, const int64_t *id, int32_t irank, int64_t flat) {
  int64_t idx = 0, mul = 1;
  int32_t k;
  for (k = orank - 1; k >= 0; k--) {
    int64_t coord = od[k] ? flat % od[k] : 0;
    int32_t j = k - (orank - irank);
    flat = od[k] ? flat / od[k] : 0;
    if (j >= 0) {
      if (id[j] != 1) idx += coord * mul;
      mul *= id[j];
    }
  }
  return idx;
}

/* The value t broadcasts to the static shape od[orank] (so folding can index it). */
static int ge__ox_fold_fits(const ge_tensor *t, const int64_t *od, int32_t orank) {
  int32_t k;
  if (!t || t->rank > orank) return 0;
  for (k = 0; k < t->rank; k++)
    if (t->dims[k] != 1 && t->dims[k] != od[orank - t->rank + k]) return 0;
  return 1;
}

/* Folds a binary op over known int inputs a, b into output 0. */
static ge_status ge__ox_fold2(ge_infer_ctx *c, int op) {
  const ge_tensor *ta = ge_infer_input_value(c, 0), *tb = ge_infer_input_value(c, 1);
  const ge_tensor_desc *o = c->n->num_outputs ? &c->n->outputs[0] : NULL;
  int64_t a[GE__OX_VMAX], b[GE__OX_VMAX], r[GE__OX_VMAX], n, i;
  if (!o || !ta || !tb) return GE_OK;
  n = ge__ox_shape_numel(&o->shape);
  if (n < 0 || n > GE__OX_VMAX || ge__ox_ints(ta, a, GE__OX_VMAX) < 0 || ge__ox_ints(tb, b, GE__OX_VMAX) < 0 ||
      !ge__ox_fold_fits(ta, o->shape.dims, o->shape.rank) || !ge__ox_fold_fits(tb, o->shape.dims, o->shape.rank))
    return GE_OK;
  for (i = 0; i < n; i++) {
    int64_t x = a[ge__ox_bidx(o->shape.dims, o->shape.rank, ta->dims, ta->rank, i)];
    int64_t y = b[ge__ox_bidx(o->shape.dims, o->shape.rank, tb->dims, tb->rank, i)];
    switch (op) {
    /* int64 arithmetic wraps, as in the runtimes (unsigned: no UB) */
    case '+': r[i] = (int64_t)((uint64_t)x + (uint64_t)y); break;
    case '-': r[i] = (int64_t)((uint64_t)x - (uint64_t)y); break;
    case '*': r[i] = (int64_t)((uint64_t)x * (uint64_t)y); break;
    case '/':
      if (y == 0 || (y == -1 && x == INT64_MIN)) return GE_OK;
      r[i] = x / y;
      break;
    default: r[i] = x == y; break;
    }
  }
  return ge__ox_put_ints(c, 0, o->dtype, o->shape.rank, o->shape.dims, r, n);
}

/* Add, Sub, Mul, Div: broadcast, then fold known int values. */
static ge_status ge__ox_arith(ge_infer_ctx *c) {
  const char *op = c->n->op;
  ge_status st = ge__infer_broadcast(c);
  if (st) return st;
  return ge__ox_fold2(c, op[0] == 'A' ? '+' : op[0] == 'S' ? '-' : op[0] == 'M' ? '*' : '/');
}

/* Equal: broadcast to bool, folding known ints (Expand targets use it). */
static ge_status ge__ox_equal(ge_infer_ctx *c) {
  ge_status st = ge__infer_broadcast(c);
  return st ? st : ge__ox_fold2(c, '=');
}

/* Where(cond, X, Y): three-way broadcast, dtype of X. */
static ge_status ge__ox_where(ge_infer_ctx *c) {
  ge__ox_shape s[3], o;
  int64_t cv[GE__OX_VMAX], xv[GE__OX_VMAX], yv[GE__OX_VMAX], r[GE__OX_VMAX], n, i;
  const ge_tensor *t[3];
  ge_shape va, vb;
  ge_dtype dt = ge__ox_dtype(c, 1);
  ge_status st;
  int k;
  for (k = 0; k < 3; k++) {
    if (!ge_infer_input(c, (uint32_t)k)) return GE_OK;
    ge__ox_load(&s[k], ge_infer_input(c, (uint32_t)k));
    t[k] = ge_infer_input_value(c, (uint32_t)k);
  }
  o = s[0];
  for (k = 1; k < 3; k++) {
    ge__ox_shape tmp;
    va = ge__ox_view(&o);
    vb = ge__ox_view(&s[k]);
    tmp.rank = ge_shape_broadcast(&va, &vb, tmp.d, tmp.x);
    if (tmp.rank == -1) {
      char b1[128], b2[128];
      return ge_infer_error(c, GE_ERR_SHAPE, "shapes %s and %s do not broadcast", ge__ox_str(&o, b1, sizeof b1),
                            ge__ox_str(&s[k], b2, sizeof b2));
    }
    o = tmp;
  }
  if ((st = ge__ox_out(c, 0, dt, &o))) return st;
  /* fold known int values */
  if (o.rank < 0) return GE_OK;
  va = ge__ox_view(&o);
  n = ge__ox_shape_numel(&va);
  if (n < 0 || n > GE__OX_VMAX || ge__ox_ints(t[0], cv, GE__OX_VMAX) < 0 || ge__ox_ints(t[1], xv, GE__OX_VMAX) < 0 ||
      ge__ox_ints(t[2], yv, GE__OX_VMAX) < 0 || !ge__ox_fold_fits(t[0], o.d, o.rank) ||
      !ge__ox_fold_fits(t[1], o.d, o.rank) || !ge__ox_fold_fits(t[2], o.d, o.rank))
    return GE_OK;
  for (i = 0; i < n; i++)
    r[i] = cv[ge__ox_bidx(o.d, o.rank, t[0]->dims, t[0]->rank, i)]
               ? xv[ge__ox_bidx(o.d, o.rank, t[1]->dims, t[1]->rank, i)]
               : yv[ge__ox_bidx(o.d, o.rank, t[2]->dims, t[2]->rank, i)];
  return ge__ox_put_shape_ints(c, 0, dt, &o, r, n);
}

/* Output 0 like input 0, with a known value carried over (Identity). */
static ge_status ge__ox_identity(ge_infer_ctx *c) {
  const ge_tensor_desc *x = ge_infer_input(c, 0);
  ge_status st;
  if (!x) return GE_OK;
  if ((st = ge_infer_copy_output(c, 0, x))) return st;
  if (x->value && c->n->num_outputs) c->n->outputs[0].value = x->value;
  return GE_OK;
}

/* Output 0 shaped like input 0 with dtype bool (IsNaN, IsInf). */
static ge_status ge__ox_same_bool(ge_infer_ctx *c) {
  ge__ox_shape s;
  if (!ge_infer_input(c, 0)) return GE_OK;
  ge__ox_load(&s, ge_infer_input(c, 0));
  return ge__ox_out(c, 0, GE_DTYPE_BOOL, &s);
}

/* Cast: dtype from attribute `to`; known int values are converted. */
static ge_status ge__ox_cast(ge_infer_ctx *c) {
  const ge_tensor_desc *x = ge_infer_input(c, 0);
  int64_t to = ge_infer_attr_int(c, "to", 0), v[GE__OX_VMAX];
  int32_t n;
  ge__ox_shape s;
  ge_status st;
  if (to <= 0 || to >= GE_DTYPE_COUNT)
    return ge_infer_error(c, GE_ERR_INVALID, "attribute 'to' is not a valid dtype (%lld)", (long long)to);
  if (!x) return GE_OK;
  ge__ox_load(&s, x);
  if ((st = ge__ox_out(c, 0, (ge_dtype)to, &s))) return st;
  if ((n = ge__ox_ints(x->value, v, GE__OX_VMAX)) < 0) return GE_OK;
  return ge__ox_put_ints(c, 0, (ge_dtype)to, x->value->rank, x->value->dims, v, n);
}

/* DynamicQuantizeLinear: uint8 y shaped like x, float32 scale and uint8
 * zero point scalars. */
static ge_status ge__ox_dynamic_quantize(ge_infer_ctx *c) {
  ge__ox_shape s;
  ge_status st;
  if (!ge_infer_input(c, 0)) return GE_OK;
  ge__ox_load(&s, ge_infer_input(c, 0));
  if ((st = ge__ox_out(c, 0, GE_DTYPE_UINT8, &s))) return st;
  if (c->n->num_outputs > 1 && (st = ge_infer_set_output(c, 1, GE_DTYPE_FLOAT32, 0, NULL, NULL))) return st;
  if (c->n->num_outputs > 2) return ge_infer_set_output(c, 2, GE_DTYPE_UINT8, 0, NULL, NULL);
  return GE_OK;
}

/* QuantizeLinear: x's shape, the zero point's dtype (input 2; attribute
 * output_dtype without one, else uint8). DequantizeLinear: x's shape, the
 * scale's dtype. */
static ge_status ge__ox_quantize(ge_infer_ctx *c) {
  const ge_tensor_desc *z = ge_infer_input(c, 2);
  ge_dtype ot = z && z->dtype != GE_DTYPE_UNDEFINED ? z->dtype : (ge_dtype)ge_infer_attr_int(c, "output_dtype", 0);
  ge__ox_shape s;
  if (!ge_infer_input(c, 0)) return GE_OK;
  ge__ox_load(&s, ge_infer_input(c, 0));
  return ge__ox_out(c, 0, ot != GE_DTYPE_UNDEFINED ? ot : GE_DTYPE_UINT8, &s);
}

static ge_status ge__ox_dequantize(ge_infer_ctx *c) {
  const ge_tensor_desc *sc = ge_infer_input(c, 1);
  ge__ox_shape s;
  if (!ge_infer_input(c, 0) || !sc) return GE_OK;
  ge__ox_load(&s, ge_infer_input(c, 0));
  return ge__ox_out(c, 0, sc->dtype, &s);
}

/* CastLike: shape of input 0, dtype of input 1. */
static ge_status ge__ox_castlike(ge_infer_ctx *c) {
  ge__ox_shape s;
  if (!ge_infer_input(c, 0) || !ge_infer_input(c, 1)) return GE_OK;
  ge__ox_load(&s, ge_infer_input(c, 0));
  return ge__ox_out(c, 0, ge__ox_dtype(c, 1), &s);
}

/* Dropout: output like the input, optional bool mask of the same shape. */
static ge_status ge__ox_dropout(ge_infer_ctx *c) {
  ge__ox_shape s;
  ge_status st;
  if (!ge_infer_input(c, 0)) return GE_OK;
  if ((st = ge__infer_same(c))) return st;
  ge__ox_load(&s, ge_infer_input(c, 0));
  return ge__ox_out(c, 1, GE_DTYPE_BOOL, &s);
}

/* Softmax, LogSoftmax, Hardmax, LpNormalization: like the input, axis checked. */
static ge_status ge__ox_axis_same(ge_infer_ctx *c) {
  const ge_tensor_desc *x = ge_infer_input(c, 0);
  int32_t a;
  ge_status st;
  if (!x) return GE_OK;
  if (x->shape.rank >= 0 &&
      (st = ge__ox_axis(c, "axis", ge_infer_attr_int(c, "axis", -1), x->shape.rank > 0 ? x->shape.rank : 1, &a)))
    return st;
  return ge__infer_same(c);
}

/* ------------------------------------------------------------- MatMul */

/* The output dtype of QLinearConv / QLinearMatMul: y_zero_point's (input
 * 7), uint8 without one. */
static ge_dtype ge__ox_qlinear_dtype(ge_infer_ctx *c) {
  const ge_tensor_desc *z = ge_infer_input(c, 7);
  return z && z->dtype != GE_DTYPE_UNDEFINED ? z->dtype : GE_DTYPE_UINT8;
}

static ge_status ge__ox_matmul(ge_infer_ctx *c) {
  int qlinear = c->n->op[0] == 'Q'; /* QLinearMatMul: b is input 3 */
  const ge_tensor_desc *da = ge_infer_input(c, 0), *db = ge_infer_input(c, qlinear ? 3 : 1);
  ge__ox_shape a, b, ba, bb, o;
  ge_shape va, vb;
  int a1, b1, i;
  char s1[128], s2[128];
  ge_dtype ot; /* MatMulInteger: int32 */
  if (!da || !db) return GE_OK;
  ot = strcmp(c->n->op, "MatMulInteger") == 0 ? GE_DTYPE_INT32 : qlinear ? ge__ox_qlinear_dtype(c) : da->dtype;
  ge__ox_load(&a, da);
  ge__ox_load(&b, db);
  if (a.rank < 0 || b.rank < 0) return ge__ox_out_unknown(c, 0, ot);
  if (a.rank == 0 || b.rank == 0)
    return ge_infer_error(c, GE_ERR_SHAPE, "inputs must have rank >= 1, got %s and %s", ge__ox_str(&a, s1, sizeof s1),
                          ge__ox_str(&b, s2, sizeof s2));
  {
    int64_t ka = a.d[a.rank - 1], kb = b.d[b.rank == 1 ? 0 : b.rank - 2];
    if (ka >= 0 && kb >= 0 && ka != kb)
      return ge_infer_error(c, GE_ERR_SHAPE, "inner dimensions differ: %lld vs %lld (shapes %s and %s)", (long long)ka,
                            (long long)kb, ge__ox_str(&a, s1, sizeof s1), ge__ox_str(&b, s2, sizeof s2));
  }
  a1 = a.rank == 1;
  b1 = b.rank == 1;
  /* batch parts */
  ba.rank = a1 ? 0 : a.rank - 2;
  bb.rank = b1 ? 0 : b.rank - 2;
  for (i = 0; i < ba.rank; i++) {
    ba.d[i] = a.d[i];
    ba.x[i] = a.x[i];
  }
  for (i = 0; i < bb.rank; i++) {
    bb.d[i] = b.d[i];
    bb.x[i] = b.x[i];
  }
  va = ge__ox_view(&ba);
  vb = ge__ox_view(&bb);
  o.rank = ge_shape_broadcast(&va, &vb, o.d, o.x);
  if (o.rank < 0)
    return ge_infer_error(c, GE_ERR_SHAPE, "batch dimensions of %s and %s do not broadcast",
                          ge__ox_str(&a, s1, sizeof s1), ge__ox_str(&b, s2, sizeof s2));
  if (!a1) ge__ox_push(&o, &a, a.rank - 2);
  if (!b1) ge__ox_push(&o, &b, b.rank - 1);
  return ge__ox_out(c, 0, ot, &o);
}

/* --------------------------------------------------------------- Gemm */

static ge_status ge__ox_gemm(ge_infer_ctx *c) {
  const ge_tensor_desc *da = ge_infer_input(c, 0), *db = ge_infer_input(c, 1), *dc = ge_infer_input(c, 2);
  ge__ox_shape a, b, o;
  int ta = ge_infer_attr_int(c, "transA", 0) != 0, tb = ge_infer_attr_int(c, "transB", 0) != 0;
  char s1[128], s2[128];
  int64_t ka, kb;
  if (!da || !db) return GE_OK;
  ge__ox_load(&a, da);
  ge__ox_load(&b, db);
  if ((a.rank >= 0 && a.rank != 2) || (b.rank >= 0 && b.rank != 2))
    return ge_infer_error(c, GE_ERR_SHAPE, "A and B must be 2-D, got %s and %s", ge__ox_str(&a, s1, sizeof s1),
                          ge__ox_str(&b, s2, sizeof s2));
  o.rank = 2;
  ge__ox_dim(&o, 0, GE_DIM_UNKNOWN);
  ge__ox_dim(&o, 1, GE_DIM_UNKNOWN);
  ka = kb = GE_DIM_UNKNOWN;
  if (a.rank == 2) {
    o.d[0] = a.d[ta];
    o.x[0] = a.x[ta];
    ka = a.d[1 - ta];
  }
  if (b.rank == 2) {
    o.d[1] = b.d[1 - tb];
    o.x[1] = b.x[1 - tb];
    kb = b.d[tb];
  }
  if (ka >= 0 && kb >= 0 && ka != kb)
    return ge_infer_error(c, GE_ERR_SHAPE, "inner dimensions differ: %lld vs %lld (A %s%s, B %s%s)", (long long)ka,
                          (long long)kb, ge__ox_str(&a, s1, sizeof s1), ta ? " transposed" : "",
                          ge__ox_str(&b, s2, sizeof s2), tb ? " transposed" : "");
  if (dc && dc->shape.rank >= 0) {
    int32_t r = dc->shape.rank, i;
    int ok = r <= 2;
    for (i = 0; ok && i < r; i++) {
      int64_t cd = dc->shape.dims[i], od = o.d[2 - r + i];
      if (cd >= 0 && cd != 1 && od >= 0 && cd != od) ok = 0;
    }
    if (!ok) {
      ge__ox_shape cs;
      ge__ox_load(&cs, dc);
      return ge_infer_error(c, GE_ERR_SHAPE, "C %s does not broadcast to %s", ge__ox_str(&cs, s1, sizeof s1),
                            ge__ox_str(&o, s2, sizeof s2));
    }
  }
  return ge__ox_out(c, 0, da->dtype, &o);
}

/* ------------------------------------------------ conv and pooling */

enum { GE__OX_PAD_NOTSET, GE__OX_PAD_SAME, GE__OX_PAD_VALID };

/* Window parameters of n spatial axes. */
typedef struct ge__ox_win {
  int32_t n;
  int mode, ceil_mode;
  int64_t k[GE_MAX_RANK], s[GE_MAX_RANK], dil[GE_MAX_RANK], pb[GE_MAX_RANK], pe[GE_MAX_RANK];
} ge__ox_win;

/* Reads an ints attribute of exactly n values (default dflt each). */
static ge_status ge__ox_win_list(ge_infer_ctx *c, const char *name, int32_t n, int64_t dflt, int64_t *out) {
  int64_t v[2 * GE_MAX_RANK];
  int32_t k = ge__ox_attr_ints(c, name, v, 2 * GE_MAX_RANK), i;
  for (i = 0; i < n; i++)
    out[i] = dflt;
  if (k <= 0) return GE_OK;
  if (k != n)
    return ge_infer_error(c, GE_ERR_SHAPE, "attribute '%s' has %d values for %d spatial axes", name, (int)k, (int)n);
  for (i = 0; i < n; i++)
    out[i] = v[i];
  return GE_OK;
}

/* Reads kernel_shape (else from W dims 2.., else unknown), strides,
 * dilations, pads, auto_pad and ceil_mode for n spatial axes. */
static ge_status ge__ox_win_attrs(ge_infer_ctx *c, int32_t n, const ge__ox_shape *w, ge__ox_win *win) {
  const char *ap = ge_infer_attr_string(c, "auto_pad", "NOTSET");
  int64_t pads[2 * GE_MAX_RANK];
  int32_t np, i;
  ge_status st;
  win->n = n;
  win->ceil_mode = ge_infer_attr_int(c, "ceil_mode", 0) != 0;
  if (!strcmp(ap, "SAME_UPPER") || !strcmp(ap, "SAME_LOWER"))
    win->mode = GE__OX_PAD_SAME;
  else if (!strcmp(ap, "VALID"))
    win->mode = GE__OX_PAD_VALID;
  else if (!strcmp(ap, "NOTSET") || !*ap)
    win->mode = GE__OX_PAD_NOTSET;
  else
    return ge_infer_error(c, GE_ERR_INVALID, "unknown auto_pad '%s'", ap);
  if (ge_infer_attr_ints(c, "kernel_shape", NULL) > 0) {
    if ((st = ge__ox_win_list(c, "kernel_shape", n, 1, win->k))) return st;
  } else {
    for (i = 0; i < n; i++)
      win->k[i] = w && w->rank == n + 2 ? w->d[i + 2] : GE_DIM_UNKNOWN;
  }
  if ((st = ge__ox_win_list(c, "strides", n, 1, win->s))) return st;
  if ((st = ge__ox_win_list(c, "dilations", n, 1, win->dil))) return st;
  for (i = 0; i < n; i++)
    if (win->s[i] <= 0 || win->dil[i] <= 0 || win->k[i] == 0)
      return ge_infer_error(c, GE_ERR_SHAPE,
                            "kernel, strides and dilations must be positive (axis %d: %lld, %lld, %lld)", (int)i,
                            (long long)win->k[i], (long long)win->s[i], (long long)win->dil[i]);
  np = ge__ox_attr_ints(c, "pads", pads, 2 * GE_MAX_RANK);
  if (np > 0 && np != 2 * n)
    return ge_infer_error(c, GE_ERR_SHAPE, "attribute 'pads' has %d values for %d spatial axes", (int)np, (int)n);
  for (i = 0; i < n; i++) {
    win->pb[i] = np > 0 ? pads[i] : 0;
    win->pe[i] = np > 0 ? pads[i + n] : 0;
  }
  return GE_OK;
}

/* One pooled/convolved extent; -1 unknown, < -1 when the window does not fit. */
static int64_t ge__ox_window(const ge__ox_win *w, int32_t i, int64_t in) {
  int64_t ek, num, out;
  if (in < 0 || w->k[i] < 0) return GE_DIM_UNKNOWN;
  if (!ge__ox_sane(in) || !ge__ox_sane(w->k[i]) || !ge__ox_sane(w->s[i]) || !ge__ox_sane(w->dil[i]) ||
      !ge__ox_sane(w->pb[i]) || !ge__ox_sane(w->pe[i]))
    return GE_DIM_UNKNOWN;
  ek = w->dil[i] * (w->k[i] - 1) + 1;
  if (w->mode == GE__OX_PAD_SAME) return (in + w->s[i] - 1) / w->s[i];
  if (w->mode == GE__OX_PAD_VALID) return in < ek ? -2 : (in - ek) / w->s[i] + 1;
  num = in + w->pb[i] + w->pe[i] - ek;
  if (num < 0) return -2;
  out = (w->ceil_mode ? (num + w->s[i] - 1) / w->s[i] : num / w->s[i]) + 1;
  /* a window starting in the end padding is dropped */
  if (w->ceil_mode && (out - 1) * w->s[i] >= in + w->pb[i]) out--;
  return out;
}

/* Fills o's spatial dims (2..) from x with window w. */
static ge_status ge__ox_spatial(ge_infer_ctx *c, const ge__ox_win *w, const ge__ox_shape *x, ge__ox_shape *o) {
  int32_t i;
  for (i = 0; i < w->n; i++) {
    int64_t in = x->rank == w->n + 2 ? x->d[i + 2] : GE_DIM_UNKNOWN, v = ge__ox_window(w, i, in);
    if (v < -1)
      return ge_infer_error(
          c, GE_ERR_SHAPE,
          "spatial axis %d: input %lld with pads %lld+%lld is smaller than the kernel %lld (dilation %lld)", (int)i,
          (long long)in, (long long)w->pb[i], (long long)w->pe[i], (long long)w->k[i], (long long)w->dil[i]);
    if (v >= 0 && v == in)
      o->x[i + 2] = x->x[i + 2], o->d[i + 2] = v;
    else
      ge__ox_dim(o, i + 2, v);
  }
  return GE_OK;
}

/* Rank of a conv-like op from X and W; checks they agree and are >= 3. */
static ge_status ge__ox_conv_rank(ge_infer_ctx *c, const ge__ox_shape *x, const ge__ox_shape *w, int32_t *r) {
  char s1[128], s2[128];
  *r = x->rank >= 0 ? x->rank : w ? w->rank : GE_RANK_UNKNOWN;
  if ((x->rank >= 0 && x->rank < 3) || (w && w->rank >= 0 && w->rank < 3) ||
      (w && x->rank >= 0 && w->rank >= 0 && x->rank != w->rank))
    return ge_infer_error(c, GE_ERR_SHAPE, "X %s and W %s must have the same rank >= 3", ge__ox_str(x, s1, sizeof s1),
                          w ? ge__ox_str(w, s2, sizeof s2) : "");
  return GE_OK;
}

static ge_status ge__ox_conv(ge_infer_ctx *c) {
  /* ConvInteger: input 2 is a zero point, not a bias; the output int32.
   * QLinearConv: w is input 3, the bias input 8, y of y_zero_point's dtype */
  int integer = c->n->op[4] == 'I', qlinear = c->n->op[0] == 'Q';
  const ge_tensor_desc *dx = ge_infer_input(c, 0), *dw = ge_infer_input(c, qlinear ? 3 : 1);
  const ge_tensor_desc *db = integer ? NULL : ge_infer_input(c, qlinear ? 8 : 2);
  ge__ox_shape x, w, o;
  ge__ox_win win;
  int64_t group = ge_infer_attr_int(c, "group", 1);
  int transposed = c->n->op[4] == 'T';
  int32_t r, i;
  char s1[128], s2[128];
  ge_status st;
  ge_dtype ot;
  if (!dx || !dw) return GE_OK;
  ot = integer ? GE_DTYPE_INT32 : qlinear ? ge__ox_qlinear_dtype(c) : dx->dtype;
  ge__ox_load(&x, dx);
  ge__ox_load(&w, dw);
  if ((st = ge__ox_conv_rank(c, &x, &w, &r))) return st;
  if (r < 0) return ge__ox_out_unknown(c, 0, ot);
  if (group <= 0) return ge_infer_error(c, GE_ERR_SHAPE, "group must be positive, got %lld", (long long)group);
  /* channels */
  if (x.rank >= 0 && w.rank >= 0 && x.d[1] >= 0 && w.d[transposed ? 0 : 1] >= 0) {
    int64_t have = x.d[1], want = transposed ? w.d[0] : ge__ox_mul(w.d[1], group);
    if (have != want)
      return ge_infer_error(c, GE_ERR_SHAPE, "input channels %lld do not match W %s with group %lld (X %s)",
                            (long long)have, ge__ox_str(&w, s1, sizeof s1), (long long)group,
                            ge__ox_str(&x, s2, sizeof s2));
  }
  if (!transposed && w.rank >= 0 && w.d[0] >= 0 && w.d[0] % group)
    return ge_infer_error(c, GE_ERR_SHAPE, "output channels %lld are not a multiple of group %lld", (long long)w.d[0],
                          (long long)group);
  if ((st = ge__ox_win_attrs(c, r - 2, &w, &win))) return st;
  o.rank = r;
  if (x.rank >= 0)
    o.d[0] = x.d[0], o.x[0] = x.x[0];
  else
    ge__ox_dim(&o, 0, GE_DIM_UNKNOWN);
  ge__ox_dim(&o, 1, w.rank < 0 ? GE_DIM_UNKNOWN : transposed ? ge__ox_mul(w.d[1], group) : w.d[0]);
  if (o.d[1] < 0 && db && db->shape.rank == 1) ge__ox_dim(&o, 1, db->shape.dims[0]);
  if (db && db->shape.rank == 1 && db->shape.dims[0] >= 0 && o.d[1] >= 0 && db->shape.dims[0] != o.d[1])
    return ge_infer_error(c, GE_ERR_SHAPE, "bias has %lld elements for %lld output channels",
                          (long long)db->shape.dims[0], (long long)o.d[1]);
  if (!transposed) return (st = ge__ox_spatial(c, &win, &x, &o)) ? st : ge__ox_out(c, 0, ot, &o);
  /* ConvTranspose */
  {
    int64_t os[GE_MAX_RANK + 2], op[GE_MAX_RANK];
    int32_t nos = ge__ox_attr_ints(c, "output_shape", os, GE_MAX_RANK + 2), n = r - 2;
    if ((st = ge__ox_win_list(c, "output_padding", n, 0, op))) return st;
    for (i = 0; i < n; i++) /* PyTorch's rule: padding below the stride or the dilation */
      if (op[i] < 0 || (op[i] >= win.s[i] && op[i] >= win.dil[i]))
        return ge_infer_error(c, GE_ERR_INVALID, "attribute 'output_padding'[%d] is %lld; it must be >= 0 and below the "
                              "stride (%lld) or the dilation (%lld)", (int)i, (long long)op[i], (long long)win.s[i],
                              (long long)win.dil[i]);
    if (nos > 0 && nos != n && nos != n + 2)
      return ge_infer_error(c, GE_ERR_SHAPE, "attribute 'output_shape' has %d values for %d spatial axes", (int)nos,
                            (int)n);
    for (i = 0; i < n; i++) {
      int64_t in = x.rank >= 0 ? x.d[i + 2] : GE_DIM_UNKNOWN, v;
      if (nos > 0)
        v = os[nos - n + i];
      else if (in < 0 || win.k[i] < 0 || !ge__ox_sane(in) || !ge__ox_sane(win.k[i]) || !ge__ox_sane(win.s[i]) ||
               !ge__ox_sane(win.dil[i]) || !ge__ox_sane(win.pb[i]) || !ge__ox_sane(win.pe[i]) || !ge__ox_sane(op[i]))
        v = GE_DIM_UNKNOWN;
      else if (win.mode == GE__OX_PAD_SAME)
        v = in * win.s[i];
      else {
        v = win.s[i] * (in - 1) + op[i] + (win.k[i] - 1) * win.dil[i] + 1;
        if (win.mode == GE__OX_PAD_NOTSET) v -= win.pb[i] + win.pe[i];
        if (v <= 0)
          return ge_infer_error(c, GE_ERR_SHAPE, "spatial axis %d: output size %lld is not positive", (int)i,
                                (long long)v);
      }
      ge__ox_dim(&o, i + 2, v);
    }
  }
  return ge__ox_out(c, 0, dx->dtype, &o);
}

/* MaxPool, AveragePool, LpPool: [N, C, pooled...]; MaxPool's Indices int64. */
static ge_status ge__ox_pool(ge_infer_ctx *c) {
  const ge_tensor_desc *dx = ge_infer_input(c, 0);
  ge__ox_shape x, o;
  ge__ox_win win;
  int32_t nk, r;
  ge_status st;
  if (!dx) return GE_OK;
  ge__ox_load(&x, dx);
  nk = ge_infer_attr_ints(c, "kernel_shape", NULL);
  if (nk <= 0) return ge_infer_error(c, GE_ERR_INVALID, "attribute 'kernel_shape' is missing");
  if (nk > GE_MAX_RANK - 2)
    return ge_infer_error(c, GE_ERR_UNSUPPORTED, "kernel_shape has %d axes, more than %d", (int)nk, GE_MAX_RANK - 2);
  {
    int64_t order = ge_infer_attr_int(c, "storage_order", 0);
    if (order != 0 && order != 1)
      return ge_infer_error(c, GE_ERR_INVALID, "attribute 'storage_order' is %lld; it must be 0 (row major) or 1 (column major)",
                            (long long)order);
  }
  r = x.rank >= 0 ? x.rank : nk + 2;
  if (r != nk + 2) {
    char s1[128];
    return ge_infer_error(c, GE_ERR_SHAPE, "input %s does not have %d spatial axes (kernel_shape)",
                          ge__ox_str(&x, s1, sizeof s1), (int)nk);
  }
  if ((st = ge__ox_win_attrs(c, nk, NULL, &win))) return st;
  o = x;
  if (x.rank < 0) ge__ox_unknown_dims(&o, r);
  if ((st = ge__ox_spatial(c, &win, &x, &o))) return st;
  if ((st = ge__ox_out(c, 0, dx->dtype, &o))) return st;
  return ge__ox_out(c, 1, GE_DTYPE_INT64, &o);
}

/* GlobalAveragePool, GlobalMaxPool: [N, C, 1, ...]. */
static ge_status ge__ox_global_pool(ge_infer_ctx *c) {
  const ge_tensor_desc *dx = ge_infer_input(c, 0);
  ge__ox_shape o;
  int32_t i;
  if (!dx) return GE_OK;
  ge__ox_load(&o, dx);
  if (o.rank >= 0 && o.rank < 2) {
    char s1[128];
    return ge_infer_error(c, GE_ERR_SHAPE, "input %s needs rank >= 2", ge__ox_str(&o, s1, sizeof s1));
  }
  for (i = 2; i < o.rank; i++)
    ge__ox_dim(&o, i, 1);
  return ge__ox_out(c, 0, dx->dtype, &o);
}

/* --------------------------------------------------------- reductions */

/* Reduce*: axes from input 1 (opset 13/18) or attribute; keepdims;
 * noop_with_empty_axes. */
static ge_status ge__ox_reduce(ge_infer_ctx *c) {
  const ge_tensor_desc *dx = ge_infer_input(c, 0);
  ge__ox_shape x, o;
  int64_t axes[GE_MAX_RANK];
  int32_t n = 0, i;
  uint8_t flags[GE_MAX_RANK];
  int keep = ge_infer_attr_int(c, "keepdims", 1) != 0, known;
  ge_status st;
  if (!dx) return GE_OK;
  ge__ox_load(&x, dx);
  known = ge__ox_list(c, 1, "axes", axes, &n, GE_MAX_RANK);
  if (x.rank < 0) return ge__ox_out_unknown(c, 0, dx->dtype);
  if (!known) {
    /* which axes go is unknown: with keepdims the rank stays */
    if (!keep) return ge__ox_out_unknown(c, 0, dx->dtype);
    o = x;
    for (i = 0; i < o.rank; i++)
      if (o.d[i] != 1) ge__ox_dim(&o, i, GE_DIM_UNKNOWN);
    return ge__ox_out(c, 0, dx->dtype, &o);
  }
  if (n == 0) {
    if (ge_infer_attr_int(c, "noop_with_empty_axes", 0)) return ge__infer_same(c);
    memset(flags, 1, sizeof flags);
  } else if ((st = ge__ox_axis_flags(c, axes, n, x.rank, flags))) {
    return st;
  }
  o.rank = 0;
  for (i = 0; i < x.rank; i++) {
    if (!flags[i])
      ge__ox_push(&o, &x, i);
    else if (keep)
      ge__ox_dim(&o, o.rank++, 1);
  }
  return ge__ox_out(c, 0, dx->dtype, &o);
}

/* ArgMax, ArgMin: int64 indices along axis. */
static ge_status ge__ox_argreduce(ge_infer_ctx *c) {
  const ge_tensor_desc *dx = ge_infer_input(c, 0);
  ge__ox_shape x, o;
  int32_t a, i;
  int keep = ge_infer_attr_int(c, "keepdims", 1) != 0;
  ge_status st;
  if (!dx) return GE_OK;
  ge__ox_load(&x, dx);
  if (x.rank < 0) return ge__ox_out_unknown(c, 0, GE_DTYPE_INT64);
  if ((st = ge__ox_axis(c, "axis", ge_infer_attr_int(c, "axis", 0), x.rank, &a))) return st;
  o.rank = 0;
  for (i = 0; i < x.rank; i++) {
    if (i != a)
      ge__ox_push(&o, &x, i);
    else if (keep)
      ge__ox_dim(&o, o.rank++, 1);
  }
  return ge__ox_out(c, 0, GE_DTYPE_INT64, &o);
}

/* ------------------------------------------------------ shape ops */

static ge_status ge__ox_reshape(ge_infer_ctx *c) {
  const ge_tensor_desc *dx = ge_infer_input(c, 0), *ds = ge_infer_input(c, 1);
  ge__ox_shape x, o;
  int64_t v[GE_MAX_RANK + 1], vals[GE__OX_VMAX], pin = 1, pout = 1;
  uint8_t copied[GE_MAX_RANK];
  int allowzero = ge_infer_attr_int(c, "allowzero", 0) != 0, in_known = 1, out_known = 1;
  int32_t n, i, neg = -1, nv;
  char s1[128], s2[128];
  ge_status st;
  if (!dx) return GE_OK;
  ge__ox_load(&x, dx);
  n = ds ? ge__ox_ints(ds->value, v, GE_MAX_RANK + 1) : ge__ox_attr_ints(c, "shape", v, GE_MAX_RANK + 1);
  if (n > GE_MAX_RANK) return ge_infer_error(c, GE_ERR_UNSUPPORTED, "target rank %d exceeds %d", (int)n, GE_MAX_RANK);
  if (n < 0) {
    if (ds && ds->shape.rank == 1 && ds->shape.dims[0] >= 0 && ds->shape.dims[0] <= GE_MAX_RANK) {
      ge__ox_unknown_dims(&o, (int32_t)ds->shape.dims[0]);
      return ge__ox_out(c, 0, dx->dtype, &o);
    }
    return ge__ox_out_unknown(c, 0, dx->dtype);
  }
  o.rank = n;
  memset(copied, 0, sizeof copied);
  for (i = 0; i < n; i++) {
    if (v[i] == 0 && !allowzero) {
      if (x.rank >= 0 && i >= x.rank)
        return ge_infer_error(c, GE_ERR_SHAPE, "target dim %d is 0 (copy) but the input %s has no dim %d", (int)i,
                              ge__ox_str(&x, s1, sizeof s1), (int)i);
      if (x.rank >= 0)
        o.d[i] = x.d[i], o.x[i] = x.x[i], copied[i] = 1;
      else
        ge__ox_dim(&o, i, GE_DIM_UNKNOWN);
    } else if (v[i] == -1) {
      if (neg >= 0) return ge_infer_error(c, GE_ERR_SHAPE, "target shape has more than one -1");
      neg = i;
      ge__ox_dim(&o, i, GE_DIM_UNKNOWN);
    } else if (v[i] < 0) {
      return ge_infer_error(c, GE_ERR_SHAPE, "target dim %d is %lld", (int)i, (long long)v[i]);
    } else {
      ge__ox_dim(&o, i, v[i]);
    }
  }
  /* element counts over the dims not copied one-to-one */
  if (x.rank < 0) in_known = 0;
  for (i = 0; i < x.rank; i++)
    if (!(i < n && copied[i])) {
      if ((pin = ge__ox_mul(pin, x.d[i])) < 0) in_known = 0, pin = 1;
    }
  for (i = 0; i < n; i++)
    if (!copied[i] && i != neg) {
      if (o.d[i] >= 0 && ge__ox_mul(pout, o.d[i]) < 0)
        return ge_infer_error(c, GE_ERR_SHAPE, "target shape %s: its element count overflows", ge__ox_str(&o, s2, sizeof s2));
      if ((pout = ge__ox_mul(pout, o.d[i])) < 0) out_known = 0, pout = 1;
    }
  if (in_known && out_known) {
    if (neg >= 0) {
      if (pout == 0 || pin % pout)
        return ge_infer_error(c, GE_ERR_SHAPE, "cannot reshape %s to %s: %lld elements do not divide by %lld",
                              ge__ox_str(&x, s1, sizeof s1), ge__ox_str(&o, s2, sizeof s2), (long long)pin,
                              (long long)pout);
      ge__ox_dim(&o, neg, pin / pout);
    } else if (pin != pout) {
      return ge_infer_error(c, GE_ERR_SHAPE, "cannot reshape %s to %s: element counts differ",
                            ge__ox_str(&x, s1, sizeof s1), ge__ox_str(&o, s2, sizeof s2));
    }
  }
  if ((st = ge__ox_out(c, 0, dx->dtype, &o))) return st;
  if ((nv = ge__ox_ints(dx->value, vals, GE__OX_VMAX)) < 0) return GE_OK;
  {
    ge_shape vo = ge__ox_view(&o);
    if (ge__ox_shape_numel(&vo) != nv) return GE_OK;
  }
  return ge__ox_put_shape_ints(c, 0, dx->dtype, &o, vals, nv);
}

static ge_status ge__ox_flatten(ge_infer_ctx *c) {
  const ge_tensor_desc *dx = ge_infer_input(c, 0);
  ge__ox_shape x, o;
  int64_t axis = ge_infer_attr_int(c, "axis", 1);
  int32_t a, i, part;
  if (!dx) return GE_OK;
  ge__ox_load(&x, dx);
  if (x.rank < 0) {
    ge__ox_unknown_dims(&o, 2);
    return ge__ox_out(c, 0, dx->dtype, &o);
  }
  if (axis < -(int64_t)x.rank || axis > x.rank)
    return ge_infer_error(c, GE_ERR_SHAPE, "axis %lld is out of range for rank %d", (long long)axis, (int)x.rank);
  a = (int32_t)(axis < 0 ? axis + x.rank : axis);
  o.rank = 2;
  for (part = 0; part < 2; part++) {
    int32_t lo = part ? a : 0, hi = part ? x.rank : a, unknown = 0;
    int64_t p = 1;
    for (i = lo; i < hi; i++) {
      if (x.d[i] < 0)
        unknown++;
      else
        p = p < 0 ? p : ge__ox_mul(p, x.d[i]);
    }
    ge__ox_dim(&o, part, unknown || p < 0 ? GE_DIM_UNKNOWN : p);
    /* a single unknown dim times ones keeps its info (the batch dim) */
    if (unknown == 1 && p == 1)
      for (i = lo; i < hi; i++)
        if (x.d[i] < 0) o.x[part] = x.x[i];
  }
  return ge__ox_out(c, 0, dx->dtype, &o);
}

static ge_status ge__ox_squeeze(ge_infer_ctx *c) {
  const ge_tensor_desc *dx = ge_infer_input(c, 0);
  ge__ox_shape x, o;
  int64_t axes[GE_MAX_RANK], vals[GE__OX_VMAX];
  int32_t n = 0, i, nv;
  uint8_t flags[GE_MAX_RANK];
  ge_status st;
  if (!dx) return GE_OK;
  ge__ox_load(&x, dx);
  if (!ge__ox_list(c, 1, "axes", axes, &n, GE_MAX_RANK) || x.rank < 0) return ge__ox_out_unknown(c, 0, dx->dtype);
  if (n == 0) {
    for (i = 0; i < x.rank; i++) {
      if (x.d[i] < 0) return ge__ox_out_unknown(c, 0, dx->dtype);
      flags[i] = x.d[i] == 1;
    }
  } else if ((st = ge__ox_axis_flags(c, axes, n, x.rank, flags))) {
    return st;
  }
  o.rank = 0;
  for (i = 0; i < x.rank; i++) {
    if (!flags[i])
      ge__ox_push(&o, &x, i);
    else if (x.d[i] >= 0 && x.d[i] != 1) {
      char s1[128];
      return ge_infer_error(c, GE_ERR_SHAPE, "cannot squeeze axis %d of %s: its size is %lld", (int)i,
                            ge__ox_str(&x, s1, sizeof s1), (long long)x.d[i]);
    }
  }
  if ((st = ge__ox_out(c, 0, dx->dtype, &o))) return st;
  if ((nv = ge__ox_ints(dx->value, vals, GE__OX_VMAX)) < 0) return GE_OK;
  return ge__ox_put_shape_ints(c, 0, dx->dtype, &o, vals, nv);
}

static ge_status ge__ox_unsqueeze(ge_infer_ctx *c) {
  const ge_tensor_desc *dx = ge_infer_input(c, 0);
  ge__ox_shape x, o;
  int64_t axes[GE_MAX_RANK], vals[GE__OX_VMAX];
  int32_t n = 0, i, j, r, nv;
  uint8_t flags[GE_MAX_RANK];
  ge_status st;
  if (!dx) return GE_OK;
  ge__ox_load(&x, dx);
  if (!ge__ox_list(c, 1, "axes", axes, &n, GE_MAX_RANK) || x.rank < 0) return ge__ox_out_unknown(c, 0, dx->dtype);
  if (n == 0) return ge_infer_error(c, GE_ERR_INVALID, "axes are missing");
  r = x.rank + n;
  if (r > GE_MAX_RANK) return ge_infer_error(c, GE_ERR_UNSUPPORTED, "output rank %d exceeds %d", (int)r, GE_MAX_RANK);
  if ((st = ge__ox_axis_flags(c, axes, n, r, flags))) return st;
  o.rank = 0;
  for (i = 0, j = 0; i < r; i++) {
    if (flags[i])
      ge__ox_dim(&o, o.rank++, 1);
    else
      ge__ox_push(&o, &x, j++);
  }
  if ((st = ge__ox_out(c, 0, dx->dtype, &o))) return st;
  if ((nv = ge__ox_ints(dx->value, vals, GE__OX_VMAX)) < 0) return GE_OK;
  return ge__ox_put_shape_ints(c, 0, dx->dtype, &o, vals, nv);
}

static ge_status ge__ox_transpose(ge_infer_ctx *c) {
  const ge_tensor_desc *dx = ge_infer_input(c, 0);
  ge__ox_shape x, o;
  int64_t perm[GE_MAX_RANK + 1];
  int32_t n, i;
  uint8_t seen[GE_MAX_RANK];
  if (!dx) return GE_OK;
  ge__ox_load(&x, dx);
  n = ge__ox_attr_ints(c, "perm", perm, GE_MAX_RANK + 1);
  if (x.rank < 0) {
    if (n <= 0 || n > GE_MAX_RANK) return ge__ox_out_unknown(c, 0, dx->dtype);
    ge__ox_unknown_dims(&o, n);
    return ge__ox_out(c, 0, dx->dtype, &o);
  }
  if (n < 0) {
    n = x.rank;
    for (i = 0; i < n; i++)
      perm[i] = n - 1 - i;
  }
  if (n != x.rank) return ge_infer_error(c, GE_ERR_SHAPE, "perm has %d entries for rank %d", (int)n, (int)x.rank);
  memset(seen, 0, sizeof seen);
  o.rank = 0;
  for (i = 0; i < n; i++) {
    if (perm[i] < 0 || perm[i] >= n || seen[perm[i]])
      return ge_infer_error(c, GE_ERR_SHAPE, "perm is not a permutation of 0..%d (entry %d is %lld)", (int)n - 1,
                            (int)i, (long long)perm[i]);
    seen[perm[i]] = 1;
    ge__ox_push(&o, &x, (int32_t)perm[i]);
  }
  return ge__ox_out(c, 0, dx->dtype, &o);
}

static ge_status ge__ox_concat(ge_infer_ctx *c) {
  uint32_t k, nin = ge_infer_num_inputs(c);
  ge__ox_shape o, x;
  int64_t vals[GE__OX_VMAX], sum = 0;
  int32_t a = 0, i, nv = 0, values = 1, first = -1;
  ge_dtype dt = GE_DTYPE_UNDEFINED;
  char s1[128], s2[128];
  ge_status st;
  o.rank = GE_RANK_UNKNOWN;
  for (k = 0; k < nin; k++) {
    const ge_tensor_desc *d = ge_infer_input(c, k);
    if (!d) continue;
    if (dt == GE_DTYPE_UNDEFINED) dt = d->dtype;
    ge__ox_load(&x, d);
    if (x.rank < 0) continue;
    if (o.rank < 0) {
      o = x;
      first = (int32_t)k;
      if ((st = ge__ox_axis(c, "axis", ge_infer_attr_int(c, "axis", 0), x.rank, &a))) return st;
      continue;
    }
    if (x.rank != o.rank)
      return ge_infer_error(c, GE_ERR_SHAPE, "input %u %s and input %d %s have different ranks", (unsigned)k,
                            ge__ox_str(&x, s1, sizeof s1), (int)first, ge__ox_str(&o, s2, sizeof s2));
    for (i = 0; i < x.rank; i++) {
      if (i == a) continue;
      if (x.d[i] >= 0 && o.d[i] >= 0 && x.d[i] != o.d[i])
        return ge_infer_error(c, GE_ERR_SHAPE, "input %u %s and input %d %s differ in dim %d (concat axis %d)",
                              (unsigned)k, ge__ox_str(&x, s1, sizeof s1), (int)first, ge__ox_str(&o, s2, sizeof s2),
                              (int)i, (int)a);
      if (o.d[i] < 0 && (x.d[i] >= 0 || (!o.x[i].symbol && x.x[i].symbol))) o.d[i] = x.d[i], o.x[i] = x.x[i];
    }
  }
  if (o.rank < 0) return ge__ox_out_unknown(c, 0, dt);
  /* the axis: sum when every input's extent is known */
  for (k = 0; k < nin && sum >= 0; k++) {
    const ge_tensor_desc *d = ge_infer_input(c, k);
    if (!d) continue;
    if (d->shape.rank != o.rank || d->shape.dims[a] < 0)
      sum = -1;
    else if ((sum = ge__ox_add(sum, d->shape.dims[a])) < 0)
      sum = -1;
  }
  if (nin > 1 || sum < 0) ge__ox_dim(&o, a, sum);
  if ((st = ge__ox_out(c, 0, dt, &o))) return st;
  /* values: 1-D int inputs all known */
  if (o.rank != 1) return GE_OK;
  for (k = 0; k < nin && values; k++) {
    const ge_tensor *t = ge_infer_input_value(c, k);
    int32_t m;
    if (!ge_infer_input(c, k)) continue;
    if (!t || (m = ge__ox_ints(t, vals + nv, GE__OX_VMAX - nv)) < 0)
      values = 0;
    else
      nv += m;
  }
  return values ? ge__ox_put_shape_ints(c, 0, dt, &o, vals, nv) : GE_OK; /* checks o.d[0] == nv */
}

static ge_status ge__ox_split(ge_infer_ctx *c) {
  const ge_tensor_desc *dx = ge_infer_input(c, 0);
  uint32_t nout = c->n->num_outputs, i;
  ge__ox_shape x, o;
  int64_t split[GE__OX_VMAX], dim, sum = 0;
  int32_t a, n = 0;
  int known;
  ge_status st;
  if (!dx) return GE_OK;
  ge__ox_load(&x, dx);
  known = ge__ox_list(c, 1, "split", split, &n, GE__OX_VMAX);
  if (x.rank < 0) {
    for (i = 0; i < nout; i++)
      if ((st = ge__ox_out_unknown(c, i, dx->dtype))) return st;
    return GE_OK;
  }
  if ((st = ge__ox_axis(c, "axis", ge_infer_attr_int(c, "axis", 0), x.rank, &a))) return st;
  dim = x.d[a];
  {
    int64_t want = ge_infer_attr_int(c, "num_outputs", -1);
    if (want >= 0 && want != (int64_t)nout)
      return ge_infer_error(c, GE_ERR_SHAPE, "num_outputs is %lld but the node has %u outputs", (long long)want,
                            (unsigned)nout);
  }
  if (known && n > 0) {
    if ((uint32_t)n != nout)
      return ge_infer_error(c, GE_ERR_SHAPE, "split has %d entries for %u outputs", (int)n, (unsigned)nout);
    for (i = 0; i < nout; i++) {
      if (split[i] < 0) return ge_infer_error(c, GE_ERR_SHAPE, "split entry %u is negative", (unsigned)i);
      sum = ge__ox_add(sum, split[i]);
    }
    if (dim >= 0 && sum != dim) {
      char s1[128];
      return ge_infer_error(c, GE_ERR_SHAPE, "split sizes add up to %lld but axis %d of %s is %lld", (long long)sum,
                            (int)a, ge__ox_str(&x, s1, sizeof s1), (long long)dim);
    }
  }
  for (i = 0; i < nout; i++) {
    int64_t v = GE_DIM_UNKNOWN;
    if (known && n > 0)
      v = split[i];
    else if (known && dim >= 0 && nout) {
      int64_t chunk = dim / (int64_t)nout + (dim % (int64_t)nout != 0), used = ge__ox_mul((int64_t)i, chunk);
      int64_t left = used < 0 || used > dim ? 0 : dim - used;
      v = left < chunk ? left : chunk;
    }
    o = x;
    if (!(nout == 1 && v < 0)) ge__ox_dim(&o, a, v);
    if ((st = ge__ox_out(c, i, dx->dtype, &o))) return st;
  }
  return GE_OK;
}

/* Clamped slice extent and first index of one axis (ONNX Slice rules). */
static int64_t ge__ox_slice_dim(int64_t dim, int64_t start, int64_t end, int64_t step, int64_t *first) {
  int64_t n;
  if (start < 0) start += dim;
  if (end < 0) end += dim;
  if (step > 0) {
    start = start < 0 ? 0 : start > dim ? dim : start;
    end = end < 0 ? 0 : end > dim ? dim : end;
    n = end > start ? (end - start - 1) / step + 1 : 0;
  } else {
    start = start < 0 ? -1 : start > dim - 1 ? dim - 1 : start;
    end = end < -1 ? -1 : end > dim - 1 ? dim - 1 : end;
    n = start > end ? (start - end - 1) / (step == INT64_MIN ? INT64_MAX : -step) + 1 : 0;
  }
  *first = start;
  return n;
}

static ge_status ge__ox_slice(ge_infer_ctx *c) {
  const ge_tensor_desc *dx = ge_infer_input(c, 0);
  ge__ox_shape x, o;
  int64_t starts[GE_MAX_RANK], ends[GE_MAX_RANK], axes[GE_MAX_RANK], steps[GE_MAX_RANK];
  int64_t first[GE_MAX_RANK], vals[GE__OX_VMAX], res[GE__OX_VMAX];
  int32_t ns = 0, ne = 0, na = 0, nst = 0, i, ax[GE_MAX_RANK];
  int attrs = ge_infer_num_inputs(c) < 3, ks, ke, ka, kst;
  ge_status st;
  if (!dx) return GE_OK;
  ge__ox_load(&x, dx);
  if (x.rank < 0) return ge__ox_out_unknown(c, 0, dx->dtype);
  ks = ge__ox_list(c, attrs ? 99 : 1, "starts", starts, &ns, GE_MAX_RANK);
  ke = ge__ox_list(c, attrs ? 99 : 2, "ends", ends, &ne, GE_MAX_RANK);
  ka = ge__ox_list(c, attrs ? 99 : 3, "axes", axes, &na, GE_MAX_RANK);
  kst = attrs ? 1 : ge__ox_list(c, 4, NULL, steps, &nst, GE_MAX_RANK);
  o = x;
  if (!ks || !ke || !kst) {
    /* extents unknown: only the listed axes change */
    if (ka && na > 0) {
      for (i = 0; i < na; i++) {
        if ((st = ge__ox_axis(c, "axis", axes[i], x.rank, &ax[i]))) return st;
        ge__ox_dim(&o, ax[i], GE_DIM_UNKNOWN);
      }
    } else {
      ge__ox_unknown_dims(&o, x.rank);
    }
    return ge__ox_out(c, 0, dx->dtype, &o);
  }
  if (ns != ne) return ge_infer_error(c, GE_ERR_SHAPE, "starts has %d entries, ends %d", (int)ns, (int)ne);
  if (!ka) { /* any axis may change */
    ge__ox_unknown_dims(&o, x.rank);
    return ge__ox_out(c, 0, dx->dtype, &o);
  }
  if (na == 0) {
    na = ns;
    for (i = 0; i < na; i++)
      axes[i] = i;
  }
  if (nst == 0) {
    nst = ns;
    for (i = 0; i < nst; i++)
      steps[i] = 1;
  }
  if (na != ns || nst != ns)
    return ge_infer_error(c, GE_ERR_SHAPE, "starts, ends, axes and steps have %d, %d, %d and %d entries", (int)ns,
                          (int)ne, (int)na, (int)nst);
  for (i = 0; i < ns; i++) {
    int32_t j;
    if ((st = ge__ox_axis(c, "axis", axes[i], x.rank, &ax[i]))) return st;
    for (j = 0; j < i; j++)
      if (ax[j] == ax[i]) return ge_infer_error(c, GE_ERR_SHAPE, "axes: axis %d is repeated", (int)ax[i]);
    if (steps[i] == 0) return ge_infer_error(c, GE_ERR_SHAPE, "step of axis %d is 0", (int)ax[i]);
    if (x.d[ax[i]] < 0) {
      /* unknown extent: only [0, huge) with step 1 keeps the dim */
      if (!(starts[i] == 0 && steps[i] == 1 && ends[i] >= INT32_MAX)) ge__ox_dim(&o, ax[i], GE_DIM_UNKNOWN);
      first[i] = 0;
      continue;
    }
    {
      int64_t f, e = ge__ox_slice_dim(x.d[ax[i]], starts[i], ends[i], steps[i], &f);
      first[i] = f;
      if (e != x.d[ax[i]]) ge__ox_dim(&o, ax[i], e);
    }
  }
  if ((st = ge__ox_out(c, 0, dx->dtype, &o))) return st;
  /* value of a 1-D int input (Shape -> Slice) */
  if (x.rank == 1 && o.d[0] >= 0 && ge__ox_ints(dx->value, vals, GE__OX_VMAX) == x.d[0]) {
    int64_t k, step = 1;
    for (i = 0; i < ns; i++)
      step = steps[i];
    if (ns == 0) first[0] = 0;
    for (k = 0; k < o.d[0]; k++)
      res[k] = vals[first[0] + k * step];
    return ge__ox_put_shape_ints(c, 0, dx->dtype, &o, res, o.d[0]);
  }
  return GE_OK;
}

static ge_status ge__ox_gather(ge_infer_ctx *c) {
  const ge_tensor_desc *dd = ge_infer_input(c, 0), *di = ge_infer_input(c, 1);
  ge__ox_shape d, idx, o;
  int64_t iv[GE__OX_VMAX], dv[GE__OX_VMAX], res[GE__OX_VMAX];
  int32_t a, i, ni, nd;
  ge_status st;
  if (!dd || !di) return GE_OK;
  ge__ox_load(&d, dd);
  ge__ox_load(&idx, di);
  if (d.rank < 0 || idx.rank < 0) return ge__ox_out_unknown(c, 0, dd->dtype);
  if (d.rank == 0) return ge_infer_error(c, GE_ERR_SHAPE, "data must have rank >= 1");
  if ((st = ge__ox_axis(c, "axis", ge_infer_attr_int(c, "axis", 0), d.rank, &a))) return st;
  if (d.rank - 1 + idx.rank > GE_MAX_RANK)
    return ge_infer_error(c, GE_ERR_UNSUPPORTED, "output rank exceeds %d", GE_MAX_RANK);
  o.rank = 0;
  for (i = 0; i < a; i++)
    ge__ox_push(&o, &d, i);
  for (i = 0; i < idx.rank; i++)
    ge__ox_push(&o, &idx, i);
  for (i = a + 1; i < d.rank; i++)
    ge__ox_push(&o, &d, i);
  ni = ge__ox_input_ints(c, 1, iv, GE__OX_VMAX);
  for (i = 0; i < ni && d.d[a] >= 0; i++) {
    if (iv[i] < -d.d[a] || iv[i] >= d.d[a])
      return ge_infer_error(c, GE_ERR_SHAPE, "index %lld is out of range for axis %d of size %lld", (long long)iv[i],
                            (int)a, (long long)d.d[a]);
    if (iv[i] < 0) iv[i] += d.d[a];
  }
  if ((st = ge__ox_out(c, 0, dd->dtype, &o))) return st;
  if (ni < 0 || d.rank != 1 || (nd = ge__ox_ints(dd->value, dv, GE__OX_VMAX)) < 0 || nd != d.d[0]) return GE_OK;
  for (i = 0; i < ni; i++)
    res[i] = dv[iv[i]];
  return ge__ox_put_shape_ints(c, 0, dd->dtype, &o, res, ni);
}

/* GatherElements: the shape of the indices, dtype of the data. */
static ge_status ge__ox_gather_elements(ge_infer_ctx *c) {
  const ge_tensor_desc *dd = ge_infer_input(c, 0), *di = ge_infer_input(c, 1);
  ge__ox_shape idx;
  int32_t a;
  ge_status st;
  if (!dd || !di) return GE_OK;
  ge__ox_load(&idx, di);
  if (dd->shape.rank >= 0 && idx.rank >= 0 && dd->shape.rank != idx.rank)
    return ge_infer_error(c, GE_ERR_SHAPE, "data rank %d and indices rank %d differ", (int)dd->shape.rank,
                          (int)idx.rank);
  if (dd->shape.rank > 0 && (st = ge__ox_axis(c, "axis", ge_infer_attr_int(c, "axis", 0), dd->shape.rank, &a)))
    return st;
  return ge__ox_out(c, 0, dd->dtype, &idx);
}

static ge_status ge__ox_gather_nd(ge_infer_ctx *c) {
  const ge_tensor_desc *dd = ge_infer_input(c, 0), *di = ge_infer_input(c, 1);
  ge__ox_shape d, idx, o;
  int64_t b = ge_infer_attr_int(c, "batch_dims", 0), k;
  int32_t i;
  if (!dd || !di) return GE_OK;
  ge__ox_load(&d, dd);
  ge__ox_load(&idx, di);
  if (d.rank < 0 || idx.rank < 0 || (idx.rank > 0 && idx.d[idx.rank - 1] < 0))
    return ge__ox_out_unknown(c, 0, dd->dtype);
  if (idx.rank < 1 || b < 0 || b >= idx.rank || b >= d.rank)
    return ge_infer_error(c, GE_ERR_SHAPE, "batch_dims %lld does not fit data rank %d and indices rank %d",
                          (long long)b, (int)d.rank, (int)idx.rank);
  k = idx.d[idx.rank - 1];
  if (k > d.rank - b)
    return ge_infer_error(c, GE_ERR_SHAPE, "indices address %lld dims after %lld batch dims of a rank %d input",
                          (long long)k, (long long)b, (int)d.rank);
  o.rank = 0;
  for (i = 0; i < idx.rank - 1; i++)
    ge__ox_push(&o, &idx, i);
  for (i = (int32_t)(b + k); i < d.rank; i++)
    ge__ox_push(&o, &d, i);
  return ge__ox_out(c, 0, dd->dtype, &o);
}

static ge_status ge__ox_expand(ge_infer_ctx *c) {
  const ge_tensor_desc *dx = ge_infer_input(c, 0), *ds = ge_infer_input(c, 1);
  ge__ox_shape x, t, o;
  int64_t v[GE_MAX_RANK + 1];
  int32_t n, i;
  ge_shape va, vb;
  char s1[128], s2[128];
  if (!dx || !ds) return GE_OK;
  ge__ox_load(&x, dx);
  n = ge__ox_ints(ds->value, v, GE_MAX_RANK + 1);
  if (n > GE_MAX_RANK) return ge_infer_error(c, GE_ERR_UNSUPPORTED, "target rank %d exceeds %d", (int)n, GE_MAX_RANK);
  if (n < 0) {
    int32_t k = ds->shape.rank == 1 ? (int32_t)ds->shape.dims[0] : -1;
    if (x.rank < 0 || k < 0 || k > GE_MAX_RANK) return ge__ox_out_unknown(c, 0, dx->dtype);
    /* rank known, a dim is known only where the input's is > 1 */
    ge__ox_unknown_dims(&t, k);
  } else {
    t.rank = n;
    for (i = 0; i < n; i++) {
      if (v[i] < 0) return ge_infer_error(c, GE_ERR_SHAPE, "target shape has a negative dim %lld", (long long)v[i]);
      ge__ox_dim(&t, i, v[i]);
    }
  }
  if (x.rank < 0) return ge__ox_out_unknown(c, 0, dx->dtype);
  va = ge__ox_view(&x);
  vb = ge__ox_view(&t);
  o.rank = ge_shape_broadcast(&va, &vb, o.d, o.x);
  if (o.rank == -1)
    return ge_infer_error(c, GE_ERR_SHAPE, "input %s does not broadcast to %s", ge__ox_str(&x, s1, sizeof s1),
                          ge__ox_str(&t, s2, sizeof s2));
  return ge__ox_out(c, 0, dx->dtype, &o);
}

static ge_status ge__ox_tile(ge_infer_ctx *c) {
  const ge_tensor_desc *dx = ge_infer_input(c, 0);
  ge__ox_shape o;
  int64_t rep[GE_MAX_RANK + 1];
  int32_t n, i;
  if (!dx) return GE_OK;
  ge__ox_load(&o, dx);
  n = ge__ox_input_ints(c, 1, rep, GE_MAX_RANK + 1);
  if (o.rank < 0) return ge__ox_out_unknown(c, 0, dx->dtype);
  if (n >= 0 && n != o.rank)
    return ge_infer_error(c, GE_ERR_SHAPE, "repeats has %d entries for rank %d", (int)n, (int)o.rank);
  for (i = 0; i < o.rank; i++) {
    if (n < 0)
      ge__ox_dim(&o, i, GE_DIM_UNKNOWN);
    else if (rep[i] < 0)
      return ge_infer_error(c, GE_ERR_SHAPE, "repeats entry %d is negative", (int)i);
    else if (rep[i] != 1)
      ge__ox_dim(&o, i, ge__ox_mul(o.d[i], rep[i]));
  }
  return ge__ox_out(c, 0, dx->dtype, &o);
}

static ge_status ge__ox_pad(ge_infer_ctx *c) {
  const ge_tensor_desc *dx = ge_infer_input(c, 0);
  ge__ox_shape x, o;
  int64_t pads[2 * GE_MAX_RANK], axes[GE_MAX_RANK];
  int32_t np = 0, na = 0, i, a;
  int kp, ka;
  ge_status st;
  if (!dx) return GE_OK;
  ge__ox_load(&x, dx);
  if (x.rank < 0) return ge__ox_out_unknown(c, 0, dx->dtype);
  kp = ge__ox_list(c, 1, "pads", pads, &np, 2 * GE_MAX_RANK);
  ka = ge__ox_list(c, 3, NULL, axes, &na, GE_MAX_RANK);
  if (ka && na == 0) {
    na = x.rank;
    for (i = 0; i < na; i++)
      axes[i] = i;
  }
  o = x;
  if (!ka) {
    ge__ox_unknown_dims(&o, x.rank);
    return ge__ox_out(c, 0, dx->dtype, &o);
  }
  if (kp && np != 2 * na) return ge_infer_error(c, GE_ERR_SHAPE, "pads has %d entries for %d axes", (int)np, (int)na);
  for (i = 0; i < na; i++) {
    if ((st = ge__ox_axis(c, "axis", axes[i], x.rank, &a))) return st;
    if (!kp)
      ge__ox_dim(&o, a, GE_DIM_UNKNOWN);
    else if (pads[i] || pads[i + na]) {
      int64_t v = x.d[a] < 0 ? GE_DIM_UNKNOWN : ge__ox_add(ge__ox_add(x.d[a], pads[i]), pads[i + na]);
      if (x.d[a] >= 0 && v < 0)
        return ge_infer_error(c, GE_ERR_SHAPE, "pads %lld, %lld make axis %d of size %lld negative", (long long)pads[i],
                              (long long)pads[i + na], (int)a, (long long)x.d[a]);
      ge__ox_dim(&o, a, v);
    }
  }
  return ge__ox_out(c, 0, dx->dtype, &o);
}

/* Shape: int64 [end - start], its value when those dims are static. */
static ge_status ge__ox_shape_op(ge_infer_ctx *c) {
  const ge_tensor_desc *dx = ge_infer_input(c, 0);
  ge__ox_shape o;
  int64_t start = ge_infer_attr_int(c, "start", 0), end, v[GE_MAX_RANK], i;
  int32_t r;
  ge_status st;
  if (!dx) return GE_OK;
  r = dx->shape.rank;
  o.rank = 1;
  if (r < 0) {
    ge__ox_dim(&o, 0, GE_DIM_UNKNOWN);
    return ge__ox_out(c, 0, GE_DTYPE_INT64, &o);
  }
  end = ge_infer_attr_int(c, "end", r);
  if (start < 0) start += r;
  if (end < 0) end += r;
  start = start < 0 ? 0 : start > r ? r : start;
  end = end < 0 ? 0 : end > r ? r : end;
  if (end < start) end = start;
  ge__ox_dim(&o, 0, end - start);
  if ((st = ge__ox_out(c, 0, GE_DTYPE_INT64, &o))) return st;
  for (i = start; i < end; i++) {
    if (dx->shape.dims[i] < 0) return GE_OK;
    v[i - start] = dx->shape.dims[i];
  }
  return ge__ox_put_shape_ints(c, 0, GE_DTYPE_INT64, &o, v, end - start);
}

static ge_status ge__ox_size(ge_infer_ctx *c) {
  const ge_tensor_desc *dx = ge_infer_input(c, 0);
  int64_t n;
  ge_status st;
  if (!dx) return GE_OK;
  if ((st = ge_infer_set_output(c, 0, GE_DTYPE_INT64, 0, NULL, NULL))) return st;
  n = ge__ox_shape_numel(&dx->shape);
  return n < 0 ? GE_OK : ge__ox_put_ints(c, 0, GE_DTYPE_INT64, 0, NULL, &n, 1);
}

static ge_status ge__ox_constant_of_shape(ge_infer_ctx *c) {
  const ge_tensor_desc *ds = ge_infer_input(c, 0);
  const ge_attr *va = ge_infer_attr(c, "value");
  const ge_tensor *vt = va && va->type == GE_ATTR_TENSOR ? va->v.t : NULL;
  ge_dtype dt = vt ? vt->dtype : GE_DTYPE_FLOAT32;
  ge__ox_shape o;
  int64_t v[GE_MAX_RANK + 1], fill[GE__OX_VMAX], x0, numel = 1;
  int32_t n, i;
  ge_status st;
  if (!ds) return GE_OK;
  if (vt && ge_tensor_numel(vt) != 1) return ge_infer_error(c, GE_ERR_SHAPE, "attribute 'value' must have one element");
  n = ge__ox_ints(ds->value, v, GE_MAX_RANK + 1);
  if (n > GE_MAX_RANK) return ge_infer_error(c, GE_ERR_UNSUPPORTED, "output rank %d exceeds %d", (int)n, GE_MAX_RANK);
  if (n < 0) {
    if (ds->shape.rank == 1 && ds->shape.dims[0] >= 0 && ds->shape.dims[0] <= GE_MAX_RANK)
      ge__ox_unknown_dims(&o, (int32_t)ds->shape.dims[0]);
    else
      o.rank = GE_RANK_UNKNOWN;
    return ge__ox_out(c, 0, dt, &o);
  }
  o.rank = n;
  for (i = 0; i < n; i++) {
    if (v[i] < 0) return ge_infer_error(c, GE_ERR_SHAPE, "shape entry %d is negative (%lld)", (int)i, (long long)v[i]);
    ge__ox_dim(&o, i, v[i]);
    numel = numel < 0 ? numel : ge__ox_mul(numel, v[i]);
  }
  if ((st = ge__ox_out(c, 0, dt, &o))) return st;
  if (numel < 0 || numel > GE__OX_VMAX || !ge__ox_int_dtype(dt)) return GE_OK;
  if (vt) {
    if (ge__ox_ints(vt, &x0, 1) != 1) return GE_OK;
  } else {
    x0 = 0;
  }
  for (i = 0; i < numel; i++)
    fill[i] = x0;
  return ge__ox_put_shape_ints(c, 0, dt, &o, fill, numel);
}

static ge_status ge__ox_range(ge_infer_ctx *c) {
  ge_dtype dt = ge__ox_dtype(c, 0);
  ge__ox_shape o;
  ge_status st;
  int64_t n = GE_DIM_UNKNOWN, iv[3], k;
  double fv[3];
  int i, known = 1;
  o.rank = 1;
  for (i = 0; i < 3; i++) {
    const ge_tensor_desc *d = ge_infer_input(c, (uint32_t)i);
    if (d && d->shape.rank > 0 && !(d->shape.rank == 1 && d->shape.dims[0] == 1))
      return ge_infer_error(c, GE_ERR_SHAPE, "input %d must be a scalar", i);
    if (ge__ox_floats(ge_infer_input_value(c, (uint32_t)i), &fv[i], 1) != 1) known = 0;
  }
  if (known) {
    if (fv[2] == 0) return ge_infer_error(c, GE_ERR_SHAPE, "delta is 0");
    if (ge__ox_int_dtype(dt)) {
      for (i = 0; i < 3; i++) {
        ge__ox_ints(ge_infer_input_value(c, (uint32_t)i), &iv[i], 1);
        if (iv[i] > ((int64_t)1 << 62) || iv[i] < -((int64_t)1 << 62)) known = 0; /* keep the arithmetic exact */
      }
      if (known) {
        int64_t diff = iv[1] - iv[0], q = diff / iv[2];
        if (q * iv[2] != diff && ((diff > 0) == (iv[2] > 0))) q++;
        n = q < 0 ? 0 : q;
      }
    } else {
      double q = (fv[1] - fv[0]) / fv[2];
      if (!(q < 4e18))
        n = GE_DIM_UNKNOWN; /* NaN or absurdly long */
      else {
        n = q > 0 ? (int64_t)q : 0;
        if (q > 0 && (double)n < q) n++; /* ceil without libm */
      }
    }
  }
  ge__ox_dim(&o, 0, n);
  if ((st = ge__ox_out(c, 0, dt, &o))) return st;
  if (known && ge__ox_int_dtype(dt) && n >= 0 && n <= GE__OX_VMAX) {
    int64_t v[GE__OX_VMAX];
    for (k = 0; k < n; k++)
      v[k] = iv[0] + k * iv[2];
    return ge__ox_put_shape_ints(c, 0, dt, &o, v, n);
  }
  return GE_OK;
}

/* Resize (opset 10: X, scales; 11+: X, roi, scales, sizes) and Upsample
 * (X, scales, or attribute scales). */
static ge_status ge__ox_resize(ge_infer_ctx *c) {
  const ge_tensor_desc *dx = ge_infer_input(c, 0);
  int upsample = c->n->op[0] == 'U';
  uint32_t nin = ge_infer_num_inputs(c), si = upsample || nin == 2 ? 1 : 2;
  ge__ox_shape x, o;
  int64_t axes_v[GE_MAX_RANK], sizes[GE_MAX_RANK];
  double scales[GE_MAX_RANK];
  int32_t na, nsz = -1, nsc = -1, i, ax[GE_MAX_RANK];
  ge_status st;
  if (!dx) return GE_OK;
  ge__ox_load(&x, dx);
  if (x.rank < 0) return ge__ox_out_unknown(c, 0, dx->dtype);
  na = upsample ? -1 : ge__ox_attr_ints(c, "axes", axes_v, GE_MAX_RANK);
  if (na <= 0) {
    na = x.rank;
    for (i = 0; i < na; i++)
      axes_v[i] = i;
  }
  for (i = 0; i < na; i++)
    if ((st = ge__ox_axis(c, "axis", axes_v[i], x.rank, &ax[i]))) return st;
  if (!upsample && nin > 3) nsz = ge__ox_input_ints(c, 3, sizes, GE_MAX_RANK);
  if (ge_infer_input(c, si))
    nsc = ge__ox_floats(ge_infer_input_value(c, si), scales, GE_MAX_RANK);
  else if (upsample) {
    const ge_attr *a = ge_infer_attr(c, "scales");
    if (a && a->type == GE_ATTR_FLOATS && a->count <= GE_MAX_RANK)
      for (nsc = 0; nsc < a->count; nsc++)
        scales[nsc] = a->v.floats[nsc];
  }
  o = x;
  if (nsz > 0) {
    const char *pol = ge_infer_attr_string(c, "keep_aspect_ratio_policy", "stretch");
    double scale = strcmp(pol, "not_larger") == 0 ? 1e300 : 0;
    int keep = strcmp(pol, "stretch") != 0;
    if (nsz != na) return ge_infer_error(c, GE_ERR_SHAPE, "sizes has %d entries for %d axes", (int)nsz, (int)na);
    for (i = 0; keep && i < na; i++) {
      double r;
      if (x.d[ax[i]] <= 0) {
        scale = -1;
        break;
      }
      r = (double)sizes[i] / (double)x.d[ax[i]];
      if (strcmp(pol, "not_larger") == 0 ? r < scale : r > scale) scale = r;
    }
    for (i = 0; i < na; i++) {
      if (sizes[i] < 0) return ge_infer_error(c, GE_ERR_SHAPE, "sizes entry %d is negative", (int)i);
      if (!keep)
        ge__ox_dim(&o, ax[i], sizes[i]);
      else
        ge__ox_dim(&o, ax[i],
                   scale < 0 || !(scale * (double)x.d[ax[i]] < 4e18)
                       ? GE_DIM_UNKNOWN
                       : (int64_t)(scale * (double)x.d[ax[i]] + 0.5)); /* round half up */
    }
  } else if (nsc > 0) {
    if (nsc != na) return ge_infer_error(c, GE_ERR_SHAPE, "scales has %d entries for %d axes", (int)nsc, (int)na);
    for (i = 0; i < na; i++) {
      if (!(scales[i] > 0))
        return ge_infer_error(c, GE_ERR_SHAPE, "scale %g of axis %d is not positive", scales[i], (int)ax[i]);
      if (scales[i] != 1.0)
        ge__ox_dim(&o, ax[i],
                   x.d[ax[i]] < 0 || !((double)x.d[ax[i]] * scales[i] < 4e18)
                       ? GE_DIM_UNKNOWN
                       : (int64_t)((double)x.d[ax[i]] * scales[i])); /* >= 0: truncation is floor */
    }
  } else {
    for (i = 0; i < na; i++)
      ge__ox_dim(&o, ax[i], GE_DIM_UNKNOWN);
  }
  return ge__ox_out(c, 0, dx->dtype, &o);
}

/* DepthToSpace, SpaceToDepth on NCHW. */
static ge_status ge__ox_depth_space(ge_infer_ctx *c) {
  const ge_tensor_desc *dx = ge_infer_input(c, 0);
  int to_space = c->n->op[0] == 'D';
  int64_t b = ge_infer_attr_int(c, "blocksize", 0), bb;
  ge__ox_shape x, o;
  char s1[128];
  int32_t i;
  if (!dx) return GE_OK;
  if (b <= 0) return ge_infer_error(c, GE_ERR_INVALID, "blocksize must be positive, got %lld", (long long)b);
  if ((bb = ge__ox_mul(b, b)) < 0)
    return ge_infer_error(c, GE_ERR_INVALID, "blocksize %lld is too large", (long long)b);
  ge__ox_load(&x, dx);
  if (x.rank < 0) {
    ge__ox_unknown_dims(&o, 4);
    return ge__ox_out(c, 0, dx->dtype, &o);
  }
  if (x.rank != 4) return ge_infer_error(c, GE_ERR_SHAPE, "input %s is not 4-D", ge__ox_str(&x, s1, sizeof s1));
  o = x;
  if (to_space) {
    if (x.d[1] >= 0 && x.d[1] % bb)
      return ge_infer_error(c, GE_ERR_SHAPE, "channels %lld are not a multiple of blocksize^2 = %lld",
                            (long long)x.d[1], (long long)bb);
    ge__ox_dim(&o, 1, x.d[1] < 0 ? -1 : x.d[1] / bb);
    for (i = 2; i < 4; i++)
      ge__ox_dim(&o, i, ge__ox_mul(x.d[i], b));
  } else {
    for (i = 2; i < 4; i++)
      if (x.d[i] >= 0 && x.d[i] % b)
        return ge_infer_error(c, GE_ERR_SHAPE, "spatial dim %lld is not a multiple of blocksize %lld",
                              (long long)x.d[i], (long long)b);
    ge__ox_dim(&o, 1, ge__ox_mul(x.d[1], bb));
    for (i = 2; i < 4; i++)
      ge__ox_dim(&o, i, x.d[i] < 0 ? -1 : x.d[i] / b);
  }
  return ge__ox_out(c, 0, dx->dtype, &o);
}

static ge_status ge__ox_onehot(ge_infer_ctx *c) {
  const ge_tensor_desc *di = ge_infer_input(c, 0), *dv = ge_infer_input(c, 2);
  ge__ox_shape x, o;
  double depth;
  int64_t axis = ge_infer_attr_int(c, "axis", -1);
  int32_t a, i, j;
  ge_status st;
  if (!di || !dv) return GE_OK;
  ge__ox_load(&x, di);
  if (x.rank < 0) return ge__ox_out_unknown(c, 0, dv->dtype);
  if (x.rank + 1 > GE_MAX_RANK) return ge_infer_error(c, GE_ERR_UNSUPPORTED, "output rank exceeds %d", GE_MAX_RANK);
  if ((st = ge__ox_axis(c, "axis", axis, x.rank + 1, &a))) return st;
  o.rank = 0;
  for (i = 0, j = 0; i <= x.rank; i++) {
    if (i == a) {
      int64_t dd = GE_DIM_UNKNOWN;
      if (ge__ox_floats(ge_infer_input_value(c, 1), &depth, 1) == 1) {
        if (!(depth >= 1 && depth < 4e18))
          return ge_infer_error(c, GE_ERR_SHAPE, "depth %g is not a valid size", depth);
        dd = (int64_t)depth;
      }
      ge__ox_dim(&o, o.rank++, dd);
    } else {
      ge__ox_push(&o, &x, j++);
    }
  }
  return ge__ox_out(c, 0, dv->dtype, &o);
}

static ge_status ge__ox_topk(ge_infer_ctx *c) {
  const ge_tensor_desc *dx = ge_infer_input(c, 0);
  ge__ox_shape o;
  int64_t k = GE_DIM_UNKNOWN;
  int32_t a;
  ge_status st;
  if (!dx) return GE_OK;
  ge__ox_load(&o, dx);
  if (ge_infer_input(c, 1)) {
    if (ge__ox_input_ints(c, 1, &k, 1) != 1) k = GE_DIM_UNKNOWN;
  } else {
    k = ge_infer_attr_int(c, "k", GE_DIM_UNKNOWN);
  }
  if (o.rank >= 0) {
    if ((st = ge__ox_axis(c, "axis", ge_infer_attr_int(c, "axis", -1), o.rank, &a))) return st;
    if (k < GE_DIM_UNKNOWN) return ge_infer_error(c, GE_ERR_SHAPE, "k = %lld is negative", (long long)k);
    if (k >= 0 && o.d[a] >= 0 && k > o.d[a])
      return ge_infer_error(c, GE_ERR_SHAPE, "k = %lld exceeds axis %d of size %lld", (long long)k, (int)a,
                            (long long)o.d[a]);
    if (!(k >= 0 && k == o.d[a])) ge__ox_dim(&o, a, k);
  }
  if ((st = ge__ox_out(c, 0, dx->dtype, &o))) return st;
  return ge__ox_out(c, 1, GE_DTYPE_INT64, &o);
}

static ge_status ge__ox_nonzero(ge_infer_ctx *c) {
  const ge_tensor_desc *dx = ge_infer_input(c, 0);
  ge__ox_shape o;
  if (!dx) return GE_OK;
  o.rank = 2;
  ge__ox_dim(&o, 0, dx->shape.rank >= 0 ? dx->shape.rank : GE_DIM_UNKNOWN);
  ge__ox_dim(&o, 1, GE_DIM_UNKNOWN);
  return ge__ox_out(c, 0, GE_DTYPE_INT64, &o);
}

/* Einsum: labels bound per input term, the ellipsis broadcast; explicit
 * ("->") or implicit (ellipsis, then labels seen once, sorted) output. */
static ge_status ge__ox_einsum(ge_infer_ctx *c) {
  const char *eq = ge_infer_attr_string(c, "equation", NULL), *p;
  int64_t ld[128];
  ge_dim_info li[128];
  int count[128];
  ge__ox_shape ell, o;
  int ell_unknown = 0, ell_seen = 0;
  uint32_t k = 0, nin = ge_infer_num_inputs(c);
  ge_dtype dt = ge__ox_dtype(c, 0);
  int i;
  char s1[128];
  if (!eq) return ge_infer_error(c, GE_ERR_INVALID, "attribute 'equation' is missing");
  for (i = 0; i < 128; i++)
    ld[i] = -2, li[i] = ge__ox_none, count[i] = 0;
  ell.rank = 0;
  p = eq;
  /* input terms */
  for (;;) {
    const ge_tensor_desc *d = ge_infer_input(c, k);
    ge__ox_shape x;
    int32_t nl = 0, pos = 0, ell_dims = 0;
    int has_ell = 0;
    const char *q;
    while (*p == ' ')
      p++;
    for (q = p; *q && *q != ',' && *q != '-'; q++) {
      if (*q == '.') {
        if (q[1] != '.' || q[2] != '.' || has_ell)
          return ge_infer_error(c, GE_ERR_INVALID, "bad ellipsis in equation '%s'", eq);
        has_ell = 1;
        q += 2;
      } else if ((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z')) {
        nl++;
      } else if (*q != ' ') {
        return ge_infer_error(c, GE_ERR_INVALID, "bad character '%c' in equation '%s'", *q, eq);
      }
    }
    if (k >= nin)
      return ge_infer_error(c, GE_ERR_INVALID, "equation '%s' has more terms than the %u inputs", eq, (unsigned)nin);
    ge__ox_load(&x, d);
    if (x.rank >= 0) {
      ell_dims = x.rank - nl;
      if (ell_dims < 0 || (!has_ell && ell_dims))
        return ge_infer_error(c, GE_ERR_SHAPE, "term %u of '%s' has %d labels but input %s has rank %d", (unsigned)k,
                              eq, (int)nl, ge__ox_str(&x, s1, sizeof s1), (int)x.rank);
    } else if (has_ell) {
      ell_unknown = 1;
    }
    for (; p < q; p++) {
      if (*p == '.') {
        if (x.rank >= 0) {
          ge__ox_shape sub, tmp;
          ge_shape va, vb;
          sub.rank = 0;
          for (i = 0; i < ell_dims; i++)
            ge__ox_push(&sub, &x, pos + i);
          va = ge__ox_view(&ell);
          vb = ge__ox_view(&sub);
          tmp.rank = ge_shape_broadcast(&va, &vb, tmp.d, tmp.x);
          if (tmp.rank < 0)
            return ge_infer_error(c, GE_ERR_SHAPE, "ellipsis dims of input %u do not broadcast", (unsigned)k);
          ell = tmp;
          pos += ell_dims;
        }
        ell_seen = 1;
        p += 2;
      } else if (*p != ' ') {
        int l = (unsigned char)*p;
        count[l]++;
        if (x.rank >= 0) {
          int64_t v = x.d[pos];
          if (ld[l] == -2 || (ld[l] == -1 && (v >= 0 || (!li[l].symbol && x.x[pos].symbol))) ||
              (ld[l] == 1 && v != 1)) {
            ld[l] = v; /* first sight, or better known than before */
            li[l] = x.x[pos];
          } else if (ld[l] >= 0 && v >= 0 && v != 1 && v != ld[l]) {
            return ge_infer_error(c, GE_ERR_SHAPE, "label '%c' is %lld in input %u but %lld before", *p, (long long)v,
                                  (unsigned)k, (long long)ld[l]);
          }
          pos++;
        } else if (ld[l] == -2) {
          ld[l] = GE_DIM_UNKNOWN;
        }
      }
    }
    k++;
    if (*p == ',') {
      p++;
      continue;
    }
    break;
  }
  if (k != nin)
    return ge_infer_error(c, GE_ERR_INVALID, "equation '%s' has %u terms for %u inputs", eq, (unsigned)k,
                          (unsigned)nin);
  o.rank = 0;
  if (*p == '-') {
    if (p[1] != '>') return ge_infer_error(c, GE_ERR_INVALID, "bad equation '%s'", eq);
    for (p += 2; *p; p++) {
      if (*p == ' ') continue;
      if (*p == '.') {
        if (p[1] != '.' || p[2] != '.') return ge_infer_error(c, GE_ERR_INVALID, "bad ellipsis in equation '%s'", eq);
        if (ell_unknown) return ge__ox_out_unknown(c, 0, dt);
        if (o.rank + ell.rank > GE_MAX_RANK)
          return ge_infer_error(c, GE_ERR_UNSUPPORTED, "output rank exceeds %d", GE_MAX_RANK);
        for (i = 0; i < ell.rank; i++)
          ge__ox_push(&o, &ell, i);
        p += 2;
      } else {
        int l = (unsigned char)*p;
        if (l >= 128 || !count[l])
          return ge_infer_error(c, GE_ERR_INVALID, "output label '%c' of '%s' is not in any input", *p, eq);
        if (o.rank >= GE_MAX_RANK) return ge_infer_error(c, GE_ERR_UNSUPPORTED, "output rank exceeds %d", GE_MAX_RANK);
        o.d[o.rank] = ld[l] < 0 ? GE_DIM_UNKNOWN : ld[l];
        o.x[o.rank++] = li[l];
      }
    }
  } else {
    if (ell_seen) {
      if (ell_unknown) return ge__ox_out_unknown(c, 0, dt);
      for (i = 0; i < ell.rank; i++)
        ge__ox_push(&o, &ell, i);
    }
    for (i = 0; i < 128; i++)
      if (count[i] == 1) {
        if (o.rank >= GE_MAX_RANK) return ge_infer_error(c, GE_ERR_UNSUPPORTED, "output rank exceeds %d", GE_MAX_RANK);
        o.d[o.rank] = ld[i] < 0 ? GE_DIM_UNKNOWN : ld[i];
        o.x[o.rank++] = li[i];
      }
  }
  return ge__ox_out(c, 0, dt, &o);
}

/* ----------------------------------------------------- normalizations */

/* Checks that input `in` (a per-channel vector) has C = dim 1 of X. */
static ge_status ge__ox_check_channels(ge_infer_ctx *c, uint32_t in, const char *what) {
  const ge_tensor_desc *dx = ge_infer_input(c, 0), *dp = ge_infer_input(c, in);
  if (!dx || !dp || dx->shape.rank < 2 || dp->shape.rank != 1) return GE_OK;
  if (dx->shape.dims[1] >= 0 && dp->shape.dims[0] >= 0 && dx->shape.dims[1] != dp->shape.dims[0])
    return ge_infer_error(c, GE_ERR_SHAPE, "%s has %lld elements for %lld channels", what, (long long)dp->shape.dims[0],
                          (long long)dx->shape.dims[1]);
  return GE_OK;
}

static ge_status ge__ox_batchnorm(ge_infer_ctx *c) {
  const ge_tensor_desc *dx = ge_infer_input(c, 0), *dm = ge_infer_input(c, 3);
  ge__ox_shape ch;
  uint32_t i;
  ge_status st;
  if (!dx) return GE_OK;
  if ((st = ge__ox_check_channels(c, 1, "scale")) || (st = ge__ox_check_channels(c, 2, "B")) ||
      (st = ge__ox_check_channels(c, 3, "mean")) || (st = ge__ox_check_channels(c, 4, "var")))
    return st;
  if ((st = ge__infer_same(c))) return st;
  ch.rank = 1;
  ge__ox_dim(&ch, 0, dx->shape.rank >= 2 ? dx->shape.dims[1] : GE_DIM_UNKNOWN);
  for (i = 1; i < c->n->num_outputs; i++)
    if ((st = ge__ox_out(c, i, dm ? dm->dtype : dx->dtype, &ch))) return st;
  return GE_OK;
}

static ge_status ge__ox_layernorm(ge_infer_ctx *c) {
  const ge_tensor_desc *dx = ge_infer_input(c, 0);
  int64_t stash = ge_infer_attr_int(c, "stash_type", 1);
  ge_dtype ut = stash > 0 && stash < GE_DTYPE_COUNT ? (ge_dtype)stash : GE_DTYPE_FLOAT32;
  ge__ox_shape o;
  int32_t a, i;
  ge_status st;
  if (!dx) return GE_OK;
  if ((st = ge__infer_same(c))) return st;
  ge__ox_load(&o, dx);
  if (o.rank >= 0) {
    if ((st = ge__ox_axis(c, "axis", ge_infer_attr_int(c, "axis", -1), o.rank, &a))) return st;
    for (i = a; i < o.rank; i++)
      ge__ox_dim(&o, i, 1);
  }
  if ((st = ge__ox_out(c, 1, ut, &o))) return st;
  return ge__ox_out(c, 2, ut, &o);
}

static ge_status ge__ox_instnorm(ge_infer_ctx *c) {
  ge_status st;
  if ((st = ge__ox_check_channels(c, 1, "scale")) || (st = ge__ox_check_channels(c, 2, "B"))) return st;
  return ge__infer_same(c);
}

/* PRelu: the output has X's shape; the slope broadcasts to X one way, or
 * (before opset 7) is a per-channel vector [C] against X [N, C, ...]. */
static ge_status ge__infer_prelu(ge_infer_ctx *c) {
  const ge_tensor_desc *x = ge_infer_input(c, 0), *slope = ge_infer_input(c, 1);
  int64_t dims[GE_MAX_RANK];
  ge_dim_info info[GE_MAX_RANK];
  if (!x) return GE_OK;
  if (slope && ge_shape_broadcast(&x->shape, &slope->shape, dims, info) == -1 &&
      !(x->shape.rank >= 2 && slope->shape.rank == 1 && slope->shape.dims[0] == x->shape.dims[1])) {
    char a[128], b[128];
    return ge_infer_error(c, GE_ERR_SHAPE, "slope %s does not broadcast to X %s", ge_shape_str(&slope->shape, a, sizeof a),
                          ge_shape_str(&x->shape, b, sizeof b));
  }
  return ge_infer_copy_output(c, 0, x);
}

/* ---- DVPP image ops: shape inference ---- */

/* ImageDecoder (ONNX opset 20): uint8 1-D bytes -> uint8 [H, W, C]; H and W
 * are known only once decoded, C is 3 (RGB, BGR) or 1 (Grayscale). */
static ge_status ge__infer_image_decoder(ge_infer_ctx *c) {
  const ge_tensor_desc *d = ge_infer_input(c, 0);
  const char *pf = ge_infer_attr_string(c, "pixel_format", "RGB");
  int64_t dims[3] = {GE_DIM_UNKNOWN, GE_DIM_UNKNOWN, 3};
  if (!strcmp(pf, "Grayscale")) dims[2] = 1;
  else if (strcmp(pf, "RGB") && strcmp(pf, "BGR"))
    return ge_infer_error(c, GE_ERR_INVALID, "pixel_format '%s' is not RGB, BGR or Grayscale", pf);
  if (d && d->shape.rank >= 0 && d->shape.rank != 1)
    return ge_infer_error(c, GE_ERR_SHAPE, "encoded_stream must be 1-D, got rank %d", (int)d->shape.rank);
  return ge_infer_set_output(c, 0, GE_DTYPE_UINT8, 3, dims, NULL);
}

/* ImageCrop: [H, W, C] or [N, H, W, C] -> the size[0] x size[1] window at
 * offsets [top, left]; a window past the image's known edge is an error. */
static ge_status ge__infer_image_crop(ge_infer_ctx *c) {
  static const char *const what[2] = {"rows", "columns"};
  const ge_tensor_desc *d = ge_infer_input(c, 0);
  const int64_t *a;
  int64_t off[2], size[2];
  int32_t i;
  ge__ox_shape x;
  char s1[128];
  if (ge_infer_attr_ints(c, "offsets", &a) != 2)
    return ge_infer_error(c, GE_ERR_INVALID, "offsets must hold 2 values [top, left]");
  off[0] = a[0], off[1] = a[1];
  if (ge_infer_attr_ints(c, "size", &a) != 2)
    return ge_infer_error(c, GE_ERR_INVALID, "size must hold 2 values [height, width]");
  size[0] = a[0], size[1] = a[1];
  for (i = 0; i < 2; i++) {
    if (off[i] < 0) return ge_infer_error(c, GE_ERR_INVALID, "offsets must be >= 0, got %lld", (long long)off[i]);
    if (size[i] <= 0) return ge_infer_error(c, GE_ERR_INVALID, "size must be > 0, got %lld", (long long)size[i]);
  }
  if (!d) return GE_OK;
  ge__ox_load(&x, d);
  if (x.rank < 0) return ge__ox_out_unknown(c, 0, d->dtype);
  if (x.rank != 3 && x.rank != 4)
    return ge_infer_error(c, GE_ERR_SHAPE, "input %s is not [H, W, C] or [N, H, W, C]", ge__ox_str(&x, s1, sizeof s1));
  for (i = 0; i < 2; i++) {
    int32_t ax = x.rank - 3 + i;
    if (x.d[ax] >= 0 && (off[i] > x.d[ax] || size[i] > x.d[ax] - off[i]))
      return ge_infer_error(c, GE_ERR_SHAPE, "crop %s %lld..%lld lie outside the %lld of input %s", what[i],
                            (long long)off[i], (long long)(off[i] + size[i] - 1), (long long)x.d[ax],
                            ge__ox_str(&x, s1, sizeof s1));
    ge__ox_dim(&x, ax, size[i]);
  }
  return ge__ox_out(c, 0, d->dtype, &x);
}

/* ColorConvert: [..., H, W, C] -> [..., H, W, C'] by attribute conversion. */
static ge_status ge__infer_color_convert(ge_infer_ctx *c) {
  static const char *const names[7] = {"RGB2BGR", "BGR2RGB", "RGB2GRAY", "BGR2GRAY", "GRAY2RGB", "YUV2RGB", "RGB2YUV"};
  static const int8_t cin[7] = {3, 3, 3, 3, 1, 3, 3}, cout[7] = {3, 3, 1, 1, 3, 3, 3};
  const ge_tensor_desc *d = ge_infer_input(c, 0);
  const char *conv = ge_infer_attr_string(c, "conversion", NULL);
  int k = 0;
  ge__ox_shape x;
  char s1[128];
  while (conv && k < 7 && strcmp(conv, names[k])) k++;
  if (!conv || k == 7)
    return ge_infer_error(c, GE_ERR_INVALID,
                          "unknown conversion '%s' (RGB2BGR, BGR2RGB, RGB2GRAY, BGR2GRAY, GRAY2RGB, YUV2RGB, RGB2YUV)",
                          conv ? conv : "(missing)");
  if (!d) return GE_OK;
  ge__ox_load(&x, d);
  if (x.rank < 0) return ge__ox_out_unknown(c, 0, d->dtype);
  if (x.rank < 3) return ge_infer_error(c, GE_ERR_SHAPE, "input %s is not [..., H, W, C]", ge__ox_str(&x, s1, sizeof s1));
  if (x.d[x.rank - 1] >= 0 && x.d[x.rank - 1] != cin[k])
    return ge_infer_error(c, GE_ERR_SHAPE, "%s needs %d channels, input %s has %lld", conv, (int)cin[k],
                          ge__ox_str(&x, s1, sizeof s1), (long long)x.d[x.rank - 1]);
  ge__ox_dim(&x, x.rank - 1, cout[k]);
  return ge__ox_out(c, 0, d->dtype, &x);
}

/* ---- random and collective ops: shape inference ---- */

/* Random ops (ONNX RandomUniform, RandomNormal, their Like forms,
 * Bernoulli, Multinomial; the DSA engine runs them). Output dtypes: float16,
 * float32 or float64 for the generators; Bernoulli also bool, integers and
 * bfloat16 (0/1 values); Multinomial int32 or int64. */
#define GE__RND_FLOATS (GE_DTYPE_BIT(GE_DTYPE_FLOAT16) | GE_DTYPE_BIT(GE_DTYPE_FLOAT32) | GE_DTYPE_BIT(GE_DTYPE_FLOAT64))
#define GE__RND_BERNOULLI (GE_DTYPES_NUMERIC | GE_DTYPE_BIT(GE_DTYPE_BOOL))

/* The output dtype from attribute dtype (dflt when absent), checked against
 * the mask; *out is UNDEFINED when dflt is and the attribute is absent. */
static ge_status ge__infer_rnd_dtype(ge_infer_ctx *c, int64_t dflt, uint32_t mask, const char *allowed, ge_dtype *out) {
  int64_t dt = ge_infer_attr_int(c, "dtype", dflt);
  *out = GE_DTYPE_UNDEFINED;
  if (dt == GE_DTYPE_UNDEFINED && dflt == GE_DTYPE_UNDEFINED) return GE_OK;
  if (dt <= 0 || dt >= GE_DTYPE_COUNT || !(mask & GE_DTYPE_BIT(dt)))
    return ge_infer_error(c, GE_ERR_SHAPE, "output dtype %s is not %s",
                          dt > 0 && dt < GE_DTYPE_COUNT ? ge_dtype_name((ge_dtype)dt) : "invalid", allowed);
  *out = (ge_dtype)dt;
  return GE_OK;
}

/* The input must be float16, float32 or float64 (Bernoulli, Multinomial). */
static ge_status ge__infer_rnd_float_input(ge_infer_ctx *c, const ge_tensor_desc *x) {
  if (x->dtype != GE_DTYPE_UNDEFINED && !(GE__RND_FLOATS & GE_DTYPE_BIT(x->dtype)))
    return ge_infer_error(c, GE_ERR_SHAPE, "input dtype %s is not float16, float32 or float64", ge_dtype_name(x->dtype));
  return GE_OK;
}

/* RandomUniform, RandomNormal: the shape attribute. */
static ge_status ge__infer_random(ge_infer_ctx *c) {
  const int64_t *shape = NULL;
  int32_t n = ge_infer_attr_ints(c, "shape", &shape), i;
  ge__ox_shape o;
  ge_dtype dt;
  ge_status st;
  if ((st = ge__infer_rnd_dtype(c, GE_DTYPE_FLOAT32, GE__RND_FLOATS, "float16, float32 or float64", &dt))) return st;
  if (n < 0) return ge_infer_error(c, GE_ERR_INVALID, "attribute 'shape' is missing");
  if (n > GE_MAX_RANK) return ge_infer_error(c, GE_ERR_UNSUPPORTED, "output rank %d exceeds %d", (int)n, GE_MAX_RANK);
  o.rank = n;
  for (i = 0; i < n; i++) {
    if (shape[i] < 0) return ge_infer_error(c, GE_ERR_SHAPE, "shape entry %d is negative (%lld)", (int)i, (long long)shape[i]);
    ge__ox_dim(&o, i, shape[i]);
  }
  return ge__ox_out(c, 0, dt, &o);
}

/* RandomUniformLike, RandomNormalLike, Bernoulli: input 0's shape; dtype
 * from the attribute, else the input's. */
static ge_status ge__infer_random_like(ge_infer_ctx *c) {
  const ge_tensor_desc *x = ge_infer_input(c, 0);
  int bern = strcmp(c->n->op, "Bernoulli") == 0;
  ge_tensor_desc d;
  ge_status st;
  if (!x) return GE_OK;
  if (bern && (st = ge__infer_rnd_float_input(c, x))) return st;
  d = *x;
  if ((st = ge__infer_rnd_dtype(c, x->dtype, bern ? GE__RND_BERNOULLI : GE__RND_FLOATS,
                                bern ? "numeric or bool" : "float16, float32 or float64", &d.dtype)))
    return st;
  return ge_infer_copy_output(c, 0, &d);
}

/* Multinomial: [batch_size, class_size] -> [batch_size, sample_size]. */
static ge_status ge__infer_multinomial(ge_infer_ctx *c) {
  const ge_tensor_desc *x = ge_infer_input(c, 0);
  int64_t ss = ge_infer_attr_int(c, "sample_size", 1);
  ge__ox_shape o, in;
  ge_dtype dt;
  ge_status st;
  if (!x) return GE_OK;
  if ((st = ge__infer_rnd_float_input(c, x))) return st;
  if ((st = ge__infer_rnd_dtype(c, GE_DTYPE_INT32, GE_DTYPE_BIT(GE_DTYPE_INT32) | GE_DTYPE_BIT(GE_DTYPE_INT64),
                                "int32 or int64", &dt)))
    return st;
  if (ss < 1) return ge_infer_error(c, GE_ERR_INVALID, "sample_size %lld is below 1", (long long)ss);
  if (x->shape.rank >= 0 && x->shape.rank != 2)
    return ge_infer_error(c, GE_ERR_SHAPE, "input has rank %d, expected 2 ([batch_size, class_size])", (int)x->shape.rank);
  ge__ox_load(&in, x);
  o.rank = 2;
  if (in.rank == 2) {
    o.d[0] = in.d[0];
    o.x[0] = in.x[0];
  } else {
    ge__ox_dim(&o, 0, GE_DIM_UNKNOWN);
  }
  ge__ox_dim(&o, 1, ss);
  return ge__ox_out(c, 0, dt, &o);
}

/* Collectives (the HCCL engine runs them): attributes rank_size (>= 1),
 * group, reduction (sum, prod, max, min) and root_rank (0..rank_size-1). */
static ge_status ge__infer_coll_attrs(ge_infer_ctx *c, int64_t *rank_size) {
  int64_t rs = ge_infer_attr_int(c, "rank_size", 1), root = ge_infer_attr_int(c, "root_rank", 0);
  const char *red = ge_infer_attr_string(c, "reduction", NULL);
  *rank_size = rs;
  if (rs < 1) return ge_infer_error(c, GE_ERR_INVALID, "rank_size %lld is not positive", (long long)rs);
  if (red && strcmp(red, "sum") && strcmp(red, "prod") && strcmp(red, "max") && strcmp(red, "min"))
    return ge_infer_error(c, GE_ERR_INVALID, "reduction '%s' is not sum, prod, max or min", red);
  if (root < 0 || root >= rs)
    return ge_infer_error(c, GE_ERR_INVALID, "root_rank %lld is not a rank of %lld", (long long)root, (long long)rs);
  return GE_OK;
}

/* AllReduce: output like the input; Broadcast: output i like input i. */
static ge_status ge__infer_all_reduce(ge_infer_ctx *c) {
  int64_t rs;
  ge_status st;
  if ((st = ge__infer_coll_attrs(c, &rs))) return st;
  return strcmp(c->n->op, "Broadcast") == 0 ? ge__infer_passthrough(c) : ge__infer_same(c);
}

/* AllGather (concatenation along axis 0): dim 0 times rank_size;
 * ReduceScatter: dim 0 divided by rank_size, which must divide it. */
static ge_status ge__infer_gather_scatter(ge_infer_ctx *c) {
  const ge_tensor_desc *x = ge_infer_input(c, 0);
  int gather = strcmp(c->n->op, "AllGather") == 0;
  int64_t rs;
  ge__ox_shape o;
  ge_status st;
  if ((st = ge__infer_coll_attrs(c, &rs))) return st;
  if (!x) return GE_OK;
  ge__ox_load(&o, x);
  if (o.rank == 0) return ge_infer_error(c, GE_ERR_SHAPE, "a scalar has no axis 0 to %s along", gather ? "gather" : "scatter");
  if (o.rank > 0 && o.d[0] >= 0 && rs != 1) {
    if (gather && o.d[0] > INT64_MAX / rs)
      return ge_infer_error(c, GE_ERR_SHAPE, "dim 0 (%lld) times rank_size %lld overflows", (long long)o.d[0], (long long)rs);
    if (!gather && o.d[0] % rs)
      return ge_infer_error(c, GE_ERR_SHAPE, "dim 0 (%lld) is not divisible by rank_size %lld", (long long)o.d[0], (long long)rs);
    ge__ox_dim(&o, 0, gather ? o.d[0] * rs : o.d[0] / rs);
  } else if (o.rank > 0 && rs != 1) {
    ge__ox_dim(&o, 0, GE_DIM_UNKNOWN);
  }
  return ge__ox_out(c, 0, x->dtype, &o);
}

/* ---- control flow (If, Loop, Scan) and recurrent ops ----
 * A body is inferred with its formal inputs bound to what the node feeds
 * them, so the nodes inside get ranks and dims (and reach the fast
 * engines); the node's outputs are then read off the body's results. */

/* The graph held by attribute `name` of the node being inferred, or NULL. */
static ge_graph *ge__cf_graph(ge_infer_ctx *c, const char *name) {
  const ge_attr *a = ge_node_attr(c->n, name);
  return a && a->type == GE_ATTR_GRAPH ? a->v.g : NULL;
}

/* The desc of result i of subgraph g (input i of its NetOutput), or NULL. */
static const ge_tensor_desc *ge__cf_result(const ge_graph *g, uint32_t i) {
  ge_node_id o = ge_graph_output_node(g);
  const ge_node *n = o == GE_NONE ? NULL : ge_graph_node(g, o);
  return n && i < n->num_inputs ? ge_node_input_desc(g, n, i) : NULL;
}

static uint32_t ge__cf_num_results(const ge_graph *g) {
  ge_node_id o = ge_graph_output_node(g);
  return o == GE_NONE ? 0 : ge_graph_node(g, o)->num_inputs;
}

/* Narrows a to what both a and b admit: equal dims stay, differing ones
 * become unknown (with the union of their ranges, a symbol only when both
 * name it), differing ranks give an unknown rank. 1 when a changed. */
static int ge__cf_merge(ge__ox_shape *a, const ge__ox_shape *b) {
  int32_t i;
  int changed = 0;
  if (a->rank < 0) return 0;
  if (b->rank != a->rank) {
    a->rank = GE_RANK_UNKNOWN;
    return 1;
  }
  for (i = 0; i < a->rank; i++) {
    ge_dim_info *x = &a->x[i];
    const ge_dim_info *y = &b->x[i];
    if (a->d[i] >= 0 && a->d[i] == b->d[i]) continue;
    if (a->d[i] >= 0) { /* known here, something else there: keep the range of both */
      int64_t lo = b->d[i] >= 0 ? b->d[i] : y->lo, hi = b->d[i] >= 0 ? b->d[i] : y->hi;
      x->lo = lo < a->d[i] ? lo : a->d[i];
      x->hi = hi < 0 ? -1 : hi > a->d[i] ? hi : a->d[i];
      x->symbol = NULL;
      a->d[i] = GE_DIM_UNKNOWN;
      changed = 1;
      continue;
    }
    if (b->d[i] >= 0) {
      if (x->lo > b->d[i]) x->lo = b->d[i], changed = 1;
      if (x->hi >= 0 && x->hi < b->d[i]) x->hi = b->d[i], changed = 1;
      if (x->symbol) x->symbol = NULL, changed = 1;
      continue;
    }
    if (y->lo < x->lo) x->lo = y->lo, changed = 1;
    if (x->hi >= 0 && (y->hi < 0 || y->hi > x->hi)) x->hi = y->hi, changed = 1;
    if (x->symbol && (!y->symbol || strcmp(x->symbol, y->symbol) != 0)) x->symbol = NULL, changed = 1;
  }
  return changed;
}

/* A dtype both sides agree on: an undefined side takes the other's. */
static ge_dtype ge__cf_dtype(ge_dtype a, ge_dtype b) { return a == GE_DTYPE_UNDEFINED ? b : a; }

/* Gives formal input d of subgraph sub the dtype and shape of a value (no
 * known constant: it changes between iterations). */
static ge_status ge__cf_bind(ge_infer_ctx *c, ge_graph *sub, ge_node_id id, ge_dtype dt, const ge__ox_shape *s) {
  ge_node *d = ge_graph_node(sub, id);
  if (!d || !d->num_outputs) return GE_OK;
  if (dt != GE_DTYPE_UNDEFINED) d->outputs[0].dtype = dt;
  d->outputs[0].value = NULL;
  if (!ge__set_shape(sub, &d->outputs[0].shape, s->rank, s->rank < 0 ? NULL : s->d, s->rank < 0 ? NULL : s->x))
    return ge__oom(c->err, sub);
  return GE_OK;
}

/* If: both branches inferred on the node's inputs (parent_index); output i
 * is what both branches' result i admit (ge__cf_merge), or the taken
 * branch's result when the condition is a known constant. */
static ge_status ge__infer_if(ge_infer_ctx *c) {
  ge_graph *br[2];
  const ge_tensor *cond;
  uint32_t i, k;
  int taken = -1;
  ge_status st;
  br[0] = ge__cf_graph(c, "then_branch");
  br[1] = ge__cf_graph(c, "else_branch");
  if (!br[0] || !br[1]) return GE_OK;
  for (k = 0; k < 2; k++)
    if ((st = ge_infer_subgraph(c, br[k]))) return st;
  if (ge__cf_num_results(br[0]) != ge__cf_num_results(br[1]) || ge__cf_num_results(br[0]) != c->n->num_outputs)
    return ge_infer_error(c, GE_ERR_INVALID, "then_branch returns %u values and else_branch %u, for %u outputs",
                          (unsigned)ge__cf_num_results(br[0]), (unsigned)ge__cf_num_results(br[1]),
                          (unsigned)c->n->num_outputs);
  cond = ge_infer_input_value(c, 0);
  if (cond && cond->data && ge_tensor_numel(cond) == 1 && ge_dtype_size(cond->dtype) == 1)
    taken = ((const uint8_t *)cond->data)[0] ? 0 : 1; /* a known condition: only that branch runs */
  for (i = 0; i < c->n->num_outputs; i++) {
    const ge_tensor_desc *a = ge__cf_result(br[taken < 0 ? 0 : taken], i), *b = ge__cf_result(br[taken < 0 ? 1 : taken], i);
    ge__ox_shape s, t;
    ge__ox_load(&s, a);
    ge__ox_load(&t, b);
    ge__cf_merge(&s, &t);
    if ((st = ge__ox_out(c, i, ge__cf_dtype(a ? a->dtype : GE_DTYPE_UNDEFINED, b ? b->dtype : GE_DTYPE_UNDEFINED), &s)))
      return st;
  }
  return GE_OK;
}

#define GE__CF_MAX_STATE 64
#define GE__CF_ROUNDS 4

/* Infers a loop body whose formal inputs first[0..n) carry state from one
 * iteration to the next (the body's results res_first.. return it): they
 * start as the node's inputs in_first.. and are widened (ge__cf_merge) by
 * what the body returns until nothing changes; after GE__CF_ROUNDS rounds
 * the state still changing gets an unknown rank. state[0..n) ends as the
 * shapes that hold in every iteration. */
static ge_status ge__cf_fixpoint(ge_infer_ctx *c, ge_graph *body, const ge_node_id *first, uint32_t n,
                                 uint32_t in_first, uint32_t res_first, ge__ox_shape *state, ge_dtype *dts) {
  uint32_t i, round;
  ge_status st;
  for (i = 0; i < n; i++) {
    const ge_tensor_desc *x = ge_infer_input(c, in_first + i);
    ge__ox_load(&state[i], x);
    dts[i] = x ? x->dtype : GE_DTYPE_UNDEFINED;
  }
  for (round = 0;; round++) {
    int changed = 0;
    for (i = 0; i < n; i++)
      if ((st = ge__cf_bind(c, body, first[i], dts[i], &state[i]))) return st;
    if ((st = ge_infer_subgraph(c, body))) return st;
    for (i = 0; i < n; i++) {
      const ge_tensor_desc *r = ge__cf_result(body, res_first + i);
      ge__ox_shape t;
      ge__ox_load(&t, r);
      if (ge__cf_merge(&state[i], &t)) {
        if (round + 1 >= GE__CF_ROUNDS) state[i].rank = GE_RANK_UNKNOWN; /* stable from here */
        changed = 1;
      }
      dts[i] = ge__cf_dtype(dts[i], r ? r->dtype : GE_DTYPE_UNDEFINED);
    }
    if (!changed) return GE_OK;
  }
}

/* The body's formal inputs (Data with index) in order; an error unless
 * they are 0..n-1 with n in [lo, cap]. */
static ge_status ge__cf_formals(ge_infer_ctx *c, const ge_graph *body, uint32_t lo, ge_node_id *ids, uint32_t cap,
                                uint32_t *n) {
  uint32_t i;
  *n = ge_graph_inputs(body, NULL, 0);
  if (*n < lo || *n > cap) return ge_infer_error(c, GE_ERR_INVALID, "body takes %u inputs", (unsigned)*n);
  for (i = 0; i < *n; i++) ids[i] = GE_NONE;
  ge_graph_inputs(body, ids, *n);
  for (i = 0; i < *n; i++)
    if (ids[i] == GE_NONE) return ge_infer_error(c, GE_ERR_INVALID, "body input %u is missing", (unsigned)i);
  return GE_OK;
}

/* Loop: inputs M, cond, v...; body (iter, cond, v...) -> (cond, v...,
 * scans...). Carried values keep the shape that holds in every iteration;
 * a scan output is the body's slice with an unknown leading dim. */
static ge_status ge__infer_loop(ge_infer_ctx *c) {
  ge_graph *body = ge__cf_graph(c, "body");
  ge_node_id ids[GE__CF_MAX_STATE + 2];
  ge__ox_shape *state = NULL, scalar;
  ge_dtype dts[GE__CF_MAX_STATE + 1];
  uint32_t n_formal, n_carried, n_res, i;
  ge_status st;
  if (!body) return GE_OK;
  if ((st = ge__cf_formals(c, body, 2, ids, GE__CF_MAX_STATE + 2, &n_formal))) return st;
  n_carried = n_formal - 2;
  n_res = ge__cf_num_results(body);
  if (n_formal > c->n->num_inputs || n_res < 1 + n_carried || c->n->num_outputs != n_res - 1)
    return ge_infer_error(c, GE_ERR_INVALID, "body takes %u inputs and returns %u values for %u inputs and %u outputs",
                          (unsigned)n_formal, (unsigned)n_res, (unsigned)c->n->num_inputs, (unsigned)c->n->num_outputs);
  scalar.rank = 0; /* the executor passes iter and cond as scalars */
  if ((st = ge__cf_bind(c, body, ids[0], GE_DTYPE_INT64, &scalar)) || (st = ge__cf_bind(c, body, ids[1], GE_DTYPE_BOOL, &scalar)))
    return st;
  state = (ge__ox_shape *)ge__mem_alloc(&c->g->arena.a, (GE__CF_MAX_STATE + 1) * sizeof *state);
  if (!state) return ge__oom(c->err, c->g);
  st = ge__cf_fixpoint(c, body, ids + 2, n_carried, 2, 1, state, dts);
  for (i = 0; i < n_carried && !st; i++) st = ge__ox_out(c, i, dts[i], &state[i]);
  for (i = n_carried; i + 1 < n_res && !st; i++) {
    const ge_tensor_desc *r = ge__cf_result(body, i + 1);
    ge__ox_shape s, t;
    int32_t k;
    ge__ox_load(&t, r);
    s.rank = 0;
    if (t.rank < 0 || t.rank + 1 > GE_MAX_RANK) s.rank = GE_RANK_UNKNOWN;
    else {
      s.rank = 1;
      ge__ox_dim(&s, 0, GE_DIM_UNKNOWN);
      for (k = 0; k < t.rank; k++) ge__ox_push(&s, &t, k);
    }
    st = ge__ox_out(c, i, r ? r->dtype : GE_DTYPE_UNDEFINED, &s);
  }
  ge__mem_free(&c->g->arena.a, state, (GE__CF_MAX_STATE + 1) * sizeof *state);
  return st;
}

/* Scan (opset 9+; opset 8's form is not inferred): inputs state..., scan
 * inputs...; body (state..., slices...) -> (state..., slices...). A slice
 * drops the scan axis of its
 * input; scan output i is the body's slice with the sequence length (that
 * axis of the first scan input) inserted at scan_output_axes[i]. */
static ge_status ge__infer_scan(ge_infer_ctx *c) {
  ge_graph *body = ge__cf_graph(c, "body");
  ge_node_id ids[GE__CF_MAX_STATE + 2];
  ge__ox_shape *state = NULL;
  ge_dtype dts[GE__CF_MAX_STATE + 1];
  int64_t n_scan_in = ge_infer_attr_int(c, "num_scan_inputs", -1), seq = GE_DIM_UNKNOWN;
  const int64_t *in_axes = NULL, *out_axes = NULL;
  int32_t n_in_axes = ge_infer_attr_ints(c, "scan_input_axes", &in_axes);
  int32_t n_out_axes = ge_infer_attr_ints(c, "scan_output_axes", &out_axes);
  uint32_t n_formal, n_state, n_res, i;
  const ge_graph *root = c->g;
  const ge_attr *opset;
  ge_status st;
  while (ge_graph_parent(root)) root = ge_graph_parent(root);
  opset = ge_graph_attr(root, "onnx_opset");
  /* opset 8's Scan (sequence_lens first, a batch axis) is left as it is */
  if (!body || (opset && opset->type == GE_ATTR_INT && opset->v.i < 9) || ge_node_attr(c->n, "directions") ||
      !c->n->num_inputs || c->n->inputs[0].node == GE_NONE)
    return GE_OK;
  if ((st = ge__cf_formals(c, body, 1, ids, GE__CF_MAX_STATE + 2, &n_formal))) return st;
  n_res = ge__cf_num_results(body);
  if (n_scan_in < 1 || (uint64_t)n_scan_in > n_formal || n_formal > c->n->num_inputs)
    return ge_infer_error(c, GE_ERR_INVALID, "num_scan_inputs %lld does not fit a body of %u inputs", (long long)n_scan_in,
                          (unsigned)n_formal);
  n_state = n_formal - (uint32_t)n_scan_in;
  if (n_res < n_state || c->n->num_outputs != n_res || n_state > GE__CF_MAX_STATE)
    return ge_infer_error(c, GE_ERR_INVALID, "body returns %u values for %u outputs", (unsigned)n_res,
                          (unsigned)c->n->num_outputs);
  if ((n_in_axes >= 0 && n_in_axes != n_scan_in) || (n_out_axes >= 0 && (uint32_t)n_out_axes != n_res - n_state))
    return ge_infer_error(c, GE_ERR_INVALID, "scan_input_axes or scan_output_axes has the wrong number of entries");
  for (i = 0; i < (uint32_t)n_scan_in; i++) { /* slices: the scan input without its axis */
    const ge_tensor_desc *x = ge_infer_input(c, n_state + i);
    int64_t ax = n_in_axes > 0 ? in_axes[i] : 0;
    ge__ox_shape xs, s;
    int32_t k;
    ge__ox_load(&xs, x);
    s.rank = GE_RANK_UNKNOWN;
    if (xs.rank >= 0) {
      if (ax < -(int64_t)xs.rank || ax >= xs.rank)
        return ge_infer_error(c, GE_ERR_INVALID, "scan_input_axes[%u] = %lld is out of range for rank %d", (unsigned)i,
                              (long long)ax, (int)xs.rank);
      if (ax < 0) ax += xs.rank;
      if (seq < 0) seq = xs.d[ax];
      s.rank = 0;
      for (k = 0; k < xs.rank; k++)
        if (k != ax) ge__ox_push(&s, &xs, k);
    }
    if ((st = ge__cf_bind(c, body, ids[n_state + i], x ? x->dtype : GE_DTYPE_UNDEFINED, &s))) return st;
  }
  state = (ge__ox_shape *)ge__mem_alloc(&c->g->arena.a, (GE__CF_MAX_STATE + 1) * sizeof *state);
  if (!state) return ge__oom(c->err, c->g);
  st = ge__cf_fixpoint(c, body, ids, n_state, 0, 0, state, dts);
  for (i = 0; i < n_state && !st; i++) st = ge__ox_out(c, i, dts[i], &state[i]);
  for (i = n_state; i < n_res && !st; i++) {
    const ge_tensor_desc *r = ge__cf_result(body, i);
    int64_t ax = n_out_axes > 0 ? out_axes[i - n_state] : 0;
    ge__ox_shape s, t;
    int32_t k;
    ge__ox_load(&t, r);
    s.rank = GE_RANK_UNKNOWN;
    if (t.rank >= 0 && t.rank + 1 <= GE_MAX_RANK) {
      if (ax < -(int64_t)(t.rank + 1) || ax > t.rank) {
        st = ge_infer_error(c, GE_ERR_INVALID, "scan_output_axes[%u] = %lld is out of range for rank %d",
                            (unsigned)(i - n_state), (long long)ax, (int)t.rank + 1);
        break;
      }
      if (ax < 0) ax += t.rank + 1;
      s.rank = 0;
      for (k = 0; k <= t.rank; k++) {
        if (k == ax) ge__ox_dim(&s, s.rank++, seq);
        if (k < t.rank) ge__ox_push(&s, &t, k);
      }
    }
    st = ge__ox_out(c, i, r ? r->dtype : GE_DTYPE_UNDEFINED, &s);
  }
  ge__mem_free(&c->g->arena.a, state, (GE__CF_MAX_STATE + 1) * sizeof *state);
  return st;
}

/* RNN, GRU, LSTM: X [seq, batch, input] (layout 1: [batch, seq, input]),
 * W [dirs, gates * hidden, input], R [dirs, gates * hidden, hidden]. Y is
 * [seq, dirs, batch, hidden] ([batch, seq, dirs, hidden]); Y_h and Y_c are
 * [dirs, batch, hidden] ([batch, dirs, hidden]). */
static ge_status ge__infer_recurrent(ge_infer_ctx *c) {
  const ge_tensor_desc *x = ge_infer_input(c, 0), *w = ge_infer_input(c, 1), *r = ge_infer_input(c, 2);
  const char *dir = ge_infer_attr_string(c, "direction", "forward");
  int64_t layout = ge_infer_attr_int(c, "layout", 0), hs = ge_infer_attr_int(c, "hidden_size", -1), ndir;
  int64_t gates = c->n->op[0] == 'L' ? 4 : c->n->op[0] == 'G' ? 3 : 1, seq = GE_DIM_UNKNOWN, batch = GE_DIM_UNKNOWN;
  ge__ox_shape y, h;
  uint32_t i;
  ge_status st;
  if (!strcmp(dir, "forward") || !strcmp(dir, "reverse")) ndir = 1;
  else if (!strcmp(dir, "bidirectional")) ndir = 2;
  else return ge_infer_error(c, GE_ERR_INVALID, "direction '%s' is not forward, reverse or bidirectional", dir);
  if (layout != 0 && layout != 1) return ge_infer_error(c, GE_ERR_INVALID, "layout %lld is not 0 or 1", (long long)layout);
  for (i = 0; i < 3; i++) {
    const ge_tensor_desc *d = i == 0 ? x : i == 1 ? w : r;
    if (d && d->shape.rank >= 0 && d->shape.rank != 3)
      return ge_infer_error(c, GE_ERR_SHAPE, "input %u (%s) has rank %d, expected 3", (unsigned)i, i == 0 ? "X" : i == 1 ? "W" : "R",
                            (int)d->shape.rank);
  }
  if (x && x->shape.rank == 3) {
    seq = x->shape.dims[layout ? 1 : 0];
    batch = x->shape.dims[layout ? 0 : 1];
  }
  if (hs < 0 && r && r->shape.rank == 3) hs = r->shape.dims[2];
  if (hs < 0 && w && w->shape.rank == 3 && w->shape.dims[1] >= 0) hs = w->shape.dims[1] / gates;
  y.rank = 4;
  ge__ox_dim(&y, 0, layout ? batch : seq);
  ge__ox_dim(&y, 1, layout ? seq : ndir);
  ge__ox_dim(&y, 2, layout ? ndir : batch);
  ge__ox_dim(&y, 3, hs);
  if (x && x->shape.rank == 3 && x->shape.info) { /* keep the symbols of seq and batch */
    y.x[0] = x->shape.info[0];
    if (layout) y.x[1] = x->shape.info[1];
    else y.x[2] = x->shape.info[1];
  }
  h.rank = 3;
  ge__ox_dim(&h, 0, layout ? batch : ndir);
  ge__ox_dim(&h, 1, layout ? ndir : batch);
  ge__ox_dim(&h, 2, hs);
  if (x && x->shape.rank == 3 && x->shape.info) h.x[layout ? 0 : 1] = x->shape.info[layout ? 0 : 1];
  if (!x) return GE_OK;
  if ((st = ge__ox_out(c, 0, x->dtype, &y))) return st;
  for (i = 1; i < c->n->num_outputs; i++)
    if ((st = ge__ox_out(c, i, x->dtype, &h))) return st;
  return GE_OK;
}

#define GE__ANY GE_DTYPES_ALL
#define GE__BOOL GE_DTYPE_BIT(GE_DTYPE_BOOL)
#define GE__I64 GE_DTYPE_BIT(GE_DTYPE_INT64)
#define GE__I32 GE_DTYPE_BIT(GE_DTYPE_INT32)
#define GE__U8 GE_DTYPE_BIT(GE_DTYPE_UINT8)
#define GE__F32 GE_DTYPE_BIT(GE_DTYPE_FLOAT32)
#define GE__Q8 (GE__U8 | GE_DTYPE_BIT(GE_DTYPE_INT8))
#define GE__I32 GE_DTYPE_BIT(GE_DTYPE_INT32)
#define GE__IDX (GE__I32 | GE__I64)
#define GE__FREE {-1, -1, -1, -1, -1, -1, -1, -1}

/* Columns: name, domain, inputs min..max, outputs min..max, default
 * outputs, input type vars, output type vars, type var dtype sets,
 * attributes {name, type, default, required}, infer, doc. */
static const ge_op_schema ge__builtin_schemas[] = {
    /* structural ops (ge_graph.h header comment lists their semantics) */
    {"Data", NULL, 0, 0, 1, 1, 1, GE__FREE, GE__FREE, {0}, {{"index", GE_ATTR_INT, NULL, 0}, {"parent_index", GE_ATTR_INT, NULL, 0}}, NULL, "graph input"},
    {"Const", NULL, 0, 0, 1, 1, 1, GE__FREE, GE__FREE, {0}, {{"value", GE_ATTR_TENSOR, NULL, 1}}, NULL, "constant tensor"},
    {"Variable", NULL, 0, 1, 1, 1, 1, GE__FREE, GE__FREE, {0}, {{"value", GE_ATTR_TENSOR, NULL, 0}}, NULL, "persistent state"},
    {"NetOutput", NULL, 0, -1, 0, -1, 0, GE__FREE, GE__FREE, {0}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__infer_passthrough, "graph outputs"},
    {"PartitionedCall", NULL, 0, -1, 0, -1, 1, GE__FREE, GE__FREE, {0}, {{"f", GE_ATTR_GRAPH, NULL, 1}}, NULL, "call a subgraph"},
    {"PlaceHolder", NULL, 0, 0, 1, 1, 1, GE__FREE, GE__FREE, {0}, {{"peer_index", GE_ATTR_INT, NULL, 0}, {"parent_node", GE_ATTR_STRING, NULL, 0}, {"anchor_index", GE_ATTR_INT, NULL, 0}}, NULL, "tensor from another partition"},
    {"End", NULL, 1, 1, 0, 0, 0, GE__FREE, GE__FREE, {0}, {{"peer_index", GE_ATTR_INT, NULL, 0}, {"parent_node", GE_ATTR_STRING, NULL, 0}, {"anchor_index", GE_ATTR_INT, NULL, 0}}, NULL, "tensor to another partition"},
    {"If", NULL, 1, -1, 0, -1, 1, {0, -1, -1, -1, -1, -1, -1, -1}, GE__FREE, {GE__BOOL | GE_DTYPES_NUMERIC}, {{"then_branch", GE_ATTR_GRAPH, NULL, 1}, {"else_branch", GE_ATTR_GRAPH, NULL, 1}}, ge__infer_if, "conditional"},
    {"Loop", NULL, 0, -1, 0, -1, 1, GE__FREE, GE__FREE, {0}, {{"body", GE_ATTR_GRAPH, NULL, 1}}, ge__infer_loop, "loop: M, cond, v... -> v..., scans..."},
    {"Scan", NULL, 0, -1, 1, -1, 1, GE__FREE, GE__FREE, {0}, {{"body", GE_ATTR_GRAPH, NULL, 1}, {"num_scan_inputs", GE_ATTR_INT, NULL, 1}, {"scan_input_axes", GE_ATTR_INTS, NULL, 0}, {"scan_input_directions", GE_ATTR_INTS, NULL, 0}, {"scan_output_axes", GE_ATTR_INTS, NULL, 0}, {"scan_output_directions", GE_ATTR_INTS, NULL, 0}}, ge__infer_scan, "scan (opset 9+): state..., scan inputs... -> state..., scan outputs..."},
    {"Case", NULL, 1, -1, 0, -1, 1, {0, -1, -1, -1, -1, -1, -1, -1}, GE__FREE, {GE__IDX}, {{"branches", GE_ATTR_GRAPHS, NULL, 1}}, NULL, "branch by index"},
    {"While", NULL, 0, -1, 0, -1, 1, GE__FREE, GE__FREE, {0}, {{"cond", GE_ATTR_GRAPH, NULL, 1}, {"body", GE_ATTR_GRAPH, NULL, 1}}, ge__infer_passthrough, "loop"},
    {"StreamActive", NULL, 0, 0, 0, 0, 0, GE__FREE, GE__FREE, {0}, {{"active_streams", GE_ATTR_INTS, NULL, 0}}, NULL, "activate streams"},
    {"StreamSwitch", NULL, 2, 2, 0, 0, 0, GE__FREE, GE__FREE, {0}, {{"cond", GE_ATTR_INT, "0", 0}, {"active_streams", GE_ATTR_INTS, NULL, 0}}, NULL, "conditional stream activation"},
    {"Send", NULL, 0, 0, 0, 0, 0, GE__FREE, GE__FREE, {0}, {{"event_id", GE_ATTR_INT, NULL, 1}}, NULL, "record an event"},
    {"Recv", NULL, 0, 0, 0, 0, 0, GE__FREE, GE__FREE, {0}, {{"event_id", GE_ATTR_INT, NULL, 1}}, NULL, "wait for an event"},
    {"LabelSet", NULL, 0, 0, 0, 0, 0, GE__FREE, GE__FREE, {0}, {{"label_index", GE_ATTR_INT, NULL, 1}}, NULL, "define a label"},
    {"LabelGoto", NULL, 0, 0, 0, 0, 0, GE__FREE, GE__FREE, {0}, {{"label_index", GE_ATTR_INT, NULL, 1}}, NULL, "jump to a label"},
    {"LabelSwitchByIndex", NULL, 1, 1, 0, 0, 0, {0}, GE__FREE, {GE__IDX | GE_DTYPE_BIT(GE_DTYPE_UINT32)}, {{"label_list", GE_ATTR_INTS, NULL, 1}}, NULL, "jump by index"},
    {"NoOp", NULL, 0, 0, 0, 0, 0, GE__FREE, GE__FREE, {0}, {{NULL, GE_ATTR_NONE, NULL, 0}}, NULL, "control only"},
    {"MemcpyAsync", NULL, 1, 1, 1, 1, 1, {0}, {0}, {0}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__infer_same, "copy"},
    {"GetDynamicDims", NULL, 1, -1, 1, 1, 1, GE__FREE, {1}, {0, GE__I64}, {{"N", GE_ATTR_INT, NULL, 0}, {"shape_info", GE_ATTR_INTS, NULL, 0}}, NULL, "dynamic dims of the inputs"},
    {"MapIndex", NULL, 1, 2, 1, 1, 1, GE__FREE, {1}, {0, GE__I32}, {{NULL, GE_ATTR_NONE, NULL, 0}}, NULL, "shape tier of an input"},
    /* ---- DVPP image ops ---- */
    {"ImageDecoder", NULL, 1, 1, 1, 1, 1, {0}, {0}, {GE_DTYPE_BIT(GE_DTYPE_UINT8)}, {{"pixel_format", GE_ATTR_STRING, "RGB", 0}}, ge__infer_image_decoder, "decode JPEG or PNG bytes to uint8 [H, W, C] (opset 20)"},
    {"ImageCrop", NULL, 1, 1, 1, 1, 1, {0}, {0}, {GE_DTYPES_NUMERIC}, {{"offsets", GE_ATTR_INTS, NULL, 1}, {"size", GE_ATTR_INTS, NULL, 1}}, ge__infer_image_crop, "window size [h, w] at offsets [top, left] of [N,] H, W, C (ge op)"},
    {"ColorConvert", NULL, 1, 1, 1, 1, 1, {0}, {0}, {GE_DTYPE_BIT(GE_DTYPE_UINT8) | GE_DTYPE_BIT(GE_DTYPE_FLOAT32)}, {{"conversion", GE_ATTR_STRING, NULL, 1}}, ge__infer_color_convert, "colour conversion of [..., H, W, C] (ge op)"},
    {"AllReduce", NULL, 1, 1, 1, 1, 1, {0}, {0}, {GE_DTYPES_NUMERIC}, {{"reduction", GE_ATTR_STRING, "sum", 0}, {"group", GE_ATTR_STRING, "", 0}, {"rank_size", GE_ATTR_INT, "1", 0}}, ge__infer_all_reduce, "reduce over ranks (reduction sum, prod, max or min)"},
    {"Broadcast", NULL, 1, -1, 1, -1, 1, GE__FREE, GE__FREE, {0}, {{"root_rank", GE_ATTR_INT, "0", 0}, {"group", GE_ATTR_STRING, "", 0}, {"rank_size", GE_ATTR_INT, "1", 0}}, ge__infer_all_reduce, "every input copied from the root rank"},
    /* ---- random and collective ops ---- */
    {"AllGather", NULL, 1, 1, 1, 1, 1, {0}, {0}, {GE_DTYPES_NUMERIC | GE__BOOL}, {{"group", GE_ATTR_STRING, "", 0}, {"rank_size", GE_ATTR_INT, "1", 0}}, ge__infer_gather_scatter, "concatenate every rank's input along axis 0"},
    {"ReduceScatter", NULL, 1, 1, 1, 1, 1, {0}, {0}, {GE_DTYPES_NUMERIC}, {{"reduction", GE_ATTR_STRING, "sum", 0}, {"group", GE_ATTR_STRING, "", 0}, {"rank_size", GE_ATTR_INT, "1", 0}}, ge__infer_gather_scatter, "reduce over ranks, each keeps its 1/rank_size slice of axis 0"},
    {"RandomUniform", NULL, 0, 0, 1, 1, 1, GE__FREE, {0}, {GE__RND_FLOATS}, {{"dtype", GE_ATTR_DTYPE, "1", 0}, {"high", GE_ATTR_FLOAT, "1.0", 0}, {"low", GE_ATTR_FLOAT, "0.0", 0}, {"seed", GE_ATTR_FLOAT, NULL, 0}, {"shape", GE_ATTR_INTS, NULL, 1}}, ge__infer_random, "uniform in [low, high) of the given shape"},
    {"RandomNormal", NULL, 0, 0, 1, 1, 1, GE__FREE, {0}, {GE__RND_FLOATS}, {{"dtype", GE_ATTR_DTYPE, "1", 0}, {"mean", GE_ATTR_FLOAT, "0.0", 0}, {"scale", GE_ATTR_FLOAT, "1.0", 0}, {"seed", GE_ATTR_FLOAT, NULL, 0}, {"shape", GE_ATTR_INTS, NULL, 1}}, ge__infer_random, "normal(mean, scale) of the given shape"},
    {"RandomUniformLike", NULL, 1, 1, 1, 1, 1, {0}, {1}, {GE__ANY, GE__RND_FLOATS}, {{"dtype", GE_ATTR_DTYPE, NULL, 0}, {"high", GE_ATTR_FLOAT, "1.0", 0}, {"low", GE_ATTR_FLOAT, "0.0", 0}, {"seed", GE_ATTR_FLOAT, NULL, 0}}, ge__infer_random_like, "uniform in [low, high) shaped like the input"},
    {"RandomNormalLike", NULL, 1, 1, 1, 1, 1, {0}, {1}, {GE__ANY, GE__RND_FLOATS}, {{"dtype", GE_ATTR_DTYPE, NULL, 0}, {"mean", GE_ATTR_FLOAT, "0.0", 0}, {"scale", GE_ATTR_FLOAT, "1.0", 0}, {"seed", GE_ATTR_FLOAT, NULL, 0}}, ge__infer_random_like, "normal(mean, scale) shaped like the input"},
    {"Bernoulli", NULL, 1, 1, 1, 1, 1, {0}, {1}, {GE__RND_FLOATS, GE__RND_BERNOULLI}, {{"dtype", GE_ATTR_DTYPE, NULL, 0}, {"seed", GE_ATTR_FLOAT, NULL, 0}}, ge__infer_random_like, "1 with the input's probability, else 0"},
    {"Multinomial", NULL, 1, 1, 1, 1, 1, {0}, {1}, {GE__RND_FLOATS, GE__IDX}, {{"dtype", GE_ATTR_DTYPE, "6", 0}, {"sample_size", GE_ATTR_INT, "1", 0}, {"seed", GE_ATTR_FLOAT, NULL, 0}}, ge__infer_multinomial, "sample_size class indices per row of unnormalized log-probabilities"},
        /* ONNX compute ops, default domain, opsets up to 18 */
    /* element-wise binary (numpy broadcasting) */
    {"Add", NULL, 2, 2, 1, 1, 1, {0}, {0}, {GE_DTYPES_NUMERIC}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__ox_arith, "a + b"},
    {"Sub", NULL, 2, 2, 1, 1, 1, {0}, {0}, {GE_DTYPES_NUMERIC}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__ox_arith, "a - b"},
    {"Mul", NULL, 2, 2, 1, 1, 1, {0}, {0}, {GE_DTYPES_NUMERIC}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__ox_arith, "a * b"},
    {"Div", NULL, 2, 2, 1, 1, 1, {0}, {0}, {GE_DTYPES_NUMERIC}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__ox_arith, "a / b"},
    {"Pow", NULL, 2, 2, 1, 1, 1, {0, 1}, {0}, {GE_DTYPES_FLOAT | GE__I32 | GE__I64, GE_DTYPES_NUMERIC}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__infer_broadcast, "a ^ b"},
    {"Mod", NULL, 2, 2, 1, 1, 1, {0}, {0}, {GE_DTYPES_NUMERIC}, {{"fmod", GE_ATTR_INT, "0", 0}}, ge__infer_broadcast, "remainder (fmod=1: sign of a)"},
    {"Max", NULL, 1, -1, 1, 1, 1, {0}, {0}, {GE_DTYPES_NUMERIC}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__infer_broadcast, "element-wise max of the inputs"},
    {"Min", NULL, 1, -1, 1, 1, 1, {0}, {0}, {GE_DTYPES_NUMERIC}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__infer_broadcast, "element-wise min of the inputs"},
    {"Sum", NULL, 1, -1, 1, 1, 1, {0}, {0}, {GE_DTYPES_FLOAT}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__infer_broadcast, "sum of the inputs"},
    {"Mean", NULL, 1, -1, 1, 1, 1, {0}, {0}, {GE_DTYPES_FLOAT}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__infer_broadcast, "mean of the inputs"},
    {"Equal", NULL, 2, 2, 1, 1, 1, {0}, {1}, {GE__OX_CMP, GE__BOOL}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__ox_equal, "a == b"},
    {"Less", NULL, 2, 2, 1, 1, 1, {0}, {1}, {GE_DTYPES_NUMERIC, GE__BOOL}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__infer_broadcast, "a < b"},
    {"Greater", NULL, 2, 2, 1, 1, 1, {0}, {1}, {GE_DTYPES_NUMERIC, GE__BOOL}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__infer_broadcast, "a > b"},
    {"LessOrEqual", NULL, 2, 2, 1, 1, 1, {0}, {1}, {GE_DTYPES_NUMERIC, GE__BOOL}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__infer_broadcast, "a <= b"},
    {"GreaterOrEqual", NULL, 2, 2, 1, 1, 1, {0}, {1}, {GE_DTYPES_NUMERIC, GE__BOOL}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__infer_broadcast, "a >= b"},
    {"And", NULL, 2, 2, 1, 1, 1, {0}, {0}, {GE__BOOL}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__infer_broadcast, "logical and"},
    {"Or", NULL, 2, 2, 1, 1, 1, {0}, {0}, {GE__BOOL}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__infer_broadcast, "logical or"},
    {"Xor", NULL, 2, 2, 1, 1, 1, {0}, {0}, {GE__BOOL}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__infer_broadcast, "logical xor"},
    {"BitShift", NULL, 2, 2, 1, 1, 1, {0}, {0}, {GE__OX_UINT}, {{"direction", GE_ATTR_STRING, NULL, 1}}, ge__infer_broadcast, "shift a by b bits (LEFT or RIGHT)"},
    {"PRelu", NULL, 2, 2, 1, 1, 1, {0}, {0}, {GE__OX_MM}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__infer_prelu, "x < 0 ? slope * x : x"},
    {"Where", NULL, 3, 3, 1, 1, 1, {0, 1, 1}, {1}, {GE__BOOL, GE__ANY}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__ox_where, "cond ? x : y, three-way broadcast"},
    {"Clip", NULL, 1, 3, 1, 1, 1, {0}, {0}, {GE_DTYPES_NUMERIC}, {{"min", GE_ATTR_FLOAT, NULL, 0}, {"max", GE_ATTR_FLOAT, NULL, 0}}, ge__infer_same, "clamp to [min, max] (inputs since opset 11)"},
    /* element-wise unary */
    {"Relu", NULL, 1, 1, 1, 1, 1, {0}, {0}, {GE__OX_SIGNED}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__infer_same, "max(x, 0)"},
    {"LeakyRelu", NULL, 1, 1, 1, 1, 1, {0}, {0}, {GE_DTYPES_FLOAT}, {{"alpha", GE_ATTR_FLOAT, "0.01", 0}}, ge__infer_same, "x < 0 ? alpha * x : x"},
    {"Elu", NULL, 1, 1, 1, 1, 1, {0}, {0}, {GE_DTYPES_FLOAT}, {{"alpha", GE_ATTR_FLOAT, "1.0", 0}}, ge__infer_same, "x < 0 ? alpha * (exp(x) - 1) : x"},
    {"Selu", NULL, 1, 1, 1, 1, 1, {0}, {0}, {GE_DTYPES_FLOAT}, {{"alpha", GE_ATTR_FLOAT, "1.67326319217681884765625", 0}, {"gamma", GE_ATTR_FLOAT, "1.05070102214813232421875", 0}}, ge__infer_same, "gamma * (x <= 0 ? alpha * (exp(x) - 1) : x)"},
    {"Sigmoid", NULL, 1, 1, 1, 1, 1, {0}, {0}, {GE_DTYPES_FLOAT}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__infer_same, "1 / (1 + exp(-x))"},
    {"HardSigmoid", NULL, 1, 1, 1, 1, 1, {0}, {0}, {GE_DTYPES_FLOAT}, {{"alpha", GE_ATTR_FLOAT, "0.2", 0}, {"beta", GE_ATTR_FLOAT, "0.5", 0}}, ge__infer_same, "max(0, min(1, alpha * x + beta))"},
    {"HardSwish", NULL, 1, 1, 1, 1, 1, {0}, {0}, {GE_DTYPES_FLOAT}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__infer_same, "x * max(0, min(1, x / 6 + 0.5))"},
    {"Tanh", NULL, 1, 1, 1, 1, 1, {0}, {0}, {GE_DTYPES_FLOAT}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__infer_same, "tanh"},
    {"Exp", NULL, 1, 1, 1, 1, 1, {0}, {0}, {GE_DTYPES_FLOAT}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__infer_same, "exp"},
    {"Log", NULL, 1, 1, 1, 1, 1, {0}, {0}, {GE_DTYPES_FLOAT}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__infer_same, "natural log"},
    {"Sqrt", NULL, 1, 1, 1, 1, 1, {0}, {0}, {GE_DTYPES_FLOAT}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__infer_same, "square root"},
    {"Reciprocal", NULL, 1, 1, 1, 1, 1, {0}, {0}, {GE_DTYPES_FLOAT}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__infer_same, "1 / x"},
    {"Neg", NULL, 1, 1, 1, 1, 1, {0}, {0}, {GE__OX_SIGNED}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__infer_same, "-x"},
    {"Abs", NULL, 1, 1, 1, 1, 1, {0}, {0}, {GE_DTYPES_NUMERIC}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__infer_same, "|x|"},
    {"Erf", NULL, 1, 1, 1, 1, 1, {0}, {0}, {GE_DTYPES_NUMERIC}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__infer_same, "error function"},
    {"Floor", NULL, 1, 1, 1, 1, 1, {0}, {0}, {GE_DTYPES_FLOAT}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__infer_same, "floor"},
    {"Ceil", NULL, 1, 1, 1, 1, 1, {0}, {0}, {GE_DTYPES_FLOAT}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__infer_same, "ceil"},
    {"Round", NULL, 1, 1, 1, 1, 1, {0}, {0}, {GE_DTYPES_FLOAT}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__infer_same, "round half to even"},
    {"Sign", NULL, 1, 1, 1, 1, 1, {0}, {0}, {GE_DTYPES_NUMERIC}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__infer_same, "sign (-1, 0, 1)"},
    {"Sin", NULL, 1, 1, 1, 1, 1, {0}, {0}, {GE_DTYPES_FLOAT}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__infer_same, "sine"},
    {"Cos", NULL, 1, 1, 1, 1, 1, {0}, {0}, {GE_DTYPES_FLOAT}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__infer_same, "cosine"},
    {"Tan", NULL, 1, 1, 1, 1, 1, {0}, {0}, {GE_DTYPES_FLOAT}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__infer_same, "tangent"},
    {"Asin", NULL, 1, 1, 1, 1, 1, {0}, {0}, {GE_DTYPES_FLOAT}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__infer_same, "arcsine"},
    {"Acos", NULL, 1, 1, 1, 1, 1, {0}, {0}, {GE_DTYPES_FLOAT}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__infer_same, "arccosine"},
    {"Atan", NULL, 1, 1, 1, 1, 1, {0}, {0}, {GE_DTYPES_FLOAT}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__infer_same, "arctangent"},
    {"Sinh", NULL, 1, 1, 1, 1, 1, {0}, {0}, {GE_DTYPES_FLOAT}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__infer_same, "hyperbolic sine"},
    {"Cosh", NULL, 1, 1, 1, 1, 1, {0}, {0}, {GE_DTYPES_FLOAT}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__infer_same, "hyperbolic cosine"},
    {"Asinh", NULL, 1, 1, 1, 1, 1, {0}, {0}, {GE_DTYPES_FLOAT}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__infer_same, "inverse hyperbolic sine"},
    {"Acosh", NULL, 1, 1, 1, 1, 1, {0}, {0}, {GE_DTYPES_FLOAT}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__infer_same, "inverse hyperbolic cosine"},
    {"Atanh", NULL, 1, 1, 1, 1, 1, {0}, {0}, {GE_DTYPES_FLOAT}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__infer_same, "inverse hyperbolic tangent"},
    {"Softplus", NULL, 1, 1, 1, 1, 1, {0}, {0}, {GE_DTYPES_FLOAT}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__infer_same, "log(1 + exp(x))"},
    {"Softsign", NULL, 1, 1, 1, 1, 1, {0}, {0}, {GE_DTYPES_FLOAT}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__infer_same, "x / (1 + |x|)"},
    {"Not", NULL, 1, 1, 1, 1, 1, {0}, {0}, {GE__BOOL}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__infer_same, "logical not"},
    {"Gelu", NULL, 1, 1, 1, 1, 1, {0}, {0}, {GE_DTYPES_FLOAT}, {{"approximate", GE_ATTR_STRING, "none", 0}}, ge__infer_same, "Gaussian error linear unit (none or tanh)"},
    {"Mish", NULL, 1, 1, 1, 1, 1, {0}, {0}, {GE_DTYPES_FLOAT}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__infer_same, "x * tanh(softplus(x))"},
    {"Celu", NULL, 1, 1, 1, 1, 1, {0}, {0}, {GE_DTYPES_FLOAT}, {{"alpha", GE_ATTR_FLOAT, "1.0", 0}}, ge__infer_same, "max(0, x) + min(0, alpha * (exp(x / alpha) - 1))"},
    {"ThresholdedRelu", NULL, 1, 1, 1, 1, 1, {0}, {0}, {GE_DTYPES_FLOAT}, {{"alpha", GE_ATTR_FLOAT, "1.0", 0}}, ge__infer_same, "x > alpha ? x : 0"},
    {"Identity", NULL, 1, 1, 1, 1, 1, {0}, {0}, {GE__ANY}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__ox_identity, "copy (known values carry over)"},
    {"IsNaN", NULL, 1, 1, 1, 1, 1, {0}, {1}, {GE_DTYPES_FLOAT, GE__BOOL}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__ox_same_bool, "x is NaN"},
    {"IsInf", NULL, 1, 1, 1, 1, 1, {0}, {1}, {GE_DTYPES_FLOAT, GE__BOOL}, {{"detect_negative", GE_ATTR_INT, "1", 0}, {"detect_positive", GE_ATTR_INT, "1", 0}}, ge__ox_same_bool, "x is +-inf"},
    {"Cast", NULL, 1, 1, 1, 1, 1, {0}, {1}, {GE__ANY, GE__ANY}, {{"to", GE_ATTR_DTYPE, NULL, 1}, {"saturate", GE_ATTR_INT, "1", 0}}, ge__ox_cast, "convert to dtype `to`"},
    {"CastLike", NULL, 2, 2, 1, 1, 1, {0, 1}, {1}, {GE__ANY, GE__ANY}, {{"saturate", GE_ATTR_INT, "1", 0}}, ge__ox_castlike, "convert to the dtype of input 1"},
    {"Dropout", NULL, 1, 3, 1, 2, 1, {0, 1, 2}, {0, 2}, {GE_DTYPES_FLOAT, GE_DTYPES_FLOAT, GE__BOOL}, {{"seed", GE_ATTR_INT, NULL, 0}, {"ratio", GE_ATTR_FLOAT, "0.5", 0}}, ge__ox_dropout, "identity at inference; optional bool mask"},
    /* matrix products */
    {"MatMul", NULL, 2, 2, 1, 1, 1, {0}, {0}, {GE__OX_MM}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__ox_matmul, "numpy matmul: batched, broadcast, 1-D promoted"},
    {"Gemm", NULL, 2, 3, 1, 1, 1, {0}, {0}, {GE__OX_MM}, {{"alpha", GE_ATTR_FLOAT, "1.0", 0}, {"beta", GE_ATTR_FLOAT, "1.0", 0}, {"transA", GE_ATTR_INT, "0", 0}, {"transB", GE_ATTR_INT, "0", 0}}, ge__ox_gemm, "alpha * A' B' + beta * C"},
    {"Einsum", NULL, 1, -1, 1, 1, 1, {0}, {0}, {GE_DTYPES_NUMERIC}, {{"equation", GE_ATTR_STRING, NULL, 1}}, ge__ox_einsum, "Einstein summation"},
    {"MatMulInteger", NULL, 2, 4, 1, 1, 1, {0, 1, 0, 1}, {2}, {GE__Q8, GE__Q8, GE__I32}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__ox_matmul, "(A - a_zero_point)(B - b_zero_point) in int32"},
    {"ConvInteger", NULL, 2, 4, 1, 1, 1, {0, 1, 0, 1}, {2}, {GE__Q8, GE__Q8, GE__I32}, {{"auto_pad", GE_ATTR_STRING, "NOTSET", 0}, {"dilations", GE_ATTR_INTS, NULL, 0}, {"group", GE_ATTR_INT, "1", 0}, {"kernel_shape", GE_ATTR_INTS, NULL, 0}, {"pads", GE_ATTR_INTS, NULL, 0}, {"strides", GE_ATTR_INTS, NULL, 0}}, ge__ox_conv, "convolution of (x - x_zero_point) and (w - w_zero_point) in int32"},
    {"QuantizeLinear", NULL, 2, 3, 1, 1, 1, {-1, -1, 0}, {0}, {0}, {{"axis", GE_ATTR_INT, "1", 0}, {"block_size", GE_ATTR_INT, "0", 0}, {"output_dtype", GE_ATTR_INT, "0", 0}, {"saturate", GE_ATTR_INT, "1", 0}}, ge__ox_quantize, "saturate(round(x / y_scale) + y_zero_point)"},
    {"DequantizeLinear", NULL, 2, 3, 1, 1, 1, {0, 1, 0}, {1}, {0}, {{"axis", GE_ATTR_INT, "1", 0}, {"block_size", GE_ATTR_INT, "0", 0}}, ge__ox_dequantize, "(x - x_zero_point) * x_scale"},
    {"QLinearMatMul", NULL, 8, 8, 1, 1, 1, {0, 3, 0, 1, 3, 1, 3, 2}, {2}, {GE__Q8, GE__Q8, GE__Q8, GE__F32}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__ox_matmul, "requantized (a - a_zero_point)(b - b_zero_point)"},
    {"QLinearConv", NULL, 8, 9, 1, 1, 1, {0, 3, 0, 1, 3, 1, 3, -1}, {2}, {GE__Q8, GE__Q8, GE__Q8, GE__F32}, {{"auto_pad", GE_ATTR_STRING, "NOTSET", 0}, {"dilations", GE_ATTR_INTS, NULL, 0}, {"group", GE_ATTR_INT, "1", 0}, {"kernel_shape", GE_ATTR_INTS, NULL, 0}, {"pads", GE_ATTR_INTS, NULL, 0}, {"strides", GE_ATTR_INTS, NULL, 0}}, ge__ox_conv, "requantized convolution of (x - x_zero_point) and (w - w_zero_point) plus an int32 bias"},
    {"DynamicQuantizeLinear", NULL, 1, 1, 3, 3, 3, {0}, {1, 2, 1}, {GE__F32, GE__U8, GE__F32}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__ox_dynamic_quantize, "float32 to uint8 with a scale and zero point from its range"},
    /* convolution and pooling */
    {"Conv", NULL, 2, 3, 1, 1, 1, {0}, {0}, {GE_DTYPES_FLOAT}, {{"auto_pad", GE_ATTR_STRING, "NOTSET", 0}, {"dilations", GE_ATTR_INTS, NULL, 0}, {"group", GE_ATTR_INT, "1", 0}, {"kernel_shape", GE_ATTR_INTS, NULL, 0}, {"pads", GE_ATTR_INTS, NULL, 0}, {"strides", GE_ATTR_INTS, NULL, 0}}, ge__ox_conv, "N-d convolution, NCHW"},
    {"ConvTranspose", NULL, 2, 3, 1, 1, 1, {0}, {0}, {GE_DTYPES_FLOAT}, {{"auto_pad", GE_ATTR_STRING, "NOTSET", 0}, {"dilations", GE_ATTR_INTS, NULL, 0}, {"group", GE_ATTR_INT, "1", 0}, {"kernel_shape", GE_ATTR_INTS, NULL, 0}, {"pads", GE_ATTR_INTS, NULL, 0}, {"strides", GE_ATTR_INTS, NULL, 0}, {"output_padding", GE_ATTR_INTS, NULL, 0}, {"output_shape", GE_ATTR_INTS, NULL, 0}}, ge__ox_conv, "N-d transposed convolution"},
    {"MaxPool", NULL, 1, 1, 1, 2, 1, {0}, {0, 1}, {GE__OX_POOL, GE__I64}, {{"auto_pad", GE_ATTR_STRING, "NOTSET", 0}, {"ceil_mode", GE_ATTR_INT, "0", 0}, {"dilations", GE_ATTR_INTS, NULL, 0}, {"kernel_shape", GE_ATTR_INTS, NULL, 1}, {"pads", GE_ATTR_INTS, NULL, 0}, {"storage_order", GE_ATTR_INT, "0", 0}, {"strides", GE_ATTR_INTS, NULL, 0}}, ge__ox_pool, "max pooling; optional int64 indices"},
    {"AveragePool", NULL, 1, 1, 1, 1, 1, {0}, {0}, {GE_DTYPES_FLOAT}, {{"auto_pad", GE_ATTR_STRING, "NOTSET", 0}, {"ceil_mode", GE_ATTR_INT, "0", 0}, {"count_include_pad", GE_ATTR_INT, "0", 0}, {"dilations", GE_ATTR_INTS, NULL, 0}, {"kernel_shape", GE_ATTR_INTS, NULL, 1}, {"pads", GE_ATTR_INTS, NULL, 0}, {"strides", GE_ATTR_INTS, NULL, 0}}, ge__ox_pool, "average pooling"},
    {"LpPool", NULL, 1, 1, 1, 1, 1, {0}, {0}, {GE_DTYPES_FLOAT}, {{"auto_pad", GE_ATTR_STRING, "NOTSET", 0}, {"ceil_mode", GE_ATTR_INT, "0", 0}, {"dilations", GE_ATTR_INTS, NULL, 0}, {"kernel_shape", GE_ATTR_INTS, NULL, 1}, {"p", GE_ATTR_INT, "2", 0}, {"pads", GE_ATTR_INTS, NULL, 0}, {"strides", GE_ATTR_INTS, NULL, 0}}, ge__ox_pool, "Lp-norm pooling"},
    {"GlobalAveragePool", NULL, 1, 1, 1, 1, 1, {0}, {0}, {GE_DTYPES_FLOAT}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__ox_global_pool, "mean over the spatial axes"},
    {"GlobalMaxPool", NULL, 1, 1, 1, 1, 1, {0}, {0}, {GE_DTYPES_FLOAT}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__ox_global_pool, "max over the spatial axes"},
    {"GlobalLpPool", NULL, 1, 1, 1, 1, 1, {0}, {0}, {GE_DTYPES_FLOAT}, {{"p", GE_ATTR_INT, "2", 0}}, ge__ox_global_pool, "Lp norm over the spatial axes"},
    /* reductions (axes: attribute before opset 13/18, input after) */
    {"ReduceSum", NULL, 1, 2, 1, 1, 1, {0, 1}, {0}, {GE_DTYPES_NUMERIC, GE__I64}, {{"axes", GE_ATTR_INTS, NULL, 0}, {"keepdims", GE_ATTR_INT, "1", 0}, {"noop_with_empty_axes", GE_ATTR_INT, "0", 0}}, ge__ox_reduce, "sum over axes"},
    {"ReduceMean", NULL, 1, 2, 1, 1, 1, {0, 1}, {0}, {GE_DTYPES_NUMERIC, GE__I64}, {{"axes", GE_ATTR_INTS, NULL, 0}, {"keepdims", GE_ATTR_INT, "1", 0}, {"noop_with_empty_axes", GE_ATTR_INT, "0", 0}}, ge__ox_reduce, "mean over axes"},
    {"ReduceMax", NULL, 1, 2, 1, 1, 1, {0, 1}, {0}, {GE_DTYPES_NUMERIC, GE__I64}, {{"axes", GE_ATTR_INTS, NULL, 0}, {"keepdims", GE_ATTR_INT, "1", 0}, {"noop_with_empty_axes", GE_ATTR_INT, "0", 0}}, ge__ox_reduce, "max over axes"},
    {"ReduceMin", NULL, 1, 2, 1, 1, 1, {0, 1}, {0}, {GE_DTYPES_NUMERIC, GE__I64}, {{"axes", GE_ATTR_INTS, NULL, 0}, {"keepdims", GE_ATTR_INT, "1", 0}, {"noop_with_empty_axes", GE_ATTR_INT, "0", 0}}, ge__ox_reduce, "min over axes"},
    {"ReduceProd", NULL, 1, 2, 1, 1, 1, {0, 1}, {0}, {GE_DTYPES_NUMERIC, GE__I64}, {{"axes", GE_ATTR_INTS, NULL, 0}, {"keepdims", GE_ATTR_INT, "1", 0}, {"noop_with_empty_axes", GE_ATTR_INT, "0", 0}}, ge__ox_reduce, "product over axes"},
    {"ReduceL1", NULL, 1, 2, 1, 1, 1, {0, 1}, {0}, {GE_DTYPES_NUMERIC, GE__I64}, {{"axes", GE_ATTR_INTS, NULL, 0}, {"keepdims", GE_ATTR_INT, "1", 0}, {"noop_with_empty_axes", GE_ATTR_INT, "0", 0}}, ge__ox_reduce, "sum of |x| over axes"},
    {"ReduceL2", NULL, 1, 2, 1, 1, 1, {0, 1}, {0}, {GE_DTYPES_NUMERIC, GE__I64}, {{"axes", GE_ATTR_INTS, NULL, 0}, {"keepdims", GE_ATTR_INT, "1", 0}, {"noop_with_empty_axes", GE_ATTR_INT, "0", 0}}, ge__ox_reduce, "sqrt of the sum of squares over axes"},
    {"ReduceLogSum", NULL, 1, 2, 1, 1, 1, {0, 1}, {0}, {GE_DTYPES_NUMERIC, GE__I64}, {{"axes", GE_ATTR_INTS, NULL, 0}, {"keepdims", GE_ATTR_INT, "1", 0}, {"noop_with_empty_axes", GE_ATTR_INT, "0", 0}}, ge__ox_reduce, "log of the sum over axes"},
    {"ReduceLogSumExp", NULL, 1, 2, 1, 1, 1, {0, 1}, {0}, {GE_DTYPES_NUMERIC, GE__I64}, {{"axes", GE_ATTR_INTS, NULL, 0}, {"keepdims", GE_ATTR_INT, "1", 0}, {"noop_with_empty_axes", GE_ATTR_INT, "0", 0}}, ge__ox_reduce, "log of the sum of exp over axes"},
    {"ReduceSumSquare", NULL, 1, 2, 1, 1, 1, {0, 1}, {0}, {GE_DTYPES_NUMERIC, GE__I64}, {{"axes", GE_ATTR_INTS, NULL, 0}, {"keepdims", GE_ATTR_INT, "1", 0}, {"noop_with_empty_axes", GE_ATTR_INT, "0", 0}}, ge__ox_reduce, "sum of squares over axes"},
    {"ArgMax", NULL, 1, 1, 1, 1, 1, {0}, {1}, {GE_DTYPES_NUMERIC, GE__I64}, {{"axis", GE_ATTR_INT, "0", 0}, {"keepdims", GE_ATTR_INT, "1", 0}, {"select_last_index", GE_ATTR_INT, "0", 0}}, ge__ox_argreduce, "int64 index of the max along axis"},
    {"ArgMin", NULL, 1, 1, 1, 1, 1, {0}, {1}, {GE_DTYPES_NUMERIC, GE__I64}, {{"axis", GE_ATTR_INT, "0", 0}, {"keepdims", GE_ATTR_INT, "1", 0}, {"select_last_index", GE_ATTR_INT, "0", 0}}, ge__ox_argreduce, "int64 index of the min along axis"},
    /* shape manipulation */
    {"Reshape", NULL, 1, 2, 1, 1, 1, {0, 1}, {0}, {GE__ANY, GE__I64}, {{"allowzero", GE_ATTR_INT, "0", 0}, {"shape", GE_ATTR_INTS, NULL, 0}}, ge__ox_reshape, "new shape (0 copies, -1 infers)"},
    {"Flatten", NULL, 1, 1, 1, 1, 1, {0}, {0}, {GE__ANY}, {{"axis", GE_ATTR_INT, "1", 0}}, ge__ox_flatten, "to 2-D at axis"},
    {"Squeeze", NULL, 1, 2, 1, 1, 1, {0, 1}, {0}, {GE__ANY, GE__I64}, {{"axes", GE_ATTR_INTS, NULL, 0}}, ge__ox_squeeze, "remove size-1 axes"},
    {"Unsqueeze", NULL, 1, 2, 1, 1, 1, {0, 1}, {0}, {GE__ANY, GE__I64}, {{"axes", GE_ATTR_INTS, NULL, 0}}, ge__ox_unsqueeze, "insert size-1 axes"},
    {"Transpose", NULL, 1, 1, 1, 1, 1, {0}, {0}, {GE__ANY}, {{"perm", GE_ATTR_INTS, NULL, 0}}, ge__ox_transpose, "permute axes (default: reverse)"},
    {"Concat", NULL, 1, -1, 1, 1, 1, {0}, {0}, {GE__ANY}, {{"axis", GE_ATTR_INT, NULL, 1}}, ge__ox_concat, "join along axis"},
    {"Split", NULL, 1, 2, 1, -1, 1, {0, 1}, {0}, {GE__ANY, GE__I64}, {{"axis", GE_ATTR_INT, "0", 0}, {"num_outputs", GE_ATTR_INT, NULL, 0}, {"split", GE_ATTR_INTS, NULL, 0}}, ge__ox_split, "split along axis (sizes by attribute, input or num_outputs)"},
    {"Slice", NULL, 1, 5, 1, 1, 1, {0, 1, 1, 1, 1}, {0}, {GE__ANY, GE__IDX}, {{"starts", GE_ATTR_INTS, NULL, 0}, {"ends", GE_ATTR_INTS, NULL, 0}, {"axes", GE_ATTR_INTS, NULL, 0}}, ge__ox_slice, "strided slice (inputs since opset 10)"},
    {"Gather", NULL, 2, 2, 1, 1, 1, {0, 1}, {0}, {GE__ANY, GE__IDX}, {{"axis", GE_ATTR_INT, "0", 0}}, ge__ox_gather, "take indices along axis"},
    {"GatherElements", NULL, 2, 2, 1, 1, 1, {0, 1}, {0}, {GE__ANY, GE__IDX}, {{"axis", GE_ATTR_INT, "0", 0}}, ge__ox_gather_elements, "element-wise gather along axis"},
    {"GatherND", NULL, 2, 2, 1, 1, 1, {0, 1}, {0}, {GE__ANY, GE__I64}, {{"batch_dims", GE_ATTR_INT, "0", 0}}, ge__ox_gather_nd, "gather slices by index tuples"},
    {"ScatterND", NULL, 3, 3, 1, 1, 1, {0, 1, 0}, {0}, {GE__ANY, GE__I64}, {{"reduction", GE_ATTR_STRING, "none", 0}}, ge__infer_same, "write updates at index tuples"},
    {"ScatterElements", NULL, 3, 3, 1, 1, 1, {0, 1, 0}, {0}, {GE__ANY, GE__IDX}, {{"axis", GE_ATTR_INT, "0", 0}, {"reduction", GE_ATTR_STRING, "none", 0}}, ge__infer_same, "element-wise scatter along axis"},
    {"Expand", NULL, 2, 2, 1, 1, 1, {0, 1}, {0}, {GE__ANY, GE__I64}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__ox_expand, "broadcast to a shape"},
    {"Tile", NULL, 2, 2, 1, 1, 1, {0, 1}, {0}, {GE__ANY, GE__I64}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__ox_tile, "repeat along each axis"},
    {"Pad", NULL, 1, 4, 1, 1, 1, {0, 1, 0, 2}, {0}, {GE__ANY, GE__I64, GE__IDX}, {{"mode", GE_ATTR_STRING, "constant", 0}, {"pads", GE_ATTR_INTS, NULL, 0}, {"value", GE_ATTR_FLOAT, "0.0", 0}}, ge__ox_pad, "pad (constant, reflect, edge, wrap)"},
    {"Shape", NULL, 1, 1, 1, 1, 1, {0}, {1}, {GE__ANY, GE__I64}, {{"start", GE_ATTR_INT, "0", 0}, {"end", GE_ATTR_INT, NULL, 0}}, ge__ox_shape_op, "int64 shape of the input (dims start..end)"},
    {"Size", NULL, 1, 1, 1, 1, 1, {0}, {1}, {GE__ANY, GE__I64}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__ox_size, "int64 element count"},
    {"ConstantOfShape", NULL, 1, 1, 1, 1, 1, {0}, {1}, {GE__I64, GE__ANY}, {{"value", GE_ATTR_TENSOR, NULL, 0}}, ge__ox_constant_of_shape, "tensor of the given shape filled with value (default float 0)"},
    {"Range", NULL, 3, 3, 1, 1, 1, {0}, {0}, {GE__OX_RANGE}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__ox_range, "start, start + delta, ... below limit"},
    {"Resize", NULL, 1, 4, 1, 1, 1, {0, 1, 2, 3}, {0}, {GE__ANY, GE_DTYPES_FLOAT, GE_DTYPE_BIT(GE_DTYPE_FLOAT32), GE__I64}, {{"antialias", GE_ATTR_INT, "0", 0}, {"axes", GE_ATTR_INTS, NULL, 0}, {"coordinate_transformation_mode", GE_ATTR_STRING, "half_pixel", 0}, {"cubic_coeff_a", GE_ATTR_FLOAT, "-0.75", 0}, {"exclude_outside", GE_ATTR_INT, "0", 0}, {"extrapolation_value", GE_ATTR_FLOAT, "0.0", 0}, {"keep_aspect_ratio_policy", GE_ATTR_STRING, "stretch", 0}, {"mode", GE_ATTR_STRING, "nearest", 0}, {"nearest_mode", GE_ATTR_STRING, "round_prefer_floor", 0}}, ge__ox_resize, "interpolate to sizes or by scales"},
    {"Upsample", NULL, 1, 2, 1, 1, 1, {0, 1}, {0}, {GE__ANY, GE_DTYPE_BIT(GE_DTYPE_FLOAT32)}, {{"mode", GE_ATTR_STRING, "nearest", 0}, {"scales", GE_ATTR_FLOATS, NULL, 0}}, ge__ox_resize, "upsample by scales (deprecated: Resize)"},
    {"DepthToSpace", NULL, 1, 1, 1, 1, 1, {0}, {0}, {GE__ANY}, {{"blocksize", GE_ATTR_INT, NULL, 1}, {"mode", GE_ATTR_STRING, "DCR", 0}}, ge__ox_depth_space, "move channel blocks into space"},
    {"SpaceToDepth", NULL, 1, 1, 1, 1, 1, {0}, {0}, {GE__ANY}, {{"blocksize", GE_ATTR_INT, NULL, 1}}, ge__ox_depth_space, "move space blocks into channels"},
    {"OneHot", NULL, 3, 3, 1, 1, 1, {0, 1, 2}, {2}, {GE_DTYPES_NUMERIC, GE_DTYPES_NUMERIC, GE__ANY}, {{"axis", GE_ATTR_INT, "-1", 0}}, ge__ox_onehot, "one-hot encoding along axis"},
    {"TopK", NULL, 1, 2, 2, 2, 2, {0, 1}, {0, 1}, {GE_DTYPES_NUMERIC, GE__I64}, {{"axis", GE_ATTR_INT, "-1", 0}, {"largest", GE_ATTR_INT, "1", 0}, {"sorted", GE_ATTR_INT, "1", 0}, {"k", GE_ATTR_INT, NULL, 0}}, ge__ox_topk, "k largest (or smallest) values and int64 indices"},
    {"NonZero", NULL, 1, 1, 1, 1, 1, {0}, {1}, {GE__ANY, GE__I64}, {{NULL, GE_ATTR_NONE, NULL, 0}}, ge__ox_nonzero, "int64 indices of the non-zero elements, [rank, count]"},
    {"CumSum", NULL, 2, 2, 1, 1, 1, {0, 1}, {0}, {GE_DTYPES_NUMERIC, GE__IDX}, {{"exclusive", GE_ATTR_INT, "0", 0}, {"reverse", GE_ATTR_INT, "0", 0}}, ge__infer_same, "cumulative sum along axis"},
    {"Trilu", NULL, 1, 2, 1, 1, 1, {0, 1}, {0}, {GE__ANY, GE__I64}, {{"upper", GE_ATTR_INT, "1", 0}}, ge__infer_same, "upper or lower triangle of the last two axes"},
    /* softmax and normalizations */
    {"Softmax", NULL, 1, 1, 1, 1, 1, {0}, {0}, {GE_DTYPES_FLOAT}, {{"axis", GE_ATTR_INT, "-1", 0}}, ge__ox_axis_same, "softmax along axis (default -1 since opset 13)"},
    {"LogSoftmax", NULL, 1, 1, 1, 1, 1, {0}, {0}, {GE_DTYPES_FLOAT}, {{"axis", GE_ATTR_INT, "-1", 0}}, ge__ox_axis_same, "log of softmax along axis (default -1 since opset 13)"},
    {"Hardmax", NULL, 1, 1, 1, 1, 1, {0}, {0}, {GE_DTYPES_FLOAT}, {{"axis", GE_ATTR_INT, "-1", 0}}, ge__ox_axis_same, "one-hot of the argmax along axis (default -1 since opset 13)"},
    /* recurrent */
    {"RNN", NULL, 3, 6, 0, 2, 2, {0, 0, 0, 0, 1, 0}, {0, 0}, {GE_DTYPES_FLOAT, GE__I32}, {{"activation_alpha", GE_ATTR_FLOATS, NULL, 0}, {"activation_beta", GE_ATTR_FLOATS, NULL, 0}, {"activations", GE_ATTR_STRINGS, NULL, 0}, {"clip", GE_ATTR_FLOAT, NULL, 0}, {"direction", GE_ATTR_STRING, "forward", 0}, {"hidden_size", GE_ATTR_INT, NULL, 0}, {"layout", GE_ATTR_INT, "0", 0}}, ge__infer_recurrent, "Elman RNN: Y, Y_h (ONNX gate semantics)"},
    {"GRU", NULL, 3, 6, 0, 2, 2, {0, 0, 0, 0, 1, 0}, {0, 0}, {GE_DTYPES_FLOAT, GE__I32}, {{"activation_alpha", GE_ATTR_FLOATS, NULL, 0}, {"activation_beta", GE_ATTR_FLOATS, NULL, 0}, {"activations", GE_ATTR_STRINGS, NULL, 0}, {"clip", GE_ATTR_FLOAT, NULL, 0}, {"direction", GE_ATTR_STRING, "forward", 0}, {"hidden_size", GE_ATTR_INT, NULL, 0}, {"layout", GE_ATTR_INT, "0", 0}, {"linear_before_reset", GE_ATTR_INT, "0", 0}}, ge__infer_recurrent, "GRU (gates z, r, h): Y, Y_h"},
    {"LSTM", NULL, 3, 8, 0, 3, 3, {0, 0, 0, 0, 1, 0, 0, 0}, {0, 0, 0}, {GE_DTYPES_FLOAT, GE__I32}, {{"activation_alpha", GE_ATTR_FLOATS, NULL, 0}, {"activation_beta", GE_ATTR_FLOATS, NULL, 0}, {"activations", GE_ATTR_STRINGS, NULL, 0}, {"clip", GE_ATTR_FLOAT, NULL, 0}, {"direction", GE_ATTR_STRING, "forward", 0}, {"hidden_size", GE_ATTR_INT, NULL, 0}, {"layout", GE_ATTR_INT, "0", 0}, {"input_forget", GE_ATTR_INT, "0", 0}}, ge__infer_recurrent, "LSTM (gates i, o, f, c; peepholes P): Y, Y_h, Y_c"},
    {"BatchNormalization", NULL, 5, 5, 1, 5, 1, {0, 1, 1, 2, 2}, {0, 2, 2, 2, 2}, {GE_DTYPES_FLOAT, GE_DTYPES_FLOAT, GE_DTYPES_FLOAT}, {{"epsilon", GE_ATTR_FLOAT, "1e-05", 0}, {"momentum", GE_ATTR_FLOAT, "0.9", 0}, {"training_mode", GE_ATTR_INT, "0", 0}}, ge__ox_batchnorm, "batch normalization; training outputs are per channel"},
    {"LayerNormalization", NULL, 2, 3, 1, 3, 1, {0}, {0, 1, 1}, {GE_DTYPES_FLOAT, GE_DTYPE_BIT(GE_DTYPE_FLOAT32) | GE_DTYPE_BIT(GE_DTYPE_BFLOAT16)}, {{"axis", GE_ATTR_INT, "-1", 0}, {"epsilon", GE_ATTR_FLOAT, "1e-05", 0}, {"stash_type", GE_ATTR_INT, "1", 0}}, ge__ox_layernorm, "layer normalization from axis; optional Mean, InvStdDev"},
    {"InstanceNormalization", NULL, 3, 3, 1, 1, 1, {0}, {0}, {GE_DTYPES_FLOAT}, {{"epsilon", GE_ATTR_FLOAT, "1e-05", 0}}, ge__ox_instnorm, "per-instance, per-channel normalization"},
    {"LRN", NULL, 1, 1, 1, 1, 1, {0}, {0}, {GE_DTYPES_FLOAT}, {{"alpha", GE_ATTR_FLOAT, "0.0001", 0}, {"beta", GE_ATTR_FLOAT, "0.75", 0}, {"bias", GE_ATTR_FLOAT, "1.0", 0}, {"size", GE_ATTR_INT, NULL, 1}}, ge__infer_same, "local response normalization across channels"},
    {"GroupNormalization", NULL, 3, 3, 1, 1, 1, {0}, {0}, {GE_DTYPES_FLOAT}, {{"epsilon", GE_ATTR_FLOAT, "1e-05", 0}, {"num_groups", GE_ATTR_INT, NULL, 1}, {"stash_type", GE_ATTR_INT, "1", 0}}, ge__infer_same, "normalization over channel groups"},
    {"MeanVarianceNormalization", NULL, 1, 1, 1, 1, 1, {0}, {0}, {GE_DTYPES_FLOAT}, {{"axes", GE_ATTR_INTS, "[0,2,3]", 0}}, ge__infer_same, "(x - mean) / stddev over axes"},
    {"LpNormalization", NULL, 1, 1, 1, 1, 1, {0}, {0}, {GE_DTYPES_FLOAT}, {{"axis", GE_ATTR_INT, "-1", 0}, {"p", GE_ATTR_INT, "2", 0}}, ge__ox_axis_same, "x / Lp norm along axis"},
};

#define GE__NUM_BUILTINS (sizeof ge__builtin_schemas / sizeof ge__builtin_schemas[0])

static const ge_op_schema *ge__builtin_find(const char *op, const char *domain) {
  uint32_t i;
  if (domain && *domain && strcmp(domain, "ai.onnx") != 0) return NULL;
  for (i = 0; i < GE__NUM_BUILTINS; i++)
    if (strcmp(ge__builtin_schemas[i].name, op) == 0) return &ge__builtin_schemas[i];
  return NULL;
}

GE_API const ge_op_schema *ge_op_schema_builtin(uint32_t i) {
  return i < GE__NUM_BUILTINS ? &ge__builtin_schemas[i] : NULL;
}

/* --------------------------------------------- clone, extract, inline */

/* Copies node n of src into dst with no edges: op, domain, flags, module
 * fields, output descs, attributes (subgraphs cloned). */
static ge_status ge__copy_node(ge_graph *dst, const ge_graph *src, const ge_node *n, const char *name,
                               ge_node_id *out, ge_error *err) {
  ge_node *m;
  ge_status st;
  uint32_t i;
  if (src && src->registry == dst->registry && n->schema && !n->domain) {
    /* the graphs share the registry: the node's schema is the op's (a new
       graph would otherwise look up every op again) */
    ge__interned *e = ge__intern(dst, &dst->ops, n->op, NULL);
    if (out) *out = GE_NONE;
    if (!e) return ge__oom(err, dst);
    if (!e->schema) e->schema = n->schema;
    st = ge__add_node(dst, e, name, n->num_inputs, NULL, (int32_t)n->num_outputs, out, err);
  } else {
    st = ge_graph_add_node(dst, n->op, name, n->num_inputs, NULL, (int32_t)n->num_outputs, out, err);
  }
  if (st) return st;
  if (n->domain && (st = ge_node_set_domain(dst, *out, n->domain, err))) return st;
  if ((st = ge__put_attrs(dst, *out, n->attrs, n->num_attrs, err))) return st;
  m = ge__slot(dst, *out);
  m->flags = n->flags;
  m->engine = n->engine;
  m->stream = n->stream;
  m->topo_id = n->topo_id;
  m->cluster = n->cluster;
  for (i = 0; i < n->num_outputs; i++) {
    const ge_tensor_desc *d = &n->outputs[i];
    ge_tensor_desc *e = &m->outputs[i];
    const ge_attr *v = ge_node_attr(n, "value");
    e->dtype = d->dtype;
    e->format = d->format;
    e->offset = d->offset;
    if (!ge__set_shape(dst, &e->shape, d->shape.rank, d->shape.dims, d->shape.info)) return ge__oom(err, dst);
    if (d->name && !(e->name = ge__arena_strdup(&dst->arena, d->name))) return ge__oom(err, dst);
    if (d->value && v && v->type == GE_ATTR_TENSOR && d->value == v->v.t)
      e->value = ge_node_attr(m, "value")->v.t; /* a Const's value is its attribute */
    else if (d->value && !(e->value = ge__copy_tensor(dst, d->value)))
      return ge__oom(err, dst);
  }
  return GE_OK;
}

GE_API ge_status ge_graph_copy_node(ge_graph *dst, const ge_graph *src, const ge_node *n, const char *name,
                                    ge_node_id *out, ge_error *err) {
  return ge__copy_node(dst, src, n, name ? name : n->name, out, err);
}

static ge_status ge__create_like(const ge_graph *g, const ge_graph_desc *desc, ge_graph **out, ge_error *err) {
  ge_graph_desc d;
  if (desc) return ge_graph_create(desc, out, err);
  memset(&d, 0, sizeof d);
  d.name = g->name;
  d.allocator = g->arena.a;
  d.registry = g->registry;
  return ge_graph_create(&d, out, err);
}

GE_API ge_status ge_graph_clone(const ge_graph *g, const ge_graph_desc *desc, ge_graph **out, ge_error *err) {
  ge_graph *h;
  ge_node_id *map;
  uint32_t i, k;
  ge_status st;
  *out = NULL;
  if ((st = ge__create_like(g, desc, &h, err))) return st;
  map = (ge_node_id *)ge__mem_alloc(&g->arena.a, ((size_t)g->id_bound + 1) * sizeof *map);
  if (!map) {
    ge_graph_free(h);
    return ge__oom(err, g);
  }
  for (i = 0; i < g->id_bound && !st; i++) {
    ge_node *n = ge_graph_node(g, i);
    map[i] = GE_NONE;
    if (n) st = ge__copy_node(h, g, n, n->name, &map[i], err);
  }
  for (i = 0; i < g->id_bound && !st; i++) {
    ge_node *n = ge_graph_node(g, i);
    for (k = 0; n && k < n->num_inputs && !st; k++) {
      ge_edge e = n->inputs[k];
      if (e.node != GE_NONE) {
        e.node = map[e.node];
        st = ge_graph_set_input(h, map[i], k, e, err);
      }
    }
    for (k = 0; n && k < n->num_control_inputs && !st; k++)
      st = ge_graph_add_control(h, map[n->control_inputs[k]], map[i], err);
  }
  for (k = 0; k < g->num_attrs && !st; k++) st = ge__put_attr(h, GE_NONE, &g->attrs[k], err);
  ge__mem_free(&g->arena.a, map, ((size_t)g->id_bound + 1) * sizeof *map);
  if (st) {
    ge_graph_free(h);
    return st;
  }
  h->auto_names = g->auto_names;
  *out = h;
  return GE_OK;
}

/* A name not yet used in g: base, or base_1, base_2, ... */
static ge_status ge__free_name(ge_graph *g, const char *base, char *buf, size_t cap, ge_error *err) {
  uint32_t k = 0;
  int oom;
  snprintf(buf, cap, "%s", base);
  while (ge__name_taken(g, buf, &oom) && !oom) snprintf(buf, cap, "%s_%u", base, (unsigned)++k);
  return oom ? ge__oom(err, g) : GE_OK;
}

GE_API void ge_extract_result_free(const ge_graph *g, ge_extract_result *r) {
  ge__mem_free(&g->arena.a, r->boundary_inputs, (size_t)r->num_boundary_inputs * sizeof(ge_edge));
  ge__mem_free(&g->arena.a, r->boundary_outputs, (size_t)r->num_boundary_outputs * sizeof(ge_edge));
  ge__mem_free(&g->arena.a, r->node_map, ((size_t)g->id_bound + 1) * sizeof(ge_node_id));
  ge_graph_free(r->graph);
  memset(r, 0, sizeof *r);
}

/* Boundary inputs of an extraction: each distinct outside source, the Data
 * node standing for it, and a chain per producer for linear-time lookup. */
typedef struct ge__boundary {
  ge_edge src;
  ge_node_id data;
  uint32_t next; /* next entry with the same producer, or GE_NONE */
} ge__boundary;

static ge_status ge__extract_inputs(const ge_graph *g, ge_extract_result *r, ge_error *err) {
  uint32_t *head = (uint32_t *)ge__mem_alloc(&g->arena.a, ((size_t)g->id_bound + 1) * sizeof(uint32_t));
  ge__boundary *b = NULL;
  uint32_t nb = 0, i, k, j;
  ge_status st = GE_OK;
  char name[256], base[200];
  if (!head) return ge__oom(err, g);
  for (i = 0; i < g->id_bound; i++) head[i] = GE_NONE;
  for (i = 0; i < g->id_bound && !st; i++) {
    ge_node *n = ge_graph_node(g, i);
    if (!n || r->node_map[i] == GE_NONE) continue;
    for (k = 0; k < n->num_inputs && !st; k++) {
      ge_edge e = n->inputs[k], inner;
      if (e.node == GE_NONE) continue;
      inner.node = r->node_map[e.node];
      inner.index = e.index;
      if (inner.node == GE_NONE) {
        for (j = head[e.node]; j != GE_NONE && b[j].src.index != e.index; j = b[j].next) {
        }
        if (j == GE_NONE) {
          const ge_node *p = ge__slot(g, e.node);
          const ge_tensor_desc *d = &p->outputs[e.index];
          ge_tensor_desc *o;
          if (nb == ge__cap_of(nb)) {
            ge__boundary *q = (ge__boundary *)ge__mem_realloc(&g->arena.a, b, (size_t)nb * sizeof *b,
                                                              (size_t)(nb ? nb * 2 : 1) * sizeof *b);
            if (!q) { st = ge__oom(err, g); break; }
            b = q;
          }
          j = nb++;
          b[j].src = e;
          b[j].next = head[e.node];
          head[e.node] = j;
          if (d->name) snprintf(base, sizeof base, "%s", d->name);
          else snprintf(base, sizeof base, "%s_out%d", p->name, (int)e.index);
          if ((st = ge__free_name(r->graph, base, name, sizeof name, err)) ||
              (st = ge_graph_add_node(r->graph, "Data", name, 0, NULL, 1, &b[j].data, err)) ||
              (st = ge_node_set_attr_int(r->graph, b[j].data, "index", (int64_t)j, err)))
            break;
          o = &ge__slot(r->graph, b[j].data)->outputs[0];
          o->dtype = d->dtype;
          o->format = d->format;
          if (!ge__set_shape(r->graph, &o->shape, d->shape.rank, d->shape.dims, d->shape.info) ||
              (d->value && !(o->value = ge__copy_tensor(r->graph, d->value)))) {
            st = ge__oom(err, g);
            break;
          }
        }
        inner.node = b[j].data;
        inner.index = 0;
      }
      st = ge_graph_set_input(r->graph, r->node_map[i], k, inner, err);
    }
    for (k = 0; k < n->num_control_inputs && !st; k++)
      if (r->node_map[n->control_inputs[k]] != GE_NONE)
        st = ge_graph_add_control(r->graph, r->node_map[n->control_inputs[k]], r->node_map[i], err);
  }
  if (!st && nb && !(r->boundary_inputs = (ge_edge *)ge__mem_alloc(&g->arena.a, (size_t)nb * sizeof(ge_edge))))
    st = ge__oom(err, g);
  if (!st) {
    r->num_boundary_inputs = nb;
    for (j = 0; j < nb; j++) r->boundary_inputs[j] = b[j].src;
  }
  ge__mem_free(&g->arena.a, b, (size_t)ge__cap_of(nb) * sizeof *b);
  ge__mem_free(&g->arena.a, head, ((size_t)g->id_bound + 1) * sizeof(uint32_t));
  return st;
}

/* Whether output k of member n is read by a non-member. */
static int ge__output_leaves(const ge_graph *g, const ge_extract_result *r, const ge_node *n, uint32_t k) {
  uint32_t j;
  for (j = 0; j < n->num_uses; j++)
    if (r->node_map[n->uses[j].node] == GE_NONE &&
        ge__slot(g, n->uses[j].node)->inputs[n->uses[j].input].index == (int32_t)k)
      return 1;
  return 0;
}

/* Member outputs read by non-members become inputs of the NetOutput. */
static ge_status ge__extract_outputs(const ge_graph *g, ge_extract_result *r, ge_node_id netout, ge_error *err) {
  uint32_t i, k, n_out = 0;
  ge_status st = GE_OK;
  for (i = 0; i < g->id_bound; i++) {
    ge_node *n = ge_graph_node(g, i);
    for (k = 0; n && r->node_map[i] != GE_NONE && k < n->num_outputs; k++) n_out += ge__output_leaves(g, r, n, k);
  }
  if (!n_out) return GE_OK;
  if (!(r->boundary_outputs = (ge_edge *)ge__mem_alloc(&g->arena.a, (size_t)n_out * sizeof(ge_edge))))
    return ge__oom(err, g);
  for (i = 0; i < g->id_bound; i++) {
    ge_node *n = ge_graph_node(g, i);
    for (k = 0; n && r->node_map[i] != GE_NONE && k < n->num_outputs; k++)
      if (ge__output_leaves(g, r, n, k)) {
        r->boundary_outputs[r->num_boundary_outputs].node = i;
        r->boundary_outputs[r->num_boundary_outputs++].index = (int32_t)k;
      }
  }
  if (netout == GE_NONE && (st = ge_graph_add_node(r->graph, "NetOutput", NULL, 0, NULL, 0, &netout, err)))
    return st;
  for (i = 0; i < n_out && !st; i++) {
    ge_edge e = r->boundary_outputs[i];
    const ge_tensor_desc *d = &ge__slot(g, e.node)->outputs[e.index];
    uint32_t at = ge__slot(r->graph, netout)->num_inputs;
    ge_tensor_desc *o;
    e.node = r->node_map[e.node];
    if ((st = ge_graph_add_input(r->graph, netout, e, err)) ||
        (st = ge_graph_set_num_outputs(r->graph, netout, at + 1, err)))
      break;
    o = &ge__slot(r->graph, netout)->outputs[at];
    o->dtype = d->dtype;
    o->format = d->format;
    if (!ge__set_shape(r->graph, &o->shape, d->shape.rank, d->shape.dims, d->shape.info)) st = ge__oom(err, g);
  }
  return st;
}

GE_API ge_status ge_graph_extract(const ge_graph *g, const ge_node_id *nodes, uint32_t count,
                                  ge_extract_result *out, ge_error *err) {
  ge_extract_result r;
  ge_node_id netout = GE_NONE;
  uint32_t i, j;
  ge_status st;
  memset(&r, 0, sizeof r);
  memset(out, 0, sizeof *out);
  if ((st = ge__create_like(g, NULL, &r.graph, err))) return st;
  r.node_map = (ge_node_id *)ge__mem_alloc(&g->arena.a, ((size_t)g->id_bound + 1) * sizeof(ge_node_id));
  if (!r.node_map) {
    ge_graph_free(r.graph);
    return ge__oom(err, g);
  }
  for (i = 0; i < g->id_bound; i++) r.node_map[i] = GE_NONE;
  for (i = 0; i < count && !st; i++) {
    if (!ge_graph_node(g, nodes[i])) st = ge__bad_node(err, g, nodes[i]);
    else r.node_map[nodes[i]] = 0; /* member mark; the copy's id comes below */
  }
  for (i = 0; i < g->id_bound && !st; i++) {
    ge_node *n = ge_graph_node(g, i);
    if (!n || r.node_map[i] == GE_NONE) continue;
    st = ge__copy_node(r.graph, g, n, n->name, &r.node_map[i], err);
    if (ge__is_op(n, "NetOutput")) netout = r.node_map[i];
  }
  if (!st) st = ge__extract_inputs(g, &r, err);
  /* member Data nodes are numbered after the boundary ones */
  for (i = 0, j = r.num_boundary_inputs; i < g->id_bound && !st; i++) {
    ge_node *n = ge_graph_node(g, i);
    if (n && r.node_map[i] != GE_NONE && ge__is_op(n, "Data") && ge_node_attr(n, "index"))
      st = ge_node_set_attr_int(r.graph, r.node_map[i], "index", (int64_t)j++, err);
  }
  if (!st) st = ge__extract_outputs(g, &r, netout, err);
  if (st) {
    ge_extract_result_free(g, &r);
    return st;
  }
  *out = r;
  return GE_OK;
}

/* The parent input a subgraph Data node stands for (-1 if none). */
static int64_t ge__data_parent_input(const ge_node *d) {
  const ge_attr *a = ge_node_attr(d, "parent_index");
  if (!a) a = ge_node_attr(d, "index");
  return a && a->type == GE_ATTR_INT ? a->v.i : -1;
}

/* Where a subgraph tensor comes from once inlined into g. */
static ge_edge ge__inlined_source(const ge_graph *sub, const ge_node *call, const ge_node_id *map, ge_edge e) {
  ge_edge none;
  const ge_node *p;
  none.node = GE_NONE;
  none.index = 0;
  if (e.node == GE_NONE) return none;
  p = ge__slot(sub, e.node);
  if (ge__is_op(p, "Data")) {
    int64_t k = ge__data_parent_input(p);
    return k >= 0 && k < (int64_t)call->num_inputs ? call->inputs[k] : none;
  }
  e.node = map[e.node];
  return e;
}

GE_API ge_status ge_graph_inline(ge_graph *g, ge_node_id call, ge_error *err) {
  ge_node *p = ge_graph_node(g, call);
  const ge_attr *f;
  ge_graph *sub;
  ge_node_id *map, before = GE_NONE, after = GE_NONE, inner_out;
  uint32_t i, k;
  ge_status st = GE_OK;
  char name[256], base[256];
  if (!p) return ge__bad_node(err, g, call);
  f = ge_node_attr(p, "f");
  if (!ge__is_op(p, "PartitionedCall") || !f || f->type != GE_ATTR_GRAPH)
    return ge_error_set(err, GE_ERR_INVALID, "node '%s' (%s) is not a PartitionedCall with a graph attribute 'f'",
                    p->name, p->op);
  sub = f->v.g;
  inner_out = ge_graph_output_node(sub);
  if ((inner_out == GE_NONE ? 0 : ge__slot(sub, inner_out)->num_inputs) != p->num_outputs)
    return ge_error_set(err, GE_ERR_INVALID, "PartitionedCall '%s' has %u outputs but its subgraph '%s' returns %u",
                    p->name, (unsigned)p->num_outputs, ge_graph_name(sub),
                    inner_out == GE_NONE ? 0u : (unsigned)ge__slot(sub, inner_out)->num_inputs);
  for (i = 0; i < sub->id_bound; i++) {
    ge_node *d = ge_graph_node(sub, i);
    int64_t k2;
    if (!d || !ge__is_op(d, "Data")) continue;
    k2 = ge__data_parent_input(d);
    if (k2 < 0 || k2 >= (int64_t)p->num_inputs)
      return ge_error_set(err, GE_ERR_INVALID, "subgraph '%s' of '%s': Data '%s' maps to input %lld, out of range",
                      ge_graph_name(sub), p->name, d->name, (long long)k2);
  }
  map = (ge_node_id *)ge__mem_alloc(&g->arena.a, ((size_t)sub->id_bound + 1) * sizeof *map);
  if (!map) return ge__oom(err, g);
  /* 1. copy the body (not its Data and NetOutput), names kept when free */
  for (i = 0; i < sub->id_bound && !st; i++) {
    ge_node *n = ge_graph_node(sub, i);
    map[i] = GE_NONE;
    if (!n || ge__is_op(n, "Data") || ge__is_op(n, "NetOutput")) continue;
    if (!ge__name_index_reserve(g)) st = ge__oom(err, g);
    else if (ge_graph_find(g, n->name) == GE_NONE) st = ge__copy_node(g, sub, n, n->name, &map[i], err);
    else {
      snprintf(base, sizeof base, "%s/%s", p->name, n->name);
      if (!(st = ge__free_name(g, base, name, sizeof name, err))) st = ge__copy_node(g, sub, n, name, &map[i], err);
    }
  }
  /* 2. edges of the body */
  for (i = 0; i < sub->id_bound && !st; i++) {
    ge_node *n = ge_graph_node(sub, i);
    if (!n || map[i] == GE_NONE) continue;
    for (k = 0; k < n->num_inputs && !st; k++)
      st = ge_graph_set_input(g, map[i], k, ge__inlined_source(sub, p, map, n->inputs[k]), err);
    for (k = 0; k < n->num_control_inputs && !st; k++)
      if (map[n->control_inputs[k]] != GE_NONE) st = ge_graph_add_control(g, map[n->control_inputs[k]], map[i], err);
  }
  /* 3. consumers of the call read the body's results */
  for (i = 0; i < p->num_outputs && !st; i++) {
    ge_edge from, to;
    from.node = call;
    from.index = (int32_t)i;
    to = ge__inlined_source(sub, p, map, ge__slot(sub, inner_out)->inputs[i]);
    if (to.node == GE_NONE) {
      if (ge__slot(g, call)->num_uses)
        for (k = 0; k < p->num_uses; k++)
          if (ge__slot(g, p->uses[k].node)->inputs[p->uses[k].input].index == (int32_t)i) {
            st = ge_error_set(err, GE_ERR_INVALID, "PartitionedCall '%s': output %u is used but its subgraph leaves it unset",
                          p->name, (unsigned)i);
            break;
          }
      continue;
    }
    st = ge_graph_replace_uses(g, from, to, err);
  }
  /* 4. control edges of the call go through a NoOp before and after */
  if (!st && p->num_control_inputs) {
    snprintf(base, sizeof base, "%s_before", p->name);
    if (!(st = ge__free_name(g, base, name, sizeof name, err)))
      st = ge_graph_add_node(g, "NoOp", name, 0, NULL, 0, &before, err);
    for (k = 0; k < p->num_control_inputs && !st; k++) st = ge_graph_add_control(g, p->control_inputs[k], before, err);
  }
  if (!st && p->num_control_outputs) {
    snprintf(base, sizeof base, "%s_after", p->name);
    if (!(st = ge__free_name(g, base, name, sizeof name, err)))
      st = ge_graph_add_node(g, "NoOp", name, 0, NULL, 0, &after, err);
    for (k = 0; k < p->num_control_outputs && !st; k++) st = ge_graph_add_control(g, after, p->control_outputs[k], err);
  }
  for (i = 0; i < sub->id_bound && !st; i++) {
    ge_node *n = ge_graph_node(sub, i);
    const ge_node *m;
    int has_pred = 0, has_succ = 0;
    if (!n || map[i] == GE_NONE) continue;
    m = ge__slot(g, map[i]);
    for (k = 0; k < n->num_inputs; k++) has_pred |= n->inputs[k].node != GE_NONE && map[n->inputs[k].node] != GE_NONE;
    for (k = 0; k < n->num_control_inputs; k++) has_pred |= map[n->control_inputs[k]] != GE_NONE;
    for (k = 0; k < n->num_uses; k++) has_succ |= map[n->uses[k].node] != GE_NONE;
    for (k = 0; k < n->num_control_outputs; k++) has_succ |= map[n->control_outputs[k]] != GE_NONE;
    if (before != GE_NONE && !has_pred) st = ge_graph_add_control(g, before, m->id, err);
    if (!st && after != GE_NONE && !has_succ) st = ge_graph_add_control(g, m->id, after, err);
  }
  if (!st && before != GE_NONE && after != GE_NONE) st = ge_graph_add_control(g, before, after, err);
  ge__mem_free(&g->arena.a, map, ((size_t)sub->id_bound + 1) * sizeof *map);
  /* 5. the call goes (and its subgraph with it) */
  if (!st) st = ge_graph_remove_node(g, call, err);
  return st;
}

/* ------------------------------------------------------ serialization */

/* Binary graph format, version 1. Integers in fixed fields are little
 * endian; everything else is a varint (LEB128, at most 10 bytes), zz (a
 * zigzag varint for signed values) or one of:
 *   str   varint length, then the bytes (no NUL inside)
 *   nstr  varint 0 for NULL, else length + 1, then the bytes
 *   sidx  varint: 1 + index into the string table (0: none, where allowed)
 *
 *   header, 32 bytes
 *      0  magic     0x89 'G' 'E' 'G' 'R' 'A' 'P' 'H'
 *      8  version   u32, 1
 *     12  flags     u32, 0 (no flags are defined; others are rejected)
 *     16  length    u64, payload bytes: the file is exactly 32 + length
 *     24  checksum  u64, XXH3_64bits of the payload
 *   payload
 *     body_length u64, then the body (the root graph), then the string table:
 *     varint count, count x str (op types, domains, attribute names, dim
 *     symbols; each string once)
 *
 *   graph  nstr name; varint num_attrs, attr...; varint num_nodes, node...
 *   node   varint field mask (GE__NB_*); sidx op; [sidx domain];
 *          name: varint prefix shared with the previous node's name, str rest;
 *          [varint num_attrs, attr...]; varint num_inputs, input...;
 *          [varint count, zz (id - control input id)...];
 *          varint num_outputs, desc...; [zz engine] [zz stream] [zz topo_id]
 *          [zz cluster] [varint flags]
 *   input  varint 0: absent; else 1 + (zz(id - producer id) << 1 | has_index),
 *          then varint index when has_index (index != 0)
 *   desc   varint field mask (GE__DB_*); byte dtype; zz rank (-2: unknown);
 *          rank x varint (dim + 1); [str name]; [varint format]; [zz offset];
 *          [rank x (zz lo, zz hi, sidx-or-0 symbol)]; [varint attribute index
 *          whose tensor is the value (Const)] or [tensor value]
 *   attr   sidx name; byte type (ge_attr_type); value: int zz; float 8 bytes
 *          (IEEE bits); bool byte; string str; dtype zz; tensor; graph; lists:
 *          varint count, then count values (bools one byte each)
 *   tensor byte dtype; varint rank; rank x varint dims; data: numel x dtype
 *          size bytes, little endian, or numel x str for string tensors
 *
 * Node ids: nodes are written in id order and loaded densely: holes left by
 * removed nodes are compacted (the k-th live node gets id k), so ids may
 * shift but their order is kept. `uses` and control_outputs are rebuilt
 * from the inputs (their order may differ). Borrowed tensors are written as
 * data and load as owned; a loaded graph never points into the bytes, which
 * may be freed after loading. The root graph takes the file's name,
 * or desc->name when that is set; subgraphs use desc's allocator and
 * registry too. Loading validates every count, index, length, dtype and
 * rank against the bytes that remain before allocating; subgraphs nest at
 * most GE__SERIAL_MAX_DEPTH deep, and their number is bounded by the file
 * size (64 + size / 16), which bounds the memory a small file can claim.
 * Defining GE__SERIAL_NO_CHECKSUM (tests only) skips the checksum
 * comparison so that fuzzing reaches the structural checks. */

#define GE__SERIAL_VERSION 1u
#define GE__SERIAL_HEADER 32u
#define GE__SERIAL_MAX_DEPTH 64

static const uint8_t ge__serial_magic[8] = {0x89, 'G', 'E', 'G', 'R', 'A', 'P', 'H'};

enum { /* node field mask */
  GE__NB_DOMAIN = 1, GE__NB_ATTRS = 2, GE__NB_CONTROL = 4, GE__NB_ENGINE = 8,
  GE__NB_STREAM = 16, GE__NB_TOPO = 32, GE__NB_CLUSTER = 64, GE__NB_FLAGS = 128,
  GE__NB_ALL = 255
};
enum { /* output desc field mask */
  GE__DB_NAME = 1, GE__DB_FORMAT = 2, GE__DB_OFFSET = 4, GE__DB_INFO = 8,
  GE__DB_ALIAS = 16, GE__DB_VALUE = 32, GE__DB_ALL = 63
};

/* ------------------------------------------------- output buffer */

typedef struct ge__wbuf {
  ge_allocator a;
  uint8_t *p;
  size_t len, cap;
  int oom;
} ge__wbuf;

static void ge__wbuf_init(ge__wbuf *w, const ge_allocator *a) {
  memset(w, 0, sizeof *w);
  w->a = *a;
}
static void ge__wbuf_free(ge__wbuf *w) {
  ge__mem_free(&w->a, w->p, w->cap);
  w->p = NULL;
  w->len = w->cap = 0;
}

static int ge__w_grow(ge__wbuf *w, size_t need) {
  size_t ncap = w->cap ? w->cap : 256;
  uint8_t *q;
  if (w->oom) return 0;
  while (ncap - w->len < need) {
    if (ncap > ((size_t)-1) / 4) {
      w->oom = 1;
      return 0;
    }
    ncap *= 2;
  }
  q = (uint8_t *)ge__mem_realloc(&w->a, w->p, w->cap, ncap);
  if (!q) {
    w->oom = 1;
    return 0;
  }
  w->p = q;
  w->cap = ncap;
  return 1;
}

static int ge__w_room(ge__wbuf *w, size_t n) { return w->cap - w->len >= n || ge__w_grow(w, n); }

static void ge__w_byte(ge__wbuf *w, uint8_t b) {
  if (ge__w_room(w, 1)) w->p[w->len++] = b;
}
static void ge__w_bytes(ge__wbuf *w, const void *src, size_t n) {
  if (n && ge__w_room(w, n)) {
    memcpy(w->p + w->len, src, n);
    w->len += n;
  }
}
static void ge__w_varint(ge__wbuf *w, uint64_t v) {
  uint8_t *p;
  if (!ge__w_room(w, 10)) return;
  p = w->p + w->len;
  while (v >= 0x80) {
    *p++ = (uint8_t)(v | 0x80);
    v >>= 7;
  }
  *p++ = (uint8_t)v;
  w->len = (size_t)(p - w->p);
}
static uint64_t ge__zz(int64_t v) { return v < 0 ? ~((uint64_t)v << 1) : (uint64_t)v << 1; }
static int64_t ge__unzz(uint64_t u) { return (int64_t)(u >> 1) ^ -(int64_t)(u & 1); }
static void ge__w_zz(ge__wbuf *w, int64_t v) { ge__w_varint(w, ge__zz(v)); }
static void ge__put_le(uint8_t *p, uint64_t v, int n) {
  int i;
  for (i = 0; i < n; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static uint64_t ge__get_le(const uint8_t *p, int n) {
  uint64_t v = 0;
  int i;
  for (i = 0; i < n; i++) v |= (uint64_t)p[i] << (8 * i);
  return v;
}
static void ge__w_u64(ge__wbuf *w, uint64_t v) {
  if (ge__w_room(w, 8)) {
    ge__put_le(w->p + w->len, v, 8);
    w->len += 8;
  }
}
static void ge__w_f64(ge__wbuf *w, double d) {
  uint64_t u;
  memcpy(&u, &d, 8);
  ge__w_u64(w, u);
}
static void ge__w_str(ge__wbuf *w, const char *s) {
  size_t n = s ? strlen(s) : 0;
  ge__w_varint(w, n);
  ge__w_bytes(w, s, n);
}
static void ge__w_nstr(ge__wbuf *w, const char *s) {
  size_t n;
  if (!s) {
    ge__w_byte(w, 0);
    return;
  }
  n = strlen(s);
  ge__w_varint(w, (uint64_t)n + 1);
  ge__w_bytes(w, s, n);
}

/* Tensor data is little endian in the file; swap units are element sizes
 * (complex numbers swap their two halves separately). */
static int ge__host_le(void) {
  const uint32_t one = 1;
  uint8_t c;
  memcpy(&c, &one, 1);
  return c == 1;
}
static size_t ge__swap_unit(ge_dtype t) {
  if (t == GE_DTYPE_COMPLEX64) return 4;
  if (t == GE_DTYPE_COMPLEX128) return 8;
  return ge_dtype_size(t);
}
static void ge__copy_le(uint8_t *dst, const uint8_t *src, size_t n, size_t unit) {
  size_t i, k;
  if (unit <= 1 || ge__host_le()) {
    memcpy(dst, src, n);
    return;
  }
  for (i = 0; i + unit <= n; i += unit)
    for (k = 0; k < unit; k++) dst[i + k] = src[i + unit - 1 - k];
}
static void ge__w_elems(ge__wbuf *w, const void *data, size_t n, size_t unit) {
  if (!n || !ge__w_room(w, n)) return;
  ge__copy_le(w->p + w->len, (const uint8_t *)data, n, unit);
  w->len += n;
}

/* Checks that t is a tensor that can be written (and read back); returns
 * its element count, or -1. */
static int64_t ge__tensor_check(const ge_tensor *t) {
  int64_t n = 1;
  int32_t i;
  if (!t || (unsigned)t->dtype >= GE_DTYPE_COUNT || t->dtype == GE_DTYPE_UNDEFINED) return -1;
  if (t->rank < 0 || t->rank > GE_MAX_RANK || (t->rank && !t->dims)) return -1;
  for (i = 0; i < t->rank; i++) {
    if (t->dims[i] < 0 || (t->dims[i] && n > INT64_MAX / t->dims[i])) return -1;
    n *= t->dims[i];
  }
  if (t->dtype == GE_DTYPE_STRING) {
    if ((uint64_t)n > (uint64_t)(((size_t)-1) / sizeof(char *))) return -1;
    if (n && (!t->data || t->nbytes < (size_t)n * sizeof(char *))) return -1;
  } else {
    if ((uint64_t)n > (uint64_t)(((size_t)-1) / ge_dtype_size(t->dtype))) return -1;
    if (t->nbytes != (size_t)n * ge_dtype_size(t->dtype) || (t->nbytes && !t->data)) return -1;
  }
  return n;
}

/* ------------------------------------------- string table (writer) */

typedef struct ge__sslot {
  const char *s;
  uint64_t h;
  uint32_t idx;
} ge__sslot;

typedef struct ge__stab {
  ge_allocator a;
  ge__sslot *slots;
  uint32_t cap, count;
  const char **list; /* by index */
  uint32_t list_cap;
  const char *pc_key[64]; /* pointer cache: interned strings repeat by address */
  uint32_t pc_val[64];
  int oom;
} ge__stab;

static void ge__stab_free(ge__stab *t) {
  ge__mem_free(&t->a, t->slots, (size_t)t->cap * sizeof *t->slots);
  ge__mem_free(&t->a, (void *)t->list, (size_t)t->list_cap * sizeof *t->list);
}

/* 1 + the index of s in the table (added if new); 0 on OOM. */
static uint32_t ge__stab_find(ge__stab *t, const char *s) {
  uint32_t pc = (uint32_t)(((uint64_t)(uintptr_t)s * 0x9E3779B97F4A7C15ull) >> 58), i;
  uint64_t h;
  if (t->pc_key[pc] == s) return t->pc_val[pc];
  if (t->oom) return 0;
  if ((t->count + 1) * 2 > t->cap) {
    uint32_t ncap = t->cap ? t->cap * 2 : 64, j;
    ge__sslot *ns = (ge__sslot *)ge__mem_alloc(&t->a, (size_t)ncap * sizeof *ns);
    if (!ns) {
      t->oom = 1;
      return 0;
    }
    memset(ns, 0, (size_t)ncap * sizeof *ns);
    for (j = 0; j < t->cap; j++) {
      uint32_t k;
      if (!t->slots[j].s) continue;
      for (k = (uint32_t)t->slots[j].h & (ncap - 1); ns[k].s; k = (k + 1) & (ncap - 1)) {
      }
      ns[k] = t->slots[j];
    }
    ge__mem_free(&t->a, t->slots, (size_t)t->cap * sizeof *t->slots);
    t->slots = ns;
    t->cap = ncap;
  }
  h = ge__hash_str(s);
  for (i = (uint32_t)h & (t->cap - 1); t->slots[i].s; i = (i + 1) & (t->cap - 1))
    if (t->slots[i].h == h && strcmp(t->slots[i].s, s) == 0) {
      t->pc_key[pc] = s;
      t->pc_val[pc] = t->slots[i].idx + 1;
      return t->slots[i].idx + 1;
    }
  if (t->count == t->list_cap) {
    uint32_t ncap = t->list_cap ? t->list_cap * 2 : 64;
    const char **nl = (const char **)ge__mem_realloc(&t->a, (void *)t->list, (size_t)t->list_cap * sizeof(char *),
                                                     (size_t)ncap * sizeof(char *));
    if (!nl) {
      t->oom = 1;
      return 0;
    }
    t->list = nl;
    t->list_cap = ncap;
  }
  t->list[t->count] = s;
  t->slots[i].s = s;
  t->slots[i].h = h;
  t->slots[i].idx = t->count++;
  t->pc_key[pc] = s;
  t->pc_val[pc] = t->count;
  return t->count;
}

/* ------------------------------------------------------- writer */

typedef struct ge__ser {
  ge__wbuf w;
  ge__stab st;
  ge_error *err;
  ge_status status;
} ge__ser;

static void ge__ser_fail(ge__ser *s, ge_status code, const char *fmt, ...) GE__PRINTF(3, 4);
static void ge__ser_fail(ge__ser *s, ge_status code, const char *fmt, ...) {
  char msg[400];
  va_list ap;
  if (s->status) return;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  s->status = ge_error_set(s->err, code, "cannot serialize: %s", msg);
}

static void ge__ser_sidx(ge__ser *s, const char *str) {
  uint32_t i = ge__stab_find(&s->st, str);
  if (!i) s->st.oom = 1;
  ge__w_varint(&s->w, i);
}

static void ge__ser_tensor(ge__ser *s, const ge_tensor *t, const char *what) {
  int64_t n = ge__tensor_check(t), i;
  int32_t k;
  if (n < 0) {
    ge__ser_fail(s, GE_ERR_INVALID, "%s: invalid tensor (dtype, rank, dims or byte size)", what);
    return;
  }
  ge__w_byte(&s->w, (uint8_t)t->dtype);
  ge__w_varint(&s->w, (uint64_t)t->rank);
  for (k = 0; k < t->rank; k++) ge__w_varint(&s->w, (uint64_t)t->dims[k]);
  if (t->dtype == GE_DTYPE_STRING) {
    const char *const *strs = (const char *const *)t->data;
    for (i = 0; i < n; i++) ge__w_str(&s->w, strs[i]);
  } else {
    ge__w_elems(&s->w, t->data, (size_t)n * ge_dtype_size(t->dtype), ge__swap_unit(t->dtype));
  }
}

static void ge__ser_graph(ge__ser *s, const ge_graph *g, int depth);

static void ge__ser_attr(ge__ser *s, const ge_attr *a, const char *owner, int depth) {
  ge__wbuf *w = &s->w;
  int32_t i, n = a->count;
  if (!a->name || !*a->name) {
    ge__ser_fail(s, GE_ERR_INVALID, "node '%s' has an attribute without a name", owner);
    return;
  }
  if (n < 0) {
    ge__ser_fail(s, GE_ERR_INVALID, "node '%s' attribute '%s' has count %d", owner, a->name, (int)n);
    return;
  }
  ge__ser_sidx(s, a->name);
  ge__w_byte(w, (uint8_t)a->type);
  switch (a->type) {
  case GE_ATTR_INT: ge__w_zz(w, a->v.i); break;
  case GE_ATTR_FLOAT: ge__w_f64(w, a->v.f); break;
  case GE_ATTR_BOOL: ge__w_byte(w, a->v.b ? 1 : 0); break;
  case GE_ATTR_STRING: ge__w_str(w, a->v.s); break;
  case GE_ATTR_DTYPE:
    if ((unsigned)a->v.dt >= GE_DTYPE_COUNT)
      ge__ser_fail(s, GE_ERR_INVALID, "node '%s' attribute '%s': invalid dtype %d", owner, a->name, (int)a->v.dt);
    ge__w_zz(w, (int64_t)a->v.dt);
    break;
  case GE_ATTR_TENSOR: ge__ser_tensor(s, a->v.t, a->name); break;
  case GE_ATTR_GRAPH:
    if (!a->v.g) ge__ser_fail(s, GE_ERR_INVALID, "node '%s' attribute '%s' has no graph", owner, a->name);
    else ge__ser_graph(s, a->v.g, depth + 1);
    break;
  case GE_ATTR_INTS:
    ge__w_varint(w, (uint64_t)n);
    for (i = 0; i < n; i++) ge__w_zz(w, a->v.ints[i]);
    break;
  case GE_ATTR_FLOATS:
    ge__w_varint(w, (uint64_t)n);
    for (i = 0; i < n; i++) ge__w_f64(w, a->v.floats[i]);
    break;
  case GE_ATTR_BOOLS:
    ge__w_varint(w, (uint64_t)n);
    ge__w_bytes(w, a->v.bools, (size_t)n);
    break;
  case GE_ATTR_STRINGS:
    ge__w_varint(w, (uint64_t)n);
    for (i = 0; i < n; i++) ge__w_str(w, a->v.strings[i]);
    break;
  case GE_ATTR_DTYPES:
    ge__w_varint(w, (uint64_t)n);
    for (i = 0; i < n; i++) {
      if ((unsigned)a->v.dtypes[i] >= GE_DTYPE_COUNT)
        ge__ser_fail(s, GE_ERR_INVALID, "node '%s' attribute '%s': invalid dtype %d", owner, a->name,
                     (int)a->v.dtypes[i]);
      ge__w_zz(w, (int64_t)a->v.dtypes[i]);
    }
    break;
  case GE_ATTR_TENSORS:
    ge__w_varint(w, (uint64_t)n);
    for (i = 0; i < n && !s->status; i++) ge__ser_tensor(s, a->v.tensors[i], a->name);
    break;
  case GE_ATTR_GRAPHS:
    ge__w_varint(w, (uint64_t)n);
    for (i = 0; i < n && !s->status; i++) {
      if (!a->v.graphs[i]) ge__ser_fail(s, GE_ERR_INVALID, "node '%s' attribute '%s' has no graph %d", owner, a->name, (int)i);
      else ge__ser_graph(s, a->v.graphs[i], depth + 1);
    }
    break;
  default:
    ge__ser_fail(s, GE_ERR_INVALID, "node '%s' attribute '%s' has invalid type %d", owner, a->name, (int)a->type);
  }
}

/* Unchecked writes through a cursor, after ge__w_room reserved the bytes
 * (a varint takes at most 10). */
static uint8_t *ge__put_varint(uint8_t *p, uint64_t v) {
  while (v >= 0x80) {
    *p++ = (uint8_t)(v | 0x80);
    v >>= 7;
  }
  *p++ = (uint8_t)v;
  return p;
}
static uint8_t *ge__put_sidx(ge__ser *s, uint8_t *p, const char *str) {
  uint32_t i = ge__stab_find(&s->st, str);
  if (!i) s->st.oom = 1;
  return ge__put_varint(p, i);
}

/* Calls body with ge_node *var for each slot (live or not) of ids 0..bound-1,
 * walking the chunks instead of looking every id up. */
#define GE__IO_FOR_SLOTS(g, bound, var, body)                                \
  do {                                                                      \
    uint32_t ge__k_, ge__id_ = 0;                                           \
    for (ge__k_ = 0; ge__id_ < (bound) && ge__k_ < GE__MAX_CHUNKS; ge__k_++) { \
      ge_node *ge__c_ = (g)->chunks[ge__k_];                                \
      uint32_t ge__j_, ge__n_ = (uint32_t)1 << (GE__CHUNK0_LOG + ge__k_);   \
      if (ge__n_ > (bound) - ge__id_) ge__n_ = (bound) - ge__id_;           \
      for (ge__j_ = 0; ge__j_ < ge__n_; ge__j_++, ge__id_++) {              \
        ge_node *var = &ge__c_[ge__j_];                                     \
        body;                                                               \
      }                                                                     \
    }                                                                       \
  } while (0)

static void ge__ser_desc(ge__ser *s, const ge_node *n, uint32_t oi, const ge_tensor_desc *d) {
  ge__wbuf *w = &s->w;
  uint32_t bits = 0, alias = 0, k;
  int32_t i, rank = d->shape.rank;
  size_t name_len = d->name ? strlen(d->name) : 0;
  uint8_t *p;
  if ((unsigned)d->dtype >= GE_DTYPE_COUNT || (unsigned)d->format >= GE_FORMAT_COUNT ||
      (rank < 0 && rank != GE_RANK_UNKNOWN) || rank > GE_MAX_RANK || (rank > 0 && !d->shape.dims)) {
    ge__ser_fail(s, GE_ERR_INVALID, "node '%s' output %u: invalid dtype, format or rank", n->name, (unsigned)oi);
    return;
  }
  for (i = 0; i < rank; i++)
    if (d->shape.dims[i] < GE_DIM_UNKNOWN) {
      ge__ser_fail(s, GE_ERR_INVALID, "node '%s' output %u: invalid dimension %lld", n->name, (unsigned)oi,
                   (long long)d->shape.dims[i]);
      return;
    }
  if (d->name) bits |= GE__DB_NAME;
  if (d->format) bits |= GE__DB_FORMAT;
  if (d->offset != -1) bits |= GE__DB_OFFSET;
  if (rank > 0 && d->shape.info) bits |= GE__DB_INFO;
  if (d->value) {
    bits |= GE__DB_VALUE;
    for (k = 0; k < n->num_attrs; k++)
      if (n->attrs[k].type == GE_ATTR_TENSOR && n->attrs[k].v.t == d->value) {
        bits = (bits & ~(uint32_t)GE__DB_VALUE) | GE__DB_ALIAS;
        alias = k;
        break;
      }
  }
  if (!ge__w_room(w, 60 + name_len + (size_t)(rank > 0 ? rank : 0) * 40)) return;
  p = w->p + w->len;
  *p++ = (uint8_t)bits;
  *p++ = (uint8_t)d->dtype;
  p = ge__put_varint(p, ge__zz(rank));
  for (i = 0; i < rank; i++) p = ge__put_varint(p, (uint64_t)(d->shape.dims[i] + 1));
  if (bits & GE__DB_NAME) {
    p = ge__put_varint(p, name_len);
    memcpy(p, d->name, name_len);
    p += name_len;
  }
  if (bits & GE__DB_FORMAT) p = ge__put_varint(p, (uint64_t)d->format);
  if (bits & GE__DB_OFFSET) p = ge__put_varint(p, ge__zz(d->offset));
  if (bits & GE__DB_INFO)
    for (i = 0; i < rank; i++) {
      const ge_dim_info *di = &d->shape.info[i];
      p = ge__put_varint(p, ge__zz(di->lo));
      p = ge__put_varint(p, ge__zz(di->hi));
      if (di->symbol) p = ge__put_sidx(s, p, di->symbol);
      else *p++ = 0;
    }
  if (bits & GE__DB_ALIAS) p = ge__put_varint(p, alias);
  w->len = (size_t)(p - w->p);
  if (bits & GE__DB_VALUE) ge__ser_tensor(s, d->value, n->name);
}

static void ge__ser_node(ge__ser *s, const ge_graph *g, const ge_node *n, uint32_t cur, const uint32_t *remap,
                         const char **prev, int depth) {
  ge__wbuf *w = &s->w;
  uint32_t bits = 0, flags = n->flags & ~(uint32_t)GE_NODE_REMOVED, i;
  size_t shared = 0, rest;
  uint8_t *p;
  if (!n->name || !*n->name || !n->op || !*n->op) {
    ge__ser_fail(s, GE_ERR_INVALID, "node %u of graph '%s' has no name or op", (unsigned)n->id, ge_graph_name(g));
    return;
  }
  if (n->domain && *n->domain) bits |= GE__NB_DOMAIN;
  if (n->num_attrs) bits |= GE__NB_ATTRS;
  if (n->num_control_inputs) bits |= GE__NB_CONTROL;
  if (n->engine != -1) bits |= GE__NB_ENGINE;
  if (n->stream != -1) bits |= GE__NB_STREAM;
  if (n->topo_id != -1) bits |= GE__NB_TOPO;
  if (n->cluster != -1) bits |= GE__NB_CLUSTER;
  if (flags) bits |= GE__NB_FLAGS;
  while ((*prev)[shared] && (*prev)[shared] == n->name[shared]) shared++;
  rest = strlen(n->name + shared);
  /* mask, op, domain, name */
  if (!ge__w_room(w, 40 + rest)) return;
  p = ge__put_varint(w->p + w->len, bits);
  p = ge__put_sidx(s, p, n->op);
  if (bits & GE__NB_DOMAIN) p = ge__put_sidx(s, p, n->domain);
  p = ge__put_varint(p, shared);
  p = ge__put_varint(p, rest);
  memcpy(p, n->name + shared, rest);
  w->len = (size_t)(p + rest - w->p);
  *prev = n->name;
  if (bits & GE__NB_ATTRS) {
    ge__w_varint(w, n->num_attrs);
    for (i = 0; i < n->num_attrs && !s->status; i++) ge__ser_attr(s, &n->attrs[i], n->name, depth);
  }
  /* inputs, control inputs, output count */
  if (!ge__w_room(w, 30 + 16 * ((size_t)n->num_inputs + n->num_control_inputs))) return;
  p = ge__put_varint(w->p + w->len, n->num_inputs);
  for (i = 0; i < n->num_inputs; i++) {
    ge_edge e = n->inputs[i];
    uint64_t code;
    if (e.node == GE_NONE) {
      *p++ = 0;
      continue;
    }
    {
      const ge_node *src = ge_graph_node(g, e.node);
      if (!src || e.index < 0 || (uint32_t)e.index >= src->num_outputs) {
        ge__ser_fail(s, GE_ERR_INVALID, "node '%s' input %u: dangling edge from id %u output %d", n->name,
                     (unsigned)i, (unsigned)e.node, (int)e.index);
        return;
      }
    }
    code = ge__zz((int64_t)cur - (int64_t)(remap ? remap[e.node] : e.node));
    p = ge__put_varint(p, 1 + ((code << 1) | (e.index != 0)));
    if (e.index) p = ge__put_varint(p, (uint64_t)e.index);
  }
  if (bits & GE__NB_CONTROL) {
    p = ge__put_varint(p, n->num_control_inputs);
    for (i = 0; i < n->num_control_inputs; i++) {
      ge_node_id c = n->control_inputs[i];
      if (!ge_graph_node(g, c)) {
        ge__ser_fail(s, GE_ERR_INVALID, "node '%s': dangling control edge from id %u", n->name, (unsigned)c);
        return;
      }
      p = ge__put_varint(p, ge__zz((int64_t)cur - (int64_t)(remap ? remap[c] : c)));
    }
  }
  p = ge__put_varint(p, n->num_outputs);
  w->len = (size_t)(p - w->p);
  for (i = 0; i < n->num_outputs && !s->status; i++) ge__ser_desc(s, n, i, &n->outputs[i]);
  if (!(bits & (GE__NB_ENGINE | GE__NB_STREAM | GE__NB_TOPO | GE__NB_CLUSTER | GE__NB_FLAGS))) return;
  if (!ge__w_room(w, 50)) return;
  p = w->p + w->len;
  if (bits & GE__NB_ENGINE) p = ge__put_varint(p, ge__zz(n->engine));
  if (bits & GE__NB_STREAM) p = ge__put_varint(p, ge__zz(n->stream));
  if (bits & GE__NB_TOPO) p = ge__put_varint(p, ge__zz(n->topo_id));
  if (bits & GE__NB_CLUSTER) p = ge__put_varint(p, ge__zz(n->cluster));
  if (bits & GE__NB_FLAGS) p = ge__put_varint(p, flags);
  w->len = (size_t)(p - w->p);
}

static void ge__ser_graph(ge__ser *s, const ge_graph *g, int depth) {
  uint32_t *remap = NULL, i, cur = 0;
  const char *prev = "";
  if (depth > GE__SERIAL_MAX_DEPTH) {
    ge__ser_fail(s, GE_ERR_INVALID, "subgraphs nested deeper than %d (graph '%s')", GE__SERIAL_MAX_DEPTH,
                 ge_graph_name(g));
    return;
  }
  ge__w_nstr(&s->w, g->name);
  ge__w_varint(&s->w, g->num_attrs);
  for (i = 0; i < g->num_attrs && !s->status; i++) ge__ser_attr(s, &g->attrs[i], "(graph)", depth);
  ge__w_varint(&s->w, g->live);
  if (g->live != g->id_bound) {
    remap = (uint32_t *)ge__mem_alloc(&g->arena.a, (size_t)g->id_bound * sizeof(uint32_t));
    if (!remap) {
      ge__ser_fail(s, GE_ERR_NOMEM, "out of memory in graph '%s'", ge_graph_name(g));
      return;
    }
    GE__IO_FOR_SLOTS(g, g->id_bound, n, remap[n->id] = (n->flags & GE_NODE_REMOVED) ? GE_NONE : cur++);
    cur = 0;
  }
  GE__IO_FOR_SLOTS(g, g->id_bound, n, {
    if (!(n->flags & GE_NODE_REMOVED) && !s->status) ge__ser_node(s, g, n, cur++, remap, &prev, depth);
  });
  ge__mem_free(&g->arena.a, remap, (size_t)g->id_bound * sizeof(uint32_t));
}

GE_API ge_status ge_graph_serialize(const ge_graph *g, uint8_t **out, size_t *size, ge_error *err) {
  ge__ser s;
  uint32_t i;
  size_t body;
  if (out) *out = NULL;
  if (size) *size = 0;
  if (!g || !out || !size) return ge_error_set(err, GE_ERR_INVALID, "ge_graph_serialize: NULL argument");
  memset(&s, 0, sizeof s);
  ge__wbuf_init(&s.w, &g->arena.a);
  s.st.a = g->arena.a;
  s.err = err;
  if (ge__w_room(&s.w, GE__SERIAL_HEADER + 8)) {
    memset(s.w.p, 0, GE__SERIAL_HEADER + 8);
    s.w.len = GE__SERIAL_HEADER + 8;
  }
  ge__ser_graph(&s, g, 0);
  body = s.w.len - (GE__SERIAL_HEADER + 8);
  ge__w_varint(&s.w, s.st.count);
  for (i = 0; i < s.st.count; i++) ge__w_str(&s.w, s.st.list[i]);
  if (!s.status && (s.w.oom || s.st.oom))
    s.status = ge_error_set(err, GE_ERR_NOMEM, "out of memory serializing graph '%s'", ge_graph_name(g));
  ge__stab_free(&s.st);
  if (!s.status) {
    uint8_t *p = s.w.p, *q;
    size_t n = s.w.len;
    memcpy(p, ge__serial_magic, 8);
    ge__put_le(p + 8, GE__SERIAL_VERSION, 4);
    ge__put_le(p + 12, 0, 4);
    ge__put_le(p + 16, (uint64_t)(n - GE__SERIAL_HEADER), 8);
    ge__put_le(p + GE__SERIAL_HEADER, (uint64_t)body, 8);
    ge__put_le(p + 24, XXH3_64bits(p + GE__SERIAL_HEADER, n - GE__SERIAL_HEADER), 8);
    /* hand out a block of exactly n bytes: ge_graph_free_bytes frees n */
    q = n == s.w.cap ? p : (uint8_t *)ge__mem_realloc(&s.w.a, p, s.w.cap, n);
    if (q) {
      *out = q;
      *size = n;
      return GE_OK;
    }
    s.status = ge_error_set(err, GE_ERR_NOMEM, "out of memory serializing graph '%s'", ge_graph_name(g));
  }
  ge__wbuf_free(&s.w);
  return s.status;
}

GE_API void ge_graph_free_bytes(const ge_graph *g, uint8_t *bytes, size_t size) {
  ge_allocator a = ge__allocator_or_default(g ? &g->arena.a : NULL);
  ge__mem_free(&a, bytes, size);
}

/* ------------------------------------------------------- reader */

typedef struct ge__rstr { /* a string of the table while reading */
  const char *s;          /* NUL-terminated copy */
  size_t len;
  const char *word;       /* interned in the graph of generation word_gen */
  ge__interned *op;       /* op entry (default domain) in graph op_gen */
  uint32_t word_gen, op_gen, attr_mark;
} ge__rstr;

typedef struct ge__rd {
  const uint8_t *b; /* the whole file: offsets in messages are file offsets */
  size_t pos, end;
  ge_error *err;
  ge_status st;
  ge_allocator a;
  const ge_op_registry *registry;
  ge__rstr *strs;
  uint32_t nstr;
  char *pool;
  size_t pool_size;
  uint32_t graphs, max_graphs; /* graphs begun, and the limit */
  uint32_t attr_lists;         /* attribute lists begun (duplicate names) */
} ge__rd;

static int ge__rd_fail(ge__rd *r, size_t at, const char *fmt, ...) GE__PRINTF(3, 4);
static int ge__rd_fail(ge__rd *r, size_t at, const char *fmt, ...) {
  char msg[400];
  va_list ap;
  if (r->st) return 0;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  r->st = ge_error_set(r->err, GE_ERR_FORMAT, "malformed graph bytes at offset %zu: %s", at, msg);
  return 0;
}

static int ge__rd_oom(ge__rd *r) {
  if (!r->st)
    r->st = ge_error_set(r->err, GE_ERR_NOMEM, "out of memory loading a graph (at offset %zu)", r->pos);
  return 0;
}

#define GE__TRY(x)                                                          \
  do {                                                                      \
    if (!(x)) return 0;                                                     \
  } while (0)

static int ge__rd_varint_slow(ge__rd *r, uint64_t *v) {
  size_t p = r->pos;
  uint64_t x = 0;
  unsigned shift = 0;
  for (;;) {
    uint8_t c;
    if (p >= r->end) return ge__rd_fail(r, p, "the data ends inside a number");
    c = r->b[p];
    if (shift == 63 && c > 1) return ge__rd_fail(r, p, "a number does not fit in 64 bits");
    x |= (uint64_t)(c & 0x7F) << shift;
    p++;
    if (!(c & 0x80)) break;
    shift += 7;
  }
  *v = x;
  r->pos = p;
  return 1;
}

/* Most numbers take one byte: that case is an inline macro. */
#define GE__RD_VARINT(r, v)                                                  \
  ((r)->pos < (r)->end && (r)->b[(r)->pos] < 0x80 ? ((v) = (r)->b[(r)->pos++], 1) \
                                                  : ge__rd_varint_slow((r), &(v)))

static int ge__rd_varint(ge__rd *r, uint64_t *v) { return GE__RD_VARINT(r, *v); }

static inline int ge__rd_uint(ge__rd *r, uint64_t max, uint64_t *v, const char *what) {
  size_t at = r->pos;
  *v = 0;
  GE__TRY(GE__RD_VARINT(r, *v));
  if (*v > max)
    return ge__rd_fail(r, at, "%s %llu is out of range (at most %llu)", what, (unsigned long long)*v,
                       (unsigned long long)max);
  return 1;
}

static inline int ge__rd_int(ge__rd *r, int64_t lo, int64_t hi, int64_t *v, const char *what) {
  size_t at = r->pos;
  uint64_t u = 0;
  *v = 0;
  GE__TRY(GE__RD_VARINT(r, u));
  *v = ge__unzz(u);
  if (*v < lo || *v > hi)
    return ge__rd_fail(r, at, "%s %lld is out of range %lld..%lld", what, (long long)*v, (long long)lo,
                       (long long)hi);
  return 1;
}

/* A count of items that take at least min_bytes each in the file. */
static inline int ge__rd_count(ge__rd *r, size_t min_bytes, uint32_t *n, const char *what) {
  size_t at = r->pos;
  uint64_t v = 0;
  *n = 0;
  GE__TRY(GE__RD_VARINT(r, v));
  if (v > 0x3FFFFFFF || v > (r->end - r->pos) / min_bytes)
    return ge__rd_fail(r, at, "%s count %llu does not fit in the %zu bytes that remain", what,
                       (unsigned long long)v, r->end - r->pos);
  *n = (uint32_t)v;
  return 1;
}

static inline int ge__rd_byte(ge__rd *r, uint8_t *c) {
  *c = 0;
  if (r->pos >= r->end) return ge__rd_fail(r, r->pos, "unexpected end of data");
  *c = r->b[r->pos++];
  return 1;
}

static inline int ge__rd_len_bytes(ge__rd *r, uint64_t n, const uint8_t **p, const char *what, size_t at) {
  *p = NULL;
  if (n > r->end - r->pos)
    return ge__rd_fail(r, at, "%s of %llu bytes runs past the end (%zu bytes remain)", what,
                       (unsigned long long)n, r->end - r->pos);
  *p = r->b + r->pos;
  if (memchr(*p, 0, (size_t)n)) return ge__rd_fail(r, at, "%s contains a NUL byte", what);
  r->pos += (size_t)n;
  return 1;
}

static inline int ge__rd_str(ge__rd *r, const uint8_t **p, size_t *len, const char *what) {
  size_t at = r->pos;
  uint64_t n = 0;
  *p = NULL;
  *len = 0;
  GE__TRY(ge__rd_varint(r, &n));
  GE__TRY(ge__rd_len_bytes(r, n, p, what, at));
  *len = (size_t)n;
  return 1;
}

static char *ge__rd_copy(ge__rd *r, ge_graph *g, const uint8_t *p, size_t n) {
  char *s = (char *)ge__arena_alloc(&g->arena, n + 1, 1);
  if (!s) {
    ge__rd_oom(r);
    return NULL;
  }
  if (n) memcpy(s, p, n);
  s[n] = 0;
  return s;
}

/* A string argument that is read into the graph's arena. */
static int ge__rd_strdup(ge__rd *r, ge_graph *g, const char **out, const char *what) {
  const uint8_t *p;
  size_t n;
  GE__TRY(ge__rd_str(r, &p, &n, what));
  return (*out = ge__rd_copy(r, g, p, n)) != NULL;
}

/* A string table reference: 1 + index, or 0 (only when optional). */
static inline int ge__rd_sidx(ge__rd *r, int optional, uint32_t *idx, const char *what) {
  size_t at = r->pos;
  uint64_t v = 0;
  *idx = 0;
  GE__TRY(GE__RD_VARINT(r, v));
  if (v == 0 && !optional) return ge__rd_fail(r, at, "%s is missing", what);
  if (v > r->nstr)
    return ge__rd_fail(r, at, "%s refers to string %llu of a table of %u", what, (unsigned long long)v,
                       (unsigned)r->nstr);
  *idx = (uint32_t)v;
  return 1;
}

static const char *ge__rd_word(ge__rd *r, ge_graph *g, uint32_t gen, uint32_t sidx) {
  ge__rstr *e = &r->strs[sidx - 1];
  if (e->word_gen != gen) {
    if (!(e->word = ge__word(g, e->s))) {
      ge__rd_oom(r);
      return NULL;
    }
    e->word_gen = gen;
  }
  return e->word;
}

static int ge__rd_tensor(ge__rd *r, ge_graph *g, ge_tensor **out) {
  size_t at = r->pos, left;
  uint8_t dt = 0;
  uint64_t rank, v;
  int64_t dims[GE_MAX_RANK], n = 1, i;
  ge_tensor *t;
  uint32_t k;
  GE__TRY(ge__rd_byte(r, &dt));
  if (dt == GE_DTYPE_UNDEFINED || dt >= GE_DTYPE_COUNT) return ge__rd_fail(r, at, "invalid tensor dtype %u", dt);
  GE__TRY(ge__rd_uint(r, GE_MAX_RANK, &rank, "tensor rank"));
  for (k = 0; k < rank; k++) {
    size_t dat = r->pos;
    GE__TRY(ge__rd_uint(r, INT64_MAX, &v, "tensor dimension"));
    dims[k] = (int64_t)v;
    /* the element count, multiplied left to right as ge_tensor_numel does */
    if (dims[k] && n > INT64_MAX / dims[k]) return ge__rd_fail(r, dat, "tensor element count overflows");
    n *= dims[k];
  }
  left = r->end - r->pos;
  if (dt == GE_DTYPE_STRING ? (uint64_t)n > left : (uint64_t)n > left / ge_dtype_size((ge_dtype)dt))
    return ge__rd_fail(r, at, "tensor of %lld %s elements runs past the end (%zu bytes remain)", (long long)n,
                       ge_dtype_name((ge_dtype)dt), left);
  if (!(t = (ge_tensor *)ge__arena_alloc(&g->arena, sizeof *t, 8))) return ge__rd_oom(r);
  memset(t, 0, sizeof *t);
  t->dtype = (ge_dtype)dt;
  t->rank = (int32_t)rank;
  if (rank && !(t->dims = (int64_t *)ge__arena_dup(&g->arena, dims, (size_t)rank * sizeof(int64_t), 8)))
    return ge__rd_oom(r);
  if (dt == GE_DTYPE_STRING) {
    const char **strs = (const char **)ge__arena_alloc(&g->arena, (size_t)(n ? n : 1) * sizeof(char *), 8);
    if (!strs) return ge__rd_oom(r);
    for (i = 0; i < n; i++) strs[i] = "";
    t->data = (void *)strs;
    t->nbytes = (size_t)n * sizeof(char *);
    for (i = 0; i < n; i++) GE__TRY(ge__rd_strdup(r, g, &strs[i], "tensor string"));
  } else {
    t->nbytes = (size_t)n * ge_dtype_size((ge_dtype)dt);
    if (t->nbytes) {
      if (!(t->data = ge__arena_alloc(&g->arena, t->nbytes, 64))) return ge__rd_oom(r);
      ge__copy_le((uint8_t *)t->data, r->b + r->pos, t->nbytes, ge__swap_unit((ge_dtype)dt));
      r->pos += t->nbytes;
    }
  }
  *out = t;
  return 1;
}

static ge_graph *ge__rd_graph(ge__rd *r, int depth);

/* Reads an attribute list into *arr / *count (of node owner, or the graph). */
static int ge__cmp_uptr(const void *a, const void *b) {
  uintptr_t x, y;
  memcpy(&x, a, sizeof x);
  memcpy(&y, b, sizeof y);
  return x < y ? -1 : x > y;
}

/* Whether two attributes of list share a name. Names are interned in the
 * graph, so equal names are equal pointers. */
static int ge__attrs_have_duplicate(const ge__rd *r, const ge_attr *list, uint32_t n) {
  uintptr_t *v;
  uint32_t i, j;
  int dup = 0;
  if (n <= 32) {
    for (i = 0; i < n && !dup; i++)
      for (j = 0; j < i; j++)
        if (list[i].name == list[j].name) dup = 1;
    return dup;
  }
  if (!(v = (uintptr_t *)ge__mem_alloc(&r->a, n * sizeof(uintptr_t)))) return -1;
  for (i = 0; i < n; i++) v[i] = (uintptr_t)list[i].name;
  qsort(v, n, sizeof *v, ge__cmp_uptr);
  for (i = 1; i < n && !dup; i++) dup = v[i] == v[i - 1];
  ge__mem_free(&r->a, v, n * sizeof(uintptr_t));
  return dup;
}

static int ge__rd_attrs(ge__rd *r, ge_graph *g, uint32_t gen, ge_node_id owner, ge_attr **arr, uint32_t *count,
                        int depth) {
  uint32_t cnt, k, mark, idx, m;
  ge_attr *list;
  size_t list_at = r->pos;
  int nested = 0;
  GE__TRY(ge__rd_count(r, 3, &cnt, "attribute"));
  if (!cnt) return 1;
  list = (ge_attr *)ge__arena_block(&g->arena, (size_t)ge__cap_of(cnt) * sizeof(ge_attr));
  if (!list) return ge__rd_oom(r);
  *arr = list;
  *count = 0;
  mark = ++r->attr_lists;
  for (k = 0; k < cnt; k++) {
    ge_attr *a = &list[k];
    size_t at = r->pos;
    uint8_t type = 0;
    uint64_t u;
    int64_t x;
    memset(a, 0, sizeof *a);
    GE__TRY(ge__rd_sidx(r, 0, &idx, "attribute name"));
    if (!r->strs[idx - 1].len) return ge__rd_fail(r, at, "empty attribute name");
    if (r->strs[idx - 1].attr_mark == mark)
      return ge__rd_fail(r, at, "attribute '%s' appears twice", r->strs[idx - 1].s);
    r->strs[idx - 1].attr_mark = mark;
    if (!(a->name = ge__rd_word(r, g, gen, idx))) return 0;
    at = r->pos;
    GE__TRY(ge__rd_byte(r, &type));
    if (type == GE_ATTR_NONE || type >= GE_ATTR_TYPE_COUNT)
      return ge__rd_fail(r, at, "attribute '%s' has invalid type %u", a->name, type);
    a->type = (ge_attr_type)type;
    switch (a->type) {
    case GE_ATTR_INT: GE__TRY(ge__rd_int(r, INT64_MIN, INT64_MAX, &a->v.i, "int")); break;
    case GE_ATTR_FLOAT:
      if (r->end - r->pos < 8) return ge__rd_fail(r, r->pos, "unexpected end of data");
      u = ge__get_le(r->b + r->pos, 8);
      memcpy(&a->v.f, &u, 8);
      r->pos += 8;
      break;
    case GE_ATTR_BOOL: {
      uint8_t b = 0;
      GE__TRY(ge__rd_byte(r, &b));
      if (b > 1) return ge__rd_fail(r, r->pos - 1, "bool attribute '%s' is %u", a->name, b);
      a->v.b = b;
      break;
    }
    case GE_ATTR_STRING: GE__TRY(ge__rd_strdup(r, g, &a->v.s, "string attribute")); break;
    case GE_ATTR_DTYPE:
      GE__TRY(ge__rd_int(r, 0, GE_DTYPE_COUNT - 1, &x, "dtype"));
      a->v.dt = (ge_dtype)x;
      break;
    case GE_ATTR_TENSOR: GE__TRY(ge__rd_tensor(r, g, &a->v.t)); break;
    case GE_ATTR_GRAPH: {
      ge_graph *sub = ge__rd_graph(r, depth + 1);
      nested = 1;
      if (!sub) return 0;
      sub->parent = g;
      sub->parent_node = owner;
      a->v.g = sub;
      break;
    }
    case GE_ATTR_INTS: case GE_ATTR_DTYPES:
      GE__TRY(ge__rd_count(r, 1, &m, "list"));
      a->count = (int32_t)m;
      if (a->type == GE_ATTR_INTS) {
        if (!(a->v.ints = (int64_t *)ge__arena_alloc(&g->arena, (size_t)(m ? m : 1) * sizeof(int64_t), 8)))
          return ge__rd_oom(r);
        for (idx = 0; idx < m; idx++) GE__TRY(ge__rd_int(r, INT64_MIN, INT64_MAX, &a->v.ints[idx], "int"));
      } else {
        if (!(a->v.dtypes = (ge_dtype *)ge__arena_alloc(&g->arena, (size_t)(m ? m : 1) * sizeof(ge_dtype), 8)))
          return ge__rd_oom(r);
        for (idx = 0; idx < m; idx++) {
          GE__TRY(ge__rd_int(r, 0, GE_DTYPE_COUNT - 1, &x, "dtype"));
          a->v.dtypes[idx] = (ge_dtype)x;
        }
      }
      break;
    case GE_ATTR_FLOATS:
      GE__TRY(ge__rd_count(r, 8, &m, "float list"));
      a->count = (int32_t)m;
      if (!(a->v.floats = (double *)ge__arena_alloc(&g->arena, (size_t)(m ? m : 1) * sizeof(double), 8)))
        return ge__rd_oom(r);
      for (idx = 0; idx < m; idx++) {
        u = ge__get_le(r->b + r->pos, 8);
        memcpy(&a->v.floats[idx], &u, 8);
        r->pos += 8;
      }
      break;
    case GE_ATTR_BOOLS:
      GE__TRY(ge__rd_count(r, 1, &m, "bool list"));
      a->count = (int32_t)m;
      if (!(a->v.bools = (uint8_t *)ge__arena_alloc(&g->arena, m ? m : 1, 8))) return ge__rd_oom(r);
      if (m) memcpy(a->v.bools, r->b + r->pos, m);
      r->pos += m;
      break;
    case GE_ATTR_STRINGS:
      GE__TRY(ge__rd_count(r, 1, &m, "string list"));
      if (!(a->v.strings = (const char **)ge__arena_alloc(&g->arena, (size_t)(m ? m : 1) * sizeof(char *), 8)))
        return ge__rd_oom(r);
      a->count = (int32_t)m;
      for (idx = 0; idx < m; idx++) a->v.strings[idx] = "";
      for (idx = 0; idx < m; idx++) GE__TRY(ge__rd_strdup(r, g, &a->v.strings[idx], "string"));
      break;
    case GE_ATTR_TENSORS:
      GE__TRY(ge__rd_count(r, 3, &m, "tensor list"));
      if (!(a->v.tensors = (ge_tensor **)ge__arena_alloc(&g->arena, (size_t)(m ? m : 1) * sizeof(void *), 8)))
        return ge__rd_oom(r);
      a->count = (int32_t)m;
      for (idx = 0; idx < m; idx++) a->v.tensors[idx] = NULL;
      for (idx = 0; idx < m; idx++) GE__TRY(ge__rd_tensor(r, g, &a->v.tensors[idx]));
      break;
    case GE_ATTR_GRAPHS:
      GE__TRY(ge__rd_count(r, 3, &m, "graph list"));
      if (!(a->v.graphs = (ge_graph **)ge__arena_alloc(&g->arena, (size_t)(m ? m : 1) * sizeof(void *), 8)))
        return ge__rd_oom(r);
      /* visible to ge_graph_free while the list fills up */
      a->count = 0;
      *count = k + 1;
      nested = 1;
      for (idx = 0; idx < m; idx++) {
        ge_graph *sub = ge__rd_graph(r, depth + 1);
        if (!sub) return 0;
        sub->parent = g;
        sub->parent_node = owner;
        a->v.graphs[idx] = sub;
        a->count = (int32_t)idx + 1;
      }
      break;
    default: return ge__rd_fail(r, at, "attribute type %u", type);
    }
    *count = k + 1;
  }
  /* subgraphs read in between reuse the marks: check again */
  if (nested && cnt > 1) {
    int dup = ge__attrs_have_duplicate(r, list, cnt);
    if (dup < 0) return ge__rd_oom(r);
    if (dup) return ge__rd_fail(r, list_at, "an attribute name appears twice in this list");
  }
  return 1;
}

static int ge__rd_desc(ge__rd *r, ge_graph *g, uint32_t gen, ge_node *n, uint32_t oi, ge_tensor_desc *d) {
  size_t at = r->pos;
  uint64_t bits, v;
  int64_t x;
  uint8_t dt = 0;
  int32_t rank, i;
  uint32_t sidx;
  d->name = NULL;
  d->shape.dims = NULL;
  d->shape.info = NULL;
  d->shape.rank = GE_RANK_UNKNOWN;
  d->dtype = GE_DTYPE_UNDEFINED;
  d->format = GE_FORMAT_ND;
  d->offset = -1;
  d->value = NULL;
  GE__TRY(ge__rd_uint(r, GE__DB_ALL, &bits, "output field mask"));
  if ((bits & GE__DB_ALIAS) && (bits & GE__DB_VALUE))
    return ge__rd_fail(r, at, "node %u output %u has two values", (unsigned)n->id, (unsigned)oi);
  GE__TRY(ge__rd_byte(r, &dt));
  if (dt >= GE_DTYPE_COUNT) return ge__rd_fail(r, r->pos - 1, "invalid dtype %u", dt);
  d->dtype = (ge_dtype)dt;
  at = r->pos;
  GE__TRY(ge__rd_int(r, GE_RANK_UNKNOWN, GE_MAX_RANK, &x, "rank"));
  if (x == -1) return ge__rd_fail(r, at, "invalid rank -1");
  rank = (int32_t)x;
  d->shape.rank = rank;
  if (rank > 0) {
    if (!(d->shape.dims = (int64_t *)ge__arena_alloc(&g->arena, (size_t)rank * sizeof(int64_t), 8)))
      return ge__rd_oom(r);
    for (i = 0; i < rank; i++) {
      GE__TRY(GE__RD_VARINT(r, v));
      if (v > INT64_MAX) return ge__rd_fail(r, r->pos - 1, "dimension out of range");
      d->shape.dims[i] = (int64_t)v - 1;
    }
  }
  if (bits & GE__DB_NAME) GE__TRY(ge__rd_strdup(r, g, &d->name, "output name"));
  if (bits & GE__DB_FORMAT) {
    GE__TRY(ge__rd_uint(r, GE_FORMAT_COUNT - 1, &v, "format"));
    d->format = (ge_format)v;
  }
  if (bits & GE__DB_OFFSET) GE__TRY(ge__rd_int(r, INT64_MIN, INT64_MAX, &d->offset, "offset"));
  if (bits & GE__DB_INFO) {
    if (rank <= 0) return ge__rd_fail(r, r->pos, "dimension info for a shape of rank %d", (int)rank);
    if (!(d->shape.info = (ge_dim_info *)ge__arena_alloc(&g->arena, (size_t)rank * sizeof(ge_dim_info), 8)))
      return ge__rd_oom(r);
    for (i = 0; i < rank; i++) {
      ge_dim_info *di = &d->shape.info[i];
      GE__TRY(ge__rd_int(r, INT64_MIN, INT64_MAX, &di->lo, "range"));
      GE__TRY(ge__rd_int(r, INT64_MIN, INT64_MAX, &di->hi, "range"));
      GE__TRY(ge__rd_sidx(r, 1, &sidx, "dimension symbol"));
      di->symbol = NULL;
      if (sidx && !(di->symbol = ge__rd_word(r, g, gen, sidx))) return 0;
    }
  }
  if (bits & GE__DB_ALIAS) {
    at = r->pos;
    GE__TRY(ge__rd_varint(r, &v));
    if (v >= n->num_attrs || n->attrs[v].type != GE_ATTR_TENSOR)
      return ge__rd_fail(r, at, "node %u output %u: value refers to attribute %llu, not a tensor attribute",
                         (unsigned)n->id, (unsigned)oi, (unsigned long long)v);
    d->value = n->attrs[v].v.t;
  }
  if (bits & GE__DB_VALUE) {
    ge_tensor *t;
    GE__TRY(ge__rd_tensor(r, g, &t));
    d->value = t;
  }
  return 1;
}

/* Edges that read a node not read yet (a later id, or the node itself):
 * pairs (consumer id, input index) for data, (consumer id, ~producer id)
 * for control edges; linked once every node is there. */
typedef struct ge__pend {
  uint32_t *v;
  size_t n, cap;
} ge__pend;

static int ge__pend_push(ge__rd *r, ge__pend *p, uint32_t a, uint32_t b) {
  if (p->n + 2 > p->cap) {
    size_t ncap = p->cap ? p->cap * 2 : 64;
    uint32_t *q = (uint32_t *)ge__mem_realloc(&r->a, p->v, p->cap * sizeof(uint32_t), ncap * sizeof(uint32_t));
    if (!q) return ge__rd_oom(r);
    p->v = q;
    p->cap = ncap;
  }
  p->v[p->n++] = a;
  p->v[p->n++] = b;
  return 1;
}

/* Registers input k of node c at its producer p (both read). */
static inline int ge__rd_use(ge__rd *r, ge_graph *g, ge_node *p, ge_node_id c, uint32_t k) {
  ge_use *u;
  if (p->num_uses >= 0x3FFFFFFF) return ge__rd_fail(r, r->pos, "node %u has too many consumers", (unsigned)p->id);
  if (!(u = (ge_use *)ge__arena_grow(&g->arena, p->uses, p->num_uses, sizeof(ge_use)))) return ge__rd_oom(r);
  p->uses = u;
  u[p->num_uses].node = c;
  u[p->num_uses].input = k;
  p->num_uses++;
  return 1;
}
static int ge__rd_control_use(ge__rd *r, ge_graph *g, ge_node *p, ge_node_id c) {
  ge_node_id *u = (ge_node_id *)ge__arena_grow(&g->arena, p->control_outputs, p->num_control_outputs,
                                               sizeof(ge_node_id));
  if (!u) return ge__rd_oom(r);
  p->control_outputs = u;
  u[p->num_control_outputs++] = c;
  return 1;
}

/* Reads node n (a fresh slot) of a graph of nn nodes. mark: nn entries for
 * the duplicate control edge check, allocated on first need. */
static int ge__rd_node(ge__rd *r, ge_graph *g, uint32_t gen, ge_node *n, uint32_t nn, uint32_t **mark,
                       const char **prev, size_t *prev_len, ge__pend *pend, int depth) {
  size_t at = r->pos;
  uint64_t bits, v;
  int64_t x;
  uint32_t cur = n->id, opi, domi = 0, cnt, i;
  ge__interned *e;
  const uint8_t *sp;
  size_t sl, shared;
  char *name;
  GE__TRY(ge__rd_uint(r, GE__NB_ALL, &bits, "node field mask"));
  GE__TRY(ge__rd_sidx(r, 0, &opi, "op type"));
  if (!r->strs[opi - 1].len) return ge__rd_fail(r, at, "node %u has an empty op type", (unsigned)cur);
  if (bits & GE__NB_DOMAIN) GE__TRY(ge__rd_sidx(r, 0, &domi, "domain"));
  if (!domi) {
    ge__rstr *s = &r->strs[opi - 1];
    if (s->op_gen != gen) {
      s->op = ge__op_entry(g, s->s, NULL);
      s->op_gen = gen;
    }
    e = s->op;
  } else {
    e = ge__op_entry(g, r->strs[opi - 1].s, r->strs[domi - 1].s);
  }
  if (!e) return ge__rd_oom(r);
  n->op = e->str;
  n->domain = e->domain;
  n->schema = e->schema;
  /* name: a prefix of the previous node's name and the rest */
  GE__TRY(ge__rd_uint(r, *prev_len, &v, "shared name prefix"));
  shared = (size_t)v;
  at = r->pos;
  GE__TRY(ge__rd_str(r, &sp, &sl, "node name"));
  if (shared + sl == 0) return ge__rd_fail(r, at, "node %u has an empty name", (unsigned)cur);
  if (!(name = (char *)ge__arena_alloc(&g->arena, shared + sl + 1, 1))) return ge__rd_oom(r);
  memcpy(name, *prev, shared);
  memcpy(name + shared, sp, sl);
  name[shared + sl] = 0;
  n->name = name;
  *prev = name;
  *prev_len = shared + sl;
  if (bits & GE__NB_ATTRS) GE__TRY(ge__rd_attrs(r, g, gen, cur, &n->attrs, &n->num_attrs, depth));
  /* inputs */
  GE__TRY(ge__rd_count(r, 1, &cnt, "input"));
  if (cnt && !(n->inputs = (ge_edge *)ge__arena_block(&g->arena, (size_t)ge__cap_of(cnt) * sizeof(ge_edge))))
    return ge__rd_oom(r);
  for (i = 0; i < cnt; i++) {
    ge_edge *ed = &n->inputs[i];
    at = r->pos;
    GE__TRY(GE__RD_VARINT(r, v));
    ed->node = GE_NONE;
    ed->index = 0;
    if (v) {
      int64_t delta = ge__unzz((v - 1) >> 1);
      if (delta > (int64_t)cur || delta <= (int64_t)cur - (int64_t)nn)
        return ge__rd_fail(r, at, "node %u input %u reads a node outside 0..%u", (unsigned)cur, (unsigned)i,
                           (unsigned)nn - 1);
      ed->node = (ge_node_id)((int64_t)cur - delta);
      if ((v - 1) & 1) {
        GE__TRY(ge__rd_uint(r, 0x7FFFFFFF, &v, "output index"));
        ed->index = (int32_t)v;
      }
      /* earlier producers are known; later ones are checked after the nodes */
      if (ed->node < cur) {
        ge_node *p = ge_graph_node(g, ed->node);
        if ((uint32_t)ed->index >= p->num_outputs)
          return ge__rd_fail(r, at, "node %u input %u reads output %d of node %u, which has %u outputs",
                             (unsigned)cur, (unsigned)i, (int)ed->index, (unsigned)ed->node,
                             (unsigned)p->num_outputs);
        GE__TRY(ge__rd_use(r, g, p, cur, i));
      } else {
        GE__TRY(ge__pend_push(r, pend, cur, i));
      }
    }
    n->num_inputs = i + 1;
  }
  /* control inputs */
  if (bits & GE__NB_CONTROL) {
    GE__TRY(ge__rd_count(r, 1, &cnt, "control input"));
    if (cnt) {
      if (!(n->control_inputs =
                (ge_node_id *)ge__arena_block(&g->arena, (size_t)ge__cap_of(cnt) * sizeof(ge_node_id))))
        return ge__rd_oom(r);
      if (!*mark) {
        if (!(*mark = (uint32_t *)ge__mem_alloc(&r->a, (size_t)nn * sizeof(uint32_t)))) return ge__rd_oom(r);
        memset(*mark, 0, (size_t)nn * sizeof(uint32_t));
      }
    }
    for (i = 0; i < cnt; i++) {
      ge_node_id c;
      at = r->pos;
      GE__TRY(ge__rd_int(r, (int64_t)cur - (int64_t)nn + 1, (int64_t)cur, &x, "control edge"));
      c = (ge_node_id)((int64_t)cur - x);
      if (c == cur) return ge__rd_fail(r, at, "node %u has a control edge to itself", (unsigned)cur);
      if ((*mark)[c] == cur + 1)
        return ge__rd_fail(r, at, "node %u has two control edges from node %u", (unsigned)cur, (unsigned)c);
      (*mark)[c] = cur + 1;
      n->control_inputs[i] = c;
      n->num_control_inputs = i + 1;
      if (c < cur) GE__TRY(ge__rd_control_use(r, g, ge_graph_node(g, c), cur));
      else GE__TRY(ge__pend_push(r, pend, cur, ~c));
    }
  }
  /* outputs */
  GE__TRY(ge__rd_count(r, 3, &cnt, "output"));
  if (cnt && !(n->outputs = (ge_tensor_desc *)ge__arena_alloc(&g->arena, (size_t)cnt * sizeof(ge_tensor_desc), 8)))
    return ge__rd_oom(r);
  n->num_outputs = cnt;
  for (i = 0; i < cnt; i++) GE__TRY(ge__rd_desc(r, g, gen, n, i, &n->outputs[i]));
  if (bits & GE__NB_ENGINE) {
    GE__TRY(ge__rd_int(r, INT32_MIN, INT32_MAX, &x, "engine"));
    n->engine = (int32_t)x;
  }
  if (bits & GE__NB_STREAM) {
    GE__TRY(ge__rd_int(r, INT32_MIN, INT32_MAX, &x, "stream"));
    n->stream = (int32_t)x;
  }
  if (bits & GE__NB_TOPO) {
    GE__TRY(ge__rd_int(r, INT32_MIN, INT32_MAX, &x, "topo_id"));
    n->topo_id = (int32_t)x;
  }
  if (bits & GE__NB_CLUSTER) {
    GE__TRY(ge__rd_int(r, INT32_MIN, INT32_MAX, &x, "cluster"));
    n->cluster = (int32_t)x;
  }
  if (bits & GE__NB_FLAGS) {
    at = r->pos;
    GE__TRY(ge__rd_uint(r, 0xFFFFFFFFu, &v, "node flags"));
    if (v & GE_NODE_REMOVED) return ge__rd_fail(r, at, "node %u carries the private removed flag", (unsigned)cur);
    n->flags = (uint32_t)v;
  }
  return 1;
}

/* Links the edges that read later nodes, now that all nodes are read. */
static int ge__rd_link(ge__rd *r, ge_graph *g, const ge__pend *pend, size_t at) {
  size_t i;
  for (i = 0; i < pend->n; i += 2) {
    ge_node *n = ge_graph_node(g, pend->v[i]);
    uint32_t k = pend->v[i + 1];
    if (k & 0x80000000u) {
      GE__TRY(ge__rd_control_use(r, g, ge_graph_node(g, ~k), n->id));
    } else {
      ge_edge e = n->inputs[k];
      ge_node *p = ge_graph_node(g, e.node);
      if ((uint32_t)e.index >= p->num_outputs)
        return ge__rd_fail(r, at, "node %u ('%.60s') input %u reads output %d of node %u, which has %u outputs",
                           (unsigned)n->id, n->name, (unsigned)k, (int)e.index, (unsigned)e.node,
                           (unsigned)p->num_outputs);
      GE__TRY(ge__rd_use(r, g, p, n->id, k));
    }
  }
  return 1;
}

static ge_graph *ge__rd_graph(ge__rd *r, int depth) {
  ge_graph *g = NULL;
  ge_graph_desc d;
  size_t at = r->pos, nodes_at;
  uint32_t gen, nn = 0, i, *mark = NULL;
  ge__pend pend;
  uint64_t v = 0;
  const char *prev = "";
  size_t prev_len = 0;
  const uint8_t *p;
  memset(&pend, 0, sizeof pend);
  if (depth > GE__SERIAL_MAX_DEPTH) {
    ge__rd_fail(r, at, "subgraphs nested deeper than %d", GE__SERIAL_MAX_DEPTH);
    return NULL;
  }
  if (r->graphs >= r->max_graphs) {
    ge__rd_fail(r, at, "more than %u subgraphs in a file of this size", (unsigned)r->max_graphs - 1);
    return NULL;
  }
  gen = ++r->graphs;
  memset(&d, 0, sizeof d);
  d.allocator = r->a;
  d.registry = r->registry;
  if (ge_graph_create(&d, &g, NULL)) {
    ge__rd_oom(r);
    return NULL;
  }
  if (!ge__rd_varint(r, &v)) goto fail;
  if (v) {
    if (!ge__rd_len_bytes(r, v - 1, &p, "graph name", at)) goto fail;
    if (!(g->name = ge__rd_copy(r, g, p, (size_t)(v - 1)))) goto fail;
  }
  if (!ge__rd_attrs(r, g, gen, GE_NONE, &g->attrs, &g->num_attrs, depth)) goto fail;
  nodes_at = r->pos;
  /* a node takes at least 6 bytes: mask, op, prefix, name, inputs, outputs */
  if (!ge__rd_count(r, 6, &nn, "node")) goto fail;
  for (i = 0; i < nn; i++) {
    ge_node *n = ge__new_slot(g);
    if (!n) {
      ge__rd_oom(r);
      goto fail;
    }
    if (!ge__rd_node(r, g, gen, n, nn, &mark, &prev, &prev_len, &pend, depth)) goto fail;
  }
  if (!ge__rd_link(r, g, &pend, nodes_at)) goto fail;
  ge__find_output_node(g);
  ge__mem_free(&r->a, mark, (size_t)nn * sizeof(uint32_t));
  ge__mem_free(&r->a, pend.v, pend.cap * sizeof(uint32_t));
  return g;
fail:
  ge__mem_free(&r->a, mark, (size_t)nn * sizeof(uint32_t));
  ge__mem_free(&r->a, pend.v, pend.cap * sizeof(uint32_t));
  ge_graph_free(g);
  return NULL;
}

static int ge__rd_strtab(ge__rd *r) {
  uint32_t n, i;
  size_t at = 0;
  GE__TRY(ge__rd_count(r, 1, &n, "string table"));
  r->nstr = n;
  if (!n) return 1;
  r->pool_size = (r->end - r->pos) + n;
  r->strs = (ge__rstr *)ge__mem_alloc(&r->a, (size_t)n * sizeof(ge__rstr));
  r->pool = (char *)ge__mem_alloc(&r->a, r->pool_size);
  if (!r->strs || !r->pool) return ge__rd_oom(r);
  memset(r->strs, 0, (size_t)n * sizeof(ge__rstr));
  for (i = 0; i < n; i++) {
    const uint8_t *p;
    size_t len;
    GE__TRY(ge__rd_str(r, &p, &len, "table string"));
    memcpy(r->pool + at, p, len);
    r->pool[at + len] = 0;
    r->strs[i].s = r->pool + at;
    r->strs[i].len = len;
    at += len + 1;
  }
  /* the writer stores each string once; a repeat would let two attributes
     of one node share a name, so reject it */
  {
    uint32_t cap = 16, k, *set;
    while (cap < 2 * n) cap *= 2;
    if (!(set = (uint32_t *)ge__mem_alloc(&r->a, (size_t)cap * sizeof(uint32_t)))) return ge__rd_oom(r);
    memset(set, 0, (size_t)cap * sizeof(uint32_t));
    for (i = 0; i < n && !r->st; i++) {
      const ge__rstr *s = &r->strs[i];
      for (k = (uint32_t)XXH3_64bits(s->s, s->len) & (cap - 1); set[k]; k = (k + 1) & (cap - 1)) {
        const ge__rstr *o = &r->strs[set[k] - 1];
        if (o->len == s->len && memcmp(o->s, s->s, s->len) == 0) {
          ge__rd_fail(r, r->pos, "string table entries %u and %u are the same string", (unsigned)set[k] - 1,
                      (unsigned)i);
          break;
        }
      }
      set[k] = i + 1;
    }
    ge__mem_free(&r->a, set, (size_t)cap * sizeof(uint32_t));
  }
  return !r->st;
}

GE_API ge_status ge_graph_deserialize(const uint8_t *bytes, size_t size, const ge_graph_desc *desc, ge_graph **out,
                                      ge_error *err) {
  ge__rd r;
  ge_graph *g = NULL;
  uint64_t plen, body;
  uint32_t version, flags;
  if (!out) return ge_error_set(err, GE_ERR_INVALID, "ge_graph_deserialize: NULL output");
  *out = NULL;
  if (!bytes && size) return ge_error_set(err, GE_ERR_INVALID, "ge_graph_deserialize: NULL bytes");
  memset(&r, 0, sizeof r);
  r.b = bytes;
  r.err = err;
  r.a = ge__allocator_or_default(desc ? &desc->allocator : NULL);
  r.registry = desc ? desc->registry : NULL;
  if (size < GE__SERIAL_HEADER + 8) {
    ge__rd_fail(&r, size, "%zu bytes are too few for a graph (at least %u)", size, GE__SERIAL_HEADER + 8);
    return r.st;
  }
  if (memcmp(bytes, ge__serial_magic, 8) != 0) {
    ge__rd_fail(&r, 0, "not a ge graph (bad magic bytes)");
    return r.st;
  }
  version = (uint32_t)ge__get_le(bytes + 8, 4);
  flags = (uint32_t)ge__get_le(bytes + 12, 4);
  plen = ge__get_le(bytes + 16, 8);
  if (version != GE__SERIAL_VERSION) {
    ge__rd_fail(&r, 8, "format version %u is not supported (this build reads version %u)", (unsigned)version,
                GE__SERIAL_VERSION);
    return r.st;
  }
  if (flags) {
    ge__rd_fail(&r, 12, "unknown format flags 0x%x", (unsigned)flags);
    return r.st;
  }
  if (plen != size - GE__SERIAL_HEADER) {
    ge__rd_fail(&r, 16, "the header announces %llu payload bytes but %zu follow", (unsigned long long)plen,
                size - GE__SERIAL_HEADER);
    return r.st;
  }
#ifndef GE__SERIAL_NO_CHECKSUM
  {
    uint64_t want = ge__get_le(bytes + 24, 8), got = XXH3_64bits(bytes + GE__SERIAL_HEADER, size - GE__SERIAL_HEADER);
    if (want != got) {
      ge__rd_fail(&r, 24, "checksum mismatch (stored %016llx, computed %016llx): the bytes are corrupted",
                  (unsigned long long)want, (unsigned long long)got);
      return r.st;
    }
  }
#endif
  body = ge__get_le(bytes + GE__SERIAL_HEADER, 8);
  if (body > plen - 8) {
    ge__rd_fail(&r, GE__SERIAL_HEADER, "body length %llu exceeds the payload", (unsigned long long)body);
    return r.st;
  }
  r.pos = GE__SERIAL_HEADER + 8 + (size_t)body;
  r.end = size;
  if (ge__rd_strtab(&r) && r.pos != r.end) ge__rd_fail(&r, r.pos, "%zu stray bytes after the string table", r.end - r.pos);
  if (!r.st) {
    r.max_graphs = 64 + (uint32_t)((size / 16) < 0x3FFFFFFF ? size / 16 : 0x3FFFFFFF);
    r.pos = GE__SERIAL_HEADER + 8;
    r.end = GE__SERIAL_HEADER + 8 + (size_t)body;
    g = ge__rd_graph(&r, 0);
    if (g && r.pos != r.end) ge__rd_fail(&r, r.pos, "%zu stray bytes after the graph", r.end - r.pos);
  }
  if (!r.st && g && desc && desc->name && !(g->name = ge__arena_strdup(&g->arena, desc->name))) ge__rd_oom(&r);
  ge__mem_free(&r.a, r.strs, (size_t)r.nstr * sizeof(ge__rstr));
  ge__mem_free(&r.a, r.pool, r.pool_size);
  if (r.st) {
    ge_graph_free(g);
    return r.st;
  }
  *out = g;
  return GE_OK;
}

#undef GE__TRY

/* Prefixes err's message with a file path. */
static void ge__error_path(ge_error *err, const char *path) {
  char inner[sizeof err->message];
  if (!err) return;
  memcpy(inner, err->message, sizeof inner);
  snprintf(err->message, sizeof err->message, "'%.200s': %.270s", path, inner);
}

GE_API ge_status ge_graph_save(const ge_graph *g, const char *path, ge_error *err) {
  uint8_t *bytes;
  size_t size;
  FILE *f;
  ge_status st;
  int bad, e;
  if (!g || !path) return ge_error_set(err, GE_ERR_INVALID, "ge_graph_save: NULL argument");
  if ((st = ge_graph_serialize(g, &bytes, &size, err))) {
    ge__error_path(err, path);
    return st;
  }
  errno = 0;
  f = fopen(path, "wb");
  if (!f) {
    e = errno;
    ge_graph_free_bytes(g, bytes, size);
    return ge_error_set(err, GE_ERR_IO, "cannot create '%s': %s", path, e ? strerror(e) : "fopen failed");
  }
  bad = fwrite(bytes, 1, size, f) != size;
  e = errno;
  if (fclose(f) != 0 && !bad) {
    bad = 1;
    e = errno;
  }
  ge_graph_free_bytes(g, bytes, size);
  if (bad) {
    remove(path);
    return ge_error_set(err, GE_ERR_IO, "cannot write '%s': %s", path, e ? strerror(e) : "write failed");
  }
  return GE_OK;
}

GE_API ge_status ge_graph_load(const char *path, const ge_graph_desc *desc, ge_graph **out, ge_error *err) {
  ge_mapped_file *m;
  ge_status st;
  if (!out) return ge_error_set(err, GE_ERR_INVALID, "ge_graph_load: NULL output");
  *out = NULL;
  if (!path) return ge_error_set(err, GE_ERR_INVALID, "ge_graph_load: NULL path");
  if ((st = ge_file_map(path, &m, err))) return st;
  st = ge_graph_deserialize((const uint8_t *)ge_mapped_file_data(m), ge_mapped_file_size(m), desc, out, err);
  ge_mapped_file_release(m);
  if (st) ge__error_path(err, path);
  return st;
}

/* --------------------------------------------------- structural hash */

/* A node's hash covers what it computes: op, domain, flags (except the
 * partitioner's IS_DYNAMIC), attributes sorted by name (subgraphs by their
 * own hash), output dtypes, formats and shapes (with dim info), its inputs
 * as (producer hash, output index) in order, and the sorted hashes of its
 * control predecessors. Names count only for Data nodes and NetOutput's
 * output names. The graph hash covers the sorted node hashes and the graph
 * attributes. Engine, stream, topo_id, cluster, offsets and known values
 * are left out. */

#define GE__HASH_ABSENT 0x9E3779B97F4A7C15ull

static int ge__cmp_u64(const void *a, const void *b) {
  uint64_t x, y;
  memcpy(&x, a, 8);
  memcpy(&y, b, 8);
  return x < y ? -1 : x > y;
}
/* Sorts n 64-bit values: LSD radix sort (8 passes of 8 bits) when scratch
 * memory is available and n is large, qsort otherwise. */
static void ge__sort_u64(uint64_t *v, size_t n, const ge_allocator *al) {
  uint64_t *tmp = n > 256 ? (uint64_t *)ge__mem_alloc(al, n * sizeof(uint64_t)) : NULL, *src = v, *dst = tmp, *t;
  size_t count[256], i, sum;
  int pass;
  if (!tmp) {
    qsort(v, n, sizeof(uint64_t), ge__cmp_u64);
    return;
  }
  for (pass = 0; pass < 8; pass++) {
    unsigned shift = 8u * (unsigned)pass;
    memset(count, 0, sizeof count);
    for (i = 0; i < n; i++) count[(src[i] >> shift) & 255]++;
    for (i = 0, sum = 0; i < 256; i++) {
      size_t c = count[i];
      count[i] = sum;
      sum += c;
    }
    for (i = 0; i < n; i++) dst[count[(src[i] >> shift) & 255]++] = src[i];
    t = src;
    src = dst;
    dst = t;
  }
  /* after an even number of passes the result is back in v */
  ge__mem_free(al, tmp, n * sizeof(uint64_t));
}

static int ge__cmp_attr_name(const void *a, const void *b) {
  const ge_attr *x = *(const ge_attr *const *)a, *y = *(const ge_attr *const *)b;
  return strcmp(x->name, y->name);
}

static void ge__hash_tensor(ge__wbuf *w, const ge_tensor *t) {
  int64_t n = 1, i;
  int32_t k;
  if (!t) {
    ge__w_byte(w, 0xFF);
    return;
  }
  ge__w_varint(w, (uint64_t)(uint32_t)t->dtype);
  ge__w_zz(w, t->rank);
  for (k = 0; k < t->rank && t->dims; k++) {
    ge__w_zz(w, t->dims[k]);
    n = t->dims[k] >= 0 && (!t->dims[k] || n <= INT64_MAX / t->dims[k]) ? n * t->dims[k] : 0;
  }
  if (!t->data) return;
  if (t->dtype == GE_DTYPE_STRING) {
    const char *const *s = (const char *const *)t->data;
    if ((uint64_t)n > t->nbytes / sizeof(char *)) n = (int64_t)(t->nbytes / sizeof(char *));
    for (i = 0; i < n; i++) ge__w_str(w, s[i]);
  } else {
    ge__w_varint(w, t->nbytes);
    ge__w_elems(w, t->data, t->nbytes, ge__swap_unit(t->dtype));
  }
}

static ge_status ge__hash_graph(const ge_graph *g, uint64_t *out, int depth, ge_error *err);

static ge_status ge__hash_attr(ge__wbuf *w, const ge_attr *a, int depth, ge_error *err) {
  int32_t i;
  uint64_t h;
  ge_status st;
  ge__w_str(w, a->name);
  ge__w_byte(w, (uint8_t)a->type);
  switch (a->type) {
  case GE_ATTR_INT: ge__w_zz(w, a->v.i); break;
  case GE_ATTR_FLOAT: ge__w_f64(w, a->v.f); break;
  case GE_ATTR_BOOL: ge__w_byte(w, a->v.b ? 1 : 0); break;
  case GE_ATTR_STRING: ge__w_str(w, a->v.s); break;
  case GE_ATTR_DTYPE: ge__w_zz(w, (int64_t)a->v.dt); break;
  case GE_ATTR_TENSOR: ge__hash_tensor(w, a->v.t); break;
  case GE_ATTR_GRAPH:
    if ((st = ge__hash_graph(a->v.g, &h, depth + 1, err))) return st;
    ge__w_u64(w, h);
    break;
  default:
    ge__w_varint(w, (uint64_t)(uint32_t)a->count);
    for (i = 0; i < a->count; i++) switch (a->type) {
      case GE_ATTR_INTS: ge__w_zz(w, a->v.ints[i]); break;
      case GE_ATTR_FLOATS: ge__w_f64(w, a->v.floats[i]); break;
      case GE_ATTR_BOOLS: ge__w_byte(w, a->v.bools[i]); break;
      case GE_ATTR_STRINGS: ge__w_str(w, a->v.strings[i]); break;
      case GE_ATTR_DTYPES: ge__w_zz(w, (int64_t)a->v.dtypes[i]); break;
      case GE_ATTR_TENSORS: ge__hash_tensor(w, a->v.tensors[i]); break;
      case GE_ATTR_GRAPHS:
        if ((st = ge__hash_graph(a->v.graphs[i], &h, depth + 1, err))) return st;
        ge__w_u64(w, h);
        break;
      default: break;
      }
  }
  return GE_OK;
}

/* Hashes an attribute list sorted by name into w. */
static ge_status ge__hash_attrs(ge__wbuf *w, const ge_graph *g, const ge_attr *attrs, uint32_t n, int depth,
                                ge_error *err) {
  const ge_attr *local[16], **sorted = local;
  uint32_t i;
  ge_status st = GE_OK;
  ge__w_varint(w, n);
  if (!n) return GE_OK;
  if (n > 16 && !(sorted = (const ge_attr **)ge__mem_alloc(&g->arena.a, n * sizeof(ge_attr *)))) return ge__oom(err, g);
  for (i = 0; i < n; i++) sorted[i] = &attrs[i];
  qsort((void *)sorted, n, sizeof(ge_attr *), ge__cmp_attr_name);
  for (i = 0; i < n && !st; i++) st = ge__hash_attr(w, sorted[i], depth, err);
  if (sorted != local) ge__mem_free(&g->arena.a, (void *)sorted, n * sizeof(ge_attr *));
  return st;
}

static ge_status ge__hash_node(ge__wbuf *w, const ge_graph *g, const ge_node *n, const uint64_t *nh, int depth,
                               ge_error *err) {
  static const ge_dim_info none = {0, -1, NULL};
  uint64_t local[16], *preds = local;
  uint32_t i, k;
  int net_output = ge__is_op(n, "NetOutput");
  ge_status st;
  ge__w_byte(w, 'N');
  ge__w_str(w, n->op);
  ge__w_nstr(w, n->domain && *n->domain ? n->domain : NULL);
  if (ge__is_op(n, "Data")) ge__w_str(w, n->name);
  ge__w_varint(w, n->flags & ~(uint32_t)(GE_NODE_IS_DYNAMIC | GE_NODE_REMOVED));
  if ((st = ge__hash_attrs(w, g, n->attrs, n->num_attrs, depth, err))) return st;
  ge__w_varint(w, n->num_outputs);
  for (i = 0; i < n->num_outputs; i++) {
    const ge_tensor_desc *d = &n->outputs[i];
    int32_t r;
    ge__w_varint(w, (uint64_t)(uint32_t)d->dtype);
    ge__w_varint(w, (uint64_t)(uint32_t)d->format);
    ge__w_zz(w, d->shape.rank);
    for (r = 0; r < d->shape.rank && d->shape.dims; r++) {
      const ge_dim_info *di = d->shape.info ? &d->shape.info[r] : &none;
      ge__w_zz(w, d->shape.dims[r]);
      ge__w_zz(w, di->lo);
      ge__w_zz(w, di->hi);
      ge__w_nstr(w, di->symbol);
    }
    if (net_output) ge__w_nstr(w, d->name);
  }
  ge__w_varint(w, n->num_inputs);
  for (i = 0; i < n->num_inputs; i++) {
    if (n->inputs[i].node == GE_NONE) {
      ge__w_u64(w, GE__HASH_ABSENT);
      continue;
    }
    ge__w_u64(w, nh[n->inputs[i].node]);
    ge__w_zz(w, n->inputs[i].index);
  }
  k = n->num_control_inputs;
  ge__w_varint(w, k);
  if (k) {
    if (k > 16 && !(preds = (uint64_t *)ge__mem_alloc(&g->arena.a, k * sizeof(uint64_t)))) return ge__oom(err, g);
    for (i = 0; i < k; i++) preds[i] = nh[n->control_inputs[i]];
    qsort(preds, k, sizeof(uint64_t), ge__cmp_u64);
    for (i = 0; i < k; i++) ge__w_u64(w, preds[i]);
    if (preds != local) ge__mem_free(&g->arena.a, preds, k * sizeof(uint64_t));
  }
  return GE_OK;
}

static ge_status ge__hash_graph(const ge_graph *g, uint64_t *out, int depth, ge_error *err) {
  ge__wbuf w;
  ge_node_id *order = NULL;
  uint64_t *nh = NULL;
  uint32_t i;
  ge_status st;
  if (!g) return ge_error_set(err, GE_ERR_INVALID, "ge_graph_hash: NULL graph");
  if (depth > GE__SERIAL_MAX_DEPTH)
    return ge_error_set(err, GE_ERR_INVALID, "graph '%s': subgraphs nested deeper than %d", ge_graph_name(g),
                    GE__SERIAL_MAX_DEPTH);
  if ((st = ge__topo_alloc(g, GE_TOPO_BFS, &order, err))) return st;
  ge__wbuf_init(&w, &g->arena.a);
  nh = (uint64_t *)ge__mem_alloc(&g->arena.a, ((size_t)g->id_bound + 1) * sizeof(uint64_t));
  if (!nh) st = ge__oom(err, g);
  for (i = 0; i < g->live && !st; i++) {
    const ge_node *n = ge_graph_node(g, order[i]);
    w.len = 0;
    st = ge__hash_node(&w, g, n, nh, depth, err);
    if (st) {
      if (st != GE_ERR_NOMEM) ge__error_context(err, "graph", ge_graph_name(g), n->name);
      break;
    }
    if (w.oom) st = ge__oom(err, g);
    else nh[n->id] = XXH3_64bits(w.p, w.len);
  }
  if (!st) {
    /* the sorted multiset of node hashes (reusing order's storage) */
    uint64_t *all = (uint64_t *)ge__mem_alloc(&g->arena.a, ((size_t)g->live + 1) * sizeof(uint64_t));
    if (!all) st = ge__oom(err, g);
    else {
      for (i = 0; i < g->live; i++) all[i] = nh[order[i]];
      ge__sort_u64(all, g->live, &g->arena.a);
      w.len = 0;
      ge__w_byte(&w, 'G');
      st = ge__hash_attrs(&w, g, g->attrs, g->num_attrs, depth, err);
      ge__w_varint(&w, g->live);
      for (i = 0; i < g->live; i++) ge__w_u64(&w, all[i]);
      if (!st && w.oom) st = ge__oom(err, g);
      if (!st) *out = XXH3_64bits(w.p, w.len);
      ge__mem_free(&g->arena.a, all, ((size_t)g->live + 1) * sizeof(uint64_t));
    }
  }
  ge__mem_free(&g->arena.a, nh, ((size_t)g->id_bound + 1) * sizeof(uint64_t));
  ge__topo_free(g, order);
  ge__wbuf_free(&w);
  return st;
}

GE_API ge_status ge_graph_hash(const ge_graph *g, uint64_t *out, ge_error *err) {
  if (!out) return ge_error_set(err, GE_ERR_INVALID, "ge_graph_hash: NULL output");
  *out = 0;
  return ge__hash_graph(g, out, 0, err);
}

/* ------------------------------------------------------------ dump */

static void ge__dump_quoted(FILE *f, const char *s) {
  fputc('"', f);
  for (; s && *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
    else if (c == '\n') fputs("\\n", f);
    else if (c < 0x20 || c == 0x7F) fprintf(f, "\\x%02x", c);
    else fputc(c, f);
  }
  fputc('"', f);
}

/* Writes a name as is, except control characters (one line per node). */
static void ge__dump_text(FILE *f, const char *s) {
  for (; s && *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c < 0x20 || c == 0x7F) fprintf(f, "\\x%02x", c);
    else fputc(c, f);
  }
}

static void ge__dump_tensor(FILE *f, const ge_tensor *t) {
  char buf[512];
  ge_shape sh;
  int64_t n, i;
  if (!t) {
    fputs("tensor(?)", f);
    return;
  }
  sh.dims = t->dims;
  sh.info = NULL;
  sh.rank = t->rank;
  fprintf(f, "tensor(%s%s", ge_dtype_name(t->dtype), ge_shape_str(&sh, buf, sizeof buf));
  n = ge__tensor_check(t);
  if (n > 0 && n <= 8 && t->dtype != GE_DTYPE_COMPLEX64 && t->dtype != GE_DTYPE_COMPLEX128) {
    fputs(":", f);
    for (i = 0; i < n; i++) {
      fputs(i ? ", " : " ", f);
      switch (t->dtype) {
      case GE_DTYPE_STRING: ge__dump_quoted(f, ((const char *const *)t->data)[i]); break;
      case GE_DTYPE_BOOL: fputs(((const uint8_t *)t->data)[i] ? "true" : "false", f); break;
      case GE_DTYPE_FLOAT32: case GE_DTYPE_FLOAT64: case GE_DTYPE_FLOAT16: case GE_DTYPE_BFLOAT16:
        fprintf(f, "%.9g", ge_tensor_get_float(t, i));
        break;
      case GE_DTYPE_UINT64: fprintf(f, "%llu", (unsigned long long)((const uint64_t *)t->data)[i]); break;
      default: fprintf(f, "%lld", (long long)ge_tensor_get_int(t, i)); break;
      }
    }
  }
  fputs(")", f);
}

static void ge__dump_attr_value(FILE *f, const ge_attr *a) {
  int32_t i;
  switch (a->type) {
  case GE_ATTR_INT: fprintf(f, "%lld", (long long)a->v.i); return;
  case GE_ATTR_FLOAT: fprintf(f, "%.9g", a->v.f); return;
  case GE_ATTR_BOOL: fputs(a->v.b ? "true" : "false", f); return;
  case GE_ATTR_STRING: ge__dump_quoted(f, a->v.s); return;
  case GE_ATTR_DTYPE: fputs(ge_dtype_name(a->v.dt), f); return;
  case GE_ATTR_TENSOR: ge__dump_tensor(f, a->v.t); return;
  case GE_ATTR_GRAPH:
    fputc('@', f);
    ge__dump_text(f, a->v.g ? ge_graph_name(a->v.g) : "?");
    return;
  default: break;
  }
  fputc('[', f);
  for (i = 0; i < a->count; i++) {
    if (i) fputc(',', f);
    switch (a->type) {
    case GE_ATTR_INTS: fprintf(f, "%lld", (long long)a->v.ints[i]); break;
    case GE_ATTR_FLOATS: fprintf(f, "%.9g", a->v.floats[i]); break;
    case GE_ATTR_BOOLS: fputs(a->v.bools[i] ? "true" : "false", f); break;
    case GE_ATTR_STRINGS: ge__dump_quoted(f, a->v.strings[i]); break;
    case GE_ATTR_DTYPES: fputs(ge_dtype_name(a->v.dtypes[i]), f); break;
    case GE_ATTR_TENSORS: ge__dump_tensor(f, a->v.tensors[i]); break;
    case GE_ATTR_GRAPHS:
      fputc('@', f);
      ge__dump_text(f, a->v.graphs[i] ? ge_graph_name(a->v.graphs[i]) : "?");
      break;
    default: break;
    }
  }
  fputc(']', f);
}

static void ge__dump_attrs(FILE *f, const ge_attr *attrs, uint32_t n) {
  uint32_t i;
  if (!n) return;
  fputs(" {", f);
  for (i = 0; i < n; i++) {
    fputs(i ? ", " : "", f);
    ge__dump_text(f, attrs[i].name);
    fputc('=', f);
    ge__dump_attr_value(f, &attrs[i]);
  }
  fputc('}', f);
}

static void ge__dump_graph(const ge_graph *g, FILE *f, int depth, const char *label, int index);

static void ge__dump_subgraphs(FILE *f, const ge_attr *attrs, uint32_t n, int depth) {
  uint32_t i;
  for (i = 0; i < n; i++) {
    const ge_attr *a = &attrs[i];
    if (a->type == GE_ATTR_GRAPH && a->v.g) ge__dump_graph(a->v.g, f, depth, a->name, -1);
    if (a->type == GE_ATTR_GRAPHS) {
      int32_t k;
      for (k = 0; k < a->count; k++)
        if (a->v.graphs[k]) ge__dump_graph(a->v.graphs[k], f, depth, a->name, (int)k);
    }
  }
}

static void ge__dump_graph(const ge_graph *g, FILE *f, int depth, const char *label, int index) {
  char buf[1024];
  uint32_t i, k;
  fprintf(f, "%*s", 2 * depth, "");
  if (label) {
    ge__dump_text(f, label);
    if (index >= 0) fprintf(f, "[%d]", index);
    fputs(": ", f);
  }
  fputs("graph '", f);
  ge__dump_text(f, ge_graph_name(g));
  fprintf(f, "' (%u nodes)", (unsigned)g->live);
  ge__dump_attrs(f, g->attrs, g->num_attrs);
  fputc('\n', f);
  if (depth >= GE__SERIAL_MAX_DEPTH) {
    fprintf(f, "%*s...\n", 2 * depth + 2, "");
    return;
  }
  ge__dump_subgraphs(f, g->attrs, g->num_attrs, depth + 1);
  for (i = 0; i < g->id_bound; i++) {
    const ge_node *n = ge_graph_node(g, i);
    int first = 1;
    if (!n) continue;
    fprintf(f, "%*s%%%u ", 2 * depth, "", (unsigned)i);
    ge__dump_text(f, n->name);
    fputs(" = ", f);
    if (n->domain) {
      ge__dump_text(f, n->domain);
      fputs("::", f);
    }
    ge__dump_text(f, n->op);
    fputc('(', f);
    for (k = 0; k < n->num_inputs; k++, first = 0) {
      if (n->inputs[k].node == GE_NONE) fprintf(f, "%s_", first ? "" : ", ");
      else fprintf(f, "%s%%%u:%d", first ? "" : ", ", (unsigned)n->inputs[k].node, (int)n->inputs[k].index);
    }
    for (k = 0; k < n->num_control_inputs; k++, first = 0)
      fprintf(f, "%s^%%%u", first ? "" : ", ", (unsigned)n->control_inputs[k]);
    fputc(')', f);
    ge__dump_attrs(f, n->attrs, n->num_attrs);
    for (k = 0; k < n->num_outputs; k++) {
      const ge_tensor_desc *d = &n->outputs[k];
      fputs(k ? ", " : " -> ", f);
      if (d->name) {
        ge__dump_text(f, d->name);
        fputc(':', f);
      }
      fprintf(f, "%s%s", ge_dtype_name(d->dtype), ge_shape_str(&d->shape, buf, sizeof buf));
      if (d->format) fprintf(f, " %s", ge_format_name(d->format));
      if (d->offset >= 0) fprintf(f, " @%lld", (long long)d->offset);
    }
    if (n->engine >= 0) fprintf(f, " engine=%d", (int)n->engine);
    if (n->stream >= 0) fprintf(f, " stream=%d", (int)n->stream);
    if (n->topo_id >= 0) fprintf(f, " topo=%d", (int)n->topo_id);
    if (n->cluster >= 0) fprintf(f, " cluster=%d", (int)n->cluster);
    if (n->flags) fprintf(f, " flags=0x%x", (unsigned)n->flags);
    fputc('\n', f);
    ge__dump_subgraphs(f, n->attrs, n->num_attrs, depth + 1);
  }
}

GE_API void ge_json_write_string(FILE *f, const char *s) {
  fputc('"', f);
  for (; s && *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
    else if (c < 0x20) fprintf(f, "\\u%04x", c);
    else fputc(c, f);
  }
  fputc('"', f);
}

GE_API ge_status ge_graph_dump(const ge_graph *g, FILE *f) {
  if (!g || !f) return GE_ERR_INVALID;
  ge__dump_graph(g, f, 0, NULL, -1);
  return ferror(f) ? GE_ERR_IO : GE_OK;
}

/* ------------------------------------------------------------- DOT */

/* Fill colours by engine (ColorBrewer Set3) and outline colours by stream
 * (Set1, Dark2). Arrays of chars, not pointers, so they stay read-only. */
static const char ge__dot_fill[12][8] = {"#8dd3c7", "#ffffb3", "#bebada", "#fb8072", "#80b1d3", "#fdb462",
                                         "#b3de69", "#fccde5", "#d9d9d9", "#bc80bd", "#ccebc5", "#ffed6f"};
static const char ge__dot_line[10][8] = {"#e41a1c", "#377eb8", "#4daf4a", "#984ea3", "#ff7f00",
                                         "#a65628", "#f781bf", "#1b9e77", "#d95f02", "#666666"};

/* Writes s escaped for a DOT double-quoted string. */
static void ge__dot_escape(FILE *f, const char *s) {
  for (; s && *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') {
      fputc('\\', f);
      fputc(c, f);
    } else if (c == '\n') {
      fputs("\\n", f);
    } else if (c < 0x20 || c == 0x7F) {
      fputc(' ', f);
    } else {
      fputc(c, f);
    }
  }
}

static void ge__dot_graph(const ge_graph *g, FILE *f, uint32_t gi, uint32_t *next, int depth);

static void ge__dot_sub(FILE *f, const ge_graph *sub, const char *owner, const char *attr, int k, uint32_t gi,
                        uint32_t from, uint32_t *next, int depth) {
  uint32_t si = (*next)++, i;
  fprintf(f, "%*ssubgraph cluster_%u {\n%*slabel=\"", 2 * depth, "", (unsigned)si, 2 * depth + 2, "");
  ge__dot_escape(f, owner);
  fputc('.', f);
  ge__dot_escape(f, attr);
  if (k >= 0) fprintf(f, "[%d]", k);
  fputs(": ", f);
  ge__dot_escape(f, ge_graph_name(sub));
  fprintf(f, "\";\n%*sstyle=\"rounded,dashed\";\n", 2 * depth + 2, "");
  ge__dot_graph(sub, f, si, next, depth + 1);
  fprintf(f, "%*s}\n", 2 * depth, "");
  /* an arrow from the owning node into the cluster */
  for (i = 0; i < sub->id_bound && from != GE_NONE; i++)
    if (ge_graph_node(sub, i)) {
      fprintf(f, "%*sg%u_n%u -> g%u_n%u [style=dotted, color=\"#888888\", lhead=cluster_%u];\n", 2 * depth, "",
              (unsigned)gi, (unsigned)from, (unsigned)si, (unsigned)i, (unsigned)si);
      break;
    }
}

static void ge__dot_subgraphs(const ge_graph *g, FILE *f, const ge_attr *attrs, uint32_t n, const char *owner,
                              uint32_t gi, uint32_t from, uint32_t *next, int depth) {
  uint32_t i;
  (void)g;
  for (i = 0; i < n; i++) {
    const ge_attr *a = &attrs[i];
    if (a->type == GE_ATTR_GRAPH && a->v.g) ge__dot_sub(f, a->v.g, owner, a->name, -1, gi, from, next, depth);
    if (a->type == GE_ATTR_GRAPHS) {
      int32_t k;
      for (k = 0; k < a->count; k++)
        if (a->v.graphs[k]) ge__dot_sub(f, a->v.graphs[k], owner, a->name, (int)k, gi, from, next, depth);
    }
  }
}

static void ge__dot_graph(const ge_graph *g, FILE *f, uint32_t gi, uint32_t *next, int depth) {
  char buf[512];
  uint32_t i, k;
  if (depth > GE__SERIAL_MAX_DEPTH) return;
  for (i = 0; i < g->id_bound; i++) {
    const ge_node *n = ge_graph_node(g, i);
    if (!n) continue;
    fprintf(f, "%*sg%u_n%u [label=\"", 2 * depth, "", (unsigned)gi, (unsigned)i);
    ge__dot_escape(f, n->name);
    fputs("\\n", f);
    if (n->domain) {
      ge__dot_escape(f, n->domain);
      fputs("::", f);
    }
    ge__dot_escape(f, n->op);
    for (k = 0; k < n->num_outputs && k < 4; k++) {
      fprintf(f, "\\n%s", ge_dtype_name(n->outputs[k].dtype));
      ge__dot_escape(f, ge_shape_str(&n->outputs[k].shape, buf, sizeof buf));
    }
    if (n->num_outputs > 4) fprintf(f, "\\n(+%u outputs)", (unsigned)(n->num_outputs - 4));
    fputc('"', f);
    if (n->engine >= 0)
      fprintf(f, ", style=\"rounded,filled\", fillcolor=\"%s\"",
              ge__dot_fill[(uint32_t)n->engine % (sizeof ge__dot_fill / sizeof ge__dot_fill[0])]);
    if (n->stream >= 0)
      fprintf(f, ", penwidth=2, color=\"%s\"",
              ge__dot_line[(uint32_t)n->stream % (sizeof ge__dot_line / sizeof ge__dot_line[0])]);
    fputs("];\n", f);
  }
  for (i = 0; i < g->id_bound; i++) {
    const ge_node *n = ge_graph_node(g, i);
    if (!n) continue;
    for (k = 0; k < n->num_inputs; k++) {
      ge_edge e = n->inputs[k];
      if (e.node == GE_NONE || !ge_graph_node(g, e.node)) continue;
      fprintf(f, "%*sg%u_n%u -> g%u_n%u", 2 * depth, "", (unsigned)gi, (unsigned)e.node, (unsigned)gi, (unsigned)i);
      if (e.index) fprintf(f, " [label=\"%d\"]", (int)e.index);
      fputs(";\n", f);
    }
    for (k = 0; k < n->num_control_inputs; k++)
      if (ge_graph_node(g, n->control_inputs[k]))
        fprintf(f, "%*sg%u_n%u -> g%u_n%u [style=dashed];\n", 2 * depth, "", (unsigned)gi,
                (unsigned)n->control_inputs[k], (unsigned)gi, (unsigned)i);
  }
  ge__dot_subgraphs(g, f, g->attrs, g->num_attrs, ge_graph_name(g), gi, GE_NONE, next, depth);
  for (i = 0; i < g->id_bound; i++) {
    const ge_node *n = ge_graph_node(g, i);
    if (n) ge__dot_subgraphs(g, f, n->attrs, n->num_attrs, n->name, gi, i, next, depth);
  }
}

GE_API ge_status ge_graph_write_dot(const ge_graph *g, FILE *f) {
  uint32_t next = 1;
  if (!g || !f) return GE_ERR_INVALID;
  fputs("digraph \"", f);
  ge__dot_escape(f, ge_graph_name(g));
  fputs("\" {\n  graph [compound=true, fontname=\"Helvetica\"];\n"
        "  node [shape=box, style=rounded, fontname=\"Helvetica\"];\n"
        "  edge [fontname=\"Helvetica\", fontsize=10];\n",
        f);
  ge__dot_graph(g, f, 0, &next, 1);
  fputs("}\n", f);
  return ferror(f) ? GE_ERR_IO : GE_OK;
}

/* GE_CORE_END */

#ifdef __cplusplus
}
#endif
#endif /* GE_GRAPH_IMPLEMENTATION_DONE */
#endif /* GE_GRAPH_IMPLEMENTATION */

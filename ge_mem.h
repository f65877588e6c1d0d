/* ge_mem.h — memory planning: an offset planner, memory segments, runtime
 * allocators.
 *
 * Part of ge. Include anywhere for the declarations; define
 * GE_MEM_IMPLEMENTATION (or GE_IMPLEMENTATION) in one translation unit.
 *
 * Three parts (seed 003 §2.4.1 and §8; DESIGN §3):
 *
 *   1. the planner core needs no graph: intervals {size, alignment,
 *      first_use, last_use, stream} in, offsets, the total and the lower
 *      bound (the largest sum of bytes live at one step) out. Several
 *      strategies run and the smallest plan wins;
 *   2. the graph adapter (compiled only when ge_graph.h was included first)
 *      turns a graph's tensors into intervals — lifetimes from a topological
 *      order, in-place reuse, views that alias their input, continuous
 *      blocks, workspaces, cross-stream safety from a happens-before oracle —
 *      and lays them out in segments (weights, variables, feature map fixed
 *      and refreshable, zero-copy inputs and outputs);
 *   3. runtime allocators for dynamic shapes: a caching allocator (size
 *      classes) and an arena.
 *
 * Thread safety: planning functions are reentrant (all state lives in their
 * arguments). A caching allocator may be shared by threads (it locks); an
 * arena belongs to one thread at a time.
 *
 * Contents, in file order (each section opens with a "---- name" comment):
 *   declarations
 *     base types            ge_status, ge_error, ge_allocator (ge_graph.h's,
 *                           repeated under the same guards)
 *     planner core          ge_mem_interval, ge_mem_plan_intervals (the
 *                           strategies), ge_mem_check_plan
 *     runtime allocators    ge_caching_allocator, ge_arena
 *     graph adapter         segments, ge_mem_graph_desc / _plan (only after
 *                           ge_graph.h)
 *   implementation (GE_MEM_IMPLEMENTATION)
 *     basics, sort          errors, the default allocator (ge_mem.h needs no
 *                           ge_graph.h), the radix sort the strategies share
 *     planner: setup, greedy placement, step-order sweeps, the strategies
 *                           the interval planner; the best plan wins
 *     overlap checker       an independent check of a plan
 *     caching allocator, arena
 *     graph adapter         ge__mg_*: topological order, tensors and sizes,
 *                           views, continuous blocks, in place, streams,
 *                           segments, ge_mem_plan_graph
 */
#ifndef GE_MEM_H
#define GE_MEM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

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

/* The planner core needs no graph: the base types repeat ge_graph.h's,
 * under the same guards, so either header may come first. */
#ifndef GE_BASE_TYPES_DEFINED
#define GE_BASE_TYPES_DEFINED
typedef int ge_status;
enum {
  GE_OK = 0,
  GE_ERR_INVALID = -1,
  GE_ERR_NOMEM = -2,
  GE_ERR_NOT_FOUND = -3,
  GE_ERR_CYCLE = -4,
  GE_ERR_SHAPE = -5,
  GE_ERR_UNSUPPORTED = -6,
  GE_ERR_FORMAT = -7,
  GE_ERR_IO = -8,
  GE_ERR_INTERNAL = -9
};
typedef struct ge_error {
  ge_status code;
  char message[1024];
} ge_error;
#endif
#ifndef GE_ALLOCATOR_DEFINED
#define GE_ALLOCATOR_DEFINED
typedef struct ge_allocator {
  void *(*alloc)(void *user, size_t size);
  void *(*realloc)(void *user, void *ptr, size_t old_size, size_t new_size);
  void (*free)(void *user, void *ptr, size_t size);
  void *user;
} ge_allocator;
#endif

#define GE_MEM_DEFAULT_ALIGNMENT 512

/* ---------------------------------------------------------- planner core */

/* One tensor's need: `size` bytes from step first_use to step last_use
 * (inclusive). alignment 0 takes the plan's; otherwise a power of two. */
typedef struct ge_mem_interval {
  uint64_t size;
  uint32_t alignment;
  int32_t first_use, last_use;
  int32_t stream;
} ge_mem_interval;

typedef enum ge_mem_strategy {
  GE_MEM_STRATEGY_BEST = 0,          /* run every strategy, keep the smallest plan */
  GE_MEM_STRATEGY_GREEDY_SIZE,       /* largest first, best-fit gap among conflicting blocks */
  GE_MEM_STRATEGY_GREEDY_LIFETIME,   /* longest lifetime first, best fit */
  GE_MEM_STRATEGY_REUSE_RELEASED,    /* GE style: walk steps, reuse released blocks */
  GE_MEM_STRATEGY_NO_REUSE,          /* every interval its own bytes */
  /* A walk over the steps in a region sized to the lower bound: best-fit
   * free range, the block put against the side of the range whose neighbour
   * dies later (so the other side frees with the earlier neighbour and
   * merges). Reaches the lower bound on chains; grows past it if needed. */
  GE_MEM_STRATEGY_TWO_ENDED,
  /* TFLite's greedy by breadth: steps by bytes live there, largest first;
   * each step's unplaced intervals largest first; best-fit gap. */
  GE_MEM_STRATEGY_GREEDY_BREADTH,
  GE_MEM_STRATEGY_COUNT
} ge_mem_strategy;

typedef struct ge_mem_plan_desc {
  ge_allocator allocator;   /* scratch memory; zero: default */
  uint32_t alignment;       /* 0: GE_MEM_DEFAULT_ALIGNMENT; a power of two */
  ge_mem_strategy strategy; /* 0: best of all */
  /* Intervals on different streams share bytes only when this is set: it
   * says the steps already encode cross-stream order (the graph adapter
   * sets it after extending lifetimes by the stream plan). Unset, each
   * stream gets its own region. */
  int streams_ordered;
} ge_mem_plan_desc;

/* Sizes are rounded up to their alignment for planning; `total` is the end
 * of the highest rounded-up block. With streams planned apart (see
 * streams_ordered) each stream's region is planned on its own, regions
 * stacked by ascending stream id, and the lower bound is the sum of the
 * regions' bounds (still a bound: intervals of different streams may never
 * share bytes). */
typedef struct ge_mem_plan_summary {
  uint64_t total;          /* bytes the plan needs */
  uint64_t lower_bound;    /* max over steps of the aligned bytes live then */
  uint64_t no_reuse_total; /* sum of aligned sizes */
  /* The one that produced the plan. Under BEST with streams planned apart
   * each region keeps its best strategy; if they differ this says
   * GE_MEM_STRATEGY_BEST. */
  ge_mem_strategy strategy;
  uint64_t strategy_total[GE_MEM_STRATEGY_COUNT]; /* what each strategy reached (0: not run) */
} ge_mem_plan_summary;

/* Plans n intervals: offsets[i] is interval i's offset (a multiple of its
 * alignment). Deterministic. A bad interval (first_use > last_use, negative
 * steps, alignment not a power of two, sizes overflowing) is an error
 * naming its index. desc NULL: all defaults; out may be NULL. Zero-size
 * intervals get offset 0 (they own no byte). At most 2^30 intervals. */
GE_API ge_status ge_mem_plan_intervals(const ge_mem_interval *iv, size_t n, const ge_mem_plan_desc *desc,
                                       uint64_t *offsets, ge_mem_plan_summary *out, ge_error *err);

/* The overlap checker: an error naming the first two intervals (by offset)
 * that may be live together (overlapping steps, or different streams
 * without streams_ordered) and share a byte (real sizes, not rounded up),
 * or an offset that is misaligned or whose interval ends past `total`.
 * O(n log n). */
GE_API ge_status ge_mem_check_plan(const ge_mem_interval *iv, size_t n, const ge_mem_plan_desc *desc,
                                   const uint64_t *offsets, uint64_t total, ge_error *err);

GE_API const char *ge_mem_strategy_name(ge_mem_strategy s);

/* ---------------------------------------------------- runtime allocators */

/* Caching allocator: sizes rounded up to size classes (64 bytes and up,
 * four classes per power of two up to 1 MiB, eight above); released blocks
 * are kept per class for reuse until trimmed. Backed by `backing` (zero:
 * default). Blocks are 16-byte aligned when the backing allocator's are (a
 * 32-byte header precedes each). ge_caching_allocator_free frees every
 * block, released or still held. Thread-safe: one mutex, held also around
 * the calls to the backing allocator (which therefore need not be
 * thread-safe). When the backing allocator fails, the cache is trimmed and
 * the call tried once more. Stats: in_use and cached count class-rounded
 * bytes; allocs counts successful ge_caching_alloc calls, hits those served
 * from the cache. */
typedef struct ge_caching_allocator ge_caching_allocator;
typedef struct ge_caching_stats {
  uint64_t in_use, peak_in_use, cached, allocs, hits;
} ge_caching_stats;
GE_API ge_status ge_caching_allocator_create(const ge_allocator *backing, ge_caching_allocator **out, ge_error *err);
GE_API void ge_caching_allocator_free(ge_caching_allocator *c); /* frees everything, cached or not */
GE_API void *ge_caching_alloc(ge_caching_allocator *c, size_t size);
GE_API void ge_caching_release(ge_caching_allocator *c, void *p, size_t size);
GE_API void ge_caching_trim(ge_caching_allocator *c); /* returns the cached blocks to the backing allocator */
GE_API ge_caching_stats ge_caching_allocator_stats(ge_caching_allocator *c);
/* A ge_allocator whose calls go to c (for ge_exec_desc and friends). */
GE_API ge_allocator ge_caching_allocator_as_allocator(ge_caching_allocator *c);

/* Arena: bump allocation in chunks (chunk_size 0: 64 KiB; a larger request
 * gets a chunk of its own), everything released at once by reset.
 * ge_arena_alloc: alignment 0 means 16, otherwise a power of two (else
 * NULL); NULL when the backing allocator fails. ge_arena_used: bytes handed
 * out since the last reset, alignment padding included. One thread at a
 * time. */
typedef struct ge_arena ge_arena;
GE_API ge_status ge_arena_create(const ge_allocator *backing, size_t chunk_size, ge_arena **out, ge_error *err);
GE_API void ge_arena_free(ge_arena *a);
GE_API void *ge_arena_alloc(ge_arena *a, size_t size, size_t alignment);
GE_API void ge_arena_reset(ge_arena *a); /* keeps the first chunk */
GE_API uint64_t ge_arena_used(const ge_arena *a);

#ifdef __cplusplus
}
#endif
#endif /* GE_MEM_H */

/* ------------------------------------------------------------ graph adapter
 * Declared when ge_graph.h was included before this header. */
#if defined(GE_GRAPH_H) && !defined(GE_MEM_GRAPH_H)
#define GE_MEM_GRAPH_H
#ifdef __cplusplus
extern "C" {
#endif

typedef enum ge_mem_segment {
  GE_MEM_SEG_FEATURE_MAP = 0, /* refreshable feature map: reused by lifetime */
  GE_MEM_SEG_FIXED,           /* fixed feature map: nodes marked GE_MEM_ATTR_FIXED; reused among themselves */
  GE_MEM_SEG_OUTPUT,          /* graph outputs: zero-copy, never reused */
  GE_MEM_SEG_INPUT,           /* graph inputs (Data): zero-copy, bound to the caller's buffers */
  GE_MEM_SEG_WEIGHT,          /* Const values */
  GE_MEM_SEG_VARIABLE,        /* Variable values */
  GE_MEM_SEG_WORKSPACE,       /* per-node scratch: planned with the feature map, reported apart */
  GE_MEM_SEG_COUNT
} ge_mem_segment;

/* A node attribute (int, nonzero) putting the node's outputs in the fixed
 * feature map. */
#define GE_MEM_ATTR_FIXED "_fixed_feature_map"

/* One planned tensor: output `output` of `node` (output -1: the node's
 * workspace). The feature map, fixed feature map and outputs form one
 * model block, in that order: offsets of FEATURE_MAP, FIXED, OUTPUT and
 * WORKSPACE tensors are relative to the block (and written into the
 * graph's ge_tensor_desc.offset), offsets of INPUT, WEIGHT and VARIABLE
 * tensors to their segment (the graph keeps -1). alias_of is the tensor
 * owning the bytes (a view's, an in-place output's or a concat input's
 * root). first_use/last_use: for an owner, the steps its bytes are held
 * (extended for streams; graph outputs to the end); for an alias, its own
 * producer and last use. stream: node->stream with a stream plan, else 0.
 * String tensors are refused (their characters have no static size). */
typedef struct ge_mem_tensor {
  ge_node_id node;
  int32_t output;
  ge_mem_segment segment;
  uint64_t size;
  uint64_t offset;
  int32_t first_use, last_use; /* steps of the order; last_use after lifetime extensions */
  int32_t stream;
  int32_t alias_of; /* index of the tensor whose bytes it shares (view, in place, continuous), or -1 */
} ge_mem_tensor;

typedef struct ge_mem_graph_desc {
  ge_allocator allocator;   /* zero: the graph's */
  uint32_t alignment;       /* 0: GE_MEM_DEFAULT_ALIGNMENT */
  ge_mem_strategy strategy; /* 0: best */
  int disable_reuse;        /* GE's ge.exec.disableReuseMemory */
  int disable_inplace;      /* no in-place reuse of element-wise inputs */
  /* Execution order (node ids, every node once); NULL: ge_graph_topo_sort. */
  const ge_node_id *order;
  /* Cross-stream safety. With happens_before set, node->stream (>= 0 for
   * every node) says where each node runs, the order lists each stream's
   * nodes in the order the stream runs them, and a block passes to another
   * stream only when every use of the old tensor happens before the new
   * tensor's producer. NULL: one stream (the order is the execution). */
  int (*happens_before)(void *user, ge_node_id a, ge_node_id b);
  void *order_user;
  /* Scratch bytes a node needs while it runs (NULL: none). */
  uint64_t (*workspace_size)(void *user, const ge_graph *g, const ge_node *n);
  void *workspace_user;
  ge_logger logger; /* INFO: the block and segment sizes; DEBUG: each tensor's offset */
} ge_mem_graph_desc;

typedef struct ge_mem_graph_plan {
  ge_mem_tensor *tensors;
  uint32_t num_tensors;
  uint64_t segment_size[GE_MEM_SEG_COUNT];
  uint64_t block_size;          /* feature map + fixed + outputs: one allocation per model */
  ge_mem_plan_summary feature_map; /* the feature-map plan: lower bound, no-reuse total, strategy */
  ge_allocator allocator;
} ge_mem_graph_plan;

/* Plans g's tensors (the root level; subgraph bodies run as nested programs
 * and are not planned here). Shapes must be inferred and static; a tensor of
 * unknown size is an error naming it. Writes ge_tensor_desc.offset. */
GE_API ge_status ge_mem_plan_graph(ge_graph *g, const ge_mem_graph_desc *desc, ge_mem_graph_plan *out,
                                   ge_error *err);
GE_API void ge_mem_graph_plan_free(ge_mem_graph_plan *p);
GE_API const char *ge_mem_segment_name(ge_mem_segment s);

#ifdef __cplusplus
}
#endif
#endif /* GE_MEM_GRAPH_H */

/* ===================================================================== */
#if defined(GE_IMPLEMENTATION) || defined(GE_MEM_IMPLEMENTATION)
#ifndef GE_MEM_IMPLEMENTATION_DONE
#define GE_MEM_IMPLEMENTATION_DONE

#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef GE_USE_MIMALLOC
#include <mimalloc.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#define GE__MEM_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define GE__MEM_PRINTF(fmt, args)
#endif

/* ------------------------------------------------------------ basics */

/* ge_mem.h must not need ge_graph.h, so it has its own error setter and
 * default allocator (the same behaviour as ge_graph.h's). */
static ge_status ge__mem_error(ge_error *err, ge_status code, const char *fmt, ...) GE__MEM_PRINTF(3, 4);
static ge_status ge__mem_error(ge_error *err, ge_status code, const char *fmt, ...) {
  if (err) {
    va_list ap;
    va_start(ap, fmt);
    err->code = code;
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
  }
  return code;
}

static void *ge__mem_default_alloc(void *user, size_t size) {
  (void)user;
#ifdef GE_USE_MIMALLOC
  return mi_malloc(size);
#else
  return malloc(size);
#endif
}
static void *ge__mem_default_realloc(void *user, void *p, size_t old_size, size_t new_size) {
  (void)user;
  (void)old_size;
#ifdef GE_USE_MIMALLOC
  return mi_realloc(p, new_size);
#else
  return realloc(p, new_size);
#endif
}
static void ge__mem_default_free(void *user, void *p, size_t size) {
  (void)user;
  (void)size;
#ifdef GE_USE_MIMALLOC
  mi_free(p);
#else
  free(p);
#endif
}
static ge_allocator ge__mem_allocator_or_default(const ge_allocator *a) {
  ge_allocator r;
  if (a && a->alloc && a->free) return *a;
  r.alloc = ge__mem_default_alloc;
  r.realloc = ge__mem_default_realloc;
  r.free = ge__mem_default_free;
  r.user = NULL;
  return r;
}

static int ge__mem_is_pow2(uint64_t x) { return x && !(x & (x - 1)); }
/* Callers make sure these cannot overflow (see the bound in plan_intervals). */
static uint64_t ge__mem_align_up(uint64_t x, uint64_t al) { return (x + al - 1) & ~(al - 1); }
static uint64_t ge__mem_align_down(uint64_t x, uint64_t al) { return x & ~(al - 1); }

/* Scratch memory of one planning call: every block is remembered so that
 * one call frees all of them, on success and on every error path. */
#define GE__MEM_SCRATCH_MAX 24
typedef struct ge__mem_scratch {
  ge_allocator a;
  void *p[GE__MEM_SCRATCH_MAX];
  size_t size[GE__MEM_SCRATCH_MAX];
  int count;
} ge__mem_scratch;

static void *ge__mem_scratch_alloc(ge__mem_scratch *s, size_t count, size_t elem) {
  void *p;
  size_t bytes;
  if (s->count >= GE__MEM_SCRATCH_MAX) return NULL;
  if (count && elem > SIZE_MAX / count) return NULL;
  bytes = count * elem;
  if (!bytes) bytes = 1;
  p = s->a.alloc(s->a.user, bytes);
  if (!p) return NULL;
  s->p[s->count] = p;
  s->size[s->count] = bytes;
  s->count++;
  return p;
}
static void ge__mem_scratch_free(ge__mem_scratch *s) {
  while (s->count > 0) {
    s->count--;
    s->a.free(s->a.user, s->p[s->count], s->size[s->count]);
  }
}

/* --------------------------------------------------------------- sort */

/* A sort record: a key and the index of what it belongs to. */
typedef struct ge__mem_kv {
  uint64_t key;
  uint32_t idx, aux;
} ge__mem_kv;

/* Stable sort by key (ascending): LSD radix, 11-bit digits, skipping the
 * digits that are the same in every key (planning keys are mixed-radix
 * composites of steps and ranks: two or three digits). Each scatter pass
 * also counts the next digit, so two histograms (16 KiB of stack) do.
 * Multi-key orders come from composite keys; records start in index order,
 * so the index is the last tie-break. */
#define GE__MEM_RADIX_BITS 11
#define GE__MEM_RADIX_SIZE (1u << GE__MEM_RADIX_BITS)
static void ge__mem_sort_kv(ge__mem_kv *a, ge__mem_kv *tmp, size_t n) {
  uint32_t hist[2][GE__MEM_RADIX_SIZE];
  const uint64_t mask = GE__MEM_RADIX_SIZE - 1;
  size_t i;
  int d, p, nd = 0, digit[6], sorted = 1;
  uint64_t any = 0, all = ~(uint64_t)0;
  ge__mem_kv *src = a, *dst = tmp, *t;
  if (n <= 32) { /* insertion sort: small inputs */
    for (i = 1; i < n; i++) {
      ge__mem_kv x = a[i];
      size_t j = i;
      while (j > 0 && a[j - 1].key > x.key) {
        a[j] = a[j - 1];
        j--;
      }
      a[j] = x;
    }
    return;
  }
  /* the digits that differ somewhere: only those need a pass; none if the
   * keys are in order already */
  for (i = 0; i < n; i++) {
    any |= a[i].key;
    all &= a[i].key;
    if (i > 0 && a[i].key < a[i - 1].key) sorted = 0;
  }
  if (sorted) return;
  for (d = 0; d * GE__MEM_RADIX_BITS < 64; d++)
    if (((any ^ all) >> (GE__MEM_RADIX_BITS * d)) & mask) digit[nd++] = d;
  memset(hist[0], 0, sizeof hist[0]);
  for (i = 0; i < n; i++) hist[0][(a[i].key >> (GE__MEM_RADIX_BITS * digit[0])) & mask]++;
  for (p = 0; p < nd; p++) {
    uint32_t *h = hist[p & 1], *next = hist[(p + 1) & 1], sum = 0, c;
    unsigned b, sh = GE__MEM_RADIX_BITS * (unsigned)digit[p];
    unsigned shn = p + 1 < nd ? GE__MEM_RADIX_BITS * (unsigned)digit[p + 1] : 0;
    for (b = 0; b < GE__MEM_RADIX_SIZE; b++) {
      c = h[b];
      h[b] = sum;
      sum += c;
    }
    if (p + 1 < nd) {
      memset(next, 0, sizeof hist[0]);
      for (i = 0; i < n; i++) {
        uint64_t k = src[i].key;
        dst[h[(k >> sh) & mask]++] = src[i];
        next[(k >> shn) & mask]++;
      }
    } else {
      for (i = 0; i < n; i++) dst[h[(src[i].key >> sh) & mask]++] = src[i];
    }
    t = src;
    src = dst;
    dst = t;
  }
  if (src != a) memcpy(a, src, n * sizeof *a);
}

/* ------------------------------------------------------ planner: setup */

/* One interval as the planner sees it: size rounded up, steps compressed. */
typedef struct ge__mem_iv {
  uint64_t size;  /* rounded up to align; never 0 (zero sizes are not planned) */
  uint64_t align;
  int32_t a, b;   /* first and last step, compressed to 0..T-1 per region */
  int32_t stream;
  uint32_t id;    /* index in the caller's array */
} ge__mem_iv;

/* A bucket of the time index of the greedy strategies: its slots start at
 * slot[start], the first `fill` of them in use. */
typedef struct ge__mem_bucket {
  uint32_t start, fill;
} ge__mem_bucket;

/* A slot of the time index: a placed interval, at [lo, hi). */
typedef struct ge__mem_slot {
  uint64_t lo, hi;
  int32_t a, b;
} ge__mem_slot;

/* A conflicting block of the greedy strategies: bytes [lo, hi). */
typedef struct ge__mem_range {
  uint64_t lo, hi;
} ge__mem_range;

/* A segment of the region of the sweeps: bytes [lo, hi), free (die < 0)
 * or a live block whose last step is die. */
typedef struct ge__mem_span {
  uint64_t lo, hi;
  int32_t die;
  int32_t pad;
} ge__mem_span;

/* Sorts n ranges by lo (ties in any order); returns a or tmp, whichever
 * holds the result. Conflict lists are mostly short (insertion sort) but
 * can be long around long-lived intervals (bottom-up merge sort). */
static ge__mem_range *ge__mem_sort_ranges(ge__mem_range *a, ge__mem_range *tmp, size_t n) {
  size_t i, w;
  if (n <= 16) {
    for (i = 1; i < n; i++) {
      ge__mem_range x = a[i];
      size_t j = i;
      while (j > 0 && a[j - 1].lo > x.lo) {
        a[j] = a[j - 1];
        j--;
      }
      a[j] = x;
    }
    return a;
  }
  for (i = 0; i < n; i += 8) { /* runs of 8 by insertion, then merge */
    size_t e = i + 8 < n ? i + 8 : n, k;
    for (k = i + 1; k < e; k++) {
      ge__mem_range x = a[k];
      size_t j = k;
      while (j > i && a[j - 1].lo > x.lo) {
        a[j] = a[j - 1];
        j--;
      }
      a[j] = x;
    }
  }
  for (w = 8; w < n; w *= 2) {
    ge__mem_range *t;
    for (i = 0; i < n; i += 2 * w) {
      size_t l = i, mid = i + w < n ? i + w : n, e = i + 2 * w < n ? i + 2 * w : n, r = mid, o = i;
      while (l < mid && r < e) tmp[o++] = a[r].lo < a[l].lo ? a[r++] : a[l++];
      while (l < mid) tmp[o++] = a[l++];
      while (r < e) tmp[o++] = a[r++];
    }
    t = a;
    a = tmp;
    tmp = t;
  }
  return a;
}

/* Keeps one range per lo (the highest hi) of a[0..n), in place; returns
 * the new count. table: cap records (used when cap >= 2n), tmp: n ranges. */
static size_t ge__mem_dedupe_ranges(ge__mem_range *a, size_t n, ge__mem_range *tmp, ge__mem_kv *table, size_t cap) {
  size_t size = 64, i, u = 0;
  int bits = 6;
  while (size < 2 * n) {
    size *= 2;
    bits++;
  }
  if (size > cap) return n;
  memset(table, 0, size * sizeof *table);
  for (i = 0; i < n; i++) {
    uint64_t key = a[i].lo + 1; /* 0: an empty entry */
    size_t h = (size_t)((key * 0x9E3779B97F4A7C15ull) >> (64 - bits));
    while (table[h].key && table[h].key != key) h = (h + 1) & (size - 1);
    if (!table[h].key) {
      table[h].key = key;
      table[h].idx = (uint32_t)u;
      tmp[u++] = a[i];
    } else if (a[i].hi > tmp[table[h].idx].hi) {
      tmp[table[h].idx].hi = a[i].hi;
    }
  }
  memcpy(a, tmp, u * sizeof *a);
  return u;
}

/* Scratch for planning the regions, sized once for the largest one. */
typedef struct ge__mem_ctx {
  ge__mem_kv *kv, *kv_tmp; /* 2n + 64 each */
  uint32_t *order, *order2; /* n each */
  /* The time index (see ge__mem_index_build), built once per region for
   * the greedy strategies. Levels kept: level[0..nlevels). */
  ge__mem_bucket *bucket;   /* at most 2T + 64 */
  size_t nbuckets;
  ge__mem_slot *slot;       /* n */
  size_t base[34];          /* the first bucket of each level */
  int host[34];             /* the level holding the intervals of each length class */
  int level[34], nlevels;   /* the levels holding any, descending */
  int index_ready;          /* for the current region */
  ge__mem_span *spans;      /* 2n + 4: segments (sweeps) */
  ge__mem_range *conf;      /* 2n + 4: conflicts and their sorting space (greedy) */
  uint64_t *live;           /* T + 1: bytes live per step */
  uint32_t *tree;           /* 2 * pow2 >= T: range minimum over step ranks */
  uint64_t *cur_off, *best_off; /* n: the offsets of a strategy's plan, the best so far */
  /* n: the intervals in placement order; the memory of kv_tmp, which is
   * free while the greedy strategies place (2n + 64 records of 16 bytes
   * hold n of 32) */
  ge__mem_iv *gathered;
  uint32_t *size_desc;      /* n: size ranks, see ge__mem_rank_sizes */
  uint64_t nsizes;          /* distinct sizes in the region */
  int release_ready;        /* order2 holds the region's release order */
} ge__mem_ctx;

/* Validates one interval and computes its alignment and rounded-up size. */
static ge_status ge__mem_check_interval(const ge_mem_interval *v, size_t i, uint64_t default_align,
                                        uint64_t *align, uint64_t *asize, ge_error *err) {
  uint64_t al = v->alignment ? v->alignment : default_align;
  if (v->first_use < 0 || v->last_use < 0)
    return ge__mem_error(err, GE_ERR_INVALID, "interval %zu: negative step (first_use %d, last_use %d)", i,
                         (int)v->first_use, (int)v->last_use);
  if (v->first_use > v->last_use)
    return ge__mem_error(err, GE_ERR_INVALID, "interval %zu: first_use %d is after last_use %d", i,
                         (int)v->first_use, (int)v->last_use);
  if (!ge__mem_is_pow2(al))
    return ge__mem_error(err, GE_ERR_INVALID, "interval %zu: alignment %u is not a power of two", i,
                         (unsigned)v->alignment);
  if (v->size > UINT64_MAX - (al - 1))
    return ge__mem_error(err, GE_ERR_INVALID, "interval %zu: size %llu overflows when rounded up to %llu", i,
                         (unsigned long long)v->size, (unsigned long long)al);
  *align = al;
  *asize = ge__mem_align_up(v->size, al);
  return GE_OK;
}

/* Renumbers the steps of m intervals to 0..T-1 keeping their order (which
 * keeps every overlap and the lower bound); returns T. A dense range is only
 * shifted; a sparse one is sorted. kv, tmp: 2m records. */
static int32_t ge__mem_compress(ge__mem_iv *v, size_t m, ge__mem_kv *kv, ge__mem_kv *tmp) {
  int32_t lo = INT32_MAX, hi = 0, rank = -1;
  uint64_t prev = 0;
  size_t i;
  for (i = 0; i < m; i++) {
    if (v[i].a < lo) lo = v[i].a;
    if (v[i].b > hi) hi = v[i].b;
  }
  if ((uint64_t)(hi - lo) + 1 <= 2 * (uint64_t)m + 64) {
    for (i = 0; i < m; i++) {
      v[i].a -= lo;
      v[i].b -= lo;
    }
    return hi - lo + 1;
  }
  for (i = 0; i < m; i++) {
    kv[2 * i].key = (uint64_t)v[i].a;
    kv[2 * i].idx = (uint32_t)i;
    kv[2 * i].aux = 0;
    kv[2 * i + 1].key = (uint64_t)v[i].b;
    kv[2 * i + 1].idx = (uint32_t)i;
    kv[2 * i + 1].aux = 1;
  }
  ge__mem_sort_kv(kv, tmp, 2 * m);
  for (i = 0; i < 2 * m; i++) {
    if (i == 0 || kv[i].key != prev) rank++;
    prev = kv[i].key;
    if (kv[i].aux) v[kv[i].idx].b = rank;
    else v[kv[i].idx].a = rank;
  }
  return rank + 1;
}

/* Bytes live at each step (live[0..T-1]) from a difference array; returns
 * the maximum, the lower bound of the region. Sums wrap harmlessly in the
 * middle: every prefix sum is a real sum of sizes, which fits. */
static uint64_t ge__mem_live(const ge__mem_iv *v, size_t m, int32_t T, uint64_t *live) {
  uint64_t run = 0, best = 0;
  size_t i;
  int32_t t;
  memset(live, 0, ((size_t)T + 1) * sizeof *live);
  for (i = 0; i < m; i++) {
    live[v[i].a] += v[i].size;
    live[v[i].b + 1] -= v[i].size;
  }
  for (t = 0; t < T; t++) {
    run += live[t];
    live[t] = run;
    if (run > best) best = run;
  }
  return best;
}

/* ------------------------------------------- planner: greedy placement */

/* The level of an interval of len steps: the smallest k with 2^k >= len. */
static int ge__mem_level(int32_t a, int32_t b) {
  uint32_t x = (uint32_t)(b - a); /* len - 1 */
#if defined(__GNUC__) || defined(__clang__)
  return x ? 32 - __builtin_clz(x) : 0;
#else
  int k = 0;
  while (x) {
    x >>= 1;
    k++;
  }
  return k;
#endif
}

/* The time index of the greedy strategies, to find the placed intervals
 * whose steps overlap a new one without scanning all of them. Levels: an
 * interval of length len (steps) is kept on a level k >= ceil(log2(len)),
 * in the bucket of its first step; buckets are 2^k steps wide. An interval
 * there overlapping [qa, qb] starts at most 2^k - 1 steps before qa, so in
 * bucket (qa >> k) - 1 at the earliest: a query scans, on every level
 * kept, the buckets from that one to qb's. The work follows the number of
 * overlapping intervals (plus the query's length over the bucket widths,
 * small unless the query itself is long).
 *
 * Every level kept costs every query a visit, so levels are merged upward
 * where a small cost model says the extra slots scanned cost less.
 *
 * All intervals are known before any is placed, so the buckets are laid
 * out once per region (shared by the greedy strategies): each bucket gets
 * its final number of slots, contiguous, the buckets of a level in step
 * order, and placing an interval appends it to its bucket. A scan reads
 * memory in order and sees placed intervals only. */
static void ge__mem_index_build(ge__mem_ctx *cx, const ge__mem_iv *v, size_t m, int32_t T) {
  size_t nb = 0, i, g, count[34];
  int k, K = 0, host[34], h;
  uint32_t sum = 0;
  ge__mem_bucket *bk = cx->bucket;
  double len_sum = 0, best[34], cost;
  int from[34], p, top = 0;
  while (K < 31 && ((int64_t)1 << K) < (int64_t)T) K++;
  memset(count, 0, sizeof count);
  for (i = 0; i < m; i++) {
    k = ge__mem_level(v[i].a, v[i].b);
    count[k]++;
    len_sum += (double)(v[i].b - v[i].a) + 1;
    if (k > top) top = k;
  }
  /* Which levels to keep: each level's intervals go to the lowest kept
   * level at or above it. A kept level h costs every query about
   * len/2^h + 2 bucket visits and, holding N intervals, about
   * N (len + 2^(h+1)) / T slot visits; best[h] is the least total cost of
   * the levels up to h with h kept (from[h]: the kept level below it, or
   * -1). This only decides speed: every choice finds the same conflicts. */
  for (h = 0; h <= top; h++) {
    size_t N = 0;
    best[h] = -1;
    for (p = h - 1; p >= -1; p--) {
      N += count[p + 1];
      cost = (p >= 0 ? best[p] : 0) + 2.0 * (len_sum / (double)((int64_t)1 << h) + 2.0 * (double)m) +
             (double)N * (len_sum + (double)m * (double)((int64_t)2 << h)) / (double)T;
      if (best[h] < 0 || cost < best[h]) {
        best[h] = cost;
        from[h] = p;
      }
    }
  }
  cx->nlevels = 0;
  for (h = top; h >= 0; h = from[h]) {
    cx->level[cx->nlevels++] = h;
    for (k = from[h] + 1; k <= h; k++) host[k] = h;
  }
  for (k = top + 1; k <= K; k++) host[k] = k;
  /* A spare empty bucket before each kept level's first, so that a query
   * may start its scan one bucket early without a test. */
  for (k = 0; k <= K; k++) {
    cx->host[k] = host[k];
    if (k <= top && host[k] == k) { /* kept */
      nb++;
      cx->base[k] = nb;
      nb += (size_t)((T - 1) >> k) + 1;
    } else {
      cx->base[k] = nb;
    }
  }
  memset(bk, 0, (nb + 1) * sizeof *bk);
  for (i = 0; i < m; i++) { /* count per bucket */
    k = host[ge__mem_level(v[i].a, v[i].b)];
    bk[cx->base[k] + (size_t)(v[i].a >> k)].start++;
  }
  for (g = 0; g < nb; g++) { /* counts to starts */
    uint32_t c = bk[g].start;
    bk[g].start = sum;
    sum += c;
  }
  bk[nb].start = sum;
  cx->nbuckets = nb;
  cx->index_ready = 1;
}

/* Places the intervals in `order`, each at the best-fit gap among the
 * already placed intervals whose steps overlap it (the smallest gap that
 * fits, the lowest on a tie; above them all if none fits). Returns the
 * total. */
static uint64_t ge__mem_greedy(ge__mem_ctx *cx, const ge__mem_iv *v, size_t m, int32_t T, const uint32_t *order,
                               uint64_t *off) {
  size_t oi, c;
  int l;
  uint64_t total = 0;
  ge__mem_range *conf = cx->conf, *sorted; /* conflicts, then their sorting space */
  ge__mem_iv *q = cx->gathered;
  ge__mem_bucket *bk = cx->bucket;
  ge__mem_slot *slot = cx->slot;
  const size_t *base = cx->base;
  const int *level = cx->level;
  int nlevels;
  if (!cx->index_ready) ge__mem_index_build(cx, v, m, T);
  nlevels = cx->nlevels;
  for (c = 0; c < cx->nbuckets; c++) bk[c].fill = 0; /* nothing placed yet */
  /* The intervals in placement order, copied in a loop of independent
   * loads: read in the main loop instead, each would be a cache miss the
   * processor cannot overlap with anything. */
  for (oi = 0; oi < m; oi++) q[oi] = v[order[oi]];
  for (oi = 0; oi < m; oi++) {
    const ge__mem_iv *x = &q[oi];
    int32_t qa = x->a, qb = x->b;
    size_t nc = 0;
    uint32_t i = order[oi];
    uint64_t cur = 0, best = UINT64_MAX, best_gap = UINT64_MAX, al = x->align, sz = x->size;

    /* 1. the placed intervals overlapping [qa, qb]: on each level, those
     * in the buckets from the one before qa's to qb's */
    for (l = 0; l < nlevels; l++) {
      int k = level[l];
      const ge__mem_bucket *B = bk + base[k] + (size_t)(qa >> k) - 1, *B1 = bk + base[k] + (size_t)(qb >> k);
      for (; B <= B1; B++) {
        const ge__mem_slot *S = slot + B->start, *E = S + B->fill;
        for (; S < E; S++) { /* branch-free: whether it overlaps is a coin toss */
          conf[nc].lo = S->lo;
          conf[nc].hi = S->hi;
          nc += (size_t)((S->a <= qb) & (S->b >= qa));
        }
      }
    }

    /* 2. best-fit gap between them, in offset order. The long lists of
     * long-lived intervals repeat a few ranges many times (short intervals
     * reusing the same bytes) and only the union matters: first one range
     * per offset, the highest end kept (a hash table in kv). */
    if (nc > 64) nc = ge__mem_dedupe_ranges(conf, nc, conf + m, cx->kv, 2 * m + 64);
    sorted = ge__mem_sort_ranges(conf, conf + m, nc);
    for (c = 0; c < nc; c++) {
      const ge__mem_range *s = &sorted[c];
      if (s->lo > cur) {
        uint64_t cand = ge__mem_align_up(cur, al);
        if (cand <= s->lo && s->lo - cand >= sz && s->lo - cur < best_gap) {
          best_gap = s->lo - cur;
          best = cand;
        }
      }
      if (s->hi > cur) cur = s->hi;
    }
    if (best == UINT64_MAX) best = ge__mem_align_up(cur, al);
    off[i] = best;
    if (best + sz > total) total = best + sz;

    /* 3. into the index */
    {
      int k = cx->host[ge__mem_level(qa, qb)];
      ge__mem_bucket *B = bk + base[k] + (size_t)(qa >> k);
      ge__mem_slot *S = slot + B->start + B->fill++;
      S->lo = best;
      S->hi = best + sz;
      S->a = qa;
      S->b = qb;
    }
  }
  return total;
}

/* --------------------------------------------- planner: step-order sweeps */

/* The region as a sorted array of segments tiling [0, top): live blocks and
 * free ranges, no two free ranges adjacent. Its length is at most twice the
 * number of live blocks plus one, so the linear scans cost what is live. */
typedef struct ge__mem_sweep {
  ge__mem_span *seg;
  size_t count;
  uint64_t top;
} ge__mem_sweep;

static void ge__mem_seg_insert(ge__mem_sweep *s, size_t at, uint64_t lo, uint64_t hi, int32_t die) {
  memmove(s->seg + at + 1, s->seg + at, (s->count - at) * sizeof *s->seg);
  s->seg[at].lo = lo;
  s->seg[at].hi = hi;
  s->seg[at].die = die;
  s->seg[at].pad = 0;
  s->count++;
}
static void ge__mem_seg_erase(ge__mem_sweep *s, size_t at) {
  memmove(s->seg + at, s->seg + at + 1, (s->count - at - 1) * sizeof *s->seg);
  s->count--;
}

/* Takes size bytes for a block dying at step `die`: the smallest free range
 * that fits (the lowest on a tie); else the end of the region grows. With
 * two_ended the block goes against the side of its range whose neighbour
 * dies later (the region's floor and ceiling never die); else low. */
static uint64_t ge__mem_sweep_alloc(ge__mem_sweep *s, uint64_t size, uint64_t al, int32_t die, int two_ended) {
  size_t i, best = SIZE_MAX;
  uint64_t best_len = UINT64_MAX, pos, lo, hi;
  for (i = 0; i < s->count; i++) {
    const ge__mem_span *g = &s->seg[i];
    uint64_t cand;
    if (g->die >= 0 || g->hi - g->lo >= best_len) continue;
    cand = ge__mem_align_up(g->lo, al);
    if (cand <= g->hi && g->hi - cand >= size) {
      best = i;
      best_len = g->hi - g->lo;
    }
  }
  if (best == SIZE_MAX) { /* grow: from the free range at the end, if any */
    if (s->count > 0 && s->seg[s->count - 1].die < 0) {
      lo = s->seg[s->count - 1].lo;
      s->count--;
    } else {
      lo = s->top;
    }
    pos = ge__mem_align_up(lo, al);
    if (pos > lo) ge__mem_seg_insert(s, s->count, lo, pos, -1);
    ge__mem_seg_insert(s, s->count, pos, pos + size, die);
    s->top = pos + size;
    return pos;
  }
  lo = s->seg[best].lo;
  hi = s->seg[best].hi;
  pos = ge__mem_align_up(lo, al);
  if (two_ended) {
    /* neighbours are live blocks (free ranges never touch) or the ends */
    int32_t below = best > 0 ? s->seg[best - 1].die : INT32_MAX;
    int32_t above = best + 1 < s->count ? s->seg[best + 1].die : INT32_MAX;
    if (above > below) pos = ge__mem_align_down(hi - size, al);
  }
  /* the range becomes [lo,pos) free, [pos,pos+size) live, [pos+size,hi) free */
  s->seg[best].lo = pos;
  s->seg[best].hi = pos + size;
  s->seg[best].die = die;
  if (pos + size < hi) ge__mem_seg_insert(s, best + 1, pos + size, hi, -1);
  if (pos > lo) ge__mem_seg_insert(s, best, lo, pos, -1);
  return pos;
}

/* Frees the live block starting at pos and merges it with free neighbours. */
static void ge__mem_sweep_free(ge__mem_sweep *s, uint64_t pos) {
  size_t l = 0, r = s->count, i;
  while (l + 1 < r) { /* the last segment with lo <= pos */
    size_t mid = (l + r) / 2;
    if (s->seg[mid].lo <= pos) l = mid;
    else r = mid;
  }
  i = l;
  s->seg[i].die = -1;
  if (i + 1 < s->count && s->seg[i + 1].die < 0) {
    s->seg[i].hi = s->seg[i + 1].hi;
    ge__mem_seg_erase(s, i + 1);
  }
  if (i > 0 && s->seg[i - 1].die < 0) {
    s->seg[i - 1].hi = s->seg[i].hi;
    ge__mem_seg_erase(s, i);
  }
}

/* Walks the steps: before allocating the blocks that start at a step, frees
 * those whose last step has passed. alloc_order is sorted by first step,
 * release_order by last step. ceiling: the region's starting size (one free
 * range), 0 for none. Returns the total. */
static uint64_t ge__mem_sweep_plan(ge__mem_ctx *cx, const ge__mem_iv *v, size_t m, const uint32_t *alloc_order,
                                   const uint32_t *release_order, uint64_t ceiling, int two_ended, uint64_t *off) {
  ge__mem_sweep s;
  size_t oi, r = 0;
  uint64_t total = 0;
  s.seg = cx->spans;
  s.count = 0;
  s.top = 0;
  if (ceiling > 0) {
    ge__mem_seg_insert(&s, 0, 0, ceiling, -1);
    s.top = ceiling;
  }
  for (oi = 0; oi < m; oi++) {
    uint32_t i = alloc_order[oi];
    while (r < m && v[release_order[r]].b < v[i].a) {
      ge__mem_sweep_free(&s, off[release_order[r]]);
      r++;
    }
    off[i] = ge__mem_sweep_alloc(&s, v[i].size, v[i].align, v[i].b, two_ended);
    if (off[i] + v[i].size > total) total = off[i] + v[i].size;
  }
  return total;
}

/* ----------------------------------------------- planner: the strategies */

/* order = 0..m-1 sorted by keys (stable: the index breaks ties). */
static void ge__mem_order_by(ge__mem_ctx *cx, uint32_t *order, size_t m, const uint64_t *keys) {
  size_t i;
  for (i = 0; i < m; i++) {
    cx->kv[i].key = keys[i];
    cx->kv[i].idx = (uint32_t)i;
  }
  ge__mem_sort_kv(cx->kv, cx->kv_tmp, m);
  for (i = 0; i < m; i++) order[i] = cx->kv[i].idx;
}

/* One strategy over one region (not NO_REUSE). Each order is one sort of a
 * composite key, mixed radix to keep it short (fewer radix passes): steps
 * are < T, size ranks (cx->size_desc: 0 for the largest size) < R.
 * keys: m scratch values. live: the region's bytes per step; lb their
 * maximum. */
static uint64_t ge__mem_run_strategy(ge__mem_ctx *cx, const ge__mem_iv *v, size_t m, int32_t T, uint64_t lb,
                                     ge_mem_strategy st, uint64_t *keys, uint64_t *off) {
  size_t i;
  const uint32_t *sd = cx->size_desc;
  const uint64_t R = cx->nsizes, TT = (uint64_t)T;
  uint32_t *order = cx->order;
  switch (st) {
  case GE_MEM_STRATEGY_GREEDY_SIZE: /* size descending, then first step, then index */
    for (i = 0; i < m; i++) keys[i] = sd[i] * TT + (uint64_t)v[i].a;
    ge__mem_order_by(cx, order, m, keys);
    return ge__mem_greedy(cx, v, m, T, order, off);
  case GE_MEM_STRATEGY_GREEDY_LIFETIME: /* length descending, then size descending */
    for (i = 0; i < m; i++) keys[i] = (TT - 1 - (uint64_t)(v[i].b - v[i].a)) * R + sd[i];
    ge__mem_order_by(cx, order, m, keys);
    return ge__mem_greedy(cx, v, m, T, order, off);
  case GE_MEM_STRATEGY_GREEDY_BREADTH: {
    /* Rank the steps by bytes live (descending; rank[t]); an interval's key
     * is the best rank among its steps: it is placed when the first of its
     * steps comes up, and the intervals of one step largest first. Short
     * intervals scan their ranks; long ones ask a range-minimum segment
     * tree (bottom-up, built on first need). */
    size_t P = 1, t;
    uint32_t *tree = cx->tree, *rank = tree + 1; /* rank in tree[P..2P) once built */
    int built = 0;
    while (P < (size_t)T) P *= 2;
    for (t = 0; t < (size_t)T; t++) {
      cx->kv[t].key = ~cx->live[t];
      cx->kv[t].idx = (uint32_t)t;
    }
    ge__mem_sort_kv(cx->kv, cx->kv_tmp, (size_t)T);
    for (t = 0; t < (size_t)T; t++) rank[cx->kv[t].idx] = (uint32_t)t;
    for (i = 0; i < m; i++) {
      uint32_t best = UINT32_MAX;
      if (v[i].b - v[i].a < 16) {
        int32_t x;
        for (x = v[i].a; x <= v[i].b; x++)
          if (rank[x] < best) best = rank[x];
      } else {
        size_t l = P + (size_t)v[i].a, r = P + (size_t)v[i].b + 1;
        if (!built) { /* move the ranks to the leaves, fill the tree */
          memmove(tree + P, rank, (size_t)T * sizeof *tree);
          rank = tree + P;
          for (t = (size_t)T; t < P; t++) tree[P + t] = UINT32_MAX;
          for (t = P - 1; t >= 1; t--) tree[t] = tree[2 * t] < tree[2 * t + 1] ? tree[2 * t] : tree[2 * t + 1];
          built = 1;
        }
        for (; l < r; l /= 2, r /= 2) {
          if (l & 1) {
            if (tree[l] < best) best = tree[l];
            l++;
          }
          if (r & 1) {
            r--;
            if (tree[r] < best) best = tree[r];
          }
        }
      }
      keys[i] = best * R + sd[i];
    }
    ge__mem_order_by(cx, order, m, keys);
    return ge__mem_greedy(cx, v, m, T, order, off);
  }
  case GE_MEM_STRATEGY_REUSE_RELEASED:
  case GE_MEM_STRATEGY_TWO_ENDED: {
    int two = st == GE_MEM_STRATEGY_TWO_ENDED;
    /* allocation: by first step; within a step, index order (GE's: node
     * order) or, two-ended, size descending. Release: by last step. */
    for (i = 0; i < m; i++) keys[i] = two ? (uint64_t)v[i].a * R + sd[i] : (uint64_t)v[i].a;
    ge__mem_order_by(cx, order, m, keys);
    if (!cx->release_ready) { /* the same for both sweeps */
      for (i = 0; i < m; i++) keys[i] = (uint64_t)v[i].b;
      ge__mem_order_by(cx, cx->order2, m, keys);
      cx->release_ready = 1;
    }
    return ge__mem_sweep_plan(cx, v, m, order, cx->order2, two ? lb : 0, two, off);
  }
  default:
    return 0;
  }
}

/* cx->size_desc[i] = the rank of v[i].size among the region's sizes, 0 for
 * the largest (equal sizes, equal ranks). */
static void ge__mem_rank_sizes(ge__mem_ctx *cx, const ge__mem_iv *v, size_t m) {
  size_t i;
  uint32_t rank = 0;
  for (i = 0; i < m; i++) {
    cx->kv[i].key = ~v[i].size;
    cx->kv[i].idx = (uint32_t)i;
  }
  ge__mem_sort_kv(cx->kv, cx->kv_tmp, m);
  for (i = 0; i < m; i++) {
    if (i > 0 && cx->kv[i].key != cx->kv[i - 1].key) rank++;
    cx->size_desc[cx->kv[i].idx] = rank;
  }
  cx->nsizes = (uint64_t)rank + 1;
}

GE_API const char *ge_mem_strategy_name(ge_mem_strategy s) {
  switch (s) {
  case GE_MEM_STRATEGY_BEST: return "best";
  case GE_MEM_STRATEGY_GREEDY_SIZE: return "greedy_size";
  case GE_MEM_STRATEGY_GREEDY_LIFETIME: return "greedy_lifetime";
  case GE_MEM_STRATEGY_REUSE_RELEASED: return "reuse_released";
  case GE_MEM_STRATEGY_NO_REUSE: return "no_reuse";
  case GE_MEM_STRATEGY_TWO_ENDED: return "two_ended";
  case GE_MEM_STRATEGY_GREEDY_BREADTH: return "greedy_breadth";
  default: return "unknown";
  }
}

#define GE__MEM_MAX_INTERVALS ((size_t)1 << 30)

/* NO_REUSE: one block after another, largest alignment first, so that no
 * padding is needed (rounded sizes are multiples of their alignment) and
 * the total is exactly the sum of the rounded sizes. */
static uint64_t ge__mem_no_reuse(ge__mem_ctx *cx, const ge__mem_iv *v, size_t m, uint64_t *offsets) {
  uint64_t at = 0;
  size_t i;
  for (i = 0; i < m; i++) {
    cx->kv[i].key = ~v[i].align;
    cx->kv[i].idx = (uint32_t)i;
  }
  ge__mem_sort_kv(cx->kv, cx->kv_tmp, m);
  for (i = 0; i < m; i++) {
    const ge__mem_iv *x = &v[cx->kv[i].idx];
    offsets[x->id] = at;
    at += x->size;
  }
  return at;
}

GE_API ge_status ge_mem_plan_intervals(const ge_mem_interval *iv, size_t n, const ge_mem_plan_desc *desc,
                                       uint64_t *offsets, ge_mem_plan_summary *out, ge_error *err) {
  ge_mem_plan_summary sum;
  ge__mem_scratch sc;
  ge__mem_ctx cx;
  ge__mem_iv *v;
  uint64_t default_align = GE_MEM_DEFAULT_ALIGNMENT, bound = 0, *keys;
  uint64_t stack_end[GE_MEM_STRATEGY_COUNT], best_end = 0;
  ge_mem_strategy st = desc ? desc->strategy : GE_MEM_STRATEGY_BEST, chosen = GE_MEM_STRATEGY_COUNT;
  ge_mem_strategy run[GE_MEM_STRATEGY_COUNT];
  int nrun = 0, separate = 0, r;
  size_t i, m = 0, g0, T_max, P = 1;
  ge_status rc = GE_OK;

  memset(&sum, 0, sizeof sum);
  if (desc && desc->alignment) {
    if (!ge__mem_is_pow2(desc->alignment))
      return ge__mem_error(err, GE_ERR_INVALID, "ge_mem_plan_intervals: desc alignment %u is not a power of two",
                           (unsigned)desc->alignment);
    default_align = desc->alignment;
  }
  if ((int)st < 0 || st >= GE_MEM_STRATEGY_COUNT)
    return ge__mem_error(err, GE_ERR_INVALID, "ge_mem_plan_intervals: unknown strategy %d", (int)st);
  if (n > 0 && (!iv || !offsets))
    return ge__mem_error(err, GE_ERR_INVALID, "ge_mem_plan_intervals: %s is NULL",
                         !iv ? "the interval array" : "offsets");
  if (n > GE__MEM_MAX_INTERVALS)
    return ge__mem_error(err, GE_ERR_INVALID, "ge_mem_plan_intervals: %zu intervals, at most %zu", n,
                         GE__MEM_MAX_INTERVALS);

  /* Validate; sum the rounded sizes. `bound` caps every offset any strategy
   * can produce (each block adds at most its size plus alignment padding,
   * stacking regions at most one more alignment each), so with it fitting
   * in 64 bits no offset arithmetic below can overflow. */
  for (i = 0; i < n; i++) {
    uint64_t al, as, extra;
    rc = ge__mem_check_interval(&iv[i], i, default_align, &al, &as, err);
    if (rc) return rc;
    extra = as + 2 * al;
    if (as > UINT64_MAX - sum.no_reuse_total || extra < as || extra > UINT64_MAX - bound)
      return ge__mem_error(err, GE_ERR_INVALID, "interval %zu: the sizes of intervals 0..%zu add up past 2^64 bytes",
                           i, i);
    sum.no_reuse_total += as;
    bound += extra;
    if (as) m++;
  }
  for (r = 0; r < GE_MEM_STRATEGY_COUNT; r++) stack_end[r] = 0;
  if (st == GE_MEM_STRATEGY_BEST) {
    for (r = 1; r < GE_MEM_STRATEGY_COUNT; r++)
      if (r != GE_MEM_STRATEGY_NO_REUSE) run[nrun++] = (ge_mem_strategy)r;
  } else if (st != GE_MEM_STRATEGY_NO_REUSE) {
    run[nrun++] = st;
  }

  if (m == 0) { /* nothing owns a byte: every strategy gives 0 */
    for (i = 0; i < n; i++) offsets[i] = 0;
    sum.strategy = st == GE_MEM_STRATEGY_BEST ? GE_MEM_STRATEGY_GREEDY_SIZE : st;
    if (out) *out = sum;
    return GE_OK;
  }

  memset(&sc, 0, sizeof sc);
  sc.a = ge__mem_allocator_or_default(desc ? &desc->allocator : NULL);
  memset(&cx, 0, sizeof cx);
  T_max = 2 * m + 64; /* the most steps a region can have after compression */
  while (P < T_max) P *= 2;
  v = (ge__mem_iv *)ge__mem_scratch_alloc(&sc, m, sizeof *v);
  cx.kv = (ge__mem_kv *)ge__mem_scratch_alloc(&sc, T_max, sizeof *cx.kv);
  cx.kv_tmp = (ge__mem_kv *)ge__mem_scratch_alloc(&sc, T_max, sizeof *cx.kv_tmp);
  cx.live = (uint64_t *)ge__mem_scratch_alloc(&sc, T_max + 1, sizeof *cx.live);
  keys = (uint64_t *)ge__mem_scratch_alloc(&sc, m, sizeof *keys);
  if (!v || !cx.kv || !cx.kv_tmp || !cx.live || !keys) goto nomem;
  if (nrun > 0) {
    cx.order = (uint32_t *)ge__mem_scratch_alloc(&sc, m, sizeof *cx.order);
    cx.order2 = (uint32_t *)ge__mem_scratch_alloc(&sc, m, sizeof *cx.order2);
    cx.cur_off = (uint64_t *)ge__mem_scratch_alloc(&sc, m, sizeof *cx.cur_off);
    cx.best_off = (uint64_t *)ge__mem_scratch_alloc(&sc, m, sizeof *cx.best_off);
    cx.bucket = (ge__mem_bucket *)ge__mem_scratch_alloc(&sc, 2 * T_max + 128, sizeof *cx.bucket);
    cx.slot = (ge__mem_slot *)ge__mem_scratch_alloc(&sc, m, sizeof *cx.slot);
    cx.spans = (ge__mem_span *)ge__mem_scratch_alloc(&sc, 2 * m + 4, sizeof *cx.spans);
    cx.conf = (ge__mem_range *)ge__mem_scratch_alloc(&sc, 2 * m + 4, sizeof *cx.conf);
    cx.tree = (uint32_t *)ge__mem_scratch_alloc(&sc, 2 * P, sizeof *cx.tree);
    cx.gathered = (ge__mem_iv *)(void *)cx.kv_tmp;
    cx.size_desc = (uint32_t *)ge__mem_scratch_alloc(&sc, m, sizeof *cx.size_desc);
    if (!cx.size_desc || !cx.order || !cx.order2 || !cx.cur_off || !cx.best_off || !cx.bucket || !cx.slot ||
        !cx.spans || !cx.conf || !cx.tree)
      goto nomem;
  }

  m = 0;
  for (i = 0; i < n; i++) {
    uint64_t al, as;
    offsets[i] = 0;
    (void)ge__mem_check_interval(&iv[i], i, default_align, &al, &as, NULL);
    if (!as) continue;
    v[m].size = as;
    v[m].align = al;
    v[m].a = iv[i].first_use;
    v[m].b = iv[i].last_use;
    v[m].stream = iv[i].stream;
    v[m].id = (uint32_t)i;
    if (v[m].stream != v[0].stream && !(desc && desc->streams_ordered)) separate = 1;
    m++;
  }
  /* streams planned apart: one region per stream, by ascending stream id */
  if (separate) {
    for (i = 0; i < m; i++) {
      cx.kv[i].key = (uint64_t)((int64_t)v[i].stream - INT32_MIN);
      cx.kv[i].idx = (uint32_t)i;
    }
    ge__mem_sort_kv(cx.kv, cx.kv_tmp, m);
    { /* permuted through kv_tmp: the sort is done with it */
      ge__mem_iv *v2 = (ge__mem_iv *)(void *)cx.kv_tmp;
      for (i = 0; i < m; i++) v2[i] = v[cx.kv[i].idx];
      memcpy(v, v2, m * sizeof *v);
    }
  }

  for (g0 = 0; g0 < m;) {
    size_t g1 = g0 + 1, j, gm;
    ge__mem_iv *gv = v + g0;
    uint64_t lb, maxal = 0, best_total = UINT64_MAX, base;
    ge_mem_strategy gbest = GE_MEM_STRATEGY_COUNT;
    int32_t T;
    if (separate)
      while (g1 < m && v[g1].stream == v[g0].stream) g1++;
    else
      g1 = m;
    gm = g1 - g0;
    for (j = 0; j < gm; j++)
      if (gv[j].align > maxal) maxal = gv[j].align;
    T = ge__mem_compress(gv, gm, cx.kv, cx.kv_tmp);
    lb = ge__mem_live(gv, gm, T, cx.live);
    sum.lower_bound += lb;
    if (nrun > 0) ge__mem_rank_sizes(&cx, gv, gm);
    cx.index_ready = 0;
    cx.release_ready = 0;
    for (r = 0; r < nrun; r++) {
      uint64_t t = ge__mem_run_strategy(&cx, gv, gm, T, lb, run[r], keys, cx.cur_off);
      stack_end[run[r]] = ge__mem_align_up(stack_end[run[r]], maxal) + t;
      if (t < best_total) { /* strict: a tie keeps the earlier strategy */
        uint64_t *swap = cx.best_off;
        cx.best_off = cx.cur_off;
        cx.cur_off = swap;
        best_total = t;
        gbest = run[r];
      }
    }
    if (nrun > 0) {
      base = ge__mem_align_up(best_end, maxal);
      for (j = 0; j < gm; j++) offsets[gv[j].id] = base + cx.best_off[j];
      best_end = base + best_total;
      if (chosen == GE_MEM_STRATEGY_COUNT) chosen = gbest;
      else if (chosen != gbest) chosen = GE_MEM_STRATEGY_BEST; /* regions chose differently */
    }
    g0 = g1;
  }
  /* Reuse beats no reuse in practice, but padding between mixed alignments
   * could in principle tip it: then BEST takes NO_REUSE and says so. */
  if (st == GE_MEM_STRATEGY_NO_REUSE || (st == GE_MEM_STRATEGY_BEST && sum.no_reuse_total < best_end)) {
    best_end = ge__mem_no_reuse(&cx, v, m, offsets);
    chosen = GE_MEM_STRATEGY_NO_REUSE;
  }
  for (r = 0; r < nrun; r++) sum.strategy_total[run[r]] = stack_end[run[r]];
  if (st == GE_MEM_STRATEGY_BEST || st == GE_MEM_STRATEGY_NO_REUSE)
    sum.strategy_total[GE_MEM_STRATEGY_NO_REUSE] = sum.no_reuse_total;
  sum.total = best_end;
  sum.strategy = chosen;
  if (out) *out = sum;
  ge__mem_scratch_free(&sc);
  return GE_OK;
nomem:
  ge__mem_scratch_free(&sc);
  return ge__mem_error(err, GE_ERR_NOMEM, "ge_mem_plan_intervals: out of memory for %zu intervals", n);
}

/* ------------------------------------------------------ overlap checker */

/* A bottom-up segment tree of P leaves holding int32 values, -1 for empty:
 * set one leaf, maximum over a range of leaves. */
static void ge__mem_tree_set(int32_t *t, size_t P, size_t pos, int32_t val) {
  size_t i = P + pos;
  t[i] = val;
  for (i /= 2; i >= 1; i /= 2) t[i] = t[2 * i] > t[2 * i + 1] ? t[2 * i] : t[2 * i + 1];
}
static int32_t ge__mem_tree_max(const int32_t *t, size_t P, size_t l, size_t r) { /* [l, r] */
  int32_t best = -1;
  for (l += P, r += P + 1; l < r; l /= 2, r /= 2) {
    if ((l & 1) && t[l++] > best) best = t[l - 1];
    if ((r & 1) && t[--r] > best) best = t[r];
  }
  return best;
}

/* Sweeps the address space: blocks enter in offset order and leave once
 * the sweep passes their end (real sizes: a block [off, off+size) shares
 * no byte with one starting at off+size). The blocks in at one moment all
 * contain the sweep's address, so in a correct plan their step ranges are
 * disjoint, and no two start at the same step: a tree indexed by first
 * step holding each one's last step finds whether any overlaps [a, b] as
 * max(last step over first steps 0..b) >= a. With streams apart, a count
 * per stream finds a block of another stream. */
GE_API ge_status ge_mem_check_plan(const ge_mem_interval *iv, size_t n, const ge_mem_plan_desc *desc,
                                   const uint64_t *offsets, uint64_t total, ge_error *err) {
  ge__mem_scratch sc;
  ge__mem_kv *kv, *tmp;
  ge__mem_iv *v;
  uint32_t *by_lo, *by_hi, *srank;
  int32_t *tree, *scount, T, nstreams = 0;
  uint64_t default_align = GE_MEM_DEFAULT_ALIGNMENT;
  int streams_apart = !(desc && desc->streams_ordered);
  size_t i, m = 0, p, r = 0, active = 0, P = 1;
  ge_status rc = GE_OK;

  if (desc && desc->alignment) {
    if (!ge__mem_is_pow2(desc->alignment))
      return ge__mem_error(err, GE_ERR_INVALID, "ge_mem_check_plan: desc alignment %u is not a power of two",
                           (unsigned)desc->alignment);
    default_align = desc->alignment;
  }
  if (n > 0 && (!iv || !offsets))
    return ge__mem_error(err, GE_ERR_INVALID, "ge_mem_check_plan: %s is NULL", !iv ? "the interval array" : "offsets");
  if (n > GE__MEM_MAX_INTERVALS)
    return ge__mem_error(err, GE_ERR_INVALID, "ge_mem_check_plan: %zu intervals, at most %zu", n,
                         GE__MEM_MAX_INTERVALS);
  for (i = 0; i < n; i++) {
    uint64_t al, as;
    rc = ge__mem_check_interval(&iv[i], i, default_align, &al, &as, err);
    if (rc) return rc;
    if (offsets[i] & (al - 1))
      return ge__mem_error(err, GE_ERR_INVALID, "interval %zu: offset %llu is not a multiple of its alignment %llu",
                           i, (unsigned long long)offsets[i], (unsigned long long)al);
    if (offsets[i] > total || iv[i].size > total - offsets[i])
      return ge__mem_error(err, GE_ERR_INVALID, "interval %zu: bytes [%llu, %llu) end past the total %llu", i,
                           (unsigned long long)offsets[i], (unsigned long long)(offsets[i] + iv[i].size),
                           (unsigned long long)total);
    if (iv[i].size) m++;
  }
  if (m < 2) return GE_OK;

  memset(&sc, 0, sizeof sc);
  sc.a = ge__mem_allocator_or_default(desc ? &desc->allocator : NULL);
  while (P < 2 * m + 64) P *= 2; /* T <= 2m + 64 after compression */
  v = (ge__mem_iv *)ge__mem_scratch_alloc(&sc, m, sizeof *v);
  kv = (ge__mem_kv *)ge__mem_scratch_alloc(&sc, 2 * m, sizeof *kv);
  tmp = (ge__mem_kv *)ge__mem_scratch_alloc(&sc, 2 * m, sizeof *tmp);
  by_lo = (uint32_t *)ge__mem_scratch_alloc(&sc, m, sizeof *by_lo);
  by_hi = (uint32_t *)ge__mem_scratch_alloc(&sc, m, sizeof *by_hi);
  srank = (uint32_t *)ge__mem_scratch_alloc(&sc, m, sizeof *srank);
  tree = (int32_t *)ge__mem_scratch_alloc(&sc, 2 * P, sizeof *tree);
  scount = (int32_t *)ge__mem_scratch_alloc(&sc, m, sizeof *scount);
  if (!v || !kv || !tmp || !by_lo || !by_hi || !srank || !tree || !scount) {
    ge__mem_scratch_free(&sc);
    return ge__mem_error(err, GE_ERR_NOMEM, "ge_mem_check_plan: out of memory for %zu intervals", n);
  }
  m = 0;
  for (i = 0; i < n; i++) {
    if (!iv[i].size) continue;
    v[m].size = iv[i].size; /* real size */
    v[m].align = 1;
    v[m].a = iv[i].first_use;
    v[m].b = iv[i].last_use;
    v[m].stream = iv[i].stream;
    v[m].id = (uint32_t)i;
    m++;
  }
  T = ge__mem_compress(v, m, kv, tmp);
  P = 1;
  while (P < (size_t)T) P *= 2;
  memset(tree, 0xff, 2 * P * sizeof *tree); /* every leaf empty (-1) */
  /* streams -> 0..nstreams-1 */
  if (streams_apart) {
    for (i = 0; i < m; i++) {
      kv[i].key = (uint64_t)((int64_t)v[i].stream - INT32_MIN);
      kv[i].idx = (uint32_t)i;
    }
    ge__mem_sort_kv(kv, tmp, m);
    for (i = 0; i < m; i++) {
      if (i > 0 && kv[i].key != kv[i - 1].key) nstreams++;
      srank[kv[i].idx] = (uint32_t)nstreams;
    }
  }
  nstreams++;
  if (nstreams == 1) memset(srank, 0, m * sizeof *srank);
  /* by offset (ties by index), and by end */
  for (i = 0; i < m; i++) {
    kv[i].key = offsets[v[i].id];
    kv[i].idx = (uint32_t)i;
  }
  ge__mem_sort_kv(kv, tmp, m);
  for (i = 0; i < m; i++) by_lo[i] = kv[i].idx;
  for (i = 0; i < m; i++) {
    kv[i].key = offsets[v[i].id] + v[i].size;
    kv[i].idx = (uint32_t)i;
  }
  ge__mem_sort_kv(kv, tmp, m);
  for (i = 0; i < m; i++) by_hi[i] = kv[i].idx;
  memset(scount, 0, m * sizeof *scount);

  for (p = 0; p < m; p++) {
    const ge__mem_iv *x = &v[by_lo[p]];
    uint64_t lo = offsets[x->id];
    uint32_t s = srank[by_lo[p]];
    /* out: every block ending at or before lo (all entered earlier) */
    while (r < m && offsets[v[by_hi[r]].id] + v[by_hi[r]].size <= lo) {
      ge__mem_tree_set(tree, P, (size_t)v[by_hi[r]].a, -1);
      scount[srank[by_hi[r]]]--;
      active--;
      r++;
    }
    if (active - (size_t)scount[s] > 0 || ge__mem_tree_max(tree, P, 0, (size_t)x->b) >= x->a) {
      /* a conflict: find the partner (the lowest index) by a plain scan */
      size_t q, partner = SIZE_MAX;
      const ge__mem_iv *y = NULL;
      for (q = 0; q < p; q++) {
        const ge__mem_iv *z = &v[by_lo[q]];
        int time = z->a <= x->b && x->a <= z->b;
        int other = srank[by_lo[q]] != s;
        if (offsets[z->id] + z->size <= lo || !(time || other)) continue;
        if (z->id < partner) {
          partner = z->id;
          y = z;
        }
      }
      if (y) {
        size_t a = y->id < x->id ? y->id : x->id, b = y->id < x->id ? x->id : y->id;
        const ge_mem_interval *A = &iv[a], *B = &iv[b];
        rc = ge__mem_error(err, GE_ERR_INVALID,
                           "intervals %zu (steps %d..%d, stream %d, bytes [%llu, %llu)) and %zu (steps %d..%d, "
                           "stream %d, bytes [%llu, %llu)) may be live together and share bytes",
                           a, (int)A->first_use, (int)A->last_use, (int)A->stream, (unsigned long long)offsets[a],
                           (unsigned long long)(offsets[a] + A->size), b, (int)B->first_use, (int)B->last_use,
                           (int)B->stream, (unsigned long long)offsets[b], (unsigned long long)(offsets[b] + B->size));
      } else {
        rc = ge__mem_error(err, GE_ERR_INTERNAL, "ge_mem_check_plan: lost the partner of interval %zu", (size_t)x->id);
      }
      break;
    }
    ge__mem_tree_set(tree, P, (size_t)x->a, x->b);
    scount[s]++;
    active++;
  }
  ge__mem_scratch_free(&sc);
  return rc;
}

/* ------------------------------------------------- caching allocator */

/* Classes: 0 is 64 bytes; then, for sizes in (2^k, 2^(k+1)], four classes
 * 2^(k-2) apart up to 1 MiB and eight 2^(k-3) apart above (less than 12.5%
 * waste, and few enough classes that varied large sizes find cached blocks;
 * exact sizes would let the cache grow without bound under dynamic shapes). */
#define GE__MEM_CLASS_MIN 64u
#define GE__MEM_FINE_FROM 20 /* k from which a power of two has eight classes */
#define GE__MEM_NUM_CLASSES (1 + 4 * (GE__MEM_FINE_FROM - 6) + 8 * (62 - GE__MEM_FINE_FROM))

/* Every block starts with a header: held blocks are on a doubly linked
 * list (so that freeing the allocator frees them too), cached ones on their
 * class's list (next only). The caller's bytes follow, 16-byte aligned when
 * the backing allocator's blocks are. */
#define GE__MEM_HDR 32
typedef struct ge__mem_block {
  struct ge__mem_block *prev, *next;
  size_t bytes; /* the class's bytes (the caller's part) */
} ge__mem_block;
typedef char ge__mem_hdr_fits[sizeof(ge__mem_block) <= GE__MEM_HDR ? 1 : -1];

struct ge_caching_allocator {
  ge_allocator backing;
  pthread_mutex_t lock;
  ge__mem_block *held; /* blocks given out and not released */
  ge__mem_block *free_list[GE__MEM_NUM_CLASSES];
  ge_caching_stats stats;
};

static int ge__mem_class_subs(int k) { return k < GE__MEM_FINE_FROM ? 4 : 8; }

/* The class of a request and the bytes it really gets; -1 when too big. */
static int ge__mem_size_class(size_t size, size_t *rounded) {
  uint64_t step, r, s = size; /* 64-bit: no overflow with a 32-bit size_t */
  int k = 6, idx = 1;
  *rounded = 0;
  if (s <= GE__MEM_CLASS_MIN) {
    *rounded = GE__MEM_CLASS_MIN;
    return 0;
  }
  if (s > ((uint64_t)1 << 62)) return -1;
  while (((uint64_t)2 << k) < s) { /* 2^k < size <= 2^(k+1) */
    idx += ge__mem_class_subs(k);
    k++;
  }
  step = ((uint64_t)1 << k) / (uint64_t)ge__mem_class_subs(k);
  r = (s + step - 1) & ~(step - 1);
  if (r > (uint64_t)SIZE_MAX - GE__MEM_HDR) return -1;
  *rounded = (size_t)r;
  return idx + (int)((r - ((uint64_t)1 << k)) / step) - 1;
}

GE_API ge_status ge_caching_allocator_create(const ge_allocator *backing, ge_caching_allocator **out, ge_error *err) {
  ge_allocator a = ge__mem_allocator_or_default(backing);
  ge_caching_allocator *c;
  if (!out) return ge__mem_error(err, GE_ERR_INVALID, "ge_caching_allocator_create: no output pointer");
  *out = NULL;
  c = (ge_caching_allocator *)a.alloc(a.user, sizeof *c);
  if (!c) return ge__mem_error(err, GE_ERR_NOMEM, "out of memory for the caching allocator");
  memset(c, 0, sizeof *c);
  c->backing = a;
  if (pthread_mutex_init(&c->lock, NULL) != 0) {
    a.free(a.user, c, sizeof *c);
    return ge__mem_error(err, GE_ERR_INTERNAL, "ge_caching_allocator_create: pthread_mutex_init failed");
  }
  *out = c;
  return GE_OK;
}

/* Returns every cached block to the backing allocator; lock held. */
static void ge__mem_caching_trim_locked(ge_caching_allocator *c) {
  int k;
  for (k = 0; k < GE__MEM_NUM_CLASSES; k++) {
    ge__mem_block *b = c->free_list[k], *next;
    for (; b; b = next) {
      next = b->next;
      c->stats.cached -= b->bytes;
      c->backing.free(c->backing.user, b, GE__MEM_HDR + b->bytes);
    }
    c->free_list[k] = NULL;
  }
}

GE_API void ge_caching_allocator_free(ge_caching_allocator *c) {
  ge_allocator a;
  ge__mem_block *b, *next;
  if (!c) return;
  pthread_mutex_lock(&c->lock);
  ge__mem_caching_trim_locked(c);
  for (b = c->held; b; b = next) { /* and what callers still hold */
    next = b->next;
    c->backing.free(c->backing.user, b, GE__MEM_HDR + b->bytes);
  }
  c->held = NULL;
  pthread_mutex_unlock(&c->lock);
  pthread_mutex_destroy(&c->lock);
  a = c->backing;
  a.free(a.user, c, sizeof *c);
}

GE_API void *ge_caching_alloc(ge_caching_allocator *c, size_t size) {
  size_t rounded = 0;
  int k = ge__mem_size_class(size, &rounded);
  ge__mem_block *b = NULL;
  if (!c || k < 0) return NULL;
  pthread_mutex_lock(&c->lock);
  if (c->free_list[k]) {
    b = c->free_list[k];
    c->free_list[k] = b->next;
    c->stats.cached -= rounded;
    c->stats.hits++;
  } else {
    b = (ge__mem_block *)c->backing.alloc(c->backing.user, GE__MEM_HDR + rounded);
    if (!b && c->stats.cached) { /* give the cache back and try once more */
      ge__mem_caching_trim_locked(c);
      b = (ge__mem_block *)c->backing.alloc(c->backing.user, GE__MEM_HDR + rounded);
    }
    if (b) b->bytes = rounded;
  }
  if (b) {
    b->prev = NULL;
    b->next = c->held;
    if (c->held) c->held->prev = b;
    c->held = b;
    c->stats.allocs++;
    c->stats.in_use += rounded;
    if (c->stats.in_use > c->stats.peak_in_use) c->stats.peak_in_use = c->stats.in_use;
  }
  pthread_mutex_unlock(&c->lock);
  return b ? (char *)b + GE__MEM_HDR : NULL;
}

GE_API void ge_caching_release(ge_caching_allocator *c, void *p, size_t size) {
  ge__mem_block *b;
  size_t rounded = 0;
  int k;
  (void)size; /* the header knows the block's class */
  if (!c || !p) return;
  b = (ge__mem_block *)(void *)((char *)p - GE__MEM_HDR);
  k = ge__mem_size_class(b->bytes, &rounded); /* a class size is its own class */
  pthread_mutex_lock(&c->lock);
  if (b->prev) b->prev->next = b->next;
  else c->held = b->next;
  if (b->next) b->next->prev = b->prev;
  b->next = c->free_list[k];
  c->free_list[k] = b;
  c->stats.in_use -= b->bytes;
  c->stats.cached += b->bytes;
  pthread_mutex_unlock(&c->lock);
}

GE_API void ge_caching_trim(ge_caching_allocator *c) {
  if (!c) return;
  pthread_mutex_lock(&c->lock);
  ge__mem_caching_trim_locked(c);
  pthread_mutex_unlock(&c->lock);
}

GE_API ge_caching_stats ge_caching_allocator_stats(ge_caching_allocator *c) {
  ge_caching_stats s;
  memset(&s, 0, sizeof s);
  if (!c) return s;
  pthread_mutex_lock(&c->lock);
  s = c->stats;
  pthread_mutex_unlock(&c->lock);
  return s;
}

static void *ge__mem_caching_alloc_fn(void *user, size_t size) {
  return ge_caching_alloc((ge_caching_allocator *)user, size);
}
static void ge__mem_caching_free_fn(void *user, void *p, size_t size) {
  ge_caching_release((ge_caching_allocator *)user, p, size);
}
static void *ge__mem_caching_realloc_fn(void *user, void *p, size_t old_size, size_t new_size) {
  ge_caching_allocator *c = (ge_caching_allocator *)user;
  size_t r_new = 0;
  void *q;
  if (!p) return ge_caching_alloc(c, new_size);
  if (ge__mem_size_class(new_size, &r_new) >= 0 &&
      r_new == ((ge__mem_block *)(void *)((char *)p - GE__MEM_HDR))->bytes)
    return p; /* the same class: the block fits already */
  q = ge_caching_alloc(c, new_size);
  if (!q) return NULL; /* p stays valid, as with realloc */
  memcpy(q, p, old_size < new_size ? old_size : new_size);
  ge_caching_release(c, p, old_size);
  return q;
}

GE_API ge_allocator ge_caching_allocator_as_allocator(ge_caching_allocator *c) {
  ge_allocator a;
  a.alloc = ge__mem_caching_alloc_fn;
  a.realloc = ge__mem_caching_realloc_fn;
  a.free = ge__mem_caching_free_fn;
  a.user = c;
  return a;
}

/* -------------------------------------------------------------- arena */

typedef struct ge__mem_chunk {
  struct ge__mem_chunk *next;
  size_t size; /* bytes of data after the header */
  size_t used;
  size_t pad;  /* keeps the data 16-byte aligned after the header */
} ge__mem_chunk;

struct ge_arena {
  ge_allocator backing;
  size_t chunk_size;
  ge__mem_chunk *first, *cur;
  uint64_t used;
};

static ge__mem_chunk *ge__mem_chunk_new(const ge_allocator *a, size_t size) {
  ge__mem_chunk *ch;
  if (size > SIZE_MAX - sizeof *ch) return NULL;
  ch = (ge__mem_chunk *)a->alloc(a->user, sizeof *ch + size);
  if (!ch) return NULL;
  ch->next = NULL;
  ch->size = size;
  ch->used = 0;
  ch->pad = 0;
  return ch;
}

GE_API ge_status ge_arena_create(const ge_allocator *backing, size_t chunk_size, ge_arena **out, ge_error *err) {
  ge_allocator a = ge__mem_allocator_or_default(backing);
  ge_arena *ar;
  if (!out) return ge__mem_error(err, GE_ERR_INVALID, "ge_arena_create: no output pointer");
  *out = NULL;
  if (!chunk_size) chunk_size = (size_t)64 << 10;
  ar = (ge_arena *)a.alloc(a.user, sizeof *ar);
  if (!ar) return ge__mem_error(err, GE_ERR_NOMEM, "out of memory for an arena");
  ar->backing = a;
  ar->chunk_size = chunk_size;
  ar->used = 0;
  ar->first = ar->cur = ge__mem_chunk_new(&a, chunk_size);
  if (!ar->first) {
    a.free(a.user, ar, sizeof *ar);
    return ge__mem_error(err, GE_ERR_NOMEM, "out of memory for an arena chunk of %zu bytes", chunk_size);
  }
  *out = ar;
  return GE_OK;
}

static void ge__mem_arena_free_chunks(ge_arena *a, ge__mem_chunk *ch) {
  while (ch) {
    ge__mem_chunk *next = ch->next;
    a->backing.free(a->backing.user, ch, sizeof *ch + ch->size);
    ch = next;
  }
}

GE_API void ge_arena_free(ge_arena *a) {
  ge_allocator b;
  if (!a) return;
  ge__mem_arena_free_chunks(a, a->first);
  b = a->backing;
  b.free(b.user, a, sizeof *a);
}

GE_API void *ge_arena_alloc(ge_arena *a, size_t size, size_t alignment) {
  ge__mem_chunk *ch;
  uintptr_t data, p;
  if (!a) return NULL;
  if (!alignment) alignment = 16;
  if (!ge__mem_is_pow2(alignment) || size > SIZE_MAX / 4 || alignment > SIZE_MAX / 4) return NULL;
  ch = a->cur;
  data = (uintptr_t)(ch + 1);
  p = (data + ch->used + alignment - 1) & ~(uintptr_t)(alignment - 1);
  if (p - data > ch->size || size > ch->size - (p - data)) {
    /* a new chunk: the usual size, or one of its own for a big request */
    size_t want = size + alignment - 1 > a->chunk_size ? size + alignment - 1 : a->chunk_size;
    ge__mem_chunk *nc = ge__mem_chunk_new(&a->backing, want);
    if (!nc) return NULL;
    ch->next = nc; /* cur is always the last chunk */
    a->cur = ch = nc;
    data = (uintptr_t)(ch + 1);
    p = (data + alignment - 1) & ~(uintptr_t)(alignment - 1);
  }
  a->used += (uint64_t)(p + size - (data + ch->used));
  ch->used = (size_t)(p + size - data);
  return (void *)p;
}

GE_API void ge_arena_reset(ge_arena *a) {
  if (!a) return;
  ge__mem_arena_free_chunks(a, a->first->next);
  a->first->next = NULL;
  a->first->used = 0;
  a->cur = a->first;
  a->used = 0;
}

GE_API uint64_t ge_arena_used(const ge_arena *a) { return a ? a->used : 0; }

#if defined(GE_GRAPH_H)
/* ----------------------------------------------------- graph adapter */

/* The graph adapter turns the root level of a graph into planned tensors.
 *
 *   tensors   every output of every root node except NetOutput (whose
 *             output i names graph output i: its offset is written as the
 *             offset of its input i), in execution order, then one
 *             workspace per node that asks for one (output -1). Size is
 *             numel x dtype size; a shape that is not static, an undefined
 *             dtype (GE_ERR_SHAPE) and string tensors (GE_ERR_UNSUPPORTED:
 *             their characters have no static size) are errors naming the
 *             node and output.
 *   segments  Data -> INPUT, Const -> WEIGHT, Variable -> VARIABLE (each laid
 *             back to back, aligned, never reused, offset relative to the
 *             segment, ge_tensor_desc.offset left at -1); a tensor read by
 *             NetOutput -> OUTPUT (back to back in NetOutput input order,
 *             never reused); outputs of nodes with GE_MEM_ATTR_FIXED ->
 *             FIXED (planned by the core among themselves); everything
 *             else -> FEATURE_MAP (planned by the core). Workspaces are
 *             planned inside the feature-map plan (they share its bytes;
 *             segment_size[WORKSPACE] is the sum of their aligned sizes, for
 *             information only: it is part of segment_size[FEATURE_MAP]).
 *             The model block is FEATURE_MAP, then FIXED, then OUTPUT, each
 *             region a multiple of the alignment; tensors of those segments
 *             (and workspaces) have block-relative offsets, in the plan and
 *             in ge_tensor_desc.offset.
 *   aliases   a tensor that shares another's bytes has alias_of = the tensor
 *             that owns them (the root of the chain) and offset = the root's
 *             offset + its position inside the root; its segment is the
 *             root's. Three kinds:
 *             - views: output 0 of Reshape, Squeeze, Unsqueeze, Flatten,
 *               Identity (default domain) is input 0's bytes, unless it is a
 *               graph output, its node is fixed, or the sizes differ (then
 *               it gets bytes of its own and the executor copies). A view of
 *               a Data/Const/Variable lives in that segment (offset -1 in
 *               the graph: the executor aliases at run time). PhonySplit
 *               outputs are consecutive slices of the input when the slices
 *               are contiguous (every dim before the axis is 1) and sizes
 *               add up;
 *             - continuous blocks: the inputs of a PhonyConcat or Concat
 *               are laid back to back inside the concat output (Concat's
 *               kernel then finds each input in place and copies nothing:
 *               a fire module's or an Inception block's branches write
 *               straight into the block's output) when every input is a
 *               tensor of its own (not Data/Const/Variable, not a view or
 *               slice, not a graph output, not already in another block,
 *               read once by this concat, same segment as the output, or
 *               FEATURE_MAP for an OUTPUT concat), the sizes add up and the
 *               layout is contiguous along the axis; otherwise the concat
 *               keeps bytes of its own (the executor copies);
 *             - in place: output 0 of an element-wise op takes the bytes of
 *               one of its inputs when that input is in the feature map,
 *               has the same size and dtype, is read once by the node, and
 *               every tensor sharing its bytes has no use after this node
 *               (with a stream plan: every such use happens before it). Off
 *               with disable_inplace or disable_reuse.
 *             The bytes of a root are held from the first producer to the
 *             last use of any tensor sharing them.
 *   lifetimes steps are positions in the order. A tensor owning bytes
 *             (alias_of -1) reports the interval they are held (extended
 *             for streams; graph outputs to the last step); an alias its
 *             own producer step and last use. stream is the producer's
 *             node->stream with happens_before, else 0.
 *   streams   with happens_before, a held interval is extended so that the
 *             core's step test is safe across streams: for each stream s,
 *             every node of s before the first node that all uses happen
 *             before is unsafe (it may run while the bytes are in use); the
 *             last_use becomes the latest step of an unsafe node. A later
 *             tensor is then produced by a node every use happens before.
 *             Every node needs a stream (>= 0); the order must list each
 *             stream's nodes in the order the stream runs them, and
 *             happens_before must be transitive and hold from a node to the
 *             later nodes of its stream (as ge_stream_happens_before does).
 *   disable_reuse  the core's NO_REUSE strategy for FEATURE_MAP and FIXED,
 *             no in-place; views, slices and continuous blocks still alias
 *             (they are op semantics, not reuse). */

#define GE__MG_SCRATCH 48
#define GE__MG_INPLACE_SCAN 256 /* happens-before calls one in-place check may make */

enum { GE__MG_OUT = 1, GE__MG_CLAIMED = 2, GE__MG_SEEN = 4 };

static const char *const ge__mg_view_ops[] = {"Flatten", "Identity", "Reshape", "Squeeze", "Unsqueeze"};
/* out[i] depends on input 0's element i only (other inputs are scalars or
 * broadcast parameters): input 0 may be overwritten. */
static const char *const ge__mg_inplace_unary[] = {
    "Abs",   "Acos",      "Acosh",       "Asin",      "Asinh",     "Atan",       "Atanh",    "Ceil",
    "Celu",  "Clip",      "Cos",         "Cosh",      "Elu",       "Erf",        "Exp",      "Floor",
    "HardSigmoid",        "HardSwish",   "LeakyRelu", "Log",       "Neg",        "Not",      "PRelu",
    "Reciprocal",         "Relu",        "Round",     "Selu",      "Sigmoid",    "Sign",     "Sin",
    "Sinh",  "Softplus",  "Softsign",    "Sqrt",      "Tan",       "Tanh",       "ThresholdedRelu"};
/* out[i] from element i of every input (with broadcasting): any input with
 * the output's size and dtype may be overwritten. */
static const char *const ge__mg_inplace_nary[] = {"Add", "And", "Div", "Max", "Mean", "Min",
                                                  "Mul", "Or",  "Pow", "Sub", "Sum",  "Xor"};

typedef struct ge__mg {
  ge_graph *g;
  const ge_mem_graph_desc *d;
  ge_allocator a;
  ge_error *err;
  ge_status fail; /* why the last ge__mg_new failed */
  void *blk[GE__MG_SCRATCH];
  size_t blk_size[GE__MG_SCRATCH];
  int nblk;
  uint32_t n, bound, nout, nt, nstreams;
  uint64_t align;
  ge_node_id netout;
  ge_node_id *order;   /* n */
  int32_t *step;       /* per node id, -1: not at this level */
  int32_t *first_t;    /* per node id: its output 0's tensor, -1: none */
  int32_t *sid;        /* per node id: dense stream index (hb only) */
  uint32_t *s_start;   /* nstreams + 1 */
  ge_node_id *s_nodes; /* nodes of each stream in order */
  uint64_t *ws;        /* per order index: workspace bytes */
  ge_mem_tensor *t;    /* nt, becomes the plan's */
  uint8_t *nat;        /* natural segment */
  uint8_t *fl;
  int32_t *parent;
  uint64_t *delta;
  int32_t *rlast;      /* own last use */
  int32_t *next, *tail, *gfirst, *glast; /* groups sharing a root's bytes */
  /* with a stream plan: every use of the members of r up to covered[r]
   * (-1: none) happens before the producer of the member after it */
  int32_t *covered;
  uint32_t *c_start;   /* consumers of output tensors, CSR */
  ge_node_id *c_node;
  int32_t *best;       /* per stream: latest use (scratch), -1 */
  int32_t *touched;
} ge__mg;

static void *ge__mg_new(ge__mg *c, size_t count, size_t elem) {
  void *p;
  size_t bytes;
  if (count && elem > ((size_t)-1) / count) {
    c->fail = ge_error_set(c->err, GE_ERR_NOMEM, "memory plan: scratch size overflows");
    return NULL;
  }
  bytes = count * elem;
  if (!bytes) bytes = 1;
  if (c->nblk == GE__MG_SCRATCH) {
    c->fail = ge_error_set(c->err, GE_ERR_INTERNAL, "memory plan: too many scratch blocks");
    return NULL;
  }
  p = c->a.alloc(c->a.user, bytes);
  if (!p) {
    c->fail = ge_error_set(c->err, GE_ERR_NOMEM, "memory plan: out of memory (%lu bytes of scratch)",
                           (unsigned long)bytes);
    return NULL;
  }
  memset(p, 0, bytes);
  c->blk[c->nblk] = p;
  c->blk_size[c->nblk] = bytes;
  c->nblk++;
  return p;
}

/* Frees every scratch block except `keep`. */
static void ge__mg_release(ge__mg *c, const void *keep) {
  int i;
  for (i = 0; i < c->nblk; i++)
    if (c->blk[i] != keep) c->a.free(c->a.user, c->blk[i], c->blk_size[i]);
  c->nblk = 0;
}

static int ge__mg_is(const ge_node *n, const char *op) {
  return strcmp(n->op, op) == 0 && (!n->domain || !*n->domain);
}

static int ge__mg_in(const ge_node *n, const char *const *names, size_t count) {
  return (!n->domain || !*n->domain || strcmp(n->domain, "ai.onnx") == 0) && ge_op_in_sorted(n->op, names, count);
}

/* x rounded up to a (a power of two); 0 when it overflows. */
static int ge__mg_align_up(uint64_t x, uint64_t a, uint64_t *out) {
  if (x > UINT64_MAX - (a - 1)) return 0;
  *out = (x + a - 1) & ~(a - 1);
  return 1;
}

static int32_t ge__mg_tensor_of(const ge__mg *c, ge_edge e) {
  if (e.node == GE_NONE || e.node >= c->bound || c->first_t[e.node] < 0 || e.index < 0) return -1;
  return c->first_t[e.node] + e.index;
}

/* Root of tensor x and x's byte position inside it; compresses the path. */
static int32_t ge__mg_find(ge__mg *c, int32_t x, uint64_t *pos) {
  int32_t r = x, cur = x;
  uint64_t total = 0, rem;
  while (c->parent[r] >= 0) {
    total += c->delta[r];
    r = c->parent[r];
  }
  rem = total;
  while (c->parent[cur] >= 0) {
    int32_t nx = c->parent[cur];
    uint64_t dc = c->delta[cur];
    c->parent[cur] = r;
    c->delta[cur] = rem;
    rem -= dc;
    cur = nx;
  }
  if (pos) *pos = total;
  return r;
}

static int ge__mg_hb(const ge__mg *c, ge_node_id a, ge_node_id b) {
  return c->d->happens_before(c->d->order_user, a, b) != 0;
}

/* Bytes of output k of n, or an error naming them. */
static ge_status ge__mg_size(ge__mg *c, const ge_node *n, uint32_t k, uint64_t *size) {
  const ge_tensor_desc *td = &n->outputs[k];
  size_t es;
  int64_t numel;
  char buf[160];
  if (td->dtype == GE_DTYPE_STRING)
    return ge_error_set(c->err, GE_ERR_UNSUPPORTED,
                        "node '%s' (%s) output %u has dtype string, which the memory planner does not support "
                        "(its characters have no static size)",
                        n->name, n->op, (unsigned)k);
  es = ge_dtype_size(td->dtype);
  if (!es)
    return ge_error_set(c->err, GE_ERR_SHAPE,
                        "node '%s' (%s) output %u has no dtype (%s): infer shapes before planning memory", n->name,
                        n->op, (unsigned)k, ge_dtype_name(td->dtype));
  if (!ge_shape_is_static(&td->shape))
    return ge_error_set(c->err, GE_ERR_SHAPE,
                        "node '%s' (%s) output %u has shape %s, which is not static: memory planning needs static "
                        "shapes",
                        n->name, n->op, (unsigned)k, ge_shape_str(&td->shape, buf, sizeof buf));
  if (!ge_dims_numel_checked(td->shape.dims, td->shape.rank, &numel) || !ge_size_mul_checked((uint64_t)numel, es, size))
    return ge_error_set(c->err, GE_ERR_SHAPE, "node '%s' (%s) output %u: shape %s has an element count or byte size "
                        "that overflows", n->name, n->op, (unsigned)k, ge_shape_str(&td->shape, buf, sizeof buf));
  return GE_OK;
}

/* 1 when the dims of shape s before axis (normalized) multiply to 1: slices
 * along axis are then contiguous byte ranges. */
static int ge__mg_leading_one(const ge_shape *s, int64_t axis) {
  int64_t i;
  if (s->rank < 0) return 0;
  if (axis < 0) axis += s->rank;
  if (axis < 0 || (s->rank > 0 && axis >= s->rank) || (s->rank == 0 && axis != 0)) return 0;
  for (i = 0; i < axis; i++)
    if (s->dims[i] != 1) return 0;
  return 1;
}

/* 1. the order, steps, and that every data edge goes forward in it. */
static ge_status ge__mg_order(ge__mg *c) {
  uint32_t i, k;
  ge_status st;
  if (!(c->order = (ge_node_id *)ge__mg_new(c, c->n, sizeof(ge_node_id)))) return c->fail;
  if (!(c->step = (int32_t *)ge__mg_new(c, c->bound, sizeof(int32_t)))) return c->fail;
  for (i = 0; i < c->bound; i++) c->step[i] = -1;
  if (c->d->order) {
    for (i = 0; i < c->n; i++) {
      ge_node_id id = c->d->order[i];
      const ge_node *x = ge_graph_node(c->g, id);
      if (!x)
        return ge_error_set(c->err, GE_ERR_INVALID, "memory plan: order[%u] = %u is not a node of graph '%s'",
                            (unsigned)i, (unsigned)id, ge_graph_name(c->g));
      if (c->step[id] >= 0)
        return ge_error_set(c->err, GE_ERR_INVALID, "memory plan: the order lists node '%s' twice", x->name);
      c->order[i] = id;
      c->step[id] = (int32_t)i;
    }
  } else {
    if ((st = ge_graph_topo_sort(c->g, GE_TOPO_BFS, c->order, c->err)) != GE_OK) return st;
    for (i = 0; i < c->n; i++) c->step[c->order[i]] = (int32_t)i;
  }
  for (i = 0; i < c->n; i++) {
    const ge_node *x = ge_graph_node(c->g, c->order[i]);
    for (k = 0; k < x->num_inputs; k++) {
      ge_edge e = x->inputs[k];
      const ge_node *p;
      if (e.node == GE_NONE) continue;
      p = ge_graph_node(c->g, e.node);
      if (!p || e.index < 0 || (uint32_t)e.index >= p->num_outputs)
        return ge_error_set(c->err, GE_ERR_INVALID, "memory plan: node '%s' input %u reads a missing tensor",
                            x->name, (unsigned)k);
      if (c->step[e.node] >= c->step[x->id])
        return ge_error_set(c->err, GE_ERR_INVALID,
                            "memory plan: the order is not topological: node '%s' reads '%s', which runs after it",
                            x->name, p->name);
    }
  }
  return GE_OK;
}

/* 2. tensors: sizes, natural segments, consumers, own lifetimes. */
static ge_status ge__mg_tensors(ge__mg *c) {
  uint32_t i, k, nws = 0, ti, edges = 0;
  ge_status st;
  int32_t end = (int32_t)c->n - 1;
  c->netout = ge_graph_output_node(c->g);
  if (!(c->first_t = (int32_t *)ge__mg_new(c, c->bound, sizeof(int32_t)))) return c->fail;
  if (!(c->ws = (uint64_t *)ge__mg_new(c, c->n, sizeof(uint64_t)))) return c->fail;
  for (i = 0; i < c->bound; i++) c->first_t[i] = -1;
  c->nout = 0;
  for (i = 0; i < c->n; i++) {
    const ge_node *x = ge_graph_node(c->g, c->order[i]);
    if (x->id != c->netout) {
      if (x->num_outputs > (uint32_t)INT32_MAX - c->nout)
        return ge_error_set(c->err, GE_ERR_INVALID, "memory plan: too many tensors");
      c->first_t[x->id] = (int32_t)c->nout;
      c->nout += x->num_outputs;
    }
    edges += x->num_inputs;
    if (c->d->workspace_size) {
      c->ws[i] = c->d->workspace_size(c->d->workspace_user, c->g, x);
      if (c->ws[i]) nws++;
    }
  }
  if (nws > (uint32_t)INT32_MAX - c->nout) return ge_error_set(c->err, GE_ERR_INVALID, "memory plan: too many tensors");
  c->nt = c->nout + nws;
  if (!(c->t = (ge_mem_tensor *)ge__mg_new(c, c->nt, sizeof(ge_mem_tensor))) ||
      !(c->nat = (uint8_t *)ge__mg_new(c, c->nt, 1)) || !(c->fl = (uint8_t *)ge__mg_new(c, c->nt, 1)) ||
      !(c->parent = (int32_t *)ge__mg_new(c, c->nt, sizeof(int32_t))) ||
      !(c->delta = (uint64_t *)ge__mg_new(c, c->nt, sizeof(uint64_t))) ||
      !(c->rlast = (int32_t *)ge__mg_new(c, c->nt, sizeof(int32_t))) ||
      !(c->next = (int32_t *)ge__mg_new(c, c->nt, sizeof(int32_t))) ||
      !(c->tail = (int32_t *)ge__mg_new(c, c->nt, sizeof(int32_t))) ||
      !(c->gfirst = (int32_t *)ge__mg_new(c, c->nt, sizeof(int32_t))) ||
      !(c->glast = (int32_t *)ge__mg_new(c, c->nt, sizeof(int32_t))) ||
      !(c->c_start = (uint32_t *)ge__mg_new(c, (size_t)c->nout + 1, sizeof(uint32_t))) ||
      !(c->c_node = (ge_node_id *)ge__mg_new(c, edges, sizeof(ge_node_id))))
    return c->fail;
  ti = 0;
  for (i = 0; i < c->n; i++) {
    const ge_node *x = ge_graph_node(c->g, c->order[i]);
    ge_mem_segment seg = GE_MEM_SEG_FEATURE_MAP;
    if (x->id == c->netout) continue;
    if (ge__mg_is(x, "Data")) seg = GE_MEM_SEG_INPUT;
    else if (ge__mg_is(x, "Const")) seg = GE_MEM_SEG_WEIGHT;
    else if (ge__mg_is(x, "Variable")) seg = GE_MEM_SEG_VARIABLE;
    else if (ge_node_attr_int(x, GE_MEM_ATTR_FIXED, 0)) seg = GE_MEM_SEG_FIXED;
    for (k = 0; k < x->num_outputs; k++, ti++) {
      ge_mem_tensor *t = &c->t[ti];
      if ((st = ge__mg_size(c, x, k, &t->size)) != GE_OK) return st;
      t->node = x->id;
      t->output = (int32_t)k;
      t->first_use = t->last_use = (int32_t)i;
      t->stream = c->d->happens_before ? x->stream : 0;
      t->alias_of = -1;
      c->nat[ti] = (uint8_t)seg;
      c->rlast[ti] = (int32_t)i;
      c->parent[ti] = -1;
    }
  }
  for (i = 0; i < c->n; i++) /* workspaces */
    if (c->ws[i]) {
      ge_mem_tensor *t = &c->t[ti];
      const ge_node *x = ge_graph_node(c->g, c->order[i]);
      t->node = x->id;
      t->output = -1;
      t->size = c->ws[i];
      t->first_use = t->last_use = (int32_t)i;
      t->stream = c->d->happens_before ? x->stream : 0;
      t->alias_of = -1;
      c->nat[ti] = GE_MEM_SEG_WORKSPACE;
      c->rlast[ti] = (int32_t)i;
      c->parent[ti] = -1;
      ti++;
    }
  /* consumers (CSR), own last uses, graph outputs */
  for (i = 0; i < c->n; i++) {
    const ge_node *x = ge_graph_node(c->g, c->order[i]);
    for (k = 0; k < x->num_inputs; k++) {
      int32_t s = ge__mg_tensor_of(c, x->inputs[k]);
      if (s >= 0) c->c_start[s + 1]++;
    }
  }
  for (i = 0; i < c->nout; i++) c->c_start[i + 1] += c->c_start[i];
  {
    uint32_t *fill = c->c_start; /* reuse: fill positions then shift back */
    for (i = 0; i < c->n; i++) {
      const ge_node *x = ge_graph_node(c->g, c->order[i]);
      for (k = 0; k < x->num_inputs; k++) {
        int32_t s = ge__mg_tensor_of(c, x->inputs[k]);
        if (s < 0) continue;
        c->c_node[fill[s]++] = x->id;
        if (x->id == c->netout) {
          c->fl[s] |= GE__MG_OUT;
          c->rlast[s] = end;
        } else if (c->rlast[s] < (int32_t)i) {
          c->rlast[s] = (int32_t)i;
        }
      }
    }
    for (i = c->nout; i > 0; i--) fill[i] = fill[i - 1];
    fill[0] = 0;
  }
  for (i = 0; i < c->nout; i++)
    if ((c->fl[i] & GE__MG_OUT) && c->nat[i] != GE_MEM_SEG_INPUT && c->nat[i] != GE_MEM_SEG_WEIGHT &&
        c->nat[i] != GE_MEM_SEG_VARIABLE)
      c->nat[i] = GE_MEM_SEG_OUTPUT;
  return GE_OK;
}

/* May tensor s (an output) become an alias of something? */
static int ge__mg_free_standing(const ge__mg *c, int32_t s) {
  return s >= 0 && c->parent[s] < 0 && !(c->fl[s] & (GE__MG_OUT | GE__MG_CLAIMED)) && c->nat[s] == GE_MEM_SEG_FEATURE_MAP;
}

/* 3. views and PhonySplit slices. */
static void ge__mg_views(ge__mg *c) {
  uint32_t i, k;
  for (i = 0; i < c->n; i++) {
    const ge_node *x = ge_graph_node(c->g, c->order[i]);
    int32_t src, o;
    if (x->num_inputs < 1 || x->num_outputs < 1 || (src = ge__mg_tensor_of(c, x->inputs[0])) < 0) continue;
    o = c->first_t[x->id];
    if (o < 0) continue;
    if (ge__mg_in(x, ge__mg_view_ops, sizeof ge__mg_view_ops / sizeof *ge__mg_view_ops)) {
      if (ge__mg_free_standing(c, o) && c->t[o].size == c->t[src].size) {
        c->parent[o] = src;
        c->delta[o] = 0;
      }
    } else if (ge__mg_is(x, "PhonySplit")) {
      uint64_t sum = 0, pos = 0;
      const ge_tensor_desc *in = ge_node_input_desc(c->g, x, 0);
      for (k = 0; k < x->num_outputs; k++) sum += c->t[o + (int32_t)k].size;
      if (!in || sum != c->t[src].size || !ge__mg_leading_one(&in->shape, ge_node_attr_int(x, "axis", 0))) continue;
      for (k = 0; k < x->num_outputs; k++) {
        int32_t s = o + (int32_t)k;
        if (ge__mg_free_standing(c, s)) {
          c->parent[s] = src;
          c->delta[s] = pos;
        }
        pos += c->t[s].size;
      }
    }
  }
}

/* 4. PhonyConcat inputs laid back to back inside the output. */
static void ge__mg_continuous(ge__mg *c) {
  uint32_t i, k, j;
  for (i = 0; i < c->n; i++) {
    const ge_node *x = ge_graph_node(c->g, c->order[i]);
    int32_t o;
    uint64_t sum = 0, pos = 0;
    int ok = 1;
    if (!(ge__mg_is(x, "PhonyConcat") || ge__mg_is(x, "Concat")) || x->num_inputs < 1 || x->num_outputs < 1) continue;
    o = c->first_t[x->id];
    if (o < 0 || c->parent[o] >= 0 ||
        (c->nat[o] != GE_MEM_SEG_FEATURE_MAP && c->nat[o] != GE_MEM_SEG_FIXED && c->nat[o] != GE_MEM_SEG_OUTPUT) ||
        !ge__mg_leading_one(&x->outputs[0].shape, ge_node_attr_int(x, "axis", 0)))
      continue;
    for (k = 0; k < x->num_inputs && ok; k++) {
      int32_t s = ge__mg_tensor_of(c, x->inputs[k]);
      if (s < 0 || s == o || c->parent[s] >= 0 || (c->fl[s] & (GE__MG_OUT | GE__MG_CLAIMED | GE__MG_SEEN))) ok = 0;
      else if (c->nat[s] != c->nat[o] && !(c->nat[o] == GE_MEM_SEG_OUTPUT && c->nat[s] == GE_MEM_SEG_FEATURE_MAP)) ok = 0;
      else {
        c->fl[s] |= GE__MG_SEEN; /* read twice by this concat: not continuous */
        sum += c->t[s].size;
      }
    }
    for (j = 0; j < x->num_inputs; j++) {
      int32_t s = ge__mg_tensor_of(c, x->inputs[j]);
      if (s >= 0) c->fl[s] &= (uint8_t)~GE__MG_SEEN;
    }
    if (!ok || sum != c->t[o].size) continue;
    for (k = 0; k < x->num_inputs; k++) {
      int32_t s = ge__mg_tensor_of(c, x->inputs[k]);
      c->parent[s] = o;
      c->delta[s] = pos;
      c->fl[s] |= GE__MG_CLAIMED;
      pos += c->t[s].size;
    }
  }
}

/* 5. groups: every tensor sharing a root's bytes, linked from the root. */
static void ge__mg_groups(ge__mg *c) {
  uint32_t i;
  for (i = 0; i < c->nt; i++) {
    c->next[i] = -1;
    c->tail[i] = (int32_t)i;
    c->gfirst[i] = c->t[i].first_use;
    c->glast[i] = c->rlast[i];
  }
  for (i = 0; i < c->nt; i++) {
    int32_t r = ge__mg_find(c, (int32_t)i, NULL);
    if (r == (int32_t)i) continue;
    c->next[c->tail[r]] = (int32_t)i;
    c->tail[r] = (int32_t)i;
    if (c->gfirst[i] < c->gfirst[r]) c->gfirst[r] = c->gfirst[i];
    if (c->glast[i] > c->glast[r]) c->glast[r] = c->glast[i];
  }
}

/* With a stream plan: every use of r's group other than x happens before x.
 * The members up to covered[r] need no call: their uses happen before the
 * producer of the next member (the node of the last in-place merge into r),
 * which is checked. */
static int ge__mg_inplace_ordered(const ge__mg *c, int32_t r, ge_node_id x) {
  int budget = GE__MG_INPLACE_SCAN;
  int32_t m = c->covered[r] >= 0 ? c->next[c->covered[r]] : r;
  uint32_t u;
  for (; m >= 0; m = c->next[m]) {
    if (c->t[m].node != x) {
      if (--budget < 0 || !ge__mg_hb(c, c->t[m].node, x)) return 0;
    }
    if ((uint32_t)m >= c->nout) continue;
    for (u = c->c_start[m]; u < c->c_start[m + 1]; u++)
      if (c->c_node[u] != x && (--budget < 0 || !ge__mg_hb(c, c->c_node[u], x))) return 0;
  }
  return 1;
}

/* 6. in place: output 0 of an element-wise op over a dying input. */
static ge_status ge__mg_inplace(ge__mg *c) {
  uint32_t i, k, j;
  if (c->d->happens_before) {
    if (!(c->covered = (int32_t *)ge__mg_new(c, c->nt, sizeof(int32_t)))) return c->fail;
    for (i = 0; i < c->nt; i++) c->covered[i] = -1;
  }
  for (i = 0; i < c->n; i++) {
    const ge_node *x = ge_graph_node(c->g, c->order[i]);
    int unary, nary;
    int32_t y;
    uint32_t cand;
    if (x->num_outputs < 1 || x->num_inputs < 1) continue;
    unary = ge__mg_in(x, ge__mg_inplace_unary, sizeof ge__mg_inplace_unary / sizeof *ge__mg_inplace_unary);
    nary = !unary && ge__mg_in(x, ge__mg_inplace_nary, sizeof ge__mg_inplace_nary / sizeof *ge__mg_inplace_nary);
    if (!unary && !nary) continue;
    y = c->first_t[x->id];
    if (!ge__mg_free_standing(c, y) || !c->t[y].size) continue;
    cand = unary ? 1 : x->num_inputs;
    for (k = 0; k < cand; k++) {
      int32_t s = ge__mg_tensor_of(c, x->inputs[k]), r;
      int ok = 1;
      if (s < 0 || c->t[s].size != c->t[y].size ||
          ge_graph_node(c->g, c->t[s].node)->outputs[c->t[s].output].dtype != x->outputs[0].dtype)
        continue;
      r = ge__mg_find(c, s, NULL);
      if (c->nat[r] != GE_MEM_SEG_FEATURE_MAP || (c->fl[r] & GE__MG_OUT) || c->glast[r] != (int32_t)i) continue;
      for (j = 0; j < x->num_inputs && ok; j++) {
        int32_t o = ge__mg_tensor_of(c, x->inputs[j]);
        if (j != k && o >= 0 && ge__mg_find(c, o, NULL) == r) ok = 0;
      }
      if (!ok || (c->d->happens_before && !ge__mg_inplace_ordered(c, r, x->id))) continue;
      c->parent[y] = s;
      c->delta[y] = 0;
      if (c->d->happens_before) c->covered[r] = c->tail[r];
      c->next[c->tail[r]] = y;
      c->tail[r] = c->tail[y];
      if (c->gfirst[y] < c->gfirst[r]) c->gfirst[r] = c->gfirst[y];
      if (c->glast[y] > c->glast[r]) c->glast[r] = c->glast[y];
      break;
    }
  }
  return GE_OK;
}

/* Dense stream indices and each stream's nodes in order. */
static ge_status ge__mg_streams(ge__mg *c) {
  uint32_t i, s;
  int32_t *vals;
  if (!(c->sid = (int32_t *)ge__mg_new(c, c->bound, sizeof(int32_t))) ||
      !(vals = (int32_t *)ge__mg_new(c, c->n, sizeof(int32_t))) ||
      !(c->s_nodes = (ge_node_id *)ge__mg_new(c, c->n, sizeof(ge_node_id))))
    return c->fail;
  /* distinct values: insertion into a sorted array would be quadratic; sort
   * a copy instead (shell sort, no recursion) */
  for (i = 0; i < c->n; i++) {
    const ge_node *x = ge_graph_node(c->g, c->order[i]);
    if (x->stream < 0) /* nodes of no stream are not ordered among themselves */
      return ge_error_set(c->err, GE_ERR_INVALID,
                          "memory plan: node '%s' has no stream (%d), but a happens-before oracle was given: "
                          "assign every node a stream (ge_stream_allocate does)",
                          x->name, (int)x->stream);
    vals[i] = x->stream;
  }
  {
    uint32_t gap, a, b;
    for (gap = c->n / 2; gap > 0; gap /= 2)
      for (a = gap; a < c->n; a++) {
        int32_t v = vals[a];
        for (b = a; b >= gap && vals[b - gap] > v; b -= gap) vals[b] = vals[b - gap];
        vals[b] = v;
      }
  }
  c->nstreams = 0;
  for (i = 0; i < c->n; i++)
    if (!i || vals[i] != vals[i - 1]) vals[c->nstreams++] = vals[i];
  if (!(c->s_start = (uint32_t *)ge__mg_new(c, (size_t)c->nstreams + 1, sizeof(uint32_t))) ||
      !(c->best = (int32_t *)ge__mg_new(c, c->nstreams, sizeof(int32_t))) ||
      !(c->touched = (int32_t *)ge__mg_new(c, c->nstreams, sizeof(int32_t))))
    return c->fail;
  for (i = 0; i < c->n; i++) {
    int32_t v = ge_graph_node(c->g, c->order[i])->stream;
    uint32_t lo = 0, hi = c->nstreams;
    while (lo < hi) {
      uint32_t mid = lo + (hi - lo) / 2;
      if (vals[mid] < v) lo = mid + 1;
      else hi = mid;
    }
    c->sid[c->order[i]] = (int32_t)lo;
    c->s_start[lo + 1]++;
  }
  for (s = 0; s < c->nstreams; s++) {
    c->s_start[s + 1] += c->s_start[s];
    c->best[s] = -1;
  }
  {
    uint32_t *fill = c->s_start;
    for (i = 0; i < c->n; i++) c->s_nodes[fill[c->sid[c->order[i]]]++] = c->order[i];
    for (s = c->nstreams; s > 0; s--) fill[s] = fill[s - 1];
    fill[0] = 0;
  }
  return GE_OK;
}

/* Do all the (per-stream latest) uses happen before x? */
static int ge__mg_all_before(const ge__mg *c, uint32_t nu, ge_node_id x) {
  uint32_t k;
  for (k = 0; k < nu; k++)
    if (!ge__mg_hb(c, c->order[c->best[c->touched[k]]], x)) return 0;
  return 1;
}

static void ge__mg_note_use(ge__mg *c, ge_node_id u, uint32_t *nu) {
  int32_t s = c->sid[u], st = c->step[u];
  if (c->best[s] < 0) {
    c->touched[(*nu)++] = s;
    c->best[s] = st;
  } else if (c->best[s] < st) {
    c->best[s] = st;
  }
}

/* 7. cross-stream safety: the extended last use of root r's bytes. */
static int32_t ge__mg_extend(ge__mg *c, int32_t r) {
  int32_t ext = c->glast[r], m;
  uint32_t nu = 0, s, u;
  for (m = r; m >= 0; m = c->next[m]) {
    ge__mg_note_use(c, c->t[m].node, &nu);
    if ((uint32_t)m < c->nout)
      for (u = c->c_start[m]; u < c->c_start[m + 1]; u++) ge__mg_note_use(c, c->c_node[u], &nu);
  }
  for (s = 0; s < c->nstreams; s++) {
    uint32_t lo = c->s_start[s], hi = c->s_start[s + 1], q;
    if (lo == hi || c->step[c->s_nodes[hi - 1]] <= ext) continue;
    /* only nodes after ext can raise it: q = first of them */
    {
      uint32_t a = lo, b = hi;
      while (a < b) {
        uint32_t mid = a + (b - a) / 2;
        if (c->step[c->s_nodes[mid]] <= ext) a = mid + 1;
        else b = mid;
      }
      q = a;
    }
    if (ge__mg_all_before(c, nu, c->s_nodes[q])) continue;
    {
      uint32_t a = q + 1, b = hi; /* first safe node in (q, hi], hi: none */
      while (a < b) {
        uint32_t mid = a + (b - a) / 2;
        if (ge__mg_all_before(c, nu, c->s_nodes[mid])) b = mid;
        else a = mid + 1;
      }
      ext = c->step[c->s_nodes[a - 1]];
    }
  }
  for (u = 0; u < nu; u++) c->best[c->touched[u]] = -1;
  return ext;
}

/* 8. one core plan for the roots of segment seg (FEATURE_MAP with the
 * workspaces); offsets relative to the region. */
static ge_status ge__mg_plan_region(ge__mg *c, ge_mem_segment seg, const int32_t *last, uint64_t *total,
                                    ge_mem_plan_summary *sum) {
  uint32_t i, m = 0;
  ge_mem_interval *iv;
  uint64_t *off;
  int32_t *idx;
  ge_mem_plan_desc pd;
  ge_error e;
  ge_status st;
  memset(sum, 0, sizeof *sum);
  *total = 0;
  for (i = 0; i < c->nt; i++)
    if (c->parent[i] < 0 && c->t[i].size &&
        (c->nat[i] == seg || (seg == GE_MEM_SEG_FEATURE_MAP && c->nat[i] == GE_MEM_SEG_WORKSPACE)))
      m++;
  if (!m) return GE_OK;
  if (!(iv = (ge_mem_interval *)ge__mg_new(c, m, sizeof *iv)) || !(off = (uint64_t *)ge__mg_new(c, m, sizeof *off)) ||
      !(idx = (int32_t *)ge__mg_new(c, m, sizeof *idx)))
    return c->fail;
  m = 0;
  for (i = 0; i < c->nt; i++)
    if (c->parent[i] < 0 && c->t[i].size &&
        (c->nat[i] == seg || (seg == GE_MEM_SEG_FEATURE_MAP && c->nat[i] == GE_MEM_SEG_WORKSPACE))) {
      iv[m].size = c->t[i].size;
      iv[m].alignment = 0;
      iv[m].first_use = c->gfirst[i];
      iv[m].last_use = last[i];
      iv[m].stream = c->d->happens_before ? c->sid[c->t[i].node] : 0;
      idx[m++] = (int32_t)i;
    }
  memset(&pd, 0, sizeof pd);
  pd.allocator = c->a;
  pd.alignment = (uint32_t)c->align;
  pd.strategy = c->d->disable_reuse ? GE_MEM_STRATEGY_NO_REUSE : c->d->strategy;
  pd.streams_ordered = 1;
  memset(&e, 0, sizeof e);
  if ((st = ge_mem_plan_intervals(iv, m, &pd, off, sum, &e)) != GE_OK)
    return ge_error_set(c->err, st, "memory plan of the %s: %s", ge_mem_segment_name(seg), e.message);
  for (i = 0; i < m; i++) c->t[idx[i]].offset = off[i];
  if (!ge__mg_align_up(sum->total, c->align, total))
    return ge_error_set(c->err, GE_ERR_INVALID, "memory plan: the %s overflows", ge_mem_segment_name(seg));
  return GE_OK;
}

/* Places root r back to back at *cursor. */
static ge_status ge__mg_place(ge__mg *c, int32_t r, uint64_t *cursor, uint8_t *placed) {
  uint64_t sz;
  if (placed[r]) return GE_OK;
  placed[r] = 1;
  c->t[r].offset = *cursor;
  if (!ge__mg_align_up(c->t[r].size, c->align, &sz) || sz > UINT64_MAX - *cursor)
    return ge_error_set(c->err, GE_ERR_INVALID, "memory plan: the %s overflows",
                        ge_mem_segment_name((ge_mem_segment)c->nat[r]));
  *cursor += sz;
  return GE_OK;
}

static ge_status ge__mg_run(ge__mg *c, ge_mem_graph_plan *out) {
  ge_status st;
  uint32_t i, k;
  int32_t *last;
  uint8_t *placed;
  uint64_t seg_size[GE_MEM_SEG_COUNT], fm_total, fx_total, fixed_base, out_base;
  ge_mem_plan_summary fx_sum;
  ge_node_id *inputs;
  uint32_t ninputs;

  if ((st = ge__mg_order(c)) != GE_OK) return st;
  if ((st = ge__mg_tensors(c)) != GE_OK) return st;
  ge__mg_views(c);
  ge__mg_continuous(c);
  ge__mg_groups(c);
  if (c->d->happens_before && (st = ge__mg_streams(c)) != GE_OK) return st;
  if (!c->d->disable_inplace && !c->d->disable_reuse && (st = ge__mg_inplace(c)) != GE_OK) return st;

  /* final roots, segments, lifetimes */
  if (!(last = (int32_t *)ge__mg_new(c, c->nt, sizeof(int32_t))) || !(placed = (uint8_t *)ge__mg_new(c, c->nt, 1)))
    return c->fail;
  for (i = 0; i < c->nt; i++) {
    ge__mg_find(c, (int32_t)i, NULL);
    if (c->parent[i] >= 0) continue;
    last[i] = c->glast[i];
    if (c->d->happens_before && (c->nat[i] == GE_MEM_SEG_FEATURE_MAP || c->nat[i] == GE_MEM_SEG_FIXED ||
                                 c->nat[i] == GE_MEM_SEG_WORKSPACE))
      last[i] = ge__mg_extend(c, (int32_t)i);
  }

  memset(seg_size, 0, sizeof seg_size);
  if ((st = ge__mg_plan_region(c, GE_MEM_SEG_FEATURE_MAP, last, &fm_total, &out->feature_map)) != GE_OK) return st;
  if ((st = ge__mg_plan_region(c, GE_MEM_SEG_FIXED, last, &fx_total, &fx_sum)) != GE_OK) return st;
  seg_size[GE_MEM_SEG_FEATURE_MAP] = fm_total;
  seg_size[GE_MEM_SEG_FIXED] = fx_total;
  for (i = 0; i < c->nt; i++)
    if (c->nat[i] == GE_MEM_SEG_WORKSPACE) {
      uint64_t sz;
      if (!ge__mg_align_up(c->t[i].size, c->align, &sz) || sz > UINT64_MAX - seg_size[GE_MEM_SEG_WORKSPACE])
        return ge_error_set(c->err, GE_ERR_INVALID, "memory plan: workspaces overflow");
      seg_size[GE_MEM_SEG_WORKSPACE] += sz;
    }

  /* back to back: outputs in NetOutput order, inputs in Data index order */
  if (c->netout != GE_NONE) {
    const ge_node *no = ge_graph_node(c->g, c->netout);
    for (k = 0; k < no->num_inputs; k++) {
      int32_t s = ge__mg_tensor_of(c, no->inputs[k]);
      if (s >= 0 && c->parent[s] < 0 && c->nat[s] == GE_MEM_SEG_OUTPUT &&
          (st = ge__mg_place(c, s, &seg_size[GE_MEM_SEG_OUTPUT], placed)) != GE_OK)
        return st;
    }
  }
  if (!(inputs = (ge_node_id *)ge__mg_new(c, c->n, sizeof(ge_node_id)))) return c->fail;
  ninputs = ge_graph_inputs(c->g, inputs, c->n);
  for (k = 0; k < ninputs && k < c->n; k++) {
    int32_t s = c->first_t[inputs[k]];
    if (s >= 0 && c->parent[s] < 0 && c->nat[s] == GE_MEM_SEG_INPUT &&
        (st = ge__mg_place(c, s, &seg_size[GE_MEM_SEG_INPUT], placed)) != GE_OK)
      return st;
  }
  for (i = 0; i < c->nt; i++) {
    ge_mem_segment sg = (ge_mem_segment)c->nat[i];
    if (c->parent[i] >= 0) continue;
    if ((sg == GE_MEM_SEG_OUTPUT || sg == GE_MEM_SEG_INPUT || sg == GE_MEM_SEG_WEIGHT || sg == GE_MEM_SEG_VARIABLE) &&
        (st = ge__mg_place(c, (int32_t)i, &seg_size[sg], placed)) != GE_OK)
      return st;
  }

  /* the block: feature map, fixed, outputs */
  fixed_base = fm_total;
  if (fx_total > UINT64_MAX - fixed_base || seg_size[GE_MEM_SEG_OUTPUT] > UINT64_MAX - (fixed_base + fx_total))
    return ge_error_set(c->err, GE_ERR_INVALID, "memory plan: the model block overflows");
  out_base = fixed_base + fx_total;
  out->block_size = out_base + seg_size[GE_MEM_SEG_OUTPUT];
  for (i = 0; i < c->nt; i++) {
    ge_mem_tensor *t = &c->t[i];
    if (c->parent[i] >= 0) continue;
    t->segment = (ge_mem_segment)c->nat[i];
    t->first_use = c->gfirst[i];
    t->last_use = last[i];
    if (c->nat[i] == GE_MEM_SEG_FIXED) t->offset += fixed_base;
    else if (c->nat[i] == GE_MEM_SEG_OUTPUT) t->offset += out_base;
  }
  for (i = 0; i < c->nt; i++) {
    ge_mem_tensor *t = &c->t[i];
    uint64_t pos;
    int32_t r;
    if (c->parent[i] < 0) continue;
    r = ge__mg_find(c, (int32_t)i, &pos);
    t->alias_of = r;
    t->segment = c->t[r].segment;
    t->offset = c->t[r].offset + pos;
    t->last_use = c->rlast[i];
  }
  memcpy(out->segment_size, seg_size, sizeof seg_size);

  /* ge_tensor_desc.offset: block-relative, -1 outside the block */
  for (i = 0; i < c->nout; i++) {
    ge_mem_tensor *t = &c->t[i];
    ge_node *x = ge_graph_node(c->g, t->node);
    int inblock = t->segment == GE_MEM_SEG_FEATURE_MAP || t->segment == GE_MEM_SEG_FIXED ||
                  t->segment == GE_MEM_SEG_OUTPUT;
    x->outputs[t->output].offset = inblock ? (int64_t)t->offset : -1;
  }
  if (c->netout != GE_NONE) {
    ge_node *no = ge_graph_node(c->g, c->netout);
    for (k = 0; k < no->num_outputs; k++) {
      const ge_tensor_desc *in = k < no->num_inputs ? ge_node_input_desc(c->g, no, k) : NULL;
      no->outputs[k].offset = in ? in->offset : -1;
    }
  }
  out->tensors = c->t;
  out->num_tensors = c->nt;
  out->allocator = c->a;
  return GE_OK;
}

/* What the plan decided, for the desc's logger. */
static void ge__mg_log_plan(const ge_mem_graph_plan *p, const ge_logger *l) {
  uint32_t i;
  ge_log(l, GE_LOG_INFO, "mem", "block %llu bytes: feature map %llu (lower bound %llu, no reuse %llu, strategy %s), weights %llu",
         (unsigned long long)p->block_size, (unsigned long long)p->feature_map.total,
         (unsigned long long)p->feature_map.lower_bound, (unsigned long long)p->feature_map.no_reuse_total,
         ge_mem_strategy_name(p->feature_map.strategy), (unsigned long long)p->segment_size[GE_MEM_SEG_WEIGHT]);
  if (!GE_LOG_ON(l, GE_LOG_DEBUG)) return;
  for (i = 0; i < p->num_tensors; i++)
    ge_log(l, GE_LOG_DEBUG, "mem", "tensor %u (node %u output %d, segment %d): %llu bytes at %llu, steps %d..%d",
           (unsigned)i, (unsigned)p->tensors[i].node, (int)p->tensors[i].output, (int)p->tensors[i].segment,
           (unsigned long long)p->tensors[i].size, (unsigned long long)p->tensors[i].offset,
           (int)p->tensors[i].first_use, (int)p->tensors[i].last_use);
}

GE_API ge_status ge_mem_plan_graph(ge_graph *g, const ge_mem_graph_desc *desc, ge_mem_graph_plan *out,
                                   ge_error *err) {
  ge__mg c;
  ge_mem_graph_desc zero;
  ge_status st;
  if (!out) return ge_error_set(err, GE_ERR_INVALID, "ge_mem_plan_graph: out is NULL");
  memset(out, 0, sizeof *out);
  if (!g) return ge_error_set(err, GE_ERR_INVALID, "ge_mem_plan_graph: graph is NULL");
  if (!desc) {
    memset(&zero, 0, sizeof zero);
    desc = &zero;
  }
  memset(&c, 0, sizeof c);
  c.g = g;
  c.d = desc;
  c.err = err;
  c.a = (desc->allocator.alloc && desc->allocator.free) ? desc->allocator : *ge_graph_allocator(g);
  c.align = desc->alignment ? desc->alignment : GE_MEM_DEFAULT_ALIGNMENT;
  if (c.align & (c.align - 1))
    return ge_error_set(err, GE_ERR_INVALID, "memory plan: alignment %u is not a power of two",
                        (unsigned)desc->alignment);
  if ((unsigned)desc->strategy >= GE_MEM_STRATEGY_COUNT)
    return ge_error_set(err, GE_ERR_INVALID, "memory plan: unknown strategy %d", (int)desc->strategy);
  c.n = ge_graph_node_count(g);
  c.bound = ge_graph_id_bound(g);
  st = ge__mg_run(&c, out);
  if (st != GE_OK) {
    ge__mg_release(&c, NULL);
    memset(out, 0, sizeof *out);
    return st;
  }
  ge__mg_release(&c, c.t);
  ge__mg_log_plan(out, &desc->logger);
  return GE_OK;
}

GE_API void ge_mem_graph_plan_free(ge_mem_graph_plan *p) {
  if (!p) return;
  if (p->tensors && p->allocator.free)
    p->allocator.free(p->allocator.user, p->tensors, p->num_tensors ? (size_t)p->num_tensors * sizeof(ge_mem_tensor) : 1);
  memset(p, 0, sizeof *p);
}

GE_API const char *ge_mem_segment_name(ge_mem_segment s) {
  static const char *const names[GE_MEM_SEG_COUNT] = {"feature_map", "fixed", "output", "input",
                                                      "weight", "variable", "workspace"};
  return (unsigned)s < GE_MEM_SEG_COUNT ? names[s] : "invalid";
}
#endif /* GE_GRAPH_H */

#ifdef __cplusplus
}
#endif
#endif /* GE_MEM_IMPLEMENTATION_DONE */
#endif /* GE_MEM_IMPLEMENTATION */

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
 *     varint count, count x str (op types, domains, attribute names, symbols)
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
 * data and load as owned. Data pointed to by a tensor is copied, so the
 * bytes may be freed after loading. The root graph takes the file's name,
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

static void ge__ser_fail(ge__ser *s, ge_status code, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static void ge__ser_fail(ge__ser *s, ge_status code, const char *fmt, ...) {
  char msg[400];
  va_list ap;
  if (s->status) return;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  s->status = ge__fail(s->err, code, "cannot serialize: %s", msg);
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

/* The node of id in O(1) (chunk k holds ids [16 (2^k - 1), 16 (2^(k+1) - 1))),
 * or NULL for a hole or an id out of range. */
static ge_node *ge__io_node(const ge_graph *g, ge_node_id id) {
  uint32_t x, b;
  ge_node *n;
  if (id >= g->id_bound) return NULL;
  x = id + (1u << GE__CHUNK0_LOG);
#if defined(__GNUC__) || defined(__clang__)
  b = 31u - (uint32_t)__builtin_clz(x);
#else
  b = 31;
  while (!(x >> b)) b--;
#endif
  n = &g->chunks[b - GE__CHUNK0_LOG][x - (1u << b)];
  return (n->flags & GE_NODE_REMOVED) ? NULL : n;
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
      const ge_node *src = ge__io_node(g, e.node);
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
      if (!ge__io_node(g, c)) {
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
  if (!g || !out || !size) return ge__fail(err, GE_ERR_INVALID, "ge_graph_serialize: NULL argument");
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
    s.status = ge__fail(err, GE_ERR_NOMEM, "out of memory serializing graph '%s'", ge_graph_name(g));
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
    s.status = ge__fail(err, GE_ERR_NOMEM, "out of memory serializing graph '%s'", ge_graph_name(g));
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

static int ge__rd_fail(ge__rd *r, size_t at, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static int ge__rd_fail(ge__rd *r, size_t at, const char *fmt, ...) {
  char msg[400];
  va_list ap;
  if (r->st) return 0;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  r->st = ge__fail(r->err, GE_ERR_FORMAT, "malformed graph bytes at offset %zu: %s", at, msg);
  return 0;
}

static int ge__rd_oom(ge__rd *r) {
  if (!r->st)
    r->st = ge__fail(r->err, GE_ERR_NOMEM, "out of memory loading a graph (at offset %zu)", r->pos);
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

static int ge__rd_varint(ge__rd *r, uint64_t *v) {
  if (r->pos < r->end && r->b[r->pos] < 0x80) {
    *v = r->b[r->pos++];
    return 1;
  }
  return ge__rd_varint_slow(r, v);
}

static int ge__rd_uint(ge__rd *r, uint64_t max, uint64_t *v, const char *what) {
  size_t at = r->pos;
  GE__TRY(ge__rd_varint(r, v));
  if (*v > max)
    return ge__rd_fail(r, at, "%s %llu is out of range (at most %llu)", what, (unsigned long long)*v,
                       (unsigned long long)max);
  return 1;
}

static int ge__rd_int(ge__rd *r, int64_t lo, int64_t hi, int64_t *v, const char *what) {
  size_t at = r->pos;
  uint64_t u;
  GE__TRY(ge__rd_varint(r, &u));
  *v = ge__unzz(u);
  if (*v < lo || *v > hi)
    return ge__rd_fail(r, at, "%s %lld is out of range %lld..%lld", what, (long long)*v, (long long)lo,
                       (long long)hi);
  return 1;
}

/* A count of items that take at least min_bytes each in the file. */
static int ge__rd_count(ge__rd *r, size_t min_bytes, uint32_t *n, const char *what) {
  size_t at = r->pos;
  uint64_t v;
  GE__TRY(ge__rd_varint(r, &v));
  if (v > 0x3FFFFFFF || v > (r->end - r->pos) / min_bytes)
    return ge__rd_fail(r, at, "%s count %llu does not fit in the %zu bytes that remain", what,
                       (unsigned long long)v, r->end - r->pos);
  *n = (uint32_t)v;
  return 1;
}

static int ge__rd_byte(ge__rd *r, uint8_t *c) {
  if (r->pos >= r->end) return ge__rd_fail(r, r->pos, "unexpected end of data");
  *c = r->b[r->pos++];
  return 1;
}

static int ge__rd_len_bytes(ge__rd *r, uint64_t n, const uint8_t **p, const char *what, size_t at) {
  if (n > r->end - r->pos)
    return ge__rd_fail(r, at, "%s of %llu bytes runs past the end (%zu bytes remain)", what,
                       (unsigned long long)n, r->end - r->pos);
  *p = r->b + r->pos;
  if (memchr(*p, 0, (size_t)n)) return ge__rd_fail(r, at, "%s contains a NUL byte", what);
  r->pos += (size_t)n;
  return 1;
}

static int ge__rd_str(ge__rd *r, const uint8_t **p, size_t *len, const char *what) {
  size_t at = r->pos;
  uint64_t n;
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
static int ge__rd_sidx(ge__rd *r, int optional, uint32_t *idx, const char *what) {
  size_t at = r->pos;
  uint64_t v;
  GE__TRY(ge__rd_varint(r, &v));
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
static int ge__rd_attrs(ge__rd *r, ge_graph *g, uint32_t gen, ge_node_id owner, ge_attr **arr, uint32_t *count,
                        int depth) {
  uint32_t cnt, k, mark, idx, m;
  ge_attr *list;
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
  return 1;
}

static int ge__rd_desc(ge__rd *r, ge_graph *g, uint32_t gen, ge_node *n, uint32_t oi, ge_tensor_desc *d) {
  size_t at = r->pos;
  uint64_t bits, v;
  int64_t x;
  uint8_t dt = 0;
  int32_t rank, i;
  uint32_t sidx;
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
      GE__TRY(ge__rd_uint(r, INT64_MAX, &v, "dimension"));
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

/* Reads node n (a fresh slot) of a graph of nn nodes. mark: nn entries for
 * the duplicate control edge check, allocated on first need. */
static int ge__rd_node(ge__rd *r, ge_graph *g, uint32_t gen, ge_node *n, uint32_t nn, uint32_t **mark,
                       const char **prev, size_t *prev_len, int depth) {
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
    GE__TRY(ge__rd_varint(r, &v));
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
      if (ed->node < cur && (uint32_t)ed->index >= ge__io_node(g, ed->node)->num_outputs)
        return ge__rd_fail(r, at, "node %u input %u reads output %d of node %u, which has %u outputs",
                           (unsigned)cur, (unsigned)i, (int)ed->index, (unsigned)ed->node,
                           (unsigned)ge__io_node(g, ed->node)->num_outputs);
    }
  }
  n->num_inputs = cnt;
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
    }
  }
  /* outputs */
  GE__TRY(ge__rd_count(r, 3, &cnt, "output"));
  if (cnt && !(n->outputs = (ge_tensor_desc *)ge__arena_block(&g->arena,
                                                               (size_t)ge__cap_of(cnt) * sizeof(ge_tensor_desc))))
    return ge__rd_oom(r);
  n->num_outputs = cnt;
  for (i = 0; i < cnt; i++) {
    ge__desc_init(&n->outputs[i]);
    GE__TRY(ge__rd_desc(r, g, gen, n, i, &n->outputs[i]));
  }
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

/* Links the nodes of a freshly read graph: checks inputs that read later
 * nodes, then builds uses and control outputs. */
static int ge__rd_link(ge__rd *r, ge_graph *g, size_t at) {
  uint32_t nn = g->id_bound;
  GE__IO_FOR_SLOTS(g, nn, n, {
    uint32_t k;
    for (k = 0; k < n->num_inputs; k++) {
      ge_edge e = n->inputs[k];
      ge_node *p;
      if (e.node == GE_NONE) continue;
      p = ge__io_node(g, e.node);
      if ((uint32_t)e.index >= p->num_outputs)
        return ge__rd_fail(r, at, "node %u ('%.60s') input %u reads output %d of node %u, which has %u outputs",
                           (unsigned)n->id, n->name, (unsigned)k, (int)e.index, (unsigned)e.node,
                           (unsigned)p->num_outputs);
      if (p->num_uses >= 0x3FFFFFFF) return ge__rd_fail(r, at, "node %u has too many consumers", (unsigned)e.node);
      p->num_uses++;
    }
    for (k = 0; k < n->num_control_inputs; k++) ge__io_node(g, n->control_inputs[k])->num_control_outputs++;
  });
  GE__IO_FOR_SLOTS(g, nn, n, {
    if (n->num_uses) {
      n->uses = (ge_use *)ge__arena_block(&g->arena, (size_t)ge__cap_of(n->num_uses) * sizeof(ge_use));
      if (!n->uses) return ge__rd_oom(r);
      n->num_uses = 0;
    }
    if (n->num_control_outputs) {
      n->control_outputs =
          (ge_node_id *)ge__arena_block(&g->arena, (size_t)ge__cap_of(n->num_control_outputs) * sizeof(ge_node_id));
      if (!n->control_outputs) return ge__rd_oom(r);
      n->num_control_outputs = 0;
    }
  });
  GE__IO_FOR_SLOTS(g, nn, n, {
    uint32_t k;
    for (k = 0; k < n->num_inputs; k++) {
      ge_node *p;
      if (n->inputs[k].node == GE_NONE) continue;
      p = ge__io_node(g, n->inputs[k].node);
      p->uses[p->num_uses].node = n->id;
      p->uses[p->num_uses].input = k;
      p->num_uses++;
    }
    for (k = 0; k < n->num_control_inputs; k++) {
      ge_node *p = ge__io_node(g, n->control_inputs[k]);
      p->control_outputs[p->num_control_outputs++] = n->id;
    }
  });
  return 1;
}

static ge_graph *ge__rd_graph(ge__rd *r, int depth) {
  ge_graph *g = NULL;
  ge_graph_desc d;
  size_t at = r->pos, nodes_at;
  uint32_t gen, nn = 0, i, *mark = NULL;
  uint64_t v;
  const char *prev = "";
  size_t prev_len = 0;
  const uint8_t *p;
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
    if (!ge__rd_node(r, g, gen, n, nn, &mark, &prev, &prev_len, depth)) goto fail;
  }
  if (!ge__rd_link(r, g, nodes_at)) goto fail;
  ge__mem_free(&r->a, mark, (size_t)nn * sizeof(uint32_t));
  return g;
fail:
  ge__mem_free(&r->a, mark, (size_t)nn * sizeof(uint32_t));
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
  if (!out) return ge__fail(err, GE_ERR_INVALID, "ge_graph_deserialize: NULL output");
  *out = NULL;
  if (!bytes && size) return ge__fail(err, GE_ERR_INVALID, "ge_graph_deserialize: NULL bytes");
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
  if (!g || !path) return ge__fail(err, GE_ERR_INVALID, "ge_graph_save: NULL argument");
  if ((st = ge_graph_serialize(g, &bytes, &size, err))) {
    ge__error_path(err, path);
    return st;
  }
  errno = 0;
  f = fopen(path, "wb");
  if (!f) {
    e = errno;
    ge_graph_free_bytes(g, bytes, size);
    return ge__fail(err, GE_ERR_IO, "cannot create '%s': %s", path, e ? strerror(e) : "fopen failed");
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
    return ge__fail(err, GE_ERR_IO, "cannot write '%s': %s", path, e ? strerror(e) : "write failed");
  }
  return GE_OK;
}

GE_API ge_status ge_graph_load(const char *path, const ge_graph_desc *desc, ge_graph **out, ge_error *err) {
  ge_mapped_file *m;
  ge_status st;
  if (!out) return ge__fail(err, GE_ERR_INVALID, "ge_graph_load: NULL output");
  *out = NULL;
  if (!path) return ge__fail(err, GE_ERR_INVALID, "ge_graph_load: NULL path");
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
  if (!g) return ge__fail(err, GE_ERR_INVALID, "ge_graph_hash: NULL graph");
  if (depth > GE__SERIAL_MAX_DEPTH)
    return ge__fail(err, GE_ERR_INVALID, "graph '%s': subgraphs nested deeper than %d", ge_graph_name(g),
                    GE__SERIAL_MAX_DEPTH);
  if ((st = ge__topo_alloc(g, GE_TOPO_BFS, &order, err))) return st;
  ge__wbuf_init(&w, &g->arena.a);
  nh = (uint64_t *)ge__mem_alloc(&g->arena.a, ((size_t)g->id_bound + 1) * sizeof(uint64_t));
  if (!nh) st = ge__oom(err, g);
  for (i = 0; i < g->live && !st; i++) {
    const ge_node *n = ge__io_node(g, order[i]);
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
      qsort(all, g->live, sizeof(uint64_t), ge__cmp_u64);
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
  if (!out) return ge__fail(err, GE_ERR_INVALID, "ge_graph_hash: NULL output");
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
  case GE_ATTR_GRAPH: fprintf(f, "@%s", a->v.g ? ge_graph_name(a->v.g) : "?"); return;
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
    case GE_ATTR_GRAPHS: fprintf(f, "@%s", a->v.graphs[i] ? ge_graph_name(a->v.graphs[i]) : "?"); break;
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
    fprintf(f, "%s%s=", i ? ", " : "", attrs[i].name);
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
  if (label) fprintf(f, index >= 0 ? "%s[%d]: " : "%s: ", label, index);
  fprintf(f, "graph '%s' (%u nodes)", ge_graph_name(g), (unsigned)g->live);
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
    fprintf(f, "%*s%%%u %s = ", 2 * depth, "", (unsigned)i, n->name);
    if (n->domain) fprintf(f, "%s::", n->domain);
    fprintf(f, "%s(", n->op);
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
      if (d->name) fprintf(f, "%s:", d->name);
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

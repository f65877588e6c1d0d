/* Tests of ge_mem.h's graph adapter (ge_mem_plan_graph): segments, views,
 * in place, continuous PhonyConcat inputs, PhonySplit slices, workspaces,
 * fixed feature map, graph outputs, cross-stream safety, errors, no leaks;
 * and an independent checker run on 10,000+ seeded random DAGs.
 *
 * The checker does not trust the plan's lifetimes or alias claims. It
 * derives, from the graph alone, who writes which bytes and who reads them
 * (views, slices and continuous concats read their sources' bytes; a
 * graph output is read at the end), computes happens-before itself (step
 * order on one stream; reachability over data edges, control edges, stream
 * order and random events on several), and requires for every writer W and
 * every read of bytes W overlaps: W is the writer of the value read, or W
 * happens before that writer, or the read happens before W — the only
 * exception being an element-wise node reading the exact bytes it writes
 * (in place). Every alias the plan claims must be a view, a slice, a
 * continuous concat input or an in-place output at the right offset. */
#define GE_MEM_IMPLEMENTATION /* its private ge__mg_*; the rest from libge.a */
#include "ge_graph.h"
#include "ge_mem.h"

#include "tests/test.h"
#include "tests/graph_util.h"

#define OK(expr) GE_CHECK_EQ_INT((expr), GE_OK)
#define E tu_e

/* ------------------------------------------------------------ building */

static ge_node_id mk(ge_graph *g, const char *op, const char *name, uint32_t nin, const ge_edge *in, uint32_t nout,
                     int64_t r, int64_t c) {
  ge_node_id id;
  uint32_t k;
  int64_t dims[2];
  dims[0] = r;
  dims[1] = c;
  TU_OK(ge_graph_add_node(g, op, name, nin, in, (int32_t)nout, &id, NULL));
  for (k = 0; k < nout; k++) TU_OK(ge_node_set_output(g, id, k, GE_DTYPE_FLOAT32, 2, dims, NULL, NULL));
  return id;
}
static ge_node_id mk1(ge_graph *g, const char *op, const char *name, ge_edge a, int64_t r, int64_t c) {
  return mk(g, op, name, 1, &a, 1, r, c);
}
static ge_node_id mk2(ge_graph *g, const char *op, const char *name, ge_edge a, ge_edge b, int64_t r, int64_t c) {
  ge_edge in[2];
  in[0] = a;
  in[1] = b;
  return mk(g, op, name, 2, in, 1, r, c);
}
static ge_node_id data(ge_graph *g, const char *name, int64_t r, int64_t c) {
  ge_node_id id;
  int64_t dims[2];
  dims[0] = r;
  dims[1] = c;
  TU_OK(ge_graph_add_data(g, name, GE_DTYPE_FLOAT32, 2, dims, &id, NULL));
  return id;
}
static ge_node_id cnst(ge_graph *g, const char *name, int64_t r, int64_t c) {
  float *buf = (float *)calloc((size_t)(r * c) + 1, sizeof(float));
  int64_t dims[2];
  ge_tensor t;
  ge_node_id id;
  dims[0] = r;
  dims[1] = c;
  memset(&t, 0, sizeof t);
  t.dtype = GE_DTYPE_FLOAT32;
  t.rank = 2;
  t.dims = dims;
  t.data = buf;
  t.nbytes = (size_t)(r * c) * sizeof(float);
  TU_OK(ge_graph_add_const(g, name, &t, &id, NULL));
  free(buf);
  return id;
}
static void outputs(ge_graph *g, uint32_t n, const ge_edge *e) { TU_OK(ge_graph_set_outputs(g, n, e, NULL, NULL)); }

/* Index of (node, output) in the plan, -1 if absent. */
static int32_t tix(const ge_mem_graph_plan *p, ge_node_id node, int32_t output) {
  uint32_t i;
  for (i = 0; i < p->num_tensors; i++)
    if (p->tensors[i].node == node && p->tensors[i].output == output) return (int32_t)i;
  return -1;
}
static const ge_mem_tensor *tn(const ge_mem_graph_plan *p, ge_node_id node, int32_t output) {
  int32_t i = tix(p, node, output);
  return i < 0 ? NULL : &p->tensors[i];
}
static int bytes_overlap(const ge_mem_tensor *a, const ge_mem_tensor *b) {
  return a->size && b->size && a->offset < b->offset + b->size && b->offset < a->offset + a->size;
}
static int in_block(ge_mem_segment s) {
  return s == GE_MEM_SEG_FEATURE_MAP || s == GE_MEM_SEG_FIXED || s == GE_MEM_SEG_OUTPUT || s == GE_MEM_SEG_WORKSPACE;
}

/* ------------------------------------------------ happens-before oracle */

/* Reachability over steps: bit a of row b set when step a happens before
 * step b. */
typedef struct hb_oracle {
  uint32_t n, words;
  uint64_t *reach;
  int32_t *step; /* per node id */
} hb_oracle;

static int hb_steps(const hb_oracle *h, int32_t a, int32_t b) {
  if (b == (int32_t)h->n) return 1; /* the end of the run */
  if (a == (int32_t)h->n) return 0;
  return (int)((h->reach[(size_t)b * h->words + (uint32_t)a / 64] >> ((uint32_t)a % 64)) & 1u);
}
static int hb_cb(void *user, ge_node_id a, ge_node_id b) {
  const hb_oracle *h = (const hb_oracle *)user;
  return hb_steps(h, h->step[a], h->step[b]);
}

/* Builds the oracle for g in order: data and control edges, each stream's
 * nodes in order, and the extra events (pairs of node ids). */
static void hb_build(hb_oracle *h, const ge_graph *g, const ge_node_id *order, uint32_t n, const ge_node_id *ev,
                     uint32_t nev) {
  uint32_t i, k, w;
  int32_t *last_on = (int32_t *)malloc(sizeof(int32_t) * 64);
  h->n = n;
  h->words = (n + 63) / 64 + 1;
  h->reach = (uint64_t *)calloc((size_t)n * h->words + 1, sizeof(uint64_t));
  h->step = (int32_t *)malloc(sizeof(int32_t) * (ge_graph_id_bound(g) + 1));
  for (i = 0; i < 64; i++) last_on[i] = -1;
  for (i = 0; i < n; i++) h->step[order[i]] = (int32_t)i;
  for (i = 0; i < n; i++) {
    const ge_node *x = ge_graph_node(g, order[i]);
    uint64_t *row = h->reach + (size_t)i * h->words;
    int32_t preds[512];
    uint32_t np = 0, p;
    for (k = 0; k < x->num_inputs; k++)
      if (x->inputs[k].node != GE_NONE && np < 512) preds[np++] = h->step[x->inputs[k].node];
    for (k = 0; k < x->num_control_inputs && np < 512; k++) preds[np++] = h->step[x->control_inputs[k]];
    if (x->stream >= 0 && x->stream < 64) {
      if (last_on[x->stream] >= 0 && np < 512) preds[np++] = last_on[x->stream];
      last_on[x->stream] = (int32_t)i;
    }
    for (k = 0; k < nev; k++)
      if (ev[2 * k + 1] == x->id && np < 512) preds[np++] = h->step[ev[2 * k]];
    for (p = 0; p < np; p++) {
      const uint64_t *pr = h->reach + (size_t)preds[p] * h->words;
      for (w = 0; w < h->words; w++) row[w] |= pr[w];
      row[(uint32_t)preds[p] / 64] |= 1ull << ((uint32_t)preds[p] % 64);
    }
  }
  free(last_on);
}
static void hb_free(hb_oracle *h) {
  free(h->reach);
  free(h->step);
}

/* ------------------------------------------------- the independent check */

static const char *const k_views[] = {"Flatten", "Identity", "Reshape", "Squeeze", "Unsqueeze"};
static const char *const k_elementwise[] = {"Add", "Exp", "Mul", "Neg", "Relu", "Sigmoid", "Sub"};
static int op_in(const ge_node *x, const char *const *list, size_t n) {
  size_t i;
  if (x->domain && *x->domain) return 0;
  for (i = 0; i < n; i++)
    if (!strcmp(x->op, list[i])) return 1;
  return 0;
}
#define OP_IN(x, list) op_in((x), (list), sizeof(list) / sizeof *(list))

enum { K_WRITER = 0, K_SAME_BYTES = 1, K_CONCAT = 2, K_OUTSIDE = 3 };

typedef struct checker {
  ge_graph *g;
  const ge_mem_graph_plan *p;
  const hb_oracle *h; /* NULL: one stream, step order */
  uint32_t n, bound;
  int32_t *step;
  int32_t *map;  /* node id * 8 + output -> tensor index */
  uint8_t *kind; /* per tensor */
  int32_t *src;  /* K_SAME_BYTES: the tensor whose bytes (and value) it reads */
  char msg[512];
  int bad;
} checker;

static int ck_hb(const checker *c, int32_t a, int32_t b) {
  if (c->h) return hb_steps(c->h, a, b);
  if (b == (int32_t)c->n) return 1;
  if (a == (int32_t)c->n) return 0;
  return a < b;
}

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 2, 3)))
#endif
static int ck_fail(checker *c, const char *fmt, ...);
static int ck_fail(checker *c, const char *fmt, ...) {
  va_list ap;
  if (!c->bad) {
    va_start(ap, fmt);
    vsnprintf(c->msg, sizeof c->msg, fmt, ap);
    va_end(ap);
  }
  c->bad = 1;
  return 0;
}

static int32_t ck_tensor(const checker *c, ge_edge e) {
  if (e.node == GE_NONE || e.index < 0 || e.index >= 8) return -1;
  return c->map[(size_t)e.node * 8 + (uint32_t)e.index];
}

static const char *ck_name(const checker *c, int32_t t) { return ge_graph_node(c->g, c->p->tensors[t].node)->name; }

/* A concat the plan may lay out continuously: PhonyConcat, or Concat, whose
 * kernel copies nothing onto itself. */
static int ck_is_concat(const ge_node *x) { return !strcmp(x->op, "PhonyConcat") || !strcmp(x->op, "Concat"); }

/* Is the concat x laid out continuously (each input at out + prefix)? */
static int ck_concat_continuous(const checker *c, const ge_node *x) {
  int32_t o = ck_tensor(c, E(x->id, 0));
  uint64_t pos = 0;
  uint32_t k;
  if (o < 0 || !in_block(c->p->tensors[o].segment)) return 0;
  for (k = 0; k < x->num_inputs; k++) {
    int32_t s = ck_tensor(c, x->inputs[k]);
    if (s < 0 || c->p->tensors[s].alias_of < 0 || c->p->tensors[s].segment != c->p->tensors[o].segment ||
        c->p->tensors[s].offset != c->p->tensors[o].offset + pos)
      return 0;
    pos += c->p->tensors[s].size;
  }
  return pos == c->p->tensors[o].size;
}

/* Classifies tensors and checks every alias claim. */
static void ck_classify(checker *c) {
  const ge_mem_graph_plan *p = c->p;
  uint32_t i, k;
  for (i = 0; i < p->num_tensors; i++) {
    const ge_mem_tensor *t = &p->tensors[i];
    const ge_node *x = ge_graph_node(c->g, t->node);
    c->kind[i] = in_block(t->segment) ? K_WRITER : K_OUTSIDE;
    c->src[i] = -1;
    if (t->output < 0) continue;
    if (OP_IN(x, k_views) && t->alias_of >= 0) {
      int32_t s = ck_tensor(c, x->inputs[0]);
      if (s < 0 || p->tensors[s].offset != t->offset || p->tensors[s].size != t->size ||
          p->tensors[s].segment != t->segment)
        continue; /* not at its input's bytes: must be justified otherwise */
      if (c->kind[i] == K_WRITER) c->kind[i] = K_SAME_BYTES;
      c->src[i] = s;
    } else if (!strcmp(x->op, "PhonySplit") && t->alias_of >= 0) {
      int32_t s = ck_tensor(c, x->inputs[0]);
      uint64_t pos = 0;
      for (k = 0; k < (uint32_t)t->output; k++) pos += p->tensors[ck_tensor(c, E(x->id, (int32_t)k))].size;
      if (s < 0 || p->tensors[s].offset + pos != t->offset || p->tensors[s].segment != t->segment ||
          t->offset + t->size > p->tensors[s].offset + p->tensors[s].size)
        continue; /* not its slice of the input: must be justified otherwise */
      if (c->kind[i] == K_WRITER) c->kind[i] = K_SAME_BYTES;
      c->src[i] = s;
    } else if (ck_is_concat(x) && ck_concat_continuous(c, x)) {
      if (c->kind[i] == K_WRITER) c->kind[i] = K_CONCAT;
    }
  }
  /* every alias must be justified; roots must own their bytes */
  for (i = 0; i < p->num_tensors && !c->bad; i++) {
    const ge_mem_tensor *t = &p->tensors[i];
    const ge_node *x = ge_graph_node(c->g, t->node);
    int ok = 0;
    uint32_t u;
    if (t->alias_of < 0) continue;
    if (t->alias_of >= (int32_t)p->num_tensors || p->tensors[t->alias_of].alias_of >= 0 ||
        p->tensors[t->alias_of].segment != t->segment || t->offset < p->tensors[t->alias_of].offset ||
        t->offset + t->size > p->tensors[t->alias_of].offset + p->tensors[t->alias_of].size) {
      ck_fail(c, "tensor of '%s' aliases a tensor that does not own bytes around it (%lld %lld)", x->name,
              (long long)t->alias_of, (long long)t->offset);
      break;
    }
    if (c->src[i] >= 0) ok = 1;                              /* view or slice */
    if (t->output == 0 && OP_IN(x, k_elementwise))            /* in place */
      for (u = 0; u < x->num_inputs; u++) {
        int32_t s = ck_tensor(c, x->inputs[u]);
        if (s >= 0 && p->tensors[s].offset == t->offset && p->tensors[s].size == t->size &&
            p->tensors[s].segment == t->segment)
          ok = 1;
      }
    if (t->output >= 0) /* continuous concat input */
      for (u = 0; u < x->num_uses; u++) {
        const ge_node *y = ge_graph_node(c->g, x->uses[u].node);
        if (ck_is_concat(y) && y->inputs[x->uses[u].input].index == t->output &&
            ck_concat_continuous(c, y))
          ok = 1;
      }
    if (!ok)
      ck_fail(c, "tensor of '%s' (%s) claims an alias nothing justifies (output %d, offset %lld)", x->name, x->op,
              (int)t->output, (long long)t->offset);
  }
}

/* Node x reads tensor r's bytes [lo, hi) at step rs; w (a writer tensor)
 * writes bytes overlapping them. */
static void ck_read(checker *c, int32_t r, uint64_t lo, uint64_t hi, int32_t w, int32_t rs) {
  const ge_mem_graph_plan *p = c->p;
  const ge_mem_tensor *tr = &p->tensors[r];
  if (c->bad || lo >= hi) return;
  if (c->kind[r] == K_SAME_BYTES) {
    ck_read(c, c->src[r], lo, hi, w, rs);
    return;
  }
  if (c->kind[r] == K_CONCAT) {
    const ge_node *x = ge_graph_node(c->g, tr->node);
    uint32_t k;
    for (k = 0; k < x->num_inputs; k++) {
      int32_t s = ck_tensor(c, x->inputs[k]);
      uint64_t a = p->tensors[s].offset, b = a + p->tensors[s].size;
      ck_read(c, s, lo > a ? lo : a, hi < b ? hi : b, w, rs);
    }
    return;
  }
  if (r == w) return; /* the value read is w's own */
  {
    int32_t ws = c->step[p->tensors[w].node], wt = c->step[tr->node];
    if (ck_hb(c, ws, wt) || ck_hb(c, rs, ws)) return;
    ck_fail(c, "'%s' writes bytes of the value of '%s' while it is live (steps %lld, read at %lld)",
            ck_name(c, w), ck_name(c, r), (long long)ws, (long long)rs);
  }
}

/* Checks one plan of g (order as planned). Returns 1 when it holds. */
static int check_plan(ge_graph *g, const ge_node_id *order, const ge_mem_graph_plan *p, const ge_mem_graph_desc *d,
                      const hb_oracle *h, char *why, size_t why_n) {
  checker c;
  uint32_t i, j, k;
  uint64_t align = d->alignment ? d->alignment : GE_MEM_DEFAULT_ALIGNMENT;
  uint64_t fm = p->segment_size[GE_MEM_SEG_FEATURE_MAP], fx = p->segment_size[GE_MEM_SEG_FIXED];
  ge_node_id netout = ge_graph_output_node(g);
  memset(&c, 0, sizeof c);
  c.g = g;
  c.p = p;
  c.h = h;
  c.n = ge_graph_node_count(g);
  c.bound = ge_graph_id_bound(g);
  c.step = (int32_t *)malloc(sizeof(int32_t) * (c.bound + 1));
  c.map = (int32_t *)malloc(sizeof(int32_t) * ((size_t)c.bound * 8 + 1));
  c.kind = (uint8_t *)malloc(p->num_tensors + 1);
  c.src = (int32_t *)malloc(sizeof(int32_t) * (p->num_tensors + 1));
  for (i = 0; i < c.bound * 8; i++) c.map[i] = -1;
  for (i = 0; i < c.n; i++) c.step[order[i]] = (int32_t)i;
  /* every output (NetOutput's aside) once; workspaces only with their node */
  for (i = 0; i < p->num_tensors; i++) {
    const ge_mem_tensor *t = &p->tensors[i];
    if (t->output >= 8) continue;
    if (t->output >= 0) {
      if (c.map[(size_t)t->node * 8 + (uint32_t)t->output] >= 0)
        ck_fail(&c, "'%s' output %d listed twice", ge_graph_node(g, t->node)->name, (int)t->output);
      c.map[(size_t)t->node * 8 + (uint32_t)t->output] = (int32_t)i;
    } else if (t->segment != GE_MEM_SEG_WORKSPACE) {
      ck_fail(&c, "workspace of '%s' in segment %s", ge_graph_node(g, t->node)->name, ge_mem_segment_name(t->segment));
    }
  }
  for (i = 0; i < c.n && !c.bad; i++) {
    const ge_node *x = ge_graph_node(g, order[i]);
    if (x->id == netout) continue;
    for (k = 0; k < x->num_outputs && k < 8; k++) {
      int32_t t = c.map[(size_t)x->id * 8 + k];
      if (t < 0) {
        ck_fail(&c, "'%s' output %u is not planned", x->name, (unsigned)k);
        break;
      }
      /* segments and the offsets written into the graph */
      {
        const ge_mem_tensor *pt = &p->tensors[t];
        ge_mem_segment want = GE_MEM_SEG_COUNT;
        if (!strcmp(x->op, "Data")) want = GE_MEM_SEG_INPUT;
        else if (!strcmp(x->op, "Const")) want = GE_MEM_SEG_WEIGHT;
        else if (!strcmp(x->op, "Variable")) want = GE_MEM_SEG_VARIABLE;
        if (want != GE_MEM_SEG_COUNT && pt->segment != want)
          ck_fail(&c, "'%s' is in %s", x->name, ge_mem_segment_name(pt->segment));
        if (pt->size != (uint64_t)ge_shape_numel(&x->outputs[k].shape) * ge_dtype_size(x->outputs[k].dtype))
          ck_fail(&c, "'%s' size %lld", x->name, (long long)pt->size);
        if (x->outputs[k].offset != (in_block(pt->segment) ? (int64_t)pt->offset : -1))
          ck_fail(&c, "'%s' graph offset %lld vs %lld", x->name, (long long)x->outputs[k].offset, (long long)pt->offset);
      }
    }
  }
  /* graph outputs: in OUTPUT unless Data/Const/Variable; the NetOutput's
   * outputs mirror the offsets of its inputs */
  if (netout != GE_NONE && !c.bad) {
    const ge_node *no = ge_graph_node(g, netout);
    for (k = 0; k < no->num_inputs; k++) {
      int32_t t = ck_tensor(&c, no->inputs[k]);
      const ge_node *x = ge_graph_node(g, no->inputs[k].node);
      if (t < 0) continue;
      if (strcmp(x->op, "Data") && strcmp(x->op, "Const") && strcmp(x->op, "Variable") &&
          (p->tensors[t].segment != GE_MEM_SEG_OUTPUT || p->tensors[t].alias_of >= 0))
        ck_fail(&c, "graph output '%s' is in %s", x->name, ge_mem_segment_name(p->tensors[t].segment));
      if (k < no->num_outputs && no->outputs[k].offset != x->outputs[no->inputs[k].index].offset)
        ck_fail(&c, "NetOutput output %u offset %lld", (unsigned)k, (long long)no->outputs[k].offset);
    }
  }
  /* regions, alignment, disjoint segments without reuse */
  for (i = 0; i < p->num_tensors && !c.bad; i++) {
    const ge_mem_tensor *t = &p->tensors[i];
    uint64_t lo = 0, hi = 0;
    switch (t->segment) {
    case GE_MEM_SEG_FEATURE_MAP:
    case GE_MEM_SEG_WORKSPACE: lo = 0, hi = fm; break;
    case GE_MEM_SEG_FIXED: lo = fm, hi = fm + fx; break;
    case GE_MEM_SEG_OUTPUT: lo = fm + fx, hi = p->block_size; break;
    default: lo = 0, hi = p->segment_size[t->segment]; break;
    }
    if (t->size && (t->offset < lo || t->offset + t->size > hi))
      ck_fail(&c, "'%s' in %s is outside its region (%lld, end %lld)", ck_name(&c, (int32_t)i),
              ge_mem_segment_name(t->segment), (long long)t->offset, (long long)hi);
    if (t->alias_of < 0 && t->size && t->offset % align)
      ck_fail(&c, "'%s' offset %lld not aligned to %lld", ck_name(&c, (int32_t)i), (long long)t->offset, (long long)align);
    if (t->alias_of < 0 && t->size &&
        (t->segment == GE_MEM_SEG_OUTPUT || t->segment == GE_MEM_SEG_INPUT || t->segment == GE_MEM_SEG_WEIGHT ||
         t->segment == GE_MEM_SEG_VARIABLE || d->disable_reuse))
      for (j = 0; j < i; j++)
        if (p->tensors[j].alias_of < 0 && p->tensors[j].segment == t->segment && bytes_overlap(t, &p->tensors[j]))
          ck_fail(&c, "'%s' and '%s' share bytes in a segment without reuse", ck_name(&c, (int32_t)i),
                  ck_name(&c, (int32_t)j));
  }
  if (p->block_size != fm + fx + p->segment_size[GE_MEM_SEG_OUTPUT] || fm % align || fx % align)
    ck_fail(&c, "block size %lld, feature map %lld", (long long)p->block_size, (long long)fm);
  /* the core's own checker agrees with the lifetimes the plan reports */
  if (!c.bad) {
    int region;
    for (region = 0; region < 2 && !c.bad; region++) {
      ge_mem_interval *iv = (ge_mem_interval *)malloc(sizeof *iv * (p->num_tensors + 1));
      uint64_t *off = (uint64_t *)malloc(sizeof *off * (p->num_tensors + 1)), base = region ? fm : 0;
      ge_mem_plan_desc pd;
      ge_error err;
      size_t m = 0;
      for (i = 0; i < p->num_tensors; i++) {
        const ge_mem_tensor *t = &p->tensors[i];
        if (t->alias_of >= 0 || !t->size ||
            (region ? t->segment != GE_MEM_SEG_FIXED
                    : t->segment != GE_MEM_SEG_FEATURE_MAP && t->segment != GE_MEM_SEG_WORKSPACE))
          continue;
        memset(&iv[m], 0, sizeof iv[m]);
        iv[m].size = t->size;
        iv[m].first_use = t->first_use;
        iv[m].last_use = t->last_use;
        off[m++] = t->offset - base;
      }
      memset(&pd, 0, sizeof pd);
      pd.alignment = (uint32_t)align;
      pd.streams_ordered = 1;
      if (ge_mem_check_plan(iv, m, &pd, off, region ? fx : fm, &err) != GE_OK)
        ck_fail(&c, "ge_mem_check_plan on the %s: %s", region ? "fixed" : "feature map", err.message);
      free(iv);
      free(off);
    }
  }
  if (!c.bad) ck_classify(&c);
  /* reads against writes */
  for (i = 0; i < p->num_tensors && !c.bad; i++) {
    const ge_mem_tensor *t = &p->tensors[i];
    const ge_node *x = ge_graph_node(g, t->node);
    if (c.kind[i] == K_OUTSIDE || !t->size) continue;
    /* reads of tensor i: its consumers (NetOutput: the end), or for a
     * workspace its own node */
    for (j = 0; j < p->num_tensors && !c.bad; j++) {
      const ge_mem_tensor *w = &p->tensors[j];
      uint64_t lo, hi;
      uint32_t u;
      if (c.kind[j] != K_WRITER || !w->size || !bytes_overlap(t, w)) continue;
      lo = t->offset > w->offset ? t->offset : w->offset;
      hi = t->offset + t->size < w->offset + w->size ? t->offset + t->size : w->offset + w->size;
      if (t->output < 0) {
        ck_read(&c, (int32_t)i, lo, hi, (int32_t)j, c.step[t->node]);
        continue;
      }
      for (u = 0; u < x->num_uses && !c.bad; u++) {
        const ge_node *y = ge_graph_node(g, x->uses[u].node);
        int32_t rs;
        if (y->inputs[x->uses[u].input].index != t->output) continue;
        rs = y->id == netout ? (int32_t)c.n : c.step[y->id];
        /* in place: an element-wise node reading exactly the bytes it writes */
        if (y->id == w->node && w->output == 0 && OP_IN(y, k_elementwise) && w->offset == t->offset &&
            w->size == t->size)
          continue;
        ck_read(&c, (int32_t)i, lo, hi, (int32_t)j, rs);
      }
    }
  }
  if (c.bad) snprintf(why, why_n, "%s", c.msg);
  free(c.step);
  free(c.map);
  free(c.kind);
  free(c.src);
  return !c.bad;
}

/* ------------------------------------------------------- random graphs */

typedef struct rval {
  ge_edge e;
  int64_t r, c;
} rval;

static uint64_t ws_seed;
static uint64_t ws_random(void *user, const ge_graph *g, const ge_node *n) {
  uint64_t h = (n->id + 1) * 0x9E3779B97F4A7C15ull ^ ws_seed;
  (void)user;
  (void)g;
  h ^= h >> 29;
  h *= 0xBF58476D1CE4E5B9ull;
  h ^= h >> 32;
  return (h % 5 == 0) ? 1 + h % 3000 : 0;
}

static const int64_t k_cols[] = {1, 3, 4, 16, 64, 200};

static ge_graph *random_graph(uint64_t seed, uint32_t streams) {
  static const char *const unary[] = {"Relu", "Sigmoid", "Neg", "Exp"};
  static const char *const binary[] = {"Add", "Mul", "Sub"};
  static const char *const views[] = {"Reshape", "Identity", "Flatten", "Squeeze", "Unsqueeze"};
  tu_rng rr, *r = &rr;
  ge_graph *g = tu_new_graph("mem_random");
  rval vals[256];
  uint32_t nv = 0, i, nodes, k;
  ge_edge outs[64];
  uint32_t nout = 0;
  char name[32];
  tu_seed(r, seed);
  for (i = 0, k = 1 + tu_below(r, 3); i < k; i++) {
    snprintf(name, sizeof name, "in%u", (unsigned)i);
    vals[nv].r = 1 + tu_below(r, 5);
    vals[nv].c = k_cols[tu_below(r, 6)];
    vals[nv].e = E(data(g, name, vals[nv].r, vals[nv].c), 0);
    nv++;
  }
  nodes = 4 + tu_below(r, 36);
  for (i = 0; i < nodes && nv < 250; i++) {
    uint32_t what = tu_below(r, 20);
    rval a = vals[tu_below(r, nv)];
    ge_node_id id = GE_NONE;
    if (what < 5) { /* unary */
      id = mk1(g, unary[tu_below(r, 4)], NULL, a.e, a.r, a.c);
      vals[nv].e = E(id, 0), vals[nv].r = a.r, vals[nv].c = a.c, nv++;
    } else if (what < 10) { /* binary: same shape, itself, or a broadcast row */
      rval b = a;
      uint32_t t, pick = tu_below(r, 4);
      if (pick == 0) {
        b.e = E(cnst(g, NULL, 1, a.c), 0);
      } else if (pick < 3) {
        for (t = 0; t < 8; t++) {
          rval x = vals[tu_below(r, nv)];
          if (x.r == a.r && x.c == a.c) {
            b = x;
            break;
          }
        }
      }
      id = tu_below(r, 2) ? mk2(g, binary[tu_below(r, 3)], NULL, a.e, b.e, a.r, a.c)
                          : mk2(g, binary[tu_below(r, 3)], NULL, b.e, a.e, a.r, a.c);
      vals[nv].e = E(id, 0), vals[nv].r = a.r, vals[nv].c = a.c, nv++;
    } else if (what < 13) { /* view */
      uint32_t v = tu_below(r, 5);
      int64_t rr2 = v == 0 ? a.c : a.r, cc = v == 0 ? a.r : a.c;
      id = mk1(g, views[v], NULL, a.e, rr2, cc);
      vals[nv].e = E(id, 0), vals[nv].r = rr2, vals[nv].c = cc, nv++;
    } else if (what < 14) { /* MatMul with a weight */
      int64_t c2 = k_cols[tu_below(r, 6)];
      id = mk2(g, "MatMul", NULL, a.e, E(cnst(g, NULL, a.c, c2), 0), a.r, c2);
      vals[nv].e = E(id, 0), vals[nv].r = a.r, vals[nv].c = c2, nv++;
    } else if (what < 17) { /* PhonyConcat along 0 (sometimes 1), 1..3 inputs of matching dims */
      ge_edge in[3];
      uint32_t m = 1 + tu_below(r, 3), got = 1, t;
      int axis1 = tu_below(r, 4) == 0;
      int64_t sum = axis1 ? a.c : a.r;
      in[0] = a.e;
      for (t = 0; t < 12 && got < m; t++) {
        rval x = vals[tu_below(r, nv)];
        if (axis1 ? x.r == a.r : x.c == a.c) {
          in[got++] = x.e;
          sum += axis1 ? x.c : x.r;
        }
      }
      id = mk(g, "PhonyConcat", NULL, got, in, 1, axis1 ? a.r : sum, axis1 ? sum : a.c);
      TU_OK(ge_node_set_attr_int(g, id, "axis", axis1, NULL));
      vals[nv].e = E(id, 0), vals[nv].r = axis1 ? a.r : sum, vals[nv].c = axis1 ? sum : a.c, nv++;
    } else if (what < 19) { /* PhonySplit in two */
      int axis1 = tu_below(r, 4) == 0;
      int64_t len = axis1 ? a.c : a.r, first;
      int64_t dims[2];
      if (len < 2) {
        i--;
        continue;
      }
      first = 1 + (int64_t)tu_below(r, (uint32_t)len - 1);
      TU_OK(ge_graph_add_node(g, "PhonySplit", NULL, 1, &a.e, 2, &id, NULL));
      TU_OK(ge_node_set_attr_int(g, id, "axis", axis1, NULL));
      for (k = 0; k < 2; k++) {
        int64_t part = k == 0 ? first : len - first;
        dims[0] = axis1 ? a.r : part;
        dims[1] = axis1 ? part : a.c;
        TU_OK(ge_node_set_output(g, id, k, GE_DTYPE_FLOAT32, 2, dims, NULL, NULL));
        vals[nv].e = E(id, (int32_t)k), vals[nv].r = dims[0], vals[nv].c = dims[1], nv++;
      }
    } else { /* ONNX Concat along 1: its own bytes */
      rval b = vals[tu_below(r, nv)];
      if (b.r != a.r) b = a;
      id = mk2(g, "Concat", NULL, a.e, b.e, a.r, a.c + b.c);
      TU_OK(ge_node_set_attr_int(g, id, "axis", 1, NULL));
      vals[nv].e = E(id, 0), vals[nv].r = a.r, vals[nv].c = a.c + b.c, nv++;
    }
    if (id != GE_NONE && tu_below(r, 10) == 0) TU_OK(ge_node_set_attr_int(g, id, GE_MEM_ATTR_FIXED, 1, NULL));
  }
  /* outputs: most sinks, a few random values (maybe twice) */
  for (i = 0; i < nv && nout < 48; i++) {
    const ge_node *x = ge_graph_node(g, vals[i].e.node);
    int used = 0;
    uint32_t u;
    for (u = 0; u < x->num_uses; u++)
      if (ge_graph_node(g, x->uses[u].node)->inputs[x->uses[u].input].index == vals[i].e.index) used = 1;
    if (!used && tu_below(r, 4)) outs[nout++] = vals[i].e;
  }
  for (k = tu_below(r, 4); k > 0; k--) outs[nout++] = vals[tu_below(r, nv)].e;
  if (!nout) outs[nout++] = vals[nv - 1].e;
  outputs(g, nout, outs);
  if (streams > 1) {
    ge_node *x;
    GE_GRAPH_FOREACH(g, x) x->stream = (int32_t)tu_below(r, streams);
  }
  return g;
}

static int g_random_runs, g_random_inplace, g_random_views, g_random_concats, g_random_shared;

/* Plans one random graph with options from the seed and checks it. */
static int random_case(uint64_t seed, char *why, size_t why_n) {
  tu_rng rr, *r = &rr;
  uint32_t streams, n, i;
  ge_graph *g;
  ge_node_id *order, ev[64];
  uint32_t nev = 0;
  hb_oracle h;
  ge_mem_graph_desc d;
  ge_mem_graph_plan p;
  tu_alloc_state as;
  ge_error err;
  int ok = 1, use_order;
  static const uint32_t aligns[] = {0, 64, 512, 4096};
  tu_seed(r, seed ^ 0xABCDEFull);
  streams = tu_below(r, 2) ? 1 : 2 + tu_below(r, 3);
  g = random_graph(seed, streams);
  n = ge_graph_node_count(g);
  order = (ge_node_id *)malloc(sizeof(ge_node_id) * (n + 1));
  use_order = tu_below(r, 3) == 0;
  TU_OK(ge_graph_topo_sort(g, use_order ? GE_TOPO_DFS : GE_TOPO_BFS, order, NULL));
  memset(&d, 0, sizeof d);
  d.allocator = tu_allocator(&as);
  d.alignment = aligns[tu_below(r, 4)];
  d.strategy = (ge_mem_strategy)tu_below(r, GE_MEM_STRATEGY_COUNT);
  d.disable_reuse = tu_below(r, 8) == 0;
  d.disable_inplace = tu_below(r, 4) == 0;
  d.order = use_order ? order : NULL;
  if (tu_below(r, 3) == 0) {
    ws_seed = seed;
    d.workspace_size = ws_random;
  }
  memset(&h, 0, sizeof h);
  if (streams > 1) {
    for (i = tu_below(r, 8); i > 0; i--) {
      uint32_t a = tu_below(r, n), b = tu_below(r, n);
      if (a == b) continue;
      ev[2 * nev] = order[a < b ? a : b];
      ev[2 * nev + 1] = order[a < b ? b : a];
      nev++;
    }
    hb_build(&h, g, order, n, ev, nev);
    d.happens_before = hb_cb;
    d.order_user = &h;
  }
  memset(&err, 0, sizeof err);
  if (ge_mem_plan_graph(g, &d, &p, &err) != GE_OK) {
    snprintf(why, why_n, "plan failed: %.400s", err.message);
    ok = 0;
  } else {
    ok = check_plan(g, order, &p, &d, streams > 1 ? &h : NULL, why, why_n);
    for (i = 0; i < p.num_tensors; i++) {
      const ge_mem_tensor *t = &p.tensors[i];
      const ge_node *x = ge_graph_node(g, t->node);
      if (t->alias_of < 0) continue;
      if (!strcmp(x->op, "PhonyConcat") || !strcmp(x->op, "PhonySplit")) continue;
      if (OP_IN(x, k_views)) g_random_views++;
      else if (OP_IN(x, k_elementwise)) g_random_inplace++;
      else g_random_concats++;
    }
    if (p.feature_map.total < p.feature_map.no_reuse_total) g_random_shared++;
    ge_mem_graph_plan_free(&p);
  }
  if (as.outstanding || as.blocks || as.size_mismatches) {
    if (ok) snprintf(why, why_n, "allocator: %lld bytes in %lld blocks outstanding, %d size mismatches",
                     as.outstanding, as.blocks, as.size_mismatches);
    ok = 0;
  }
  g_random_runs++;
  if (streams > 1) hb_free(&h);
  free(order);
  ge_graph_free(g);
  return ok;
}

GE_TEST(test_random_dags_overlap_checker) {
  uint64_t seed;
  char why[600];
  int failures = 0;
  for (seed = 1; seed <= 12000; seed++)
    if (!random_case(seed, why, sizeof why)) {
      if (failures++ < 3) ge_test__check(0, __FILE__, __LINE__, "seed %llu: %s", (unsigned long long)seed, why);
    }
  GE_CHECK_EQ_INT(failures, 0);
  GE_CHECK_EQ_INT(g_random_runs, 12000);
  /* the random graphs do exercise aliasing and reuse */
  GE_CHECK(g_random_inplace > 100);
  GE_CHECK(g_random_views > 100);
  GE_CHECK(g_random_concats > 100);
  GE_CHECK(g_random_shared > 1000);
  printf("    %d plans; aliases: %d element-wise outputs (in place or in a block), %d views, %d other block "
         "inputs; reuse in %d plans\n",
         g_random_runs, g_random_inplace, g_random_views, g_random_concats, g_random_shared);
}

/* ---------------------------------------------------------- semantics */

static ge_mem_graph_desc desc0(tu_alloc_state *as) {
  ge_mem_graph_desc d;
  memset(&d, 0, sizeof d);
  d.allocator = tu_allocator(as);
  d.alignment = 64;
  return d;
}
static int leak_free(const tu_alloc_state *as) { return as->outstanding == 0 && as->blocks == 0 && !as->size_mismatches; }

static int plan_checked(ge_graph *g, const ge_mem_graph_desc *d, ge_mem_graph_plan *p) {
  ge_error err;
  char why[600];
  uint32_t n = ge_graph_node_count(g);
  ge_node_id *order = (ge_node_id *)malloc(sizeof(ge_node_id) * (n + 1));
  int ok;
  if (ge_mem_plan_graph(g, d, p, &err) != GE_OK) {
    printf("    plan failed: %s\n", err.message);
    free(order);
    return 0;
  }
  if (d->order) memcpy(order, d->order, n * sizeof *order);
  else TU_OK(ge_graph_topo_sort(g, GE_TOPO_BFS, order, NULL));
  ok = check_plan(g, order, p, d, d->happens_before ? (const hb_oracle *)d->order_user : NULL, why, sizeof why);
  if (!ok) printf("    check: %s\n", why);
  free(order);
  return ok;
}

GE_TEST(test_inplace_chain) {
  ge_graph *g = tu_new_graph("chain");
  ge_node_id x = data(g, "x", 4, 4), a, b, c, o;
  ge_mem_graph_desc d;
  ge_mem_graph_plan p;
  tu_alloc_state as;
  a = mk1(g, "Relu", "a", E(x, 0), 4, 4);
  b = mk1(g, "Sigmoid", "b", E(a, 0), 4, 4);
  c = mk1(g, "Neg", "c", E(b, 0), 4, 4);
  o = mk1(g, "Exp", "o", E(c, 0), 4, 4);
  outputs(g, 1, &(ge_edge){o, 0});
  d = desc0(&as);
  GE_REQUIRE(plan_checked(g, &d, &p));
  GE_CHECK_EQ_INT(tn(&p, a, 0)->alias_of, -1);
  GE_CHECK_EQ_INT(tn(&p, b, 0)->alias_of, tix(&p, a, 0));
  GE_CHECK_EQ_INT(tn(&p, c, 0)->alias_of, tix(&p, a, 0)); /* the root owning the bytes */
  GE_CHECK_EQ_INT(tn(&p, c, 0)->offset, tn(&p, a, 0)->offset);
  GE_CHECK_EQ_INT(tn(&p, o, 0)->segment, GE_MEM_SEG_OUTPUT); /* a graph output never runs in place */
  GE_CHECK_EQ_INT(tn(&p, o, 0)->alias_of, -1);
  GE_CHECK_EQ_INT(tn(&p, a, 0)->first_use, 1);
  GE_CHECK_EQ_INT(tn(&p, a, 0)->last_use, 4); /* held until o reads c */
  GE_CHECK_EQ_INT(p.segment_size[GE_MEM_SEG_FEATURE_MAP], 64);
  GE_CHECK_EQ_INT(ge_graph_node(g, c)->outputs[0].offset, (int64_t)tn(&p, a, 0)->offset);
  ge_mem_graph_plan_free(&p);
  d.disable_inplace = 1;
  GE_REQUIRE(plan_checked(g, &d, &p));
  GE_CHECK_EQ_INT(tn(&p, b, 0)->alias_of, -1);
  GE_CHECK_EQ_INT(tn(&p, c, 0)->alias_of, -1);
  GE_CHECK_EQ_INT(tn(&p, a, 0)->last_use, 2);
  GE_CHECK(!bytes_overlap(tn(&p, a, 0), tn(&p, b, 0)));
  GE_CHECK(!bytes_overlap(tn(&p, b, 0), tn(&p, c, 0)));
  ge_mem_graph_plan_free(&p);
  GE_CHECK(leak_free(&as));
  ge_graph_free(g);
}

GE_TEST(test_inplace_only_when_input_dies) {
  ge_graph *g = tu_new_graph("dies");
  ge_node_id x = data(g, "x", 4, 4), a, b, c, twice, t2, o, w;
  ge_edge outs[2];
  ge_mem_graph_desc d;
  ge_mem_graph_plan p;
  tu_alloc_state as;
  a = mk1(g, "Relu", "a", E(x, 0), 4, 4);
  b = mk1(g, "Sigmoid", "b", E(a, 0), 4, 4);   /* a still read by c: not in place */
  c = mk2(g, "Add", "c", E(a, 0), E(b, 0), 4, 4); /* both die here: in place over a */
  twice = mk2(g, "Mul", "twice", E(c, 0), E(c, 0), 4, 4); /* reads c twice: not in place */
  t2 = mk1(g, "Neg", "t2", E(twice, 0), 4, 4);
  w = mk1(g, "Relu", "w", E(cnst(g, "row", 1, 4), 0), 1, 4); /* small */
  o = mk2(g, "Add", "o", E(w, 0), E(t2, 0), 4, 4);     /* may overwrite t2, not w */
  outs[0] = E(mk1(g, "Exp", "fin", E(o, 0), 4, 4), 0);
  outs[1] = E(x, 0);
  outputs(g, 2, outs);
  d = desc0(&as);
  GE_REQUIRE(plan_checked(g, &d, &p));
  GE_CHECK_EQ_INT(tn(&p, b, 0)->alias_of, -1);
  GE_CHECK_EQ_INT(tn(&p, c, 0)->alias_of, tix(&p, a, 0));
  GE_CHECK_EQ_INT(tn(&p, twice, 0)->alias_of, -1);
  GE_CHECK_EQ_INT(tn(&p, t2, 0)->alias_of, tix(&p, twice, 0));
  GE_CHECK_EQ_INT(tn(&p, o, 0)->alias_of, tix(&p, twice, 0));
  GE_CHECK_EQ_INT(tn(&p, x, 0)->segment, GE_MEM_SEG_INPUT); /* a graph output that is an input stays there */
  GE_CHECK_EQ_INT(ge_graph_node(g, x)->outputs[0].offset, -1);
  ge_mem_graph_plan_free(&p);
  d.disable_reuse = 1; /* no in place, no sharing */
  GE_REQUIRE(plan_checked(g, &d, &p));
  GE_CHECK_EQ_INT(tn(&p, c, 0)->alias_of, -1);
  GE_CHECK_EQ_INT(tn(&p, o, 0)->alias_of, -1);
  GE_CHECK_EQ_INT(p.segment_size[GE_MEM_SEG_FEATURE_MAP], 64 * 6 + 64);
  GE_CHECK_EQ_INT(p.feature_map.strategy, GE_MEM_STRATEGY_NO_REUSE);
  ge_mem_graph_plan_free(&p);
  GE_CHECK(leak_free(&as));
  ge_graph_free(g);
}

GE_TEST(test_views) {
  ge_graph *g = tu_new_graph("views");
  ge_node_id x = data(g, "x", 2, 8), a, v, vv, n, dv, ov, cv;
  ge_edge outs[3];
  ge_mem_graph_desc d;
  ge_mem_graph_plan p;
  tu_alloc_state as;
  a = mk1(g, "Relu", "a", E(x, 0), 2, 8);
  v = mk1(g, "Reshape", "v", E(a, 0), 8, 2);
  vv = mk1(g, "Flatten", "vv", E(v, 0), 1, 16);
  n = mk1(g, "MatMul", "n", E(vv, 0), 1, 16);
  dv = mk1(g, "Squeeze", "dv", E(x, 0), 2, 8); /* a view of an input */
  ov = mk1(g, "Identity", "ov", E(n, 0), 1, 16); /* a view that is a graph output: own bytes */
  cv = mk1(g, "Unsqueeze", "cv", E(cnst(g, "w", 2, 8), 0), 2, 8);
  outs[0] = E(ov, 0);
  outs[1] = E(mk2(g, "Add", "s", E(dv, 0), E(cv, 0), 2, 8), 0);
  outs[2] = E(ov, 0); /* the same tensor twice: one tensor */
  outputs(g, 3, outs);
  d = desc0(&as);
  GE_REQUIRE(plan_checked(g, &d, &p));
  GE_CHECK_EQ_INT(tn(&p, v, 0)->alias_of, tix(&p, a, 0));
  GE_CHECK_EQ_INT(tn(&p, vv, 0)->alias_of, tix(&p, a, 0));
  GE_CHECK_EQ_INT(tn(&p, vv, 0)->offset, tn(&p, a, 0)->offset);
  GE_CHECK_EQ_INT(tn(&p, a, 0)->last_use, ge_graph_node(g, n)->topo_id); /* held for the view's reader */
  GE_CHECK(!bytes_overlap(tn(&p, a, 0), tn(&p, n, 0)));
  GE_CHECK_EQ_INT(tn(&p, dv, 0)->segment, GE_MEM_SEG_INPUT);
  GE_CHECK_EQ_INT(tn(&p, dv, 0)->alias_of, tix(&p, x, 0));
  GE_CHECK_EQ_INT(ge_graph_node(g, dv)->outputs[0].offset, -1);
  GE_CHECK_EQ_INT(tn(&p, cv, 0)->segment, GE_MEM_SEG_WEIGHT);
  GE_CHECK_EQ_INT(tn(&p, ov, 0)->segment, GE_MEM_SEG_OUTPUT);
  GE_CHECK_EQ_INT(tn(&p, ov, 0)->alias_of, -1);
  GE_CHECK_EQ_INT(p.segment_size[GE_MEM_SEG_OUTPUT], 128); /* ov (64) and s (64): ov once */
  GE_CHECK_EQ_INT(p.segment_size[GE_MEM_SEG_INPUT], 64);
  GE_CHECK_EQ_INT(p.segment_size[GE_MEM_SEG_WEIGHT], 64);
  {
    const ge_node *no = ge_graph_node(g, ge_graph_output_node(g));
    GE_CHECK_EQ_INT(no->outputs[0].offset, (int64_t)tn(&p, ov, 0)->offset);
    GE_CHECK_EQ_INT(no->outputs[2].offset, (int64_t)tn(&p, ov, 0)->offset);
    GE_CHECK(no->outputs[1].offset != no->outputs[0].offset);
  }
  ge_mem_graph_plan_free(&p);
  GE_CHECK(leak_free(&as));
  ge_graph_free(g);
}

GE_TEST(test_phony_concat_continuous) {
  ge_graph *g = tu_new_graph("concat");
  ge_node_id x = data(g, "x", 2, 4), y = data(g, "y", 3, 4), a, b, cc, n, nd, bad, c2, axis1, e1, e2;
  ge_edge in[3], outs[4];
  ge_mem_graph_desc d;
  ge_mem_graph_plan p;
  tu_alloc_state as;
  a = mk1(g, "Relu", "a", E(x, 0), 2, 4);
  b = mk1(g, "Relu", "b", E(y, 0), 3, 4);
  in[0] = E(a, 0);
  in[1] = E(b, 0);
  cc = mk(g, "PhonyConcat", "cc", 2, in, 1, 5, 4);
  n = mk1(g, "Neg", "n", E(cc, 0), 5, 4);
  /* an input that is a graph input: the concat keeps its own bytes */
  in[0] = E(x, 0);
  in[1] = E(mk1(g, "Sigmoid", "sg", E(y, 0), 3, 4), 0);
  nd = mk(g, "PhonyConcat", "nd", 2, in, 1, 5, 4);
  /* b again: already inside cc */
  in[0] = E(b, 0);
  in[1] = E(b, 0);
  bad = mk(g, "PhonyConcat", "bad", 2, in, 1, 6, 4);
  /* along axis 1 with 2 rows: not contiguous */
  e1 = mk1(g, "Exp", "e1", E(x, 0), 2, 4);
  e2 = mk1(g, "Exp", "e2", E(x, 0), 2, 4);
  in[0] = E(e1, 0);
  in[1] = E(e2, 0);
  axis1 = mk(g, "PhonyConcat", "axis1", 2, in, 1, 2, 8);
  TU_OK(ge_node_set_attr_int(g, axis1, "axis", 1, NULL));
  /* a concat that is a graph output: its inputs live in the output segment */
  in[0] = E(mk1(g, "Abs", "p", E(x, 0), 2, 4), 0);
  in[1] = E(mk1(g, "Abs", "q", E(y, 0), 3, 4), 0);
  c2 = mk(g, "PhonyConcat", "c2", 2, in, 1, 5, 4);
  outs[0] = E(n, 0);
  outs[1] = E(mk2(g, "Add", "s", E(nd, 0), E(bad, 0), 5, 4), 0); /* shapes only matter for sizes */
  outs[2] = E(axis1, 0);
  outs[3] = E(c2, 0);
  outputs(g, 4, outs);
  d = desc0(&as);
  d.alignment = 512;
  GE_REQUIRE(plan_checked(g, &d, &p));
  GE_CHECK_EQ_INT(tn(&p, a, 0)->alias_of, tix(&p, cc, 0));
  GE_CHECK_EQ_INT(tn(&p, b, 0)->alias_of, tix(&p, cc, 0));
  GE_CHECK_EQ_INT(tn(&p, a, 0)->offset, tn(&p, cc, 0)->offset);
  GE_CHECK_EQ_INT(tn(&p, b, 0)->offset, tn(&p, cc, 0)->offset + 32); /* back to back, no padding */
  { /* held from the first input */
    int32_t ta = ge_graph_node(g, a)->topo_id, tb = ge_graph_node(g, b)->topo_id;
    GE_CHECK_EQ_INT(tn(&p, cc, 0)->first_use, ta < tb ? ta : tb);
  }
  GE_CHECK_EQ_INT(tn(&p, nd, 0)->alias_of, -1);
  GE_CHECK(!bytes_overlap(tn(&p, nd, 0), tn(&p, ge_graph_find(g, "sg"), 0)));
  GE_CHECK_EQ_INT(tn(&p, bad, 0)->alias_of, -1);
  GE_CHECK_EQ_INT(tn(&p, e1, 0)->alias_of, -1);
  GE_CHECK_EQ_INT(tn(&p, e2, 0)->alias_of, -1);
  GE_CHECK_EQ_INT(tn(&p, c2, 0)->segment, GE_MEM_SEG_OUTPUT);
  GE_CHECK_EQ_INT(tn(&p, ge_graph_find(g, "p"), 0)->segment, GE_MEM_SEG_OUTPUT);
  GE_CHECK_EQ_INT(tn(&p, ge_graph_find(g, "q"), 0)->offset, tn(&p, c2, 0)->offset + 32);
  ge_mem_graph_plan_free(&p);
  d.disable_reuse = 1; /* blocks stay: they are op semantics, not reuse */
  GE_REQUIRE(plan_checked(g, &d, &p));
  GE_CHECK_EQ_INT(tn(&p, b, 0)->offset, tn(&p, cc, 0)->offset + 32);
  ge_mem_graph_plan_free(&p);
  GE_CHECK(leak_free(&as));
  ge_graph_free(g);
}

GE_TEST(test_phony_split_slices) {
  ge_graph *g = tu_new_graph("split");
  ge_node_id x = data(g, "x", 4, 4), a, s, s1, u, v;
  int64_t d1[2] = {1, 4}, d3[2] = {3, 4};
  ge_edge outs[2];
  ge_mem_graph_desc d;
  ge_mem_graph_plan p;
  tu_alloc_state as;
  a = mk1(g, "Relu", "a", E(x, 0), 4, 4);
  TU_OK(ge_graph_add_node(g, "PhonySplit", "s", 1, &(ge_edge){a, 0}, 2, &s, NULL));
  TU_OK(ge_node_set_output(g, s, 0, GE_DTYPE_FLOAT32, 2, d1, NULL, NULL));
  TU_OK(ge_node_set_output(g, s, 1, GE_DTYPE_FLOAT32, 2, d3, NULL, NULL));
  u = mk1(g, "Neg", "u", E(s, 0), 1, 4);
  v = mk1(g, "Neg", "v", E(s, 1), 3, 4);
  /* along axis 1 of a 4x4: not contiguous, own bytes */
  TU_OK(ge_graph_add_node(g, "PhonySplit", "s1", 1, &(ge_edge){x, 0}, 2, &s1, NULL));
  TU_OK(ge_node_set_attr_int(g, s1, "axis", 1, NULL));
  {
    int64_t dd[2] = {4, 2};
    TU_OK(ge_node_set_output(g, s1, 0, GE_DTYPE_FLOAT32, 2, dd, NULL, NULL));
    TU_OK(ge_node_set_output(g, s1, 1, GE_DTYPE_FLOAT32, 2, dd, NULL, NULL));
  }
  outs[0] = E(mk2(g, "Add", "uv", E(u, 0), E(v, 0), 3, 4), 0);
  outs[1] = E(mk2(g, "Add", "ss", E(s1, 0), E(s1, 1), 4, 2), 0);
  outputs(g, 2, outs);
  d = desc0(&as);
  d.alignment = 16;
  GE_REQUIRE(plan_checked(g, &d, &p));
  GE_CHECK_EQ_INT(tn(&p, s, 0)->alias_of, tix(&p, a, 0));
  GE_CHECK_EQ_INT(tn(&p, s, 1)->alias_of, tix(&p, a, 0));
  GE_CHECK_EQ_INT(tn(&p, s, 0)->offset, tn(&p, a, 0)->offset);
  GE_CHECK_EQ_INT(tn(&p, s, 1)->offset, tn(&p, a, 0)->offset + 16);
  GE_CHECK_EQ_INT(tn(&p, s1, 0)->alias_of, -1);
  GE_CHECK_EQ_INT(tn(&p, s1, 0)->segment, GE_MEM_SEG_FEATURE_MAP);
  ge_mem_graph_plan_free(&p);
  GE_CHECK(leak_free(&as));
  ge_graph_free(g);
}

static uint64_t ws_fixed(void *user, const ge_graph *g, const ge_node *n) {
  (void)g;
  return !strcmp(n->op, "MatMul") ? *(const uint64_t *)user : 0;
}

GE_TEST(test_fixed_workspace_and_block) {
  ge_graph *g = tu_new_graph("fixed");
  ge_node_id x = data(g, "x", 2, 4), a, f, m, o;
  ge_mem_graph_desc d;
  ge_mem_graph_plan p;
  tu_alloc_state as;
  uint64_t ws = 100;
  const ge_mem_tensor *wt;
  a = mk1(g, "Relu", "a", E(x, 0), 2, 4);
  f = mk1(g, "Sigmoid", "f", E(a, 0), 2, 4);
  TU_OK(ge_node_set_attr_int(g, f, GE_MEM_ATTR_FIXED, 1, NULL));
  m = mk2(g, "MatMul", "m", E(f, 0), E(cnst(g, "w", 4, 4), 0), 2, 4);
  o = mk1(g, "Neg", "o", E(m, 0), 2, 4);
  outputs(g, 1, &(ge_edge){o, 0});
  d = desc0(&as);
  d.alignment = 256;
  d.workspace_size = ws_fixed;
  d.workspace_user = &ws;
  GE_REQUIRE(plan_checked(g, &d, &p));
  GE_CHECK_EQ_INT(tn(&p, f, 0)->segment, GE_MEM_SEG_FIXED);
  GE_CHECK_EQ_INT(tn(&p, f, 0)->alias_of, -1); /* a fixed output never runs in place */
  GE_CHECK_EQ_INT(tn(&p, f, 0)->offset, p.segment_size[GE_MEM_SEG_FEATURE_MAP]);
  GE_CHECK_EQ_INT(p.segment_size[GE_MEM_SEG_FIXED], 256);
  wt = tn(&p, m, -1);
  GE_REQUIRE(wt != NULL);
  GE_CHECK_EQ_INT(wt->segment, GE_MEM_SEG_WORKSPACE);
  GE_CHECK_EQ_INT(wt->size, 100);
  GE_CHECK_EQ_INT(wt->first_use, wt->last_use);
  GE_CHECK_EQ_INT(p.segment_size[GE_MEM_SEG_WORKSPACE], 256);
  GE_CHECK(!bytes_overlap(wt, tn(&p, m, 0)));
  GE_CHECK_EQ_INT(tn(&p, o, 0)->offset, p.segment_size[GE_MEM_SEG_FEATURE_MAP] + 256);
  GE_CHECK_EQ_INT(p.block_size, p.segment_size[GE_MEM_SEG_FEATURE_MAP] + 256 + 256);
  GE_CHECK_EQ_INT(p.segment_size[GE_MEM_SEG_WEIGHT], 256);
  GE_CHECK_EQ_INT(p.num_tensors, 7); /* x, a, f, w, m, o, workspace of m */
  GE_CHECK_STR(ge_mem_segment_name(GE_MEM_SEG_FIXED), "fixed");
  GE_CHECK_STR(ge_mem_segment_name(GE_MEM_SEG_WORKSPACE), "workspace");
  GE_CHECK_STR(ge_mem_segment_name((ge_mem_segment)99), "invalid");
  ge_mem_graph_plan_free(&p);
  ge_mem_graph_plan_free(&p); /* zeroed: a second free is harmless */
  ge_mem_graph_plan_free(NULL);
  GE_CHECK(leak_free(&as));
  ge_graph_free(g);
}

/* Two branches on two streams: s0 runs a then b, s1 runs c then e. */
GE_TEST(test_cross_stream) {
  ge_graph *g = tu_new_graph("streams");
  ge_node_id x = data(g, "x", 4, 4), a, b, c, e, order[16];
  ge_edge outs[2];
  ge_mem_graph_desc d;
  ge_mem_graph_plan p;
  tu_alloc_state as;
  hb_oracle h;
  ge_node_id ev[2];
  uint32_t n;
  int round;
  a = mk1(g, "Relu", "a", E(x, 0), 4, 4);
  b = mk1(g, "MatMul", "b", E(a, 0), 4, 4);
  c = mk1(g, "Sigmoid", "c", E(x, 0), 4, 4);
  e = mk1(g, "MatMul", "e", E(c, 0), 4, 4);
  outs[0] = E(b, 0);
  outs[1] = E(e, 0);
  outputs(g, 2, outs);
  n = ge_graph_node_count(g);
  order[0] = x, order[1] = a, order[2] = b, order[3] = c, order[4] = e, order[5] = ge_graph_output_node(g);
  ge_graph_node(g, x)->stream = 0;
  ge_graph_node(g, a)->stream = 0;
  ge_graph_node(g, b)->stream = 0;
  ge_graph_node(g, c)->stream = 1;
  ge_graph_node(g, e)->stream = 1;
  ge_graph_node(g, order[5])->stream = 0;
  GE_REQUIRE(n == 6);
  d = desc0(&as);
  d.order = order;
  /* one stream: c may take a's bytes (a is dead after b) */
  GE_REQUIRE(plan_checked(g, &d, &p));
  GE_CHECK_EQ_INT(tn(&p, a, 0)->last_use, 2);
  GE_CHECK_EQ_INT(p.segment_size[GE_MEM_SEG_FEATURE_MAP], 64);
  ge_mem_graph_plan_free(&p);
  for (round = 0; round < 2; round++) {
    ev[0] = b; /* round 1: an event b -> c orders the branches */
    ev[1] = c;
    hb_build(&h, g, order, n, ev, (uint32_t)round);
    d.happens_before = hb_cb;
    d.order_user = &h;
    GE_REQUIRE(plan_checked(g, &d, &p));
    if (round == 0) { /* nothing orders a's uses before c: a is held past c */
      GE_CHECK(tn(&p, a, 0)->last_use >= 3);
      GE_CHECK(!bytes_overlap(tn(&p, a, 0), tn(&p, c, 0)));
      GE_CHECK_EQ_INT(p.segment_size[GE_MEM_SEG_FEATURE_MAP], 128);
    } else {
      GE_CHECK_EQ_INT(tn(&p, a, 0)->last_use, 2);
      GE_CHECK_EQ_INT(p.segment_size[GE_MEM_SEG_FEATURE_MAP], 64);
    }
    GE_CHECK_EQ_INT(tn(&p, c, 0)->stream, 1);
    ge_mem_graph_plan_free(&p);
    hb_free(&h);
  }
  GE_CHECK(leak_free(&as));
  ge_graph_free(g);
}

/* In place across streams: a is read on s0 by r and overwritten on s1 by
 * the Neg that runs later in the order; only an event r -> neg allows it. */
GE_TEST(test_cross_stream_inplace) {
  ge_graph *g = tu_new_graph("streams_inplace");
  ge_node_id x = data(g, "x", 4, 4), a, r, ng, order[8], ev[2];
  ge_edge outs[2];
  ge_mem_graph_desc d;
  ge_mem_graph_plan p;
  tu_alloc_state as;
  hb_oracle h;
  int round;
  a = mk1(g, "Relu", "a", E(x, 0), 4, 4);
  r = mk1(g, "MatMul", "r", E(a, 0), 4, 4);
  ng = mk1(g, "Neg", "ng", E(a, 0), 4, 4);
  outs[0] = E(mk1(g, "Exp", "o1", E(r, 0), 4, 4), 0);
  outs[1] = E(mk1(g, "Exp", "o2", E(ng, 0), 4, 4), 0);
  outputs(g, 2, outs);
  TU_OK(ge_graph_topo_sort(g, GE_TOPO_BFS, order, NULL));
  GE_REQUIRE(ge_graph_node(g, r)->topo_id < ge_graph_node(g, ng)->topo_id);
  d = desc0(&as);
  { /* with an oracle, every node needs a stream */
    ge_error err;
    hb_build(&h, g, order, ge_graph_node_count(g), NULL, 0);
    d.happens_before = hb_cb;
    d.order_user = &h;
    GE_CHECK_EQ_INT(ge_mem_plan_graph(g, &d, &p, &err), GE_ERR_INVALID);
    GE_CHECK(strstr(err.message, "'x' has no stream") != NULL);
    hb_free(&h);
  }
  {
    ge_node *nd;
    GE_GRAPH_FOREACH(g, nd) nd->stream = 0;
  }
  ge_graph_node(g, ng)->stream = 1;
  ge_graph_node(g, outs[1].node)->stream = 1;
  for (round = 0; round < 2; round++) {
    ev[0] = r;
    ev[1] = ng;
    hb_build(&h, g, order, ge_graph_node_count(g), ev, (uint32_t)round);
    d.happens_before = hb_cb;
    d.order_user = &h;
    GE_REQUIRE(plan_checked(g, &d, &p));
    GE_CHECK_EQ_INT(tn(&p, ng, 0)->alias_of, round ? tix(&p, a, 0) : -1);
    ge_mem_graph_plan_free(&p);
    hb_free(&h);
  }
  GE_CHECK(leak_free(&as));
  ge_graph_free(g);
}

GE_TEST(test_errors) {
  ge_graph *g = tu_new_graph("errors");
  ge_node_id x = data(g, "x", 2, 2), a, b, order[8];
  int64_t dyn[2] = {-1, 2};
  ge_mem_graph_desc d;
  ge_mem_graph_plan p;
  ge_error err;
  tu_alloc_state as;
  a = mk1(g, "Relu", "relu_a", E(x, 0), 2, 2);
  b = mk1(g, "Neg", "neg_b", E(a, 0), 2, 2);
  outputs(g, 1, &(ge_edge){b, 0});
  d = desc0(&as);
  /* unknown shape */
  TU_OK(ge_node_set_output(g, a, 0, GE_DTYPE_FLOAT32, 2, dyn, NULL, NULL));
  GE_CHECK_EQ_INT(ge_mem_plan_graph(g, &d, &p, &err), GE_ERR_SHAPE);
  GE_CHECK(strstr(err.message, "relu_a") != NULL);
  GE_CHECK(strstr(err.message, "not static") != NULL);
  GE_CHECK(p.tensors == NULL && p.num_tensors == 0);
  GE_CHECK(leak_free(&as));
  TU_OK(ge_node_set_output(g, a, 0, GE_DTYPE_FLOAT32, GE_RANK_UNKNOWN, NULL, NULL, NULL));
  GE_CHECK_EQ_INT(ge_mem_plan_graph(g, &d, &p, &err), GE_ERR_SHAPE);
  GE_CHECK(strstr(err.message, "relu_a") != NULL);
  /* no dtype */
  TU_OK(ge_node_set_output(g, a, 0, GE_DTYPE_UNDEFINED, 1, dyn + 1, NULL, NULL));
  GE_CHECK_EQ_INT(ge_mem_plan_graph(g, &d, &p, &err), GE_ERR_SHAPE);
  GE_CHECK(strstr(err.message, "relu_a") != NULL);
  /* strings */
  TU_OK(ge_node_set_output(g, a, 0, GE_DTYPE_STRING, 1, dyn + 1, NULL, NULL));
  GE_CHECK_EQ_INT(ge_mem_plan_graph(g, &d, &p, &err), GE_ERR_UNSUPPORTED);
  GE_CHECK(strstr(err.message, "relu_a") != NULL && strstr(err.message, "string") != NULL);
  TU_OK(ge_node_set_output(g, a, 0, GE_DTYPE_FLOAT32, 1, dyn + 1, NULL, NULL));
  /* alignment */
  d.alignment = 48;
  GE_CHECK_EQ_INT(ge_mem_plan_graph(g, &d, &p, &err), GE_ERR_INVALID);
  GE_CHECK(strstr(err.message, "48") != NULL);
  d.alignment = 64;
  d.strategy = GE_MEM_STRATEGY_COUNT;
  GE_CHECK_EQ_INT(ge_mem_plan_graph(g, &d, &p, &err), GE_ERR_INVALID);
  d.strategy = GE_MEM_STRATEGY_BEST;
  /* orders: a node twice, a node that is not there, not topological */
  TU_OK(ge_graph_topo_sort(g, GE_TOPO_BFS, order, NULL));
  d.order = order;
  OK(ge_mem_plan_graph(g, &d, &p, &err));
  ge_mem_graph_plan_free(&p);
  order[2] = order[1];
  GE_CHECK_EQ_INT(ge_mem_plan_graph(g, &d, &p, &err), GE_ERR_INVALID);
  GE_CHECK(strstr(err.message, "twice") != NULL);
  order[2] = 77;
  GE_CHECK_EQ_INT(ge_mem_plan_graph(g, &d, &p, &err), GE_ERR_INVALID);
  TU_OK(ge_graph_topo_sort(g, GE_TOPO_BFS, order, NULL));
  {
    ge_node_id t = order[1];
    order[1] = order[2];
    order[2] = t;
  }
  GE_CHECK_EQ_INT(ge_mem_plan_graph(g, &d, &p, &err), GE_ERR_INVALID);
  GE_CHECK(strstr(err.message, "topological") != NULL);
  d.order = NULL;
  /* a cycle */
  TU_OK(ge_graph_set_input(g, a, 0, E(b, 0), NULL));
  GE_CHECK_EQ_INT(ge_mem_plan_graph(g, &d, &p, &err), GE_ERR_CYCLE);
  GE_CHECK(leak_free(&as));
  GE_CHECK_EQ_INT(ge_mem_plan_graph(g, &d, NULL, &err), GE_ERR_INVALID);
  GE_CHECK_EQ_INT(ge_mem_plan_graph(NULL, &d, &p, &err), GE_ERR_INVALID);
  ge_graph_free(g);
}

/* Every allocation failure is an error that frees what was taken. */
GE_TEST(test_out_of_memory) {
  int64_t k;
  int done = 0;
  for (k = 0; k < 200 && !done; k++) {
    ge_graph *g = random_graph(99, 3);
    uint32_t n = ge_graph_node_count(g);
    ge_node_id *order = (ge_node_id *)malloc(sizeof(ge_node_id) * n);
    hb_oracle h;
    ge_mem_graph_desc d;
    ge_mem_graph_plan p;
    ge_error err;
    tu_alloc_state as;
    ge_status st;
    TU_OK(ge_graph_topo_sort(g, GE_TOPO_BFS, order, NULL));
    hb_build(&h, g, order, n, NULL, 0);
    d = desc0(&as);
    as.fail_after = k;
    d.happens_before = hb_cb;
    d.order_user = &h;
    ws_seed = 5;
    d.workspace_size = ws_random;
    st = ge_mem_plan_graph(g, &d, &p, &err);
    if (st == GE_OK) {
      done = 1;
      ge_mem_graph_plan_free(&p);
    } else {
      GE_CHECK_EQ_INT(st, GE_ERR_NOMEM);
      GE_CHECK(p.tensors == NULL);
    }
    GE_CHECK(leak_free(&as));
    hb_free(&h);
    free(order);
    ge_graph_free(g);
  }
  GE_CHECK(done);
  GE_CHECK(k > 5);
}

/* The adapter's op lists are sorted (they are binary searched). */
GE_TEST(test_op_lists_sorted) {
  size_t i;
  for (i = 1; i < sizeof ge__mg_inplace_unary / sizeof *ge__mg_inplace_unary; i++)
    GE_CHECK(strcmp(ge__mg_inplace_unary[i - 1], ge__mg_inplace_unary[i]) < 0);
  for (i = 1; i < sizeof ge__mg_inplace_nary / sizeof *ge__mg_inplace_nary; i++)
    GE_CHECK(strcmp(ge__mg_inplace_nary[i - 1], ge__mg_inplace_nary[i]) < 0);
  for (i = 1; i < sizeof ge__mg_view_ops / sizeof *ge__mg_view_ops; i++)
    GE_CHECK(strcmp(ge__mg_view_ops[i - 1], ge__mg_view_ops[i]) < 0);
}

/* Zero-size tensors, a graph with no outputs, a variable. */
GE_TEST(test_edge_cases) {
  ge_graph *g = tu_new_graph("edges");
  ge_node_id x = data(g, "x", 0, 4), a, v, dead;
  ge_mem_graph_desc d;
  ge_mem_graph_plan p;
  tu_alloc_state as;
  int64_t dims[1] = {3};
  a = mk1(g, "Relu", "a", E(x, 0), 0, 4);
  TU_OK(ge_graph_add_node(g, "Variable", "var", 0, NULL, 1, &v, NULL));
  TU_OK(ge_node_set_output(g, v, 0, GE_DTYPE_INT64, 1, dims, NULL, NULL));
  dead = mk1(g, "Neg", "dead", E(a, 0), 0, 4);
  (void)dead;
  mk1(g, "Sigmoid", "unused", E(v, 0), 1, 3); /* no consumer, not an output: still bytes */
  d = desc0(&as);
  GE_REQUIRE(plan_checked(g, &d, &p));
  GE_CHECK_EQ_INT(tn(&p, v, 0)->segment, GE_MEM_SEG_VARIABLE);
  GE_CHECK_EQ_INT(p.segment_size[GE_MEM_SEG_VARIABLE], 64);
  GE_CHECK_EQ_INT(tn(&p, a, 0)->size, 0);
  GE_CHECK_EQ_INT(tn(&p, ge_graph_find(g, "unused"), 0)->size, 12);
  GE_CHECK_EQ_INT(p.segment_size[GE_MEM_SEG_FEATURE_MAP], 64);
  GE_CHECK_EQ_INT(p.segment_size[GE_MEM_SEG_OUTPUT], 0);
  ge_mem_graph_plan_free(&p);
  GE_CHECK(leak_free(&as));
  ge_graph_free(g);
  /* an empty graph */
  g = tu_new_graph("empty");
  d = desc0(&as);
  OK(ge_mem_plan_graph(g, &d, &p, NULL));
  GE_CHECK_EQ_INT(p.num_tensors, 0);
  GE_CHECK_EQ_INT(p.block_size, 0);
  ge_mem_graph_plan_free(&p);
  GE_CHECK(leak_free(&as));
  ge_graph_free(g);
}

int main(int argc, char **argv) {
  ge_test_init(argc, argv);
  GE_RUN(test_op_lists_sorted);
  GE_RUN(test_inplace_chain);
  GE_RUN(test_inplace_only_when_input_dies);
  GE_RUN(test_views);
  GE_RUN(test_phony_concat_continuous);
  GE_RUN(test_phony_split_slices);
  GE_RUN(test_fixed_workspace_and_block);
  GE_RUN(test_cross_stream);
  GE_RUN(test_cross_stream_inplace);
  GE_RUN(test_errors);
  GE_RUN(test_out_of_memory);
  GE_RUN(test_edge_cases);
  GE_RUN(test_random_dags_overlap_checker);
  return ge_test_main_end();
}

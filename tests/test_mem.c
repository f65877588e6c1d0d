/* test_mem.c — ge_mem.h: the interval planner, the overlap checker and the
 * runtime allocators. Graph-free: only ge_mem.h.
 *
 * The planner is checked by the checker (and, for small sets, by a
 * brute-force pairwise check) on seeded random interval sets of several
 * families; the checker itself is checked on hand-made bad plans and
 * against the brute force on corrupted plans. */
#define GE_MEM_IMPLEMENTATION
#include "ge_mem.h"

#include "tests/test.h"
#include "tests/rng.h"
#include "tests/check_alloc.h"
#include "tests/interval_gen.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ helpers */

/* log-uniform in [1, 2^bits) */
static uint64_t rng_size(tu_rng *r, int bits) {
  int b = (int)tu_below(r, (uint32_t)bits);
  return ((uint64_t)1 << b) + (tu_next(r) & (((uint64_t)1 << b) - 1));
}

static uint64_t eff_align(const ge_mem_interval *v, const ge_mem_plan_desc *d) {
  return v->alignment ? v->alignment : (d && d->alignment ? d->alignment : GE_MEM_DEFAULT_ALIGNMENT);
}

/* The brute force: 0 when no two intervals that may be live together share
 * a byte and everything is aligned and within total. */
static int brute_check(const ge_mem_interval *iv, size_t n, const ge_mem_plan_desc *d, const uint64_t *off,
                       uint64_t total) {
  size_t i, j;
  int ordered = d && d->streams_ordered;
  for (i = 0; i < n; i++) {
    if (off[i] % eff_align(&iv[i], d)) return 1;
    if (off[i] > total || iv[i].size > total - off[i]) return 2;
  }
  for (i = 0; i < n; i++)
    for (j = i + 1; j < n; j++) {
      int live = iv[i].first_use <= iv[j].last_use && iv[j].first_use <= iv[i].last_use;
      if (!ordered && iv[i].stream != iv[j].stream) live = 1;
      if (live && iv[i].size && iv[j].size && off[i] < off[j] + iv[j].size && off[j] < off[i] + iv[i].size)
        return 3;
    }
  return 0;
}

/* ---------------------------------------------------------- families */

enum {
  FAM_RANDOM,      /* uniform starts, geometric lengths */
  FAM_CHAIN,       /* a pure chain: i lives [i, i+1] */
  FAM_RESIDUAL,    /* residual blocks (skip connections) */
  FAM_DAG,         /* a random DAG walked in order */
  FAM_STREAMS,     /* random, 2-4 streams, streams unordered */
  FAM_STREAMS_ORD, /* the same, streams_ordered */
  FAM_ALIGN,       /* random alignments per interval */
  FAM_ZERO,        /* a fifth of the sizes zero */
  FAM_BIG,         /* sizes up to 2^44 */
  FAM_SPARSE,      /* steps stretched by up to 10^5 (step compression) */
  FAM_ADVERSARIAL, /* chains where greedy by size loses */
  FAM_COUNT
};
static const char *fam_name[FAM_COUNT] = {"random", "chain",     "residual", "dag",    "streams",    "streams_ordered",
                                          "align",  "zero_size", "big",      "sparse", "adversarial"};

/* Fills g with family f; sets the desc's streams_ordered/alignment. */
static void make_family(int f, tu_rng *r, tu_gen *g, ge_mem_plan_desc *d) {
  size_t n = 8 + tu_below(r, 120), i;
  memset(d, 0, sizeof *d);
  g->n = 0;
  if (n > g->cap) n = g->cap;
  switch (f) {
  case FAM_CHAIN: {
    int bits = 4 + (int)tu_below(r, 16);
    d->alignment = 1u << tu_below(r, 10);
    for (i = 0; i < n; i++) {
      if (i > 0) tu_gen_use(g, (int32_t)i - 1); /* read by node i: lives [i-1, i] */
      tu_gen_node(g, rng_size(r, bits));
    }
    break;
  }
  case FAM_RESIDUAL: {
    int32_t x = tu_gen_node(g, rng_size(r, 20));
    while (g->n + 8 <= n) {
      int32_t skip = x, y;
      uint64_t c = rng_size(r, 20);
      if (tu_below(r, 4) == 0) { /* projection */
        tu_gen_use(g, x);
        skip = tu_gen_node(g, c);
      }
      tu_gen_use(g, x);
      y = tu_gen_node(g, c);
      tu_gen_use(g, y);
      y = tu_gen_node(g, c);
      tu_gen_use(g, y);
      y = tu_gen_node(g, c);
      tu_gen_use(g, y);
      tu_gen_use(g, skip);
      y = tu_gen_node(g, c);
      tu_gen_use(g, y);
      x = tu_gen_node(g, c);
    }
    break;
  }
  case FAM_DAG:
    for (i = 0; i < n; i++) {
      int32_t k, nin = 1 + (int32_t)tu_below(r, 3);
      for (k = 0; k < nin && i > 0; k++) {
        int32_t dd = 1;
        while (dd < (int32_t)i && tu_below(r, 3) != 0) dd++;
        tu_gen_use(g, (int32_t)i - dd);
      }
      if (i > 0 && tu_below(r, 30) == 0) tu_gen_use(g, (int32_t)tu_below(r, (uint32_t)i));
      tu_gen_node(g, rng_size(r, 22));
    }
    break;
  case FAM_ADVERSARIAL: {
    /* Chains of four K - J - I - L with K > L > J > I and K - L < I:
     * greedy by size puts K and L at 0, J above K, and I fits under
     * neither: K + J + I, where the bound is K + J. Several such chains
     * one after another, with a spacer. */
    while (g->n + 5 <= n) {
      uint64_t I = 100 + tu_below(r, 1000), J = I + 1 + tu_below(r, 1000), L = J + 1 + tu_below(r, 1000);
      uint64_t K = L + 1 + tu_below(r, (uint32_t)I - 1);
      int32_t a = tu_gen_node(g, K * 512), b, c;
      tu_gen_use(g, a);
      b = tu_gen_node(g, J * 512);
      tu_gen_use(g, b);
      c = tu_gen_node(g, I * 512);
      tu_gen_use(g, c);
      tu_gen_node(g, L * 512);
      if (tu_below(r, 2)) tu_gen_node(g, 512); /* a gap in the chain */
    }
    break;
  }
  default: { /* random starts and lengths, with the family's twist */
    uint32_t span = (uint32_t)(n / 2 + tu_below(r, (uint32_t)n * 2) + 1);
    uint32_t mean = 1 + tu_below(r, 12);
    int bits = f == FAM_BIG ? 44 : 8 + (int)tu_below(r, 14);
    uint32_t streams = 2 + tu_below(r, 3);
    int32_t stretch = 2 + (int32_t)tu_below(r, 100000);
    for (i = 0; i < n; i++) {
      ge_mem_interval *v = &g->iv[g->n++];
      uint32_t len = 0;
      memset(v, 0, sizeof *v);
      v->first_use = (int32_t)tu_below(r, span);
      while (tu_below(r, mean + 1) != 0 && len < 1000) len++;
      if (tu_below(r, 40) == 0) len += tu_below(r, span); /* now and then a long-lived one */
      v->last_use = v->first_use + (int32_t)len;
      v->size = rng_size(r, bits);
      if (f == FAM_SPARSE) { /* the same overlaps, steps stretched: compression */
        v->first_use = v->first_use * stretch + (int32_t)tu_below(r, (uint32_t)stretch / 2);
        v->last_use = v->last_use * stretch + stretch / 2 + (int32_t)tu_below(r, (uint32_t)stretch / 2);
      }
      if (f == FAM_STREAMS || f == FAM_STREAMS_ORD) v->stream = (int32_t)tu_below(r, streams) - 1;
      if (f == FAM_ALIGN) v->alignment = tu_below(r, 3) ? 1u << tu_below(r, 13) : 0;
      if (f == FAM_ZERO && tu_below(r, 5) == 0) v->size = 0;
    }
    if (f == FAM_STREAMS_ORD) d->streams_ordered = 1;
    if (f == FAM_ALIGN && tu_below(r, 2)) d->alignment = 64;
    break;
  }
  }
}

/* ------------------------------------------------------ overlap checker */

static ge_mem_interval iv_make(uint64_t size, int32_t first, int32_t last, int32_t stream) {
  ge_mem_interval v;
  memset(&v, 0, sizeof v);
  v.size = size;
  v.first_use = first;
  v.last_use = last;
  v.stream = stream;
  return v;
}

GE_TEST(test_checker_catches_bad_plans) {
  ge_mem_interval iv[4];
  uint64_t off[4];
  ge_mem_plan_desc d;
  ge_error err;
  memset(&d, 0, sizeof d);
  d.alignment = 256;
  /* time overlap and byte overlap */
  iv[0] = iv_make(1000, 0, 5, 0);
  iv[1] = iv_make(1000, 3, 9, 0);
  iv[2] = iv_make(100, 20, 21, 0);
  off[0] = 0;
  off[1] = 768;
  off[2] = 0;
  GE_CHECK_EQ_INT(ge_mem_check_plan(iv, 3, &d, off, 4096, &err), GE_ERR_INVALID);
  GE_CHECK(strstr(err.message, "intervals 0 (steps 0..5") != NULL);
  GE_CHECK(strstr(err.message, "and 1 (steps 3..9") != NULL);
  /* touching byte ranges are fine, and so are disjoint steps */
  off[1] = 1024;
  GE_CHECK_EQ_INT(ge_mem_check_plan(iv, 3, &d, off, 4096, &err), GE_OK);
  off[1] = 768;
  iv[1].first_use = 6;
  GE_CHECK_EQ_INT(ge_mem_check_plan(iv, 3, &d, off, 4096, &err), GE_OK);
  /* a shared step at the edge: last_use of one is first_use of the other */
  iv[1].first_use = 5;
  GE_CHECK_EQ_INT(ge_mem_check_plan(iv, 3, &d, off, 4096, &err), GE_ERR_INVALID);
  /* misaligned */
  iv[1].first_use = 6;
  off[1] = 1000;
  GE_CHECK_EQ_INT(ge_mem_check_plan(iv, 3, &d, off, 4096, &err), GE_ERR_INVALID);
  GE_CHECK(strstr(err.message, "interval 1") != NULL && strstr(err.message, "alignment 256") != NULL);
  /* past the total */
  off[1] = 3328;
  GE_CHECK_EQ_INT(ge_mem_check_plan(iv, 3, &d, off, 4096, &err), GE_ERR_INVALID);
  GE_CHECK(strstr(err.message, "interval 1") != NULL && strstr(err.message, "total 4096") != NULL);
  off[1] = 3072;
  GE_CHECK_EQ_INT(ge_mem_check_plan(iv, 3, &d, off, 4096, &err), GE_OK);
  /* different streams: unordered they conflict whatever the steps */
  iv[2].stream = 1;
  GE_CHECK_EQ_INT(ge_mem_check_plan(iv, 3, &d, off, 4096, &err), GE_ERR_INVALID);
  GE_CHECK(strstr(err.message, "intervals 0") != NULL && strstr(err.message, "and 2") != NULL);
  d.streams_ordered = 1;
  GE_CHECK_EQ_INT(ge_mem_check_plan(iv, 3, &d, off, 4096, &err), GE_OK);
  d.streams_ordered = 0;
  /* a zero-size interval owns no byte */
  iv[2].size = 0;
  GE_CHECK_EQ_INT(ge_mem_check_plan(iv, 3, &d, off, 4096, &err), GE_OK);
  /* the same step, both one step long */
  iv[0] = iv_make(512, 7, 7, 0);
  iv[1] = iv_make(512, 7, 7, 0);
  off[0] = off[1] = 512;
  GE_CHECK_EQ_INT(ge_mem_check_plan(iv, 2, &d, off, 4096, &err), GE_ERR_INVALID);
  off[1] = 0;
  GE_CHECK_EQ_INT(ge_mem_check_plan(iv, 2, &d, off, 4096, &err), GE_OK);
  /* a block inside a bigger one, the conflict with a block entered long
   * before (not the latest one in) */
  iv[0] = iv_make(4096, 0, 1, 0);
  iv[1] = iv_make(512, 5, 6, 0);
  iv[2] = iv_make(512, 10, 11, 0);
  iv[3] = iv_make(512, 1, 1, 0);
  off[0] = 0;
  off[1] = 0;
  off[2] = 512;
  off[3] = 2048;
  GE_CHECK_EQ_INT(ge_mem_check_plan(iv, 4, &d, off, 4096, &err), GE_ERR_INVALID);
  GE_CHECK(strstr(err.message, "intervals 0") != NULL && strstr(err.message, "and 3") != NULL);
  /* bad intervals are refused by the checker too */
  iv[3].first_use = 2;
  GE_CHECK_EQ_INT(ge_mem_check_plan(iv, 4, &d, off, 4096, &err), GE_ERR_INVALID);
  GE_CHECK(strstr(err.message, "interval 3") != NULL);
  GE_CHECK_EQ_INT(ge_mem_check_plan(NULL, 0, NULL, NULL, 0, &err), GE_OK);
}

/* The checker agrees with the brute force on plans with one offset moved. */
GE_TEST(test_checker_matches_brute_force) {
  static ge_mem_interval iv[128];
  static uint64_t off[128];
  tu_gen g;
  tu_rng r;
  int it, disagree = 0, caught = 0;
  g.iv = iv;
  g.cap = 128;
  tu_seed(&r, 7);
  for (it = 0; it < 3000; it++) {
    ge_mem_plan_desc d;
    ge_mem_plan_summary s;
    uint64_t total;
    size_t i, k;
    int b, c;
    make_family((int)tu_below(&r, FAM_COUNT), &r, &g, &d);
    if (ge_mem_plan_intervals(iv, g.n, &d, off, &s, NULL) != GE_OK) {
      disagree++;
      continue;
    }
    k = tu_below(&r, (uint32_t)g.n);
    switch (tu_below(&r, 3)) { /* move one block: onto another, a little, or far */
    case 0: off[k] = off[tu_below(&r, (uint32_t)g.n)]; break;
    case 1: off[k] += eff_align(&iv[k], &d) * (1 + tu_below(&r, 4)); break;
    default: off[k] = off[k] > eff_align(&iv[k], &d) ? off[k] - eff_align(&iv[k], &d) : 0; break;
    }
    off[k] -= off[k] % eff_align(&iv[k], &d);
    total = s.total;
    for (i = 0; i < g.n; i++)
      if (off[i] + iv[i].size > total) total = off[i] + iv[i].size;
    b = brute_check(iv, g.n, &d, off, total);
    c = ge_mem_check_plan(iv, g.n, &d, off, total, NULL);
    if ((b != 0) != (c != 0)) disagree++;
    if (b) caught++;
  }
  GE_CHECK_EQ_INT(disagree, 0);
  GE_CHECK(caught > 300); /* the moves do make bad plans */
}

/* --------------------------------------------------------- the planner */

static const ge_mem_strategy all_strategies[] = {GE_MEM_STRATEGY_GREEDY_SIZE, GE_MEM_STRATEGY_GREEDY_LIFETIME,
                                                 GE_MEM_STRATEGY_REUSE_RELEASED, GE_MEM_STRATEGY_NO_REUSE,
                                                 GE_MEM_STRATEGY_TWO_ENDED, GE_MEM_STRATEGY_GREEDY_BREADTH};
#define NSTRAT (sizeof all_strategies / sizeof all_strategies[0])

typedef struct fam_stats {
  int sets, best_at_lb, best_beats_size, wins[GE_MEM_STRATEGY_COUNT], at_lb[GE_MEM_STRATEGY_COUNT];
} fam_stats;

/* Every strategy on SETS sets of every family: each plan passes the
 * checker (and the brute force), stays at or above the lower bound; BEST is
 * at most each strategy and reports what each reached; NO_REUSE is the sum
 * of the rounded sizes; the same input gives the same offsets. */
#define SETS_PER_FAMILY 1000
GE_TEST(test_strategies_on_random_sets) {
  static ge_mem_interval iv[128];
  static uint64_t off[128], off2[128];
  fam_stats st[FAM_COUNT];
  tu_gen g;
  tu_rng r;
  int f, it, failures = 0, below_lb = 0, best_worse = 0, summary_mismatch = 0, nondet = 0, brute_fail = 0;
  int sets = 0;
  char first_failure[256] = "";
  g.iv = iv;
  g.cap = 128;
  memset(st, 0, sizeof st);
  for (f = 0; f < FAM_COUNT; f++) {
    tu_seed(&r, 1000 + (uint64_t)f);
    for (it = 0; it < SETS_PER_FAMILY; it++) {
      ge_mem_plan_desc d;
      ge_mem_plan_summary best, one;
      ge_error err;
      size_t s;
      uint64_t min_total = UINT64_MAX;
      int nmin = 0, argmin = 0;
      make_family(f, &r, &g, &d);
      sets++;
      st[f].sets++;
      d.strategy = GE_MEM_STRATEGY_BEST;
      if (ge_mem_plan_intervals(iv, g.n, &d, off, &best, &err) != GE_OK) {
        if (!failures++) snprintf(first_failure, sizeof first_failure, "%s: %.200s", fam_name[f], err.message);
        continue;
      }
      if (ge_mem_check_plan(iv, g.n, &d, off, best.total, &err) != GE_OK) {
        if (!failures++) snprintf(first_failure, sizeof first_failure, "%s best: %.200s", fam_name[f], err.message);
      }
      if (brute_check(iv, g.n, &d, off, best.total)) brute_fail++;
      if (ge_mem_plan_intervals(iv, g.n, &d, off2, NULL, NULL) != GE_OK || memcmp(off, off2, g.n * sizeof *off))
        nondet++;
      if (best.total < best.lower_bound) below_lb++;
      if (best.total == best.lower_bound) st[f].best_at_lb++;
      for (s = 0; s < NSTRAT; s++) {
        ge_mem_strategy x = all_strategies[s];
        d.strategy = x;
        if (ge_mem_plan_intervals(iv, g.n, &d, off, &one, &err) != GE_OK) {
          if (!failures++) snprintf(first_failure, sizeof first_failure, "%s %s: %.200s", fam_name[f],
                                    ge_mem_strategy_name(x), err.message);
          continue;
        }
        if (ge_mem_check_plan(iv, g.n, &d, off, one.total, &err) != GE_OK) {
          if (!failures++) snprintf(first_failure, sizeof first_failure, "%s %s: %.200s", fam_name[f],
                                    ge_mem_strategy_name(x), err.message);
        }
        if (brute_check(iv, g.n, &d, off, one.total)) brute_fail++;
        if (one.total < one.lower_bound) below_lb++;
        if (best.total > one.total) best_worse++;
        if (best.strategy_total[x] != one.total || one.strategy_total[x] != one.total ||
            one.lower_bound != best.lower_bound || one.strategy != x)
          summary_mismatch++;
        if (x == GE_MEM_STRATEGY_NO_REUSE && one.total != one.no_reuse_total) summary_mismatch++;
        if (one.total == one.lower_bound) st[f].at_lb[x]++;
        if (one.total < min_total) {
          min_total = one.total;
          nmin = 1;
          argmin = x;
        } else if (one.total == min_total) {
          nmin++;
        }
      }
      if (nmin == 1) st[f].wins[argmin]++;
      if (best.total < best.strategy_total[GE_MEM_STRATEGY_GREEDY_SIZE]) st[f].best_beats_size++;
    }
  }
  GE_CHECK(sets >= 10000);
  if (!GE_CHECK_EQ_INT(failures, 0)) printf("    first failure: %s\n", first_failure);
  GE_CHECK_EQ_INT(brute_fail, 0);
  GE_CHECK_EQ_INT(below_lb, 0);
  GE_CHECK_EQ_INT(best_worse, 0);
  GE_CHECK_EQ_INT(summary_mismatch, 0);
  GE_CHECK_EQ_INT(nondet, 0);
  /* the report: how often each strategy alone is best, reaches the bound */
  printf("    %-16s %5s %6s %6s  sole winner (at the bound) per strategy\n", "family", "sets", "at LB", ">size");
  for (f = 0; f < FAM_COUNT; f++) {
    size_t s;
    printf("    %-16s %5d %6d %6d ", fam_name[f], st[f].sets, st[f].best_at_lb, st[f].best_beats_size);
    for (s = 0; s < NSTRAT; s++)
      if (all_strategies[s] != GE_MEM_STRATEGY_NO_REUSE)
        printf(" %s %d (%d)", ge_mem_strategy_name(all_strategies[s]), st[f].wins[all_strategies[s]],
               st[f].at_lb[all_strategies[s]]);
    printf("\n");
  }
  /* provable: a chain reaches the bound (two-ended alternates the floor
   * and the ceiling of a region of the bound's size) */
  GE_CHECK_EQ_INT(st[FAM_CHAIN].best_at_lb, st[FAM_CHAIN].sets);
  GE_CHECK_EQ_INT(st[FAM_CHAIN].at_lb[GE_MEM_STRATEGY_TWO_ENDED], st[FAM_CHAIN].sets);
  /* the adversarial chains: greedy by size loses every time, BEST never */
  GE_CHECK_EQ_INT(st[FAM_ADVERSARIAL].best_beats_size, st[FAM_ADVERSARIAL].sets);
  GE_CHECK_EQ_INT(st[FAM_ADVERSARIAL].best_at_lb, st[FAM_ADVERSARIAL].sets);
}

/* Large sets exercise the long conflict lists and the radix paths. */
GE_TEST(test_large_plans) {
  static ge_mem_interval iv[60000];
  static uint64_t off[60000];
  tu_rng r;
  size_t n = 60000, i;
  int s;
  ge_mem_plan_desc d;
  ge_mem_plan_summary sum;
  ge_error err;
  tu_seed(&r, 99);
  for (i = 0; i < n; i++) { /* a DAG-like walk, plus long-lived ones */
    uint32_t len = 1;
    while (tu_below(&r, 4) != 0) len++;
    if (tu_below(&r, 300) == 0) len += tu_below(&r, 5000);
    iv[i] = iv_make(rng_size(&r, 22), (int32_t)i, (int32_t)(i + len), (int32_t)tu_below(&r, 2));
    if (tu_below(&r, 10) == 0) iv[i].alignment = 1u << tu_below(&r, 12);
  }
  memset(&d, 0, sizeof d);
  for (s = 0; s < 2; s++) {
    d.streams_ordered = s;
    GE_REQUIRE(ge_mem_plan_intervals(iv, n, &d, off, &sum, &err) == GE_OK);
    if (!GE_CHECK_EQ_INT(ge_mem_check_plan(iv, n, &d, off, sum.total, &err), GE_OK)) printf("    %s\n", err.message);
    GE_CHECK(sum.total >= sum.lower_bound);
    GE_CHECK(sum.total <= sum.lower_bound + sum.lower_bound / 4);
  }
}

GE_TEST(test_pure_chain_reaches_bound) {
  static ge_mem_interval iv[5000];
  static uint64_t off[5000];
  ge_mem_plan_desc d;
  ge_mem_plan_summary s;
  tu_rng r;
  size_t i;
  tu_seed(&r, 5);
  for (i = 0; i < 5000; i++) iv[i] = iv_make(rng_size(&r, 24), (int32_t)i, (int32_t)i + 1, 0);
  memset(&d, 0, sizeof d);
  d.strategy = GE_MEM_STRATEGY_TWO_ENDED;
  GE_REQUIRE(ge_mem_plan_intervals(iv, 5000, &d, off, &s, NULL) == GE_OK);
  GE_CHECK_EQ_INT(s.total, s.lower_bound);
  GE_CHECK_EQ_INT(ge_mem_check_plan(iv, 5000, &d, off, s.total, NULL), GE_OK);
  d.strategy = GE_MEM_STRATEGY_BEST;
  GE_REQUIRE(ge_mem_plan_intervals(iv, 5000, &d, off, &s, NULL) == GE_OK);
  GE_CHECK_EQ_INT(s.total, s.lower_bound);
}

/* Streams apart: regions stacked by ascending stream id, the bound summed. */
GE_TEST(test_streams_apart) {
  ge_mem_interval iv[4];
  uint64_t off[4];
  ge_mem_plan_desc d;
  ge_mem_plan_summary s;
  memset(&d, 0, sizeof d);
  iv[0] = iv_make(1000, 0, 1, 5);
  iv[1] = iv_make(1000, 2, 3, 5);
  iv[2] = iv_make(3000, 0, 0, -2);
  iv[3] = iv_make(10, 9, 9, -2);
  GE_REQUIRE(ge_mem_plan_intervals(iv, 4, &d, off, &s, NULL) == GE_OK);
  GE_CHECK_EQ_INT(s.lower_bound, 3072 + 1024);
  GE_CHECK_EQ_INT(s.total, 3072 + 1024);
  GE_CHECK_EQ_INT(off[2], 0); /* stream -2 first */
  GE_CHECK_EQ_INT(off[3], 0);
  GE_CHECK_EQ_INT(off[0], 3072);
  GE_CHECK_EQ_INT(off[1], 3072);
  d.streams_ordered = 1;
  GE_REQUIRE(ge_mem_plan_intervals(iv, 4, &d, off, &s, NULL) == GE_OK);
  GE_CHECK_EQ_INT(s.lower_bound, 3072 + 1024);
  GE_CHECK_EQ_INT(s.total, 3072 + 1024);
  iv[2].last_use = 5; /* now live with both */
  GE_REQUIRE(ge_mem_plan_intervals(iv, 4, &d, off, &s, NULL) == GE_OK);
  GE_CHECK_EQ_INT(s.total, 3072 + 1024);
  GE_CHECK_EQ_INT(ge_mem_check_plan(iv, 4, &d, off, s.total, NULL), GE_OK);
}

GE_TEST(test_small_cases) {
  ge_mem_interval iv[3];
  uint64_t off[3] = {7, 7, 7};
  ge_mem_plan_desc d;
  ge_mem_plan_summary s;
  int st;
  memset(&d, 0, sizeof d);
  /* nothing to plan */
  GE_CHECK_EQ_INT(ge_mem_plan_intervals(NULL, 0, NULL, NULL, &s, NULL), GE_OK);
  GE_CHECK_EQ_INT(s.total, 0);
  /* only zero sizes */
  iv[0] = iv_make(0, 0, 3, 0);
  iv[1] = iv_make(0, 1, 2, 1);
  GE_CHECK_EQ_INT(ge_mem_plan_intervals(iv, 2, NULL, off, &s, NULL), GE_OK);
  GE_CHECK_EQ_INT(off[0], 0);
  GE_CHECK_EQ_INT(off[1], 0);
  GE_CHECK_EQ_INT(s.total, 0);
  /* one interval: its rounded size */
  iv[0] = iv_make(1, 0, 0, 0);
  for (st = 0; st < GE_MEM_STRATEGY_COUNT; st++) {
    d.strategy = (ge_mem_strategy)st;
    GE_CHECK_EQ_INT(ge_mem_plan_intervals(iv, 1, &d, off, &s, NULL), GE_OK);
    GE_CHECK_EQ_INT(s.total, 512);
    GE_CHECK_EQ_INT(s.lower_bound, 512);
    GE_CHECK_EQ_INT(s.no_reuse_total, 512);
    GE_CHECK_EQ_INT(off[0], 0);
  }
  /* the desc's alignment, and an interval's own */
  d.strategy = GE_MEM_STRATEGY_BEST;
  d.alignment = 64;
  iv[0] = iv_make(100, 0, 1, 0);
  iv[1] = iv_make(100, 1, 2, 0);
  iv[1].alignment = 4096;
  GE_CHECK_EQ_INT(ge_mem_plan_intervals(iv, 2, &d, off, &s, NULL), GE_OK);
  GE_CHECK_EQ_INT(s.lower_bound, 128 + 4096);
  GE_CHECK_EQ_INT(off[1] % 4096, 0);
  GE_CHECK_EQ_INT(off[0] % 64, 0);
  GE_CHECK_EQ_INT(ge_mem_check_plan(iv, 2, &d, off, s.total, NULL), GE_OK);
  GE_CHECK_STR(ge_mem_strategy_name(GE_MEM_STRATEGY_TWO_ENDED), "two_ended");
  GE_CHECK_STR(ge_mem_strategy_name(GE_MEM_STRATEGY_COUNT), "unknown");
}

GE_TEST(test_bad_inputs) {
  ge_mem_interval iv[6];
  uint64_t off[6];
  ge_mem_plan_desc d;
  ge_error err;
  int i;
  memset(&d, 0, sizeof d);
  for (i = 0; i < 6; i++) iv[i] = iv_make(100, i, i + 1, 0);
  iv[3].first_use = 9;
  GE_CHECK_EQ_INT(ge_mem_plan_intervals(iv, 6, &d, off, NULL, &err), GE_ERR_INVALID);
  GE_CHECK(strstr(err.message, "interval 3") && strstr(err.message, "first_use 9 is after last_use 4"));
  iv[3] = iv_make(100, -1, 4, 0);
  GE_CHECK_EQ_INT(ge_mem_plan_intervals(iv, 6, &d, off, NULL, &err), GE_ERR_INVALID);
  GE_CHECK(strstr(err.message, "interval 3") && strstr(err.message, "negative step"));
  iv[3] = iv_make(100, 3, 4, 0);
  iv[4].alignment = 48;
  GE_CHECK_EQ_INT(ge_mem_plan_intervals(iv, 6, &d, off, NULL, &err), GE_ERR_INVALID);
  GE_CHECK(strstr(err.message, "interval 4") && strstr(err.message, "alignment 48"));
  iv[4].alignment = 0;
  iv[5].size = UINT64_MAX - 10;
  GE_CHECK_EQ_INT(ge_mem_plan_intervals(iv, 6, &d, off, NULL, &err), GE_ERR_INVALID);
  GE_CHECK(strstr(err.message, "interval 5") && strstr(err.message, "overflows"));
  iv[5].size = UINT64_MAX / 3;
  iv[2].size = UINT64_MAX / 3;
  iv[0].size = UINT64_MAX / 3;
  GE_CHECK_EQ_INT(ge_mem_plan_intervals(iv, 6, &d, off, NULL, &err), GE_ERR_INVALID);
  GE_CHECK(strstr(err.message, "interval 5") && strstr(err.message, "2^64"));
  iv[5].size = iv[2].size = iv[0].size = 100;
  d.alignment = 100;
  GE_CHECK_EQ_INT(ge_mem_plan_intervals(iv, 6, &d, off, NULL, &err), GE_ERR_INVALID);
  GE_CHECK(strstr(err.message, "desc alignment 100") != NULL);
  GE_CHECK_EQ_INT(ge_mem_check_plan(iv, 6, &d, off, 0, &err), GE_ERR_INVALID);
  d.alignment = 0;
  d.strategy = (ge_mem_strategy)77;
  GE_CHECK_EQ_INT(ge_mem_plan_intervals(iv, 6, &d, off, NULL, &err), GE_ERR_INVALID);
  GE_CHECK(strstr(err.message, "unknown strategy 77") != NULL);
  d.strategy = GE_MEM_STRATEGY_BEST;
  GE_CHECK_EQ_INT(ge_mem_plan_intervals(iv, 6, &d, NULL, NULL, &err), GE_ERR_INVALID);
  GE_CHECK(strstr(err.message, "offsets") != NULL);
  GE_CHECK_EQ_INT(ge_mem_plan_intervals(NULL, 6, &d, off, NULL, &err), GE_ERR_INVALID);
  GE_CHECK_EQ_INT(ge_mem_plan_intervals(iv, 6, &d, off, NULL, NULL), GE_OK); /* no error struct: fine */
}

/* A failing scratch allocator: every failure point gives GE_ERR_NOMEM and
 * leaks nothing. */
GE_TEST(test_planner_out_of_memory) {
  static ge_mem_interval iv[200];
  static uint64_t off[200];
  tu_alloc_state ca;
  ge_mem_plan_desc d;
  ge_error err;
  tu_rng r;
  int k, nomem = 0;
  size_t i;
  tu_seed(&r, 3);
  for (i = 0; i < 200; i++) iv[i] = iv_make(rng_size(&r, 16), (int32_t)i, (int32_t)(i + tu_below(&r, 9)), (int32_t)(i % 3));
  memset(&d, 0, sizeof d);
  d.allocator = tu_allocator(&ca);
  /* the k-th scratch allocation fails, for every k until none is left */
  for (k = 0; k < 100; k++) {
    ge_status a, b;
    ca.fail_after = k;
    ca.allocs = 0;
    a = ge_mem_plan_intervals(iv, 200, &d, off, NULL, &err);
    GE_CHECK(a == GE_OK || (a == GE_ERR_NOMEM && strstr(err.message, "out of memory")));
    GE_CHECK_EQ_INT(ca.outstanding, 0);
    ca.allocs = 0;
    b = ge_mem_check_plan(iv, 200, &d, off, UINT64_MAX, &err);
    GE_CHECK(b == GE_OK || b == GE_ERR_NOMEM || b == GE_ERR_INVALID);
    GE_CHECK_EQ_INT(ca.outstanding, 0);
    if (a == GE_ERR_NOMEM) nomem++;
    if (b == GE_ERR_NOMEM) nomem++;
    if (a != GE_ERR_NOMEM && b != GE_ERR_NOMEM) break;
  }
  GE_CHECK(nomem > 10);
  GE_CHECK(k < 100);
  GE_CHECK_EQ_INT(ca.blocks, 0);
  GE_CHECK_EQ_INT(ca.size_mismatches, 0);
}

/* --------------------------------------------------- caching allocator */

typedef struct hammer {
  ge_caching_allocator *c;
  uint64_t seed;
  long allocs, corrupt, nulls;
} hammer;

static void *hammer_run(void *arg) {
  hammer *h = (hammer *)arg;
  tu_rng r;
  unsigned char *blk[64];
  size_t size[64];
  int i, k;
  tu_seed(&r, h->seed);
  memset(blk, 0, sizeof blk);
  for (i = 0; i < 20000; i++) {
    k = (int)tu_below(&r, 64);
    if (!blk[k]) {
      size_t s = (size_t)tu_below(&r, 100) < 2 ? (size_t)(1 << 20) + tu_below(&r, 3 << 20) : rng_size(&r, 16);
      if (tu_below(&r, 50) == 0) s = 0;
      blk[k] = (unsigned char *)ge_caching_alloc(h->c, s);
      if (!blk[k]) {
        h->nulls++;
        continue;
      }
      size[k] = s;
      h->allocs++;
      /* the whole block: thread, slot and size in every byte's pattern */
      memset(blk[k], (int)((h->seed * 31 + (uint64_t)k + s) & 255), s);
    } else {
      size_t j, s = size[k];
      unsigned char want = (unsigned char)((h->seed * 31 + (uint64_t)k + s) & 255);
      for (j = 0; j < s; j += 1 + j / 8)
        if (blk[k][j] != want) {
          h->corrupt++;
          break;
        }
      if (s && blk[k][s - 1] != want) h->corrupt++;
      ge_caching_release(h->c, blk[k], s);
      blk[k] = NULL;
    }
  }
  for (k = 0; k < 64; k++)
    if (blk[k]) ge_caching_release(h->c, blk[k], size[k]);
  return NULL;
}

GE_TEST(test_caching_allocator_threads) {
  tu_alloc_state ca;
  ge_allocator back = tu_allocator(&ca);
  ge_caching_allocator *c = NULL;
  ge_caching_stats st;
  hammer h[4];
  pthread_t t[4];
  long allocs = 0, corrupt = 0, nulls = 0;
  int i, started = 0;
  long long own;
  GE_REQUIRE(ge_caching_allocator_create(&back, &c, NULL) == GE_OK);
  own = ca.outstanding; /* the allocator's own struct */
  for (i = 0; i < 4; i++) {
    h[i].c = c;
    h[i].seed = 100 + (uint64_t)i;
    h[i].allocs = h[i].corrupt = h[i].nulls = 0;
  }
  for (i = 0; i < 4; i++)
    if (pthread_create(&t[i], NULL, hammer_run, &h[i]) == 0) started++;
    else hammer_run(&h[i]);
  for (i = 0; i < started; i++) pthread_join(t[i], NULL);
  for (i = 0; i < 4; i++) {
    allocs += h[i].allocs;
    corrupt += h[i].corrupt;
    nulls += h[i].nulls;
  }
  GE_CHECK_EQ_INT(corrupt, 0);
  GE_CHECK_EQ_INT(nulls, 0);
  st = ge_caching_allocator_stats(c);
  GE_CHECK_EQ_INT(st.in_use, 0);
  GE_CHECK_EQ_INT((long)st.allocs, allocs);
  GE_CHECK(st.hits > st.allocs / 2); /* the cache serves most requests */
  GE_CHECK(st.hits <= st.allocs);
  GE_CHECK(st.peak_in_use > 0 && st.peak_in_use >= st.in_use);
  GE_CHECK(st.cached < ((uint64_t)256 << 20)); /* classes keep the cache reusable */
  /* all that is left is the cache (and a 32-byte header per block) */
  GE_CHECK_EQ_INT((long long)st.cached + 32 * (ca.blocks - 1), ca.outstanding - own);
  ge_caching_trim(c);
  st = ge_caching_allocator_stats(c);
  GE_CHECK_EQ_INT(st.cached, 0);
  GE_CHECK_EQ_INT(ca.blocks, 1); /* only the allocator itself */
  ge_caching_allocator_free(c);
  GE_CHECK_EQ_INT(ca.blocks, 0);
  GE_CHECK_EQ_INT(ca.outstanding, 0);
  GE_CHECK_EQ_INT(ca.size_mismatches, 0);
}

GE_TEST(test_caching_allocator_classes) {
  tu_alloc_state ca;
  ge_allocator back = tu_allocator(&ca), a;
  ge_caching_allocator *c = NULL;
  ge_caching_stats st;
  void *p, *q, *r2;
  long long own;
  GE_REQUIRE(ge_caching_allocator_create(&back, &c, NULL) == GE_OK);
  own = ca.outstanding;
  p = ge_caching_alloc(c, 1000); /* class (512, 1024] step 128: 1024 */
  GE_REQUIRE(p != NULL);
  st = ge_caching_allocator_stats(c);
  GE_CHECK_EQ_INT(st.in_use, 1024);
  GE_CHECK_EQ_INT(st.hits, 0);
  ge_caching_release(c, p, 1000);
  st = ge_caching_allocator_stats(c);
  GE_CHECK_EQ_INT(st.in_use, 0);
  GE_CHECK_EQ_INT(st.cached, 1024);
  q = ge_caching_alloc(c, 900); /* the same class: the same block */
  GE_CHECK(q == p);
  st = ge_caching_allocator_stats(c);
  GE_CHECK_EQ_INT(st.hits, 1);
  GE_CHECK_EQ_INT(st.cached, 0);
  r2 = ge_caching_alloc(c, 700); /* (640, 768]: another class */
  GE_CHECK(r2 != q);
  st = ge_caching_allocator_stats(c);
  GE_CHECK_EQ_INT(st.in_use, 1024 + 768);
  GE_CHECK_EQ_INT(st.peak_in_use, 1024 + 768);
  ge_caching_release(c, q, 900);
  ge_caching_release(c, r2, 700);
  /* large: eight classes per power of two, (2 MiB, 4 MiB] in 256 KiB steps */
  p = ge_caching_alloc(c, (2 << 20) + 1);
  GE_REQUIRE(p != NULL);
  st = ge_caching_allocator_stats(c);
  GE_CHECK_EQ_INT(st.in_use, (2 << 20) + (256 << 10));
  ge_caching_release(c, p, (2 << 20) + 1);
  q = ge_caching_alloc(c, (2 << 20) + 200000); /* the same class */
  GE_CHECK(q == p);
  ge_caching_release(c, q, (2 << 20) + 200000);
  q = ge_caching_alloc(c, (2 << 20) + 300000); /* the next */
  GE_CHECK(q != NULL && q != p);
  st = ge_caching_allocator_stats(c);
  GE_CHECK_EQ_INT(st.in_use, (2 << 20) + (512 << 10));
  ge_caching_release(c, q, (2 << 20) + 300000);
  /* every class size rounds to itself; each class is the next one up */
  {
    size_t sz, r1 = 0, r2 = 0, prev = 0;
    int bad = 0, k1, k2, prev_k = -1;
    for (sz = 1; sz < ((size_t)1 << 40); sz += sz / 7 + 1) {
      k1 = ge__mem_size_class(sz, &r1);
      k2 = ge__mem_size_class(r1, &r2);
      if (k1 < 0 || k1 != k2 || r1 != r2 || r1 < sz) bad++;           /* a class size is its own class */
      if (r1 == prev ? k1 != prev_k : (r1 < prev || k1 <= prev_k)) bad++; /* one index per size, in order */
      if (sz > 64 && (double)r1 > (double)sz * 1.25 + 1) bad++;
      prev = r1;
      prev_k = k1;
    }
    GE_CHECK_EQ_INT(bad, 0);
  }
  /* as a ge_allocator */
  a = ge_caching_allocator_as_allocator(c);
  p = a.alloc(a.user, 100);
  GE_REQUIRE(p != NULL);
  memset(p, 0x5a, 100);
  q = a.realloc(a.user, p, 100, 110); /* the same class (96, 112]: stays */
  GE_CHECK(q == p);
  q = a.realloc(a.user, p, 110, 5000);
  GE_REQUIRE(q != NULL);
  GE_CHECK(((unsigned char *)q)[99] == 0x5a && ((unsigned char *)q)[0] == 0x5a);
  a.free(a.user, q, 5000);
  st = ge_caching_allocator_stats(c);
  GE_CHECK_EQ_INT(st.in_use, 0);
  GE_CHECK_EQ_INT((long long)st.cached + 32 * (ca.blocks - 1), ca.outstanding - own);
  /* blocks still held are freed with the allocator */
  GE_CHECK(ge_caching_alloc(c, 5000) != NULL);
  GE_CHECK(ge_caching_alloc(c, 3 << 20) != NULL);
  ge_caching_allocator_free(c);
  GE_CHECK_EQ_INT(ca.blocks, 0);
  GE_CHECK_EQ_INT(ca.size_mismatches, 0);
}

GE_TEST(test_caching_allocator_failures) {
  tu_alloc_state ca;
  ge_allocator back = tu_allocator(&ca);
  ge_caching_allocator *c = (ge_caching_allocator *)&ca;
  ge_caching_stats st;
  ge_error err;
  void *p, *q;
  ca.fail_after = 0;
  GE_CHECK_EQ_INT(ge_caching_allocator_create(&back, &c, &err), GE_ERR_NOMEM);
  GE_CHECK(c == NULL);
  GE_CHECK_EQ_INT(ge_caching_allocator_create(&back, NULL, &err), GE_ERR_INVALID);
  ca.fail_after = -1;
  GE_REQUIRE(ge_caching_allocator_create(&back, &c, NULL) == GE_OK);
  ca.fail_after = ca.allocs; /* the backing allocator fails from now on */
  GE_CHECK(ge_caching_alloc(c, 100) == NULL);
  st = ge_caching_allocator_stats(c);
  GE_CHECK_EQ_INT(st.allocs, 0);
  GE_CHECK_EQ_INT(st.in_use, 0);
  ca.fail_after = -1;
  /* a full cache is given back when the backing allocator runs dry */
  p = ge_caching_alloc(c, 60000);
  GE_REQUIRE(p != NULL);
  ge_caching_release(c, p, 60000);
  ca.fail_above = ca.outstanding + 1000; /* room for no new big block */
  q = ge_caching_alloc(c, 30000);        /* another class: trim, retry */
  GE_CHECK(q != NULL);
  st = ge_caching_allocator_stats(c);
  GE_CHECK_EQ_INT(st.cached, 0);
  ge_caching_release(c, q, 30000);
  ca.fail_above = 0;
  GE_CHECK(ge_caching_alloc(c, SIZE_MAX - 10) == NULL); /* too big to round */
  ge_caching_allocator_free(c);
  GE_CHECK_EQ_INT(ca.blocks, 0);
  GE_CHECK_EQ_INT(ca.outstanding, 0);
  ge_caching_release(NULL, NULL, 0);
  ge_caching_allocator_free(NULL);
}

/* -------------------------------------------------------------- arena */

GE_TEST(test_arena) {
  tu_alloc_state ca;
  ge_allocator back = tu_allocator(&ca);
  ge_arena *a = NULL;
  long long first;
  unsigned char *p[200];
  size_t sz[200], al[200];
  int i, overlap = 0, misaligned = 0, bad = 0;
  tu_rng r;
  GE_REQUIRE(ge_arena_create(&back, 4096, &a, NULL) == GE_OK);
  first = ca.outstanding;
  tu_seed(&r, 11);
  for (i = 0; i < 200; i++) {
    sz[i] = tu_below(&r, 20) == 0 ? 10000 + tu_below(&r, 10000) : tu_below(&r, 300);
    al[i] = (size_t)1 << tu_below(&r, 13);
    p[i] = (unsigned char *)ge_arena_alloc(a, sz[i], al[i]);
    GE_REQUIRE(p[i] != NULL);
    if ((uintptr_t)p[i] % al[i]) misaligned++;
    memset(p[i], i & 255, sz[i]);
  }
  for (i = 0; i < 200; i++) {
    size_t j;
    for (j = 0; j < sz[i]; j++)
      if (p[i][j] != (unsigned char)(i & 255)) {
        overlap++;
        break;
      }
  }
  GE_CHECK_EQ_INT(misaligned, 0);
  GE_CHECK_EQ_INT(overlap, 0);
  GE_CHECK(ge_arena_used(a) > 0);
  GE_CHECK(ca.blocks > 2); /* more chunks */
  /* alignment 0 is 16; not a power of two: NULL */
  p[0] = (unsigned char *)ge_arena_alloc(a, 3, 0);
  GE_CHECK(p[0] != NULL && (uintptr_t)p[0] % 16 == 0);
  GE_CHECK(ge_arena_alloc(a, 3, 24) == NULL);
  ge_arena_reset(a);
  GE_CHECK_EQ_INT(ge_arena_used(a), 0);
  GE_CHECK_EQ_INT(ca.blocks, 2); /* the arena and its first chunk */
  GE_CHECK_EQ_INT(ca.outstanding, first);
  p[0] = (unsigned char *)ge_arena_alloc(a, 100, 64);
  GE_CHECK(p[0] != NULL && (uintptr_t)p[0] % 64 == 0);
  GE_CHECK(ge_arena_used(a) >= 100 && ge_arena_used(a) < 100 + 64);
  /* the backing allocator fails: NULL, and the arena goes on */
  ca.fail_after = ca.allocs;
  if (!GE_CHECK(ge_arena_alloc(a, 100000, 16) == NULL)) bad++;
  GE_CHECK(ge_arena_alloc(a, 100, 16) != NULL); /* fits in the chunk */
  ca.fail_after = -1;
  GE_CHECK(ge_arena_alloc(a, 100000, 16) != NULL);
  ge_arena_free(a);
  GE_CHECK_EQ_INT(ca.blocks, 0);
  GE_CHECK_EQ_INT(ca.outstanding, 0);
  GE_CHECK_EQ_INT(ca.size_mismatches, 0);
  /* creation failures */
  ca.fail_after = 0;
  GE_CHECK_EQ_INT(ge_arena_create(&back, 0, &a, NULL), GE_ERR_NOMEM);
  ca.fail_after = 1; /* the arena, not its chunk */
  ca.allocs = 0;
  GE_CHECK_EQ_INT(ge_arena_create(&back, 0, &a, NULL), GE_ERR_NOMEM);
  GE_CHECK(a == NULL);
  GE_CHECK_EQ_INT(ca.blocks, 0);
  GE_CHECK_EQ_INT(ge_arena_create(&back, 0, NULL, NULL), GE_ERR_INVALID);
  (void)bad;
  /* the default backing allocator */
  GE_REQUIRE(ge_arena_create(NULL, 0, &a, NULL) == GE_OK);
  GE_CHECK(ge_arena_alloc(a, 1 << 20, 4096) != NULL);
  ge_arena_free(a);
}

int main(int argc, char **argv) {
  ge_test_init(argc, argv);
  GE_RUN(test_checker_catches_bad_plans);
  GE_RUN(test_checker_matches_brute_force);
  GE_RUN(test_strategies_on_random_sets);
  GE_RUN(test_large_plans);
  GE_RUN(test_pure_chain_reaches_bound);
  GE_RUN(test_streams_apart);
  GE_RUN(test_small_cases);
  GE_RUN(test_bad_inputs);
  GE_RUN(test_planner_out_of_memory);
  GE_RUN(test_caching_allocator_threads);
  GE_RUN(test_caching_allocator_classes);
  GE_RUN(test_caching_allocator_failures);
  GE_RUN(test_arena);
  return ge_test_main_end();
}

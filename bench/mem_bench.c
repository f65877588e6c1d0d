/* mem_bench.c — the interval planner of ge_mem.h on 100,000-interval
 * families shaped like real graphs: per family, every strategy's total
 * against the lower bound, planning times (median of 5 after a warm-up) and
 * the overlap checker's time (thread CPU time).
 *
 *   cc -std=c99 -O2 -DNDEBUG -I. bench/mem_bench.c -o build/mem_bench -lm
 *   build/mem_bench [N]          (N intervals per family, default 100000)
 *
 * Each family is a graph walked in node order: node i runs at step i and
 * produces one tensor, live from step i to its last consumer's step. */
#define _POSIX_C_SOURCE 200809L
#define GE_MEM_IMPLEMENTATION
#include "ge_mem.h"
#include "tests/rng.h"
#include "tests/interval_gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ------------------------------------------------------------ families */

static int full(const tu_gen *g, size_t room) { return g->n + room > g->cap; }

/* VGG-like chain: stages of convolutions, each stage halving the spatial
 * size and doubling channels, repeated (batch images) until full. */
static void fam_chain(tu_gen *g, tu_rng *r) {
  (void)r;
  while (!full(g, 64)) {
    int32_t prev = tu_gen_node(g, 3 * 224 * 224 * 4), s, l;
    uint64_t c = 64, hw = 224;
    for (s = 0; s < 5; s++, c *= 2, hw /= 2)
      for (l = 0; l < 3; l++) {
        int32_t x;
        tu_gen_use(g, prev);
        x = tu_gen_node(g, c * hw * hw * 4);
        prev = x;
      }
    tu_gen_use(g, prev);
    prev = tu_gen_node(g, 4096 * 4);
    tu_gen_use(g, prev);
    tu_gen_node(g, 1000 * 4);
  }
}

/* ResNet-like: stem, then stages of basic blocks (conv-relu-conv-add-relu),
 * the first block of a stage downsampling with a 1x1 projection on the
 * skip; occasionally bottleneck blocks (1x1, 3x3, 1x1 with 4x channels). */
static void fam_residual(tu_gen *g, tu_rng *r) {
  while (!full(g, 200)) {
    uint64_t c = 64, hw = 56;
    int32_t x = tu_gen_node(g, 3 * 224 * 224 * 4), s, b;
    int bottleneck = tu_below(r, 3) == 0;
    tu_gen_use(g, x);
    x = tu_gen_node(g, 64 * 112 * 112 * 4);
    tu_gen_use(g, x);
    x = tu_gen_node(g, 64 * 56 * 56 * 4);
    for (s = 0; s < 4; s++, c *= 2, hw /= 2) {
      int blocks = 2 + (int)tu_below(r, 3);
      for (b = 0; b < blocks; b++) {
        int32_t skip = x, y;
        uint64_t cout = bottleneck ? 4 * c : c, ohw = (b == 0 && s > 0) ? hw : hw;
        if (b == 0 && s > 0) { /* projection on the skip */
          tu_gen_use(g, x);
          skip = tu_gen_node(g, cout * ohw * ohw * 4);
        }
        tu_gen_use(g, x);
        y = tu_gen_node(g, c * ohw * ohw * 4); /* conv1 */
        tu_gen_use(g, y);
        y = tu_gen_node(g, c * ohw * ohw * 4); /* relu */
        if (bottleneck) {
          tu_gen_use(g, y);
          y = tu_gen_node(g, c * ohw * ohw * 4);
          tu_gen_use(g, y);
          y = tu_gen_node(g, c * ohw * ohw * 4);
        }
        tu_gen_use(g, y);
        y = tu_gen_node(g, cout * ohw * ohw * 4); /* conv2 / conv3 */
        tu_gen_use(g, y);
        tu_gen_use(g, skip);
        y = tu_gen_node(g, cout * ohw * ohw * 4); /* add */
        tu_gen_use(g, y);
        x = tu_gen_node(g, cout * ohw * ohw * 4); /* relu */
      }
    }
    tu_gen_use(g, x);
    x = tu_gen_node(g, c * 4);
    tu_gen_use(g, x);
    tu_gen_node(g, 1000 * 4);
  }
}

/* Random DAG: each node reads 1-3 recent tensors (geometric distance, mean
 * about 4); 1 node in 500 also reads one up to 1000 steps back; sizes from
 * 256 B to 4 MiB, log-uniform. A few tensors (every 20000th) are read much
 * later: long-lived. */
static void fam_random(tu_gen *g, tu_rng *r) {
  while (!full(g, 1)) {
    int32_t i = (int32_t)g->n, k, nin = 1 + (int32_t)tu_below(r, 3);
    for (k = 0; k < nin && i > 0; k++) {
      int32_t d = 1;
      while (d < i && tu_below(r, 4) != 0) d++;
      tu_gen_use(g, i - d);
    }
    if (i > 1000 && tu_below(r, 500) == 0) tu_gen_use(g, i - 1 - (int32_t)tu_below(r, 1000));
    if (i >= 20000 && i % 20000 == 0) tu_gen_use(g, i - 19999);
    tu_gen_node(g, (uint64_t)256 << tu_below(r, 15));
  }
}

/* Transformer-like: hidden 1024, sequence 512, 16 heads, layers of
 * LN, Q/K/V, scores, softmax, context, projection, residual add, LN, FFN
 * (4x), GELU, FFN, residual add; the attention mask and the position
 * embeddings are read by every layer (live throughout). */
static void fam_transformer(tu_gen *g, tu_rng *r) {
  const uint64_t hid = 1024 * 512 * 2, ffn = 4 * hid, scores = (uint64_t)16 * 512 * 512 * 2;
  (void)r;
  while (!full(g, 40)) {
    int32_t mask = tu_gen_node(g, 512 * 512 * 2), pos = tu_gen_node(g, hid), x;
    tu_gen_use(g, pos);
    x = tu_gen_node(g, hid);
    while (!full(g, 22)) {
      int32_t ln, q, k, v, s, p, c, o, a, l2, f1, f2;
      tu_gen_use(g, x);
      ln = tu_gen_node(g, hid);
      tu_gen_use(g, ln);
      q = tu_gen_node(g, hid);
      tu_gen_use(g, ln);
      k = tu_gen_node(g, hid);
      tu_gen_use(g, ln);
      v = tu_gen_node(g, hid);
      tu_gen_use(g, q);
      tu_gen_use(g, k);
      tu_gen_use(g, mask);
      tu_gen_use(g, pos);
      s = tu_gen_node(g, scores);
      tu_gen_use(g, s);
      p = tu_gen_node(g, scores);
      tu_gen_use(g, p);
      tu_gen_use(g, v);
      c = tu_gen_node(g, hid);
      tu_gen_use(g, c);
      o = tu_gen_node(g, hid);
      tu_gen_use(g, o);
      tu_gen_use(g, x);
      a = tu_gen_node(g, hid);
      tu_gen_use(g, a);
      l2 = tu_gen_node(g, hid);
      tu_gen_use(g, l2);
      f1 = tu_gen_node(g, ffn);
      tu_gen_use(g, f1);
      f2 = tu_gen_node(g, ffn);
      tu_gen_use(g, f2);
      f2 = tu_gen_node(g, hid);
      tu_gen_use(g, f2);
      tu_gen_use(g, a);
      x = tu_gen_node(g, hid);
      if (g->n > 4000 && tu_below(r, 200) == 0) break; /* a new model */
    }
  }
  while (!full(g, 1)) tu_gen_node(g, 64);
}

/* --------------------------------------------------------------- timing */

/* Thread CPU time: the machine may be shared, and waiting for a core is
 * not planning. */
static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}
static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

#define REPS 5

/* Median of REPS timed runs after one warm-up. */
static double time_plan(const ge_mem_interval *iv, size_t n, ge_mem_strategy st, uint64_t *off,
                        ge_mem_plan_summary *sum) {
  double t[REPS];
  int k;
  ge_mem_plan_desc d;
  ge_error err;
  memset(&d, 0, sizeof d);
  d.strategy = st;
  for (k = -1; k < REPS; k++) {
    double t0 = now_ms();
    if (ge_mem_plan_intervals(iv, n, &d, off, sum, &err)) {
      fprintf(stderr, "plan failed: %s\n", err.message);
      exit(1);
    }
    if (k >= 0) t[k] = now_ms() - t0;
  }
  qsort(t, REPS, sizeof *t, cmp_double);
  return t[REPS / 2];
}

int main(int argc, char **argv) {
  static const struct {
    const char *name;
    void (*make)(tu_gen *, tu_rng *);
  } fams[] = {{"chain CNN", fam_chain},
              {"residual CNN", fam_residual},
              {"random DAG", fam_random},
              {"transformer", fam_transformer}};
  size_t n = argc > 1 ? (size_t)strtoull(argv[1], NULL, 10) : 100000, f;
  tu_gen g;
  uint64_t *off;
  if (n < 1000) n = 1000;
  g.iv = (ge_mem_interval *)malloc(n * sizeof *g.iv);
  off = (uint64_t *)malloc(n * sizeof *off);
  if (!g.iv || !off) return 1;
  g.cap = n;
  printf("ge_mem planner: %zu intervals per family, alignment 512, ms = median thread CPU time of %d runs\n\n", n, REPS);
  for (f = 0; f < sizeof fams / sizeof fams[0]; f++) {
    tu_rng r;
    ge_mem_plan_summary best, one;
    double tb, tc[REPS], live_avg = 0;
    int s, k;
    size_t i;
    ge_error err;
    r.s = 0x9E3779B97F4A7C15ull * (f + 1);
    g.n = 0;
    fams[f].make(&g, &r);
    for (i = 0; i < g.n; i++) live_avg += g.iv[i].last_use - g.iv[i].first_use + 1;
    live_avg /= (double)g.n;
    tb = time_plan(g.iv, g.n, GE_MEM_STRATEGY_BEST, off, &best);
    printf("%s: %zu intervals, mean lifetime %.1f steps, lower bound %.1f MiB, no reuse %.1f MiB\n", fams[f].name,
           g.n, live_avg, best.lower_bound / 1048576.0, best.no_reuse_total / 1048576.0);
    printf("  %-16s %10s %9s\n", "strategy", "total/LB", "ms");
    for (s = 1; s < GE_MEM_STRATEGY_COUNT; s++) {
      double t = time_plan(g.iv, g.n, (ge_mem_strategy)s, off, &one);
      printf("  %-16s %10.4f %9.2f\n", ge_mem_strategy_name((ge_mem_strategy)s),
             (double)one.total / (double)one.lower_bound, t);
    }
    time_plan(g.iv, g.n, GE_MEM_STRATEGY_BEST, off, &best); /* offsets of the best plan for the checker */
    printf("  %-16s %10.4f %9.2f   (chose %s)\n", "BEST", (double)best.total / (double)best.lower_bound, tb,
           ge_mem_strategy_name(best.strategy));
    for (k = -1; k < REPS; k++) {
      double t0 = now_ms();
      if (ge_mem_check_plan(g.iv, g.n, NULL, off, best.total, &err)) {
        printf("  CHECK FAILED: %s\n", err.message);
        return 1;
      }
      if (k >= 0) tc[k] = now_ms() - t0;
    }
    qsort(tc, REPS, sizeof *tc, cmp_double);
    printf("  %-16s %10s %9.2f\n\n", "checker", "ok", tc[REPS / 2]);
  }
  free(g.iv);
  free(off);
  return 0;
}

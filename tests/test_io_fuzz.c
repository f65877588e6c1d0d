/* test_io_fuzz.c — mutation fuzzing of ge_graph_deserialize with the
 * checksum check compiled out (GE__SERIAL_NO_CHECKSUM, a private switch for
 * this test only), so that corrupted bytes reach the structural checks.
 * Seeded and reproducible. GE_FUZZ_ITERS sets the iterations (default
 * 20000), GE_FUZZ_SEED the seed; run it under ASan+UBSan for the real
 * assurance (make test SAN=1). Every loaded graph is also re-serialized,
 * hashed, dumped, validated and sorted, which must not crash either. */
#define _POSIX_C_SOURCE 200809L
#define GE__SERIAL_NO_CHECKSUM
#define GE_GRAPH_IMPLEMENTATION
#include "ge_graph.h"
#include "tests/test.h"
#include "tests/graph_util.h"

typedef struct fuzz_seed {
  uint8_t *b;
  size_t n;
} fuzz_seed;

static uint64_t get_u64(const uint8_t *p) {
  uint64_t v = 0;
  int i;
  for (i = 0; i < 8; i++) v |= (uint64_t)p[i] << (8 * i);
  return v;
}
static void put_u64(uint8_t *p, uint64_t v) {
  int i;
  for (i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* Applies 1..4 random mutations to buf (n bytes, capacity cap); keeps the
 * header's payload length and body length consistent most of the time so
 * that the parser gets past them. Returns the new length. */
static size_t mutate(tu_rng *r, uint8_t *buf, size_t n, size_t cap) {
  uint32_t k, count = 1 + tu_below(r, 4);
  uint64_t body = n >= 40 ? get_u64(buf + 32) : 0;
  int fix = tu_below(r, 8) != 0;
  for (k = 0; k < count; k++) {
    /* mostly after the header */
    size_t lo = fix && n > 40 ? 40 : 0, at = lo + (n > lo ? tu_below(r, (uint32_t)(n - lo)) : 0), len, j;
    switch (tu_below(r, 8)) {
    case 0: /* bit flip */
      if (at < n) buf[at] ^= (uint8_t)(1u << tu_below(r, 8));
      break;
    case 1: { /* interesting byte */
      static const uint8_t vals[8] = {0, 1, 0x7F, 0x80, 0xFF, 0x3F, 0x40, 0x10};
      if (at < n) buf[at] = tu_below(r, 2) ? vals[tu_below(r, 8)] : (uint8_t)tu_next(r);
      break;
    }
    case 2: /* truncate */
      if (at < n) {
        if (at < 40 + body) body = at > 40 ? at - 40 : 0;
        n = at;
      }
      break;
    case 3: /* insert random bytes */
      len = 1 + tu_below(r, 8);
      if (n + len > cap) break;
      memmove(buf + at + len, buf + at, n - at);
      for (j = 0; j < len; j++) buf[at + j] = (uint8_t)tu_next(r);
      if (at < 40 + body && at >= 40) body += len;
      n += len;
      break;
    case 4: /* delete a range */
      len = 1 + tu_below(r, 8);
      if (at + len > n) len = n - at;
      memmove(buf + at, buf + at + len, n - at - len);
      if (at >= 40 && at < 40 + body) body = body > len ? body - len : 0;
      n -= len;
      break;
    case 5: { /* copy a chunk over another place */
      size_t from = n ? tu_below(r, (uint32_t)n) : 0;
      len = 1 + tu_below(r, 16);
      if (from + len > n || at + len > n) break;
      memmove(buf + at, buf + from, len);
      break;
    }
    case 6: /* a long varint */
      len = 1 + tu_below(r, 10);
      if (at + len > n) break;
      for (j = 0; j + 1 < len; j++) buf[at + j] = 0x80 | (uint8_t)tu_next(r);
      buf[at + len - 1] = (uint8_t)(tu_next(r) & 0x7F);
      break;
    default: /* small integer change */
      if (at < n) buf[at] = (uint8_t)(buf[at] + (tu_below(r, 2) ? 1 : -1));
      break;
    }
  }
  if (fix && n >= 40) {
    put_u64(buf + 16, n - 32);
    if (body > n - 40) body = n - 40;
    put_u64(buf + 32, body);
  }
  return n;
}

static void exercise(ge_graph *g, FILE *sink) {
  uint8_t *b1, *b2;
  size_t n1, n2;
  uint64_t h;
  ge_graph *g2;
  ge_node_id *order = (ge_node_id *)malloc(((size_t)ge_graph_node_count(g) + 1) * sizeof(ge_node_id));
  ge_error err;
  /* what loads must serialize again, load again and give the same bytes */
  if (ge_graph_serialize(g, &b1, &n1, &err) != GE_OK) {
    printf("    a loaded graph does not serialize: %s\n", err.message);
    abort();
  }
  if (ge_graph_deserialize(b1, n1, NULL, &g2, &err) != GE_OK) {
    printf("    re-serialized bytes do not load: %s\n", err.message);
    fflush(stdout);
    abort();
  }
  if (ge_graph_serialize(g2, &b2, &n2, &err) != GE_OK || n1 != n2 || memcmp(b1, b2, n1) != 0) {
    printf("    re-serialization is not stable\n");
    fflush(stdout);
    abort();
  }
  ge_graph_free_bytes(g2, b2, n2);
  ge_graph_free(g2);
  ge_graph_free_bytes(g, b1, n1);
  ge_graph_hash(g, &h, NULL);
  rewind(sink);
  ge_graph_dump(g, sink);
  rewind(sink);
  ge_graph_write_dot(g, sink);
  ge_graph_validate(g, NULL, NULL);
  if (order) ge_graph_topo_sort(g, GE_TOPO_STABLE_RDFS, order, NULL);
  free(order);
}

GE_TEST(test_fuzz_deserialize) {
  char path[256];
  fuzz_seed seeds[8];
  int nseeds = 0, i;
  long iters = 20000, it, loaded = 0, errors = 0, bad_status = 0;
  uint64_t seed = 1;
  const char *env = getenv("GE_FUZZ_ITERS");
  tu_rng r;
  uint8_t *buf;
  size_t cap = 0;
  FILE *sink = tmpfile();
  GE_REQUIRE(sink);
  if (env && atol(env) > 0) iters = atol(env);
  env = getenv("GE_FUZZ_SEED");
  if (env) seed = (uint64_t)strtoull(env, NULL, 10);
  tu_temp_path(path, sizeof path, "fuzz");
  {
    ge_graph *g = tu_rich_graph(path);
    seeds[nseeds].b = tu_ser(g, &seeds[nseeds].n);
    nseeds++;
    ge_graph_free(g);
    remove(path);
  }
  for (i = 0; i < 5; i++) {
    ge_graph *g = tu_random_graph(1000 + (uint64_t)i, 0);
    seeds[nseeds].b = tu_ser(g, &seeds[nseeds].n);
    nseeds++;
    ge_graph_free(g);
  }
  {
    ge_graph *g = tu_small_graph("s", 1);
    seeds[nseeds].b = tu_ser(g, &seeds[nseeds].n);
    nseeds++;
    ge_graph_free(g);
  }
  for (i = 0; i < nseeds; i++)
    if (seeds[i].n + 256 > cap) cap = seeds[i].n + 256;
  buf = (uint8_t *)malloc(cap);
  tu_seed(&r, seed);
  for (it = 0; it < iters; it++) {
    const fuzz_seed *s = &seeds[tu_below(&r, (uint32_t)nseeds)];
    size_t n;
    ge_graph *g = (ge_graph *)1;
    ge_error err;
    ge_status st;
    memcpy(buf, s->b, s->n);
    n = mutate(&r, buf, s->n, cap);
    st = ge_graph_deserialize(buf, n, NULL, &g, &err);
    if (st == GE_OK) {
      loaded++;
      exercise(g, sink);
      ge_graph_free(g);
    } else {
      errors++;
      if (st != GE_ERR_FORMAT || g != NULL || !strstr(err.message, "offset")) {
        if (bad_status++ < 3) printf("    iteration %ld: status %d: %s\n", it, st, err.message);
      }
    }
  }
  printf("    %ld iterations (seed %llu): %ld loaded, %ld rejected\n", iters, (unsigned long long)seed, loaded, errors);
  GE_CHECK_EQ_INT(bad_status, 0);
  GE_CHECK(errors > iters / 4); /* the mutations do reach the checks */
  for (i = 0; i < nseeds; i++) ge_graph_free_bytes(NULL, seeds[i].b, seeds[i].n);
  free(buf);
  fclose(sink);
}

int main(int argc, char **argv) {
  ge_test_init(argc, argv);
  GE_RUN(test_fuzz_deserialize);
  return ge_test_main_end();
}

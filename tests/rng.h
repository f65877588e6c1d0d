/* rng.h — the seeded random generator (xorshift64*) that the tests and the
 * benchmarks share; needs nothing else. */
#ifndef GE_TEST_RNG_H
#define GE_TEST_RNG_H

#include <stdint.h>

#if defined(__GNUC__) || defined(__clang__)
#define TU_RNG_UNUSED __attribute__((unused))
#else
#define TU_RNG_UNUSED
#endif

typedef struct tu_rng {
  uint64_t s; /* nonzero; tu_seed sets it */
} tu_rng;

static TU_RNG_UNUSED uint64_t tu_next(tu_rng *r) {
  uint64_t x = r->s;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  r->s = x;
  return x * 0x2545F4914F6CDD1Dull;
}
/* Uniform below n (0 for n = 0). */
static TU_RNG_UNUSED uint32_t tu_below(tu_rng *r, uint32_t n) { return n ? (uint32_t)(tu_next(r) >> 33) % n : 0; }
static TU_RNG_UNUSED void tu_seed(tu_rng *r, uint64_t seed) {
  r->s = seed * 0x9E3779B97F4A7C15ull + 0x1234567ull;
  if (!r->s) r->s = 1;
  tu_next(r);
}

#endif /* GE_TEST_RNG_H */

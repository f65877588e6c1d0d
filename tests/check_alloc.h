/* check_alloc.h — the checking allocator the tests share: each block's
 * size is stored in front of it, free and realloc must receive it back,
 * what is outstanding is counted, and allocations fail on demand. Needs
 * only ge_allocator (from ge_graph.h or ge_mem.h). Not thread-safe. */
#ifndef GE_TEST_CHECK_ALLOC_H
#define GE_TEST_CHECK_ALLOC_H

#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__) || defined(__clang__)
#define TU_ALLOC_UNUSED __attribute__((unused))
#else
#define TU_ALLOC_UNUSED
#endif

typedef struct tu_alloc_state {
  long long outstanding, peak, blocks;
  long long allocs;     /* successful allocations so far */
  long long fail_after; /* < 0: never; else fail once `allocs` reaches it */
  long long fail_above; /* > 0: fail when outstanding would pass it */
  int size_mismatches;
} tu_alloc_state;

static TU_ALLOC_UNUSED void *tu_alloc(void *user, size_t size) {
  tu_alloc_state *s = (tu_alloc_state *)user;
  unsigned char *p;
  if (s->fail_after >= 0 && s->allocs >= s->fail_after) return NULL;
  if (s->fail_above > 0 && s->outstanding + (long long)size > s->fail_above) return NULL;
  p = (unsigned char *)malloc(size + 16);
  if (!p) return NULL;
  memcpy(p, &size, sizeof size);
  s->allocs++;
  s->blocks++;
  s->outstanding += (long long)size;
  if (s->outstanding > s->peak) s->peak = s->outstanding;
  return p + 16;
}

static TU_ALLOC_UNUSED void tu_free(void *user, void *ptr, size_t size) {
  tu_alloc_state *s = (tu_alloc_state *)user;
  unsigned char *p = (unsigned char *)ptr - 16;
  size_t stored;
  memcpy(&stored, p, sizeof stored);
  if (stored != size) s->size_mismatches++;
  s->outstanding -= (long long)stored;
  s->blocks--;
  free(p);
}

static TU_ALLOC_UNUSED void *tu_realloc(void *user, void *ptr, size_t old_size, size_t new_size) {
  void *q = tu_alloc(user, new_size);
  if (!q) return NULL;
  if (ptr) {
    memcpy(q, ptr, old_size < new_size ? old_size : new_size);
    tu_free(user, ptr, old_size);
  }
  return q;
}

/* An allocator over a fresh state s that never fails. */
static TU_ALLOC_UNUSED ge_allocator tu_allocator(tu_alloc_state *s) {
  ge_allocator a;
  memset(s, 0, sizeof *s);
  s->fail_after = -1;
  a.alloc = tu_alloc;
  a.realloc = tu_realloc;
  a.free = tu_free;
  a.user = s;
  return a;
}

#endif /* GE_TEST_CHECK_ALLOC_H */

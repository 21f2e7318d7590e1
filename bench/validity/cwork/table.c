/* A small open-addressing hash table filled and probed: branches and memory. */
#include "work.h"

#define SLOTS 1024
static uint32_t keys[SLOTS];
static uint32_t vals[SLOTS];

static unsigned probe(uint32_t k) {
  unsigned h = (k * 2654435761u) >> 22;
  while (keys[h] != 0 && keys[h] != k)
    h = (h + 1) & (SLOTS - 1);
  return h;
}

uint32_t table_work(uint32_t seed) {
  for (unsigned i = 0; i < SLOTS; ++i)
    keys[i] = vals[i] = 0;
  uint32_t x = seed | 1, sum = 0;
  for (unsigned i = 0; i < 600; ++i) {
    x ^= x << 13, x ^= x >> 17, x ^= x << 5;
    unsigned h = probe(x | 1);
    keys[h] = x | 1;
    vals[h] += i;
  }
  for (unsigned i = 0; i < 1200; ++i) {
    x ^= x << 13, x ^= x >> 17, x ^= x << 5;
    unsigned h = probe(x | 1);
    sum += keys[h] ? vals[h] : 1;
  }
  return sum;
}

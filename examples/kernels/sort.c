/* sort: qsort(3) with a comparator callback over small records (compare by
 * two keys, then an id): millions of indirect calls from libc into the
 * program's comparator, so the comparator's placement and the PLT/call path
 * are on the hot path. Data are regenerated from a fixed LCG each iteration.
 * Usage: sort [iterations] [elements]; prints a checksum (deterministic). */
#include <alea/iter.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  uint32_t major;
  uint32_t minor;
  uint32_t id;
} Rec;

static int byKeys(const void *pa, const void *pb) {
  const Rec *a = pa, *b = pb;
  if (a->major != b->major)
    return a->major < b->major ? -1 : 1;
  if (a->minor != b->minor)
    return a->minor < b->minor ? -1 : 1;
  return (a->id > b->id) - (a->id < b->id);
}

int main(int argc, char **argv) {
  int iterations = argc > 1 ? atoi(argv[1]) : 10;
  size_t count = argc > 2 ? (size_t)atol(argv[2]) : 50000;
  Rec *recs = malloc(count * sizeof *recs);
  uint64_t seed = 7, checksum = 0;
  size_t i;
  int it;
  if (!recs)
    return 1;
  for (it = 0; it < iterations; ++it) {
    for (i = 0; i < count; ++i) {
      seed = seed * 6364136223846793005ull + 1442695040888963407ull;
      recs[i].major = (uint32_t)(seed >> 59);
      recs[i].minor = (uint32_t)(seed >> 33) & 0xffff;
      recs[i].id = (uint32_t)i;
    }
    alea_iter_begin();
    qsort(recs, count, sizeof *recs, byKeys);
    alea_iter_end();
    for (i = 0; i < count; i += count / 64 + 1)
      checksum = checksum * 31 + recs[i].id;
  }
  printf("sort %d %llu\n", iterations, (unsigned long long)checksum);
  free(recs);
  return 0;
}

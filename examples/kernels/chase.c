/* chase: pointer chasing and hashing. Walks a linked list whose nodes were
 * linked in a pseudo-random order (a cache- and TLB-hostile walk), hashing each
 * key with FNV-1a into an open-addressing table. Dominated by data memory
 * latency; its code is small, so code layout matters through alignment of
 * the two hot loops and the heap/stack offsets.
 * Usage: chase [iterations] [nodes]; prints a checksum (deterministic). */
#include <alea/iter.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Node {
  struct Node *next;
  uint64_t key;
} Node;

static uint64_t lcg(uint64_t *s) {
  *s = *s * 6364136223846793005ull + 1442695040888963407ull;
  return *s >> 17;
}

static uint64_t fnv1a(uint64_t key) {
  uint64_t h = 0xcbf29ce484222325ull;
  int i;
  for (i = 0; i < 8; ++i) {
    h ^= (key >> (8 * i)) & 0xff;
    h *= 0x100000001b3ull;
  }
  return h;
}

#define TABLE (1u << 16)
static uint64_t table[TABLE];

static uint64_t walk(const Node *n, int rounds) {
  uint64_t hits = 0;
  int r;
  for (r = 0; r < rounds; ++r) {
    const Node *p;
    memset(table, 0, sizeof table); /* load factor stays below 1/3 */
    for (p = n; p; p = p->next) {
      uint64_t h = fnv1a(p->key + (uint64_t)r) & (TABLE - 1);
      while (table[h] != 0 && table[h] != p->key)
        h = (h + 1) & (TABLE - 1);
      hits += table[h] == p->key;
      table[h] = p->key;
    }
  }
  return hits;
}

int main(int argc, char **argv) {
  int iterations = argc > 1 ? atoi(argv[1]) : 10;
  size_t count = argc > 2 ? (size_t)atol(argv[2]) : 20000;
  Node *nodes = malloc(count * sizeof *nodes);
  size_t *order = malloc(count * sizeof *order);
  uint64_t seed = 42, checksum = 0;
  size_t i;
  int it;
  if (!nodes || !order)
    return 1;
  for (i = 0; i < count; ++i)
    order[i] = i;
  for (i = count - 1; i > 0; --i) { /* Fisher-Yates with a fixed LCG */
    size_t j = (size_t)(lcg(&seed) % (i + 1)), t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
  for (i = 0; i < count; ++i) {
    nodes[order[i]].key = lcg(&seed) % 40000 + 1;
    nodes[order[i]].next = i + 1 < count ? &nodes[order[i + 1]] : NULL;
  }
  for (it = 0; it < iterations; ++it) {
    alea_iter_begin();
    checksum = checksum * 31 + walk(&nodes[order[0]], 40);
    alea_iter_end();
  }
  printf("chase %d %llu\n", iterations, (unsigned long long)checksum);
  free(order);
  free(nodes);
  return 0;
}

/* Part of the seed-file project: a checksum of a string. */
#include "seedfile.h"

unsigned textChecksum(const char *text) {
  unsigned h = 2166136261u;
  for (; *text; ++text)
    h = (h ^ (unsigned char)*text) * 16777619u;
  return h;
}

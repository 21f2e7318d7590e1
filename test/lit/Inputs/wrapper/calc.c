/* Part of the wrapper's multi-file test program. */
static const unsigned long kPrime = 1099511628211UL;

unsigned long checksum(const char *text) {
  unsigned long h = 14695981039346656037UL;
  for (; *text; ++text)
    h = (h ^ (unsigned char)*text) * kPrime;
  return h % 1000003UL;
}

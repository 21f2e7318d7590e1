/* A well-behaved benchmark for the measure end-to-end tests: argv[1]
 * iterations of WORK (a compile-time constant, so two "systems" can differ by
 * a known factor) timed with <alea/iter.h>; prints a checksum. */
#include <alea/iter.h>

#include <stdio.h>
#include <stdlib.h>

#ifndef WORK
#define WORK 4000000
#endif

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 5;
  volatile unsigned long acc = 1;
  for (int i = 0; i < n; ++i) {
    alea_iter_begin();
    for (unsigned long j = 0; j < (unsigned long)WORK; ++j)
      acc = acc * 6364136223846793005ul + j;
    alea_iter_end();
  }
  printf("checksum %lu\n", (unsigned long)acc);
  return 0;
}

/* A C99 program using <alea/iter.h> as a benchmark would: argv[1] iterations
 * bracketed by begin/end, then argv[2] self-timed iterations reported with
 * alea_iter_report. Compiled as C with -pedantic to keep the header plain C.
 * Each iteration ends in another file (iter_fixture_end.c): the header's state
 * must be one per program, not one per translation unit. */
#include <alea/iter.h>

#include <stdio.h>
#include <stdlib.h>

void fixtureEndIteration(void); /* iter_fixture_end.c */

int main(int argc, char **argv) {
  int timed = argc > 1 ? atoi(argv[1]) : 3;
  int reported = argc > 2 ? atoi(argv[2]) : 0;
  volatile unsigned long acc = 0;
  int i;
  unsigned long j;
  for (i = 0; i < timed; ++i) {
    alea_iter_begin();
    for (j = 0; j < 100000ul; ++j)
      acc += j ^ (unsigned long)i;
    fixtureEndIteration();
  }
  for (i = 0; i < reported; ++i)
    alea_iter_report(1000u * (uint64_t)(i + 1));
  printf("%lu\n", (unsigned long)acc);
  return 0;
}

/* A benchmark that times itself and prints "iteration time: X ms" lines, for
 * the regex source of the end-to-end test; WORK as in good.c. It times its
 * thread's CPU time: the test compares two amounts of work on loaded CI
 * machines, where wall time would measure the load. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifndef WORK
#define WORK 4000000
#endif

static double nowMs(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 5;
  volatile unsigned long acc = 1;
  for (int i = 0; i < n; ++i) {
    double t0 = nowMs();
    for (unsigned long j = 0; j < (unsigned long)WORK; ++j)
      acc = acc * 6364136223846793005ul + j;
    printf("iteration time: %.6f ms\n", nowMs() - t0);
  }
  printf("checksum %lu\n", (unsigned long)acc);
  return 0;
}

/* A program whose work is known exactly: argv[1] iterations of a loop of two
 * instructions (dec, jnz), whatever the compiler does around it. The counter
 * and simulated-metric tests (metrics_test.cpp) run it. */
#include <stdlib.h>

int main(int argc, char **argv) {
  unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 0;
#if defined(__x86_64__) || defined(__i386__)
  if (n)
    __asm__ volatile("1: dec %0\n\tjnz 1b" : "+r"(n));
#else
  for (volatile unsigned long i = 0; i < n; ++i) {
  }
#endif
  return 0;
}

#include <stdio.h>
#include <stdlib.h>
static unsigned long step(unsigned long a, unsigned long j) {
  return a * 6364136223846793005ul + j;
}
int main(int argc, char **argv) {
  unsigned long n = argc > 1 ? strtoul(argv[1], 0, 10) : 1000000, a = 1;
  for (unsigned long j = 0; j < n; ++j)
    a = step(a, j);
  printf("%lu\n", a & 1);
  return 0;
}

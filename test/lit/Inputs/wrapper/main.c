/* A small multi-file program for the wrapper's execution tests: its output must
   not depend on the layout seed. */
#include <stdio.h>

int sumTo(int n);
unsigned long checksum(const char *text);
extern int counter;

static int twice(int x) { return 2 * x; }

int main(void) {
  for (int i = 0; i < 3; ++i)
    ++counter;
  printf("sum=%d twice=%d counter=%d crc=%lu\n", sumTo(100), twice(21), counter,
         checksum("alea layout"));
  return 0;
}

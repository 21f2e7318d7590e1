/* The seed-file project's program: prints "areas=40 checksum=4238679418"
   (1*2 + 2*3 + 3*4 + 4*5 = 40; FNV-1a of "alea"), whatever the layout. */
#include "seedfile.h"
#include <stdio.h>

int main(void) {
  printf("areas=%ld checksum=%u\n", areaSum(4), textChecksum("alea"));
  return 0;
}

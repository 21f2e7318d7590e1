/* Usage: work REPS | work FILE (a file holding REPS: the campaigns' builds write
 * it, so that one benchmark command serves both systems). Time = start-up + REPS x
 * (one fixed chunk): a candidate given 1.10 x REPS does 10% more of exactly the
 * same work; every repetition does the same work (nothing depends on the
 * repetition number but the checksum). Prints the checksum. */
#include "work.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  const char *a = argc > 1 ? argv[1] : "100";
  char *end;
  long reps = strtol(a, &end, 10);
  if (*end != '\0') {
    FILE *f = fopen(a, "r");
    if (!f || fscanf(f, "%ld", &reps) != 1) {
      fprintf(stderr, "work: no repetition count in %s\n", a);
      return 2;
    }
    fclose(f);
  }
  uint8_t code[512];
  uint32_t s = 12345;
  for (unsigned i = 0; i < sizeof code; ++i) {
    s = s * 1103515245u + 12345u;
    code[i] = (uint8_t)(s >> 16);
  }
  uint32_t check = 0;
  for (long r = 0; r < reps; ++r) {
    uint32_t acc = run_program(code, sizeof code, 7);
    for (int k = 0; k < 8; ++k)
      acc = run_program(code, sizeof code, acc);
    check += acc + table_work(99);
  }
  printf("%u\n", check);
  return 0;
}

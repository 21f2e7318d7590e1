/* The LTO project's C program: 1..10 through the C library, prints
   "sum=55 squares=385". */
#include "stats.h"
#include <stdio.h>

int main(void) {
  int values[10];
  for (int i = 0; i < 10; ++i)
    values[i] = i + 1;
  printf("sum=%ld squares=%ld\n", statsSum(values, 10), statsSumOfSquares(values, 10));
  return 0;
}

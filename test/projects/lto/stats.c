/* The C static library of the LTO project (test/projects/lto_cmake_meson.sh):
   small functions the LTO link can inline across files. */
#include "stats.h"

long statsSum(const int *values, int count) {
  long sum = 0;
  for (int i = 0; i < count; ++i)
    sum += values[i];
  return sum;
}

long statsSumOfSquares(const int *values, int count) {
  long sum = 0;
  for (int i = 0; i < count; ++i)
    sum += (long)values[i] * values[i];
  return sum;
}

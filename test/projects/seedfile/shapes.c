/* Part of the seed-file project: areas of a few rectangles. */
#include "seedfile.h"

long rectangleArea(long width, long height) { return width * height; }

long areaSum(int count) {
  long sum = 0;
  for (int i = 1; i <= count; ++i)
    sum += rectangleArea(i, i + 1);
  return sum;
}

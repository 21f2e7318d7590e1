/* C side of the detection project: prints 2*3 + 4*4 + 4*4 = 38 and checks
   that a C++ exception thrown and caught inside the library still works. */
#include <stdio.h>
double shapesAreaSum(double extraSquare);
int main(void) {
  double sum = shapesAreaSum(4.0);
  if (shapesAreaSum(-1.0) != 22.0 - 1000.0) {
    puts("exception path broken");
    return 1;
  }
  printf("area sum = %.2f\n", sum);
  return sum == 38.0 ? 0 : 1;
}

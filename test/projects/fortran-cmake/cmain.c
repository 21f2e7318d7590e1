/* The C main program of the CMake detection project, over its Fortran library. */
#include <stdio.h>

int collatz_total(int n); /* Fortran, bind(C) */

int main(void) {
  printf("collatz_total(30) = %d\n", collatz_total(30));
  return 0;
}

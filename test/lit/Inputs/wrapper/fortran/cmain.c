/* A C main program over Fortran code (stats.f90) and C++ code (cxxpart.cpp):
   the mixed C/C++/Fortran links of the wrapper's Fortran tests. */
#include <stdio.h>

int collatz_total(int n); /* Fortran, bind(C) */
double cxx_median(int n); /* C++, extern "C" */

int main(void) {
  printf("collatz_total(30) = %d\n", collatz_total(30));
  printf("cxx_median(7) = %.1f\n", cxx_median(7));
  return 0;
}

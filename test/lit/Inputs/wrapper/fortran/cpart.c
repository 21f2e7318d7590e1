/* The C part of the wrapper's mixed C/Fortran tests: called by the Fortran
   program (prog.f90). */
double scale_by_two(double x) { return 2.0 * x; }

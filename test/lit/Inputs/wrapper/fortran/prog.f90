! The Fortran main program of the wrapper's Fortran tests: uses the module,
! calls C (scale_by_two in cpart.c) and prints results that do not depend on
! the layout.
program prog
  use stats
  use iso_c_binding, only: c_double
  implicit none
  interface
    real(c_double) function scale_by_two(x) bind(C, name="scale_by_two")
      import :: c_double
      real(c_double), value :: x
    end function
  end interface
  real(8) :: x(6) = [3d0, 1d0, 4d0, 1d0, 5d0, 9d0]
  print '(a,f8.3)', 'mean     ', mean(x)
  print '(a,f8.3)', 'variance ', variance(x)
  print '(a,f8.3)', 'largest  ', largest(x)
  print '(a,i8)', 'collatz  ', collatz_total(30)
  print '(a,f8.3)', 'scaled   ', scale_by_two(mean(x))
  print '(a,i8)', 'calls    ', calls
end program

! The Fortran program of the CMake detection project.
program prog
  use stats
  implicit none
  real(8) :: x(6) = [3d0, 1d0, 4d0, 1d0, 5d0, 9d0]
  print '(a,f8.3)', 'mean     ', mean(x)
  print '(a,f8.3)', 'variance ', variance(x)
end program

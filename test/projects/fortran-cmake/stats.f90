! The Fortran library of the CMake detection project: a module with a few
! procedures, one of them callable from C.
module stats
  use iso_c_binding, only: c_int
  implicit none
contains
  real(8) function mean(x)
    real(8), intent(in) :: x(:)
    mean = sum(x) / size(x)
  end function

  real(8) function variance(x)
    real(8), intent(in) :: x(:)
    variance = sum((x - mean(x))**2) / (size(x) - 1)
  end function

  integer function collatz(n)
    integer, intent(in) :: n
    integer :: m
    m = n
    collatz = 0
    do while (m /= 1)
      if (mod(m, 2) == 0) then
        m = m / 2
      else
        m = 3 * m + 1
      end if
      collatz = collatz + 1
    end do
  end function

  integer(c_int) function collatz_total(n) bind(C, name="collatz_total")
    integer(c_int), value :: n
    integer :: i
    collatz_total = 0
    do i = 1, n
      collatz_total = collatz_total + collatz(i)
    end do
  end function
end module

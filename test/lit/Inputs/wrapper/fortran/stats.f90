! A Fortran module of small procedures (the wrapper's Fortran tests): enough
! functions for function-order to draw different orders, a module variable for
! global-order, and a procedure C calls (bind(C)).
module stats
  use iso_c_binding, only: c_double, c_int
  implicit none
  real(8) :: history(8) = 0
  integer :: calls = 0
contains
  real(8) function mean(x)
    real(8), intent(in) :: x(:)
    mean = sum(x) / size(x)
    call remember(mean)
  end function

  real(8) function variance(x)
    real(8), intent(in) :: x(:)
    variance = sum((x - mean(x))**2) / (size(x) - 1)
  end function

  real(8) function largest(x)
    real(8), intent(in) :: x(:)
    largest = maxval(x)
  end function

  subroutine remember(v)
    real(8), intent(in) :: v
    calls = calls + 1
    history(mod(calls - 1, 8) + 1) = v
  end subroutine

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

  ! Called from C: the sum of the Collatz lengths of 1..n.
  integer(c_int) function collatz_total(n) bind(C, name="collatz_total")
    integer(c_int), value :: n
    integer :: i
    collatz_total = 0
    do i = 1, n
      collatz_total = collatz_total + collatz(i)
    end do
  end function
end module

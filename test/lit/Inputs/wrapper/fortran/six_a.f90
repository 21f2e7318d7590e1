! Six procedures in source order a1..a6 (fortran.test makes six_b.f90 with
! b1..b6 from it: flang's modules are all named FIRModule, so the plugin salts
! each with the names it defines).
subroutine a1(x)
  real :: x
  x = x * 1.0 + 1.0
end subroutine
subroutine a2(x)
  real :: x
  x = x * 2.0 + 1.0
end subroutine
subroutine a3(x)
  real :: x
  x = x * 3.0 + 1.0
end subroutine
subroutine a4(x)
  real :: x
  x = x * 4.0 + 1.0
end subroutine
subroutine a5(x)
  real :: x
  x = x * 5.0 + 1.0
end subroutine
subroutine a6(x)
  real :: x
  x = x * 6.0 + 1.0
end subroutine

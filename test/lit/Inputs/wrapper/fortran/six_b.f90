! Six procedures in source order b1..b6 (fortran.test: flang's modules are all
! named FIRModule, so the plugin salts each with the names it defines).
subroutine b1(x)
  real :: x
  x = x * 1.0 + 1.0
end subroutine
subroutine b2(x)
  real :: x
  x = x * 2.0 + 1.0
end subroutine
subroutine b3(x)
  real :: x
  x = x * 3.0 + 1.0
end subroutine
subroutine b4(x)
  real :: x
  x = x * 4.0 + 1.0
end subroutine
subroutine b5(x)
  real :: x
  x = x * 5.0 + 1.0
end subroutine
subroutine b6(x)
  real :: x
  x = x * 6.0 + 1.0
end subroutine

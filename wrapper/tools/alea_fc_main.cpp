// alea-fc: drop-in Fortran compiler (FC) over flang-new-19 with a seeded random
// code layout (docs/wrapper.md, "Fortran (alea-fc)").
#include "alea/wrapper/driver.hpp"

int main(int argc, char **argv) {
  return alea::wrapper::runWrapper(alea::wrapper::Tool::Fc, argc, argv);
}

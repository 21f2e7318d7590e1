// alea-cc: drop-in C compiler with a seeded random code layout (docs/wrapper.md).
#include "alea/wrapper/driver.hpp"

int main(int argc, char **argv) {
  return alea::wrapper::runWrapper(alea::wrapper::Tool::Cc, argc, argv);
}

// alea-ld: drop-in linker (LD) that runs ld.lld with the object files in a seeded
// order and --shuffle-sections seeded from ALEA_SEED (docs/wrapper.md).
#include "alea/wrapper/driver.hpp"

int main(int argc, char **argv) {
  return alea::wrapper::runWrapper(alea::wrapper::Tool::Ld, argc, argv);
}

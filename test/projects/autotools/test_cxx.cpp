// make check: C++ test (exceptions, std::map, static init) linked with libgreet.
#include "greet.h"
#include <cstdlib>
#include <iostream>
#include <map>
#include <stdexcept>
#include <string>

static std::map<std::string, unsigned long> table = {{"a", checksum("a")}, {"b", checksum("b")}};

int main() {
  int failures = 0;
  try {
    throw std::runtime_error("thrown");
  } catch (const std::exception &e) {
    failures += std::string(e.what()) != "thrown";
  }
  failures += table.at("a") != 5381UL * 33 + 'a';
  failures += table.at("b") != 5381UL * 33 + 'b';
  char *g = greet("c++");
  failures += std::string(g) != "hello, c++";
  std::free(g);
  std::cout << (failures ? "FAIL" : "PASS") << "\n";
  return failures ? 1 : 0;
}

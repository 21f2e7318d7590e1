// The LTO project's C++ program: uses both libraries, prints
// "lto-build-55 squares=385".
#include "stats.h"
#include "words.hpp"
#include <iostream>

int main() {
  const int values[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  std::vector<std::string> words = {"lto", "build", std::to_string(statsSum(values, 10))};
  std::cout << joinWords(words) << " squares=" << statsSumOfSquares(values, 10) << "\n";
  return 0;
}

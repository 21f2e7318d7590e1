// C++ with exceptions and a static constructor, built by alea-c++.
#include <cstdio>
#include <stdexcept>
#include <string>

struct Greeter {
  std::string word;
  Greeter() : word("hello") {}
};
static Greeter greeter;

static int mayThrow(int x) {
  if (x > 2)
    throw std::runtime_error("big");
  return x;
}

int main() {
  int caught = 0;
  for (int i = 0; i < 5; ++i) {
    try {
      mayThrow(i);
    } catch (const std::exception &) {
      ++caught;
    }
  }
  std::printf("%s caught=%d\n", greeter.word.c_str(), caught);
  return 0;
}

// ALEA_TEST_KILL_AT (see kill_point.hpp).
#include "alea/exec/kill_point.hpp"

#include <csignal>
#include <cstdlib>
#include <string>
#include <unistd.h>

namespace alea::runner {

namespace {

struct Target {
  std::string point;  // "" = no hook
  long remaining = 0; // passes left before the kill
};

Target readTarget() {
  Target t;
  const char *v = std::getenv("ALEA_TEST_KILL_AT");
  if (!v)
    return t;
  std::string_view text(v);
  const auto colon = text.rfind(':');
  if (colon == std::string_view::npos)
    return t;
  char *end = nullptr;
  const std::string count(text.substr(colon + 1));
  const long n = std::strtol(count.c_str(), &end, 10);
  if (n < 1 || !end || *end != '\0')
    return t;
  t.point = std::string(text.substr(0, colon));
  t.remaining = n;
  return t;
}

} // namespace

void killPoint(std::string_view point) {
  static Target target = readTarget(); // read once per process
  if (target.point.empty() || point != target.point)
    return;
  if (--target.remaining == 0)
    ::kill(::getpid(), SIGKILL);
}

} // namespace alea::runner

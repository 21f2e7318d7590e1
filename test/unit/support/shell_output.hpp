// What the tests' shell prints: the output of `command` run by /bin/sh
// (popen's shell), for tests that check how a real shell reads what alea
// quoted (common's shell quoting, the runner's placeholder substitution).
#pragma once

#include <cstdio>
#include <string>

namespace alea::test_support {

inline std::string shellOutput(const std::string &command) {
  std::string out;
  FILE *pipe = popen(command.c_str(), "r");
  if (!pipe)
    return "popen failed";
  char buffer[4096];
  std::size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0)
    out.append(buffer, n);
  pclose(pipe);
  return out;
}

} // namespace alea::test_support

// The link-time ODR check alone (alea/linker/odr.hpp), for bench/build/odr_check.sh
// and for profiling (valgrind --tool=callgrind runs it deterministically): runs
// checkOdr on the inputs given, REPEAT times, and prints one line per run with
// the process CPU time of that run (user + system, from getrusage: what a busy
// machine changes least), then the findings of the last run, so the fast and
// the detailed comparisons can be timed and checked against each other on the
// same inputs. A benchmark driver, not a test: nothing is asserted.
// Usage: alea_odr_bench [--detailed] [--repeat N] [--list] INPUT...
#include "alea/linker/odr.hpp"

#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

double cpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  auto s = [](const timeval &t) { return static_cast<double>(t.tv_sec) + t.tv_usec / 1e6; };
  return s(u.ru_utime) + s(u.ru_stime);
}

} // namespace

int main(int argc, char **argv) {
  namespace al = alea::linker;
  al::OdrMethod method = al::OdrMethod::Fast;
  int repeat = 1;
  bool list = false;
  std::vector<std::string> inputs;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--detailed")
      method = al::OdrMethod::Detailed;
    else if (a == "--repeat" && i + 1 < argc)
      repeat = std::atoi(argv[++i]);
    else if (a == "--list")
      list = true;
    else
      inputs.push_back(a);
  }
  if (inputs.empty() || repeat < 1) {
    std::fprintf(stderr, "usage: alea_odr_bench [--detailed] [--repeat N] [--list] INPUT...\n");
    return 2;
  }
  std::optional<al::OdrReport> report;
  for (int r = 0; r < repeat; ++r) {
    const double start = cpuSeconds();
    auto checked = al::checkOdr(inputs, method);
    const double cpu = cpuSeconds() - start;
    if (!checked) {
      std::fprintf(stderr, "alea_odr_bench: error: %s\n", checked.error().c_str());
      return 1;
    }
    report = std::move(*checked);
    std::printf("cpu_ms %.3f objects %zu compared %zu findings %zu\n", cpu * 1e3, report->objects,
                report->compared, report->findings.size());
  }
  if (list)
    for (const al::OdrFinding &f : report->findings)
      std::printf("finding %s\n", al::describeOdrFindings({{f}, 0, 0, {}}).c_str());
  return 0;
}

// A suite shared by the report and format tests: three benchmarks x 4 builds
// x 3 iterations; cand is 10% faster on b1 and b2 and identical to base on b3.
// Build means: base on b1 and b3 1.001 + 0.01 k, on b2 2.001 + 0.02 k
// (k = 0..3); cand 0.1 (b1) and 0.2 (b2) lower.
#pragma once

#include "alea/analysis/table.hpp"

#include <string>
#include <string_view>

namespace alea::analysis::test {

inline Table touatiSuiteTable() {
  Table t({"build", "iteration"});
  for (const char *bench : {"b1", "b2", "b3"})
    for (int b = 0; b < 4; ++b)
      for (int i = 0; i < 3; ++i) {
        const std::string bl = std::to_string(b), il = std::to_string(i);
        const std::string_view units[] = {bl, il};
        const double scale = bench[1] == '2' ? 2.0 : 1.0;
        const double base = scale * (1.0 + 0.01 * b) + 0.001 * i;
        const double cand = bench[1] == '3' ? base : base - 0.1 * scale;
        t.add("base", bench, units, base);
        t.add("cand", bench, units, cand);
      }
  return t;
}

} // namespace alea::analysis::test

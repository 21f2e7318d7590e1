// Data shared by the report and format tests.
//
// touatiSuiteTable(): three benchmarks x 4 builds
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

// cand 5% slower than base on both of b1 and b2 (4 builds x 3 iterations):
// 0 of 2 benchmarks faster, where C(1 - C) = 0.
inline Table noneFasterSuiteTable() {
  Table t({"build", "iteration"});
  for (const char *bench : {"b1", "b2"})
    for (int b = 0; b < 4; ++b)
      for (int i = 0; i < 3; ++i) {
        const std::string bl = std::to_string(b), il = std::to_string(i);
        const std::string_view units[] = {bl, il};
        const double base = 1.0 + 0.01 * b + 0.001 * i;
        t.add("base", bench, units, base);
        t.add("cand", bench, units, base * 1.05);
      }
  return t;
}

// spec_000 §8.2 Table IV as long CSV: system s, 3 builds x 4 pooled
// measurements (the relative SD of the build means is 29.04%).
inline std::string table4Csv() {
  std::string csv = "system,build,iteration,value\n";
  const int y[3][4] = {{9, 8, 5, 3}, {10, 7, 6, 11}, {1, 2, 12, 4}};
  for (int b = 0; b < 3; ++b)
    for (int i = 0; i < 4; ++i)
      csv +=
          "s," + std::to_string(b) + "," + std::to_string(i) + "," + std::to_string(y[b][i]) + "\n";
  return csv;
}

} // namespace alea::analysis::test

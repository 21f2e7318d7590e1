// Each benchmark's scale (scale.hpp): the values multiplied by 2^-exponent
// before the engine sees them, and every location result multiplied back
// into the data's unit after.
#include "steps.hpp"

#include "alea/analysis/scale.hpp"

#include <cmath>

namespace alea::analysis::detail {

namespace {

void scaleUnits(std::vector<UnitNode> &units, int exponent) {
  for (auto &u : units) {
    for (double &v : u.values)
      v = std::ldexp(v, -exponent);
    scaleUnits(u.children, exponent);
  }
}

void collectValues(const std::vector<UnitNode> &units, std::vector<double> &out) {
  for (const auto &u : units) {
    out.insert(out.end(), u.values.begin(), u.values.end());
    collectValues(u.children, out);
  }
}

} // namespace

// Each benchmark's values checked and multiplied by 2^-exponent of its own
// scale, in place; the result holds, per benchmark in order, its scale or
// why its values are refused.
std::vector<Expected<ValueScale>> scaleBenchmarks(std::vector<BenchmarkData> &benchmarks) {
  std::vector<Expected<ValueScale>> out;
  std::vector<double> values;
  for (auto &b : benchmarks) {
    values.clear();
    for (const auto &s : b.systems)
      collectValues(s.units, values);
    out.push_back(chooseValueScale(values));
    if (out.back() && out.back()->exponent != 0)
      for (auto &s : b.systems)
        scaleUnits(s.units, out.back()->exponent);
  }
  return out;
}

// v x 2^(sum / count) for the average of `count` benchmark exponents: the
// whole part by ldexp (exact), the fraction from the integer remainder, so
// that no rounding of sum / count (near 1000, to 1e-13) reaches the result.
double timesPowerOfTwo(double v, long sum, long count) {
  long whole = sum / count, rest = sum % count;
  if (rest < 0) {
    --whole;
    rest += count;
  }
  return std::ldexp(v, static_cast<int>(whole)) *
         std::exp2(static_cast<double>(rest) / static_cast<double>(count));
}

// Variances back in the data's unit. Returns "" when they all fit a double,
// else "exceed" or "fall below": values above ~1e154 that differ by a percent
// have a variance above 1e304, values below ~1e-154 one below 1e-308.
std::string unscaleLevels(std::vector<LevelReport> &levels, int exponent) {
  std::string problem;
  for (auto &l : levels)
    for (double *v : {&l.s2, &l.t2}) {
      const double scaled = *v;
      *v = std::ldexp(scaled, 2 * exponent);
      if (!std::isfinite(*v))
        problem = "exceed";
      else if (*v == 0 && scaled != 0 && problem.empty())
        problem = "fall below";
    }
  return problem;
}

// Every location result of one benchmark back in the data's unit. An interval
// bound beyond the double range (data next to the largest double) cannot be
// reported: that fails, naming the values; a variance component beyond it (or
// below it) is left infinite (or 0) with a warning of the benchmark, since
// the intervals and ratios the report is about are fine.
Status unscaleBenchmark(BenchmarkReport &b, const ValueScale &scale) {
  const int e = scale.exponent;
  if (e == 0)
    return Status::success();
  const auto back = [e](double &v) { v = std::ldexp(v, e); };
  const auto backInterval = [&](Interval &i) {
    back(i.lower);
    back(i.upper);
  };
  std::string levels; // what unscaleLevels() found, for the warning
  for (auto &s : b.systems) {
    back(s.mean);
    back(s.ci.mean);
    back(s.ci.standardError);
    back(s.ci.halfWidth);
    backInterval(s.ci.interval);
    back(s.bootstrap.estimate);
    backInterval(s.bootstrap.interval);
    back(s.bestUnitMean);
    back(s.worstUnitMean);
    for (double &m : s.topMeans)
      back(m);
    back(s.layout.sd);
    if (std::string p = unscaleLevels(s.levels, e); !p.empty())
      levels = p;
    for (double v : {s.ci.interval.lower, s.ci.interval.upper, s.ci.halfWidth,
                     s.bootstrap.interval.lower, s.bootstrap.interval.upper})
      if (!std::isfinite(v))
        return fail(scale.range() + ": the confidence interval of the mean of system " +
                    quotedName(s.name) + where(b.name) + " exceeds the double range");
  }
  for (auto *ratios : {&b.ratios, &b.pairs})
    for (auto &x : *ratios) {
      back(x.ratioPlan.measurementValue);
      back(x.ratioPlan.totalTime);
    }
  if (!levels.empty())
    b.warnings.push_back(scale.range() + ": the variance components (S2, T2) " + levels +
                         " the double range in the data's unit and show as " +
                         (levels == "exceed" ? "infinite (null in JSON)" : "0") +
                         "; the intervals, ratios and variance shares are unaffected");
  return Status::success();
}

} // namespace alea::analysis::detail

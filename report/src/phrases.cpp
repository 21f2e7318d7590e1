// The phrases every renderer shares (phrases.hpp): numbers, intervals,
// plurals, the ratio sentence and the ratio in words, plan advice, variance
// shares, balancing. One spelling of each, so that text, Markdown, HTML and
// LaTeX say the same thing.
#include "phrases.hpp"

#include "alea/analysis/csv.hpp"
#include "alea/analysis/planner.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace alea::report {

using namespace alea::analysis;

std::string fmt(const char *format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

std::string g4(double v) { return fmt("%.4g", v); }
std::string r3(double v) { return fmt("%.3f", v); }
std::string pct(double fraction, const char *format) { return fmt(format, fraction * 100.0); }
std::string confidenceLabel(double c) {
  // 0.95 -> "95%", 0.999 -> "99.9%"
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g%%", c * 100.0);
  return buf;
}

std::string interval(const Interval &i, std::string (*f)(double)) {
  return "[" + f(i.lower) + ", " + f(i.upper) + "]";
}

std::string shapeText(const std::vector<std::string> &levels,
                      const std::vector<std::size_t> &shape) {
  std::string out;
  for (std::size_t i = 0; i < shape.size(); ++i)
    out += (i ? " x " : "") + std::to_string(shape[i]) + " " + nounFor(shape[i], levels[i]);
  return out;
}

std::string pathText(const std::vector<std::string> &path) {
  std::string out;
  for (std::size_t i = 0; i < path.size(); ++i)
    out += (i ? "/" : "") + path[i];
  return out;
}

std::string methodName(IntervalMethod m) { return m == IntervalMethod::T ? "t" : "normal"; }

std::string unbalancedName(UnbalancedPolicy p) { return unbalancedPolicyName(p); }

std::string measurementsText(std::size_t n) {
  return std::to_string(n) + " " + nounFor(n, "measurement");
}

// One removal: "b, execution 1/1: dropped 1 iteration (1 measurement)" or
// "b, build 7: dropped incomplete execution 3 (3 of 50 iterations; 3
// measurements)".
std::string droppedText(const DroppedUnits &d, const std::vector<std::string> &levels) {
  std::string o = d.system + (d.benchmark.empty() ? "" : " on " + d.benchmark);
  if (!d.path.empty())
    o += ", " + levels[d.path.size() - 1] + " " + pathText(d.path);
  if (d.reason == DropReason::Incomplete) {
    std::string labels;
    for (const auto &l : d.labels)
      labels += (labels.empty() ? "" : ", ") + l;
    return o + ": dropped incomplete " + d.level + " " + labels + " (" + std::to_string(d.found) +
           " of " + std::to_string(d.expected) + " " + nounFor(d.expected, d.childLevel) + "; " +
           measurementsText(d.measurements) + ")";
  }
  return o + ": dropped " + std::to_string(d.labels.size()) + " " +
         nounFor(d.labels.size(), d.level) + " (" + measurementsText(d.measurements) + ")";
}

bool sameSystem(const DroppedUnits &d, const SystemBalance &b) {
  return d.benchmark == b.benchmark && d.system == b.system;
}

// "10x4x50": a balanced shape, highest level first.
std::string shapeShort(const std::vector<std::size_t> &shape) {
  std::string out;
  for (std::size_t i = 0; i < shape.size(); ++i)
    out += (i ? "x" : "") + std::to_string(shape[i]);
  return out;
}

std::string varianceText(double v) { return std::isfinite(v) ? g4(v) : "inf"; }

// What the applied policy did, from its removals: "dropped 1 incomplete
// execution and trimmed every build to 4 executions".
std::string balancingAction(const SystemBalance &b, const std::vector<std::string> &levels,
                            const std::vector<DroppedUnits> &dropped) {
  const std::vector<std::size_t> &shape = b.shapeBy(b.applied);
  std::vector<std::size_t> incomplete(levels.size(), 0);
  std::vector<bool> trimmed(levels.size(), false);
  for (const auto &d : dropped) {
    if (!sameSystem(d, b))
      continue;
    const auto at = std::find(levels.begin(), levels.end(), d.level);
    if (at == levels.end())
      continue;
    const std::size_t i = static_cast<std::size_t>(at - levels.begin());
    if (d.reason == DropReason::Incomplete)
      incomplete[i] += d.labels.size();
    else
      trimmed[i] = true;
  }
  std::vector<std::string> drops, trims;
  for (std::size_t i = levels.size(); i-- > 0;) // bottom up, as they are dropped
    if (incomplete[i] > 0)
      drops.push_back(std::to_string(incomplete[i]) + " incomplete " +
                      nounFor(incomplete[i], levels[i]));
  for (std::size_t i = 1; i < levels.size(); ++i)
    if (trimmed[i] && i < shape.size())
      trims.push_back("every " + levels[i - 1] + " to " + std::to_string(shape[i]) + " " +
                      nounFor(shape[i], levels[i]));
  auto join = [](const std::vector<std::string> &parts) {
    std::string out;
    for (std::size_t i = 0; i < parts.size(); ++i)
      out += (i == 0 ? "" : i + 1 == parts.size() ? " and " : ", ") + parts[i];
    return out;
  };
  std::string o;
  if (!drops.empty())
    o = "dropped " + join(drops);
  if (!trims.empty())
    o += (o.empty() ? "trimmed " : " and trimmed ") + join(trims);
  return o.empty() ? std::string("balanced") : o;
}

// What balancing did to one system and what the other candidates would have
// cost, with each shape's V (meanVarianceFactor, the auto criterion): "b:
// dropped 1 incomplete execution and trimmed every build to 4 executions
// (mixed): 10x4x50, 453 of 2453 measurements removed, 10 of 10 builds kept, V
// = 0.1255; trim: 10x5x3, 953 removed, 10 builds kept, V = 0.1267; drop:
// 9x5x50, 203 removed, 9 builds kept, V = 0.1338".
std::string balancingText(const SystemBalance &b, const std::vector<std::string> &levels,
                          const std::vector<DroppedUnits> &dropped) {
  const std::string &top = levels[0];
  const UnbalancedPolicy applied = b.applied;
  std::string o = b.system + (b.benchmark.empty() ? "" : " on " + b.benchmark) + ": " +
                  balancingAction(b, levels, dropped) + " (" + unbalancedName(applied) +
                  "): " + shapeShort(b.shapeBy(applied)) + ", " + std::to_string(b.lost()) +
                  " of " + measurementsText(b.measurements) + " removed, " +
                  std::to_string(b.topUnitsBy(applied)) + " of " + std::to_string(b.topUnits) +
                  " " + nounFor(b.topUnits, top) +
                  " kept, V = " + varianceText(b.varianceBy(applied));
  for (UnbalancedPolicy p :
       {UnbalancedPolicy::Trim, UnbalancedPolicy::Mixed, UnbalancedPolicy::Drop}) {
    if (p == applied)
      continue;
    o += "; " + unbalancedName(p) + ": " + shapeShort(b.shapeBy(p)) + ", " +
         std::to_string(b.lostBy(p)) + " removed, " + std::to_string(b.topUnitsBy(p)) + " " +
         nounFor(b.topUnitsBy(p), top) + " kept, V = " + varianceText(b.varianceBy(p));
  }
  return o;
}

// What V in the balancing lines is (text and Markdown reports).

std::string ratioSentence(const RatioReport &r) {
  std::string s = r.candidate + " vs " + r.baseline + ": " + r3(r.estimate) + " (" +
                  describeRatio(r.estimate) + "), " + confidenceLabel(r.confidence) + " CI ";
  s += r.fieller ? interval(*r.fieller, r3) : std::string("unbounded");
  s += " (Fieller; bootstrap " + interval(r.bootstrap, r3) + ")";
  return s;
}

// The ratio in words, as a user would quote it: "O3 is 6.9% faster than O2
// across code layouts, 95% CI from 0.7% slower to 14.3% faster (Fieller)".
std::string ratioInWords(const RatioReport &r, const std::string &topLevel) {
  std::string s = r.candidate + " is " + describeRatio(r.estimate) + " than " + r.baseline;
  if (r.estimate == 1)
    s = r.candidate + " is as fast as " + r.baseline;
  s += topLevel == "build" ? " across code layouts" : " across " + topLevel + "s";
  s += ", " + confidenceLabel(r.confidence) + " CI ";
  if (!r.fieller)
    return s + "unbounded (Fieller: the baseline's mean is not significantly different from 0)";
  const double lo = r.fieller->lower, hi = r.fieller->upper;
  if (hi < 1)
    s += pct(1 - hi) + " to " + pct(1 - lo) + " faster";
  else if (lo > 1)
    s += pct(lo - 1) + " to " + pct(hi - 1) + " slower";
  else
    s += "from " + describeRatio(hi) + " to " + describeRatio(lo);
  return s + " (Fieller)";
}

// " (run at least 5)" after a top-level count below KJ13 §11's minimum, as
// the paper's Tables 6/7 do by leaving such counts blank (spec_001 TV6).
std::string runAtLeast(std::size_t count) {
  return count < kMinimumTopCount ? " (run at least " + std::to_string(kMinimumTopCount) + ")"
                                  : std::string();
}

std::string planText(const PlanAdvice &p, const std::string &system) {
  if (!p.ok)
    return "plan for " + system + ": not available (" + p.error + ")";
  std::string s = "plan for " + system + ":";
  const std::size_t d = p.levelNames.size();
  if (d > 1) {
    s += " per " + p.levelNames[0];
    for (std::size_t i = 1; i < d; ++i) {
      s += (i > 1 ? " x " : " ") + std::to_string(p.counts[i]) + " " +
           nounFor(p.counts[i], p.levelNames[i]);
      if (p.removed[i])
        s += " (level adds no variance)";
    }
    s += ";";
  }
  if (p.targetHalfWidth > 0) {
    if (p.topUnitsNeeded)
      s += " " + std::to_string(p.counts[0]) + " " + nounFor(p.counts[0], p.levelNames[0]) +
           runAtLeast(p.counts[0]) + " for +-" + pct(p.targetHalfWidth) + " (predicted +-" +
           pct(p.predictedHalfWidth, "%.2f%%") + ")";
    else
      s += " more than 1000 " + p.levelNames[0] + "s needed for +-" + pct(p.targetHalfWidth);
  } else if (p.counts[0] < 2) {
    s += " the budget affords " + std::to_string(p.counts[0]) + " " +
         nounFor(p.counts[0], p.levelNames[0]) + " (one costs " + g4(p.costPerTopUnit) +
         " measurements; a confidence interval needs at least 2)";
  } else {
    s += " " + std::to_string(p.counts[0]) + " " + nounFor(p.counts[0], p.levelNames[0]) +
         " (predicted +-" + pct(p.predictedHalfWidth, "%.2f%%") + ")";
  }
  if (p.defaultCosts)
    s += "; default costs (each new unit costs one measurement: pass --costs)";
  if (p.topUpperBound)
    s += "; " + p.topNote;
  return s;
}

// A time in the data's unit, read as seconds (alea's runner measures
// seconds): "45 s", "12 min", "1.4 h", "3.2 days".
std::string durationText(double seconds) {
  if (!std::isfinite(seconds))
    return "?";
  if (seconds < 120)
    return fmt("%.3g s", seconds);
  if (seconds < 7200)
    return fmt("%.3g min", seconds / 60);
  if (seconds < 2 * 86400)
    return fmt("%.2g h", seconds / 3600);
  return fmt("%.3g days", seconds / 86400);
}

// The ratio planner's advice (RatioReport::ratioPlan):
//   to reach +-1% on the ratio: 23 builds per system x 3 executions x 10
//   iterations (predicted +-0.98%), about 1.4 h at the measured costs
std::string ratioPlanText(const RatioPlanAdvice &p) {
  if (!p.ok)
    return "ratio plan: not available (" + p.error + ")";
  const std::string &top = p.levelNames.empty() ? std::string("unit") : p.levelNames[0];
  std::string s = "to reach +-" + pct(p.targetHalfWidth) + " on the ratio: ";
  std::string below; // " x 3 executions x 10 iterations"
  for (std::size_t i = 1; i < p.levelNames.size(); ++i)
    below += " x " + std::to_string(p.counts[i]) + " " + nounFor(p.counts[i], p.levelNames[i]);
  if (!p.reachable) {
    s += "more than " + std::to_string(p.counts[0]) + " " + top + "s per system" + below +
         " needed (" + std::to_string(p.counts[0]) + " predict " +
         (std::isfinite(p.predictedHalfWidth) ? "+-" + pct(p.predictedHalfWidth, "%.2f%%")
                                              : std::string("an unbounded interval")) +
         ")";
  } else {
    s += std::to_string(p.counts[0]) + " " + nounFor(p.counts[0], top) + " per system" +
         runAtLeast(p.counts[0]) + below + " (predicted +-" + pct(p.predictedHalfWidth, "%.2f%%") +
         ")";
    if (p.defaultCosts)
      s += ", about " + g4(p.totalCost) +
           " measurements at the default costs (each new unit costs one measurement: pass "
           "--costs)";
    else
      s += ", about " + durationText(p.totalTime) + " at the measured costs";
  }
  if (p.rho != 0)
    s += "; paired, rho = " + fmt("%.2f", p.rho);
  for (const auto &n : p.notes)
    s += "; " + n;
  return s;
}

std::string sharesText(const SystemReport &s) {
  std::string out;
  for (std::size_t i = 0; i < s.levels.size(); ++i) {
    const auto &l = s.levels[i];
    if (i == 0) // a build is one randomized layout: say so (DESIGN.md)
      out += l.name + (l.name == "build" ? " (layout)" : "") + " explains " + pct(l.share) +
             " of the variance";
    else
      out += ", " + l.name + " " + pct(l.share);
    if (l.removed)
      out += l.n == 1 ? " (not repeated)" : " (T^2 <= 0)";
  }
  return out;
}

// Touati's suite lines of one candidate (seed 002 §1.4-§1.5), one sentence
// each, without indentation (the renderer places them):
//     faster on 2 of 3 benchmarks: 0.667, 95% CI [0.208, 0.983] (prop.test: Wilson with
//     continuity correction; ...); benchmarks needed for +-5.0%: 342 at the observed
//     proportion, 385 at 1/2 (the worst case)
//     gain factor G (baseline-median weights) 4.1% over the 2 faster benchmarks, 2.5% over
//     all 3 (unit weights: 4.0%, 2.4%)
std::vector<std::string> touatiLines(const SuiteRatioReport &s, const std::string &top) {
  std::vector<std::string> lines;
  if (s.proportion) {
    const SuiteProportion &p = *s.proportion;
    std::string o =
        "faster on " + std::to_string(p.accelerated) + " of " + counted(p.benchmarks, "benchmark") +
        ": " + r3(p.proportion) + ", " + confidenceLabel(p.confidence) + " CI [" + r3(p.lower) +
        ", " + r3(p.upper) + "] (prop.test: Wilson with continuity correction" +
        (p.normalApproximationValid ? std::string()
                                    : "; b*C < 10: the normal approximation is doubtful") +
        ")";
    if (s.benchmarksNeededWorstCase) {
      o += "; benchmarks needed for +-" + pct(s.proportionHalfWidth) + ": ";
      if (s.benchmarksNeeded)
        o += std::to_string(*s.benchmarksNeeded) + " at the observed proportion, " +
             std::to_string(*s.benchmarksNeededWorstCase) + " at 1/2 (the worst case)";
      else // 0 or all of them faster: the formula's C(1 - C) is 0 (SuiteRatioReport)
        o += std::to_string(*s.benchmarksNeededWorstCase) + " at 1/2 (the worst case; " +
             std::to_string(p.accelerated) + " of " + std::to_string(p.benchmarks) +
             " gives no estimate of its own)";
    }
    lines.push_back(std::move(o));
  } else if (!s.proportionError.empty()) {
    lines.push_back("proportion of benchmarks faster: not available (" + s.proportionError + ")");
  }
  if (s.gainAll) {
    std::string o = "gain factor G on " + top + " medians (baseline-median weights): ";
    if (s.gainFaster)
      o += pct(*s.gainFaster) + " over the " + std::to_string(s.faster) + " faster " +
           nounFor(s.faster, "benchmark") + ", ";
    o += pct(*s.gainAll) + " over all " + std::to_string(s.benchmarks) + " (unit weights: " +
         (s.gainFasterUnitWeights ? pct(*s.gainFasterUnitWeights) + ", " : std::string()) +
         pct(s.gainAllUnitWeights.value_or(NAN)) + ")";
    lines.push_back(std::move(o));
  }
  return lines;
}

std::string suiteLeftOutText(const SuiteRatioReport &s) {
  if (s.leftOut.empty())
    return "";
  std::vector<std::string> names;
  for (const auto &n : s.leftOut)
    names.push_back(n.empty() ? std::string("(unnamed)") : n);
  return "left out: " + joined(names) + " (no ratio there)";
}

std::string noStatisticsText(const BenchmarkReport &b) { return "no statistics: " + b.error; }

std::string metricsLead(const model::CampaignReport &r) {
  if (r.decidedOn.empty() && r.otherMetrics.empty())
    return {};
  return "the decision (and the exit status) is on " + r.decidedOn +
         (r.otherMetrics.empty() ? std::string(".")
                                 : "; the other metrics of the same executions:");
}

std::vector<std::string> otherMetricLines(const model::CampaignReport::Metric &m) {
  const std::string name = m.name + (m.unit.empty() ? "" : " (" + m.unit + ")");
  if (!m.analysis)
    return {name + ": no statistics: " + m.error};
  std::vector<std::string> lines;
  for (const BenchmarkReport &b : m.analysis->benchmarks) {
    const std::string where = name + (b.name.empty() ? "" : ", " + b.name) + ": ";
    if (!b.error.empty())
      lines.push_back(where + noStatisticsText(b));
    for (const RatioReport &x : b.ratios)
      lines.push_back(where + ratioSentence(x) + "; " + std::string(decisionName(x.decision)));
    if (b.ratios.empty() && b.error.empty())
      for (const SystemReport &sys : b.systems)
        lines.push_back(where + sys.name + ": mean " + g4(sys.mean) + ", " +
                        confidenceLabel(sys.ci.confidence) + " CI " +
                        interval(sys.ci.interval, g4));
  }
  return lines;
}

} // namespace alea::report

namespace alea::report {

namespace {
std::string seconds(double s) {
  if (s >= 1)
    return fmt("%.3f s", s);
  if (s >= 1e-3)
    return fmt("%.3f ms", s * 1e3);
  return fmt("%.3f us", s * 1e6);
}
} // namespace

std::string quantity(double v, const std::string &unit) {
  if (unit == "s")
    return seconds(v);
  return fmt("%.4g", v) + (unit.empty() ? "" : " " + unit);
}

std::string joined(const std::vector<std::string> &v, const char *sep) {
  std::string out;
  for (const auto &s : v)
    out += (out.empty() ? "" : sep) + s;
  return out;
}

std::string summaryLine(const model::CampaignReport &r) {
  std::string systems;
  for (std::size_t i = 0; i < r.systems.size(); ++i) {
    systems += (i ? ", " : "") + r.systems[i];
    if (r.analysis && r.systems[i] == r.analysis->baseline && r.systems.size() > 1)
      systems += " (baseline)";
  }
  return counted(r.systems.size(), "system") + " [" + systems + "], " +
         counted(r.benchmarks.size(), "benchmark") + "; " + counted(r.builds, "build") +
         (r.failedBuilds ? " (+" + std::to_string(r.failedBuilds) + " failed)" : "") + ", " +
         std::to_string(r.executed) + " of " + counted(r.planned, "planned execution") + " (" +
         std::to_string(r.failed) + " failed), " + counted(r.measurements, "measurement") +
         " after warm-up";
}

std::string warmupText(int iterations) {
  return iterations > 0
             ? counted(iterations, "iteration") + " dropped at the start of every execution"
             : std::string("none (every iteration is measured)");
}

std::string targetText(const model::TargetReport &t) {
  if (!t.machine)
    return t.name + ": no machine state recorded (the target never answered)";
  return t.name + ": " + alea::describeMachine(*t.machine) +
         (t.machine->kernel.empty() ? std::string() : "; kernel " + t.machine->kernel);
}

std::string number(double d) {
  if (!std::isfinite(d))
    return "";
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, d);
  return ec == std::errc() ? std::string(buf, end) : fmt("%.17g", d);
}

std::string speedupTestText(const analysis::RatioReport &x, const std::string &top) {
  const auto &t = *x.speedupTest;
  return "Speedup-Test on " + top + " means: mean " + t.meanVerdict + ", median " +
         t.medianVerdict + ", P(" + x.baseline +
         " slower) = " + fmt("%.2f", t.probabilityBaselineSlower);
}

std::string familyText(const analysis::RatioReport &x) {
  const auto &f = *x.family;
  return "Holm over " + std::to_string(f.size) + " comparisons: p = " + fmt("%.3g", f.pValue) +
         ", adjusted p = " + fmt("%.3g", f.adjustedP) + ", " + confidenceLabel(f.level) + " CI " +
         (f.interval ? interval(*f.interval, r3) : std::string("unbounded")) + ", decision " +
         std::string(decisionName(f.decision));
}

std::vector<std::string> noiseLines(const analysis::NoiseDiagnosis &d) {
  return analysis::noiseSummaryLines(d);
}

std::vector<LineGroup> noiseGroups(const model::CampaignReport &r) {
  std::vector<LineGroup> groups;
  for (const auto &n : r.noise)
    groups.push_back({n.benchmark.empty() ? std::string("(benchmark)") : n.benchmark,
                      n.diagnosis ? noiseLines(*n.diagnosis) : std::vector<std::string>(),
                      n.diagnosis ? std::nullopt : std::optional(n.error)});
  return groups;
}

std::string layoutText(const analysis::LayoutEffect &l, double confidence) {
  const std::string observed =
      "observed best-to-worst " + pct(l.observedSpread) + " (includes execution noise)";
  if (!l.ok)
    return "layout effect: not estimated (" + l.error + "); " + observed;
  const std::string what = l.level + (l.level == "build" ? " (layout)" : "");
  const std::string conf = confidenceLabel(confidence);
  if (!(l.sd > 0))
    return what + " effect: none detected (sd 0, " + conf + " CI up to " +
           pct(l.relativeSdCi.upper, "%.2f%%") +
           " of the mean); expected best-to-worst spread of " + std::to_string(l.units) +
           " layouts at most " + pct(l.expectedSpreadCi.upper) + "; " + observed;
  return what + " effect: sd " + pct(l.relativeSd, "%.2f%%") + " of the mean, " + conf + " CI [" +
         pct(l.relativeSdCi.lower, "%.2f%%") + ", " + pct(l.relativeSdCi.upper, "%.2f%%") +
         "]; expected best-to-worst spread of " + std::to_string(l.units) + " layouts " +
         pct(l.expectedSpread) + " [" + pct(l.expectedSpreadCi.lower) + ", " +
         pct(l.expectedSpreadCi.upper) + "]; " + observed;
}

} // namespace alea::report

// Text, JSON, CSV and Markdown rendering of the report model (format.hpp).
// The JSON keys are a stable interface documented in docs/analyze.md: add
// keys freely, never rename or remove one without bumping the schema version.
#include "alea/analysis/format.hpp"

#include "alea/analysis/csv.hpp"
#include "alea/analysis/planner.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace alea::analysis {

// ---------------------------------------------------------------- JsonWriter

std::string JsonWriter::escape(std::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\r':
      out += "\\r";
      break;
    case '\t':
      out += "\\t";
      break;
    case '\b':
      out += "\\b";
      break;
    case '\f':
      out += "\\f";
      break;
    default:
      if (c < 0x20) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04x", c);
        out += buf;
      } else {
        out += static_cast<char>(c);
      }
    }
  }
  out += '"';
  return out;
}

std::string JsonWriter::number(double d) {
  if (!std::isfinite(d))
    return "null";
  if (d == 0)
    return "0";
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, d);
  (void)ec;
  return std::string(buf, end);
}

void JsonWriter::newline() {
  if (indent_ <= 0)
    return;
  out_ += '\n';
  out_.append(stack_.size() * static_cast<std::size_t>(indent_), ' ');
}

void JsonWriter::beforeValue() {
  if (afterKey_) {
    afterKey_ = false;
    return;
  }
  if (!stack_.empty()) {
    if (stack_.back() == 'i') { // an inline array: "[1, 2]"
      if (hasElement_.back())
        out_ += indent_ > 0 ? ", " : ",";
      hasElement_.back() = 1;
      return;
    }
    if (hasElement_.back())
      out_ += ',';
    hasElement_.back() = 1;
    newline();
  }
}

JsonWriter &JsonWriter::beginObject() {
  beforeValue();
  out_ += '{';
  stack_ += 'o';
  hasElement_ += '\0';
  return *this;
}

JsonWriter &JsonWriter::endObject() {
  const bool had = hasElement_.back();
  stack_.pop_back();
  hasElement_.pop_back();
  if (had)
    newline();
  out_ += '}';
  return *this;
}

JsonWriter &JsonWriter::beginArray(bool inlined) {
  beforeValue();
  out_ += '[';
  stack_ += inlined ? 'i' : 'a';
  hasElement_ += '\0';
  return *this;
}

JsonWriter &JsonWriter::endArray() {
  const bool had = hasElement_.back();
  const bool inlined = stack_.back() == 'i';
  stack_.pop_back();
  hasElement_.pop_back();
  if (had && !inlined)
    newline();
  out_ += ']';
  return *this;
}

JsonWriter &JsonWriter::key(std::string_view k) {
  beforeValue();
  out_ += escape(k);
  out_ += indent_ > 0 ? ": " : ":";
  afterKey_ = true;
  return *this;
}

JsonWriter &JsonWriter::value(std::string_view s) {
  beforeValue();
  out_ += escape(s);
  return *this;
}

JsonWriter &JsonWriter::value(double d) {
  beforeValue();
  out_ += number(d);
  return *this;
}

JsonWriter &JsonWriter::value(std::size_t n) {
  beforeValue();
  out_ += std::to_string(n);
  return *this;
}

JsonWriter &JsonWriter::value(bool b) {
  beforeValue();
  out_ += b ? "true" : "false";
  return *this;
}

JsonWriter &JsonWriter::null() {
  beforeValue();
  out_ += "null";
  return *this;
}

// ------------------------------------------------------------------ helpers

std::optional<Format> parseFormat(std::string_view name) {
  if (name == "text")
    return Format::Text;
  if (name == "json")
    return Format::Json;
  if (name == "csv")
    return Format::Csv;
  if (name == "md" || name == "markdown")
    return Format::Markdown;
  return std::nullopt;
}

std::string_view decisionKey(Decision d) {
  switch (d) {
  case Decision::Faster:
    return "faster";
  case Decision::Slower:
    return "slower";
  case Decision::NoChange:
    return "no_change";
  case Decision::Inconclusive:
    break;
  }
  return "inconclusive";
}

namespace {

std::string fmt(const char *format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

std::string g4(double v) { return fmt("%.4g", v); }
std::string r3(double v) { return fmt("%.3f", v); }
std::string pct(double fraction, const char *format = "%.1f%%") {
  return fmt(format, fraction * 100.0);
}
std::string confidenceLabel(double c) {
  // 0.95 -> "95%", 0.999 -> "99.9%"
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g%%", c * 100.0);
  return buf;
}

std::string interval(const Interval &i, std::string (*f)(double)) {
  return "[" + f(i.lower) + ", " + f(i.upper) + "]";
}

std::string plural(const std::string &word, std::size_t n) { return n == 1 ? word : word + "s"; }

std::string shapeText(const std::vector<std::string> &levels,
                      const std::vector<std::size_t> &shape) {
  std::string out;
  for (std::size_t i = 0; i < shape.size(); ++i)
    out += (i ? " x " : "") + std::to_string(shape[i]) + " " + plural(levels[i], shape[i]);
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
  return std::to_string(n) + " " + plural("measurement", n);
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
           " of " + std::to_string(d.expected) + " " + plural(d.childLevel, d.expected) + "; " +
           measurementsText(d.measurements) + ")";
  }
  return o + ": dropped " + std::to_string(d.labels.size()) + " " +
         plural(d.level, d.labels.size()) + " (" + measurementsText(d.measurements) + ")";
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
                      plural(levels[i], incomplete[i]));
  for (std::size_t i = 1; i < levels.size(); ++i)
    if (trimmed[i] && i < shape.size())
      trims.push_back("every " + levels[i - 1] + " to " + std::to_string(shape[i]) + " " +
                      plural(levels[i], shape[i]));
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
                  " " + plural(top, b.topUnits) + " kept, V = " +
                  varianceText(b.varianceBy(applied));
  for (UnbalancedPolicy p :
       {UnbalancedPolicy::Trim, UnbalancedPolicy::Mixed, UnbalancedPolicy::Drop}) {
    if (p == applied)
      continue;
    o += "; " + unbalancedName(p) + ": " + shapeShort(b.shapeBy(p)) + ", " +
         std::to_string(b.lostBy(p)) + " removed, " + std::to_string(b.topUnitsBy(p)) + " " +
         plural(top, b.topUnitsBy(p)) + " kept, V = " + varianceText(b.varianceBy(p));
  }
  return o;
}

// What V in the balancing lines is (text and Markdown reports).
constexpr const char *kVarianceNote =
    "V = sum of 1/(n1*...*ni) over the levels, the variance of the grand mean with equal "
    "variance components (auto takes the smallest)";

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
           plural(p.levelNames[i], p.counts[i]);
      if (p.removed[i])
        s += " (level adds no variance)";
    }
    s += ";";
  }
  if (p.targetHalfWidth > 0) {
    if (p.topUnitsNeeded)
      s += " " + std::to_string(p.counts[0]) + " " + plural(p.levelNames[0], p.counts[0]) +
           runAtLeast(p.counts[0]) + " for +-" + pct(p.targetHalfWidth) + " (predicted +-" +
           pct(p.predictedHalfWidth, "%.2f%%") + ")";
    else
      s += " more than 1000 " + p.levelNames[0] + "s needed for +-" + pct(p.targetHalfWidth);
  } else if (p.counts[0] < 2) {
    s += " the budget affords " + std::to_string(p.counts[0]) + " " +
         plural(p.levelNames[0], p.counts[0]) + " (one costs " + g4(p.costPerTopUnit) +
         " measurements; a confidence interval needs at least 2)";
  } else {
    s += " " + std::to_string(p.counts[0]) + " " + plural(p.levelNames[0], p.counts[0]) +
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
    below += " x " + std::to_string(p.counts[i]) + " " + plural(p.levelNames[i], p.counts[i]);
  if (!p.reachable) {
    s += "more than " + std::to_string(p.counts[0]) + " " + top + "s per system" + below +
         " needed (" + std::to_string(p.counts[0]) + " predict " +
         (std::isfinite(p.predictedHalfWidth) ? "+-" + pct(p.predictedHalfWidth, "%.2f%%")
                                              : std::string("an unbounded interval")) +
         ")";
  } else {
    s += std::to_string(p.counts[0]) + " " + plural(top, p.counts[0]) + " per system" +
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

// Touati's suite lines of one candidate (seed 002 §1.4-§1.5):
//     faster on 2 of 3 benchmarks: 0.667, 95% CI [0.208, 0.983] (prop.test: Wilson with
//     continuity correction; ...); benchmarks needed for +-5.0%: 342 at the observed
//     proportion, 385 at 1/2 (the worst case)
//     gain factor G (baseline-median weights) 4.1% over the 2 faster benchmarks, 2.5% over
//     all 3 (unit weights: 4.0%, 2.4%)
std::string touatiText(const SuiteRatioReport &s, const std::string &top) {
  std::string o;
  if (s.proportion) {
    const SuiteProportion &p = *s.proportion;
    o += "    faster on " + std::to_string(p.accelerated) + " of " + std::to_string(p.benchmarks) +
         " benchmarks: " + r3(p.proportion) + ", " + confidenceLabel(p.confidence) + " CI [" +
         r3(p.lower) + ", " + r3(p.upper) + "] (prop.test: Wilson with continuity correction" +
         (p.normalApproximationValid ? std::string()
                                     : "; b*C < 10: the normal approximation is doubtful") +
         ")";
    if (s.benchmarksNeeded && s.benchmarksNeededWorstCase)
      o += "; benchmarks needed for +-" + pct(s.proportionHalfWidth) + ": " +
           std::to_string(*s.benchmarksNeeded) + " at the observed proportion, " +
           std::to_string(*s.benchmarksNeededWorstCase) + " at 1/2 (the worst case)";
    o += "\n";
  } else if (!s.proportionError.empty()) {
    o += "    proportion of benchmarks faster: not available (" + s.proportionError + ")\n";
  }
  if (s.gainAll) {
    o += "    gain factor G on " + top + " medians (baseline-median weights): ";
    if (s.gainFaster)
      o += pct(*s.gainFaster) + " over the " + std::to_string(s.faster) + " faster " +
           plural("benchmark", s.faster) + ", ";
    o += pct(*s.gainAll) + " over all " + std::to_string(s.benchmarks) + " (unit weights: " +
         (s.gainFasterUnitWeights ? pct(*s.gainFasterUnitWeights) + ", " : std::string()) +
         pct(s.gainAllUnitWeights.value_or(NAN)) + ")\n";
  }
  return o;
}

// ---------------------------------------------------------------- text

std::string textReport(const Report &r) {
  std::string o;
  std::size_t nSystems = 0;
  for (const auto &b : r.benchmarks)
    nSystems = std::max(nSystems, b.systems.size());
  o += "levels: ";
  for (std::size_t i = 0; i < r.levels.size(); ++i)
    o += (i ? " > " : "") + r.levels[i];
  o += "; baseline: " + r.baseline + "; " + confidenceLabel(r.options.confidence) +
       " confidence; threshold " + pct(r.options.threshold) + "\n";
  if (nSystems == 1)
    o += "one system: a layout-sensitivity study (no comparison)\n";
  for (const auto &b : r.benchmarks) {
    o += "\n";
    if (!b.name.empty())
      o += "benchmark " + b.name + "\n";
    for (const auto &s : b.systems) {
      o += "  " + s.name + ": mean " + g4(s.mean) + ", " + confidenceLabel(s.ci.confidence) +
           " CI " + interval(s.ci.interval, g4) + " (" + methodName(s.ci.method) + "; bootstrap " +
           interval(s.bootstrap.interval, g4) + "), " + shapeText(r.levels, s.shape) + "\n";
      o += "    " + sharesText(s);
      if (s.bestUnitMean > 0)
        o += "; best and worst " + r.levels[0] + " differ by " +
             pct(s.worstUnitMean / s.bestUnitMean - 1);
      o += "\n";
    }
    for (const auto &x : b.ratios) {
      o += "  " + ratioSentence(x) + "\n";
      if (r.options.pairing == Pairing::Paired)
        o += "    pairing: " + x.pairingNote + "\n";
      o += "    decision (threshold " + pct(x.threshold) + ", " + x.decisionBasis +
           "): " + std::string(decisionName(x.decision)) + "\n";
      o += "    in words: " + ratioInWords(x, r.levels[0]) + "\n";
      o += "    " + ratioPlanText(x.ratioPlan) + "\n";
      if (x.speedupTest && x.speedupTest->ok) {
        const auto &t = *x.speedupTest;
        o += "    Speedup-Test on " + r.levels[0] + " means: mean " + t.meanVerdict + ", median " +
             t.medianVerdict + ", P(" + x.baseline +
             " slower) = " + fmt("%.2f", t.probabilityBaselineSlower) + "\n";
      }
    }
    for (const auto &s : b.systems)
      o += "  " + planText(s.plan, s.name) + "\n";
    for (const auto &w : b.warnings)
      o += "  warning: " + w + "\n";
  }
  if (!r.suite.empty()) {
    o += "\nsuite (geometric mean over benchmarks)\n";
    for (const auto &s : r.suite)
      o += "  " + s.candidate + " vs " + s.baseline + ": " + r3(s.geometricMean) + " (" +
           describeRatio(s.geometricMean) + "), " + confidenceLabel(s.confidence) + " CI " +
           interval(s.bootstrap, r3) + " (bootstrap, " + std::to_string(s.benchmarks) +
           " benchmarks" +
           (s.topLevelBootstrapOk
                ? "; Li-Chen-Peng on " + r.levels[0] + " means " + interval(s.topLevelBootstrap, r3)
                : std::string()) +
           "); " + std::string(decisionName(s.decision)) + "; " + std::to_string(s.faster) +
           " faster, " + std::to_string(s.slower) + " slower" +
           (s.randomizationOk ? "; randomization test p = " + fmt("%.4g", s.randomizationP)
                              : std::string()) +
           "\n" + touatiText(s, r.levels[0]);
    if (!r.suiteSystems.empty()) {
      o += "  empirical distribution of the geometric mean over benchmarks, one " + r.levels[0] +
           " mean drawn per benchmark (Li-Chen-Peng; " +
           std::to_string(r.suiteSystems.front().replicates) + " draws):\n";
      for (const auto &e : r.suiteSystems)
        o += "    " + e.name + ": observed " + g4(e.observed) + "; min " + g4(e.summary.minimum) +
             ", Q1 " + g4(e.summary.q1) + ", median " + g4(e.summary.median) + ", Q3 " +
             g4(e.summary.q3) + ", max " + g4(e.summary.maximum) + " (" +
             std::to_string(e.benchmarks) + " benchmarks)\n";
    }
  }
  if (!r.dropped.empty()) {
    o += "\nunbalanced data (--unbalanced=" + unbalancedName(r.options.unbalanced) +
         "), balanced per system; " + kVarianceNote + ":\n";
    for (const auto &b : r.balancing) {
      o += "  " + balancingText(b, r.levels, r.dropped) + "\n";
      for (const auto &d : r.dropped)
        if (sameSystem(d, b))
          o += "    " + droppedText(d, r.levels) + "\n";
    }
  }
  for (const auto &w : r.warnings)
    o += "warning: " + w + "\n";
  return o;
}

// ---------------------------------------------------------------- JSON

void jsonInterval(JsonWriter &w, const Interval &i) {
  w.beginArray(true).value(i.lower).value(i.upper).endArray();
}

void jsonLevels(JsonWriter &w, const std::vector<LevelReport> &levels) {
  w.beginArray();
  for (const auto &l : levels) {
    w.beginObject();
    w.key("name").value(l.name);
    w.key("n").value(l.n);
    w.key("S2").value(l.s2);
    w.key("T2").value(l.t2);
    w.key("share").value(l.share);
    w.key("removed").value(l.removed);
    w.endObject();
  }
  w.endArray();
}

// "counts": one {name, n, removed} per level, highest first.
void jsonPlanCounts(JsonWriter &w, const std::vector<std::string> &names,
                    const std::vector<std::size_t> &counts, const std::vector<bool> &removed) {
  w.key("counts").beginArray();
  for (std::size_t i = 0; i < names.size(); ++i) {
    w.beginObject();
    w.key("name").value(names[i]);
    w.key("n").value(counts[i]);
    w.key("removed").value(static_cast<bool>(removed[i]));
    w.endObject();
  }
  w.endArray();
}

void jsonPlan(JsonWriter &w, const PlanAdvice &p) {
  w.beginObject();
  w.key("ok").value(p.ok);
  if (!p.ok) {
    w.key("error").value(p.error);
    w.endObject();
    return;
  }
  jsonPlanCounts(w, p.levelNames, p.counts, p.removed);
  w.key("target_half_width");
  if (p.targetHalfWidth > 0)
    w.value(p.targetHalfWidth);
  else
    w.null();
  w.key("top_units_needed");
  if (p.topUnitsNeeded)
    w.value(*p.topUnitsNeeded);
  else
    w.null();
  w.key("top_units_to_run"); // at least kMinimumTopCount (KJ13 §11)
  if (p.topUnitsNeeded)
    w.value(std::max(*p.topUnitsNeeded, kMinimumTopCount));
  else
    w.null();
  w.key("predicted_half_width").value(p.predictedHalfWidth);
  w.key("cost_per_top_unit").value(p.costPerTopUnit);
  w.key("default_costs").value(p.defaultCosts);
  w.key("top_upper_bound").value(p.topUpperBound);
  w.key("top_note");
  if (p.topUpperBound)
    w.value(p.topNote);
  else
    w.null();
  w.endObject();
}

void jsonStrings(JsonWriter &w, const std::vector<std::string> &v, bool inlined = true) {
  w.beginArray(inlined && !v.empty());
  for (const auto &s : v)
    w.value(s);
  w.endArray();
}

void jsonSizes(JsonWriter &w, const std::vector<std::size_t> &v) {
  w.beginArray(true);
  for (auto n : v)
    w.value(n);
  w.endArray();
}

void jsonDiagnostics(JsonWriter &w, const DiagnosticsReport &d) {
  w.beginObject();
  w.key("ok").value(d.ok);
  if (!d.ok) {
    w.key("error").value(d.error);
    w.endObject();
    return;
  }
  w.key("measurement_outliers").value(d.measurementOutliers);
  w.key("measurement_far_out").value(d.measurementFarOut);
  w.key("outlier_units");
  jsonStrings(w, d.outlierUnits);
  w.key("modes");
  if (d.modesTested) {
    w.beginObject();
    w.key("multimodal").value(d.multimodal);
    w.key("p_value").value(d.modePValue);
    w.key("gap").value(d.modeGap);
    w.key("low_units").value(d.lowUnits);
    w.key("high_units").value(d.highUnits);
    w.endObject();
  } else {
    w.null();
  }
  w.key("trends");
  if (d.trendsTested) {
    w.beginObject();
    w.key("tested").value(d.trendExecutions);
    w.key("flagged").value(d.trendFlagged);
    w.key("decreasing").value(d.trendDecreasing);
    w.endObject();
  } else {
    w.null();
  }
  w.endObject();
}

void jsonRatioPlan(JsonWriter &w, const RatioPlanAdvice &p) {
  w.beginObject();
  w.key("ok").value(p.ok);
  if (!p.ok) {
    w.key("error").value(p.error);
    w.endObject();
    return;
  }
  jsonPlanCounts(w, p.levelNames, p.counts, p.removed);
  w.key("target_half_width").value(p.targetHalfWidth);
  w.key("reachable").value(p.reachable);
  w.key("predicted_half_width");
  if (std::isfinite(p.predictedHalfWidth))
    w.value(p.predictedHalfWidth);
  else
    w.null();
  w.key("rho").value(p.rho);
  w.key("cost_per_pair").value(p.costPerPair);
  w.key("total_cost").value(p.totalCost);
  w.key("total_time"); // in the data's unit; null with the default costs
  if (p.defaultCosts)
    w.null();
  else
    w.value(p.totalTime);
  w.key("default_costs").value(p.defaultCosts);
  w.key("upper_bound_used").value(p.upperBound);
  w.key("notes");
  jsonStrings(w, p.notes, false);
  w.endObject();
}

void jsonRatio(JsonWriter &w, const RatioReport &x) {
  w.beginObject();
  w.key("candidate").value(x.candidate);
  w.key("baseline").value(x.baseline);
  w.key("estimate").value(x.estimate);
  w.key("change").value(x.estimate - 1);
  w.key("fieller").beginObject();
  w.key("status").value(x.fiellerStatus == FiellerStatus::Bounded ? "bounded" : "unbounded");
  w.key("interval");
  if (x.fieller)
    jsonInterval(w, *x.fieller);
  else
    w.null();
  w.key("df").value(x.fiellerDf);
  w.endObject();
  w.key("bootstrap");
  jsonInterval(w, x.bootstrap);
  w.key("confidence").value(x.confidence);
  w.key("threshold").value(x.threshold);
  w.key("decision").value(decisionKey(x.decision));
  w.key("decision_basis").value(x.decisionBasis);
  w.key("disagreement").value(x.disagreement);
  w.key("top_units").beginObject();
  w.key("candidate").value(x.candidateTopUnits);
  w.key("baseline").value(x.baselineTopUnits);
  w.endObject();
  w.key("unequal_top_units").value(x.unequalTopUnits());
  w.key("pairing").beginObject();
  w.key("paired").value(x.paired);
  w.key("pairs").value(x.pairs);
  w.key("correlation");
  if (x.paired)
    w.value(x.pairCorrelation);
  else
    w.null();
  w.key("note").value(x.pairingNote);
  w.endObject();
  w.key("plan");
  jsonRatioPlan(w, x.ratioPlan);
  w.key("speedup_test");
  if (x.speedupTest) {
    const auto &t = *x.speedupTest;
    w.beginObject();
    w.key("ok").value(t.ok);
    if (t.ok) {
      w.key("mean_speedup").value(t.meanSpeedup);
      w.key("median_speedup").value(t.medianSpeedup);
      w.key("mean_verdict").value(t.meanVerdict);
      w.key("median_verdict").value(t.medianVerdict);
      w.key("p_baseline_slower").value(t.probabilityBaselineSlower);
      w.key("p_above_half").value(t.probabilityAboveHalf);
      w.key("notes");
      jsonStrings(w, t.notes, false);
    } else {
      w.key("error").value(t.error);
    }
    w.endObject();
  } else {
    w.null();
  }
  w.endObject();
}

void jsonUnbalanced(JsonWriter &w, const std::vector<BalanceIssue> &issues,
                    const std::vector<DroppedUnits> &dropped) {
  w.key("unbalanced").beginArray();
  for (const auto &i : issues) {
    w.beginObject();
    w.key("benchmark").value(i.benchmark);
    w.key("system").value(i.system);
    w.key("path");
    jsonStrings(w, i.path);
    w.key("level").value(i.level);
    w.key("found").value(i.found);
    w.key("expected").value(i.expected);
    w.endObject();
  }
  w.endArray();
  w.key("dropped").beginArray();
  for (const auto &d : dropped) {
    w.beginObject();
    w.key("benchmark").value(d.benchmark);
    w.key("system").value(d.system);
    w.key("path");
    jsonStrings(w, d.path);
    w.key("level").value(d.level);
    w.key("units");
    jsonStrings(w, d.labels);
    w.key("measurements").value(d.measurements);
    w.key("reason").value(d.reason == DropReason::Incomplete ? "incomplete" : "trimmed");
    if (d.reason == DropReason::Incomplete) {
      w.key("child_level").value(d.childLevel);
      w.key("found").value(d.found);
      w.key("expected").value(d.expected);
    }
    w.endObject();
  }
  w.endArray();
}

void jsonBalancing(JsonWriter &w, const std::vector<SystemBalance> &systems) {
  w.key("balancing").beginArray();
  for (const auto &b : systems) {
    w.beginObject();
    w.key("benchmark").value(b.benchmark);
    w.key("system").value(b.system);
    w.key("applied").value(unbalancedName(b.applied));
    w.key("measurements").value(b.measurements);
    w.key("top_units").value(b.topUnits);
    w.key("removed").value(b.lost());
    for (UnbalancedPolicy p :
         {UnbalancedPolicy::Trim, UnbalancedPolicy::Drop, UnbalancedPolicy::Mixed}) {
      w.key(unbalancedName(p)).beginObject();
      w.key("removed").value(b.lostBy(p));
      w.key("top_units_kept").value(b.topUnitsBy(p));
      w.key("shape");
      jsonSizes(w, b.shapeBy(p));
      w.key("variance_factor").value(b.varianceBy(p));
      w.endObject();
    }
    w.key("shape");
    jsonSizes(w, b.shapeBy(b.applied));
    w.key("variance_factor").value(b.varianceBy(b.applied));
    w.endObject();
  }
  w.endArray();
}

void jsonOptional(JsonWriter &w, const std::optional<double> &v) {
  if (v)
    w.value(*v);
  else
    w.null();
}

void jsonOptional(JsonWriter &w, const std::optional<std::size_t> &v) {
  if (v)
    w.value(*v);
  else
    w.null();
}

// Touati's suite level of one candidate (docs/analyze.md).
void jsonTouati(JsonWriter &w, const SuiteRatioReport &s) {
  w.key("proportion_faster");
  if (s.proportion) {
    const SuiteProportion &p = *s.proportion;
    w.beginObject();
    w.key("faster").value(p.accelerated);
    w.key("benchmarks").value(p.benchmarks);
    w.key("estimate").value(p.proportion);
    w.key("interval");
    jsonInterval(w, Interval{p.lower, p.upper});
    w.key("method").value("prop.test");
    w.key("wald");
    jsonInterval(w, Interval{p.waldLower, p.waldUpper});
    w.key("normal_approximation_valid").value(p.normalApproximationValid);
    w.endObject();
  } else {
    w.null();
  }
  w.key("benchmarks_needed").beginObject();
  w.key("half_width").value(s.proportionHalfWidth);
  w.key("observed");
  jsonOptional(w, s.benchmarksNeeded);
  w.key("worst_case");
  jsonOptional(w, s.benchmarksNeededWorstCase);
  w.endObject();
  w.key("gain_factor").beginObject();
  for (const bool fasterOnly : {false, true}) {
    const auto &paper = fasterOnly ? s.gainFaster : s.gainAll;
    const auto &unit = fasterOnly ? s.gainFasterUnitWeights : s.gainAllUnitWeights;
    w.key(fasterOnly ? "faster" : "all");
    if (paper) {
      w.beginObject();
      w.key("baseline_median").value(*paper);
      w.key("unit");
      jsonOptional(w, unit);
      w.endObject();
    } else {
      w.null();
    }
  }
  w.endObject();
}

std::string jsonReport(const Report &r) {
  JsonWriter w;
  w.beginObject();
  w.key("alea_report").value(static_cast<std::size_t>(kReportSchemaVersion));
  w.key("levels");
  jsonStrings(w, r.levels);
  w.key("baseline").value(r.baseline);
  const ReportOptions &o = r.options;
  w.key("options").beginObject();
  w.key("confidence").value(o.confidence);
  w.key("threshold").value(o.threshold);
  w.key("ci_variant").value(methodName(o.ciMethod));
  w.key("bootstrap_replicates").value(o.bootstrapReplicates);
  w.key("seed").value(static_cast<std::size_t>(o.seed));
  w.key("resampling").value(o.scheme.name());
  w.key("disagreement_fraction").value(o.disagreementFraction);
  w.key("unbalanced").value(unbalancedName(o.unbalanced));
  w.key("costs").beginArray(true);
  if (o.costs.empty())
    for (std::size_t i = 1; i < r.levels.size(); ++i)
      w.value(1.0);
  for (double c : o.costs)
    w.value(c);
  w.endArray();
  w.key("default_costs").value(o.costs.empty());
  w.key("target_half_width").value(o.targetHalfWidth);
  w.key("proportion_half_width").value(o.proportionHalfWidth);
  w.key("pairing").value(o.pairing == Pairing::Paired ? "paired" : "unpaired");
  w.endObject();
  w.key("benchmarks").beginArray();
  for (const auto &b : r.benchmarks) {
    w.beginObject();
    w.key("name");
    if (b.name.empty())
      w.null();
    else
      w.value(b.name);
    w.key("systems").beginArray();
    for (const auto &s : b.systems) {
      w.beginObject();
      w.key("name").value(s.name);
      w.key("shape").beginArray(true);
      for (auto n : s.shape)
        w.value(n);
      w.endArray();
      w.key("measurements").value(s.measurements);
      w.key("mean").value(s.mean);
      w.key("ci_t");
      jsonInterval(w, s.ci.interval);
      w.key("ci_method").value(methodName(s.ci.method));
      w.key("ci_df").value(s.ci.df);
      w.key("ci_bootstrap");
      jsonInterval(w, s.bootstrap.interval);
      w.key("levels");
      jsonLevels(w, s.levels);
      w.key("top_level_without_variation").value(s.topLevelWithoutVariation);
      w.key("layout").beginObject();
      w.key("best_unit").value(s.bestUnit);
      w.key("best_mean").value(s.bestUnitMean);
      w.key("worst_unit").value(s.worstUnit);
      w.key("worst_mean").value(s.worstUnitMean);
      w.key("spread").value(s.bestUnitMean > 0 ? s.worstUnitMean / s.bestUnitMean - 1 : 0.0);
      w.endObject();
      w.key("plan");
      jsonPlan(w, s.plan);
      w.key("diagnostics");
      jsonDiagnostics(w, s.diagnostics);
      w.endObject();
    }
    w.endArray();
    w.key("ratio");
    if (b.ratios.empty())
      w.null();
    else
      jsonRatio(w, b.ratios.front());
    w.key("ratios").beginArray();
    for (const auto &x : b.ratios)
      jsonRatio(w, x);
    w.endArray();
    w.key("warnings");
    jsonStrings(w, b.warnings, false);
    w.endObject();
  }
  w.endArray();
  w.key("suite").beginArray();
  for (const auto &s : r.suite) {
    w.beginObject();
    w.key("candidate").value(s.candidate);
    w.key("baseline").value(s.baseline);
    w.key("benchmarks").value(s.benchmarks);
    w.key("geometric_mean").value(s.geometricMean);
    w.key("bootstrap");
    jsonInterval(w, s.bootstrap);
    w.key("bootstrap_top_level");
    if (s.topLevelBootstrapOk)
      jsonInterval(w, s.topLevelBootstrap);
    else
      w.null();
    w.key("confidence").value(s.confidence);
    w.key("decision").value(decisionKey(s.decision));
    w.key("faster").value(s.faster);
    w.key("slower").value(s.slower);
    w.key("randomization_test");
    if (s.randomizationOk) {
      w.beginObject();
      w.key("p_value").value(s.randomizationP);
      w.key("exhaustive").value(s.randomizationExhaustive);
      w.key("replicates").value(s.randomizationReplicates);
      w.endObject();
    } else {
      w.null();
    }
    jsonTouati(w, s);
    w.endObject();
  }
  w.endArray();
  w.key("suite_systems").beginArray();
  for (const auto &e : r.suiteSystems) {
    w.beginObject();
    w.key("name").value(e.name);
    w.key("benchmarks").value(e.benchmarks);
    w.key("observed").value(e.observed);
    w.key("replicates").value(e.replicates);
    w.key("five_number").beginObject();
    w.key("min").value(e.summary.minimum);
    w.key("q1").value(e.summary.q1);
    w.key("median").value(e.summary.median);
    w.key("q3").value(e.summary.q3);
    w.key("max").value(e.summary.maximum);
    w.endObject();
    w.endObject();
  }
  w.endArray();
  jsonUnbalanced(w, r.unbalanced, r.dropped);
  jsonBalancing(w, r.balancing);
  w.key("warnings");
  jsonStrings(w, r.warnings, false);
  w.endObject();
  return w.str() + "\n";
}

// ---------------------------------------------------------------- CSV

std::string csvNum(double d) { return std::isfinite(d) ? JsonWriter::number(d) : ""; }

std::string csvRow(std::initializer_list<std::string> fields) {
  std::string out;
  bool first = true;
  for (const auto &f : fields) {
    if (!first)
      out += ',';
    first = false;
    out += csvField(f);
  }
  return out + "\n";
}

std::string csvReport(const Report &r) {
  std::string o = csvRow({"benchmark", "system", "baseline", "statistic", "method", "estimate",
                          "lower", "upper", "decision"});
  for (const auto &b : r.benchmarks) {
    for (const auto &s : b.systems) {
      o += csvRow({b.name, s.name, "", "mean", methodName(s.ci.method), csvNum(s.mean),
                   csvNum(s.ci.interval.lower), csvNum(s.ci.interval.upper), ""});
      o += csvRow({b.name, s.name, "", "mean", "bootstrap", csvNum(s.mean),
                   csvNum(s.bootstrap.interval.lower), csvNum(s.bootstrap.interval.upper), ""});
      for (const auto &l : s.levels)
        o += csvRow({b.name, s.name, "", "share", l.name, csvNum(l.share), "", "", ""});
    }
    for (const auto &x : b.ratios) {
      // Each row's decision is the decision on that row's interval (TR 2012
      // §4.2, strict inequalities); the report's decision is the Fieller row's
      // when it is bounded (decision_basis). An unbounded Fieller interval has
      // no decision of its own: inconclusive.
      const Decision fieller = x.fieller ? decide(*x.fieller, x.threshold) : Decision::Inconclusive;
      o += csvRow({b.name, x.candidate, x.baseline, "ratio", "fieller", csvNum(x.estimate),
                   x.fieller ? csvNum(x.fieller->lower) : "",
                   x.fieller ? csvNum(x.fieller->upper) : "", std::string(decisionKey(fieller))});
      o += csvRow({b.name, x.candidate, x.baseline, "ratio", "bootstrap", csvNum(x.estimate),
                   csvNum(x.bootstrap.lower), csvNum(x.bootstrap.upper),
                   std::string(decisionKey(decide(x.bootstrap, x.threshold)))});
      // With pairing requested: the note in `method` (as a warning's
      // message), the pair correlation as the estimate, paired/unpaired as
      // the decision.
      if (r.options.pairing == Pairing::Paired)
        o += csvRow({b.name, x.candidate, x.baseline, "pairing", x.pairingNote,
                     x.paired ? csvNum(x.pairCorrelation) : "", "", "",
                     x.paired ? "paired" : "unpaired"});
      // The ratio plan (RatioReport::ratioPlan): the count per level (the
      // top level's = units per system), then its figures; a fallback note
      // goes with the warnings.
      const RatioPlanAdvice &p = x.ratioPlan;
      const auto planRow = [&](const std::string &method, const std::string &estimate) {
        o += csvRow({b.name, x.candidate, x.baseline, "ratio_plan", method, estimate, "", "", ""});
      };
      if (p.ok) {
        for (std::size_t i = 0; i < p.levelNames.size(); ++i)
          planRow(p.levelNames[i], std::to_string(p.counts[i]));
        planRow("target_half_width", csvNum(p.targetHalfWidth));
        planRow("predicted_half_width", csvNum(p.predictedHalfWidth));
        planRow("reachable", p.reachable ? "1" : "0");
        planRow("total_cost", csvNum(p.totalCost));
        planRow("total_time", p.defaultCosts ? "" : csvNum(p.totalTime));
        planRow("upper_bound_used", p.upperBound ? "1" : "0");
      }
    }
  }
  for (const auto &s : r.suite) {
    o += csvRow({"", s.candidate, s.baseline, "geomean_ratio", "bootstrap", csvNum(s.geometricMean),
                 csvNum(s.bootstrap.lower), csvNum(s.bootstrap.upper),
                 std::string(decisionKey(s.decision))});
    auto row = [&](const char *statistic, const char *method, const std::string &estimate,
                   const std::string &lower = "", const std::string &upper = "") {
      o += csvRow({"", s.candidate, s.baseline, statistic, method, estimate, lower, upper, ""});
    };
    if (s.proportion) {
      const SuiteProportion &p = *s.proportion;
      row("proportion_faster", "prop.test", csvNum(p.proportion), csvNum(p.lower), csvNum(p.upper));
      row("proportion_faster", "wald", csvNum(p.proportion), csvNum(p.waldLower),
          csvNum(p.waldUpper));
    }
    if (s.benchmarksNeeded)
      row("benchmarks_needed", "observed", std::to_string(*s.benchmarksNeeded));
    if (s.benchmarksNeededWorstCase)
      row("benchmarks_needed", "worst_case", std::to_string(*s.benchmarksNeededWorstCase));
    const std::pair<const char *, const std::optional<double> *> gains[] = {
        {"all", &s.gainAll},
        {"all_unit_weights", &s.gainAllUnitWeights},
        {"faster", &s.gainFaster},
        {"faster_unit_weights", &s.gainFasterUnitWeights}};
    for (const auto &[method, g] : gains)
      if (*g)
        row("gain_factor", method, csvNum(**g));
  }
  for (const auto &e : r.suiteSystems) {
    const std::pair<const char *, double> values[] = {
        {"observed", e.observed},     {"min", e.summary.minimum}, {"q1", e.summary.q1},
        {"median", e.summary.median}, {"q3", e.summary.q3},       {"max", e.summary.maximum}};
    for (const auto &[method, v] : values)
      o += csvRow({"", e.name, "", "empirical_geomean", method, csvNum(v), "", "", ""});
  }
  // Per unbalanced system, each balancing candidate's V (meanVarianceFactor),
  // the applied one marked in the decision column.
  for (const auto &b : r.balancing)
    for (UnbalancedPolicy p :
         {UnbalancedPolicy::Trim, UnbalancedPolicy::Mixed, UnbalancedPolicy::Drop})
      o += csvRow({b.benchmark, b.system, "", "balancing", unbalancedName(p),
                   csvNum(b.varianceBy(p)), "", "", p == b.applied ? "applied" : ""});
  // Warnings too, so that no format is silent about them: the message is in
  // the `method` column (docs/analyze.md). The balancing lines are warnings
  // in the text and Markdown reports.
  for (const auto &b : r.benchmarks)
    for (const auto &w : b.warnings)
      o += csvRow({b.name, "", "", "warning", w, "", "", "", ""});
  for (const auto &b : r.benchmarks)
    for (const auto &x : b.ratios)
      for (const auto &n :
           x.ratioPlan.ok ? x.ratioPlan.notes : std::vector<std::string>{x.ratioPlan.error})
        o += csvRow(
            {b.name, x.candidate, x.baseline, "warning", "ratio plan: " + n, "", "", "", ""});
  for (const auto &b : r.balancing)
    o += csvRow({b.benchmark, "", "", "warning",
                 "unbalanced (--unbalanced=" + unbalancedName(r.options.unbalanced) +
                     "): " + balancingText(b, r.levels, r.dropped),
                 "", "", "", ""});
  for (const auto &w : r.warnings)
    o += csvRow({"", "", "", "warning", w, "", "", "", ""});
  return o;
}

// ---------------------------------------------------------------- Markdown

std::string mdEscape(const std::string &s) {
  std::string out;
  for (char c : s) {
    if (c == '|' || c == '*' || c == '_' || c == '`')
      out += '\\';
    out += c == '\n' ? ' ' : c;
  }
  return out;
}

std::string mdReport(const Report &r) {
  std::string o = "# alea analysis\n\nBaseline: " + mdEscape(r.baseline) + "; levels: ";
  for (std::size_t i = 0; i < r.levels.size(); ++i)
    o += (i ? " > " : "") + mdEscape(r.levels[i]);
  o += "; " + confidenceLabel(r.options.confidence) + " confidence; threshold " +
       pct(r.options.threshold) + ".\n";
  const std::string conf = confidenceLabel(r.options.confidence);
  for (const auto &b : r.benchmarks) {
    o += "\n## " + (b.name.empty() ? std::string("Results") : mdEscape(b.name)) + "\n\n";
    o += "| system | mean | " + conf + " CI (t) | " + conf + " CI (bootstrap) | design |";
    for (const auto &l : r.levels)
      o += " " + mdEscape(l) + " share |";
    o += "\n|---|---:|---|---|---|";
    for (std::size_t i = 0; i < r.levels.size(); ++i)
      o += "---:|";
    o += "\n";
    for (const auto &s : b.systems) {
      o += "| " + mdEscape(s.name) + " | " + g4(s.mean) + " | " + interval(s.ci.interval, g4) +
           " | " + interval(s.bootstrap.interval, g4) + " | " + shapeText(r.levels, s.shape) + " |";
      for (const auto &l : s.levels) {
        // Appended piece by piece: `" " + pct(...)` trips GCC 12's -Wrestrict
        // false positive (GCC bug 105329).
        o += ' ';
        o += pct(l.share);
        o += " |";
      }
      o += "\n";
    }
    if (!b.ratios.empty()) {
      o += "\n| comparison | ratio | change | " + conf + " CI (Fieller) | " + conf +
           " CI (bootstrap) | decision |\n|---|---:|---|---|---|---|\n";
      for (const auto &x : b.ratios)
        o += "| " + mdEscape(x.candidate) + " vs " + mdEscape(x.baseline) + " | " + r3(x.estimate) +
             " | " + describeRatio(x.estimate) + " | " +
             (x.fieller ? interval(*x.fieller, r3) : std::string("unbounded")) + " | " +
             interval(x.bootstrap, r3) + " | " + std::string(decisionName(x.decision)) + " |\n";
      if (r.options.pairing == Pairing::Paired) {
        o += "\n";
        for (const auto &x : b.ratios)
          o += "- pairing, " + mdEscape(x.candidate) + " vs " + mdEscape(x.baseline) + ": " +
               mdEscape(x.pairingNote) + "\n";
      }
    }
    o += "\n";
    for (const auto &x : b.ratios)
      o += "- " + mdEscape(x.candidate) + " vs " + mdEscape(x.baseline) + ": " +
           mdEscape(ratioPlanText(x.ratioPlan)) + "\n";
    for (const auto &s : b.systems)
      o += "- " + mdEscape(planText(s.plan, s.name)) + "\n";
    for (const auto &w : b.warnings)
      o += "- **warning**: " + mdEscape(w) + "\n";
  }
  if (!r.suite.empty()) {
    o += "\n## Suite (geometric mean)\n\n| comparison | geometric mean | " + conf +
         " CI (bootstrap) | decision | faster | slower | randomization p |\n"
         "|---|---:|---|---|---:|---:|---:|\n";
    for (const auto &s : r.suite)
      o += "| " + mdEscape(s.candidate) + " vs " + mdEscape(s.baseline) + " | " +
           r3(s.geometricMean) + " | " + interval(s.bootstrap, r3) + " | " +
           std::string(decisionName(s.decision)) + " | " + std::to_string(s.faster) + " | " +
           std::to_string(s.slower) + " | " +
           (s.randomizationOk ? fmt("%.4g", s.randomizationP) : std::string("-")) + " |\n";
    o += "\n| comparison | faster | proportion | " + conf +
         " CI (prop.test) | benchmarks needed for +-" + pct(r.options.proportionHalfWidth) +
         " (worst case) | gain factor G, faster | gain factor G, all |\n"
         "|---|---:|---:|---|---:|---:|---:|\n";
    auto opt = [](const std::optional<double> &v) { return v ? pct(*v) : std::string("-"); };
    for (const auto &s : r.suite) {
      o += "| " + mdEscape(s.candidate) + " vs " + mdEscape(s.baseline) + " | " +
           std::to_string(s.faster) + " of " + std::to_string(s.benchmarks) + " | ";
      o += s.proportion ? r3(s.proportion->proportion) + " | [" + r3(s.proportion->lower) + ", " +
                              r3(s.proportion->upper) + "]"
                        : std::string("- | -");
      o += " | " + (s.benchmarksNeeded ? std::to_string(*s.benchmarksNeeded) : std::string("-")) +
           " (" +
           (s.benchmarksNeededWorstCase ? std::to_string(*s.benchmarksNeededWorstCase)
                                        : std::string("-")) +
           ") | " + opt(s.gainFaster) + " | " + opt(s.gainAll) + " |\n";
    }
    if (!r.suiteSystems.empty()) {
      o += "\nEmpirical distribution of the geometric mean over benchmarks, one " +
           mdEscape(r.levels[0]) + " mean drawn per benchmark (Li-Chen-Peng, " +
           std::to_string(r.suiteSystems.front().replicates) +
           " draws):\n\n| system | observed | min | Q1 | median | Q3 | max |\n"
           "|---|---:|---:|---:|---:|---:|---:|\n";
      for (const auto &e : r.suiteSystems)
        o += "| " + mdEscape(e.name) + " | " + g4(e.observed) + " | " + g4(e.summary.minimum) +
             " | " + g4(e.summary.q1) + " | " + g4(e.summary.median) + " | " + g4(e.summary.q3) +
             " | " + g4(e.summary.maximum) + " |\n";
    }
  }
  if (!r.dropped.empty() || !r.warnings.empty()) {
    o += "\n## Warnings\n\n";
    for (const auto &b : r.balancing) {
      o += "- unbalanced (--unbalanced=" + unbalancedName(r.options.unbalanced) +
           "): " + mdEscape(balancingText(b, r.levels, r.dropped)) + "\n";
      for (const auto &d : r.dropped)
        if (sameSystem(d, b))
          o += "  - " + mdEscape(droppedText(d, r.levels)) + "\n";
    }
    for (const auto &w : r.warnings)
      o += "- " + mdEscape(w) + "\n";
  }
  return o;
}

// ---------------------------------------------------------------- plans

std::string textPlans(const PlanSet &p) {
  std::string o;
  for (const auto &pr : p.plans) {
    o += pr.system + (pr.benchmark.empty() ? "" : " on " + pr.benchmark) + ": mean " + g4(pr.mean) +
         "\n";
    o += "  level        n          S2          T2   share\n";
    for (const auto &l : pr.levels) {
      char buf[200];
      std::snprintf(buf, sizeof buf, "  %-10s %4zu %11.4g %11.4g  %5.1f%%%s\n", l.name.c_str(), l.n,
                    l.s2, l.t2, l.share * 100.0, l.removed ? "  (removed: T2 <= 0)" : "");
      o += buf;
    }
    o += "  overheads (measurements per new unit):";
    for (std::size_t i = 0; i < pr.overheads.size(); ++i)
      o += " " + p.levels[i] + " " + g4(pr.overheads[i]);
    if (pr.overheads.empty())
      o += " none";
    o += "\n";
    if (pr.budget)
      o += "  budget: " + g4(*pr.budget) + " (" + g4(pr.budgetMeasurements) + " measurements)\n";
    o += "  " + planText(pr.plan, pr.system) + "\n";
    if (pr.plan.ok && pr.plan.counts.size() > 1) {
      o += "  optimal counts: ";
      for (std::size_t i = 0; i < pr.plan.counts.size(); ++i)
        o += (i ? ", " : "") + p.levels[i] + " " + std::to_string(pr.plan.counts[i]);
      o += "\n";
    }
    if (pr.plan.targetHalfWidth > 0) {
      o += "  KJ13 Tables 6/7 rule (relative sd of " + p.levels[0] + " means " +
           pct(pr.relativeSd, "%.2f%%") + "): ";
      o += pr.kj13TopCount
               ? std::to_string(*pr.kj13TopCount) + " " + plural(p.levels[0], *pr.kj13TopCount) +
                     runAtLeast(*pr.kj13TopCount)
               : std::string("more than 1000 ") + p.levels[0] + "s";
      o += "\n";
    }
  }
  for (const auto &b : p.balancing) {
    o += "warning: unbalanced: " + balancingText(b, p.levels, p.dropped) + "\n";
    for (const auto &d : p.dropped)
      if (sameSystem(d, b))
        o += "  " + droppedText(d, p.levels) + "\n";
  }
  return o;
}

std::string jsonPlans(const PlanSet &p) {
  JsonWriter w;
  w.beginObject();
  w.key("alea_plan").value(static_cast<std::size_t>(kReportSchemaVersion));
  w.key("levels");
  jsonStrings(w, p.levels);
  w.key("plans").beginArray();
  for (const auto &pr : p.plans) {
    w.beginObject();
    w.key("system").value(pr.system);
    w.key("benchmark");
    if (pr.benchmark.empty())
      w.null();
    else
      w.value(pr.benchmark);
    w.key("mean").value(pr.mean);
    w.key("levels");
    jsonLevels(w, pr.levels);
    w.key("overheads").beginArray(true);
    for (double c : pr.overheads)
      w.value(c);
    w.endArray();
    w.key("budget");
    if (pr.budget)
      w.value(*pr.budget);
    else
      w.null();
    w.key("plan");
    jsonPlan(w, pr.plan);
    w.key("relative_sd").value(pr.relativeSd);
    w.key("kj13_top_count");
    if (pr.kj13TopCount)
      w.value(*pr.kj13TopCount);
    else
      w.null();
    // What to run: at least kMinimumTopCount (KJ13 §11).
    w.key("kj13_run_count");
    if (pr.kj13TopCount)
      w.value(std::max(*pr.kj13TopCount, kMinimumTopCount));
    else
      w.null();
    w.endObject();
  }
  w.endArray();
  jsonUnbalanced(w, p.unbalanced, p.dropped);
  jsonBalancing(w, p.balancing);
  w.endObject();
  return w.str() + "\n";
}

std::string csvPlans(const PlanSet &p) {
  std::string o =
      csvRow({"benchmark", "system", "level", "n", "S2", "T2", "share", "removed", "planned_n"});
  for (const auto &pr : p.plans)
    for (std::size_t i = 0; i < pr.levels.size(); ++i) {
      const auto &l = pr.levels[i];
      o += csvRow({pr.benchmark, pr.system, l.name, std::to_string(l.n), csvNum(l.s2), csvNum(l.t2),
                   csvNum(l.share), l.removed ? "1" : "0",
                   pr.plan.ok ? std::to_string(pr.plan.counts[i]) : ""});
    }
  return o;
}

std::string mdPlans(const PlanSet &p) {
  std::string o = "# alea plan\n";
  for (const auto &pr : p.plans) {
    o += "\n## " + mdEscape(pr.system) +
         (pr.benchmark.empty() ? "" : " on " + mdEscape(pr.benchmark)) +
         "\n\n| level | n | S2 | T2 | share | planned n |\n|---|---:|---:|---:|---:|---:|\n";
    for (std::size_t i = 0; i < pr.levels.size(); ++i) {
      const auto &l = pr.levels[i];
      o += "| " + mdEscape(l.name) + " | " + std::to_string(l.n) + " | " + g4(l.s2) + " | " +
           g4(l.t2) + " | " + pct(l.share) + " | " +
           (pr.plan.ok ? std::to_string(pr.plan.counts[i]) : std::string("-")) + " |\n";
    }
    o += "\n- " + mdEscape(planText(pr.plan, pr.system)) + "\n";
    if (pr.plan.targetHalfWidth > 0)
      o += "- KJ13 Tables 6/7 rule (relative sd of " + mdEscape(p.levels[0]) + " means " +
           pct(pr.relativeSd, "%.2f%%") + "): " +
           (pr.kj13TopCount
                ? std::to_string(*pr.kj13TopCount) + " " +
                      mdEscape(plural(p.levels[0], *pr.kj13TopCount)) + runAtLeast(*pr.kj13TopCount)
                : "more than 1000 " + mdEscape(p.levels[0]) + "s") +
           "\n";
  }
  if (!p.balancing.empty()) {
    o += "\n## Warnings\n\n";
    for (const auto &b : p.balancing) {
      o += "- unbalanced: " + mdEscape(balancingText(b, p.levels, p.dropped)) + "\n";
      for (const auto &d : p.dropped)
        if (sameSystem(d, b))
          o += "  - " + mdEscape(droppedText(d, p.levels)) + "\n";
    }
  }
  return o;
}

} // namespace

std::string formatReport(const Report &report, Format format) {
  switch (format) {
  case Format::Json:
    return jsonReport(report);
  case Format::Csv:
    return csvReport(report);
  case Format::Markdown:
    return mdReport(report);
  case Format::Text:
    break;
  }
  return textReport(report);
}

std::string formatPlans(const PlanSet &plans, Format format) {
  switch (format) {
  case Format::Json:
    return jsonPlans(plans);
  case Format::Csv:
    return csvPlans(plans);
  case Format::Markdown:
    return mdPlans(plans);
  case Format::Text:
    break;
  }
  return textPlans(plans);
}

} // namespace alea::analysis

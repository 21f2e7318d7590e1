// The report model (report.hpp): nest and balance the table, then, per
// benchmark and system, run the engine (variance components, t-CI, bootstrap,
// layout effect, planner) and, per candidate (and per pair of candidates on
// request), Fieller + bootstrap ratio, decision and the Speedup-Test, with
// Holm's family over a benchmark's comparisons; for suites, the Li-Chen-Peng
// geometric-mean bootstrap.
#include "alea/analysis/report.hpp"

#include "alea/analysis/diagnostics.hpp"
#include "alea/analysis/family.hpp"
#include "alea/analysis/htest.hpp"
#include "alea/analysis/layout_effect.hpp"
#include "alea/analysis/planner.hpp"
#include "alea/analysis/ratio_planner.hpp"
#include "alea/analysis/resampling.hpp"
#include "alea/analysis/scale.hpp"
#include "alea/analysis/speedup_test.hpp"
#include "alea/analysis/variance.hpp"

#include "alea/random.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace alea::analysis {

namespace {

std::string quotedName(const std::string &s) { return quoteForMessage(s); }

std::string where(const std::string &benchmark) {
  return benchmark.empty() ? std::string() : " on benchmark " + quotedName(benchmark);
}

Expected<Hierarchy> hierarchyOf(const SystemData &sys, const std::vector<std::string> &levels) {
  return makeHierarchy(levels, sys.shape, flatten(sys));
}

std::string percent(double fraction, int digits = 1) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f%%", digits, fraction * 100.0);
  return buf;
}

std::string g3Value(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

Expected<std::vector<double>> overheadsFor(const std::vector<double> &costs, std::size_t depth) {
  if (costs.empty())
    return std::vector<double>(depth > 0 ? depth - 1 : 0, 1.0);
  if (costs.size() + 1 != depth)
    return fail("expected " + std::to_string(depth - 1) +
                " costs (one per level except the lowest, highest first), got " +
                std::to_string(costs.size()));
  for (double c : costs)
    if (!(c >= 0) || !std::isfinite(c))
      return fail("costs must be finite and >= 0");
  return costs;
}

// The planner's advice for one system's data, as report and plan share it.
PlanAdvice advise(const Hierarchy &h, const std::vector<double> &costs,
                  std::optional<double> targetHalfWidth, std::optional<double> budgetSeconds,
                  double confidence) {
  PlanAdvice advice;
  advice.defaultCosts = costs.empty();
  auto overheads = overheadsFor(costs, h.depth());
  if (!overheads) {
    advice.error = overheads.error();
    return advice;
  }
  PlanOptions po;
  po.overheads = *overheads;
  po.confidence = confidence;
  po.topUpperBound = true; // never "not available" for T^2 <= 0 at the top
  auto plan = planExperiment(h, po);
  if (!plan) {
    advice.error = plan.error();
    return advice;
  }
  if (plan->top.upperBound) {
    const std::string top = h.levelNames[0];
    advice.topUpperBound = true;
    advice.topNote =
        "the " + top + " level shows no variance (T^2 = " + g3Value(plan->top.pilotT2) +
        " <= 0 from " + std::to_string(h.topCount()) + " " + top + "s): planned with the " +
        g3Value(confidence * 100) + "% upper confidence bound of its variance, a " + top + "-to-" +
        top + " SD of " + percent(std::sqrt(plan->top.t2) / plan->grandMean, 2) + " of the mean";
  }
  const double mean = plan->grandMean;
  for (const auto &l : plan->levels) {
    advice.levelNames.push_back(l.name);
    advice.counts.push_back(l.count);
    advice.removed.push_back(l.removed);
  }
  advice.costPerTopUnit = plan->costPerTopUnit;
  std::size_t top = h.topCount();
  if (targetHalfWidth) {
    advice.targetHalfWidth = *targetHalfWidth;
    advice.topUnitsNeeded = topCountForHalfWidth(*plan, *targetHalfWidth * mean);
    if (advice.topUnitsNeeded)
      top = *advice.topUnitsNeeded;
  }
  if (budgetSeconds) {
    top = topCountForBudget(*plan, *budgetSeconds / mean);
  }
  if (!advice.counts.empty())
    advice.counts[0] = top;
  advice.predictedHalfWidth = top >= 2 ? predictedHalfWidth(*plan, top) / mean : INFINITY;
  advice.ok = true;
  return advice;
}

// The ratio planner's advice for one candidate vs the baseline: costs as
// ReportOptions::costs (taken as the pair's), rho the correlation of paired
// top-level means (0: independent systems).
RatioPlanAdvice adviseRatio(const Hierarchy &candidate, const Hierarchy &baseline,
                            const std::vector<double> &costs, double targetHalfWidth,
                            double confidence, double rho, bool keepLowerCounts) {
  RatioPlanAdvice advice;
  advice.defaultCosts = costs.empty();
  advice.targetHalfWidth = targetHalfWidth;
  advice.rho = rho;
  auto overheads = overheadsFor(costs, candidate.depth());
  if (!overheads) {
    advice.error = overheads.error();
    return advice;
  }
  RatioPlanOptions po;
  po.overheads = *overheads;
  po.targetHalfWidth = targetHalfWidth;
  po.confidence = confidence;
  po.rho = rho;
  if (keepLowerCounts)
    po.lowerCounts = std::vector<std::size_t>(candidate.shape.begin() + 1, candidate.shape.end());
  auto plan = planRatio(candidate, baseline, po);
  if (!plan) {
    advice.error = plan.error();
    return advice;
  }
  for (const auto &l : plan->levels) {
    advice.levelNames.push_back(l.name);
    advice.counts.push_back(l.count);
    advice.removed.push_back(l.removed);
  }
  advice.reachable = plan->reachable;
  advice.predictedHalfWidth = plan->predictedHalfWidth;
  advice.costPerPair = plan->costPerPair;
  advice.totalCost = plan->totalCost;
  advice.measurementValue = (candidate.grandMean() + baseline.grandMean()) / 2;
  advice.totalTime = advice.totalCost * advice.measurementValue;
  advice.upperBound = plan->fallbackUsed();
  advice.notes = plan->notes;
  advice.ok = true;
  return advice;
}

std::vector<LevelReport> levelReports(const Hierarchy &h, const VarianceComponents &vc) {
  // S^2 and T^2 on the data as measured (TR 2012 §6.1); the shares come from
  // the design after removing levels with T^2 <= 0 (variance.hpp).
  const std::vector<double> s2 = sSquared(h);
  const std::vector<double> t2 = tSquared(s2, h.shape);
  std::vector<LevelReport> out;
  for (std::size_t i = 0; i < h.depth(); ++i) {
    LevelReport l;
    l.name = h.levelNames[i];
    l.n = h.shape[i];
    l.s2 = s2[i];
    l.t2 = t2[i];
    l.share = vc.levels[i].share;
    l.removed = vc.levels[i].removed;
    out.push_back(l);
  }
  return out;
}

DiagnosticsReport diagnosticsOf(const SystemData &sys, const Hierarchy &h) {
  DiagnosticsReport d;
  auto dg = diagnose(h);
  if (!dg) {
    d.error = dg.error();
    return d;
  }
  d.ok = true;
  for (const auto &o : dg->measurementOutliers.outliers) {
    d.measurementOutliers += 1;
    d.measurementFarOut += o.farOut;
  }
  for (const auto &o : dg->unitOutliers.outliers)
    if (o.index < sys.units.size())
      d.outlierUnits.push_back(sys.units[o.index].label);
  if (dg->modes) {
    d.modesTested = true;
    d.multimodal = dg->modes->multimodal;
    d.modeGap = dg->modes->relativeGap;
    d.modePValue = dg->modes->pValue;
    d.lowUnits = dg->modes->lowUnits.size();
    d.highUnits = dg->modes->highUnits.size();
  }
  if (dg->trends) {
    d.trendsTested = true;
    d.trendExecutions = dg->trends->executions;
    d.trendFlagged = dg->trends->flagged;
    d.trendDecreasing = dg->trends->flaggedDecreasing;
  }
  return d;
}

Expected<SystemReport> systemReport(const SystemData &sys, const Hierarchy &h,
                                    const std::string &benchmark, const ReportOptions &o) {
  SystemReport r;
  r.name = sys.system;
  r.shape = sys.shape;
  r.measurements = h.values.size();
  r.mean = h.grandMean();
  auto ci = meanInterval(h, o.confidence, o.ciMethod);
  if (!ci)
    return fail("system " + quotedName(sys.system) + where(benchmark) + ": " + ci.error());
  r.ci = *ci;
  BootstrapOptions bo;
  bo.replicates = o.bootstrapReplicates;
  bo.seed = alea::mixSeed(o.seed, "mean/" + benchmark + "/" + sys.system);
  bo.threads = o.threads;
  bo.scheme = o.scheme;
  bo.confidence = o.confidence;
  auto boot = bootstrapMean(h, bo);
  if (!boot)
    return fail("system " + quotedName(sys.system) + where(benchmark) + ": " + boot.error());
  r.bootstrap = *boot;
  auto vc = varianceComponents(h);
  if (!vc)
    return fail("system " + quotedName(sys.system) + where(benchmark) + ": " + vc.error());
  r.levels = levelReports(h, *vc);
  r.topLevelWithoutVariation = vc->topLevelWithoutVariation;
  const auto top = h.topMeans();
  const auto [lo, hi] = std::minmax_element(top.begin(), top.end());
  r.bestUnitMean = *lo;
  r.worstUnitMean = *hi;
  r.bestUnit = sys.units[static_cast<std::size_t>(lo - top.begin())].label;
  r.worstUnit = sys.units[static_cast<std::size_t>(hi - top.begin())].label;
  r.layout = layoutEffect(h, r.levels.empty() ? 0.0 : r.levels[0].share, o.confidence);
  r.plan = advise(h, o.costs, o.targetHalfWidth, std::nullopt, o.confidence);
  if (o.diagnostics)
    r.diagnostics = diagnosticsOf(sys, h);
  return r;
}

constexpr const char *kBalanceHint =
    "use --unbalanced=auto, trim, mixed or drop to balance it";

// Whether the applied balancing policy removed whole top-level units (drop,
// or mixed when all the children of a unit were incomplete).
bool lostTopUnits(const SystemBalance &b) {
  return (b.applied == UnbalancedPolicy::Drop || b.applied == UnbalancedPolicy::Mixed) &&
         b.topUnitsBy(b.applied) < b.topUnits;
}

// " after dropping incomplete units (--unbalanced=trim keeps 3 builds)" when
// the drop or mixed policy is why a system is left with too few top-level
// units.
std::string afterBalancing(const std::vector<SystemBalance> &systems, const std::string &benchmark,
                           const std::string &system, const std::string &top) {
  for (const auto &b : systems)
    if (b.benchmark == benchmark && b.system == system && lostTopUnits(b))
      return std::string(" after dropping incomplete units (") +
             (b.applied == UnbalancedPolicy::Mixed ? "mixed; " : "") + "--unbalanced=trim keeps " +
             std::to_string(b.topUnitsByTrim) + " " + top + (b.topUnitsByTrim == 1 ? "" : "s") +
             ")";
  return {};
}

// The one-line summary of what balancing removed (the list is in the output).
std::string balanceWarning(const std::vector<DroppedUnits> &dropped) {
  std::size_t trimmed = 0, places = 0, incomplete = 0, units = 0;
  for (const auto &d : dropped) {
    if (d.reason == DropReason::Incomplete) {
      incomplete += d.measurements;
      units += d.labels.size();
    } else {
      trimmed += d.measurements;
      ++places;
    }
  }
  auto measurements = [](std::size_t n) {
    return std::to_string(n) + (n == 1 ? " measurement" : " measurements");
  };
  std::string w = "unbalanced data: ";
  if (units > 0)
    w += "dropped " + std::to_string(units) + " incomplete " + (units == 1 ? "unit" : "units") +
         " (" + measurements(incomplete) + ")" + (places > 0 ? " and " : "");
  if (places > 0)
    w += "trimmed " + measurements(trimmed) + " in " + std::to_string(places) +
         (places == 1 ? " place" : " places");
  return w + " to balance the design (see the list)";
}

// Two systems of one benchmark with different top-level counts (e.g. the
// candidate lost a whole build): legal, but the tech report assumes equal
// counts (TR 2012 eq. 12; spec_001 D-B6 leaves the unequal case open), so say
// what was done instead and where the difference comes from.
std::string unequalTopUnitsWarning(const RatioReport &rr, const std::string &top,
                                   const std::vector<SystemBalance> &balancing,
                                   const std::string &benchmark, IntervalMethod method) {
  auto units = [&](std::size_t n) { return std::to_string(n) + " " + top + (n == 1 ? "" : "s"); };
  std::string w = rr.candidate + " has " + units(rr.candidateTopUnits) + ", " + rr.baseline +
                  " has " + std::to_string(rr.baselineTopUnits) + ": ";
  if (method == IntervalMethod::T)
    w += "Fieller's interval uses nu = min(n) - 1 = " +
         std::to_string(std::min(rr.candidateTopUnits, rr.baselineTopUnits) - 1) +
         " (conservative), ";
  w += "the bootstrap resamples each system within its own " + top + "s";
  for (const auto &b : balancing)
    if (b.benchmark == benchmark && (b.system == rr.candidate || b.system == rr.baseline) &&
        lostTopUnits(b))
      w += "; " + b.system + " lost " + units(b.topUnits - b.topUnitsBy(b.applied)) +
           " to the unbalanced-data policy (" + unbalancedPolicyName(b.applied) + ")";
  return w;
}

// --- each benchmark's scale (scale.hpp) ----------------------------------------

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
Expected<bool> unscaleBenchmark(BenchmarkReport &b, const ValueScale &scale) {
  const int e = scale.exponent;
  if (e == 0)
    return true;
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
  return true;
}

// --- the suite -------------------------------------------------------------

// What one benchmark gives the suite for one candidate vs the baseline.
struct SuiteEntry {
  std::string benchmark;
  std::vector<double> replicates; // the bootstrap's ratio replicates, in order
  double estimate = 0;
  Decision decision = Decision::Inconclusive;
  BenchmarkRuns runs; // top-level means, in the benchmark's scale
  int exponent = 0;   // the benchmark's ValueScale::exponent
};

// The benchmarks of `all` (report order) that `used` does not name.
std::vector<std::string> leftOut(const std::vector<BenchmarkReport> &all,
                                 const std::vector<std::string> &used) {
  std::vector<std::string> out;
  for (const auto &b : all)
    if (std::find(used.begin(), used.end(), b.name) == used.end())
      out.push_back(b.name);
  return out;
}

// Touati's suite level for one candidate (seed 002 §1.4-§1.5): the benchmarks
// decided faster are the "accelerated" ones; the medians behind the gain
// factor are those of each system's top-level means, the independent runs
// under layout randomization (docs/methods.md §2, "In alea"). The gain factor
// adds medians over benchmarks, so they are put on one scale first: each
// times 2^(its exponent - the largest), exact, and at most 1 (a benchmark
// 2^1000 times smaller than the largest weighs nothing, as in its own unit).
void touatiSuite(SuiteRatioReport &sr, const std::vector<SuiteEntry> &entries,
                 const ReportOptions &o) {
  auto p = suiteProportion(sr.faster, entries.size(), o.confidence);
  if (p)
    sr.proportion = *p;
  else
    sr.proportionError = p.error();
  sr.proportionHalfWidth = o.proportionHalfWidth;
  // At an observed proportion of 0 or 1, C(1 - C) = 0 and the formula asks
  // for "1 benchmark": no estimate; the worst case is the advice then.
  if (p && p->proportion > 0 && p->proportion < 1)
    if (auto n = benchmarksNeeded(p->proportion, o.proportionHalfWidth, o.confidence))
      sr.benchmarksNeeded = *n;
  if (auto n = benchmarksNeeded(0.5, o.proportionHalfWidth, o.confidence))
    sr.benchmarksNeededWorstCase = *n;
  int largest = entries.front().exponent;
  for (const auto &e : entries)
    largest = std::max(largest, e.exponent);
  std::vector<BenchmarkMedians> all, faster;
  for (const auto &e : entries) {
    const int shift = e.exponent - largest;
    const BenchmarkMedians m{std::ldexp(median(e.runs.baseline), shift),
                             std::ldexp(median(e.runs.candidate), shift)};
    all.push_back(m);
    if (e.decision == Decision::Faster)
      faster.push_back(m);
  }
  auto gain = [](const std::vector<BenchmarkMedians> &set, GainWeights w) {
    auto g = gainFactor(set, w);
    return g ? std::optional<double>(*g) : std::nullopt;
  };
  sr.gainAll = gain(all, GainWeights::BaselineMedian);
  sr.gainAllUnitWeights = gain(all, GainWeights::Unit);
  sr.gainFaster = gain(faster, GainWeights::BaselineMedian); // none faster: nullopt
  sr.gainFasterUnitWeights = gain(faster, GainWeights::Unit);
}

// The geometric mean over benchmarks of each candidate's ratio (Li, Chen &
// Peng §IV), from the benchmarks that gave one: replicate r of the GM uses
// replicate r of every benchmark's ratio, each drawn independently
// (per-benchmark seeds), so each system is resampled within each benchmark.
// Ratios are scale-free: each benchmark's stay in its own scale.
SuiteRatioReport suiteRatio(const std::string &candidate, const std::vector<SuiteEntry> &entries,
                            const Report &report, const ReportOptions &options) {
  SuiteRatioReport sr;
  sr.candidate = candidate;
  sr.baseline = report.baseline;
  sr.benchmarks = entries.size();
  sr.confidence = options.confidence;
  std::vector<std::string> used;
  std::vector<BenchmarkRuns> runs;
  double logSum = 0;
  std::size_t nRep = entries.front().replicates.size();
  for (const auto &e : entries) {
    used.push_back(e.benchmark);
    runs.push_back(e.runs);
    logSum += std::log(e.estimate);
    nRep = std::min(nRep, e.replicates.size());
    sr.faster += e.decision == Decision::Faster;
    sr.slower += e.decision == Decision::Slower;
  }
  sr.leftOut = leftOut(report.benchmarks, used);
  const double k = static_cast<double>(entries.size());
  sr.geometricMean = std::exp(logSum / k);
  std::vector<double> gm(nRep);
  for (std::size_t r = 0; r < nRep; ++r) {
    double s = 0;
    for (const auto &e : entries)
      s += std::log(e.replicates[r]);
    gm[r] = std::exp(s / k);
  }
  sr.bootstrap = percentileInterval(gm, options.confidence, QuantileRule::PaperOrderStatistic);
  sr.decision = decide(sr.bootstrap, options.threshold);
  SuiteBootstrapOptions so;
  so.replicates = options.bootstrapReplicates;
  so.confidence = options.confidence;
  so.seed = alea::mixSeed(options.seed, "suite-bootstrap/" + sr.candidate);
  so.threads = options.threads;
  if (auto sb = bootstrapSuiteRatio(runs, so)) {
    sr.topLevelBootstrapOk = true;
    sr.topLevelBootstrap = Interval{sb->lower, sb->upper};
  }
  RandomizationOptions ro;
  ro.replicates = options.randomizationReplicates;
  ro.seed = alea::mixSeed(options.seed, "randomization/" + sr.candidate);
  ro.threads = options.threads;
  auto rt = randomizationTest(runs, ro);
  if (rt) {
    sr.randomizationOk = true;
    sr.randomizationP = rt->pTwoSidedMc;
    sr.randomizationExhaustive = rt->exhaustive;
    sr.randomizationReplicates = rt->replicates;
  } else {
    sr.randomizationError = rt.error();
  }
  touatiSuite(sr, entries, options);
  return sr;
}

// Li, Chen & Peng §V per system: one top-level mean drawn per benchmark,
// geometric mean over the analysed benchmarks where the system has data
// (`scales[k]` the scale of benchmarks[k], refused ones skipped). The
// geometric mean of values each times 2^e_k is theirs times 2^mean(e_k).
std::vector<SuiteSystemReport> empiricalSuite(const std::vector<BenchmarkData> &benchmarks,
                                              const std::vector<std::optional<int>> &exponents,
                                              const Report &report, const Table &table,
                                              const ReportOptions &o) {
  std::vector<SuiteSystemReport> out;
  for (const auto &name : table.systems()) {
    std::vector<std::vector<double>> runs;
    std::vector<std::string> used;
    long exponentSum = 0;
    for (std::size_t k = 0; k < benchmarks.size(); ++k)
      if (exponents[k])
        for (const auto &sys : benchmarks[k].systems)
          if (sys.system == name)
            if (auto h = hierarchyOf(sys, table.levels())) {
              runs.push_back(h->topMeans());
              used.push_back(benchmarks[k].benchmark);
              exponentSum += *exponents[k];
            }
    if (runs.size() < 2)
      continue;
    EmpiricalOptions eo;
    eo.replicates = o.bootstrapReplicates;
    eo.seed = alea::mixSeed(o.seed, "empirical/" + name);
    auto e = empiricalDistribution(runs, eo);
    if (!e)
      continue; // the values were checked per benchmark
    const long count = static_cast<long>(runs.size());
    const auto back = [&](double v) { return timesPowerOfTwo(v, exponentSum, count); };
    SuiteSystemReport r;
    r.name = name;
    r.benchmarks = runs.size();
    r.leftOut = leftOut(report.benchmarks, used);
    r.observed = back(e->observed);
    r.replicates = e->values.size();
    r.summary = e->summary;
    for (double *v : {&r.summary.minimum, &r.summary.q1, &r.summary.median, &r.summary.q3,
                      &r.summary.maximum})
      *v = back(*v);
    out.push_back(std::move(r));
  }
  return out;
}

// --- paired designs (issue 8) ---------------------------------------------
// Top-level unit "3" of the candidate ran together with unit "3" of the
// baseline (interleaved pairs or duet): the pairs are the labels both systems
// still have after balancing, in the baseline's order. Each system is
// balanced on its own, so a subset of its top-level units is balanced too.

struct PairedData {
  bool paired = false;
  Hierarchy candidate, baseline; // the paired units, pair i = unit i of each
  std::size_t pairs = 0;
  std::size_t unmatched = 0; // top-level units of either system without a partner
  double correlation = 0;    // of the paired top-level means
  std::string note;          // RatioReport::pairingNote
};

Expected<PairedData> pairByLabel(const SystemData &cand, const SystemData &base,
                                 const std::vector<std::string> &levels, const ReportOptions &o) {
  PairedData out;
  const std::string &top = levels[0];
  if (o.pairing != Pairing::Paired) {
    out.note = "unpaired: the design did not pair " + top + "s";
    return out;
  }
  if (o.scheme.kind == ResamplingScheme::Kind::Flat) {
    out.note = "unpaired: the FLAT resampling scheme ignores the " + top + "s";
    return out;
  }
  SystemData c, b; // the pairs only (the rest of SystemData is not needed)
  c.system = cand.system;
  c.shape = cand.shape;
  b.system = base.system;
  b.shape = base.shape;
  for (const UnitNode &u : base.units)
    for (const UnitNode &v : cand.units)
      if (v.label == u.label) {
        b.units.push_back(u);
        c.units.push_back(v);
        break;
      }
  out.pairs = b.units.size();
  out.unmatched = cand.units.size() + base.units.size() - 2 * out.pairs;
  if (out.pairs < 2) {
    out.note = out.pairs == 0 ? "unpaired: no " + top + " label has data in both systems"
                              : "unpaired: only 1 " + top + " pair has data in both systems";
    return out;
  }
  c.shape[0] = b.shape[0] = out.pairs;
  auto hc = hierarchyOf(c, levels);
  if (!hc)
    return fail(hc.error());
  auto hb = hierarchyOf(b, levels);
  if (!hb)
    return fail(hb.error());
  out.paired = true;
  out.candidate = std::move(*hc);
  out.baseline = std::move(*hb);
  char corr[32];
  out.correlation = pairCorrelation(out.candidate, out.baseline);
  std::snprintf(corr, sizeof corr, "%.2f", out.correlation);
  out.note = "paired by " + top + " (" + std::to_string(out.pairs) + " pairs; ";
  if (out.unmatched > 0)
    out.note += std::to_string(out.unmatched) + " " + top + (out.unmatched == 1 ? "" : "s") +
                " without a partner left out; ";
  out.note += "correlation of the " + top + " means " + corr + ")";
  return out;
}

bool intervalsDisagree(const Interval &a, const Interval &b, double fraction) {
  const double scale = std::max(a.width(), b.width());
  const double diff = std::max(std::fabs(a.lower - b.lower), std::fabs(a.upper - b.upper));
  return diff > fraction * scale;
}

// One comparison, `candidate` over `baseline` on one benchmark: pairing,
// Fieller's interval, the ratio planner, the bootstrap, the decision with its
// warnings and the Speedup-Test, plus what Holm's family needs later. The
// same for the candidates vs the baseline and, with allPairs, for every pair
// of candidates (issue 10).
struct Comparison {
  RatioReport report;
  std::vector<double> replicates; // the bootstrap's, in replicate order
  // Fieller again at other levels (the p-value, Holm's step): the top-level
  // means it used (the pairs when paired), as one-level hierarchies.
  Hierarchy fiellerCandidate, fiellerBaseline;
};

// Fieller's interval of a comparison at any level, paired or not as it is.
Expected<FiellerResult> fiellerOf(const Comparison &c, double confidence, IntervalMethod method) {
  return c.report.paired
             ? fiellerPairedRatio(c.fiellerCandidate, c.fiellerBaseline, confidence, method)
             : fiellerRatio(c.fiellerCandidate, c.fiellerBaseline, confidence, method);
}

std::optional<Interval> fiellerAt(const Comparison &c, double confidence, IntervalMethod method) {
  auto f = fiellerOf(c, confidence, method);
  if (!f || f->status != FiellerStatus::Bounded)
    return std::nullopt;
  return f->interval;
}

Expected<Comparison> compare(const SystemData &candidateData, const Hierarchy &cand,
                             const SystemData &baselineData, const Hierarchy &base,
                             const std::string &benchmark, const std::string &seedKey,
                             const Table &table, const BalanceResult &balanced,
                             const ReportOptions &options, std::vector<std::string> &warnings) {
  Comparison out;
  RatioReport &rr = out.report;
  rr.candidate = candidateData.system;
  rr.baseline = baselineData.system;
  rr.confidence = options.confidence;
  rr.threshold = options.threshold;
  auto pd = pairByLabel(candidateData, baselineData, table.levels(), options);
  if (!pd)
    return fail(rr.candidate + " vs " + rr.baseline + where(benchmark) + ": " + pd.error());
  rr.paired = pd->paired;
  rr.pairingNote = pd->note;
  rr.pairs = pd->pairs;
  rr.pairCorrelation = pd->correlation;
  // Fieller depends on the top-level means only (the pairs' when paired):
  // kept as one-level hierarchies for the other levels Holm's family needs.
  const std::string &top = table.levels()[0];
  out.fiellerCandidate = flatHierarchy(rr.paired ? pd->candidate.topMeans() : cand.topMeans(), top);
  out.fiellerBaseline = flatHierarchy(rr.paired ? pd->baseline.topMeans() : base.topMeans(), top);
  auto f = fiellerOf(out, options.confidence, options.ciMethod);
  if (!f)
    return fail(rr.candidate + " vs " + rr.baseline + where(benchmark) + ": " + f.error());
  rr.estimate = f->estimate;
  rr.fiellerStatus = f->status;
  rr.fieller = f->interval;
  rr.fiellerDf = f->df;
  rr.candidateTopUnits = cand.topCount();
  rr.baselineTopUnits = base.topCount();
  // Paired designs plan with the correlation of the paired build means.
  rr.ratioPlan =
      adviseRatio(cand, base, options.costs, options.targetHalfWidth, options.confidence,
                  rr.paired ? rr.pairCorrelation : 0.0, options.ratioPlanKeepsLowerCounts);
  if (rr.unequalTopUnits() && !rr.paired)
    warnings.push_back(
        unequalTopUnitsWarning(rr, top, balanced.systems, benchmark, options.ciMethod));
  BootstrapOptions bo;
  bo.replicates = options.bootstrapReplicates;
  bo.seed = alea::mixSeed(options.seed, seedKey);
  bo.threads = options.threads;
  bo.scheme = options.scheme;
  bo.confidence = options.confidence;
  bo.keepReplicates = true;
  auto b = rr.paired ? bootstrapPairedRatio(pd->candidate, pd->baseline, bo)
                     : bootstrapRatio(cand, base, bo);
  if (!b)
    return fail(rr.candidate + " vs " + rr.baseline + where(benchmark) + ": " + b.error());
  rr.bootstrap = b->interval;
  if (rr.fieller) {
    rr.decision = decide(*rr.fieller, options.threshold);
    rr.decisionBasis = "fieller";
    rr.disagreement = intervalsDisagree(*rr.fieller, rr.bootstrap, options.disagreementFraction);
    if (rr.disagreement)
      warnings.push_back(rr.candidate + " vs " + rr.baseline +
                         ": Fieller's and the bootstrap interval disagree by more than " +
                         percent(options.disagreementFraction, 0) +
                         " of the wider interval's width; few top-level units or non-normal " +
                         top + " means: add " + top + "s");
  } else {
    rr.decision = decide(rr.bootstrap, options.threshold);
    rr.decisionBasis = "bootstrap";
    warnings.push_back(rr.candidate + " vs " + rr.baseline +
                       ": Fieller's interval is unbounded (the baseline mean is "
                       "not significantly different from zero); the decision "
                       "uses the bootstrap interval");
  }
  if (options.speedupTest) {
    SpeedupTestReport st;
    const auto x = base.topMeans();
    const auto y = cand.topMeans();
    SpeedupTestOptions so;
    so.risk = 1 - options.confidence;
    auto t = speedupTest(x, y, so);
    if (t) {
      st.ok = true;
      st.meanSpeedup = t->meanSpeedup;
      st.medianSpeedup = t->medianSpeedup;
      st.meanVerdict = meanVerdictName(t->meanVerdict);
      st.medianVerdict = medianVerdictName(t->medianVerdict);
      st.probabilityBaselineSlower = t->probabilityXGreater;
      st.probabilityAboveHalf = t->probabilityAboveHalf;
      st.notes = t->notes;
    } else {
      st.error = t.error();
    }
    rr.speedupTest = std::move(st);
  }
  out.replicates = std::move(b->replicateValues);
  return out;
}

// Holm's step-down over every comparison of one benchmark (issue 10;
// RatioReport::Family): each gets its rank, the adjusted p-value, its interval
// at the level Holm tests it at (on its decision's basis) and the family's
// decision, faster or slower only when Holm rejects.
void holmFamily(std::vector<Comparison> &family, const ReportOptions &options) {
  // The p-value of each decision rule itself, on the decision's basis.
  std::vector<double> p;
  for (const auto &c : family) {
    const RatioReport &r = c.report;
    p.push_back(r.fieller ? thresholdPValue(
                                [&](double level) { return fiellerAt(c, level, options.ciMethod); },
                                r.estimate, options.threshold)
                          : bootstrapThresholdPValue(c.replicates, r.estimate, options.threshold));
  }
  const double alpha = 1 - options.confidence;
  const auto steps = holmSteps(p, alpha);
  for (std::size_t i = 0; i < family.size(); ++i) {
    Comparison &c = family[i];
    RatioReport::Family f;
    f.size = family.size();
    f.rank = steps[i].rank;
    f.pValue = p[i];
    f.adjustedP = steps[i].adjustedP;
    f.level = steps[i].level;
    if (c.report.fieller) {
      f.interval = fiellerAt(c, f.level, options.ciMethod);
    } else if (!c.replicates.empty()) {
      std::vector<double> sorted = c.replicates;
      f.interval = percentileInterval(sorted, f.level, QuantileRule::PaperOrderStatistic);
    }
    f.decision = holmDecision(f.interval, options.threshold, steps[i]);
    c.report.family = f;
  }
}

// One benchmark's analysis: its report (systems, ratios, pairs, warnings,
// location results back in the data's unit) and what it gives the suite.
struct BenchmarkAnalysis {
  BenchmarkReport report;
  std::vector<std::pair<std::string, SuiteEntry>> suite; // per candidate vs the baseline
};

Expected<BenchmarkAnalysis> analyseBenchmark(const BenchmarkData &bench, const ValueScale &scale,
                                             const std::string &baseline, const Table &table,
                                             const BalanceResult &balanced,
                                             const ReportOptions &options) {
  BenchmarkAnalysis out;
  BenchmarkReport &br = out.report;
  br.name = bench.benchmark;
  std::vector<const SystemData *> order;
  for (const auto &s : bench.systems)
    if (s.system == baseline)
      order.push_back(&s);
  for (const auto &s : bench.systems)
    if (s.system != baseline)
      order.push_back(&s);
  std::vector<Hierarchy> hs;
  for (const SystemData *s : order) {
    if (s->shape.empty() || s->shape[0] < 2)
      return fail("system " + quotedName(s->system) + where(bench.benchmark) + " has only " +
                  std::to_string(s->shape.empty() ? 0 : s->shape[0]) + " " + table.levels()[0] +
                  afterBalancing(balanced.systems, bench.benchmark, s->system, table.levels()[0]) +
                  "; a confidence interval needs at least 2");
    auto h = hierarchyOf(*s, table.levels());
    if (!h)
      return fail("system " + quotedName(s->system) + where(bench.benchmark) + ": " + h.error());
    hs.push_back(std::move(*h));
    auto sr = systemReport(*s, hs.back(), bench.benchmark, options);
    if (!sr)
      return fail(sr.error());
    br.systems.push_back(std::move(*sr));
  }
  const bool hasBaseline = !order.empty() && order[0]->system == baseline;
  if (!hasBaseline && !order.empty())
    br.warnings.push_back("the baseline " + quotedName(baseline) +
                          " has no measurements here: no ratios");
  // The candidates vs the baseline, then (allPairs) every pair of
  // candidates, the later in table order over the earlier: one family.
  std::vector<Comparison> comparisons;
  for (std::size_t k = hasBaseline ? 1 : order.size(); k < order.size(); ++k) {
    auto c = compare(*order[k], hs[k], *order[0], hs[0], bench.benchmark,
                     "ratio/" + bench.benchmark + "/" + order[k]->system, table, balanced,
                     options, br.warnings);
    if (!c)
      return fail(c.error());
    comparisons.push_back(std::move(*c));
  }
  const std::size_t baselineRatios = comparisons.size();
  if (options.allPairs)
    for (std::size_t k = hasBaseline ? 1 : 0; k < order.size(); ++k)
      for (std::size_t l = k + 1; l < order.size(); ++l) {
        auto c =
            compare(*order[l], hs[l], *order[k], hs[k], bench.benchmark,
                    "pair/" + bench.benchmark + "/" + order[l]->system + "/" + order[k]->system,
                    table, balanced, options, br.warnings);
        if (!c)
          return fail(c.error());
        comparisons.push_back(std::move(*c));
      }
  if (comparisons.size() >= 2)
    holmFamily(comparisons, options);
  for (std::size_t i = 0; i < comparisons.size(); ++i) {
    Comparison &c = comparisons[i];
    if (i >= baselineRatios) {
      br.pairs.push_back(std::move(c.report));
      continue;
    }
    SuiteEntry e;
    e.benchmark = bench.benchmark;
    e.replicates = std::move(c.replicates);
    e.estimate = c.report.estimate;
    e.decision = c.report.decision;
    e.runs = topLevelRuns(hs[0], hs[i + 1]);
    e.exponent = scale.exponent;
    out.suite.emplace_back(c.report.candidate, std::move(e));
    br.ratios.push_back(std::move(c.report));
  }
  const std::string &top = table.levels()[0];
  for (const auto &s : br.systems) {
    const DiagnosticsReport &d = s.diagnostics;
    if (!d.ok)
      continue;
    if (d.multimodal)
      br.warnings.push_back(s.name + ": " + top + " means form two clusters (" +
                            std::to_string(d.lowUnits) + " low, " + std::to_string(d.highUnits) +
                            " high, " + percent(d.modeGap) + " apart): layout modes");
    if (!d.outlierUnits.empty()) {
      std::string units;
      for (const auto &u : d.outlierUnits)
        units += (units.empty() ? "" : ", ") + u;
      br.warnings.push_back(s.name + ": outlying " + top + " " +
                            (d.outlierUnits.size() == 1 ? "mean" : "means") + " (" + units +
                            "), kept");
    }
    if (d.trendFlagged > 0) {
      // Times that fall are a warm-up still going on; times that rise are
      // something else (a slowdown as the process runs): say which.
      const std::size_t down = d.trendDecreasing, up = d.trendFlagged - d.trendDecreasing;
      std::string which;
      if (down > 0)
        which = std::to_string(down) + " decreasing: warm-up not over?";
      if (up > 0)
        which += (which.empty() ? "" : "; ") + std::to_string(up) +
                 " increasing: slowing down as they run?";
      br.warnings.push_back(s.name + ": " + std::to_string(d.trendFlagged) + " of " +
                            std::to_string(d.trendExecutions) + " " +
                            table.levels()[table.levels().size() - 2] +
                            "s still trend over their " + table.levels().back() + "s (" + which +
                            ")");
    }
    if (d.measurementFarOut > 0)
      br.warnings.push_back(s.name + ": " + std::to_string(d.measurementFarOut) +
                            " far-out measurements (beyond 3 IQR), kept");
  }
  for (const auto &s : br.systems)
    if (s.topLevelWithoutVariation)
      br.warnings.push_back(s.name + ": the " + table.levels()[0] +
                            " level shows no variation beyond the levels below "
                            "(T^2 <= 0)");
  // Values are positive (times, sizes), a mean's interval is not: with few
  // top-level units the t quantile is large (12.7 with 2) and the interval
  // can reach below zero (the scale is a positive factor: the sign is the
  // same before unscaling). Said, not cut: the interval is the method's.
  for (const auto &s : br.systems)
    if (s.ci.interval.lower < 0)
      br.warnings.push_back(s.name + ": the " +
                            (s.ci.method == IntervalMethod::T ? "t" : "normal") +
                            " interval of the mean reaches below zero, which no measured "
                            "value can (" +
                            std::to_string(s.shape.empty() ? 0 : s.shape[0]) + " " + top +
                            "s: few degrees of freedom): read its lower bound as 0, or use the "
                            "bootstrap interval, and run more " +
                            top + "s");
  if (auto unscaled = unscaleBenchmark(br, scale); !unscaled)
    return fail(unscaled.error());
  return out;
}

} // namespace

std::string describeRatio(double ratio) {
  if (ratio < 1)
    return percent(1 - ratio) + " faster";
  if (ratio > 1)
    return percent(ratio - 1) + " slower";
  return "no change";
}

Expected<Report> buildReport(const Table &table, const ReportOptions &options) {
  if (!(options.confidence > 0 && options.confidence < 1))
    return fail("confidence must be between 0 and 1 (exclusive)");
  if (!(options.threshold >= 0 && options.threshold < 1))
    return fail("threshold must be in [0, 1)");
  if (!(options.disagreementFraction >= 0))
    return fail("disagreement fraction must be >= 0");
  if (!(options.targetHalfWidth > 0))
    return fail("target half-width must be > 0");
  if (!(options.proportionHalfWidth > 0 && options.proportionHalfWidth < 1))
    return fail("proportion half-width must be in (0, 1)");
  if (table.size() == 0)
    return fail("no measurements");
  Report report;
  report.levels = table.levels();
  report.options = options;
  report.baseline = options.baseline.empty() ? table.systems().front() : options.baseline;
  report.options.baseline = report.baseline;
  if (!table.findSystem(report.baseline)) {
    std::string known;
    for (const auto &s : table.systems())
      known += (known.empty() ? "" : ", ") + s;
    return fail("baseline system " + quotedName(report.baseline) +
                " is not in the data (systems: " + known + ")");
  }
  if (auto o = overheadsFor(options.costs, table.levels().size()); !o)
    return fail(o.error());

  NestResult nested = nest(table);
  if (nested.error)
    return fail((nested.errorLine ? "line " + std::to_string(nested.errorLine) + ": " : "") +
                *nested.error);
  // Each benchmark on its own scale; one whose values are refused gets its
  // error in the report, and the others their statistics (scale.hpp).
  const std::vector<Expected<ValueScale>> scales = scaleBenchmarks(nested.benchmarks);
  BalanceResult balanced =
      balance(std::move(nested.benchmarks), table.levels(), options.unbalanced);
  report.unbalanced = balanced.issues;
  report.dropped = balanced.dropped;
  report.balancing = balanced.systems;
  if (!balanced.balanced() && options.unbalanced == UnbalancedPolicy::Error) {
    const BalanceIssue &i = balanced.issues.front();
    std::string path;
    for (std::size_t k = 0; k < i.path.size(); ++k)
      path += (k ? "/" : "") + i.path[k];
    return fail("unbalanced data: system " + quotedName(i.system) + where(i.benchmark) +
                (path.empty() ? "" : ", unit " + path) + " has " + std::to_string(i.found) + " " +
                i.level + " units where others have " + std::to_string(i.expected) + " (" +
                std::to_string(balanced.issues.size()) + " such units; " + kBalanceHint + ")");
  }

  // Per benchmark: systems (baseline first), ratios, Speedup-Test; a
  // benchmark that cannot be analysed gets its error, the others go on.
  std::vector<std::string> candidates;
  for (const auto &s : table.systems())
    if (s != report.baseline)
      candidates.push_back(s);
  std::vector<std::vector<SuiteEntry>> suiteEntries(candidates.size());
  std::vector<std::optional<int>> exponents; // per benchmark; none: no statistics
  std::size_t analysed = 0;
  for (std::size_t k = 0; k < balanced.benchmarks.size(); ++k) {
    const BenchmarkData &bench = balanced.benchmarks[k];
    auto part = scales[k] ? analyseBenchmark(bench, *scales[k], report.baseline, table, balanced,
                                             options)
                          : Expected<BenchmarkAnalysis>(fail(scales[k].error()));
    if (!part) {
      BenchmarkReport br;
      br.name = bench.benchmark;
      br.error = part.error();
      report.benchmarks.push_back(std::move(br));
      exponents.push_back(std::nullopt);
      continue;
    }
    ++analysed;
    exponents.push_back(scales[k]->exponent);
    for (auto &[candidate, entry] : part->suite) {
      const auto c =
          std::find(candidates.begin(), candidates.end(), candidate) - candidates.begin();
      suiteEntries[c].push_back(std::move(entry));
    }
    report.benchmarks.push_back(std::move(part->report));
  }
  if (analysed == 0) {
    if (report.benchmarks.size() == 1)
      return fail(report.benchmarks.front().error);
    std::string why;
    for (const auto &b : report.benchmarks)
      why += (why.empty() ? "" : "; ") + std::string("benchmark ") + quotedName(b.name) + ": " +
             b.error;
    return fail("no benchmark could be analysed: " + why);
  }

  // Suite: over the benchmarks that gave each candidate a ratio (the others
  // are named in SuiteRatioReport::leftOut).
  if (report.benchmarks.size() > 1) {
    for (std::size_t c = 0; c < candidates.size(); ++c)
      if (suiteEntries[c].size() >= 2)
        report.suite.push_back(suiteRatio(candidates[c], suiteEntries[c], report, options));
    report.suiteSystems = empiricalSuite(balanced.benchmarks, exponents, report, table, options);
  }

  if (!report.dropped.empty())
    report.warnings.push_back(balanceWarning(report.dropped));
  return report;
}

Expected<PlanSet> buildPlans(const Table &table, const PlanRequest &request,
                             UnbalancedPolicy unbalanced) {
  if (!request.targetHalfWidth && !request.budget)
    return fail("give a target half-width or a budget");
  if (request.targetHalfWidth && !(*request.targetHalfWidth > 0))
    return fail("the target half-width must be > 0");
  if (request.budget && !(*request.budget > 0))
    return fail("the budget must be > 0");
  if (auto o = overheadsFor(request.costs, table.levels().size()); !o)
    return fail(o.error());
  NestResult nested = nest(table);
  if (nested.error)
    return fail((nested.errorLine ? "line " + std::to_string(nested.errorLine) + ": " : "") +
                *nested.error);
  // As in buildReport: each benchmark computed on its rescaled values; the
  // mean, the budget (in the values' unit) and the variance components are
  // converted here. A plan is per benchmark and system: one benchmark whose
  // values are refused fails the command, naming the benchmark.
  const std::vector<Expected<ValueScale>> scales = scaleBenchmarks(nested.benchmarks);
  for (std::size_t k = 0; k < scales.size(); ++k)
    if (!scales[k])
      return fail((scales.size() > 1 ? "benchmark " + quotedName(nested.benchmarks[k].benchmark) +
                                           ": "
                                     : std::string()) +
                  scales[k].error());
  BalanceResult balanced = balance(std::move(nested.benchmarks), table.levels(), unbalanced);
  PlanSet out;
  out.levels = table.levels();
  out.unbalanced = balanced.issues;
  out.dropped = balanced.dropped;
  out.balancing = balanced.systems;
  if (!balanced.balanced() && unbalanced == UnbalancedPolicy::Error)
    return fail("unbalanced data (" + std::to_string(balanced.issues.size()) + " units; " +
                kBalanceHint + ")");
  for (std::size_t k = 0; k < balanced.benchmarks.size(); ++k) {
    const BenchmarkData &bench = balanced.benchmarks[k];
    const ValueScale &scale = *scales[k];
    const int e = scale.exponent;
    for (const auto &sys : bench.systems) {
      auto h = hierarchyOf(sys, table.levels());
      if (!h)
        return fail("system " + quotedName(sys.system) + where(bench.benchmark) + ": " + h.error());
      PlanReport pr;
      pr.system = sys.system;
      pr.benchmark = bench.benchmark;
      pr.mean = std::ldexp(h->grandMean(), e);
      auto vc = varianceComponents(*h);
      if (!vc)
        return fail("system " + quotedName(sys.system) + where(bench.benchmark) + ": " +
                    vc.error());
      pr.levels = levelReports(*h, *vc);
      // The component table is what a plan shows: no report without it.
      if (std::string p = unscaleLevels(pr.levels, e); !p.empty())
        return fail(scale.range() + ": the variance components " + p +
                    " the double range in the data's unit (express the values in another unit)");
      pr.overheads = *overheadsFor(request.costs, h->depth());
      pr.budget = request.budget;
      pr.budgetMeasurements = request.budget ? *request.budget / pr.mean : 0;
      std::optional<double> scaledBudget;
      if (request.budget)
        scaledBudget = std::ldexp(*request.budget, -e);
      pr.plan =
          advise(*h, request.costs, request.targetHalfWidth, scaledBudget, request.confidence);
      const auto top = h->topMeans();
      double m = 0;
      for (double v : top)
        m += v;
      m /= static_cast<double>(top.size());
      double ss = 0;
      for (double v : top)
        ss += (v - m) * (v - m);
      pr.relativeSd = std::sqrt(ss / static_cast<double>(top.size() - 1)) / m;
      if (request.targetHalfWidth)
        pr.kj13TopCount =
            requiredTopCount(pr.relativeSd, *request.targetHalfWidth, request.confidence);
      out.plans.push_back(std::move(pr));
    }
  }
  return out;
}

namespace {
bool parseDouble(std::string_view text, double &out) {
  while (!text.empty() && text.front() == ' ')
    text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ')
    text.remove_suffix(1);
  if (!text.empty() && text.front() == '+')
    text.remove_prefix(1);
  if (text.empty())
    return false;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && ptr == text.data() + text.size() && std::isfinite(out);
}
} // namespace

Expected<double> parseFraction(std::string_view text) {
  const bool percentSign = !text.empty() && text.back() == '%';
  if (percentSign)
    text.remove_suffix(1);
  double v = 0;
  if (!parseDouble(text, v))
    return fail("\"" + std::string(text) + (percentSign ? "%" : "") +
                "\" is not a number or a percentage");
  return percentSign ? v / 100.0 : v;
}

Expected<std::vector<double>> parseCosts(std::string_view text,
                                         const std::vector<std::string> &levels) {
  const std::size_t want = levels.empty() ? 0 : levels.size() - 1;
  std::vector<std::string_view> items;
  while (true) {
    const auto comma = text.find(',');
    items.push_back(text.substr(0, comma));
    if (comma == std::string_view::npos)
      break;
    text.remove_prefix(comma + 1);
  }
  std::vector<double> costs(want, 0);
  std::vector<bool> set(want, false);
  if (want == 0)
    return fail("the data has one level (" + (levels.empty() ? std::string() : levels[0]) +
                "): it takes no costs");
  const bool named = items.front().find('=') != std::string_view::npos;
  if (!named && items.size() != want)
    return fail("expected " + std::to_string(want) + " costs (one per level except the lowest: " +
                [&] {
                  std::string n;
                  for (std::size_t i = 0; i < want; ++i)
                    n += (i ? "," : "") + levels[i];
                  return n;
                }() +
                "), got " + std::to_string(items.size()));
  for (std::size_t i = 0; i < items.size(); ++i) {
    std::string_view item = items[i];
    std::size_t index = i;
    if (named) {
      const auto eq = item.find('=');
      if (eq == std::string_view::npos)
        return fail("cost \"" + std::string(item) + "\" is not of the form level=value");
      const std::string name(item.substr(0, eq));
      const auto it = std::find(levels.begin(), levels.end(), name);
      if (it == levels.end())
        return fail("cost for unknown level \"" + name + "\"");
      index = static_cast<std::size_t>(it - levels.begin());
      if (index >= want)
        return fail("the lowest level (" + name +
                    ") has no overhead: costs are in units of one of its measurements");
      if (set[index])
        return fail("cost for level \"" + name + "\" given twice");
      item = item.substr(eq + 1);
    }
    double v = 0;
    if (!parseDouble(item, v) || v < 0)
      return fail("cost \"" + std::string(item) + "\" is not a number >= 0");
    costs[index] = v;
    set[index] = true;
  }
  for (std::size_t i = 0; i < want; ++i)
    if (!set[i])
      return fail("no cost for level \"" + levels[i] + "\"");
  return costs;
}

} // namespace alea::analysis

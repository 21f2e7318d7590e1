// The suite level over the benchmarks of a report: the geometric-mean ratio
// with its bootstraps and randomization test (Li, Chen & Peng), Touati's
// proportion and gain factor, and each system's empirical distribution.
#include "steps.hpp"

#include "alea/analysis/resampling.hpp"
#include "alea/analysis/speedup_test.hpp"
#include "alea/random.hpp"

#include <algorithm>
#include <cmath>

namespace alea::analysis::detail {

namespace {

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

} // namespace

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
    for (double *v :
         {&r.summary.minimum, &r.summary.q1, &r.summary.median, &r.summary.q3, &r.summary.maximum})
      *v = back(*v);
    out.push_back(std::move(r));
  }
  return out;
}

} // namespace alea::analysis::detail

// The report model (report.hpp) as one sequence of named steps: check the
// options, prepare the data (nest, scale and balance the table), then per
// benchmark run the engine (benchmark.cpp: systems, comparisons, Holm's
// family) and, for suites, the suite level (suite.cpp). buildPlans shares the
// preparation and plans each system (advice.cpp). The steps live in the files
// steps.hpp names.
#include "steps.hpp"

#include "alea/analysis/planner.hpp"
#include "alea/analysis/variance.hpp"

#include <algorithm>
#include <cmath>

namespace alea::analysis {

using namespace detail;

namespace {

Status checkOptions(const ReportOptions &options) {
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
  return Status::success();
}

// ReportOptions::baseline, or the first system when empty; it must have data.
Expected<std::string> chooseBaseline(const Table &table, const ReportOptions &options) {
  std::string baseline = options.baseline.empty() ? table.systems().front() : options.baseline;
  if (!table.findSystem(baseline)) {
    std::string known;
    for (const auto &s : table.systems())
      known += (known.empty() ? "" : ", ") + s;
    return fail("baseline system " + quotedName(baseline) +
                " is not in the data (systems: " + known + ")");
  }
  return baseline;
}

// The data as both the report and the plans start from it: the costs
// checked against the levels, the table nested into one tree per benchmark
// and system, each benchmark on its own scale (scale.hpp), then balanced.
struct PreparedData {
  std::vector<Expected<ValueScale>> scales; // per benchmark of `balanced`, in order
  BalanceResult balanced;
};

Expected<PreparedData> prepareData(const Table &table, const std::vector<double> &costs,
                                   UnbalancedPolicy policy) {
  if (auto o = overheadsFor(costs, table.levels().size()); !o)
    return fail(o.error());
  NestResult nested = nest(table);
  if (nested.error)
    return fail((nested.errorLine ? "line " + std::to_string(nested.errorLine) + ": " : "") +
                *nested.error);
  PreparedData out;
  out.scales = scaleBenchmarks(nested.benchmarks);
  out.balanced = balance(std::move(nested.benchmarks), table.levels(), policy);
  return out;
}

// The report's error for unbalanced data under UnbalancedPolicy::Error.
std::string unbalancedError(const BalanceResult &balanced) {
  const BalanceIssue &i = balanced.issues.front();
  std::string path;
  for (std::size_t k = 0; k < i.path.size(); ++k)
    path += (k ? "/" : "") + i.path[k];
  return "unbalanced data: system " + quotedName(i.system) + where(i.benchmark) +
         (path.empty() ? "" : ", unit " + path) + " has " + std::to_string(i.found) + " " +
         i.level + " units where others have " + std::to_string(i.expected) + " (" +
         std::to_string(balanced.issues.size()) + " such units; " + kBalanceHint + ")";
}

// What the benchmarks give the suite: per candidate (in `candidates` order)
// the entries of the benchmarks that compared it, and per benchmark its scale
// exponent (none: the benchmark has no statistics).
struct SuiteInput {
  std::vector<std::vector<SuiteEntry>> entries;
  std::vector<std::optional<int>> exponents;
  std::size_t analysed = 0;
};

// Per benchmark: systems (baseline first), ratios, Speedup-Test; a benchmark
// that cannot be analysed gets its error in the report, the others go on.
SuiteInput analyseBenchmarks(Report &report, const PreparedData &data,
                             const std::vector<std::string> &candidates, const Table &table,
                             const ReportOptions &options) {
  SuiteInput out;
  out.entries.resize(candidates.size());
  const std::vector<Expected<ValueScale>> &scales = data.scales;
  for (std::size_t k = 0; k < data.balanced.benchmarks.size(); ++k) {
    const BenchmarkData &bench = data.balanced.benchmarks[k];
    auto part = scales[k] ? analyseBenchmark(bench, *scales[k], report.baseline, table,
                                             data.balanced, options)
                          : Expected<BenchmarkAnalysis>(fail(scales[k].error()));
    if (!part) {
      BenchmarkReport br;
      br.name = bench.benchmark;
      br.error = part.error();
      report.benchmarks.push_back(std::move(br));
      out.exponents.push_back(std::nullopt);
      continue;
    }
    ++out.analysed;
    out.exponents.push_back(scales[k]->exponent);
    for (auto &[candidate, entry] : part->suite) {
      const auto c =
          std::find(candidates.begin(), candidates.end(), candidate) - candidates.begin();
      out.entries[c].push_back(std::move(entry));
    }
    report.benchmarks.push_back(std::move(part->report));
  }
  return out;
}

// No benchmark could be analysed: the one's error, or each benchmark's.
std::string noBenchmarkError(const Report &report) {
  if (report.benchmarks.size() == 1)
    return report.benchmarks.front().error;
  std::string why;
  for (const auto &b : report.benchmarks)
    why +=
        (why.empty() ? "" : "; ") + std::string("benchmark ") + quotedName(b.name) + ": " + b.error;
  return "no benchmark could be analysed: " + why;
}

// One system's plan for `alea plan`, computed on the benchmark's rescaled
// values; the mean, the budget (in the values' unit) and the variance
// components are converted here.
Expected<PlanReport> planSystem(const SystemData &sys, const std::string &benchmark,
                                const ValueScale &scale, const std::vector<std::string> &levels,
                                const PlanRequest &request) {
  const int e = scale.exponent;
  auto h = hierarchyOf(sys, levels);
  if (!h)
    return fail("system " + quotedName(sys.system) + where(benchmark) + ": " + h.error());
  PlanReport pr;
  pr.system = sys.system;
  pr.benchmark = benchmark;
  pr.mean = std::ldexp(h->grandMean(), e);
  auto vc = varianceComponents(*h);
  if (!vc)
    return fail("system " + quotedName(sys.system) + where(benchmark) + ": " + vc.error());
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
  pr.plan = advise(*h, request.costs, request.targetHalfWidth, scaledBudget, request.confidence);
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
    pr.kj13TopCount = requiredTopCount(pr.relativeSd, *request.targetHalfWidth, request.confidence);
  return pr;
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
  if (Status s = checkOptions(options); !s)
    return fail(s.error());
  if (table.size() == 0)
    return fail("no measurements");
  Report report;
  report.levels = table.levels();
  report.options = options;
  auto baseline = chooseBaseline(table, options);
  if (!baseline)
    return fail(baseline.error());
  report.baseline = report.options.baseline = *baseline;

  // Each benchmark on its own scale; one whose values are refused gets its
  // error in the report, and the others their statistics (scale.hpp).
  auto data = prepareData(table, options.costs, options.unbalanced);
  if (!data)
    return fail(data.error());
  report.unbalanced = data->balanced.issues;
  report.dropped = data->balanced.dropped;
  report.balancing = data->balanced.systems;
  if (!data->balanced.balanced() && options.unbalanced == UnbalancedPolicy::Error)
    return fail(unbalancedError(data->balanced));

  std::vector<std::string> candidates;
  for (const auto &s : table.systems())
    if (s != report.baseline)
      candidates.push_back(s);
  const SuiteInput suite = analyseBenchmarks(report, *data, candidates, table, options);
  if (suite.analysed == 0)
    return fail(noBenchmarkError(report));

  // Suite: over the benchmarks that gave each candidate a ratio (the others
  // are named in SuiteRatioReport::leftOut).
  if (report.benchmarks.size() > 1) {
    for (std::size_t c = 0; c < candidates.size(); ++c)
      if (suite.entries[c].size() >= 2)
        report.suite.push_back(suiteRatio(candidates[c], suite.entries[c], report, options));
    report.suiteSystems =
        empiricalSuite(data->balanced.benchmarks, suite.exponents, report, table, options);
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
  // As in buildReport, but a plan is per benchmark and system: one benchmark
  // whose values are refused fails the command, naming the benchmark.
  auto data = prepareData(table, request.costs, unbalanced);
  if (!data)
    return fail(data.error());
  const BalanceResult &balanced = data->balanced;
  const std::vector<Expected<ValueScale>> &scales = data->scales;
  for (std::size_t k = 0; k < scales.size(); ++k)
    if (!scales[k])
      return fail((scales.size() > 1
                       ? "benchmark " + quotedName(balanced.benchmarks[k].benchmark) + ": "
                       : std::string()) +
                  scales[k].error());
  PlanSet out;
  out.levels = table.levels();
  out.unbalanced = balanced.issues;
  out.dropped = balanced.dropped;
  out.balancing = balanced.systems;
  if (!balanced.balanced() && unbalanced == UnbalancedPolicy::Error)
    return fail("unbalanced data (" + std::to_string(balanced.issues.size()) + " units; " +
                kBalanceHint + ")");
  for (std::size_t k = 0; k < balanced.benchmarks.size(); ++k)
    for (const auto &sys : balanced.benchmarks[k].systems) {
      auto pr =
          planSystem(sys, balanced.benchmarks[k].benchmark, *scales[k], table.levels(), request);
      if (!pr)
        return fail(pr.error());
      out.plans.push_back(std::move(*pr));
    }
  return out;
}

} // namespace alea::analysis

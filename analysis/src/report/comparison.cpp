// One comparison of two systems on one benchmark (report.hpp RatioReport):
// pairing, Fieller's interval, the ratio planner, the bootstrap, the decision
// with its warnings and the Speedup-Test.
#include "steps.hpp"

#include "alea/analysis/diagnostics.hpp"
#include "alea/analysis/speedup_test.hpp"
#include "alea/random.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <optional>

namespace alea::analysis::detail {

namespace {

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

// Fieller's and the bootstrap interval disagree: an end of one lies further
// from the other's than `fraction` of the wider width, and further than
// kNegligibleRelative of the estimate. Below that (intervals of a metric that
// hardly varies, as simulated counts: both +-0.001%) the two print alike and
// no decision could turn on it.
bool intervalsDisagree(const Interval &a, const Interval &b, double fraction, double estimate) {
  const double scale = std::max(a.width(), b.width());
  const double diff = std::max(std::fabs(a.lower - b.lower), std::fabs(a.upper - b.upper));
  return diff > fraction * scale && diff > kNegligibleRelative * std::fabs(estimate);
}

// The blocks of a paired comparison in a table whose rows carry their start
// times (Table rows' order): one per (build, execution) both systems have,
// the candidate's and the baseline's means of its rows and the earliest
// start; pair = the build label's index. Empty optional unless the table's
// levels start with build > execution (a campaign's; not executions on top,
// nor a machine level) and every one of these rows has its start time.
std::optional<std::vector<NeighbourBlock>> neighbourBlocks(const Table &table,
                                                           const std::string &benchmark,
                                                           const std::string &candidate,
                                                           const std::string &baseline) {
  // A campaign's table: builds, their executions (the blocks), iterations.
  if (table.levels().size() < 2 || table.levels()[0] != "build" || table.levels()[1] != "execution")
    return std::nullopt;
  const auto c = table.findSystem(candidate), b = table.findSystem(baseline);
  const auto &names = table.benchmarks();
  const auto bench = std::find(names.begin(), names.end(), benchmark);
  if (!c || !b || bench == names.end())
    return std::nullopt;
  const auto benchIndex = static_cast<std::uint32_t>(bench - names.begin());
  struct Sums {
    double sum[2] = {0, 0}, count[2] = {0, 0};
    double order = std::numeric_limits<double>::infinity();
  };
  std::map<std::pair<std::uint32_t, std::uint32_t>, Sums> byBlock;
  for (std::size_t i = 0; i < table.size(); ++i) {
    const Row &r = table.row(i);
    if (r.benchmark != benchIndex || (r.system != *c && r.system != *b))
      continue;
    if (!std::isfinite(r.order))
      return std::nullopt;
    Sums &s = byBlock[{table.labelId(i, 0), table.labelId(i, 1)}];
    const int side = r.system == *c ? 0 : 1;
    s.sum[side] += r.value;
    s.count[side] += 1;
    s.order = std::min(s.order, r.order);
  }
  std::map<std::uint32_t, std::size_t> pairIndex;
  std::vector<NeighbourBlock> out;
  for (const auto &[key, s] : byBlock) {
    if (s.count[0] == 0 || s.count[1] == 0)
      continue;
    const std::size_t pair = pairIndex.emplace(key.first, pairIndex.size()).first->second;
    out.push_back({pair, s.order, s.sum[0] / s.count[0], s.sum[1] / s.count[1]});
  }
  return out;
}

std::size_t pairsOf(const std::vector<NeighbourBlock> &blocks) {
  std::size_t pairs = 0;
  for (const NeighbourBlock &b : blocks)
    pairs = std::max(pairs, b.pair + 1);
  return pairs;
}

// A paired comparison of a campaign's blocks (start times known): the
// variance factor for the noise neighbouring blocks share, at Fieller's
// estimate, noted on the report; true if it widens the interval.
bool widenForNeighbours(Comparison &c, const Table &table, const std::string &benchmark,
                        double estimate) {
  RatioReport &rr = c.report;
  auto blocks = neighbourBlocks(table, benchmark, rr.candidate, rr.baseline);
  if (!blocks)
    return false;
  c.varianceFactor = neighbourVarianceFactor(*blocks, pairsOf(*blocks), estimate);
  rr.neighbourFactor = c.varianceFactor;
  if (!(c.varianceFactor > 1))
    return false;
  char factor[32];
  std::snprintf(factor, sizeof factor, "%.2f", std::sqrt(c.varianceFactor));
  rr.pairingNote += std::string("; intervals about ") + factor +
                    "x wider for the noise neighbouring blocks share";
  return true;
}

} // namespace

// Fieller's interval of a comparison at any level, paired or not as it is.
Expected<FiellerResult> fiellerOf(const Comparison &c, double confidence, IntervalMethod method) {
  return c.report.paired ? fiellerPairedRatio(c.fiellerCandidate, c.fiellerBaseline, confidence,
                                              method, c.varianceFactor)
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
  const auto failed = [&](const std::string &why) {
    return fail(rr.candidate + " vs " + rr.baseline + where(benchmark) + ": " + why);
  };
  auto pd = pairByLabel(candidateData, baselineData, table.levels(), options);
  if (!pd)
    return failed(pd.error());
  static_cast<PairingOutcome &>(rr) = *pd;
  // Fieller depends on the top-level means only (the pairs' when paired):
  // kept as one-level hierarchies for the other levels Holm's family needs.
  const std::string &top = table.levels()[0];
  out.fiellerCandidate = flatHierarchy(rr.paired ? pd->candidate.topMeans() : cand.topMeans(), top);
  out.fiellerBaseline = flatHierarchy(rr.paired ? pd->baseline.topMeans() : base.topMeans(), top);
  auto f = fiellerOf(out, options.confidence, options.ciMethod);
  if (f && rr.paired && widenForNeighbours(out, table, benchmark, f->estimate))
    f = fiellerOf(out, options.confidence, options.ciMethod);
  if (!f)
    return failed(f.error());
  rr.estimate = f->estimate;
  rr.fiellerStatus = f->status;
  rr.fieller = f->interval;
  rr.fiellerDf = f->df;
  rr.candidateTopUnits = cand.topCount();
  rr.baselineTopUnits = base.topCount();
  // Paired designs plan with the correlation of the paired build means and
  // the factor for the noise neighbouring blocks share, as their interval has.
  rr.ratioPlan = adviseRatio(cand, base, options.costs, options.targetHalfWidth, options.confidence,
                             rr.paired ? rr.pairCorrelation : 0.0,
                             options.ratioPlanKeepsLowerCounts, out.varianceFactor);
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
    return failed(b.error());
  if (rr.paired)
    widenReplicates(*b, out.varianceFactor); // as Fieller's variances
  rr.bootstrap = b->interval;
  if (rr.fieller) {
    rr.decision = decide(*rr.fieller, options.threshold);
    rr.decisionBasis = "fieller";
    rr.disagreement =
        intervalsDisagree(*rr.fieller, rr.bootstrap, options.disagreementFraction, rr.estimate);
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

} // namespace alea::analysis::detail

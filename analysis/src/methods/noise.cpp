// The noise diagnosis: residuals from build means, then drift (lag-1
// autocorrelation with exact null moments), trend (Mann-Kendall), covariates
// (Spearman), Holm across the tests, and the lines a report prints. See
// noise.hpp and docs/statistics.md ("Noise diagnosis") for the sources.
#include "alea/analysis/noise.hpp"

#include "alea/analysis/diagnostics.hpp"
#include "alea/analysis/htest.hpp"
#include "alea/analysis/math_policy.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <numeric>
#include <utility>

namespace alea::analysis {

namespace {

// Two-sided p of Student's t with df degrees of freedom: 2 P(T > |t|).
double twoSidedT(double t, double df) {
  if (std::isinf(t))
    return 0;
  const StudentsT dist(df);
  return std::min(1.0, 2 * cdf(complement(dist, std::abs(t))));
}

Expected<CorrelationTest> checkPairs(std::span<const double> x, std::span<const double> y,
                                     const char *what) {
  if (x.size() != y.size())
    return fail(std::string(what) + ": the two series differ in length");
  if (x.size() < 3)
    return fail(std::string(what) + " needs at least 3 pairs");
  for (std::size_t i = 0; i < x.size(); ++i)
    if (!std::isfinite(x[i]) || !std::isfinite(y[i]))
      return fail(std::string(what) + ": non-finite value");
  return CorrelationTest{};
}

// Pearson's r by two passes (centred sums); nullopt if a series is constant.
std::optional<double> pearsonR(std::span<const double> x, std::span<const double> y) {
  const double mx = sampleMean(x), my = sampleMean(y);
  double sxy = 0, sxx = 0, syy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) * (x[i] - mx);
    syy += (y[i] - my) * (y[i] - my);
  }
  if (!(sxx > 0) || !(syy > 0))
    return std::nullopt;
  return std::clamp(sxy / std::sqrt(sxx * syy), -1.0, 1.0);
}

} // namespace

// R's cor.test(method = "pearson"): t = sqrt(df) r / sqrt(1 - r^2), df = n - 2.
Expected<CorrelationTest> pearsonTest(std::span<const double> x, std::span<const double> y) {
  auto r = checkPairs(x, y, "Pearson's correlation test");
  if (!r)
    return r;
  const auto est = pearsonR(x, y);
  if (!est)
    return fail("Pearson's correlation test: a series is constant");
  r->n = x.size();
  r->df = static_cast<double>(x.size()) - 2;
  r->estimate = *est;
  const double denom = std::sqrt(1 - *est * *est);
  r->statistic = denom > 0 ? std::sqrt(r->df) * *est / denom
                           : std::copysign(std::numeric_limits<double>::infinity(), *est);
  r->pValue = twoSidedT(r->statistic, r->df);
  return r;
}

// R's cor.test(method = "spearman", exact = FALSE): rho = cor(rank(x),
// rank(y)); R passes it through S = (n^3 - n)(1 - rho) / 6 and back
// (pspearman's asymptotic branch), which we repeat so the p-values agree to
// the last bits; t = rho / sqrt((1 - rho^2) / (n - 2)) with n - 2 df.
Expected<CorrelationTest> spearmanTest(std::span<const double> x, std::span<const double> y) {
  auto r = checkPairs(x, y, "Spearman's correlation test");
  if (!r)
    return r;
  const auto rx = averageRanks(x), ry = averageRanks(y);
  const auto est = pearsonR(rx, ry);
  if (!est)
    return fail("Spearman's correlation test: a series is constant");
  const double n = static_cast<double>(x.size());
  const double s = (n * n * n - n) * (1 - *est) / 6;
  const double rho = 1 - s / (n * (n * n - 1) / 6);
  r->n = x.size();
  r->df = n - 2;
  r->estimate = *est;
  const double denom = std::sqrt((1 - rho * rho) / r->df);
  r->statistic =
      denom > 0 ? rho / denom : std::copysign(std::numeric_limits<double>::infinity(), rho);
  r->pValue = twoSidedT(r->statistic, r->df);
  return r;
}

// ---------------------------------------------------------------------------
// r1 = e'Be / e'Me for residuals r = Me from group means, M = I - P (P
// averages within groups), B = M A M, A the symmetric lag-1 matrix (1/2 next
// to the diagonal). For independent N(0, s^2) errors, Me's direction is
// independent of its length (Pitman-Koopmans), so with nu = n - k:
//   E[r1] = tr(B) / nu,  E[r1^2] = (tr(B)^2 + 2 tr(B^2)) / (nu (nu + 2)).
// The traces need no n x n matrix (M idempotent, tr(A) = 0):
//   tr(B) = -tr(AP) = -sum_t [g_t = g_t+1] / n_g
//   tr(B^2) = tr(A^2) - 2 tr(A^2 P) + tr(APAP), with tr(A^2) = (n - 1) / 2,
//   tr(A^2 P) = sum_t deg_t / (4 n_g_t) + 1/2 sum_t [g_t = g_t+2] / n_g,
//   tr(APAP) = sum_{g,h} N(g,h)^2 / (4 n_g n_h), N(g,h) = number of ordered
//   time-adjacent pairs (i in g, j in h).
// The same moments give lmtest::dwtest's normal approximation for the
// Durbin-Watson d (Durbin & Watson 1971), of which r1 is the lag-product form.
Expected<LagOneTest> lagOneTest(std::span<const double> residuals,
                                std::span<const std::size_t> groups) {
  const std::size_t n = residuals.size();
  if (groups.size() != n)
    return fail("lag-1 test: one group label per residual is needed");
  for (double v : residuals)
    if (!std::isfinite(v))
      return fail("lag-1 test: non-finite residual");
  std::map<std::size_t, std::size_t> index; // label -> 0..k-1
  for (std::size_t g : groups)
    index.try_emplace(g, index.size());
  const std::size_t k = index.size();
  if (n < k + 3)
    return fail("lag-1 test needs at least 3 more residuals than groups");
  std::vector<std::size_t> g(n);
  std::vector<double> size(k, 0);
  for (std::size_t t = 0; t < n; ++t) {
    g[t] = index[groups[t]];
    size[g[t]] += 1;
  }
  double num = 0, den = 0;
  for (std::size_t t = 0; t < n; ++t) {
    den += residuals[t] * residuals[t];
    if (t + 1 < n)
      num += residuals[t] * residuals[t + 1];
  }
  if (!(den > 0))
    return fail("lag-1 test: every residual is 0");

  const double nd = static_cast<double>(n);
  double trAP = 0, trA2P = 0;
  std::map<std::pair<std::size_t, std::size_t>, double> adjacent; // N(g, h), g <= h
  for (std::size_t t = 0; t < n; ++t) {
    const double deg = (t > 0 ? 1.0 : 0.0) + (t + 1 < n ? 1.0 : 0.0);
    trA2P += deg / (4 * size[g[t]]);
    if (t + 1 < n) {
      if (g[t] == g[t + 1])
        trAP += 1 / size[g[t]];
      adjacent[std::minmax(g[t], g[t + 1])] += 1;
    }
    if (t + 2 < n && g[t] == g[t + 2])
      trA2P += 0.5 / size[g[t]];
  }
  double trAPAP = 0;
  for (const auto &[pair, count] : adjacent) {
    // An unordered pair of distinct groups is two ordered ones: N(g,h) =
    // N(h,g) = count, both terms of the sum; within a group each adjacent pair
    // counts twice in N(g,g).
    if (pair.first == pair.second)
      trAPAP += (2 * count) * (2 * count) / (4 * size[pair.first] * size[pair.first]);
    else
      trAPAP += 2 * count * count / (4 * size[pair.first] * size[pair.second]);
  }
  const double trB = -trAP;
  const double trB2 = (nd - 1) / 2 - 2 * trA2P + trAPAP;
  const double nu = nd - static_cast<double>(k);

  LagOneTest r;
  r.n = n;
  r.groups = k;
  r.r1 = num / den;
  r.nullMean = trB / nu;
  const double second = (trB * trB + 2 * trB2) / (nu * (nu + 2));
  r.nullSd = std::sqrt(std::max(0.0, second - r.nullMean * r.nullMean));
  if (!(r.nullSd > 0))
    return fail("lag-1 test: no variation of r1 under the null for this design");
  r.statistic = (r.r1 - r.nullMean) / r.nullSd;
  const Normal standard(0, 1);
  r.pValue = std::min(1.0, 2 * cdf(complement(standard, std::abs(r.statistic))));
  return r;
}

// ---------------------------------------------------------------------------
namespace {

std::string format(const char *spec, double v) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, spec, v);
  return buffer;
}

std::string fixed2(double v) { return format("%.2f", v); }

std::string percent(double share) { return format("%.0f%%", 100 * share); }

std::string pText(double p) { return p < 1e-4 ? "p < 0.0001" : "p = " + format("%.2g", p); }

// The order findings appear in within their significance class.
int kindRank(const std::string &kind) {
  static const char *const order[] = {"drift",     "trend",    "load",      "padding",
                                      "migration", "switches", "frequency", "busy-machine",
                                      "busy",      "aslr"};
  for (int i = 0; i < static_cast<int>(std::size(order)); ++i)
    if (kind == order[i])
      return i;
  return static_cast<int>(std::size(order));
}

// Drift and trend: what to do depends on whether the design already pairs.
const char *driftAdvice(const NoiseOptions &o) {
  return o.pairedDesign
             ? "the paired design already runs the compared systems side by side, so drift "
               "shared by a block cancels in the ratio; the rest widens the interval: quiet "
               "the machine (`quiet = { load = 0.25, wait = 60 }`) or add builds"
             : "use design = \"interleaved\" or \"duet\" so the compared systems see the same "
               "drift";
}
constexpr const char *kQuietAdvice =
    "quiet the machine: `quiet = { load = 0.25, wait = 60 }` in [campaign], or stop the other "
    "work; where you cannot, measure what other processes cannot move: a simulated count "
    "(metric sim-instructions or sim-cycles; docs/measure.md)";

struct Observed {
  double residual = 0;
  const ExecutionObservation *execution = nullptr;
  std::size_t group = 0; // its build, 0..builds-1
};

// A covariate's finding, before Holm: nullopt when it cannot be tested.
std::optional<std::pair<NoiseFinding, CorrelationTest>>
covariateTest(const std::vector<Observed> &data, std::optional<double> ExecutionObservation::*field,
              const char *kind, std::size_t minObservations) {
  std::vector<double> x, y;
  for (const auto &o : data)
    if (const auto &v = o.execution->*field; v && std::isfinite(*v)) {
      x.push_back(*v);
      y.push_back(o.residual);
    }
  if (x.size() < std::max<std::size_t>(minObservations, 3))
    return std::nullopt;
  auto test = spearmanTest(x, y);
  if (!test)
    return std::nullopt; // a constant covariate: nothing to correlate
  NoiseFinding f;
  f.kind = kind;
  f.value = test->estimate;
  f.pValue = test->pValue;
  return std::make_pair(f, *test);
}

// The within-build least-squares slope of the residuals on a covariate:
// sum r (x - xbar_g) / sum (x - xbar_g)^2, the fixed-effects estimator (the
// slope of r ~ x + build in R, by Frisch-Waugh-Lovell). The slope on the raw
// covariate would be attenuated by about 1 - 1/m, m executions per build,
// because the build means already absorbed part of the effect.
double withinSlope(std::span<const double> x, std::span<const double> y,
                   std::span<const std::size_t> group) {
  std::map<std::size_t, std::pair<double, double>> sums;
  for (std::size_t i = 0; i < x.size(); ++i) {
    sums[group[i]].first += x[i];
    sums[group[i]].second += 1;
  }
  double sxy = 0, sxx = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const auto [sum, count] = sums[group[i]];
    const double dx = x[i] - sum / count;
    sxy += dx * y[i];
    sxx += dx * dx;
  }
  return sxx > 0 ? sxy / sxx : 0;
}

std::string rhoText(const NoiseFinding &f) {
  return "Spearman rho " + fixed2(f.value) + ", " + pText(*f.adjustedPValue) + " (Holm)";
}

// The words of a finding on a covariate whose numbers are Spearman's rho
// alone, around rhoText(f): an artifact (what was seen, why it cannot be
// the covariate's doing), an effect and its advice, or no effect of `subject`.
struct RhoWords {
  const char *artifactSeen, *artifactWhy;
  const char *effect, *subject, *advice;
};

void describeRho(NoiseFinding &f, const RhoWords &w) {
  if (f.artifact) {
    f.text = std::string("artifact to investigate: ") + w.artifactSeen + " (" + rhoText(f) + "); " +
             w.artifactWhy;
  } else if (f.significant) {
    f.text = std::string(w.effect) + " (" + rhoText(f) + ")";
    f.advice = w.advice;
  } else {
    f.text = std::string("no effect of ") + w.subject + " (" + rhoText(f) + ")";
  }
}

// Fills text and advice of a tested finding once significance is known.
void describe(NoiseFinding &f, const std::vector<Observed> &data, const NoiseOptions &o,
              const LagOneTest *lag) {
  const bool sig = f.significant;
  if (f.kind == "drift") {
    const std::string numbers = "lag-1 autocorrelation of residuals " + fixed2(f.value) + " (" +
                                fixed2(lag->nullMean) +
                                " expected without drift; z = " + fixed2(lag->statistic) + ", " +
                                pText(*f.adjustedPValue) + " (Holm))";
    if (sig && f.value > lag->nullMean) {
      f.text = "consecutive executions share noise: " + numbers;
      f.advice = driftAdvice(o);
    } else if (sig) {
      f.text = "consecutive executions alternate: " + numbers;
    } else {
      f.text = "no drift between consecutive executions: " + numbers;
    }
  } else if (f.kind == "trend") {
    const std::string numbers =
        "Mann-Kendall tau " + fixed2(f.value) + ", " + pText(*f.adjustedPValue) + " (Holm)";
    if (sig) {
      f.text = std::string("executions ") + (f.value > 0 ? "slow down" : "speed up") +
               " over the campaign: " + numbers;
      f.advice = driftAdvice(o);
    } else {
      f.text = "no trend over the campaign: " + numbers;
    }
  } else if (f.kind == "load") {
    std::vector<double> x, y;
    std::vector<std::size_t> group;
    for (const auto &d : data)
      if (const auto &v = d.execution->otherLoad; v && std::isfinite(*v)) {
        x.push_back(*v);
        y.push_back(d.residual);
        group.push_back(d.group);
      }
    const std::string perCpu =
        format("%+.1f%%", 100 * withinSlope(x, y, group)) + " per busy CPU (" + rhoText(f) + ")";
    if (f.artifact) {
      f.text = "artifact to investigate: executions ran faster while other processes were "
               "busier, " +
               perCpu +
               "; more load cannot speed a program up, so the load "
               "reading or something that moves with it is at fault";
    } else if (sig) {
      f.text = "other processes' load slows the executions: " + perCpu;
      f.advice = kQuietAdvice;
    } else {
      f.text = "no clear effect of other processes' load: " + perCpu;
    }
  } else if (f.kind == "padding") {
    if (sig) {
      f.text = "times depend on the environment padding size (" + rhoText(f) +
               "): a LAYOUT effect (stack alignment), not noise";
      f.advice = "keep env_padding randomized: it is part of the layout the ratio must average "
                 "over";
    } else {
      f.text = "no effect of the environment padding size (" + rhoText(f) + ")";
    }
  } else if (f.kind == "migration") {
    std::size_t pinned = 0;
    for (const auto &d : data)
      pinned += d.execution->pinned;
    describeRho(f,
                {"executions that migrated between CPUs more often ran faster",
                 "a migration cannot speed a program up, so something else moves both",
                 "executions that migrate between CPUs run slower", "CPU migrations",
                 2 * pinned < data.size() ? "pin to one CPU with `cpus = [1]` in [campaign]" : ""});
  } else if (f.kind == "switches") {
    describeRho(f, {"executions with more involuntary context switches ran faster",
                    "being preempted cannot speed a program up, so something else moves both",
                    "involuntary context switches go with slower executions",
                    "involuntary context switches",
                    "another process preempts the benchmark: quiet the machine (`quiet = { "
                    "load = 0.25, wait = 60 }`) or pin it to a CPU nothing else uses (`cpus = "
                    "[...]`)"});
  } else if (f.kind == "frequency") {
    describeRho(f, {"executions ran slower at a higher CPU frequency",
                    "a higher frequency cannot slow a program down, and the frequency is one "
                    "reading after each execution, not what it ran at throughout",
                    "executions run slower at a lower CPU frequency", "the CPU frequency",
                    "fix the CPU frequency: performance governor, turbo boost off"});
  }
}

// The sign of Spearman's rho (residual vs covariate) that the covariate's
// mechanism can produce: +1 when more of it can only slow a program (other
// load, migrations, involuntary switches), -1 when more of it can only speed
// it up (frequency), 0 when either sign is a real effect (padding: the stack
// alignment it moves can help or hurt).
int mechanismSign(const std::string &kind) {
  if (kind == "load" || kind == "migration" || kind == "switches")
    return +1;
  if (kind == "frequency")
    return -1;
  return 0;
}

// The residuals from the build means, value / mean - 1 (relative, so systems
// of different speed are comparable), in order of start time; an execution
// in a build with fewer than 2 is excluded (counted in d).
Expected<std::vector<Observed>>
residualsFromBuildMeans(std::span<const ExecutionObservation> executions, NoiseDiagnosis &d) {
  std::map<std::pair<std::size_t, std::size_t>, std::pair<double, std::size_t>> builds;
  for (const auto &e : executions) {
    auto &[sum, count] = builds[{e.system, e.build}];
    sum += e.value;
    ++count;
  }
  std::vector<Observed> data;
  std::map<std::pair<std::size_t, std::size_t>, std::size_t> groupIndex;
  for (const auto &[key, sc] : builds) {
    if (sc.second < 2)
      continue;
    groupIndex.try_emplace(key, groupIndex.size());
    if (!(sc.first != 0))
      return fail("noise diagnosis: a build's mean is 0");
  }
  std::vector<std::size_t> order(executions.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return executions[a].startedAt < executions[b].startedAt;
  });
  for (std::size_t i : order) {
    const auto &e = executions[i];
    const auto key = std::make_pair(e.system, e.build);
    const auto [sum, count] = builds[key];
    if (count < 2) {
      ++d.excluded;
      continue;
    }
    data.push_back({e.value / (sum / static_cast<double>(count)) - 1, &e, groupIndex[key]});
  }
  d.executions = data.size();
  d.builds = groupIndex.size();
  if (data.size() < 3)
    return fail("noise diagnosis needs at least 3 executions in builds with 2 or more");
  return data;
}

// The tested findings (drift, trend, the covariates), Holm-adjusted over
// them, into d.findings.
void addTestedFindings(const std::vector<Observed> &data, const NoiseOptions &o,
                       NoiseDiagnosis &d) {
  std::vector<std::size_t> groupOf;
  for (const auto &x : data)
    groupOf.push_back(x.group);
  std::vector<NoiseFinding> tested;
  std::vector<double> residuals;
  for (const auto &x : data)
    residuals.push_back(x.residual);
  std::optional<LagOneTest> lag;
  if (auto t = lagOneTest(residuals, groupOf)) {
    lag = *t;
    NoiseFinding f;
    f.kind = "drift";
    f.value = t->r1;
    f.pValue = t->pValue;
    tested.push_back(f);
  }
  if (auto t = kendallTrend(residuals)) {
    NoiseFinding f;
    f.kind = "trend";
    f.value = t->tau;
    f.pValue = t->pValue;
    tested.push_back(f);
  }
  using Field = std::optional<double> ExecutionObservation::*;
  const std::pair<Field, const char *> covariates[] = {
      {&ExecutionObservation::otherLoad, "load"},
      {&ExecutionObservation::envPadding, "padding"},
      {&ExecutionObservation::migrations, "migration"},
      {&ExecutionObservation::involuntarySwitches, "switches"},
      {&ExecutionObservation::cpuMhz, "frequency"}};
  for (const auto &[field, kind] : covariates)
    if (auto t = covariateTest(data, field, kind, o.minObservations))
      tested.push_back(t->first);
  std::vector<double> p;
  for (const auto &f : tested)
    p.push_back(*f.pValue);
  const auto adjusted = adjustHolm(p);
  d.tests = tested.size();
  for (std::size_t i = 0; i < tested.size(); ++i) {
    auto &f = tested[i];
    f.adjustedPValue = adjusted[i];
    f.significant = adjusted[i] < o.significance;
    const int sign = mechanismSign(f.kind);
    f.artifact = f.significant && sign != 0 && f.value * sign < 0;
    describe(f, data, o, lag ? &*lag : nullptr);
    d.findings.push_back(f);
  }
}

// The findings counted rather than tested: a busy machine, executions the
// quiet gate let run busy, the CPU frequency when it was not tested, ASLR.
void addObservedFindings(const std::vector<Observed> &data, const NoiseOptions &o,
                         NoiseDiagnosis &d) {
  std::size_t busy = 0, aslr = 0, withMhz = 0;
  double firstMhz = 0;
  for (const auto &x : data) {
    busy += x.execution->ranBusy;
    aslr += x.execution->aslrOn;
    if (const auto &mhz = x.execution->cpuMhz; mhz && std::isfinite(*mhz)) {
      if (withMhz++ == 0)
        firstMhz = *mhz;
    }
  }
  const double n = static_cast<double>(data.size());
  const auto of = [&](std::size_t count) {
    return std::to_string(count) + " of " + std::to_string(data.size()) + " executions";
  };
  // The other load's level, whatever the correlations say: a machine busy
  // throughout moves every execution alike, which no correlation can see.
  std::size_t withLoad = 0, loaded = 0;
  double loadSum = 0;
  for (const auto &x : data)
    if (const auto &v = x.execution->otherLoad; v && std::isfinite(*v)) {
      ++withLoad;
      loadSum += *v;
      loaded += *v > o.busyLoad;
    }
  if (loaded > 0) {
    NoiseFinding f;
    f.kind = "busy-machine";
    f.value = static_cast<double>(loaded) / static_cast<double>(withLoad);
    f.significant = !o.simulated;
    f.text = "other processes kept " + format("%.1f", loadSum / static_cast<double>(withLoad)) +
             " CPUs busy on average; above " + format("%g", o.busyLoad) + " CPU in " +
             std::to_string(loaded) + " of " + std::to_string(withLoad) + " executions" +
             (withLoad < data.size() ? " with a load reading" : "") +
             (o.simulated ? ": the values are simulated counts, which they cannot move" : "");
    const bool advised = std::any_of(d.findings.begin(), d.findings.end(), [](const auto &g) {
      return g.significant && g.advice == kQuietAdvice;
    });
    if (!advised && f.significant)
      f.advice = kQuietAdvice;
    d.findings.push_back(f);
  }
  if (busy > 0) {
    NoiseFinding f;
    f.kind = "busy";
    f.value = static_cast<double>(busy);
    f.significant = true;
    f.text = of(busy) + " (" + percent(static_cast<double>(busy) / n) +
             ") ran while the machine was busy: the quiet gate gave up waiting";
    f.advice = "raise the quiet gate's `wait`, or stop the other work";
    d.findings.push_back(f);
  }
  const bool frequencyTested = std::any_of(d.findings.begin(), d.findings.end(),
                                           [](const auto &f) { return f.kind == "frequency"; });
  if (!frequencyTested) {
    NoiseFinding f;
    f.kind = "frequency";
    f.value = static_cast<double>(withMhz);
    if (withMhz == 0)
      f.text = "CPU frequency not observable on this machine (a frequency change would show as "
               "drift or trend)";
    else if (withMhz < std::max<std::size_t>(o.minObservations, 3))
      f.text = "CPU frequency read in only " + of(withMhz) + ": too few to test";
    else
      f.text = "CPU frequency constant at " + format("%.0f", firstMhz) + " MHz";
    d.findings.push_back(f);
  }
  if (aslr > 0) {
    NoiseFinding f;
    f.kind = "aslr";
    f.value = static_cast<double>(aslr) / n;
    f.text = "ASLR was on in " + of(aslr) +
             ": address randomization varies the layout per execution (a layout effect the "
             "ratio averages over, not noise)";
    d.findings.push_back(f);
  }
}

} // namespace

Expected<NoiseDiagnosis> diagnoseNoise(std::span<const ExecutionObservation> executions,
                                       const NoiseOptions &o) {
  for (const auto &e : executions)
    if (!std::isfinite(e.value) || !std::isfinite(e.startedAt))
      return fail("noise diagnosis: non-finite value or start time");
  NoiseDiagnosis d;
  auto data = residualsFromBuildMeans(executions, d);
  if (!data)
    return Error{data.error()};
  addTestedFindings(*data, o, d);
  addObservedFindings(*data, o, d);
  // Sources of noise first, then artifacts, then the rest, each in kind order.
  const auto cls = [](const NoiseFinding &f) { return !f.significant ? 2 : f.artifact ? 1 : 0; };
  std::stable_sort(d.findings.begin(), d.findings.end(), [&](const auto &a, const auto &b) {
    if (cls(a) != cls(b))
      return cls(a) < cls(b);
    return kindRank(a.kind) < kindRank(b.kind);
  });
  return d;
}

std::vector<std::string> noiseSummaryLines(const NoiseDiagnosis &d) {
  std::vector<std::string> lines;
  std::string head = "Noise diagnosis: " + std::to_string(d.executions) + " executions in " +
                     std::to_string(d.builds) + " builds, residual = execution / build mean - 1";
  if (d.excluded > 0)
    head += " (" + std::to_string(d.excluded) + " executions of single-execution builds left out)";
  lines.push_back(head);
  // A busy machine is a significant finding itself, so this line never
  // stands next to one.
  const bool any = std::any_of(d.findings.begin(), d.findings.end(),
                               [](const auto &f) { return f.significant && !f.artifact; });
  if (!any)
    lines.push_back("no source of execution noise found");
  std::string negative;
  for (const auto &f : d.findings) {
    if (f.artifact) {
      lines.push_back(f.text); // its own wording, never advice
    } else if (f.significant) {
      lines.push_back(f.text);
      if (!f.advice.empty())
        lines.push_back("what to do: " + f.advice);
    } else if (!f.adjustedPValue) {
      lines.push_back(f.text); // informational
    } else {
      negative +=
          (negative.empty() ? "" : ", ") + f.kind + " (" +
          (*f.adjustedPValue < 1e-4 ? "p < 0.0001" : "p = " + format("%.2g", *f.adjustedPValue)) +
          ")";
    }
  }
  if (!negative.empty())
    lines.push_back("tested without finding (Holm-adjusted): " + negative);
  return lines;
}

} // namespace alea::analysis

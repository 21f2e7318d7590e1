// Li, Chen & Peng's resampling methods (spec_002_004 Part 2): the stratified
// randomization test (§III, spec §2.3), the within-benchmark two-sample
// percentile bootstrap of the ratio of suite means (§IV, spec §2.4 and A4-2)
// and the empirical distribution of one system's geometric mean (§V, §2.5).
// Replicate r always draws from Rng(mixSeed(seed, r)); threads only split the
// replicate range, so any thread count gives identical results.
#include "alea/analysis/resampling.hpp"

#include "alea/analysis/htest.hpp"
#include "alea/random.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <thread>

namespace alea::analysis {

const char *suiteMeanName(SuiteMean m) { return enumName(m); }

namespace {

// Per-benchmark summary of a group of runs: their arithmetic mean (for
// GeometricOfMeans, Arithmetic, Harmonic) or the mean of their logs (for
// GeometricOfAll). `sum` is over the chosen values (or logs), `count` runs.
bool usesLogs(SuiteMean m) { return m == SuiteMean::GeometricOfAll; }

// Combines per-benchmark summaries (means, or mean logs) into the suite mean.
class SuiteAccumulator {
public:
  explicit SuiteAccumulator(SuiteMean m) : mean_(m) {}
  void add(double benchmarkSummary) {
    switch (mean_) {
    case SuiteMean::GeometricOfMeans:
      acc_ += std::log(benchmarkSummary);
      break;
    case SuiteMean::GeometricOfAll:
      acc_ += benchmarkSummary; // already a mean of logs
      break;
    case SuiteMean::Arithmetic:
      acc_ += benchmarkSummary;
      break;
    case SuiteMean::Harmonic:
      acc_ += 1 / benchmarkSummary;
      break;
    }
    ++n_;
  }
  double value() const {
    const double n = static_cast<double>(n_);
    switch (mean_) {
    case SuiteMean::GeometricOfMeans:
    case SuiteMean::GeometricOfAll:
      return std::exp(acc_ / n);
    case SuiteMean::Arithmetic:
      return acc_ / n;
    case SuiteMean::Harmonic:
      return n / acc_;
    }
    return 0;
  }

private:
  SuiteMean mean_;
  double acc_ = 0;
  std::size_t n_ = 0;
};

std::string validateSuite(std::span<const BenchmarkRuns> suite) {
  if (suite.empty())
    return "resampling needs at least one benchmark";
  for (const auto &b : suite) {
    if (b.baseline.empty() || b.candidate.empty())
      return "every benchmark needs runs of both systems";
    for (const auto *v : {&b.baseline, &b.candidate})
      for (double x : *v)
        if (!std::isfinite(x) || x <= 0)
          return "resampling: execution times must be finite and positive";
  }
  return {};
}

// Pooled data of one benchmark: values (or logs) of baseline then candidate.
struct Pool {
  std::vector<double> data;
  std::size_t nBaseline = 0;
};

std::vector<Pool> makePools(std::span<const BenchmarkRuns> suite, SuiteMean mean) {
  std::vector<Pool> pools;
  for (const auto &b : suite) {
    Pool p;
    p.nBaseline = b.baseline.size();
    for (const auto *v : {&b.baseline, &b.candidate})
      for (double x : *v)
        p.data.push_back(usesLogs(mean) ? std::log(x) : x);
    pools.push_back(std::move(p));
  }
  return pools;
}

unsigned effectiveThreads(unsigned requested, std::size_t work) {
  unsigned t = requested == 0 ? std::max(1u, std::thread::hardware_concurrency()) : requested;
  return static_cast<unsigned>(std::min<std::size_t>(t, std::max<std::size_t>(1, work)));
}

// Runs body(r, scratch) for r in [0, count) over `threads` threads, each with
// its own scratch object made by makeScratch().
template <typename MakeScratch, typename Body>
void parallelReplicates(std::size_t count, unsigned threads, MakeScratch makeScratch, Body body) {
  threads = effectiveThreads(threads, count);
  auto worker = [&](std::size_t begin, std::size_t end) {
    auto scratch = makeScratch();
    for (std::size_t r = begin; r < end; ++r)
      body(r, scratch);
  };
  if (threads == 1) {
    worker(0, count);
    return;
  }
  std::vector<std::thread> pool;
  const std::size_t chunk = (count + threads - 1) / threads;
  for (unsigned t = 0; t < threads; ++t) {
    const std::size_t begin = std::min(count, t * chunk), end = std::min(count, begin + chunk);
    pool.emplace_back(worker, begin, end);
  }
  for (auto &th : pool)
    th.join();
}

double observedRatio(const std::vector<Pool> &pools, SuiteMean mean) {
  SuiteAccumulator base(mean), cand(mean);
  for (const auto &p : pools) {
    const std::size_t n = p.data.size(), nb = p.nBaseline;
    base.add(
        std::accumulate(p.data.begin(), p.data.begin() + static_cast<std::ptrdiff_t>(nb), 0.0) /
        static_cast<double>(nb));
    cand.add(std::accumulate(p.data.begin() + static_cast<std::ptrdiff_t>(nb), p.data.end(), 0.0) /
             static_cast<double>(n - nb));
  }
  return cand.value() / base.value();
}

// Number of ways to choose k of n, saturating at `cap` + 1.
std::size_t chooseCapped(std::size_t n, std::size_t k, std::size_t cap) {
  k = std::min(k, n - k);
  double c = 1;
  for (std::size_t i = 1; i <= k; ++i) {
    c = c * static_cast<double>(n - k + i) / static_cast<double>(i);
    if (c > static_cast<double>(cap))
      return cap + 1;
  }
  return static_cast<std::size_t>(std::llround(c));
}

// For one pool, the (baseline sum, candidate sum) of every split.
std::vector<std::pair<double, double>> allSplits(const Pool &p) {
  const std::size_t n = p.data.size(), k = p.nBaseline;
  const double total = std::accumulate(p.data.begin(), p.data.end(), 0.0);
  std::vector<std::pair<double, double>> out;
  std::vector<std::size_t> idx(k);
  std::iota(idx.begin(), idx.end(), std::size_t{0});
  while (true) {
    double s = 0;
    for (std::size_t i : idx)
      s += p.data[i];
    out.emplace_back(s, total - s);
    // next combination in lexicographic order
    std::size_t i = k;
    while (i > 0 && idx[i - 1] == n - k + i - 1)
      --i;
    if (i == 0)
      break;
    ++idx[i - 1];
    for (std::size_t j = i; j < k; ++j)
      idx[j] = idx[j - 1] + 1;
  }
  return out;
}

void finishPValues(RandomizationResult &r) {
  const double m = static_cast<double>(r.replicates);
  r.pLess = static_cast<double>(r.countLessEqual) / m;
  r.pGreater = static_cast<double>(r.countGreaterEqual) / m;
  r.pTwoSided = std::min(1.0, 2 * std::min(r.pLess, r.pGreater));
  if (r.exhaustive) {
    r.pLessMc = r.pLess;
    r.pGreaterMc = r.pGreater;
    r.pTwoSidedMc = r.pTwoSided;
  } else {
    r.pLessMc = (static_cast<double>(r.countLessEqual) + 1) / (m + 1);
    r.pGreaterMc = (static_cast<double>(r.countGreaterEqual) + 1) / (m + 1);
    r.pTwoSidedMc = std::min(1.0, 2 * std::min(r.pLessMc, r.pGreaterMc));
  }
}

} // namespace

BenchmarkRuns topLevelRuns(const Hierarchy &baseline, const Hierarchy &candidate) {
  return {baseline.topMeans(), candidate.topMeans()};
}

Expected<double> suiteRatio(std::span<const BenchmarkRuns> suite, SuiteMean mean) {
  if (auto why = validateSuite(suite); !why.empty())
    return fail(why);
  return observedRatio(makePools(suite, mean), mean);
}

Expected<RandomizationResult> randomizationTest(std::span<const BenchmarkRuns> suite,
                                                const RandomizationOptions &o) {
  if (auto why = validateSuite(suite); !why.empty())
    return fail(why);
  if (o.replicates == 0)
    return fail("randomization test: at least one replicate is needed");
  const auto pools = makePools(suite, o.mean);
  RandomizationResult r;
  r.observed = observedRatio(pools, o.mean);
  const double lessBound = r.observed + o.tolerance * std::abs(r.observed);
  const double greaterBound = r.observed - o.tolerance * std::abs(r.observed);

  // Exhaustive enumeration when the product of C(n_i, nb_i) is small.
  std::size_t splits = 1;
  if (o.exhaustiveLimit > 0) {
    for (const auto &p : pools) {
      splits *= chooseCapped(p.data.size(), p.nBaseline, o.exhaustiveLimit);
      if (splits > o.exhaustiveLimit)
        break;
    }
  }
  if (o.exhaustiveLimit > 0 && splits <= o.exhaustiveLimit) {
    std::vector<std::vector<std::pair<double, double>>> per;
    for (const auto &p : pools)
      per.push_back(allSplits(p));
    std::vector<std::size_t> digit(pools.size(), 0);
    r.exhaustive = true;
    r.replicates = splits;
    for (std::size_t s = 0; s < splits; ++s) {
      SuiteAccumulator base(o.mean), cand(o.mean);
      for (std::size_t i = 0; i < pools.size(); ++i) {
        const auto [sb, sc] = per[i][digit[i]];
        base.add(sb / static_cast<double>(pools[i].nBaseline));
        cand.add(sc / static_cast<double>(pools[i].data.size() - pools[i].nBaseline));
      }
      const double f = cand.value() / base.value();
      r.countLessEqual += f <= lessBound;
      r.countGreaterEqual += f >= greaterBound;
      for (std::size_t i = 0; i < digit.size(); ++i) { // mixed-radix increment
        if (++digit[i] < per[i].size())
          break;
        digit[i] = 0;
      }
    }
    finishPValues(r);
    return r;
  }

  // Monte Carlo: per replicate, per benchmark, a uniform random split drawn by
  // the first nb steps of a Fisher-Yates shuffle of the pooled runs (reset to
  // the data order first, so a replicate does not depend on its thread).
  std::vector<double> totals;
  for (const auto &p : pools)
    totals.push_back(std::accumulate(p.data.begin(), p.data.end(), 0.0));
  std::vector<double> ratios(o.replicates);
  struct Scratch {
    std::vector<std::vector<double>> pools;
  };
  parallelReplicates(
      o.replicates, o.threads,
      [&] {
        Scratch s;
        for (const auto &p : pools)
          s.pools.push_back(p.data);
        return s;
      },
      [&](std::size_t rep, Scratch &s) {
        Rng rng(mixSeed(o.seed, rep));
        SuiteAccumulator base(o.mean), cand(o.mean);
        for (std::size_t i = 0; i < pools.size(); ++i) {
          auto &d = s.pools[i];
          std::copy(pools[i].data.begin(), pools[i].data.end(), d.begin());
          const std::size_t n = d.size(), nb = pools[i].nBaseline;
          double sb = 0;
          const double total = totals[i];
          for (std::size_t k = 0; k < nb; ++k) {
            const std::size_t j = k + static_cast<std::size_t>(rng.below(n - k));
            std::swap(d[k], d[j]);
            sb += d[k];
          }
          base.add(sb / static_cast<double>(nb));
          cand.add((total - sb) / static_cast<double>(n - nb));
        }
        ratios[rep] = cand.value() / base.value();
      });
  r.replicates = o.replicates;
  for (double f : ratios) {
    r.countLessEqual += f <= lessBound;
    r.countGreaterEqual += f >= greaterBound;
  }
  finishPValues(r);
  return r;
}

Expected<SuiteBootstrapResult> bootstrapSuiteRatio(std::span<const BenchmarkRuns> suite,
                                                   const SuiteBootstrapOptions &o) {
  if (auto why = validateSuite(suite); !why.empty())
    return fail(why);
  if (o.replicates < 2)
    return fail("bootstrap: at least 2 replicates are needed");
  if (!(o.confidence > 0 && o.confidence < 1))
    return fail("confidence level must be in (0, 1)");
  const auto pools = makePools(suite, o.mean);
  SuiteBootstrapResult r;
  r.estimate = observedRatio(pools, o.mean);
  r.replicates = o.replicates;
  std::vector<double> ratios(o.replicates);
  parallelReplicates(
      o.replicates, o.threads, [] { return 0; },
      [&](std::size_t rep, int &) {
        Rng rng(mixSeed(o.seed, rep));
        SuiteAccumulator base(o.mean), cand(o.mean);
        for (const auto &p : pools) {
          const std::size_t nb = p.nBaseline, nc = p.data.size() - nb;
          double sb = 0, sc = 0;
          for (std::size_t k = 0; k < nb; ++k) // baseline resampled from itself
            sb += p.data[rng.below(nb)];
          for (std::size_t k = 0; k < nc; ++k) // candidate from itself, independently
            sc += p.data[nb + rng.below(nc)];
          base.add(sb / static_cast<double>(nb));
          cand.add(sc / static_cast<double>(nc));
        }
        ratios[rep] = cand.value() / base.value();
      });
  std::sort(ratios.begin(), ratios.end());
  const double alpha = 1 - o.confidence;
  r.lower = quantileType7Sorted(ratios, alpha / 2);
  r.upper = quantileType7Sorted(ratios, 1 - alpha / 2);
  r.oneSidedLower = quantileType7Sorted(ratios, alpha);
  r.oneSidedUpper = quantileType7Sorted(ratios, 1 - alpha);
  if (o.keepReplicates)
    r.values = std::move(ratios);
  return r;
}

FiveNumberSummary fiveNumberSummary(std::span<const double> values) {
  std::vector<double> s(values.begin(), values.end());
  std::sort(s.begin(), s.end());
  return {s.front(), quantileType7Sorted(s, 0.25), quantileType7Sorted(s, 0.5),
          quantileType7Sorted(s, 0.75), s.back()};
}

Expected<EmpiricalDistribution> empiricalDistribution(std::span<const std::vector<double>> runs,
                                                      const EmpiricalOptions &o) {
  if (runs.empty())
    return fail("empirical distribution: no benchmarks");
  if (o.replicates == 0)
    return fail("empirical distribution: at least one replicate is needed");
  std::vector<std::vector<double>> logs;
  EmpiricalDistribution r;
  double logMeans = 0;
  for (const auto &b : runs) {
    if (b.empty())
      return fail("empirical distribution: a benchmark has no runs");
    std::vector<double> l;
    for (double v : b) {
      if (!std::isfinite(v) || v <= 0)
        return fail("empirical distribution: execution times must be finite and positive");
      l.push_back(std::log(v));
    }
    logMeans += std::log(sampleMean(b));
    logs.push_back(std::move(l));
  }
  const double nb = static_cast<double>(runs.size());
  r.observed = std::exp(logMeans / nb);
  r.values.resize(o.replicates);
  for (std::size_t rep = 0; rep < o.replicates; ++rep) {
    Rng rng(mixSeed(o.seed, rep));
    double s = 0;
    for (const auto &l : logs)
      s += l[rng.below(l.size())];
    r.values[rep] = std::exp(s / nb);
  }
  std::sort(r.values.begin(), r.values.end());
  r.summary = fiveNumberSummary(r.values);
  return r;
}

} // namespace alea::analysis

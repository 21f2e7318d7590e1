// Resampling comparisons of two systems over a suite of benchmarks (Li, Chen &
// Peng, "Precise Computer Performance Comparisons Via Statistical Resampling
// Methods"; spec_002_004 Part 2): the randomization (permutation) test
// stratified by benchmark (§III), the percentile bootstrap confidence interval
// of the ratio of geometric means with each system resampled within each
// benchmark (§IV, the two-sample reading of spec A4-2), and the empirical
// distribution of one system's geometric mean with its five-number summary
// (§V). Orientation (spec A4-3): statistic = summary(candidate) /
// summary(baseline) of TIMES, so a ratio < 1 means the candidate is faster.
// Every replicate r draws from its own stream Rng(mixSeed(seed, r)), so the
// results are reproducible from the seed and identical for any thread count.
#pragma once

#include "alea/analysis/hierarchy.hpp"
#include "alea/enum_names.hpp"
#include "alea/expected.hpp"

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace alea::analysis {

// One benchmark's runs on each system (counts may differ, spec A4-11).
struct BenchmarkRuns {
  std::vector<double> baseline;
  std::vector<double> candidate;
};

// One benchmark's runs taken as the top-level (build) means of each system's
// hierarchy: the unit to resample when layouts are randomized (spec Part 3,
// note 1). Preconditions: both hierarchies valid.
BenchmarkRuns topLevelRuns(const Hierarchy &baseline, const Hierarchy &candidate);

// The per-system summary over the suite (spec §2.2 and A4-1): V-AM, the
// default, is the GM over benchmarks of each benchmark's mean; V-GMall the GM
// of every run, each benchmark weighted equally; AM and HM are over the
// benchmark means (§VIII).
#define ALEA_SUITE_MEANS(X)                                                                        \
  X(GeometricOfMeans, "gm-of-means") /* V-AM */                                                    \
  X(GeometricOfAll, "gm-of-all")     /* V-GMall */                                                 \
  X(Arithmetic, "am")                                                                              \
  X(Harmonic, "hm")
enum class SuiteMean { ALEA_SUITE_MEANS(ALEA_ENUMERATOR) };
ALEA_ENUM_NAMES(SuiteMean, ALEA_SUITE_MEANS);

const char *suiteMeanName(SuiteMean m); // "gm-of-means", "gm-of-all", "am", "hm"

// summary(candidate) / summary(baseline) on the data as given.
Expected<double> suiteRatio(std::span<const BenchmarkRuns> suite,
                            SuiteMean mean = SuiteMean::GeometricOfMeans);

// --- randomization test (§III) ----------------------------------------------

struct RandomizationOptions {
  SuiteMean mean = SuiteMean::GeometricOfMeans;
  std::size_t replicates = 10000; // M (the paper's example: 500)
  std::uint64_t seed = 1;
  unsigned threads = 1; // 0 = hardware concurrency; results do not depend on it
  // Enumerate all within-benchmark splits instead of sampling when there are
  // at most this many (spec §2.3: exact for small designs). 0 = never.
  std::size_t exhaustiveLimit = 100000;
  // Relative tolerance of the >= / <= comparisons with the observed ratio
  // (relabelled symmetric splits tie up to rounding; spec §2.9 uses 1e-12).
  double tolerance = 1e-12;
};

struct RandomizationResult {
  double observed = 0;        // g_obs
  std::size_t replicates = 0; // M, or the number of splits when exhaustive
  bool exhaustive = false;
  std::size_t countLessEqual = 0;    // #{F <= g_obs}: candidate faster (times)
  std::size_t countGreaterEqual = 0; // #{F >= g_obs}: candidate slower
  // p-values as the paper defines them (count / M) ...
  double pLess = 1, pGreater = 1, pTwoSided = 1; // two-sided = min(1, 2 min)
  // ... and the Monte Carlo estimator (count + 1) / (M + 1) (Davison & Hinkley
  // 1997 §4.2.2), which never returns 0; equal to the above when exhaustive.
  double pLessMc = 1, pGreaterMc = 1, pTwoSidedMc = 1;
};

Expected<RandomizationResult> randomizationTest(std::span<const BenchmarkRuns> suite,
                                                const RandomizationOptions &options = {});

// --- bootstrap CI of the ratio (§IV) ----------------------------------------

struct SuiteBootstrapOptions {
  SuiteMean mean = SuiteMean::GeometricOfMeans;
  std::size_t replicates = 2000; // T (the paper's example: 500)
  double confidence = 0.95;
  std::uint64_t seed = 1;
  unsigned threads = 1;
  bool keepReplicates = false;
};

struct SuiteBootstrapResult {
  double estimate = 0;         // the ratio on the original data
  double lower = 0, upper = 0; // type-7 percentiles alpha/2, 1 - alpha/2
  double oneSidedUpper = 0;    // "ratio is at most": percentile 1 - alpha
  double oneSidedLower = 0;    // "ratio is at least": percentile alpha
  std::size_t replicates = 0;
  std::vector<double> values; // sorted replicates, if keepReplicates
};

Expected<SuiteBootstrapResult> bootstrapSuiteRatio(std::span<const BenchmarkRuns> suite,
                                                   const SuiteBootstrapOptions &options = {});

// --- empirical distribution of one system (§V) ------------------------------

struct FiveNumberSummary {
  double minimum = 0, q1 = 0, median = 0, q3 = 0, maximum = 0; // type-7 quartiles
};

FiveNumberSummary fiveNumberSummary(std::span<const double> values); // non-empty

struct EmpiricalOptions {
  std::size_t replicates = 2000;
  std::uint64_t seed = 1;
};

struct EmpiricalDistribution {
  std::vector<double> values; // sorted geometric means of one random run per benchmark
  FiveNumberSummary summary;
  double observed = 0; // GM of the benchmark means on the data
};

// `runsPerBenchmark[i]`: the runs of one system on benchmark i (non-empty,
// positive). Each replicate picks one run per benchmark uniformly.
Expected<EmpiricalDistribution>
empiricalDistribution(std::span<const std::vector<double>> runsPerBenchmark,
                      const EmpiricalOptions &options = {});

} // namespace alea::analysis

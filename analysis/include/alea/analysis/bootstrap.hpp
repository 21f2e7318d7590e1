// Hierarchical percentile bootstrap of one system's mean and of the ratio of
// two systems' means (TR 2012 §3.2 Fig. 1 and §4.4 Fig. 2; spec_000 §3.2, §4.4,
// §9.11). RRR (with replacement at every level, children redrawn for every
// selected parent occurrence) is the default; RRN, RNN, FLAT and any per-level
// with/without-replacement vector are selectable.
//
// Reproducibility: replicate r draws from alea::Rng(alea::mixSeed(seed, r)),
// so results are identical whatever the number of threads. In a ratio
// replicate the candidate is resampled first, then the baseline, from that one
// stream (the two systems are resampled independently of each other).
#pragma once

#include "alea/analysis/hierarchy.hpp"
#include "alea/analysis/interval.hpp"
#include "alea/enum_names.hpp"
#include "alea/expected.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace alea::analysis {

// Which levels are resampled with replacement.
struct ResamplingScheme {
#define ALEA_RESAMPLING_KINDS(X)                                                                   \
  X(RRR, "RRR")   /* with replacement at every level (the paper's recommendation) */               \
  X(RRN, "RRN")   /* every level except the lowest (lowest level kept intact) */                   \
  X(RNN, "RNN")   /* top level only (everything below kept intact) */                              \
  X(Flat, "FLAT") /* ignore the hierarchy: resample all values as one pool */                      \
  X(Custom, "")   /* `replace` gives the choice per level, highest first (name()) */
  enum class Kind { ALEA_RESAMPLING_KINDS(ALEA_ENUMERATOR) };
  friend ALEA_ENUM_NAMES(Kind, ALEA_RESAMPLING_KINDS);
  Kind kind = Kind::RRR;
  std::vector<bool> replace; // only for Custom; size must equal the depth

  // The per-level vector for data of the given depth (not meaningful for
  // Flat). RRR/RRN/RNN generalise to any depth as documented above, and the
  // top level is always resampled by them (on one-level data all three are
  // "R"). Custom returns `replace` as is.
  std::vector<bool> replacementFor(std::size_t depth) const;
  // "RRR", "RRN", "RNN", "FLAT" (any case), or a string of R/N letters, one per
  // level highest first (Custom).
  static Expected<ResamplingScheme> parse(std::string_view text);
  std::string name() const;
};

// How the percentile limits are read off the sorted replicates.
enum class QuantileRule {
  // The paper's rule (spec_000 §9.11): the k-th smallest (1-based) with
  // k = floor(B*alpha/2) (at least 1) for the lower and k = ceil(B*(1-alpha/2))
  // for the upper limit: the 25th and 975th of B = 1000.
  PaperOrderStatistic,
  // R's quantile(type = 7): linear interpolation at h = (B-1)p + 1.
  RType7,
};

struct BootstrapOptions {
  std::size_t replicates = 1000; // B; must be >= 1000 unless allowFewReplicates
  std::uint64_t seed = 0;
  unsigned threads = 0; // 0 = std::thread::hardware_concurrency()
  ResamplingScheme scheme{};
  double confidence = 0.95;
  QuantileRule quantileRule = QuantileRule::PaperOrderStatistic;
  bool keepReplicates = false;     // return the replicate vector (in replicate order)
  bool allowFewReplicates = false; // tests/benchmarks only: permit B < 1000
};

struct BootstrapResult {
  double estimate = 0; // the statistic on the real data (mean, or ratio of means)
  Interval interval;   // percentile interval
  double confidence = 0.95;
  std::size_t replicates = 0;
  std::string scheme; // ResamplingScheme::name()
  // Ratio replicates whose resampled baseline mean was 0 (their ratio is
  // +infinity, as in libkalibera); always 0 for positive times.
  std::size_t infiniteReplicates = 0;
  std::vector<double> replicateValues; // only with keepReplicates
};

// Bootstrap CI of one system's mean.
Expected<BootstrapResult> bootstrapMean(const Hierarchy &h, const BootstrapOptions &options = {});

// Bootstrap CI of mean(candidate) / mean(baseline) (ratio of TIMES; < 1 means
// the candidate is faster). The two hierarchies may differ in shape but must
// have the same depth when the scheme is not Flat.
Expected<BootstrapResult> bootstrapRatio(const Hierarchy &candidate, const Hierarchy &baseline,
                                         const BootstrapOptions &options = {});

// The PAIRED hierarchical bootstrap of mean(candidate) / mean(baseline) for
// designs where top-level unit i of the candidate and unit i of the baseline
// ran together (interleaved pairs, Abedi & Brecht ICPE 2017; duet, Bulej et
// al. ICPE 2020) and share time-correlated noise. A replicate draws n pair
// indices with replacement (one draw, the same index for both systems), then
// below the top level resamples each system's children of that unit
// independently, per the scheme, exactly as bootstrapRatio() does (in each
// selected pair the candidate's draws first, then the baseline's). Replicate r
// uses Rng(mixSeed(seed, r)): reproducible and thread-count independent.
// Requires the same depth and top-level count (the caller aligns the pairs);
// the lower levels may differ in shape. FLAT is refused (it has no pairs); a
// Custom scheme without replacement at the top takes every pair once.
Expected<BootstrapResult> bootstrapPairedRatio(const Hierarchy &candidate,
                                               const Hierarchy &baseline,
                                               const BootstrapOptions &options = {});

// A paired bootstrap corrected for the noise neighbouring blocks share
// (fieller.hpp, neighbourVarianceFactor; as Fieller's interval is): every
// ratio replicate's distance from the estimate on the log scale, and so the
// percentile interval's, times sqrt(varianceFactor): estimate x (v /
// estimate)^sqrt(f). The replicates' variance (of their logs) is then multiplied
// by the factor, their shape kept and every one positive (a first-order
// correction; resampling the pairs cannot see what neighbouring pairs share).
// A factor <= 1, or an estimate that is not a positive ratio, changes nothing.
void widenReplicates(BootstrapResult &result, double varianceFactor);

// The percentile interval of `values` (sorted in place) under a rule.
Interval percentileInterval(std::vector<double> &values, double confidence, QuantileRule rule);

// How this CPU runs the replicates ("AVX-512F, 8 replicates at a time", "AVX2,
// 4 ...", or "scalar, 1 ..."): several at once, one per SIMD lane, with the same
// results to the bit (bootstrap.cpp).
const char *bootstrapLanes();

// The resampler's self-check, which a unit test calls: the SIMD lanes' copy of
// alea::Rng (its stream and below(), Lemire's rare rejection included, with
// crafted generator states) and every lane set this CPU has against the scalar
// resampler, bit for bit. "" when all agree, else the first difference.
std::string bootstrapSelfCheck();

// One resampled mean for given index draws, for checking the resampler against
// the paper's Table VI walkthrough: `draw(levelIndex, bound)` is called in the
// exact order the resampler draws (depth first, highest level first) and must
// return a value in [0, bound). Honours the scheme (levels without replacement
// take children in order and do not call draw). It runs the production
// resampler (same code, draw order and summation order) with the draws injected.
double resampledMeanWith(const Hierarchy &h, const std::vector<bool> &replace,
                         const std::function<std::size_t(std::size_t, std::size_t)> &draw);

} // namespace alea::analysis

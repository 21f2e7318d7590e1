// Diagnostics a careful user expects next to a confidence interval (issue 3,
// method 8). Each returns structured findings for the report; nothing is ever
// dropped from the data.
//  - Outliers: Tukey's fences (Tukey 1977, Exploratory Data Analysis §2:
//    beyond Q1 - k IQR or Q3 + k IQR, k = 1.5 "outside", k = 3 "far out") with
//    type-7 quartiles, and the modified z-score 0.6745 (x - median) / MAD with
//    cut-off 3.5 (Iglewicz & Hoaglin 1993, "How to Detect and Handle
//    Outliers", §3.3). Reported, never removed (hyperfine does the same).
//  - Layout modes: build (top-level) means that fall into two clusters. The
//    statistic is the best two-group split of the sorted means, R^2 = between
//    sum of squares / total (Fisher 1958's optimal 1-D partition), tested
//    against its distribution under a normal sample of the same size
//    (Engelman & Hartigan 1969, JASA 64:1647, "Percentage points of a test for
//    clusters"), by a seeded Monte Carlo with alea::Rng.
//  - Warm-up trend: for each execution, the Mann-Kendall test of a monotone
//    trend of the value against the iteration index (Kendall's tau_b with the
//    normal approximation and tie-corrected variance, as R's
//    cor.test(method = "kendall", exact = FALSE)), Benjamini & Hochberg (1995)
//    false-discovery-rate adjustment across executions.
#pragma once

#include "alea/analysis/hierarchy.hpp"
#include "alea/expected.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace alea::analysis {

// --- outliers ---------------------------------------------------------------

// A relative difference no result turns on and the report cannot show (it
// prints four significant digits): 0.05% of the value. A deviation or a
// disagreement below it is no finding (simulated counts vary by a few hundred
// in 1e8 across executions: their quartiles are that close too).
inline constexpr double kNegligibleRelative = 5e-4;

struct OutlierOptions {
  double tukeyK = 1.5;    // inner fences
  double tukeyFarK = 3.0; // outer fences ("far out")
  double madCutoff = 3.5; // |modified z| above this is flagged
  // A value within this distance of the median is no outlier, however close
  // the fences (diagnose(): kNegligibleRelative of the values' magnitude).
  double minDeviation = 0;
};

struct Outlier {
  std::size_t index = 0; // position in the input span
  double value = 0;
  bool high = false;    // above the upper fence / positive z
  bool tukey = false;   // outside the inner Tukey fences
  bool farOut = false;  // outside the outer Tukey fences
  bool mad = false;     // |modified z| > madCutoff
  double modifiedZ = 0; // 0.6745 (x - median) / MAD (0 when MAD == 0)
};

struct OutlierReport {
  std::size_t n = 0;
  double q1 = 0, median = 0, q3 = 0, iqr = 0;
  double lowerFence = 0, upperFence = 0; // inner fences
  double mad = 0;                        // raw median absolute deviation
  std::vector<Outlier> outliers;         // flagged by either rule, input order
};

// Needs at least 4 finite values.
Expected<OutlierReport> findOutliers(std::span<const double> values,
                                     const OutlierOptions &options = {});

// --- layout modes -----------------------------------------------------------

struct ModeOptions {
  double significance = 0.05;
  std::size_t simulations = 1999; // Monte Carlo replicates of the normal null
  std::uint64_t seed = 0x6c61796f75742d6dULL;
  std::size_t minClusterSize = 2; // smaller clusters are reported, not flagged
};

struct LayoutModes {
  std::size_t n = 0;
  bool multimodal = false; // p < significance and both clusters big enough
  double rSquared = 0;     // between SS / total SS of the best split
  double pValue = 1;       // (count + 1) / (simulations + 1)
  double threshold = 0;    // midpoint between the clusters
  double lowMean = 0, highMean = 0;
  std::vector<std::size_t> lowUnits, highUnits; // input indices
  double relativeGap = 0;                       // (highMean - lowMean) / lowMean
};

// `unitMeans`: one mean per build (top-level unit). Needs at least 4 values;
// all-equal means are reported as unimodal.
Expected<LayoutModes> findLayoutModes(std::span<const double> unitMeans,
                                      const ModeOptions &options = {});

// --- warm-up trends ---------------------------------------------------------

struct TrendTest {
  std::size_t n = 0;
  double tau = 0;       // Kendall's tau_b of (index, value)
  double statistic = 0; // z = S / sqrt(var S)
  double pValue = 1;    // two-sided, normal approximation
};

// Mann-Kendall trend test of `series` against 1..n (n >= 3; fails when all
// values are equal).
Expected<TrendTest> kendallTrend(std::span<const double> series);

// Benjamini-Hochberg adjusted p-values (R's p.adjust(p, "BH")).
std::vector<double> adjustBenjaminiHochberg(std::span<const double> pValues);

struct TrendOptions {
  double falseDiscoveryRate = 0.05;
};

struct ExecutionTrend {
  std::size_t execution = 0; // index of the execution (lowest-level group)
  TrendTest test;
  double qValue = 1; // BH-adjusted
  bool flagged = false;
};

struct TrendReport {
  std::size_t executions = 0; // executions with a computable test
  std::size_t flagged = 0;
  std::size_t flaggedDecreasing = 0;  // tau < 0: times still falling (warm-up)
  std::vector<ExecutionTrend> trends; // every tested execution
};

// One series of iterations per execution.
TrendReport findTrends(std::span<const std::vector<double>> executions,
                       const TrendOptions &options = {});

// --- on a Hierarchy (lowest level = iteration) -------------------------------

struct Diagnostics {
  OutlierReport measurementOutliers; // residuals from each execution's median
  OutlierReport unitOutliers;        // top-level unit means
  std::optional<LayoutModes> modes;  // when >= 4 top-level units
  std::optional<TrendReport> trends; // when depth >= 2 and >= 3 iterations
};

Expected<Diagnostics> diagnose(const Hierarchy &h, const OutlierOptions &outlierOptions = {},
                               const ModeOptions &modeOptions = {},
                               const TrendOptions &trendOptions = {});

} // namespace alea::analysis

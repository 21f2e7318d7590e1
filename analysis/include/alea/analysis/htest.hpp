// Classical hypothesis tests used by the Speedup-Test protocol (Touati 2009;
// Touati, Worms & Briais 2013), each computed exactly as R's `stats` package
// computes it so that our numbers can be checked against R to 1e-6 relative
// (test/r/ holds the R scripts and the frozen golden values): t.test (Welch and
// pooled), var.test, wilcox.test (exact and normal with continuity and tie
// correction), shapiro.test (Royston 1995, AS R94), ks.test (two-sample, exact
// lattice count or Kolmogorov's limit), prop.test (one sample, Wilson score
// with Yates' continuity correction), plus R's type-7 quantile and median.
// Formulas: spec_002_004 §1.3, Appendix A and Appendix B. Pure functions, spans
// in, value structs out; bad input is an Expected failure, never a throw.
#pragma once

#include "alea/enum_names.hpp"
#include "alea/expected.hpp"

#include <cstddef>
#include <span>
#include <vector>

namespace alea::analysis {

// The alternative hypothesis, as R's `alternative=` argument: Greater means
// "x is larger than y" (for times: y, the second sample, is faster).
#define ALEA_ALTERNATIVES(X)                                                                       \
  X(TwoSided, "two.sided")                                                                         \
  X(Greater, "greater")                                                                            \
  X(Less, "less")
enum class Alternative { ALEA_ALTERNATIVES(ALEA_ENUMERATOR) };
ALEA_ENUM_NAMES(Alternative, ALEA_ALTERNATIVES);

const char *alternativeName(Alternative alt); // "two.sided", "greater", "less"

// R's `exact = NULL / TRUE / FALSE` for the rank and KS tests.
enum class ExactMode { Auto, Exact, Asymptotic };

// --- descriptive helpers -----------------------------------------------------

double sampleMean(std::span<const double> x);
// Unbiased sample variance (divisor n - 1); 0 for n < 2.
double sampleVariance(std::span<const double> x);
// R's quantile(x, q, type = 7) (Hyndman & Fan 1996, definition 7): h = (n-1)q,
// linear interpolation between order statistics. Precondition: !x.empty(),
// 0 <= q <= 1. `sorted` must be ascending.
double quantileType7Sorted(std::span<const double> sorted, double q);
double quantileType7(std::span<const double> x, double q);
// R's median: the mean of the two middle values for even n.
double median(std::span<const double> x);
// R's order(x): the indices of x in ascending order of their values, ties in
// index order (a stable sort).
std::vector<std::size_t> ascendingOrder(std::span<const double> x);
// R's rank(x, ties.method = "average"), 1-based ranks.
std::vector<double> averageRanks(std::span<const double> x);

// --- Student / Welch t-test (R t.test, two samples) -------------------------

struct TTestOptions {
  Alternative alternative = Alternative::TwoSided;
  bool equalVariance = false; // false: Welch (R's default); true: pooled Student
  double confidence = 0.95;   // R's conf.level
  double mu = 0;              // null difference of means
};

struct TTestResult {
  double statistic = 0; // t
  double df = 0;
  double pValue = 1;
  double meanX = 0, meanY = 0;
  double stdError = 0;
  // Confidence interval for mean(x) - mean(y); one-sided alternatives give an
  // infinite bound (lower = -inf for Less, upper = +inf for Greater).
  double lower = 0, upper = 0;
  bool pooled = false;
};

// Fails when a sample has fewer than 2 values (pooled: n + m < 3) or the data
// are essentially constant (R's "data are essentially constant").
Expected<TTestResult> tTest(std::span<const double> x, std::span<const double> y,
                            const TTestOptions &options = {});

// --- F test for the ratio of variances (R var.test) -------------------------

struct FTestOptions {
  Alternative alternative = Alternative::TwoSided;
  double confidence = 0.95;
  double ratio = 1; // null ratio of variances
};

struct FTestResult {
  double statistic = 0; // F = (var(x) / var(y)) / ratio
  double dfNum = 0, dfDen = 0;
  double pValue = 1;
  double estimate = 0; // var(x) / var(y)
  double lower = 0, upper = 0;
};

// Fails for fewer than 2 values in a sample or a zero variance in y.
Expected<FTestResult> varTest(std::span<const double> x, std::span<const double> y,
                              const FTestOptions &options = {});

// --- Wilcoxon-Mann-Whitney rank-sum test (R wilcox.test, two samples) -------

struct WilcoxonOptions {
  Alternative alternative = Alternative::TwoSided;
  double mu = 0;
  bool correct = true;               // continuity correction of the normal approximation
  ExactMode exact = ExactMode::Auto; // Auto: exact iff n < 50, m < 50, no ties
  double confidence = 0.95;          // of the location-shift interval (exact case)
};

struct WilcoxonResult {
  double statistic = 0; // W = rank sum of x - n(n+1)/2 (Mann-Whitney U of x)
  double pValue = 1;
  bool exact = false; // exact null distribution used
  bool ties = false;  // ties in the pooled ranks (forces the approximation)
  // W / (n m): the estimate of P(X > Y) + P(X = Y)/2 (x shifted by -mu).
  double probabilityXGreater = 0;
  // Exact case only (R's conf.int = TRUE without ties, n, m < 50): the
  // Hodges-Lehmann estimate of the location shift x - y (median of the n m
  // pairwise differences) and its distribution-free confidence interval from
  // the order statistics of the differences (Bauer 1972; Hollander & Wolfe
  // §4.3), one-sided alternatives giving an infinite bound.
  bool hasLocationInterval = false;
  double locationEstimate = 0, locationLower = 0, locationUpper = 0;
};

Expected<WilcoxonResult> wilcoxonTest(std::span<const double> x, std::span<const double> y,
                                      const WilcoxonOptions &options = {});

// --- Shapiro-Wilk normality test (R shapiro.test; Royston 1995, AS R94) -----

struct ShapiroWilkResult {
  double w = 0;
  double pValue = 1;
};

// 3 <= n <= 5000; fails when all values are identical.
Expected<ShapiroWilkResult> shapiroWilk(std::span<const double> x);

// --- Two-sample Kolmogorov-Smirnov test (R ks.test) -------------------------

struct KsOptions {
  Alternative alternative = Alternative::TwoSided;
  ExactMode exact = ExactMode::Auto; // Auto: exact iff n * m < 10000 (R >= 4.2)
};

struct KsResult {
  double statistic = 0; // D (two-sided), D^+ (Greater) or D^- (Less)
  double pValue = 1;
  bool exact = false;
  bool ties = false;
};

Expected<KsResult> ksTest(std::span<const double> x, std::span<const double> y,
                          const KsOptions &options = {});

// --- One-sample proportion test (R prop.test(x, n, p)) ----------------------

struct PropTestOptions {
  Alternative alternative = Alternative::TwoSided;
  double p = 0.5; // null proportion; also sets the Yates correction size
  double confidence = 0.95;
  bool correct = true; // Yates' continuity correction (R's default)
};

struct PropTestResult {
  double estimate = 0;  // x / n
  double statistic = 0; // X-squared, 1 df
  double pValue = 1;
  double lower = 0, upper = 1; // Wilson score interval (with correction)
};

// 0 <= successes <= trials, trials >= 1, 0 < p < 1.
Expected<PropTestResult> propTest(std::size_t successes, std::size_t trials,
                                  const PropTestOptions &options = {});

// The Wald interval p ± z sqrt(p(1-p)/n) that Touati 2009 writes (spec A2-8);
// offered for comparison only, prop.test is what the paper actually ran.
struct ProportionInterval {
  double lower = 0, upper = 0;
};
ProportionInterval waldProportionInterval(std::size_t successes, std::size_t trials,
                                          double confidence);

// The exact (Clopper-Pearson 1934) interval of a binomial proportion, as R's
// binom.test: lower = qbeta(alpha/2, x, n - x + 1) (0 when x = 0), upper =
// qbeta(1 - alpha/2, x + 1, n - x) (1 when x = n). For rates of rare events
// (false alarms of a simulated or measured interval), where the Wald and Wilson
// intervals undercover. Fails unless successes <= trials, trials >= 1 and
// 0 < confidence < 1.
Expected<ProportionInterval> clopperPearsonInterval(std::size_t successes, std::size_t trials,
                                                    double confidence = 0.95);

} // namespace alea::analysis

// Fieller's confidence interval for the ratio of two means, theta =
// mean(candidate) / mean(baseline) (TR 2012 Lemma 7.7 and eq. 12; KJ13 eq. 5;
// spec_000 §4.2-4.3 with the paper's numerator/denominator labelling fixed:
// the BASELINE (denominator) variance goes into a = d^2 - t^2 v_dd).
//
// Bounded only when the baseline mean is significantly different from zero
// (a > 0). Otherwise the confidence set is two rays or the whole line and the
// result says Unbounded with no numbers (never NaN, never swapped bounds).
#pragma once

#include "alea/analysis/hierarchy.hpp"
#include "alea/analysis/interval.hpp"
#include "alea/expected.hpp"

#include <optional>

namespace alea::analysis {

enum class FiellerStatus { Bounded, Unbounded };

// Degrees of freedom when the two systems have different top-level counts
// (the paper assumes equal counts, nu = n_top - 1; spec_001 D-B6 leaves the
// unequal case open).
enum class FiellerDf {
  MinCount, // nu = min(n_c, n_b) - 1: conservative (default)
  Welch,    // Welch-Satterthwaite on S_c^2/n_c and S_b^2/n_b
};

struct FiellerResult {
  FiellerStatus status = FiellerStatus::Unbounded;
  double estimate = 0;              // mean(candidate) / mean(baseline)
  std::optional<Interval> interval; // only when Bounded
  double df = 0;                    // nu used for t (0 for the normal variant)
  double quantile = 0;              // t_{1-alpha/2,nu} (or u); t^2 is used
  double confidence = 0.95;
};

// The general quadratic form (spec_000 §4.2): m = numerator estimate, d =
// denominator estimate, v_mm, v_dd their variances (of the ESTIMATES), v_md
// their covariance, q the two-sided critical value (only q^2 is used).
// Bounded iff a = d^2 - q^2 v_dd > 0. The returned df is 0; set it yourself.
FiellerResult fiellerFromMoments(double m, double vmm, double d, double vdd, double vmd, double q,
                                 double confidence);

// Fieller's interval in the relative form of spec_001 B.9.3 (exact, derived
// from KJ13 eq. 5): with e = h/Ybar and e' = h'/Ybar' the relative half-widths
// of the baseline's and the candidate's single-system CIs and ratio =
// Ybar'/Ybar, theta in ratio * (1 -+ sqrt(e^2 + e'^2 - e^2 e'^2)) / (1 - e^2).
// nullopt (unbounded) unless 0 <= e < 1; e' >= 0.
std::optional<Interval> fiellerFromRelativeHalfWidths(double ratio, double e, double ePrime);

// KJ13 §10 eq. 6: for narrow single-system intervals (e, e' below ~10%,
// so 1 - e^2 ~ 1 and e^2 e'^2 ~ 0) the ratio CI's half-width is about
// ratio * sqrt(e^2 + e'^2) (spec_001 B.10; TV5: 0.026870 against the exact
// 0.026878). An approximation, for planning; alea reports the exact interval.
double ratioHalfWidthApproximation(double ratio, double e, double ePrime);

// Fieller on the top-level means of each system: v = S_{n+1}^2 / n_{n+1} per
// system, independent systems (v_md = 0), t with nu = n_top - 1 (equal
// counts) or per `df` when the counts differ. Fails when either hierarchy is
// invalid or has fewer than 2 top-level units, or confidence is not in (0,1).
Expected<FiellerResult> fiellerRatio(const Hierarchy &candidate, const Hierarchy &baseline,
                                     double confidence = 0.95,
                                     IntervalMethod method = IntervalMethod::T,
                                     FiellerDf df = FiellerDf::MinCount);

// Fieller's interval for PAIRED designs (Fieller 1954, the general theorem
// with the covariance term; docs/statistics.md §4 "Paired"): top-level unit i
// of the candidate and unit i of the baseline share time-correlated noise
// (interleaved pairs, Abedi & Brecht ICPE 2017; duet, Bulej et al. ICPE 2020),
// so with c_i, b_i the top-level means and n the number of pairs:
// m = mean(c), d = mean(b), v_mm = S_c^2/n, v_dd = S_b^2/n,
// v_md = cov(c, b)/n (sample covariance, divisor n - 1), t with nu = n - 1.
// Requires equal top-level counts (the caller aligns the pairs: unit i of one
// with unit i of the other); the levels below may differ in shape. Fails like
// fiellerRatio(), and when the top-level counts differ.
// varianceFactor (>= 1) multiplies the three variances: neighbourVarianceFactor.
Expected<FiellerResult> fiellerPairedRatio(const Hierarchy &candidate, const Hierarchy &baseline,
                                           double confidence = 0.95,
                                           IntervalMethod method = IntervalMethod::T,
                                           double varianceFactor = 1);

// One block of a paired design (issue 19): the candidate's and the
// baseline's execution of one build pair that ran together, when it ran.
struct NeighbourBlock {
  std::size_t pair = 0; // index of its build pair
  double order = 0;     // when it ran (any clock)
  double candidate = 0, baseline = 0;
};

// How much the paired analysis must widen for the noise that neighbouring
// blocks share (issue 19, docs/statistics.md "Neighbouring blocks"): the
// pairs' differences D_j = mean of c - theta b over pair j's blocks are taken
// as independent, but two blocks that ran one after the other share noise
// (other work slowing two executions in a row), and neighbouring blocks
// belong to different pairs. The variance of the mean of the D_j is then
//   S^2/P + 2/P^2 sum over neighbours k, k+1 of different pairs of
//   r_k r_{k+1} / (E_j E_j'),
// r the blocks' differences minus their mean, E_j pair j's block count; the
// factor is that over S^2/P, never below 1. 1 when the blocks are too few
// (fewer than 2 pairs or 3 blocks) or S^2 is 0.
double neighbourVarianceFactor(std::vector<NeighbourBlock> blocks, std::size_t pairs, double theta);

// The sample (Pearson) correlation of the paired top-level means, for reports;
// 0 when either system's top-level means are constant. Preconditions: both
// hierarchies valid with the same top-level count >= 2.
double pairCorrelation(const Hierarchy &candidate, const Hierarchy &baseline);

} // namespace alea::analysis

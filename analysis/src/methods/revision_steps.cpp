// Step changes over revisions: pooled within-revision noise of log build
// means, optimal partitioning of the revisions (Jackson et al. 2005) under the
// known-variance normal mean cost and a BIC penalty, a t interval per step
// (see revision_steps.hpp for the method, its sources and its caveats).
#include "alea/analysis/revision_steps.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace alea::analysis {

namespace {

std::string revisionName(std::size_t r) { return "revision " + std::to_string(r); }

// Per-revision sums of y = log(build mean) - centre, and their prefix sums,
// so that a segment of whole revisions costs O(1). Centring on the mean of
// all y keeps sum y^2 - (sum y)^2 / n from cancelling (times of 1e9 ns have
// log 20.7, steps of 1e-2).
class SegmentSums {
public:
  SegmentSums(const std::vector<std::vector<double>> &y, double centre)
      : n_(y.size() + 1, 0), s1_(y.size() + 1, 0.0), s2_(y.size() + 1, 0.0) {
    for (std::size_t r = 0; r < y.size(); ++r) {
      double s1 = 0, s2 = 0;
      for (double v : y[r]) {
        s1 += v - centre;
        s2 += (v - centre) * (v - centre);
      }
      n_[r + 1] = n_[r] + y[r].size();
      s1_[r + 1] = s1_[r] + s1;
      s2_[r + 1] = s2_[r] + s2;
    }
  }

  std::size_t builds(std::size_t a, std::size_t b) const { return n_[b] - n_[a]; }
  // Mean of the centred y of revisions [a, b).
  double mean(std::size_t a, std::size_t b) const {
    return (s1_[b] - s1_[a]) / static_cast<double>(builds(a, b));
  }
  // Sum over the builds of revisions [a, b) of (y - segment mean)^2.
  double squares(std::size_t a, std::size_t b) const {
    const double s1 = s1_[b] - s1_[a];
    return std::max(0.0, s2_[b] - s2_[a] - s1 * s1 / static_cast<double>(builds(a, b)));
  }

private:
  std::vector<std::size_t> n_;
  std::vector<double> s1_, s2_;
};

} // namespace

Expected<StepAnalysis> findRevisionSteps(std::span<const std::vector<double>> buildMeans,
                                         const StepOptions &o) {
  if (!(o.confidence > 0 && o.confidence < 1))
    return fail("confidence must lie strictly between 0 and 1");
  if (!(o.threshold >= 0) || !std::isfinite(o.threshold))
    return fail("the step threshold must be a finite number >= 0");
  if (!(o.penaltyPerLogN >= 0) || !std::isfinite(o.penaltyPerLogN))
    return fail("the changepoint penalty must be a finite number >= 0");
  const std::size_t revisions = buildMeans.size();
  if (revisions < 2)
    return fail("finding steps needs at least 2 revisions, got " + std::to_string(revisions));

  // y = log(build mean): a step is then a constant shift, its exp a ratio.
  std::vector<std::vector<double>> y(revisions);
  std::size_t total = 0;
  double sum = 0;
  for (std::size_t r = 0; r < revisions; ++r) {
    if (buildMeans[r].empty())
      return fail(revisionName(r) + " has no build");
    for (double v : buildMeans[r]) {
      if (!std::isfinite(v) || !(v > 0))
        return fail(revisionName(r) + " has a build mean that is not a finite number > 0 (" +
                    std::to_string(v) + ")");
      y[r].push_back(std::log(v));
      sum += y[r].back();
    }
    total += y[r].size();
  }

  // 1. The pooled within-revision variance: the layout (build) noise. Two
  // passes per revision: a step of 10x beside a noise of 1e-6 must not
  // cancel it away.
  StepAnalysis out;
  double within = 0;
  for (const std::vector<double> &builds : y) {
    double mean = 0;
    for (double v : builds)
      mean += v;
    mean /= static_cast<double>(builds.size());
    for (double v : builds)
      within += (v - mean) * (v - mean);
    out.df += builds.size() - 1;
  }
  if (out.df == 0)
    return fail("finding steps needs a revision with at least 2 builds (the within-revision "
                "variance has 0 degrees of freedom)");
  const double variance = within / static_cast<double>(out.df);
  out.sigma = std::sqrt(variance);
  if (!(variance > 0))
    return fail("the builds of every revision have the same mean: there is no layout noise to "
                "judge a step by");

  // 2. Optimal partitioning (Jackson et al. 2005; Killick et al. 2012 eq. 3):
  // F[t] the least penalized cost of revisions [0, t), previous[t] the start
  // of its last segment. F[0] = -beta, so that k segments pay k - 1 penalties.
  const SegmentSums sums(y, sum / static_cast<double>(total));
  const double beta = o.penaltyPerLogN * std::log(static_cast<double>(total));
  std::vector<double> F(revisions + 1, std::numeric_limits<double>::infinity());
  std::vector<std::size_t> previous(revisions + 1, 0);
  F[0] = -beta;
  for (std::size_t t = 1; t <= revisions; ++t)
    for (std::size_t tau = 0; tau < t; ++tau) {
      const double v = F[tau] + sums.squares(tau, t) / variance + beta;
      if (v < F[t]) {
        F[t] = v;
        previous[t] = tau;
      }
    }
  for (std::size_t t = revisions; t > 0; t = previous[t])
    out.segmentStarts.push_back(previous[t]);
  std::reverse(out.segmentStarts.begin(), out.segmentStarts.end());

  // 3. Each boundary: the ratio of the adjacent segments' geometric means and
  // the pooled two-sample t interval (post-selection: see the header).
  const double q = tQuantileTwoSided(o.confidence, static_cast<double>(out.df));
  for (std::size_t i = 1; i < out.segmentStarts.size(); ++i) {
    const std::size_t a = out.segmentStarts[i - 1], at = out.segmentStarts[i];
    const std::size_t b = i + 1 < out.segmentStarts.size() ? out.segmentStarts[i + 1] : revisions;
    const double d = sums.mean(at, b) - sums.mean(a, at);
    const double se = out.sigma * std::sqrt(1.0 / static_cast<double>(sums.builds(a, at)) +
                                            1.0 / static_cast<double>(sums.builds(at, b)));
    RevisionStep step;
    step.at = at;
    step.ratio = std::exp(d);
    step.interval = {std::exp(d - q * se), std::exp(d + q * se)};
    step.decision = decide(step.interval, o.threshold);
    out.steps.push_back(step);
  }
  return out;
}

} // namespace alea::analysis

// Step changes over a series of revisions (for `alea history`): a benchmark
// measured on successive revisions r_0 ... r_{R-1} (oldest first), several
// builds per revision, each a fresh randomized layout. The build is the top
// level of Kalibera & Jones' random-effects model (TR 2012 §6.2, KJ13 eq. 4;
// interval.hpp), so each revision's build means are its independent
// observations. This finds the revisions where the level changed and, for
// each change, the ratio after/before with a confidence interval and a
// threshold decision (decision.hpp). The method, on y = log(build mean), so
// that a step is a ratio (what alea reports) and one constant shift:
//
//  1. Noise. sigma^2 = the pooled within-revision variance of y,
//     sum_r sum_b (y_rb - ybar_r)^2 / df, df = sum_r (n_r - 1): the layout
//     noise of one build, from revisions with 2 or more builds (one with a
//     single build adds nothing), the same for every revision (equal relative
//     noise, as the log scale makes it).
//  2. Segmentation. Exact optimal partitioning of the revisions into segments
//     of constant level (Jackson, Scargle et al. 2005, "An algorithm for
//     optimal partitioning of data on an interval", IEEE Signal Processing
//     Letters 12:105; the recursion that PELT prunes, Killick, Fearnhead &
//     Eckley 2012, JASA 107:1590): F(0) = -beta, F(t) =
//     min_{tau < t} F(tau) + C(tau, t) + beta, over whole revisions (a
//     segment is at least one revision; R is small and the O(R^2) recursion
//     needs no pruning). C(a, b) = sum over every build of revisions a..b-1
//     of (y - ybar_segment)^2 / sigma^2: the normal mean-change cost with
//     known variance (-2 log-likelihood up to a constant), R's
//     changepoint::cpt.mean normal cost
//     (sum x^2 - (sum x)^2 / n, unit variance) on y / sigma. The penalty per
//     changepoint is beta = penaltyPerLogN * log N, N the total number of
//     builds. 2 log N is the Schwarz/BIC penalty for a mean change
//     (changepoint's "SIC"/"BIC", (diffparam + 1) log n with diffparam = 1:
//     the new mean and the location; Killick & Eckley 2014, JSS 58(3)), which
//     Yao (1988, "Estimating the number of change-points via Schwarz'
//     criterion", Stat. & Prob. Letters 6:181) shows consistent for normal
//     means with known variance; cpt.mean's default, MBIC (Zhang & Siegmund
//     2007, Biometrics 63:22), is 3 log n plus a term in the segment lengths.
//     N, not R, because the likelihood is over the builds; a changepoint can
//     only sit at R - 1 revision boundaries, not N - 1, so log N errs on the
//     strict side. What it costs, measured on series at one level with 2.5%
//     layout noise (20,000 seeded series each; revision_steps_test.cpp
//     checks 200): 8 revisions x 4 builds, a spurious step in 7.5% of the series, one
//     decided Faster or Slower (1% threshold) in 3.2%; 8 x 3: 11.6% / 5.7%;
//     8 x 8: 3.2% / 1.0%; 20 x 4: 5.2% / 2.5%. penaltyPerLogN = 3 (MBIC-like)
//     gives 1.9% / 1.6% for 8 x 4 and finds a 5% step at the right revision
//     almost as often (92% against 93%): 3 is the default, because a history
//     is read for the steps it names, and a spurious one sends its reader
//     to a commit that changed nothing.
//  3. Each step (a segment boundary `at`): ratio = exp(ybar_after -
//     ybar_before), the ratio of the geometric means of the build means of
//     the two adjacent segments; interval = exp(d -+ t_{1-alpha/2, df} *
//     sigma * sqrt(1/n_before + 1/n_after)), d = ybar_after - ybar_before,
//     n_ the builds of each segment: the pooled two-sample t interval with
//     the within-revision sigma and its df; decision = decide(interval,
//     threshold).
//
// Caveats, for whoever shows the result:
//  - post-selection: the interval ignores that the changepoint was chosen
//    because the data differ there most; it is the interval a fixed boundary
//    would have, so it is optimistic (too narrow, too far from 1) for a
//    boundary found in the data, most of all for small steps near the
//    penalty. Optimality makes it so: merging the two segments of a step
//    would cost d^2 / se^2 and save beta, so every step found has
//    |d| / se >= sqrt(beta); when that is beyond the t quantile (8
//    revisions x 4 builds, the defaults: 2.63 against 2.06 for df = 24),
//    its interval excludes 1 whatever the truth. Every
//    step found is reported with its decision; a NoChange or Inconclusive
//    step is one the segmentation found and the threshold does not confirm;
//  - the model has no revision-level noise inside a segment: a slow drift,
//    or small changes below the penalty, are absorbed into the segment
//    means, not into sigma.
// Pure function: build means in, steps out.
#pragma once

#include "alea/analysis/decision.hpp"
#include "alea/analysis/interval.hpp"
#include "alea/expected.hpp"

#include <cstddef>
#include <span>
#include <vector>

namespace alea::analysis {

struct StepOptions {
  double confidence = 0.95;  // of each step's interval
  double threshold = 0.01;   // relative, as decide() (decision.hpp)
  double penaltyPerLogN = 3; // beta = penaltyPerLogN * log(total builds): MBIC-like
};

struct RevisionStep {
  std::size_t at = 0; // first revision of the new level (1..R-1): the change is between at-1 and at
  double ratio = 1;   // geometric mean of the build means after / before (adjacent segments)
  Interval interval;  // its t interval (post-selection: optimistic, see above)
  Decision decision = Decision::Inconclusive; // decide(interval, threshold)
};

struct StepAnalysis {
  std::vector<RevisionStep> steps; // in revision order, one per segment boundary
  double sigma = 0;                // pooled within-revision SD of log(build mean)
  std::size_t df = 0;              // its degrees of freedom, sum_r (n_r - 1)
  // The first revision of each segment: 0, then each step's `at`.
  std::vector<std::size_t> segmentStarts;
};

// `buildMeans[r]` holds revision r's build means (oldest revision first).
// Fails, with one sentence, when there are fewer than 2 revisions, a revision
// has no build, a value is not finite or not > 0, no revision has 2 builds
// (df = 0), the builds of every revision are equal (sigma = 0: no noise to
// judge a step by), or an option is out of range (confidence outside (0, 1),
// a negative or non-finite threshold or penalty).
Expected<StepAnalysis> findRevisionSteps(std::span<const std::vector<double>> buildMeans,
                                         const StepOptions &options = {});

} // namespace alea::analysis

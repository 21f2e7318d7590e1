// PELT segmentation and warmup_stats' steady-state classification (see
// changepoint.hpp for the method, its sources and alea's adaptations).
#include "alea/analysis/changepoint.hpp"

#include "alea/analysis/htest.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace alea::analysis {

namespace {

// Prefix sums of the series, centred on its median and divided by its
// magnitude, so that the cost is the same for seconds and nanoseconds and the
// sums of squares do not cancel (values of 1e9 ns differing by 1e3).
class MeanVarCost {
public:
  MeanVarCost(std::span<const double> x, double relativeSdFloor)
      : s1_(x.size() + 1, 0.0), s2_(x.size() + 1, 0.0), floor_(relativeSdFloor * relativeSdFloor) {
    const double centre = median(x);
    double scale = std::abs(centre);
    if (!(scale > 0)) {
      scale = 0;
      for (double v : x)
        scale = std::max(scale, std::abs(v));
      if (!(scale > 0))
        scale = 1;
    }
    for (std::size_t i = 0; i < x.size(); ++i) {
      const double z = (x[i] - centre) / scale;
      s1_[i + 1] = s1_[i] + z;
      s2_[i + 1] = s2_[i] + z * z;
    }
  }

  // -2 log-likelihood of x[a, b) under one normal with the MLE mean and
  // variance, without the terms that sum to the same total for every
  // segmentation (n (log 2 pi + 1)): n log(variance), the variance floored.
  double operator()(std::size_t a, std::size_t b) const {
    const double n = static_cast<double>(b - a);
    const double mean = (s1_[b] - s1_[a]) / n;
    const double var = (s2_[b] - s2_[a]) / n - mean * mean;
    return n * std::log(std::max(var, floor_));
  }

private:
  std::vector<double> s1_, s2_;
  double floor_;
};

Segment describe(std::span<const double> x, std::size_t a, std::size_t b) {
  Segment s;
  s.start = a;
  s.end = b;
  double sum = 0;
  for (std::size_t i = a; i < b; ++i)
    sum += x[i];
  s.mean = sum / static_cast<double>(b - a);
  double ss = 0;
  for (std::size_t i = a; i < b; ++i)
    ss += (x[i] - s.mean) * (x[i] - s.mean);
  s.sd = std::sqrt(ss / static_cast<double>(b - a));
  return s;
}

} // namespace

std::vector<Segment> segmentSeries(std::span<const double> x, const ChangepointOptions &o) {
  const std::size_t n = x.size();
  if (n == 0)
    return {};
  if (n < 3)
    return {describe(x, 0, n)};
  const MeanVarCost cost(x, o.relativeSdFloor);
  const double penalty = o.penaltyPerLogN * std::log(static_cast<double>(n));
  const std::size_t minSegment = std::max<std::size_t>(o.minSegment, 1);
  // The first segment may be one iteration long, the others minSegment.
  const auto shortest = [&](std::size_t tau) { return tau == 0 ? std::size_t{1} : minSegment; };
  constexpr double inf = std::numeric_limits<double>::infinity();
  // Killick et al. 2012, Algorithm 2: F(t) the optimal penalized cost of
  // x[0, t), `previous[t]` the last changepoint of that optimum, `candidates`
  // the pruned set R. F(0) = -penalty so that one segment costs its cost.
  std::vector<double> F(n + 1, inf);
  std::vector<std::size_t> previous(n + 1, 0);
  F[0] = -penalty;
  std::vector<std::size_t> candidates{0}, kept;
  for (std::size_t t = 1; t <= n; ++t) {
    for (std::size_t tau : candidates) {
      if (t - tau < shortest(tau))
        continue;
      const double v = F[tau] + cost(tau, t) + penalty;
      if (v < F[t]) {
        F[t] = v;
        previous[t] = tau;
      }
    }
    // Pruning (K = 0 for a likelihood cost): a candidate that cannot beat
    // F(t) now never will. Candidates still too close to t are kept.
    kept.clear();
    for (std::size_t tau : candidates)
      if (t - tau < shortest(tau) || F[tau] + cost(tau, t) <= F[t])
        kept.push_back(tau);
    candidates.swap(kept);
    if (F[t] < inf)
      candidates.push_back(t);
  }
  std::vector<Segment> out;
  for (std::size_t t = n; t > 0; t = previous[t])
    out.push_back(describe(x, previous[t], t));
  std::reverse(out.begin(), out.end());
  return out;
}

const char *steadyKindName(SteadyKind kind) {
  switch (kind) {
  case SteadyKind::Flat:
    return "flat";
  case SteadyKind::Warmup:
    return "warm-up";
  case SteadyKind::Slowdown:
    return "slowdown";
  case SteadyKind::NoSteadyState:
    return "no steady state";
  }
  return "?";
}

SteadyState classifySteadyState(std::span<const double> x, const ChangepointOptions &o) {
  SteadyState r;
  const std::size_t n = x.size();
  if (n <= o.maxPoints || o.maxPoints == 0) {
    r.segments = segmentSeries(x, o);
  } else {
    // PELT prunes little when changes are few (Killick et al. 2012, §3.1:
    // linear only when changepoints grow with n): segment the means of
    // blocks of b iterations and map the changepoints back, at b-iteration
    // resolution (a warm-up is then rounded up to a whole block).
    const std::size_t b = (n + o.maxPoints - 1) / o.maxPoints;
    std::vector<double> means;
    for (std::size_t i = 0; i < n; i += b) {
      const std::size_t end = std::min(n, i + b);
      double sum = 0;
      for (std::size_t j = i; j < end; ++j)
        sum += x[j];
      means.push_back(sum / static_cast<double>(end - i));
    }
    // Means and SDs stay the blocks': a block that mixes warm-up and steady
    // iterations is one value, not a wide segment that overlaps everything.
    for (Segment s : segmentSeries(means, o)) {
      s.start *= b;
      s.end = std::min(n, s.end * b);
      r.segments.push_back(s);
    }
  }
  r.window = std::max(
      o.minSegment, static_cast<std::size_t>(std::ceil(o.steadyFraction * static_cast<double>(n))));
  r.steadyStart = 0;
  std::size_t m = r.segments.size();
  if (m <= 1)
    return r;
  // A short slower excursion at the very end, after a segment as long as the
  // final window, is interference (other processes only ever slow an
  // iteration down), like an excursion in the middle: the segment before it
  // is the final one. A faster end stays a change (a late end of warm-up).
  {
    const Segment &end = r.segments[m - 1], &before = r.segments[m - 2];
    if (end.end - end.start <= o.maxTransient && end.mean > before.mean &&
        before.end - before.start >= r.window)
      --m;
  }
  if (m <= 1)
    return r;
  const Segment &last = r.segments[m - 1];
  double fastest = last.mean;
  for (const auto &s : r.segments)
    fastest = std::min(fastest, s.mean);
  // warmup_stats: a segment is equivalent to the final one when its interval
  // overlaps the final one's, widened to at least the tolerance delta.
  const double halfWidth = std::max(last.sd, o.delta * std::abs(fastest));
  const double low = last.mean - halfWidth, high = last.mean + halfWidth;
  std::vector<bool> steady(m);
  for (std::size_t i = 0; i < m; ++i)
    steady[i] = r.segments[i].mean + r.segments[i].sd >= low &&
                r.segments[i].mean - r.segments[i].sd <= high;
  // A short excursion between two steady segments is an outlier, not a phase.
  std::vector<bool> counted = steady;
  for (std::size_t i = 1; i + 1 < m; ++i) {
    const Segment &s = r.segments[i];
    if (!steady[i] && s.end - s.start <= o.maxTransient && steady[i - 1] && steady[i + 1])
      counted[i] = true;
  }
  std::optional<std::size_t> latest;
  bool faster = false;
  for (std::size_t i = 0; i + 1 < m; ++i)
    if (!counted[i]) {
      latest = i;
      faster |= r.segments[i].mean < last.mean;
    }
  if (!latest)
    return r; // flat: every segment is the steady state
  const std::size_t end = r.segments[*latest].end;
  if (end > n - r.window) {
    r.kind = SteadyKind::NoSteadyState;
    r.steadyStart.reset();
    return r;
  }
  r.kind = faster ? SteadyKind::Slowdown : SteadyKind::Warmup;
  r.steadyStart = end;
  return r;
}

WarmupSummary summarizeWarmup(std::span<const SteadyState> executions) {
  WarmupSummary s;
  std::vector<double> starts, slowdowns;
  for (const auto &e : executions) {
    ++s.executions;
    switch (e.kind) {
    case SteadyKind::Flat:
      ++s.flat;
      break;
    case SteadyKind::Warmup:
      ++s.warmup;
      break;
    case SteadyKind::Slowdown:
      ++s.slowdown;
      slowdowns.push_back(static_cast<double>(e.steadyStart.value_or(0)));
      continue;
    case SteadyKind::NoSteadyState:
      ++s.noSteadyState;
      continue;
    }
    starts.push_back(static_cast<double>(e.steadyStart.value_or(0)));
    s.longestWarmup = std::max(s.longestWarmup, e.steadyStart.value_or(0));
  }
  if (!starts.empty()) {
    std::sort(starts.begin(), starts.end());
    // Rounded up: a quartile between 3 and 4 iterations drops 4. The
    // tolerance keeps an interpolated 4.0000000001 at 4.
    s.warmupIterations =
        static_cast<std::size_t>(std::ceil(quantileType7Sorted(starts, 0.75) - 1e-9));
  }
  if (!slowdowns.empty())
    s.slowdownMedianAt = static_cast<std::size_t>(median(slowdowns));
  return s;
}

std::string describeCounts(const WarmupSummary &s) {
  return std::to_string(s.flat) + " flat, " + std::to_string(s.warmup) + " warm-up, " +
         std::to_string(s.slowdown) + " slowdown, " + std::to_string(s.noSteadyState) +
         " no steady state";
}

} // namespace alea::analysis

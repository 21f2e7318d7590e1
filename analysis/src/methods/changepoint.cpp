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
  s.values = b - a;
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

const char *steadyKindName(SteadyKind kind) { return enumName(kind); }

namespace {

// The steady state's level plus interferenceFence SDs, both from the shortest
// half of the values, as least median of squares estimates them (Rousseeuw &
// Leroy 1987, Robust Regression and Outlier Detection, for a location: the
// midpoint of the shortest half, and its half-length x 1.4826 x (1 + 5 /
// (n - 1)), the factor that makes the SD right for small normal samples): the
// warm-up and interference are both slow, and together they can be half of a
// short series, which moves the median and the MAD (a first 4 iterations
// 6-20x slower and 5 interrupts in 20); the shortest half is then still the
// steady state. The SD is floored like a segment's, so that ties from a coarse
// clock do not make every step an outlier. Infinite (nothing is above it) for
// fewer than 3 values.
double steadyFence(std::span<const double> x, const ChangepointOptions &o) {
  const std::size_t n = x.size();
  if (n < 3 || !(o.interferenceFence > 0))
    return INFINITY;
  std::vector<double> sorted(x.begin(), x.end());
  std::sort(sorted.begin(), sorted.end());
  const std::size_t h = n / 2 + 1;
  std::size_t lo = 0;
  for (std::size_t i = 1; i + h <= n; ++i)
    if (sorted[i + h - 1] - sorted[i] < sorted[lo + h - 1] - sorted[lo])
      lo = i;
  const double halfLength = (sorted[lo + h - 1] - sorted[lo]) / 2;
  const double centre = sorted[lo] + halfLength;
  const double sd = 1.4826 * (1 + 5.0 / static_cast<double>(n - 1)) * halfLength;
  return centre + o.interferenceFence * std::max(sd, o.relativeSdFloor * std::abs(centre));
}

// Runs of at most maxTransient values above `fence` that do not start at 0.
std::vector<bool> shortRunsAbove(std::span<const double> x, double fence,
                                 const ChangepointOptions &o) {
  const std::size_t n = x.size();
  std::vector<bool> out(n, false);
  for (std::size_t a = 0; a < n;) {
    if (!(x[a] > fence)) {
      ++a;
      continue;
    }
    std::size_t b = a;
    while (b < n && x[b] > fence)
      ++b;
    if (a > 0 && b - a <= o.maxTransient)
      for (std::size_t i = a; i < b; ++i)
        out[i] = true;
    a = b;
  }
  return out;
}

} // namespace

std::vector<bool> interference(std::span<const double> x, const ChangepointOptions &o) {
  return shortRunsAbove(x, steadyFence(x, o), o);
}

SteadyState classifySteadyState(std::span<const double> x, const ChangepointOptions &o) {
  SteadyState r;
  const std::size_t n = x.size();
  // Interference left out of the segmentation (warmup_stats removes outliers
  // first too): `kept` maps an index of `y` to the iteration's, with n at the
  // end. A removed iteration belongs to the segment before it.
  const double fence = steadyFence(x, o);
  const std::vector<bool> removed = shortRunsAbove(x, fence, o);
  std::vector<double> y;
  std::vector<std::size_t> kept;
  for (std::size_t i = 0; i < n; ++i)
    if (!removed[i]) {
      y.push_back(x[i]);
      kept.push_back(i);
    }
  kept.push_back(n);
  r.interference = n - y.size();
  const auto original = [&](Segment s) {
    s.start = s.start == 0 ? 0 : kept[s.start];
    s.end = kept[s.end];
    return s;
  };
  const std::size_t m0 = y.size();
  const bool blocks = m0 > o.maxPoints && o.maxPoints > 0;
  if (!blocks) {
    for (const Segment &s : segmentSeries(y, o))
      r.segments.push_back(original(s));
  } else {
    // PELT prunes little when changes are few (Killick et al. 2012, §3.1:
    // linear only when changepoints grow with n): segment the means of
    // blocks of b iterations and map the changepoints back, at b-iteration
    // resolution (a warm-up is then rounded up to a whole block).
    const std::size_t b = (m0 + o.maxPoints - 1) / o.maxPoints;
    std::vector<double> means;
    for (std::size_t i = 0; i < m0; i += b) {
      const std::size_t end = std::min(m0, i + b);
      double sum = 0;
      for (std::size_t j = i; j < end; ++j)
        sum += y[j];
      means.push_back(sum / static_cast<double>(end - i));
    }
    // Means and SDs stay the blocks': a block that mixes warm-up and steady
    // iterations is one value, not a wide segment that overlaps everything.
    for (Segment s : segmentSeries(means, o)) {
      s.start *= b;
      s.end = std::min(m0, s.end * b);
      r.segments.push_back(original(s));
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
  // overlaps the final one's, widened to at least the tolerance delta. The
  // final one's is its mean +- SD, the steady state's own noise; another's is
  // its mean +- its standard error, how well its level is known: its SD says
  // how much its iterations differ, and a warm-up's differ by nature (the
  // first 4 iterations 6-20x slower in one execution), so that an SD as
  // large as the mean reached the steady state and the warm-up was "flat".
  const double halfWidth = std::max(last.sd, o.delta * std::abs(fastest));
  const double low = last.mean - halfWidth, high = last.mean + halfWidth;
  std::vector<bool> steady(m);
  for (std::size_t i = 0; i < m; ++i) {
    const Segment &g = r.segments[i];
    const double n = static_cast<double>(std::max<std::size_t>(g.values, 1));
    const double se = i + 1 == m ? g.sd : g.sd / std::sqrt(n);
    steady[i] = g.mean + se >= low && g.mean - se <= high;
  }
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
  // A slower segment's last iterations that lie within the steady state's
  // noise (not above the final segment's mean + interferenceFence SDs) are
  // steady: the mean-and-variance likelihood leaves a borderline iteration
  // in the wider segment (a warm-up of 6-20x takes in a steady iteration
  // 1.3x the median).
  std::size_t end = r.segments[*latest].end;
  const double noise =
      last.mean + o.interferenceFence * std::max(last.sd, o.relativeSdFloor * std::abs(last.mean));
  if (r.segments[*latest].mean > last.mean && !blocks)
    while (end > r.segments[*latest].start + 1 && (removed[end - 1] || !(x[end - 1] > noise)))
      --end;
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
  std::vector<double> slowdowns;
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
    // Every execution that reaches a steady state is steady after the
    // warm-up dropped: the latest start (changepoint.hpp, WarmupSummary).
    s.warmupIterations = std::max(s.warmupIterations, e.steadyStart.value_or(0));
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

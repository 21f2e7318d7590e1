// Hierarchical percentile bootstrap (Kalibera & Jones TR 2012 §6.2, Figs. 1
// and 2; spec_000 §3.2, §4.4 and §9.11; Davison & Hinkley 1997 §3.8 for
// multi-stage resampling). One replicate resamples the data top-down, redrawing
// the children of every selected parent occurrence afresh, and records the
// mean (or the ratio candidate/baseline of two independently resampled means).
//
// Speed: the per-replicate work is exactly the index draws of the scheme plus
// one load and add per drawn lowest-level value; nothing is allocated per
// replicate. Levels resampled WITHOUT replacement at the bottom of the
// hierarchy (RRN, RNN) collapse to precomputed unit sums of the level above, so
// RRN draws no index per measurement and RNN only one per top-level unit.
// Replicate r uses alea::Rng(alea::mixSeed(seed, r)), so the result does not
// depend on how replicates are split across threads. The paired ratio
// (bootstrapPairedRatio) draws top-level PAIR indices, one draw for both
// systems, then resamples below each selected unit with the same resampler.
#include "alea/analysis/bootstrap.hpp"

#include "alea/random.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <thread>

namespace alea::analysis {

// --- schemes ---------------------------------------------------------------

std::vector<bool> ResamplingScheme::replacementFor(std::size_t depth) const {
  std::vector<bool> out(depth, true);
  switch (kind) {
  case Kind::RRR:
  case Kind::Flat:
    break;
  case Kind::RRN:
    if (depth > 1)
      out[depth - 1] = false;
    break;
  case Kind::RNN:
    for (std::size_t k = 1; k < depth; ++k)
      out[k] = false;
    break;
  case Kind::Custom:
    out = replace;
    break;
  }
  return out;
}

Expected<ResamplingScheme> ResamplingScheme::parse(std::string_view text) {
  std::string upper;
  for (char c : text)
    upper.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
  ResamplingScheme s;
  if (upper == "RRR")
    s.kind = Kind::RRR;
  else if (upper == "RRN")
    s.kind = Kind::RRN;
  else if (upper == "RNN")
    s.kind = Kind::RNN;
  else if (upper == "FLAT")
    s.kind = Kind::Flat;
  else {
    if (upper.empty() || upper.find_first_not_of("RN") != std::string::npos)
      return fail("unknown resampling scheme '" + std::string(text) +
                  "' (expected RRR, RRN, RNN, FLAT or one R/N letter per level)");
    s.kind = Kind::Custom;
    for (char c : upper)
      s.replace.push_back(c == 'R');
  }
  return s;
}

std::string ResamplingScheme::name() const {
  switch (kind) {
  case Kind::RRR:
    return "RRR";
  case Kind::RRN:
    return "RRN";
  case Kind::RNN:
    return "RNN";
  case Kind::Flat:
    return "FLAT";
  case Kind::Custom: {
    std::string out;
    for (bool r : replace)
      out.push_back(r ? 'R' : 'N');
    return out;
  }
  }
  return "RRR";
}

// --- the resampler ------------------------------------------------------------

namespace {

// One system prepared for resampling: the trailing levels kept intact are
// collapsed into the sums of the units above them, so the last prepared level
// (if any) is always resampled with replacement.
struct Prepared {
  std::vector<std::size_t> shape; // levels that remain, highest first
  std::vector<unsigned char> replace;
  std::vector<double> leaves; // values, or unit sums of the last level
  double constantSum = 0;     // used when every level is kept intact
  double count = 0;           // number of original values (divisor)
};

Prepared prepare(const Hierarchy &h, const std::vector<bool> &replace, bool flat) {
  Prepared p;
  p.count = static_cast<double>(h.values.size());
  if (flat) {
    p.shape = {h.values.size()};
    p.replace = {1};
    p.leaves = h.values;
    return p;
  }
  std::size_t keep = h.depth();
  while (keep > 0 && !replace[keep - 1])
    --keep;
  if (keep == 0) {
    for (double v : h.values)
      p.constantSum += v;
    return p;
  }
  p.shape.assign(h.shape.begin(), h.shape.begin() + static_cast<std::ptrdiff_t>(keep));
  for (std::size_t k = 0; k < keep; ++k)
    p.replace.push_back(replace[k] ? 1 : 0);
  const std::size_t per = h.valuesPerUnit(keep - 1);
  const std::size_t units = h.unitCount(keep - 1);
  if (per == 1) {
    p.leaves = h.values;
  } else {
    p.leaves.resize(units);
    for (std::size_t u = 0; u < units; ++u) {
      double sum = 0;
      for (std::size_t i = 0; i < per; ++i)
        sum += h.values[u * per + i];
      p.leaves[u] = sum;
    }
  }
  return p;
}

// Sum of the resampled leaves under unit `parent` of level `level - 1` (the
// root for level 0). `draw(level, bound)` returns an index in [0, bound).
// Recursion is per unit; the innermost loop is one draw, one load and one add
// per leaf, with two accumulators so the additions do not serialise the loop.
template <typename Draw>
double sumChildren(const Prepared &p, std::size_t level, std::size_t parent, Draw &draw) {
  const std::size_t n = p.shape[level];
  const std::size_t base = parent * n;
  if (level + 1 == p.shape.size()) {
    const double *leaf = p.leaves.data() + base;
    double even = 0, odd = 0;
    std::size_t j = 0;
    for (; j + 1 < n; j += 2) {
      even += leaf[draw(level, n)];
      odd += leaf[draw(level, n)];
    }
    if (j < n)
      even += leaf[draw(level, n)];
    return even + odd;
  }
  double sum = 0;
  if (p.replace[level]) {
    for (std::size_t j = 0; j < n; ++j)
      sum += sumChildren(p, level + 1, base + draw(level, n), draw);
  } else {
    for (std::size_t j = 0; j < n; ++j)
      sum += sumChildren(p, level + 1, base + j, draw);
  }
  return sum;
}

template <typename Draw> double resampledMean(const Prepared &p, Draw &draw) {
  if (p.shape.empty())
    return p.constantSum / p.count;
  return sumChildren(p, 0, 0, draw) / p.count;
}

// Sum of the resampled values under top-level unit `unit` of a prepared
// system whose top level remains (the unit's own sum when the top is the only
// prepared level): the paired bootstrap picks the top-level unit itself and
// lets the resampler draw everything below it as usual.
template <typename Draw> double unitSum(const Prepared &p, std::size_t unit, Draw &draw) {
  if (p.shape.size() == 1)
    return p.leaves[unit];
  return sumChildren(p, 1, unit, draw);
}

// The production draw source: Lemire's bounded draw on xoshiro256**.
struct RngDraw {
  Rng &rng;
  std::size_t operator()(std::size_t /*level*/, std::size_t bound) {
    return static_cast<std::size_t>(rng.below(bound));
  }
};

std::string checkOptions(const BootstrapOptions &o) {
  if (o.replicates < 2 || (o.replicates < 1000 && !o.allowFewReplicates))
    return "the bootstrap needs at least 1000 replicates (got " + std::to_string(o.replicates) +
           ")";
  if (!(o.confidence > 0 && o.confidence < 1))
    return "confidence must lie strictly between 0 and 1";
  return {};
}

std::string checkScheme(const BootstrapOptions &o, const Hierarchy &h) {
  if (o.scheme.kind == ResamplingScheme::Kind::Custom && o.scheme.replace.size() != h.depth())
    return "resampling scheme '" + o.scheme.name() + "' has " +
           std::to_string(o.scheme.replace.size()) + " letters for data with " +
           std::to_string(h.depth()) + " levels";
  return {};
}

unsigned threadCount(const BootstrapOptions &o) {
  unsigned t = o.threads ? o.threads : std::thread::hardware_concurrency();
  if (t == 0)
    t = 1;
  return static_cast<unsigned>(std::min<std::size_t>(t, o.replicates));
}

// Runs fn(r) for r in [0, B) over the threads in contiguous blocks.
template <typename Fn> void forEachReplicate(std::size_t replicates, unsigned threads, Fn fn) {
  if (threads <= 1) {
    for (std::size_t r = 0; r < replicates; ++r)
      fn(r);
    return;
  }
  std::vector<std::thread> pool;
  pool.reserve(threads);
  for (unsigned t = 0; t < threads; ++t) {
    const std::size_t begin = replicates * t / threads;
    const std::size_t end = replicates * (t + 1) / threads;
    pool.emplace_back([begin, end, &fn] {
      for (std::size_t r = begin; r < end; ++r)
        fn(r);
    });
  }
  for (std::thread &th : pool)
    th.join();
}

BootstrapResult finish(std::vector<double> &replicates, const BootstrapOptions &o,
                       double estimate) {
  BootstrapResult out;
  out.estimate = estimate;
  out.confidence = o.confidence;
  out.replicates = replicates.size();
  out.scheme = o.scheme.name();
  for (double v : replicates)
    if (std::isinf(v))
      ++out.infiniteReplicates;
  if (o.keepReplicates) {
    out.replicateValues = replicates; // replicate order, before sorting
  }
  out.interval = percentileInterval(replicates, o.confidence, o.quantileRule);
  return out;
}

// A rank like B * alpha / 2 that should be an integer may come out as
// 25.000000000000004 or 974.9999999999999: snap such values before floor/ceil.
double snapRank(double x) {
  const double r = std::round(x);
  return std::fabs(x - r) < 1e-9 * std::max(1.0, std::fabs(x)) ? r : x;
}

} // namespace

Interval percentileInterval(std::vector<double> &values, double confidence, QuantileRule rule) {
  std::sort(values.begin(), values.end());
  const std::size_t b = values.size();
  if (b == 0)
    return {};
  const double alpha = 1.0 - confidence;
  if (rule == QuantileRule::PaperOrderStatistic) {
    // k = B alpha/2 and B (1 - alpha/2), 1-based (spec_000 §9.11): floor for
    // the lower and ceil for the upper rank when they are not integers, so
    // the interval never gets narrower than the paper's.
    const double lowRank = std::floor(snapRank(static_cast<double>(b) * alpha / 2));
    const double highRank = std::ceil(snapRank(static_cast<double>(b) * (1 - alpha / 2)));
    const std::size_t lo = static_cast<std::size_t>(std::clamp(lowRank, 1.0, double(b)));
    const std::size_t hi = static_cast<std::size_t>(std::clamp(highRank, 1.0, double(b)));
    return {values[lo - 1], values[hi - 1]};
  }
  // R quantile type 7 (Hyndman & Fan 1996, definition 7).
  auto type7 = [&](double prob) {
    const double h = (static_cast<double>(b) - 1) * prob;
    const std::size_t j = static_cast<std::size_t>(std::floor(h));
    if (j + 1 >= b)
      return values[b - 1];
    const double lo = values[j], hi = values[j + 1];
    return std::isinf(hi) || std::isinf(lo) ? (h - j == 0 ? lo : hi) : lo + (h - j) * (hi - lo);
  };
  return {type7(alpha / 2), type7(1 - alpha / 2)};
}

Expected<BootstrapResult> bootstrapMean(const Hierarchy &h, const BootstrapOptions &o) {
  if (std::string problem = validateHierarchy(h); !problem.empty())
    return fail(std::move(problem));
  if (std::string problem = checkOptions(o); !problem.empty())
    return fail(std::move(problem));
  if (std::string problem = checkScheme(o, h); !problem.empty())
    return fail(std::move(problem));
  const bool flat = o.scheme.kind == ResamplingScheme::Kind::Flat;
  const Prepared p = prepare(h, o.scheme.replacementFor(h.depth()), flat);

  std::vector<double> reps(o.replicates);
  forEachReplicate(o.replicates, threadCount(o), [&](std::size_t r) {
    Rng rng(mixSeed(o.seed, static_cast<std::uint64_t>(r)));
    RngDraw draw{rng};
    reps[r] = resampledMean(p, draw);
  });
  return finish(reps, o, h.grandMean());
}

namespace {
// What both ratio bootstraps check first: valid hierarchies, a scheme that
// fits them, sound options. "" when all is well.
std::string checkRatioInputs(const Hierarchy &candidate, const Hierarchy &baseline,
                             const BootstrapOptions &o) {
  for (const Hierarchy *h : {&candidate, &baseline}) {
    if (std::string problem = validateHierarchy(*h); !problem.empty())
      return problem;
    if (std::string problem = checkScheme(o, *h); !problem.empty())
      return problem;
  }
  return checkOptions(o);
}
} // namespace

Expected<BootstrapResult> bootstrapRatio(const Hierarchy &candidate, const Hierarchy &baseline,
                                         const BootstrapOptions &o) {
  if (std::string problem = checkRatioInputs(candidate, baseline, o); !problem.empty())
    return fail(std::move(problem));
  const bool flat = o.scheme.kind == ResamplingScheme::Kind::Flat;
  if (!flat && candidate.depth() != baseline.depth())
    return fail("the two systems have different numbers of levels (" +
                std::to_string(candidate.depth()) + " and " + std::to_string(baseline.depth()) +
                ")");
  const Prepared pc = prepare(candidate, o.scheme.replacementFor(candidate.depth()), flat);
  const Prepared pb = prepare(baseline, o.scheme.replacementFor(baseline.depth()), flat);

  std::vector<double> reps(o.replicates);
  forEachReplicate(o.replicates, threadCount(o), [&](std::size_t r) {
    Rng rng(mixSeed(o.seed, static_cast<std::uint64_t>(r)));
    RngDraw draw{rng};
    const double num = resampledMean(pc, draw); // candidate first, then baseline
    const double den = resampledMean(pb, draw);
    reps[r] = den != 0 ? num / den : std::numeric_limits<double>::infinity();
  });
  const double gb = baseline.grandMean();
  const double estimate =
      gb != 0 ? candidate.grandMean() / gb : std::numeric_limits<double>::infinity();
  return finish(reps, o, estimate);
}

Expected<BootstrapResult> bootstrapPairedRatio(const Hierarchy &candidate,
                                               const Hierarchy &baseline,
                                               const BootstrapOptions &o) {
  if (std::string problem = checkRatioInputs(candidate, baseline, o); !problem.empty())
    return fail(std::move(problem));
  if (o.scheme.kind == ResamplingScheme::Kind::Flat)
    return fail("the FLAT scheme ignores the top-level units and cannot keep pairs together");
  if (candidate.depth() != baseline.depth())
    return fail("the two systems have different numbers of levels (" +
                std::to_string(candidate.depth()) + " and " + std::to_string(baseline.depth()) +
                ")");
  if (candidate.topCount() != baseline.topCount())
    return fail("paired systems need the same number of top-level units (" +
                std::to_string(candidate.topCount()) + " and " +
                std::to_string(baseline.topCount()) + ")");
  const Prepared pc = prepare(candidate, o.scheme.replacementFor(candidate.depth()), false);
  const Prepared pb = prepare(baseline, o.scheme.replacementFor(baseline.depth()), false);

  const std::size_t n = candidate.topCount();
  std::vector<double> reps(o.replicates);
  forEachReplicate(o.replicates, threadCount(o), [&](std::size_t r) {
    Rng rng(mixSeed(o.seed, static_cast<std::uint64_t>(r)));
    RngDraw draw{rng};
    double num = 0, den = 0;
    if (pc.shape.empty()) { // every level kept intact (a Custom all-N scheme)
      num = resampledMean(pc, draw);
      den = resampledMean(pb, draw);
    } else {
      // One draw picks pair i for both systems; below it each system's
      // children are drawn independently (candidate first) as in
      // bootstrapRatio(). A top level without replacement takes every pair.
      double sc = 0, sb = 0;
      for (std::size_t j = 0; j < n; ++j) {
        const std::size_t i = pc.replace[0] ? draw(0, n) : j;
        sc += unitSum(pc, i, draw);
        sb += unitSum(pb, i, draw);
      }
      num = sc / pc.count;
      den = sb / pb.count;
    }
    reps[r] = den != 0 ? num / den : std::numeric_limits<double>::infinity();
  });
  const double gb = baseline.grandMean();
  const double estimate =
      gb != 0 ? candidate.grandMean() / gb : std::numeric_limits<double>::infinity();
  return finish(reps, o, estimate);
}

double resampledMeanWith(const Hierarchy &h, const std::vector<bool> &replace,
                         const std::function<std::size_t(std::size_t, std::size_t)> &draw) {
  // Exactly the fast resampler (same preparation, draw order and summation
  // order) with the draws injected.
  const Prepared p = prepare(h, replace, false);
  auto source = [&draw](std::size_t level, std::size_t bound) { return draw(level, bound); };
  return resampledMean(p, source);
}

} // namespace alea::analysis

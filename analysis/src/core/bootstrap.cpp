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
// depend on how replicates are split across threads. With AVX-512 or AVX2 the
// replicates run 8 or 4 at a time, one per SIMD lane (bootstrap_lanes.inc):
// the same draws and additions in the same order, so the same bits, about 3x
// faster (under RRR the draws are the work: 2000 replicates of a million
// measurements are 2e9 draws). The paired ratio
// (bootstrapPairedRatio) draws top-level PAIR indices, one draw for both
// systems, then resamples below each selected unit with the same resampler.
#include "alea/analysis/bootstrap.hpp"

#include "alea/enum_names.hpp"
#include "alea/random.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <thread>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define ALEA_BOOTSTRAP_LANES 1
#include <immintrin.h>
#else
#define ALEA_BOOTSTRAP_LANES 0
#endif

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
  if (auto kind = parseEnum<Kind>(upper); kind && *kind != Kind::Custom)
    s.kind = *kind;
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
  if (kind != Kind::Custom)
    return enumName(kind);
  std::string out;
  for (bool r : replace)
    out.push_back(r ? 'R' : 'N');
  return out;
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

// A ratio replicate: +infinity when the resampled baseline mean is 0 (as in
// libkalibera).
double ratioOf(double num, double den) {
  return den != 0 ? num / den : std::numeric_limits<double>::infinity();
}

// --- the lanes' scalar parts ---------------------------------------------------
// The SIMD lanes keep alea::Rng's state as words: Rng::seedState and Rng::step
// seed and step it; this is the rest of its below() on an explicit state
// (Lemire's rejection), checked against alea::Rng by bootstrapSelfCheck().

void seedXoshiro(std::uint64_t seed, std::uint64_t (&state)[4]) { Rng::seedState(seed, state); }

std::uint64_t xoshiroNext(std::uint64_t (&s)[4]) { return Rng::step(s); }

// Rng::below(bound) after its first output x: the high word of x * bound,
// redrawing while the low word falls below 2^64 mod bound.
std::uint64_t finishBelow(std::uint64_t (&state)[4], std::uint64_t x, std::uint64_t bound) {
  __uint128_t m = static_cast<__uint128_t>(x) * bound;
  std::uint64_t low = static_cast<std::uint64_t>(m);
  if (low < bound) {
    const std::uint64_t threshold = (0 - bound) % bound;
    while (low < threshold) {
      x = xoshiroNext(state);
      m = static_cast<__uint128_t>(x) * bound;
      low = static_cast<std::uint64_t>(m);
    }
  }
  return static_cast<std::uint64_t>(m >> 64);
}

} // namespace
} // namespace alea::analysis

// --- the lanes, once per instruction set --------------------------------------
// bootstrap_lanes.inc holds the resampler over vector operations `Ops`; it is
// compiled once for AVX2 (4 lanes) and once for AVX-512F (8 lanes), each in a
// region where the compiler may use that set, and only called after the CPU
// was found to have it (lanesOf()). The integer operations are xoshiro's
// shifts, xors and adds and two 32 x 32 -> 64 multiplies; the one floating-
// point operation is the addition, so the lanes round exactly as the scalar
// code does.
#if ALEA_BOOTSTRAP_LANES

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2")
#endif
namespace alea::analysis::avx2 {
namespace {
struct Ops {
  static constexpr std::size_t kWidth = 4;
  using U = __m256i;
  using D = __m256d;
  static U load(const std::uint64_t *p) {
    return _mm256_loadu_si256(reinterpret_cast<const __m256i *>(p));
  }
  static void store(std::uint64_t *p, U v) {
    _mm256_storeu_si256(reinterpret_cast<__m256i *>(p), v);
  }
  static U splat(std::uint64_t v) { return _mm256_set1_epi64x(static_cast<long long>(v)); }
  static U add(U a, U b) { return _mm256_add_epi64(a, b); }
  static U bitXor(U a, U b) { return _mm256_xor_si256(a, b); }
  template <int K> static U shl(U a) { return _mm256_slli_epi64(a, K); }
  template <int K> static U shr(U a) { return _mm256_srli_epi64(a, K); }
  template <int K> static U rotl(U a) { return _mm256_or_si256(shl<K>(a), shr<64 - K>(a)); }
  // The low 32 bits of each lane of a times those of b, as 64-bit products.
  static U mul32(U a, U b) { return _mm256_mul_epu32(a, b); }
  // A bit per lane whose low 32 bits are 0.
  static unsigned zeroLow32(U a) {
    const U zero =
        _mm256_cmpeq_epi64(_mm256_and_si256(a, splat(0xffffffffULL)), _mm256_setzero_si256());
    return static_cast<unsigned>(_mm256_movemask_pd(_mm256_castsi256_pd(zero)));
  }
  static D zero() { return _mm256_setzero_pd(); }
  static D addD(D a, D b) { return _mm256_add_pd(a, b); }
  static D gather(const double *base, U index) { return _mm256_i64gather_pd(base, index, 8); }
  static void storeD(double *p, D v) { _mm256_storeu_pd(p, v); }
};
#include "bootstrap_lanes.inc"
} // namespace
} // namespace alea::analysis::avx2
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx512f"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx512f")
// GCC 12's AVX-512 headers trip its own -Wmaybe-uninitialized at -O3 (their
// _mm512_undefined_* placeholders; GCC bug 105593, fixed in 12.3).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
namespace alea::analysis::avx512 {
namespace {
struct Ops {
  static constexpr std::size_t kWidth = 8;
  using U = __m512i;
  using D = __m512d;
  static U load(const std::uint64_t *p) { return _mm512_loadu_si512(p); }
  static void store(std::uint64_t *p, U v) { _mm512_storeu_si512(p, v); }
  static U splat(std::uint64_t v) { return _mm512_set1_epi64(static_cast<long long>(v)); }
  static U add(U a, U b) { return _mm512_add_epi64(a, b); }
  static U bitXor(U a, U b) { return _mm512_xor_si512(a, b); }
  template <int K> static U shl(U a) { return _mm512_slli_epi64(a, K); }
  template <int K> static U shr(U a) { return _mm512_srli_epi64(a, K); }
  template <int K> static U rotl(U a) { return _mm512_rol_epi64(a, K); }
  static U mul32(U a, U b) { return _mm512_mul_epu32(a, b); }
  static unsigned zeroLow32(U a) {
    return static_cast<unsigned>(_mm512_testn_epi64_mask(a, splat(0xffffffffULL)));
  }
  static D zero() { return _mm512_setzero_pd(); }
  static D addD(D a, D b) { return _mm512_add_pd(a, b); }
  static D gather(const double *base, U index) { return _mm512_i64gather_pd(index, base, 8); }
  static void storeD(double *p, D v) { _mm512_storeu_pd(p, v); }
};
#include "bootstrap_lanes.inc"
} // namespace
} // namespace alea::analysis::avx512
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC diagnostic pop
#pragma GCC pop_options
#endif

#endif // ALEA_BOOTSTRAP_LANES

namespace alea::analysis {
namespace {

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

// Runs fn(begin, end) over [0, B) split into one contiguous range per thread.
template <typename Fn> void forEachRange(std::size_t replicates, unsigned threads, Fn fn) {
  if (threads <= 1) {
    fn(std::size_t{0}, replicates);
    return;
  }
  std::vector<std::thread> pool;
  pool.reserve(threads);
  for (unsigned t = 0; t < threads; ++t) {
    const std::size_t begin = replicates * t / threads;
    const std::size_t end = replicates * (t + 1) / threads;
    pool.emplace_back([begin, end, &fn] { fn(begin, end); });
  }
  for (std::thread &th : pool)
    th.join();
}

// --- one replicate, scalar; and W of them, one per lane -------------------------

// The statistic a bootstrap resamples, with its prepared systems.
struct Job {
  enum Kind { Mean, Ratio, Paired } kind = Mean;
  const Prepared *a = nullptr; // the system, or the candidate
  const Prepared *b = nullptr; // the baseline of a ratio
  std::uint64_t seed = 0;
};

// Replicate r, scalar: the reference every lane reproduces.
double replicate(const Job &job, std::size_t r) {
  Rng rng(mixSeed(job.seed, static_cast<std::uint64_t>(r)));
  RngDraw draw{rng};
  const Prepared &pa = *job.a;
  if (job.kind == Job::Mean)
    return resampledMean(pa, draw);
  const Prepared &pb = *job.b;
  if (job.kind == Job::Ratio || pa.shape.empty()) {
    // (a paired Custom all-N scheme keeps every level intact: no pairs to draw)
    const double num = resampledMean(pa, draw); // candidate first, then baseline
    const double den = resampledMean(pb, draw);
    return ratioOf(num, den);
  }
  // One draw picks pair i for both systems; below it each system's children
  // are drawn independently (candidate first) as in bootstrapRatio(). A top
  // level without replacement takes every pair.
  const std::size_t n = pa.shape[0];
  double sc = 0, sb = 0;
  for (std::size_t j = 0; j < n; ++j) {
    const std::size_t i = pa.replace[0] ? draw(0, n) : j;
    sc += unitSum(pa, i, draw);
    sb += unitSum(pb, i, draw);
  }
  return ratioOf(sc / pa.count, sb / pb.count);
}

// The SIMD lanes this CPU offers, and how bootstrapLanes() says them.
#define ALEA_LANE_SETS(X)                                                                          \
  X(None, "scalar, 1 replicate at a time")                                                         \
  X(Avx2, "AVX2, 4 replicates at a time")                                                          \
  X(Avx512, "AVX-512F, 8 replicates at a time")
enum class LaneSet { ALEA_LANE_SETS(ALEA_ENUMERATOR) };
ALEA_ENUM_NAMES(LaneSet, ALEA_LANE_SETS);

LaneSet cpuLanes() {
#if ALEA_BOOTSTRAP_LANES
  static const LaneSet set = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") ? LaneSet::Avx512
           : __builtin_cpu_supports("avx2")  ? LaneSet::Avx2
                                             : LaneSet::None;
  }();
  return set;
#else
  return LaneSet::None;
#endif
}

std::size_t widthOf(LaneSet set) {
  return set == LaneSet::Avx512 ? 8 : set == LaneSet::Avx2 ? 4 : 1;
}

// The lanes a job can use: a system kept intact at every level draws nothing
// (the scalar path is as fast), and a draw in the lanes needs bounds and unit
// indices below 2^32.
LaneSet lanesFor(const Job &job, LaneSet set) {
  for (const Prepared *p : {job.a, job.b})
    if (p && (p->shape.empty() || p->leaves.size() > 0xffffffffULL))
      return LaneSet::None;
  return set;
}

// Replicates first .. first + widthOf(set) - 1 into out[0 ..].
void laneBlock(LaneSet set, const Job &job, std::size_t first, double *out) {
#if ALEA_BOOTSTRAP_LANES
  if (set == LaneSet::Avx512) {
    if (job.kind == Job::Mean)
      avx512::meanBlock(*job.a, job.seed, first, out);
    else if (job.kind == Job::Ratio)
      avx512::ratioBlock(*job.a, *job.b, job.seed, first, out);
    else
      avx512::pairedBlock(*job.a, *job.b, job.seed, first, out);
    return;
  }
  if (set == LaneSet::Avx2) {
    if (job.kind == Job::Mean)
      avx2::meanBlock(*job.a, job.seed, first, out);
    else if (job.kind == Job::Ratio)
      avx2::ratioBlock(*job.a, *job.b, job.seed, first, out);
    else
      avx2::pairedBlock(*job.a, *job.b, job.seed, first, out);
    return;
  }
#endif
  for (std::size_t l = 0; l < widthOf(set); ++l)
    out[l] = replicate(job, first + l);
}

// Every replicate of a job, over the threads: whole blocks in the lanes, the
// few left over at the end of a thread's range one by one.
std::vector<double> replicates(const Job &job, const BootstrapOptions &o,
                               LaneSet set = cpuLanes()) {
  std::vector<double> reps(o.replicates);
  set = lanesFor(job, set);
  const std::size_t width = widthOf(set);
  forEachRange(o.replicates, threadCount(o), [&](std::size_t begin, std::size_t end) {
    std::size_t r = begin;
    if (width > 1)
      for (; r + width <= end; r += width)
        laneBlock(set, job, r, reps.data() + r);
    for (; r < end; ++r)
      reps[r] = replicate(job, r);
  });
  return reps;
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

void widenReplicates(BootstrapResult &result, double varianceFactor) {
  const double center = result.estimate;
  if (!(varianceFactor > 1) || !(center > 0) || !std::isfinite(center))
    return;
  const double k = std::sqrt(varianceFactor);
  // On the log scale, where a ratio's replicates stay positive: a monotone map,
  // so the percentile interval of the mapped replicates is the mapped interval
  // (0 and infinity, a replicate's zero mean, stay where they are).
  const auto widen = [&](double v) { return center * std::pow(v / center, k); };
  result.interval = {widen(result.interval.lower), widen(result.interval.upper)};
  for (double &v : result.replicateValues)
    v = widen(v);
}

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

  std::vector<double> reps = replicates({Job::Mean, &p, nullptr, o.seed}, o);
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

  std::vector<double> reps = replicates({Job::Ratio, &pc, &pb, o.seed}, o);
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

  std::vector<double> reps = replicates({Job::Paired, &pc, &pb, o.seed}, o);
  const double gb = baseline.grandMean();
  const double estimate =
      gb != 0 ? candidate.grandMean() / gb : std::numeric_limits<double>::infinity();
  return finish(reps, o, estimate);
}

const char *bootstrapLanes() { return enumName(cpuLanes()); }

namespace {

// The multiplicative inverse of an odd number modulo 2^64 (Newton: each step
// doubles the correct low bits, from 3 bits at x itself).
std::uint64_t inverseOdd(std::uint64_t x) {
  std::uint64_t inv = x;
  for (int i = 0; i < 5; ++i)
    inv *= 2 - x * inv;
  return inv;
}

// A state whose next xoshiro256** output is x (the output depends on s[1]
// only: x = rotl(s1 * 5, 7) * 9), the other words from `rng`.
void stateOutputting(std::uint64_t x, Rng &rng, std::uint64_t (&state)[4]) {
  for (auto &word : state)
    word = rng();
  const std::uint64_t r = x * inverseOdd(9);
  state[1] = ((r >> 7) | (r << 57)) * inverseOdd(5);
}

std::string hex(std::uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

#if ALEA_BOOTSTRAP_LANES
// Lanes of `set` against the scalar draws: crafted first outputs 0 (Lemire
// rejects it for every bound but a power of two), 1 (low word = bound: looked
// at, accepted) and 2^32, then ordinary draws.
std::string checkLaneDraws(LaneSet set) {
  constexpr std::size_t kDraws = 6;
  Rng rng(0x5e1fULL);
  for (std::uint64_t bound : {1ULL, 2ULL, 3ULL, 7ULL, 500ULL, 1000003ULL, 0xffffffffULL}) {
    const std::size_t w = widthOf(set);
    std::uint64_t states[8][4];
    for (std::size_t l = 0; l < w; ++l)
      stateOutputting(l % 4 == 0   ? 0
                      : l % 4 == 1 ? 1
                      : l % 4 == 2 ? 1ULL << 32
                                   : rng(),
                      rng, states[l]);
    std::uint64_t lanes[kDraws * 8];
    if (set == LaneSet::Avx512)
      avx512::drawsFrom(states, bound, kDraws, lanes);
    else
      avx2::drawsFrom(states, bound, kDraws, lanes);
    for (std::size_t l = 0; l < w; ++l)
      for (std::size_t d = 0; d < kDraws; ++d) {
        const std::uint64_t want = finishBelow(states[l], xoshiroNext(states[l]), bound);
        if (lanes[d * w + l] != want)
          return std::string(set == LaneSet::Avx512 ? "AVX-512" : "AVX2") + " lane " +
                 std::to_string(l) + ", draw " + std::to_string(d) + " below " + hex(bound) + ": " +
                 hex(lanes[d * w + l]) + ", scalar " + hex(want);
      }
  }
  return {};
}
#endif

// Lanes of `set` against scalar replicates, bit for bit, on small hierarchies
// with odd counts (the even/odd accumulators' tail) and every kind of job.
std::string checkLaneReplicates(LaneSet set) {
  Rng rng(0xb007ULL);
  auto hierarchy = [&](std::vector<std::size_t> shape) {
    Hierarchy h;
    h.shape = shape;
    std::size_t n = 1;
    for (std::size_t k : shape) {
      n *= k;
      h.levelNames.push_back("level" + std::to_string(h.levelNames.size()));
    }
    for (std::size_t i = 0; i < n; ++i)
      h.values.push_back(1 + rng.uniform());
    return h;
  };
  const Hierarchy a = hierarchy({5, 3, 7}), b = hierarchy({5, 2, 4}), c = hierarchy({9});
  for (const char *scheme : {"RRR", "RRN", "RNN", "NRR", "RNR"}) {
    const auto replace = ResamplingScheme::parse(scheme)->replacementFor(3);
    const Prepared pa = prepare(a, replace, false), pb = prepare(b, replace, false);
    const Prepared flat = prepare(a, replace, true), one = prepare(c, {true}, false);
    for (const Job &job : {Job{Job::Mean, &pa, nullptr, 11}, Job{Job::Ratio, &pa, &pb, 12},
                           Job{Job::Paired, &pa, &pb, 13}, Job{Job::Mean, &flat, nullptr, 14},
                           Job{Job::Ratio, &one, &one, 15}, Job{Job::Paired, &one, &one, 16}}) {
      if (lanesFor(job, set) != set)
        continue;
      double lanes[8];
      for (std::size_t first : {std::size_t{0}, std::size_t{8}, std::size_t{1001}}) {
        laneBlock(set, job, first, lanes);
        for (std::size_t l = 0; l < widthOf(set); ++l) {
          const double want = replicate(job, first + l);
          if (std::memcmp(&lanes[l], &want, sizeof want) != 0)
            return std::string(set == LaneSet::Avx512 ? "AVX-512" : "AVX2") + " " + scheme +
                   " job " + std::to_string(job.kind) + " replicate " + std::to_string(first + l) +
                   ": lanes differ from the scalar resampler";
        }
      }
    }
  }
  return {};
}

} // namespace

std::string bootstrapSelfCheck() {
  // The scalar parts against alea::Rng: its stream, and below() with bounds
  // whose rejection is likely (2^63 + 5: about half the draws) or certain
  // never to happen (powers of two).
  for (std::uint64_t seed : std::initializer_list<std::uint64_t>{0, 1, 0xfeed, mixSeed(7, 3)}) {
    std::uint64_t state[4];
    seedXoshiro(seed, state);
    Rng rng(seed);
    for (int i = 0; i < 1000; ++i)
      if (xoshiroNext(state) != rng())
        return "xoshiro256** differs from alea::Rng (seed " + hex(seed) + ", output " +
               std::to_string(i) + ")";
    for (std::uint64_t bound : {1ULL, 2ULL, 3ULL, 500ULL, 1000000007ULL, 0xffffffffULL,
                                (1ULL << 40) + 3, (1ULL << 63) + 5, ~0ULL}) {
      seedXoshiro(seed, state);
      Rng ref(seed);
      for (int i = 0; i < 200; ++i) {
        const std::uint64_t want = ref.below(bound);
        if (finishBelow(state, xoshiroNext(state), bound) != want)
          return "below(" + hex(bound) + ") differs from alea::Rng (seed " + hex(seed) + ", draw " +
                 std::to_string(i) + ")";
      }
    }
  }
  // Every lane set this CPU has, whichever the bootstrap uses.
#if ALEA_BOOTSTRAP_LANES
  for (LaneSet set : {LaneSet::Avx2, LaneSet::Avx512}) {
    if (widthOf(cpuLanes()) < widthOf(set))
      continue;
    if (std::string problem = checkLaneDraws(set); !problem.empty())
      return problem;
    if (std::string problem = checkLaneReplicates(set); !problem.empty())
      return problem;
  }
#endif
  return {};
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

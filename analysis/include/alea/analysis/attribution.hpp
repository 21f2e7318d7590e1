// Which functions' placement matters (issue 20): the layout variance of a
// simulated metric attributed to functions. Each build b of a system gives
// one profile of the metric per function, c_{f,b} (cachegrind's counts of one
// execution, split into terms such as instruction fetches and I1 misses), and
// its build total T_b = sum_f c_{f,b} (the functions not listed are one more
// entry, the rest). Since var(T) = sum_f cov(c_f, T), the share of the
// layout variance that function f carries is
//     share_f = cov(c_f, T) / var(T)
// and the shares of all functions and the rest sum to 1 (a function whose
// cost moves against the total has a negative share). The same holds for
// each term of c_f: the function's dominant term is the one with the largest
// cov(term, T). This is the covariance decomposition of a sum's variance
// ("variance decomposition by covariance", e.g. Shorrocks 1982, Econometrica
// 50(1), for the factor decomposition of inequality; the same identity).
//
// What separates the slow builds from the fast ones is looked for among the
// function's placement facts (start offset within a cache line, lines it
// spans, a 4 KiB page crossing, an I1 set shared with another of the top
// functions): the fact present in the most slow builds (c_f above its mean)
// and the fewest fast ones. Pure: numbers in, numbers and facts out.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace alea::analysis {

// Where a function sits in one build's binary (read from its symbol table).
struct FunctionPlacement {
  std::uint64_t address = 0, size = 0;
};

// One function's cost in one build, split into terms (their names in
// AttributionInput::terms, in that order); `placement` when the binary has it.
struct FunctionCost {
  std::string function; // "" = every function not listed (the rest)
  std::vector<double> terms;
  std::optional<FunctionPlacement> placement;
};

struct BuildProfile {
  int build = 0; // the build's index
  std::vector<FunctionCost> functions;
};

// One system and benchmark: the metric's per-function profile of each build.
struct AttributionInput {
  std::string system, benchmark, metric;
  std::vector<std::string> terms; // e.g. "instructions", "I1 misses"
  // The simulated instruction cache (0: unknown): line size, number of sets.
  std::uint64_t lineBytes = 64, i1Sets = 0;
  std::vector<BuildProfile> builds;
};

// A placement fact that separates slow builds from fast ones: in how many of
// each it holds. `kind` says which, with its parameters:
//   LineOffset     the start is `bytes` before a `lineBytes` boundary
//   LinesSpanned   it spans `lines` cache lines or more
//   PageCrossing   it crosses a 4 KiB page boundary
//   SharedSets     a line of it and another line of `other` map to one I1 set
struct PlacementFact {
  enum class Kind { LineOffset, LinesSpanned, PageCrossing, SharedSets };
  Kind kind = Kind::LineOffset;
  std::uint64_t bytes = 0, lineBytes = 64, lines = 0;
  std::string other;
  std::size_t slowWith = 0, slowBuilds = 0, fastWith = 0, fastBuilds = 0;
};

struct FunctionAttribution {
  std::string function;
  double share = 0;                  // cov(c_f, T) / var(T)
  std::string term;                  // its dominant term
  double termShare = 0;              // cov(term, T) / var(T)
  double meanCost = 0;               // mean of c_f over the builds
  double relativeSpread = 0;         // (max - min) / mean of c_f; 0 when the mean is 0
  std::vector<int> builds;           // the build indices, in input order
  std::vector<double> cost;          // c_f per build, same order
  std::optional<PlacementFact> fact; // none: no fact holds in more slow builds than fast
};

struct Attribution {
  std::string system, benchmark, metric;
  std::size_t builds = 0;
  double mean = 0; // of T
  double sd = 0;   // of T (builds as the sample, n - 1)
  // The top functions, by share: at most maxFunctions, each at least minShare.
  std::vector<FunctionAttribution> functions;
  double otherShare = 0; // 1 - the listed shares: every other function
  std::string note;      // why nothing is attributed ("" when it is)
};

struct AttributionOptions {
  std::size_t maxFunctions = 5;
  double minShare = 0.05;
};

// The attribution of one input (see the file's comment). Fewer than 3
// builds, or a total that does not vary across them (a standard deviation
// below 0.01% of its mean), gives no functions and
// a note saying so. A function absent from a build's profile costs 0 there
// (its cost is in that build's rest).
Attribution attributeLayoutVariance(const AttributionInput &input,
                                    const AttributionOptions &options = {});

} // namespace alea::analysis

// Per-function simulated counts (issue 20, "which functions' placement
// matters"): the "fn=" blocks of cachegrind's output files, summed per
// function name over the files of one execution (every process of its tree)
// and trimmed to the functions that carry a meaningful share. The executor
// reads them next to the totals (cachegrind.hpp) when it simulates; the
// campaign stores those of one execution per build and benchmark; the report
// attributes the layout variance of the metric to them (analysis/
// attribution.hpp, docs/measure.md "Which functions' placement matters").
#pragma once

#include "alea/config/measure_spec.hpp"
#include "alea/exec/cachegrind.hpp"
#include "alea/expected.hpp"

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace alea::runner {

// One function's counts, as cachegrind names it ("fn=" of the output file:
// the symbol's name, demangled for C++; "???" for code without a symbol).
// The name "" holds the rest: every function not kept (FunctionCounts lists
// always sum to the totals).
struct FunctionCounts {
  std::string name;
  CachegrindCounts counts;
  bool operator==(const FunctionCounts &) const = default;
};

// The counts per function of one cachegrind.out file's text, summed over its
// "fl=" blocks (a function whose code comes from several files, an inlined
// header's, has one block per file), in order of first appearance. A count
// line is "<line> <count>..." in the order of the "events:" line, "." for 0,
// missing counts at its end 0. Errors: as parseCachegrindOutput's (no
// "events:" line, a count that is not a number, more counts than events, an
// event of the 13 missing).
Expected<std::vector<FunctionCounts>> parseCachegrindFunctions(std::string_view text);

// The functions that carry a meaningful share of `all` (one execution's,
// summed per name): at least `minShare` of the instructions (Ir), of the I1
// misses or of the D1 misses (read and write), the `maxFunctions` costliest
// (by estimated cycles, then name) of them, followed by the rest as one entry
// named "" (absent when nothing is left over).
std::vector<FunctionCounts> keepMeaningfulFunctions(const std::vector<FunctionCounts> &all,
                                                    double minShare = 0.001,
                                                    std::size_t maxFunctions = 200);

// The counts per function of every cachegrind.out.* file of `dir`, summed
// per name over the files, then keepMeaningfulFunctions. Errors: as
// sumCachegrindOutputs (no file, one that does not parse).
Expected<std::vector<FunctionCounts>> sumCachegrindFunctions(const std::string &dir);

// A function's cost in `metric` split into the terms that add up to it,
// named for the report: sim-cycles (estimatedCycles rewritten as a sum:
// Ir + Dr + Dw + 4 (I1mr + D1mr + D1mw) + 30 (ILmr + DLmr + DLmw)) is
// "instructions" (every fetch and data access at 1 cycle), "I1 misses",
// "D1 misses" and "LL misses"; any other simulated metric is one term, named
// after what it counts. Empty for a metric that is not simulated.
std::vector<std::pair<std::string, double>> costTerms(Metric metric, const CachegrindCounts &c);

} // namespace alea::runner

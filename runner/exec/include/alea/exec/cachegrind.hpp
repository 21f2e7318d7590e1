// The simulated metrics (sim-*): a benchmark run under Valgrind's cachegrind
// with a fixed cache geometry (SimCache, measure_spec.hpp), every process of
// its tree writing its own output file into a directory of the execution;
// the files' totals summed, and the metric computed from the sums. The
// executor runs it (executor.cpp); this file is the command line, the
// parser of cachegrind's output format and the formulas, all pure but the
// directory's reading.
#pragma once

#include "alea/config/measure_spec.hpp"
#include "alea/config/validate.hpp"
#include "alea/expected.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace alea::runner {

// The events cachegrind counts with --cache-sim=yes --branch-sim=yes, in the
// order of its "events:" line (Valgrind 3.19 manual, 5.9.2 "Cachegrind Output
// File Format"): instruction reads (= instructions
// executed), I1 and LL instruction read misses, data reads, D1 and LL read
// misses, data writes, D1 and LL write misses, conditional branches and their
// mispredictions, indirect branches and their mispredictions.
struct CachegrindCounts {
  std::uint64_t ir = 0, i1mr = 0, ilmr = 0;
  std::uint64_t dr = 0, d1mr = 0, dlmr = 0;
  std::uint64_t dw = 0, d1mw = 0, dlmw = 0;
  std::uint64_t bc = 0, bcm = 0, bi = 0, bim = 0;
  CachegrindCounts &operator+=(const CachegrindCounts &o);
  bool operator==(const CachegrindCounts &) const = default;
};

// One cachegrind output file: its totals (the "summary:" line, by the names
// of the "events:" line), the geometry it simulated, from its "desc:" lines,
// written as SimCache writes it ("" when a line is absent), and its "cmd:".
struct CachegrindOutput {
  CachegrindCounts counts;
  SimCache cache;
  std::string command;
};

// Parses the text of a cachegrind.out file (a "." count is 0, and so is a
// count missing at the end of the summary, as the format says). Errors: no
// "events:" or "summary:" line, a count that is not a number, more counts
// than events, an event of the 13 above missing (cachegrind run without
// --cache-sim=yes --branch-sim=yes).
Expected<CachegrindOutput> parseCachegrindOutput(std::string_view text);

// The estimated cycles of sim-cycles: L1 hits + 5 x LL hits + 35 x RAM
// accesses, where every instruction fetch, data read and data write is one
// access that hits at the first level it finds its line in:
//   RAM = ILmr + DLmr + DLmw          (missed the LL cache)
//   LL  = I1mr + D1mr + D1mw - RAM    (missed L1, hit LL)
//   L1  = Ir + Dr + Dw - (LL + RAM)
// Itamar Turner-Trauring's model ("Consistent benchmarking in CI", 2021,
// pythonspeed.com/articles/consistent-benchmarking-in-ci/), as iai computes
// it (bheisler/iai, src/lib.rs, CachegrindSummary::cycles) and iai-callgrind
// after it. Branch mispredictions are not in it (sim-branch-misses is).
std::uint64_t estimatedCycles(const CachegrindCounts &c);

// The value of a simulated metric: Ir, I1mr, D1mr + D1mw, ILmr + DLmr + DLmw,
// Bcm + Bim or the estimated cycles. 0 for a metric that is not simulated.
double simulatedValue(Metric metric, const CachegrindCounts &c);

// The options that run a command under cachegrind, between `valgrind` and
// the command: the tool, cache and branch simulation, every child traced,
// the geometry, one output file per process in `outDir`
// (cachegrind.out.<pid>) and Valgrind's own messages in valgrind.<pid>.log
// there, not on the benchmark's stderr.
std::vector<std::string> cachegrindOptions(const SimCache &cache, const std::string &outDir);

// The counts of every cachegrind.out.* file of `dir`, summed (a shell and
// each program it runs write one each). Errors: no such file (with the
// first line of Valgrind's complaint: its log there, else a "valgrind:"
// line of the execution's `stderrText`, which has what Valgrind said before
// it read --log-file), a file that does not parse, or one that simulated
// another geometry than `cache`.
Expected<CachegrindCounts> sumCachegrindOutputs(const std::string &dir, const SimCache &cache,
                                                std::string_view stderrText = {});

// Debug info Valgrind cannot read (with what helps), else the first line of
// Valgrind's own messages in `dir`, else the first line of
// `stderrText` that starts with "valgrind:" ("" when none).
std::string valgrindComplaint(const std::string &dir, std::string_view stderrText = {});

// Runs `true` under cachegrind with `cache` as an execution would run
// (LocalExecutor): what stops it, if anything ("valgrind is not on PATH",
// Valgrind's own error).
SimulatorFacts probeSimulator(const SimCache &cache);

} // namespace alea::runner

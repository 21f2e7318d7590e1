// A campaign's `[measure]` table (docs/measure.md): where the iterations of an
// execution come from (none: the child's wall clock or wait4(2) rusage, as
// hyperfine does; a regex over the program's output; Google Benchmark's JSON
// output; the binary records of <alea/iter.h>), parsed into a MeasureSpec.
// The extraction that follows the spec at run time is exec/measure.hpp; the
// parse of the TOML table is measure_spec_toml.hpp (toml++ stays out of the
// headers every runner file includes).
#pragma once

#include "alea/enum_names.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace alea::runner {

// The enumerators' names below are the campaign file's words.

// Where the iterations of an execution come from (issue 4, "Measurement").
#define ALEA_ITERATION_SOURCES(X)                                                                  \
  X(None, "none")                  /* one measurement per execution: `metric` below */             \
  X(Regex, "regex")                /* every match of `regex` in the output, first group */         \
  X(GoogleBenchmarkJson, "gbench") /* --benchmark_format=json on stdout */                         \
  X(Records, "records")            /* <alea/iter.h> binary records from the ALEA_ITER_FD pipe */
enum class IterationSource { ALEA_ITERATION_SOURCES(ALEA_ENUMERATOR) };
ALEA_ENUM_NAMES(IterationSource, ALEA_ITERATION_SOURCES);

// How a metric of the None source is measured (docs/measure.md, "Counters and
// simulated metrics").
enum class MetricKind {
  Process,         // the executor's clock or the child's wait4(2) rusage
  HardwareCounter, // a PMU event through perf_event_open(2): needs a PMU
  SoftwareCounter, // a kernel software event through perf_event_open(2)
  Simulated,       // Valgrind's cachegrind: simulated caches and branch predictor
};

// What the None source measures for the whole child process: its name, its
// kind, the unit its values are stored with, and, for a hardware counter,
// the metric to use where the machine has no PMU. Counters cover the whole
// process tree (inherit) in user space; simulated counts are summed over
// every process of the tree. A count is dimensionless ("count").
#define ALEA_METRICS(X)                                                                            \
  X(Wall, "wall", Process, "s", "") /* wall-clock seconds from spawn to reap */                    \
  X(User, "user", Process, "s", "") /* ru_utime of the child (wait4) */                            \
  X(Sys, "sys", Process, "s", "")   /* ru_stime of the child */                                    \
  X(Cpu, "cpu", Process, "s", "")   /* user + sys */                                               \
  X(Rss, "rss", Process, "KiB", "") /* peak resident set (ru_maxrss); not a time */                \
  X(Instructions, "instructions", HardwareCounter, "count", "sim-instructions")                    \
  X(Cycles, "cycles", HardwareCounter, "count", "sim-cycles")                                      \
  X(Branches, "branches", HardwareCounter, "count", "sim-instructions")                            \
  X(BranchMisses, "branch-misses", HardwareCounter, "count", "sim-branch-misses")                  \
  X(CacheReferences, "cache-references", HardwareCounter, "count", "sim-d1-misses")                \
  X(CacheMisses, "cache-misses", HardwareCounter, "count", "sim-ll-misses")                        \
  X(L1iMisses, "l1i-misses", HardwareCounter, "count", "sim-i1-misses") /* L1I read misses */      \
  X(ItlbMisses, "itlb-misses", HardwareCounter, "count", "")                                       \
  X(TaskClock, "task-clock", SoftwareCounter, "s", "") /* CPU time of the tree, ns -> s */         \
  X(PageFaults, "page-faults", SoftwareCounter, "count", "")                                       \
  X(ContextSwitches, "context-switches", SoftwareCounter, "count", "")                             \
  X(SimInstructions, "sim-instructions", Simulated, "count", "")  /* Ir */                         \
  X(SimI1Misses, "sim-i1-misses", Simulated, "count", "")         /* I1mr */                       \
  X(SimD1Misses, "sim-d1-misses", Simulated, "count", "")         /* D1mr + D1mw */                \
  X(SimLlMisses, "sim-ll-misses", Simulated, "count", "")         /* ILmr + DLmr + DLmw */         \
  X(SimBranchMisses, "sim-branch-misses", Simulated, "count", "") /* Bcm + Bim */                  \
  X(SimCycles, "sim-cycles", Simulated, "count", "") /* estimated cycles (cachegrind.hpp) */
enum class Metric { ALEA_METRICS(ALEA_ENUMERATOR) };
ALEA_ENUM_NAMES(Metric, ALEA_METRICS);

MetricKind metricKind(Metric metric);
// The unit of the metric's values as stored: "s", "KiB" or "count".
const char *metricUnit(Metric metric);
// A hardware counter's simulated counterpart ("" when there is none).
const char *simulatedCounterpart(Metric metric);
inline bool isCounter(Metric m) {
  return metricKind(m) == MetricKind::HardwareCounter ||
         metricKind(m) == MetricKind::SoftwareCounter;
}
inline bool isSimulated(Metric m) { return metricKind(m) == MetricKind::Simulated; }

// The cache geometry cachegrind simulates, each "size,associativity,line
// size" in bytes as Valgrind's --I1/--D1/--LL options take it. Fixed by
// alea rather than read from the machine (cachegrind's default) so that
// simulated counts compare across machines; the defaults are the ones iai
// (bheisler/iai) and CodSpeed's Valgrind runs pass (a 32 KiB 8-way L1 and an
// 8 MiB 16-way LL with 64-byte lines).
struct SimCache {
  std::string i1 = "32768,8,64";
  std::string d1 = "32768,8,64";
  std::string ll = "8388608,16,64";
  bool operator==(const SimCache &) const = default;
};

// Why `geometry` ("size,assoc,line") is not a cache cachegrind can simulate,
// or "" when it is: three positive decimal integers, and cachegrind's own
// checks (cachegrind/cg_arch.c, check_cache): a power-of-two number of sets
// and line size, a line of at least 16 bytes, size > line size, and
// associativity <= size / line size.
std::string cacheGeometryProblem(std::string_view geometry);

#define ALEA_GBENCH_FIELDS(X)                                                                      \
  X(RealTime, "real_time")                                                                         \
  X(CpuTime, "cpu_time")
enum class GbenchField { ALEA_GBENCH_FIELDS(ALEA_ENUMERATOR) };
ALEA_ENUM_NAMES(GbenchField, ALEA_GBENCH_FIELDS);

// Which output stream the Regex source scans.
#define ALEA_OUTPUT_STREAMS(X)                                                                     \
  X(Stdout, "stdout")                                                                              \
  X(Stderr, "stderr")
enum class OutputStream { ALEA_OUTPUT_STREAMS(ALEA_ENUMERATOR) };
ALEA_ENUM_NAMES(OutputStream, ALEA_OUTPUT_STREAMS);

// The name the iterations of an iteration source are stored and reported
// under (their values are seconds), beside the metrics of `metrics`.
inline constexpr std::string_view kIterationsMetric = "time";

struct MeasureSpec {
  IterationSource source = IterationSource::None;
  Metric metric = Metric::Wall; // None source only: the execution's measurement
  // The whole-execution metrics measured besides it (key `metrics`: with
  // source none its first entry is `metric` and the others are here; with an
  // iteration source every entry is here, the iterations coming first).
  std::vector<Metric> extraMetrics;
  // The metric the decision and the exit status use (key `decide_on`): ""
  // is the first one (primaryName()); else "time" or a measured metric.
  std::string decideOn;
  // Where `metric` (or `metrics`) was written (1-based; 0 = not written, the
  // default), for the machine's checks of validate.hpp.
  int metricLine = 0, metricColumn = 0;
  // The simulated cache of the sim-* metrics (key sim_cache).
  SimCache simCache;
  // Regex source: ECMAScript syntax, searched repeatedly over the whole text;
  // the first capture group of each match is a decimal number, one iteration.
  std::string regex;
  OutputStream stream = OutputStream::Stdout;
  // Unit of the numbers the Regex source captures ("ns", "us", "ms", "s",
  // "min"): values are multiplied by unitScale to give seconds.
  std::string unit = "s";
  double unitScale = 1.0;
  // Google Benchmark source: the per-iteration time field, and an ECMAScript
  // regex searched in each benchmark "name", as --benchmark_filter does
  // (empty: every benchmark); the selected entries must all be repetitions of
  // one benchmark (same "run_name"). Aggregate entries (mean,
  // median, stddev of --benchmark_repetitions) are always skipped; each
  // remaining entry (one repetition) is one iteration, converted to seconds
  // with its own "time_unit".
  GbenchField gbenchField = GbenchField::RealTime;
  std::string gbenchFilter;

  // The unit of the extracted values as stored: "s" for times, "KiB" for
  // rss, "count" for counts (metricUnit).
  std::string valueUnit() const;
  // The name the extracted values are stored under: `metric`'s with source
  // none, kIterationsMetric with an iteration source.
  std::string_view primaryName() const;
  // The metric the decision uses: decideOn, or the first; and its unit.
  std::string_view decisionName() const {
    return decideOn.empty() ? primaryName() : std::string_view(decideOn);
  }
  std::string decisionUnit() const;
  // Every whole-execution metric measured: `metric` (source none), then
  // extraMetrics.
  std::vector<Metric> measuredMetrics() const;
  // The counters to open (in measuredMetrics' order), and whether a
  // simulated metric is measured; whether the execution also needs a run
  // outside the simulator (an iteration source, or a metric of the real
  // machine beside a simulated one).
  std::vector<Metric> counters() const;
  bool simulates() const;
  bool needsNativeRun() const;
};

// A campaign-file error with its position (1-based; 0 when unknown).
struct MeasureSpecError {
  std::string message; // what was expected, e.g. "expected one of none, regex..."
  int line = 0;
  int column = 0;
};

struct MeasureSpecResult {
  MeasureSpec spec;
  std::optional<MeasureSpecError> error;
  bool ok() const { return !error; }
};

// Seconds per unit for the unit names above (also "m" is NOT accepted:
// ambiguous). Returns nullopt for an unknown unit.
std::optional<double> unitToSeconds(std::string_view unit);

} // namespace alea::runner

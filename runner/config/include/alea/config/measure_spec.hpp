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

// What the None source measures for the whole child process.
#define ALEA_METRICS(X)                                                                            \
  X(Wall, "wall") /* wall-clock seconds from spawn to reap */                                      \
  X(User, "user") /* ru_utime of the child (wait4) */                                              \
  X(Sys, "sys")   /* ru_stime of the child */                                                      \
  X(Cpu, "cpu")   /* user + sys */                                                                 \
  X(Rss, "rss")   /* peak resident set, in KiB (ru_maxrss); not a time */
enum class Metric { ALEA_METRICS(ALEA_ENUMERATOR) };
ALEA_ENUM_NAMES(Metric, ALEA_METRICS);

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

struct MeasureSpec {
  IterationSource source = IterationSource::None;
  Metric metric = Metric::Wall; // None source only
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

  // The unit of the extracted values as stored ("s", or "KiB" for Rss).
  std::string valueUnit() const;
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

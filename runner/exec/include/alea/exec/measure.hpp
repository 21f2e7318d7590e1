// Measurement extraction: how one finished execution of a benchmark becomes
// measurements. A campaign's `[measure]` table (parseMeasureSpec) says where
// the iterations come from: none (one measurement per execution from the
// child's wall clock or wait4(2) rusage, as hyperfine does), a regex over the
// program's output, Google Benchmark's JSON output, or the binary records
// written by alea's own C header <alea/iter.h> to the pipe named by
// ALEA_ITER_FD (format in docs/measure.md). An IterationStream extracts the
// iterations while the executor reads the child's output, so nothing the
// program writes is lost to a buffer limit; extractIterations runs the same
// stream over output captured whole (tests, fakes). A non-empty error means
// the execution is recorded as a failure, never as data.
#pragma once

#include "alea/config/measure_spec.hpp"
#include "alea/exec/cachegrind.hpp"
#include "alea/exec/cachegrind_functions.hpp"
#include "alea/records.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace alea::runner {

// Everything the executor captured about one finished (or killed) child:
// how it ended and what it used (alea/records.hpp; exitCode is valid when
// signal == 0 and !timedOut), and its output.
struct ExecutionOutput : ProcessEnd {
  std::string stdoutText;
  std::string stderrTail; // the last few KiB of stderr
  std::string records;    // raw bytes read from the ALEA_ITER_FD pipe
  bool timedOut = false;  // killed by the runner after the timeout
  // Each counter's total over the process tree, as the kernel counts it
  // (task-clock in ns), and the simulated counts summed over the tree's
  // processes (ExecutionRequest::counters, ::simulate).
  std::map<Metric, double> counterValues;
  std::optional<CachegrindCounts> simulated;
  // Its counts per function (cachegrind_functions.hpp), the rest as "".
  std::vector<FunctionCounts> simulatedFunctions;
  std::string metricError; // why one asked for is missing ("" = none is)
};

// The value of a whole-execution metric of a finished execution (its
// clock, rusage, counter or simulated counts); 0 and `error` set when there
// is none or it is not positive (a failure of the execution).
double measureMetric(Metric metric, const ExecutionOutput &out, std::string &error);

struct Extraction {
  std::vector<double> values; // in program order, warm-up included
  std::string error;          // non-empty: the execution is a failure
  bool ok() const { return error.empty(); }
};

// Which output of a child a chunk of bytes comes from.
enum class OutputChannel { Stdout, Stderr, Records };

// Receives a child's output as the executor reads it, chunk by chunk, in order
// within each channel (ExecutionRequest::sink).
class OutputSink {
public:
  virtual ~OutputSink() = default;
  virtual void write(OutputChannel channel, std::string_view bytes) = 0;
};

// The records of <alea/iter.h>, decoded as they arrive (parseRecords below is
// one feed and finish).
class RecordDecoder {
public:
  void feed(std::string_view bytes);
  Extraction finish();

private:
  std::string partial_;                         // the bytes of an incomplete record
  std::map<std::uint64_t, std::uint64_t> open_; // iteration index -> begin ns
  std::vector<double> values_;
  std::uint64_t offset_ = 0; // bytes decoded so far
  std::string error_;
};

// Extracts the iterations of one execution while its output streams in:
//   regex    each complete line of the chosen stream is searched as it arrives
//            (a match cannot span lines); memory is bounded by the longest
//            line, not by the output: a line longer than kMaxLineBytes is a
//            failure, never silently skipped;
//   records  whole 24-byte records are decoded as they arrive;
//   gbench   stdout is kept whole (the JSON is parsed at the end) up to
//            kMaxJsonBytes; more is a failure with that reason;
//   none     nothing to read: the value comes from the executor's clocks.
// After the first error the rest of the output is ignored and finish()
// returns that error.
class IterationStream final : public OutputSink {
public:
  static constexpr std::size_t kMaxLineBytes = std::size_t{16} << 20;
  static constexpr std::size_t kMaxJsonBytes = std::size_t{256} << 20;

  explicit IterationStream(const MeasureSpec &spec);
  ~IterationStream() override;
  void write(OutputChannel channel, std::string_view bytes) override;
  // After the process ended: its iterations (or why there are none). Does not
  // look at the exit status (see describeFailure); with the None source
  // returns exactly one value, from `out`'s clocks.
  Extraction finish(const ExecutionOutput &out);

private:
  void scanLine(std::string_view line);

  MeasureSpec spec_;
  struct LineRegex; // the compiled regex (measure.cpp: <regex> stays out of this header)
  std::unique_ptr<LineRegex> regex_;
  std::string line_;            // the incomplete last line (regex source)
  std::uint64_t lineStart_ = 0; // byte offset of line_ in the stream
  std::string json_;            // stdout (gbench source)
  RecordDecoder records_;
  std::vector<double> values_;
  std::string error_;
};

// The iterations of output captured whole: an IterationStream fed with `out`'s
// stdout, stderr and records. Errors: "no iteration matched", "malformed JSON
// at byte N: ...", "truncated record at byte N", "bad record magic at byte N",
// non-positive or non-finite values, etc.
Extraction extractIterations(const MeasureSpec &spec, const ExecutionOutput &out);

// Why an execution failed before its output is even looked at: timeout,
// signal (with its name, e.g. "killed by signal 11 (SIGSEGV)") or an exit
// status other than `expectedExit`. Empty when it ran to completion as
// expected.
std::string describeFailure(const ExecutionOutput &out, int expectedExit = 0);

// describeFailure, then the stream's iterations: what the runner stores.
Extraction measureExecution(IterationStream &stream, const ExecutionOutput &out,
                            int expectedExit = 0);
// The same for output captured whole.
Extraction measureExecution(const MeasureSpec &spec, const ExecutionOutput &out,
                            int expectedExit = 0);

// --- <alea/iter.h> records (docs/measure.md) -------------------------------
// 24 bytes, little-endian: u32 magic "ALIT" (0x54494c41), u16 version (1),
// u16 kind, u64 iteration index, u64 nanoseconds.
namespace iter {
inline constexpr std::uint32_t kMagic = 0x54494c41u; // bytes 'A' 'L' 'I' 'T'
inline constexpr std::uint16_t kVersion = 1;
inline constexpr std::size_t kRecordSize = 24;
enum class Kind : std::uint16_t {
  Begin = 1,    // nanoseconds = CLOCK_MONOTONIC at the start of the iteration
  End = 2,      // nanoseconds = CLOCK_MONOTONIC at its end
  Duration = 3, // nanoseconds = the duration, measured by the program itself
  Barrier = 4,  // a duet's barrier before iteration `index` (duet.hpp); no value
};
struct Record {
  Kind kind;
  std::uint64_t index;
  std::uint64_t nanoseconds;
};
// Encodes one record (tests, fakes); the C header writes the same bytes.
std::string encode(const Record &record);
} // namespace iter

// Parses the record bytes into iteration durations in seconds (pairs Begin/End
// by index; Duration records stand alone), in order of completion.
Extraction parseRecords(std::string_view bytes);

// --- Google Benchmark ---------------------------------------------------------

// The environment the gbench source gives every execution, so that a plain
// Google Benchmark program writes what the source reads: BENCHMARK_FORMAT=json
// and BENCHMARK_REPETITIONS=<warm-up + iterations> (each repetition is one
// alea iteration), and BENCHMARK_FILTER=<filter> when `filter` is set (the
// program then runs only the chosen benchmark). google/benchmark reads each of
// its --benchmark_* flags from the upper-case environment variable of the
// same name (src/commandlineflags.cc; 1.7.1 in Debian 12 does), and a flag on
// the command line wins over it: a command that sets them itself keeps its
// own, and a shell command passes them on to every program it runs. Empty for
// the other sources.
std::vector<std::pair<std::string, std::string>> sourceEnvironment(const MeasureSpec &spec,
                                                                   int iterations);

// One entry of google/benchmark's JSON "benchmarks" array that is not an
// aggregate (run_type "aggregate": mean, median, stddev, cv of repetitions):
// one repetition of one benchmark.
struct GbenchRun {
  std::string name;      // "name"
  std::string runName;   // "run_name" (shared by the repetitions), or name
  double seconds = 0;    // the chosen field in seconds (its own time_unit)
  std::size_t index = 0; // position in the "benchmarks" array
  std::string error;     // non-empty: no usable time (reported error, bad time)
};

struct GbenchDocument {
  std::vector<GbenchRun> runs; // in the array's order
  std::size_t aggregates = 0;  // aggregate entries, skipped
  std::string executable;      // context.executable, "" when absent
  std::string error;           // non-empty: not a Google Benchmark document
  bool ok() const { return error.empty(); }
};

// Reads a whole Google Benchmark JSON document (the program's stdout with
// --benchmark_format=json, or its --benchmark_out file). Errors: "malformed
// JSON at byte N: ...", no "benchmarks" array, an entry that is not an object
// or has no name. A run without a usable time keeps its reason in `error`.
GbenchDocument readGoogleBenchmarkJson(std::string_view json, GbenchField field);

// The gbench source: the repetitions of the one benchmark selected by
// `nameFilter`, in seconds. Output that is not JSON at all fails with what the
// program printed first and how to make it write JSON.
Extraction parseGoogleBenchmarkJson(std::string_view json, GbenchField field,
                                    const std::string &nameFilter);

} // namespace alea::runner

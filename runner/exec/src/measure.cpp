// Measurement extraction (see measure.hpp): the None and Regex sources, and
// the failure classification of an execution (the `[measure]` table itself is
// config/src/measure_spec.cpp). The JSON and record parsers live in measure_json.cpp and
// measure_records.cpp.
//
// The None source follows hyperfine: wall clock measured by the runner around
// the child, user and system time from the child's own rusage (wait4(2)), not
// from getrusage(RUSAGE_CHILDREN), which would accumulate over all children.
#include "alea/exec/measure.hpp"

#include <charconv>
#include <cmath>
#include <csignal>
#include <cstring>
#include <regex>

namespace alea::runner {

namespace {

bool parseDouble(std::string_view text, double &out) {
  // from_chars does not accept a leading '+'.
  if (!text.empty() && text.front() == '+')
    text.remove_prefix(1);
  const char *end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, out);
  return ec == std::errc() && ptr == end;
}

const char *signalName(int sig) {
  switch (sig) {
  case SIGSEGV:
    return "SIGSEGV";
  case SIGABRT:
    return "SIGABRT";
  case SIGBUS:
    return "SIGBUS";
  case SIGFPE:
    return "SIGFPE";
  case SIGILL:
    return "SIGILL";
  case SIGKILL:
    return "SIGKILL";
  case SIGTERM:
    return "SIGTERM";
  case SIGINT:
    return "SIGINT";
  case SIGPIPE:
    return "SIGPIPE";
  case SIGTRAP:
    return "SIGTRAP";
  case SIGXCPU:
    return "SIGXCPU";
  default:
    return nullptr;
  }
}

std::string formatNumber(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

} // namespace

double measureMetric(Metric metric, const ExecutionOutput &out, std::string &error) {
  double v = 0;
  const MetricKind kind = metricKind(metric);
  if (kind == MetricKind::HardwareCounter || kind == MetricKind::SoftwareCounter) {
    auto counted = out.counterValues.find(metric);
    if (counted == out.counterValues.end()) {
      error = out.metricError.empty() ? "no value of the counter" : out.metricError;
      return 0;
    }
    v = counted->second;
    if (metric == Metric::TaskClock)
      v *= 1e-9; // the kernel counts nanoseconds
  } else if (kind == MetricKind::Simulated) {
    if (!out.simulated) {
      error = out.metricError.empty() ? "no counts of cachegrind" : out.metricError;
      return 0;
    }
    v = simulatedValue(metric, *out.simulated);
  }
  switch (metric) {
  case Metric::Wall:
    v = out.wallSeconds;
    break;
  case Metric::User:
    v = out.userSeconds;
    break;
  case Metric::Sys:
    v = out.sysSeconds;
    break;
  case Metric::Cpu:
    v = out.userSeconds + out.sysSeconds;
    break;
  case Metric::Rss:
    v = static_cast<double>(out.maxRssKib);
    break;
  default: // a counter or a simulated metric: above
    break;
  }
  if (!(v > 0) || !std::isfinite(v)) {
    // A 0 CPU time is the clock's resolution, not a measurement; a count of
    // 0 gives the ratio nothing to divide.
    error = "measured " + formatNumber(v) + " for the whole execution: not a positive value (" +
            (std::string(metricUnit(metric)) == "count"
                 ? "a count of 0: the ratio of means needs events"
                 : "the metric is below its resolution") +
            ")";
    return 0;
  }
  return v;
}

namespace {

Extraction extractNone(const MeasureSpec &spec, const ExecutionOutput &out) {
  Extraction ex;
  double v = measureMetric(spec.metric, out, ex.error);
  if (ex.ok())
    ex.values.push_back(v);
  return ex;
}

} // namespace

struct IterationStream::LineRegex {
  std::regex regex;
};

IterationStream::IterationStream(const MeasureSpec &spec) : spec_(spec) {
  if (spec_.source != IterationSource::Regex)
    return;
  try {
    regex_ =
        std::make_unique<LineRegex>(LineRegex{std::regex(spec_.regex, std::regex::ECMAScript)});
  } catch (const std::regex_error &e) {
    error_ = std::string("invalid regex: ") + e.what();
  }
}

IterationStream::~IterationStream() = default;

void IterationStream::write(OutputChannel channel, std::string_view bytes) {
  if (!error_.empty() || bytes.empty())
    return;
  switch (spec_.source) {
  case IterationSource::None:
    return;
  case IterationSource::Records:
    if (channel == OutputChannel::Records)
      records_.feed(bytes);
    return;
  case IterationSource::GoogleBenchmarkJson:
    if (channel != OutputChannel::Stdout)
      return;
    if (json_.size() + bytes.size() > kMaxJsonBytes) {
      error_ = "stdout is longer than " + std::to_string(kMaxJsonBytes >> 20) +
               " MiB: Google Benchmark's JSON is not read beyond that";
      json_.clear();
      json_.shrink_to_fit();
      return;
    }
    json_.append(bytes);
    return;
  case IterationSource::Regex:
    break;
  }
  if (channel !=
      (spec_.stream == OutputStream::Stdout ? OutputChannel::Stdout : OutputChannel::Stderr))
    return;
  // Whole lines are searched as soon as their newline arrives; only the
  // incomplete last line is kept.
  while (error_.empty() && !bytes.empty()) {
    std::size_t nl = bytes.find('\n');
    if (nl == std::string_view::npos) {
      if (line_.size() + bytes.size() > kMaxLineBytes) {
        error_ = std::string("a line of ") +
                 (spec_.stream == OutputStream::Stdout ? "stdout" : "stderr") + " at byte " +
                 std::to_string(lineStart_) + " is longer than " +
                 std::to_string(kMaxLineBytes >> 20) + " MiB: its iterations cannot be read";
        return;
      }
      line_.append(bytes);
      return;
    }
    if (line_.empty()) {
      scanLine(bytes.substr(0, nl));
    } else {
      line_.append(bytes.substr(0, nl));
      scanLine(line_);
      line_.clear();
    }
    bytes.remove_prefix(nl + 1);
  }
}

void IterationStream::scanLine(std::string_view line) {
  const std::size_t length = line.size();
  if (!line.empty() && line.back() == '\r') // CRLF output: the line ends before the CR
    line.remove_suffix(1);
  const char *streamName = spec_.stream == OutputStream::Stdout ? "stdout" : "stderr";
  using Iter = std::regex_iterator<std::string_view::const_iterator>;
  for (Iter it(line.begin(), line.end(), regex_->regex), end; it != end; ++it) {
    const auto &m = *it;
    std::string captured = m.size() > 1 ? m[1].str() : m[0].str();
    double v = 0;
    if (!parseDouble(captured, v)) {
      error_ = "iteration " + std::to_string(values_.size()) + ": \"" + captured + "\" at byte " +
               std::to_string(lineStart_ + static_cast<std::uint64_t>(m.position(1))) + " of " +
               streamName + " is not a number";
      return;
    }
    v *= spec_.unitScale;
    if (!(v > 0) || !std::isfinite(v)) {
      error_ = "iteration " + std::to_string(values_.size()) + ": value " + captured +
               " is not a positive finite time";
      return;
    }
    values_.push_back(v);
  }
  lineStart_ += length + 1;
}

Extraction IterationStream::finish(const ExecutionOutput &out) {
  if (error_.empty() && spec_.source == IterationSource::Regex && !line_.empty()) {
    scanLine(line_); // the last line, without a newline
    line_.clear();
  }
  if (!error_.empty())
    return {{}, error_};
  switch (spec_.source) {
  case IterationSource::None:
    return extractNone(spec_, out);
  case IterationSource::Regex:
    if (values_.empty())
      return {{},
              std::string("no iteration matched /") + spec_.regex + "/ in " +
                  (spec_.stream == OutputStream::Stdout ? "stdout" : "stderr")};
    return {values_, {}};
  case IterationSource::GoogleBenchmarkJson:
    return parseGoogleBenchmarkJson(json_, spec_.gbenchField, spec_.gbenchFilter);
  case IterationSource::Records:
    return records_.finish();
  }
  return {{}, "unknown iteration source"};
}

Extraction extractIterations(const MeasureSpec &spec, const ExecutionOutput &out) {
  IterationStream stream(spec);
  stream.write(OutputChannel::Stdout, out.stdoutText);
  stream.write(OutputChannel::Stderr, out.stderrTail);
  stream.write(OutputChannel::Records, out.records);
  return stream.finish(out);
}

std::string describeFailure(const ExecutionOutput &out, int expectedExit) {
  if (out.timedOut) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "timed out after %.2f s", out.wallSeconds);
    return buf;
  }
  if (out.signal != 0) {
    std::string s = "killed by signal " + std::to_string(out.signal);
    if (const char *name = signalName(out.signal))
      s += std::string(" (") + name + ")";
    return s;
  }
  if (out.exitCode != expectedExit)
    return "exit status " + std::to_string(out.exitCode) + ", expected " +
           std::to_string(expectedExit);
  return {};
}

namespace {
// A failure, with the metric's own problem when there is one (Valgrind that
// could not start exits 1 too).
std::string failureWithMetric(std::string why, const ExecutionOutput &out) {
  if (!out.metricError.empty())
    why += " (" + out.metricError + ")";
  return why;
}
} // namespace

Extraction measureExecution(IterationStream &stream, const ExecutionOutput &out, int expectedExit) {
  if (std::string why = describeFailure(out, expectedExit); !why.empty())
    return {{}, failureWithMetric(std::move(why), out)};
  return stream.finish(out);
}

Extraction measureExecution(const MeasureSpec &spec, const ExecutionOutput &out, int expectedExit) {
  if (std::string why = describeFailure(out, expectedExit); !why.empty())
    return {{}, failureWithMetric(std::move(why), out)};
  return extractIterations(spec, out);
}

} // namespace alea::runner

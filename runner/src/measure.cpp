// Measurement extraction (see measure.hpp): the `[measure]` table of a
// campaign, the None and Regex sources, and the failure classification of an
// execution. The JSON and record parsers live in measure_json.cpp and
// measure_records.cpp.
//
// The None source follows hyperfine: wall clock measured by the runner around
// the child, user and system time from the child's own rusage (wait4(2)), not
// from getrusage(RUSAGE_CHILDREN), which would accumulate over all children.
#include "alea/runner/measure.hpp"

#include <charconv>
#include <cmath>
#include <csignal>
#include <cstring>
#include <regex>
#include <set>

namespace alea::runner {

namespace {

struct Choice {
  std::string_view name;
  int value;
};

std::string joinChoices(std::initializer_list<Choice> choices) {
  std::string out;
  for (const auto &c : choices) {
    if (!out.empty())
      out += ", ";
    out += c.name;
  }
  return out;
}

MeasureSpecError errorAt(const toml::node &node, std::string message) {
  const auto &begin = node.source().begin;
  return {std::move(message), static_cast<int>(begin.line),
          static_cast<int>(begin.column)};
}

// Reads `key` as one of `choices`; leaves `out` alone when the key is absent.
std::optional<MeasureSpecError>
readChoice(const toml::table &table, std::string_view key,
           std::initializer_list<Choice> choices, int &out) {
  const toml::node *node = table.get(key);
  if (!node)
    return std::nullopt;
  const auto *str = node->as_string();
  if (!str)
    return errorAt(*node, "measure." + std::string(key) +
                              ": expected a string, one of " +
                              joinChoices(choices));
  for (const auto &c : choices) {
    if (c.name == str->get()) {
      out = c.value;
      return std::nullopt;
    }
  }
  return errorAt(*node, "measure." + std::string(key) + ": expected one of " +
                            joinChoices(choices) + ", got \"" + str->get() +
                            "\"");
}

std::optional<MeasureSpecError>
readString(const toml::table &table, std::string_view key, std::string &out) {
  const toml::node *node = table.get(key);
  if (!node)
    return std::nullopt;
  const auto *str = node->as_string();
  if (!str)
    return errorAt(*node,
                   "measure." + std::string(key) + ": expected a string");
  out = str->get();
  return std::nullopt;
}

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

std::string MeasureSpec::valueUnit() const {
  return source == IterationSource::None && metric == Metric::Rss ? "KiB" : "s";
}

std::optional<double> unitToSeconds(std::string_view unit) {
  if (unit == "ns")
    return 1e-9;
  if (unit == "us")
    return 1e-6;
  if (unit == "ms")
    return 1e-3;
  if (unit == "s")
    return 1.0;
  if (unit == "min")
    return 60.0;
  return std::nullopt;
}

MeasureSpecResult parseMeasureSpec(const toml::table &table) {
  MeasureSpecResult result;
  MeasureSpec &spec = result.spec;
  auto fail = [&](MeasureSpecError e) {
    result.error = std::move(e);
    return result;
  };

  static const std::set<std::string_view> known = {
      "source", "metric", "regex", "stream", "unit", "field", "filter"};
  for (const auto &[key, node] : table) {
    if (!known.count(key.str()))
      return fail(errorAt(node, "measure: unknown key \"" +
                                    std::string(key.str()) +
                                    "\"; expected one of source, metric, "
                                    "regex, stream, unit, field, filter"));
  }

  int source = static_cast<int>(IterationSource::None);
  if (auto e = readChoice(
          table, "source",
          {{"none", static_cast<int>(IterationSource::None)},
           {"regex", static_cast<int>(IterationSource::Regex)},
           {"gbench", static_cast<int>(IterationSource::GoogleBenchmarkJson)},
           {"records", static_cast<int>(IterationSource::Records)}},
          source))
    return fail(*e);
  spec.source = static_cast<IterationSource>(source);

  // Keys that belong to another source are mistakes worth reporting.
  auto only =
      [&](std::string_view key, IterationSource owner,
          std::string_view ownerName) -> std::optional<MeasureSpecError> {
    const toml::node *node = table.get(key);
    if (node && spec.source != owner)
      return errorAt(*node, "measure." + std::string(key) +
                                ": only applies to source = \"" +
                                std::string(ownerName) + "\"");
    return std::nullopt;
  };
  for (auto [key, owner, name] :
       {std::tuple{"metric", IterationSource::None, "none"},
        std::tuple{"regex", IterationSource::Regex, "regex"},
        std::tuple{"stream", IterationSource::Regex, "regex"},
        std::tuple{"unit", IterationSource::Regex, "regex"},
        std::tuple{"field", IterationSource::GoogleBenchmarkJson, "gbench"},
        std::tuple{"filter", IterationSource::GoogleBenchmarkJson, "gbench"}})
    if (auto e = only(key, owner, name))
      return fail(*e);

  int metric = static_cast<int>(Metric::Wall);
  if (auto e = readChoice(table, "metric",
                          {{"wall", static_cast<int>(Metric::Wall)},
                           {"user", static_cast<int>(Metric::User)},
                           {"sys", static_cast<int>(Metric::Sys)},
                           {"cpu", static_cast<int>(Metric::Cpu)},
                           {"rss", static_cast<int>(Metric::Rss)}},
                          metric))
    return fail(*e);
  spec.metric = static_cast<Metric>(metric);

  int stream = static_cast<int>(OutputStream::Stdout);
  if (auto e = readChoice(table, "stream",
                          {{"stdout", static_cast<int>(OutputStream::Stdout)},
                           {"stderr", static_cast<int>(OutputStream::Stderr)}},
                          stream))
    return fail(*e);
  spec.stream = static_cast<OutputStream>(stream);

  int field = static_cast<int>(GbenchField::RealTime);
  if (auto e =
          readChoice(table, "field",
                     {{"real_time", static_cast<int>(GbenchField::RealTime)},
                      {"cpu_time", static_cast<int>(GbenchField::CpuTime)}},
                     field))
    return fail(*e);
  spec.gbenchField = static_cast<GbenchField>(field);

  if (auto e = readString(table, "unit", spec.unit))
    return fail(*e);
  if (auto scale = unitToSeconds(spec.unit)) {
    spec.unitScale = *scale;
  } else {
    return fail(
        errorAt(*table.get("unit"),
                "measure.unit: expected one of ns, us, ms, s, min, got \"" +
                    spec.unit + "\""));
  }

  if (auto e = readString(table, "regex", spec.regex))
    return fail(*e);
  if (spec.source == IterationSource::Regex) {
    if (!table.get("regex"))
      return fail(errorAt(table, "measure: source = \"regex\" needs a regex "
                                 "key (its first group is the value)"));
    try {
      std::regex re(spec.regex, std::regex::ECMAScript);
      if (re.mark_count() < 1)
        return fail(errorAt(*table.get("regex"),
                            "measure.regex: expected a capture group around "
                            "the number"));
    } catch (const std::regex_error &e) {
      return fail(errorAt(*table.get("regex"),
                          std::string("measure.regex: invalid regular "
                                      "expression: ") +
                              e.what()));
    }
  }

  if (auto e = readString(table, "filter", spec.gbenchFilter))
    return fail(*e);
  if (!spec.gbenchFilter.empty()) {
    try {
      std::regex re(spec.gbenchFilter, std::regex::ECMAScript);
    } catch (const std::regex_error &e) {
      return fail(errorAt(*table.get("filter"),
                          std::string("measure.filter: invalid regular "
                                      "expression: ") +
                              e.what()));
    }
  }
  return result;
}

namespace {

Extraction extractNone(const MeasureSpec &spec, const ExecutionOutput &out) {
  double v = 0;
  switch (spec.metric) {
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
    v = static_cast<double>(out.maxRssKiB);
    break;
  }
  if (!(v > 0) || !std::isfinite(v)) {
    // A 0 CPU time is the clock's resolution, not a measurement.
    return {{},
            "measured " + formatNumber(v) +
                " for the whole execution: not a positive value (the "
                "metric is below its resolution)"};
  }
  return {{v}, {}};
}

} // namespace

IterationStream::IterationStream(const MeasureSpec &spec) : spec_(spec) {
  if (spec_.source != IterationSource::Regex)
    return;
  try {
    regex_.emplace(spec_.regex, std::regex::ECMAScript);
  } catch (const std::regex_error &e) {
    error_ = std::string("invalid regex: ") + e.what();
  }
}

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
  for (Iter it(line.begin(), line.end(), *regex_), end; it != end; ++it) {
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

Extraction measureExecution(IterationStream &stream, const ExecutionOutput &out, int expectedExit) {
  if (std::string why = describeFailure(out, expectedExit); !why.empty())
    return {{}, std::move(why)};
  return stream.finish(out);
}

Extraction measureExecution(const MeasureSpec &spec, const ExecutionOutput &out,
                            int expectedExit) {
  if (std::string why = describeFailure(out, expectedExit); !why.empty())
    return {{}, std::move(why)};
  return extractIterations(spec, out);
}

} // namespace alea::runner

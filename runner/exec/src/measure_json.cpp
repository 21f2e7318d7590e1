// Google Benchmark JSON source (see measure.hpp): the document is read with
// nlohmann-json (json_parse.hpp: errors give the byte offset where the text
// stopped being JSON), after the NaN/Infinity barewords google/benchmark's
// JSON reporter writes for non-finite counters are made numbers; then the
// per-repetition times are selected from its "benchmarks" array.
//
// google/benchmark (src/json_reporter.cc) writes one object per run with
// "name", "run_type" ("iteration" or "aggregate"), "real_time", "cpu_time" and
// "time_unit" ("ns", "us", "ms", "s"), the times being per benchmark iteration;
// with --benchmark_repetitions=N there are N "iteration" entries per benchmark,
// each of which is one alea iteration, followed by aggregates we skip.
#include "alea/exec/json_parse.hpp"

#include "alea/exec/measure.hpp"

#include <array>
#include <cmath>
#include <optional>
#include <regex>
#include <utility>

namespace alea::runner {

namespace {

// google/benchmark's JSON reporter writes a non-finite counter as NaN,
// -NaN, Infinity or -Infinity (json_reporter.cc, FormatKV), which RFC 8259
// and nlohmann-json reject. Outside strings each becomes 0 padded with spaces
// to its length, so that the byte offsets of errors stay those of the text:
// the only numbers read are the times, and 0 fails their check (a positive
// finite time) as a non-finite one did. Returns the text unchanged (no copy)
// when it has none.
std::string_view finiteBarewords(std::string_view text, std::string &storage) {
  static constexpr std::array<std::string_view, 4> kWords = {"-Infinity", "Infinity", "-NaN",
                                                             "NaN"};
  bool inString = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (inString) {
      if (c == '\\')
        ++i; // the escaped character cannot end the string
      else if (c == '"')
        inString = false;
      continue;
    }
    if (c == '"') {
      inString = true;
      continue;
    }
    if (c != '-' && c != 'I' && c != 'N')
      continue;
    for (std::string_view word : kWords) {
      if (text.substr(i, word.size()) != word)
        continue;
      if (storage.empty())
        storage.assign(text);
      storage.replace(i, word.size(), word.size(), ' ');
      storage[i] = '0';
      i += word.size() - 1;
      break;
    }
  }
  return storage.empty() ? text : std::string_view(storage);
}

// The member `key` of `object`, or null when it is absent or not an object.
const nlohmann::json *member(const nlohmann::json &object, const char *key) {
  if (!object.is_object())
    return nullptr;
  auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

const std::string *stringMember(const nlohmann::json &object, const char *key) {
  const nlohmann::json *v = member(object, key);
  return v && v->is_string() ? &v->get_ref<const std::string &>() : nullptr;
}

} // namespace

std::vector<std::pair<std::string, std::string>> sourceEnvironment(const MeasureSpec &spec,
                                                                   int iterations) {
  if (spec.source != IterationSource::GoogleBenchmarkJson)
    return {};
  std::vector<std::pair<std::string, std::string>> env = {
      {"BENCHMARK_FORMAT", "json"}, {"BENCHMARK_REPETITIONS", std::to_string(iterations)}};
  // google/benchmark searches its filter as alea does (std::regex_search,
  // ECMAScript), but reads a leading '-' as "all but" (1.7): such a filter is
  // applied by alea alone.
  if (!spec.gbenchFilter.empty() && spec.gbenchFilter.front() != '-')
    env.emplace_back("BENCHMARK_FILTER", spec.gbenchFilter);
  return env;
}

GbenchDocument readGoogleBenchmarkJson(std::string_view json, GbenchField field) {
  GbenchDocument out;
  std::string rewritten;
  JsonDocument doc = parseJsonDocument(finiteBarewords(json, rewritten));
  if (!doc.ok()) {
    out.error = doc.error;
    return out;
  }
  const nlohmann::json *benchmarks = member(doc.value, "benchmarks");
  if (!benchmarks || !benchmarks->is_array()) {
    out.error = "Google Benchmark JSON without a \"benchmarks\" array";
    return out;
  }
  if (const nlohmann::json *context = member(doc.value, "context"))
    if (const std::string *exe = stringMember(*context, "executable"))
      out.executable = *exe;
  const char *fieldName = field == GbenchField::RealTime ? "real_time" : "cpu_time";
  for (std::size_t i = 0; i < benchmarks->size(); ++i) {
    const nlohmann::json &entry = (*benchmarks)[i];
    const std::string where = "benchmarks[" + std::to_string(i) + "]";
    if (!entry.is_object()) {
      out.error = where + " is not an object";
      return out;
    }
    if (const std::string *runType = stringMember(entry, "run_type");
        runType && *runType == "aggregate") {
      ++out.aggregates;
      continue;
    }
    const std::string *name = stringMember(entry, "name");
    if (!name) {
      out.error = where + " has no \"name\"";
      return out;
    }
    GbenchRun run;
    run.name = *name;
    // Repetitions of one benchmark share run_name; name may carry a
    // "/repeats:N" suffix.
    const std::string *runName = stringMember(entry, "run_name");
    run.runName = runName ? *runName : *name;
    run.index = i;
    if (const nlohmann::json *err = member(entry, "error_occurred");
        err && err->is_boolean() && err->get<bool>()) {
      const std::string *msg = stringMember(entry, "error_message");
      run.error = "benchmark " + *name + " reported an error" + (msg ? ": " + *msg : std::string());
      out.runs.push_back(std::move(run));
      continue;
    }
    const nlohmann::json *value = member(entry, fieldName);
    std::optional<double> unitScale = 1e-9; // google/benchmark's default unit
    if (const nlohmann::json *unit = member(entry, "time_unit"))
      unitScale =
          unit->is_string() ? unitToSeconds(unit->get_ref<const std::string &>()) : std::nullopt;
    if (!value || !value->is_number()) {
      run.error = where + " has no numeric \"" + fieldName + "\"";
    } else if (!unitScale) {
      run.error = where + ": unknown time_unit";
    } else {
      run.seconds = value->get<double>() * *unitScale;
      if (!(run.seconds > 0) || !std::isfinite(run.seconds))
        run.error = where + ": " + fieldName + " is not a positive finite time";
    }
    out.runs.push_back(std::move(run));
  }
  return out;
}

namespace {

// How to get JSON from a Google Benchmark program, for the errors below.
constexpr const char *kJsonHint =
    "alea runs the program with BENCHMARK_FORMAT=json in its environment; a "
    "--benchmark_format=console (or csv) on its command line overrides that: remove it";

// The first line of `text` (at most 120 bytes), for an error message.
std::string firstLine(std::string_view text) {
  std::size_t begin = text.find_first_not_of(" \t\r\n");
  if (begin == std::string_view::npos)
    return {};
  text.remove_prefix(begin);
  std::string_view line = text.substr(0, text.find('\n'));
  if (!line.empty() && line.back() == '\r')
    line.remove_suffix(1);
  return std::string(line.substr(0, 120)) + (line.size() > 120 ? "..." : "");
}

} // namespace

Extraction parseGoogleBenchmarkJson(std::string_view json, GbenchField field,
                                    const std::string &nameFilter) {
  // Output that does not even begin like a JSON object: say what the
  // program printed instead of a bare "malformed JSON at byte 0".
  if (std::size_t first = json.find_first_not_of(" \t\r\n"); first == std::string_view::npos)
    return {{},
            std::string("the program wrote nothing on stdout, expected Google Benchmark "
                        "JSON (") +
                kJsonHint + ")"};
  else if (json[first] != '{')
    return {{},
            "stdout is not Google Benchmark JSON: it begins with \"" + firstLine(json) + "\" (" +
                kJsonHint + ")"};
  GbenchDocument doc = readGoogleBenchmarkJson(json, field);
  if (!doc.ok())
    return {{}, doc.error};

  std::optional<std::regex> filter;
  if (!nameFilter.empty()) {
    try {
      filter.emplace(nameFilter, std::regex::ECMAScript);
    } catch (const std::regex_error &e) {
      return {{}, std::string("invalid benchmark name filter: ") + e.what()};
    }
  }
  Extraction ex;
  std::string chosenName;
  for (const GbenchRun &run : doc.runs) {
    if (filter && !std::regex_search(run.name, *filter))
      continue;
    if (!run.error.empty())
      return {{}, run.error};
    if (chosenName.empty()) {
      chosenName = run.runName;
    } else if (run.runName != chosenName) {
      return {{},
              "several benchmarks in the JSON output (" + chosenName + ", " + run.runName +
                  "): set measure.filter to choose one"};
    }
    ex.values.push_back(run.seconds);
  }
  if (ex.values.empty()) {
    if (doc.runs.empty() && doc.aggregates > 0)
      ex.error = "no iteration matched: the JSON output holds only aggregates (mean, median, "
                 "...): remove --benchmark_report_aggregates_only and "
                 "--benchmark_display_aggregates_only from the command";
    else
      ex.error = nameFilter.empty() ? "no iteration matched: no benchmark run in the JSON output"
                                    : "no iteration matched: no benchmark named /" + nameFilter +
                                          "/ in the JSON output";
  }
  return ex;
}

} // namespace alea::runner

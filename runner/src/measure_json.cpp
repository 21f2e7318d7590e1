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
#include "json_parse.hpp"

#include "alea/runner/measure.hpp"

#include <array>
#include <cmath>
#include <optional>
#include <regex>

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

Extraction parseGoogleBenchmarkJson(std::string_view json, GbenchField field,
                                    const std::string &nameFilter) {
  std::string rewritten;
  JsonDocument doc = parseJsonDocument(finiteBarewords(json, rewritten));
  if (!doc.ok())
    return {{}, doc.error};
  const nlohmann::json *benchmarks = member(doc.value, "benchmarks");
  if (!benchmarks || !benchmarks->is_array())
    return {{},
            "Google Benchmark JSON without a \"benchmarks\" array (run the "
            "program with --benchmark_format=json)"};

  std::optional<std::regex> filter;
  if (!nameFilter.empty()) {
    try {
      filter.emplace(nameFilter, std::regex::ECMAScript);
    } catch (const std::regex_error &e) {
      return {{}, std::string("invalid benchmark name filter: ") + e.what()};
    }
  }
  const char *fieldName = field == GbenchField::RealTime ? "real_time" : "cpu_time";

  Extraction ex;
  std::string chosenName;
  for (std::size_t i = 0; i < benchmarks->size(); ++i) {
    const nlohmann::json &entry = (*benchmarks)[i];
    const std::string where = "benchmarks[" + std::to_string(i) + "]";
    if (!entry.is_object())
      return {{}, where + " is not an object"};
    if (const std::string *runType = stringMember(entry, "run_type");
        runType && *runType == "aggregate")
      continue;
    const std::string *name = stringMember(entry, "name");
    if (!name)
      return {{}, where + " has no \"name\""};
    // Repetition entries of one benchmark share run_name; name may carry a
    // "/repeats:N" suffix, so compare on run_name when present.
    const std::string *runName = stringMember(entry, "run_name");
    const std::string &id = runName ? *runName : *name;
    if (filter && !std::regex_search(*name, *filter))
      continue;
    if (const nlohmann::json *err = member(entry, "error_occurred");
        err && err->is_boolean() && err->get<bool>()) {
      const std::string *msg = stringMember(entry, "error_message");
      return {{},
              "benchmark " + *name + " reported an error" + (msg ? ": " + *msg : std::string())};
    }
    if (chosenName.empty()) {
      chosenName = id;
    } else if (id != chosenName) {
      return {{},
              "several benchmarks in the JSON output (" + chosenName + ", " + id +
                  "): set measure.filter to choose one"};
    }
    const nlohmann::json *value = member(entry, fieldName);
    if (!value || !value->is_number())
      return {{}, where + " has no numeric \"" + fieldName + "\""};
    double scale = 1e-9; // google/benchmark's default unit
    if (const nlohmann::json *unit = member(entry, "time_unit")) {
      auto s =
          unit->is_string() ? unitToSeconds(unit->get_ref<const std::string &>()) : std::nullopt;
      if (!s)
        return {{}, where + ": unknown time_unit"};
      scale = *s;
    }
    const double v = value->get<double>() * scale;
    if (!(v > 0) || !std::isfinite(v))
      return {{}, where + ": " + fieldName + " is not a positive finite time"};
    ex.values.push_back(v);
  }
  if (ex.values.empty())
    ex.error = nameFilter.empty() ? "no iteration matched: no benchmark run in the JSON output"
                                  : "no iteration matched: no benchmark named /" + nameFilter +
                                        "/ in the JSON output";
  return ex;
}

} // namespace alea::runner

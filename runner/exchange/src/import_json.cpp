// `alea import` of the JSON of two tools (import_rows.hpp):
//
// hyperfine --export-json (src/export/json.rs): {"results": [{"command",
// "times": [seconds...], "exit_codes": [...], ...}]}. Every time is one run of
// the command in its own process: one execution with one measurement.
// Without --system each command is a system (what hyperfine compares); with
// --system the commands are benchmarks of that system.
//
// Google Benchmark (src/json_reporter.cc, read by readGoogleBenchmarkJson in
// measure_json.cpp, the reader of the gbench measurement source): a file is
// one execution of the program; every benchmark (run_name) in it is one
// benchmark whose repetitions (--benchmark_repetitions) are its iterations;
// aggregate entries (mean, median, stddev, cv) are skipped.
#include "alea/exec/json_parse.hpp"
#include "import_rows.hpp"

#include "alea/words.hpp"

#include <cmath>
#include <filesystem>
#include <map>

namespace alea::runner::import {

namespace {

const nlohmann::json *member(const nlohmann::json &object, const char *key) {
  if (!object.is_object())
    return nullptr;
  auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

} // namespace

Expected<ParsedFile> readHyperfine(std::string_view text, const ImportInput &in,
                                   const std::string &defaultBenchmark) {
  auto fail = [&](const std::string &why) { return Error{in.path + ": " + why}; };
  // A byte order mark is skipped by the JSON reader, and counted in the
  // offset of an error, which counts the file's bytes.
  JsonDocument doc = parseJsonDocument(text);
  if (!doc.ok())
    return fail(doc.error);
  const nlohmann::json *results = member(doc.value, "results");
  if (!results || !results->is_array())
    return fail("expected hyperfine's --export-json format (an object with a \"results\" array)");
  if (!in.system.empty() && !in.benchmark.empty() && results->size() > 1)
    return fail(std::to_string(results->size()) +
                " commands in the export, but --benchmark names one benchmark for all of them");
  ParsedFile out;
  std::size_t failedRuns = 0;
  for (std::size_t i = 0; i < results->size(); ++i) {
    const nlohmann::json &r = (*results)[i];
    const std::string where = "results[" + std::to_string(i) + "]";
    const nlohmann::json *command = member(r, "command");
    const nlohmann::json *times = member(r, "times");
    if (!command || !command->is_string() || command->get_ref<const std::string &>().empty())
      return fail(where + ": expected a \"command\" string");
    if (!times || !times->is_array() || times->empty())
      return fail(where + ": expected a non-empty \"times\" array (hyperfine >= 1.6 exports it)");
    const std::string &name = command->get_ref<const std::string &>();
    // Runs that failed (kept by hyperfine -i) are not measurements of the
    // program's work; exit_codes is parallel to times when present. One that
    // is not cannot say which times failed: the export is damaged (or
    // edited), and guessing would import failed runs as data.
    const nlohmann::json *codes = member(r, "exit_codes");
    if (codes && !codes->is_array())
      return fail(where + ": \"exit_codes\" is not an array");
    if (codes && codes->size() != times->size())
      return fail(where + ": \"exit_codes\" has " + std::to_string(codes->size()) +
                  " entries but \"times\" has " + std::to_string(times->size()) +
                  " (hyperfine writes one exit code per time): a damaged export");
    for (std::size_t k = 0; k < times->size(); ++k) {
      const nlohmann::json &v = (*times)[k];
      double seconds = v.is_number() ? v.get<double>() : 0;
      if (!std::isfinite(seconds) || seconds <= 0)
        return fail(where + ".times[" + std::to_string(k) +
                    "]: expected a positive number of seconds");
      // null: hyperfine's exit code of a run ended by a signal.
      const nlohmann::json *code = codes ? &(*codes)[k] : nullptr;
      if (code && (code->is_null() || (code->is_number_integer() && code->get<long>() != 0))) {
        ++failedRuns;
        continue;
      }
      ParsedExecution e;
      if (in.system.empty()) {
        e.system = name;
        e.benchmark = in.benchmark.empty() ? defaultBenchmark : in.benchmark;
      } else {
        e.system = in.system;
        e.benchmark = in.benchmark.empty() ? name : in.benchmark;
      }
      e.values = {seconds};
      out.executions.push_back(std::move(e));
    }
  }
  if (failedRuns > 0)
    out.notes.push_back("left out " + counted(failedRuns, "run") +
                        " that failed (a non-zero exit code, or ended by a signal)");
  if (out.executions.empty())
    return fail("no successful run");
  return out;
}

Expected<ParsedFile> readGbench(std::string_view text, const ImportInput &in) {
  auto fail = [&](const std::string &why) { return Error{in.path + ": " + why}; };
  GbenchDocument doc = readGoogleBenchmarkJson(text, in.field);
  if (!doc.ok())
    return fail(doc.error);
  std::string system = in.system;
  if (system.empty())
    system = doc.executable.empty() ? "default"
                                    : std::filesystem::path(doc.executable).filename().string();
  // One execution per benchmark, in order of first appearance; its
  // repetitions in the array's order (interleaved ones too).
  ParsedFile out;
  std::map<std::string, std::size_t> slot;
  std::vector<std::string> names;
  for (const GbenchRun &run : doc.runs) {
    if (!run.error.empty())
      return fail(run.error);
    auto [it, fresh] = slot.try_emplace(run.runName, out.executions.size());
    if (fresh) {
      names.push_back(run.runName);
      out.executions.push_back({system, in.benchmark.empty() ? run.runName : in.benchmark, {}});
    }
    out.executions[it->second].values.push_back(run.seconds);
  }
  if (out.executions.empty())
    return fail(doc.aggregates > 0
                    ? "only aggregates (mean, median, ...) in the file: run the program without "
                      "--benchmark_report_aggregates_only to keep the repetitions"
                    : "no benchmark run in the file");
  if (!in.benchmark.empty() && out.executions.size() > 1)
    return fail(std::to_string(names.size()) + " benchmarks in the file (" + names[0] + ", " +
                names[1] + (names.size() > 2 ? ", ..." : "") +
                "), but --benchmark names one for all of them");
  return out;
}

} // namespace alea::runner::import

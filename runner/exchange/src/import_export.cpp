// Export to and import from the long CSV, and the import of several files
// of other tools into one store (see import_export.hpp): format detection,
// the numbering of builds and executions, and the writing. Imported data
// becomes a regular store: systems, benchmarks, builds marked "imported", a
// plan in file order, executions with status ok, measurements; so `alea
// report` treats it like a campaign. The readers of hyperfine and Google
// Benchmark JSON are in import_json.cpp, of runcpu's CSV in import_spec.cpp.
#include "alea/exchange/import_export.hpp"

#include "alea/exec/json_parse.hpp"
#include "alea/file.hpp"
#include "alea/lists.hpp"
#include "import_rows.hpp"

#include "alea/analysis/csv.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <tuple>

namespace alea::runner {

Expected<std::size_t> exportLongCsv(Store &store, std::ostream &out, std::string_view metric) {
  if (!metric.empty()) {
    std::vector<std::string> measured = store.measuredMetrics();
    if (std::find(measured.begin(), measured.end(), metric) == measured.end())
      return Error{"no metric \"" + std::string(metric) + "\" in this store (" +
                   (measured.empty() ? std::string("it measured one metric")
                                     : "it measured " + joinWith(measured, ", ")) +
                   ")"};
  }
  // The settings `alea report` analyses the store with (campaign_data.cpp).
  ExportSettings settings;
  settings.design = store.meta("design").value_or("");
  auto number = [&](const char *key) -> std::optional<double> {
    const auto v = store.meta(key);
    double d = 0;
    if (!v || v->empty())
      return std::nullopt;
    auto [p, ec] = std::from_chars(v->data(), v->data() + v->size(), d);
    return ec == std::errc() && p == v->data() + v->size() ? std::optional<double>(d)
                                                           : std::nullopt;
  };
  settings.threshold = number("threshold");
  settings.confidence = number("confidence");
  settings.baseline = store.meta("baseline").value_or("");
  if (settings.baseline.empty())
    if (auto systems = store.systems())
      for (const SystemRow &sys : *systems)
        if (sys.baseline) {
          settings.baseline = sys.name;
          break;
        }
  if (const std::string comment = exportComment(settings); comment != model::kExportCommentTag)
    out << '#' << comment << '\n';
  // The executions' start times when the store has them (a campaign's): the
  // paired analysis of the CSV reads its neighbouring blocks by them, as the
  // report does.
  const bool times = store.hasStartTimes();
  out << "system,benchmark,build,execution,iteration,value" << (times ? ",started_at\n" : "\n");
  std::size_t n = 0;
  char num[64];
  // Shortest text that reads back to the same double (std::to_chars).
  auto write = [&](double v) {
    auto [end, ec] = std::to_chars(num, num + sizeof num, v);
    out.write(num, end - num);
  };
  // Row by row from the store, without a vector of copied rows in between.
  auto row = [&](const MeasurementView &r) {
    out << analysis::csvField(r.system) << ',' << analysis::csvField(r.benchmark) << ',' << r.build
        << ',' << r.execution << ',' << r.iteration << ',';
    write(r.value);
    if (times) {
      out << ',';
      if (r.startedAt > 0) // else empty: unknown
        write(r.startedAt);
    }
    out << '\n';
    ++n;
  };
  Status read = store.visitMeasurements(/*includeWarmup=*/false, row, {}, metric);
  if (!read)
    return Error{read.error()};
  if (!out)
    return Error{"cannot write the CSV output"};
  return n;
}

namespace {

// The measurements of one import, keyed by their place in the levels.
struct ImportRow {
  std::string system, benchmark;
  int build = 0, execution = 0, iteration = 0;
  double value = 0;
  double startedAt = 0; // its execution's, epoch seconds (0: unknown)
};

// `name` becomes the campaign's name, `source` is said where the data came
// from (the build rows, the executions' environment, errors).
// `settings`: an exported CSV's (design, threshold, confidence, baseline),
// kept as the campaign's.
Expected<ImportSummary> writeRows(const std::vector<ImportRow> &rows, const std::string &name,
                                  const std::string &source, Store &store,
                                  const ExportSettings &settings = {}) {
  if (store.hasPlan() || store.summary().builds > 0)
    return Error{"the store '" + store.path() + "' already holds data; import into a new store"};
  ImportSummary sum;
  Transaction txn(store);
  if (!txn.active())
    return Error{"cannot begin a transaction: " + store.lastError()};
  std::map<std::string, std::int64_t> systems, benchmarks;
  std::map<std::pair<std::int64_t, int>, std::int64_t> builds;
  // Executions: (system, benchmark, build, execution) -> plan position.
  std::map<std::tuple<std::int64_t, std::int64_t, int, int>, std::int64_t> executions;
  std::vector<std::vector<MeasurementRecord>> values;
  std::vector<double> startedAt; // per execution: the earliest of its rows' (0: unknown)
  std::vector<PlanEntry> plan;
  for (const ImportRow &r : rows) {
    auto [sys, newSys] = systems.try_emplace(r.system, 0);
    if (newSys) {
      auto id =
          store.ensureSystem(r.system, systems.size() == 1, static_cast<int>(systems.size() - 1));
      if (!id)
        return Error{id.error()};
      sys->second = *id;
    }
    auto [bench, newBench] = benchmarks.try_emplace(r.benchmark, 0);
    if (newBench) {
      auto id = store.ensureBenchmark(r.benchmark, static_cast<int>(benchmarks.size() - 1), "s");
      if (!id)
        return Error{id.error()};
      bench->second = *id;
    }
    auto [build, newBuild] = builds.try_emplace({sys->second, r.build}, 0);
    if (newBuild) {
      auto id = store.importBuild(sys->second, r.build, source);
      if (!id)
        return Error{id.error()};
      build->second = *id;
    }
    auto key = std::make_tuple(sys->second, bench->second, r.build, r.execution);
    auto [exec, newExec] = executions.try_emplace(key, static_cast<std::int64_t>(plan.size()));
    if (newExec) {
      plan.push_back({exec->second, sys->second, bench->second, r.build, r.execution});
      values.emplace_back();
      startedAt.push_back(0);
    }
    const auto at = static_cast<std::size_t>(exec->second);
    values[at].push_back({r.iteration, r.value, false});
    if (r.startedAt > 0 && (startedAt[at] == 0 || r.startedAt < startedAt[at]))
      startedAt[at] = r.startedAt;
  }
  std::vector<ImportedExecution> imported;
  imported.reserve(plan.size());
  for (const PlanEntry &p : plan) {
    auto &v = values[static_cast<std::size_t>(p.position)];
    // An iteration given twice: said here with its place in the levels (the
    // store would only report a constraint).
    std::sort(v.begin(), v.end(), [](const MeasurementRecord &a, const MeasurementRecord &b) {
      return a.iteration < b.iteration;
    });
    auto twice = std::adjacent_find(v.begin(), v.end(), [](const auto &a, const auto &b) {
      return a.iteration == b.iteration;
    });
    if (twice != v.end())
      return Error{"duplicate measurement in " + source + ": system " + std::to_string(p.systemId) +
                   ", build " + std::to_string(p.buildIndex) + ", execution " +
                   std::to_string(p.executionIndex) + ", iteration " +
                   std::to_string(twice->iteration) + " appears twice"};
    imported.push_back({p, builds.at({p.systemId, p.buildIndex}),
                        startedAt[static_cast<std::size_t>(p.position)], v});
    sum.measurements += v.size();
  }
  if (Status s = store.importExecutions(imported, "imported from " + source, "s"); !s)
    return Error{s.error()};
  std::vector<std::pair<const char *, std::string>> meta{
      {"campaign_name", name},
      {"imported_from", source},
      {"baseline", !settings.baseline.empty() && systems.count(settings.baseline)
                       ? settings.baseline
                   : rows.empty() ? ""
                                  : rows.front().system}};
  if (!settings.design.empty())
    meta.push_back({"design", settings.design});
  if (settings.threshold)
    meta.push_back({"threshold", model::settingNumber(*settings.threshold)});
  if (settings.confidence)
    meta.push_back({"confidence", model::settingNumber(*settings.confidence)});
  for (const auto &[k, v] : meta)
    if (Status s = store.setMeta(k, v); !s)
      return Error{s.error()};
  if (Status s = txn.commit(); !s)
    return Error{s.error()};
  sum.systems = systems.size();
  sum.benchmarks = benchmarks.size();
  sum.builds = builds.size();
  sum.executions = plan.size();
  return sum;
}

bool allIntegers(const analysis::Table &t, std::size_t level) {
  for (std::size_t i = 0; i < t.size(); ++i) {
    const std::string &s = t.label(i, level);
    int v;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size() || v < 0)
      return false;
  }
  return true;
}

} // namespace

Expected<ImportSummary> importLongCsv(std::string_view text, const std::string &fileName,
                                      Store &store, const std::string &name) {
  analysis::CsvResult parsed = analysis::parseCsv(text);
  if (parsed.error)
    return Error{parsed.error->format(fileName)};
  auto settings = readExportComment(parsed.comments);
  if (!settings)
    return Error{fileName + ": " + settings.error()};
  const analysis::Table &t = *parsed.table;
  const std::vector<std::string> known{"build", "execution", "iteration"};
  std::vector<int> slot; // level -> 0 build, 1 execution, 2 iteration
  int last = -1;
  for (const auto &name : t.levels()) {
    auto it = std::find(known.begin(), known.end(), name);
    if (it == known.end())
      return Error{fileName + ":1: level column '" + name +
                   "' has no place in a store (expected build, execution, iteration)"};
    int k = static_cast<int>(it - known.begin());
    if (k <= last)
      return Error{fileName + ":1: level columns must be in the order build, execution, iteration"};
    last = k;
    slot.push_back(k);
  }
  std::vector<bool> numeric;
  for (std::size_t l = 0; l < t.levels().size(); ++l)
    numeric.push_back(allIntegers(t, l));
  // Non-numeric labels: numbered by first appearance within their parent unit.
  std::vector<std::map<std::string, int>> firstSeen(t.levels().size());
  std::vector<ImportRow> rows;
  rows.reserve(t.size());
  for (std::size_t i = 0; i < t.size(); ++i) {
    const analysis::Row &r = t.row(i);
    ImportRow row;
    row.system = t.systems()[r.system];
    row.benchmark = t.benchmarks().empty() || t.benchmarks()[r.benchmark].empty()
                        ? "default"
                        : t.benchmarks()[r.benchmark];
    row.value = r.value;
    row.startedAt = std::isfinite(r.order) ? r.order : 0;
    std::string parent = row.system + '\x1f' + row.benchmark;
    int idx[3] = {0, 0, 0};
    for (std::size_t l = 0; l < t.levels().size(); ++l) {
      const std::string &label = t.label(i, l);
      int v;
      if (numeric[l]) {
        std::from_chars(label.data(), label.data() + label.size(), v);
      } else {
        auto &seen = firstSeen[l];
        std::string key = parent + '\x1f' + label;
        auto [it, fresh] = seen.try_emplace(key, 0);
        if (fresh) {
          int n = 0;
          for (const auto &[k, val] : seen)
            if (k.compare(0, parent.size() + 1, parent + '\x1f') == 0 && k != key)
              ++n;
          it->second = n;
        }
        v = it->second;
      }
      idx[slot[l]] = v;
      parent += '\x1f' + label;
    }
    row.build = idx[0];
    row.execution = idx[1];
    row.iteration = idx[2];
    rows.push_back(std::move(row));
  }
  return writeRows(rows, name.empty() ? std::filesystem::path(fileName).stem().string() : name,
                   fileName, store, settings->value_or(ExportSettings{}));
}

std::string_view importFormatName(ImportFormat format) { return enumName(format); }

std::optional<ImportFormat> importFormatFromName(std::string_view name) {
  return parseEnum<ImportFormat>(name);
}

Expected<ImportFormat> importFormatOf(std::string_view text, const std::string &fileName) {
  // A byte order mark (Windows editors and PowerShell's `Out-File -Encoding
  // utf8` write one) is not data; left in place it would hide a JSON file's
  // opening brace. The readers skip it themselves.
  std::size_t first = text.find_first_not_of(" \t\r\n", import::bomLength(text));
  if (first != std::string_view::npos && text[first] == '{') {
    // Google Benchmark writes NaN/Infinity for non-finite counters: not JSON,
    // but not a reason to mistake the file for another format.
    if (text.find("\"benchmarks\"") != std::string_view::npos &&
        text.find("\"results\"") == std::string_view::npos)
      return ImportFormat::Gbench;
    JsonDocument doc = parseJsonDocument(text);
    if (!doc.ok())
      return Error{fileName + ": " + doc.error};
    if (doc.value.contains("results"))
      return ImportFormat::Hyperfine;
    if (doc.value.contains("benchmarks"))
      return ImportFormat::Gbench;
    return Error{fileName + ": a JSON object that is neither a hyperfine export (a \"results\" "
                            "array) nor Google Benchmark output (a \"benchmarks\" array)"};
  }
  // runcpu's result CSV: a section title line "Full Results Table", quoted or not.
  for (std::size_t at = 0; (at = text.find("Full Results Table", at)) != std::string_view::npos;
       ++at) {
    std::size_t lineStart = text.rfind('\n', at);
    lineStart = lineStart == std::string_view::npos ? 0 : lineStart + 1;
    std::string_view before = text.substr(lineStart, at - lineStart);
    if (before.empty() || before == "\"" || before == "\xEF\xBB\xBF" || before == "\xEF\xBB\xBF\"")
      return ImportFormat::Spec;
  }
  return ImportFormat::Csv;
}

namespace {

Expected<std::string> readWhole(const std::string &path) {
  if (std::optional<std::string> text = alea::readFile(path))
    return *text;
  return Error{"cannot read '" + path + "'"};
}

} // namespace

Expected<ImportSummary> importFiles(std::span<const ImportInput> inputs, Store &store,
                                    const std::string &name) {
  if (inputs.empty())
    return Error{"no file to import"};
  std::vector<ImportRow> rows;
  std::vector<std::string> notes;
  // Builds of files without one: 0, 1, ... per system option.
  std::map<std::string, int> nextBuild;
  // Executions: numbered in the order read within (system, benchmark, build).
  std::map<std::tuple<std::string, std::string, int>, int> nextExecution;
  const std::string defaultBenchmark = std::filesystem::path(inputs.front().path).stem().string();
  std::string source;
  for (const ImportInput &in : inputs) {
    source += (source.empty() ? "" : ", ") + in.path;
    auto text = readWhole(in.path);
    if (!text)
      return Error{text.error()};
    ImportFormat format = in.format;
    if (format == ImportFormat::Auto) {
      auto detected = importFormatOf(*text, in.path);
      if (!detected)
        return Error{detected.error()};
      format = *detected;
    }
    if (format == ImportFormat::Csv) {
      // The long CSV names its systems, benchmarks and levels itself.
      if (inputs.size() != 1 || !in.system.empty() || in.build || !in.benchmark.empty())
        return Error{in.path + ": a long CSV names its systems, benchmarks and levels itself: " +
                     "import it alone, without --system, --build or --benchmark"};
      return importLongCsv(*text, in.path, store, name);
    }
    Expected<import::ParsedFile> parsed = Error{""};
    switch (format) {
    case ImportFormat::Hyperfine:
      parsed = import::readHyperfine(*text, in, defaultBenchmark);
      break;
    case ImportFormat::Gbench:
      parsed = import::readGbench(*text, in);
      break;
    default:
      parsed = import::readSpecCsv(*text, in);
      break;
    }
    if (!parsed)
      return Error{parsed.error()}; // the reader names the file and the place
    for (const std::string &n : parsed->notes)
      notes.push_back(in.path + ": " + n);
    const int build = in.build ? *in.build : nextBuild[in.system]++;
    for (const import::ParsedExecution &e : parsed->executions) {
      int &execution = nextExecution[{e.system, e.benchmark, build}];
      for (std::size_t i = 0; i < e.values.size(); ++i)
        rows.push_back({e.system, e.benchmark, build, execution, static_cast<int>(i), e.values[i]});
      ++execution;
    }
  }
  if (rows.empty())
    return Error{source + ": no measurements"};
  auto sum = writeRows(rows, name.empty() ? defaultBenchmark : name, source, store);
  if (sum)
    sum->notes = std::move(notes);
  return sum;
}

Expected<ImportSummary> importHyperfineJson(std::string_view text, const std::string &fileName,
                                            Store &store, const std::string &benchmark) {
  ImportInput in;
  in.path = fileName;
  auto parsed = import::readHyperfine(text, in, benchmark);
  if (!parsed)
    return Error{parsed.error()};
  std::vector<ImportRow> rows;
  std::map<std::string, int> executions;
  for (const import::ParsedExecution &e : parsed->executions)
    rows.push_back({e.system, e.benchmark, 0, executions[e.system]++, 0, e.values.front()});
  auto sum = writeRows(rows, std::filesystem::path(fileName).stem().string(), fileName, store);
  if (sum)
    sum->notes = parsed->notes;
  return sum;
}

Expected<ImportSummary> importFile(const std::string &path, Store &store) {
  ImportInput in;
  in.path = path;
  return importFiles(std::span<const ImportInput>(&in, 1), store);
}

} // namespace alea::runner

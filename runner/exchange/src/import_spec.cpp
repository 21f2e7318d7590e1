// `alea import` of a SPEC CPU 2017 result CSV (import_rows.hpp): the `.csv`
// runcpu writes next to the .txt and .html (output_format csv, on by
// default) in $SPEC/result.
//
// What is read, after the section title line "Full Results Table": a header
// line naming the columns, then one line per benchmark and iteration until
// the next section ("Selected Results Table", the SPECrate/SPECspeed metric
// lines). Columns are found by name, and the "Est. " prefix of a
// non-reportable run's columns is ignored: Benchmark; Base Run Time and Base
// Status; Peak Run Time and Peak Status. A line carries a base iteration, a
// peak iteration or both. (Names as in SPEC's docs/result-fields.html and
// in the CSVs published on spec.org; the "# Copies" or "# Threads", Ratio or
// Rate, Selected and Description columns are not needed: the run time of a
// SPECrate iteration is that of all its copies together.)
//
// Each iteration is its own run of the benchmark binary: one execution with
// one measurement, the run time in seconds. Status "S" is a success; a
// benchmark that was not run ("NR", or empty) has no iteration; any other
// status (a run or verification error) is left out and counted in a note.
// The system is the user's --system for base ("S:peak" for peak), or "base"
// and "peak" without one; the build is the file's (import_export.hpp).
#include "import_rows.hpp"

#include "alea/words.hpp"

#include "alea/analysis/csv.hpp"

#include <charconv>
#include <cmath>
#include <map>

namespace alea::runner::import {

namespace {

// A column name without a non-reportable run's "Est. " prefix.
std::string_view columnName(std::string_view name) {
  if (name.substr(0, 5) == "Est. ")
    name.remove_prefix(5);
  return name;
}

bool parsePositive(const std::string &text, double &out) {
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && p == text.data() + text.size() && std::isfinite(out) && out > 0;
}

// A line that ends the table: a section title (one field) or a metric line
// ("SPECrate2017_int_base", "Est. SPECspeed2017_fp_peak", ...).
bool endsTable(const analysis::CsvRecord &r) {
  if (r.fields.size() < 2)
    return true;
  std::string_view first = columnName(r.fields[0]);
  return first.substr(0, 4) == "SPEC" || first == "Selected Results Table";
}

} // namespace

Expected<ParsedFile> readSpecCsv(std::string_view text, const ImportInput &in) {
  // Errors as a compiler's: "FILE: ...", "FILE:LINE: ...", "FILE:LINE:COLUMN: ...".
  auto fail = [&](const std::string &why) { return Error{in.path + ": " + why}; };
  auto failAt = [&](std::size_t line, const std::string &why) {
    return Error{in.path + ":" + std::to_string(line) + ": " + why};
  };
  analysis::CsvRecords csv = analysis::readCsvRecords(text);
  // A syntax error after the tables (in the notes, say) does not matter to
  // the import; one inside them does, below.
  std::size_t title = 0;
  while (title < csv.records.size() && !(csv.records[title].fields.size() == 1 &&
                                         csv.records[title].fields[0] == "Full Results Table"))
    ++title;
  if (title == csv.records.size()) {
    if (csv.error)
      return Error{csv.error->format(in.path)};
    return fail("no \"Full Results Table\" line: not a runcpu result CSV");
  }
  if (title + 1 >= csv.records.size())
    return failAt(csv.records[title].line, "\"Full Results Table\" without its header line");
  const analysis::CsvRecord &header = csv.records[title + 1];
  std::map<std::string_view, std::size_t> column;
  for (std::size_t i = 0; i < header.fields.size(); ++i)
    column.emplace(columnName(header.fields[i]), i);
  if (!column.count("Benchmark"))
    return failAt(header.line, "the Full Results Table's header has no \"Benchmark\" column");
  struct Tune {
    const char *name, *time, *status;
    std::size_t timeAt = 0, statusAt = 0;
    bool present = false;
  };
  Tune tunes[2] = {{"base", "Base Run Time", "Base Status"},
                   {"peak", "Peak Run Time", "Peak Status"}};
  for (Tune &t : tunes) {
    auto time = column.find(t.time), status = column.find(t.status);
    if (time != column.end() && status != column.end()) {
      t.timeAt = time->second;
      t.statusAt = status->second;
      t.present = true;
    }
  }
  if (!tunes[0].present && !tunes[1].present)
    return failAt(header.line, "the Full Results Table's header has neither \"Base Run Time\" "
                               "and \"Base Status\" nor \"Peak Run Time\" and \"Peak Status\"");
  const std::size_t benchmarkAt = column.at("Benchmark");

  ParsedFile out;
  std::map<std::string, std::size_t> failed; // status -> iterations left out
  std::size_t end = title + 2;
  for (; end < csv.records.size() && !endsTable(csv.records[end]); ++end) {
    const analysis::CsvRecord &r = csv.records[end];
    auto field = [&](std::size_t i) -> const std::string & {
      static const std::string none;
      return i < r.fields.size() ? r.fields[i] : none;
    };
    const std::string &benchmark = field(benchmarkAt);
    if (benchmark.empty())
      return failAt(r.line, "a result line without a benchmark name");
    for (const Tune &t : tunes) {
      if (!t.present)
        continue;
      const std::string &status = field(t.statusAt);
      if (status.empty() || status == "NR")
        continue; // this tuning was not run
      if (status != "S") {
        ++failed[status];
        continue;
      }
      double seconds = 0;
      if (!parsePositive(field(t.timeAt), seconds))
        return failAt(r.line, benchmark + ": " + t.name + " run time \"" + field(t.timeAt) +
                                  "\" is not a positive number of seconds");
      std::string system = in.system.empty() ? t.name : in.system;
      if (!in.system.empty() && t.name == std::string_view("peak"))
        system += ":peak";
      out.executions.push_back(
          {std::move(system), in.benchmark.empty() ? benchmark : in.benchmark, {seconds}});
    }
  }
  // A syntax error inside the table would have cut it short.
  if (csv.error && end == csv.records.size())
    return Error{csv.error->format(in.path)};
  for (const auto &[status, n] : failed)
    out.notes.push_back("left out " + counted(n, "iteration") + " with status " + status +
                        " (not a successful run)");
  if (out.executions.empty())
    return fail("no iteration with status S in the Full Results Table");
  return out;
}

} // namespace alea::runner::import

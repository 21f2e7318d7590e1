// Measurement exchange between a store and files (issues 4, 11): `alea
// export` writes the long CSV (`system,benchmark,build,execution,iteration,
// value`, successful executions only, warm-up excluded) that `alea analyze`
// reads; `alea import` reads into a new store that CSV (parsed by the
// analysis library's reader, so both sides share one dialect and its located
// errors), hyperfine's `--export-json` files, Google Benchmark's JSON output
// and SPEC CPU 2017 runcpu result CSVs, several files at once grouped into
// systems and builds (docs/measure.md "Importing measurements").
#pragma once

#include "alea/config/error.hpp"
#include "alea/enum_names.hpp"
#include "alea/exec/measure.hpp"
#include "alea/model/export_settings.hpp"
#include "alea/store/campaign_dir.hpp"
#include "alea/store/store.hpp"

#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace alea::runner {

// The settings line an export carries (alea/model/export_settings.hpp, read
// by `alea analyze` without the runner); named here as the exchange uses it.
using model::exportComment;
using model::ExportSettings;
using model::readExportComment;

// Writes the long CSV of the store's data, after the comment line of the
// store's settings; returns the number of rows.
// `metric`: another metric of a campaign that measured several (docs/measure.md,
// meta "metrics"); empty: each benchmark's decision metric. An unknown
// metric is an error naming the measured ones.
Expected<std::size_t> exportLongCsv(Store &store, std::ostream &out, std::string_view metric = {});

struct ImportSummary {
  std::size_t systems = 0, benchmarks = 0, builds = 0, executions = 0, measurements = 0;
  // What was read but left out, one sentence each (e.g. hyperfine runs with
  // a non-zero exit code, SPEC iterations that did not verify).
  std::vector<std::string> notes;
};

#define ALEA_IMPORT_FORMATS(X)                                                                     \
  X(Auto, "auto")           /* decided by the content (importFormatOf) */                          \
  X(Csv, "csv")             /* alea's long CSV */                                                  \
  X(Hyperfine, "hyperfine") /* hyperfine --export-json */                                          \
  X(Gbench, "gbench")       /* Google Benchmark --benchmark_format=json / --benchmark_out */       \
  X(Spec, "spec")           /* SPEC CPU 2017 runcpu result .csv */
enum class ImportFormat { ALEA_IMPORT_FORMATS(ALEA_ENUMERATOR) };
ALEA_ENUM_NAMES(ImportFormat, ALEA_IMPORT_FORMATS);

// "auto", "csv", "hyperfine", "gbench", "spec".
std::string_view importFormatName(ImportFormat format);
std::optional<ImportFormat> importFormatFromName(std::string_view name);

// The format of a file's text, after any UTF-8 byte order mark and white
// space: a JSON object with "benchmarks" -> Gbench, with "results" ->
// Hyperfine; a CSV with a "Full Results Table" line -> Spec; anything else ->
// Csv. A JSON object that is neither, or malformed, is an error.
Expected<ImportFormat> importFormatOf(std::string_view text, const std::string &fileName);

// One file of an import and where its measurements go (`alea import`'s
// options before it on the command line).
struct ImportInput {
  std::string path;
  ImportFormat format = ImportFormat::Auto;
  // The system of every measurement in the file ("" = from the file:
  // hyperfine's command, Google Benchmark's executable, SPEC's tuning).
  std::string system;
  // The build the file belongs to; none: the file is a build of its own,
  // numbered 0, 1, ... among the files of the same `system`.
  std::optional<int> build;
  // The benchmark of every measurement ("" = from the file: the command with
  // --system, Google Benchmark's run name, SPEC's benchmark).
  std::string benchmark;
  GbenchField field = GbenchField::RealTime; // Google Benchmark's time
};

// Reads every input and writes them into the empty `store` in one
// transaction. Within a (system, benchmark, build), executions are numbered
// in the order read: one per hyperfine run, per Google Benchmark file and
// benchmark (its repetitions are the iterations), per SPEC iteration. A long
// CSV carries its own levels: it must be the only input, without system or
// build. Errors name the file (and line or byte when it is malformed).
// `name` is the campaign's name in the store ("": the first file's name
// without its extension).
Expected<ImportSummary> importFiles(std::span<const ImportInput> inputs, Store &store,
                                    const std::string &name = "");

// Long CSV: header with `system`, optional `benchmark`, level columns among
// build, execution, iteration (highest first; a missing level is unit 0), and
// `value`. Unit labels that are all integers keep their numbers, others are
// numbered 0.. in order of first appearance. Errors: `file:line:column: ...`.
// The settings of an exported CSV's comment (design, threshold, confidence,
// baseline) become the store's, as if the campaign had set them.
Expected<ImportSummary> importLongCsv(std::string_view text, const std::string &fileName,
                                      Store &store, const std::string &name = "");

// hyperfine --export-json: one system per results[].command, one execution
// per entry of results[].times (hyperfine runs each time in its own process),
// build 0, iteration 0, benchmark `benchmark`. A leading UTF-8 byte order
// mark is skipped (as the CSV reader skips it).
Expected<ImportSummary> importHyperfineJson(std::string_view text, const std::string &fileName,
                                            Store &store, const std::string &benchmark);

// One file in its detected format, as importFiles with no options (a
// hyperfine export's benchmark is named after the file).
Expected<ImportSummary> importFile(const std::string &path, Store &store);

} // namespace alea::runner

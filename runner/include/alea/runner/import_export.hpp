// Measurement exchange between a store and files (issue 4): `alea export`
// writes the long CSV (`system,benchmark,build,execution,iteration,value`,
// successful executions only, warm-up excluded) that `alea analyze` reads;
// `alea import` reads that CSV (parsed by the analysis library's reader, so
// both sides share one dialect and its located errors) or hyperfine's
// `--export-json` file back into a new store.
#pragma once

#include "alea/runner/error.hpp"
#include "alea/runner/store.hpp"

#include <ostream>
#include <string>
#include <string_view>

namespace alea::runner {

// Writes the long CSV of the store's data; returns the number of rows.
Expected<std::size_t> exportLongCsv(Store &store, std::ostream &out);

struct ImportSummary {
  std::size_t systems = 0, benchmarks = 0, executions = 0, measurements = 0;
};

// Long CSV: header with `system`, optional `benchmark`, level columns among
// build, execution, iteration (highest first; a missing level is unit 0), and
// `value`. Unit labels that are all integers keep their numbers, others are
// numbered 0.. in order of first appearance. Errors: `file:line:column: ...`.
Expected<ImportSummary> importLongCsv(std::string_view text, const std::string &fileName,
                                      Store &store);

// hyperfine --export-json: one system per results[].command, one execution
// per entry of results[].times (hyperfine runs each time in its own process),
// build 0, iteration 0, benchmark `benchmark`. A leading UTF-8 byte order
// mark is skipped (as the CSV reader skips it).
Expected<ImportSummary> importHyperfineJson(std::string_view text, const std::string &fileName,
                                            Store &store, const std::string &benchmark);

// Reads `path` and dispatches on its content after any UTF-8 byte order mark
// and white space (a JSON object -> hyperfine, anything else -> long CSV).
Expected<ImportSummary> importFile(const std::string &path, Store &store);

// A store path from a user argument: a directory means `<dir>/campaign.db`.
std::string resolveStorePath(const std::string &argument);

} // namespace alea::runner

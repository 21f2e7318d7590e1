// The shared inside of `alea import` (import_export.hpp): every reader of a
// foreign format turns one file into executions (system, benchmark, the
// iterations in order); importFiles numbers them into builds and executions
// and writes them as rows into the store. Private to the runner library.
#pragma once

#include "alea/exchange/import_export.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace alea::runner::import {

// One execution read from a file: its iterations' values in seconds, in order.
struct ParsedExecution {
  std::string system, benchmark;
  std::vector<double> values;
};

struct ParsedFile {
  std::vector<ParsedExecution> executions;
  std::vector<std::string> notes; // see ImportSummary::notes
};

// The readers. `in` gives the user's system/benchmark (empty: from the file);
// `defaultBenchmark` names a hyperfine command's benchmark when neither the
// user nor the file does. Errors begin with `in.path` (and the line, or the
// byte offset, when the file is malformed).
Expected<ParsedFile> readHyperfine(std::string_view text, const ImportInput &in,
                                   const std::string &defaultBenchmark);
Expected<ParsedFile> readGbench(std::string_view text, const ImportInput &in);
Expected<ParsedFile> readSpecCsv(std::string_view text, const ImportInput &in);

// Bytes of a UTF-8 byte order mark at the start of `text` (0 or 3).
inline std::size_t bomLength(std::string_view text) {
  return text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
}

} // namespace alea::runner::import

// Reads the long-form measurement CSV (DESIGN.md "Measurement exchange") into
// a Table. Pure: text in, Table or one located error out; the caller names the
// file. Format (docs/analyze.md): RFC 4180 fields (quotes, doubled quotes,
// CRLF), optional comment lines beginning with '#' before the header, a
// header naming `system`, optionally `benchmark`, the level columns
// from the highest to the lowest, `value`, and optionally `started_at` (the
// start of the measurement's execution, seconds > 0 such as since the epoch,
// empty when unknown:
// `alea export` writes it for a campaign; the rows' Table order, which the
// paired analysis reads neighbouring blocks by). Every value must be a finite
// number > 0 (a time); every system and unit label non-empty.
#pragma once

#include "alea/analysis/table.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace alea::analysis {

// A problem at a place in the input: 1-based line and column (the column of
// the first character of the offending field, in bytes).
struct CsvError {
  std::size_t line = 0;
  std::size_t column = 0;
  std::string message;
  // "file:line:col: message"
  std::string format(std::string_view file) const;
};

struct CsvOptions {
  // Level columns, highest first. Empty: every header column other than
  // system, benchmark, value and started_at, in header order.
  std::vector<std::string> levels;
};

struct CsvResult {
  std::optional<Table> table;
  std::optional<CsvError> error;
  // The lines before the header that begin with '#', without it (comments;
  // `alea export` writes the campaign's design and threshold there).
  std::vector<std::string> comments;
};

// Parses the whole text. On success the table holds every data row; checks
// needing the whole data (balance, counts) are done later by the report.
CsvResult parseCsv(std::string_view text, const CsvOptions &options = {});

// One CSV field, RFC 4180 quoted when it holds a comma, quote, CR/LF or
// leading/trailing space.
std::string csvField(std::string_view field);

// The RFC 4180 records of any CSV text (the same tokenizer as parseCsv:
// quotes, doubled quotes, CRLF, a leading byte order mark skipped, blank lines
// skipped, unquoted fields trimmed), for files that are CSV but not the long
// form: runcpu's result tables (`alea import`).
struct CsvRecord {
  std::vector<std::string> fields;
  std::size_t line = 0; // 1-based line of its first field
};

struct CsvRecords {
  std::vector<CsvRecord> records;
  std::optional<CsvError> error; // the first syntax error; records before it are kept
};

CsvRecords readCsvRecords(std::string_view text);

} // namespace alea::analysis

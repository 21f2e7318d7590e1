// The long-form CSV reader (csv.hpp): an RFC 4180 tokenizer that remembers
// where each field starts, then a header/row validator that turns the first
// problem into one located message.
#include "alea/analysis/csv.hpp"

#include "alea/analysis/message.hpp"
#include "alea/expected.hpp"
#include "alea/lists.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <unordered_map>

namespace alea::analysis {

std::string CsvError::format(std::string_view file) const {
  return std::string(file) + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " +
         message;
}

namespace {

struct Field {
  std::string text;
  std::size_t line = 0, column = 0;
  bool quoted = false;
};

struct Record {
  std::vector<Field> fields;
  std::size_t line = 0;
  std::size_t endColumn = 0; // column just past the record's last character
};

// Splits `text` into records. Blank lines are skipped. Unquoted fields are
// trimmed of spaces and tabs; quoted fields are kept verbatim.
class Tokenizer {
public:
  explicit Tokenizer(std::string_view text) : text_(text) {
    // A UTF-8 byte order mark is not data, and not a column either: line 1's
    // columns count from just after it.
    if (text_.substr(0, 3) == "\xEF\xBB\xBF")
      pos_ = lineStart_ = 3;
  }

  // The lines before the header that begin with '#' (comments: `alea
  // export` writes the campaign's settings there), without the '#'.
  std::vector<std::string> leadingComments() {
    std::vector<std::string> out;
    while (pos_ < text_.size() && text_[pos_] == '#') {
      std::size_t end = text_.find('\n', pos_);
      if (end == std::string_view::npos)
        end = text_.size();
      std::string_view body = text_.substr(pos_ + 1, end - pos_ - 1);
      if (!body.empty() && body.back() == '\r')
        body.remove_suffix(1);
      out.emplace_back(body);
      pos_ = std::min(end + 1, text_.size());
      newLine();
    }
    return out;
  }

  // False at the end of input; on a syntax error sets `error` and returns false.
  bool next(Record &rec, std::optional<CsvError> &error) {
    rec = {};
    // Skip blank lines (empty, or only spaces / tabs / CR).
    for (;;) {
      if (pos_ >= text_.size())
        return false;
      std::size_t p = pos_;
      while (p < text_.size() && (text_[p] == ' ' || text_[p] == '\t' || text_[p] == '\r'))
        ++p;
      if (p < text_.size() && text_[p] != '\n')
        break;
      if (p >= text_.size()) {
        pos_ = p;
        return false;
      }
      pos_ = p + 1;
      newLine();
    }
    rec.line = line_;
    for (;;) {
      Field f;
      // Leading blanks of an unquoted field are dropped; remember the column
      // of the first significant character.
      while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t'))
        advance();
      f.line = line_;
      f.column = column();
      if (pos_ < text_.size() && text_[pos_] == '"') {
        f.quoted = true;
        const std::size_t qLine = line_, qCol = column();
        advance();
        for (;;) {
          if (pos_ >= text_.size()) {
            error = CsvError{qLine, qCol, "unterminated quoted field"};
            return false;
          }
          char c = text_[pos_];
          if (c == '"') {
            if (pos_ + 1 < text_.size() && text_[pos_ + 1] == '"') {
              f.text.push_back('"');
              advance();
              advance();
              continue;
            }
            advance();
            break;
          }
          if (c == '\n') {
            f.text.push_back('\n');
            ++pos_;
            newLine();
            continue;
          }
          f.text.push_back(c);
          advance();
        }
        while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t'))
          advance();
        if (pos_ < text_.size() && text_[pos_] != ',' && text_[pos_] != '\n' &&
            !(text_[pos_] == '\r' && atLineEnd(pos_ + 1))) {
          error = CsvError{line_, column(),
                           "unexpected character after a closing quote "
                           "(quotes inside a field must be doubled)"};
          return false;
        }
      } else {
        while (pos_ < text_.size() && text_[pos_] != ',' && text_[pos_] != '\n' &&
               !(text_[pos_] == '\r' && atLineEnd(pos_ + 1))) {
          if (text_[pos_] == '"') {
            error = CsvError{line_, column(),
                             "quote inside an unquoted field (quote the whole "
                             "field and double the quote)"};
            return false;
          }
          f.text.push_back(text_[pos_]);
          advance();
        }
        while (!f.text.empty() && (f.text.back() == ' ' || f.text.back() == '\t'))
          f.text.pop_back();
      }
      rec.fields.push_back(std::move(f));
      if (pos_ >= text_.size()) {
        rec.endColumn = column();
        return true;
      }
      if (text_[pos_] == ',') {
        advance();
        continue;
      }
      // End of the record: "\n" or "\r\n".
      rec.endColumn = column();
      if (text_[pos_] == '\r')
        ++pos_;
      ++pos_;
      newLine();
      return true;
    }
  }

private:
  bool atLineEnd(std::size_t p) const { return p >= text_.size() || text_[p] == '\n'; }
  void advance() { ++pos_; }
  void newLine() {
    ++line_;
    lineStart_ = pos_;
  }
  std::size_t column() const { return pos_ - lineStart_ + 1; }

  std::string_view text_;
  std::size_t pos_ = 0;
  std::size_t line_ = 1;
  std::size_t lineStart_ = 0;
};

std::string quoted(std::string_view s) { return quoteForMessage(s); }

std::string joinNames(const std::vector<std::string> &names) { return joinWith(names, ","); }

// Parses a whole field as a double; accepts a leading '+'.
bool parseNumber(const std::string &text, double &out) {
  const char *first = text.data();
  const char *last = text.data() + text.size();
  if (first != last && *first == '+')
    ++first;
  if (first == last)
    return false;
  auto [ptr, ec] = std::from_chars(first, last, out);
  if (ec == std::errc::result_out_of_range) {
    // from_chars leaves `out` unchanged on range errors: an overflow is
    // reported as not finite, an underflow (negative exponent) as zero.
    const auto e = text.find_first_of("eE");
    const bool tiny = e != std::string::npos && e + 1 < text.size() && text[e + 1] == '-';
    out = tiny ? 0.0 : HUGE_VAL;
    return ptr == last;
  }
  return ec == std::errc() && ptr == last;
}

// The columns that are not levels: the system, the benchmark, the value and
// the execution's start time.
bool reservedColumn(const std::string &name) {
  return name == "system" || name == "benchmark" || name == "value" || name == "started_at";
}

// The level columns, highest first: those --levels names, else every column
// but the reserved ones in header order; or why they cannot be.
std::optional<CsvError> chooseLevels(const Record &header,
                                     const std::map<std::string, std::size_t> &columnOf,
                                     const CsvOptions &options, std::vector<std::string> &levels,
                                     std::vector<std::size_t> &levelCols) {
  if (!options.levels.empty()) {
    for (const auto &name : options.levels) {
      if (reservedColumn(name))
        return CsvError{header.line, 1, "column " + quoted(name) + " cannot be a level"};
      auto it = columnOf.find(name);
      if (it == columnOf.end())
        return CsvError{header.line, 1,
                        "missing level column " + quoted(name) +
                            " in header (levels: " + joinNames(options.levels) + ")"};
      if (std::find(levels.begin(), levels.end(), name) != levels.end())
        return CsvError{header.line, 1, "level " + quoted(name) + " named twice"};
      levels.push_back(name);
      levelCols.push_back(it->second);
    }
  } else {
    for (std::size_t i = 0; i < header.fields.size(); ++i) {
      const std::string &name = header.fields[i].text;
      if (reservedColumn(name))
        continue;
      levels.push_back(name);
      levelCols.push_back(i);
    }
  }
  return std::nullopt;
}

// A measurement's value: a finite number > 0 (times), or why not.
std::optional<CsvError> readValue(const Field &val, double &value) {
  if (val.text.empty())
    return CsvError{val.line, val.column, "empty value"};
  if (!parseNumber(val.text, value))
    return CsvError{val.line, val.column, "value " + quoted(val.text) + " is not a number"};
  if (!std::isfinite(value))
    return CsvError{val.line, val.column, "value " + quoted(val.text) + " is not finite"};
  if (!(value > 0))
    return CsvError{val.line, val.column,
                    "value " + quoted(val.text) + " is not positive (times must be > 0)"};
  return std::nullopt;
}

// A measurement's start time (its execution's, epoch seconds): a finite number
// > 0 (a store's 0 means unknown), or empty for unknown (NaN); or why not.
std::optional<CsvError> readStartedAt(const Field &f, double &startedAt) {
  startedAt = std::numeric_limits<double>::quiet_NaN();
  if (f.text.empty())
    return std::nullopt;
  if (!parseNumber(f.text, startedAt) || !std::isfinite(startedAt) || !(startedAt > 0))
    return CsvError{f.line, f.column,
                    "started_at " + quoted(f.text) +
                        " is not a start time (seconds > 0, e.g. since the epoch; empty when "
                        "unknown)"};
  return std::nullopt;
}

// The header's columns by name (case-sensitive): each named once, none
// empty, `system` and `value` among them; or why not.
std::optional<CsvError> readHeader(const Record &header,
                                   std::map<std::string, std::size_t> &columnOf) {
  for (std::size_t i = 0; i < header.fields.size(); ++i) {
    const Field &f = header.fields[i];
    if (f.text.empty())
      return CsvError{f.line, f.column, "empty column name in header"};
    if (!columnOf.emplace(f.text, i).second)
      return CsvError{f.line, f.column, "duplicate column " + quoted(f.text)};
  }
  for (const char *required : {"system", "value"})
    if (!columnOf.count(required))
      return CsvError{header.line, 1,
                      std::string("missing column \"") + required +
                          "\" in header (expected system,[benchmark,]<levels>,value)"};
  return std::nullopt;
}

} // namespace

CsvResult parseCsv(std::string_view text, const CsvOptions &options) {
  CsvResult result;
  Tokenizer tok(text);
  result.comments = tok.leadingComments();
  Record header;
  std::optional<CsvError> error;
  if (!tok.next(header, error)) {
    result.error = error ? *error
                         : CsvError{1, 1,
                                    "empty input: expected a header line "
                                    "(system,[benchmark,]<levels>,value)"};
    return result;
  }
  std::map<std::string, std::size_t> columnOf;
  if (auto e = readHeader(header, columnOf)) {
    result.error = *e;
    return result;
  }
  const std::size_t systemCol = columnOf["system"];
  const std::size_t valueCol = columnOf["value"];
  constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  const std::size_t benchCol = columnOf.count("benchmark") ? columnOf["benchmark"] : kNone;
  const std::size_t startedCol = columnOf.count("started_at") ? columnOf["started_at"] : kNone;
  std::vector<std::string> levels;
  std::vector<std::size_t> levelCols;
  if (auto e = chooseLevels(header, columnOf, options, levels, levelCols)) {
    result.error = *e;
    return result;
  }
  if (levels.empty()) {
    result.error = CsvError{header.line, 1,
                            "no level columns in header (expected e.g. "
                            "system,build,execution,iteration,value)"};
    return result;
  }

  Table table(levels);
  // First row and top-level field of each (benchmark, system), and its
  // distinct top-level labels: a system needs at least two top-level units.
  struct CellInfo {
    std::size_t line = 0, column = 0;
    std::set<std::string> topLabels;
  };
  std::map<std::pair<std::string, std::string>, CellInfo> cells;
  std::vector<std::pair<std::string, std::string>> cellOrder;
  const std::size_t nFields = header.fields.size();
  // Full measurement path -> first line, to reject duplicates where they are.
  std::unordered_map<std::string, std::size_t> seen;
  Record rec;
  std::vector<std::string_view> units(levels.size());
  while (tok.next(rec, error)) {
    if (rec.fields.size() != nFields) {
      const std::size_t col =
          rec.fields.size() > nFields ? rec.fields[nFields].column : rec.endColumn;
      result.error =
          CsvError{rec.line, col,
                   "expected " + std::to_string(nFields) + " fields as in the header, found " +
                       std::to_string(rec.fields.size())};
      return result;
    }
    const Field &sys = rec.fields[systemCol];
    if (sys.text.empty()) {
      result.error = CsvError{sys.line, sys.column, "empty system name"};
      return result;
    }
    for (std::size_t l = 0; l < levels.size(); ++l) {
      const Field &f = rec.fields[levelCols[l]];
      if (f.text.empty()) {
        result.error =
            CsvError{f.line, f.column, "empty " + escapeForMessage(levels[l]) + " label"};
        return result;
      }
      units[l] = f.text;
    }
    const Field &val = rec.fields[valueCol];
    double value = 0;
    if (auto e = readValue(val, value)) {
      result.error = *e;
      return result;
    }
    double startedAt = std::numeric_limits<double>::quiet_NaN();
    if (startedCol != kNone)
      if (auto e = readStartedAt(rec.fields[startedCol], startedAt)) {
        result.error = *e;
        return result;
      }
    const std::string bench = benchCol != kNone ? rec.fields[benchCol].text : std::string();
    std::string pathKey = bench + '\x1f' + sys.text;
    for (auto u : units) {
      pathKey += '\x1f';
      pathKey += u;
    }
    if (auto [it, fresh] = seen.try_emplace(std::move(pathKey), rec.line); !fresh) {
      std::string path;
      for (std::size_t l = 0; l < levels.size(); ++l)
        path += (l ? ", " : "") + escapeForMessage(levels[l]) + " " + escapeForMessage(units[l]);
      const Field &last = rec.fields[levelCols.back()];
      result.error = CsvError{last.line, last.column,
                              "duplicate measurement: system " + quoted(sys.text) +
                                  (bench.empty() ? "" : " on benchmark " + quoted(bench)) +
                                  " already has a value for " + path + " (line " +
                                  std::to_string(it->second) + ")"};
      return result;
    }
    table.add(sys.text, bench, units, value, rec.line, startedAt);
    auto key = std::make_pair(bench, sys.text);
    auto [it, inserted] = cells.try_emplace(key);
    if (inserted) {
      it->second.line = rec.fields[levelCols[0]].line;
      it->second.column = rec.fields[levelCols[0]].column;
      cellOrder.push_back(key);
    }
    it->second.topLabels.insert(std::string(units[0]));
  }
  if (error) {
    result.error = *error;
    return result;
  }
  if (table.size() == 0) {
    result.error = CsvError{header.line + 1, 1, "no measurements after the header line"};
    return result;
  }
  for (const auto &key : cellOrder) {
    const CellInfo &info = cells[key];
    if (info.topLabels.size() < 2) {
      result.error = CsvError{info.line, info.column,
                              "system " + quoted(key.second) +
                                  (key.first.empty() ? "" : " on benchmark " + quoted(key.first)) +
                                  " has only one " + escapeForMessage(levels[0]) + " (" +
                                  escapeForMessage(levels[0]) +
                                  " is the top level; a confidence interval needs at least 2)"};
      return result;
    }
  }
  result.table = std::move(table);
  return result;
}

std::string csvField(std::string_view field) {
  bool needQuotes = field.empty() ? false
                                  : (field.front() == ' ' || field.back() == ' ' ||
                                     field.front() == '\t' || field.back() == '\t');
  for (char c : field)
    if (c == ',' || c == '"' || c == '\n' || c == '\r')
      needQuotes = true;
  if (!needQuotes)
    return std::string(field);
  std::string out = "\"";
  for (char c : field) {
    if (c == '"')
      out += '"';
    out += c;
  }
  out += '"';
  return out;
}

CsvRecords readCsvRecords(std::string_view text) {
  CsvRecords out;
  Tokenizer tok(text);
  Record rec;
  while (tok.next(rec, out.error)) {
    CsvRecord r;
    r.line = rec.line;
    r.fields.reserve(rec.fields.size());
    for (Field &f : rec.fields)
      r.fields.push_back(std::move(f.text));
    out.records.push_back(std::move(r));
  }
  return out;
}

} // namespace alea::analysis

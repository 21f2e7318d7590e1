// Google Benchmark JSON source (see measure.hpp): a small strict JSON reader
// (RFC 8259, plus the NaN/Infinity barewords google/benchmark's JSON reporter
// writes for non-finite counters) that reports the byte offset of the first
// error, and the selection of per-repetition times from its "benchmarks" array.
//
// google/benchmark (src/json_reporter.cc) writes one object per run with
// "name", "run_type" ("iteration" or "aggregate"), "real_time", "cpu_time" and
// "time_unit" ("ns", "us", "ms", "s"), the times being per benchmark iteration;
// with --benchmark_repetitions=N there are N "iteration" entries per benchmark,
// each of which is one alea iteration, followed by aggregates we skip.
#include "alea/runner/measure.hpp"

#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <regex>

namespace alea::runner {

namespace {

struct JsonValue {
  enum class Type {
    Null,
    Bool,
    Number,
    String,
    Array,
    Object
  } type = Type::Null;
  bool boolean = false;
  double number = 0;
  std::string string;
  std::vector<JsonValue> array;
  std::vector<std::pair<std::string, JsonValue>> object;

  const JsonValue *get(std::string_view key) const {
    for (const auto &[k, v] : object)
      if (k == key)
        return &v;
    return nullptr;
  }
};

class JsonReader {
public:
  explicit JsonReader(std::string_view text) : text_(text) {}

  // Parses one value followed only by whitespace.
  bool parseDocument(JsonValue &out) {
    skipSpace();
    if (!parseValue(out, 0))
      return false;
    skipSpace();
    if (pos_ != text_.size())
      return fail("unexpected data after the JSON value");
    return true;
  }
  std::size_t errorOffset() const { return errorPos_; }
  const std::string &errorMessage() const { return error_; }

private:
  static constexpr int kMaxDepth = 256;

  bool fail(std::string message) {
    errorPos_ = pos_;
    error_ = std::move(message);
    return false;
  }
  void skipSpace() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' ||
                                   text_[pos_] == '\n' || text_[pos_] == '\r'))
      ++pos_;
  }
  bool consumeWord(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word)
      return false;
    pos_ += word.size();
    return true;
  }

  bool parseValue(JsonValue &out, int depth) {
    if (depth > kMaxDepth)
      return fail("nesting too deep");
    if (pos_ >= text_.size())
      return fail("unexpected end of input");
    char c = text_[pos_];
    if (c == '{')
      return parseObject(out, depth);
    if (c == '[')
      return parseArray(out, depth);
    if (c == '"') {
      out.type = JsonValue::Type::String;
      return parseString(out.string);
    }
    if (consumeWord("true")) {
      out.type = JsonValue::Type::Bool;
      out.boolean = true;
      return true;
    }
    if (consumeWord("false")) {
      out.type = JsonValue::Type::Bool;
      return true;
    }
    if (consumeWord("null")) {
      out.type = JsonValue::Type::Null;
      return true;
    }
    out.type = JsonValue::Type::Number;
    if (consumeWord("NaN") || consumeWord("-NaN")) {
      out.number = std::numeric_limits<double>::quiet_NaN();
      return true;
    }
    if (consumeWord("Infinity")) {
      out.number = std::numeric_limits<double>::infinity();
      return true;
    }
    if (consumeWord("-Infinity")) {
      out.number = -std::numeric_limits<double>::infinity();
      return true;
    }
    if (c == '-' || (c >= '0' && c <= '9'))
      return parseNumber(out.number);
    return fail(std::string("unexpected character '") + c + "'");
  }

  bool parseNumber(double &out) {
    // Validate the JSON number grammar, then convert with from_chars.
    const std::size_t start = pos_;
    auto digit = [&] {
      return pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9';
    };
    if (text_[pos_] == '-')
      ++pos_;
    if (!digit())
      return fail("expected a digit");
    if (text_[pos_] == '0') {
      ++pos_;
    } else {
      while (digit())
        ++pos_;
    }
    if (pos_ < text_.size() && text_[pos_] == '.') {
      ++pos_;
      if (!digit())
        return fail("expected a digit after '.'");
      while (digit())
        ++pos_;
    }
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      ++pos_;
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-'))
        ++pos_;
      if (!digit())
        return fail("expected a digit in the exponent");
      while (digit())
        ++pos_;
    }
    auto [ptr, ec] =
        std::from_chars(text_.data() + start, text_.data() + pos_, out);
    if (ec == std::errc::result_out_of_range) {
      out = text_[start] == '-' ? -std::numeric_limits<double>::infinity()
                                : std::numeric_limits<double>::infinity();
      return true;
    }
    if (ec != std::errc() || ptr != text_.data() + pos_) {
      pos_ = start;
      return fail("bad number");
    }
    return true;
  }

  static void appendUtf8(std::string &out, std::uint32_t cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  bool parseHex4(std::uint32_t &out) {
    if (pos_ + 4 > text_.size())
      return fail("truncated \\u escape");
    out = 0;
    for (int i = 0; i < 4; ++i) {
      char h = text_[pos_++];
      out <<= 4;
      if (h >= '0' && h <= '9')
        out |= h - '0';
      else if (h >= 'a' && h <= 'f')
        out |= h - 'a' + 10;
      else if (h >= 'A' && h <= 'F')
        out |= h - 'A' + 10;
      else {
        --pos_;
        return fail("bad hex digit in \\u escape");
      }
    }
    return true;
  }

  bool parseString(std::string &out) {
    ++pos_; // opening quote
    out.clear();
    while (true) {
      if (pos_ >= text_.size())
        return fail("unterminated string");
      char c = text_[pos_];
      if (c == '"') {
        ++pos_;
        return true;
      }
      if (static_cast<unsigned char>(c) < 0x20)
        return fail("control character in string");
      if (c != '\\') {
        out += c;
        ++pos_;
        continue;
      }
      ++pos_;
      if (pos_ >= text_.size())
        return fail("unterminated escape");
      char e = text_[pos_++];
      switch (e) {
      case '"':
        out += '"';
        break;
      case '\\':
        out += '\\';
        break;
      case '/':
        out += '/';
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'u': {
        std::uint32_t cp = 0;
        if (!parseHex4(cp))
          return false;
        if (cp >= 0xD800 && cp < 0xDC00 && text_.substr(pos_, 2) == "\\u") {
          pos_ += 2;
          std::uint32_t low = 0;
          if (!parseHex4(low))
            return false;
          if (low >= 0xDC00 && low < 0xE000)
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        }
        appendUtf8(out, cp);
        break;
      }
      default:
        --pos_;
        return fail("bad escape");
      }
    }
  }

  bool parseArray(JsonValue &out, int depth) {
    out.type = JsonValue::Type::Array;
    ++pos_;
    skipSpace();
    if (pos_ < text_.size() && text_[pos_] == ']') {
      ++pos_;
      return true;
    }
    while (true) {
      skipSpace();
      out.array.emplace_back();
      if (!parseValue(out.array.back(), depth + 1))
        return false;
      skipSpace();
      if (pos_ >= text_.size())
        return fail("unexpected end of input in array");
      if (text_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (text_[pos_] == ']') {
        ++pos_;
        return true;
      }
      return fail("expected ',' or ']'");
    }
  }

  bool parseObject(JsonValue &out, int depth) {
    out.type = JsonValue::Type::Object;
    ++pos_;
    skipSpace();
    if (pos_ < text_.size() && text_[pos_] == '}') {
      ++pos_;
      return true;
    }
    while (true) {
      skipSpace();
      if (pos_ >= text_.size() || text_[pos_] != '"')
        return pos_ >= text_.size() ? fail("unexpected end of input in object")
                                    : fail("expected a string key");
      std::string key;
      if (!parseString(key))
        return false;
      skipSpace();
      if (pos_ >= text_.size() || text_[pos_] != ':')
        return fail("expected ':'");
      ++pos_;
      skipSpace();
      out.object.emplace_back(std::move(key), JsonValue{});
      if (!parseValue(out.object.back().second, depth + 1))
        return false;
      skipSpace();
      if (pos_ >= text_.size())
        return fail("unexpected end of input in object");
      if (text_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (text_[pos_] == '}') {
        ++pos_;
        return true;
      }
      return fail("expected ',' or '}'");
    }
  }

  std::string_view text_;
  std::size_t pos_ = 0;
  std::size_t errorPos_ = 0;
  std::string error_;
};

} // namespace

Extraction parseGoogleBenchmarkJson(std::string_view json, GbenchField field,
                                    const std::string &nameFilter) {
  JsonValue doc;
  JsonReader reader(json);
  if (!reader.parseDocument(doc))
    return {{},
            "malformed JSON at byte " + std::to_string(reader.errorOffset()) +
                ": " + reader.errorMessage()};
  const JsonValue *benchmarks =
      doc.type == JsonValue::Type::Object ? doc.get("benchmarks") : nullptr;
  if (!benchmarks || benchmarks->type != JsonValue::Type::Array)
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
  const char *fieldName =
      field == GbenchField::RealTime ? "real_time" : "cpu_time";

  Extraction ex;
  std::string chosenName;
  for (std::size_t i = 0; i < benchmarks->array.size(); ++i) {
    const JsonValue &entry = benchmarks->array[i];
    const std::string where = "benchmarks[" + std::to_string(i) + "]";
    if (entry.type != JsonValue::Type::Object)
      return {{}, where + " is not an object"};
    const JsonValue *runType = entry.get("run_type");
    if (runType && runType->type == JsonValue::Type::String &&
        runType->string == "aggregate")
      continue;
    const JsonValue *name = entry.get("name");
    if (!name || name->type != JsonValue::Type::String)
      return {{}, where + " has no \"name\""};
    // Repetition entries of one benchmark share run_name; name may carry a
    // "/repeats:N" suffix, so compare on run_name when present.
    const JsonValue *runName = entry.get("run_name");
    const std::string &id = runName && runName->type == JsonValue::Type::String
                                ? runName->string
                                : name->string;
    if (filter && !std::regex_search(name->string, *filter))
      continue;
    if (const JsonValue *err = entry.get("error_occurred");
        err && err->type == JsonValue::Type::Bool && err->boolean) {
      const JsonValue *msg = entry.get("error_message");
      return {{},
              "benchmark " + name->string + " reported an error" +
                  (msg && msg->type == JsonValue::Type::String
                       ? ": " + msg->string
                       : std::string())};
    }
    if (chosenName.empty()) {
      chosenName = id;
    } else if (id != chosenName) {
      return {{},
              "several benchmarks in the JSON output (" + chosenName + ", " +
                  id + "): set measure.filter to choose one"};
    }
    const JsonValue *value = entry.get(fieldName);
    if (!value || value->type != JsonValue::Type::Number)
      return {{}, where + " has no numeric \"" + fieldName + "\""};
    double scale = 1e-9; // google/benchmark's default unit
    if (const JsonValue *unit = entry.get("time_unit")) {
      auto s = unit->type == JsonValue::Type::String
                   ? unitToSeconds(unit->string)
                   : std::nullopt;
      if (!s)
        return {{}, where + ": unknown time_unit"};
      scale = *s;
    }
    const double v = value->number * scale;
    if (!(v > 0) || !std::isfinite(v))
      return {{}, where + ": " + fieldName + " is not a positive finite time"};
    ex.values.push_back(v);
  }
  if (ex.values.empty())
    ex.error = nameFilter.empty()
                   ? "no iteration matched: no benchmark run in the JSON output"
                   : "no iteration matched: no benchmark named /" + nameFilter +
                         "/ in the JSON output";
  return ex;
}

} // namespace alea::runner

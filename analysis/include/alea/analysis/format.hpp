// Rendering of the report model (report.hpp) as text (the default, with the
// sentence "cand vs base: 0.962 (3.8% faster), 95% CI [...] (Fieller;
// bootstrap [...])"), JSON (stable keys, documented in docs/analyze.md, with
// a schema version), CSV (one row per statistic) and Markdown. Pure: a Report
// in, a string out; the JSON is written by a small escaping writer (no
// dependency). `alea analyze` and the runner's `alea report` both call these.
#pragma once

#include "alea/analysis/report.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace alea::analysis {

enum class Format { Text, Json, Csv, Markdown };

// "text", "json", "csv", "md" or "markdown"; nullopt otherwise.
std::optional<Format> parseFormat(std::string_view name);

// The JSON schema version written as "alea_report" / "alea_plan".
inline constexpr int kReportSchemaVersion = 1;

std::string formatReport(const Report &report, Format format);
std::string formatPlans(const PlanSet &plans, Format format);

// "faster", "slower", "no_change", "inconclusive" (JSON and CSV spelling).
std::string_view decisionKey(Decision d);

// A minimal JSON writer: objects, arrays, escaped strings, shortest
// round-trip numbers (non-finite numbers are written as null).
class JsonWriter {
public:
  explicit JsonWriter(int indent = 2) : indent_(indent) {}
  JsonWriter &beginObject();
  JsonWriter &endObject();
  // An inlined array stays on one line ("[1, 2]"): for short scalar lists.
  JsonWriter &beginArray(bool inlined = false);
  JsonWriter &endArray();
  JsonWriter &key(std::string_view k); // inside an object, before a value
  JsonWriter &value(std::string_view s);
  JsonWriter &value(const char *s) { return value(std::string_view(s)); }
  JsonWriter &value(const std::string &s) { return value(std::string_view(s)); }
  JsonWriter &value(double d);
  JsonWriter &value(std::size_t n);
  JsonWriter &value(bool b);
  JsonWriter &null();
  const std::string &str() const { return out_; }

  static std::string escape(std::string_view s); // with the quotes
  static std::string number(double d);           // shortest round trip

private:
  void beforeValue();
  void newline();
  std::string out_;
  int indent_;
  // Per open container: true once it has an element.
  std::string stack_; // 'o', 'a' or 'i' (inlined array)
  std::string hasElement_;
  bool afterKey_ = false;
};

} // namespace alea::analysis

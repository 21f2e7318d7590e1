// The `[measure]` table of a campaign (see measure_spec.hpp): its keys,
// their values and the positions of their mistakes.
#include "alea/config/measure_spec.hpp"

#include <regex>
#include <set>

namespace alea::runner {

namespace {

struct Choice {
  std::string_view name;
  int value;
};

std::string joinChoices(std::initializer_list<Choice> choices) {
  std::string out;
  for (const auto &c : choices) {
    if (!out.empty())
      out += ", ";
    out += c.name;
  }
  return out;
}

MeasureSpecError errorAt(const toml::node &node, std::string message) {
  const auto &begin = node.source().begin;
  return {std::move(message), static_cast<int>(begin.line), static_cast<int>(begin.column)};
}

// Reads `key` as one of `choices`; leaves `out` alone when the key is absent.
std::optional<MeasureSpecError> readChoice(const toml::table &table, std::string_view key,
                                           std::initializer_list<Choice> choices, int &out) {
  const toml::node *node = table.get(key);
  if (!node)
    return std::nullopt;
  const auto *str = node->as_string();
  if (!str)
    return errorAt(*node, "measure." + std::string(key) + ": expected a string, one of " +
                              joinChoices(choices));
  for (const auto &c : choices) {
    if (c.name == str->get()) {
      out = c.value;
      return std::nullopt;
    }
  }
  return errorAt(*node, "measure." + std::string(key) + ": expected one of " +
                            joinChoices(choices) + ", got \"" + str->get() + "\"");
}

std::optional<MeasureSpecError> readString(const toml::table &table, std::string_view key,
                                           std::string &out) {
  const toml::node *node = table.get(key);
  if (!node)
    return std::nullopt;
  const auto *str = node->as_string();
  if (!str)
    return errorAt(*node, "measure." + std::string(key) + ": expected a string");
  out = str->get();
  return std::nullopt;
}

} // namespace

std::string MeasureSpec::valueUnit() const {
  return source == IterationSource::None && metric == Metric::Rss ? "KiB" : "s";
}

std::optional<double> unitToSeconds(std::string_view unit) {
  if (unit == "ns")
    return 1e-9;
  if (unit == "us")
    return 1e-6;
  if (unit == "ms")
    return 1e-3;
  if (unit == "s")
    return 1.0;
  if (unit == "min")
    return 60.0;
  return std::nullopt;
}

MeasureSpecResult parseMeasureSpec(const toml::table &table) {
  MeasureSpecResult result;
  MeasureSpec &spec = result.spec;
  auto fail = [&](MeasureSpecError e) {
    result.error = std::move(e);
    return result;
  };

  static const std::set<std::string_view> known = {"source", "metric", "regex", "stream",
                                                   "unit",   "field",  "filter"};
  for (const auto &[key, node] : table) {
    if (!known.count(key.str()))
      return fail(errorAt(node, "measure: unknown key \"" + std::string(key.str()) +
                                    "\"; expected one of source, metric, "
                                    "regex, stream, unit, field, filter"));
  }

  int source = static_cast<int>(IterationSource::None);
  if (auto e = readChoice(table, "source",
                          {{"none", static_cast<int>(IterationSource::None)},
                           {"regex", static_cast<int>(IterationSource::Regex)},
                           {"gbench", static_cast<int>(IterationSource::GoogleBenchmarkJson)},
                           {"records", static_cast<int>(IterationSource::Records)}},
                          source))
    return fail(*e);
  spec.source = static_cast<IterationSource>(source);

  // Keys that belong to another source are mistakes worth reporting.
  auto only = [&](std::string_view key, IterationSource owner,
                  std::string_view ownerName) -> std::optional<MeasureSpecError> {
    const toml::node *node = table.get(key);
    if (node && spec.source != owner)
      return errorAt(*node, "measure." + std::string(key) + ": only applies to source = \"" +
                                std::string(ownerName) + "\"");
    return std::nullopt;
  };
  for (auto [key, owner, name] :
       {std::tuple{"metric", IterationSource::None, "none"},
        std::tuple{"regex", IterationSource::Regex, "regex"},
        std::tuple{"stream", IterationSource::Regex, "regex"},
        std::tuple{"unit", IterationSource::Regex, "regex"},
        std::tuple{"field", IterationSource::GoogleBenchmarkJson, "gbench"},
        std::tuple{"filter", IterationSource::GoogleBenchmarkJson, "gbench"}})
    if (auto e = only(key, owner, name))
      return fail(*e);

  int metric = static_cast<int>(Metric::Wall);
  if (auto e = readChoice(table, "metric",
                          {{"wall", static_cast<int>(Metric::Wall)},
                           {"user", static_cast<int>(Metric::User)},
                           {"sys", static_cast<int>(Metric::Sys)},
                           {"cpu", static_cast<int>(Metric::Cpu)},
                           {"rss", static_cast<int>(Metric::Rss)}},
                          metric))
    return fail(*e);
  spec.metric = static_cast<Metric>(metric);

  int stream = static_cast<int>(OutputStream::Stdout);
  if (auto e = readChoice(table, "stream",
                          {{"stdout", static_cast<int>(OutputStream::Stdout)},
                           {"stderr", static_cast<int>(OutputStream::Stderr)}},
                          stream))
    return fail(*e);
  spec.stream = static_cast<OutputStream>(stream);

  int field = static_cast<int>(GbenchField::RealTime);
  if (auto e = readChoice(table, "field",
                          {{"real_time", static_cast<int>(GbenchField::RealTime)},
                           {"cpu_time", static_cast<int>(GbenchField::CpuTime)}},
                          field))
    return fail(*e);
  spec.gbenchField = static_cast<GbenchField>(field);

  if (auto e = readString(table, "unit", spec.unit))
    return fail(*e);
  if (auto scale = unitToSeconds(spec.unit)) {
    spec.unitScale = *scale;
  } else {
    return fail(
        errorAt(*table.get("unit"),
                "measure.unit: expected one of ns, us, ms, s, min, got \"" + spec.unit + "\""));
  }

  if (auto e = readString(table, "regex", spec.regex))
    return fail(*e);
  if (spec.source == IterationSource::Regex) {
    if (!table.get("regex"))
      return fail(errorAt(table, "measure: source = \"regex\" needs a regex "
                                 "key (its first group is the value)"));
    try {
      std::regex re(spec.regex, std::regex::ECMAScript);
      if (re.mark_count() < 1)
        return fail(errorAt(*table.get("regex"), "measure.regex: expected a capture group around "
                                                 "the number"));
    } catch (const std::regex_error &e) {
      return fail(errorAt(*table.get("regex"), std::string("measure.regex: invalid regular "
                                                           "expression: ") +
                                                   e.what()));
    }
  }

  if (auto e = readString(table, "filter", spec.gbenchFilter))
    return fail(*e);
  if (!spec.gbenchFilter.empty()) {
    try {
      std::regex re(spec.gbenchFilter, std::regex::ECMAScript);
    } catch (const std::regex_error &e) {
      return fail(errorAt(*table.get("filter"), std::string("measure.filter: invalid regular "
                                                            "expression: ") +
                                                    e.what()));
    }
  }
  return result;
}

} // namespace alea::runner

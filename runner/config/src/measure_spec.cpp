// The `[measure]` table of a campaign (see measure_spec.hpp): its keys,
// their values and the positions of their mistakes.
#include "alea/config/measure_spec_toml.hpp"

#include "alea/lists.hpp"

#include <regex>
#include <set>
#include <utility>

namespace alea::runner {

namespace {

// "none, regex, gbench, records": the names of E.
template <typename E> std::string joinChoices() { return joinWith(kEnumNames<E>, ", "); }

MeasureSpecError errorAt(const toml::node &node, std::string message) {
  const auto &begin = node.source().begin;
  return {std::move(message), static_cast<int>(begin.line), static_cast<int>(begin.column)};
}

// Reads `key` as the name of an E; leaves `out` alone when the key is absent.
template <typename E>
std::optional<MeasureSpecError> readChoice(const toml::table &table, std::string_view key, E &out) {
  const toml::node *node = table.get(key);
  if (!node)
    return std::nullopt;
  const auto *str = node->as_string();
  if (!str)
    return errorAt(*node, "measure." + std::string(key) + ": expected a string, one of " +
                              joinChoices<E>());
  if (auto value = parseEnum<E>(str->get())) {
    out = *value;
    return std::nullopt;
  }
  return errorAt(*node, "measure." + std::string(key) + ": expected one of " + joinChoices<E>() +
                            ", got \"" + str->get() + "\"");
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

  if (auto e = readChoice(table, "source", spec.source))
    return fail(*e);

  // Keys that belong to another source are mistakes worth reporting.
  auto only = [&](std::string_view key, IterationSource owner) -> std::optional<MeasureSpecError> {
    const toml::node *node = table.get(key);
    if (node && spec.source != owner)
      return errorAt(*node, "measure." + std::string(key) + ": only applies to source = \"" +
                                enumName(owner) + "\"");
    return std::nullopt;
  };
  for (auto [key, owner] :
       {std::pair{"metric", IterationSource::None}, std::pair{"regex", IterationSource::Regex},
        std::pair{"stream", IterationSource::Regex}, std::pair{"unit", IterationSource::Regex},
        std::pair{"field", IterationSource::GoogleBenchmarkJson},
        std::pair{"filter", IterationSource::GoogleBenchmarkJson}})
    if (auto e = only(key, owner))
      return fail(*e);

  if (auto e = readChoice(table, "metric", spec.metric))
    return fail(*e);
  if (auto e = readChoice(table, "stream", spec.stream))
    return fail(*e);
  if (auto e = readChoice(table, "field", spec.gbenchField))
    return fail(*e);

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

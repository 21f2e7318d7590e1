// The `[measure]` table of a campaign (see measure_spec.hpp): its keys,
// their values and the positions of their mistakes.
#include "alea/config/measure_spec_toml.hpp"

#include "alea/lists.hpp"

#include <algorithm>
#include <charconv>
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

// The metrics table's other columns (measure_spec.hpp), one array each.
#define ALEA_METRIC_KIND(Enumerator, Name, Kind, Unit, Instead) MetricKind::Kind,
#define ALEA_METRIC_UNIT(Enumerator, Name, Kind, Unit, Instead) Unit,
#define ALEA_METRIC_INSTEAD(Enumerator, Name, Kind, Unit, Instead) Instead,
constexpr MetricKind kMetricKinds[] = {ALEA_METRICS(ALEA_METRIC_KIND)};
constexpr const char *kMetricUnits[] = {ALEA_METRICS(ALEA_METRIC_UNIT)};
constexpr const char *kMetricInstead[] = {ALEA_METRICS(ALEA_METRIC_INSTEAD)};
#undef ALEA_METRIC_KIND
#undef ALEA_METRIC_UNIT
#undef ALEA_METRIC_INSTEAD

bool isPowerOfTwo(unsigned long long v) { return v != 0 && (v & (v - 1)) == 0; }

// Reads `key` of a sim_cache table: a string that cachegrind takes as a
// cache geometry.
std::optional<MeasureSpecError> readGeometry(const toml::table &table, std::string_view key,
                                             std::string &out) {
  const toml::node *node = table.get(key);
  if (node && !node->is_string())
    return errorAt(*node, "measure.sim_cache." + std::string(key) +
                              ": expected a string \"size,associativity,line size\" (bytes), "
                              "e.g. \"32768,8,64\"");
  std::string geometry;
  if (auto e = readString(table, key, geometry); e || !node)
    return e;
  if (std::string why = cacheGeometryProblem(geometry); !why.empty())
    return errorAt(*node,
                   "measure.sim_cache." + std::string(key) + ": \"" + geometry + "\": " + why);
  out = geometry;
  return std::nullopt;
}

// Reads `metrics`, a list of metric names: with source none its first entry
// is the execution's measurement (`metric`), with an iteration source every
// entry is measured beside the iterations.
std::optional<MeasureSpecError> readMetrics(const toml::table &table, MeasureSpec &spec) {
  const toml::node *node = table.get("metrics");
  if (!node)
    return std::nullopt;
  if (table.get("metric"))
    return errorAt(*node, "measure.metrics: give either metric or metrics, not both");
  const auto *list = node->as_array();
  if (!list || list->empty())
    return errorAt(*node, "measure.metrics: expected a non-empty list of metric names, e.g. "
                          "[\"wall\", \"sim-cycles\"]");
  std::vector<Metric> metrics;
  for (const toml::node &entry : *list) {
    const auto *name = entry.as_string();
    std::optional<Metric> metric = name ? parseEnum<Metric>(name->get()) : std::nullopt;
    if (!metric)
      return errorAt(entry, "measure.metrics: expected metric names, one of " +
                                joinChoices<Metric>() +
                                (name ? ", got \"" + name->get() + "\"" : std::string()));
    if (std::find(metrics.begin(), metrics.end(), *metric) != metrics.end())
      return errorAt(entry, "measure.metrics: \"" + name->get() + "\" is listed twice");
    metrics.push_back(*metric);
  }
  if (spec.source == IterationSource::None) {
    spec.metric = metrics.front();
    metrics.erase(metrics.begin());
  }
  spec.extraMetrics = std::move(metrics);
  return std::nullopt;
}

// Reads `decide_on`: the name of a measured metric, or "time" (the
// iterations) with an iteration source.
std::optional<MeasureSpecError> readDecideOn(const toml::table &table, MeasureSpec &spec) {
  std::string name;
  if (auto e = readString(table, "decide_on", name); e || name.empty())
    return e;
  std::vector<std::string> choices;
  if (spec.source != IterationSource::None)
    choices.emplace_back(kIterationsMetric);
  for (Metric m : spec.measuredMetrics())
    choices.emplace_back(enumName(m));
  if (std::find(choices.begin(), choices.end(), name) == choices.end())
    return errorAt(*table.get("decide_on"), "measure.decide_on: expected one of the metrics "
                                            "measured (" +
                                                joinWith(choices, ", ") + "), got \"" + name +
                                                "\"");
  spec.decideOn = name == spec.primaryName() ? "" : name;
  return std::nullopt;
}

} // namespace

MetricKind metricKind(Metric metric) { return kMetricKinds[static_cast<std::size_t>(metric)]; }
const char *metricUnit(Metric metric) { return kMetricUnits[static_cast<std::size_t>(metric)]; }
const char *simulatedCounterpart(Metric metric) {
  return kMetricInstead[static_cast<std::size_t>(metric)];
}

std::string cacheGeometryProblem(std::string_view geometry) {
  unsigned long long v[3] = {0, 0, 0};
  const char *at = geometry.data(), *end = geometry.data() + geometry.size();
  for (int i = 0; i < 3; ++i) {
    auto [ptr, ec] = std::from_chars(at, end, v[i]);
    if (ec != std::errc() || ptr == at || v[i] == 0 ||
        (i < 2 ? ptr == end || *ptr != ',' : ptr != end))
      return "expected three positive integers \"size,associativity,line size\" (bytes)";
    at = ptr + 1;
  }
  const unsigned long long size = v[0], assoc = v[1], line = v[2];
  // cachegrind/cg_arch.c, check_cache (Valgrind 3.19), in its order.
  if (size % (line * assoc) != 0 || !isPowerOfTwo(size / line / assoc))
    return "the number of sets (size / (associativity x line size)) is not a power of two";
  if (!isPowerOfTwo(line))
    return "the line size is not a power of two";
  if (line < 16)
    return "the line size is below 16 bytes";
  if (size <= line)
    return "the size is not larger than the line size";
  if (assoc > size / line)
    return "the associativity is larger than size / line size";
  return {};
}

std::string MeasureSpec::valueUnit() const {
  return source == IterationSource::None ? metricUnit(metric) : "s";
}

std::string_view MeasureSpec::primaryName() const {
  return source == IterationSource::None ? enumName(metric) : kIterationsMetric;
}

std::string MeasureSpec::decisionUnit() const {
  std::optional<Metric> decision = parseEnum<Metric>(decideOn);
  return decision ? metricUnit(*decision) : valueUnit();
}

std::vector<Metric> MeasureSpec::measuredMetrics() const {
  std::vector<Metric> all;
  if (source == IterationSource::None)
    all.push_back(metric);
  all.insert(all.end(), extraMetrics.begin(), extraMetrics.end());
  return all;
}

std::vector<Metric> MeasureSpec::counters() const {
  std::vector<Metric> out;
  for (Metric m : measuredMetrics())
    if (isCounter(m))
      out.push_back(m);
  return out;
}

bool MeasureSpec::simulates() const {
  std::vector<Metric> all = measuredMetrics();
  return std::any_of(all.begin(), all.end(), isSimulated);
}

bool MeasureSpec::needsNativeRun() const {
  std::vector<Metric> all = measuredMetrics();
  return source != IterationSource::None ||
         std::any_of(all.begin(), all.end(), [](Metric m) { return !isSimulated(m); });
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

  static const std::set<std::string_view> known = {"source",    "metric", "metrics", "decide_on",
                                                   "sim_cache", "regex",  "stream",  "unit",
                                                   "field",     "filter"};
  for (const auto &[key, node] : table) {
    if (!known.count(key.str()))
      return fail(errorAt(node, "measure: unknown key \"" + std::string(key.str()) +
                                    "\"; expected one of source, metric, metrics, decide_on, "
                                    "sim_cache, regex, stream, unit, field, filter"));
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
       {std::pair{"metric", IterationSource::None}, std::pair{"sim_cache", IterationSource::None},
        std::pair{"regex", IterationSource::Regex}, std::pair{"stream", IterationSource::Regex},
        std::pair{"unit", IterationSource::Regex},
        std::pair{"field", IterationSource::GoogleBenchmarkJson},
        std::pair{"filter", IterationSource::GoogleBenchmarkJson}})
    if (auto e = only(key, owner))
      return fail(*e);

  if (auto e = readChoice(table, "metric", spec.metric))
    return fail(*e);
  if (auto e = readMetrics(table, spec))
    return fail(*e);
  for (const char *key : {"metric", "metrics"})
    if (const toml::node *node = table.get(key)) {
      spec.metricLine = static_cast<int>(node->source().begin.line);
      spec.metricColumn = static_cast<int>(node->source().begin.column);
    }
  if (auto e = readDecideOn(table, spec))
    return fail(*e);
  if (const toml::node *node = table.get("sim_cache")) {
    if (!spec.simulates())
      return fail(errorAt(*node, "measure.sim_cache: only applies to the simulated metrics "
                                 "(sim-instructions, sim-cycles, ...), not to metric = \"" +
                                     std::string(enumName(spec.metric)) + "\""));
    const auto *cache = node->as_table();
    if (!cache)
      return fail(errorAt(*node, "measure.sim_cache: expected a table, e.g. sim_cache = { i1 = "
                                 "\"32768,8,64\", d1 = \"32768,8,64\", ll = \"8388608,16,64\" }"));
    for (const auto &[key, value] : *cache)
      if (key.str() != "i1" && key.str() != "d1" && key.str() != "ll")
        return fail(errorAt(value, "measure.sim_cache: unknown key \"" + std::string(key.str()) +
                                       "\"; expected one of i1, d1, ll"));
    for (auto [key, out] : {std::pair<const char *, std::string *>{"i1", &spec.simCache.i1},
                            {"d1", &spec.simCache.d1},
                            {"ll", &spec.simCache.ll}})
      if (auto e = readGeometry(*cache, key, *out))
        return fail(*e);
  }
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

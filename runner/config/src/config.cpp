// Campaign file parsing and validation (toml++ 3.3). Each check points at the
// node it concerns (toml::source_region) so the user gets one message with
// file, line, column and what was expected. Keys: docs/campaign.md.
#include "alea/config/config.hpp"
#include "alea/config/measure_spec_toml.hpp"

#include "alea/config/redact.hpp"

#include "alea/contract.hpp"
#include "alea/file.hpp"
#include "alea/shell.hpp"
#include "alea/words.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <utility>

namespace alea::runner {

namespace {

struct ConfigError {
  std::string message;
  int line = 0, column = 0;
};

class Parser {
public:
  explicit Parser(std::string path) : path_(std::move(path)) {}

  [[noreturn]] void fail(const toml::source_region &where, const std::string &msg) const {
    throw ConfigError{msg, static_cast<int>(where.begin.line),
                      static_cast<int>(where.begin.column)};
  }
  [[noreturn]] void fail(const toml::node &node, const std::string &msg) const {
    fail(node.source(), msg);
  }

  // The [[key]] tables in `node`, each parsed by `parse` into a value whose
  // name no other has.
  template <typename Parse>
  auto parseNamedTables(const toml::node &node, const std::string &key, Parse parse) const {
    if (!node.is_array_of_tables())
      fail(node, "expected [[" + key + "]] tables (an array of tables)");
    std::vector<decltype(parse(std::declval<const toml::table &>()))> out;
    std::set<std::string> names;
    for (const auto &t : *node.as_array()) {
      auto value = parse(*t.as_table());
      if (!names.insert(value.name).second)
        fail(t, "expected a unique " + key + " name; '" + value.name + "' is used twice");
      out.push_back(std::move(value));
    }
    return out;
  }

  static SourcePos at(const toml::node &n) {
    return {static_cast<int>(n.source().begin.line), static_cast<int>(n.source().begin.column)};
  }
  // Where each element of an array was written.
  static std::vector<SourcePos> elementsAt(const toml::node &array) {
    std::vector<SourcePos> out;
    for (const auto &e : *array.as_array())
      out.push_back(at(e));
    return out;
  }
  // Where each value of a table was written.
  static std::map<std::string, SourcePos> valuesAt(const toml::node &table) {
    std::map<std::string, SourcePos> out;
    for (auto &&[k, v] : *table.as_table())
      out[std::string(k.str())] = at(v);
    return out;
  }

  void checkKeys(const toml::table &t, const std::string &where,
                 std::initializer_list<const char *> allowed) const {
    for (auto &&[key, node] : t) {
      bool known = std::any_of(allowed.begin(), allowed.end(),
                               [&](const char *a) { return key.str() == a; });
      if (!known) {
        std::string list;
        for (const char *a : allowed)
          list += (list.empty() ? "" : ", ") + std::string(a);
        fail(key.source().begin.line ? key.source() : node.source(),
             "unknown key '" + std::string(key.str()) + "' in " + where + "; expected one of " +
                 list);
      }
    }
  }

  std::string getString(const toml::node &n, const std::string &what) const {
    if (!n.is_string())
      fail(n, "expected a string for " + what);
    return n.as_string()->get();
  }
  // `aslr` ("system" or "off"): whether it is off; `expected` is the message
  // for any other word.
  bool aslrOff(const toml::node &n, const std::string &what, const std::string &expected) const {
    const std::string v = getString(n, what);
    if (v != "system" && v != "off")
      fail(n, expected);
    return v == "off";
  }
  std::int64_t getInt(const toml::node &n, const std::string &what) const {
    if (!n.is_integer())
      fail(n, "expected an integer for " + what);
    return n.as_integer()->get();
  }
  double getNumber(const toml::node &n, const std::string &what) const {
    if (n.is_integer())
      return static_cast<double>(n.as_integer()->get());
    if (!n.is_floating_point())
      fail(n, "expected a number for " + what);
    return n.as_floating_point()->get();
  }
  // A duration in seconds: positive (or >= 0 with allowZero), finite, and at
  // most kMaxSeconds, so that start + duration fits the steady clock (beyond
  // it a deadline wraps around and every execution "times out" at once).
  double getSeconds(const toml::node &n, const std::string &what, const std::string &expected,
                    bool allowZero = false) const {
    double v = getNumber(n, what);
    if (!(allowZero ? v >= 0 : v > 0) || !(v <= kMaxSeconds))
      fail(n, "expected " + expected + (allowZero ? " >= 0" : " > 0") + " and at most " +
                  std::to_string(static_cast<long long>(kMaxSeconds)) +
                  " seconds (about 31 years; a longer one overflows the clock) for " + what);
    return v;
  }
  bool getBool(const toml::node &n, const std::string &what) const {
    if (!n.is_boolean())
      fail(n, "expected true or false for " + what);
    return n.as_boolean()->get();
  }
  std::vector<std::string> getStringList(const toml::node &n, const std::string &what) const {
    if (!n.is_array())
      fail(n, "expected an array of strings for " + what);
    std::vector<std::string> out;
    for (const auto &e : *n.as_array())
      out.push_back(getString(e, what));
    return out;
  }
  std::map<std::string, std::string> getEnv(const toml::node &n, const std::string &what) const {
    if (!n.is_table())
      fail(n, "expected a table of strings for " + what + " (e.g. env = { CFLAGS = \"-O2\" })");
    std::map<std::string, std::string> env;
    for (auto &&[k, v] : *n.as_table())
      env[std::string(k.str())] = getString(v, what + "." + std::string(k.str()));
    return env;
  }
  LevelCount getLevel(const toml::node &n, const std::string &what, int minimum) const {
    if (n.is_string() && n.as_string()->get() == "auto")
      return {true, minimum};
    if (!n.is_integer())
      fail(n, "expected a positive integer or \"auto\" for " + what);
    std::int64_t v = n.as_integer()->get();
    if (v < minimum || v > kMaxLevelCount)
      fail(n, "expected an integer in [" + std::to_string(minimum) + ", " +
                  std::to_string(kMaxLevelCount) + "] or \"auto\" for " + what);
    return {false, static_cast<int>(v)};
  }
  std::vector<std::string> getFactors(const toml::node &n) const {
    std::vector<std::string> names;
    if (n.is_string())
      names.push_back(n.as_string()->get());
    else
      names = getStringList(n, "factors");
    auto r = canonicalFactors(names);
    if (!r)
      fail(n, r.error());
    return *r;
  }
  CommandSpec getCommand(const toml::table &t, const char *listKey, const std::string &what) const {
    CommandSpec c;
    const toml::node *list = t.get(listKey);
    const toml::node *shell = t.get("shell");
    if (list && shell)
      fail(*shell, "expected either '" + std::string(listKey) + "' (an argv list) or 'shell' in " +
                       what + ", not both");
    if (list) {
      c.argv = getStringList(*list, what + "." + listKey);
      if (c.argv.empty() || c.argv[0].empty())
        fail(*list, "expected a non-empty argv list for " + what + "." + listKey);
      c.argvAt = elementsAt(*list);
    } else if (shell) {
      c.shell = getString(*shell, what + ".shell");
      if (c.shell.empty())
        fail(*shell, "expected a non-empty shell command for " + what + ".shell");
      c.shellAt = at(*shell);
    } else {
      fail(t.source(),
           "expected '" + std::string(listKey) + " = [...]' or 'shell = \"...\"' in " + what);
    }
    return c;
  }
  MeasureSpec getMeasure(const toml::node &n) const {
    if (!n.is_table())
      fail(n,
           "expected a table for measure (e.g. measure = { source = \"regex\", regex = '...' })");
    MeasureSpecResult r = parseMeasureSpec(*n.as_table());
    if (!r.ok()) {
      toml::source_region where = n.source();
      if (r.error->line > 0) {
        where.begin.line = static_cast<toml::source_index>(r.error->line);
        where.begin.column = static_cast<toml::source_index>(r.error->column);
      }
      fail(where, r.error->message);
    }
    return r.spec;
  }

  // The required name of a [[system]], [[target]] or [[benchmark]] table
  // (`kind`): letters, digits, '_', '-', '.', '+' (so never '/', a NUL or a
  // newline), not starting with '.' or '-', at most `limit` bytes (config.hpp:
  // the name becomes part of a file name, `use`).
  std::string getName(const toml::table &t, const std::string &kind, std::size_t limit,
                      const std::string &use) const {
    const toml::node *name = t.get("name");
    if (!name)
      fail(t.source(), "expected name = \"...\" in [[" + kind + "]]");
    const toml::node &n = *name;
    std::string s = getString(n, kind + ".name");
    auto allowed = [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' ||
             c == '+';
    };
    if (s.empty() || s[0] == '.' || s[0] == '-' || !std::all_of(s.begin(), s.end(), allowed))
      fail(n, "expected a " + kind + " name of letters, digits, '_', '-', '.', '+'");
    if (s.size() > limit)
      fail(n, "expected a " + kind + " name of at most " + std::to_string(limit) + " bytes (" +
                  use + "), not " + std::to_string(s.size()));
    return s;
  }

  void parse(const toml::table &root, CampaignConfig &cfg) const {
    checkKeys(root, "the campaign file",
              {"campaign", "levels", "adaptive", "measure", "system", "benchmark", "target"});
    if (const toml::node *n = root.get("campaign")) {
      if (!n->is_table())
        fail(*n, "expected a table [campaign]");
      parseCampaignTable(*n->as_table(), cfg);
    }
    if (const toml::node *n = root.get("levels")) {
      if (!n->is_table())
        fail(*n, "expected a table [levels]");
      parseLevels(*n->as_table(), cfg);
    }
    if (const toml::node *n = root.get("adaptive")) {
      if (!n->is_table())
        fail(*n, "expected a table [adaptive]");
      parseAdaptive(*n->as_table(), cfg);
    }
    if (const toml::node *n = root.get("measure"))
      cfg.measure = getMeasure(*n);

    const toml::node *systems = root.get("system");
    if (!systems)
      fail(root.source(), "expected at least one [[system]] table");
    cfg.systems =
        parseNamedTables(*systems, "system", [&](const toml::table &t) { return parseSystem(t); });
    int baselines = static_cast<int>(
        std::count_if(cfg.systems.begin(), cfg.systems.end(), [](auto &s) { return s.baseline; }));
    if (baselines > 1)
      fail(*systems,
           "expected exactly one system with baseline = true, found " + std::to_string(baselines));
    if (baselines == 0 && cfg.systems.size() > 1)
      fail(*systems, "expected one system marked baseline = true among the " +
                         std::to_string(cfg.systems.size()) + " systems");
    if (cfg.systems.size() == 1)
      cfg.systems[0].baseline = true;

    if (const toml::node *targets = root.get("target"))
      cfg.targets = parseNamedTables(*targets, "target",
                                     [&](const toml::table &t) { return parseTarget(t); });
    if (cfg.machines == Machines::Level) {
      const toml::node *where = root.get("campaign");
      if (cfg.targets.size() < 2)
        fail(*where, "machines = \"level\" expects two or more [[target]] tables (machine is "
                     "the top random level)");
      if (!cfg.builds.automatic && cfg.builds.count % static_cast<int>(cfg.targets.size()) != 0)
        fail(*where,
             "machines = \"level\" expects levels.builds to be a multiple of the " +
                 std::to_string(cfg.targets.size()) + " targets (build i runs on target i mod " +
                 std::to_string(cfg.targets.size()) + "), not " + std::to_string(cfg.builds.count));
    }
    if (cfg.buildOnTargets) {
      const toml::node &where = *root.get("campaign")->as_table()->get("build_on");
      if (cfg.targets.empty())
        fail(where, "build_on = \"targets\" expects [[target]] tables to build on");
      // What comes back from a target is the artifacts (docs/targets.md).
      for (const auto &s : cfg.systems)
        if (s.artifacts.empty())
          fail(where, "build_on = \"targets\" expects artifacts = [...] in every system (what "
                      "comes back from the target); system '" +
                          s.name + "' names none");
    }

    const toml::node *benches = root.get("benchmark");
    if (!benches)
      fail(root.source(), "expected at least one [[benchmark]] table");
    if (!benches->is_array_of_tables())
      fail(*benches, "expected [[benchmark]] tables (an array of tables)");
    std::set<std::string> names;
    for (const auto &b : *benches->as_array()) {
      BenchmarkConfig bench = parseBenchmark(*b.as_table(), cfg);
      if (!names.insert(bench.name).second)
        fail(b, "expected a unique benchmark name; '" + bench.name + "' is used twice");
      if (bench.measure.source == IterationSource::None &&
          (cfg.iterations.count > 1 || cfg.iterations.automatic || cfg.warmup.count > 0 ||
           cfg.warmup.automatic))
        fail(b, "benchmark '" + bench.name +
                    "' measures whole executions (measure.source = \"none\"): expected "
                    "levels.iterations = 1 and levels.warmup = 0, or an iteration source");
      cfg.benchmarks.push_back(std::move(bench));
    }
  }

  void parseCampaignTable(const toml::table &t, CampaignConfig &cfg) const {
    checkKeys(t, "[campaign]",
              {"name", "seed", "confidence", "threshold", "factors", "env_padding", "aslr", "cpus",
               "timeout", "build_timeout", "build_jobs", "build_cache", "build_on", "redact_env",
               "leftovers", "design", "duet_cpus", "quiet", "machines"});
    if (auto *n = t.get("build_on")) {
      std::string where = getString(*n, "campaign.build_on");
      if (where != "host" && where != "targets")
        fail(*n, "expected build_on = \"host\" or \"targets\" (the [[target]] tables)");
      cfg.buildOnTargets = where == "targets";
    }
    if (auto *n = t.get("machines")) {
      std::string m = getString(*n, "campaign.machines");
      auto machines = parseEnum<Machines>(m);
      if (!machines)
        fail(*n, "expected machines = \"pool\" (identical targets sharing the executions) or "
                 "\"level\" (machine as the top random level)");
      cfg.machines = *machines;
    }
    if (auto *n = t.get("name"))
      cfg.name = getString(*n, "campaign.name");
    if (auto *n = t.get("seed")) {
      if (n->is_integer()) {
        if (n->as_integer()->get() < 0)
          fail(*n, "expected a non-negative seed");
        cfg.seed = static_cast<std::uint64_t>(n->as_integer()->get());
      } else if (!n->is_string() || !parseSeed(n->as_string()->get(), cfg.seed)) {
        fail(*n, "expected a seed: a non-negative integer or a string \"0x...\" (hex)");
      }
    }
    if (auto *n = t.get("confidence")) {
      cfg.confidence = getNumber(*n, "campaign.confidence");
      if (!(cfg.confidence > 0 && cfg.confidence < 1))
        fail(*n, "expected a confidence level strictly between 0 and 1 (e.g. 0.95)");
    }
    if (auto *n = t.get("threshold")) {
      cfg.threshold = getNumber(*n, "campaign.threshold");
      if (!(cfg.threshold >= 0 && cfg.threshold < 1))
        fail(*n, "expected a relative threshold in [0, 1) (e.g. 0.01 for 1%)");
    }
    if (auto *n = t.get("factors"))
      cfg.factors = getFactors(*n);
    if (auto *n = t.get("env_padding")) {
      if (!n->is_array() || n->as_array()->size() != 2)
        fail(*n, "expected env_padding = [min, max] (bytes, e.g. [0, 4096])");
      std::int64_t lo = getInt(*n->as_array()->get(0), "env_padding[0]");
      std::int64_t hi = getInt(*n->as_array()->get(1), "env_padding[1]");
      if (lo < 0 || hi < lo || hi > (1 << 20))
        fail(*n, "expected 0 <= min <= max <= 1048576 in env_padding = [min, max]");
      cfg.envPadMin = lo;
      cfg.envPadMax = hi;
    }
    if (auto *n = t.get("aslr"))
      cfg.disableAslr = aslrOff(*n, "campaign.aslr",
                                "expected aslr = \"system\" (as the kernel has it) or \"off\"");
    if (auto *n = t.get("cpus")) {
      if (!n->is_array())
        fail(*n, "expected cpus = [list of CPU numbers]");
      for (const auto &e : *n->as_array()) {
        std::int64_t c = getInt(e, "cpus");
        if (c < 0 || c > 4095)
          fail(e, "expected a CPU number in [0, 4095]");
        cfg.cpus.push_back(static_cast<int>(c));
        cfg.cpusAt.push_back(at(e));
      }
    }
    if (auto *n = t.get("timeout"))
      cfg.timeoutSeconds = getSeconds(*n, "campaign.timeout", "a timeout");
    if (auto *n = t.get("build_timeout"))
      cfg.buildTimeoutSeconds = getSeconds(*n, "campaign.build_timeout", "a build timeout");
    if (auto *n = t.get("build_jobs")) {
      auto jobs = n->value<std::int64_t>();
      if (n->is_string() && n->value<std::string>() == "auto")
        cfg.buildJobs = 0;
      else if (n->is_integer() && jobs && *jobs >= 1 && *jobs <= 1024)
        cfg.buildJobs = static_cast<int>(*jobs);
      else
        fail(*n, "expected build_jobs = \"auto\" or a number of builds from 1 to 1024");
    }
    if (auto *n = t.get("build_cache"))
      cfg.buildCache = getBool(*n, "campaign.build_cache");
    if (auto *n = t.get("redact_env")) {
      if (!n->is_array())
        fail(*n, "expected redact_env = [name patterns, e.g. \"MY_*\"]");
      for (const auto &e : *n->as_array()) {
        std::string pattern = getString(e, "redact_env");
        if (pattern.empty() || pattern.find('=') != std::string::npos)
          fail(e, "expected a variable name pattern (shell wildcards * ? [...], no '=')");
        cfg.redactEnv.push_back(std::move(pattern));
      }
    }
    if (auto *n = t.get("leftovers")) {
      std::string v = getString(*n, "campaign.leftovers");
      if (v != "kill" && v != "keep")
        fail(*n, "expected leftovers = \"kill\" (end processes a benchmark leaves running) or "
                 "\"keep\"");
      cfg.killLeftovers = v == "kill";
    }
    if (auto *n = t.get("design")) {
      auto design = parseEnum<Design>(getString(*n, "campaign.design"));
      if (!design)
        fail(*n, "expected design = \"interleaved\" (blocks of build i of every system, close in "
                 "time), \"duet\" (a block's executions at the same time on disjoint CPUs) or "
                 "\"unpaired\" (one random order)");
      cfg.design = *design;
      cfg.designAt = at(*n);
    }
    if (auto *n = t.get("duet_cpus")) {
      const char *expected = "expected duet_cpus = [[CPU numbers], [CPU numbers], ...] (one "
                             "disjoint set per system, e.g. [[0], [1]])";
      if (!n->is_array())
        fail(*n, expected);
      std::set<std::int64_t> seen;
      for (const auto &set : *n->as_array()) {
        if (!set.is_array() || set.as_array()->empty())
          fail(set, expected);
        std::vector<int> cpus;
        for (const auto &e : *set.as_array()) {
          std::int64_t c = getInt(e, "duet_cpus");
          if (c < 0 || c > 4095)
            fail(e, "expected a CPU number in [0, 4095]");
          if (!seen.insert(c).second)
            fail(e, "expected disjoint CPU sets: CPU " + std::to_string(c) + " is in two sets");
          cpus.push_back(static_cast<int>(c));
        }
        cfg.duetCpus.push_back(std::move(cpus));
      }
      cfg.duetCpusAt = at(*n);
    }
    if (auto *n = t.get("quiet")) {
      const char *expected = "expected quiet = { load = 0.25, wait = 60 } (wait before each "
                             "execution until other processes keep fewer than `load` CPUs busy, "
                             "at most `wait` seconds)";
      if (!n->is_table())
        fail(*n, expected);
      checkKeys(*n->as_table(), "campaign.quiet", {"load", "wait"});
      cfg.quiet.enabled = true;
      if (auto *l = n->as_table()->get("load")) {
        cfg.quiet.load = getNumber(*l, "campaign.quiet.load");
        if (!(cfg.quiet.load >= 0 && cfg.quiet.load <= kMaxCpus))
          fail(*l, "expected a load in [0, " + std::to_string(kMaxCpus) +
                       "] (CPUs busy with other processes, e.g. 0.25)");
      }
      if (auto *w = n->as_table()->get("wait"))
        cfg.quiet.waitSeconds = getSeconds(*w, "campaign.quiet.wait", "a wait", true);
    }
  }

  void parseAdaptive(const toml::table &t, CampaignConfig &cfg) const {
    checkKeys(t, "[adaptive]", {"half_width", "time_budget", "max_builds"});
    cfg.adaptive.enabled = true;
    if (auto *n = t.get("half_width")) {
      cfg.adaptive.halfWidth = getNumber(*n, "adaptive.half_width");
      if (!(cfg.adaptive.halfWidth > 0 && cfg.adaptive.halfWidth < 1))
        fail(*n, "expected a relative half-width of the ratio in (0, 1) (e.g. 0.02 for 2%)");
    }
    if (auto *n = t.get("time_budget")) {
      cfg.adaptive.timeBudgetSeconds = getSeconds(*n, "adaptive.time_budget", "a time budget");
    }
    if (auto *n = t.get("max_builds")) {
      std::int64_t m = getInt(*n, "adaptive.max_builds");
      if (m < 2 || m > 1000)
        fail(*n, "expected max_builds in [2, 1000]");
      cfg.adaptive.maxBuilds = static_cast<int>(m);
    }
    if (cfg.adaptive.halfWidth == 0 && cfg.adaptive.timeBudgetSeconds == 0)
      fail(t, "expected half_width or time_budget (or both) in [adaptive]");
  }

  void parseLevels(const toml::table &t, CampaignConfig &cfg) const {
    checkKeys(t, "[levels]",
              {"builds", "executions", "iterations", "warmup", "target_half_width", "time_budget"});
    cfg.levelsAt = at(t);
    if (auto *n = t.get("builds"))
      cfg.builds = getLevel(*n, "levels.builds", 1);
    if (auto *n = t.get("executions"))
      cfg.executions = getLevel(*n, "levels.executions", 1);
    if (auto *n = t.get("iterations"))
      cfg.iterations = getLevel(*n, "levels.iterations", 1);
    if (auto *n = t.get("warmup")) {
      if (n->is_integer() && n->as_integer()->get() == 0)
        cfg.warmup = {false, 0};
      else
        cfg.warmup = getLevel(*n, "levels.warmup", 0);
    }
    if (auto *n = t.get("target_half_width")) {
      cfg.targetHalfWidth = getNumber(*n, "levels.target_half_width");
      if (!(cfg.targetHalfWidth > 0 && cfg.targetHalfWidth < 1))
        fail(*n, "expected a relative half-width in (0, 1) (e.g. 0.01 for 1%)");
    }
    if (auto *n = t.get("time_budget")) {
      cfg.timeBudgetSeconds = getSeconds(*n, "levels.time_budget", "a time budget");
    }
  }

  SystemConfig parseSystem(const toml::table &t) const {
    checkKeys(t, "[[system]]",
              {"name", "baseline", "build", "shell", "artifacts", "env", "factors"});
    SystemConfig s;
    s.name = getName(t, "system", kMaxSystemNameBytes, "it names the directory builds/<system>");
    if (auto *n = t.get("baseline"))
      s.baseline = getBool(*n, "system.baseline");
    s.build = getCommand(t, "build", "system '" + s.name + "'");
    if (auto *n = t.get("artifacts")) {
      s.artifacts = getStringList(*n, "system.artifacts");
      for (const auto &a : s.artifacts)
        if (a.empty() || a[0] == '/' || a.find("..") != std::string::npos)
          fail(*n, "expected artifact paths relative to the build directory (no '/', no '..')");
    }
    if (auto *n = t.get("env"))
      s.env = getEnv(*n, "system.env");
    if (auto *n = t.get("factors"))
      s.factors = getFactors(*n);
    return s;
  }

  TargetConfig parseTarget(const toml::table &t) const {
    checkKeys(
        t, "[[target]]",
        {"name", "ssh", "ssh_options", "workdir", "slurm", "cpus", "aslr", "env", "tool_dir"});
    TargetConfig target;
    target.at = at(t);
    target.name =
        getName(t, "target", kMaxTargetNameBytes, "it names the file targets/<target>.log");
    const toml::node *ssh = t.get("ssh"), *slurm = t.get("slurm");
    if ((ssh != nullptr) == (slurm != nullptr))
      fail(t.source(), "expected either ssh = \"user@host\" or slurm = { ... } in target '" +
                           target.name + "'");
    if (ssh) {
      target.ssh = getString(*ssh, "target.ssh");
      if (target.ssh.empty() || target.ssh[0] == '-')
        fail(*ssh, "expected an ssh destination (user@host or a Host of ~/.ssh/config), not an "
                   "option");
      // ssh takes no password in a destination (`user:pw@host`, `ssh://user:pw@host`; a
      // user name cannot hold a ':'); one written there would end up in logs, never used.
      std::string_view dest = target.ssh;
      if (std::size_t scheme = dest.find("://"); scheme != std::string_view::npos)
        dest.remove_prefix(scheme + 3);
      if (std::size_t at = dest.rfind('@');
          at != std::string_view::npos && dest.substr(0, at).find(':') != std::string_view::npos)
        fail(*ssh, "expected an ssh destination without a password (user@host; ssh takes its "
                   "credentials from keys or an agent)");
    }
    if (auto *n = t.get("ssh_options"))
      target.sshOptions = getStringList(*n, "target.ssh_options");
    if (auto *n = t.get("workdir")) {
      target.workdir = getString(*n, "target.workdir");
      // "~/x": x in the login directory (where ssh starts; the path is passed
      // quoted, so a shell would not expand the tilde).
      if (target.workdir == "~")
        target.workdir = ".";
      else if (target.workdir.rfind("~/", 0) == 0)
        target.workdir = target.workdir.substr(2);
      if (target.workdir.empty() || target.workdir[0] == '-' || target.workdir[0] == '~')
        fail(*n, "expected a directory for target.workdir (absolute, relative to the login "
                 "directory, or ~/...)");
    }
    if (slurm) {
      if (!slurm->is_table())
        fail(*slurm,
             "expected slurm = { partition = \"...\", ... } in target '" + target.name + "'");
      const toml::table &st = *slurm->as_table();
      checkKeys(
          st, "target.slurm",
          {"partition", "nodes", "constraint", "exclusive", "time_limit", "account", "options"});
      SlurmSettings s;
      if (auto *n = st.get("partition"))
        s.partition = getString(*n, "slurm.partition");
      if (auto *n = st.get("constraint"))
        s.constraint = getString(*n, "slurm.constraint");
      if (auto *n = st.get("account"))
        s.account = getString(*n, "slurm.account");
      if (auto *n = st.get("time_limit"))
        s.timeLimit = n->is_integer() ? std::to_string(getInt(*n, "slurm.time_limit"))
                                      : getString(*n, "slurm.time_limit");
      if (auto *n = st.get("nodes")) {
        if (getInt(*n, "slurm.nodes") != 1) // before the narrowing: 2^32 + 1 is not 1
          fail(*n, "expected nodes = 1 (the helper measures on one node; add targets for more)");
        s.nodes = 1;
      }
      if (auto *n = st.get("exclusive"))
        s.exclusive = getBool(*n, "slurm.exclusive");
      if (auto *n = st.get("options"))
        s.extra = getStringList(*n, "slurm.options");
      target.slurm = s;
    }
    if (auto *n = t.get("cpus")) {
      std::vector<int> cpus;
      if (!n->is_array())
        fail(*n, "expected cpus = [CPU numbers] in target '" + target.name + "'");
      for (const auto &e : *n->as_array()) {
        std::int64_t c = getInt(e, "target.cpus");
        if (c < 0 || c >= kMaxCpus)
          fail(e, "expected a CPU number in [0, " + std::to_string(kMaxCpus - 1) + "]");
        cpus.push_back(static_cast<int>(c));
      }
      target.cpus = cpus;
    }
    if (auto *n = t.get("aslr"))
      target.disableAslr = aslrOff(*n, "target.aslr", "expected aslr = \"system\" or \"off\"");
    if (auto *n = t.get("env"))
      target.env = getEnv(*n, "target.env");
    if (auto *n = t.get("tool_dir")) {
      target.toolDir = getString(*n, "target.tool_dir");
      if (target.toolDir.empty() || target.toolDir[0] != '/')
        fail(*n, "expected an absolute directory for target.tool_dir (where alea-cc is there)");
    }
    return target;
  }

  BenchmarkConfig parseBenchmark(const toml::table &t, const CampaignConfig &cfg) const {
    checkKeys(t, "[[benchmark]]",
              {"name", "command", "shell", "workdir", "inputs", "env", "exit_status", "timeout",
               "measure", "stdin"});
    BenchmarkConfig b;
    b.name = getName(t, "benchmark", kMaxBenchmarkNameBytes,
                     "it names the figure files executions-<benchmark>.svg");
    b.command = getCommand(t, "command", "benchmark '" + b.name + "'");
    if (auto *n = t.get("workdir")) {
      b.workdir = getString(*n, "benchmark.workdir");
      b.workdirAt = at(*n);
    }
    if (auto *n = t.get("inputs")) {
      b.inputs = getStringList(*n, "benchmark.inputs");
      b.inputsAt = elementsAt(*n);
    }
    if (auto *n = t.get("env")) {
      b.env = getEnv(*n, "benchmark.env");
      b.envAt = valuesAt(*n);
    }
    if (auto *n = t.get("exit_status")) {
      std::int64_t v = getInt(*n, "benchmark.exit_status");
      if (v < 0 || v > 255)
        fail(*n, "expected an exit status in [0, 255]");
      b.expectedExit = static_cast<int>(v);
    }
    if (auto *n = t.get("timeout"))
      b.timeoutSeconds = getSeconds(*n, "benchmark.timeout", "a timeout");
    if (auto *n = t.get("stdin")) {
      b.stdinFile = getString(*n, "benchmark.stdin");
      b.stdinAt = at(*n);
    }
    b.measure = cfg.measure;
    if (auto *n = t.get("measure"))
      b.measure = getMeasure(*n);
    return b;
  }

private:
  std::string path_;
};

} // namespace

const SystemConfig *CampaignConfig::baseline() const {
  for (const auto &s : systems)
    if (s.baseline)
      return &s;
  return systems.empty() ? nullptr : &systems.front();
}

Expected<std::vector<std::string>> canonicalFactors(const std::vector<std::string> &names) {
  FactorSet chosen;
  bool heap = false;
  for (const auto &n : names) {
    if (n == "all") {
      chosen = FactorSet::all();
      heap = true;
    } else if (auto factor = factorFromName(n)) {
      chosen.add(*factor);
    } else if (n == kHeapOffsetFactorName) {
      heap = true;
    } else if (n != "none") {
      return Error{"unknown factor '" + n + "'; expected all, none, " +
                   joinFactorNames(FactorSet::all(), ", ") + ", " +
                   std::string(kHeapOffsetFactorName)};
    }
  }
  std::vector<std::string> out;
  for (std::string_view name : kFactorNames)
    if (chosen.has(*factorFromName(name)))
      out.emplace_back(name);
  if (heap)
    out.emplace_back(kHeapOffsetFactorName);
  return out;
}

std::string joinFactors(const std::vector<std::string> &factors) {
  FactorSet set;
  for (const auto &name : factors)
    if (auto factor = factorFromName(name))
      set.add(*factor);
  return formatFactors(set);
}

bool heapOffsetOn(const std::vector<std::string> &factors) {
  return std::find(factors.begin(), factors.end(), kHeapOffsetFactorName) != factors.end();
}

std::string describeFactors(const std::vector<std::string> &factors) {
  std::string build = joinFactors(factors);
  if (!heapOffsetOn(factors))
    return build;
  return (build == "none" ? "" : build + ",") + std::string(kHeapOffsetFactorName);
}

std::string fileError(const std::string &path, SourcePos at, const std::string &message) {
  return path + ":" + std::to_string(at.line) + ":" + std::to_string(at.column) + ": " + message;
}

namespace {

// Reads `text` the way substitute() does: `{{` is a literal `{`, `${` is the
// shell's, a `{` without a closing `}` is literal. `literal` gets the other
// characters, `key` every placeholder's key and returns false to stop there.
// One reading for substitution and for the checks before the run
// (placeholdersIn), so the two cannot disagree.
template <typename Literal, typename Key>
bool scanPlaceholders(const std::string &text, Literal literal, Key key) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '{' && i + 1 < text.size() && text[i + 1] == '{') {
      literal('{');
      ++i;
      continue;
    }
    bool opens = c == '{' && !(i > 0 && text[i - 1] == '$');
    std::size_t close = opens ? text.find('}', i) : std::string::npos;
    if (close == std::string::npos) {
      literal(c);
      continue;
    }
    if (!key(text.substr(i + 1, close - i - 1)))
      return false;
    i = close;
  }
  return true;
}

} // namespace

std::vector<std::string> placeholdersIn(const std::string &text) {
  std::vector<std::string> keys;
  scanPlaceholders(
      text, [](char) {},
      [&](const std::string &key) {
        keys.push_back(key);
        return true;
      });
  return keys;
}

PlaceholderList placeholderValues(const BuildPlaceholders &v) {
  return {{"source_dir", v.sourceDir},
          {"build_dir", v.buildDir},
          {"campaign_dir", v.campaignDir},
          {"system", v.system},
          {"build_index", std::to_string(v.buildIndex)},
          {"seed", v.seed}};
}

PlaceholderList placeholderValues(const BenchmarkPlaceholders &v) {
  return {{"source_dir", v.sourceDir},
          {"build_dir", v.buildDir},
          {"campaign_dir", v.campaignDir},
          {"system", v.system},
          {"benchmark", v.benchmark},
          {"build_index", std::to_string(v.buildIndex)},
          {"execution_index", std::to_string(v.executionIndex)},
          {"iterations", std::to_string(v.iterations)}};
}

namespace {

// Where the next character of a shell text stands, as far as quoting goes:
// fed the user's text (never the substituted values) one character at a
// time, it knows whether a placeholder is outside quotes, in '...', in "..."
// or in `...`, through $(...) nesting. Heredocs, comments and arithmetic are
// read as plain text: a value quoted there is still one word or literal text.
class ShellContext {
public:
  void feed(char c) {
    Frame &top = frames_.back();
    const bool escaped = escaped_;
    escaped_ = false;
    const bool dollar = previous_ == '$' && !escaped;
    previous_ = escaped ? '\0' : c;
    if (single_) {
      single_ = c != '\'';
      return;
    }
    if (escaped)
      return;
    if (c == '\\') {
      escaped_ = true;
      return;
    }
    if (c == '`') {
      if (top.kind == Kind::Backtick)
        frames_.pop_back();
      else
        frames_.push_back({Kind::Backtick});
      return;
    }
    if (top.kind == Kind::Double) {
      if (c == '"')
        frames_.pop_back();
      else if (c == '(' && dollar)
        frames_.push_back({Kind::Command});
      return;
    }
    // Outside double quotes: the top level, $(...) or `...`.
    if (c == '\'')
      single_ = true;
    else if (c == '"')
      frames_.push_back({Kind::Double});
    else if (c == '(' && dollar)
      frames_.push_back({Kind::Command});
    else if (c == '(')
      ++top.parens;
    else if (c == ')' && top.parens > 0)
      --top.parens;
    else if (c == ')' && top.kind == Kind::Command)
      frames_.pop_back();
  }

  // `value` spelt so that, at this point of the text, the shell reads it as
  // literal text: one word outside quotes, the same characters inside them.
  std::string quote(const std::string &value) const {
    const std::string word = shellQuote(value);
    if (word == value)
      return value; // nothing any shell reads specially
    if (single_)
      return "'" + word + "'"; // close the user's quotes, the word, reopen them
    std::string out;
    if (frames_.back().kind == Kind::Double) {
      for (char c : value) {
        if (c == '\\' || c == '"' || c == '$' || c == '`')
          out += '\\';
        out += c;
      }
      return out;
    }
    if (std::none_of(frames_.begin(), frames_.end(),
                     [](const Frame &f) { return f.kind == Kind::Backtick; }))
      return word;
    // Inside `...` the shell first removes one backslash before \, ` and $
    // (and ", within double quotes) before it parses the command.
    const bool inDouble = std::any_of(frames_.begin(), frames_.end(),
                                      [](const Frame &f) { return f.kind == Kind::Double; });
    for (char c : word) {
      if (c == '\\' || c == '`' || c == '$' || (inDouble && c == '"'))
        out += '\\';
      out += c;
    }
    return out;
  }

private:
  enum class Kind { Plain, Double, Command, Backtick };
  struct Frame {
    Kind kind;
    int parens = 0; // open ( of subshells and $((...)) inside this frame
  };
  std::vector<Frame> frames_{{Kind::Plain}};
  bool single_ = false, escaped_ = false;
  char previous_ = '\0';
};

} // namespace

Expected<std::string> substitute(const std::string &text,
                                 const std::map<std::string, std::string> &vars,
                                 SubstituteFor target) {
  std::string out, unknown;
  ShellContext shell;
  const bool quote = target == SubstituteFor::ShellText;
  bool complete = scanPlaceholders(
      text,
      [&](char c) {
        out += c;
        if (quote)
          shell.feed(c);
      },
      [&](const std::string &key) {
        auto it = vars.find(key);
        if (it == vars.end()) {
          unknown = key;
          return false;
        }
        out += quote ? shell.quote(it->second) : it->second;
        return true;
      });
  if (!complete) {
    std::string list;
    for (const auto &[k, v] : vars)
      list += (list.empty() ? "{" : ", {") + k + "}";
    return Error{"unknown placeholder {" + unknown + "} in '" + text + "'; expected one of " +
                 list};
  }
  return out;
}

Expected<CampaignConfig> parseCampaignText(const std::string &text, const std::string &path) {
  CampaignConfig cfg;
  cfg.path = path;
  cfg.text = text;
  std::error_code ec;
  auto abs = std::filesystem::absolute(path, ec);
  cfg.sourceDir = (ec ? std::filesystem::path(path) : abs).parent_path().string();
  for (std::string_view f : kFactorNames)
    cfg.factors.emplace_back(f);
  cfg.factors.emplace_back(kHeapOffsetFactorName);
  Parser parser(path);
  try {
    toml::table root = toml::parse(text, path);
    parser.parse(root, cfg);
  } catch (const toml::parse_error &e) {
    return Error{path + ":" + std::to_string(e.source().begin.line) + ":" +
                 std::to_string(e.source().begin.column) + ": " + std::string(e.description())};
  } catch (const ConfigError &e) {
    return Error{fileError(path, {e.line, e.column}, e.message)};
  }
  if (cfg.name.empty())
    cfg.name = std::filesystem::path(path).stem().string();
  return cfg;
}

namespace {

// The byte offset of a toml++ position (1-based line, and column counted in
// UTF-8 code points) in `text`; text.size() past its end.
std::size_t byteOffset(const std::string &text, const toml::source_position &pos) {
  std::size_t i = 0;
  for (std::size_t line = 1; line < pos.line && i < text.size(); ++i)
    if (text[i] == '\n')
      ++line;
  for (std::size_t col = 1; col < pos.column && i < text.size(); ++col) {
    ++i;
    while (i < text.size() && (static_cast<unsigned char>(text[i]) & 0xC0) == 0x80)
      ++i; // a continuation byte of the same code point
  }
  return i;
}

// `s` as a TOML basic string ("...", TOML 1.0 escapes): one line, whatever
// the value held.
std::string tomlString(const std::string &s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\t':
      out += "\\t";
      break;
    case '\r':
      out += "\\r";
      break;
    default:
      if (c < 0x20 || c == 0x7F) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04X", c);
        out += buf;
      } else {
        out += static_cast<char>(c);
      }
    }
  }
  return out + "\"";
}

struct Replacement {
  std::size_t from, to;
  std::string text;
};

// The replacements of the string values under `node`; `inEnv`: `node` is a
// value of an `env` table, named `key`. An array of strings is redacted as a
// command's argv (`"--token", "X"`: X is the option's value).
void redactStrings(const std::string &text, const toml::node &node, std::string_view key,
                   bool inEnv, const Redactor &redactor, std::vector<Replacement> &out) {
  auto replace = [&](const toml::node &n, std::string with) {
    const std::size_t from = byteOffset(text, n.source().begin),
                      to = byteOffset(text, n.source().end);
    if (from < to)
      out.push_back({from, to, std::move(with)});
  };
  if (const toml::table *t = node.as_table()) {
    for (auto &&[k, v] : *t)
      redactStrings(text, v, k.str(), key == "env", redactor, out);
  } else if (const toml::array *a = node.as_array()) {
    if (!a->empty() && a->is_homogeneous(toml::node_type::string)) {
      std::vector<std::string> args;
      for (const toml::node &e : *a)
        args.push_back(e.as_string()->get());
      const std::vector<std::string> recorded = redactor.argv(args);
      for (std::size_t i = 0; i < args.size(); ++i)
        if (recorded[i] != args[i])
          replace(*a->get(i), tomlString(recorded[i]));
      return;
    }
    for (const toml::node &e : *a)
      redactStrings(text, e, key, false, redactor, out);
  } else if (const toml::value<std::string> *s = node.as_string()) {
    if (inEnv && redactor.secretName(key))
      replace(node, std::string("\"") + kRedactedValue + "\"");
    else if (std::string r = redactor.text(s->get()); r != s->get())
      replace(node, tomlString(r));
  }
}

} // namespace

std::string recordedCampaignText(const CampaignConfig &cfg, const Redactor &redactor) {
  toml::table root;
  try {
    root = toml::parse(cfg.text, cfg.path);
  } catch (const toml::parse_error &) {
    return redactor.text(cfg.text); // not a campaign's text: redacted as any text
  }
  std::vector<Replacement> replacements;
  redactStrings(cfg.text, root, "", false, redactor, replacements);
  std::sort(replacements.begin(), replacements.end(),
            [](const Replacement &a, const Replacement &b) { return a.from > b.from; });
  // From the last value to the first, so earlier offsets stay valid.
  std::string out = cfg.text;
  for (const Replacement &r : replacements)
    out.replace(r.from, r.to - r.from, r.text);
  return out;
}

Expected<CampaignConfig> parseCampaign(const std::string &path) {
  const std::optional<std::string> text = alea::readFile(path);
  if (!text)
    return Error{"cannot read campaign file '" + path + "'"};
  return parseCampaignText(*text, path);
}

Status checkPlanSize(const CampaignConfig &cfg) {
  if (cfg.builds.automatic || cfg.executions.automatic)
    return {};
  // Counts are at most 10^6 each, systems and benchmarks a few thousand: the
  // product is computed in 128 bits, where it cannot overflow.
  unsigned __int128 planned = static_cast<unsigned __int128>(cfg.systems.size()) *
                              cfg.benchmarks.size() * static_cast<unsigned>(cfg.builds.count) *
                              static_cast<unsigned>(cfg.executions.count);
  if (planned <= static_cast<unsigned __int128>(kMaxPlannedExecutions))
    return {};
  std::string count;
  for (unsigned __int128 v = planned; v > 0; v /= 10)
    count.insert(count.begin(), static_cast<char>('0' + static_cast<int>(v % 10)));
  SourcePos at = cfg.levelsAt.line > 0 ? cfg.levelsAt : SourcePos{1, 1};
  return Error{fileError(
      cfg.path, at,
      "the levels plan " + count + " executions (" + counted(cfg.systems.size(), "system") + " x " +
          counted(cfg.benchmarks.size(), "benchmark") + " x " + counted(cfg.builds.count, "build") +
          " x " + counted(cfg.executions.count, "execution") + "), more than the " +
          std::to_string(kMaxPlannedExecutions) +
          " alea plans unless forced; lower the levels, or run them anyway with `alea run "
          "--force`")};
}

} // namespace alea::runner

// Checks of a campaign before anything runs (see validate.hpp). Each check
// does with a value what the run would do with it later (substitute() with the
// placeholders of runBuild or Run::execute, relative paths against the
// campaign file's directory, sched_setaffinity with the cpus) and reports a
// mistake at the value's line and column instead of in every execution.
#include "alea/config/validate.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <sched.h>

namespace fs = std::filesystem;

namespace alea::runner {

namespace {

// The names of a list of placeholders, in its order.
std::vector<std::string> keys(const PlaceholderList &values) {
  std::vector<std::string> out;
  for (const auto &[k, v] : values)
    out.push_back(k);
  return out;
}

// The placeholders a build command and a benchmark get (config.hpp's
// placeholderValues, the very maps the runner substitutes; benchmarks also get
// {artifact:PATH}).
const std::vector<std::string> kBuildPlaceholders = keys(placeholderValues(BuildPlaceholders{}));
const std::vector<std::string> kBenchmarkPlaceholders =
    keys(placeholderValues(BenchmarkPlaceholders{}));

struct Invalid {
  SourcePos at;
  std::string message;
};

[[noreturn]] void fail(SourcePos at, const std::string &message) { throw Invalid{at, message}; }

SourcePos nth(const std::vector<SourcePos> &at, std::size_t i) {
  return i < at.size() ? at[i] : SourcePos{};
}

// Levenshtein distance: a typo is one or two edits away (a swapped pair is two).
std::size_t editDistance(const std::string &a, const std::string &b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j)
    row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string joinBraced(const std::vector<std::string> &keys) {
  std::string out;
  for (const auto &k : keys)
    out += (out.empty() ? "{" : ", {") + k + "}";
  return out;
}

// Where a text is substituted: a build command, or a benchmark's values.
enum class Context { Build, Benchmark };

bool lists(const SystemConfig &s, const std::string &artifact) {
  return std::find(s.artifacts.begin(), s.artifacts.end(), artifact) != s.artifacts.end();
}

class Validator {
public:
  Validator(const CampaignConfig &cfg, const MachineFacts &machine)
      : cfg_(cfg), machine_(machine), benchmarkKeys_(kBenchmarkPlaceholders) {
    // Every execution substitutes the artifacts of the system it runs on, and
    // every benchmark runs on every system: only an artifact that every
    // system lists can be named.
    if (!cfg.systems.empty())
      for (const auto &a : cfg.systems.front().artifacts)
        if (std::all_of(cfg.systems.begin(), cfg.systems.end(),
                        [&](const SystemConfig &s) { return lists(s, a); }))
          benchmarkKeys_.push_back("artifact:" + a);
  }

  void run() const {
    // On targets the executions run elsewhere: this machine's CPUs say
    // nothing about theirs (a CPU missing there is a spawn failure there).
    if (cfg_.targets.empty()) {
      checkCpus();
      checkDuet();
      checkMetrics();
    }
    for (const auto &s : cfg_.systems)
      checkCommand(s.build, "system '" + s.name + "'", "build", Context::Build);
    for (const auto &b : cfg_.benchmarks) {
      std::string what = "benchmark '" + b.name + "'";
      checkCommand(b.command, what, "command", Context::Benchmark);
      if (!b.workdir.empty()) {
        checkText(b.workdir, b.workdirAt, what + ".workdir", Context::Benchmark);
        for (const auto &p : pathsBeforeRun(b.workdir, b))
          if (std::error_code ec; !fs::is_directory(p, ec))
            fail(b.workdirAt, "expected an existing directory for " + what + ".workdir: '" + p +
                                  "' " +
                                  (fs::exists(p, ec) ? "is not a directory" : "does not exist"));
      }
      if (!b.stdinFile.empty()) {
        checkText(b.stdinFile, b.stdinAt, what + ".stdin", Context::Benchmark);
        for (const auto &p : pathsBeforeRun(b.stdinFile, b))
          if (std::error_code ec; !fs::exists(p, ec) || fs::is_directory(p, ec))
            fail(b.stdinAt, "expected an existing file for " + what + ".stdin: '" + p + "' " +
                                (fs::exists(p, ec) ? "is a directory" : "does not exist"));
      }
      for (const auto &[key, value] : b.env) {
        auto at = b.envAt.find(key);
        checkText(value, at != b.envAt.end() ? at->second : SourcePos{}, what + ".env." + key,
                  Context::Benchmark);
      }
      // Inputs are plain paths, never substituted: each must exist as written.
      for (std::size_t i = 0; i < b.inputs.size(); ++i)
        if (std::error_code ec; !fs::exists(resolve(b.inputs[i]), ec))
          fail(nth(b.inputsAt, i), "expected an existing input file for " + what + ": '" +
                                       resolve(b.inputs[i]) + "' does not exist");
    }
  }

private:
  void checkCpus() const {
    if (machine_.cpus.empty())
      return; // unknown: nothing to check against
    for (std::size_t i = 0; i < cfg_.cpus.size(); ++i)
      if (!std::binary_search(machine_.cpus.begin(), machine_.cpus.end(), cfg_.cpus[i]))
        fail(nth(cfg_.cpusAt, i), "expected a CPU this process can run on in campaign.cpus: CPU " +
                                      std::to_string(cfg_.cpus[i]) +
                                      " is offline or outside its affinity mask (available: " +
                                      cpuList(machine_.cpus) + ")");
  }

  // A duet needs one CPU set per system, each a CPU alea may run on.
  void checkDuet() const {
    if (cfg_.design != Design::Duet)
      return;
    if (!cfg_.duetCpus.empty()) {
      if (cfg_.duetCpus.size() != cfg_.systems.size())
        fail(cfg_.duetCpusAt, "expected one CPU set per system in campaign.duet_cpus (" +
                                  std::to_string(cfg_.systems.size()) + " systems, " +
                                  std::to_string(cfg_.duetCpus.size()) + " sets)");
      if (!machine_.cpus.empty())
        for (const auto &set : cfg_.duetCpus)
          for (int c : set)
            if (!std::binary_search(machine_.cpus.begin(), machine_.cpus.end(), c))
              fail(cfg_.duetCpusAt, "expected CPUs this process can run on in "
                                    "campaign.duet_cpus: CPU " +
                                        std::to_string(c) +
                                        " is offline or outside its affinity mask (available: " +
                                        cpuList(machine_.cpus) + ")");
      return;
    }
    if (!machine_.cpus.empty() && duetCpuSets(cfg_, machine_.cpus).empty())
      fail(cfg_.designAt, "expected at least one CPU per system for design = \"duet\" (" +
                              std::to_string(cfg_.systems.size()) + " systems, CPUs " +
                              cpuList(cfg_.cpus.empty() ? machine_.cpus : cfg_.cpus) +
                              "); use design = \"interleaved\" on this machine");
  }

  // A counter or simulator the machine lacks fails every execution: said
  // once, at the first benchmark that asks for it.
  void checkMetrics() const {
    for (const auto &b : cfg_.benchmarks) {
      const MeasureSpec &m = b.measure;
      const SourcePos at{m.metricLine, m.metricColumn};
      for (Metric metric : m.measuredMetrics()) {
        const std::string name = enumName(metric);
        if (auto c = machine_.counters.find(metric); c != machine_.counters.end())
          if (std::string why = counterProblem(metric, c->second); !why.empty())
            fail(at, "benchmark '" + b.name + "': metric \"" + name +
                         "\" cannot be counted on this machine: " + why);
        if (!isSimulated(metric))
          continue;
        for (const auto &s : machine_.simulators)
          if (s.cache == m.simCache && !s.problem.empty())
            fail(at, "benchmark '" + b.name + "': metric \"" + name +
                         "\" cannot be simulated on this machine: " + s.problem +
                         "; install Valgrind (Debian: apt-get install valgrind) or use "
                         "task-clock");
      }
    }
  }

  void checkCommand(const CommandSpec &cmd, const std::string &what, const char *listKey,
                    Context context) const {
    if (cmd.isShell())
      checkText(cmd.shell, cmd.shellAt, what + ".shell", context);
    for (std::size_t i = 0; i < cmd.argv.size(); ++i)
      checkText(cmd.argv[i], nth(cmd.argvAt, i), what + "." + listKey, context);
  }

  // Every placeholder of `text` must be one the run gives a value in `context`.
  void checkText(const std::string &text, SourcePos at, const std::string &where,
                 Context context) const {
    const auto &known = context == Context::Build ? kBuildPlaceholders : benchmarkKeys_;
    for (const std::string &key : placeholdersIn(text)) {
      if (std::find(known.begin(), known.end(), key) != known.end())
        continue;
      if (context == Context::Benchmark && key.rfind("artifact:", 0) == 0)
        checkArtifactOfEverySystem(key.substr(9), at, where);
      std::string message = "unknown placeholder {" + key + "} in " + where;
      auto closest = std::min_element(known.begin(), known.end(), [&](auto &a, auto &b) {
        return editDistance(key, a) < editDistance(key, b);
      });
      const auto &other = context == Context::Build ? kBenchmarkPlaceholders : kBuildPlaceholders;
      if (std::find(other.begin(), other.end(), key) != other.end() ||
          (context == Context::Build && key.rfind("artifact:", 0) == 0))
        message += std::string(" (a placeholder of ") +
                   (context == Context::Build ? "benchmarks" : "build commands") + " only)";
      else if (closest != known.end() && editDistance(key, *closest) <= 2)
        message += " (did you mean {" + *closest + "}?)";
      fail(at, message + "; expected one of " + joinBraced(known));
    }
  }

  // `{artifact:NAME}` that some systems list but not all: fails naming a
  // system that lacks it (NAME listed by none is an unknown placeholder).
  void checkArtifactOfEverySystem(const std::string &name, SourcePos at,
                                  const std::string &where) const {
    const auto &systems = cfg_.systems;
    auto listing = [&](const SystemConfig &s) { return lists(s, name); };
    auto lacking = std::find_if_not(systems.begin(), systems.end(), listing);
    if (lacking == systems.end() || std::none_of(systems.begin(), systems.end(), listing))
      return;
    std::string listed;
    for (const auto &a : lacking->artifacts)
      listed += (listed.empty() ? "\"" : ", \"") + a + "\"";
    fail(at, "expected {artifact:" + name + "} in " + where +
                 " to name an artifact of every system (the benchmark runs on the builds of "
                 "each); system '" +
                 lacking->name + "' has artifacts = [" + listed + "]");
  }

  // A path as the run resolves it: relative ones against the campaign file's
  // directory.
  std::string resolve(const std::string &path) const {
    return fs::path(path).is_relative() ? (fs::path(cfg_.sourceDir) / path).string() : path;
  }

  // The values a path of benchmark `b` takes, known before the run: one per
  // system, none when it uses a placeholder that only the run gives a value
  // ({build_dir}, {artifact:...}, {campaign_dir} whose directory the run
  // creates, the indices...).
  std::vector<std::string> pathsBeforeRun(const std::string &text, const BenchmarkConfig &b) const {
    std::vector<std::string> paths;
    for (const auto &s : cfg_.systems) {
      auto p = substitute(
          text, {{"source_dir", cfg_.sourceDir}, {"benchmark", b.name}, {"system", s.name}});
      if (!p)
        return {};
      paths.push_back(resolve(*p));
    }
    return paths;
  }

  const CampaignConfig &cfg_;
  const MachineFacts &machine_;
  std::vector<std::string> benchmarkKeys_;
};

} // namespace

std::string counterProblem(Metric metric, const CounterFacts &facts) {
  if (facts.error == 0)
    return {};
  const bool permission = facts.error == EACCES || facts.error == EPERM;
  const bool kernelSide = metric == Metric::ContextSwitches;
  std::string why = std::string("perf_event_open: ") + std::strerror(facts.error);
  if (permission) {
    why += " (kernel.perf_event_paranoid is " +
           (facts.paranoid ? std::to_string(*facts.paranoid) : std::string("unreadable")) +
           "; counting " + (kernelSide ? "this kernel-side event needs 1" : "user space needs 2") +
           " or less, or CAP_PERFMON)";
  } else if (metricKind(metric) == MetricKind::HardwareCounter &&
             (facts.error == ENOENT || facts.error == ENODEV || facts.error == EOPNOTSUPP)) {
    why += " (no PMU: this machine, a VM without hardware counters, cannot count it)";
  }
  std::string sim = simulatedCounterpart(metric);
  if (sim.empty())
    sim = "sim-instructions";
  // Without permission, or for a software event, no counter opens: the
  // rusage alternative, else the software counter.
  const char *counter =
      permission || metricKind(metric) == MetricKind::SoftwareCounter ? "cpu" : "task-clock";
  return why + "; use " + sim + " (Valgrind) or " + counter + " instead";
}

std::string cpuList(const std::vector<int> &cpus) {
  std::string out;
  for (std::size_t i = 0; i < cpus.size();) {
    std::size_t j = i;
    while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1)
      ++j;
    if (!out.empty())
      out += ',';
    out += std::to_string(cpus[i]);
    if (j > i)
      out += '-' + std::to_string(cpus[j]);
    i = j + 1;
  }
  return out;
}

MachineFacts readMachineFacts() {
  MachineFacts facts;
  // The parser accepts CPU numbers up to 4095: ask with a set that large. The
  // kernel answers with this process's affinity mask intersected with the
  // active (online) CPUs, which is what sched_setaffinity can pin to; the
  // executor pins with a cpu_set_t, so only CPUs below CPU_SETSIZE count.
  constexpr int kMaxCpus = 4096;
  cpu_set_t *set = CPU_ALLOC(kMaxCpus);
  std::size_t size = CPU_ALLOC_SIZE(kMaxCpus);
  if (set && ::sched_getaffinity(0, size, set) == 0)
    for (int c = 0; c < CPU_SETSIZE; ++c)
      if (CPU_ISSET_S(c, size, set))
        facts.cpus.push_back(c);
  if (set)
    CPU_FREE(set);
  return facts;
}

std::vector<std::vector<int>> duetCpuSets(const CampaignConfig &cfg,
                                          const std::vector<int> &available) {
  if (!cfg.duetCpus.empty())
    return cfg.duetCpus;
  const std::vector<int> &cpus = cfg.cpus.empty() ? available : cfg.cpus;
  std::size_t k = std::max<std::size_t>(cfg.systems.size(), 1);
  std::size_t per = cpus.size() / k;
  if (per == 0)
    return {};
  std::vector<std::vector<int>> sets(k);
  for (std::size_t i = 0; i < k; ++i)
    sets[i].assign(cpus.begin() + static_cast<std::ptrdiff_t>(i * per),
                   cpus.begin() + static_cast<std::ptrdiff_t>((i + 1) * per));
  return sets;
}

Status validateCampaign(const CampaignConfig &cfg, const MachineFacts &machine) {
  try {
    Validator(cfg, machine).run();
  } catch (const Invalid &e) {
    return Error{fileError(cfg.path, e.at, e.message)};
  }
  return {};
}

} // namespace alea::runner

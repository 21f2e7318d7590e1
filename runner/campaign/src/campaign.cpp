// The campaign loop (see campaign.hpp). Order of work: store + meta, machine
// state, systems and benchmarks, targets, builds (each recorded once, on the
// host or on the targets), the plan (once),
// then the pending executions in plan order. Every step is idempotent against
// what the store already holds, which is what makes `alea run` resumable after
// a kill -9 at any moment.
#include "alea/campaign/campaign.hpp"

#include "alea/campaign/autolevels.hpp"
#include "alea/campaign/builder.hpp"
#include "alea/campaign/lock.hpp"
#include "alea/campaign/scheduler.hpp"
#include "alea/campaign/seeds.hpp"
#include "alea/config/redact.hpp"
#include "alea/config/validate.hpp"
#include "alea/exec/duet.hpp"
#include "alea/exec/hash.hpp"
#include "alea/exec/machine.hpp"
#include "alea/exec/machine_facts.hpp"
#include "alea/exec/quiet.hpp"
#include "alea/remote/targets.hpp"
#include "alea/report/escape.hpp"
#include "alea/store/campaign_data.hpp"

#include "alea/analysis/ratio_planner.hpp"
#include "alea/contract.hpp"
#include "alea/file.hpp"
#include "alea/lists.hpp"
#include "alea/random.hpp"
#include "alea/words.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <sys/stat.h>
#include <thread>

namespace fs = std::filesystem;

namespace alea::runner {

std::string defaultCampaignDir(const std::string &campaignFile) {
  fs::path p(campaignFile);
  return (p.parent_path() / (p.stem().string() + ".alea")).string();
}

namespace {

// Creates the campaign directory private to the user (0700: its store holds
// environments, commands and logs), and its missing parents as `mkdir -p`
// does (the umask's mode). An existing directory keeps its mode: the user
// chose it.
std::error_code createCampaignDirectory(const std::string &dir) {
  std::error_code ec;
  const fs::path path(dir);
  if (path.has_parent_path())
    fs::create_directories(path.parent_path(), ec);
  if (ec)
    return ec;
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST)
    return {errno, std::generic_category()};
  if (!fs::is_directory(dir, ec) && !ec)
    ec = std::make_error_code(std::errc::not_a_directory);
  return ec;
}

std::vector<std::string> sanitizedEnv(const std::vector<std::string> &base) {
  std::vector<std::string> env;
  for (const auto &e : base)
    if (e.rfind("ALEA_", 0) != 0)
      env.push_back(e);
  return env;
}

// The base environment of builds and executions, recorded once per campaign
// (each execution records only what alea adds to it), secrets redacted.
// The metrics the benchmarks measure, each once, in the campaign file's
// order ("time": an iteration source's), comma-separated; "" when every
// benchmark measures one (the store's "metrics").
std::string measuredMetricNames(const CampaignConfig &cfg) {
  std::vector<std::string> names;
  bool several = false;
  for (const auto &b : cfg.benchmarks) {
    several = several || !b.measure.extraMetrics.empty();
    std::vector<std::string> own{std::string(b.measure.primaryName())};
    for (Metric m : b.measure.extraMetrics)
      own.emplace_back(enumName(m));
    for (auto &name : own)
      if (std::find(names.begin(), names.end(), name) == names.end())
        names.push_back(std::move(name));
  }
  return several ? joinWith(names, ",") : std::string();
}

// The simulated metric whose layout variance a build's function profile
// explains (function_profile.hpp): the decision's when it is simulated, else
// the first simulated one measured.
const char *profiledMetric(const MeasureSpec &measure) {
  if (auto decision = parseEnum<Metric>(measure.decisionName()); decision && isSimulated(*decision))
    return enumName(*decision);
  for (Metric m : measure.measuredMetrics())
    if (isSimulated(m))
      return enumName(m);
  return "";
}

std::string recordedEnvironment(const std::vector<std::string> &env, const Redactor &redactor) {
  std::string out;
  for (const auto &e : env)
    out += redactor.entry(e) + "\n";
  return out;
}

// The campaign's redactor (redact.hpp): its redact_env patterns, and the
// secrets of the environment, of its env tables and of its commands, which
// are then hidden wherever they turn up (a build that prints its $GH_PAT, a
// log that echoes a password).
Redactor campaignRedactor(const CampaignConfig &cfg, const std::vector<std::string> &env) {
  Redactor redactor(cfg.redactEnv);
  for (const auto &e : env)
    redactor.learnEntry(e);
  auto learnEnv = [&](const std::map<std::string, std::string> &table) {
    for (const auto &[k, v] : table)
      redactor.learnEntry(k + "=" + v);
  };
  auto learnCommand = [&](const CommandSpec &command) {
    redactor.learnText(command.shell);
    redactor.learnArgv(command.argv);
  };
  for (const auto &s : cfg.systems) {
    learnEnv(s.env);
    learnCommand(s.build);
  }
  for (const auto &b : cfg.benchmarks) {
    learnEnv(b.env);
    learnCommand(b.command);
  }
  for (const auto &t : cfg.targets)
    learnEnv(t.env);
  return redactor;
}

ExecutionStatus statusFor(const ExecutionResult &r) {
  if (r.spawnFailed)
    return ExecutionStatus::Spawn;
  if (r.output.timedOut)
    return ExecutionStatus::Timeout;
  if (r.output.signal)
    return ExecutionStatus::Signal;
  return ExecutionStatus::Exit;
}

// The compilers whose versions the machine record holds: clang-19 and any a
// system names in its environment.
std::vector<std::string> machineCompilers(const CampaignConfig &cfg) {
  std::vector<std::string> compilers{"clang-19"};
  std::set<std::string> seen(compilers.begin(), compilers.end());
  for (const auto &s : cfg.systems)
    for (const char *k : {"CC", "CXX", kRealCcVariable, kRealCxxVariable})
      if (auto it = s.env.find(k); it != s.env.end() && seen.insert(it->second).second)
        compilers.push_back(it->second);
  return compilers;
}

// The compilers a build asks for their versions (builder.cpp: CC and CXX of
// the build environment, the wrappers unless the system sets its own, each
// answered by the real compiler behind it).
std::vector<std::string> buildCompilers(const CampaignConfig &cfg, const CampaignOptions &opts) {
  std::vector<std::string> tools;
  for (const auto &s : cfg.systems) {
    std::vector<std::string> env; // the system's own settings, as the build sees them
    for (const auto &[k, v] : s.env)
      env.push_back(k + "=" + v);
    auto cc = s.env.find("CC"), cxx = s.env.find("CXX");
    tools.push_back(compilerBehind(
        cc != s.env.end() ? cc->second : (fs::path(opts.toolDir) / kCcWrapperName).string(), env));
    tools.push_back(compilerBehind(
        cxx != s.env.end() ? cxx->second : (fs::path(opts.toolDir) / kCxxWrapperName).string(),
        env));
  }
  return tools;
}

// A run's name (lock.hpp, ALEA_JOB): 64 random bits in hex.
std::string newRunToken() {
  std::random_device device;
  std::uint64_t bits = (static_cast<std::uint64_t>(device()) << 32) ^ device();
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(bits));
  return text;
}

// Why more builds would be futile for an adaptive campaign: a system none of
// whose builds succeeded, or a benchmark none of whose executions did on a
// system (a wrong build or run command fails in every build alike); "" when
// every system and benchmark has data. A layout that breaks some builds only
// leaves the others' data, and the campaign goes on.
std::string futility(const model::CampaignData &data) {
  std::set<std::string> built;
  for (const auto &b : data.builds)
    if (b.status == BuildStatus::Ok)
      built.insert(b.system);
  const auto buildsOf = [&](const std::string &system) {
    return std::count_if(data.builds.begin(), data.builds.end(),
                         [&](const auto &b) { return b.system == system; });
  };
  for (const auto &s : data.systems)
    if (!built.count(s))
      return "every build of " + s + " failed (" + std::to_string(buildsOf(s)) +
             "): more would fail alike";
  std::set<std::pair<std::string, std::string>> measured;
  for (const auto &m : data.measurements)
    measured.insert({m.system, m.benchmark});
  for (const auto &s : data.systems)
    for (const auto &b : data.benchmarks)
      if (!measured.count({s, b}))
        return "every execution of " + b + " on " + s + " failed: more would fail alike";
  return {};
}

// Where a job runs: the host, or a target with its own paths, environment
// and overrides (targets.hpp).
struct Place {
  std::string target; // "" = this host
  std::string sourceDir, campaignDir;
  std::map<std::int64_t, std::string> buildDirs; // build id -> its directory there
  const std::vector<std::string> *baseEnv = nullptr;
  std::map<std::string, std::string> env; // the target's overrides
  std::vector<int> cpus;
  bool disableAslr = false;
  std::int64_t machineId = 0;
};

// How many builds are made at once: build_jobs, or with "auto" one per CPU
// this process may run on (its affinity mask: taskset, cgroup cpusets).
std::size_t buildJobs(const CampaignConfig &cfg) {
  if (cfg.buildJobs > 0)
    return static_cast<std::size_t>(cfg.buildJobs);
  return std::max<std::size_t>(1, readMachineFacts().cpus.size());
}

struct Run {
  const CampaignConfig &cfg;
  const CampaignOptions &opts;
  Executor &executor;
  Progress &progress;
  CampaignLock &lock;
  Store store;
  CampaignOutcome outcome;
  // The warnings of the latest review of all builds (failed builds,
  // identical layouts, ODR violations), added to the outcome's at the end.
  std::vector<std::string> buildReview;
  LevelCounts levels;
  std::vector<std::int64_t> systemIds, benchmarkIds;
  std::map<std::int64_t, std::size_t> systemIndex, benchmarkIndex; // id -> config index
  std::map<std::pair<std::int64_t, int>, BuildRecord> builds;      // (system id, index)
  MachineState machine;
  std::int64_t machineId = 0;
  Design design = Design::Unpaired;       // as recorded (old stores: unpaired)
  std::vector<std::vector<int>> duetSets; // design = "duet": one CPU set per system

  std::vector<std::string> baseEnv;    // sanitizedEnv(opts.baseEnv), computed once
  Redactor redactor;                   // what the store records passes through it
  bool firstBuildFailureShown = false; // failureText: the output of one failed build
  // An "auto" campaign's pilot store (read only): its builds are this
  // campaign's first builds, same seeds, reused instead of rebuilt.
  std::optional<Store> pilot;

  // This run's name in the lock file and in its jobs' ALEA_JOB markers.
  std::string runToken;
  // The processes an interrupted run left running, ended when this one
  // started, by plan position: recorded as leftovers of that position's
  // execution when it runs again (meta "interrupted_leftovers" keeps them
  // until then, whatever stops this run).
  std::map<std::int64_t, std::string> interruptedLeftovers;

  Run(const CampaignConfig &c, const CampaignOptions &o, Executor &e, Progress &p, CampaignLock &l,
      Store s)
      : cfg(c), opts(o), executor(e), progress(p), lock(l), store(std::move(s)),
        baseEnv(sanitizedEnv(o.baseEnv)), redactor(campaignRedactor(c, baseEnv)) {
    store.redactWith(redactor);
  }

  // Checked before every record: a run whose lock file was removed or replaced
  // may no longer be the only writer, so it stops instead of writing on.
  Status stillOwner() const {
    if (lock.held())
      return {};
    return Error{"lost the lock of campaign directory '" + opts.dir + "' (" + lock.path() +
                 " was removed or replaced while this run held it); stopped without recording "
                 "more: run `alea run` again to resume"};
  }

  // ALEA_JOB=<run>-<kind><id> (executor.hpp) of a build ('b', id = system
  // index << 32 | build index) or an execution ('e', id = plan position):
  // the same length for every job, so that the marker does not move the
  // environment's size (that is env_padding's job).
  std::string jobMarker(char kind, std::uint64_t id) const {
    char text[20];
    std::snprintf(text, sizeof text, "%c%016llx", kind, static_cast<unsigned long long>(id));
    return runToken + "-" + text;
  }

  // The id of a jobMarker's <kind><id> ('b' or 'e' and 16 hex digits).
  static std::optional<std::uint64_t> jobId(std::string_view job) {
    std::uint64_t id = 0;
    if (job.size() != 17 || (job[0] != 'e' && job[0] != 'b'))
      return std::nullopt;
    auto [end, ec] = std::from_chars(job.data() + 1, job.data() + job.size(), id, 16);
    if (ec != std::errc() || end != job.data() + job.size())
      return std::nullopt;
    return id;
  }

  // Ends what an earlier run of this directory still has running (it was
  // killed: no chance to end its builds and executions itself), then names
  // this run in the lock file. Executions it interrupted run again: their
  // processes are recorded as that execution's leftovers; an interrupted
  // build is built again in a fresh directory. Processes of recorded builds
  // (compiler servers) and recorded executions (leftovers = "keep") are left
  // alone, as a run leaves them.
  Status endEarlierRuns() {
    std::set<std::int64_t> completed = store.completedPositions();
    std::map<std::uint64_t, bool> recordedBuilds;
    auto spare = [&](std::string_view job) {
      std::optional<std::uint64_t> parsed = jobId(job);
      if (!parsed)
        return false; // a job this alea does not know cannot be recorded
      std::uint64_t id = *parsed;
      if (job[0] == 'e')
        return completed.count(static_cast<std::int64_t>(id)) > 0;
      auto [it, fresh] = recordedBuilds.emplace(id, false);
      if (fresh) {
        std::size_t s = static_cast<std::size_t>(id >> 32);
        if (s < cfg.systems.size())
          if (auto sid = store.findSystemId(cfg.systems[s].name))
            it->second = store.findBuild(*sid, static_cast<int>(id & 0xffffffffu)).has_value();
      }
      return it->second;
    };
    std::map<std::int64_t, std::string> found; // position -> "pid 1 (x), ..."
    for (const std::string &earlier : lock.earlierRuns())
      for (const MarkedProcess &p : endMarkedProcesses(earlier, spare)) {
        std::string what = "pid " + std::to_string(p.pid) + " (" + p.name + ")";
        std::optional<std::uint64_t> id = jobId(p.job);
        if (id && p.job[0] == 'e') {
          std::string &list = found[static_cast<std::int64_t>(*id)];
          list += (list.empty() ? "" : ", ") + what;
          continue;
        }
        std::string job = "job " + p.job + " of an interrupted run";
        if (std::size_t s = id ? static_cast<std::size_t>(*id >> 32) : 0;
            id && s < cfg.systems.size())
          job = "build " + cfg.systems[s].name + " #" + std::to_string(*id & 0xffffffffu) +
                " of an interrupted run (the build runs again)";
        progress.message("ended " + what + ", left running by " + job);
      }
    // The list kept from before, less the executions recorded since.
    std::map<std::int64_t, std::string> kept;
    std::string text = store.meta("interrupted_leftovers").value_or("");
    for (std::size_t at = 0; at < text.size();) {
      std::size_t end = text.find('\n', at);
      if (end == std::string::npos)
        end = text.size();
      std::string line = text.substr(at, end - at);
      if (auto tab = line.find('\t'); tab != std::string::npos) {
        std::int64_t position = std::atoll(line.c_str());
        if (!completed.count(position))
          kept[position] = line.substr(tab + 1);
      }
      at = end + 1;
    }
    for (const auto &[position, list] : found) {
      std::string entry = "killed " + list +
                          " when the campaign resumed: the execution was interrupted (alea was "
                          "killed) and they ran on";
      progress.message("ended processes an interrupted execution left running (plan position " +
                       std::to_string(position) + "): " + list);
      std::string &k = kept[position];
      k = k.empty() ? entry : k + "; " + entry;
    }
    std::string updated;
    for (const auto &[position, entry] : kept)
      updated += std::to_string(position) + "\t" + entry + "\n";
    if (updated != text)
      if (Status s = store.setMeta("interrupted_leftovers", updated); !s)
        return s;
    interruptedLeftovers = std::move(kept);
    return lock.recordRun(runToken);
  }

  Status checkMeta() {
    if (auto from = store.meta("imported_from"))
      return Error{"the store in '" + opts.dir + "' was imported from " + *from +
                   "; it cannot be run as a campaign"};
    std::string digest = sha256Hex(cfg.text);
    if (auto old = store.meta("config_sha256")) {
      if (*old != digest)
        return Error{"the campaign directory '" + opts.dir +
                     "' holds a campaign made from a different campaign file (sha256 " +
                     old->substr(0, 12) + "..., now " + digest.substr(0, 12) +
                     "...); use another --dir, or restore the original file to resume"};
      return {};
    }
    Transaction txn(store);
    for (auto [k, v] : std::initializer_list<std::pair<const char *, std::string>>{
             {"config_sha256", digest},
             {"config_text", recordedCampaignText(cfg, redactor)},
             {"config_path", cfg.path},
             {"campaign_name", redactor.text(cfg.name)},
             {"campaign_seed", formatSeed(cfg.seed)},
             {"confidence", std::to_string(cfg.confidence)},
             {"threshold", std::to_string(cfg.threshold)},
             {"factors", describeFactors(cfg.factors)},
             {"baseline", cfg.baseline() ? cfg.baseline()->name : ""},
             {"design", enumName(cfg.design)},
             {"target_half_width", std::to_string(cfg.targetHalfWidth)},
             {"levels.builds", std::to_string(levels.builds)},
             {"levels.executions", std::to_string(levels.executions)},
             {"levels.iterations", std::to_string(levels.iterations)},
             {"levels.warmup", std::to_string(levels.warmup)},
             {"metrics", measuredMetricNames(cfg)},
             {"environment", recordedEnvironment(baseEnv, redactor)}})
      if (Status s = store.setMeta(k, v); !s)
        return s;
    return txn.commit();
  }

  Status recordMachine(bool resumed) {
    machine = readMachineState(machineCompilers(cfg));
    // Resuming on another machine, or after the governor, ASLR, kernel or
    // compilers changed, splits the campaign's data in two populations: the
    // resume row says so as a change, and the report warns.
    std::string reason = resumed ? "resume" : "start";
    if (resumed)
      if (std::optional<MachineState> before = store.lastMachine()) {
        std::string what;
        for (const auto &c : machineChanges(*before, store.recorded(machine)))
          if (c != "load") // the load at a resume says nothing about the run before
            what += (what.empty() ? "" : ",") + c;
        if (!what.empty())
          reason = "change on resume: " + what;
      }
    auto id = store.addMachine(machine, reason);
    if (!id)
      return Error{id.error()};
    machineId = *id;
    if (machine.aslr == 0 && !cfg.disableAslr)
      outcome.warnings.push_back("ASLR is off on this machine (randomize_va_space = 0)");
    return {};
  }

  void recheckMachine() {
    MachineState now = recheckMachineState(machine);
    std::vector<std::string> changes = machineChanges(machine, now);
    if (changes.empty())
      return;
    std::string what;
    for (const auto &c : changes)
      what += (what.empty() ? "" : ",") + c;
    if (auto id = store.addMachine(now, "change: " + what)) {
      machineId = *id;
      progress.message("machine state changed: " + what);
    }
    machine = now;
  }

  Status ensureEntities() {
    for (std::size_t i = 0; i < cfg.systems.size(); ++i) {
      auto id =
          store.ensureSystem(cfg.systems[i].name, cfg.systems[i].baseline, static_cast<int>(i));
      if (!id)
        return Error{id.error()};
      systemIds.push_back(*id);
      systemIndex[*id] = i;
    }
    for (std::size_t i = 0; i < cfg.benchmarks.size(); ++i) {
      const MeasureSpec &measure = cfg.benchmarks[i].measure;
      auto id = store.ensureBenchmark(cfg.benchmarks[i].name, static_cast<int>(i),
                                      measure.decisionUnit(), measure.decisionName());
      if (!id)
        return Error{id.error()};
      benchmarkIds.push_back(*id);
      benchmarkIndex[*id] = i;
    }
    return {};
  }

  // One build to make now: its request, and how messages name it.
  struct PendingBuild {
    std::size_t system = 0;
    int index = 0;
    BuildRequest req;
    std::string which; // "sys #b (seed 0x...)"
  };

  // The request of build b of system s (its seed does not depend on when or
  // where it is built).
  PendingBuild pendingBuild(std::size_t s, int b) const {
    const SystemConfig &sys = cfg.systems[s];
    PendingBuild p;
    p.system = s;
    p.index = b;
    BuildRequest &req = p.req;
    req.system = &sys;
    req.buildIndex = b;
    req.seed = campaignBuildSeed(cfg.seed, pairedDesign(cfg.design), sys.name, b);
    req.factors = sys.factors ? *sys.factors : cfg.factors;
    req.campaignDir = opts.dir;
    req.sourceDir = cfg.sourceDir;
    req.toolDir = opts.toolDir;
    if (cfg.buildCache)
      req.buildCache = (fs::absolute(opts.dir) / "build-cache").string();
    req.timeoutSeconds = cfg.buildTimeoutSeconds;
    req.baseEnv = baseEnv;
    req.cancel = opts.cancel;
    req.jobMarker =
        jobMarker('b', static_cast<std::uint64_t>(s) << 32 | static_cast<std::uint64_t>(b));
    p.which = sys.name + " #" + std::to_string(b) + " (seed " + formatSeed(req.seed) + ")";
    return p;
  }

  // The pilot's build of the same system, index and seed, copied instead of
  // built again (none: build it).
  std::optional<BuildRecord> reusedFromPilot(const PendingBuild &p) {
    if (!pilot)
      return std::nullopt;
    auto id = pilot->findSystemId(cfg.systems[p.system].name);
    if (!id)
      return std::nullopt;
    auto made = pilot->findBuild(*id, p.index);
    if (!made)
      return std::nullopt;
    auto r = reuseBuild(*made, p.req);
    if (!r) {
      progress.message("build " + p.which + ": the pilot's build is not reused (" + r.error() +
                       ")");
      return std::nullopt;
    }
    progress.message("build " + p.which + ": reused the pilot's build, not rebuilt");
    return std::move(*r);
  }

  // What the campaign says of a failed build: the last line of its log (the
  // reason: its status, signal or timeout), and for the run's first failure
  // also the lines of the build's output before it, which usually name the
  // cause (a missing library, a compile error). Secrets redacted.
  std::string failureText(const std::string &logTail) {
    const LogEnd end = logEnd(logTail, 8);
    std::string text(end.reason);
    if (!firstBuildFailureShown && !end.before.empty()) {
      firstBuildFailureShown = true;
      // The build's own bytes: control characters escaped for the terminal.
      for (std::string_view line : end.before)
        text += "\n    " + report::plainText(line);
    }
    return redactor.text(text);
  }

  // Records a build made now; `stop` is set when the campaign must stop
  // (cancelled, a fault, or the store lost).
  Status recordMadeBuild(const PendingBuild &p, BuildRecord built, bool &stop) {
    if (built.status == BuildStatus::Cancelled) {
      stop = true;
      return {}; // not recorded: resumed, the directory is moved aside
    }
    const SystemConfig &sys = cfg.systems[p.system];
    if (built.status == BuildStatus::Fault) {
      stop = true;
      return Error{"build " + sys.name + " #" + std::to_string(p.index) + ": " + built.logTail +
                   "; the build is not recorded, `alea run` again retries it"};
    }
    if (Status owner = stillOwner(); !owner) {
      stop = true;
      return owner;
    }
    built.systemId = systemIds[p.system];
    auto id = store.recordBuild(built);
    if (!id) {
      stop = true;
      return Error{id.error()};
    }
    if (built.status != BuildStatus::Ok)
      progress.message("build " + sys.name + " #" + std::to_string(p.index) +
                       " FAILED: " + failureText(built.logTail));
    else if (std::size_t at = built.logTail.rfind(kBuildCacheSummary); at != std::string::npos)
      progress.message("built " + sys.name + " #" + std::to_string(p.index) + ": " +
                       built.logTail.substr(at));
    return {};
  }

  // Makes the builds that do not exist yet, up to cfg.buildJobs at a time
  // (docs/campaign.md, "Parallel builds"): each in its own directory under
  // its own seed, so that what a build makes does not depend on the
  // schedule. This thread starts them, records each as it ends (the store
  // has one writer) and says what happens; a failed build does not stop the
  // others; a cancel or a fault lets the running ones end (a cancelled
  // build ends at once) and starts no more. No execution runs meanwhile:
  // the executions start after this returns.
  Status makeBuilds(std::vector<PendingBuild> pending, std::int64_t done, std::int64_t total) {
    if (cfg.buildOnTargets)
      return makeBuildsOnTargets(std::move(pending), done, total);
    struct Slot {
      std::thread thread;
      std::optional<BuildRecord> result;
    };
    std::mutex mutex;
    std::condition_variable ended;
    std::map<std::size_t, Slot> running; // by position in `pending`
    Status status;
    bool stop = false;
    std::size_t next = 0;
    const std::size_t jobs = executor.concurrentRuns() ? buildJobs(cfg) : 1;
    std::unique_lock lock(mutex);
    while (next < pending.size() || !running.empty()) {
      while (!stop && next < pending.size() && running.size() < jobs &&
             !(opts.cancel && opts.cancel->load())) {
        const std::size_t i = next++;
        progress.builds(done, total);
        progress.message("building " + pending[i].which);
        running[i].thread = std::thread([this, &pending, &running, &mutex, &ended, i] {
          BuildRecord built = runBuild(executor, pending[i].req);
          std::lock_guard guard(mutex);
          running[i].result = std::move(built);
          ended.notify_all();
        });
      }
      if (running.empty())
        break; // cancelled or stopped before the next one
      for (auto it : finishedSlots(lock, ended, running)) {
        BuildRecord built = std::move(*it->second.result);
        lock.unlock();
        it->second.thread.join();
        recordInLoop(pending[it->first], std::move(built), status, stop, done);
        lock.lock();
        running.erase(it);
      }
    }
    return status;
  }

  // The slots of a build loop (makeBuilds, makeBuildsOnTargets) that have
  // their result, once one has: waited for with the lock held.
  template <class Slots>
  static std::vector<typename Slots::iterator> finishedSlots(std::unique_lock<std::mutex> &lock,
                                                             std::condition_variable &ended,
                                                             Slots &running) {
    auto finished = [](const auto &slot) { return slot.second.result.has_value(); };
    ended.wait(lock, [&] { return std::any_of(running.begin(), running.end(), finished); });
    std::vector<typename Slots::iterator> out;
    for (auto it = running.begin(); it != running.end(); ++it)
      if (finished(*it))
        out.push_back(it);
    return out;
  }

  // Records a build a loop made (on the main thread: the store has one
  // writer); the first error becomes the loop's status, and a stop request
  // (a build fault) ends the loop.
  void recordInLoop(const PendingBuild &p, BuildRecord built, Status &status, bool &stop,
                    std::int64_t &done) {
    bool stopNow = false;
    Status s = recordMadeBuild(p, std::move(built), stopNow);
    if (!s && status)
      status = s;
    stop = stop || stopNow;
    ++done;
  }

  // ---- builds on [[target]]s (build_on = "targets", docs/targets.md) ------

  // Build p on target t, connecting it first. Over SSH the source directory
  // is staged (once per connection) and the build runs in the target's
  // workdir, its artifacts fetched back; on Slurm it runs at the host's
  // paths. Either way with the target's environment and tool directory.
  // `reached` says whether the build started there (a target that cannot be
  // connected or staged to is no loss of the build's).
  BuildRecord buildOnTarget(Target &t, const PendingBuild &p, bool &reached) {
    reached = false;
    auto lost = [&](const std::string &why) {
      t.disconnect();
      BuildRecord rec;
      rec.system = cfg.systems[p.system].name;
      rec.buildIndex = p.index;
      rec.seed = p.req.seed;
      rec.factors = joinFactors(p.req.factors);
      rec.dir = buildDirectory(opts.dir, rec.system, p.index);
      rec.status = interrupted() ? BuildStatus::Cancelled : BuildStatus::Lost;
      rec.logTail = why;
      return rec;
    };
    if (!t.connected())
      if (Status s = t.connect(opts.cancel); !s)
        return lost(s.error());
    BuildRequest req = p.req;
    req.baseEnv = sanitizedEnv(t.environment());
    for (const auto &[k, v] : t.config().env)
      setEnv(req.baseEnv, k, v);
    req.toolDir = t.toolDir();
    RemoteBuild remote;
    if (!t.sharesFiles()) {
      auto src = t.sourceDir();
      if (!src)
        return lost("target '" + t.name() + "': staging the source directory: " + src.error());
      TargetSession &session = t.session();
      remote.campaignDir = t.campaignDir();
      remote.sourceDir = *src;
      remote.toolDir = req.toolDir;
      remote.baseEnv = req.baseEnv;
      remote.freshDir = [&session](const std::string &dir) { return session.freshDir(dir); };
      remote.fetch = [&session](const std::string &path) { return session.fetch(path); };
      remote.alive = [&session] { return session.alive(); };
      req.remote = &remote;
    }
    reached = true;
    BuildRecord built = runBuild(t.executor(), req);
    if (built.status == BuildStatus::Lost)
      t.disconnect();
    return built;
  }

  // The builds on the targets, one at a time on each, every target busy at
  // once; this thread records each build as it ends. A build whose target
  // was lost is built again (on the next free target, or the same one
  // reconnected), recorded once; lost kUnitLosses times it is recorded as
  // failed. A target that fails kTargetFailuresInARow times in a row is
  // taken out. The targets are disconnected at the end: the executions
  // connect again (their machine state recorded then).
  Status makeBuildsOnTargets(std::vector<PendingBuild> pending, std::int64_t done,
                             std::int64_t total) {
    struct Slot {
      std::thread thread;
      std::size_t build = 0;
      std::optional<BuildRecord> result;
      bool reached = false;
    };
    std::mutex mutex;
    std::condition_variable ended;
    std::map<std::size_t, Slot> running; // by target
    std::deque<std::size_t> queue;       // positions in `pending`, in order
    for (std::size_t i = 0; i < pending.size(); ++i)
      queue.push_back(i);
    std::vector<int> failures(targets.size(), 0);
    std::map<std::size_t, int> losses; // by position in `pending`
    Status status;
    bool stop = false;
    std::unique_lock lock(mutex);
    for (;;) {
      for (std::size_t k = 0; k < targets.size(); ++k) {
        if (stop || queue.empty() || running.count(k) || failures[k] >= kTargetFailuresInARow ||
            interrupted())
          continue;
        const std::size_t i = queue.front();
        queue.pop_front();
        progress.builds(done, total);
        progress.message("building " + pending[i].which + " on target " + targets[k]->name());
        Slot &slot = running[k];
        slot.build = i;
        slot.thread = std::thread([this, &pending, &running, &mutex, &ended, &failures, i, k] {
          pauseAfterFailures(failures[k]);
          bool reached = false;
          BuildRecord built = buildOnTarget(*targets[k], pending[i], reached);
          std::lock_guard guard(mutex);
          running[k].result = std::move(built);
          running[k].reached = reached;
          ended.notify_all();
        });
      }
      if (running.empty())
        break; // done, stopped, or no target left
      for (auto it : finishedSlots(lock, ended, running)) {
        const std::size_t k = it->first, i = it->second.build;
        BuildRecord built = std::move(*it->second.result);
        bool reached = it->second.reached;
        lock.unlock();
        it->second.thread.join();
        Target &t = *targets[k];
        bool record = built.status != BuildStatus::Lost;
        if (!record) {
          ++failures[k];
          std::string where = "target " + t.name() + ": " + built.logTail;
          if (reached && ++losses[i] >= kUnitLosses) {
            built.status = BuildStatus::Failed;
            built.logTail = "lost " + std::to_string(losses[i]) +
                            " times while building on targets (last " + where + ")";
            record = true;
          } else {
            progress.message("build " + pending[i].which + ": " + where +
                             "; it will be built again");
          }
          if (failures[k] == kTargetFailuresInARow) {
            outcome.warnings.push_back("target " + t.name() + " was taken out after " +
                                       std::to_string(failures[k]) +
                                       " failures in a row (last: " + built.logTail + ")");
            progress.message(outcome.warnings.back());
          }
        } else {
          failures[k] = 0;
        }
        if (record)
          recordInLoop(pending[i], std::move(built), status, stop, done);
        lock.lock();
        if (!record) {
          queue.push_back(i);
          std::sort(queue.begin(), queue.end());
        }
        running.erase(it);
      }
    }
    lock.unlock();
    for (auto &t : targets)
      t->disconnect();
    if (!queue.empty() && status && !interrupted() && !stop)
      status = Error{"every target was taken out while building (see the warnings); `alea run` "
                     "again resumes"};
    return status;
  }

  Status doBuilds() {
    const std::int64_t total = static_cast<std::int64_t>(cfg.systems.size()) * levels.builds;
    // Decide: the builds that do not exist yet (reusing the pilot's where it can).
    std::vector<PendingBuild> pending;
    std::int64_t done = 0; // builds that exist, made by an earlier run or reused
    for (std::size_t s = 0; s < cfg.systems.size(); ++s)
      for (int b = 0; b < levels.builds; ++b) {
        if (opts.cancel && opts.cancel->load())
          return {};
        if (store.findBuild(systemIds[s], b)) {
          ++done;
          continue;
        }
        PendingBuild p = pendingBuild(s, b);
        if (auto reused = reusedFromPilot(p)) {
          bool stop = false;
          if (Status st = recordMadeBuild(p, std::move(*reused), stop); !st || stop)
            return st;
          ++done;
          continue;
        }
        pending.push_back(std::move(p));
      }
    // With the build cache, build i of every system before build i + 1 of
    // any: parallel builds then fill the cache with each system's units once
    // (its first build) and the next builds reuse them, instead of two builds
    // of one system compiling the same units side by side.
    if (cfg.buildCache)
      std::stable_sort(
          pending.begin(), pending.end(),
          [](const PendingBuild &a, const PendingBuild &b) { return a.index < b.index; });
    // Act: make them, then read every build back in order for the warnings.
    if (Status st = makeBuilds(std::move(pending), done, total); !st)
      return st;
    if (opts.cancel && opts.cancel->load())
      return {};
    // Every batch reviews all the builds so far: the review replaces the
    // last one's warnings (one per group of builds, not one per batch).
    buildReview.clear();
    for (std::size_t s = 0; s < cfg.systems.size(); ++s) {
      const SystemConfig &sys = cfg.systems[s];
      // Randomized builds by layout fingerprint (the first one's binary for
      // the warning's facts), and ODR findings -> builds carrying them.
      std::map<std::string, std::pair<std::vector<int>, std::string>> fingerprints;
      std::map<std::string, std::vector<int>> odr;
      for (int b = 0; b < levels.builds; ++b) {
        std::optional<BuildRecord> rec = store.findBuild(systemIds[s], b);
        if (!rec)
          return {}; // cancelled: not recorded, resumed later
        if (rec->status == BuildStatus::Failed)
          buildReview.push_back("build " + sys.name + " #" + std::to_string(b) +
                                " failed; its executions are recorded as failures");
        if (!rec->fingerprint.empty() && rec->factors != "none") {
          auto &[which, binary] = fingerprints[rec->fingerprint];
          which.push_back(b);
          if (binary.empty())
            binary = rec->binaryHash;
        }
        if (rec->status == BuildStatus::Ok && !rec->binaryHash.empty())
          if (std::string found = odrFindings(objectPath(opts.dir, rec->binaryHash));
              !found.empty())
            odr[found].push_back(b);
        builds[{systemIds[s], b}] = *rec;
      }
      for (const auto &[fingerprint, group] : fingerprints)
        if (group.first.size() > 1)
          buildReview.push_back(identicalLayoutsWarning(
              sys.name, group.first, static_cast<std::size_t>(levels.builds),
              layoutFactsOf(objectPath(opts.dir, group.second))));
      for (const auto &[found, which] : odr)
        buildReview.push_back(odrWarning(sys.name, which, found));
    }
    progress.builds(total, total);
    return {};
  }

  Expected<std::vector<PlanEntry>> plan() {
    if (!store.hasPlan()) {
      ScheduleShape shape{systemIds, benchmarkIds, levels.builds, levels.executions, design};
      std::vector<PlanEntry> p = makeSchedule(shape, cfg.seed);
      if (Status s = store.savePlan(p); !s)
        return Error{s.error()};
      return p;
    }
    return store.loadPlan();
  }

  // Adaptive campaigns: the number of builds (per system) to add now, 0 to
  // stop. Decided on the precision of the ratios (their CIs' relative
  // half-widths) and the time spent, never on the estimates or decisions.
  Expected<int> nextBatch() {
    const AdaptiveStop &a = cfg.adaptive;
    auto data = loadCampaignData(store);
    if (!data)
      return Error{data.error()};
    model::CampaignReportOptions ro;
    ro.bootstrapReplicates = 1000;
    ro.targetHalfWidth = a.halfWidth > 0 ? a.halfWidth : 0.01;
    ro.planKeepsLowerCounts = true;
    double spent = store.machineSeconds();
    // The top-level units that grow: builds, or the executions of a campaign
    // of one build per system.
    const bool executions = growsExecutions();
    const int units = executions ? levels.executions : levels.builds;
    const auto log = [&](const std::string &explanation) -> Status {
      const std::string line = "adaptive: " + std::to_string(units) + " " +
                               (executions ? "executions" : "builds") + ", " +
                               std::to_string(static_cast<long long>(spent)) +
                               " s of machine time: " + explanation;
      progress.message(line);
      return store.setMeta("adaptive_log", store.meta("adaptive_log").value_or("") + line + "\n");
    };
    if (std::string why = futility(*data); !why.empty()) {
      if (Status s = log("stop, " + why); !s)
        return Error{s.error()};
      return 0;
    }
    model::CampaignReport report = model::buildCampaignReport(*data, ro);
    analysis::StoppingInput in;
    in.targetHalfWidth = a.halfWidth; // 0: only the budget stops
    in.builds = static_cast<std::size_t>(units);
    in.units = executions ? "executions" : "builds";
    in.maxBuilds = static_cast<std::size_t>(a.maxBuilds);
    if (a.timeBudgetSeconds > 0) {
      double perUnit = spent / units; // every system and benchmark
      in.remainingBudgetBuilds = static_cast<std::size_t>(
          std::max(0.0, std::floor((a.timeBudgetSeconds - spent) / std::max(perUnit, 1e-9))));
    }
    std::vector<analysis::StoppingDecision> decisions;
    double widest = 0; // the widest relative half-width, for the progress bar
    if (report.analysis)
      for (const auto &b : report.analysis->benchmarks) {
        for (const auto &r : b.ratios) {
          analysis::StoppingInput one = in;
          one.halfWidth = r.fieller ? analysis::relativeHalfWidth(*r.fieller, r.estimate)
                                    : std::numeric_limits<double>::infinity();
          if (r.ratioPlan.ok && r.ratioPlan.reachable)
            one.plannedBuilds = r.ratioPlan.counts.front();
          widest = std::max(widest, one.halfWidth);
          decisions.push_back(analysis::stoppingRule(one));
        }
        if (b.ratios.empty()) // one system: the precision of its mean
          for (const auto &sys : b.systems) {
            analysis::StoppingInput one = in;
            one.halfWidth = analysis::relativeHalfWidth(sys.ci.interval, sys.mean);
            widest = std::max(widest, one.halfWidth);
            decisions.push_back(analysis::stoppingRule(one));
          }
      }
    if (decisions.empty()) {
      in.halfWidth = widest = std::numeric_limits<double>::infinity();
      decisions.push_back(analysis::stoppingRule(in));
    }
    progress.precision(widest, a.halfWidth);
    analysis::StoppingDecision step = analysis::combineStopping(decisions);
    if (Status s = log(step.explanation); !s)
      return Error{s.error()};
    if (step.stop)
      return 0;
    int more = static_cast<int>(step.addBuilds);
    // Machine as a level: every machine gets the same number of new builds.
    if (!executions && cfg.machines == Machines::Level && !cfg.targets.empty()) {
      int m = static_cast<int>(cfg.targets.size());
      more = (more + m - 1) / m * m;
    }
    return more;
  }

  // A campaign of one build per system draws no layouts: its executions are
  // the top level of its analysis (campaign_report.cpp), and an adaptive
  // batch adds executions to its builds, not builds (`alea compare --cmd`).
  bool growsExecutions() const { return levels.builds == 1; }

  // Plans `more` builds of every system after the current ones (or `more`
  // executions of every build, growsExecutions), and records the new count
  // with them (one transaction: a kill leaves both or neither).
  Status extendPlan(std::vector<PlanEntry> &plan, int more) {
    const bool executions = growsExecutions();
    ScheduleShape shape{systemIds,
                        benchmarkIds,
                        executions ? levels.builds : levels.builds + more,
                        executions ? levels.executions + more : levels.executions,
                        design,
                        executions ? 0 : levels.builds};
    if (executions)
      shape.firstExecution = levels.executions;
    std::int64_t position = plan.empty() ? 0 : plan.back().position + 1, block = 0;
    for (const auto &p : plan)
      block = std::max(block, p.block + 1);
    std::vector<PlanEntry> added = makeSchedule(shape, cfg.seed, position, block);
    (executions ? levels.executions : levels.builds) += more;
    const std::pair<std::string, std::string> count =
        executions ? std::pair{std::string("levels.executions"), std::to_string(levels.executions)}
                   : std::pair{std::string("levels.builds"), std::to_string(levels.builds)};
    if (Status s = store.savePlan(added, {count}); !s)
      return s;
    plan.insert(plan.end(), added.begin(), added.end());
    return {};
  }

  // One execution on its way: prepared (the request), run, then recorded.
  struct Job {
    PlanEntry entry;
    const SystemConfig *sys = nullptr;
    const BenchmarkConfig *bench = nullptr;
    ExecutionRecord rec;
    std::vector<MeasurementRecord> values;
    ExecutionRequest req;
    std::unique_ptr<IterationStream> stream; // the request's sink
    bool runnable = false;                   // false: recorded as a failure without running
    FunctionProfile profile;                 // simulated and ok: its counts per function
  };

  // The request of one execution, or its failure when it cannot run (its
  // build failed, a placeholder did not substitute).
  Job prepare(const PlanEntry &entry, const Place &place) {
    Job job;
    job.entry = entry;
    const SystemConfig &sys = *(job.sys = &cfg.systems[systemIndex.at(entry.systemId)]);
    const BenchmarkConfig &bench =
        *(job.bench = &cfg.benchmarks[benchmarkIndex.at(entry.benchmarkId)]);
    const BuildRecord &build = builds.at({entry.systemId, entry.buildIndex});
    ExecutionRecord &rec = job.rec;
    rec.planPosition = entry.position;
    rec.buildId = build.id;
    rec.benchmarkId = entry.benchmarkId;
    rec.executionIndex = entry.executionIndex;
    rec.machineId = place.machineId;
    rec.target = place.target;
    if (build.status != BuildStatus::Ok) {
      rec.status = ExecutionStatus::Build;
      rec.error = "build " + sys.name + " #" + std::to_string(entry.buildIndex) + " failed";
      return job;
    }
    // Where the build is where it runs (on a target: staged there).
    auto staged = place.buildDirs.find(build.id);
    const std::string &buildDir = staged != place.buildDirs.end() ? staged->second : build.dir;
    // The placeholders' values, built only when a text has a placeholder
    // (most commands have none: nothing to build per execution).
    std::optional<std::map<std::string, std::string>> vars;
    auto placeholders = [&]() -> const std::map<std::string, std::string> & {
      if (!vars) {
        const PlaceholderList values = placeholderValues(BenchmarkPlaceholders{
            place.sourceDir, buildDir, place.campaignDir, sys.name, bench.name, entry.buildIndex,
            entry.executionIndex, levels.warmup + levels.iterations});
        vars.emplace(values.begin(), values.end());
        for (const auto &a : build.artifacts)
          (*vars)["artifact:" + a.path] =
              place.target.empty() ? objectPath(opts.dir, a.objectHash) : buildDir + "/" + a.path;
      }
      return *vars;
    };
    ExecutionRequest &req = job.req;
    std::string error;
    auto sub = [&](const std::string &text, SubstituteFor target = SubstituteFor::Literal) {
      if (text.find('{') == std::string::npos)
        return text; // substitute() would return it unchanged
      auto r = substitute(text, placeholders(), target);
      if (!r) {
        error = r.error();
        return std::string();
      }
      return *r;
    };
    if (bench.command.isShell()) {
      req.argv = {"/bin/sh", "-c", sub(bench.command.shell, SubstituteFor::ShellText)};
    } else {
      for (const auto &a : bench.command.argv)
        req.argv.push_back(sub(a));
    }
    req.workdir = bench.workdir.empty() ? buildDir : sub(bench.workdir);
    if (!req.workdir.empty() && fs::path(req.workdir).is_relative())
      req.workdir = (fs::path(place.sourceDir) / req.workdir).string();
    if (!bench.stdinFile.empty()) {
      req.stdinPath = sub(bench.stdinFile);
      if (fs::path(req.stdinPath).is_relative())
        req.stdinPath = (fs::path(place.sourceDir) / req.stdinPath).string();
    }
    req.env = *place.baseEnv;
    for (const auto &[k, v] : place.env)
      setEnv(req.env, k, v);
    setEnv(req.env, "ALEA_ITERATIONS", std::to_string(levels.warmup + levels.iterations));
    setEnv(req.env, "ALEA_BUILD_DIR", buildDir);
    // What the iteration source needs from the program (gbench: JSON output,
    // repetitions); the benchmark's own env may still override it.
    for (const auto &[k, v] : sourceEnvironment(bench.measure, levels.warmup + levels.iterations))
      setEnv(req.env, k, v);
    for (const auto &[k, v] : bench.env)
      setEnv(req.env, k, sub(v));
    if (place.target.empty()) // a target's helper runs it: no process here
      setEnv(req.env, kJobVariable, jobMarker('e', static_cast<std::uint64_t>(entry.position)));
    // The system's factor list decides, as for its builds.
    const bool heapOn = heapOffsetOn(sys.factors ? *sys.factors : cfg.factors);
    configureRequest(job, place, build, heapOn);
    recordRequest(job, place, heapOn);
    if (!error.empty()) {
      rec.status = ExecutionStatus::Spawn;
      rec.error = error;
      return job;
    }
    job.runnable = true;
    return job;
  }

  // The request's limits, placement, layout offsets and output channels.
  void configureRequest(Job &job, const Place &place, const BuildRecord &build, bool heapOn) {
    const BenchmarkConfig &bench = *job.bench;
    const PlanEntry &entry = job.entry;
    ExecutionRequest &req = job.req;
    req.timeoutSeconds = bench.timeoutSeconds > 0 ? bench.timeoutSeconds : cfg.timeoutSeconds;
    req.cpus = place.cpus;
    req.disableAslr = place.disableAslr;
    req.envPadBytes =
        envPaddingSize(build.seed, entry.executionIndex, cfg.envPadMin, cfg.envPadMax);
    req.heapOffset = heapOn ? heapOffsetBytes(build.seed, entry.executionIndex) : -1;
    req.recordsPipe = bench.measure.source == IterationSource::Records;
    req.expectedExit = bench.expectedExit;
    // Counters and a simulated cache: the executor attaches those the
    // metrics need (executor.hpp); a simulated metric beside others is a
    // second run of the execution, under cachegrind.
    req.counters = bench.measure.counters();
    if (bench.measure.simulates()) {
      req.simulate = bench.measure.simCache;
      req.nativeToo = bench.measure.needsNativeRun();
    }
    // Only the regex (on stdout) and Google Benchmark sources read stdout; for
    // the others it goes to /dev/null, as with hyperfine -N.
    req.captureStdout = bench.measure.source == IterationSource::GoogleBenchmarkJson ||
                        (bench.measure.source == IterationSource::Regex &&
                         bench.measure.stream == OutputStream::Stdout);
    req.cancel = opts.cancel;
    // Iterations are extracted while the output streams in: the executor
    // keeps only the tails it needs for the record.
    job.stream = std::make_unique<IterationStream>(bench.measure);
    req.sink = job.stream.get();
    req.stdoutLimit = 0;
    req.watchLeftovers = true;
    req.killLeftovers = cfg.killLeftovers;
  }

  // What the store records of the request: its padding, the environment it
  // set (redacted), heap offset, ASLR and CPUs.
  void recordRequest(Job &job, const Place &place, bool heapOn) {
    const BenchmarkConfig &bench = *job.bench;
    const ExecutionRequest &req = job.req;
    ExecutionRecord &rec = job.rec;
    rec.envPadding = req.envPadBytes;
    for (const auto &e : req.env)
      if (e.rfind("ALEA_", 0) == 0 || e.rfind("BENCHMARK_", 0) == 0 ||
          (!bench.env.empty() && bench.env.count(e.substr(0, e.find('=')))))
        rec.environment.append(redactor.entry(e)).push_back('\n');
    rec.environment += "ALEA_ENV_PAD=<" + std::to_string(req.envPadBytes) + " bytes>\n";
    if (heapOn) {
      rec.heapOffset = req.heapOffset;
      rec.environment += std::string(ALEA_HEAP_OFFSET_VARIABLE) + "=<" +
                         std::to_string(req.heapOffset) + " bytes>\n";
    } else {
      rec.heapStatus = ALEA_HEAP_OFF;
    }
    rec.environment += std::string("aslr=") + (place.disableAslr ? "off" : "system") + "\n";
    // The simulated machine is part of what was measured.
    if (req.simulate)
      rec.environment += "cachegrind=--I1=" + req.simulate->i1 + " --D1=" + req.simulate->d1 +
                         " --LL=" + req.simulate->ll + "\n";
    rec.cpus = cpuList(req.cpus);
  }

  // The record of a job that ran, from what the executor saw.
  void finish(Job &job, const ExecutionResult &r) {
    ExecutionRecord &rec = job.rec;
    const BenchmarkConfig &bench = *job.bench;
    const SystemConfig &sys = *job.sys;
    std::vector<MeasurementRecord> &values = job.values;
    const ExecutionOutput &out = r.output;
    static_cast<ProcessEnd &>(rec) = out; // how it ended and what it used
    rec.stderrTail = out.stderrTail;
    if (rec.heapOffset)
      rec.heapStatus = r.heapStatus;
    if (!r.leftovers.empty()) {
      std::string list;
      for (const auto &p : r.leftovers)
        list += (list.empty() ? "" : ", ") + p;
      rec.leftovers = (r.leftoversKilled ? "killed " : "left running ") + list;
      progress.message(bench.name + " on " + sys.name +
                       " left processes running after it ended: " + rec.leftovers);
    }
    if (r.spawnFailed) {
      rec.status = ExecutionStatus::Spawn;
      rec.error = r.spawnError;
    } else {
      Extraction ex = measureExecution(*job.stream, out, bench.expectedExit);
      if (!ex.ok()) {
        rec.status = describeFailure(out, bench.expectedExit).empty() ? ExecutionStatus::Iterations
                                                                      : statusFor(r);
        rec.error = ex.error;
      } else if (static_cast<int>(ex.values.size()) <= levels.warmup) {
        rec.status = ExecutionStatus::Iterations;
        rec.error = "only " + std::to_string(ex.values.size()) +
                    " iterations, all within the warm-up of " + std::to_string(levels.warmup);
      } else {
        rec.status = ExecutionStatus::Ok;
        for (std::size_t i = 0; i < ex.values.size(); ++i)
          values.push_back(
              {static_cast<int>(i), ex.values[i], static_cast<int>(i) < levels.warmup});
        // The other metrics: one value each for the whole execution, or
        // none of them when one is missing (the execution is a failure).
        for (Metric metric : bench.measure.extraMetrics) {
          double v = measureMetric(metric, out, rec.error);
          if (!rec.error.empty()) {
            rec.status = ExecutionStatus::Iterations;
            rec.error = std::string(enumName(metric)) + ": " + rec.error;
            values.clear();
            break;
          }
          values.push_back({0, v, false, enumName(metric), metricUnit(metric)});
        }
      }
    }
    // A duet's execution that a partner left running alone (duet.hpp) is
    // recorded, its values not: the ratio is that of partners side by side.
    if (!r.duetAlone.empty() && rec.status == ExecutionStatus::Ok) {
      rec.status = ExecutionStatus::Alone;
      rec.error = r.duetAlone;
      values.clear();
    }
    if (r.duetSync) {
      rec.duetSync = r.duetSync;
      if (*r.duetSync == DuetSync::Barrier)
        rec.duetBarriers = r.duetBarriers;
      else
        rec.duetRestarts = r.duetRestarts;
    }
    if (rec.status == ExecutionStatus::Ok && job.req.simulate)
      job.profile = {profiledMetric(bench.measure), job.req.simulate->i1, out.simulatedFunctions};
    static_cast<RunConditions &>(rec) = r;
    rec.simulationSeconds = r.simulationSeconds;
    rec.voluntarySwitches = r.voluntarySwitches;
    rec.involuntarySwitches = r.involuntarySwitches;
  }

  // A block of executions: one, or a duet's (run at the same time, each on
  // its own CPU set, drawn at random per block and recorded), behind the
  // quiet gate if there is one; recorded in one transaction.
  Status executeBlock(std::span<const PlanEntry> entries, std::int64_t &failed) {
    std::vector<Job> jobs;
    for (const PlanEntry &e : entries)
      jobs.push_back(prepare(e, hostPlace()));
    std::vector<ExecutionRequest> requests = blockRequests(jobs, entries[0].block);
    BlockResult block = executor.runBlock(requests, blockOptions(requests.size()));
    if (block.cancelled)
      return Error{"cancelled"};
    complete(jobs, block);
    return recordJobs(jobs, failed);
  }

  // The host as the place of executions (campaigns without targets).
  Place hostPlace() const {
    Place p;
    p.sourceDir = cfg.sourceDir;
    p.campaignDir = opts.dir;
    p.baseEnv = &baseEnv;
    p.cpus = cfg.cpus;
    p.disableAslr = cfg.disableAslr;
    p.machineId = machineId;
    return p;
  }

  BlockOptions blockOptions(std::size_t runnable) const {
    BlockOptions o;
    o.together = design == Design::Duet && runnable > 1;
    o.quiet = cfg.quiet;
    return o;
  }

  // The requests of a block's runnable jobs; a duet's get their CPU sets.
  std::vector<ExecutionRequest> blockRequests(std::vector<Job> &jobs, std::int64_t block) {
    return blockRequests(jobs, block, duetSets);
  }
  std::vector<ExecutionRequest> blockRequests(std::vector<Job> &jobs, std::int64_t block,
                                              const std::vector<std::vector<int>> &sets) {
    std::vector<Job *> runnable;
    for (Job &j : jobs)
      if (j.runnable)
        runnable.push_back(&j);
    if (design == Design::Duet && runnable.size() > 1 && !sets.empty()) {
      std::vector<std::size_t> order(sets.size());
      for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
      Rng rng(mixSeed(mixSeed(cfg.seed, "duet"), static_cast<std::uint64_t>(block)));
      alea::shuffle(order.begin(), order.end(), rng);
      for (std::size_t i = 0; i < runnable.size(); ++i) {
        runnable[i]->req.cpus = sets[order[i % order.size()]];
        runnable[i]->rec.cpus = cpuList(runnable[i]->req.cpus);
      }
    }
    std::vector<ExecutionRequest> requests;
    for (Job *j : runnable)
      requests.push_back(j->req);
    return requests;
  }

  // The runnable jobs' records from the block's results (in the same order).
  void complete(std::vector<Job> &jobs, const BlockResult &block) {
    std::size_t i = 0;
    bool together = false;
    for (Job &job : jobs)
      if (job.runnable) {
        const ExecutionResult &r = block.results[i++];
        finish(job, r);
        if (block.gate) {
          job.rec.quietWait = block.gate->waited;
          job.rec.ranBusy = block.gate->ranBusy;
        }
        together = together || design == Design::Duet;
      }
    if (together && block.results.size() > 1) {
      // The executor's own judgment, else (an executor that ran them one
      // after the other: fakes) the overlap of their processes' spans.
      std::vector<DuetPartnerRun> spans;
      for (const ExecutionResult &r : block.results)
        spans.push_back({r.steadyStart, r.steadyEnd, r.steadyStart, r.steadyEnd, false, {}, {}});
      std::vector<DuetJudgment> judged = judgeDuet(spans);
      std::size_t k = 0;
      for (Job &job : jobs)
        if (job.runnable) {
          const ExecutionResult &r = block.results[k];
          job.rec.overlap = r.overlap ? *r.overlap : judged[k].overlap;
          ++k;
        }
    }
  }

  Status recordJobs(const std::vector<Job> &jobs, std::int64_t &failed) {
    std::vector<ExecutionRecord> merged;
    merged.reserve(jobs.size()); // records below point into it
    std::vector<RecordedExecution> records;
    for (const Job &j : jobs) {
      if (j.rec.status != ExecutionStatus::Ok)
        ++failed;
      const ExecutionRecord *rec = &j.rec;
      // What its interrupted run left running, after its own (a "left
      // running" of its own stays first: the report tells kept ones by it).
      if (auto it = interruptedLeftovers.find(j.rec.planPosition);
          it != interruptedLeftovers.end()) {
        rec = &merged.emplace_back(j.rec);
        merged.back().leftovers =
            j.rec.leftovers.empty() ? it->second : j.rec.leftovers + "; " + it->second;
      }
      records.push_back({*rec, j.values, j.bench->measure.valueUnit(),
                         j.bench->measure.primaryName(),
                         j.profile.functions.empty() ? nullptr : &j.profile});
    }
    if (Status owner = stillOwner(); !owner)
      return owner;
    return store.recordExecutions(records);
  }

  // ---- campaigns on [[target]]s (targets.hpp, docs/targets.md) -------------

  std::vector<std::unique_ptr<Target>> targets;

  // One target's worker thread: it connects (again, after a loss), stages
  // the builds of its unit there, prepares and runs the unit; the campaign
  // thread records what it brings back. One unit at a time per target.
  struct Worker {
    Target *target = nullptr;
    std::size_t index = 0;
    std::thread thread;
    // Set by the campaign thread (under the loop's mutex).
    std::optional<std::vector<PlanEntry>> unit;
    bool stop = false;
    // Set by the worker when the unit is done (under the mutex).
    bool done = false;
    std::vector<Job> jobs;
    BlockResult block;
    std::string error;      // lost or could not run: the unit runs again
    bool notRun = false;    // interrupted before it ran: not a failure
    bool lostInRun = false; // the session was lost while the unit ran
    // Set by the worker once its target (re)connected; the campaign thread
    // records the connection (targetConnected) and clears it.
    bool connectPending = false;
    // Campaign-thread state.
    bool busy = false, retired = false;
    int failuresInARow = 0;
    std::int64_t order = 0, machineId = 0, jobRow = 0;
    std::vector<std::vector<int>> duetSets;   // the worker's own
    MachineState machine;                     // its target's, as last recorded
    std::optional<MachineState> machineAfter; // as the target sent it after the unit
  };
  std::mutex loopMutex;
  std::condition_variable loopCv;

  TargetContext targetContext() {
    TargetContext c;
    c.campaignDir = opts.dir;
    c.campaignKey =
        sha256Hex(store.meta("config_sha256").value_or("") + "\n" + opts.dir).substr(0, 16);
    c.sourceDir = cfg.sourceDir;
    std::error_code ec;
    c.aleaPath = fs::read_symlink("/proc/self/exe", ec).string();
    if (!opts.aleaPath.empty())
      c.aleaPath = opts.aleaPath;
    c.buildOnTargets = cfg.buildOnTargets;
    c.hostToolDir = opts.toolDir;
    for (const auto &b : cfg.benchmarks) {
      c.inputs.insert(c.inputs.end(), b.inputs.begin(), b.inputs.end());
      if (!b.stdinFile.empty() && b.stdinFile.find('{') == std::string::npos)
        c.inputs.push_back(b.stdinFile);
    }
    return c;
  }

  // A target that fails this many times in a row (cannot connect, loses its
  // session or job, cannot stage) is taken out of the campaign.
  static constexpr int kTargetFailuresInARow = 5;
  // A unit lost this many times while it ran is recorded as failed ("lost").
  static constexpr int kUnitLosses = 3;

  // After a target's failure, again at once; after more, a pause before
  // trying again (0.5 s, 1 s, 2 s, ..., at most 30 s): a dropped network or a
  // rebooting machine needs a moment.
  void pauseAfterFailures(int failures) const {
    if (failures <= 1)
      return;
    auto until = std::chrono::steady_clock::now() +
                 std::chrono::milliseconds(std::min(30000, 500 << std::min(failures - 2, 6)));
    while (std::chrono::steady_clock::now() < until && !interrupted())
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }

  // Runs in the worker's thread.
  void work(Worker &w) {
    for (;;) {
      std::vector<PlanEntry> unit;
      int failures = 0;
      {
        std::unique_lock<std::mutex> lock(loopMutex);
        loopCv.wait(lock, [&] { return w.stop || w.unit; });
        if (w.stop)
          return;
        unit = *w.unit;
        failures = w.failuresInARow;
      }
      pauseAfterFailures(failures);
      std::vector<Job> jobs;
      BlockResult block;
      std::string error;
      bool notRun = false, lostInRun = false;
      Target &t = *w.target;
      auto cancelled = [&] { return opts.cancel && opts.cancel->load(); };
      try {
        if (cancelled()) {
          notRun = true;
        } else if (!t.connected()) {
          if (Status s = t.connect(opts.cancel); !s) {
            error = s.error();
            notRun = cancelled();
          } else {
            if (design == Design::Duet) { // the target's CPUs, split per system
              CampaignConfig own = cfg;
              if (t.config().cpus)
                own.cpus = *t.config().cpus;
              w.duetSets = duetCpuSets(own, t.session().cpus);
            }
            // The campaign thread records the machine state and the Slurm
            // job before anything runs there (a kill then still finds it).
            std::unique_lock<std::mutex> lock(loopMutex);
            w.connectPending = true;
            loopCv.notify_all();
            loopCv.wait(lock, [&] { return !w.connectPending || w.stop; });
          }
        }
        if (error.empty() && !notRun) {
          Place place;
          place.target = t.name();
          place.baseEnv = &t.environment();
          place.env = t.config().env;
          place.cpus = t.config().cpus ? *t.config().cpus : cfg.cpus;
          place.disableAslr = t.config().disableAslr.value_or(cfg.disableAslr);
          place.campaignDir = t.campaignDir();
          if (auto src = t.sourceDir())
            place.sourceDir = *src;
          else
            error = src.error();
          for (const PlanEntry &e : unit) {
            const BuildRecord &b = builds.at({e.systemId, e.buildIndex});
            if (!error.empty() || b.status != BuildStatus::Ok || place.buildDirs.count(b.id))
              continue;
            if (auto dir = t.buildDir(b))
              place.buildDirs[b.id] = *dir;
            else
              error = dir.error();
          }
          if (error.empty() && cancelled())
            notRun = true;
          if (error.empty() && !notRun) {
            for (const PlanEntry &e : unit)
              jobs.push_back(prepare(e, place));
            std::vector<ExecutionRequest> requests =
                blockRequests(jobs, unit.front().block, w.duetSets);
            block = t.executor().runBlock(requests, blockOptions(requests.size()));
            for (const auto &r : block.results)
              if (r.lost && error.empty()) {
                error = r.lostReason;
                lostInRun = true;
              }
          }
        }
      } catch (const std::exception &e) { // a malformed answer from the target
        error = std::string("target '") + t.name() + "': " + e.what();
      }
      if (!error.empty())
        t.disconnect();
      std::lock_guard<std::mutex> lock(loopMutex);
      w.unit.reset();
      w.done = true;
      w.jobs = std::move(jobs);
      w.block = std::move(block);
      w.error = error;
      w.notRun = notRun;
      w.lostInRun = lostInRun;
      w.machineAfter.reset();
      if (error.empty() && t.connected())
        w.machineAfter = t.session().lastMachine;
      loopCv.notify_all();
    }
  }

  // Slurm jobs a killed run left: still running ones are cancelled (their
  // executions in flight were never recorded and run again); every job's
  // last state is recorded.
  void settleOldJobs() {
    for (const auto &job : store.jobs()) {
      if (!job.state.empty())
        continue;
      std::string state = slurmJobState(job.jobId);
      if (state == "RUNNING" || state == "PENDING" || state == "CONFIGURING" ||
          state == "COMPLETING") {
        cancelSlurmJob(job.jobId);
        progress.message("target " + job.target + ": job " + job.jobId +
                         " of an interrupted run was still " + state + "; cancelled it");
        state = "CANCELLED (left by an interrupted run)";
      }
      (void)store.setJobState(job.id, state.empty() ? "gone" : state);
    }
  }

  void endJob(Worker &w) {
    if (!w.jobRow)
      return;
    // Its final state, once Slurm has one (a job is COMPLETING for a moment
    // after its step ended); a job that still runs after its session was
    // lost is cancelled, so that it frees the node.
    std::string state;
    for (int i = 0; i < 100; ++i) {
      state = slurmJobState(w.target->jobId());
      if (state == "RUNNING" && i == 0)
        cancelSlurmJob(w.target->jobId());
      if (state != "RUNNING" && state != "COMPLETING" && state != "CONFIGURING" &&
          state != "PENDING")
        break;
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    (void)store.setJobState(w.jobRow, state.empty() ? "ended" : state);
    w.jobRow = 0;
  }

  // The campaign thread's side of a worker whose target just connected: its
  // machine state, a check against the other targets of a pool, its job.
  void targetConnected(Worker &w, std::vector<Worker> &workers, bool resumed) {
    Target &t = *w.target;
    std::string reason = resumed ? "resume" : "start";
    if (auto before = store.lastMachine(t.name())) {
      std::string what;
      for (const auto &c : machineChanges(*before, store.recorded(t.machine())))
        if (c != "load")
          what += (what.empty() ? "" : ",") + c;
      reason = what.empty() ? "reconnect" : "change on reconnect: " + what;
    }
    if (auto id = store.addMachine(t.machine(), reason, t.name()))
      w.machineId = *id;
    w.machine = t.machine();
    progress.message("target " + t.name() + ": " + t.machine().hostname + ", " +
                     t.machine().cpuModel + ", " + std::to_string(t.machine().cpuCount) + " CPUs" +
                     (t.jobId().empty() ? "" : ", Slurm job " + t.jobId()));
    if (!t.jobId().empty())
      if (auto row = store.recordJob(t.name(), t.jobId()))
        w.jobRow = *row;
    if (cfg.machines == Machines::Pool)
      warnDifferentTargets(w, workers);
  }

  // The shared libraries the executables staged on w's target lack there,
  // each reported once (before the executions that need them are recorded).
  void reportMissingLibraries(Worker &w) {
    for (const auto &[path, libs] : w.target->missingLibraries) {
      std::string names;
      for (const auto &l : libs)
        names += (names.empty() ? "" : ", ") + l;
      std::string line =
          "target " + w.target->name() + ": " + path + " lacks shared libraries: " + names;
      if (std::find(outcome.warnings.begin(), outcome.warnings.end(), line) ==
          outcome.warnings.end()) {
        progress.message(line);
        outcome.warnings.push_back(line);
      }
    }
  }

  // machines = "pool" assumes identical targets: a warning when two differ.
  void warnDifferentTargets(const Worker &w, const std::vector<Worker> &workers) {
    for (const Worker &o : workers)
      if (&o != &w && o.machineId) {
        const MachineState &a = o.machine, &b = w.machine;
        std::string diff;
        auto add = [&](bool differ, const char *what) {
          if (differ)
            diff += (diff.empty() ? "" : ", ") + std::string(what);
        };
        add(a.cpuModel != b.cpuModel, "CPU model");
        add(a.cpuCount != b.cpuCount, "CPU count");
        add(a.kernel != b.kernel, "kernel");
        add(a.governor != b.governor, "governor");
        add(a.aslr != b.aslr, "ASLR");
        std::string line = "targets " + o.target->name() + " and " + w.target->name() +
                           " differ (" + diff +
                           ") but machines = \"pool\" assumes identical hardware";
        if (!diff.empty() && std::find(outcome.warnings.begin(), outcome.warnings.end(), line) ==
                                 outcome.warnings.end())
          outcome.warnings.push_back(line);
        break;
      }
  }

  // The executions counted across the loop's rounds: the progress line shows
  // finished of total and failed; ranHere, what this `alea run` executed, is
  // what --max-executions limits.
  struct Tally {
    std::int64_t finished = 0, total = 0, failed = 0, ranHere = 0;
  };

  bool interrupted() const { return opts.cancel && opts.cancel->load(); }
  // --max-executions reached by `ran` executions of this run.
  bool budgetSpent(std::int64_t ran) const {
    return opts.maxExecutions >= 0 && ran >= opts.maxExecutions;
  }

  // What runOnTargets hands out, under the loop's mutex: the units (a paired
  // design's block, which stays on one target, or one execution), those not
  // yet given out in plan order, and which worker runs which.
  struct Dispatch {
    std::vector<std::vector<PlanEntry>> units;
    std::deque<std::size_t> queue;
    std::map<std::size_t, std::size_t> running; // worker -> unit
    std::map<std::size_t, int> unitLosses;      // unit -> times lost while it ran
    std::int64_t dispatched = 0;                // executions in running units
    Status status;
  };

  Dispatch dispatchUnits(const std::vector<PlanEntry> &pending) const {
    Dispatch d;
    for (std::size_t i = 0; i < pending.size();) {
      std::size_t j = i + 1;
      if (design != Design::Unpaired && pending[i].block >= 0)
        while (j < pending.size() && pending[j].block == pending[i].block)
          ++j;
      d.units.emplace_back(pending.begin() + static_cast<std::ptrdiff_t>(i),
                           pending.begin() + static_cast<std::ptrdiff_t>(j));
      i = j;
    }
    for (std::size_t u = 0; u < d.units.size(); ++u)
      d.queue.push_back(u);
    return d;
  }

  // One worker thread per target, continuing its target's order of
  // executions; a target taken out earlier in this run stays out.
  void startWorkers(std::vector<Worker> &workers) {
    for (std::size_t k = 0; k < targets.size(); ++k) {
      workers[k].target = targets[k].get();
      workers[k].index = k;
      workers[k].order = store.lastTargetOrder(targets[k]->name());
      workers[k].retired = retired.count(targets[k]->name()) > 0;
    }
    for (Worker &w : workers)
      w.thread = std::thread([this, &w] { work(w); });
  }

  bool stopping(const Dispatch &d) const { return interrupted() || outcome.cancelled || !d.status; }

  // Gives w the first unit of the queue it may run (the loop's mutex held):
  // with machines = "level" build i runs on target i mod M only.
  void assignNext(Dispatch &d, Worker &w) {
    auto eligible = [&](std::size_t u) {
      return cfg.machines == Machines::Pool ||
             static_cast<std::size_t>(d.units[u].front().buildIndex) % targets.size() == w.index;
    };
    for (auto it = d.queue.begin(); it != d.queue.end(); ++it)
      if (eligible(*it)) {
        w.unit = d.units[*it];
        w.busy = true;
        d.running[w.index] = *it;
        d.dispatched += static_cast<std::int64_t>(d.units[*it].size());
        d.queue.erase(it);
        return;
      }
  }

  // A unit that did not complete goes back to the queue, in plan order: it
  // was the earliest its target took.
  static void requeue(Dispatch &d, std::size_t u) {
    d.queue.push_front(u);
    std::sort(d.queue.begin(), d.queue.end());
  }

  // Runs the pending entries on the targets, all busy at once, recording
  // results as they arrive. In a pool any free target takes the next unit in
  // plan order. A unit whose target was lost runs again (never recorded
  // twice: only a whole result is recorded); a target that fails 5 times in
  // a row is taken out.
  Status runOnTargets(const std::vector<PlanEntry> &pending, Tally &tally, bool resumed) {
    Dispatch d = dispatchUnits(pending);
    std::vector<Worker> workers(targets.size());
    startWorkers(workers);
    std::unique_lock<std::mutex> lock(loopMutex);
    for (;;) {
      if (!stopping(d))
        for (Worker &w : workers) {
          if (w.busy || w.retired)
            continue;
          if (budgetSpent(tally.ranHere + d.dispatched))
            break;
          assignNext(d, w);
        }
      loopCv.notify_all();
      bool anyBusy = std::any_of(workers.begin(), workers.end(), [](auto &w) { return w.busy; });
      if (!anyBusy)
        break;
      loopCv.wait_for(lock, std::chrono::milliseconds(100), [&] {
        return std::any_of(workers.begin(), workers.end(),
                           [](auto &w) { return w.done || w.connectPending; });
      });
      for (Worker &w : workers) {
        if (w.connectPending) {
          lock.unlock();
          targetConnected(w, workers, resumed);
          lock.lock();
          w.connectPending = false;
          loopCv.notify_all();
        }
        if (w.done)
          collect(d, w, lock, tally);
      }
      bool allOut = std::all_of(workers.begin(), workers.end(), [](auto &w) { return w.retired; });
      if (allOut && !d.queue.empty() && d.status) {
        d.status = Error{"every target was taken out (see the warnings); `alea run` again resumes"};
      }
    }
    stopWorkers(workers, lock);
    if (!d.queue.empty() && d.status && !outcome.cancelled && !budgetSpent(tally.ranHere))
      outcome.warnings.push_back(counted(d.queue.size(), "execution unit") +
                                 " could not run on any target; `alea run` again retries them");
    return d.status;
  }

  // A worker's unit came back (the loop's mutex held on entry and on return,
  // released while the unit is recorded): recorded, or queued to run again.
  void collect(Dispatch &d, Worker &w, std::unique_lock<std::mutex> &lock, Tally &tally) {
    w.done = false;
    w.busy = false;
    std::size_t u = d.running.at(w.index);
    d.running.erase(w.index);
    d.dispatched -= static_cast<std::int64_t>(d.units[u].size());
    // The worker's results, taken before it may get its next unit.
    std::vector<Job> jobs = std::move(w.jobs);
    BlockResult block = std::move(w.block);
    std::optional<MachineState> now = std::move(w.machineAfter);
    bool succeeded = w.error.empty() && !w.notRun && !block.cancelled;
    // A target that succeeded gets its next unit before this one is
    // recorded: the commit (tens of microseconds) does not keep it idle.
    if (succeeded && opts.maxExecutions < 0 && !stopping(d) && !w.retired) {
      assignNext(d, w);
      loopCv.notify_all();
    }
    lock.unlock();
    reportMissingLibraries(w);
    Status recorded;
    if (w.notRun) {
      requeue(d, u);
    } else if (!w.error.empty() && w.lostInRun && ++d.unitLosses[u] >= kUnitLosses) {
      recorded = recordLostUnit(w, d.units[u], d.unitLosses[u], tally);
    } else if (!w.error.empty()) {
      endJob(w);
      requeue(d, u);
      targetFailed(w);
    } else if (block.cancelled) {
      outcome.cancelled = true;
    } else {
      recorded = recordUnit(w, jobs, block, now, tally);
    }
    if (!recorded)
      d.status = recorded;
    lock.lock();
  }

  // A unit lost every time it ran (it may be what kills the session: the
  // helper OOM-killed, a full disk) is recorded as failed, so that it cannot
  // take every target out.
  Status recordLostUnit(Worker &w, const std::vector<PlanEntry> &unit, int losses, Tally &tally) {
    endJob(w);
    ++w.failuresInARow;
    std::vector<Job> jobs;
    for (const PlanEntry &e : unit) {
      jobs.push_back(prepare(e, hostPlace()));
      Job &j = jobs.back();
      j.rec.status = ExecutionStatus::Lost;
      j.rec.error = "lost " + std::to_string(losses) + " times while running on targets (last on " +
                    w.target->name() + ": " + w.error + ")";
      j.rec.target = w.target->name();
      j.rec.machineId = w.machineId;
      j.rec.targetOrder = ++w.order;
    }
    Status recorded = recordJobs(jobs, tally.failed);
    tally.finished += static_cast<std::int64_t>(jobs.size());
    tally.ranHere += static_cast<std::int64_t>(jobs.size());
    progress.message("target " + w.target->name() + ": " + jobs.front().rec.error +
                     "; recorded as failed");
    return recorded;
  }

  // A target lost its unit or could not run it (the unit runs again): after
  // kTargetFailuresInARow such failures it is taken out of the campaign.
  void targetFailed(Worker &w) {
    ++w.failuresInARow;
    progress.message("target " + w.target->name() + ": " + w.error +
                     "; its execution will run again");
    if (w.failuresInARow >= kTargetFailuresInARow) {
      w.retired = true;
      retired.insert(w.target->name());
      outcome.warnings.push_back("target " + w.target->name() + " was taken out after " +
                                 std::to_string(w.failuresInARow) +
                                 " failures in a row (last: " + w.error + ")");
      progress.message(outcome.warnings.back());
    }
  }

  // A unit that ran: recorded in the target's order, on the target's
  // machine row; a change of the target's machine state is a new row.
  Status recordUnit(Worker &w, std::vector<Job> &jobs, const BlockResult &block,
                    const std::optional<MachineState> &now, Tally &tally) {
    w.failuresInARow = 0;
    complete(jobs, block);
    for (Job &j : jobs) {
      j.rec.machineId = w.machineId;
      j.rec.targetOrder = ++w.order;
    }
    Status recorded = recordJobs(jobs, tally.failed);
    std::int64_t n = static_cast<std::int64_t>(jobs.size());
    tally.ranHere += n;
    tally.finished += n;
    progress.update(tally.finished, tally.total, tally.failed);
    if (now) {
      std::string what;
      for (const auto &c : machineChanges(w.machine, *now))
        what += (what.empty() ? "" : ",") + c;
      if (!what.empty()) {
        if (auto id = store.addMachine(*now, "change: " + what, w.target->name())) {
          w.machineId = *id;
          progress.message("target " + w.target->name() + ": machine state changed: " + what);
        }
        w.machine = *now; // the baseline of the next comparison, as for the host
      }
    }
    return recorded;
  }

  // Stops the workers, then ends what they leave on the targets. Ctrl-C may
  // arrive between two blocks, when no block reports it: decided here,
  // before the jobs end, so that an interrupted run's jobs are cancelled
  // (scancel) rather than left to complete when their session closes.
  void stopWorkers(std::vector<Worker> &workers, std::unique_lock<std::mutex> &lock) {
    for (Worker &w : workers)
      w.stop = true;
    loopCv.notify_all();
    lock.unlock();
    for (Worker &w : workers)
      w.thread.join();
    if (interrupted())
      outcome.cancelled = true;
    for (Worker &w : workers) {
      if (w.target->connected() && !w.target->jobId().empty() && outcome.cancelled)
        cancelSlurmJob(w.target->jobId());
      w.target->disconnect();
      endJob(w);
    }
  }
  std::set<std::string> retired; // targets taken out in this run

  // ---- the steps of runCampaign --------------------------------------------

  // An "auto" campaign's levels: those planned (and recorded) by the run
  // that started it, or planned now from a pilot run in pilotDir (which
  // estimates builds and executions only). Returns the pilot's outcome when
  // the pilot was interrupted: the campaign stops there.
  Expected<std::optional<CampaignOutcome>> planAutoLevels(const std::string &pilotDir) {
    auto recorded = [&](const char *key) { return store.meta(key); };
    if (recorded("config_sha256") && recorded("levels.builds")) {
      // Resuming: the counts were planned (and recorded) before.
      levels = {std::atoi(recorded("levels.builds")->c_str()),
                std::atoi(recorded("levels.executions")->c_str()),
                std::atoi(recorded("levels.iterations")->c_str()),
                std::atoi(recorded("levels.warmup")->c_str())};
      return std::optional<CampaignOutcome>();
    }
    CampaignConfig pilotCfg = pilotConfig(cfg);
    pilotCfg.machines = Machines::Pool; // the pilot estimates builds and executions only
    LevelCounts pl = pilotCounts(cfg);
    CampaignOptions pilotOpts = opts;
    pilotOpts.dir = pilotDir;
    pilotOpts.requireExisting = false;
    pilotOpts.maxExecutions = -1;
    pilotOpts.startMessage.clear();
    // Checked with cfg: the pilot differs in levels, name and adaptive
    // settings only, which no check of validateCampaign reads.
    pilotOpts.validated = true;
    progress.message("pilot run for the \"auto\" levels: " + std::to_string(pl.builds) +
                     " builds x " + std::to_string(pl.executions) + " executions x " +
                     std::to_string(pl.iterations + pl.warmup) + " iterations, in " + pilotDir);
    auto pilotRun = runCampaign(pilotCfg, pilotOpts, executor, progress);
    if (!pilotRun)
      return Error{"pilot run: " + pilotRun.error()};
    if (pilotRun->cancelled) {
      pilotRun->warnings.push_back("interrupted during the pilot run");
      return std::optional<CampaignOutcome>(std::move(*pilotRun));
    }
    auto pilotStore = Store::openReadOnly(storePath(pilotDir)); // read only: planner, reuse
    if (!pilotStore)
      return Error{pilotStore.error()};
    auto planned = planFromPilot(cfg, *pilotStore, pl);
    if (!planned)
      return Error{"planning from the pilot run: " + planned.error()};
    for (const auto &line : planned->explanation)
      progress.message("plan: " + line);
    levels = planned->counts;
    if (cfg.machines == Machines::Level && !cfg.targets.empty()) {
      // Every machine runs the same number of builds.
      int m = static_cast<int>(cfg.targets.size());
      levels.builds = (levels.builds + m - 1) / m * m;
    }
    std::string text;
    for (const auto &line : planned->explanation)
      text += line + "\n";
    if (Status st = store.setMeta("auto_plan", text); !st)
      return Error{st.error()};
    return std::optional<CampaignOutcome>();
  }

  // What this run continues from: the pilot's builds (reused), the recorded
  // campaign (checkMeta), earlier runs' processes (ended), and the design and
  // builds the store was planned with (an adaptive campaign adds builds; a
  // store from before designs is unpaired).
  Status continueFromStore(bool automatic, const std::string &pilotDir) {
    std::error_code ec;
    if (automatic && fs::exists(storePath(pilotDir), ec))
      if (auto pilotStore = Store::openReadOnly(storePath(pilotDir)))
        pilot.emplace(std::move(*pilotStore));
    if (Status s = checkMeta(); !s)
      return s;
    runToken = newRunToken();
    if (Status s = endEarlierRuns(); !s)
      return s;
    design =
        parseEnum<Design>(store.meta("design").value_or("unpaired")).value_or(Design::Unpaired);
    if (auto b = store.meta("levels.builds"))
      levels.builds = std::max(levels.builds, std::atoi(b->c_str()));
    if (auto e = store.meta("levels.executions")) // an adaptive one-build campaign's
      levels.executions = std::max(levels.executions, std::atoi(e->c_str()));
    if (design == Design::Duet)
      duetSets = duetCpuSets(cfg, readMachineFacts().cpus);
    // The precision asked for, which the report's plans aim at: an adaptive
    // run's target (from the file or the command line) replaces the levels'.
    if (cfg.adaptive.enabled && cfg.adaptive.halfWidth > 0)
      if (Status s = store.setMeta("target_half_width", std::to_string(cfg.adaptive.halfWidth)); !s)
        return s;
    return {};
  }

  // Interrupted during the builds: no plan is stored yet, but the campaign
  // plans this many executions (a resumed run makes that plan).
  CampaignOutcome cancelledInBuilds() {
    outcome.cancelled = true;
    outcome.warnings.insert(outcome.warnings.end(), buildReview.begin(), buildReview.end());
    outcome.summary = store.summary();
    if (!store.hasPlan())
      outcome.summary.planned = static_cast<std::int64_t>(cfg.systems.size()) *
                                static_cast<std::int64_t>(cfg.benchmarks.size()) * levels.builds *
                                levels.executions;
    return outcome;
  }

  // The targets the campaign runs on, and how machines enter the analysis,
  // recorded; the jobs an earlier run left settled; one Target each.
  Status connectTargets() {
    if (cfg.targets.empty())
      return {};
    std::string names;
    for (const auto &t : cfg.targets)
      names += (names.empty() ? "" : ",") + t.name;
    if (Status s = store.setMeta("targets", names); !s)
      return s;
    if (Status s = store.setMeta("machines", enumName(cfg.machines)); !s)
      return s;
    settleOldJobs();
    TargetContext context = targetContext();
    for (const auto &t : cfg.targets)
      targets.push_back(makeTarget(t, context));
    return {};
  }

  // Runs the plan's pending executions, on the targets or on this host, in
  // rounds: after each, an adaptive campaign extends the plan with more
  // builds, or stops (on precision or budget, never on the answer).
  Status executePlan(std::vector<PlanEntry> &plan, bool resumed) {
    Tally tally;
    tally.failed = store.summary().failed;
    auto lastCheck = std::chrono::steady_clock::now();
    for (;;) {
      std::set<std::int64_t> done = store.completedPositions();
      std::vector<PlanEntry> pending = pendingEntries(plan, done);
      tally.total = static_cast<std::int64_t>(plan.size());
      tally.finished = tally.total - static_cast<std::int64_t>(pending.size());
      progress.start(tally.finished, tally.total, tally.failed);
      if (!targets.empty()) {
        if (Status s = runOnTargets(pending, tally, resumed); !s)
          return s;
        pending.clear();
      }
      if (Status s = runOnHost(pending, tally, lastCheck); !s)
        return s;
      progress.finish();
      if (outcome.cancelled || !cfg.adaptive.enabled || budgetSpent(tally.ranHere) ||
          store.completedPositions().size() < plan.size())
        return {};
      auto more = nextBatch();
      if (!more)
        return Error{more.error()};
      if (*more == 0)
        return {};
      if (Status s = extendPlan(plan, *more); !s)
        return s;
      if (Status s = doBuilds(); !s)
        return s;
      if (interrupted()) {
        outcome.cancelled = true;
        return {};
      }
    }
  }

  // Runs the pending executions on this host in plan order (a duet's block
  // together, every other entry on its own) until they are done, the
  // execution budget is spent or the run is interrupted.
  Status runOnHost(const std::vector<PlanEntry> &pending, Tally &tally,
                   std::chrono::steady_clock::time_point &lastCheck) {
    for (std::size_t i = 0; i < pending.size();) {
      if (budgetSpent(tally.ranHere))
        break;
      if (interrupted()) {
        outcome.cancelled = true;
        break;
      }
      std::size_t j = i + 1;
      if (design == Design::Duet && pending[i].block >= 0)
        while (j < pending.size() && pending[j].block == pending[i].block)
          ++j;
      Status s = executeBlock(std::span(pending).subspan(i, j - i), tally.failed);
      if (!s) {
        if (interrupted()) {
          outcome.cancelled = true;
          break;
        }
        return s;
      }
      std::int64_t n = static_cast<std::int64_t>(j - i);
      tally.ranHere += n;
      tally.finished += n;
      i = j;
      progress.update(tally.finished, tally.total, tally.failed);
      // Cheap re-check of the machine state, at most once per second.
      if (opts.recheckMachine &&
          std::chrono::steady_clock::now() - lastCheck >= std::chrono::seconds(1)) {
        recheckMachine();
        lastCheck = std::chrono::steady_clock::now();
      }
    }
    return {};
  }

  // The outcome: the store's summary, with warnings for failed executions
  // and changes of the machine state.
  CampaignOutcome finishOutcome() {
    outcome.warnings.insert(outcome.warnings.end(), buildReview.begin(), buildReview.end());
    outcome.summary = store.summary();
    outcome.complete = outcome.summary.executed == outcome.summary.planned;
    if (outcome.summary.failed > 0)
      outcome.warnings.push_back(std::to_string(outcome.summary.failed) + " of " +
                                 counted(outcome.summary.executed, "execution") +
                                 " failed (recorded, not used as data)");
    if (outcome.summary.machineChanges > 0)
      outcome.warnings.push_back("the machine state changed " +
                                 counted(outcome.summary.machineChanges, "time") +
                                 " during the campaign (see the machine table)");
    return outcome;
  }
};

// The campaign file's mistakes (placeholders, artifacts, paths, CPUs) and a
// plan too large to be meant (unless --force), found before anything is
// created or built.
Status checkCampaignFile(const CampaignConfig &cfg, const CampaignOptions &options) {
  if (!options.validated)
    if (Status s = validateCampaign(cfg, readMachineFacts(cfg)); !s)
      return s;
  if (!options.force)
    if (Status s = checkPlanSize(cfg); !s)
      return s;
  return {};
}

// Children run in their build directories: every path handed to them is
// absolute, the campaign directory's first.
CampaignOptions withAbsoluteDir(const CampaignOptions &options) {
  CampaignOptions opts = options;
  std::error_code absEc;
  opts.dir = fs::absolute(options.dir, absEc).lexically_normal().string();
  if (!opts.dir.empty() && opts.dir.back() == '/')
    opts.dir.pop_back();
  return opts;
}

// What a run holds from its start to its end: the campaign directory's lock
// (one writer per directory) and its store.
struct OpenedCampaign {
  CampaignLock lock;
  Store store;
};

// Opens the campaign directory (created if new), locks it and opens its
// store, leaving the directory as it is on any error. --resume continues a
// campaign, never starts one: it needs a store that holds one (or an "auto"
// campaign's pilot store).
Expected<OpenedCampaign> openCampaign(const CampaignConfig &cfg, const CampaignOptions &opts,
                                      const std::string &path, bool automatic,
                                      const std::string &pilotDir, Progress &progress) {
  std::error_code ec;
  bool existed = fs::exists(path, ec);
  if (opts.requireExisting && !existed && !(automatic && fs::exists(storePath(pilotDir), ec)))
    return Error{"nothing to resume: no store at '" + path + "'"};
  ec = createCampaignDirectory(opts.dir);
  if (ec)
    return Error{"cannot create campaign directory '" + opts.dir + "': " + ec.message()};
  // One writer per directory, from here until runCampaign returns.
  auto lock = CampaignLock::acquire(opts.dir);
  if (!lock)
    return Error{lock.error(), lock.errorKind()};
  // The compilers' --version answers (tens of ms each) are asked concurrently,
  // with each other and with the store's set-up; all are in before the first
  // build or execution runs (waitToolVersions in runCampaign).
  prefetchToolVersions(machineCompilers(cfg));
  // An existing store that is not one (empty, truncated, foreign) is an
  // error, never replaced: the directory is left as it is.
  auto store = Store::open(path);
  if (!store)
    return Error{store.error()};
  // A store can exist without a campaign: its creator was stopped before it
  // recorded the campaign.
  if (opts.requireExisting && !store->meta("config_sha256") &&
      !(automatic && fs::exists(storePath(pilotDir), ec)))
    return Error{"nothing to resume: the store '" + path +
                 "' holds no campaign yet (the run that made it stopped first); run without "
                 "--resume to start it"};
  if (!opts.startMessage.empty())
    progress.message(opts.startMessage);
  if (int n = removeSnapshotLeftovers(opts.dir); n > 0)
    progress.message("removed " + counted(n, "partial artifact snapshot") +
                     " left by an interrupted run");
  if (automatic ||
      store->summary().builds < static_cast<std::int64_t>(cfg.systems.size()) * cfg.builds.count)
    prefetchToolVersions(buildCompilers(cfg, opts));
  return OpenedCampaign{std::move(*lock), std::move(*store)};
}

} // namespace

// The campaign as one sequence of steps, each idempotent against what the
// store already holds (see the file comment).
Expected<CampaignOutcome> runCampaign(const CampaignConfig &cfg, const CampaignOptions &options,
                                      Executor &executor, Progress &progress) {
  if (Status s = checkCampaignFile(cfg, options); !s)
    return Error{s.error()};
  CampaignOptions opts = withAbsoluteDir(options);
  std::string path = storePath(opts.dir);
  bool automatic = cfg.anyAuto() || cfg.warmup.automatic;
  std::string pilotDir = (fs::path(opts.dir) / "pilot").string();
  // Directory, lock, store: held until this function returns.
  auto opened = openCampaign(cfg, opts, path, automatic, pilotDir, progress);
  if (!opened)
    return Error{opened.error(), opened.errorKind()};
  Run run(cfg, opts, executor, progress, opened->lock, std::move(opened->store));
  run.outcome.storePath = path;
  // The levels: the file's counts, or for "auto" ones planned from a pilot.
  run.levels = {cfg.builds.count, cfg.executions.count, cfg.iterations.count, cfg.warmup.count};
  if (automatic) {
    auto pilotStopped = run.planAutoLevels(pilotDir);
    if (!pilotStopped)
      return Error{pilotStopped.error()};
    if (*pilotStopped)
      return std::move(**pilotStopped);
  }
  // What the store and earlier runs left: checked, ended, continued.
  if (Status s = run.continueFromStore(automatic, pilotDir); !s)
    return Error{s.error()};
  bool resumed = run.store.hasPlan() || run.store.summary().builds > 0;
  // The machine, systems and benchmarks, recorded once.
  if (Status s = run.recordMachine(resumed); !s)
    return Error{s.error()};
  if (Status s = run.ensureEntities(); !s)
    return Error{s.error()};
  waitToolVersions();
  // The targets, if the campaign runs (or builds) elsewhere than here.
  if (Status s = run.connectTargets(); !s)
    return Error{s.error()};
  // The builds, each recorded once.
  if (Status s = run.doBuilds(); !s)
    return Error{s.error()};
  if (run.interrupted())
    return run.cancelledInBuilds();
  // The plan, made once: the order of every execution.
  auto plan = run.plan();
  if (!plan)
    return Error{plan.error()};
  // The pending executions, each recorded as it completes.
  if (Status s = run.executePlan(*plan, resumed); !s)
    return Error{s.error()};
  return run.finishOutcome();
}

} // namespace alea::runner

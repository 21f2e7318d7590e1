// The campaign file (TOML, toml++ 3.3): systems to build, benchmarks to run,
// the levels (builds x executions x iterations, counts or "auto"), warm-up,
// randomization factors, environment padding, measurement, timeouts and the
// statistics settings. parseCampaign reports the first problem as ONE message
// `file:line:column: error: expected ...`. Every key is documented in
// docs/campaign.md.
#pragma once

#include "alea/config/error.hpp"
#include "alea/config/measure_spec.hpp"
#include "alea/config/redact.hpp"
#include "alea/records.hpp"

#include <climits>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace alea::runner {

// Where a value was written in the campaign file (1-based; 0 = not from a
// file), kept for the checks that come after parsing (validate.hpp) so that
// they point at the value like the parser does.
struct SourcePos {
  int line = 0, column = 0;
};

// The longest names (kMax*NameBytes) are in alea/records.hpp: the report
// keeps its figures' file names within them too.

// Bounds of the campaign file's numbers, checked when it is parsed.
// Durations (timeouts, waits, budgets): at most 1e9 s (31 years), so that a
// deadline (now + duration on the steady clock, int64 nanoseconds: 292
// years) cannot overflow.
inline constexpr double kMaxSeconds = 1e9;
// A level's explicit count (builds, executions, iterations, warmup).
inline constexpr int kMaxLevelCount = 1000000;
// CPU numbers are below it; a load is at most it.
inline constexpr int kMaxCpus = 4096;
// The most executions explicit levels may plan without `alea run --force`
// (checkPlanSize): 10^8 executions of one second each take three years.
inline constexpr std::int64_t kMaxPlannedExecutions = 100000000;

// A level count: a number, or "auto" (pilot run then the planner).
struct LevelCount {
  bool automatic = false;
  int count = 1;
};

// A command: an argv list, or a shell string run by /bin/sh -c when the user
// wrote `shell = "..."`. Placeholders `{name}` are substituted (see
// substitute()); `${VAR}` is left to the shell.
struct CommandSpec {
  std::vector<std::string> argv;
  std::string shell;
  std::vector<SourcePos> argvAt; // where each argv element was written
  SourcePos shellAt;
  bool isShell() const { return !shell.empty(); }
};

struct SystemConfig {
  std::string name;
  bool baseline = false;
  CommandSpec build;
  std::vector<std::string> artifacts;              // relative to the build directory
  std::map<std::string, std::string> env;          // extra environment for the build
  std::optional<std::vector<std::string>> factors; // overrides the campaign's
};

struct BenchmarkConfig {
  std::string name;
  CommandSpec command;
  std::string workdir;                    // "" = the build directory
  std::vector<std::string> inputs;        // must exist (checked before running)
  std::map<std::string, std::string> env; // extra environment for the benchmark
  int expectedExit = 0;
  double timeoutSeconds = 0; // 0 = the campaign's timeout
  MeasureSpec measure;
  std::string stdinFile; // "" = /dev/null
  SourcePos workdirAt, stdinAt;
  std::vector<SourcePos> inputsAt;
  std::map<std::string, SourcePos> envAt;
};

// The design and the machines setting (Design, Machines) are records of
// the campaign: alea/records.hpp, with their names.

// The quiet-machine gate: before each execution, wait (at most waitSeconds)
// until other processes keep fewer than `load` CPUs busy.
struct QuietGate {
  bool enabled = false;
  double load = 0.25;      // CPUs' worth of busy time of other processes
  double waitSeconds = 60; // the most it waits before running anyway
};

// Adaptive campaigns: add builds in batches (the ratio planner's) until every
// ratio's CI is within halfWidth (relative) or the time budget ends.
struct AdaptiveStop {
  bool enabled = false;
  double halfWidth = 0;         // relative, e.g. 0.02; 0 = only the budget
  double timeBudgetSeconds = 0; // 0 = none
  int maxBuilds = 100;
};

// Slurm settings of a target (docs/targets.md): the helper runs in a job
// step `srun` starts (an allocation of its own), exclusive by default.
struct SlurmSettings {
  std::string partition, constraint, account, timeLimit;
  int nodes = 1;
  bool exclusive = true;
  std::vector<std::string> extra; // further srun/sbatch options, as written
};

// A machine that runs executions (`[[target]]`, docs/targets.md): over SSH
// (`ssh` = anything the ssh command accepts as a destination) or through
// Slurm. Overrides of cpus, aslr and env apply to its executions (and env to
// its builds, with build_on = "targets").
struct TargetConfig {
  std::string name;
  std::string ssh;                     // "" for a Slurm target
  std::vector<std::string> sshOptions; // e.g. ["-F", "cfg", "-p", "2222"]
  std::string workdir;                 // on the target; "" = .alea in the login directory
  std::optional<SlurmSettings> slurm;
  std::optional<std::vector<int>> cpus;
  std::optional<bool> disableAslr;
  std::map<std::string, std::string> env;
  // Where alea's wrappers are on the target (build_on = "targets"); "" = the
  // host's tool directory (identical installs, a shared file system).
  std::string toolDir;
  SourcePos at;
};

struct CampaignConfig {
  std::string path;      // the campaign file
  std::string sourceDir; // directory of the campaign file ({source_dir})
  std::string text;      // the file's content, recorded in the store
  std::string name;
  std::uint64_t seed = 1;
  double confidence = 0.95;
  double threshold = 0.01; // relative: 0.01 = 1% (decision threshold)
  // Canonical order (the build factors, then heap-offset); empty = none.
  std::vector<std::string> factors;
  std::int64_t envPadMin = 0, envPadMax = 4096;
  bool disableAslr = false;
  std::vector<int> cpus;         // pin executions to these CPUs (empty: no)
  std::vector<SourcePos> cpusAt; // where each CPU number was written
  // The default: the narrowest of the designs the validity benchmark shows
  // honest (docs/benchmarks.md, "Validity of the designs"; issue 19).
  Design design = Design::Interleaved;
  SourcePos designAt;
  // Duet: the CPU set of each of a block's simultaneous executions (empty:
  // `cpus`, or the CPUs alea may use, split into one set per system).
  std::vector<std::vector<int>> duetCpus;
  SourcePos duetCpusAt;
  QuietGate quiet;
  AdaptiveStop adaptive;
  // Extra name patterns of environment variables recorded redacted (redact.hpp).
  std::vector<std::string> redactEnv;
  // End the processes an execution leaves running (daemons that escaped its
  // process group); false: only report them.
  bool killLeftovers = true;
  double timeoutSeconds = 300; // per execution
  double buildTimeoutSeconds = 3600;
  // Builds made at the same time on the host (docs/campaign.md, "Parallel
  // builds"); 0 = "auto": one per CPU alea may run on. `alea run -j` sets it.
  int buildJobs = 0;
  // Reuse each compile's work up to the layout pass across the builds
  // (docs/campaign.md, "Build cache"): the wrappers' cache in
  // <campaign dir>/build-cache. `alea run --build-cache` sets it.
  bool buildCache = false;
  // build_on = "targets": the builds are made on the [[target]]s, one at a
  // time on each (docs/targets.md, "Builds on targets"); false: on the host.
  bool buildOnTargets = false;
  LevelCount builds{false, 3}, executions{false, 3}, iterations{false, 1};
  LevelCount warmup{false, 0};
  SourcePos levelsAt;            // the [levels] table
  double targetHalfWidth = 0.01; // for "auto" levels: relative CI half-width
  double timeBudgetSeconds = 0;  // for "auto" levels: 0 = use the half-width
  MeasureSpec measure;           // default for benchmarks
  std::vector<SystemConfig> systems;
  std::vector<BenchmarkConfig> benchmarks;
  std::vector<TargetConfig> targets; // empty: this machine
  Machines machines = Machines::Pool;

  const SystemConfig *baseline() const;
  bool anyAuto() const { return builds.automatic || executions.automatic || iterations.automatic; }
};

// Parses and validates a campaign file; the error is one line with
// file:line:column and the expectation. Pure: what needs the file system or
// the machine (paths, CPUs) is checked by validateCampaign (validate.hpp).
Expected<CampaignConfig> parseCampaign(const std::string &path);

// Refuses explicit levels that plan more than kMaxPlannedExecutions
// executions (systems x benchmarks x builds x executions), with the predicted
// count, at the [levels] table; "auto" levels are bounded by their planner.
Status checkPlanSize(const CampaignConfig &config);

// The campaign file as the store records it: the text, with the value of every
// `env` entry whose name looks secret replaced by "<redacted>", and every other
// string value (commands, URLs, ...) redacted as text by `redactor`
// (redact.hpp), re-written as a TOML string when that changed it. The result
// is still a campaign file of the same structure; comments are kept as written.
std::string recordedCampaignText(const CampaignConfig &config, const Redactor &redactor);
// Same, from text (`path` only names it in messages and sets sourceDir).
Expected<CampaignConfig> parseCampaignText(const std::string &text, const std::string &path);

// Parses the campaign file's factor lists: names (alea/contract.hpp: the
// build factors and heap-offset), "all" or "none" -> canonical order, the
// build factors first, then heap-offset.
Expected<std::vector<std::string>> canonicalFactors(const std::vector<std::string> &names);
// The ALEA_FACTORS spelling of a canonical list (alea::formatFactors): its
// build factors only.
std::string joinFactors(const std::vector<std::string> &factors);
// Whether a list switches the heap start offset on (its executions get one).
bool heapOffsetOn(const std::vector<std::string> &factors);
// The campaign's factors as the store's meta and the report show them: the
// build factors' comma list, then heap-offset when on ("none": neither).
std::string describeFactors(const std::vector<std::string> &factors);

// "file:line:column: message", the form of every campaign-file error.
std::string fileError(const std::string &path, SourcePos at, const std::string &message);

// The keys of the placeholders in `text`, in order, as substitute() reads
// them (`${...}` and `{{` are not placeholders).
std::vector<std::string> placeholdersIn(const std::string &text);

// The placeholders a build command gets (runBuild), and those a benchmark's
// command, workdir, stdin and env values get (the campaign loop; besides
// {artifact:PATH} for each artifact of the build that runs): one definition,
// which the runner substitutes and validateCampaign checks against.
struct BuildPlaceholders {
  std::string sourceDir, buildDir, campaignDir, system, seed;
  int buildIndex = 0;
};
struct BenchmarkPlaceholders {
  std::string sourceDir, buildDir, campaignDir, system, benchmark;
  int buildIndex = 0, executionIndex = 0, iterations = 0;
};
// Name and value of each, in the order the documentation and errors list them.
using PlaceholderList = std::vector<std::pair<std::string, std::string>>;
PlaceholderList placeholderValues(const BuildPlaceholders &values);
PlaceholderList placeholderValues(const BenchmarkPlaceholders &values);

// What a substituted text becomes: one argument, a path or a value as it is
// (Literal), or a command line for /bin/sh -c (ShellText), where every value
// is quoted for the place it stands (alea::shellQuote outside quotes, escaped
// inside "...", the quotes closed and reopened inside '...'): the shell reads
// it as exactly the value, one word, whatever spaces, quotes or $(...) it has.
enum class SubstituteFor { Literal, ShellText };

// Replaces `{key}` by vars[key]; `${...}` is kept for the shell; `{{` is `{`.
// Unknown keys are an error naming them.
Expected<std::string> substitute(const std::string &text,
                                 const std::map<std::string, std::string> &vars,
                                 SubstituteFor target = SubstituteFor::Literal);

} // namespace alea::runner

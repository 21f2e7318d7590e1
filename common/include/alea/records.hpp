// The records of a campaign, one type per concept (issue 22): the design and
// the machines setting with their one spelling each, the machine state, a
// measurement, a build's and an execution's outcome with their one spelling,
// how a process ended, a build, a failed execution, a group of executions
// that left processes running, an execution's conditions and a duet's
// synchronisation.
// The runner writes them (runner/store), the store's reads return them, and
// the report value (report/model) is assembled from them, so no component
// copies one into its own look-alike field by field; a component that needs
// more of a record extends it (runner::BuildRecord, model::BuildInfo). Plain
// data and their names only: nothing here reads a machine, a file or a store.
#pragma once

#include "alea/enum_names.hpp"

#include <climits>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace alea {

//===-- Names -------------------------------------------------------------//

// The longest names, in bytes. Each name becomes part of a file name, which
// the kernel limits to NAME_MAX (255) bytes: a system names its builds'
// directory `builds/<system>/`, a target its session log
// `targets/<target>.log`, and a benchmark the figures of `alea report
// --plots`, of which `executions-<benchmark>.svg` is the longest
// (report/src/figures.cpp keeps every figure's name within it; runner/config
// checks the campaign file's names).
inline constexpr std::size_t kMaxSystemNameBytes = NAME_MAX;
inline constexpr std::size_t kMaxTargetNameBytes = NAME_MAX - std::string_view(".log").size();
inline constexpr std::size_t kMaxBenchmarkNameBytes =
    NAME_MAX - std::string_view("executions-").size() - std::string_view(".svg").size();

//===-- Settings stored as words --------------------------------------------//

// Each enum's words (what a campaign file, the store and the reports write) are
// in its list: alea::enumName(Design::Duet) is "duet", alea::parseEnum<Design>
// reads one back (alea/enum_names.hpp).

// How the executions of a campaign are ordered and paired (scheduler.hpp,
// docs/campaign.md "Designs"): every execution in one random order
// (unpaired); in blocks holding build i of every system, close together in
// time (interleaved, RMIT: Abedi & Brecht 2017); or a block's executions at
// the same time on disjoint CPUs (duet: Bulej et al. 2020).
#define ALEA_DESIGNS(X)                                                                            \
  X(Unpaired, "unpaired")                                                                          \
  X(Interleaved, "interleaved")                                                                    \
  X(Duet, "duet")
enum class Design { ALEA_DESIGNS(ALEA_ENUMERATOR) };
ALEA_ENUM_NAMES(Design, ALEA_DESIGNS);

// The paired designs pair build i of every system (the analysis uses it).
constexpr bool pairedDesign(Design design) { return design != Design::Unpaired; }

// How several targets enter the experiment: one pool of identical machines
// that share the executions, or machine as the top random level (builds are
// nested in machines: build i runs on target i mod M).
#define ALEA_MACHINES(X)                                                                           \
  X(Pool, "pool")                                                                                  \
  X(Level, "level")
enum class Machines { ALEA_MACHINES(ALEA_ENUMERATOR) };
ALEA_ENUM_NAMES(Machines, ALEA_MACHINES);

//===-- Records -------------------------------------------------------------//

// The machine a campaign ran on (issue 4): CPU model, frequency governor,
// load, ASLR setting, kernel, compiler versions (runner/exec/machine.hpp
// reads it).
struct MachineState {
  std::string hostname;
  std::string cpuModel;
  int cpuCount = 0;
  std::string governor;  // cpu0's scaling governor, "" when cpufreq is absent
  std::string kernel;    // uname -r + -v
  int aslr = -1;         // /proc/sys/kernel/randomize_va_space, -1 unknown
  double load1 = 0;      // 1-minute load average
  std::string compilers; // first line of `<cc> --version` for each compiler
};

// The machine in one phrase, as the reports say it: "host: CPU model, 4 CPUs,
// governor performance, ASLR on" (the kernel and compilers apart).
inline std::string describeMachine(const MachineState &m) {
  return m.hostname + ": " + m.cpuModel + ", " + std::to_string(m.cpuCount) +
         (m.cpuCount == 1 ? " CPU" : " CPUs") +
         (m.governor.empty() ? "" : ", governor " + m.governor) +
         (m.aslr == 0  ? ", ASLR off"
          : m.aslr > 0 ? ", ASLR on"
                       : "");
}

// One measurement after warm-up (or a warm-up one), in store order.
struct MeasurementPoint {
  std::string system, benchmark;
  int build = 0, execution = 0, iteration = 0;
  double value = 0;
};

//===-- Outcomes ------------------------------------------------------------//

// What became of a build; the store's build.status spells it with its name. A failed build (its
// command's status, signal or timeout, or a missing artifact) is recorded and never retried; an
// imported one was made elsewhere (`alea import`). A fault (the build or objects directory cannot
// be written) and a cancelled build are never recorded, so a resumed campaign builds them again;
// nor is a lost one (the target it ran on was lost: it is built again, on another target).
#define ALEA_BUILD_STATUSES(X)                                                                     \
  X(Ok, "ok")                                                                                      \
  X(Failed, "failed")                                                                              \
  X(Imported, "imported")                                                                          \
  X(Fault, "fault")                                                                                \
  X(Cancelled, "cancelled")                                                                        \
  X(Lost, "lost")
enum class BuildStatus { ALEA_BUILD_STATUSES(ALEA_ENUMERATOR) };
ALEA_ENUM_NAMES(BuildStatus, ALEA_BUILD_STATUSES);

// What became of an execution; the store's execution.status spells it with
// its name. Only ok executions give measurements. exit: an exit
// status other than the expected one; signal: killed by a signal; timeout:
// killed by the runner; spawn: the process could not be started; iterations:
// no measurement could be read from it, or none after the warm-up; build:
// its build failed, so no process was run; alone: a duet's execution that a
// partner left running alone (runner/exec/duet.hpp); lost: its unit was lost
// every time it ran on targets (the session died with it).
#define ALEA_EXECUTION_STATUSES(X)                                                                 \
  X(Ok, "ok")                                                                                      \
  X(Exit, "exit")                                                                                  \
  X(Signal, "signal")                                                                              \
  X(Timeout, "timeout")                                                                            \
  X(Spawn, "spawn")                                                                                \
  X(Iterations, "iterations")                                                                      \
  X(Build, "build")                                                                                \
  X(Alone, "alone")                                                                                \
  X(Lost, "lost")
enum class ExecutionStatus { ALEA_EXECUTION_STATUSES(ALEA_ENUMERATOR) };
ALEA_ENUM_NAMES(ExecutionStatus, ALEA_EXECUTION_STATUSES);

// How a process ended and what it used, as wait4(2) tells: the executor
// measures it (runner/exec, ExecutionOutput), the store records it with the
// execution (runner/store, ExecutionRecord): one set of fields for both, so
// nothing is copied field by field or renamed on the way.
struct ProcessEnd {
  int exitCode = 0; // valid when signal == 0 (and the runner did not kill it)
  int signal = 0;   // terminating signal, 0 if it exited
  double wallSeconds = 0, userSeconds = 0, sysSeconds = 0;
  std::int64_t maxRssKib = 0;
};

// One execution whose status is not ok, as recorded by the runner. The system
// and build index come from its plan entry, so the executions of a failed
// build are named too.
struct FailedExecution {
  std::string system, benchmark;
  int buildIndex = -1; // -1: unknown (the build itself failed)
  int executionIndex = 0;
  ExecutionStatus status = ExecutionStatus::Exit; // never Ok
  int exitCode = 0;
  int signal = 0;
  std::string error;
  std::string stderrTail;
};

// The executions of one benchmark on one system that left processes running.
struct LeftoverGroup {
  std::string system, benchmark;
  int count = 0;       // executions
  std::string example; // the first one's record in text order ("killed pid 12 (x)", ...)
  bool kept = false;   // some were left running, not killed (leftovers = "keep")
};

// A build of a system: the layout draw it is (its seed) and what came of it.
// The campaign loop records it (runner::BuildRecord adds the store's ids, the
// factors, the directory and the artifacts), the store's reads return it and
// the report names the builds by it (model::BuildInfo adds what the binary
// tells).
struct Build {
  std::string system;
  int buildIndex = 0;
  std::uint64_t seed = 0;
  BuildStatus status = BuildStatus::Ok;
  double seconds = 0;
  std::string fingerprint; // `alea layout` fingerprint ("" when unknown)
  std::string binaryHash;  // of the first artifact ("" when none)
  std::string logTail;
};

// When an execution ran and what the machine did around it (the noise
// diagnosis; docs/store.md): as the executor measures it (ExecutionResult),
// the store records it (ExecutionRecord) and the report reads it
// (ExecutionConditions): one set of fields for the three.
struct RunConditions {
  double startedAt = 0;                   // epoch seconds; 0 = unknown
  std::optional<double> otherLoad;        // CPUs busy with other processes around it
  std::optional<double> cpuMhz;           // its first CPU's frequency, when the kernel shows it
  std::optional<std::int64_t> migrations; // between CPUs (/proc/PID/sched), when shown
};

// One successful execution with the conditions it ran under (the noise
// diagnosis); stores before schema 4 have none.
struct ExecutionConditions : RunConditions {
  std::string system, benchmark;
  int build = 0, execution = 0;
  double value = 0; // mean of its measurements after warm-up
  std::int64_t envPadding = 0;
  std::optional<double> overlap; // duet: share of its time its partner ran too
  std::optional<std::int64_t> involuntarySwitches;
  std::string cpus; // "" = any CPU
  bool aslrOff = false, ranBusy = false;
};

// How a duet kept its partners together (runner/exec/duet.hpp): a barrier
// before each iteration (programs that write <alea/iter.h> records), or by
// restarting the partner that ended first until every measured execution
// had ended (whole-process executions, Bulej et al. 2020).
#define ALEA_DUET_SYNCS(X)                                                                         \
  X(Barrier, "barrier")                                                                            \
  X(Overlap, "overlap")
enum class DuetSync { ALEA_DUET_SYNCS(ALEA_ENUMERATOR) };
ALEA_ENUM_NAMES(DuetSync, ALEA_DUET_SYNCS);

// The executions of a duet kept together by one scheme: how many, the
// barriers they passed, the restarts that kept them company, and how many a
// partner left alone (status Alone).
struct DuetSyncRow {
  DuetSync sync = DuetSync::Barrier;
  std::int64_t executions = 0, barriers = 0, restarts = 0, alone = 0;
};

} // namespace alea

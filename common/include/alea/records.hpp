// The records of a campaign, one type per concept (issue 22): the design and
// the machines setting with their one spelling each, the machine state, a
// build, a measurement, a failed execution, a group of executions that left
// processes running, an execution's conditions and a duet's synchronisation.
// The runner writes them (runner/store), the store's reads return them, and
// the report value (report/model) is assembled from them, so no component
// copies one into its own look-alike field by field. Plain data and their
// names only: nothing here reads a machine, a file or a store.
#pragma once

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

// How the executions of a campaign are ordered and paired (scheduler.hpp,
// docs/campaign.md "Designs"): every execution in one random order
// (unpaired); in blocks holding build i of every system, close together in
// time (interleaved, RMIT: Abedi & Brecht 2017); or a block's executions at
// the same time on disjoint CPUs (duet: Bulej et al. 2020).
enum class Design { Unpaired, Interleaved, Duet };

// The word a campaign file and the store spell a design with.
constexpr const char *designName(Design design) {
  switch (design) {
  case Design::Unpaired:
    return "unpaired";
  case Design::Interleaved:
    return "interleaved";
  case Design::Duet:
    return "duet";
  }
  return "unpaired";
}

constexpr std::optional<Design> parseDesign(std::string_view name) {
  for (Design d : {Design::Unpaired, Design::Interleaved, Design::Duet})
    if (name == designName(d))
      return d;
  return std::nullopt;
}

// The paired designs pair build i of every system (the analysis uses it).
constexpr bool pairedDesign(Design design) { return design != Design::Unpaired; }

// How several targets enter the experiment: one pool of identical machines
// that share the executions, or machine as the top random level (builds are
// nested in machines: build i runs on target i mod M).
enum class Machines { Pool, Level };

constexpr const char *machinesName(Machines machines) {
  return machines == Machines::Pool ? "pool" : "level";
}

constexpr std::optional<Machines> parseMachines(std::string_view name) {
  for (Machines m : {Machines::Pool, Machines::Level})
    if (name == machinesName(m))
      return m;
  return std::nullopt;
}

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

// One execution whose status is not ok, as recorded by the runner. The system
// and build index come from its plan entry, so the executions of a failed
// build are named too.
struct FailedExecution {
  std::string system, benchmark;
  int buildIndex = -1; // -1: unknown (the build itself failed)
  int executionIndex = 0;
  std::string status; // "exit" | "signal" | "timeout" | "spawn" | "iterations"
                      // | "build"
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

// A build as the store reads it back for the report (the campaign loop
// writes a runner::BuildRecord, with its ids and artifacts).
struct StoredBuild {
  std::string system;
  int buildIndex = 0;
  std::string seed;   // as stored: "0x" + 16 hex digits
  std::string status; // "ok" | "failed" | "imported"
  double seconds = 0;
  std::string fingerprint; // `alea layout` fingerprint ("" when unknown)
  std::string binaryHash;  // of the first artifact ("" when none)
  std::string logTail;
};

// One successful execution with the conditions it ran under (the noise
// diagnosis); stores before schema 4 have none.
struct ExecutionConditions {
  std::string system, benchmark;
  int build = 0, execution = 0;
  double value = 0;     // mean of its measurements after warm-up
  double startedAt = 0; // epoch seconds
  std::int64_t envPadding = 0;
  std::optional<double> otherLoad, cpuMhz;
  std::optional<double> overlap; // duet: share of its time its partner ran too
  std::optional<std::int64_t> migrations, involuntarySwitches;
  std::string cpus; // "" = any CPU
  bool aslrOff = false, ranBusy = false;
};

// The executions of a duet kept together by one scheme ("barrier" or
// "overlap"): how many, the barriers they passed, the restarts that kept
// them company, and how many a partner left alone (status "alone").
struct DuetSyncRow {
  std::string sync;
  std::int64_t executions = 0, barriers = 0, restarts = 0, alone = 0;
};

} // namespace alea

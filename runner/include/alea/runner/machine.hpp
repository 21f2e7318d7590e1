// Machine state recorded with every campaign (issue 4): CPU model, frequency
// governor, load, ASLR setting, kernel, compiler versions. Read once at the start
// (full) and re-checked cheaply between executions; a change in a stable field
// (governor, ASLR, kernel, CPU count) is recorded in the store and reported.
#pragma once

#include <string>
#include <vector>

namespace alea::runner {

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

// Reads everything (spawns the compilers for their versions: a few ms each).
MachineState readMachineState(const std::vector<std::string> &compilers);

// Re-reads only the cheap fields (governor, ASLR, load); the rest is copied.
MachineState recheckMachineState(const MachineState &previous);

// Names of the stable fields that differ ("governor", "aslr", ...); load alone
// never counts as a change, except when it rises by more than one CPU's worth
// above the starting load ("load").
std::vector<std::string> machineChanges(const MachineState &before, const MachineState &after);

// First line of `<tool> --version`, or "" when the tool cannot be run.
std::string toolVersion(const std::string &tool);

} // namespace alea::runner

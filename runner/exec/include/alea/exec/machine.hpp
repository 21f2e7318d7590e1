// Machine state recorded with every campaign (issue 4): CPU model, frequency
// governor, load, ASLR setting, kernel, compiler versions. Read once at the start
// (full) and re-checked cheaply between executions; a change in a stable field
// (governor, ASLR, kernel, CPU count) is recorded in the store and reported.
#pragma once

#include "alea/records.hpp"

#include <optional>
#include <string>
#include <vector>

namespace alea::runner {

// Reads everything (spawns the compilers for their versions: a few ms each).
MachineState readMachineState(const std::vector<std::string> &compilers);

// Re-reads only the cheap fields (governor, ASLR, load); the rest is copied.
MachineState recheckMachineState(const MachineState &previous);

// Names of the stable fields that differ ("governor", "aslr", ...); load alone
// never counts as a change, except when it rises by more than one CPU's worth
// above the starting load ("load").
std::vector<std::string> machineChanges(const MachineState &before, const MachineState &after);

// First line of `<tool> --version`, or "" when the tool cannot be run. Asked
// once per tool and process (the answer is cached).
std::string toolVersion(const std::string &tool);

// The same answer without the per-process memo: from the persistent cache
// ($XDG_CACHE_HOME or ~/.cache, alea/tool-versions) when the tool's file is
// unchanged (same path, resolved file, device, inode, size and mtime), else
// by running it and recording the answer.
std::string askToolVersion(const std::string &tool);

// The compiler that `tool` runs in a build with environment `env`: for alea's
// own wrappers (alea-cc, alea-c++) the real compiler they resolve (ALEA_CC /
// ALEA_CXX of `env`, else the default on PATH), whose --version they would
// answer with; any other tool is itself.
std::string compilerBehind(const std::string &tool, const std::vector<std::string> &env);

// Starts asking these tools for their versions concurrently, each on its own
// thread (a compiler's --version costs tens of ms of start-up); toolVersion()
// then waits for the answer instead of asking again.
void prefetchToolVersions(const std::vector<std::string> &tools);

// Waits until every version query started so far has finished, so that none
// runs concurrently with a build or a measured execution.
void waitToolVersions();

// The CPU accounting of the machine and of alea at one moment.
//  - busy: seconds of CPU time spent not idle, summed over the online CPUs,
//    from an arbitrary origin (only differences mean something): online CPUs
//    x steady - (idle + iowait) of /proc/stat's first line. Why idle and not
//    the user/system fields: on a NO_HZ kernel (every distribution's) the
//    kernel keeps idle and iowait in nanoseconds from its idle clock (exact,
//    including the idle period under way), while user and system are sampled
//    at each scheduler tick; /proc/stat shows both in USER_HZ units (10 ms),
//    so a difference of two readings is off by less than 2 of them, without
//    bias. /proc/schedstat (per-CPU nanosecond run time) would be finer but
//    needs CONFIG_SCHEDSTATS, which Debian's cloud and many VM kernels lack.
//  - own: alea's own CPU time, every thread (CLOCK_PROCESS_CPUTIME_ID,
//    nanoseconds): alea's work around an execution (fork, wait4, the store)
//    is not other processes' load.
//  - steady: the steady clock (CLOCK_MONOTONIC, the idle clock's own).
//  - exactBusy: the CPU time of every task of the machine in nanoseconds,
//    where the kernel keeps it: the root cgroup's cpuacct.usage (cgroup v1)
//    or cpu.stat usage_usec (cgroup v2; microseconds). Idle is no task, so
//    this is the busy time exactly; with it a short execution's other load
//    is not the rounding of two 10 ms readings (issue 19: executions of
//    0.1 s got loads of +-0.2 CPU, clipped at 0, so that the shorter ones
//    looked busier). None where neither file is there.
struct CpuTimes {
  bool ok = false;
  double busy = 0, steady = 0, own = 0; // seconds
  std::optional<double> exactBusy;      // seconds, from an arbitrary origin
};
CpuTimes readCpuTimes();

// The root cgroup's CPU time in seconds from the text of cpuacct.usage
// (nanoseconds) or, when that is empty, of cpu.stat (its usage_usec line).
std::optional<double> rootCgroupCpuSeconds(const std::string &cpuacctUsage,
                                           const std::string &cpuStat);

// The same from the text of /proc/stat read at `steady` with alea's CPU time
// `own`; `ticksPerSecond` = USER_HZ (sysconf(_SC_CLK_TCK)). Not ok when the
// text has no "cpu" line with idle and iowait or no "cpuN" line.
CpuTimes cpuTimesFrom(const std::string &procStat, double steady, double own,
                      double ticksPerSecond);

// The load of OTHER processes between two readings, in CPUs busy on average:
// (busy time - alea's own CPU time - `childCpuSeconds`, the measured
// processes' exact user + sys time from wait4, which includes the benchmark's
// waited-for descendants) / elapsed time, at least 0. The busy time is the
// exact one when both readings have it, else /proc/stat's. None when a
// reading failed or the interval is shorter than kOtherLoadMinSeconds
// (/proc/stat: its resolution of 2 USER_HZ ticks, 20 ms, would then be worth
// more than 0.4 CPU) or kExactLoadMinSeconds (exact: 1 ms).
inline constexpr double kOtherLoadMinSeconds = 0.05;
inline constexpr double kExactLoadMinSeconds = 0.001;
std::optional<double> otherLoad(const CpuTimes &before, const CpuTimes &after,
                                double childCpuSeconds);

// The current frequency (MHz) of the first of `cpus` (cpu0 when empty), from
// cpufreq's scaling_cur_freq; none when the kernel does not show it (VMs).
std::optional<double> cpuMhz(const std::vector<int> &cpus);

} // namespace alea::runner

// Checks of a parsed campaign before anything is created or built (the
// reliability issue, item 10): the placeholders each command, workdir, stdin
// and env value may use, the artifacts `{artifact:PATH}` names, the files and
// directories the benchmarks need, and the CPUs of this machine. Without them
// such a mistake shows only per execution, after every build ran, as a failure
// of every execution. The error is one campaign-file message
// `file:line:column: expectation` at the offending value, like the parser's.
// The parser stays pure (no file system, no machine); what depends on the
// machine comes in as MachineFacts. The checks: docs/campaign.md.
#pragma once

#include "alea/config/config.hpp"
#include "alea/config/error.hpp"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace alea::runner {

// What opening a counter gave on this machine (a probe: exec/metric_facts.hpp).
struct CounterFacts {
  int error = 0;               // errno of perf_event_open(2); 0 = it opened
  std::optional<int> paranoid; // /proc/sys/kernel/perf_event_paranoid; none = unreadable
};

// What running cachegrind with a cache geometry gave on this machine.
struct SimulatorFacts {
  SimCache cache;
  std::string problem; // "" = it ran; else why not ("valgrind is not on PATH", its error)
};

// What the checks need to know about the machine that runs the campaign.
struct MachineFacts {
  std::vector<int> cpus; // CPUs this process may run on, ascending; empty = unknown
  // The counters and simulated caches the campaign's metrics need, probed;
  // a metric whose facts are absent is not checked (not probed).
  std::map<Metric, CounterFacts> counters = {};
  std::vector<SimulatorFacts> simulators = {};
};

// Why `metric` cannot be counted where opening its counter gave `facts`, as
// the reason and what to use instead ("perf_event_open: No such file or
// directory (no PMU ...); use sim-instructions (Valgrind) or task-clock");
// "" when it can. A permission error names perf_event_paranoid: user-space
// counting of one's own processes needs it at 2 or below, a kernel-side
// event (context-switches) at 1 or below, unless alea has CAP_PERFMON.
std::string counterProblem(Metric metric, const CounterFacts &facts);

// "0-3,6": CPU sets as the kernel lists them (/sys/devices/system/cpu/online).
std::string cpuList(const std::vector<int> &cpus);

// This process's facts: the CPUs that are online and in its affinity mask.
MachineFacts readMachineFacts();

// The CPU sets of a duet, one per system: duet_cpus as written, else `cpus`
// (or, without it, `available`: the CPUs alea may run on) split in order into
// as many equal contiguous sets as there are systems (the rest unused). Empty
// when there are fewer CPUs than systems.
std::vector<std::vector<int>> duetCpuSets(const CampaignConfig &cfg,
                                          const std::vector<int> &available);

// The first problem of `cfg` on a machine with `machine`'s facts, as
// `file:line:column: expectation`; success when there is none.
Status validateCampaign(const CampaignConfig &cfg, const MachineFacts &machine);

} // namespace alea::runner

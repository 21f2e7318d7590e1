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

#include <string>
#include <vector>

namespace alea::runner {

// What the checks need to know about the machine that runs the campaign.
struct MachineFacts {
  std::vector<int> cpus; // CPUs this process may run on, ascending; empty = unknown
};

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

// The campaign loop (issue 4): open or resume the store, record the machine,
// build every system `builds` times with fresh layout seeds, plan the seeded
// random interleaving of executions, then run each pending execution through
// the Executor seam and commit its completion record together with its
// measurements in one transaction. Failures (build, spawn, exit status,
// signal, timeout, unparsable iterations) are recorded, never stored as data,
// and the campaign goes on. Running it again on the same directory resumes.
#pragma once

#include "alea/config/config.hpp"
#include "alea/exec/executor.hpp"
#include "alea/exec/progress.hpp"
#include "alea/store/campaign_dir.hpp"
#include "alea/store/store.hpp"

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace alea::runner {

struct CampaignOptions {
  std::string dir;                  // campaign directory (created)
  bool requireExisting = false;     // --resume: the store must exist
  std::string toolDir;              // directory of alea-cc / alea-c++ / alea-ld
  std::vector<std::string> baseEnv; // environment of builds and benchmarks
  std::int64_t maxExecutions = -1;  // stop after this many (tests); -1 = all
  bool recheckMachine = true;       // cheap machine re-check between executions
  const std::atomic<bool> *cancel = nullptr;
  // The alea binary whose helper (`alea __target`) runs on targets; "" =
  // this process's own executable.
  std::string aleaPath;
  // Run levels that plan more than kMaxPlannedExecutions (checkPlanSize).
  bool force = false;
  // Shown (Progress::message) once the directory's lock is held and its store
  // is open: a run refused there prints its error alone.
  std::string startMessage;
  // The caller has checked the campaign with validateCampaign (validate.hpp)
  // on this machine: `alea run` does, before its campaign line, so that a
  // mistake is its one line of output. runCampaign then does not check again.
  bool validated = false;
};

struct CampaignOutcome {
  StoreSummary summary;
  std::vector<std::string> warnings; // failures, identical layouts, machine changes
  bool complete = false;             // every planned execution has a record
  bool cancelled = false;
  std::string storePath;
};

// The default campaign directory for a campaign file: `<file without .toml>.alea`
// next to it.
std::string defaultCampaignDir(const std::string &campaignFile);

// The levels actually run: the counts of the config, or, for "auto" levels,
// what the planner derived from the pilot (recorded in meta as levels.*).
struct LevelCounts {
  int builds = 1, executions = 1, iterations = 1, warmup = 0;
};

Expected<CampaignOutcome> runCampaign(const CampaignConfig &config, const CampaignOptions &options,
                                      Executor &executor, Progress &progress);

} // namespace alea::runner

// The run of a campaign file, as `alea run` does it and `alea compare` after
// writing its campaign file: parse and validate, run (or resume) through
// alea::runner::runCampaign with a progress bar and Ctrl-C handling, print the
// report, gate on --fail-on. Returns the command's Outcome.
#pragma once

#include "command.hpp"

#include "alea/model/campaign_report.hpp"

#include <functional>
#include <string>

namespace alea::cli {

struct RunOptions {
  std::string campaign;
  std::string dir;
  bool resume = false;
  bool noReport = false;
  bool force = false;
  std::string format = "text";
  std::string untilHalfWidth; // adaptive: "2%" or "0.02"
  double timeBudget = 0;      // adaptive: seconds of machine time
  int maxBuilds = 0;          // adaptive: 0 = the file's (or 100)
  int buildJobs = 0;          // builds at once (-j); 0 = the file's build_jobs
  bool buildCache = false;    // --build-cache: on, whatever the file says
  std::string failOn;         // the CI gate (gate.hpp); "" = none
  // Instead of printing the report and gating: the caller's use of the
  // campaign's data (`alea history`), given the run's status (0 or
  // kExitFailures); its outcome is the command's.
  std::function<Outcome(const alea::model::CampaignData &, int status)> onReport;
};

Outcome runCampaignFile(const RunOptions &opts);

} // namespace alea::cli

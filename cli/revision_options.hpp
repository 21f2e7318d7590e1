// The options `alea compare A B` and `alea history` share (docs/compare.md,
// docs/history.md): how a revision is built and run, where the comparison
// lives, and the `[compare]` table of a checked-in alea.toml that stands in
// for the flags a command line leaves out.
#pragma once

#include "command.hpp"
#include "run_command.hpp"

#include "alea/campaign/compare.hpp"

#include <memory>

namespace alea::cli {

struct RevisionOptions {
  alea::runner::CompareRequest request;
  RunOptions run;     // the run of the campaign it writes
  std::string config; // --config: the file with the [compare] table ("" = alea.toml, found)
};

// Adds -C/--repo, --build, --run, --artifact, --measure, --builds, --executions, --dir,
// -j/--build-jobs and --config to `sub`; `defaultBuilds` and `defaultExecutions` for
// the help text (the values are set by applyCompareTable).
void addRevisionOptions(CLI::App &sub, RevisionOptions &o, int defaultBuilds,
                        int defaultExecutions);

// After parsing: every setting the command line left out is taken from the
// [compare] table of --config or of the alea.toml found from the repository
// (findCompareFile), if any, else from the defaults (builds and executions
// as given, --until-half-width etc. when `adaptive`). kExitOk, or the error.
Outcome applyCompareTable(const CLI::App &sub, RevisionOptions &o, int defaultBuilds,
                          int defaultExecutions, bool adaptive);

// Sets `sub`'s callback as `alea bisect` and `alea history` want it:
// applyCompareTable, then run(*o); the first error, or run's outcome, is the
// command's (finish).
template <class Options, class Run>
void runAfterCompareTable(CLI::App &sub, std::shared_ptr<Options> o, int defaultBuilds,
                          int defaultExecutions, bool adaptive, Run run) {
  sub.callback([&sub, o, defaultBuilds, defaultExecutions, adaptive, run] {
    if (auto s = applyCompareTable(sub, *o, defaultBuilds, defaultExecutions, adaptive); !s)
      finish(s);
    else
      finish(run(*o));
  });
}

// The run of the campaign `plan` wrote, with the command line's run options.
RunOptions planRun(const RevisionOptions &o, const alea::runner::ComparePlan &plan);

} // namespace alea::cli

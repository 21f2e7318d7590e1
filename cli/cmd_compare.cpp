// `alea compare A B --build CMD --run [NAME=]CMD ...` (or `--cmd A --cmd B`): is B faster
// than A? Two git revisions (or directories) built with the wrappers under
// seeds derived from them, run in the default design, adaptive to a target
// precision within a time budget, reported (docs/compare.md). Option parsing
// only: the campaign is written by alea::runner::prepareCompare
// (runner/campaign/include/alea/campaign/compare.hpp) and run as `alea run`
// runs a campaign file (run_command.hpp).
#include "command.hpp"
#include "gate.hpp"
#include "run_command.hpp"

#include "alea/campaign/compare.hpp"
#include "alea/config/config.hpp"
#include "alea/report/escape.hpp"

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

namespace {

struct CompareOptions {
  alea::runner::CompareRequest request;
  alea::cli::RunOptions run; // the run of the campaign it writes
};

alea::cli::Outcome runCompare(const CompareOptions &o) {
  const bool commands = !o.request.commands.empty();
  if (!commands && (o.request.a.empty() || o.request.b.empty()))
    return alea::Error{"compare: give two revisions or directories (A B), or --cmd twice",
                       alea::ErrorKind::Usage};
  auto plan = commands ? alea::runner::prepareCommandCompare(o.request)
                       : alea::runner::prepareCompare(o.request);
  if (!plan)
    return alea::Error{plan.error(), plan.errorKind()};
  std::fprintf(stderr, "alea: %s (baseline) vs %s: campaign file %s\n",
               alea::report::plainText(plan->baseline).c_str(),
               alea::report::plainText(plan->candidate).c_str(),
               alea::report::plainText(plan->campaignFile).c_str());
  alea::cli::RunOptions run = o.run;
  if (commands) { // a fixed number of executions: the adaptive batches add builds
    run.untilHalfWidth.clear();
    run.timeBudget = 0;
    run.maxBuilds = 0;
  }
  run.campaign = plan->campaignFile;
  run.dir = plan->campaignDir;
  return alea::cli::runCampaignFile(run);
}

void setupCompare(CLI::App &app) {
  auto o = std::make_shared<CompareOptions>();
  o->run.untilHalfWidth = "2%";
  o->run.timeBudget = 300;
  o->run.maxBuilds = 30;
  auto *sub = app.add_subcommand(
      "compare", "Is B faster than A? Build two git revisions (or directories) with randomized "
                 "layouts, run them interleaved until the ratio is known to --until-half-width "
                 "or the --time-budget is spent, and report (docs/compare.md)");
  auto *a = sub->add_option("a", o->request.a,
                            "the baseline: a git revision (HEAD~1, main, a hash) or a "
                            "directory");
  auto *b = sub->add_option("b", o->request.b, "the candidate: a git revision or a directory");
  auto *cmd = sub->add_option(
      "--cmd", o->request.commands,
      "instead of A and B: a command to compare as it is, no build ('NAME=COMMAND' or "
      "'COMMAND', /bin/sh in the current directory; twice or more, the first is the baseline)");
  cmd->excludes(a)->excludes(b);
  sub->add_option("-C,--repo", o->request.repo,
                  "the git repository the revisions are of (default: the current directory)");
  sub->add_option("--build", o->request.build,
                  "shell command that builds a revision in a copy of its files, with $CC/$CXX "
                  "(e.g. 'make -j2')")
      ->excludes(cmd);
  sub->add_option("--run", o->request.runs,
                  "a benchmark: 'NAME=COMMAND' or 'COMMAND', shell, run where it was built "
                  "(repeat for several)")
      ->excludes(cmd);
  sub->add_option("--measure", o->request.measure,
                  "what a run's value is: none (its wall time, the default), regex:REGEX (a "
                  "number the program prints), gbench or records (docs/measure.md)");
  sub->add_option("--builds", o->request.builds, "builds per revision to start with (default 4)")
      ->check(CLI::Range(2, 1000));
  sub->add_option("--executions", o->request.executions,
                  "executions per build (default 3); with --cmd, runs of each command (default "
                  "30)")
      ->check(CLI::Range(1, 100000));
  sub->add_option("--dir", o->request.dir,
                  "where the comparison lives (default: $XDG_CACHE_HOME/alea/compare/<key>); "
                  "the same command again resumes it");
  sub->add_option("--until-half-width", o->run.untilHalfWidth,
                  "add builds until every ratio's CI is within this relative half-width "
                  "(default 2%; not with --cmd, which runs --executions)")
      ->excludes(cmd);
  sub->add_option("--time-budget", o->run.timeBudget,
                  "stop adding builds after this many seconds of machine time (default 300; not "
                  "with --cmd)")
      ->check(CLI::Range(1.0, alea::runner::kMaxSeconds))
      ->excludes(cmd);
  sub->add_option("--max-builds", o->run.maxBuilds,
                  "at most this many builds per revision "
                  "(default 30)")
      ->check(CLI::Range(2, 1000));
  sub->add_option("--format", o->run.format,
                  "report format: text (default), md, json, csv, "
                  "html or latex");
  alea::cli::addFailOnOption(*sub, o->run.failOn);
  sub->callback([o, sub] {
    if (!o->request.commands.empty()) {
      if (sub->count("--executions") == 0)
        o->request.executions = 30;
      o->request.workdir = std::filesystem::current_path().string();
    }
    alea::cli::finish(runCompare(*o));
  });
}

} // namespace

ALEA_COMMAND("compare", setupCompare);

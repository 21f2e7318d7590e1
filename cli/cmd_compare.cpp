// `alea compare A B --build CMD --run [NAME=]CMD ...` (or `--cmd A --cmd B`): is B faster
// than A? Two git revisions (or directories) built with the wrappers under
// seeds derived from them, run in the default design, adaptive to a target
// precision within a time budget, reported (docs/compare.md). Option parsing
// only: the campaign is written by alea::runner::prepareCompare
// (runner/campaign/include/alea/campaign/compare.hpp) and run as `alea run`
// runs a campaign file (run_command.hpp).
#include "command.hpp"
#include "gate.hpp"
#include "revision_options.hpp"
#include "run_command.hpp"

#include "alea/campaign/compare.hpp"
#include "alea/config/config.hpp"
#include "alea/report/escape.hpp"

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

namespace {

using CompareOptions = alea::cli::RevisionOptions;

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
  alea::cli::RunOptions run = alea::cli::planRun(o, *plan);
  return alea::cli::runCampaignFile(run);
}

void setupCompare(CLI::App &sub) {
  auto o = std::make_shared<CompareOptions>();
  auto *a = sub.add_option("a", o->request.a,
                           "the baseline: a git revision (HEAD~1, main, a hash) or a "
                           "directory");
  auto *b = sub.add_option("b", o->request.b, "the candidate: a git revision or a directory");
  auto *cmd = sub.add_option(
      "--cmd", o->request.commands,
      "instead of A and B: a command to compare as it is, no build ('NAME=COMMAND' or "
      "'COMMAND', /bin/sh in the current directory; twice or more, the first is the baseline; "
      "10 executions each to start, then more until --until-half-width or --time-budget)");
  cmd->excludes(a)->excludes(b);
  alea::cli::addRevisionOptions(sub, *o, 4, 3);
  for (const char *flag : {"--build", "--run", "--artifact", "--builds", "--config"})
    sub.get_option(flag)->excludes(cmd);
  sub.add_option("--until-half-width", o->run.untilHalfWidth,
                 "add builds (with --cmd: executions) until every ratio's CI is within this "
                 "relative half-width (default 2%)");
  sub.add_option("--time-budget", o->run.timeBudget,
                 "stop adding them after this many seconds of machine time (default 300; with "
                 "--cmd 60)")
      ->check(CLI::Range(1.0, alea::runner::kMaxSeconds));
  sub.add_option("--max-builds", o->run.maxBuilds,
                 "at most this many builds per revision "
                 "(default 30)")
      ->check(CLI::Range(2, 1000))
      ->excludes(cmd);
  sub.add_option("--max-executions", o->run.maxBuilds,
                 "with --cmd: at most this many executions per command (default 1000)")
      ->check(CLI::Range(2, 1000))
      ->needs(cmd);
  sub.add_option("--format", o->run.format,
                 "report format: text (default), md, json, csv, "
                 "html or latex");
  alea::cli::addFailOnOption(sub, o->run.failOn);
  sub.callback([o, &sub] {
    if (!o->request.commands.empty()) {
      // Adaptive as a comparison of revisions is, in executions: 10 to start,
      // then batches until +-2% or a minute of machine time.
      if (sub.count("--executions") == 0)
        o->request.executions = 10;
      if (sub.count("--until-half-width") == 0)
        o->run.untilHalfWidth = "2%";
      if (sub.count("--time-budget") == 0)
        o->run.timeBudget = 60;
      if (sub.count("--max-executions") == 0)
        o->run.maxBuilds = 1000;
      o->request.workdir = std::filesystem::current_path().string();
    } else if (auto s = alea::cli::applyCompareTable(sub, *o, 4, 3, true); !s) {
      alea::cli::finish(s);
      return;
    }
    alea::cli::finish(runCompare(*o));
  });
}

} // namespace

ALEA_COMMAND("compare",
             "Is B faster than A? Build two git revisions (or directories) with randomized "
             "layouts, run them interleaved until the ratio is known to --until-half-width "
             "or the --time-budget is spent, and report; or compare commands as they are "
             "(--cmd) (docs/compare.md)",
             setupCompare);

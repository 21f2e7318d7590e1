// The options `alea compare` and `alea history` share (revision_options.hpp).
#include "revision_options.hpp"

#include <cstdio>

namespace alea::cli {

void addRevisionOptions(CLI::App &sub, RevisionOptions &o, int defaultBuilds,
                        int defaultExecutions) {
  sub.add_option("-C,--repo", o.request.repo,
                 "the git repository the revisions are of (default: the current directory)");
  sub.add_option("--build", o.request.build,
                 "shell command that builds a revision in a copy of its files, with $CC/$CXX "
                 "(e.g. 'make -j2'); default: the [compare] table's");
  sub.add_option("--run", o.request.runs,
                 "a benchmark: 'NAME=COMMAND' or 'COMMAND', shell, run where it was built "
                 "(repeat for several); default: the [compare] table's");
  sub.add_option("--artifact", o.request.artifacts,
                 "a file the build makes (relative to its directory: build/prog), kept and its "
                 "layout checked, besides the programs the runs start with (repeat for several); "
                 "default: the [compare] table's artifacts");
  sub.add_option("--measure", o.request.measure,
                 "what a run's value is: wall (its wall time, the default), cpu, user, sys, "
                 "rss, a counter (task-clock, instructions, ...), a simulated metric "
                 "(sim-instructions, sim-cycles, ...), regex:REGEX (a number the program "
                 "prints), gbench or records (docs/measure.md); several, the decision on "
                 "the first: 'sim-cycles,wall' or 'records,sim-cycles'");
  sub.add_option("--builds", o.request.builds,
                 "builds per revision (default " + std::to_string(defaultBuilds) + ")")
      ->check(CLI::Range(2, 1000));
  sub.add_option("--executions", o.request.executions,
                 "executions per build (default " + std::to_string(defaultExecutions) + ")")
      ->check(CLI::Range(1, 100000));
  sub.add_option("--dir", o.request.dir,
                 "where it lives (default: under $XDG_CACHE_HOME/alea); the same command again "
                 "resumes it");
  sub.add_option("-j,--build-jobs", o.run.buildJobs,
                 "make this many builds at once (default: one per CPU)")
      ->check(CLI::Range(1, 1024));
  sub.add_flag("--build-cache", o.run.buildCache,
               "reuse each compile's work up to the layout pass across the builds (the same "
               "objects, byte for byte)");
  sub.add_option("--config", o.config,
                 "the file whose [compare] table gives what the flags leave out (default: "
                 "alea.toml in the repository, if there is one)");
}

Outcome applyCompareTable(const CLI::App &sub, RevisionOptions &o, int defaultBuilds,
                          int defaultExecutions, bool adaptive) {
  const std::string file =
      o.config.empty() ? alea::runner::findCompareFile(o.request.repo) : o.config;
  alea::runner::CompareTable t;
  if (!file.empty()) {
    auto read = alea::runner::readCompareTable(file);
    if (!read)
      return Error{read.error()};
    t = std::move(*read);
    if (!t.present && !o.config.empty())
      return Error{file + ": no [compare] table (docs/compare.md)", ErrorKind::Usage};
  }
  auto given = [&](const char *flag) { return sub.count(flag) > 0; };
  if (!given("--build") && t.build)
    o.request.build = *t.build;
  if (!given("--run"))
    o.request.runs = t.runs;
  if (!given("--artifact"))
    o.request.artifacts = t.artifacts;
  if (!given("--measure") && t.measure)
    o.request.measure = *t.measure;
  if (!given("--builds"))
    o.request.builds = t.builds.value_or(defaultBuilds);
  if (!given("--build-cache") && t.buildCache)
    o.run.buildCache = *t.buildCache;
  if (!given("--executions"))
    o.request.executions = t.executions.value_or(defaultExecutions);
  if (adaptive) {
    if (!given("--until-half-width"))
      o.run.untilHalfWidth = t.untilHalfWidth.value_or("2%");
    if (!given("--time-budget"))
      o.run.timeBudget = t.timeBudget.value_or(300);
    if (!given("--max-builds"))
      o.run.maxBuilds = t.maxBuilds.value_or(30);
  }
  if (t.present && (o.request.build.empty() || o.request.runs.empty()))
    return Error{file + ": the [compare] table has no " +
                     (o.request.build.empty() ? "build" : "run") + " command, and no --" +
                     (o.request.build.empty() ? "build" : "run") + " was given",
                 ErrorKind::Usage};
  if (t.present && (!given("--build") || !given("--run")))
    std::fprintf(stderr, "alea: commands from %s\n", file.c_str());
  return kExitOk;
}

RunOptions planRun(const RevisionOptions &o, const alea::runner::ComparePlan &plan) {
  RunOptions run = o.run;
  run.campaign = plan.campaignFile;
  run.dir = plan.campaignDir;
  return run;
}

} // namespace alea::cli

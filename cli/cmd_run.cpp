// `alea run CAMPAIGN.toml [--dir D] [--resume]`: runs (or resumes) a campaign
// and prints its report. Option parsing only; the run is runCampaignFile
// (run_command.hpp).
#include "command.hpp"
#include "gate.hpp"
#include "run_command.hpp"

#include "alea/config/config.hpp"

#include <memory>
#include <string>

namespace {

using alea::cli::RunOptions;

void setupRun(CLI::App &sub) {
  auto opts = std::make_shared<RunOptions>();
  sub.add_option("campaign", opts->campaign, "campaign file (TOML, see docs/campaign.md)")
      ->required();
  sub.add_option("--dir", opts->dir,
                 "campaign directory (default: <campaign file without .toml>.alea next to it)");
  sub.add_option("-j,--build-jobs", opts->buildJobs,
                 "make this many builds at once (default: the campaign's build_jobs, else one "
                 "per CPU); the executions start after the builds")
      ->check(CLI::Range(1, 1024));
  sub.add_flag("--build-cache", opts->buildCache,
               "reuse each compile's work up to the layout pass across the builds (the same "
               "objects, byte for byte; docs/campaign.md, \"Build cache\")");
  sub.add_flag("--resume", opts->resume, "require an existing store in --dir and resume it");
  sub.add_flag("--no-report", opts->noReport, "do not print the report at the end");
  sub.add_flag("--force", opts->force,
               "run levels that plan more than 100000000 executions (refused without it)");
  sub.add_option("--format", opts->format,
                 "report format: text (default), md, json, csv, html or latex");
  sub.add_option("--until-half-width", opts->untilHalfWidth,
                 "adaptive: add builds in batches until every ratio's CI is within this "
                 "relative half-width (e.g. 2%); continues a finished campaign");
  sub.add_option("--time-budget", opts->timeBudget,
                 "adaptive: stop adding builds once the campaign has used this many seconds "
                 "of machine time")
      ->check(CLI::Validator(
          [](std::string &text) {
            // As the file's time_budget: finite, > 0, at most kMaxSeconds
            // (CLI::PositiveNumber lets "nan" through).
            double v = 0;
            if (!CLI::detail::lexical_cast(text, v) || !(v > 0 && v <= alea::runner::kMaxSeconds))
              return "expected seconds > 0 and at most " +
                     std::to_string(static_cast<long long>(alea::runner::kMaxSeconds)) + ", not " +
                     text;
            return std::string();
          },
          "SECONDS"));
  sub.add_option("--max-builds", opts->maxBuilds, "adaptive: at most this many builds per system")
      ->check(CLI::Range(2, 1000));
  alea::cli::addFailOnOption(sub, opts->failOn);
  sub.callback([opts] { alea::cli::finish(alea::cli::runCampaignFile(*opts)); });
}

} // namespace

ALEA_COMMAND("run",
             "Run a campaign (builds x executions x iterations, stored in SQLite) and report it; "
             "on an existing campaign directory, resume where it stopped",
             setupRun);

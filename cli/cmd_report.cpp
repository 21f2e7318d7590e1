// `alea report STORE`: the report of a campaign store (a campaign directory or
// its campaign.db) in text, Markdown, JSON or CSV. Option parsing only; the
// loading, statistics and rendering are in alea_runner
// (runner/include/alea/runner/report.hpp, docs/measure.md).
#include "command.hpp"

#include "alea/random.hpp"
#include "alea/runner/report.hpp"

#include <cstdio>
#include <memory>
#include <string>

namespace {

struct ReportOptions {
  std::string store;
  std::string format = "text";
  std::size_t replicates = 2000;
  unsigned threads = 0;
  std::string seed;
};

int runReport(const ReportOptions &opts) {
  auto format = alea::analysis::parseFormat(opts.format);
  if (!format)
    throw alea::cli::Error("unknown report format '" + opts.format +
                           "' (expected text, md, json or csv)");
  alea::runner::CampaignReportOptions ro;
  ro.bootstrapReplicates = opts.replicates;
  ro.threads = opts.threads;
  if (!opts.seed.empty()) {
    std::uint64_t seed = 0;
    if (!alea::parseSeed(opts.seed, seed))
      throw alea::cli::Error(
          "--seed expects a decimal or 0x hexadecimal number, got '" +
          opts.seed + "'");
    ro.seed = seed;
  }
  auto data = alea::runner::loadCampaignData(opts.store);
  if (!data)
    throw alea::cli::Error(data.error());
  const auto report = alea::runner::buildCampaignReport(*data, ro);
  std::fputs(alea::runner::formatCampaignReport(report, *format).c_str(),
             stdout);
  return 0;
}

void setupReport(CLI::App &app) {
  auto opts = std::make_shared<ReportOptions>();
  auto *sub = app.add_subcommand(
      "report",
      "Report a campaign store: ratio CIs, decisions, variance shares, layout "
      "sensitivity, planner advice, failures and warnings");
  sub->add_option("store", opts->store,
                  "campaign directory (of `alea run --dir`) or its campaign.db")
      ->required();
  sub->add_option("--format", opts->format, "text (default), md, json or csv");
  sub->add_option("--replicates", opts->replicates,
                  "bootstrap replicates (default 2000)")
      ->check(CLI::Range(std::size_t{1000}, std::size_t{1000000}));
  sub->add_option("--threads", opts->threads,
                  "bootstrap threads (default: all cores)");
  sub->add_option("--seed", opts->seed,
                  "bootstrap seed (default: derived from the campaign seed)");
  sub->callback([opts] { alea::cli::setExitCode(runReport(*opts)); });
}

} // namespace

ALEA_COMMAND("report", setupReport);

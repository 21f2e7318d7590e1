// `alea report STORE`: the report of a campaign store (a campaign directory or
// its campaign.db) in text, Markdown, JSON, CSV, HTML or LaTeX, with the
// figures as SVG files on request. Option parsing only; the loading and
// statistics are in alea_runner (runner/report.hpp), the rendering in
// alea_report (report/render.hpp); docs/report.md.
#include "command.hpp"
#include "gate.hpp"

#include "alea/contract.hpp"
#include "alea/report/render.hpp"
#include "alea/store/campaign_data.hpp"

#include <cstdio>
#include <memory>
#include <string>

namespace {

struct ReportCommandOptions {
  std::string store;
  std::string format = "text";
  std::size_t replicates = 2000;
  unsigned threads = 0;
  std::string seed;
  std::string output;
  std::string plots;
  bool allPairs = false;
  std::string failOn;
};

alea::cli::Outcome runReport(const ReportCommandOptions &opts) {
  auto format = alea::report::parseFormat(opts.format);
  if (!format)
    return alea::Error{"unknown report format '" + opts.format + "' (expected " +
                       alea::report::formatNames() + ")"};
  alea::model::CampaignReportOptions ro;
  ro.bootstrapReplicates = opts.replicates;
  ro.threads = opts.threads;
  ro.allPairs = opts.allPairs;
  if (!opts.seed.empty()) {
    std::uint64_t seed = 0;
    if (!alea::parseSeed(opts.seed, seed))
      return alea::Error{"--seed expects a decimal or 0x hexadecimal number, got '" + opts.seed +
                         "'"};
    ro.seed = seed;
  }
  auto data = alea::runner::loadCampaignData(opts.store);
  if (!data)
    return alea::Error{data.error()};
  const auto report = alea::model::buildCampaignReport(*data, ro);
  if (auto s = alea::report::writeReport(report, *format, opts.output, opts.plots); !s)
    return alea::Error{s.error()};
  return alea::cli::gateStatus(report, opts.failOn, alea::cli::kExitOk);
}

void setupReport(CLI::App &sub) {
  auto opts = std::make_shared<ReportCommandOptions>();
  sub.add_option("store", opts->store,
                 "campaign directory (of `alea run --dir`) or its campaign.db")
      ->required();
  sub.add_option("--format", opts->format, "text (default), md, json, csv, html or latex");
  sub.add_option("-o,--output", opts->output, "write the report to this file (default: stdout)");
  sub.add_option("--plots", opts->plots,
                 "also write every figure as an SVG file in this directory");
  sub.add_option("--replicates", opts->replicates, "bootstrap replicates (default 2000)")
      ->check(CLI::Range(std::size_t{1000}, std::size_t{1000000}));
  sub.add_option("--threads", opts->threads, "bootstrap threads (default: all cores)");
  sub.add_option("--seed", opts->seed, "bootstrap seed (default: derived from the campaign seed)");
  sub.add_flag("--all-pairs", opts->allPairs,
               "three or more systems: compare every pair of systems, not only each with the "
               "baseline (Holm's correction then covers all pairs)");
  alea::cli::addFailOnOption(sub, opts->failOn);
  sub.callback([opts] { alea::cli::finish(runReport(*opts)); });
}

} // namespace

ALEA_COMMAND("report",
             "Report a campaign store: ratio CIs, decisions, variance shares, layout "
             "sensitivity, planner advice, failures and warnings",
             setupReport);

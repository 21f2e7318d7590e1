// `alea history REV... --build CMD --run [NAME=]CMD ...`: a benchmark over
// successive revisions, each revision's ratio to the reference with its
// interval and the commits where a benchmark changed level (docs/history.md).
// Option parsing only: the campaign is written by
// alea::runner::prepareHistory (campaign/compare.hpp), run as `alea run` runs
// a campaign file (run_command.hpp), read by alea::model::buildHistoryReport
// and rendered by alea::report::writeHistory.
#include "command.hpp"
#include "revision_options.hpp"
#include "run_command.hpp"

#include "alea/campaign/compare.hpp"
#include "alea/config/config.hpp"
#include "alea/model/history.hpp"
#include "alea/report/escape.hpp"
#include "alea/report/history.hpp"

#include <cstdio>
#include <memory>
#include <string>

namespace {

struct HistoryOptions : alea::cli::RevisionOptions {
  std::string output = "-";
};

alea::cli::Outcome runHistory(const HistoryOptions &o) {
  auto format = alea::report::parseFormat(o.run.format);
  if (!format)
    return alea::Error{"unknown format '" + o.run.format +
                           "' (expected text, md, json, csv or html)",
                       alea::ErrorKind::Usage};
  if (*format == alea::report::Format::Latex)
    return alea::Error{"a history is written as text, md, json, csv or html, not latex",
                       alea::ErrorKind::Usage};
  auto plan = alea::runner::prepareHistory(o.request);
  if (!plan)
    return alea::Error{plan.error(), plan.errorKind()};
  std::fprintf(stderr, "alea: history of %zu revisions, reference %s: campaign file %s\n",
               plan->revisions.size(), alea::report::plainText(plan->baseline).c_str(),
               alea::report::plainText(plan->campaignFile).c_str());
  std::vector<alea::model::HistoryRevision> revisions;
  for (const auto &r : plan->revisions)
    revisions.push_back({r.name, r.commit, r.subject});
  alea::cli::RunOptions run = alea::cli::planRun(o, *plan);
  run.onReport = [&](const alea::model::CampaignData &data, int status) -> alea::cli::Outcome {
    alea::model::CampaignReportOptions ro;
    ro.skipSystemsWithoutData = true; // a broken commit leaves a gap, not an empty history
    const auto history =
        alea::model::buildHistoryReport(alea::model::buildCampaignReport(data, ro), revisions);
    if (auto s = alea::report::writeHistory(history, *format, o.output); !s)
      return alea::Error{s.error()};
    return status;
  };
  return alea::cli::runCampaignFile(run);
}

void setupHistory(CLI::App &sub) {
  auto o = std::make_shared<HistoryOptions>();
  sub.add_option("revisions", o->request.revisions,
                 "the revisions, oldest first: revisions (a hash, a tag, HEAD~3) or ranges A..B "
                 "(A and every commit after it up to B)")
      ->required();
  alea::cli::addRevisionOptions(sub, *o, 3, 2);
  sub.add_option("--reference", o->request.reference,
                 "the revision every ratio is to (one of them; default: the first)");
  sub.add_option("--format", o->run.format, "text (default), md, json, csv or html");
  sub.add_option("-o,--output", o->output, "write to this file (default: standard output)");
  alea::cli::runAfterCompareTable(sub, o, 3, 2, false, runHistory);
}

} // namespace

ALEA_COMMAND("history",
             "A benchmark over successive git revisions: each revision's ratio to the "
             "reference with its interval across layouts, and the commits where it changed "
             "(docs/history.md)",
             setupHistory);

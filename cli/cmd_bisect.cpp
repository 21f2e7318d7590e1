// `alea bisect GOOD BAD --benchmark NAME ...`: the first commit between GOOD
// and BAD at which a benchmark changed as it did from GOOD to BAD, found by
// binary search, each step an `alea compare GOOD <commit>` (its own resumable
// campaign, docs/compare.md), so that only log2(n) revisions are built
// (docs/history.md, "Bisect"). Orchestration only: the revisions come from
// alea::runner::listRevisions, each comparison is prepareCompare run as
// `alea run` runs a campaign file (run_command.hpp), its decision the
// engine's.
#include "command.hpp"
#include "revision_options.hpp"
#include "run_command.hpp"

#include "alea/analysis/decision.hpp"
#include "alea/campaign/compare.hpp"
#include "alea/config/config.hpp"
#include "alea/report/escape.hpp"

#include <cstdio>
#include <memory>
#include <optional>
#include <string>

namespace {

struct BisectOptions : alea::cli::RevisionOptions {
  std::string good, bad, benchmark;
};

// What one comparison said of the benchmark: its ratio to GOOD and decision.
struct Verdict {
  bool found = false;
  double ratio = 1;
  std::string interval;                           // "[1.19, 1.21]"
  std::optional<alea::analysis::Interval> bounds; // Fieller's, when bounded
  alea::analysis::Decision decision = alea::analysis::Decision::Inconclusive;
};

std::string describe(const Verdict &v) {
  char text[64];
  std::snprintf(text, sizeof text, "%.3f", v.ratio);
  return std::string(text) + " " + v.interval + ", " +
         std::string(alea::analysis::decisionName(v.decision));
}

// `alea compare GOOD REV` for the benchmark.
alea::Expected<Verdict> compareWithGood(const BisectOptions &o,
                                        const alea::runner::RevisionInfo &good,
                                        const alea::runner::RevisionInfo &rev) {
  alea::runner::CompareRequest request = o.request;
  request.a = good.commit;
  request.b = rev.commit;
  auto plan = alea::runner::prepareCompare(request);
  if (!plan)
    return alea::Error{plan.error(), plan.errorKind()};
  std::fprintf(stderr, "alea: bisect: %s vs %s (%s)\n", rev.name.c_str(), good.name.c_str(),
               alea::report::plainText(rev.subject).c_str());
  Verdict verdict;
  alea::cli::RunOptions run = alea::cli::planRun(o, *plan);
  run.onReport = [&](const alea::model::CampaignData &data, int) -> alea::cli::Outcome {
    const auto report = alea::model::buildCampaignReport(data);
    if (report.analysis)
      for (const auto &b : report.analysis->benchmarks)
        if (b.name == o.benchmark && !b.ratios.empty()) {
          const auto &r = b.ratios.front();
          verdict.found = true;
          verdict.ratio = r.estimate;
          verdict.decision = r.decision;
          verdict.bounds = r.fieller;
          char text[64];
          if (r.fieller)
            std::snprintf(text, sizeof text, "[%.3f, %.3f]", r.fieller->lower, r.fieller->upper);
          verdict.interval = r.fieller ? text : "[unbounded]";
        }
    return alea::cli::kExitOk;
  };
  if (auto s = alea::cli::runCampaignFile(run); !s)
    return alea::Error{s.error(), s.errorKind()};
  if (!verdict.found)
    return alea::Error{"bisect: " + rev.name + " vs " + good.name + ": no ratio for benchmark '" +
                       o.benchmark + "' (its builds or runs failed: see `alea report " +
                       plan->campaignDir + "`)"};
  std::fprintf(stderr, "alea: bisect: %s vs %s: %s\n", rev.name.c_str(), good.name.c_str(),
               describe(verdict).c_str());
  return verdict;
}

alea::cli::Outcome runBisect(BisectOptions &o) {
  using alea::analysis::Decision;
  if (o.benchmark.empty()) {
    if (o.request.runs.size() != 1)
      return alea::Error{"--benchmark: name the benchmark to bisect (one of the --run names)",
                         alea::ErrorKind::Usage};
    const std::string &run = o.request.runs.front();
    const std::size_t eq = run.find('=');
    o.benchmark = eq != std::string::npos &&
                          alea::runner::compareSystemName(run.substr(0, eq)) == run.substr(0, eq)
                      ? run.substr(0, eq)
                      : "run";
  }
  auto revisions = alea::runner::listRevisions({o.good + ".." + o.bad}, o.request.repo);
  if (!revisions)
    return alea::Error{revisions.error(), revisions.errorKind()};
  const auto &revs = *revisions;
  if (revs.size() < 2)
    return alea::Error{"bisect: no commit between " + o.good + " and " + o.bad +
                           " (BAD must descend from GOOD)",
                       alea::ErrorKind::Usage};
  // The change to find: BAD against GOOD, faster or slower.
  auto atBad = compareWithGood(o, revs.front(), revs.back());
  if (!atBad)
    return alea::Error{atBad.error(), atBad.errorKind()};
  if (atBad->decision != Decision::Faster && atBad->decision != Decision::Slower)
    return alea::Error{"bisect: " + o.benchmark + " at " + revs.back().name + " is " +
                       describe(*atBad) + " against " + revs.front().name +
                       ": no change to look for (more --builds if inconclusive)"};
  // Invariant: revs[lo] is like GOOD, revs[hi] changed as BAD did.
  std::size_t lo = 0, hi = revs.size() - 1;
  Verdict changed = *atBad;
  while (hi - lo > 1) {
    const std::size_t mid = lo + (hi - lo) / 2;
    auto v = compareWithGood(o, revs.front(), revs[mid]);
    if (!v)
      return alea::Error{v.error(), v.errorKind()};
    const auto side =
        alea::analysis::bisectSide(v->decision, v->bounds, atBad->decision, atBad->ratio);
    if (side == alea::analysis::BisectSide::Bad) {
      hi = mid;
      changed = *v;
    } else if (side == alea::analysis::BisectSide::Good) {
      lo = mid;
    } else {
      return alea::Error{
          "bisect: " + o.benchmark + " at " + revs[mid].name + " is " + describe(*v) + " against " +
          revs.front().name + ": neither like GOOD nor like BAD; the change lies between " +
          revs[lo].name + " and " + revs[hi].name + " (more --builds, or a " +
          "change in steps: alea history " + revs[lo].name + ".." + revs[hi].name + ")"};
    }
  }
  std::printf("%s became %s at %s (%s): %s against %s; %s before it is like %s\n",
              alea::report::plainText(o.benchmark).c_str(),
              std::string(alea::analysis::decisionName(atBad->decision)).c_str(),
              revs[hi].commit.c_str(), alea::report::plainText(revs[hi].subject).c_str(),
              describe(changed).c_str(), revs.front().name.c_str(), revs[lo].name.c_str(),
              revs.front().name.c_str());
  return alea::cli::kExitOk;
}

void setupBisect(CLI::App &sub) {
  auto o = std::make_shared<BisectOptions>();
  sub.add_option("good", o->good, "a revision where the benchmark is as before")->required();
  sub.add_option("bad", o->bad, "a later revision where it changed (faster or slower)")->required();
  sub.add_option("--benchmark", o->benchmark,
                 "the benchmark (a --run name; default: the only one)");
  alea::cli::addRevisionOptions(sub, *o, 4, 3);
  sub.add_option("--until-half-width", o->run.untilHalfWidth,
                 "each comparison adds builds until its CI is within this relative half-width "
                 "(default 2%)");
  sub.add_option("--time-budget", o->run.timeBudget,
                 "each comparison stops adding builds after this many seconds (default 300)")
      ->check(CLI::Range(1.0, alea::runner::kMaxSeconds));
  sub.add_option("--max-builds", o->run.maxBuilds,
                 "at most this many builds per revision "
                 "(default 30)")
      ->check(CLI::Range(2, 1000));
  alea::cli::runAfterCompareTable(sub, o, 4, 3, true, runBisect);
}

} // namespace

ALEA_COMMAND("bisect",
             "The first commit between GOOD and BAD at which a benchmark changed as it did "
             "from GOOD to BAD: a binary search of alea compare GOOD <commit> "
             "(docs/history.md)",
             setupBisect);

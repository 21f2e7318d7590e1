// The history of a campaign of revisions (history.hpp).
#include "alea/model/history.hpp"

#include "alea/analysis/revision_steps.hpp"

#include <algorithm>

namespace alea::model {

namespace {

// The point of `revision` in benchmark `b` of the engine's report.
HistoryPoint pointOf(const analysis::BenchmarkReport &b, const std::string &name,
                     std::size_t revision) {
  HistoryPoint p;
  p.revision = revision;
  for (const auto &s : b.systems)
    if (s.name == name) {
      p.measured = true;
      p.mean = s.mean;
      p.builds = s.topMeans.size();
    }
  for (const auto &r : b.ratios)
    if (r.candidate == name) {
      p.ratio = r.estimate;
      p.interval = r.family && r.family->interval ? r.family->interval : r.fieller;
      p.decision = r.family ? r.family->decision : r.decision;
    }
  return p;
}

} // namespace

HistoryReport buildHistoryReport(CampaignReport campaign,
                                 const std::vector<HistoryRevision> &revisions) {
  HistoryReport h;
  h.revisions = revisions;
  h.campaign = std::move(campaign);
  if (!h.campaign.analysis)
    return h;
  const analysis::Report &report = *h.campaign.analysis;
  h.confidence = report.options.confidence;
  h.threshold = report.options.threshold;
  for (std::size_t i = 0; i < revisions.size(); ++i)
    if (revisions[i].name == report.baseline)
      h.reference = i;
  for (const auto &b : report.benchmarks) {
    BenchmarkHistory bh;
    bh.name = b.name;
    auto unit = h.campaign.units.find(b.name);
    bh.unit = unit == h.campaign.units.end() ? "s" : unit->second;
    bh.error = b.error;
    std::vector<std::vector<double>> buildMeans;
    std::vector<std::size_t> measured; // revision index of each series
    for (std::size_t i = 0; i < revisions.size(); ++i) {
      bh.points.push_back(pointOf(b, revisions[i].name, i));
      for (const auto &s : b.systems)
        if (s.name == revisions[i].name && !s.topMeans.empty()) {
          buildMeans.push_back(s.topMeans);
          measured.push_back(i);
        }
    }
    analysis::StepOptions so;
    so.confidence = h.confidence;
    so.threshold = h.threshold;
    auto steps = analysis::findRevisionSteps(buildMeans, so);
    if (!steps)
      bh.stepsError = steps.error();
    else
      for (const analysis::RevisionStep &s : steps->steps)
        (s.decision == analysis::Decision::NoChange ? bh.shifts : bh.steps)
            .push_back({measured[s.at], measured[s.at - 1], s.ratio, s.interval, s.decision});
    h.benchmarks.push_back(std::move(bh));
  }
  return h;
}

} // namespace alea::model

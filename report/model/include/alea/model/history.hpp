// `alea history` (docs/history.md): one benchmark over successive revisions,
// each revision a system of one campaign (the reference its baseline). Per
// benchmark, every revision's ratio to the reference with its interval (the
// engine's comparisons of the campaign report) and the step changes over the
// revisions (analysis/revision_steps.hpp on each revision's build means),
// each step named by the commit where the new level starts. The value the
// history renderers draw from (report/history.hpp); like the campaign report,
// it computes no statistic itself.
#pragma once

#include "alea/analysis/decision.hpp"
#include "alea/analysis/interval.hpp"
#include "alea/model/campaign_report.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace alea::model {

// One revision as the history names it: its system's name (a short hash),
// its commit and the commit's first line.
struct HistoryRevision {
  std::string name, commit, subject;
};

// A benchmark on one revision.
struct HistoryPoint {
  std::size_t revision = 0; // index into HistoryReport::revisions
  bool measured = false;    // analysed (false: no data, e.g. its builds failed)
  double mean = 0;          // in the benchmark's unit
  std::size_t builds = 0;   // top-level units behind the mean
  // The ratio to the reference (1 for the reference itself), its Fieller
  // interval (none: unbounded), and its decision (Holm's family decision when
  // there are several comparisons, as the gate reads it).
  double ratio = 1;
  std::optional<analysis::Interval> interval;
  std::optional<analysis::Decision> decision; // none for the reference
};

// A step change: the level changes between revision at - 1 and at.
struct HistoryStep {
  std::size_t at = 0;   // index into HistoryReport::revisions: the first of the new level
  std::size_t from = 0; // the revision before it (index; measured)
  double ratio = 1;     // new level / old level
  analysis::Interval interval;
  analysis::Decision decision = analysis::Decision::Inconclusive;
};

struct BenchmarkHistory {
  std::string name, unit;
  std::string error;                // why it has no history (not analysed)
  std::vector<HistoryPoint> points; // one per revision, in order
  // The steps decided faster, slower or inconclusive: where the benchmark
  // changed, or may have.
  std::vector<HistoryStep> steps;
  // Steps the segmentation found whose whole interval lies within the
  // no-change band (decided "no change"): real shifts too small to matter,
  // e.g. 0.1% when the builds differ by 0.05%. Not steps to a reader.
  std::vector<HistoryStep> shifts;
  // Why no steps were looked for (fewer than 2 measured revisions, no spread
  // between builds): "" when they were.
  std::string stepsError;
};

struct HistoryReport {
  std::vector<HistoryRevision> revisions; // oldest first
  std::size_t reference = 0;              // index of the baseline revision
  double confidence = 0.95, threshold = 0.01;
  std::vector<BenchmarkHistory> benchmarks;
  CampaignReport campaign; // the campaign behind it (warnings, failures, design)
};

// The history of `campaign`, a campaign whose systems are `revisions` (by
// name; any order in the campaign). Steps are found over the revisions that
// have data, in the order given.
HistoryReport buildHistoryReport(CampaignReport campaign,
                                 const std::vector<HistoryRevision> &revisions);

} // namespace alea::model

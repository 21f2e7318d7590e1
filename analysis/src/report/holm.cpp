// Holm's step-down over the comparisons of one benchmark (issue 10;
// report.hpp RatioReport::Family).
#include "steps.hpp"

#include "alea/analysis/family.hpp"

namespace alea::analysis::detail {

// Holm's step-down over every comparison of one benchmark (issue 10;
// RatioReport::Family): each gets its rank, the adjusted p-value, its interval
// at the level Holm tests it at (on its decision's basis) and the family's
// decision, faster or slower only when Holm rejects.
void holmFamily(std::vector<Comparison> &family, const ReportOptions &options) {
  // The p-value of each decision rule itself, on the decision's basis.
  std::vector<double> p;
  for (const auto &c : family) {
    const RatioReport &r = c.report;
    p.push_back(r.fieller ? thresholdPValue(
                                [&](double level) { return fiellerAt(c, level, options.ciMethod); },
                                r.estimate, options.threshold)
                          : bootstrapThresholdPValue(c.replicates, r.estimate, options.threshold));
  }
  const double alpha = 1 - options.confidence;
  const auto steps = holmSteps(p, alpha);
  for (std::size_t i = 0; i < family.size(); ++i) {
    Comparison &c = family[i];
    RatioReport::Family f;
    f.size = family.size();
    f.rank = steps[i].rank;
    f.pValue = p[i];
    f.adjustedP = steps[i].adjustedP;
    f.level = steps[i].level;
    if (c.report.fieller) {
      f.interval = fiellerAt(c, f.level, options.ciMethod);
    } else if (!c.replicates.empty()) {
      std::vector<double> sorted = c.replicates;
      f.interval = percentileInterval(sorted, f.level, QuantileRule::PaperOrderStatistic);
    }
    f.decision = holmDecision(f.interval, options.threshold, steps[i]);
    c.report.family = f;
  }
}

} // namespace alea::analysis::detail

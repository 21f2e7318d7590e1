// Tests of the CI gate (report/model/include/alea/model/gate.hpp): which of a
// report's decisions fail `--fail-on slower|faster|change`.
#include "alea/model/gate.hpp"

#include <gtest/gtest.h>

namespace {

using alea::analysis::Decision;
using alea::model::CampaignReport;
using alea::model::FailOn;
using alea::model::gateFailures;

alea::analysis::RatioReport ratio(const char *candidate, double estimate, Decision decision) {
  alea::analysis::RatioReport r;
  r.candidate = candidate;
  r.baseline = "base";
  r.estimate = estimate;
  r.decision = decision;
  return r;
}

// Two benchmarks: parse has cand slower and other faster, emit no change.
CampaignReport twoBenchmarks() {
  CampaignReport r;
  r.analysis.emplace();
  auto &parse = r.analysis->benchmarks.emplace_back();
  parse.name = "parse";
  parse.ratios = {ratio("cand", 1.2, Decision::Slower), ratio("other", 0.8, Decision::Faster)};
  auto &emit = r.analysis->benchmarks.emplace_back();
  emit.name = "emit";
  emit.ratios = {ratio("cand", 1.0, Decision::NoChange),
                 ratio("other", 1.3, Decision::Inconclusive)};
  return r;
}

TEST(Gate, FailsOnTheComparisonsDecidedThatWay) {
  const CampaignReport r = twoBenchmarks();
  EXPECT_EQ(gateFailures(r, FailOn::Slower),
            std::vector<std::string>{"parse: cand vs base slower (ratio 1.200)"});
  EXPECT_EQ(gateFailures(r, FailOn::Faster),
            std::vector<std::string>{"parse: other vs base faster (ratio 0.800)"});
  EXPECT_EQ(gateFailures(r, FailOn::Change),
            (std::vector<std::string>{"parse: cand vs base slower (ratio 1.200)",
                                      "parse: other vs base faster (ratio 0.800)"}));
}

TEST(Gate, InconclusiveAndNoChangeNeverFail) {
  CampaignReport r = twoBenchmarks();
  r.analysis->benchmarks.erase(r.analysis->benchmarks.begin()); // emit only
  for (FailOn on : {FailOn::Slower, FailOn::Faster, FailOn::Change})
    EXPECT_TRUE(gateFailures(r, on).empty()) << alea::enumName(on);
}

// With three or more systems the report's decision is Holm's (the family's):
// a comparison the threshold alone calls slower but Holm does not passes.
TEST(Gate, ReadsHolmsDecisionInAFamily) {
  CampaignReport r = twoBenchmarks();
  for (auto &x : r.analysis->benchmarks[0].ratios)
    x.family = alea::analysis::RatioReport::Family{
        .size = 2, .interval = {}, .decision = Decision::Inconclusive};
  EXPECT_TRUE(gateFailures(r, FailOn::Change).empty());
  r.analysis->benchmarks[1].ratios[1].family =
      alea::analysis::RatioReport::Family{.size = 2, .interval = {}, .decision = Decision::Slower};
  EXPECT_EQ(gateFailures(r, FailOn::Slower),
            std::vector<std::string>{"emit: other vs base slower (ratio 1.300)"});
}

TEST(Gate, AReportWithoutStatisticsPasses) {
  EXPECT_TRUE(gateFailures(CampaignReport{}, FailOn::Change).empty());
}

} // namespace

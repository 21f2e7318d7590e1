// `alea history`'s model (model/history.hpp) and renderers (report/history.hpp)
// on a synthetic campaign of 6 revisions, 4 builds each, whose benchmark
// "k1" steps up by 20% at the fourth revision and "k2" stays level.
#include "alea/model/history.hpp"
#include "alea/report/history.hpp"

#include "alea/random.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sstream>

using namespace alea;
using namespace alea::model;

namespace {

const std::vector<std::string> kRevisions{"r0", "r1", "r2", "r3", "r4", "r5"};

// builds x executions x iterations of `bench` on `sys`: base x (1 + a build
// effect of 1% SD + an execution effect + noise), from a fixed seed.
void add(CampaignData &d, const std::string &sys, const std::string &bench, double base,
         std::uint64_t seed, double buildSd = 0.01) {
  Rng rng(seed);
  auto normalish = [&] {
    double s = 0;
    for (int k = 0; k < 12; ++k)
      s += rng.uniform();
    return s - 6;
  };
  for (int b = 0; b < 4; ++b) {
    const double be = buildSd * normalish();
    for (int e = 0; e < 2; ++e) {
      const double ee = buildSd / 5 * normalish();
      for (int i = 0; i < 3; ++i)
        d.measurements.push_back(
            {sys, bench, b, e, i, base * (1 + be + ee + buildSd / 10 * normalish())});
    }
  }
}

CampaignData campaign() {
  CampaignData d;
  d.name = "history of 6 revisions";
  d.storePath = "mem";
  d.systems = kRevisions;
  d.baseline = "r0";
  d.benchmarks = {"k1", "k2"};
  d.seed = "0x2a";
  d.plannedBuilds = 4;
  for (std::size_t r = 0; r < kRevisions.size(); ++r) {
    add(d, kRevisions[r], "k1", r >= 3 ? 1.2 : 1.0, 100 + r);
    add(d, kRevisions[r], "k2", 2.0, 200 + r);
    for (int b = 0; b < 4; ++b)
      d.builds.push_back({kRevisions[r],
                          b,
                          0x1,
                          BuildStatus::Ok,
                          1.0,
                          kRevisions[r] + std::to_string(b),
                          "",
                          "",
                          {},
                          ""});
  }
  d.planned = d.executed = 6 * 2 * 4 * 2;
  return d;
}

std::vector<HistoryRevision> revisions() {
  std::vector<HistoryRevision> v;
  for (std::size_t r = 0; r < kRevisions.size(); ++r)
    v.push_back({kRevisions[r], std::string(40, static_cast<char>('a' + r)),
                 r == 3 ? "k1 does \"20%\" more work" : "change " + std::to_string(r)});
  return v;
}

HistoryReport history() {
  CampaignReportOptions o;
  o.bootstrapReplicates = 1000;
  o.threads = 1;
  return buildHistoryReport(buildCampaignReport(campaign(), o), revisions());
}

} // namespace

TEST(History, TheStepIsPlacedAtTheCommitThatMadeIt) {
  const HistoryReport h = history();
  ASSERT_EQ(h.benchmarks.size(), 2u);
  EXPECT_EQ(h.reference, 0u);
  const BenchmarkHistory &k1 = h.benchmarks[0];
  EXPECT_EQ(k1.name, "k1");
  ASSERT_EQ(k1.points.size(), 6u);
  EXPECT_FALSE(k1.points[0].decision); // the reference
  EXPECT_DOUBLE_EQ(k1.points[0].ratio, 1);
  for (std::size_t r = 1; r < 6; ++r) {
    const HistoryPoint &p = k1.points[r];
    EXPECT_TRUE(p.measured);
    EXPECT_EQ(p.builds, 4u);
    ASSERT_TRUE(p.interval) << r;
    EXPECT_TRUE(p.interval->contains(r >= 3 ? 1.2 : 1.0)) << r;
    ASSERT_TRUE(p.decision);
    if (r >= 3)
      EXPECT_EQ(*p.decision, analysis::Decision::Slower) << r;
    else // no change, or inconclusive: 4 builds of 1% layout noise, Holm-adjusted
      EXPECT_TRUE(*p.decision == analysis::Decision::NoChange ||
                  *p.decision == analysis::Decision::Inconclusive)
          << r;
  }
  ASSERT_EQ(k1.steps.size(), 1u) << k1.stepsError;
  EXPECT_EQ(k1.steps[0].at, 3u);
  EXPECT_EQ(k1.steps[0].from, 2u);
  EXPECT_NEAR(k1.steps[0].ratio, 1.2, 0.02);
  EXPECT_TRUE(k1.steps[0].interval.contains(k1.steps[0].ratio));
  EXPECT_EQ(k1.steps[0].decision, analysis::Decision::Slower);
  const BenchmarkHistory &k2 = h.benchmarks[1];
  EXPECT_TRUE(k2.steps.empty());
  EXPECT_TRUE(k2.stepsError.empty()) << k2.stepsError;
}

TEST(History, EveryFormatSaysTheSame) {
  const HistoryReport h = history();
  auto text = report::renderHistory(h, report::Format::Text);
  ASSERT_TRUE(text) << text.error();
  EXPECT_NE(text->find("step at r3 (k1 does \"20%\" more work): 1.2"), std::string::npos) << *text;
  EXPECT_NE(text->find("no step over the 6 measured revisions"), std::string::npos) << *text;

  auto json = report::renderHistory(h, report::Format::Json);
  ASSERT_TRUE(json);
  const auto doc = nlohmann::json::parse(*json);
  EXPECT_EQ(doc["reference"], "r0");
  EXPECT_EQ(doc["revisions"].size(), 6u);
  ASSERT_EQ(doc["benchmarks"][0]["steps"].size(), 1u);
  EXPECT_EQ(doc["benchmarks"][0]["steps"][0]["at"], "r3");
  EXPECT_EQ(doc["benchmarks"][0]["steps"][0]["commit"], std::string(40, 'd'));
  EXPECT_EQ(doc["benchmarks"][0]["steps"][0]["decision"], "slower");
  EXPECT_DOUBLE_EQ(doc["benchmarks"][0]["steps"][0]["ratio"].get<double>(),
                   h.benchmarks[0].steps[0].ratio);
  EXPECT_TRUE(doc["benchmarks"][1]["steps"].empty());
  EXPECT_EQ(doc["benchmarks"][0]["points"][4]["decision"], "slower");

  auto csv = report::renderHistory(h, report::Format::Csv);
  ASSERT_TRUE(csv);
  std::istringstream lines(*csv);
  std::vector<std::string> rows;
  for (std::string line; std::getline(lines, line);)
    rows.push_back(line);
  ASSERT_EQ(rows.size(), 1u + 2 * 6); // header, one row per benchmark and revision
  EXPECT_EQ(rows[4].rfind("k1,r3,dddd", 0), 0u) << rows[4];
  EXPECT_NE(rows[4].find("\"k1 does \"\"20%\"\" more work\""), std::string::npos) << rows[4];
  EXPECT_EQ(rows[4].substr(rows[4].size() - 7), ",slower") << rows[4]; // its step's decision
  EXPECT_EQ(rows[5].substr(rows[5].size() - 4), ",,,,") << rows[5];    // no step there

  auto md = report::renderHistory(h, report::Format::Markdown);
  ASSERT_TRUE(md);
  EXPECT_NE(md->find("**step at r3"), std::string::npos) << *md;

  auto html = report::renderHistory(h, report::Format::Html);
  ASSERT_TRUE(html);
  EXPECT_NE(html->find("trend-plot"), std::string::npos);
  EXPECT_NE(html->find("k1 does &quot;20%&quot; more work"), std::string::npos);
  EXPECT_NE(html->find("class=\"step\""), std::string::npos); // the dashed line

  auto latex = report::renderHistory(h, report::Format::Latex);
  ASSERT_FALSE(latex);
  EXPECT_EQ(latex.errorKind(), ErrorKind::Usage);
}

// A shift the segmentation finds but the threshold calls no change (0.3%
// when builds differ by 0.01%) is a shift, not a step: a reader is not sent
// to a commit that changed nothing that matters.
TEST(History, ShiftsWithinTheThresholdAreNotSteps) {
  CampaignData d = campaign();
  d.measurements.clear();
  for (std::size_t r = 0; r < kRevisions.size(); ++r) {
    add(d, kRevisions[r], "k1", r >= 2 ? 1.003 : 1.0, 300 + r, 0.0001);
    add(d, kRevisions[r], "k2", 2.0, 400 + r, 0.0001);
  }
  CampaignReportOptions o;
  o.bootstrapReplicates = 1000;
  o.threads = 1;
  const HistoryReport h = buildHistoryReport(buildCampaignReport(d, o), revisions());
  ASSERT_EQ(h.benchmarks.size(), 2u);
  const BenchmarkHistory &k1 = h.benchmarks[0];
  EXPECT_TRUE(k1.steps.empty());
  ASSERT_EQ(k1.shifts.size(), 1u);
  EXPECT_EQ(k1.shifts[0].at, 2u);
  EXPECT_NEAR(k1.shifts[0].ratio, 1.003, 0.0005);
  EXPECT_EQ(k1.shifts[0].decision, analysis::Decision::NoChange);
  auto text = report::renderHistory(h, report::Format::Text);
  ASSERT_TRUE(text);
  EXPECT_NE(text->find("no step over the 6 measured revisions (a shift within the no-change "
                       "threshold of 1.0%: at r2 1.003)"),
            std::string::npos)
      << *text;
}

// A revision without data (its builds failed) leaves a gap in the history,
// not an empty one: the others are analysed and the step still found, from
// the revision before the gap.
TEST(History, ARevisionWithoutDataIsAGap) {
  CampaignData d = campaign();
  std::erase_if(d.measurements, [](const MeasurementPoint &p) { return p.system == "r2"; });
  CampaignReportOptions o;
  o.bootstrapReplicates = 1000;
  o.threads = 1;
  o.skipSystemsWithoutData = true;
  const HistoryReport h = buildHistoryReport(buildCampaignReport(d, o), revisions());
  ASSERT_EQ(h.benchmarks.size(), 2u);
  const BenchmarkHistory &k1 = h.benchmarks[0];
  EXPECT_TRUE(k1.error.empty()) << k1.error;
  EXPECT_FALSE(k1.points[2].measured);
  EXPECT_FALSE(k1.points[2].decision);
  EXPECT_TRUE(k1.points[4].measured);
  ASSERT_EQ(k1.steps.size(), 1u);
  EXPECT_EQ(k1.steps[0].at, 3u);
  EXPECT_EQ(k1.steps[0].from, 1u); // the gap is skipped
  bool named = false;
  for (const auto &w : h.campaign.warnings)
    named |= w == "left out of k1: r2 has data from 0 builds (at least 2 are needed)";
  EXPECT_TRUE(named);

  // Without the option (alea report), the benchmark is not analysed at all.
  o.skipSystemsWithoutData = false;
  const CampaignReport plain = buildCampaignReport(d, o);
  EXPECT_FALSE(plain.analysis);
}

// ReportOptions::pairing (issue 8): with Pairing::Paired every candidate's
// top-level units are paired with the baseline's by LABEL (build "3" with
// build "3"), only labels both systems have take part, fewer than 2 pairs
// fall back to the unpaired methods with the reason, and every format says
// which method was used.
#include "alea/analysis/csv.hpp"
#include "alea/analysis/fieller.hpp"
#include "render_helpers.hpp"
#include "alea/analysis/report.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <string>
#include <vector>

using namespace alea::analysis;

namespace {

// Build i of both systems shares a time factor (1 + time[i]); each build has
// 2 executions. Values are deterministic: no randomness, no timing.
const double kTime[] = {0.00, 0.06, -0.04, 0.09, -0.07, 0.03, -0.02, 0.05, -0.08, 0.01};

std::string rowsOf(const std::string &system, double mu, const std::vector<int> &builds) {
  std::string s;
  for (int b : builds)
    for (int e = 1; e <= 2; ++e) {
      // Small per-system, per-build and per-execution wiggles that do not
      // follow the shared time factor.
      const double own = 0.002 * std::sin(3.0 * b + (system == "cand" ? 1.0 : 0.0)) +
                         0.001 * std::cos(7.0 * b + e);
      char value[32];
      std::snprintf(value, sizeof value, "%.6f", mu * (1 + kTime[b - 1]) * (1 + own));
      s += system + "," + std::to_string(b) + "," + std::to_string(e) + "," + value + "\n";
    }
  return s;
}

Table tableOf(const std::vector<int> &baseBuilds, const std::vector<int> &candBuilds) {
  auto p = parseCsv("system,build,execution,value\n" + rowsOf("base", 2.0, baseBuilds) +
                    rowsOf("cand", 1.9, candBuilds));
  EXPECT_FALSE(p.error);
  return *p.table;
}

Report reportOf(const Table &t, Pairing pairing) {
  ReportOptions o;
  o.pairing = pairing;
  o.seed = 9;
  o.threads = 1;
  auto r = buildReport(t, o);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error());
  return r.ok() ? *r : Report{};
}

// One system's build means, for builds in the order given.
Hierarchy buildMeans(const Table &t, const std::string &system, const std::vector<int> &builds) {
  std::vector<double> means;
  for (int b : builds) {
    double sum = 0;
    int n = 0;
    for (std::size_t i = 0; i < t.size(); ++i)
      if (t.systems()[t.row(i).system] == system && t.label(i, 0) == std::to_string(b)) {
        sum += t.row(i).value;
        ++n;
      }
    means.push_back(sum / n);
  }
  return Hierarchy{{"build"}, {builds.size()}, means};
}

const std::vector<int> kAll = {1, 2, 3, 4, 5, 6, 7, 8};

} // namespace

TEST(PairedReport, MatchingLabelsUseThePairedMethodsAndSaySo) {
  const Table t = tableOf(kAll, kAll);
  const Report paired = reportOf(t, Pairing::Paired);
  const Report unpaired = reportOf(t, Pairing::Unpaired);
  const RatioReport &p = paired.benchmarks.at(0).ratios.at(0);
  const RatioReport &u = unpaired.benchmarks.at(0).ratios.at(0);
  EXPECT_TRUE(p.paired);
  EXPECT_EQ(p.pairs, 8u);
  EXPECT_GT(p.pairCorrelation, 0.9);
  EXPECT_EQ(p.pairingNote.rfind("paired by build (8 pairs; correlation of the build means ", 0), 0u)
      << p.pairingNote;
  EXPECT_FALSE(u.paired);
  EXPECT_EQ(u.pairingNote, "unpaired: the design did not pair builds");
  EXPECT_EQ(u.pairs, 0u);
  // Fieller with the covariance term on the build means (2 executions each).
  auto f = fiellerPairedRatio(buildMeans(t, "cand", kAll), buildMeans(t, "base", kAll));
  ASSERT_TRUE(f.ok() && f->interval && p.fieller);
  EXPECT_NEAR(p.fieller->lower, f->interval->lower, 1e-12);
  EXPECT_NEAR(p.fieller->upper, f->interval->upper, 1e-12);
  EXPECT_NEAR(p.estimate, u.estimate, 1e-15);
  // The shared time factor cancels: both intervals are much narrower paired.
  ASSERT_TRUE(u.fieller);
  EXPECT_LT(p.fieller->width(), 0.5 * u.fieller->width());
  EXPECT_LT(p.bootstrap.width(), 0.5 * u.bootstrap.width());
  EXPECT_EQ(p.decision, Decision::Faster);
  EXPECT_EQ(p.decisionBasis, "fieller");
}

TEST(PairedReport, MismatchedLabelsPairOnlyTheCommonOnes) {
  // base has builds 1-8, cand 3-10: builds 3-8 pair up, 1, 2, 9, 10 do not.
  const std::vector<int> base = kAll, cand = {3, 4, 5, 6, 7, 8, 9, 10}, common = {3, 4, 5, 6, 7, 8};
  const Table t = tableOf(base, cand);
  const Report r = reportOf(t, Pairing::Paired);
  const RatioReport &p = r.benchmarks.at(0).ratios.at(0);
  EXPECT_TRUE(p.paired);
  EXPECT_EQ(p.pairs, 6u);
  EXPECT_EQ(p.pairingNote.rfind("paired by build (6 pairs; 4 builds without a partner left out; "
                                "correlation of the build means ",
                                0),
            0u)
      << p.pairingNote;
  const Hierarchy c = buildMeans(t, "cand", common), b = buildMeans(t, "base", common);
  auto f = fiellerPairedRatio(c, b);
  ASSERT_TRUE(f.ok() && f->interval && p.fieller);
  EXPECT_NEAR(p.estimate, c.grandMean() / b.grandMean(), 1e-12);
  EXPECT_NEAR(p.fieller->lower, f->interval->lower, 1e-12);
  EXPECT_NEAR(p.fieller->upper, f->interval->upper, 1e-12);
  EXPECT_NEAR(p.pairCorrelation, pairCorrelation(c, b), 1e-12);
  EXPECT_DOUBLE_EQ(p.fiellerDf, 5.0);
  // The systems' own reports still use all their builds.
  EXPECT_EQ(r.benchmarks[0].systems[0].shape[0], 8u);
}

TEST(PairedReport, FewerThanTwoPairsFallBackToUnpairedWithTheReason) {
  const std::vector<int> base = {1, 2, 3}, one = {3, 4, 5}, none = {4, 5, 6};
  for (const auto &[cand, note] :
       {std::pair{one, "unpaired: only 1 build pair has data in both systems"},
        std::pair{none, "unpaired: no build label has data in both systems"}}) {
    SCOPED_TRACE(note);
    const Table t = tableOf(base, cand);
    const Report r = reportOf(t, Pairing::Paired);
    const Report u = reportOf(t, Pairing::Unpaired);
    const RatioReport &p = r.benchmarks.at(0).ratios.at(0);
    EXPECT_FALSE(p.paired);
    EXPECT_EQ(p.pairingNote, note);
    EXPECT_EQ(p.pairCorrelation, 0.0);
    // The unpaired methods, exactly.
    const RatioReport &x = u.benchmarks.at(0).ratios.at(0);
    ASSERT_TRUE(p.fieller && x.fieller);
    EXPECT_EQ(p.fieller->lower, x.fieller->lower);
    EXPECT_EQ(p.fieller->upper, x.fieller->upper);
    EXPECT_EQ(p.bootstrap.lower, x.bootstrap.lower);
    EXPECT_EQ(p.bootstrap.upper, x.bootstrap.upper);
  }
}

TEST(PairedReport, EveryFormatShowsThePairingNote) {
  const Report r = reportOf(tableOf(kAll, kAll), Pairing::Paired);
  const std::string note = r.benchmarks[0].ratios[0].pairingNote;
  const std::string text = formatReport(r, Format::Text);
  EXPECT_NE(text.find("\n    pairing: " + note + "\n"), std::string::npos) << text;
  const std::string md = formatReport(r, Format::Markdown);
  EXPECT_NE(md.find("- pairing, cand vs base: " + note + "\n"), std::string::npos) << md;
  auto json = nlohmann::json::parse(formatReport(r, Format::Json));
  EXPECT_EQ(json.at("options").at("pairing").get<std::string>(), "paired");
  const auto &pairing = json.at("benchmarks").at(0).at("ratio").at("pairing");
  EXPECT_TRUE(pairing.at("paired").get<bool>());
  EXPECT_EQ(pairing.at("pairs").get<std::size_t>(), 8u);
  EXPECT_EQ(pairing.at("correlation").get<double>(), r.benchmarks[0].ratios[0].pairCorrelation);
  EXPECT_EQ(pairing.at("note").get<std::string>(), note);
  const std::string csv = formatReport(r, Format::Csv);
  EXPECT_NE(csv.find(",cand,base,pairing," + csvField(note) + "," +
                     jsonNumber(r.benchmarks[0].ratios[0].pairCorrelation) + ",,,paired\n"),
            std::string::npos)
      << csv;
  // Unpaired reports keep their text, Markdown and CSV as they were; JSON
  // always has the pairing object.
  const Report u = reportOf(tableOf(kAll, kAll), Pairing::Unpaired);
  EXPECT_EQ(formatReport(u, Format::Text).find("pairing"), std::string::npos);
  EXPECT_EQ(formatReport(u, Format::Csv).find("pairing"), std::string::npos);
  auto unpairedJson = nlohmann::json::parse(formatReport(u, Format::Json));
  const auto &unpairedPairing = unpairedJson.at("benchmarks").at(0).at("ratio").at("pairing");
  EXPECT_FALSE(unpairedPairing.at("paired").get<bool>());
  EXPECT_TRUE(unpairedPairing.at("correlation").is_null());
}

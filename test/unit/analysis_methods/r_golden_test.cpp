// Agreement with R to 1e-6 relative: every case of test/r/cases.csv is run
// through alea's tests and compared field by field with the values R wrote to
// test/r/golden/htest.csv (compute_htest.R). The golden values are frozen, so
// this runs without R; the CTest r-golden-regenerate re-runs R when present.
#include "golden_io.hpp"

#include "alea/analysis/diagnostics.hpp"
#include "alea/analysis/htest.hpp"
#include "alea/analysis/resampling.hpp"
#include "alea/analysis/speedup_test.hpp"

#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>

namespace alea::analysis {
namespace {

using testing::closeRelative;

struct Case {
  std::string id, test, x, y, alternative, confidence;
  std::map<std::string, std::string> options;
};

void PrintTo(const Case &c, std::ostream *os) { *os << c.id; }

std::vector<Case> loadCases() {
  std::vector<Case> cases;
  const auto rows = testing::readCsv(testing::rDir() + "/cases.csv");
  for (std::size_t i = 1; i < rows.size(); ++i) {
    auto r = rows[i];
    r.resize(7);
    Case c{r[0], r[1], r[2], r[3], r[4], r[5], {}};
    std::istringstream ss(r[6]);
    std::string kv;
    while (std::getline(ss, kv, ';')) {
      const auto eq = kv.find('=');
      c.options[kv.substr(0, eq)] = kv.substr(eq + 1);
    }
    cases.push_back(c);
  }
  return cases;
}

Alternative parseAlternative(const std::string &s) {
  if (s == "greater")
    return Alternative::Greater;
  if (s == "less")
    return Alternative::Less;
  return Alternative::TwoSided;
}

bool flag(const Case &c, const std::string &key, bool fallback) {
  auto it = c.options.find(key);
  return it == c.options.end() ? fallback : it->second == "TRUE";
}

ExactMode exactMode(const Case &c) {
  auto it = c.options.find("exact");
  if (it == c.options.end())
    return ExactMode::Auto;
  return it->second == "TRUE" ? ExactMode::Exact : ExactMode::Asymptotic;
}

// Our values for one case, keyed like the golden fields.
std::map<std::string, double> compute(const Case &c) {
  static const auto samples = testing::readSamples();
  std::vector<double> x, y;
  if (!c.x.empty())
    x = samples.at(c.x);
  if (!c.y.empty())
    y = samples.at(c.y);
  if (c.options.count("head")) {
    const auto k = std::stoul(c.options.at("head"));
    if (x.size() > k)
      x.resize(k);
    if (y.size() > k)
      y.resize(k);
  }
  if (flag(c, "center", false)) {
    const double mx = median(x), my = median(y);
    for (double &v : x)
      v -= mx;
    for (double &v : y)
      v -= my;
  }
  const Alternative alt = parseAlternative(c.alternative);
  const double conf = c.confidence.empty() ? 0.95 : std::stod(c.confidence);
  std::map<std::string, double> out;
  if (c.test == "t.test") {
    TTestOptions o;
    o.alternative = alt;
    o.confidence = conf;
    o.equalVariance = flag(c, "var.equal", false);
    auto r = tTest(x, y, o);
    EXPECT_TRUE(r.ok()) << (r ? "" : r.error());
    if (!r)
      return out;
    out = {{"statistic", r->statistic}, {"df", r->df},           {"p.value", r->pValue},
           {"conf.low", r->lower},      {"conf.high", r->upper}, {"mean.x", r->meanX},
           {"mean.y", r->meanY}};
  } else if (c.test == "var.test") {
    FTestOptions o;
    o.alternative = alt;
    o.confidence = conf;
    auto r = varTest(x, y, o);
    EXPECT_TRUE(r.ok());
    if (!r)
      return out;
    out = {{"statistic", r->statistic}, {"df1", r->dfNum},      {"df2", r->dfDen},
           {"p.value", r->pValue},      {"conf.low", r->lower}, {"conf.high", r->upper},
           {"estimate", r->estimate}};
  } else if (c.test == "wilcox.test") {
    WilcoxonOptions o;
    o.alternative = alt;
    o.correct = flag(c, "correct", true);
    o.exact = exactMode(c);
    o.confidence = conf;
    auto r = wilcoxonTest(x, y, o);
    EXPECT_TRUE(r.ok());
    if (!r)
      return out;
    out = {{"statistic", r->statistic}, {"p.value", r->pValue}, {"exact", r->exact ? 1.0 : 0.0}};
    if (r->hasLocationInterval) {
      out["conf.low"] = r->locationLower;
      out["conf.high"] = r->locationUpper;
      out["estimate"] = r->locationEstimate;
    }
  } else if (c.test == "shapiro.test") {
    auto r = shapiroWilk(x);
    EXPECT_TRUE(r.ok());
    if (!r)
      return out;
    out = {{"statistic", r->w}, {"p.value", r->pValue}};
  } else if (c.test == "ks.test") {
    KsOptions o;
    o.alternative = alt;
    o.exact = exactMode(c);
    auto r = ksTest(x, y, o);
    EXPECT_TRUE(r.ok());
    if (!r)
      return out;
    out = {{"statistic", r->statistic}, {"p.value", r->pValue}, {"exact", r->exact ? 1.0 : 0.0}};
  } else if (c.test == "prop.test") {
    PropTestOptions o;
    o.alternative = alt;
    o.confidence = conf;
    o.correct = flag(c, "correct", true);
    if (c.options.count("p"))
      o.p = std::stod(c.options.at("p"));
    auto r = propTest(std::stoul(c.options.at("x")), std::stoul(c.options.at("n")), o);
    EXPECT_TRUE(r.ok());
    if (!r)
      return out;
    out = {{"statistic", r->statistic},
           {"p.value", r->pValue},
           {"conf.low", r->lower},
           {"conf.high", r->upper},
           {"estimate", r->estimate}};
  } else if (c.test == "kendall.trend") {
    auto r = kendallTrend(x);
    EXPECT_TRUE(r.ok());
    if (!r)
      return out;
    out = {{"statistic", r->statistic}, {"p.value", r->pValue}, {"estimate", r->tau}};
  } else if (c.test == "quantile7") {
    std::istringstream ss(c.options.at("probs"));
    std::string p;
    while (std::getline(ss, p, '|')) {
      std::ostringstream key;
      key << "q" << std::stod(p);
      out[key.str()] = quantileType7(x, std::stod(p));
    }
  } else if (c.test == "speedup.test") {
    auto r = speedupTest(x, y, {.risk = 1 - conf});
    EXPECT_TRUE(r.ok());
    if (!r)
      return out;
    auto meanCode = [](MeanVerdict v) {
      return v == MeanVerdict::Significant ? 0.0 : v == MeanVerdict::NotSignificant ? 1.0 : 2.0;
    };
    auto medianCode = [](MedianVerdict v) {
      return v == MedianVerdict::MedianSpeedup     ? 0.0
             : v == MedianVerdict::ProbabilityOnly ? 1.0
                                                   : 2.0;
    };
    out = {{"mean.verdict", meanCode(r->meanVerdict)},
           {"median.verdict", medianCode(r->medianVerdict)},
           {"median.speedup", r->medianSpeedup},
           {"mean.speedup", r->meanSpeedup}};
    if (r->tTest) {
      out["t.p.value"] = r->tTest->pValue;
      out["pooled"] = r->tTest->pooled ? 1.0 : 0.0;
    }
    if (r->wilcoxon)
      out["wilcox.p.value"] = r->wilcoxon->pValue;
    if (r->ks)
      out["ks.p.value"] = r->ks->pValue;
  } else if (c.test == "median") {
    out["median"] = median(x);
  } else {
    ADD_FAILURE() << "unknown test " << c.test;
  }
  return out;
}

class RGolden : public ::testing::TestWithParam<Case> {};

TEST_P(RGolden, MatchesRToOneMillionth) {
  static const auto golden = testing::readGolden("htest.csv");
  const Case &c = GetParam();
  ASSERT_TRUE(golden.count(c.id)) << "no R values for case " << c.id
                                  << ": re-run test/r/compute_htest.R";
  const auto ours = compute(c);
  for (const auto &[field, expected] : golden.at(c.id)) {
    ASSERT_TRUE(ours.count(field)) << c.id << ": field " << field << " not computed";
    EXPECT_TRUE(closeRelative(ours.at(field), expected))
        << c.id << " " << field << ": alea " << ours.at(field) << " vs R " << expected;
  }
}

std::string caseName(const ::testing::TestParamInfo<Case> &info) { return info.param.id; }

INSTANTIATE_TEST_SUITE_P(Htest, RGolden, ::testing::ValuesIn(loadCases()), caseName);

} // namespace
} // namespace alea::analysis

namespace alea::analysis {
namespace {

// Exhaustive randomization test vs an independent R enumeration
// (test/r/compute_resampling.R) on the suites of test/r/data/suites.csv.
TEST(RGoldenResampling, ExhaustiveRandomizationTestMatchesR) {
  const auto golden = testing::readGolden("resampling.csv");
  std::map<std::string, std::map<int, BenchmarkRuns>> suites;
  const auto rows = testing::readCsv(testing::rDir() + "/data/suites.csv");
  for (std::size_t i = 1; i < rows.size(); ++i) {
    auto &b = suites[rows[i].at(0)][std::stoi(rows[i].at(1))];
    (rows[i].at(2) == "baseline" ? b.baseline : b.candidate)
        .push_back(testing::parseNumber(rows[i].at(3)));
  }
  const std::pair<const char *, SuiteMean> means[] = {{"gm_of_means", SuiteMean::GeometricOfMeans},
                                                      {"gm_of_all", SuiteMean::GeometricOfAll},
                                                      {"am", SuiteMean::Arithmetic},
                                                      {"hm", SuiteMean::Harmonic}};
  std::size_t checked = 0;
  for (const auto &[name, benches] : suites) {
    std::vector<BenchmarkRuns> suite;
    for (const auto &[index, runs] : benches)
      suite.push_back(runs);
    for (const auto &[meanName, mean] : means) {
      const std::string id = name + "_" + meanName;
      SCOPED_TRACE(id);
      ASSERT_TRUE(golden.count(id));
      const auto &g = golden.at(id);
      auto r = randomizationTest(suite, {.mean = mean});
      ASSERT_TRUE(r.ok()) << r.error();
      EXPECT_TRUE(r->exhaustive);
      EXPECT_TRUE(closeRelative(r->observed, g.at("observed")));
      EXPECT_EQ(static_cast<double>(r->replicates), g.at("splits"));
      EXPECT_EQ(static_cast<double>(r->countLessEqual), g.at("count.less"));
      EXPECT_EQ(static_cast<double>(r->countGreaterEqual), g.at("count.greater"));
      ++checked;
    }
  }
  EXPECT_EQ(checked, 8u);
}

} // namespace
} // namespace alea::analysis

namespace alea::analysis {
namespace {

// Deterministic parts of the diagnostics vs test/r/compute_diagnostics.R.
TEST(RGoldenDiagnostics, FencesMadSplitsAndBenjaminiHochbergMatchR) {
  const auto golden = testing::readGolden("diagnostics.csv");
  const auto samples = testing::readSamples();
  std::size_t checked = 0;
  for (const auto &[id, g] : golden) {
    SCOPED_TRACE(id);
    if (id.rfind("outliers_", 0) == 0) {
      auto r = findOutliers(samples.at(id.substr(9)));
      ASSERT_TRUE(r.ok());
      EXPECT_TRUE(closeRelative(r->q1, g.at("q1")));
      EXPECT_TRUE(closeRelative(r->q3, g.at("q3")));
      EXPECT_TRUE(closeRelative(r->lowerFence, g.at("lower.fence")));
      EXPECT_TRUE(closeRelative(r->upperFence, g.at("upper.fence")));
      EXPECT_TRUE(closeRelative(r->mad, g.at("mad")));
      double indexSum = 0;
      for (const auto &o : r->outliers)
        indexSum += static_cast<double>(o.index);
      EXPECT_EQ(static_cast<double>(r->outliers.size()), g.at("count"));
      EXPECT_EQ(indexSum, g.at("index.sum"));
      ++checked;
    } else if (id.rfind("split_", 0) == 0) {
      auto r = findLayoutModes(samples.at(id.substr(6)), {.simulations = 1});
      ASSERT_TRUE(r.ok());
      EXPECT_TRUE(closeRelative(r->rSquared, g.at("r.squared")))
          << r->rSquared << " vs " << g.at("r.squared");
      EXPECT_EQ(static_cast<double>(r->lowUnits.size()), g.at("low.count"));
      ++checked;
    } else if (id == "bh_trends") {
      const char *names[] = {"warm", "noise", "warmtie", "c1", "d1"};
      std::vector<double> p;
      for (const char *n : names)
        p.push_back(kendallTrend(samples.at(n))->pValue);
      const auto q = adjustBenjaminiHochberg(p);
      for (std::size_t i = 0; i < p.size(); ++i)
        EXPECT_TRUE(closeRelative(q[i], g.at(names[i]))) << names[i];
      ++checked;
    }
  }
  EXPECT_EQ(checked, 15u);
}

} // namespace
} // namespace alea::analysis

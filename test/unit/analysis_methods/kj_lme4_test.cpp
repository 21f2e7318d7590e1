// Kalibera & Jones' unbiased variance components T_i^2 (the stats helper's
// varianceComponents, variance.hpp) against lme4's REML estimates on balanced
// three-level data with positive components, frozen in test/r/golden/kj.csv
// by test/r/compute_kj.R. On balanced data the ANOVA estimators equal REML
// when all are positive (Searle, Casella & McCulloch 1992 §4.7), so the two
// must agree up to lme4's optimizer precision (observed <= 3e-7 relative).
#include "golden_io.hpp"

#include "alea/analysis/hierarchy.hpp"
#include "alea/analysis/variance.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

namespace alea::analysis {
namespace {

using testing::closeRelative;

std::map<std::string, std::vector<double>> loadDatasets() {
  std::map<std::string, std::vector<double>> values;
  const auto rows = testing::readCsv(testing::rDir() + "/data/kj_balanced.csv");
  // Rows are ordered build, execution, iteration (row-major, lowest fastest).
  for (std::size_t i = 1; i < rows.size(); ++i)
    values[rows[i].at(0)].push_back(testing::parseNumber(rows[i].at(4)));
  return values;
}

TEST(KaliberaJonesVersusLme4, UnbiasedT2EqualsRemlOnBalancedData) {
  const auto golden = testing::readGolden("kj.csv");
  const auto data = loadDatasets();
  ASSERT_EQ(golden.size(), 3u);
  for (const auto &[id, g] : golden) {
    SCOPED_TRACE(id);
    const std::vector<std::size_t> shape = {static_cast<std::size_t>(g.at("n.build")),
                                            static_cast<std::size_t>(g.at("n.execution")),
                                            static_cast<std::size_t>(g.at("n.iteration"))};
    auto h = makeHierarchy({"build", "execution", "iteration"}, shape, data.at(id));
    ASSERT_TRUE(h.ok()) << h.error();
    auto vc = varianceComponents(*h);
    ASSERT_TRUE(vc.ok()) << vc.error();
    ASSERT_EQ(vc->levels.size(), 3u);
    const char *fields[] = {"T2.build", "T2.execution", "T2.iteration"};
    for (std::size_t l = 0; l < 3; ++l) {
      EXPECT_FALSE(vc->levels[l].removed);
      EXPECT_TRUE(closeRelative(vc->levels[l].t2, g.at(fields[l])))
          << fields[l] << ": alea " << vc->levels[l].t2 << " vs lme4 " << g.at(fields[l]);
    }
    EXPECT_TRUE(closeRelative(vc->grandMean, g.at("grand.mean")));
  }
}

} // namespace
} // namespace alea::analysis

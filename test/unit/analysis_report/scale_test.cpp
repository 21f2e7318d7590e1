// The per-benchmark value check and scale (analysis/scale.hpp): each kind of
// refused value with its count and range, the significant bits a subnormal
// keeps, the range no power of two can bring into the safe band, and the
// exponents chosen for ordinary and extreme data.
#include "alea/analysis/scale.hpp"

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <vector>

using namespace alea::analysis;

namespace {
std::string errorOf(std::vector<double> v) {
  auto s = chooseValueScale(v);
  return s ? std::string("ok") : s.error();
}
} // namespace

TEST(ValueScale, EachRefusedKindIsCountedAndNamed) {
  EXPECT_EQ(errorOf({1, NAN, 2}), "1 of 3 values is not a number (NaN)");
  EXPECT_EQ(errorOf({1, INFINITY, -INFINITY}),
            "2 of 3 values are infinite; a time is a finite number > 0");
  EXPECT_EQ(errorOf({1, 0, -2}),
            "2 of 3 values are not positive (from -2 to 0); a time is a finite number > 0");
  // 1e-320 is 2024 times the smallest subnormal: 11 significant bits.
  EXPECT_EQ(errorOf({1e-320, 1}),
            "1 of 2 values is subnormal (1e-320): below 2.225e-308 a double keeps fewer than 53 "
            "significant bits (11 at 1e-320), so they were rounded when read; express them in a "
            "larger unit");
  EXPECT_NE(errorOf({4.9e-324, 1e-322, 1}).find("(from 4.941e-324 to 9.881e-323)"),
            std::string::npos);
  EXPECT_NE(errorOf({4.9e-324, 1}).find("(1 at 4.941e-324)"), std::string::npos);
  // The smallest normal double is accepted as a value, but not beside 1:
  // 2^1022 apart is more than the 2^400 any one scale can hold.
  EXPECT_EQ(errorOf({DBL_MIN, 1}),
            "the values span too wide a range for double precision, from 2.225e-308 to 1 (the "
            "largest may be at most 2^400 times the smallest)");
}

TEST(ValueScale, ExponentCentresExtremeDataAndLeavesOrdinaryDataAlone) {
  auto none = chooseValueScale(std::vector<double>{});
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(none->exponent, 0);
  auto ordinary = chooseValueScale(std::vector<double>{1e-50, 1e50});
  ASSERT_TRUE(ordinary.ok());
  EXPECT_EQ(ordinary->exponent, 0); // within 2^+-200: the same bits as ever
  auto huge = chooseValueScale(std::vector<double>{std::ldexp(1.0, 1000), std::ldexp(1.5, 1010)});
  ASSERT_TRUE(huge.ok());
  EXPECT_EQ(huge->exponent, 1005);
  EXPECT_EQ(huge->range(), "values from 1.072e+301 to 1.646e+304");
  auto tiny = chooseValueScale(std::vector<double>{DBL_MIN, std::ldexp(1.0, -1000)});
  ASSERT_TRUE(tiny.ok());
  EXPECT_EQ(tiny->exponent, -1011);
}

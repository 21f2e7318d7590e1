// One benchmark's values checked and scaled (scale.hpp): counts of the values
// the engine refuses, then the power of two that brings the rest near 1.
#include "alea/analysis/scale.hpp"

#include <cfloat>
#include <cmath>
#include <cstdio>

namespace alea::analysis {

namespace {

std::string g4Value(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

// The offending values of one kind: how many, and the range of their magnitudes.
struct Offenders {
  std::size_t count = 0;
  double lo = INFINITY, hi = -INFINITY;
  void add(double v) {
    ++count;
    lo = std::fmin(lo, v);
    hi = std::fmax(hi, v);
  }
  // "3 of 24 values are" / "1 of 24 values is"
  std::string head(std::size_t total) const {
    return std::to_string(count) + " of " + std::to_string(total) + " values " +
           (count == 1 ? "is" : "are");
  }
  // " (1e-320)" or " (from 9e-321 to 1e-320)"
  std::string span() const {
    return lo == hi ? " (" + g4Value(lo) + ")"
                    : " (from " + g4Value(lo) + " to " + g4Value(hi) + ")";
  }
};

} // namespace

std::string ValueScale::range() const {
  return "values from " + g4Value(smallest) + " to " + g4Value(largest);
}

Expected<ValueScale> chooseValueScale(std::span<const double> values) {
  Offenders nan, infinite, notPositive, subnormal;
  double lo = INFINITY, hi = 0;
  for (double v : values) {
    if (std::isnan(v))
      ++nan.count;
    else if (std::isinf(v))
      infinite.add(v);
    else if (!(v > 0))
      notPositive.add(v);
    else if (v < DBL_MIN)
      subnormal.add(v);
    else {
      lo = std::fmin(lo, v);
      hi = std::fmax(hi, v);
    }
  }
  const std::size_t n = values.size();
  if (nan.count > 0)
    return fail(nan.head(n) + " not a number (NaN)");
  if (infinite.count > 0)
    return fail(infinite.head(n) + " infinite; a time is a finite number > 0");
  if (notPositive.count > 0)
    return fail(notPositive.head(n) + " not positive" + notPositive.span() +
                "; a time is a finite number > 0");
  if (subnormal.count > 0) {
    // The significant bits a double keeps at the smallest of them: one per
    // binade from 2^-1074 (the smallest subnormal) up to its own.
    const int bits = std::ilogb(subnormal.lo) + 1075;
    return fail(subnormal.head(n) + " subnormal" + subnormal.span() + ": below " +
                g4Value(DBL_MIN) + " a double keeps fewer than 53 significant bits (" +
                std::to_string(bits) + " at " + g4Value(subnormal.lo) +
                "), so they were rounded when read; express them in a larger unit");
  }
  ValueScale scale;
  if (n == 0)
    return scale;
  scale.smallest = lo;
  scale.largest = hi;
  const int eLo = std::ilogb(lo), eHi = std::ilogb(hi);
  if (eLo >= -kSafeExponent && eHi <= kSafeExponent)
    return scale;
  if (eHi - eLo > 2 * kSafeExponent)
    return fail("the values span too wide a range for double precision, from " + g4Value(lo) +
                " to " + g4Value(hi) + " (the largest may be at most 2^" +
                std::to_string(2 * kSafeExponent) + " times the smallest)");
  scale.exponent = eLo + (eHi - eLo) / 2; // the scaled values lie around 1
  return scale;
}

} // namespace alea::analysis

// The values of one benchmark, checked and brought near 1 (issue 18, item 8).
// Values near the ends of the double range break the estimators: at 1e308 a
// sum of two values or a square overflows (means and intervals become inf and
// NaN), at 1e-300 the squares of the deviations underflow to 0 (intervals of
// zero width). Every result is scale-equivariant, so the report multiplies a
// benchmark's values by 2^-exponent, which only changes their exponent
// (exact), and multiplies its location results (means, interval bounds) back
// by 2^exponent, variances by 4^exponent; ratios, shares, p-values, relative
// half-widths and counts are scale-free. Data within 2^+-kSafeExponent is left
// alone, so ordinary data gives the same bits as it always did.
//
// The scale is chosen per benchmark (each benchmark is its own experiment,
// often in its own unit), so that one benchmark in nanoseconds next to one in
// hours, or one extreme benchmark, leaves the others' statistics untouched.
// What is refused, per benchmark, with one sentence (docs/analyze.md, "Values
// the engine refuses"):
//  - NaN, infinite, zero and negative values: a time is a finite number > 0
//    (the CSV reader and the runner's extraction refuse them earlier, with the
//    line; this is the engine's own check for any Table);
//  - subnormal values (below 2^-1022 ~ 2.2e-308): a double there keeps fewer
//    than 53 significant bits (1e-320 keeps 11, 1e-322 keeps 5), so the value
//    was rounded when it was read: express such values in a larger unit;
//  - values whose largest is more than 2^(2 kSafeExponent) times their
//    smallest: no power of two brings both into the range where the
//    estimators' squares and fourth powers fit a double.
#pragma once

#include "alea/expected.hpp"

#include <span>
#include <string>

namespace alea::analysis {

// The fourth powers of 2^+-200 (Fieller's discriminant multiplies two
// variances) still fit a double with 2^200 to spare for the sums.
inline constexpr int kSafeExponent = 200;

struct ValueScale {
  int exponent = 0;                 // the values are multiplied by 2^-exponent
  double smallest = 0, largest = 0; // of the values, for messages
  // "values from 8.8e+307 to 1.1e+308"
  std::string range() const;
};

// Checks one benchmark's values (any order, all systems) and chooses its
// scale: exponent 0 when every value lies within 2^+-kSafeExponent, else the
// exponent that centres the values' binary exponents on 0. Fails (one
// sentence, counting the offending values and naming their range) on the
// values listed above; an empty span gets exponent 0.
Expected<ValueScale> chooseValueScale(std::span<const double> values);

} // namespace alea::analysis

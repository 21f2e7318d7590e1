// Data sets printed in the papers, shared by the analysis_core tests.
// Table III / TV1 and Table V / TV4 are from Kalibera & Jones TR 2012 as
// reconstructed and cross-checked in spec_000 §8.1 and §8.3; TV2 is the
// libkalibera test data of spec_001 TV2; seed 002 is Touati 2009 (spec_002 §1.7).
#pragma once

#include "alea/analysis/hierarchy.hpp"

namespace alea::analysis::testdata {

inline const std::vector<std::string> kLevels3 = {"build", "execution", "iteration"};

// TR 2012 Table III: binary -> execution -> measurement.
inline Hierarchy tableIII() {
  return {kLevels3, {3, 2, 2}, {9, 5, 8, 3, 10, 6, 7, 11, 1, 12, 2, 4}};
}

// TR 2012 Table V, old (baseline, denominator) and new (candidate) systems.
inline Hierarchy tableVOld() {
  return {kLevels3, {3, 2, 2}, {9, 11, 5, 6, 16, 13, 12, 8, 15, 7, 10, 14}};
}
inline Hierarchy tableVNew() {
  return {kLevels3, {3, 2, 2}, {10, 12, 6, 7, 9, 1, 11, 4, 8, 5, 3, 2}};
}

// spec_001 TV2 (libkalibera test_data.py).
inline Hierarchy tv2() {
  return {kLevels3, {2, 2, 3}, {3, 4, 3, 1.2, 3.1, 3, 0.2, 1, 1.5, 1, 2, 3}};
}

// Touati 2009 (seed 002) raw data, seconds: T (initial) and T' (optimised).
inline const std::vector<double> kSeed002T = {2.799, 2.046, 1.259, 1.877, 2.244};
inline const std::vector<double> kSeed002TPrime = {1.046, 0.259, 0.877, 1.244, 1.799};

} // namespace alea::analysis::testdata

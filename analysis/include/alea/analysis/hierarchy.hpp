// Balanced nested measurements of ONE system (Kalibera & Jones TR 2012, §7.1;
// spec_000 §0): level names highest first (e.g. build, execution, iteration),
// the repetition count of each level highest first, and the values in
// row-major order (the lowest level varies fastest). Every statistic of the
// engine takes a Hierarchy; nothing here knows about files or the store.
//
// Index convention: this API indexes levels HIGHEST FIRST (0 = top level, the
// build), as the data and the CSV columns are ordered. The papers number levels
// bottom-up (level 1 = measurement); the .cpp files translate and cite both.
#pragma once

#include "alea/expected.hpp"

#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace alea::analysis {

struct Hierarchy {
  // One name per level, highest first. Names are labels only.
  std::vector<std::string> levelNames;
  // Repetition count per level, highest first: shape[0] top-level units, each
  // with shape[1] children, ... Total values = product of shape.
  std::vector<std::size_t> shape;
  // Row-major: values[((j0 * shape[1] + j1) * shape[2] + j2) ...].
  std::vector<double> values;

  // Number of levels (>= 1 for a valid hierarchy).
  std::size_t depth() const { return shape.size(); }
  // Number of top-level units (shape[0]).
  std::size_t topCount() const { return shape.empty() ? 0 : shape[0]; }
  // Product of shape[level+1 ..]: how many values lie under one unit of `level`.
  std::size_t valuesPerUnit(std::size_t level) const;
  // Product of shape[0 .. level]: how many units exist at `level` in total.
  std::size_t unitCount(std::size_t level) const;

  // Means of every unit at `level` (size unitCount(level)), each the mean of all
  // values below it (balanced data: mean of means = mean of values).
  std::vector<double> unitMeans(std::size_t level) const;
  // unitMeans(0): the top-level means on which the t-CI and Fieller work.
  std::vector<double> topMeans() const { return unitMeans(0); }
  // Arithmetic mean of all values (spec_000 eq. 4).
  double grandMean() const;

  // The view that pools (merges) `level` into the level below it: each parent
  // of `level` gets shape[level] * shape[level+1] children at the lower level,
  // named after the lower level (TR 2012 Table III -> Table IV: 2 executions x 2
  // measurements become 4 measurements per binary). Values keep their order
  // (row-major layout makes this a pure shape change). Pooling the top level
  // (level 0) makes the level below the new top. Precondition:
  // level + 1 < depth().
  Hierarchy pooled(std::size_t level) const;
};

// Checks the invariants every statistic relies on: depth >= 1, one name per
// level, every count >= 1, values.size() == product of shape, all values
// finite. Returns a one-sentence reason on failure.
Expected<Hierarchy> makeHierarchy(std::vector<std::string> levelNames,
                                  std::vector<std::size_t> shape, std::vector<double> values);
// Same checks on an existing object; empty string when valid.
std::string validateHierarchy(const Hierarchy &h);

// Builds a one-level hierarchy (named `levelName`) from flat values, e.g. a
// SPEC-like experiment with one measurement per build.
Hierarchy flatHierarchy(std::span<const double> values, std::string levelName = "execution");

} // namespace alea::analysis

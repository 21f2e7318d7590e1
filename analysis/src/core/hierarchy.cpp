// Balanced nested measurements of one system: validation, unit means and the
// pooling view used by level removal (Kalibera & Jones TR 2012 §7.1, and the
// Table III -> Table IV transformation of its worked example, spec_000 §8.2).
#include "alea/analysis/hierarchy.hpp"

#include <cmath>
#include <numeric>

namespace alea::analysis {

std::size_t Hierarchy::valuesPerUnit(std::size_t level) const {
  std::size_t n = 1;
  for (std::size_t k = level + 1; k < shape.size(); ++k)
    n *= shape[k];
  return n;
}

std::size_t Hierarchy::unitCount(std::size_t level) const {
  std::size_t n = 1;
  for (std::size_t k = 0; k <= level && k < shape.size(); ++k)
    n *= shape[k];
  return n;
}

std::vector<double> Hierarchy::unitMeans(std::size_t level) const {
  const std::size_t units = unitCount(level);
  const std::size_t per = valuesPerUnit(level);
  std::vector<double> means(units);
  for (std::size_t u = 0; u < units; ++u) {
    double sum = 0;
    const double *p = values.data() + u * per;
    for (std::size_t i = 0; i < per; ++i)
      sum += p[i];
    means[u] = sum / static_cast<double>(per);
  }
  return means;
}

double Hierarchy::grandMean() const {
  if (values.empty())
    return 0;
  // Mean of the top-level means: the same number for balanced data, and it
  // sums in smaller blocks (less rounding error on large data sets).
  const std::vector<double> top = topMeans();
  return std::accumulate(top.begin(), top.end(), 0.0) / static_cast<double>(top.size());
}

Hierarchy Hierarchy::pooled(std::size_t level) const {
  Hierarchy out;
  for (std::size_t k = 0; k < shape.size(); ++k) {
    if (k == level)
      continue;
    out.levelNames.push_back(levelNames[k]);
    out.shape.push_back(k == level + 1 ? shape[level] * shape[k] : shape[k]);
  }
  out.values = values;
  return out;
}

std::string validateHierarchy(const Hierarchy &h) {
  if (h.shape.empty())
    return "a hierarchy needs at least one level";
  if (h.levelNames.size() != h.shape.size())
    return "a hierarchy needs one name per level (" + std::to_string(h.levelNames.size()) +
           " names for " + std::to_string(h.shape.size()) + " levels)";
  std::size_t total = 1;
  for (std::size_t k = 0; k < h.shape.size(); ++k) {
    if (h.shape[k] == 0)
      return "level '" + h.levelNames[k] + "' has no units";
    total *= h.shape[k];
  }
  if (h.values.size() != total)
    return "a hierarchy of shape with " + std::to_string(total) + " cells has " +
           std::to_string(h.values.size()) + " values";
  for (std::size_t i = 0; i < h.values.size(); ++i)
    if (!std::isfinite(h.values[i]))
      return "value " + std::to_string(i) + " is not finite";
  return {};
}

Expected<Hierarchy> makeHierarchy(std::vector<std::string> levelNames,
                                  std::vector<std::size_t> shape, std::vector<double> values) {
  Hierarchy h{std::move(levelNames), std::move(shape), std::move(values)};
  std::string problem = validateHierarchy(h);
  if (!problem.empty())
    return fail(std::move(problem));
  return h;
}

Hierarchy flatHierarchy(std::span<const double> values, std::string levelName) {
  return Hierarchy{{std::move(levelName)}, {values.size()}, {values.begin(), values.end()}};
}

} // namespace alea::analysis

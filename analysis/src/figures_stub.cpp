// TEMPORARY stub until analysis/src/figures.cpp lands.
#include "alea/analysis/figures.hpp"
namespace alea::analysis {
std::vector<BenchmarkFigures> buildFigures(const Table &, const Table *,
                                           const std::vector<std::string> &,
                                           const FigureOptions &) {
  return {};
}
} // namespace alea::analysis

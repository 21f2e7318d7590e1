// Implementation of the fixture readers (see golden_io.hpp).
#include "golden_io.hpp"

#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace alea::analysis::testing {

std::string rDir() { return ALEA_R_DIR; }

std::vector<std::vector<std::string>> readCsv(const std::string &path) {
  std::ifstream in(path);
  if (!in)
    throw std::runtime_error("cannot open " + path);
  std::vector<std::vector<std::string>> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r')
      line.pop_back();
    std::vector<std::string> cells;
    std::string cell;
    std::istringstream ss(line);
    while (std::getline(ss, cell, ','))
      cells.push_back(cell);
    if (!line.empty() && line.back() == ',')
      cells.emplace_back();
    rows.push_back(std::move(cells));
  }
  return rows;
}

double parseNumber(const std::string &text) {
  if (text == "Inf")
    return std::numeric_limits<double>::infinity();
  if (text == "-Inf")
    return -std::numeric_limits<double>::infinity();
  std::size_t used = 0;
  const double v = std::stod(text, &used);
  if (used != text.size())
    throw std::runtime_error("not a number: " + text);
  return v;
}

std::map<std::string, std::vector<double>> readSamples() {
  std::map<std::string, std::vector<double>> out;
  const auto rows = readCsv(rDir() + "/data/samples.csv");
  for (std::size_t i = 1; i < rows.size(); ++i)
    out[rows[i].at(0)].push_back(parseNumber(rows[i].at(1)));
  return out;
}

std::map<std::string, std::map<std::string, double>> readGolden(const std::string &file) {
  std::map<std::string, std::map<std::string, double>> out;
  const auto rows = readCsv(rDir() + "/golden/" + file);
  for (std::size_t i = 1; i < rows.size(); ++i)
    out[rows[i].at(0)][rows[i].at(1)] = parseNumber(rows[i].at(2));
  return out;
}

bool closeRelative(double a, double b, double rel, double abs) {
  if (std::isinf(a) || std::isinf(b))
    return a == b;
  if (b == 0)
    return std::abs(a) <= abs;
  return std::abs(a - b) <= rel * std::abs(b);
}

} // namespace alea::analysis::testing

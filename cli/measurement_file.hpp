// The measurement file of `alea analyze` and `alea plan`: a long-form CSV read
// from a path (standard input for "-"), parsed with the --levels given, and
// the --costs option read against the file's levels. Shared by the two
// commands so that both read, and fail on, the file the same way.
#pragma once

#include "command.hpp"

#include "alea/analysis/csv.hpp"
#include "alea/analysis/report.hpp"
#include "alea/file.hpp"

#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace alea::cli {

// The whole file, or standard input for "-".
inline Expected<std::string> readMeasurementText(const std::string &path) {
  if (path == "-") {
    std::ostringstream s;
    s << std::cin.rdbuf();
    return s.str();
  }
  if (std::optional<std::string> text = alea::readFile(path))
    return *text;
  return Error{"cannot read " + path};
}

// The parsed file (table and comment lines); a parse error names the file,
// line and column ("data.csv:17:4: value "abc" is not a number").
inline Expected<analysis::CsvResult> loadMeasurements(const std::string &path,
                                                      const std::vector<std::string> &levels) {
  analysis::CsvOptions co;
  co.levels = levels;
  auto text = readMeasurementText(path);
  if (!text)
    return Error{text.error()};
  auto parsed = analysis::parseCsv(*text, co);
  if (parsed.error)
    return Error{parsed.error->format(path)};
  return parsed;
}

// --costs against the table's levels (analysis::parseCosts).
inline Expected<std::vector<double>> costsOption(const std::string &text,
                                                 const std::vector<std::string> &levels) {
  auto costs = analysis::parseCosts(text, levels);
  if (!costs)
    return Error{"--costs: " + costs.error()};
  return *costs;
}

} // namespace alea::cli

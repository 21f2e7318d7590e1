// Readers for the R-agreement fixtures in test/r/: the frozen samples
// (data/samples.csv), the test cases (cases.csv), the R golden values
// (golden/*.csv, "id,field,value" rows) and the balanced hierarchical data
// sets (data/kj_balanced.csv). Plain CSV without quoting.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace alea::analysis::testing {

std::string rDir();
std::vector<std::vector<std::string>> readCsv(const std::string &path);
std::map<std::string, std::vector<double>> readSamples();
// golden[id][field] = value (text "Inf"/"-Inf" become infinities).
std::map<std::string, std::map<std::string, double>> readGolden(const std::string &file);
double parseNumber(const std::string &text);
// |a - b| <= rel * |b|, or |a| <= abs when b == 0; infinities must match.
bool closeRelative(double a, double b, double rel = 1e-6, double abs = 1e-12);

} // namespace alea::analysis::testing

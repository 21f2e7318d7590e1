// The settings line of an exported CSV (`alea export`), the contract between
// the export (runner/exchange) and `alea analyze`/`alea import` of the file:
// what a campaign's analysis depends on beyond its measurements. In the
// report model so that `alea analyze` reads it without any runner library.
#pragma once

#include "alea/expected.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace alea::model {

// What a campaign's analysis depends on beyond its measurements, carried by
// the exported CSV in a comment line before the header, so that `alea
// analyze` (and `alea import`) of the file analyse it as `alea report`
// analyses the store (docs/analyze.md, "Settings in the file"):
//   # alea: design=interleaved threshold=0.02 confidence=0.95 baseline=O1
// Values are percent-encoded (%HH) where they hold a space, '%', '#' or a
// byte outside printable ASCII, so that no name ends the line.
struct ExportSettings {
  std::string design;               // "unpaired", "interleaved", "duet"; "" unknown
  std::optional<double> threshold;  // relative (0.02 = 2%)
  std::optional<double> confidence; // 0.95
  std::string baseline;             // "" unknown
};

// A setting's number as the line spells it: the shortest text that reads
// back as the same double (an import stores it so too).
std::string settingNumber(double v);

// The comment line's text after '#' (no newline).
std::string exportComment(const ExportSettings &s);

// The settings of the first comment line that is alea's (" alea: ..."),
// nullopt when none is; an error names what is malformed. Unknown keys are
// skipped (a later alea may write more).
Expected<std::optional<ExportSettings>> readExportComment(const std::vector<std::string> &comments);

// The comment line's text when it carries no setting.
inline constexpr std::string_view kExportCommentTag = " alea:";

} // namespace alea::model

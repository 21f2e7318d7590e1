// Reading what a built binary tells about its layout, with alea_linker's
// readLayout: how many layouts its randomization can draw (LayoutFacts, in
// report/model's alea/model/layout_facts.hpp with the warnings made of it)
// and the ODR findings of its link record. The builder reads them from a
// fresh build, the report's store read from the build's snapshot in the
// campaign directory.
#pragma once

#include "alea/model/layout_facts.hpp"

#include <optional>
#include <string>

namespace alea::runner {

// The runner's code names them unqualified (they are the report model's).
using model::identicalLayoutsWarning;
using model::LayoutFacts;
using model::odrWarning;

// The facts of the binary at `binary` (LayoutFacts); nullopt when the file
// cannot be read as ELF (or alea was built without the linker).
std::optional<LayoutFacts> layoutFactsOf(const std::string &binary);

// The ODR findings that the link record of the binary at `path` carries
// (`odr=`, docs/wrapper.md "ODR check"): "<count> weak/inline symbol(s) ...
// (<demangled names>)", "" when there are none or the file cannot be read.
std::string odrFindings(const std::string &path);

} // namespace alea::runner

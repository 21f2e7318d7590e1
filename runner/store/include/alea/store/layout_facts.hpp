// What a built binary tells about its layout, read with alea_linker's
// readLayout: how many layouts its randomization can draw
// (analysis/collision.hpp) and the ODR findings of its link record, with the
// campaign warnings made of them. The builder reads them from a fresh build,
// the report from the build's snapshot in the campaign directory.
#pragma once

#include "alea/analysis/collision.hpp"

#include <optional>
#include <string>
#include <vector>

namespace alea::runner {

// What a built binary tells about how many layouts its randomization can
// draw (analysis/collision.hpp), read with alea_linker's readLayout: its
// functions (those of the C runtime's start files apart, which alea does not
// compile), its compile-time notes (one per module alea compiled), the factors
// those notes name and the link-time factors its link record says were
// applied. `randomized` is false for a binary without alea notes; nullopt
// when the file cannot be read as ELF (or alea was built without the linker).
struct LayoutFacts {
  bool randomized = false;
  bool stripped = false; // no symbol table
  // No function symbols (stripped, most often): the fingerprint is of the
  // code bytes and `space` counts no functions.
  bool codeFingerprint = false;
  analysis::LayoutSpace space;
};
std::optional<LayoutFacts> layoutFactsOf(const std::string &binary);

// The "identical layouts" warning for `builds` (indices, >= 2) of `system`
// that share one fingerprint, out of `systemBuilds` builds: how many
// functions the program has, how likely two builds are to coincide and, from
// that, whether the collision is expected or the randomization did not take.
std::string identicalLayoutsWarning(const std::string &system, const std::vector<int> &builds,
                                    std::size_t systemBuilds,
                                    const std::optional<LayoutFacts> &facts);

// The ODR findings that the link record of the binary at `path` carries
// (`odr=`, docs/wrapper.md "ODR check"): "<count> weak/inline symbol(s) ...
// (<demangled names>)", "" when there are none or the file cannot be read.
std::string odrFindings(const std::string &path);

// The campaign warning for builds of `system` whose binaries carry the same
// ODR findings (`alea run` and `alea report` say the same).
std::string odrWarning(const std::string &system, const std::vector<int> &builds,
                       const std::string &findings);

} // namespace alea::runner

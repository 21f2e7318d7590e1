// What a built binary tells about its layout, as the report value needs it:
// how many layouts its randomization can draw (analysis/collision.hpp), and
// the campaign warnings made of that and of a link's ODR findings (`alea run`
// and `alea report` say the same). Reading a binary is runner/store's job
// (alea/store/layout_facts.hpp); this is plain data and words.
#pragma once

#include "alea/analysis/collision.hpp"

#include <optional>
#include <string>
#include <vector>

namespace alea::model {

// What a built binary tells about how many layouts its randomization can
// draw (analysis/collision.hpp), read with alea_linker's readLayout: its
// functions (those of the C runtime's start files apart, which alea does not
// compile), its compile-time notes (one per module alea compiled), the factors
// those notes name and the link-time factors its link record says were
// applied. `randomized` is false for a binary without alea notes
// (runner/store's layoutFactsOf reads it; nullopt when the file cannot be read
// as ELF or alea was built without the linker).
struct LayoutFacts {
  bool randomized = false;
  bool stripped = false; // no symbol table
  // No function symbols (stripped, most often): the fingerprint is of the
  // code bytes and `space` counts no functions.
  bool codeFingerprint = false;
  analysis::LayoutSpace space;
};

// The "identical layouts" warning for `builds` (indices, >= 2) of `system`
// that share one fingerprint, out of `systemBuilds` builds: how many
// functions the program has, how likely two builds are to coincide and, from
// that, whether the collision is expected or the randomization did not take.
std::string identicalLayoutsWarning(const std::string &system, const std::vector<int> &builds,
                                    std::size_t systemBuilds,
                                    const std::optional<LayoutFacts> &facts);

// The campaign warning for builds of `system` whose binaries carry the same
// ODR findings (`alea run` and `alea report` say the same).
std::string odrWarning(const std::string &system, const std::vector<int> &builds,
                       const std::string &findings);

} // namespace alea::model

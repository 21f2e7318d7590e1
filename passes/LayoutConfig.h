//===- LayoutConfig.h - What the alea layout pass randomizes -------------===//
//
// The configuration of one run of the layout pass: the build seed and the set
// of randomization factors, read from the environment of the process the
// plugin is loaded into (ALEA_SEED, ALEA_FACTORS) or from the pass parameters
// of `opt -passes='alea-layout<seed=N;factors=a+b>'`. Also the text of the
// `.note.alea` descriptor, which records the seed and the full factor set
// (including the link-time factors the plugin does not apply itself) in the
// canonical order. The factors, their names, the seed's spelling and the note
// are the contract's (alea/contract.hpp), shared with the wrapper, the runner
// and `alea layout`.
//
//===----------------------------------------------------------------------===//
#ifndef ALEA_PASSES_LAYOUTCONFIG_H
#define ALEA_PASSES_LAYOUTCONFIG_H

#include "alea/contract.hpp"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace alea::passes {

struct LayoutConfig {
  bool HasSeed = false;   // a seed was given (valid or not); none => no-op
  std::uint64_t Seed = 0; // the build seed (ALEA_SEED)
  FactorSet Factors = FactorSet::all();
  std::string Error; // non-empty: a configuration error to report
  // From the wrappers' build cache (alea/contract.hpp): where to write the
  // module's bitcode before the layout pass (ALEA_IR_SNAPSHOT); whether the
  // input is such a snapshot (ALEA_IR_REPLAY), and the identifier to give
  // it (ALEA_MODULE_ID). Usually "", false, "".
  std::string Snapshot;
  bool Replay = false;
  std::string ModuleId;

  bool has(Factor F) const { return Factors.has(F); }
};

// ALEA_SEED / ALEA_FACTORS (and the build cache's ALEA_IR_*, ALEA_MODULE_ID) of
// this process. Read once, at plugin registration.
LayoutConfig configFromEnvironment();

// `seed=N;factors=a+b` (either key optional). Keys not given are taken from
// Base (the environment's configuration).
LayoutConfig configFromParams(llvm::StringRef Params, const LayoutConfig &Base);

// `alea-layout-v1 seed=0x<16 hex digits> factors=<canonical comma list>`
// (alea::layoutNoteText).
std::string noteText(const LayoutConfig &Config);

} // namespace alea::passes

#endif

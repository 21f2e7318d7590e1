//===- LayoutConfig.h - What the alea layout pass randomizes -------------===//
//
// The configuration of one run of the layout pass: the build seed and the set
// of randomization factors, read from the environment of the process the
// plugin is loaded into (ALEA_SEED, ALEA_FACTORS; common brief) or from the
// pass parameters of `opt -passes='alea-layout<seed=N;factors=a+b>'`. Also the
// text of the `.note.alea` descriptor, which records the seed and the full
// factor set (including the link-time factors the plugin does not apply
// itself) in the canonical order.
//
//===----------------------------------------------------------------------===//
#ifndef ALEA_PASSES_LAYOUTCONFIG_H
#define ALEA_PASSES_LAYOUTCONFIG_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace alea::passes {

// The factors in their canonical order (common brief, "Factor names"). The
// first five are applied by this pass; the last two at link time.
enum Factor : unsigned {
  FunctionOrder,
  GlobalOrder,
  SymbolNames,
  CodePadding,
  StackOffset,
  LinkOrder,
  SectionOrder,
  NumFactors
};

// The contract's spelling of a factor (`function-order`, ...).
llvm::StringRef factorName(Factor F);

constexpr unsigned factorBit(Factor F) { return 1u << F; }
constexpr unsigned AllFactors = (1u << NumFactors) - 1;

struct LayoutConfig {
  bool HasSeed = false;   // a seed was given (valid or not); none => no-op
  std::uint64_t Seed = 0; // the build seed (ALEA_SEED)
  unsigned Factors = AllFactors;
  std::string Error; // non-empty: a configuration error to report

  bool has(Factor F) const { return (Factors & factorBit(F)) != 0; }
};

// Parses a factor list: `all`, `none`, or names separated by ',' (the
// environment) or '+' / ':' (pass parameters, where ',' would end the pass
// name in LLVM's pipeline syntax). Empty text means `all`, like an unset
// ALEA_FACTORS. Returns false and sets Error on an unknown name.
bool parseFactorList(llvm::StringRef Text, unsigned &Mask, std::string &Error);

// ALEA_SEED / ALEA_FACTORS of this process. Read once, at plugin registration.
LayoutConfig configFromEnvironment();

// `seed=N;factors=a+b` (either key optional). Keys not given are taken from
// Base (the environment's configuration).
LayoutConfig configFromParams(llvm::StringRef Params, const LayoutConfig &Base);

// `alea-layout-v1 seed=0x<16 hex digits> factors=<canonical comma list>`.
std::string noteText(const LayoutConfig &Config);

} // namespace alea::passes

#endif

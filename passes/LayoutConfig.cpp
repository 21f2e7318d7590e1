//===- LayoutConfig.cpp - Seed and factor set of the alea layout pass -----===//
//
// Parsing of ALEA_SEED / ALEA_FACTORS and of the pass parameters into a
// LayoutConfig, and the `.note.alea` descriptor text. Errors are not raised
// here: they are kept in LayoutConfig::Error and reported through the LLVM
// context when the pass runs (no exceptions in passes/).
//
//===----------------------------------------------------------------------===//
#include "LayoutConfig.h"

#include "alea/random.hpp"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace llvm;

namespace alea::passes {

static constexpr StringLiteral FactorNames[NumFactors] = {
    "function-order", "global-order", "symbol-names", "code-padding",
    "stack-offset",   "link-order",   "section-order"};

StringRef factorName(Factor F) { return FactorNames[F]; }

bool parseFactorList(StringRef Text, unsigned &Mask, std::string &Error) {
  Text = Text.trim();
  if (Text.empty() || Text == "all") {
    Mask = AllFactors;
    return true;
  }
  if (Text == "none") {
    Mask = 0;
    return true;
  }
  std::string Normalized = Text.str();
  for (char &C : Normalized)
    if (C == '+' || C == ':')
      C = ',';
  SmallVector<StringRef, 8> Items;
  StringRef(Normalized).split(Items, ',');
  unsigned Result = 0;
  for (StringRef Item : Items) {
    Item = Item.trim();
    if (Item == "all") {
      Result |= AllFactors;
      continue;
    }
    unsigned I = 0;
    while (I < NumFactors && FactorNames[I] != Item)
      ++I;
    if (I == NumFactors) {
      Error = ("unknown layout factor '" + Twine(Item) +
               "' (known: function-order, global-order, symbol-names, "
               "code-padding, stack-offset, link-order, section-order, all, "
               "none)")
                  .str();
      return false;
    }
    Result |= factorBit(static_cast<Factor>(I));
  }
  Mask = Result;
  return true;
}

static bool parseSeedInto(StringRef Text, LayoutConfig &Config,
                          StringRef Origin) {
  Config.HasSeed = true; // an invalid seed is an error, not "no seed"
  std::uint64_t Value = 0;
  if (!alea::parseSeed(std::string_view(Text.data(), Text.size()), Value)) {
    Config.Error = (Twine(Origin) + " '" + Text +
                    "' is not a seed (decimal or 0x-prefixed hexadecimal)")
                       .str();
    return false;
  }
  Config.Seed = Value;
  return true;
}

LayoutConfig configFromEnvironment() {
  LayoutConfig Config;
  if (const char *Seed = std::getenv("ALEA_SEED"))
    parseSeedInto(Seed, Config, "ALEA_SEED");
  if (const char *Factors = std::getenv("ALEA_FACTORS"))
    if (!parseFactorList(Factors, Config.Factors, Config.Error))
      Config.Error = "ALEA_FACTORS: " + Config.Error;
  return Config;
}

LayoutConfig configFromParams(StringRef Params, const LayoutConfig &Base) {
  LayoutConfig Config = Base;
  SmallVector<StringRef, 4> Items;
  Params.split(Items, ';', -1, /*KeepEmpty=*/false);
  for (StringRef Item : Items) {
    auto [Key, Value] = Item.split('=');
    if (Key == "seed") {
      parseSeedInto(Value, Config, "alea-layout seed");
    } else if (Key == "factors") {
      if (!parseFactorList(Value, Config.Factors, Config.Error))
        Config.Error = "alea-layout factors: " + Config.Error;
    } else {
      Config.Error = ("alea-layout: unknown parameter '" + Twine(Item) +
                      "' (expected seed=N;factors=a+b)")
                         .str();
    }
  }
  return Config;
}

std::string noteText(const LayoutConfig &Config) {
  std::string Text;
  raw_string_ostream OS(Text);
  OS << "alea-layout-v1 seed=0x" << format_hex_no_prefix(Config.Seed, 16)
     << " factors=";
  bool First = true;
  for (unsigned I = 0; I < NumFactors; ++I) {
    if (!Config.has(static_cast<Factor>(I)))
      continue;
    if (!First)
      OS << ',';
    OS << FactorNames[I];
    First = false;
  }
  return Text;
}

} // namespace alea::passes

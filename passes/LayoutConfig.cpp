//===- LayoutConfig.cpp - Seed and factor set of the alea layout pass -----===//
//
// Parsing of ALEA_SEED / ALEA_FACTORS and of the pass parameters into a
// LayoutConfig with the contract's parsers (alea/contract.hpp), and the
// `.note.alea` descriptor text. Errors are not raised here: they are kept in
// LayoutConfig::Error and reported through the LLVM context when the pass runs
// (no exceptions in passes/).
//
//===----------------------------------------------------------------------===//
#include "LayoutConfig.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"

#include <cstdlib>
#include <optional>
#include <string_view>

using namespace llvm;

namespace alea::passes {

// Parses a factor list (alea::parseFactors) into Factors; on an unknown name
// sets Error and returns false.
static bool parseFactorList(StringRef Text, StringRef Separators,
                            FactorSet &Factors, std::string &Error) {
  const std::optional<std::string_view> Unknown = parseFactors(
      std::string_view(Text), Factors, std::string_view(Separators));
  if (!Unknown)
    return true;
  Error =
      ("unknown layout factor '" + Twine(StringRef(*Unknown)) +
       "' (known: " + joinFactorNames(FactorSet::all(), ", ") + ", all, none)")
          .str();
  return false;
}

static bool parseSeedInto(StringRef Text, LayoutConfig &Config,
                          StringRef Origin) {
  Config.HasSeed = true; // an invalid seed is an error, not "no seed"
  std::uint64_t Value = 0;
  if (!parseSeed(std::string_view(Text), Value)) {
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
  if (const char *Seed = std::getenv(kSeedVariable))
    parseSeedInto(Seed, Config, kSeedVariable);
  // The wrapper reads the same variable: the same list syntax (',' only).
  if (const char *Factors = std::getenv(kFactorsVariable))
    if (!parseFactorList(Factors, ",", Config.Factors, Config.Error))
      Config.Error = std::string(kFactorsVariable) + ": " + Config.Error;
  if (const char *Snapshot = std::getenv(kIrSnapshotVariable))
    Config.Snapshot = Snapshot;
  if (const char *Replay = std::getenv(kIrReplayVariable))
    Config.Replay = *Replay != '\0';
  if (const char *Id = std::getenv(kModuleIdVariable))
    Config.ModuleId = Id;
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
      if (!parseFactorList(Value, "+:,", Config.Factors, Config.Error))
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
  return layoutNoteText(Config.Seed, Config.Factors);
}

} // namespace alea::passes

// The contract that the wrappers, the LLVM plugin, the runner and `alea layout`
// share (DESIGN.md, common/): how a seed is spelled, the randomization factors
// and their names, the `.note.alea` ELF notes that record both in every binary,
// and the ALEA_* variables and wrapper names that carry them from the runner to
// the compiler. Each is defined here once, so a name cannot drift between the
// process that writes it and the one that reads it. Header only, no exceptions
// and nothing heavier than <string>: the plugin (LLVM style, -fno-exceptions,
// dlopen'ed into clang, links nothing of ours) includes it like every other part.
#pragma once

#include "alea/enum_names.hpp"
#include "alea/heap_offset.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace alea {

//===-- Variables and executables -------------------------------------------//

// Set by the runner for every build, normalized and passed on by the wrappers,
// read by the plugin inside the compiler.
inline constexpr const char *kSeedVariable = "ALEA_SEED";
inline constexpr const char *kFactorsVariable = "ALEA_FACTORS";
// The absolute path of a file holding the seed, in place of ALEA_SEED: the
// wrappers name it in the dependency files their compiles write, so that make
// and ninja recompile when its content changes (docs/wrapper.md, "Changing the
// seed"). Setting both is a configuration error.
inline constexpr const char *kSeedFileVariable = "ALEA_SEED_FILE";
// The real tools behind the wrappers; the runner reads the compilers' ones to
// record which compiler a build used.
inline constexpr const char *kRealCcVariable = "ALEA_CC";
inline constexpr const char *kRealCxxVariable = "ALEA_CXX";
inline constexpr const char *kRealFcVariable = "ALEA_FC";
inline constexpr const char *kRealLdVariable = "ALEA_LD";
// The wrappers' build cache (docs/wrapper.md, "Build cache"): the directory
// of the optimized, not yet laid out IR of compiles (unset or empty: no
// cache); the runner sets it for a campaign with build_cache = true.
inline constexpr const char *kBuildCacheVariable = "ALEA_BUILD_CACHE";
// Between the wrapper's build cache and the plugin: ALEA_IR_SNAPSHOT names a
// file into which the plugin writes the module's bitcode just before the
// layout pass (and the module's identifier into <file>.id). ALEA_IR_REPLAY
// (non-empty) says that clang compiles such a snapshot: the plugin skips
// every optional pass before the layout pass (they ran when it was taken),
// and the layout pass gives the module the identifier ALEA_MODULE_ID (its
// draws are salted with it).
inline constexpr const char *kIrSnapshotVariable = "ALEA_IR_SNAPSHOT";
inline constexpr const char *kIrReplayVariable = "ALEA_IR_REPLAY";
inline constexpr const char *kModuleIdVariable = "ALEA_MODULE_ID";
// The wrapper executables, which the runner puts into CC, CXX, FC and LD.
inline constexpr const char *kCcWrapperName = "alea-cc";
inline constexpr const char *kCxxWrapperName = "alea-c++";
inline constexpr const char *kFcWrapperName = "alea-fc";
inline constexpr const char *kLdWrapperName = "alea-ld";

//===-- Seed spelling -------------------------------------------------------//

// Parses a seed as decimal or 0x-prefixed hexadecimal (either case); false on
// anything else (empty, sign, trailing garbage, overflow). What users write:
// ALEA_SEED, the campaign file, --seed.
constexpr bool parseSeed(std::string_view text, std::uint64_t &out) {
  unsigned base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    text.remove_prefix(2);
  }
  if (text.empty())
    return false;
  std::uint64_t value = 0;
  for (char c : text) {
    unsigned d;
    if (c >= '0' && c <= '9')
      d = static_cast<unsigned>(c - '0');
    else if (base == 16 && c >= 'a' && c <= 'f')
      d = static_cast<unsigned>(c - 'a' + 10);
    else if (base == 16 && c >= 'A' && c <= 'F')
      d = static_cast<unsigned>(c - 'A' + 10);
    else
      return false;
    if (value > (~std::uint64_t{0} - d) / base)
      return false;
    value = value * base + d;
  }
  out = value;
  return true;
}

// The canonical spelling, "0x" + 16 lowercase hex digits: what alea writes
// (the notes, ALEA_SEED handed to the compiler, the store, reports), so every
// record of one seed is the same string.
inline constexpr std::size_t kSeedTextSize = 18;
inline std::string formatSeed(std::uint64_t seed) {
  std::string text(kSeedTextSize, '0');
  text[1] = 'x';
  for (std::size_t i = kSeedTextSize; i > 2; --i, seed >>= 4)
    text[i - 1] = "0123456789abcdef"[seed & 0xf];
  return text;
}

// Exactly the canonical form ("0x" and 16 hex digits, either case): what a
// note must hold. parseSeed() alone would also take "42" or "0x2a".
constexpr bool parseCanonicalSeed(std::string_view text, std::uint64_t &out) {
  return text.size() == kSeedTextSize && text.substr(0, 2) == "0x" && parseSeed(text, out);
}

//===-- Factors -------------------------------------------------------------//

// The randomization factors (DESIGN.md "Randomization factors") in canonical
// order: lists of factors are always written in this order. The first five
// are applied by the plugin at compile time, the last two at link time.
// Their names are what users write (ALEA_FACTORS, the campaign file) and the
// notes hold; also the salt of each factor's seed stream (mixSeed(build seed,
// name)), so a rename would change every layout.
#define ALEA_FACTOR_LIST(X)                                                                        \
  X(FunctionOrder, "function-order")                                                               \
  X(GlobalOrder, "global-order")                                                                   \
  X(SymbolNames, "symbol-names")                                                                   \
  X(CodePadding, "code-padding")                                                                   \
  X(StackOffset, "stack-offset")                                                                   \
  X(LinkOrder, "link-order")                                                                       \
  X(SectionOrder, "section-order")
enum class Factor : unsigned { ALEA_FACTOR_LIST(ALEA_ENUMERATOR) };
ALEA_ENUM_NAMES(Factor, ALEA_FACTOR_LIST);

inline constexpr unsigned kFactorCount = kEnumNames<Factor>.size();
inline constexpr std::array<std::string_view, kFactorCount> kFactorNames = {
    ALEA_FACTOR_LIST(ALEA_ENUMERATOR_NAME)};

constexpr std::string_view factorName(Factor factor) {
  return kFactorNames[static_cast<unsigned>(factor)];
}

constexpr std::optional<Factor> factorFromName(std::string_view name) {
  return parseEnum<Factor>(name);
}

// The execution-level factor the runner applies to each execution (DESIGN.md:
// heap start offset). Not a Factor: those are what the wrappers and the
// plugin apply to a build, what ALEA_FACTORS and the notes carry. The
// campaign file's `factors` lists take its name after the build factors'
// (runner/config.hpp); the rest of its contract is alea/heap_offset.h, in C
// for its runtime.
inline constexpr std::string_view kHeapOffsetFactorName = ALEA_HEAP_OFFSET_FACTOR;

// Not a factor one switches: the word a link record uses for "lld ran the
// plugin in the LTO link", after the link-time factors it applied.
inline constexpr std::string_view kLtoLinkName = "lto-link";

class FactorSet {
public:
  constexpr FactorSet() = default; // the empty set
  static constexpr FactorSet all() { return FactorSet((1u << kFactorCount) - 1); }
  static constexpr FactorSet none() { return FactorSet(0); }
  constexpr bool has(Factor f) const { return bits_ >> static_cast<unsigned>(f) & 1u; }
  constexpr void add(Factor f) { bits_ |= 1u << static_cast<unsigned>(f); }
  constexpr bool empty() const { return bits_ == 0; }
  constexpr unsigned bits() const { return bits_; }
  constexpr bool operator==(const FactorSet &) const = default;
  // Any factor the plugin applies (function-order ... stack-offset).
  constexpr bool anyCompileTime() const { return (bits_ & 0x1fu) != 0; }

private:
  constexpr explicit FactorSet(unsigned bits) : bits_(bits) {}
  unsigned bits_ = 0;
};

// Parses a factor list: "all", "none", or factor names separated by any of
// `separators` (',' in ALEA_FACTORS; the plugin's pass parameters also take
// '+' and ':', since ',' ends a pass in LLVM's pipeline syntax). Blanks around
// names are ignored; an empty text means the default, all; "all" and "none"
// stand alone, they are not list members. Returns the first word that is not
// a factor name (possibly empty, as in "a,,b"), or nothing on success.
constexpr std::optional<std::string_view> parseFactors(std::string_view text, FactorSet &out,
                                                       std::string_view separators = ",") {
  constexpr std::string_view blanks = " \t\n\v\f\r";
  auto trim = [blanks](std::string_view s) {
    const auto first = s.find_first_not_of(blanks);
    if (first == std::string_view::npos)
      return std::string_view();
    return s.substr(first, s.find_last_not_of(blanks) - first + 1);
  };
  text = trim(text);
  if (text.empty() || text == "all") {
    out = FactorSet::all();
    return std::nullopt;
  }
  if (text == "none") {
    out = FactorSet::none();
    return std::nullopt;
  }
  FactorSet set;
  while (true) {
    const auto end = text.find_first_of(separators);
    const std::string_view word = trim(text.substr(0, end));
    const std::optional<Factor> factor = factorFromName(word);
    if (!factor)
      return word;
    set.add(*factor);
    if (end == std::string_view::npos)
      break;
    text.remove_prefix(end + 1);
  }
  out = set;
  return std::nullopt;
}

// The names of `set` in canonical order joined by `separator`; "" for none.
inline std::string joinFactorNames(FactorSet set, std::string_view separator = ",") {
  std::string out;
  for (unsigned f = 0; f < kFactorCount; ++f)
    if (set.has(static_cast<Factor>(f))) {
      if (!out.empty())
        out += separator;
      out += kFactorNames[f];
    }
  return out;
}

// The ALEA_FACTORS spelling: the canonical comma list, "none" for the empty
// set (an empty ALEA_FACTORS would mean all).
inline std::string formatFactors(FactorSet set) {
  return set.empty() ? std::string("none") : joinFactorNames(set);
}

//===-- The .note.alea ELF notes --------------------------------------------//

// Section .note.alea (SHT_NOTE, align 4) holds ELF notes (gABI "Note
// Section") named "alea". Type 1 is written by the plugin into every object it
// compiles, descriptor
//     alea-layout-v1 seed=0x<16 hex> factors=<configured factors>
// type 2 by the wrapper into one extra object of every seeded link,
//     alea-link-v1 seed=0x<16 hex> factors=<applied>[ skipped=<not applied>]
//                  [ odr=<count>[:<symbol>[,<symbol>...]]]
// Lists are comma lists in canonical order (possibly empty); descsz counts
// the descriptor's terminating NUL. `odr=` is there when the link's inputs
// define weak/COMDAT symbols differently (an ODR violation whose winner
// depends on the link order): their count and the first mangled names
// (alea/linker/odr.hpp). `alea layout` reads both notes.
inline constexpr std::string_view kNoteSection = ".note.alea";
inline constexpr std::string_view kNoteOwner = "alea";
inline constexpr std::uint32_t kLayoutNoteType = 1;
inline constexpr std::string_view kLayoutNoteTag = "alea-layout-v1";
inline constexpr std::uint32_t kLinkNoteType = 2;
inline constexpr std::string_view kLinkNoteTag = "alea-link-v1";
inline constexpr std::string_view kNoteSeedKey = " seed=";
inline constexpr std::string_view kNoteFactorsKey = " factors=";
inline constexpr std::string_view kNoteSkippedKey = " skipped=";
inline constexpr std::string_view kNoteOdrKey = " odr=";

// `<tag> seed=0x<16 hex> factors=<factors>`, the part both notes share.
inline std::string noteDescriptor(std::string_view tag, std::uint64_t seed,
                                  std::string_view factors) {
  std::string text(tag);
  text += kNoteSeedKey;
  text += formatSeed(seed);
  text += kNoteFactorsKey;
  text += factors;
  return text;
}

// The plugin's (type 1) descriptor.
inline std::string layoutNoteText(std::uint64_t seed, FactorSet factors) {
  return noteDescriptor(kLayoutNoteTag, seed, joinFactorNames(factors));
}

} // namespace alea

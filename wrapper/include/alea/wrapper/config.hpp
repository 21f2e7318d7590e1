// The wrappers' configuration, read only from ALEA_* environment variables
// (DESIGN.md "Interfaces"): the seed, the factor set, the real tools, the plugin,
// the log file and the dry run. Parsing is pure (the environment comes in as a
// lookup function) and validating: a seed that is not a number or an unknown factor
// name is OUR configuration error, reported by the wrapper as one line.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace alea::wrapper {

// The randomization factors in their canonical order (common.md "Factor names").
enum class Factor : unsigned {
  FunctionOrder,
  GlobalOrder,
  SymbolNames,
  CodePadding,
  StackOffset,
  LinkOrder,
  SectionOrder,
};
inline constexpr unsigned kFactorCount = 7;

std::string_view factorName(Factor factor);

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
  // Any factor the LLVM plugin implements (function-order ... stack-offset).
  constexpr bool anyCompileTime() const { return (bits_ & 0x1fu) != 0; }

private:
  constexpr explicit FactorSet(unsigned bits) : bits_(bits) {}
  unsigned bits_ = 0;
};

// "all", "none", or a comma-separated list of factor names (spaces around names
// are ignored; an empty text means the default, all). Returns an error message
// (naming the offending word) or nothing.
std::optional<std::string> parseFactors(std::string_view text, FactorSet &out);
// Canonical comma list in the order above; "none" for the empty set.
std::string formatFactors(FactorSet set);
// "0x" + 16 lowercase hex digits, the form of the ELF note.
std::string formatSeed(std::uint64_t seed);

using EnvLookup = std::function<std::optional<std::string>(const char *)>;

struct Settings {
  std::optional<std::uint64_t> seed; // unset or empty ALEA_SEED: plain real tool
  FactorSet factors = FactorSet::all();
  std::string realTool; // ALEA_CC / ALEA_CXX / ALEA_LD as given (may be empty)
  std::string plugin;   // ALEA_PLUGIN as given (may be empty)
  std::string logFile;  // ALEA_LOG (may be empty)
  bool dryRun = false;  // ALEA_DRY_RUN set to anything but "" or "0"
};

enum class Tool { Cc, Cxx, Ld };
std::string_view toolName(Tool tool);    // alea-cc, alea-c++, alea-ld
const char *realToolVariable(Tool tool); // ALEA_CC, ALEA_CXX, ALEA_LD

// Reads and validates the settings of `tool`; returns an error message on failure.
// Without a seed only the real tool, log file and dry run are read, and nothing
// but a malformed ALEA_SEED itself is an error (the wrapper is the real tool).
std::optional<std::string> readSettings(Tool tool, const EnvLookup &env, Settings &out);

} // namespace alea::wrapper

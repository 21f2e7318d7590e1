// Reading and validating the ALEA_* environment of the wrappers (config.hpp).
#include "alea/wrapper/config.hpp"

#include "alea/random.hpp"

#include <array>
#include <cstdio>

namespace alea::wrapper {
namespace {

constexpr std::array<std::string_view, kFactorCount> kFactorNames = {
    "function-order", "global-order", "symbol-names", "code-padding",
    "stack-offset",   "link-order",   "section-order"};

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
    s.remove_suffix(1);
  return s;
}

} // namespace

std::string_view factorName(Factor factor) { return kFactorNames[static_cast<unsigned>(factor)]; }

std::optional<std::string> parseFactors(std::string_view text, FactorSet &out) {
  text = trim(text);
  if (text.empty() || text == "all") {
    out = FactorSet::all();
    return std::nullopt;
  }
  if (text == "none") {
    out = FactorSet::none();
    return std::nullopt;
  }
  FactorSet set = FactorSet::none();
  while (true) {
    const auto comma = text.find(',');
    const std::string_view word = trim(text.substr(0, comma));
    bool known = false;
    for (unsigned f = 0; f < kFactorCount; ++f)
      if (word == kFactorNames[f]) {
        set.add(static_cast<Factor>(f));
        known = true;
      }
    if (!known)
      return "unknown factor '" + std::string(word) +
             "' in ALEA_FACTORS (known: " + formatFactors(FactorSet::all()) + ", all, none)";
    if (comma == std::string_view::npos)
      break;
    text.remove_prefix(comma + 1);
  }
  out = set;
  return std::nullopt;
}

std::string formatFactors(FactorSet set) {
  std::string out;
  for (unsigned f = 0; f < kFactorCount; ++f)
    if (set.has(static_cast<Factor>(f))) {
      if (!out.empty())
        out += ',';
      out += kFactorNames[f];
    }
  return out.empty() ? "none" : out;
}

std::string formatSeed(std::uint64_t seed) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(seed));
  return buf;
}

std::string_view toolName(Tool tool) {
  switch (tool) {
  case Tool::Cc:
    return "alea-cc";
  case Tool::Cxx:
    return "alea-c++";
  case Tool::Ld:
    return "alea-ld";
  }
  return "alea";
}

const char *realToolVariable(Tool tool) {
  switch (tool) {
  case Tool::Cc:
    return "ALEA_CC";
  case Tool::Cxx:
    return "ALEA_CXX";
  case Tool::Ld:
    return "ALEA_LD";
  }
  return "ALEA_CC";
}

std::optional<std::string> readSettings(Tool tool, const EnvLookup &env, Settings &out) {
  Settings s;
  if (auto seed = env("ALEA_SEED"); seed && !trim(*seed).empty()) {
    std::uint64_t value = 0;
    if (!alea::parseSeed(trim(*seed), value))
      return "ALEA_SEED='" + *seed + "' is not a seed (a decimal or 0x-hexadecimal 64-bit number)";
    s.seed = value;
  }
  // Without a seed the wrapper is exactly the real tool, whatever else is
  // set: the factor list means nothing then, so it is not even checked.
  if (auto factors = env("ALEA_FACTORS"); factors && s.seed)
    if (auto error = parseFactors(*factors, s.factors))
      return error;
  if (auto real = env(realToolVariable(tool)))
    s.realTool = std::string(trim(*real));
  if (auto plugin = env("ALEA_PLUGIN"))
    s.plugin = *plugin;
  if (auto log = env("ALEA_LOG"))
    s.logFile = *log;
  if (auto dry = env("ALEA_DRY_RUN"))
    s.dryRun = !dry->empty() && *dry != "0";
  out = std::move(s);
  return std::nullopt;
}

} // namespace alea::wrapper

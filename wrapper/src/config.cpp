// Reading and validating the ALEA_* environment of the wrappers (config.hpp).
#include "alea/wrapper/config.hpp"

namespace alea::wrapper {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
    s.remove_suffix(1);
  return s;
}

} // namespace

std::string_view toolName(Tool tool) {
  switch (tool) {
  case Tool::Cc:
    return kCcWrapperName;
  case Tool::Cxx:
    return kCxxWrapperName;
  case Tool::Fc:
    return kFcWrapperName;
  case Tool::Ld:
    return kLdWrapperName;
  }
  return "alea";
}

const char *realToolVariable(Tool tool) {
  switch (tool) {
  case Tool::Cc:
    return kRealCcVariable;
  case Tool::Cxx:
    return kRealCxxVariable;
  case Tool::Fc:
    return kRealFcVariable;
  case Tool::Ld:
    return kRealLdVariable;
  }
  return kRealCcVariable;
}

std::optional<std::string> readSettings(Tool tool, const EnvLookup &env, Settings &out) {
  Settings s;
  if (auto seed = env(kSeedVariable); seed && !trim(*seed).empty()) {
    std::uint64_t value = 0;
    if (!parseSeed(trim(*seed), value))
      return std::string(kSeedVariable) + "='" + *seed +
             "' is not a seed (a decimal or 0x-hexadecimal 64-bit number)";
    s.seed = value;
  }
  // Without a seed the wrapper is exactly the real tool, whatever else is
  // set: the factor list means nothing then, so it is not even checked.
  if (auto factors = env(kFactorsVariable); factors && s.seed)
    if (auto unknown = parseFactors(*factors, s.factors))
      return "unknown factor '" + std::string(*unknown) + "' in " + kFactorsVariable +
             " (known: " + formatFactors(FactorSet::all()) + ", all, none)";
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

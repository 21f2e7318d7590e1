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

// The file's content without blanks and line ends around it ("42\n", "0x2a\r\n").
std::string_view trimLines(std::string_view s) {
  constexpr std::string_view blanks = " \t\r\n\v\f";
  const auto first = s.find_first_not_of(blanks);
  if (first == std::string_view::npos)
    return {};
  return s.substr(first, s.find_last_not_of(blanks) - first + 1);
}

// A file's content for an error line: at most 40 characters, control bytes as '?'.
std::string printable(std::string_view s) {
  std::string out;
  for (char ch : s.substr(0, 40))
    out += static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f ? '?' : ch;
  if (s.size() > 40)
    out += "...";
  return out;
}

} // namespace

namespace {

constexpr ToolSpec kTools[] = {
    {Tool::Cc, kCcWrapperName, kRealCcVariable, "clang-19", "/usr/lib/llvm-19/bin/clang"},
    {Tool::Cxx, kCxxWrapperName, kRealCxxVariable, "clang++-19", "/usr/lib/llvm-19/bin/clang++"},
    // Debian's flang-19 package has no flang-19 command.
    {Tool::Fc, kFcWrapperName, kRealFcVariable, "flang-new-19", "/usr/lib/llvm-19/bin/flang-new"},
    {Tool::Ld, kLdWrapperName, kRealLdVariable, "ld.lld-19", "/usr/lib/llvm-19/bin/ld.lld"},
};

} // namespace

const ToolSpec &toolSpec(Tool tool) {
  for (const ToolSpec &spec : kTools)
    if (spec.tool == tool)
      return spec;
  return kTools[0]; // not reached: every Tool has its row
}

std::string_view toolName(Tool tool) { return toolSpec(tool).name; }

const char *realToolVariable(Tool tool) { return toolSpec(tool).realToolVariable; }

Expected<Settings> readSettings(Tool tool, const EnvLookup &env, const SeedFileReader &readFile) {
  Settings s;
  const std::optional<std::string> seedText = env(kSeedVariable);
  const bool seedSet = seedText && !trim(*seedText).empty();
  if (auto file = env(kSeedFileVariable); file && !trim(*file).empty()) {
    const std::string path(trim(*file));
    const std::string name = std::string(kSeedFileVariable) + "='" + path + "'";
    if (seedSet)
      return fail(std::string(kSeedVariable) + " and " + kSeedFileVariable +
                  " are both set: set one (the file lets make and ninja rebuild when the seed "
                  "changes)");
    if (path.front() != '/')
      return fail(name +
                  " is not an absolute path (build tools run compilers in other directories)");
    const std::optional<std::string> content = readFile ? readFile(path) : std::nullopt;
    if (!content)
      return fail(name + " cannot be read (it must be a readable regular file holding the seed)");
    std::uint64_t value = 0;
    if (trimLines(*content).empty())
      return fail(name +
                  " is empty (it must hold the seed, a decimal or 0x-hexadecimal 64-bit number)");
    if (!parseSeed(trimLines(*content), value))
      return fail(name + " holds '" + printable(trimLines(*content)) +
                  "', not a seed (a decimal or 0x-hexadecimal 64-bit number)");
    s.seed = value;
    s.seedFile = path;
  } else if (seedSet) {
    std::uint64_t value = 0;
    if (!parseSeed(trim(*seedText), value))
      return fail(std::string(kSeedVariable) + "='" + *seedText +
                  "' is not a seed (a decimal or 0x-hexadecimal 64-bit number)");
    s.seed = value;
  }
  // Without a seed the wrapper is exactly the real tool, whatever else is
  // set: the factor list means nothing then, so it is not even checked.
  if (auto factors = env(kFactorsVariable); factors && s.seed)
    if (auto unknown = parseFactors(*factors, s.factors))
      return fail("unknown factor '" + std::string(*unknown) + "' in " + kFactorsVariable +
                  " (known: " + formatFactors(FactorSet::all()) + ", all, none)");
  if (auto real = env(realToolVariable(tool)))
    s.realTool = std::string(trim(*real));
  if (auto plugin = env("ALEA_PLUGIN"))
    s.plugin = *plugin;
  if (auto log = env("ALEA_LOG"))
    s.logFile = *log;
  if (auto dry = env("ALEA_DRY_RUN"))
    s.dryRun = !dry->empty() && *dry != "0";
  if (auto cache = env(kBuildCacheVariable); cache && !cache->empty() && s.seed) {
    if (!cache->starts_with("/"))
      return fail(std::string(kBuildCacheVariable) + "='" + *cache +
                  "' is not an absolute path (compiles run in many directories)");
    s.buildCache = *cache;
  }
  return s;
}

} // namespace alea::wrapper

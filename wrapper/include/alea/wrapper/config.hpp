// The wrappers' configuration, read only from ALEA_* environment variables
// (DESIGN.md "Interfaces"): the seed, the factor set, the real tools, the plugin,
// the log file and the dry run. Parsing is pure (the environment comes in as a
// lookup function) and validating: a seed that is not a number or an unknown factor
// name is OUR configuration error, reported by the wrapper as one line. The
// variables shared with the plugin and the runner are named in alea/contract.hpp.
#pragma once

#include "alea/contract.hpp"
#include "alea/expected.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace alea::wrapper {

// The factors, their names and the seed's spelling are the contract's
// (alea/contract.hpp: parseFactors, formatFactors, formatSeed).
using alea::Factor;
using alea::FactorSet;

using EnvLookup = std::function<std::optional<std::string>(const char *)>;
// The start of a file (enough for a seed), or nothing if it is not a regular
// file that can be read.
using SeedFileReader = std::function<std::optional<std::string>(const std::string &)>;

struct Settings {
  std::optional<std::uint64_t> seed; // unset or empty ALEA_SEED: plain real tool
  // ALEA_SEED_FILE when the seed came from it (absolute): compiles name it in
  // their dependency file (planCommand).
  std::string seedFile;
  FactorSet factors = FactorSet::all();
  std::string realTool; // ALEA_CC / ALEA_CXX / ALEA_FC / ALEA_LD as given (may be empty)
  std::string plugin;   // ALEA_PLUGIN as given (may be empty)
  std::string logFile;  // ALEA_LOG (may be empty)
  bool dryRun = false;  // ALEA_DRY_RUN set to anything but "" or "0"
  // ALEA_BUILD_CACHE (absolute; "" none): alea-cc and alea-c++ keep each
  // seeded compile's optimized IR there (build_cache.hpp).
  std::string buildCache;
};

// alea-fc is the Fortran compiler driver over flang-new-19 (docs/wrapper.md,
// "Fortran (alea-fc)").
enum class Tool { Cc, Cxx, Fc, Ld };

// What each wrapper is, as data: its name, the variable that names its real
// tool, and where resolveRealTool (driver.hpp) finds the real tool by default.
struct ToolSpec {
  Tool tool;
  std::string_view name;        // alea-cc, alea-c++, alea-fc, alea-ld
  const char *realToolVariable; // ALEA_CC, ALEA_CXX, ALEA_FC, ALEA_LD
  const char *defaultName;      // on PATH: clang-19, clang++-19, flang-new-19, ld.lld-19
  const char *fallbackPath;     // /usr/lib/llvm-19/bin/clang, clang++, flang-new, ld.lld
};
const ToolSpec &toolSpec(Tool tool);
std::string_view toolName(Tool tool);    // toolSpec(tool).name
const char *realToolVariable(Tool tool); // toolSpec(tool).realToolVariable

// Reads and validates the settings of `tool`, or the error.
// Without a seed only the real tool, log file and dry run are read, and nothing
// but a malformed ALEA_SEED itself is an error (the wrapper is the real tool).
// A non-empty ALEA_SEED_FILE is the seed's source instead of ALEA_SEED: it
// must be an absolute path to a readable regular file whose content, blanks
// and line ends around it ignored, is a seed as ALEA_SEED spells it; ALEA_SEED
// must then be unset or empty. Anything else is an error, whatever else is
// set. `readFile` reads it (empty: it cannot be read).
Expected<Settings> readSettings(Tool tool, const EnvLookup &env,
                                const SeedFileReader &readFile = {});

} // namespace alea::wrapper

// The wrapper's actions as a pure function: from the classification, the settings
// and the original arguments to the final argv and environment additions (DESIGN.md
// decision table, "action" column). Compile adds the layout plugin and, for the
// section-order factor, -ffunction-sections -fdata-sections; linking permutes the
// plain object files (link-order) and asks lld to shuffle input sections
// (section-order); a seeded link with an ELF input (whose header the record
// copies) and no linker script or output format of its own gets one more input,
// the link record (link_record.hpp), planned here as a placeholder argument that
// the driver replaces by the path of the object it writes. Nothing here runs a
// process, so the unit tests check the argv.
#pragma once

#include "alea/shell.hpp"
#include "alea/wrapper/classify.hpp"
#include "alea/wrapper/config.hpp"
#include "alea/wrapper/link_record.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace alea::wrapper {

// The placeholder argument of the link record in Plan::argv.
inline constexpr std::string_view LinkRecordPlaceholder = "@alea-link-record@";

// The link record to add to a link.
struct LinkRecordPlan {
  std::string descriptor;   // alea-link-v1 seed=... factors=...
  ElfTarget target;         // what the object must match
  std::size_t argIndex = 0; // position of LinkRecordPlaceholder in Plan::argv
  // The link writes a dependency file: a /proc/self/fd path listed there would
  // make make/ninja relink every time, so the object goes to a content-named
  // file in the user's cache instead of a memfd (docs/wrapper.md).
  bool persistent = false;
};

struct Plan {
  std::vector<std::string> argv;  // argv[0] = the real tool
  std::vector<std::string> notes; // for the log (e.g. why a factor was skipped)
  std::optional<LinkRecordPlan> record;
  // alea chose lld for this link in place of the compiler's default linker
  // (-fuse-ld=lld; the user chose none). lld rejects options GNU ld accepts,
  // so the driver runs this command as a trial and, if it fails, the user's
  // original command instead (driver.hpp, runLinkTrial).
  bool lldByAlea = false;
};

// The link-time factors a link applied and the requested ones it could not
// apply, in the order of the record (link-order, section-order, lto-link).
struct LinkFactors {
  std::vector<std::string> applied;
  std::vector<std::string> skipped;
};

// The seed handed to lld's --shuffle-sections=<glob>=<seed>: lld reads a 32-bit
// value where 0 means "random" and 0xffffffff means "reverse", so we map the
// section-order stream into [1, 2^31 - 1].
std::uint32_t lldShuffleSeed(std::uint64_t buildSeed);

// Permutes args[slots[i]] among themselves with alea::Rng(mixSeed(mixSeed(seed,
// "link-order"), output)) and alea::shuffle; every other position is unchanged.
// `output` is the file name (no directory) of the link's output, "a.out" by
// default: two links of one build with as many objects (a library and a
// program) draw different permutations, and the build directory does not
// enter the draw.
void shuffleLinkOrder(std::vector<std::string> &args, const std::vector<std::size_t> &slots,
                      std::uint64_t seed, std::string_view output = "a.out");

// Whether an lld can load our plugin, which is built for LLVM 19: `given` is
// the linker as named (ALEA_LD, --ld-path=), `resolved` its real path. True if
// either lies in an llvm-19 directory (/usr/lib/llvm-19/bin/ld.lld) or has a
// name ending in -19 (ld.lld-19). Asking `ld.lld --version` would cost a
// process per link; a name that says nothing (/usr/bin/ld.lld is LLVM 14's
// on Debian 12) gets no plugin, and the log says so.
bool lldLoadsPlugin(std::string_view given, std::string_view resolved);

// The final command. `args` exclude argv[0]; `plugin` is the resolved plugin path
// (empty: no LTO plugin); `linkerLoadsPlugin` says whether alea-ld's real linker
// can load it (lldLoadsPlugin). Settings without a seed, or a PassThrough
// classification, give the original arguments unchanged.
Plan planCommand(Tool tool, const std::vector<std::string> &args, const Classification &c,
                 const Settings &settings, const std::string &realTool, const std::string &plugin,
                 bool linkerLoadsPlugin = true);

// The text of one ALEA_LOG line: control characters outside the shell-quoted
// argv (a path in a reason or a note) escaped as in $'...', so that each
// invocation stays exactly one line.
std::string oneLogLine(std::string_view line);

} // namespace alea::wrapper

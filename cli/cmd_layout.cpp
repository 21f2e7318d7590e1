// `alea layout`: shows what alea recorded in a binary (seed, compile-time
// factors, the link record's link-time factors), its function order with the
// gap before each function and its layout fingerprint, or compares two
// binaries' layouts (`--diff A B`). Option parsing only; reading and formatting are in
// alea_linker (linker/include/alea/linker/layout.hpp, docs/layout.md).
#include "command.hpp"

#include "alea/linker/layout.hpp"

#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace {

struct LayoutOptions {
  std::vector<std::string> files;
  bool diff = false;
  bool json = false;
  bool fingerprintOnly = false;
  bool functions = false;
};

alea::cli::Outcome runLayout(const LayoutOptions &opts) {
  namespace al = alea::linker;
  if (opts.diff) {
    if (opts.files.size() != 2)
      return alea::Error{"layout --diff needs exactly two binaries"};
    if (opts.fingerprintOnly)
      return alea::Error{"--fingerprint and --diff cannot be combined"};
    const auto a = al::readLayout(opts.files[0]);
    if (!a)
      return alea::Error{a.error()};
    const auto b = al::readLayout(opts.files[1]);
    if (!b)
      return alea::Error{b.error()};
    const al::LayoutDiff d = al::diffLayouts(*a, *b);
    std::fputs((opts.json ? al::diffToJson(*a, *b, d) : al::formatDiff(*a, *b, d)).c_str(), stdout);
    if (opts.functions && !opts.json)
      std::fputs(("\n" + al::formatDiffFunctions(*a, *b, d)).c_str(), stdout);
    return 0;
  }
  if (opts.functions)
    return alea::Error{"--functions needs --diff A B"};
  if (opts.files.size() != 1)
    return alea::Error{"layout needs exactly one binary (or --diff A B)"};
  const auto read = al::readLayout(opts.files[0]);
  if (!read)
    return alea::Error{read.error()};
  const al::Layout &l = *read;
  if (!opts.fingerprintOnly) {
    std::fputs((opts.json ? al::layoutToJson(l) : al::formatLayout(l)).c_str(), stdout);
    return 0;
  }
  // No digits rather than the hash of nothing, which every such file shares.
  if (l.basis == al::FingerprintBasis::Nothing)
    return alea::Error{"'" + l.path +
                       "' has no layout fingerprint: it has no function symbols and no code"};
  std::printf("%s\n", al::hex16(l.fingerprint).c_str());
  return 0;
}

void setupLayout(CLI::App &sub) {
  auto opts = std::make_shared<LayoutOptions>();
  sub.add_option("binary", opts->files, "ELF executable, shared object or object file(s)")
      ->required();
  sub.add_flag("--diff", opts->diff, "Compare the layouts of two binaries A B");
  sub.add_flag("--json", opts->json, "Machine-readable output");
  sub.add_flag("--fingerprint", opts->fingerprintOnly,
               "Print only the layout fingerprint (16 hex digits)");
  sub.add_flag("--functions", opts->functions,
               "With --diff: one line per matched function (ranks, addresses, offsets, gaps)");
  sub.callback([opts] { alea::cli::finish(runLayout(*opts)); });
}

} // namespace

ALEA_COMMAND("layout",
             "Show a binary's recorded seed, compile-time and link-time factors, function "
             "order (with gaps) and layout fingerprint, or compare two layouts with --diff A B",
             setupLayout);

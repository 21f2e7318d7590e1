// The wrappers' whole run, behind three-line mains: read the settings, find the
// real tool without recursing into ourselves, classify, plan, log, then execv the
// final command (so the exit status and a death by signal are the tool's own).
// Any internal failure execs the untouched original command instead. One
// exception to the exec: a link for which alea itself chose lld runs as a
// child first and falls back to the original command if it fails
// (runLinkTrial). The only output of our own is one `alea-cc: error: ...` line
// for a configuration error (exit status 2).
#pragma once

#include "alea/wrapper/build_cache.hpp"
#include "alea/wrapper/classify.hpp"
#include "alea/wrapper/command.hpp"
#include "alea/wrapper/config.hpp"

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace alea::wrapper {

// Environment variable holding the recursion chain: one hop per alea wrapper
// that led to this process, "<wrapper dev:inode>><real tool dev:inode>",
// comma-separated. A wrapper started with a non-empty chain runs under another
// alea wrapper and passes through, and every wrapper AND every real tool in the
// chain is skipped when searching for the real tool: a "real compiler" that
// leads back to the wrapper (a clang-19 shell script running alea-cc, a
// launcher that runs clang-19 from PATH) is not found again, so it cannot
// loop.
inline constexpr const char *kChainVariable = "ALEA_WRAPPER_CHAIN";

// The hard bound on the chain: a wrapper this many hops deep runs the plain
// /usr/lib/llvm-19/bin/<tool> (never a PATH search), and logs why. Real
// chains are one or two hops (alea-cc, clang-19 running alea-ld).
inline constexpr int kMaxChainDepth = 8;

// Finds the real tool, skipping this executable and every wrapper and tool in
// `chain` (compared by device and inode, so links to them are skipped too):
// `requested` (ALEA_CC...) if given, a path or a name searched on PATH; if
// none was requested, or under a chain where it is not usable, the default
// name on PATH (clang-19 / clang++-19 / ld.lld-19), then
// /usr/lib/llvm-19/bin/<tool>. A chain kMaxChainDepth deep gets only the
// latter. Returns an empty string when nothing usable exists.
std::string resolveRealTool(Tool tool, const std::string &requested, const std::string &chain);

// What the driver found out about the world before deciding.
struct Facts {
  Tool tool = Tool::Cc;
  std::string realTool;      // resolved real compiler / linker
  bool realToolIsLld = true; // alea-ld: may we pass --shuffle-sections?
  // alea-ld: its lld is LLVM 19's and can load the plugin (lldLoadsPlugin).
  bool realToolLoadsPlugin = true;
  bool recursed = false;     // started under another alea wrapper
  int chainDepth = 0;        // hops in the recursion chain (kMaxChainDepth: the bound)
  std::string defaultPlugin; // <wrapper dir>/../lib/AleaPlugin.so
  long pid = 0;              // for the log line
  std::string host;          // this machine's name (the build cache's temporary directory)
};

struct Decision {
  std::vector<std::string> argv;    // the command to exec (argv[0] = real tool)
  std::string logHead;              // the ALEA_LOG line up to " argv: "
  std::string logLine;              // logHead + " argv: " + argv (also for dry runs)
  std::optional<std::string> error; // a configuration error (missing plugin)
  // The link record to write; argv holds LinkRecordPlaceholder at its index.
  std::optional<LinkRecordPlan> record;
  // A compile that goes through the build cache (ALEA_BUILD_CACHE) instead
  // of being exec'ed; argv is then its plain compile (the fallback).
  std::optional<CachePlan> cache;
  // alea chose lld (Plan::lldByAlea): run argv as a trial, and `original` if
  // it fails (runLinkTrial).
  bool lldByAlea = false;
  std::vector<std::string> original; // the untouched command (argv[0] = real tool)
  // The log line written when the trial failed and `original` runs instead,
  // up to the reason's end: `fallbackHead + <how it failed> + fallbackTail`.
  std::string fallbackHead, fallbackTail;
};

// What the ODR check of a link found (docs/wrapper.md, "ODR check"): weak or
// COMDAT symbols that the link's objects define differently.
struct OdrOutcome {
  std::string recordField; // " odr=<count>:<names>" for the link record, "" if none
  std::string warning;     // for the log line (warning="..."), "" if none
  std::string note;        // the check was skipped, or left inputs out: why
};
// Reads the link inputs (objects, archives; command-line order) and checks
// them; never throws. runOdrCheck is the real one (alea/linker/odr.hpp).
using OdrCheck = std::function<OdrOutcome(const std::vector<std::string> &inputs)>;
OdrOutcome runOdrCheck(const std::vector<std::string> &inputs);

// Classifies, plans and describes one invocation: no side effects beyond the
// file-system queries of `fs` and the reads of `odrCheck`, which a seeded
// link runs on its object and archive inputs (none: no check). Any exception
// inside yields the ORIGINAL command with an "internal error" log line: our
// failure never fails a build.
Decision decide(const Facts &facts, const std::vector<std::string> &args, const Settings &settings,
                const ClassifyEnv &fs, const OdrCheck &odrCheck = {});

// Writes the link record object where the real tool (and the linker the
// compiler driver spawns, which inherits our descriptors) can read it, and
// returns that path: an unnamed memfd (no MFD_CLOEXEC) as /proc/self/fd/<n>,
// else an O_TMPFILE file; for a link with a dependency file
// (plan.persistent), a content-named file under $XDG_CACHE_HOME/alea (or
// ~/.cache/alea), not written in a dry run; or why it could not.
Expected<std::string> materializeLinkRecord(const LinkRecordPlan &plan, bool dryRun);

// --- the lld trial ---------------------------------------------------------------
//
// When alea replaces the compiler's default linker (GNU ld on Debian) with lld,
// a link that is valid for the default linker may be one lld rejects (an
// option only GNU ld knows, such as --no-warn-rwx-segments). A valid project
// must never fail to build because of the wrapper, so such a link runs as a
// child with its stderr captured (stdout passes through): on success its
// stderr is replayed and the wrapper exits 0; on failure (also a success with
// lld's --warn-backrefs report of an archive reference GNU ld would not
// resolve: "backward reference detected") the user's original
// command runs in its place (exec: its output, exit status or death by signal
// are the result), and the log says that lld rejected the link. Every other
// command is exec'ed directly.

// What one captured run gave: the wait status and everything on stderr.
struct CapturedRun {
  int waitStatus = 0;
  std::string errors;
};

// The side effects of the trial, as a seam (the unit tests fake them).
struct TrialEffects {
  // Runs argv with env, stderr captured; nothing if no child could be started.
  std::function<std::optional<CapturedRun>(const std::vector<std::string> &,
                                           const std::vector<std::string> &)>
      runCaptured;
  std::function<void(std::string_view)> writeStderr;
  std::function<void(const std::string &)> log;
  // Becomes the given command (the real one never returns).
  std::function<int(const std::vector<std::string> &, const std::vector<std::string> &)> exec;
};

// "exit status 1", "killed by signal 9 (Killed)"...
std::string describeWaitStatus(int waitStatus);

// The trial of a Decision with lldByAlea; `env` is the children's environment.
int runLinkTrial(const Decision &d, const std::vector<std::string> &env, const TrialEffects &fx);

// Runs argv as a child with its stderr captured into memory (a pipe read to its
// end), stdin and stdout inherited; nothing if it could not be started.
std::optional<CapturedRun> runCapturingStderr(const std::vector<std::string> &argv,
                                              const std::vector<std::string> &env);

// Runs the wrapper; returns only if nothing could be executed.
int runWrapper(Tool tool, int argc, char **argv);

} // namespace alea::wrapper

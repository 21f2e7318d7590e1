// The wrappers' run (driver.hpp), the only file of the wrapper with side effects:
// environment, file system, log file, execv. The sequence is
//   1. read and validate the ALEA_* settings (error: one line, exit 2);
//   2. find the real tool, never ourselves nor a wrapper or tool of the
//      recursion chain (error if there is none);
//   3. recursion guard: under another alea wrapper, pass through;
//   4. classify (pure), plan the final argv (pure);
//   4b. a seeded link: the ODR check of its inputs (runOdrCheck), whose
//      findings go into the link record and the log;
//   5. write the link record object of a link (a memfd the real tool inherits);
//   6. log one line, or print it for a dry run;
//   7. execv the real tool with normalized ALEA_SEED/ALEA_FACTORS in its env;
//      a link for which alea chose lld runs as a child first and falls back
//      to the original command if it fails (runLinkTrial, driver.hpp).
// An exception anywhere in 4-6 execs the original command unchanged.
#include "alea/wrapper/driver.hpp"

#include "alea/fd.hpp"
#include "alea/file.hpp"

#include "alea/wrapper/classify.hpp"
#include "alea/wrapper/command.hpp"
#include "alea/wrapper/link_record.hpp"

#include "alea/linker/odr.hpp"
#include "alea/random.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <spawn.h>
#include <sstream>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace alea::wrapper {
namespace {

std::string fileId(const struct stat &st) {
  return std::to_string(static_cast<unsigned long long>(st.st_dev)) + ":" +
         std::to_string(static_cast<unsigned long long>(st.st_ino));
}

// Device:inode of an existing path (following symlinks), or "".
std::string fileIdOf(const std::string &path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0)
    return "";
  return fileId(st);
}

bool isExecutableFile(const std::string &path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

bool isRegularFile(const std::string &path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::optional<std::string> readBytesAt(const std::string &path, std::uint64_t offset,
                                       std::size_t n) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return std::nullopt;
  std::string buf(n, '\0');
  const ssize_t got = ::pread(fd, buf.data(), n, static_cast<off_t>(offset));
  ::close(fd);
  if (got < 0)
    return std::nullopt;
  buf.resize(static_cast<std::size_t>(got));
  return buf;
}

std::string selfExe() {
  char buf[4096];
  const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0)
    return "";
  buf[n] = '\0';
  return buf;
}

std::string dirName(const std::string &path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

// Whether `id` is one of the chain's wrappers or the real tools they ran (the
// chain is "<wrapper>><tool>,<wrapper>><tool>...", see kChainVariable).
bool chainContains(const std::string &chain, const std::string &id) {
  if (id.empty())
    return false;
  std::string_view rest = chain;
  while (!rest.empty()) {
    const auto sep = rest.find_first_of(",>");
    if (rest.substr(0, sep) == id)
      return true;
    if (sep == std::string_view::npos)
      break;
    rest.remove_prefix(sep + 1);
  }
  return false;
}

// How many wrappers the chain went through (one hop each).
int chainDepth(const std::string &chain) {
  return chain.empty() ? 0 : 1 + static_cast<int>(std::count(chain.begin(), chain.end(), ','));
}

void appendLog(const std::string &file, const std::string &line) {
  if (file.empty())
    return;
  // One write(2) on an O_APPEND descriptor: lines of parallel builds do not mix.
  const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0)
    return;
  const std::string text = oneLogLine(line) + "\n";
  [[maybe_unused]] ssize_t ignored = ::write(fd, text.data(), text.size());
  ::close(fd);
}

int configError(Tool tool, const std::string &message) {
  const std::string line = std::string(toolName(tool)) + ": error: " + message + "\n";
  [[maybe_unused]] ssize_t ignored = ::write(2, line.data(), line.size());
  return 2;
}

// The child's environment: ours with ALEA_SEED/ALEA_FACTORS normalized for the
// plugin (when a seed is set; otherwise untouched) and the recursion chain
// extended by this executable.
std::vector<std::string> childEnvironment(const Settings &s, const std::string &chain) {
  std::vector<std::string> env;
  for (char **e = environ; e && *e; ++e) {
    const std::string_view kv = *e;
    // The chain is ours to extend; the cache's plugin variables are set by
    // the build cache for its own children only.
    if (kv.starts_with(std::string(kChainVariable) + "=") ||
        kv.starts_with(std::string(kIrSnapshotVariable) + "=") ||
        kv.starts_with(std::string(kModuleIdVariable) + "="))
      continue;
    // With a seed, the normalized ALEA_SEED below is the seed, also when it
    // came from ALEA_SEED_FILE (both set would be an error in the child).
    if (s.seed && (kv.starts_with(std::string(kSeedVariable) + "=") ||
                   kv.starts_with(std::string(kSeedFileVariable) + "=") ||
                   kv.starts_with(std::string(kFactorsVariable) + "=")))
      continue;
    env.emplace_back(kv);
  }
  if (s.seed) {
    env.push_back(std::string(kSeedVariable) + "=" + formatSeed(*s.seed));
    env.push_back(std::string(kFactorsVariable) + "=" + formatFactors(s.factors));
  }
  env.push_back(std::string(kChainVariable) + "=" + chain);
  return env;
}

// NULL-terminated char* views of strings (for execve and posix_spawn).
std::vector<char *> cStrings(const std::vector<std::string> &strings) {
  std::vector<char *> out;
  out.reserve(strings.size() + 1);
  for (const auto &s : strings)
    out.push_back(const_cast<char *>(s.c_str()));
  out.push_back(nullptr);
  return out;
}

[[noreturn]] void execOrDie(Tool tool, const std::vector<std::string> &argv,
                            const std::vector<std::string> &envStrings) {
  std::vector<char *> args = cStrings(argv), envp = cStrings(envStrings);
  ::execve(args[0], args.data(), envp.data());
  const int err = errno;
  configError(tool, "cannot execute " + argv[0] + ": " + std::strerror(err));
  std::_Exit(err == ENOENT ? 127 : 126);
}

} // namespace

Expected<std::string> materializeLinkRecord(const LinkRecordPlan &plan, bool dryRun) {
  const std::string bytes = writeLinkRecordObject(plan.target, plan.descriptor);
  if (plan.persistent) {
    // Named by its content: the same bytes are the same file for every link
    // that needs them, and a build tool that tracks it sees it never change.
    // (The XDG_CACHE_HOME / ~/.cache rule is also runner's cachePath(); one
    // helper in common/ would need runner/ to change with it, so both keep
    // their three lines for now.)
    const char *xdg = std::getenv("XDG_CACHE_HOME");
    const char *home = std::getenv("HOME");
    std::string dir;
    if (xdg && xdg[0] == '/')
      dir = std::string(xdg) + "/alea";
    else if (home && home[0] == '/')
      dir = std::string(home) + "/.cache/alea";
    else
      return fail("no cache directory (HOME unset)");
    dir += "/link-records";
    const std::string path = dir + "/" + formatSeed(alea::hashName(bytes)).substr(2) + ".o";
    if (dryRun || readFile(path) == bytes)
      return path;
    std::error_code ignored; // a directory we cannot make fails the open below
    std::filesystem::create_directories(dir, ignored);
    const std::string tmp = path + ".tmp." + std::to_string(::getpid());
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    const bool ok = fd >= 0 && writeAll(fd, bytes);
    if (fd >= 0)
      ::close(fd);
    if (!ok || ::rename(tmp.c_str(), path.c_str()) != 0) {
      const std::string why = "cannot write " + path + ": " + std::strerror(errno);
      ::unlink(tmp.c_str());
      return fail(why);
    }
    return path;
  }

  // Not close-on-exec: the real tool inherits the descriptor, and so does the
  // linker a compiler driver spawns; /proc/self/fd/<n> names it in each.
  int fd = ::memfd_create("alea-link-record", MFD_ALLOW_SEALING);
  if (fd < 0) { // no memfd (old kernel, seccomp): an unnamed file in the temp dir
    fd = ::open(tempDirectory().c_str(), O_TMPFILE | O_RDWR, 0600);
  }
  if (fd < 0)
    return fail(std::string("no memfd or O_TMPFILE: ") + std::strerror(errno));
  if (fd <= 2) { // stdin/out/err were closed: keep ours off those numbers
    const int high = ::fcntl(fd, F_DUPFD, 3);
    ::close(fd);
    fd = high;
  }
  if (fd < 0 || !writeAll(fd, bytes)) {
    const std::string why = std::string("cannot write the record: ") + std::strerror(errno);
    if (fd >= 0)
      ::close(fd);
    return fail(why);
  }
  // Nobody may change it afterwards (memfd only; the seals are a courtesy).
  ::fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL);
  const std::string path = "/proc/self/fd/" + std::to_string(fd);
  struct stat st;
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode) ||
      st.st_size != static_cast<off_t>(bytes.size())) {
    ::close(fd);
    return fail("/proc is not mounted");
  }
  return path;
}

std::string resolveRealTool(Tool tool, const std::string &requested, const std::string &chain) {
  const std::string self = fileIdOf("/proc/self/exe");
  auto usable = [&](const std::string &path) {
    if (!isExecutableFile(path))
      return false;
    const std::string id = fileIdOf(path);
    return id != self && !chainContains(chain, id);
  };
  const std::string fallback = toolSpec(tool).fallbackPath;
  // Too deep: something leads back here that the ids do not show (a script
  // that runs a fresh copy of itself, a long row of distinct launchers).
  // Only the fixed LLVM 19 path now, never a PATH search.
  if (chainDepth(chain) >= kMaxChainDepth)
    return usable(fallback) ? fallback : "";
  auto search = [&](const std::string &name) -> std::string {
    if (name.find('/') != std::string::npos)
      return usable(name) ? name : "";
    const char *path = std::getenv("PATH");
    std::string_view dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
    while (true) {
      const auto colon = dirs.find(':');
      const std::string_view dir = dirs.substr(0, colon);
      std::string candidate(dir.empty() ? std::string_view(".") : dir);
      candidate += '/';
      candidate += name;
      if (usable(candidate))
        return candidate;
      if (colon == std::string_view::npos)
        return "";
      dirs.remove_prefix(colon + 1);
    }
  };
  if (!requested.empty()) {
    // Outside a chain the user's choice or nothing. Inside one, a requested
    // tool already in the chain leads back to a wrapper (a script that runs
    // alea-cc): the default search below goes past it.
    std::string found = search(requested);
    if (!found.empty() || chain.empty())
      return found;
  }
  std::string found = search(toolSpec(tool).defaultName);
  if (found.empty() && usable(fallback))
    found = fallback;
  return found;
}

OdrOutcome runOdrCheck(const std::vector<std::string> &inputs) {
  OdrOutcome out;
  const Expected<linker::OdrReport> report = linker::checkOdr(inputs);
  if (!report) {
    out.note = "odr check skipped: " + report.error();
    return out;
  }
  if (!report->findings.empty()) {
    const std::size_t n = report->findings.size();
    out.recordField = linker::odrRecordField(*report);
    out.warning = "ODR violation: " + std::to_string(n) +
                  (n == 1 ? " weak/inline symbol is" : " weak/inline symbols are") +
                  " defined differently by the link's inputs, and which copy the linker keeps "
                  "depends on the link order: " +
                  linker::describeOdrFindings(*report);
  }
  // Shared libraries and linker scripts hold nothing to compare; bitcode
  // (LTO) and thin archives would, but are not read.
  std::vector<std::string> left;
  for (const auto &u : report->unchecked)
    if (!u.ends_with(": a shared library") && !u.ends_with(": not an ELF object or archive"))
      left.push_back(u);
  if (!left.empty()) {
    out.note = "odr check: " + std::to_string(left.size()) + " input(s) not checked (" + left[0];
    if (left.size() > 1)
      out.note += ", ...";
    out.note += ")";
  }
  return out;
}

Decision decide(const Facts &facts, const std::vector<std::string> &args, const Settings &settings,
                const ClassifyEnv &fs, const OdrCheck &odrCheck) {
  const Tool tool = facts.tool;
  // The untouched command, used for every pass-through and on internal failure.
  std::vector<std::string> original;
  original.push_back(facts.realTool);
  original.insert(original.end(), args.begin(), args.end());

  Decision d;
  Settings effective = settings;
  if (facts.recursed)
    effective.seed.reset();
  const std::string head = std::string(toolName(tool)) + " pid=" + std::to_string(facts.pid);
  try {
    Classification c;
    std::string plugin;
    if (effective.seed) {
      c = tool == Tool::Ld
              ? classifyLinker(args, fs)
              : classify(args, fs, tool == Tool::Fc ? Frontend::Flang : Frontend::Clang);
      if (tool == Tool::Ld)
        c.nonLldLinker = !facts.realToolIsLld;
      // The plugin is needed to compile, and to link LTO bitcode (the LTO
      // link loads it); alea-ld offers it to lld when it is there.
      const bool compiles = c.mode == Mode::Compile || c.mode == Mode::CompileAndLink;
      const bool ltoLink = c.mode == Mode::Link && !c.lto.empty();
      if (compiles || ltoLink || (tool == Tool::Ld && c.mode == Mode::Link)) {
        plugin = settings.plugin.empty() ? facts.defaultPlugin : settings.plugin;
        if (!fs.isRegularFile(plugin)) {
          if (tool == Tool::Ld && !compiles && !ltoLink) {
            plugin.clear();
          } else {
            d.error = "layout plugin '" + plugin + "' not found (set ALEA_PLUGIN)";
            return d;
          }
        }
      }
    }
    const Plan plan =
        planCommand(tool, args, c, effective, facts.realTool, plugin, facts.realToolLoadsPlugin);
    d.argv = plan.argv;
    d.record = plan.record;
    // The build cache: a seeded compile of alea-cc / alea-c++ (build_cache.hpp).
    std::string cacheNote;
    if (effective.seed && !settings.buildCache.empty() && c.mode == Mode::Compile &&
        (tool == Tool::Cc || tool == Tool::Cxx) && !settings.dryRun) {
      const std::size_t inputIndex =
          c.inputs.size() == 1 && c.inputs[0].argIndex >= 0
              ? plan.argv.size() - args.size() + static_cast<std::size_t>(c.inputs[0].argIndex)
              : plan.argv.size();
      Expected<CachePlan> cached =
          planBuildCache(plan.argv, inputIndex, c, settings.buildCache,
                         (facts.host.empty() ? "" : facts.host + "-") + std::to_string(facts.pid));
      if (cached)
        d.cache = std::move(*cached);
      else
        cacheNote = "build cache not used: " + cached.error();
    }
    // The ODR check: the objects and archives this link names (sources a
    // compile-and-link compiles first are not there yet).
    OdrOutcome odr;
    if (effective.seed && odrCheck && (c.mode == Mode::Link || c.mode == Mode::CompileAndLink)) {
      std::vector<std::string> inputs;
      for (const Input &in : c.inputs)
        if (in.path != "-" &&
            (in.language == Language::Object || in.language == Language::Archive ||
             in.language == Language::LinkerInput))
          inputs.push_back(in.path);
      try { // the check never changes the link, not even by failing
        if (!inputs.empty())
          odr = odrCheck(inputs);
      } catch (...) {
        odr = OdrOutcome{};
        odr.note = "odr check skipped: internal error";
      }
      if (d.record)
        d.record->descriptor += odr.recordField;
    }
    d.lldByAlea = plan.lldByAlea;
    if (d.lldByAlea) {
      d.original = original;
      d.fallbackHead = head + " mode=pass-through reason=\"lld rejected the link (";
      d.fallbackTail = "): ran the original command, the layout of " +
                       (c.output.empty() ? std::string("a.out") : c.output) +
                       " is not randomized at link time";
      if (c.mode == Mode::CompileAndLink)
        d.fallbackTail += " (nor at compile time: that command compiles without the plugin)";
      d.fallbackTail += "\" argv: " + shellJoin(original, ShellQuoting::DisplayLine);
    }

    std::string line = head;
    if (!effective.seed) {
      if (facts.chainDepth >= kMaxChainDepth)
        line += " mode=pass-through reason=\"recursion guard: " + std::to_string(facts.chainDepth) +
                " alea wrappers deep, ran the plain " + facts.realTool + "\"";
      else if (facts.recursed)
        line += " mode=pass-through reason=\"recursion guard: under another alea wrapper\"";
      else
        line += " mode=pass-through reason=\"no ALEA_SEED\"";
    } else {
      line += " mode=" + std::string(modeName(c.mode)) + " reason=\"" +
              std::string(reasonName(c.reason));
      if (!c.detail.empty())
        line += ": " + c.detail;
      line +=
          "\" seed=" + formatSeed(*effective.seed) + " factors=" + formatFactors(effective.factors);
      if (!effective.seedFile.empty())
        line += " seed-file=" + shellQuote(effective.seedFile, ShellQuoting::DisplayLine);
    }
    for (const auto &note : plan.notes)
      line += " note=\"" + note + "\"";
    if (!odr.note.empty())
      line += " note=\"" + odr.note + "\"";
    if (!cacheNote.empty())
      line += " note=\"" + cacheNote + "\"";
    if (!odr.warning.empty())
      line += " warning=\"" + odr.warning + "\"";
    if (d.record)
      line += " record=\"" + d.record->descriptor + "\"";
    d.logHead = line;
    d.logLine = line + " argv: " + shellJoin(d.argv, ShellQuoting::DisplayLine);
  } catch (const std::exception &e) {
    d.record.reset();
    d.cache.reset();
    d.lldByAlea = false;
    d.argv = original;
    d.logLine = head + " mode=pass-through reason=\"internal error: " + e.what() +
                "\" argv: " + shellJoin(original, ShellQuoting::DisplayLine);
  } catch (...) {
    d.record.reset();
    d.cache.reset();
    d.lldByAlea = false;
    d.argv = original;
    d.logLine = head + " mode=pass-through reason=\"internal error\" argv: " +
                shellJoin(original, ShellQuoting::DisplayLine);
  }
  return d;
}

namespace {

// Steps 1-6; `realToolOut` is set as soon as the real tool is known so that the
// caller can still run the original command if something throws.
int runWrapperSteps(Tool tool, const std::vector<std::string> &args, std::string &realToolOut) {
  auto env = [](const char *name) -> std::optional<std::string> {
    const char *v = std::getenv(name);
    return v ? std::optional<std::string>(v) : std::nullopt;
  };

  // 1. settings
  auto readSeedFile = [](const std::string &path) -> std::optional<std::string> {
    if (!isRegularFile(path))
      return std::nullopt;
    return readBytesAt(path, 0, 4096); // a seed is 20 characters at most
  };
  Expected<Settings> read = readSettings(tool, env, readSeedFile);
  if (!read)
    return configError(tool, read.error());
  const Settings settings = std::move(*read);

  // 2. the real tool, never ourselves or a wrapper that led here
  const std::string chain = env(kChainVariable).value_or("");
  const std::string realTool = resolveRealTool(tool, settings.realTool, chain);
  if (realTool.empty() && chainDepth(chain) >= kMaxChainDepth)
    return configError(tool, "alea wrappers nested " + std::to_string(chainDepth(chain)) +
                                 " deep (a real tool that runs the wrapper again?) and " +
                                 toolSpec(tool).fallbackPath + " is not usable");
  if (realTool.empty()) {
    const std::string what = settings.realTool.empty()
                                 ? std::string(toolSpec(tool).defaultName) + " (default)"
                                 : settings.realTool;
    return configError(tool, std::string("real ") + (tool == Tool::Ld ? "linker" : "compiler") +
                                 " '" + what +
                                 "' not found, not executable, or this wrapper itself (set " +
                                 realToolVariable(tool) + ")");
  }
  realToolOut = realTool;
  // This hop: our own id and the real tool's, so that a wrapper the tool
  // leads back to (a clang-19 script that runs alea-cc) looks past both.
  const std::string hop = fileIdOf("/proc/self/exe") + ">" + fileIdOf(realTool);
  const std::string newChain = chain.empty() ? hop : chain + "," + hop;

  // Under another alea wrapper (it found us as its "real" tool, or the real tool
  // runs us as its linker): that wrapper already randomized, so pass through.
  const bool recursed = !chain.empty();

  // 3-4. decide, plan, describe (no side effects; internal errors fall back)
  Facts facts;
  facts.tool = tool;
  facts.realTool = realTool;
  facts.recursed = recursed;
  facts.chainDepth = chainDepth(chain);
  facts.pid = static_cast<long>(::getpid());
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) == 0)
    facts.host = host;
  if (settings.plugin.empty()) {
    const std::string self = selfExe();
    facts.defaultPlugin = dirName(self) + "/../lib/AleaPlugin.so";
    char resolved[4096];
    if (::realpath(self.c_str(), resolved))
      facts.defaultPlugin = dirName(resolved) + "/../lib/AleaPlugin.so";
    if (::realpath(facts.defaultPlugin.c_str(), resolved))
      facts.defaultPlugin = resolved;
  }
  if (tool == Tool::Ld) {
    char buffer[4096];
    const std::string resolved = ::realpath(realTool.c_str(), buffer) ? buffer : realTool;
    facts.realToolIsLld =
        realTool.find("lld") != std::string::npos || resolved.find("lld") != std::string::npos;
    facts.realToolLoadsPlugin = facts.realToolIsLld && lldLoadsPlugin(realTool, resolved);
  }
  Decision d =
      decide(facts, args, settings, ClassifyEnv{isRegularFile, readFile, readBytesAt}, runOdrCheck);
  if (d.error)
    return configError(tool, *d.error);

  // 5. the link record: write the object, put its path in place of the placeholder
  if (d.record && d.record->argIndex < d.argv.size() &&
      d.argv[d.record->argIndex] == LinkRecordPlaceholder) {
    if (auto path = materializeLinkRecord(*d.record, settings.dryRun)) {
      d.argv[d.record->argIndex] = *path;
    } else {
      d.argv.erase(d.argv.begin() + static_cast<std::ptrdiff_t>(d.record->argIndex));
      d.logHead += " note=\"link record skipped: " + path.error() + "\"";
    }
    d.logLine = d.logHead + " argv: " + shellJoin(d.argv, ShellQuoting::DisplayLine);
  }
  const std::vector<std::string> &finalArgv = d.argv;
  const std::string &logLine = d.logLine;

  // 6. log, or print for a dry run
  appendLog(settings.logFile, logLine);
  if (settings.dryRun) {
    const std::string out = shellJoin(finalArgv, ShellQuoting::DisplayLine) + "\n";
    [[maybe_unused]] ssize_t ignored = ::write(1, out.data(), out.size());
    return 0;
  }
  // 7. become the real tool (or try lld first, when alea chose it)
  const std::vector<std::string> childEnv = childEnvironment(settings, newChain);
  if (d.lldByAlea) {
    // The record's descriptor is no business of the original command.
    int recordFd = -1;
    if (d.record && d.record->argIndex < d.argv.size() &&
        d.argv[d.record->argIndex].starts_with("/proc/self/fd/"))
      recordFd = std::atoi(d.argv[d.record->argIndex].c_str() + 14);
    TrialEffects fx;
    fx.runCaptured = runCapturingStderr;
    fx.writeStderr = [](std::string_view bytes) { writeAll(2, bytes); };
    fx.log = [&](const std::string &line) { appendLog(settings.logFile, line); };
    fx.exec = [&](const std::vector<std::string> &argv,
                  const std::vector<std::string> &env) -> int {
      if (recordFd > 2)
        ::close(recordFd);
      execOrDie(tool, argv, env);
    };
    return runLinkTrial(d, childEnv, fx);
  }
  if (d.cache) {
    CacheTools tools;
    tools.compiler = realTool;
    tools.plugin = settings.plugin.empty() ? facts.defaultPlugin : settings.plugin;
    tools.env = childEnv;
    tools.log = [&](const std::string &line) { appendLog(settings.logFile, line); };
    tools.logHead = std::string(toolName(tool)) + " pid=" + std::to_string(facts.pid);
    if (std::optional<int> status = runCachedCompile(*d.cache, tools))
      return *status;
  }
  execOrDie(tool, finalArgv, childEnv);
}

} // namespace

std::string describeWaitStatus(int waitStatus) {
  if (WIFEXITED(waitStatus))
    return "exit status " + std::to_string(WEXITSTATUS(waitStatus));
  if (WIFSIGNALED(waitStatus)) {
    const char *name = ::strsignal(WTERMSIG(waitStatus));
    return "killed by signal " + std::to_string(WTERMSIG(waitStatus)) +
           (name ? std::string(" (") + name + ")" : std::string());
  }
  return "wait status " + std::to_string(waitStatus);
}

int runLinkTrial(const Decision &d, const std::vector<std::string> &env, const TrialEffects &fx) {
  const std::optional<CapturedRun> trial = fx.runCaptured(d.argv, env);
  std::string why;
  if (!trial)
    why = "it could not be started";
  else if (!WIFEXITED(trial->waitStatus) || WEXITSTATUS(trial->waitStatus) != 0)
    why = describeWaitStatus(trial->waitStatus);
  else if (trial->errors.find("backward reference detected") != std::string::npos)
    // lld's --warn-backrefs (planCommand adds it): lld took a member of an
    // archive that comes before the reference, which GNU ld never does.
    why = "a backward archive reference, which GNU ld does not resolve";
  if (why.empty()) {
    fx.writeStderr(trial->errors); // warnings of a successful link, as the tool wrote them
    return 0;
  }
  // Whatever went wrong (lld's unknown option, or an error the original
  // command has as well): the original command's output and status decide.
  fx.log(d.fallbackHead + why + d.fallbackTail);
  return fx.exec(d.original, env);
}

std::optional<CapturedRun> runCapturingStderr(const std::vector<std::string> &argv,
                                              const std::vector<std::string> &env) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0)
    return std::nullopt;
  // Keep both ends off 0-2 (they may have been closed on us): dup2 onto 2
  // below must really move the write end, which also drops its FD_CLOEXEC.
  for (int &fd : fds) {
    if (fd <= 2) {
      const int high = ::fcntl(fd, F_DUPFD_CLOEXEC, 3);
      ::close(fd);
      fd = high;
    }
  }
  if (fds[0] < 0 || fds[1] < 0) {
    for (int fd : fds)
      if (fd >= 0)
        ::close(fd);
    return std::nullopt;
  }
  // A SIGCHLD ignored by whoever started us (exec keeps that) would reap the
  // child itself and leave waitpid nothing to report.
  ::signal(SIGCHLD, SIG_DFL);
  posix_spawn_file_actions_t actions;
  ::posix_spawn_file_actions_init(&actions);
  ::posix_spawn_file_actions_adddup2(&actions, fds[1], 2);
  std::vector<char *> args = cStrings(argv), envp = cStrings(env);
  pid_t pid = 0;
  const int spawned = ::posix_spawn(&pid, args[0], &actions, nullptr, args.data(), envp.data());
  ::posix_spawn_file_actions_destroy(&actions);
  ::close(fds[1]);
  if (spawned != 0) {
    ::close(fds[0]);
    return std::nullopt;
  }
  CapturedRun run;
  char buffer[65536];
  while (true) {
    const ssize_t n = ::read(fds[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    run.errors.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(fds[0]);
  while (::waitpid(pid, &run.waitStatus, 0) < 0) {
    if (errno != EINTR)
      return std::nullopt;
  }
  return run;
}

int runWrapper(Tool tool, int argc, char **argv) {
  std::string realTool;
  try {
    const std::vector<std::string> args(argv + 1, argv + argc);
    return runWrapperSteps(tool, args, realTool);
  } catch (...) {
    // Our failure must not fail the build: run the untouched command if we know
    // the real tool (argv and environment exactly as we received them).
    if (const char *log = std::getenv("ALEA_LOG")) {
      try {
        appendLog(log, std::string(toolName(tool)) +
                           " mode=pass-through reason=\"internal error\" argv: " +
                           (realTool.empty() ? std::string("(no real tool)") : realTool));
      } catch (...) {
      }
    }
    if (!realTool.empty()) {
      argv[0] = const_cast<char *>(realTool.c_str());
      ::execv(argv[0], argv);
    }
    return configError(tool, "internal error before the real tool could be run");
  }
}

} // namespace alea::wrapper

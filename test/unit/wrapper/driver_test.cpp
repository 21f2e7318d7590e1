// decide(): the driver's decision without side effects. An internal failure (here:
// a file-system query that throws, or runs out of memory) must give the untouched
// original command and a log line saying so; a missing plugin is a configuration
// error; under another wrapper (recursion guard) nothing is added.
#include "alea/wrapper/driver.hpp"

#include <gtest/gtest.h>

#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <new>
#include <set>
#include <sstream>
#include <stdexcept>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace alea::wrapper;

namespace {

Facts facts() {
  Facts f;
  f.tool = Tool::Cc;
  f.realTool = "/usr/bin/clang-19";
  f.defaultPlugin = "/alea/lib/AleaPlugin.so";
  f.pid = 1234;
  return f;
}

Settings seeded() {
  Settings s;
  s.seed = 42;
  return s;
}

ClassifyEnv files(std::set<std::string> names) {
  return {[names](const std::string &p) { return names.count(p) > 0; },
          [](const std::string &) -> std::optional<std::string> { return std::nullopt; }, nullptr};
}

} // namespace

TEST(Decide, CompileUsesTheDefaultPlugin) {
  auto d = decide(facts(), {"-c", "a.c"}, seeded(), files({"a.c", "/alea/lib/AleaPlugin.so"}));
  ASSERT_FALSE(d.error);
  EXPECT_EQ(d.argv[1], "-fpass-plugin=/alea/lib/AleaPlugin.so");
  EXPECT_NE(d.logLine.find("alea-cc pid=1234 mode=compile reason=\"compiling sources\""),
            std::string::npos);
}

TEST(Decide, MissingPluginIsAConfigurationError) {
  auto d = decide(facts(), {"-c", "a.c"}, seeded(), files({"a.c"}));
  ASSERT_TRUE(d.error);
  EXPECT_NE(d.error->find("/alea/lib/AleaPlugin.so"), std::string::npos);
}

TEST(Decide, MissingPluginDoesNotMatterWhenNothingIsCompiled) {
  auto d = decide(facts(), {"-E", "a.c"}, seeded(), files({"a.c"}));
  EXPECT_FALSE(d.error);
  EXPECT_EQ(d.argv, (std::vector<std::string>{"/usr/bin/clang-19", "-E", "a.c"}));
}

TEST(Decide, InternalErrorRunsTheOriginalCommand) {
  ClassifyEnv throwing{
      [](const std::string &) -> bool { throw std::runtime_error("disk on fire"); },
      [](const std::string &) -> std::optional<std::string> { return std::nullopt; }, nullptr};
  auto d = decide(facts(), {"-c", "a.c"}, seeded(), throwing);
  EXPECT_FALSE(d.error);
  EXPECT_EQ(d.argv, (std::vector<std::string>{"/usr/bin/clang-19", "-c", "a.c"}));
  EXPECT_NE(d.logLine.find("internal error: disk on fire"), std::string::npos);
}

TEST(Decide, OutOfMemoryRunsTheOriginalCommand) {
  ClassifyEnv failing{
      [](const std::string &) -> bool { throw std::bad_alloc(); },
      [](const std::string &) -> std::optional<std::string> { return std::nullopt; }, nullptr};
  auto d = decide(facts(), {"a.o", "b.o"}, seeded(), failing);
  EXPECT_EQ(d.argv, (std::vector<std::string>{"/usr/bin/clang-19", "a.o", "b.o"}));
  EXPECT_NE(d.logLine.find("internal error"), std::string::npos);
}

TEST(Decide, RecursionGuardAddsNothing) {
  Facts f = facts();
  f.recursed = true;
  auto d = decide(f, {"-c", "a.c"}, seeded(), files({"a.c"}));
  EXPECT_FALSE(d.error);
  EXPECT_EQ(d.argv, (std::vector<std::string>{"/usr/bin/clang-19", "-c", "a.c"}));
  EXPECT_NE(d.logLine.find("recursion guard"), std::string::npos);
}

TEST(Decide, LinkerThatIsNotLldGetsNoShuffleSections) {
  Facts f = facts();
  f.tool = Tool::Ld;
  f.realTool = "/usr/bin/ld.bfd";
  f.realToolIsLld = false;
  auto d = decide(f, {"a.o", "-o", "x"}, seeded(), files({"a.o"}));
  for (const auto &a : d.argv)
    EXPECT_EQ(a.find("shuffle-sections"), std::string::npos);
  EXPECT_NE(d.logLine.find("section-order skipped"), std::string::npos);
}

// --- the link record ----------------------------------------------------------------

namespace {

ElfTarget x86_64Target() {
  ElfTarget t;
  t.elfClass = 2;
  t.data = 1;
  t.machine = 62;
  return t;
}

std::string slurp(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

} // namespace

namespace {

// a.o is an x86-64 ELF object (for the link record's target).
ClassifyEnv withObject(std::set<std::string> names) {
  ClassifyEnv env = files(std::move(names));
  env.readAt = [](const std::string &p, std::uint64_t at,
                  std::size_t n) -> std::optional<std::string> {
    const std::string object = writeLinkRecordObject(x86_64Target(), "x");
    if (p != "a.o" || at > object.size())
      return std::nullopt;
    return object.substr(at, n);
  };
  return env;
}

} // namespace

TEST(Decide, LinkCarriesTheRecordAndTheLogSaysWhatItRecords) {
  auto d = decide(facts(), {"a.o", "-o", "p"}, seeded(), withObject({"a.o"}));
  ASSERT_TRUE(d.record);
  EXPECT_EQ(d.argv[d.record->argIndex], LinkRecordPlaceholder);
  EXPECT_EQ(d.record->target, x86_64Target());
  EXPECT_NE(d.logLine.find(" record=\"alea-link-v1 seed=0x000000000000002a factors=section-order "
                           "skipped=link-order\" argv: "),
            std::string::npos)
      << d.logLine;
  EXPECT_EQ(d.logLine,
            d.logHead + " argv: " + alea::shellJoin(d.argv, alea::ShellQuoting::DisplayLine));
}

TEST(Decide, SourcesOnlyGetNoRecordAndTheLogSaysWhy) {
  auto d = decide(facts(), {"a.c", "-o", "p"}, seeded(), files({"a.c", "/alea/lib/AleaPlugin.so"}));
  EXPECT_FALSE(d.record);
  EXPECT_NE(d.logLine.find("note=\"link record skipped: no ELF object among the inputs tells the "
                           "target\""),
            std::string::npos)
      << d.logLine;
}

TEST(Decide, InternalErrorCarriesNoRecord) {
  ClassifyEnv throwing{[](const std::string &) -> bool { throw std::runtime_error("x"); },
                       [](const std::string &) -> std::optional<std::string> { return {}; },
                       nullptr};
  auto d = decide(facts(), {"a.o"}, seeded(), throwing);
  EXPECT_FALSE(d.record);
  EXPECT_FALSE(d.lldByAlea);
}

// --- alea-ld and the plugin --------------------------------------------------------

TEST(Decide, AleaLdLoadsNoPluginIntoAnotherLld) {
  Facts f = facts();
  f.tool = Tool::Ld;
  f.realTool = "/usr/bin/ld.lld-18";
  f.realToolLoadsPlugin = false;
  auto d = decide(f, {"a.o", "-o", "x"}, seeded(), files({"a.o", "/alea/lib/AleaPlugin.so"}));
  for (const auto &a : d.argv)
    EXPECT_EQ(a.find("--load-pass-plugin"), std::string::npos) << a;
  EXPECT_NE(d.logLine.find("the LTO link does not load the plugin"), std::string::npos);
  f.realTool = "/usr/bin/ld.lld-19";
  f.realToolLoadsPlugin = true;
  d = decide(f, {"a.o", "-o", "x"}, seeded(), files({"a.o", "/alea/lib/AleaPlugin.so"}));
  EXPECT_EQ(d.argv[1], "--load-pass-plugin=/alea/lib/AleaPlugin.so");
}

// --- the lld trial ------------------------------------------------------------------

TEST(Decide, LldChosenByAleaCarriesTheOriginalCommand) {
  auto d =
      decide(facts(), {"a.o", "-Wl,--no-warn-rwx-segments", "-o", "p"}, seeded(), files({"a.o"}));
  ASSERT_TRUE(d.lldByAlea);
  EXPECT_EQ(d.argv[1], "-fuse-ld=lld");
  EXPECT_EQ(d.original, (std::vector<std::string>{"/usr/bin/clang-19", "a.o",
                                                  "-Wl,--no-warn-rwx-segments", "-o", "p"}));
  EXPECT_EQ(d.fallbackHead, "alea-cc pid=1234 mode=pass-through reason=\"lld rejected the link (");
  EXPECT_EQ(d.fallbackTail, "): ran the original command, the layout of p is not randomized at "
                            "link time\" argv: /usr/bin/clang-19 a.o -Wl,--no-warn-rwx-segments "
                            "-o p");
  // Compiling and linking: the original command compiles without the plugin too.
  d = decide(facts(), {"a.c"}, seeded(), files({"a.c", "/alea/lib/AleaPlugin.so"}));
  ASSERT_TRUE(d.lldByAlea);
  EXPECT_NE(d.fallbackTail.find("layout of a.out is not randomized at link time (nor at compile "
                                "time: that command compiles without the plugin)"),
            std::string::npos)
      << d.fallbackTail;
}

TEST(Decide, UsersLinkerAndAleaLdAreExecedDirectly) {
  EXPECT_FALSE(decide(facts(), {"a.o", "-fuse-ld=bfd"}, seeded(), files({"a.o"})).lldByAlea);
  EXPECT_FALSE(decide(facts(), {"a.o", "-fuse-ld=lld"}, seeded(), files({"a.o"})).lldByAlea);
  EXPECT_FALSE(decide(facts(), {"-c", "a.c"}, seeded(), files({"a.c", "/alea/lib/AleaPlugin.so"}))
                   .lldByAlea);
  EXPECT_FALSE(decide(facts(), {"a.o"}, Settings{}, files({"a.o"})).lldByAlea);
  Facts ld = facts();
  ld.tool = Tool::Ld;
  EXPECT_FALSE(decide(ld, {"a.o"}, seeded(), files({"a.o"})).lldByAlea);
}

namespace {

// A TrialEffects that records what the trial did.
struct FakeTrial {
  std::optional<CapturedRun> result;
  std::vector<std::vector<std::string>> ran, execed;
  std::string stderrText, logText;
  TrialEffects effects() {
    TrialEffects fx;
    fx.runCaptured = [this](const std::vector<std::string> &argv,
                            const std::vector<std::string> &) {
      ran.push_back(argv);
      return result;
    };
    fx.writeStderr = [this](std::string_view bytes) { stderrText += bytes; };
    fx.log = [this](const std::string &line) { logText += line + "\n"; };
    fx.exec = [this](const std::vector<std::string> &argv, const std::vector<std::string> &) {
      execed.push_back(argv);
      return 77; // (the real one never returns)
    };
    return fx;
  }
};

Decision trialDecision() {
  auto d = decide(facts(), {"a.o", "-o", "p"}, seeded(), files({"a.o"}));
  EXPECT_TRUE(d.lldByAlea);
  return d;
}

} // namespace

TEST(LinkTrial, SuccessReplaysStderrAndExitsZero) {
  FakeTrial t;
  t.result = CapturedRun{0, "ld.lld: warning: something\n"};
  const Decision d = trialDecision();
  EXPECT_EQ(runLinkTrial(d, {}, t.effects()), 0);
  ASSERT_EQ(t.ran.size(), 1u);
  EXPECT_EQ(t.ran[0], d.argv);
  EXPECT_EQ(t.stderrText, "ld.lld: warning: something\n");
  EXPECT_TRUE(t.execed.empty());
  EXPECT_EQ(t.logText, "");
}

TEST(LinkTrial, FailureRunsTheOriginalCommandAndLogsIt) {
  FakeTrial t;
  t.result = CapturedRun{1 << 8, "ld.lld: error: unknown argument '--no-warn-rwx-segments'\n"};
  const Decision d = trialDecision();
  EXPECT_EQ(runLinkTrial(d, {}, t.effects()), 77);
  ASSERT_EQ(t.execed.size(), 1u);
  EXPECT_EQ(t.execed[0], (std::vector<std::string>{"/usr/bin/clang-19", "a.o", "-o", "p"}));
  EXPECT_EQ(t.stderrText, ""); // lld's complaint is not the user's business
  EXPECT_EQ(t.logText, "alea-cc pid=1234 mode=pass-through reason=\"lld rejected the link (exit "
                       "status 1): ran the original command, the layout of p is not randomized "
                       "at link time\" argv: /usr/bin/clang-19 a.o -o p\n");
}

// lld links archives in any order; GNU ld, the user's linker, only resolves
// forward. A link lld accepts with a backward archive reference (its
// --warn-backrefs warning) is a rejection: GNU ld's own result decides.
TEST(LinkTrial, BackwardArchiveReferenceRunsTheOriginalCommand) {
  FakeTrial t;
  t.result = CapturedRun{
      0, "ld.lld: warning: backward reference detected: gb in gm.o refers to gb.a(gb.o)\n"};
  const Decision d = trialDecision();
  EXPECT_EQ(runLinkTrial(d, {}, t.effects()), 77);
  ASSERT_EQ(t.execed.size(), 1u);
  EXPECT_EQ(t.execed[0], (std::vector<std::string>{"/usr/bin/clang-19", "a.o", "-o", "p"}));
  EXPECT_EQ(t.stderrText, "");
  EXPECT_EQ(t.logText, "alea-cc pid=1234 mode=pass-through reason=\"lld rejected the link (a "
                       "backward archive reference, which GNU ld does not resolve): ran the "
                       "original command, the layout of p is not randomized at link time\" argv: "
                       "/usr/bin/clang-19 a.o -o p\n");
}

TEST(LinkTrial, DeathBySignalOrNoChildRunsTheOriginalCommand) {
  FakeTrial killed;
  killed.result = CapturedRun{SIGSEGV, ""};
  EXPECT_EQ(runLinkTrial(trialDecision(), {}, killed.effects()), 77);
  EXPECT_EQ(killed.execed.size(), 1u);
  EXPECT_NE(killed.logText.find("(killed by signal 11"), std::string::npos) << killed.logText;
  FakeTrial none; // posix_spawn failed
  EXPECT_EQ(runLinkTrial(trialDecision(), {}, none.effects()), 77);
  EXPECT_EQ(none.execed.size(), 1u);
  EXPECT_NE(none.logText.find("(it could not be started)"), std::string::npos) << none.logText;
}

TEST(LinkTrial, WaitStatusInWords) {
  EXPECT_EQ(describeWaitStatus(0), "exit status 0");
  EXPECT_EQ(describeWaitStatus(3 << 8), "exit status 3");
  EXPECT_EQ(describeWaitStatus(SIGKILL).rfind("killed by signal 9", 0), 0u);
}

TEST(LinkTrial, CapturesStderrOnlyAndTheStatus) {
  auto r = runCapturingStderr({"/bin/sh", "-c", "echo to-stderr >&2; exit 3"}, {"PATH=/bin"});
  ASSERT_TRUE(r);
  EXPECT_TRUE(WIFEXITED(r->waitStatus));
  EXPECT_EQ(WEXITSTATUS(r->waitStatus), 3);
  EXPECT_EQ(r->errors, "to-stderr\n");
  r = runCapturingStderr({"/bin/sh", "-c", "kill -TERM $$"}, {});
  ASSERT_TRUE(r);
  ASSERT_TRUE(WIFSIGNALED(r->waitStatus));
  EXPECT_EQ(WTERMSIG(r->waitStatus), SIGTERM);
  // A large stderr does not block the child (the pipe is read while it runs).
  r = runCapturingStderr({"/bin/sh", "-c",
                          "i=0; while [ $i -lt 20000 ]; do echo "
                          "0123456789 >&2; i=$((i+1)); done"},
                         {});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->errors.size(), 220000u);
  EXPECT_FALSE(runCapturingStderr({"/nonexistent/tool"}, {}));
}

// materializeLinkRecord's path, or nothing with its error in `why`.
std::optional<std::string> materialize(const LinkRecordPlan &plan, bool dryRun, std::string &why) {
  auto path = materializeLinkRecord(plan, dryRun);
  why = path.error();
  return path ? std::optional<std::string>(*path) : std::nullopt;
}

TEST(Materialize, MemfdThatAChildProcessCanOpen) {
  LinkRecordPlan plan;
  plan.descriptor = "alea-link-v1 seed=0x0000000000000001 factors=link-order";
  plan.target = x86_64Target();
  std::string why;
  const auto path = materialize(plan, false, why);
  ASSERT_TRUE(path) << why;
  ASSERT_EQ(path->rfind("/proc/self/fd/", 0), 0u) << *path;
  const int fd = std::atoi(path->c_str() + 14);
  EXPECT_GE(fd, 3);
  EXPECT_EQ(::fcntl(fd, F_GETFD) & FD_CLOEXEC, 0); // inherited across exec
  const std::string expected = writeLinkRecordObject(plan.target, plan.descriptor);
  EXPECT_EQ(slurp(*path), expected);
  // What the compiler driver and the linker do: exec a program that opens it.
  const std::string cmd = "cmp -s " + *path + " " + *path; // resolved in the child
  EXPECT_EQ(
      std::system(
          ("test \"$(wc -c < " + *path + ")\" -eq " + std::to_string(expected.size())).c_str()),
      0);
  EXPECT_EQ(std::system(cmd.c_str()), 0);
  // Sealed: nobody writes into it later.
  EXPECT_LT(::write(fd, "x", 1), 0);
  ::close(fd);
}

TEST(Materialize, DependencyFileLinksGetAContentNamedCacheFile) {
  char dir[] = "/tmp/alea-record-test-XXXXXX";
  ASSERT_NE(::mkdtemp(dir), nullptr);
  const char *old = std::getenv("XDG_CACHE_HOME");
  const std::string saved = old ? old : "";
  ::setenv("XDG_CACHE_HOME", dir, 1);
  LinkRecordPlan plan;
  plan.descriptor = "alea-link-v1 seed=0x0000000000000002 factors=section-order";
  plan.target = x86_64Target();
  plan.persistent = true;
  std::string why;
  // A dry run names the file but writes nothing.
  const auto dry = materialize(plan, true, why);
  ASSERT_TRUE(dry) << why;
  EXPECT_EQ(dry->rfind(std::string(dir) + "/alea/link-records/", 0), 0u) << *dry;
  struct stat st;
  EXPECT_NE(::stat(dry->c_str(), &st), 0);
  const auto path = materialize(plan, false, why);
  ASSERT_TRUE(path) << why;
  EXPECT_EQ(*path, *dry);
  EXPECT_EQ(slurp(*path), writeLinkRecordObject(plan.target, plan.descriptor));
  // An mtime long past: a rewrite would move it on any machine, however fast
  // (a rewrite within the same clock tick could keep a fresh file's mtime).
  const struct timespec past[2] = {{1000000000, 123456789}, {1000000000, 123456789}};
  ASSERT_EQ(::utimensat(AT_FDCWD, path->c_str(), past, 0), 0);
  ASSERT_EQ(::stat(path->c_str(), &st), 0);
  const auto mtime = st.st_mtim;
  // The same record again: the same file, untouched (a build tool sees no change).
  EXPECT_EQ(materialize(plan, false, why), path);
  ASSERT_EQ(::stat(path->c_str(), &st), 0);
  EXPECT_EQ(st.st_mtim.tv_sec, mtime.tv_sec);
  EXPECT_EQ(st.st_mtim.tv_nsec, mtime.tv_nsec);
  plan.descriptor += ",x";
  EXPECT_NE(materialize(plan, false, why), path);
  if (old)
    ::setenv("XDG_CACHE_HOME", saved.c_str(), 1);
  else
    ::unsetenv("XDG_CACHE_HOME");
  std::system(("rm -rf '" + std::string(dir) + "'").c_str());
}

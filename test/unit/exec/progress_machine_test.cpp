// Progress output without a terminal (plain lines), durations, and the
// machine-state comparison that decides what counts as a change.
#include "alea/exec/machine.hpp"
#include "alea/exec/progress.hpp"

#include "test_util.hpp"

#include <gtest/gtest.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <optional>
#include <string>

#include <fcntl.h>
#include <termios.h>
#include <unistd.h>

using namespace alea;
using namespace alea::runner;

namespace {

// A clock that moves only when the test moves it: the throttle and the ETA
// then see the same times on any machine, however slow or busy.
struct FakeClock {
  std::chrono::steady_clock::time_point now{std::chrono::hours(1)};
  void advance(std::chrono::milliseconds d) { now += d; }
  ProgressClock clock() {
    return [this] { return now; };
  }
};

// A pseudo-terminal standing in for the user's terminal: out() is its slave
// side, raw (no \n -> \r\n translation: read back what was written), and
// drain() closes it and returns everything written. Once the slave side is
// closed and its data is drained, read() on the master fails (EIO): no
// timeout decides where the text ends (the pty hands the bytes over
// asynchronously).
class Pty {
public:
  Pty() {
    master_ = ::posix_openpt(O_RDWR | O_NOCTTY);
    EXPECT_GE(master_, 0);
    EXPECT_EQ(::grantpt(master_), 0);
    EXPECT_EQ(::unlockpt(master_), 0);
    int slave = ::open(::ptsname(master_), O_RDWR | O_NOCTTY);
    EXPECT_GE(slave, 0);
    struct termios tio;
    EXPECT_EQ(::tcgetattr(slave, &tio), 0);
    ::cfmakeraw(&tio);
    EXPECT_EQ(::tcsetattr(slave, TCSANOW, &tio), 0);
    out_ = ::fdopen(slave, "w");
    EXPECT_NE(out_, nullptr);
  }
  std::FILE *out() { return out_; }
  std::string drain() {
    std::fclose(out_); // the last descriptor of the slave side
    std::string text;
    char buf[4096];
    for (;;) {
      ssize_t n = ::read(master_, buf, sizeof buf);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break;
      text.append(buf, static_cast<std::size_t>(n));
    }
    ::close(master_);
    return text;
  }

private:
  int master_ = -1;
  std::FILE *out_ = nullptr;
};

} // namespace

TEST(Progress, PlainLinesWhenNotATerminal) {
  std::FILE *f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  FakeClock clock;
  {
    StreamProgress p(f, clock.clock());
    p.message("building a #0");
    p.start(0, 20);
    for (int i = 1; i <= 20; ++i) {
      clock.advance(std::chrono::seconds(1)); // one execution per second
      p.update(i, 20, i / 10);
    }
    p.finish();
  }
  std::rewind(f);
  std::string text;
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, f))
    text.append(buf, n);
  std::fclose(f);
  EXPECT_EQ(text.find('\r'), std::string::npos); // no bar
  EXPECT_EQ(text.rfind("building a #0\n", 0), 0u);
  EXPECT_NE(text.find("progress: 2/20 executions (10%), 0 failed, ETA 18s\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("progress: 20/20 executions (100%), 2 failed, ETA 0s\n"), std::string::npos)
      << text;
  // one line per 10% step, not one per execution: the message and 10 steps
  std::size_t lines = 0;
  for (char c : text)
    lines += c == '\n';
  EXPECT_EQ(lines, 11u) << text;
}

TEST(Progress, ResumeIsAnnounced) {
  std::FILE *f = std::tmpfile();
  {
    StreamProgress p(f);
    p.start(7, 20);
  }
  std::rewind(f);
  char buf[256] = {};
  ASSERT_NE(std::fgets(buf, sizeof buf, f), nullptr);
  std::fclose(f);
  EXPECT_STREQ(buf, "resuming: 7 of 20 executions already done\n");
}

TEST(Progress, Durations) {
  EXPECT_EQ(formatDuration(5), "5s");
  EXPECT_EQ(formatDuration(187), "3m07s");
  EXPECT_EQ(formatDuration(3725), "1h02m");
  EXPECT_EQ(formatDuration(-1), "?");
}

TEST(Machine, StableFieldChangesAreReportedLoadOnlyWhenItRises) {
  MachineState a;
  a.governor = "performance";
  a.aslr = 2;
  a.kernel = "Linux 6";
  a.cpuCount = 2;
  a.load1 = 0.5;
  MachineState b = a;
  b.load1 = 1.4; // +0.9: noise
  EXPECT_TRUE(machineChanges(a, b).empty());
  b.load1 = 1.6;
  EXPECT_EQ(machineChanges(a, b), std::vector<std::string>{"load"});
  b = a;
  b.governor = "powersave";
  b.aslr = 0;
  EXPECT_EQ(machineChanges(a, b), (std::vector<std::string>{"governor", "aslr"}));
}

TEST(Machine, ReadsThisMachine) {
  MachineState m = readMachineState({"sh-does-not-exist-alea"});
  EXPECT_GT(m.cpuCount, 0);
  EXPECT_FALSE(m.kernel.empty());
  EXPECT_GE(m.aslr, 0); // /proc/sys/kernel/randomize_va_space exists on Linux
  EXPECT_NE(m.compilers.find("(not found)"), std::string::npos);
  MachineState again = recheckMachineState(m);
  EXPECT_EQ(again.kernel, m.kernel);
  EXPECT_EQ(again.aslr, m.aslr);
}

// Two /proc/stat texts 0.2 s apart on 2 CPUs (USER_HZ 100): idle + iowait
// grew by 10 ticks (0.1 s), so the CPUs were busy 0.4 - 0.1 = 0.3 s; alea
// itself used 0.05 s and the measured process 0.15 s: the others kept
// (0.3 - 0.05 - 0.15) / 0.2 = 0.5 CPU busy. The user/system fields, sampled
// at ticks, did not move at all (the ticks fell elsewhere): they are not used.
TEST(Machine, OtherLoadIsBusyTimeLessAleaAndTheMeasuredProcessesPerSecond) {
  const std::string first = "cpu  500 7 300 1000 20 0 3 0 0 0\n"
                            "cpu0 250 7 150 500 10 0 3 0 0 0\n"
                            "cpu1 250 0 150 500 10 0 0 0 0 0\n"
                            "intr 12345 0 0\nctxt 99\n";
  const std::string second = "cpu  500 7 300 1008 22 0 3 0 0 0\n"
                             "cpu0 250 7 150 504 11 0 3 0 0 0\n"
                             "cpu1 250 0 150 504 11 0 0 0 0 0\n"
                             "intr 12399 0 0\nctxt 120\n";
  CpuTimes before = cpuTimesFrom(first, 100.0, 2.0, 100);
  CpuTimes after = cpuTimesFrom(second, 100.2, 2.05, 100);
  ASSERT_TRUE(before.ok && after.ok);
  EXPECT_NEAR(after.busy - before.busy, 0.3, 1e-9);
  EXPECT_NEAR(after.own - before.own, 0.05, 1e-9);
  std::optional<double> load = otherLoad(before, after, 0.15);
  ASSERT_TRUE(load);
  EXPECT_NEAR(*load, 0.5, 1e-9);
  // alea's own CPU time is not other processes' load: without subtracting
  // it the same readings would say 0.75 CPU.
  CpuTimes notOwn = after;
  notOwn.own = before.own;
  EXPECT_NEAR(*otherLoad(before, notOwn, 0.15), 0.75, 1e-9);
}

TEST(Machine, OtherLoadNeedsTwoReadingsFarEnoughApartAndIsNeverNegative) {
  const std::string text = "cpu  1 2 3 400 5 0 0 0 0 0\ncpu0 1 2 3 400 5 0 0 0 0 0\n";
  CpuTimes a = cpuTimesFrom(text, 10.0, 0, 100);
  CpuTimes b = cpuTimesFrom(text, 10.0 + kOtherLoadMinSeconds / 2, 0, 100);
  EXPECT_FALSE(otherLoad(a, b, 0)) << "shorter than the readings' resolution allows";
  CpuTimes c = cpuTimesFrom(text, 11.0, 0, 100); // 1 CPU busy for 1 s, idle unchanged
  EXPECT_NEAR(*otherLoad(a, c, 0), 1.0, 1e-9);
  EXPECT_EQ(*otherLoad(a, c, 1.5), 0.0) << "the child's exact time exceeds the busy time";
  EXPECT_FALSE(cpuTimesFrom("cpu  1 2 3\ncpu0 1 2 3\n", 1, 0, 100).ok) << "no idle/iowait";
  EXPECT_FALSE(cpuTimesFrom("cpu  1 2 3 4 5\n", 1, 0, 100).ok) << "no per-CPU line";
  EXPECT_FALSE(otherLoad(CpuTimes{}, c, 0));
}

TEST(Machine, ExactBusyTimeComesFromTheRootCgroup) {
  // cgroup v1's cpuacct.usage (nanoseconds) wins; cgroup v2's cpu.stat
  // (usage_usec) otherwise; neither: none.
  EXPECT_NEAR(*rootCgroupCpuSeconds("30709753010508\n", ""), 30709.753010508, 1e-9);
  EXPECT_NEAR(*rootCgroupCpuSeconds("", "usage_usec 1500000\nuser_usec 1000000\n"), 1.5, 1e-12);
  EXPECT_FALSE(rootCgroupCpuSeconds("", "user_usec 1000000\n"));
  EXPECT_FALSE(rootCgroupCpuSeconds("", ""));
  // With both readings exact, a 10 ms interval is enough and the busy time is
  // the exact one: 7 ms of CPU in 10 ms, 2 of them alea's, 3 the child's.
  const std::string text = "cpu  1 2 3 400 5 0 0 0 0 0\ncpu0 1 2 3 400 5 0 0 0 0 0\n";
  CpuTimes a = cpuTimesFrom(text, 10.0, 1.000, 100);
  CpuTimes b = cpuTimesFrom(text, 10.010, 1.002, 100);
  EXPECT_FALSE(otherLoad(a, b, 0.003)) << "/proc/stat alone: too short";
  a.exactBusy = 50.000;
  b.exactBusy = 50.007;
  ASSERT_TRUE(otherLoad(a, b, 0.003));
  EXPECT_NEAR(*otherLoad(a, b, 0.003), 0.2, 1e-6);
  b.exactBusy.reset(); // one reading without: /proc/stat's rule
  EXPECT_FALSE(otherLoad(a, b, 0.003));
}

TEST(Machine, ExactBusyTimeIsReadWhereTheMachineHasIt) {
  const bool has = ::access("/sys/fs/cgroup/cpuacct/cpuacct.usage", R_OK) == 0 ||
                   ::access("/sys/fs/cgroup/cpu,cpuacct/cpuacct.usage", R_OK) == 0 ||
                   ::access("/sys/fs/cgroup/cpu.stat", R_OK) == 0;
  CpuTimes first = readCpuTimes();
  CpuTimes second = first;
  volatile double x = 0;
  while (second.own - first.own < 0.1) { // 0.1 s of CPU time of our own, however fast
    for (int i = 0; i < 1000000; ++i)
      x = x + i;
    second = readCpuTimes();
  }
  EXPECT_EQ(first.exactBusy.has_value(), has);
  EXPECT_EQ(second.exactBusy.has_value(), has);
  // The machine's CPU time includes ours (the kernel adds a running task's time
  // at each tick: at most 10 ms late).
  if (first.exactBusy && second.exactBusy) {
    EXPECT_GE(*second.exactBusy - *first.exactBusy, (second.own - first.own) * 0.5);
  }
}

// On this machine: alea's own CPU time is read, in nanoseconds, and a CPU
// that alea kept busy shows in the busy time (to within the 2 ticks of
// /proc/stat's resolution). Spins on CPU time, not on a clock: the same on a
// fast or slow, idle or busy machine.
TEST(Machine, ReadsTheBusyTimeAndAleasOwnCpuTimeHere) {
  CpuTimes before = readCpuTimes();
  ASSERT_TRUE(before.ok);
  volatile unsigned long sink = 0;
  CpuTimes now = before;
  while (now.own - before.own < 0.2) {
    for (int i = 0; i < 100000; ++i)
      sink = sink + static_cast<unsigned long>(i);
    now = readCpuTimes();
  }
  ASSERT_TRUE(now.ok);
  const double resolution = 2.0 / static_cast<double>(::sysconf(_SC_CLK_TCK));
  EXPECT_GE(now.busy - before.busy, now.own - before.own - resolution);
  EXPECT_LE(now.busy - before.busy,
            static_cast<double>(::sysconf(_SC_NPROCESSORS_ONLN)) * (now.steady - before.steady) +
                resolution);
}

namespace {

// Sets an environment variable for the scope of a test.
class ScopedEnv {
public:
  ScopedEnv(const char *name, const std::string &value) : name_(name) {
    if (const char *old = std::getenv(name))
      old_ = old;
    ::setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (old_)
      ::setenv(name_, old_->c_str(), 1);
    else
      ::unsetenv(name_);
  }

private:
  const char *name_;
  std::optional<std::string> old_;
};

// A fake compiler that counts its --version calls in `<dir>/calls`: a real
// ELF executable (built with the system's cc), as a compiler is.
std::string fakeCompiler(const test::TempDir &dir, const std::string &name,
                         const std::string &version) {
  const std::string src = dir.write(name + ".c", R"(#include <stdio.h>
int main(void) {
  FILE *f = fopen(CALLS, "a");
  if (f) { fputs("x\n", f); fclose(f); }
  puts(VERSION);
  puts("second line");
  return 0;
}
)");
  const std::string exe = dir.file(name);
  const std::string cmd = "cc -o '" + exe + "' '" + src + "' '-DCALLS=\"" + dir.file("calls") +
                          "\"' '-DVERSION=\"" + version + "\"'";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
  return exe;
}

// The same as a shell script (like a distribution's `cc` wrapper).
std::string fakeScript(const test::TempDir &dir, const std::string &name,
                       const std::string &version) {
  std::string path = dir.write(name, "#!/bin/sh\necho x >> '" + dir.file("calls") + "'\necho '" +
                                         version + "'\necho second line\n");
  std::filesystem::permissions(path, std::filesystem::perms::owner_all);
  return path;
}

int lines(const std::string &file) {
  std::ifstream in(file);
  int n = 0;
  for (std::string l; std::getline(in, l);)
    ++n;
  return n;
}

} // namespace

TEST(ToolVersion, AnswersAreCachedUntilTheToolChanges) {
  test::TempDir dir;
  ScopedEnv cache("XDG_CACHE_HOME", dir.file("cache"));
  std::string cc = fakeCompiler(dir, "fakecc", "fake clang 1.0");
  EXPECT_EQ(askToolVersion(cc), "fake clang 1.0");
  EXPECT_EQ(askToolVersion(cc), "fake clang 1.0");
  EXPECT_EQ(lines(dir.file("calls")), 1) << "the second answer comes from the cache";
  EXPECT_EQ(lines(dir.file("cache/alea/tool-versions")), 1);

  // An upgraded compiler (other size and mtime) is asked again. The new file
  // may get the old one's inode and size, and timestamps are coarse (a clock
  // tick, a second on some file systems): its mtime is set apart here rather
  // than left to how long the compile took.
  const auto oldTime = std::filesystem::last_write_time(cc);
  std::filesystem::remove(cc);
  fakeCompiler(dir, "fakecc", "fake clang 2.0 (upgraded)");
  std::filesystem::last_write_time(cc, oldTime + std::chrono::hours(1));
  EXPECT_EQ(askToolVersion(cc), "fake clang 2.0 (upgraded)");
  EXPECT_EQ(lines(dir.file("calls")), 2);
}

TEST(ToolVersion, ScriptsAndLaunchersAreAskedEveryTime) {
  // A script stays the same file while the compiler it runs changes.
  test::TempDir dir;
  ScopedEnv cache("XDG_CACHE_HOME", dir.file("cache"));
  std::string cc = fakeScript(dir, "cc-wrapper", "clang 19 behind a script");
  EXPECT_EQ(askToolVersion(cc), "clang 19 behind a script");
  EXPECT_EQ(askToolVersion(cc), "clang 19 behind a script");
  EXPECT_EQ(lines(dir.file("calls")), 2);
  // A launcher (ccache) is an ELF file that runs another compiler.
  std::string launcher = fakeCompiler(dir, "ccache", "ccache 4.8");
  EXPECT_EQ(askToolVersion(launcher), "ccache 4.8");
  EXPECT_EQ(askToolVersion(launcher), "ccache 4.8");
  EXPECT_EQ(lines(dir.file("calls")), 4);
  EXPECT_FALSE(std::filesystem::exists(dir.file("cache/alea/tool-versions")));
}

TEST(ToolVersion, WrappersAreAnsweredByTheCompilerBehindThem) {
  test::TempDir dir;
  std::string cc = fakeCompiler(dir, "real cc", "real clang 19");
  std::string cxx = fakeCompiler(dir, "real c++", "real clang++ 19");
  // ALEA_CC / ALEA_CXX of the build's environment name the real compilers.
  const std::vector<std::string> env = {"PATH=/usr/bin:/bin", "ALEA_CC=" + cc, "ALEA_CXX=" + cxx};
  EXPECT_EQ(compilerBehind("/opt/alea/bin/alea-cc", env), cc);
  EXPECT_EQ(compilerBehind("/opt/alea/bin/alea-c++", env), cxx);
  // Any other compiler is itself; a wrapper whose compiler is missing too.
  EXPECT_EQ(compilerBehind("/usr/bin/gcc", env), "/usr/bin/gcc");
  EXPECT_EQ(compilerBehind("/opt/alea/bin/alea-cc", {"ALEA_CC=/nonexistent/cc"}),
            "/opt/alea/bin/alea-cc");
  ScopedEnv cache("XDG_CACHE_HOME", dir.file("cache"));
  EXPECT_EQ(askToolVersion(compilerBehind("alea-cc", env)), "real clang 19");
}

TEST(ToolVersion, WithoutACacheDirectoryToolsAreAskedEachTime) {
  test::TempDir dir;
  ScopedEnv cache("XDG_CACHE_HOME", dir.file("not-a-dir"));
  std::ofstream(dir.file("not-a-dir")) << "a file blocks the cache directory";
  std::string cc = fakeCompiler(dir, "fakecc", "fake clang 1.0");
  EXPECT_EQ(askToolVersion(cc), "fake clang 1.0");
  EXPECT_EQ(askToolVersion(cc), "fake clang 1.0");
  EXPECT_EQ(lines(dir.file("calls")), 2);
  EXPECT_EQ(askToolVersion(dir.file("missing")), "");
}

TEST(Progress, ABarWithTheEtaOnATerminal) {
  // A pseudo-terminal stands in for the user's terminal: the bar is redrawn in
  // place (\r, erase line) with done/total, percent, failures and the ETA, and
  // a message clears the bar before it is printed.
  Pty pty;
  FakeClock clock;
  {
    StreamProgress p(pty.out(), clock.clock());
    p.start(0, 4);
    clock.advance(std::chrono::milliseconds(50));
    p.update(1, 4, 0); // within 100 ms of the last draw: not redrawn
    clock.advance(std::chrono::milliseconds(120));
    p.update(1, 4, 0);
    p.message("building x");
    p.update(4, 4, 1); // the last update is always drawn
    p.finish();
  }
  const std::string text = pty.drain();
  // 170 ms for 1 of 4 executions: 3 more take about 1 s.
  EXPECT_NE(text.find("\r\033[K[#######.......................] 1/4  25%  failed 0  ETA 1s"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("\r\033[Kbuilding x\n"), std::string::npos) << text;
  EXPECT_NE(text.find("[##############################] 4/4 100%  failed 1  ETA 0s\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("progress: "), std::string::npos) << "no plain lines on a terminal";
  EXPECT_EQ(text.find("1/4"), text.rfind("1/4")) << "the throttled update was drawn: " << text;
}

TEST(Progress, BuildsThenExecutionsWithThePrecisionOnATerminal) {
  // The build phase has a bar of its own, cleared when the builds are done;
  // an adaptive campaign's precision goes beside the executions' bar from
  // its first batch on.
  Pty pty;
  FakeClock clock;
  {
    StreamProgress p(pty.out(), clock.clock());
    p.builds(2, 6); // two builds from an earlier run
    clock.advance(std::chrono::seconds(10));
    p.builds(3, 6); // one made in 10 s: 3 more take 30 s
    p.builds(6, 6);
    p.start(0, 8);
    p.precision(0.0425, 0.025);
    clock.advance(std::chrono::seconds(4));
    p.update(2, 8, 0);
    p.precision(std::numeric_limits<double>::infinity(), 0);
    clock.advance(std::chrono::seconds(1));
    p.update(8, 8, 0);
    p.finish();
  }
  const std::string text = pty.drain();
  EXPECT_NE(text.find("\r\033[K[##########....................] 2/6  33%  builds  ETA ?"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("\r\033[K[###############...............] 3/6  50%  builds  ETA 30s"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("builds  ETA 30s\r\033[K\r\033[K[..............................] 0/8   0%  "
                      "failed 0  ETA ?"),
            std::string::npos)
      << "the builds' bar is cleared, then the executions' bar stands from their start: " << text;
  EXPECT_NE(text.find("] 2/8  25%  failed 0  ETA 12s  +-4.25% (target +-2.50%)"), std::string::npos)
      << text;
  EXPECT_NE(text.find("] 8/8 100%  failed 0  ETA 0s  +-?\n"), std::string::npos) << text;
}

TEST(Progress, NoBuildBarWithoutATerminal) {
  // Plain output names every build already ("building base #3 ..."); the
  // precision is in the adaptive campaign's own lines.
  test::TempDir dir;
  std::FILE *f = std::fopen(dir.file("out").c_str(), "w");
  ASSERT_NE(f, nullptr);
  {
    StreamProgress p(f);
    p.builds(0, 4);
    p.builds(4, 4);
    p.precision(0.01, 0.02);
  }
  std::fclose(f);
  std::ifstream in(dir.file("out"));
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), "");
}

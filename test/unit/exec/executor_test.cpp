// LocalExecutor on real processes: exit status, output capture, signals,
// timeout killing the process group, environment padding, records pipe,
// working directory, CPU pinning, ASLR switch-off, spawn failures, the heap
// start offset's runtime preloaded (its status, the user's LD_PRELOAD kept).
#include "alea/exec/executor.hpp"

#include "alea/exec/heap_runtime.hpp"
#include "alea/heap_offset.h"

#include "test_util.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <csignal>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace alea::runner;

namespace {

ExecutionRequest shell(const std::string &script) {
  ExecutionRequest r;
  r.argv = {"/bin/sh", "-c", script};
  r.env = {"PATH=/usr/bin:/bin"};
  r.timeoutSeconds = 300; // a safety net only: these commands take milliseconds
  return r;
}

} // namespace

TEST(LocalExecutor, CapturesExitStatusStdoutAndStderrTail) {
  LocalExecutor ex;
  auto r = ex.run(shell("echo out; echo err >&2; exit 3"));
  EXPECT_FALSE(r.spawnFailed) << r.spawnError;
  EXPECT_EQ(r.output.exitCode, 3);
  EXPECT_EQ(r.output.signal, 0);
  EXPECT_FALSE(r.output.timedOut);
  EXPECT_EQ(r.output.stdoutText, "out\n");
  EXPECT_EQ(r.output.stderrTail, "err\n");
  EXPECT_GT(r.output.wallSeconds, 0);
  EXPECT_GT(r.output.maxRssKib, 0);
}

TEST(LocalExecutor, KeepsOnlyTheTailOfStderr) {
  LocalExecutor ex;
  auto req = shell("i=0; while [ $i -lt 2000 ]; do echo line$i >&2; i=$((i+1)); done");
  req.stderrTail = 100;
  auto r = ex.run(req);
  EXPECT_EQ(r.output.stderrTail.size(), 100u);
  EXPECT_NE(r.output.stderrTail.find("line1999\n"), std::string::npos);
}

TEST(LocalExecutor, RecordsDeathBySignal) {
  LocalExecutor ex;
  auto r = ex.run(shell("kill -SEGV $$"));
  EXPECT_EQ(r.output.signal, SIGSEGV);
  EXPECT_FALSE(r.output.timedOut);
}

TEST(LocalExecutor, TimeoutKillsTheWholeProcessGroup) {
  LocalExecutor ex;
  // The child and its grandchild wait forever, so the timeout fires on any
  // machine, fast or slow; the grandchild keeps stdout open, so the run can end
  // only once the whole group is dead (else it hangs until CTest's timeout).
  auto req = shell("sleep infinity & sleep infinity; echo never");
  req.timeoutSeconds = 0.3;
  auto r = ex.run(req);
  EXPECT_TRUE(r.output.timedOut);
  EXPECT_EQ(r.output.stdoutText, "");
  // Never before its time: a lower bound holds on any machine (no upper bound
  // does on a busy one).
  EXPECT_GE(r.output.wallSeconds, 0.3 - 1e-6);
}

TEST(LocalExecutor, TheChildDiesWithAleaEvenOnSigkill) {
  test::TempDir dir;
  const std::string pidFile = dir.file("pid");
  // A stand-in for `alea run`: a process that runs a long benchmark.
  pid_t alea = ::fork();
  ASSERT_GE(alea, 0);
  if (alea == 0) {
    LocalExecutor ex;
    // The benchmark never ends by itself: only its death with alea ends it.
    ex.run(shell("echo $$ > " + pidFile + ".tmp && mv " + pidFile + ".tmp " + pidFile +
                 " && exec sleep infinity"));
    ::_exit(0);
  }
  // Waits for the file the benchmark writes (or for the stand-in's end, a
  // failure): no sleep decides when the benchmark is running.
  std::string pidText;
  bool aleaEnded = false;
  test::waitFor([&] {
    std::ifstream(pidFile) >> pidText;
    int st = 0;
    aleaEnded = pidText.empty() && ::waitpid(alea, &st, WNOHANG) == alea;
    return !pidText.empty() || aleaEnded;
  });
  if (pidText.empty() && !aleaEnded) {
    ::kill(alea, SIGKILL);
    ::waitpid(alea, nullptr, 0);
  }
  ASSERT_FALSE(pidText.empty()) << "the benchmark did not start";
  const pid_t bench = static_cast<pid_t>(std::stol(pidText));
  ASSERT_EQ(::kill(alea, SIGKILL), 0);
  int status = 0;
  ASSERT_EQ(::waitpid(alea, &status, 0), alea);
  // The benchmark gets SIGKILL from the kernel (PR_SET_PDEATHSIG); it is gone
  // or a zombie waiting for its new parent to reap it.
  auto alive = [bench] {
    std::ifstream stat("/proc/" + std::to_string(bench) + "/stat");
    std::string pid, comm, state;
    if (!(stat >> pid >> comm >> state))
      return false;
    return state != "Z" && state != "X";
  };
  // Waits for its death itself; the limit is only a safety net.
  const bool gone = test::waitFor([&] { return !alive(); });
  if (!gone)
    ::kill(bench, SIGKILL);
  EXPECT_TRUE(gone) << "the benchmark outlived alea";
}

TEST(LocalExecutor, EnvironmentIsExactlyTheRequestPlusPadding) {
  LocalExecutor ex;
  auto req = shell("env");
  req.env.push_back("FOO=bar");
  req.envPadBytes = 300;
  auto r = ex.run(req);
  EXPECT_NE(r.output.stdoutText.find("FOO=bar\n"), std::string::npos);
  EXPECT_NE(r.output.stdoutText.find("ALEA_ENV_PAD=" + std::string(300, 'x') + "\n"),
            std::string::npos);
  EXPECT_EQ(r.output.stdoutText.find("HOME="), std::string::npos); // nothing inherited
}

TEST(LocalExecutor, NoPaddingVariableWhenNotAsked) {
  LocalExecutor ex;
  auto r = ex.run(shell("env"));
  EXPECT_EQ(r.output.stdoutText.find("ALEA_ENV_PAD"), std::string::npos);
}

TEST(LocalExecutor, RecordsPipeIsReadFully) {
  LocalExecutor ex;
  auto req = shell("printf 'rec1' >&3; printf 'rec2' >&3; echo fd=$ALEA_ITER_FD");
  req.recordsPipe = true;
  auto r = ex.run(req);
  EXPECT_EQ(r.output.records, "rec1rec2");
  EXPECT_EQ(r.output.stdoutText, "fd=3\n");
  EXPECT_EQ(r.output.exitCode, 0);
}

TEST(LocalExecutor, OnlyTheRecordsFdIsInherited) {
  LocalExecutor ex;
  auto req = shell("ls /proc/self/fd | wc -l");
  req.recordsPipe = true;
  auto r = ex.run(req);
  // ls's own fds: 0,1,2, the records fd and the directory it reads.
  EXPECT_EQ(std::stoi(r.output.stdoutText), 5) << r.output.stdoutText;
}

TEST(LocalExecutor, RunsInTheWorkingDirectory) {
  test::TempDir dir;
  LocalExecutor ex;
  auto req = shell("pwd -P");
  req.workdir = dir.path();
  auto r = ex.run(req);
  char real[4096];
  ASSERT_NE(::realpath(dir.path().c_str(), real), nullptr);
  EXPECT_EQ(r.output.stdoutText, std::string(real) + "\n");
}

TEST(LocalExecutor, PinsToTheRequestedCpu) {
  LocalExecutor ex;
  auto req = shell("grep Cpus_allowed_list /proc/self/status");
  req.cpus = {0};
  auto r = ex.run(req);
  EXPECT_NE(r.output.stdoutText.find("Cpus_allowed_list:\t0\n"), std::string::npos)
      << r.output.stdoutText;
}

TEST(LocalExecutor, SwitchesAslrOffOnRequest) {
  LocalExecutor ex;
  auto req = shell("cat /proc/self/personality");
  req.disableAslr = true;
  auto r = ex.run(req);
  ASSERT_FALSE(r.output.stdoutText.empty());
  unsigned long persona = std::stoul(r.output.stdoutText, nullptr, 16);
  EXPECT_NE(persona & 0x0040000ul, 0ul); // ADDR_NO_RANDOMIZE
  auto plain = ex.run(shell("cat /proc/self/personality"));
  EXPECT_EQ(std::stoul(plain.output.stdoutText, nullptr, 16) & 0x0040000ul, 0ul);
}

TEST(LocalExecutor, MissingCommandIsASpawnFailure) {
  LocalExecutor ex;
  ExecutionRequest req;
  req.argv = {"alea-no-such-command"};
  req.env = {"PATH=/usr/bin:/bin"};
  auto r = ex.run(req);
  EXPECT_TRUE(r.spawnFailed);
  EXPECT_EQ(r.spawnError, "command not found: alea-no-such-command");
}

TEST(LocalExecutor, NonExecutableFileIsASpawnFailure) {
  test::TempDir dir;
  auto path = dir.write("plain", "not a program");
  LocalExecutor ex;
  ExecutionRequest req;
  req.argv = {path};
  auto r = ex.run(req);
  EXPECT_TRUE(r.spawnFailed);
  EXPECT_NE(r.spawnError.find("execve"), std::string::npos) << r.spawnError;
}

TEST(LocalExecutor, MissingWorkdirIsASpawnFailure) {
  LocalExecutor ex;
  auto req = shell("true");
  req.workdir = "/nonexistent/dir";
  auto r = ex.run(req);
  EXPECT_TRUE(r.spawnFailed);
}

TEST(LocalExecutor, StdinComesFromTheRequestedFile) {
  test::TempDir dir;
  auto in = dir.write("in.txt", "hello input\n");
  LocalExecutor ex;
  auto req = shell("cat");
  req.stdinPath = in;
  auto r = ex.run(req);
  EXPECT_EQ(r.output.stdoutText, "hello input\n");
  auto none = ex.run(shell("cat"));
  EXPECT_EQ(none.output.stdoutText, ""); // /dev/null by default
}

TEST(LocalExecutor, CpuTimesComeFromWait4) {
  LocalExecutor ex;
  auto r = ex.run(shell("i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done"));
  EXPECT_GT(r.output.userSeconds + r.output.sysSeconds, 0.0);
}

TEST(Env, ValueAndProgramResolution) {
  std::vector<std::string> env{"A=1", "AB=2", "PATH=/bin"};
  EXPECT_EQ(envValue(env, "A"), "1");
  EXPECT_EQ(envValue(env, "AB"), "2");
  EXPECT_EQ(envValue(env, "B"), "");
  EXPECT_EQ(resolveProgram("sh", env), "/bin/sh");
  EXPECT_EQ(resolveProgram("./x", env), "./x");
  EXPECT_EQ(resolveProgram("alea-no-such", env), "");
}

TEST(LocalExecutor, KeepsTheTailOfALongStdout) {
  LocalExecutor ex;
  auto req = shell("i=0; while [ $i -lt 30000 ]; do echo line$i; i=$((i+1)); done");
  req.stdoutLimit = 1000;
  auto r = ex.run(req);
  EXPECT_EQ(r.output.stdoutText.size(), 1000u);
  EXPECT_EQ(r.output.stdoutText.substr(r.output.stdoutText.size() - 10), "line29999\n");
}

namespace {

// A benchmark that starts a daemon (its own session, so the end-of-run kill
// of the benchmark's process group does not reach it), writes the daemon's
// pid to `pidFile` and exits at once.
ExecutionRequest daemonizing(const std::string &pidFile) {
  auto r = shell("setsid sh -c 'exec sleep 1000' </dev/null >/dev/null 2>&1 & echo $! > " +
                 pidFile + "; exit 0");
  r.watchLeftovers = true;
  return r;
}

pid_t readPid(const std::string &file) {
  std::ifstream in(file);
  long pid = 0;
  in >> pid;
  return static_cast<pid_t>(pid);
}

} // namespace

TEST(LocalExecutor, ADaemonLeftRunningIsFoundAndKilled) {
  test::TempDir dir;
  LocalExecutor ex;
  auto r = ex.run(daemonizing(dir.file("pid")));
  ASSERT_FALSE(r.spawnFailed) << r.spawnError;
  EXPECT_EQ(r.output.exitCode, 0);
  pid_t daemon = readPid(dir.file("pid"));
  ASSERT_GT(daemon, 0);
  ASSERT_EQ(r.leftovers.size(), 1u);
  EXPECT_EQ(r.leftovers[0].rfind("pid " + std::to_string(daemon) + " (", 0), 0u) << r.leftovers[0];
  EXPECT_TRUE(r.leftoversKilled);
  // Killed and reaped by the executor: the pid no longer exists.
  EXPECT_EQ(::kill(daemon, 0), -1);
  EXPECT_EQ(errno, ESRCH);
}

TEST(LocalExecutor, ADaemonLeftRunningIsReportedAndKeptOnRequest) {
  test::TempDir dir;
  LocalExecutor ex;
  auto req = daemonizing(dir.file("pid"));
  req.killLeftovers = false;
  auto r = ex.run(req);
  pid_t daemon = readPid(dir.file("pid"));
  ASSERT_GT(daemon, 0);
  ASSERT_EQ(r.leftovers.size(), 1u);
  EXPECT_FALSE(r.leftoversKilled);
  EXPECT_EQ(::kill(daemon, 0), 0) << "still running";
  // Reported once: the next execution does not count it again.
  auto again = shell("exit 0");
  again.watchLeftovers = true;
  auto clean = ex.run(again);
  EXPECT_TRUE(clean.leftovers.empty());
  ::kill(daemon, SIGKILL);
  ::waitpid(daemon, nullptr, 0); // this process is its parent now (the subreaper)
}

TEST(LocalExecutor, AnOrdinaryProgramLeavesNothing) {
  LocalExecutor ex;
  auto req = shell("sleep 0 & wait; echo done");
  req.watchLeftovers = true;
  auto r = ex.run(req);
  EXPECT_EQ(r.output.stdoutText, "done\n");
  EXPECT_TRUE(r.leftovers.empty());
}

TEST(LocalExecutor, ADuetRunsItsRequestsAtTheSameTime) {
  // A rendezvous: each side writes to its own FIFO, then reads the other's.
  // Run one after the other, the first would block on a FIFO nobody opens
  // and time out; run together, both finish.
  test::TempDir dir;
  std::string a = dir.file("a"), b = dir.file("b");
  ASSERT_EQ(::mkfifo(a.c_str(), 0600), 0);
  ASSERT_EQ(::mkfifo(b.c_str(), 0600), 0);
  std::vector<ExecutionRequest> duet{shell("echo A > " + a + "; cat " + b),
                                     shell("cat " + a + "; echo B > " + b)};
  for (auto &r : duet) {
    r.timeoutSeconds = 120; // a safety net: a sequential run would hang here
    r.watchLeftovers = true;
  }
  duet[0].cpus = {0};
  LocalExecutor ex;
  auto results = ex.runTogether(duet);
  ASSERT_EQ(results.size(), 2u);
  EXPECT_FALSE(results[0].output.timedOut);
  EXPECT_FALSE(results[1].output.timedOut);
  EXPECT_EQ(results[0].output.stdoutText, "B\n");
  EXPECT_EQ(results[1].output.stdoutText, "A\n");
  // Neither took the other for a process left running.
  EXPECT_TRUE(results[0].leftovers.empty());
  EXPECT_TRUE(results[1].leftovers.empty());
  EXPECT_GT(results[0].startedAt, 1.6e9);
  EXPECT_LE(results[0].steadyStart, results[0].steadyEnd);
}

TEST(LocalExecutor, ReportsContextSwitchesAndMigrationsOfTheChild) {
  LocalExecutor ex;
  auto r = ex.run(shell("sleep 0.01"));
  EXPECT_GT(r.voluntarySwitches + r.involuntarySwitches, 0); // it slept at least once
  if (::access("/proc/self/sched", R_OK) == 0) {
    ASSERT_TRUE(r.migrations.has_value());
    EXPECT_GE(*r.migrations, 0);
  }
}

TEST(HeapOffsetExecutor, PreloadsTheRuntimeWhichReportsApplied) {
  LocalExecutor ex;
  auto req = shell("echo \"offset=$ALEA_HEAP_OFFSET\"; echo \"preload=$LD_PRELOAD\"");
  req.heapOffset = 4096;
  auto r = ex.run(req);
  ASSERT_FALSE(r.spawnFailed) << r.spawnError;
  EXPECT_EQ(r.output.exitCode, 0) << r.output.stderrTail;
  EXPECT_NE(r.output.stdoutText.find("offset=0004096\n"), std::string::npos) << r.output.stdoutText;
  auto runtime = heapRuntimePath();
  ASSERT_TRUE(runtime.ok());
  EXPECT_NE(r.output.stdoutText.find("preload=" + *runtime + "\n"), std::string::npos)
      << r.output.stdoutText;
  // dash calls no malloc before main: the break moved first.
  EXPECT_EQ(r.heapStatus, ALEA_HEAP_APPLIED);
  EXPECT_EQ(r.output.stderrTail, ""); // ld.so said nothing
}

TEST(HeapOffsetExecutor, AppendsToTheUsersPreloadAndKeepsOneEntry) {
  LocalExecutor ex;
  auto req = shell("env | grep -c '^LD_PRELOAD='; echo \"$LD_PRELOAD\"");
  // A library ld.so cannot find is skipped with a message; the runtime still loads.
  req.env.push_back("LD_PRELOAD=/nonexistent/libuser.so");
  req.heapOffset = 32;
  auto r = ex.run(req);
  ASSERT_FALSE(r.spawnFailed) << r.spawnError;
  auto runtime = heapRuntimePath();
  ASSERT_TRUE(runtime.ok());
  EXPECT_EQ(r.output.stdoutText, "1\n/nonexistent/libuser.so:" + *runtime + "\n");
  EXPECT_EQ(r.heapStatus, ALEA_HEAP_APPLIED);
}

TEST(HeapOffsetExecutor, StaticExecutableIsRecordedNotPreloaded) {
  LocalExecutor ex;
  ExecutionRequest req;
  req.argv = {"/sbin/ldconfig", "--version"};
  req.env = {"PATH=/usr/bin:/bin"};
  req.heapOffset = 4096;
  auto r = ex.run(req);
  ASSERT_FALSE(r.spawnFailed) << r.spawnError;
  EXPECT_EQ(r.output.exitCode, 0);
  EXPECT_EQ(r.heapStatus, ALEA_HEAP_STATIC);
}

TEST(HeapOffsetExecutor, NothingWhenNotAsked) {
  LocalExecutor ex;
  auto r = ex.run(shell("env"));
  EXPECT_EQ(r.output.stdoutText.find("LD_PRELOAD"), std::string::npos);
  EXPECT_EQ(r.output.stdoutText.find("ALEA_HEAP"), std::string::npos);
  EXPECT_EQ(r.heapStatus, "");
}

TEST(HeapOffsetExecutor, ABadOffsetIsReportedByTheRuntime) {
  LocalExecutor ex;
  auto req = shell("true");
  req.heapOffset = 24; // not a multiple of 16: the runtime refuses it
  auto r = ex.run(req);
  EXPECT_EQ(r.heapStatus.rfind(ALEA_HEAP_FAILED, 0), 0u) << r.heapStatus;
}

// Issue 18 item 7: a timeout beyond what the steady clock can add to now
// (1e10 s and up overflow its int64 nanoseconds) must not put the deadline
// in the past: the command runs to its end instead of "timing out after
// 0.00 s".
TEST(LocalExecutor, ATimeoutBeyondTheClockDoesNotExpireAtOnce) {
  LocalExecutor ex;
  for (double timeout : {1e10, 1e300}) {
    auto req = shell("echo done");
    req.timeoutSeconds = timeout;
    auto r = ex.run(req);
    EXPECT_FALSE(r.output.timedOut) << timeout;
    EXPECT_EQ(r.output.stdoutText, "done\n") << timeout;
  }
}

namespace {

// A process started with `env` (not a child of an executor), its pid.
pid_t startWithEnv(const std::vector<std::string> &env, const char *seconds) {
  pid_t pid = ::fork();
  if (pid == 0) {
    std::vector<char *> envp;
    for (const auto &e : env)
      envp.push_back(const_cast<char *>(e.c_str()));
    envp.push_back(nullptr);
    char *argv[] = {const_cast<char *>("/bin/sleep"), const_cast<char *>(seconds), nullptr};
    ::execve("/bin/sleep", argv, envp.data());
    ::_exit(127);
  }
  return pid;
}

// Whether /proc/<pid>/environ already shows `entry` (the exec has happened).
bool carries(pid_t pid, const std::string &entry) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/environ", std::ios::binary);
  std::string block((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return block.find(entry + '\0') != std::string::npos;
}

} // namespace

// Issue 18 item 6: what a killed alea run left running is found by the
// ALEA_JOB marker its processes inherited, and only that: another run's
// processes, spared jobs and unmarked processes are left alone.
TEST(EndMarkedProcesses, EndsTheRunsProcessesAndNothingElse) {
  const std::string run = "00000000deadbeef", other = "00000000feedface";
  const std::string job = "e0000000000000007", spared = "e0000000000000003";
  const std::string mine = std::string(kJobVariable) + "=" + run + "-" + job;
  const std::string keep = std::string(kJobVariable) + "=" + run + "-" + spared;
  const std::string theirs = std::string(kJobVariable) + "=" + other + "-" + job;
  pid_t target = startWithEnv({"A=1", mine, "Z=2"}, "1000");
  pid_t kept = startWithEnv({keep}, "1000");
  pid_t foreign = startWithEnv({theirs}, "1000");
  pid_t plain = startWithEnv({"A=1"}, "1000");
  ASSERT_TRUE(test::waitFor([&] {
    return carries(target, mine) && carries(kept, keep) && carries(foreign, theirs) &&
           carries(plain, "A=1");
  }));
  std::vector<std::string> asked;
  auto ended = endMarkedProcesses(run, [&](std::string_view j) {
    asked.emplace_back(j);
    return j == spared;
  });
  ASSERT_EQ(ended.size(), 1u);
  EXPECT_EQ(ended[0].pid, target);
  EXPECT_EQ(ended[0].name, "sleep");
  EXPECT_EQ(ended[0].job, job);
  int status = 0;
  ASSERT_EQ(::waitpid(target, &status, 0), target);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
  for (pid_t alive : {kept, foreign, plain}) {
    EXPECT_EQ(::waitpid(alive, &status, WNOHANG), 0) << "pid " << alive << " was ended";
    ::kill(alive, SIGKILL);
    ::waitpid(alive, nullptr, 0);
  }
  EXPECT_NE(std::find(asked.begin(), asked.end(), spared), asked.end());
}

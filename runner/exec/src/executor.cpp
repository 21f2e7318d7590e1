// LocalExecutor: one benchmark process, measured like hyperfine measures it
// (wall clock around fork..reap, rusage of the child from wait4), plus the
// controls a layout study needs: environment padding (Mytkowicz et al., "Producing
// wrong data without doing anything obviously wrong!", ASPLOS 2009), ASLR off on
// request, CPU pinning, a timeout that kills the process group, and the heap
// start offset (a preloaded runtime, heap_runtime.hpp). The metrics a busy
// machine cannot move: a perf_event_open(2) counter of the process tree
// (counters.hpp), or the command under Valgrind's cachegrind (cachegrind.hpp).
#include "alea/exec/executor.hpp"

#include "alea/exec/cachegrind.hpp"
#include "alea/exec/counters.hpp"
#include "alea/exec/duet.hpp"
#include "alea/exec/heap_runtime.hpp"
#include "alea/exec/machine.hpp"
#include "alea/exec/scratch.hpp"
#include "alea/heap_offset.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <dirent.h>
#include <fcntl.h>
#include <limits>
#include <mutex>
#include <optional>
#include <poll.h>
#include <sched.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char **environ;

namespace alea::runner {

std::string envValue(const std::vector<std::string> &env, const std::string &name) {
  for (const auto &e : env)
    if (e.size() > name.size() && e.compare(0, name.size(), name) == 0 && e[name.size()] == '=')
      return e.substr(name.size() + 1);
  return {};
}

void setEnv(std::vector<std::string> &env, const std::string &key, const std::string &value) {
  std::string prefix = key + "=";
  for (auto &e : env)
    if (e.compare(0, prefix.size(), prefix) == 0) {
      e = prefix + value;
      return;
    }
  env.push_back(prefix + value);
}

std::string resolveProgram(const std::string &program, const std::vector<std::string> &env) {
  if (program.empty())
    return {};
  if (program.find('/') != std::string::npos)
    return program;
  std::string path = envValue(env, "PATH");
  if (path.empty()) {
    const char *p = std::getenv("PATH");
    path = p ? p : "/usr/local/bin:/usr/bin:/bin";
  }
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t end = path.find(':', start);
    if (end == std::string::npos)
      end = path.size();
    std::string dir = path.substr(start, end - start);
    std::string candidate = (dir.empty() ? "." : dir) + "/" + program;
    struct stat st;
    if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
        ::access(candidate.c_str(), X_OK) == 0)
      return candidate;
    start = end + 1;
  }
  return {};
}

namespace {

struct Fd {
  int fd = -1;
  Fd() = default;
  explicit Fd(int f) : fd(f) {}
  Fd(const Fd &) = delete;
  ~Fd() { reset(); }
  void reset() {
    if (fd >= 0)
      ::close(fd);
    fd = -1;
  }
};

bool makePipe(Fd &readEnd, Fd &writeEnd) {
  int p[2];
  if (::pipe2(p, O_CLOEXEC) != 0)
    return false;
  readEnd.fd = p[0];
  writeEnd.fd = p[1];
  return true;
}

// The most counters one execution opens: one per counter metric.
constexpr std::size_t kMaxCounters = 16;

// The message the counters' descriptors travel in from the child: one byte
// and room for kMaxCounters descriptors (SCM_RIGHTS). Built in place (it
// points into itself), on the stack: the vfork child may not allocate.
struct DescriptorMessage {
  char byte = 0;
  iovec iov{&byte, 1};
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * kMaxCounters)] = {};
  msghdr msg{};
  DescriptorMessage() {
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof control;
  }
  DescriptorMessage(const DescriptorMessage &) = delete;
  DescriptorMessage &operator=(const DescriptorMessage &) = delete;
};

// The `count` counter descriptors the child sent over `socket` (childExec),
// in its order; empty when they did not come.
std::vector<int> receiveCounters(int socket, std::size_t count) {
  DescriptorMessage m;
  msghdr &msg = m.msg;
  if (::recvmsg(socket, &msg, MSG_DONTWAIT | MSG_CMSG_CLOEXEC) != 1)
    return {};
  cmsghdr *cm = CMSG_FIRSTHDR(&msg);
  if (!cm || cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_RIGHTS ||
      cm->cmsg_len != CMSG_LEN(sizeof(int) * count))
    return {};
  std::vector<int> fds(count, -1);
  std::memcpy(fds.data(), CMSG_DATA(cm), sizeof(int) * count);
  return fds;
}

constexpr int kRecordsFd = 3;
constexpr int kDuetFd = 4; // a duet's barrier (ALEA_DUET_FD), after the records
constexpr unsigned kCloseRangeCloexec = 1u << 2; // CLOSE_RANGE_CLOEXEC (Linux 5.11)

double seconds(const timeval &tv) { return tv.tv_sec + tv.tv_usec / 1e6; }

// Appends data, keeping at most `limit` bytes (the tail) once trimmed.
void appendBounded(std::string &buf, const char *data, std::size_t n, std::size_t limit) {
  buf.append(data, n);
  if (buf.size() > 2 * limit + 65536)
    buf.erase(0, buf.size() - limit);
}

void trimTail(std::string &buf, std::size_t limit) {
  if (buf.size() > limit)
    buf.erase(0, buf.size() - limit);
}

// What the child needs, all prepared before vfork.
struct ChildSetup {
  const char *workdir;
  const char *program;
  char *const *argv;
  char *const *envp;
  const cpu_set_t *cpus;
  bool pin, disableAslr, recordsPipe;
  int in, out, err, records, duet; // duet: -1 = none
  pid_t parent;                    // alea: the child dies with it (PR_SET_PDEATHSIG)
  // Counters to open on the child and pass back over counterSocket
  // (counterCount 0: none); see childExec.
  const CounterEvent *counters;
  std::size_t counterCount;
  int counterSocket;
  // Written by the child before it exits on a failed step: vfork shares our
  // memory and suspends us until the child execs or exits, so these are read
  // after vfork returns without a pipe (glibc's posix_spawn does the same).
  volatile int *failStep, *failErrno;
};

// Runs in the vfork child: system calls only, then execve or _exit. A failing
// step is reported in failStep/failErrno.
[[noreturn]] void childExec(const ChildSetup &c) {
  auto die = [&c](int code) {
    *c.failErrno = errno;
    *c.failStep = code;
    ::_exit(127);
  };
  ::setpgid(0, 0);
  // If alea dies (even by kill -9), the benchmark or build it started dies
  // too instead of running on beside the resumed campaign. getppid() closes
  // the race with a death before prctl.
  if (::prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || ::getppid() != c.parent)
    die(7);
  if (::dup2(c.in, 0) < 0 || ::dup2(c.out, 1) < 0 || ::dup2(c.err, 2) < 0)
    die(1);
  // The records pipe is always fd 3 and a duet's barrier fd 4 (so the
  // environment does not depend on our descriptor numbers); every other
  // inherited descriptor is closed. A barrier that happens to be fd 3 moves
  // out of the records' way first.
  int duet = c.duet;
  if (duet == kRecordsFd && c.recordsPipe &&
      (duet = ::fcntl(duet, F_DUPFD_CLOEXEC, kDuetFd + 1)) < 0)
    die(2);
  if (c.recordsPipe) {
    if (c.records == kRecordsFd ? ::fcntl(kRecordsFd, F_SETFD, 0) != 0
                                : ::dup2(c.records, kRecordsFd) < 0)
      die(2);
  }
  if (duet >= 0 &&
      (duet == kDuetFd ? ::fcntl(kDuetFd, F_SETFD, 0) != 0 : ::dup2(duet, kDuetFd) < 0))
    die(2);
  ::syscall(SYS_close_range,
            duet >= 0       ? kDuetFd + 1
            : c.recordsPipe ? kRecordsFd + 1
                            : kRecordsFd,
            ~0U, kCloseRangeCloexec);
  if (c.workdir && ::chdir(c.workdir) != 0)
    die(3);
  if (c.pin && ::sched_setaffinity(0, sizeof *c.cpus, c.cpus) != 0)
    die(4);
  if (c.disableAslr && ::personality(ADDR_NO_RANDOMIZE) == -1)
    die(5);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  ::signal(SIGPIPE, SIG_DFL);
  ::signal(SIGXFSZ, SIG_DFL); // alea ignores it (cli/main.cpp): EFBIG names the file
  // The counter, the last step before execve. Why here, in the child: it
  // must exist on the benchmark's process before its execve, so that
  // enable_on_exec starts it exactly there (none of alea's set-up counted)
  // and inherit = 1 gives every process the benchmark then forks a child
  // counter that the kernel adds back when that process exits. The parent
  // cannot open it on the child's pid in time: vfork suspends it until the
  // child has exec'd (or exited), and a fork that stops the child for it
  // would cost every execution a page-table copy. So the child opens it on
  // itself (pid 0) and hands the descriptor to alea over a socket
  // (SCM_RIGHTS: the message holds the open counter); its own copy is
  // close-on-exec, so the benchmark never sees it. System calls only, as
  // everything here.
  if (c.counterCount > 0) {
    int fds[kMaxCounters];
    for (std::size_t i = 0; i < c.counterCount; ++i) {
      fds[i] = openCounter(c.counters[i]);
      if (fds[i] < 0) {
        errno = -fds[i];
        die(8);
      }
    }
    DescriptorMessage m;
    msghdr &msg = m.msg;
    msg.msg_controllen = CMSG_SPACE(sizeof(int) * c.counterCount);
    cmsghdr *cm = CMSG_FIRSTHDR(&msg);
    cm->cmsg_level = SOL_SOCKET;
    cm->cmsg_type = SCM_RIGHTS;
    cm->cmsg_len = CMSG_LEN(sizeof(int) * c.counterCount);
    std::memcpy(CMSG_DATA(cm), fds, sizeof(int) * c.counterCount);
    if (::sendmsg(c.counterSocket, &msg, MSG_NOSIGNAL) != 1)
      die(9);
  }
  ::execve(c.program, c.argv, c.envp);
  die(6);
  ::_exit(127); // not reached: die() exits
}

// A small /proc file in one read (the kernel hands such a file over whole),
// into `buf` and NUL-terminated; none when it is gone or empty. No
// allocation: it is read per execution.
template <std::size_t N>
std::optional<std::string_view> readProcFile(const char *path, char (&buf)[N]) {
  int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return std::nullopt;
  ssize_t n = ::read(fd, buf, N - 1);
  ::close(fd);
  if (n <= 0)
    return std::nullopt;
  buf[n] = 0;
  return std::string_view(buf, static_cast<std::size_t>(n));
}

// What /proc/<pid>/stat says of a process: its state, its start time (clock
// ticks after boot) and its name; nullopt when it is gone.
struct ProcStat {
  char state = '?';
  unsigned long long startTime = 0;
  std::string name;
};

std::optional<ProcStat> procStat(pid_t pid) {
  char path[64];
  std::snprintf(path, sizeof path, "/proc/%d/stat", static_cast<int>(pid));
  char buf[1024];
  const auto read = readProcFile(path, buf);
  if (!read)
    return std::nullopt;
  const std::string_view text = *read;
  // "pid (name) state ppid ..." where the name may hold spaces and ')'.
  auto open = text.find('('), close = text.rfind(')');
  if (open == std::string_view::npos || close == std::string_view::npos || close + 2 >= text.size())
    return std::nullopt;
  ProcStat st;
  st.name = text.substr(open + 1, close - open - 1);
  st.state = text[close + 2];
  // Field 22 (starttime) is the 20th after the state (field 3).
  std::size_t at = close + 2;
  for (int field = 3; field < 22 && at != std::string_view::npos; ++field)
    at = text.find(' ', at + 1);
  if (at == std::string_view::npos)
    return std::nullopt;
  st.startTime = std::strtoull(buf + at + 1, nullptr, 10);
  return st;
}

// A second before now, in the unit of /proc/<pid>/stat's start time (clock
// ticks since boot, CLOCK_BOOTTIME): processes started before it are not the
// execution's (the margin absorbs rounding; no other child of ours starts in
// it, as executions run one at a time). Cheaper than reading the child's own
// start time from /proc, which cost ~40 us per execution.
unsigned long long bootTicksSecondAgo() {
  timespec now{};
  ::clock_gettime(CLOCK_BOOTTIME, &now);
  static const long hz = ::sysconf(_SC_CLK_TCK);
  unsigned long long ticks = static_cast<unsigned long long>(now.tv_sec) * hz +
                             static_cast<unsigned long long>(now.tv_nsec) * hz / 1000000000ULL;
  return ticks > static_cast<unsigned long long>(hz) ? ticks - hz : 0;
}

// Whether a process is already dying of a SIGKILL (ours: a timeout, a cancel,
// the end of a duet's restarts kills the execution's process group): pending
// in /proc/<pid>/status's SigPnd or ShdPnd. Such a process was ended, not left
// running; between the kill and its exit it is neither a zombie nor gone.
bool dyingOfSigkill(pid_t pid) {
  char path[64];
  std::snprintf(path, sizeof path, "/proc/%d/status", static_cast<int>(pid));
  int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return false;
  char buf[4096];
  ssize_t n = ::read(fd, buf, sizeof buf - 1);
  ::close(fd);
  if (n <= 0)
    return false;
  buf[n] = '\0';
  const unsigned long long kill = 1ULL << (SIGKILL - 1);
  for (const char *key : {"\nSigPnd:", "\nShdPnd:"})
    if (const char *at = std::strstr(buf, key))
      if (std::strtoull(at + std::strlen(key), nullptr, 16) & kill)
        return true;
  return false;
}

// This process's children: what every thread's /proc/self/task/<tid>/children
// lists (an orphan is reparented to one thread of its subreaper).
std::vector<pid_t> ownChildren() {
  std::vector<pid_t> out;
  DIR *tasks = ::opendir("/proc/self/task");
  if (!tasks)
    return out;
  while (dirent *t = ::readdir(tasks)) {
    if (t->d_name[0] == '.')
      continue;
    std::string path = std::string("/proc/self/task/") + t->d_name + "/children";
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
      continue;
    std::string text;
    char buf[4096];
    for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;)
      text.append(buf, static_cast<std::size_t>(n));
    ::close(fd);
    for (const char *p = text.c_str(); *p;) {
      char *end = nullptr;
      long pid = std::strtol(p, &end, 10);
      if (end == p)
        break;
      out.push_back(static_cast<pid_t>(pid));
      p = end;
    }
  }
  ::closedir(tasks);
  return out;
}

// se.nr_migrations of /proc/PID/sched (kernels with CONFIG_SCHED_DEBUG);
// none when absent.
std::optional<std::int64_t> schedMigrations(pid_t pid) {
  char path[40];
  std::snprintf(path, sizeof path, "/proc/%d/sched", static_cast<int>(pid));
  char buf[8192];
  if (!readProcFile(path, buf))
    return std::nullopt;
  const char *key = std::strstr(buf, "se.nr_migrations");
  if (!key)
    return std::nullopt;
  const char *colon = std::strchr(key, ':');
  if (!colon)
    return std::nullopt;
  return std::strtoll(colon + 1, nullptr, 10);
}

// /dev/null, opened once per process (close-on-exec; the children get it
// through dup2), for stdin and for an output nobody reads.
int devNull() {
  static const int fd = ::open("/dev/null", O_RDWR | O_CLOEXEC);
  return fd;
}

// The heap start offset: a static executable is not reached by LD_PRELOAD
// (recorded as such); otherwise the runtime is preloaded after the user's
// own LD_PRELOAD and reports into a file of its own. Returns the
// environment entries that preload it (none when it is not preloaded).
std::vector<std::string> heapPreload(const ExecutionRequest &req, const std::string &program,
                                     Scratch &heapReport, ExecutionResult &result) {
  std::vector<std::string> heapEnv;
  if (req.heapOffset >= 0) {
    if (isStaticExecutable(program).value_or(false)) {
      result.heapStatus = ALEA_HEAP_STATIC;
    } else if (auto runtime = heapRuntimePath(); !runtime) {
      result.heapStatus = std::string(ALEA_HEAP_FAILED) + " " + runtime.error();
    } else if (!heapReport.create("heap", /*directory=*/false)) {
      result.heapStatus =
          std::string(ALEA_HEAP_FAILED) + " cannot create its report file: " + std::strerror(errno);
    } else {
      heapEnv = {"LD_PRELOAD=" + preloadWith(envValue(req.env, "LD_PRELOAD"), *runtime),
                 std::string(ALEA_HEAP_OFFSET_VARIABLE) + "=" + heapOffsetText(req.heapOffset),
                 std::string(ALEA_HEAP_REPORT_VARIABLE) + "=" + heapReport.path()};
    }
  }
  return heapEnv;
}

// The child's argv (`command`: the request's, or it under Valgrind),
// environment and CPU set, built before the fork (only async-signal-safe
// calls after it). The pointers point into `command`'s strings, the
// request's, heapEnv's and this object's own (not copied): it stays where
// it was made.
struct ChildArgs {
  std::string iterFd, duetFd, envPad;
  std::vector<char *> argv, env;
  cpu_set_t cpuSet;

  ChildArgs(const ExecutionRequest &req, const std::vector<std::string> &command,
            std::vector<std::string> &heapEnv) {
    if (req.recordsPipe)
      iterFd = "ALEA_ITER_FD=" + std::to_string(kRecordsFd);
    if (req.duetFd >= 0)
      duetFd = "ALEA_DUET_FD=" + std::to_string(kDuetFd);
    if (req.envPadBytes >= 0) {
      envPad.reserve(13 + static_cast<std::size_t>(req.envPadBytes));
      envPad = "ALEA_ENV_PAD=";
      envPad.append(static_cast<std::size_t>(req.envPadBytes), 'x');
    }
    argv.reserve(command.size() + 1);
    env.reserve(req.env.size() + 6);
    for (const auto &a : command)
      argv.push_back(const_cast<char *>(a.c_str()));
    argv.push_back(nullptr);
    for (const auto &e : req.env)
      if (heapEnv.empty() || e.rfind("LD_PRELOAD=", 0) != 0) // heapEnv has the joined one
        env.push_back(const_cast<char *>(e.c_str()));
    for (auto &e : heapEnv)
      env.push_back(e.data());
    if (req.recordsPipe)
      env.push_back(iterFd.data());
    if (req.duetFd >= 0)
      env.push_back(duetFd.data());
    if (req.envPadBytes >= 0)
      env.push_back(envPad.data());
    env.push_back(nullptr);
    CPU_ZERO(&cpuSet);
    for (int c : req.cpus)
      if (c >= 0 && c < CPU_SETSIZE)
        CPU_SET(c, &cpuSet);
  }
  ChildArgs(const ChildArgs &) = delete;
  ChildArgs &operator=(const ChildArgs &) = delete;
};

// vfork: the child shares our memory until execve (no page-table copy, as
// posix_spawn does); it runs childExec, which only makes system calls. In a
// frame of its own, so that no local of LocalExecutor::run lives across the
// vfork (gcc's -Wclobbered); the child never returns from here.
[[gnu::noinline]] pid_t spawnChild(const ChildSetup &child) {
  pid_t pid = ::vfork();
  if (pid == 0)
    childExec(child);
  return pid;
}

// How the child ended: its wait status, resource usage and end time.
struct ChildEnd {
  int status = 0;
  struct rusage ru{};
  std::chrono::steady_clock::time_point end{};
};

// How long superviseChild's poll may wait, in ms (-1: no limit): until
// `limit`; at most 5 ms when the child itself must be polled (no pidfd);
// at most 250 ms with a cancel flag, which is normally seen when a signal
// interrupts poll: the look covers a signal that landed just before it.
int pollWaitMs(std::chrono::steady_clock::time_point now,
               std::chrono::steady_clock::time_point limit, bool pollChild, bool cancelFlag) {
  int waitMs = -1;
  if (limit != std::chrono::steady_clock::time_point::max())
    waitMs = static_cast<int>(std::clamp<long long>(
        std::chrono::duration_cast<std::chrono::milliseconds>(limit - now).count() + 1, 0,
        std::numeric_limits<int>::max())); // poll's int: 24 days, then it looks again
  if (pollChild)
    waitMs = waitMs < 0 ? 5 : std::min(waitMs, 5);
  if (cancelFlag)
    waitMs = waitMs < 0 ? 250 : std::min(waitMs, 250);
  return waitMs;
}

// Watches the child until it has ended and its pipes are drained: reads its
// output, records and stderr tail as they come, kills its process group on
// cancel, stop request or timeout, and reaps it.
ChildEnd superviseChild(const ExecutionRequest &req, pid_t pid,
                        std::chrono::steady_clock::time_point start, Fd &outR, Fd &errR, Fd &recR,
                        ExecutionResult &result) {
  int pidFd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
  // At most kMaxSeconds (the campaign file's bound): a longer duration would
  // overflow the clock's nanoseconds and put the deadline in the past.
  const auto deadline =
      req.timeoutSeconds > 0
          ? start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                        std::chrono::duration<double>(std::min(req.timeoutSeconds, kMaxSeconds)))
          : std::chrono::steady_clock::time_point::max();
  bool exited = false, killed = false;
  ChildEnd ended;
  int &status = ended.status;
  struct rusage &ru = ended.ru;
  std::chrono::steady_clock::time_point &end = ended.end;
  // SIGKILL to the child's process group and to the child itself.
  auto killTree = [&] {
    ::kill(-pid, SIGKILL);
    ::kill(pid, SIGKILL);
    killed = true;
  };
  char buf[65536];
  std::size_t errKeep = std::max<std::size_t>(req.stderrTail, 1);

  // The child is looked at once it has ended but before it is reaped (its
  // /proc entry goes with the reaping): its CPU migrations.
  auto reap = [&](int flags) {
    siginfo_t info{};
    if (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOWAIT | flags) != 0 ||
        info.si_pid != pid)
      return false;
    end = std::chrono::steady_clock::now();
    result.migrations = schedMigrations(pid);
    if (::wait4(pid, &status, 0, &ru) == pid)
      exited = true;
    return exited;
  };

  std::chrono::steady_clock::time_point drainDeadline =
      std::chrono::steady_clock::time_point::max();
  for (;;) {
    pollfd fds[5];
    int n = 0;
    int idxOut = -1, idxErr = -1, idxRec = -1, idxPid = -1, idxStop = -1;
    if (outR.fd >= 0)
      fds[idxOut = n++] = {outR.fd, POLLIN, 0};
    if (errR.fd >= 0)
      fds[idxErr = n++] = {errR.fd, POLLIN, 0};
    if (recR.fd >= 0)
      fds[idxRec = n++] = {recR.fd, POLLIN, 0};
    if (!exited && pidFd >= 0)
      fds[idxPid = n++] = {pidFd, POLLIN, 0};
    if (exited && n == 0)
      break;
    if (!exited && !killed && req.stopFd >= 0)
      fds[idxStop = n++] = {req.stopFd, POLLIN, 0};
    auto now = std::chrono::steady_clock::now();
    if (!exited && !killed && req.cancel && req.cancel->load()) {
      killTree();
      result.cancelled = true;
    }
    if (!exited && !killed && now >= deadline) {
      killTree();
      result.output.timedOut = true;
    }
    if (exited && now >= drainDeadline) {
      // Grandchildren still hold the pipes: the benchmark is over, end them.
      ::kill(-pid, SIGKILL);
      break;
    }
    auto limit = exited ? drainDeadline : (killed ? now + std::chrono::milliseconds(50) : deadline);
    int rc = ::poll(fds, static_cast<nfds_t>(n),
                    pollWaitMs(now, limit, !exited && pidFd < 0, req.cancel != nullptr));
    if (rc < 0 && errno != EINTR)
      break;
    auto readInto = [&](int idx, Fd &fd, OutputChannel channel, std::string *dst,
                        std::size_t limitBytes) {
      if (idx < 0 || !(fds[idx].revents & (POLLIN | POLLHUP | POLLERR)))
        return;
      ssize_t got = ::read(fd.fd, buf, sizeof buf);
      if (got > 0) {
        if (req.sink)
          req.sink->write(channel, std::string_view(buf, static_cast<std::size_t>(got)));
        if (dst && limitBytes > 0)
          appendBounded(*dst, buf, static_cast<std::size_t>(got), limitBytes);
      } else if (got == 0 || (errno != EINTR && errno != EAGAIN)) {
        fd.reset();
      }
    };
    if (rc > 0 && idxStop >= 0 && fds[idxStop].revents != 0) {
      killTree();
    }
    if (rc > 0) {
      readInto(idxOut, outR, OutputChannel::Stdout, &result.output.stdoutText, req.stdoutLimit);
      readInto(idxErr, errR, OutputChannel::Stderr, &result.output.stderrTail, errKeep);
      // Records are parsed by the sink as they arrive; without one (tests)
      // they are kept whole.
      readInto(idxRec, recR, OutputChannel::Records, req.sink ? nullptr : &result.output.records,
               std::size_t{1} << 30);
    }
    if (!exited && (pidFd < 0 || (idxPid >= 0 && (fds[idxPid].revents & POLLIN)) || killed)) {
      if (reap(WNOHANG))
        drainDeadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    }
  }
  if (!exited)
    reap(0);
  if (pidFd >= 0)
    ::close(pidFd);
  return ended;
}

// The result's fields from how the child ended: times, resources, exit
// status or signal, heap status, and a failed step of the child's set-up.
void recordChildEnd(const ExecutionRequest &req, const ChildEnd &ended,
                    std::chrono::steady_clock::time_point start, const Scratch &heapReport,
                    int failStep, int failErrno, ExecutionResult &result) {
  const int status = ended.status;
  const struct rusage &ru = ended.ru;
  const std::chrono::steady_clock::time_point end = ended.end;
  trimTail(result.output.stdoutText, req.stdoutLimit);
  trimTail(result.output.stderrTail, req.stderrTail);
  if (!heapReport.path().empty())
    result.heapStatus = heapStatusFromReport(heapReport.read());
  if (int step = failStep; step != 0) {
    static const char *const steps[] = {"",
                                        "redirect",
                                        "records fd",
                                        "chdir",
                                        "sched_setaffinity",
                                        "personality",
                                        "execve",
                                        "prctl",
                                        "perf_event_open",
                                        "passing the counter"};
    result.spawnFailed = true;
    result.spawnError = std::string(steps[step >= 1 && step <= 9 ? step : 0]) + " '" + req.argv[0] +
                        "': " + std::strerror(failErrno);
  }
  result.output.wallSeconds = std::chrono::duration<double>(end - start).count();
  result.output.userSeconds = seconds(ru.ru_utime);
  result.output.sysSeconds = seconds(ru.ru_stime);
  result.output.maxRssKib = ru.ru_maxrss;
  result.voluntarySwitches = ru.ru_nvcsw;
  result.involuntarySwitches = ru.ru_nivcsw;
  result.steadyStart = std::chrono::duration<double>(start.time_since_epoch()).count();
  result.steadyEnd = std::chrono::duration<double>(end.time_since_epoch()).count();
  if (WIFEXITED(status)) {
    result.output.exitCode = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.output.signal = WTERMSIG(status);
    result.output.exitCode = 128 + result.output.signal;
  }
  if (result.output.timedOut)
    result.output.signal = 0;
}

// The events of the request's counter metrics, in its order; why there are
// none ("" when there are).
std::string counterEventsOf(const ExecutionRequest &req, std::vector<CounterEvent> &events) {
  for (Metric metric : req.counters) {
    std::optional<CounterEvent> event = counterEvent(metric);
    if (!event)
      return std::string("metric \"") + enumName(metric) + "\" is not a counter";
    events.push_back(*event);
  }
  if (events.size() > kMaxCounters)
    return "more than " + std::to_string(kMaxCounters) + " counters";
  return {};
}

// A counter's total once the tree has ended, or the first counter's problem.
void recordCounter(Metric metric, int fd, ExecutionOutput &out) {
  CounterReading reading =
      fd >= 0 ? readCounter(fd) : CounterReading{{}, "the counter was not opened"};
  if (reading.value)
    out.counterValues[metric] = *reading.value;
  else if (out.metricError.empty())
    out.metricError = std::string(enumName(metric)) + ": " + reading.error;
}

} // namespace

LocalExecutor::LocalExecutor() { scratchDirectory(); }

ExecutionResult LocalExecutor::run(const ExecutionRequest &req) {
  if (!req.simulate || !req.nativeToo)
    return runOnce(req);
  // Several metrics: the run the measurement is, then the simulated one for
  // its counts (the same environment, padding and heap offset; its output
  // and iterations are not read).
  ExecutionRequest native = req;
  native.simulate.reset();
  ExecutionResult result = runOnce(native);
  if (result.spawnFailed || result.cancelled || result.lost ||
      !describeFailure(result.output, req.expectedExit).empty())
    return result;
  ExecutionRequest simulated = req;
  simulated.counters.clear();
  simulated.recordsPipe = false;
  simulated.captureStdout = false;
  simulated.sink = nullptr;
  ExecutionResult sim = runOnce(simulated);
  result.simulationSeconds = sim.output.wallSeconds;
  if (sim.cancelled) { // interrupted by the user: not a measurement either
    result.cancelled = true;
    return result;
  }
  result.output.simulated = sim.output.simulated;
  result.output.simulatedFunctions = std::move(sim.output.simulatedFunctions);
  if (sim.spawnFailed)
    result.output.metricError = "the run under cachegrind: " + sim.spawnError;
  else if (std::string why = describeFailure(sim.output, req.expectedExit); !why.empty())
    result.output.metricError =
        "the run under cachegrind: " + why +
        (sim.output.metricError.empty() ? "" : " (" + sim.output.metricError + ")");
  else if (!sim.output.metricError.empty())
    result.output.metricError = sim.output.metricError;
  if (!result.output.metricError.empty()) {
    result.output.simulated.reset();
    result.output.simulatedFunctions.clear();
  }
  return result;
}

ExecutionResult LocalExecutor::runOnce(const ExecutionRequest &req) {
  ExecutionResult result;
  auto fail = [&](std::string why) {
    result.spawnFailed = true;
    result.spawnError = std::move(why);
    result.output.exitCode = 127;
    return result;
  };
  if (req.argv.empty())
    return fail("empty command");
  std::string program = resolveProgram(req.argv[0], req.env);
  if (program.empty())
    return fail("command not found: " + req.argv[0]);
  if (!req.workdir.empty()) {
    struct stat st;
    if (::stat(req.workdir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
      return fail("working directory does not exist: " + req.workdir);
  }
  Fd inFd;
  if (!req.stdinPath.empty()) {
    inFd.fd = ::open(req.stdinPath.c_str(), O_RDONLY | O_CLOEXEC);
    if (inFd.fd < 0)
      return fail("cannot open stdin file '" + req.stdinPath + "': " + std::strerror(errno));
  } else if (devNull() < 0) {
    return fail(std::string("cannot open /dev/null: ") + std::strerror(errno));
  }
  Fd outR, outW, errR, errW, recR, recW;
  if ((req.captureStdout && !makePipe(outR, outW)) || !makePipe(errR, errW) ||
      (req.recordsPipe && !makePipe(recR, recW)))
    return fail(std::string("pipe: ") + std::strerror(errno));

  Scratch heapReport;
  std::vector<std::string> heapEnv = heapPreload(req, program, heapReport, result);

  // A simulated metric: the command under cachegrind, which passes the
  // environment (LD_PRELOAD included, after its own preloads) to it and to
  // every child it traces.
  std::vector<std::string> command = req.argv;
  Scratch simDir;
  if (req.simulate) {
    std::string valgrind = resolveProgram("valgrind", req.env);
    if (valgrind.empty())
      return fail("valgrind is not on PATH (the sim-* metrics run the benchmark under Valgrind's "
                  "cachegrind)");
    if (!simDir.create("cachegrind", /*directory=*/true))
      return fail(std::string("cannot create cachegrind's directory: ") + std::strerror(errno));
    command = {valgrind};
    for (auto &option : cachegrindOptions(*req.simulate, simDir.path()))
      command.push_back(std::move(option));
    command.push_back(program);
    command.insert(command.end(), req.argv.begin() + 1, req.argv.end());
    program = valgrind;
  }
  // Counter metrics: their events, and the socket their descriptors come
  // back through.
  std::vector<CounterEvent> counters;
  if (std::string why = counterEventsOf(req, counters); !why.empty())
    return fail(why);
  Fd counterR, counterW;
  std::vector<Fd> counterFds(counters.size());
  if (!counters.empty()) {
    int sv[2];
    if (::socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, sv) != 0)
      return fail(std::string("socketpair: ") + std::strerror(errno));
    counterR.fd = sv[0];
    counterW.fd = sv[1];
  }

  ChildArgs args(req, command, heapEnv);
  volatile int failStep = 0, failErrno = 0;
  ChildSetup child{req.workdir.empty() ? nullptr : req.workdir.c_str(),
                   program.c_str(),
                   args.argv.data(),
                   args.env.data(),
                   &args.cpuSet,
                   !req.cpus.empty(),
                   req.disableAslr,
                   req.recordsPipe,
                   inFd.fd >= 0 ? inFd.fd : devNull(),
                   req.captureStdout ? outW.fd : devNull(),
                   errW.fd,
                   recW.fd,
                   req.duetFd,
                   ::getpid(),
                   counters.data(),
                   counters.size(),
                   counterW.fd,
                   &failStep,
                   &failErrno};

  // While the child runs, orphans of its tree are reparented to us (not to
  // init), so that the ones still running after it can be found.
  int wasSubreaper = 0;
  unsigned long long childStart = 0; // leftovers started after it
  if (req.watchLeftovers) {
    ::prctl(PR_GET_CHILD_SUBREAPER, &wasSubreaper);
    ::prctl(PR_SET_CHILD_SUBREAPER, 1);
    childStart = bootTicksSecondAgo();
  }

  auto start = std::chrono::steady_clock::now();
  result.startedAt =
      std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  pid_t pid = spawnChild(child);
  if (pid < 0)
    return fail(std::string("vfork: ") + std::strerror(errno));
  // No setpgid(pid, pid) here: vfork resumes us only after the child's
  // execve (or exit), so its own setpgid(0, 0) is done before any kill(-pid).
  outW.reset();
  errW.reset();
  recW.reset();
  inFd.reset();
  if (!counters.empty()) { // sent before the execve that resumed us, if at all
    std::vector<int> fds = receiveCounters(counterR.fd, counters.size());
    for (std::size_t i = 0; i < fds.size(); ++i)
      counterFds[i].fd = fds[i];
    counterR.reset();
    counterW.reset();
  }

  ChildEnd ended = superviseChild(req, pid, start, outR, errR, recR, result);
  if (req.watchLeftovers) {
    result.leftovers = collectLeftovers(childStart, req.killLeftovers);
    result.leftoversKilled = req.killLeftovers && !result.leftovers.empty();
    ::prctl(PR_SET_CHILD_SUBREAPER, wasSubreaper);
  }

  recordChildEnd(req, ended, start, heapReport, failStep, failErrno, result);
  // The metric, once the tree has ended (its descendants that outlived it
  // were reaped or killed above: their counts are in).
  for (std::size_t i = 0; !result.spawnFailed && i < counters.size(); ++i)
    recordCounter(req.counters[i], counterFds[i].fd, result.output);
  if (!result.spawnFailed && req.simulate) {
    auto counts = sumCachegrindOutputs(simDir.path(), *req.simulate, result.output.stderrTail);
    if (counts)
      result.output.simulated = *counts;
    else
      result.output.metricError = counts.error();
    if (auto functions = sumCachegrindFunctions(simDir.path()); counts && functions)
      result.output.simulatedFunctions = std::move(*functions);
    // A run that failed under Valgrind: Valgrind's reason, from its log in
    // the directory removed with the execution (debug info it cannot read).
    if (result.output.metricError.empty() &&
        !describeFailure(result.output, req.expectedExit).empty())
      result.output.metricError = valgrindComplaint(simDir.path(), result.output.stderrTail);
  }
  return result;
}

namespace {

// What follows `prefix` in the entry of a NUL-separated environment block
// (/proc/<pid>/environ) that starts with it; nullopt when none does.
std::optional<std::string> entryAfter(const std::string &block, const std::string &prefix) {
  for (std::size_t at = 0; at < block.size();) {
    std::size_t end = block.find('\0', at);
    if (end == std::string::npos)
      end = block.size();
    if (block.compare(at, prefix.size(), prefix) == 0 && end - at >= prefix.size())
      return block.substr(at + prefix.size(), end - at - prefix.size());
    at = end + 1;
  }
  return std::nullopt;
}

std::string readWhole(const std::string &path) {
  std::string text;
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return text;
  char buf[65536];
  for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;)
    text.append(buf, static_cast<std::size_t>(n));
  ::close(fd);
  return text;
}

} // namespace

std::vector<MarkedProcess> endMarkedProcesses(const std::string &run,
                                              const std::function<bool(std::string_view)> &spare) {
  std::vector<MarkedProcess> ended;
  if (run.empty())
    return ended;
  const std::string prefix = std::string(kJobVariable) + "=" + run + "-";
  const pid_t self = ::getpid();
  // Rounds until a scan finds nothing to end: a process may fork while the
  // scan runs (bounded, against a fork bomb).
  for (int round = 0; round < 64; ++round) {
    bool endedAny = false;
    DIR *proc = ::opendir("/proc");
    if (!proc)
      break;
    while (dirent *d = ::readdir(proc)) {
      char *rest = nullptr;
      long pid = std::strtol(d->d_name, &rest, 10);
      if (pid <= 0 || *rest != '\0' || pid == self)
        continue;
      // Opened first: from here the pidfd names this process, and if it
      // ends and its pid is reused before the checks below, poll says so.
      int pidFd = static_cast<int>(::syscall(SYS_pidfd_open, static_cast<pid_t>(pid), 0));
      if (pidFd < 0)
        continue;
      std::optional<std::string> job =
          entryAfter(readWhole("/proc/" + std::string(d->d_name) + "/environ"), prefix);
      std::optional<ProcStat> st = job ? procStat(static_cast<pid_t>(pid)) : std::nullopt;
      pollfd still{pidFd, POLLIN, 0}; // POLLIN: it has ended (what we read may be another's)
      if (job && st && !spare(*job) && ::poll(&still, 1, 0) == 0 &&
          ::syscall(SYS_pidfd_send_signal, pidFd, SIGKILL, nullptr, 0) == 0) {
        // Gone (a zombie of its own parent) before the next scan looks.
        pollfd gone{pidFd, POLLIN, 0};
        ::poll(&gone, 1, 10000);
        ended.push_back({static_cast<int>(pid), st->name, *job});
        endedAny = true;
      }
      ::close(pidFd);
    }
    ::closedir(proc);
    if (!endedAny)
      break;
  }
  return ended;
}

std::vector<std::string> processEnvironment() {
  std::vector<std::string> env;
  for (char **e = environ; *e; ++e)
    env.emplace_back(*e);
  return env;
}

std::vector<ExecutionResult> Executor::runTogether(const std::vector<ExecutionRequest> &requests) {
  std::vector<ExecutionResult> results;
  for (const auto &r : requests)
    results.push_back(run(r));
  return results;
}

BlockResult Executor::runBlock(const std::vector<ExecutionRequest> &requests,
                               const BlockOptions &options) {
  BlockResult block;
  if (requests.empty())
    return block;
  const std::atomic<bool> *cancel = requests.front().cancel;
  if (options.quiet.enabled) {
    block.gate = waitForQuiet(options.quiet, cancel);
    if (block.gate->cancelled) {
      block.cancelled = true;
      return block;
    }
  }
  CpuTimes before = readCpuTimes();
  if (options.together && requests.size() > 1) {
    block.results = runTogether(requests);
  } else {
    for (const auto &r : requests)
      block.results.push_back(run(r));
  }
  CpuTimes after = readCpuTimes();
  double childCpu = 0; // the measured processes' own CPU time is not other load
  for (const auto &r : block.results) {
    block.cancelled = block.cancelled || r.cancelled;
    childCpu += r.output.userSeconds + r.output.sysSeconds;
  }
  std::optional<double> load = otherLoad(before, after, childCpu);
  for (std::size_t i = 0; i < block.results.size(); ++i) {
    block.results[i].otherLoad = load;
    block.results[i].cpuMhz = cpuMhz(requests[i].cpus);
  }
  return block;
}

namespace {

// A duet's barrier shared by its partners' threads: the decisions
// (DuetBarrier) and, per partner, alea's end of the socket pair whose other
// end the child reads as ALEA_DUET_FD. A release is one byte; MSG_NOSIGNAL:
// a partner that just died must not take alea with it (SIGPIPE).
struct SharedBarrier {
  std::mutex mutex;
  DuetBarrier barrier;
  std::vector<int> release;
  explicit SharedBarrier(std::size_t n) : barrier(n), release(n, -1) {}
  void send(const std::vector<std::size_t> &partners) {
    for (std::size_t p : partners) {
      const char go = 1;
      ::send(release[p], &go, 1, MSG_NOSIGNAL);
    }
  }
};

// Passes a partner's output on to its own sink (or keeps the records, when
// it has none, as run() would) and shows its records to the barrier.
class BarrierSink final : public OutputSink {
public:
  BarrierSink(SharedBarrier &shared, std::size_t partner, OutputSink *inner)
      : shared_(shared), partner_(partner), inner_(inner) {}
  void write(OutputChannel channel, std::string_view bytes) override {
    if (inner_)
      inner_->write(channel, bytes);
    else if (channel == OutputChannel::Records)
      kept.append(bytes);
    if (channel == OutputChannel::Records) {
      std::lock_guard lock(shared_.mutex);
      shared_.send(shared_.barrier.records(partner_, bytes));
    }
  }
  std::string kept;

private:
  SharedBarrier &shared_;
  std::size_t partner_;
  OutputSink *inner_;
};

// A restart of a duet's partner: the same process, nothing of it read or
// measured, ended as soon as `stopFd` hangs up.
ExecutionRequest restartOf(const ExecutionRequest &measured, int stopFd) {
  ExecutionRequest r = measured;
  r.sink = nullptr;
  r.captureStdout = false;
  r.stdoutLimit = 0;
  r.stderrTail = 0;
  r.recordsPipe = false;
  r.watchLeftovers = false;
  r.stopFd = stopFd;
  return r;
}

// Why a run does not keep its partners company any more ("" = it does).
std::string stoppedBecause(const ExecutionResult &r, int expectedExit) {
  if (r.spawnFailed)
    return "could not start: " + r.spawnError;
  if (r.cancelled)
    return "interrupted";
  return describeFailure(r.output, expectedExit);
}

std::string partnerName(const ExecutionRequest &r) {
  std::string program = r.argv.empty() ? "?" : r.argv.front();
  return "its partner (" + program.substr(program.rfind('/') + 1) + ")";
}

} // namespace

std::vector<ExecutionResult>
LocalExecutor::runTogether(const std::vector<ExecutionRequest> &requests) {
  bool watch = false, kill = true, records = false;
  std::vector<ExecutionRequest> own = requests;
  for (auto &r : own) {
    watch = watch || r.watchLeftovers;
    kill = kill && r.killLeftovers;
    records = records || r.recordsPipe;
    r.watchLeftovers = false;
  }
  int wasSubreaper = 0;
  unsigned long long childStart = 0;
  if (watch) {
    ::prctl(PR_GET_CHILD_SUBREAPER, &wasSubreaper);
    ::prctl(PR_SET_CHILD_SUBREAPER, 1);
    childStart = bootTicksSecondAgo();
  }
  const std::size_t n = own.size();
  const DuetSync sync = duetSyncFor(records);
  std::vector<ExecutionResult> results(n);
  if (sync == DuetSync::Barrier) {
    // Each partner's records pass the barrier on their way to its sink; a
    // partner that ended holds nobody back.
    SharedBarrier shared(n);
    std::vector<Fd> childEnds(n);
    std::vector<std::unique_ptr<BarrierSink>> sinks;
    for (std::size_t i = 0; i < n; ++i) {
      int sv[2];
      if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0) {
        shared.release[i] = sv[0];
        childEnds[i].fd = sv[1];
        own[i].duetFd = sv[1];
      }
      sinks.push_back(std::make_unique<BarrierSink>(shared, i, own[i].sink));
      own[i].sink = sinks.back().get();
    }
    {
      std::vector<std::jthread> threads;
      for (std::size_t i = 0; i < n; ++i)
        threads.emplace_back([&, i] {
          results[i] = run(own[i]);
          std::lock_guard lock(shared.mutex);
          shared.send(shared.barrier.ended(i));
        });
    }
    for (std::size_t i = 0; i < n; ++i) {
      if (!requests[i].sink)
        results[i].output.records = std::move(sinks[i]->kept);
      results[i].duetBarriers = shared.barrier.passed(i);
      if (shared.release[i] >= 0)
        ::close(shared.release[i]);
    }
    // Its overlap: the partners' processes' spans.
    std::vector<DuetPartnerRun> spans(n);
    for (std::size_t i = 0; i < n; ++i)
      spans[i] = {results[i].steadyStart,
                  results[i].steadyEnd,
                  results[i].steadyStart,
                  results[i].steadyEnd,
                  false,
                  {},
                  {}};
    std::vector<DuetJudgment> judged = judgeDuet(spans);
    for (std::size_t i = 0; i < n; ++i)
      results[i].overlap = judged[i].overlap;
  } else {
    // Each partner runs its measured execution, then is restarted until
    // every measured execution has ended; the last one to end closes the
    // stop pipe, which ends the restarts still running.
    Fd stopR, stopW;
    const bool canStop = makePipe(stopR, stopW);
    std::mutex mutex;
    std::size_t running = n;
    std::vector<DuetPartnerRun> spans(n);
    {
      std::vector<std::jthread> threads;
      for (std::size_t i = 0; i < n; ++i)
        threads.emplace_back([&, i] {
          results[i] = run(own[i]);
          DuetPartnerRun &span = spans[i];
          span.start = span.loopStart = results[i].steadyStart;
          span.end = span.loopEnd = results[i].steadyEnd;
          span.name = partnerName(own[i]);
          {
            std::lock_guard lock(mutex);
            if (--running == 0)
              stopW.reset();
          }
          const ExecutionRequest again = restartOf(own[i], stopR.fd);
          std::string why = stoppedBecause(results[i], own[i].expectedExit);
          while (canStop && why.empty()) {
            {
              std::lock_guard lock(mutex);
              if (running == 0)
                break;
            }
            ExecutionResult r = run(again);
            ++results[i].duetRestarts;
            span.loopEnd = r.steadyEnd;
            why = stoppedBecause(r, own[i].expectedExit);
          }
          std::lock_guard lock(mutex);
          span.stoppedEarly = running > 0;
          span.why = why.empty() ? "not restarted" : why;
        });
    }
    std::vector<DuetJudgment> judged = judgeDuet(spans);
    for (std::size_t i = 0; i < n; ++i) {
      results[i].overlap = judged[i].overlap;
      results[i].duetAlone = judged[i].alone;
    }
  }
  for (auto &r : results)
    r.duetSync = sync;
  if (watch) {
    std::vector<std::string> left = collectLeftovers(childStart, kill);
    for (auto &r : results) {
      r.leftovers = left;
      r.leftoversKilled = kill && !left.empty();
    }
    ::prctl(PR_SET_CHILD_SUBREAPER, wasSubreaper);
  }
  return results;
}

std::vector<std::string> LocalExecutor::collectLeftovers(unsigned long long childStart, bool kill) {
  // The common case, no child at all, costs one system call.
  siginfo_t info{};
  if (::waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT) != 0 && errno == ECHILD) {
    kept_.clear();
    return {};
  }
  std::vector<std::string> found;
  std::vector<pid_t> seen;
  // Killing a leftover orphans its own children, which come to us in turn:
  // rounds until none is left (bounded, against a fork bomb).
  for (int round = 0; round < 64; ++round) {
    bool killedAny = false;
    for (pid_t c : ownChildren()) {
      auto st = procStat(c);
      if (!st)
        continue;
      if (st->state == 'Z') { // ended on its own: reap it, nothing runs
        ::waitpid(c, nullptr, WNOHANG);
        std::erase(kept_, c);
        continue;
      }
      if (st->startTime < childStart || std::count(kept_.begin(), kept_.end(), c))
        continue;              // not of this execution, or a leftover already reported
      if (dyingOfSigkill(c)) { // killed with its group (a duet's restart): reap it
        ::waitpid(c, nullptr, 0);
        continue;
      }
      if (std::find(seen.begin(), seen.end(), c) == seen.end()) {
        seen.push_back(c);
        found.push_back("pid " + std::to_string(c) + " (" + st->name + ")");
      }
      if (!kill) {
        kept_.push_back(c);
        continue;
      }
      if (::getpgid(c) == c)
        ::kill(-c, SIGKILL); // its process group, if it leads one (setsid does)
      ::kill(c, SIGKILL);
      ::waitpid(c, nullptr, 0);
      killedAny = true;
    }
    if (!killedAny)
      break;
  }
  return found;
}

} // namespace alea::runner

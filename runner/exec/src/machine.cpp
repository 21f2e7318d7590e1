// Machine state: read from /proc and /sys (no external tools except the
// compilers asked for their versions). See machine.hpp.
#include "alea/exec/machine.hpp"

#include "alea/contract.hpp"
#include "alea/exec/executor.hpp"
#include "alea/wrapper/config.hpp"
#include "alea/wrapper/driver.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <utility>

namespace alea::runner {

namespace {

std::string readFirstLine(const char *path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

std::string cpuModel() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      auto colon = line.find(':');
      if (colon != std::string::npos)
        return line.substr(line.find_first_not_of(" \t", colon + 1));
    }
  }
  return {};
}

void readCheap(MachineState &m) {
  m.governor = readFirstLine("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
  std::string aslr = readFirstLine("/proc/sys/kernel/randomize_va_space");
  m.aslr = aslr.empty() ? -1 : std::atoi(aslr.c_str());
  std::string load = readFirstLine("/proc/loadavg");
  m.load1 = load.empty() ? 0 : std::strtod(load.c_str(), nullptr);
}

// Runs `<tool> <args...>` with this process's environment; the first line of
// what it printed, or "" when it could not run or failed.
std::string firstLineOf(const std::vector<std::string> &argv) {
  LocalExecutor exec;
  ExecutionRequest req;
  req.argv = argv;
  req.env = processEnvironment();
  req.timeoutSeconds = 10;
  ExecutionResult r = exec.run(req);
  if (r.spawnFailed || r.output.exitCode != 0)
    return {};
  std::string text = r.output.stdoutText.empty() ? r.output.stderrTail : r.output.stdoutText;
  return text.substr(0, text.find('\n'));
}

// The persistent answer cache: one line per tool, "<identity>\t<answer>", in
// $XDG_CACHE_HOME/alea/tool-versions (default ~/.cache). The identity is the
// path asked for, the file it resolves to, and that file's device, inode, size
// and modification time: an upgraded or replaced compiler is asked again
// (scripts and launchers are never cached, see toolIdentity). A
// compiler's --version costs ~70 ms of start-up, three of them a third of a
// short campaign's fixed cost (bench/runner). Without a writable cache
// directory the tools are simply asked each time.
std::string cachePath() {
  const char *xdg = std::getenv("XDG_CACHE_HOME");
  const char *home = std::getenv("HOME");
  std::string dir;
  if (xdg && *xdg == '/')
    dir = xdg;
  else if (home && *home == '/')
    dir = std::string(home) + "/.cache";
  else
    return {};
  return dir + "/alea/tool-versions";
}

std::string toolIdentity(const std::string &tool) {
  std::string path = resolveProgram(tool, {});
  if (path.empty())
    return {};
  char *real = ::realpath(path.c_str(), nullptr);
  if (!real)
    return {};
  std::string resolved = real;
  std::free(real);
  // Only a compiler's own executable identifies its answer: a script (a
  // distribution's `cc`, a wrapper of the user's) or a launcher (ccache,
  // sccache, distcc, icecc) stays the same file while the compiler behind it
  // changes, so those are asked every time (an empty identity).
  const std::string base = std::filesystem::path(resolved).filename().string();
  for (const char *launcher : {"ccache", "sccache", "distcc", "icecc"})
    if (base == launcher)
      return {};
  {
    std::ifstream f(resolved, std::ios::binary);
    char magic[4] = {};
    if (!f.read(magic, 4) || std::string_view(magic, 4) != "\x7f"
                                                           "ELF")
      return {};
  }
  struct stat st;
  if (::stat(resolved.c_str(), &st) != 0)
    return {};
  std::ostringstream key;
  key << path << '|' << resolved << '|' << st.st_dev << ':' << st.st_ino << '|' << st.st_size << '|'
      << st.st_mtim.tv_sec << '.' << st.st_mtim.tv_nsec;
  return key.str();
}

std::optional<std::string> cachedVersion(const std::string &identity) {
  std::string file = cachePath();
  if (file.empty() || identity.empty())
    return std::nullopt;
  std::ifstream in(file);
  std::string line;
  std::optional<std::string> found;
  while (std::getline(in, line)) // the last entry for an identity wins
    if (line.size() > identity.size() && line.compare(0, identity.size(), identity) == 0 &&
        line[identity.size()] == '\t')
      found = line.substr(identity.size() + 1);
  return found;
}

void storeVersion(const std::string &identity, const std::string &version) {
  std::string file = cachePath();
  if (file.empty() || identity.empty() || version.empty() ||
      version.find('\n') != std::string::npos)
    return;
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(file).parent_path(), ec);
  // One write of one line with O_APPEND: concurrent alea processes append
  // whole lines.
  int fd = ::open(file.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0)
    return;
  std::string line = identity + '\t' + version + '\n';
  [[maybe_unused]] ssize_t n = ::write(fd, line.data(), line.size());
  ::close(fd);
}

std::string queryToolVersion(const std::string &tool) {
  const std::string identity = toolIdentity(tool);
  if (std::optional<std::string> v = cachedVersion(identity))
    return *v;
  std::string v = firstLineOf({tool, "--version"});
  storeVersion(identity, v);
  return v;
}

// `<tool> --version` answers, once per tool and process: prefetched ones run
// on their own threads, the others on first use (deferred).
struct VersionCache {
  std::mutex mutex;
  std::map<std::string, std::shared_future<std::string>> answers;
};

VersionCache &versionCache() {
  static VersionCache cache;
  return cache;
}

std::shared_future<std::string> versionFuture(const std::string &tool, std::launch policy) {
  VersionCache &cache = versionCache();
  std::lock_guard<std::mutex> lock(cache.mutex);
  auto it = cache.answers.find(tool);
  if (it == cache.answers.end())
    it = cache.answers.emplace(tool, std::async(policy, queryToolVersion, tool).share()).first;
  return it->second;
}

} // namespace

std::string askToolVersion(const std::string &tool) { return queryToolVersion(tool); }

std::string compilerBehind(const std::string &tool, const std::vector<std::string> &env) {
  const std::string base = std::filesystem::path(tool).filename().string();
  if (base != kCcWrapperName && base != kCxxWrapperName)
    return tool;
  // What the wrapper itself would run (driver.cpp): ALEA_CC/ALEA_CXX of the
  // build's environment, else the default compiler on PATH; resolved here, in
  // process, instead of asking the wrapper (a process start per compiler).
  const auto kind = base == kCcWrapperName ? alea::wrapper::Tool::Cc : alea::wrapper::Tool::Cxx;
  std::string real = alea::wrapper::resolveRealTool(
      kind, envValue(env, alea::wrapper::realToolVariable(kind)), /*chain=*/"");
  return real.empty() ? tool : real;
}

std::string toolVersion(const std::string &tool) {
  return versionFuture(tool, std::launch::deferred).get();
}

void prefetchToolVersions(const std::vector<std::string> &tools) {
  for (const auto &t : tools)
    versionFuture(t, std::launch::async);
}

void waitToolVersions() {
  std::vector<std::shared_future<std::string>> pending;
  {
    VersionCache &cache = versionCache();
    std::lock_guard<std::mutex> lock(cache.mutex);
    for (const auto &[tool, answer] : cache.answers)
      pending.push_back(answer);
  }
  for (const auto &f : pending)
    f.wait();
}

MachineState readMachineState(const std::vector<std::string> &compilers) {
  MachineState m;
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) == 0)
    m.hostname = host;
  m.cpuModel = cpuModel();
  m.cpuCount = static_cast<int>(::sysconf(_SC_NPROCESSORS_ONLN));
  struct utsname u;
  if (::uname(&u) == 0)
    m.kernel = std::string(u.sysname) + " " + u.release + " " + u.version;
  for (const auto &c : compilers) {
    std::string v = toolVersion(c);
    m.compilers += (m.compilers.empty() ? "" : "; ") + c + ": " + (v.empty() ? "(not found)" : v);
  }
  readCheap(m);
  return m;
}

MachineState recheckMachineState(const MachineState &previous) {
  MachineState m = previous;
  readCheap(m);
  m.cpuCount = static_cast<int>(::sysconf(_SC_NPROCESSORS_ONLN));
  return m;
}

std::vector<std::string> machineChanges(const MachineState &before, const MachineState &after) {
  const std::pair<const char *, bool> facts[] = {
      {"host", before.hostname != after.hostname},
      {"cpu-model", before.cpuModel != after.cpuModel},
      {"governor", before.governor != after.governor},
      {"aslr", before.aslr != after.aslr},
      {"kernel", before.kernel != after.kernel},
      {"cpu-count", before.cpuCount != after.cpuCount},
      {"compilers", before.compilers != after.compilers},
      {"load", after.load1 > before.load1 + 1.0},
  };
  std::vector<std::string> changes;
  for (const auto &[name, changed] : facts)
    if (changed)
      changes.push_back(name);
  return changes;
}

CpuTimes cpuTimesFrom(const std::string &procStat, double steady, double own,
                      double ticksPerSecond) {
  CpuTimes t;
  t.steady = steady;
  t.own = own;
  std::istringstream in(procStat);
  std::string line;
  unsigned long long idle = 0, iowait = 0;
  bool total = false;
  int cpus = 0;
  while (std::getline(in, line)) {
    if (line.rfind("cpu ", 0) == 0) {
      unsigned long long user = 0, nice = 0, system = 0;
      total = std::sscanf(line.c_str(), "cpu %llu %llu %llu %llu %llu", &user, &nice, &system,
                          &idle, &iowait) == 5;
    } else if (line.rfind("cpu", 0) == 0 && line.size() > 3 &&
               std::isdigit(static_cast<unsigned char>(line[3]))) {
      ++cpus; // one line per online CPU
    }
  }
  if (!total || cpus == 0 || !(ticksPerSecond > 0))
    return t;
  t.busy = cpus * steady - static_cast<double>(idle + iowait) / ticksPerSecond;
  t.ok = true;
  return t;
}

std::optional<double> rootCgroupCpuSeconds(const std::string &cpuacctUsage,
                                           const std::string &cpuStat) {
  if (!cpuacctUsage.empty()) {
    char *end = nullptr;
    const unsigned long long ns = std::strtoull(cpuacctUsage.c_str(), &end, 10);
    if (end != cpuacctUsage.c_str())
      return static_cast<double>(ns) * 1e-9;
  }
  std::istringstream in(cpuStat);
  std::string key;
  unsigned long long value = 0;
  while (in >> key >> value)
    if (key == "usage_usec")
      return static_cast<double>(value) * 1e-6;
  return std::nullopt;
}

namespace {
// The whole text of a small pseudo-file ("" when it cannot be read).
std::string readPseudoFile(const char *path) {
  std::string text;
  if (int fd = ::open(path, O_RDONLY | O_CLOEXEC); fd >= 0) {
    char buf[4096];
    for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;)
      text.append(buf, static_cast<std::size_t>(n));
    ::close(fd);
  }
  return text;
}

// Where the root cgroup's CPU time is on this machine ("" for neither).
const std::string &cgroupCpuFile() {
  static const std::string path = [] {
    for (const char *p : {"/sys/fs/cgroup/cpuacct/cpuacct.usage",
                          "/sys/fs/cgroup/cpu,cpuacct/cpuacct.usage", "/sys/fs/cgroup/cpu.stat"})
      if (::access(p, R_OK) == 0)
        return std::string(p);
    return std::string();
  }();
  return path;
}
} // namespace

CpuTimes readCpuTimes() {
  timespec own{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &own);
  const std::string text = readPseudoFile("/proc/stat");
  const std::string &cgroup = cgroupCpuFile();
  const std::string usage = cgroup.empty() ? "" : readPseudoFile(cgroup.c_str());
  double steady =
      std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  static const double tick = static_cast<double>(::sysconf(_SC_CLK_TCK));
  CpuTimes t =
      cpuTimesFrom(text, steady, static_cast<double>(own.tv_sec) + own.tv_nsec * 1e-9, tick);
  t.exactBusy = cgroup.ends_with("cpu.stat") ? rootCgroupCpuSeconds("", usage)
                                             : rootCgroupCpuSeconds(usage, "");
  return t;
}

std::optional<double> otherLoad(const CpuTimes &before, const CpuTimes &after,
                                double childCpuSeconds) {
  double elapsed = after.steady - before.steady;
  const bool exact = before.exactBusy && after.exactBusy;
  if (!before.ok || !after.ok || elapsed < (exact ? kExactLoadMinSeconds : kOtherLoadMinSeconds))
    return std::nullopt;
  const double busy = exact ? *after.exactBusy - *before.exactBusy : after.busy - before.busy;
  double other = busy - (after.own - before.own) - childCpuSeconds;
  return std::max(0.0, other / elapsed);
}

std::optional<double> cpuMhz(const std::vector<int> &cpus) {
  static const bool shown =
      ::access("/sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq", R_OK) == 0;
  if (!shown)
    return std::nullopt;
  std::string path = "/sys/devices/system/cpu/cpu" + std::to_string(cpus.empty() ? 0 : cpus[0]) +
                     "/cpufreq/scaling_cur_freq";
  std::string khz = readFirstLine(path.c_str());
  if (khz.empty())
    return std::nullopt;
  return std::strtod(khz.c_str(), nullptr) / 1000.0;
}

} // namespace alea::runner

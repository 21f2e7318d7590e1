// Machine state: read from /proc and /sys (no external tools except the
// compilers asked for their versions). See machine.hpp.
#include "alea/runner/machine.hpp"

#include "alea/runner/executor.hpp"

#include <cmath>
#include <fstream>
#include <future>
#include <map>
#include <mutex>
#include <sstream>
#include <sys/utsname.h>
#include <unistd.h>

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

std::string queryToolVersion(const std::string &tool) {
  LocalExecutor exec;
  ExecutionRequest req;
  req.argv = {tool, "--version"};
  for (char **e = environ; *e; ++e)
    req.env.emplace_back(*e);
  req.timeoutSeconds = 10;
  ExecutionResult r = exec.run(req);
  if (r.spawnFailed || r.output.exitCode != 0)
    return {};
  std::string text = r.output.stdoutText.empty() ? r.output.stderrTail : r.output.stdoutText;
  return text.substr(0, text.find('\n'));
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
  std::vector<std::string> changes;
  if (before.governor != after.governor)
    changes.push_back("governor");
  if (before.aslr != after.aslr)
    changes.push_back("aslr");
  if (before.kernel != after.kernel)
    changes.push_back("kernel");
  if (before.cpuCount != after.cpuCount)
    changes.push_back("cpu-count");
  if (before.compilers != after.compilers)
    changes.push_back("compilers");
  if (after.load1 > before.load1 + 1.0)
    changes.push_back("load");
  return changes;
}

} // namespace alea::runner

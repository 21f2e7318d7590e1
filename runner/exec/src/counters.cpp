// perf_event_open(2) counters of a benchmark's process tree (counters.hpp).
// The events are the kernel's generic ones, as perf stat names them: a
// hardware event maps to whatever the CPU's PMU counts for it, and the
// PERF_TYPE_HW_CACHE ones are (cache, operation, result) triples
// (include/uapi/linux/perf_event.h).
#include "alea/exec/counters.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <utility>

namespace alea::runner {

namespace {

// A PERF_TYPE_HW_CACHE config: the read misses of one cache.
constexpr std::uint64_t readMisses(std::uint64_t cache) {
  return cache | (PERF_COUNT_HW_CACHE_OP_READ << 8) | (PERF_COUNT_HW_CACHE_RESULT_MISS << 16);
}

// The event of each counter metric.
constexpr std::pair<Metric, CounterEvent> kEvents[] = {
    {Metric::Instructions, {PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS}},
    {Metric::Cycles, {PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES}},
    {Metric::Branches, {PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS}},
    {Metric::BranchMisses, {PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES}},
    {Metric::CacheReferences, {PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES}},
    {Metric::CacheMisses, {PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES}},
    {Metric::L1iMisses, {PERF_TYPE_HW_CACHE, readMisses(PERF_COUNT_HW_CACHE_L1I)}},
    {Metric::ItlbMisses, {PERF_TYPE_HW_CACHE, readMisses(PERF_COUNT_HW_CACHE_ITLB)}},
    {Metric::TaskClock, {PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK}},
    {Metric::PageFaults, {PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS}},
    {Metric::ContextSwitches, {PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, true}},
};

} // namespace

std::optional<CounterEvent> counterEvent(Metric metric) {
  for (const auto &[m, event] : kEvents)
    if (m == metric)
      return event;
  return std::nullopt;
}

int openCounter(const CounterEvent &event) {
  perf_event_attr attr;
  std::memset(&attr, 0, sizeof attr);
  attr.size = sizeof attr;
  attr.type = event.type;
  attr.config = event.config;
  attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
  attr.disabled = 1;
  attr.inherit = 1;
  attr.enable_on_exec = 1;
  attr.exclude_kernel = event.kernelToo ? 0 : 1;
  attr.exclude_hv = 1;
  long fd = ::syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
  return fd >= 0 ? static_cast<int>(fd) : -errno;
}

CounterReading readCounter(int fd) {
  // read_format: value, time_enabled, time_running.
  std::uint64_t v[3] = {0, 0, 0};
  ssize_t n = ::read(fd, v, sizeof v);
  if (n != static_cast<ssize_t>(sizeof v))
    return {std::nullopt, std::string("cannot read the counter: ") +
                              (n < 0 ? std::strerror(errno) : "short read")};
  if (v[2] == 0)
    return {std::nullopt, "the counter never ran (the PMU was busy with other events)"};
  double value = static_cast<double>(v[0]);
  if (v[2] < v[1]) // multiplexed with other events: perf stat's estimate
    value = value * static_cast<double>(v[1]) / static_cast<double>(v[2]);
  return {value, {}};
}

std::optional<int> perfEventParanoid() {
  int fd = ::open("/proc/sys/kernel/perf_event_paranoid", O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return std::nullopt;
  char buf[32];
  ssize_t n = ::read(fd, buf, sizeof buf - 1);
  ::close(fd);
  if (n <= 0)
    return std::nullopt;
  buf[n] = '\0';
  char *end = nullptr;
  long value = std::strtol(buf, &end, 10);
  if (end == buf)
    return std::nullopt;
  return static_cast<int>(value);
}

CounterFacts probeCounter(Metric metric) {
  CounterFacts facts;
  facts.paranoid = perfEventParanoid();
  std::optional<CounterEvent> event = counterEvent(metric);
  if (!event) {
    facts.error = EINVAL;
    return facts;
  }
  int fd = openCounter(*event);
  if (fd < 0)
    facts.error = -fd;
  else
    ::close(fd);
  return facts;
}

} // namespace alea::runner

// Counters of a benchmark's process tree through perf_event_open(2): the
// event of each counter metric (measure_spec.hpp), opening it the way the
// executor does (on the calling process, disabled until its next execve,
// inherited by every process it then forks, user space only), reading its
// total, and the probe of the machine that validation decides on
// (validate.hpp, counterProblem). Where the counter is opened and why:
// executor.cpp, childExec.
#pragma once

#include "alea/config/measure_spec.hpp"
#include "alea/config/validate.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace alea::runner {

// A perf event: perf_event_attr's type and config, and whether kernel-mode
// occurrences count too.
struct CounterEvent {
  std::uint32_t type = 0;
  std::uint64_t config = 0;
  // Only context-switches: the kernel records a switch with kernel-mode
  // registers, so with exclude_kernel it would always count 0.
  bool kernelToo = false;
};

// The event of a counter metric; none for any other metric.
std::optional<CounterEvent> counterEvent(Metric metric);

// Opens `event` on the calling process (pid 0, any CPU) with inherit = 1,
// enable_on_exec = 1 (disabled until the next execve), exclude_kernel
// (unless kernelToo) and exclude_hv, close-on-exec. The descriptor, or
// -errno. A raw system call only: safe in a vfork child.
int openCounter(const CounterEvent &event);

// The total of an opened counter: the process's own count and those of its
// descendants that have exited (the kernel adds an inherited counter to its
// parent's when the child exits), scaled by enabled / running time if the
// kernel multiplexed it. An error when it never ran or cannot be read.
struct CounterReading {
  std::optional<double> value;
  std::string error; // when there is no value
};
CounterReading readCounter(int fd);

// Opens `metric`'s counter on this process as the executor opens it on a
// benchmark (then closes it), and reads perf_event_paranoid.
CounterFacts probeCounter(Metric metric);

// /proc/sys/kernel/perf_event_paranoid; none when it cannot be read.
std::optional<int> perfEventParanoid();

} // namespace alea::runner

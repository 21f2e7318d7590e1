// The quiet-machine gate (campaign.quiet): before an execution, wait until
// the other processes keep fewer than `load` CPUs busy, at most `wait`
// seconds, then run anyway and say so (ExecutionRecord::ranBusy). The load is
// read from /proc/stat over short windows while alea itself sleeps, so all
// of it is other processes'. The clock and the readings are injectable: the
// tests drive the gate without time passing.
#pragma once

#include "alea/config/config.hpp"
#include "alea/exec/machine.hpp"

#include <atomic>
#include <functional>

namespace alea::runner {

struct QuietOutcome {
  double waited = 0;    // seconds from the first reading to the decision
  double lastLoad = 0;  // the load of the last window
  bool ranBusy = false; // gave up: the machine stayed busy for the whole wait
  bool cancelled = false;
};

struct QuietClock {
  std::function<CpuTimes()> read = readCpuTimes; // busy time and steady time
  std::function<void(double)> sleep;             // seconds; default: nanosleep
};

// Windows of 0.1 s: returns at the first window under the threshold.
QuietOutcome waitForQuiet(const QuietGate &gate, const std::atomic<bool> *cancel,
                          const QuietClock &clock = {});

} // namespace alea::runner

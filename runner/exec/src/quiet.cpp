// The quiet-machine gate (see quiet.hpp).
#include "alea/exec/quiet.hpp"

#include <chrono>
#include <thread>

namespace alea::runner {

QuietOutcome waitForQuiet(const QuietGate &gate, const std::atomic<bool> *cancel,
                          const QuietClock &clock) {
  constexpr double kWindow = 0.1;
  auto sleep = clock.sleep ? clock.sleep : [](double s) {
    std::this_thread::sleep_for(std::chrono::duration<double>(s));
  };
  QuietOutcome out;
  CpuTimes first = clock.read(), before = first;
  for (;;) {
    if (cancel && cancel->load()) {
      out.cancelled = true;
      return out;
    }
    sleep(kWindow);
    CpuTimes after = clock.read();
    double elapsed = after.steady - before.steady;
    out.waited = after.steady - first.steady;
    if (!before.ok || !after.ok || elapsed <= 0)
      return out; // cannot read the load: nothing to wait for
    out.lastLoad = (after.busy - before.busy) / elapsed;
    if (out.lastLoad < gate.load)
      return out;
    if (out.waited >= gate.waitSeconds) {
      out.ranBusy = true;
      return out;
    }
    before = after;
  }
}

} // namespace alea::runner

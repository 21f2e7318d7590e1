// The executor seam (hyperfine's Executor, STYLE.md principle 9): the campaign
// loop hands an ExecutionRequest to an Executor and gets back what the child
// did. LocalExecutor runs a local process (fork + execve): its own process
// group, environment padding in ALEA_ENV_PAD, the heap start offset (the
// preloaded runtime of heap_runtime.hpp), optional CPU pinning
// (sched_setaffinity) and ASLR switch-off (personality(ADDR_NO_RANDOMIZE)), a
// timeout that kills the whole group, wait4 rusage, steady_clock wall time,
// bounded stdout, the tail of stderr, and a records pipe named by ALEA_ITER_FD.
// A counter metric opens a perf_event_open(2) counter on the child before its
// execve; a simulated one runs the command under Valgrind's cachegrind.
// FakeExecutor answers from a function, for unit tests. Remote machines or a
// cluster scheduler are further implementations of the same interface.
#pragma once

#include "alea/config/config.hpp"
#include "alea/exec/measure.hpp"
#include "alea/exec/quiet.hpp"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace alea::runner {

struct ExecutionRequest {
  std::vector<std::string> argv; // argv[0] without '/' is looked up in PATH
  std::vector<std::string> env;  // the complete environment, KEY=VALUE
  std::string workdir;           // "" = the current directory
  std::string stdinPath;         // "" = /dev/null
  double timeoutSeconds = 0;     // 0 = none
  std::vector<int> cpus;         // allowed CPUs; empty = inherit
  bool disableAslr = false;
  std::int64_t envPadBytes = -1; // >= 0: add ALEA_ENV_PAD with that many bytes
  // >= 0: move the heap's start by that many bytes (docs/campaign.md "Heap
  // start offset"): LD_PRELOAD gets the runtime, ALEA_HEAP_OFFSET the offset.
  std::int64_t heapOffset = -1;
  bool recordsPipe = false;  // pass a pipe's write end in ALEA_ITER_FD
  bool captureStdout = true; // false: stdout goes to /dev/null (as hyperfine -N's default)
  std::size_t stdoutLimit = std::size_t{16} << 20; // keep the last N bytes
  std::size_t stderrTail = 4096;
  // Processes the child leaves running after it ended, outside its process
  // group (a daemon: setsid, double fork), are looked for once it has been
  // reaped: this process is their subreaper (PR_SET_CHILD_SUBREAPER) while
  // the child runs, so every orphan of the child's tree becomes its child.
  // They are reported in ExecutionResult::leftovers and, with
  // killLeftovers, killed (SIGKILL, with their process group).
  bool watchLeftovers = false;
  bool killLeftovers = true;
  // Receives every byte of stdout (when captured), stderr and the records pipe
  // as it is read, whatever the limits above keep (an IterationStream); with
  // a sink the records are not kept in the result.
  OutputSink *sink = nullptr;
  // When it becomes true (a SIGINT handler), the child's group is killed and
  // the result is marked cancelled.
  const std::atomic<bool> *cancel = nullptr;
  // The exit status of a successful run (a duet restarts a partner only
  // after one: duet.hpp).
  int expectedExit = 0;
  // Set by LocalExecutor::runTogether for its own runs (never sent to a
  // target): a duet's barrier descriptor, passed as ALEA_DUET_FD (fd 4), and
  // a descriptor that, once readable or hung up, ends the child (a duet's
  // restart when every measured execution has ended).
  int duetFd = -1;
  int stopFd = -1;
  // Counter metrics (counters.hpp): a counter each on the whole process
  // tree, user space, from the benchmark's execve, read once the tree has
  // ended into ExecutionOutput::counterValues.
  std::vector<Metric> counters;
  // A simulated metric (cachegrind.hpp): the command runs under Valgrind's
  // cachegrind with this cache (every process of its tree), the counts of
  // every process summed into ExecutionOutput::simulated.
  std::optional<SimCache> simulate;
  // With `simulate`: the command first runs as asked without the simulator
  // (its wall time, rusage, counters, output and iterations are the
  // result's), then once more under cachegrind, with the same environment,
  // for the simulated counts only (several metrics per execution,
  // docs/measure.md).
  bool nativeToo = false;
};

struct ExecutionResult : RunConditions {
  ExecutionOutput output;
  bool spawnFailed = false; // nothing ran: bad command, missing directory...
  std::string spawnError;
  bool cancelled = false; // interrupted by the user: not a measurement
  // "pid 123 (name)" of each process the child left running (watchLeftovers).
  std::vector<std::string> leftovers;
  bool leftoversKilled = false;
  // RunConditions: when it ran (epoch seconds), the child's CPU migrations
  // (se.nr_migrations of /proc/PID/sched, read before it is reaped), and,
  // measured around the block it ran in on the machine it ran on
  // (Executor::runBlock), the load of other processes and the frequency of
  // its first CPU. For the overlap of a duet, its start and end on the
  // steady clock (seconds).
  double steadyStart = 0, steadyEnd = 0;
  // Context switches of the child and its reaped descendants (wait4 rusage).
  std::int64_t voluntarySwitches = 0, involuntarySwitches = 0;
  // The executor lost the execution (a remote session or job that died): not
  // a measurement and not a failure of the program; `lostReason` says why.
  // The campaign runs it again.
  bool lost = false;
  std::string lostReason;
  // What the heap start offset did (request.heapOffset >= 0): the status
  // words of alea/heap_offset.h ("applied", "static", ...); "" = not asked.
  std::string heapStatus;
  // A duet run by LocalExecutor::runTogether (duet.hpp): its scheme (none:
  // not a duet), the share of its time every partner ran too,
  // the barriers it passed or the times it was restarted to keep its
  // partners company, and why it is not a measurement ("" = it is).
  // ExecutionRequest::nativeToo: the wall seconds of the run under cachegrind.
  std::optional<double> simulationSeconds;
  std::optional<DuetSync> duetSync;
  std::optional<double> overlap;
  std::int64_t duetBarriers = 0, duetRestarts = 0;
  std::string duetAlone;
};

// How a block of executions runs: one after the other, or together (a duet),
// behind the quiet gate when it is enabled.
struct BlockOptions {
  bool together = false;
  QuietGate quiet;
};

struct BlockResult {
  std::vector<ExecutionResult> results; // in request order
  std::optional<QuietOutcome> gate;     // when the gate was asked
  bool cancelled = false;               // the gate or an execution was interrupted
};

class Executor {
public:
  virtual ~Executor() = default;
  virtual ExecutionResult run(const ExecutionRequest &request) = 0;
  // Whether run() may be called from several threads at once (parallel
  // builds); fakes are not asked to be.
  virtual bool concurrentRuns() const { return false; }
  // A duet: the requests run at the same time (each on its own CPUs), the
  // results in request order. This default runs them one after the other
  // (fakes); LocalExecutor starts them together and keeps them together
  // (duet.hpp: a barrier per iteration, or restarts).
  virtual std::vector<ExecutionResult> runTogether(const std::vector<ExecutionRequest> &requests);
  // A block: the quiet gate (when enabled), then the requests, one after the
  // other or together, each result with the conditions measured around the
  // block (otherLoad, cpuMhz) on this machine. A remote executor sends the
  // whole block to its target, where this same function runs.
  virtual BlockResult runBlock(const std::vector<ExecutionRequest> &requests,
                               const BlockOptions &options);
};

class LocalExecutor final : public Executor {
public:
  // Makes the process's scratch directory (scratch.hpp) if it has none: the
  // directories of killed alea processes are removed when another starts.
  LocalExecutor();
  ExecutionResult run(const ExecutionRequest &request) override;
  // run() without leftover watching (builds) shares nothing between calls:
  // pipes are close-on-exec, each child is waited for by its pid.
  bool concurrentRuns() const override { return true; }
  // One thread per request; the processes left running are looked for once
  // all have ended (each run's own search would take a partner's process for
  // a leftover), and reported with every result. With records, the partners
  // meet at a barrier before each iteration; otherwise each is restarted
  // until every one has ended, and an execution a partner left alone is
  // marked (duet.hpp).
  std::vector<ExecutionResult> runTogether(const std::vector<ExecutionRequest> &requests) override;

private:
  ExecutionResult runOnce(const ExecutionRequest &request); // one process (run: one or two)
  std::vector<std::string> collectLeftovers(unsigned long long childStart, bool kill);
  std::vector<int> kept_; // leftovers left running (reaped once they end)
};

// Answers every request with `respond(request)` and remembers the requests.
class FakeExecutor final : public Executor {
public:
  using Respond = std::function<ExecutionResult(const ExecutionRequest &)>;
  explicit FakeExecutor(Respond respond) : respond_(std::move(respond)) {}
  // The response's output also goes to the request's sink, as a
  // LocalExecutor streams it.
  ExecutionResult run(const ExecutionRequest &request) override {
    requests.push_back(request);
    ExecutionResult result = respond_(request);
    if (request.sink) {
      request.sink->write(OutputChannel::Stdout, result.output.stdoutText);
      request.sink->write(OutputChannel::Stderr, result.output.stderrTail);
      request.sink->write(OutputChannel::Records, result.output.records);
    }
    return result;
  }
  std::vector<ExecutionRequest> requests;

private:
  Respond respond_;
};

// The variable that marks every process of a build or an execution alea
// runs here: ALEA_JOB=<run>-<job>, where <run> names the alea run (a random
// token recorded in the campaign's lock file, lock.hpp) and <job> the build
// or execution. The children of a process inherit it, whatever process
// group or session they move to, so that a resumed campaign can find what
// a killed run (kill -9 leaves no chance to clean up) still has running.
inline constexpr const char *kJobVariable = "ALEA_JOB";

// A process found by its job marker and ended.
struct MarkedProcess {
  int pid = 0;
  std::string name; // as /proc/<pid>/stat gives it
  std::string job;  // the <job> of its marker
};

// Ends (SIGKILL) every process this user may signal whose environment
// carries ALEA_JOB=<run>-<job> with spare(job) false, until none is left
// (each found through a pidfd, so that a pid recycled by another process
// is never signalled: the pidfd keeps naming the process whose environment
// was read), and returns them. Reads /proc/<pid>/environ of every process.
std::vector<MarkedProcess> endMarkedProcesses(const std::string &run,
                                              const std::function<bool(std::string_view)> &spare);

// This process's environment as KEY=VALUE entries (the base of the commands
// alea runs for itself: compilers' --version, ssh, Slurm's clients, ldd).
std::vector<std::string> processEnvironment();

// The value of NAME in a KEY=VALUE list, or "" (tests, path lookup).
std::string envValue(const std::vector<std::string> &env, const std::string &name);

// Sets KEY to `value` in a KEY=VALUE list: replaces the first entry of KEY,
// else appends one (the builds' and executions' environments).
void setEnv(std::vector<std::string> &env, const std::string &key, const std::string &value);

// Resolves argv[0] like execvp with the PATH of `env` (or of this process when
// env has none); "" when not found.
std::string resolveProgram(const std::string &program, const std::vector<std::string> &env);

} // namespace alea::runner

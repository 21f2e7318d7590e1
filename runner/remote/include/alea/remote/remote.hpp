// Executions on other machines (issue 9, docs/targets.md). Measurement always
// happens on the target: a helper there (the `alea` binary itself, in the
// hidden subcommand `alea __target`) runs every block with the same
// Executor::runBlock as a local campaign (LocalExecutor: environment padding,
// ASLR switch, pinning, timeouts killing the process group, wait4 rusage,
// iteration records, the quiet gate, the other load) and streams back the
// output and the result. The host stays the one writer of the store.
//
// The helper speaks FRAMES on a byte stream: `TAG LENGTH\n` then LENGTH bytes
// of payload, a MessagePack map (nlohmann-json) or raw bytes. The host asks
// (hello, have, put, stage, fresh, fetch, libs, machine, block); the helper answers each
// request with one reply frame, preceded for a block by the output chunks of
// its executions (`o`, `e`, `r` with the request's index) as they are read.
// The stream is the stdin/stdout of the process that starts the helper:
// `ssh` for an SSH target, `srun` for a Slurm target (targets.hpp).
//
// Every remote command line is built by alea::shellJoin() (common's
// shell.hpp), the project's one quoting rule: no store value or user string
// reaches a shell any other way.
#pragma once

#include "alea/config/error.hpp"
#include "alea/exec/executor.hpp"
#include "alea/exec/machine.hpp"
#include "alea/shell.hpp"

#include <nlohmann/json.hpp>

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace alea::runner {

// ---- the frame stream -------------------------------------------------------

struct Frame {
  std::string tag;
  std::string payload;
};

std::string encodeFrame(std::string_view tag, std::string_view payload);
std::string encodeFrame(std::string_view tag, const nlohmann::json &payload); // MessagePack
// The MessagePack payload of a frame, or an error.
Expected<nlohmann::json> framePayload(const Frame &frame);

// Decodes frames from bytes as they arrive (a partial frame waits for more).
class FrameReader {
public:
  void feed(std::string_view bytes) { buffer_.append(bytes); }
  // The next complete frame; nullopt when more bytes are needed. A malformed
  // header is an error (the stream cannot be trusted after it).
  Expected<std::optional<Frame>> next();
  bool empty() const { return buffer_.empty(); }

private:
  std::string buffer_;
};

// ---- what crosses the wire --------------------------------------------------

nlohmann::json requestToJson(const ExecutionRequest &request);
ExecutionRequest requestFromJson(const nlohmann::json &j);
nlohmann::json resultToJson(const ExecutionResult &result);
ExecutionResult resultFromJson(const nlohmann::json &j);
nlohmann::json machineToJson(const MachineState &m);
MachineState machineFromJson(const nlohmann::json &j);
nlohmann::json blockOptionsToJson(const BlockOptions &options);
BlockOptions blockOptionsFromJson(const nlohmann::json &j);

// ---- the helper (target side) ----------------------------------------------

// `alea __target --workdir W`: serves frames from `in` to `out` until `in`
// ends (the host went away: a running execution's process group is killed)
// or a `bye` frame. W (created 0700) holds objects/<sha256> and the staged
// build directories. Returns the exit status.
int serveTarget(int in, int out, const std::string &workdir);

// ---- the host side of one helper session -------------------------------------

// A file to have on the target: content-addressed, placed at `path` (relative
// to a staged directory) with `mode`.
struct StagedFile {
  std::string path;      // relative
  std::string localPath; // where the host reads it
  std::string hash;      // sha256 of its content
  unsigned mode = 0644;
};

// A file fetched from the target: its bytes (verified against the hash the
// target computed) and permission bits.
struct FetchedFile {
  std::string data;
  std::string hash;
  unsigned mode = 0644;
};

// One helper process behind a pair of pipes: `command` is the argv that
// starts it (`ssh ... alea __target`, or alea itself in tests). Not
// thread-safe: one thread drives a session (the campaign's worker of its
// target). When the process dies or the stream breaks, every call fails with
// the reason, run() returns a result marked lost, and start() may be called
// again to reconnect.
class TargetSession final : public Executor {
public:
  TargetSession(std::vector<std::string> command, std::string logPath);
  ~TargetSession() override;
  TargetSession(const TargetSession &) = delete;
  TargetSession &operator=(const TargetSession &) = delete;

  // Starts the helper and waits for its hello (its workdir, environment,
  // CPUs, Slurm job); gives up when `cancel` becomes true first.
  Status start(const std::atomic<bool> *cancel = nullptr);
  bool alive() const { return pid_ > 0; }
  void stop(); // says bye, closes the pipes, reaps (kills it if it lingers)
  // The helper's absolute workdir on the target.
  const std::string &workdir() const { return workdir_; }

  ExecutionResult run(const ExecutionRequest &request) override;
  BlockResult runBlock(const std::vector<ExecutionRequest> &requests,
                       const BlockOptions &options) override;
  // The target's machine state, read there.
  Expected<MachineState> machine();
  // Ships the files the target does not have yet (hash-verified there on
  // arrival), then links them into `dir` (relative to the workdir) at their
  // paths; returns the absolute directory on the target.
  Expected<std::string> stage(const std::string &dir, const std::vector<StagedFile> &files);
  // Makes `dir` (inside the workdir) an empty directory, removing what it
  // held (a lost build's leftovers); returns it, absolute on the target.
  Expected<std::string> freshDir(const std::string &dir);
  // A file inside the workdir (a build's artifact), which the target also
  // keeps as an object.
  Expected<FetchedFile> fetch(const std::string &path);
  // The shared libraries each of `paths` (absolute on the target) lacks
  // there: path -> missing library names (ldd's "not found").
  Expected<std::map<std::string, std::vector<std::string>>>
  missingLibraries(const std::vector<std::string> &paths);
  // The helper's process id on this host (the fault tests kill it).
  int pid() const { return pid_; }
  // The target's machine state as it came with the last block (re-read
  // there: governor, ASLR, load).
  std::optional<MachineState> lastMachine;
  // From the helper's hello: its environment (the base of executions there)
  // and the Slurm job it runs in ("" outside Slurm).
  std::vector<std::string> environment;
  std::string jobId;
  std::vector<int> cpus; // the CPUs the helper may run on (its affinity)

private:
  Status send(std::string_view tag, const nlohmann::json &payload);
  // Reads until a frame that is not an output chunk; chunks go to `sinks`.
  Expected<Frame> reply(const std::vector<OutputSink *> &sinks = {},
                        const std::atomic<bool> *cancel = nullptr);
  Expected<nlohmann::json> call(std::string_view tag, const nlohmann::json &payload,
                                std::string_view expect, const std::atomic<bool> *cancel = nullptr);
  void broken(const std::string &why); // kills the process, remembers why

  std::vector<std::string> command_;
  std::string logPath_;
  int pid_ = -1, toChild_ = -1, fromChild_ = -1;
  std::string workdir_, lostReason_;
  FrameReader reader_;
};

} // namespace alea::runner

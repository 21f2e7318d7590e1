// The machines of a campaign with [[target]] tables (docs/targets.md): each
// target is one helper session (remote.hpp), started over SSH or as a Slurm
// job step, driven by one worker thread of the campaign loop. A target knows
// how to (re)connect, where the campaign's files are on it (shipping builds
// and inputs content-addressed over SSH; on a Slurm cluster the campaign
// directory is shared, so paths stay the host's) and runs blocks.
#pragma once

#include "alea/config/config.hpp"
#include "alea/remote/remote.hpp"
#include "alea/store/store.hpp"

#include <atomic>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace alea::runner {

// What a target needs from the campaign to connect and stage.
struct TargetContext {
  std::string campaignDir;         // absolute, on the host
  std::string campaignKey;         // short digest naming the campaign on targets
  std::string sourceDir;           // the campaign file's directory, on the host
  std::string aleaPath;            // this alea binary (shipped to SSH targets)
  std::vector<std::string> inputs; // files under sourceDir the benchmarks read
  // build_on = "targets": the whole source directory is staged (not only the
  // inputs), and builds find alea's wrappers in hostToolDir unless the target
  // names its own tool_dir.
  bool buildOnTargets = false;
  std::string hostToolDir;
};

class Target {
public:
  Target(TargetConfig config, TargetContext context);
  virtual ~Target() = default;
  const TargetConfig &config() const { return config_; }
  const std::string &name() const { return config_.name; }

  // Starts the helper (shipping it first when absent or different) and reads
  // the machine state there. Called again after the session was lost.
  // Gives up when `cancel` becomes true (Ctrl-C while srun waits in the queue).
  virtual Status connect(const std::atomic<bool> *cancel) = 0;
  bool connected() const { return session_ && session_->alive(); }
  void disconnect();
  Executor &executor() { return *session_; }
  TargetSession &session() { return *session_; }
  const MachineState &machine() const { return machine_; }
  // The Slurm job the session runs in ("" over SSH).
  const std::string &jobId() const { return jobId_; }

  // Where a build's directory is on the target, staging it first (its
  // artifacts, or every regular file of the directory when the system names
  // none); where the campaign's source directory (its inputs, or with
  // build_on = "targets" every file but .git and campaign directories) and
  // the campaign directory are on the target. Staged once per connection and
  // build.
  virtual Expected<std::string> buildDir(const BuildRecord &build) = 0;
  virtual Expected<std::string> sourceDir() = 0;
  virtual std::string campaignDir() const = 0;
  // The host environment of executions on this target (the helper's own).
  const std::vector<std::string> &environment() const { return environment_; }
  // Builds (build_on = "targets"): whether the target shares this host's
  // files (Slurm: a build runs at the host's paths, the host reads its
  // artifacts itself) or needs them shipped and fetched (SSH); where alea's
  // wrappers are there.
  virtual bool sharesFiles() const = 0;
  std::string toolDir() const {
    return config_.toolDir.empty() ? context_.hostToolDir : config_.toolDir;
  }
  // Shared libraries the staged executables lack on the target (path ->
  // names), asked once per build and connection.
  std::map<std::string, std::vector<std::string>> missingLibraries;

protected:
  Status startSession(std::vector<std::string> command, const std::atomic<bool> *cancel);

  TargetConfig config_;
  TargetContext context_;
  std::unique_ptr<TargetSession> session_;
  MachineState machine_;
  std::string jobId_;
  std::vector<std::string> environment_;
  std::map<std::int64_t, std::string> staged_; // build id -> directory on the target
};

// The target of a [[target]] table: SSH or Slurm.
std::unique_ptr<Target> makeTarget(const TargetConfig &config, const TargetContext &context);

// The argv of `ssh` for a target and a remote command (one word for the
// remote shell, built with shellJoin): the user's ssh_options first (so
// they win), then BatchMode (never a password prompt) and keep-alives.
std::vector<std::string> sshArgv(const TargetConfig &config, const std::string &remoteCommand);

// The argv of `srun` that starts the helper in a job step of its own.
std::vector<std::string> srunArgv(const TargetConfig &config, const std::string &jobName,
                                  const std::vector<std::string> &helper);

// A Slurm job's state as squeue, then scontrol, see it ("RUNNING",
// "CANCELLED", ...; "" when Slurm no longer knows the job).
std::string slurmJobState(const std::string &jobId);
// scancel; true when Slurm accepted it.
bool cancelSlurmJob(const std::string &jobId);

} // namespace alea::runner

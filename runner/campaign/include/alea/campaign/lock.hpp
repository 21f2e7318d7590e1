// One writer per campaign directory. `alea run` holds an advisory lock
// (flock(2), exclusive) on `<dir>/lock` for the whole run: a second `alea run`
// on the same directory fails at once, naming the holder (pid, host, start
// time, written into the file by the holder), instead of building into the
// first run's directories and racing it for the store. The kernel releases
// the lock when the holder's descriptor goes away, so a run killed by any
// signal (kill -9 included) never leaves a stale lock behind. Readers (`alea
// report`, `alea export`) do not take it: SQLite's WAL lets them read beside
// the writer. The descriptor is close-on-exec, so builds and benchmarks never
// inherit (and prolong) the lock.
//
// The file also names the run (a random token, "run <token>") whose builds
// and executions carry it in their environment (executor.hpp, ALEA_JOB). A
// run killed with -9 leaves its line; the next holder finds what that run
// still has running, ends it, and only then writes its own line in place of
// the earlier ones (a run killed before that passes them on).
#pragma once

#include "alea/config/error.hpp"

#include <string>
#include <vector>

namespace alea::runner {

class CampaignLock {
public:
  // Takes the lock of `dir` (which must exist) without waiting. Error kind
  // Busy: another process holds it (the message names it).
  static Expected<CampaignLock> acquire(const std::string &dir);

  CampaignLock(CampaignLock &&other) noexcept;
  CampaignLock &operator=(CampaignLock &&other) noexcept;
  CampaignLock(const CampaignLock &) = delete;
  ~CampaignLock();

  // False when the lock file was removed or replaced since it was taken (a
  // second run could then lock a new file): whoever sees false stops writing.
  bool held() const;
  const std::string &path() const { return path_; }

  // The runs the file named when it was taken: earlier holders whose
  // processes may still be running.
  const std::vector<std::string> &earlierRuns() const { return earlierRuns_; }
  // Names `run` as the holder's run in place of the earlier ones (once their
  // processes are gone).
  Status recordRun(const std::string &run);

private:
  CampaignLock(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
  Status write(const std::vector<std::string> &runs);
  int fd_ = -1;
  std::string path_;
  std::string holder_; // "pid 123 on host, since ...", the file's first line
  std::vector<std::string> earlierRuns_;
};

// The lock file of a campaign directory.
std::string lockPath(const std::string &dir);

} // namespace alea::runner

// Builds one system once: runs its build command in a fresh build directory
// `<campaign>/builds/<system>/<index>/` with CC/CXX/LD pointing at alea's
// wrappers and ALEA_SEED/ALEA_FACTORS set, then snapshots the artifacts into
// `<campaign>/objects/<sha256>` (content-addressed, written once) and reads the
// layout fingerprint of the first artifact (alea_linker's readLayout).
#pragma once

#include "alea/runner/config.hpp"
#include "alea/runner/executor.hpp"
#include "alea/runner/store.hpp"

#include <atomic>
#include <string>
#include <vector>

namespace alea::runner {

struct BuildRequest {
  const SystemConfig *system = nullptr;
  int buildIndex = 0;
  std::uint64_t seed = 0;
  std::vector<std::string> factors;
  std::string campaignDir;
  std::string sourceDir;
  std::string toolDir; // where alea-cc, alea-c++ and alea-ld are
  double timeoutSeconds = 3600;
  std::vector<std::string> baseEnv; // usually this process's environment
  // Set by Ctrl-C/SIGTERM: the build is killed and its record has status
  // "cancelled" (not stored: the directory is moved aside on resume).
  const std::atomic<bool> *cancel = nullptr;
};

// The directory of build `index` of `system`.
std::string buildDirectory(const std::string &campaignDir, const std::string &system, int index);

// The environment the build command gets (base, then CC/CXX/LD, ALEA_SEED,
// ALEA_FACTORS, ALEA_BUILD_DIR, ALEA_SOURCE_DIR, then the system's env).
std::vector<std::string> buildEnvironment(const BuildRequest &request);

// Runs the build; the record's status is "ok" or "failed" (logTail says why).
// An existing directory (a build interrupted before it was recorded) is moved
// aside to `<index>.interrupted-<n>`, never reused or deleted.
BuildRecord runBuild(Executor &executor, const BuildRequest &request);

// Copies `file` to `<campaignDir>/objects/<sha256>` unless present (atomic
// rename), keeping its permission bits; returns the record or an error.
Expected<ArtifactRecord> snapshotArtifact(const std::string &campaignDir,
                                          const std::string &buildDir,
                                          const std::string &relativePath);

// Path of an artifact's snapshot.
std::string objectPath(const std::string &campaignDir, const std::string &hash);

} // namespace alea::runner

// Builds one system once: runs its build command in a fresh build directory
// `<campaign>/builds/<system>/<index>/` with CC/CXX/LD pointing at alea's
// wrappers and ALEA_SEED/ALEA_FACTORS set, then snapshots the artifacts into
// `<campaign>/objects/<sha256>` (content-addressed, written once) and reads the
// layout fingerprint of the first artifact (alea_linker's readLayout).
#pragma once

#include "alea/config/config.hpp"
#include "alea/exec/executor.hpp"
#include "alea/remote/remote.hpp"
#include "alea/store/campaign_dir.hpp"
#include "alea/store/layout_facts.hpp"
#include "alea/store/store.hpp"

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace alea::runner {

// A build on a target that does not share this host's files (an SSH target,
// docs/targets.md, "Builds on targets"): the build's paths and environment
// there, and how its directory is made and its files come back. The
// artifacts and the wrapper log (the build cache's, or a relative ALEA_LOG)
// are fetched into the host's build directory, then snapshotted as after a
// host build. The build cache is the target's own, in its campaign directory.
struct RemoteBuild {
  std::string campaignDir, sourceDir, toolDir; // on the target
  std::vector<std::string> baseEnv;            // the target's environment
  // Makes a directory there an empty one.
  std::function<Expected<std::string>(const std::string &dir)> freshDir;
  // A file there, verified against the hash the target computed.
  std::function<Expected<FetchedFile>(const std::string &path)> fetch;
  // False once the session is lost: a step that failed then is no fault of
  // the build's.
  std::function<bool()> alive;
};

struct BuildRequest {
  const SystemConfig *system = nullptr;
  int buildIndex = 0;
  std::uint64_t seed = 0;
  std::vector<std::string> factors;
  std::string campaignDir;
  std::string sourceDir;
  std::string toolDir; // where alea-cc, alea-c++ and alea-ld are
  // The wrappers' build cache (ALEA_BUILD_CACHE; "" none); its wrapper log
  // goes to <build dir>/alea-wrapper.log and the record's log tail says how
  // many compiles it reused.
  std::string buildCache;
  double timeoutSeconds = 3600;
  std::vector<std::string> baseEnv; // usually this process's environment
  // Set by Ctrl-C/SIGTERM: the build is killed and its record has status
  // "cancelled" (not stored: the directory is moved aside on resume).
  const std::atomic<bool> *cancel = nullptr;
  // The value of ALEA_JOB for the build's processes (executor.hpp); "" = none.
  std::string jobMarker;
  // Set when the build runs on an SSH target; the executor is its session.
  const RemoteBuild *remote = nullptr;
};

// How a build's log tail ends when it used the build cache:
// "build cache: 34 of 34 compiles reused".
inline constexpr std::string_view kBuildCacheSummary = "build cache: ";

// The directory of build `index` of `system`.
std::string buildDirectory(const std::string &campaignDir, const std::string &system, int index);

// The environment the build command gets (base, then CC/CXX/LD, ALEA_SEED,
// ALEA_FACTORS, ALEA_BUILD_DIR, ALEA_SOURCE_DIR, ALEA_JOB, the build cache's
// ALEA_BUILD_CACHE and ALEA_LOG, then the system's env).
std::vector<std::string> buildEnvironment(const BuildRequest &request);

// Runs the build. The record's status (alea/records.hpp) is Ok; Failed when
// the build itself failed (its command's status, signal or timeout, a missing
// artifact), which the campaign records and never retries; Fault when
// something outside the build failed (the build or objects directory cannot
// be written: disk full, permissions), which is not recorded, so a resumed
// campaign retries the build; Lost when the target it ran on was lost (the
// campaign builds it again); Cancelled when interrupted (not recorded
// either). logTail says why.
// An existing directory (a build interrupted before it was recorded) is moved
// aside to `<index>.interrupted-<n>`, never reused or deleted.
BuildRecord runBuild(Executor &executor, const BuildRequest &request);

// Build `request.buildIndex` made from `pilot`, the pilot campaign's build of
// the same system and index (an "auto" campaign's pilot builds with the
// campaign's own seeds, seeds.hpp: its builds are the main campaign's first
// ones). Reusable when the pilot's build succeeded with the same seed, factors
// and artifacts; its directory is then hard-linked (copied where links fail)
// to this campaign's build directory and its artifacts snapshotted again,
// byte-identical (checked). The record keeps the pilot's build seconds and
// fingerprint; its log starts with kReusedBuildMarker and the pilot's build
// directory. An error says why the build cannot be reused (then it is built).
Expected<BuildRecord> reuseBuild(const BuildRecord &pilot, const BuildRequest &request);
inline constexpr const char *kReusedBuildMarker = "reused the pilot's build ";

// Copies `file` to `<campaignDir>/objects/<sha256>` unless present (through a
// temporary `<sha256>.tmp.<pid>` and an atomic rename), keeping its permission
// bits; returns the record or an error naming the file that could not be
// written (the temporary file is removed).
Expected<ArtifactRecord> snapshotArtifact(const std::string &campaignDir,
                                          const std::string &buildDir,
                                          const std::string &relativePath);

// The part of a temporary snapshot's name before the pid.
inline constexpr const char *kSnapshotTmpMarker = ".tmp.";

// Removes temporary snapshot files a killed run left in `<campaignDir>/objects`
// (only the holder of the campaign's lock may call it); returns how many.
int removeSnapshotLeftovers(const std::string &campaignDir);

} // namespace alea::runner

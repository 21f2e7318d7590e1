// Build execution and artifact snapshots (see builder.hpp).
#include "alea/campaign/builder.hpp"

#include "alea/contract.hpp"

#include "alea/campaign/seeds.hpp"
#include "alea/exec/hash.hpp"
#include "alea/exec/machine.hpp"

#if __has_include("alea/linker/layout.hpp")
#include "alea/linker/layout.hpp"
#define ALEA_HAVE_LINKER 1
#endif

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace fs = std::filesystem;

namespace alea::runner {

std::string buildDirectory(const std::string &campaignDir, const std::string &system, int index) {
  return (fs::path(campaignDir) / "builds" / system / std::to_string(index)).string();
}

namespace {

// Copies `from` to a new file `to` with permission bits `perms`; 0 or the
// errno of the step that failed. (std::filesystem::copy_file reports a short
// copy, which is how a full disk shows up, as EIO: the real cause is lost.)
int copyFile(const std::string &from, const std::string &to, fs::perms perms) {
  int in = ::open(from.c_str(), O_RDONLY | O_CLOEXEC);
  if (in < 0)
    return errno;
  int out = ::open(to.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
                   static_cast<mode_t>(perms & fs::perms::mask));
  if (out < 0) {
    int err = errno;
    ::close(in);
    return err;
  }
  int err = 0;
  char buf[1 << 16];
  for (;;) {
    ssize_t n = ::read(in, buf, sizeof buf);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      err = n < 0 ? errno : 0;
      break;
    }
    for (ssize_t done = 0; done < n && !err;) {
      ssize_t w = ::write(out, buf + done, static_cast<std::size_t>(n - done));
      if (w < 0 && errno != EINTR)
        err = errno;
      else if (w > 0)
        done += w;
    }
    if (err)
      break;
  }
  ::close(in);
  // close() reports a delayed write error (NFS, some FUSE file systems).
  if (::close(out) != 0 && !err)
    err = errno;
  if (!err && ::chmod(to.c_str(), static_cast<mode_t>(perms & fs::perms::mask)) != 0)
    err = errno;
  return err;
}

// Writes `data` to a new file `to` with permission bits `mode`; 0 or the
// errno of the step that failed.
int writeFile(const std::string &to, const std::string &data, unsigned mode) {
  int out = ::open(to.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode & 0777);
  if (out < 0)
    return errno;
  int err = 0;
  for (std::size_t done = 0; done < data.size() && !err;) {
    ssize_t w = ::write(out, data.data() + done, data.size() - done);
    if (w < 0 && errno != EINTR)
      err = errno;
    else if (w > 0)
      done += static_cast<std::size_t>(w);
  }
  if (::close(out) != 0 && !err)
    err = errno;
  if (!err && ::chmod(to.c_str(), mode & 0777) != 0)
    err = errno;
  return err;
}

std::string tail(const std::string &s, std::size_t n) {
  return s.size() <= n ? s : s.substr(s.size() - n);
}

// "CC=<path> (<first line of --version>); CXX=..." for the compilers a build
// was given; versions are asked once per path and process.
std::string compilerVersions(const std::vector<std::string> &env) {
  static std::map<std::string, std::string> cache; // builds run in parallel: under the mutex
  static std::mutex mutex;
  std::lock_guard guard(mutex);
  std::string out;
  for (const char *var : {"CC", "CXX"}) {
    std::string tool = envValue(env, var);
    if (tool.empty())
      continue;
    auto it = cache.find(tool);
    if (it == cache.end())
      it = cache.emplace(tool, toolVersion(compilerBehind(tool, env))).first;
    out += (out.empty() ? "" : "; ") + std::string(var) + "=" + tool;
    if (!it->second.empty())
      out += " (" + it->second + ")";
  }
  return out;
}

// A directory left by a build interrupted before it was recorded is moved
// aside to `<dir>.interrupted-<n>`, never reused or deleted.
void moveAside(const std::string &dir) {
  std::error_code ec;
  if (!fs::exists(dir, ec))
    return;
  for (int n = 1;; ++n) {
    fs::path aside = dir + ".interrupted-" + std::to_string(n);
    if (!fs::exists(aside, ec)) {
      fs::rename(dir, aside, ec);
      return;
    }
  }
}

// The wrapper log of a build with the build cache, in its build directory.
constexpr const char *kWrapperLogName = "alea-wrapper.log";

std::string wrapperLogPath(const BuildRequest &req) {
  return (fs::absolute(buildDirectory(req.campaignDir, req.system->name, req.buildIndex)) /
          kWrapperLogName)
      .string();
}

// "build cache: 34 of 34 compiles reused" from the wrapper log of a build
// with the cache ("" when it compiled nothing through it).
std::string buildCacheSummary(const std::string &wrapperLog) {
  std::ifstream in(wrapperLog);
  int hits = 0, misses = 0;
  for (std::string line; std::getline(in, line);) {
    hits += line.find(" build-cache=hit key=") != std::string::npos;
    misses += line.find(" build-cache=miss ") != std::string::npos;
  }
  if (hits + misses == 0)
    return "";
  return std::string(kBuildCacheSummary) + std::to_string(hits) + " of " +
         std::to_string(hits + misses) + " compiles reused";
}

// Brings a target's build back into the host's build directory `dir`: each
// artifact, and the wrapper log: the build cache's, or the file the system's
// ALEA_LOG names in the build directory (a relative path). A file the build
// did not make is left out (the artifact check says so); an error is the
// session's loss or a file that cannot be written here.
Status fetchBuild(const RemoteBuild &remote, const std::string &thereDir, const std::string &dir,
                  const BuildRequest &req) {
  const SystemConfig &system = *req.system;
  std::vector<std::string> files = system.artifacts;
  if (auto log = system.env.find("ALEA_LOG");
      log != system.env.end() && !log->second.empty() && log->second[0] != '/')
    files.push_back(log->second);
  else if (!req.buildCache.empty())
    files.push_back(kWrapperLogName);
  for (const auto &f : files) {
    auto got = remote.fetch(thereDir + "/" + f);
    if (!got) {
      if (!remote.alive())
        return Error{"fetching '" + f + "' from the target: " + got.error()};
      continue;
    }
    fs::path to = fs::path(dir) / f;
    std::error_code ec;
    fs::create_directories(to.parent_path(), ec);
    int err = ec ? ec.value() : writeFile(to.string(), got->data, got->mode);
    if (err)
      return Error{"cannot write '" + to.string() + "': " + errnoText(err)};
  }
  return {};
}

} // namespace

std::vector<std::string> buildEnvironment(const BuildRequest &req) {
  std::vector<std::string> env = req.baseEnv;
  // ALEA_* from the caller's environment would confuse the wrappers: drop them.
  std::erase_if(env, [](const std::string &e) { return e.rfind("ALEA_", 0) == 0; });
  fs::path tools(req.toolDir);
  setEnv(env, "CC", (tools / kCcWrapperName).string());
  setEnv(env, "CXX", (tools / kCxxWrapperName).string());
  setEnv(env, "FC", (tools / kFcWrapperName).string());
  setEnv(env, "LD", (tools / kLdWrapperName).string());
  setEnv(env, kSeedVariable, formatSeed(req.seed));
  setEnv(env, kFactorsVariable, joinFactors(req.factors));
  setEnv(env, "ALEA_BUILD_DIR", buildDirectory(req.campaignDir, req.system->name, req.buildIndex));
  setEnv(env, "ALEA_SOURCE_DIR", req.sourceDir);
  if (!req.jobMarker.empty())
    setEnv(env, kJobVariable, req.jobMarker);
  if (!req.buildCache.empty()) {
    setEnv(env, kBuildCacheVariable, req.buildCache);
    setEnv(env, "ALEA_LOG", wrapperLogPath(req));
  }
  for (const auto &[k, v] : req.system->env)
    setEnv(env, k, v);
  return env;
}

Expected<ArtifactRecord> snapshotArtifact(const std::string &campaignDir,
                                          const std::string &buildDir,
                                          const std::string &relativePath) {
  fs::path src = fs::path(buildDir) / relativePath;
  std::error_code ec;
  if (!fs::is_regular_file(src, ec))
    return Error{"artifact '" + relativePath + "' was not produced"};
  auto hash = sha256File(src.string());
  if (!hash)
    return Error{"cannot read artifact '" + src.string() + "'"};
  ArtifactRecord rec{relativePath, *hash, static_cast<std::int64_t>(fs::file_size(src, ec))};
  fs::path objects = fs::path(campaignDir) / "objects";
  fs::create_directories(objects, ec);
  if (ec)
    return Error{"cannot create '" + objects.string() + "': " + ec.message()};
  fs::path dst = objects / *hash;
  if (fs::exists(dst, ec))
    return rec;
  // Copied under a temporary name, then renamed: a reader never sees half an
  // object. A failed copy (disk full) removes its temporary file at once; one
  // left by a killed run is removed when the campaign resumes
  // (removeSnapshotLeftovers).
  // Named by process and thread: two parallel builds may make the same object.
  fs::path tmp =
      objects / (*hash + kSnapshotTmpMarker + std::to_string(::getpid()) + "-" +
                 std::to_string(std::hash<std::thread::id>{}(std::this_thread::get_id())));
  auto failed = [&](const fs::path &file, int err) {
    std::error_code ignored;
    fs::remove(tmp, ignored);
    return Error{"cannot snapshot artifact '" + relativePath + "' into '" + file.string() +
                 "': " + errnoText(err)};
  };
  if (int err = copyFile(src.string(), tmp.string(), fs::status(src, ec).permissions()); err)
    return failed(tmp, err);
  fs::rename(tmp, dst, ec);
  if (ec)
    return failed(dst, ec.value());
  return rec;
}

int removeSnapshotLeftovers(const std::string &campaignDir) {
  std::error_code ec;
  int removed = 0;
  for (fs::directory_iterator it(fs::path(campaignDir) / "objects", ec), end; !ec && it != end;
       it.increment(ec))
    if (it->path().filename().string().find(kSnapshotTmpMarker) != std::string::npos) {
      std::error_code ignored;
      removed += fs::remove(it->path(), ignored) ? 1 : 0;
    }
  return removed;
}

BuildRecord runBuild(Executor &executor, const BuildRequest &req) {
  BuildRecord rec;
  rec.system = req.system->name;
  rec.buildIndex = req.buildIndex;
  rec.seed = req.seed;
  rec.factors = joinFactors(req.factors);
  std::string dir = buildDirectory(req.campaignDir, req.system->name, req.buildIndex);
  rec.dir = dir;
  std::error_code ec;
  moveAside(dir);
  fs::create_directories(dir, ec);
  if (ec) {
    rec.status = BuildStatus::Fault;
    rec.logTail = "cannot create build directory '" + dir + "': " + ec.message();
    return rec;
  }
  // Where the build runs: here, or on an SSH target with its own paths (the
  // host's directory then receives the artifacts).
  BuildRequest there = req;
  std::string thereDir = dir;
  if (const RemoteBuild *remote = req.remote) {
    there.campaignDir = remote->campaignDir;
    there.sourceDir = remote->sourceDir;
    there.toolDir = remote->toolDir;
    there.baseEnv = remote->baseEnv;
    if (!req.buildCache.empty()) // the target's own, beside its builds
      there.buildCache = remote->campaignDir + "/build-cache";
    auto made =
        remote->freshDir(buildDirectory(there.campaignDir, req.system->name, req.buildIndex));
    if (!made) {
      rec.status = remote->alive() ? BuildStatus::Fault : BuildStatus::Lost;
      rec.logTail = "cannot make the build directory on the target: " + made.error();
      return rec;
    }
    thereDir = *made;
  }
  const PlaceholderList values =
      placeholderValues(BuildPlaceholders{there.sourceDir, thereDir, there.campaignDir,
                                          req.system->name, formatSeed(req.seed), req.buildIndex});
  const std::map<std::string, std::string> vars(values.begin(), values.end());
  ExecutionRequest ex;
  ex.env = buildEnvironment(there);
  ex.workdir = thereDir;
  ex.timeoutSeconds = req.timeoutSeconds;
  ex.cancel = req.cancel;
  ex.stdoutLimit = 8192;
  ex.stderrTail = 8192;
  const CommandSpec &cmd = req.system->build;
  std::string error;
  if (cmd.isShell()) {
    auto s = substitute(cmd.shell, vars, SubstituteFor::ShellText);
    if (!s)
      error = s.error();
    else
      ex.argv = {"/bin/sh", "-c", *s};
  } else {
    for (const auto &a : cmd.argv) {
      auto s = substitute(a, vars);
      if (!s) {
        error = s.error();
        break;
      }
      ex.argv.push_back(*s);
    }
  }
  if (!error.empty()) {
    rec.status = BuildStatus::Failed;
    rec.logTail = error;
    return rec;
  }
  ExecutionResult r = executor.run(ex);
  if (r.cancelled) {
    rec.status = BuildStatus::Cancelled;
    return rec;
  }
  if (r.lost) {
    rec.status = BuildStatus::Lost;
    rec.logTail = r.lostReason;
    return rec;
  }
  rec.seconds = r.output.wallSeconds;
  rec.compilers = compilerVersions(ex.env);
  std::string log = tail(r.output.stdoutText, 4096) + tail(r.output.stderrTail, 4096);
  if (r.spawnFailed || r.output.timedOut || r.output.signal || r.output.exitCode != 0) {
    rec.status = BuildStatus::Failed;
    std::string why = r.spawnFailed       ? r.spawnError
                      : r.output.timedOut ? "build timed out"
                      : r.output.signal
                          ? "build killed by signal " + std::to_string(r.output.signal)
                          : "build exited with status " + std::to_string(r.output.exitCode);
    rec.logTail = tail(log, 4096) + (log.empty() ? "" : "\n") + why;
    return rec;
  }
  if (req.remote)
    if (Status s = fetchBuild(*req.remote, thereDir, dir, req); !s) {
      rec.status = req.remote->alive() ? BuildStatus::Fault : BuildStatus::Lost;
      rec.logTail = s.error();
      return rec;
    }
  // A missing artifact is the build's own failure; failing to copy one that
  // exists (disk full, permissions) is a fault of the campaign directory.
  for (const auto &a : req.system->artifacts)
    if (!fs::is_regular_file(fs::path(dir) / a, ec)) {
      rec.status = BuildStatus::Failed;
      rec.logTail =
          tail(log, 4096) + (log.empty() ? "" : "\n") + "artifact '" + a + "' was not produced";
      return rec;
    }
  for (const auto &a : req.system->artifacts) {
    auto snap = snapshotArtifact(req.campaignDir, dir, a);
    if (!snap) {
      rec.status = BuildStatus::Fault;
      rec.logTail = snap.error();
      return rec;
    }
    rec.artifacts.push_back(*snap);
  }
  if (!rec.artifacts.empty()) {
    rec.binaryHash = rec.artifacts.front().objectHash;
#ifdef ALEA_HAVE_LINKER
    // A file without functions or code has no fingerprint ("" = unknown),
    // not the hash of nothing that all such files would share.
    if (auto layout =
            alea::linker::readLayout((fs::path(dir) / rec.artifacts.front().path).string());
        layout && layout->basis != alea::linker::FingerprintBasis::Nothing)
      rec.fingerprint = alea::linker::hex16(layout->fingerprint);
#endif
  }
  rec.status = BuildStatus::Ok;
  rec.logTail = tail(log, 2048);
  if (!req.buildCache.empty())
    if (std::string summary = buildCacheSummary(wrapperLogPath(req)); !summary.empty())
      rec.logTail += (rec.logTail.empty() || rec.logTail.ends_with('\n') ? "" : "\n") + summary;
  return rec;
}

Expected<BuildRecord> reuseBuild(const BuildRecord &pilot, const BuildRequest &req) {
  // Decide: the pilot's build is this build only if it was made from the same
  // seed and factors and produced the artifacts this system keeps.
  if (pilot.status != BuildStatus::Ok)
    return Error{std::string("the pilot's build ") + enumName(pilot.status)};
  if (pilot.seed != req.seed || pilot.factors != joinFactors(req.factors))
    return Error{"the pilot's build has another seed or other factors"};
  std::set<std::string> wanted(req.system->artifacts.begin(), req.system->artifacts.end()), had;
  for (const auto &a : pilot.artifacts)
    had.insert(a.path);
  if (wanted != had)
    return Error{"the pilot's build kept other artifacts"};
  std::error_code ec;
  if (pilot.dir.empty() || !fs::is_directory(pilot.dir, ec))
    return Error{"the pilot's build directory '" + pilot.dir + "' is gone"};
  // Act: the pilot's build directory becomes this build's, hard-linked file by
  // file (it is inside the campaign directory, so on the same file system; a
  // file system without hard links gets copies). The pilot's files are not
  // written again, so its own store stays true.
  const std::string dir = buildDirectory(req.campaignDir, req.system->name, req.buildIndex);
  moveAside(dir);
  fs::create_directories(fs::path(dir).parent_path(), ec);
  const auto options = fs::copy_options::recursive | fs::copy_options::copy_symlinks;
  fs::copy(pilot.dir, dir, options | fs::copy_options::create_hard_links, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove_all(dir, ignored);
    ec.clear();
    fs::copy(pilot.dir, dir, options, ec);
  }
  if (ec)
    return Error{"cannot copy the pilot's build directory '" + pilot.dir + "' to '" + dir +
                 "': " + ec.message()};
  BuildRecord rec = pilot;
  rec.id = 0;
  rec.systemId = 0;
  rec.buildIndex = req.buildIndex;
  rec.dir = dir;
  rec.artifacts.clear();
  // The snapshots are taken again (into this campaign's objects/) and must be
  // the pilot's bytes: a build directory changed since the pilot is rebuilt.
  for (const auto &a : pilot.artifacts) {
    auto snap = snapshotArtifact(req.campaignDir, dir, a.path);
    if (!snap)
      return Error{snap.error()};
    if (snap->objectHash != a.objectHash)
      return Error{"artifact '" + a.path + "' changed since the pilot built it"};
    rec.artifacts.push_back(*snap);
  }
  // The build's cost stays the pilot's measured seconds (the planner's and
  // the report's build cost); the log says where the build came from.
  rec.logTail = std::string(kReusedBuildMarker) + pilot.dir + "\n" + pilot.logTail;
  return rec;
}

} // namespace alea::runner

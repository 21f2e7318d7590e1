// SSH and Slurm targets (see targets.hpp).
#include "alea/remote/targets.hpp"

#include "alea/exec/hash.hpp"
#include "alea/store/campaign_dir.hpp"

#include <filesystem>
#include <mutex>
#include <sstream>
#include <sys/stat.h>

namespace fs = std::filesystem;

namespace alea::runner {

namespace {

// Runs a host command to its end (ssh for the set-up steps, Slurm's clients)
// with stdin from `stdinPath` ("" = /dev/null): exit status and stdout, the
// stderr tail in the error.
struct CommandOutcome {
  bool ok = false;
  std::string out, err;
};
CommandOutcome runCommand(const std::vector<std::string> &argv, const std::string &stdinPath = "",
                          double timeout = 600, const std::atomic<bool> *cancel = nullptr) {
  LocalExecutor executor;
  ExecutionRequest r;
  r.cancel = cancel;
  r.argv = argv;
  r.env = processEnvironment();
  r.stdinPath = stdinPath;
  r.timeoutSeconds = timeout;
  ExecutionResult res = executor.run(r);
  CommandOutcome c;
  c.ok = !res.spawnFailed && !res.output.timedOut && res.output.signal == 0 &&
         res.output.exitCode == 0;
  c.out = res.output.stdoutText;
  c.err = res.spawnFailed ? res.spawnError : res.output.stderrTail;
  while (!c.err.empty() && (c.err.back() == '\n' || c.err.back() == '\r'))
    c.err.pop_back();
  return c;
}

std::string firstWord(const std::string &s) {
  std::istringstream in(s);
  std::string w;
  in >> w;
  return w;
}

// The digest of this alea binary, once per process (a few MB).
std::string selfDigest(const std::string &path) {
  static std::mutex m;
  static std::map<std::string, std::string> memo;
  std::lock_guard<std::mutex> lock(m);
  auto it = memo.find(path);
  if (it != memo.end())
    return it->second;
  std::string d = sha256File(path).value_or("");
  memo[path] = d;
  return d;
}

// The files that make a build on a target: its artifacts as snapshotted, or
// every regular file of its directory when the system names none.
std::vector<StagedFile> buildFiles(const BuildRecord &build, const std::string &campaignDir) {
  std::vector<StagedFile> files;
  if (!build.artifacts.empty()) {
    for (const auto &a : build.artifacts) {
      std::string local = objectPath(campaignDir, a.objectHash);
      struct stat st{};
      unsigned mode = ::stat(local.c_str(), &st) == 0 ? st.st_mode & 0777 : 0644;
      files.push_back({a.path, local, a.objectHash, mode});
    }
    return files;
  }
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(build.dir, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (!it->is_regular_file(ec) || it->is_symlink(ec))
      continue;
    std::string local = it->path().string();
    auto hash = sha256File(local);
    if (!hash)
      continue;
    struct stat st{};
    unsigned mode = ::stat(local.c_str(), &st) == 0 ? st.st_mode & 0777 : 0644;
    files.push_back({fs::relative(it->path(), build.dir).string(), local, *hash, mode});
  }
  return files;
}

// A regular file of the source directory to stage on a target.
std::optional<StagedFile> sourceFile(const fs::path &path, const fs::path &sourceDir) {
  std::error_code ec;
  fs::path rel = fs::relative(path, sourceDir, ec);
  if (ec || rel.empty() || *rel.begin() == "..")
    return std::nullopt; // outside the source directory: named by its own path
  auto hash = sha256File(path.string());
  if (!hash)
    return std::nullopt;
  struct stat st{};
  unsigned mode = ::stat(path.c_str(), &st) == 0 ? st.st_mode & 0777 : 0644;
  return StagedFile{rel.string(), path.string(), *hash, mode};
}

// Every file a build may read in the source directory: all of its regular
// files (symbolic links as the files they name) but .git and campaign
// directories (this one, or any holding a store).
std::vector<StagedFile> wholeSourceDir(const std::string &sourceDir,
                                       const std::string &campaignDir) {
  std::vector<StagedFile> files;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(sourceDir, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    std::error_code e;
    if (it->is_directory(e)) {
      if (it->path().filename() == ".git" || fs::equivalent(it->path(), campaignDir, e) ||
          fs::exists(it->path() / kStoreFileName, e))
        it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file(e))
      if (auto f = sourceFile(it->path(), sourceDir))
        files.push_back(*f);
  }
  return files;
}

class SshTarget final : public Target {
public:
  using Target::Target;

  std::string workdir() const {
    return config_.workdir.empty() ? std::string(".alea") : config_.workdir;
  }

  Status connect(const std::atomic<bool> *cancel) override {
    disconnect();
    sourceStaged_.clear(); // a rebooted target may have lost it
    std::string digest = selfDigest(context_.aleaPath);
    if (digest.empty())
      return Error{"cannot read " + context_.aleaPath + " to ship it to target '" + name() + "'"};
    std::string helper = "alea-" + digest.substr(0, 16);
    // The workdir private to the user (0700), the helper shipped when absent
    // (its name is its digest: a different alea is another file), verified
    // there before it takes its name. Constant scripts; the values are
    // positional arguments, quoted by shellJoin.
    // A workdir it creates is private (0700); an existing one keeps its mode.
    const char *probe =
        "if ! test -d \"$1\"; then mkdir -p -- \"$1\" && chmod 700 -- \"$1\"; fi && "
        "mkdir -p -- \"$1/bin\" && chmod 700 -- \"$1/bin\" && "
        "if test -x \"$1/bin/$2\"; then echo present; else echo absent; fi";
    CommandOutcome p = runCommand(
        sshArgv(config_, shellJoin({"sh", "-c", probe, "sh", workdir(), helper})), "", 600, cancel);
    if (!p.ok)
      return Error{"target '" + name() + "': cannot reach " + config_.ssh + ": " + p.err};
    if (firstWord(p.out) == "absent") {
      // The temporary name is the shell's own ($$): two targets sharing a
      // workdir (one machine, or a home on NFS) do not write the same file.
      const char *ship = "umask 077 && t=\"$1/bin/$2.tmp.$$\" && cat > \"$t\" && "
                         "test \"$(sha256sum < \"$t\" | cut -d ' ' -f 1)\" = \"$3\" && "
                         "chmod 700 \"$t\" && mv -f -- \"$t\" \"$1/bin/$2\" || "
                         "{ rm -f -- \"$t\"; exit 1; }";
      CommandOutcome s = runCommand(
          sshArgv(config_, shellJoin({"sh", "-c", ship, "sh", workdir(), helper, digest})),
          context_.aleaPath, 600, cancel);
      if (!s.ok)
        return Error{
            "target '" + name() + "': cannot ship alea's helper to " + config_.ssh +
            (s.err.empty() ? std::string(" (its digest differed on arrival)") : ": " + s.err)};
    }
    return startSession(sshArgv(config_, shellJoin({workdir() + "/bin/" + helper, "__target",
                                                    "--workdir", workdir()})),
                        cancel);
  }

  // The campaign's directory in the workdir, one per target (targets that
  // share a workdir never restage under each other's executions).
  std::string campaignRel() const { return "c/" + context_.campaignKey + "/" + name(); }

  Expected<std::string> buildDir(const BuildRecord &build) override {
    if (auto it = staged_.find(build.id); it != staged_.end())
      return it->second;
    std::string rel = campaignRel() + "/builds/" + std::to_string(build.systemId) + "-" +
                      std::to_string(build.buildIndex);
    auto dir = session_->stage(rel, buildFiles(build, context_.campaignDir));
    if (!dir)
      return Error{dir.error()};
    staged_[build.id] = *dir;
    // The executables' shared libraries, checked once on arrival.
    std::vector<std::string> executables;
    for (const auto &f : buildFiles(build, context_.campaignDir))
      if (f.mode & 0100)
        executables.push_back(*dir + "/" + f.path);
    if (!executables.empty())
      if (auto libs = session_->missingLibraries(executables))
        for (const auto &[path, names] : *libs)
          missingLibraries[path] = names;
    return *dir;
  }

  Expected<std::string> sourceDir() override {
    if (!sourceStaged_.empty())
      return sourceStaged_;
    // Listed and hashed once per campaign run (a reconnection stages the
    // same files again, shipping only what the target lost).
    if (!sourceFiles_) {
      sourceFiles_.emplace();
      if (context_.buildOnTargets) {
        *sourceFiles_ = wholeSourceDir(context_.sourceDir, context_.campaignDir);
      } else {
        for (const auto &in : context_.inputs) {
          fs::path p =
              fs::path(in).is_absolute() ? fs::path(in) : fs::path(context_.sourceDir) / in;
          if (auto f = sourceFile(p, context_.sourceDir))
            sourceFiles_->push_back(*f);
        }
      }
    }
    auto dir = session_->stage(campaignRel() + "/source", *sourceFiles_);
    if (!dir)
      return Error{dir.error()};
    sourceStaged_ = *dir;
    return sourceStaged_;
  }

  std::string campaignDir() const override { return session_->workdir() + "/" + campaignRel(); }
  bool sharesFiles() const override { return false; }

private:
  std::string sourceStaged_;
  std::optional<std::vector<StagedFile>> sourceFiles_;
};

// A Slurm target: the helper runs in a job step that srun starts (an
// allocation of its own, exclusive by default), its stdin and stdout
// forwarded by srun. The campaign directory is on a file system the nodes
// share (the cluster's usual set-up), so builds and inputs keep their paths.
class SlurmTarget final : public Target {
public:
  using Target::Target;

  Status connect(const std::atomic<bool> *cancel) override {
    disconnect();
    std::string jobName = "alea-" + context_.campaignKey + "-" + name();
    std::string workdir = context_.campaignDir + "/targets/" + name();
    return startSession(
        srunArgv(config_, jobName, {context_.aleaPath, "__target", "--workdir", workdir}), cancel);
  }
  Expected<std::string> buildDir(const BuildRecord &build) override {
    if (auto it = staged_.find(build.id); it != staged_.end())
      return it->second;
    staged_[build.id] = build.dir;
    std::vector<std::string> executables;
    for (const auto &f : buildFiles(build, context_.campaignDir))
      if (f.mode & 0100)
        executables.push_back(build.artifacts.empty() ? f.localPath : build.dir + "/" + f.path);
    if (!executables.empty())
      if (auto libs = session_->missingLibraries(executables))
        for (const auto &[path, names] : *libs)
          missingLibraries[path] = names;
    return build.dir;
  }
  Expected<std::string> sourceDir() override { return context_.sourceDir; }
  std::string campaignDir() const override { return context_.campaignDir; }
  bool sharesFiles() const override { return true; }
};

} // namespace

Target::Target(TargetConfig config, TargetContext context)
    : config_(std::move(config)), context_(std::move(context)) {}

void Target::disconnect() {
  if (session_)
    session_->stop();
  session_.reset();
  staged_.clear();
}

Status Target::startSession(std::vector<std::string> command, const std::atomic<bool> *cancel) {
  std::error_code ec;
  fs::create_directories(fs::path(context_.campaignDir) / "targets", ec);
  std::string log = (fs::path(context_.campaignDir) / "targets" / (name() + ".log")).string();
  session_ = std::make_unique<TargetSession>(std::move(command), log);
  if (Status s = session_->start(cancel); !s)
    return Error{"target '" + name() + "': " + s.error()};
  jobId_ = session_->jobId; // known from the hello, before anything else can fail
  environment_ = session_->environment;
  auto m = session_->machine();
  if (!m)
    return Error{"target '" + name() + "': " + m.error()};
  machine_ = *m;
  return {};
}

std::unique_ptr<Target> makeTarget(const TargetConfig &config, const TargetContext &context) {
  if (config.slurm)
    return std::make_unique<SlurmTarget>(config, context);
  return std::make_unique<SshTarget>(config, context);
}

std::vector<std::string> sshArgv(const TargetConfig &config, const std::string &remoteCommand) {
  std::vector<std::string> argv{"ssh"};
  argv.insert(argv.end(), config.sshOptions.begin(), config.sshOptions.end());
  for (const char *o :
       {"BatchMode=yes", "ConnectTimeout=30", "ServerAliveInterval=15", "ServerAliveCountMax=4"}) {
    argv.push_back("-o");
    argv.push_back(o);
  }
  argv.push_back("--");
  argv.push_back(config.ssh);
  argv.push_back(remoteCommand);
  return argv;
}

std::vector<std::string> srunArgv(const TargetConfig &config, const std::string &jobName,
                                  const std::vector<std::string> &helper) {
  const SlurmSettings &s = *config.slurm;
  std::vector<std::string> argv{"srun",       "--job-name=" + jobName, "--nodes=1",
                                "--ntasks=1", "--unbuffered",          "--quiet"};
  if (s.exclusive)
    argv.push_back("--exclusive");
  if (!s.partition.empty())
    argv.push_back("--partition=" + s.partition);
  if (!s.constraint.empty())
    argv.push_back("--constraint=" + s.constraint);
  if (!s.account.empty())
    argv.push_back("--account=" + s.account);
  if (!s.timeLimit.empty())
    argv.push_back("--time=" + s.timeLimit);
  argv.insert(argv.end(), s.extra.begin(), s.extra.end());
  argv.insert(argv.end(), helper.begin(), helper.end());
  return argv;
}

std::string slurmJobState(const std::string &jobId) {
  CommandOutcome q = runCommand({"squeue", "--noheader", "--jobs=" + jobId, "--format=%T"}, "", 60);
  if (q.ok && !firstWord(q.out).empty())
    return firstWord(q.out);
  CommandOutcome c = runCommand({"scontrol", "--oneliner", "show", "job", jobId}, "", 60);
  if (auto at = c.out.find("JobState="); c.ok && at != std::string::npos)
    return firstWord(c.out.substr(at + 9));
  return "";
}

bool cancelSlurmJob(const std::string &jobId) { return runCommand({"scancel", jobId}, "", 60).ok; }

} // namespace alea::runner

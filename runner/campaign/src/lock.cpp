// The campaign directory's lock (see lock.hpp).
#include "alea/campaign/lock.hpp"

#include "alea/file.hpp"

#include <cerrno>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace alea::runner {

std::string lockPath(const std::string &dir) { return dir + "/lock"; }

namespace {

std::string utcNow() {
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  ::gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string hostName() {
  char buf[256] = {};
  if (::gethostname(buf, sizeof buf - 1) != 0)
    return "unknown host";
  return buf;
}

// The lock file's text (small: a line and a few run names).
std::string readText(int fd) {
  std::string text;
  char buf[4096];
  for (ssize_t n; (n = ::pread(fd, buf, sizeof buf, static_cast<off_t>(text.size()))) > 0 &&
                  text.size() < 65536;)
    text.append(buf, static_cast<std::size_t>(n));
  return text;
}

// "pid 123 on host, since 2026-..." from the holder's line, or what we know.
std::string describeHolder(int fd) {
  std::string line = readText(fd);
  if (line.empty())
    return "a process that has not written its name yet";
  if (auto nl = line.find('\n'); nl != std::string::npos)
    line.resize(nl);
  return line;
}

// The "run <token>" lines of a lock file's text.
std::vector<std::string> runsIn(const std::string &text) {
  std::vector<std::string> runs;
  for (std::string_view line : linesOf(text))
    if (line.starts_with("run ") && line.size() > 4)
      runs.emplace_back(line.substr(4));
  return runs;
}

} // namespace

Expected<CampaignLock> CampaignLock::acquire(const std::string &dir) {
  std::string path = lockPath(dir);
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0)
    return Error{"cannot open the lock file '" + path + "': " + std::strerror(errno)};
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    int err = errno;
    std::string holder = err == EWOULDBLOCK ? describeHolder(fd) : "";
    ::close(fd);
    if (err != EWOULDBLOCK)
      return Error{"cannot lock '" + path + "': " + std::strerror(err)};
    return Error{"campaign directory '" + dir + "' is in use by another alea run (" + holder +
                     "); wait for it to finish, or use another --dir",
                 ErrorKind::Busy};
  }
  // Ours: say who holds it, for the next one who tries; the earlier runs
  // stay named until their processes are gone (recordRun).
  CampaignLock lock(fd, std::move(path));
  lock.holder_ = "pid " + std::to_string(::getpid()) + " on " + hostName() + ", since " + utcNow();
  lock.earlierRuns_ = runsIn(readText(fd));
  if (Status s = lock.write(lock.earlierRuns_); !s)
    return Error{s.error()};
  return lock;
}

Status CampaignLock::write(const std::vector<std::string> &runs) {
  std::string text = holder_ + "\n";
  for (const auto &r : runs)
    text += "run " + r + "\n";
  if (::ftruncate(fd_, 0) != 0 ||
      ::pwrite(fd_, text.data(), text.size(), 0) != static_cast<ssize_t>(text.size()))
    return Error{"cannot write the lock file '" + path_ + "': " + std::strerror(errno)};
  return {};
}

Status CampaignLock::recordRun(const std::string &run) { return write({run}); }

CampaignLock::CampaignLock(CampaignLock &&other) noexcept
    : fd_(std::exchange(other.fd_, -1)), path_(std::move(other.path_)),
      holder_(std::move(other.holder_)), earlierRuns_(std::move(other.earlierRuns_)) {}

CampaignLock &CampaignLock::operator=(CampaignLock &&other) noexcept {
  if (this != &other) {
    if (fd_ >= 0)
      ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    path_ = std::move(other.path_);
    holder_ = std::move(other.holder_);
    earlierRuns_ = std::move(other.earlierRuns_);
  }
  return *this;
}

CampaignLock::~CampaignLock() {
  if (fd_ >= 0)
    ::close(fd_); // releases the flock
}

bool CampaignLock::held() const {
  struct stat mine{}, named{};
  if (fd_ < 0 || ::fstat(fd_, &mine) != 0 || ::stat(path_.c_str(), &named) != 0)
    return false;
  return mine.st_dev == named.st_dev && mine.st_ino == named.st_ino;
}

} // namespace alea::runner

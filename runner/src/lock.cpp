// The campaign directory's lock (see lock.hpp).
#include "alea/runner/lock.hpp"

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

// "pid 123 on host, since 2026-..." from the holder's line, or what we know.
std::string describeHolder(int fd) {
  char buf[512];
  ssize_t n = ::pread(fd, buf, sizeof buf - 1, 0);
  if (n <= 0)
    return "a process that has not written its name yet";
  std::string line(buf, static_cast<std::size_t>(n));
  if (auto nl = line.find('\n'); nl != std::string::npos)
    line.resize(nl);
  return line;
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
  // Ours: say who holds it, for the next one who tries.
  std::string line =
      "pid " + std::to_string(::getpid()) + " on " + hostName() + ", since " + utcNow() + "\n";
  if (::ftruncate(fd, 0) != 0 ||
      ::pwrite(fd, line.data(), line.size(), 0) != static_cast<ssize_t>(line.size())) {
    int err = errno;
    ::close(fd);
    return Error{"cannot write the lock file '" + path + "': " + std::strerror(err)};
  }
  return CampaignLock(fd, std::move(path));
}

CampaignLock::CampaignLock(CampaignLock &&other) noexcept
    : fd_(std::exchange(other.fd_, -1)), path_(std::move(other.path_)) {}

CampaignLock &CampaignLock::operator=(CampaignLock &&other) noexcept {
  if (this != &other) {
    if (fd_ >= 0)
      ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    path_ = std::move(other.path_);
  }
  return *this;
}

CampaignLock::~CampaignLock() {
  if (fd_ >= 0)
    ::close(fd_); // releases the flock
}

bool CampaignLock::held() const {
  struct stat mine {
  }, named{};
  if (fd_ < 0 || ::fstat(fd_, &mine) != 0 || ::stat(path_.c_str(), &named) != 0)
    return false;
  return mine.st_dev == named.st_dev && mine.st_ino == named.st_ino;
}

} // namespace alea::runner

// Writing to a file descriptor completely: the one loop over write(2) that
// the wrapper (its log and messages) and the runner (the target helper's
// frames) share.
#pragma once

#include <cerrno>
#include <string_view>
#include <unistd.h>

namespace alea {

// Writes every byte, retrying after EINTR and short writes; false when
// write(2) fails (EPIPE, ENOSPC, ...) or writes nothing.
inline bool writeAll(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

} // namespace alea

// The runner's error values are alea's one Expected/Error/Status (common/,
// alea/expected.hpp): library code returns them instead of throwing (STYLE.md
// principle 8); the `alea` command turns one into a single `alea: error: ...`
// line, and an Error of kind Busy into its own exit status.
#pragma once

#include "alea/expected.hpp"

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>
#include <sys/resource.h>

namespace alea::runner {

using alea::Error;
using alea::ErrorKind;
using alea::Expected;
using alea::Status;

// The file size limit of this process (RLIMIT_FSIZE, `ulimit -f`) in bytes;
// 0 = none. A write beyond it fails with EFBIG (alea ignores SIGXFSZ, which
// would kill it without a word).
inline std::uint64_t fileSizeLimit() {
  rlimit limit{};
  if (::getrlimit(RLIMIT_FSIZE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY)
    return 0;
  return limit.rlim_cur;
}

// The words for a failed system call's errno; EFBIG with the limit, which
// the user may not know was set.
inline std::string errnoText(int err) {
  std::string text = std::strerror(err);
  if (std::uint64_t limit = fileSizeLimit(); err == EFBIG && limit > 0)
    text += " (the file size limit of this process, `ulimit -f`, is " + std::to_string(limit) +
            " bytes)";
  return text;
}

} // namespace alea::runner

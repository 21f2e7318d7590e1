// The heap start offset factor on the runner's side (docs/campaign.md "Heap
// start offset"): the runtime libalea_heap.so, whose bytes are compiled into
// alea and written out once per process where executions can load it; the
// static-executable check (LD_PRELOAD does not reach a program without a
// program interpreter); the environment an execution gets; and the status
// read back from the runtime's report. LocalExecutor uses these, on this
// machine or in a target's helper.
#pragma once

#include "alea/expected.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace alea::runner {

// The bytes of libalea_heap.so as built with this alea.
std::string_view heapRuntimeImage();

// The path of the runtime, written on first use (thread-safe) into the first
// usable directory of $XDG_CACHE_HOME/alea, $HOME/.cache/alea and
// $TMPDIR/alea-<uid> (0700, owned by this user), named by its content's
// digest and checked byte for byte when already there.
Expected<std::string> heapRuntimePath();

// Whether an executable is static (an ELF file without PT_INTERP, static-pie
// included); nullopt when it is not an ELF file (a script: its interpreter
// loads the runtime) or cannot be read.
std::optional<bool> isStaticExecutable(const std::string &path);

// ALEA_HEAP_OFFSET's value: 7 digits, zero-padded, so that the environment's
// size (and with it the stack's position) does not depend on the offset.
std::string heapOffsetText(std::int64_t offset);

// LD_PRELOAD with the runtime: appended to the user's value (kept first, so
// that a preloaded allocator still comes first), ':'-separated.
std::string preloadWith(std::string_view userValue, std::string_view runtime);

// An execution's status from its report file: one line per process that
// loaded the runtime. Every line the same: that line; different ones (a shell
// and the program it started): the distinct lines in order, joined by "; ";
// none: "not-loaded".
std::string heapStatusFromReport(std::string_view report);

} // namespace alea::runner

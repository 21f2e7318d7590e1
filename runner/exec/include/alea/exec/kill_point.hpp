// Test-only crash injection for the crash-safety tests (test/e2e/runner_crash_test.py).
// With ALEA_TEST_KILL_AT=<point>:<n> in its environment, a process running a
// campaign sends itself SIGKILL the n-th time (counted from 1, per process) it
// reaches <point>, so a test lands its kills in store creation, builds and
// executions deterministically, however fast or busy the machine is (a kill
// aimed by a sleep does not). The points, each just before the write that
// would make the step durable:
//   store-write  any store write (a transaction's COMMIT or an autocommit write)
//   build        a finished build's record (the build ran, nothing is recorded)
//   plan         the plan of executions
//   execution    an execution's record with its measurements (it ran and was
//                measured, nothing is recorded)
// Unset, malformed or naming another point: nothing happens. The campaign
// loop removes ALEA_* variables from what builds and benchmarks see, so the
// hook never reaches a child.
#pragma once

#include <string_view>

namespace alea::runner {

void killPoint(std::string_view point);

} // namespace alea::runner

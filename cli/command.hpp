// The `alea` command line: one setup/run pair per subcommand (CLI11's
// subcom_in_files example). A subcommand lives in cli/cmd_<name>.cpp, registers
// itself with ALEA_COMMAND, parses into an options struct in its setup function
// and hands that struct to a run function in its component library. Errors are
// thrown as alea::cli::Error and printed once, by main, as `alea: error: ...`.
#pragma once

#include <CLI/CLI.hpp>

#include <stdexcept>
#include <string>

namespace alea::cli {

// alea's exit statuses (docs/campaign.md, "Exit status"). A run ended by a
// signal exits with 128 + its number (130 for SIGINT, 143 for SIGTERM).
inline constexpr int kExitOk = 0;       // done; for `alea run`: every planned
                                        // execution recorded, none failed
inline constexpr int kExitError = 1;    // an error stopped the command
inline constexpr int kExitUsage = 2;    // bad command line
inline constexpr int kExitFailures = 3; // `alea run` finished, but builds or
                                        // executions failed (recorded, reported)
inline constexpr int kExitBusy = 4;     // the campaign directory is locked by
                                        // another `alea run`

// An error in the user's input or environment; main prints "alea: error: <what>"
// and exits with `status`.
struct Error : std::runtime_error {
  explicit Error(const std::string &what, int exitStatus = kExitError)
      : std::runtime_error(what), status(exitStatus) {}
  int status;
};

// Adds one subcommand to `app`. The callback it installs calls setExitCode().
using SetupFn = void (*)(CLI::App &app);

struct CommandRegistration {
  CommandRegistration(const char *name, SetupFn setup);
};

// The exit status main returns once the chosen subcommand's callback has run.
void setExitCode(int code);
int exitCode();

// Calls every registered setup function, in name order.
void setupAllCommands(CLI::App &app);

} // namespace alea::cli

#define ALEA_CONCAT_IMPL(a, b) a##b
#define ALEA_CONCAT(a, b) ALEA_CONCAT_IMPL(a, b)
#define ALEA_COMMAND(name, setupFn)                                                                \
  static const ::alea::cli::CommandRegistration ALEA_CONCAT(aleaCommandRegistration_,              \
                                                            __LINE__)(name, setupFn)

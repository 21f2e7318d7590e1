// The `alea` command line: one setup/run pair per subcommand (CLI11's
// subcom_in_files example). A subcommand lives in cli/cmd_<name>.cpp, registers
// itself with ALEA_COMMAND, parses into an options struct in its setup function
// and hands that struct to a run function over its component library, which
// returns the command's Outcome: its exit status, or an alea::Error that main
// prints once as `alea: error: ...` (every library's one error convention,
// alea/expected.hpp).
#pragma once

#include "alea/expected.hpp"

#include <CLI/CLI.hpp>

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

// What a subcommand's run function returns: its exit status, or the error that
// stopped it, which main prints as "alea: error: <message>" and exits with the
// status of its kind (Usage: kExitUsage, Busy: kExitBusy, else kExitError).
using Outcome = Expected<int>;

// Sets up one subcommand (`sub`, made with its name and summary): its options
// and the callback, which calls finish().
using SetupFn = void (*)(CLI::App &sub);

struct CommandRegistration {
  CommandRegistration(const char *name, const char *summary, SetupFn setup);
};

// Keeps the chosen subcommand's outcome for main.
void finish(Outcome outcome);

// Once the subcommand's callback has run: the status main exits with, and the
// error it prints ("" when none).
int exitCode();
const std::string &errorMessage();

// Adds every registered subcommand to `app` and sets it up, in name order.
void setupAllCommands(CLI::App &app);

} // namespace alea::cli

#define ALEA_CONCAT_IMPL(a, b) a##b
#define ALEA_CONCAT(a, b) ALEA_CONCAT_IMPL(a, b)
// A subcommand: its name, its one-paragraph summary (`alea --help`, and the
// head of `alea NAME --help`) and its setup function.
#define ALEA_COMMAND(name, summary, setupFn)                                                       \
  static const ::alea::cli::CommandRegistration ALEA_CONCAT(aleaCommandRegistration_,              \
                                                            __LINE__)(name, summary, setupFn)

// Registry of the `alea` subcommands (see command.hpp).
#include "command.hpp"

#include <algorithm>
#include <utility>
#include <vector>

namespace alea::cli {
namespace {
std::vector<std::pair<std::string, SetupFn>> &registry() {
  static std::vector<std::pair<std::string, SetupFn>> commands;
  return commands;
}
Outcome &outcomeStorage() {
  static Outcome outcome = kExitOk;
  return outcome;
}
} // namespace

CommandRegistration::CommandRegistration(const char *name, SetupFn setup) {
  registry().emplace_back(name, setup);
}

void finish(Outcome outcome) { outcomeStorage() = std::move(outcome); }

int exitCode() {
  const Outcome &o = outcomeStorage();
  if (o)
    return *o;
  switch (o.errorKind()) {
  case ErrorKind::Usage:
    return kExitUsage;
  case ErrorKind::Busy:
    return kExitBusy;
  case ErrorKind::Failure:
    break;
  }
  return kExitError;
}

const std::string &errorMessage() { return outcomeStorage().error(); }

void setupAllCommands(CLI::App &app) {
  auto commands = registry();
  std::sort(commands.begin(), commands.end());
  for (const auto &[name, setup] : commands)
    setup(app);
}

} // namespace alea::cli

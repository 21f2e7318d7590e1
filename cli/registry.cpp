// Registry of the `alea` subcommands (see command.hpp).
#include "command.hpp"

#include <algorithm>
#include <utility>
#include <vector>

namespace alea::cli {
namespace {
struct Command {
  std::string name, summary;
  SetupFn setup = nullptr;
};
std::vector<Command> &registry() {
  static std::vector<Command> commands;
  return commands;
}
Outcome &outcomeStorage() {
  static Outcome outcome = kExitOk;
  return outcome;
}
} // namespace

CommandRegistration::CommandRegistration(const char *name, const char *summary, SetupFn setup) {
  registry().push_back({name, summary, setup});
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
  std::sort(commands.begin(), commands.end(),
            [](const Command &a, const Command &b) { return a.name < b.name; });
  for (const auto &c : commands)
    c.setup(*app.add_subcommand(c.name, c.summary));
}

} // namespace alea::cli

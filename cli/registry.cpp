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
int &exitCodeStorage() {
  static int code = 0;
  return code;
}
} // namespace

CommandRegistration::CommandRegistration(const char *name, SetupFn setup) {
  registry().emplace_back(name, setup);
}

void setExitCode(int code) { exitCodeStorage() = code; }
int exitCode() { return exitCodeStorage(); }

void setupAllCommands(CLI::App &app) {
  auto commands = registry();
  std::sort(commands.begin(), commands.end());
  for (const auto &[name, setup] : commands)
    setup(app);
}

} // namespace alea::cli

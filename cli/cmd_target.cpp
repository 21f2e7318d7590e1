// `alea __target --workdir W` (hidden): the helper that runs executions on a
// target machine for a campaign on another host, speaking frames on its
// stdin and stdout (runner/remote/include/alea/remote/remote.hpp). Started by the
// host through ssh or a Slurm job, never by users.
#include "command.hpp"

#include "alea/remote/remote.hpp"

#include <string>

namespace {

void setupTarget(CLI::App &cmd) {
  cmd.group(""); // hidden from --help
  auto workdir = std::make_shared<std::string>(".alea");
  cmd.add_option("--workdir", *workdir, "the target's working directory");
  cmd.callback([workdir] { alea::cli::finish(alea::runner::serveTarget(0, 1, *workdir)); });
}

} // namespace

ALEA_COMMAND("__target", "", setupTarget);

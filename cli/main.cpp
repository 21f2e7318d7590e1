// alea: the single front end (run, report, analyze, plan, layout, export, import).
#include "command.hpp"

#include <csignal>
#include <cstdio>
#include <exception>

int main(int argc, char **argv) {
  // A file that reaches the file size limit (ulimit -f) fails its write with
  // EFBIG, which the error names with the file and the limit, instead of
  // killing alea with SIGXFSZ and no word. (Children get the default back.)
  std::signal(SIGXFSZ, SIG_IGN);
  CLI::App app{"alea: layout-randomized builds, benchmark campaigns and "
               "layout-independent statistics"};
  app.set_version_flag("--version", "alea " ALEA_VERSION);
  app.require_subcommand(1);
  alea::cli::setupAllCommands(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    // --help and --version exit 0; every command-line mistake exits 2.
    return app.exit(e) == 0 ? alea::cli::kExitOk : alea::cli::kExitUsage;
  } catch (const std::exception &e) { // out of memory, a library's exception
    std::fprintf(stderr, "alea: error: %s\n", e.what());
    return alea::cli::kExitError;
  }
  if (const std::string &error = alea::cli::errorMessage(); !error.empty())
    std::fprintf(stderr, "alea: error: %s\n", error.c_str());
  return alea::cli::exitCode();
}

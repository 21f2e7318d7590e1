// alea: the single front end (run, report, analyze, plan, layout, export, import).
#include "command.hpp"

#include <cstdio>
#include <exception>

int main(int argc, char **argv) {
  CLI::App app{"alea: layout-randomized builds, benchmark campaigns and "
               "layout-independent statistics"};
  app.set_version_flag("--version", "alea " ALEA_VERSION);
  app.require_subcommand(1);
  alea::cli::setupAllCommands(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    return app.exit(e);
  } catch (const alea::cli::Error &e) {
    std::fprintf(stderr, "alea: error: %s\n", e.what());
    return 1;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "alea: error: %s\n", e.what());
    return 1;
  }
  return alea::cli::exitCode();
}

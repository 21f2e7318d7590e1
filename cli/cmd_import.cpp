// `alea import FILE.csv|hyperfine.json -o STORE`: reads long CSV or
// hyperfine's --export-json into a new store, which `alea report` then
// reads like a campaign. Work in alea::runner::importFile.
#include "command.hpp"

#include "alea/runner/import_export.hpp"

#include <cstdio>
#include <filesystem>
#include <memory>

namespace {

struct ImportOptions {
  std::string input;
  std::string output;
};

int runImport(const ImportOptions &opts) {
  std::string path = alea::runner::resolveStorePath(opts.output);
  if (std::filesystem::exists(path))
    throw alea::cli::Error("the store '" + path + "' exists; import into a new store");
  alea::runner::Expected<alea::runner::ImportSummary> sum{alea::runner::Error{""}};
  {
    auto store = alea::runner::Store::open(path);
    if (!store)
      throw alea::cli::Error(store.error());
    sum = alea::runner::importFile(opts.input, *store);
  } // closed here: a failed import leaves no half-made store behind
  if (!sum) {
    std::error_code ec;
    for (const char *suffix : {"", "-wal", "-shm"})
      std::filesystem::remove(path + suffix, ec);
    throw alea::cli::Error(sum.error());
  }
  std::fprintf(stderr,
               "alea: imported %zu measurements (%zu systems, %zu benchmarks, %zu "
               "executions) into %s\n",
               sum->measurements, sum->systems, sum->benchmarks, sum->executions, path.c_str());
  return 0;
}

void setupImport(CLI::App &app) {
  auto opts = std::make_shared<ImportOptions>();
  auto *sub = app.add_subcommand(
      "import", "Read long CSV or hyperfine --export-json into a new campaign store");
  sub->add_option("file", opts->input, "a long CSV file or a hyperfine JSON export")
      ->required()
      ->check(CLI::ExistingFile);
  sub->add_option("-o,--output", opts->output, "the new store (a .db file or a directory)")
      ->required();
  sub->callback([opts] { alea::cli::setExitCode(runImport(*opts)); });
}

} // namespace

ALEA_COMMAND("import", setupImport);

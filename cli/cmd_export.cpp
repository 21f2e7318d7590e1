// `alea export STORE [-o FILE.csv]`: the long CSV of a campaign store
// (system,benchmark,build,execution,iteration,value[,started_at]), what `alea analyze`
// reads. Work in alea::runner::exportLongCsv.
#include "command.hpp"

#include "alea/exchange/import_export.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

namespace {

struct ExportOptions {
  std::string store;
  std::string output;
  std::string metric; // "" = each benchmark's decision metric
};

alea::cli::Outcome runExport(const ExportOptions &opts) {
  // Read-only: export never creates, migrates or writes the store, and a
  // missing, empty or foreign file is one error (docs/store.md).
  auto store = alea::runner::Store::openReadOnly(alea::runner::resolveStorePath(opts.store));
  if (!store)
    return alea::Error{store.error()};
  if (opts.output.empty() || opts.output == "-") {
    auto n = alea::runner::exportLongCsv(*store, std::cout, opts.metric);
    if (!n)
      return alea::Error{n.error()};
    return 0;
  }
  std::string tmp = opts.output + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary);
    if (!out)
      return alea::Error{"cannot write '" + opts.output + "'"};
    auto n = alea::runner::exportLongCsv(*store, out, opts.metric);
    if (!n)
      return alea::Error{n.error()};
    out.close();
    if (!out)
      return alea::Error{"cannot write '" + opts.output + "'"};
    std::cerr << "alea: exported " << *n << " measurements to " << opts.output << "\n";
  }
  std::filesystem::rename(tmp, opts.output);
  return 0;
}

void setupExport(CLI::App &sub) {
  auto opts = std::make_shared<ExportOptions>();
  sub.add_option("store", opts->store, "campaign directory or its campaign.db")->required();
  sub.add_option("-o,--output", opts->output, "output file (default: standard output)");
  sub.add_option("--metric", opts->metric,
                 "another metric of a campaign that measured several (default: the one its "
                 "decision is on)");
  sub.callback([opts] { alea::cli::finish(runExport(*opts)); });
}

} // namespace

ALEA_COMMAND("export",
             "Write a campaign store's measurements as long CSV "
             "(system,benchmark,build,execution,iteration,value, "
             "and started_at when the store has start times)",
             setupExport);

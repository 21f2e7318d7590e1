// `alea import [OPTIONS] FILE... -o STORE`: reads measurements of other tools
// into a new store, which `alea report` then reads like a campaign: alea's
// long CSV, hyperfine --export-json files, Google Benchmark JSON, SPEC CPU
// 2017 runcpu result CSVs (docs/measure.md "Importing measurements"). The
// options --system, --build, --benchmark, --format and --field apply to the
// files after them on the command line, so that one call imports N builds of
// several systems: `alea import --system old --build 0 o0.json --build 1
// o1.json --system new n0.json n1.json -o store`. Work in
// alea::runner::importFiles.
#include "command.hpp"

#include "alea/exchange/import_export.hpp"
#include "alea/store/campaign_data.hpp"
#include "alea/words.hpp"

#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>

namespace {

struct ImportOptions {
  std::vector<alea::runner::ImportInput> inputs;
  std::string output;
  std::string name; // the campaign's name in the store ("": the first file's)
  // What CLI11 parsed, turned into `inputs` by inputsInOrder.
  std::vector<std::string> files, systems, builds, benchmarks, formats, fields;
};

alea::cli::Outcome runImport(const ImportOptions &opts) {
  std::string path = alea::runner::resolveStorePath(opts.output);
  if (std::filesystem::exists(path))
    return alea::Error{"the store '" + path + "' exists; import into a new store"};
  alea::runner::Expected<alea::runner::ImportSummary> sum{alea::runner::Error{""}};
  {
    auto store = alea::runner::Store::open(path);
    if (!store)
      return alea::Error{store.error()};
    sum = alea::runner::importFiles(opts.inputs, *store, opts.name);
  } // closed here: a failed import leaves no half-made store behind
  if (!sum) {
    std::error_code ec;
    for (const char *suffix : {"", "-wal", "-shm"})
      std::filesystem::remove(path + suffix, ec);
    return alea::Error{sum.error()};
  }
  for (const std::string &note : sum->notes)
    std::fprintf(stderr, "alea: note: %s\n", note.c_str());
  std::fprintf(stderr, "alea: imported %s (%s, %s, %s, %s) into %s\n",
               alea::counted(sum->measurements, "measurement").c_str(),
               alea::counted(sum->systems, "system").c_str(),
               alea::counted(sum->benchmarks, "benchmark").c_str(),
               alea::counted(sum->builds, "build").c_str(),
               alea::counted(sum->executions, "execution").c_str(), path.c_str());
  return 0;
}

// The files with the options in force where each one appears: CLI11 keeps
// every option's values and the order in which it parsed them.
std::vector<alea::runner::ImportInput>
inputsInOrder(const CLI::App &sub, const CLI::Option *files, const CLI::Option *system,
              const CLI::Option *build, const CLI::Option *benchmark, const CLI::Option *format,
              const CLI::Option *field) {
  std::vector<alea::runner::ImportInput> inputs;
  alea::runner::ImportInput current;
  std::map<const CLI::Option *, std::size_t> next;
  for (const CLI::Option *opt : sub.parse_order()) {
    const std::vector<std::string> &results = opt->results();
    std::size_t &i = next[opt];
    if (i >= results.size())
      continue;
    const std::string &value = results[i++];
    if (opt == files) {
      current.path = value;
      inputs.push_back(current);
    } else if (opt == system) {
      // A system starts a group: its files are its builds unless told.
      current.system = value;
      current.build.reset();
      current.benchmark.clear();
    } else if (opt == build) {
      current.build = std::stoi(value);
    } else if (opt == benchmark) {
      current.benchmark = value;
    } else if (opt == format) {
      current.format = *alea::runner::importFormatFromName(value);
    } else if (opt == field) {
      current.field = value == "cpu_time" ? alea::runner::GbenchField::CpuTime
                                          : alea::runner::GbenchField::RealTime;
    }
  }
  return inputs;
}

void setupImport(CLI::App &sub) {
  auto opts = std::make_shared<ImportOptions>();
  sub.footer(
      "--system, --build, --benchmark, --format and --field apply to the files after them.\n"
      "A file without --build is a build of its own (0, 1, ... per --system).\n"
      "Example: alea import --system old o0.json o1.json --system new n0.json n1.json -o s.db\n"
      "See docs/measure.md, \"Importing measurements\".");
  auto *filesOpt = sub.add_option("files", opts->files, "measurement files, in order")
                       ->required()
                       ->check(CLI::ExistingFile);
  auto single = [](CLI::Option *o) {
    return o->allow_extra_args(false)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  };
  auto *systemOpt = single(sub.add_option(
      "--system", opts->systems,
      "the system of the files that follow (default: from the file: hyperfine's commands, "
      "Google Benchmark's executable, SPEC's base/peak); starts a new group of builds"));
  auto *buildOpt =
      single(sub.add_option("--build", opts->builds,
                            "the build of the files that follow (default: one build per file)"))
          ->check(CLI::Validator(
              [](const std::string &v) {
                bool digits = !v.empty() && v.size() <= 9 &&
                              v.find_first_not_of("0123456789") == std::string::npos;
                return digits ? std::string() : "a build number 0, 1, 2, ... expected";
              },
              "BUILD"));
  auto *benchmarkOpt = single(sub.add_option(
      "--benchmark", opts->benchmarks,
      "the benchmark of the files that follow (default: from the file, or the first file's name)"));
  auto *formatOpt = single(sub.add_option("--format", opts->formats,
                                          "the format of the files that follow (default: "
                                          "auto, decided by each file's content)"))
                        ->check(CLI::IsMember({"auto", "csv", "hyperfine", "gbench", "spec"}));
  auto *fieldOpt =
      single(sub.add_option("--field", opts->fields,
                            "Google Benchmark: the time of a repetition (default: real_time)"))
          ->check(CLI::IsMember({"real_time", "cpu_time"}));
  sub.add_option("-o,--output", opts->output, "the new store (a .db file or a directory)")
      ->required();
  sub.add_option("--name", opts->name,
                 "the campaign's name in the store and its reports (default: the first file's "
                 "name without its extension)");
  sub.callback([=, &sub] {
    opts->inputs =
        inputsInOrder(sub, filesOpt, systemOpt, buildOpt, benchmarkOpt, formatOpt, fieldOpt);
    alea::cli::finish(runImport(*opts));
  });
}

} // namespace

ALEA_COMMAND("import",
             "Read measurements (alea's long CSV, hyperfine --export-json, Google Benchmark "
             "JSON, SPEC CPU runcpu CSV) into a new campaign store",
             setupImport);

// `alea compare A B`: the campaign of two revisions (compare.hpp).
#include "alea/campaign/compare.hpp"

#include "alea/config/measure_spec.hpp"
#include "alea/contract.hpp"
#include "alea/exec/executor.hpp"
#include "alea/random.hpp"
#include "alea/shell.hpp"

#include <toml++/toml.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

extern char **environ;

namespace alea::runner {

namespace fs = std::filesystem;

namespace {

// One side of the comparison: a commit of the repository, or a directory.
struct Side {
  std::string spelling; // as the user wrote it
  std::string commit;   // full hash; "" for a directory
  std::string source;   // the directory its builds copy
  std::string name;     // its system name
  std::string subject;  // a commit's first line (history)
};

// Runs `argv` (no shell) through the executor every build and execution
// uses: its exit status (0 on success), and its standard output and error.
Expected<std::pair<int, std::string>> runTool(const std::vector<std::string> &argv) {
  ExecutionRequest request;
  request.argv = argv;
  for (char **e = environ; *e; ++e)
    request.env.emplace_back(*e);
  ExecutionResult r = LocalExecutor().run(request);
  if (r.spawnFailed)
    return Error{"cannot run " + argv.front() + ": " + r.spawnError};
  const ExecutionOutput &out = r.output;
  const int status = out.timedOut ? 128 + 9 : out.signal ? 128 + out.signal : out.exitCode;
  return std::pair(status, out.stdoutText + out.stderrTail);
}

std::string firstLine(std::string text) {
  text = text.substr(0, text.find('\n'));
  return text;
}

Expected<Side> resolve(const std::string &spelling, const std::string &repo) {
  Side side{spelling, "", "", compareSystemName(spelling), ""};
  std::error_code ec;
  if (fs::is_directory(spelling, ec)) {
    const fs::path path = fs::absolute(spelling, ec).lexically_normal();
    side.source = path.string();
    // Named after its last component: old/ -> "old".
    side.name = compareSystemName(path.has_filename() ? path.filename().string()
                                                      : path.parent_path().filename().string());
    return side;
  }
  auto r = runTool({"git", "-C", repo, "rev-parse", "--verify", "--quiet", spelling + "^{commit}"});
  if (!r)
    return Error{r.error()};
  if (r->first != 0)
    return Error{"'" + spelling + "' is neither a directory nor a revision of the git repository " +
                 "at '" + repo + "'" + (r->second.empty() ? "" : ": " + firstLine(r->second))};
  side.commit = firstLine(r->second);
  return side;
}

// The top of the repository's working tree: `git archive` run in a
// subdirectory would export that subdirectory only.
Expected<std::string> repositoryTop(const std::string &repo) {
  auto r = runTool({"git", "-C", repo, "rev-parse", "--show-toplevel"});
  if (!r)
    return Error{r.error()};
  if (r->first != 0)
    return Error{"cannot find the top of the git repository at '" + repo +
                 "': " + firstLine(r->second)};
  return firstLine(r->second);
}

// The revision's files, exported once into <dir>/src/<commit> (through a
// temporary directory renamed at the end: an interrupted export is redone).
Status exportRevision(Side &side, const std::string &repo, const fs::path &dir) {
  const fs::path target = dir / "src" / side.commit;
  side.source = target.string();
  std::error_code ec;
  if (fs::is_directory(target, ec))
    return {};
  const fs::path partial = dir / "src" / (side.commit + ".partial");
  fs::remove_all(partial, ec);
  fs::create_directories(partial, ec);
  if (ec)
    return Error{"cannot create '" + partial.string() + "': " + ec.message()};
  const std::string tar = partial.string() + ".tar";
  for (const std::vector<std::string> &argv :
       {std::vector<std::string>{"git", "-C", repo, "archive", "--format=tar", "-o", tar,
                                 side.commit},
        std::vector<std::string>{"tar", "-x", "-f", tar, "-C", partial.string()}}) {
    auto r = runTool(argv);
    if (!r)
      return Error{r.error()};
    if (r->first != 0)
      return Error{"cannot export " + side.spelling + " (" + argv.front() + " " + argv[3] +
                   "): " + firstLine(r->second)};
  }
  fs::remove(tar, ec);
  fs::rename(partial, target, ec);
  if (ec)
    return Error{"cannot rename '" + partial.string() + "': " + ec.message()};
  return {};
}

// A command as literal shell text in a campaign file: braces are not
// placeholders there ("{{" is a literal "{").
std::string literalShell(const std::string &command) {
  std::string out;
  for (char c : command) {
    out += c;
    if (c == '{')
      out += '{';
  }
  return out;
}

Expected<toml::table> measureTable(const std::string &measure) {
  // Several metrics, the decision on the first: "sim-cycles,wall", or after
  // an iteration source, "records,sim-cycles" (a regex keeps its commas).
  if (std::size_t comma = measure.find(',');
      comma != std::string::npos && measure.rfind("regex:", 0) != 0) {
    auto table = measureTable(measure.substr(0, comma));
    if (!table)
      return table;
    toml::array metrics;
    if (*(*table)["source"].value<std::string>() == "none")
      metrics.push_back((*table)["metric"].value_or(std::string("wall")));
    table->erase("metric");
    for (std::size_t at = comma + 1; at <= measure.size();) {
      const std::size_t end = std::min(measure.find(',', at), measure.size());
      const std::string name = measure.substr(at, end - at);
      if (!parseEnum<Metric>(name))
        return Error{"--measure: '" + name +
                         "' after the first is not a metric (wall, cpu, "
                         "task-clock, sim-cycles, ...: docs/measure.md)",
                     ErrorKind::Usage};
      metrics.push_back(name);
      at = end + 1;
    }
    table->insert_or_assign("metrics", std::move(metrics));
    return table;
  }
  if (measure == "none" || measure == "wall" || measure == "gbench" || measure == "records")
    return toml::table{{"source", measure == "wall" ? "none" : measure}};
  if (parseEnum<Metric>(measure)) // cpu, rss, task-clock, instructions, sim-cycles, ...
    return toml::table{{"source", "none"}, {"metric", measure}};
  if (measure.rfind("regex:", 0) == 0 && measure.size() > 6)
    return toml::table{{"source", "regex"}, {"regex", measure.substr(6)}};
  return Error{"--measure: expected a metric (wall, cpu, user, sys, rss, a counter such as "
               "task-clock or instructions, a simulated metric such as sim-instructions: "
               "docs/measure.md), regex:REGEX, gbench or records, not '" +
                   measure + "'",
               ErrorKind::Usage};
}

// A "NAME=COMMAND" argument split: the text before the first '=' is the
// name when it is one (a system name); "./bench --n=3" has none (a space
// comes first), nor has "X=1 ./bench" unless written "fast=X=1 ./bench".
struct NamedCommand {
  std::string name; // "" when unnamed
  std::string command;
};

NamedCommand splitName(const std::string &text) {
  const std::size_t eq = text.find('=');
  if (eq != std::string::npos && eq > 0 &&
      compareSystemName(text.substr(0, eq)) == text.substr(0, eq))
    return {text.substr(0, eq), text.substr(eq + 1)};
  return {"", text};
}

// Names the unnamed commands as a reader would: by their program ("gzip"),
// else by their whole text ("gzip_-9_f"), else numbered ("gzip_-9_f-2").
// A command's text as a name: its words joined by '_' ("gzip -9 <f" ->
// "gzip_-9_f").
std::string wordsName(const std::string &command) {
  std::string name;
  for (char c : compareSystemName(command))
    if (c != '_' || (!name.empty() && name.back() != '_'))
      name += c;
  while (!name.empty() && name.back() == '_')
    name.pop_back();
  return name.empty() ? "command" : name;
}

void nameCommands(std::vector<NamedCommand> &commands) {
  auto programOf = [](const std::string &command) {
    const std::string word = command.substr(0, command.find_first_of(" \t\n"));
    return compareSystemName(word.substr(word.rfind('/') + 1));
  };
  // Decided before any is named, so that two commands of one program are
  // both named by their text.
  std::vector<std::string> names;
  for (const NamedCommand &c : commands) {
    const std::string program = programOf(c.command);
    const bool shared =
        std::count_if(commands.begin(), commands.end(), [&](const NamedCommand &o) {
          return o.name == program || (o.name.empty() && programOf(o.command) == program);
        }) > 1;
    names.push_back(!c.name.empty() ? c.name : shared ? wordsName(c.command) : program);
  }
  // An unnamed one that meets a name taken before it, or given after it,
  // is numbered; two given names alike are the campaign's error.
  auto taken = [&](const std::string &name, std::size_t i) {
    for (std::size_t j = 0; j < commands.size(); ++j)
      if (j != i && (j < i || !commands[j].name.empty()) && names[j] == name)
        return true;
    return false;
  };
  for (std::size_t i = 0; i < commands.size(); ++i) {
    if (!commands[i].name.empty())
      continue;
    std::string unique = names[i];
    for (int n = 2; taken(unique, i); ++n)
      unique = names[i] + "-" + std::to_string(n);
    names[i] = commands[i].name = unique;
  }
}

// Writes the campaign file, unless it already holds the same text (its
// digest identifies the campaign: a rerun resumes it).
Status writeCampaign(const toml::table &campaign, const std::string &file) {
  std::ostringstream text;
  text << "# Written by `alea compare`; `alea run` and `alea report` work on it.\n"
       << campaign << "\n";
  std::ifstream old(file, std::ios::binary);
  std::string before((std::istreambuf_iterator<char>(old)), std::istreambuf_iterator<char>());
  if (before == text.str())
    return {};
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out << text.str();
  if (!out)
    return Error{"cannot write '" + file + "'"};
  return {};
}

// The campaign files alea compare and history write: a new version when what
// they write changes (v2: the built programs as artifacts), so that a
// comparison made by an older alea is not resumed with another file (its
// store would refuse it) but made again in a directory of its own.
constexpr const char *kRevisionCampaignVersion = "v2";

// What the keys of a comparison and a history take from the request's
// commands: the runs and the files named (none: the key of an older alea).
std::uint64_t mixCommands(std::uint64_t key, const CompareRequest &r) {
  for (const std::string &run : r.runs)
    key = mixSeed(key, run);
  for (const std::string &artifact : r.artifacts)
    key = mixSeed(key, "artifact " + artifact);
  return key;
}

// What defines the comparison, for its directory's name.
std::uint64_t comparisonKey(const CompareRequest &r, const Side &a, const Side &b) {
  std::uint64_t key = mixSeed(hashName("alea compare"), kRevisionCampaignVersion);
  for (const std::string &part :
       {a.commit.empty() ? a.source : a.commit, b.commit.empty() ? b.source : b.commit, r.build,
        r.measure, std::to_string(r.builds), std::to_string(r.executions)})
    key = mixSeed(key, part);
  return mixCommands(key, r);
}

std::string defaultDir(std::uint64_t key, const char *kind = "compare") {
  const char *cache = std::getenv("XDG_CACHE_HOME");
  const char *home = std::getenv("HOME");
  fs::path base = cache && *cache ? fs::path(cache)
                  : home && *home ? fs::path(home) / ".cache"
                                  : fs::temp_directory_path();
  return (base / "alea" / kind / formatSeed(key).substr(2)).string();
}

} // namespace

std::string compareSystemName(const std::string &spelling) {
  std::string name;
  for (char c : spelling) {
    const bool kept =
        std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' || c == '+';
    name += kept ? c : c == '~' ? '-' : '_'; // HEAD~1 -> HEAD-1
  }
  if (name.empty() || name.front() == '.' || name.front() == '-')
    name = "r" + name;
  return name.substr(0, 64);
}

namespace {

// The benchmarks of --run, as campaign tables.
toml::array benchmarkTables(const std::vector<std::string> &runs, const toml::table &measure) {
  toml::array benchmarks;
  int unnamed = 0;
  for (const std::string &run : runs) {
    NamedCommand c = splitName(run);
    if (c.name.empty()) // run, run-2, run-3, ...
      c.name = ++unnamed == 1 ? "run" : "run-" + std::to_string(unnamed);
    benchmarks.push_back(
        toml::table{{"name", c.name}, {"shell", literalShell(c.command)}, {"measure", measure}});
  }
  return benchmarks;
}

// The programs the run commands start by a relative path that the build
// makes (none of the sides' files has it): "./programs/lz4 -9 f" gives
// "programs/lz4". They are the builds' artifacts, so that every build's
// layout is fingerprinted and checked as a campaign file's are (identical
// layouts: a build that ignores $CC is not randomized). A command that starts
// with a program on PATH, an absolute path, a file of the revision (a
// script) or anything a shell would expand adds none.
std::vector<std::string> builtPrograms(const std::vector<std::string> &runs,
                                       const std::vector<Side> &sides) {
  std::vector<std::string> programs;
  for (const std::string &run : runs) {
    const std::string command = splitName(run).command;
    const std::size_t start = command.find_first_not_of(" \t");
    if (start == std::string::npos)
      continue;
    std::string word = command.substr(start, command.find_first_of(" \t\n", start) - start);
    const bool plain = std::all_of(word.begin(), word.end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '/' || c == '.' || c == '_' ||
             c == '-' || c == '+';
    });
    if (!plain || word.front() == '/' || word.find('/') == std::string::npos)
      continue;
    const fs::path path = fs::path(word).lexically_normal();
    if (path.empty() || *path.begin() == ".." || path.filename().empty())
      continue;
    const bool inSources = std::any_of(sides.begin(), sides.end(), [&](const Side &side) {
      std::error_code ec;
      return fs::exists(fs::path(side.source) / path, ec);
    });
    if (!inSources && std::find(programs.begin(), programs.end(), path.string()) == programs.end())
      programs.push_back(path.string());
  }
  return programs;
}

// The campaign of `sides` (revisions or directories; `baseline` indexes the
// baseline) built with request.build and run with request.runs, in `dir`:
// the revisions exported, the campaign file written. `design` "" is the
// campaign default.
Expected<ComparePlan> revisionCampaign(const CompareRequest &request, std::vector<Side> &sides,
                                       std::size_t baseline, const fs::path &dir,
                                       const std::string &title, const std::string &design) {
  auto measure = measureTable(request.measure);
  if (!measure)
    return Error{measure.error(), measure.errorKind()};
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec)
    return Error{"cannot create '" + dir.string() + "': " + ec.message()};
  std::string top;
  std::uint64_t seed = hashName("revisions");
  for (Side &side : sides) {
    if (!side.commit.empty()) {
      if (top.empty()) {
        auto t = repositoryTop(request.repo);
        if (!t)
          return Error{t.error()};
        top = *t;
      }
      if (Status s = exportRevision(side, top, dir); !s)
        return Error{s.error()};
    }
    seed = mixSeed(seed, side.commit.empty() ? side.source : side.commit);
  }
  if (sides.size() == 2) // the seed of `alea compare` before history existed
    seed = mixSeed(hashName(sides[0].commit.empty() ? sides[0].source : sides[0].commit),
                   hashName(sides[1].commit.empty() ? sides[1].source : sides[1].commit));

  // The files named (--artifact), then the programs the runs start with, each once.
  toml::array artifacts;
  auto keep = [&artifacts](const std::string &path) {
    if (std::none_of(artifacts.begin(), artifacts.end(),
                     [&](const toml::node &n) { return n.value<std::string>() == path; }))
      artifacts.push_back(path);
  };
  for (const std::string &artifact : request.artifacts)
    keep(fs::path(artifact).lexically_normal().string());
  for (const std::string &program : builtPrograms(request.runs, sides))
    keep(program);
  toml::array systems;
  for (std::size_t i = 0; i < sides.size(); ++i) {
    toml::table system{{"name", sides[i].name},
                       {"shell", "cp -R " + shellQuote(literalShell(sides[i].source)) + "/. . && " +
                                     literalShell(request.build)},
                       {"artifacts", artifacts}};
    if (i == baseline)
      system.insert("baseline", true);
    systems.push_back(std::move(system));
  }
  toml::table head{{"name", title}, {"seed", formatSeed(seed)}};
  if (!design.empty())
    head.insert("design", design);
  toml::table campaign{
      {"campaign", std::move(head)},
      {"levels", toml::table{{"builds", request.builds}, {"executions", request.executions}}},
      {"system", std::move(systems)},
      {"benchmark", benchmarkTables(request.runs, *measure)}};
  ComparePlan plan{(dir / "compare.toml").string(),
                   (dir / "campaign").string(),
                   sides[baseline].name,
                   sides[baseline == 0 ? 1 : 0].name,
                   {}};
  for (const Side &side : sides)
    plan.revisions.push_back({side.name, side.commit, side.subject});
  if (Status s = writeCampaign(campaign, plan.campaignFile); !s)
    return Error{s.error()};
  return plan;
}

Status checkCommands(const CompareRequest &request) {
  if (request.build.empty())
    return Error{"--build: the command that builds a revision is required (e.g. 'make')"};
  if (request.runs.empty())
    return Error{"--run: at least one benchmark command is required (e.g. 'k1=./bench k1')"};
  for (const std::string &artifact : request.artifacts) {
    const fs::path path = fs::path(artifact).lexically_normal();
    if (artifact.empty() || path.is_absolute() || path == "." || *path.begin() == ".." ||
        path.filename().empty())
      return Error{"--artifact '" + artifact +
                       "': a file the build makes, relative to its directory (e.g. build/prog)",
                   ErrorKind::Usage};
  }
  return {};
}

} // namespace

Expected<ComparePlan> prepareCompare(const CompareRequest &request) {
  // Decide: the two sides, the benchmarks, the directory.
  if (Status s = checkCommands(request); !s)
    return Error{s.error(), ErrorKind::Usage}; // a flag missing or wrong
  auto a = resolve(request.a, request.repo);
  if (!a)
    return Error{a.error()};
  auto b = resolve(request.b, request.repo);
  if (!b)
    return Error{b.error()};
  if (b->name == a->name) { // `alea compare HEAD HEAD`: two systems all the same
    a->name += "-a";
    b->name += "-b";
  }
  if (auto measure = measureTable(request.measure); !measure)
    return Error{measure.error(), measure.errorKind()};
  const fs::path dir =
      request.dir.empty() ? defaultDir(comparisonKey(request, *a, *b)) : request.dir;
  // Act: export the revisions, then write the campaign file.
  std::vector<Side> sides{*a, *b};
  return revisionCampaign(request, sides, 0, dir, request.a + " vs " + request.b, "");
}

namespace {

// The commits `spellings` name, oldest first, each a revision or a range A..B
// (A, then every commit after it up to B along first parents), with its
// short hash as its name and its subject; a commit named twice is an error.
Expected<std::vector<Side>> expandRevisions(const std::vector<std::string> &spellings,
                                            const std::string &repo) {
  std::vector<Side> sides;
  for (const std::string &spelling : spellings) {
    std::vector<std::string> commits{spelling};
    if (const std::size_t dots = spelling.find(".."); dots != std::string::npos) {
      auto list = runTool({"git", "-C", repo, "rev-list", "--reverse", "--first-parent", spelling});
      if (!list)
        return Error{list.error()};
      if (list->first != 0)
        return Error{"cannot list the revisions " + spelling + ": " + firstLine(list->second)};
      commits = {spelling.substr(0, dots)};
      std::istringstream lines(list->second);
      for (std::string line; std::getline(lines, line);)
        if (!line.empty())
          commits.push_back(line);
    }
    for (const std::string &one : commits) {
      auto side = resolve(one, repo);
      if (!side)
        return Error{side.error()};
      if (side->commit.empty())
        return Error{"'" + one + "' is a directory, not a git revision", ErrorKind::Usage};
      sides.push_back(std::move(*side));
    }
  }
  for (Side &side : sides) {
    for (const Side &before : sides) {
      if (&before == &side)
        break;
      if (before.commit == side.commit)
        return Error{"revision " + side.spelling + " is listed twice (commit " +
                         side.commit.substr(0, 12) + ")",
                     ErrorKind::Usage};
    }
    auto info = runTool({"git", "-C", repo, "log", "-1", "--format=%h%n%s", side.commit});
    if (!info)
      return Error{info.error()};
    std::istringstream lines(info->second);
    std::getline(lines, side.name);
    std::getline(lines, side.subject);
    side.name = compareSystemName(side.name);
  }
  return sides;
}

} // namespace

Expected<std::vector<RevisionInfo>> listRevisions(const std::vector<std::string> &revisions,
                                                  const std::string &repo) {
  auto sides = expandRevisions(revisions, repo);
  if (!sides)
    return Error{sides.error(), sides.errorKind()};
  std::vector<RevisionInfo> out;
  for (const Side &side : *sides)
    out.push_back({side.name, side.commit, side.subject});
  return out;
}

Expected<ComparePlan> prepareHistory(const CompareRequest &request) {
  // Decide: the revisions (ranges expanded), the reference, the directory.
  if (Status s = checkCommands(request); !s)
    return Error{s.error(), ErrorKind::Usage};
  auto expanded = expandRevisions(request.revisions, request.repo);
  if (!expanded)
    return Error{expanded.error(), expanded.errorKind()};
  std::vector<Side> sides = std::move(*expanded);
  if (sides.size() < 2)
    return Error{"a history needs two or more revisions (e.g. HEAD~5..HEAD)", ErrorKind::Usage};
  std::size_t reference = 0;
  if (!request.reference.empty()) {
    auto ref = resolve(request.reference, request.repo);
    if (!ref)
      return Error{ref.error()};
    auto it = std::find_if(sides.begin(), sides.end(),
                           [&](const Side &s) { return s.commit == ref->commit; });
    if (it == sides.end())
      return Error{"--reference " + request.reference + " is not one of the revisions",
                   ErrorKind::Usage};
    reference = static_cast<std::size_t>(it - sides.begin());
  }
  std::uint64_t key = mixSeed(hashName("alea history"), kRevisionCampaignVersion);
  for (const Side &side : sides)
    key = mixSeed(key, side.commit);
  for (const std::string &part : {request.build, request.measure, std::to_string(request.builds),
                                  std::to_string(request.executions), std::to_string(reference)})
    key = mixSeed(key, part);
  key = mixCommands(key, request);
  const fs::path dir = request.dir.empty() ? defaultDir(key, "history") : request.dir;
  // Act. Unpaired: each revision's build means are independent, as the
  // step detection over revisions assumes (revision_steps.hpp).
  return revisionCampaign(request, sides, reference, dir,
                          "history of " + std::to_string(sides.size()) + " revisions", "unpaired");
}

Expected<ComparePlan> prepareCommandCompare(const CompareRequest &request) {
  // Decide: the systems (one per command), the campaign, its directory.
  if (request.commands.size() < 2)
    return Error{"--cmd: give two or more commands to compare (the first is the baseline)",
                 ErrorKind::Usage};
  if (!request.a.empty() || !request.runs.empty() || !request.build.empty())
    return Error{"--cmd compares commands as they are: no revisions, --build or --run with it",
                 ErrorKind::Usage};
  auto measure = measureTable(request.measure);
  if (!measure)
    return Error{measure.error(), measure.errorKind()};
  std::vector<NamedCommand> commands;
  for (const std::string &command : request.commands)
    commands.push_back(splitName(command));
  nameCommands(commands);
  std::uint64_t key = hashName("alea compare --cmd");
  for (const std::string &part :
       {request.workdir, request.measure, std::to_string(request.executions)})
    key = mixSeed(key, part);
  for (const NamedCommand &c : commands)
    key = mixSeed(mixSeed(key, c.name), c.command);
  const fs::path dir = request.dir.empty() ? defaultDir(key) : request.dir;

  // One benchmark whose shell runs the system's command: system names are
  // letters, digits and _ - . +, literal in a case pattern.
  toml::array systems;
  std::string dispatch = "case {system} in\n";
  std::string title;
  for (const NamedCommand &c : commands) {
    toml::table system{{"name", c.name}, {"shell", "true"}, {"artifacts", toml::array{}}};
    if (&c == &commands.front())
      system.insert("baseline", true);
    systems.push_back(std::move(system));
    dispatch += c.name + ")\n" + literalShell(c.command) + "\n;;\n";
    title += (title.empty() ? "" : " vs ") + c.name;
  }
  dispatch += "esac";
  toml::table benchmark{{"name", "command"}, {"shell", dispatch}, {"measure", *measure}};
  if (!request.workdir.empty())
    benchmark.insert("workdir", request.workdir);
  toml::table campaign{
      {"campaign", toml::table{{"name", title}, {"seed", formatSeed(key)}, {"design", "unpaired"}}},
      {"levels", toml::table{{"builds", 1}, {"executions", request.executions}}},
      {"system", std::move(systems)},
      {"benchmark", toml::array{std::move(benchmark)}}};

  // Act: the directory and the file.
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec)
    return Error{"cannot create '" + dir.string() + "': " + ec.message()};
  ComparePlan plan{(dir / "compare.toml").string(),
                   (dir / "campaign").string(),
                   commands.front().name,
                   commands[1].name,
                   {}};
  if (Status s = writeCampaign(campaign, plan.campaignFile); !s)
    return Error{s.error()};
  return plan;
}

std::string findCompareFile(const std::string &from) {
  std::error_code ec;
  for (fs::path dir = fs::absolute(from, ec).lexically_normal();; dir = dir.parent_path()) {
    if (fs::is_regular_file(dir / "alea.toml", ec))
      return (dir / "alea.toml").string();
    if (fs::exists(dir / ".git", ec) || dir == dir.parent_path())
      return "";
  }
}

Expected<CompareTable> readCompareTable(const std::string &file) {
  CompareTable t;
  t.file = file;
  toml::table root;
  try {
    root = toml::parse_file(file);
  } catch (const toml::parse_error &e) {
    return Error{file + ":" + std::to_string(e.source().begin.line) + ":" +
                 std::to_string(e.source().begin.column) + ": " + std::string(e.description())};
  }
  const toml::table *table = root["compare"].as_table();
  if (!table)
    return t; // present = false
  t.present = true;
  auto at = [&](const toml::node &n) {
    return file + ":" + std::to_string(n.source().begin.line) + ":" +
           std::to_string(n.source().begin.column) + ": ";
  };
  for (const auto &[key, node] : *table) {
    const std::string k(key.str());
    auto text = [&]() -> Expected<std::string> {
      if (auto v = node.value<std::string>(); v && !v->empty())
        return *v;
      return Error{at(node) + "compare." + k + ": expected a non-empty string"};
    };
    auto count = [&](int lo) -> Expected<int> {
      if (auto v = node.value<std::int64_t>(); v && *v >= lo && *v <= 100000)
        return static_cast<int>(*v);
      return Error{at(node) + "compare." + k + ": expected an integer from " + std::to_string(lo)};
    };
    if (k == "build" || k == "measure") {
      auto v = text();
      if (!v)
        return Error{v.error()};
      (k == "build" ? t.build : t.measure) = *v;
    } else if (k == "until_half_width") {
      if (auto v = node.value<double>(); v && node.is_floating_point())
        t.untilHalfWidth = std::to_string(*v);
      else if (auto s = text())
        t.untilHalfWidth = *s;
      else
        return Error{at(node) + "compare.until_half_width: expected \"2%\" or 0.02"};
    } else if (k == "time_budget") {
      auto v = node.value<double>();
      if (!v || !(*v > 0))
        return Error{at(node) + "compare.time_budget: expected seconds (a positive number)"};
      t.timeBudget = *v;
    } else if (k == "builds" || k == "executions" || k == "max_builds") {
      auto v = count(k == "executions" ? 1 : 2);
      if (!v)
        return Error{v.error()};
      (k == "builds" ? t.builds : k == "executions" ? t.executions : t.maxBuilds) = *v;
    } else if (k == "build_cache") {
      if (!node.is_boolean())
        return Error{at(node) + "compare.build_cache: expected true or false"};
      t.buildCache = node.value<bool>();
    } else if (k == "artifacts") {
      const toml::array *list = node.as_array();
      if (!list)
        return Error{at(node) + "compare.artifacts: expected a list of paths (strings)"};
      for (const toml::node &item : *list) {
        auto v = item.value<std::string>();
        if (!v || v->empty())
          return Error{at(item) + "compare.artifacts: expected paths (strings)"};
        t.artifacts.push_back(*v);
      }
    } else if (k == "run") {
      if (const toml::array *list = node.as_array()) {
        for (const toml::node &item : *list) {
          auto v = item.value<std::string>();
          if (!v || v->empty())
            return Error{at(item) + "compare.run: expected commands (strings)"};
          t.runs.push_back(*v);
        }
      } else if (const toml::table *named = node.as_table()) {
        for (const auto &[name, command] : *named) {
          auto v = command.value<std::string>();
          if (!v || v->empty())
            return Error{at(command) + "compare.run." + std::string(name.str()) +
                         ": expected a command (a string)"};
          t.runs.push_back(std::string(name.str()) + "=" + *v);
        }
      } else {
        return Error{at(node) + "compare.run: expected a list of commands or a table of "
                                "name = command"};
      }
      if (t.runs.empty())
        return Error{at(node) + "compare.run: no command"};
    } else {
      return Error{at(node) + "unknown key compare." + k +
                   " (expected build, run, measure, artifacts, "
                   "builds, executions, until_half_width, time_budget, "
                   "max_builds or build_cache)"};
    }
  }
  return t;
}

} // namespace alea::runner

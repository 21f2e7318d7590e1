// The campaigns `alea compare A B`, `alea compare --cmd`, `alea history` and
// `alea bisect` write (docs/compare.md, docs/history.md): "is B faster than
// A?", made from two git revisions (or two directories, or commands) and a
// build and run command, so that the common case needs no campaign file. Each revision is
// exported once (`git archive`, never a checkout: the user's working tree and
// index are not touched) into a directory alea owns; every build of a system
// copies its sources into the build's own directory and runs the build
// command there, through the wrappers, under a seed derived from the
// revisions. The result is an ordinary campaign file and store (`alea run`,
// `alea report` work on them), in a directory named after everything that
// defines the comparison, so that running the same command again resumes.
#pragma once

#include "alea/expected.hpp"

#include <optional>
#include <string>
#include <vector>

namespace alea::runner {

struct CompareRequest {
  std::string a, b; // git revisions of the repository at `repo`, or directories
  // Instead of A and B: two or more commands compared as they are, without
  // builds (`alea compare --cmd A --cmd B`, hyperfine's question): each
  // "NAME=COMMAND" or "COMMAND" is a system, the first the baseline, run by
  // /bin/sh in the current directory (`workdir`).
  std::vector<std::string> commands;
  std::string workdir;
  // `alea history`: revisions oldest first, each a revision or a range A..B
  // (A, then the commits after it up to B along first parents); `reference`
  // (one of them; "" = the first) is the baseline of every ratio.
  std::vector<std::string> revisions;
  std::string reference;
  std::string repo = "."; // where revisions are resolved
  std::string build;      // shell, run in a fresh copy of the sources for each build
  // The benchmarks: "NAME=COMMAND" or just "COMMAND" (named run, run-2, ...); shell, run
  // in the build's directory. The text before the first '=' is the name when
  // it is one (letters, digits, '_', '-', '.', '+'): a command that starts with
  // an assignment needs a name ("fast=X=1 ./bench"). Braces are literal (no
  // campaign placeholders).
  std::vector<std::string> runs;
  // A metric word (wall = none, cpu, rss, task-clock, sim-instructions, ...),
  // regex:RE, gbench or records (docs/measure.md).
  std::string measure = "none";
  // Files the build makes (paths relative to the build's directory), kept
  // with each build and fingerprinted, as a campaign system's `artifacts`;
  // besides the programs the runs start with (./bench, build/prog), found
  // without being named.
  std::vector<std::string> artifacts;
  // Per revision; commands: one build (nothing to build), `executions` to start.
  int builds = 4, executions = 3;
  // Where the comparison lives ("" = $XDG_CACHE_HOME/alea/compare/<key>, or
  // ~/.cache/...): the campaign file, the store, the exported revisions.
  std::string dir;
};

// One revision (or directory, or command) of the campaign, in order.
struct RevisionInfo {
  std::string name;    // its system name
  std::string commit;  // full hash; "" for a directory or a command
  std::string subject; // the commit's first line (history only)
};

struct ComparePlan {
  std::string campaignFile;            // <dir>/compare.toml
  std::string campaignDir;             // <dir>/campaign: its store and builds
  std::string baseline, candidate;     // the systems' names, as the report says them
  std::vector<RevisionInfo> revisions; // every system, in the campaign's order
};

// Resolves A and B, exports the revisions (once) and writes the campaign
// file (unchanged when it is already there). The campaign seed is derived
// from the two revisions' commits (a directory: its absolute path), so that
// a rerun draws the same layouts.
Expected<ComparePlan> prepareCompare(const CompareRequest &request);

// The campaign of `commands`: one benchmark, "command", that runs the
// system's command; one build per system that builds nothing, so the
// executions are the top level (environment padding, heap offset and ASLR
// vary per execution; no layouts are drawn), in the unpaired design. The
// seed is derived from the commands.
Expected<ComparePlan> prepareCommandCompare(const CompareRequest &request);

// `alea history` (docs/history.md): the campaign of request.revisions, one
// system per commit named by its short hash, the reference the baseline,
// built and run as prepareCompare's, in the unpaired design (each
// revision's build means independent, as the step detection assumes); its
// directory $XDG_CACHE_HOME/alea/history/<key>.
Expected<ComparePlan> prepareHistory(const CompareRequest &request);

// The commits `revisions` name, oldest first: each a revision or a range A..B
// (A, then every commit after it up to B along first parents), with its
// short hash (`name`) and subject (`alea history`, `alea bisect`).
Expected<std::vector<RevisionInfo>> listRevisions(const std::vector<std::string> &revisions,
                                                  const std::string &repo);

// The `[compare]` table of a checked-in file (docs/compare.md), so that
// `alea compare A B` and `alea history` need no flags in a project that has
// one: what the flags would say, each key optional; a flag given on the
// command line wins.
//   [compare]
//   build = "make -j2"
//   run = ["k1=./bench k1", "./bench k2"]   # or a table: [compare.run] k1 = "./bench k1"
//   measure = "regex:time ([0-9.]+)"
//   builds = 4, executions = 3, until_half_width = "2%", time_budget = 300, max_builds = 30
//   build_cache = true
struct CompareTable {
  std::string file;     // where it was read
  bool present = false; // the file has a [compare] table
  std::optional<std::string> build, measure, untilHalfWidth;
  std::vector<std::string> runs, artifacts;
  std::optional<int> builds, executions, maxBuilds;
  std::optional<double> timeBudget;
  std::optional<bool> buildCache;
};

// The file `alea.toml` of the directory `from` or of the nearest directory
// above it, up to the top of its git repository (the first directory with a
// .git); "" when there is none.
std::string findCompareFile(const std::string &from);

// Reads the [compare] table of `file` (present = false when it has none);
// unknown keys and wrong types are errors (with the line and column).
Expected<CompareTable> readCompareTable(const std::string &file);

// A system name (letters, digits, '_', '-', '.', '+') for a revision as the
// user wrote it, or a directory's last component: "HEAD~1" -> "HEAD-1",
// "v1.0^" -> "v1.0_" (the two systems of `alea compare HEAD HEAD` are
// HEAD-a and HEAD-b).
std::string compareSystemName(const std::string &spelling);

} // namespace alea::runner

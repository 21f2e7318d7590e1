// Step 2 of `alea report` (campaign_report.hpp): from the stored campaign to
// the engine's report plus what only a campaign can tell. The statistics are the
// engine's (analysis/report.hpp, Kalibera & Jones TR 2012 and Li, Chen & Peng
// for suites); this file only decides what data go in, with which options
// (the campaign's confidence, threshold and seed; planner costs measured by
// the campaign itself), and derives the campaign warnings:
//  - failed executions grouped by system, benchmark and cause, and failed
//    builds: recorded as failures, never as data (issue 4);
//  - an incomplete plan (the campaign was interrupted: resume with `alea run`);
//  - benchmarks that cannot be analysed (a system with < 2 builds of data);
//  - machine-state changes recorded between executions;
//  - identical layouts: two builds of one system with equal layout fingerprint
//    (or equal binary when no fingerprint is known), with the program's
//    function count and the odds of such a collision (analysis/collision.hpp):
//    expected for a tiny program, else the randomization did not take;
//  - warm-up: executions that never reach a steady state, and warm-up left in
//    the measured iterations (analysis/changepoint.hpp on each execution's
//    iterations, warm-up ones included);
//  - ODR violations: builds whose link record says that the link's objects
//    define a weak/inline symbol differently (docs/wrapper.md "ODR check");
//  - layout sensitivity: best and worst build mean per system (max/min).
#include "alea/model/campaign_report.hpp"

#include "alea/file.hpp"
#include "alea/lists.hpp"

#include "alea/analysis/changepoint.hpp"
#include "alea/analysis/htest.hpp"

#include "alea/random.hpp"
#include "alea/words.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <set>
#include <tuple>

namespace alea::model {

namespace {

// The last `lines` lines of a stderr tail, trimmed.
std::string lastLines(const std::string &text, int lines) {
  std::string t = text;
  while (!t.empty() && (t.back() == '\n' || t.back() == ' '))
    t.pop_back();
  std::size_t pos = t.size();
  for (int i = 0; i < lines && pos != std::string::npos && pos > 0; ++i)
    pos = t.rfind('\n', pos - 1);
  return pos == std::string::npos || pos == 0 ? t : t.substr(pos + 1);
}

std::string failureCause(const FailedExecution &f) {
  if (!f.error.empty())
    return f.error;
  if (f.status == ExecutionStatus::Signal)
    return "killed by signal " + std::to_string(f.signal);
  if (f.status == ExecutionStatus::Exit)
    return "exit status " + std::to_string(f.exitCode);
  return enumName(f.status);
}

// Per (benchmark, system): build index -> execution index -> values in order.
using Series = std::map<int, std::map<int, std::vector<double>>>;
using Key = std::pair<std::string, std::string>; // benchmark, system

std::uint64_t parseHexSeed(const std::string &s) {
  std::uint64_t v = 0;
  return alea::parseSeed(s, v) ? v : 0;
}

} // namespace

namespace {

// A campaign that planned one build per system drew no layouts (`alea
// compare --cmd`, levels.builds = 1): its executions are the top level.
bool executionsOnTop(const CampaignData &data) { return data.plannedBuilds == 1; }

// The design in one sentence.
std::string designSentence(Design design) {
  if (design == Design::Interleaved)
    return "design: interleaved pairs (blocks of build i of every system, close in time; RMIT, "
           "Abedi & Brecht 2017): ratios paired by build";
  if (design == Design::Duet)
    return "design: duet (build i of every system run at the same time on disjoint CPUs; Bulej "
           "et al. 2020): ratios paired by build";
  return "design: unpaired (one random order of all executions): systems analysed as "
         "independent";
}

// The noise diagnosis of every benchmark, from the executions' conditions.
void diagnoseNoise(const CampaignData &data, CampaignReport &r) {
  analysis::NoiseOptions noiseOptions;
  noiseOptions.pairedDesign = pairedDesign(data.design);
  for (const auto &bench : data.benchmarks) {
    noiseOptions.simulated = data.simulated.contains(bench);
    std::vector<analysis::ExecutionObservation> obs;
    for (const auto &e : data.executions) {
      if (e.benchmark != bench)
        continue;
      auto sys = std::find(data.systems.begin(), data.systems.end(), e.system);
      analysis::ExecutionObservation o;
      o.system = static_cast<std::size_t>(sys - data.systems.begin());
      o.build = static_cast<std::size_t>(e.build);
      o.startedAt = e.startedAt;
      o.value = e.value;
      o.otherLoad = e.otherLoad;
      o.envPadding = static_cast<double>(e.envPadding);
      if (e.migrations)
        o.migrations = static_cast<double>(*e.migrations);
      if (e.involuntarySwitches)
        o.involuntarySwitches = static_cast<double>(*e.involuntarySwitches);
      o.cpuMhz = e.cpuMhz;
      o.pinned = !e.cpus.empty();
      o.aslrOn = !e.aslrOff;
      o.ranBusy = e.ranBusy;
      obs.push_back(o);
      r.ranBusy += e.ranBusy ? 1 : 0;
    }
    CampaignReport::Noise n;
    n.benchmark = bench;
    if (obs.empty()) {
      n.error = !data.importedFrom.empty()
                    ? "imported measurements carry no execution conditions: no load, CPU "
                      "frequency or migrations to relate them to"
                : data.executions.empty() && !data.measurements.empty()
                    ? "the store predates the recording of execution conditions"
                    : "no successful execution";
    } else if (auto d = analysis::diagnoseNoise(obs, noiseOptions); d) {
      n.diagnosis = std::move(*d);
    } else {
      n.error = d.error();
    }
    r.noise.push_back(std::move(n));
  }
  if (r.ranBusy > 0)
    r.warnings.push_back(counted(r.ranBusy, "execution") +
                         " ran while the machine was busy (the quiet gate gave up waiting)");
}

// Warm-up as changepoints see it (analysis/changepoint.hpp, the definition
// the pilot's warm-up uses too), per benchmark and system over each
// execution's whole series, its warm-up iterations first: executions that
// never reach a steady state, and warm-up left in the measured iterations (a
// quarter or more of the executions still warming up after the iterations
// dropped). Series shorter than 5 iterations say nothing either way.
void steadyStateWarnings(const CampaignData &data, const std::map<Key, Series> &measured,
                         std::vector<std::string> &warnings) {
  std::map<Key, Series> dropped;
  for (const auto &p : data.warmupMeasurements)
    dropped[{p.benchmark, p.system}][p.build][p.execution].push_back(p.value);
  for (const auto &bench : data.benchmarks)
    for (const auto &sys : data.systems) {
      const auto m = measured.find({bench, sys});
      if (m == measured.end())
        continue;
      const auto d = dropped.find({bench, sys});
      std::vector<analysis::SteadyState> states;
      std::vector<double> series;
      for (const auto &[build, execs] : m->second)
        for (const auto &[exec, values] : execs) {
          series.clear();
          if (d != dropped.end())
            if (auto b = d->second.find(build); b != d->second.end())
              if (auto e = b->second.find(exec); e != b->second.end())
                series = e->second;
          series.insert(series.end(), values.begin(), values.end());
          if (series.size() >= 5)
            states.push_back(analysis::classifySteadyState(series));
        }
      if (states.empty())
        continue;
      const analysis::WarmupSummary s = analysis::summarizeWarmup(states);
      const std::string of =
          " of " + counted(s.executions, "execution") + " of " + bench + " on " + sys;
      if (s.noSteadyState > 0) {
        std::size_t window = 0;
        for (const auto &st : states)
          if (st.kind == analysis::SteadyKind::NoSteadyState)
            window = std::max(window, st.window);
        warnings.push_back("warm-up: " + std::to_string(s.noSteadyState) + of +
                           " never reach a steady state (changepoints within their last " +
                           std::to_string(window) + " iterations)");
      }
      const auto kept = static_cast<std::size_t>(std::max(data.warmup, 0));
      std::size_t late = 0;
      for (const auto &st : states)
        late += st.kind == analysis::SteadyKind::Warmup && st.steadyStart.value_or(0) > kept;
      if (late > 0 && s.warmupIterations > kept)
        warnings.push_back(
            "warm-up: " + std::to_string(late) + of + " are still warming up after the " +
            std::to_string(kept) + " iterations dropped (the latest steady state starts at " +
            "iteration " + std::to_string(s.warmupIterations) + "): " +
            (data.importedFrom.empty()
                 ? "set levels.warmup to " + std::to_string(s.warmupIterations) + " or \"auto\""
                 : "leave out the first " + counted(s.warmupIterations, "iteration") +
                       " of each execution before importing"));
    }
}

// What a reader of the report needs to know about where and how it ran.
std::vector<std::pair<std::string, std::string>> campaignFacts(const CampaignData &data) {
  std::vector<std::pair<std::string, std::string>> f;
  if (data.machine) {
    const MachineState &m = *data.machine;
    f.push_back({"machine", describeMachine(m)});
    f.push_back({"kernel", m.kernel});
    f.push_back({"compilers", m.compilers});
  }
  // The targets are CampaignReport::targets, each with its machine.
  f.push_back({"campaign seed", data.seed});
  f.push_back({"factors", data.factors});
  std::string seeds;
  for (const auto &b : data.builds)
    seeds += (seeds.empty() ? "" : ", ") + b.system + " " + std::to_string(b.buildIndex) + ": " +
             formatSeed(b.seed);
  f.push_back({"build seeds", seeds});
  return f;
}

// The analysed benchmarks, each with the systems analysed (analysableBenchmarks).
using Analysed = std::map<std::string, std::set<std::string>>;

// The figures' numbers (analysis/figures.hpp) from a table in run order:
// executions sorted by the time they started (stores before schema 4 have no
// times: their executions follow in store order), so that the drift figure
// shows what the machine did over time.
std::vector<analysis::BenchmarkFigures> campaignFigures(const CampaignData &data,
                                                        const std::map<Key, Series> &series,
                                                        const Analysed &analysed,
                                                        const std::vector<std::string> &order,
                                                        double confidence) {
  analysis::Table table({"build", "execution", "iteration"});
  std::set<std::tuple<std::string, std::string, int, int>> added;
  auto add = [&](const std::string &sys, const std::string &bench, int build, int exec) {
    if (!analysed.count(bench) || !analysed.at(bench).count(sys) ||
        !added.insert({sys, bench, build, exec}).second)
      return;
    auto s = series.find({bench, sys});
    if (s == series.end())
      return;
    auto b = s->second.find(build);
    if (b == s->second.end())
      return;
    auto e = b->second.find(exec);
    if (e == b->second.end())
      return;
    const std::string bl = std::to_string(build), el = std::to_string(exec);
    for (std::size_t i = 0; i < e->second.size(); ++i) {
      const std::string il = std::to_string(i);
      const std::string_view units[] = {bl, el, il};
      table.add(sys, bench, units, e->second[i]);
    }
  };
  std::vector<const ExecutionConditions *> byStart;
  for (const auto &c : data.executions)
    byStart.push_back(&c);
  std::stable_sort(byStart.begin(), byStart.end(),
                   [](const auto *a, const auto *b) { return a->startedAt < b->startedAt; });
  for (const auto *c : byStart)
    add(c->system, c->benchmark, c->build, c->execution);
  for (const auto &[key, builds] : series)
    for (const auto &[build, execs] : builds)
      for (const auto &[exec, values] : execs)
        add(key.second, key.first, build, exec);
  if (table.size() == 0)
    return {};
  analysis::Table warmup({"build", "execution", "iteration"});
  for (const auto &p : data.warmupMeasurements) {
    if (!analysed.count(p.benchmark) || !analysed.at(p.benchmark).count(p.system))
      continue;
    const std::string bl = std::to_string(p.build), el = std::to_string(p.execution),
                      il = "w" + std::to_string(p.iteration);
    const std::string_view units[] = {bl, el, il};
    warmup.add(p.system, p.benchmark, units, p.value);
  }
  analysis::FigureOptions fo;
  fo.confidence = confidence;
  fo.warmupIterations = static_cast<std::size_t>(std::max(data.warmup, 0));
  return analysis::buildFigures(table, warmup.size() ? &warmup : nullptr, order, fo);
}

// The design in one sentence, with how a duet kept its partners together and
// which targets the executions ran on.
std::string designNoteOf(const CampaignData &data) {
  // An import knows no order of its measurements, unless its file (an
  // export's settings line) recorded the campaign's paired design.
  std::string note = data.importedFrom.empty() || data.design != Design::Unpaired
                         ? designSentence(data.design)
                         : "design: imported measurements (the order they were taken in is not "
                           "known): systems analysed as independent";
  // A duet's executions ran beside their partners for how much of their time.
  std::vector<double> overlaps;
  for (const auto &e : data.executions)
    if (e.overlap)
      overlaps.push_back(*e.overlap);
  if (!overlaps.empty()) {
    char buf[160];
    std::snprintf(buf, sizeof buf,
                  "; each execution ran beside its partner for %.0f%% of its time (median; "
                  "lowest %.0f%%)",
                  100 * analysis::median(overlaps),
                  100 * *std::min_element(overlaps.begin(), overlaps.end()));
    note += buf;
  }
  // How they were kept together (duet.hpp).
  for (const DuetSyncRow &d : data.duetSync) {
    if (d.sync == DuetSync::Barrier)
      note += "; kept together by a barrier before each iteration (" + std::to_string(d.barriers) +
              " barriers passed by " +
              counted(static_cast<std::size_t>(d.executions), "execution") + ")";
    else
      note += "; kept together by restarting the partner that ended first until "
              "both had ended (" +
              counted(static_cast<std::size_t>(d.restarts), "restart") + ", not measured)";
    if (d.alone > 0)
      note += "; " + counted(static_cast<std::size_t>(d.alone), "execution") +
              " ran alone (a partner stopped early): recorded, not counted";
  }
  if (executionsOnTop(data))
    note +=
        std::string("; one build per system: no layouts were drawn, so the intervals are across "
                    "executions (environment size, heap offset, ASLR), not across layouts") +
        (pairedDesign(data.design) ? ", and the systems are analysed as independent" : "");
  if (data.targets > 0) {
    std::string names;
    for (const auto &n : data.targetNames)
      names += (names.empty() ? "" : ", ") + n;
    note += data.machines == Machines::Level
                ? "; on " + counted(static_cast<std::size_t>(data.targets), "target") + " (" +
                      names + ") with machine as the top random level (build i on target i mod " +
                      std::to_string(data.targets) + ")"
                : "; on a pool of " + counted(static_cast<std::size_t>(data.targets), "target") +
                      " (" + names + "; assumed identical; the executions spread over them)";
  }
  return note;
}

// The campaign's name, counts, design, targets and adaptive decisions.
void describeCampaign(const CampaignData &data, CampaignReport &r) {
  static_cast<CampaignSummary &>(r) = data;
  r.failed = static_cast<std::int64_t>(data.failures.size());
  r.measurements = data.measurements.size();
  r.layoutStudy = data.systems.size() == 1;
  r.design = enumName(data.design);
  r.designNote = designNoteOf(data);
  r.warmup = data.warmup;
  r.machines = data.machines ? enumName(*data.machines) : "";
  for (const auto &n : data.targetNames) {
    const auto m = data.targetMachines.find(n);
    r.targets.push_back({n, m == data.targetMachines.end()
                                ? std::nullopt
                                : std::optional<MachineState>(m->second)});
  }
  r.importedFrom = data.importedFrom;
  for (std::size_t a = 0, b; a < data.adaptiveLog.size(); a = b + 1) {
    b = data.adaptiveLog.find('\n', a);
    if (b == std::string::npos)
      b = data.adaptiveLog.size();
    if (b > a)
      r.adaptiveLog.push_back(data.adaptiveLog.substr(a, b - a));
  }
}

// Failed executions grouped by system, benchmark and cause (issue 4: recorded
// as failures, never as data), each group a warning.
void groupFailures(const CampaignData &data, CampaignReport &r) {
  std::map<std::tuple<std::string, std::string, std::string>, std::size_t> index;
  std::map<std::size_t, std::vector<int>> failedBuilds; // group -> its builds (in order)
  for (const auto &f : data.failures) {
    std::string cause = failureCause(f);
    // Timeouts differ only in the measured wall time, and the executions of
    // failed builds only in the build ("build s #2 failed"): one group each.
    const bool ofFailedBuild =
        f.status == ExecutionStatus::Build &&
        cause == "build " + f.system + " #" + std::to_string(f.buildIndex) + " failed";
    auto key = std::make_tuple(f.benchmark, f.system,
                               f.status == ExecutionStatus::Timeout ? std::string("timeout")
                               : ofFailedBuild                      ? std::string("build")
                                                                    : cause);
    auto [it, fresh] = index.emplace(key, r.failures.size());
    if (ofFailedBuild) {
      std::vector<int> &builds = failedBuilds[it->second];
      if (std::find(builds.begin(), builds.end(), f.buildIndex) == builds.end())
        builds.push_back(f.buildIndex);
    }
    if (fresh) {
      FailureGroup g;
      g.system = f.system;
      g.benchmark = f.benchmark;
      g.status = enumName(f.status);
      g.cause = cause;
      g.stderrTail = lastLines(f.stderrTail, 3);
      r.failures.push_back(std::move(g));
    }
    FailureGroup &g = r.failures[it->second];
    ++g.count;
    if (g.where.size() < 3)
      g.where.push_back("build " + std::to_string(f.buildIndex) + " execution " +
                        std::to_string(f.executionIndex));
  }
  // "builds s #0, #1 and #3 failed" (one build: as its executions say).
  for (auto &[group, builds] : failedBuilds) {
    std::sort(builds.begin(), builds.end());
    FailureGroup &g = r.failures[group];
    g.cause =
        nounFor(builds.size(), "build") + " " + g.system + " " + listed(builds, "#") + " failed";
  }
  // Campaign order: benchmarks, then systems, as the store lists them.
  auto rank = [](const std::vector<std::string> &v, const std::string &x) {
    return std::find(v.begin(), v.end(), x) - v.begin();
  };
  std::stable_sort(
      r.failures.begin(), r.failures.end(), [&](const FailureGroup &a, const FailureGroup &b) {
        return std::pair(rank(data.benchmarks, a.benchmark), rank(data.systems, a.system)) <
               std::pair(rank(data.benchmarks, b.benchmark), rank(data.systems, b.system));
      });
  for (const auto &g : r.failures)
    r.warnings.push_back("failed: " + counted(g.count, "execution") + " of " + g.benchmark +
                         " on " + g.system + ": " + g.cause);
}

// Processes left running by benchmarks (daemons out of the group).
void leftoverWarnings(const CampaignData &data, std::vector<std::string> &warnings) {
  for (const auto &l : data.leftovers)
    warnings.push_back(
        "left running: " + counted(l.count, "execution") + " of " + l.benchmark + " on " +
        l.system + " left processes running after they ended (first: " + l.example + ")" +
        (l.kept ? "; they were kept (leftovers = \"keep\") and share the machine with the "
                  "executions after them"
                : "; alea killed them"));
}

// The failed builds of one system that ended alike (the last line of their
// logs: status, signal or timeout), in one warning: "failed: builds 0, 1 and
// 2 of s: build exited with status 2", with the last lines of the first
// one's output before it, which usually name the cause.
struct FailedBuilds {
  std::string system, reason, output;
  std::vector<int> builds;
};

std::string failedBuildsWarning(const FailedBuilds &f) {
  std::string w = "failed: " + nounFor(f.builds.size(), "build") + " " + listed(f.builds) + " of " +
                  f.system + (f.reason.empty() ? std::string() : ": " + f.reason);
  if (!f.output.empty())
    w += std::string(f.builds.size() == 1 ? "; its" : "; the first one's") +
         " output ended: " + f.output;
  return w;
}

// Up to three lines of a build's output before the reason it ended, joined
// by " / ".
std::string outputBeforeReason(const std::string &logTail) {
  std::string out;
  for (std::string_view line : logEnd(logTail, 3).before)
    out += (out.empty() ? "" : " / ") + std::string(line);
  return out;
}

// Builds: failures, layouts that cannot be checked, identical layouts, and
// ODR violations the wrappers found in the builds' links.
void buildWarnings(const CampaignData &data, CampaignReport &r) {
  std::map<std::pair<std::string, std::string>, std::vector<int>> same;
  std::vector<FailedBuilds> failed; // in the order of their first build
  for (const auto &b : data.builds) {
    if (b.status == BuildStatus::Failed) {
      ++r.failedBuilds;
      const std::string reason = b.logTail.empty() ? std::string() : lastLines(b.logTail, 1);
      auto group = std::find_if(failed.begin(), failed.end(), [&](const FailedBuilds &f) {
        return f.system == b.system && f.reason == reason;
      });
      if (group == failed.end())
        group = failed.insert(failed.end(), {b.system, reason, outputBeforeReason(b.logTail), {}});
      group->builds.push_back(b.buildIndex);
      continue;
    }
    ++r.builds;
    const std::string &id = !b.fingerprint.empty() ? b.fingerprint : b.binaryHash;
    if (!id.empty())
      same[{b.system, id}].push_back(b.buildIndex);
  }
  for (const FailedBuilds &f : failed)
    r.warnings.push_back(failedBuildsWarning(f));
  // A system whose builds keep no artifact has no fingerprint: whether its
  // layouts really differ cannot be checked, so say so instead of passing
  // the check silently.
  std::map<std::string, bool> checkable;
  for (const auto &b : data.builds)
    if (b.status != BuildStatus::Failed)
      checkable[b.system] |= !b.fingerprint.empty() || !b.binaryHash.empty();
  std::vector<std::string> unchecked;
  for (const auto &[system, ok] : checkable)
    if (!ok && !executionsOnTop(data)) // one build: no layouts to tell apart
      unchecked.push_back(system);
  if (!unchecked.empty()) // one warning for all of them (a history has many systems)
    r.warnings.push_back(
        "layouts not checked: the builds of " + joinWith(unchecked, ", ") +
        (data.importedFrom.empty()
             ? " keep no artifacts, so alea cannot tell whether their layouts differ (list "
               "the executables in the system's `artifacts`; with alea compare, history or "
               "bisect, --artifact PATH)"
             : " were imported without their binaries, so alea cannot tell whether their "
               "layouts differ (compare the binaries with `alea layout --diff`)"));
  std::map<std::string, std::size_t> systemBuilds;
  for (const auto &b : data.builds)
    if (b.status != BuildStatus::Failed)
      ++systemBuilds[b.system];
  for (const auto &[key, builds] : same) {
    if (builds.size() < 2)
      continue;
    // The binary's counts, read by loadCampaignData for shared fingerprints.
    std::optional<LayoutFacts> facts;
    for (const auto &b : data.builds)
      if (b.system == key.first && b.fingerprint == key.second && b.layout)
        facts = b.layout;
    r.warnings.push_back(
        identicalLayoutsWarning(key.first, builds, systemBuilds[key.first], facts));
  }
  // ODR violations the wrappers found in the builds' links.
  std::map<std::pair<std::string, std::string>, std::vector<int>> odr;
  for (const auto &b : data.builds)
    if (!b.odr.empty())
      odr[{b.system, b.odr}].push_back(b.buildIndex);
  for (const auto &[key, builds] : odr)
    r.warnings.push_back(odrWarning(key.first, builds, key.second));
}

// How many top-level units (builds, or executions of a one-build campaign)
// hold data of one benchmark and system.
std::size_t topUnits(const Series &s, bool executionsTop) {
  if (!executionsTop)
    return s.size();
  std::size_t executions = 0;
  for (const auto &[build, execs] : s)
    executions += execs.size();
  return executions;
}

// The systems of each analysed benchmark (`Analysed`): those with at least 2
// top-level units of data (the engine's minimum for a t interval). A
// benchmark is analysed when every system has them, or, with
// `skipSystemsWithoutData` (a history: one broken commit must not hide the
// others), when the baseline and one other system have them; what is left
// out is named in a warning.
Analysed analysableBenchmarks(const CampaignData &data, const std::map<Key, Series> &series,
                              bool skipSystemsWithoutData, std::vector<std::string> &warnings) {
  const bool executionsTop = executionsOnTop(data);
  const char *unit = executionsTop ? "execution" : "build";
  const std::string baseline =
      data.baseline.empty() && !data.systems.empty() ? data.systems.front() : data.baseline;
  Analysed analysed;
  for (const auto &bench : data.benchmarks) {
    std::string missing;
    std::set<std::string> with;
    for (const auto &sys : data.systems) {
      auto it = series.find({bench, sys});
      std::size_t units = it == series.end() ? 0 : topUnits(it->second, executionsTop);
      if (units < 2)
        missing += (missing.empty() ? "" : ", ") + sys + " has data from " + counted(units, unit);
      else
        with.insert(sys);
    }
    if (missing.empty()) {
      analysed[bench] = std::move(with);
    } else if (skipSystemsWithoutData && with.count(baseline) && with.size() >= 2) {
      warnings.push_back("left out of " + bench + ": " + missing + " (at least 2 are needed)");
      analysed[bench] = std::move(with);
    } else {
      warnings.push_back("not analysed: " + bench + ": " + missing + " (at least 2 are needed)");
    }
  }
  return analysed;
}

// The engine's table of the analysed benchmarks: systems in `order`
// (baseline first), levels machine (when `machineLevel`: build i ran on
// target i mod targets), build (unless the campaign has one build per
// system), execution and iteration (when `withIterations`).
analysis::Table measurementTable(const CampaignData &data, const std::map<Key, Series> &series,
                                 const Analysed &analysed, const std::vector<std::string> &order,
                                 bool machineLevel, bool withIterations) {
  const bool withBuilds = !executionsOnTop(data);
  std::vector<std::string> levelNames{"execution"};
  if (withBuilds)
    levelNames.insert(levelNames.begin(), "build");
  if (withIterations)
    levelNames.push_back("iteration");
  if (machineLevel)
    levelNames.insert(levelNames.begin(), "machine");
  analysis::Table table(levelNames);
  // When each execution started: a paired comparison finds its neighbouring
  // blocks with it (issue 19); NaN when the store does not say.
  std::map<std::tuple<std::string, std::string, int, int>, double> started;
  for (const ExecutionConditions &e : data.executions)
    if (e.startedAt > 0)
      started[{e.benchmark, e.system, e.build, e.execution}] = e.startedAt;
  for (const auto &bench : data.benchmarks) {
    if (!analysed.count(bench))
      continue;
    for (const auto &sys : order) {
      if (!analysed.at(bench).count(sys))
        continue;
      for (const auto &[build, execs] : series.at({bench, sys})) {
        const std::string b = std::to_string(build);
        const std::string machine = machineLevel ? std::to_string(build % data.targets) : "";
        for (const auto &[exec, values] : execs) {
          const std::string e = std::to_string(exec);
          const auto at = started.find({bench, sys, build, exec});
          const double order =
              at == started.end() ? std::numeric_limits<double>::quiet_NaN() : at->second;
          for (std::size_t i = 0; i < values.size(); ++i) {
            const std::string it = std::to_string(i);
            std::vector<std::string_view> units{e};
            if (withBuilds)
              units.insert(units.begin(), b);
            if (machineLevel)
              units.insert(units.begin(), machine);
            if (withIterations)
              units.push_back(it);
            table.add(sys, bench, units, values[i], 0, order);
          }
        }
      }
    }
  }
  return table;
}

// Planner costs measured by this campaign, in units of one measurement
// (KJ TR 2012 §5: c_i is the cost of a new unit at level i): a build costs
// its build time, an execution its wall time minus the kept iterations.
// Empty when they cannot be measured (no build times, values not in seconds).
std::vector<double> measuredCosts(const CampaignData &data, const std::map<Key, Series> &series,
                                  bool withIterations, bool machineLevel) {
  std::vector<double> costs;
  double sum = 0, buildSeconds = 0;
  std::size_t builds = 0;
  for (const auto &p : data.measurements)
    sum += p.value;
  for (const auto &b : data.builds)
    if (b.status == BuildStatus::Ok && b.seconds > 0) {
      buildSeconds += b.seconds;
      ++builds;
    }
  const double unitValue = data.measurements.empty() ? 0 : sum / data.measurements.size();
  if (unitValue > 0 && builds > 0 && data.unit == "s") {
    const double buildCost = buildSeconds / builds / unitValue;
    if (withIterations) {
      double perExec = 0;
      std::size_t execs = 0;
      for (const auto &[key, s] : series)
        for (const auto &[b, es] : s)
          for (const auto &[e, v] : es) {
            perExec += v.size();
            ++execs;
          }
      perExec = execs ? perExec / execs : 0;
      const double execCost = std::max(0.01, data.meanExecutionSeconds / unitValue - perExec);
      costs = {buildCost, execCost};
    } else {
      costs = {buildCost};
    }
    // A machine's cost is not measured (machines are not made by the
    // campaign): the plan counts it as one build's, the least it costs.
    if (machineLevel)
      costs.insert(costs.begin(), buildCost);
    if (executionsOnTop(data)) // no build level
      costs.erase(costs.begin());
  }
  return costs;
}

// Systems in the report's order: the baseline first.
std::vector<std::string> baselineFirst(const CampaignData &data) {
  std::vector<std::string> order = data.systems;
  if (!data.baseline.empty()) {
    auto it = std::find(order.begin(), order.end(), data.baseline);
    if (it != order.end())
      std::rotate(order.begin(), it, it + 1);
  }
  return order;
}

// The series of `points`: benchmark and system, build, execution, values.
std::map<Key, Series> seriesOf(const std::vector<MeasurementPoint> &points) {
  std::map<Key, Series> series;
  for (const auto &p : points)
    series[{p.benchmark, p.system}][p.build][p.execution].push_back(p.value);
  return series;
}

// Every other metric of the executions, analysed as the decision metric is
// (`ro`: its options), without figures, diagnostics or planner costs.
std::vector<CampaignReport::Metric> otherMetricReports(const CampaignData &data,
                                                       const CampaignReportOptions &options,
                                                       analysis::ReportOptions ro,
                                                       const std::vector<std::string> &order,
                                                       bool machineLevel) {
  ro.diagnostics = false;
  ro.costs.clear();
  std::vector<CampaignReport::Metric> out;
  for (const auto &m : data.otherMetrics) {
    CampaignReport::Metric &report = out.emplace_back();
    report.name = m.name;
    report.unit = m.unit;
    const std::map<Key, Series> series = seriesOf(m.measurements);
    std::vector<std::string> notAnalysed; // said once, for the decision metric
    const Analysed analysed =
        analysableBenchmarks(data, series, options.skipSystemsWithoutData, notAnalysed);
    if (analysed.empty()) {
      report.error = std::string("no benchmark has data from 2 or more ") +
                     (executionsOnTop(data) ? "executions" : "builds") + " of every system";
      continue;
    }
    auto analysis = analysis::buildReport(
        measurementTable(data, series, analysed, order, machineLevel, false), ro);
    if (analysis)
      report.analysis = std::move(*analysis);
    else
      report.error = analysis.error();
  }
  return out;
}

} // namespace

CampaignReport buildCampaignReport(const CampaignData &data, const CampaignReportOptions &options) {
  // The campaign and its warnings, in the order the reader meets them.
  CampaignReport r;
  describeCampaign(data, r);
  r.decidedOn = data.decidedOn;
  groupFailures(data, r);
  leftoverWarnings(data, r.warnings);
  buildWarnings(data, r);
  if (data.planned > 0 && data.executed < data.planned)
    r.warnings.push_back("incomplete campaign: " + std::to_string(data.executed) + " of " +
                         std::to_string(data.planned) +
                         " planned executions were run (run `alea run` again to resume)");
  for (const auto &m : data.machineChanges)
    r.warnings.push_back("machine state changed during the campaign at " + m);

  // --- the data, per benchmark and system ---
  std::map<Key, Series> series;
  std::size_t maxPerExecution = 0;
  for (const auto &p : data.measurements) {
    auto &v = series[{p.benchmark, p.system}][p.build][p.execution];
    v.push_back(p.value);
    maxPerExecution = std::max(maxPerExecution, v.size());
  }
  const bool withIterations = maxPerExecution > 1;
  steadyStateWarnings(data, series, r.warnings);
  const Analysed analysed =
      analysableBenchmarks(data, series, options.skipSystemsWithoutData, r.warnings);

  for (const auto &[bench, unit] : data.units)
    r.units[bench] = unit.empty() ? data.unit : unit;
  r.facts = campaignFacts(data);
  // Which functions' placement matters: across layouts, so none without
  // (one build per system: `alea compare --cmd`).
  if (!executionsOnTop(data))
    for (const analysis::AttributionInput &in : data.attribution)
      r.placement.push_back(analysis::attributeLayoutVariance(in));
  // Layout modes, outliers and non-steady iterations are the engine's
  // diagnostics (ReportOptions::diagnostics): reported per benchmark there.

  if (analysed.empty()) {
    r.analysisError = std::string("no benchmark has data from 2 or more ") +
                      (executionsOnTop(data) ? "executions" : "builds") + " of every system";
    return r;
  }

  // --- the engine ---
  // machines = "level": machine is the top random level, above the builds
  // that ran on it (build i on target i mod targets).
  const bool machineLevel = data.machines == Machines::Level && data.targets > 1;
  // Baseline first, so the table's system order matches the report's.
  const std::vector<std::string> order = baselineFirst(data);
  const analysis::Table table =
      measurementTable(data, series, analysed, order, machineLevel, withIterations);

  analysis::ReportOptions ro;
  ro.baseline = order.front();
  ro.confidence = data.confidence;
  ro.threshold = data.threshold;
  ro.bootstrapReplicates = options.bootstrapReplicates;
  ro.threads = options.threads;
  ro.diagnostics = true; // outliers, layout modes, warm-up trends
  // Paired designs pair build i of every system: the ratio's intervals use
  // the pairing (paired Fieller, bootstrap over pairs).
  if (pairedDesign(data.design) && !executionsOnTop(data))
    ro.pairing = analysis::Pairing::Paired;
  ro.targetHalfWidth = options.targetHalfWidth.value_or(data.targetHalfWidth);
  ro.ratioPlanKeepsLowerCounts = options.planKeepsLowerCounts;
  ro.allPairs = options.allPairs;
  ro.seed =
      options.seed ? *options.seed : alea::mixSeed(parseHexSeed(data.seed), "report-bootstrap");
  ro.costs = measuredCosts(data, series, withIterations, machineLevel);

  diagnoseNoise(data, r);
  auto report = analysis::buildReport(table, ro);
  if (!report) {
    r.analysisError = report.error();
    r.warnings.push_back("the statistics engine could not analyse the data: " + report.error());
    return r;
  }
  r.analysis = std::move(*report);
  r.figures = campaignFigures(data, series, analysed, order, ro.confidence);
  r.otherMetrics = otherMetricReports(data, options, ro, order, machineLevel);
  if (r.layoutStudy)
    r.analysis->warnings.push_back(
        "one system: this campaign is a layout-sensitivity study (no ratio to "
        "compare)");
  for (const auto &w : r.warnings)
    r.analysis->warnings.push_back(w);
  return r;
}

Expected<CampaignReport> analyzeTable(const analysis::Table &table,
                                      const analysis::ReportOptions &options,
                                      const analysis::Table *warmup, std::size_t warmupIterations) {
  auto report = analysis::buildReport(table, options);
  if (!report)
    return Error{report.error()};
  CampaignReport r;
  r.campaign = false;
  r.systems = table.systems();
  r.benchmarks = table.benchmarks();
  r.layoutStudy = table.systems().size() == 1;
  std::vector<std::string> order{report->baseline};
  for (const auto &s : table.systems())
    if (s != report->baseline)
      order.push_back(s);
  analysis::FigureOptions fo;
  fo.confidence = options.confidence;
  fo.warmupIterations = warmupIterations;
  r.figures = analysis::buildFigures(table, warmup, order, fo);
  r.analysis = std::move(*report);
  return r;
}

} // namespace alea::model

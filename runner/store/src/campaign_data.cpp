// Step 1 of `alea report` (campaign_data.hpp): reading a campaign store into a
// CampaignData value, through the store's read methods (store.hpp; their SQL
// is in store.cpp): measurements (the warm-up iterations apart), failed
// executions, builds with their fingerprints, the machine as first recorded
// and its changes, settings kept in the meta table, all from one read
// snapshot, so the report sees exactly what was stored.
#include "alea/store/campaign_data.hpp"

#include "alea/config/measure_spec.hpp"
#include "alea/store/campaign_dir.hpp"
#include "alea/store/layout_facts.hpp"

#include <algorithm>
#include <filesystem>
#include <map>

namespace alea::runner {

namespace {

// Before issue 18, a build whose binary had no function symbols (stripped)
// was recorded with the FNV-1a hash of nothing, the same for every such
// build, which proves nothing about its layout: read as unknown, so that the
// identical-layout check falls back to the binary's own hash.
std::string knownFingerprint(std::string fingerprint) {
  return fingerprint == "cbf29ce484222325" ? std::string() : fingerprint;
}

namespace fs = std::filesystem;

double toDouble(const std::optional<std::string> &s, double fallback) {
  if (!s || s->empty())
    return fallback;
  char *end = nullptr;
  double v = std::strtod(s->c_str(), &end);
  return end && *end == '\0' ? v : fallback;
}

} // namespace

Expected<CampaignData> loadCampaignData(const std::string &path) {
  std::error_code ec;
  const std::string file = resolveStorePath(path);
  if (!fs::is_regular_file(file, ec))
    return Error{fs::is_directory(path, ec) ? "no campaign store in '" + path + "' (expected " +
                                                  file + "; run `alea run` first)"
                                            : "no such campaign store: '" + path + "'"};
  // Read-only: never create, migrate or touch the file (docs/store.md); a
  // file that is not an alea store is one error.
  auto store = Store::openReadOnly(file);
  if (!store)
    return Error{store.error()};
  return loadCampaignData(*store);
}

namespace {

// The benchmarks decided on a simulated count; with several metrics per
// execution, the metric the decision is on and every other metric's
// measurements (none in a store of one measure).
Status readMetrics(Store &store, CampaignData &d) {
  auto benchmarks = store.benchmarks();
  if (!benchmarks)
    return Error{benchmarks.error()};
  for (const auto &b : *benchmarks)
    if (auto metric = parseEnum<Metric>(b.decidedOn); metric && isSimulated(*metric))
      d.simulated.insert(b.name);
  std::vector<std::string> metrics = store.measuredMetrics();
  if (metrics.empty())
    return {};
  d.decidedOn = benchmarks->empty() ? metrics.front() : benchmarks->front().decidedOn;
  for (const std::string &name : metrics) {
    if (name == d.decidedOn)
      continue;
    CampaignData::Metric &metric = d.otherMetrics.emplace_back();
    metric.name = name;
    auto addTo = [&metric](const MeasurementView &m) {
      metric.unit = m.unit;
      metric.measurements.push_back({.system = std::string(m.system),
                                     .benchmark = std::string(m.benchmark),
                                     .build = m.build,
                                     .execution = m.execution,
                                     .iteration = m.iteration,
                                     .value = m.value});
    };
    if (Status s = store.visitMeasurements(/*includeWarmup=*/false, addTo, {}, name); !s)
      return s;
  }
  return {};
}

} // namespace

Expected<CampaignData> loadCampaignData(Store &store) {
  // One snapshot for every read (Store::ReadSnapshot): the counts,
  // measurements and failures agree even while a campaign writes the store.
  Store::ReadSnapshot snapshot(store);
  CampaignData d;
  d.storePath = store.path();
  auto storeError = [&d](const std::string &why) {
    return Error{"store '" + d.storePath + "': " + why};
  };
  d.name = store.meta("campaign_name").value_or("");
  d.baseline = store.meta("baseline").value_or("");
  d.seed = store.meta("campaign_seed").value_or("");
  d.confidence = toDouble(store.meta("confidence"), 0.95);
  d.threshold = toDouble(store.meta("threshold"), 0.01);
  d.warmup = static_cast<int>(toDouble(store.meta("levels.warmup"), 0));
  // Stores before issue 8 name no design: their executions ran unpaired. A
  // word this version does not know reads as unpaired too (analysed as
  // independent systems: the conservative reading).
  d.design = parseEnum<Design>(store.meta("design").value_or("")).value_or(Design::Unpaired);
  d.machines = parseEnum<Machines>(store.meta("machines").value_or(""));
  if (auto t = store.meta("targets"); t && !t->empty()) {
    // "a,b,c": target names are letters, digits and _ - . + (config.cpp).
    for (std::size_t a = 0, b; a <= t->size(); a = b + 1) {
      b = std::min(t->find(',', a), t->size());
      d.targetNames.push_back(t->substr(a, b - a));
    }
    d.targets = static_cast<int>(d.targetNames.size());
    for (const std::string &name : d.targetNames)
      if (auto m = store.firstMachine(name))
        d.targetMachines[name] = std::move(*m);
  }
  d.importedFrom = store.meta("imported_from").value_or("");
  d.targetHalfWidth = toDouble(store.meta("target_half_width"), 0.01);
  d.adaptiveLog = store.meta("adaptive_log").value_or("");
  d.plannedBuilds = static_cast<int>(toDouble(store.meta("levels.builds"), 0));
  d.factors = store.meta("factors").value_or("");
  d.machine = store.firstMachine();
  d.executions = store.executionConditions();
  d.duetSync = store.duetSync();

  auto systems = store.systems();
  if (!systems)
    return storeError(systems.error());
  for (SystemRow &s : *systems) {
    d.systems.push_back(std::move(s.name));
    if (d.baseline.empty() && s.baseline)
      d.baseline = d.systems.back();
  }
  auto benchmarks = store.benchmarks();
  if (!benchmarks)
    return storeError(benchmarks.error());
  for (BenchmarkRow &b : *benchmarks) {
    if (d.benchmarks.empty())
      d.unit = b.unit;
    d.units[b.name] = std::move(b.unit);
    d.benchmarks.push_back(std::move(b.name));
  }
  StoreSummary summary = store.summary();
  d.planned = summary.planned;
  d.executed = summary.executed;

  // The measurements in one pass straight into CampaignData, the warm-up
  // iterations (for the warm-up figure) apart: a campaign of a million of
  // them is read without an intermediate copy, into a vector sized once for
  // all of them (a name of up to 15 bytes is stored without an allocation).
  auto add = [&d](const MeasurementView &m) {
    (m.warmup ? d.warmupMeasurements : d.measurements)
        .push_back({.system = std::string(m.system),
                    .benchmark = std::string(m.benchmark),
                    .build = m.build,
                    .execution = m.execution,
                    .iteration = m.iteration,
                    .value = m.value});
  };
  if (Status s = store.visitMeasurements(
          /*includeWarmup=*/true, add, [&d](std::size_t n) { d.measurements.reserve(n); });
      !s)
    return storeError(s.error());

  if (Status s = readMetrics(store, d); !s)
    return storeError(s.error());

  auto failures = store.failedExecutions();
  if (!failures)
    return storeError(failures.error());
  d.failures = std::move(*failures);
  auto leftovers = store.leftovers();
  if (!leftovers)
    return storeError(leftovers.error());
  d.leftovers = std::move(*leftovers);
  auto builds = store.builds();
  if (!builds)
    return storeError(builds.error());
  // The snapshots of the builds' binaries sit next to the store.
  const std::string campaignDir = fs::path(d.storePath).parent_path().string();
  for (Build &stored : *builds) {
    model::BuildInfo &b =
        d.builds.emplace_back(model::BuildInfo{std::move(stored), std::nullopt, {}});
    b.fingerprint = knownFingerprint(std::move(b.fingerprint));
    if (b.status == BuildStatus::Ok && !b.binaryHash.empty())
      b.odr = odrFindings(objectPath(campaignDir, b.binaryHash));
  }
  {
    // Builds of one system sharing a fingerprint: the warning says how
    // likely that was, from the binary's functions and factors (read once
    // per shared fingerprint, from the artifact's snapshot).
    std::map<std::pair<std::string, std::string>, std::vector<model::BuildInfo *>> same;
    for (model::BuildInfo &b : d.builds)
      if (b.status != BuildStatus::Failed && !b.fingerprint.empty())
        same[{b.system, b.fingerprint}].push_back(&b);
    for (auto &[key, group] : same)
      if (group.size() > 1 && !group.front()->binaryHash.empty()) {
        const auto facts = layoutFactsOf(objectPath(campaignDir, group.front()->binaryHash));
        for (model::BuildInfo *b : group)
          b->layout = facts;
      }
  }
  auto changes = store.machineChanges();
  if (!changes)
    return storeError(changes.error());
  for (const MachineChangeRow &c : *changes) {
    std::string_view reason = c.reason;
    if (reason.starts_with("change: "))
      reason.remove_prefix(8);
    d.machineChanges.push_back(c.recordedAt + ": " + std::string(reason));
  }
  if (auto mean = store.meanExecutionSeconds())
    d.meanExecutionSeconds = *mean;
  d.attribution = loadAttributionInputs(store, campaignDir);
  return d;
}

} // namespace alea::runner

// The run of a campaign file (run_command.hpp): signal handling and printing
// only; the work is alea::runner::runCampaign
// (runner/campaign/include/alea/campaign/campaign.hpp).
#include "run_command.hpp"

#include "gate.hpp"

#include "alea/campaign/campaign.hpp"
#include "alea/config/config.hpp"
#include "alea/config/validate.hpp"
#include "alea/contract.hpp"
#include "alea/exec/executor.hpp"
#include "alea/exec/machine_facts.hpp"
#include "alea/exec/progress.hpp"
#include "alea/report/escape.hpp"
#include "alea/report/render.hpp"
#include "alea/store/campaign_data.hpp"
#include "alea/words.hpp"

#include <atomic>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <unistd.h>

namespace {

std::atomic<bool> gCancel{false};
std::atomic<int> gSignal{0}; // the first SIGINT or SIGTERM

extern "C" void onInterrupt(int sig) {
  int none = 0;
  gSignal.compare_exchange_strong(none, sig);
  gCancel.store(true);
}

// The directory of the running `alea` (the wrappers are installed next to it).
std::string selfDirectory() {
  std::error_code ec;
  auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string(".") : exe.parent_path().string();
}

// "auto builds", "1 execution".
std::string level(const alea::runner::LevelCount &l, const char *word) {
  return l.automatic ? std::string("auto ") + word + "s" : alea::counted(l.count, word);
}

// ", on 2 targets (pool): a, b" for a campaign with [[target]]s.
std::string targetsLine(const alea::runner::CampaignConfig &config) {
  if (config.targets.empty())
    return "";
  std::string names;
  for (const auto &t : config.targets)
    names += (names.empty() ? "" : ", ") + t.name;
  return ", on " + alea::counted(config.targets.size(), "target") + " (" +
         alea::enumName(config.machines) + "): " + names;
}

} // namespace

namespace alea::cli {

Outcome runCampaignFile(const RunOptions &opts) {
  auto config = alea::runner::parseCampaign(opts.campaign);
  if (!config)
    return alea::Error{config.error()};
  // Here, before the campaign line below, so that a mistake is the one line
  // of output, as with the parser's errors (runCampaign is told: validated).
  if (auto valid = alea::runner::validateCampaign(*config, alea::runner::readMachineFacts(*config));
      !valid)
    return alea::Error{valid.error()};
  // Adaptive settings on the command line override [adaptive] without
  // changing the file (whose digest identifies the campaign): they continue a
  // finished campaign, adding builds.
  if (!opts.untilHalfWidth.empty()) {
    auto hw = alea::analysis::parseFraction(opts.untilHalfWidth);
    if (!hw || !(*hw > 0 && *hw < 1))
      return alea::Error{"--until-half-width expects a relative half-width such as 2% or "
                         "0.02, not '" +
                             opts.untilHalfWidth + "'",
                         alea::ErrorKind::Usage};
    config->adaptive.enabled = true;
    config->adaptive.halfWidth = *hw;
  }
  if (opts.timeBudget > 0) {
    config->adaptive.enabled = true;
    config->adaptive.timeBudgetSeconds = opts.timeBudget;
  }
  if (opts.maxBuilds > 0)
    config->adaptive.maxBuilds = opts.maxBuilds;
  if (opts.buildJobs > 0) // the schedule, not the campaign: the file's digest stays
    config->buildJobs = opts.buildJobs;
  if (opts.buildCache) // the same bytes, faster: the file's digest stays too
    config->buildCache = true;
  auto format = alea::report::parseFormat(opts.format);
  if (!format)
    return alea::Error{"unknown report format '" + opts.format + "' (expected " +
                           alea::report::formatNames() + ")",
                       alea::ErrorKind::Usage};
  alea::runner::CampaignOptions ro;
  ro.dir = opts.dir.empty() ? alea::runner::defaultCampaignDir(opts.campaign) : opts.dir;
  ro.requireExisting = opts.resume;
  ro.force = opts.force;
  ro.validated = true;
  ro.toolDir = selfDirectory();
  for (char **e = environ; *e; ++e)
    ro.baseEnv.emplace_back(*e);
  ro.cancel = &gCancel;
  struct sigaction sa{};
  sa.sa_handler = onInterrupt;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);

  if (!std::filesystem::exists(ro.toolDir + "/" + alea::kCcWrapperName))
    std::fprintf(stderr,
                 "alea: warning: no alea-cc next to alea in %s: builds will fail unless "
                 "their systems set CC themselves\n",
                 ro.toolDir.c_str());
  alea::runner::LocalExecutor executor;
  alea::runner::StreamProgress progress(stderr);
  // Shown once the directory is ours and its store open: a run refused
  // there (exit 4: another run holds it) prints its error alone.
  ro.startMessage = "campaign '" + alea::report::plainText(config->name) +
                    "': " + alea::counted(config->systems.size(), "system") + " x " +
                    alea::counted(config->benchmarks.size(), "benchmark") + " x " +
                    level(config->builds, "build") + " x " +
                    level(config->executions, "execution") + ", store " +
                    alea::report::plainText(alea::runner::storePath(ro.dir)) + targetsLine(*config);
  auto outcome = alea::runner::runCampaign(*config, ro, executor, progress);
  if (!outcome)
    return alea::Error{outcome.error(), outcome.errorKind()}; // Busy: another run holds it
  const auto &s = outcome->summary;
  std::fprintf(stderr, "alea: %lld of %s recorded (%lld failed), %s, %s (%lld failed)\n",
               static_cast<long long>(s.executed), alea::counted(s.planned, "execution").c_str(),
               static_cast<long long>(s.failed),
               alea::counted(s.measurements, "measurement").c_str(),
               alea::counted(s.builds, "build").c_str(), static_cast<long long>(s.failedBuilds));
  for (const auto &w : outcome->warnings)
    std::fprintf(stderr, "alea: warning: %s\n", w.c_str());
  if (outcome->cancelled) {
    std::fprintf(stderr, "alea: interrupted; run the same command again to resume\n");
    return 128 + (gSignal.load() ? gSignal.load() : SIGINT);
  }
  if (!outcome->complete)
    return alea::Error{"the campaign stopped with " + std::to_string(s.executed) + " of " +
                       std::to_string(s.planned) + " executions recorded"};
  // Failed builds or executions are recorded and reported, never data: the
  // campaign is finished, but a script must not mistake it for a clean one.
  const int status =
      s.failed > 0 || s.failedBuilds > 0 ? alea::cli::kExitFailures : alea::cli::kExitOk;
  if (opts.onReport) {
    auto data = alea::runner::loadCampaignData(outcome->storePath);
    if (!data)
      return alea::Error{data.error()};
    return opts.onReport(*data, status);
  }
  if (opts.noReport)
    std::fprintf(stderr, "alea: report with `alea report %s`\n", ro.dir.c_str());
  if (opts.noReport && opts.failOn.empty())
    return status;
  // The report, printed unless --no-report; the gate reads its decisions.
  auto data = alea::runner::loadCampaignData(outcome->storePath);
  if (!data)
    return alea::Error{data.error()};
  auto report = alea::model::buildCampaignReport(*data);
  if (!opts.noReport)
    if (auto w = alea::report::writeReport(report, *format, "-"); !w)
      return alea::Error{w.error()};
  return alea::cli::gateStatus(report, opts.failOn, status);
}

} // namespace alea::cli

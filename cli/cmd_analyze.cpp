// `alea analyze FILE`: the statistics engine on a long-form measurement CSV
// (docs/analyze.md). Parses options, reads the file, and hands the table to
// the report model and formatter of alea_analysis; an error is returned to
// main, which prints it once ("data.csv:17:4: value "abc" is not a number").
#include "command.hpp"
#include "gate.hpp"
#include "measurement_file.hpp"

#include "alea/analysis/csv.hpp"
#include "alea/analysis/report.hpp"
#include "alea/contract.hpp"
#include "alea/model/campaign_report.hpp"
#include "alea/model/export_settings.hpp"
#include "alea/records.hpp"
#include "alea/report/escape.hpp"
#include "alea/report/render.hpp"

#include <cstdio>
#include <memory>
#include <tuple>

namespace {

struct AnalyzeOptions {
  std::string file;
  std::string baseline;
  std::vector<std::string> levels;
  std::string format = "text";
  std::string confidence = "0.95";
  std::string threshold = "0.01";
  std::size_t replicates = 2000;
  std::string seed = "0";
  unsigned threads = 0;
  std::string resampling = "rrr";
  std::string ciVariant = "t";
  std::string unbalanced = "auto";
  std::string costs;
  std::string target = "0.01";
  std::string disagreement = "0.25";
  std::string proportionHalfWidth = "0.05";
  bool noSpeedupTest = false;
  bool paired = false, unpaired = false;
  // Given on the command line: they override the file's settings comment.
  bool confidenceGiven = false, thresholdGiven = false, baselineGiven = false;
  bool allPairs = false;
  std::string output;
  std::string plots;
  std::string failOn;
};

alea::Expected<double> fraction(const std::string &text, const char *option) {
  auto v = alea::analysis::parseFraction(text);
  if (!v)
    return alea::Error{std::string(option) + ": " + v.error()};
  return *v;
}

alea::cli::Outcome runAnalyze(const AnalyzeOptions &o) {
  namespace an = alea::analysis;
  const auto format = alea::report::parseFormat(o.format);
  if (!format)
    return alea::Error{"--format: unknown format \"" + o.format + "\" (" +
                       alea::report::formatNames() + ")"};
  an::ReportOptions ro;
  ro.baseline = o.baseline;
  for (auto [text, option, value] :
       {std::tuple(&o.confidence, "--confidence", &ro.confidence),
        std::tuple(&o.threshold, "--threshold", &ro.threshold),
        std::tuple(&o.target, "--target-half-width", &ro.targetHalfWidth),
        std::tuple(&o.disagreement, "--disagreement", &ro.disagreementFraction)}) {
    auto v = fraction(*text, option);
    if (!v)
      return alea::Error{v.error()};
    *value = *v;
  }
  if (!(ro.confidence > 0 && ro.confidence < 1))
    return alea::Error{"--confidence: must be between 0 and 1, e.g. 0.95 or 95%"};
  if (!(ro.threshold >= 0 && ro.threshold < 1))
    return alea::Error{"--threshold: must be in [0, 1), e.g. 0.01 or 1%"};
  if (!(ro.targetHalfWidth > 0))
    return alea::Error{"--target-half-width: must be > 0, e.g. 0.01 or 1%"};
  if (!(ro.disagreementFraction >= 0))
    return alea::Error{"--disagreement: must be >= 0"};
  auto proportion = fraction(o.proportionHalfWidth, "--proportion-half-width");
  if (!proportion)
    return alea::Error{proportion.error()};
  ro.proportionHalfWidth = *proportion;
  if (!(ro.proportionHalfWidth > 0 && ro.proportionHalfWidth < 1))
    return alea::Error{"--proportion-half-width: must be in (0, 1), e.g. 0.05 or 5%"};
  ro.bootstrapReplicates = o.replicates;
  ro.threads = o.threads;
  if (!alea::parseSeed(o.seed, ro.seed))
    return alea::Error{"--seed: \"" + o.seed + "\" is not a decimal or 0x hex number"};
  auto scheme = an::ResamplingScheme::parse(o.resampling);
  if (!scheme)
    return alea::Error{"--resampling: " + scheme.error()};
  ro.scheme = *scheme;
  if (o.ciVariant == "t")
    ro.ciMethod = an::IntervalMethod::T;
  else if (o.ciVariant == "normal")
    ro.ciMethod = an::IntervalMethod::Normal;
  else
    return alea::Error{"--ci-variant: \"" + o.ciVariant + "\" is not t or normal"};
  const auto policy = an::parseUnbalancedPolicy(o.unbalanced);
  if (!policy)
    return alea::Error{"--unbalanced: \"" + o.unbalanced +
                       "\" is not auto, trim, mixed, drop or error"};
  ro.unbalanced = *policy;
  ro.speedupTest = !o.noSpeedupTest;
  ro.pairing = o.paired ? an::Pairing::Paired : an::Pairing::Unpaired;
  ro.allPairs = o.allPairs;

  const auto parsed = alea::cli::loadMeasurements(o.file, o.levels);
  if (!parsed)
    return alea::Error{parsed.error()};
  // The settings of the campaign the file was exported from (`alea export`
  // writes them in a comment line): the analysis `alea report` made of it,
  // unless the command line says otherwise.
  const auto settings = alea::model::readExportComment(parsed->comments);
  if (!settings)
    return alea::Error{o.file + ": " + settings.error()};
  if (*settings) {
    const alea::model::ExportSettings &es = **settings;
    auto percent = [](double fraction) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%g%%", fraction * 100);
      return std::string(buf);
    };
    std::string used;
    if (!es.design.empty() && !o.paired && !o.unpaired) {
      ro.pairing = alea::pairedDesign(*alea::parseEnum<alea::Design>(es.design))
                       ? an::Pairing::Paired
                       : an::Pairing::Unpaired;
      used += std::string(ro.pairing == an::Pairing::Paired ? "paired" : "unpaired") + " (design " +
              es.design + ")";
    }
    if (es.threshold && !o.thresholdGiven) {
      ro.threshold = *es.threshold;
      used += (used.empty() ? "" : ", ") + std::string("threshold ") + percent(*es.threshold);
    }
    if (es.confidence && !o.confidenceGiven) {
      ro.confidence = *es.confidence;
      used += (used.empty() ? "" : ", ") + std::string("confidence ") + percent(*es.confidence);
    }
    if (!es.baseline.empty() && !o.baselineGiven) {
      ro.baseline = es.baseline;
      used += (used.empty() ? "" : ", ") + ("baseline " + alea::report::plainText(es.baseline));
    }
    if (!used.empty())
      std::fprintf(stderr,
                   "alea: note: %s: %s, from the file's settings line (the options "
                   "override it)\n",
                   alea::report::plainText(o.file).c_str(), used.c_str());
  }
  if (!o.costs.empty()) {
    auto costs = alea::cli::costsOption(o.costs, parsed->table->levels());
    if (!costs)
      return alea::Error{costs.error()};
    ro.costs = std::move(*costs);
  }
  auto report = alea::model::analyzeTable(*parsed->table, ro);
  if (!report)
    return alea::Error{o.file + ": " + report.error()};
  if (auto s = alea::report::writeReport(*report, *format, o.output, o.plots); !s)
    return alea::Error{s.error()};
  return alea::cli::gateStatus(*report, o.failOn, alea::cli::kExitOk);
}

void setupAnalyze(CLI::App &sub) {
  auto o = std::make_shared<AnalyzeOptions>();
  sub.add_option("file", o->file, "CSV file (- for standard input)")->required();
  sub.add_option("--baseline", o->baseline, "denominator system (default: the first)");
  sub.add_option("--levels", o->levels, "level columns, highest first (default: header)")
      ->delimiter(',');
  sub.add_option("--format", o->format, "text, md, json, csv, html or latex")
      ->capture_default_str();
  sub.add_option("-o,--output", o->output, "write the report to this file (default: stdout)");
  sub.add_option("--plots", o->plots, "also write every figure as an SVG file in this directory");
  sub.add_option("--confidence", o->confidence, "confidence level (0.95 or 95%)")
      ->capture_default_str();
  sub.add_option("--threshold", o->threshold, "decision threshold (0.01 or 1%)")
      ->capture_default_str();
  sub.add_option("--bootstrap-replicates", o->replicates, "bootstrap replicates (>= 1000)")
      ->capture_default_str();
  sub.add_option("--seed", o->seed, "bootstrap seed (decimal or 0x hex)")->capture_default_str();
  sub.add_option("--threads", o->threads, "bootstrap threads (0: all cores)")
      ->capture_default_str();
  sub.add_option("--resampling", o->resampling, "rrr, rrn, rnn or flat")->capture_default_str();
  sub.add_option("--ci-variant", o->ciVariant, "t or normal quantile")->capture_default_str();
  sub.add_option("--unbalanced", o->unbalanced,
                 "unbalanced data: auto (trim, mixed or drop, whichever shape gives the "
                 "mean the smallest variance), trim (to the smallest counts), mixed (drop "
                 "incomplete lowest-level units, trim above), drop (incomplete units) or error")
      ->capture_default_str();
  sub.add_option("--costs", o->costs,
                 "planner overheads per level except the lowest, in measurements: "
                 "c1,c2 highest first or level=cost,...");
  sub.add_option("--target-half-width", o->target,
                 "planner target relative half-width (0.01 or 1%)")
      ->capture_default_str();
  sub.add_option("--disagreement", o->disagreement,
                 "Fieller/bootstrap disagreement warning, fraction of CI width")
      ->capture_default_str();
  sub.add_option("--proportion-half-width", o->proportionHalfWidth,
                 "suites: absolute half-width wanted for the CI of the proportion of "
                 "benchmarks decided faster (benchmarks-needed advice; 0.05 or 5%)")
      ->capture_default_str();
  sub.add_flag("--no-speedup-test", o->noSpeedupTest, "skip the Speedup-Test");
  auto *paired = sub.add_flag(
      "--paired", o->paired,
      "paired design (interleaved pairs, duet): pair each candidate's top-level "
      "units with the baseline's by label (paired Fieller and bootstrap); default: the file's "
      "settings line (alea export), else unpaired");
  sub.add_flag("--unpaired", o->unpaired,
               "analyse the systems as independent even when the file's settings line says "
               "the campaign was paired")
      ->excludes(paired);
  sub.add_flag("--all-pairs", o->allPairs,
               "three or more systems: compare every pair of systems, not only each with the "
               "baseline (Holm's correction then covers all pairs)");
  alea::cli::addFailOnOption(sub, o->failOn);
  sub.callback([o, &sub] {
    o->confidenceGiven = sub.get_option("--confidence")->count() > 0;
    o->thresholdGiven = sub.get_option("--threshold")->count() > 0;
    o->baselineGiven = sub.get_option("--baseline")->count() > 0;
    alea::cli::finish(runAnalyze(*o));
  });
}

} // namespace

ALEA_COMMAND("analyze",
             "Layout-independent statistics on a long-form measurement CSV "
             "(system,[benchmark,]<levels>,value[,started_at])",
             setupAnalyze);

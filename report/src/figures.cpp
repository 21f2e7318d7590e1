// The report's figures (render.hpp figures()): the report value's numbers
// (analysis::Report for the ratios and variance shares, analysis's
// BenchmarkFigures for builds, executions, drift and warm-up) handed to the
// plots (plots.hpp), with the words that caption them and their text
// alternatives. Nothing is computed here but the choice of what to draw.
#include "phrases.hpp"
#include "placement.hpp"

#include "alea/records.hpp"
#include "alea/report/plots.hpp"

#include <algorithm>
#include <cctype>
#include <set>

namespace alea::report {

namespace {

using analysis::BenchmarkFigures;

// "fft-2d" from "FFT 2d": a file stem and HTML id; unique within `used`, and
// at most kMaxBenchmarkNameBytes long (with its suffix), so that the longest
// figure file, executions-<slug>.svg, fits in a file name (config.hpp).
std::string slug(const std::string &name, std::set<std::string> &used) {
  std::string s;
  for (unsigned char c : name)
    s += std::isalnum(c) ? static_cast<char>(std::tolower(c)) : '-';
  if (s.empty())
    s = "benchmark";
  std::string unique = s.substr(0, alea::kMaxBenchmarkNameBytes);
  for (int i = 2; !used.insert(unique).second; ++i) {
    const std::string suffix = "-" + std::to_string(i);
    unique = s.substr(0, alea::kMaxBenchmarkNameBytes - suffix.size()) + suffix;
  }
  return unique;
}

std::string benchName(const std::string &b) { return b.empty() ? "the benchmark" : b; }

std::string unitOf(const model::CampaignReport &r, const std::string &benchmark) {
  const auto u = r.units.find(benchmark);
  return u != r.units.end() ? u->second : r.campaign ? "s" : "";
}

Figure forest(const model::CampaignReport &r) {
  const analysis::Report &a = *r.analysis;
  std::vector<ForestRow> rows;
  std::string alt;
  for (const auto &b : a.benchmarks)
    for (const auto &x : b.ratios) {
      ForestRow row;
      row.label = (b.name.empty() ? std::string() : b.name + ": ") + x.candidate;
      row.estimate = x.estimate;
      if (x.fieller) {
        row.lower = x.fieller->lower;
        row.upper = x.fieller->upper;
      }
      row.bootLower = x.bootstrap.lower;
      row.bootUpper = x.bootstrap.upper;
      row.decision = std::string(analysis::decisionName(x.decision));
      rows.push_back(row);
      alt += (b.name.empty() ? "" : b.name + ": ") + ratioSentence(x) + "; " + row.decision + ". ";
    }
  for (const auto &s : a.suite) {
    ForestRow row;
    row.label = "geometric mean: " + s.candidate;
    row.estimate = s.geometricMean;
    row.lower = s.bootstrap.lower;
    row.upper = s.bootstrap.upper;
    row.decision = std::string(analysis::decisionName(s.decision));
    row.suiteRow = true;
    rows.push_back(row);
    alt += "Suite geometric mean of " + s.candidate + " vs " + s.baseline + ": " +
           r3(s.geometricMean) + ", " + confidenceLabel(s.confidence) + " CI " +
           interval(s.bootstrap, r3) + "; " + row.decision + ". ";
  }
  PlotText t;
  t.title =
      "Ratios of mean times, " + confidenceLabel(a.options.confidence) + " confidence intervals";
  t.xLabel = "ratio (candidate / " + a.baseline + "; below 1 is faster)";
  t.description = "Fieller intervals (thick) and bootstrap intervals (thin); the band is the "
                  "no-change threshold of +-" +
                  pct(a.options.threshold) + ".";
  return {"forest", t.title, forestPlot(rows, a.options.threshold, t), alt, true, ""};
}

// The figures of one benchmark: builds, executions, variance shares, drift,
// warm-up.
void benchmarkFigures(const model::CampaignReport &r, const analysis::BenchmarkReport &b,
                      const BenchmarkFigures *f, const std::string &id, std::vector<Figure> &out) {
  const std::string name = benchName(b.name);
  const std::string unit = f ? unitOf(r, f->benchmark) : unitOf(r, b.name);
  const double confidence = r.analysis->options.confidence;
  std::vector<std::string> systems;
  if (f)
    for (const auto &s : f->systems)
      systems.push_back(s.system);
  if (f) {
    const std::string top = f->topLevel.empty() ? "build" : f->topLevel;
    std::vector<BuildMeansSeries> series;
    std::string alt;
    for (const auto &s : f->systems) {
      BuildMeansSeries one{s.system, {}};
      for (const auto &bf : s.builds)
        one.builds.push_back({top + " " + bf.label, bf.mean, bf.hasCi ? bf.ci.lower : NAN,
                              bf.hasCi ? bf.ci.upper : NAN});
      if (!s.builds.empty())
        alt += s.system + ": " + counted(s.builds.size(), top) + " from " +
               quantity(s.builds.front().mean, unit) + " (" + top + " " + s.builds.front().label +
               ") to " + quantity(s.builds.back().mean, unit) + " (" + top + " " +
               s.builds.back().label + "). ";
      series.push_back(std::move(one));
    }
    PlotText t{"Mean of each " + top + " of " + name + ", sorted, with " +
                   confidenceLabel(confidence) + " CIs",
               top + "s, fastest first", "mean", unit,
               "The spread of the " + top +
                   " means is the layout spread, execution noise "
                   "included."};
    out.push_back({"builds-" + id, t.title, buildMeansPlot(series, t), alt, false, ""});

    std::vector<StripBuild> strip;
    for (std::size_t k = 0; k < f->systems.size(); ++k)
      for (const auto &bf : f->systems[k].builds)
        if (bf.stripShown)
          strip.push_back({bf.label, k, bf.executionMeans});
    const std::string second = f->secondLevel.empty() ? "execution" : f->secondLevel;
    std::string title = second + " means per " + top + " of " + name;
    title[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(title[0])));
    PlotText ts{title, top, "mean", unit,
                "Each dot is one " + second + "'s mean; " + top + "s in the order of their means."};
    out.push_back({"executions-" + id, ts.title, stripPlot(strip, systems, ts),
                   "The " + second + " means of " + std::to_string(strip.size()) + " " + top +
                       "s, per " + top + ".",
                   false, ""});
  }

  std::vector<VarianceShares> shares;
  std::string alt;
  for (const auto &s : b.systems) {
    VarianceShares v{s.name, {}};
    for (const auto &l : s.levels)
      v.shares.push_back({l.name, l.share});
    shares.push_back(std::move(v));
    alt += s.name + ": " + sharesText(s) + ". ";
  }
  PlotText tv{"Where the variance of " + name + " comes from", "share of the variance", "", "",
              "Kalibera-Jones variance components per level."};
  out.push_back({"variance-" + id, tv.title, varianceSharesPlot(shares, tv), alt, false, ""});

  if (!f)
    return;
  std::vector<DriftPoint> drift;
  for (const auto &p : f->drift)
    drift.push_back({static_cast<double>(p.order + 1), p.value, p.system});
  PlotText td{"Drift: " + f->secondLevel + " means of " + name + " in the order they ran",
              f->secondLevel + " (run order)", "mean", unit,
              f->driftSampledEvery > 1
                  ? "Every " + std::to_string(f->driftSampledEvery) + "th of " +
                        std::to_string(f->executions) + " " + f->secondLevel + "s."
                  : "All " + std::to_string(f->executions) + " " + f->secondLevel + "s."};
  out.push_back({"drift-" + id, td.title, driftPlot(drift, systems, td),
                 "The means of " + std::to_string(f->executions) + " " + f->secondLevel +
                     "s in run order, coloured by system: a trend or a step would show the "
                     "machine changing during the campaign.",
                 false, ""});

  std::vector<WarmupSeries> warm;
  for (const auto &s : f->systems)
    warm.push_back({s.system, s.iterationMedians});
  PlotText tw{"Warm-up of " + name + ": median value by " + f->lowestLevel, f->lowestLevel,
              "median", unit,
              f->warmupIterations > 0
                  ? "The line marks the " + counted(f->warmupIterations, f->lowestLevel) +
                        " dropped as warm-up."
                  : std::string("No iterations were dropped as warm-up.")};
  std::optional<std::size_t> dropped;
  if (f->warmupIterations > 0)
    dropped = f->warmupIterations;
  out.push_back({"warmup-" + id, tw.title, warmupPlot(warm, dropped, tw),
                 "The median over " + f->secondLevel + "s of each " + f->lowestLevel +
                     "'s value, by its index: a falling start is warm-up.",
                 false, ""});
}

} // namespace

std::vector<Figure> figures(const model::CampaignReport &r) {
  std::vector<Figure> out;
  if (!r.analysis)
    return out;
  bool anyRatio = !r.analysis->suite.empty();
  for (const auto &b : r.analysis->benchmarks)
    anyRatio = anyRatio || !b.ratios.empty();
  if (anyRatio)
    out.push_back(forest(r));
  std::set<std::string> used{"forest"};
  for (const auto &b : r.analysis->benchmarks) {
    const BenchmarkFigures *f = nullptr;
    for (const auto &bf : r.figures)
      if (bf.benchmark == b.name)
        f = &bf;
    const std::size_t first = out.size();
    const std::string id = slug(b.name, used);
    benchmarkFigures(r, b, f, id, out);
    placementFigure(r, b.name, id, out);
    for (std::size_t i = first; i < out.size(); ++i)
      out[i].benchmark = b.name;
  }
  return out;
}

} // namespace alea::report

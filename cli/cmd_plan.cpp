// `alea plan FILE`: the Kalibera-Jones planner on pilot data (a long-form
// CSV): variance components, optimal counts per level (eq. 14 after level
// removal), top-level units for a target half-width or a time budget, the
// predicted half-width, and the KJ13 Tables 6/7 rule. See docs/analyze.md.
#include "command.hpp"
#include "measurement_file.hpp"

#include "alea/analysis/csv.hpp"
#include "alea/analysis/report.hpp"
#include "alea/report/render.hpp"

#include <iostream>
#include <memory>

namespace {

struct PlanOptions {
  std::string file;
  std::vector<std::string> levels;
  std::string format = "text";
  std::string costs;
  std::string target;
  double budget = 0;
  std::string confidence = "0.95";
  std::string unbalanced = "auto";
};

alea::cli::Outcome runPlan(const PlanOptions &o) {
  namespace an = alea::analysis;
  const auto format = alea::report::parseFormat(o.format);
  if (!format)
    return alea::Error{"--format: unknown format \"" + o.format + "\" (text, json, csv, md)"};
  an::PlanRequest req;
  if (!o.target.empty()) {
    auto t = an::parseFraction(o.target);
    if (!t)
      return alea::Error{"--target-half-width: " + t.error()};
    req.targetHalfWidth = *t;
  }
  if (o.budget != 0)
    req.budget = o.budget;
  if (!req.targetHalfWidth && !req.budget)
    return alea::Error{"give --target-half-width P or --budget SECONDS"};
  auto c = an::parseFraction(o.confidence);
  if (!c)
    return alea::Error{"--confidence: " + c.error()};
  req.confidence = *c;
  if (!(req.confidence > 0 && req.confidence < 1))
    return alea::Error{"--confidence: must be between 0 and 1, e.g. 0.95 or 95%"};
  const auto policy = an::parseUnbalancedPolicy(o.unbalanced);
  if (!policy)
    return alea::Error{"--unbalanced: \"" + o.unbalanced +
                       "\" is not auto, trim, mixed, drop or error"};

  const auto parsed = alea::cli::loadMeasurements(o.file, o.levels);
  if (!parsed)
    return alea::Error{parsed.error()};
  if (!o.costs.empty()) {
    auto costs = alea::cli::costsOption(o.costs, parsed->table->levels());
    if (!costs)
      return alea::Error{costs.error()};
    req.costs = std::move(*costs);
  }
  auto plans = an::buildPlans(*parsed->table, req, *policy);
  if (!plans)
    return alea::Error{o.file + ": " + plans.error()};
  std::cout << alea::report::renderPlans(*plans, *format);
  return 0;
}

void setupPlan(CLI::App &sub) {
  auto o = std::make_shared<PlanOptions>();
  sub.add_option("file", o->file, "pilot data, long-form CSV (- for standard input)")->required();
  sub.add_option("--levels", o->levels, "level columns, highest first (default: header)")
      ->delimiter(',');
  sub.add_option("--costs", o->costs,
                 "overheads per level except the lowest, in measurements: c1,c2 "
                 "highest first or level=cost,... (default: 1 each)");
  auto *target = sub.add_option("--target-half-width", o->target,
                                "target relative half-width of the mean's CI (0.01 or 1%)");
  auto *budget =
      sub.add_option("--budget", o->budget, "time budget, in the unit of the values (seconds)");
  target->excludes(budget);
  sub.add_option("--confidence", o->confidence, "confidence level")->capture_default_str();
  sub.add_option("--format", o->format, "text, json, csv or md")->capture_default_str();
  sub.add_option("--unbalanced", o->unbalanced, "auto, trim, mixed, drop or error (as in analyze)")
      ->capture_default_str();
  sub.callback([o] { alea::cli::finish(runPlan(*o)); });
}

} // namespace

ALEA_COMMAND("plan", "Optimal repetition counts per level from pilot data (Kalibera & Jones)",
             setupPlan);

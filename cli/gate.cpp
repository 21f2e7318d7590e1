// --fail-on (gate.hpp).
#include "gate.hpp"

#include "alea/report/escape.hpp"
#include "alea/report/render.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>

namespace alea::cli {

void addFailOnOption(CLI::App &sub, std::string &failOn) {
  sub.add_option("--fail-on", failOn,
                 "a CI gate: exit with status 5 when a comparison is decided slower, faster, or "
                 "either (change); with $GITHUB_STEP_SUMMARY set, the Markdown report goes there")
      ->check(CLI::IsMember({enumName(model::FailOn::Slower), enumName(model::FailOn::Faster),
                             enumName(model::FailOn::Change)}));
}

Outcome gateStatus(const model::CampaignReport &report, const std::string &failOn, int status) {
  if (failOn.empty())
    return status;
  const auto on = parseEnum<model::FailOn>(failOn);
  if (!on) // CLI11 checked it
    return Error{"--fail-on: \"" + failOn + "\" is not slower, faster or change", ErrorKind::Usage};
  if (const char *summary = std::getenv("GITHUB_STEP_SUMMARY"); summary && *summary) {
    std::ofstream out(summary, std::ios::app | std::ios::binary);
    out << report::render(report, report::Format::Markdown) << '\n';
    if (!out)
      return Error{std::string("cannot append the report to $GITHUB_STEP_SUMMARY ('") + summary +
                   "')"};
  }
  const std::vector<std::string> failures = model::gateFailures(report, *on);
  if (failures.empty())
    return status;
  std::fprintf(stderr, "alea: --fail-on %s: %zu comparison%s decided so:\n", failOn.c_str(),
               failures.size(), failures.size() == 1 ? "" : "s");
  for (const std::string &f : failures)
    std::fprintf(stderr, "alea:   %s\n", report::plainText(f).c_str());
  return kExitGate;
}

} // namespace alea::cli

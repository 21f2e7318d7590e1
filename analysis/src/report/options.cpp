// The command-line spellings `alea analyze`, `alea plan` and `alea report`
// share (report.hpp): a fraction as "0.01" or "1%", and the planner's costs
// per level.
#include "alea/analysis/report.hpp"

#include "alea/lists.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace alea::analysis {

namespace {
bool parseDouble(std::string_view text, double &out) {
  while (!text.empty() && text.front() == ' ')
    text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ')
    text.remove_suffix(1);
  if (!text.empty() && text.front() == '+')
    text.remove_prefix(1);
  if (text.empty())
    return false;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && ptr == text.data() + text.size() && std::isfinite(out);
}
} // namespace

Expected<double> parseFraction(std::string_view text) {
  const bool percentSign = !text.empty() && text.back() == '%';
  if (percentSign)
    text.remove_suffix(1);
  double v = 0;
  if (!parseDouble(text, v))
    return fail("\"" + std::string(text) + (percentSign ? "%" : "") +
                "\" is not a number or a percentage");
  return percentSign ? v / 100.0 : v;
}

Expected<std::vector<double>> parseCosts(std::string_view text,
                                         const std::vector<std::string> &levels) {
  const std::size_t want = levels.empty() ? 0 : levels.size() - 1;
  const std::vector<std::string_view> items = splitAt(text, ',');
  std::vector<double> costs(want, 0);
  std::vector<bool> set(want, false);
  if (want == 0)
    return fail("the data has one level (" + (levels.empty() ? std::string() : levels[0]) +
                "): it takes no costs");
  const bool named = items.front().find('=') != std::string_view::npos;
  if (!named && items.size() != want)
    return fail("expected " + std::to_string(want) + " costs (one per level except the lowest: " +
                [&] {
                  std::string n;
                  for (std::size_t i = 0; i < want; ++i)
                    n += (i ? "," : "") + levels[i];
                  return n;
                }() +
                "), got " + std::to_string(items.size()));
  for (std::size_t i = 0; i < items.size(); ++i) {
    std::string_view item = items[i];
    std::size_t index = i;
    if (named) {
      const auto eq = item.find('=');
      if (eq == std::string_view::npos)
        return fail("cost \"" + std::string(item) + "\" is not of the form level=value");
      const std::string name(item.substr(0, eq));
      const auto it = std::find(levels.begin(), levels.end(), name);
      if (it == levels.end())
        return fail("cost for unknown level \"" + name + "\"");
      index = static_cast<std::size_t>(it - levels.begin());
      if (index >= want)
        return fail("the lowest level (" + name +
                    ") has no overhead: costs are in units of one of its measurements");
      if (set[index])
        return fail("cost for level \"" + name + "\" given twice");
      item = item.substr(eq + 1);
    }
    double v = 0;
    if (!parseDouble(item, v) || v < 0)
      return fail("cost \"" + std::string(item) + "\" is not a number >= 0");
    costs[index] = v;
    set[index] = true;
  }
  for (std::size_t i = 0; i < want; ++i)
    if (!set[i])
      return fail("no cost for level \"" + levels[i] + "\"");
  return costs;
}

} // namespace alea::analysis

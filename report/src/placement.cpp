// Which functions' placement matters (placement.hpp): the sentences, the
// text, Markdown, HTML and JSON sections and the figure. Words and layout
// only: every number comes from analysis::attributeLayoutVariance.
#include "placement.hpp"

#include "alea/report/plots.hpp"

#include <cmath>

namespace alea::report {

namespace {

using analysis::Attribution;
using analysis::FunctionAttribution;
using analysis::PlacementFact;

std::string count(std::size_t with, std::size_t of) {
  return std::to_string(with) + " of " + std::to_string(of);
}

// What the fact says, without its counts.
std::string factWhat(const PlacementFact &f) {
  const std::string line = std::to_string(f.lineBytes) + "-byte";
  switch (f.kind) {
  case PlacementFact::Kind::LineOffset:
    return f.bytes == 0 ? "its start is at a " + line + " boundary"
                        : "its start is " + std::to_string(f.bytes) + " byte" +
                              (f.bytes == 1 ? "" : "s") + " before a " + line + " boundary";
  case PlacementFact::Kind::LinesSpanned:
    return "it spans " + std::to_string(f.lines) + " or more " + line + " lines";
  case PlacementFact::Kind::PageCrossing:
    return "it crosses a 4 KiB page boundary";
  case PlacementFact::Kind::SharedSets:
    return "a line of it and one of " + f.other + " map to the same I1 set";
  }
  return "";
}

const char *factKind(PlacementFact::Kind k) {
  switch (k) {
  case PlacementFact::Kind::LineOffset:
    return "line_offset";
  case PlacementFact::Kind::LinesSpanned:
    return "lines_spanned";
  case PlacementFact::Kind::PageCrossing:
    return "page_crossing";
  case PlacementFact::Kind::SharedSets:
    return "shared_i1_sets";
  }
  return "";
}

std::string functionSentence(const Attribution &a, const FunctionAttribution &f) {
  std::string s = pct(f.termShare) + " of the layout variance of " + a.metric + " comes from " +
                  f.term + " in " + f.function;
  std::string paren;
  if (pct(f.termShare) != pct(f.share))
    paren = pct(f.share) + " from " + f.function + " in all; ";
  s += " (" + paren + "its cost varies by " + pct(f.relativeSpread, "%.0f%%") +
       " of its mean across the builds)";
  if (f.fact)
    s += "; " + factWhat(*f.fact) + " in " + count(f.fact->slowWith, f.fact->slowBuilds) +
         " slow builds (" + count(f.fact->fastWith, f.fact->fastBuilds) + " fast)";
  else
    s += "; no placement fact of it separates its slow builds from its fast ones";
  return s;
}

} // namespace

std::string placementHeading(const Attribution &a) {
  std::string s =
      a.benchmark + " on " + a.system + ": " + a.metric + " over " + counted(a.builds, "build");
  if (a.builds >= 3)
    s += ", mean " + g4(a.mean) + ", sd " + g4(a.sd) +
         (a.mean > 0 ? " (" + pct(a.sd / a.mean, "%.2f%%") + ")" : "");
  if (!a.note.empty())
    s += ": " + a.note;
  return s;
}

std::vector<std::string> placementLines(const Attribution &a) {
  std::vector<std::string> lines;
  for (const auto &f : a.functions)
    lines.push_back(functionSentence(a, f));
  if (!a.functions.empty())
    // A share that prints as zero is zero, whatever its sign ("-0.0%").
    lines.push_back("every other function: " +
                    pct(std::fabs(a.otherShare) < 0.0005 ? 0.0 : a.otherShare));
  return lines;
}

std::vector<LineGroup> placementGroups(const model::CampaignReport &r) {
  std::vector<LineGroup> groups;
  for (const auto &a : r.placement)
    groups.push_back({placementHeading(a), placementLines(a), {}});
  return groups;
}

std::string placementText(const model::CampaignReport &r) {
  std::string o;
  for (const LineGroup &g : placementGroups(r)) {
    o += "  " + plainText(g.heading) + "\n";
    for (const auto &l : g.lines)
      o += "    " + plainText(l) + "\n";
  }
  return o.empty() ? o
                   : "\nwhich functions' placement matters (per-function simulated counts of one "
                     "execution per build):\n" +
                         o;
}

nlohmann::ordered_json placementJson(const std::vector<Attribution> &placement) {
  using Json = nlohmann::ordered_json;
  Json out = Json::array();
  for (const auto &a : placement) {
    Json o = Json::object();
    o["system"] = a.system;
    o["benchmark"] = a.benchmark;
    o["metric"] = a.metric;
    o["builds"] = a.builds;
    o["mean"] = a.mean;
    o["sd"] = a.sd;
    o["note"] = a.note.empty() ? Json(nullptr) : Json(a.note);
    o["other_share"] = a.functions.empty() ? Json(nullptr) : Json(a.otherShare);
    Json functions = Json::array();
    for (const auto &f : a.functions) {
      Json j = Json::object();
      j["function"] = f.function;
      j["share"] = f.share;
      j["term"] = f.term;
      j["term_share"] = f.termShare;
      j["mean_cost"] = f.meanCost;
      j["relative_spread"] = f.relativeSpread;
      j["builds"] = f.builds;
      j["cost"] = f.cost;
      if (f.fact) {
        Json fact = Json::object();
        fact["kind"] = factKind(f.fact->kind);
        fact["text"] = factWhat(*f.fact);
        fact["bytes_before_boundary"] = f.fact->bytes;
        fact["line_bytes"] = f.fact->lineBytes;
        fact["lines"] = f.fact->lines;
        fact["other"] = f.fact->other.empty() ? Json(nullptr) : Json(f.fact->other);
        fact["slow_with"] = f.fact->slowWith;
        fact["slow_builds"] = f.fact->slowBuilds;
        fact["fast_with"] = f.fact->fastWith;
        fact["fast_builds"] = f.fact->fastBuilds;
        j["fact"] = std::move(fact);
      } else {
        j["fact"] = nullptr;
      }
      j["sentence"] = functionSentence(a, f);
      functions.push_back(std::move(j));
    }
    o["functions"] = std::move(functions);
    out.push_back(std::move(o));
  }
  return out;
}

void placementFigure(const model::CampaignReport &r, const std::string &benchmark,
                     const std::string &slug, std::vector<Figure> &out) {
  std::vector<VarianceShares> rows;
  std::string alt, metric;
  for (const auto &a : r.placement) {
    if (a.benchmark != benchmark || a.functions.empty())
      continue;
    VarianceShares v{a.system, {}};
    // Shares below 0 (a function, or the rest, moving against the total)
    // have no bar: the figure shows the parts that add to the variance.
    for (const auto &f : a.functions)
      v.shares.push_back({f.function, f.share});
    if (a.otherShare > 0)
      v.shares.push_back({"every other function", a.otherShare});
    rows.push_back(std::move(v));
    metric = a.metric;
    alt += a.system + ": ";
    for (const auto &l : placementLines(a))
      alt += l + ". ";
  }
  if (rows.empty())
    return;
  PlotText text{"Which functions' placement matters: " + benchmark,
                "share of the layout variance of " + metric, "", "",
                "Each function's share cov(cost, total) / var(total) over the builds."};
  out.push_back(
      {"placement-" + slug, text.title, varianceSharesPlot(rows, text), alt, false, benchmark});
}

} // namespace alea::report

// Paired designs (issue 8): the top-level units of a candidate and the
// baseline that ran together, matched by label.
#include "steps.hpp"

#include "alea/analysis/bootstrap.hpp"

#include <cstdio>

namespace alea::analysis::detail {

Expected<PairedData> pairByLabel(const SystemData &cand, const SystemData &base,
                                 const std::vector<std::string> &levels, const ReportOptions &o) {
  PairedData out;
  const std::string &top = levels[0];
  if (o.pairing != Pairing::Paired) {
    out.pairingNote = "unpaired: the design did not pair " + top + "s";
    return out;
  }
  if (o.scheme.kind == ResamplingScheme::Kind::Flat) {
    out.pairingNote = "unpaired: the FLAT resampling scheme ignores the " + top + "s";
    return out;
  }
  SystemData c, b; // the pairs only (the rest of SystemData is not needed)
  c.system = cand.system;
  c.shape = cand.shape;
  b.system = base.system;
  b.shape = base.shape;
  for (const UnitNode &u : base.units)
    for (const UnitNode &v : cand.units)
      if (v.label == u.label) {
        b.units.push_back(u);
        c.units.push_back(v);
        break;
      }
  out.pairs = b.units.size();
  out.unmatched = cand.units.size() + base.units.size() - 2 * out.pairs;
  if (out.pairs < 2) {
    out.pairingNote = out.pairs == 0 ? "unpaired: no " + top + " label has data in both systems"
                                     : "unpaired: only 1 " + top + " pair has data in both systems";
    return out;
  }
  c.shape[0] = b.shape[0] = out.pairs;
  auto hc = hierarchyOf(c, levels);
  if (!hc)
    return fail(hc.error());
  auto hb = hierarchyOf(b, levels);
  if (!hb)
    return fail(hb.error());
  out.paired = true;
  out.candidate = std::move(*hc);
  out.baseline = std::move(*hb);
  char corr[32];
  out.pairCorrelation = pairCorrelation(out.candidate, out.baseline);
  std::snprintf(corr, sizeof corr, "%.2f", out.pairCorrelation);
  out.pairingNote = "paired by " + top + " (" + std::to_string(out.pairs) + " pairs; ";
  if (out.unmatched > 0)
    out.pairingNote += std::to_string(out.unmatched) + " " + top + (out.unmatched == 1 ? "" : "s") +
                       " without a partner left out; ";
  out.pairingNote += "correlation of the " + top + " means " + corr + ")";
  return out;
}

} // namespace alea::analysis::detail

// The decisions of a duet's synchronization (duet.hpp): the per-iteration
// barrier's releases, and the judgment of whole-process executions by their
// partners' spans.
#include "alea/exec/duet.hpp"

#include "alea/exec/measure.hpp"

#include <algorithm>
#include <cstdio>

namespace alea::runner {

std::vector<std::size_t> DuetBarrier::records(std::size_t partner, std::string_view bytes) {
  Partner &p = partners_[partner];
  if (!p.takesPart || p.ended)
    return {};
  p.partial.append(bytes);
  std::size_t at = 0;
  for (; p.takesPart && p.partial.size() - at >= iter::kRecordSize; at += iter::kRecordSize) {
    const auto *rec = reinterpret_cast<const unsigned char *>(p.partial.data() + at);
    const std::uint32_t magic =
        rec[0] | rec[1] << 8 | rec[2] << 16 | static_cast<std::uint32_t>(rec[3]) << 24;
    const unsigned kind = rec[6] | rec[7] << 8;
    if (magic != iter::kMagic) { // garbage: the decoder reports it; nobody waits for it
      p.takesPart = false;
      break;
    }
    if (kind == static_cast<unsigned>(iter::Kind::Barrier))
      ++p.arrived;
    else if (!p.seenRecord) // an older <alea/iter.h>: no barrier before its first iteration
      p.takesPart = false;
    p.seenRecord = true;
  }
  p.partial.erase(0, at);
  if (!p.takesPart)
    p.partial.clear();
  return releasable();
}

std::vector<std::size_t> DuetBarrier::ended(std::size_t partner) {
  partners_[partner].ended = true;
  return releasable();
}

// A partner waiting at barrier g (arrived > released = g) goes on once every
// other active partner has arrived there too.
std::vector<std::size_t> DuetBarrier::releasable() {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < partners_.size(); ++i) {
    Partner &p = partners_[i];
    if (!p.takesPart || p.ended || p.arrived <= p.released)
      continue;
    bool all = true;
    for (const Partner &q : partners_)
      if (q.takesPart && !q.ended && q.arrived <= p.released)
        all = false;
    if (all) {
      ++p.released;
      out.push_back(i);
    }
  }
  return out;
}

std::vector<DuetJudgment> judgeDuet(const std::vector<DuetPartnerRun> &runs) {
  std::vector<DuetJudgment> out(runs.size());
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const DuetPartnerRun &r = runs[i];
    double from = r.start, to = r.end;
    for (std::size_t k = 0; k < runs.size(); ++k) {
      if (k == i)
        continue;
      from = std::max(from, runs[k].loopStart);
      to = std::min(to, runs[k].loopEnd);
      // Started together, a partner that stopped before this one ended left
      // it alone from then on.
      if (runs[k].stoppedEarly && runs[k].loopEnd < r.end && out[i].alone.empty()) {
        char share[32];
        std::snprintf(share, sizeof share, "%.1f%%",
                      r.end > r.start
                          ? 100.0 * (r.end - std::max(runs[k].loopEnd, r.start)) / (r.end - r.start)
                          : 100.0);
        out[i].alone = std::string("ran alone for ") + share + " of its time: " + runs[k].name +
                       " stopped (" + runs[k].why + ") before it ended; not counted";
      }
    }
    out[i].overlap = r.end > r.start ? std::max(0.0, to - from) / (r.end - r.start) : 0;
  }
  return out;
}

} // namespace alea::runner

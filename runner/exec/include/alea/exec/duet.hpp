// How a duet (design = "duet", Bulej et al., "Duet Benchmarking: Improving
// Measurement Accuracy in the Cloud", ICPE 2020) keeps its partners running
// together, so that neither is measured while it runs alone (docs/campaign.md
// "Designs"). Two schemes, chosen from what is measured:
//   barrier  (measure source "records"): the partners meet at a barrier before
//            each iteration (<alea/iter.h>: a kind-4 record, then a one-byte
//            release on ALEA_DUET_FD), so iteration k of each starts together;
//            DuetBarrier below decides whom to release.
//   overlap  (whole-process measurements): a partner whose execution ended is
//            restarted, its restarts not measured, until every partner's
//            execution has ended; an execution during which a partner stopped
//            (failed, not restarted) ran partly alone and is not counted
//            (judgeDuet below).
// The executor (executor.cpp, runTogether) does the processes; this file holds
// the decisions, pure and unit-tested.
#pragma once

#include "alea/records.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace alea::runner {

// The scheme of a duet whose executions read (or do not read) <alea/iter.h>
// records.
inline DuetSync duetSyncFor(bool records) {
  return records ? DuetSync::Barrier : DuetSync::Overlap;
}

// The per-iteration barrier of a duet's partners, fed with what each partner
// writes to its records pipe. A partner takes part once its first record is a
// barrier record; a program built against an older <alea/iter.h> writes an
// iteration record first and is left out (it runs unsynchronized and holds
// nobody back). A partner that ended holds nobody back either. Each call
// returns the partners to release now (one byte each, in that order).
class DuetBarrier {
public:
  explicit DuetBarrier(std::size_t partners) : partners_(partners) {}
  std::vector<std::size_t> records(std::size_t partner, std::string_view bytes);
  std::vector<std::size_t> ended(std::size_t partner);
  // The barriers partner p passed (was released from).
  std::int64_t passed(std::size_t partner) const { return partners_[partner].released; }
  bool takesPart(std::size_t partner) const { return partners_[partner].takesPart; }

private:
  struct Partner {
    std::string partial;       // an incomplete record
    std::int64_t arrived = 0;  // barrier records seen
    std::int64_t released = 0; // releases sent
    bool seenRecord = false;
    bool takesPart = true; // until its first record says otherwise
    bool ended = false;
  };
  std::vector<std::size_t> releasable();
  std::vector<Partner> partners_;
};

// One partner of a whole-process duet as the executor saw it (steady clock,
// seconds): its measured execution, and the span during which it ran, its
// restarts included. `stoppedEarly`: its restarts ended on their own (an
// execution failed), not because every measured execution had ended.
struct DuetPartnerRun {
  double start = 0, end = 0;         // the measured execution
  double loopStart = 0, loopEnd = 0; // the partner running, restarts included
  bool stoppedEarly = false;
  std::string why;  // what stopped it early ("exit 1", ...)
  std::string name; // how to name it ("partner 2 (prog)")
};

struct DuetJudgment {
  double overlap = 0; // share of its time every partner was running
  std::string alone;  // "" = counted; else why it is not a measurement
};

// Each measured execution's overlap with its partners' spans, and whether it
// ran (partly) alone: a partner stopped early before it ended.
std::vector<DuetJudgment> judgeDuet(const std::vector<DuetPartnerRun> &runs);

} // namespace alea::runner

// The facts of this machine that validateCampaign (validate.hpp) checks a
// campaign against before its first build: the CPUs (config's
// readMachineFacts), and the probes of what the benchmarks' metrics need
// here: each counter opened once (counters.hpp), cachegrind run once on
// `true` per simulated cache (cachegrind.hpp). The probes are the effects;
// the decision and its message are validation's.
#pragma once

#include "alea/config/config.hpp"
#include "alea/config/validate.hpp"

namespace alea::runner {

// A campaign on targets measures there: nothing is probed here for it.
MachineFacts readMachineFacts(const CampaignConfig &cfg);

} // namespace alea::runner

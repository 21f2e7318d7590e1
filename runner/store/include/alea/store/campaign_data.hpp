// Step 1 of `alea report` (report/model's alea/model/campaign_report.hpp):
// reading a campaign store into the report model's CampaignData, through the
// store's read methods (store.hpp; their SQL is in store.cpp) and, for the
// builds' binaries, alea_linker (layout_facts.hpp).
#pragma once

#include "alea/model/campaign_report.hpp"
#include "alea/store/store.hpp"

#include <string>

namespace alea::runner {

using model::CampaignData;

// Reads a campaign store. `path` is the store file or the campaign directory
// holding `campaign.db`. Fails (one sentence) when it is not a campaign store.
Expected<CampaignData> loadCampaignData(const std::string &path);
Expected<CampaignData> loadCampaignData(Store &store);

} // namespace alea::runner

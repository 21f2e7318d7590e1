// The report's figures (render.hpp figures()). (being written)
#include "phrases.hpp"

namespace alea::report {

std::vector<Figure> figures(const runner::CampaignReport &) { return {}; }

} // namespace alea::report

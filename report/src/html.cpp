// The HTML renderer (render.hpp): one self-contained page. (being written)
#include "phrases.hpp"

namespace alea::report {

std::string renderHtml(const runner::CampaignReport &r) { return renderText(r); }

} // namespace alea::report

// The LaTeX renderer (render.hpp). (being written)
#include "phrases.hpp"

namespace alea::report {

std::string renderLatex(const runner::CampaignReport &r) { return renderText(r); }

} // namespace alea::report

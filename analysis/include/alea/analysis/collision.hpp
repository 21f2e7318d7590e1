// How likely two randomized builds are to get the same layout (issue 11, item
// 12): the "identical layouts" warning must tell a tiny program that happened
// to draw the same layout twice from a build whose randomization did not take.
// The count of equally likely layouts is taken over the draws that move
// functions, each uniform and independent (DESIGN.md, "Randomization
// factors"):
//  - section-order (lld --shuffle-sections over -ffunction-sections): one
//    uniform permutation of the program's function sections, s! orders, with
//    s = the randomized functions plus one section for the code alea did not
//    compile (the C runtime's start files) when there is any; it subsumes the
//    per-module function order and the object order;
//  - otherwise function-order (a Fisher-Yates permutation per module, n_m!
//    orders; the per-module counts are not recorded, so the functions are
//    taken as spread evenly, the split with the fewest orders) times
//    link-order (the k! orders of the k randomized objects);
//  - code-padding: 0, 16, 32 or 48 bytes before each randomized function, 4^n.
// Two builds coincide with probability 1/L when their draws coincide; draws
// that differ yet give the same addresses (equal-sized functions traded) and
// randomness not counted here (section padding, data) are left out, so 1/L is
// an upper bound in practice, which is the safe side for saying "expected".
// Over b builds, some pair coincides with the birthday probability
// 1 - prod_{i<b} (1 - i/L).
#pragma once

#include <cstddef>

namespace alea::analysis {

struct LayoutSpace {
  std::size_t functions = 0;      // functions of the modules alea compiled
  std::size_t otherFunctions = 0; // functions of code alea did not compile
  std::size_t modules = 0;        // modules alea compiled (compile-time notes)
  bool functionOrder = false, codePadding = false, linkOrder = false, sectionOrder = false;
};

struct CollisionOdds {
  double log10Layouts = 0;       // log10 of the equally likely layouts counted (L)
  double pairProbability = 1;    // two given builds coincide: 1 / L
  double anyPairProbability = 1; // some pair among the builds coincides
};

CollisionOdds layoutCollisionOdds(const LayoutSpace &space, std::size_t builds);

} // namespace alea::analysis

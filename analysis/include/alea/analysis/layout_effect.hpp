// The layout effect of one system (issue 10, report.hpp LayoutEffect): the
// standard deviation of the top-level (layout) random effect from the
// variance components, its modified large-sample (MLS) confidence interval
// (Graybill & Wang 1980; Ting, Burdick, Graybill, Jeyaratnam & Lu 1990;
// Burdick & Graybill 1992), and the spread between the best and the worst of
// n layouts that this sigma implies, d2(n) x sigma, d2(n) the expected range
// of n standard normals (Tippett 1925; the d2 constant of control charts).
#pragma once

#include "alea/analysis/hierarchy.hpp"
#include "alea/analysis/interval.hpp"
#include "alea/analysis/report.hpp"
#include "alea/expected.hpp"

#include <cstddef>

namespace alea::analysis {

// d2(n) = E[max - min] of n independent standard normals
//       = integral over R of 1 - Phi(x)^n - (1 - Phi(x))^n dx
// (Tippett 1925), by Boost quadrature; d2(2) = 2/sqrt(pi) = 1.1284, d2(10) =
// 3.0775. 0 for n < 2.
double expectedRange(std::size_t n);

// The two-sided MLS interval for gamma = theta1 - theta2, theta_i = E[S_i],
// S_i independent with nu_i S_i / theta_i ~ chi^2(nu_i) (Ting et al. 1990;
// Burdick & Graybill 1992, the interval on a difference of two expected mean
// squares). With a = (1 - confidence) / 2 on each side and F_{a:u,v} the
// upper-a quantile of F(u, v) (F_{a:u,inf} = chi^2_{upper a, u} / u):
//   G1 = 1 - 1/F_{a:nu1,inf},  H2 = 1/F_{1-a:nu2,inf} - 1,
//   G12 = ((F_{a:nu1,nu2} - 1)^2 - G1^2 F_{a:nu1,nu2}^2 - H2^2) / F_{a:nu1,nu2},
//   L = S1 - S2 - sqrt(G1^2 S1^2 + H2^2 S2^2 + G12 S1 S2);
//   H1 = 1/F_{1-a:nu1,inf} - 1,  G2 = 1 - 1/F_{a:nu2,inf},
//   H12 = ((1 - F_{1-a:nu1,nu2})^2 - H1^2 F_{1-a:nu1,nu2}^2 - G2^2) / F_{1-a:nu1,nu2},
//   U = S1 - S2 + sqrt(H1^2 S1^2 + G2^2 S2^2 + H12 S1 S2),
// both clipped at 0 (a variance). Exact when S2 = 0 (the chi^2 interval on
// theta1). Fails unless S1, S2 >= 0 and finite, nu1, nu2 > 0 and 0 <
// confidence < 1.
Expected<Interval> mlsDifferenceInterval(double s1, double nu1, double s2, double nu2,
                                         double confidence);

// The layout effect of one system's balanced data: the top level's units are
// the layouts. sigma^2 = T^2 = S_top^2 - S_below^2 / n_below (TR 2012 §6.1;
// variance.hpp), its MLS interval with S1 = S_top^2 (nu1 = n_top - 1) and S2
// = S_below^2 / n_below (nu2 = n_top (n_below - 1)), sigma and its limits
// relative to the grand mean, and d2(n_top) times each. `topShare` is the top
// level's share of the variance (LevelReport::share), copied. observedSpread
// (max/min - 1 of the top-level means) is filled whenever the data has >= 2
// top-level units. Not ok (error says why) for one level only (the layout
// variance cannot be told from the noise below it), fewer than 2 top-level
// units, a single unit of the level below the top (no estimate of its
// variance), a grand mean <= 0, or a confidence outside (0, 1).
LayoutEffect layoutEffect(const Hierarchy &h, double topShare, double confidence);

} // namespace alea::analysis

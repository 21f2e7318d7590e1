// The noise diagnosis (issue 8, item 2): where the execution-to-execution
// variance of one benchmark came from and what would shrink it. Input: one
// record per execution (its mean measurement and what the runner observed
// around it); output: findings, each with its statistic, p-value and one line
// of advice. Pure: no I/O, no clock; the runner supplies the observations and
// the renderers print noiseSummaryLines() without computing anything.
//
// Residual of an execution = value / (mean of its build) - 1: the build
// (layout) effect is removed, what remains is execution noise (Kalibera &
// Jones TR 2012 §3: the execution level of build > execution > iteration).
// Statistics (docs/statistics.md, "Noise diagnosis", gives every choice):
//  - drift: lag-1 autocorrelation r1 of the residuals in start-time order,
//    tested against its exact null mean and variance for residuals from
//    group means (the moments of a ratio of quadratic forms in normal
//    variables, as in Durbin & Watson 1950/1971 and lmtest::dwtest's normal
//    approximation); Ljung-Box would be biased by about -1/m for builds whose
//    m executions run back to back;
//  - trend: Mann-Kendall of the residuals against time order (kendallTrend);
//  - load, padding, migrations, involuntary switches, frequency: Spearman's
//    rho of residual vs the covariate with R's cor.test(method = "spearman",
//    exact = FALSE) p-value (t with n - 2 df); load also gets the
//    least-squares slope (relative change per busy CPU);
//  - the tested findings' p-values are adjusted together by Holm (1979);
//  - a covariate finding is a mechanism only with the sign its mechanism can
//    have (more load, switches or migrations, a lower frequency never make a
//    program faster); with the other sign it is an artifact to investigate;
//  - the other load's level (busy-machine), ASLR, ranBusy and an
//    unobservable frequency are counts (no test).
#pragma once

#include "alea/expected.hpp"

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace alea::analysis {

// --- the statistics (checked against R in test/r/compute_noise.R) ----------

struct CorrelationTest {
  std::size_t n = 0;
  double estimate = 0;  // rho (Spearman) or r (Pearson)
  double statistic = 0; // t = estimate sqrt((n - 2) / (1 - estimate^2))
  double df = 0;        // n - 2
  double pValue = 1;    // two-sided
};

// R's cor.test(x, y, method = "pearson"). Needs n >= 3 pairs, both non-constant.
Expected<CorrelationTest> pearsonTest(std::span<const double> x, std::span<const double> y);
// R's cor.test(x, y, method = "spearman", exact = FALSE): Pearson's r of the
// average ranks, p from Student's t with n - 2 df. Same requirements.
Expected<CorrelationTest> spearmanTest(std::span<const double> x, std::span<const double> y);

struct LagOneTest {
  std::size_t n = 0;      // residuals
  std::size_t groups = 0; // k: group means removed
  double r1 = 0;          // sum r_t r_{t+1} / sum r_t^2
  double nullMean = 0;    // E[r1] under independent normal errors
  double nullSd = 0;      // sd[r1] under the same null
  double statistic = 0;   // z = (r1 - nullMean) / nullSd
  double pValue = 1;      // two-sided, normal approximation
};

// Lag-1 autocorrelation of `residuals` (time order) that were taken from the
// means of their groups (`groups[t]`: any label, one per residual), with its
// exact null moments for that design. Needs n - k >= 3 and non-zero residuals.
Expected<LagOneTest> lagOneTest(std::span<const double> residuals,
                                std::span<const std::size_t> groups);

// Holm (1979) step-down adjusted p-values (R's p.adjust(p, "holm")).
std::vector<double> adjustHolm(std::span<const double> pValues);

// --- the diagnosis ---------------------------------------------------------

// One execution of one benchmark, as the runner observed it.
struct ExecutionObservation {
  std::size_t system = 0; // index of the system (campaign order)
  std::size_t build = 0;  // top-level unit index within the system
  double startedAt = 0;   // seconds (any origin); defines execution order
  double value = 0;       // the execution's mean measurement (after warm-up)
  // CPUs' worth of busy time of OTHER processes during the execution (0.8 =
  // most of one CPU busy with something else; alea and the measured
  // processes excluded).
  std::optional<double> otherLoad;
  std::optional<double> envPadding; // bytes of environment padding
  std::optional<double> migrations; // se.nr_migrations during the execution
  std::optional<double> involuntarySwitches;
  std::optional<double> cpuMhz; // often unavailable
  bool pinned = false;          // CPU affinity was set (`cpus`)
  bool aslrOn = true;
  bool ranBusy = false; // the quiet-machine gate gave up waiting
};

struct NoiseOptions {
  double significance = 0.05;      // family-wise, after Holm
  double busyLoad = 0.5;           // otherLoad above this counts as "busy"
  std::size_t minObservations = 8; // pairs needed to test a covariate
  // The campaign's design already runs the compared systems side by side in
  // time (interleaved, duet): drift is then no reason to change the design.
  bool pairedDesign = false;
  // The values are simulated counts (Valgrind's): no other process can move
  // them, so a busy machine is a fact to report, not a source to act on.
  bool simulated = false;
};

struct NoiseFinding {
  // "drift", "trend", "load", "padding", "migration", "switches",
  // "frequency", "busy-machine", "busy", "aslr"
  std::string kind;
  double value = 0;                     // the statistic: r1, tau, rho, count or share (see docs)
  std::optional<double> pValue;         // raw, for tested findings
  std::optional<double> adjustedPValue; // Holm over the tested findings
  // Tested findings: adjusted p < significance. Counts: whether they call for
  // action (busy-machine: some execution ran with other load above busyLoad;
  // busy: the quiet gate gave up for some execution; aslr, unobservable
  // frequency: never).
  bool significant = false;
  // A significant covariate whose sign no mechanism explains (executions
  // FASTER with more other load, switches or migrations, or SLOWER at a
  // higher frequency): not a source of noise and no advice, but something
  // to investigate (the reading, or a cause that moves both).
  bool artifact = false;
  std::string text;   // one line with the number
  std::string advice; // one line, "" when nothing to do
};

struct NoiseDiagnosis {
  std::size_t executions = 0;         // observations analysed
  std::size_t builds = 0;             // (system, build) groups with >= 2 executions
  std::size_t excluded = 0;           // executions of single-execution builds (residual 0)
  std::size_t tests = 0;              // size of the Holm family
  std::vector<NoiseFinding> findings; // significant first, then in kind order
};

// All executions of ONE benchmark (every system). Fails on non-finite values,
// a build mean of 0, or fewer than 3 executions in builds with >= 2 of them.
Expected<NoiseDiagnosis> diagnoseNoise(std::span<const ExecutionObservation> executions,
                                       const NoiseOptions &options = {});

// The lines a report prints (plain text, no markup; a renderer may add bullets
// or emphasis): a heading line, "no source of execution noise found" when no
// finding is a source (never when the machine was busy), then per significant
// finding its text and, if any, a line "what to do: <advice>", then the
// artifacts, then the informational findings, then one line listing what was
// tested and not found.
std::vector<std::string> noiseSummaryLines(const NoiseDiagnosis &diagnosis);

} // namespace alea::analysis

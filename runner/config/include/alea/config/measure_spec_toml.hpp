// The parse of a campaign's `[measure]` table (measure_spec.hpp) from toml++:
// apart, so that only the campaign file's parser and its tests compile toml++.
#pragma once

#include "alea/config/measure_spec.hpp"

#include <toml++/toml.h>

namespace alea::runner {

// Parses a `[measure]` table (or a benchmark's `measure = {...}` inline table):
//   source  = "none" | "regex" | "gbench" | "records"     (default "none")
//   metric  = "wall" | "user" | "sys" | "cpu" | "rss"     (source none)
//             | a counter ("instructions", "task-clock", ...)
//             | a simulated metric ("sim-instructions", "sim-cycles", ...)
//   metrics = ["wall", "sim-cycles", ...]  several metrics per execution
//             (instead of metric; with an iteration source: measured beside
//             the iterations, which come first as "time")
//   decide_on = "sim-cycles"  the metric the decision uses (default: the first)
//   sim_cache = { i1 = "32768,8,64", d1 = ..., ll = ... } (a sim-* metric)
//   regex   = '...'  (required for source regex, must have >= 1 group)
//   stream  = "stdout" | "stderr"                         (source regex)
//   unit    = "ns" | "us" | "ms" | "s" | "min"            (source regex)
//   field   = "real_time" | "cpu_time"                    (source gbench)
//   filter  = '...'                                       (source gbench)
// Unknown keys, wrong types, and keys that do not apply to the chosen source
// are errors carrying the offending node's line and column.
MeasureSpecResult parseMeasureSpec(const toml::table &table);

} // namespace alea::runner

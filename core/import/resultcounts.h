// SPDX-License-Identifier: MIT
#pragma once

#include "model/problem.h"
#include "resultfiles/resultfile.h"

namespace ServeScope {

/// Checks the counts of one result line before it is stored (docs/import.md, "Counts"): completed,
/// failed, num_prompts, the token totals, max_concurrency and max_concurrent_requests must be
/// whole-number counts from 0 to the largest the store keeps. With `againstArrays` (a vLLM or SGLang
/// line, whose per-request arrays are one entry per request) the arrays must be as long as
/// `ttfts`, and completed + failed may not count more requests than they hold.
///
/// A count that is out of range or inconsistent is recomputed from the arrays when they give it
/// (the line's value replaced, a warning appended to *warnings, which may be null); otherwise the
/// line is refused: the returned reason names the key. An empty reason: the line may be stored.
Reason checkResultCounts(ResultRun &run, bool againstArrays, QList<Reason> *warnings);

} // namespace ServeScope

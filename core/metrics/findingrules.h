// SPDX-License-Identifier: MIT
#pragma once

#include "metrics/findings.h"

namespace ServeScope::FindingRules {

/// Along one curve (a variant's points that differ in load alone, load order): ITL's tail (p99 /
/// p50) grows with the load, as when prefills of joining prompts stall the decode steps of the
/// running ones. Abstains at points whose ITL rests on too few gaps for a p99.
void prefillInterference(const QString &variant, const QList<PointSummary> &points, const FindingThresholds &t,
    const PrefillBudgets &budgets, QList<RunFinding> *out);

/// Per variant, the points whose requests were answered 429 (medians across repeats, counts summed).
void rateLimited(const QList<PointSummary> &medians, const FindingThresholds &t, QList<RunFinding> *out);

/// Per variant, the points where the server's usage contradicted the stream and was set aside
/// (docs/metrics.md, "Usage against the stream"): the requests, and what usage said beside what was
/// counted instead, output and input, summed over every repeat. Points are in the order given.
void usageMismatch(const QList<PointSummary> &points, QList<RunFinding> *out);

/// Per launched server that exited or was killed while the run used it: a problem on its variant with the
/// exit code or signal, at the variant's last measured point (the one running then).
void serverExited(const QList<ServerExit> &exits, const QList<PointSummary> &medians, QList<RunFinding> *out);

/// One note per run for each stream caveat: a role chunk ahead of the first token, and
/// `ignore_eos` not honoured; each lists the points concerned.
void streamNotes(const QList<PointSummary> &medians, const FindingThresholds &t, QList<RunFinding> *out);

} // namespace ServeScope::FindingRules

// SPDX-License-Identifier: MIT
#include "metrics/findingrules.h"

#include "model/variables.h"

#include <algorithm>
#include <cmath>

namespace ServeScope {

PrefillBudgets prefillBudgets(const Experiment &experiment)
{
    PrefillBudgets out;
    for (int i = 0; i < experiment.variants.size(); ++i) {
        const Experiment resolved = resolveVariant(experiment, i);
        // The engine's own name first: a file may carry both.
        const bool sglang = resolved.server.engine == QLatin1String("sglang");
        for (const char *name : { sglang ? "chunked_prefill_size" : "max_num_batched_tokens",
                 sglang ? "max_num_batched_tokens" : "chunked_prefill_size" }) {
            const QJsonValue v = resolved.server.args.value(QLatin1String(name));
            if (v.isDouble()) {
                out.insert(experiment.variants[i].name, { QLatin1String(name), v.toDouble() });
                break;
            }
        }
    }
    return out;
}

namespace FindingRules {

namespace {

using Kind = RunFinding::Kind;
using Confirmation = RunFinding::Confirmation;

// A tail ratio needs a p50 and enough gaps for its p99.
double itlTail(const PointSummary &p, const FindingThresholds &t)
{
    if (p.itl.count < t.reliableP99Requests || !(p.itl.p50 > 0) || !(p.itl.p99 > 0))
        return -1;
    return p.itl.p99 / p.itl.p50;
}

// The prompt a joining request brings: the measured mean, else the target.
double meanPrompt(const PointSummary &p)
{
    return p.completed > 0 && p.totalInputTokens > 0 ? double(p.totalInputTokens) / p.completed : p.inputLen;
}

// The prefill a joining request adds to one step: its prompt, or the budget's chunk of it.
double prefillChunk(const PointSummary &p, double budget)
{
    return budget > 0 ? std::min(meanPrompt(p), budget) : meanPrompt(p);
}

void addLabel(QStringList *labels, const QString &label)
{
    if (!labels->contains(label))
        *labels << label;
}

} // namespace

void prefillInterference(const QString &variant, const QList<PointSummary> &points, const FindingThresholds &t,
    const PrefillBudgets &budgets, QList<RunFinding> *out)
{
    QList<PointSummary> usable;
    for (const PointSummary &p : points) {
        if (itlTail(p, t) > 0)
            usable << p;
    }
    if (usable.size() < 2)
        return;
    const double lightest = itlTail(usable.first(), t);
    const auto known = budgets.constFind(variant);
    const double budget = known != budgets.cend() ? known->second : -1;
    for (qsizetype k = 1; k < usable.size(); ++k) {
        const double tail = itlTail(usable[k], t);
        if (tail < t.prefillItlTail || tail < t.prefillItlGrowth * lightest
            || prefillChunk(usable[k], budget) < t.prefillMinChunkTokens)
            continue;
        RunFinding f { QStringLiteral("prefill-interference"), Kind::Problem, variant, {}, {},
            Confirmation::NoEvidence };
        double worst = 0;
        const PointSummary *at = &usable[k];
        for (qsizetype j = k; j < usable.size(); ++j) {
            f.points << usable[j].label;
            if (itlTail(usable[j], t) > worst) {
                worst = itlTail(usable[j], t);
                at = &usable[j];
            }
        }
        f.evidence = { { QStringLiteral("itl_tail_ratio"), worst }, { QStringLiteral("itl_tail_lightest"), lightest },
            { QStringLiteral("itl_p99_ms"), at->itl.p99 }, { QStringLiteral("itl_p50_ms"), at->itl.p50 } };
        f.evidence.append({ QStringLiteral("prompt_tokens_mean"), std::round(meanPrompt(*at)) });
        // How to confirm: the budget that lets a prefill chunk into every decode step.
        if (known != budgets.cend())
            f.evidence.append({ known->first, known->second });
        out->append(f);
        return;
    }
}

void rateLimited(const QList<PointSummary> &medians, const FindingThresholds &t, QList<RunFinding> *out)
{
    QStringList variants;
    for (const PointSummary &p : medians)
        addLabel(&variants, p.variant);
    for (const QString &v : std::as_const(variants)) {
        QStringList at;
        double count = 0, share = 0;
        for (const PointSummary &p : medians) {
            const int finished = p.completed + p.failed;
            if (p.variant != v || p.rateLimited <= 0 || finished <= 0
                || double(p.rateLimited) / finished <= t.rateLimitedShare)
                continue;
            at << p.label;
            count += p.rateLimited;
            share = std::max(share, double(p.rateLimited) / finished);
        }
        if (!at.isEmpty())
            out->append({ QStringLiteral("rate-limited"), Kind::Problem, v, at,
                { { QStringLiteral("rate_limited"), count }, { QStringLiteral("rate_limited_share"), share } },
                Confirmation::NotApplicable });
    }
}

void usageMismatch(const QList<PointSummary> &points, QList<RunFinding> *out)
{
    static const char *const kKeys[] = { "usage_mismatch_requests", "usage_mismatch_output_said",
        "usage_mismatch_output_counted", "usage_mismatch_input_said", "usage_mismatch_input_counted" };
    static const char *const kEvidence[]
        = { "requests", "usage_output_tokens", "counted_output_tokens", "usage_input_tokens", "counted_input_tokens" };
    QStringList variants;
    for (const PointSummary &p : points)
        addLabel(&variants, p.variant);
    for (const QString &v : std::as_const(variants)) {
        QStringList at;
        double sums[5] = {};
        bool said[5] = {};
        for (const PointSummary &p : points) { // every repeat: the counts are totals
            if (p.variant != v || p.client.value(QLatin1String(kKeys[0]), 0) <= 0)
                continue;
            addLabel(&at, p.label);
            for (int k = 0; k < 5; ++k) {
                const auto it = p.client.constFind(QLatin1String(kKeys[k]));
                if (it != p.client.cend()) {
                    sums[k] += *it;
                    said[k] = true;
                }
            }
        }
        if (at.isEmpty())
            continue;
        RunFinding f { QStringLiteral("usage-mismatch"), Kind::Caveat, v, at, {}, Confirmation::NotApplicable };
        for (int k = 0; k < 5; ++k) {
            if (said[k])
                f.evidence.append({ QLatin1String(kEvidence[k]), sums[k] });
        }
        out->append(f);
    }
}

void serverExited(const QList<ServerExit> &exits, const QList<PointSummary> &medians, QList<RunFinding> *out)
{
    for (const ServerExit &e : exits) {
        QStringList at;
        for (const PointSummary &p : medians) {
            if (p.variant == e.variant)
                at = QStringList { p.label };
        }
        RunFinding f { QStringLiteral("server-exited"), Kind::Problem, e.variant, at, {}, Confirmation::NotApplicable };
        if (e.signal > 0)
            f.evidence.append({ QStringLiteral("signal"), double(e.signal) });
        else
            f.evidence.append({ QStringLiteral("exit_code"), double(e.exitCode) });
        out->append(f);
    }
}

void streamNotes(const QList<PointSummary> &medians, const FindingThresholds &t, QList<RunFinding> *out)
{
    QStringList early, shortened;
    double gap = 0, shortShare = 0;
    for (const PointSummary &p : medians) {
        if (p.roleGapMs > t.roleGapMs) {
            addLabel(&early, p.label);
            gap = std::max(gap, p.roleGapMs);
        }
        if (p.shortOutputs >= 0 && p.completed > 0 && double(p.shortOutputs) / p.completed > t.shortOutputShare) {
            addLabel(&shortened, p.label);
            shortShare = std::max(shortShare, double(p.shortOutputs) / p.completed);
        }
    }
    if (!early.isEmpty())
        out->append({ QStringLiteral("role-chunk-before-token"), Kind::Caveat, QString(), early,
            { { QStringLiteral("role_gap_ms"), gap } }, Confirmation::NotApplicable });
    if (!shortened.isEmpty())
        out->append({ QStringLiteral("ignore-eos-not-honoured"), Kind::Caveat, QString(), shortened,
            { { QStringLiteral("short_share"), shortShare } }, Confirmation::NotApplicable });
}

} // namespace FindingRules

} // namespace ServeScope

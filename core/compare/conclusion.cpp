// SPDX-License-Identifier: MIT
#include "compare/conclusion.h"

#include <QSet>

#include <algorithm>
#include <cmath>

namespace ServeScope {

const QStringList &conclusionMetrics()
{
    // Within a family, the first decided metric stands for it.
    static const QStringList keys {
        QStringLiteral("success_rate"),
        QStringLiteral("output_throughput"),
        QStringLiteral("request_throughput"),
        QStringLiteral("total_token_throughput"),
        QStringLiteral("capacity"),
        QStringLiteral("cost_per_million_output_tokens"),
        QStringLiteral("median_ttft_ms"),
        QStringLiteral("p90_ttft_ms"),
        QStringLiteral("mean_ttft_ms"),
        QStringLiteral("median_ttfo_ms"),
        QStringLiteral("p90_ttfo_ms"),
        QStringLiteral("median_tpot_ms"),
        QStringLiteral("p90_tpot_ms"),
        QStringLiteral("median_itl_ms"),
        QStringLiteral("mean_tpot_ms"),
        QStringLiteral("median_e2el_ms"),
        QStringLiteral("p90_e2el_ms"),
        QStringLiteral("p99_ttft_ms"),
        QStringLiteral("p99_tpot_ms"),
        QStringLiteral("p99_itl_ms"),
        QStringLiteral("p99_e2el_ms"),
    };
    return keys;
}

namespace {

Conclusion::Change changeOf(const QList<const DeltaRow *> &rows, Verdict verdict)
{
    Conclusion::Change c;
    c.verdict = verdict;
    double largest = -1;
    c.least = INFINITY;
    for (const DeltaRow *r : rows) {
        if (r->verdict != verdict)
            continue;
        c.metric = r->metric;
        c.points << r->label;
        const double size = std::isnan(r->relative) ? INFINITY : std::abs(r->relative);
        c.least = std::min(c.least, size);
        if (size > largest) {
            largest = size;
            c.relative = r->relative;
            c.ratio = r->a.repeats.median != 0 ? r->b.repeats.median / r->a.repeats.median : INFINITY;
            c.at = r->label;
        }
    }
    return c;
}

// The decided rows of one variant, grouped: one change per family, failures first.
QList<Conclusion::Change> changesOf(const QList<const DeltaRow *> &rows)
{
    QList<Conclusion::Change> out;
    QSet<NoiseFamily> named;
    for (const QString &key : conclusionMetrics()) {
        const NoiseFamily family = noiseFamily(key);
        if (named.contains(family))
            continue;
        QList<const DeltaRow *> of;
        for (const DeltaRow *r : rows) {
            if (r->metric == key && r->decided())
                of << r;
        }
        if (of.isEmpty())
            continue;
        // The direction decided at more points stands for the metric (worse on a tie).
        const auto worse = std::count_if(of.cbegin(), of.cend(), [](auto r) { return r->verdict == Verdict::Worse; });
        out << changeOf(of, 2 * worse >= of.size() ? Verdict::Worse : Verdict::Better);
        named.insert(family);
        if (out.size() == kConclusionChanges)
            break;
    }
    return out;
}

Conclusion concludeOne(const QString &variant, const QList<const DeltaRow *> &rows)
{
    Conclusion c;
    c.variant = variant;
    c.minRepeats = INT_MAX;
    QSet<QString> points;
    int statisticsOnly = 0, better = 0, worse = 0;
    for (const DeltaRow *r : rows) {
        points.insert(r->label);
        c.minRepeats = std::min({ c.minRepeats, r->a.repeats.n, r->b.repeats.n });
        statisticsOnly += r->reason == QLatin1String("statistics-only");
        switch (r->verdict) {
        case Verdict::Better:
        case Verdict::Worse:
            ++c.decided;
            (r->verdict == Verdict::Better ? better : worse) += 1;
            break;
        case Verdict::Noise:
            ++c.noise;
            break;
        case Verdict::NotComparable:
            ++c.notComparable;
            break;
        case Verdict::Undecided:
            ++c.undecided;
            break;
        }
        if (r->metric == QLatin1String("success_rate") && r->verdict == Verdict::Worse
            && 1 - r->b.repeats.median > c.worstFailedShare) {
            c.worstFailedShare = 1 - r->b.repeats.median;
            c.failureClass = r->failureClass;
        }
    }
    c.points = int(points.size());
    c.minRepeats = c.minRepeats == INT_MAX ? 0 : c.minRepeats;
    c.changes = changesOf(rows);
    if (c.worstFailedShare > 0)
        c.outcome = QStringLiteral("worse");
    else if (better && worse)
        c.outcome = QStringLiteral("mixed");
    else if (better || worse)
        c.outcome = better ? QStringLiteral("better") : QStringLiteral("worse");
    else if (statisticsOnly > 0 && c.noise == 0)
        c.outcome = QStringLiteral("statistics-only");
    else if (c.noise == 0)
        c.outcome = QStringLiteral("no-verdict");
    else
        c.outcome = QStringLiteral("noise");
    return c;
}

} // namespace

QList<Conclusion> concludeVariants(const QList<DeltaRow> &rows)
{
    QStringList variants;
    QHash<QString, QList<const DeltaRow *>> byVariant;
    for (const DeltaRow &r : rows) {
        if (!byVariant.contains(r.variant))
            variants << r.variant;
        byVariant[r.variant] << &r;
    }
    QList<Conclusion> out;
    for (const QString &v : std::as_const(variants))
        out << concludeOne(v, byVariant.value(v));
    return out;
}

QString conclusionChanges(const Conclusion &c)
{
    QStringList parts;
    for (const Conclusion::Change &ch : c.changes) {
        const QString sign = ch.relative >= 0 ? QStringLiteral("+") : QString();
        parts << QStringLiteral("%1 %2%3% at %4 (%5)")
                     .arg(ch.metric, sign, QString::number(ch.relative * 100, 'f', 1), ch.at,
                         ch.points.join(QLatin1Char(',')));
    }
    return c.outcome + u'\t' + parts.join(QStringLiteral("; "));
}

} // namespace ServeScope

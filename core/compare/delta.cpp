// SPDX-License-Identifier: MIT
#include "compare/delta.h"

#include "metrics/servingcost.h"

#include <QSet>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ServeScope {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

bool sameLoad(const PointRepeats &x, const PointRepeats &y)
{
    return x.mode == y.mode && x.concurrency == y.concurrency
        && (x.requestRate == y.requestRate || (std::isinf(x.requestRate) && std::isinf(y.requestRate)))
        && x.inputLen == y.inputLen && x.outputLen == y.outputLen;
}

QString number(double v)
{
    return QString::number(v, 'g', 6);
}

} // namespace

QString verdictCode(Verdict v)
{
    switch (v) {
    case Verdict::Better:
        return QStringLiteral("better");
    case Verdict::Worse:
        return QStringLiteral("worse");
    case Verdict::Noise:
        return QStringLiteral("noise");
    case Verdict::NotComparable:
        return QStringLiteral("not-comparable");
    case Verdict::Undecided:
        break;
    }
    return QStringLiteral("undecided");
}

PointMatching matchPoints(const QList<PointRepeats> &a, const QList<PointRepeats> &b)
{
    QSet<QString> va, vb;
    for (const auto &p : a)
        va.insert(p.variant);
    for (const auto &p : b)
        vb.insert(p.variant);
    const bool byVariant = !(va.size() == 1 && vb.size() == 1);
    PointMatching m;
    QList<bool> usedA(a.size(), false), matchedB(b.size(), false);
    const auto pass = [&](auto same) {
        for (int j = 0; j < b.size(); ++j) {
            for (int i = 0; i < a.size() && !matchedB[j]; ++i) {
                if (usedA[i] || (byVariant && a[i].variant != b[j].variant) || !same(a[i], b[j]))
                    continue;
                usedA[i] = matchedB[j] = true;
                m.pairs.append({ i, j });
            }
        }
    };
    pass([](const PointRepeats &x, const PointRepeats &y) { return !x.label.isEmpty() && x.label == y.label; });
    pass(sameLoad);
    std::sort(m.pairs.begin(), m.pairs.end());
    for (int i = 0; i < a.size(); ++i) {
        if (!usedA[i])
            m.unmatchedA << i;
    }
    for (int j = 0; j < b.size(); ++j) {
        if (!matchedB[j])
            m.unmatchedB << j;
    }
    return m;
}

Verdict verdictFor(const MetricEstimate &a, const MetricEstimate &b, double practicalThreshold, QString *reason)
{
    if (a.repeats.n == 0 || b.repeats.n == 0) {
        *reason = QStringLiteral("missing");
        return Verdict::Undecided;
    }
    if (!a.ci.valid || !b.ci.valid) {
        // Latency intervals come from the requests, throughput intervals from the repeats.
        if (a.key.endsWith(QLatin1String("_ms")))
            *reason = QStringLiteral("too-few-samples");
        else
            *reason
                = a.repeats.n < 2 || b.repeats.n < 2 ? QStringLiteral("single-repeat") : QStringLiteral("no-interval");
        return Verdict::Undecided;
    }
    if (a.ci.overlaps(b.ci)) {
        *reason = QStringLiteral("intervals-overlap");
        return Verdict::Noise;
    }
    const double base = a.repeats.median, cand = b.repeats.median;
    const double relative = base != 0 ? (cand - base) / std::abs(base) : std::copysign(INFINITY, cand - base);
    if (std::abs(relative) < practicalThreshold) {
        *reason = QStringLiteral("below-threshold");
        return Verdict::Noise;
    }
    *reason = QStringLiteral("significant");
    return (lowerIsBetter(a.key) ? cand < base : cand > base) ? Verdict::Better : Verdict::Worse;
}

DeltaRow deltaRow(const QString &variant, const QString &label, const QString &metric, const MetricEstimate &a,
    const MetricEstimate &b, double practicalThreshold)
{
    DeltaRow r;
    r.variant = variant;
    r.label = label;
    r.metric = metric;
    r.a = a;
    r.b = b;
    r.change = r.b.repeats.median - r.a.repeats.median;
    r.relative = r.a.repeats.median != 0 ? r.change / std::abs(r.a.repeats.median) : kNaN;
    r.verdict = verdictFor(r.a, r.b, practicalThreshold, &r.reason);
    return r;
}

QList<DeltaRow> deltaTable(const QList<PointRepeats> &a, const QList<PointRepeats> &b, const PointMatching &matching,
    const QStringList &metrics, double practicalThreshold)
{
    QList<DeltaRow> rows;
    for (const auto &[i, j] : matching.pairs) {
        for (const QString &key : metrics)
            rows << deltaRow(a[i].variant, a[i].label, key, estimateMetric(a[i], key), estimateMetric(b[j], key),
                practicalThreshold);
    }
    return rows;
}

bool agrees(const DeltaRow &row, double limit)
{
    if (row.verdict == Verdict::Better || row.verdict == Verdict::Worse)
        return std::abs(row.relative) <= limit;
    if (row.verdict == Verdict::Noise)
        return true;
    return std::isnan(row.relative) ? row.change == 0 : std::abs(row.relative) <= limit;
}

std::optional<GateCondition> parseGateCondition(const QString &text, QString *error)
{
    static const QRegularExpression re(QStringLiteral(
        "^\\s*([a-z0-9_.]+)\\s*([<>])\\s*([+-]?(?:[0-9]+\\.?[0-9]*|\\.[0-9]+)(?:[eE][+-]?[0-9]+)?)\\s*(%?)\\s*$"));
    const QRegularExpressionMatch m = re.match(text);
    if (!m.hasMatch()) {
        *error = QStringLiteral("'%1': expected METRIC (>|<) [+|-]NUMBER[%%], e.g. 'p99_ttft_ms > +10%%'").arg(text);
        return std::nullopt;
    }
    GateCondition c;
    c.text = text.trimmed();
    c.metric = m.captured(1);
    c.op = m.captured(2).at(0).toLatin1();
    c.value = m.captured(3).toDouble();
    c.relative = !m.captured(4).isEmpty();
    const QMap<QString, double> known = summaryValues(PointSummary {});
    QString stat, metric;
    const bool latency = splitLatencyKey(c.metric, &stat, &metric) && stat.startsWith(u'p')
        && std::any_of(distributionFields().begin(), distributionFields().end(),
            [&](const DistributionField &f) { return metric == QLatin1String(f.code); });
    // Keys a summary holds only when it has them: goodput with SLOs, the hit rate when usage said it.
    // capacity: a capacity search's result (compare's capacity rows); the cost of a million output
    // tokens with a GPU-hour price (its cost rows).
    // A multi_turn point's first and later turns (PointSummary::turns).
    const bool optional = c.metric == QLatin1String("request_goodput") || c.metric == QLatin1String("cache_hit_rate")
        || c.metric == QLatin1String("capacity") || c.metric == QLatin1String(kCostKey) || isTurnKey(c.metric);
    if (!known.contains(c.metric) && !optional && !latency) {
        *error = QStringLiteral("'%1': unknown metric '%2' (a result-file key such as p99_ttft_ms, median_tpot_ms, "
                                "output_throughput, or capacity)")
                     .arg(text, c.metric);
        return std::nullopt;
    }
    return c;
}

GateOutcome evaluateGate(const GateCondition &condition, const DeltaRow &row)
{
    GateOutcome o;
    const double base = row.a.repeats.median, cand = row.b.repeats.median;
    const bool intervals = row.a.ci.valid && row.b.ci.valid;
    o.significant = !intervals || !row.a.ci.overlaps(row.b.ci);
    const double measured = condition.relative ? row.relative * 100 : cand;
    const bool beyond = condition.op == '>' ? measured > condition.value : measured < condition.value;
    o.failed = beyond && (!condition.relative || o.significant);
    QString change = (row.change >= 0 ? QStringLiteral("+") : QString()) + number(row.change);
    if (!std::isnan(row.relative))
        change += QStringLiteral(" (%1%2%)")
                      .arg(row.relative >= 0 ? QStringLiteral("+") : QString(), number(row.relative * 100));
    o.message = QStringLiteral("%1: baseline %2, candidate %3, change %4")
                    .arg(condition.metric, number(base), number(cand), change);
    if (intervals)
        o.message += QStringLiteral("; 95% intervals [%1, %2] vs [%3, %4]")
                         .arg(number(row.a.ci.low), number(row.a.ci.high), number(row.b.ci.low), number(row.b.ci.high));
    else
        o.message += QStringLiteral("; no interval (%1), the values decide").arg(row.reason);
    if (beyond && condition.relative && !o.significant)
        o.message += QStringLiteral("; beyond the bound but within noise");
    return o;
}

void withholdIncomparable(QList<DeltaRow> &rows, const QList<DefinitionRow> &definitions)
{
    for (DeltaRow &row : rows) {
        const QString family = metricFamily(row.metric);
        const auto d = std::find_if(
            definitions.cbegin(), definitions.cend(), [&](const DefinitionRow &r) { return r.family == family; });
        if (d == definitions.cend() || d->comparability == Comparability::AsPublished)
            continue;
        row.verdict = Verdict::NotComparable;
        row.reason
            = comparabilityCode(d->comparability) + QStringLiteral(": ") + d->differences.join(QStringLiteral(", "));
    }
}

} // namespace ServeScope

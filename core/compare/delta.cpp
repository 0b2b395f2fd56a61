// SPDX-License-Identifier: MIT
#include "compare/delta.h"

#include "metrics/intervals.h"
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

bool DeltaRow::blank() const
{
    return a.repeats.n == 0 || b.repeats.n == 0 || reason.startsWith(QLatin1String("censored"))
        || reason == QLatin1String("statistics-only");
}

namespace {

// Whether the repeats' values of two sides differ by more than chance: Welch's t on their medians,
// each side's spread from its coefficient of variation (population std / mean, as stored), relative
// to A's median.
bool repeatsDiffer(const RepeatStat &a, const RepeatStat &b, double relative)
{
    const double ratio = a.median != 0 ? b.median / a.median : 1.0;
    const double va = a.cv * a.cv / (a.n - 1), vb = b.cv * b.cv * ratio * ratio / (b.n - 1);
    const double se = std::sqrt(va + vb);
    if (!(se > 0))
        return relative != 0;
    const double df = (va + vb) * (va + vb) / (va * va / (a.n - 1) + vb * vb / (b.n - 1));
    return std::abs(relative) / se > studentTQuantile(1 - (1 - kRepeatTestLevel) / 2, df);
}

} // namespace

Verdict verdictFor(const MetricEstimate &a, const MetricEstimate &b, double practicalThreshold, QString *reason,
    const NoiseFloors &floors, double *floor)
{
    if (floor)
        *floor = kNaN;
    if (a.repeats.n == 0 || b.repeats.n == 0) {
        *reason = QStringLiteral("missing");
        return Verdict::Undecided;
    }
    const double base = a.repeats.median, cand = b.repeats.median;
    const double relative = base != 0 ? (cand - base) / std::abs(base)
        : cand == base                ? 0.0
                                      : std::copysign(INFINITY, cand - base);
    double required = requiredChange(a.key, a.repeats.n, b.repeats.n, practicalThreshold, floors);
    if (floor)
        *floor = required;
    const Verdict direction = (lowerIsBetter(a.key) ? cand < base : cand > base) ? Verdict::Better : Verdict::Worse;
    if (a.key.endsWith(QLatin1String("_ms")) && std::abs(cand - base) < kJitterMs) {
        *reason = QStringLiteral("below-jitter");
        return Verdict::Noise;
    }
    if (a.repeats.n >= kRepeatsForSpread && b.repeats.n >= kRepeatsForSpread) {
        if (!repeatsDiffer(a.repeats, b.repeats, relative)) {
            *reason = QStringLiteral("within-repeat-spread");
            return Verdict::Noise;
        }
        if (std::abs(relative) < required) {
            *reason = QStringLiteral("below-noise-floor");
            return Verdict::Noise;
        }
        *reason = QStringLiteral("repeats-differ");
        return direction;
    }
    // A percentile of too few requests for an interval of its own moves between runs as a tail does.
    if (!a.key.startsWith(QLatin1String("mean_")) && a.key.endsWith(QLatin1String("_ms"))
        && (!a.ci.valid || !b.ci.valid))
        required = std::max(required, floors.of(NoiseFamily::Tail));
    if (floor)
        *floor = required;
    if (std::abs(relative) < required) {
        *reason = QStringLiteral("below-noise-floor");
        return Verdict::Noise;
    }
    if (a.ci.valid && b.ci.valid && a.ci.overlaps(b.ci)) {
        *reason = QStringLiteral("intervals-overlap");
        return Verdict::Noise;
    }
    *reason = QStringLiteral("beyond-noise-floor");
    return direction;
}

DeltaRow deltaRow(const QString &variant, const QString &label, const QString &metric, const MetricEstimate &a,
    const MetricEstimate &b, double practicalThreshold, const NoiseFloors &floors)
{
    DeltaRow r;
    r.variant = variant;
    r.label = label;
    r.metric = metric;
    r.a = a;
    r.b = b;
    r.change = r.b.repeats.median - r.a.repeats.median;
    r.relative = r.a.repeats.median != 0 ? r.change / std::abs(r.a.repeats.median) : kNaN;
    r.verdict = verdictFor(r.a, r.b, practicalThreshold, &r.reason, floors, &r.floor);
    return r;
}

namespace {

struct Outcomes {
    bool known = false; ///< a repeat says how many requests completed
    double completed = 0, failed = 0;
    double finished() const { return completed + failed; }
    double failedShare() const { return finished() > 0 ? failed / finished() : 0.0; }
};

Outcomes outcomesOf(const PointRepeats &p)
{
    Outcomes o;
    for (const auto &values : p.repeats) {
        o.known = o.known || values.contains(QStringLiteral("completed"));
        o.completed += std::max(0.0, values.value(QStringLiteral("completed"), 0));
        o.failed += std::max(0.0, values.value(QStringLiteral("failed"), 0));
    }
    return o;
}

} // namespace

DeltaRow successRow(const PointRepeats &a, const PointRepeats &b)
{
    const QString key = QStringLiteral("success_rate");
    DeltaRow r = deltaRow(a.variant, a.label, key, estimateMetric(a, key), estimateMetric(b, key));
    const Outcomes oa = outcomesOf(a), ob = outcomesOf(b);
    if (!oa.known || !ob.known) // no counts (a file that gives only the rate): judged as any metric
        return r;
    if (r.a.repeats.n == 0 || r.b.repeats.n == 0 || oa.finished() <= 0 || ob.finished() <= 0) {
        r.verdict = Verdict::Undecided;
        r.reason = QStringLiteral("missing");
        r.floor = kNaN;
        return r;
    }
    r.floor = kFailureFloor;
    int most = 0;
    for (auto it = b.failures.cbegin(); it != b.failures.cend(); ++it) {
        if (it.value() > most) {
            most = it.value();
            r.failureClass = it.key();
        }
    }
    const double moved = ob.failedShare() - oa.failedShare();
    const double pooled = (oa.failed + ob.failed) / (oa.finished() + ob.finished());
    const double se = std::sqrt(pooled * (1 - pooled) * (1 / oa.finished() + 1 / ob.finished()));
    if (std::abs(moved) < kFailureFloor) {
        r.verdict = Verdict::Noise;
        r.reason = QStringLiteral("below-noise-floor");
    } else if (se > 0 && std::abs(moved) / se < kFailureZ) {
        r.verdict = Verdict::Noise;
        r.reason = QStringLiteral("failures-within-chance");
    } else {
        r.verdict = moved > 0 ? Verdict::Worse : Verdict::Better;
        r.reason = moved > 0 ? QStringLiteral("failures-rose") : QStringLiteral("failures-fell");
    }
    return r;
}

namespace {

// The rows of one matched point, judged as a whole before metric by metric (deltaTable()).
QList<DeltaRow> pointRows(const PointRepeats &a, const PointRepeats &b, const QStringList &metrics,
    double practicalThreshold, const NoiseFloors &floors)
{
    const bool statisticsOnly = a.statisticsOnly || b.statisticsOnly;
    const Outcomes oa = outcomesOf(a), ob = outcomesOf(b);
    const bool noneA = oa.known && oa.completed <= 0, noneB = ob.known && ob.completed <= 0;
    QList<DeltaRow> rows;
    for (const QString &key : metrics) {
        DeltaRow r = key == QLatin1String("success_rate") ? successRow(a, b)
                                                          : deltaRow(a.variant, a.label, key, estimateMetric(a, key),
                                                              estimateMetric(b, key), practicalThreshold, floors);
        if ((noneA || noneB) && key.endsWith(QLatin1String("_ms"))) {
            // No successful request on a side: its latencies are not 0 ms, they are not there.
            r.change = r.relative = r.floor = kNaN;
            r.verdict = Verdict::Undecided;
            r.reason = noneB ? QStringLiteral("censored") : QStringLiteral("censored-baseline");
        } else if (statisticsOnly && r.verdict != Verdict::Undecided) {
            r.verdict = Verdict::Undecided;
            r.reason = QStringLiteral("statistics-only");
            r.floor = kNaN;
        }
        rows << r;
    }
    return rows;
}

} // namespace

QList<DeltaRow> deltaTable(const QList<PointRepeats> &a, const QList<PointRepeats> &b, const PointMatching &matching,
    const QStringList &metrics, double practicalThreshold, const NoiseFloors &floors)
{
    QList<DeltaRow> rows;
    for (const auto &[i, j] : matching.pairs)
        rows << pointRows(a[i], b[j], metrics, practicalThreshold, floors);
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
    o.significant = row.decided();
    if (row.reason == QLatin1String("censored")) { // the candidate's latencies are not there: it cannot pass
        o.failed = true;
        o.message = QStringLiteral("%1: the candidate has no successful request at this point").arg(condition.metric);
        return o;
    }
    if (row.reason == QLatin1String("censored-baseline")) {
        o.message = QStringLiteral("%1: the baseline has no successful request at this point; nothing to compare")
                        .arg(condition.metric);
        return o;
    }
    const double measured = condition.relative ? row.relative * 100 : cand;
    const bool beyond = condition.op == '>' ? measured > condition.value : measured < condition.value;
    o.failed = beyond && (!condition.relative || o.significant);
    QString change = (row.change >= 0 ? QStringLiteral("+") : QString()) + number(row.change);
    if (!std::isnan(row.relative))
        change += QStringLiteral(" (%1%2%)")
                      .arg(row.relative >= 0 ? QStringLiteral("+") : QString(), number(row.relative * 100));
    o.message = QStringLiteral("%1: baseline %2, candidate %3, change %4")
                    .arg(condition.metric, number(base), number(cand), change);
    if (row.a.ci.valid && row.b.ci.valid)
        o.message += QStringLiteral("; 95% intervals [%1, %2] vs [%3, %4]")
                         .arg(number(row.a.ci.low), number(row.a.ci.high), number(row.b.ci.low), number(row.b.ci.high));
    o.message += QStringLiteral("; verdict %1 (%2)").arg(verdictCode(row.verdict), row.reason);
    if (!std::isnan(row.floor))
        o.message += QStringLiteral(", a change under %1% is within run-to-run noise").arg(number(row.floor * 100));
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

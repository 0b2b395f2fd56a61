// SPDX-License-Identifier: MIT
// Two sides compared: their delta sections and the capacity and cost rows beside them, a rerun checked against
// the run it repeats, a point's live verdict, and what differs in their environments.
#include "runsource.h"

#include "metrics/capacity.h"
#include "metrics/servingcost.h"

#include <QCoreApplication>
#include <QJsonArray>

#include <algorithm>
#include <cmath>

namespace ServeScope {

namespace {

QMap<QString, QString> flatten(const RunSource &s)
{
    QMap<QString, QString> out;
    for (const QJsonValue &e : s.envSnapshot) {
        const QJsonArray a = e.toArray();
        out.insert(QStringLiteral("env.") + a.at(0).toString(), a.at(1).toVariant().toString());
    }
    for (auto it = s.clientHost.begin(); it != s.clientHost.end(); ++it)
        out.insert(QStringLiteral("client_host.") + it.key(), it.value().toVariant().toString());
    return out;
}

} // namespace

bool keepVariant(RunSource *source, const QString &variant)
{
    QList<PointRepeats> kept;
    for (const PointRepeats &p : std::as_const(source->points)) {
        if (p.variant == variant)
            kept << p;
    }
    source->points = kept;
    source->capacities.removeIf([&variant](const CapacityResult &c) { return c.variant != variant; });
    return !kept.isEmpty();
}

QList<DeltaRow> capacityRows(
    const RunSource &a, const RunSource &b, double practicalThreshold, const QString &variantA, const QString &variantB)
{
    QList<DeltaRow> rows;
    for (const CapacityResult &ca : a.capacities) {
        if (!variantA.isEmpty() && ca.variant != variantA)
            continue;
        const QString wanted = variantB.isEmpty() ? ca.variant : variantB;
        for (const CapacityResult &cb : b.capacities) {
            if (cb.variant != wanted)
                continue;
            rows << deltaRow(cb.variant, QStringLiteral("capacity"), QStringLiteral("capacity"), capacityEstimate(ca),
                capacityEstimate(cb), practicalThreshold);
        }
    }
    return rows;
}

QList<DeltaSection> deltaSections(
    const QList<RunSource> &runs, ResultSet set, const NoiseFloors &floors, int rerunPairs)
{
    QList<DeltaSection> out;
    const QStringList metrics = headlineMetrics(
        set, std::any_of(runs.begin(), runs.end(), reasoned), std::any_of(runs.begin(), runs.end(), ranSessions));
    for (qsizetype k = 1; k < runs.size(); ++k) {
        const PointMatching m = matchPoints(runs[0].points, runs[k].points);
        DeltaSection section { QCoreApplication::translate("ServeScope::Compare", "%1: %2 vs A: %3")
                                   .arg(QChar(char16_t(u'A' + k)))
                                   .arg(runs[k].name, runs[0].name),
            deltaTable(runs[0].points, runs[k].points, m, metrics, kReproducibleSpread, floors)
                + capacityRows(runs[0], runs[k]),
            comparedDefinitions(runs[0], runs[k]), floors, rerunPairs };
        withholdIncomparable(section.rows, section.definitions);
        section.rows << costRows(runs[0], runs[k], section.rows);
        out << section;
    }
    if (runs.size() != 1)
        return out;
    QStringList variants;
    for (const PointRepeats &p : runs[0].points) {
        if (!variants.contains(p.variant))
            variants << p.variant;
    }
    for (qsizetype v = 1; v < variants.size(); ++v) {
        RunSource base = runs[0], other = runs[0];
        keepVariant(&base, variants[0]);
        keepVariant(&other, variants[v]);
        const PointMatching m = matchPoints(base.points, other.points);
        QList<DeltaRow> rows = deltaTable(base.points, other.points, m, metrics, kReproducibleSpread, floors);
        for (DeltaRow &r : rows)
            r.variant = variants[v];
        rows << capacityRows(base, other, kReproducibleSpread, variants[0], variants[v])
             << costRows(base, other, rows, kReproducibleSpread, variants[0], variants[v]);
        out << DeltaSection {
            QCoreApplication::translate("ServeScope::Compare", "B: %1 vs A: %2").arg(variants[v], variants[0]), rows,
            {}, floors, rerunPairs
        };
    }
    return out;
}

QList<DeltaRow> costRows(const RunSource &a, const RunSource &b, const QList<DeltaRow> &rows, double practicalThreshold,
    const QString &variantA, const QString &variantB)
{
    // A side of one variant is matched whatever its name (matchPoints()): its price stands for the row's.
    const auto priceOf = [](const RunSource &s, const QString &variant) {
        if (s.hourPrice.contains(variant))
            return s.hourPrice.value(variant);
        const bool oneVariant = std::all_of(s.points.cbegin(), s.points.cend(),
            [&s](const PointRepeats &p) { return p.variant == s.points.first().variant; });
        return oneVariant && s.hourPrice.size() == 1 ? s.hourPrice.first() : 0.0;
    };
    QList<DeltaRow> out;
    for (const DeltaRow &r : rows) {
        if (r.metric != QLatin1String("output_throughput"))
            continue;
        const double priceA = priceOf(a, variantA.isEmpty() ? r.variant : variantA);
        const double priceB = priceOf(b, variantB.isEmpty() ? r.variant : variantB);
        if (!(priceA > 0) || !(priceB > 0))
            continue;
        DeltaRow c = deltaRow(r.variant, r.label, QString::fromLatin1(kCostKey), costEstimate(r.a, priceA),
            costEstimate(r.b, priceB), practicalThreshold);
        if (r.verdict == Verdict::NotComparable) {
            c.verdict = r.verdict;
            c.reason = r.reason;
        }
        out << c;
    }
    return out;
}

QList<DefinitionRow> comparedDefinitions(const RunSource &a, const RunSource &b)
{
    return compareDefinitions(a.convention, a.measured, b.convention, b.measured);
}

bool RerunCheck::allAgree() const
{
    return extraPoints == 0 && !points.isEmpty() && std::all_of(points.cbegin(), points.cend(), [](const Point &p) {
        return p.outcome == QLatin1String("agree");
    });
}

RerunCheck checkRerun(const RunSource &earlier, const RunSource &now)
{
    RerunCheck check;
    const PointMatching matching = matchPoints(earlier.points, now.points);
    const QList<DeltaRow> rows = deltaTable(earlier.points, now.points, matching, headlineMetrics());
    for (const auto &[i, j] : matching.pairs) {
        RerunCheck::Point p { earlier.points[i].variant, earlier.points[i].label, QString(), {} };
        for (const DeltaRow &r : rows) {
            if (r.variant == p.variant && r.label == p.label && !agrees(r))
                p.differing << QStringLiteral("%1 %2%3%")
                                   .arg(r.metric, r.relative >= 0 ? QStringLiteral("+") : QString())
                                   .arg(r.relative * 100, 0, 'f', 1);
        }
        p.outcome = p.differing.isEmpty() ? QStringLiteral("agree") : QStringLiteral("differ");
        check.points << p;
    }
    for (int i : matching.unmatchedA)
        check.points << RerunCheck::Point { earlier.points[i].variant, earlier.points[i].label,
            QStringLiteral("missing"), {} };
    check.extraPoints = int(matching.unmatchedB.size());
    check.environment = environmentDifferences(earlier, now);
    return check;
}

const PointRepeats *matchingPoint(const RunSource &earlier, const PointKey &key)
{
    PointRepeats probe;
    probe.setKey(key);
    const PointMatching matching = matchPoints(earlier.points, { probe });
    return matching.pairs.isEmpty() ? nullptr : &earlier.points[matching.pairs.first().first];
}

QStringList PointVerdict::changes() const
{
    QStringList out;
    for (const DeltaRow &r : rows)
        out << QStringLiteral("%1 %2%3% %4")
                   .arg(r.metric, r.relative >= 0 ? QStringLiteral("+") : QString())
                   .arg(r.relative * 100, 0, 'f', 1)
                   .arg(verdictCode(r.verdict));
    return out;
}

PointVerdict pointVerdict(
    const RunSource &earlier, const PointRepeats &now, const QString &convention, const NoiseFloors &floors)
{
    PointVerdict v { now.variant, now.label, QStringLiteral("missing"), {}, false, floors };
    RunSource current;
    current.convention = convention;
    current.points = { now };
    const PointMatching matching = matchPoints(earlier.points, current.points);
    if (matching.pairs.isEmpty())
        return v;
    QList<DeltaRow> rows = deltaTable(earlier.points, current.points, matching,
        headlineMetrics(ResultSet::Vllm, reasoned(earlier) || reasoned(current)), kReproducibleSpread, floors);
    withholdIncomparable(rows, comparedDefinitions(earlier, current));
    int better = 0, worse = 0;
    bool failing = false;
    for (const DeltaRow &r : std::as_const(rows)) {
        v.oneRun = v.oneRun || std::min(r.a.repeats.n, r.b.repeats.n) < kRepeatsForSpread;
        if (!r.decided())
            continue;
        (r.verdict == Verdict::Better ? better : worse) += 1;
        failing = failing || (r.metric == QLatin1String("success_rate") && r.verdict == Verdict::Worse);
        v.rows << r;
    }
    // Failures first: more failed requests make the point worse whatever its latencies did.
    std::stable_partition(
        v.rows.begin(), v.rows.end(), [](const DeltaRow &r) { return r.metric == QLatin1String("success_rate"); });
    v.outcome = failing   ? QStringLiteral("worse")
        : better && worse ? QStringLiteral("mixed")
        : better          ? QStringLiteral("better")
        : worse           ? QStringLiteral("worse")
                          : QStringLiteral("noise");
    return v;
}

QStringList environmentDifferences(const RunSource &a, const RunSource &b)
{
    const QMap<QString, QString> fa = flatten(a), fb = flatten(b);
    QStringList keys = fa.keys() + fb.keys();
    keys.removeDuplicates();
    keys.sort();
    QStringList out;
    for (const QString &k : std::as_const(keys)) {
        const QString va = fa.value(k, QStringLiteral("(none)")), vb = fb.value(k, QStringLiteral("(none)"));
        if (va != vb)
            out << QStringLiteral("%1: %2 -> %3").arg(k, va, vb);
    }
    return out;
}

} // namespace ServeScope

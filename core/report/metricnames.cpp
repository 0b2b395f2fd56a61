// SPDX-License-Identifier: MIT
#include "report/metricnames.h"

#include "metrics/estimates.h"
#include "metrics/servingcost.h"

#include <QLocale>

#include <cmath>

namespace ServeScope {

namespace {

// Rounds to `decimals` and drops the sign of a value that rounds to zero.
QString fixed(double value, int decimals, bool sign)
{
    const double p = std::pow(10.0, decimals);
    double rounded = std::round(value * p) / p;
    if (rounded == 0)
        rounded = 0; // -0.0 → 0.0
    QString text = QString::number(std::abs(rounded), 'f', decimals);
    if (rounded < 0)
        text.prepend(QChar(0x2212)); // minus sign
    else if (sign && rounded > 0)
        text.prepend(u'+');
    return text;
}

} // namespace

MetricName MetricName::of(const QString &key)
{
    MetricName m;
    m.key = key;
    m.name = key;
    // A multi_turn point's first or later turns: the figure's name, said of those turns.
    bool first = false;
    if (const QString figure = turnFigure(key, &first); !figure.isEmpty()) {
        m = figure == QLatin1String("cache_hit_rate")
            ? MetricName { key, tr("Prompt cache hit rate"), QStringLiteral("%"), Family::Other, 1, 1 }
            : of(figure);
        m.key = key;
        m.name = (first ? tr("%1, first turns") : tr("%1, later turns")).arg(m.name);
        return m;
    }
    if (key == QLatin1String("capacity"))
        m = { key, tr("Capacity"), QString(), Family::Other, 2, 1 };
    else if (key == QLatin1String("output_throughput"))
        m = { key, tr("Output throughput"), tr("tok/s"), Family::Throughput, 1, 1 };
    else if (key == QLatin1String("total_token_throughput"))
        m = { key, tr("Total token throughput"), tr("tok/s"), Family::Throughput, 1, 1 };
    else if (key == QLatin1String("request_throughput"))
        m = { key, tr("Request throughput"), tr("req/s"), Family::Throughput, 2, 1 };
    else if (key == QLatin1String(kCostKey)) // in the price's currency
        m = { key, tr("Cost per million output tokens"), QString(), Family::Throughput, 2, 1 };
    else if (key == QLatin1String("success_rate"))
        m = { key, tr("Success rate"), QStringLiteral("%"), Family::Success, 1, 100 };
    else if (key.endsWith(QLatin1String("_ms"))) {
        // STAT_METRIC_ms: mean, median, p90, p99 … of TTFT, TPOT, ITL, E2EL
        const QStringList parts = key.chopped(3).split(u'_');
        if (parts.size() == 2) {
            static const QList<std::pair<QString, Family>> families { { QStringLiteral("ttft"), Family::Ttft },
                { QStringLiteral("ttfo"), Family::Ttft }, { QStringLiteral("tpot"), Family::Tpot },
                { QStringLiteral("itl"), Family::Itl }, { QStringLiteral("e2el"), Family::E2el } };
            for (const auto &[code, family] : families) {
                if (parts[1] != code)
                    continue;
                const QString stat = parts[0] == QLatin1String("median") ? QStringLiteral("p50")
                    : parts[0] == QLatin1String("mean")                  ? tr("mean")
                    : parts[0] == QLatin1String("std")                   ? tr("std dev")
                                                                         : parts[0];
                m = { key,
                    QStringLiteral("%1 %2").arg(
                        code == QLatin1String("e2el") ? QStringLiteral("E2EL") : code.toUpper(), stat),
                    tr("ms"), family, 1, 1 };
            }
        }
    }
    return m;
}

QString MetricName::familyName(Family family)
{
    switch (family) {
    case Family::Throughput:
        return tr("Throughput");
    case Family::Ttft:
        return QStringLiteral("TTFT");
    case Family::Tpot:
        return QStringLiteral("TPOT");
    case Family::Itl:
        return QStringLiteral("ITL");
    case Family::E2el:
        return QStringLiteral("E2EL");
    case Family::Success:
        return tr("Success rate");
    case Family::Other:
        break;
    }
    return tr("Other");
}

QString MetricName::title() const
{
    return unit.isEmpty() ? name : tr("%1 (%2)").arg(name, unit);
}

QString MetricName::format(double value) const
{
    return std::isfinite(value) ? fixed(value * scale, decimals, false) : QStringLiteral("—");
}

QString MetricName::formatChange(double change) const
{
    return std::isfinite(change) ? fixed(change * scale, decimals, true) : QStringLiteral("—");
}

QString MetricName::formatPercent(double relative)
{
    return std::isfinite(relative) ? fixed(relative * 100, 1, true) : QString();
}

namespace Report {

const QStringList &headlineKeys()
{
    static const QStringList keys { QStringLiteral("output_throughput"), QStringLiteral("median_ttft_ms"),
        QStringLiteral("p90_ttft_ms"), QStringLiteral("median_tpot_ms"), QStringLiteral("p90_tpot_ms"),
        QStringLiteral("p90_e2el_ms"), QStringLiteral("success_rate") };
    return keys;
}

const QStringList &headlineChangeKeys()
{
    static const QStringList keys = [] {
        QStringList k = headlineKeys();
        k.prepend(QStringLiteral("capacity")); // a capacity search's answer, before any point's
        // With a GPU-hour price: what the throughput costs, beside it.
        k.insert(k.indexOf(QStringLiteral("output_throughput")) + 1, QString::fromLatin1(kCostKey));
        k.insert(k.indexOf(QStringLiteral("p90_ttft_ms")) + 1, QStringLiteral("median_ttfo_ms"));
        k.insert(k.indexOf(QStringLiteral("median_ttfo_ms")) + 1, QStringLiteral("p90_ttfo_ms"));
        return k;
    }();
    return keys;
}

QList<DeltaRow> headlineRows(const DeltaSection &section)
{
    QStringList points;
    qsizetype capacities = 0; // capacity rows lead: they answer what the points only lead up to
    for (const DeltaRow &r : section.rows) {
        const QString where = r.variant + u'\n' + r.label;
        if (points.contains(where))
            continue;
        if (r.metric == QLatin1String("capacity"))
            points.insert(capacities++, where);
        else
            points << where;
    }
    QList<DeltaRow> out;
    for (const QString &where : std::as_const(points)) {
        for (const QString &key : headlineChangeKeys()) {
            for (const DeltaRow &r : section.rows) {
                if (r.metric == key && r.variant + u'\n' + r.label == where)
                    out << r;
            }
        }
    }
    return out;
}

QString changeText(const DeltaRow &row)
{
    if (row.blank())
        return QStringLiteral("—");
    // From twice the baseline on, a factor reads better than a percentage ("×17.0", not "+1600.0%").
    if (row.a.repeats.median > 0 && row.b.repeats.median >= 2 * row.a.repeats.median)
        return QStringLiteral("×") + QString::number(row.b.repeats.median / row.a.repeats.median, 'f', 1);
    const QString percent = MetricName::formatPercent(row.relative);
    return percent.isEmpty() ? MetricName::of(row.metric).formatChange(row.change) : percent + u'%';
}

QColor verdictColour(Verdict v)
{
    switch (v) {
    case Verdict::Better:
        return QColor(0xd8, 0xf0, 0xdc);
    case Verdict::Worse:
        return QColor(0xf8, 0xd7, 0xda);
    case Verdict::Noise:
        return QColor(0xee, 0xee, 0xee);
    case Verdict::NotComparable:
    case Verdict::Undecided:
        break;
    }
    return QColor();
}

} // namespace Report

} // namespace ServeScope

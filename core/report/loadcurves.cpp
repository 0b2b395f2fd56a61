// SPDX-License-Identifier: MIT
#include "report/loadcurves.h"

#include "metrics/repeats.h"

#include <QCoreApplication>
#include <QLocale>

#include <algorithm>
#include <cmath>

namespace ServeScope::Report::Detail {

QString tr(const char *text)
{
    return QCoreApplication::translate("ServeScope::Report", text);
}

ChartSpec baseSpec(const QList<RunSeriesInput> &runs)
{
    ChartSpec spec;
    for (const RunSeriesInput &r : runs) {
        if (!spec.footers.contains(r.footer))
            spec.footers << r.footer;
    }
    return spec;
}

QString fmt(double v, int precision)
{
    return QLocale().toString(v, 'g', precision);
}

double loadValue(const PointSummary &p, LoadMode mode)
{
    return mode == LoadMode::Rate ? p.requestRate : double(p.concurrency);
}

static bool isRate(const PointSummary &p)
{
    return p.mode == QLatin1String("rate");
}

AxisSpec loadAxis(LoadMode mode)
{
    AxisSpec a;
    if (mode == LoadMode::Rate) {
        a.title = QCoreApplication::translate("ServeScope::Report", "Request rate (req/s)");
        a.scale = AxisScale::Linear;
    } else {
        // Concurrency gradients double (1, 2, 4, ... 64): a log-2 axis spaces them evenly.
        a.title = QCoreApplication::translate("ServeScope::Report", "Concurrency (requests in flight)");
        a.scale = AxisScale::Log2;
        a.labelFormat = QStringLiteral("%d");
    }
    return a;
}

// vLLM's default `request_rate: inf` without `max_concurrency` sends every prompt at once: in
// effect a closed loop whose concurrency is the number of prompts.
static bool isBurst(const PointSummary &p)
{
    return isRate(p) && std::isinf(p.requestRate) && p.concurrency <= 0
        && qint64(p.completed) + p.failed + p.cancelled > 0;
}

QString loadText(const PointSummary &p)
{
    if (p.mode == QLatin1String("burst"))
        return QCoreApplication::translate("ServeScope::Report", "burst: all %1 requests at once").arg(p.concurrency);
    if (isRate(p)) {
        QString s = std::isinf(p.requestRate)
            ? QCoreApplication::translate("ServeScope::Report", "rate inf")
            : QCoreApplication::translate("ServeScope::Report", "rate %1/s").arg(fmt(p.requestRate));
        if (p.concurrency > 0)
            s += QCoreApplication::translate("ServeScope::Report", ", cap %1").arg(p.concurrency);
        return s;
    }
    return QCoreApplication::translate("ServeScope::Report", "concurrency %1").arg(p.concurrency);
}

static QString curveKey(const PointSummary &p)
{
    // Everything but the load variable: a change in any of these starts a new curve.
    return p.mode + QLatin1Char('|') + QString::number(p.inputLen) + QLatin1Char('|') + QString::number(p.outputLen)
        + QLatin1Char('|') + (isRate(p) ? QString::number(p.concurrency) : QString());
}

CurvePlan planCurves(const QList<RunSeriesInput> &runs, LoadMode requested)
{
    CurvePlan plan;
    bool anyConcurrency = false;
    bool anyFiniteRate = false;
    for (const RunSeriesInput &r : runs)
        for (const PointSummary &p : r.points) {
            anyConcurrency = anyConcurrency || !isRate(p);
            anyFiniteRate = anyFiniteRate || (isRate(p) && !isBurst(p));
        }
    // Bursts alone are drawn on the concurrency axis; beside real request rates they stay off it.
    plan.mode = requested != LoadMode::Auto  ? requested
        : (anyConcurrency || !anyFiniteRate) ? LoadMode::Concurrency
                                             : LoadMode::Rate;
    int otherMode = 0, infinite = 0;
    for (const RunSeriesInput &r : runs) {
        QList<Curve> curves;
        QStringList keys;
        for (PointSummary p : medianAcrossRepeats(r.points)) {
            if (isBurst(p) && plan.mode == LoadMode::Concurrency && !anyFiniteRate) {
                p.mode = QStringLiteral("burst"); // its own curve, placed at its number of prompts
                p.concurrency = p.completed + p.failed + p.cancelled;
            }
            if (isRate(p) != (plan.mode == LoadMode::Rate)) {
                ++otherMode;
                continue;
            }
            if (!std::isfinite(loadValue(p, plan.mode)) || loadValue(p, plan.mode) <= 0) {
                ++infinite;
                continue;
            }
            const QString key = curveKey(p);
            qsizetype i = keys.indexOf(key);
            if (i < 0) {
                i = keys.size();
                keys << key;
                curves.append(Curve {});
            }
            curves[i].points << p;
        }
        for (Curve &c : curves) {
            std::sort(c.points.begin(), c.points.end(), [&](const PointSummary &a, const PointSummary &b) {
                return loadValue(a, plan.mode) < loadValue(b, plan.mode);
            });
            if (curves.size() > 1)
                c.suffix = QCoreApplication::translate("ServeScope::Report", " (in %1 / out %2)")
                               .arg(c.points.first().inputLen)
                               .arg(c.points.first().outputLen);
            if (curves.size() > 1 && c.points.first().mode == QLatin1String("burst"))
                c.suffix += QCoreApplication::translate("ServeScope::Report", " burst");
            if (curves.size() > 1 && isRate(c.points.first()) && c.points.first().concurrency > 0)
                c.suffix
                    += QCoreApplication::translate("ServeScope::Report", " cap %1").arg(c.points.first().concurrency);
        }
        plan.perRun << curves;
    }
    if (otherMode)
        plan.notes << (plan.mode == LoadMode::Rate ? QCoreApplication::translate(
                           "ServeScope::Report", "%1 concurrency point(s) not shown on the request-rate axis.")
                                                   : QCoreApplication::translate("ServeScope::Report",
                                                       "%1 request-rate point(s) not shown on the concurrency axis."))
                          .arg(otherMode);
    if (infinite)
        plan.notes << QCoreApplication::translate(
            "ServeScope::Report", "%1 point(s) with an infinite or zero load value not shown.")
                          .arg(infinite);
    return plan;
}

QString pointTooltip(const QString &run, const PointSummary &p, const QStringList &lines)
{
    QStringList t;
    t << run + QStringLiteral(" · ")
            + (p.label.isEmpty() ? loadText(p) : p.label + QStringLiteral(" · ") + loadText(p));
    t << lines;
    QString success = QCoreApplication::translate("ServeScope::Report", "success %1%").arg(fmt(p.successRate * 100, 4));
    if (p.failed > 0)
        success += QCoreApplication::translate("ServeScope::Report", " (%1 failed)").arg(p.failed);
    t << success;
    if (p.cancelled > 0)
        t << QCoreApplication::translate("ServeScope::Report", "partial: %1/%2 requests, the rest cancelled")
                 .arg(p.completed)
                 .arg(p.completed + p.failed + p.cancelled);
    if (p.repeat > 1)
        t << QCoreApplication::translate("ServeScope::Report", "median of %1 repeats").arg(p.repeat);
    return t.join(QLatin1Char('\n'));
}

void addMarkers(ChartSpec &spec, const QString &group, const QColor &colour, const QList<PointSummary> &points,
    const QList<QPointF> &xy, const QStringList &tooltips)
{
    SeriesSpec filled;
    filled.kind = SeriesKind::Scatter;
    filled.group = group;
    filled.colour = colour;
    filled.width = 8;
    SeriesSpec hollow = filled;
    hollow.hollow = true;
    for (qsizetype i = 0; i < points.size(); ++i) {
        // Failed or cancelled requests: the point does not describe the whole load.
        SeriesSpec &s = points[i].failed > 0 || points[i].cancelled > 0 ? hollow : filled;
        s.points << xy[i];
        s.tooltips << tooltips.value(i);
    }
    if (!filled.points.isEmpty())
        spec.series << filled;
    if (!hollow.points.isEmpty())
        spec.series << hollow;
}

} // namespace ServeScope::Report::Detail

namespace ServeScope::Report {

QList<RunSeriesInput> inputsPerVariant(const QString &runName, const QList<PointSummary> &points, int firstColour)
{
    QList<RunSeriesInput> out;
    for (const PointSummary &p : points) {
        auto it = std::find_if(
            out.begin(), out.end(), [&](const RunSeriesInput &r) { return r.points.first().variant == p.variant; });
        if (it == out.end()) {
            RunSeriesInput r;
            r.colour = defaultRunColour(firstColour + int(out.size()));
            r.points << p;
            out << r;
        } else {
            it->points << p;
        }
    }
    for (RunSeriesInput &r : out) {
        const QString v = r.points.first().variant;
        if (out.size() == 1 || v.isEmpty())
            r.name = runName.isEmpty() ? v : runName;
        else
            r.name = runName.isEmpty() ? v : runName + QStringLiteral(" / ") + v;
    }
    return out;
}

} // namespace ServeScope::Report

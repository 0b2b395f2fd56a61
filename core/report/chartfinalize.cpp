// SPDX-License-Identifier: MIT
#include "report/chartbuilders.h"

#include <QCoreApplication>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace ServeScope::Report {

QString ChartSpec::footerText() const
{
    QStringList lines;
    for (const ChartFooter &f : footers) {
        if (!f.isEmpty())
            lines << f.text();
    }
    return lines.join(u'\n');
}

QString ChartFooter::text() const
{
    QStringList parts;
    if (!baseUrl.isEmpty())
        parts << baseUrl;
    if (!model.isEmpty())
        parts << QCoreApplication::translate("ServeScope::Report", "model %1").arg(model);
    if (!runTime.isEmpty())
        parts << runTime;
    if (!definitions.isEmpty())
        parts << QCoreApplication::translate("ServeScope::Report", "definitions: %1").arg(definitions);
    if (!note.isEmpty())
        parts << note;
    const QString details = parts.join(QStringLiteral("  ·  "));
    // A compared run's name gets its own line, so a long name never pushes the details off the chart.
    return label.isEmpty() ? details : label + QStringLiteral(": ") + runName + QStringLiteral("\n    ") + details;
}

QColor defaultRunColour(int index)
{
    // Okabe-Ito: distinguishable with the common colour-vision deficiencies and in greyscale print.
    static const std::array<QRgb, 8> palette
        = { 0x0072B2, 0xD55E00, 0x009E73, 0xCC79A7, 0xE69F00, 0x56B4E9, 0x7F7F7F, 0xF0E442 };
    return QColor(palette[size_t(std::abs(index)) % palette.size()]);
}

QList<QPointF> decimate(const QList<QPointF> &points, int budget, QList<int> *keptIndices)
{
    const int n = int(points.size());
    QList<int> keep;
    if (n <= budget || budget < 4) {
        keep.reserve(n);
        for (int i = 0; i < n && (i < budget || budget >= n); ++i)
            keep << i;
    } else {
        // Each bucket contributes its minimum and maximum (in x order), so spikes survive decimation.
        const int buckets = (budget - 2) / 2;
        const double width = double(n - 2) / buckets;
        keep << 0;
        for (int b = 0; b < buckets; ++b) {
            const int from = 1 + int(b * width);
            const int to = std::min(n - 1, 1 + int((b + 1) * width));
            if (from >= to)
                continue;
            int lo = from, hi = from;
            for (int i = from; i < to; ++i) {
                if (points[i].y() < points[lo].y())
                    lo = i;
                if (points[i].y() > points[hi].y())
                    hi = i;
            }
            keep << std::min(lo, hi);
            if (hi != lo)
                keep << std::max(lo, hi);
        }
        keep << n - 1;
    }
    QList<QPointF> out;
    out.reserve(keep.size());
    for (int i : keep)
        out << points[i];
    if (keptIndices)
        *keptIndices = keep;
    return out;
}

namespace {

template<typename T> QList<T> pick(const QList<T> &values, const QList<int> &indices)
{
    if (values.isEmpty())
        return values;
    QList<T> out;
    out.reserve(indices.size());
    for (int i : indices)
        out << values.value(i);
    return out;
}

void applyBudget(SeriesSpec &s)
{
    if (s.points.size() <= kPointBudget)
        return;
    QList<int> kept;
    if (s.kind == SeriesKind::Line) {
        s.points = decimate(s.points, kPointBudget, &kept);
    } else {
        // Bands and scatters: an even stride keeps upper and lower edges aligned.
        const double step = double(s.points.size()) / kPointBudget;
        for (int i = 0; i < kPointBudget; ++i)
            kept << int(i * step);
        s.points = pick(s.points, kept);
    }
    s.lower = pick(s.lower, kept);
    s.tooltips = pick(s.tooltips, kept);
}

bool isLog(AxisScale s)
{
    return s != AxisScale::Linear;
}

// Drops points a log axis cannot show; a band's lower edge is clamped instead so the band keeps its shape.
int sanitizeSeries(SeriesSpec &s, bool logX, bool logY, double clampY)
{
    int dropped = 0;
    QList<int> keep;
    for (int i = 0; i < s.points.size(); ++i) {
        const QPointF p = s.points[i];
        const bool badX = !std::isfinite(p.x()) || (logX && p.x() <= 0);
        const bool badY = !std::isfinite(p.y()) || (logY && p.y() <= 0);
        if (badX || badY) {
            ++dropped;
            continue;
        }
        keep << i;
    }
    if (dropped) {
        s.points = pick(s.points, keep);
        s.lower = pick(s.lower, keep);
        s.tooltips = pick(s.tooltips, keep);
    }
    if (logY) {
        for (QPointF &p : s.lower) {
            if (!(p.y() > 0)) {
                p.setY(clampY);
                ++dropped;
            }
        }
    }
    return dropped;
}

} // namespace

double niceTickStep(double span)
{
    if (!(span > 0) || !std::isfinite(span))
        return 1;
    // About five to eight intervals of 1, 2, 2.5 or 5 times a power of ten.
    const double raw = span / 6;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : { 1.0, 2.0, 2.5, 5.0 })
        if (raw <= m * magnitude * 1.0000001)
            return m * magnitude;
    return 10 * magnitude;
}

namespace {

void fitAxis(AxisSpec &a, double lo, double hi)
{
    if (a.fixedRange)
        return;
    if (!(lo <= hi)) { // no data
        lo = isLog(a.scale) ? 1 : 0;
        hi = isLog(a.scale) ? 10 : 1;
    }
    if (isLog(a.scale)) {
        const double base = a.scale == AxisScale::Log2 ? 2.0 : 10.0;
        double e0 = std::floor(std::log(lo) / std::log(base) + 1e-9);
        double e1 = std::ceil(std::log(hi) / std::log(base) - 1e-9);
        if (e1 <= e0)
            e1 = e0 + 1;
        a.min = std::pow(base, e0);
        a.max = std::pow(base, e1);
        // Markers on the first or last power would be cut in half by the plot edge.
        const double pad = std::pow(base, a.scale == AxisScale::Log2 ? 0.12 : 0.05);
        if (lo <= a.min * 1.0000001)
            a.min /= pad;
        if (hi >= a.max / 1.0000001)
            a.max *= pad;
        return;
    }
    if (a.includeZero)
        lo = std::min(lo, 0.0);
    const double span = hi - lo > 0 ? hi - lo : std::max(std::abs(hi), 1.0);
    const double step = niceTickStep(span * 1.06);
    a.min = lo == 0 ? 0 : std::floor((lo - span * 0.02) / step) * step;
    a.max = std::ceil((hi + span * 0.04) / step) * step;
}

} // namespace

void finalizeSpec(ChartSpec &spec)
{
    std::stable_sort(spec.series.begin(), spec.series.end(),
        [](const SeriesSpec &a, const SeriesSpec &b) { return int(a.kind) < int(b.kind); });
    const bool logX = isLog(spec.x.scale);
    int dropped = 0;
    for (int axis = 0; axis < 2; ++axis) {
        const AxisSpec &ya = axis == 0 ? spec.y : spec.y2;
        double minPositive = std::numeric_limits<double>::max();
        for (const SeriesSpec &s : std::as_const(spec.series)) {
            if (s.secondaryY != (axis == 1))
                continue;
            for (const QPointF &p : s.points)
                if (p.y() > 0)
                    minPositive = std::min(minPositive, p.y());
        }
        const double clampY = minPositive == std::numeric_limits<double>::max() ? 1.0 : minPositive / 2;
        for (SeriesSpec &s : spec.series) {
            if (s.secondaryY == (axis == 1))
                dropped += sanitizeSeries(s, logX, isLog(ya.scale), clampY);
        }
    }
    const bool anyLog = isLog(spec.x.scale) || isLog(spec.y.scale) || (spec.hasY2 && isLog(spec.y2.scale));
    const bool nothing
        = std::all_of(spec.series.cbegin(), spec.series.cend(), [](const SeriesSpec &s) { return s.points.isEmpty(); });
    if (dropped > 0 && nothing)
        spec.notes << QCoreApplication::translate("ServeScope::Report",
            "Nothing to draw: no point has this metric. A buffered stream's decode timings (TPOT, ITL) are "
            "withheld (see Findings); other files may not give it.");
    else if (dropped > 0 && anyLog)
        spec.notes << QCoreApplication::translate("ServeScope::Report",
            "%n value(s) not positive or not finite: dropped (or band edge clamped) on the log axis.", nullptr,
            dropped);
    else if (dropped > 0)
        spec.notes << QCoreApplication::translate(
            "ServeScope::Report", "%n value(s) unknown (not in the results): not drawn.", nullptr, dropped);
    double x0 = std::numeric_limits<double>::max(), x1 = std::numeric_limits<double>::lowest();
    double y0[2] = { x0, x0 }, y1[2] = { x1, x1 };
    for (SeriesSpec &s : spec.series) {
        applyBudget(s);
        const int k = s.secondaryY ? 1 : 0;
        for (const QList<QPointF> *list : { &s.points, &s.lower }) {
            for (const QPointF &p : *list) {
                x0 = std::min(x0, p.x());
                x1 = std::max(x1, p.x());
                y0[k] = std::min(y0[k], p.y());
                y1[k] = std::max(y1[k], p.y());
            }
        }
    }
    fitAxis(spec.x, x0, x1);
    fitAxis(spec.y, y0[0], y1[0]);
    if (spec.hasY2)
        fitAxis(spec.y2, y0[1], y1[1]);
}

ChartSpec withAxisScale(ChartSpec spec, char axis, AxisScale scale)
{
    AxisSpec &a = axis == 'x' ? spec.x : (axis == '2' ? spec.y2 : spec.y);
    a.scale = scale;
    a.fixedRange = false;
    finalizeSpec(spec);
    return spec;
}

} // namespace ServeScope::Report

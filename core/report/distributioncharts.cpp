// SPDX-License-Identifier: MIT
#include "report/loadcurves.h"

#include <algorithm>
#include <cmath>

namespace ServeScope::Report {

using namespace Detail;

namespace {

ChartSpec distributionBase(Metric metric, const QString &pointLabel)
{
    ChartSpec spec;
    spec.x.title = tr("%1 (ms, log scale)").arg(metricTitle(metric));
    spec.x.scale = AxisScale::Log10;
    spec.subtitle = pointLabel;
    return spec;
}

int countNonPositive(const QList<double> &v)
{
    return int(std::count_if(v.begin(), v.end(), [](double x) { return !(x > 0) || !std::isfinite(x); }));
}

} // namespace

ChartSpec distributionCdf(const QList<DistributionInput> &inputs, Metric metric, const QString &pointLabel)
{
    ChartSpec spec = distributionBase(metric, pointLabel);
    spec.title = tr("%1 distribution (CDF)").arg(metricTitle(metric));
    spec.y.title = tr("Share of requests at or below");
    spec.y.min = 0;
    spec.y.max = 1;
    spec.y.fixedRange = true;
    spec.y.labelFormat = QStringLiteral("%.1f");
    for (const DistributionInput &in : inputs) {
        QList<double> v = in.valuesMs;
        std::sort(v.begin(), v.end());
        SeriesSpec s;
        s.name = in.name;
        s.group = in.name;
        s.colour = in.colour;
        const qsizetype n = v.size();
        for (qsizetype i = 0; i < n; ++i) {
            const double q = double(i + 1) / double(n);
            s.points << QPointF(v[i], q);
            s.tooltips
                << tr("%1: %2 ms\n%3% of %4 requests at or below").arg(in.name, fmt(v[i]), fmt(q * 100, 4)).arg(n);
        }
        spec.series << s;
    }
    finalizeSpec(spec);
    return spec;
}

ChartSpec distributionHistogram(
    const QList<DistributionInput> &inputs, Metric metric, const QString &pointLabel, int bins)
{
    ChartSpec spec = distributionBase(metric, pointLabel);
    spec.title = tr("%1 distribution (histogram)").arg(metricTitle(metric));
    spec.y.title = tr("Share of requests per bin");
    bins = std::clamp(bins, 1, kPointBudget / 2 - 1);
    double lo = std::numeric_limits<double>::max(), hi = 0;
    int skipped = 0;
    for (const DistributionInput &in : inputs) {
        skipped += countNonPositive(in.valuesMs);
        for (double v : in.valuesMs)
            if (v > 0 && std::isfinite(v)) {
                lo = std::min(lo, v);
                hi = std::max(hi, v);
            }
    }
    if (skipped)
        spec.notes << tr("%1 non-positive value(s) cannot be placed on the log axis and are not counted.").arg(skipped);
    if (hi <= 0) {
        finalizeSpec(spec);
        return spec;
    }
    // Shared log-spaced bins so A and B are directly comparable.
    const double l0 = std::log10(lo), l1 = std::log10(hi) + 1e-9 + (hi == lo ? 0.1 : 0);
    const double w = (l1 - l0) / bins;
    for (const DistributionInput &in : inputs) {
        QList<int> counts(bins, 0);
        int n = 0;
        for (double v : in.valuesMs) {
            if (!(v > 0) || !std::isfinite(v))
                continue;
            ++counts[std::clamp(int((std::log10(v) - l0) / w), 0, bins - 1)];
            ++n;
        }
        SeriesSpec area;
        area.kind = SeriesKind::Band;
        area.name = in.name;
        area.group = in.name;
        area.colour = in.colour;
        area.opacity = 0.35;
        for (int b = 0; b < bins; ++b) {
            const double x0 = std::pow(10, l0 + b * w), x1 = std::pow(10, l0 + (b + 1) * w);
            const double share = n ? double(counts[b]) / n : 0;
            const QString tip = tr("%1: %2–%3 ms\n%4 requests (%5%)")
                                    .arg(in.name, fmt(x0), fmt(x1))
                                    .arg(counts[b])
                                    .arg(fmt(share * 100, 3));
            area.points << QPointF(x0, share) << QPointF(x1, share);
            area.lower << QPointF(x0, 0) << QPointF(x1, 0);
            area.tooltips << tip << tip;
        }
        spec.series << area;
    }
    finalizeSpec(spec);
    return spec;
}

} // namespace ServeScope::Report

// SPDX-License-Identifier: MIT
// GPUs per variant, per-GPU and per-user throughput, cost per million tokens, and the frontier of
// throughput against interactivity.
#include "metrics/servingcost.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ServeScope {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// A server argument's value as a positive whole number; 0 when absent or not one.
int positiveArg(const Server &server, std::initializer_list<const char *> names)
{
    for (const auto &[name, value] : server.args.items()) {
        QString n = name;
        n.replace(u'-', u'_');
        for (const char *wanted : names) {
            if (n != QLatin1String(wanted))
                continue;
            const double v = value.isString() ? value.toString().toDouble() : value.toDouble();
            if (std::isfinite(v) && v >= 1 && v == std::floor(v))
                return int(v);
        }
    }
    return 0;
}

} // namespace

ServingGpus servingGpus(const Experiment &resolved)
{
    if (resolved.server.gpus > 0)
        return { resolved.server.gpus, QStringLiteral("server.gpus") };
    const int tp = positiveArg(resolved.server, { "tensor_parallel_size", "tp_size", "tp" });
    const int pp = positiveArg(resolved.server, { "pipeline_parallel_size", "pp_size", "pp" });
    const int dp = positiveArg(resolved.server, { "data_parallel_size", "dp_size", "dp" });
    if (tp || pp || dp)
        return { std::max(tp, 1) * std::max(pp, 1) * std::max(dp, 1), QStringLiteral("server.args") };
    for (const EnvEntry &e : resolved.envSnapshot) {
        bool ok = false;
        const int n = e.value.trimmed().toInt(&ok);
        if (e.key == QLatin1String("gpu_count") && ok && n > 0)
            return { n, QStringLiteral("environment") };
    }
    return {};
}

double hourPrice(const Experiment &resolved)
{
    return resolved.server.gpuHourPrice > 0 ? resolved.server.gpuHourPrice * servingGpus(resolved).count : 0;
}

ServingPoint servingPoint(const PointSummary &p, int gpus, double gpuHourPrice)
{
    ServingPoint s;
    s.perGpu = p.outputThroughput / std::max(gpus, 1);
    s.perUser = p.tpot.median > 0 && std::isfinite(p.tpot.median) ? 1000.0 / p.tpot.median : kNaN;
    s.costPerMillion = gpuHourPrice > 0 && p.outputThroughput > 0
        ? costPerMillion(gpuHourPrice * std::max(gpus, 1), p.outputThroughput)
        : kNaN;
    return s;
}

MetricEstimate costEstimate(const MetricEstimate &t, double hourPrice)
{
    MetricEstimate c;
    c.key = QString::fromLatin1(kCostKey);
    const auto cost = [hourPrice](double tokensPerS) { return costPerMillion(hourPrice, tokensPerS); };
    if (t.repeats.n == 0 || !(t.repeats.min > 0) || !(hourPrice > 0))
        return c;
    c.repeats.n = t.repeats.n;
    c.repeats.median = cost(t.repeats.median);
    c.repeats.min = cost(t.repeats.max);
    c.repeats.max = cost(t.repeats.min);
    c.repeats.cv = t.repeats.cv; // to first order the same relative spread
    if (t.ci.valid && t.ci.low > 0)
        c.ci = { cost(t.ci.high), cost(t.ci.low), true };
    c.method = t.method;
    return c;
}

QList<QPointF> paretoFrontier(const QList<QPointF> &points)
{
    QList<QPointF> sorted;
    for (const QPointF &p : points) {
        if (std::isfinite(p.x()) && std::isfinite(p.y()))
            sorted << p;
    }
    // Fastest per user first; a point joins when it has more per-GPU throughput than every faster one.
    std::sort(sorted.begin(), sorted.end(),
        [](const QPointF &a, const QPointF &b) { return a.x() != b.x() ? a.x() > b.x() : a.y() > b.y(); });
    QList<QPointF> frontier;
    double best = -std::numeric_limits<double>::infinity();
    for (const QPointF &p : std::as_const(sorted)) {
        if (p.y() > best) {
            frontier.prepend(p);
            best = p.y();
        }
    }
    return frontier;
}

std::optional<double> perGpuAt(QList<QPointF> curve, double perUser)
{
    curve.erase(std::remove_if(curve.begin(), curve.end(),
                    [](const QPointF &p) { return !std::isfinite(p.x()) || !std::isfinite(p.y()); }),
        curve.end());
    if (curve.isEmpty() || !std::isfinite(perUser))
        return std::nullopt;
    std::sort(curve.begin(), curve.end(), [](const QPointF &a, const QPointF &b) { return a.x() < b.x(); });
    if (perUser < curve.first().x() || perUser > curve.last().x())
        return std::nullopt;
    for (qsizetype i = 0; i < curve.size(); ++i) {
        if (curve[i].x() == perUser)
            return curve[i].y();
        if (i + 1 < curve.size() && curve[i].x() < perUser && perUser < curve[i + 1].x()) {
            const QPointF a = curve[i], b = curve[i + 1];
            return a.y() + (b.y() - a.y()) * (perUser - a.x()) / (b.x() - a.x());
        }
    }
    return std::nullopt;
}

} // namespace ServeScope

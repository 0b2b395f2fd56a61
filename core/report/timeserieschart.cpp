// SPDX-License-Identifier: MIT
#include "report/loadcurves.h"

#include <algorithm>
#include <cmath>

namespace ServeScope::Report {

using namespace Detail;

namespace {

struct Buckets {
    QList<double> completions, tokens;
    void add(QList<double> &list, qsizetype index, double amount)
    {
        if (index < 0)
            return;
        if (list.size() <= index)
            list.resize(index + 1, 0.0);
        list[index] += amount;
    }
};

SeriesSpec inFlightSeries(const TimeSeriesInput &in, qint64 t0)
{
    QList<QPair<qint64, int>> steps;
    for (const RequestRecord &r : in.requests) {
        steps.append({ r.startNs, +1 });
        steps.append({ std::max(r.endNs, r.startNs), -1 });
    }
    // A departure at the same instant is processed first (docs/metrics.md, max_concurrent_requests).
    std::sort(steps.begin(), steps.end());
    SeriesSpec s;
    s.name = tr("%1 in flight").arg(in.name);
    s.group = in.name;
    s.colour = in.colour;
    s.width = 1.5;
    int level = 0;
    s.points << QPointF(0, 0);
    for (const auto &[t, delta] : steps) {
        const double x = double(t - t0) / 1e9;
        s.points << QPointF(x, level);
        level += delta;
        s.points << QPointF(x, level);
    }
    return s;
}

// One gauge family of the server (running or waiting), summed over its label sets per scrape.
SeriesSpec serverGauge(const TimeSeriesInput &in, qint64 t0, const QStringList &names, const QString &title)
{
    QMap<qint64, double> byScrape;
    for (const ServerSample &s : in.server) {
        if (names.contains(s.name) && s.timeNs >= t0)
            byScrape[s.timeNs] += s.value;
    }
    SeriesSpec out;
    out.name = title;
    out.group = in.name;
    out.dashed = true;
    for (auto it = byScrape.cbegin(); it != byScrape.cend(); ++it) {
        const double x = double(it.key() - t0) / 1e9;
        out.points << QPointF(x, it.value());
        out.tooltips << tr("%1 at %2 s: %3").arg(title, fmt(x), fmt(it.value()));
    }
    return out;
}

} // namespace

ChartSpec runTimeSeries(const QList<TimeSeriesInput> &inputs)
{
    ChartSpec spec;
    spec.title = tr("Run over time");
    spec.subtitle = tr("in flight, completions/s and the server's running and waiting requests (left, dashed); "
                       "output tokens/s (right, shaded)");
    spec.x.title = tr("Time since first request (s)");
    spec.y.title = tr("Requests");
    spec.y2.title = tr("Output tokens/s");
    spec.hasY2 = true;
    bool estimated = false;
    for (const TimeSeriesInput &in : inputs) {
        QList<RequestRecord> reqs;
        for (const RequestRecord &r : in.requests)
            if (r.measured())
                reqs << r;
        if (reqs.isEmpty())
            continue;
        const qint64 t0 = std::min_element(reqs.begin(), reqs.end(), [](const auto &a, const auto &b) {
            return a.startNs < b.startNs;
        })->startNs;
        const double bucketNs = std::max(0.001, in.bucketSeconds) * 1e9;
        Buckets b;
        for (const RequestRecord &r : reqs) {
            if (!r.ok())
                continue;
            b.add(b.completions, qsizetype((r.endNs - t0) / bucketNs), 1);
            QList<qint64> tokenTimes;
            for (qsizetype i = 0; i < r.eventNs.size() && i < r.eventKinds.size(); ++i)
                if (isTokenEvent(r.eventKinds[i]))
                    tokenTimes << r.eventNs[i];
            // Tokens are spread evenly over the request's token events (a chunk may carry several).
            const double perEvent = tokenTimes.isEmpty() ? 0 : double(r.completionTokens) / tokenTimes.size();
            estimated = estimated || tokenTimes.size() != r.completionTokens;
            for (qint64 t : tokenTimes)
                b.add(b.tokens, qsizetype((r.startNs + t - t0) / bucketNs), perEvent);
        }
        SeriesSpec flight = inFlightSeries(in, t0);
        flight.name = inputs.size() == 1 ? tr("in flight") : flight.name;
        SeriesSpec done;
        done.name = inputs.size() == 1 ? tr("completions/s") : tr("%1 completions/s").arg(in.name);
        done.group = in.name;
        done.colour = in.colour.darker(130);
        done.dashed = true;
        done.width = 1.5;
        SeriesSpec tokens;
        tokens.kind = SeriesKind::Band;
        tokens.name = inputs.size() == 1 ? tr("output tokens/s") : tr("%1 output tokens/s").arg(in.name);
        tokens.group = in.name;
        tokens.colour = in.colour.lighter(120);
        tokens.opacity = 0.18;
        tokens.secondaryY = true;
        const double secs = bucketNs / 1e9;
        for (qsizetype i = 0; i < b.completions.size(); ++i)
            done.points << QPointF((i + 0.5) * secs, b.completions[i] / secs);
        for (qsizetype i = 0; i < b.tokens.size(); ++i) {
            tokens.points << QPointF((i + 0.5) * secs, b.tokens[i] / secs);
            tokens.lower << QPointF((i + 0.5) * secs, 0);
            tokens.tooltips
                << tr("%1–%2 s: %3 output tokens/s").arg(fmt(i * secs), fmt((i + 1) * secs), fmt(b.tokens[i] / secs));
        }
        spec.series << tokens << flight << done;
        const QString prefix = inputs.size() == 1 ? QString() : in.name + u' ';
        SeriesSpec running = serverGauge(in, t0,
            { QStringLiteral("vllm:num_requests_running"), QStringLiteral("sglang:num_running_reqs") },
            prefix + tr("server running"));
        SeriesSpec waiting = serverGauge(in, t0,
            { QStringLiteral("vllm:num_requests_waiting"), QStringLiteral("sglang:num_queue_reqs") },
            prefix + tr("server waiting"));
        running.colour = QColor(0x55, 0x55, 0x55);
        waiting.colour = QColor(0xD5, 0x5E, 0x00);
        for (SeriesSpec *s : { &running, &waiting }) {
            if (!s->points.isEmpty())
                spec.series << *s;
        }
    }
    if (estimated)
        spec.notes << tr("Tokens per event estimated: usage totals spread evenly over each request's token events.");
    finalizeSpec(spec);
    return spec;
}

} // namespace ServeScope::Report

// SPDX-License-Identifier: MIT
#include "durationestimate.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>

namespace ServeScope {

static double requestSeconds(const LoadPoint &p, int concurrency)
{
    const double tpot = 0.018 + 0.0006 * std::max(0, concurrency - 1);
    const double prefill = 0.0001 * p.inputLen * std::max(1.0, concurrency / 4.0);
    return prefill + tpot * std::max(1, p.outputLen);
}

// `thinkS`: a multi_turn session's pause after each answer but its last, spread over its requests.
static double pointSeconds(const LoadPoint &p, LoadMode mode, int prompts, double thinkS = 0)
{
    double s = 0;
    if (mode == LoadMode::Concurrency) {
        const int c = std::max(1, p.concurrency);
        const double waves = std::ceil(double(prompts) / c);
        s = waves * (requestSeconds(p, c) + thinkS);
    } else {
        const int cap = p.maxConcurrency > 0 ? p.maxConcurrency : 64;
        const double arrivals = std::isinf(p.requestRate) || p.requestRate <= 0 ? 0 : prompts / p.requestRate;
        s = arrivals + requestSeconds(p, cap);
        if (p.maxConcurrency > 0)
            s = std::max(s, std::ceil(double(prompts) / cap) * requestSeconds(p, cap));
    }
    if (p.maxSeconds > 0)
        s = p.numPrompts > 0 ? std::min(s, p.maxSeconds) : p.maxSeconds;
    return s;
}

DurationEstimate estimateDuration(const Experiment &experiment, double timeScale)
{
    DurationEstimate out;
    const int variants = std::max<int>(1, int(experiment.variants.size()));
    const int repeats = std::max(1, experiment.load.repeat);
    const auto &points = experiment.load.points;
    // Sessions run whole: num_prompts rounded up to their turns.
    const int turns = experiment.dataset.sessionTurns();
    const double thinkS = experiment.dataset.thinkTimeS * (turns - 1) / turns;
    for (int i = 0; i < points.size(); ++i) {
        const LoadPoint &p = points.at(i);
        const int prompts = p.numPrompts > 0 ? (p.numPrompts + turns - 1) / turns * turns : 0;
        const double measured = pointSeconds(p, experiment.load.mode, prompts, thinkS);
        const double warm = experiment.load.warmupRequests > 0
            ? pointSeconds(p, experiment.load.mode, experiment.load.warmupRequests)
            : 0.0;
        out.seconds += (measured * repeats + warm) * variants;
        out.requests += qint64(prompts) * repeats * variants;
        out.warmupRequests += qint64(experiment.load.warmupRequests) * variants;
        if (experiment.load.mode == LoadMode::Concurrency && p.numPrompts > 0
            && qint64(p.numPrompts) < 5 * qint64(p.concurrency))
            out.underSampledPoints.append(i);
    }
    out.runsOfPoints = int(points.size()) * repeats * variants;
    // The pause around each point (warmup drain, server start) runs on the same scaled clock.
    out.seconds = (out.seconds + out.runsOfPoints * 0.5) / std::max(1e-6, timeScale);
    return out;
}

QString formatDuration(double s)
{
    if (s < 90)
        return QCoreApplication::translate("ServeScope::Run", "%1 s").arg(qRound(s));
    if (s < 5400)
        return QCoreApplication::translate("ServeScope::Run", "%1 min").arg(qRound(s / 60));
    return QCoreApplication::translate("ServeScope::Run", "%1 h %2 min")
        .arg(int(s / 3600))
        .arg(qRound(std::fmod(s, 3600) / 60));
}

} // namespace ServeScope

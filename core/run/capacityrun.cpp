// SPDX-License-Identifier: MIT
#include "capacityrun.h"

#include "io/experimentfile.h"
#include "metrics/capacity.h"
#include "run/pointcloser.h"
#include "run/pointrunner.h"
#include "run/runtext.h"
#include "storage/storewriter.h"

#include <QElapsedTimer>

namespace ServeScope {

CapacityRun::CapacityRun(Experiment &experiment, QString reuseLevels)
    : m_experiment(experiment)
    , m_reuseLevels(std::move(reuseLevels))
{
}

int CapacityRun::pointAt(Experiment &resolved, double level, StoreWriter &writer, qint64 runId)
{
    const LoadMode mode = resolved.load.mode;
    const LoadPoint wanted = resolved.load.capacity->at(mode, level);
    for (int i = 0; i < resolved.load.points.size(); ++i) {
        const LoadPoint &p = resolved.load.points[i];
        if (mode == LoadMode::Concurrency ? p.concurrency == wanted.concurrency : p.requestRate == wanted.requestRate)
            return i;
    }
    // A level is one point for every variant: another variant's search that measures it reuses its index.
    resolved.load.points << wanted;
    m_experiment.load.points << m_experiment.load.capacity->at(mode, level);
    writer.updateRunConfig(runId, serializeExperiment(m_experiment), int(m_experiment.load.points.size()));
    return int(resolved.load.points.size()) - 1;
}

bool CapacityRun::readReused(const QString &projectPath, QString *error)
{
    if (!m_experiment.load.capacity) {
        *error = RunText::tr("the levels of run %1 can be reused only by a capacity search (load.mode \"capacity\")")
                     .arg(m_reuseLevels);
        return false;
    }
    if (!loadStoredRun(
            projectPath, m_reuseLevels, &m_reused, error, ResultSet::Vllm, { QLatin1String(kEveryRequest) })) {
        *error = RunText::tr("the run whose levels to reuse: %1").arg(*error);
        return false;
    }
    const QString ours = definitionsName(m_experiment.metrics.definitions);
    if (m_reused.definitions != ours) {
        *error = RunText::tr("run %1 was measured under the %2 definitions and this search uses %3: its levels "
                             "cannot be reused")
                     .arg(m_reuseLevels, m_reused.definitions, ours);
        return false;
    }
    return true;
}

void CapacityRun::reuseLevels(const QString &variant, const Experiment &resolved, CapacitySearcher &search)
{
    const CapacitySearch &spec = *resolved.load.capacity;
    const LoadMode mode = resolved.load.mode;
    const bool rate = mode == LoadMode::Rate;
    for (const PointRepeats &p : std::as_const(m_reused.points)) {
        const double load = rate ? p.requestRate : p.concurrency;
        const LoadPoint wanted = spec.at(mode, load);
        if (p.variant != variant || p.mode != loadModeName(mode) || p.inputLen != wanted.inputLen
            || p.outputLen != wanted.outputLen || (rate && p.concurrency != wanted.maxConcurrency))
            continue;
        CapacityLevel level;
        level.load = load;
        level.repeats = int(p.repeats.size());
        for (const QMap<QString, double> &r : p.repeats)
            level.attempted += qint64(r.value(QStringLiteral("completed")) + r.value(QStringLiteral("failed")));
        level.failed = std::max<qint64>(0, level.attempted - qint64(p.samples.size()));
        judgeLevel(spec, level, p.samples, false);
        const QString where = QStringLiteral("%1 %2 of run %3").arg(variant, p.label, m_reuseLevels);
        if (level.verdict == SloVerdict::Undecided) {
            // Its requests cannot be pooled with a new repeat: the search measures near it as it needs.
            Q_EMIT logged(QStringLiteral("capacity"),
                where + QStringLiteral(": undecided, not reused: ") + CapacitySearcher::describe(level));
            continue;
        }
        search.reuse(load, p.samples, level.attempted);
        Q_EMIT logged(
            QStringLiteral("capacity"), where + QStringLiteral(": reused: ") + CapacitySearcher::describe(level));
    }
}

bool CapacityRun::search(const VariantContext &context, Experiment &resolved, StoreWriter &writer, PointCloser &points,
    const Measure &measure, const std::atomic<bool> &cancel, CapacityResult *result)
{
    const CapacitySearch spec = *resolved.load.capacity;
    const LoadMode mode = resolved.load.mode;
    CapacitySearcher search(spec, mode);
    reuseLevels(context.variant, resolved, search);
    QElapsedTimer clock;
    clock.start();
    QString stop = QStringLiteral("cancelled");
    while (!cancel.load()) {
        const bool outOfTime = spec.maxTotalSeconds > 0 && double(clock.elapsed()) >= spec.maxTotalSeconds * 1000;
        const CapacitySearcher::Next next = search.next(outOfTime);
        if (next.done) {
            stop = next.stop;
            break;
        }
        const int point = pointAt(resolved, next.load, writer, context.runId);
        points.open(point);
        PointOutcome outcome;
        if (!measure(&outcome))
            return false;
        if (!outcome.measured)
            break; // cancelled
        search.add(next.load, point, outcome.samples, qint64(outcome.summary.completed) + outcome.summary.failed);
        for (const CapacityLevel &level : search.levels()) {
            if (level.point == point)
                Q_EMIT logged(QStringLiteral("capacity"),
                    QStringLiteral("%1 %2 repeat %3: %4")
                        .arg(context.variant, resolved.pointLabel(point))
                        .arg(points.repeats())
                        .arg(CapacitySearcher::describe(level)));
        }
    }
    points.close();
    *result = search.result(context.variant, stop);
    writer.enqueue(storedCapacity(context.runId, *result));
    Q_EMIT logged(QStringLiteral("capacity"), context.variant + QStringLiteral(": ") + capacitySentence(*result, mode));
    return true;
}

} // namespace ServeScope

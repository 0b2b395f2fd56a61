// SPDX-License-Identifier: MIT
// RunWorker's capacity search: each variant's levels as CapacitySearcher asks for them.
#include "runworker.h"

#include "io/experimentfile.h"
#include "metrics/capacity.h"
#include "run/pointrunner.h"
#include "storage/storewriter.h"

#include <QElapsedTimer>

namespace ServeScope {

int RunWorker::pointAt(Experiment &resolved, double level)
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
    m_writer->updateRunConfig(m_result.runId, serializeExperiment(m_experiment), int(m_experiment.load.points.size()));
    return int(resolved.load.points.size()) - 1;
}

bool RunWorker::searchCapacity(const VariantContext &context, Experiment &resolved)
{
    const CapacitySearch spec = *resolved.load.capacity;
    const LoadMode mode = resolved.load.mode;
    CapacitySearcher search(spec, mode);
    QElapsedTimer clock;
    clock.start();
    OpenPoint open;
    QString stop = QStringLiteral("cancelled");
    while (!m_cancel->load()) {
        const bool outOfTime = spec.maxTotalSeconds > 0 && double(clock.elapsed()) >= spec.maxTotalSeconds * 1000;
        const CapacitySearcher::Next next = search.next(outOfTime);
        if (next.done) {
            stop = next.stop;
            break;
        }
        const int point = pointAt(resolved, next.load);
        if (point != open.point) {
            close(open);
            open.point = point;
        }
        PointOutcome outcome;
        if (!measure(context, open, &outcome))
            return false;
        if (!outcome.measured)
            break; // cancelled
        search.add(next.load, point, outcome.samples, qint64(outcome.summary.completed) + outcome.summary.failed);
        for (const CapacityLevel &level : search.levels()) {
            if (level.point == point)
                log(QStringLiteral("capacity"),
                    QStringLiteral("%1 %2 repeat %3: %4")
                        .arg(context.variant, resolved.pointLabel(point))
                        .arg(open.repeat)
                        .arg(CapacitySearcher::describe(level)));
        }
    }
    close(open);
    CapacityResult result = search.result(context.variant, stop);
    m_writer->enqueue(storedCapacity(m_result.runId, result));
    log(QStringLiteral("capacity"), context.variant + QStringLiteral(": ") + capacitySentence(result, mode));
    m_result.capacities << result;
    return true;
}

} // namespace ServeScope

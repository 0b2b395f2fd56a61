// SPDX-License-Identifier: MIT
#include "livebaseline.h"

#include "compare/rerunnoise.h"
#include "metrics/definitions.h"

namespace ServeScope {

bool LiveBaseline::load(const QString &projectPath, const QString &run, const Experiment &experiment, QString *error)
{
    m_spec = run;
    m_convention = conventionOf(definitionsName(experiment.metrics.definitions), {});
    m_active = loadStoredRun(projectPath, run, &m_run, error);
    // The project's reruns of the earlier run's configuration refine the noise floors (the run
    // under way is not finished, so it is not among them).
    if (m_active)
        m_floors = projectRerunNoise(projectPath, run).floors;
    return m_active;
}

BaselineFigures LiveBaseline::figures(const PointKey &key) const
{
    BaselineFigures f;
    const PointRepeats *p = m_active ? matchingPoint(m_run, key) : nullptr;
    if (!p)
        return f;
    const auto median = [p](const char *k) {
        const MetricEstimate e = estimateMetric(*p, QLatin1String(k));
        return e.repeats.n > 0 ? e.repeats.median : BaselineFigures::kNone;
    };
    f.ttftP50Ms = median("median_ttft_ms");
    f.ttftP99Ms = median("p99_ttft_ms");
    f.itlP50Ms = median("median_itl_ms");
    f.itlP99Ms = median("p99_itl_ms");
    f.outputTokensPerS = median("output_throughput");
    return f;
}

PointVerdict LiveBaseline::verdict(const PointRepeats &measured, const QList<PointEstimate> &estimates) const
{
    // The estimates stand for the requests: the pooled samples are not copied.
    PointRepeats now;
    now.setKey(measured.key());
    now.repeats = measured.repeats;
    now.failures = measured.failures;
    for (const PointEstimate &e : estimates) {
        const MetricEstimate m = metricEstimate(e);
        now.stored.insert(m.key, m);
    }
    return pointVerdict(m_run, now, m_convention, m_floors);
}

QString LiveBaseline::line(const PointVerdict &v) const
{
    return QStringLiteral("%1 %2: %3 against run %4%5")
        .arg(v.variant, v.label, v.outcome, m_spec,
            v.rows.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(v.changes().join(QStringLiteral(", "))));
}

} // namespace ServeScope

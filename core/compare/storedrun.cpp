// SPDX-License-Identifier: MIT
#include "storedrun.h"

#include "io/experimentfile.h"
#include "model/variables.h"
#include "storage/projectstore.h"

namespace ServeScope {

StoredRun::StoredRun(RunRow row)
    : m_row(std::move(row))
{
    if (m_row.resolvedConfig.isEmpty())
        return;
    ExperimentReadResult read = deserializeExperiment(m_row.resolvedConfig);
    if (!read.ok)
        return;
    m_experiment = std::move(read.experiment);
    for (int v = 0; v < m_experiment->variants.size(); ++v)
        m_variants.append(resolveVariant(*m_experiment, v));
}

std::optional<StoredRun> StoredRun::read(ProjectStore &store, qint64 runId)
{
    std::optional<RunRow> row = store.run(runId);
    if (!row)
        return std::nullopt;
    return StoredRun(std::move(*row));
}

const Experiment *StoredRun::variant(const QString &name) const
{
    return m_experiment ? variant(m_experiment->variantIndex(name)) : nullptr;
}

const Experiment *StoredRun::variant(int index) const
{
    return index >= 0 && index < m_variants.size() ? &m_variants.at(index) : nullptr;
}

const Experiment *StoredRun::variantOrRun(const QString &name) const
{
    const Experiment *x = variant(name);
    return x ? x : experiment();
}

int StoredRun::pointOfLabel(const QString &label) const
{
    for (int i = 0; m_experiment && i < m_experiment->load.points.size(); ++i) {
        if (m_experiment->pointLabel(i) == label)
            return i;
    }
    return -1;
}

} // namespace ServeScope

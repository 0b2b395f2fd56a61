// SPDX-License-Identifier: MIT
#pragma once

#include "compare/runsource.h"
#include "run/runtypes.h"

namespace ServeScope {

/// RunOptions::vs: an earlier run of the project, read once before the run starts. It gives the live
/// charts that run's figures at the point under way and, once a point's repeats are done, the
/// point's verdict against it (pointVerdict()).
class LiveBaseline {
public:
    /// `run` is an id or a unique name; `experiment` is what is about to run (how its figures are
    /// defined). False with *error when the project has no such run.
    bool load(const QString &projectPath, const QString &run, const Experiment &experiment, QString *error);
    bool active() const { return m_active; }
    /// The earlier run's medians across repeats at the point `key` matches; NaN where it has none.
    BaselineFigures figures(const PointKey &key) const;
    /// A point just measured (its repeats, with the estimates just computed for them) against the
    /// earlier run.
    PointVerdict verdict(const PointRepeats &measured, const QList<PointEstimate> &estimates) const;
    /// The verdict as the run's log states it: "VARIANT LABEL: OUTCOME against run RUN (CHANGES)".
    QString line(const PointVerdict &verdict) const;

private:
    RunSource m_run;
    NoiseFloors m_floors = defaultNoiseFloors(); ///< refined from the project's reruns (rerunnoise.h)
    QString m_spec, m_convention;
    bool m_active = false;
};

} // namespace ServeScope

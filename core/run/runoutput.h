// SPDX-License-Identifier: MIT
#pragma once

#include "metrics/aggregate.h"
#include "metrics/delta.h"
#include "model/experiment.h"
#include "model/records.h"

#include <QFile>
#include <QJsonObject>
#include <QString>

#include <span>

namespace ServeScope {

/// The self-describing results folder of `run --out-dir` (docs/design.md): manifest.json,
/// <variant>/<point>-r<k>.json in vLLM's result format, and summary.csv, written as points finish.
class RunOutput {
public:
    bool open(const QString &dir, QString *error);
    bool isOpen() const { return !m_dir.isEmpty(); }

    /// One point/repeat: its vLLM-format file (with the steady result set as servescope_steady_* keys)
    /// and its summary.csv row.
    bool writePoint(const Experiment &resolved, const PointSummary &summary, std::span<const RequestRecord> records,
        qint64 measuredStartNs, const SteadyResult &steady, QString *error);
    /// After a point's last repeat: its statistics across repeats as `<variant>/<point>-repeats.json`
    /// (`servescope_<key>_median`, `_min`, `_max`, `_cv`, `_ci_low`, `_ci_high`, ...) and rows of repeats.csv.
    bool writeRepeats(const PointRepeats &repeats, const QList<MetricEstimate> &estimates, QString *error);
    /// manifest.json; rewritten at the end so it carries the final status.
    bool writeManifest(const QJsonObject &manifest, QString *error);

private:
    QString m_dir;
    QFile m_summary;
    QFile m_repeats;
};

} // namespace ServeScope

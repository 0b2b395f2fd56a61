// SPDX-License-Identifier: MIT
#pragma once

#include "metrics/aggregate.h"
#include "metrics/estimates.h"
#include "model/experiment.h"
#include "model/records.h"

#include <QFile>
#include <QJsonObject>
#include <QMap>
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
    /// and its summary.csv rows (vLLM's set, then the steady set). `vllm` is the same records
    /// summarised with the vllm definitions (the summary itself under that profile); under another
    /// profile its figures are written beside vLLM's as servescope_<profile>_<key> and as its own
    /// summary.csv row. `generatedTexts` gives the requests' texts by index when the records no longer
    /// hold them (ResultFileSetup::generatedTexts).
    bool writePoint(const Experiment &resolved, const PointSummary &summary, const PointSummary &vllm,
        std::span<const RequestRecord> records, qint64 measuredStartNs,
        const std::function<QByteArray(int index)> &generatedTexts, QString *error);
    /// After a point's last repeat: its statistics across repeats as `<variant>/<point>-repeats.json`
    /// (`servescope_<key>_median`, `_min`, `_max`, `_cv`, `_ci_low`, `_ci_high`, ...), rows of repeats.csv,
    /// and the point's statistic rows of summary.csv.
    bool writeRepeats(const PointSummary &identity, const PointRepeats &repeats, const QList<PointEstimate> &estimates,
        QString *error);
    /// manifest.json; rewritten at the end so it carries the final status.
    bool writeManifest(const QJsonObject &manifest, QString *error);
    /// The first write that failed since open(); a run with one is not a success.
    QString firstError() const { return m_firstError; }
    /// Notes a file that could not be written for a reason found outside (firstError()); returns false.
    bool fail(const QString &error);

private:
    QString m_firstError;
    QString m_dir;
    QFile m_summary;
    QFile m_repeats;
    QMap<QString, double> m_hourPrice; ///< per variant, for its cost column (metrics/servingcost.h)
};

} // namespace ServeScope

// SPDX-License-Identifier: MIT
#pragma once

#include "livecharts.h"

#include "run/runcontroller.h"
#include "storage/storetypes.h"

#include <QElapsedTimer>
#include <QTimer>
#include <QVector>
#include <QWidget>

class QChartView;
class QCheckBox;
class QComboBox;
class QHBoxLayout;
class QLabel;
class QProgressBar;
class QPushButton;
class QTableWidget;

namespace ServeScope {

/// Live view of a run. It only ever receives RunSnapshot values (throttled by the controller);
/// snapshots land in a ring buffer and the small charts are refreshed from it at ~4 Hz with
/// replace(), so the cost on the GUI thread does not depend on the request rate.
class RunMonitor final : public QWidget {
    Q_OBJECT
public:
    explicit RunMonitor(QWidget *parent = nullptr);

    void setRunnable(bool runnable, const QString &why = {});
    /// The designed experiment, read-only: name, endpoint, variants, load points and core's estimate
    /// of the measured requests and the time they take (at `timeScale` against the local simulator).
    void setPlan(const Experiment &experiment, double timeScale);
    /// A run started: clears the charts and switches Start to Cancel.
    /// `estimateSeconds` (the editor's duration estimate, <= 0 when none) is the ETA until measured
    /// progress can say better.
    void runStarted(double estimateSeconds = 0);
    void runEnded(const RunResult &result);
    /// Another project: the last run's outcome line and verdicts no longer apply.
    void forgetLastRun();
    /// The project's stored runs, offered as the live baseline (the choice is kept while its run is listed).
    void setEarlierRuns(const QVector<RunListing> &runs);
    /// The run chosen to compare with as points finish (RunOptions::vs); 0 when none.
    qint64 baselineRun() const;
    /// A capacity search takes the baseline run's measured levels as known (RunOptions::reuseLevels).
    bool reuseBaselineLevels() const;
    const RunSnapshot &lastSnapshot() const { return m_last; }
    int chartRefreshes() const { return m_refreshes; }

    static QString formatEta(double seconds);
    /// The run's phase code (LiveMonitor::setPhase) in words; an unknown code as it is.
    static QString phaseText(const QString &phase);

public slots:
    void showSnapshot(const ServeScope::RunSnapshot &snapshot);
    /// A finished point against the live baseline: a row of the verdict table.
    void showVerdict(const ServeScope::PointVerdict &verdict);

signals:
    void startRequested();
    void cancelRequested();

private:
    /// Run and Cancel, the overall progress and ETA, and the live baseline's chooser.
    QHBoxLayout *buildTopRow();
    /// The column beside the charts: where the run is, its errors and verdicts, and the plan.
    QWidget *buildInfoColumn();
    /// A small chart of `lines`, titled "title (unit)".
    QChartView *makeChart(const QString &title, const QString &unit, std::initializer_list<LiveCharts::Line> lines);
    /// The chooser's tooltip, and what may change: the run compared with, and whether a capacity search
    /// reuses its levels, both fixed while a run goes.
    void updateBaselineChoice();
    void refreshCharts();

    QPushButton *m_start, *m_cancel;
    QProgressBar *m_overall;
    QLabel *m_eta, *m_where, *m_counts, *m_state, *m_firstError, *m_plan;
    double m_estimateSeconds = 0;
    QString m_outcome; ///< how the last run ended, shown until the next one starts
    QTableWidget *m_errors;
    QComboBox *m_baselineRun;
    QCheckBox *m_reuseLevels;
    bool m_capacitySearch = false; ///< the plan is a capacity search
    QLabel *m_verdictTitle;
    QTableWidget *m_verdicts;
    LiveCharts m_live;
    bool m_running = false;
    int m_refreshes = 0;
    RunSnapshot m_last;
    QTimer m_refresh;
};

} // namespace ServeScope

// SPDX-License-Identifier: MIT
#pragma once

#include "run/runcontroller.h"

#include <QElapsedTimer>
#include <QTimer>
#include <QVector>
#include <QWidget>

class QChart;
class QChartView;
class QLabel;
class QLineSeries;
class QProgressBar;
class QPushButton;
class QTableWidget;
class QValueAxis;

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
    const RunSnapshot &lastSnapshot() const { return m_last; }
    int chartRefreshes() const { return m_refreshes; }

    static QString formatEta(double seconds);
    /// The run's phase code (LiveMonitor::setPhase) in words; an unknown code as it is.
    static QString phaseText(const QString &phase);

public slots:
    void showSnapshot(const ServeScope::RunSnapshot &snapshot);

signals:
    void startRequested();
    void cancelRequested();

private:
    struct Sample {
        double t;
        double ttftP50, ttftP99, itlP50, itlP99, tokensPerS, inFlight;
    };
    QChartView *makeChart(const QString &title, const QString &unit, QList<QLineSeries *> series);
    void refreshCharts();

    QPushButton *m_start, *m_cancel;
    QProgressBar *m_overall;
    QLabel *m_eta, *m_where, *m_counts, *m_state, *m_firstError, *m_plan;
    double m_estimateSeconds = 0;
    QTableWidget *m_errors;
    QLineSeries *m_ttft50, *m_ttft99, *m_itl50, *m_itl99, *m_tput;
    QList<QChart *> m_charts;
    QVector<Sample> m_ring;
    int m_ringHead = 0;
    bool m_dirty = false;
    bool m_running = false;
    int m_refreshes = 0;
    RunSnapshot m_last;
    QTimer m_refresh;
};

} // namespace ServeScope

// SPDX-License-Identifier: MIT
#pragma once

#include "storage/storetypes.h"

#include <QList>
#include <QObject>
#include <QStringList>

class QWidget;

namespace ServeScope {

class ProjectSession;
class ResultsExport;
class ResultsView;
class RunSession;

/// The Results page's controller: loads the stored runs to show or compare on the project's thread,
/// hands them to the page (unless a run is being followed), reads a run's chart over time and its
/// launched server's log when asked, and owns what leaves the page (ResultsExport).
class ResultsPageController final : public QObject {
    Q_OBJECT
public:
    ResultsPageController(QWidget *window, ResultsView *results, ProjectSession *session, const RunSession *run);

    ResultsExport *exports() const { return m_export; }
    /// Loads these stored runs (one, or several compared: A is the oldest) for the page, and turns to
    /// it when no run is going on.
    void showRuns(const QList<qint64> &ids);
    /// A project just opened: its newest finished run, loaded for the Results page without turning
    /// to it. Returns that run's id, 0 when there is none.
    qint64 showNewest(const QVector<RunListing> &runs);

signals:
    /// The page shows runs loaded from the project.
    void shown();
    /// Runs the user asked for are shown: the shell may turn to the Results page.
    void pageWanted();
    /// The launched server's output of the one run shown (empty: the run launched none).
    void serverLogLoaded(const QStringList &lines);
    void logged(const QString &level, const QString &text);
    void status(const QString &text, int timeoutMs);

private:
    ResultsView *m_results;
    ProjectSession *m_session;
    const RunSession *m_run;
    ResultsExport *m_export;
    bool m_turnToPage = true; ///< the runs being loaded were asked for, not shown on opening
};

} // namespace ServeScope

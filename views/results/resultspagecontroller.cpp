// SPDX-License-Identifier: MIT
#include "resultspagecontroller.h"

#include "projectsession.h"
#include "report/reportdocument.h"
#include "resultsexport.h"
#include "resultsview.h"
#include "runsession.h"

#include <QAction>

#include <utility>

namespace ServeScope {

ResultsPageController::ResultsPageController(
    QWidget *window, ResultsView *results, ProjectSession *session, const RunSession *run)
    : QObject(window)
    , m_results(results)
    , m_session(session)
    , m_run(run)
    , m_export(new ResultsExport(results, session, window))
{
    connect(m_export, &ResultsExport::status, this, &ResultsPageController::status);
    connect(m_export, &ResultsExport::logged, this, &ResultsPageController::logged);
    connect(m_results, &ResultsView::resultsChanged, this, [this] {
        for (QAction *a : m_export->actions())
            a->setEnabled(m_results->hasResults());
    });
    connect(m_session, &ProjectSession::serverLogsLoaded, this,
        [this](qint64, const QStringList &lines) { emit serverLogLoaded(lines); });
    // Every request with its events: read only when the chart over time is asked for.
    connect(m_results, &ResultsView::timeSeriesWanted, m_session, &ProjectSession::loadTimeSeries);
    connect(m_session, &ProjectSession::timeSeriesLoaded, m_results, &ResultsView::setTimeSeries);
    connect(m_session, &ProjectSession::runLoadFailed, this, [this](qint64 runId, const QString &error) {
        emit logged(QStringLiteral("error"), tr("Run %1 cannot be read: %2").arg(runId).arg(error));
        emit status(tr("Run %1 cannot be read; see the log.").arg(runId), 8000);
    });
    connect(m_session, &ProjectSession::steadyDeltasLoaded, m_results, &ResultsView::setSteadyDeltas);
    connect(m_session, &ProjectSession::runsLoaded, this, [this](const Report::ReportInput &input) {
        if (m_run->isRunning())
            return; // the Results page follows the run until it ends
        m_results->setInput(input);
        if (input.runs.size() == 1)
            m_session->loadServerLogs(input.runs.first().id);
        if (std::exchange(m_turnToPage, true))
            emit pageWanted();
        emit status(input.runs.size() > 1 ? tr("Comparing %1").arg(input.title) : input.title, 6000);
        emit shown();
    });
}

void ResultsPageController::showRuns(const QList<qint64> &ids)
{
    if (ids.isEmpty())
        return;
    emit status(ids.size() > 1 ? tr("Comparing %n runs…", nullptr, int(ids.size())) : tr("Loading the run…"), 0);
    m_turnToPage = true;
    m_session->loadRuns(ids);
}

qint64 ResultsPageController::showNewest(const QVector<RunListing> &runs)
{
    const RunListing *newest = nullptr;
    for (const RunListing &r : runs) {
        if (r.run.status == RunStatus::Finished && (!newest || r.run.id > newest->run.id))
            newest = &r;
    }
    if (!newest || m_run->isRunning())
        return 0;
    m_turnToPage = false;
    m_session->loadRuns({ newest->run.id });
    return newest->run.id;
}

} // namespace ServeScope

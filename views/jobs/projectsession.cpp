// SPDX-License-Identifier: MIT
#include "projectsession.h"

#include "backgroundjob.h"

#include "projectworker.h"

#include "storage/projectstore.h"

#include <QDir>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <utility>

namespace ServeScope {

ProjectSession::ProjectSession(QObject *parent)
    : QObject(parent)
    , m_worker(new ProjectWorker)
{
    qRegisterMetaType<QVector<ServeScope::RunListing>>();
    qRegisterMetaType<QVector<ServeScope::PointSummary>>();
    qRegisterMetaType<ServeScope::Report::ReportInput>();
    qRegisterMetaType<ServeScope::Report::TimeSeriesInput>();
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    m_thread.setObjectName(QStringLiteral("project-queries"));
    m_thread.start();
    // Runs another process writes into the project (or this window's run) appear as they are stored.
    m_watch.setInterval(2000);
    connect(&m_watch, &QTimer::timeout, this,
        [this] { QMetaObject::invokeMethod(m_worker, [w = m_worker] { w->listRunsIfChanged(); }); });
    m_watch.start();
    connect(m_worker, &ProjectWorker::opened, this,
        [this](const QString &path, const QString &error, const QByteArray &json) {
            const bool temporary = m_opening == Opening::Temporary;
            m_opening = Opening::None;
            // A refused file changes nothing: the open project keeps its path, its file and its temporary folder.
            if (error.isEmpty()) {
                // The project left behind was a temporary one (or its copy was saved elsewhere): its folder goes.
                if (!m_tempDir.isEmpty())
                    QDir(m_tempDir).removeRecursively();
                m_tempDir = temporary ? m_pendingTempDir : QString();
                m_path = path;
                m_temporary = temporary;
            } else if (temporary && !m_pendingTempDir.isEmpty()) {
                QDir(m_pendingTempDir).removeRecursively();
            }
            m_pendingTempDir.clear();
            // Trying the other file stopped the open project's check before it answered: it starts again.
            if (std::exchange(m_resumeCheck, false) && !error.isEmpty())
                checkIntegrity();
            emit opened(path, temporary, error, json);
        });
    connect(m_worker, &ProjectWorker::experimentSaved, this, &ProjectSession::experimentSaved);
    connect(m_worker, &ProjectWorker::vacuumed, this, [this](const QString &target, const QString &error) {
        if (error.isEmpty()) {
            m_path = target;
            m_temporary = false;
        }
        emit savedAs(target, error);
    });
    connect(m_worker, &ProjectWorker::runsListed, this, &ProjectSession::runsListed);
    connect(m_worker, &ProjectWorker::serverLogsLoaded, this, &ProjectSession::serverLogsLoaded);
    connect(m_worker, &ProjectWorker::timeSeriesLoaded, this, &ProjectSession::timeSeriesLoaded);
    connect(m_worker, &ProjectWorker::promptsExported, this, &ProjectSession::promptsExported);
    connect(m_worker, &ProjectWorker::runsLoaded, this, &ProjectSession::runsLoaded);
    connect(m_worker, &ProjectWorker::steadyDeltasLoaded, this, &ProjectSession::steadyDeltasLoaded);
    connect(m_worker, &ProjectWorker::runLoadFailed, this, &ProjectSession::runLoadFailed);
    connect(m_worker, &ProjectWorker::runConfigLoaded, this, &ProjectSession::runConfigLoaded);
    connect(m_worker, &ProjectWorker::rerunChecked, this, &ProjectSession::rerunChecked);
    connect(m_worker, &ProjectWorker::requestsCounted, this, &ProjectSession::requestsCounted);
}

ProjectSession::~ProjectSession()
{
    stopIntegrityCheck();
    m_thread.quit();
    m_thread.wait();
    if (!m_tempDir.isEmpty())
        QDir(m_tempDir).removeRecursively();
}

void ProjectSession::newTemporary()
{
    m_resumeCheck = stopIntegrityCheck();
    QTemporaryDir dir(QDir::tempPath() + QStringLiteral("/servescope-XXXXXX"));
    dir.setAutoRemove(false);
    m_pendingTempDir = dir.path();
    m_opening = Opening::Temporary;
    const QString path = m_pendingTempDir + QStringLiteral("/untitled.servescope");
    QMetaObject::invokeMethod(m_worker, [w = m_worker, path] { w->create(path); });
}

void ProjectSession::open(const QString &path)
{
    m_resumeCheck = stopIntegrityCheck();
    m_opening = Opening::File;
    QMetaObject::invokeMethod(m_worker, [w = m_worker, path] { w->open(path); });
}

void ProjectSession::saveExperiment(const QString &name, const QByteArray &json)
{
    QMetaObject::invokeMethod(m_worker, [w = m_worker, name, json] { w->saveExperiment(name, json); });
}

void ProjectSession::saveAs(const QString &target)
{
    QMetaObject::invokeMethod(m_worker, [w = m_worker, target] { w->vacuumInto(target); });
}

void ProjectSession::listRuns()
{
    QMetaObject::invokeMethod(m_worker, [w = m_worker] { w->listRuns(); });
}

void ProjectSession::loadRuns(const QList<qint64> &runIds)
{
    QMetaObject::invokeMethod(m_worker, [w = m_worker, runIds] { w->loadRuns(runIds); });
}

void ProjectSession::checkRerun(qint64 earlierId, qint64 nowId)
{
    QMetaObject::invokeMethod(m_worker, [w = m_worker, earlierId, nowId] { w->checkRerun(earlierId, nowId); });
}

void ProjectSession::loadRunConfig(qint64 runId)
{
    QMetaObject::invokeMethod(m_worker, [w = m_worker, runId] { w->loadRunConfig(runId); });
}

void ProjectSession::countRequests(qint64 runId)
{
    QMetaObject::invokeMethod(m_worker, [w = m_worker, runId] { w->countRequests(runId); });
}

void ProjectSession::loadTimeSeries(qint64 runId, const QString &name)
{
    QMetaObject::invokeMethod(m_worker, [w = m_worker, runId, name] { w->loadTimeSeries(runId, name); });
}

void ProjectSession::exportPrompts(qint64 runId, const QString &variant, int point, int repeat, const QString &dir)
{
    QMetaObject::invokeMethod(m_worker, [=, w = m_worker] { w->exportPrompts(runId, variant, point, repeat, dir); });
}

void ProjectSession::loadServerLogs(qint64 runId)
{
    QMetaObject::invokeMethod(m_worker, [w = m_worker, runId] { w->loadServerLogs(runId); });
}

void ProjectSession::checkIntegrity()
{
    stopIntegrityCheck();
    if (m_path.isEmpty())
        return;
    // Its own connection on its own thread: a cold gigabyte file takes tens of seconds to read, and
    // the runs' queries must not wait behind it.
    auto stop = std::make_shared<CheckStop>();
    m_checkStop = stop;
    auto error = std::make_shared<QString>(); // stays empty when the file passes
    auto answered = std::make_shared<bool>(false); // decided where the check ends, as it ends
    const auto check = [path = m_path, stop, error, answered] {
        ProjectStore::verify(path, ProjectStore::Check::Full, error.get(), stop.get());
        *answered = !stop->isStopped();
    };
    m_check = runInBackground(
        this, QStringLiteral("project-check"), check,
        [this, path = m_path, error, answered] {
            if (*answered)
                emit integrityChecked(path, *error);
        },
        QThread::LowPriority);
}

bool ProjectSession::stopIntegrityCheck()
{
    if (!m_check)
        return false;
    const bool unanswered = !m_check->isFinished();
    m_checkStop->stop();
    m_check->wait();
    m_check = nullptr;
    return unanswered;
}

} // namespace ServeScope

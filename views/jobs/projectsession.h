// SPDX-License-Identifier: MIT
#pragma once

#include "compare/runsource.h"
#include "model/records.h"
#include "report/reportdocument.h"
#include "storage/storetypes.h"

#include <QObject>
#include <QPointer>
#include <QThread>
#include <QTimer>
#include <QVector>

#include <memory>

namespace ServeScope {

class CheckStop;
class ProjectWorker;

/// The open project file and the one thread that touches it for the GUI: every query, the
/// experiment save and the Save As copy (`VACUUM INTO`) run on that thread; results come back as
/// queued signals. Only the full integrity check runs beside it, on a thread and connection of its
/// own. A new project lives in a temporary file until Save As moves it.
class ProjectSession final : public QObject {
    Q_OBJECT
public:
    explicit ProjectSession(QObject *parent = nullptr);
    ~ProjectSession() override;

    QString path() const { return m_path; }
    bool isTemporary() const { return m_temporary; }

    /// Creates a temporary project (synchronous answer via opened()).
    void newTemporary();
    void open(const QString &path);
    /// Stores the experiment JSON as the project's experiment (replacing the previous one).
    void saveExperiment(const QString &name, const QByteArray &json);
    /// Copies the project to `target` with VACUUM INTO and switches to it.
    void saveAs(const QString &target);
    void listRuns();
    void loadRuns(const QList<qint64> &runIds);
    void countRequests(qint64 runId);
    void loadRunConfig(qint64 runId);
    void checkRerun(qint64 earlierId, qint64 nowId);
    /// Checks every page of the open file on a thread of its own, so queries go on meanwhile;
    /// answers with integrityChecked(). Opening another file, or closing, stops it unanswered (a file that
    /// cannot be opened starts it again).
    void checkIntegrity();
    void loadServerLogs(qint64 runId);
    void loadTimeSeries(qint64 runId, const QString &name);
    void exportPrompts(qint64 runId, const QString &variant, int point, int repeat, const QString &dir);

signals:
    void opened(const QString &path, bool temporary, const QString &error, const QByteArray &experimentJson);
    void experimentSaved(const QString &error);
    void savedAs(const QString &path, const QString &error);
    void runsListed(const QVector<ServeScope::RunListing> &runs);
    void runsLoaded(const ServeScope::Report::ReportInput &input);
    /// The steady set's deltas of the runs runsLoaded() gave, once computed from their requests.
    void steadyDeltasLoaded(const QList<qint64> &runIds, const QList<ServeScope::DeltaSection> &sections);
    void runLoadFailed(qint64 runId, const QString &error);
    void runConfigLoaded(qint64 runId, const ServeScope::Experiment &experiment, bool readable);
    void rerunChecked(qint64 earlierId, const ServeScope::RerunCheck &check, const QString &error);
    void requestsCounted(qint64 runId, qint64 total, qint64 ok, qint64 cancelled);
    /// `error` is empty when the file passed.
    void integrityChecked(const QString &path, const QString &error);
    void serverLogsLoaded(qint64 runId, const QStringList &lines);
    void timeSeriesLoaded(qint64 runId, const ServeScope::Report::TimeSeriesInput &input);
    void promptsExported(
        const QStringList &files, const QStringList &commands, const QStringList &warnings, const QString &error);

private:
    /// Whether it stopped a check that had not answered.
    bool stopIntegrityCheck();

    QThread m_thread;
    QPointer<QThread> m_check; ///< the running integrity check
    std::shared_ptr<CheckStop> m_checkStop;
    bool m_resumeCheck = false; ///< open() stopped an unanswered check: a refused file starts it again
    ProjectWorker *m_worker;
    QTimer m_watch;
    QString m_path;
    QString m_tempDir;
    QString m_pendingTempDir; ///< the folder of a temporary project being created
    enum class Opening { None, File, Temporary } m_opening = Opening::None;
    bool m_temporary = false;
};

} // namespace ServeScope

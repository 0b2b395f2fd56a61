// SPDX-License-Identifier: MIT
#pragma once

#include "compare/runsource.h"
#include "model/records.h"
#include "report/reportdocument.h"
#include "storage/storetypes.h"

#include <QObject>
#include <QVector>

#include <memory>

namespace ServeScope {

class ProjectStore;

/// Lives on ProjectSession's thread: owns the read-only ProjectStore connection and performs the
/// few writes the GUI itself makes (experiment rows, Save As). Never used from the GUI thread.
class ProjectWorker final : public QObject {
    Q_OBJECT
public:
    ProjectWorker();
    ~ProjectWorker() override;

public slots:
    void create(const QString &path);
    void open(const QString &path);
    void saveExperiment(const QString &name, const QByteArray &json);
    void vacuumInto(const QString &target);
    void listRuns();
    /// Lists the runs again only when the project file or its -wal changed since the last look
    /// (another process, or this window's run, wrote), and emits them only when a run appeared,
    /// changed status or gained requests.
    void listRunsIfChanged();
    /// Runs as a report shows them (run rows, point summaries) and, for several runs or variants,
    /// their comparisons computed from the stored requests.
    void loadRuns(const QList<qint64> &runIds);
    void countRequests(qint64 runId);
    void loadRunConfig(qint64 runId);
    /// A rerun (`nowId`) checked against the run it repeats (core's checkRerun).
    void checkRerun(qint64 earlierId, qint64 nowId);
    /// A run's launched-server output as display lines: "+SECONDS  STREAM  TEXT", oldest first.
    void loadServerLogs(qint64 runId);
    /// The run's measured requests (with events) and server scrapes, for its chart over time.
    void loadTimeSeries(qint64 runId, const QString &name);
    /// A point's exact prompts as vLLM's custom JSONL and a ShareGPT file in `dir`, with the
    /// commands that replay them (docs/import.md); answers with promptsExported().
    void exportPrompts(qint64 runId, const QString &variant, int point, int repeat, const QString &dir);

signals:
    void opened(const QString &path, const QString &error, const QByteArray &experimentJson);
    void experimentSaved(const QString &error);
    void vacuumed(const QString &target, const QString &error);
    void runsListed(const QVector<ServeScope::RunListing> &runs);
    /// The runs with their vLLM-set deltas (read from the stored estimates); the steady set's deltas,
    /// computed from the requests, follow in steadyDeltasLoaded().
    void runsLoaded(const ServeScope::Report::ReportInput &input);
    void steadyDeltasLoaded(const QList<qint64> &runIds, const QList<ServeScope::DeltaSection> &sections);
    void runLoadFailed(qint64 runId, const QString &error);
    void runConfigLoaded(qint64 runId, const ServeScope::Experiment &experiment, bool readable);
    /// `error` is empty when both runs were read.
    void rerunChecked(qint64 earlierId, const ServeScope::RerunCheck &check, const QString &error);
    void requestsCounted(qint64 runId, qint64 total, qint64 ok, qint64 cancelled);
    void serverLogsLoaded(qint64 runId, const QStringList &lines);
    void timeSeriesLoaded(qint64 runId, const ServeScope::Report::TimeSeriesInput &input);
    /// `error` is empty when both files were written.
    void promptsExported(
        const QStringList &files, const QStringList &commands, const QStringList &warnings, const QString &error);

private:
    bool reopen(QString *error);
    /// Size and modification time of the project file and its -wal.
    QString fileStamp() const;
    void emitRuns(const QVector<RunListing> &runs, bool always);

    std::unique_ptr<ProjectStore> m_store;
    QString m_path;
    qint64 m_experimentId = 0;
    QString m_lastStamp;
    QString m_lastListing; ///< (id, status, requests) of every run last emitted
};

} // namespace ServeScope

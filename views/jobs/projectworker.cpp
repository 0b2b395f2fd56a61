// SPDX-License-Identifier: MIT
#include "projectworker.h"

#include "compare/rerunnoise.h"
#include "compare/runsource.h"
#include "compare/storedrun.h"
#include "postrun/promptexport.h"
#include "report/storeinput.h"
#include "storage/projectstore.h"
#include "storage/writersession.h"

#include <QFile>
#include <QFileInfo>
#include <QSet>

#include <algorithm>

namespace ServeScope {

ProjectWorker::ProjectWorker() = default;
ProjectWorker::~ProjectWorker() = default;

bool ProjectWorker::reopen(QString *error)
{
    m_store = std::make_unique<ProjectStore>();
    if (!m_store->open(m_path, ProjectStore::Check::Header)) {
        *error = m_store->errorString();
        m_store.reset();
        return false;
    }
    return true;
}

void ProjectWorker::loadServerLogs(qint64 runId)
{
    QVector<ServerLogLine> logs;
    QStringList lines;
    if (m_store && m_store->serverLogs(runId, &logs)) {
        const qint64 first = logs.isEmpty() ? 0 : logs.constFirst().timeNs;
        for (const ServerLogLine &l : std::as_const(logs))
            lines << QStringLiteral("+%1 s  %2  %3")
                         .arg(double(l.timeNs - first) / 1e9, 0, 'f', 3)
                         .arg(l.stream, -6)
                         .arg(l.line);
    }
    emit serverLogsLoaded(runId, lines);
}

void ProjectWorker::exportPrompts(qint64 runId, const QString &variant, int point, int repeat, const QString &dir)
{
    PointPrompts prompts;
    QString error = m_store ? QString() : QStringLiteral("no project is open");
    QString custom, shareGpt;
    if (!m_store || !loadPointPrompts(*m_store, runId, variant, point, repeat, &prompts, &error)
        || !writePointPrompts(prompts, dir, &custom, &shareGpt, &error))
        return emit promptsExported({}, {}, {}, error);
    QStringList warnings;
    const QStringList commands = replayCommands(prompts, custom, shareGpt, &warnings);
    warnings.removeDuplicates();
    emit promptsExported({ custom, shareGpt }, commands, warnings, QString());
}

void ProjectWorker::loadTimeSeries(qint64 runId, const QString &name)
{
    Report::TimeSeriesInput input;
    input.name = name;
    input.colour = Report::defaultRunColour(0);
    QVector<RequestRecord> records;
    RequestFilter filter;
    filter.includeWarmup = false;
    QVector<ServerMetricSample> samples;
    if (m_store && m_store->requests(runId, filter, &records) && m_store->serverMetricSamples(runId, &samples)) {
        input.requests = QList<RequestRecord>(records.cbegin(), records.cend());
        for (const ServerMetricSample &s : std::as_const(samples))
            input.server.append({ s.timeNs, s.name, s.labels, s.value });
    }
    emit timeSeriesLoaded(runId, input);
}

void ProjectWorker::create(const QString &path)
{
    QString error;
    if (!ProjectStore::create(path, &error)) {
        emit opened(path, error, {});
        return;
    }
    m_path = path;
    m_experimentId = 0;
    reopen(&error);
    emit opened(path, error, {});
}

void ProjectWorker::open(const QString &path)
{
    // The file is checked on its own connection first: a refused file leaves the open project as it was.
    auto store = std::make_unique<ProjectStore>();
    if (!store->open(path, ProjectStore::Check::Header)) {
        emit opened(path, store->errorString(), {});
        return;
    }
    m_store = std::move(store);
    m_path = path;
    m_experimentId = 0;
    QVector<ExperimentRow> rows;
    QByteArray json;
    QVector<RunListing> runs;
    if (m_store->experiments(&rows) && !rows.isEmpty()) {
        m_experimentId = rows.constLast().id;
        json = rows.constLast().json;
    } else if (m_store->listRuns(&runs) && !runs.isEmpty()) {
        // A project written by `servescope-cli run` has no saved experiment: edit the newest run's.
        if (const std::optional<RunRow> run = m_store->run(runs.constLast().run.id))
            json = run->resolvedConfig;
    }
    emit opened(path, QString(), json);
}

void ProjectWorker::saveExperiment(const QString &name, const QByteArray &json)
{
    WriterSession writer;
    QString error;
    if (writer.open(m_path, &error) && writer.begin(&error)) {
        ExperimentRow row;
        row.id = m_experimentId;
        row.name = name;
        row.json = json;
        const qint64 id = writer.saveExperiment(row, &error);
        if (id > 0 && writer.commit(&error))
            m_experimentId = id;
        else
            writer.rollback();
    }
    writer.close();
    emit experimentSaved(error);
}

void ProjectWorker::vacuumInto(const QString &target)
{
    QString error;
    if (QFile::exists(target) && !QFile::remove(target))
        error = tr("Cannot replace %1.").arg(target);
    if (error.isEmpty())
        ProjectStore::copyTo(m_path, target, &error);
    if (error.isEmpty()) {
        m_path = target;
        reopen(&error);
    }
    emit vacuumed(target, error);
}

void ProjectWorker::listRuns()
{
    QVector<RunListing> runs;
    if (m_store || !m_path.isEmpty()) {
        QString error;
        // A fresh connection sees what the run's writer committed since the last query.
        if (reopen(&error))
            m_store->listRuns(&runs);
    }
    emitRuns(runs, true);
}

QString ProjectWorker::fileStamp() const
{
    QString stamp;
    for (const QString &path : QStringList { m_path, m_path + QStringLiteral("-wal") }) {
        const QFileInfo info(path);
        stamp += QStringLiteral("%1:%2;").arg(info.size()).arg(info.lastModified().toMSecsSinceEpoch());
    }
    return stamp;
}

void ProjectWorker::listRunsIfChanged()
{
    if (m_path.isEmpty() || !m_store)
        return;
    const QString stamp = fileStamp();
    if (stamp == m_lastStamp)
        return;
    m_lastStamp = stamp;
    QString error;
    QVector<RunListing> runs;
    if (reopen(&error) && m_store->listRuns(&runs))
        emitRuns(runs, false);
}

void ProjectWorker::emitRuns(const QVector<RunListing> &runs, bool always)
{
    QString listing;
    for (const RunListing &r : runs)
        listing += QStringLiteral("%1 %2 %3;").arg(r.run.id).arg(int(r.run.status)).arg(r.requests);
    if (!always && listing == m_lastListing)
        return;
    m_lastListing = listing;
    emit runsListed(runs);
}

void ProjectWorker::loadRuns(const QList<qint64> &runIds)
{
    Report::ReportInput input;
    QStringList names;
    for (qint64 id : runIds) {
        Report::ReportRun run;
        if (!m_store || !Report::loadReportRun(*m_store, id, &run)) {
            emit runLoadFailed(id, m_store ? m_store->errorString() : QString());
            continue;
        }
        input.runs << run;
    }
    // Lettered by age, whatever order they were selected or imported in: A is the earliest measured of
    // them (a result file by its own date), the baseline every later one is compared with; runs without
    // a date after those with one, in the project's order.
    std::stable_sort(input.runs.begin(), input.runs.end(), [](const Report::ReportRun &a, const Report::ReportRun &b) {
        const bool aDated = a.started.isValid(), bDated = b.started.isValid();
        if (aDated != bDated)
            return aDated;
        return aDated && a.started != b.started ? a.started < b.started : a.id < b.id;
    });
    for (const Report::ReportRun &run : std::as_const(input.runs))
        names << run.name;
    // A delta needs two runs or one run with two variants; without one, no request is read for it.
    QSet<QString> variants;
    for (const PointSummary &p : input.runs.value(0).points)
        variants.insert(p.variant);
    const bool comparing = input.runs.size() > 1 || variants.size() > 1;
    QList<RunSource> sources;
    QString error;
    for (const Report::ReportRun &run : std::as_const(input.runs)) {
        RunSource source;
        if (comparing && loadStoredRunSets(m_path, QString::number(run.id), &source, nullptr, &error))
            sources << source;
    }
    // The project's own reruns of the first run's configuration refine the noise floors.
    QStringList compared;
    for (const Report::ReportRun &run : std::as_const(input.runs))
        compared << QString::number(run.id);
    const RerunNoise noise = comparing && !compared.isEmpty()
        ? projectRerunNoise(m_path, compared.first(), compared.mid(1))
        : RerunNoise {};
    if (comparing && sources.size() == input.runs.size())
        input.deltas = deltaSections(sources, ResultSet::Vllm, noise.floors, noise.pairs);
    input.title = names.join(tr(" vs ")); // read by people: the report's title, the status bar
    emit runsLoaded(input);
    if (!comparing)
        return;
    // The steady window's estimates are not stored: its deltas come from the requests, after the page
    // has the runs.
    QList<RunSource> steadySources;
    QList<qint64> ids;
    for (const Report::ReportRun &run : std::as_const(input.runs)) {
        RunSource steady;
        ids << run.id;
        if (loadStoredRunSets(m_path, QString::number(run.id), nullptr, &steady, &error))
            steadySources << steady;
    }
    if (steadySources.size() == input.runs.size())
        emit steadyDeltasLoaded(ids, deltaSections(steadySources, ResultSet::Steady, noise.floors, noise.pairs));
}

void ProjectWorker::checkRerun(qint64 earlierId, qint64 nowId)
{
    RunSource earlier, now;
    QString error;
    if (loadStoredRun(m_path, QString::number(earlierId), &earlier, &error)
        && loadStoredRun(m_path, QString::number(nowId), &now, &error))
        emit rerunChecked(earlierId, ServeScope::checkRerun(earlier, now), QString());
    else
        emit rerunChecked(earlierId, {}, error);
}

void ProjectWorker::loadRunConfig(qint64 runId)
{
    const std::optional<StoredRun> run = m_store ? StoredRun::read(*m_store, runId) : std::nullopt;
    const Experiment *experiment = run ? run->experiment() : nullptr;
    emit runConfigLoaded(runId, experiment ? *experiment : Experiment(), experiment != nullptr);
}

void ProjectWorker::countRequests(qint64 runId)
{
    QVector<RequestRecord> records;
    qint64 ok = 0, cancelled = 0;
    RequestFilter filter;
    filter.withEvents = false;
    if (m_store && m_store->requests(runId, filter, &records)) {
        for (const RequestRecord &r : std::as_const(records)) {
            ok += r.ok() ? 1 : 0;
            cancelled += r.status == RequestStatus::Cancelled ? 1 : 0;
        }
    }
    emit requestsCounted(runId, records.size(), ok, cancelled);
}

} // namespace ServeScope

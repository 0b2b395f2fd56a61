// SPDX-License-Identifier: MIT
#include "runworker.h"
#include "runtext.h"
#include "serverscraper.h"

#include "engine/loadgenerator.h"
#include "metrics/delta.h"
#include "metrics/findings.h"
#include "model/clock.h"
#include "model/urls.h"
#include "model/variables.h"
#include "run/clienthost.h"
#include "run/endpointcalls.h"
#include "run/heaptrim.h"
#include "run/pointrunner.h"
#include "run/runrecord.h"
#include "run/serverreadback.h"
#include "storage/storewriter.h"
#include "workload/promptgen.h"

#include <QDateTime>
#include <QFileInfo>
#include <QHostAddress>
#include <QJsonDocument>
#include <QStorageInfo>

namespace ServeScope {

RunWorker::RunWorker(Experiment experiment, RunOptions options, std::shared_ptr<std::atomic<bool>> cancel)
    : m_experiment(std::move(experiment))
    , m_options(std::move(options))
    , m_cancel(std::move(cancel))
    , m_redactor({ m_options.apiKey })
{
    connect(&m_monitor, &LiveMonitor::snapshotUpdated, this, &RunWorker::snapshotUpdated);
}

RunWorker::~RunWorker() = default;

void RunWorker::cancelNow()
{
    if (m_generator && m_generator->isRunning())
        m_generator->cancel();
}

void RunWorker::stopOnStorageFailure(const QString &)
{
    if (m_storageFailed.exchange(true))
        return;
    *m_cancel = true;
    QMetaObject::invokeMethod(this, &RunWorker::cancelNow, Qt::QueuedConnection);
}

void RunWorker::fail(const QString &message)
{
    m_result.status = RunResult::Status::Failed;
    m_result.message = message;
    log(QStringLiteral("error"), message);
    Q_EMIT finished(m_result);
}

bool RunWorker::selectVariants(QString *error)
{
    for (const QString &name : std::as_const(m_options.variants)) {
        if (m_experiment.variantIndex(name) < 0) {
            *error = RunText::tr("no variant named '%1'").arg(name);
            return false;
        }
    }
    for (int i = 0; i < m_experiment.variants.size(); ++i) {
        if (m_options.variants.isEmpty() || m_options.variants.contains(m_experiment.variants[i].name))
            m_variants << i;
    }
    if (m_variants.isEmpty())
        *error = RunText::tr("the experiment has no variants to run");
    return !m_variants.isEmpty();
}

bool RunWorker::record(QString *error)
{
    // The results folder first: a failure here must not leave a run marked "running" in the project.
    if (!m_options.outDir.isEmpty() && !m_output.open(m_options.outDir, error))
        return false;
    m_writer = std::make_unique<StoreWriter>();
    if (!m_writer->open(m_options.projectPath, error)) {
        *error = RunText::tr("cannot open the project: %1").arg(*error);
        return false;
    }
    // Before any load is sent: a disk that cannot hold the run refuses it, a tight one is named.
    const qint64 needed = estimatedRunBytes(m_experiment, int(m_variants.size()));
    const qint64 free = QStorageInfo(QFileInfo(m_options.projectPath).absolutePath()).bytesAvailable();
    const auto mib = [](qint64 bytes) { return QString::number(double(bytes) / (1 << 20), 'f', 1); };
    if (free >= 0 && needed > free) {
        *error = RunText::tr("the disk of %1 has %2 MiB free and this run needs about %3 MiB: free space or "
                             "choose another project file; nothing was sent")
                     .arg(m_options.projectPath, mib(free), mib(needed));
        return false;
    }
    if (free >= 0 && needed > free / 2)
        log(QStringLiteral("warning"),
            RunText::tr("the disk of %1 has %2 MiB free and this run needs about %3 MiB")
                .arg(m_options.projectPath, mib(free), mib(needed)));
    connect(m_writer.get(), &StoreWriter::writeFailed, this,
        [this](const QString &message) { log(QStringLiteral("error"), RunText::tr("storage: %1").arg(message)); });
    connect(m_writer.get(), &StoreWriter::commitFailed, this, &RunWorker::stopOnStorageFailure, Qt::DirectConnection);

    m_identity.started = QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
    m_identity.name
        = m_options.runName.isEmpty() ? m_experiment.name + QLatin1Char(' ') + m_identity.started : m_options.runName;
    m_identity.clientHost = clientHostInfo();
    if (m_experiment.endpoint.isLocalSimulator()) {
        // Every time measured against a time-scaled simulator is that many times shorter: say so
        // wherever the run is shown.
        m_identity.clientHost.insert(QStringLiteral("simulator_time_scale"), m_options.simulatorTimeScale);
    }
    if (m_options.shard.active()) {
        const QJsonObject shard = shardHostInfo(m_options.shard);
        for (auto it = shard.begin(); it != shard.end(); ++it)
            m_identity.clientHost.insert(it.key(), it.value());
    }
    for (int v : std::as_const(m_variants))
        m_identity.variants << m_experiment.variants[v].name;

    // The run keeps the configuration it ran with in its own row; the project's editable experiment
    // is only what the user saves, so discarding edits really discards them.
    const RunRow row = newRunRow(m_experiment, m_identity);
    m_result.runId = m_writer->createRun(row, error);
    if (m_result.runId == 0) {
        *error = RunText::tr("cannot record the run: %1").arg(*error);
        return false;
    }
    log(QStringLiteral("info"), RunText::tr("run %1 started: %2").arg(m_result.runId).arg(row.name));
    return true;
}

void RunWorker::run()
{
    QString error;
    if (!selectVariants(&error) || !record(&error))
        return fail(error);

    const int repeats = qMax(1, m_experiment.load.repeat);
    m_monitor.begin(m_result.runId, int(m_variants.size()), int(m_experiment.load.points.size()), repeats);

    m_generator = std::make_unique<LoadGenerator>();
    m_points = std::make_unique<PointRunner>(*m_generator, *m_writer, m_output, m_monitor, *m_cancel);
    m_points->setShard(m_options.shard);
    connect(m_points.get(), &PointRunner::pointFinished, this, &RunWorker::pointFinished);
    connect(m_points.get(), &PointRunner::logged, this, &RunWorker::log);
    bool ok = true;
    for (int i = 0; i < m_variants.size() && ok && !m_cancel->load(); ++i) {
        m_monitor.setVariant(i, m_experiment.variants[m_variants[i]].name);
        ok = runVariant(m_variants[i]);
    }
    m_answered = m_points->answered();
    m_points.reset();
    m_generator.reset();
    m_endpoint.close();

    if (m_storageFailed.load()) {
        m_result.status = RunResult::Status::Failed;
        m_result.message = RunText::tr("the project could not store the run (%1): the load was stopped; %2 "
                                       "requests are kept")
                               .arg(m_writer->commitFailure())
                               .arg(m_writer->committedRequests());
    } else if (m_cancel->load()) {
        m_result.status = RunResult::Status::Cancelled;
        m_result.message = RunText::tr("cancelled; everything measured so far is kept");
    } else if (!ok) {
        m_result.status = RunResult::Status::Failed;
    } else if (m_result.completed == 0) {
        m_result.status = RunResult::Status::Failed;
        m_result.message = RunText::tr("no request succeeded");
    }
    m_result.errorsByClass = m_monitor.snapshot().errorsByClass;
    m_result.firstErrorByClass = m_monitor.snapshot().firstErrorByClass;
    finish();
}

void RunWorker::reportMissingRoutes(const Experiment &resolved, EndpointCalls &calls)
{
    const QString base = m_endpoint.baseUrl().toString();
    if (m_probedBases.contains(base))
        return;
    m_probedBases << base;
    // Only where the run would use them: /tokenize sizes text prompts, /metrics ends the drain after warmup.
    if (PromptGenerator(resolved).wantsTokenCounts() && !calls.hasTokenize())
        log(QStringLiteral("warning"),
            RunText::tr("%1 has no /tokenize: text prompts are sized by three max_tokens 1 calibration requests "
                        "that read usage.prompt_tokens, and without usage in the stream input counts are "
                        "estimates")
                .arg(base));
    if (resolved.load.warmupRequests > 0 && !calls.hasRunningMetric())
        log(QStringLiteral("warning"),
            RunText::tr("%1 has no /metrics with vllm:num_requests_running or sglang:num_running_reqs: after "
                        "warmup the measured clock starts at once, without waiting for the server to drain")
                .arg(base));
}

bool RunWorker::runVariant(int variantIndex)
{
    Experiment resolved = resolveVariant(m_experiment, variantIndex);
    const bool launch = m_endpoint.needsLaunch(resolved, m_options);
    if (resolved.endpoint.isLocalSimulator() || launch)
        m_monitor.setPhase(QStringLiteral("starting server"));
    if (!m_endpoint.open(resolved, m_options, &m_result.message) || (launch && !launchServer(resolved))) {
        log(QStringLiteral("error"), m_result.message);
        m_endpoint.close();
        return false;
    }
    resolved.endpoint.model = m_endpoint.model();
    QList<QByteArray> secrets = m_endpoint.config().secretValues;
    secrets << m_options.apiKey << m_endpoint.config().apiKey;
    m_redactor = Redactor(secrets);
    if (m_endpoint.startedSimulator()) {
        m_identity.simulatorArguments = m_endpoint.simulatorArguments();
        log(QStringLiteral("info"),
            RunText::tr("simulator at %1: %2")
                .arg(m_endpoint.baseUrl().toString(), m_identity.simulatorArguments.join(QLatin1Char(' '))));
    }
    EndpointCalls calls(m_endpoint.config(), m_endpoint.baseUrl(), m_endpoint.model());
    calls.setCancel(m_cancel.get());
    if (launch && !checkServerConfig(resolved, calls)) {
        log(QStringLiteral("error"), m_result.message);
        m_endpoint.close();
        return false;
    }
    reportMissingRoutes(resolved, calls);
    // A server on this host takes CPU from the client; the client-health columns say how much it mattered.
    if (!resolved.endpoint.isLocalSimulator()) {
        const QString host = m_endpoint.baseUrl().host();
        const QHostAddress address(host);
        if (host == QLatin1String("localhost") || address.isLoopback())
            log(QStringLiteral("warning"),
                RunText::tr("the server at %1 runs on this host and shares its CPUs with the client; see the "
                            "dispatch lag and client CPU of each point (client-limited)")
                    .arg(m_endpoint.baseUrl().toString()));
    }
    ServerScraper scraper(
        m_endpoint.config(), m_endpoint.baseUrl(), QUrl(resolved.server.dcgmUrl), m_result.runId, *m_writer);
    scraper.setCancel(m_cancel.get());
    if (LaunchedServer *server = m_endpoint.server()) { // its log lines stand in for a missing /metrics
        connect(server, &LaunchedServer::schedulerSampled, &scraper, &ServerScraper::addLogSamples);
        connect(&scraper, &ServerScraper::logged, this, &RunWorker::log);
    }
    scraper.start();
    const VariantContext context { resolved, m_endpoint.config(), calls, m_result.runId,
        m_experiment.variants[variantIndex].name, &scraper };
    for (int p = 0; p < resolved.load.points.size() && !m_cancel->load(); ++p) {
        PointRepeats repeats;
        repeats.point = p;
        PointSummary identity;
        for (int r = 1; r <= qMax(1, resolved.load.repeat) && !m_cancel->load(); ++r) {
            if (serverExited())
                return false;
            const PointOutcome outcome = m_points->run(context, p, r);
            releaseFreedHeap(); // the point's records and result file are freed by now
            if (!outcome.ok) {
                m_result.message = outcome.error;
                log(QStringLiteral("error"), outcome.error);
                return false;
            }
            if (!outcome.measured)
                continue;
            m_result.completed += outcome.summary.completed;
            m_result.failed += outcome.summary.failed;
            m_result.cancelled += outcome.summary.cancelled;
            m_result.points << outcome.summary;
            const PointSummary &s = outcome.summary;
            identity = s;
            repeats.setKey(s.key());
            repeats.repeats << summaryValues(s);
            repeats.samples.insert(repeats.samples.end(), outcome.samples.cbegin(), outcome.samples.cend());
        }
        if (!repeats.repeats.isEmpty())
            finishPoint(identity, repeats);
    }
    scraper.stop();
    if (serverExited())
        return false;
    m_endpoint.close();
    return true;
}

bool RunWorker::serverExited()
{
    LaunchedServer *server = m_endpoint.server();
    if (!server || server->isRunning())
        return false;
    m_result.message = server->exitMessage();
    log(QStringLiteral("error"), m_result.message);
    return true;
}

bool RunWorker::launchServer(const Experiment &resolved)
{
    if (!m_endpoint.startServer(resolved, m_result.runId, *m_writer, &m_result.message))
        return false;
    LaunchedServer *server = m_endpoint.server();
    const QString argv = m_endpoint.launchArgv().join(QLatin1Char(' '));
    // The project keeps which command wrote the lines that follow.
    m_writer->enqueue(ServerLogLine { m_result.runId, monotonicNs(), QStringLiteral("launch"),
        QStringLiteral("pid %1: %2").arg(server->pid()).arg(argv) });
    log(QStringLiteral("info"), RunText::tr("launched server pid %1: %2").arg(server->pid()).arg(argv));
    const QUrl ready = joinUrlPath(m_endpoint.baseUrl(), resolved.server.readyPath);
    if (!server->waitReady(ready, m_endpoint.config(), resolved.server.readyTimeoutS, *m_cancel, &m_result.message))
        return false;
    log(QStringLiteral("info"),
        RunText::tr("server ready after %1 s (GET %2 answered 200)")
            .arg(QString::number(server->readySeconds(), 'f', 1), ready.toString()));
    return true;
}

bool RunWorker::checkServerConfig(const Experiment &resolved, EndpointCalls &calls)
{
    const EffectiveConfig config = readEffectiveConfig(calls);
    QStringList read;
    for (auto it = config.values.cbegin(); it != config.values.cend(); ++it)
        read << QStringLiteral("%1 %2 (%3)").arg(it.key(), it.value(), config.sources.value(it.key()));
    log(QStringLiteral("info"),
        read.isEmpty() ? RunText::tr("the launched server reports none of its settings: nothing to check")
                       : RunText::tr("the launched server runs with %1").arg(read.join(QLatin1String(", "))));
    const QStringList mismatches = configMismatches(resolved.server.args, config);
    if (mismatches.isEmpty())
        return true;
    m_result.message = RunText::tr("the launched server does not run with the variant's settings: %1; "
                                   "stopping the run (is a {server.args.NAME} placeholder missing from "
                                   "server.launch.argv?)")
                           .arg(mismatches.join(QLatin1String("; ")));
    return false;
}

void RunWorker::finishPoint(const PointSummary &identity, const PointRepeats &repeats)
{
    QList<MetricEstimate> estimates;
    QList<PointEstimate> stored;
    for (const QString &key : headlineMetrics()) {
        estimates << estimateMetric(repeats, key);
        stored << storedEstimate(m_result.runId, repeats, estimates.last());
        m_writer->enqueue(stored.last());
        m_estimates << stored.last();
    }
    QString error;
    if (m_output.isOpen() && !m_output.writeRepeats(identity, repeats, stored, &error))
        log(QStringLiteral("error"), error);
    if (repeats.repeats.size() < 2)
        return;
    for (const MetricEstimate &e : std::as_const(estimates)) {
        const RepeatStat &s = e.repeats;
        if (!reproducible(s))
            log(QStringLiteral("finding"),
                QStringLiteral("%1 %2: not-reproducible %3 (spread %4%, cv %5% over %6 repeats)")
                    .arg(repeats.variant, repeats.label, e.key, QString::number(s.spread() * 100, 'f', 1),
                        QString::number(s.cv * 100, 'f', 1))
                    .arg(s.n));
    }
}

// A run whose results folder is incomplete is not a success, whatever it measured.
bool RunWorker::failOnOutputError()
{
    if (m_output.firstError().isEmpty() || m_result.status != RunResult::Status::Finished)
        return false;
    m_result.status = RunResult::Status::Failed;
    m_result.message = RunText::tr("the results folder is incomplete: %1").arg(m_output.firstError());
    return true;
}

void RunWorker::recordAnswered()
{
    // One entry when every variant's server said the same, else one per variant.
    const QMap<QString, QPair<QString, QString>> &answered = m_answered;
    for (const auto &[key, pick] : { std::pair { QStringLiteral("served_model"), &QPair<QString, QString>::first },
             std::pair { QStringLiteral("system_fingerprint"), &QPair<QString, QString>::second } }) {
        QMap<QString, QString> byVariant;
        for (auto it = answered.cbegin(); it != answered.cend(); ++it) {
            if (!((*it).*pick).isEmpty())
                byVariant.insert(it.key(), (*it).*pick);
        }
        QStringList values = byVariant.values();
        values.removeDuplicates();
        // What the server said replaces what was typed or captured under the same name.
        if (!byVariant.isEmpty())
            m_experiment.envSnapshot.removeIf(
                [&key](const EnvEntry &e) { return e.key == key || e.key.startsWith(key + QStringLiteral(" (")); });
        if (values.size() == 1)
            m_experiment.envSnapshot.append({ key, values.first(), EnvSource::Captured });
        else
            for (auto it = byVariant.cbegin(); it != byVariant.cend(); ++it)
                m_experiment.envSnapshot.append(
                    { key + QStringLiteral(" (") + it.key() + u')', *it, EnvSource::Captured });
    }
}

void RunWorker::finish()
{
    // What the run's curves say, once, with the numbers used (words only in the GUI and report).
    const bool cacheFree = m_experiment.dataset.name == QLatin1String("random");
    for (const RunFinding &f : runFindings(m_result.points, m_estimates, cacheFree, {}, prefillBudgets(m_experiment)))
        log(QStringLiteral("finding"), findingLine(f));
    failOnOutputError();
    RunStatus status = m_result.status == RunResult::Status::Finished ? RunStatus::Finished
        : m_result.status == RunResult::Status::Cancelled             ? RunStatus::Cancelled
                                                                      : RunStatus::Failed;
    const qsizetype envBefore = m_experiment.envSnapshot.size();
    recordAnswered();
    QString error;
    if (m_output.isOpen()
        && !m_output.writeManifest(runManifest(m_experiment, m_identity, m_result, runStatusCode(status)), &error))
        log(QStringLiteral("error"), error);
    if (failOnOutputError())
        status = RunStatus::Failed;
    const QByteArray env = m_experiment.envSnapshot.size() == envBefore
        ? QByteArray()
        : QJsonDocument(envSnapshotJson(m_experiment)).toJson(QJsonDocument::Compact);
    // The run's end is recorded or said not to be: a commit that went through can still have
    // refused the run's row (a failing statement), which would leave it reading `running`.
    const quint64 failedBefore = m_writer->failedItems();
    m_writer->finishRun(m_result.runId, status, QDateTime::currentDateTimeUtc(), env);
    if (!m_writer->flush(30000) || m_writer->failedItems() != failedBefore) {
        log(QStringLiteral("error"), RunText::tr("storage: the last records could not be committed"));
        m_result.status = RunResult::Status::Failed;
    }
    m_writer->close();
    if (!m_result.message.isEmpty())
        log(m_result.status == RunResult::Status::Finished ? QStringLiteral("info") : QStringLiteral("warning"),
            m_result.message);
    Q_EMIT finished(m_result);
}

} // namespace ServeScope

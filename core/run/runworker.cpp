// SPDX-License-Identifier: MIT
#include "runworker.h"
#include "runtext.h"
#include "serverscraper.h"

#include "engine/loadgenerator.h"
#include "metrics/capacity.h"
#include "metrics/findings.h"
#include "model/clock.h"
#include "model/variables.h"
#include "run/capacityrun.h"
#include "run/endpointcalls.h"
#include "run/heaptrim.h"
#include "run/pointcloser.h"
#include "run/pointrunner.h"
#include "run/runrecord.h"
#include "run/serverreadback.h"
#include "storage/storewriter.h"

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

bool RunWorker::record(QString *error)
{
    // Before anything is sent or created: a disk that cannot hold the run refuses it, a tight one is named.
    const DiskSpaceVerdict space = checkDiskSpace(m_experiment, int(m_variants.size()), m_options.projectPath);
    if (!space.error.isEmpty()) {
        *error = space.error;
        return false;
    }
    if (!space.warning.isEmpty())
        log(QStringLiteral("warning"), space.warning);
    // The results folder first: a failure here must not leave a run marked "running" in the project.
    if (!m_options.outDir.isEmpty() && !m_output.open(m_options.outDir, error))
        return false;
    m_writer = std::make_unique<StoreWriter>();
    if (!m_writer->open(m_options.projectPath, error)) {
        *error = RunText::tr("cannot open the project: %1").arg(*error);
        return false;
    }
    connect(m_writer.get(), &StoreWriter::writeFailed, this,
        [this](const QString &message) { log(QStringLiteral("error"), RunText::tr("storage: %1").arg(message)); });
    connect(m_writer.get(), &StoreWriter::commitFailed, this, &RunWorker::stopOnStorageFailure, Qt::DirectConnection);
    m_result.runId = recordRun(*m_writer, m_experiment, m_options, m_variants, &m_identity, error);
    if (m_result.runId == 0)
        return false;
    log(QStringLiteral("info"), RunText::tr("run %1 started: %2").arg(m_result.runId).arg(m_identity.name));
    return true;
}

void RunWorker::run()
{
    QString error;
    if (m_experiment.load.capacity) // the search appends the levels it measures
        m_experiment.load.points.clear();
    m_variants = selectVariants(m_experiment, m_options.variants, &error);
    if (!m_options.vs.isEmpty() && !m_baseline.load(m_options.projectPath, m_options.vs, m_experiment, &error))
        return fail(RunText::tr("the run to compare with: %1").arg(error));
    if (m_experiment.load.capacity || !m_options.reuseLevels.isEmpty()) {
        m_capacity = std::make_unique<CapacityRun>(m_experiment, m_options.reuseLevels);
        connect(m_capacity.get(), &CapacityRun::logged, this, &RunWorker::log);
        if (!m_options.reuseLevels.isEmpty() && !m_capacity->readReused(m_options.projectPath, &error))
            return fail(error);
    }
    if (m_variants.isEmpty() || !record(&error))
        return fail(error);

    const LoadMatrix &load = m_experiment.load;
    m_monitor.begin(m_result.runId, int(m_variants.size()),
        load.capacity ? load.capacity->maxPoints : int(load.points.size()), load.capacity ? 1 : qMax(1, load.repeat));

    m_generator = std::make_unique<LoadGenerator>();
    m_points = std::make_unique<PointRunner>(*m_generator, *m_writer, m_output, m_monitor, *m_cancel);
    m_points->setShard(m_options.shard);
    connect(m_points.get(), &PointRunner::pointFinished, this, &RunWorker::pointFinished);
    connect(m_points.get(), &PointRunner::logged, this, &RunWorker::log);
    m_closer = std::make_unique<PointCloser>(m_result.runId, *m_writer, m_output, m_baseline);
    connect(m_closer.get(), &PointCloser::logged, this, &RunWorker::log);
    connect(m_closer.get(), &PointCloser::pointCompared, this, &RunWorker::pointCompared);
    bool ok = true;
    for (int i = 0; i < m_variants.size() && ok && !m_cancel->load(); ++i) {
        m_monitor.setVariant(i, m_experiment.variants[m_variants[i]].name);
        ok = runVariant(m_variants[i]);
    }
    m_answered = m_points->answered();
    m_points.reset();
    m_generator.reset();
    m_endpoint.close();

    settleRunStatus(&m_result, ok, m_cancel->load(),
        m_storageFailed.load() ? std::optional<QString>(m_writer->commitFailure()) : std::nullopt,
        m_writer->committedRequests());
    m_result.errorsByClass = m_monitor.snapshot().errorsByClass;
    m_result.firstErrorByClass = m_monitor.snapshot().firstErrorByClass;
    finish();
}

bool RunWorker::runVariant(int variantIndex)
{
    Experiment resolved = resolveVariant(m_experiment, variantIndex);
    const bool launch = m_endpoint.needsLaunch(resolved, m_options);
    if (resolved.endpoint.isLocalSimulator() || launch)
        m_monitor.setPhase(QStringLiteral("starting server"));
    const auto say = [this](const QString &line) { log(QStringLiteral("info"), line); };
    if (!m_endpoint.open(resolved, m_options, &m_result.message)
        || (launch
            && !m_endpoint.launchServer(resolved, m_result.runId, *m_writer, *m_cancel, say, &m_result.message))) {
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
    const QString base = m_endpoint.baseUrl().toString();
    const bool firstVisit = !m_probedBases.contains(base);
    if (firstVisit)
        m_probedBases << base;
    if (!reviewEndpoint(
            resolved, calls, m_endpoint.baseUrl(), launch, firstVisit,
            [this](const QString &level, const QString &line) { log(level, line); }, &m_result.message)) {
        log(QStringLiteral("error"), m_result.message);
        m_endpoint.close();
        return false;
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
    if (resolved.load.capacity) {
        CapacityResult result;
        if (!m_capacity->search(
                context, resolved, *m_writer, *m_closer,
                [&](PointOutcome *outcome) { return measure(context, outcome); }, *m_cancel, &result))
            return false;
        m_result.capacities << result;
    } else if (!runPoints(context)) {
        return false;
    }
    scraper.stop();
    if (serverExited(context.variant))
        return false;
    m_endpoint.close();
    return true;
}

bool RunWorker::measure(const VariantContext &context, PointOutcome *outcome)
{
    if (serverExited(context.variant))
        return false;
    const int point = m_closer->point();
    m_monitor.setBaseline(m_baseline.figures(pointKey(context.resolved, point, context.variant)));
    *outcome = m_points->run(context, point, m_closer->beginRepeat());
    releaseFreedHeap(); // the point's records and result file are freed by now
    if (!outcome->ok) {
        m_result.message = outcome->error;
        log(QStringLiteral("error"), outcome->error);
        return false;
    }
    if (outcome->measured) {
        m_result.addPoint(outcome->summary);
        m_closer->add(*outcome);
    }
    return true;
}

bool RunWorker::runPoints(const VariantContext &context)
{
    for (int p = 0; p < context.resolved.load.points.size() && !m_cancel->load(); ++p) {
        m_closer->open(p);
        while (m_closer->repeats() < qMax(1, context.resolved.load.repeat) && !m_cancel->load()) {
            PointOutcome outcome;
            if (!measure(context, &outcome))
                return false;
        }
        m_closer->close();
    }
    return true;
}

bool RunWorker::serverExited(const QString &variant)
{
    const QString exited = m_endpoint.serverExitMessage();
    if (exited.isEmpty())
        return false;
    m_result.message = exited;
    log(QStringLiteral("error"), m_result.message);
    const ServerExit exit = m_endpoint.server()->exitState(variant);
    m_serverExits << exit;
    m_writer->enqueue(ServerLogLine { m_result.runId, monotonicNs(), QStringLiteral("exit"), serverExitLine(exit) });
    return true;
}

void RunWorker::finish()
{
    // What the run's curves say, once, with the numbers used (words only in the GUI and report).
    const bool cacheFree = m_experiment.dataset.name == QLatin1String("random");
    for (const RunFinding &f :
        runFindings(m_result.points, m_closer->estimates(), cacheFree, {}, prefillBudgets(m_experiment), m_serverExits))
        log(QStringLiteral("finding"), findingLine(f));
    for (const QString &line : closeRun(*m_writer, m_output, m_experiment, m_identity, m_answered, &m_result))
        log(QStringLiteral("error"), line);
    m_writer->close();
    if (!m_result.message.isEmpty())
        log(m_result.status == RunResult::Status::Finished ? QStringLiteral("info") : QStringLiteral("warning"),
            m_result.message);
    Q_EMIT finished(m_result);
}

} // namespace ServeScope

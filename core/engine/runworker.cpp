// SPDX-License-Identifier: MIT
#include "runworker.h"

#include "clienthost.h"
#include "io/experimentfile.h"
#include "loadgenerator.h"
#include "metrics/aggregate.h"
#include "metrics/numpystats.h"
#include "metrics/requestmetrics.h"
#include "model/clock.h"
#include "model/variables.h"
#include "promptgen.h"
#include "storage/storewriter.h"

#include <QDateTime>
#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QTimer>

#include <algorithm>
#include <cmath>

namespace ServeScope {

namespace {

constexpr qint64 kRollingWindowNs = 5'000'000'000;
/// Prompts prepared for a point that stops on time only; requests reuse them round-robin.
constexpr int kTimeOnlyPrompts = 512;

QString isoNow()
{
    return QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
}

/// Rolling figures for the monitor: numpy's percentile over values in milliseconds.
double percentileOf(std::vector<double> &values, double p)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    return Stats::percentileSorted(values, p);
}

template<typename T> void dropOlderThan(std::deque<std::pair<qint64, T>> &d, qint64 limitNs)
{
    while (!d.empty() && d.front().first < limitNs)
        d.pop_front();
}

} // namespace

RunWorker::RunWorker(RunController *controller, Experiment experiment, RunOptions options)
    : m_controller(controller)
    , m_experiment(std::move(experiment))
    , m_options(std::move(options))
{
}

RunWorker::~RunWorker() = default;

bool RunWorker::cancelled() const
{
    return m_controller->m_cancel.load();
}

void RunWorker::cancelNow()
{
    if (m_generator && m_generator->isRunning())
        m_generator->cancel();
}

void RunWorker::log(const QString &level, const QString &text)
{
    Q_EMIT m_controller->logged(level, text);
}

void RunWorker::run()
{
    m_clock.start();
    m_started = isoNow();
    m_clientHost = clientHostInfo();
    if (m_experiment.endpoint.isLocalSimulator()) {
        // Every time measured against a time-scaled simulator is that many times shorter: say so
        // wherever the run is shown.
        m_clientHost.insert(QStringLiteral("simulator_time_scale"), m_options.simulatorTimeScale);
    }
    auto fail = [this](const QString &message) {
        m_result.status = RunResult::Status::Failed;
        m_result.message = message;
        log(QStringLiteral("error"), message);
        Q_EMIT m_controller->finished(m_result);
    };

    QList<int> variants;
    for (int i = 0; i < m_experiment.variants.size(); ++i) {
        if (m_options.variants.isEmpty() || m_options.variants.contains(m_experiment.variants[i].name))
            variants << i;
    }
    for (const QString &name : std::as_const(m_options.variants)) {
        if (m_experiment.variantIndex(name) < 0)
            return fail(QStringLiteral("no variant named '%1'").arg(name));
    }
    if (variants.isEmpty())
        return fail(QStringLiteral("the experiment has no variants to run"));

    QString error;
    // The results folder first: a failure here must not leave a run marked "running" in the project.
    if (!m_options.outDir.isEmpty() && !m_output.open(m_options.outDir, &error))
        return fail(error);
    m_writer = std::make_unique<StoreWriter>();
    if (!m_writer->open(m_options.projectPath, &error))
        return fail(QStringLiteral("cannot open the project: %1").arg(error));
    QObject::connect(m_writer.get(), &StoreWriter::writeFailed, this,
        [this](const QString &message) { log(QStringLiteral("error"), QStringLiteral("storage: %1").arg(message)); });

    const QByteArray experimentJson = serializeExperiment(m_experiment);
    ExperimentRow experimentRow;
    experimentRow.name = m_experiment.name;
    experimentRow.json = experimentJson;
    RunRow runRow;
    runRow.experimentId = m_writer->saveExperiment(experimentRow, &error);
    runRow.name = m_options.runName.isEmpty() ? m_experiment.name + QLatin1Char(' ') + m_started : m_options.runName;
    runRow.started = QDateTime::currentDateTimeUtc();
    runRow.resolvedConfig = experimentJson;
    runRow.definitions = definitionsName(m_experiment.metrics.definitions);
    for (int v : std::as_const(variants))
        runRow.variants << m_experiment.variants[v].name;
    runRow.points = int(m_experiment.load.points.size());
    runRow.clientHost = QJsonDocument(m_clientHost).toJson(QJsonDocument::Compact);
    QJsonArray env;
    for (const EnvEntry &e : std::as_const(m_experiment.envSnapshot))
        env.append(QJsonArray { e.key, e.value, envSourceName(e.source) });
    runRow.envSnapshot = QJsonDocument(env).toJson(QJsonDocument::Compact);
    m_result.runId = m_writer->createRun(runRow, &error);
    if (m_result.runId == 0)
        return fail(QStringLiteral("cannot record the run: %1").arg(error));
    m_snapshot.runId = m_result.runId;
    log(QStringLiteral("info"), QStringLiteral("run %1 started: %2").arg(m_result.runId).arg(runRow.name));

    m_snapshot.variantCount = int(variants.size());
    m_snapshot.pointCount = int(m_experiment.load.points.size());
    m_snapshot.repeatCount = qMax(1, m_experiment.load.repeat);
    for (const LoadPoint &p : std::as_const(m_experiment.load.points))
        m_snapshot.requestsPlanned += (p.numPrompts > 0 ? p.numPrompts : 0) * m_snapshot.repeatCount;
    m_snapshot.requestsPlanned *= m_snapshot.variantCount;

    m_generator = std::make_unique<LoadGenerator>();
    bool ok = true;
    for (int i = 0; i < variants.size() && ok && !cancelled(); ++i) {
        m_snapshot.variantIndex = i;
        ok = runVariant(variants[i]);
    }
    m_generator.reset();
    m_sim.stop();

    if (cancelled()) {
        m_result.status = RunResult::Status::Cancelled;
        m_result.message = QStringLiteral("cancelled; everything measured so far is kept");
    } else if (!ok) {
        m_result.status = RunResult::Status::Failed;
    } else if (m_result.completed == 0) {
        m_result.status = RunResult::Status::Failed;
        m_result.message = QStringLiteral("no request succeeded");
    }
    const RunStatus status = m_result.status == RunResult::Status::Finished ? RunStatus::Finished
        : m_result.status == RunResult::Status::Cancelled                   ? RunStatus::Cancelled
                                                                            : RunStatus::Failed;
    m_writer->finishRun(m_result.runId, status, QDateTime::currentDateTimeUtc());
    if (!m_writer->flush(30000))
        log(QStringLiteral("error"), QStringLiteral("storage: the last records could not be committed"));
    m_writer->close();
    if (m_output.isOpen() && !m_output.writeManifest(manifest(runStatusCode(status)), &error))
        log(QStringLiteral("error"), error);
    if (!m_result.message.isEmpty())
        log(m_result.status == RunResult::Status::Finished ? QStringLiteral("info") : QStringLiteral("warning"),
            m_result.message);
    Q_EMIT m_controller->finished(m_result);
}

bool RunWorker::endpointFor(const Experiment &resolved, EndpointConfig *endpoint)
{
    QUrl base;
    QByteArray key = m_options.apiKey;
    if (resolved.endpoint.isLocalSimulator()) {
        m_snapshot.phase = QStringLiteral("starting server");
        Q_EMIT m_controller->snapshotUpdated(m_snapshot);
        const QString program
            = m_options.simulatorProgram.isEmpty() ? SimProcess::defaultProgram() : m_options.simulatorProgram;
        if (!m_sim.start(program, resolved.server.args, resolved.endpoint.model, m_options.simulatorTimeScale)) {
            m_result.message = m_sim.errorString();
            log(QStringLiteral("error"), m_result.message);
            return false;
        }
        m_simArguments = m_sim.arguments();
        log(QStringLiteral("info"),
            QStringLiteral("simulator at %1: %2")
                .arg(m_sim.baseUrl().toString(), m_simArguments.join(QLatin1Char(' '))));
        base = m_sim.baseUrl();
        key = m_sim.apiKey();
    } else {
        base = QUrl(resolved.endpoint.baseUrl);
    }
    QString path = base.path();
    while (path.endsWith(QLatin1Char('/')))
        path.chop(1);
    endpoint->url = base;
    endpoint->url.setPath(path + resolved.endpoint.path);
    endpoint->apiKey = key;
    endpoint->http2 = resolved.endpoint.protocol == HttpProtocol::Http2;
    endpoint->timeouts = resolved.load.timeouts;
    if (!resolved.endpoint.proxy.isEmpty()) {
        const QUrl proxy = QUrl::fromUserInput(resolved.endpoint.proxy);
        endpoint->useProxy = true;
        endpoint->proxy = QNetworkProxy(QNetworkProxy::HttpProxy, proxy.host(), quint16(proxy.port(8080)));
    }
    for (const auto &[name, value] : resolved.endpoint.headers)
        endpoint->extraHeaders.append({ name.toUtf8(), value.toUtf8() });
    return true;
}

bool RunWorker::runVariant(int variantIndex)
{
    const Experiment resolved = resolveVariant(m_experiment, variantIndex);
    m_snapshot.variant = m_experiment.variants[variantIndex].name;
    EndpointConfig endpoint;
    if (!endpointFor(resolved, &endpoint))
        return false;
    for (int p = 0; p < resolved.load.points.size() && !cancelled(); ++p) {
        for (int r = 1; r <= qMax(1, resolved.load.repeat) && !cancelled(); ++r) {
            if (!runPointRepeat(resolved, endpoint, p, r))
                return false;
        }
    }
    m_sim.stop();
    return true;
}

QList<int> RunWorker::countTokens(
    const QUrl &base, const QByteArray &key, const QString &model, const QStringList &texts)
{
    QList<int> counts(texts.size(), -1);
    QNetworkAccessManager nam;
    nam.setProxy(QNetworkProxy::NoProxy);
    QEventLoop loop;
    int pending = int(texts.size());
    QUrl url = base;
    url.setPath(QStringLiteral("/tokenize"));
    for (int i = 0; i < texts.size(); ++i) {
        QNetworkRequest req(url);
        req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        req.setTransferTimeout(15000);
        if (!key.isEmpty())
            req.setRawHeader("Authorization", "Bearer " + key);
        const QJsonObject body { { QStringLiteral("model"), model },
            { QStringLiteral("messages"),
                QJsonArray { QJsonObject {
                    { QStringLiteral("role"), QStringLiteral("user") }, { QStringLiteral("content"), texts[i] } } } } };
        QNetworkReply *reply = nam.post(req, QJsonDocument(body).toJson(QJsonDocument::Compact));
        QObject::connect(reply, &QNetworkReply::finished, &loop, [&, reply, i] {
            const QJsonObject o = QJsonDocument::fromJson(reply->readAll()).object();
            if (reply->error() == QNetworkReply::NoError && o.contains(QLatin1String("count")))
                counts[i] = o.value(QLatin1String("count")).toInt();
            reply->deleteLater();
            if (--pending == 0)
                loop.quit();
        });
    }
    if (pending > 0)
        loop.exec();
    return counts;
}

QByteArray RunWorker::serverCall(const EndpointConfig &endpoint, const QString &path, const QByteArray &postBody)
{
    QNetworkAccessManager nam;
    nam.setProxy(QNetworkProxy::NoProxy);
    QUrl url = endpoint.url;
    url.setPath(path);
    QNetworkRequest req(url);
    req.setTransferTimeout(5000);
    if (!endpoint.apiKey.isEmpty())
        req.setRawHeader("Authorization", "Bearer " + endpoint.apiKey);
    QNetworkReply *reply;
    if (postBody.isNull()) {
        reply = nam.get(req);
    } else {
        req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        reply = nam.post(req, postBody);
    }
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    loop.exec();
    const QByteArray body = reply->error() == QNetworkReply::NoError ? reply->readAll() : QByteArray();
    reply->deleteLater();
    return body;
}

void RunWorker::waitServerIdle(const EndpointConfig &endpoint)
{
    // METRICS.md: after warmup, wait until the server reports nothing running (when it has /metrics).
    QElapsedTimer waited;
    waited.start();
    while (!cancelled() && waited.elapsed() < 10000) {
        const QByteArray metrics = serverCall(endpoint, QStringLiteral("/metrics"));
        double running = 0;
        bool seen = false;
        for (const QByteArray &line : metrics.split('\n')) {
            if (!line.startsWith("vllm:num_requests_running"))
                continue;
            seen = true;
            running += line.mid(line.lastIndexOf(' ') + 1).toDouble();
        }
        if (!seen || running == 0)
            return;
        QEventLoop pause;
        QTimer::singleShot(50, &pause, &QEventLoop::quit);
        pause.exec();
    }
}

void RunWorker::resetPrefixCache(const Experiment &resolved, const EndpointConfig &endpoint)
{
    const QString path = resolved.server.engine == QLatin1String("sglang") ? QStringLiteral("/flush_cache")
                                                                           : QStringLiteral("/reset_prefix_cache");
    if (serverCall(endpoint, path, QByteArray("")).isNull())
        log(QStringLiteral("warning"), QStringLiteral("prefix cache reset via %1 failed").arg(path));
}

bool RunWorker::runPointRepeat(const Experiment &resolved, const EndpointConfig &endpoint, int point, int repeat)
{
    const LoadPoint &lp = resolved.load.points.at(point);
    m_snapshot.point = point;
    m_snapshot.pointLabel = resolved.pointLabel(point);
    m_snapshot.repeat = repeat;
    m_snapshot.phase = QStringLiteral("preparing prompts");
    Q_EMIT m_controller->snapshotUpdated(m_snapshot);

    const PromptGenerator prompts(resolved);
    TokenCounter counter;
    if (prompts.isChat()) {
        QUrl base = endpoint.url;
        const QByteArray key = endpoint.apiKey;
        const QString model = resolved.endpoint.model;
        counter = [this, base, key, model](const QStringList &texts) { return countTokens(base, key, model, texts); };
    }

    LoadSpec spec;
    const bool rate = resolved.load.mode == LoadMode::Rate;
    spec.mode = rate ? LoadSpec::Mode::Rate : LoadSpec::Mode::Concurrency;
    spec.concurrency = qMax(1, lp.concurrency);
    spec.requestRate = lp.requestRate;
    spec.burstiness = lp.burstiness;
    spec.maxConcurrency = lp.maxConcurrency;
    spec.runId = m_result.runId;
    spec.variant = m_snapshot.variant;
    spec.point = point;
    spec.repeat = repeat;
    spec.seed = PromptGenerator::seedFor(resolved.dataset.seed, point, repeat, false);

    if (resolved.load.resetPrefixCache)
        resetPrefixCache(resolved, endpoint);
    int warmupCount = 0;
    if (resolved.load.warmupRequests > 0) {
        m_snapshot.phase = QStringLiteral("warmup");
        const QList<PreparedRequest> warm
            = prompts.generate(point, repeat, true, resolved.load.warmupRequests, counter);
        LoadSpec warmSpec = spec;
        warmSpec.warmup = true;
        warmSpec.numPrompts = int(warm.size());
        warmSpec.maxSeconds = 0;
        QVector<RequestRecord> warmRecords;
        const LoadOutcome o
            = runLoad(endpoint, QVector<PreparedRequest>(warm.cbegin(), warm.cend()), warmSpec, &warmRecords);
        if (!o.ok) {
            m_result.message = o.message;
            log(QStringLiteral("error"), o.message);
            return false;
        }
        warmupCount = int(warmRecords.size());
        if (cancelled())
            return true;
        waitServerIdle(endpoint);
    }

    m_snapshot.phase = QStringLiteral("measuring");
    const int count = lp.numPrompts > 0 ? lp.numPrompts : kTimeOnlyPrompts;
    QList<int> measured;
    const QList<PreparedRequest> requests = prompts.generate(point, repeat, false, count, counter, &measured);
    spec.numPrompts = lp.numPrompts;
    spec.maxSeconds = lp.maxSeconds;
    QVector<RequestRecord> records;
    const LoadOutcome outcome
        = runLoad(endpoint, QVector<PreparedRequest>(requests.cbegin(), requests.cend()), spec, &records);
    if (!outcome.ok) {
        m_result.message = outcome.message;
        log(QStringLiteral("error"), outcome.message);
        return false;
    }
    m_snapshot.phase = QStringLiteral("saving");

    AggregateOptions opts;
    opts.profile
        = resolved.metrics.definitions == Definitions::Sglang ? DefinitionsProfile::Sglang : DefinitionsProfile::Vllm;
    opts.measuredStartNs = outcome.clockStartNs;
    opts.percentiles = QVector<double>(resolved.metrics.percentiles.cbegin(), resolved.metrics.percentiles.cend());
    opts.sloTtftMs = resolved.metrics.goodput.ttftMs.value_or(-1);
    opts.sloTpotMs = resolved.metrics.goodput.tpotMs.value_or(-1);
    opts.sloE2elMs = resolved.metrics.goodput.e2elMs.value_or(-1);
    opts.ignoreEos = resolved.dataset.ignoreEos;
    opts.targetInputLen = lp.inputLen;
    opts.targetOutputLen = lp.outputLen;
    std::sort(records.begin(), records.end(),
        [](const RequestRecord &a, const RequestRecord &b) { return a.index < b.index; });
    const PointResult result = aggregatePoint(records, opts);
    PointSummary summary = result.summary;
    summary.runId = m_result.runId;
    summary.variant = m_snapshot.variant;
    summary.point = point;
    summary.repeat = repeat;
    summary.label = m_snapshot.pointLabel;
    summary.mode = loadModeName(resolved.load.mode);
    summary.concurrency = rate ? lp.maxConcurrency : lp.concurrency;
    summary.requestRate = rate ? lp.requestRate : 0;
    summary.inputLen = lp.inputLen;
    summary.outputLen = lp.outputLen;
    summary.definitions = definitionsName(resolved.metrics.definitions);
    summary.warmup = warmupCount;
    m_writer->enqueue(summary);
    for (const Finding &f : result.findings) {
        log(QStringLiteral("finding"),
            QStringLiteral("%1 %2 r%3: %4%5 (value %6, threshold %7)")
                .arg(summary.variant, summary.label)
                .arg(repeat)
                .arg(f.code, f.metric.isEmpty() ? QString() : QLatin1Char(' ') + f.metric)
                .arg(f.value)
                .arg(f.threshold));
    }
    QString error;
    if (m_output.isOpen() && !m_output.writePoint(resolved, summary, records, outcome.clockStartNs, &error))
        log(QStringLiteral("error"), error);
    m_result.completed += summary.completed;
    m_result.failed += summary.failed;
    m_result.cancelled += summary.cancelled;
    m_result.points << summary;
    Q_EMIT m_controller->pointFinished(summary);
    return true;
}

LoadOutcome RunWorker::runLoad(const EndpointConfig &endpoint, const QVector<PreparedRequest> &requests,
    const LoadSpec &spec, QVector<RequestRecord> *records)
{
    QEventLoop loop;
    LoadOutcome outcome;
    const auto onRecord = QObject::connect(
        m_generator.get(), &LoadGenerator::requestFinished, &loop, [this, records](const RequestRecord &r) {
            records->append(r);
            m_writer->enqueue(r);
            observe(r);
        });
    const auto onProgress = QObject::connect(
        m_generator.get(), &LoadGenerator::progressed, &loop, [this](const LoadProgress &p) { publish(p); });
    const auto onFinished
        = QObject::connect(m_generator.get(), &LoadGenerator::finished, &loop, [&outcome, &loop](const LoadOutcome &o) {
              outcome = o;
              loop.quit();
          });
    m_generator->start(endpoint, requests, spec);
    if (cancelled())
        m_generator->cancel();
    loop.exec();
    QObject::disconnect(onRecord);
    QObject::disconnect(onProgress);
    QObject::disconnect(onFinished);
    publish(m_generator->progress());
    return outcome;
}

void RunWorker::observe(const RequestRecord &record)
{
    if (record.warmup)
        return;
    ++m_snapshot.requestsDone;
    if (record.status == RequestStatus::Failed)
        ++m_snapshot.errorsByClass[errorClassCode(record.errorClass)];
    if (!record.ok())
        return;
    std::vector<double> itl;
    const RequestMetrics m = deriveRequest(record, DefinitionsProfile::Vllm, &itl);
    if (!m.counted)
        return;
    m_rollTtft.emplace_back(record.endNs, m.ttft * 1000);
    for (double gap : itl)
        m_rollItl.emplace_back(record.endNs, gap * 1000);
    m_rollTokens.emplace_back(record.endNs, m.outputTokens);
}

void RunWorker::publish(const LoadProgress &progress)
{
    const qint64 now = monotonicNs();
    dropOlderThan(m_rollTtft, now - kRollingWindowNs);
    dropOlderThan(m_rollItl, now - kRollingWindowNs);
    dropOlderThan(m_rollTokens, now - kRollingWindowNs);
    std::vector<double> ttft, itl;
    ttft.reserve(m_rollTtft.size());
    itl.reserve(m_rollItl.size());
    for (const auto &v : m_rollTtft)
        ttft.push_back(v.second);
    for (const auto &v : m_rollItl)
        itl.push_back(v.second);
    qint64 tokens = 0;
    for (const auto &v : m_rollTokens)
        tokens += v.second;
    const double windowS = std::min(double(kRollingWindowNs), double(m_clock.nsecsElapsed())) / 1e9;
    m_snapshot.ttftP50Ms = percentileOf(ttft, 50);
    m_snapshot.ttftP99Ms = percentileOf(ttft, 99);
    m_snapshot.itlP50Ms = percentileOf(itl, 50);
    m_snapshot.itlP99Ms = percentileOf(itl, 99);
    m_snapshot.outputTokensPerS = windowS > 0 ? tokens / windowS : 0;
    m_snapshot.requestsPerS = windowS > 0 ? m_rollTtft.size() / windowS : 0;
    m_snapshot.inFlight = progress.inFlight;
    m_snapshot.completed = m_result.completed + progress.completed;
    m_snapshot.failed = m_result.failed + progress.failed;
    m_snapshot.cancelled = m_result.cancelled + progress.cancelled;
    m_snapshot.elapsedNs = m_clock.nsecsElapsed();
    const double elapsedS = m_snapshot.elapsedNs / 1e9;
    if (m_snapshot.requestsDone > 0 && m_snapshot.requestsPlanned > m_snapshot.requestsDone)
        m_snapshot.etaSeconds
            = elapsedS * (m_snapshot.requestsPlanned - m_snapshot.requestsDone) / m_snapshot.requestsDone;
    else
        m_snapshot.etaSeconds = m_snapshot.requestsPlanned > 0 ? 0 : -1;
    Q_EMIT m_controller->snapshotUpdated(m_snapshot);
}

QJsonObject RunWorker::manifest(const QString &status) const
{
    QJsonObject m;
    m.insert(QStringLiteral("servescope_version"), QStringLiteral(SERVESCOPE_VERSION));
    m.insert(QStringLiteral("run_id"), double(m_result.runId));
    m.insert(QStringLiteral("status"), status);
    m.insert(QStringLiteral("started"), m_started);
    m.insert(QStringLiteral("finished"), isoNow());
    m.insert(QStringLiteral("definitions"), definitionsName(m_experiment.metrics.definitions));
    // The experiment JSON names the key's variable or keychain entry, never the key.
    m.insert(QStringLiteral("experiment"), QJsonDocument::fromJson(serializeExperiment(m_experiment)).object());
    QJsonArray env;
    for (const EnvEntry &e : m_experiment.envSnapshot)
        env.append(QJsonArray { e.key, e.value, envSourceName(e.source) });
    m.insert(QStringLiteral("env_snapshot"), env);
    m.insert(QStringLiteral("client_host"), m_clientHost);
    if (!m_simArguments.isEmpty())
        m.insert(QStringLiteral("simulator_arguments"), QJsonArray::fromStringList(m_simArguments));
    m.insert(QStringLiteral("completed"), m_result.completed);
    m.insert(QStringLiteral("failed"), m_result.failed);
    m.insert(QStringLiteral("cancelled"), m_result.cancelled);
    return m;
}

} // namespace ServeScope

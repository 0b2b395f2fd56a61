// SPDX-License-Identifier: MIT
// The steps of a Preflight after the first stream: the same stream read as `run` reads it, then the
// smoke probes (/tokenize, /metrics, ignore_eos).
#include "preflight.h"

#include "engine/loadgenerator.h"
#include "metrics/clienthealth.h"
#include "metrics/findings.h"
#include "model/apirequest.h"
#include "model/urls.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkProxy>
#include <QNetworkReply>

namespace ServeScope {

namespace {
constexpr int kRunStreams = 2; // the second reuses the first's connection, as a run's requests do
constexpr int kIgnoreEosTokens = 64;
constexpr int kArrivalTokens = 32;
} // namespace

QByteArray Preflight::streamBody(int maxTokens) const
{
    const Api api = apiForPath(m_request.path);
    QJsonObject body
        = generationBody(api, m_request.dialect, m_request.model, QStringLiteral("Say hello."), maxTokens, true);
    setSamplingField(api, &body, QStringLiteral("temperature"), 0.0);
    return QJsonDocument(body).toJson(QJsonDocument::Compact);
}

EndpointConfig Preflight::engineEndpoint() const
{
    EndpointConfig endpoint = m_request.endpoint;
    const double s = m_request.timeoutMs / 1000.0;
    endpoint.timeouts = Timeouts { s, s, s, 0 };
    return endpoint;
}

void Preflight::runStreams(
    const QByteArray &body, int maxTokens, int count, void (Preflight::*done)(const LoadOutcome &))
{
    LoadSpec spec;
    spec.mode = LoadMode::Concurrency;
    spec.load.concurrency = 1;
    spec.load.numPrompts = count;
    m_runRecords.clear();
    delete m_engine;
    m_engine = new LoadGenerator(1, this);
    connect(m_engine, &LoadGenerator::requestFinished, this, [this](const RequestRecord &r) { m_runRecords << r; });
    connect(m_engine, &LoadGenerator::finished, this, done);
    m_engine->start(engineEndpoint(), { PreparedRequest { body, 0, maxTokens, {} } }, spec);
}

void Preflight::readStreamsAsRun()
{
    runStreams(streamBody(4), 4, kRunStreams, &Preflight::onRunStreamsFinished);
}

void Preflight::onRunStreamsFinished(const LoadOutcome &outcome)
{
    if (m_done)
        return;
    if (!outcome.ok)
        return finish(
            Diagnosis::StreamFailed, QStringLiteral("the run's transport could not start: ") + outcome.message);
    for (qsizetype i = 0; i < m_runRecords.size(); ++i) {
        const RequestRecord &r = m_runRecords.at(i);
        if (r.status == RequestStatus::Ok) {
            ++m_result.runStreams;
            if (m_informational) { // the first reader stopped at an interim answer: these streams tell
                m_result.streamed = true;
                m_result.usageSent = !r.outputEstimated;
                m_result.completionTokens = r.completionTokens;
            }
            continue;
        }
        const QString evidence = QStringLiteral("stream %1 of %2 read as a run reads it failed as %3: %4")
                                     .arg(i + 1)
                                     .arg(kRunStreams)
                                     .arg(errorClassCode(r.errorClass), r.errorText);
        if (r.errorText.startsWith(QLatin1String("response longer than"))
            || r.errorText.startsWith(QLatin1String("response shorter than")))
            return finish(Diagnosis::LengthMismatch, evidence);
        if (r.errorText.startsWith(QLatin1String("stream truncated")))
            return finish(Diagnosis::StreamTruncated, evidence);
        return finish(Diagnosis::StreamFailed, evidence);
    }
    if (m_result.runStreams < kRunStreams)
        return finish(Diagnosis::StreamFailed,
            QStringLiteral("%1 of %2 streams read as a run reads them finished")
                .arg(m_result.runStreams)
                .arg(kRunStreams));
    if (m_request.smoke)
        probeTokenize();
    else
        finish(Diagnosis::Ok);
}

void Preflight::probeTokenize()
{
    const QJsonObject body { { QStringLiteral("model"), m_request.model },
        { QStringLiteral("prompt"), QStringLiteral("one two three") } };
    QNetworkReply *reply = send(QStringLiteral("/tokenize"), QJsonDocument(body).toJson(QJsonDocument::Compact));
    connect(reply, &QNetworkReply::finished, this, [this, reply] {
        reply->deleteLater();
        if (m_done)
            return;
        const QJsonObject o = QJsonDocument::fromJson(reply->readAll()).object();
        m_result.tokenizeAvailable = o.contains(QLatin1String("count")) || o.contains(QLatin1String("tokens")) ? 1 : 0;
        probeMetrics();
    });
}

void Preflight::probeMetrics()
{
    QNetworkReply *reply = send(QStringLiteral("/metrics"), QByteArray());
    connect(reply, &QNetworkReply::finished, this, [this, reply] {
        reply->deleteLater();
        if (m_done)
            return;
        m_result.metricsAvailable = reply->readAll().contains("vllm:") ? 1 : 0;
        probeIgnoreEos();
    });
}

void Preflight::probeIgnoreEos()
{
    // On the endpoint's own path (a chat-only gateway has no /v1/completions), with a prompt a model
    // answers in a word or two: only an honoured ignore_eos makes it write all the tokens.
    const Api api = apiForPath(m_request.path);
    QJsonObject body = generationBody(api, m_request.dialect, m_request.model,
        QStringLiteral("Reply with the single word OK."), kIgnoreEosTokens, false);
    setSamplingField(api, &body, QStringLiteral("ignore_eos"), true);
    setSamplingField(api, &body, QStringLiteral("temperature"), 0.0);
    QNetworkReply *reply = send(m_request.path, QJsonDocument(body).toJson(QJsonDocument::Compact));
    connect(reply, &QNetworkReply::finished, this, [this, reply] {
        reply->deleteLater();
        if (m_done)
            return;
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const AnswerUsage usage
            = answerUsage(apiForPath(m_request.path), QJsonDocument::fromJson(reply->readAll()).object());
        if (status >= 400 && status < 500)
            m_result.ignoreEosHonoured = 0; // refused: a run that sends it fails every request
        else if (usage.outputTokens >= 0)
            m_result.ignoreEosHonoured = usage.outputTokens == kIgnoreEosTokens ? 1 : 0;
        probeStreamArrival();
    });
}

void Preflight::probeStreamArrival()
{
    // Long enough to tell a buffered stream from one sent token by token; ignore_eos where honoured.
    QJsonObject body = QJsonDocument::fromJson(streamBody(kArrivalTokens)).object();
    if (m_result.ignoreEosHonoured == 1)
        setSamplingField(apiForPath(m_request.path), &body, QStringLiteral("ignore_eos"), true);
    runStreams(
        QJsonDocument(body).toJson(QJsonDocument::Compact), kArrivalTokens, 1, &Preflight::onArrivalStreamFinished);
}

void Preflight::onArrivalStreamFinished(const LoadOutcome &)
{
    if (m_done)
        return;
    PointSummary point;
    point.client = streamArrival(std::span<const RequestRecord>(m_runRecords.constData(), m_runRecords.size()));
    if (!point.client.isEmpty()) {
        m_result.streamBuffered = bufferedStream(point) ? 1 : 0;
        m_result.eventsPerRead = point.client.value(QStringLiteral("stream_events_per_read"));
    }
    finish(Diagnosis::Ok);
}

} // namespace ServeScope

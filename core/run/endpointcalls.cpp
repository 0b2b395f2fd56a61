// SPDX-License-Identifier: MIT
#include "endpointcalls.h"

#include "metrics/servermetrics.h"
#include "model/urls.h"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTimer>

#include <optional>

#include <functional>

namespace ServeScope {

namespace {
constexpr int kDefaultTimeoutMs = 15000;
constexpr int kTokenizeInFlight = 16;
} // namespace

EndpointCalls::EndpointCalls(const EndpointConfig &endpoint, const QUrl &baseUrl, const QString &model)
    : m_endpoint(endpoint)
    , m_base(baseUrl)
    , m_model(model)
    , m_timeoutMs(endpoint.timeouts.idleS > 0 ? int(endpoint.timeouts.idleS * 1000) : kDefaultTimeoutMs)
    , m_nam(std::make_unique<QNetworkAccessManager>())
{
    m_nam->setProxy(endpoint.useProxy ? endpoint.proxy : QNetworkProxy(QNetworkProxy::NoProxy));
}

EndpointCalls::~EndpointCalls() = default;

QNetworkRequest EndpointCalls::request(const QString &path) const
{
    QNetworkRequest req(joinUrlPath(m_base, path));
    req.setTransferTimeout(m_timeoutMs);
    for (const auto &[name, value] : endpointHeaders(m_endpoint))
        req.setRawHeader(name, value);
    return req;
}

QList<int> EndpointCalls::countTokens(const QStringList &texts)
{
    QList<int> counts(texts.size(), -1);
    QEventLoop loop;
    int pending = int(texts.size());
    int next = 0;
    // At most kTokenizeInFlight at a time: a point of 100k prompts must not open 100k requests at once.
    std::function<void()> sendNext = [&] {
        if (next >= texts.size())
            return;
        const int i = next++;
        QNetworkRequest req = request(QStringLiteral("/tokenize"));
        req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        const QJsonObject message { { QStringLiteral("role"), QStringLiteral("user") },
            { QStringLiteral("content"), texts[i] } };
        const QJsonObject body { { QStringLiteral("model"), m_model },
            { QStringLiteral("messages"), QJsonArray { message } } };
        QNetworkReply *reply = m_nam->post(req, QJsonDocument(body).toJson(QJsonDocument::Compact));
        QObject::connect(reply, &QNetworkReply::finished, &loop, [&, reply, i] {
            const QJsonObject o = QJsonDocument::fromJson(reply->readAll()).object();
            if (reply->error() == QNetworkReply::NoError && o.contains(QLatin1String("count")))
                counts[i] = o.value(QLatin1String("count")).toInt();
            reply->deleteLater();
            if (--pending == 0)
                loop.quit();
            else
                sendNext();
        });
    };
    for (int k = 0; k < kTokenizeInFlight; ++k)
        sendNext();
    if (pending > 0)
        loop.exec();
    return counts;
}

QByteArray EndpointCalls::call(const QString &path, const QByteArray &postBody)
{
    QNetworkRequest req = request(path);
    QNetworkReply *reply;
    if (postBody.isNull()) {
        reply = m_nam->get(req);
    } else {
        req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        reply = m_nam->post(req, postBody);
    }
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    loop.exec();
    const QByteArray body = reply->error() == QNetworkReply::NoError ? reply->readAll() : QByteArray();
    reply->deleteLater();
    return body;
}

bool EndpointCalls::hasTokenize()
{
    if (!m_hasTokenize) {
        const QJsonObject body { { QStringLiteral("model"), m_model },
            { QStringLiteral("prompt"), QStringLiteral("hi") } };
        const QByteArray reply = call(QStringLiteral("/tokenize"), QJsonDocument(body).toJson(QJsonDocument::Compact));
        m_hasTokenize = QJsonDocument::fromJson(reply).object().contains(QLatin1String("count"));
    }
    return *m_hasTokenize;
}

void EndpointCalls::countTextTokens(const QString &text, QObject *context, std::function<void(int)> done)
{
    m_countQueue.push_back({ text, context, std::move(done) });
    pumpCounts();
}

void EndpointCalls::pumpCounts()
{
    while (m_countsInFlight < kTokenizeInFlight && !m_countQueue.empty()) {
        PendingCount job = std::move(m_countQueue.front());
        m_countQueue.pop_front();
        ++m_countsInFlight;
        QNetworkRequest req = request(QStringLiteral("/tokenize"));
        req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        // vLLM adds a BOS token to a plain prompt unless told not to; an output has none.
        const QJsonObject body { { QStringLiteral("model"), m_model }, { QStringLiteral("prompt"), job.text },
            { QStringLiteral("add_special_tokens"), false } };
        QNetworkReply *reply = m_nam->post(req, QJsonDocument(body).toJson(QJsonDocument::Compact));
        // The reply belongs to m_nam, so this connection cannot outlive `this`.
        QObject::connect(reply, &QNetworkReply::finished, reply, [this, reply, job] {
            const QJsonObject o = QJsonDocument::fromJson(reply->readAll()).object();
            const int n = reply->error() == QNetworkReply::NoError && o.contains(QLatin1String("count"))
                ? o.value(QLatin1String("count")).toInt()
                : -1;
            reply->deleteLater();
            --m_countsInFlight;
            if (job.context)
                job.done(n);
            pumpCounts();
        });
    }
}

namespace {

// Requests the server is running, from vLLM's or SGLang's gauge; nullopt when it has neither.
std::optional<double> runningRequests(const QByteArray &metrics)
{
    std::optional<double> running;
    for (const ServerSample &s : parsePrometheusText(metrics, 0)) {
        if (s.name == QLatin1String("vllm:num_requests_running") || s.name == QLatin1String("sglang:num_running_reqs"))
            running = running.value_or(0) + s.value;
    }
    return running;
}

} // namespace

bool EndpointCalls::hasRunningMetric()
{
    return runningRequests(call(QStringLiteral("/metrics"))).has_value();
}

void EndpointCalls::waitUntilIdle(const std::atomic<bool> &cancelled, int maxMs)
{
    QElapsedTimer waited;
    waited.start();
    while (!cancelled.load() && waited.elapsed() < maxMs) {
        const std::optional<double> running = runningRequests(call(QStringLiteral("/metrics")));
        if (!running || *running == 0)
            return;
        QEventLoop pause;
        QTimer::singleShot(50, &pause, &QEventLoop::quit);
        pause.exec();
    }
}

bool EndpointCalls::resetPrefixCache(const QString &engine, QString *path)
{
    *path = engine == QLatin1String("sglang") ? QStringLiteral("/flush_cache") : QStringLiteral("/reset_prefix_cache");
    return !call(*path, QByteArray("")).isNull();
}

} // namespace ServeScope

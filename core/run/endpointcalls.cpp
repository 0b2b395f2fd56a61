// SPDX-License-Identifier: MIT
#include "endpointcalls.h"
#include "engine/streamstate.h"
#include "model/records.h"

#include "model/apirequest.h"

#include "metrics/servermetrics.h"
#include "model/urls.h"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QRegularExpression>
#include <QTimer>

#include <cmath>
#include <functional>
#include <mutex>
#include <optional>

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

void execUnlessCancelled(QEventLoop &loop, QNetworkAccessManager &nam, const std::atomic<bool> *cancelled)
{
    QTimer poll;
    QObject::connect(&poll, &QTimer::timeout, &loop, [&loop, &nam, cancelled] {
        if (!cancelled->load())
            return;
        for (QNetworkReply *reply : nam.findChildren<QNetworkReply *>())
            reply->abort();
        loop.quit();
    });
    if (cancelled)
        poll.start(50);
    if (!cancelled || !cancelled->load())
        loop.exec();
}

void EndpointCalls::exec(QEventLoop &loop)
{
    execUnlessCancelled(loop, *m_nam, m_cancelled);
}

QNetworkRequest EndpointCalls::request(const QString &path) const
{
    QNetworkRequest req = sideRequest(m_endpoint, joinUrlPath(m_base, path), m_timeoutMs);
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
        if (next >= texts.size() || cancelled())
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
        exec(loop);
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
    exec(loop);
    const QByteArray body = reply->error() == QNetworkReply::NoError ? reply->readAll() : QByteArray();
    reply->deleteLater();
    return body;
}

int PromptCalibration::estimate(qsizetype words) const
{
    return std::max(1, int(std::lround(overhead + perWord * double(words))));
}

namespace {

QStringList wordsOf(const QString &text)
{
    static const QRegularExpression space(QStringLiteral("\\s+"));
    return text.split(space, Qt::SkipEmptyParts);
}

// Least squares through (words, tokens); nullopt without two distinct word counts or a positive slope.
std::optional<PromptCalibration> fit(const QList<QPair<double, double>> &points)
{
    const double n = double(points.size());
    double sw = 0, st = 0;
    for (const auto &[w, t] : points) {
        sw += w;
        st += t;
    }
    double cov = 0, var = 0;
    for (const auto &[w, t] : points) {
        cov += (w - sw / n) * (t - st / n);
        var += (w - sw / n) * (w - sw / n);
    }
    if (points.size() < 2 || !(var > 0) || !(cov > 0))
        return std::nullopt;
    PromptCalibration c;
    c.perWord = cov / var;
    c.overhead = st / n - c.perWord * sw / n;
    return c;
}

} // namespace

std::optional<PromptCalibration> EndpointCalls::calibration(const QString &sample)
{
    static std::mutex mutex;
    static QHash<QString, std::optional<PromptCalibration>> cache;
    const QString key = m_endpoint.url.toString() + u'\n' + m_model;
    {
        const std::lock_guard lock(mutex);
        if (const auto it = cache.constFind(key); it != cache.cend())
            return *it;
    }
    const QStringList words = wordsOf(sample);
    // A sample too short to tell the template from the words calibrates nothing, and is not cached:
    // a later, longer one may.
    constexpr qsizetype kMinSampleWords = 8;
    if (words.size() < kMinSampleWords)
        return std::nullopt;
    const Api api = m_endpoint.api();
    QList<QPair<double, double>> points;
    int answered = 0; // 2xx replies, with or without usage
    for (const qsizetype n : { words.size() / 4, words.size() / 2, words.size() }) {
        if (n < 1 || cancelled())
            continue;
        const QString text = QStringList(words.mid(0, n)).join(u' ');
        // max_tokens (SGLang's spelling) on chat: every chat server takes it.
        QJsonObject body = generationBody(api, Dialect::Sglang, m_model, text, 1, false);
        setSamplingField(api, &body, QStringLiteral("temperature"), 0);
        QNetworkRequest req = sideRequest(m_endpoint, m_endpoint.url, m_timeoutMs);
        req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        QNetworkReply *reply = m_nam->post(req, QJsonDocument(body).toJson(QJsonDocument::Compact));
        QEventLoop loop;
        QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
        exec(loop);
        const AnswerUsage usage = answerUsage(api, QJsonDocument::fromJson(reply->readAll()).object());
        answered += reply->error() == QNetworkReply::NoError ? 1 : 0;
        if (reply->error() == QNetworkReply::NoError && usage.promptTokens > 0)
            points.append({ double(n), double(usage.promptTokens) });
        reply->deleteLater();
    }
    if (cancelled()) // an aborted probe is no answer: nothing is cached
        return std::nullopt;
    const std::optional<PromptCalibration> c = fit(points);
    // A fit, or three answers without usage, is the endpoint's answer; a failed request (a server
    // still starting, a refused key) is not, and the next point asks again.
    if (c || answered == 3) {
        const std::lock_guard lock(mutex);
        cache.insert(key, c);
    }
    return c;
}

QList<int> EndpointCalls::promptTokens(const QStringList &texts, bool *estimated)
{
    if (estimated)
        *estimated = false;
    if (hasTokenize())
        return countTokens(texts);
    QList<int> out(texts.size(), -1);
    if (texts.isEmpty())
        return out;
    // The longest text calibrates best: the template's share is smallest against its words.
    qsizetype longest = 0;
    for (qsizetype i = 1; i < texts.size(); ++i)
        longest = texts[i].size() > texts[longest].size() ? i : longest;
    const std::optional<PromptCalibration> c = calibration(texts[longest]);
    if (!c)
        return out;
    if (estimated)
        *estimated = true;
    for (qsizetype i = 0; i < texts.size(); ++i)
        out[i] = c->estimate(wordsOf(texts[i]).size());
    return out;
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

void countEstimatedTokens(EndpointCalls *tokenizer, QObject *context, RequestRecord r,
    const std::function<void(const RequestRecord &)> &done, bool outputCounted)
{
    const auto countable = [&](const QByteArray &utf8) {
        // Not cut at the engine's limit (in characters).
        return tokenizer && r.ok() && !utf8.isEmpty() && QString::fromUtf8(utf8).size() < kMaxKeptTextChars;
    };
    const bool output = !outputCounted && r.outputEstimated && countable(r.generatedText);
    if (!output && !(r.reasoningEstimated && countable(r.reasoningText))) {
        r.reasoningText.clear();
        return done(r);
    }
    const QString text = QString::fromUtf8(output ? r.generatedText : r.reasoningText);
    tokenizer->countTextTokens(text, context, [=, r = std::move(r)](int tokens) mutable {
        if (tokens >= 0 && output) {
            r.completionTokens = tokens;
            // Exact without usage; a server whose usage contradicted its stream leaves it an estimate.
            r.outputEstimated = r.usageOutputSetAside >= 0;
        } else if (tokens >= 0) {
            r.reasoningTokens = tokens;
        }
        if (output)
            return countEstimatedTokens(tokenizer, context, std::move(r), done, true);
        r.reasoningText.clear();
        done(r);
    });
}

} // namespace ServeScope

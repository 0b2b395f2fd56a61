// SPDX-License-Identifier: MIT
#include "serverscraper.h"
#include "endpointcalls.h"
#include "runtext.h"

#include "model/clock.h"
#include "model/urls.h"
#include "storage/storewriter.h"

#include <QEventLoop>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QScopeGuard>

#include <algorithm>
#include <utility>

namespace ServeScope {

ServerScraper::ServerScraper(
    const EndpointConfig &endpoint, const QUrl &baseUrl, const QUrl &dcgmUrl, qint64 runId, StoreWriter &writer)
    : m_endpoint(endpoint)
    , m_runId(runId)
    , m_writer(writer)
{
    m_sources.append({ joinUrlPath(baseUrl, QStringLiteral("/metrics")), true });
    if (dcgmUrl.isValid() && !dcgmUrl.isEmpty())
        m_sources.append({ dcgmUrl, false }); // another service: the endpoint's headers are not its business
    m_nam.setProxy(endpoint.useProxy ? endpoint.proxy : QNetworkProxy(QNetworkProxy::NoProxy));
    m_timer.setInterval(1000);
    connect(&m_timer, &QTimer::timeout, this, qOverload<>(&ServerScraper::scrape));
}

void ServerScraper::start()
{
    scrape();
    m_timer.start();
}

void ServerScraper::stop()
{
    m_timer.stop();
}

bool ServerScraper::inFlight() const
{
    return std::any_of(m_sources.cbegin(), m_sources.cend(), [](const Source &s) { return s.inFlight; });
}

void ServerScraper::scrapeAndWait()
{
    QEventLoop loop;
    connect(this, &ServerScraper::scraped, &loop, [this, &loop] {
        if (!inFlight())
            loop.quit();
    });
    const auto cancelled = [this] { return m_cancelled && m_cancelled->load(); };
    if (inFlight())
        execUnlessCancelled(loop, m_nam, m_cancelled); // those sent earlier land first
    if (cancelled())
        return;
    scrape();
    if (inFlight())
        execUnlessCancelled(loop, m_nam, m_cancelled);
    // A point ends: a /metrics that has not answered by now is missing for this point.
    if (!m_sources.first().answered)
        keepLog();
}

void ServerScraper::addLogSamples(const QList<ServerSample> &samples)
{
    const Source &metrics = m_sources.first();
    if (metrics.answered)
        return;
    m_pendingLog.insert(m_pendingLog.end(), samples.cbegin(), samples.cend());
    while (m_pendingLog.size() > kMaxKeptSamples)
        m_pendingLog.pop_front();
    if (metrics.gone)
        keepLog();
}

void ServerScraper::keepLog()
{
    if (!m_pendingLog.empty() && !std::exchange(m_saidLog, true))
        Q_EMIT logged(QStringLiteral("info"),
            RunText::tr("%1 did not answer with known series: the server's running and waiting requests and KV "
                        "cache usage come from its scheduler log lines")
                .arg(m_sources.first().url.toString()));
    for (const ServerSample &s : m_pendingLog) {
        m_writer.enqueue(ServerMetricSample { m_runId, s.timeNs, s.name, s.labels, s.value, QStringLiteral("log") });
        m_log.push_back(s);
    }
    m_pendingLog.clear();
    while (m_log.size() > kMaxKeptSamples)
        m_log.pop_front();
}

void ServerScraper::scrape()
{
    for (Source &s : m_sources)
        scrape(s);
}

void ServerScraper::scrape(Source &source)
{
    if (source.inFlight || source.gone)
        return;
    const QNetworkRequest req = sideRequest(
        m_endpoint, source.url, 2000, source.withHeaders ? SideHeaders::Endpoint : SideHeaders::NoHeaders);
    QNetworkReply *reply = m_nam.get(req);
    source.inFlight = true;
    // A hostile or broken server cannot make a scrape hold more than kMaxBodyBytes.
    connect(reply, &QNetworkReply::downloadProgress, reply, [reply](qint64 received, qint64) {
        if (received > kMaxBodyBytes)
            reply->abort();
    });
    Source *s = &source; // m_sources does not change after construction
    connect(reply, &QNetworkReply::finished, this, [this, reply, s] {
        reply->deleteLater();
        s->inFlight = false;
        const auto done = qScopeGuard([this] { Q_EMIT scraped(); });
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        if (reply->error() != QNetworkReply::NoError) {
            // No such route: nothing to scrape there. Anything else may pass.
            if (!s->answered && (status == 404 || status == 405))
                s->gone = true;
            return;
        }
        const qint64 now = monotonicNs();
        const QList<ServerSample> samples = parsePrometheusText(reply->readAll(), now);
        if (samples.isEmpty()) {
            s->gone = !s->answered;
            return;
        }
        s->answered = true;
        if (s == &m_sources.first())
            m_pendingLog.clear(); // the server's own series: its log is not needed
        for (const ServerSample &sample : samples) {
            m_writer.enqueue(ServerMetricSample { m_runId, sample.timeNs, sample.name, sample.labels, sample.value });
            m_samples.push_back(sample);
        }
        while (m_samples.size() > kMaxKeptSamples)
            m_samples.pop_front();
    });
}

void ServerScraper::forgetBefore(qint64 ns)
{
    for (std::deque<ServerSample> *kept : { &m_samples, &m_log })
        while (!kept->empty() && kept->front().timeNs < ns)
            kept->pop_front();
}

QMap<QString, double> ServerScraper::summarize(const ServerWindow &window) const
{
    std::vector<ServerSample> samples(m_samples.cbegin(), m_samples.cend());
    const std::vector<ServerSample> log(m_log.cbegin(), m_log.cend());
    samples.insert(samples.end(), log.cbegin(), log.cend());
    QMap<QString, double> out = summarizeServerSeries(samples, window);
    if (!log.empty() && !summarizeServerSeries(log, window).isEmpty())
        out.insert(QStringLiteral("from_log"), 1);
    return out;
}

} // namespace ServeScope

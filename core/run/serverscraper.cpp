// SPDX-License-Identifier: MIT
#include "serverscraper.h"

#include "model/clock.h"
#include "model/urls.h"
#include "storage/storewriter.h"

#include <QEventLoop>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QScopeGuard>

namespace ServeScope {

ServerScraper::ServerScraper(const EndpointConfig &endpoint, const QUrl &baseUrl, qint64 runId, StoreWriter &writer)
    : m_endpoint(endpoint)
    , m_url(joinUrlPath(baseUrl, QStringLiteral("/metrics")))
    , m_runId(runId)
    , m_writer(writer)
{
    m_nam.setProxy(endpoint.useProxy ? endpoint.proxy : QNetworkProxy(QNetworkProxy::NoProxy));
    m_timer.setInterval(1000);
    connect(&m_timer, &QTimer::timeout, this, &ServerScraper::scrape);
}

void ServerScraper::start()
{
    if (m_gone)
        return;
    scrape();
    m_timer.start();
}

void ServerScraper::stop()
{
    m_timer.stop();
}

void ServerScraper::scrapeAndWait()
{
    QEventLoop loop;
    connect(this, &ServerScraper::scraped, &loop, &QEventLoop::quit);
    if (m_inFlight)
        loop.exec(); // one sent earlier lands first
    scrape();
    if (m_inFlight)
        loop.exec();
}

void ServerScraper::scrape()
{
    if (m_inFlight || m_gone)
        return;
    QNetworkRequest req(m_url);
    req.setTransferTimeout(2000);
    for (const auto &[name, value] : endpointHeaders(m_endpoint))
        req.setRawHeader(name, value);
    QNetworkReply *reply = m_nam.get(req);
    m_inFlight = true;
    // A hostile or broken server cannot make a scrape hold more than kMaxBodyBytes.
    connect(reply, &QNetworkReply::downloadProgress, reply, [reply](qint64 received, qint64) {
        if (received > kMaxBodyBytes)
            reply->abort();
    });
    connect(reply, &QNetworkReply::finished, this, [this, reply] {
        reply->deleteLater();
        m_inFlight = false;
        const auto done = qScopeGuard([this] { Q_EMIT scraped(); });
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        if (reply->error() != QNetworkReply::NoError) {
            // No such route: nothing to scrape from this server. Anything else may pass.
            if (!m_answered && (status == 404 || status == 405))
                m_gone = true;
            return;
        }
        const qint64 now = monotonicNs();
        const QList<ServerSample> samples = parsePrometheusText(reply->readAll(), now);
        if (samples.isEmpty()) {
            m_gone = !m_answered;
            return;
        }
        m_answered = true;
        for (const ServerSample &s : samples) {
            m_writer.enqueue(ServerMetricSample { m_runId, s.timeNs, s.name, s.labels, s.value });
            m_samples.push_back(s);
        }
        while (m_samples.size() > kMaxKeptSamples)
            m_samples.pop_front();
    });
}

QMap<QString, double> ServerScraper::summarize(const ServerWindow &window) const
{
    const std::vector<ServerSample> samples(m_samples.cbegin(), m_samples.cend());
    return summarizeServerSeries(samples, window);
}

} // namespace ServeScope

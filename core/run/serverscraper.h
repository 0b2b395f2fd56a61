// SPDX-License-Identifier: MIT
#pragma once

#include "engine/engineconfig.h"
#include "metrics/servermetrics.h"

#include <QMap>
#include <QNetworkAccessManager>
#include <QObject>
#include <QTimer>
#include <QUrl>

#include <atomic>
#include <deque>

namespace ServeScope {

class StoreWriter;

/// Scrapes the server's Prometheus `/metrics` (relative to the base URL, with the endpoint's
/// headers) about once a second while a variant runs, on the run thread; keeps the series
/// ServeScope reads (isServerSeries), stores each sample in the project, and summarises any window
/// of them for a point; likewise a DCGM exporter's URL when the experiment names one. A source
/// without usable metrics (404 or no known series in its first answer) is asked once. For a server
/// ServeScope launched, its scheduler log lines stand in for a `/metrics` that never answered.
class ServerScraper final : public QObject {
    Q_OBJECT
public:
    /// `dcgmUrl`: a DCGM exporter's metrics URL scraped beside it (no endpoint headers); empty: none.
    ServerScraper(
        const EndpointConfig &endpoint, const QUrl &baseUrl, const QUrl &dcgmUrl, qint64 runId, StoreWriter &writer);

    void start();
    void stop();
    /// Scrapes now and waits for the answer (at most the 2 s scrape timeout): at a point's start
    /// and end, so every point has the two samples a counter's delta needs. Once `cancelled` (see
    /// setCancel) is set it aborts the scrape within 50 ms instead.
    void scrapeAndWait();
    void setCancel(const std::atomic<bool> *cancelled) { m_cancelled = cancelled; }
    /// The point summary of the samples scraped in the window (monotonic ns), with `from_log` = 1
    /// when scheduler log samples gave some of it.
    QMap<QString, double> summarize(const ServerWindow &window) const;
    /// Drops the samples (scraped and from the log) taken before `ns`: a point's windows all start
    /// at its own first scrape, so what came before it is never summarised again.
    void forgetBefore(qint64 ns);
    /// A launched server's scheduler log samples (schedulerlog.h), the fallback series: held back
    /// while the server's `/metrics` has not answered, stored (source "log") and summarised once it
    /// is known to be missing or, at the latest, when a point ends without it having answered; dropped
    /// once it answers.
    void addLogSamples(const QList<ServerSample> &samples);

    /// Largest reply body read; a longer one is aborted and the scrape skipped.
    static constexpr qint64 kMaxBodyBytes = 8 * 1024 * 1024;
    /// Samples kept in memory for the point under way (about an hour of a busy vLLM at 1 Hz).
    static constexpr size_t kMaxKeptSamples = 200000;

Q_SIGNALS:
    void scraped();
    /// Once, when the log's samples start to stand in for the server's /metrics.
    void logged(const QString &level, const QString &text);

private:
    struct Source {
        QUrl url;
        bool withHeaders = true;
        bool inFlight = false;
        bool answered = false; ///< at least one scrape returned known series
        bool gone = false; ///< no usable metrics there: stop asking
    };
    void scrape();
    void scrape(Source &source);
    bool inFlight() const;
    /// Stores and keeps the held-back log samples.
    void keepLog();

    EndpointConfig m_endpoint;
    QList<Source> m_sources;
    qint64 m_runId;
    StoreWriter &m_writer;
    QNetworkAccessManager m_nam;
    QTimer m_timer;
    std::deque<ServerSample> m_samples;
    std::deque<ServerSample> m_pendingLog, m_log;
    bool m_saidLog = false;
    const std::atomic<bool> *m_cancelled = nullptr;
};

} // namespace ServeScope

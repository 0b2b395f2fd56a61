// SPDX-License-Identifier: MIT
// Runs one LoadGenerator point to the end (or cancels it) and collects what it emitted.
#pragma once

#include "engine/loadgenerator.h"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTimer>

#include <algorithm>

namespace ServeScope::Testing {

struct PointResult {
    QVector<RequestRecord> records;
    QVector<LoadProgress> progress;
    LoadOutcome outcome;
    bool timedOut = false;
    int inFlightAtCancel = -1;
};

inline PointResult runPoint(LoadGenerator &gen, const EndpointConfig &endpoint,
    const QVector<PreparedRequest> &requests, const LoadSpec &spec, int cancelAfterMs = -1, int timeoutMs = 300000)
{
    PointResult result;
    QEventLoop loop;
    auto c1 = QObject::connect(
        &gen, &LoadGenerator::requestFinished, [&](const RequestRecord &r) { result.records.append(r); });
    auto c2
        = QObject::connect(&gen, &LoadGenerator::progressed, [&](const LoadProgress &p) { result.progress.append(p); });
    auto c3 = QObject::connect(&gen, &LoadGenerator::finished, [&](const LoadOutcome &o) {
        result.outcome = o;
        loop.quit();
    });
    QTimer cancelTimer;
    if (cancelAfterMs >= 0) {
        cancelTimer.setSingleShot(true);
        QObject::connect(&cancelTimer, &QTimer::timeout, [&] {
            result.inFlightAtCancel = gen.progress().inFlight;
            gen.cancel();
        });
    }
    QTimer guard;
    guard.setSingleShot(true);
    QObject::connect(&guard, &QTimer::timeout, [&] {
        result.timedOut = true;
        loop.quit();
    });
    guard.start(timeoutMs);
    gen.start(endpoint, requests, spec);
    if (cancelAfterMs >= 0)
        cancelTimer.start(cancelAfterMs);
    loop.exec();
    QObject::disconnect(c1);
    QObject::disconnect(c2);
    QObject::disconnect(c3);
    return result;
}

/// The exact maximum number of requests in flight over [start, end) (a departure at the same
/// instant first).
inline int maxInFlight(const QVector<RequestRecord> &records)
{
    std::vector<std::pair<qint64, int>> ev;
    for (const RequestRecord &r : records) {
        ev.push_back({ r.startNs, +1 });
        ev.push_back({ r.endNs, -1 });
    }
    std::sort(ev.begin(), ev.end());
    int now = 0, peak = 0;
    for (const auto &e : ev)
        peak = std::max(peak, now += e.second);
    return peak;
}

/// Completions requests with a text prompt of `words` words and `outputLen` tokens (ignore_eos).
inline QVector<PreparedRequest> completionBodies(
    int n, int words, int outputLen, const QString &model = QStringLiteral("servescope-sim-7b"))
{
    QVector<PreparedRequest> out;
    for (int i = 0; i < n; ++i) {
        QStringList w;
        for (int k = 0; k < words; ++k)
            w << QStringLiteral("w%1x%2").arg(i).arg(k);
        const QJsonObject o { { QStringLiteral("model"), model },
            { QStringLiteral("prompt"), w.join(QLatin1Char(' ')) }, { QStringLiteral("max_tokens"), outputLen },
            { QStringLiteral("ignore_eos"), true }, { QStringLiteral("stream"), true },
            { QStringLiteral("stream_options"), QJsonObject { { QStringLiteral("include_usage"), true } } } };
        PreparedRequest p;
        p.body = QJsonDocument(o).toJson(QJsonDocument::Compact);
        p.targetInputLen = words;
        p.targetOutputLen = outputLen;
        p.promptHash = PromptHash(QByteArray::number(i));
        out.append(p);
    }
    return out;
}

} // namespace ServeScope::Testing

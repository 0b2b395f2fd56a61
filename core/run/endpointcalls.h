// SPDX-License-Identifier: MIT
#pragma once

#include "engine/engineconfig.h"

#include <QByteArray>
#include <QList>
#include <QNetworkAccessManager>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <QPointer>

#include <atomic>
#include <deque>
#include <functional>
#include <memory>
#include <optional>

class QEventLoop;
class QNetworkRequest;

namespace ServeScope {

struct RequestRecord;

/// Prompt sizing where `/tokenize` is missing (gateways): the server's prompt tokens as a line in
/// the prompt's words, fitted to `max_tokens: 1` requests that read `usage.prompt_tokens`.
struct PromptCalibration {
    double overhead = 0; ///< tokens the request adds whatever its text (a chat template)
    double perWord = 1;
    /// Tokens of a text of `words` words, rounded.
    int estimate(qsizetype words) const;
};

/// The small requests a run makes beside its streams: `/tokenize`, `/metrics`, the prefix-cache reset.
/// Each goes to the endpoint's base URL (its path kept), with the endpoint's headers and proxy, and is
/// bounded by the experiment's idle timeout. Calls block on a local event loop: run thread only.
/// Runs `loop` until it quits or `cancelled` (may be null: never) is set; then every reply of `nam`
/// still in flight is aborted (within 50 ms) and the loop left. Returns at once when already set.
void execUnlessCancelled(QEventLoop &loop, QNetworkAccessManager &nam, const std::atomic<bool> *cancelled);

class EndpointCalls {
public:
    /// `baseUrl` is what API paths are appended to (for `sim:` the simulator's address).
    EndpointCalls(const EndpointConfig &endpoint, const QUrl &baseUrl, const QString &model);
    ~EndpointCalls();

    /// Once `cancelled` is set, a blocking call aborts its requests within 50 ms and answers as if
    /// the server could not say (a hanging server otherwise holds a cancel for the idle timeout).
    void setCancel(const std::atomic<bool> *cancelled) { m_cancelled = cancelled; }

    /// Prompt tokens of each chat text as the server counts them (one `/tokenize` per text, at most
    /// 16 in flight); -1 where the server could not say.
    QList<int> countTokens(const QStringList &texts);
    /// After warmup: waits (up to maxMs) until the server's `/metrics` reports nothing running.
    /// Returns at once when the server has no such metric.
    void waitUntilIdle(const std::atomic<bool> &cancelled, int maxMs = 10000);
    /// True when `/tokenize` answers a count (one tiny request, asked once and remembered).
    bool hasTokenize();
    /// The calibration for this endpoint and model (docs/engine.md, "Prompt sizing"): three
    /// non-streaming `max_tokens: 1` requests to the endpoint itself carrying the first quarter, half
    /// and all of `sample`'s words (at least 8). Cached for the process per request URL and model
    /// when it fitted or all three answered without usage; nullopt then, or after a failed request
    /// (not cached), or for a shorter sample (nothing sent).
    std::optional<PromptCalibration> calibration(const QString &sample);
    /// Prompt tokens of each text: `/tokenize` counts when the server has it, else calibrated
    /// estimates, else -1 each. `estimated` (optional) says which of the two answered.
    QList<int> promptTokens(const QStringList &texts, bool *estimated = nullptr);
    /// Tokens of a generated text as the server counts it (`/tokenize` of the plain text, no special
    /// tokens), asynchronously, at most 16 in flight; `done(-1)` when the server could not say. Not
    /// called when `context` died meanwhile.
    void countTextTokens(const QString &text, QObject *context, std::function<void(int)> done);
    /// True when `/metrics` has the running-requests gauge that waitUntilIdle() watches.
    bool hasRunningMetric();
    /// SGLang's `/flush_cache` or vLLM's `/reset_prefix_cache`; false when the server refused.
    bool resetPrefixCache(const QString &engine, QString *path);

    /// GET a side path of the base URL; the body, or a null array on any failure (non-2xx included).
    QByteArray get(const QString &path) { return call(path); }

private:
    QNetworkRequest request(const QString &path) const;
    /// GET (null body) or POST; returns the reply body, or a null array on any failure.
    QByteArray call(const QString &path, const QByteArray &postBody = {});
    /// Runs `loop` until it quits, or until the run is cancelled: then every request in flight is
    /// aborted and the loop left.
    void exec(QEventLoop &loop);
    bool cancelled() const { return m_cancelled && m_cancelled->load(); }
    void pumpCounts();

    struct PendingCount {
        QString text;
        QPointer<QObject> context;
        std::function<void(int)> done;
    };
    std::deque<PendingCount> m_countQueue;
    int m_countsInFlight = 0;
    const std::atomic<bool> *m_cancelled = nullptr;
    std::optional<bool> m_hasTokenize;

    EndpointConfig m_endpoint;
    QUrl m_base;
    QString m_model;
    int m_timeoutMs;
    std::unique_ptr<QNetworkAccessManager> m_nam;
};

/// What the engine could only estimate in `record`, counted by the server's tokenizer off the hot path:
/// the output (no usage), then the reasoning (no usage details; still an estimate, as the text was decoded
/// and is encoded again). `done` gets the record, its reasoning text dropped, once nothing is left to
/// count; at once when `tokenizer` is null (the server has no `/tokenize`) or the record has nothing to count.
void countEstimatedTokens(EndpointCalls *tokenizer, QObject *context, RequestRecord record,
    const std::function<void(const RequestRecord &)> &done, bool outputCounted = false);

} // namespace ServeScope

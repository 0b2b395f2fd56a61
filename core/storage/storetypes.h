// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QMetaType>
#include <QString>
#include <QStringList>

namespace ServeScope {

/// Lifecycle of a stored run; stored as its code string. Interrupted: the process writing it ended
/// without finishing it (killed, crashed, power lost); found when the project is next opened.
enum class RunStatus : quint8 { Running = 0, Finished, Cancelled, Failed, Interrupted };

QString runStatusCode(RunStatus s);
/// Unknown codes map to Failed.
RunStatus runStatusFromCode(QStringView code);

/// One row of `runs`: a run and the exact configuration it ran with.
struct RunRow {
    qint64 id = 0; ///< assigned by the store
    qint64 experimentId = 0; ///< 0 when the run has no stored experiment
    QString name;
    RunStatus status = RunStatus::Running;
    QDateTime started; ///< UTC
    QDateTime finished; ///< UTC; invalid while running
    QByteArray resolvedConfig; ///< opaque UTF-8 JSON, stored and returned as given
    QString definitions = QStringLiteral("vllm");
    QStringList variants; ///< in order; the first is the baseline
    int points = 0; ///< load points per variant
    QByteArray clientHost; ///< UTF-8 JSON
    QByteArray envSnapshot; ///< UTF-8 JSON
    /// UTF-8 JSON saying where an imported run came from (docs/import.md); empty for a run
    /// ServeScope measured. Read in listings too.
    QByteArray origin;
};

/// A run with the aggregates a listing shows; read from `runs` and `point_repeats` only.
struct RunListing {
    RunRow run; ///< without the JSON columns (resolvedConfig, clientHost, envSnapshot stay empty)
    int pointRepeats = 0; ///< stored (variant, point, repeat) summaries
    qint64 requests = 0; ///< stored requests, warmups included
    qint64 completed = 0; ///< sum over point_repeats
    qint64 failed = 0;
    qint64 cancelled = 0;
    qint64 totalOutputTokens = 0;
    QString model; ///< endpoint.model of the run's resolved configuration (empty where it has none)
};

/// One row of `experiments`.
struct ExperimentRow {
    qint64 id = 0; ///< 0 to insert, else the row to replace
    QString name;
    QByteArray json; ///< UTF-8 experiment JSON as written by the io module
    QDateTime created; ///< UTC; set by the store when invalid
};

/// One scraped Prometheus sample of the server under test.
struct ServerMetricSample {
    qint64 runId = 0;
    qint64 timeNs = 0; ///< monotonicNs() of the scrape
    QString name;
    QString labels; ///< as scraped, e.g. `model_name="x"`
    double value = 0;
    /// "metrics" (a /metrics scrape) or "log" (a launched server's scheduler log line: the fallback series)
    QString source = QStringLiteral("metrics");
};

/// One line a launched server wrote.
struct ServerLogLine {
    qint64 runId = 0;
    qint64 timeNs = 0;
    QString stream; ///< "stdout" or "stderr"
    QString line;
};

/// A prompt stored once by hash; requests refer to it by RequestRecord::promptHash.
struct PromptRow {
    QByteArray hash;
    QString text;
    QByteArray tokens; ///< token IDs as little-endian int32, empty for text prompts
};

/// Which requests of a run to load.
struct RequestFilter {
    QString variant; ///< empty: all
    int point = -1; ///< -1: all
    int repeat = -1; ///< -1: all
    bool includeWarmup = true;
    bool withEvents = true; ///< decode event blobs
};

} // namespace ServeScope

Q_DECLARE_METATYPE(ServeScope::RunRow)
Q_DECLARE_METATYPE(ServeScope::RunListing)

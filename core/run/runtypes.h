// SPDX-License-Identifier: MIT
#pragma once

#include "model/records.h"
#include "run/shard.h"

#include <QByteArray>
#include <QList>
#include <QMap>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <limits>

namespace ServeScope {

struct RunOptions {
    QString projectPath; ///< SQLite project file; created when missing
    QString outDir; ///< results folder (manifest, vLLM result files, summary.csv); empty: none
    QStringList variants; ///< names to run; empty: all
    QString runName; ///< empty: "<experiment> <UTC time>"
    QByteArray apiKey; ///< resolved by the caller (keychain or env), handed over by value
    QString simulatorProgram; ///< servescope-cli used for a "sim:" endpoint; empty: next to this binary
    double simulatorTimeScale = 1.0; ///< --time-scale for a "sim:" endpoint
    bool allowLaunch = false; ///< may run server.launch argv
    ShardSpec shard; ///< this process's share of the load (docs/shards.md); inactive: all of it
    /// An earlier run of the project (id or unique name) each point is compared with as it finishes
    /// (the Run page's live baseline, `run --vs`); empty: none.
    QString vs;
    /// load.capacity: an earlier run of the project (id or unique name) whose measured levels of the
    /// same variants the search takes as known, judged by this run's SLOs (`run --reuse-levels`).
    QString reuseLevels;
};

/// The live baseline's figures (RunOptions::vs) at the point under way: that run's medians across
/// repeats; NaN where it has none.
struct BaselineFigures {
    static constexpr double kNone = std::numeric_limits<double>::quiet_NaN();
    double ttftP50Ms = kNone, ttftP99Ms = kNone, itlP50Ms = kNone, itlP99Ms = kNone, outputTokensPerS = kNone;
};

/// Throttled (<= 10 Hz) state of a run for monitors; rolling figures are computed off the GUI thread.
struct RunSnapshot {
    qint64 runId = 0;
    qint64 elapsedNs = 0;
    int variantIndex = 0, variantCount = 0;
    QString variant;
    int point = 0, pointCount = 0;
    QString pointLabel;
    int repeat = 1, repeatCount = 1;
    bool warmup = false;
    QString phase; ///< "starting server", "preparing prompts", "warmup", "measuring", "saving"
    /// 0..1 of the run done: each (variant, point, repeat) counts once, the one under way by its
    /// requests, or by its clock when it stops on time (whichever is further).
    double fraction = 0;
    double etaSeconds = -1; ///< -1 unknown
    int inFlight = 0, completed = 0, failed = 0, cancelled = 0;
    double ttftP50Ms = 0, ttftP99Ms = 0, itlP50Ms = 0, itlP99Ms = 0; ///< rolling, last ~5 s
    double outputTokensPerS = 0, requestsPerS = 0; ///< rolling
    QMap<QString, int> errorsByClass;
    QMap<QString, QString> firstErrorByClass; ///< the first failed request's text per class (key scrubbed)
    BaselineFigures baseline;
};

struct RunResult {
    enum class Status { Finished, Cancelled, Failed };
    Status status = Status::Finished;
    qint64 runId = 0;
    QString message;
    int completed = 0, failed = 0, cancelled = 0;
    QList<PointSummary> points;
    QMap<QString, int> errorsByClass; ///< measured failed requests per failure class code
    QMap<QString, QString> firstErrorByClass; ///< the first such request's text (the server's message), key scrubbed
    QList<CapacityResult> capacities; ///< load.capacity: each variant's search, in run order

    /// A measured (point, repeat): its summary kept, its requests counted.
    void addPoint(const PointSummary &s)
    {
        completed += s.completed;
        failed += s.failed;
        cancelled += s.cancelled;
        points << s;
    }
};

} // namespace ServeScope

Q_DECLARE_METATYPE(ServeScope::RunSnapshot)
Q_DECLARE_METATYPE(ServeScope::RunResult)

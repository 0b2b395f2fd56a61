// SPDX-License-Identifier: MIT
#include "import/resultcounts.h"

#include "import/resultrecompute.h"
#include "model/experiment.h"

#include <QCoreApplication>

#include <cmath>
#include <limits>

namespace ServeScope {

namespace {

constexpr const char *kCtx = "ServeScope::Import";

// The store keeps these counts as int; token totals as int64, read through a double: 2^53 is the
// largest that stays exact.
constexpr double kIntMax = std::numeric_limits<int>::max();
constexpr double kTokenMax = 9007199254740992.0;

struct CountKey {
    const char *key;
    double max;
    bool fromArrays; ///< recomputed from the per-request arrays when they give it
};

constexpr CountKey kCounts[] = {
    { "completed", kIntMax, true },
    { "failed", kIntMax, true },
    { "num_prompts", kIntMax, true },
    { "total_input_tokens", kTokenMax, true },
    { "total_output_tokens", kTokenMax, true },
    { "total_output_tokens_retokenized", kTokenMax, false },
    { "max_concurrency", kIntMax, false },
    { "max_concurrent_requests", kIntMax, true },
};

// The per-request arrays other than ttfts, with the count of entries each holds (0: absent).
QList<QPair<const char *, qsizetype>> arrayLengths(const ResultRun &r)
{
    return { { "input_lens", r.inputLens.size() }, { "output_lens", r.outputLens.size() },
        { "latencies", r.latencies.size() }, { "start_times", r.startTimes.size() },
        { "queue_times", r.queueTimes.size() }, { "itls", r.itls.size() }, { "errors", r.errors.size() },
        { "generated_texts", r.generatedTexts.size() } };
}

double fromArrays(const ResultRun &r, const ArrayStats &stats, const QString &key)
{
    if (key == QLatin1String("num_prompts"))
        return stats.requests;
    return recomputedValue(r, stats, key);
}

// A time the per-request arrays give (seconds): finite, not negative, and short of 30 years, so that it stays
// an int64 of nanoseconds.
bool isTime(double seconds)
{
    return std::isfinite(seconds) && seconds >= 0 && seconds < 1e9;
}

// The first time of a request that completed which is no time, as its array and index; empty when all are.
QPair<QString, qsizetype> firstBadTime(const ResultRun &r)
{
    for (qsizetype i = 0; i < r.ttfts.size(); ++i) {
        if (!r.errors.value(i).isEmpty())
            continue; // a failed request's times are not read
        if (!isTime(r.ttfts.at(i)))
            return { QStringLiteral("ttfts"), i };
        for (const auto &[key, column] : { std::pair { "latencies", &r.latencies }, { "start_times", &r.startTimes },
                 { "queue_times", &r.queueTimes } }) {
            if (i < column->size() && !isTime(column->at(i)))
                return { QLatin1String(key), i };
        }
        if (i < r.itls.size()) {
            const GapRow gaps = r.itls.at(i);
            for (qsizetype g = 0; g < gaps.size(); ++g) {
                if (!isTime(gaps.at(g)))
                    return { QStringLiteral("itls"), i };
            }
        }
    }
    return {};
}

void warn(QList<Reason> *warnings, const Reason &why)
{
    if (warnings)
        warnings->append(why);
}

// A count out of range: recomputed when the arrays give it, else the reason to refuse the line.
Reason checkRange(ResultRun &r, const CountKey &count, bool arrays, const ArrayStats &stats, QList<Reason> *warnings)
{
    const QString key = QLatin1String(count.key);
    const auto it = r.numbers.constFind(key);
    if (it == r.numbers.cend())
        return {};
    const double v = it.value();
    const bool whole = !arrays || std::floor(v) == v;
    if (std::isfinite(v) && v >= 0 && v <= count.max && whole)
        return {};
    const double redone = arrays && count.fromArrays && r.hasArrays ? fromArrays(r, stats, key) : std::nan("");
    if (std::isfinite(redone)) {
        r.numbers.insert(key, redone);
        warn(warnings,
            Reason::in(kCtx,
                QT_TRANSLATE_NOOP("ServeScope::Import",
                    "\"%1\" is %2, which is no count: stored as %3, recomputed from the per-request arrays"),
                { key, formatNumber(v), formatNumber(redone) }));
        return {};
    }
    return Reason::in(kCtx,
        QT_TRANSLATE_NOOP(
            "ServeScope::Import", "\"%1\" is %2, but a count is a whole number from 0 to %3: the line is not imported"),
        { key, formatNumber(v), QString::number(qint64(count.max)) });
}

} // namespace

Reason checkResultCounts(ResultRun &run, bool againstArrays, QList<Reason> *warnings)
{
    const bool arrays = againstArrays && run.hasArrays;
    if (arrays) {
        for (const auto &[key, length] : arrayLengths(run)) {
            if (length != 0 && length != run.ttfts.size())
                return Reason::in(kCtx,
                    QT_TRANSLATE_NOOP("ServeScope::Import",
                        "\"%1\" has %2 entries but \"ttfts\" has %3: the per-request arrays disagree, the line is not "
                        "imported"),
                    { QLatin1String(key), QString::number(length), QString::number(run.ttfts.size()) });
        }
    }
    if (arrays) {
        if (const auto [key, index] = firstBadTime(run); !key.isEmpty())
            return Reason::in(kCtx,
                QT_TRANSLATE_NOOP("ServeScope::Import",
                    "\"%1\" of request %2, which completed, is no time (not a finite number of seconds from 0): the "
                    "line is not imported"),
                { key, QString::number(index) });
    }
    const ArrayStats stats = arrays ? recomputeArrays(run) : ArrayStats {};
    for (const CountKey &count : kCounts) {
        const Reason refused = checkRange(run, count, againstArrays, stats, warnings);
        if (!refused.isEmpty())
            return refused;
    }
    if (!arrays)
        return {};
    const QString completed = QStringLiteral("completed"), failed = QStringLiteral("failed");
    const double done = run.number(completed, 0), lost = run.number(failed, 0);
    if (done + lost <= stats.requests)
        return {};
    // Without errors a file that counts failures does not say which requests failed.
    if (!std::isfinite(recomputedValue(run, stats, completed)))
        return Reason::in(kCtx,
            QT_TRANSLATE_NOOP("ServeScope::Import",
                "\"completed\" %1 and \"failed\" %2 count more requests than the %3 of the per-request arrays, "
                "which have no \"errors\" to recompute them from: the line is not imported"),
            { formatNumber(done), formatNumber(lost), QString::number(stats.requests) });
    warn(warnings,
        Reason::in(kCtx,
            QT_TRANSLATE_NOOP("ServeScope::Import",
                "\"completed\" %1 and \"failed\" %2 count more requests than the %3 of the per-request arrays: stored "
                "as %4 and %5, recomputed from them"),
            { formatNumber(done), formatNumber(lost), QString::number(stats.requests), QString::number(stats.completed),
                QString::number(stats.failed) }));
    if (run.numbers.contains(completed))
        run.numbers.insert(completed, stats.completed);
    if (run.numbers.contains(failed))
        run.numbers.insert(failed, stats.failed);
    return {};
}

} // namespace ServeScope

// SPDX-License-Identifier: MIT
#include "import/resultverify.h"

#include "import/resultrecompute.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ServeScope {

namespace {

bool isSetupKey(const QString &key)
{
    static const QStringList setup = { QStringLiteral("duration"), QStringLiteral("num_prompts"),
        QStringLiteral("request_rate"), QStringLiteral("burstiness"), QStringLiteral("max_concurrency"),
        QStringLiteral("best_of"), QStringLiteral("seed"), QStringLiteral("random_input_len"),
        QStringLiteral("random_output_len"), QStringLiteral("random_range_ratio"), QStringLiteral("random_prefix_len"),
        QStringLiteral("sharegpt_output_len"), QStringLiteral("input_len"), QStringLiteral("output_len"),
        QStringLiteral("num_warmups") };
    return setup.contains(key) || key.startsWith(QLatin1String("servescope_"));
}

bool affectedByOutputCount(const QString &key)
{
    return key == QLatin1String("total_output_tokens") || key == QLatin1String("output_throughput")
        || key == QLatin1String("total_token_throughput") || key == QLatin1String("total_throughput")
        || key.contains(QLatin1String("_tpot_"));
}

bool close(double a, double b)
{
    return std::fabs(a - b) <= kVerifyTolerance * std::max(std::fabs(a), std::fabs(b));
}

// The key recomputed as if every chunk were one token (a tool that counted token events).
double chunkCounted(const ResultRun &run, const ArrayStats &c, const QString &key)
{
    const double d = run.number(QStringLiteral("duration"));
    if (key == QLatin1String("total_output_tokens"))
        return double(c.chunks);
    if (key == QLatin1String("output_throughput"))
        return double(c.chunks) / d;
    if (key == QLatin1String("total_token_throughput") || key == QLatin1String("total_throughput"))
        return double(c.totalIn + c.chunks) / d;
    QString stat, metric;
    if (!distributionKey(key, &stat, &metric) || metric != QLatin1String("tpot") || !c.hasLatencies)
        return std::numeric_limits<double>::quiet_NaN();
    std::vector<double> tpot;
    for (qsizetype i = 0; i < run.ttfts.size(); ++i) {
        if (i < run.errors.size() && !run.errors.isEmptyAt(i))
            continue;
        const qsizetype n = 1 + run.itls.at(i).size();
        if (n > 1)
            tpot.push_back((run.latencies.at(i) - run.ttfts.at(i)) / double(n - 1));
    }
    return statisticMs(tpot, stat);
}

// Known ways a tool's summary departs from its own arrays, each checked against the file's value;
// empty when none accounts for it.
QString likelyReason(const ResultRun &run, const ArrayStats &c, const KeyCheck &k)
{
    // Another tool's aggregates over more requests than its per-request file keeps (AIPerf's trimmed
    // profile_export.jsonl): the records are a sample of what the figures cover.
    const double fileCompleted = run.number(QStringLiteral("completed"));
    const bool otherTool = run.source != QLatin1String("vllm") && run.source != QLatin1String("sglang");
    if (otherTool && std::isfinite(fileCompleted) && c.completed < fileCompleted)
        return QStringLiteral("a sample: the per-request records hold %1 of the %2 completed requests the %3 "
                              "figures cover")
            .arg(c.completed)
            .arg(fileCompleted)
            .arg(run.source);
    const double fileOut = run.number(QStringLiteral("total_output_tokens"));
    if (c.hasItls && c.chunks != c.totalOut && close(chunkCounted(run, c, k.key), k.fileValue))
        return QStringLiteral("multi-token chunks: the summary counts %1 chunks as tokens, output_lens sum to %2")
            .arg(c.chunks)
            .arg(c.totalOut);
    if (affectedByOutputCount(k.key) && !std::isnan(fileOut) && fileOut != double(c.totalOut)) {
        const double retok = run.number(QStringLiteral("total_output_tokens_retokenized"));
        return QStringLiteral("tokenizer re-count: the summary counts %1 output tokens, output_lens sum to %2%3")
            .arg(fileOut)
            .arg(c.totalOut)
            .arg(std::isnan(retok) ? QString() : QStringLiteral(" (re-tokenized: %1)").arg(retok));
    }
    const int z = c.zeroOutputSuccesses;
    const double d = run.number(QStringLiteral("duration"));
    const bool zeroExplains = z > 0
        && ((k.key == QLatin1String("completed") && std::fabs(k.fileValue - c.completed) == z)
            || (k.key == QLatin1String("failed") && std::fabs(k.fileValue - c.failed) == z)
            || (k.key == QLatin1String("request_throughput")
                && (close(k.fileValue, (c.completed - z) / d) || close(k.fileValue, (c.completed + z) / d))));
    if (zeroExplains)
        return QStringLiteral("a zero-output request counted as success: %1 request(s) without an error have "
                              "output_lens 0")
            .arg(z);
    return {};
}

} // namespace

QString verdictCode(KeyCheck::Verdict v)
{
    switch (v) {
    case KeyCheck::Verdict::Reproduced:
        return QStringLiteral("reproduced");
    case KeyCheck::Verdict::Explained:
        return QStringLiteral("explained");
    case KeyCheck::Verdict::Mismatched:
        return QStringLiteral("mismatched");
    case KeyCheck::Verdict::NotReproducible:
        break;
    }
    return QStringLiteral("not-reproducible");
}

QVector<KeyCheck> verifyResultRun(const ResultRun &run)
{
    const ArrayStats stats = recomputeArrays(run);
    QVector<KeyCheck> out;
    for (auto it = run.numbers.cbegin(); it != run.numbers.cend(); ++it) {
        if (isSetupKey(it.key()))
            continue;
        KeyCheck k;
        k.key = it.key();
        k.fileValue = it.value();
        const QString missing = missingArrayFor(run, stats, k.key);
        k.recomputed = recomputedValue(run, stats, k.key);
        if (std::isnan(k.recomputed)) {
            k.reason = !missing.isEmpty() ? QStringLiteral("needs %1").arg(missing)
                                          : QStringLiteral("no rule recomputes this key from the arrays");
            out.append(k);
            continue;
        }
        const double diff = std::fabs(k.recomputed - k.fileValue);
        k.relative = k.fileValue != 0 ? diff / std::fabs(k.fileValue) : diff;
        if (k.relative <= kVerifyTolerance) {
            k.verdict = KeyCheck::Verdict::Reproduced;
        } else {
            k.reason = likelyReason(run, stats, k);
            k.verdict = k.reason.isEmpty() ? KeyCheck::Verdict::Mismatched : KeyCheck::Verdict::Explained;
        }
        out.append(k);
    }
    return out;
}

} // namespace ServeScope

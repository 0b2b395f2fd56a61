// SPDX-License-Identifier: MIT
#include "import/resultverify.h"

#include "import/resultrecompute.h"

#include <cmath>

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
    return key.contains(QLatin1String("output")) || key.contains(QLatin1String("total_t"))
        || key.contains(QLatin1String("_tpot_"));
}

// Known ways a tool's summary departs from its own arrays; empty when none fits this key.
QString likelyReason(const ResultRun &run, const ArrayStats &c, const QString &key)
{
    const double fileOut = run.number(QStringLiteral("total_output_tokens"));
    const double retok = run.number(QStringLiteral("total_output_tokens_retokenized"));
    if (affectedByOutputCount(key) && !std::isnan(fileOut) && fileOut != double(c.totalOut)) {
        if (!std::isnan(retok))
            return QStringLiteral("tokenizer re-count: output_lens sum to %1, the summary counts %2 "
                                  "(re-tokenized: %3)")
                .arg(c.totalOut)
                .arg(fileOut)
                .arg(retok);
        return QStringLiteral("tokenizer re-count: output_lens sum to %1, the summary counts %2")
            .arg(c.totalOut)
            .arg(fileOut);
    }
    const double fileCompleted = run.number(QStringLiteral("completed"));
    const bool countsDiffer = !std::isnan(fileCompleted) && fileCompleted != c.completed;
    if (c.zeroOutputSuccesses > 0 && (countsDiffer || key == QLatin1String("completed")))
        return QStringLiteral("a zero-output request counted as success: %1 request(s) without an error have "
                              "output_lens 0")
            .arg(c.zeroOutputSuccesses);
    if ((key.contains(QLatin1String("_itl_")) || key.contains(QLatin1String("_tpot_"))) && c.hasOutputs && c.hasItls
        && c.chunks < c.totalOut)
        return QStringLiteral("multi-token chunks: %1 chunks carried %2 output tokens, so ITL and TPOT "
                              "were not measured per token")
            .arg(c.chunks)
            .arg(c.totalOut);
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
            k.reason = likelyReason(run, stats, k.key);
            k.verdict = k.reason.isEmpty() ? KeyCheck::Verdict::Mismatched : KeyCheck::Verdict::Explained;
        }
        out.append(k);
    }
    return out;
}

} // namespace ServeScope

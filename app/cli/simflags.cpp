// SPDX-License-Identifier: MIT
#include "simflags.h"

#include "clitext.h"

#include <QCommandLineParser>

#include <cmath>

namespace ServeScope::Cli {

namespace {

/// One scheduler setting under its vLLM and SGLang flag names.
struct Flag {
    const char *vllm, *sglang, *help;
    double minimum, maximum;
};
// Index order is used below.
constexpr Flag kFlags[] = {
    { "max-num-seqs", "max-running-requests",
        QT_TRANSLATE_NOOP("ServeScope::Cli", "Concurrent sequences in the batch (default 256)."), 1, 2e9 },
    { "max-num-batched-tokens", "chunked-prefill-size",
        QT_TRANSLATE_NOOP("ServeScope::Cli", "Token budget per step, decode and chunked prefill (default 8192)."), 1,
        2e9 },
    { "max-model-len", "context-length",
        QT_TRANSLATE_NOOP("ServeScope::Cli", "Prompt + output limit (preset default)."), 1, 2e9 },
    { "block-size", "page-size", QT_TRANSLATE_NOOP("ServeScope::Cli", "KV block (page) size in tokens (default 16)."),
        1, 65536 },
    { "gpu-memory-utilization", "mem-fraction-static",
        QT_TRANSLATE_NOOP("ServeScope::Cli",
            "Share of the GPU's memory for weights and KV cache; sets the KV cache size (default 0.9)."),
        0.01, 1 },
    { nullptr, "max-prefill-tokens",
        QT_TRANSLATE_NOOP("ServeScope::Cli", "New requests' prompt tokens per step (sglang flavour; default 16384)."),
        1, 2e9 },
};

QString other(const Flag &f, bool sglang)
{
    return QString::fromLatin1(sglang ? f.vllm : f.sglang);
}

} // namespace

QList<QCommandLineOption> schedulerOptions()
{
    QList<QCommandLineOption> out { { QStringLiteral("flavor"),
        CliText::tr("Which server to pose as: vllm (default) or sglang (its flag and metric names, "
                    "/get_server_info, /flush_cache, its log lines)."),
        QStringLiteral("name") } };
    for (const Flag &f : kFlags) {
        if (f.vllm)
            out << QCommandLineOption(QString::fromLatin1(f.vllm), CliText::tr(f.help), QStringLiteral("x"));
        if (f.sglang && (!f.vllm || qstrcmp(f.vllm, f.sglang) != 0))
            out << QCommandLineOption(QString::fromLatin1(f.sglang),
                CliText::tr("sglang flavour: %1").arg(CliText::tr(f.help)), QStringLiteral("x"));
    }
    out << QCommandLineOption(QStringLiteral("enable-prefix-caching"), CliText::tr("Block-hash prefix cache (vllm)."))
        << QCommandLineOption(QStringLiteral("disable-radix-cache"),
               CliText::tr("sglang flavour: no prefix cache (on by default, as SGLang's radix cache)."));
    return out;
}

bool applySchedulerFlags(const QCommandLineParser &parser, bool kvTokensGiven, Sim::SimConfig *cfg, QString *error)
{
    const QString flavor
        = parser.isSet(QStringLiteral("flavor")) ? parser.value(QStringLiteral("flavor")) : QStringLiteral("vllm");
    if (flavor != QLatin1String("vllm") && flavor != QLatin1String("sglang")) {
        *error = CliText::tr("--flavor must be vllm or sglang, got '%1'").arg(flavor);
        return false;
    }
    const bool sglang = flavor == QLatin1String("sglang");
    cfg->server.flavor = sglang ? Sim::Flavor::Sglang : Sim::Flavor::Vllm;
    Sim::SchedulerParams &s = cfg->scheduler;
    if (sglang) {
        s.prefixCaching = true;
        s.maxPrefillTokens = 16384;
    }
    double values[std::size(kFlags)];
    bool given[std::size(kFlags)] = {};
    for (size_t i = 0; i < std::size(kFlags); ++i) {
        const Flag &f = kFlags[i];
        const char *own = sglang ? f.sglang : f.vllm;
        const QString wrong = other(f, sglang);
        if (!wrong.isEmpty() && wrong != QLatin1String(own ? own : "") && parser.isSet(wrong)) {
            *error = own ? CliText::tr("--%1 is %2's name; the %3 flavour takes --%4")
                               .arg(wrong, sglang ? QStringLiteral("vLLM") : QStringLiteral("SGLang"), flavor,
                                   QLatin1String(own))
                         : CliText::tr("--%1 needs --flavor sglang").arg(wrong);
            return false;
        }
        if (!own || !parser.isSet(QLatin1String(own)))
            continue;
        bool ok = false;
        values[i] = parser.value(QLatin1String(own)).toDouble(&ok);
        if (!ok || !std::isfinite(values[i]) || values[i] < f.minimum || values[i] > f.maximum) {
            *error = CliText::tr("--%1 needs a number from %2 to %3, got '%4'")
                         .arg(QLatin1String(own))
                         .arg(f.minimum)
                         .arg(f.maximum)
                         .arg(parser.value(QLatin1String(own)));
            return false;
        }
        given[i] = true;
    }
    int *const targets[]
        = { &s.maxNumSeqs, &s.maxNumBatchedTokens, &s.maxModelLen, &s.blockSize, nullptr, &s.maxPrefillTokens };
    for (size_t i = 0; i < std::size(kFlags); ++i) {
        if (given[i] && targets[i])
            *targets[i] = int(values[i]);
    }
    if (sglang ? parser.isSet(QStringLiteral("enable-prefix-caching"))
               : parser.isSet(QStringLiteral("disable-radix-cache"))) {
        *error = sglang ? CliText::tr("--enable-prefix-caching is vLLM's; the sglang flavour caches prefixes "
                                      "unless --disable-radix-cache")
                        : CliText::tr("--disable-radix-cache needs --flavor sglang");
        return false;
    }
    s.prefixCaching = sglang ? !parser.isSet(QStringLiteral("disable-radix-cache"))
                             : parser.isSet(QStringLiteral("enable-prefix-caching"));
    if (given[4]) {
        s.memoryFraction = values[4];
        const double kv = (cfg->model.gpuMemoryBytes * values[4] - cfg->model.weightBytes)
            / std::max(1.0, cfg->model.kvBytesPerToken);
        if (!kvTokensGiven) {
            if (kv < s.blockSize) {
                *error = CliText::tr("--%1 %2 leaves no memory for the KV cache beside the weights")
                             .arg(QLatin1String(sglang ? kFlags[4].sglang : kFlags[4].vllm))
                             .arg(values[4]);
                return false;
            }
            s.kvCacheTokens = int(std::min(kv, 2e9)) / s.blockSize * s.blockSize;
        }
    }
    return true;
}

} // namespace ServeScope::Cli

// SPDX-License-Identifier: MIT
// The flags of vLLM's and SGLang's benchmark clients, read into an experiment.
#include "commandimport.h"

#include "shellwords.h"

#include <QCoreApplication>

#include <cmath>

namespace ServeScope::CommandImport {

namespace {

struct BenchState {
    QString tool;
    int line = 1;
    Experiment *x = nullptr;
    Messages warnings;
    Messages errors;
    QString host, port;
    std::optional<int> inputLen, outputLen, numPrompts, maxConcurrency;
    std::optional<double> rate, burstiness, sglangRangeRatio;
    /// vLLM's prefix_repetition and SGLang's generated-shared-prefix: prefix and suffix tokens, groups, and
    /// SGLang's prompts per group.
    std::optional<int> sharedPrefix, sharedSuffix, sharedGroups, promptsPerGroup;
    bool sglang() const { return tool == QLatin1String("sglang.bench_serving"); }

    void warn(const Flag &f, const char *reason, const QStringList &args = {}) const
    {
        warnings.add(line, f.name, Reason::in("ServeScope::Command", reason, args));
    }
    void fail(const Flag &f, const char *reason) const
    {
        errors.add(line, f.name, Reason::in("ServeScope::Command", reason, {}));
    }
    std::optional<double> number(const Flag &f) const
    {
        bool ok = false;
        const QString v = f.values.value(0);
        const double d = v == QLatin1String("inf") ? INFINITY : v.toDouble(&ok);
        if ((ok || std::isinf(d)) && f.values.size() == 1)
            return d;
        fail(f, QT_TRANSLATE_NOOP("ServeScope::Command", "needs one number"));
        return std::nullopt;
    }
    std::optional<int> integer(const Flag &f) const
    {
        const std::optional<double> d = number(f);
        if (d && std::isfinite(*d) && *d == std::floor(*d) && std::abs(*d) < 2147483647.0)
            return int(*d);
        if (d)
            fail(f, QT_TRANSLATE_NOOP("ServeScope::Command", "needs a whole number"));
        return std::nullopt;
    }
};

void readBackend(BenchState &s, const Flag &f)
{
    const QString b = f.values.value(0);
    Endpoint &e = s.x->endpoint;
    if (b.endsWith(QLatin1String("chat")))
        e.path = QStringLiteral("/v1/chat/completions");
    else if (b == QLatin1String("openai") || b == QLatin1String("vllm") || b == QLatin1String("sglang-oai"))
        e.path = QStringLiteral("/v1/completions");
    else if (b == QLatin1String("sglang") && s.sglang())
        e.path = defaultPath(Api::SglangGenerate); // SGLang's client sends its native /generate
    else if (b == QLatin1String("sglang"))
        e.path = QStringLiteral("/v1/completions"); // vLLM's client sends completions to an SGLang server
    else
        s.warn(f,
            QT_TRANSLATE_NOOP("ServeScope::Command", "a backend ServeScope does not speak; the endpoint path is kept"));
    if (b.startsWith(QLatin1String("sglang")))
        e.dialect = Dialect::Sglang;
}

void readPercentiles(BenchState &s, const Flag &f)
{
    QList<double> ps;
    for (const QString &part : f.values.join(QLatin1Char(',')).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        bool ok = false;
        ps << part.trimmed().toDouble(&ok);
        if (!ok)
            return s.fail(f, QT_TRANSLATE_NOOP("ServeScope::Command", "must be numbers separated by commas"));
    }
    s.x->metrics.percentiles = ps;
}

void readGoodput(BenchState &s, const Flag &f)
{
    Goodput &g = s.x->metrics.goodput;
    for (const QString &slo : f.values) {
        const QString key = slo.section(QLatin1Char(':'), 0, 0);
        bool ok = false;
        const double v = slo.section(QLatin1Char(':'), 1).toDouble(&ok);
        std::optional<double> *target = key == QLatin1String("ttft") ? &g.ttftMs
            : key == QLatin1String("tpot")                           ? &g.tpotMs
            : key == QLatin1String("e2el")                           ? &g.e2elMs
                                                                     : nullptr;
        if (!target || !ok)
            return s.fail(
                f, QT_TRANSLATE_NOOP("ServeScope::Command", "entries must look like ttft:500, tpot:50 or e2el:2000"));
        *target = v;
    }
}

/// Lengths: the dataset's own flags, and the ones no release has (--input-len) at their nearest meaning.
bool readLength(BenchState &s, const Flag &f)
{
    const QString n = f.name;
    const bool input = n.endsWith(QLatin1String("input-len"));
    if (!input && !n.endsWith(QLatin1String("output-len")))
        return false;
    const QString family = n.section(QLatin1Char('-'), 0, 0);
    if (n == QLatin1String("input-len") || n == QLatin1String("output-len")) {
        s.warn(f, QT_TRANSLATE_NOOP("ServeScope::Command", "no release of %1 has this flag; read as --random-%2"),
            { s.tool, n });
    } else if (family != QLatin1String("random") && family != QLatin1String("sonnet")
        && family != QLatin1String("sharegpt") && family != QLatin1String("custom")) {
        return false;
    }
    const std::optional<int> value = s.integer(f);
    if (!input && family == QLatin1String("custom") && value == -1)
        return true; // each line's output_tokens, which ServeScope always prefers to the point's length
    (input ? s.inputLen : s.outputLen) = value;
    return true;
}

bool readDataset(BenchState &s, const Flag &f)
{
    Dataset &d = s.x->dataset;
    const QString &n = f.name;
    // The tools' shared-prefix datasets are ServeScope's shared_prefix.
    static const QStringList sharedNames { QStringLiteral("prefix_repetition"),
        QStringLiteral("generated-shared-prefix") };
    const std::pair<const char *, std::optional<int> *> sharedFlags[]
        = { { "prefix-repetition-prefix-len", &s.sharedPrefix }, { "prefix-repetition-suffix-len", &s.sharedSuffix },
              { "prefix-repetition-num-prefixes", &s.sharedGroups }, { "prefix-repetition-output-len", &s.outputLen },
              { "gsp-system-prompt-len", &s.sharedPrefix }, { "gsp-question-len", &s.sharedSuffix },
              { "gsp-num-groups", &s.sharedGroups }, { "gsp-prompts-per-group", &s.promptsPerGroup },
              { "gsp-output-len", &s.outputLen } };
    for (const auto &[flag, target] : sharedFlags) {
        if (n == QLatin1String(flag)) {
            *target = s.integer(f);
            return true;
        }
    }
    if (n == QLatin1String("dataset-name"))
        d.name = sharedNames.contains(f.values.value(0)) ? QStringLiteral("shared_prefix") : f.values.value(0);
    else if (n == QLatin1String("dataset-path"))
        d.path = f.values.value(0);
    else if (n == QLatin1String("tokenizer"))
        d.tokenizer = f.values.value(0);
    else if (n == QLatin1String("seed"))
        d.seed = s.integer(f).value_or(0);
    else if (n == QLatin1String("ignore-eos"))
        d.ignoreEos = true;
    else if (n == QLatin1String("disable-ignore-eos"))
        d.ignoreEos = false;
    else if (n == QLatin1String("sonnet-prefix-len"))
        d.prefixLen = s.integer(f).value_or(d.prefixLen);
    else if (n == QLatin1String("skip-chat-template"))
        return true; // ServeScope always sends a prompt as written
    else if (n == QLatin1String("disable-shuffle"))
        s.warn(f,
            QT_TRANSLATE_NOOP(
                "ServeScope::Command", "ServeScope shuffles a dataset file with --seed; the file's order is not kept"));
    else if (n == QLatin1String("random-range-ratio") && s.sglang())
        s.sglangRangeRatio = s.number(f);
    else if (n == QLatin1String("random-range-ratio"))
        d.rangeRatio = s.number(f).value_or(0);
    else
        return readLength(s, f);
    return true;
}

bool readEndpointOrLoad(BenchState &s, const Flag &f)
{
    Endpoint &e = s.x->endpoint;
    const QString &n = f.name;
    const QString v = f.values.value(0);
    if (n == QLatin1String("backend"))
        readBackend(s, f);
    else if (n == QLatin1String("base-url"))
        e.baseUrl = v;
    else if (n == QLatin1String("host"))
        s.host = v;
    else if (n == QLatin1String("port"))
        s.port = v;
    else if (n == QLatin1String("endpoint"))
        e.path = v;
    else if (n == QLatin1String("model") || n == QLatin1String("served-model-name"))
        e.model = v;
    else if (n == QLatin1String("num-prompts"))
        s.numPrompts = s.integer(f);
    else if (n == QLatin1String("max-concurrency"))
        s.maxConcurrency = s.integer(f);
    else if (n == QLatin1String("request-rate"))
        s.rate = s.number(f);
    else if (n == QLatin1String("burstiness"))
        s.burstiness = s.number(f);
    else if (n == QLatin1String("percentile-metrics"))
        s.x->metrics.percentileMetrics = v.split(QLatin1Char(','), Qt::SkipEmptyParts);
    else if (n == QLatin1String("metric-percentiles"))
        readPercentiles(s, f);
    else if (n == QLatin1String("goodput"))
        readGoodput(s, f);
    else
        return false;
    return true;
}

void finishPoint(BenchState &s)
{
    Experiment &x = *s.x;
    LoadPoint p;
    const bool sonnet = x.dataset.name == QLatin1String("sonnet");
    // The tools' defaults when a flag is not given: 1000 prompts, random 1024/128, sonnet 550/150.
    p.inputLen = s.inputLen.value_or(sonnet ? 550 : 1024);
    p.outputLen = s.outputLen.value_or(sonnet ? 150 : 128);
    p.numPrompts = s.numPrompts.value_or(1000);
    if (x.dataset.name == QLatin1String("shared_prefix")) {
        // The tools' defaults: vLLM 10 prefixes of 256 tokens, suffixes of 256, 128 out; SGLang 64 groups of 16
        // prompts, a 2,048-token system prompt, 128-token questions, 256 out, and as many prompts as that makes.
        const bool sglang = s.sglang();
        x.dataset.prefixLen = s.sharedPrefix.value_or(sglang ? 2048 : 256);
        x.dataset.groups = s.sharedGroups.value_or(sglang ? 64 : 10);
        p.inputLen = x.dataset.prefixLen + s.sharedSuffix.value_or(sglang ? 128 : 256);
        p.outputLen = s.outputLen.value_or(sglang ? 256 : 128);
        if (sglang)
            p.numPrompts = x.dataset.groups * s.promptsPerGroup.value_or(16);
    }
    if (s.sglangRangeRatio && x.dataset.name == QLatin1String("random")) {
        // SGLang draws lengths in [L r, L]; vLLM's rule is [L' (1 - r'), L' (1 + r')] around L'.
        const double r = std::clamp(*s.sglangRangeRatio, 0.0, 1.0);
        x.dataset.rangeRatio = std::min(0.999999, (1 - r) / (1 + r));
        p.inputLen = int(std::lround(p.inputLen * (1 + r) / 2));
        p.outputLen = int(std::lround(p.outputLen * (1 + r) / 2));
        s.warnings.add(Reason::in("ServeScope::Command",
            QT_TRANSLATE_NOOP("ServeScope::Command",
                "line %1: --random-range-ratio: SGLang's [L x %2, L] read as a spread of %3 around %4 input and %5 "
                "output tokens"),
            { QString::number(s.line), formatNumber(r), formatNumber(x.dataset.rangeRatio), QString::number(p.inputLen),
                QString::number(p.outputLen) }));
    }
    const double rate = s.rate.value_or(INFINITY);
    if (std::isfinite(rate) || !s.maxConcurrency) {
        x.load.mode = LoadMode::Rate; // open loop; inf without a cap sends every prompt at once, as the tools do
        p.requestRate = rate;
        p.burstiness = s.burstiness.value_or(1.0);
        p.maxConcurrency = s.maxConcurrency.value_or(0);
    } else {
        p.concurrency = *s.maxConcurrency;
    }
    x.load.points = { p };
    if (x.endpoint.baseUrl.isEmpty() && (!s.host.isEmpty() || !s.port.isEmpty()))
        x.endpoint.baseUrl = QLatin1String("http://") + (s.host.isEmpty() ? QStringLiteral("127.0.0.1") : s.host)
            + QLatin1Char(':') + (s.port.isEmpty() ? QStringLiteral("8000") : s.port);
}

} // namespace

void readBenchFlags(const QList<Flag> &flags, const QString &tool, int line, Experiment *x, const Messages &warnings,
    const Messages &errors)
{
    BenchState s { tool, line, x, warnings, errors, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {} };
    x->endpoint.path = tool == QLatin1String("vllm bench serve") || tool == QLatin1String("benchmark_serving.py")
        ? QStringLiteral("/v1/completions")
        : x->endpoint.path;
    static const QStringList outputs { QStringLiteral("save-result"), QStringLiteral("save-detailed"),
        QStringLiteral("result-dir"), QStringLiteral("result-filename"), QStringLiteral("output-json"),
        QStringLiteral("output-file"), QStringLiteral("disable-tqdm"), QStringLiteral("metadata"),
        QStringLiteral("label"), QStringLiteral("trust-remote-code") };
    // vLLM's clients send ignore_eos only with --ignore-eos; SGLang's unless --disable-ignore-eos.
    x->dataset.ignoreEos = s.sglang();
    bool datasetNamed = false;
    for (const Flag &f : flags) {
        datasetNamed = datasetNamed || f.name == QLatin1String("dataset-name");
        if (f.name == QLatin1String("api-key")) {
            x->endpoint.apiKeyEnv = shellVariableName(f.values.value(0));
            s.warn(f, QT_TRANSLATE_NOOP("ServeScope::Command", "the key itself is never kept"));
        } else if (outputs.contains(f.name)) {
            s.warn(f,
                QT_TRANSLATE_NOOP("ServeScope::Command", "ignored: ServeScope keeps its own results (run --out-dir)"));
        } else if (f.name == QLatin1String("temperature") || f.name == QLatin1String("top-p")
            || f.name == QLatin1String("top-k") || f.name == QLatin1String("min-p")) {
            x->sampling.set(QString(f.name).replace(QLatin1Char('-'), QLatin1Char('_')), typedValue(f.values));
        } else if (!readEndpointOrLoad(s, f) && !readDataset(s, f)) {
            s.warn(f, QT_TRANSLATE_NOOP("ServeScope::Command", "unknown flag; ignored"));
        }
    }
    if (!datasetNamed && tool == QLatin1String("benchmark_serving.py") && (s.inputLen || s.outputLen))
        warnings.add(Reason::in("ServeScope::Command",
            QT_TRANSLATE_NOOP("ServeScope::Command",
                "line %1: benchmark_serving.py defaults to the sharegpt dataset; the lengths given mean the random "
                "dataset"),
            { QString::number(line) }));
    finishPoint(s);
}

} // namespace ServeScope::CommandImport

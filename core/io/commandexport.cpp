// SPDX-License-Identifier: MIT
// benchCommandFor(): one load point as the benchmark client command that replays it.
#include "io/commandimport.h"
#include "io/importers.h"

#include <QRegularExpression>

#include <cmath>

namespace ServeScope {

namespace {

// A word as a POSIX shell reads it back: bare when safe, else single-quoted.
QString shellWord(const QString &w)
{
    static const QRegularExpression safe(QStringLiteral("^[A-Za-z0-9_./:@%+=,-]+$"));
    if (safe.match(w).hasMatch())
        return w;
    return u'\'' + QString(w).replace(QStringLiteral("'"), QStringLiteral("'\\''")) + u'\'';
}

struct Words {
    QStringList lines;
    void add(const QString &flag, const QString &value = QString())
    {
        lines << (value.isNull() ? flag : flag + u' ' + shellWord(value));
    }
};

QString percentilesText(const QList<double> &ps)
{
    QStringList out;
    for (double p : ps)
        out << formatNumber(p);
    return out.join(u',');
}

// shared_prefix as the tools name it: vLLM's prefix_repetition (equal groups, shuffled), SGLang's
// generated-shared-prefix (num_prompts as groups x prompts per group).
void addSharedPrefix(Words &w, const Dataset &d, const LoadPoint &p, bool sglang, QStringList *warnings)
{
    const QString suffix = QString::number(p.inputLen - d.prefixLen), out = QString::number(p.outputLen);
    if (d.zipf > 0)
        warnings->append(QStringLiteral("neither client draws groups with a Zipf exponent (dataset.zipf %1); the "
                                        "command uses equal groups")
                             .arg(formatNumber(d.zipf)));
    if (sglang) {
        const int perGroup = (p.numPrompts + d.groups - 1) / qMax(1, d.groups);
        if (perGroup * d.groups != p.numPrompts)
            warnings->append(QStringLiteral("SGLang sends groups x prompts per group: %1 prompts instead of %2")
                                 .arg(perGroup * d.groups)
                                 .arg(p.numPrompts));
        w.add(QStringLiteral("--dataset-name"), QStringLiteral("generated-shared-prefix"));
        w.add(QStringLiteral("--gsp-num-groups"), QString::number(d.groups));
        w.add(QStringLiteral("--gsp-prompts-per-group"), QString::number(perGroup));
        w.add(QStringLiteral("--gsp-system-prompt-len"), QString::number(d.prefixLen));
        w.add(QStringLiteral("--gsp-question-len"), suffix);
        w.add(QStringLiteral("--gsp-output-len"), out);
        return;
    }
    w.add(QStringLiteral("--dataset-name"), QStringLiteral("prefix_repetition"));
    w.add(QStringLiteral("--prefix-repetition-prefix-len"), QString::number(d.prefixLen));
    w.add(QStringLiteral("--prefix-repetition-suffix-len"), suffix);
    w.add(QStringLiteral("--prefix-repetition-num-prefixes"), QString::number(d.groups));
    w.add(QStringLiteral("--prefix-repetition-output-len"), out);
}

void addDataset(Words &w, const Dataset &d, const LoadPoint &p, bool sglang, QStringList *warnings)
{
    if (d.name == QLatin1String("shared_prefix"))
        return addSharedPrefix(w, d, p, sglang, warnings);
    // Neither client's bench serve runs sessions: the command sends each turn's new message alone.
    const bool sessions = d.name == QLatin1String("multi_turn");
    if (sessions)
        warnings->append(QStringLiteral("neither client's benchmark runs multi_turn sessions; the command sends "
                                        "single turns of the random dataset"));
    const QString name = sessions ? QStringLiteral("random") : d.name;
    w.add(QStringLiteral("--dataset-name"), name);
    if (!d.path.isEmpty() && name != QLatin1String("random"))
        w.add(QStringLiteral("--dataset-path"), d.path);
    if (name == QLatin1String("random")) {
        if (sglang) {
            // SGLang draws lengths in [L r, L]; vLLM's [L' (1 - r'), L' (1 + r')] ends at L = L' (1 + r').
            const double r = (1 - d.rangeRatio) / (1 + d.rangeRatio);
            w.add(QStringLiteral("--random-input-len"), QString::number(std::lround(p.inputLen * (1 + d.rangeRatio))));
            w.add(
                QStringLiteral("--random-output-len"), QString::number(std::lround(p.outputLen * (1 + d.rangeRatio))));
            w.add(QStringLiteral("--random-range-ratio"), formatNumber(r));
        } else {
            w.add(QStringLiteral("--random-input-len"), QString::number(p.inputLen));
            w.add(QStringLiteral("--random-output-len"), QString::number(p.outputLen));
            w.add(QStringLiteral("--random-range-ratio"), formatNumber(d.rangeRatio));
        }
    } else {
        if (sglang && name != QLatin1String("sharegpt"))
            warnings->append(
                QStringLiteral("sglang.bench_serving has no %1 dataset; the command names it anyway").arg(name));
        // bench_config.json's length keys as flags; sharegpt and custom take the prompts as the file has them.
        const auto flag = [](const QString &key) -> QString { return u"--" + QString(key).replace(u'_', u'-'); };
        if (name == QLatin1String("sonnet"))
            w.add(flag(lengthKey(name, true)), QString::number(p.inputLen));
        // custom: 0 is each line's own output_tokens, which vLLM reads only with -1.
        const bool perLine = name == QLatin1String("custom") && p.outputLen <= 0;
        w.add(flag(lengthKey(name, false)), perLine ? QStringLiteral("-1") : QString::number(p.outputLen));
        // ServeScope sends a custom prompt as written; vLLM would wrap it in the chat template.
        if (name == QLatin1String("custom") && !sglang)
            w.add(QStringLiteral("--skip-chat-template"));
        if (name == QLatin1String("sonnet"))
            w.add(QStringLiteral("--sonnet-prefix-len"), QString::number(d.prefixLen));
    }
}

void addLoad(Words &w, LoadMode mode, const LoadPoint &p, bool sglang, QStringList *warnings)
{
    w.add(QStringLiteral("--num-prompts"), QString::number(p.numPrompts));
    if (p.numPrompts <= 0 || p.maxSeconds > 0)
        warnings->append(QStringLiteral("the point stops on time; the tools stop after --num-prompts"));
    if (mode == LoadMode::Concurrency) {
        w.add(QStringLiteral("--max-concurrency"), QString::number(p.concurrency));
        w.add(QStringLiteral("--request-rate"), QStringLiteral("inf"));
        return;
    }
    w.add(QStringLiteral("--request-rate"),
        std::isinf(p.requestRate) ? QStringLiteral("inf") : formatNumber(p.requestRate));
    if (p.burstiness != 1.0) {
        if (sglang)
            warnings->append(QStringLiteral("sglang.bench_serving sends Poisson arrivals only; burstiness %1 left out")
                                 .arg(formatNumber(p.burstiness)));
        else
            w.add(QStringLiteral("--burstiness"), formatNumber(p.burstiness));
    }
    if (p.maxConcurrency > 0)
        w.add(QStringLiteral("--max-concurrency"), QString::number(p.maxConcurrency));
}

} // namespace

QString benchCommandFor(
    const Experiment &resolved, int point, BenchTool tool, QStringList *warnings, DatasetOrder order)
{
    QStringList ignored;
    QStringList *warn = warnings ? warnings : &ignored;
    const LoadPoint p = resolved.load.points.value(point);
    const bool sglang = tool == BenchTool::Sglang;
    const Endpoint &e = resolved.endpoint;
    const Api api = e.api();
    // The clients' backends: chat and completions in both, SGLang's /generate in SGLang's; no backend of either
    // speaks Responses or Messages, nor vLLM's /generate.
    const bool native = sglang && api == Api::SglangGenerate;
    const bool chat = api == Api::Chat || api == Api::Responses || api == Api::Messages;
    if (api == Api::Responses || api == Api::Messages || (!sglang && api == Api::SglangGenerate))
        warn->append(QStringLiteral("the %1 client has no backend for the %2 API: the command measures %3 instead")
                         .arg(sglang ? QStringLiteral("SGLang") : QStringLiteral("vLLM"), apiName(api),
                             chat ? QStringLiteral("chat completions") : QStringLiteral("completions")));
    Words w;
    w.add(sglang ? QStringLiteral("python -m sglang.bench_serving") : QStringLiteral("vllm bench serve"));
    w.add(QStringLiteral("--backend"),
        native       ? QStringLiteral("sglang")
            : sglang ? (chat ? QStringLiteral("sglang-oai-chat") : QStringLiteral("sglang-oai"))
                     : (chat ? QStringLiteral("openai-chat") : QStringLiteral("openai")));
    if (e.isLocalSimulator())
        warn->append(QStringLiteral("the endpoint is the local simulator: replace the base URL with the server's"));
    w.add(QStringLiteral("--base-url"), e.baseUrl);
    if (!sglang)
        w.add(QStringLiteral("--endpoint"),
            api == Api::Chat || api == Api::Completions ? e.path
                                                        : pathWithApi(e.path, chat ? Api::Chat : Api::Completions));
    w.add(QStringLiteral("--model"), e.model);
    if (!resolved.dataset.tokenizer.isEmpty())
        w.add(QStringLiteral("--tokenizer"), resolved.dataset.tokenizer);
    addDataset(w, resolved.dataset, p, sglang, warn);
    if (order == DatasetOrder::AsInFile && !sglang)
        w.add(QStringLiteral("--disable-shuffle"));
    addLoad(w, resolved.load.mode, p, sglang, warn);
    w.add(QStringLiteral("--seed"), QString::number(resolved.dataset.seed));
    // vLLM's client sends ignore_eos only when asked; SGLang's unless told not to.
    if (!sglang && resolved.dataset.ignoreEos)
        w.add(QStringLiteral("--ignore-eos"));
    if (sglang && !resolved.dataset.ignoreEos)
        w.add(QStringLiteral("--disable-ignore-eos"));
    if (!sglang) {
        if (!resolved.metrics.percentileMetrics.isEmpty())
            w.add(QStringLiteral("--percentile-metrics"), resolved.metrics.percentileMetrics.join(u','));
        w.add(QStringLiteral("--metric-percentiles"), percentilesText(resolved.metrics.percentiles));
        QStringList slos;
        const Goodput &g = resolved.metrics.goodput;
        for (const auto &[key, v] :
            { std::pair { "ttft", g.ttftMs }, std::pair { "tpot", g.tpotMs }, std::pair { "e2el", g.e2elMs } })
            if (v)
                slos << QLatin1String(key) + u':' + formatNumber(*v);
        if (!slos.isEmpty())
            w.lines << QStringLiteral("--goodput ") + slos.join(u' ');
        w.add(QStringLiteral("--save-result"));
    }
    QString out;
    // Both clients read the key from OPENAI_API_KEY; the command names the variable, never the key.
    const QString keyVar = e.apiKeyEnv.isEmpty() ? QStringLiteral("OPENAI_API_KEY") : e.apiKeyEnv;
    if (keyVar != QLatin1String("OPENAI_API_KEY"))
        out += QStringLiteral("export OPENAI_API_KEY=\"$%1\"\n").arg(keyVar);
    else if (!e.keychainEntry.isEmpty())
        warn->append(QStringLiteral("the key is in the keychain: set OPENAI_API_KEY before running the command"));
    return out + w.lines.join(QStringLiteral(" \\\n    ")) + u'\n';
}

} // namespace ServeScope

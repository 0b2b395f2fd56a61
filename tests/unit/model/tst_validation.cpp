// SPDX-License-Identifier: MIT
#include "model/validation.h"
#include "testexperiment.h"

#include <QRegularExpression>
#include <QTest>

#include <cmath>

#include <functional>
#include <limits>

using namespace ServeScope;

namespace {

struct BadInput {
    const char *name;
    std::function<void(Experiment &)> mutate;
    const char *path;
    const char *reason;
};

LoadPoint &pt(Experiment &x, int i)
{
    return x.load.points[i];
}

const QList<BadInput> &badInputs()
{
    static const QList<BadInput> cases = {
        { "empty name", [](Experiment &x) { x.name = QStringLiteral("  "); }, "name", "is required" },
        { "missing base url", [](Experiment &x) { x.endpoint.baseUrl.clear(); }, "endpoint.base_url", "is required" },
        { "base url without scheme", [](Experiment &x) { x.endpoint.baseUrl = QStringLiteral("127.0.0.1:8000"); },
            "endpoint.base_url", "must be a URL" },
        { "ftp base url", [](Experiment &x) { x.endpoint.baseUrl = QStringLiteral("ftp://host"); }, "endpoint.base_url",
            "must be a URL" },
        { "port above 65535", [](Experiment &x) { x.endpoint.baseUrl = QStringLiteral("http://127.0.0.1:70000"); },
            "endpoint.base_url", "port '70000' is not a number in 1..65535" },
        { "port 0", [](Experiment &x) { x.endpoint.baseUrl = QStringLiteral("https://[::1]:0/v1"); },
            "endpoint.base_url", "port '0' is not a number in 1..65535" },
        { "port not a number", [](Experiment &x) { x.endpoint.baseUrl = QStringLiteral("http://host:80a"); },
            "endpoint.base_url", "port '80a' is not a number in 1..65535" },
        { "password in base url", [](Experiment &x) { x.endpoint.baseUrl = QStringLiteral("http://u:pw@host:8000"); },
            "endpoint.base_url", "must not contain a user name or password" },
        { "path without slash", [](Experiment &x) { x.endpoint.path = QStringLiteral("v1/chat/completions"); },
            "endpoint.path", "must start with /" },
        { "missing model", [](Experiment &x) { x.endpoint.model.clear(); }, "endpoint.model", "is required" },
        { "bad env var name", [](Experiment &x) { x.endpoint.apiKeyEnv = QStringLiteral("1-KEY"); },
            "endpoint.api_key_env", "must be an environment variable name" },
        { "env and keychain", [](Experiment &x) { x.endpoint.keychainEntry = QStringLiteral("prod"); },
            "endpoint.keychain_entry", "cannot be combined with api_key_env" },
        { "authorization header",
            [](Experiment &x) {
                x.endpoint.headers.append({ QStringLiteral("Authorization"), QString() });
            },
            "endpoint.headers.Authorization", "would hold a secret" },
        { "bad proxy", [](Experiment &x) { x.endpoint.proxy = QStringLiteral("proxy:3128"); }, "endpoint.proxy",
            "must be a URL" },
        { "duplicate env key",
            [](Experiment &x) {
                x.envSnapshot = { { QStringLiteral("gpu"), QStringLiteral("a"), EnvSource::Typed },
                    { QStringLiteral("gpu"), QStringLiteral("b"), EnvSource::Probe } };
            },
            "env_snapshot[1]", "repeats the name gpu" },
        { "unknown engine", [](Experiment &x) { x.server.engine = QStringLiteral("tgi"); }, "server.engine",
            "must be one of" },
        { "max_num_seqs zero", [](Experiment &x) { x.server.args.set(QStringLiteral("max_num_seqs"), 0); },
            "server.args.max_num_seqs", "must be at least 1" },
        { "gpu memory above 1", [](Experiment &x) { x.server.args.set(QStringLiteral("gpu_memory_utilization"), 1.5); },
            "server.args.gpu_memory_utilization", "must be at most 1" },
        { "flag with a string",
            [](Experiment &x) { x.server.args.set(QStringLiteral("enable_prefix_caching"), QStringLiteral("yes")); },
            "server.args.enable_prefix_caching", "must be true or false" },
        { "placeholder without arg",
            [](Experiment &x) { x.server.launchArgv << QStringLiteral("{server.args.max_model_len}"); },
            "server.launch.argv[5]", "names no server.args value" },
        { "ready path missing", [](Experiment &x) { x.server.readyPath.clear(); }, "server.launch.ready",
            "must be a path starting with /" },
        { "negative gpus", [](Experiment &x) { x.server.gpus = -1; }, "server.gpus", "must be at least 0" },
        { "price not a number", [](Experiment &x) { x.server.gpuHourPrice = std::nan(""); }, "server.gpu_hour_price",
            "must be a finite number" },
        { "unknown dataset", [](Experiment &x) { x.dataset.name = QStringLiteral("imdb"); }, "dataset.name",
            "must be one of" },
        { "range ratio 1", [](Experiment &x) { x.dataset.rangeRatio = 1.0; }, "dataset.range_ratio",
            "must be at most" },
        { "sharegpt without path", [](Experiment &x) { x.dataset.name = QStringLiteral("sharegpt"); }, "dataset.path",
            "is required for the sharegpt dataset" },
        { "negative temperature", [](Experiment &x) { x.sampling.set(QStringLiteral("temperature"), -0.5); },
            "sampling.temperature", "must be at least 0" },
        { "sampling sets stream", [](Experiment &x) { x.sampling.set(QStringLiteral("stream"), false); },
            "sampling.stream", "is set by ServeScope itself" },
        { "trace without path", [](Experiment &x) { x.dataset.name = QStringLiteral("trace"); }, "dataset.path",
            "is required for the trace dataset" },
        { "trace with input length",
            [](Experiment &x) {
                x.dataset.name = QStringLiteral("trace");
                x.dataset.path = QStringLiteral("t.jsonl");
            },
            "load.points[0].input_len", "must be left out for the trace dataset: the trace sets each prompt's length" },
        { "trace format unknown", [](Experiment &x) { x.dataset.traceFormat = QStringLiteral("sharegpt"); },
            "dataset.trace_format", "must be mooncake, azure or burstgpt (or left out)" },
        { "verdict without capacity", [](Experiment &x) { x.load.settle.verdict = true; },
            "load.stop_when_settled.verdict", "needs load.mode capacity: only its levels have SLOs" },
        { "block size zero", [](Experiment &x) { x.dataset.blockSize = 0; }, "dataset.block_size",
            "must be at least 1" },
        { "no points", [](Experiment &x) { x.load.points.clear(); }, "load.points", "needs at least one point" },
        { "concurrency zero", [](Experiment &x) { pt(x, 2).concurrency = 0; }, "load.points[2].concurrency",
            "must be at least 1" },
        { "input len zero", [](Experiment &x) { pt(x, 1).inputLen = 0; }, "load.points[1].input_len",
            "must be at least 1" },
        { "output len negative", [](Experiment &x) { pt(x, 0).outputLen = -3; }, "load.points[0].output_len",
            "must be at least 1" },
        { "no stop rule",
            [](Experiment &x) {
                pt(x, 0).numPrompts = 0;
                pt(x, 0).maxSeconds = 0;
            },
            "load.points[0]", "needs a stop rule" },
        { "nan max seconds", [](Experiment &x) { pt(x, 0).maxSeconds = std::numeric_limits<double>::quiet_NaN(); },
            "load.points[0].max_seconds", "must be a finite number" },
        { "rate in concurrency mode", [](Experiment &x) { pt(x, 0).requestRate = 4; }, "load.points[0].request_rate",
            "is only allowed when load.mode is rate" },
        { "rate mode without rate", [](Experiment &x) { x.load.mode = LoadMode::Rate; }, "load.points[0].request_rate",
            "must be greater than 0" },
        { "zero burstiness",
            [](Experiment &x) {
                x.load.mode = LoadMode::Rate;
                for (LoadPoint &p : x.load.points) {
                    p.concurrency = 0;
                    p.requestRate = 2;
                }
                pt(x, 1).burstiness = 0;
            },
            "load.points[1].burstiness", "must be greater than 0" },
        { "duplicate labels",
            [](Experiment &x) {
                pt(x, 0).label = QStringLiteral("a b");
                pt(x, 1).label = QStringLiteral("a_b");
            },
            "load.points[1].label", "repeats the point label a_b" },
        { "negative warmup", [](Experiment &x) { x.load.warmupRequests = -1; }, "load.warmup_requests",
            "must be at least 0" },
        { "discard ratio half", [](Experiment &x) { x.load.discardRatio = 0.5; }, "load.discard_ratio",
            "must be at most 0.49" },
        { "zero repeats", [](Experiment &x) { x.load.repeat = 0; }, "load.repeat", "must be at least 1" },
        { "header_env holding a value",
            [](Experiment &x) {
                x.endpoint.headerEnv = { { QStringLiteral("X-T"), QStringLiteral("sk-abc 123") } };
            },
            "endpoint.header_env.X-T", "must be an environment variable name" },
        { "header_env for the key",
            [](Experiment &x) {
                x.endpoint.headerEnv = { { QStringLiteral("Authorization"), QStringLiteral("K") } };
            },
            "endpoint.header_env.Authorization", "carries the API key: use api_key_env or keychain_entry" },
        { "event cap too small", [](Experiment &x) { x.load.maxEventBytes = 100; }, "load.max_event_bytes",
            "must be at least 1024" },
        { "negative timeout", [](Experiment &x) { x.load.timeouts.idleS = -1; }, "load.timeouts.idle_s",
            "must be at least 0" },
        { "percentile above 100",
            [](Experiment &x) {
                x.metrics.percentiles = { 50, 101 };
            },
            "metrics.percentiles[1]", "must be greater than 0 and at most 100" },
        { "percentiles out of order",
            [](Experiment &x) {
                x.metrics.percentiles = { 99, 50 };
            },
            "metrics.percentiles[1]", "must be greater than the previous percentile" },
        { "zero ttft slo", [](Experiment &x) { x.metrics.goodput.ttftMs = 0.0; }, "metrics.goodput.ttft_ms",
            "must be a positive number" },
        { "multi_turn in open loop",
            [](Experiment &x) {
                x.dataset.name = QStringLiteral("multi_turn");
                x.load.mode = LoadMode::Rate;
            },
            "load.mode", "must be concurrency for the multi_turn dataset" },
        { "multi_turn on completions",
            [](Experiment &x) {
                x.dataset.name = QStringLiteral("multi_turn");
                x.endpoint.path = QStringLiteral("/v1/completions");
            },
            "endpoint.path", "must name the chat completions API for the multi_turn dataset" },
        { "no turns", [](Experiment &x) { x.dataset.turns = 0; }, "dataset.turns", "must be at least 1" },
        { "negative think time", [](Experiment &x) { x.dataset.thinkTimeS = -1; }, "dataset.think_time_s",
            "must be at least 0" },
        { "no variants", [](Experiment &x) { x.variants.clear(); }, "variants", "needs at least one variant" },
        { "duplicate variant names", [](Experiment &x) { x.variants[1].name = QStringLiteral("baseline"); },
            "variants[1].name", "repeats the variant name baseline" },
        { "two baselines",
            [](Experiment &x) {
                x.variants[0].baseline = true;
                x.variants[1].baseline = true;
            },
            "variants", "more than one variant is marked baseline" },
        { "unknown variable", [](Experiment &x) { x.variants[1].changes.set(QStringLiteral("load.concurency"), 4); },
            "variants[1].changes.load.concurency", "is not a known variable" },
        { "variable out of range",
            [](Experiment &x) { x.variants[1].changes.set(QStringLiteral("server.args.max_num_seqs"), 0); },
            "variants[1].changes.server.args.max_num_seqs", "must be at least 1" },
        { "variable of wrong type",
            [](Experiment &x) { x.variants[1].changes.set(QStringLiteral("dataset.ignore_eos"), 1); },
            "variants[1].changes.dataset.ignore_eos", "must be true or false" },
        { "variant breaks resolved config",
            [](Experiment &x) { x.variants[1].changes.set(QStringLiteral("endpoint.path"), QStringLiteral("v1")); },
            "variants[1] (resolved) endpoint.path", "must start with /" },
    };
    return cases;
}

} // namespace

class TestValidation final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }

    void validExperimentHasNoProblems()
    {
        const QList<Problem> problems = validate(Testing::validExperiment());
        for (const Problem &p : problems)
            qInfo("%s", qPrintable(p.toString()));
        QVERIFY(problems.isEmpty());
    }

    void badInput_data()
    {
        QTest::addColumn<int>("index");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("reason");
        for (int i = 0; i < badInputs().size(); ++i) {
            const BadInput &b = badInputs().at(i);
            QTest::newRow(b.name) << i << QString::fromLatin1(b.path) << QString::fromLatin1(b.reason);
        }
    }
    void badInput()
    {
        QFETCH(int, index);
        QFETCH(QString, path);
        QFETCH(QString, reason);
        Experiment x = Testing::validExperiment();
        badInputs().at(index).mutate(x);
        const QList<Problem> problems = validate(x);
        QVERIFY(hasErrors(problems));
        QStringList seen;
        bool found = false;
        for (const Problem &p : problems) {
            seen << p.toString();
            found = found || (p.isError() && p.path == path && p.reason.contains(reason));
        }
        if (!found)
            qInfo("got: %s", qPrintable(seen.join(QLatin1String(" | "))));
        QVERIFY(found);
    }

    void everyProblemIsReported()
    {
        Experiment x = Testing::validExperiment();
        x.load.points[0].concurrency = 0;
        x.load.points[2].concurrency = -2; // not 0: two "c0" labels would be a fourth error
        x.load.repeat = 0;
        QStringList errors;
        for (const Problem &p : validate(x)) {
            if (p.isError())
                errors << p.toString();
        }
        QCOMPARE(errors,
            QStringList({ QStringLiteral("load.points[0].concurrency: must be at least 1"),
                QStringLiteral("load.points[2].concurrency: must be at least 1"),
                QStringLiteral("load.repeat: must be at least 1") }));
    }

    void fewPromptsWarns()
    {
        Experiment x = Testing::validExperiment();
        x.load.points[2].numPrompts = 79; // 5 x 16 = 80
        const QList<Problem> problems = validate(x);
        QCOMPARE(problems.size(), 1);
        QCOMPARE(problems.first().severity, Severity::Warning);
        QCOMPARE(problems.first().path, QStringLiteral("load.points[2].num_prompts"));
        x.load.points[2].numPrompts = 80;
        QVERIFY(validate(x).isEmpty());
    }

    // total_s shorter than the default first-token timeout: no warning about a value nobody set;
    // a first_token_s the experiment sets longer than total_s is still named.
    void firstTokenTimeoutWarnsOnlyWhenSet()
    {
        Experiment x = Testing::validExperiment();
        x.load.timeouts.totalS = 60;
        QVERIFY(validate(x).isEmpty());
        x.load.timeouts.firstTokenS = 90;
        const QList<Problem> problems = validate(x);
        QCOMPARE(problems.size(), 1);
        QCOMPARE(problems.first().severity, Severity::Warning);
        QCOMPARE(problems.first().toString(), QStringLiteral("load.timeouts.first_token_s: is longer than total_s"));
    }

    void simulatorNeedsNoModel()
    {
        Experiment x = Testing::validExperiment();
        x.endpoint.baseUrl = QString::fromLatin1(kSimulatorBaseUrl);
        x.endpoint.model.clear();
        QVERIFY(validate(x).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestValidation)
#include "tst_validation.moc"

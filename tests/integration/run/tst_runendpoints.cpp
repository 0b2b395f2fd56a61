// SPDX-License-Identifier: MIT
// `servescope-cli run` against endpoints that are not vLLM on a bare host: headers on every call, a base path,
// secret header values, failures that explain themselves, output tokens without usage. Each against a real
// `servescope-cli sim` child with the matching misbehaviour switch.
#include "clirunner.h"
#include "simchild.h"

#include "model/experiment.h"
#include "resultfiles/resultfile.h"
#include "storage/projectstore.h"
#include "workload/trace.h"

#include <QDir>
#include <QDirIterator>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QObject>
#include <QRegularExpression>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

using namespace ServeScope;

class TestRunEndpoints final : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    using Outcome = CliRun::Outcome;

    QString writeExperiment(const QString &name, const QJsonObject &endpoint, const QString &load)
    {
        return CliRun::writeExperiment(QDir(m_dir.path()), name, endpoint, load);
    }
    static Outcome run(
        const QStringList &args, const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment())
    {
        return CliRun::run(args, env);
    }
    static QByteArray readAll(const QString &path) { return CliRun::readAll(path); }
    // Writes `json` as NAME.json in the test's folder and runs it (the simulator at 20x) into NAME.servescope and
    // NAME-results.
    Outcome runJson(const QString &name, const QByteArray &json, int timeScale = 20)
    {
        QFile f(m_dir.filePath(name + QStringLiteral(".json")));
        if (!f.open(QIODevice::WriteOnly) || f.write(json) != json.size())
            return { -1, {}, "cannot write the experiment" };
        f.close();
        return run({ f.fileName(), QStringLiteral("--project"), m_dir.filePath(name + QStringLiteral(".servescope")),
            QStringLiteral("--out-dir"), m_dir.filePath(name + QStringLiteral("-results")),
            QStringLiteral("--sim-time-scale"), QString::number(timeScale) });
    }

    /// The requests run 1 of NAME.servescope stored (empty when it cannot be read).
    QVector<RequestRecord> storedRequests(const QString &name)
    {
        ProjectStore store;
        QVector<RequestRecord> out;
        if (!store.open(m_dir.filePath(name + QStringLiteral(".servescope"))) || !store.requests(1, {}, &out))
            return {};
        return out;
    }

    /// GET /metrics from a simulator with extra raw header lines; the value of a per-route counter.
    static double routeCount(
        const SimChild &sim, const QByteArray &name, const QByteArray &route, const QByteArray &root = QByteArray())
    {
        QTcpSocket s;
        s.connectToHost(QStringLiteral("127.0.0.1"), quint16(sim.url().port()));
        if (!s.waitForConnected(3000))
            return -2;
        s.write("GET " + root + "/metrics HTTP/1.1\r\nhost: x\r\nconnection: close\r\nx-route: pool-7\r\n\r\n");
        QByteArray all;
        while (s.waitForReadyRead(3000))
            all += s.readAll();
        for (const QByteArray &line : all.split('\n'))
            if (line.startsWith(QByteArray(name + '{')) && line.contains(QByteArray("route=\"" + route + "\"")))
                return line.mid(line.lastIndexOf(' ') + 1).toDouble();
        return -1;
    }

private Q_SLOTS:

    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }
    void initTestCase()
    {
        QVERIFY2(!SimChild::cli().isEmpty(), "SERVESCOPE_CLI is not set");
        QVERIFY(m_dir.isValid());
    }

    // Streams and every side call (/tokenize, /metrics, the prefix-cache reset) carry the endpoint's headers.
    void sideCallsCarryTheHeaders()
    {
        SimChild sim;
        QVERIFY(sim.start({ QStringLiteral("--model"), QStringLiteral("m"), QStringLiteral("--time-scale"),
            QStringLiteral("20"), QStringLiteral("--require-header"), QStringLiteral("X-Route: pool-7") }));
        const QString load = QStringLiteral("{\"mode\": \"concurrency\", \"points\": [{\"concurrency\": 2, "
                                            "\"input_len\": 24, \"output_len\": 4, \"num_prompts\": 10}], "
                                            "\"warmup_requests\": 2, \"reset_prefix_cache\": true, \"repeat\": 1}");
        QJsonObject endpoint { { QStringLiteral("base_url"), sim.url().toString() },
            { QStringLiteral("path"), QStringLiteral("/v1/chat/completions") },
            { QStringLiteral("model"), QStringLiteral("m") } };
        const QString bare = writeExperiment(QStringLiteral("noheaders"), endpoint, load);
        endpoint.insert(
            QStringLiteral("headers"), QJsonObject { { QStringLiteral("X-Route"), QStringLiteral("pool-7") } });
        const QString routed = writeExperiment(QStringLiteral("headers"), endpoint, load);

        const Outcome o = run({ routed, QStringLiteral("--project"), m_dir.filePath(QStringLiteral("h.servescope")),
            QStringLiteral("--variant"), QStringLiteral("baseline") });
        QVERIFY2(o.exitCode == 0, o.err.constData());
        for (const QByteArray &route : { QByteArray("/v1/chat/completions"), QByteArray("/tokenize"),
                 QByteArray("/metrics"), QByteArray("/reset_prefix_cache") }) {
            QVERIFY2(routeCount(sim, "servescope_sim:route_requests_total", route) >= 1, route.constData());
            QCOMPARE(routeCount(sim, "servescope_sim:header_rejected_total", route), 0.0);
        }
        QCOMPARE(routeCount(sim, "servescope_sim:route_requests_total", "/v1/chat/completions"), 12.0);

        // Without them the sim refuses everything: every side call and stream is rejected, the run fails.
        const Outcome bad = run({ bare, QStringLiteral("--project"), m_dir.filePath(QStringLiteral("b.servescope")),
            QStringLiteral("--variant"), QStringLiteral("baseline") });
        QCOMPARE(bad.exitCode, 1);
        for (const QByteArray &route : { QByteArray("/v1/chat/completions"), QByteArray("/tokenize"),
                 QByteArray("/metrics"), QByteArray("/reset_prefix_cache") })
            QVERIFY2(routeCount(sim, "servescope_sim:header_rejected_total", route) >= 1, route.constData());
    }

    // Failures explain themselves: counts per class and each class's first server message on stderr, and a
    // missing /tokenize or /metrics said once, at the start, with what it costs.
    void failuresExplainThemselves()
    {
        const QByteArray key = "explain-secret-5e6f7a8b";
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("EXPLAIN_KEY"), QString::fromLatin1(key));
        SimChild sim;
        QVERIFY(sim.start({ QStringLiteral("--model"), QStringLiteral("m"), QStringLiteral("--time-scale"),
                              QStringLiteral("50"), QStringLiteral("--no-tokenize"), QStringLiteral("--no-metrics"),
                              QStringLiteral("--fail-rate"), QStringLiteral("0.5"), QStringLiteral("--seed"),
                              QStringLiteral("3"), QStringLiteral("--close-streams-midway"),
                              QStringLiteral("--api-key-env"), QStringLiteral("EXPLAIN_KEY") },
            env));
        const QString exp = writeExperiment(QStringLiteral("explain"),
            QJsonObject { { QStringLiteral("base_url"), sim.url().toString() },
                { QStringLiteral("path"), QStringLiteral("/v1/chat/completions") },
                { QStringLiteral("model"), QStringLiteral("m") },
                { QStringLiteral("api_key_env"), QStringLiteral("EXPLAIN_KEY") } },
            QStringLiteral("{\"mode\": \"concurrency\", \"points\": [{\"concurrency\": 2, \"input_len\": 16, "
                           "\"output_len\": 6, \"num_prompts\": 12}], \"warmup_requests\": 2, \"repeat\": 1}"));
        const QString project = m_dir.filePath(QStringLiteral("explain.servescope"));
        const Outcome o = run({ exp, QStringLiteral("--project"), project }, env);
        QCOMPARE(o.exitCode, 1);
        QVERIFY(!o.err.contains(key) && !o.out.contains(key));
        // Two variants on one base URL: each missing route is said once.
        QCOMPARE(o.err.count("has no /tokenize: text prompts are sized by three max_tokens 1 calibration requests"), 1);
        QCOMPARE(
            o.err.count("has no /metrics with vllm:num_requests_running or sglang:num_running_reqs: after warmup"), 1);
        QVERIFY(o.err.indexOf("has no /tokenize") < o.err.indexOf("progress:"));

        ProjectStore store;
        QVERIFY(store.open(project));
        QVector<RequestRecord> records;
        QVERIFY(store.requests(1, RequestFilter {}, &records));
        QMap<QString, int> byClass;
        for (const RequestRecord &r : std::as_const(records))
            if (!r.warmup && r.status == RequestStatus::Failed)
                ++byClass[errorClassCode(r.errorClass)];
        QCOMPARE(byClass.keys(), QStringList({ QStringLiteral("protocol"), QStringLiteral("server_error") }));
        QVERIFY2(o.err.contains(
                     QByteArray("servescope-cli run: " + QByteArray::number(24) + " measured requests failed:\n")),
            o.err.constData());
        QVERIFY2(
            o.err.contains(QByteArray("  protocol\t" + QByteArray::number(byClass.value(QStringLiteral("protocol")))
                + "\tfirst: stream truncated: connection closed mid-body\n")),
            o.err.constData());
        QVERIFY2(o.err.contains(
                     QByteArray("  server_error\t" + QByteArray::number(byClass.value(QStringLiteral("server_error")))
                         + "\tfirst: HTTP 500: Simulated internal server error.\n")),
            o.err.constData());
    }

    // A server that refuses load answers 429 (the simulator's --rate-limit 0: whenever both slots are
    // busy): the run's findings say where and how many, and the point's latencies are the answered
    // requests' only.
    void rateLimitedPointIsFound()
    {
        SimChild sim;
        QVERIFY(sim.start({ QStringLiteral("--model"), QStringLiteral("m"), QStringLiteral("--time-scale"),
            QStringLiteral("50"), QStringLiteral("--max-num-seqs"), QStringLiteral("2"), QStringLiteral("--rate-limit"),
            QStringLiteral("0") }));
        const QString exp = writeExperiment(QStringLiteral("limited"),
            QJsonObject { { QStringLiteral("base_url"), sim.url().toString() },
                { QStringLiteral("model"), QStringLiteral("m") } },
            QStringLiteral("{\"mode\": \"concurrency\", \"points\": [{\"concurrency\": 8, \"input_len\": 16, "
                           "\"output_len\": 16, \"num_prompts\": 40}], \"repeat\": 1}"));
        const QString project = m_dir.filePath(QStringLiteral("limited.servescope"));
        const QString out = m_dir.filePath(QStringLiteral("limited-results"));
        const Outcome o = run({ exp, QStringLiteral("--project"), project, QStringLiteral("--variant"),
            QStringLiteral("baseline"), QStringLiteral("--out-dir"), out });
        QVERIFY2(o.exitCode == 0, o.err.constData());
        ProjectStore store;
        QVERIFY(store.open(project));
        QVector<PointSummary> summaries;
        QVERIFY(store.pointSummaries(1, &summaries));
        QCOMPARE(summaries.size(), 1);
        const PointSummary &s = summaries.first();
        QVERIFY2(s.rateLimited > 0, qPrintable(QString::number(s.failed)));
        QCOMPARE(s.failed, s.rateLimited); // every failure was a 429
        QCOMPARE(s.completed + s.failed, 40);
        QCOMPARE(s.ttft.count, s.completed);
        const QByteArray line = QByteArray("finding: rate-limited\tbaseline\tc8\trate_limited=")
                                    .append(QByteArray::number(s.rateLimited))
                                    .append("\trate_limited_share=");
        QVERIFY2(o.err.contains(line), o.err.constData());
        QCOMPARE(o.err.count("finding: rate-limited"), 1);
        // The results folder carries the count, so a run read from it finds the same.
        QString error;
        const QVector<ResultRun> runs = readResultFilePath(out + QStringLiteral("/baseline/c8-r1.json"), &error);
        QVERIFY2(runs.size() == 1, qPrintable(error));
        QCOMPARE(runs.first().number(QStringLiteral("servescope_rate_limited")), double(s.rateLimited));
        QCOMPARE(runs.first().number(QStringLiteral("servescope_short_outputs")), 0.0); // ignore_eos honoured
    }

    // A role chunk sent ahead of the first token, or ignore_eos dropped by a gateway, is one note for the
    // whole run listing its points, not a line per point and repeat.
    void streamNotesOncePerRun_data()
    {
        QTest::addColumn<QStringList>("simArgs");
        QTest::addColumn<int>("inputLen");
        QTest::addColumn<int>("outputLen");
        QTest::addColumn<QByteArray>("code");
        // A 512-token prefill takes ~43 ms of model time: ~21 ms at --time-scale 2, past the 5 ms threshold.
        QTest::newRow("role chunk before the first token")
            << QStringList { QStringLiteral("--early-role-chunk"), QStringLiteral("--time-scale"), QStringLiteral("2") }
            << 512 << 8 << QByteArray("role-chunk-before-token");
        // The seeded EOS point (mean 256 tokens) ends about a fifth of 64-token outputs early.
        QTest::newRow("ignore_eos dropped")
            << QStringList { QStringLiteral("--drop-ignore-eos"), QStringLiteral("--time-scale"), QStringLiteral("50") }
            << 16 << 64 << QByteArray("ignore-eos-not-honoured");
    }
    void streamNotesOncePerRun()
    {
        QFETCH(QStringList, simArgs);
        QFETCH(int, inputLen);
        QFETCH(int, outputLen);
        QFETCH(QByteArray, code);
        SimChild sim;
        QVERIFY(sim.start(QStringList { QStringLiteral("--model"), QStringLiteral("m") } + simArgs));
        const QString name = QStringLiteral("notes-") + QString::fromLatin1(code);
        const QString exp = writeExperiment(name,
            QJsonObject { { QStringLiteral("base_url"), sim.url().toString() },
                { QStringLiteral("path"), QStringLiteral("/v1/chat/completions") },
                { QStringLiteral("model"), QStringLiteral("m") } },
            QStringLiteral("{\"mode\": \"concurrency\", \"points\": [{\"concurrency\": 1, \"input_len\": %1, "
                           "\"output_len\": %2, \"num_prompts\": 6}, {\"concurrency\": 2, \"input_len\": %1, "
                           "\"output_len\": %2, \"num_prompts\": 6}], \"repeat\": 2}")
                .arg(inputLen)
                .arg(outputLen));
        const Outcome o = run({ exp, QStringLiteral("--project"), m_dir.filePath(name + QStringLiteral(".servescope")),
            QStringLiteral("--variant"), QStringLiteral("baseline") });
        QVERIFY2(o.exitCode == 0, o.err.constData());
        QCOMPARE(o.err.count(QByteArray("finding: ").append(code)), 1);
        QVERIFY2(o.err.contains(QByteArray("finding: ").append(code).append("\t\tc1,c2\t")), o.err.constData());
        QVERIFY2(!o.err.contains(QByteArray(": ").append(code).append(" (value ")), o.err.constData());
    }

    // Side calls are addressed like the API paths: under the base URL's own path (a gateway at /gw).
    void sideCallsUnderTheBasePath()
    {
        SimChild sim;
        QVERIFY(sim.start({ QStringLiteral("--model"), QStringLiteral("m"), QStringLiteral("--time-scale"),
            QStringLiteral("50"), QStringLiteral("--root-path"), QStringLiteral("/gw") }));
        const QString exp = writeExperiment(QStringLiteral("rooted"),
            QJsonObject { { QStringLiteral("base_url"), QString(sim.url().toString() + QStringLiteral("/gw")) },
                { QStringLiteral("path"), QStringLiteral("/v1/chat/completions") },
                { QStringLiteral("model"), QStringLiteral("m") } },
            QStringLiteral("{\"mode\": \"concurrency\", \"points\": [{\"concurrency\": 2, \"input_len\": 24, "
                           "\"output_len\": 4, \"num_prompts\": 10}], \"warmup_requests\": 2, "
                           "\"reset_prefix_cache\": true}"));
        const Outcome o = run({ exp, QStringLiteral("--project"), m_dir.filePath(QStringLiteral("rooted.servescope")),
            QStringLiteral("--variant"), QStringLiteral("baseline") });
        QVERIFY2(o.exitCode == 0, o.err.constData());
        QVERIFY2(!o.err.contains("has no /"), o.err.constData()); // both side routes were found under /gw
        for (const QByteArray &route : { QByteArray("/tokenize"), QByteArray("/metrics"),
                 QByteArray("/reset_prefix_cache"), QByteArray("/v1/chat/completions") })
            QVERIFY2(routeCount(sim, "servescope_sim:route_requests_total", route, "/gw") >= 1, route.constData());
    }

    // A header value from the environment is a secret: it reaches the server and no file, log or output.
    void secretHeaderFromEnvironment()
    {
        const QByteArray secret = "gw-run-secret-1a2b3c4d";
        SimChild sim;
        QVERIFY(sim.start({ QStringLiteral("--model"), QStringLiteral("m"), QStringLiteral("--time-scale"),
            QStringLiteral("50"), QStringLiteral("--require-header"),
            QStringLiteral("X-Gateway-Token: ") + QString::fromLatin1(secret) }));
        QJsonObject endpoint { { QStringLiteral("base_url"), sim.url().toString() },
            { QStringLiteral("path"), QStringLiteral("/v1/chat/completions") },
            { QStringLiteral("model"), QStringLiteral("m") },
            { QStringLiteral("header_env"),
                QJsonObject { { QStringLiteral("X-Gateway-Token"), QStringLiteral("GW_TOKEN") } } } };
        const QString load = QStringLiteral("{\"mode\": \"concurrency\", \"points\": [{\"concurrency\": 2, "
                                            "\"input_len\": 16, \"output_len\": 4, \"num_prompts\": 10}], "
                                            "\"warmup_requests\": 2, \"reset_prefix_cache\": true}");
        const QString exp = writeExperiment(QStringLiteral("secretheader"), endpoint, load);
        const QString project = m_dir.filePath(QStringLiteral("secretheader.servescope"));
        const QString out = m_dir.filePath(QStringLiteral("secretheader-results"));
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(
            QStringLiteral("GW_TOKEN"), QStringLiteral(" ") + QString::fromLatin1(secret) + QStringLiteral("\n"));
        const Outcome o = run({ exp, QStringLiteral("--project"), project, QStringLiteral("--out-dir"), out }, env);
        QVERIFY2(o.exitCode == 0, o.err.constData());
        QVERIFY(!o.out.contains(secret) && !o.err.contains(secret));
        QStringList files { project, project + QStringLiteral("-wal") };
        QDirIterator it(out, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext())
            files << it.next();
        for (const QString &f : std::as_const(files))
            QVERIFY2(!readAll(f).contains(secret), qPrintable(f));
        QVERIFY(readAll(out + QStringLiteral("/manifest.json")).contains("GW_TOKEN")); // the name is kept

        env.remove(QStringLiteral("GW_TOKEN"));
        const Outcome unset = run({ exp, QStringLiteral("--project"), project }, env);
        QCOMPARE(unset.exitCode, 2);
        QVERIFY2(unset.err.contains("endpoint.header_env.X-Gateway-Token: environment variable GW_TOKEN is not set"),
            unset.err.constData());

        endpoint.insert(QStringLiteral("header_env"),
            QJsonObject { { QStringLiteral("X-Gateway-Token"), QString::fromLatin1(secret) } });
        const QString pasted = writeExperiment(QStringLiteral("pastedheader"), endpoint, load);
        QProcess v;
        v.start(SimChild::cli(), { QStringLiteral("validate"), pasted });
        QVERIFY(v.waitForFinished(30000));
        const QByteArray said = v.readAllStandardOutput() + v.readAllStandardError();
        QCOMPARE(v.exitCode(), 2);
        QVERIFY2(said.contains("endpoint.header_env.X-Gateway-Token: must be an environment variable name"),
            said.constData());
        QVERIFY(!said.contains(secret));
    }

    // The prefix cache's hits as each answer's usage said them add up to the server's own counter: sonnet
    // prompts share a 200-token prefix, so about half of every prompt after the first is cached.
    void promptCacheHitsMatchTheServer()
    {
        const QString name = QStringLiteral("cache");
        const QString out = m_dir.filePath(name + QStringLiteral("-results"));
        const Outcome o = runJson(
            name, R"({"name": "cache", "endpoint": {"base_url": "sim:", "path": "/v1/completions", "model": "m"},
            "server": {"engine": "vllm", "args": {"enable_prefix_caching": true}},
            "dataset": {"name": "sonnet", "seed": 7, "ignore_eos": true, "prefix_len": 200},
            "load": {"mode": "concurrency", "points": [{"concurrency": 4, "input_len": 400, "output_len": 8,
                     "num_prompts": 24}], "repeat": 1},
            "variants": [{"name": "baseline"}]})");
        QVERIFY2(o.exitCode == 0, o.err.constData());
        QString error;
        const QVector<ResultRun> runs = readResultFilePath(out + QStringLiteral("/baseline/c4-r1.json"), &error);
        QVERIFY2(runs.size() == 1, qPrintable(error));
        const double cached = runs.first().number(QStringLiteral("servescope_cached_tokens"));
        const double prompt = runs.first().number(QStringLiteral("servescope_cached_prompt_tokens"));
        const double server = runs.first().number(QStringLiteral("servescope_server_prefix_cache_hit_rate"));
        QCOMPARE(prompt, runs.first().number(QStringLiteral("total_input_tokens")));
        const double rate = 100 * cached / prompt;
        QVERIFY2(rate > 30 && rate < 50, qPrintable(QString::number(rate)));
        QVERIFY2(
            std::abs(rate - server) < 1, qPrintable(QStringLiteral("client %1%, server %2%").arg(rate).arg(server)));
        // run's line: the hit rate as a fraction.
        const QList<QByteArray> head = o.out.split('\n').value(0).split('\t');
        const QList<QByteArray> line = o.out.split('\n').value(1).split('\t');
        QCOMPARE(head.last(), QByteArray("cache_hit_rate"));
        QCOMPARE(line.last(), QByteArray::number(cached / prompt, 'f', 3));
    }

    // shared_prefix with every group primed by the warmups: each measured prompt finds its 256-token prefix (16 whole
    // blocks) in the simulator's prefix cache and nothing of its own 256-token suffix, so exactly half is cached.
    void sharedPrefixHitsItsPrefix()
    {
        const QString name = QStringLiteral("shared");
        const QString out = m_dir.filePath(name + QStringLiteral("-results"));
        const Outcome o = runJson(
            name, R"({"name": "shared", "endpoint": {"base_url": "sim:", "path": "/v1/completions", "model": "m"},
            "server": {"engine": "vllm", "args": {"enable_prefix_caching": true}},
            "dataset": {"name": "shared_prefix", "seed": 3, "ignore_eos": true, "prefix_len": 256, "groups": 4},
            "load": {"mode": "concurrency", "points": [{"concurrency": 4, "input_len": 512, "output_len": 8,
                     "num_prompts": 32}], "warmup_requests": 4, "repeat": 1},
            "variants": [{"name": "baseline"}]})");
        QVERIFY2(o.exitCode == 0, o.err.constData());
        QString error;
        const QVector<ResultRun> runs = readResultFilePath(out + QStringLiteral("/baseline/c4-r1.json"), &error);
        QVERIFY2(runs.size() == 1, qPrintable(error));
        QCOMPARE(runs.first().number(QStringLiteral("total_input_tokens")), 32.0 * 512);
        QCOMPARE(runs.first().number(QStringLiteral("servescope_cached_tokens")), 32.0 * 256);
        QCOMPARE(runs.first().number(QStringLiteral("servescope_cached_prompt_tokens")), 32.0 * 512);
    }

    // multi_turn against the simulator's prefix cache: each turn sends the conversation so far, the server's own
    // answers included, on the slot its session holds, a think time after the previous answer; the cache holds
    // every whole block of the previous turn's prompt, and the hit rate the answers reported is the server's own.
    void multiTurnCarriesTheConversation()
    {
        const QString name = QStringLiteral("turns");
        const Outcome o = runJson(
            name, R"({"name": "turns", "endpoint": {"base_url": "sim:", "path": "/v1/chat/completions", "model": "m"},
            "server": {"engine": "vllm", "args": {"enable_prefix_caching": true}},
            "dataset": {"name": "multi_turn", "seed": 5, "ignore_eos": true, "prefix_len": 40, "turns": 4,
                        "think_time_s": 0.02},
            "load": {"mode": "concurrency", "points": [{"concurrency": 2, "input_len": 128, "output_len": 16,
                     "num_prompts": 16}], "repeat": 1},
            "variants": [{"name": "baseline"}]})");
        QVERIFY2(o.exitCode == 0, o.err.constData());
        QVector<RequestRecord> r = storedRequests(name);
        QCOMPARE(r.size(), 16);
        std::sort(r.begin(), r.end(), [](const RequestRecord &a, const RequestRecord &b) { return a.index < b.index; });
        qint64 later = 0, laterCached = 0, cached = 0, prompt = 0;
        for (int i = 0; i < r.size(); ++i) {
            QVERIFY2(r[i].ok(), qPrintable(r[i].errorText));
            QCOMPARE(r[i].index, i);
            cached += r[i].cachedTokens;
            prompt += r[i].promptTokens;
            if (i % 4 == 0)
                continue;
            const RequestRecord &before = r[i - 1];
            QCOMPARE(r[i].slot, before.slot);
            QCOMPARE(r[i].scheduledNs, before.endNs + 20000000);
            QVERIFY(r[i].startNs >= r[i].scheduledNs);
            // The earlier prompt, its answer, and a new 128-token message.
            QVERIFY2(r[i].promptTokens >= before.promptTokens + before.completionTokens + 128,
                qPrintable(QStringLiteral("%1 after %2").arg(r[i].promptTokens).arg(before.promptTokens)));
            QCOMPARE(r[i].cachedTokens, before.promptTokens / 16 * 16);
            later += r[i].promptTokens;
            laterCached += r[i].cachedTokens;
        }
        QString error;
        const QVector<ResultRun> runs
            = readResultFilePath(m_dir.filePath(name + QStringLiteral("-results/baseline/c2-r1.json")), &error);
        QVERIFY2(runs.size() == 1, qPrintable(error));
        const ResultRun &run = runs.first();
        QCOMPARE(run.number(QStringLiteral("servescope_first_turn_requests")), 4.0);
        QCOMPARE(run.number(QStringLiteral("servescope_later_turn_requests")), 12.0);
        QCOMPARE(run.number(QStringLiteral("servescope_later_turn_cache_hit_rate")), 100.0 * laterCached / later);
        const double server = run.number(QStringLiteral("servescope_server_prefix_cache_hit_rate"));
        QVERIFY2(std::abs(100.0 * cached / prompt - server) < 1,
            qPrintable(QStringLiteral("client %1%, server %2%").arg(100.0 * cached / prompt).arg(server)));
        QVERIFY(run.number(QStringLiteral("servescope_later_turn_median_ttft_ms")) > 0);
        QVERIFY(o.out.split('\n').value(0).endsWith("\tlater_turn_median_ttft_ms\tlater_turn_cache_hit_rate"));
    }

    // Later turns pay only for what the prefix cache lacks: at concurrency 1 and the simulator's own speed, a later
    // turn's TTFT is the roofline's prefill step of its uncached tokens (never less; a loaded host only adds), far
    // below the step of its whole prompt, which the first turn pays.
    void multiTurnLaterTurnsPrefillOnlyWhatIsNotCached()
    {
        const Outcome o = runJson(QStringLiteral("roofline"),
            R"({"name": "roofline", "endpoint": {"base_url": "sim:", "path": "/v1/chat/completions", "model": "m"},
            "server": {"engine": "vllm", "args": {"enable_prefix_caching": true}},
            "dataset": {"name": "multi_turn", "seed": 2, "ignore_eos": true, "prefix_len": 0, "turns": 3},
            "load": {"mode": "concurrency", "points": [{"concurrency": 1, "input_len": 1024, "output_len": 4,
                     "num_prompts": 6}]}})",
            1);
        QVERIFY2(o.exitCode == 0, o.err.constData());
        const QVector<RequestRecord> r = storedRequests(QStringLiteral("roofline"));
        QCOMPARE(r.size(), 6);
        // The simulator's default model (docs/simulator.md): 6.5 ms a step, 2 × 6.7e9 FLOPs a token at 1.9e14 FLOP/s.
        const auto prefillMs = [](int tokens) { return 6.5 + 2 * 6.7e9 * tokens / 1.9e14 * 1000; };
        for (const RequestRecord &q : std::as_const(r)) {
            QVERIFY2(q.ok(), qPrintable(q.errorText));
            const auto first = std::find(q.eventKinds.cbegin(), q.eventKinds.cend(), EventKind::Content);
            QVERIFY(first != q.eventKinds.cend());
            const double ttftMs = q.eventNs.at(first - q.eventKinds.cbegin()) / 1e6;
            const double cachedMs = prefillMs(q.promptTokens - qMax(0, q.cachedTokens));
            const QByteArray what = QStringLiteral("turn %1: TTFT %2 ms, roofline %3 ms for %4 of %5 tokens")
                                        .arg(q.index % 3)
                                        .arg(ttftMs)
                                        .arg(cachedMs)
                                        .arg(q.promptTokens - q.cachedTokens)
                                        .arg(q.promptTokens)
                                        .toUtf8();
            // Never below the roofline; above it only by what a loaded host adds (a generous bound: several
            // test processes share two cores).
            QVERIFY2(ttftMs >= 0.97 * cachedMs && ttftMs <= 1.5 * cachedMs + 25, what.constData());
            if (q.index % 3 > 0) {
                QVERIFY2(q.cachedTokens >= 1000, what.constData());
                QVERIFY2(ttftMs < 0.75 * prefillMs(q.promptTokens), what.constData());
            }
        }
    }

    // A thinking model's answer goes into the next turn without its reasoning: against 8 of 16 output tokens
    // reasoned, the second turn's prompt is 8 tokens shorter than against none.
    void multiTurnLeavesReasoningOut()
    {
        QList<int> second;
        for (const int reasoning : { 0, 8 }) {
            const QString name = QStringLiteral("think%1").arg(reasoning);
            const Outcome o = runJson(name,
                QStringLiteral(R"({"name": "think", "endpoint": {"base_url": "sim:", "path": "/v1/chat/completions",
                "model": "m"}, "server": {"engine": "vllm", "args": {"reasoning_tokens": %1}},
                "dataset": {"name": "multi_turn", "turns": 2, "prefix_len": 0, "ignore_eos": true},
                "load": {"mode": "concurrency", "points": [{"concurrency": 1, "input_len": 64, "output_len": 16,
                         "num_prompts": 2}]}})")
                    .arg(reasoning)
                    .toUtf8());
            QVERIFY2(o.exitCode == 0, o.err.constData());
            const QVector<RequestRecord> r = storedRequests(name);
            QCOMPARE(r.size(), 2);
            QCOMPARE(r[1].index, 1);
            QCOMPARE(r[1].reasoningTokens, reasoning);
            second << r[1].promptTokens;
        }
        QCOMPARE(second[0] - second[1], 8);
    }

    // A Mooncake trace in open loop: every request is sent on the trace's schedule scaled to the point's rate (to
    // the nanosecond, as scheduled), and the simulator's prefix cache hits exactly the blocks the trace repeats.
    void traceReplaysOnScheduleWithItsSharedBlocks()
    {
        const QString trace = m_dir.filePath(QStringLiteral("mooncake.jsonl"));
        {
            QFile f(trace);
            QVERIFY(f.open(QIODevice::WriteOnly));
            // 48 requests, uneven gaps; 4 conversations, each request its conversation's first 512-token block
            // (hash id = group) and one block of its own; every fifth prompt a shorter one whose own block is cut.
            for (int i = 0; i < 48; ++i)
                f.write(QJsonDocument(QJsonObject { { QStringLiteral("timestamp"), 1000 + i * 100 + (i % 3) * 30 },
                                          { QStringLiteral("input_length"), i % 5 ? 1024 : 700 },
                                          { QStringLiteral("output_length"), 4 + i % 3 },
                                          { QStringLiteral("hash_ids"), QJsonArray { i % 4, 100 + i } } })
                            .toJson(QJsonDocument::Compact)
                    + '\n');
        }
        Trace t;
        Reason why;
        QVERIFY(readTrace(trace, QString(), kMaxTraceRows, &t, &why));
        const double rate = 2 * t.rate(); // twice the trace's speed
        const QString name = QStringLiteral("trace");
        const QByteArray json = QStringLiteral(R"({"name": "trace", "endpoint": {"base_url": "sim:",
            "path": "/v1/completions", "model": "m"},
            "server": {"engine": "vllm", "args": {"enable_prefix_caching": true}},
            "dataset": {"name": "trace", "path": "%1", "seed": 5, "ignore_eos": true},
            "load": {"mode": "rate", "points": [{"request_rate": %2, "num_prompts": 48}], "repeat": 1},
            "variants": [{"name": "baseline"}]})")
                                    .arg(trace)
                                    .arg(rate, 0, 'g', 17)
                                    .toUtf8();
        const Outcome o = runJson(name, json);
        QVERIFY2(o.exitCode == 0, o.err.constData());
        QVERIFY2(o.err.contains("trace replay: 48 requests of a mooncake trace at"), o.err.constData());
        // validate says what the trace holds: its own rate is the request_rate of a replay at its own speed.
        const Outcome v = CliRun::cli({ QStringLiteral("validate"), m_dir.filePath(name + QStringLiteral(".json")) });
        QVERIFY2(v.exitCode == 0, v.out.constData());
        QVERIFY2(v.out.contains(QStringLiteral("trace: mooncake, 48 requests over %1 s, %2 req/s, %3% of prompt "
                                               "tokens in repeated blocks\n")
                                    .arg(t.durationSeconds(), 0, 'f', 3)
                                    .arg(t.rate(), 0, 'g', 6)
                                    .arg(100 * traceRepeatedShare(t, 48, 512), 0, 'f', 1)
                                    .toUtf8()),
            v.out.constData());
        ProjectStore store;
        QVERIFY(store.open(m_dir.filePath(name + QStringLiteral(".servescope"))));
        QVector<RequestRecord> requests;
        QVERIFY(store.requests(1, {}, &requests));
        QCOMPARE(requests.size(), 48);
        std::sort(requests.begin(), requests.end(), [](const auto &a, const auto &b) { return a.index < b.index; });
        const QVector<qint64> offsets = traceOffsetsNs(t, 48, rate);
        qint64 tokens = 0, cached = 0;
        for (int i = 0; i < 48; ++i) {
            const RequestRecord &r = requests[i];
            QCOMPARE(r.status, RequestStatus::Ok);
            QCOMPARE(r.scheduledNs - requests[0].scheduledNs, offsets[i]);
            QVERIFY(r.startNs >= r.scheduledNs);
            QCOMPARE(r.promptTokens, i % 5 ? 1024 : 700);
            QCOMPARE(r.completionTokens, 4 + i % 3);
            tokens += r.promptTokens;
            cached += r.cachedTokens;
        }
        // The first request of each conversation finds nothing; the 44 after it their conversation's first block.
        QCOMPARE(traceRepeatedShare(t, 48, 512), 44.0 * 512 / tokens);
        QVERIFY2(std::abs(double(cached) / tokens - 44.0 * 512 / tokens) < 0.012, // one block of 44 may race
            qPrintable(QStringLiteral("cached %1 of %2 prompt tokens").arg(cached).arg(tokens)));
    }

    // A point with load.stop_when_settled: it stops sending once its medians are known within the width, after the
    // minimum, and says so in the log, the stored point and the run's findings; its in-flight requests finish.
    void pointStopsOnceSettled()
    {
        const QString name = QStringLiteral("settle");
        const Outcome o = runJson(name,
            R"({"name": "settle", "endpoint": {"base_url": "sim:", "path": "/v1/completions", "model": "m"},
            "server": {"engine": "vllm", "args": {}},
            "dataset": {"name": "random", "seed": 3, "ignore_eos": true},
            "load": {"mode": "concurrency", "points": [{"concurrency": 8, "input_len": 64, "output_len": 16,
                     "num_prompts": 20000}], "repeat": 1, "stop_when_settled": {"width": 0.5, "min_requests": 120}},
            "variants": [{"name": "baseline"}]})");
        QVERIFY2(o.exitCode == 0, o.err.constData());
        // Settled at the minimum on a quiet host; later when a loaded one widens the spread, never before it.
        const QRegularExpressionMatch said
            = QRegularExpression(QStringLiteral("baseline c8 r1 settled after (\\d+) successful requests"))
                  .match(QString::fromUtf8(o.err));
        QVERIFY2(said.hasMatch(), o.err.constData());
        const int settledAt = said.captured(1).toInt();
        QVERIFY2(settledAt >= 120 && settledAt < 2000, o.err.constData());
        QVERIFY2(o.err.contains("finding: stopped-early\tbaseline\tc8\tsettled_width="), o.err.constData());
        ProjectStore store;
        QVERIFY(store.open(m_dir.filePath(name + QStringLiteral(".servescope"))));
        QVector<PointSummary> summaries;
        QVERIFY(store.pointSummaries(1, &summaries));
        QCOMPARE(summaries.size(), 1);
        const PointSummary &s = summaries.first();
        QCOMPARE(s.client.value(QStringLiteral("settled_requests")), double(settledAt));
        QVERIFY(s.client.value(QStringLiteral("settled_width")) < 0.5);
        // The success that settled it stopped the sending: the 8 in flight then finished after it, and the few the
        // engine sent while the run thread caught up on a loaded host; none cancelled.
        QVERIFY2(s.completed >= settledAt && s.completed <= settledAt + 64, qPrintable(QString::number(s.completed)));
        QCOMPARE(s.cancelled, 0);
        QCOMPARE(s.failed, 0);
    }

    // A thinking model without usage: the reasoning is counted by /tokenize of its text (marked estimated), the
    // whole output by /tokenize of all of it (exact), and TTFO lies the reasoning's decode time after TTFT.
    void reasoningCountedWithoutUsage()
    {
        const QString name = QStringLiteral("thinking");
        const QString project = m_dir.filePath(name + QStringLiteral(".servescope"));
        const Outcome o = runJson(name,
            R"({"name": "thinking", "endpoint": {"base_url": "sim:", "path": "/v1/chat/completions", "model": "m"},
            "server": {"engine": "vllm", "args": {"reasoning_tokens": 40, "no_usage": true}},
            "dataset": {"name": "random", "seed": 7, "ignore_eos": true},
            "load": {"mode": "concurrency", "points": [{"concurrency": 4, "input_len": 32, "output_len": 64,
                     "num_prompts": 16}], "repeat": 1},
            "variants": [{"name": "baseline"}]})");
        QVERIFY2(o.exitCode == 0, o.err.constData());
        ProjectStore store;
        QVERIFY(store.open(project));
        QVector<RequestRecord> requests;
        QVERIFY(store.requests(1, {}, &requests));
        QCOMPARE(requests.size(), 16);
        for (const RequestRecord &r : requests) {
            QCOMPARE(r.completionTokens, 64);
            QVERIFY(!r.outputEstimated);
            QCOMPARE(r.reasoningTokens, 40);
            QVERIFY(r.reasoningEstimated);
            QCOMPARE(r.cachedTokens, -1); // no usage: not said
        }
        QVector<PointSummary> summaries;
        QVERIFY(store.pointSummaries(1, &summaries));
        QCOMPARE(summaries.size(), 1);
        const PointSummary &s = summaries.first();
        QCOMPARE(s.reasoningTokens, qint64(16 * 40));
        QCOMPARE(s.reasoningEstimated, 16);
        QCOMPARE(s.cachedTokens, qint64(-1));
        QCOMPARE(s.ttfo.count, 16);
        // 40 reasoning tokens of decode between the first token and the answer's first: near TTFT + 40 TPOT,
        // which a loaded host stretches, never below TTFT + 30 TPOT.
        const double expected = s.ttft.median + 40 * s.tpot.median;
        QVERIFY2(s.ttfo.median > s.ttft.median + 30 * s.tpot.median && s.ttfo.median < 1.5 * expected,
            qPrintable(QStringLiteral("TTFO %1 ms, TTFT + 40 TPOT %2 ms").arg(s.ttfo.median).arg(expected)));
        QVERIFY2(o.out.split('\n').value(1).contains("\t0.625\t-"), o.out.constData()); // 40 of 64, no hit rate
    }

    // One simulator, one workload, the five APIs as variants: the same engine behind gives the same token counts
    // exactly, the same decode speed, and the reasoning phase where the API tells it apart (not on /generate).
    void everyApiMeasuresAlike()
    {
        const QString name = QStringLiteral("apis");
        const QString project = m_dir.filePath(name + QStringLiteral(".servescope"));
        const Outcome o = runJson(name,
            R"({"name": "apis", "endpoint": {"base_url": "sim:", "api": "chat", "model": "m"},
            "server": {"engine": "vllm", "args": {"reasoning_tokens": 8}},
            "dataset": {"name": "random", "seed": 7, "ignore_eos": true},
            "load": {"mode": "concurrency", "points": [{"concurrency": 4, "input_len": 32, "output_len": 48,
                     "num_prompts": 24}], "repeat": 1},
            "variants": [{"name": "chat"},
                {"name": "completions", "changes": {"endpoint.path": "/v1/completions"}},
                {"name": "responses", "changes": {"endpoint.path": "/v1/responses"}},
                {"name": "messages", "changes": {"endpoint.path": "/v1/messages"}},
                {"name": "generate", "changes": {"endpoint.path": "/generate"}}]})");
        QVERIFY2(o.exitCode == 0, o.err.constData());
        ProjectStore store;
        QVERIFY(store.open(project));
        QVector<PointSummary> summaries;
        QVERIFY(store.pointSummaries(1, &summaries));
        QCOMPARE(summaries.size(), 5);
        QHash<QString, PointSummary> by;
        for (const PointSummary &s : summaries)
            by.insert(s.variant, s);
        const PointSummary chat = by.value(QStringLiteral("chat"));
        QVERIFY(chat.tpot.median > 0);
        for (const PointSummary &s : summaries) {
            const QString what = s.variant;
            QCOMPARE(s.completed, 24);
            QCOMPARE(s.failed, 0);
            QCOMPARE(s.totalOutputTokens, qint64(24 * 48));
            QVERIFY2(!s.outputEstimated, qPrintable(what));
            QVERIFY2(std::abs(s.tpot.median - chat.tpot.median) < 0.3 * chat.tpot.median,
                qPrintable(
                    QStringLiteral("%1: TPOT %2 ms, chat %3 ms").arg(what).arg(s.tpot.median).arg(chat.tpot.median)));
            if (what == QLatin1String("completions") || what == QLatin1String("generate")) {
                QCOMPARE(s.totalInputTokens, qint64(24 * 32)); // token IDs: no chat template
            } else {
                QCOMPARE(s.totalInputTokens, chat.totalInputTokens); // the same chat template on all three
            }
            if (what == QLatin1String("completions") || what == QLatin1String("generate")) {
                // The simulator reasons on conversations only; /generate would not tell it apart anyway.
                QCOMPARE(s.reasoningTokens, qint64(0));
                continue;
            }
            QCOMPARE(s.reasoningTokens, qint64(24 * 8));
            // Messages does not report reasoning tokens: the thinking text is counted by /tokenize.
            QCOMPARE(s.reasoningEstimated, what == QLatin1String("messages") ? 24 : 0);
            // The answer's first token comes after the 8 reasoning tokens' decode: near TTFT + 8 TPOT, which a
            // loaded host stretches (several test processes share two cores), never below TTFT + 4 TPOT.
            const double expected = s.ttft.median + 8 * s.tpot.median;
            QVERIFY2(s.ttfo.median > s.ttft.median + 4 * s.tpot.median && s.ttfo.median < 2 * expected,
                qPrintable(
                    QStringLiteral("%1: TTFO %2 ms, TTFT + 8 TPOT %3 ms").arg(what).arg(s.ttfo.median).arg(expected)));
        }
    }

    // A gateway that speaks one API, reached with another: check says which API answers, and where.
    void checkNamesTheApiThatAnswers_data()
    {
        QTest::addColumn<QString>("served");
        QTest::addColumn<QString>("chosenPath");
        QTest::addColumn<QByteArray>("expected");
        QTest::newRow("messages behind a chat path")
            << QStringLiteral("messages") << QStringLiteral("/v1/chat/completions")
            << QByteArray("answering_api\tmessages\nanswering_path\t/v1/messages\n");
        QTest::newRow("chat behind a messages path")
            << QStringLiteral("chat") << QStringLiteral("/v1/messages")
            << QByteArray("answering_api\tchat\nanswering_path\t/v1/chat/completions\n");
        QTest::newRow("responses behind a gateway's chat path")
            << QStringLiteral("responses") << QStringLiteral("/gw/v1/chat/completions")
            << QByteArray("answering_api\tresponses\nanswering_path\t/gw/v1/responses\n");
        QTest::newRow("generate behind a completions path")
            << QStringLiteral("sglang-generate") << QStringLiteral("/v1/completions")
            << QByteArray("answering_api\tsglang-generate\nanswering_path\t/generate\n");
    }
    void checkNamesTheApiThatAnswers()
    {
        QFETCH(QString, served);
        QFETCH(QString, chosenPath);
        QFETCH(QByteArray, expected);
        SimChild sim;
        QStringList args { QStringLiteral("--only-api"), served };
        if (chosenPath.startsWith(QLatin1String("/gw")))
            args << QStringLiteral("--root-path") << QStringLiteral("/gw");
        QVERIFY(sim.start(args));
        QString base = sim.url().toString();
        const Outcome o = CliRun::cli({ QStringLiteral("check"), QStringLiteral("--base-url"), base,
            QStringLiteral("--model"), QStringLiteral("servescope-sim-7b"), QStringLiteral("--path"), chosenPath });
        QVERIFY2(o.exitCode == 1, QByteArray(o.out + o.err).constData());
        QVERIFY2(o.out.contains("route_not_found"), o.out.constData());
        QVERIFY2(o.out.contains(expected), o.out.constData());
    }

    // Without usage, output tokens come from /tokenize of the generated text when the endpoint has it, so events
    // of several tokens (or of split words) no longer pass for one token each; without it they stay estimated.
    void outputTokensWithoutUsage_data()
    {
        QTest::addColumn<QStringList>("simFlags");
        QTest::addColumn<int>("outputLen");
        QTest::newRow("usage, 4 tokens per event")
            << QStringList { QStringLiteral("--tokens-per-chunk"), QStringLiteral("4") } << 16;
        QTest::newRow("no usage, 4 tokens per event, /tokenize")
            << QStringList { QStringLiteral("--no-usage"), QStringLiteral("--tokens-per-chunk"), QStringLiteral("4") }
            << 16;
        QTest::newRow("no usage, 16-character events, /tokenize")
            << QStringList { QStringLiteral("--no-usage"), QStringLiteral("--chunk-chars"), QStringLiteral("16") }
            << 16;
        QTest::newRow("no usage, 4 tokens per event, no /tokenize: content events")
            << QStringList { QStringLiteral("--no-usage"), QStringLiteral("--tokens-per-chunk"), QStringLiteral("4"),
                   QStringLiteral("--no-tokenize") }
            << 4;
    }

    void outputTokensWithoutUsage()
    {
        QFETCH(QStringList, simFlags);
        QFETCH(int, outputLen);
        SimChild sim;
        QVERIFY(sim.start(QStringList { QStringLiteral("--model"), QStringLiteral("m"), QStringLiteral("--time-scale"),
                              QStringLiteral("50") }
            + simFlags));
        const QString name = QStringLiteral("tokens") + sanitizeName(QString::fromLatin1(QTest::currentDataTag()));
        const QString exp = writeExperiment(name,
            QJsonObject { { QStringLiteral("base_url"), sim.url().toString() },
                { QStringLiteral("path"), QStringLiteral("/v1/completions") },
                { QStringLiteral("model"), QStringLiteral("m") } },
            QStringLiteral("{\"mode\": \"concurrency\", \"points\": [{\"concurrency\": 2, \"input_len\": 16, "
                           "\"output_len\": 16, \"num_prompts\": 10}], \"repeat\": 1}"));
        const QString out = m_dir.filePath(name + QStringLiteral("-results"));
        const Outcome o = run({ exp, QStringLiteral("--project"), m_dir.filePath(name + QStringLiteral(".servescope")),
            QStringLiteral("--out-dir"), out, QStringLiteral("--variant"), QStringLiteral("baseline") });
        QVERIFY2(o.exitCode == 0, o.err.constData());
        QString error;
        const QVector<ResultRun> runs = readResultFilePath(out + QStringLiteral("/baseline/c2-r1.json"), &error);
        QVERIFY2(runs.size() == 1, qPrintable(error));
        QCOMPARE(runs.first().outputLens.size(), 10);
        for (qint64 len : runs.first().outputLens)
            QCOMPARE(len, qint64(outputLen));
        // An estimate is marked in every output and raises no ignore_eos finding (the count cannot show
        // it); exact counts are not marked.
        const int estimated = outputLen == 16 ? 0 : 10;
        QCOMPARE(runs.first().number(QStringLiteral("servescope_output_estimated")), double(estimated));
        const QList<QByteArray> csv = readAll(out + QStringLiteral("/summary.csv")).trimmed().split('\n');
        QVERIFY(csv.first().endsWith(",output_estimated,input_estimated,reasoning_tokens,reasoning_estimated,cached_"
                                     "tokens,cached_prompt_tokens,cost_per_million_output_tokens"));
        // Token-ID prompts: the input count is exact with or without usage. No reasoning; the prefix cache's
        // hits (none) where usage said them.
        const QList<QByteArray> row = csv.at(1).split(',');
        QCOMPARE(row.mid(row.size() - 7, 4), (QList<QByteArray> { QByteArray::number(estimated), "0", "0", "0" }));
        QCOMPARE(
            row.at(row.size() - 3), simFlags.contains(QStringLiteral("--no-usage")) ? QByteArray() : QByteArray("0"));
        QCOMPARE(row.last(), QByteArray()); // no server.gpu_hour_price: no cost
        QVERIFY2(!o.err.contains("ignore-eos-not-honoured"), o.err.constData());
        QCOMPARE(o.err.contains("output-estimated"), estimated > 0);
        ProjectStore store;
        QVERIFY(store.open(m_dir.filePath(name + QStringLiteral(".servescope"))));
        QVector<PointSummary> summaries;
        QVERIFY(store.pointSummaries(1, &summaries));
        QCOMPARE(summaries.value(0).outputEstimated, estimated);
        // The run records the model the streams said the server ran, with the source "captured".
        const QJsonArray env = QJsonDocument::fromJson(store.run(1)->envSnapshot).array();
        QVERIFY2(env.contains(
                     QJsonArray { QStringLiteral("served_model"), QStringLiteral("m"), QStringLiteral("captured") }),
            store.run(1)->envSnapshot.constData());
        const QJsonObject manifest = QJsonDocument::fromJson(readAll(out + QStringLiteral("/manifest.json"))).object();
        QVERIFY(manifest.value(QLatin1String("env_snapshot"))
                    .toArray()
                    .contains(QJsonArray {
                        QStringLiteral("served_model"), QStringLiteral("m"), QStringLiteral("captured") }));
    }

    // Text prompts on a chat endpoint: without /tokenize (a gateway) three max_tokens 1 probes calibrate the
    // sizing, so prompts arrive at their length (the chat template's 7 tokens taken off); without usage the
    // input count is the prompt's /tokenize count, or the calibrated estimate, marked.
    void inputTokensWithoutTokenize_data()
    {
        QTest::addColumn<QStringList>("simFlags");
        QTest::addColumn<int>("inputEstimated");
        QTest::newRow("no /tokenize, usage: calibrated, exact count")
            << QStringList { QStringLiteral("--no-tokenize") } << 0;
        QTest::newRow("no /tokenize, no usage: calibrated, estimated count")
            << QStringList { QStringLiteral("--no-tokenize"), QStringLiteral("--no-usage") } << 10;
        QTest::newRow("/tokenize, no usage: the prompt's count") << QStringList { QStringLiteral("--no-usage") } << 0;
    }

    void inputTokensWithoutTokenize()
    {
        QFETCH(QStringList, simFlags);
        QFETCH(int, inputEstimated);
        SimChild sim;
        QVERIFY(sim.start(QStringList { QStringLiteral("--model"), QStringLiteral("m"), QStringLiteral("--time-scale"),
                              QStringLiteral("50") }
            + simFlags));
        const QString name = QStringLiteral("input") + sanitizeName(QString::fromLatin1(QTest::currentDataTag()));
        const QString exp = writeExperiment(name,
            QJsonObject { { QStringLiteral("base_url"), sim.url().toString() },
                { QStringLiteral("path"), QStringLiteral("/v1/chat/completions") },
                { QStringLiteral("model"), QStringLiteral("m") } },
            QStringLiteral("{\"mode\": \"concurrency\", \"points\": [{\"concurrency\": 2, \"input_len\": 64, "
                           "\"output_len\": 8, \"num_prompts\": 10}], \"repeat\": 1}"));
        const QString out = m_dir.filePath(name + QStringLiteral("-results"));
        const QString project = m_dir.filePath(name + QStringLiteral(".servescope"));
        const Outcome o = run({ exp, QStringLiteral("--project"), project, QStringLiteral("--out-dir"), out,
            QStringLiteral("--variant"), QStringLiteral("baseline") });
        QVERIFY2(o.exitCode == 0, o.err.constData());
        QString error;
        const QVector<ResultRun> runs = readResultFilePath(out + QStringLiteral("/baseline/c2-r1.json"), &error);
        QVERIFY2(runs.size() == 1, qPrintable(error));
        QCOMPARE(runs.first().inputLens.size(), 10);
        // Each prompt within 2% of its 64 tokens as the server counts them; before calibration they came as 71.
        for (qint64 len : runs.first().inputLens)
            QVERIFY2(std::abs(len - 64) <= 1, qPrintable(QString::number(len)));
        QCOMPARE(runs.first().number(QStringLiteral("servescope_input_estimated")), double(inputEstimated));
        const QList<QByteArray> csv = readAll(out + QStringLiteral("/summary.csv")).trimmed().split('\n');
        const QList<QByteArray> row = csv.at(1).split(','); // input_estimated, then reasoning and cache counts
        QCOMPARE(row.at(row.size() - 6), QByteArray::number(inputEstimated));
        QCOMPARE(o.err.contains("input-estimated"), inputEstimated > 0);
        ProjectStore store;
        QVERIFY(store.open(project));
        QVector<PointSummary> summaries;
        QVERIFY(store.pointSummaries(1, &summaries));
        QCOMPARE(summaries.value(0).inputEstimated, inputEstimated);
        QVector<RequestRecord> records;
        QVERIFY(store.requests(1, RequestFilter {}, &records));
        int marked = 0;
        for (const RequestRecord &r : std::as_const(records))
            marked += r.inputEstimated ? 1 : 0;
        QCOMPARE(marked, inputEstimated);
    }
};

QTEST_GUILESS_MAIN(TestRunEndpoints)
#include "tst_runendpoints.moc"

// SPDX-License-Identifier: MIT
#include "simchild.h"

#include "io/resultfile.h"
#include "metrics/numpystats.h"
#include "model/experiment.h"
#include "storage/projectstore.h"

#include <QDir>
#include <QDirIterator>
#include <QJsonDocument>
#include <QJsonObject>
#include <QObject>
#include <QTcpSocket>
#include <QTemporaryDir>

#include <algorithm>
#include <csignal>

using namespace ServeScope;

class TestCliRun final : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    struct Outcome {
        int exitCode = -1;
        QByteArray out, err;
    };

    QString writeExperiment(const QString &name, const QJsonObject &endpoint, const QString &load)
    {
        const QByteArray json
            = QStringLiteral(
                "{\n"
                "  \"name\": \"%1\",\n"
                "  \"endpoint\": %2,\n"
                "  \"server\": {\"engine\": \"vllm\", \"args\": {\"max_num_seqs\": 256}},\n"
                "  \"dataset\": {\"name\": \"random\", \"seed\": 7, \"ignore_eos\": true, \"range_ratio\": 0.0},\n"
                "  \"sampling\": {\"temperature\": 0.0},\n"
                "  \"load\": %3,\n"
                "  \"metrics\": {\"percentiles\": [50, 90, 99], \"definitions\": \"vllm\"},\n"
                "  \"variants\": [{\"name\": \"baseline\"}, {\"name\": \"seqs-2\", \"changes\": "
                "{\"server.args.max_num_seqs\": 2}}]\n"
                "}\n")
                  .arg(name, QString::fromUtf8(QJsonDocument(endpoint).toJson(QJsonDocument::Compact)), load)
                  .toUtf8();
        const QString path = m_dir.filePath(name + QStringLiteral(".json"));
        QFile f(path);
        f.open(QIODevice::WriteOnly);
        f.write(json);
        return path;
    }

    static Outcome run(
        const QStringList &args, const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment())
    {
        QProcess p;
        p.setProcessEnvironment(env);
        p.start(SimChild::cli(), QStringList { QStringLiteral("run") } + args);
        p.waitForFinished(240000);
        return { p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            p.readAllStandardError() };
    }

    static QByteArray readAll(const QString &path)
    {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(!SimChild::cli().isEmpty(), "SERVESCOPE_CLI is not set");
        QVERIFY(m_dir.isValid());
    }

    void resultFilesRecomputeFromTheirArrays()
    {
        const QString exp = writeExperiment(QStringLiteral("sweep"),
            QJsonObject { { QStringLiteral("base_url"), QStringLiteral("sim:") },
                { QStringLiteral("path"), QStringLiteral("/v1/chat/completions") },
                { QStringLiteral("model"), QStringLiteral("m") } },
            QStringLiteral(
                "{\"mode\": \"concurrency\", \"points\": [\n"
                "                {\"concurrency\": 1, \"input_len\": 32, \"output_len\": 8, \"num_prompts\": 6},\n"
                "                {\"concurrency\": 4, \"input_len\": 64, \"output_len\": 16, \"num_prompts\": 12}],\n"
                "                \"warmup_requests\": 2, \"repeat\": 2}\n"));
        const QString project = m_dir.filePath(QStringLiteral("sweep.servescope"));
        const QString out = m_dir.filePath(QStringLiteral("sweep-results"));
        const Outcome o = run({ exp, QStringLiteral("--project"), project, QStringLiteral("--out-dir"), out,
            QStringLiteral("--sim-time-scale"), QStringLiteral("20") });
        QVERIFY2(o.exitCode == 0, o.err.constData());

        QVERIFY(QFile::exists(out + QStringLiteral("/manifest.json")));
        const QJsonObject manifest = QJsonDocument::fromJson(readAll(out + QStringLiteral("/manifest.json"))).object();
        QCOMPARE(manifest.value(QLatin1String("status")).toString(), QStringLiteral("finished"));
        QCOMPARE(manifest.value(QLatin1String("definitions")).toString(), QStringLiteral("vllm"));

        const QList<QByteArray> csv = readAll(out + QStringLiteral("/summary.csv")).trimmed().split('\n');
        QCOMPARE(csv.size(), 1 + 2 * 2 * 2); // header + variants x points x repeats

        int files = 0;
        for (const QString &variant : { QStringLiteral("baseline"), QStringLiteral("seqs-2") }) {
            for (const auto &[label, prompts, inLen, outLen] :
                { std::tuple { QStringLiteral("c1"), 6, 32, 8 }, std::tuple { QStringLiteral("c4"), 12, 64, 16 } }) {
                for (int r = 1; r <= 2; ++r) {
                    const QString path = QStringLiteral("%1/%2/%3-r%4.json").arg(out, variant, label).arg(r);
                    QString error;
                    const QVector<ResultRun> runs = readResultFilePath(path, &error);
                    QVERIFY2(runs.size() == 1, qPrintable(path + QLatin1Char(' ') + error));
                    const ResultRun &rr = runs.first();
                    QCOMPARE(
                        int(rr.number(QStringLiteral("completed")) + rr.number(QStringLiteral("failed"))), prompts);
                    QCOMPARE(int(rr.number(QStringLiteral("completed"))), prompts);
                    QCOMPARE(rr.ttfts.size(), prompts);
                    // Exact lengths: server-counted prompt tokens and ignore_eos outputs.
                    for (qint64 len : rr.inputLens)
                        QCOMPARE(len, qint64(inLen));
                    for (qint64 len : rr.outputLens)
                        QCOMPARE(len, qint64(outLen));
                    std::vector<double> ttft(rr.ttfts.cbegin(), rr.ttfts.cend());
                    std::sort(ttft.begin(), ttft.end());
                    QCOMPARE(Stats::mean(ttft) * 1000, rr.number(QStringLiteral("mean_ttft_ms")));
                    QCOMPARE(Stats::percentileSorted(ttft, 99) * 1000, rr.number(QStringLiteral("p99_ttft_ms")));
                    std::vector<double> itl;
                    for (const auto &gaps : rr.itls)
                        itl.insert(itl.end(), gaps.cbegin(), gaps.cend());
                    // Chat streams open with a role-only token event (as vLLM's), so each request has one
                    // gap per output token: role -> first token, then token -> token.
                    QCOMPARE(itl.size(), size_t(prompts * outLen));
                    std::sort(itl.begin(), itl.end());
                    QCOMPARE(Stats::medianSorted(itl) * 1000, rr.number(QStringLiteral("median_itl_ms")));
                    QVERIFY(rr.number(QStringLiteral("max_concurrent_requests")) <= label.mid(1).toInt());
                    // The steady set: from the first moment all slots are busy to the last dispatch,
                    // inside the measured duration, over no more requests than were measured.
                    QVERIFY2(rr.number(QStringLiteral("servescope_steady_valid")) == 1, qPrintable(path));
                    QVERIFY(rr.number(QStringLiteral("servescope_steady_window_s"))
                        < rr.number(QStringLiteral("duration")));
                    QVERIFY(rr.number(QStringLiteral("servescope_steady_completed")) <= prompts);
                    QVERIFY(rr.number(QStringLiteral("servescope_steady_output_throughput")) > 0);
                    QVERIFY(rr.number(QStringLiteral("servescope_steady_median_tpot_ms")) > 0);
                    ++files;
                }
            }
        }
        QCOMPARE(files, 8);

        // Across repeats: one file per point, and repeats.csv with a row per point and headline metric.
        for (const QString &variant : { QStringLiteral("baseline"), QStringLiteral("seqs-2") }) {
            for (const QString &label : { QStringLiteral("c1"), QStringLiteral("c4") }) {
                const QJsonObject across
                    = QJsonDocument::fromJson(readAll(QStringLiteral("%1/%2/%3-repeats.json").arg(out, variant, label)))
                          .object();
                QCOMPARE(across.value(QLatin1String("servescope_repeats")).toInt(), 2);
                double tput[2];
                for (int r = 1; r <= 2; ++r) {
                    QString error;
                    tput[r - 1] = readResultFilePath(
                        QStringLiteral("%1/%2/%3-r%4.json").arg(out, variant, label).arg(r), &error)
                                      .first()
                                      .number(QStringLiteral("output_throughput"));
                }
                QCOMPARE(across.value(QLatin1String("servescope_output_throughput_median")).toDouble(),
                    (tput[0] + tput[1]) / 2);
                QCOMPARE(across.value(QLatin1String("servescope_output_throughput_min")).toDouble(),
                    std::min(tput[0], tput[1]));
                QVERIFY(across.contains(QLatin1String("servescope_median_ttft_ms_ci_low")));
            }
        }
        const QList<QByteArray> repeatRows = readAll(out + QStringLiteral("/repeats.csv")).trimmed().split('\n');
        QCOMPARE(repeatRows.size(), 1 + 2 * 2 * 20); // header + variants x points x headline metrics

        ProjectStore store;
        QVERIFY(store.open(project));
        QVector<RequestRecord> records;
        QVERIFY(store.requests(1, RequestFilter {}, &records));
        // 2 variants x (2 points x 2 repeats) x (prompts + 2 warmups)
        QCOMPARE(records.size(), 2 * 2 * (6 + 2 + 12 + 2));
        int warmups = 0;
        for (const RequestRecord &r : records) {
            warmups += r.warmup;
            QVERIFY(r.ok());
            QVERIFY(!r.eventNs.isEmpty());
        }
        QCOMPARE(warmups, 2 * 2 * 2 * 2);
        QVector<PointSummary> summaries;
        QVERIFY(store.pointSummaries(1, &summaries));
        QCOMPARE(summaries.size(), 8);
    }

    void keyFromEnvironmentReachesNoFile()
    {
        const QByteArray key = "run-secret-7d3c9e1a0b2f";
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("RUN_TEST_KEY"), QString::fromLatin1(key));
        SimChild sim;
        QVERIFY(sim.start({ QStringLiteral("--api-key-env"), QStringLiteral("RUN_TEST_KEY"), QStringLiteral("--model"),
                              QStringLiteral("m"), QStringLiteral("--time-scale"), QStringLiteral("20") },
            env));
        const QString exp = writeExperiment(QStringLiteral("keyed"),
            QJsonObject { { QStringLiteral("base_url"), sim.url().toString() },
                { QStringLiteral("path"), QStringLiteral("/v1/completions") },
                { QStringLiteral("model"), QStringLiteral("m") },
                { QStringLiteral("api_key_env"), QStringLiteral("RUN_TEST_KEY") } },
            QStringLiteral("{\"mode\": \"concurrency\", \"points\": [\n"
                           "                {\"concurrency\": 2, \"input_len\": 16, \"output_len\": 4, "
                           "\"num_prompts\": 4}], \"repeat\": 1}\n"));
        const QString project = m_dir.filePath(QStringLiteral("keyed.servescope"));
        const QString out = m_dir.filePath(QStringLiteral("keyed-results"));
        const Outcome o = run({ exp, QStringLiteral("--project"), project, QStringLiteral("--out-dir"), out }, env);
        QVERIFY2(o.exitCode == 0, o.err.constData());
        QVERIFY(!o.out.contains(key) && !o.err.contains(key));
        QStringList files { project, project + QStringLiteral("-wal") };
        QDirIterator it(out, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext())
            files << it.next();
        QVERIFY(files.size() >= 5);
        for (const QString &f : std::as_const(files))
            QVERIFY2(!readAll(f).contains(key), qPrintable(f));

        // The same run with a wrong key: every request fails as auth, and the exit code says so.
        env.insert(QStringLiteral("RUN_TEST_KEY"), QStringLiteral("wrong-key-000"));
        const Outcome bad = run({ exp, QStringLiteral("--project"), project }, env);
        QCOMPARE(bad.exitCode, 1);
        ProjectStore store;
        QVERIFY(store.open(project));
        QVector<RequestRecord> records;
        QVERIFY(store.requests(2, RequestFilter {}, &records));
        QCOMPARE(records.size(), 8);
        for (const RequestRecord &r : std::as_const(records)) {
            QCOMPARE(r.status, RequestStatus::Failed);
            QCOMPARE(r.errorClass, ErrorClass::Auth);
        }
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
        QCOMPARE(o.err.count("has no /tokenize: chat prompts are sized at one word per token"), 1);
        QCOMPARE(o.err.count("has no /metrics with vllm:num_requests_running: after warmup"), 1);
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
    }

    void interruptKeepsMeasuredRequests()
    {
        const QString exp = writeExperiment(QStringLiteral("long"),
            QJsonObject { { QStringLiteral("base_url"), QStringLiteral("sim:") },
                { QStringLiteral("path"), QStringLiteral("/v1/completions") },
                { QStringLiteral("model"), QStringLiteral("m") } },
            QStringLiteral("{\"mode\": \"concurrency\", \"points\": [\n"
                           "                {\"concurrency\": 8, \"input_len\": 32, \"output_len\": 200, "
                           "\"num_prompts\": 400}], \"repeat\": 1}\n"));
        const QString project = m_dir.filePath(QStringLiteral("long.servescope"));
        QProcess p;
        p.start(SimChild::cli(),
            { QStringLiteral("run"), exp, QStringLiteral("--project"), project, QStringLiteral("--sim-time-scale"),
                QStringLiteral("4") });
        QVERIFY(p.waitForStarted());
        // Wait until requests are completing, then interrupt.
        QByteArray err;
        QTRY_VERIFY_WITH_TIMEOUT(
            (err += p.readAllStandardError(), err.contains("measuring | in-flight 8 ok 1")), 60000);
        ::kill(pid_t(p.processId()), SIGINT);
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 130);

        ProjectStore store;
        QVERIFY(store.open(project));
        QVector<RunListing> runs;
        QVERIFY(store.listRuns(&runs));
        QCOMPARE(runs.size(), 1);
        QCOMPARE(runs.first().run.status, RunStatus::Cancelled);
        QVector<RequestRecord> records;
        QVERIFY(store.requests(runs.first().run.id, RequestFilter {}, &records));
        int ok = 0, cancelled = 0;
        for (const RequestRecord &r : std::as_const(records)) {
            ok += r.status == RequestStatus::Ok;
            cancelled += r.status == RequestStatus::Cancelled;
            QVERIFY(r.status != RequestStatus::Failed);
        }
        QVERIFY2(ok >= 10, qPrintable(QString::number(ok)));
        QVERIFY2(cancelled >= 1 && cancelled <= 8, qPrintable(QString::number(cancelled)));
        QCOMPARE(ok + cancelled, records.size());
    }

    void simulatorWithoutModelServesItsDefault()
    {
        const QString exp = writeExperiment(QStringLiteral("nomodel"),
            QJsonObject { { QStringLiteral("base_url"), QStringLiteral("sim:") },
                { QStringLiteral("path"), QStringLiteral("/v1/chat/completions") } },
            QStringLiteral("{\"mode\": \"concurrency\", \"points\": [\n"
                           "                {\"concurrency\": 2, \"input_len\": 32, \"output_len\": 8, "
                           "\"num_prompts\": 6}], \"repeat\": 1}\n"));
        const QString project = m_dir.filePath(QStringLiteral("nomodel.servescope"));
        const Outcome o = run({ exp, QStringLiteral("--project"), project, QStringLiteral("--variant"),
            QStringLiteral("baseline"), QStringLiteral("--sim-time-scale"), QStringLiteral("20") });
        QVERIFY2(o.exitCode == 0, o.err.constData());
        // 2 variants declared, one selected: 6 requests, all answered.
        QVERIFY2(o.out.contains("\tfinished\t6\t0"), o.out.constData());
    }

    void simulatorChildGetsNoneOfTheUsersVariables()
    {
        const QString exp = writeExperiment(QStringLiteral("childenv"),
            QJsonObject { { QStringLiteral("base_url"), QStringLiteral("sim:") },
                { QStringLiteral("path"), QStringLiteral("/v1/completions") },
                { QStringLiteral("model"), QStringLiteral("m") } },
            QStringLiteral("{\"mode\": \"concurrency\", \"points\": [\n"
                           "                {\"concurrency\": 4, \"input_len\": 32, \"output_len\": 200, "
                           "\"num_prompts\": 400}], \"repeat\": 1}\n"));
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("SERVESCOPE_TEST_OTHER_KEY"), QStringLiteral("sk-test-not-for-the-child"));
        QProcess p;
        p.setProcessEnvironment(env);
        p.start(SimChild::cli(),
            { QStringLiteral("run"), exp, QStringLiteral("--project"),
                m_dir.filePath(QStringLiteral("childenv.servescope")), QStringLiteral("--sim-time-scale"),
                QStringLiteral("4") });
        QVERIFY(p.waitForStarted());
        QByteArray err;
        QTRY_VERIFY_WITH_TIMEOUT((err += p.readAllStandardError(), err.contains("measuring")), 60000);
        const QString pid = QString::number(p.processId());
        // The run thread starts the simulator: its children are listed under that thread's task.
        QList<QByteArray> children;
        const QString tasks = QStringLiteral("/proc/%1/task").arg(pid);
        for (const QString &task : QDir(tasks).entryList(QDir::Dirs | QDir::NoDotAndDotDot))
            children += readAll(tasks + QLatin1Char('/') + task + QStringLiteral("/children")).trimmed().split(' ');
        QByteArray childEnv;
        for (const QByteArray &child : std::as_const(children)) {
            const QByteArray cmdline = readAll(QStringLiteral("/proc/%1/cmdline").arg(QString::fromLatin1(child)));
            if (cmdline.contains("sim\0--port"))
                childEnv = readAll(QStringLiteral("/proc/%1/environ").arg(QString::fromLatin1(child)));
        }
        ::kill(pid_t(p.processId()), SIGINT);
        QVERIFY(p.waitForFinished(60000));
        QVERIFY2(!childEnv.isEmpty(), "no simulator child found");
        const QList<QByteArray> vars = childEnv.split('\0');
        QVERIFY(!childEnv.contains("SERVESCOPE_TEST_OTHER_KEY"));
        QVERIFY(!childEnv.contains("sk-test-not-for-the-child"));
        QVERIFY(std::any_of(vars.cbegin(), vars.cend(), [](const QByteArray &v) { return v.startsWith("PATH="); }));
        QVERIFY(std::any_of(
            vars.cbegin(), vars.cend(), [](const QByteArray &v) { return v.startsWith("SERVESCOPE_SIM_API_KEY="); }));
    }

    void badUsageExits2_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("no experiment") << QStringList {};
        QTest::newRow("missing file") << QStringList { QStringLiteral("/nonexistent/experiment.json") };
        QTest::newRow("unknown option") << QStringList { QStringLiteral("x.json"), QStringLiteral("--bogus") };
        QTest::newRow("bad time scale") << QStringList { QStringLiteral("x.json"), QStringLiteral("--sim-time-scale"),
            QStringLiteral("0") };
    }

    void badUsageExits2()
    {
        QFETCH(QStringList, args);
        QCOMPARE(run(args).exitCode, 2);
    }
};

QTEST_GUILESS_MAIN(TestCliRun)
#include "tst_clirun.moc"

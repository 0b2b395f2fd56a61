// SPDX-License-Identifier: MIT
#include "clirunner.h"
#include "freeport.h"
#include "simchild.h"

#include "metrics/estimates.h"
#include "metrics/numpystats.h"
#include "resultfiles/resultfile.h"
#include "storage/projectstore.h"

#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QObject>
#include <QRegularExpression>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <csignal>

using namespace ServeScope;

class TestCliRun final : public QObject {
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
    // The requests of the project's one run, which ended `status`.
    static void requestsOfOnlyRun(const QString &project, RunStatus status, QVector<RequestRecord> *records)
    {
        ProjectStore store;
        QVERIFY(store.open(project));
        QVector<RunListing> runs;
        QVERIFY(store.listRuns(&runs));
        QCOMPARE(runs.size(), 1);
        QCOMPARE(runs.first().run.status, status);
        QVERIFY(store.requests(runs.first().run.id, RequestFilter {}, records));
    }

private Q_SLOTS:

    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }
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
        QVERIFY(!o.err.contains("runs on this host")); // sim: is ServeScope's own simulator

        QVERIFY(QFile::exists(out + QStringLiteral("/manifest.json")));
        const QJsonObject manifest = QJsonDocument::fromJson(readAll(out + QStringLiteral("/manifest.json"))).object();
        QCOMPARE(manifest.value(QLatin1String("status")).toString(), QStringLiteral("finished"));
        QCOMPARE(manifest.value(QLatin1String("definitions")).toString(), QStringLiteral("vllm"));

        // summary.csv: per (variant, point) each repeat's vLLM and steady rows, then six statistic rows.
        const QList<QByteArray> csv = readAll(out + QStringLiteral("/summary.csv")).trimmed().split('\n');
        QCOMPARE(csv.size(), 1 + 2 * 2 * (2 * 2 + 6));
        const QList<QByteArray> header = csv.first().split(',');
        const int setCol = int(header.indexOf("set")), statCol = int(header.indexOf("stat"));
        const int outCol = int(header.indexOf("output_throughput"));
        QVERIFY(setCol > 0 && statCol > 0 && outCol > 0);
        QList<double> perRepeat;
        int steadyRows = 0;
        for (qsizetype i = 1; i < csv.size(); ++i) {
            const QList<QByteArray> f = csv.at(i).split(',');
            if (f.at(0) != "baseline" || f.at(1) != "c4")
                continue;
            if (f.at(setCol) == "steady")
                ++steadyRows;
            else if (f.at(statCol) == "value")
                perRepeat << f.at(outCol).toDouble();
            else if (f.at(statCol) == "median")
                QCOMPARE(f.at(outCol).toDouble(), (perRepeat.value(0) + perRepeat.value(1)) / 2);
            else if (f.at(statCol) == "min")
                QCOMPARE(f.at(outCol).toDouble(), std::min(perRepeat.value(0), perRepeat.value(1)));
        }
        QCOMPARE(perRepeat.size(), 2);
        QCOMPARE(steadyRows, 2);

        ProjectStore store;
        QVERIFY2(store.open(project, ProjectStore::Check::Header, ProjectStore::Follow::Snapshot),
            qPrintable(store.errorString()));
        int files = 0;
        for (const QString &variant : { QStringLiteral("baseline"), QStringLiteral("seqs-2") }) {
            for (const auto &[point, label, prompts, inLen, outLen] :
                { std::tuple { 0, QStringLiteral("c1"), 6, 32, 8 },
                    std::tuple { 1, QStringLiteral("c4"), 12, 64, 16 } }) {
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
                    // The texts are read back from the project as the file is written (a run keeps none):
                    // each request's own, in submission order.
                    QVector<RequestRecord> stored;
                    QVERIFY(store.requests(1, RequestFilter { variant, point, r, false, false }, &stored));
                    QCOMPARE(stored.size(), prompts);
                    QCOMPARE(rr.generatedTexts.size(), prompts);
                    for (int i = 0; i < prompts; ++i) {
                        QVERIFY(!stored.at(i).generatedText.isEmpty());
                        QCOMPARE(rr.generatedTexts.at(i), QString::fromUtf8(stored.at(i).generatedText));
                    }
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
        // The steady set is stored with each summary, and what is stored is what the file says.
        for (const PointSummary &s : std::as_const(summaries)) {
            QCOMPARE(s.steady.value(QStringLiteral("valid")), 1.0);
            QString error;
            const ResultRun file = readResultFilePath(
                QStringLiteral("%1/%2/%3-r%4.json").arg(out, s.variant, s.label).arg(s.repeat), &error)
                                       .first();
            QCOMPARE(s.steady.value(QStringLiteral("output_throughput")),
                file.number(QStringLiteral("servescope_steady_output_throughput")));
            // The server's own counters over the point: exactly the measured requests' tokens (the
            // warmup and the drain lie outside the window), and never more running than the point's slots.
            QCOMPARE(s.server.value(QStringLiteral("generation_tokens")), double(s.totalOutputTokens));
            QCOMPARE(s.server.value(QStringLiteral("prompt_tokens")), double(s.totalInputTokens));
            QCOMPARE(s.server.value(QStringLiteral("preemptions")), 0.0);
            QVERIFY(s.server.value(QStringLiteral("running_max"), -1) <= s.concurrency);
            QCOMPARE(file.number(QStringLiteral("servescope_server_generation_tokens")),
                s.server.value(QStringLiteral("generation_tokens")));
        }
        QVector<ServerMetricSample> samples;
        QVERIFY(store.serverMetricSamples(1, &samples));
        QVERIFY(samples.size() >= 8 * 2 * 5); // two scrapes per point at least, several series each
        // The statistics across repeats are stored with them: one per (variant, point, headline metric),
        // equal to the results folder's.
        // The steady window's set is stored beside them (18 headline metrics: no total-token
        // throughput or success rate) for comparisons of that set; the results folder has vLLM's.
        QVector<PointEstimate> stored, estimates;
        QVERIFY(store.pointEstimates(1, &stored));
        for (const PointEstimate &e : std::as_const(stored)) {
            if (steadyKeyOf(e.metric).isEmpty())
                estimates << e;
        }
        QCOMPARE(estimates.size(), 2 * 2 * 20);
        QCOMPARE(stored.size() - estimates.size(), 2 * 2 * 18);
        for (const PointEstimate &e : std::as_const(estimates)) {
            QCOMPARE(e.repeats, 2);
            const QJsonObject across
                = QJsonDocument::fromJson(readAll(QStringLiteral("%1/%2/%3-repeats.json")
                                                      .arg(out, e.variant)
                                                      .arg(e.point == 0 ? QStringLiteral("c1") : QStringLiteral("c4"))))
                      .object();
            const QString k = QStringLiteral("servescope_") + e.metric;
            QCOMPARE(e.median, across.value(k + QStringLiteral("_median")).toDouble());
            QCOMPARE(e.cv, across.value(k + QStringLiteral("_cv")).toDouble());
            QCOMPARE(e.hasInterval(), across.contains(k + QStringLiteral("_ci_low")));
        }
    }

    // Three repeats against a quiet simulator agree within 5% in throughput and mean E2E latency;
    // against one that stalls a seeded tenth of its streams for 300 ms they do not, and the run says
    // so (a finding on stderr, repeats.csv, and the statistics stored in the project).
    void repeatsAgreeOrAreFlagged_data()
    {
        QTest::addColumn<QStringList>("simArgs");
        QTest::addColumn<bool>("agree");
        QTest::newRow("quiet") << QStringList {} << true;
        QTest::newRow("stalls") << QStringList { QStringLiteral("--stall-ms"), QStringLiteral("300"),
            QStringLiteral("--stall-rate"), QStringLiteral("0.1") }
                                << false;
    }
    void repeatsAgreeOrAreFlagged()
    {
        QFETCH(QStringList, simArgs);
        QFETCH(bool, agree);
        SimChild sim;
        QVERIFY(sim.start(QStringList { QStringLiteral("--model"), QStringLiteral("m"), QStringLiteral("--seed"),
                              QStringLiteral("7"), QStringLiteral("--time-scale"), QStringLiteral("4") }
            + simArgs));
        const QString name = QStringLiteral("repeats-") + QString::fromLatin1(QTest::currentDataTag());
        const QString exp = m_dir.filePath(name + QStringLiteral(".json"));
        QFile f(exp);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(
            QStringLiteral("{\"name\": \"%1\", \"endpoint\": {\"base_url\": \"%2\", \"path\": \"/v1/completions\","
                           " \"model\": \"m\"}, \"dataset\": {\"name\": \"random\", \"seed\": 7, \"ignore_eos\": true},"
                           " \"load\": {\"mode\": \"concurrency\", \"points\": [{\"concurrency\": 4, \"input_len\": 64,"
                           " \"output_len\": 32, \"num_prompts\": 24}], \"warmup_requests\": 4, \"repeat\": 3}}\n")
                .arg(name, sim.url().toString())
                .toUtf8());
        f.close();
        const QString project = m_dir.filePath(name + QStringLiteral(".servescope"));
        const QString out = m_dir.filePath(name + QStringLiteral("-results"));
        const Outcome o = run({ exp, QStringLiteral("--project"), project, QStringLiteral("--out-dir"), out });
        QVERIFY2(o.exitCode == 0, o.err.constData());

        QMap<QByteArray, bool> reproducible;
        for (const QByteArray &line : readAll(out + QStringLiteral("/repeats.csv")).trimmed().split('\n')) {
            const QList<QByteArray> f = line.split(',');
            reproducible.insert(f.at(2), f.last() == "true");
        }
        QCOMPARE(reproducible.value("output_throughput"), agree);
        QCOMPARE(reproducible.value("mean_e2el_ms"), agree);
        QCOMPARE(o.err.contains("not-reproducible output_throughput"), !agree);
        // The simulator child listens on 127.0.0.1: the run says the server shares this host.
        QVERIFY(o.err.contains("runs on this host and shares its CPUs"));

        ProjectStore store;
        QVERIFY(store.open(project));
        QVector<PointEstimate> estimates;
        QVERIFY(store.pointEstimates(1, &estimates));
        for (const PointEstimate &e : std::as_const(estimates)) {
            if (e.metric == QLatin1String("mean_e2el_ms")) {
                QCOMPARE(e.repeats, 3);
                QCOMPARE(e.spread() <= 0.05, agree);
            }
        }
    }

    // A DCGM exporter named by server.dcgm_url is scraped beside the server: each point gets the GPU's
    // utilisation and DRAM activity, in the project and the result file.
    void gpuTelemetryFromADcgmExporter()
    {
        const quint16 dcgmPort = Testing::unusedPort();
        SimChild sim;
        QVERIFY(sim.start({ QStringLiteral("--model"), QStringLiteral("m"), QStringLiteral("--time-scale"),
            QStringLiteral("2"), QStringLiteral("--dcgm-port"), QString::number(dcgmPort) }));
        const QString exp = m_dir.filePath(QStringLiteral("dcgm.json"));
        QFile f(exp);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QStringLiteral(
            "{\"name\": \"dcgm\", \"endpoint\": {\"base_url\": \"%1\", \"path\": \"/v1/completions\","
            " \"model\": \"m\"}, \"server\": {\"engine\": \"vllm\", \"dcgm_url\": "
            "\"http://127.0.0.1:%2/metrics\"}, \"dataset\": {\"name\": \"random\", \"ignore_eos\": true},"
            " \"load\": {\"mode\": \"concurrency\", \"points\": [{\"concurrency\": 4, \"input_len\": 64,"
            " \"output_len\": 128, \"num_prompts\": 24}]}}\n")
                    .arg(sim.url().toString())
                    .arg(dcgmPort)
                    .toUtf8());
        f.close();
        const QString project = m_dir.filePath(QStringLiteral("dcgm.servescope"));
        const QString out = m_dir.filePath(QStringLiteral("dcgm-results"));
        const Outcome o = run({ exp, QStringLiteral("--project"), project, QStringLiteral("--out-dir"), out });
        QVERIFY2(o.exitCode == 0, o.err.constData());
        ProjectStore store;
        QVERIFY(store.open(project));
        QVector<PointSummary> summaries;
        QVERIFY(store.pointSummaries(1, &summaries));
        QCOMPARE(summaries.size(), 1);
        const QMap<QString, double> &server = summaries.first().server;
        QVERIFY2(server.value(QStringLiteral("gpu_util_mean")) > 0, qPrintable(QStringList(server.keys()).join(u' ')));
        QVERIFY(server.value(QStringLiteral("dram_active_mean")) > 0);
        QVERIFY(server.value(QStringLiteral("dram_active_mean")) <= 100);
        QVERIFY(server.contains(QStringLiteral("running_mean"))); // the server's own series as well
        QString error;
        const ResultRun file = readResultFilePath(out + QStringLiteral("/baseline/c4-r1.json"), &error).value(0);
        QCOMPARE(file.number(QStringLiteral("servescope_server_gpu_util_mean")),
            server.value(QStringLiteral("gpu_util_mean")));
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

        QVector<RequestRecord> records;
        requestsOfOnlyRun(project, RunStatus::Cancelled, &records);
        if (QTest::currentTestFailed())
            return;
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

    // Another connection holds the project's write lock while the load goes on: the engine does not
    // wait for the writer, the run says once that its writer is more than 50,000 records behind, and
    // once the lock is given back every request is stored.
    void writerBehindTheLoadIsSaidAndLosesNothing()
    {
        constexpr int kRequests = 100000;
        const QString exp = writeExperiment(QStringLiteral("lagging"),
            QJsonObject { { QStringLiteral("base_url"), QStringLiteral("sim:") },
                { QStringLiteral("path"), QStringLiteral("/v1/completions") },
                { QStringLiteral("model"), QStringLiteral("m") } },
            QStringLiteral("{\"mode\": \"concurrency\", \"points\": [{\"concurrency\": 256, \"input_len\": 8, "
                           "\"output_len\": 2, \"num_prompts\": %1}]}")
                .arg(kRequests));
        const QString project = m_dir.filePath(QStringLiteral("lagging.servescope"));
        QProcess p;
        p.start(SimChild::cli(),
            { QStringLiteral("run"), exp, QStringLiteral("--variant"), QStringLiteral("baseline"),
                QStringLiteral("--project"), project, QStringLiteral("--sim-time-scale"), QStringLiteral("100") });
        QVERIFY(p.waitForStarted());
        QByteArray err;
        // Once the prompts are stored and the load runs (a lock taken earlier would hold the load back too).
        QTRY_VERIFY_WITH_TIMEOUT((err += p.readAllStandardError(), err.contains("r1/1 measuring")), 60000);
        {
            QSqlDatabase blocker = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("blocker"));
            blocker.setDatabaseName(project);
            QVERIFY(blocker.open());
            QSqlQuery q(blocker);
            QVERIFY(q.exec(QStringLiteral("PRAGMA busy_timeout = 20000")));
            QVERIFY2(q.exec(QStringLiteral("BEGIN IMMEDIATE")), qPrintable(q.lastError().text()));
            const QByteArray said = "warning: storage: the project's writer is ";
            QTRY_VERIFY2_WITH_TIMEOUT(
                (err += p.readAllStandardError(), err.contains(said)), err.right(600).constData(), 25000);
            const qsizetype at = err.indexOf(said) + said.size();
            const qint64 behind = err.mid(at, err.indexOf(' ', at) - at).toLongLong();
            QVERIFY2(behind > 50000 && behind <= 2 * kRequests, err.mid(at - said.size(), 160).constData());
            QVERIFY(q.exec(QStringLiteral("ROLLBACK")));
            q.finish();
            blocker.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("blocker"));
        QVERIFY(p.waitForFinished(120000));
        err += p.readAllStandardError();
        QVERIFY2(p.exitCode() == 0, err.right(600).constData());
        QCOMPARE(err.count("records behind the load"), 1); // said once

        QVector<RequestRecord> records;
        requestsOfOnlyRun(project, RunStatus::Finished, &records);
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(records.size(), kRequests);
        QCOMPARE(std::count_if(records.cbegin(), records.cend(), [](const RequestRecord &r) { return r.ok(); }),
            qsizetype(kRequests));
    }

    // A server that accepts connections and never answers must not hold a cancel for its idle
    // timeout: the side calls before the load (/tokenize, the calibration probes, /metrics) are
    // aborted as soon as the run is cancelled.
    void interruptAgainstSilentServer()
    {
        QTcpServer silent;
        QVERIFY(silent.listen(QHostAddress::LocalHost));
        const QString exp = writeExperiment(QStringLiteral("silent"),
            QJsonObject {
                { QStringLiteral("base_url"), QStringLiteral("http://127.0.0.1:%1").arg(silent.serverPort()) },
                { QStringLiteral("path"), QStringLiteral("/v1/completions") },
                { QStringLiteral("model"), QStringLiteral("m") } },
            QStringLiteral("{\"mode\": \"concurrency\", \"timeouts\": {\"idle_s\": 60}, \"points\": [\n"
                           "                {\"concurrency\": 1, \"input_len\": 16, \"output_len\": 8, "
                           "\"num_prompts\": 5}]}\n"));
        const QString project = m_dir.filePath(QStringLiteral("silent.servescope"));
        QProcess p;
        p.start(SimChild::cli(), { QStringLiteral("run"), exp, QStringLiteral("--project"), project });
        QVERIFY(p.waitForStarted());
        QByteArray err;
        QTRY_VERIFY_WITH_TIMEOUT((err += p.readAllStandardError(), err.contains("preparing prompts")), 30000);
        QTest::qWait(500); // inside the first side call, which the server never answers
        QElapsedTimer sinceSignal;
        sinceSignal.start();
        ::kill(pid_t(p.processId()), SIGINT);
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 130);
        // Far below the 60 s idle timeout a side call would otherwise wait out.
        QVERIFY2(sinceSignal.elapsed() < 10000, qPrintable(QString::number(sinceSignal.elapsed())));
    }

    // Along an open-loop curve, a joining prompt's prefill chunk lengthens every running stream's
    // step (the simulator's roofline): with 2,048-token prompts ITL's tail grows with the rate and the
    // run names the variant's chunked-prefill budget; with 16-token prompts it does not.
    void prefillInterferenceAlongTheRate_data()
    {
        QTest::addColumn<int>("inputLen");
        QTest::addColumn<bool>("interferes");
        QTest::newRow("2048-token prompts") << 2048 << true;
        QTest::newRow("16-token prompts") << 16 << false;
    }
    void prefillInterferenceAlongTheRate()
    {
        QFETCH(int, inputLen);
        QFETCH(bool, interferes);
        const QString name = QStringLiteral("prefill%1").arg(inputLen);
        // At --sim-time-scale 10: 0.25 and 2 requests per second of model time.
        const QString points = QStringLiteral("[{\"request_rate\": 2.5, \"input_len\": %1, \"output_len\": 128, "
                                              "\"num_prompts\": 12}, {\"request_rate\": 20, \"input_len\": %1, "
                                              "\"output_len\": 128, \"num_prompts\": 60}]")
                                   .arg(inputLen);
        const QString path = m_dir.filePath(name + QStringLiteral(".json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QStringLiteral("{\"name\": \"%1\", \"endpoint\": {\"base_url\": \"sim:\", \"model\": \"m\"}, "
                               "\"server\": {\"engine\": \"vllm\", \"args\": {\"max_num_batched_tokens\": 8192}}, "
                               "\"dataset\": {\"name\": \"random\", \"seed\": 3}, \"load\": {\"mode\": \"rate\", "
                               "\"points\": %2, \"repeat\": 1}, \"variants\": [{\"name\": \"baseline\"}]}")
                    .arg(name, points)
                    .toUtf8());
        f.close();
        const Outcome o = run({ path, QStringLiteral("--sim-time-scale"), QStringLiteral("10") });
        QVERIFY2(o.exitCode == 0, o.err.constData());
        QCOMPARE(o.err.contains("finding: prefill-interference\tbaseline\tr20\titl_tail_ratio="), interferes);
        if (interferes)
            QVERIFY2(o.err.contains("\tmax_num_batched_tokens=8192\tno-evidence\n"), o.err.constData());
        else
            QVERIFY2(o.err.contains("finding: healthy\tbaseline\tr2.5,r20\t"), o.err.constData());
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

    // A project that cannot be used is refused before anything runs: one line on stderr, nothing
    // on stdout (scripts read stdout), the file left as it was.
    void refusedProjectPrintsNothingOnStdout_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QByteArray>("message");
        QTest::newRow("zero bytes") << QByteArray() << QByteArray("is empty");
        QTest::newRow("foreign") << QByteArray("SQLite format 2\n") << QByteArray("not a ServeScope project");
    }
    void refusedProjectPrintsNothingOnStdout()
    {
        QFETCH(QByteArray, content);
        QFETCH(QByteArray, message);
        const QString project
            = m_dir.filePath(QStringLiteral("refused-%1.servescope").arg(QString::fromLatin1(QTest::currentDataTag())));
        QFile f(project);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(content);
        f.close();
        const QString exp = writeExperiment(QStringLiteral("refused"),
            QJsonObject { { QStringLiteral("base_url"), QStringLiteral("sim:") },
                { QStringLiteral("path"), QStringLiteral("/v1/completions") },
                { QStringLiteral("model"), QStringLiteral("m") } },
            QStringLiteral("{\"mode\": \"concurrency\", \"points\": [{\"concurrency\": 1, \"input_len\": 8,"
                           " \"output_len\": 2, \"num_prompts\": 5}]}"));
        const Outcome o = run({ exp, QStringLiteral("--project"), project });
        QCOMPARE(o.exitCode, 2);
        QCOMPARE(o.out, QByteArray());
        QCOMPARE(o.err.count('\n'), 1);
        QVERIFY2(o.err.contains(message), o.err.constData());
        QCOMPARE(readAll(project), content);
    }
};

QTEST_GUILESS_MAIN(TestCliRun)
#include "tst_clirun.moc"

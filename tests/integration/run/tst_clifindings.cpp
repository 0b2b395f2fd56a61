// SPDX-License-Identifier: MIT
// `servescope-cli run`'s findings against servers that misreport: usage that contradicts the stream, on every
// API; outputs shorter than asked, named only when ignore_eos was sent. Each against the real simulator (`sim:` as the
// endpoint, its switches through server.args).
#include "clirunner.h"

#include "model/records.h"
#include "resultfiles/resultfile.h"
#include "storage/projectstore.h"

#include <QDir>
#include <QFile>
#include <QHash>
#include <QObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace ServeScope;

class TestCliFindings final : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    using Outcome = CliRun::Outcome;

    // Writes `json` as NAME.json in the test's folder and runs it (the simulator at 20x) into NAME.servescope and
    // NAME-results.
    Outcome runJson(const QString &name, const QByteArray &json)
    {
        QFile f(m_dir.filePath(name + QStringLiteral(".json")));
        if (!f.open(QIODevice::WriteOnly) || f.write(json) != json.size())
            return { -1, {}, "cannot write the experiment" };
        f.close();
        return CliRun::run(
            { f.fileName(), QStringLiteral("--project"), m_dir.filePath(name + QStringLiteral(".servescope")),
                QStringLiteral("--out-dir"), m_dir.filePath(name + QStringLiteral("-results")),
                QStringLiteral("--sim-time-scale"), QStringLiteral("20") });
    }

    QHash<QString, PointSummary> summariesOf(const QString &name)
    {
        ProjectStore store;
        QVector<PointSummary> summaries;
        if (!store.open(m_dir.filePath(name + QStringLiteral(".servescope"))) || !store.pointSummaries(1, &summaries))
            return {};
        QHash<QString, PointSummary> by;
        for (const PointSummary &s : std::as_const(summaries))
            by.insert(s.variant, s);
        return by;
    }

private Q_SLOTS:

    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }
    void initTestCase()
    {
        QVERIFY2(!SimChild::cli().isEmpty(), "SERVESCOPE_CLI is not set");
        QVERIFY(m_dir.isValid());
    }

    // A gateway that says 0 prompt and 0 output tokens beside a stream of 48 text events: on every API the
    // counts fall back to /tokenize of the text and the prompt's own count, stay marked estimated, and the run
    // names the mismatch with both counts. TPOT and throughput are the fallback's, not 0.
    void usageAgainstTheStreamOnEveryApi()
    {
        const QString name = QStringLiteral("usage-zero");
        const Outcome o = runJson(name,
            R"({"name": "usage", "endpoint": {"base_url": "sim:", "api": "chat", "model": "m"},
            "server": {"engine": "vllm", "args": {"wrong_usage": "zero"}},
            "dataset": {"name": "random", "seed": 7, "ignore_eos": true},
            "load": {"mode": "concurrency", "points": [{"concurrency": 4, "input_len": 32, "output_len": 48,
                     "num_prompts": 24}], "repeat": 1},
            "variants": [{"name": "chat"},
                {"name": "completions", "changes": {"endpoint.path": "/v1/completions"}},
                {"name": "responses", "changes": {"endpoint.path": "/v1/responses"}},
                {"name": "messages", "changes": {"endpoint.path": "/v1/messages"}},
                {"name": "generate", "changes": {"endpoint.path": "/generate"}}]})");
        QVERIFY2(o.exitCode == 0, o.err.constData());
        const QHash<QString, PointSummary> by = summariesOf(name);
        QCOMPARE(by.size(), 5);
        for (const PointSummary &s : by) {
            const QByteArray what = s.variant.toUtf8();
            QCOMPARE(s.completed, 24);
            QCOMPARE(s.totalOutputTokens, qint64(24 * 48));
            QVERIFY2(s.totalInputTokens >= 24 * 32, what.constData());
            QCOMPARE(s.outputEstimated, 24);
            QCOMPARE(s.usageOutputTokens, qint64(-1)); // no trusted count from the server
            QVERIFY2(s.outputThroughput > 0 && s.tpot.median > 0, what.constData());
            QCOMPARE(s.client.value(QStringLiteral("usage_mismatch_requests")), 24.0);
            QCOMPARE(s.client.value(QStringLiteral("usage_mismatch_output_said"), -1), 0.0);
            QCOMPARE(s.client.value(QStringLiteral("usage_mismatch_output_counted")), 24.0 * 48);
            QCOMPARE(s.client.value(QStringLiteral("usage_mismatch_input_said"), -1), 0.0);
            QCOMPARE(s.client.value(QStringLiteral("usage_mismatch_input_counted")), double(s.totalInputTokens));
            const QByteArray line = "finding: usage-mismatch\t" + what
                + "\tc4\trequests=24\tusage_output_tokens=0\tcounted_output_tokens=1152\tusage_input_tokens=0\t"
                  "counted_input_tokens="
                + QByteArray::number(s.totalInputTokens) + '\n';
            QVERIFY2(o.err.contains(line), o.err.constData());
        }
        QCOMPARE(o.err.count("finding: usage-mismatch"), 5);
        // The result file says the counts are estimates.
        QString error;
        const QVector<ResultRun> runs
            = readResultFilePath(m_dir.filePath(name + QStringLiteral("-results/messages/c4-r1.json")), &error);
        QVERIFY2(runs.size() == 1, qPrintable(error));
        QCOMPARE(runs.first().number(QStringLiteral("servescope_output_estimated")), 24.0);
    }

    // Usage far below the stream (a tenth of its tokens) is set aside as well; the prompt count it got right
    // stays exact. The same simulator without the switch raises nothing.
    void usageFarBelowTheStream_data()
    {
        QTest::addColumn<QString>("wrongUsage");
        QTest::addColumn<int>("estimated");
        QTest::newRow("a tenth") << QStringLiteral("tenth") << 10;
        QTest::newRow("truthful") << QString() << 0;
    }
    void usageFarBelowTheStream()
    {
        QFETCH(QString, wrongUsage);
        QFETCH(int, estimated);
        const QString name = QStringLiteral("usage-") + (wrongUsage.isEmpty() ? QStringLiteral("ok") : wrongUsage);
        const QString args
            = wrongUsage.isEmpty() ? QString() : QStringLiteral("\"wrong_usage\": \"%1\"").arg(wrongUsage);
        const Outcome o = runJson(name,
            QStringLiteral(R"({"name": "usage", "endpoint": {"base_url": "sim:", "api": "chat", "model": "m"},
            "server": {"engine": "vllm", "args": {%1}},
            "dataset": {"name": "random", "seed": 7, "ignore_eos": true},
            "load": {"mode": "concurrency", "points": [{"concurrency": 2, "input_len": 32, "output_len": 40,
                     "num_prompts": 10}], "repeat": 1},
            "variants": [{"name": "chat"}]})")
                .arg(args)
                .toUtf8());
        QVERIFY2(o.exitCode == 0, o.err.constData());
        const PointSummary s = summariesOf(name).value(QStringLiteral("chat"));
        QCOMPARE(s.completed, 10);
        QCOMPARE(s.totalOutputTokens, qint64(10 * 40));
        QCOMPARE(s.outputEstimated, estimated);
        QCOMPARE(s.inputEstimated, 0);
        QVERIFY(!s.client.contains(QStringLiteral("usage_mismatch_input_said")));
        if (estimated == 0) {
            QVERIFY(!s.client.contains(QStringLiteral("usage_mismatch_requests")));
            QVERIFY2(!o.err.contains("usage-mismatch"), o.err.constData());
            return;
        }
        QVERIFY2(o.err.contains("finding: usage-mismatch\tchat\tc2\trequests=10\tusage_output_tokens=40\t"
                                "counted_output_tokens=400\n"),
            o.err.constData());
    }

    // Outputs shorter than asked mean ignore_eos was not honoured only when it was sent: openai-strict never
    // sends it, so its outputs stop at the model's end of sequence and nothing is said; the vllm dialect sends
    // it, and a server that drops it is named.
    void ignoreEosFindingOnlyWhenSent_data()
    {
        QTest::addColumn<QString>("dialect");
        QTest::addColumn<QString>("serverArgs");
        QTest::addColumn<bool>("named");
        QTest::newRow("openai-strict") << QStringLiteral("openai-strict") << QString() << false;
        QTest::newRow("vllm, dropped") << QStringLiteral("vllm") << QStringLiteral("\"drop_ignore_eos\": true") << true;
    }
    void ignoreEosFindingOnlyWhenSent()
    {
        QFETCH(QString, dialect);
        QFETCH(QString, serverArgs);
        QFETCH(bool, named);
        const QString name = QStringLiteral("eos-") + dialect;
        // The seeded end of sequence (mean 256 tokens) ends about a fifth of 64-token outputs early.
        const Outcome o = runJson(name,
            QStringLiteral(R"({"name": "eos", "endpoint": {"base_url": "sim:", "api": "chat", "model": "m",
                "dialect": "%1"},
            "server": {"engine": "vllm", "args": {%2}},
            "dataset": {"name": "random", "seed": 7, "ignore_eos": true},
            "load": {"mode": "concurrency", "points": [{"concurrency": 2, "input_len": 16, "output_len": 64,
                     "num_prompts": 20}], "repeat": 1},
            "variants": [{"name": "chat"}]})")
                .arg(dialect, serverArgs)
                .toUtf8());
        QVERIFY2(o.exitCode == 0, o.err.constData());
        const PointSummary s = summariesOf(name).value(QStringLiteral("chat"));
        QCOMPARE(s.completed, 20);
        QVERIFY2(s.totalOutputTokens < 20 * 64, qPrintable(QString::number(s.totalOutputTokens))); // some stopped
        QCOMPARE(o.err.contains("ignore-eos-not-honoured"), named);
        if (named)
            QVERIFY2(s.shortOutputs > 0, qPrintable(QString::number(s.shortOutputs)));
        else
            QCOMPARE(s.shortOutputs, -1); // not asked for: nothing to count against
    }
};

QTEST_GUILESS_MAIN(TestCliFindings)
#include "tst_clifindings.moc"

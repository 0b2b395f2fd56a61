// SPDX-License-Identifier: MIT
#include "io/experimentfile.h"
#include "io/jsontree.h"

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace ServeScope;

namespace {

// A minimal valid native file with one hole, so each row changes one thing.
QByteArray native(const char *endpointExtra = "", const char *pointExtra = "", const char *top = "")
{
    return QByteArray("{\"name\": \"x\", ") + top + "\"endpoint\": {\"base_url\": \"http://h:1\", \"model\": \"m\""
        + endpointExtra
        + "},\n\"load\": {\"points\": [\n{\"concurrency\": 1, \"input_len\": 8, \"output_len\": 8, \"num_prompts\": 10"
        + pointExtra + "}]}}\n";
}

QByteArray nested(int depth)
{
    return QByteArray("{\"name\": \"x\", \"load\": {\"points\": []}, \"sampling\": {\"x\": ")
        + QByteArray(depth - 2, '[') + QByteArray(depth - 2, ']') + "}}";
}

} // namespace

class TestHostileInput final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }

    void refused_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<int>("format");
        QTest::addColumn<QString>("expected");
        const int autoF = int(ExperimentFormat::Auto);
        const int toml = int(ExperimentFormat::TomlLoadMatrix);
        QTest::newRow("truncated") << QByteArray("{") << autoF
                                   << QStringLiteral("line 1, column 2: expected a member name");
        QTest::newRow("empty") << QByteArray() << int(ExperimentFormat::Json)
                               << QStringLiteral("line 1, column 1: unexpected end of file");
        QTest::newRow("trailing text") << QByteArray("{} x") << int(ExperimentFormat::Json)
                                       << QStringLiteral("unexpected text after the JSON value");
        QTest::newRow("list expected") << native("", "", "\"variants\": 5, ") << autoF
                                       << QStringLiteral("variants: must be a list (line 1)");
        QTest::newRow("wrong type") << native("", ", \"max_seconds\": \"10\"") << autoF
                                    << QStringLiteral("load.points[0].max_seconds: must be a number (line 3)");
        QTest::newRow("duplicate nested key")
            << native("", ", \"concurrency\": 2") << autoF
            << QStringLiteral("line 3, column 85 (at load.points[0]): duplicate key \"concurrency\"");
        QTest::newRow("fractional count")
            << native("", ", \"max_concurrency\": 1.5") << autoF
            << QStringLiteral("load.points[0].max_concurrency: must be an integer (line 3)");
        QTest::newRow("integer out of range")
            << native("", ", \"max_concurrency\": 1e12") << autoF
            << QStringLiteral(
                   "load.points[0].max_concurrency: must be an integer from -2147483648 to 2147483647 (line 3)");
        QTest::newRow("number overflow") << native("", ", \"max_seconds\": 1e999") << autoF
                                         << QStringLiteral("number out of range");
        QTest::newRow("duplicate top key") << native("", "", "\"name\": \"y\", ") << autoF
                                           << QStringLiteral("line 1, column 21: duplicate key \"name\"");
        QTest::newRow("NaN") << native("", ", \"max_seconds\": NaN") << autoF
                             << QStringLiteral("NaN and Infinity are not JSON numbers");
        QTest::newRow("Infinity") << native("", ", \"max_seconds\": Infinity") << autoF
                                  << QStringLiteral("NaN and Infinity");
        QTest::newRow("-Infinity") << native("", ", \"max_seconds\": -Infinity") << autoF
                                   << QStringLiteral("NaN and Infinity");
        QTest::newRow("deep nesting") << nested(65) << autoF << QStringLiteral("nesting deeper than 64 levels");
        QTest::newRow("invalid utf-8") << QByteArray("{\n\"name\":\n\"\xff\"}") << autoF
                                       << QStringLiteral("line 3: invalid UTF-8");
        QTest::newRow("overlong utf-8") << QByteArray("{\"name\": \"\xc0\xaf\"}") << autoF
                                        << QStringLiteral("line 1: invalid UTF-8");
        QTest::newRow("utf-8 surrogate") << QByteArray("{\"name\": \"\xed\xa0\x80\"}") << autoF
                                         << QStringLiteral("invalid UTF-8");
        QTest::newRow("lone surrogate escape")
            << QByteArray("{\"name\": \"\\ud800\"}") << autoF << QStringLiteral("unpaired surrogate");
        QTest::newRow("control character")
            << QByteArray("{\"name\": \"a\tb\"}") << autoF << QStringLiteral("control character in a string");
        QTest::newRow("leading zero") << native("", ", \"max_seconds\": 010") << autoF
                                      << QStringLiteral("leading zeros");
        QTest::newRow("unknown key") << native("", ", \"concurency\": 4") << autoF
                                     << QStringLiteral("load.points[0].concurency: unknown key (line 3)");
        QTest::newRow("bad enum") << native(", \"dialect\": \"tgi\"") << autoF
                                  << QStringLiteral(
                                         "endpoint.dialect: must be one of vllm, sglang, openai-strict (line 1)");
        QTest::newRow("bad env pair")
            << native("", "", "\"env_snapshot\": [[\"gpu\"]], ") << autoF
            << QStringLiteral("env_snapshot[0]: must be [name, value] or [name, value, source] (line 1)");
        QTest::newRow("gradient and points")
            << QByteArray("{\"name\": \"x\", \"load\": {\"points\": [], \"concurrency_gradient\": [1]}}") << autoF
            << QStringLiteral("load.concurrency_gradient: cannot be combined with points (line 1)");
        QTest::newRow("shared length without gradient")
            << QByteArray("{\"name\": \"x\", \"load\": {\"points\": [], \"input_len\": 5}}") << autoF
            << QStringLiteral("load.input_len: is only allowed with concurrency_gradient");
        QTest::newRow("missing load") << QByteArray("{\"name\": \"x\", \"variants\": []}") << autoF
                                      << QStringLiteral("load: is required");
        QTest::newRow("toml syntax") << QByteArray("[client]\nbase_url = \n") << toml << QStringLiteral("line 2");
        QTest::newRow("toml duplicate key")
            << QByteArray("[client]\nrepeat = 1\nrepeat = 2\n") << toml << QStringLiteral("line 3");
        QTest::newRow("toml nan") << QByteArray("[client]\ntimeout_s = nan\n") << toml
                                  << QStringLiteral("line 2, column 13: nan is not");
        QTest::newRow("toml date") << QByteArray("[client]\nname = 1979-05-27\n") << toml
                                   << QStringLiteral("dates and times are not supported");
        QTest::newRow("toml wrong type") << QByteArray("[client]\nrepeat = \"3\"\n[load_matrix.a]\nconcurrency = 1\n")
                                         << toml << QStringLiteral("client.repeat: must be an integer (line 2)");
        QTest::newRow("toml unknown layout")
            << QByteArray("[server]\nx = 1\n") << autoF << QStringLiteral("unrecognised TOML layout");
        QTest::newRow("toml bench without load")
            << QByteArray("[bench]\nname = \"x\"\n") << autoF << QStringLiteral("bench.load: is required");
        QTest::newRow("flat list lengths")
            << QByteArray("{\"max_concurrency\": [1, 2, 3], \"num_prompts\": [5, 6]}") << autoF
            << QStringLiteral("num_prompts: has 2 values but another list has 3 (line 1)");
        QTest::newRow("flat goodput") << QByteArray("{\"goodput\": [\"ttft=5\"]}") << autoF
                                      << QStringLiteral("goodput: entries must look like");
    }
    void refused()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(int, format);
        QFETCH(QString, expected);
        const ExperimentReadResult r = importExperiment(bytes, ExperimentFormat(format), QStringLiteral("t"));
        QVERIFY(!r.ok);
        const QString all = r.errors.join(QLatin1Char('\n'));
        if (!all.contains(expected))
            qInfo("errors: %s", qPrintable(all));
        QVERIFY(all.contains(expected));
    }

    void depthLimitIsExact()
    {
        JsonNode n;
        QString error;
        QVERIFY(parseJsonTree(QByteArray(64, '[') + QByteArray(64, ']'), &n, &error));
        QVERIFY(!parseJsonTree(QByteArray(65, '[') + QByteArray(65, ']'), &n, &error));
        QCOMPARE(error,
            QStringLiteral("line 1, column 65 (at "
                           "[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]["
                           "0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]["
                           "0][0][0][0]): nesting deeper than 64 levels"));
    }

    void secrets_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("path");
        const QByteArray key = "sk-SECRET-0123456789";
        QTest::newRow("endpoint api_key")
            << native(", \"api_key\": \"sk-SECRET-0123456789\"") << QStringLiteral("endpoint.api_key");
        QTest::newRow("apiKey camel case")
            << native("", "", "\"server\": {\"args\": {\"apiKey\": \"sk-SECRET-0123456789\"}}, ")
            << QStringLiteral("server.args.apiKey");
        QTest::newRow("authorization header") << native(", \"headers\": {\"Authorization\": \"sk-SECRET-0123456789\"}")
                                              << QStringLiteral("endpoint.headers.Authorization");
        QTest::newRow("bearer anywhere") << native(
            "", "", "\"sampling\": {\"user\": \"Bearer sk-SECRET-0123456789\"}, ")
                                         << QStringLiteral("sampling.user");
        QTest::newRow("argv api key") << native(
            "", "", "\"server\": {\"launch\": {\"argv\": [\"vllm\", \"--api-key\", \"sk-SECRET-0123456789\"]}}, ")
                                      << QStringLiteral("server.launch.argv[2]");
        QTest::newRow("argv api key inline")
            << native("", "", "\"server\": {\"launch\": {\"argv\": [\"vllm\", \"--api-key=sk-SECRET-0123456789\"]}}, ")
            << QStringLiteral("server.launch.argv[1]");
        QTest::newRow("env snapshot pair")
            << native("", "", "\"env_snapshot\": [[\"api_key\", \"sk-SECRET-0123456789\"]], ")
            << QStringLiteral("env_snapshot[0][1]");
        QTest::newRow("invalid json after key")
            << QByteArray("{\"endpoint\": {\"api_key\": \"sk-SECRET-0123456789\"}, \"x\": }") << QString();
        QTest::newRow("flat api_key") << QByteArray(
            "{\"base_url\": \"http://h\", \"api_key\": \"sk-SECRET-0123456789\"}")
                                      << QStringLiteral("api_key");
        QTest::newRow("toml client api_key")
            << QByteArray("[client]\nAPI_KEY = \"sk-SECRET-0123456789\"\n[load_matrix.a]\nconcurrency = 1\n")
            << QStringLiteral("client.API_KEY");
        QTest::newRow("toml bench x-api-key")
            << QByteArray("[bench]\n[bench.sampling]\nx-api-key = \"sk-SECRET-0123456789\"\n")
            << QStringLiteral("bench.sampling.x-api-key");
    }
    void secrets()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, path);
        const ExperimentReadResult r = importExperiment(bytes);
        QVERIFY(!r.ok);
        const QString all = r.errors.join(QLatin1Char('\n'));
        QVERIFY2(!all.contains(QLatin1String("SECRET")), qPrintable(QStringLiteral("message repeats the key")));
        QVERIFY(!all.contains(QLatin1String("0123456789")));
        if (!path.isEmpty()) {
            if (!all.startsWith(path + QLatin1String(": ")))
                qInfo("errors: %s", qPrintable(all));
            QVERIFY(all.startsWith(path + QLatin1String(": ")));
            QVERIFY(all.contains(QLatin1String("not allowed")) || all.contains(QLatin1String("bearer token")));
        }
    }

    void keyReferencesAreFine()
    {
        const ExperimentReadResult r
            = importExperiment(native(", \"api_key_env\": \"MY_KEY\", \"headers\": {\"Authorization\": \"\"}"));
        // An empty Authorization value holds no secret; validation still refuses the header itself.
        QVERIFY2(r.ok, qPrintable(r.errors.join(QLatin1Char('\n'))));
        QCOMPARE(r.experiment.endpoint.apiKeyEnv, QStringLiteral("MY_KEY"));
    }

    void sizeLimit()
    {
        QByteArray big = "{\"name\": \"" + QByteArray(kMaxExperimentFileBytes, 'a') + "\"}";
        ExperimentReadResult r = importExperiment(big);
        QVERIFY(!r.ok);
        QCOMPARE(r.errors, QStringList { QStringLiteral("file is larger than 8388608 bytes") });
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("big.toml"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(big);
        f.close();
        r = loadExperimentFile(path);
        QVERIFY(!r.ok);
        QCOMPARE(r.errors, QStringList { path + QStringLiteral(": file is larger than 8388608 bytes") });
    }

    void missingFile()
    {
        const ExperimentReadResult r = loadExperimentFile(QStringLiteral("/nonexistent/x.json"));
        QVERIFY(!r.ok);
        QCOMPARE(r.errors, QStringList { QStringLiteral("/nonexistent/x.json: no such file") });
    }
};

QTEST_GUILESS_MAIN(TestHostileInput)
#include "tst_hostileinput.moc"

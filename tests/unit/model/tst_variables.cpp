// SPDX-License-Identifier: MIT
#include "model/validation.h"
#include "model/variables.h"
#include "testexperiment.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTest>

using namespace ServeScope;

class TestVariables final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }

    void lookup_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<bool>("known");
        QTest::addColumn<int>("type");
        QTest::newRow("typed vllm flag") << QStringLiteral("server.args.max_num_seqs") << true
                                         << int(VariableType::Int);
        QTest::newRow("typed sglang flag")
            << QStringLiteral("server.args.mem_fraction_static") << true << int(VariableType::Double);
        QTest::newRow("any other flag") << QStringLiteral("server.args.speculative_model") << true
                                        << int(VariableType::Any);
        QTest::newRow("flag with dash") << QStringLiteral("server.args.kv-transfer") << true << int(VariableType::Any);
        QTest::newRow("flag with space") << QStringLiteral("server.args.a b") << false << 0;
        QTest::newRow("family itself") << QStringLiteral("server.args.*") << false << 0;
        QTest::newRow("empty flag") << QStringLiteral("server.args.") << false << 0;
        QTest::newRow("endpoint enum") << QStringLiteral("endpoint.dialect") << true << int(VariableType::Enum);
        QTest::newRow("header") << QStringLiteral("endpoint.headers.X-Team") << true << int(VariableType::String);
        QTest::newRow("sampling typed") << QStringLiteral("sampling.top_p") << true << int(VariableType::Double);
        QTest::newRow("sampling other") << QStringLiteral("sampling.logit_bias") << true << int(VariableType::Any);
        QTest::newRow("load field") << QStringLiteral("load.input_len") << true << int(VariableType::Int);
        QTest::newRow("timeout") << QStringLiteral("load.timeouts.idle_s") << true << int(VariableType::Double);
        QTest::newRow("typo") << QStringLiteral("load.imput_len") << false << 0;
        QTest::newRow("metrics are not variables") << QStringLiteral("metrics.definitions") << false << 0;
        QTest::newRow("unknown root") << QStringLiteral("gpu") << false << 0;
    }
    void lookup()
    {
        QFETCH(QString, path);
        QFETCH(bool, known);
        QFETCH(int, type);
        const std::optional<VariableInfo> info = lookupVariable(path);
        QCOMPARE(info.has_value(), known);
        if (known) {
            QCOMPARE(int(info->type), type);
            QCOMPARE(info->path, path);
        }
    }

    void values_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QJsonValue>("value");
        QTest::addColumn<QString>("reason");
        QTest::newRow("int ok") << QStringLiteral("server.args.max_num_seqs") << QJsonValue(8) << QString();
        QTest::newRow("int fraction") << QStringLiteral("server.args.max_num_seqs") << QJsonValue(8.5)
                                      << QStringLiteral("must be an integer");
        QTest::newRow("int string") << QStringLiteral("load.repeat") << QJsonValue(QStringLiteral("3"))
                                    << QStringLiteral("must be an integer");
        QTest::newRow("int too big") << QStringLiteral("load.repeat") << QJsonValue(5000)
                                     << QStringLiteral("must be at most 1000");
        QTest::newRow("double range") << QStringLiteral("sampling.top_p") << QJsonValue(1.5)
                                      << QStringLiteral("must be at most 1");
        QTest::newRow("inf rate") << QStringLiteral("load.request_rate") << QJsonValue(QStringLiteral("inf"))
                                  << QString();
        QTest::newRow("inf elsewhere") << QStringLiteral("load.max_seconds") << QJsonValue(QStringLiteral("inf"))
                                       << QStringLiteral("must be a number");
        QTest::newRow("enum ok") << QStringLiteral("endpoint.protocol") << QJsonValue(QStringLiteral("http2"))
                                 << QString();
        QTest::newRow("enum bad") << QStringLiteral("endpoint.protocol") << QJsonValue(QStringLiteral("h3"))
                                  << QStringLiteral("must be one of http1, http2");
        QTest::newRow("list of strings") << QStringLiteral("server.launch.argv") << QJsonValue(QJsonArray { 1 })
                                         << QStringLiteral("must be a list of strings");
        QTest::newRow("null removes arg")
            << QStringLiteral("server.args.max_num_seqs") << QJsonValue(QJsonValue::Null) << QString();
        QTest::newRow("null on scalar") << QStringLiteral("load.repeat") << QJsonValue(QJsonValue::Null)
                                        << QStringLiteral("must be an integer");
        QTest::newRow("any accepts object") << QStringLiteral("server.args.speculative_config")
                                            << QJsonValue(QJsonObject { { QStringLiteral("n"), 2 } }) << QString();
    }
    void values()
    {
        QFETCH(QString, path);
        QFETCH(QJsonValue, value);
        QFETCH(QString, reason);
        QCOMPARE(checkVariableValue(*lookupVariable(path), value).text(), reason);
    }

    void readWrite()
    {
        Experiment x = Testing::validExperiment();
        QCOMPARE(readVariable(x, QStringLiteral("load.input_len")), QJsonValue(128));
        QCOMPARE(readVariable(x, QStringLiteral("load.concurrency")), QJsonValue(QJsonArray { 1, 8, 16 }));
        QCOMPARE(writeVariable(x, QStringLiteral("load.input_len"), 1024), QString());
        for (const LoadPoint &p : std::as_const(x.load.points))
            QCOMPARE(p.inputLen, 1024);
        QCOMPARE(writeVariable(x, QStringLiteral("endpoint.dialect"), QStringLiteral("sglang")), QString());
        QCOMPARE(x.endpoint.dialect, Dialect::Sglang);
        QCOMPARE(writeVariable(x, QStringLiteral("endpoint.headers.X-Team"), QStringLiteral("a")), QString());
        QCOMPARE(readVariable(x, QStringLiteral("endpoint.headers.x-team")), QJsonValue(QStringLiteral("a")));
        QCOMPARE(writeVariable(x, QStringLiteral("server.args.max_num_seqs"), QJsonValue::Null), QString());
        QVERIFY(!x.server.args.contains(QStringLiteral("max_num_seqs")));
        QCOMPARE(writeVariable(x, QStringLiteral("nope"), 1), QStringLiteral("unknown variable"));
        QCOMPARE(writeVariable(x, QStringLiteral("load.repeat"), 0), QStringLiteral("must be at least 1"));
        QCOMPARE(x.load.repeat, 3);
    }

    void resolveAppliesBaselineThenVariant()
    {
        Experiment x = Testing::validExperiment();
        x.variants[0].changes.set(QStringLiteral("dataset.seed"), 7);
        x.variants[0].changes.set(QStringLiteral("server.args.max_num_seqs"), 128);
        const Experiment base = resolveVariant(x, 0);
        QCOMPARE(base.server.args.value(QStringLiteral("max_num_seqs")), QJsonValue(128));
        QCOMPARE(base.dataset.seed, 7);
        const Experiment v = resolveVariant(x, 1);
        QCOMPARE(v.server.args.value(QStringLiteral("max_num_seqs")), QJsonValue(64));
        QCOMPARE(v.dataset.seed, 7); // inherited from the baseline
        QCOMPARE(v.variants.size(), 1);
        QCOMPARE(v.variants.first().name, QStringLiteral("seqs-64"));
        QCOMPARE(x.server.args.value(QStringLiteral("max_num_seqs")), QJsonValue(256)); // input untouched
    }

    void diff()
    {
        Experiment x = Testing::validExperiment();
        QVERIFY(diffVariants(x, 0).isEmpty());
        QList<VariableDifference> d = diffVariants(x, 1);
        QCOMPARE(d.size(), 1);
        QCOMPARE(d.first(), (VariableDifference { QStringLiteral("server.args.max_num_seqs"), 256, 64 }));
        // A change to the value the baseline already has is no difference.
        x.variants[1].changes.set(QStringLiteral("load.repeat"), 3);
        QCOMPARE(diffVariants(x, 1).size(), 1);
        x.variants[1].changes.set(QStringLiteral("sampling.top_k"), 20);
        d = diffVariants(x, 1);
        QCOMPARE(d.size(), 2);
        QCOMPARE(d.at(1).path, QStringLiteral("sampling.top_k"));
        QVERIFY(d.at(1).baseline.isUndefined());
        QCOMPARE(describeValue(d.at(1).baseline), QStringLiteral("unset"));
    }

    void warnings_data()
    {
        QTest::addColumn<QStringList>("changes");
        QTest::addColumn<QString>("reason");
        QTest::addColumn<bool>("launch");
        QTest::addColumn<QString>("baseUrl");
        QTest::addColumn<QStringList>("expected");
        const QString url = QStringLiteral("http://127.0.0.1:8000");
        QTest::newRow("one flag with launch")
            << QStringList { QStringLiteral("server.args.max_num_seqs") } << QString() << true << url << QStringList();
        QTest::newRow("flag without launch")
            << QStringList { QStringLiteral("server.args.max_num_seqs") } << QString() << false << url
            << QStringList { QStringLiteral("variants[1].changes.server.args.max_num_seqs: no server.launch.argv to "
                                            "apply it; the server must be restarted with it by hand") };
        QTest::newRow("flag on simulator") << QStringList { QStringLiteral("server.args.max_num_seqs") } << QString()
                                           << false << QStringLiteral("sim:") << QStringList();
        QTest::newRow("flag without placeholder")
            << QStringList { QStringLiteral("server.args.block_size") } << QString() << true << url
            << QStringList { QStringLiteral("variants[1].changes.server.args.block_size: server.launch.argv has no "
                                            "{server.args.block_size} placeholder") };
        QTest::newRow("two variables, no reason")
            << QStringList { QStringLiteral("load.input_len"), QStringLiteral("sampling.top_k") } << QString() << true
            << url
            << QStringList { QStringLiteral(
                   "variants[1]: changes 2 variables (load.input_len, sampling.top_k) without a reason") };
        QTest::newRow("two variables with reason")
            << QStringList { QStringLiteral("load.input_len"), QStringLiteral("sampling.top_k") }
            << QStringLiteral("prefill study") << true << url << QStringList();
        QTest::newRow("no-op change") << QStringList { QStringLiteral("load.repeat") } << QString() << true << url
                                      << QStringList();
    }
    void warnings()
    {
        QFETCH(QStringList, changes);
        QFETCH(QString, reason);
        QFETCH(bool, launch);
        QFETCH(QString, baseUrl);
        QFETCH(QStringList, expected);
        Experiment x = Testing::validExperiment();
        x.endpoint.baseUrl = baseUrl;
        if (!launch) {
            x.server.launchArgv.clear();
            x.server.readyPath.clear();
        }
        Variant &v = x.variants[1];
        v.changes = {};
        v.reason = reason;
        const QHash<QString, QJsonValue> values { { QStringLiteral("server.args.max_num_seqs"), 8 },
            { QStringLiteral("server.args.block_size"), 32 }, { QStringLiteral("load.input_len"), 2048 },
            { QStringLiteral("sampling.top_k"), 5 }, { QStringLiteral("load.repeat"), 3 } };
        for (const QString &c : std::as_const(changes))
            v.changes.set(c, values.value(c));
        QStringList got;
        for (const Problem &p : variantWarnings(x, 1)) {
            QCOMPARE(p.severity, Severity::Warning);
            QCOMPARE(p.variant, 1);
            got << p.toString();
        }
        QCOMPARE(got, expected);
        // validate() reports the same warnings and no errors
        QList<Problem> all = validate(x);
        QCOMPARE(hasErrors(all), false);
        QCOMPARE(all.size(), expected.size());
    }

    void equivalentFlags()
    {
        QCOMPARE(equivalentServerArg(QStringLiteral("max_num_seqs"), QStringLiteral("sglang")),
            QStringLiteral("max_running_requests"));
        QCOMPARE(equivalentServerArg(QStringLiteral("tp_size"), QStringLiteral("vllm")),
            QStringLiteral("tensor_parallel_size"));
        QCOMPARE(equivalentServerArg(QStringLiteral("mem_fraction_static"), QStringLiteral("vllm")),
            QStringLiteral("gpu_memory_utilization"));
        QCOMPARE(equivalentServerArg(QStringLiteral("max_num_batched_tokens"), QStringLiteral("sglang")),
            QStringLiteral("chunked_prefill_size"));
        QCOMPARE(equivalentServerArg(QStringLiteral("seed"), QStringLiteral("sglang")), QString());
    }

    void registryIsConsistent()
    {
        QSet<QString> paths;
        for (const VariableInfo &info : knownVariables()) {
            QVERIFY2(!paths.contains(info.path), qPrintable(info.path));
            paths.insert(info.path);
            QVERIFY(!info.description.isEmpty());
            if (info.type == VariableType::Enum)
                QVERIFY(!info.choices.isEmpty());
        }
        QVERIFY(paths.size() > 50);
    }
};

QTEST_GUILESS_MAIN(TestVariables)
#include "tst_variables.moc"

// SPDX-License-Identifier: MIT
// The Kubernetes manifest of a sharded load (`k8s-job`): names, the Indexed Job, secrets by
// reference, and the block YAML it is printed as.
#include "io/k8smanifest.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <QTest>

using namespace ServeScope;

class TestK8sManifest final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }

    void names_data()
    {
        QTest::addColumn<QString>("experiment");
        QTest::addColumn<QString>("name");
        QTest::newRow("spaces and case") << QStringLiteral("Qwen 35B vs SGLang")
                                         << QStringLiteral("servescope-qwen-35b-vs-sglang");
        QTest::newRow("punctuation runs") << QStringLiteral("a__b!!c.") << QStringLiteral("servescope-a-b-c");
        QTest::newRow("non-ASCII first") << QStringLiteral("吞吐 test") << QStringLiteral("servescope-test");
        QTest::newRow("nothing usable") << QStringLiteral("!!!") << QStringLiteral("servescope");
        QTest::newRow("cut to 52, no trailing dash") << QStringLiteral("x").repeated(40) + QStringLiteral(" ")
                + QStringLiteral("y").repeated(40) << QStringLiteral("servescope-") + QStringLiteral("x").repeated(40);
    }
    void names()
    {
        QFETCH(QString, experiment);
        QFETCH(QString, name);
        QCOMPARE(k8sName(experiment), name);
        QVERIFY(k8sName(experiment).size() <= 52);
    }

    void indexedJobWithSecretsByReference()
    {
        K8sJobSpec spec;
        spec.name = QStringLiteral("servescope-demo");
        spec.namespaceName = QStringLiteral("bench");
        spec.image = QStringLiteral("registry.example/servescope:1");
        spec.shards = 3;
        spec.startAt = QStringLiteral("2026-12-04T12:00:00Z");
        spec.pointSlot = QStringLiteral("90");
        spec.resultsClaim = QStringLiteral("results");
        spec.secret = QStringLiteral("gateway");
        spec.secretVariables = { QStringLiteral("GATEWAY_KEY") };
        spec.experimentJson = "{\n  \"name\": \"demo\"\n}\n";
        const QJsonArray items = k8sJobManifest(spec).value(QStringLiteral("items")).toArray();
        QCOMPARE(items.size(), 2);
        const QJsonObject config = items[0].toObject();
        QCOMPARE(config.value(QStringLiteral("kind")).toString(), QStringLiteral("ConfigMap"));
        QCOMPARE(config[QStringLiteral("metadata")][QStringLiteral("name")].toString(),
            QStringLiteral("servescope-demo-config"));
        QCOMPARE(config[QStringLiteral("data")][QStringLiteral("experiment.json")].toString(),
            QString::fromUtf8(spec.experimentJson));
        const QJsonObject job = items[1].toObject();
        QCOMPARE(job.value(QStringLiteral("kind")).toString(), QStringLiteral("Job"));
        QCOMPARE(job[QStringLiteral("metadata")][QStringLiteral("namespace")].toString(), QStringLiteral("bench"));
        const QJsonObject jobSpec = job.value(QStringLiteral("spec")).toObject();
        QCOMPARE(jobSpec.value(QStringLiteral("completionMode")).toString(), QStringLiteral("Indexed"));
        QCOMPARE(jobSpec.value(QStringLiteral("completions")).toInt(), 3);
        QCOMPARE(jobSpec.value(QStringLiteral("parallelism")).toInt(), 3);
        QCOMPARE(jobSpec.value(QStringLiteral("backoffLimit")).toInt(-1), 0);
        const QJsonObject c
            = jobSpec[QStringLiteral("template")][QStringLiteral("spec")][QStringLiteral("containers")][0].toObject();
        QStringList args;
        for (const QJsonValue &a : c.value(QStringLiteral("args")).toArray())
            args << a.toString();
        QCOMPARE(args,
            QStringList({ QStringLiteral("run"), QStringLiteral("/config/experiment.json"), QStringLiteral("--shard"),
                QStringLiteral("$(JOB_COMPLETION_INDEX)/3"), QStringLiteral("--start-at"), spec.startAt,
                QStringLiteral("--project"), QStringLiteral("/results/shard-$(JOB_COMPLETION_INDEX).servescope"),
                QStringLiteral("--point-slot"), QStringLiteral("90") }));
        const QJsonObject env = c.value(QStringLiteral("env")).toArray().at(0).toObject();
        QCOMPARE(env.value(QStringLiteral("name")).toString(), QStringLiteral("GATEWAY_KEY"));
        QVERIFY(!env.contains(QStringLiteral("value"))); // never the value, only where it is
        QCOMPARE(env[QStringLiteral("valueFrom")][QStringLiteral("secretKeyRef")][QStringLiteral("name")].toString(),
            QStringLiteral("gateway"));
    }

    void blockYaml()
    {
        const QJsonObject tree { { QStringLiteral("kind"), QStringLiteral("List") },
            { QStringLiteral("text"), QStringLiteral("{\n\n  \"a\": 1\n}\n") },
            { QStringLiteral("open"), QStringLiteral("two\nlines") },
            { QStringLiteral("indented"), QStringLiteral("  lead\nx") },
            { QStringLiteral("items"),
                QJsonArray {
                    QJsonObject { { QStringLiteral("name"), QStringLiteral("c") }, { QStringLiteral("n"), 2 } },
                    QStringLiteral("plain"), true } },
            { QStringLiteral("empty"), QJsonObject {} }, { QStringLiteral("odd key"), QJsonArray {} } };
        QCOMPARE(QString::fromUtf8(toYaml(tree)),
            QStringLiteral("empty: {}\n"
                           "indented: \"  lead\\nx\"\n"
                           "items:\n"
                           "  - n: 2\n"
                           "    name: \"c\"\n"
                           "  - \"plain\"\n"
                           "  - true\n"
                           "kind: \"List\"\n"
                           "\"odd key\": []\n"
                           "open: |-\n"
                           "  two\n"
                           "  lines\n"
                           "text: |\n"
                           "  {\n"
                           "\n"
                           "    \"a\": 1\n"
                           "  }\n"));
    }
};

QTEST_GUILESS_MAIN(TestK8sManifest)
#include "tst_k8smanifest.moc"

// SPDX-License-Identifier: MIT
// `servescope-cli k8s-job`: the Indexed Job manifest, read back as a tree.
#include "simchild.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

namespace {

struct Printed {
    int exitCode = -1;
    QByteArray out, err;
};

Printed k8sJob(const QStringList &args, const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment())
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(SimChild::cli(), QStringList { QStringLiteral("k8s-job") } + args);
    p.waitForFinished(30000);
    return { p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError() };
}

} // namespace

class TestCliK8sJob final : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    QString writeExperiment(const QString &name, const QString &endpoint)
    {
        const QString path = m_dir.filePath(name + QStringLiteral(".json"));
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly))
            return {};
        f.write(QStringLiteral("{\"name\": \"%1\", \"endpoint\": %2, \"dataset\": {\"name\": \"random\", \"seed\": 7},"
                               " \"load\": {\"mode\": \"concurrency\", \"points\": [{\"concurrency\": 48, "
                               "\"input_len\": 64, \"output_len\": 32, \"num_prompts\": 960}]}}\n")
                    .arg(name, endpoint)
                    .toUtf8());
        return path;
    }

private Q_SLOTS:

    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }
    void initTestCase()
    {
        QVERIFY2(!SimChild::cli().isEmpty(), "SERVESCOPE_CLI is not set");
        QVERIFY(m_dir.isValid());
    }

    void manifestIsAnIndexedJob()
    {
        const QString exp = writeExperiment(QStringLiteral("Remote Bench"),
            QStringLiteral("{\"base_url\": \"http://vllm.bench.svc:8000\", \"path\": \"/v1/completions\", \"model\": "
                           "\"m\", \"api_key_env\": \"BENCH_KEY\"}"));
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("BENCH_KEY"), QStringLiteral("sk-never-in-the-manifest"));
        const QStringList args { exp, QStringLiteral("--shards"), QStringLiteral("3"), QStringLiteral("--image"),
            QStringLiteral("registry.example/servescope:0.1"), QStringLiteral("--start-at"),
            QStringLiteral("2030-01-02T03:04:05.000Z"), QStringLiteral("--results-claim"), QStringLiteral("shards"),
            QStringLiteral("--namespace"), QStringLiteral("bench"), QStringLiteral("--secret"),
            QStringLiteral("bench-keys"), QStringLiteral("--point-slot"), QStringLiteral("120") };
        const Printed json = k8sJob(args + QStringList { QStringLiteral("--json") }, env);
        QVERIFY2(json.exitCode == 0, json.err.constData());
        const QJsonObject list = QJsonDocument::fromJson(json.out).object();
        QCOMPARE(list.value(QStringLiteral("kind")).toString(), QStringLiteral("List"));
        const QJsonArray items = list.value(QStringLiteral("items")).toArray();
        QCOMPARE(items.size(), 2);

        const QJsonObject config = items[0].toObject();
        QCOMPARE(config.value(QStringLiteral("kind")).toString(), QStringLiteral("ConfigMap"));
        const QJsonObject experiment = QJsonDocument::fromJson(config.value(QStringLiteral("data"))
                                                                   .toObject()
                                                                   .value(QStringLiteral("experiment.json"))
                                                                   .toString()
                                                                   .toUtf8())
                                           .object();
        QCOMPARE(experiment.value(QStringLiteral("name")).toString(), QStringLiteral("Remote Bench"));

        const QJsonObject job = items[1].toObject();
        QCOMPARE(job.value(QStringLiteral("apiVersion")).toString(), QStringLiteral("batch/v1"));
        QCOMPARE(job.value(QStringLiteral("kind")).toString(), QStringLiteral("Job"));
        const QJsonObject meta = job.value(QStringLiteral("metadata")).toObject();
        QCOMPARE(meta.value(QStringLiteral("name")).toString(), QStringLiteral("servescope-remote-bench"));
        QCOMPARE(meta.value(QStringLiteral("namespace")).toString(), QStringLiteral("bench"));
        const QJsonObject spec = job.value(QStringLiteral("spec")).toObject();
        QCOMPARE(spec.value(QStringLiteral("completionMode")).toString(), QStringLiteral("Indexed"));
        QCOMPARE(spec.value(QStringLiteral("completions")).toInt(), 3);
        QCOMPARE(spec.value(QStringLiteral("parallelism")).toInt(), 3);
        const QJsonObject pod
            = spec.value(QStringLiteral("template")).toObject().value(QStringLiteral("spec")).toObject();
        const QJsonArray containers = pod.value(QStringLiteral("containers")).toArray();
        QCOMPARE(containers.size(), 1);
        const QJsonObject c = containers[0].toObject();
        QCOMPARE(c.value(QStringLiteral("image")).toString(), QStringLiteral("registry.example/servescope:0.1"));
        QStringList argv { c.value(QStringLiteral("command")).toArray()[0].toString() };
        for (const QJsonValue &a : c.value(QStringLiteral("args")).toArray())
            argv << a.toString();
        QCOMPARE(argv.join(QLatin1Char(' ')),
            QStringLiteral("servescope-cli run /config/experiment.json --shard $(JOB_COMPLETION_INDEX)/3 --start-at "
                           "2030-01-02T03:04:05.000Z --project /results/shard-$(JOB_COMPLETION_INDEX).servescope "
                           "--point-slot 120"));
        // The key comes from the Secret by reference, never as a value.
        const QJsonArray envList = c.value(QStringLiteral("env")).toArray();
        QCOMPARE(envList.size(), 1);
        const QJsonObject e = envList[0].toObject();
        QCOMPARE(e.value(QStringLiteral("name")).toString(), QStringLiteral("BENCH_KEY"));
        QVERIFY(!e.contains(QStringLiteral("value")));
        const QJsonObject ref
            = e.value(QStringLiteral("valueFrom")).toObject().value(QStringLiteral("secretKeyRef")).toObject();
        QCOMPARE(ref.value(QStringLiteral("name")).toString(), QStringLiteral("bench-keys"));
        QCOMPARE(ref.value(QStringLiteral("key")).toString(), QStringLiteral("BENCH_KEY"));
        const QJsonArray volumes = pod.value(QStringLiteral("volumes")).toArray();
        QCOMPARE(volumes.size(), 2);
        QCOMPARE(volumes[0]
                     .toObject()
                     .value(QStringLiteral("configMap"))
                     .toObject()
                     .value(QStringLiteral("name"))
                     .toString(),
            QStringLiteral("servescope-remote-bench-config"));
        QCOMPARE(volumes[1]
                     .toObject()
                     .value(QStringLiteral("persistentVolumeClaim"))
                     .toObject()
                     .value(QStringLiteral("claimName"))
                     .toString(),
            QStringLiteral("shards"));
        QVERIFY(!json.out.contains("sk-never-in-the-manifest"));

        // The YAML form holds the same fields in block style.
        const Printed yaml = k8sJob(args, env);
        QVERIFY2(yaml.exitCode == 0, yaml.err.constData());
        for (const char *line : { "kind: \"List\"\n", "\n      completionMode: \"Indexed\"\n",
                 "\n      completions: 3\n", "\n      parallelism: 3\n",
                 "\n                - \"$(JOB_COMPLETION_INDEX)/3\"\n", "\n                    secretKeyRef:\n",
                 "\n                      key: \"BENCH_KEY\"\n", "\n      experiment.json: |\n" })
            QVERIFY2(yaml.out.contains(line), line);
        QVERIFY(!yaml.out.contains("sk-never-in-the-manifest"));
    }

    void refusals_data()
    {
        QTest::addColumn<QString>("endpoint");
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QString>("message");
        const QString keyed
            = QStringLiteral("{\"base_url\": \"http://h:8000\", \"model\": \"m\", \"api_key_env\": \"K\"}");
        QTest::newRow("key without secret") << keyed << QStringList {} << QStringLiteral("give --secret NAME");
        QTest::newRow("secret without key") << QStringLiteral("{\"base_url\": \"http://h:8000\", \"model\": \"m\"}")
                                            << QStringList { QStringLiteral("--secret"), QStringLiteral("s") }
                                            << QStringLiteral("reads no key or secret header");
        QTest::newRow("keychain") << QStringLiteral("{\"base_url\": \"http://h:8000\", \"model\": \"m\", "
                                                    "\"keychain_entry\": \"e\"}")
                                  << QStringList {} << QStringLiteral("a pod does not have");
        QTest::newRow("simulator") << QStringLiteral("{\"base_url\": \"sim:\", \"model\": \"m\"}") << QStringList {}
                                   << QStringLiteral("every shard would start its own simulator");
        QTest::newRow("more shards than streams") << keyed
                                                  << QStringList { QStringLiteral("--secret"), QStringLiteral("s"),
                                                         QStringLiteral("--shards"), QStringLiteral("64") }
                                                  << QStringLiteral("concurrency 48 is less than 64 shards");
    }
    void refusals()
    {
        QFETCH(QString, endpoint);
        QFETCH(QStringList, extra);
        QFETCH(QString, message);
        const QString exp = writeExperiment(QStringLiteral("refused"), endpoint);
        QStringList args { exp, QStringLiteral("--image"), QStringLiteral("i"), QStringLiteral("--start-at"),
            QStringLiteral("now+60"), QStringLiteral("--results-claim"), QStringLiteral("c") };
        if (!extra.contains(QStringLiteral("--shards")))
            args << QStringLiteral("--shards") << QStringLiteral("3");
        const Printed o = k8sJob(args + extra);
        QCOMPARE(o.exitCode, 2);
        QVERIFY(o.out.isEmpty());
        QVERIFY2(o.err.contains(message.toUtf8()), o.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliK8sJob)
#include "tst_clik8sjob.moc"

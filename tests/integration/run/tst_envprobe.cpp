// SPDX-License-Identifier: MIT
// resources/env-probe.sh on a host whose nvidia-smi and Python are stand-ins with known answers
// (the real ones do not exist here): its JSON parses, carries what they said, and opens as an
// environment snapshot with source "probe".
#include "simchild.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

class TestEnvProbe final : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    QString writeTool(const QString &name, const QByteArray &script)
    {
        const QString path = m_dir.filePath(name);
        QFile f(path);
        f.open(QIODevice::WriteOnly);
        f.write("#!/bin/sh\n" + script);
        f.close();
        f.setPermissions(f.permissions() | QFileDevice::ExeOwner);
        return path;
    }

    QByteArray probe(const QStringList &args, const QString &pathPrefix)
    {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("PATH"), pathPrefix + env.value(QStringLiteral("PATH")));
        p.setProcessEnvironment(env);
        p.start(QStringLiteral("sh"),
            QStringList { QStringLiteral(SERVESCOPE_SOURCE_DIR "/resources/env-probe.sh") } + args);
        p.waitForFinished(30000);
        return p.exitCode() == 0 ? p.readAllStandardOutput() : QByteArray();
    }

private Q_SLOTS:

    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }
    void withGpuAndPython()
    {
        writeTool(QStringLiteral("nvidia-smi"),
            "if [ \"$#\" -eq 0 ]; then echo '| Driver Version: 550.54.15   CUDA Version: 12.4 |'; exit 0; fi\n"
            "printf 'NVIDIA H100 80GB \"HBM3\", 550.54.15, 700.00, 81559\\nNVIDIA H100 80GB \"HBM3\", 550.54.15, "
            "700.00, 81559\\n'\n");
        const QString python = writeTool(QStringLiteral("py"),
            "cat >/dev/null\nprintf "
            "'pytorch_version=2.5.1\\ncuda_version=12.4\\nvllm_version=0.8.5\\nvllm_commit=\\n'\n");
        const QByteArray out = probe({ QStringLiteral("--python"), python }, m_dir.path() + u':');
        QJsonParseError error;
        const QJsonObject o
            = QJsonDocument::fromJson(out, &error).object().value(QLatin1String("env_snapshot")).toObject();
        QVERIFY2(error.error == QJsonParseError::NoError, out.constData());
        QCOMPARE(o.value(QLatin1String("gpu")).toString(), QStringLiteral("NVIDIA H100 80GB \"HBM3\""));
        QCOMPARE(o.value(QLatin1String("gpu_count")).toInt(), 2);
        QCOMPARE(o.value(QLatin1String("power_cap_w")).toInt(), 700);
        QCOMPARE(o.value(QLatin1String("driver_version")).toString(), QStringLiteral("550.54.15"));
        QCOMPARE(o.value(QLatin1String("cuda_driver_version")).toString(), QStringLiteral("12.4"));
        QCOMPARE(o.value(QLatin1String("pytorch_version")).toString(), QStringLiteral("2.5.1"));
        QCOMPARE(o.value(QLatin1String("vllm_version")).toString(), QStringLiteral("0.8.5"));
        QVERIFY(!o.contains(QLatin1String("vllm_commit"))); // empty answers are left out
        QVERIFY(o.value(QLatin1String("cpu_cores")).toInt() >= 1);

        // It opens as what it is: a snapshot, every field from the probe.
        const QString file = m_dir.filePath(QStringLiteral("env.json"));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(out);
        f.close();
        QProcess v;
        v.start(SimChild::cli(), { QStringLiteral("validate"), file });
        QVERIFY(v.waitForFinished(30000));
        const QByteArray said = v.readAllStandardOutput();
        QCOMPARE(v.exitCode(), 0);
        QVERIFY2(said.contains("env\tgpu\tNVIDIA H100 80GB \"HBM3\"\tprobe\n"), said.constData());
        QVERIFY2(said.contains("env\tpower_cap_w\t700\tprobe\n"), said.constData());
    }

    // No GPU tools, no usable Python: still valid JSON with the host's own fields.
    void bareHost()
    {
        const QByteArray out = probe({ QStringLiteral("--python"), QStringLiteral("/nonexistent/python") }, QString());
        const QJsonObject o = QJsonDocument::fromJson(out).object().value(QLatin1String("env_snapshot")).toObject();
        QVERIFY2(!o.isEmpty(), out.constData());
        QVERIFY(!o.contains(QLatin1String("gpu")) || QFile::exists(QStringLiteral("/usr/bin/nvidia-smi")));
        QVERIFY(o.contains(QLatin1String("kernel")));
    }
};

QTEST_GUILESS_MAIN(TestEnvProbe)
#include "tst_envprobe.moc"

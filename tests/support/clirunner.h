// SPDX-License-Identifier: MIT
#pragma once

#include "simchild.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QString>

/// `servescope-cli run` as a process, for the integration tests that drive it.
namespace CliRun {

struct Outcome {
    int exitCode = -1;
    QByteArray out, err;
};

/// A two-variant experiment (baseline, seqs-2) with the given endpoint and load, written to
/// `dir/<name>.json`; returns its path.
inline QString writeExperiment(const QDir &dir, const QString &name, const QJsonObject &endpoint, const QString &load)
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
    const QString path = dir.filePath(name + QStringLiteral(".json"));
    QFile f(path);
    f.open(QIODevice::WriteOnly);
    f.write(json);
    return path;
}

/// `servescope-cli ARGS...`
inline Outcome cli(const QStringList &args, const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment())
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(SimChild::cli(), args);
    p.waitForFinished(240000);
    return { p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
        p.readAllStandardError() };
}

/// `servescope-cli run ARGS...`
inline Outcome run(const QStringList &args, const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment())
{
    return cli(QStringList { QStringLiteral("run") } + args, env);
}

inline QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace CliRun

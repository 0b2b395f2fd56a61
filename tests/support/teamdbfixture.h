// SPDX-License-Identifier: MIT
#pragma once

#include "clirunner.h"
#include "pgcluster.h"

#include <QDir>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTemporaryDir>

/// What the team-database tests share: a throwaway cluster with a user `alice` (password auth) owning a
/// database `team`, and a project with two runs measured by `servescope-cli run` against simulators,
/// the first with an API key.
struct TeamDbFixture {
    PgCluster pg;
    QTemporaryDir dir;
    QString alicePassword = QStringLiteral("alice-%1").arg(QRandomGenerator::global()->generate64(), 0, 16);
    QByteArray apiKey = QByteArray("sk-team-") + QByteArray::number(QRandomGenerator::global()->generate64(), 16);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    QString project;
    QByteArray everything; ///< every stdout and stderr byte of the CLI calls, for the secret scan

    QString url(const QString &query = {}) const
    {
        return QStringLiteral("postgresql://alice@127.0.0.1:%1/team").arg(pg.port()) + query;
    }
    QStringList db() const
    {
        return { QStringLiteral("--db"), url(), QStringLiteral("--db-password-env"), QStringLiteral("TEAM_PW") };
    }

    /// `servescope-cli ARGS` with TEAM_PW and the API key variable set.
    CliRun::Outcome cli(const QStringList &args)
    {
        QProcess p;
        p.setProcessEnvironment(env);
        p.start(SimChild::cli(), args);
        p.waitForFinished(240000);
        CliRun::Outcome o { p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            p.readAllStandardError() };
        everything += o.out + o.err;
        return o;
    }

    /// Starts the cluster and measures the two runs; a message on failure, "skip: …" without PostgreSQL.
    QString setUp()
    {
        if (PgCluster::binDir().isEmpty())
            return QStringLiteral("skip: PostgreSQL's server binaries (initdb, pg_ctl; Debian postgresql-15) are not "
                                  "installed");
        QString error;
        if (!dir.isValid() || !pg.start(&error))
            return error;
        if (!pg.psql(QStringLiteral("postgres"),
                QStringLiteral("CREATE ROLE alice LOGIN PASSWORD '%1'").arg(alicePassword), nullptr, &error)
            || !pg.psql(
                QStringLiteral("postgres"), QStringLiteral("CREATE DATABASE team OWNER alice"), nullptr, &error))
            return error;
        env.insert(QStringLiteral("TEAM_PW"), alicePassword);
        env.insert(QStringLiteral("TEAM_API_KEY"), QString::fromLatin1(apiKey));
        SimChild sim;
        if (!sim.start({ QStringLiteral("--api-key-env"), QStringLiteral("TEAM_API_KEY"), QStringLiteral("--model"),
                           QStringLiteral("m"), QStringLiteral("--time-scale"), QStringLiteral("20") },
                env))
            return QStringLiteral("the simulator did not start");
        const QDir d(dir.path());
        const QString keyed = CliRun::writeExperiment(d, QStringLiteral("tiny"),
            QJsonObject { { QStringLiteral("base_url"), sim.url().toString() },
                { QStringLiteral("path"), QStringLiteral("/v1/chat/completions") },
                { QStringLiteral("model"), QStringLiteral("m") },
                { QStringLiteral("api_key_env"), QStringLiteral("TEAM_API_KEY") } },
            QStringLiteral("{\"mode\": \"concurrency\", \"repeat\": 2, \"warmup_requests\": 2, \"points\": [\n"
                           "  {\"concurrency\": 1, \"input_len\": 24, \"output_len\": 6, \"num_prompts\": 6},\n"
                           "  {\"concurrency\": 4, \"input_len\": 48, \"output_len\": 12, \"num_prompts\": 16}]}"));
        const QString other = d.filePath(QStringLiteral("other.json"));
        QFile f(other);
        f.open(QIODevice::WriteOnly);
        f.write(
            "{\"name\": \"other\", \"endpoint\": {\"base_url\": \"sim:\", \"path\": \"/v1/completions\", \"model\": "
            "\"m2\"}, \"server\": {\"engine\": \"sglang\"}, \"dataset\": {\"name\": \"random\", \"seed\": 3},"
            " \"load\": {\"mode\": \"concurrency\", \"points\": [{\"concurrency\": 2, \"input_len\": 16,"
            " \"output_len\": 4, \"num_prompts\": 8}]}}\n");
        f.close();
        project = d.filePath(QStringLiteral("local.servescope"));
        for (const QString &exp : { keyed, other }) {
            const CliRun::Outcome o = cli({ QStringLiteral("run"), exp, QStringLiteral("--project"), project,
                QStringLiteral("--sim-time-scale"), QStringLiteral("20") });
            if (o.exitCode != 0)
                return QStringLiteral("run %1 failed: %2").arg(exp, QString::fromUtf8(o.err));
        }
        return {};
    }

    /// One value from SQL run as the superuser on `team`.
    QString sql(const QString &statement)
    {
        QString out, error;
        if (!pg.psql(QStringLiteral("team"), statement, &out, &error))
            qWarning("psql: %s", qPrintable(error));
        return out.trimmed();
    }
};

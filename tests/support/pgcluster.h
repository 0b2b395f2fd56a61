// SPDX-License-Identifier: MIT
#pragma once

#include "freeport.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRandomGenerator>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QThread>

#include <grp.h>
#include <pwd.h>
#include <unistd.h>

/// A throwaway PostgreSQL cluster for one test: initdb in a temporary directory, a free port on
/// 127.0.0.1 only (no Unix socket outside the directory), password (SCRAM) authentication for every
/// TCP connection, and `pg_ctl stop` when the object goes.
///
/// PostgreSQL refuses to run as root. When the test runs as root (CI does), initdb, postgres and
/// pg_ctl run as the user `nobody` instead: each child drops to nobody's uid and gid through
/// QProcess's child-process modifier (no sudo or runuser needed), and the cluster directory is
/// created directly under /tmp and given to that user, so it can be reached whatever TMPDIR says.
class PgCluster {
public:
    /// The directory with initdb, pg_ctl, psql and pg_dump: from PATH (initdb there) or Debian's
    /// /usr/lib/postgresql/<newest>/bin; empty when PostgreSQL's server binaries are not installed.
    static QString binDir()
    {
        const QString onPath = QStandardPaths::findExecutable(QStringLiteral("initdb"));
        if (!onPath.isEmpty() && QFile::exists(QFileInfo(onPath).dir().filePath(QStringLiteral("pg_ctl"))))
            return QFileInfo(QFileInfo(onPath).canonicalFilePath()).dir().path();
        QDir lib(QStringLiteral("/usr/lib/postgresql"));
        QStringList versions = lib.entryList(QDir::Dirs | QDir::NoDotAndDotDot);
        std::sort(
            versions.begin(), versions.end(), [](const QString &a, const QString &b) { return a.toInt() > b.toInt(); });
        for (const QString &v : versions) {
            const QString bin = lib.filePath(v + QStringLiteral("/bin"));
            if (QFile::exists(bin + QStringLiteral("/initdb")) && QFile::exists(bin + QStringLiteral("/postgres")))
                return bin;
        }
        return {};
    }

    ~PgCluster() { stop(); }

    /// Creates and starts the cluster with superuser `postgres` (password superPassword()).
    bool start(QString *error)
    {
        m_bin = binDir();
        if (m_bin.isEmpty())
            return fail(error, QStringLiteral("PostgreSQL server binaries (initdb, pg_ctl) are not installed"));
        m_dir.reset(
            geteuid() == 0 ? new QTemporaryDir(QStringLiteral("/tmp/servescope-pg-XXXXXX")) : new QTemporaryDir);
        if (!m_dir->isValid())
            return fail(error, QStringLiteral("no temporary directory"));
        m_superPassword = QStringLiteral("pg-super-%1").arg(QRandomGenerator::global()->generate64(), 0, 16);
        const QString pwfile = m_dir->filePath(QStringLiteral("pwfile"));
        QFile f(pwfile);
        if (!f.open(QIODevice::WriteOnly) || f.write(m_superPassword.toUtf8() + '\n') < 0)
            return fail(error, QStringLiteral("cannot write the password file"));
        f.close();
        if (geteuid() == 0 && !giveToNobody({ m_dir->path(), pwfile }, error))
            return false;
        if (!runTool(QStringLiteral("initdb"),
                { QStringLiteral("-D"), dataDir(), QStringLiteral("-U"), QStringLiteral("postgres"),
                    QStringLiteral("--pwfile=") + pwfile, QStringLiteral("--auth=scram-sha-256"), QStringLiteral("-E"),
                    QStringLiteral("UTF8"), QStringLiteral("--no-locale"), QStringLiteral("-N") },
                60000, error))
            return false;
        QFile::remove(pwfile);
        // A port that was free a moment ago; another process may take it first, so try a few.
        for (int attempt = 0; attempt < 5; ++attempt) {
            m_port = ServeScope::Testing::unusedPort();
            const QString options = QStringLiteral("-p %1 -k %2 -c listen_addresses=127.0.0.1 -c fsync=off")
                                        .arg(m_port)
                                        .arg(m_dir->path());
            if (runTool(QStringLiteral("pg_ctl"),
                    { QStringLiteral("-D"), dataDir(), QStringLiteral("-l"), logFile(), QStringLiteral("-w"),
                        QStringLiteral("-t"), QStringLiteral("60"), QStringLiteral("-o"), options,
                        QStringLiteral("start") },
                    90000, error)) {
                m_running = true;
                return true;
            }
        }
        return false;
    }

    void stop()
    {
        if (!m_running)
            return;
        m_running = false;
        QString ignored;
        runTool(QStringLiteral("pg_ctl"),
            { QStringLiteral("-D"), dataDir(), QStringLiteral("-m"), QStringLiteral("fast"), QStringLiteral("-w"),
                QStringLiteral("stop") },
            60000, &ignored);
    }

    int port() const { return m_port; }
    QString superPassword() const { return m_superPassword; }
    QString logFile() const { return m_dir->filePath(QStringLiteral("server.log")); }
    QString dir() const { return m_dir->path(); }

    /// Runs SQL with psql as the superuser on `database`; stdout (unaligned, tuples only) in *out.
    bool psql(const QString &database, const QString &sql, QString *out = nullptr, QString *error = nullptr)
    {
        return client(QStringLiteral("psql"),
            { QStringLiteral("-X"), QStringLiteral("-q"), QStringLiteral("-A"), QStringLiteral("-t"),
                QStringLiteral("-v"), QStringLiteral("ON_ERROR_STOP=1"), QStringLiteral("-d"), database,
                QStringLiteral("-c"), sql },
            out, error);
    }

    /// pg_dump of a database (schema and data, plain SQL).
    bool dump(const QString &database, QString *out, QString *error = nullptr)
    {
        return client(QStringLiteral("pg_dump"), { QStringLiteral("-d"), database }, out, error);
    }

    /// Turns TLS on with this certificate and key (copied into the data directory) and makes the
    /// cluster refuse `user` over a connection without TLS; waits until the server has reloaded.
    bool installTls(const QString &certificate, const QString &key, const QString &user = QStringLiteral("alice"))
    {
        const QString crt = QDir(dataDir()).filePath(QStringLiteral("server.crt"));
        const QString pem = QDir(dataDir()).filePath(QStringLiteral("server.key"));
        QFile hba(QDir(dataDir()).filePath(QStringLiteral("pg_hba.conf")));
        QString error;
        if (!QFile::copy(certificate, crt) || !QFile::copy(key, pem) || !hba.open(QIODevice::ReadOnly))
            return false;
        const QByteArray rules = hba.readAll();
        hba.close();
        if (!hba.open(QIODevice::WriteOnly | QIODevice::Truncate)
            || hba.write("hostnossl all " + user.toUtf8() + " 127.0.0.1/32 reject\n" + rules) < 0)
            return false;
        hba.close();
        QFile::setPermissions(pem, QFile::ReadOwner | QFile::WriteOwner);
        if ((geteuid() == 0 && !giveToNobody({ crt, pem }, &error))
            || !psql(QStringLiteral("postgres"), QStringLiteral("ALTER SYSTEM SET ssl = on"))
            || !psql(QStringLiteral("postgres"), QStringLiteral("SELECT pg_reload_conf()")))
            return false;
        for (int i = 0; i < 100; ++i) {
            QString on;
            if (psql(QStringLiteral("postgres"), QStringLiteral("SHOW ssl"), &on) && on.trimmed() == u"on")
                return true;
            QThread::msleep(50);
        }
        return false;
    }

private:
    QString dataDir() const { return m_dir->filePath(QStringLiteral("data")); }

    static bool fail(QString *error, const QString &message)
    {
        *error = message;
        return false;
    }

    static bool giveToNobody(const QStringList &paths, QString *error)
    {
        const passwd *pw = getpwnam("nobody");
        if (!pw)
            return fail(error, QStringLiteral("running as root, but there is no user 'nobody' to run PostgreSQL as"));
        for (const QString &p : paths) {
            if (chown(QFile::encodeName(p).constData(), pw->pw_uid, pw->pw_gid) != 0)
                return fail(error, QStringLiteral("cannot give %1 to nobody").arg(p));
        }
        return true;
    }

    // initdb, pg_ctl and the postgres it starts: as nobody when we are root.
    bool runTool(const QString &tool, const QStringList &args, int timeoutMs, QString *error)
    {
        QProcess p;
        if (geteuid() == 0) {
            // Looked up before the fork: the modifier runs in the child, where only plain system calls are safe.
            const passwd *pw = getpwnam("nobody");
            if (!pw)
                return fail(error, QStringLiteral("running as root, but there is no user 'nobody'"));
            p.setChildProcessModifier([uid = pw->pw_uid, gid = pw->pw_gid] {
                if (setgroups(0, nullptr) != 0 || setgid(gid) != 0 || setuid(uid) != 0)
                    _exit(126);
            });
        }
        p.setWorkingDirectory(m_dir->path());
        p.setProcessChannelMode(QProcess::MergedChannels);
        p.start(m_bin + QLatin1Char('/') + tool, args);
        if (!p.waitForFinished(timeoutMs) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
            QFile log(logFile());
            const QByteArray serverLog = log.open(QIODevice::ReadOnly) ? log.readAll().right(2000) : QByteArray();
            return fail(error,
                QStringLiteral("%1 failed (exit %2): %3 %4")
                    .arg(tool)
                    .arg(p.exitCode())
                    .arg(QString::fromLocal8Bit(p.readAll()), QString::fromLocal8Bit(serverLog)));
        }
        return true;
    }

    bool client(const QString &tool, const QStringList &args, QString *out, QString *error)
    {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("PGPASSWORD"), m_superPassword);
        env.insert(QStringLiteral("PGHOST"), QStringLiteral("127.0.0.1"));
        env.insert(QStringLiteral("PGPORT"), QString::number(m_port));
        env.insert(QStringLiteral("PGUSER"), QStringLiteral("postgres"));
        p.setProcessEnvironment(env);
        p.start(m_bin + QLatin1Char('/') + tool, args);
        const bool ok = p.waitForFinished(60000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
        if (out)
            *out = QString::fromUtf8(p.readAllStandardOutput());
        if (!ok && error)
            *error = QString::fromUtf8(p.readAllStandardError());
        return ok;
    }

    QString m_bin;
    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_superPassword;
    int m_port = 0;
    bool m_running = false;
};

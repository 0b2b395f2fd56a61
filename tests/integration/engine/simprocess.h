// SPDX-License-Identifier: MIT
// A `servescope-cli sim --port 0` child process for engine tests and benchmarks.
#pragma once

#include <QByteArray>
#include <QDeadlineTimer>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <QUrl>

namespace ServeScope::Testing {

class SimProcess {
public:
    /// Starts the simulator with `args` (after `sim --port 0`); `cpu` >= 0 pins it with taskset.
    bool start(const QStringList &args, int cpu = -1, const QProcessEnvironment &env = {})
    {
        const QString cli = QString::fromLocal8Bit(qgetenv("SERVESCOPE_CLI"));
        if (cli.isEmpty())
            return fail(QStringLiteral("SERVESCOPE_CLI is not set"));
        QStringList argv = QStringList { QStringLiteral("sim"), QStringLiteral("--port"), QStringLiteral("0") } + args;
        QString program = cli;
        if (cpu >= 0) {
            argv = QStringList { QStringLiteral("-c"), QString::number(cpu), cli } + argv;
            program = QStringLiteral("taskset");
        }
        if (!env.isEmpty())
            m_process.setProcessEnvironment(env);
        m_process.setProcessChannelMode(QProcess::SeparateChannels);
        m_process.start(program, argv);
        if (!m_process.waitForStarted(10000))
            return fail(QStringLiteral("cannot start ") + program);
        QByteArray line;
        QDeadlineTimer deadline(15000);
        while (!line.contains('\n') && !deadline.hasExpired()) {
            if (!m_process.canReadLine() && !m_process.waitForReadyRead(int(deadline.remainingTime())))
                break;
            line = m_process.readLine();
        }
        if (!line.startsWith("listening http://") && !line.startsWith("listening https://"))
            return fail(QStringLiteral("unexpected first line: ") + QString::fromUtf8(line)
                + QString::fromUtf8(m_process.readAllStandardError()));
        m_base = QUrl(QString::fromUtf8(line.trimmed().sliced(10)));
        return true;
    }
    ~SimProcess() { stop(); }
    void stop()
    {
        if (m_process.state() == QProcess::NotRunning)
            return;
        m_process.terminate();
        if (!m_process.waitForFinished(5000)) {
            m_process.kill();
            m_process.waitForFinished(2000);
        }
    }
    qint64 pid() const { return m_process.processId(); }
    QUrl url(const QString &path) const
    {
        QUrl u = m_base;
        u.setPath(path);
        return u;
    }
    const QString &error() const { return m_error; }

private:
    bool fail(const QString &why)
    {
        m_error = why;
        return false;
    }
    QProcess m_process;
    QUrl m_base;
    QString m_error;
};

} // namespace ServeScope::Testing

// SPDX-License-Identifier: MIT
#pragma once
// The one launcher of a `servescope-cli sim --port 0` child for tests and benchmarks: started
// (optionally pinned to a CPU or through another wrapper), read until it says where it listens,
// stopped with the object.

#include <QByteArray>
#include <QDeadlineTimer>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <csignal>

class SimChild {
public:
    /// Starts `sim --port 0 extra...`; `env` empty: this process's environment.
    bool start(const QStringList &extra, const QProcessEnvironment &env = {})
    {
        return startWrapped(QString(), {}, extra, env);
    }
    /// As start(), pinned to `cpu` with taskset when `cpu` >= 0.
    bool start(const QStringList &extra, int cpu, const QProcessEnvironment &env = {})
    {
        return cpu < 0
            ? start(extra, env)
            : startWrapped(QStringLiteral("taskset"), { QStringLiteral("-c"), QString::number(cpu) }, extra, env);
    }
    /// Starts `wrapper wrapperArgs... servescope-cli sim --port 0 extra...`.
    bool startWrapped(const QString &wrapper, const QStringList &wrapperArgs, const QStringList &extra,
        const QProcessEnvironment &env = {})
    {
        if (cli().isEmpty())
            return fail(QStringLiteral("SERVESCOPE_CLI is not set"));
        QStringList args = QStringList { QStringLiteral("sim"), QStringLiteral("--port"), QStringLiteral("0") } + extra;
        QString program = cli();
        if (!wrapper.isEmpty()) {
            args = wrapperArgs + QStringList { cli() } + args;
            program = wrapper;
        }
        if (!env.isEmpty())
            m_process.setProcessEnvironment(env);
        m_process.setProcessChannelMode(QProcess::SeparateChannels);
        m_process.start(program, args);
        if (!m_process.waitForStarted(10000))
            return fail(QStringLiteral("cannot start ") + program);
        QByteArray line;
        for (QDeadlineTimer deadline(15000); !line.contains('\n') && !deadline.hasExpired();) {
            if (!m_process.canReadLine() && !m_process.waitForReadyRead(int(deadline.remainingTime())))
                break;
            line = m_process.readLine();
        }
        if (!line.startsWith("listening http://") && !line.startsWith("listening https://"))
            return fail(QStringLiteral("unexpected first line: ") + QString::fromUtf8(line)
                + QString::fromUtf8(m_process.readAllStandardError()));
        m_base = QUrl(QString::fromUtf8(line.trimmed().sliced(10)));
        port = quint16(m_base.port());
        return port != 0;
    }
    ~SimChild() { stop(); }
    /// Before start(): its stderr (the scheduler's log lines) goes nowhere. For a caller that runs no
    /// event loop while the simulator works, whose pipe would otherwise fill and stop the simulator.
    void discardStderr() { m_process.setStandardErrorFile(QProcess::nullDevice()); }
    /// Sends `signal`, waits for the exit (killing it after 5 s) and returns its exit code.
    int stop(int signal = SIGTERM)
    {
        if (m_process.state() != QProcess::NotRunning) {
            ::kill(pid_t(m_process.processId()), signal);
            if (!m_process.waitForFinished(5000)) {
                m_process.kill();
                m_process.waitForFinished(2000);
            }
        }
        return m_process.exitCode();
    }
    /// The base URL it listens on, or a path on it.
    QUrl url() const { return m_base; }
    QUrl url(const QString &path) const
    {
        QUrl u = m_base;
        u.setPath(path);
        return u;
    }
    qint64 pid() const { return m_process.processId(); }
    QProcess &process() { return m_process; }
    const QString &error() const { return m_error; }
    static QString cli() { return qEnvironmentVariable("SERVESCOPE_CLI"); }

    quint16 port = 0;

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

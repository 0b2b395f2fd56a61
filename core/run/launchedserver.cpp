// SPDX-License-Identifier: MIT
#include "launchedserver.h"

#include "metrics/schedulerlog.h"
#include "model/clock.h"
#include "storage/storewriter.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QProcess>
#include <QProcessEnvironment>
#include <QThread>
#include <QTimer>

#include <cerrno>
#include <csignal>
#include <sys/prctl.h>
#include <unistd.h>

namespace ServeScope {

LaunchedServer::LaunchedServer(qint64 runId, StoreWriter &writer, QList<QByteArray> secrets)
    : m_runId(runId)
    , m_writer(writer)
    , m_redactor(secrets)
{
}

LaunchedServer::~LaunchedServer()
{
    stop();
}

bool LaunchedServer::isRunning() const
{
    return m_process && m_process->state() != QProcess::NotRunning;
}

bool LaunchedServer::start(const QStringList &argv, const Server &server, QString *error)
{
    stop();
    // As a shell would: the server inherits ServeScope's environment (CUDA, cache folders, PATH), with
    // the experiment's additions on top.
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const auto &[name, value] : server.launchEnv)
        env.insert(name, value);
    if (!server.launchCwd.isEmpty() && !QDir(server.launchCwd).exists()) {
        *error = QStringLiteral("server.launch.cwd: no folder %1").arg(server.launchCwd);
        return false;
    }
    m_process = std::make_unique<QProcess>();
    m_process->setProcessEnvironment(env);
    m_process->setWorkingDirectory(server.launchCwd);
    m_process->setProcessChannelMode(QProcess::SeparateChannels);
    m_process->setStandardInputFile(QProcess::nullDevice());
    const pid_t parent = ::getpid();
    // Its own process group, so stop() reaches the workers it forks too; and it must not outlive
    // us, even when we are killed (the signal goes when the forking thread dies: the run thread,
    // which outlives every launch).
    m_process->setChildProcessModifier([parent] {
        ::setsid();
        ::prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (::getppid() != parent)
            ::_exit(127);
    });
    connect(m_process.get(), &QProcess::readyReadStandardOutput, this, [this] { readChannel(0); });
    connect(m_process.get(), &QProcess::readyReadStandardError, this, [this] { readChannel(1); });
    m_process->start(argv.first(), argv.mid(1));
    if (!m_process->waitForStarted(10000)) {
        *error = QStringLiteral("cannot start the server %1: %2").arg(argv.first(), m_process->errorString());
        m_process.reset();
        return false;
    }
    m_pid = m_process->processId();
    return true;
}

void LaunchedServer::readChannel(int channel)
{
    if (!m_process)
        return;
    m_process->setReadChannel(channel == 0 ? QProcess::StandardOutput : QProcess::StandardError);
    QByteArray &partial = m_partial[channel];
    partial += m_process->readAll();
    qsizetype start = 0;
    for (qsizetype nl = partial.indexOf('\n'); nl >= 0; nl = partial.indexOf('\n', start)) {
        storeLine(channel, partial.mid(start, nl - start));
        start = nl + 1;
    }
    partial.remove(0, start);
    // A server that never ends a line cannot make us hold it whole.
    while (partial.size() >= kMaxLineChars) {
        storeLine(channel, partial.left(kMaxLineChars));
        partial.remove(0, kMaxLineChars);
    }
}

void LaunchedServer::storeLine(int channel, QByteArray line)
{
    if (line.endsWith('\r'))
        line.chop(1);
    QString text = m_redactor.apply(QString::fromUtf8(line));
    m_tail.push_back(text);
    while (m_tail.size() > kTailLines)
        m_tail.pop_front();
    const qint64 now = monotonicNs();
    if (const QList<ServerSample> samples = parseSchedulerLogLine(text, now); !samples.isEmpty())
        Q_EMIT schedulerSampled(samples);
    m_writer.enqueue(ServerLogLine {
        m_runId, now, channel == 0 ? QStringLiteral("stdout") : QStringLiteral("stderr"), std::move(text) });
}

QString LaunchedServer::exitReport(const QString &when) const
{
    QString report = m_process && m_process->exitStatus() == QProcess::CrashExit
        ? QStringLiteral("was killed by a signal")
        : QStringLiteral("exited with code %1").arg(m_process ? m_process->exitCode() : -1);
    report += QLatin1Char(' ') + when;
    const QStringList last = lastLines();
    if (!last.isEmpty())
        report += QStringLiteral("; its last lines:\n  ") + last.join(QLatin1String("\n  "));
    return report;
}

ServerExit LaunchedServer::exitState(const QString &variant) const
{
    ServerExit exit { variant, m_pid, -1, 0 };
    // Killed: QProcess keeps the signal's number as the exit code.
    if (m_process && m_process->exitStatus() == QProcess::CrashExit)
        exit.signal = m_process->exitCode();
    else if (m_process)
        exit.exitCode = m_process->exitCode();
    return exit;
}

QString LaunchedServer::exitMessage()
{
    readChannel(0);
    readChannel(1);
    return QStringLiteral("the server (pid %1) %2").arg(m_pid).arg(exitReport(QStringLiteral("while the run used it")));
}

bool LaunchedServer::waitReady(const QUrl &url, const EndpointConfig &endpoint, double timeoutS,
    const std::atomic<bool> &cancelled, QString *error)
{
    QNetworkAccessManager nam;
    nam.setProxy(endpoint.useProxy ? endpoint.proxy : QNetworkProxy(QNetworkProxy::NoProxy));
    QElapsedTimer clock;
    clock.start();
    const QDeadlineTimer deadline(qint64(timeoutS * 1000));
    QEventLoop loop;
    connect(m_process.get(), &QProcess::finished, &loop, &QEventLoop::quit);
    while (true) {
        if (!isRunning()) {
            readChannel(0);
            readChannel(1);
            *error = QStringLiteral("the server (pid %1) %2")
                         .arg(m_pid)
                         .arg(exitReport(QStringLiteral("before it was ready")));
            return false;
        }
        if (cancelled.load()) {
            *error = QStringLiteral("cancelled while waiting for the server");
            return false;
        }
        if (deadline.hasExpired()) {
            *error = QStringLiteral("the server (pid %1) was not ready after %2 s: GET %3 never answered 200")
                         .arg(m_pid)
                         .arg(timeoutS)
                         .arg(url.toString());
            return false;
        }
        const QNetworkRequest req = sideRequest(endpoint, url, 2000);
        QNetworkReply *reply = nam.get(req);
        connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
        loop.exec();
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        reply->abort();
        reply->deleteLater();
        if (status == 200) {
            m_readySeconds = double(clock.nsecsElapsed()) / 1e9;
            return true;
        }
        QTimer::singleShot(250, &loop, &QEventLoop::quit);
        loop.exec();
    }
}

void LaunchedServer::stop(int graceMs)
{
    if (!m_process)
        return;
    const pid_t group = pid_t(m_pid);
    if (m_process->state() != QProcess::NotRunning) {
        ::kill(-group, SIGTERM);
        if (!m_process->waitForFinished(graceMs)) {
            ::kill(-group, SIGKILL);
            m_process->waitForFinished(2000);
        }
    }
    // Workers the server forked into its group may outlive it: they get the rest of the grace period.
    QDeadlineTimer rest(graceMs);
    while (group > 0 && ::kill(-group, 0) == 0 && !rest.hasExpired())
        QThread::msleep(50);
    if (group > 0 && ::kill(-group, 0) == 0)
        ::kill(-group, SIGKILL);
    readChannel(0);
    readChannel(1);
    for (int channel : { 0, 1 }) {
        if (!m_partial[channel].isEmpty())
            storeLine(channel, std::exchange(m_partial[channel], QByteArray()));
    }
    m_process->disconnect(this);
    m_process.reset();
}

} // namespace ServeScope

// SPDX-License-Identifier: MIT
#pragma once

#include "engine/engineconfig.h"
#include "metrics/serverexit.h"
#include "metrics/servermetrics.h"
#include "model/experiment.h"

#include <QByteArray>
#include <QObject>
#include <QStringList>
#include <QUrl>

#include <atomic>
#include <deque>
#include <memory>

class QProcess;

namespace ServeScope {

class StoreWriter;

/// A variant's server started from its `server.launch.argv` (no shell), in its own process group,
/// with the launch environment and working folder. Every line it writes on stdout and stderr is
/// stored in the project (server_logs), secrets scrubbed, and its scheduler log lines are read into
/// samples (schedulerSampled) stamped when the line arrived. Stopped by stop() or with this object:
/// SIGTERM to the whole group, SIGKILL after the grace period; and when ServeScope dies, the
/// kernel's parent-death signal (SIGTERM) reaches it. Run thread only: waits on local event loops.
class LaunchedServer final : public QObject {
    Q_OBJECT
public:
    LaunchedServer(qint64 runId, StoreWriter &writer, QList<QByteArray> secrets);
    ~LaunchedServer() override;

    /// Starts `argv` with `server`'s environment additions and working folder.
    bool start(const QStringList &argv, const Server &server, QString *error);
    /// Polls GET `url` (with the endpoint's headers) every 250 ms until it answers 200, at most
    /// `timeoutS`; false with a message naming the cause when the server exits, the time runs out or
    /// the run is cancelled. A server that exits says its exit code and last lines.
    bool waitReady(const QUrl &url, const EndpointConfig &endpoint, double timeoutS, const std::atomic<bool> &cancelled,
        QString *error);
    /// Stops the whole process group (TERM, then KILL after `graceMs`) and stores the last lines.
    void stop(int graceMs = kStopGraceMs);

    /// After it exited on its own: "the server (pid N) exited with code C while the run used it",
    /// and its last lines.
    QString exitMessage();
    /// After it exited on its own: its pid and exit code or signal, on `variant`.
    ServerExit exitState(const QString &variant) const;
    qint64 pid() const { return m_pid; }
    bool isRunning() const;
    double readySeconds() const { return m_readySeconds; }
    /// The last lines the server wrote (both streams, in order), for error messages.
    QStringList lastLines() const { return QStringList(m_tail.cbegin(), m_tail.cend()); }

    static constexpr int kStopGraceMs = 10000;
    static constexpr int kTailLines = 12;
    static constexpr qsizetype kMaxLineChars = 16384; ///< a longer line is stored in pieces

Q_SIGNALS:
    /// The samples of a scheduler log line (schedulerlog.h), stamped when the line was read.
    void schedulerSampled(const QList<ServerSample> &samples);

private:
    void readChannel(int channel);
    void storeLine(int channel, QByteArray line);
    /// "exited with code N <when>" or "was killed by a signal <when>", and the last lines.
    QString exitReport(const QString &when) const;

    qint64 m_runId;
    StoreWriter &m_writer;
    Redactor m_redactor; ///< the run's key and secret header values
    std::unique_ptr<QProcess> m_process;
    QByteArray m_partial[2];
    std::deque<QString> m_tail;
    qint64 m_pid = 0;
    double m_readySeconds = 0;
};

} // namespace ServeScope

// SPDX-License-Identifier: MIT
#pragma once

#include <QProcess>
#include <QProcessEnvironment>
#include <QTest>
#include <QUrl>

/// A `servescope-cli sim --port 0` child for a test; stopped with the test object.
class SimChild {
public:
    bool start(const QStringList &extra, const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment())
    {
        m_process.setProcessEnvironment(env);
        m_process.start(
            cli(), QStringList { QStringLiteral("sim"), QStringLiteral("--port"), QStringLiteral("0") } + extra);
        if (!m_process.waitForStarted(10000))
            return false;
        while (m_process.waitForReadyRead(10000) || m_process.canReadLine()) {
            if (!m_process.canReadLine())
                continue;
            const QByteArray line = m_process.readLine().trimmed();
            if (line.startsWith("listening ")) {
                m_url = QUrl(QString::fromLatin1(line.mid(10)));
                return true;
            }
        }
        return false;
    }
    ~SimChild()
    {
        m_process.terminate();
        if (!m_process.waitForFinished(3000))
            m_process.kill();
        m_process.waitForFinished(1000);
    }
    QUrl url() const { return m_url; }
    qint64 pid() const { return m_process.processId(); }

    static QString cli() { return qEnvironmentVariable("SERVESCOPE_CLI"); }

private:
    QProcess m_process;
    QUrl m_url;
};

// SPDX-License-Identifier: MIT
#pragma once

#include "model/orderedvalues.h"

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <memory>

class QProcess;

namespace ServeScope {

/// The built-in simulator as a child process (`servescope-cli sim --port 0`): started with the
/// variant's server.args mapped to its flags and a fresh API key in its environment, and stopped
/// with its owner — also when the owner dies (parent-death signal).
class SimProcess {
public:
    SimProcess();
    ~SimProcess();

    /// Starts the simulator (its sglang flavour when `sglang`) and waits (up to timeoutMs) for its
    /// "listening" line.
    bool start(const QString &program, const OrderedValues &serverArgs, bool sglang, const QString &model,
        double timeScale, int timeoutMs = 15000);
    void stop();

    QUrl baseUrl() const { return m_baseUrl; }
    /// The key the simulator was told to require; pass it to the client by value.
    QByteArray apiKey() const { return m_key; }
    QString errorString() const { return m_error; }
    QStringList arguments() const { return m_arguments; }

    /// server.args → simulator flags: `max_num_seqs: 8` → `--max-num-seqs 8`; true → bare flag;
    /// false/null → omitted. A setting named by the other engine takes the flavour's name
    /// (`max_running_requests` → `--max-num-seqs`, or with `sglang` `--flavor sglang` and
    /// `max_num_seqs` → `--max-running-requests`; there `enable_prefix_caching: false` →
    /// `--disable-radix-cache`).
    static QStringList flagsFor(const OrderedValues &serverArgs, bool sglang = false);
    /// servescope-cli next to the running executable (or in ../ for the GUI's app/gui folder).
    static QString defaultProgram();

private:
    std::unique_ptr<QProcess> m_process;
    QUrl m_baseUrl;
    QByteArray m_key;
    QString m_error;
    QStringList m_arguments;
};

} // namespace ServeScope

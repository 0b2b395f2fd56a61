// SPDX-License-Identifier: MIT
#pragma once

#include "teamdb/teamdbquery.h"
#include "teamdb/teamdburl.h"

#include <QObject>
#include <QPointer>
#include <QString>
#include <QVector>

#include <functional>

namespace ServeScope {

class SecretStore;

/// The team database from the window: its URL (in the settings), its password (in the OS keychain,
/// entry `teamDbKeychainEntry`), and list, pull and publish each on a worker thread of its own — a
/// QPSQL connection lives on the thread that opened it, and none of it blocks the GUI thread.
/// Every job ends with exactly one signal.
class TeamDbJobs final : public QObject {
    Q_OBJECT
public:
    explicit TeamDbJobs(SecretStore *secrets, QObject *parent = nullptr);
    ~TeamDbJobs() override;

    /// The URL kept in the settings ("teamdb/url"); empty when none was set.
    static QString savedUrl();
    static void saveUrl(const QString &url);
    /// Where the window keeps the database user's password: "team-db/USER@HOST:PORT/DB"
    /// (`--db-password keychain:...` reads the same entry from the CLI).
    static QString keychainEntry(const TeamDbUrl &url);

    /// Stores the password for `url` in the keychain; ends with passwordStored.
    void storePassword(const TeamDbUrl &url, const QByteArray &password);
    void list(const TeamDbUrl &url, const TeamRunFilter &filter);
    /// Copies the published run `uid` into `projectPath` as a new local run.
    void pull(const TeamDbUrl &url, const QString &uid, const QString &projectPath);
    /// Publishes run `runId` of `projectPath`.
    void publish(const TeamDbUrl &url, const QString &projectPath, qint64 runId);
    /// From a list, pull or publish call until its signal: a second call meanwhile is refused
    /// (it ends at once with an error).
    bool busy() const { return m_busy; }

Q_SIGNALS:
    void passwordStored(bool ok, const QString &error);
    void listed(const QVector<ServeScope::TeamRunListing> &runs, const QString &error);
    /// `localRunId` 0 with `error` when the run could not be copied.
    void pulled(qint64 localRunId, const QString &uid, const QString &error);
    /// `existed`: the database had the run already (nothing was written).
    void published(const QString &uid, bool existed, qint64 requests, const QString &error);

private:
    /// Reads the password (none stored is no error: libpq may find one itself), then runs `job` on a
    /// worker thread with it; `failed` gets a keychain error instead.
    void withPassword(
        const TeamDbUrl &url, std::function<void(const QByteArray &)> job, std::function<void(const QString &)> failed);
    void runOnWorker(std::function<void()> work, std::function<void()> done);

    SecretStore *m_secrets;
    /// Starts a job; false (and `refused` called) while another one is in flight.
    bool begin(const std::function<void(const QString &)> &refused);

    QPointer<QThread> m_thread;
    bool m_busy = false;
};

} // namespace ServeScope

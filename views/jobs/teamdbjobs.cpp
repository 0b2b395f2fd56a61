// SPDX-License-Identifier: MIT
#include "teamdbjobs.h"

#include "backgroundjob.h"

#include "secrets/secretstore.h"
#include "teamdb/runbundle.h"
#include "teamdb/teamdbpublish.h"

#include <QSettings>
#include <QThread>

#include <memory>

namespace ServeScope {

TeamDbJobs::TeamDbJobs(SecretStore *secrets, QObject *parent)
    : QObject(parent)
    , m_secrets(secrets)
{
}

TeamDbJobs::~TeamDbJobs()
{
    // A job in flight finishes first: its thread holds the connection and, for a pull, a write.
    if (m_thread)
        m_thread->wait();
}

QString TeamDbJobs::savedUrl()
{
    return QSettings().value(QStringLiteral("teamdb/url")).toString();
}

void TeamDbJobs::saveUrl(const QString &url)
{
    QSettings().setValue(QStringLiteral("teamdb/url"), url);
}

QString TeamDbJobs::keychainEntry(const TeamDbUrl &url)
{
    return QStringLiteral("team-db/%1@%2:%3/%4").arg(url.user, url.host).arg(url.port).arg(url.database);
}

void TeamDbJobs::storePassword(const TeamDbUrl &url, const QByteArray &password)
{
    m_secrets->write(keychainEntry(url), password, this,
        [this](const SecretResult &r) { emit passwordStored(r.ok, r.ok ? QString() : r.message); });
}

bool TeamDbJobs::begin(const std::function<void(const QString &)> &refused)
{
    if (m_busy) {
        refused(tr("Another team database job is in progress."));
        return false;
    }
    m_busy = true;
    return true;
}

void TeamDbJobs::withPassword(
    const TeamDbUrl &url, std::function<void(const QByteArray &)> job, std::function<void(const QString &)> failed)
{
    m_secrets->read(keychainEntry(url), this, [this, job, failed](const SecretResult &r) {
        if (r.ok || r.error == SecretError::NotFound) {
            job(r.secret);
        } else {
            m_busy = false;
            failed(r.message);
        }
    });
}

void TeamDbJobs::runOnWorker(std::function<void()> work, std::function<void()> done)
{
    m_thread = runInBackground(this, QStringLiteral("team-database"), std::move(work), [this, done] {
        m_thread = nullptr;
        m_busy = false;
        done();
    });
}

void TeamDbJobs::list(const TeamDbUrl &url, const TeamRunFilter &filter)
{
    if (!begin([this](const QString &error) { emit listed({}, error); }))
        return;
    withPassword(
        url,
        [this, url, filter](const QByteArray &password) {
            auto runs = std::make_shared<QVector<TeamRunListing>>();
            auto error = std::make_shared<QString>();
            runOnWorker([=] { listTeamRuns(url, password, filter, runs.get(), error.get()); },
                [=, this] { emit listed(*runs, *error); });
        },
        [this](const QString &error) { emit listed({}, error); });
}

void TeamDbJobs::pull(const TeamDbUrl &url, const QString &uid, const QString &projectPath)
{
    if (!begin([this, uid](const QString &error) { emit pulled(0, uid, error); }))
        return;
    withPassword(
        url,
        [this, url, uid, projectPath](const QByteArray &password) {
            auto local = std::make_shared<qint64>(0);
            auto full = std::make_shared<QString>(uid);
            auto error = std::make_shared<QString>();
            runOnWorker(
                [=] {
                    RunBundle bundle;
                    bool unknown = false;
                    if (!fetchTeamRun(url, password, uid, &bundle, full.get(), &unknown, error.get()))
                        return;
                    // Pulled before: the local copy is that run (same stable id), not a second one.
                    *local = findLocalRun(projectPath, *full, error.get());
                    if (*local == 0 && error->isEmpty())
                        *local = writeRunBundle(projectPath, bundle, error.get());
                },
                [=, this] { emit pulled(*local, *full, *error); });
        },
        [this, uid](const QString &error) { emit pulled(0, uid, error); });
}

void TeamDbJobs::publish(const TeamDbUrl &url, const QString &projectPath, qint64 runId)
{
    if (!begin([this](const QString &error) { emit published({}, false, 0, error); }))
        return;
    withPassword(
        url,
        [this, url, projectPath, runId](const QByteArray &password) {
            auto result = std::make_shared<PublishResult>();
            runOnWorker(
                [=] {
                    RunBundle bundle;
                    if (!readRunBundle(projectPath, QString::number(runId), &bundle, &result->error))
                        return;
                    *result = publishRun(url, password, bundle, PublishOptions {});
                },
                [=, this] { emit published(result->uid, result->existed, result->requests, result->error); });
        },
        [this](const QString &error) { emit published({}, false, 0, error); });
}

} // namespace ServeScope

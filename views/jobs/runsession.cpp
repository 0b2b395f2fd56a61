// SPDX-License-Identifier: MIT
#include "runsession.h"

#include "diagnosistext.h"
#include "secrets/apikey.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

namespace ServeScope {

RunSession::RunSession(SecretStore *secrets, QObject *parent)
    : RunEvents(parent)
    , m_secrets(secrets)
{
    qRegisterMetaType<ServeScope::RunSnapshot>();
    qRegisterMetaType<ServeScope::RunResult>();
    qRegisterMetaType<ServeScope::PointSummary>();
}

RunSession::~RunSession()
{
    cancel();
}

QString RunSession::simulatorProgram()
{
    if (const QByteArray env = qgetenv("SERVESCOPE_CLI"); !env.isEmpty())
        return QString::fromLocal8Bit(env);
    const QDir dir(QCoreApplication::applicationDirPath());
    for (const QString &candidate :
        { dir.filePath(QStringLiteral("servescope-cli")), dir.filePath(QStringLiteral("../servescope-cli")) }) {
        if (QFileInfo(candidate).isExecutable())
            return QFileInfo(candidate).canonicalFilePath();
    }
    return QStandardPaths::findExecutable(QStringLiteral("servescope-cli"));
}

void RunSession::fail(const QString &message)
{
    m_running = false;
    RunResult r;
    r.status = RunResult::Status::Failed;
    r.message = message;
    emit logged(QStringLiteral("error"), message);
    emit finished(r);
}

void RunSession::start(const Experiment &experiment, RunOptions options)
{
    if (m_running)
        return;
    m_running = true;
    emit started();
    const Endpoint &e = experiment.endpoint;
    const KeyReference ref = KeyReference::forEndpoint(e);
    if (ref.isNull() || e.isLocalSimulator()) {
        launch(experiment, std::move(options));
        return;
    }
    resolveApiKey(ref, *m_secrets, this, [this, experiment, options](const SecretResult &r) mutable {
        if (!r.ok) {
            fail(tr("The API key could not be read: %1").arg(secretErrorText(r.error)));
            return;
        }
        if (r.trimmed)
            emit logged(QStringLiteral("warning"), tr("Spaces or line breaks around the API key were removed."));
        options.apiKey = r.secret;
        launch(experiment, std::move(options));
    });
}

void RunSession::launch(const Experiment &experiment, RunOptions options)
{
    options.simulatorProgram = simulatorProgram();
    auto *controller = new RunController(experiment, options, this);
    m_controller = controller;
    relay(controller);
    connect(controller, &RunController::finished, this, [this, controller](const RunResult &result) {
        m_running = false;
        m_controller = nullptr;
        controller->deleteLater();
        emit finished(result);
    });
    controller->start();
}

void RunSession::cancel()
{
    if (m_controller)
        m_controller->cancel();
}

} // namespace ServeScope

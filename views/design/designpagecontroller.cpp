// SPDX-License-Identifier: MIT
#include "designpagecontroller.h"

#include "diagnosistext.h"
#include "endpointcheck.h"
#include "experimentdocument.h"
#include "experimenteditor.h"
#include "loadtab.h"
#include "profiledialog.h"
#include "servertab.h"

#include <QVBoxLayout>

namespace ServeScope {

DesignPageController::DesignPageController(QWidget *window, SecretStore *secrets, ProfileStore *profiles,
    ExperimentDocument *document, ExperimentEditor *editor)
    : QObject(window)
    , m_window(window)
    , m_secrets(secrets)
    , m_profiles(profiles)
    , m_document(document)
    , m_editor(editor)
{
    connect(m_editor->loadTab(), &LoadTab::commandCopied, this, [this](const QString &, const QStringList &warnings) {
        for (const QString &w : warnings)
            emit logged(QStringLiteral("warning"), w);
        emit status(tr("Command copied to the clipboard"), 4000);
    });
    connect(m_editor, &ExperimentEditor::manageProfilesRequested, this, &DesignPageController::showProfiles);
    connect(m_editor->serverTab(), &ServerTab::captureRequested, this, &DesignPageController::captureFromServer);
    connect(m_editor, &ExperimentEditor::testConnectionRequested, this, &DesignPageController::testConnection);
}

void DesignPageController::testConnection()
{
    const Endpoint endpoint = m_document->experiment().endpoint;
    if (endpoint.isLocalSimulator()) {
        m_editor->showConnectionResult(
            tr("The local simulator starts with the run: there is nothing to reach before."), true);
        return;
    }
    m_editor->showConnectionResult({}, false);
    checkEndpoint(this, endpoint, m_secrets, [this](const PreflightResult &r) {
        m_editor->showConnectionResult(connectionOutcome(r.usable) + u'\n' + preflightSummary(r), r.usable);
    });
}

QWidget *DesignPageController::createPage(QWidget *banner)
{
    auto *page = new QWidget;
    auto *layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(banner);
    layout->addWidget(m_editor, 1);
    return page;
}

ProfileDialog *DesignPageController::showProfiles()
{
    if (!m_profileDialog) {
        m_profileDialog = new ProfileDialog(m_profiles, m_secrets, m_window);
        m_profileDialog->setAttribute(Qt::WA_DeleteOnClose);
    }
    m_profileDialog->show();
    m_profileDialog->raise();
    return m_profileDialog;
}

void DesignPageController::captureFromServer()
{
    const Endpoint endpoint = m_document->experiment().endpoint;
    if (endpoint.isLocalSimulator()) {
        emit status(tr("The local simulator describes itself in every run's client-host record."), 5000);
        return;
    }
    checkEndpoint(this, endpoint, m_secrets, [this](const PreflightResult &r) {
        if (!r.usable) {
            emit logged(QStringLiteral("warning"), preflightSummary(r));
            return;
        }
        Experiment e = m_document->experiment();
        const auto put = [&e](const QString &key, const QString &value) {
            e.envSnapshot.removeIf([&](const EnvEntry &x) { return x.key == key; });
            e.envSnapshot.append({ key, value, EnvSource::Captured });
        };
        if (!r.models.isEmpty())
            put(QStringLiteral("model"), r.models.constFirst());
        if (r.maxModelLen > 0)
            put(QStringLiteral("max_model_len"), QString::number(r.maxModelLen));
        m_document->apply(e, tr("Capture environment from server"));
    });
}

} // namespace ServeScope

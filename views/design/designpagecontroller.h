// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>
#include <QPointer>

class QWidget;

namespace ServeScope {

class ExperimentDocument;
class ExperimentEditor;
class ProfileDialog;
class ProfileStore;
class SecretStore;

/// The Design page's controller: the experiment editor with the run banner above it, the endpoint
/// profiles dialog, copying a point's command line, and capturing the environment from the server.
class DesignPageController final : public QObject {
    Q_OBJECT
public:
    DesignPageController(QWidget *window, SecretStore *secrets, ProfileStore *profiles, ExperimentDocument *document,
        ExperimentEditor *editor);

    /// The page: `banner` (shown while a run goes on) above the editor.
    QWidget *createPage(QWidget *banner);
    /// Edit → Endpoint profiles…: one dialog, raised when already open.
    ProfileDialog *showProfiles();
    /// Server → Capture: the model and its context length, as the endpoint reports them.
    void captureFromServer();
    /// The Endpoint tab's Test connection: the profiles dialog's check on the experiment's own endpoint.
    void testConnection();

signals:
    void logged(const QString &level, const QString &text);
    void status(const QString &text, int timeoutMs);

private:
    QWidget *m_window;
    SecretStore *m_secrets;
    ProfileStore *m_profiles;
    ExperimentDocument *m_document;
    ExperimentEditor *m_editor;
    QPointer<ProfileDialog> m_profileDialog;
};

} // namespace ServeScope

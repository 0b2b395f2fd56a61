// SPDX-License-Identifier: MIT
#pragma once

#include "diagnosis/preflight.h"
#include "endpointprofiles.h"

#include <QDialog>
#include <QPointer>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QPushButton;

namespace ServeScope {

class KeyValueTable;
class SecretStore;

/// Endpoint profiles and their credentials. The key is typed into a masked field and goes only to
/// the SecretStore (the OS keychain); the profile keeps the entry's id. "Test connection" runs the
/// preflight and explains its diagnosis in plain words. Never blocks: keychain calls are async and
/// the locked-keyring question is a window-modal box opened with open().
class ProfileDialog final : public QDialog {
    Q_OBJECT
public:
    ProfileDialog(ProfileStore *profiles, SecretStore *secrets, QWidget *parent = nullptr);

    QString currentProfileId() const { return m_currentId; }
    void selectProfile(const QString &id);
    /// Saves the form (and the key, when one was typed). Completion is signalled by saved().
    void saveCurrent();
    void testConnection();
    void newProfile();
    /// A new profile from a coding tool's file (Claude Code settings.json, Codex auth.json or config.toml, .env):
    /// base URL, API and model from the file, a literal key into the keychain (a placeholder is not stored, and
    /// said), a key variable kept as its name. The file is only read.
    void importEndpointFile(const QString &path);
    /// The form differs from the stored profile, or a key is typed and not saved.
    bool hasUnsavedEdits() const;
    /// Asks before unsaved edits of the shown profile (or a typed, unsaved key) are dropped.
    void reject() override;

signals:
    /// The profile was stored; `keyOutcome` is a translated sentence about the key (may be empty).
    void saved(const QString &profileId, const QString &keyOutcome);
    void testFinished(const ServeScope::PreflightResult &result);

private:
    /// Object names, placeholders and choices of the form's fields.
    void setUpFields();
    /// The profiles with New, Import… and Delete under them.
    QWidget *buildListPane();
    /// The chosen profile's fields, Save and Test, and the test's result.
    QWidget *buildForm();
    void showProfile(const QString &id);
    void deleteCurrent();
    EndpointProfile formProfile() const;
    void storeKey(const EndpointProfile &profile, const QByteArray &key, bool trimmed, const QStringList &notes = {});
    void offerSessionOnly(const EndpointProfile &profile, const QByteArray &key, const QString &why);
    /// `typed`: the key comes from the key field, not from the keychain or the environment.
    void runPreflight(const EndpointProfile &profile, const QByteArray &key, bool trimmed, bool typed = false);
    void reloadList();
    void setStatus(const QString &text, bool error = false);

    ProfileStore *m_profiles;
    SecretStore *m_secrets;
    QString m_currentId;
    QListWidget *m_list;
    QLineEdit *m_name, *m_baseUrl, *m_path, *m_model, *m_proxy, *m_caFile, *m_keyEnv, *m_key;
    QComboBox *m_api; ///< follows the path, and sets it
    QComboBox *m_dialect, *m_protocol;
    QCheckBox *m_skipVerify;
    KeyValueTable *m_headers;
    QLabel *m_keyState, *m_status;
    QPlainTextEdit *m_result;
    QPushButton *m_save, *m_test, *m_delete;
    QPointer<Preflight> m_preflight;
};

} // namespace ServeScope

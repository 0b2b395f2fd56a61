// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

class QComboBox;
class QFormLayout;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QTabWidget;

namespace ServeScope {

class ExperimentDocument;
class FormBinder;
class KeyValueTable;
class LoadTab;
class ProfileStore;
class ServerTab;
class VariantsTab;
struct Endpoint;

/// The experiment designer: one tab per part of the experiment, validation problems under their
/// fields, and a summary line with the problem count and a rough duration estimate.
class ExperimentEditor final : public QWidget {
    Q_OBJECT
public:
    ExperimentEditor(ExperimentDocument *document, ProfileStore *profiles, QWidget *parent = nullptr);

    QTabWidget *tabs() const { return m_tabs; }
    /// Brings the tab holding `page` (each page sits in a scroll area) to the front.
    void showTab(QWidget *page);
    LoadTab *loadTab() const { return m_load; }
    VariantsTab *variantsTab() const { return m_variants; }
    ServerTab *serverTab() const { return m_server; }
    /// Time scale the local simulator runs at (affects the estimate only).
    void setTimeScale(double scale);

    /// Shows what Test connection found (`text` empty: the test is under way, the button off meanwhile).
    void showConnectionResult(const QString &text, bool works);

signals:
    void manageProfilesRequested();
    void testConnectionRequested();

private:
    QWidget *endpointTab();
    /// The endpoint profile to fill the tab from, Use and Manage.
    QHBoxLayout *profileRow();
    /// A text field bound to the endpoint's `field` (trimmed), on a row of `form`.
    void addLineRow(QFormLayout *form, const QString &label, const char *name, const char *path, const QString &undo,
        QString Endpoint::*field, const QString &placeholder = {});
    /// The experiment's name and what it talks to: base URL, API, path, model, dialect and protocol.
    void addAddressRows(QFormLayout *form);
    /// How it gets there: proxy, TLS, the key and extra headers.
    void addAccessRows(QFormLayout *form);
    QWidget *metricsTab();
    void refresh();
    void reloadProfiles();
    /// Selects the profile whose endpoint the experiment uses, else "Choose a profile…".
    void showMatchingProfile();
    void applyProfile();

    ExperimentDocument *m_document;
    ProfileStore *m_profiles;
    FormBinder *m_binder;
    QTabWidget *m_tabs;
    ServerTab *m_server;
    LoadTab *m_load;
    VariantsTab *m_variants;
    QComboBox *m_profileCombo = nullptr;
    QPushButton *m_useProfile = nullptr;
    KeyValueTable *m_headers = nullptr;
    QLabel *m_keyLabel = nullptr;
    QPushButton *m_test = nullptr;
    QLabel *m_testResult = nullptr;
    QLabel *m_summary;
    double m_timeScale = 1.0;
};

} // namespace ServeScope

// SPDX-License-Identifier: MIT
#pragma once

#include "teamdb/teamdburl.h"

#include <QObject>

#include <functional>

class QFormLayout;
class QLineEdit;

namespace ServeScope {

class SecretStore;

/// The team database's URL and the reference to its password (`env:VAR` or `keychain:ID`, never the
/// password), as rows of a form; both are remembered between sessions (QSettings). docs/teamdb.md.
class TeamDbFields final : public QObject {
    Q_OBJECT
public:
    /// The line edits belong to the form addRows() puts them in.
    explicit TeamDbFields(QObject *parent = nullptr);

    QLineEdit *urlEdit() const { return m_url; }
    QLineEdit *passwordEdit() const { return m_password; }
    /// Adds the two rows to `form`.
    void addRows(QFormLayout *form);

    using Resolved = std::function<void(const TeamDbUrl &url, const QByteArray &password, const QString &error)>;
    /// Reads the URL and the password (asynchronously for a keychain entry, never blocking the GUI
    /// thread); `done` is called once, later, unless `context` is gone. Remembers the fields.
    void resolve(SecretStore *secrets, QObject *context, Resolved done);

private:
    QLineEdit *m_url;
    QLineEdit *m_password;
};

} // namespace ServeScope

// SPDX-License-Identifier: MIT
#pragma once

#include "teamdb/teamdburl.h"

#include <QDialog>

class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QThread;

namespace ServeScope {

class SecretStore;
class TeamDbFields;

/// File → Publish run…: publishes one run of the open project to the team database (docs/teamdb.md) on
/// a worker thread and shows the stable id it got.
class PublishRunDialog final : public QDialog {
    Q_OBJECT
public:
    PublishRunDialog(const QString &projectPath, qint64 runId, SecretStore *secrets, QWidget *parent = nullptr);
    ~PublishRunDialog() override;
    /// Closing waits until a publish in progress has ended.
    void reject() override;

    QLineEdit *tagsEdit() const { return m_tags; }
    /// The published run's stable id once it is published (selectable), empty before.
    QLineEdit *idEdit() const { return m_id; }
    QLabel *statusLabel() const { return m_status; }
    TeamDbFields *fields() const { return m_fields; }

Q_SIGNALS:
    /// The run is in the team database (`uid` its stable id).
    void published(const QString &uid);

private:
    void publish();
    void start(const TeamDbUrl &url, const QByteArray &password);

    QString m_project;
    qint64 m_runId;
    SecretStore *m_secrets;
    TeamDbFields *m_fields;
    QLineEdit *m_tags;
    QLineEdit *m_id;
    QLabel *m_status;
    QDialogButtonBox *m_buttons;
    QThread *m_thread = nullptr;
};

} // namespace ServeScope

// SPDX-License-Identifier: MIT
#pragma once

#include "teamdb/teamdbquery.h"

#include <QDialog>

#include <functional>

class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QThread;
class QTreeWidget;

namespace ServeScope {

class SecretStore;
class TeamDbFields;

/// File → Team runs…: lists the runs published to the team database with filters (experiment, model,
/// engine, start dates, tags) and opens one by copying it into the open project (pull, docs/teamdb.md).
/// Every database call runs on a worker thread.
class TeamRunsDialog final : public QDialog {
    Q_OBJECT
public:
    TeamRunsDialog(const QString &projectPath, SecretStore *secrets, QWidget *parent = nullptr);
    ~TeamRunsDialog() override;
    /// Closing waits until a listing or copy in progress has ended.
    void reject() override;

    TeamDbFields *fields() const { return m_fields; }
    QLineEdit *filterEdit(const QString &name) const; ///< "experiment", "model", "engine", "since", "until", "tags"
    QTreeWidget *runsTree() const { return m_runs; }
    QPushButton *refreshButton() const { return m_refresh; }
    QPushButton *openButton() const { return m_open; }
    QLabel *statusLabel() const { return m_status; }

    /// Lists the published runs matching the filters.
    void refresh();
    /// Copies the selected published run into the project.
    void openSelected();

Q_SIGNALS:
    /// The published run is in the project as local run `runId` (copied now or before).
    void opened(qint64 runId);

private:
    bool readFilter(TeamRunFilter *filter);
    void runInThread(std::function<void()> work, std::function<void()> finished);
    void showRuns(const QVector<TeamRunListing> &runs);

    QString m_project;
    SecretStore *m_secrets;
    TeamDbFields *m_fields;
    QList<QLineEdit *> m_filters;
    QTreeWidget *m_runs;
    QLabel *m_status;
    QPushButton *m_refresh;
    QPushButton *m_open;
    QDialogButtonBox *m_buttons;
    QThread *m_thread = nullptr;
};

} // namespace ServeScope

// SPDX-License-Identifier: MIT
#pragma once

#include "teamdb/teamdbquery.h"

#include <QAbstractTableModel>
#include <QDialog>
#include <QList>
#include <QStringList>

class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;

namespace ServeScope {

class SecretStore;
class TeamDbJobs;

/// The published runs a listing returned, one row each; sorts by each column's value (dates and
/// request counts as such). Qt::UserRole holds the run's stable id.
class TeamRunsModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    using QAbstractTableModel::QAbstractTableModel;

    enum Column { Started, Name, Experiment, Model, Engine, Tags, Requests, PublishedBy, Id, ColumnCount };
    static constexpr int SortRole = Qt::UserRole + 1;

    void setRuns(const QVector<TeamRunListing> &runs);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVector<TeamRunListing> m_runs;
};

/// File → Team runs…: the team database's URL and password, published runs listed with filters
/// (experiment, model, engine, start date, tags), and the chosen ones copied into the open project
/// as local runs, to be compared with its own.
class TeamRunsDialog final : public QDialog {
    Q_OBJECT
public:
    TeamRunsDialog(SecretStore *secrets, const QString &projectPath, QWidget *parent = nullptr);

    /// Lists with the current URL and filters (as the List button does).
    void list();
    /// Closing waits for a job in flight.
    void reject() override;

Q_SIGNALS:
    /// Runs copied into the project (local ids, in the order they were chosen).
    void runsPulled(const QList<qint64> &localRunIds);

private:
    bool readUrl(TeamDbUrl *url);
    bool readFilter(TeamRunFilter *filter);
    void askPassword();
    void showRuns(const QVector<TeamRunListing> &runs, const QString &error);
    void pullSelected();
    void pullNext();
    void setBusy(bool busy, const QString &status);

    QString m_project;
    TeamDbJobs *m_jobs;
    QLineEdit *m_url;
    QLineEdit *m_experiment, *m_model, *m_engine, *m_tags, *m_since, *m_until;
    TeamRunsModel *m_runs;
    QTableView *m_table;
    QLabel *m_status;
    QPushButton *m_listButton, *m_openButton, *m_passwordButton;
    QStringList m_toPull; ///< stable ids still to copy
    QList<qint64> m_pulled;
    QStringList m_pullErrors;
};

} // namespace ServeScope

// SPDX-License-Identifier: MIT
#include "teamrunsdialog.h"

#include "teamdbjobs.h"

#include <algorithm>

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTimeZone>
#include <QVBoxLayout>

namespace ServeScope {

namespace {

QLineEdit *filterEdit(const QString &placeholder)
{
    auto *e = new QLineEdit;
    e->setPlaceholderText(placeholder);
    e->setClearButtonEnabled(true);
    return e;
}

} // namespace

void TeamRunsModel::setRuns(const QVector<TeamRunListing> &runs)
{
    beginResetModel();
    m_runs = runs;
    endResetModel();
}

int TeamRunsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_runs.size());
}

int TeamRunsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant TeamRunsModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_runs.size())
        return {};
    const TeamRunListing &r = m_runs[index.row()];
    if (role == Qt::UserRole)
        return r.uid;
    if (role == Qt::ToolTipRole && index.column() == Id)
        return r.uid;
    if (role == Qt::TextAlignmentRole && index.column() == Requests)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == SortRole) {
        if (index.column() == Started)
            return r.started;
        if (index.column() == Requests)
            return r.requests;
        return data(index, Qt::DisplayRole);
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Started:
        return r.started.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm"));
    case Name:
        return r.name;
    case Experiment:
        return r.experiment;
    case Model:
        return r.model;
    case Engine:
        return r.engine;
    case Tags:
        return r.tags.join(QLatin1String(", "));
    case Requests:
        return QString::number(r.requests);
    case PublishedBy:
        return r.publishedBy;
    default:
        return r.uid.left(12);
    }
}

QVariant TeamRunsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    const QStringList titles { TeamRunsDialog::tr("Started (UTC)"), TeamRunsDialog::tr("Name"),
        TeamRunsDialog::tr("Experiment"), TeamRunsDialog::tr("Model"), TeamRunsDialog::tr("Engine"),
        TeamRunsDialog::tr("Tags"), TeamRunsDialog::tr("Requests"), TeamRunsDialog::tr("Published by"),
        TeamRunsDialog::tr("Id") };
    return titles.value(section);
}

TeamRunsDialog::TeamRunsDialog(SecretStore *secrets, const QString &projectPath, QWidget *parent)
    : QDialog(parent)
    , m_project(projectPath)
    , m_jobs(new TeamDbJobs(secrets, this))
    , m_url(new QLineEdit(TeamDbJobs::savedUrl()))
    , m_experiment(filterEdit(tr("any")))
    , m_model(filterEdit(tr("any")))
    , m_engine(filterEdit(tr("any, e.g. vllm")))
    , m_tags(filterEdit(tr("comma-separated, all must match")))
    , m_since(filterEdit(tr("YYYY-MM-DD")))
    , m_until(filterEdit(tr("YYYY-MM-DD")))
    , m_runs(new TeamRunsModel(this))
    , m_table(new QTableView)
    , m_status(new QLabel)
    , m_listButton(new QPushButton(tr("&List")))
    , m_openButton(new QPushButton(tr("&Open in this project")))
    , m_passwordButton(new QPushButton(tr("&Password…")))
{
    setWindowTitle(tr("Team runs"));
    resize(960, 520);
    m_url->setPlaceholderText(QStringLiteral("postgresql://user@host:5432/servescope?sslmode=verify-full"));
    m_url->setToolTip(tr("The team database (PostgreSQL). The password is kept in the OS keychain, never in the URL."));
    auto *db = new QHBoxLayout;
    db->addWidget(new QLabel(tr("Database")));
    db->addWidget(m_url, 1);
    db->addWidget(m_passwordButton);
    auto *filters = new QFormLayout;
    auto *row1 = new QHBoxLayout, *row2 = new QHBoxLayout;
    row1->addWidget(m_experiment, 2);
    row1->addWidget(new QLabel(tr("Model")));
    row1->addWidget(m_model, 2);
    row1->addWidget(new QLabel(tr("Engine")));
    row1->addWidget(m_engine, 1);
    row2->addWidget(m_tags, 2);
    row2->addWidget(new QLabel(tr("Started from")));
    row2->addWidget(m_since, 1);
    row2->addWidget(new QLabel(tr("before")));
    row2->addWidget(m_until, 1);
    filters->addRow(tr("Experiment"), row1);
    filters->addRow(tr("Tags"), row2);
    auto *sorted = new QSortFilterProxyModel(this);
    sorted->setSourceModel(m_runs);
    sorted->setSortRole(TeamRunsModel::SortRole);
    m_table->setModel(sorted);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(TeamRunsModel::Started, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_status->setWordWrap(true);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    buttons->addButton(m_listButton, QDialogButtonBox::ActionRole);
    buttons->addButton(m_openButton, QDialogButtonBox::ActionRole);
    m_listButton->setDefault(true);
    m_openButton->setEnabled(false);
    m_openButton->setToolTip(m_project.isEmpty() ? tr("Save the project first: runs are copied into its file")
                                                 : tr("Copy the selected runs into this project to compare them"));
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(db);
    layout->addLayout(filters);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_status);
    layout->addWidget(buttons);

    connect(buttons, &QDialogButtonBox::rejected, this, &TeamRunsDialog::reject);
    connect(m_listButton, &QPushButton::clicked, this, &TeamRunsDialog::list);
    connect(m_openButton, &QPushButton::clicked, this, &TeamRunsDialog::pullSelected);
    connect(m_passwordButton, &QPushButton::clicked, this, &TeamRunsDialog::askPassword);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        m_openButton->setEnabled(!m_project.isEmpty() && !m_jobs->busy() && m_table->selectionModel()->hasSelection());
    });
    connect(m_table, &QTableView::doubleClicked, this, [this] { pullSelected(); });
    connect(m_jobs, &TeamDbJobs::listed, this, &TeamRunsDialog::showRuns);
    connect(m_jobs, &TeamDbJobs::passwordStored, this, [this](bool ok, const QString &error) {
        setBusy(false,
            ok ? tr("The password is stored in the OS keychain.") : tr("The password was not stored: %1").arg(error));
    });
    connect(m_jobs, &TeamDbJobs::pulled, this, [this](qint64 local, const QString &uid, const QString &error) {
        if (local > 0)
            m_pulled << local;
        else
            m_pullErrors << QStringLiteral("%1: %2").arg(uid.left(12), error);
        pullNext();
    });
    setBusy(false,
        m_url->text().isEmpty() ? tr("Enter the team database's URL and its password, then List.")
                                : tr("List shows the published runs that match the filters."));
}

void TeamRunsDialog::reject()
{
    if (!m_jobs->busy())
        QDialog::reject();
}

void TeamRunsDialog::setBusy(bool busy, const QString &status)
{
    m_listButton->setEnabled(!busy);
    m_passwordButton->setEnabled(!busy);
    m_url->setEnabled(!busy);
    m_openButton->setEnabled(!busy && !m_project.isEmpty() && m_table->selectionModel()->hasSelection());
    m_status->setText(status);
}

bool TeamRunsDialog::readUrl(TeamDbUrl *url)
{
    QString error;
    const std::optional<TeamDbUrl> parsed = TeamDbUrl::parse(m_url->text().trimmed(), &error);
    if (!parsed) {
        setBusy(false, tr("The database URL is not usable: %1").arg(error));
        return false;
    }
    *url = *parsed;
    TeamDbJobs::saveUrl(url->toString());
    return true;
}

bool TeamRunsDialog::readFilter(TeamRunFilter *filter)
{
    filter->experiment = m_experiment->text().trimmed();
    filter->model = m_model->text().trimmed();
    filter->engine = m_engine->text().trimmed();
    for (const QString &t : m_tags->text().split(QLatin1Char(','), Qt::SkipEmptyParts))
        filter->tags << t.trimmed();
    const auto day = [this](QLineEdit *edit, QDateTime *out) {
        if (edit->text().trimmed().isEmpty())
            return true;
        const QDate d = QDate::fromString(edit->text().trimmed(), Qt::ISODate);
        if (!d.isValid()) {
            setBusy(false, tr("Dates are written YYYY-MM-DD, not \"%1\".").arg(edit->text().trimmed()));
            return false;
        }
        *out = d.startOfDay(QTimeZone::utc());
        return true;
    };
    return day(m_since, &filter->since) && day(m_until, &filter->until);
}

void TeamRunsDialog::askPassword()
{
    TeamDbUrl url;
    if (!readUrl(&url))
        return;
    // open(), not exec(): no nested event loop on the GUI thread.
    auto *ask = new QInputDialog(this);
    ask->setAttribute(Qt::WA_DeleteOnClose);
    ask->setWindowTitle(tr("Team database password"));
    ask->setLabelText(tr("Password of %1 (kept in the OS keychain):").arg(url.user + u'@' + url.host));
    ask->setTextEchoMode(QLineEdit::Password);
    connect(ask, &QInputDialog::textValueSelected, this, [this, url](const QString &password) {
        if (password.isEmpty())
            return;
        setBusy(true, tr("Storing the password…"));
        m_jobs->storePassword(url, password.toUtf8());
    });
    ask->open();
}

void TeamRunsDialog::list()
{
    TeamDbUrl url;
    TeamRunFilter filter;
    if (m_jobs->busy() || !readUrl(&url) || !readFilter(&filter))
        return;
    setBusy(true, tr("Listing the published runs of %1…").arg(url.toString()));
    m_jobs->list(url, filter);
}

void TeamRunsDialog::showRuns(const QVector<TeamRunListing> &runs, const QString &error)
{
    m_runs->setRuns(error.isEmpty() ? runs : QVector<TeamRunListing> {});
    if (!error.isEmpty()) {
        setBusy(false, tr("The team database could not be read: %1").arg(error));
        return;
    }
    m_table->resizeColumnsToContents();
    setBusy(false,
        runs.isEmpty()
            ? tr("No published run matches these filters.")
            : tr("%n published run(s). Select and Open to copy them into this project.", nullptr, int(runs.size())));
}

void TeamRunsDialog::pullSelected()
{
    if (m_jobs->busy() || m_project.isEmpty())
        return;
    m_toPull.clear();
    m_pulled.clear();
    m_pullErrors.clear();
    // In the order shown.
    QModelIndexList rows = m_table->selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(), [](const QModelIndex &a, const QModelIndex &b) { return a.row() < b.row(); });
    for (const QModelIndex &row : std::as_const(rows))
        m_toPull << row.data(Qt::UserRole).toString();
    pullNext();
}

void TeamRunsDialog::pullNext()
{
    TeamDbUrl url;
    if (!m_toPull.isEmpty() && readUrl(&url)) {
        const QString uid = m_toPull.takeFirst();
        setBusy(true, tr("Copying run %1 into the project…").arg(uid.left(12)));
        m_jobs->pull(url, uid, m_project);
        return;
    }
    QString status = tr("%n run(s) copied into the project.", nullptr, int(m_pulled.size()));
    if (!m_pullErrors.isEmpty())
        status += u' ' + tr("Not copied: %1").arg(m_pullErrors.join(QLatin1String("; ")));
    setBusy(false, status);
    if (!m_pulled.isEmpty())
        emit runsPulled(m_pulled);
}

} // namespace ServeScope

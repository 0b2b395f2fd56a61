// SPDX-License-Identifier: MIT
#include "teamrunsdialog.h"

#include "teamdbfields.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QThread>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <memory>

namespace ServeScope {

namespace {
const char *const kFilters[] = { "experiment", "model", "engine", "since", "until", "tags" };
}

TeamRunsDialog::TeamRunsDialog(const QString &projectPath, SecretStore *secrets, QWidget *parent)
    : QDialog(parent)
    , m_project(projectPath)
    , m_secrets(secrets)
    , m_fields(new TeamDbFields(this))
    , m_runs(new QTreeWidget)
    , m_status(new QLabel)
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Close))
{
    setWindowTitle(tr("Team runs"));
    auto *form = new QFormLayout;
    m_fields->addRows(form);
    const QStringList labels = { tr("Experiment:"), tr("Model:"), tr("Engine:"), tr("Started on or after:"),
        tr("Started on or before:"), tr("Tags (all of):") };
    for (int i = 0; i < labels.size(); ++i) {
        auto *edit = new QLineEdit;
        edit->setObjectName(QLatin1String(kFilters[i]));
        if (i == 3 || i == 4)
            edit->setPlaceholderText(tr("YYYY-MM-DD (UTC)"));
        form->addRow(labels.at(i), edit);
        m_filters << edit;
    }
    m_runs->setHeaderLabels({ tr("Name"), tr("Started (UTC)"), tr("Experiment"), tr("Model"), tr("Engine"), tr("Tags"),
        tr("Requests"), tr("Published by"), tr("Id") });
    m_runs->setRootIsDecorated(false);
    m_runs->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_status->setWordWrap(true);
    m_refresh = m_buttons->addButton(tr("&List"), QDialogButtonBox::ActionRole);
    m_open = m_buttons->addButton(tr("&Open in project"), QDialogButtonBox::ActionRole);
    m_open->setEnabled(false);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_runs, 1);
    layout->addWidget(m_status);
    layout->addWidget(m_buttons);
    connect(m_refresh, &QPushButton::clicked, this, &TeamRunsDialog::refresh);
    connect(m_open, &QPushButton::clicked, this, &TeamRunsDialog::openSelected);
    connect(m_runs, &QTreeWidget::itemSelectionChanged, this,
        [this] { m_open->setEnabled(!m_thread && !m_runs->selectedItems().isEmpty()); });
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    resize(900, 560);
}

TeamRunsDialog::~TeamRunsDialog()
{
    if (m_thread) {
        m_thread->wait();
        delete m_thread;
    }
}

void TeamRunsDialog::reject()
{
    if (!m_thread)
        QDialog::reject();
}

QLineEdit *TeamRunsDialog::filterEdit(const QString &name) const
{
    for (QLineEdit *e : m_filters) {
        if (e->objectName() == name)
            return e;
    }
    return nullptr;
}

bool TeamRunsDialog::readFilter(TeamRunFilter *filter)
{
    filter->experiment = m_filters.at(0)->text().trimmed();
    filter->model = m_filters.at(1)->text().trimmed();
    filter->engine = m_filters.at(2)->text().trimmed();
    for (int i : { 3, 4 }) {
        const QString text = m_filters.at(i)->text().trimmed();
        if (text.isEmpty())
            continue;
        const QDate day = QDate::fromString(text, Qt::ISODate);
        if (!day.isValid()) {
            m_status->setText(tr("A date is YYYY-MM-DD."));
            return false;
        }
        // As `runs --since/--until`: the end date is included whole.
        (i == 3 ? filter->since : filter->until) = QDateTime(i == 3 ? day : day.addDays(1), QTime(0, 0), Qt::UTC);
    }
    filter->tags = m_filters.at(5)->text().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    return true;
}

void TeamRunsDialog::runInThread(std::function<void()> work, std::function<void()> finished)
{
    m_refresh->setEnabled(false);
    m_open->setEnabled(false);
    m_thread = QThread::create(std::move(work));
    connect(m_thread, &QThread::finished, this, [this, finished = std::move(finished)] {
        m_thread->deleteLater();
        m_thread = nullptr;
        m_refresh->setEnabled(true);
        m_open->setEnabled(!m_runs->selectedItems().isEmpty());
        finished();
    });
    m_thread->start();
}

void TeamRunsDialog::refresh()
{
    TeamRunFilter filter;
    if (m_thread || !readFilter(&filter))
        return;
    m_status->setText(tr("Listing…"));
    m_fields->resolve(m_secrets, this, [this, filter](const TeamDbUrl &url, const QByteArray &pw, const QString &e) {
        if (!e.isEmpty()) {
            m_status->setText(tr("Cannot list: %1").arg(e));
            return;
        }
        auto runs = std::make_shared<QVector<TeamRunListing>>();
        auto error = std::make_shared<QString>();
        runInThread([url, pw, filter, runs, error] { listTeamRuns(url, pw, filter, runs.get(), error.get()); },
            [this, runs, error] {
                if (!error->isEmpty()) {
                    m_status->setText(tr("Cannot list: %1").arg(*error));
                    return;
                }
                showRuns(*runs);
            });
    });
}

void TeamRunsDialog::showRuns(const QVector<TeamRunListing> &runs)
{
    m_runs->clear();
    for (const TeamRunListing &r : runs) {
        auto *item = new QTreeWidgetItem(m_runs,
            { r.name, r.started.toString(Qt::ISODate), r.experiment, r.model, r.engine, r.tags.join(QLatin1Char(' ')),
                QString::number(r.requests), r.publishedBy, r.uid });
        item->setData(0, Qt::UserRole, r.uid);
    }
    m_status->setText(tr("%n published run(s).", nullptr, int(runs.size())));
}

void TeamRunsDialog::openSelected()
{
    const QList<QTreeWidgetItem *> selected = m_runs->selectedItems();
    if (m_thread || selected.isEmpty())
        return;
    const QString uid = selected.first()->data(0, Qt::UserRole).toString();
    m_status->setText(tr("Copying the run into the project…"));
    m_fields->resolve(m_secrets, this, [this, uid](const TeamDbUrl &url, const QByteArray &pw, const QString &e) {
        if (!e.isEmpty()) {
            m_status->setText(tr("Cannot open: %1").arg(e));
            return;
        }
        auto id = std::make_shared<qint64>(0);
        auto error = std::make_shared<QString>();
        runInThread(
            [project = m_project, url, pw, uid, id, error] {
                RunBundle bundle;
                QString full;
                bool unknown = false;
                if (!fetchTeamRun(url, pw, uid, &bundle, &full, &unknown, error.get()))
                    return;
                *id = findLocalRun(project, full, error.get());
                if (*id == 0)
                    *id = writeRunBundle(project, bundle, error.get());
            },
            [this, id, error] {
                if (*id <= 0) {
                    m_status->setText(tr("Cannot open: %1").arg(*error));
                    return;
                }
                m_status->setText(tr("The run is in the project as run %1.").arg(*id));
                emit opened(*id);
            });
    });
}

} // namespace ServeScope

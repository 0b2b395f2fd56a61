// SPDX-License-Identifier: MIT
#include "projecttree.h"
#include "origintext.h"

#include "model/runorigin.h"
#include <QContextMenuEvent>
#include <QHeaderView>
#include <QMenu>
#include <QTreeWidgetItemIterator>

#include <algorithm>

namespace ServeScope {

enum Role { KindRole = Qt::UserRole + 1, IdRole };
enum Kind { ExperimentItem = 1, VariantItem, RunItem, RunsFolder };

ProjectTree::ProjectTree(QWidget *parent)
    : QTreeWidget(parent)
{
    setObjectName(QStringLiteral("projectTree"));
    setHeaderHidden(true);
    setColumnCount(1);
    // Ctrl- or Shift-click a second run to compare runs, of any experiment and any day.
    setSelectionMode(QAbstractItemView::ExtendedSelection);
    connect(this, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem *item) {
        if (!item)
            return;
        switch (item->data(0, KindRole).toInt()) {
        case ExperimentItem:
            emit experimentActivated();
            break;
        case VariantItem:
            emit variantActivated(item->data(0, IdRole).toInt());
            break;
        default:
            break;
        }
    });
    connect(this, &QTreeWidget::itemSelectionChanged, this, [this] {
        const QList<qint64> ids = selectedRuns();
        if (!ids.isEmpty())
            emit runsSelected(ids);
    });
}

QList<qint64> ProjectTree::selectedRuns() const
{
    QList<qint64> ids;
    for (const QTreeWidgetItem *item : selectedItems()) {
        if (item->data(0, KindRole).toInt() == RunItem)
            ids << item->data(0, IdRole).toLongLong();
    }
    std::sort(ids.begin(), ids.end());
    return ids;
}

void ProjectTree::selectRuns(const QList<qint64> &ids, bool announce)
{
    {
        const QSignalBlocker block(this);
        clearSelection();
        for (QTreeWidgetItemIterator it(this); *it; ++it) {
            if ((*it)->data(0, KindRole).toInt() == RunItem && ids.contains((*it)->data(0, IdRole).toLongLong()))
                (*it)->setSelected(true);
        }
    }
    if (announce)
        emit runsSelected(selectedRuns());
}

void ProjectTree::contextMenuEvent(QContextMenuEvent *event)
{
    QTreeWidgetItem *item = itemAt(event->pos());
    if (!item || item->data(0, KindRole).toInt() != RunItem)
        return;
    const qint64 id = item->data(0, IdRole).toLongLong();
    auto *menu = new QMenu(this);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->addAction(tr("Rerun to check"), this, [this, id] { emit rerunRequested(id); })
        ->setToolTip(tr("Run this run's configuration again and check that the two agree within 5%"));
    menu->addAction(tr("Publish to team database…"), this, [this, id] { emit publishRequested(id); })
        ->setToolTip(tr("Copy this run, with every request, into the team database of File → Team runs"));
    QMenu *with = menu->addMenu(tr("Compare with"));
    with->setEnabled(m_runs.size() > 1);
    for (auto it = m_runs.crbegin(); it != m_runs.crend(); ++it) {
        if (it->run.id == id)
            continue;
        const qint64 other = it->run.id;
        with->addAction(runText(*it), this, [this, id, other] { selectRuns({ id, other }); })->setToolTip(it->run.name);
    }
    menu->popup(event->globalPos());
}

void ProjectTree::setExperiment(const Experiment &experiment)
{
    if (experiment.name == m_experiment.name && experiment.variants == m_experiment.variants)
        return;
    m_experiment = experiment;
    rebuild();
}

void ProjectTree::setRuns(const QVector<RunListing> &runs)
{
    m_runs = runs;
    rebuild();
}

QString ProjectTree::runText(const RunListing &r) const
{
    QString status;
    switch (r.run.status) {
    case RunStatus::Running:
        status = tr("running");
        break;
    case RunStatus::Finished:
        status = tr("finished");
        break;
    case RunStatus::Cancelled:
        status = tr("cancelled");
        break;
    case RunStatus::Failed:
        status = tr("failed");
        break;
    case RunStatus::Interrupted:
        status = tr("interrupted");
        break;
    }
    // An imported run says so where a measured one says it finished.
    const RunOrigin origin = RunOrigin::fromJson(r.run.origin);
    if (origin.isImported() && r.run.status == RunStatus::Finished)
        status = tr("imported (%1)").arg(origin.format);
    // The model beside the status: runs of different models are told apart before they are compared.
    const QString what = r.model.isEmpty() ? status : QStringLiteral("%1 · %2").arg(status, r.model);
    return tr("#%1 %2 · %3 · %4 requests")
        .arg(r.run.id)
        .arg(r.run.started.toLocalTime().toString(QStringLiteral("MM-dd HH:mm")), what)
        .arg(r.completed + r.failed);
}

void ProjectTree::rebuild()
{
    const QSignalBlocker block(this);
    // A listing that arrives while runs are selected (another process stored a run) keeps them selected.
    const QList<qint64> selected = selectedRuns();
    clear();
    if (m_experiment.name.isEmpty() && m_experiment.variants.isEmpty() && m_runs.isEmpty())
        return;
    auto *exp
        = new QTreeWidgetItem(this, { m_experiment.name.isEmpty() ? tr("Untitled experiment") : m_experiment.name });
    exp->setData(0, KindRole, ExperimentItem);
    exp->setIcon(0, style()->standardIcon(QStyle::SP_FileDialogDetailedView));
    const int baseline = m_experiment.baselineIndex();
    for (int i = 0; i < m_experiment.variants.size(); ++i) {
        const QString name = m_experiment.variants.at(i).name;
        auto *v = new QTreeWidgetItem(exp, { i == baseline ? tr("%1 (baseline)").arg(name) : name });
        v->setData(0, KindRole, VariantItem);
        v->setData(0, IdRole, i);
    }
    auto *runs = new QTreeWidgetItem(exp, { tr("Runs (%1)").arg(m_runs.size()) });
    runs->setData(0, KindRole, RunsFolder);
    runs->setIcon(0, style()->standardIcon(QStyle::SP_DirIcon));
    for (auto it = m_runs.crbegin(); it != m_runs.crend(); ++it) {
        auto *r = new QTreeWidgetItem(runs, { runText(*it) });
        r->setData(0, KindRole, RunItem);
        r->setData(0, IdRole, it->run.id);
        const RunOrigin origin = RunOrigin::fromJson(it->run.origin);
        QString tip = it->run.name;
        if (origin.isImported())
            tip += u'\n' + importedFromText(origin);
        r->setData(0, Qt::ToolTipRole, tip);
        r->setSelected(selected.contains(it->run.id));
    }
    expandAll();
}

} // namespace ServeScope

// SPDX-License-Identifier: MIT
#include "projecttree.h"

#include <QHeaderView>

namespace ServeScope {

enum Role { KindRole = Qt::UserRole + 1, IdRole };
enum Kind { ExperimentItem = 1, VariantItem, RunItem, RunsFolder };

ProjectTree::ProjectTree(QWidget *parent)
    : QTreeWidget(parent)
{
    setObjectName(QStringLiteral("projectTree"));
    setHeaderHidden(true);
    setColumnCount(1);
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
        case RunItem:
            emit runActivated(item->data(0, IdRole).toLongLong(), item->data(0, Qt::ToolTipRole).toString());
            break;
        default:
            break;
        }
    });
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
    }
    return tr("#%1 %2 · %3 · %4 requests")
        .arg(r.run.id)
        .arg(r.run.started.toLocalTime().toString(QStringLiteral("MM-dd HH:mm")), status)
        .arg(r.completed + r.failed);
}

void ProjectTree::rebuild()
{
    const QSignalBlocker block(this);
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
        r->setData(0, Qt::ToolTipRole, it->run.name);
    }
    expandAll();
}

} // namespace ServeScope

// SPDX-License-Identifier: MIT
#include "headlinepanel.h"

#include "report/conclusiontext.h"
#include "report/metricnames.h"
#include "report/reportdocument.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QHeaderView>

namespace ServeScope {

void HeadlineModel::setSections(const QList<DeltaSection> &sections, const QStringList &runs)
{
    beginResetModel();
    m_rows.clear();
    for (qsizetype k = 0; k < sections.size(); ++k) {
        QString shownSide;
        for (const DeltaRow &r : Report::headlineRows(sections[k])) {
            const QString side = runs.size() > k + 1
                ? QStringLiteral("%1 · %2 · %3").arg(runs.at(k + 1), r.variant, r.label)
                : QStringLiteral("%1 · %2").arg(r.variant, r.label);
            if (side != shownSide) {
                shownSide = side;
                m_rows.append({ side, true, {} });
            }
            m_rows.append({ side, false, r });
        }
    }
    endResetModel();
}

bool HeadlineModel::isHeading(int row) const
{
    return m_rows.value(row).heading;
}

int HeadlineModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int HeadlineModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString HeadlineModel::cellText(const Row &row, int column) const
{
    if (row.heading)
        return column == MetricColumn ? row.side : QString();
    switch (column) {
    case MetricColumn:
        return MetricName::of(row.delta.metric).title();
    case ChangeColumn:
        return Report::changeText(row.delta);
    default:
        return Report::verdictText(row.delta);
    }
}

QVariant HeadlineModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const Row &row = m_rows[index.row()];
    switch (role) {
    case Qt::DisplayRole:
        return cellText(row, index.column());
    case SideRole:
        return row.side;
    case Qt::FontRole:
        if (row.heading) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        return {};
    case Qt::TextAlignmentRole:
        return index.column() == ChangeColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    case Qt::BackgroundRole: {
        const QColor bg = row.heading ? QColor() : Report::verdictColour(row.delta.verdict);
        return bg.isValid() ? QVariant(bg) : QVariant();
    }
    case VerdictRole:
        return row.heading ? QVariant() : QVariant(int(row.delta.verdict));
    case Qt::ToolTipRole: {
        if (row.heading)
            return row.side;
        const MetricName name = MetricName::of(row.delta.metric);
        return QString(HeadlinePanel::tr("%1, %2: A %3, B %4 %5")
                           .arg(row.side, name.title(), name.format(row.delta.a.repeats.median),
                               name.format(row.delta.b.repeats.median), name.unit)
            + u'\n' + Report::verdictText(row.delta));
    }
    default:
        return {};
    }
}

QVariant HeadlineModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case MetricColumn:
        return HeadlinePanel::tr("Metric");
    case ChangeColumn:
        return HeadlinePanel::tr("Change");
    default:
        return HeadlinePanel::tr("Verdict");
    }
}

QString HeadlineModel::text() const
{
    QStringList lines;
    QStringList head;
    for (int c = 0; c < ColumnCount; ++c)
        head << headerData(c, Qt::Horizontal).toString();
    lines << head.join(u'\t');
    for (const Row &row : m_rows) {
        QStringList cells;
        for (int c = 0; c < ColumnCount; ++c)
            cells << cellText(row, c);
        lines << (row.heading ? row.side : cells.join(u'\t'));
    }
    return lines.join(u'\n') + u'\n';
}

HeadlinePanel::HeadlinePanel(QWidget *parent)
    : QTableView(parent)
    , m_model(new HeadlineModel(this))
{
    setObjectName(QStringLiteral("headlinePanel"));
    setModel(m_model);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    verticalHeader()->hide();
    // The verdict takes what the other columns leave and wraps there, never cut short: at 1024 px or
    // scaled 1.25× it stays in view, whole, without a horizontal scroll bar (and whole in the tooltip).
    setWordWrap(true);
    horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    horizontalHeader()->setSectionResizeMode(HeadlineModel::VerdictColumn, QHeaderView::Stretch);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    verticalHeader()->setMinimumSectionSize(fontMetrics().height() + 6);
    verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    auto *copy = new QAction(tr("Copy table"), this);
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetShortcut);
    connect(copy, &QAction::triggered, this, [this] { QApplication::clipboard()->setText(m_model->text()); });
    addAction(copy);
    setContextMenuPolicy(Qt::ActionsContextMenu);
}

void HeadlinePanel::setSections(const QList<DeltaSection> &sections, const QStringList &runs)
{
    clearSpans();
    m_model->setSections(sections, runs);
    for (int row = 0; row < m_model->rowCount(); ++row) {
        if (m_model->isHeading(row))
            setSpan(row, HeadlineModel::MetricColumn, 1, HeadlineModel::ColumnCount);
    }
    setVisible(m_model->rowCount() > 0);
}

} // namespace ServeScope

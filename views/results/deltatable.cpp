// SPDX-License-Identifier: MIT
#include "deltatable.h"

#include "report/conclusiontext.h"
#include "report/metricnames.h"
#include "report/reportdocument.h"

#include <cmath>

namespace ServeScope {

DeltaTableModel::DeltaTableModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void DeltaTableModel::setSections(const QList<DeltaSection> &sections, const QStringList &runs)
{
    beginResetModel();
    m_rows.clear();
    for (qsizetype k = 0; k < sections.size(); ++k) {
        // Compared runs are known by their letters and numbers (legend, footer, project panel); one run's
        // variants by name.
        const QString comparison
            = runs.size() > k + 1 ? tr("%1 vs %2").arg(runs.at(k + 1), runs.at(0)) : sections[k].title;
        // Decided rows first, more failures before any other change, each group in core's order.
        const auto group = [](const DeltaRow &r) {
            return !r.decided() ? 2 : r.reason == QLatin1String("failures-rose") ? 0 : 1;
        };
        for (int g : { 0, 1, 2 }) {
            for (const DeltaRow &r : sections[k].rows) {
                if (group(r) == g)
                    m_rows.append({ comparison, r });
            }
        }
    }
    endResetModel();
}

int DeltaTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int DeltaTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant DeltaTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (Column(section)) {
    case Comparison:
        return tr("Comparison");
    case Variant:
        return tr("Variant");
    case Point:
        return tr("Point");
    case Metric:
        return tr("Metric");
    case A:
        return tr("A");
    case B:
        return tr("B");
    case Change:
        return tr("Change");
    case ChangePercent:
        return tr("Change (%)");
    case VerdictColumn:
        return tr("Verdict");
    case ColumnCount:
        break;
    }
    return {};
}

QVariant DeltaTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const Row &row = m_rows.at(index.row());
    const DeltaRow &r = row.delta;
    const MetricName name = MetricName::of(r.metric);
    const auto column = Column(index.column());
    const double relative = std::isnan(r.relative) ? 0 : r.relative;
    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case Comparison:
            return row.comparison;
        case Variant:
            return r.variant;
        case Point:
            return r.label;
        case Metric:
            return name.title();
        case A:
            return name.format(r.a.repeats.median);
        case B:
            return name.format(r.b.repeats.median);
        case Change:
            return r.blank() ? QStringLiteral("—") : name.formatChange(r.change);
        case ChangePercent:
            return r.blank() ? QStringLiteral("—") : MetricName::formatPercent(r.relative);
        case VerdictColumn:
            return Report::verdictText(r);
        case ColumnCount:
            break;
        }
        return {};
    case SortRole:
        switch (column) {
        case A:
            return r.a.repeats.median;
        case B:
            return r.b.repeats.median;
        case Change:
            return r.change;
        case ChangePercent:
            return relative;
        default:
            return data(index, Qt::DisplayRole);
        }
    case FamilyRole:
        return int(name.family);
    case VerdictRole:
        return int(r.verdict);
    case Qt::TextAlignmentRole:
        return column >= A && column <= ChangePercent ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    case Qt::BackgroundRole:
        if (const QColor bg = Report::verdictColour(r.verdict); bg.isValid())
            return bg;
        return {};
    case Qt::ToolTipRole:
        if (column == Metric)
            return r.metric; // the key as the CLI and CSV name it
        if (r.a.ci.valid && r.b.ci.valid)
            return tr("95% intervals: A [%1, %2], B [%3, %4]")
                .arg(name.format(r.a.ci.low), name.format(r.a.ci.high), name.format(r.b.ci.low),
                    name.format(r.b.ci.high));
        return {};
    default:
        return {};
    }
}

DeltaTableFilter::DeltaTableFilter(QObject *parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(DeltaTableModel::SortRole);
}

void DeltaTableFilter::setFilter(int family, bool decidedOnly)
{
    m_family = family;
    m_decidedOnly = decidedOnly;
    invalidateRowsFilter();
}

bool DeltaTableFilter::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const QModelIndex index = sourceModel()->index(sourceRow, 0, sourceParent);
    const auto verdict = Verdict(index.data(DeltaTableModel::VerdictRole).toInt());
    return (m_family < 0 || index.data(DeltaTableModel::FamilyRole).toInt() == m_family)
        && (!m_decidedOnly || verdict == Verdict::Better || verdict == Verdict::Worse);
}

QString DeltaTableFilter::foldedRows() const
{
    int noise = 0, undecided = 0;
    for (int row = 0; m_decidedOnly && row < sourceModel()->rowCount(); ++row) {
        const auto verdict = Verdict(sourceModel()->index(row, 0).data(DeltaTableModel::VerdictRole).toInt());
        noise += verdict == Verdict::Noise;
        undecided += verdict == Verdict::Undecided || verdict == Verdict::NotComparable;
    }
    return Report::foldedRows(noise, undecided);
}

QString DeltaTableFilter::shownText() const
{
    QStringList lines;
    QStringList cells;
    for (int c = 0; c < columnCount(); ++c)
        cells << headerData(c, Qt::Horizontal).toString();
    lines << cells.join(u'\t');
    for (int r = 0; r < rowCount(); ++r) {
        cells.clear();
        for (int c = 0; c < columnCount(); ++c)
            cells << index(r, c).data().toString();
        lines << cells.join(u'\t');
    }
    return lines.join(u'\n') + u'\n';
}

} // namespace ServeScope

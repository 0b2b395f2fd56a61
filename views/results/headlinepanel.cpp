// SPDX-License-Identifier: MIT
#include "headlinepanel.h"

#include "report/metricnames.h"
#include "report/reportdocument.h"

#include <QHeaderView>

namespace ServeScope {

HeadlinePanel::HeadlinePanel(QWidget *parent)
    : QTableWidget(parent)
{
    setObjectName(QStringLiteral("headlinePanel"));
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    verticalHeader()->hide();
    setWordWrap(false);
    setColumnCount(3);
    setHorizontalHeaderLabels({ tr("Metric"), tr("Change"), tr("Verdict") });
    // The verdict takes what the other columns leave, elided (whole in the tooltip): at 1024 px or
    // scaled 1.25× it stays in view without a horizontal scroll bar.
    horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    horizontalHeader()->setSectionResizeMode(VerdictColumn, QHeaderView::Stretch);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setTextElideMode(Qt::ElideRight);
    verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
}

void HeadlinePanel::setSections(const QList<DeltaSection> &sections, bool lettered)
{
    clearSpans();
    setRowCount(0);
    for (qsizetype k = 0; k < sections.size(); ++k) {
        QString shownSide;
        for (const DeltaRow &r : Report::headlineRows(sections[k])) {
            // Each compared side and point heads its rows, across the panel.
            const QString side = lettered
                ? QStringLiteral("%1 · %2 · %3").arg(QChar(char16_t(u'B' + k))).arg(r.variant, r.label)
                : QStringLiteral("%1 · %2").arg(r.variant, r.label);
            if (side != shownSide) {
                shownSide = side;
                const int row = rowCount();
                insertRow(row);
                auto *head = new QTableWidgetItem(side);
                QFont bold = head->font();
                bold.setBold(true);
                head->setFont(bold);
                head->setData(SideRole, side);
                setItem(row, MetricColumn, head);
                setSpan(row, MetricColumn, 1, columnCount());
            }
            const MetricName name = MetricName::of(r.metric);
            const int row = rowCount();
            insertRow(row);
            const QList<QTableWidgetItem *> items { new QTableWidgetItem(name.title()),
                new QTableWidgetItem(Report::changeText(r)), new QTableWidgetItem(Report::verdictText(r)) };
            items[ChangeColumn]->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            const QString tip = tr("%1, %2: A %3, B %4 %5")
                                    .arg(side, name.title(), name.format(r.a.repeats.median),
                                        name.format(r.b.repeats.median), name.unit);
            const QColor bg = Report::verdictColour(r.verdict);
            for (int c = 0; c < items.size(); ++c) {
                if (bg.isValid())
                    items[c]->setBackground(bg);
                items[c]->setData(Qt::UserRole, int(r.verdict));
                items[c]->setData(SideRole, side);
                items[c]->setToolTip(tip + u'\n' + Report::verdictText(r));
                setItem(row, c, items[c]);
            }
        }
    }
    setVisible(rowCount() > 0);
}

} // namespace ServeScope

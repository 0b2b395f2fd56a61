// SPDX-License-Identifier: MIT
#include "headlinepanel.h"

#include "metricnames.h"
#include "report/reportdocument.h"

#include <QHeaderView>

#include <cmath>

namespace ServeScope {

QColor HeadlinePanel::verdictColour(Verdict v)
{
    switch (v) {
    case Verdict::Better:
        return QColor(0xd8, 0xf0, 0xdc);
    case Verdict::Worse:
        return QColor(0xf8, 0xd7, 0xda);
    case Verdict::Noise:
        return QColor(0xee, 0xee, 0xee);
    case Verdict::Undecided:
        break;
    }
    return QColor();
}

HeadlinePanel::HeadlinePanel(QWidget *parent)
    : QTableWidget(parent)
{
    setObjectName(QStringLiteral("headlinePanel"));
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    verticalHeader()->hide();
    setWordWrap(false);
    setColumnCount(4);
    setHorizontalHeaderLabels({ tr("Compared"), tr("Metric"), tr("Change"), tr("Verdict") });
    horizontalHeader()->setStretchLastSection(true);
}

const QStringList &HeadlinePanel::headlineKeys()
{
    static const QStringList keys { QStringLiteral("output_throughput"), QStringLiteral("median_ttft_ms"),
        QStringLiteral("p90_ttft_ms"), QStringLiteral("median_tpot_ms"), QStringLiteral("p90_tpot_ms"),
        QStringLiteral("p90_e2el_ms"), QStringLiteral("success_rate") };
    return keys;
}

void HeadlinePanel::setSections(const QList<DeltaSection> &sections, bool lettered)
{
    setRowCount(0);
    for (qsizetype k = 0; k < sections.size(); ++k) {
        const DeltaSection &s = sections[k];
        // Point by point, the headline metrics in a fixed order.
        QStringList points;
        for (const DeltaRow &r : s.rows) {
            const QString where = r.variant + u'\n' + r.label;
            if (!points.contains(where))
                points << where;
        }
        for (const QString &where : std::as_const(points)) {
            for (const QString &key : headlineKeys()) {
                for (const DeltaRow &r : s.rows) {
                    if (r.metric != key || r.variant + u'\n' + r.label != where)
                        continue;
                    const MetricName name = MetricName::of(r.metric);
                    const QString side = lettered
                        ? QStringLiteral("%1 · %2 · %3").arg(QChar(char16_t(u'B' + k))).arg(r.variant, r.label)
                        : QStringLiteral("%1 · %2").arg(r.variant, r.label);
                    const int row = rowCount();
                    insertRow(row);
                    const QString change = MetricName::formatPercent(r.relative);
                    const QList<QTableWidgetItem *> items { new QTableWidgetItem(side),
                        new QTableWidgetItem(name.title()),
                        new QTableWidgetItem(change.isEmpty() ? name.formatChange(r.change) : change + u'%'),
                        new QTableWidgetItem(Report::verdictText(r)) };
                    items[2]->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
                    const QString tip = tr("%1: A %2, B %3 %4")
                                            .arg(name.title(), name.format(r.a.repeats.median),
                                                name.format(r.b.repeats.median), name.unit);
                    for (int c = 0; c < items.size(); ++c) {
                        if (verdictColour(r.verdict).isValid())
                            items[c]->setBackground(verdictColour(r.verdict));
                        items[c]->setData(Qt::UserRole, int(r.verdict));
                        items[c]->setToolTip(tip);
                        setItem(row, c, items[c]);
                    }
                }
            }
        }
    }
    resizeColumnsToContents();
    setVisible(rowCount() > 0);
}

} // namespace ServeScope

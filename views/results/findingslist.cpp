// SPDX-License-Identifier: MIT
#include "findingslist.h"

#include "report/findingtext.h"
#include "report/reportdocument.h"

namespace ServeScope {

FindingsList::FindingsList(QWidget *parent)
    : QListWidget(parent)
{
    setObjectName(QStringLiteral("findingList"));
    setWordWrap(true);
}

int FindingsList::showFindings(const Report::ReportInput &input)
{
    clear();
    const bool several = input.runs.size() > 1;
    for (qsizetype r = 0; r < input.runs.size(); ++r) {
        for (const RunFinding &f : input.runs[r].findings) {
            QString who = several ? QString(QChar(char16_t(u'A' + r))) + QStringLiteral(" · ") : QString();
            if (!f.variant.isEmpty())
                who += f.variant + QStringLiteral(" · ");
            auto *item = new QListWidgetItem(
                QStringLiteral("%1%2: %3").arg(who, Report::findingTitle(f), Report::findingText(f)), this);
            item->setToolTip(findingLine(f));
            item->setData(Qt::UserRole, f.code);
            if (f.kind == RunFinding::Kind::Problem)
                item->setForeground(QColor(176, 0, 32));
            else if (f.kind == RunFinding::Kind::Caveat)
                item->setForeground(QColor(0x99, 0x55, 0x00));
        }
    }
    const int found = count();
    if (found == 0 && !input.runs.isEmpty())
        new QListWidgetItem(tr("No findings for the shown runs: they need a curve of two or more loads."), this);
    return found;
}

} // namespace ServeScope

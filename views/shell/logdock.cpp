// SPDX-License-Identifier: MIT
#include "logdock.h"

#include "report/findingtext.h"
#include "report/reportdocument.h"

#include <QApplication>
#include <QDateTime>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QStyle>
#include <QTabWidget>
#include <QVBoxLayout>

namespace ServeScope {

LogDock::LogDock(QWidget *parent)
    : QDockWidget(tr("Log and findings"), parent)
    , m_log(new QPlainTextEdit)
    , m_problems(new QListWidget)
    , m_findings(new QListWidget)
    , m_serverLogFilter(new QLineEdit)
    , m_serverLog(new QPlainTextEdit)
{
    setObjectName(QStringLiteral("logDock"));
    auto *tabs = new QTabWidget;
    m_log->setReadOnly(true);
    m_log->setObjectName(QStringLiteral("logView"));
    m_log->setMaximumBlockCount(5000);
    m_problems->setObjectName(QStringLiteral("problemList"));
    tabs->addTab(m_problems, tr("Problems"));
    m_findings->setObjectName(QStringLiteral("findingList"));
    m_findings->setWordWrap(true);
    tabs->addTab(m_findings, tr("Findings"));
    auto *serverLogPage = new QWidget;
    auto *serverLogLayout = new QVBoxLayout(serverLogPage);
    serverLogLayout->setContentsMargins(0, 0, 0, 0);
    m_serverLogFilter->setObjectName(QStringLiteral("serverLogFilter"));
    m_serverLogFilter->setPlaceholderText(tr("Filter the server's output"));
    m_serverLogFilter->setClearButtonEnabled(true);
    m_serverLog->setObjectName(QStringLiteral("serverLog"));
    m_serverLog->setReadOnly(true);
    m_serverLog->setLineWrapMode(QPlainTextEdit::NoWrap);
    // The dock stays as short as the other tabs let it be: the window must fit a laptop screen.
    m_serverLog->setMinimumHeight(24);
    serverLogLayout->setSpacing(2);
    m_serverLog->setPlaceholderText(tr("Select one run: the output of the servers it launched appears here."));
    connect(m_serverLogFilter, &QLineEdit::textChanged, this, &LogDock::showServerLog);
    serverLogLayout->addWidget(m_serverLogFilter);
    serverLogLayout->addWidget(m_serverLog, 1);
    tabs->addTab(serverLogPage, tr("Server log"));
    tabs->addTab(m_log, tr("Log"));
    setWidget(tabs);
}

void LogDock::appendLog(const QString &level, const QString &text)
{
    const QString time = QDateTime::currentDateTime().toString(QStringLiteral("HH:mm:ss"));
    m_log->appendPlainText(QStringLiteral("%1  %2  %3").arg(time, level, text));
}

void LogDock::showProblems(const QList<Problem> &problems)
{
    m_problems->clear();
    for (const Problem &p : problems) {
        auto *item = new QListWidgetItem(p.translatedString(), m_problems);
        item->setIcon(
            style()->standardIcon(p.isError() ? QStyle::SP_MessageBoxCritical : QStyle::SP_MessageBoxWarning));
    }
}

// The numbers behind each finding are in its tooltip.
void LogDock::showFindings(const Report::ReportInput &input)
{
    m_findings->clear();
    const bool several = input.runs.size() > 1;
    for (qsizetype r = 0; r < input.runs.size(); ++r) {
        for (const RunFinding &f : input.runs[r].findings) {
            QString who = several ? QString(QChar(char16_t(u'A' + r))) + QStringLiteral(" · ") : QString();
            if (!f.variant.isEmpty())
                who += f.variant + QStringLiteral(" · ");
            auto *item = new QListWidgetItem(
                QStringLiteral("%1%2: %3").arg(who, Report::findingTitle(f), Report::findingText(f)), m_findings);
            item->setToolTip(findingLine(f));
            item->setData(Qt::UserRole, f.code);
            if (f.kind == RunFinding::Kind::Problem)
                item->setForeground(QColor(176, 0, 32));
            else if (f.kind == RunFinding::Kind::Caveat)
                item->setForeground(QColor(0x99, 0x55, 0x00));
        }
    }
    if (m_findings->count() == 0)
        new QListWidgetItem(tr("No findings for the shown runs: they need a curve of two or more loads."), m_findings);
}

void LogDock::setServerLog(const QStringList &lines)
{
    m_serverLogLines = lines;
    showServerLog();
}

void LogDock::clearRunOutput()
{
    m_findings->clear();
    setServerLog({});
}

// The kept lines that contain the filter (case-insensitive), at most the last 20,000.
void LogDock::showServerLog()
{
    const QString filter = m_serverLogFilter->text();
    QStringList shown;
    for (const QString &line : std::as_const(m_serverLogLines)) {
        if (filter.isEmpty() || line.contains(filter, Qt::CaseInsensitive))
            shown << line;
    }
    if (shown.size() > 20000)
        shown = shown.mid(shown.size() - 20000);
    m_serverLog->setPlainText(shown.join(u'\n'));
}

} // namespace ServeScope

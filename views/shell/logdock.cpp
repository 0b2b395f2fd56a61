// SPDX-License-Identifier: MIT
#include "logdock.h"

#include <QApplication>
#include <QDateTime>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QStyle>
#include <QTabWidget>
#include <QVBoxLayout>

#include <functional>

namespace ServeScope {

LogDock::LogDock(QWidget *parent)
    : QDockWidget(tr("Log"), parent)
    , m_log(new QPlainTextEdit)
    , m_problems(new QListWidget)
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
    auto *serverLogPage = new QWidget;
    auto *serverLogLayout = new QVBoxLayout(serverLogPage);
    serverLogLayout->setContentsMargins(0, 0, 0, 0);
    m_serverLogFilter->setObjectName(QStringLiteral("serverLogFilter"));
    m_serverLogFilter->setPlaceholderText(tr("Filter the server's output"));
    m_serverLogFilter->setClearButtonEnabled(true);
    m_serverLog->setObjectName(QStringLiteral("serverLog"));
    m_serverLog->setReadOnly(true);
    m_serverLog->setLineWrapMode(QPlainTextEdit::NoWrap);
    // The dock can be as short as a line or two: the window must fit a laptop screen (640 px, or
    // 768 px scaled 1.25×) with the dock under the Run page.
    for (QWidget *view : std::initializer_list<QWidget *> { m_serverLog, m_log, m_problems })
        view->setMinimumHeight(24);
    serverLogLayout->setSpacing(2);
    m_serverLog->setPlaceholderText(tr("Select one run: the output of the servers it launched appears here."));
    connect(m_serverLogFilter, &QLineEdit::textChanged, this, &LogDock::showServerLog);
    serverLogLayout->addWidget(m_serverLogFilter);
    serverLogLayout->addWidget(m_serverLog, 1);
    tabs->addTab(serverLogPage, tr("Server log"));
    tabs->addTab(m_log, tr("Log"));
    setWidget(tabs);
}

namespace {

/// Sets or adds a view's text and keeps its newest line in sight while the reader is at the end (also
/// while its tab is hidden); one who scrolled back stays where they are.
void followingEnd(QPlainTextEdit *view, const std::function<void()> &change)
{
    QScrollBar *bar = view->verticalScrollBar();
    const int was = bar->value();
    const bool atEnd = was >= bar->maximum();
    change();
    bar->setValue(atEnd ? bar->maximum() : was);
}

} // namespace

void LogDock::appendLog(const QString &level, const QString &text)
{
    const QString time = QDateTime::currentDateTime().toString(QStringLiteral("HH:mm:ss"));
    followingEnd(m_log, [&] { m_log->appendPlainText(QStringLiteral("%1  %2  %3").arg(time, level, text)); });
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

void LogDock::setServerLog(const QStringList &lines)
{
    m_serverLogLines = lines;
    showServerLog();
}

void LogDock::clearRunOutput()
{
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
    followingEnd(m_serverLog, [&] { m_serverLog->setPlainText(shown.join(u'\n')); });
}

} // namespace ServeScope

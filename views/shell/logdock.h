// SPDX-License-Identifier: MIT
#pragma once

#include "model/problem.h"

#include <QDockWidget>
#include <QStringList>

class QLineEdit;
class QListWidget;
class QPlainTextEdit;

namespace ServeScope {

namespace Report {
struct ReportInput;
} // namespace Report

/// The dock under every page: the experiment's problems, the shown runs' findings, the output of the
/// servers a run launched (filterable) and the window's log.
class LogDock final : public QDockWidget {
    Q_OBJECT
public:
    explicit LogDock(QWidget *parent = nullptr);

    QPlainTextEdit *log() const { return m_log; }
    void appendLog(const QString &level, const QString &text);
    void showProblems(const QList<Problem> &problems);
    /// The shown runs' findings, worded as the report words them, lettered when runs are compared.
    void showFindings(const Report::ReportInput &input);
    /// A run's launched-server output, one display line each.
    void setServerLog(const QStringList &lines);
    /// Findings and server output of the runs shown before: gone with the project they belonged to.
    void clearRunOutput();

private:
    void showServerLog();

    QPlainTextEdit *m_log;
    QListWidget *m_problems;
    QListWidget *m_findings;
    QLineEdit *m_serverLogFilter;
    QPlainTextEdit *m_serverLog;
    QStringList m_serverLogLines;
};

} // namespace ServeScope

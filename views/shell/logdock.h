// SPDX-License-Identifier: MIT
#pragma once

#include "model/problem.h"

#include <QDockWidget>
#include <QStringList>

class QLineEdit;
class QListWidget;
class QPlainTextEdit;

namespace ServeScope {

/// The dock under the pages (on the Run page unless the user chose otherwise, WindowPages::bindDock): the
/// experiment's problems, the output of the servers a run launched (filterable) and the window's log.
class LogDock final : public QDockWidget {
    Q_OBJECT
public:
    explicit LogDock(QWidget *parent = nullptr);

    QPlainTextEdit *log() const { return m_log; }
    void appendLog(const QString &level, const QString &text);
    void showProblems(const QList<Problem> &problems);
    /// A run's launched-server output, one display line each.
    void setServerLog(const QStringList &lines);
    /// Server output of the runs shown before: gone with the project it belonged to.
    void clearRunOutput();

private:
    void showServerLog();

    QPlainTextEdit *m_log;
    QListWidget *m_problems;
    QLineEdit *m_serverLogFilter;
    QPlainTextEdit *m_serverLog;
    QStringList m_serverLogLines;
};

} // namespace ServeScope

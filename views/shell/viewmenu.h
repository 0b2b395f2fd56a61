// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>

class QDockWidget;
class QMainWindow;
class QMenu;

namespace ServeScope {

class WindowPages;

/// The View menu: the project panel and the log shown or hidden, Reset layout, and the language.
class ViewMenu final : public QObject {
    Q_OBJECT
public:
    ViewMenu(QMainWindow *window, WindowPages *pages, QDockWidget *tree, QDockWidget *log);
    void build(QMenu *menu);
    /// Every dock back in place and shown (the log on the Run page only), as on a first start; what
    /// was remembered is forgotten.
    void resetLayout();

signals:
    void status(const QString &text, int timeoutMs);

private:
    QMainWindow *m_window;
    WindowPages *m_pages;
    QDockWidget *m_tree;
    QDockWidget *m_log;
};

} // namespace ServeScope

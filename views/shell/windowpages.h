// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>
#include <QVector>

class QAction;
class QActionGroup;
class QStackedWidget;
class QToolBar;
class QWidget;

namespace ServeScope {

/// The window's full-window pages — Start, Design, Run, Results — one shown at a time, switched from
/// a bar of page buttons or with Ctrl+1..4 (Qt Creator's modes, hotspot's pages).
class WindowPages final : public QObject {
    Q_OBJECT
public:
    enum Page { Start, Design, Run, Results, PageCount };

    explicit WindowPages(QObject *parent = nullptr);

    /// Adds `widget` as `page`, titled `title`; call once per page, in order.
    void addPage(Page page, QWidget *widget, const QString &title);
    QStackedWidget *stack() const { return m_stack; }
    QToolBar *bar() const { return m_bar; }
    QAction *action(Page page) const { return m_actions.value(page); }

    Page current() const;
    void show(Page page);
    /// Design, Run and Results need an open project; Start is always there.
    void setProjectPagesEnabled(bool enabled);

signals:
    void pageShown(ServeScope::WindowPages::Page page);

private:
    QStackedWidget *m_stack;
    QToolBar *m_bar;
    QActionGroup *m_group;
    QVector<QAction *> m_actions;
};

} // namespace ServeScope

// SPDX-License-Identifier: MIT
#pragma once

#include <QHash>
#include <QList>
#include <QObject>
#include <QSizePolicy>
#include <QVector>

class QAction;
class QActionGroup;
class QDockWidget;
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
    /// Shows `dock` on the pages in `shownOn` and hides it on the others; where the user shows or
    /// closes it (View menu, its close button), that choice is remembered for that page.
    void bindDock(QDockWidget *dock, const QList<Page> &shownOn);
    /// Forgets the users' choices: every bound dock back to its default pages.
    void resetDocks();
    /// Shows or hides each bound dock as chosen for the current page (after a restored window state).
    void applyDocks();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

signals:
    void pageShown(ServeScope::WindowPages::Page page);

private:
    struct BoundDock {
        QDockWidget *dock;
        QList<Page> shownOn;
    };
    bool dockShownOn(const BoundDock &bound, Page page) const;
    void rememberDock(QDockWidget *dock, bool shown);
    /// The stack takes its current page's minimum size, not its largest page's: hidden pages' size
    /// policies are Ignored (their own come back when shown).
    void sizeStackToCurrentPage();

    QList<BoundDock> m_docks;
    QStackedWidget *m_stack;
    QToolBar *m_bar;
    QActionGroup *m_group;
    QVector<QAction *> m_actions;
    QHash<QWidget *, QSizePolicy> m_policies; ///< each page's own size policy
};

} // namespace ServeScope

// SPDX-License-Identifier: MIT
#include "windowpages.h"

#include <QAction>
#include <QActionGroup>
#include <QDockWidget>
#include <QEvent>
#include <QKeySequence>
#include <QSettings>
#include <QStackedWidget>
#include <QToolBar>

namespace ServeScope {

WindowPages::WindowPages(QObject *parent)
    : QObject(parent)
    , m_stack(new QStackedWidget)
    , m_bar(new QToolBar(tr("Pages")))
    , m_group(new QActionGroup(this))
    , m_actions(PageCount, nullptr)
{
    m_stack->setObjectName(QStringLiteral("pageStack"));
    m_bar->setObjectName(QStringLiteral("pageBar"));
    m_bar->setMovable(false);
    m_bar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_group->setExclusive(true);
}

void WindowPages::addPage(Page page, QWidget *widget, const QString &title)
{
    m_policies.insert(widget, widget->sizePolicy());
    m_stack->insertWidget(int(page), widget);
    sizeStackToCurrentPage();
    auto *action = new QAction(title, this);
    action->setObjectName(QStringLiteral("page%1").arg(int(page) + 1));
    action->setCheckable(true);
    action->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + int(page))));
    action->setToolTip(QStringLiteral("%1 (%2)").arg(title, action->shortcut().toString(QKeySequence::NativeText)));
    m_group->addAction(action);
    m_bar->addAction(action);
    m_actions[page] = action;
    connect(action, &QAction::triggered, this, [this, page] { show(page); });
}

WindowPages::Page WindowPages::current() const
{
    return Page(m_stack->currentIndex());
}

void WindowPages::show(Page page)
{
    if (QAction *a = m_actions.value(page); !a || !a->isEnabled())
        return;
    m_actions[page]->setChecked(true);
    if (m_stack->currentIndex() == int(page))
        return;
    m_stack->setCurrentIndex(int(page));
    sizeStackToCurrentPage();
    applyDocks();
    emit pageShown(page);
}

void WindowPages::sizeStackToCurrentPage()
{
    // A page's minimum (the Run page's charts, the Results page's chart) does not hold the window
    // large on the others: at 1024 × 640 scaled 1.25× every page has the room it needs, not the
    // largest of all.
    for (int i = 0; i < m_stack->count(); ++i) {
        QWidget *page = m_stack->widget(i);
        page->setSizePolicy(i == m_stack->currentIndex() ? m_policies.value(page, page->sizePolicy())
                                                         : QSizePolicy(QSizePolicy::Ignored, QSizePolicy::Ignored));
    }
}

static QString dockKey(const QDockWidget *dock, int page)
{
    return QStringLiteral("window/%1OnPage%2").arg(dock->objectName()).arg(page);
}

void WindowPages::bindDock(QDockWidget *dock, const QList<Page> &shownOn)
{
    m_docks.append({ dock, shownOn });
    connect(
        dock->toggleViewAction(), &QAction::triggered, this, [this, dock](bool shown) { rememberDock(dock, shown); });
    dock->installEventFilter(this); // its close button
    dock->setVisible(dockShownOn(m_docks.constLast(), current()));
}

bool WindowPages::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::Close) {
        for (const BoundDock &b : std::as_const(m_docks)) {
            if (b.dock == watched)
                rememberDock(b.dock, false);
        }
    }
    return QObject::eventFilter(watched, event);
}

bool WindowPages::dockShownOn(const BoundDock &bound, Page page) const
{
    return QSettings().value(dockKey(bound.dock, page), bound.shownOn.contains(page)).toBool();
}

void WindowPages::rememberDock(QDockWidget *dock, bool shown)
{
    QSettings().setValue(dockKey(dock, current()), shown);
}

void WindowPages::applyDocks()
{
    for (const BoundDock &b : std::as_const(m_docks))
        b.dock->setVisible(dockShownOn(b, current()));
}

void WindowPages::resetDocks()
{
    QSettings settings;
    for (const BoundDock &b : std::as_const(m_docks)) {
        for (int page = 0; page < PageCount; ++page)
            settings.remove(dockKey(b.dock, page));
    }
    applyDocks();
}

void WindowPages::setProjectPagesEnabled(bool enabled)
{
    for (Page p : { Design, Run, Results }) {
        if (QAction *a = m_actions.value(p))
            a->setEnabled(enabled);
    }
    if (!enabled)
        show(Start);
}

} // namespace ServeScope

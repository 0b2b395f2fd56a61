// SPDX-License-Identifier: MIT
#include "viewmenu.h"

#include "screenfit.h"
#include "windowpages.h"

#include <QActionGroup>
#include <QDockWidget>
#include <QMainWindow>
#include <QMenu>
#include <QSettings>
#include <QToolBar>

namespace ServeScope {

ViewMenu::ViewMenu(QMainWindow *window, WindowPages *pages, QDockWidget *tree, QDockWidget *log)
    : QObject(window)
    , m_window(window)
    , m_pages(pages)
    , m_tree(tree)
    , m_log(log)
{
}

void ViewMenu::build(QMenu *view)
{
    view->addAction(m_tree->toggleViewAction());
    view->addAction(m_log->toggleViewAction());
    QAction *reset = view->addAction(tr("&Reset layout"), this, &ViewMenu::resetLayout);
    reset->setObjectName(QStringLiteral("resetLayoutAction"));
    view->addSeparator();
    QMenu *language = view->addMenu(tr("&Language"));
    auto *languages = new QActionGroup(language);
    const QString chosen = QSettings().value(QStringLiteral("ui/language")).toString();
    // Each language by its own name, so it can be found whatever the window is in now.
    for (const auto &[code, name] :
        { std::pair { QString(), tr("System default") }, std::pair { QStringLiteral("en"), QStringLiteral("English") },
            std::pair { QStringLiteral("zh_CN"), QStringLiteral("简体中文") } }) {
        QAction *a = language->addAction(name);
        a->setCheckable(true);
        a->setChecked(code == chosen);
        languages->addAction(a);
        connect(a, &QAction::triggered, this, [this, code] {
            if (QSettings().value(QStringLiteral("ui/language")).toString() == code)
                return;
            QSettings().setValue(QStringLiteral("ui/language"), code);
            emit status(tr("The language changes when ServeScope starts again."), 8000);
        });
    }
}

void ViewMenu::resetLayout()
{
    for (QDockWidget *dock : { m_tree, m_log })
        dock->setFloating(false);
    m_pages->resetDocks();
    m_window->addDockWidget(Qt::LeftDockWidgetArea, m_tree);
    m_window->addDockWidget(Qt::BottomDockWidgetArea, m_log);
    for (QToolBar *bar : m_window->findChildren<QToolBar *>())
        bar->show();
    m_window->resizeDocks({ m_tree }, { std::min(260, m_window->width() / 4) }, Qt::Horizontal);
    m_window->resizeDocks({ m_log }, { 110 }, Qt::Vertical);
    forgetDockLayout(m_window);
    emit status(tr("Layout reset."), 3000);
}

} // namespace ServeScope

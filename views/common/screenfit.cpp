// SPDX-License-Identifier: MIT
#include "screenfit.h"

#include <QEvent>
#include <QMainWindow>
#include <QPointer>
#include <QScreen>
#include <QSettings>
#include <QStyle>
#include <QTimer>
#include <QWidget>

namespace ServeScope {

QRect fitClientInside(const QRect &available, const QMargins &frame, const QSize &preferred)
{
    const QRect inner = available.marginsRemoved(frame);
    const QSize size = preferred.boundedTo(inner.size()).expandedTo(QSize(1, 1));
    QRect client(QPoint(0, 0), size);
    client.moveCenter(inner.center());
    return client;
}

namespace {

QRect availableFor(const QWidget *w)
{
    const QScreen *screen = w->screen();
    return screen ? screen->availableGeometry() : QRect(0, 0, 1280, 720);
}

QMargins frameOf(const QWidget *w)
{
    const QRect frame = w->frameGeometry(), client = w->geometry();
    return { client.left() - frame.left(), client.top() - frame.top(), frame.right() - client.right(),
        frame.bottom() - client.bottom() };
}

// Waits for the first show, then checks the real frame twice: window managers report it late.
class FrameFitter final : public QObject {
public:
    FrameFitter(QWidget *window, const QSize &preferred)
        : QObject(window)
        , m_window(window)
        , m_preferred(preferred)
    {
        window->installEventFilter(this);
    }

    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (watched == m_window && event->type() == QEvent::Show) {
            m_window->removeEventFilter(this);
            for (int delay : { 0, 300 })
                QTimer::singleShot(delay, this, [this] { fit(); });
            QTimer::singleShot(600, this, &QObject::deleteLater);
        }
        return false;
    }

private:
    void fit()
    {
        if (!m_window || m_window->isMaximized() || m_window->isFullScreen())
            return;
        const QRect available = availableFor(m_window);
        if (available.contains(m_window->frameGeometry()))
            return;
        m_window->setGeometry(fitClientInside(available, frameOf(m_window), m_preferred));
    }

    QPointer<QWidget> m_window;
    QSize m_preferred;
};

} // namespace

void fitWindowToScreen(QWidget *window, const QSize &preferred)
{
    // Before the window manager has framed the window, a title bar and thin borders are a fair guess.
    const int title = window->style()->pixelMetric(QStyle::PM_TitleBarHeight, nullptr, window);
    const QMargins guess(4, std::max(title, 24) + 4, 4, 4);
    window->setGeometry(
        fitClientInside(availableFor(window), window->isVisible() ? frameOf(window) : guess, preferred));
    new FrameFitter(window, preferred);
}

namespace {

/// The smallest window the pages stay usable in: the Results page's table beside its chart.
constexpr QSize kUsableMinimum(960, 600);

QString screenKey(const QWidget *w)
{
    const QScreen *screen = w->screen();
    const QSize size = screen ? screen->size() : QSize(1280, 720);
    return QStringLiteral("window/%1x%2/").arg(size.width()).arg(size.height());
}

} // namespace

void restoreWindowPlacement(QMainWindow *window)
{
    const QSettings s;
    const QString key = screenKey(window);
    const QRect available = availableFor(window);
    if (s.contains(key + QLatin1String("geometry"))) {
        window->restoreGeometry(s.value(key + QLatin1String("geometry")).toByteArray());
        window->restoreState(s.value(key + QLatin1String("state")).toByteArray());
        if (window->isMaximized())
            return;
        // A placement saved under this size may still be off this screen (another arrangement of screens).
        const QSize size = window->size().expandedTo(kUsableMinimum.boundedTo(available.size()));
        if (size != window->size() || !available.intersects(window->geometry()))
            fitWindowToScreen(window, size);
        return;
    }
    // A screen not seen before: most of it, at least a laptop's worth; maximized as the window last was.
    const QSize preferred(std::max(1280, available.width() * 17 / 20), std::max(860, available.height() * 9 / 10));
    fitWindowToScreen(window, preferred);
    if (s.value(QStringLiteral("window/maximized")).toBool())
        window->setWindowState(window->windowState() | Qt::WindowMaximized);
}

void saveWindowPlacement(const QMainWindow *window)
{
    QSettings s;
    const QString key = screenKey(window);
    s.setValue(key + QLatin1String("geometry"), window->saveGeometry());
    s.setValue(key + QLatin1String("state"), window->saveState());
    s.setValue(QStringLiteral("window/maximized"), window->isMaximized());
}

void forgetDockLayout(const QMainWindow *window)
{
    QSettings().remove(screenKey(window) + QLatin1String("state"));
}

} // namespace ServeScope

// SPDX-License-Identifier: MIT
#pragma once

#include <QMargins>
#include <QRect>
#include <QSize>

class QMainWindow;
class QWidget;

namespace ServeScope {

/// Where a window goes so that its frame (title bar and borders included), not only its client area,
/// lies inside `available`: the client rectangle of at most `preferred`, centred.
QRect fitClientInside(const QRect &available, const QMargins &frame, const QSize &preferred);

/// Sizes a top-level window to at most `preferred` inside its screen's available area, frame
/// included: before it is shown with the style's title-bar height as the frame's estimate, and once
/// it is shown (and the window manager has told the frame's real size) again if the frame overflows.
void fitWindowToScreen(QWidget *window, const QSize &preferred);

/// The main window's placement is kept per screen size: where it stood, whether it was maximized and
/// its docks' sizes, under a key of the screen it was closed on. Before the first show: the placement
/// saved for this screen, else (a first start here, or a screen not seen before) a size that fills it
/// sensibly, maximized if the window was when last closed. Never smaller than a usable minimum (or
/// the screen, when that is smaller) and never larger than the screen.
void restoreWindowPlacement(QMainWindow *window);
/// On close: the placement for the screen the window is on now.
void saveWindowPlacement(const QMainWindow *window);
/// Forgets the dock layout saved for the window's screen (View > Reset layout).
void forgetDockLayout(const QMainWindow *window);

} // namespace ServeScope

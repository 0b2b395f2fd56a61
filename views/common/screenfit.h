// SPDX-License-Identifier: MIT
#pragma once

#include <QMargins>
#include <QRect>
#include <QSize>

class QWidget;

namespace ServeScope {

/// Where a window goes so that its frame (title bar and borders included), not only its client area,
/// lies inside `available`: the client rectangle of at most `preferred`, centred.
QRect fitClientInside(const QRect &available, const QMargins &frame, const QSize &preferred);

/// Sizes a top-level window to at most `preferred` inside its screen's available area, frame
/// included: before it is shown with the style's title-bar height as the frame's estimate, and once
/// it is shown (and the window manager has told the frame's real size) again if the frame overflows.
void fitWindowToScreen(QWidget *window, const QSize &preferred);

} // namespace ServeScope

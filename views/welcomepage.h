// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

namespace ServeScope {

/// The empty state on first start: what ServeScope does and one-click ways to begin.
class WelcomePage final : public QWidget {
    Q_OBJECT
public:
    explicit WelcomePage(QWidget *parent = nullptr);

signals:
    void demoRequested();
    void newRequested();
    void openRequested();
    void importRequested();
};

} // namespace ServeScope

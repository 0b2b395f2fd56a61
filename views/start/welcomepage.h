// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

class QLabel;

namespace ServeScope {

/// The empty state on first start: what ServeScope does and one-click ways to begin.
class WelcomePage final : public QWidget {
    Q_OBJECT
public:
    explicit WelcomePage(QWidget *parent = nullptr);

    /// The recent projects, newest first, offered as one-click links.
    void setRecent(const QStringList &paths);

signals:
    void recentRequested(const QString &path);
    void demoRequested();
    void newRequested();
    void openRequested();
    void importRequested();

private:
    QLabel *m_recent;
};

} // namespace ServeScope

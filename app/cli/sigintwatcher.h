// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>
#include <QSocketNotifier>

#include <memory>

namespace ServeScope::Cli {

/// Turns SIGINT/SIGTERM into a Qt signal on the event loop (self-pipe); a second SIGINT ends the
/// process at once.
class SigintWatcher final : public QObject {
    Q_OBJECT
public:
    explicit SigintWatcher(QObject *parent = nullptr);
    ~SigintWatcher() override;

Q_SIGNALS:
    void interrupted();

private:
    std::unique_ptr<QSocketNotifier> m_notifier;
};

} // namespace ServeScope::Cli

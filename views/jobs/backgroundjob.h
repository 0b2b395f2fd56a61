// SPDX-License-Identifier: MIT
#pragma once

#include <QPointer>
#include <QString>
#include <QThread>

#include <functional>

namespace ServeScope {

/// One job of the window on a thread of its own (the whole-file check, a team-database call, a trace's
/// preview, result files imported, shards merged): `work` runs there; then `done`, if `context` still lives,
/// on `context`'s thread. The thread deletes itself once finished; an owner that must not go before the job
/// keeps the returned pointer and waits on it.
QPointer<QThread> runInBackground(QObject *context, const QString &name, std::function<void()> work,
    std::function<void()> done = {}, QThread::Priority priority = QThread::InheritPriority);

} // namespace ServeScope

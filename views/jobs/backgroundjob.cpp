// SPDX-License-Identifier: MIT
#include "backgroundjob.h"

namespace ServeScope {

QPointer<QThread> runInBackground(QObject *context, const QString &name, std::function<void()> work,
    std::function<void()> done, QThread::Priority priority)
{
    QThread *thread = QThread::create(std::move(work));
    thread->setObjectName(name);
    if (done)
        QObject::connect(thread, &QThread::finished, context, std::move(done));
    // After `done` (connected first, on the same thread): deleteLater only runs once its caller's loop turns.
    QObject::connect(thread, &QThread::finished, thread, &QObject::deleteLater);
    thread->start(priority);
    return thread;
}

} // namespace ServeScope

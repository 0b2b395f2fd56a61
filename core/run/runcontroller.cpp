// SPDX-License-Identifier: MIT
#include "runcontroller.h"

#include "runworker.h"

#include <QThread>

namespace ServeScope {

RunController::RunController(Experiment experiment, RunOptions options, QObject *parent)
    : RunEvents(parent)
    , m_experiment(std::move(experiment))
    , m_options(std::move(options))
{
    qRegisterMetaType<RunSnapshot>();
    qRegisterMetaType<RunResult>();
    qRegisterMetaType<PointSummary>();
    qRegisterMetaType<PointVerdict>();
}

RunController::~RunController()
{
    if (m_thread) {
        cancel();
        m_thread->quit();
        m_thread->wait();
    }
}

void RunController::start()
{
    if (m_running.exchange(true))
        return;
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    m_thread = std::make_unique<QThread>();
    m_thread->setObjectName(QStringLiteral("run"));
    m_worker = new RunWorker(m_experiment, m_options, m_cancel);
    m_worker->moveToThread(m_thread.get());
    RunWorker *worker = m_worker;
    // The worker and its parts emit on the run thread; these connections queue onto this object's thread.
    relay(worker);
    connect(worker, &RunWorker::finished, this, [this](const RunResult &result) {
        m_running = false;
        m_worker = nullptr;
        if (m_thread) {
            m_thread->quit();
            m_thread->wait();
            m_thread.reset();
        }
        Q_EMIT finished(result);
    });
    connect(m_thread.get(), &QThread::started, worker, &RunWorker::run);
    connect(m_thread.get(), &QThread::finished, worker, &QObject::deleteLater);
    m_thread->start();
}

void RunController::cancel()
{
    if (m_cancel)
        *m_cancel = true;
    if (RunWorker *worker = m_worker)
        QMetaObject::invokeMethod(worker, &RunWorker::cancelNow, Qt::QueuedConnection);
}

bool RunController::isRunning() const
{
    return m_running;
}

} // namespace ServeScope

// SPDX-License-Identifier: MIT
#pragma once

#include "compare/runsource.h"
#include "model/records.h"
#include "run/runtypes.h"

#include <QObject>
#include <QString>

namespace ServeScope {

/// What a run says while it goes, declared once: RunWorker says it on the run's thread, RunController
/// relays it to its caller's thread, and the window's RunSession to the pages.
class RunEvents : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

protected:
    /// Says again what `from` says (queued when `from` lives on another thread), but `finished`: each
    /// relay ends a run its own way.
    void relay(const RunEvents *from);

Q_SIGNALS:
    void snapshotUpdated(const ServeScope::RunSnapshot &snapshot);
    void pointFinished(const ServeScope::PointSummary &summary);
    /// RunOptions::vs: a point's repeats are done, and this is how it compares.
    void pointCompared(const ServeScope::PointVerdict &verdict);
    void logged(const QString &level, const QString &text);
    void finished(const ServeScope::RunResult &result);
};

} // namespace ServeScope

// SPDX-License-Identifier: MIT
#pragma once

#include "run/runcontroller.h"

#include <QElapsedTimer>
#include <QObject>

namespace ServeScope::Cli {

/// Run progress on stderr: a bar redrawn in place on a terminal, plain lines (at most every
/// 2 s, and at each new point) otherwise.
class ProgressPrinter final : public QObject {
    Q_OBJECT
public:
    explicit ProgressPrinter(QObject *parent = nullptr);

    void update(const ServeScope::RunSnapshot &s);
    void log(const QString &level, const QString &text);
    void done();

private:
    /// The status line; `forPeople` (the bar on a terminal) in the user's language, else C locale.
    QString line(const RunSnapshot &s, bool forPeople) const;
    void clearBar();

    bool m_tty;
    bool m_barShown = false;
    QString m_lastPoint;
    QElapsedTimer m_sinceLine;
};

} // namespace ServeScope::Cli

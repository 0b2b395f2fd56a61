// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

#include <optional>

namespace ServeScope {

/// A launched server that exited or was killed while the run used it (docs/launch.md): the run's
/// findings name it on its variant (server-exited), which is then never called healthy.
struct ServerExit {
    QString variant;
    qint64 pid = 0;
    int exitCode = -1; ///< the code it exited with; -1 when a signal killed it
    int signal = 0; ///< the signal that killed it; 0 when it exited
};

/// The project's record of an exit: the text of a server log line of stream "exit",
/// `{"variant":…,"pid":…,"exit_code":…}` or `…,"signal":…}`; the server's last lines are the log's own, before it.
QString serverExitLine(const ServerExit &exit);
/// An "exit" line read back; nullopt when it is not one.
std::optional<ServerExit> serverExitFromLine(const QString &line);

} // namespace ServeScope

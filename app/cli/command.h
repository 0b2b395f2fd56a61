// SPDX-License-Identifier: MIT
#pragma once

#include <QStringList>

namespace ServeScope::Cli {

/// Exit codes of the CLI contract (docs/design.md).
enum ExitCode : int { ExitOk = 0, ExitFailed = 1, ExitUsage = 2, ExitInterrupted = 130 };

using CommandFn = int (*)(const QStringList &arguments);

struct Command {
    const char *name;
    const char *summary;
    CommandFn run;
};

/// Each subcommand file registers itself with a static CommandRegistration.
struct CommandRegistration {
    explicit CommandRegistration(Command command);
};

const QList<Command> &commands();

} // namespace ServeScope::Cli

// SPDX-License-Identifier: MIT
#pragma once

#include <QStringList>

#include <optional>

class QCommandLineParser;

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

/// Whether a command takes positional arguments (it then checks their number itself).
enum class Positional { None, Allowed };
/// What every command does first: parses `args`. A parse error, or a positional argument where
/// none is taken, prints "servescope-cli NAME: …" on stderr and gives ExitUsage; --help prints the
/// help and gives ExitOk. Nothing: the command goes on.
std::optional<int> parseCommand(
    QCommandLineParser &parser, const QStringList &args, const char *name, Positional positional);

} // namespace ServeScope::Cli

// SPDX-License-Identifier: MIT
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace ServeScope {

/// One simple command of a pasted shell snippet, as the shell would split it.
struct ShellCommand {
    QStringList words; ///< quotes removed; $VAR and ${VAR} kept as written (never expanded)
    QStringList assignedNames; ///< NAME of leading NAME=value words and of `export NAME=value` (values dropped)
    /// Per assigned name: the variable its whole value names (`NAME="$OTHER"` gives OTHER), else empty.
    QStringList assignedFrom;
    bool exported = false; ///< the command was `export ...`
    int line = 1; ///< 1-based line it starts on
};

/// Splits pasted shell text the way a POSIX shell does for what engineers paste: backslash
/// continuations, single and double quotes, `#` comments, commands separated by newlines, `;`,
/// `&&`, `||`, `|` and `&`; redirections (`> log`, `2>&1`, `&> log`, `< in`) are dropped with
/// their targets, and the prefixes `nohup`, `env`, `exec`, `time` removed. Nothing is expanded or
/// executed. Pure.
QList<ShellCommand> splitShellCommands(const QString &text);

/// "VAR" for "$VAR" or "${VAR}", else an empty string.
QString shellVariableName(const QString &word);

} // namespace ServeScope

// SPDX-License-Identifier: MIT
#include "clitext.h"
#include "command.h"

#include "engine/epolldispatcher.h"
#include "engine/fdlimit.h"
#include "run/heaptrim.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QTextStream>

#include <algorithm>
#include <cstdio>

namespace ServeScope::Cli {

static QList<Command> &registry()
{
    static QList<Command> list;
    return list;
}

CommandRegistration::CommandRegistration(Command command)
{
    registry().append(command);
}

const QList<Command> &commands()
{
    return registry();
}

std::optional<int> parseCommand(
    QCommandLineParser &parser, const QStringList &args, const char *name, Positional positional)
{
    QTextStream err(stderr);
    if (!parser.parse(args)) {
        err << "servescope-cli " << name << ": " << parser.errorText() << '\n';
        return ExitUsage;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        QTextStream(stdout) << parser.helpText();
        return ExitOk;
    }
    if (positional == Positional::None && !parser.positionalArguments().isEmpty()) {
        err << "servescope-cli " << name << ": "
            << CliText::tr("unexpected argument '%1'").arg(parser.positionalArguments().first()) << '\n';
        return ExitUsage;
    }
    return std::nullopt;
}

} // namespace ServeScope::Cli

using namespace ServeScope::Cli;

static void printUsage(FILE *out)
{
    QTextStream s(out);
    s << CliText::tr("Usage: servescope-cli <command> [options]") << "\n\n"
      << CliText::tr("Design, run and compare benchmark experiments against OpenAI-compatible LLM endpoints.") << "\n\n"
      << CliText::tr("Commands:") << '\n';
    QList<Command> sorted = commands();
    std::sort(
        sorted.begin(), sorted.end(), [](const Command &a, const Command &b) { return qstrcmp(a.name, b.name) < 0; });
    // The summary column starts two spaces after the longest name (export-command, import-command).
    qsizetype width = 0;
    for (const Command &c : sorted)
        width = std::max(width, qsizetype(qstrlen(c.name)));
    for (const Command &c : sorted)
        s << "  " << QString::fromLatin1(c.name).leftJustified(width + 2) << summaryText(c.summary) << '\n';
    s << '\n'
      << CliText::tr("Global options:\n"
                     "  -h, --help     Show this help (or `servescope-cli <command> --help`)\n"
                     "  -v, --version  Show the version\n\n"
                     "Exit codes: 0 success, 1 gate failed / endpoint unusable / no successful request,\n"
                     "2 bad input or usage, 130 interrupted.")
      << '\n';
}

int main(int argc, char *argv[])
{
    ServeScope::raiseOpenFileLimit();
    ServeScope::setUpHeap();
    QStringList args;
    for (int i = 0; i < argc; ++i)
        args << QString::fromLocal8Bit(argv[i]);

    const QString first = args.value(1);
    const bool help
        = first == QLatin1String("--help") || first == QLatin1String("-h") || first == QLatin1String("help");
    if (first == QLatin1String("--version") || first == QLatin1String("-v")) {
        std::printf("servescope-cli %s\n", SERVESCOPE_VERSION);
        return ExitOk;
    }
    for (const Command &c : commands()) {
        if (first == QLatin1String(c.name)) {
            // `export` makes its own QApplication; every other command runs on QCoreApplication.
            if (qstrcmp(c.name, "export") == 0)
                return c.run(args.mid(1));
            // The simulator serves every socket from its one thread, which blocks in one epoll set
            // (docs/simulator.md).
            if (qstrcmp(c.name, "sim") == 0)
                QCoreApplication::setEventDispatcher(new ServeScope::EpollDispatcher);
            QCoreApplication app(argc, argv);
            QCoreApplication::setApplicationName(QStringLiteral("servescope-cli"));
            QCoreApplication::setApplicationVersion(QStringLiteral(SERVESCOPE_VERSION));
            installTranslations();
            return c.run(args.mid(1));
        }
    }
    QCoreApplication app(argc, argv);
    installTranslations();
    if (help) {
        printUsage(stdout);
        return ExitOk;
    }
    if (!first.isEmpty())
        QTextStream(stderr) << CliText::tr("servescope-cli: unknown command '%1'").arg(first) << "\n\n";
    printUsage(stderr);
    return ExitUsage;
}

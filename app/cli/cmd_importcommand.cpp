// SPDX-License-Identifier: MIT
// servescope-cli import-command FILE|-: a pasted server or benchmark command line as experiment JSON.
#include "clitext.h"
#include "command.h"

#include "io/commandimport.h"
#include "io/experimentfile.h"

#include <QCommandLineParser>
#include <QFile>
#include <QFileInfo>
#include <QTextStream>

#include <cstdio>

namespace {

using namespace ServeScope;
using namespace ServeScope::Cli;

int runImportCommand(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(CliText::tr(
        "Turns a server launch (vllm serve, python -m vllm.entrypoints.openai.api_server, python -m\n"
        "sglang.launch_server), a benchmark command (vllm bench serve, python benchmark_serving.py, python -m\n"
        "sglang.bench_serving) or a list of SGLang flags into an experiment; prints its JSON or writes --out.\n"
        "Exit 0 when read (warnings on stderr), 2 when nothing could be imported."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("FILE"), CliText::tr("Shell snippet, or - for standard input."));
    const QCommandLineOption outOption(
        QStringLiteral("out"), CliText::tr("Write the experiment JSON to FILE."), QStringLiteral("FILE"));
    parser.addOption(outOption);
    QTextStream err(stderr);
    if (const std::optional<int> done = parseCommand(parser, args, "import-command", Positional::Allowed))
        return *done;
    if (parser.positionalArguments().size() != 1) {
        err << "servescope-cli import-command: " << CliText::tr("expected one FILE (or -)") << '\n';
        return ExitUsage;
    }
    const QString path = parser.positionalArguments().first();
    QFile in;
    const bool stdinInput = path == QLatin1String("-");
    const bool opened
        = stdinInput ? in.open(stdin, QIODevice::ReadOnly) : (in.setFileName(path), in.open(QIODevice::ReadOnly));
    if (!opened) {
        err << "servescope-cli import-command: " << path << ": " << in.errorString() << '\n';
        return ExitUsage;
    }
    const QByteArray text = in.read(kMaxExperimentFileBytes + 1);
    if (text.size() > kMaxExperimentFileBytes) {
        err << "servescope-cli import-command: " << path << ": "
            << CliText::tr("larger than %1 bytes").arg(kMaxExperimentFileBytes) << '\n';
        return ExitUsage;
    }
    const CommandImportResult r = importCommand(
        QString::fromUtf8(text), stdinInput ? QStringLiteral("command") : QFileInfo(path).completeBaseName());
    for (const QString &w : r.shownLines(r.warnings))
        err << "warning: " << w << '\n';
    for (const QString &e : r.shownLines(r.errors))
        err << "error: " << e << '\n';
    if (!r.ok)
        return ExitUsage;
    if (!parser.isSet(outOption)) {
        QFile out;
        out.open(stdout, QIODevice::WriteOnly);
        out.write(writeExperimentJson(r.experiment));
        return ExitOk;
    }
    const QString error = saveExperimentFile(parser.value(outOption), r.experiment);
    if (!error.isEmpty()) {
        err << "servescope-cli import-command: " << parser.value(outOption) << ": " << error << '\n';
        return ExitUsage;
    }
    return ExitOk;
}

const CommandRegistration reg({ "import-command",
    QT_TRANSLATE_NOOP("ServeScope::Cli", "Turn a server or benchmark command line into an experiment"),
    &runImportCommand });

} // namespace

// SPDX-License-Identifier: MIT
// servescope-cli export-command EXPERIMENT --point LABEL: one load point as a vllm or SGLang benchmark command.
#include "clitext.h"
#include "command.h"

#include "io/commandimport.h"
#include "io/experimentfile.h"
#include "model/variables.h"

#include <QCommandLineParser>
#include <QTextStream>

#include <cstdio>

namespace {

using namespace ServeScope;
using namespace ServeScope::Cli;

int runExportCommand(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        CliText::tr("Prints one load point of an experiment as the command that replays it with vLLM's or "
                    "SGLang's benchmark client. The key goes through OPENAI_API_KEY (set from the experiment's "
                    "key variable), never its value. `import-command` reads the output back."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("EXPERIMENT"), CliText::tr("Experiment file (JSON or TOML)."));
    parser.addOptions({
        { QStringLiteral("point"), CliText::tr("Load point label (default: the first)"), QStringLiteral("LABEL") },
        { QStringLiteral("variant"), CliText::tr("Variant (default: the baseline)"), QStringLiteral("NAME") },
        { QStringLiteral("tool"), CliText::tr("vllm (vllm bench serve) or sglang (python -m sglang.bench_serving)"),
            QStringLiteral("TOOL"), QStringLiteral("vllm") },
    });
    QTextStream err(stderr), out(stdout);
    const auto usage = [&err](const QString &message) {
        err << "servescope-cli export-command: " << message << '\n';
        return ExitUsage;
    };
    if (const std::optional<int> done = parseCommand(parser, args, "export-command", Positional::Allowed))
        return *done;
    if (parser.positionalArguments().size() != 1)
        return usage(CliText::tr("expected one EXPERIMENT file"));
    const QString tool = parser.value(QStringLiteral("tool"));
    if (tool != QLatin1String("vllm") && tool != QLatin1String("sglang"))
        return usage(CliText::tr("--tool takes vllm or sglang"));
    const ExperimentReadResult read = loadExperimentFile(parser.positionalArguments().first());
    if (!read.ok)
        return usage(read.shownLines(read.errors).join(QStringLiteral("; ")));
    const Experiment &x = read.experiment;
    int variant = x.baselineIndex();
    if (parser.isSet(QStringLiteral("variant"))) {
        variant = x.variantIndex(parser.value(QStringLiteral("variant")));
        if (variant < 0)
            return usage(CliText::tr("no variant named '%1'").arg(parser.value(QStringLiteral("variant"))));
    }
    const Experiment resolved = resolveVariant(x, variant);
    int point = 0;
    if (parser.isSet(QStringLiteral("point"))) {
        point = -1;
        for (int i = 0; i < resolved.load.points.size(); ++i) {
            if (resolved.pointLabel(i) == parser.value(QStringLiteral("point")))
                point = i;
        }
        if (point < 0)
            return usage(CliText::tr("no load point labelled '%1'").arg(parser.value(QStringLiteral("point"))));
    }
    if (resolved.load.points.isEmpty())
        return usage(CliText::tr("the experiment has no load point"));
    QStringList warnings;
    out << benchCommandFor(
        resolved, point, tool == QLatin1String("sglang") ? BenchTool::Sglang : BenchTool::Vllm, &warnings);
    for (const QString &w : std::as_const(warnings))
        err << "warning: " << w << '\n';
    return ExitOk;
}

const CommandRegistration reg({ "export-command",
    QT_TRANSLATE_NOOP("ServeScope::Cli", "Print a load point as a vllm bench serve or sglang.bench_serving command"),
    &runExportCommand });

} // namespace

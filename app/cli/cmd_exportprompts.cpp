// SPDX-License-Identifier: MIT
// servescope-cli export-prompts: the exact prompts one point of a stored run sent, as datasets
// vLLM's and SGLang's benchmark clients replay, with the commands that replay them.
#include "clitext.h"
#include "command.h"
#include "compare/storedrun.h"

#include "postrun/promptexport.h"
#include "storage/projectstore.h"

#include <QCommandLineParser>
#include <QTextStream>

#include <cstdio>

namespace {

using namespace ServeScope;
using namespace ServeScope::Cli;

int runExportPrompts(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(CliText::tr(
        "Writes the prompts one load point of a stored run sent, in the order it sent them, as vLLM's custom "
        "dataset (STEM.jsonl: prompt and output_tokens per line) and as a ShareGPT file for SGLang "
        "(STEM.sharegpt.json), and prints the vllm bench serve and sglang.bench_serving commands that replay them."));
    parser.addHelpOption();
    parser.addOptions({
        { QStringLiteral("project"), CliText::tr("Project file (*.servescope)"), QStringLiteral("FILE") },
        { QStringLiteral("run"), CliText::tr("Run: numeric id or unique name"), QStringLiteral("RUN") },
        { QStringLiteral("variant"), CliText::tr("Variant (default: the baseline)"), QStringLiteral("NAME") },
        { QStringLiteral("point"), CliText::tr("Load point label (default: the first)"), QStringLiteral("LABEL") },
        { QStringLiteral("repeat"), CliText::tr("Repeat, from 1 (default 1)"), QStringLiteral("N"),
            QStringLiteral("1") },
        { QStringLiteral("out-dir"), CliText::tr("Folder for the two files (created if missing)"),
            QStringLiteral("DIR") },
    });
    QTextStream out(stdout), err(stderr);
    const auto usage = [&err](const QString &message) {
        err << "servescope-cli export-prompts: " << message << '\n';
        return ExitUsage;
    };
    if (const std::optional<int> done = parseCommand(parser, args, "export-prompts", Positional::None))
        return *done;
    const QString outDir = parser.value(QStringLiteral("out-dir"));
    if (!parser.isSet(QStringLiteral("project")) || !parser.isSet(QStringLiteral("run")) || outDir.isEmpty())
        return usage(CliText::tr("--project FILE, --run RUN and --out-dir DIR are required"));
    bool ok = false;
    const int repeat = parser.value(QStringLiteral("repeat")).toInt(&ok);
    if (!ok || repeat < 1)
        return usage(CliText::tr("--repeat must be a whole number from 1"));
    ProjectStore store;
    if (!store.open(parser.value(QStringLiteral("project")), ProjectStore::Check::Full, ProjectStore::Follow::Snapshot))
        return usage(store.errorString());
    const qint64 runId = store.resolveRun(parser.value(QStringLiteral("run")));
    const std::optional<StoredRun> run = runId ? StoredRun::read(store, runId) : std::nullopt;
    if (!run)
        return usage(store.errorString());
    const RunRow *row = &run->row();
    const QString variant
        = parser.isSet(QStringLiteral("variant")) ? parser.value(QStringLiteral("variant")) : row->variants.value(0);
    int point = 0;
    if (parser.isSet(QStringLiteral("point"))) {
        point = run->pointOfLabel(parser.value(QStringLiteral("point")));
        if (point < 0)
            return usage(CliText::tr("run %1 has no load point labelled '%2'")
                             .arg(row->name, parser.value(QStringLiteral("point"))));
    }
    PointPrompts prompts;
    QString error;
    if (!loadPointPrompts(store, runId, variant, point, repeat, &prompts, &error))
        return usage(error);
    QString custom, shareGpt;
    if (!writePointPrompts(prompts, outDir, &custom, &shareGpt, &error)) {
        err << "servescope-cli export-prompts: " << error << '\n';
        return ExitFailed;
    }
    QStringList warnings;
    const QStringList commands = replayCommands(prompts, custom, shareGpt, &warnings);
    warnings.removeDuplicates();
    out << custom << '\n' << shareGpt << '\n';
    for (const QString &c : commands)
        out << '\n' << c;
    for (const QString &w : std::as_const(warnings))
        err << "warning: " << w << '\n';
    return ExitOk;
}

const CommandRegistration reg({ "export-prompts",
    QT_TRANSLATE_NOOP("ServeScope::Cli",
        "Write a stored point's exact prompts as datasets vllm bench serve and sglang.bench_serving replay"),
    &runExportPrompts });

} // namespace

// SPDX-License-Identifier: MIT
// servescope-cli import FILE... --project P [--verify]: vLLM and SGLang result files, and other benchmark
// tools' (AIPerf, GuideLLM, genai-bench, inference-perf, llmperf, llm-d Benchmark Report), into a project.
#include "clitext.h"
#include "command.h"

#include "import/resultimport.h"
#include "import/resultverify.h"
#include "storage/storewriter.h"

#include <QCommandLineParser>
#include <QLocale>
#include <QTextStream>

namespace {

using namespace ServeScope;
using namespace ServeScope::Cli;

QString num(double v)
{
    return QString::number(v, 'g', QLocale::FloatingPointShortest);
}

// Tabs and line breaks inside a field (a run name from a file's label) would break the line format.
QString oneField(QString s)
{
    for (QChar &c : s) {
        if (c == u'\t' || c == u'\n' || c == u'\r')
            c = u' ';
    }
    return s;
}

// One line per key, tab-separated: where, key, verdict, then the figures and the reason.
QString verifyLine(const QString &path, const ResultRun &run, const KeyCheck &k)
{
    QString line = QStringLiteral("%1:%2\t%3\t%4").arg(path).arg(run.line).arg(k.key, verdictCode(k.verdict));
    if (k.verdict == KeyCheck::Verdict::NotReproducible)
        return line + u'\t' + k.reason;
    line += QStringLiteral("\tfile %1 recomputed %2").arg(num(k.fileValue), num(k.recomputed));
    if (k.verdict != KeyCheck::Verdict::Reproduced)
        line += QStringLiteral(" (relative difference %1)").arg(num(k.relative));
    if (!k.reason.isEmpty())
        line += u'\t' + k.reason;
    return line;
}

int runImport(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(CliText::tr(
        "Imports vLLM result files (--save-result, --append-result; every released key set) and SGLang's\n"
        "bench_serving JSON lines into a project, and the result files of AIPerf, GuideLLM, genai-bench,\n"
        "inference-perf, llmperf and llm-d Benchmark Reports (each figure under the vLLM definition it\n"
        "equals; docs/import.md). Lines of a file that differ only in rate or concurrency become the\n"
        "points of one run. Prints one line per run created: id, name, source (tab-separated).\n"
        "--verify recomputes each statistic from the file's per-request arrays and prints one line per key.\n"
        "Exit 0; 1 when --verify found a mismatch with no known reason; 2 when a file or line was malformed\n"
        "(the other files and lines are still imported) or on a usage error."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("FILE"),
        CliText::tr("Result files (.json, .jsonl, .yaml), or folders of Benchmark Reports."),
        QStringLiteral("FILE..."));
    const QCommandLineOption projectOption(QStringLiteral("project"),
        CliText::tr("Project file to import into (created when missing)."), QStringLiteral("P"));
    const QCommandLineOption verifyOption(
        QStringLiteral("verify"), CliText::tr("Recompute every statistic from the per-request arrays."));
    parser.addOption(projectOption);
    parser.addOption(verifyOption);
    QTextStream err(stderr);
    QTextStream out(stdout);
    if (const std::optional<int> done = parseCommand(parser, args, "import", Positional::Allowed))
        return *done;
    const QStringList files = parser.positionalArguments();
    if (files.isEmpty() || !parser.isSet(projectOption)) {
        err << "servescope-cli import: " << CliText::tr("expected FILE... and --project P") << '\n';
        return ExitUsage;
    }
    StoreWriter writer;
    QString error;
    if (!writer.open(parser.value(projectOption), &error)) {
        err << "servescope-cli import: " << error << '\n';
        return ExitUsage;
    }
    ResultImporter importer(writer);
    QStringList verifyLines;
    bool unexplained = false;
    QString current;
    if (parser.isSet(verifyOption)) {
        importer.setLineCallback([&](const ResultRun &run, const QString &) {
            if (!run.hasArrays) {
                verifyLines << QStringLiteral("%1:%2\t(all)\tnot-reproducible\tthe line has no per-request arrays "
                                              "(ttfts, itls, latencies, ...): its statistics are stored as given")
                                   .arg(current)
                                   .arg(run.line);
                return;
            }
            for (const KeyCheck &k : verifyResultRun(run)) {
                verifyLines << verifyLine(current, run, k);
                unexplained = unexplained || k.verdict == KeyCheck::Verdict::Mismatched;
            }
        });
    }
    bool malformed = false;
    for (const QString &file : files) {
        current = file;
        const ImportOutcome o = importer.importFile(file);
        for (const ImportedRun &r : o.runs)
            out << r.id << '\t' << oneField(r.name) << '\t' << oneField(r.source) << '\n';
        for (const QString &w : o.shownLines(o.warnings))
            err << "warning: " << w << '\n';
        for (const QString &e : o.shownLines(o.errors))
            err << "error: " << e << '\n';
        malformed = malformed || o.failed();
        out.flush();
    }
    writer.close();
    for (const QString &l : std::as_const(verifyLines))
        out << l << '\n';
    if (malformed)
        return ExitUsage;
    return unexplained ? ExitFailed : ExitOk;
}

const CommandRegistration reg({ "import",
    QT_TRANSLATE_NOOP("ServeScope::Cli", "Import vLLM, SGLang or other benchmark tools' result files into a project"),
    &runImport });

} // namespace

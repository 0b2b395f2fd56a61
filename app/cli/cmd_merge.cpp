// SPDX-License-Identifier: MIT
// servescope-cli merge: the stored runs of a sharded load (run --shard) as one run.
#include "clitext.h"
#include "command.h"

#include "postrun/shardmerge.h"

#include <QCommandLineParser>
#include <QTextStream>

namespace {

using namespace ServeScope;
using namespace ServeScope::Cli;

QString ms(double v)
{
    return QString::number(v, 'f', 2);
}

void printMerge(const ShardMerge &m)
{
    QTextStream out(stdout);
    out << "variant\tpoint\trepeat\tcompleted\tfailed\trequest_throughput\toutput_throughput\t"
           "median_ttft_ms\tp99_ttft_ms\tmedian_tpot_ms\tmax_concurrent_requests\n";
    for (const PointSummary &s : m.points) {
        out << s.variant << '\t' << s.label << '\t' << s.repeat << '\t' << s.completed << '\t' << s.failed << '\t'
            << QString::number(s.requestThroughput, 'f', 3) << '\t' << QString::number(s.outputThroughput, 'f', 1)
            << '\t' << ms(s.ttft.median) << '\t' << ms(s.ttft.p99) << '\t' << ms(s.tpot.median) << '\t'
            << s.maxConcurrentRequests << '\n';
    }
    out << "start_spread_ms\t" << QString::number(m.startSpreadMs, 'f', 3) << '\n';
    out << "point_start_spread_ms\t" << QString::number(m.pointSpreadMs, 'f', 3) << '\t' << m.pointSpreadAt << '\n';
    out << "merged\t" << m.runId << '\t' << m.shards << '\t' << m.completed << '\t' << m.failed << '\n';
}

int runMerge(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(CliText::tr(
        "Merges the shard runs of one sharded load (run --shard I/N), one PROJECT file per shard, into one run."));
    parser.addHelpOption();
    parser.addPositionalArgument(
        QStringLiteral("PROJECT"), CliText::tr("A shard's project file"), QStringLiteral("PROJECT..."));
    parser.addOptions({
        { QStringLiteral("project"), CliText::tr("Project file to write the merged run into"), QStringLiteral("FILE") },
        { QStringLiteral("run"),
            CliText::tr("The shard run in each PROJECT, in order (repeat once per PROJECT; default: its latest)"),
            QStringLiteral("ID") },
        { QStringLiteral("name"), CliText::tr("Merged run name (default: experiment, shard count, start)"),
            QStringLiteral("NAME") },
    });
    QTextStream err(stderr);
    if (const std::optional<int> done = parseCommand(parser, args, "merge", Positional::Allowed))
        return *done;
    const QStringList projects = parser.positionalArguments();
    const QStringList runs = parser.values(QStringLiteral("run"));
    if (projects.isEmpty() || !parser.isSet(QStringLiteral("project"))) {
        err << "servescope-cli merge: " << CliText::tr("expected PROJECT... and --project FILE") << '\n';
        return ExitUsage;
    }
    if (!runs.isEmpty() && runs.size() != projects.size()) {
        err << "servescope-cli merge: "
            << CliText::tr("--run is given %1 times for %2 projects; give it once per PROJECT or not at all")
                   .arg(runs.size())
                   .arg(projects.size())
            << '\n';
        return ExitUsage;
    }
    QList<ShardSource> sources;
    for (int i = 0; i < projects.size(); ++i)
        sources << ShardSource { projects[i], runs.value(i) };
    const ShardMerge m
        = mergeShards(sources, parser.value(QStringLiteral("project")), parser.value(QStringLiteral("name")));
    if (!m.ok) {
        err << "servescope-cli merge: " << m.error << '\n';
        return m.runId == 0 ? ExitUsage : ExitFailed;
    }
    for (const QString &f : m.findingTexts())
        err << "finding: " << f << '\n';
    printMerge(m);
    return ExitOk;
}

const CommandRegistration reg({ "merge",
    QT_TRANSLATE_NOOP("ServeScope::Cli", "Merge the shard runs of a sharded load into one run"), &runMerge });

} // namespace

// SPDX-License-Identifier: MIT
// servescope-cli validate EXPERIMENT: read an experiment file (any supported layout), print every
// problem as "path: reason" and, per variant, the variables that differ from the baseline.
#include "clitext.h"
#include "command.h"
#include "engine/fdlimit.h"

#include "io/experimentfile.h"
#include "model/validation.h"
#include "model/variables.h"
#include "workload/datasets.h"

#include <QCommandLineParser>
#include <QTextStream>

#include <cstdio>

using namespace ServeScope;
using namespace ServeScope::Cli;

namespace {

bool parseFormat(const QString &s, ExperimentFormat *out)
{
    for (ExperimentFormat f : { ExperimentFormat::Auto, ExperimentFormat::Json, ExperimentFormat::BenchConfig,
             ExperimentFormat::TomlLoadMatrix, ExperimentFormat::TomlBench, ExperimentFormat::EnvSnapshot }) {
        if (s == experimentFormatName(f)) {
            *out = f;
            return true;
        }
    }
    return false;
}

QString line(const Problem &p)
{
    return p.isError() ? p.toString() : QLatin1String("warning: ") + p.toString();
}

void printVariants(QTextStream &out, const Experiment &x, const QList<Problem> &problems)
{
    const int base = x.baselineIndex();
    for (int i = 0; i < x.variants.size(); ++i) {
        out << "variant " << x.variants.at(i).name << ':';
        if (i == base) {
            out << " baseline\n";
        } else {
            const QList<VariableDifference> diffs = diffVariants(x, i);
            if (diffs.isEmpty())
                out << " same as the baseline";
            out << '\n';
            for (const VariableDifference &d : diffs)
                out << "  " << d.path << ' ' << describeValue(d.baseline) << " -> " << describeValue(d.variant) << '\n';
        }
        if (!x.variants.at(i).reason.isEmpty())
            out << "  reason: " << x.variants.at(i).reason << '\n';
        for (const Problem &p : problems) {
            if (p.variant == i)
                out << "  " << line(p) << '\n';
        }
    }
}

// A snapshot on its own is not an experiment: it is checked and listed, to be attached to a run
// (`run --env-snapshot FILE`) or pasted in the GUI.
int printEnvSnapshot(QTextStream &out, const QString &path, const Experiment &x, int warnings)
{
    for (const EnvEntry &e : x.envSnapshot)
        out << "env\t" << e.key << '\t' << e.value << '\t' << envSourceName(e.source) << '\n';
    out << path << ": valid (" << experimentFormatName(ExperimentFormat::EnvSnapshot) << ", " << x.envSnapshot.size()
        << " fields, 0 errors, " << warnings << " warnings)\n";
    return ExitOk;
}

} // namespace

static int runValidate(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        CliText::tr("Check an experiment file (native JSON, bench_config.json, or either TOML layout) and show each\n"
                    "variant's differences from the baseline. Exit 0 when valid (warnings allowed), 2 when the file\n"
                    "is malformed or invalid."));
    parser.addHelpOption();
    const QCommandLineOption formatOption(QStringLiteral("format"),
        CliText::tr("Force a layout: json, bench_config, toml-load-matrix, toml-bench, env-snapshot (default: auto)."),
        QStringLiteral("layout"), QStringLiteral("auto"));
    parser.addOption(formatOption);
    parser.addPositionalArgument(QStringLiteral("EXPERIMENT"), CliText::tr("Experiment file (.json or .toml)."));
    QTextStream err(stderr);
    if (const std::optional<int> done = parseCommand(parser, args, "validate", Positional::Allowed))
        return *done;
    ExperimentFormat format = ExperimentFormat::Auto;
    if (!parseFormat(parser.value(formatOption), &format)) {
        err << "servescope-cli validate: " << CliText::tr("unknown --format '%1'").arg(parser.value(formatOption))
            << '\n';
        return ExitUsage;
    }
    if (parser.positionalArguments().size() != 1) {
        err << "servescope-cli validate: " << CliText::tr("expected exactly one EXPERIMENT file (see --help)") << '\n';
        return ExitUsage;
    }
    const QString path = parser.positionalArguments().first();
    const ExperimentReadResult read = loadExperimentFile(path, format);
    QTextStream out(stdout);
    if (!read.ok) {
        for (const QString &e : read.errors)
            out << e << '\n';
        out << path << ": malformed (" << experimentFormatName(read.format) << ")\n";
        return ExitUsage;
    }
    for (const QString &w : read.warnings)
        out << "warning: " << w << '\n';
    const Experiment &x = read.experiment;
    if (read.format == ExperimentFormat::EnvSnapshot)
        return printEnvSnapshot(out, path, x, int(read.warnings.size()));
    // Limits of this machine too: a point no run here could open is refused now, not at its turn.
    QList<Problem> problems = validate(x) + descriptorProblems(x);
    problems << checkDatasets(x);
    int errors = 0, warnings = int(read.warnings.size());
    for (const Problem &p : problems) {
        (p.isError() ? errors : warnings) += 1;
        if (p.variant < 0)
            out << line(p) << '\n';
    }
    QStringList labels;
    for (int i = 0; i < x.load.points.size(); ++i)
        labels << x.pointLabel(i);
    out << "points: " << labels.join(QLatin1String(", ")) << '\n';
    // A trace's own rate: the request_rate that replays it at its own speed.
    DatasetContent content;
    QString error;
    if (x.dataset.name == QLatin1String("trace")
        && loadDataset(x.dataset, &content, &error, nullptr, traceRowsNeeded(x))) {
        const TraceProfile t = traceProfile(*content.trace, x.dataset.blockSize);
        out << "trace: " << traceFormatName(t.format) << ", " << t.requests << " requests over "
            << QString::number(t.durationSeconds, 'f', 3) << " s, " << QString::number(t.rate, 'g', 6) << " req/s, "
            << QString::number(100 * t.repeatedShare, 'f', 1) << "% of prompt tokens in repeated blocks\n";
    }
    printVariants(out, x, problems);
    out << path << ": " << (errors ? "invalid" : "valid") << " (" << experimentFormatName(read.format) << ", "
        << x.variants.size() << " variants, " << x.load.points.size() << " points, " << errors << " errors, "
        << warnings << " warnings)\n";
    return errors ? ExitUsage : ExitOk;
}

static const CommandRegistration reg({ "validate",
    QT_TRANSLATE_NOOP("ServeScope::Cli", "Check an experiment file and show its variants"), &runValidate });

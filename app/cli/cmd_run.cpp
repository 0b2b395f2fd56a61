// SPDX-License-Identifier: MIT
// servescope-cli run: runs an experiment into the project and, with --out-dir, a results folder.
#include "command.h"
#include "progressprinter.h"
#include "sigintwatcher.h"

#include "io/experimentfile.h"
#include "model/validation.h"
#include "run/runcontroller.h"
#include "secrets/apikey.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QTextStream>

namespace {

using namespace ServeScope;
using namespace ServeScope::Cli;

QString ms(double v)
{
    return QString::number(v, 'f', 2);
}

void printPoints(const RunResult &result)
{
    QTextStream out(stdout);
    out << "variant\tpoint\trepeat\tcompleted\tfailed\trequest_throughput\toutput_throughput\t"
           "median_ttft_ms\tp99_ttft_ms\tmedian_tpot_ms\tmedian_itl_ms\tp99_itl_ms\n";
    for (const PointSummary &s : result.points) {
        out << s.variant << '\t' << s.label << '\t' << s.repeat << '\t' << s.completed << '\t' << s.failed << '\t'
            << QString::number(s.requestThroughput, 'f', 3) << '\t' << QString::number(s.outputThroughput, 'f', 1)
            << '\t' << ms(s.ttft.median) << '\t' << ms(s.ttft.p99) << '\t' << ms(s.tpot.median) << '\t'
            << ms(s.itl.median) << '\t' << ms(s.itl.p99) << '\n';
    }
}

int runRun(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Runs an experiment: every variant through every point and repeat."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("EXPERIMENT"), QStringLiteral("Experiment file (JSON or TOML)"));
    parser.addOptions({
        { QStringLiteral("variant"), QStringLiteral("Run only this variant (repeatable)"), QStringLiteral("NAME") },
        { QStringLiteral("project"), QStringLiteral("Project file (default: EXPERIMENT with .servescope)"),
            QStringLiteral("FILE") },
        { QStringLiteral("out-dir"), QStringLiteral("Results folder: manifest, vLLM result files, summary.csv"),
            QStringLiteral("DIR") },
        { QStringLiteral("allow-launch"), QStringLiteral("Allow running the experiment's server launch command") },
        { QStringLiteral("sim-time-scale"),
            QStringLiteral("Speed-up of the built-in simulator for a \"sim:\" endpoint"), QStringLiteral("X"),
            QStringLiteral("1") },
        { QStringLiteral("name"), QStringLiteral("Run name (default: experiment name and UTC time)"),
            QStringLiteral("NAME") },
    });
    QTextStream err(stderr);
    if (!parser.parse(args)) {
        err << "servescope-cli run: " << parser.errorText() << '\n';
        return ExitUsage;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        QTextStream(stdout) << parser.helpText();
        return ExitOk;
    }
    if (parser.positionalArguments().size() != 1) {
        err << "servescope-cli run: expected one EXPERIMENT file\n";
        return ExitUsage;
    }
    bool ok = false;
    const double timeScale = parser.value(QStringLiteral("sim-time-scale")).toDouble(&ok);
    if (!ok || timeScale <= 0) {
        err << "servescope-cli run: --sim-time-scale must be a positive number\n";
        return ExitUsage;
    }

    const QString path = parser.positionalArguments().constFirst();
    const ExperimentReadResult read = loadExperimentFile(path);
    if (!read.ok) {
        for (const QString &e : read.errors)
            err << path << ": " << e << '\n';
        return ExitUsage;
    }
    const QList<Problem> problems = validate(read.experiment);
    for (const Problem &p : problems)
        err << (p.isError() ? "error: " : "warning: ") << p.toString() << '\n';
    if (hasErrors(problems))
        return ExitUsage;
    if (!read.experiment.server.launchArgv.isEmpty() && !read.experiment.endpoint.isLocalSimulator()) {
        // Only the built-in simulator is started by ServeScope so far; other servers must already be up.
        err << "servescope-cli run: not running the experiment's launch command; "
               "start the server yourself (only \"sim:\" endpoints are launched)\n";
    }

    RunOptions options;
    const QFileInfo info(path);
    options.projectPath = parser.isSet(QStringLiteral("project"))
        ? parser.value(QStringLiteral("project"))
        : info.dir().filePath(info.completeBaseName() + QStringLiteral(".servescope"));
    options.outDir = parser.value(QStringLiteral("out-dir"));
    options.variants = parser.values(QStringLiteral("variant"));
    options.runName = parser.value(QStringLiteral("name"));
    options.allowLaunch = parser.isSet(QStringLiteral("allow-launch"));
    options.simulatorTimeScale = timeScale;

    const Endpoint &ep = read.experiment.endpoint;
    const KeyReference ref = KeyReference::forEndpoint(ep);
    if (!ep.isLocalSimulator() && !ref.isNull()) {
        const SecretResult key = resolveApiKeyBlocking(ref);
        if (!key.ok) {
            err << "servescope-cli run: " << key.message << '\n';
            return ExitUsage;
        }
        if (key.trimmed)
            err << "servescope-cli run: whitespace around the API key was trimmed\n";
        options.apiKey = key.secret;
    }

    RunController controller(read.experiment, options);
    ProgressPrinter progress;
    RunResult result;
    QObject::connect(&controller, &RunController::snapshotUpdated, &progress, &ProgressPrinter::update);
    QObject::connect(&controller, &RunController::logged, &progress, &ProgressPrinter::log);
    QObject::connect(&controller, &RunController::finished, qApp, [&result, &progress](const RunResult &r) {
        result = r;
        progress.done();
        QCoreApplication::quit();
    });
    SigintWatcher sigint;
    QObject::connect(&sigint, &SigintWatcher::interrupted, &controller, [&controller, &err] {
        err << "\nservescope-cli run: interrupted; saving what was measured...\n";
        err.flush();
        controller.cancel();
    });
    controller.start();
    QCoreApplication::exec();

    printPoints(result);
    QTextStream(stdout) << "run\t" << result.runId << '\t'
                        << (result.status == RunResult::Status::Finished           ? "finished"
                                   : result.status == RunResult::Status::Cancelled ? "cancelled"
                                                                                   : "failed")
                        << '\t' << result.completed << '\t' << result.failed << '\n';
    switch (result.status) {
    case RunResult::Status::Finished:
        return ExitOk;
    case RunResult::Status::Cancelled:
        return ExitInterrupted;
    case RunResult::Status::Failed:
        break;
    }
    if (!result.message.isEmpty())
        err << "servescope-cli run: " << result.message << '\n';
    return result.runId == 0 ? ExitUsage : ExitFailed;
}

const CommandRegistration reg({ "run", "Run an experiment into a project (and a results folder)", &runRun });

} // namespace

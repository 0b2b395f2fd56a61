// SPDX-License-Identifier: MIT
// servescope-cli run: runs an experiment into the project and, with --out-dir, a results folder.
#include "clitext.h"
#include "command.h"

#include "compare/runsource.h"
#include "engine/fdlimit.h"
#include "progressprinter.h"
#include "sigintwatcher.h"

#include "io/experimentfile.h"
#include "metrics/findings.h"
#include "model/redaction.h"
#include "model/validation.h"
#include "run/runcontroller.h"
#include "secrets/apikey.h"
#include "storage/projectstore.h"
#include "workload/datasets.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTextStream>

#include <algorithm>
#include <cmath>

namespace {

using namespace ServeScope;
using namespace ServeScope::Cli;

// A withheld value (a buffered stream's decode timings) is "-", as any value a line does not have.
QString ms(double v)
{
    return std::isfinite(v) ? QString::number(v, 'f', 2) : QStringLiteral("-");
}

/// `run --check-against`: one line per point (agree, or differ with the metrics that differ, or
/// missing), the environment and client-host differences; true when every point agrees.
bool printCheck(const RunSource &earlier, const RunSource &now)
{
    QTextStream out(stdout);
    const RerunCheck check = checkRerun(earlier, now);
    for (const RerunCheck::Point &p : check.points)
        out << "check\t" << p.variant << '\t' << p.label << '\t' << p.outcome << '\t'
            << p.differing.join(QStringLiteral(", ")) << '\n';
    for (const QString &d : check.environment)
        out << "environment\t" << d << '\n';
    return check.allAgree();
}

/// Failed measured requests per failure class, each with the first server message of that class, on
/// stderr. The engine already scrubbed the key; bearer tokens and the key are scrubbed once more here.
void printFailures(const RunResult &result, const QByteArray &apiKey)
{
    if (result.errorsByClass.isEmpty())
        return;
    QTextStream err(stderr);
    int total = 0;
    for (const int n : result.errorsByClass)
        total += n;
    err << "servescope-cli run: "
        << (total == 1 ? CliText::tr("1 measured request failed:")
                       : CliText::tr("%1 measured requests failed:").arg(total))
        << '\n';
    const Redactor redactor({ apiKey });
    for (auto it = result.errorsByClass.cbegin(); it != result.errorsByClass.cend(); ++it) {
        const QString first = redactor.apply(result.firstErrorByClass.value(it.key()).simplified());
        err << "  " << it.key() << '\t' << it.value() << '\t' << CliText::tr("first: %1").arg(first) << '\n';
    }
}

void printPoints(const RunResult &result)
{
    QTextStream out(stdout);
    // multi_turn sessions: the first turns against the later ones, in three more columns.
    const bool sessions = std::any_of(
        result.points.cbegin(), result.points.cend(), [](const PointSummary &s) { return !s.turns.isEmpty(); });
    out << "variant\tpoint\trepeat\tcompleted\tfailed\trequest_throughput\toutput_throughput\t"
           "median_ttft_ms\tp99_ttft_ms\tmedian_tpot_ms\tmedian_itl_ms\tp99_itl_ms\tmedian_ttfo_ms\tp99_ttfo_ms\t"
           "reasoning_share\tcache_hit_rate"
        << (sessions ? "\tfirst_turn_median_ttft_ms\tlater_turn_median_ttft_ms\tlater_turn_cache_hit_rate\n" : "\n");
    const auto turn = [](const PointSummary &s, const char *key, bool percent) {
        const auto it = s.turns.constFind(QLatin1String(key));
        return it == s.turns.cend() ? QStringLiteral("-") : percent ? QString::number(*it / 100, 'f', 3) : ms(*it);
    };
    for (const PointSummary &s : result.points) {
        const double share = s.totalOutputTokens > 0 ? double(s.reasoningTokens) / double(s.totalOutputTokens) : 0.0;
        out << s.variant << '\t' << s.label << '\t' << s.repeat << '\t' << s.completed << '\t' << s.failed << '\t'
            << QString::number(s.requestThroughput, 'f', 3) << '\t' << QString::number(s.outputThroughput, 'f', 1)
            << '\t' << ms(s.ttft.median) << '\t' << ms(s.ttft.p99) << '\t' << ms(s.tpot.median) << '\t'
            << ms(s.itl.median) << '\t' << ms(s.itl.p99) << '\t' << ms(s.ttfo.median) << '\t' << ms(s.ttfo.p99) << '\t'
            << QString::number(share, 'f', 3) << '\t'
            << (s.cachedTokens >= 0 && s.cachedPromptTokens > 0
                       ? QString::number(double(s.cachedTokens) / double(s.cachedPromptTokens), 'f', 3)
                       : QStringLiteral("-"));
        if (sessions)
            out << '\t' << turn(s, "first_turn_median_ttft_ms", false) << '\t'
                << turn(s, "later_turn_median_ttft_ms", false) << '\t' << turn(s, "later_turn_cache_hit_rate", true);
        out << '\n';
    }
}

/// load.capacity: one line per variant searched.
void printCapacities(const RunResult &result)
{
    QTextStream out(stdout);
    for (const CapacityResult &c : result.capacities)
        out << "capacity\t" << c.variant << '\t' << formatNumber(c.capacity) << '\t' << formatNumber(c.upper) << '\t'
            << c.stop << '\t' << c.levels << '\t' << c.measurements << '\n';
}

/// --base-url and --env-snapshot: the experiment as this run sends and records it.
bool applyOverrides(const QCommandLineParser &parser, Experiment *x)
{
    QTextStream err(stderr);
    if (parser.isSet(QStringLiteral("base-url")))
        x->endpoint.baseUrl = parser.value(QStringLiteral("base-url"));
    if (!parser.isSet(QStringLiteral("env-snapshot")))
        return true;
    const QString envPath = parser.value(QStringLiteral("env-snapshot"));
    const ExperimentReadResult env = loadExperimentFile(envPath, ExperimentFormat::Auto);
    if (!env.ok || env.experiment.envSnapshot.isEmpty()) {
        for (const QString &e : env.shownLines(env.errors))
            err << envPath << ": " << e << '\n';
        err << "servescope-cli run: --env-snapshot: " << CliText::tr("%1 holds no environment snapshot").arg(envPath)
            << '\n';
        return false;
    }
    for (const QString &w : env.shownLines(env.warnings))
        err << "warning: " << envPath << ": " << w << '\n';
    for (const EnvEntry &e : env.experiment.envSnapshot) {
        auto same = std::find_if(
            x->envSnapshot.begin(), x->envSnapshot.end(), [&e](const EnvEntry &have) { return have.key == e.key; });
        if (same != x->envSnapshot.end())
            *same = e;
        else
            x->envSnapshot << e;
    }
    return true;
}

/// --shard and --start-at: both or neither, and an experiment a shard can run.
bool parseShardOptions(const QCommandLineParser &parser, const Experiment &x, ShardSpec *shard)
{
    QTextStream err(stderr);
    const bool sharded = parser.isSet(QStringLiteral("shard"));
    if (sharded != parser.isSet(QStringLiteral("start-at"))) {
        err << "servescope-cli run: " << CliText::tr("--shard and --start-at go together") << '\n';
        return false;
    }
    if (!sharded && parser.isSet(QStringLiteral("point-slot"))) {
        err << "servescope-cli run: " << CliText::tr("--point-slot needs --shard and --start-at") << '\n';
        return false;
    }
    if (!sharded)
        return true;
    QString error;
    if (!parseShard(parser.value(QStringLiteral("shard")), shard, &error)
        || !parseStartAt(parser.value(QStringLiteral("start-at")), &shard->startAtUtcNs, &error)
        || (parser.isSet(QStringLiteral("point-slot"))
            && !parsePointSlot(parser.value(QStringLiteral("point-slot")), &shard->pointSlotNs, &error))) {
        err << "servescope-cli run: " << error << '\n';
        return false;
    }
    error = shardProblem(x, *shard);
    if (!error.isEmpty()) {
        err << "servescope-cli run: " << error << '\n';
        return false;
    }
    return true;
}

void addRunOptions(QCommandLineParser &parser)
{
    parser.setApplicationDescription(CliText::tr("Runs an experiment: every variant through every point and repeat."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("EXPERIMENT"), CliText::tr("Experiment file (JSON or TOML)"));
    parser.addOptions({
        { QStringLiteral("variant"), CliText::tr("Run only this variant (repeatable)"), QStringLiteral("NAME") },
        { QStringLiteral("project"), CliText::tr("Project file (default: EXPERIMENT with .servescope)"),
            QStringLiteral("FILE") },
        { QStringLiteral("out-dir"), CliText::tr("Results folder: manifest, vLLM result files, summary.csv"),
            QStringLiteral("DIR") },
        { QStringLiteral("allow-launch"),
            CliText::tr("Start each variant's server from server.launch.argv (stopped after it)") },
        { QStringLiteral("sim-time-scale"), CliText::tr("Speed-up of the built-in simulator for a \"sim:\" endpoint"),
            QStringLiteral("X"), QStringLiteral("1") },
        { QStringLiteral("name"), CliText::tr("Run name (default: experiment name and UTC time)"),
            QStringLiteral("NAME") },
        { QStringLiteral("base-url"),
            CliText::tr("Send the requests here instead (\"sim:\" for the built-in simulator)"),
            QStringLiteral("URL") },
        { QStringLiteral("env-snapshot"),
            CliText::tr("Record this environment snapshot file with the run (fields replace same-named ones)"),
            QStringLiteral("FILE") },
        { QStringLiteral("shard"),
            CliText::tr("Run shard I of N (0-based) of every point's streams and prompts (docs/shards.md)"),
            QStringLiteral("I/N") },
        { QStringLiteral("start-at"),
            CliText::tr("With --shard: the UTC time the first point starts (ISO-8601 with a zone, or now+SECONDS)"),
            QStringLiteral("TIME") },
        { QStringLiteral("point-slot"),
            CliText::tr("With --shard: measured point k (run order, from 0) starts at --start-at plus k x SECONDS"),
            QStringLiteral("SECONDS") },
        { QStringLiteral("check-against"),
            CliText::tr("After the run, check point by point that it agrees within 5% with this stored run of the "
                        "project"),
            QStringLiteral("RUN") },
        { QStringLiteral("vs"),
            CliText::tr("Compare each point, once its repeats are done, with the same point of this stored run of "
                        "the project (a \"vs:\" line on stderr: better, worse, mixed, noise or missing)"),
            QStringLiteral("RUN") },
        { QStringLiteral("reuse-levels"),
            CliText::tr("Capacity search: take the levels this stored run of the project measured (same variant, "
                        "lengths and definitions) as known, judged by this experiment's SLOs"),
            QStringLiteral("RUN") },
    });
}

// The experiment file, with the command line's overrides, checked: nullopt when it may run, else the exit code.
std::optional<int> readRunExperiment(const QCommandLineParser &parser, const QString &path, Experiment *out)
{
    QTextStream err(stderr);
    ExperimentReadResult read = loadExperimentFile(path);
    if (!read.ok) {
        for (const QString &e : read.shownLines(read.errors))
            err << path << ": " << e << '\n';
        return ExitUsage;
    }
    for (const QString &w : read.shownLines(read.warnings))
        err << "warning: " << path << ": " << w << '\n';
    if (read.format == ExperimentFormat::EnvSnapshot) {
        err << "servescope-cli run: "
            << CliText::tr("%1 holds only an environment snapshot; record it with a run: run EXPERIMENT "
                           "--env-snapshot %1")
                   .arg(path)
            << '\n';
        return ExitUsage;
    }
    if (!applyOverrides(parser, &read.experiment))
        return ExitUsage;
    QList<Problem> problems = validate(read.experiment) + descriptorProblems(read.experiment);
    problems << checkDatasets(read.experiment);
    for (const Problem &p : problems)
        err << (p.isError() ? "error: " : "warning: ") << p.translatedString() << '\n';
    if (hasErrors(problems))
        return ExitUsage;
    *out = read.experiment;
    return std::nullopt;
}

// What the run needs before anything is sent: the key, the secret headers, a project that passes its
// full check, the run to check against. nullopt when all are there, else the exit code.
std::optional<int> prepareRun(const Experiment &x, const QString &checkAgainst, RunOptions *options, RunSource *earlier)
{
    QTextStream err(stderr);
    const Endpoint &ep = x.endpoint;
    const KeyReference ref = KeyReference::forEndpoint(ep);
    if (!ep.isLocalSimulator() && !ref.isNull()) {
        const SecretResult key = resolveApiKeyBlocking(ref);
        if (!key.ok) {
            err << "servescope-cli run: " << key.message << '\n';
            return ExitUsage;
        }
        if (key.trimmed)
            err << "servescope-cli run: " << CliText::tr("whitespace around the API key was trimmed") << '\n';
        options->apiKey = key.secret;
    }
    // Secret header values are read again when each variant starts; a missing one is a usage error now.
    for (const auto &[name, variable] : ep.headerEnv) {
        if (const SecretResult value = readApiKeyFromEnvironment(variable); !value.ok) {
            err << "servescope-cli run: endpoint.header_env." << name << ": " << value.message << '\n';
            return ExitUsage;
        }
    }
    // A project that exists is checked whole before anything runs: a foreign, empty or corrupt file
    // is refused with one line and nothing on stdout.
    QString error;
    if (QFileInfo::exists(options->projectPath)
        && !ProjectStore::verify(options->projectPath, ProjectStore::Check::Full, &error)) {
        err << "servescope-cli run: " << error << '\n';
        return ExitUsage;
    }
    // The run to check against is read first: a wrong name must not cost a run.
    if (!checkAgainst.isEmpty() && !loadStoredRun(options->projectPath, checkAgainst, earlier, &error)) {
        err << "servescope-cli run: --check-against: " << error << '\n';
        return ExitUsage;
    }
    return std::nullopt;
}

// Runs with progress on stderr until it ends; Ctrl+C cancels and keeps what was measured.
RunResult execute(const Experiment &x, const RunOptions &options)
{
    RunController controller(x, options);
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
    QObject::connect(&sigint, &SigintWatcher::interrupted, &controller, [&controller] {
        QTextStream err(stderr);
        err << "\nservescope-cli run: " << CliText::tr("interrupted; saving what was measured...") << '\n';
        err.flush();
        controller.cancel();
    });
    controller.start();
    QCoreApplication::exec();
    return result;
}

// The run's lines on stdout and its exit code (with --check-against, the check's).
int reportRun(const RunResult &result, const RunOptions &options, const QString &checkAgainst, const RunSource &earlier)
{
    // The run's own log line (already on stderr) says why it was refused or failed.
    if (result.runId == 0) // refused before a run existed: nothing was measured
        return ExitUsage;
    printPoints(result);
    printCapacities(result);
    printFailures(result, options.apiKey);
    QTextStream(stdout) << "run\t" << result.runId << '\t'
                        << (result.status == RunResult::Status::Finished           ? "finished"
                                   : result.status == RunResult::Status::Cancelled ? "cancelled"
                                                                                   : "failed")
                        << '\t' << result.completed << '\t' << result.failed << '\n';
    switch (result.status) {
    case RunResult::Status::Finished:
        if (!checkAgainst.isEmpty()) {
            RunSource now;
            QString error;
            if (!loadStoredRun(options.projectPath, QString::number(result.runId), &now, &error)) {
                QTextStream(stderr) << "servescope-cli run: --check-against: " << error << '\n';
                return ExitUsage;
            }
            return printCheck(earlier, now) ? ExitOk : ExitFailed;
        }
        return ExitOk;
    case RunResult::Status::Cancelled:
        return ExitInterrupted;
    case RunResult::Status::Failed:
        break;
    }
    return ExitFailed;
}

int runRun(const QStringList &args)
{
    QCommandLineParser parser;
    addRunOptions(parser);
    QTextStream err(stderr);
    if (const std::optional<int> done = parseCommand(parser, args, "run", Positional::Allowed))
        return *done;
    if (parser.positionalArguments().size() != 1) {
        err << "servescope-cli run: " << CliText::tr("expected one EXPERIMENT file") << '\n';
        return ExitUsage;
    }
    bool ok = false;
    const double timeScale = parser.value(QStringLiteral("sim-time-scale")).toDouble(&ok);
    if (!ok || timeScale <= 0) {
        err << "servescope-cli run: " << CliText::tr("--sim-time-scale must be a positive number") << '\n';
        return ExitUsage;
    }
    const QString path = parser.positionalArguments().constFirst();
    Experiment x;
    if (const std::optional<int> refused = readRunExperiment(parser, path, &x))
        return *refused;
    ShardSpec shard;
    if (!parseShardOptions(parser, x, &shard))
        return ExitUsage;
    const bool allowLaunch = parser.isSet(QStringLiteral("allow-launch"));
    if (!x.server.launchArgv.isEmpty() && !x.endpoint.isLocalSimulator() && !allowLaunch) {
        // Running a command from a file needs the user's say-so; without it the server must already be up.
        err << "servescope-cli run: "
            << CliText::tr("not running the experiment's launch command without --allow-launch; start the server "
                           "yourself")
            << '\n';
    }
    RunOptions options;
    const QFileInfo info(path);
    options.projectPath = parser.isSet(QStringLiteral("project"))
        ? parser.value(QStringLiteral("project"))
        : info.dir().filePath(info.completeBaseName() + QStringLiteral(".servescope"));
    options.outDir = parser.value(QStringLiteral("out-dir"));
    options.variants = parser.values(QStringLiteral("variant"));
    options.runName = parser.value(QStringLiteral("name"));
    options.allowLaunch = allowLaunch;
    options.simulatorTimeScale = timeScale;
    options.shard = shard;
    options.vs = parser.value(QStringLiteral("vs"));
    options.reuseLevels = parser.value(QStringLiteral("reuse-levels"));
    const QString checkAgainst = parser.value(QStringLiteral("check-against"));
    RunSource earlier;
    if (const std::optional<int> refused = prepareRun(x, checkAgainst, &options, &earlier))
        return *refused;
    return reportRun(execute(x, options), options, checkAgainst, earlier);
}

const CommandRegistration reg({ "run",
    QT_TRANSLATE_NOOP("ServeScope::Cli", "Run an experiment into a project (and a results folder)"), &runRun });

} // namespace

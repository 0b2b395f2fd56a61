// SPDX-License-Identifier: MIT
// servescope-cli k8s-job: an Indexed Job manifest that runs an experiment's shards as pods.
#include "clitext.h"
#include "command.h"
#include "io/k8smanifest.h"

#include "io/experimentfile.h"
#include "model/validation.h"
#include "run/shard.h"

#include <QCommandLineParser>
#include <QJsonDocument>
#include <QTextStream>

namespace {

using namespace ServeScope;
using namespace ServeScope::Cli;

/// The variables the pods read secrets from; false (message on stderr) when a pod could not get them.
bool secretVariables(const Endpoint &ep, const QString &secret, QStringList *out)
{
    QTextStream err(stderr);
    if (!ep.keychainEntry.isEmpty()) {
        err << "servescope-cli k8s-job: "
            << CliText::tr("the endpoint's key is in a keychain entry, which a pod does not have; name an "
                           "environment variable with endpoint.api_key_env instead")
            << '\n';
        return false;
    }
    if (!ep.apiKeyEnv.isEmpty())
        *out << ep.apiKeyEnv;
    for (const auto &[header, variable] : ep.headerEnv)
        *out << variable;
    out->removeDuplicates();
    if (!out->isEmpty() && secret.isEmpty()) {
        err << "servescope-cli k8s-job: "
            << CliText::tr("the experiment reads %1 from the environment: give --secret NAME, a Secret with a key "
                           "of each of those names")
                   .arg(out->join(QLatin1String(", ")))
            << '\n';
        return false;
    }
    if (out->isEmpty() && !secret.isEmpty()) {
        err << "servescope-cli k8s-job: "
            << CliText::tr("--secret %1: the experiment reads no key or secret header from the environment").arg(secret)
            << '\n';
        return false;
    }
    return true;
}

bool readSpec(const QCommandLineParser &parser, K8sJobSpec *spec)
{
    QTextStream err(stderr);
    bool ok = false;
    spec->shards = parser.value(QStringLiteral("shards")).toInt(&ok);
    spec->image = parser.value(QStringLiteral("image"));
    spec->resultsClaim = parser.value(QStringLiteral("results-claim"));
    spec->namespaceName = parser.value(QStringLiteral("namespace"));
    spec->secret = parser.value(QStringLiteral("secret"));
    if (!ok || spec->shards < 1) {
        err << "servescope-cli k8s-job: " << CliText::tr("--shards must be a whole number of at least 1") << '\n';
        return false;
    }
    if (spec->image.isEmpty() || spec->resultsClaim.isEmpty() || !parser.isSet(QStringLiteral("start-at"))) {
        err << "servescope-cli k8s-job: " << CliText::tr("--image, --results-claim and --start-at are required")
            << '\n';
        return false;
    }
    qint64 startNs = 0;
    QString error;
    if (!parseStartAt(parser.value(QStringLiteral("start-at")), &startNs, &error)) {
        err << "servescope-cli k8s-job: " << error << '\n';
        return false;
    }
    // Resolved now: every pod gets the same absolute time, whenever it is scheduled.
    spec->startAt = utcIsoMs(startNs);
    if (parser.isSet(QStringLiteral("point-slot"))) {
        qint64 slotNs = 0;
        if (!parsePointSlot(parser.value(QStringLiteral("point-slot")), &slotNs, &error)) {
            err << "servescope-cli k8s-job: " << error << '\n';
            return false;
        }
        spec->pointSlot = QString::number(double(slotNs) / 1e9);
    }
    return true;
}

int runK8sJob(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(CliText::tr(
        "Prints a Kubernetes Indexed Job (YAML) that runs the experiment's N shards as pods from one start time."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("EXPERIMENT"), CliText::tr("Experiment file (JSON or TOML)"));
    parser.addOptions({
        { QStringLiteral("shards"), CliText::tr("Number of shards (pods)"), QStringLiteral("N") },
        { QStringLiteral("image"), CliText::tr("Container image with servescope-cli on its PATH"),
            QStringLiteral("IMAGE") },
        { QStringLiteral("start-at"),
            CliText::tr("UTC start of the first point (ISO-8601 with a zone, or now+SECONDS resolved now)"),
            QStringLiteral("TIME") },
        { QStringLiteral("point-slot"),
            CliText::tr("Every pod's run --point-slot: measured point k starts at --start-at plus k x SECONDS"),
            QStringLiteral("SECONDS") },
        { QStringLiteral("results-claim"),
            CliText::tr("PersistentVolumeClaim mounted at /results for the shards' project files"),
            QStringLiteral("NAME") },
        { QStringLiteral("namespace"), CliText::tr("Namespace of the Job and its ConfigMap"), QStringLiteral("NS") },
        { QStringLiteral("secret"), CliText::tr("Secret with the experiment's key variables as keys"),
            QStringLiteral("NAME") },
        { QStringLiteral("json"), CliText::tr("Print the manifest as JSON (also valid YAML) instead") },
    });
    QTextStream err(stderr);
    if (const std::optional<int> done = parseCommand(parser, args, "k8s-job", Positional::Allowed))
        return *done;
    if (parser.positionalArguments().size() != 1) {
        err << "servescope-cli k8s-job: " << CliText::tr("expected one EXPERIMENT file") << '\n';
        return ExitUsage;
    }
    K8sJobSpec spec;
    if (!readSpec(parser, &spec))
        return ExitUsage;
    const QString path = parser.positionalArguments().constFirst();
    const ExperimentReadResult read = loadExperimentFile(path);
    if (!read.ok || read.format == ExperimentFormat::EnvSnapshot) {
        for (const QString &e : read.shownLines(read.errors))
            err << path << ": " << e << '\n';
        err << "servescope-cli k8s-job: " << CliText::tr("%1 is not a runnable experiment").arg(path) << '\n';
        return ExitUsage;
    }
    const QList<Problem> problems = validate(read.experiment);
    for (const Problem &p : problems)
        err << (p.isError() ? "error: " : "warning: ") << p.translatedString() << '\n';
    if (hasErrors(problems))
        return ExitUsage;
    const QString problem = shardProblem(read.experiment, ShardSpec { 0, spec.shards, 0 });
    if (!problem.isEmpty()) {
        err << "servescope-cli k8s-job: " << problem << '\n';
        return ExitUsage;
    }
    if (!secretVariables(read.experiment.endpoint, spec.secret, &spec.secretVariables))
        return ExitUsage;
    spec.name = k8sName(read.experiment.name);
    spec.experimentJson = writeExperimentJson(read.experiment);
    const QJsonObject manifest = k8sJobManifest(spec);
    QTextStream(stdout) << (parser.isSet(QStringLiteral("json")) ? QJsonDocument(manifest).toJson() : toYaml(manifest));
    return ExitOk;
}

const CommandRegistration reg({ "k8s-job",
    QT_TRANSLATE_NOOP("ServeScope::Cli", "Print a Kubernetes Indexed Job that runs an experiment's shards"),
    &runK8sJob });

} // namespace

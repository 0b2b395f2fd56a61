// SPDX-License-Identifier: MIT
// servescope-cli pull: copies a published run from the team database into a local project file.
#include "clitext.h"
#include "command.h"
#include "teamdbflags.h"

#include "teamdb/teamdbquery.h"

#include <QCommandLineParser>
#include <QTextStream>

namespace {

using namespace ServeScope;
using namespace ServeScope::Cli;

int runPull(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        CliText::tr("Copies a published run into a project file as a local run and prints its local id. "
                    "A run the project holds already (same stable id) is not copied again."));
    parser.addHelpOption();
    parser.addOptions({
        { QStringLiteral("run"), CliText::tr("Published run id (or a unique prefix of 8+ hex digits)"),
            QStringLiteral("ID") },
        { QStringLiteral("project"), CliText::tr("Project file to copy it into (created when missing)"),
            QStringLiteral("FILE") },
    });
    parser.addOptions(teamDbOptions());
    QTextStream err(stderr);
    const auto usage = [&err](const QString &message) {
        err << "servescope-cli pull: " << message << '\n';
        return ExitUsage;
    };
    if (const std::optional<int> done = parseCommand(parser, args, "pull", Positional::None))
        return *done;
    if (!parser.isSet(QStringLiteral("project")) || !parser.isSet(QStringLiteral("run")))
        return usage(CliText::tr("--run ID and --project FILE are required"));
    TeamDbAccess access;
    QString error;
    if (!readTeamDbAccess(parser, &access, &error))
        return usage(error);
    const QString project = parser.value(QStringLiteral("project"));
    RunBundle bundle;
    QString uid;
    bool unknown = false;
    if (!fetchTeamRun(
            access.url, access.password, parser.value(QStringLiteral("run")), &bundle, &uid, &unknown, &error)) {
        err << "servescope-cli pull: " << error << '\n';
        return unknown ? ExitUsage : ExitFailed;
    }
    const qint64 existing = findLocalRun(project, uid, &error);
    if (existing < 0)
        return usage(error);
    if (existing > 0) {
        err << "info: " << CliText::tr("%1 holds published run %2 already as run %3").arg(project, uid).arg(existing)
            << '\n';
        QTextStream(stdout) << existing << '\n';
        return ExitOk;
    }
    const qint64 id = writeRunBundle(project, bundle, &error);
    if (id == 0) {
        err << "servescope-cli pull: " << error << '\n';
        return ExitFailed;
    }
    err << "info: "
        << CliText::tr("published run %1 copied into %2 as run %3 (%4 requests)")
               .arg(uid, project)
               .arg(id)
               .arg(bundle.requests.size())
        << '\n';
    QTextStream(stdout) << id << '\n';
    return ExitOk;
}

const CommandRegistration reg({ "pull",
    QT_TRANSLATE_NOOP("ServeScope::Cli", "Copy a published run from the team database into a project"), &runPull });

} // namespace

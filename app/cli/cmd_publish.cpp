// SPDX-License-Identifier: MIT
// servescope-cli publish: copies a stored run into the team database (PostgreSQL), once.
#include "clitext.h"
#include "command.h"
#include "teamdbflags.h"

#include "teamdb/teamdbpublish.h"

#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QTextStream>

namespace {

using namespace ServeScope;
using namespace ServeScope::Cli;

bool validTag(const QString &tag)
{
    if (tag.isEmpty() || tag.size() > 64)
        return false;
    for (QChar c : tag) {
        if (c.isSpace() || c.category() == QChar::Other_Control)
            return false;
    }
    return true;
}

int runPublish(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        CliText::tr("Publishes a stored run to the team database in one transaction and prints its stable id. "
                    "Publishing the same run again stores nothing new but its tags."));
    parser.addHelpOption();
    parser.addOptions({
        { QStringLiteral("project"), CliText::tr("Project file holding the run"), QStringLiteral("FILE") },
        { QStringLiteral("run"), CliText::tr("Run id or unique name"), QStringLiteral("RUN") },
        { QStringLiteral("tag"), CliText::tr("A tag to list the run by (repeatable)"), QStringLiteral("TAG") },
    });
    parser.addOptions(teamDbOptions());
    QTextStream err(stderr);
    const auto usage = [&err](const QString &message) {
        err << "servescope-cli publish: " << message << '\n';
        return ExitUsage;
    };
    if (const std::optional<int> done = parseCommand(parser, args, "publish", Positional::None))
        return *done;
    if (!parser.isSet(QStringLiteral("project")) || !parser.isSet(QStringLiteral("run")))
        return usage(CliText::tr("--project FILE and --run RUN are required"));
    PublishOptions options;
    for (const QString &tag : parser.values(QStringLiteral("tag"))) {
        if (!validTag(tag))
            return usage(CliText::tr("a tag is 1 to 64 characters without spaces or control characters"));
        if (!options.tags.contains(tag))
            options.tags << tag;
    }
    TeamDbAccess access;
    QString error;
    if (!readTeamDbAccess(parser, &access, &error))
        return usage(error);
    RunBundle bundle;
    if (!readRunBundle(parser.value(QStringLiteral("project")), parser.value(QStringLiteral("run")), &bundle, &error))
        return usage(error);
    options.note = [&err](const QString &line) { err << "servescope-cli publish: " << line << '\n' << Qt::flush; };
    QElapsedTimer clock;
    clock.start();
    const PublishResult r = publishRun(access.url, access.password, bundle, options);
    if (!r.ok) {
        err << "servescope-cli publish: " << r.error << '\n';
        return ExitFailed;
    }
    const QString seconds = QString::number(double(clock.elapsed()) / 1000.0, 'f', 2);
    if (r.existed)
        err << "info: "
            << (options.tags.isEmpty()
                       ? CliText::tr("run %1 was published before as %2; nothing new stored")
                       : CliText::tr("run %1 was published before as %2; nothing new stored but its tags"))
                   .arg(bundle.run.id)
                   .arg(r.uid)
            << '\n';
    else
        err << "info: "
            << CliText::tr("run %1 published as %2: %3 requests in %4 s")
                   .arg(bundle.run.id)
                   .arg(r.uid)
                   .arg(r.requests)
                   .arg(seconds)
            << '\n';
    QTextStream(stdout) << r.uid << '\n';
    return ExitOk;
}

const CommandRegistration reg({ "publish",
    QT_TRANSLATE_NOOP("ServeScope::Cli", "Publish a stored run to the team database (PostgreSQL)"), &runPublish });

} // namespace

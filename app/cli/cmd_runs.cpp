// SPDX-License-Identifier: MIT
// servescope-cli runs: lists the runs stored in a project file (read-only; the file is never written), or
// with --db the runs published to the team database.
#include "clitext.h"
#include "command.h"
#include "teamdbflags.h"

#include "model/runorigin.h"

#include "storage/projectstore.h"
#include "teamdb/teamdbquery.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

#include <tuple>

#include <cstdio>

namespace {

using namespace ServeScope;
using namespace ServeScope::Cli;

QString isoSeconds(const QDateTime &t)
{
    return t.isValid() ? t.toUTC().toString(Qt::ISODate) : QString();
}

QJsonObject toJson(const RunListing &l)
{
    QJsonArray variants;
    for (const QString &v : l.run.variants)
        variants.append(v);
    return QJsonObject {
        { QStringLiteral("id"), l.run.id },
        { QStringLiteral("name"), l.run.name },
        { QStringLiteral("status"), runStatusCode(l.run.status) },
        { QStringLiteral("started"), isoSeconds(l.run.started) },
        { QStringLiteral("finished"),
            l.run.finished.isValid() ? QJsonValue(isoSeconds(l.run.finished)) : QJsonValue() },
        { QStringLiteral("variants"), int(l.run.variants.size()) },
        { QStringLiteral("variant_names"), variants },
        { QStringLiteral("points"), l.run.points },
        { QStringLiteral("definitions"), l.run.definitions },
        { QStringLiteral("requests"), l.requests },
        { QStringLiteral("completed"), l.completed },
        { QStringLiteral("failed"), l.failed },
        { QStringLiteral("origin"),
            l.run.origin.isEmpty() ? QJsonValue() : QJsonValue(RunOrigin::fromJson(l.run.origin).describe()) },
    };
}

QJsonObject toJson(const TeamRunListing &l)
{
    return QJsonObject {
        { QStringLiteral("id"), l.uid },
        { QStringLiteral("name"), l.name },
        { QStringLiteral("status"), l.status },
        { QStringLiteral("started"), isoSeconds(l.started) },
        { QStringLiteral("experiment"), l.experiment },
        { QStringLiteral("model"), l.model },
        { QStringLiteral("engine"), l.engine },
        { QStringLiteral("tags"), QJsonArray::fromStringList(l.tags) },
        { QStringLiteral("variants"), l.variants },
        { QStringLiteral("points"), l.points },
        { QStringLiteral("requests"), l.requests },
        { QStringLiteral("published_by"), l.publishedBy },
        { QStringLiteral("published_at"), isoSeconds(l.publishedAt) },
    };
}

// --since/--until: a UTC day (YYYY-MM-DD; --until includes it) or an ISO-8601 time with a zone.
bool readDate(const QString &text, bool until, QDateTime *out)
{
    const QDate day = QDate::fromString(text, Qt::ISODate);
    if (day.isValid() && text.size() == 10) {
        *out = QDateTime(until ? day.addDays(1) : day, QTime(0, 0), Qt::UTC);
        return true;
    }
    *out = QDateTime::fromString(text, Qt::ISODateWithMs);
    const bool zoned = text.endsWith(QLatin1Char('Z')) || text.contains(QLatin1Char('+'))
        || text.lastIndexOf(QLatin1Char('-')) > text.indexOf(QLatin1Char('T'));
    return out->isValid() && text.contains(QLatin1Char('T')) && zoned;
}

int runTeamRuns(const QCommandLineParser &parser)
{
    QTextStream err(stderr);
    TeamDbAccess access;
    QString error;
    TeamRunFilter filter;
    filter.experiment = parser.value(QStringLiteral("experiment"));
    filter.model = parser.value(QStringLiteral("model"));
    filter.engine = parser.value(QStringLiteral("engine"));
    filter.tags = parser.values(QStringLiteral("tag"));
    for (const auto &[name, until, target] :
        { std::tuple { "since", false, &filter.since }, std::tuple { "until", true, &filter.until } }) {
        const QString option = QLatin1String(name);
        if (parser.isSet(option) && !readDate(parser.value(option), until, target)) {
            err << "servescope-cli runs: "
                << CliText::tr("--%1 takes YYYY-MM-DD (UTC) or an ISO-8601 time with a zone").arg(option) << '\n';
            return ExitUsage;
        }
    }
    if (!readTeamDbAccess(parser, &access, &error)) {
        err << "servescope-cli runs: " << error << '\n';
        return ExitUsage;
    }
    QVector<TeamRunListing> runs;
    if (!listTeamRuns(access.url, access.password, filter, &runs, &error)) {
        err << "servescope-cli runs: " << error << '\n';
        return ExitFailed;
    }
    QTextStream out(stdout);
    if (parser.isSet(QStringLiteral("json"))) {
        QJsonArray array;
        for (const TeamRunListing &l : std::as_const(runs))
            array.append(toJson(l));
        out << QString::fromUtf8(QJsonDocument(array).toJson(QJsonDocument::Indented));
        return ExitOk;
    }
    for (const TeamRunListing &l : std::as_const(runs)) {
        out << l.uid << '\t' << oneField(l.name) << '\t' << l.status << '\t' << isoSeconds(l.started) << '\t'
            << oneField(l.experiment) << '\t' << oneField(l.model) << '\t' << oneField(l.engine) << '\t'
            << l.tags.join(QLatin1Char(',')) << '\t' << l.variants << '\t' << l.points << '\t' << l.requests << '\t'
            << oneField(l.publishedBy) << '\n';
    }
    return ExitOk;
}

int runRuns(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(CliText::tr(
        "Lists the runs of a project file: id, name, status, started (ISO-8601 UTC), variants, points; or with --db "
        "the published runs: id, name, status, started, experiment, model, engine, tags, variants, points, requests, "
        "published_by; tab-separated."));
    parser.addHelpOption();
    parser.addOptions({
        { QStringLiteral("project"), CliText::tr("Project file (*.servescope)"), QStringLiteral("FILE") },
        { QStringLiteral("json"), CliText::tr("Print a JSON array instead of lines") },
        { QStringLiteral("experiment"), CliText::tr("With --db: only runs of this experiment"),
            QStringLiteral("NAME") },
        { QStringLiteral("model"), CliText::tr("With --db: only runs against this model"), QStringLiteral("ID") },
        { QStringLiteral("engine"), CliText::tr("With --db: only runs of this engine (vllm, sglang, ...)"),
            QStringLiteral("ENGINE") },
        { QStringLiteral("since"), CliText::tr("With --db: started on or after (YYYY-MM-DD or ISO-8601 time)"),
            QStringLiteral("DATE") },
        { QStringLiteral("until"), CliText::tr("With --db: started on or before (YYYY-MM-DD or ISO-8601 time)"),
            QStringLiteral("DATE") },
        { QStringLiteral("tag"), CliText::tr("With --db: only runs with this tag (repeatable: all of them)"),
            QStringLiteral("TAG") },
    });
    parser.addOptions(teamDbOptions());
    QTextStream err(stderr);
    if (const std::optional<int> done = parseCommand(parser, args, "runs", Positional::None))
        return *done;
    const bool db = parser.isSet(QStringLiteral("db"));
    if (db && parser.isSet(QStringLiteral("project"))) {
        err << "servescope-cli runs: " << CliText::tr("give either --project FILE or --db URL, not both") << '\n';
        return ExitUsage;
    }
    if (!db && !parser.isSet(QStringLiteral("project"))) {
        err << "servescope-cli runs: " << CliText::tr("--project FILE is required (or --db URL for the team database)")
            << '\n';
        return ExitUsage;
    }
    if (db)
        return runTeamRuns(parser);
    for (const char *option :
        { "experiment", "model", "engine", "since", "until", "tag", "db-password", "db-password-env" }) {
        if (parser.isSet(QLatin1String(option))) {
            err << "servescope-cli runs: " << CliText::tr("--%1 needs --db URL").arg(QLatin1String(option)) << '\n';
            return ExitUsage;
        }
    }
    ProjectStore store;
    QVector<RunListing> runs;
    if (!store.open(parser.value(QStringLiteral("project")), ProjectStore::Check::Full, ProjectStore::Follow::Snapshot)
        || !store.listRuns(&runs)) {
        err << "servescope-cli runs: " << store.errorString() << '\n';
        return ExitUsage;
    }
    QTextStream out(stdout);
    if (parser.isSet(QStringLiteral("json"))) {
        QJsonArray array;
        for (const RunListing &l : runs)
            array.append(toJson(l));
        out << QString::fromUtf8(QJsonDocument(array).toJson(QJsonDocument::Indented));
        return ExitOk;
    }
    for (const RunListing &l : runs) {
        out << l.run.id << '\t' << oneField(l.run.name) << '\t' << runStatusCode(l.run.status) << '\t'
            << isoSeconds(l.run.started) << '\t' << l.run.variants.size() << '\t' << l.run.points << '\n';
    }
    return ExitOk;
}

const CommandRegistration reg(
    { "runs", QT_TRANSLATE_NOOP("ServeScope::Cli", "List the runs stored in a project file"), &runRuns });

} // namespace

// SPDX-License-Identifier: MIT
// servescope-cli runs: lists the runs stored in a project file (read-only; the file is never written).
#include "command.h"

#include "model/runorigin.h"

#include "storage/projectstore.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

#include <cstdio>

namespace {

using namespace ServeScope;
using namespace ServeScope::Cli;

QString isoSeconds(const QDateTime &t)
{
    return t.isValid() ? t.toUTC().toString(Qt::ISODate) : QString();
}

// Line output is one record per line and tab-separated: keep names from breaking either.
QString oneField(QString s)
{
    for (QChar &c : s) {
        if (c == QLatin1Char('\t') || c == QLatin1Char('\n') || c == QLatin1Char('\r'))
            c = QLatin1Char(' ');
    }
    return s;
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

int runRuns(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Lists the runs of a project file: id, name, status, started "
                                                    "(ISO-8601 UTC), variants, points; tab-separated."));
    parser.addHelpOption();
    parser.addOptions({
        { QStringLiteral("project"), QStringLiteral("Project file (*.servescope)"), QStringLiteral("FILE") },
        { QStringLiteral("json"), QStringLiteral("Print a JSON array instead of lines") },
    });
    QTextStream err(stderr);
    if (!parser.parse(args)) {
        err << "servescope-cli runs: " << parser.errorText() << '\n';
        return ExitUsage;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        QTextStream(stdout) << parser.helpText();
        return ExitOk;
    }
    if (!parser.positionalArguments().isEmpty()) {
        err << "servescope-cli runs: unexpected argument '" << parser.positionalArguments().first() << "'\n";
        return ExitUsage;
    }
    if (!parser.isSet(QStringLiteral("project"))) {
        err << "servescope-cli runs: --project FILE is required\n";
        return ExitUsage;
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

const CommandRegistration reg({ "runs", "List the runs stored in a project file", &runRuns });

} // namespace

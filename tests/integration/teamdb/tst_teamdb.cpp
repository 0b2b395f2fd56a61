// SPDX-License-Identifier: MIT
// The team database against a real PostgreSQL (a throwaway cluster, pgcluster.h): publish, list with
// filters and pull, through `servescope-cli`, of runs `servescope-cli run` measured against simulators.
#include "requireservice.h"
#include "runcompare.h"
#include "teamdbfixture.h"

#include "metrics/aggregate.h"
#include "storage/projectstore.h"
#include "teamdb/runbundle.h"
#include "teamdb/teamdbschema.h"

#include <QTest>

#include <map>

using namespace ServeScope;

namespace {

struct Stored {
    RunRow row;
    QVector<PointSummary> summaries;
    QVector<PointEstimate> estimates;
    QVector<RequestRecord> requests;
    QVector<ServerMetricSample> samples;
};

Stored load(const QString &project, qint64 run)
{
    Stored s;
    ProjectStore store;
    if (!store.open(project))
        qWarning("%s", qPrintable(store.errorString()));
    s.row = store.run(run).value_or(RunRow {});
    store.pointSummaries(run, &s.summaries);
    store.pointEstimates(run, &s.estimates);
    store.requests(run, RequestFilter {}, &s.requests);
    store.serverMetricSamples(run, &s.samples);
    return s;
}

// Each (variant, point, repeat) summarised again from its stored records.
QStringList recomputed(const QVector<RequestRecord> &records)
{
    std::map<std::tuple<QString, int, int>, QVector<RequestRecord>> groups;
    for (const RequestRecord &r : records)
        groups[{ r.variant, r.point, r.repeat }] << r;
    QStringList out;
    for (const auto &[key, group] : groups) {
        AggregateOptions opts;
        opts.percentiles = { 50, 90, 99, 99.9 };
        opts.ignoreEos = true;
        out << RunCompare::fields(aggregatePoint(group, opts).summary).join(QLatin1Char('|'));
    }
    return out;
}

} // namespace

class TestTeamDb final : public QObject {
    Q_OBJECT

    TeamDbFixture m_fx;
    QString m_uid;

    QStringList publishArgs(const QString &project, const QString &run, const QStringList &extra = {}) const
    {
        return QStringList { QStringLiteral("publish"), QStringLiteral("--project"), project, QStringLiteral("--run"),
            run }
        + m_fx.db() + extra;
    }

    QStringList listed(const QStringList &filters)
    {
        const CliRun::Outcome o = m_fx.cli(QStringList { QStringLiteral("runs") } + m_fx.db() + filters);
        if (o.exitCode != 0)
            qWarning("runs: %s", o.err.constData());
        QStringList uids;
        for (const QByteArray &line : o.out.split('\n')) {
            if (!line.isEmpty())
                uids << QString::fromUtf8(line.split('\t').value(0));
        }
        return uids;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QTest::failOnWarning(QRegularExpression(QStringLiteral(".*")));
        QVERIFY2(!SimChild::cli().isEmpty(), "SERVESCOPE_CLI is not set");
        const QString problem = m_fx.setUp();
        SERVESCOPE_REQUIRE_SERVICE(!problem.startsWith(QLatin1String("skip: ")), problem.mid(6));
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    void emptyDatabaseListsNothing()
    {
        const CliRun::Outcome o = m_fx.cli(QStringList { QStringLiteral("runs") } + m_fx.db());
        QVERIFY2(o.exitCode == 0, o.err.constData());
        QVERIFY(o.out.isEmpty() && o.err.isEmpty());
        const CliRun::Outcome pull = m_fx.cli(
            QStringList { QStringLiteral("pull"), QStringLiteral("--run"), QStringLiteral("0123456789abcdef"),
                QStringLiteral("--project"), m_fx.dir.filePath(QStringLiteral("none.servescope")) }
            + m_fx.db());
        QCOMPARE(pull.exitCode, 2);
        QVERIFY2(pull.err.contains("no published run 0123456789abcdef"), pull.err.constData());
        // Readers create nothing: the schema comes with the first publish.
        QCOMPARE(m_fx.sql(QStringLiteral("SELECT to_regclass('schema_version') IS NULL")), QStringLiteral("t"));
        QVERIFY(!QFile::exists(m_fx.dir.filePath(QStringLiteral("none.servescope"))));
    }

    void publishPrintsTheStableId()
    {
        const CliRun::Outcome o = m_fx.cli(publishArgs(m_fx.project, QStringLiteral("1"),
            { QStringLiteral("--tag"), QStringLiteral("nightly"), QStringLiteral("--tag"), QStringLiteral("h100") }));
        QVERIFY2(o.exitCode == 0, o.err.constData());
        m_uid = QString::fromLatin1(o.out.trimmed());
        QVERIFY2(QRegularExpression(QStringLiteral("^[0-9a-f]{64}$")).match(m_uid).hasMatch(), o.out.constData());
        const Stored local = load(m_fx.project, 1);
        QCOMPARE(m_uid, stableRunId(local.row, local.requests.size()));
        QVERIFY(o.err.contains("requests in"));
        QCOMPARE(m_fx.sql(QStringLiteral("SELECT max(version) FROM schema_version")),
            QString::number(TeamDbSchema::Version));
        QCOMPARE(m_fx.sql(QStringLiteral("SELECT count(*) FROM requests")), QString::number(local.requests.size()));
        QCOMPARE(
            m_fx.sql(QStringLiteral("SELECT count(*) FROM request_events")), QString::number(local.requests.size()));
        QCOMPARE(m_fx.sql(QStringLiteral("SELECT experiment || ' ' || model || ' ' || engine || ' ' || published_by"
                                         " FROM runs")),
            QStringLiteral("tiny m vllm alice"));
    }

    void publishingTwiceStoresOneRun()
    {
        const CliRun::Outcome o = m_fx.cli(
            publishArgs(m_fx.project, QStringLiteral("1"), { QStringLiteral("--tag"), QStringLiteral("nightly") }));
        QVERIFY2(o.exitCode == 0, o.err.constData());
        QCOMPARE(QString::fromLatin1(o.out.trimmed()), m_uid);
        QVERIFY(o.err.contains("published before"));
        QCOMPARE(m_fx.sql(QStringLiteral("SELECT count(*) FROM runs")), QStringLiteral("1"));
        const Stored local = load(m_fx.project, 1);
        QCOMPARE(m_fx.sql(QStringLiteral("SELECT count(*) FROM requests")), QString::number(local.requests.size()));
        QCOMPARE(m_fx.sql(QStringLiteral("SELECT string_agg(tag, ',' ORDER BY tag) FROM run_tags")),
            QStringLiteral("h100,nightly"));
    }

    void pulledRunHasTheSameStatistics()
    {
        const QString target = m_fx.dir.filePath(QStringLiteral("pulled.servescope"));
        const CliRun::Outcome o = m_fx.cli(QStringList { QStringLiteral("pull"), QStringLiteral("--run"),
                                               m_uid.left(12), QStringLiteral("--project"), target }
            + m_fx.db());
        QVERIFY2(o.exitCode == 0, o.err.constData());
        QCOMPARE(o.out.trimmed(), QByteArray("1"));
        const Stored a = load(m_fx.project, 1);
        const Stored b = load(target, 1);
        QCOMPARE(b.row.name, a.row.name);
        QCOMPARE(b.row.status, a.row.status);
        QCOMPARE(b.row.started, a.row.started);
        QCOMPARE(b.row.finished, a.row.finished);
        QCOMPARE(b.row.resolvedConfig, a.row.resolvedConfig);
        QCOMPARE(b.row.clientHost, a.row.clientHost);
        QCOMPARE(b.row.envSnapshot, a.row.envSnapshot);
        QCOMPARE(b.row.variants, a.row.variants);
        QCOMPARE(b.row.points, a.row.points);
        QVERIFY(a.summaries.size() == 8 && a.estimates.size() > 0 && a.requests.size() == 2 * 2 * (6 + 16 + 4));
        QCOMPARE(RunCompare::all(b.summaries), RunCompare::all(a.summaries));
        QCOMPARE(RunCompare::all(b.estimates), RunCompare::all(a.estimates));
        QCOMPARE(RunCompare::all(b.requests), RunCompare::all(a.requests));
        QCOMPARE(b.samples.size(), a.samples.size());
        QCOMPARE(recomputed(b.requests), recomputed(a.requests));
        QCOMPARE(recomputed(b.requests).size(), 8);

        // The prompts came along: each one the original stored (measured requests') is in the pulled project.
        ProjectStore store, original;
        QVERIFY(store.open(target) && original.open(m_fx.project));
        int prompts = 0;
        for (const RequestRecord &r : std::as_const(a.requests)) {
            const std::optional<PromptRow> p = r.promptHash.isEmpty() ? std::nullopt : original.prompt(r.promptHash);
            if (!p)
                continue;
            const std::optional<PromptRow> q = store.prompt(r.promptHash);
            QVERIFY(q.has_value());
            QCOMPARE(q->text, p->text);
            QCOMPARE(q->tokens, p->tokens);
            ++prompts;
        }
        QCOMPARE(prompts, 2 * 2 * (6 + 16));

        // Pulled again: the project holds it already, nothing is copied.
        const CliRun::Outcome again = m_fx.cli(
            QStringList { QStringLiteral("pull"), QStringLiteral("--run"), m_uid, QStringLiteral("--project"), target }
            + m_fx.db());
        QVERIFY2(again.exitCode == 0, again.err.constData());
        QCOMPARE(again.out.trimmed(), QByteArray("1"));
        QVector<RunListing> runs;
        QVERIFY(store.listRuns(&runs));
        QCOMPARE(runs.size(), 1);

        // Published from the pulled project it is the same run.
        const CliRun::Outcome republished = m_fx.cli(publishArgs(target, QStringLiteral("1")));
        QVERIFY2(republished.exitCode == 0, republished.err.constData());
        QCOMPARE(QString::fromLatin1(republished.out.trimmed()), m_uid);
        QCOMPARE(m_fx.sql(QStringLiteral("SELECT count(*) FROM runs")), QStringLiteral("1"));
    }

    void concurrentPublishersStoreOneRun()
    {
        // Two publishers of one run into a fresh database race on the schema and on the run's id.
        QVERIFY(m_fx.pg.psql(QStringLiteral("postgres"), QStringLiteral("CREATE DATABASE race OWNER alice")));
        const QStringList args { QStringLiteral("publish"), QStringLiteral("--project"), m_fx.project,
            QStringLiteral("--run"), QStringLiteral("1"), QStringLiteral("--db"),
            QStringLiteral("postgresql://alice@127.0.0.1:%1/race").arg(m_fx.pg.port()),
            QStringLiteral("--db-password-env"), QStringLiteral("TEAM_PW") };
        QProcess a, b;
        for (QProcess *p : { &a, &b }) {
            p->setProcessEnvironment(m_fx.env);
            p->start(SimChild::cli(), args);
        }
        for (QProcess *p : { &a, &b }) {
            QVERIFY(p->waitForFinished(60000));
            const QByteArray err = p->readAllStandardError();
            QVERIFY2(p->exitCode() == 0, err.constData());
            QCOMPARE(QString::fromLatin1(p->readAllStandardOutput().trimmed()), m_uid);
            m_fx.everything += err;
        }
        QString out;
        QVERIFY(m_fx.pg.psql(QStringLiteral("race"),
            QStringLiteral("SELECT (SELECT count(*) FROM runs) || ' ' || (SELECT count(*) FROM schema_version) || ' '"
                           " || (SELECT count(*) FROM requests)"),
            &out));
        QCOMPARE(out.trimmed(),
            QStringLiteral("1 %1 %2").arg(TeamDbSchema::Version).arg(load(m_fx.project, 1).requests.size())); // steps
    }

    void listFilters_data()
    {
        QTest::addColumn<QStringList>("filters");
        QTest::addColumn<QStringList>("expected"); // "tiny", "other"
        const QString today = QDateTime::currentDateTimeUtc().date().toString(Qt::ISODate);
        const QString tomorrow = QDateTime::currentDateTimeUtc().date().addDays(1).toString(Qt::ISODate);
        const QString yesterday = QDateTime::currentDateTimeUtc().date().addDays(-1).toString(Qt::ISODate);
        const QStringList both { QStringLiteral("tiny"), QStringLiteral("other") };
        QTest::newRow("none") << QStringList {} << both;
        QTest::newRow("experiment") << QStringList { QStringLiteral("--experiment"), QStringLiteral("tiny") }
                                    << QStringList { QStringLiteral("tiny") };
        QTest::newRow("experiment unknown")
            << QStringList { QStringLiteral("--experiment"), QStringLiteral("nope") } << QStringList {};
        QTest::newRow("model") << QStringList { QStringLiteral("--model"), QStringLiteral("m2") }
                               << QStringList { QStringLiteral("other") };
        QTest::newRow("engine") << QStringList { QStringLiteral("--engine"), QStringLiteral("vllm") }
                                << QStringList { QStringLiteral("tiny") };
        QTest::newRow("tag") << QStringList { QStringLiteral("--tag"), QStringLiteral("h100") }
                             << QStringList { QStringLiteral("tiny") };
        QTest::newRow("tags all present") << QStringList { QStringLiteral("--tag"), QStringLiteral("h100"),
            QStringLiteral("--tag"), QStringLiteral("nightly") }
                                          << QStringList { QStringLiteral("tiny") };
        QTest::newRow("tag missing") << QStringList { QStringLiteral("--tag"), QStringLiteral("h100"),
            QStringLiteral("--tag"), QStringLiteral("a100") }
                                     << QStringList {};
        QTest::newRow("since today") << QStringList { QStringLiteral("--since"), today } << both;
        QTest::newRow("since tomorrow") << QStringList { QStringLiteral("--since"), tomorrow } << QStringList {};
        QTest::newRow("until today") << QStringList { QStringLiteral("--until"), today } << both;
        QTest::newRow("until yesterday") << QStringList { QStringLiteral("--until"), yesterday } << QStringList {};
        QTest::newRow("sglang today") << QStringList { QStringLiteral("--engine"), QStringLiteral("sglang"),
            QStringLiteral("--since"), today + QStringLiteral("T00:00:00Z") }
                                      << QStringList { QStringLiteral("other") };
    }

    void listFilters()
    {
        QFETCH(QStringList, filters);
        QFETCH(QStringList, expected);
        static QString other;
        if (other.isEmpty()) {
            const CliRun::Outcome o = m_fx.cli(publishArgs(m_fx.project, QStringLiteral("2")));
            QVERIFY2(o.exitCode == 0, o.err.constData());
            other = QString::fromLatin1(o.out.trimmed());
        }
        QStringList uids;
        for (const QString &e : expected)
            uids << (e == u"tiny" ? m_uid : other);
        QCOMPARE(listed(filters), uids);
    }

    void listLineHasEveryColumn()
    {
        const CliRun::Outcome o = m_fx.cli(QStringList { QStringLiteral("runs") } + m_fx.db()
            + QStringList { QStringLiteral("--experiment"), QStringLiteral("tiny") });
        QVERIFY2(o.exitCode == 0, o.err.constData());
        const QList<QByteArray> f = o.out.trimmed().split('\t');
        QCOMPARE(f.size(), 12);
        QCOMPARE(QString::fromLatin1(f.at(0)), m_uid);
        QCOMPARE(f.at(2), QByteArray("finished"));
        QCOMPARE(f.mid(4, 4), (QList<QByteArray> { "tiny", "m", "vllm", "h100,nightly" }));
        QCOMPARE(f.mid(8), (QList<QByteArray> { "2", "2", QByteArray::number(2 * 2 * (6 + 16 + 4)), "alice" }));
    }
};

QTEST_GUILESS_MAIN(TestTeamDb)
#include "tst_teamdb.moc"

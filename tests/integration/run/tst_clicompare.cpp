// SPDX-License-Identifier: MIT
// `servescope-cli compare` and `run --check-against` on runs made by `servescope-cli run` against
// real simulator children: the same configuration passes, fewer slots fail the gate, stored runs
// and results folders give the same table.
#include "simchild.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QObject>
#include <QRegularExpression>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

#include <cmath>

class TestCliCompare final : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_project;

    struct Outcome {
        int exitCode = -1;
        QByteArray out, err;
    };

    static Outcome cli(const QStringList &args)
    {
        QProcess p;
        p.start(SimChild::cli(), args);
        p.waitForFinished(240000);
        return { p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            p.readAllStandardError() };
    }

    /// Points c1 (16 prompts) and c8 (64 prompts), two repeats; variants with 256 and 2 slots.
    QString writeExperiment(const QString &name, bool extraPoint, const QString &serverExtra = {})
    {
        const QString points
            = QStringLiteral("{\"concurrency\": 1, \"input_len\": 32, \"output_len\": 16, \"num_prompts\": 16},"
                             "{\"concurrency\": 8, \"input_len\": 32, \"output_len\": 16, \"num_prompts\": 64}")
            + (extraPoint ? QStringLiteral(",{\"concurrency\": 4, \"input_len\": 32, \"output_len\": 16, "
                                           "\"num_prompts\": 16}")
                          : QString());
        const QByteArray json = QStringLiteral(
            "{\"name\": \"%1\", \"endpoint\": {\"base_url\": \"sim:\", \"path\": \"/v1/completions\", "
            "\"model\": \"m\"}, \"server\": {\"engine\": \"vllm\", \"args\": {\"max_num_seqs\": 256}%3}, "
            "\"dataset\": {\"name\": \"random\", \"seed\": 3, \"ignore_eos\": true, \"range_ratio\": 0.0}, "
            "\"load\": {\"mode\": \"concurrency\", \"points\": [%2], \"warmup_requests\": 4, \"repeat\": 2}, "
            "\"metrics\": {\"percentiles\": [50, 90, 99], \"definitions\": \"vllm\"}, "
            "\"variants\": [{\"name\": \"baseline\"}, {\"name\": \"seqs-2\", \"changes\": "
            "{\"server.args.max_num_seqs\": 2}}]}\n")
                                    .arg(name, points, serverExtra)
                                    .toUtf8();
        const QString path = m_dir.filePath(name + QStringLiteral(".json"));
        QFile f(path);
        f.open(QIODevice::WriteOnly);
        f.write(json);
        return path;
    }

    QString run(const QString &experiment, const QString &outDir, const QStringList &extra = {})
    {
        QStringList args { QStringLiteral("run"), experiment, QStringLiteral("--project"), m_project,
            QStringLiteral("--sim-time-scale"), QStringLiteral("4") };
        if (!outDir.isEmpty())
            args << QStringLiteral("--out-dir") << outDir;
        const Outcome o = cli(args + extra);
        if (o.exitCode != 0)
            qWarning("run failed: %s", o.err.constData());
        const QList<QByteArray> last = o.out.trimmed().split('\n').last().split('\t');
        return last.size() > 1 && last[0] == "run" ? QString::fromLatin1(last[1]) : QString();
    }

    static int junitFailures(const QString &path, int *cases)
    {
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly))
            return -1;
        QXmlStreamReader xml(&f);
        int failures = 0;
        *cases = 0;
        while (!xml.atEnd()) {
            if (xml.readNext() != QXmlStreamReader::StartElement)
                continue;
            *cases += xml.name() == QLatin1String("testcase");
            failures += xml.name() == QLatin1String("failure");
        }
        return xml.hasError() ? -1 : failures;
    }

private Q_SLOTS:

    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }
    void initTestCase()
    {
        QVERIFY2(!SimChild::cli().isEmpty(), "SERVESCOPE_CLI is not set");
        QVERIFY(m_dir.isValid());
        m_project = m_dir.filePath(QStringLiteral("p.servescope"));
        const QString exp = writeExperiment(QStringLiteral("gate"), false);
        QCOMPARE(run(exp, m_dir.filePath(QStringLiteral("first"))), QStringLiteral("1"));
        QCOMPARE(run(exp, m_dir.filePath(QStringLiteral("second"))), QStringLiteral("2"));
    }

    void aRunComparedWithItselfPasses()
    {
        const QString junit = m_dir.filePath(QStringLiteral("self.xml"));
        const Outcome o = cli({ QStringLiteral("compare"), QStringLiteral("--project"), m_project,
            QStringLiteral("--baseline"), QStringLiteral("1"), QStringLiteral("--candidate"), QStringLiteral("1"),
            QStringLiteral("--fail-if"), QStringLiteral("median_ttft_ms > +10%"), QStringLiteral("--fail-if"),
            QStringLiteral("output_throughput < -10%"), QStringLiteral("--junit"), junit });
        QVERIFY2(o.exitCode == 0, o.err.constData());
        QVERIFY2(o.out.endsWith("compare\tpass\t8\t0\n"), o.out.constData()); // 2 conditions x 4 points
        int cases = 0;
        QCOMPARE(junitFailures(junit, &cases), 0);
        QCOMPARE(cases, 8);
    }

    void fewerSlotsFailTheTtftGate()
    {
        const QString junit = m_dir.filePath(QStringLiteral("slots.xml"));
        const Outcome o = cli({ QStringLiteral("compare"), QStringLiteral("--project"), m_project,
            QStringLiteral("--baseline"), QStringLiteral("1"), QStringLiteral("--baseline-variant"),
            QStringLiteral("baseline"), QStringLiteral("--candidate"), QStringLiteral("1"),
            QStringLiteral("--candidate-variant"), QStringLiteral("seqs-2"), QStringLiteral("--fail-if"),
            QStringLiteral("median_ttft_ms > +50%"), QStringLiteral("--junit"), junit });
        QCOMPARE(o.exitCode, 1);
        // At concurrency 1 two slots are enough; at 8 requests queue for them.
        QVERIFY2(o.out.contains("gate\tbaseline\tc1\tmedian_ttft_ms > +50%\tpass"), o.out.constData());
        QVERIFY2(o.out.contains("gate\tbaseline\tc8\tmedian_ttft_ms > +50%\tfail\tmedian_ttft_ms: baseline "),
            o.out.constData());
        int cases = 0;
        QCOMPARE(junitFailures(junit, &cases), 1);
        QCOMPARE(cases, 2);
    }

    void runsThatDifferByNoisePass()
    {
        const Outcome o = cli({ QStringLiteral("compare"), QStringLiteral("--project"), m_project,
            QStringLiteral("--baseline"), QStringLiteral("1"), QStringLiteral("--candidate"), QStringLiteral("2"),
            QStringLiteral("--fail-if"), QStringLiteral("median_tpot_ms > +10%"), QStringLiteral("--fail-if"),
            QStringLiteral("output_throughput < -10%") });
        QVERIFY2(o.exitCode == 0, QByteArray(o.out + o.err).constData());
    }

    void foldersAndStoredRunsGiveTheSameTable()
    {
        const Outcome stored
            = cli({ QStringLiteral("compare"), QStringLiteral("--project"), m_project, QStringLiteral("--baseline"),
                QStringLiteral("1"), QStringLiteral("--candidate"), QStringLiteral("2"), QStringLiteral("--json") });
        const Outcome folders
            = cli({ QStringLiteral("compare"), QStringLiteral("--baseline"), m_dir.filePath(QStringLiteral("first")),
                QStringLiteral("--candidate"), m_dir.filePath(QStringLiteral("second")), QStringLiteral("--json") });
        QCOMPARE(stored.exitCode, 0);
        QCOMPARE(folders.exitCode, 0);
        const QJsonArray a = QJsonDocument::fromJson(stored.out).object().value(QLatin1String("rows")).toArray();
        const QJsonArray b = QJsonDocument::fromJson(folders.out).object().value(QLatin1String("rows")).toArray();
        QCOMPARE(a.size(), 4 * 20); // 4 points x the headline metrics
        QCOMPARE(a.size(), b.size());
        for (qsizetype i = 0; i < a.size(); ++i) {
            const QJsonObject x = a[i].toObject(), y = b[i].toObject();
            const QString where
                = x.value(QLatin1String("point")).toString() + u' ' + x.value(QLatin1String("metric")).toString();
            QVERIFY2(x.value(QLatin1String("verdict")) == y.value(QLatin1String("verdict")), qPrintable(where));
            for (const char *side : { "baseline", "candidate" }) {
                const QJsonObject ex = x.value(QLatin1String(side)).toObject(),
                                  ey = y.value(QLatin1String(side)).toObject();
                for (const char *k : { "median", "min", "max", "ci_low", "ci_high" }) {
                    const double vx = ex.value(QLatin1String(k)).toDouble(), vy = ey.value(QLatin1String(k)).toDouble();
                    // Result files hold what the store holds, written with round-trip precision.
                    QVERIFY2(vx == vy || std::abs(vx - vy) <= 1e-9 * std::abs(vx),
                        qPrintable(where + u' ' + QLatin1String(k)));
                }
            }
        }
    }

    void steadySetFromFoldersAndStoreAgree()
    {
        const QStringList common { QStringLiteral("compare"), QStringLiteral("--set"), QStringLiteral("steady"),
            QStringLiteral("--json") };
        const Outcome stored = cli(common
            + QStringList { QStringLiteral("--project"), m_project, QStringLiteral("--baseline"), QStringLiteral("1"),
                QStringLiteral("--candidate"), QStringLiteral("2") });
        const Outcome folders = cli(common
            + QStringList { QStringLiteral("--baseline"), m_dir.filePath(QStringLiteral("first")),
                QStringLiteral("--candidate"), m_dir.filePath(QStringLiteral("second")) });
        QVERIFY2(stored.exitCode == 0, stored.err.constData());
        QVERIFY2(folders.exitCode == 0, folders.err.constData());
        const QJsonObject sa = QJsonDocument::fromJson(stored.out).object();
        QCOMPARE(sa.value(QLatin1String("set")).toString(), QStringLiteral("steady"));
        const QJsonArray a = sa.value(QLatin1String("rows")).toArray();
        const QJsonArray b = QJsonDocument::fromJson(folders.out).object().value(QLatin1String("rows")).toArray();
        // Every point reaches its client concurrency; the steady set has no total-token
        // throughput or success rate.
        QCOMPARE(a.size(), 4 * 18);
        QCOMPARE(a.size(), b.size());
        int intervals = 0;
        for (qsizetype i = 0; i < a.size(); ++i) {
            const QJsonObject x = a[i].toObject(), y = b[i].toObject();
            const QString metric = x.value(QLatin1String("metric")).toString();
            QVERIFY(metric != QLatin1String("success_rate") && metric != QLatin1String("total_token_throughput"));
            const QString where = x.value(QLatin1String("point")).toString() + u' ' + metric;
            // The same requests are picked from stored records and from result-file arrays.
            for (const char *side : { "baseline", "candidate" }) {
                const QJsonObject ex = x.value(QLatin1String(side)).toObject(),
                                  ey = y.value(QLatin1String(side)).toObject();
                // Medians have an order-statistic interval from the window's requests.
                if (metric.startsWith(QLatin1String("median_")))
                    intervals += ex.contains(QLatin1String("ci_low")) && ey.contains(QLatin1String("ci_low"));
                for (const char *k : { "median", "ci_low", "ci_high" }) {
                    const double vx = ex.value(QLatin1String(k)).toDouble(), vy = ey.value(QLatin1String(k)).toDouble();
                    QVERIFY2(vx == vy || std::abs(vx - vy) <= 1e-9 * std::abs(vx),
                        qPrintable(where + u' ' + QLatin1String(k)));
                }
            }
        }
        QCOMPARE(intervals, 2 * 4 * 4); // sides x points x median metrics
        // The stored run's steady estimates were stored when each point finished: without its
        // requests the same table comes out.
        const QString copy = m_dir.filePath(QStringLiteral("steady-no-requests.servescope"));
        QVERIFY(QFile::copy(m_project, copy));
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("strip"));
            db.setDatabaseName(copy);
            QVERIFY(db.open());
            QSqlQuery q(db);
            QVERIFY(
                q.exec(QStringLiteral("SELECT COUNT(*) FROM point_estimates WHERE metric LIKE 'servescope_steady_%'"))
                && q.next());
            QCOMPARE(q.value(0).toInt(), 2 * 4 * 18);
            QVERIFY(q.exec(QStringLiteral("DELETE FROM requests")));
            q.finish();
            db.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("strip"));
        const Outcome stripped = cli(common
            + QStringList { QStringLiteral("--project"), copy, QStringLiteral("--baseline"), QStringLiteral("1"),
                QStringLiteral("--candidate"), QStringLiteral("2") });
        QVERIFY2(stripped.exitCode == 0, stripped.err.constData());
        QCOMPARE(QJsonDocument::fromJson(stripped.out).object().value(QLatin1String("rows")).toArray(), a);
        // It is a set of its own: the throughput inside the window is not the whole point's.
        const Outcome vllm
            = cli({ QStringLiteral("compare"), QStringLiteral("--project"), m_project, QStringLiteral("--baseline"),
                QStringLiteral("1"), QStringLiteral("--candidate"), QStringLiteral("2"), QStringLiteral("--json") });
        QCOMPARE(vllm.exitCode, 0);
        const auto throughput = [](const QJsonArray &rows) {
            QList<double> out;
            for (const QJsonValue &r : rows) {
                if (r[QLatin1String("metric")] == QLatin1String("output_throughput"))
                    out << r[QLatin1String("baseline")][QLatin1String("median")].toDouble();
            }
            return out;
        };
        const QList<double> whole
            = throughput(QJsonDocument::fromJson(vllm.out).object().value(QLatin1String("rows")).toArray());
        QCOMPARE(whole.size(), 4);
        QVERIFY(throughput(a) != whole);
    }

    void anUnmatchedPointExits2()
    {
        QCOMPARE(run(writeExperiment(QStringLiteral("wider"), true), QString(),
                     { QStringLiteral("--variant"), QStringLiteral("baseline") }),
            QStringLiteral("3"));
        const Outcome o = cli({ QStringLiteral("compare"), QStringLiteral("--project"), m_project,
            QStringLiteral("--baseline"), QStringLiteral("1"), QStringLiteral("--baseline-variant"),
            QStringLiteral("baseline"), QStringLiteral("--candidate"), QStringLiteral("3") });
        QCOMPARE(o.exitCode, 2);
        QVERIFY2(o.err.contains("candidate point baseline/c4 has no match in the baseline"), o.err.constData());
    }

    void badConditionsExit2_data()
    {
        QTest::addColumn<QString>("condition");
        QTest::newRow("unknown metric") << "p99_nothing_ms > 1%";
        QTest::newRow("no operator") << "p99_ttft_ms 10%";
    }
    void badConditionsExit2()
    {
        QFETCH(QString, condition);
        const Outcome o = cli({ QStringLiteral("compare"), QStringLiteral("--project"), m_project,
            QStringLiteral("--baseline"), QStringLiteral("1"), QStringLiteral("--candidate"), QStringLiteral("2"),
            QStringLiteral("--fail-if"), condition });
        QCOMPARE(o.exitCode, 2);
        QVERIFY(o.out.isEmpty());
    }

    void rerunToCheckAgrees()
    {
        const Outcome o = cli({ QStringLiteral("run"), m_dir.filePath(QStringLiteral("gate.json")),
            QStringLiteral("--project"), m_project, QStringLiteral("--sim-time-scale"), QStringLiteral("4"),
            QStringLiteral("--variant"), QStringLiteral("baseline"), QStringLiteral("--check-against"),
            QStringLiteral("1"), QStringLiteral("--vs"), QStringLiteral("1") });
        // Run 1 has both variants, the check run one: the seqs-2 points are missing on this side.
        QVERIFY2(o.out.contains("check\tbaseline\tc1\t"), o.out.constData());
        QVERIFY2(o.out.contains("check\tseqs-2\tc8\tmissing"), o.out.constData());
        QCOMPARE(o.exitCode, 1);
        // --vs: each point, once measured, judged against run 1's same point on one stderr line.
        const QRegularExpression vsLine(
            QStringLiteral("^vs: baseline (c\\d+): (better|worse|mixed|noise) against run 1( \\(.+\\))?$"),
            QRegularExpression::MultilineOption);
        QStringList judged;
        for (auto it = vsLine.globalMatch(QString::fromUtf8(o.err)); it.hasNext();)
            judged << it.next().captured(1);
        QCOMPARE(judged, (QStringList { QStringLiteral("c1"), QStringLiteral("c8") }));
        const Outcome bad = cli({ QStringLiteral("run"), m_dir.filePath(QStringLiteral("gate.json")),
            QStringLiteral("--project"), m_project, QStringLiteral("--check-against"), QStringLiteral("no-such-run") });
        QCOMPARE(bad.exitCode, 2);
        QVERIFY(bad.out.isEmpty());
        const Outcome badVs = cli({ QStringLiteral("run"), m_dir.filePath(QStringLiteral("gate.json")),
            QStringLiteral("--project"), m_project, QStringLiteral("--vs"), QStringLiteral("no-such-run") });
        QCOMPARE(badVs.exitCode, 2);
        QVERIFY2(badVs.err.contains("the run to compare with: no run 'no-such-run'"), badVs.err.constData());
        QVERIFY2(!badVs.err.contains("started"), badVs.err.constData()); // nothing recorded
    }

    // Runs 1 and 2 are reruns of one configuration: another, compared with run 1, is judged by floors
    // those reruns refined (with fewer than three pairs they may only rise above the defaults).
    void projectRerunsRefineTheNoiseFloors()
    {
        const QString third = run(m_dir.filePath(QStringLiteral("gate.json")), {});
        QVERIFY(!third.isEmpty());
        const Outcome o = cli({ QStringLiteral("compare"), QStringLiteral("--project"), m_project,
            QStringLiteral("--baseline"), QStringLiteral("1"), QStringLiteral("--candidate"), third });
        QVERIFY2(o.exitCode == 0, o.err.constData());
        const QRegularExpression line(QStringLiteral("^noise_floors\\t(\\d+)\\tttft=([0-9.e-]+)\\tdecode=([0-9.e-]+)"
                                                     "\\ttail=([0-9.e-]+)\\tthroughput=([0-9.e-]+)$"),
            QRegularExpression::MultilineOption);
        const QRegularExpressionMatch m = line.match(QString::fromUtf8(o.err));
        QVERIFY2(m.hasMatch(), o.err.constData());
        // Runs 1 and 2 at least (the rerun check's run too when its configuration is the same); the
        // candidate is never its own evidence, so one fewer than the runs of that configuration.
        QVERIFY2(
            m.captured(1).toInt() >= 1 && m.captured(1).toInt() <= int(third.toInt()) - 2, qPrintable(m.captured(0)));
        for (int i = 2; i <= 5; ++i) // never under the practical threshold (--threshold, 5%)
            QVERIFY2(m.captured(i).toDouble() >= 0.05, qPrintable(m.captured(0)));
        // Every row still has a verdict by those floors, and the conclusions follow the table.
        QVERIFY2(o.out.contains("\nconclusion\tbaseline\t"), o.out.constData());
        // A results folder has no project reruns: the defaults, said by no line.
        const Outcome folders
            = cli({ QStringLiteral("compare"), QStringLiteral("--baseline"), m_dir.filePath(QStringLiteral("first")),
                QStringLiteral("--candidate"), m_dir.filePath(QStringLiteral("second")) });
        QVERIFY2(!folders.err.contains("noise_floors"), folders.err.constData());
    }

    // With a GPU-hour price on both sides each point has a cost row beside its throughput; without
    // one on either side, none.
    void costRowsNeedAPriceOnBothSides()
    {
        const QString priced
            = writeExperiment(QStringLiteral("priced"), false, QStringLiteral(", \"gpus\": 4, \"gpu_hour_price\": 2"));
        const QString a = run(priced, {}, { QStringLiteral("--variant"), QStringLiteral("baseline") });
        const QString b = run(priced, {}, { QStringLiteral("--variant"), QStringLiteral("baseline") });
        QVERIFY(!a.isEmpty() && !b.isEmpty());
        const auto compare = [this](const QString &base, const QString &cand, const QStringList &extra = {}) {
            return cli(QStringList { QStringLiteral("compare"), QStringLiteral("--project"), m_project,
                           QStringLiteral("--baseline"), base, QStringLiteral("--candidate"), cand }
                + extra);
        };
        const QStringList gate { QStringLiteral("--fail-if"), QStringLiteral("cost_per_million_output_tokens > +50%") };
        const Outcome both = compare(a, b);
        QVERIFY2(both.exitCode == 0, both.err.constData());
        // Each side's cost is 2 x 4 GPUs / 3600 / its output throughput x 10^6.
        QMap<QByteArray, double> throughput, cost;
        for (const QByteArray &line : both.out.split('\n')) {
            const QList<QByteArray> f = line.split('\t');
            if (f.size() > 3 && f[0] == "baseline" && f[2] == "output_throughput")
                throughput.insert(f[1], f[3].toDouble());
            if (f.size() > 3 && f[0] == "baseline" && f[2] == "cost_per_million_output_tokens")
                cost.insert(f[1], f[3].toDouble());
        }
        QCOMPARE(cost.keys(), (QList<QByteArray> { "c1", "c8" }));
        for (const QByteArray &label : cost.keys())
            QVERIFY2(std::abs(cost[label] - 8 / 3600.0 / throughput[label] * 1e6) < 1e-8 * cost[label],
                qPrintable(QStringLiteral("%1: %2 vs %3")
                               .arg(QString::fromLatin1(label))
                               .arg(cost[label])
                               .arg(throughput[label])));
        const Outcome gated = compare(a, b, gate);
        QVERIFY2(gated.exitCode == 0, gated.err.constData());
        QVERIFY2(gated.out.contains("gate\tbaseline\tc8\tcost_per_million_output_tokens > +50%\tpass"),
            gated.out.constData());
        // Run 1 has no price: no cost row, and a gate on it has nothing to read.
        const QStringList onlyBaseline { QStringLiteral("--baseline-variant"), QStringLiteral("baseline") };
        const Outcome one = compare(QStringLiteral("1"), b, onlyBaseline);
        QVERIFY2(one.exitCode == 0, one.err.constData());
        QVERIFY2(!one.out.contains("\tcost_per_million_output_tokens\t"), one.out.constData());
        const Outcome refused = compare(QStringLiteral("1"), b, onlyBaseline + gate);
        QCOMPARE(refused.exitCode, 2);
        QVERIFY2(refused.err.contains("no variant has a server.gpu_hour_price on both sides"), refused.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliCompare)
#include "tst_clicompare.moc"

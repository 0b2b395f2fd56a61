// SPDX-License-Identifier: MIT
// AIPerf's load read back as the load it ran: concurrency alone (its burst mode, with or without a rate beside it)
// is a closed loop at that concurrency, in the `loadgen` layout and in the later layouts' phases; a request rate
// is a rate with its cap. Each from the AIPerf fixture with its load rewritten, through a real import.
#include "importprojects.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QObject>
#include <QRegularExpression>
#include <QTest>

#include <cmath>

using namespace ServeScope;

namespace {

const QString kAiperf
    = QStringLiteral(SERVESCOPE_TEST_DATA "/other-tools/aiperf-fixture_qwen_concurrency1__profile_export_aiperf.json");

QJsonObject phase(const char *name, const char *type, int requests, int concurrency)
{
    return { { QStringLiteral("name"), QLatin1String(name) }, { QStringLiteral("type"), QLatin1String(type) },
        { QStringLiteral("requests"), requests }, { QStringLiteral("concurrency"), concurrency } };
}

} // namespace

class TestAiperfLoad final : public QObject, private Testing::ImportProjects {
    Q_OBJECT

private Q_SLOTS:

    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }
    void loadReadAsRun_data()
    {
        QTest::addColumn<QJsonObject>("loadgen");
        QTest::addColumn<QJsonValue>("phases");
        QTest::addColumn<QString>("mode");
        QTest::addColumn<int>("concurrency");
        QTest::addColumn<double>("rate");
        QTest::addColumn<int>("warmup");
        const QJsonObject c4 { { QStringLiteral("concurrency"), 4 },
            { QStringLiteral("request_rate_mode"), QStringLiteral("concurrency_burst") },
            { QStringLiteral("request_count"), 64 }, { QStringLiteral("warmup_request_count"), 4 } };
        QTest::newRow("loadgen, concurrency 4") << c4 << QJsonValue() << QStringLiteral("concurrency") << 4 << 0.0 << 4;
        QJsonObject burstWithRate = c4;
        burstWithRate.insert(QStringLiteral("request_rate"), 96);
        QTest::newRow("loadgen, burst mode beside a rate")
            << burstWithRate << QJsonValue() << QStringLiteral("concurrency") << 4 << 0.0 << 4;
        const QJsonArray list { phase("warmup", "concurrency", 8, 4), phase("profiling", "concurrency", 64, 4) };
        QTest::newRow("phases, a list") << QJsonObject() << QJsonValue(list) << QStringLiteral("concurrency") << 4
                                        << 0.0 << 8;
        const QJsonObject named { { QStringLiteral("profiling"), phase("profiling", "concurrency", 64, 4) } };
        QTest::newRow("phases by name") << QJsonObject() << QJsonValue(named) << QStringLiteral("concurrency") << 4
                                        << 0.0 << 0;
        QJsonObject rate = c4;
        rate.insert(QStringLiteral("request_rate"), 2.5);
        rate.insert(QStringLiteral("request_rate_mode"), QStringLiteral("poisson"));
        QTest::newRow("loadgen, a rate capped at 4") << rate << QJsonValue() << QStringLiteral("rate") << 4 << 2.5 << 4;
    }
    void loadReadAsRun()
    {
        QFETCH(QJsonObject, loadgen);
        QFETCH(QJsonValue, phases);
        QFETCH(QString, mode);
        QFETCH(int, concurrency);
        QFETCH(double, rate);
        QFETCH(int, warmup);
        QJsonObject file = QJsonDocument::fromJson(Testing::readAll(kAiperf)).object();
        QVERIFY(!file.isEmpty());
        QJsonObject config = file.value(QLatin1String("input_config")).toObject();
        config.remove(QStringLiteral("loadgen"));
        if (!loadgen.isEmpty())
            config.insert(QStringLiteral("loadgen"), loadgen);
        if (!phases.isUndefined() && !phases.isNull())
            config.insert(QStringLiteral("phases"), phases);
        file.insert(QStringLiteral("input_config"), config);
        const QString tag = QString::fromLatin1(QTest::currentDataTag()).replace(u' ', u'_').remove(u',');
        const Imported r = importNew(write(
            tag + QStringLiteral("_profile_export_aiperf.json"), QJsonDocument(file).toJson(QJsonDocument::Compact)));
        QVERIFY2(r.outcome.errors.isEmpty(), qPrintable(r.outcome.errors.join(u'\n')));
        QCOMPARE(r.outcome.runs.size(), 1);
        const QVector<PointSummary> s = summaries(r.project, r.outcome.runs.first().id);
        QCOMPARE(s.size(), 1);
        QCOMPARE(s.first().mode, mode);
        QCOMPARE(s.first().concurrency, concurrency);
        if (mode == QLatin1String("rate"))
            QCOMPARE(s.first().requestRate, rate);
        QCOMPARE(s.first().label, mode == QLatin1String("rate") ? QStringLiteral("r2.5") : QStringLiteral("c4"));
        QCOMPARE(s.first().warmup, warmup);
        QCOMPARE(s.first().completed, 64);
    }
};

QTEST_GUILESS_MAIN(TestAiperfLoad)
#include "tst_aiperfload.moc"

// SPDX-License-Identifier: MIT
#include "../model/testexperiment.h"
#include "io/experimentfile.h"
#include "report/storeinput.h"

#include <QRegularExpression>
#include <QTest>

using namespace ServeScope;

class TestStoreInput final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }

    void storedRunListsWhatEachVariantChanges()
    {
        RunRow row;
        row.resolvedConfig = serializeExperiment(Testing::validExperiment()); // baseline and seqs-64
        const Report::ReportRun run = Report::reportRunFromStore(row, {});
        QCOMPARE(run.variants.size(), 2);
        QCOMPARE(run.variants[0], qMakePair(QStringLiteral("baseline"), QStringLiteral("the baseline")));
        QCOMPARE(run.variants[1].first, QStringLiteral("seqs-64"));
        QVERIFY2(run.variants[1].second.startsWith(QStringLiteral("server.args.max_num_seqs: 256 → 64")),
            qPrintable(run.variants[1].second));
    }

    void unreadableConfigurationListsNoVariants()
    {
        RunRow row;
        row.resolvedConfig = R"({"endpoint":{"base_url":"http://h:8000","model":"m"}})";
        const Report::ReportRun run = Report::reportRunFromStore(row, {});
        QCOMPARE(run.baseUrl, QStringLiteral("http://h:8000"));
        QVERIFY(run.variants.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestStoreInput)
#include "tst_storeinput.moc"

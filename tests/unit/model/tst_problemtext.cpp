// SPDX-License-Identifier: MIT
// A check's reason in the window's language, while the CLI's stays in the C locale.
#include "model/problem.h"
#include "model/validation.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <QTest>
#include <QTranslator>

using namespace ServeScope;

class TestProblemText final : public QObject {
    Q_OBJECT

    static Problem at(const QList<Problem> &problems, const QString &path)
    {
        for (const Problem &p : problems) {
            if (p.path == path)
                return p;
        }
        return {};
    }

private slots:

    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }
    void reasonsTranslateWithTheirArguments()
    {
        Experiment x;
        x.name = QStringLiteral("t");
        x.endpoint.baseUrl = QStringLiteral("http://h:8000");
        x.endpoint.model = QStringLiteral("m");
        x.load.points = { LoadPoint {}, LoadPoint {} };
        x.load.points[0].concurrency = 0;
        x.load.points[1].concurrency = 40;
        x.load.points[1].numPrompts = 100;
        x.variants = { Variant {} };
        x.variants[0].name = QStringLiteral("b");
        const QList<Problem> problems = validate(x);
        const Problem low = at(problems, QStringLiteral("load.points[0].concurrency"));
        const Problem few = at(problems, QStringLiteral("load.points[1].num_prompts"));
        QCOMPARE(low.reason, QStringLiteral("must be at least 1"));
        QCOMPARE(
            few.reason, QStringLiteral("fewer than 5 x concurrency (200) prompts; the point barely leaves its ramp"));
        // Without a translator the window shows the C-locale sentence.
        QCOMPARE(low.translatedString(), QStringLiteral("load.points[0].concurrency: must be at least 1"));

        QTranslator zh;
        QVERIFY(zh.load(QStringLiteral(":/i18n/servescope_zh_CN.qm")));
        QVERIFY(QCoreApplication::installTranslator(&zh));
        QCOMPARE(low.translatedString(), QStringLiteral("load.points[0].concurrency: 不能小于 1"));
        QCOMPARE(few.translatedReason(), QStringLiteral("提示数少于 5 × 并发（200）；该负载点几乎走不出爬坡阶段"));
        // The CLI's text does not follow the translator.
        QCOMPARE(validate(x), problems);
        QCOMPARE(
            at(validate(x), QStringLiteral("load.points[0].concurrency")).reason, QStringLiteral("must be at least 1"));
        QCoreApplication::removeTranslator(&zh);
    }

    // A template marked in another context is looked up there: a shard merge's finding.
    void otherContext()
    {
        const Reason r
            = Reason::in("ServeScope::Merge", "clock-skew %1: offset plus estimated error %2 ms exceeds %3 ms",
                { QStringLiteral("shard 1/2 (h)"), QStringLiteral("71.5"), QStringLiteral("50") });
        QTranslator zh;
        QVERIFY(zh.load(QStringLiteral(":/i18n/servescope_zh_CN.qm")));
        QVERIFY(QCoreApplication::installTranslator(&zh));
        QCOMPARE(r.translated(), QStringLiteral("clock-skew shard 1/2 (h)：偏差加估计误差为 71.5 毫秒，超过 50 毫秒"));
        QCOMPARE(
            r.text(), QStringLiteral("clock-skew shard 1/2 (h): offset plus estimated error 71.5 ms exceeds 50 ms"));
        // The same source under the default context has no translation there.
        const Reason plain { r.source, r.args };
        QCOMPARE(plain.translated(), r.text());
        QCoreApplication::removeTranslator(&zh);
    }

    // An argument holding a placeholder is copied as it is, never expanded again.
    void argumentsAreNotExpandedTwice()
    {
        const Reason r { "changes %1 variables (%2) without a reason", { QStringLiteral("%2"), QStringLiteral("a") } };
        QCOMPARE(r.text(), QStringLiteral("changes %2 variables (a) without a reason"));
        QCOMPARE(Reason {}.text(), QString());
    }
};

QTEST_GUILESS_MAIN(TestProblemText)
#include "tst_problemtext.moc"

// SPDX-License-Identifier: MIT
#include "sim/simtokenizer.h"

#include <QJsonDocument>
#include <QRegularExpression>
#include <QTest>

using namespace ServeScope::Sim;

class TestSimTokenizer final : public QObject {
    Q_OBJECT
private slots:
    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }

    void count_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("tokens");
        QTest::newRow("empty") << QByteArray() << 0;
        QTest::newRow("spaces only") << QByteArray(" \n\t ") << 0;
        QTest::newRow("words") << QByteArray("From fairest creatures") << 3;
        QTest::newRow("leading and repeated space") << QByteArray("  a  b\n\nc ") << 3;
        QTest::newRow("punctuation sticks") << QByteArray("increase, die.") << 2;
    }

    void count()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, tokens);
        QCOMPARE(SimTokenizer::count(text), tokens);
        std::vector<qint64> ids;
        SimTokenizer::encode(text, &ids);
        QCOMPARE(int(ids.size()), tokens);
    }

    void idsAreStableAndInSafeRange()
    {
        std::vector<qint64> a, b;
        SimTokenizer::encode("rose rose thorn", &a);
        SimTokenizer::encode("rose\nrose thorn", &b);
        QCOMPARE(a, b);
        QCOMPARE(a[0], a[1]);
        QVERIFY(a[0] != a[2]);
        for (qint64 id : a)
            QVERIFY(id >= 1000 && id < 32000);
    }

    void chatTemplateAddsFixedOverhead()
    {
        const QJsonArray messages = QJsonDocument::fromJson(
            "[{\"role\":\"system\",\"content\":\"be "
            "brief\"},{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"a b c\"}]}]")
                                        .array();
        std::vector<qint64> ids;
        QVERIFY(SimTokenizer::encodeMessages(messages, &ids));
        QCOMPARE(int(ids.size()), 5 + 2 * SimTokenizer::kChatTokensPerMessage + SimTokenizer::kChatTokensForReply);
        ids.clear();
        QVERIFY(!SimTokenizer::encodeMessages(QJsonDocument::fromJson("[{\"content\":\"x\"}]").array(), &ids));
    }

    void blockHashesChainPrefixes()
    {
        std::vector<qint64> a(40), b(40);
        for (int i = 0; i < 40; ++i)
            a[size_t(i)] = b[size_t(i)] = 1000 + i;
        b[20] = 5;
        const auto ha = SimTokenizer::blockHashes(a, 16), hb = SimTokenizer::blockHashes(b, 16);
        QCOMPARE(int(ha.size()), 2);
        QCOMPARE(ha[0], hb[0]);
        QVERIFY(ha[1] != hb[1]);
    }

    void sonnetTokensRetokenizeToOne()
    {
        const SonnetText &text = SonnetText::instance();
        QVERIFY(text.size() > 1000);
        const QByteArray t = text.text(17, 50);
        QCOMPARE(SimTokenizer::count(t), 50);
        QVERIFY(t.startsWith(' '));
    }
};

QTEST_GUILESS_MAIN(TestSimTokenizer)
#include "tst_simtokenizer.moc"

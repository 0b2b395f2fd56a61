// SPDX-License-Identifier: MIT
#include "engine/chunkscan.h"
#include "fuzztargets.h"

#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTest>

using namespace ServeScope;

namespace {

QString decoded(QByteArrayView raw)
{
    QString s;
    appendJsonString(s, raw);
    return s;
}

const QByteArray kChat
    = "{\"id\":\"cmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1718000000,\"model\":\"Qwen/Qwen"
      "2.5-7B\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\" the\"},\"logprobs\":null,\"finish_reason\":null}]}";

} // namespace

class TestChunkScan final : public QObject {
    Q_OBJECT

private Q_SLOTS:

    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }
    void accepted_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("text"); // text + content + reasoning_content
        QTest::addColumn<bool>("usage");
        QTest::addColumn<int>("promptTokens");
        QTest::addColumn<int>("completionTokens");
        QTest::addColumn<bool>("finish");

        QTest::newRow("vllm chat token") << kChat << "Qwen/Qwen2.5-7B"
                                         << " the" << false << 0 << 0 << false;
        QTest::newRow("completion with escapes")
            << QByteArray("{\"model\":\"m\",\"choices\":[{\"text\":\"caf\\u00e9 \\ud83d\\ude00 "
                          "\\\"q\\\"\\n\\t\\/\\\\\",\"finish_reason\":\"length\"}]}")
            << "m" << QString::fromUtf8("café 😀 \"q\"\n\t/\\") << false << 0 << 0 << true;
        QTest::newRow("usage chunk, empty choices") << QByteArray(
            "{\"choices\":[],\"usage\":{\"prompt_tokens\":128,\"total_tokens\":256,\"completion_tokens\":-3}}")
                                                    << ""
                                                    << "" << true << 128 << -3 << false;
        QTest::newRow("usage object without the counts")
            << QByteArray("{\"usage\":{\"cached_tokens\":{\"a\":[1,2]}}}") << ""
            << "" << true << 0 << 0 << false;
        QTest::newRow("empty usage object") << QByteArray("{\"usage\":{},\"choices\":[{\"delta\":{}}]}") << ""
                                            << "" << false << 0 << 0 << false;
        QTest::newRow("counts of other types read as 0")
            << QByteArray("{\"usage\":{\"prompt_tokens\":\"12\",\"completion_tokens\":null}}") << ""
            << "" << true << 0 << 0 << false;
        QTest::newRow("utf-8 reasoning, content null") << QByteArray(
            "{\"choices\":[{\"delta\":{\"reasoning_content\":\"推理：第一步\",\"content\":null}}],\"model\":\"深度\"}")
                                                       << QString::fromUtf8("深度") << QString::fromUtf8("推理：第一步")
                                                       << false << 0 << 0 << false;
        QTest::newRow("all three texts, in the reading's order")
            << QByteArray("{\"choices\":[{\"delta\":{\"reasoning_content\":\"c\",\"content\":\"b\"},\"text\":\"a\"}]}")
            << ""
            << "abc" << false << 0 << 0 << false;
        QTest::newRow("reasoning, vLLM's newer name")
            << QByteArray("{\"choices\":[{\"delta\":{\"reasoning\":\"r\"}}]}") << ""
            << "r" << false << 0 << 0 << false;
        QTest::newRow("only choices[0] counts") << QByteArray(
            "{\"choices\":[{\"delta\":{\"content\":\"x\"}},{\"delta\":{\"content\":\"y\"},\"finish_"
            "reason\":\"stop\"}]}") << ""
                                                << "x" << false << 0 << 0 << false;
        QTest::newRow("members of the wrong type are not read")
            << QByteArray("{\"model\":7,\"choices\":[{\"text\":[\"t\"],\"delta\":\"d\",\"finish_reason\":false}]}")
            << ""
            << "" << false << 0 << 0 << false;
        QTest::newRow("whitespace everywhere")
            << QByteArray(" \r\n\t{ \"model\" : \"m\" , \"choices\" : [ { \"text\" : \"t\" } ] } \n") << "m"
            << "t" << false << 0 << 0 << false;
        QTest::newRow("long fraction, negative zero")
            << QByteArray("{\"lp\":-0.12345678901234567890,\"z\":-0,\"choices\":[{\"text\":\"t\",\"x\":[0.5,-1]}]}")
            << ""
            << "t" << false << 0 << 0 << false;
        QTest::newRow("duplicate member the record does not read")
            << QByteArray("{\"id\":1,\"id\":2,\"choices\":[{\"text\":\"t\"}]}") << ""
            << "t" << false << 0 << 0 << false;
    }
    void accepted()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, model);
        QFETCH(QString, text);
        QFETCH(bool, usage);
        QFETCH(int, promptTokens);
        QFETCH(int, completionTokens);
        QFETCH(bool, finish);
        ChunkFields f;
        QVERIFY(scanChunk(json, &f));
        QCOMPARE(decoded(f.model), model);
        QCOMPARE(decoded(f.text) + decoded(f.content) + decoded(f.reasoningContent) + decoded(f.reasoning), text);
        QCOMPARE(f.usage, usage);
        QCOMPARE(f.promptTokens, promptTokens);
        QCOMPARE(f.completionTokens, completionTokens);
        QCOMPARE(f.finishReason, finish);
        QCOMPARE(Fuzz::chunkJson(json), QString()); // and QJsonDocument reads the same
    }

    // usage.completion_tokens_details.reasoning_tokens: a number, or unknown (-1) however else it is given.
    void reasoningTokens_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<int>("reasoning");
        const auto usage = [](const char *inner) -> QByteArray {
            return QByteArray("{\"choices\":[],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":50") + inner + "}}";
        };
        QTest::newRow("given") << usage(",\"completion_tokens_details\":{\"reasoning_tokens\":20}") << 20;
        QTest::newRow("zero") << usage(",\"completion_tokens_details\":{\"reasoning_tokens\":0}") << 0;
        QTest::newRow("beside other details") << usage(
            ",\"completion_tokens_details\":{\"accepted_prediction_tokens\":1,\"reasoning_tokens\":7,\"x\":[1]}")
                                              << 7;
        QTest::newRow("before the counts")
            << QByteArray("{\"usage\":{\"completion_tokens_details\":{\"reasoning_tokens\":3},\"prompt_tokens\":1}}")
            << 3;
        QTest::newRow("no details") << usage("") << -1;
        QTest::newRow("details null") << usage(",\"completion_tokens_details\":null") << -1;
        QTest::newRow("details without it") << usage(",\"completion_tokens_details\":{\"audio_tokens\":2}") << -1;
        QTest::newRow("null") << usage(",\"completion_tokens_details\":{\"reasoning_tokens\":null}") << -1;
        QTest::newRow("a string") << usage(",\"completion_tokens_details\":{\"reasoning_tokens\":\"20\"}") << -1;
        QTest::newRow("under the prompt's details")
            << usage(",\"prompt_tokens_details\":{\"reasoning_tokens\":9}") << -1;
        QTest::newRow("outside usage") << QByteArray("{\"completion_tokens_details\":{\"reasoning_tokens\":9}}") << -1;
    }
    // usage.prompt_tokens_details.cached_tokens the same way.
    void cachedTokens_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<int>("cached");
        QTest::newRow("given") << QByteArray(
            "{\"choices\":[],\"usage\":{\"prompt_tokens\":400,\"prompt_tokens_details\":"
            "{\"cached_tokens\":192},\"completion_tokens\":2}}")
                               << 192;
        QTest::newRow("null details") << QByteArray("{\"usage\":{\"prompt_tokens\":4,\"prompt_tokens_details\":null}}")
                                      << -1;
        QTest::newRow("under the completion's details")
            << QByteArray("{\"usage\":{\"completion_tokens_details\":{\"cached_tokens\":3}}}") << -1;
        QTest::newRow("beside reasoning")
            << QByteArray("{\"usage\":{\"completion_tokens_details\":{\"reasoning_tokens\":2},"
                          "\"prompt_tokens_details\":{\"audio_tokens\":0,\"cached_tokens\":0}}}")
            << 0;
    }
    void cachedTokens()
    {
        QFETCH(QByteArray, json);
        QFETCH(int, cached);
        ChunkFields f;
        QVERIFY(scanChunk(json, &f));
        QCOMPARE(f.cachedTokens, cached);
        QCOMPARE(Fuzz::chunkJson(json), QString());
    }
    void reasoningTokens()
    {
        QFETCH(QByteArray, json);
        QFETCH(int, reasoning);
        ChunkFields f;
        QVERIFY(scanChunk(json, &f));
        QCOMPARE(f.reasoningTokens, reasoning);
        QCOMPARE(Fuzz::chunkJson(json), QString()); // and QJsonDocument reads the same
    }

    // What the scan leaves to QJsonDocument: malformed JSON, and forms whose reading it does not
    // decide itself.
    void leftToQt_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("top-level array") << QByteArray("[{\"model\":\"m\"}]");
        QTest::newRow("truncated") << kChat.left(kChat.size() - 3);
        QTest::newRow("garbage after the object") << kChat + "x";
        QTest::newRow("trailing comma") << QByteArray("{\"model\":\"m\",}");
        QTest::newRow("single quotes") << QByteArray("{'model':\"m\"}");
        QTest::newRow("unquoted key") << QByteArray("{model:\"m\"}");
        QTest::newRow("missing colon") << QByteArray("{\"model\" \"m\"}");
        QTest::newRow("bad literal") << QByteArray("{\"a\":nul}");
        QTest::newRow("leading zero") << QByteArray("{\"a\":012}");
        QTest::newRow("bare fraction point") << QByteArray("{\"a\":1.}");
        QTest::newRow("exponent") << QByteArray("{\"a\":1e400}");
        QTest::newRow("16-digit integer") << QByteArray("{\"a\":1234567890123456}");
        QTest::newRow("token count with a fraction") << QByteArray("{\"usage\":{\"prompt_tokens\":12.0}}");
        QTest::newRow("10-digit token count") << QByteArray("{\"usage\":{\"prompt_tokens\":1234567890}}");
        QTest::newRow("read member twice") << QByteArray("{\"model\":\"a\",\"model\":\"b\"}");
        QTest::newRow("reasoning tokens twice") << QByteArray(
            "{\"usage\":{\"completion_tokens_details\":{\"reasoning_tokens\":1,\"reasoning_tokens\":2}}}");
        QTest::newRow("delta member twice")
            << QByteArray("{\"choices\":[{\"delta\":{\"content\":\"a\",\"content\":\"b\"}}]}");
        QTest::newRow("escaped member name") << QByteArray("{\"mod\\u0065l\":\"m\"}");
        QTest::newRow("raw control character") << QByteArray("{\"text\":\"a\x01b\"}");
        QTest::newRow("escaped NUL") << QByteArray("{\"a\":\"\\u0000\"}");
        QTest::newRow("lone high surrogate") << QByteArray("{\"a\":\"\\ud83d\"}");
        QTest::newRow("lone low surrogate") << QByteArray("{\"a\":\"\\ude00\"}");
        QTest::newRow("non-character escape") << QByteArray("{\"a\":\"\\uffff\"}");
        QTest::newRow("bad escape") << QByteArray("{\"a\":\"\\x41\"}");
        QTest::newRow("invalid UTF-8") << QByteArray("{\"a\":\"\xff\"}");
        QTest::newRow("overlong UTF-8") << QByteArray("{\"a\":\"\xc0\xaf\"}");
        QTest::newRow("UTF-8 surrogate") << QByteArray("{\"a\":\"\xed\xa0\x80\"}");
        QTest::newRow("cut UTF-8") << QByteArray("{\"a\":\"\xe4\xbd\"}");
        QTest::newRow("65 levels") << QByteArray("{\"a\":") + QByteArray(64, '[') + QByteArray(64, ']') + "}";
    }
    void leftToQt()
    {
        QFETCH(QByteArray, json);
        ChunkFields f;
        QVERIFY(!scanChunk(json, &f));
    }

    void sixtyFourLevelsAreScanned()
    {
        const QByteArray json = "{\"a\":" + QByteArray(63, '[') + QByteArray(63, ']') + "}";
        ChunkFields f;
        QVERIFY(scanChunk(json, &f));
        QCOMPARE(Fuzz::chunkJson(json), QString());
    }

    // Seeded mutations of real chunks: whatever the scan accepts, QJsonDocument reads alike.
    void mutationsAgreeWithQt()
    {
        const QList<QByteArray> seeds = {
            kChat,
            "{\"model\":\"m\",\"choices\":[{\"text\":\"caf\\u00e9 \\ud83d\\ude00 "
            "\\\"q\\\"\",\"finish_reason\":\"length\"}]}",
            "{\"choices\":[],\"usage\":{\"prompt_tokens\":128,\"completion_tokens\":12}}",
            "{\"choices\":[{\"delta\":{\"reasoning_content\":\"推理\",\"content\":null}}],\"model\":\"深度\"}",
        };
        static constexpr char kBytes[] = "{}[]\",:\\0123456789.-eEtrufalsn u";
        QRandomGenerator rng(20261202);
        int accepted = 0;
        for (int i = 0; i < 40000; ++i) {
            QByteArray m = seeds.at(i % seeds.size());
            for (int edits = 1 + int(rng.bounded(3)); edits > 0; --edits) {
                const int at = int(rng.bounded(m.size() + 1));
                switch (rng.bounded(4)) {
                case 0:
                    if (at < m.size())
                        m[at] = char(rng.bounded(256));
                    break;
                case 1:
                    m.insert(at, kBytes[rng.bounded(int(sizeof(kBytes) - 1))]);
                    break;
                case 2:
                    m.remove(at, 1 + int(rng.bounded(4)));
                    break;
                default:
                    m.insert(at, m.mid(int(rng.bounded(m.size())), 1 + int(rng.bounded(12))));
                    break;
                }
            }
            ChunkFields f;
            accepted += scanChunk(m, &f);
            const QString broken = Fuzz::chunkJson(m);
            if (!broken.isEmpty())
                QFAIL(
                    qPrintable(broken + QStringLiteral(" for: ") + QString::fromUtf8(m.toPercentEncoding("{}[]\":,"))));
        }
        QVERIFY2(accepted > 1000, qPrintable(QString::number(accepted))); // the comparison was not vacuous
    }
};

QTEST_GUILESS_MAIN(TestChunkScan)
#include "tst_chunkscan.moc"

// SPDX-License-Identifier: MIT
// The streaming result-file reader against the document reader it replaced (domreference.h): the
// same runs, key for key and entry for entry, or the same refusal, on the real fixtures, on the
// shapes a file may take, and through ResultFileStream from a file.
#include "domreference.h"
#include "resultfiles/resultfile.h"
#include "resultfiles/resultstream.h"

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <cstring>

using namespace ServeScope;
using namespace ServeScope::Test;

namespace {

bool same(double a, double b)
{
    return (std::isnan(a) && std::isnan(b)) || std::memcmp(&a, &b, sizeof a) == 0;
}

template<typename V> bool sameValues(const V &a, const V &b)
{
    if (a.size() != b.size())
        return false;
    for (qsizetype i = 0; i < a.size(); ++i) {
        if (!same(double(a.at(i)), double(b.at(i))))
            return false;
    }
    return true;
}

// The first field in which two runs differ, or empty.
QString difference(const ResultRun &a, const ResultRun &b)
{
    if (a.source != b.source || a.line != b.line || a.hasFailedKey != b.hasFailedKey || a.hasArrays != b.hasArrays)
        return QStringLiteral("source, line or flags");
    if (a.strings != b.strings || a.nullKeys != b.nullKeys || !same(a.requestRate, b.requestRate))
        return QStringLiteral("strings, null keys or request rate");
    if (a.numbers.keys() != b.numbers.keys() || !sameValues(a.numbers.values(), b.numbers.values()))
        return QStringLiteral("numbers");
    const std::pair<const char *, bool> columns[]
        = { { "ttfts", sameValues(a.ttfts, b.ttfts) }, { "input_lens", a.inputLens == b.inputLens },
              { "output_lens", a.outputLens == b.outputLens }, { "latencies", sameValues(a.latencies, b.latencies) },
              { "start_times", sameValues(a.startTimes, b.startTimes) },
              { "queue_times", sameValues(a.queueTimes, b.queueTimes) },
              { "generated_texts", a.generatedTexts == b.generatedTexts }, { "errors", a.errors == b.errors } };
    for (const auto &[key, equal] : columns) {
        if (!equal)
            return QLatin1String(key);
    }
    if (a.itls.size() != b.itls.size())
        return QStringLiteral("itls");
    for (qsizetype i = 0; i < a.itls.size(); ++i) {
        if (!sameValues(a.itls.at(i).toVector(), b.itls.at(i).toVector()))
            return QStringLiteral("itls");
    }
    return {};
}

// What the document reader said, in the streaming reader's words.
QString expectedError(const QString &dom)
{
    if (dom == QLatin1String("not valid JSON"))
        return dom;
    if (dom == QLatin1String("not an object"))
        return QStringLiteral("the JSON value is not an object");
    return QStringLiteral("\"%1\" is not an array of per-request values (numbers; for itls, arrays of numbers)")
        .arg(dom);
}

void compareObject(const QByteArray &json, int line)
{
    ResultRun reference, streamed;
    const QString dom = domReadObject(json, line, &reference);
    QString error;
    const bool read = readResultObject(json, line, &streamed, &error);
    QCOMPARE(read, dom.isEmpty());
    if (!read) {
        QCOMPARE(error, expectedError(dom));
        return;
    }
    QVERIFY2(difference(streamed, reference).isEmpty(), qPrintable(difference(streamed, reference)));
}

const QByteArray kBase = R"({"date":"20250101-120000","backend":"vllm","model_id":"m","num_prompts":3,)"
                         R"("request_rate":"inf","duration":2.0,"completed":3,"failed":0,"mean_ttft_ms":50.0,)"
                         R"("input_lens":[10,10,10],"output_lens":[4,4,4],"ttfts":[0.05,0.05,0.05],)"
                         R"("itls":[[0.1,0.1,0.1],[0.1,0.1,0.1],[0.1,0.1,0.1]],"generated_texts":["a","b\u00e9","c"],)"
                         R"("errors":["","",""]})";

// kBase with `extra` keys added at its end (a repeated key is the last one's).
QByteArray withKeys(const QByteArray &extra)
{
    return kBase.chopped(1) + ',' + extra + '}';
}

// Strings and bare words across the reader's 64 KiB pieces: escapes, quotes and the words in and
// out of strings at every offset near a piece's end.
QByteArray acrossPieces()
{
    QByteArray text;
    for (int i = 0; i < 70000; ++i)
        text += i % 7 == 0 ? "\\\"NaN" : "a";
    QByteArray extra = "\"label\":\"" + text + "\",\"x\":[";
    for (int i = 0; i < 30000; ++i)
        extra += (i ? "," : "") + QByteArray(i % 3 == 0 ? "NaN" : i % 3 == 1 ? "-Infinity" : "\"Infinity\"");
    return withKeys(extra + "],\"request_rate\":Infinity");
}

} // namespace

class TestResultReader final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }
    void fixturesReadAsTheDocumentReaderDid_data()
    {
        QTest::addColumn<QString>("name");
        for (const char *name : { "real/vllm_LambdaLabsML_vllm-benchmark_llama3-8b-1xh100-len2048.json",
                 "real/vllm_nerdalert_vllm-bench-automation_results.jsonl",
                 "real/sglang_TonyLi15_sglang-benchmark_agg-n50-in128-out64-c8.jsonl" })
            QTest::newRow(name) << QString::fromLatin1(name);
    }
    void fixturesReadAsTheDocumentReaderDid()
    {
        QFETCH(QString, name);
        QFile f(QStringLiteral(SERVESCOPE_TEST_DATA "/") + name);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        if (name.endsWith(QLatin1String(".json")))
            compareObject(bytes, 0);
        const QList<QByteArray> lines = bytes.split('\n');
        for (int i = 0; i < lines.size(); ++i) {
            if (!lines.at(i).trimmed().isEmpty())
                compareObject(lines.at(i).trimmed(), i + 1);
        }
    }

    void shapesReadAsTheDocumentReaderDid_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::newRow("plain") << kBase;
        QTest::newRow("bare Infinity and NaN, and the words in strings")
            << withKeys("\"request_rate\":Infinity,\"x\":NaN,\"y\":-Infinity,"
                        "\"generated_texts\":[\"Infinity NaN\",\"\\\"NaN\",\"-Infinity\"]");
        QTest::newRow("repeated keys: the last wins")
            << withKeys(R"("ttfts":[0.06,0.07,0.08],"completed":2,"failed":1,"errors":["","boom",""],"ttfts":[1,2,3])");
        QTest::newRow("an array key first a number, then an array") << withKeys(R"("itls":5,"itls":[[],[],null])");
        QTest::newRow("an array key last a number") << withKeys(R"("itls":5)");
        QTest::newRow("nulls and number words in arrays")
            << withKeys(R"("input_lens":[null,1e30,"inf"],"ttfts":[0.05,null,"NaN"],"itls":[[0.1,null],null,[]],)"
                        R"("latencies":[0.3,"Infinity",0.5],"start_times":[0,0.1,0.2],"queue_times":[0,0,-0.0])");
        QTest::newRow("texts that are no strings") << withKeys(R"("generated_texts":[1,null,["x",{"a":"b"}],{}])");
        QTest::newRow("large and negative lengths")
            << withKeys(R"("input_lens":[9007199254740993,-5,3.7,18446744073709551615],"output_lens":[1e19,-1e19,0])");
        QTest::newRow("a gap of the wrong type") << withKeys(R"("itls":[[0.1],[0.1],"x"])");
        QTest::newRow("a nested gap") << withKeys(R"("itls":[[0.1],[[0.1]],[]])");
        QTest::newRow("two arrays of the wrong type") << withKeys(R"("ttfts":{"a":1},"input_lens":"x")");
        QTest::newRow("a nested entry") << withKeys(R"("ttfts":[[0.1],0.1,0.1])");
        QTest::newRow("a boolean entry") << withKeys(R"("output_lens":[1,true,3])");
        QTest::newRow("a word that is no number") << withKeys(R"("latencies":[1,"fast",3])");
        QTest::newRow("old keys, nulls, objects")
            << withKeys(R"("p99_latency_ms":5,"p99_e2el_ms":4,"request_goodput:":null,"max_concurrency":null,)"
                        R"("server_info":{"a":[1,{"ttfts":"x"}]},"flag":true,"servescope_x_latency_ms":1)");
        QTest::newRow("sglang by its keys") << withKeys(R"("total_output_tokens_retokenized":7)");
        QTest::newRow("escapes and unicode")
            << withKeys("\"label\":\"a\\\"b\\\\c\\u00e9\\ud83d\\ude00\",\"errors\":[\"\\n\",\"\",\"\"]");
        QTest::newRow("no arrays") << QByteArray(R"({"completed":3,"request_rate":4})");
        QTest::newRow("empty object") << QByteArray("{}");
        QTest::newRow("an array") << QByteArray("[1,2,3]");
        QTest::newRow("a number") << QByteArray("42");
        QTest::newRow("a string") << QByteArray("\"Infinity\"");
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("trailing text") << kBase + " xyz";
        QTest::newRow("two objects") << kBase + kBase;
        QTest::newRow("cut short") << kBase.left(100);
        QTest::newRow("number overflow") << withKeys(R"("duration":1e400)");
        QTest::newRow("invalid UTF-8") << withKeys("\"label\":\"\xff\"");
        QTest::newRow("comment") << QByteArray("{/* c */\"completed\":1}");
        QTest::newRow("across pieces") << acrossPieces();
    }
    void shapesReadAsTheDocumentReaderDid()
    {
        QFETCH(QByteArray, json);
        compareObject(json, 3);
    }

    // A column's ends take 4 bytes while they fit and widen, values kept, once one does not.
    void columnEndsWidenPastFourBytes()
    {
        ColumnEnds ends;
        ends.append(3);
        ends.append(0xffffffff);
        QCOMPARE(ends.at(1), qsizetype(0xffffffff));
        ends.growLast();
        QCOMPARE(ends.at(1), qsizetype(0x100000000));
        ends.append(qsizetype(5000000000));
        QCOMPARE(ends.size(), 3);
        QCOMPARE(ends.at(0), qsizetype(3));
        QCOMPARE(ends.startOf(2), qsizetype(0x100000000));
        QCOMPARE(ends.at(2), qsizetype(5000000000));
        ColumnEnds narrow;
        for (qsizetype e : { 3LL, 0x100000000LL, 5000000000LL })
            narrow.append(qsizetype(e));
        QVERIFY(narrow == ends);
    }

    // The stream reads each line, or a pretty-printed object, from the file itself.
    void streamReadsAsTheDocumentReaderDid()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("lines.jsonl"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        const QList<QByteArray> lines
            = { kBase, withKeys(R"("request_rate":Infinity)"), "{not json}", withKeys(R"("itls":5)"), acrossPieces() };
        f.write("\n" + lines.at(0) + "\n \f" + lines.at(1) + "\v\r\n\n" + lines.at(2) + '\n' + lines.at(3) + '\n'
            + lines.at(4));
        f.close();
        ResultFileStream stream;
        QString error;
        QVERIFY(stream.open(path, &error));
        const int at[] = { 2, 3, 5, 6, 7 };
        for (int i = 0; i < lines.size(); ++i) {
            ResultRun run, reference;
            const QString dom = domReadObject(lines.at(i), at[i], &reference);
            const ResultFileStream::Item item = stream.next(&run, &error);
            QCOMPARE(item == ResultFileStream::Item::Run, dom.isEmpty());
            if (dom.isEmpty())
                QVERIFY2(difference(run, reference).isEmpty(), qPrintable(difference(run, reference)));
            else
                QCOMPARE(error, QStringLiteral("line %1: %2").arg(at[i]).arg(expectedError(dom)));
        }
        ResultRun run;
        QCOMPARE(stream.next(&run, &error), ResultFileStream::Item::End);

        const QString pretty = dir.filePath(QStringLiteral("pretty.json"));
        QFile p(pretty);
        QVERIFY(p.open(QIODevice::WriteOnly));
        const QByteArray spread = QByteArray(kBase).replace(",", ",\n  ").replace("{", "{\n  ");
        p.write(spread);
        p.close();
        ResultFileStream whole;
        QVERIFY(whole.open(pretty, &error));
        ResultRun reference;
        QVERIFY(domReadObject(spread, 0, &reference).isEmpty());
        QCOMPARE(whole.next(&run, &error), ResultFileStream::Item::Run);
        QVERIFY2(difference(run, reference).isEmpty(), qPrintable(difference(run, reference)));
        QCOMPARE(whole.next(&run, &error), ResultFileStream::Item::End);
    }
};

QTEST_GUILESS_MAIN(TestResultReader)
#include "tst_resultreader.moc"

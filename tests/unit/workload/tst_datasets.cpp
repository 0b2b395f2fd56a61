// SPDX-License-Identifier: MIT
// The named datasets build what their names say: vLLM's sonnet construction, custom JSONL
// prompts, and a refusal with the reason for what ServeScope cannot build.
#include "workload/datasets.h"
#include "workload/promptgen.h"
#include "workload/sharegpt.h"
#include "workload/sonnet.h"
#include "workload/trace.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QtEndian>
#include <QTest>

#include <cmath>

using namespace ServeScope;

namespace {

constexpr int kChatOverhead = 7; // a chat template of the counter below

int words(const QString &text)
{
    return int(text.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts).size());
}

// Counts like a server whose tokenizer makes one token per word, in a chat template.
TokenCounter wordCounter(int *calls = nullptr)
{
    return [calls](const QStringList &texts) {
        if (calls)
            ++*calls;
        QList<int> out;
        for (const QString &t : texts)
            out << words(t) + kChatOverhead;
        return out;
    };
}

// One token per word, no chat template around it.
TokenCounter bareWordCounter()
{
    return [](const QStringList &texts) {
        QList<int> n;
        for (const QString &t : texts)
            n << int(t.split(u' ', Qt::SkipEmptyParts).size());
        return n;
    };
}

QString data(const char *name)
{
    return QStringLiteral(SERVESCOPE_TEST_DATA "/datasets/") + QLatin1String(name);
}

Experiment experiment(const QString &dataset, const QString &path, int inputLen, int outputLen)
{
    Experiment x;
    x.name = QStringLiteral("d");
    x.endpoint.baseUrl = QStringLiteral("http://127.0.0.1:1");
    x.endpoint.model = QStringLiteral("m");
    x.dataset.name = dataset;
    x.dataset.path = path;
    x.dataset.seed = 1000;
    LoadPoint p;
    p.concurrency = 1;
    p.inputLen = inputLen;
    p.outputLen = outputLen;
    p.numPrompts = 10;
    x.load.points = { p };
    x.variants = { Variant { QStringLiteral("baseline"), {}, QString(), false } };
    return x;
}

QJsonObject bodyOf(const PreparedRequest &r)
{
    return QJsonDocument::fromJson(r.body).object();
}

QString chatText(const PreparedRequest &r)
{
    return bodyOf(r)
        .value(QLatin1String("messages"))
        .toArray()
        .first()
        .toObject()
        .value(QLatin1String("content"))
        .toString();
}

// A trace file of `text` in `dir`.
QString traceFile(const QTemporaryDir &dir, const char *name, const QByteArray &text)
{
    const QString path = dir.filePath(QLatin1String(name));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(text) != text.size())
        return {};
    return path;
}

QString traceError(const QString &path, const QString &format = {}, qsizetype rows = kMaxTraceRows)
{
    Trace t;
    Reason why;
    return readTrace(path, format, rows, &t, &why) ? QString() : why.text();
}

QStringList builtInLines()
{
    DatasetContent c;
    QString error;
    Dataset d;
    d.name = QStringLiteral("sonnet");
    loadDataset(d, &c, &error);
    return c.lines;
}

} // namespace

class TestDatasets final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }

    void sonnetAsVllmBuildsIt_data()
    {
        QTest::addColumn<int>("inputLen");
        QTest::addColumn<int>("prefixLen");
        QTest::newRow("256, default prefix 200") << 256 << 200;
        QTest::newRow("550, prefix 200 (vLLM defaults)") << 550 << 200;
        QTest::newRow("1024, prefix 0") << 1024 << 0;
        QTest::newRow("300, prefix 290") << 300 << 290;
    }
    void sonnetAsVllmBuildsIt()
    {
        QFETCH(int, inputLen);
        QFETCH(int, prefixLen);
        const QStringList lines = builtInLines();
        QCOMPARE(lines.size(), 518); // vLLM's benchmarks/sonnet.txt
        QVERIFY(lines.first().startsWith(QLatin1String("FROM fairest creatures")));
        QVERIFY(lines.first().endsWith(QLatin1Char('\n')));
        const SonnetPrompts sonnet(lines, prefixLen, wordCounter());
        QCOMPARE(sonnet.baseTokens(), 11 + kChatOverhead); // the instruction is 11 words
        double wordsInFile = 0;
        for (const QString &l : lines)
            wordsInFile += words(l);
        QCOMPARE(sonnet.averageLineTokens(), wordsInFile / lines.size());
        QStringList prompts;
        QList<int> lengths;
        QString error;
        QVERIFY2(sonnet.build(42, inputLen, 50, &prompts, &lengths, &error), qPrintable(error));
        QCOMPARE(prompts.size(), 50);
        const int prefix = sonnet.prefixLines();
        QCOMPARE(prefix, qMax(0, int(std::lround((prefixLen - sonnet.baseTokens()) / sonnet.averageLineTokens()))));
        const QString fixed
            = QLatin1String(SonnetPrompts::kBasePrompt) + QStringList(lines.mid(0, prefix)).join(QString());
        for (int i = 0; i < prompts.size(); ++i) {
            QVERIFY(prompts[i].startsWith(fixed)); // the instruction, then the file's first lines
            QCOMPARE(lengths[i], words(prompts[i]) + kChatOverhead);
            QVERIFY2(lengths[i] <= inputLen, qPrintable(QString::number(lengths[i])));
            // One newline per line, but the file's last line has none (as readlines() gives it).
            QCOMPARE(int(prompts[i].count(QLatin1Char('\n')) + prompts[i].count(lines.last())),
                1 + sonnet.inputLines(inputLen));
        }
        // Drawn lines differ between prompts; the same seed draws the same prompts.
        QVERIFY(prompts[0] != prompts[1]);
        QStringList again;
        QVERIFY(sonnet.build(42, inputLen, 50, &again, &lengths, &error));
        QCOMPARE(again, prompts);
        QVERIFY(sonnet.build(43, inputLen, 50, &again, &lengths, &error));
        QVERIFY(again != prompts);
    }

    void sonnetRefusesWhatVllmRefuses_data()
    {
        QTest::addColumn<int>("inputLen");
        QTest::addColumn<int>("prefixLen");
        QTest::addColumn<QString>("error");
        QTest::newRow("input within the instruction")
            << 18 << 0 << QStringLiteral("sonnet: input_len 18 must be greater than the instruction's 18 tokens");
        QTest::newRow("prefix longer than input")
            << 100 << 400 << QStringLiteral("sonnet: prefix_len 400 is longer than input_len 100");
    }
    void sonnetRefusesWhatVllmRefuses()
    {
        QFETCH(int, inputLen);
        QFETCH(int, prefixLen);
        QFETCH(QString, error);
        Experiment x = experiment(QStringLiteral("sonnet"), QString(), inputLen, 10);
        x.dataset.prefixLen = prefixLen;
        const PromptGenerator gen(x);
        QVERIFY(gen.error().isEmpty());
        QString why;
        QVERIFY(gen.generate(0, 1, false, 5, wordCounter(), nullptr, &why).isEmpty());
        QCOMPARE(why, error);
    }

    void sonnetRequestsFromTheNamedFile()
    {
        Experiment x = experiment(QStringLiteral("sonnet"), data("short_poem.txt"), 38, 16);
        x.dataset.prefixLen = 0;
        x.endpoint.path = QStringLiteral("/v1/completions"); // text prompts even where random sends token IDs
        const PromptGenerator gen(x);
        QVERIFY(!gen.usesTokenIds());
        QVERIFY(gen.wantsTokenCounts());
        QList<int> measured;
        const QList<PreparedRequest> reqs = gen.generate(0, 1, false, 8, wordCounter(), &measured);
        QCOMPARE(reqs.size(), 8);
        for (int i = 0; i < reqs.size(); ++i) {
            const QString prompt = bodyOf(reqs[i]).value(QLatin1String("prompt")).toString();
            QVERIFY(prompt.startsWith(QLatin1String(SonnetPrompts::kBasePrompt)));
            for (const QString &line :
                prompt.mid(qsizetype(strlen(SonnetPrompts::kBasePrompt))).split(QLatin1Char('\n'), Qt::SkipEmptyParts))
                QVERIFY2(QStringLiteral("alpha epsilon iota nu rho phi").contains(line.section(QLatin1Char(' '), 0, 0)),
                    qPrintable(line));
            QCOMPARE(reqs[i].targetInputLen, measured[i]); // as vLLM's prompt_len
            QCOMPARE(reqs[i].targetInputLen, 38); // 18 for the instruction, five lines of four words
            QCOMPARE(reqs[i].targetOutputLen, 16);
            QCOMPARE(bodyOf(reqs[i]).value(QLatin1String("max_tokens")).toInt(), 16);
        }
        // Every variant of an experiment sees the same prompts; another repeat does not.
        const QList<PreparedRequest> same = gen.generate(0, 1, false, 8, wordCounter());
        const QList<PreparedRequest> other = gen.generate(0, 2, false, 8, wordCounter());
        QCOMPARE(same.first().promptHash.toByteArray(), reqs.first().promptHash.toByteArray());
        QCOMPARE(reqs.first().promptHash.size(), PromptHash::Size);
        QVERIFY(other.first().promptHash != reqs.first().promptHash);
    }

    void sonnetWithoutTokenizerEstimates()
    {
        const Experiment x = experiment(QStringLiteral("sonnet"), QString(), 256, 100);
        const PromptGenerator gen(x);
        QList<int> measured;
        const QList<PreparedRequest> reqs = gen.generate(0, 1, false, 3, TokenCounter(), &measured);
        QCOMPARE(reqs.size(), 3);
        QCOMPARE(measured, QList<int>(3, -1));
        QCOMPARE(reqs.first().targetInputLen, 0); // unknown: the server's usage counts it
        const int w = words(chatText(reqs.first()));
        QVERIFY2(w > 200 && w < 300, qPrintable(QString::number(w))); // one token per word, about 256
    }

    void custom()
    {
        const Experiment x = experiment(QStringLiteral("custom"), data("custom.jsonl"), 0, 32);
        const PromptGenerator gen(x);
        QVERIFY2(gen.error().isEmpty(), qPrintable(gen.error()));
        const QList<PreparedRequest> reqs = gen.generate(0, 1, false, 12, wordCounter());
        QCOMPARE(reqs.size(), 12);
        const QHash<QString, int> expected { { QStringLiteral("What is the capital of India?"), 32 },
            { QStringLiteral("What is the capital of Iran?"), 12 },
            { QStringLiteral("Write a haiku about the sea."), 40 },
            { QStringLiteral("Explain TCP slow start in two sentences."), 32 },
            { QStringLiteral("列出三种常见的负载均衡算法。"), 64 } };
        QSet<QString> seen;
        for (int i = 0; i < reqs.size(); ++i) {
            const QString text = chatText(reqs[i]);
            QVERIFY2(expected.contains(text), qPrintable(text));
            QCOMPARE(reqs[i].targetOutputLen, expected.value(text));
            QCOMPARE(bodyOf(reqs[i]).value(QLatin1String("max_completion_tokens")).toInt(), expected.value(text));
            QCOMPARE(reqs[i].targetInputLen, words(text) + kChatOverhead);
            if (i < 5)
                QVERIFY(!seen.contains(text)); // each prompt once before any repeats
            seen.insert(text);
        }
        QCOMPARE(seen.size(), 5);
        QCOMPARE(chatText(reqs[5]), chatText(reqs[0])); // then they cycle
        // Another repeat draws another order.
        QStringList a, b;
        for (const PreparedRequest &r : reqs.mid(0, 5))
            a << chatText(r);
        for (const PreparedRequest &r : gen.generate(0, 2, false, 5, wordCounter()))
            b << chatText(r);
        QVERIFY(a != b);
    }

    void refusals_data()
    {
        QTest::addColumn<QString>("dataset");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("problem");
        QTest::newRow("sharegpt missing")
            << QStringLiteral("sharegpt") << data("nothing.json")
            << QStringLiteral("dataset.path: cannot read the sharegpt file: No such file or directory");
        QTest::newRow("sharegpt truncated")
            << QStringLiteral("sharegpt") << data("sharegpt_truncated.json")
            << QStringLiteral("dataset.path: the file ends inside the list (truncated?)");
        QTest::newRow("sharegpt not a list")
            << QStringLiteral("sharegpt") << data("custom.jsonl")
            << QStringLiteral("dataset.path: the file must be a JSON list of conversations");
        QTest::newRow("custom bad line") << QStringLiteral("custom") << data("custom_bad.jsonl")
                                         << QStringLiteral("dataset.path: line 2: needs a non-empty string \"prompt\"");
        QTest::newRow("custom missing") << QStringLiteral("custom") << data("nothing.jsonl")
                                        << QStringLiteral("dataset.path: cannot read the custom dataset: No such file "
                                                          "or directory");
    }
    void refusals()
    {
        QFETCH(QString, dataset);
        QFETCH(QString, path);
        QFETCH(QString, problem);
        const Experiment x = experiment(dataset, path, 8, 8);
        const QList<Problem> problems = checkDatasets(x);
        QCOMPARE(problems.size(), 1);
        QVERIFY(problems.first().isError());
        QCOMPARE(problems.first().toString(), problem);
        const PromptGenerator gen(x);
        QCOMPARE(gen.error(),
            QLatin1String("dataset ") + dataset + QLatin1String(": ") + problem.section(QLatin1String(": "), 1));
        QString why;
        QVERIFY(gen.generate(0, 1, false, 3, {}, nullptr, &why).isEmpty());
        QCOMPARE(why, gen.error());
    }

    void shareGptAsVllmFiltersIt()
    {
        QString error;
        const std::shared_ptr<const ShareGptSet> set = loadShareGpt(data("sharegpt.json"), 1000, &error);
        QVERIFY2(set, qPrintable(error));
        QCOMPARE(set->conversations, 6); // two turns or more: not "b", "not an object" or "h"
        QCOMPARE(set->pairs.size(), 6);
        QCOMPARE(loadShareGpt(data("sharegpt.json"), 1000, &error).get(), set.get()); // cached
        bool quoted = false;
        for (const ShareGptPair &p : set->pairs)
            quoted = quoted
                || p.completion == QStringLiteral("Here it is: {\"a\": \"} {\"} and that is all you asked for.");
        QVERIFY(quoted);

        // Output from the reference completion: "c" (prompt of one word) and "f" (completion of
        // one word) fail vLLM's filter; with a fixed output length only "c" does.
        const Experiment x = experiment(QStringLiteral("sharegpt"), data("sharegpt.json"), 0, 0);
        const PromptGenerator gen(x);
        QVERIFY2(gen.error().isEmpty(), qPrintable(gen.error()));
        const QList<PreparedRequest> reqs = gen.generate(0, 1, false, 10, wordCounter());
        QCOMPARE(reqs.size(), 10);
        QSet<QString> first;
        for (int i = 0; i < 4; ++i) {
            const QString prompt = chatText(reqs[i]);
            first.insert(prompt);
            QCOMPARE(reqs[i].targetInputLen, words(prompt));
            for (const ShareGptPair &p : set->pairs) {
                if (p.prompt == prompt)
                    QCOMPARE(reqs[i].targetOutputLen, words(p.completion));
            }
        }
        QCOMPARE(first.size(), 4);
        QVERIFY(!first.contains(QStringLiteral("Hi")));
        QVERIFY(!first.contains(QStringLiteral("Give me four words now please.")));
        QCOMPARE(chatText(reqs[4]), chatText(reqs[0])); // then repeated, as vLLM oversamples

        Experiment fixed = x;
        fixed.load.points[0].outputLen = 32;
        QSet<QString> passing;
        for (const PreparedRequest &r : PromptGenerator(fixed).generate(0, 1, false, 5, wordCounter())) {
            passing.insert(chatText(r));
            QCOMPARE(r.targetOutputLen, 32);
        }
        QCOMPARE(passing.size(), 5);
        QVERIFY(passing.contains(QStringLiteral("Give me four words now please.")));
    }

    void shareGptStreamsLargeFiles()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("big.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("[");
        const int n = 3 * kShareGptKeep;
        for (int i = 0; i < n; ++i) {
            f.write(
                QStringLiteral("%1{\"id\": \"%2\", \"conversations\": [{\"from\": \"human\", \"value\": \"prompt "
                               "number %2 with some words\"}, {\"from\": \"gpt\", \"value\": \"reply %2 [x] {y}\"}]}")
                    .arg(i ? QStringLiteral(",\n") : QString())
                    .arg(i)
                    .toUtf8());
        }
        f.write("]\n");
        f.close();
        QString error;
        const auto a = loadShareGpt(path, 1, &error);
        QVERIFY2(a, qPrintable(error));
        QCOMPARE(a->conversations, n);
        QCOMPARE(a->pairs.size(), kShareGptKeep); // bounded, whatever the file holds
        const auto b = loadShareGpt(path, 2, &error);
        QVERIFY(b && b.get() != a.get());
        QVERIFY(a->pairs.first().prompt != b->pairs.first().prompt); // another seed keeps others
        QVERIFY(a->pairs.first().completion.endsWith(QLatin1String("[x] {y}")));
    }

    void sonnetFileMissingWarns()
    {
        Experiment x = experiment(QStringLiteral("sonnet"), QStringLiteral("/workspace/datasets/sonnet.txt"), 256, 100);
        const QList<Problem> problems = checkDatasets(x);
        QCOMPARE(problems.size(), 1);
        QVERIFY(!problems.first().isError());
        QCOMPARE(problems.first().path, QStringLiteral("dataset.path"));
        // A variant that names a file that is there has no problem.
        x.variants << Variant { QStringLiteral("own"), {}, QString(), false };
        x.variants[1].changes.set(QStringLiteral("dataset.path"), data("short_poem.txt"));
        QCOMPARE(checkDatasets(x).size(), 1);
        QVERIFY(checkDatasets(experiment(QStringLiteral("random"), QString(), 8, 8)).isEmpty());
    }

    void randomStillSendsTokenIds()
    {
        Experiment x = experiment(QStringLiteral("random"), QString(), 64, 8);
        x.endpoint.path = QStringLiteral("/v1/completions");
        const PromptGenerator gen(x);
        QVERIFY(gen.usesTokenIds());
        const QList<PreparedRequest> reqs = gen.generate(0, 1, false, 2);
        QCOMPARE(bodyOf(reqs.first()).value(QLatin1String("prompt")).toArray().size(), 64);
        QCOMPARE(reqs.first().targetInputLen, 64);
    }

    // The engine's list of random token-ID prompts builds each as it is sent, exactly the request generate() builds
    // ahead; other datasets' lists are built ahead.
    void randomTokenIdsBuiltWhenSent()
    {
        Experiment x = experiment(QStringLiteral("random"), QString(), 40, 8);
        x.endpoint.path = QStringLiteral("/v1/completions");
        x.dataset.rangeRatio = 0.5;
        const PromptGenerator gen(x);
        QList<int> early, late;
        const QList<PreparedRequest> built = gen.generate(0, 2, false, 50, {}, &early);
        const std::shared_ptr<const PromptList> sent = gen.prompts(0, 2, false, 50, {}, &late);
        QVERIFY(sent);
        QCOMPARE(sent->size(), 50);
        QCOMPARE(late, early);
        QSet<int> lengths;
        for (int i = 0; i < 50; ++i) {
            const PreparedRequest r = sent->at(i);
            QCOMPARE(r.body, built[i].body);
            QCOMPARE(r.promptHash.toByteArray(), built[i].promptHash.toByteArray());
            QCOMPARE(r.targetInputLen, built[i].targetInputLen);
            QCOMPARE(r.targetOutputLen, built[i].targetOutputLen);
            lengths.insert(r.targetInputLen);
        }
        QVERIFY(lengths.size() > 1); // the range ratio spreads them
        QCOMPARE(somePrompts(sent, { 7, 3 })->at(1).body, built[3].body);

        // Its prompts, as a project stores them, taken without building the bodies: the same as read from them.
        for (int i = 0; i < 50; ++i) {
            const std::optional<PromptContent> fast = sent->prompt(i), fromBody = promptOf(built[i]);
            QVERIFY(fast && fromBody);
            QCOMPARE(fast->hash.toByteArray(), built[i].promptHash.toByteArray());
            QCOMPARE(fast->tokens, fromBody->tokens);
            QCOMPARE(fast->tokens.size(), qsizetype(built[i].targetInputLen) * 4);
            QVERIFY(fast->text.isEmpty());
        }
        QCOMPARE(somePrompts(sent, { 7, 3 })->prompt(1)->tokens, promptOf(built[3])->tokens);
        // The hash is of the IDs as QJsonDocument writes them (projects written before keep matching), and the body
        // holds every field beside them.
        for (int i = 0; i < 50; ++i) {
            const QJsonObject body = bodyOf(built[i]);
            const QJsonArray ids = body.value(QLatin1String("prompt")).toArray();
            QCOMPARE(ids.size(), built[i].targetInputLen);
            QCOMPARE(built[i].promptHash.toByteArray(),
                PromptHash(QCryptographicHash::hash(
                               QJsonDocument(ids).toJson(QJsonDocument::Compact), QCryptographicHash::Sha256))
                    .toByteArray());
            QCOMPARE(body.value(QLatin1String("max_tokens")).toInt(), built[i].targetOutputLen);
            QCOMPARE(body.value(QLatin1String("model")).toString(), x.endpoint.model);
            QCOMPARE(body.value(QLatin1String("stream")).toBool(), true);
            QCOMPARE(body.size(), bodyOf(built[0]).size());
        }
        const qint32 first = qFromLittleEndian<qint32>(sent->prompt(0)->tokens.constData());
        QCOMPARE(first, bodyOf(built[0]).value(QLatin1String("prompt")).toArray().first().toInt());
    }

    // A text prompt (random text at a chat endpoint) is stored as its user message.
    void textPromptIsTheUserMessage()
    {
        Experiment x = experiment(QStringLiteral("random"), QString(), 16, 8);
        x.endpoint.path = QStringLiteral("/v1/chat/completions");
        const PromptGenerator gen(x);
        QVERIFY(!gen.usesTokenIds());
        const QList<PreparedRequest> built = gen.generate(0, 1, false, 3);
        const std::shared_ptr<const PromptList> list = builtPrompts(built);
        for (int i = 0; i < 3; ++i) {
            const std::optional<PromptContent> p = list->prompt(i);
            QVERIFY(p);
            QVERIFY(p->tokens.isEmpty());
            const QJsonArray messages = bodyOf(built[i]).value(QLatin1String("messages")).toArray();
            QCOMPARE(p->text, messages.last().toObject().value(QLatin1String("content")).toString());
            QVERIFY(!p->text.isEmpty());
        }
        QVERIFY(!promptOf(PreparedRequest { QByteArrayLiteral("{\"prompt\": 5}"), 1, 1, {} }));
    }

    // shared_prefix as token IDs: each prompt is one of the groups' prefixes (the same at every point and repeat,
    // warmups priming the groups in turn) and a suffix of its own; without a Zipf exponent every group equally often.
    void sharedPrefixTokenIds()
    {
        Experiment x = experiment(QStringLiteral("shared_prefix"), QString(), 96, 8);
        x.endpoint.path = QStringLiteral("/v1/completions");
        x.dataset.prefixLen = 64;
        x.dataset.groups = 4;
        const PromptGenerator gen(x);
        QVERIFY(gen.error().isEmpty());
        QVERIFY(gen.usesTokenIds());
        // The prompt's first 64 IDs and the rest, as compact JSON.
        const auto split = [](const PreparedRequest &r) {
            const QJsonArray ids = bodyOf(r).value(QLatin1String("prompt")).toArray();
            QJsonArray prefix, suffix;
            for (qsizetype i = 0; i < ids.size(); ++i)
                (i < 64 ? prefix : suffix).append(ids.at(i));
            return std::pair { QJsonDocument(prefix).toJson(QJsonDocument::Compact),
                QJsonDocument(suffix).toJson(QJsonDocument::Compact) };
        };
        const QList<PreparedRequest> warm = gen.generate(0, 1, true, 4);
        QList<QByteArray> prefixes;
        for (const PreparedRequest &r : warm) {
            QCOMPARE(bodyOf(r).value(QLatin1String("prompt")).toArray().size(), 96);
            QCOMPARE(r.targetInputLen, 96);
            prefixes << split(r).first;
        }
        QCOMPARE(QSet<QByteArray>(prefixes.begin(), prefixes.end()).size(), 4); // every group primed once
        const QList<PreparedRequest> reqs = gen.generate(0, 1, false, 40);
        QMap<int, int> perGroup;
        QSet<QByteArray> suffixes;
        for (const PreparedRequest &r : reqs) {
            const auto [prefix, suffix] = split(r);
            QVERIFY(prefixes.contains(prefix));
            ++perGroup[int(prefixes.indexOf(prefix))];
            suffixes.insert(suffix);
        }
        QCOMPARE(perGroup, (QMap<int, int> { { 0, 10 }, { 1, 10 }, { 2, 10 }, { 3, 10 } }));
        QCOMPARE(suffixes.size(), 40);
        // Another point and repeat: the same prefixes, other suffixes, another order.
        const QList<PreparedRequest> again = gen.generate(0, 2, false, 40);
        QVERIFY(prefixes.contains(split(again.first()).first));
        QVERIFY(!suffixes.contains(split(again.first()).second));
        QCOMPARE(gen.generate(0, 1, false, 40).first().body, reqs.first().body); // seeded
    }

    // With a Zipf exponent the first groups are the popular ones: group g drawn about (g + 1)^-s / H as often.
    void sharedPrefixZipf()
    {
        Experiment x = experiment(QStringLiteral("shared_prefix"), QString(), 40, 8);
        x.endpoint.path = QStringLiteral("/v1/completions");
        x.dataset.prefixLen = 32;
        x.dataset.groups = 8;
        x.dataset.zipf = 1.2;
        const PromptGenerator gen(x);
        const QList<PreparedRequest> warm = gen.generate(0, 1, true, 8);
        QList<QJsonValue> firstIds;
        for (const PreparedRequest &r : warm)
            firstIds << bodyOf(r).value(QLatin1String("prompt")).toArray().at(0);
        const QList<PreparedRequest> reqs = gen.generate(0, 1, false, 4000);
        QList<int> counts(8, 0);
        for (const PreparedRequest &r : reqs)
            ++counts[int(firstIds.indexOf(bodyOf(r).value(QLatin1String("prompt")).toArray().at(0)))];
        double h = 0;
        for (int g = 1; g <= 8; ++g)
            h += std::pow(g, -1.2);
        for (int g = 0; g < 8; ++g) {
            const double expected = 4000 * std::pow(g + 1, -1.2) / h;
            QVERIFY2(std::abs(counts[g] - expected) < 5 * std::sqrt(expected) + 1,
                qPrintable(QStringLiteral("group %1: %2, expected %3").arg(g).arg(counts[g]).arg(expected)));
        }
        QVERIFY(counts[0] > 3 * counts[7]);
    }

    // As text (chat): the group's prefix words, a space, the prompt's own words, sized by the server's count.
    void sharedPrefixText()
    {
        Experiment x = experiment(QStringLiteral("shared_prefix"), QString(), 30, 8);
        x.endpoint.path = QStringLiteral("/v1/chat/completions");
        x.dataset.prefixLen = 20;
        x.dataset.groups = 2;
        const PromptGenerator gen(x);
        QVERIFY(!gen.usesTokenIds());
        const TokenCounter words = bareWordCounter();
        QList<int> measured;
        const QList<PreparedRequest> reqs = gen.generate(0, 1, false, 6, words, &measured);
        QCOMPARE(measured, QList<int>(6, 30));
        QSet<QString> prefixes;
        for (const PreparedRequest &r : reqs)
            prefixes.insert(chatText(r).split(u' ').mid(0, 20).join(u' '));
        QCOMPARE(prefixes.size(), 2);
    }

    // multi_turn: whole sessions of chat turns, each [system, user] with the place the conversation goes marked at
    // the user message; the lengths a turn expects grow by every earlier turn's input and output.
    void multiTurnSessions()
    {
        Experiment x = experiment(QStringLiteral("multi_turn"), QString(), 30, 8);
        x.endpoint.path = QStringLiteral("/v1/chat/completions");
        x.dataset.prefixLen = 12;
        x.dataset.turns = 3;
        const PromptGenerator gen(x);
        QVERIFY(gen.error().isEmpty());
        const TokenCounter words = bareWordCounter();
        QList<int> measured;
        const QList<PreparedRequest> reqs = gen.generate(0, 1, false, 7, words, &measured);
        QCOMPARE(reqs.size(), 9); // 7 requests need 3 whole sessions
        QCOMPARE(measured, (QList<int> { 42, -1, -1, 42, -1, -1, 42, -1, -1 }));
        QSet<QString> systems, users;
        for (int i = 0; i < reqs.size(); ++i) {
            const PreparedRequest &r = reqs[i];
            QCOMPARE(r.turn, i % 3);
            QCOMPARE(r.targetInputLen, 12 + (i % 3) * (30 + 8) + 30);
            QCOMPARE(r.targetOutputLen, 8);
            const QJsonArray messages = bodyOf(r).value(QLatin1String("messages")).toArray();
            QCOMPARE(messages.size(), 2);
            QCOMPARE(messages[0].toObject().value(QLatin1String("role")).toString(), QStringLiteral("system"));
            systems.insert(messages[0].toObject().value(QLatin1String("content")).toString());
            const QJsonObject user = messages[1].toObject();
            users.insert(user.value(QLatin1String("content")).toString());
            // The marked span is the user message itself, the conversation so far goes just before it.
            QCOMPARE(QJsonDocument::fromJson(r.body.mid(r.historyAt, r.messageEnd - r.historyAt)).object(), user);
            QByteArray withHistory = r.body;
            withHistory.insert(r.historyAt, R"({"content":"hi","role":"user"},{"content":"yes","role":"assistant"},)");
            const QJsonArray sent
                = QJsonDocument::fromJson(withHistory).object().value(QLatin1String("messages")).toArray();
            QCOMPARE(sent.size(), 4);
            QCOMPARE(sent[2].toObject().value(QLatin1String("content")).toString(), QStringLiteral("yes"));
            QCOMPARE(sent[3].toObject(), user);
        }
        QCOMPARE(systems.size(), 1); // one system prompt for every session
        QCOMPARE(users.size(), 9);
        // No system prompt: the conversation goes right after "[".
        x.dataset.prefixLen = 0;
        const QList<PreparedRequest> bare = PromptGenerator(x).generate(0, 1, false, 3);
        QCOMPARE(bodyOf(bare[0]).value(QLatin1String("messages")).toArray().size(), 1);
        QCOMPARE(bare[0].body.at(bare[0].historyAt - 1), '[');
        QCOMPARE(bare[2].targetInputLen, 2 * (30 + 8) + 30);
    }

    // multi_turn from a ShareGPT file: sessions are the conversations with enough user turns, each turn the user's
    // message as written (its counted length the input); none with enough turns is refused.
    void multiTurnFromShareGpt()
    {
        Experiment x = experiment(QStringLiteral("multi_turn"), data("sharegpt.json"), 30, 8);
        x.dataset.prefixLen = 0;
        x.dataset.turns = 2;
        const PromptGenerator gen(x);
        QVERIFY2(gen.error().isEmpty(), qPrintable(gen.error()));
        QList<int> measured;
        const QList<PreparedRequest> reqs = gen.generate(0, 1, false, 4, wordCounter(), &measured);
        QCOMPARE(reqs.size(), 4);
        for (int i = 0; i < 4; i += 2) { // only "g" has two user turns
            QVERIFY(chatText(reqs[i]).startsWith(QStringLiteral("Summarise the plot of Hamlet")));
            QCOMPARE(chatText(reqs[i + 1]), QStringLiteral("Thanks!"));
            QCOMPARE(measured[i], words(chatText(reqs[i])) + kChatOverhead);
            QCOMPARE(reqs[i + 1].targetInputLen, measured[i] + 8 + 1 + kChatOverhead); // each message counted alike
        }
        x.dataset.turns = 3;
        const PromptGenerator none(x);
        QCOMPARE(none.error(),
            QStringLiteral(
                "dataset multi_turn: no conversation of the sharegpt file has 3 user turns (dataset.turns)"));
    }

    // The three formats, told from their first line; times relative to the first request, in µs.
    void traceFormats()
    {
        QTemporaryDir dir;
        Trace t;
        Reason why;
        QVERIFY(
            readTrace(traceFile(dir, "m.jsonl",
                          "{\"timestamp\": 1000, \"input_length\": 700, \"output_length\": 9, \"hash_ids\": [4, 5]}\n"
                          "\n{\"timestamp\": 1250.5, \"input_length\": 20, \"output_length\": 3}\n"),
                QString(), kMaxTraceRows, &t, &why));
        QCOMPARE(t.format, TraceFormat::Mooncake);
        QCOMPARE(int(t.rows.size()), 2);
        QCOMPARE(t.rows[1].atUs, qint64(250500));
        QCOMPARE(t.rows[0].inputLen, 700);
        QCOMPARE(t.rows[0].outputLen, 9);
        QCOMPARE(t.rows[0].line, 1);
        QCOMPARE(t.rows[1].line, 3);
        QCOMPARE(t.rows[0].blockCount, 2u);
        QCOMPARE(t.blocks, (std::vector<quint64> { 4, 5 }));
        QCOMPARE(t.rows[1].blockCount, 0u);
        QCOMPARE(t.rate(), 1 / 0.2505);

        // Azure: absolute date and time with 7 fractional digits, across midnight.
        QVERIFY(readTrace(traceFile(dir, "a.csv",
                              "TIMESTAMP,ContextTokens,GeneratedTokens\r\n"
                              "2023-11-16 23:59:59.9000000,374,44\r\n"
                              "2023-11-17 00:00:01.0500001,396,109\r\n"),
            QString(), kMaxTraceRows, &t, &why));
        QCOMPARE(t.format, TraceFormat::Azure);
        QCOMPARE(t.rows[1].atUs, qint64(1150000));
        QCOMPARE(t.rows[1].inputLen, 396);
        QCOMPARE(t.rows[1].outputLen, 109);

        // BurstGPT: seconds; its failed requests (no response tokens) are counted and left out.
        QVERIFY(readTrace(traceFile(dir, "b.csv",
                              "Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type\n"
                              "5,ChatGPT,472,18,490,Conversation log\n"
                              "45,ChatGPT,1087,0,1087,Conversation log\n"
                              "118,GPT-4,417,30,447,API log\n"),
            QString(), kMaxTraceRows, &t, &why));
        QCOMPARE(t.format, TraceFormat::BurstGpt);
        QCOMPARE(int(t.rows.size()), 2);
        QCOMPARE(t.skipped, 1);
        QCOMPARE(t.rows[1].atUs, qint64(113000000));
        QCOMPARE(t.rows[1].inputLen, 417);

        // Only the rows asked for are read: the rest of the file is never looked at.
        QVERIFY(readTrace(traceFile(dir, "long.jsonl",
                              "{\"timestamp\": 0, \"input_length\": 5, \"output_length\": 1}\n"
                              "{\"timestamp\": 1, \"input_length\": 5, \"output_length\": 1}\n"
                              "not json at all\n"),
            QStringLiteral("mooncake"), 2, &t, &why));
        QCOMPARE(int(t.rows.size()), 2);
        QVERIFY(t.truncated);
    }

    // What cannot be replayed is refused with its line.
    void traceRefusals_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("format");
        QTest::addColumn<QString>("error");
        const QByteArray ok = "{\"timestamp\": 10, \"input_length\": 5, \"output_length\": 1}\n";
        QTest::newRow("unsorted") << ok + "{\"timestamp\": 9, \"input_length\": 5, \"output_length\": 1}\n"
                                  << QString()
                                  << "line 2: the timestamp is earlier than line 1's; a trace must be in time order";
        QTest::newRow("negative") << QByteArray("{\"timestamp\": -1, \"input_length\": 5, \"output_length\": 1}\n")
                                  << QString() << "line 1: the timestamp is negative or out of range";
        QTest::newRow("missing key") << ok + "{\"timestamp\": 11, \"output_length\": 1}\n"
                                     << QString() << "line 2: needs a number \"input_length\"";
        QTest::newRow("absurd length")
            << ok + "{\"timestamp\": 11, \"input_length\": 2000000000, \"output_length\": 1}\n"
            << QString() << "line 2: a length of 2000000000 tokens is beyond the 10000000 ServeScope sends";
        QTest::newRow("fraction") << QByteArray("{\"timestamp\": 1, \"input_length\": 5.5, \"output_length\": 1}\n")
                                  << QString() << "line 1: a length is not a whole number of tokens at least 0";
        QTest::newRow("bad ids") << QByteArray("{\"timestamp\": 1, \"input_length\": 5, \"output_length\": 1, "
                                               "\"hash_ids\": [1, \"x\"]}\n")
                                 << QString() << "line 1: \"hash_ids\" must hold whole numbers at least 0";
        QTest::newRow("missing column") << QByteArray("TIMESTAMP,ContextTokens\n2023-11-16 18:15:46,5\n") << QString()
                                        << "line 1: the header has no column \"GeneratedTokens\"";
        QTest::newRow("short row") << QByteArray("TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:15:46,5\n")
                                   << QString() << "line 2: has 2 columns; the header names 3";
        QTest::newRow("bad date") << QByteArray("TIMESTAMP,ContextTokens,GeneratedTokens\n2023-13-16 18:15:46,5,4\n")
                                  << QString()
                                  << "line 2: TIMESTAMP is not a date and time such as 2023-11-16 18:15:46.68";
        QTest::newRow("not a number") << QByteArray("Timestamp,Model,Request tokens,Response tokens\n1,m,five,4\n")
                                      << QString() << "line 2: column 3 is not a number";
        QTest::newRow("unknown") << QByteArray("a,b,c\n1,2,3\n") << QString()
                                 << "is not a trace ServeScope reads: Mooncake JSONL, or a CSV with the Azure trace's "
                                    "or BurstGPT's header";
        QTest::newRow("wrong format") << ok << QStringLiteral("azure")
                                      << "line 1: the header has no column \"TIMESTAMP\"";
        QTest::newRow("empty") << QByteArray("\n\n") << QString() << "the trace has no requests";
        QTest::newRow("only failed") << QByteArray("Timestamp,Model,Request tokens,Response tokens\n1,m,5,0\n")
                                     << QString() << "the trace has no request with prompt and output tokens";
        QTest::newRow("huge line") << QByteArray(kMaxTraceLineBytes + 10, ' ') + "\n"
                                   << QString() << "line 1: is longer than 1 MiB";
    }

    void traceRefusals()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, format);
        QFETCH(QString, error);
        QTemporaryDir dir;
        QCOMPARE(traceError(traceFile(dir, "t", text), format), error);
    }

    // A replay keeps the trace's gaps, scaled so the point's rate is the mean rate; an infinite rate sends at once.
    void traceSchedule()
    {
        Trace t;
        for (const qint64 us : { 0, 100000, 100000, 700000, 1000000 })
            t.rows.push_back(TraceRow { us, 10, 10, 0, 0, 0 });
        QCOMPARE(t.rate(), 4.0);
        QCOMPARE(traceOffsetsNs(t, 5, 8.0), (QVector<qint64> { 0, 50000000, 50000000, 350000000, 500000000 }));
        QCOMPARE(traceOffsetsNs(t, 4, 3.0), (QVector<qint64> { 0, 142857143, 142857143, 1000000000 }));
        QCOMPARE(traceOffsetsNs(t, 5, std::numeric_limits<double>::infinity()), QVector<qint64>(5, 0));
        QCOMPARE(traceOffsetsNs(t, 9, 4.0).size(), 5);
    }

    // Rows with equal hash_ids share those blocks' tokens exactly; the rest of each prompt is its own, the last block
    // cut to the row's length; each row asks for its own output length.
    void traceBlocksShared()
    {
        QTemporaryDir dir;
        const QString path = traceFile(dir, "m.jsonl",
            "{\"timestamp\": 0, \"input_length\": 40, \"output_length\": 3, \"hash_ids\": [7, 8, 9]}\n"
            "{\"timestamp\": 5, \"input_length\": 36, \"output_length\": 4, \"hash_ids\": [7, 8, 10]}\n"
            "{\"timestamp\": 9, \"input_length\": 20, \"output_length\": 5, \"hash_ids\": [7]}\n"
            "{\"timestamp\": 12, \"input_length\": 8, \"output_length\": 6, \"hash_ids\": [11]}\n");
        Experiment x = experiment(QStringLiteral("trace"), path, 0, 0);
        x.endpoint.path = QStringLiteral("/v1/completions");
        x.dataset.blockSize = 16;
        x.load.mode = LoadMode::Rate;
        x.load.points[0] = LoadPoint {};
        x.load.points[0].requestRate = 2;
        x.load.points[0].numPrompts = 4;
        const PromptGenerator gen(x);
        QVERIFY2(gen.error().isEmpty(), qPrintable(gen.error()));
        QList<int> measured;
        const QList<PreparedRequest> reqs = gen.generate(0, 1, false, 4, {}, &measured);
        QCOMPARE(reqs.size(), 4);
        QCOMPARE(measured, (QList<int> { 40, 36, 20, 8 }));
        // The engine's list builds each request as it is sent: the same requests.
        QList<int> late;
        const std::shared_ptr<const PromptList> sent = gen.prompts(0, 1, false, 6, {}, &late);
        QVERIFY(sent);
        QCOMPARE(sent->size(), 4);
        QCOMPARE(late, measured);
        for (int i = 0; i < 4; ++i) {
            QCOMPARE(sent->at(i).body, reqs[i].body);
            QCOMPARE(sent->at(i).promptHash.toByteArray(), reqs[i].promptHash.toByteArray());
            QCOMPARE(sent->at(i).targetOutputLen, reqs[i].targetOutputLen);
        }
        QList<QJsonArray> ids;
        for (int i = 0; i < 4; ++i) {
            ids << bodyOf(reqs[i]).value(QLatin1String("prompt")).toArray();
            QCOMPARE(ids[i].size(), measured[i]);
            QCOMPARE(reqs[i].targetInputLen, measured[i]);
            QCOMPARE(reqs[i].targetOutputLen, i + 3);
            QCOMPARE(bodyOf(reqs[i]).value(QLatin1String("max_tokens")).toInt(), i + 3);
        }
        const auto slice = [](const QJsonArray &a, int from, int n) { return a.toVariantList().mid(from, n); };
        QCOMPARE(slice(ids[1], 0, 32), slice(ids[0], 0, 32)); // blocks 7 and 8
        QVERIFY(slice(ids[1], 32, 4) != slice(ids[0], 32, 4)); // 10 against 9
        QCOMPARE(slice(ids[2], 0, 16), slice(ids[0], 0, 16)); // block 7
        QCOMPARE(slice(ids[2], 16, 4).size(), 4); // its own 4 tokens after the blocks it names
        QVERIFY(slice(ids[2], 16, 4) != slice(ids[0], 16, 4));
        QCOMPARE(slice(ids[3], 0, 8).size(), 8);
        QVERIFY(slice(ids[3], 0, 8) != slice(ids[0], 0, 8));
        // Another repeat replays with blocks of its own: nothing primed by the first.
        const QJsonArray again = bodyOf(gen.generate(0, 2, false, 4)[1]).value(QLatin1String("prompt")).toArray();
        QVERIFY(slice(again, 0, 16) != slice(ids[1], 0, 16));
        // The schedule: 4 requests at 2 req/s, the trace's gaps kept.
        QCOMPARE(gen.arrivalOffsetsNs(0, 4), (QVector<qint64> { 0, 625000000, 1125000000, 1500000000 }));
        // Block 7 comes back twice (16 tokens each), block 8 once: 48 of 104 prompt tokens.
        QCOMPARE(traceRepeatedShare(*gen.trace(), 4, 16), 48.0 / 104);
        // More requests than the trace has cannot keep its schedule.
        x.load.points[0].numPrompts = 5;
        QString error;
        QVERIFY(PromptGenerator(x).generate(0, 1, false, 5, {}, nullptr, &error).isEmpty());
        QCOMPARE(error, QStringLiteral("num_prompts 5 is more than the trace's 4 requests"));
        const QList<Problem> problems = checkDatasets(x);
        QCOMPARE(problems.size(), 1);
        QCOMPARE(problems.first().toString(),
            QStringLiteral("load.points[0].num_prompts: is more than the trace's 4 requests"));
    }

    // As text (chat): a shared block is the same words wherever it comes, sized once by the server's count.
    void traceText()
    {
        QTemporaryDir dir;
        const QString path = traceFile(dir, "m.jsonl",
            "{\"timestamp\": 0, \"input_length\": 24, \"output_length\": 3, \"hash_ids\": [1, 2]}\n"
            "{\"timestamp\": 5, \"input_length\": 30, \"output_length\": 4, \"hash_ids\": [1, 3]}\n");
        Experiment x = experiment(QStringLiteral("trace"), path, 0, 0);
        x.endpoint.path = QStringLiteral("/v1/chat/completions");
        x.dataset.blockSize = 12;
        const PromptGenerator gen(x);
        QVERIFY(!gen.usesTokenIds());
        const TokenCounter count = [](const QStringList &texts) {
            QList<int> n;
            for (const QString &t : texts)
                n << int(t.split(u' ', Qt::SkipEmptyParts).size());
            return n;
        };
        QList<int> measured;
        const QList<PreparedRequest> reqs = gen.generate(0, 1, false, 2, count, &measured);
        QCOMPARE(measured, (QList<int> { 24, 30 }));
        const QStringList a = chatText(reqs[0]).split(u' '), b = chatText(reqs[1]).split(u' ');
        QCOMPARE(a.size(), 24);
        QCOMPARE(b.size(), 30);
        QCOMPARE(b.mid(0, 12), a.mid(0, 12));
        QVERIFY(b.mid(12, 12) != a.mid(12, 12));
        QVERIFY(gen.arrivalOffsetsNs(0, 2).isEmpty()); // closed loop: the engine's own pace
    }
};

QTEST_GUILESS_MAIN(TestDatasets)
#include "tst_datasets.moc"

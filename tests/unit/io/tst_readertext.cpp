// SPDX-License-Identifier: MIT
// A reader's, importer's or dataset's messages: the C-locale line is what the CLI prints on stdout
// and tests compare, whatever translator is installed; the window and stderr show the translated
// line the result carries beside it.
#include "compare/runsource.h"
#include "import/resultimport.h"
#include "io/commandimport.h"
#include "io/experimentfile.h"
#include "storage/storewriter.h"
#include "workload/datasets.h"
#include "workload/sonnet.h"

#include <QCoreApplication>
#include <QFile>
#include <QObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QTranslator>

using namespace ServeScope;

namespace {

enum class Source { Json, Toml, Command, Dataset, ResultFile };

struct Lines {
    QString c; ///< the first error (or, with no error, the first warning) as the CLI prints it
    QString shown; ///< the same line as the window and stderr show it
};

} // namespace

Q_DECLARE_METATYPE(Source)

class TestReaderText final : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    int m_files = 0;

    static ExperimentReadResult readBad()
    {
        return readExperimentJson(QByteArrayLiteral("{\"name\": \"x\",\n"
                                                    " \"endpoint\": {\"base_url\": \"sim:\", \"model\": \"m\"},\n"
                                                    " \"load\": {\"mode\": \"concurrency\", \"points\": [\n"
                                                    "   {\"concurrency\": 2.5, \"bogus\": 1}]}}\n"));
    }

    QString write(const QByteArray &bytes)
    {
        const QString path = m_dir.filePath(QStringLiteral("f%1").arg(++m_files));
        QFile f(path);
        if (f.open(QIODevice::WriteOnly))
            f.write(bytes);
        return path;
    }

    template<typename R> static Lines first(const R &r)
    {
        const QString c = !r.errors.isEmpty() ? r.errors.first() : r.warnings.value(0);
        return { c, r.shownLine(c) };
    }

    // The lines `input` gives through the layer `source` reads it with; a result file's lines
    // start with its path, given here as "FILE".
    Lines produce(Source source, const QByteArray &input)
    {
        switch (source) {
        case Source::Json:
            return first(readExperimentJson(input));
        case Source::Toml:
            return first(importExperiment(input, ExperimentFormat::TomlLoadMatrix, QStringLiteral("x")));
        case Source::Command:
            return first(importCommand(QString::fromUtf8(input), QStringLiteral("x")));
        case Source::Dataset: {
            Experiment x;
            x.dataset.name = QStringLiteral("custom");
            x.dataset.path = write(input);
            const QList<Problem> problems = checkDatasets(x);
            if (problems.isEmpty())
                return {};
            return { problems.first().toString(), problems.first().translatedString() };
        }
        case Source::ResultFile: {
            const QString file = write(input);
            StoreWriter writer;
            QString error;
            if (!writer.open(m_dir.filePath(QStringLiteral("p%1.servescope").arg(++m_files)), &error))
                return { error, error };
            ResultImporter importer(writer);
            const ImportOutcome o = importer.importFile(file);
            writer.close();
            Lines l = first(o);
            l.c.replace(file, QStringLiteral("FILE"));
            l.shown.replace(file, QStringLiteral("FILE"));
            return l;
        }
        }
        return {};
    }

private Q_SLOTS:

    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }
    void cLineAndShownLine()
    {
        QTranslator zh;
        QVERIFY(zh.load(QStringLiteral(":/i18n/servescope_zh_CN.qm")));
        QVERIFY(QCoreApplication::installTranslator(&zh));
        const ExperimentReadResult r = readBad();
        QCoreApplication::removeTranslator(&zh);
        QVERIFY(!r.ok);
        QCOMPARE(r.errors,
            QStringList({ QStringLiteral("load.points[0].bogus: unknown key (line 4)"),
                QStringLiteral("load.points[0].concurrency: must be an integer (line 4)") }));
        QCOMPARE(r.shownLines(r.errors),
            QStringList({ QStringLiteral("load.points[0].bogus: 未知的键（第 4 行）"),
                QStringLiteral("load.points[0].concurrency: 必须是整数（第 4 行）") }));
        // A line with no translation is shown as it is.
        QCOMPARE(r.shownLine(QStringLiteral("anything else")), QStringLiteral("anything else"));
    }

    void withoutTranslatorBothAreEnglish()
    {
        const ExperimentReadResult r = readBad();
        QCOMPARE(r.shownLines(r.errors), r.errors);
    }

    void syntaxImportAndDatasetLines_data()
    {
        QTest::addColumn<Source>("source");
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<QString>("cLine");
        QTest::addColumn<QString>("shownLine");
        QTest::newRow("json truncated") << Source::Json << QByteArray("{")
                                        << QStringLiteral("line 1, column 2: expected a member name in double quotes")
                                        << QStringLiteral("第 1 行第 2 列：此处应为双引号括起的成员名");
        QTest::newRow("json duplicate key at a path")
            << Source::Json << QByteArray("{\"load\": {\"mode\": 1, \"mode\": 2}}")
            << QStringLiteral("line 1, column 28 (at load): duplicate key \"mode\"")
            << QStringLiteral("第 1 行第 28 列（位于 load）：重复的键 \"mode\"");
        QTest::newRow("json invalid utf-8")
            << Source::Json << QByteArray("{\n\"name\": \"\xFF\"}") << QStringLiteral("line 2: invalid UTF-8")
            << QStringLiteral("第 2 行：无效的 UTF-8");
        QTest::newRow("json value named")
            << Source::Json
            << QByteArray("{\"name\": \"x\", \"endpoint\": {\"base_url\": \"sim:\", \"model\": \"m\", "
                          "\"protocol\": \"h9\"}, \"load\": {\"points\": [{\"concurrency\": 1}]}}")
            << QStringLiteral("endpoint.protocol: must be one of http1, http2 (line 1)")
            << QStringLiteral("endpoint.protocol: 必须是以下之一：http1, http2（第 1 行）");
        QTest::newRow("json literal key")
            << Source::Json << QByteArray("{\"endpoint\": {\"api_key\": \"k\"}}")
            << QStringLiteral("endpoint.api_key: a literal API key is not allowed; files "
                              "may only name the key (api_key_env or keychain_entry) (line 1)")
            << QStringLiteral("endpoint.api_key: 不允许写入明文 API 密钥；文件中只能写明密钥"
                              "的来源（api_key_env 或 keychain_entry）（第 1 行）");
        QTest::newRow("toml guard") << Source::Toml << QByteArray("a = \xC3\xA9\n")
                                    << QStringLiteral(
                                           "line 1, column 5: non-ASCII character outside a string or comment")
                                    << QStringLiteral("第 1 行第 5 列：字符串或注释之外有非 ASCII 字符");
        QTest::newRow("toml converter") << Source::Toml << QByteArray("[client]\nrate = nan\n")
                                        << QStringLiteral("line 2, column 8: nan is not a number ServeScope accepts")
                                        << QStringLiteral("第 2 行第 8 列：ServeScope 不接受 nan 作为数字");
        QTest::newRow("command flag") << Source::Command << QByteArray("vllm bench serve --num-prompts x\n")
                                      << QStringLiteral("line 1: --num-prompts: needs one number")
                                      << QStringLiteral("第 1 行：--num-prompts：需要一个数字");
        QTest::newRow("command none") << Source::Command << QByteArray("ls -la\n")
                                      << QStringLiteral("no vllm serve, sglang.launch_server, vllm bench serve, "
                                                        "benchmark_serving.py or sglang.bench_serving command found")
                                      << QStringLiteral("未找到 vllm serve、sglang.launch_server、vllm bench serve、"
                                                        "benchmark_serving.py 或 sglang.bench_serving 命令");
        QTest::newRow("dataset custom line")
            << Source::Dataset << QByteArray("{\"prompt\": \"a\"}\n{\"text\": 1}\n")
            << QStringLiteral("dataset.path: line 2: needs a non-empty string \"prompt\"")
            << QStringLiteral("dataset.path: 第 2 行：需要非空字符串 \"prompt\"");
        QTest::newRow("dataset empty") << Source::Dataset << QByteArray("\n")
                                       << QStringLiteral("dataset.path: the custom dataset has no prompts")
                                       << QStringLiteral("dataset.path: 自定义数据集中没有 prompt");
        QTest::newRow("result line not json")
            << Source::ResultFile << QByteArray("nope\n{\"completed\": 1}\n")
            << QStringLiteral("FILE: line 1: not valid JSON") << QStringLiteral("FILE: 第 1 行：不是有效的 JSON");
        QTest::newRow("result file of another kind")
            << Source::ResultFile << QByteArray("nope\n")
            << QStringLiteral("FILE: not a result file: expected a JSON object, or JSON lines, of vLLM or SGLang "
                              "results (or another benchmark tool's result file); line 1 is no JSON object")
            << QStringLiteral(
                   "FILE: 不是结果文件：应为 vLLM 或 SGLang 结果的 JSON 对象或 JSON Lines（或其他基准测试工具的"
                   "结果文件）；第 1 行不是 JSON 对象");
        QTest::newRow("result count refused")
            << Source::ResultFile << QByteArray("{\"completed\": -7}\n")
            << QStringLiteral("FILE: line 1: \"completed\" is -7, but a count is a whole number from 0 to 2147483647: "
                              "the line is not imported")
            << QStringLiteral("FILE: 第 1 行：“completed” 为 -7，但计数必须是 0 到 2147483647 之间的整数：该行未导入");
        QTest::newRow("result not a result")
            << Source::ResultFile << QByteArray("{\"x\": 1}\n")
            << QStringLiteral("FILE: line 1: not a result ServeScope reads (no \"completed\" count of vLLM or SGLang, "
                              "and no other tool's keys)")
            << QStringLiteral("FILE: 第 1 行：不是 ServeScope 能读取的结果（既没有 vLLM 或 SGLang 的 \"completed\" "
                              "计数，也没有其他工具的键）");
        QTest::newRow("result warning")
            << Source::ResultFile
            << QByteArray("{\"backend\": \"sglang\", \"dataset_name\": \"random\", \"completed\": 8, "
                          "\"random_input_len\": 128, \"random_output_len\": 64, \"random_range_ratio\": 0, "
                          "\"max_concurrency\": 8, \"request_rate\": \"inf\"}\n")
            << QStringLiteral("FILE: random_range_ratio 0: SGLang's lengths [L x 0, L] read as a spread of "
                              "0.999999 around 64 input and 32 output tokens")
            << QStringLiteral("FILE: random_range_ratio 0：SGLang 的长度 [L x 0, L] 按以 64 个输入 token、32 个输出 "
                              "token 为中心、幅度 0.999999 的分布读取");
    }

    void syntaxImportAndDatasetLines()
    {
        QFETCH(Source, source);
        QFETCH(QByteArray, input);
        QFETCH(QString, cLine);
        QFETCH(QString, shownLine);
        const Lines english = produce(source, input);
        QTranslator zh;
        QVERIFY(zh.load(QStringLiteral(":/i18n/servescope_zh_CN.qm")));
        QVERIFY(QCoreApplication::installTranslator(&zh));
        const Lines chinese = produce(source, input);
        QCoreApplication::removeTranslator(&zh);
        // Without a translator both lines are the C line; with one, only the shown line changes.
        QCOMPARE(english.c, cLine);
        QCOMPARE(english.shown, cLine);
        QCOMPARE(chinese.c, cLine);
        QCOMPARE(chinese.shown, shownLine);
    }

    // What a run or a comparison stops on is told to people only: one line, in the language
    // installed when it is made.
    void runAndSourceLinesFollowTheLanguage()
    {
        const auto lines = [this] {
            QStringList out;
            const SonnetPrompts sonnet({ QStringLiteral("a b c"), QStringLiteral("d e f") }, 4, {});
            QStringList prompts;
            QList<int> lengths;
            QString error;
            if (!sonnet.build(1, 2, 1, &prompts, &lengths, &error))
                out << error;
            RunSource source;
            if (!loadRunSource(m_dir.path(), {}, &source, &error))
                out << error.replace(m_dir.path(), QStringLiteral("DIR"));
            return out;
        };
        const QStringList english = lines();
        QTranslator zh;
        QVERIFY(zh.load(QStringLiteral(":/i18n/servescope_zh_CN.qm")));
        QVERIFY(QCoreApplication::installTranslator(&zh));
        const QStringList chinese = lines();
        QCoreApplication::removeTranslator(&zh);
        const int base = SonnetPrompts({ QStringLiteral("a") }, 0, {}).baseTokens();
        QCOMPARE(english,
            QStringList(
                { QStringLiteral("sonnet: input_len 2 must be greater than the instruction's %1 tokens").arg(base),
                    QStringLiteral("DIR: no manifest.json (not a results folder of `run --out-dir`)") }));
        QCOMPARE(chinese,
            QStringList({ QStringLiteral("sonnet：input_len 2 必须大于指令本身的 %1 个 token").arg(base),
                QStringLiteral("DIR：没有 manifest.json（不是 `run --out-dir` 生成的结果目录）") }));
    }
};

QTEST_GUILESS_MAIN(TestReaderText)
#include "tst_readertext.moc"

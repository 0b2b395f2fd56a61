// SPDX-License-Identifier: MIT
#include "../../unit/report/testpoints.h"
#include "charts/reportwriter.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

using namespace ServeScope;
using namespace ServeScope::Report;

namespace {

ReportRun makeRun(qint64 id, const QString &name, double scale, int failedAt64)
{
    ReportRun run;
    run.id = id;
    run.name = name;
    run.baseUrl = QStringLiteral("http://gpu-box:8000");
    run.model = QStringLiteral("Qwen2-7B-Instruct");
    run.servedModel = QStringLiteral("Qwen/Qwen2-7B-Instruct");
    run.started = QDateTime(QDate(2026, 11, 29), QTime(10, 0), Qt::UTC);
    run.finished = run.started.addSecs(1800);
    run.envSnapshot = { { QStringLiteral("gpu"), QStringLiteral("NVIDIA A100 80GB") },
        { QStringLiteral("server flags"), QStringLiteral("--max-num-seqs 256 <script>") } };
    run.clientHost = { { QStringLiteral("cpu"), QStringLiteral("AMD EPYC 7763") },
        { QStringLiteral("rtt_ms"), QStringLiteral("0.21") } };
    int point = 0;
    for (int c : { 1, 4, 16, 64 }) {
        for (int r = 1; r <= 3; ++r) {
            PointSummary p
                = TestPoints::concurrencyPoint(QStringLiteral("baseline"), point, c, scale * c * (1 + 0.01 * r), r);
            if (c == 64) {
                p.failed = failedAt64;
                p.successRate = 100.0 / (100 + failedAt64);
            }
            run.points << p;
        }
        ++point;
    }
    return run;
}

ReportInput makeInput()
{
    ReportInput in;
    in.title = QStringLiteral("vLLM vs SGLang");
    in.generated = QDateTime(QDate(2026, 11, 29), QTime(12, 0), Qt::UTC);
    in.runs << makeRun(1, QStringLiteral("vllm"), 100, 3) << makeRun(2, QStringLiteral("sglang"), 110, 0);
    return in;
}

} // namespace

class TestReportExport final : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QTest::failOnWarning(QRegularExpression(QStringLiteral("^(?!This plugin does not support).*")));
    }

    void htmlIsSelfContained()
    {
        const QString html = QString::fromUtf8(ReportWriter::html(makeInput()));
        const QRegularExpression external(
            QStringLiteral("(?:\\b(?:src|href)\\s*=\\s*[\"']?(?!#|data:))|(?:url\\(\\s*[\"']?(?!#|data:))|@import"),
            QRegularExpression::CaseInsensitiveOption);
        const QRegularExpressionMatch m = external.match(html);
        QVERIFY2(!m.hasMatch(), qPrintable(html.mid(std::max<qsizetype>(0, m.capturedStart() - 80), 200)));
        QCOMPARE(html.count(QStringLiteral("<svg")), 7);
        QVERIFY(html.contains(QStringLiteral("<path")));
        QVERIFY(html.contains(QStringLiteral("NVIDIA A100 80GB")));
        QVERIFY(html.contains(QStringLiteral("AMD EPYC 7763")));
        QVERIFY(html.contains(QStringLiteral("&lt;script&gt;"))); // values are escaped
        QVERIFY(!html.contains(QStringLiteral("<script>")));
        QVERIFY(html.contains(QStringLiteral("http://gpu-box:8000")));
        QVERIFY(html.contains(QStringLiteral("Qwen/Qwen2-7B-Instruct")));
        QVERIFY(html.contains(QStringLiteral("2026-11-29T10:00:00Z")));
        QVERIFY(html.contains(QStringLiteral("<tr class=\"censored\">"))); // 3 of 103 failed at c=64
        // Chart ids are unique across the inline SVGs.
        QRegularExpressionMatchIterator ids
            = QRegularExpression(QStringLiteral("\\bid=\"([^\"]+)\"")).globalMatch(html);
        QSet<QString> seen;
        while (ids.hasNext()) {
            const QString id = ids.next().captured(1);
            QVERIFY2(!seen.contains(id), qPrintable(id));
            seen.insert(id);
        }
        // Each chart parses as XML on its own.
        qsizetype from = 0;
        while ((from = html.indexOf(QStringLiteral("<svg"), from)) >= 0) {
            const qsizetype to = html.indexOf(QStringLiteral("</svg>"), from) + 6;
            QXmlStreamReader xml(html.mid(from, to - from));
            while (!xml.atEnd())
                xml.readNext();
            QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
            from = to;
        }
    }

    void perPointTableUsesRepeatMedians()
    {
        const QString body = reportBodyHtml(makeInput());
        // c=16, repeats 1..3: 100*16*1.01, 1.02, 1.03 -> median 1632.0
        QVERIFY(body.contains(QStringLiteral("<td nowrap>1632.0</td>")));
        QVERIFY(body.contains(
            QStringLiteral("<td nowrap>3</td><td nowrap>300</td><td nowrap>0</td>"))); // repeats, completed, failed
        QVERIFY(body.contains(QStringLiteral("<td nowrap>3</td><td nowrap>300</td><td nowrap>9</td>")));
    }

    void headlineTableShowsTheRangeAcrossRepeats()
    {
        const QString body = reportBodyHtml(makeInput());
        QVERIFY(body.contains(QStringLiteral("TTFT p50 (ms)")));
        // c=16, repeats 1..3: output 1616, 1632, 1648 tok/s -> median and the range the repeats spanned.
        QVERIFY2(body.contains(QStringLiteral("<td>1632 (1616–1648)</td>")), qPrintable(body));
    }

    void deltaSectionStatesVerdicts()
    {
        ReportInput in = makeInput();
        DeltaRow r;
        r.variant = QStringLiteral("baseline");
        r.label = QStringLiteral("c16");
        r.metric = QStringLiteral("median_ttft_ms");
        r.a.repeats = RepeatStat { 3, 40, 39, 41, 0.01 };
        r.b.repeats = RepeatStat { 3, 60, 59, 61, 0.01 };
        r.change = 20;
        r.relative = 0.5;
        r.verdict = Verdict::Worse;
        DeltaRow hidden = r;
        hidden.metric = QStringLiteral("std_ttft_ms"); // not among the metrics a report shows
        in.deltas << DeltaSection { QStringLiteral("B: sglang vs A: vllm"), { r, hidden } };
        const QString body = reportBodyHtml(in);
        QVERIFY(body.contains(QStringLiteral("Changes: B: sglang vs A: vllm")));
        QVERIFY2(body.contains(QStringLiteral("<tr class=\"worse\"><td>baseline</td><td>c16</td><td>median_ttft_ms</td>"
                                              "<td>40.00</td><td>60.00</td><td>+50.0%</td><td>worse</td></tr>")),
            qPrintable(body));
        QVERIFY(!body.contains(QStringLiteral("std_ttft_ms")));
        QVERIFY(!reportBodyHtml(makeInput()).contains(QStringLiteral("Changes:")));
    }

    void pdfReport()
    {
        const QByteArray pdf = ReportWriter::pdf(makeInput());
        QVERIFY(pdf.startsWith("%PDF-"));
        int count = 0;
        QRegularExpressionMatchIterator it
            = QRegularExpression(QStringLiteral("/Type\\s*/Page\\b(?!s)")).globalMatch(QString::fromLatin1(pdf));
        while (it.hasNext()) {
            it.next();
            ++count;
        }
        QVERIFY2(count >= 8, qPrintable(QString::number(count))); // text page(s) + 7 charts
        QVERIFY(!pdf.contains("/Subtype /Image"));
    }

    void writeFiles()
    {
        const QByteArray buildDir = qgetenv("SERVESCOPE_BUILD_DIR");
        QTemporaryDir tmp;
        const QDir dir(buildDir.isEmpty() ? tmp.path() : QString::fromLocal8Bit(buildDir));
        QString error;
        for (const char *name : { "report-example.html", "report-example.pdf" }) {
            const QString path = dir.filePath(QString::fromLatin1(name));
            QVERIFY2(ReportWriter::writeFile(makeInput(), path, &error), qPrintable(error));
            QVERIFY(QFile(path).size() > 10000);
            qInfo("report: %s", qPrintable(path));
        }
        QVERIFY(!ReportWriter::writeFile(makeInput(), dir.filePath(QStringLiteral("x.docx")), &error));
        QVERIFY(error.contains(QStringLiteral(".html")));
    }
};

QTEST_MAIN(TestReportExport)
#include "tst_reportexport.moc"

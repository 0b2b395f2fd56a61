// SPDX-License-Identifier: MIT
#include "charts/reportwriter.h"
#include "metrics/repeats.h"
#include "report/conclusiontext.h"
#include "report/metricnames.h"
#include "testpoints.h"

#include <QBuffer>
#include <QDir>
#include <QFile>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextTable>
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

int pageCount(const QByteArray &pdf)
{
    int count = 0;
    QRegularExpressionMatchIterator it
        = QRegularExpression(QStringLiteral("/Type\\s*/Page\\b(?!s)")).globalMatch(QString::fromLatin1(pdf));
    while (it.hasNext()) {
        it.next();
        ++count;
    }
    return count;
}

// Every headline metric of every point of `run` compared with itself: the odd points worse by
// `relative`, c16 better, the rest within noise or undecided.
DeltaSection demoDelta(const ReportRun &run, double relative)
{
    DeltaSection section { QStringLiteral("B: sglang vs A: vllm"), {}, {} };
    for (const PointSummary &p : medianAcrossRepeats(run.points)) {
        for (const QString &key : headlineMetrics()) {
            DeltaRow r;
            r.variant = p.variant;
            r.label = p.label;
            r.metric = key;
            r.a.repeats = RepeatStat { 3, 40, 39, 41, 0.01 };
            const bool worse = p.point == 3, better = p.point == 2;
            r.relative = worse ? relative : better ? -relative : p.point == 0 ? -0.00001 : 0.0;
            r.change = 40 * r.relative;
            r.b.repeats = RepeatStat { 3, 40 + r.change, 39, 41, 0.01 };
            r.verdict = worse  ? Verdict::Worse
                : better       ? Verdict::Better
                : p.point == 1 ? Verdict::Undecided
                               : Verdict::Noise;
            r.reason = r.verdict == Verdict::Undecided ? QStringLiteral("statistics-only") : QString();
            section.rows << r;
        }
    }
    return section;
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
        QCOMPARE(html.count(QStringLiteral("<svg")), 8);
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
        // c=16, repeats 1..3: 100*16*1.01, 1.02, 1.03 -> median 1632.0 and the range the repeats spanned
        QVERIFY(body.contains(QStringLiteral("<td>1632.0 (1616.0–1648.0)</td>")));
        QVERIFY(body.contains(
            QStringLiteral("<td nowrap>3</td><td nowrap>300</td><td nowrap>0</td>"))); // repeats, completed, failed
        QVERIFY(body.contains(QStringLiteral("<td nowrap>3</td><td nowrap>300</td><td nowrap>9</td>")));
    }

    void headlineTableShowsTheRangeAcrossRepeats()
    {
        const QString body = reportBodyHtml(makeInput());
        // The headline metrics by their human names, in the Results page's order.
        const QStringList names { QStringLiteral("Output throughput (tok/s)"), QStringLiteral("TTFT p50 (ms)"),
            QStringLiteral("TTFT p90 (ms)"), QStringLiteral("TPOT p50 (ms)"), QStringLiteral("TPOT p90 (ms)"),
            QStringLiteral("E2EL p90 (ms)"), QStringLiteral("Success rate (%)") };
        qsizetype at = body.indexOf(QStringLiteral("Per-point results"));
        for (const QString &name : names) {
            const qsizetype next = body.indexOf(QStringLiteral("<th>%1</th>").arg(name), at);
            QVERIFY2(next > at, qPrintable(name));
            at = next;
        }
        // c=64: 3 of 103 failed -> 97.1% and the censored mark
        QVERIFY2(body.contains(QStringLiteral("<td>97.1 (97.1–97.1) *</td>")), qPrintable(body));
    }

    void summaryComesFirstWithTheHeadlineRows()
    {
        ReportInput in = makeInput();
        RunFinding queueing;
        queueing.code = QStringLiteral("queueing");
        queueing.variant = QStringLiteral("baseline");
        queueing.points = { QStringLiteral("c16"), QStringLiteral("c64") };
        in.runs[0].findings << queueing;
        in.deltas << demoDelta(in.runs[0], 0.5);
        const QString body = reportBodyHtml(in);
        const qsizetype summary = body.indexOf(QStringLiteral("<h2>Summary</h2>"));
        const qsizetype details = body.indexOf(QStringLiteral("Run 1: vllm</h2>"));
        QVERIFY(summary > 0 && details > summary);
        const QString head = body.left(details);
        // The runs compared, lettered as the window letters them.
        QVERIFY(head.contains(QStringLiteral("<th nowrap>A</th><td>Run 1: vllm</td>")));
        QVERIFY(head.contains(QStringLiteral("<th nowrap>B</th><td>Run 2: sglang</td>")));
        QVERIFY(head.contains(QStringLiteral("Qwen2-7B-Instruct (served: Qwen/Qwen2-7B-Instruct)")));
        QVERIFY(head.contains(QStringLiteral("2026-11-29T10:00:00Z")));
        QVERIFY(head.contains(QStringLiteral("Changes: B #2 against A #1")));
        // Every headline row, as Report::headlineRows orders them, with its change and verdict words,
        // coloured as the window colours them; the other metrics of the comparison are not shown.
        const QList<DeltaRow> rows = headlineRows(in.deltas[0]);
        QCOMPARE(rows.size(), 4 * 7);
        qsizetype at = head.indexOf(QStringLiteral("Changes: B #2 against A #1"));
        for (const DeltaRow &r : rows) {
            const QString cell = QStringLiteral("<span class=\"change\">%1</span><br><span class=\"verdict\">%2</span>")
                                     .arg(changeText(r).toHtmlEscaped(), verdictText(r).toHtmlEscaped());
            const qsizetype next = head.indexOf(cell, at + 1);
            QVERIFY2(next > at, qPrintable(r.label + u' ' + r.metric + u' ' + cell));
            at = next;
        }
        QVERIFY(head.contains(QStringLiteral("<td nowrap>baseline</td><td nowrap>c16</td>")));
        QVERIFY(head.contains(QStringLiteral("+50.0%</span><br><span class=\"verdict\">worse</span>")));
        QVERIFY(head.contains(QStringLiteral("−50.0%</span><br><span class=\"verdict\">better</span>")));
        QVERIFY(head.contains(QStringLiteral("0.0%</span><br><span class=\"verdict\">within noise</span>")));
        QVERIFY(head.contains(QStringLiteral("—</span><br><span class=\"verdict\">no verdict: statistics only")));
        // Before the tables, one sentence per variant: the decided changes, failures first.
        const qsizetype conclusions = head.indexOf(QStringLiteral("<b>Conclusions:</b> "));
        QVERIFY(conclusions >= 0 && conclusions < head.indexOf(QStringLiteral("Changes: B #2 against A #1")));
        QVERIFY2(head.contains(QStringLiteral("baseline: mixed — ")), qPrintable(head));
        QVERIFY(head.contains(QStringLiteral("background-color: %1").arg(verdictColour(Verdict::Worse).name())));
        QVERIFY(head.contains(QStringLiteral("background-color: %1").arg(verdictColour(Verdict::Better).name())));
        QVERIFY(head.contains(QStringLiteral("<th>TTFT p90 (ms)</th>")));
        QVERIFY(head.contains(QStringLiteral("<th>E2EL p90 (ms)</th>")));
        // The findings' headlines, with where they were found.
        QVERIFY(head.contains(QStringLiteral("<b>Queueing</b> (A · baseline)")));
        // Human names only: no metric key anywhere in the report's text.
        for (const QString &key : headlineMetrics())
            QVERIFY2(!body.contains(key), qPrintable(key));
        QVERIFY(!reportBodyHtml(makeInput()).contains(QStringLiteral("Changes:")));
    }

    // Across conventions the summary states each side's definitions after the changes, and the
    // withheld verdicts say why; within one convention there is no such section.
    void definitionsFollowTheChangesAcrossConventions()
    {
        ReportInput in = makeInput();
        DeltaSection section = demoDelta(in.runs[0], 0.5);
        ReportInput oneConvention = in;
        oneConvention.deltas = { section };
        QVERIFY(!reportBodyHtml(oneConvention).contains(QStringLiteral("Why the numbers differ")));
        section.definitions = compareDefinitions(QStringLiteral("vllm"), true, QStringLiteral("aiperf"), false);
        withholdIncomparable(section.rows, section.definitions);
        in.deltas << section;
        const QString body = reportBodyHtml(in);
        const qsizetype changes = body.indexOf(QStringLiteral("Changes: B #2 against A #1"));
        const qsizetype why = body.indexOf(QStringLiteral("Why the numbers differ: B #2 against A #1"));
        QVERIFY(changes > 0 && why > changes);
        const qsizetype tpot
            = body.indexOf(QStringLiteral("<td nowrap>TPOT</td><td>(E2EL − TTFT) / (output tokens − 1)"));
        QVERIFY(tpot > why);
        QVERIFY(body.indexOf(QStringLiteral("counted by the client"), tpot) > tpot);
        QVERIFY(body.contains(QStringLiteral("not comparable (differs in when the clock starts or stops, where token "
                                             "counts come from)")));
        QVERIFY(
            body.contains(QStringLiteral("comparable after recompute (differs in when the clock starts or stops)")));
        QVERIFY(body.contains(QStringLiteral("no verdict: not comparable")));
        QVERIFY(body.contains(QStringLiteral("no verdict: defined differently (comparable after recompute)")));
        // Request throughput keeps its verdicts: worse at c16 (point 3) as without definitions.
        QVERIFY(body.contains(QStringLiteral("+50.0%</span><br><span class=\"verdict\">worse</span>")));
    }

    void pdfTablesRepeatTheirHeader()
    {
        ReportInput in = makeInput();
        in.deltas << demoDelta(in.runs[0], 0.1);
        QByteArray bytes;
        QBuffer buffer(&bytes);
        buffer.open(QIODevice::WriteOnly);
        QPdfWriter writer(&buffer);
        writer.setResolution(72);
        QTextDocument doc;
        ReportWriter::layoutPdfText(in, &doc, &writer, QSizeF(785, 525));
        int withHeader = 0, keyValue = 0;
        for (QTextFrame *frame : doc.rootFrame()->childFrames()) {
            auto *table = qobject_cast<QTextTable *>(frame);
            QVERIFY(table);
            const QString first = table->cellAt(0, 0).firstCursorPosition().block().text();
            const QString second = table->cellAt(0, 1).firstCursorPosition().block().text();
            if (first == QLatin1String("Variant") || second == QLatin1String("Run")) {
                QCOMPARE(table->format().headerRowCount(), 1);
                ++withHeader;
            } else {
                QCOMPARE(table->format().headerRowCount(), 0); // key-value tables have no header row
                ++keyValue;
            }
        }
        // runs, changes; per run: points and throughput per GPU (the steady window's when a point has one)
        QCOMPARE(withHeader, 2 + 2 * 2);
        QVERIFY(keyValue >= 2 * 3);
    }

    void demoComparisonFitsEightPages()
    {
        // The demo's comparison: three variants, six points each, two runs, every headline metric
        // compared, findings, the steady window.
        ReportInput in;
        in.title = QStringLiteral("demo: vLLM vs SGLang and max_num_seqs on the local simulator");
        for (int id : { 1, 2 }) {
            ReportRun run = makeRun(id, QStringLiteral("demo: vLLM vs SGLang and max_num_seqs run %1").arg(id), 100, 0);
            run.points.clear();
            run.variants = { { QStringLiteral("baseline"), QStringLiteral("the baseline") },
                { QStringLiteral("completions-api"),
                    QStringLiteral("endpoint.path: \"/v1/chat/completions\" → "
                                   "\"/v1/completions\"") },
                { QStringLiteral("seqs-8"), QStringLiteral("server.args.max_num_seqs: 256 → 8") } };
            int point = 0;
            for (const auto &kv : std::as_const(run.variants)) {
                for (int c : { 1, 4, 8, 16, 32, 64 }) {
                    PointSummary p = TestPoints::concurrencyPoint(kv.first, point++ % 6, c, 100.0 * c, 1);
                    p.steady = { { QStringLiteral("valid"), 1.0 }, { QStringLiteral("window_s"), 2.0 },
                        { QStringLiteral("median_ttft_ms"), 40.0 } };
                    p.server = { { QStringLiteral("running_mean"), c * 0.9 }, { QStringLiteral("waiting_max"), 0.0 },
                        { QStringLiteral("kv_usage_max"), 4.0 } };
                    run.points << p;
                }
                RunFinding queueing;
                queueing.code = QStringLiteral("queueing");
                queueing.variant = kv.first;
                queueing.points = { QStringLiteral("c16"), QStringLiteral("c32"), QStringLiteral("c64") };
                run.findings << queueing;
            }
            in.runs << run;
        }
        in.deltas << demoDelta(in.runs[0], 0.02);
        const QByteArray pdf = ReportWriter::pdf(in);
        const int pages = pageCount(pdf);
        QVERIFY2(pages <= 8, qPrintable(QString::number(pages)));
        QVERIFY2(pages >= 4, qPrintable(QString::number(pages))); // summary, details, charts
    }

    void pdfReport()
    {
        const QByteArray pdf = ReportWriter::pdf(makeInput());
        QVERIFY(pdf.startsWith("%PDF-"));
        // text pages + 7 charts four to a page
        QVERIFY2(pageCount(pdf) >= 3, qPrintable(QString::number(pageCount(pdf))));
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

// SPDX-License-Identifier: MIT
#include "charts/chartexporter.h"
#include "report/chartbuilders.h"
#include "testpoints.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

#include <cmath>

using namespace ServeScope;
using namespace ServeScope::Report;

namespace {

QList<RunSeriesInput> comparison()
{
    QList<PointSummary> a, b;
    const int conc[] = { 1, 2, 4, 8, 16, 32, 64 };
    for (int i = 0; i < 7; ++i) {
        const double c = conc[i];
        PointSummary pa = TestPoints::concurrencyPoint(QStringLiteral("vllm"), i, conc[i], 60 * c / (1 + c / 40));
        pa.ttft = TestPoints::ladder(35 + c * 6);
        PointSummary pb = TestPoints::concurrencyPoint(QStringLiteral("sglang"), i, conc[i], 64 * c / (1 + c / 55));
        pb.ttft = TestPoints::ladder(30 + c * 4.2);
        if (conc[i] == 64) {
            pa.failed = 4;
            pa.successRate = 0.98;
        }
        a << pa;
        b << pb;
    }
    ChartFooter footer { {}, {}, QStringLiteral("http://127.0.0.1:8000"), QStringLiteral("Qwen2-7B-Instruct"),
        QStringLiteral("2026-11-29T10:00:00Z"), QStringLiteral("vllm"), {} };
    return { { QStringLiteral("vLLM 0.6.3"), defaultRunColour(0), a, footer, {} },
        { QStringLiteral("SGLang 0.3 · 中文"), defaultRunColour(1), b, footer, {} } };
}

// Inflates every FlateDecode stream of a PDF; Qt writes raw zlib data, qUncompress wants a size prefix.
QByteArray inflatedStreams(const QByteArray &pdf)
{
    QByteArray out;
    qsizetype pos = 0;
    while ((pos = pdf.indexOf("stream", pos)) >= 0) {
        qsizetype start = pos + 6;
        if (pdf.mid(pos - 3, 3) == "end") {
            pos = start;
            continue;
        }
        while (start < pdf.size() && (pdf[start] == '\r' || pdf[start] == '\n'))
            ++start;
        const qsizetype end = pdf.indexOf("endstream", start);
        if (end < 0)
            break;
        QByteArray data = pdf.mid(start, end - start);
        QByteArray prefixed(4, '\0');
        prefixed[0] = 0x01; // size hint; qUncompress grows its buffer as needed
        prefixed += data;
        const QByteArray plain = qUncompress(prefixed);
        out += plain.isEmpty() ? data : plain;
        out += '\n';
        pos = end + 9;
    }
    return out;
}

QList<QPair<QString, ChartSpec>> extraCharts()
{
    // Log-normal-ish TTFT samples for A and B, and a closed-loop run with 8 slots for the time series.
    QList<double> a, b;
    quint32 seed = 12345;
    auto uniform = [&seed]() {
        seed = seed * 1664525u + 1013904223u;
        return (seed >> 8) / double(1 << 24);
    };
    for (int i = 0; i < 3000; ++i) {
        const double g = uniform() + uniform() + uniform() - 1.5;
        a << 80 * std::exp(0.5 * g);
        b << 60 * std::exp(0.35 * g);
    }
    const QList<DistributionInput> dist { { QStringLiteral("vLLM"), defaultRunColour(0), a },
        { QStringLiteral("SGLang"), defaultRunColour(1), b } };
    TimeSeriesInput ts { QStringLiteral("vLLM"), defaultRunColour(0), {}, 1.0, {} };
    qint64 slotFree[8] = {};
    for (int i = 0; i < 400; ++i) {
        const int slot = i % 8;
        RequestRecord r;
        r.startNs = slotFree[slot];
        const int tokens = 64 + int(uniform() * 64);
        const qint64 ttft = qint64(50e6 + uniform() * 40e6), tpot = qint64(18e6 + uniform() * 6e6);
        for (int t = 0; t < tokens; ++t) {
            r.eventNs << ttft + t * tpot;
            r.eventKinds << EventKind::Content;
        }
        r.endNs = r.startNs + r.eventNs.last();
        r.completionTokens = tokens;
        slotFree[slot] = r.endNs + 1'000'000;
        ts.requests << r;
    }
    return { { QStringLiteral("chart-ttft-cdf.png"),
                 distributionCdf(dist, Metric::Ttft, QStringLiteral("concurrency 16")) },
        { QStringLiteral("chart-ttft-histogram.png"),
            distributionHistogram(dist, Metric::Ttft, QStringLiteral("concurrency 16")) },
        { QStringLiteral("chart-timeseries.png"), runTimeSeries({ ts }) } };
}

} // namespace

class TestChartExport final : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QTest::failOnWarning(QRegularExpression(QStringLiteral("^(?!This plugin does not support).*")));
        QVERIFY(m_dir.isValid());
    }

    void pngSize_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<qreal>("scale");
        QTest::newRow("800x500 @1") << QSize(800, 500) << 1.0;
        QTest::newRow("640x400 @2") << QSize(640, 400) << 2.0;
    }
    void pngSize()
    {
        QFETCH(QSize, size);
        QFETCH(qreal, scale);
        const QString path = m_dir.filePath(QStringLiteral("t.png"));
        QString error;
        QVERIFY2(ChartExporter::exportToFile(latencyVsLoad(comparison(), Metric::Ttft), path, { size, scale }, &error),
            qPrintable(error));
        QImage image(path);
        QCOMPARE(image.size(), size * scale);
        // Not blank: the plot has coloured pixels of run A.
        int coloured = 0;
        for (int y = 0; y < image.height(); y += 2)
            for (int x = 0; x < image.width(); x += 2)
                coloured += qAbs(image.pixelColor(x, y).hue() - defaultRunColour(0).hue()) < 8
                    && image.pixelColor(x, y).saturation() > 120;
        QVERIFY2(coloured > 50, qPrintable(QString::number(coloured)));
    }

    void svgParsesWithPaths()
    {
        // Bands are painter paths; lines come out as polylines, markers as circles.
        const QByteArray svg = ChartExporter::renderSvg(latencyVsLoad(comparison(), Metric::Ttft));
        QXmlStreamReader xml(svg);
        int paths = 0, shapes = 0;
        bool footer = false;
        while (!xml.atEnd()) {
            xml.readNext();
            if (xml.isStartElement() && xml.name() == QLatin1String("path"))
                ++paths;
            if (xml.isStartElement()
                && (xml.name() == QLatin1String("polyline") || xml.name() == QLatin1String("circle")))
                ++shapes;
            if (xml.isCharacters() && xml.text().contains(QLatin1String("127.0.0.1:8000")))
                footer = true;
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        if (qEnvironmentVariableIsSet("DUMP_SVG")) {
            QFile f(QStringLiteral("/tmp/dump.svg"));
            f.open(QIODevice::WriteOnly);
            f.write(svg);
        }
        QVERIFY2(paths >= 4, qPrintable(QString::number(paths))); // 2 runs x 2 bands
        QVERIFY2(shapes > 20, qPrintable(QString::number(shapes)));
        QVERIFY(footer);
    }

    void pdfIsVector()
    {
        const QSize size(720, 450);
        const QByteArray pdf = ChartExporter::renderPdf(latencyVsLoad(comparison(), Metric::Ttft), { size, 1.0 });
        QVERIFY(pdf.startsWith("%PDF-"));
        if (qEnvironmentVariableIsSet("DUMP_SVG")) {
            QFile f(QStringLiteral("/tmp/dump.pdf"));
            f.open(QIODevice::WriteOnly);
            f.write(pdf);
        }
        // Page = chart size, in points.
        QVERIFY(QRegularExpression(QStringLiteral("/MediaBox \\[0 0 720(\\.0+)? 450(\\.0+)?\\]"))
                    .match(QString::fromLatin1(pdf))
                    .hasMatch());
        const QByteArray content = inflatedStreams(pdf);
        QVERIFY(content.contains(" re") || content.contains(" re\n"));
        QVERIFY(content.contains(" l\n") || content.contains(" l "));
        QVERIFY(content.contains(" c\n") || content.contains(" c ")); // curves: round markers
        QVERIFY(!content.contains("/Subtype /Image")); // nothing rasterised
    }

    void comparisonScreenshot()
    {
        const QByteArray buildDir = qgetenv("SERVESCOPE_BUILD_DIR");
        const QString dir = buildDir.isEmpty() ? m_dir.path() : QString::fromLocal8Bit(buildDir);
        const QList<RunSeriesInput> runs = comparison();
        const QList<QPair<QString, ChartSpec>> charts {
            { QStringLiteral("chart-ttft-vs-load.png"), latencyVsLoad(runs, Metric::Ttft) },
            { QStringLiteral("chart-throughput-vs-load.png"), throughputVsLoad(runs, ThroughputKind::OutputTokens) },
            { QStringLiteral("chart-ttft-vs-throughput.png"), latencyVsThroughput(runs, Metric::Ttft) },
        };
        for (const auto &[name, spec] : charts + extraCharts()) {
            const QString path = QDir(dir).filePath(name);
            QString error;
            QVERIFY2(ChartExporter::exportToFile(spec, path, { QSize(1000, 620), 1.0 }, &error), qPrintable(error));
            qInfo("screenshot: %s", qPrintable(path));
        }
    }

private:
    QTemporaryDir m_dir;
};

QTEST_MAIN(TestChartExport)
#include "tst_chartexport.moc"

// SPDX-License-Identifier: MIT
// `servescope-cli import` of one large vLLM result object, as --save-result writes it (on one line):
// its peak memory against the file's size. Not timed.
#include "simchild.h"

#include "storage/projectstore.h"

#include <QFile>
#include <QFileInfo>
#include <QObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace ServeScope;

namespace {

/// Peak resident set (VmHWM) of a live process in bytes; -1 once it is gone.
qint64 peakRss(qint64 pid)
{
    QFile f(QStringLiteral("/proc/%1/status").arg(pid));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : f.readAll().split('\n')) {
        if (line.startsWith("VmHWM:"))
            return line.mid(6).trimmed().split(' ').value(0).toLongLong() * 1024;
    }
    return -1;
}

// A vLLM result object of `n` requests of two ITL gaps each, on one line.
QByteArray vllmObject(int n)
{
    QByteArray ins, outs, ttfts, itls, texts, errors;
    for (int i = 0; i < n; ++i) {
        const char *sep = i ? "," : "";
        ins += sep + QByteArray::number(100 + i % 900);
        outs += sep + QByteArray("3");
        ttfts += sep + QByteArray::number(0.01 + (i % 1000) * 1.0e-4, 'g', 17);
        itls += sep + QByteArray("[0.012345678901234567,0.023456789012345678]");
        texts += sep + QByteArray("\"the model serves\"");
        errors += sep + QByteArray("\"\"");
    }
    const QByteArray count = QByteArray::number(n);
    return "{\"date\":\"20250101-120000\",\"backend\":\"vllm\",\"model_id\":\"m\",\"num_prompts\":" + count
        + ",\"request_rate\":\"inf\",\"duration\":8000,\"completed\":" + count
        + ",\"failed\":0,\"mean_ttft_ms\":50.0,\"input_lens\":[" + ins + "],\"output_lens\":[" + outs + "],\"ttfts\":["
        + ttfts + "],\"itls\":[" + itls + "],\"generated_texts\":[" + texts + "],\"errors\":[" + errors + "]}\n";
}

} // namespace

class TestCliImportMemory final : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

private Q_SLOTS:

    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }
    // The object streams into compact columns and its requests are stored a batch at a time: the
    // peak is under four times the file (it was about twenty while the file was parsed whole).
    void largeObjectPeaksUnderFourTimesItsSize()
    {
        constexpr int kRequests = 400000;
        const QString file = m_dir.filePath(QStringLiteral("object.json"));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(vllmObject(kRequests));
        f.close();
        const qint64 size = QFileInfo(file).size();
        const QString project = m_dir.filePath(QStringLiteral("object.servescope"));
        QProcess p;
        p.start(SimChild::cli(), { QStringLiteral("import"), file, QStringLiteral("--project"), project });
        QVERIFY(p.waitForStarted(10000));
        const qint64 pid = p.processId();
        qint64 peak = -1;
        while (!p.waitForFinished(10))
            peak = std::max(peak, peakRss(pid));
        QCOMPARE(p.exitCode(), 0);
        QVERIFY(p.readAllStandardOutput().startsWith("1\tobject\timported from "));
        qInfo("import of a %.0f MB object (%d requests): peak RSS %.1f MB, %.2f times the file", size / 1e6, kRequests,
            peak / 1e6, double(peak) / double(size));
        QVERIFY(peak > 0);
        QVERIFY2(peak < 4 * size, qPrintable(QString::number(peak)));
        ProjectStore store;
        QVector<PointSummary> summaries;
        QVERIFY(store.open(project) && store.pointSummaries(1, &summaries));
        QCOMPARE(summaries.size(), 1);
        QCOMPARE(summaries.first().completed, kRequests);
    }
};

QTEST_GUILESS_MAIN(TestCliImportMemory)
#include "tst_cliimportmemory.moc"

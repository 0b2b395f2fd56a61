// SPDX-License-Identifier: MIT
// servescope-cli export: charts (PNG/SVG/PDF), summary CSV and self-contained reports from a project file.
#include "clitext.h"
#include "command.h"
#include "postrun/benchmarkreport.h"
#include "postrun/sglangexport.h"

#include "compare/rerunnoise.h"
#include "compare/runsource.h"

#include "charts/chartexporter.h"
#include "charts/reportwriter.h"
#include "report/chartbuilders.h"
#include "report/storeinput.h"
#include "storage/projectstore.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSaveFile>
#include <QTextStream>

#include <cmath>
#include <limits>
#include <memory>

namespace {

using namespace ServeScope;
using namespace ServeScope::Cli;
using namespace ServeScope::Report;

struct ExportRequest {
    QString project, run, vs, chart, csv, report, kind, sglang, benchmarkReport;
    Metric metric = Metric::Ttft;
    bool metricSet = false;
    double targetPerUser = std::numeric_limits<double>::quiet_NaN();
    ExportOptions size;
};

int usage(const QString &message)
{
    QTextStream(stderr) << "servescope-cli export: " << message << '\n';
    return ExitUsage;
}

// Charts need a QApplication (QGraphicsWidget); without a display it must run on the offscreen platform.
std::unique_ptr<QApplication> makeApplication()
{
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")
        && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    // Without a session the platform plugin complains about XDG_RUNTIME_DIR: noise for a batch export.
    static QtMessageHandler previous = nullptr;
    previous = qInstallMessageHandler([](QtMsgType type, const QMessageLogContext &context, const QString &message) {
        if (!message.startsWith(QLatin1String("QStandardPaths: XDG_RUNTIME_DIR")) && previous)
            previous(type, context, message);
    });
    static int argc = 1;
    static char name[] = "servescope-cli";
    static char *argv[] = { name, nullptr };
    auto app = std::make_unique<QApplication>(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("servescope-cli"));
    QCoreApplication::setApplicationVersion(QStringLiteral(SERVESCOPE_VERSION));
    installTranslations();
    return app;
}

void addExportOptions(QCommandLineParser &parser)
{
    parser.setApplicationDescription(CliText::tr(
        "Exports a chart (PNG, SVG, PDF), the per-point CSV (summary.csv columns) or a self-contained report "
        "(HTML or PDF) of a stored run, optionally compared with a second run; or the run as SGLang's JSON lines "
        "or llm-d Benchmark Reports."));
    parser.addHelpOption();
    parser.addOptions({
        { QStringLiteral("project"), CliText::tr("Project file (*.servescope)"), QStringLiteral("FILE") },
        { QStringLiteral("run"), CliText::tr("Run: numeric id or unique name"), QStringLiteral("RUN") },
        { QStringLiteral("vs"), CliText::tr("Second run drawn on the same axes (B)"), QStringLiteral("RUN") },
        { QStringLiteral("chart"), CliText::tr("Write a chart: .png, .svg or .pdf"), QStringLiteral("FILE") },
        { QStringLiteral("metric"), CliText::tr("Latency chart of ttft|ttfo|tpot|atpot|itl|e2el (default: throughput)"),
            QStringLiteral("M") },
        { QStringLiteral("kind"),
            CliText::tr("Chart kind: load (default), tradeoff (latency vs throughput), per-gpu (output tok/s per GPU "
                        "vs per user, with the Pareto frontier)"),
            QStringLiteral("K") },
        { QStringLiteral("target-interactivity"),
            CliText::tr("With --kind per-gpu: mark and state each curve's tok/s per GPU at this many output tok/s "
                        "per user"),
            QStringLiteral("TOK_S") },
        { QStringLiteral("size"), CliText::tr("Chart size WxH in px/pt (default 1000x620)"), QStringLiteral("WxH") },
        { QStringLiteral("scale"), CliText::tr("PNG pixel scale (default 1)"), QStringLiteral("X") },
        { QStringLiteral("csv"), CliText::tr("Write per-point metrics as CSV"), QStringLiteral("FILE") },
        { QStringLiteral("report"), CliText::tr("Write a report: .html or .pdf"), QStringLiteral("FILE") },
        { QStringLiteral("sglang-jsonl"),
            CliText::tr("Write SGLang's bench_serving JSON lines (sglang definitions, one line per point)"),
            QStringLiteral("FILE") },
        { QStringLiteral("benchmark-report"),
            CliText::tr("Write llm-d Benchmark Reports v0.2 (.yaml or .json), one per variant, point and repeat: "
                        "FILE when the run has one, else FILE-<variant>-<point>[-r<repeat>]"),
            QStringLiteral("FILE") },
    });
}

// What shapes the file: the chart's metric, kind, format, size and scale, the report's format.
int readFileOptions(const QCommandLineParser &parser, ExportRequest *req)
{
    if (parser.isSet(QStringLiteral("metric"))) {
        if (req->chart.isEmpty())
            return usage(CliText::tr("--metric applies to --chart only"));
        const QString m = parser.value(QStringLiteral("metric"));
        if (!metricFromCode(m, &req->metric)
            || (req->metric != Metric::Ttft && req->metric != Metric::Ttfo && req->metric != Metric::Tpot
                && req->metric != Metric::Atpot && req->metric != Metric::Itl && req->metric != Metric::E2el))
            return usage(CliText::tr("--metric must be ttft, ttfo, tpot, atpot, itl or e2el, not '%1'").arg(m));
        req->metricSet = true;
    }
    if (req->kind != QLatin1String("load") && req->kind != QLatin1String("tradeoff")
        && req->kind != QLatin1String("per-gpu"))
        return usage(CliText::tr("--kind must be load, tradeoff or per-gpu"));
    if (req->kind == QLatin1String("per-gpu") && req->metricSet)
        return usage(CliText::tr("--metric does not apply to --kind per-gpu"));
    if (parser.isSet(QStringLiteral("target-interactivity"))) {
        bool ok = false;
        req->targetPerUser = parser.value(QStringLiteral("target-interactivity")).toDouble(&ok);
        if (req->kind != QLatin1String("per-gpu"))
            return usage(CliText::tr("--target-interactivity applies to --kind per-gpu only"));
        if (!ok || !std::isfinite(req->targetPerUser) || req->targetPerUser <= 0)
            return usage(CliText::tr("--target-interactivity must be a positive number of tokens/s"));
    }
    ChartExporter::Format format;
    if (!req->chart.isEmpty() && !ChartExporter::formatForPath(req->chart, &format))
        return usage(CliText::tr("--chart file must end in .png, .svg or .pdf"));
    const QString reportSuffix = QFileInfo(req->report).suffix().toLower();
    if (!req->report.isEmpty() && reportSuffix != QLatin1String("html") && reportSuffix != QLatin1String("htm")
        && reportSuffix != QLatin1String("pdf"))
        return usage(CliText::tr("--report file must end in .html or .pdf"));
    if (parser.isSet(QStringLiteral("size"))) {
        const QRegularExpressionMatch m
            = QRegularExpression(QStringLiteral("^(\\d{2,5})x(\\d{2,5})$")).match(parser.value(QStringLiteral("size")));
        if (!m.hasMatch() || m.captured(1).toInt() > 20000 || m.captured(2).toInt() > 20000)
            return usage(CliText::tr("--size must be WxH, e.g. 1200x750"));
        req->size.size = QSize(m.captured(1).toInt(), m.captured(2).toInt());
    }
    if (parser.isSet(QStringLiteral("scale"))) {
        bool ok = false;
        req->size.scale = parser.value(QStringLiteral("scale")).toDouble(&ok);
        if (!ok || req->size.scale <= 0 || req->size.scale > 8)
            return usage(CliText::tr("--scale must be a number in (0, 8]"));
    }
    return ExitOk;
}

int parse(const QStringList &args, ExportRequest *req)
{
    QCommandLineParser parser;
    addExportOptions(parser);
    if (const std::optional<int> done = parseCommand(parser, args, "export", Positional::None))
        return *done == ExitOk ? -1 : *done; // -1: --help answered
    req->project = parser.value(QStringLiteral("project"));
    req->run = parser.value(QStringLiteral("run"));
    req->vs = parser.value(QStringLiteral("vs"));
    req->chart = parser.value(QStringLiteral("chart"));
    req->csv = parser.value(QStringLiteral("csv"));
    req->report = parser.value(QStringLiteral("report"));
    req->sglang = parser.value(QStringLiteral("sglang-jsonl"));
    req->benchmarkReport = parser.value(QStringLiteral("benchmark-report"));
    req->kind = parser.isSet(QStringLiteral("kind")) ? parser.value(QStringLiteral("kind")) : QStringLiteral("load");
    if (req->project.isEmpty() || req->run.isEmpty())
        return usage(CliText::tr("--project FILE and --run RUN are required"));
    if (int(!req->chart.isEmpty()) + int(!req->csv.isEmpty()) + int(!req->report.isEmpty())
            + int(!req->sglang.isEmpty()) + int(!req->benchmarkReport.isEmpty())
        != 1)
        return usage(CliText::tr("give exactly one of --chart FILE, --csv FILE, --report FILE, --sglang-jsonl FILE, "
                                 "--benchmark-report FILE"));
    if ((!req->sglang.isEmpty() || !req->benchmarkReport.isEmpty()) && !req->vs.isEmpty())
        return usage(CliText::tr("--vs does not apply to --sglang-jsonl or --benchmark-report"));
    const QString brSuffix = QFileInfo(req->benchmarkReport).suffix().toLower();
    if (!req->benchmarkReport.isEmpty() && brSuffix != QLatin1String("yaml") && brSuffix != QLatin1String("yml")
        && brSuffix != QLatin1String("json"))
        return usage(CliText::tr("--benchmark-report file must end in .yaml, .yml or .json"));
    return readFileOptions(parser, req);
}

bool loadRun(ProjectStore &store, const QString &idOrName, ReportRun *out)
{
    const qint64 id = store.resolveRun(idOrName);
    if (id == 0)
        return false;
    return loadReportRun(store, id, out);
}

bool writeCsv(const ReportInput &input, const QString &path, QString *error)
{
    const QByteArray data = reportSummaryCsv(input);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(data) != data.size() || !file.commit()) {
        *error = CliText::tr("cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

ChartSpec chartFor(const ExportRequest &req, const ReportInput &input)
{
    const QList<RunSeriesInput> runs = reportSeriesInputs(input);
    if (req.kind == QLatin1String("tradeoff"))
        return latencyVsThroughput(runs, req.metricSet ? req.metric : Metric::Tpot);
    if (req.kind == QLatin1String("per-gpu"))
        return throughputPerGpu(runs, req.targetPerUser);
    if (req.metricSet)
        return latencyVsLoad(runs, req.metric);
    return throughputVsLoad(runs, ThroughputKind::OutputTokens);
}

int runExport(const QStringList &args)
{
    auto app = makeApplication();
    ExportRequest req;
    if (const int rc = parse(args, &req); rc != ExitOk)
        return rc < 0 ? ExitOk : rc;
    ProjectStore store;
    if (!store.open(req.project, ProjectStore::Check::Full, ProjectStore::Follow::Snapshot))
        return usage(store.errorString());
    if (!req.sglang.isEmpty()) {
        const qint64 id = store.resolveRun(req.run);
        QString error;
        if (id == 0 || !writeSglangJsonl(store, id, req.sglang, &error))
            return usage(id == 0 ? store.errorString() : error);
        QTextStream(stdout) << QFileInfo(req.sglang).absoluteFilePath() << '\n';
        return ExitOk;
    }
    if (!req.benchmarkReport.isEmpty()) {
        const qint64 id = store.resolveRun(req.run);
        QString error;
        QStringList written;
        const bool ok = id != 0 && writeBenchmarkReports(store, id, req.benchmarkReport, &written, &error);
        for (const QString &file : std::as_const(written))
            QTextStream(stdout) << QFileInfo(file).absoluteFilePath() << '\n';
        if (!ok)
            return usage(id == 0 ? store.errorString() : error);
        return ExitOk;
    }
    ReportInput input;
    for (const QString &which : { req.run, req.vs }) {
        if (which.isEmpty())
            continue;
        ReportRun run;
        if (!loadRun(store, which, &run))
            return usage(store.errorString());
        input.runs << run;
    }
    input.title
        = input.runs.size() > 1 ? input.runs[0].name + QStringLiteral(" vs ") + input.runs[1].name : input.runs[0].name;
    QString error;
    QString path;
    bool ok = false;
    if (!req.csv.isEmpty()) {
        path = req.csv;
        ok = writeCsv(input, path, &error);
    } else if (!req.report.isEmpty()) {
        // The delta needs every request (intervals): read only for a report.
        QList<RunSource> sources;
        for (const ReportRun &run : std::as_const(input.runs)) {
            RunSource source;
            if (!loadStoredRun(req.project, QString::number(run.id), &source, &error))
                return usage(error);
            sources << source;
        }
        QStringList compared;
        for (const ReportRun &run : std::as_const(input.runs))
            compared << QString::number(run.id);
        const RerunNoise noise
            = compared.isEmpty() ? RerunNoise {} : projectRerunNoise(req.project, compared.first(), compared.mid(1));
        input.deltas = deltaSections(sources, ResultSet::Vllm, noise.floors, noise.pairs);
        path = req.report;
        ok = ReportWriter::writeFile(input, path, &error);
    } else {
        path = req.chart;
        ok = ChartExporter::exportToFile(chartFor(req, input), path, req.size, &error);
    }
    if (!ok)
        return usage(error);
    QTextStream(stdout) << QFileInfo(path).absoluteFilePath() << '\n';
    return ExitOk;
}

const CommandRegistration reg(
    { "export", QT_TRANSLATE_NOOP("ServeScope::Cli", "Export charts, CSV or a report of stored runs"), &runExport });

} // namespace

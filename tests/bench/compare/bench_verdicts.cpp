// SPDX-License-Identifier: MIT
// bench_verdicts: how often the comparison engine calls a change that is not there, and how often it
// catches one that is, against the built-in simulator. One experiment holds the baseline, an A/A twin
// (the same configuration, the simulator restarted with another seed) and known changes: decode 10% and
// 25% slower, max_num_seqs halved, 5% of requests failing, the endpoint down. Every round runs it with
// `servescope-cli run` into one project; the runs are then compared with the library's own deltaTable(),
// as `compare`, the window and the report do. Prints figures, asserts nothing.
//
//   bench_verdicts [--rounds N] [--repeat-rounds N] [--time-scale X] [--keep DIR | --from DIR]
#include "compare/conclusion.h"
#include "compare/runsource.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTextStream>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

using namespace ServeScope;

namespace {

QTextStream out(stdout);

// A port nothing listens on: bound, then released.
quint16 closedPort()
{
    QTcpServer server;
    server.listen(QHostAddress::LocalHost, 0);
    return server.serverPort();
}

QJsonObject variant(const char *name, const QJsonObject &changes, bool baseline = false)
{
    QJsonObject v { { QStringLiteral("name"), QString::fromLatin1(name) }, { QStringLiteral("changes"), changes } };
    if (baseline)
        v.insert(QStringLiteral("baseline"), true);
    return v;
}

// The a100-7b preset's decode step is memory-bound: overhead + bytes / bandwidth. Both scaled by
// `factor` make every decode step that much slower.
QJsonObject slowerDecode(double factor)
{
    return { { QStringLiteral("server.args.step_overhead_ms"), 6.5 * factor },
        { QStringLiteral("server.args.memory_bandwidth"), 1.2e12 / factor } };
}

QByteArray experiment(int repeat)
{
    const QJsonObject x {
        { QStringLiteral("name"), QStringLiteral("verdict calibration") },
        { QStringLiteral("endpoint"),
            QJsonObject { { QStringLiteral("base_url"), QStringLiteral("sim:") },
                { QStringLiteral("path"), QStringLiteral("/v1/chat/completions") },
                { QStringLiteral("model"), QStringLiteral("sim-7b") } } },
        { QStringLiteral("server"),
            QJsonObject { { QStringLiteral("engine"), QStringLiteral("vllm") },
                { QStringLiteral("args"), QJsonObject { { QStringLiteral("max_num_seqs"), 16 } } } } },
        { QStringLiteral("dataset"),
            QJsonObject { { QStringLiteral("name"), QStringLiteral("random") }, { QStringLiteral("seed"), 7 },
                { QStringLiteral("ignore_eos"), true } } },
        { QStringLiteral("load"),
            QJsonObject { { QStringLiteral("mode"), QStringLiteral("concurrency") },
                { QStringLiteral("concurrency_gradient"), QJsonArray { 1, 4, 16 } },
                { QStringLiteral("input_len"), 128 }, { QStringLiteral("output_len"), 64 },
                { QStringLiteral("prompts_per_concurrency"), 10 }, { QStringLiteral("num_prompts"), 10 },
                { QStringLiteral("warmup_requests"), 2 }, { QStringLiteral("repeat"), repeat } } },
        { QStringLiteral("variants"),
            QJsonArray {
                variant("baseline", { { QStringLiteral("server.args.seed"), 1 } }, true),
                variant("aa", { { QStringLiteral("server.args.seed"), 2 } }),
                variant("decode-10", slowerDecode(1.10)),
                variant("decode-25", slowerDecode(1.25)),
                variant("seqs-half", { { QStringLiteral("server.args.max_num_seqs"), 8 } }),
                variant("fail-5", { { QStringLiteral("server.args.fail_rate"), 0.05 } }),
                variant("down",
                    { { QStringLiteral("endpoint.base_url"),
                        QStringLiteral("http://127.0.0.1:%1").arg(closedPort()) } }),
            } },
    };
    return QJsonDocument(x).toJson();
}

bool runOnce(const QString &cli, const QString &experimentPath, const QString &project, double timeScale)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::SeparateChannels);
    p.start(cli,
        { QStringLiteral("run"), experimentPath, QStringLiteral("--project"), project,
            QStringLiteral("--sim-time-scale"), QString::number(timeScale) });
    if (!p.waitForFinished(30 * 60 * 1000))
        return false;
    // Exit 0, or 1 is expected too: the "down" variant has no successful request.
    if (p.exitCode() > 1) {
        out << "run failed: " << p.readAllStandardError() << '\n';
        return false;
    }
    return true;
}

RunSource variantOf(const RunSource &run, const QString &name)
{
    RunSource v = run;
    keepVariant(&v, name);
    return v;
}

QList<DeltaRow> compared(const RunSource &a, const RunSource &b)
{
    return deltaTable(a.points, b.points, matchPoints(a.points, b.points), headlineMetrics());
}

// The point-level call as the Run page makes it: worse when failures rose, else by the decided rows.
std::map<QString, QString> pointOutcomes(const QList<DeltaRow> &rows)
{
    std::map<QString, std::pair<int, int>> counts; // better, worse
    std::map<QString, bool> failing;
    for (const DeltaRow &r : rows) {
        auto &c = counts[r.label];
        if (r.verdict == Verdict::Better)
            ++c.first;
        if (r.verdict == Verdict::Worse)
            ++c.second;
        if (r.metric == QLatin1String("success_rate") && r.verdict == Verdict::Worse)
            failing[r.label] = true;
    }
    std::map<QString, QString> outcome;
    for (const auto &[label, c] : counts)
        outcome[label] = failing[label] ? QStringLiteral("worse")
            : c.first && c.second       ? QStringLiteral("mixed")
            : c.first                   ? QStringLiteral("better")
            : c.second                  ? QStringLiteral("worse")
                                        : QStringLiteral("noise");
    return outcome;
}

// Whether a decided row has the sign the known change cannot give.
bool wrongSign(const QString &change, const DeltaRow &r)
{
    if (!r.decided())
        return false;
    const bool better = r.verdict == Verdict::Better;
    if (change.startsWith(QLatin1String("decode")))
        return better; // everything a slower decode moves, it moves for the worse
    if (change == QLatin1String("seqs-half")) {
        // Fewer sequences a step: slower to the first token and less throughput, faster steps.
        const NoiseFamily f = noiseFamily(r.metric);
        if (f == NoiseFamily::Throughput || r.metric.contains(QLatin1String("_ttft_")))
            return better;
        if (r.metric.contains(QLatin1String("_tpot_")) || r.metric.contains(QLatin1String("_itl_")))
            return !better;
        return false;
    }
    if (r.metric == QLatin1String("success_rate"))
        return better;
    return false;
}

struct Tally {
    int comparisons = 0, withDecided = 0, decidedRows = 0, rows = 0;
    std::map<QString, std::vector<double>> relatives; // by noise family: |relative| of every row
    QStringList falseAlarms; // the decided rows, as "variant point metric a -> b (+x%)"
    void add(const QList<DeltaRow> &rs)
    {
        ++comparisons;
        int decided = 0;
        for (const DeltaRow &r : rs) {
            ++rows;
            decided += r.decided();
            if (r.decided())
                falseAlarms << QStringLiteral("%1 %2 %3 %4 -> %5 (%6%)")
                                   .arg(r.variant, r.label, r.metric, QString::number(r.a.repeats.median, 'g', 4),
                                       QString::number(r.b.repeats.median, 'g', 4),
                                       QString::number(r.relative * 100, 'f', 1));
            if (!r.blank() && std::isfinite(r.relative) && r.metric != QLatin1String("success_rate"))
                relatives[noiseFamilyCode(noiseFamily(r.metric))].push_back(std::abs(r.relative));
        }
        decidedRows += decided;
        withDecided += decided > 0;
    }
};

double quantile(std::vector<double> v, double q)
{
    if (v.empty())
        return NAN;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, std::size_t(q * double(v.size() - 1) + 0.5))];
}

struct Power {
    int points = 0, right = 0, wrongSignRows = 0;
};

void printFigures(const QString &title, const QList<RunSource> &runs)
{
    out << "\n== " << title << ": " << runs.size() << " runs\n";
    Tally aa;
    for (qsizetype i = 0; i < runs.size(); ++i) {
        aa.add(compared(variantOf(runs[i], QStringLiteral("baseline")), variantOf(runs[i], QStringLiteral("aa"))));
        if (i > 0) // the same variant in two runs, apart in time
            for (const char *v : { "baseline", "aa" })
                aa.add(compared(
                    variantOf(runs[i - 1], QString::fromLatin1(v)), variantOf(runs[i], QString::fromLatin1(v))));
    }
    out << QStringLiteral("A/A: %1 comparisons, %2 with any decided change (%3%), %4 decided rows of %5\n")
               .arg(aa.comparisons)
               .arg(aa.withDecided)
               .arg(aa.comparisons ? 100.0 * aa.withDecided / aa.comparisons : 0, 0, 'f', 1)
               .arg(aa.decidedRows)
               .arg(aa.rows);
    for (const QString &alarm : std::as_const(aa.falseAlarms))
        out << "  decided: " << alarm << '\n';
    out << "A/A |relative change| by family (the noise floors' evidence): family  rows  p50  p95  p99  max  "
           "floor_now\n";
    const NoiseFloors &floors = defaultNoiseFloors();
    for (const auto &[family, values] : aa.relatives) {
        double floorNow = NAN;
        for (NoiseFamily f : { NoiseFamily::Ttft, NoiseFamily::Decode, NoiseFamily::Tail, NoiseFamily::Throughput })
            if (noiseFamilyCode(f) == family)
                floorNow = floors.of(f);
        out << QStringLiteral("  %1  %2  %3%  %4%  %5%  %6%  %7%\n")
                   .arg(family, -10)
                   .arg(values.size())
                   .arg(100 * quantile(values, 0.5), 0, 'f', 1)
                   .arg(100 * quantile(values, 0.95), 0, 'f', 1)
                   .arg(100 * quantile(values, 0.99), 0, 'f', 1)
                   .arg(100 * quantile(values, 1.0), 0, 'f', 1)
                   .arg(100 * floorNow, 0, 'f', 0);
    }
    out << "A/B: change  points  called_right  power  wrong_sign_rows  (right: worse; seqs-half at c16 only)\n";
    for (const char *name : { "decode-10", "decode-25", "seqs-half", "fail-5", "down" }) {
        Power p;
        bool downFirst = true;
        for (const RunSource &run : runs) {
            const QList<DeltaRow> rows
                = compared(variantOf(run, QStringLiteral("baseline")), variantOf(run, QString::fromLatin1(name)));
            for (const DeltaRow &r : rows)
                p.wrongSignRows += wrongSign(QString::fromLatin1(name), r);
            for (const auto &[label, outcome] : pointOutcomes(rows)) {
                if (QLatin1String(name) == QLatin1String("seqs-half") && label != QLatin1String("c16"))
                    continue; // 8 slots are as many as c1 and c4 need
                ++p.points;
                p.right += outcome == QLatin1String("worse");
            }
            if (QLatin1String(name) == QLatin1String("down")) {
                const QList<Conclusion> c = concludeVariants(rows);
                downFirst = downFirst && !c.isEmpty() && !c[0].changes.isEmpty()
                    && c[0].changes[0].metric == QLatin1String("success_rate");
            }
        }
        out << QStringLiteral("  %1  %2  %3  %4%  %5")
                   .arg(QString::fromLatin1(name), -10)
                   .arg(p.points)
                   .arg(p.right)
                   .arg(p.points ? 100.0 * p.right / p.points : 0, 0, 'f', 1)
                   .arg(p.wrongSignRows);
        if (QLatin1String(name) == QLatin1String("down"))
            out << (downFirst ? "  (failures named first in every conclusion)" : "  (failures NOT named first)");
        out << '\n';
    }
    out.flush();
}

QList<RunSource> runRounds(
    const QString &cli, const QDir &dir, int repeat, int rounds, double timeScale, const QString &tag)
{
    const QString experimentPath = dir.filePath(QStringLiteral("experiment-%1.json").arg(tag));
    QFile f(experimentPath);
    if (!f.open(QIODevice::WriteOnly) || f.write(experiment(repeat)) < 0)
        return {};
    f.close();
    const QString project = dir.filePath(QStringLiteral("verdicts-%1.servescope").arg(tag));
    QList<RunSource> runs;
    for (int r = 1; r <= rounds; ++r) {
        QElapsedTimer t;
        t.start();
        if (!cli.isEmpty() && !runOnce(cli, experimentPath, project, timeScale))
            break;
        RunSource run;
        QString error;
        if (!loadStoredRun(project, QString::number(r), &run, &error)) {
            out << "cannot read run " << r << ": " << error << '\n';
            break;
        }
        runs << run;
        out << QStringLiteral("  %1 round %2/%3: %4 s\n")
                   .arg(tag)
                   .arg(r)
                   .arg(rounds)
                   .arg(t.elapsed() / 1000.0, 0, 'f', 1);
        out.flush();
    }
    return runs;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    const auto option = [&args](const char *name, double fallback) {
        const qsizetype i = args.indexOf(QString::fromLatin1(name));
        return i > 0 && i + 1 < args.size() ? args[i + 1].toDouble() : fallback;
    };
    const int rounds = int(option("--rounds", 6));
    const int repeatRounds = int(option("--repeat-rounds", 3));
    const double timeScale = option("--time-scale", 10);
    // --from DIR: judge the runs a --keep DIR of an earlier bench left, measuring nothing.
    const qsizetype from = args.indexOf(QStringLiteral("--from"));
    const QString cli = from > 0 ? QString() : qEnvironmentVariable("SERVESCOPE_CLI");
    if (cli.isEmpty() && from < 0) {
        std::fprintf(stderr, "bench_verdicts: set SERVESCOPE_CLI to servescope-cli (the bench target does)\n");
        return 2;
    }
    QTemporaryDir temporary;
    const qsizetype keep = from > 0 ? from : args.indexOf(QStringLiteral("--keep"));
    const QDir dir(keep > 0 && keep + 1 < args.size() ? args[keep + 1] : temporary.path());
    dir.mkpath(QStringLiteral("."));
    const NoiseFloors &f = defaultNoiseFloors();
    out << QStringLiteral("bench_verdicts: c1, c4, c16 (10 prompts per slot), chat 128 in / 64 out, simulator time "
                          "scale %1; floors now: ttft %2%, decode %3%, tail %4%, throughput %5%\n")
               .arg(timeScale)
               .arg(f.ttft * 100)
               .arg(f.decode * 100)
               .arg(f.tail * 100)
               .arg(f.throughput * 100);
    out.flush();
    printFigures(QStringLiteral("one repeat a side"), runRounds(cli, dir, 1, rounds, timeScale, QStringLiteral("r1")));
    if (repeatRounds > 0)
        printFigures(QStringLiteral("three repeats a side"),
            runRounds(cli, dir, 3, repeatRounds, timeScale, QStringLiteral("r3")));
    return 0;
}

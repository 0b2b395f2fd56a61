// SPDX-License-Identifier: MIT
// `run` with load.mode capacity against the simulator, checked against what the simulator's own
// engine model predicts for the same closed loop, then `compare` and its capacity gate.
#include "clirunner.h"

#include "metrics/numpystats.h"
#include "sim/enginemodel.h"

#include <QJsonArray>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <map>

using namespace ServeScope;

namespace {

constexpr int kInput = 256, kOutput = 32, kPerLevel = 12;
constexpr double kTimeScale = 4;

// The simulator's engine driven in model time by `concurrency` clients that send `requests`
// requests from an idle server, each the moment its client's previous one finished: the TTFT
// (wall ms at kTimeScale) of every request. What the served run measures, without the network.
std::vector<double> predictedTtftMs(int seqs, int concurrency, int requests)
{
    Sim::SimConfig config;
    Sim::applyPreset(QStringLiteral("a100-7b"), &config);
    config.scheduler.maxNumSeqs = seqs;
    Sim::EngineModel engine(config.model, config.scheduler);
    std::map<quint64, double> sent;
    std::vector<double> ttft;
    quint64 next = 0;
    double now = 0;
    const auto send = [&] {
        Sim::SeqSpec s;
        s.id = next++;
        s.promptTokens = kInput;
        s.outputTokens = kOutput;
        sent[s.id] = now;
        engine.add(s);
    };
    for (int i = 0; i < concurrency && int(next) < requests; ++i)
        send();
    std::map<quint64, bool> started;
    while (engine.hasWork()) {
        const Sim::StepResult &r = engine.step();
        now += r.seconds;
        std::vector<quint64> finished;
        for (const Sim::Emission &e : r.emissions) {
            if (e.tokens > 0 && !started[e.id]) {
                started[e.id] = true;
                ttft.push_back((now - sent[e.id]) * 1000 / kTimeScale);
            }
            if (e.finished)
                finished.push_back(e.id);
        }
        for (size_t i = 0; i < finished.size() && int(next) < requests; ++i)
            send();
    }
    return ttft;
}

double p90(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return Stats::percentileSorted(v, 90);
}

QString experiment(const QDir &dir, const QString &name, int seqs, double boundMs)
{
    const QString json = QStringLiteral(R"({
  "name": "capacity",
  "endpoint": {"base_url": "sim:", "path": "/v1/completions", "model": "sim-7b"},
  "server": {"engine": "vllm", "args": {"max_num_seqs": %1}},
  "dataset": {"name": "random", "seed": 3, "ignore_eos": true, "range_ratio": 0},
  "load": {
    "mode": "capacity",
    "capacity": {"over": "concurrency", "slo": {"p90_ttft_ms": %2}, "start": 1, "max": 64, "resolution": 0.1,
                 "max_points": 12, "max_repeats": 2, "input_len": %3, "output_len": %4, "prompts_per_level": %5}
  },
  "variants": [{"name": "baseline"}]
})")
                             .arg(seqs)
                             .arg(boundMs)
                             .arg(kInput)
                             .arg(kOutput)
                             .arg(kPerLevel);
    const QString path = dir.filePath(name + QStringLiteral(".json"));
    QFile f(path);
    f.open(QIODevice::WriteOnly);
    f.write(json.toUtf8());
    return path;
}

struct Found {
    double capacity = 0, upper = 0;
    QString stop;
    int levels = 0;
    int measurements = 0;
};

Found capacityLine(const QByteArray &out)
{
    for (const QByteArray &line : out.split('\n')) {
        const QList<QByteArray> f = line.split('\t');
        if (f.value(0) == "capacity" && f.size() == 7)
            return { f[2].toDouble(), f[3] == "inf" ? qInf() : f[3].toDouble(), QString::fromUtf8(f[4]), f[5].toInt(),
                f[6].toInt() };
    }
    return {};
}

} // namespace

class TestCliCapacity : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }
    void findsWhatTheEngineModelPredicts()
    {
        QTemporaryDir dir;
        // Below the server's sequence limit every client's request is admitted at once, and the
        // requests of a closed loop arrive together: TTFT is one prefill step of all of them, which the
        // roofline makes grow with the concurrency. The bound sits between the p90 the model predicts
        // at 20 and at 21 concurrent requests.
        const int seqs = 256;
        const double bound = std::round(
            (p90(predictedTtftMs(seqs, 20, kPerLevel * 20)) + p90(predictedTtftMs(seqs, 21, kPerLevel * 21))) / 2);
        double predicted = 0;
        for (int c = 1; c <= 64; ++c) {
            if (p90(predictedTtftMs(seqs, c, kPerLevel * c)) > bound)
                break;
            predicted = c;
        }
        QCOMPARE(predicted, 20.0);
        const QString project = dir.filePath(QStringLiteral("p.servescope"));
        const QString folder = dir.filePath(QStringLiteral("results"));
        const CliRun::Outcome run = CliRun::run(
            { experiment(QDir(dir.path()), QStringLiteral("x"), seqs, bound), QStringLiteral("--project"), project,
                QStringLiteral("--sim-time-scale"), QString::number(kTimeScale), QStringLiteral("--out-dir"), folder });
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const Found found = capacityLine(run.out);
        qInfo("bound %.0f ms: predicted %g, found %g (next failing %g) in %d levels", bound, predicted, found.capacity,
            found.upper, found.levels);
        QCOMPARE(found.stop, QStringLiteral("converged"));
        QVERIFY2(std::abs(found.capacity - predicted) <= std::max(1.0, 0.1 * predicted), run.err.constData());
        // A gradient at 10% steps from 1 to one past the capacity needs more levels.
        int gradient = 1;
        for (double c = 1; c <= predicted; c = std::max(c + 1, std::ceil(c * 1.1)))
            ++gradient;
        QVERIFY2(found.levels < gradient, qPrintable(QStringLiteral("%1 vs %2").arg(found.levels).arg(gradient)));
        // Every level measured is logged with its reading, and stored as one of the run's points.
        QCOMPARE(run.err.count("capacity: baseline c"), qsizetype(found.levels) + run.err.count("repeat 2:"));
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("capacity"));
            db.setDatabaseName(project);
            QVERIFY(db.open());
            QSqlQuery q(db);
            QVERIFY(q.exec(QStringLiteral("SELECT points, resolved_config FROM runs WHERE id = 1")) && q.next());
            QCOMPARE(q.value(0).toInt(), found.levels);
            QVERIFY(q.value(1).toString().contains(QStringLiteral("\"mode\": \"capacity\"")));
            QVERIFY(q.exec(QStringLiteral("SELECT median, ci_high, ci_method FROM point_estimates"
                                          " WHERE metric = 'servescope_capacity' AND point = -1")));
            QVERIFY(q.next());
            QCOMPARE(q.value(0).toDouble(), found.capacity);
            QCOMPARE(q.value(1).toDouble(), found.upper);
            QCOMPARE(q.value(2).toString(), QStringLiteral("capacity-converged"));
        }
        QSqlDatabase::removeDatabase(QStringLiteral("capacity"));

        // A server that admits 8 sequences queues the rest: compare says the capacity fell, and the gate fails on it.
        const CliRun::Outcome smaller = CliRun::run({ experiment(QDir(dir.path()), QStringLiteral("y"), 8, bound),
            QStringLiteral("--project"), project, QStringLiteral("--sim-time-scale"), QString::number(kTimeScale) });
        QVERIFY2(smaller.exitCode == 0, smaller.err.constData());
        const Found less = capacityLine(smaller.out);
        QVERIFY2(less.capacity < found.capacity * 0.8, smaller.out.constData());
        const CliRun::Outcome same = CliRun::cli({ QStringLiteral("compare"), QStringLiteral("--project"), project,
            QStringLiteral("--baseline"), QStringLiteral("1"), QStringLiteral("--candidate"), QStringLiteral("1"),
            QStringLiteral("--fail-if"), QStringLiteral("capacity < -5%") });
        QVERIFY2(same.exitCode == 0, same.err.constData());
        QVERIFY(same.out.contains("gate\tbaseline\tcapacity\tcapacity < -5%\tpass"));
        const CliRun::Outcome gate = CliRun::cli({ QStringLiteral("compare"), QStringLiteral("--project"), project,
            QStringLiteral("--baseline"), QStringLiteral("1"), QStringLiteral("--candidate"), QStringLiteral("2"),
            QStringLiteral("--fail-if"), QStringLiteral("capacity < -5%") });
        QVERIFY2(gate.exitCode == 1, gate.err.constData());
        QVERIFY2(gate.out.contains("gate\tbaseline\tcapacity\tcapacity < -5%\tfail"), gate.out.constData());
        // The results folder (kept in git beside the experiment) gates as the project does.
        const QJsonObject manifest
            = QJsonDocument::fromJson(CliRun::readAll(folder + QStringLiteral("/manifest.json"))).object();
        QCOMPARE(manifest.value(QLatin1String("capacity"))
                     .toArray()
                     .first()
                     .toObject()
                     .value(QLatin1String("capacity"))
                     .toDouble(),
            found.capacity);
        const CliRun::Outcome fromFolder = CliRun::cli({ QStringLiteral("compare"), QStringLiteral("--project"),
            project, QStringLiteral("--baseline"), folder, QStringLiteral("--candidate"), QStringLiteral("2"),
            QStringLiteral("--fail-if"), QStringLiteral("capacity < -5%") });
        QVERIFY2(fromFolder.exitCode == 1, fromFolder.err.constData());
        QVERIFY(fromFolder.out.contains("gate\tbaseline\tcapacity\tcapacity < -5%\tfail"));
        const CliRun::Outcome table = CliRun::cli({ QStringLiteral("compare"), QStringLiteral("--project"), project,
            QStringLiteral("--baseline"), QStringLiteral("1"), QStringLiteral("--candidate"), QStringLiteral("2") });
        QCOMPARE(table.exitCode, 0);
        QVERIFY2(table.out.contains(QStringLiteral("baseline\tcapacity\tcapacity\t%1\t%1\t%2\t%3\t")
                                        .arg(found.capacity)
                                        .arg(found.upper)
                                        .arg(less.capacity)
                                        .toUtf8()),
            table.out.constData());

        // The first search again, taking run 1's levels as known (judged by this experiment's SLOs): what
        // run 1 decided is not measured again, and the capacity is the same within the resolution.
        const CliRun::Outcome again = CliRun::run({ experiment(QDir(dir.path()), QStringLiteral("x"), seqs, bound),
            QStringLiteral("--project"), project, QStringLiteral("--sim-time-scale"), QString::number(kTimeScale),
            QStringLiteral("--reuse-levels"), QStringLiteral("1") });
        QVERIFY2(again.exitCode == 0, again.err.constData());
        const Found reused = capacityLine(again.out);
        const qsizetype taken = again.err.count(" of run 1: reused: ");
        qInfo("reusing run 1: %lld levels reused, %d measured, capacity %g", qlonglong(taken), reused.measurements,
            reused.capacity);
        QVERIFY2(taken >= 2, again.err.constData());
        QVERIFY2(again.err.contains(QStringLiteral(", %1 reused").arg(taken).toUtf8()), again.err.constData());
        QCOMPARE(qsizetype(reused.levels), taken + again.err.count(" repeat 1: "));
        QVERIFY2(reused.measurements < found.measurements, again.out.constData());
        QVERIFY2(
            std::abs(reused.capacity - found.capacity) <= std::max(1.0, 0.1 * found.capacity), again.out.constData());
        const CliRun::Outcome missing = CliRun::run({ experiment(QDir(dir.path()), QStringLiteral("x"), seqs, bound),
            QStringLiteral("--project"), project, QStringLiteral("--reuse-levels"), QStringLiteral("no-such-run") });
        QCOMPARE(missing.exitCode, 2);
        QVERIFY2(missing.err.contains("the run whose levels to reuse: no run 'no-such-run'"), missing.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliCapacity)
#include "tst_clicapacity.moc"

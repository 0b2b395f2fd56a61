// SPDX-License-Identifier: MIT
// servescope-cli compare: the delta table of two runs (stored or results folders) and the CI gate.
#include "clitext.h"
#include "command.h"
#include "compareoutput.h"

#include "compare/conclusion.h"
#include "compare/rerunnoise.h"
#include "compare/runsource.h"
#include "metrics/servingcost.h"
#include "report/conclusiontext.h"

#include <QCommandLineParser>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

#include <cstdio>

namespace {

using namespace ServeScope;
using namespace ServeScope::Cli;

/// Headline metrics of one side whose repeats spread more than 5%.
QStringList notReproducible(const QString &side, const RunSource &source, const QStringList &metrics)
{
    QStringList out;
    for (const PointRepeats &p : source.points) {
        for (const QString &key : metrics) {
            const RepeatStat s = estimateMetric(p, key).repeats;
            if (!reproducible(s))
                out << QStringLiteral("%1\t%2\t%3\t%4\tspread %5%\tcv %6%")
                           .arg(side, field(p.variant), field(p.label), key, QString::number(s.spread() * 100, 'f', 1),
                               QString::number(s.cv * 100, 'f', 1));
        }
    }
    return out;
}

void addCompareOptions(QCommandLineParser &parser)
{
    parser.setApplicationDescription(
        CliText::tr("Compares a candidate run with a baseline point by point (medians across repeats, 95% "
                    "intervals) and, with --fail-if, gates on the changes. RUN is a run id or unique name of "
                    "--project; DIR is a results folder written by `run --out-dir`."));
    parser.addHelpOption();
    parser.addOptions({
        { QStringLiteral("baseline"), CliText::tr("Baseline run or results folder"), QStringLiteral("RUN|DIR") },
        { QStringLiteral("candidate"), CliText::tr("Candidate run or results folder"), QStringLiteral("RUN|DIR") },
        { QStringLiteral("project"), CliText::tr("Project file holding stored runs"), QStringLiteral("FILE") },
        { QStringLiteral("baseline-variant"), CliText::tr("Compare only this variant of the baseline"),
            QStringLiteral("NAME") },
        { QStringLiteral("candidate-variant"), CliText::tr("Compare only this variant of the candidate"),
            QStringLiteral("NAME") },
        { QStringLiteral("metric"), CliText::tr("Metric of the delta table (repeatable; default: headline metrics)"),
            QStringLiteral("KEY") },
        { QStringLiteral("fail-if"), CliText::tr("Gate: METRIC (>|<) [+|-]NUMBER[%] (repeatable)"),
            QStringLiteral("COND") },
        { QStringLiteral("threshold"), CliText::tr("Practical threshold of a better/worse verdict, in % (default 5)"),
            QStringLiteral("PCT"), QStringLiteral("5") },
        { QStringLiteral("junit"), CliText::tr("Write one JUnit test case per point and condition"),
            QStringLiteral("FILE") },
        { QStringLiteral("set"),
            CliText::tr("Result set compared: vllm (every measured request) or steady (the steady window)"),
            QStringLiteral("SET"), QStringLiteral("vllm") },
        { QStringLiteral("json"), CliText::tr("Print JSON instead of lines") },
    });
}

// Both sides, each cut to its chosen variant; nullopt when they are there, else the usage error. `keys`
// (beyond the headline metrics) are the estimates the comparison will need.
std::optional<QString> loadSides(
    const QCommandLineParser &parser, ResultSet set, const QStringList &keys, RunSource *base, RunSource *cand)
{
    QString error;
    const QString project = parser.value(QStringLiteral("project"));
    if (!loadRunSource(parser.value(QStringLiteral("baseline")), project, base, &error, set, keys))
        return CliText::tr("baseline: %1").arg(error);
    if (!loadRunSource(parser.value(QStringLiteral("candidate")), project, cand, &error, set, keys))
        return CliText::tr("candidate: %1").arg(error);
    for (const auto &[side, source] : { std::pair { "baseline", base }, std::pair { "candidate", cand } }) {
        if (set == ResultSet::Steady && source->points.isEmpty())
            return CliText::tr("%1: no point has a valid steady window (its slots were never all busy)")
                .arg(QString::fromLatin1(side));
    }
    for (const auto &[option, source] :
        { std::pair { "baseline-variant", base }, std::pair { "candidate-variant", cand } }) {
        const QString v = parser.value(QString::fromLatin1(option));
        if (!v.isEmpty() && !keepVariant(source, v))
            return CliText::tr("--%1: no variant named '%2'").arg(QString::fromLatin1(option), v);
    }
    return std::nullopt;
}

// Says on stderr which points of either side have no match in the other; true when all match.
bool allMatched(const PointMatching &matching, const RunSource &base, const RunSource &cand)
{
    QTextStream err(stderr);
    for (int i : matching.unmatchedA)
        err << "servescope-cli compare: "
            << CliText::tr("baseline point %1/%2 has no match in the candidate")
                   .arg(base.points[i].variant, base.points[i].label)
            << '\n';
    for (int j : matching.unmatchedB)
        err << "servescope-cli compare: "
            << CliText::tr("candidate point %1/%2 has no match in the baseline")
                   .arg(cand.points[j].variant, cand.points[j].label)
            << '\n';
    return matching.unmatchedA.isEmpty() && matching.unmatchedB.isEmpty();
}

// Every condition at every point of its metric; the usage error when a side lacks the metric there.
std::optional<QString> evaluateGates(
    const QList<GateCondition> &conditions, const QList<DeltaRow> &rows, QList<GateLine> *gates)
{
    for (const GateCondition &c : conditions) {
        bool found = false;
        for (const DeltaRow &r : rows) {
            if (r.metric != c.metric)
                continue;
            found = true;
            if (r.a.repeats.n == 0 || r.b.repeats.n == 0)
                return CliText::tr("%1: %2 is missing at point %3/%4").arg(c.text, c.metric, r.variant, r.label);
            *gates << GateLine { &r, &c, evaluateGate(c, r) };
        }
        if (!found && c.metric == QLatin1String("capacity"))
            return CliText::tr("%1: no variant's capacity was searched on both sides (load.mode capacity)").arg(c.text);
        if (!found && c.metric == QLatin1String(kCostKey))
            return CliText::tr("%1: no variant has a server.gpu_hour_price on both sides").arg(c.text);
    }
    return std::nullopt;
}

/// What compare was asked: --threshold, --set, --fail-if and --metric, read and checked.
struct CompareArgs {
    double threshold = 0;
    ResultSet set = ResultSet::Vllm;
    QList<GateCondition> conditions;
    QStringList asked; // --metric, as given
};

std::optional<QString> readCompareArgs(const QCommandLineParser &parser, CompareArgs *a)
{
    if (!parser.isSet(QStringLiteral("baseline")) || !parser.isSet(QStringLiteral("candidate")))
        return CliText::tr("--baseline and --candidate are required");
    bool ok = false;
    a->threshold = parser.value(QStringLiteral("threshold")).toDouble(&ok) / 100;
    if (!ok || !(a->threshold >= 0))
        return CliText::tr("--threshold takes a percentage >= 0");
    if (!resultSetFromCode(parser.value(QStringLiteral("set")), &a->set))
        return CliText::tr("--set takes vllm or steady");
    for (const QString &text : parser.values(QStringLiteral("fail-if"))) {
        QString error;
        const std::optional<GateCondition> c = parseGateCondition(text, &error);
        if (!c)
            return error;
        a->conditions << *c;
    }
    a->asked = parser.values(QStringLiteral("metric"));
    return std::nullopt;
}

/// The delta rows of the metrics shown and gated (with the capacity rows of two searches and the cost
/// rows of priced variants), each
/// verdict withheld where the sides define a metric differently; `definitions` tells how they do.
/// A refusal when a gate's metric is defined differently or an asked metric is in neither side.
std::optional<QString> compareRows(const CompareArgs &a, const RunSource &base, const RunSource &cand,
    const PointMatching &matching, const QStringList &headline, QList<DeltaRow> *rows,
    QList<DefinitionRow> *definitions, const NoiseFloors &floors)
{
    QStringList metrics = a.asked.isEmpty() ? headline : a.asked;
    for (const GateCondition &c : a.conditions) {
        if (!metrics.contains(c.metric))
            metrics << c.metric;
    }
    const bool capacity = metrics.removeAll(QStringLiteral("capacity")) > 0 || a.asked.isEmpty();
    const bool cost = metrics.removeAll(QString::fromLatin1(kCostKey)) > 0 || a.asked.isEmpty();
    *rows = deltaTable(base.points, cand.points, matching, metrics, a.threshold, floors);
    if (capacity)
        *rows << capacityRows(base, cand, a.threshold);
    // Sides of different conventions (another tool's file, the other profile): only the families
    // both define alike keep a verdict, and a gate on any other is refused.
    *definitions = comparedDefinitions(base, cand);
    withholdIncomparable(*rows, *definitions);
    if (cost) { // with a GPU-hour price on both sides
        QList<DeltaRow> throughput = deltaTable(
            base.points, cand.points, matching, { QStringLiteral("output_throughput") }, a.threshold, floors);
        withholdIncomparable(throughput, *definitions);
        *rows << costRows(base, cand, throughput, a.threshold);
    }
    for (const GateCondition &c : a.conditions) {
        for (const DeltaRow &r : std::as_const(*rows)) {
            if (r.metric == c.metric && r.verdict == Verdict::NotComparable)
                return CliText::tr("--fail-if %1: the baseline (%2) and the candidate (%3) define it "
                                   "differently (%4), so it cannot gate")
                    .arg(c.text, base.convention, cand.convention, r.reason);
        }
    }
    for (const DeltaRow &r : std::as_const(*rows)) {
        if (r.a.repeats.n == 0 && r.b.repeats.n == 0 && a.asked.contains(r.metric))
            return CliText::tr("metric '%1' is in neither run's results").arg(r.metric);
    }
    return std::nullopt;
}

// Says on stderr which points cannot be compared; false when that refuses the comparison. Two capacity
// searches measure the levels each needed: their capacities compare, and the levels both measured.
bool pointsComparable(QTextStream &err, const PointMatching &matching, const RunSource &base, const RunSource &cand)
{
    const bool searches = !base.capacities.isEmpty() && !cand.capacities.isEmpty();
    if (searches && (!matching.unmatchedA.isEmpty() || !matching.unmatchedB.isEmpty())) {
        err << "servescope-cli compare: "
            << CliText::tr("capacity searches: %1 levels of the baseline and %2 of the candidate were measured by one "
                           "side only and are left out")
                   .arg(matching.unmatchedA.size())
                   .arg(matching.unmatchedB.size())
            << '\n';
        return true;
    }
    return allMatched(matching, base, cand);
}

// Two stored runs of one project: its reruns of the baseline's configuration refine the noise floors,
// said on stderr when there are any.
RerunNoise storedRerunNoise(
    QTextStream &err, const QCommandLineParser &parser, const RunSource &base, const RunSource &cand)
{
    const QString project = parser.value(QStringLiteral("project"));
    const bool stored = !project.isEmpty() && base.origin.startsWith(QLatin1String("project "))
        && cand.origin.startsWith(QLatin1String("project "));
    const RerunNoise noise = stored ? projectRerunNoise(project, parser.value(QStringLiteral("baseline")),
                                 { parser.value(QStringLiteral("candidate")) })
                                    : RerunNoise {};
    if (noise.pairs > 0)
        err << "noise_floors\t" << noise.pairs << "\tttft=" << noise.floors.ttft << "\tdecode=" << noise.floors.decode
            << "\ttail=" << noise.floors.tail << "\tthroughput=" << noise.floors.throughput << '\n';
    return noise;
}

// What the comparison concludes, from the rows shown (every output states the same), said on stderr with
// the limit of a single run where a variant has too few repeats.
QList<Conclusion> concludeShown(
    QTextStream &err, const QList<DeltaRow> &rows, const QStringList &shown, const RerunNoise &noise)
{
    QList<DeltaRow> shownRows;
    for (const DeltaRow &r : rows) {
        if (shown.contains(r.metric))
            shownRows << r;
    }
    const QList<Conclusion> conclusions = concludeVariants(shownRows);
    for (const Conclusion &c : conclusions)
        err << "servescope-cli compare: " << Report::conclusionSentence(c) << '\n';
    if (!conclusions.isEmpty() && std::any_of(conclusions.cbegin(), conclusions.cend(), [](const Conclusion &c) {
            return c.minRepeats > 0 && c.minRepeats < kRepeatsForSpread;
        }))
        err << "servescope-cli compare: " << Report::oneRunLimit(noise.floors, noise.pairs) << '\n';
    return conclusions;
}

// The comparison on stdout: as JSON, or the conclusions with the delta table, or with the gate (`gated`).
void printComparison(QTextStream &out, bool json, bool gated, const CompareOutcome &o)
{
    if (json) {
        out << QString::fromUtf8(QJsonDocument(compareJson(o)).toJson(QJsonDocument::Indented));
    } else if (!gated) {
        printDeltaTable(out, o.rows);
        printConclusions(out, o.conclusions);
    } else {
        printConclusions(out, o.conclusions);
        printGates(out, o.gates, o.failures);
    }
}

int runCompare(const QStringList &args)
{
    QCommandLineParser parser;
    addCompareOptions(parser);
    QTextStream err(stderr), out(stdout);
    const auto usage = [&err](const QString &message) {
        err << "servescope-cli compare: " << message << '\n';
        return ExitUsage;
    };
    if (const std::optional<int> done = parseCommand(parser, args, "compare", Positional::None))
        return *done;
    CompareArgs a;
    if (const std::optional<QString> refused = readCompareArgs(parser, &a))
        return usage(*refused);

    QStringList keys = a.asked;
    for (const GateCondition &c : std::as_const(a.conditions)) {
        if (c.metric != QLatin1String("capacity")) // stored per run, not per point
            keys << c.metric;
    }
    RunSource base, cand;
    if (const std::optional<QString> refused = loadSides(parser, a.set, keys, &base, &cand))
        return usage(*refused);

    const PointMatching matching = matchPoints(base.points, cand.points);
    if (!pointsComparable(err, matching, base, cand))
        return ExitUsage;

    const QStringList headline
        = headlineMetrics(a.set, reasoned(base) || reasoned(cand), ranSessions(base) || ranSessions(cand));
    QList<DeltaRow> rows;
    QList<DefinitionRow> definitions;
    const RerunNoise noise = storedRerunNoise(err, parser, base, cand);
    const std::optional<QString> refused
        = compareRows(a, base, cand, matching, headline, &rows, &definitions, noise.floors);
    for (const DefinitionRow &d : std::as_const(definitions))
        err << "definitions\t" << d.family << '\t' << comparabilityCode(d.comparability) << '\t'
            << d.differences.join(u',') << '\n';
    if (refused)
        return usage(*refused);

    QList<GateLine> gates;
    if (const std::optional<QString> missing = evaluateGates(a.conditions, rows, &gates))
        return usage(*missing);
    int failures = 0;
    for (const GateLine &g : std::as_const(gates))
        failures += g.outcome.failed;

    const QStringList shown = a.asked.isEmpty() ? headline : a.asked;
    const QStringList noisy = notReproducible(QStringLiteral("baseline"), base, shown)
        + notReproducible(QStringLiteral("candidate"), cand, shown);
    for (const QString &n : noisy)
        err << CliText::tr("not reproducible at this point: %1").arg(n) << '\n';
    const QList<Conclusion> conclusions = concludeShown(err, rows, shown, noise);

    if (QString error; !parser.value(QStringLiteral("junit")).isEmpty()
        && !writeJunit(parser.value(QStringLiteral("junit")), base.name + QStringLiteral(" vs ") + cand.name, gates,
            conclusions, &error))
        return usage(CliText::tr("--junit: %1").arg(error));

    printComparison(out, parser.isSet(QStringLiteral("json")), !a.conditions.isEmpty(),
        { base, cand, a.set, a.threshold, rows, definitions, shown, noisy, gates, failures, conclusions });
    return failures > 0 ? ExitFailed : ExitOk;
}

const CommandRegistration reg({ "compare",
    QT_TRANSLATE_NOOP("ServeScope::Cli", "Compare two runs point by point; gate a candidate on a baseline"),
    &runCompare });

} // namespace

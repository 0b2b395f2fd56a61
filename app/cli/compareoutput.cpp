// SPDX-License-Identifier: MIT
#include "compareoutput.h"

#include "metrics/servingcost.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>
#include <QXmlStreamWriter>

#include <cmath>

namespace ServeScope::Cli {

QString num(double v)
{
    return std::isnan(v) ? QString() : QString::number(v, 'g', 10);
}

QString field(QString s)
{
    for (QChar &c : s) {
        if (c == QLatin1Char('\t') || c == QLatin1Char('\n') || c == QLatin1Char('\r'))
            c = QLatin1Char(' ');
    }
    return s;
}

namespace {

QJsonObject estimateJson(const MetricEstimate &e)
{
    QJsonObject o { { QStringLiteral("median"), e.repeats.median }, { QStringLiteral("min"), e.repeats.min },
        { QStringLiteral("max"), e.repeats.max }, { QStringLiteral("cv"), e.repeats.cv },
        { QStringLiteral("repeats"), e.repeats.n } };
    if (e.ci.valid) {
        o.insert(QStringLiteral("ci_low"), e.ci.low);
        o.insert(QStringLiteral("ci_high"), e.ci.high);
        o.insert(QStringLiteral("ci_method"), e.method);
    }
    return o;
}

QJsonArray conclusionsJson(const QList<Conclusion> &conclusions)
{
    QJsonArray out;
    for (const Conclusion &c : conclusions) {
        QJsonArray changes;
        for (const Conclusion::Change &ch : c.changes)
            changes.append(QJsonObject { { QStringLiteral("metric"), ch.metric },
                { QStringLiteral("verdict"), verdictCode(ch.verdict) },
                { QStringLiteral("relative"), std::isfinite(ch.relative) ? QJsonValue(ch.relative) : QJsonValue() },
                { QStringLiteral("at"), ch.at }, { QStringLiteral("points"), QJsonArray::fromStringList(ch.points) } });
        out.append(QJsonObject { { QStringLiteral("variant"), c.variant }, { QStringLiteral("outcome"), c.outcome },
            { QStringLiteral("changes"), changes }, { QStringLiteral("decided"), c.decided },
            { QStringLiteral("noise"), c.noise }, { QStringLiteral("undecided"), c.undecided },
            { QStringLiteral("not_comparable"), c.notComparable }, { QStringLiteral("min_repeats"), c.minRepeats },
            { QStringLiteral("failure_class"),
                c.failureClass.isEmpty() ? QJsonValue() : QJsonValue(c.failureClass) } });
    }
    return out;
}

} // namespace

QJsonObject compareJson(const CompareOutcome &o)
{
    const auto &[base, cand, set, threshold, rows, definitions, shown, noisy, gates, failures, conclusions] = o;
    QJsonArray rowArray, gateArray, noisyArray, definitionArray;
    const auto definition = [](const MetricDefinition &d) {
        return QJsonObject { { QStringLiteral("stored"), d.how != MetricDefinition::How::Absent },
            { QStringLiteral("recomputed"), d.how == MetricDefinition::How::Recomputed },
            { QStringLiteral("clock"), d.clock }, { QStringLiteral("weighting"), d.weighting },
            { QStringLiteral("tokens"), d.tokens } };
    };
    for (const DefinitionRow &d : definitions)
        definitionArray.append(QJsonObject { { QStringLiteral("family"), d.family },
            { QStringLiteral("baseline"), definition(d.a) }, { QStringLiteral("candidate"), definition(d.b) },
            { QStringLiteral("comparability"), comparabilityCode(d.comparability) },
            { QStringLiteral("differences"), QJsonArray::fromStringList(d.differences) } });
    for (const DeltaRow &r : rows) {
        if (!shown.contains(r.metric))
            continue;
        rowArray.append(QJsonObject { { QStringLiteral("variant"), r.variant }, { QStringLiteral("point"), r.label },
            { QStringLiteral("metric"), r.metric }, { QStringLiteral("baseline"), estimateJson(r.a) },
            { QStringLiteral("candidate"), estimateJson(r.b) }, { QStringLiteral("change"), r.change },
            { QStringLiteral("relative"), std::isnan(r.relative) ? QJsonValue() : QJsonValue(r.relative) },
            { QStringLiteral("verdict"), verdictCode(r.verdict) }, { QStringLiteral("reason"), r.reason } });
    }
    for (const GateLine &g : std::as_const(gates))
        gateArray.append(QJsonObject { { QStringLiteral("variant"), g.row->variant },
            { QStringLiteral("point"), g.row->label }, { QStringLiteral("condition"), g.condition->text },
            { QStringLiteral("failed"), g.outcome.failed }, { QStringLiteral("message"), g.outcome.message } });
    for (const QString &n : noisy)
        noisyArray.append(n);
    const QJsonObject doc { { QStringLiteral("baseline"),
                                QJsonObject { { QStringLiteral("name"), base.name },
                                    { QStringLiteral("origin"), base.origin },
                                    { QStringLiteral("convention"), base.convention } } },
        { QStringLiteral("candidate"),
            QJsonObject { { QStringLiteral("name"), cand.name }, { QStringLiteral("origin"), cand.origin },
                { QStringLiteral("convention"), cand.convention } } },
        { QStringLiteral("definitions"), definitionArray }, { QStringLiteral("set"), resultSetCode(set) },
        { QStringLiteral("threshold"), threshold }, { QStringLiteral("rows"), rowArray },
        { QStringLiteral("gates"), gateArray }, { QStringLiteral("not_reproducible"), noisyArray },
        { QStringLiteral("conclusions"), conclusionsJson(conclusions) },
        { QStringLiteral("result"), failures > 0 ? QStringLiteral("fail") : QStringLiteral("pass") } };
    return doc;
}

bool writeJunit(const QString &path, const QString &suite, const QList<GateLine> &gates,
    const QList<Conclusion> &conclusions, QString *error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        *error = file.errorString();
        return false;
    }
    int failures = 0;
    for (const GateLine &g : gates)
        failures += g.outcome.failed;
    QXmlStreamWriter xml(&file);
    xml.setAutoFormatting(true);
    xml.writeStartDocument();
    xml.writeStartElement(QStringLiteral("testsuites"));
    xml.writeAttribute(QStringLiteral("tests"), QString::number(gates.size()));
    xml.writeAttribute(QStringLiteral("failures"), QString::number(failures));
    xml.writeStartElement(QStringLiteral("testsuite"));
    xml.writeAttribute(QStringLiteral("name"), suite);
    xml.writeAttribute(QStringLiteral("tests"), QString::number(gates.size()));
    xml.writeAttribute(QStringLiteral("failures"), QString::number(failures));
    for (const GateLine &g : gates) {
        xml.writeStartElement(QStringLiteral("testcase"));
        xml.writeAttribute(
            QStringLiteral("classname"), QStringLiteral("servescope.%1.%2").arg(g.row->variant, g.row->label));
        xml.writeAttribute(QStringLiteral("name"), g.condition->text);
        if (g.outcome.failed) {
            xml.writeStartElement(QStringLiteral("failure"));
            xml.writeAttribute(QStringLiteral("message"), g.outcome.message);
            xml.writeCharacters(g.outcome.message);
            xml.writeEndElement();
        } else {
            xml.writeTextElement(QStringLiteral("system-out"), g.outcome.message);
        }
        xml.writeEndElement();
    }
    QStringList said; // the suite's conclusions, as the `conclusion` lines say them
    for (const Conclusion &c : conclusions)
        said << c.variant + u'\t' + conclusionChanges(c);
    xml.writeTextElement(QStringLiteral("system-out"), said.join(u'\n'));
    xml.writeEndElement();
    xml.writeEndElement();
    xml.writeEndDocument();
    if (!file.commit()) {
        *error = file.errorString();
        return false;
    }
    return true;
}

void printDeltaTable(QTextStream &out, const QList<DeltaRow> &rows)
{
    out << "variant\tpoint\tmetric\tbaseline\tbaseline_low\tbaseline_high\tcandidate\tcandidate_low\t"
           "candidate_high\tchange\tchange_pct\tverdict\treason\n";
    for (const DeltaRow &r : rows) {
        const auto ci = [](const MetricEstimate &e) {
            return e.ci.valid ? num(e.ci.low) + u'\t' + num(e.ci.high) : QStringLiteral("\t");
        };
        // A side without the metric (an imported file that lacks it) prints empty fields, not 0.
        const auto median = [](const MetricEstimate &e) { return e.repeats.n > 0 ? num(e.repeats.median) : QString(); };
        const bool both = r.a.repeats.n > 0 && r.b.repeats.n > 0;
        out << field(r.variant) << '\t' << field(r.label) << '\t' << r.metric << '\t' << median(r.a) << '\t' << ci(r.a)
            << '\t' << median(r.b) << '\t' << ci(r.b) << '\t' << (both ? num(r.change) : QString()) << '\t'
            << (both ? num(r.relative * 100) : QString()) << '\t' << verdictCode(r.verdict) << '\t' << r.reason << '\n';
    }
}

/// One `conclusion` line per variant: VARIANT, OUTCOME and the decided changes that matter most.
void printConclusions(QTextStream &out, const QList<Conclusion> &conclusions)
{
    for (const Conclusion &c : conclusions)
        out << "conclusion\t" << field(c.variant) << '\t' << conclusionChanges(c) << '\n';
}

void printGates(QTextStream &out, const QList<GateLine> &gates, int failures)
{
    for (const GateLine &g : gates)
        out << "gate\t" << field(g.row->variant) << '\t' << field(g.row->label) << '\t' << g.condition->text << '\t'
            << (g.outcome.failed ? "fail" : "pass") << '\t' << g.outcome.message << '\n';
    out << "compare\t" << (failures > 0 ? "fail" : "pass") << '\t' << gates.size() << '\t' << failures << '\n';
}

} // namespace ServeScope::Cli

// SPDX-License-Identifier: MIT
// What `servescope-cli compare` writes: the delta table and the conclusions as lines, the gate's lines,
// the whole comparison as JSON, and the gate as JUnit. Machine output, never translated.
#pragma once

#include "compare/conclusion.h"
#include "compare/runsource.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>
#include <QTextStream>

namespace ServeScope::Cli {

/// One gate condition evaluated at one matched point.
struct GateLine {
    const DeltaRow *row;
    const GateCondition *condition;
    GateOutcome outcome;
};

/// A number as the lines and JSON give it: up to 10 significant digits, empty for NaN.
QString num(double v);
/// A text as one tab-separated field (tabs and line breaks become spaces).
QString field(QString s);

/// Everything a comparison concluded, as its JSON object reads it.
struct CompareOutcome {
    const RunSource &base, &cand;
    ResultSet set;
    double threshold;
    const QList<DeltaRow> &rows;
    const QList<DefinitionRow> &definitions;
    const QStringList &shown, &noisy;
    const QList<GateLine> &gates;
    int failures;
    const QList<Conclusion> &conclusions;
};
QJsonObject compareJson(const CompareOutcome &o);

/// One JUnit test case per point and condition, the conclusions as the suite's system-out.
bool writeJunit(const QString &path, const QString &suite, const QList<GateLine> &gates,
    const QList<Conclusion> &conclusions, QString *error);

/// The delta table: a header, then one row per point and metric.
void printDeltaTable(QTextStream &out, const QList<DeltaRow> &rows);
/// One `conclusion` line per variant: VARIANT, OUTCOME and the decided changes that matter most.
void printConclusions(QTextStream &out, const QList<Conclusion> &conclusions);
/// The gate's lines and the final `compare  pass|fail  CONDITIONS  FAILED`.
void printGates(QTextStream &out, const QList<GateLine> &gates, int failures);

} // namespace ServeScope::Cli

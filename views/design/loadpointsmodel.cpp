// SPDX-License-Identifier: MIT
#include "loadpointsmodel.h"

#include "experimentdocument.h"
#include "formbinder.h"

#include <QColor>
#include <QLocale>

#include <cmath>
#include <limits>

namespace ServeScope {

LoadPointsModel::LoadPointsModel(ExperimentDocument *document, QObject *parent)
    : QAbstractTableModel(parent)
    , m_document(document)
{
    connect(document, &ExperimentDocument::changed, this, &LoadPointsModel::reload);
    reload();
}

void LoadPointsModel::reload()
{
    const int rows = int(m_document->experiment().load.points.size());
    if (rows != m_rows) {
        beginResetModel();
        m_rows = rows;
        m_problems = m_document->problems();
        endResetModel();
        return;
    }
    m_problems = m_document->problems();
    if (m_rows > 0)
        emit dataChanged(index(0, 0), index(m_rows - 1, ColumnCount - 1));
}

int LoadPointsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : m_rows;
}

int LoadPointsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(ColumnCount);
}

QString LoadPointsModel::fieldName(int column)
{
    static const char *const names[] = { "label", "concurrency", "request_rate", "burstiness", "max_concurrency",
        "input_len", "output_len", "num_prompts", "max_seconds" };
    return column >= 0 && column < ColumnCount ? QString::fromLatin1(names[column]) : QString();
}

static QVariant pointValue(const LoadPoint &p, int column)
{
    switch (column) {
    case LoadPointsModel::Label:
        return p.label;
    case LoadPointsModel::Concurrency:
        return p.concurrency;
    case LoadPointsModel::Rate:
        return std::isinf(p.requestRate) ? QVariant(QStringLiteral("inf")) : QVariant(p.requestRate);
    case LoadPointsModel::Burstiness:
        return std::isinf(p.burstiness) ? QVariant(QStringLiteral("inf")) : QVariant(p.burstiness);
    case LoadPointsModel::MaxConcurrency:
        return p.maxConcurrency;
    case LoadPointsModel::InputLen:
        return p.inputLen;
    case LoadPointsModel::OutputLen:
        return p.outputLen;
    case LoadPointsModel::Prompts:
        return p.numPrompts;
    case LoadPointsModel::MaxSeconds:
        return p.maxSeconds;
    default:
        return {};
    }
}

QVariant LoadPointsModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows)
        return {};
    const Experiment &e = m_document->experiment();
    const LoadPoint &p = e.load.points.at(index.row());
    const QString path = QStringLiteral("load.points[%1].%2").arg(index.row()).arg(fieldName(index.column()));
    if (role == Qt::DisplayRole || role == Qt::EditRole) {
        if (role == Qt::DisplayRole && index.column() == Label && p.label.isEmpty())
            return e.pointLabel(index.row());
        return pointValue(p, index.column());
    }
    if (role == Qt::ToolTipRole || role == Qt::BackgroundRole) {
        QStringList reasons;
        for (const Problem &pr : m_problems) {
            if (pr.variant < 0 && FormBinder::pathCovers(path, pr.path))
                reasons.append(pr.translatedReason());
        }
        if (role == Qt::ToolTipRole)
            return reasons.isEmpty() ? QVariant() : QVariant(reasons.join(QLatin1Char('\n')));
        if (!reasons.isEmpty())
            return QColor(255, 225, 225);
        if (!(flags(index) & Qt::ItemIsEditable))
            return QColor(240, 240, 240);
    }
    if (role == Qt::ForegroundRole && index.column() == Label && p.label.isEmpty())
        return QColor(Qt::gray);
    return {};
}

QVariant LoadPointsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole)
        return {};
    if (orientation == Qt::Vertical)
        return section + 1;
    switch (section) {
    case Label:
        return tr("Label");
    case Concurrency:
        return tr("Concurrency");
    case Rate:
        return tr("Rate (req/s)");
    case Burstiness:
        return tr("Burstiness");
    case MaxConcurrency:
        return tr("Max concurrency");
    case InputLen:
        return tr("Input tokens");
    case OutputLen:
        return tr("Output tokens");
    case Prompts:
        return tr("Prompts");
    case MaxSeconds:
        return tr("Max seconds");
    default:
        return {};
    }
}

Qt::ItemFlags LoadPointsModel::flags(const QModelIndex &index) const
{
    Qt::ItemFlags f = QAbstractTableModel::flags(index);
    if (!index.isValid())
        return f;
    const bool rate = m_document->experiment().load.mode == LoadMode::Rate;
    const int c = index.column();
    if ((rate && c == Concurrency) || (!rate && (c == Rate || c == Burstiness || c == MaxConcurrency)))
        return f;
    return f | Qt::ItemIsEditable;
}

namespace {

// The largest value each column takes: the bounds `validate()` checks (core/model/validation.cpp), so a
// typed value never wraps around an int on its way there.
struct ColumnLimit {
    double min;
    double max;
    bool whole;
    bool infinite; ///< "inf" is a value (request rate, burstiness)
};

ColumnLimit columnLimit(int column)
{
    switch (column) {
    case LoadPointsModel::Concurrency: // 0 is typed and flagged by validate() under the field
        return { 0, 1048576, true, false };
    case LoadPointsModel::MaxConcurrency:
        return { 0, 1048576, true, false };
    case LoadPointsModel::InputLen:
    case LoadPointsModel::OutputLen:
        return { 0, 10000000, true, false };
    case LoadPointsModel::Prompts:
        return { 0, 100000000, true, false };
    case LoadPointsModel::MaxSeconds:
        return { 0, 1e7, false, false };
    case LoadPointsModel::Rate:
    case LoadPointsModel::Burstiness:
        return { 0, 1e9, false, true };
    default:
        return { 0, 0, false, false };
    }
}

// A number as typed: the user's locale first (group separators included), then the C locale.
bool parseNumber(const QString &text, double *value)
{
    bool ok = false;
    *value = QLocale().toDouble(text, &ok);
    if (!ok)
        *value = QLocale::c().toDouble(text, &ok);
    return ok && std::isfinite(*value);
}

} // namespace

QString LoadPointsModel::checkValue(int column, const QVariant &value, double *out) const
{
    const QString text = value.toString().trimmed();
    const ColumnLimit limit = columnLimit(column);
    const QString name = headerData(column, Qt::Horizontal, Qt::DisplayRole).toString();
    if (limit.infinite && text.compare(QLatin1String("inf"), Qt::CaseInsensitive) == 0) {
        *out = std::numeric_limits<double>::infinity();
        return {};
    }
    const QLocale locale;
    const auto number = [&](double v) { return limit.whole ? locale.toString(qint64(v)) : locale.toString(v); };
    if (!parseNumber(text, out))
        return limit.infinite ? tr("%1: \"%2\" is not a number or \"inf\".").arg(name, text)
                              : tr("%1: \"%2\" is not a number.").arg(name, text);
    if (limit.whole && std::floor(*out) != *out)
        return tr("%1 must be a whole number; %2 was not applied.").arg(name, text);
    if (*out < limit.min || *out > limit.max)
        return tr("%1 must be between %2 and %3; %4 was not applied.")
            .arg(name, number(limit.min), number(limit.max), text);
    return {};
}

bool LoadPointsModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (!index.isValid() || role != Qt::EditRole || index.row() >= m_rows)
        return false;
    Experiment e = m_document->experiment();
    LoadPoint &p = e.load.points[index.row()];
    double v = 0;
    if (index.column() != Label) {
        // A value beyond its column's limit is refused as typed, with the limit, never clamped or wrapped.
        const QString refusal = checkValue(index.column(), value, &v);
        if (!refusal.isEmpty()) {
            emit valueRefused(index.row(), index.column(), refusal);
            return false;
        }
    }
    switch (index.column()) {
    case Label:
        p.label = value.toString().trimmed();
        break;
    case Concurrency:
        p.concurrency = int(v);
        break;
    case Rate:
        p.requestRate = v;
        break;
    case Burstiness:
        p.burstiness = v;
        break;
    case MaxConcurrency:
        p.maxConcurrency = int(v);
        break;
    case InputLen:
        p.inputLen = int(v);
        break;
    case OutputLen:
        p.outputLen = int(v);
        break;
    case Prompts:
        p.numPrompts = int(v);
        break;
    case MaxSeconds:
        p.maxSeconds = v;
        break;
    default:
        return false;
    }
    m_document->apply(e, tr("Edit load point %1").arg(index.row() + 1));
    return true;
}

void LoadPointsModel::addPoint()
{
    Experiment e = m_document->experiment();
    LoadPoint p;
    if (!e.load.points.isEmpty()) {
        p = e.load.points.constLast();
        p.label.clear();
        p.concurrency = qMax(1, p.concurrency * 2);
        p.requestRate = p.requestRate * 2;
    } else {
        p.concurrency = 1;
        p.requestRate = 1;
        p.inputLen = 512;
        p.outputLen = 128;
        p.numPrompts = 100;
    }
    e.load.points.append(p);
    m_document->apply(e, tr("Add load point"));
}

void LoadPointsModel::removePoint(int row)
{
    Experiment e = m_document->experiment();
    if (row < 0 || row >= e.load.points.size())
        return;
    e.load.points.removeAt(row);
    m_document->apply(e, tr("Remove load point %1").arg(row + 1));
}

void LoadPointsModel::movePoint(int row, int delta)
{
    Experiment e = m_document->experiment();
    const int to = row + delta;
    if (row < 0 || to < 0 || row >= e.load.points.size() || to >= e.load.points.size())
        return;
    e.load.points.move(row, to);
    m_document->apply(e, tr("Move load point %1").arg(row + 1));
}

void LoadPointsModel::applyGradient(const QList<int> &levels)
{
    Experiment e = m_document->experiment();
    const LoadPoint first = e.load.points.value(0);
    ConcurrencyGradient g;
    g.levels = levels;
    g.inputLen = first.inputLen > 0 ? first.inputLen : 512;
    g.outputLen = first.outputLen > 0 ? first.outputLen : 128;
    g.numPrompts = first.numPrompts > 0 ? first.numPrompts : 50;
    g.promptsPerConcurrency = 5;
    e.load.mode = LoadMode::Concurrency;
    e.load.gradient = g;
    e.load.points = g.expand();
    m_document->apply(e, tr("Apply concurrency gradient"));
}

} // namespace ServeScope

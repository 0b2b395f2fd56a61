// SPDX-License-Identifier: MIT
#include "pointtable.h"

#include "metrics/estimates.h"
#include "report/metricnames.h"

#include <QFont>
#include <QRegularExpression>
#include <QSet>

#include <cmath>

namespace ServeScope {

namespace {

QString ms(double v)
{
    return QString::number(v, 'f', v < 10 ? 2 : 1);
}

// The table's value columns by result-file key; success_rate shows as a percentage.
struct TableColumn {
    const char *key;
    int decimals; ///< -1: latency formatting
};
constexpr TableColumn kColumns[] = { { "completed", 0 }, { "failed", 0 }, { "success_rate", 1 },
    { "request_throughput", 2 }, { "output_throughput", 1 }, { "request_goodput", 2 }, { "median_ttft_ms", -1 },
    { "p99_ttft_ms", -1 }, { "median_ttfo_ms", -1 }, { "p99_ttfo_ms", -1 }, { "median_tpot_ms", -1 },
    { "p99_tpot_ms", -1 }, { "median_itl_ms", -1 }, { "p99_itl_ms", -1 }, { "median_e2el_ms", -1 },
    { "p99_e2el_ms", -1 }, { "server_running_mean", 1 }, { "server_waiting_max", 0 }, { "server_kv_usage_max", 1 },
    { "server_preemptions", 0 }, { "server_gpu_util_mean", 1 }, { "cache_hit_rate", 1 },
    { "first_turn_median_ttft_ms", -1 }, { "later_turn_median_ttft_ms", -1 }, { "later_turn_cache_hit_rate", 1 },
    { "server_prefix_cache_hit_rate", 1 }, { "client_dispatch_lag_p99_ms", 2 }, { "client_cpu_percent", 0 } };
constexpr int kFirstValueColumn = PointTableModel::kRequestsColumn;
constexpr int kGoodputColumn = kFirstValueColumn + 5;

// "TTFT p99" for "p99_ttft_ms", "output throughput" for "output_throughput".
QString metricWords(const QString &key)
{
    static const QRegularExpression latency(QStringLiteral("^(mean|median|p[0-9.]+)_([a-z0-9]+)_ms$"));
    const QRegularExpressionMatch m = latency.match(key);
    if (m.hasMatch())
        return m.captured(2).toUpper() + u' ' + m.captured(1);
    return QString(key).replace(u'_', u' ');
}

// What some point of the shown runs has, deciding which columns are shown.
struct Seen {
    bool goodput = false, repeats = false, reasoning = false, cached = false, sessions = false;
    QSet<QString> series; // server and client columns some point has
};

// A point's values by result-file key, its server's and client's series among them ("server_", "client_"
// before their names), each of those series also noted in `series`.
QMap<QString, double> pointValues(const PointSummary &p, bool steady, QSet<QString> *series)
{
    // The server's series do not depend on the set: they describe the whole point.
    QMap<QString, double> values = steady ? p.steady : summaryValues(p);
    for (auto it = p.server.cbegin(); it != p.server.cend(); ++it) {
        values.insert(QStringLiteral("server_") + it.key(), it.value());
        series->insert(QStringLiteral("server_") + it.key());
    }
    for (auto it = p.client.cbegin(); it != p.client.cend(); ++it) {
        values.insert(QStringLiteral("client_") + it.key(), it.value());
        series->insert(QStringLiteral("client_") + it.key());
    }
    return values;
}

// Which of `count` columns are shown: the run letter with several runs, and the columns some point has.
QList<bool> shownColumns(qsizetype count, bool severalRuns, const Seen &seen)
{
    QList<bool> shown(count, true);
    shown[0] = severalRuns;
    shown[kGoodputColumn] = seen.goodput;
    for (int c = 0; c < int(std::size(kColumns)); ++c) {
        const QString key = QLatin1String(kColumns[c].key);
        if (key.startsWith(QLatin1String("server_")) || key.startsWith(QLatin1String("client_")))
            shown[kFirstValueColumn + c] = seen.series.contains(key);
        // A reasoning model's answer starts after its thinking; otherwise TTFO is the first content.
        if (key.contains(QLatin1String("_ttfo_")))
            shown[kFirstValueColumn + c] = seen.reasoning;
        if (key == QLatin1String("cache_hit_rate"))
            shown[kFirstValueColumn + c] = seen.cached;
        if (isTurnKey(key)) // multi_turn sessions' first turns against their later ones
            shown[kFirstValueColumn + c]
                = seen.sessions && (seen.cached || !key.endsWith(QLatin1String("_cache_hit_rate")));
    }
    shown.last() = seen.repeats;
    return shown;
}

} // namespace

PointTableModel::Cell PointTableModel::textCell(const QString &text)
{
    Cell cell;
    cell.text = text;
    cell.sort = std::nan("");
    return cell;
}

PointTableModel::Cell PointTableModel::numberCell(const QString &text, double sortValue)
{
    Cell cell;
    cell.text = text;
    cell.sort = sortValue;
    cell.number = true;
    return cell;
}

// A value column's cell: "—" where the point has no value (or no goodput without SLOs).
PointTableModel::Cell PointTableModel::valueCell(const QMap<QString, double> &values, int column)
{
    const TableColumn &c = kColumns[column];
    const auto it = values.constFind(QLatin1String(c.key));
    if (it == values.cend() || std::isnan(*it) || (*it < 0 && qstrcmp(c.key, "request_goodput") == 0))
        return numberCell(QStringLiteral("—"), -1);
    const double v = qstrcmp(c.key, "success_rate") == 0 ? *it * 100 : *it;
    return numberCell(c.decimals < 0 ? ms(v) : QString::number(v, 'f', c.decimals), v);
}

PointTableModel::PointTableModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void PointTableModel::setInput(const Report::ReportInput &input, bool steady)
{
    beginResetModel();
    m_headers = columnTitles();
    m_rows.clear();
    Seen seen;
    for (qsizetype r = 0; r < input.runs.size(); ++r) {
        const Report::ReportRun &run = input.runs.at(r);
        QList<QMap<QString, double>> repeats; // of the point being listed
        for (qsizetype i = 0; i < run.points.size(); ++i) {
            const PointSummary &p = run.points.at(i);
            seen.goodput = seen.goodput || (!steady && p.requestGoodput >= 0);
            seen.reasoning = seen.reasoning || p.reasoningTokens > 0;
            seen.cached = seen.cached || p.cachedTokens >= 0;
            seen.sessions = seen.sessions || !p.turns.isEmpty();
            const QString load = p.mode == QLatin1String("rate")
                ? (std::isinf(p.requestRate) ? tr("rate inf") : tr("%1 req/s").arg(p.requestRate))
                : tr("c=%1").arg(p.concurrency);
            const QMap<QString, double> values = pointValues(p, steady, &seen.series);
            repeats << values;
            const auto identity = [&](const QString &repeat, double sortValue) {
                return Row { { textCell(QString(QChar(char16_t(u'A' + r)))), textCell(p.variant), textCell(p.label),
                                 numberCell(repeat, sortValue), textCell(load) },
                    {} };
            };
            Row row = identity(QString::number(p.repeat), p.repeat);
            row.point = QVariantList { p.runId, p.variant, p.point, p.repeat, p.label };
            QList<Cell> &cells = row.cells;
            for (int c = 0; c < int(std::size(kColumns)); ++c) {
                // No request completed: there is no latency to show, not a latency of 0.
                if (kColumns[c].decimals < 0 && p.completed == 0)
                    cells << numberCell(QStringLiteral("—"), -1);
                else
                    cells << valueCell(values, c);
            }
            cells << textCell(QString());
            markPartial(cells, run, i, steady);
            markValues(cells, p, steady);
            m_rows << row;

            const bool last = i + 1 == run.points.size() || run.points.at(i + 1).point != p.point
                || run.points.at(i + 1).variant != p.variant;
            if (!last)
                continue;
            if (repeats.size() > 1) {
                seen.repeats = true;
                m_rows << medianRow(identity(tr("median of %1").arg(repeats.size()), p.repeat + 0.5),
                    steady ? QList<PointEstimate>() : Report::pointEstimates(run, p.variant, p.point), repeats);
            }
            repeats.clear();
        }
    }
    m_shown = shownColumns(m_headers.size(), input.runs.size() > 1, seen);
    endResetModel();
}

QStringList PointTableModel::columnTitles()
{
    return QStringList { tr("Run"), tr("Variant"), tr("Point"), tr("Repeat"), tr("Load"), tr("Requests"), tr("Failed"),
        tr("Success (%)"), tr("Requests/s"), tr("Output (tok/s)"), tr("Goodput (req/s)"), tr("TTFT p50 (ms)"),
        tr("TTFT p99 (ms)"), tr("TTFO p50 (ms)"), tr("TTFO p99 (ms)"), tr("TPOT p50 (ms)"), tr("TPOT p99 (ms)"),
        tr("ITL p50 (ms)"), tr("ITL p99 (ms)"), tr("E2EL p50 (ms)"), tr("E2EL p99 (ms)"), tr("Server running (mean)"),
        tr("Server waiting (max)"), tr("KV cache (max %)"), tr("Preemptions"), tr("GPU util (%)"),
        tr("Prompt cached (%)"), tr("First turns' TTFT p50 (ms)"), tr("Later turns' TTFT p50 (ms)"),
        tr("Later turns' prompt cached (%)"), tr("Server prefix cache hits (%)"), tr("Dispatch lag p99 (ms)"),
        tr("Client CPU (%)"), tr("Spread across repeats") };
}

// A point that stopped short shows what it completed of what it was to send: "192/320" (of the requests
// it sent when the configuration does not say how many were planned), in italics, with why.
void PointTableModel::markPartial(QList<Cell> &cells, const Report::ReportRun &run, qsizetype i, bool steady)
{
    const PointSummary &p = run.points.at(i);
    const QString plannedKey = Report::plannedKey(p.variant, p.point);
    const qint64 planned = run.plannedPrompts.value(plannedKey, qint64(p.completed) + p.failed + p.cancelled);
    const auto mark = [&cells, &p, planned](const QString &why) {
        cells[kFirstValueColumn].text = QStringLiteral("%1/%2").arg(p.completed).arg(planned);
        for (Cell &cell : cells) {
            cell.italic = true;
            cell.tip = why;
        }
    };
    // Cut short by a cancel: requests cancelled in flight, or, when the cancel came between two
    // requests (none in flight, as at concurrency 1), the cancelled run's last point short of its plan.
    const bool lastOfCancelled = run.status == QLatin1String("cancelled") && i == run.points.size() - 1
        && run.plannedPrompts.contains(plannedKey) && qint64(p.completed) + p.failed < planned;
    if (!steady && p.cancelled > 0)
        mark(tr("Partial: the run was cancelled here; %1 of the %2 planned requests completed, %n "
                "cancelled in flight.",
            nullptr, p.cancelled)
                 .arg(p.completed)
                 .arg(planned));
    else if (!steady && lastOfCancelled)
        mark(tr("Partial: the run was cancelled here, between two requests; %1 of the %2 planned "
                "requests completed.")
                 .arg(p.completed)
                 .arg(planned));
    // An interrupted run's last point, summarised from what it stored when the run was read.
    if (run.partialPoints.contains(Report::partialKey(p.variant, p.point, p.repeat)))
        mark(tr("Partial: the run's process stopped here; %1 of the %2 planned requests "
                "completed and were stored, and are summarised here.")
                 .arg(p.completed)
                 .arg(planned));
}

void PointTableModel::markValues(QList<Cell> &cells, const PointSummary &p, bool steady)
{
    if (!steady && p.failed > 0)
        cells[kFirstValueColumn + 1].foreground = QColor(176, 0, 32);
    if (p.outputEstimated > 0) {
        // Without usage and without /tokenize the output count is the number of content events:
        // output throughput and TPOT are estimates (ITL, per event, is not).
        for (int c = 0; c < int(std::size(kColumns)); ++c) {
            const QLatin1String key(kColumns[c].key);
            if (key != QLatin1String("output_throughput") && !key.contains(QLatin1String("_tpot_")))
                continue;
            Cell &cell = cells[kFirstValueColumn + c];
            cell.text = QStringLiteral("≈ ") + cell.text;
            cell.tip = tr("Estimated: %1 of %2 requests had no usage and the server no /tokenize, so their "
                          "output tokens are the number of content events.")
                           .arg(p.outputEstimated)
                           .arg(p.completed);
        }
    }
    if (p.inputEstimated > 0 && !steady) {
        // Input counts appear in no column; the requests cell carries the mark.
        Cell &requests = cells[kFirstValueColumn];
        requests.text = QStringLiteral("≈ ") + requests.text;
        requests.tip = tr("Estimated input: %1 of %2 requests had no usage and the server no /tokenize, so "
                          "their input tokens are an estimate (calibrated with max_tokens 1 probes, else the "
                          "target length).")
                           .arg(p.inputEstimated)
                           .arg(p.completed);
    }
    if (steady && p.steady.value(QStringLiteral("valid")) != 1.0) {
        for (Cell &cell : cells)
            cell.tip = tr("No steady window: the point never had all its slots busy at once.");
    }
}

// The row under a point's repeats: each value's median across them (the stored estimate of vLLM's
// set; for the steady set, computed by core), and the widest spread of a headline metric, red with
// every metric named when the point is not reproducible.
PointTableModel::Row PointTableModel::medianRow(
    Row row, const QList<PointEstimate> &stored, const QList<QMap<QString, double>> &repeats) const
{
    const QMap<QString, RepeatStat> stats = repeatStats(stored, repeats);
    QMap<QString, double> medians;
    for (auto it = stats.cbegin(); it != stats.cend(); ++it)
        medians.insert(it.key(), it->median);
    for (int c = 0; c < int(std::size(kColumns)); ++c)
        row.cells << valueCell(medians, c);
    const QString widest = widestSpread(stats);
    QStringList unreproducible;
    for (auto it = stats.cbegin(); it != stats.cend(); ++it) {
        if (headlineMetrics().contains(it.key()) && !reproducible(*it))
            unreproducible << tr("%1: spread %2%, CV %3%")
                                  .arg(metricWords(it.key()), QString::number(it->spread() * 100, 'f', 1),
                                      QString::number(it->cv * 100, 'f', 1));
    }
    Cell spread = widest.isEmpty()
        ? numberCell(QString(), -1)
        : numberCell(
            tr("%1% (%2)").arg(QString::number(stats.value(widest).spread() * 100, 'f', 1), metricWords(widest)),
            stats.value(widest).spread());
    spread.tip = unreproducible.isEmpty()
        ? tr("Every headline metric's repeats agree within 5% ((max − min) / median and CV).")
        : tr("Not reproducible at this point:\n%1").arg(unreproducible.join(u'\n'));
    if (!unreproducible.isEmpty())
        spread.foreground = QColor(176, 0, 32);
    row.cells << spread;
    for (Cell &cell : row.cells)
        cell.bold = true;
    return row;
}

int PointTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int PointTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_headers.size());
}

QVariant PointTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size() || index.column() >= m_rows[index.row()].cells.size())
        return {};
    const Row &row = m_rows[index.row()];
    const Cell &cell = row.cells[index.column()];
    switch (role) {
    case Qt::DisplayRole:
        return cell.text;
    case Qt::ToolTipRole:
        return cell.tip.isEmpty() ? QVariant() : cell.tip;
    case Qt::ForegroundRole:
        return cell.foreground.isValid() ? QVariant(cell.foreground) : QVariant();
    case Qt::FontRole:
        if (cell.bold || cell.italic) {
            QFont f;
            f.setBold(cell.bold);
            f.setItalic(cell.italic);
            return f;
        }
        return {};
    case Qt::TextAlignmentRole:
        return cell.number ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    case SortRole:
        return std::isnan(cell.sort) ? QVariant(cell.text) : QVariant(cell.sort);
    case PointRole:
        return row.point;
    default:
        return {};
    }
}

QVariant PointTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::DisplayRole && section >= 0 && section < m_headers.size())
        return m_headers[section];
    return QAbstractTableModel::headerData(section, orientation, role);
}

QString PointTableModel::text(const QList<int> &rows) const
{
    QList<int> columns;
    for (int c = 0; c < m_headers.size(); ++c) {
        if (columnShown(c))
            columns << c;
    }
    QStringList lines;
    QStringList header;
    for (int c : std::as_const(columns))
        header << m_headers[c];
    lines << header.join(u'\t');
    QList<int> order = rows;
    if (order.isEmpty()) {
        for (int r = 0; r < m_rows.size(); ++r)
            order << r;
    }
    for (int r : std::as_const(order)) {
        QStringList cells;
        for (int c : std::as_const(columns))
            cells << m_rows[r].cells.value(c).text;
        lines << cells.join(u'\t');
    }
    return lines.join(u'\n') + u'\n';
}

PointTableSorter::PointTableSorter(QObject *parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(PointTableModel::SortRole);
}

QString PointTableSorter::shownText() const
{
    QList<int> rows;
    for (int r = 0; r < rowCount(); ++r)
        rows << mapToSource(index(r, 0)).row();
    return static_cast<const PointTableModel *>(sourceModel())->text(rows);
}

} // namespace ServeScope

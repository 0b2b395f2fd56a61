// SPDX-License-Identifier: MIT
#pragma once

#include "run/runtypes.h"

#include <QList>
#include <QVector>

#include <initializer_list>

class QChart;
class QChartView;
class QFont;
class QLineSeries;

namespace ServeScope {

/// The Run page's small live charts: rolling TTFT and ITL (p50, p99) and output throughput, each line
/// with a dashed twin for the live baseline's figure at the point under way. Snapshots land in a ring
/// buffer and refresh() redraws the lines from it with replace(), so the cost on the GUI thread does
/// not depend on the request rate. The page names the lines and titles the charts (its translations).
class LiveCharts final {
public:
    enum Line { TtftP50, TtftP99, ItlP50, ItlP99, OutputTokens, LineCount };

    LiveCharts();
    LiveCharts(const LiveCharts &) = delete;
    LiveCharts &operator=(const LiveCharts &) = delete;

    /// The live series of `line` (its dashed twin takes its pen when a chart is made).
    QLineSeries *series(Line line) const { return m_series[line]; }
    /// A small chart of `lines` and their dashed twins, `title` over it, fonts smaller than `base`. The
    /// last line sets the y scale (p99 lies above p50).
    QChartView *makeChart(const QString &title, const QFont &base, std::initializer_list<Line> lines);
    /// The dashed twins shown (emptied) while a run compares with an earlier one; none has a legend entry.
    void showBaseline(bool shown);
    /// Forgets every sample (a run starts).
    void clear();
    void append(const RunSnapshot &snapshot);
    /// Redraws from the ring when a sample came since the last redraw; false when none did.
    bool refresh();

private:
    struct Sample {
        double t;
        double live[LineCount];
        double baseline[LineCount];
    };
    struct Chart {
        QChart *chart;
        Line top; ///< the line (and its twin) the y axis is scaled to
    };

    QLineSeries *m_series[LineCount];
    QLineSeries *m_baseline[LineCount]; ///< dashed, in the live series' colours
    QList<Chart> m_charts;
    QVector<Sample> m_ring;
    int m_ringHead = 0;
    bool m_dirty = false;
};

} // namespace ServeScope

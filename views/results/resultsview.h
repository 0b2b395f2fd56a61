// SPDX-License-Identifier: MIT
#pragma once

#include "report/reportdocument.h"

#include <QWidget>

class QAbstractItemModel;
class QAction;
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QTableView;
class QTabWidget;
class QTextBrowser;
class QTimer;

namespace ServeScope {

class DeltaTableFilter;
class DeltaTableModel;
class FindingsList;
class HeadlinePanel;
class PointTableModel;
class PointTableSorter;
namespace Report {
class ChartView;
}

/// The results of one run, or of several runs compared, in tabs: Charts (core/report's charts, one
/// colour per run and variant, lettered A, B, … when runs are compared, with the headline panel
/// beside them), Changes (the comparison's full delta table, when there is one), Findings, and
/// Table (every (run, variant, point, repeat) summary — vLLM's result set or the steady window's —
/// with a median row and the spread across repeats under each repeated point).
class ResultsView final : public QWidget {
    Q_OBJECT
public:
    explicit ResultsView(QWidget *parent = nullptr);

    /// Runs as the report shows them (one, or several to compare) with their comparisons.
    void setInput(const Report::ReportInput &input);
    /// The steady set's deltas of the runs shown (ignored when other runs are shown by then).
    void setSteadyDeltas(const QList<qint64> &runIds, const QList<DeltaSection> &sections);
    /// A run in progress: its points arrive one by one through addPoint().
    void startLive(const QString &runName);
    void addPoint(const PointSummary &point);
    /// The shown run's requests and server scrapes over time (kept when `runId` is the run shown).
    void setTimeSeries(qint64 runId, const Report::TimeSeriesInput &input);
    void clear();

    const Report::ReportInput &input() const { return m_input; }
    /// The chart as shown: visible series, y scale, zoom.
    Report::ChartSpec visibleChart() const;
    QSize chartViewSize() const;
    /// Every summary of the table as summary.csv (with the run in the variant column when runs are compared).
    QByteArray tableCsv() const;
    /// A line on the page saying what an export or copy did (a failure in red, kept until the next);
    /// `folder`, when given, is offered as a link.
    void showNotice(const QString &text, bool failed, const QString &folder = {});
    /// Actions appended to the chart's context menu (export, copy).
    void setChartActions(const QList<QAction *> &actions);

    /// The Table tab: every point summary (PointTableModel, sorted by PointTableSorter).
    QTableView *table() const { return m_table; }
    PointTableModel *pointModel() const { return m_pointModel; }
    /// The full delta table (a view of core's rows through the family and "decided only" filter).
    QTableView *deltaTable() const { return m_delta; }
    /// On the Changes tab, "Why the numbers differ": each comparison's definitions when its sides
    /// follow different conventions; hidden otherwise.
    QTextBrowser *definitions() const { return m_definitions; }
    HeadlinePanel *headlinePanel() const { return m_headline; }
    Report::ChartView *chartView() const { return m_chartView; }
    int pointCount() const;
    bool steadySet() const; ///< the result-set switch shows the steady window's set
    bool hasResults() const { return pointCount() > 0; }

signals:
    void resultsChanged();
    /// The chart over time is shown for a stored run whose requests are not loaded yet.
    void timeSeriesWanted(qint64 runId, const QString &runName);
    /// "Export prompts as dataset…" on a row of a stored run's point (not a median row).
    void promptsExportWanted(qint64 runId, const QString &variant, int point, int repeat, const QString &label);

private:
    /// The Table tab's and the Changes tab's views: their models, context menus and Copy.
    void setUpTables();
    /// `view` of `model`, read-only, whole rows, sorted by a header click, `copy` on Ctrl+C.
    void setUpTable(QTableView *view, QAbstractItemModel *model, void (ResultsView::*copy)());
    /// The Charts tab: the chart kind (and the per-GPU chart's target), the chart and the headline panel.
    QWidget *buildChartPage();
    /// The Changes tab: the delta table under its filters, the definitions under it.
    QWidget *buildDeltaPane();
    /// The page around the tabs: the empty and scaled-simulator notes, the notice, the conclusions and the
    /// result-set switch.
    void buildLayout();
    void rebuild();
    void rebuildTable();
    void rebuildChart();
    void rebuildDelta();
    void copyDelta();
    void copyTable();
    void applyDeltaFilter();

    Report::ReportInput m_input;
    qint64 m_timeSeriesRun = 0; ///< the run m_timeSeries belongs to; 0: none
    qint64 m_timeSeriesAsked = 0; ///< the run whose requests were asked for
    Report::TimeSeriesInput m_timeSeries;
    QTabWidget *m_tabs;
    QTableView *m_table;
    PointTableModel *m_pointModel;
    PointTableSorter *m_pointSorter;
    QTableView *m_delta;
    DeltaTableModel *m_deltaModel;
    DeltaTableFilter *m_deltaFilter;
    QWidget *m_deltaPane;
    QTextBrowser *m_definitions;
    HeadlinePanel *m_headline;
    FindingsList *m_findings;
    QComboBox *m_deltaFamily;
    QCheckBox *m_decidedOnly;
    QLabel *m_empty;
    QLabel *m_note;
    QLabel *m_conclusions; ///< a sentence per compared variant, before any table
    QLabel *m_folded; ///< the Changes tab's rows hidden behind its decided ones
    QLabel *m_notice;
    QTimer *m_noticeTimer;
    QComboBox *m_chartKind;
    QDoubleSpinBox *m_targetPerUser;
    QLabel *m_targetLabel = nullptr;
    QComboBox *m_resultSet;
    Report::ChartView *m_chartView;
};

} // namespace ServeScope

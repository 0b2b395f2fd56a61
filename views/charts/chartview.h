// SPDX-License-Identifier: MIT
#pragma once

#include "report/chartspec.h"

#include <QChartView>
#include <QSet>

QT_BEGIN_NAMESPACE
class QGraphicsLineItem;
class QXYSeries;
QT_END_NAMESPACE

namespace ServeScope::Report {

/// Interactive view of a built chart: hover tooltips with exact values, legend entries that toggle a
/// run (all its bands, lines and markers), a log/linear switch for the y axis, rubber-band zoom and
/// reset (double click, Esc, or the context menu). Keys: L toggles the log y axis.
class ChartView final : public QChartView {
    Q_OBJECT
public:
    explicit ChartView(QWidget *parent = nullptr);
    ~ChartView() override;

    /// Shows a builder's output; keeps it so scale switches re-derive from the original values.
    void setSpec(const ChartSpec &spec);
    /// What is shown, for export: current y scale, hidden runs removed, zoomed ranges fixed.
    ChartSpec visibleSpec() const;

    AxisScale yScale() const { return m_yScale; }
    void setYScale(AxisScale scale);
    bool isGroupVisible(const QString &group) const { return !m_hidden.contains(group); }
    /// Actions the context menu offers after its own (export, copy), owned by the caller.
    void setExtraActions(const QList<QAction *> &actions) { m_extraActions = actions; }
    void setGroupVisible(const QString &group, bool visible);

    /// Crosshair at a position of the view: a vertical line at the nearest load point and the
    /// values of every visible series there (empty, and no line, outside the plot).
    QString crosshairAt(const QPoint &viewPos);

public slots:
    void resetZoom();

signals:
    void yScaleChanged(ServeScope::Report::AxisScale scale);
    void groupVisibilityChanged(const QString &group, bool visible);

protected:
    void keyPressEvent(QKeyEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void contextMenuEvent(QContextMenuEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void leaveEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    /// Axis titles shortened where the plot is too narrow for them (fitAxisTitles).
    void fitTitles();
    void rebuild();
    void applyVisibility();
    void showTooltip(QAbstractSeries *series, const QPointF &value, bool entered);

    ChartSpec m_original;
    ChartSpec m_shown;
    AxisScale m_yScale = AxisScale::Linear;
    QSet<QString> m_hidden;
    QList<QAction *> m_extraActions;
    QGraphicsLineItem *m_crosshair = nullptr;
};

} // namespace ServeScope::Report

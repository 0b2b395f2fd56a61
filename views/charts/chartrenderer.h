// SPDX-License-Identifier: MIT
#pragma once

#include "report/chartspec.h"

#include <QMargins>

QT_BEGIN_NAMESPACE
class QChart;
class QXYSeries;
class QAbstractSeries;
QT_END_NAMESPACE

namespace ServeScope::Report {

struct RenderOptions {
    bool animations = false; ///< always off for export
    bool footer = true; ///< footer text item (base URL, model, run time, definitions) in the scene
    bool notes = true; ///< builder notes (dropped points, skipped load points) under the plot
};

/// Builds a QChart (a QGraphicsWidget: needs a QApplication) from a spec. Bands become QAreaSeries with
/// explicit upper and lower line series; series are added in spec order, which is z-order.
QChart *createChart(const ChartSpec &spec, const RenderOptions &options = {});
/// Sets a created chart's margins, to which the room its notes and footer take (wrapped to the
/// chart's width, again on every resize) is added at the bottom.
void setBaseMargins(QChart *chart, const QMargins &margins);

/// Tooltip texts and legend group a rendered series carries (stored as dynamic properties).
QStringList seriesTooltips(const QAbstractSeries *series);
QString seriesGroup(const QAbstractSeries *series);

} // namespace ServeScope::Report

// SPDX-License-Identifier: MIT
#pragma once

#include "report/chartspec.h"

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
/// Pixels under the plot that the notes and footer of a created chart need; a view that sets its
/// own margins keeps at least this much at the bottom.
int reservedBottom(const QChart *chart);

/// Tooltip texts and legend group a rendered series carries (stored as dynamic properties).
QStringList seriesTooltips(const QAbstractSeries *series);
QString seriesGroup(const QAbstractSeries *series);

} // namespace ServeScope::Report

// SPDX-License-Identifier: MIT
#pragma once

#include "metrics/aggregate.h"
#include "model/experiment.h"

#include <QVector>

namespace ServeScope {

/// The definitions an experiment's points are measured under.
DefinitionsProfile definitionsProfile(const Experiment &resolved);
/// How a point of the resolved experiment is summarised, its measured clock starting at `clockStartNs`
/// (0: its earliest scheduled request).
AggregateOptions aggregateOptions(const Experiment &resolved, const PointKey &key, qint64 clockStartNs);

/// The one way a (point, repeat) is summarised from its records — by a live run, a shard merge and an
/// interrupted run's last point alike: core's aggregate and findings, the point's identity (`key`,
/// from pointKey(): the point as run), its steady-window set, how its streams arrived (streamArrival,
/// in `client`), and a buffered stream's decode timings withheld (withholdBufferedDecode). `records`
/// must be in request order.
PointResult summarisePoint(const Experiment &resolved, const PointKey &key, int repeat,
    const QVector<RequestRecord> &records, qint64 clockStartNs);

} // namespace ServeScope

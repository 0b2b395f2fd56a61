// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

namespace ServeScope {

struct Experiment;

/// What identifies a load point in every output: its variant, index and label, the loop it ran
/// in and the load it was given. Point summaries, a point's repeats in a comparison and an
/// imported line's place all carry it as their base; it is read from an experiment only by
/// pointKey(), the one place that reads a point's load by mode.
struct PointKey {
    QString variant;
    int point = 0; ///< index into the load matrix
    QString label;
    QString mode; ///< "concurrency" or "rate"
    int concurrency = 0; ///< closed loop: the slots; open loop: the cap (0 = none)
    double requestRate = 0; ///< requests/s (+inf for "inf"); 0 in closed loop
    int inputLen = 0, outputLen = 0;

    /// This key alone (for copying it from one holder to another).
    const PointKey &key() const { return *this; }
    void setKey(const PointKey &k) { *this = k; }
};

struct LoadPoint;

/// Point `point` of a resolved experiment (one variant's), named `variant`.
PointKey pointKey(const Experiment &resolved, int point, const QString &variant = {});
/// The same point as run under `load` (a shard runs its share of the point's load).
PointKey pointKey(const Experiment &resolved, int point, const LoadPoint &load, const QString &variant = {});

} // namespace ServeScope

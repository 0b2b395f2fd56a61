// SPDX-License-Identifier: MIT
#include "pointkey.h"

#include "experiment.h"

namespace ServeScope {

PointKey pointKey(const Experiment &resolved, int point, const QString &variant)
{
    return pointKey(resolved, point, resolved.load.points.at(point), variant);
}

PointKey pointKey(const Experiment &resolved, int point, const LoadPoint &lp, const QString &variant)
{
    const bool rate = resolved.load.mode == LoadMode::Rate;
    return { variant, point, resolved.pointLabel(point), loadModeName(resolved.load.mode),
        rate ? lp.maxConcurrency : lp.concurrency, rate ? lp.requestRate : 0, lp.inputLen, lp.outputLen };
}

} // namespace ServeScope

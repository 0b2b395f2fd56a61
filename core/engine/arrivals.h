// SPDX-License-Identifier: MIT
#pragma once

#include <QVector>

namespace ServeScope {

/// Open-loop arrival offsets (ns from the point's clock start), as `vllm bench serve` draws them:
/// gamma gaps with shape = burstiness and scale = 1 / (rate * burstiness), cumulated, then
/// rescaled so the last arrival is at exactly n / rate. burstiness = inf gives constant 1/rate
/// gaps; rate = inf gives all zeros. With n = 0 the offsets run (unscaled) up to maxSeconds.
QVector<qint64> arrivalOffsetsNs(int n, double rate, double burstiness, quint64 seed, double maxSeconds = 0);

} // namespace ServeScope

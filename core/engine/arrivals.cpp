// SPDX-License-Identifier: MIT
#include "arrivals.h"

#include "model/clock.h"

#include <cmath>
#include <random>

namespace ServeScope {

QVector<qint64> arrivalOffsetsNs(int n, double rate, double burstiness, quint64 seed, double maxSeconds)
{
    QVector<qint64> out;
    if (n <= 0 && maxSeconds <= 0)
        return out;
    if (std::isinf(rate) || rate <= 0) {
        out.fill(0, n > 0 ? n : 0);
        return out;
    }
    const bool constant = std::isinf(burstiness) || burstiness <= 0;
    std::mt19937_64 rng(seed);
    std::gamma_distribution<double> gamma(constant ? 1.0 : burstiness, constant ? 1.0 : 1.0 / (rate * burstiness));
    QVector<double> cumulative;
    double t = 0;
    const int cap = n > 0 ? n : 50'000'000;
    while (cumulative.size() < cap) {
        t += constant ? 1.0 / rate : gamma(rng);
        if (n <= 0 && t > maxSeconds)
            break;
        cumulative.append(t);
    }
    const double factor = (n > 0 && t > 0) ? (double(n) / rate) / t : 1.0;
    out.reserve(cumulative.size());
    for (double c : cumulative)
        out.append(scheduleNs(c * factor * 1e9)); // a tiny rate saturates, never wraps
    return out;
}

} // namespace ServeScope

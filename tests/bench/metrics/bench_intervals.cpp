// SPDX-License-Identifier: MIT
// The request-cluster bootstrap of a mean (1,000 resamples) on 10,000 to 1,000,000 requests, timed against the
// same resampling with std::mt19937_64 and a modulo in the same run: the cost of the generator and of the index
// it draws, with both intervals printed to show they agree within the Monte-Carlo error; and the linearised
// normal interval comparisons use from 10,000 requests on (clusterMeanInterval), timed on the same data.
// Figures are printed, not asserted.
#include "metrics/intervals.h"

#include <QElapsedTimer>
#include <QString>
#include <QTextStream>

#include <algorithm>
#include <random>
#include <vector>

using namespace ServeScope;

namespace {

// The reference: the same resampling drawn with std::mt19937_64 and a 64-bit modulo.
Interval referenceBootstrap(const std::vector<double> &sums, const std::vector<double> &counts, quint64 seed)
{
    std::mt19937_64 rng(seed);
    const std::size_t n = sums.size();
    std::vector<double> means;
    for (int b = 0; b < 1000; ++b) {
        double s = 0, c = 0;
        for (std::size_t i = 0; i < n; ++i) {
            const std::size_t k = std::size_t(rng() % n);
            s += sums[k];
            c += counts[k];
        }
        means.push_back(s / c);
    }
    std::sort(means.begin(), means.end());
    Interval iv;
    iv.low = means[24];
    iv.high = means[974];
    iv.valid = true;
    return iv;
}

} // namespace

int main()
{
    QTextStream out(stdout);
    out << "requests  bootstrap_ms  mt19937_modulo_ms  ratio   normal_ms  bootstrap/normal  low / high (xoshiro)      "
           "low / high (mt19937)      low / high (normal)\n";
    for (const std::size_t n : { std::size_t(10000), std::size_t(100000), std::size_t(1000000) }) {
        // ITL-like clusters: a request's summed gaps (ms) and how many there are.
        std::mt19937_64 gen(7);
        std::lognormal_distribution<double> gap(3.0, 0.5);
        std::uniform_int_distribution<int> tokens(16, 256);
        std::vector<double> sums(n), counts(n);
        for (std::size_t i = 0; i < n; ++i) {
            counts[i] = tokens(gen);
            sums[i] = counts[i] * gap(gen);
        }
        QElapsedTimer t;
        t.start();
        const Interval fast = bootstrapClusterMeanInterval(sums, counts, 42);
        const double fastMs = double(t.nsecsElapsed()) / 1e6;
        t.restart();
        const Interval ref = referenceBootstrap(sums, counts, 42);
        const double refMs = double(t.nsecsElapsed()) / 1e6;
        t.restart();
        const Interval normal = linearizedClusterMeanInterval(sums, counts);
        const double normalMs = double(t.nsecsElapsed()) / 1e6;
        out << qSetFieldWidth(8) << qulonglong(n) << qSetFieldWidth(0) << "  " << qSetFieldWidth(12)
            << QString::number(fastMs, 'f', 1) << qSetFieldWidth(0) << "  " << qSetFieldWidth(17)
            << QString::number(refMs, 'f', 1) << qSetFieldWidth(0) << "  " << QString::number(refMs / fastMs, 'f', 2)
            << "x  " << qSetFieldWidth(9) << QString::number(normalMs, 'f', 2) << qSetFieldWidth(0) << "  "
            << qSetFieldWidth(16) << (QString::number(fastMs / normalMs, 'f', 0) + u'x') << qSetFieldWidth(0) << "  "
            << QString::number(fast.low, 'f', 4) << " / " << QString::number(fast.high, 'f', 4) << "    "
            << QString::number(ref.low, 'f', 4) << " / " << QString::number(ref.high, 'f', 4) << "    "
            << QString::number(normal.low, 'f', 4) << " / " << QString::number(normal.high, 'f', 4) << '\n';
        out.flush();
    }
    return 0;
}

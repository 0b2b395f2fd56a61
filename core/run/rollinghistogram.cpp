// SPDX-License-Identifier: MIT
#include "rollinghistogram.h"

#include <algorithm>
#include <cmath>

namespace ServeScope {

namespace {
constexpr double kMin = 1e-3; // the lowest binned value (1 µs in ms)
constexpr double kGrowth = 1.01;
constexpr int kBins = 2316; // 1 + ceil(log(1e7 / kMin) / log(kGrowth))
const double kLogGrowth = std::log(kGrowth);
} // namespace

RollingHistogram::RollingHistogram(qint64 windowNs, int slices, bool binned)
    : m_sliceNs(std::max<qint64>(1, windowNs / std::max(1, slices)))
    , m_slices(std::max(1, slices))
    , m_binned(binned)
    , m_ring(size_t(m_slices))
    , m_sliceBins(binned ? size_t(m_slices) * kBins : 0)
    , m_bins(binned ? kBins : 0)
{
}

int RollingHistogram::binOf(double value)
{
    if (!(value >= kMin))
        return 0;
    const int b = 1 + int(std::log(value / kMin) / kLogGrowth);
    return std::min(b, kBins - 1);
}

double RollingHistogram::valueOf(int bin)
{
    return bin <= 0 ? 0 : kMin * std::pow(kGrowth, bin - 0.5);
}

void RollingHistogram::drop(int ring)
{
    Slice &s = m_ring[size_t(ring)];
    if (s.number < 0)
        return;
    m_count -= s.count;
    m_sum -= s.sum;
    if (m_binned) {
        quint32 *bins = m_sliceBins.data() + size_t(ring) * kBins;
        for (int b = 0; b < kBins; ++b) {
            m_bins[size_t(b)] -= bins[b];
            bins[b] = 0;
        }
    }
    s = Slice();
}

void RollingHistogram::advance(qint64 nowNs)
{
    const qint64 current = nowNs / m_sliceNs;
    // Slices older than the m_slices newest (the current one among them) leave the window.
    for (int i = 0; i < m_slices; ++i)
        if (m_ring[size_t(i)].number >= 0 && m_ring[size_t(i)].number <= current - m_slices)
            drop(i);
    if (m_count == 0)
        m_sum = 0; // no rounding left over from the subtractions
    m_newest = std::max(m_newest, current);
}

void RollingHistogram::add(qint64 atNs, double value)
{
    const qint64 number = atNs / m_sliceNs;
    if (number > m_newest)
        advance(atNs);
    if (number <= m_newest - m_slices)
        return; // before the window
    const int ring = int(number % m_slices);
    Slice &s = m_ring[size_t(ring)];
    if (s.number != number) {
        drop(ring);
        s.number = number;
    }
    ++s.count;
    s.sum += value;
    ++m_count;
    m_sum += value;
    if (m_binned) {
        const int b = binOf(value);
        ++m_sliceBins[size_t(ring) * kBins + size_t(b)];
        ++m_bins[size_t(b)];
    }
}

void RollingHistogram::clear()
{
    for (int i = 0; i < m_slices; ++i)
        drop(i);
    m_count = 0;
    m_sum = 0;
    m_newest = -1;
}

double RollingHistogram::percentile(double p) const
{
    if (m_count == 0 || !m_binned)
        return 0;
    // numpy's linear method between the two order statistics around rank (n-1)p/100, each
    // taken as its bin's value.
    const double h = double(m_count - 1) * std::clamp(p, 0.0, 100.0) / 100.0;
    const quint64 lo = quint64(h), hi = std::min<quint64>(lo + 1, quint64(m_count - 1));
    double vlo = 0, vhi = 0;
    quint64 seen = 0;
    bool haveLo = false;
    for (int b = 0; b < kBins; ++b) {
        seen += m_bins[size_t(b)];
        if (!haveLo && seen > lo) {
            vlo = valueOf(b);
            haveLo = true;
        }
        if (seen > hi) {
            vhi = valueOf(b);
            break;
        }
    }
    return vlo + (vhi - vlo) * (h - double(lo));
}

} // namespace ServeScope

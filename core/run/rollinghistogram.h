// SPDX-License-Identifier: MIT
#pragma once

#include <QtGlobal>

#include <vector>

namespace ServeScope {

/// Values of the last few seconds in fixed log-spaced bins (1 % wide, from 1 µs to 10^7 ms, and
/// one bin for anything below), kept per time slice so the oldest slice leaves the window whole.
/// Adding is O(1) and a percentile scans the bins once: no sort however many values the window
/// holds. For live displays; stored metrics are computed exactly from the records.
class RollingHistogram {
public:
    /// `windowNs` split into `slices` slices; `binned` false keeps only counts and sums.
    RollingHistogram(qint64 windowNs, int slices, bool binned = true);

    /// A value (>= 0) at time `atNs`; a time before the window is dropped.
    void add(qint64 atNs, double value);
    /// Lets every slice that ended before `nowNs - window` leave the window.
    void advance(qint64 nowNs);
    /// The time the kept slices cover at `nowNs`: the current, partial slice and the full ones
    /// before it (between window - slice and window); rates divide by this, not by the window.
    qint64 spanNs(qint64 nowNs) const noexcept { return nowNs - (nowNs / m_sliceNs - m_slices + 1) * m_sliceNs; }
    void clear();

    qint64 count() const noexcept { return m_count; }
    double sum() const noexcept { return m_sum; }
    /// The p-th percentile of the window's values to within one bin (1 %); 0 when empty.
    double percentile(double p) const;

    static int binOf(double value);
    /// The value a bin stands for (its geometric middle; 0 for the bin below the range).
    static double valueOf(int bin);

private:
    struct Slice {
        qint64 number = -1; ///< slice index since the clock's epoch; -1 unused
        qint64 count = 0;
        double sum = 0;
    };
    void drop(int ring);

    qint64 m_sliceNs;
    int m_slices;
    bool m_binned;
    std::vector<Slice> m_ring;
    std::vector<quint32> m_sliceBins; ///< m_slices x kBins
    std::vector<quint64> m_bins; ///< the window's total per bin
    qint64 m_count = 0;
    double m_sum = 0;
    qint64 m_newest = -1;
};

} // namespace ServeScope

// SPDX-License-Identifier: MIT
#include "resultfiles/resultcolumns.h"

#include <algorithm>

namespace ServeScope {

void ColumnEnds::appendWide(qsizetype end)
{
    if (!m_wide) {
        m_wideEnds.reserve(m_narrow.size() + 1);
        for (quint32 e : std::as_const(m_narrow))
            m_wideEnds.append(qsizetype(e));
        m_narrow = {};
        m_wide = true;
    }
    m_wideEnds.append(end);
}

void ColumnEnds::growLast()
{
    const qsizetype last = size() - 1;
    const qsizetype end = at(last) + 1;
    if (m_wide) {
        m_wideEnds[last] = end;
    } else if (quint64(end) <= kNarrowMax) {
        m_narrow[last] = quint32(end);
    } else {
        m_narrow.removeLast();
        appendWide(end);
    }
}

bool operator==(const ColumnEnds &a, const ColumnEnds &b)
{
    if (a.size() != b.size())
        return false;
    for (qsizetype i = 0; i < a.size(); ++i) {
        if (a.at(i) != b.at(i))
            return false;
    }
    return true;
}

void GapColumn::append(std::span<const double> gaps)
{
    const qsizetype at = m_gaps.size();
    m_gaps.resize(at + qsizetype(gaps.size()));
    std::copy(gaps.begin(), gaps.end(), m_gaps.begin() + at);
    m_ends.append(m_gaps.size());
}

qsizetype TextColumn::nonEmptyCount() const
{
    qsizetype n = 0;
    for (qsizetype i = 0; i < size(); ++i)
        n += isEmptyAt(i) ? 0 : 1;
    return n;
}

} // namespace ServeScope

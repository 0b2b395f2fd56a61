// SPDX-License-Identifier: MIT
#include "resultfiles/resultcolumns.h"

#include <algorithm>

namespace ServeScope {

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

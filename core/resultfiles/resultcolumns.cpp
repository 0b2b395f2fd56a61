// SPDX-License-Identifier: MIT
#include "resultfiles/resultcolumns.h"

#include <algorithm>

namespace ServeScope {

void GapColumn::append(std::span<const double> gaps)
{
    const qsizetype at = m_items.size();
    m_items.resize(at + qsizetype(gaps.size()));
    std::copy(gaps.begin(), gaps.end(), m_items.begin() + at);
    m_ends.append(m_items.size());
}

qsizetype TextColumn::nonEmptyCount() const
{
    qsizetype n = 0;
    for (qsizetype i = 0; i < size(); ++i)
        n += isEmptyAt(i) ? 0 : 1;
    return n;
}

} // namespace ServeScope

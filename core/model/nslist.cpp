// SPDX-License-Identifier: MIT
#include "model/nslist.h"

namespace ServeScope {

NsList::NsList(std::initializer_list<qint64> times)
{
    reserve(qsizetype(times.size()));
    for (qint64 t : times)
        append(t);
}

void NsList::widen()
{
    QVector<quint32> wide;
    wide.reserve(qMax(m_words.capacity(), m_words.size() + 1) * 2);
    for (quint32 w : std::as_const(m_words))
        wide << w << 0u;
    m_words = std::move(wide);
    m_wide = true;
}

void NsList::appendWide(qint64 t)
{
    if (!m_wide)
        widen();
    m_words << quint32(quint64(t)) << quint32(quint64(t) >> 32);
}

void NsList::set(qsizetype i, qint64 t)
{
    if (!m_wide && quint64(t) > kNarrowMax)
        widen();
    if (m_wide) {
        m_words[2 * i] = quint32(quint64(t));
        m_words[2 * i + 1] = quint32(quint64(t) >> 32);
    } else {
        m_words[i] = quint32(t);
    }
}

bool operator==(const NsList &a, const NsList &b)
{
    if (a.m_wide == b.m_wide)
        return a.m_words == b.m_words;
    if (a.size() != b.size())
        return false;
    for (qsizetype i = 0; i < a.size(); ++i) {
        if (a.at(i) != b.at(i))
            return false;
    }
    return true;
}

} // namespace ServeScope

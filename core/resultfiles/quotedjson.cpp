// SPDX-License-Identifier: MIT
#include "resultfiles/quotedjson.h"

#include <QIODevice>

#include <algorithm>

namespace ServeScope {

namespace {

constexpr qsizetype kPiece = 64 * 1024;
constexpr qsizetype kLongestWord = 9; // "-Infinity"

QByteArrayView nonFiniteAt(QByteArrayView rest)
{
    static constexpr QByteArrayView kWords[] = { "-Infinity", "Infinity", "NaN" };
    if (rest.isEmpty() || (rest.front() != '-' && rest.front() != 'I' && rest.front() != 'N'))
        return {};
    for (QByteArrayView word : kWords) {
        if (rest.startsWith(word))
            return word;
    }
    return {};
}

} // namespace

QuotedJson::QuotedJson(QByteArrayView bytes)
    : m_at(bytes.data())
    , m_end(bytes.data() + bytes.size())
{
}

QuotedJson::QuotedJson(QIODevice *device, qint64 from, qint64 to)
    : m_device(device)
    , m_left(std::max<qint64>(0, to - from))
{
    m_device->seek(from);
}

// Keeps at least a word's length ahead of m_at while the device has more.
void QuotedJson::refill()
{
    const qsizetype kept = m_end - m_at;
    QByteArray raw(kept + qsizetype(std::min<qint64>(m_left, kPiece)), Qt::Uninitialized);
    std::copy(m_at, m_end, raw.data());
    const qint64 got = m_device->read(raw.data() + kept, raw.size() - kept);
    m_left = got > 0 ? m_left - got : 0;
    raw.resize(kept + std::max<qint64>(got, 0));
    m_raw = std::move(raw);
    m_at = m_raw.constData();
    m_end = m_at + m_raw.size();
}

// Copies bytes from m_at up to (not including) the first for which stop() holds, at most `most`.
template<typename Stop> qsizetype QuotedJson::copyUntil(qsizetype most, Stop stop)
{
    const char *p = m_at;
    const char *end = m_at + std::min<qsizetype>(most, m_end - m_at);
    while (p < end && !stop(*p))
        ++p;
    m_out.append(m_at, p - m_at);
    const qsizetype n = p - m_at;
    m_at = p;
    return n;
}

QuotedJson::int_type QuotedJson::underflow()
{
    m_out.resize(0);
    m_out.reserve(kPiece + 2 * kLongestWord);
    while (m_out.size() < kPiece) {
        if (m_device && m_left > 0 && m_end - m_at < kLongestWord)
            refill();
        if (m_at == m_end)
            break;
        const qsizetype room = kPiece - m_out.size();
        const char c = *m_at;
        if (m_inString) {
            if (!m_escaped && copyUntil(room, [](char b) { return b == '"' || b == '\\'; }) > 0)
                continue;
            m_out.append(c);
            ++m_at;
            m_inString = m_escaped || c != '"';
            m_escaped = !m_escaped && c == '\\';
            continue;
        }
        if (c == '"') {
            m_inString = true;
            m_out.append(c);
            ++m_at;
            continue;
        }
        const QByteArrayView word = nonFiniteAt(QByteArrayView(m_at, m_end - m_at));
        if (!word.isEmpty()) {
            m_out.append('"').append(word.data(), word.size()).append('"');
            m_at += word.size();
            continue;
        }
        // Up to the next byte that may open a string or one of the words.
        m_out.append(c);
        ++m_at;
        copyUntil(room - 1, [](char b) { return b == '"' || b == '-' || b == 'I' || b == 'N'; });
    }
    if (m_out.isEmpty())
        return traits_type::eof();
    char *data = m_out.data();
    setg(data, data, data + m_out.size());
    return traits_type::to_int_type(*data);
}

} // namespace ServeScope

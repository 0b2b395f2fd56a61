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
    for (const char *word : { "-Infinity", "Infinity", "NaN" }) {
        if (rest.startsWith(QByteArrayView(word)))
            return QByteArrayView(word);
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

QuotedJson::int_type QuotedJson::underflow()
{
    m_out.resize(0);
    m_out.reserve(kPiece + 2 * kLongestWord);
    while (m_out.size() < kPiece) {
        if (m_device && m_left > 0 && m_end - m_at < kLongestWord)
            refill();
        if (m_at == m_end)
            break;
        const char c = *m_at;
        if (m_inString) {
            m_out.append(c);
            ++m_at;
            if (m_escaped)
                m_escaped = false;
            else if (c == '\\')
                m_escaped = true;
            else if (c == '"')
                m_inString = false;
            continue;
        }
        m_inString = c == '"';
        const QByteArrayView word = m_inString ? QByteArrayView() : nonFiniteAt(QByteArrayView(m_at, m_end - m_at));
        if (word.isEmpty()) {
            m_out.append(c);
            ++m_at;
            continue;
        }
        m_out.append('"').append(word.data(), word.size()).append('"');
        m_at += word.size();
    }
    if (m_out.isEmpty())
        return traits_type::eof();
    char *data = m_out.data();
    setg(data, data, data + m_out.size());
    return traits_type::to_int_type(*data);
}

} // namespace ServeScope

// SPDX-License-Identifier: MIT
#include "eventblob.h"

#include <limits>

namespace ServeScope::EventBlob {

namespace {

constexpr quint8 KindCount = quint8(EventKind::Other) + 1;

void putVarint(QByteArray &out, quint64 v)
{
    while (v >= 0x80) {
        out.append(char(quint8(v) | 0x80));
        v >>= 7;
    }
    out.append(char(v));
}

// Reads one LEB128 varint; false on truncation or on more than 64 significant bits.
bool getVarint(const quint8 *&p, const quint8 *end, quint64 *v)
{
    quint64 result = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (p == end)
            return false;
        const quint8 byte = *p++;
        const quint64 bits = byte & 0x7f;
        if (shift == 63 && bits > 1)
            return false;
        result |= bits << shift;
        if (!(byte & 0x80)) {
            *v = result;
            return true;
        }
    }
    return false;
}

bool fail(QString *error, const char *why)
{
    if (error)
        *error = QString::fromLatin1(why);
    return false;
}

} // namespace

bool encode(const NsList &offsetsNs, const QVector<EventKind> &kinds, QByteArray *out, QString *error)
{
    out->clear();
    if (offsetsNs.size() != kinds.size())
        return fail(error, "event offsets and kinds differ in length");
    if (quint64(offsetsNs.size()) > MaxEvents)
        return fail(error, "too many events");
    QByteArray blob;
    blob.reserve(2 + offsetsNs.size() * 3 + (kinds.size() + 1) / 2);
    blob.append(char(Version));
    putVarint(blob, quint64(offsetsNs.size()));
    qint64 previous = 0;
    for (qint64 t : offsetsNs) {
        if (t < previous)
            return fail(error, t < 0 ? "negative event offset" : "event offsets decrease");
        putVarint(blob, quint64(t - previous));
        previous = t;
    }
    for (qsizetype i = 0; i < kinds.size(); i += 2) {
        const quint8 lo = quint8(kinds[i]);
        const quint8 hi = i + 1 < kinds.size() ? quint8(kinds[i + 1]) : 0;
        if (lo >= KindCount || hi >= KindCount)
            return fail(error, "unknown event kind");
        blob.append(char(lo | (hi << 4)));
    }
    *out = std::move(blob);
    return true;
}

QByteArray encode(const NsList &offsetsNs, const QVector<EventKind> &kinds)
{
    QByteArray out;
    encode(offsetsNs, kinds, &out);
    return out;
}

static bool decodeInto(QByteArrayView blob, NsList *offsetsNs, QVector<EventKind> *kinds, QString *error)
{
    const auto *p = reinterpret_cast<const quint8 *>(blob.data());
    const quint8 *end = p + blob.size();
    if (p == end)
        return fail(error, "empty event blob");
    if (*p++ != Version)
        return fail(error, "unknown event blob version");
    quint64 count = 0;
    if (!getVarint(p, end, &count))
        return fail(error, "truncated or invalid event count");
    // Each event needs at least one delta byte and half a kind byte: reject counts the blob cannot hold.
    const quint64 remaining = quint64(end - p);
    if (count > MaxEvents || count + (count + 1) / 2 > remaining)
        return fail(error, "event count does not fit the blob");
    offsetsNs->reserve(qsizetype(count));
    kinds->reserve(qsizetype(count));
    quint64 t = 0;
    for (quint64 i = 0; i < count; ++i) {
        quint64 delta = 0;
        if (!getVarint(p, end, &delta))
            return fail(error, "truncated or invalid event delta");
        if (delta > quint64(std::numeric_limits<qint64>::max()) - t)
            return fail(error, "event offset overflows");
        t += delta;
        offsetsNs->append(qint64(t));
    }
    const quint64 kindBytes = (count + 1) / 2;
    if (quint64(end - p) != kindBytes)
        return fail(error, quint64(end - p) < kindBytes ? "truncated event kinds" : "trailing bytes after event kinds");
    for (quint64 i = 0; i < count; ++i) {
        const quint8 byte = p[i / 2];
        const quint8 kind = (i % 2) ? quint8(byte >> 4) : quint8(byte & 0x0f);
        if (kind >= KindCount)
            return fail(error, "unknown event kind");
        kinds->append(EventKind(kind));
    }
    if (count % 2 && (p[kindBytes - 1] >> 4) != 0)
        return fail(error, "non-zero pad nibble");
    return true;
}

bool decode(QByteArrayView blob, NsList *offsetsNs, QVector<EventKind> *kinds, QString *error)
{
    offsetsNs->clear();
    kinds->clear();
    if (decodeInto(blob, offsetsNs, kinds, error))
        return true;
    offsetsNs->clear();
    kinds->clear();
    return false;
}

} // namespace ServeScope::EventBlob

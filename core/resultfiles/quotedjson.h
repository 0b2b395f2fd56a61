// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QByteArrayView>

#include <streambuf>

class QIODevice;

namespace ServeScope {

/// The text of a result file, or of one of its lines, as a strict JSON parser reads it: Python's
/// json.dumps writes bare Infinity, -Infinity and NaN (SGLang's request_rate), which become the
/// strings "Infinity", "-Infinity", "NaN" outside strings. The text is read a piece at a time, from
/// memory or from a range of a file, so a parser of it never needs a copy of the whole.
class QuotedJson final : public std::streambuf {
public:
    /// `bytes` must outlive the reader.
    explicit QuotedJson(QByteArrayView bytes);
    /// Bytes [from, to) of an open device, read from `from` on.
    QuotedJson(QIODevice *device, qint64 from, qint64 to);

protected:
    int_type underflow() override;

private:
    void refill();
    template<typename Stop> qsizetype copyUntil(qsizetype most, Stop stop);

    QIODevice *m_device = nullptr;
    qint64 m_left = 0; ///< bytes of the device's range not yet read
    QByteArray m_raw; ///< what was read from the device
    const char *m_at = nullptr;
    const char *m_end = nullptr;
    QByteArray m_out;
    bool m_inString = false;
    bool m_escaped = false;
};

} // namespace ServeScope

// SPDX-License-Identifier: MIT
#pragma once

#include "model/records.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QString>
#include <QVector>

namespace ServeScope::EventBlob {

/// Format version written in the first byte of every blob.
constexpr quint8 Version = 1;
/// Upper bound on events in one blob; a larger count is treated as garbage.
constexpr quint64 MaxEvents = 1u << 24;

/// Encodes event offsets (ns from the request start, non-decreasing, >= 0) and their kinds as:
/// version byte, varint count, varint deltas (first from 0, then between consecutive events),
/// then the 4-bit kinds packed two per byte (low nibble first, a trailing pad nibble of 0).
/// Returns false (and leaves *out empty) when the input violates those rules.
bool encode(const NsList &offsetsNs, const QVector<EventKind> &kinds, QByteArray *out, QString *error = nullptr);

/// Convenience form of encode(); returns an empty array on invalid input.
QByteArray encode(const NsList &offsetsNs, const QVector<EventKind> &kinds);

/// Decodes a blob written by encode(). Rejects unknown versions, truncated or overlong varints,
/// implausible counts, overflowing sums, unknown kinds, a non-zero pad nibble and trailing bytes.
/// On failure the outputs are cleared and *error says why; it never reads out of bounds.
bool decode(QByteArrayView blob, NsList *offsetsNs, QVector<EventKind> *kinds, QString *error = nullptr);

} // namespace ServeScope::EventBlob

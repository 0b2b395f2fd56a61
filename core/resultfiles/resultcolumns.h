// SPDX-License-Identifier: MIT
#pragma once

#include "model/nslist.h"

#include <QByteArray>
#include <QString>
#include <QVector>

#include <iterator>
#include <span>

namespace ServeScope {

/// Where each entry of a column ends: 4 bytes each while they fit, 8 once one does not. The offsets
/// are kept in an NsList, whose packing serves any values in [0, 2^63), not only nanoseconds.
class ColumnEnds {
public:
    qsizetype size() const noexcept { return m_ends.size(); }
    bool isEmpty() const noexcept { return m_ends.isEmpty(); }
    qsizetype at(qsizetype i) const noexcept { return m_ends.at(i); }
    /// Where entry i starts: where the one before ends.
    qsizetype startOf(qsizetype i) const noexcept { return i == 0 ? 0 : at(i - 1); }
    void append(qsizetype end) { m_ends.append(end); }
    /// The last entry ends one later.
    void growLast() { m_ends.set(size() - 1, m_ends.last() + 1); }
    void reserve(qsizetype n) { m_ends.reserve(n); }
    void squeeze() { m_ends.squeeze(); }
    void clear() { m_ends.clear(); }
    friend bool operator==(const ColumnEnds &a, const ColumnEnds &b) { return a.m_ends == b.m_ends; }

private:
    NsList m_ends;
};

/// One request's gaps in a GapColumn: a view into it, valid while the column is unchanged.
class GapRow {
public:
    GapRow() = default;
    GapRow(const double *begin, const double *end)
        : m_begin(begin)
        , m_end(end)
    {
    }
    const double *begin() const noexcept { return m_begin; }
    const double *end() const noexcept { return m_end; }
    const double *cbegin() const noexcept { return m_begin; }
    const double *cend() const noexcept { return m_end; }
    qsizetype size() const noexcept { return m_end - m_begin; }
    bool isEmpty() const noexcept { return m_begin == m_end; }
    double at(qsizetype i) const noexcept { return m_begin[i]; }
    double operator[](qsizetype i) const noexcept { return m_begin[i]; }
    QVector<double> toVector() const { return QVector<double>(m_begin, m_end); }

private:
    const double *m_begin = nullptr;
    const double *m_end = nullptr;
};

/// What GapColumn and TextColumn share: every entry's items (gaps, UTF-8 bytes) one after another in
/// `Items`, and where each entry ends. `Column` reads entry i as an `Entry` with at(i).
template<typename Column, typename Entry, typename Items> class PackedColumn {
public:
    class const_iterator {
    public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = Entry;
        using difference_type = qsizetype;
        using pointer = void;
        using reference = Entry;
        const_iterator() = default;
        const_iterator(const Column *column, qsizetype i)
            : m_column(column)
            , m_i(i)
        {
        }
        Entry operator*() const { return m_column->at(m_i); }
        const_iterator &operator++()
        {
            ++m_i;
            return *this;
        }
        const_iterator operator++(int)
        {
            const_iterator old = *this;
            ++m_i;
            return old;
        }
        bool operator==(const const_iterator &o) const { return m_i == o.m_i; }
        bool operator!=(const const_iterator &o) const { return m_i != o.m_i; }

    private:
        const Column *m_column = nullptr;
        qsizetype m_i = 0;
    };

    qsizetype size() const noexcept { return m_ends.size(); }
    bool isEmpty() const noexcept { return m_ends.isEmpty(); }
    const_iterator begin() const { return { column(), 0 }; }
    const_iterator end() const { return { column(), size() }; }
    const_iterator cbegin() const { return begin(); }
    const_iterator cend() const { return end(); }

    void reserve(qsizetype rows) { m_ends.reserve(rows); }
    void clear()
    {
        m_items.clear();
        m_ends.clear();
    }
    /// Gives back the capacity reserved beyond what is held.
    void squeeze()
    {
        m_items.squeeze();
        m_ends.squeeze();
    }
    friend bool operator==(const Column &a, const Column &b) { return a.m_ends == b.m_ends && a.m_items == b.m_items; }

protected:
    const Column *column() const { return static_cast<const Column *>(this); }

    Items m_items;
    ColumnEnds m_ends; ///< one past each entry's last item
};

/// A result file's itls: each request's gaps one after another and where each request's start, so
/// 600,000 requests of a few gaps take their values and 4 bytes each (not a vector apiece).
class GapColumn : public PackedColumn<GapColumn, GapRow, QVector<double>> {
public:
    /// Every request's gaps together.
    qsizetype gapCount() const noexcept { return m_items.size(); }
    GapRow at(qsizetype i) const noexcept
    {
        return GapRow(m_items.constData() + m_ends.startOf(i), m_items.constData() + m_ends.at(i));
    }
    GapRow operator[](qsizetype i) const noexcept { return at(i); }
    /// Empty when i is out of range.
    GapRow value(qsizetype i) const noexcept { return i >= 0 && i < size() ? at(i) : GapRow(); }

    /// A request of these gaps.
    void append(std::span<const double> gaps);
    GapColumn &operator<<(const QVector<double> &gaps)
    {
        append(std::span<const double>(gaps.constData(), size_t(gaps.size())));
        return *this;
    }
    /// A request with no gaps yet, then gaps for it one at a time (a streaming reader).
    void appendRow() { m_ends.append(m_items.size()); }
    void appendToLastRow(double gap)
    {
        m_items.append(gap);
        m_ends.growLast();
    }
};

/// A result file's generated_texts or errors: every request's text as UTF-8 one after another and
/// where each one ends, so short texts take their bytes and 4 bytes each (not a QString apiece).
class TextColumn : public PackedColumn<TextColumn, QString, QByteArray> {
public:
    /// The UTF-8 bytes of entry i.
    QByteArrayView utf8(qsizetype i) const noexcept
    {
        const qsizetype from = m_ends.startOf(i);
        return QByteArrayView(m_items.constData() + from, m_ends.at(i) - from);
    }
    bool isEmptyAt(qsizetype i) const noexcept { return m_ends.at(i) == m_ends.startOf(i); }
    QString at(qsizetype i) const { return QString::fromUtf8(utf8(i)); }
    QString operator[](qsizetype i) const { return at(i); }
    /// Empty when i is out of range.
    QString value(qsizetype i) const { return i >= 0 && i < size() ? at(i) : QString(); }
    /// Entries that are not empty.
    qsizetype nonEmptyCount() const;

    void append(QByteArrayView utf8)
    {
        m_items.append(utf8);
        m_ends.append(m_items.size());
    }
    void append(const QString &text) { append(QByteArrayView(text.toUtf8())); }
    TextColumn &operator<<(const QString &text)
    {
        append(text);
        return *this;
    }
};

} // namespace ServeScope

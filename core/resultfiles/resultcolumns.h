// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QString>
#include <QVector>

#include <iterator>
#include <span>

namespace ServeScope {

/// Where each entry of a column ends: 4 bytes each while they fit, 8 once one does not.
class ColumnEnds {
public:
    qsizetype size() const noexcept { return m_wide ? m_wideEnds.size() : m_narrow.size(); }
    bool isEmpty() const noexcept { return size() == 0; }
    qsizetype at(qsizetype i) const noexcept { return m_wide ? m_wideEnds.at(i) : qsizetype(m_narrow.at(i)); }
    /// Where entry i starts: where the one before ends.
    qsizetype startOf(qsizetype i) const noexcept { return i == 0 ? 0 : at(i - 1); }
    void append(qsizetype end)
    {
        if (!m_wide && quint64(end) <= kNarrowMax)
            m_narrow.append(quint32(end));
        else
            appendWide(end);
    }
    /// The last entry ends one later.
    void growLast();
    void reserve(qsizetype n) { m_wide ? m_wideEnds.reserve(n) : m_narrow.reserve(n); }
    void squeeze()
    {
        m_narrow.squeeze();
        m_wideEnds.squeeze();
    }
    void clear()
    {
        m_narrow.clear();
        m_wideEnds.clear();
        m_wide = false;
    }
    friend bool operator==(const ColumnEnds &a, const ColumnEnds &b);

private:
    static constexpr quint64 kNarrowMax = 0xffffffffu;
    void appendWide(qsizetype end);

    QVector<quint32> m_narrow;
    QVector<qsizetype> m_wideEnds;
    bool m_wide = false;
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

/// A result file's itls: each request's gaps one after another and where each request's start, so
/// 600,000 requests of a few gaps take their values and 8 bytes each (not a vector apiece).
class GapColumn {
public:
    class const_iterator {
    public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = GapRow;
        using difference_type = qsizetype;
        using pointer = void;
        using reference = GapRow;
        const_iterator() = default;
        const_iterator(const GapColumn *column, qsizetype i)
            : m_column(column)
            , m_i(i)
        {
        }
        GapRow operator*() const { return m_column->at(m_i); }
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
        const GapColumn *m_column = nullptr;
        qsizetype m_i = 0;
    };

    qsizetype size() const noexcept { return m_ends.size(); }
    bool isEmpty() const noexcept { return m_ends.isEmpty(); }
    /// Every request's gaps together.
    qsizetype gapCount() const noexcept { return m_gaps.size(); }
    GapRow at(qsizetype i) const noexcept
    {
        return GapRow(m_gaps.constData() + m_ends.startOf(i), m_gaps.constData() + m_ends.at(i));
    }
    GapRow operator[](qsizetype i) const noexcept { return at(i); }
    /// Empty when i is out of range.
    GapRow value(qsizetype i) const noexcept { return i >= 0 && i < size() ? at(i) : GapRow(); }
    const_iterator begin() const { return { this, 0 }; }
    const_iterator end() const { return { this, size() }; }
    const_iterator cbegin() const { return begin(); }
    const_iterator cend() const { return end(); }

    /// A request of these gaps.
    void append(std::span<const double> gaps);
    GapColumn &operator<<(const QVector<double> &gaps)
    {
        append(std::span<const double>(gaps.constData(), size_t(gaps.size())));
        return *this;
    }
    void reserve(qsizetype rows) { m_ends.reserve(rows); }
    /// A request with no gaps yet, then gaps for it one at a time (a streaming reader).
    void appendRow() { m_ends.append(m_gaps.size()); }
    void appendToLastRow(double gap)
    {
        m_gaps.append(gap);
        m_ends.growLast();
    }
    void clear()
    {
        m_gaps.clear();
        m_ends.clear();
    }
    /// Gives back the capacity reserved beyond what is held.
    void squeeze()
    {
        m_gaps.squeeze();
        m_ends.squeeze();
    }
    friend bool operator==(const GapColumn &a, const GapColumn &b)
    {
        return a.m_ends == b.m_ends && a.m_gaps == b.m_gaps;
    }

private:
    QVector<double> m_gaps;
    ColumnEnds m_ends; ///< one past each request's last gap
};

/// A result file's generated_texts or errors: every request's text as UTF-8 one after another and
/// where each one ends, so short texts take their bytes and 4 bytes each (not a QString apiece).
class TextColumn {
public:
    class const_iterator {
    public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = QString;
        using difference_type = qsizetype;
        using pointer = void;
        using reference = QString;
        const_iterator() = default;
        const_iterator(const TextColumn *column, qsizetype i)
            : m_column(column)
            , m_i(i)
        {
        }
        QString operator*() const { return m_column->at(m_i); }
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
        const TextColumn *m_column = nullptr;
        qsizetype m_i = 0;
    };

    qsizetype size() const noexcept { return m_ends.size(); }
    bool isEmpty() const noexcept { return m_ends.isEmpty(); }
    /// The UTF-8 bytes of entry i.
    QByteArrayView utf8(qsizetype i) const noexcept
    {
        const qsizetype from = m_ends.startOf(i);
        return QByteArrayView(m_bytes.constData() + from, m_ends.at(i) - from);
    }
    bool isEmptyAt(qsizetype i) const noexcept { return m_ends.at(i) == m_ends.startOf(i); }
    QString at(qsizetype i) const { return QString::fromUtf8(utf8(i)); }
    QString operator[](qsizetype i) const { return at(i); }
    /// Empty when i is out of range.
    QString value(qsizetype i) const { return i >= 0 && i < size() ? at(i) : QString(); }
    /// Entries that are not empty.
    qsizetype nonEmptyCount() const;
    const_iterator begin() const { return { this, 0 }; }
    const_iterator end() const { return { this, size() }; }
    const_iterator cbegin() const { return begin(); }
    const_iterator cend() const { return end(); }

    void append(QByteArrayView utf8)
    {
        m_bytes.append(utf8);
        m_ends.append(m_bytes.size());
    }
    void append(const QString &text) { append(QByteArrayView(text.toUtf8())); }
    void reserve(qsizetype rows) { m_ends.reserve(rows); }
    TextColumn &operator<<(const QString &text)
    {
        append(text);
        return *this;
    }
    void clear()
    {
        m_bytes.clear();
        m_ends.clear();
    }
    /// Gives back the capacity reserved beyond what is held.
    void squeeze()
    {
        m_bytes.squeeze();
        m_ends.squeeze();
    }
    friend bool operator==(const TextColumn &a, const TextColumn &b)
    {
        return a.m_ends == b.m_ends && a.m_bytes == b.m_bytes;
    }

private:
    QByteArray m_bytes;
    ColumnEnds m_ends; ///< one past each entry's last byte
};

} // namespace ServeScope

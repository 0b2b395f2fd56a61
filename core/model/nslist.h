// SPDX-License-Identifier: MIT
#pragma once

#include <QVector>

#include <initializer_list>
#include <iterator>

namespace ServeScope {

/// Nanosecond values in order: a request's event times (offsets from its start), a point's token
/// gaps. Kept in 4 bytes a value while every value lies in [0, 2^32) ns (4.29 s), in 8 once one does
/// not: a point holds every request's event times until it is summarised, and its summary every
/// token gap at once (docs/engine.md, "Memory by run length"). Copies share the data until one is
/// changed, as Qt's containers do.
class NsList {
public:
    /// Reads the values in order, by value.
    class const_iterator {
    public:
        using iterator_category = std::random_access_iterator_tag;
        using value_type = qint64;
        using difference_type = qsizetype;
        using pointer = void;
        using reference = qint64;

        const_iterator() = default;
        const_iterator(const NsList *times, qsizetype i)
            : m_times(times)
            , m_i(i)
        {
        }
        qint64 operator*() const { return m_times->at(m_i); }
        qint64 operator[](qsizetype n) const { return m_times->at(m_i + n); }
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
        const_iterator &operator--()
        {
            --m_i;
            return *this;
        }
        const_iterator operator--(int)
        {
            const_iterator old = *this;
            --m_i;
            return old;
        }
        const_iterator &operator+=(qsizetype n)
        {
            m_i += n;
            return *this;
        }
        const_iterator &operator-=(qsizetype n)
        {
            m_i -= n;
            return *this;
        }
        friend const_iterator operator+(const_iterator it, qsizetype n) { return it += n; }
        friend const_iterator operator+(qsizetype n, const_iterator it) { return it += n; }
        friend const_iterator operator-(const_iterator it, qsizetype n) { return it -= n; }
        friend qsizetype operator-(const_iterator a, const_iterator b) { return a.m_i - b.m_i; }
        friend bool operator==(const_iterator a, const_iterator b) { return a.m_i == b.m_i; }
        friend bool operator!=(const_iterator a, const_iterator b) { return a.m_i != b.m_i; }
        friend bool operator<(const_iterator a, const_iterator b) { return a.m_i < b.m_i; }
        friend bool operator>(const_iterator a, const_iterator b) { return a.m_i > b.m_i; }
        friend bool operator<=(const_iterator a, const_iterator b) { return a.m_i <= b.m_i; }
        friend bool operator>=(const_iterator a, const_iterator b) { return a.m_i >= b.m_i; }

    private:
        const NsList *m_times = nullptr;
        qsizetype m_i = 0;
    };
    using value_type = qint64;

    NsList() = default;
    NsList(std::initializer_list<qint64> times);

    qsizetype size() const noexcept { return m_wide ? m_words.size() / 2 : m_words.size(); }
    bool isEmpty() const noexcept { return m_words.isEmpty(); }
    qint64 at(qsizetype i) const noexcept
    {
        if (!m_wide)
            return qint64(m_words.at(i));
        return qint64(quint64(m_words.at(2 * i)) | quint64(m_words.at(2 * i + 1)) << 32);
    }
    qint64 operator[](qsizetype i) const noexcept { return at(i); }
    qint64 first() const noexcept { return at(0); }
    qint64 last() const noexcept { return at(size() - 1); }
    const_iterator begin() const { return { this, 0 }; }
    const_iterator end() const { return { this, size() }; }

    void append(qint64 t)
    {
        if (!m_wide && quint64(t) <= kNarrowMax)
            m_words.append(quint32(t));
        else
            appendWide(t);
    }
    NsList &operator<<(qint64 t)
    {
        append(t);
        return *this;
    }
    /// Replaces the value at i.
    void set(qsizetype i, qint64 t);
    void reserve(qsizetype n) { m_words.reserve(n); }
    void squeeze() { m_words.squeeze(); }
    void clear()
    {
        m_words.clear();
        m_wide = false;
    }
    /// True when the values take 8 bytes each.
    bool isWide() const noexcept { return m_wide; }
    /// The values themselves while narrow (not isWide()), to reorder them in place.
    quint32 *narrowData() { return m_wide ? nullptr : m_words.data(); }

    friend bool operator==(const NsList &a, const NsList &b);
    friend bool operator!=(const NsList &a, const NsList &b) { return !(a == b); }

private:
    static constexpr quint64 kNarrowMax = 0xffffffffu;
    void appendWide(qint64 t);
    void widen();

    QVector<quint32> m_words; ///< one word a time, or (low, high) pairs once wide
    bool m_wide = false;
};

} // namespace ServeScope

// SPDX-License-Identifier: MIT
#pragma once

#include <QJsonValue>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

namespace ServeScope {

/// A name -> JSON value map that keeps insertion order, so files are written back the way they
/// were read (server args, sampling parameters, variant changes).
class OrderedValues {
public:
    using Item = QPair<QString, QJsonValue>;

    OrderedValues() = default;
    OrderedValues(std::initializer_list<Item> items);

    bool isEmpty() const noexcept { return m_items.isEmpty(); }
    qsizetype size() const noexcept { return m_items.size(); }
    bool contains(const QString &name) const { return indexOf(name) >= 0; }
    qsizetype indexOf(const QString &name) const;
    /// Undefined QJsonValue when absent.
    QJsonValue value(const QString &name) const;
    /// Replaces in place when present, appends otherwise.
    void set(const QString &name, const QJsonValue &value);
    bool remove(const QString &name);
    QStringList names() const;
    const QList<Item> &items() const noexcept { return m_items; }

    /// Order-sensitive: used by tests of lossless round trips.
    bool operator==(const OrderedValues &other) const = default;

private:
    QList<Item> m_items;
};

} // namespace ServeScope

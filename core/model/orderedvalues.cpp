// SPDX-License-Identifier: MIT
#include "orderedvalues.h"

namespace ServeScope {

OrderedValues::OrderedValues(std::initializer_list<Item> items)
{
    for (const Item &item : items)
        set(item.first, item.second);
}

qsizetype OrderedValues::indexOf(const QString &name) const
{
    for (qsizetype i = 0; i < m_items.size(); ++i) {
        if (m_items.at(i).first == name)
            return i;
    }
    return -1;
}

QJsonValue OrderedValues::value(const QString &name) const
{
    const qsizetype i = indexOf(name);
    return i < 0 ? QJsonValue(QJsonValue::Undefined) : m_items.at(i).second;
}

void OrderedValues::set(const QString &name, const QJsonValue &value)
{
    const qsizetype i = indexOf(name);
    if (i < 0)
        m_items.append({ name, value });
    else
        m_items[i].second = value;
}

bool OrderedValues::remove(const QString &name)
{
    const qsizetype i = indexOf(name);
    if (i < 0)
        return false;
    m_items.removeAt(i);
    return true;
}

QStringList OrderedValues::names() const
{
    QStringList out;
    out.reserve(m_items.size());
    for (const Item &item : m_items)
        out << item.first;
    return out;
}

} // namespace ServeScope

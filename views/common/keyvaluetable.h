// SPDX-License-Identifier: MIT
#pragma once

#include "model/orderedvalues.h"

#include <QWidget>

class QTableWidget;
class QPushButton;

namespace ServeScope {

/// An editable name -> value table (server args, sampling parameters, variant changes, headers).
/// Values are typed as JSON scalars: 8 is a number, true a bool, anything unparsable a string.
class KeyValueTable final : public QWidget {
    Q_OBJECT
public:
    explicit KeyValueTable(const QString &nameHeader, const QString &valueHeader, QWidget *parent = nullptr);

    void setValues(const OrderedValues &values);
    OrderedValues values() const;
    QTableWidget *table() const { return m_table; }
    /// Marks rows whose name has a problem (tooltip and colour).
    void setRowProblems(const QHash<QString, QString> &problemsByName);

    /// "8" -> 8, "true" -> true, "[1,2]" -> array, "inf" and other text -> string.
    static QJsonValue parseValue(const QString &text);
    static QString formatValue(const QJsonValue &value);

signals:
    /// The user changed the table; the new complete set of values.
    void valuesEdited(const ServeScope::OrderedValues &values);

private:
    void addRow();
    void removeRow();
    void cellEdited();

    QTableWidget *m_table;
    QPushButton *m_add, *m_remove;
    bool m_loading = false;
};

} // namespace ServeScope

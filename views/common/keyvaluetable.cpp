// SPDX-License-Identifier: MIT
#include "keyvaluetable.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace ServeScope {

KeyValueTable::KeyValueTable(const QString &nameHeader, const QString &valueHeader, QWidget *parent)
    : QWidget(parent)
    , m_table(new QTableWidget(0, 2, this))
    , m_add(new QPushButton(tr("Add"), this))
    , m_remove(new QPushButton(tr("Remove"), this))
{
    m_table->setHorizontalHeaderLabels({ nameHeader, valueHeader });
    // Names are read whole (server.args.max_num_seqs), values take the rest; four rows show at once.
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->hide();
    m_table->setMinimumHeight(m_table->horizontalHeader()->sizeHint().height()
        + 4 * m_table->verticalHeader()->defaultSectionSize() + 2 * m_table->frameWidth());
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_add);
    buttons->addWidget(m_remove);
    buttons->addStretch();
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_table);
    layout->addLayout(buttons);
    connect(m_add, &QPushButton::clicked, this, &KeyValueTable::addRow);
    connect(m_remove, &QPushButton::clicked, this, &KeyValueTable::removeRow);
    connect(m_table, &QTableWidget::itemChanged, this, &KeyValueTable::cellEdited);
}

QJsonValue KeyValueTable::parseValue(const QString &text)
{
    const QString t = text.trimmed();
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray("[") + t.toUtf8() + QByteArray("]"));
    if (doc.isArray() && doc.array().size() == 1)
        return doc.array().at(0);
    return QJsonValue(t);
}

QString KeyValueTable::formatValue(const QJsonValue &value)
{
    if (value.isString())
        return value.toString();
    const QByteArray json = QJsonDocument(QJsonArray { value }).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(json.mid(1, json.size() - 2));
}

void KeyValueTable::setValues(const OrderedValues &values)
{
    if (values == this->values() && m_table->rowCount() == values.size())
        return;
    m_loading = true;
    m_table->setRowCount(int(values.size()));
    int row = 0;
    for (const auto &item : values.items()) {
        m_table->setItem(row, 0, new QTableWidgetItem(item.first));
        m_table->setItem(row, 1, new QTableWidgetItem(formatValue(item.second)));
        ++row;
    }
    m_loading = false;
}

OrderedValues KeyValueTable::values() const
{
    OrderedValues out;
    for (int row = 0; row < m_table->rowCount(); ++row) {
        const QTableWidgetItem *name = m_table->item(row, 0);
        const QTableWidgetItem *value = m_table->item(row, 1);
        if (!name || name->text().trimmed().isEmpty())
            continue;
        out.set(name->text().trimmed(), parseValue(value ? value->text() : QString()));
    }
    return out;
}

void KeyValueTable::setRowProblems(const QHash<QString, QString> &problemsByName)
{
    for (int row = 0; row < m_table->rowCount(); ++row) {
        QTableWidgetItem *name = m_table->item(row, 0);
        if (!name)
            continue;
        const QString problem = problemsByName.value(name->text().trimmed());
        const QSignalBlocker block(m_table);
        for (int col = 0; col < 2; ++col) {
            if (QTableWidgetItem *it = m_table->item(row, col)) {
                it->setToolTip(problem);
                it->setBackground(problem.isEmpty() ? QBrush() : QBrush(QColor(255, 225, 225)));
            }
        }
    }
}

void KeyValueTable::addRow()
{
    m_loading = true;
    const int row = m_table->rowCount();
    m_table->insertRow(row);
    m_table->setItem(row, 0, new QTableWidgetItem);
    m_table->setItem(row, 1, new QTableWidgetItem);
    m_loading = false;
    m_table->setCurrentCell(row, 0);
    m_table->editItem(m_table->item(row, 0));
}

void KeyValueTable::removeRow()
{
    const int row = m_table->currentRow();
    if (row < 0)
        return;
    m_table->removeRow(row);
    emit valuesEdited(values());
}

void KeyValueTable::cellEdited()
{
    if (!m_loading)
        emit valuesEdited(values());
}

} // namespace ServeScope

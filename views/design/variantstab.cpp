// SPDX-License-Identifier: MIT
#include "variantstab.h"

#include "experimentdocument.h"
#include "keyvaluetable.h"
#include "model/variables.h"

#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSplitter>
#include <QVBoxLayout>

namespace ServeScope {

VariantsTab::VariantsTab(ExperimentDocument *document, QWidget *parent)
    : QWidget(parent)
    , m_document(document)
    , m_list(new QListWidget(this))
    , m_name(new QLineEdit(this))
    , m_reason(new QLineEdit(this))
    , m_changes(new KeyValueTable(tr("Variable"), tr("Value"), this))
    , m_diff(new QLabel(this))
{
    m_list->setObjectName(QStringLiteral("variantList"));
    m_name->setObjectName(QStringLiteral("variantName"));
    m_changes->setObjectName(QStringLiteral("variantChanges"));
    QStringList known;
    for (const VariableInfo &v : knownVariables())
        known << v.path;
    m_changes->setToolTip(tr("Variables a variant may change:\n%1").arg(known.join(QLatin1Char('\n'))));
    m_reason->setPlaceholderText(tr("Required when a variant changes more than one variable"));
    m_diff->setWordWrap(true);
    m_diff->setTextFormat(Qt::RichText);
    m_diff->setAlignment(Qt::AlignTop | Qt::AlignLeft);

    auto *left = new QWidget;
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(m_list);
    auto *buttons = new QHBoxLayout;
    auto *add = new QPushButton(tr("Add"));
    add->setObjectName(QStringLiteral("addVariantButton"));
    auto *remove = new QPushButton(tr("Remove"));
    auto *baseline = new QPushButton(tr("Make baseline"));
    for (QPushButton *b : { add, remove, baseline })
        buttons->addWidget(b);
    leftLayout->addLayout(buttons);

    auto *right = new QWidget;
    auto *form = new QFormLayout(right);
    form->addRow(tr("Name"), m_name);
    form->addRow(tr("Reason"), m_reason);
    form->addRow(tr("Changes"), m_changes);
    form->addRow(tr("Differs from baseline"), m_diff);

    auto *split = new QSplitter(this);
    split->setChildrenCollapsible(false); // a pane never shrinks to nothing
    split->addWidget(left);
    split->addWidget(right);
    split->setStretchFactor(1, 2);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(split);

    connect(m_list, &QListWidget::currentRowChanged, this, &VariantsTab::showVariant);
    connect(add, &QPushButton::clicked, this, &VariantsTab::addVariant);
    connect(remove, &QPushButton::clicked, this, &VariantsTab::removeVariant);
    connect(baseline, &QPushButton::clicked, this, &VariantsTab::makeBaseline);
    connect(m_name, &QLineEdit::textEdited, this, [this](const QString &text) {
        Experiment e = m_document->experiment();
        if (current() < 0)
            return;
        e.variants[current()].name = text.trimmed();
        m_document->apply(e, tr("Rename variant"), QStringLiteral("variants.name"));
    });
    connect(m_reason, &QLineEdit::textEdited, this, [this](const QString &text) {
        Experiment e = m_document->experiment();
        if (current() < 0)
            return;
        e.variants[current()].reason = text;
        m_document->apply(e, tr("Edit variant reason"), QStringLiteral("variants.reason"));
    });
    connect(m_changes, &KeyValueTable::valuesEdited, this, [this](const OrderedValues &v) {
        Experiment e = m_document->experiment();
        if (current() < 0)
            return;
        e.variants[current()].changes = v;
        m_document->apply(e, tr("Edit variant changes"));
    });
}

int VariantsTab::current() const
{
    const int row = m_list->currentRow();
    return row >= 0 && row < m_document->experiment().variants.size() ? row : -1;
}

void VariantsTab::selectVariant(int index)
{
    m_list->setCurrentRow(index);
}

void VariantsTab::refresh()
{
    m_loading = true;
    const Experiment &e = m_document->experiment();
    const int keep = m_list->currentRow();
    m_list->clear();
    const int baseline = e.baselineIndex();
    for (int i = 0; i < e.variants.size(); ++i) {
        const QString name = e.variants.at(i).name;
        m_list->addItem(i == baseline ? tr("%1 (baseline)").arg(name) : name);
    }
    m_list->setCurrentRow(qBound(-1, keep < 0 ? 0 : keep, int(e.variants.size()) - 1));
    m_loading = false;
    showVariant();
}

void VariantsTab::showVariant()
{
    if (m_loading)
        return;
    const Experiment &e = m_document->experiment();
    const int i = current();
    const bool has = i >= 0;
    m_name->setEnabled(has);
    m_reason->setEnabled(has);
    m_changes->setEnabled(has);
    const Variant v = has ? e.variants.at(i) : Variant();
    if (m_name->text() != v.name)
        m_name->setText(v.name);
    if (m_reason->text() != v.reason)
        m_reason->setText(v.reason);
    m_changes->setValues(v.changes);
    QStringList lines;
    if (has && i != e.baselineIndex()) {
        for (const VariableDifference &d : diffVariants(e, i))
            lines << tr("<b>%1</b>: %2 → %3")
                         .arg(d.path.toHtmlEscaped(), describeValue(d.baseline).toHtmlEscaped(),
                             describeValue(d.variant).toHtmlEscaped());
        if (lines.isEmpty())
            lines << tr("Nothing: this variant runs the same configuration as the baseline.");
    } else if (has) {
        lines << tr("This is the baseline; other variants are compared with it.");
    }
    QHash<QString, QString> rowProblems;
    for (const Problem &p : m_document->problems()) {
        if (p.variant != i || !has)
            continue;
        const QString colour = p.isError() ? QStringLiteral("#b00020") : QStringLiteral("#8a5a00");
        lines << QStringLiteral("<span style=\"color:%1\">%2</span>").arg(colour, p.toString().toHtmlEscaped());
        const int dot = p.path.indexOf(QLatin1String("changes."));
        if (dot >= 0)
            rowProblems.insert(p.path.mid(dot + 8), p.translatedReason());
    }
    m_changes->setRowProblems(rowProblems);
    m_diff->setText(lines.join(QStringLiteral("<br>")));
}

void VariantsTab::addVariant()
{
    Experiment e = m_document->experiment();
    Variant v;
    int n = int(e.variants.size());
    do {
        v.name = QStringLiteral("variant-%1").arg(++n);
    } while (e.variantIndex(v.name) >= 0);
    if (e.variants.isEmpty()) {
        v.name = QStringLiteral("baseline");
        v.baseline = true;
    }
    e.variants.append(v);
    m_document->apply(e, tr("Add variant"));
    m_list->setCurrentRow(int(e.variants.size()) - 1);
}

void VariantsTab::removeVariant()
{
    Experiment e = m_document->experiment();
    const int i = current();
    if (i < 0)
        return;
    e.variants.removeAt(i);
    m_document->apply(e, tr("Remove variant"));
}

void VariantsTab::makeBaseline()
{
    Experiment e = m_document->experiment();
    const int i = current();
    if (i < 0)
        return;
    for (int k = 0; k < e.variants.size(); ++k)
        e.variants[k].baseline = k == i;
    m_document->apply(e, tr("Change baseline"));
}

} // namespace ServeScope

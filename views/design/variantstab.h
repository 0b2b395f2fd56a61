// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

class QLabel;
class QLineEdit;
class QListWidget;

namespace ServeScope {

class ExperimentDocument;
class KeyValueTable;

/// Baseline and variants: each variant's changes (registry paths -> values), its reason, and what
/// differs from the baseline after resolution, with the registry's warnings.
class VariantsTab final : public QWidget {
    Q_OBJECT
public:
    explicit VariantsTab(ExperimentDocument *document, QWidget *parent = nullptr);
    void refresh();
    void selectVariant(int index);

private:
    int current() const;
    void showVariant();
    void addVariant();
    void removeVariant();
    void makeBaseline();

    ExperimentDocument *m_document;
    QListWidget *m_list;
    QLineEdit *m_name, *m_reason;
    KeyValueTable *m_changes;
    QLabel *m_diff;
    bool m_loading = false;
};

} // namespace ServeScope

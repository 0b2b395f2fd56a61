// SPDX-License-Identifier: MIT
#pragma once

#include <QGroupBox>

class QDoubleSpinBox;
class QFormLayout;

namespace ServeScope {

class ExperimentDocument;
class FormBinder;

/// The Design page's load.capacity (docs/capacity.md): the loop searched, a bound per latency at a
/// chosen percentile, the attainment, where the search starts and ends, and each level's load.
class CapacityForm final : public QGroupBox {
    Q_OBJECT
public:
    CapacityForm(ExperimentDocument *document, FormBinder *binder, QWidget *parent = nullptr);
    /// A percentile is editable only while its latency has a bound.
    void refresh();

private:
    QWidget *sloGrid();
    void addLevelRows(QFormLayout *form);
    void addPointRows(QFormLayout *form);

    ExperimentDocument *m_document;
    FormBinder *m_binder;
    QList<QPair<QString, QDoubleSpinBox *>> m_percentiles; ///< metric, its percentile box
};

} // namespace ServeScope

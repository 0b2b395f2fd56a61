// SPDX-License-Identifier: MIT
#pragma once

#include "model/experiment.h"
#include "model/problem.h"

#include <QList>
#include <QObject>
#include <QPointer>

#include <functional>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QWidget;

namespace ServeScope {

class ExperimentDocument;

/// A form's number boxes: the range, and for a double its decimals and unit suffix.
QSpinBox *intSpin(int min, int max);
QDoubleSpinBox *doubleSpin(double min, double max, int decimals, const QString &suffix = {});

/// Connects form widgets to experiment fields: a widget edit becomes an undoable document edit, a
/// document change refreshes the widgets, and validation problems show under the field they concern.
class FormBinder final : public QObject {
    Q_OBJECT
public:
    template<typename T> using Getter = std::function<T(const Experiment &)>;
    template<typename T> using Setter = std::function<void(Experiment &, const T &)>;

    explicit FormBinder(ExperimentDocument *document, QObject *parent = nullptr);
    /// A combo or spin box without focus passes the wheel to its page's scroll area.
    bool eventFilter(QObject *watched, QEvent *event) override;

    /// Each bind*() returns a container holding the widget and its (hidden) problem label; put that
    /// container in the form. `path` is the experiment path validate() reports problems under.
    QWidget *bindLine(
        QLineEdit *w, const QString &path, const QString &undoText, Getter<QString> get, Setter<QString> set);
    QWidget *bindInt(QSpinBox *w, const QString &path, const QString &undoText, Getter<int> get, Setter<int> set);
    QWidget *bindDouble(
        QDoubleSpinBox *w, const QString &path, const QString &undoText, Getter<double> get, Setter<double> set);
    /// Items carry their file spelling as Qt::UserRole data.
    QWidget *bindCombo(
        QComboBox *w, const QString &path, const QString &undoText, Getter<QString> get, Setter<QString> set);
    QWidget *bindCheck(QCheckBox *w, const QString &path, const QString &undoText, Getter<bool> get, Setter<bool> set);
    /// A widget managed elsewhere that should still show problems under `path`.
    QWidget *problemSlot(QWidget *w, const QString &path);

    void refresh();
    void showProblems(const QList<Problem> &problems);

    /// Whether a problem path belongs to a field path (itself, a member or an element).
    static bool pathCovers(const QString &fieldPath, const QString &problemPath);

private:
    struct Binding {
        QPointer<QWidget> widget;
        QLabel *label = nullptr;
        QString path;
        std::function<void()> load;
    };
    QWidget *wrap(QWidget *w, const QString &path, std::function<void()> load);
    void edit(const QString &undoText, const QString &mergeKey, const std::function<void(Experiment &)> &change);

    ExperimentDocument *m_document;
    QList<Binding> m_bindings;
};

} // namespace ServeScope

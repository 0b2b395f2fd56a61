// SPDX-License-Identifier: MIT
#include "formbinder.h"

#include "experimentdocument.h"

#include <QAbstractScrollArea>
#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

namespace ServeScope {

QSpinBox *intSpin(int min, int max)
{
    auto *s = new QSpinBox;
    s->setRange(min, max);
    return s;
}

QDoubleSpinBox *doubleSpin(double min, double max, int decimals, const QString &suffix)
{
    auto *s = new QDoubleSpinBox;
    s->setRange(min, max);
    s->setDecimals(decimals);
    s->setSuffix(suffix);
    return s;
}

FormBinder::FormBinder(ExperimentDocument *document, QObject *parent)
    : QObject(parent)
    , m_document(document)
{
}

void FormBinder::edit(const QString &undoText, const QString &mergeKey, const std::function<void(Experiment &)> &change)
{
    Experiment e = m_document->experiment();
    change(e);
    m_document->apply(e, undoText, mergeKey);
}

QWidget *FormBinder::wrap(QWidget *w, const QString &path, std::function<void()> load)
{
    auto *box = new QWidget;
    auto *layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(w);
    auto *label = new QLabel(box);
    label->setObjectName(QStringLiteral("problemLabel"));
    label->setWordWrap(true);
    label->setStyleSheet(QStringLiteral("color: #b00020;"));
    label->hide();
    layout->addWidget(label);
    w->setProperty("servescopePath", path);
    if (qobject_cast<QComboBox *>(w) || qobject_cast<QAbstractSpinBox *>(w)) {
        // Scrolling the page over a combo or spin box must not change it: only a focused one takes the wheel.
        w->setFocusPolicy(Qt::StrongFocus);
        w->installEventFilter(this);
    }
    m_bindings.append({ w, label, path, std::move(load) });
    return box;
}

bool FormBinder::eventFilter(QObject *watched, QEvent *event)
{
    auto *w = qobject_cast<QWidget *>(watched);
    if (event->type() != QEvent::Wheel || !w || w->hasFocus())
        return QObject::eventFilter(watched, event);
    // The page's scroll area gets the wheel instead, as if the field were not there.
    for (QWidget *p = w->parentWidget(); p; p = p->parentWidget()) {
        if (auto *area = qobject_cast<QAbstractScrollArea *>(p)) {
            QCoreApplication::sendEvent(area->viewport(), event);
            break;
        }
    }
    return true;
}

QWidget *FormBinder::bindLine(
    QLineEdit *w, const QString &path, const QString &undoText, Getter<QString> get, Setter<QString> set)
{
    connect(w, &QLineEdit::textEdited, this,
        [=, this](const QString &text) { edit(undoText, path, [&](Experiment &e) { set(e, text); }); });
    return wrap(w, path, [=, this] {
        const QString v = get(m_document->experiment());
        if (w->text() != v) {
            const QSignalBlocker block(w);
            w->setText(v);
        }
    });
}

QWidget *FormBinder::bindInt(
    QSpinBox *w, const QString &path, const QString &undoText, Getter<int> get, Setter<int> set)
{
    connect(w, &QSpinBox::valueChanged, this,
        [=, this](int v) { edit(undoText, path, [&](Experiment &e) { set(e, v); }); });
    return wrap(w, path, [=, this] {
        // Only a different value is set: setting the same one reformats the text being typed.
        const int v = get(m_document->experiment());
        if (w->value() == v)
            return;
        const QSignalBlocker block(w);
        w->setValue(v);
    });
}

QWidget *FormBinder::bindDouble(
    QDoubleSpinBox *w, const QString &path, const QString &undoText, Getter<double> get, Setter<double> set)
{
    connect(w, &QDoubleSpinBox::valueChanged, this,
        [=, this](double v) { edit(undoText, path, [&](Experiment &e) { set(e, v); }); });
    return wrap(w, path, [=, this] {
        // Only a different value is set: setting the same one reformats the text being typed, so
        // "3." would become "3.00" before its decimals are typed.
        const double v = get(m_document->experiment());
        if (w->value() == v)
            return;
        const QSignalBlocker block(w);
        w->setValue(v);
    });
}

QWidget *FormBinder::bindCombo(
    QComboBox *w, const QString &path, const QString &undoText, Getter<QString> get, Setter<QString> set)
{
    connect(w, &QComboBox::activated, this, [=, this](int index) {
        const QString v = w->itemData(index).toString();
        edit(undoText, QString(), [&](Experiment &e) { set(e, v); });
    });
    return wrap(w, path, [=, this] {
        const QSignalBlocker block(w);
        const int i = w->findData(get(m_document->experiment()));
        w->setCurrentIndex(i);
    });
}

QWidget *FormBinder::bindCheck(
    QCheckBox *w, const QString &path, const QString &undoText, Getter<bool> get, Setter<bool> set)
{
    connect(w, &QCheckBox::toggled, this,
        [=, this](bool v) { edit(undoText, QString(), [&](Experiment &e) { set(e, v); }); });
    return wrap(w, path, [=, this] {
        const QSignalBlocker block(w);
        w->setChecked(get(m_document->experiment()));
    });
}

QWidget *FormBinder::problemSlot(QWidget *w, const QString &path)
{
    return wrap(w, path, [] {});
}

void FormBinder::refresh()
{
    for (const Binding &b : std::as_const(m_bindings)) {
        if (b.widget)
            b.load();
    }
}

bool FormBinder::pathCovers(const QString &fieldPath, const QString &problemPath)
{
    if (!problemPath.startsWith(fieldPath))
        return false;
    if (problemPath.size() == fieldPath.size())
        return true;
    const QChar next = problemPath.at(fieldPath.size());
    return next == QLatin1Char('.') || next == QLatin1Char('[');
}

void FormBinder::showProblems(const QList<Problem> &problems)
{
    // Each problem beside the one field that covers it most closely: the readiness probe's under its own
    // field, not also under the launch command that covers all of server.launch.
    QStringList closest; // per problem: the longest field path that covers it (none: empty)
    for (const Problem &p : problems) {
        QString best;
        for (const Binding &b : std::as_const(m_bindings))
            if (p.variant < 0 && pathCovers(b.path, p.path) && b.path.size() > best.size())
                best = b.path;
        closest << best;
    }
    for (const Binding &b : std::as_const(m_bindings)) {
        QStringList lines;
        bool error = false;
        for (qsizetype i = 0; i < problems.size(); ++i) {
            if (!b.path.isEmpty() && closest.at(i) == b.path) {
                lines.append(problems.at(i).translatedReason());
                error = error || problems.at(i).isError();
            }
        }
        b.label->setText(lines.join(QLatin1Char('\n')));
        b.label->setStyleSheet(error ? QStringLiteral("color: #b00020;") : QStringLiteral("color: #8a5a00;"));
        b.label->setVisible(!lines.isEmpty());
        if (b.widget)
            b.widget->setToolTip(lines.join(QLatin1Char('\n')));
    }
}

} // namespace ServeScope

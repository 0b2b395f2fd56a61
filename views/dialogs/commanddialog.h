// SPDX-License-Identifier: MIT
#pragma once

#include "io/commandimport.h"

#include <QDialog>

class QDialogButtonBox;
class QLabel;
class QPlainTextEdit;

namespace ServeScope {

/// Paste (or drop) a server or benchmark command line: what it will set and every warning are
/// shown as it is typed; OK hands the read result over, the experiment changes in one undo step.
class CommandDialog final : public QDialog {
    Q_OBJECT
public:
    explicit CommandDialog(const QString &text, QWidget *parent = nullptr);
    CommandImportResult result() const { return m_result; }

private:
    void reread();

    QPlainTextEdit *m_text;
    QLabel *m_summary;
    QDialogButtonBox *m_buttons;
    CommandImportResult m_result;
};

} // namespace ServeScope

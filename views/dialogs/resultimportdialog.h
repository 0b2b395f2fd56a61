// SPDX-License-Identifier: MIT
#pragma once

#include "import/resultimport.h"
#include "import/resultverify.h"

#include <QDialog>
#include <QPointer>

#include <memory>

class QLabel;
class QTreeWidget;
class QTreeWidgetItem;
class QDialogButtonBox;

namespace ServeScope {

/// File → Import results… and result files dropped on the window: imports vLLM and SGLang result
/// files into the open project on a worker thread, then lists each file's outcome (runs created,
/// warnings, errors) and, for each line with per-request arrays, what recomputing its statistics
/// from them found (as `import --verify`).
class ResultImportDialog final : public QDialog {
    Q_OBJECT
public:
    ResultImportDialog(const QString &projectPath, const QStringList &files, QWidget *parent = nullptr);
    ~ResultImportDialog() override;

    /// Whether a dropped or chosen file looks like a result file rather than an experiment: a .jsonl
    /// file, or JSON whose first object carries vLLM's or SGLang's counts.
    static bool isResultFile(const QString &path);
    /// Closing waits until the import has ended (Close is enabled then).
    void reject() override;

Q_SIGNALS:
    /// The import ended; runs may have been added to the project.
    void imported();

private:
    /// What the check of one line of a file found (`import --verify`).
    struct LineCheck {
        int line = 0;
        bool hasArrays = false;
        QVector<KeyCheck> checks;
    };
    void start();
    void showOutcomes(
        const QVector<ImportOutcome> &outcomes, const QVector<QVector<LineCheck>> &checks, const QString &error);
    /// Returns the statistics that mismatched.
    int addChecks(QTreeWidgetItem *file, const QVector<LineCheck> &lines);

    QString m_project;
    QStringList m_files;
    QLabel *m_status;
    QTreeWidget *m_outcomes;
    QDialogButtonBox *m_buttons;
    QPointer<QThread> m_thread;
};

} // namespace ServeScope

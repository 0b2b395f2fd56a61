// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>
#include <QStringList>

class QMimeData;
class QWidget;

namespace ServeScope {

class ExperimentDocument;
class ProjectController;
class ProjectSession;
class RunSession;

/// What comes into the project from files and the clipboard: experiment files (an undoable edit),
/// command lines (the paste dialog), other tools' result files (the import dialog, asking before a file
/// is imported twice), shard runs to merge, and whatever is dropped on the window.
class ImportFlow final : public QObject {
    Q_OBJECT
public:
    ImportFlow(QWidget *window, ExperimentDocument *document, ProjectSession *session, ProjectController *project,
        const RunSession *run);

    /// Imports an experiment file (JSON, TOML) into the open project (a new one when none is open) as
    /// an undoable edit.
    bool importExperimentFile(const QString &path, QString *error = nullptr);
    /// Asks for an experiment file, then imports it.
    void chooseExperimentFile();
    bool exportExperimentFile(const QString &path);
    /// vLLM or SGLang result files into the project (a new one when none is open); lists the outcome.
    void importResults(const QStringList &files);
    /// One run in this project from the shard runs of these project files (each file's latest run),
    /// on a worker thread; says what the merge found and selects the run.
    void mergeShardFiles(const QStringList &files);
    /// Opens the paste dialog with `text` (a server or benchmark command line); what it reads is
    /// merged into the experiment as one undoable edit (a new project when none is open).
    void pasteCommand(const QString &text);
    /// Whether a drag carries something the window takes: a command line, or an experiment, result,
    /// project or command file.
    static bool accepts(const QMimeData *mime);
    void drop(const QMimeData *mime);

signals:
    /// These stored runs should be selected and compared.
    void compareWanted(const QList<qint64> &ids);
    void logged(const QString &level, const QString &text);
    void status(const QString &text, int timeoutMs);

private:
    void openImportDialog(const QStringList &files);
    /// Whether the run in progress forbids `what` now (a warning says so).
    bool refusedWhileRunning(const QString &what, const QString &text);

    QWidget *m_window;
    ExperimentDocument *m_document;
    ProjectSession *m_session;
    ProjectController *m_project;
    const RunSession *m_run;
};

} // namespace ServeScope

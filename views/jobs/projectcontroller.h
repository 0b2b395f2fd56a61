// SPDX-License-Identifier: MIT
#pragma once

#include "storage/storetypes.h"

#include <QMultiHash>
#include <QObject>

#include <functional>

class QWidget;

namespace ServeScope {

class ExperimentDocument;
class ProjectSession;
class RunSession;
struct Experiment;

/// The open project's life: New, Open, Save, Save As, the recent projects, and the question before
/// unsaved edits or runs are left. Nothing of the open project changes until a new one is open; a new
/// project lives in a temporary file until it is saved.
class ProjectController final : public QObject {
    Q_OBJECT
public:
    ProjectController(QWidget *window, ExperimentDocument *document, ProjectSession *session, const RunSession *run);

    bool hasProject() const { return m_hasProject; }
    /// Unsaved edits, or runs in a project not saved yet (leaving it loses them).
    bool hasUnsavedWork() const;
    /// Runs imported from this file (absolute path) into the project.
    QList<qint64> runsImportedFrom(const QString &file) const { return m_importedFrom.values(file); }
    QStringList recent() const;

    void newProject(const Experiment &experiment);
    void openProject(const QString &path);
    void saveProject();
    void saveProjectAs(const QString &path);
    /// Asks for a file, then saves the project under it (`.servescope` added when missing).
    void chooseSaveAs();
    /// Runs `proceed` once unsaved edits or runs are saved or knowingly discarded; not on Cancel.
    void whenSafeToLeave(std::function<void()> proceed);
    /// True when no project file is open yet: one is created and `then` runs once it is open.
    bool needsProjectFirst(const std::function<void()> &then);
    /// The local simulator's speed chosen for every project (demo and tests run faster than real time;
    /// `servescope --time-scale`); without one, the demo runs at kDemoTimeScale and the rest at 1.
    void setTimeScale(double scale);
    double timeScale() const { return m_timeScale; }
    static constexpr double kDemoTimeScale = 8.0; ///< what `servescope --demo` runs at
    /// A new project with the demo experiment, at the demo's time scale unless one was chosen.
    bool openDemo();
    /// A run was stored (counted before the listing comes back: leaving right after must still ask).
    void runStored();
    static Experiment blankExperiment();

signals:
    /// A project is open (`temporary`: a new one, not saved yet); a file's experiment is in the document.
    void opened(const QString &path, bool temporary);
    /// A project file was refused (missing, empty, foreign, newer or corrupt header).
    void openFailed(const QString &path, const QString &error);
    /// The runs, findings and server log of the project being left are to go.
    void leaving();
    void saved(const QString &path, const QString &error);
    void runsListed(const QVector<ServeScope::RunListing> &runs);
    void recentChanged(const QStringList &recent);
    /// Whether the window's title shows unsaved changes.
    void modifiedChanged();
    /// The open project's simulator speed changed (a new project, the demo, a chosen scale).
    void timeScaleChanged(double scale);
    void logged(const QString &level, const QString &text);
    void status(const QString &text, int timeoutMs);
    /// The whole-file check of the open project is reading it (`text` says so), or none is (empty).
    void checking(const QString &text);

private:
    /// The project being left goes: its runs, and a scale it alone had.
    void leave();
    void applyTimeScale(double scale);
    void sessionOpened(const QString &path, bool temporary, const QString &error, const QByteArray &json);
    void addRecent(const QString &path);
    /// Runs the continuation saved by whenSafeToLeave()'s Save once the save succeeded.
    void continueAfterSave(const QString &error);
    bool hasUnsavedRuns() const;

    QWidget *m_window;
    bool m_checking = false; ///< the open project's whole-file check runs and has not answered
    ExperimentDocument *m_document;
    ProjectSession *m_session;
    const RunSession *m_run;
    std::function<void()> m_afterSave; ///< what Save in the unsaved-changes question was on its way to
    QMultiHash<QString, qint64> m_importedFrom; ///< imported file (absolute path) -> the runs made from it
    int m_runCount = 0;
    double m_timeScale = 1.0; ///< the local simulator's speed for the open project
    double m_chosenTimeScale = 0; ///< setTimeScale()'s, 0 when none was chosen
    bool m_hasProject = false;
};

} // namespace ServeScope

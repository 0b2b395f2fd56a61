// SPDX-License-Identifier: MIT
#include "projectcontroller.h"

#include "endpointprofiles.h"
#include "experimentdocument.h"
#include "filedialogs.h"
#include "io/experimentfile.h"
#include "model/runorigin.h"
#include "projectsession.h"
#include "runsession.h"

#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QSettings>

#include <utility>

namespace ServeScope {

ProjectController::ProjectController(
    QWidget *window, ExperimentDocument *document, ProjectSession *session, const RunSession *run)
    : QObject(window)
    , m_window(window)
    , m_document(document)
    , m_session(session)
    , m_run(run)
{
    connect(m_session, &ProjectSession::opened, this, &ProjectController::sessionOpened);
    connect(m_document->undoStack(), &QUndoStack::cleanChanged, this, &ProjectController::modifiedChanged);
    connect(m_session, &ProjectSession::integrityChecked, this, [this](const QString &path, const QString &error) {
        m_checking = false;
        emit checking(QString());
        if (error.isEmpty()) {
            emit status(tr("%1 checked: no damage found").arg(QFileInfo(path).fileName()), 4000);
            return;
        }
        emit logged(QStringLiteral("error"), tr("Integrity check failed: %1").arg(error));
        emit status(tr("%1 is damaged").arg(QFileInfo(path).fileName()), 0);
        showWarning(m_window, tr("The project file is damaged"),
            tr("%1\n\nWhat can be read is shown, but results may be missing or wrong. Runs are refused into "
               "a damaged file: create a new project for new runs.")
                .arg(error));
    });
    connect(m_session, &ProjectSession::savedAs, this, [this](const QString &path, const QString &error) {
        if (error.isEmpty()) {
            m_document->markSaved();
            addRecent(path);
            emit status(tr("Saved %1").arg(QFileInfo(path).fileName()), 4000);
        } else {
            emit logged(QStringLiteral("error"), tr("Save failed: %1").arg(error));
            showWarning(m_window, tr("The project was not saved"), tr("Save failed: %1").arg(error));
        }
        emit modifiedChanged();
        emit saved(path, error);
        continueAfterSave(error);
    });
    connect(m_session, &ProjectSession::experimentSaved, this, [this](const QString &error) {
        if (!error.isEmpty()) {
            emit logged(QStringLiteral("error"), tr("Saving the experiment failed: %1").arg(error));
            showWarning(m_window, tr("The project was not saved"), tr("Saving the experiment failed: %1").arg(error));
            continueAfterSave(error);
        } else if (!m_session->isTemporary()) {
            m_document->markSaved();
            emit modifiedChanged();
            emit status(tr("Saved %1").arg(QFileInfo(m_session->path()).fileName()), 4000);
            emit saved(m_session->path(), error);
            continueAfterSave(error);
        }
    });
    connect(m_session, &ProjectSession::runsListed, this, [this](const QVector<RunListing> &runs) {
        m_runCount = int(runs.size());
        // Which file each imported run came from: importing one again asks first.
        m_importedFrom.clear();
        for (const RunListing &r : runs) {
            if (const RunOrigin origin = RunOrigin::fromJson(r.run.origin); origin.isImported())
                m_importedFrom.insert(origin.file, r.run.id);
        }
        emit runsListed(runs);
    });
}

Experiment ProjectController::blankExperiment()
{
    Experiment e;
    e.name = tr("New experiment");
    e.endpoint = ProfileStore::localSimulator().endpoint;
    e.dataset.seed = 1000;
    e.sampling.set(QStringLiteral("temperature"), 0.0);
    LoadPoint p;
    p.concurrency = 1;
    p.inputLen = 512;
    p.outputLen = 128;
    p.numPrompts = 50;
    e.load.points.append(p);
    e.load.warmupRequests = 5;
    Variant v;
    v.name = QStringLiteral("baseline");
    v.baseline = true;
    e.variants.append(v);
    return e;
}

void ProjectController::newProject(const Experiment &experiment)
{
    m_document->reset(experiment);
    leave();
    m_session->newTemporary();
}

void ProjectController::leave()
{
    m_runCount = 0;
    m_importedFrom.clear();
    emit leaving();
    applyTimeScale(m_chosenTimeScale > 0 ? m_chosenTimeScale : 1.0);
}

void ProjectController::setTimeScale(double scale)
{
    m_chosenTimeScale = scale;
    applyTimeScale(scale);
}

void ProjectController::applyTimeScale(double scale)
{
    m_timeScale = scale;
    emit timeScaleChanged(scale);
}

bool ProjectController::openDemo()
{
    QFile file(QStringLiteral(":/demo/demo-experiment.json")); // compiled in
    file.open(QIODevice::ReadOnly);
    const ExperimentReadResult r = readExperimentJson(file.readAll());
    if (!r.ok) {
        emit logged(QStringLiteral("error"),
            tr("The demo experiment could not be read: %1").arg(r.errors.join(QStringLiteral("; "))));
        newProject(blankExperiment());
        return false;
    }
    // The demo's own words in the window's language; the file keeps the English ones the CLI prints.
    [[maybe_unused]] static const char *const demoWords[] = {
        QT_TRANSLATE_NOOP(
            "ServeScope::ProjectController", "demo: vLLM vs SGLang and max_num_seqs on the local simulator"),
        QT_TRANSLATE_NOOP("ServeScope::ProjectController",
            "the same simulated GPU under SGLang: its flags (max_num_seqs becomes --max-running-requests), metric "
            "names "
            "and scheduler"),
    };
    Experiment demo = r.experiment;
    demo.name = tr(demo.name.toUtf8().constData());
    for (Variant &v : demo.variants) {
        if (!v.reason.isEmpty())
            v.reason = tr(v.reason.toUtf8().constData());
    }
    newProject(demo);
    // The demo runs as `--demo` does, whichever way it was opened, unless a time scale was chosen.
    if (m_chosenTimeScale <= 0)
        applyTimeScale(kDemoTimeScale);
    emit status(tr("Demo loaded: press Run (Ctrl+R) to measure it against the local simulator."), 0);
    return true;
}

void ProjectController::openProject(const QString &path)
{
    if (m_run->isRunning())
        return;
    // Nothing of the open project changes until the file is open (sessionOpened).
    m_session->open(path);
}

void ProjectController::sessionOpened(const QString &path, bool temporary, const QString &error, const QByteArray &json)
{
    if (!error.isEmpty()) {
        // The reason names the file already ("PATH: why").
        emit logged(QStringLiteral("error"), tr("Cannot open %1").arg(error));
        emit status(tr("Cannot open %1").arg(QFileInfo(path).fileName()), 0);
        showWarning(m_window, tr("Cannot open the project"), tr("Cannot open %1").arg(error));
        emit openFailed(path, error); // the open project's check, if trying this file stopped it, starts again
        return;
    }
    if (std::exchange(m_checking, false))
        emit checking(QString()); // the check of the project left was stopped unanswered
    // The project is replaced only now that the new one is open; a new project's experiment is
    // already in the document.
    if (!temporary) {
        const ExperimentReadResult r = json.isEmpty() ? ExperimentReadResult() : deserializeExperiment(json);
        m_document->reset(r.ok ? r.experiment : Experiment());
        leave();
        addRecent(path);
    }
    m_hasProject = true;
    emit opened(path, temporary);
    emit modifiedChanged();
    m_session->listRuns();
    // The header was checked before opening; every page is checked now, behind the listing.
    if (!temporary) {
        m_checking = true;
        emit checking(tr("Checking %1…").arg(QFileInfo(path).fileName()));
        m_session->checkIntegrity();
    }
}

void ProjectController::saveProject()
{
    if (!m_hasProject)
        return;
    if (m_session->isTemporary()) {
        chooseSaveAs();
        return;
    }
    m_session->saveExperiment(m_document->experiment().name, serializeExperiment(m_document->experiment()));
}

void ProjectController::chooseSaveAs()
{
    // Proposed: the experiment's name, beside the project when it has a folder of its own.
    const QString name = fileNameFor(m_document->experiment().name, QStringLiteral(".servescope"));
    const QString proposed
        = m_session->isTemporary() ? name : QFileInfo(m_session->path()).absoluteDir().filePath(name);
    QFileDialog *dialog = chooseFile(
        m_window, true, tr("Save project as"), tr("ServeScope projects (*.servescope)"),
        [this](const QString &p) {
            saveProjectAs(p.endsWith(QLatin1String(".servescope")) ? p : p + QStringLiteral(".servescope"));
        },
        proposed);
    // No file chosen: whatever waited for the save does not happen.
    connect(dialog, &QDialog::rejected, this, [this] { m_afterSave = nullptr; });
}

void ProjectController::saveProjectAs(const QString &path)
{
    if (!m_hasProject || m_run->isRunning())
        return;
    // Both go to the project thread in order: the experiment row lands before the copy is made.
    m_session->saveExperiment(m_document->experiment().name, serializeExperiment(m_document->experiment()));
    m_session->saveAs(path);
}

void ProjectController::runStored()
{
    ++m_runCount;
}

QStringList ProjectController::recent() const
{
    return QSettings().value(QStringLiteral("recentProjects")).toStringList();
}

void ProjectController::addRecent(const QString &path)
{
    // Whole paths: a file opened by a name relative to the folder the window started in opens again from
    // anywhere.
    const QString whole = QFileInfo(path).absoluteFilePath();
    QStringList list = recent();
    list.removeAll(whole);
    list.prepend(whole);
    QSettings().setValue(QStringLiteral("recentProjects"), list.mid(0, 8));
    emit recentChanged(recent());
}

void ProjectController::continueAfterSave(const QString &error)
{
    std::function<void()> next = std::exchange(m_afterSave, nullptr);
    if (next && error.isEmpty() && !hasUnsavedWork())
        next();
}

bool ProjectController::hasUnsavedRuns() const
{
    // An unsaved project lives in a temporary file: leaving it loses its runs.
    return m_hasProject && m_session->isTemporary() && m_runCount > 0;
}

bool ProjectController::hasUnsavedWork() const
{
    return m_hasProject && (m_document->isModified() || hasUnsavedRuns());
}

void ProjectController::whenSafeToLeave(std::function<void()> proceed)
{
    if (m_run->isRunning()) {
        emit status(tr("A run is in progress: cancel it first."), 5000);
        return;
    }
    if (!hasUnsavedWork()) {
        proceed();
        return;
    }
    const bool unsavedRuns = hasUnsavedRuns();
    auto *box = new QMessageBox(QMessageBox::Warning, tr("Unsaved changes"),
        unsavedRuns ? tr("This project has not been saved yet; its runs will be lost.")
                    : tr("The experiment has changes that are not saved."),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, m_window);
    box->setObjectName(QStringLiteral("unsavedBox"));
    box->setInformativeText(tr("Save before leaving this project?"));
    box->setDefaultButton(QMessageBox::Save);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::finished, this, [this, box, proceed] {
        switch (box->standardButton(box->clickedButton())) {
        case QMessageBox::Discard:
            proceed();
            break;
        case QMessageBox::Save:
            m_afterSave = proceed; // the user leaves once it is saved
            saveProject();
            break;
        default:
            break;
        }
    });
    box->open();
}

bool ProjectController::needsProjectFirst(const std::function<void()> &then)
{
    if (m_hasProject && !m_session->path().isEmpty())
        return false;
    // A new project first; `then` follows once it is open.
    auto *once = new QObject(this);
    connect(m_session, &ProjectSession::opened, once, [once, then](const QString &, bool, const QString &error) {
        once->deleteLater();
        if (error.isEmpty())
            then();
    });
    newProject(blankExperiment());
    return true;
}

} // namespace ServeScope

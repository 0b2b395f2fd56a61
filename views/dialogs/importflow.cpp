// SPDX-License-Identifier: MIT
#include "importflow.h"

#include "backgroundjob.h"

#include "commanddialog.h"
#include "experimentdocument.h"
#include "filedialogs.h"
#include "io/experimentfile.h"
#include "postrun/shardmerge.h"
#include "projectcontroller.h"
#include "projectsession.h"
#include "resultimportdialog.h"
#include "runsession.h"

#include <QFile>
#include <QFileInfo>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QThread>
#include <QUrl>

#include <memory>

namespace ServeScope {

namespace {

// Shell snippets dropped as files: a command line, not an experiment.
bool isCommandFile(const QString &path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    return suffix == QLatin1String("sh") || suffix == QLatin1String("txt");
}

} // namespace

ImportFlow::ImportFlow(QWidget *window, ExperimentDocument *document, ProjectSession *session,
    ProjectController *project, const RunSession *run)
    : QObject(window)
    , m_window(window)
    , m_document(document)
    , m_session(session)
    , m_project(project)
    , m_run(run)
{
}

bool ImportFlow::refusedWhileRunning(const QString &what, const QString &text)
{
    if (!m_run->isRunning())
        return false;
    showWarning(m_window, what, text);
    return true;
}

bool ImportFlow::importExperimentFile(const QString &path, QString *error)
{
    const ExperimentReadResult r = loadExperimentFile(path);
    if (!r.ok) {
        const QString why = r.shownLines(r.errors).join(QLatin1Char('\n'));
        if (error)
            *error = why;
        emit logged(QStringLiteral("error"), tr("Cannot import %1:\n%2").arg(QFileInfo(path).fileName(), why));
        emit status(tr("Import failed; see the log."), 6000);
        return false;
    }
    if (!m_project->hasProject())
        m_project->newProject(ProjectController::blankExperiment());
    m_document->apply(r.experiment, tr("Import %1").arg(QFileInfo(path).fileName()));
    // What an imported layout held that ServeScope ignores is said, not dropped silently.
    for (const QString &w : r.shownLines(r.warnings))
        emit logged(QStringLiteral("warning"), QFileInfo(path).fileName() + QLatin1String(": ") + w);
    emit status(r.warnings.isEmpty()
            ? tr("Imported %1").arg(QFileInfo(path).fileName())
            : tr("Imported %1 with %n warning(s); see the log.", nullptr, int(r.warnings.size()))
                  .arg(QFileInfo(path).fileName()),
        4000);
    return true;
}

void ImportFlow::chooseExperimentFile()
{
    chooseFile(m_window, false, tr("Import experiment"), tr("Experiment files (*.json *.toml)"),
        [this](const QString &p) { importExperimentFile(p); });
}

bool ImportFlow::exportExperimentFile(const QString &path)
{
    const QString error = saveExperimentFile(path, m_document->experiment());
    if (!error.isEmpty())
        emit logged(QStringLiteral("error"), tr("Export failed: %1").arg(error));
    return error.isEmpty();
}

void ImportFlow::pasteCommand(const QString &text)
{
    if (refusedWhileRunning(
            tr("Paste command line"), tr("The experiment can be changed when the run in progress has ended.")))
        return;
    auto *dialog = new CommandDialog(text, m_window);
    dialog->setObjectName(QStringLiteral("commandDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        if (!m_project->hasProject())
            m_project->newProject(ProjectController::blankExperiment());
        const CommandImportResult r = dialog->result();
        m_document->apply(mergeImportedCommand(m_document->experiment(), r), tr("Paste command line"));
        for (const QString &w : r.warnings)
            emit logged(QStringLiteral("warning"), w);
        emit status(tr("Command line applied to the experiment"), 4000);
    });
    dialog->open();
}

bool ImportFlow::accepts(const QMimeData *mime)
{
    if (mime->hasText() && !mime->hasUrls())
        return true; // a command line dragged from a terminal or a browser
    for (const QUrl &url : mime->urls()) {
        const QString suffix = QFileInfo(url.toLocalFile()).suffix().toLower();
        if (suffix == QLatin1String("json") || suffix == QLatin1String("toml") || suffix == QLatin1String("jsonl")
            || suffix == QLatin1String("yaml") || suffix == QLatin1String("yml")
            || suffix == QLatin1String("servescope") || isCommandFile(url.toLocalFile()))
            return true;
    }
    return false;
}

void ImportFlow::drop(const QMimeData *mime)
{
    if (mime->hasText() && !mime->hasUrls()) {
        pasteCommand(mime->text());
        return;
    }
    QStringList results;
    for (const QUrl &url : mime->urls()) {
        const QString path = url.toLocalFile();
        if (isCommandFile(path)) {
            QFile f(path);
            if (f.open(QIODevice::ReadOnly))
                pasteCommand(QString::fromUtf8(f.read(kMaxExperimentFileBytes)));
            else
                emit logged(QStringLiteral("error"), tr("Cannot read %1: %2").arg(path, f.errorString()));
            break;
        }
        if (path.endsWith(QLatin1String(".servescope"))) {
            m_project->openProject(path);
            break;
        }
        if (ResultImportDialog::isResultFile(path)) {
            results << path;
            continue;
        }
        importExperimentFile(path);
    }
    if (!results.isEmpty())
        importResults(results);
}

void ImportFlow::importResults(const QStringList &files)
{
    if (refusedWhileRunning(tr("Import results"), tr("Results can be imported when the run in progress has ended.")))
        return;
    if (m_project->needsProjectFirst([this, files] { importResults(files); }))
        return;
    QList<qint64> existing;
    QStringList again;
    for (const QString &f : files) {
        const QList<qint64> ids = m_project->runsImportedFrom(QFileInfo(f).absoluteFilePath());
        if (!ids.isEmpty()) {
            existing << ids;
            again << QFileInfo(f).fileName();
        }
    }
    if (existing.isEmpty()) {
        openImportDialog(files);
        return;
    }
    // The same file twice makes duplicate runs: ask whether the runs it made are what is wanted.
    auto *box = new QMessageBox(QMessageBox::Question, tr("Already imported"),
        tr("This project already holds the runs imported from %1.").arg(again.join(QStringLiteral(", "))),
        QMessageBox::NoButton, m_window);
    box->setObjectName(QStringLiteral("reimportBox"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    QPushButton *open = box->addButton(tr("Open the existing runs"), QMessageBox::AcceptRole);
    QPushButton *import = box->addButton(tr("Import again"), QMessageBox::ActionRole);
    open->setObjectName(QStringLiteral("openExisting"));
    import->setObjectName(QStringLiteral("importAgain"));
    box->addButton(QMessageBox::Cancel);
    box->setDefaultButton(open);
    connect(box, &QMessageBox::finished, this, [this, box, open, import, existing, files] {
        if (box->clickedButton() == open)
            emit compareWanted(existing);
        else if (box->clickedButton() == import)
            openImportDialog(files);
    });
    box->open();
}

void ImportFlow::openImportDialog(const QStringList &files)
{
    auto *dialog = new ResultImportDialog(m_session->path(), files, m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &ResultImportDialog::imported, m_session, &ProjectSession::listRuns);
    dialog->open();
}

void ImportFlow::mergeShardFiles(const QStringList &files)
{
    if (files.isEmpty()
        || refusedWhileRunning(tr("Merge shards"), tr("Shards can be merged when the run in progress has ended.")))
        return;
    if (m_project->needsProjectFirst([this, files] { mergeShardFiles(files); }))
        return;
    QList<ShardSource> sources;
    for (const QString &f : files)
        sources << ShardSource { f, QString() };
    emit status(tr("Merging %n shard(s)…", nullptr, int(files.size())), 0);
    auto merge = std::make_shared<ShardMerge>();
    const auto work
        = [merge, sources, target = m_session->path()] { *merge = mergeShards(sources, target, QString()); };
    runInBackground(this, QStringLiteral("shard-merge"), work, [this, merge] {
        if (!merge->ok) {
            emit status(tr("The shards were not merged."), 6000);
            showWarning(m_window, tr("Merge shards"), tr("The shards were not merged: %1").arg(merge->error));
            return;
        }
        // The merged run is listed, then selected.
        auto *once = new QObject(this);
        connect(m_session, &ProjectSession::runsListed, once, [this, once, id = merge->runId] {
            once->deleteLater();
            emit compareWanted({ id });
        });
        m_session->listRuns();
        QString text = tr("%n shard(s) merged into run %1: %2 requests completed, %3 failed.", nullptr, merge->shards)
                           .arg(merge->runId)
                           .arg(merge->completed)
                           .arg(merge->failed);
        text += u'\n'
            + tr("The shards' first requests were %1 ms apart; at the widest point (%2) %3 ms.")
                  .arg(QString::number(merge->startSpreadMs, 'f', 1), merge->pointSpreadAt,
                      QString::number(merge->pointSpreadMs, 'f', 1));
        if (!merge->findings.isEmpty()) {
            text += u'\n' + tr("Findings:");
            for (const Reason &f : std::as_const(merge->findings))
                text += u'\n' + f.translated();
        }
        emit status(tr("Shards merged into run %1.").arg(merge->runId), 6000);
        auto *box = new QMessageBox(merge->findings.isEmpty() ? QMessageBox::Information : QMessageBox::Warning,
            tr("Merge shards"), text, QMessageBox::Ok, m_window);
        box->setObjectName(QStringLiteral("mergeShardsResult"));
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    });
}

} // namespace ServeScope

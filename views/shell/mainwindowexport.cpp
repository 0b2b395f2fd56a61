// SPDX-License-Identifier: MIT
// MainWindow: exports of what the Results page shows, comparing runs, and asking before a project
// with unsaved edits or runs is left.
#include "mainwindow.h"

#include "charts/chartexporter.h"
#include "charts/reportwriter.h"
#include "experimentdocument.h"
#include "metrics/delta.h"
#include "projectsession.h"
#include "projecttree.h"
#include "resultsview.h"
#include "runsession.h"

#include <QActionGroup>
#include <QApplication>
#include <QClipboard>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QMap>
#include <QMenu>
#include <QMessageBox>
#include <QProgressDialog>
#include <QPushButton>
#include <QSaveFile>
#include <QSettings>
#include <QSpinBox>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>

namespace ServeScope {

namespace {

struct SizePreset {
    const char *label;
    QSize size; ///< empty: the chart's size in the window (at least the legible minimum)
    qreal scale;
};

const SizePreset kPresets[] = {
    { QT_TRANSLATE_NOOP("ServeScope::MainWindow", "As shown in the window (at least 1200 × 700)"), QSize(), 1.0 },
    { QT_TRANSLATE_NOOP("ServeScope::MainWindow", "Report (1200 × 700)"), QSize(1200, 700), 1.0 },
    { QT_TRANSLATE_NOOP("ServeScope::MainWindow", "Slide (1600 × 900)"), QSize(1600, 900), 1.0 },
    { QT_TRANSLATE_NOOP("ServeScope::MainWindow", "Slide, high DPI (1600 × 900 at 2×)"), QSize(1600, 900), 2.0 },
};
const int kCustomPreset = int(std::size(kPresets)); ///< the size the user typed (export/customSize)

} // namespace

void MainWindow::createExportActions(QMenu *file)
{
    QMenu *exports = file->addMenu(tr("E&xport results"));
    QAction *chart = exports->addAction(tr("Export &chart…"), QKeySequence(tr("Ctrl+Shift+E")), this, [this] {
        chooseExportFile(tr("Export chart"), tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"),
            QStringLiteral("png"), [this](const QString &p) { reportExport(exportChart(p, &m_exportError), p); });
    });
    QAction *report = exports->addAction(tr("Export &report…"), QKeySequence(tr("Ctrl+Shift+R")), this, [this] {
        chooseExportFile(tr("Export report"), tr("HTML report (*.html);;PDF report (*.pdf)"), QStringLiteral("html"),
            [this](const QString &p) { exportReportWithProgress(p); });
    });
    QAction *table = exports->addAction(tr("Export &table (CSV)…"), QKeySequence(tr("Ctrl+Shift+T")), this, [this] {
        chooseExportFile(tr("Export table"), tr("CSV (*.csv)"), QStringLiteral("csv"),
            [this](const QString &p) { reportExport(exportTable(p, &m_exportError), p); });
    });
    QAction *copy
        = exports->addAction(tr("C&opy chart"), QKeySequence(tr("Ctrl+Shift+C")), this, &MainWindow::copyChart);
    QMenu *sizes = exports->addMenu(tr("Chart &size"));
    auto *group = new QActionGroup(this);
    const int chosen = QSettings().value(QStringLiteral("export/chartPreset"), 1).toInt();
    for (int i = 0; i < int(std::size(kPresets)); ++i) {
        QAction *a = sizes->addAction(tr(kPresets[i].label));
        a->setCheckable(true);
        a->setChecked(i == chosen);
        group->addAction(a);
        connect(a, &QAction::triggered, this, [i] { QSettings().setValue(QStringLiteral("export/chartPreset"), i); });
    }
    QAction *custom = sizes->addAction(tr("Custom size…"));
    custom->setObjectName(QStringLiteral("customChartSize"));
    custom->setCheckable(true);
    custom->setChecked(chosen == kCustomPreset);
    group->addAction(custom);
    connect(custom, &QAction::triggered, this, &MainWindow::chooseCustomChartSize);
    m_exportActions = { chart, report, table, copy };
    for (QAction *a : std::as_const(m_exportActions))
        a->setEnabled(false);
    m_results->setChartActions({ chart, copy });
    connect(m_results, &ResultsView::promptsExportWanted, this, &MainWindow::choosePromptsFolder);
    connect(m_session, &ProjectSession::promptsExported, this, &MainWindow::showExportedPrompts);
}

void MainWindow::choosePromptsFolder(qint64 runId, const QString &variant, int point, int repeat, const QString &label)
{
    auto *dialog
        = new QFileDialog(this, tr("Folder for the prompts of %1, %2, repeat %3").arg(variant, label).arg(repeat),
            QSettings().value(QStringLiteral("export/dir")).toString());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setFileMode(QFileDialog::Directory);
    dialog->setOption(QFileDialog::ShowDirsOnly);
    connect(dialog, &QFileDialog::fileSelected, this, [=, this](const QString &dir) {
        QSettings().setValue(QStringLiteral("export/dir"), dir);
        statusBar()->showMessage(tr("Exporting the prompts…"));
        m_session->exportPrompts(runId, variant, point, repeat, dir);
    });
    dialog->open();
}

void MainWindow::showExportedPrompts(
    const QStringList &files, const QStringList &commands, const QStringList &warnings, const QString &error)
{
    if (!error.isEmpty()) {
        statusBar()->clearMessage();
        appendLog(QStringLiteral("error"), tr("Prompt export failed: %1").arg(error));
        return showWarning(tr("The prompts cannot be exported"), error);
    }
    statusBar()->showMessage(tr("Exported %1").arg(QDir::toNativeSeparators(files.value(0))), 6000);
    auto *box = new QMessageBox(QMessageBox::Information, tr("Prompts exported"),
        tr("The point's prompts, in the order it sent them:\n\n%1 — vLLM's custom dataset\n%2 — ShareGPT, "
           "for SGLang\n\nThe commands that replay them are below; the key goes through OPENAI_API_KEY.")
            .arg(QDir::toNativeSeparators(files.value(0)), QDir::toNativeSeparators(files.value(1))),
        QMessageBox::Close, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    // Machine text: the commands and their warnings stay as the tools read them.
    box->setDetailedText(commands.join(u'\n') + (warnings.isEmpty() ? QString() : u'\n' + warnings.join(u'\n')));
    QPushButton *copy = box->addButton(tr("Copy commands"), QMessageBox::ActionRole);
    copy->disconnect(); // keep the box open after copying
    connect(
        copy, &QPushButton::clicked, this, [commands] { QApplication::clipboard()->setText(commands.join(u'\n')); });
    box->open();
}

Report::ExportOptions MainWindow::chartExportOptions() const
{
    const QSettings settings;
    const int i = std::clamp(settings.value(QStringLiteral("export/chartPreset"), 1).toInt(), 0, kCustomPreset);
    if (i == kCustomPreset) // what the user typed, even below the legible minimum
        return { settings.value(QStringLiteral("export/customSize"), kMinimumChartSize).toSize(), 1.0 };
    const SizePreset &p = kPresets[i];
    // "As shown" keeps what the window shows (series, zoom, scale) but lays it out at least at the
    // legible minimum: a laptop's chart view is far shorter than a readable exported chart.
    return { p.size.isEmpty() ? m_results->chartViewSize().expandedTo(kMinimumChartSize) : p.size, p.scale };
}

void MainWindow::chooseCustomChartSize()
{
    auto *dialog = new QDialog(this);
    dialog->setObjectName(QStringLiteral("customSizeDialog"));
    dialog->setWindowTitle(tr("Chart size"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    const QSize current = QSettings().value(QStringLiteral("export/customSize"), kMinimumChartSize).toSize();
    auto *width = new QSpinBox;
    auto *height = new QSpinBox;
    width->setObjectName(QStringLiteral("customWidth"));
    height->setObjectName(QStringLiteral("customHeight"));
    for (QSpinBox *spin : { width, height }) {
        spin->setRange(200, 8000);
        spin->setSuffix(tr(" px"));
    }
    width->setValue(current.width());
    height->setValue(current.height());
    auto *form = new QFormLayout(dialog);
    auto *note = new QLabel(
        tr("Charts are legible from 1200 × 700; a smaller size is used as typed, for copy and every export."));
    note->setWordWrap(true);
    form->addRow(note);
    form->addRow(tr("Width"), width);
    form->addRow(tr("Height"), height);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    connect(dialog, &QDialog::accepted, this, [this, width, height] {
        setCustomChartSize({ width->value(), height->value() });
    });
    // Cancel keeps the size that was chosen before, and its tick in the menu.
    connect(dialog, &QDialog::rejected, this, [this] { syncChartSizeMenu(); });
    dialog->open();
}

void MainWindow::setCustomChartSize(const QSize &size)
{
    QSettings settings;
    settings.setValue(QStringLiteral("export/customSize"), size);
    settings.setValue(QStringLiteral("export/chartPreset"), kCustomPreset);
    syncChartSizeMenu();
}

void MainWindow::syncChartSizeMenu()
{
    auto *custom = findChild<QAction *>(QStringLiteral("customChartSize"));
    if (!custom || !custom->actionGroup())
        return;
    const int chosen = QSettings().value(QStringLiteral("export/chartPreset"), 1).toInt();
    const QList<QAction *> actions = custom->actionGroup()->actions();
    for (int i = 0; i < actions.size(); ++i)
        actions[i]->setChecked(i == chosen);
    const QSize size = QSettings().value(QStringLiteral("export/customSize"), kMinimumChartSize).toSize();
    custom->setText(chosen == kCustomPreset ? tr("Custom size (%1 × %2)…").arg(size.width()).arg(size.height())
                                            : tr("Custom size…"));
}

void MainWindow::chooseExportFile(
    const QString &title, const QString &filter, const QString &suffix, std::function<void(const QString &)> done)
{
    auto *dialog = new QFileDialog(this, title, QSettings().value(QStringLiteral("export/dir")).toString(), filter);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setDefaultSuffix(suffix);
    connect(dialog, &QFileDialog::fileSelected, this, [done](const QString &path) {
        QSettings().setValue(QStringLiteral("export/dir"), QFileInfo(path).absolutePath());
        done(path);
    });
    dialog->open();
}

void MainWindow::reportExport(bool ok, const QString &path)
{
    if (ok)
        statusBar()->showMessage(tr("Exported %1").arg(QDir::toNativeSeparators(path)), 6000);
    else
        appendLog(QStringLiteral("error"), tr("Export failed: %1").arg(m_exportError));
}

bool MainWindow::exportChart(const QString &path, QString *error)
{
    if (!m_results->hasResults()) {
        *error = tr("there are no results to export yet");
        return false;
    }
    return Report::ChartExporter::exportToFile(m_results->visibleChart(), path, chartExportOptions(), error);
}

bool MainWindow::exportReport(const QString &path, QString *error)
{
    if (!m_results->hasResults()) {
        *error = tr("there are no results to export yet");
        return false;
    }
    return Report::ReportWriter::writeFile(m_results->input(), path, error);
}

void MainWindow::exportReportWithProgress(const QString &path)
{
    // The report renders every chart: say so while it is written.
    auto *progress = new QProgressDialog(tr("Writing the report…"), QString(), 0, 0, this);
    progress->setAttribute(Qt::WA_DeleteOnClose);
    progress->setWindowModality(Qt::WindowModal);
    progress->setMinimumDuration(0);
    progress->show();
    QTimer::singleShot(50, this, [this, path, progress] {
        reportExport(exportReport(path, &m_exportError), path);
        progress->close();
    });
}

bool MainWindow::exportTable(const QString &path, QString *error)
{
    if (!m_results->hasResults()) {
        *error = tr("there are no results to export yet");
        return false;
    }
    const QByteArray data = m_results->tableCsv();
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(data) != data.size() || !file.commit()) {
        *error = tr("cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

void MainWindow::copyChart()
{
    if (!m_results->hasResults())
        return;
    // The size chosen under Chart size, as every export uses it.
    const Report::ExportOptions o = chartExportOptions();
    const QImage image = Report::ChartExporter::renderImage(m_results->visibleChart(), o);
    QApplication::clipboard()->setImage(image);
    statusBar()->showMessage(
        tr("Chart copied to the clipboard (%1 × %2 px).").arg(image.width()).arg(image.height()), 4000);
}

void MainWindow::compareRuns(const QList<qint64> &ids)
{
    m_tree->selectRuns(ids);
}

void MainWindow::rerunToCheck(qint64 runId)
{
    if (!m_hasProject)
        return;
    if (m_run->isRunning()) {
        statusBar()->showMessage(tr("A run is in progress: cancel it first."), 5000);
        return;
    }
    m_session->loadRunConfig(runId);
}

void MainWindow::reportCheck(qint64 earlierId, const RerunCheck &check, const QString &error)
{
    if (!error.isEmpty()) {
        appendLog(
            QStringLiteral("error"), tr("The rerun of run %1 could not be checked: %2").arg(earlierId).arg(error));
        return;
    }
    QStringList points;
    for (const RerunCheck::Point &p : check.points) {
        const QString point = p.variant + QLatin1Char('/') + p.label;
        points << (p.outcome == QLatin1String("agree") ? tr("%1: agree").arg(point)
                : p.outcome == QLatin1String("missing")
                ? tr("%1: missing from the rerun").arg(point)
                : tr("%1: differ (%2)").arg(point, p.differing.join(QStringLiteral(", "))));
    }
    for (const QString &p : std::as_const(points))
        appendLog(QStringLiteral("check"), p);
    for (const QString &d : check.environment)
        appendLog(QStringLiteral("check"), tr("environment: %1").arg(d));
    const bool all = check.allAgree();
    const QString summary = all
        ? tr("Rerun agrees with run %1 within 5% at every point.").arg(earlierId)
        : tr("Rerun differs from run %1 at some points; see the log and the delta table.").arg(earlierId);
    appendLog(all ? QStringLiteral("info") : QStringLiteral("warning"), summary);
    statusBar()->showMessage(summary, 10000);
    emit checkFinished(points, all);
}

void MainWindow::showRuns(const QList<qint64> &ids)
{
    if (ids.isEmpty())
        return;
    statusBar()->showMessage(
        ids.size() > 1 ? tr("Comparing %n runs…", nullptr, int(ids.size())) : tr("Loading the run…"));
    m_session->loadRuns(ids);
}

void MainWindow::continueAfterSave(const QString &error)
{
    std::function<void()> next = std::exchange(m_afterSave, nullptr);
    if (next && error.isEmpty() && !hasUnsavedWork())
        next();
}

bool MainWindow::hasUnsavedRuns() const
{
    // An unsaved project lives in a temporary file: leaving it loses its runs.
    return m_hasProject && m_session->isTemporary() && m_runCount > 0;
}

bool MainWindow::hasUnsavedWork() const
{
    return m_hasProject && (m_document->isModified() || hasUnsavedRuns());
}

void MainWindow::whenSafeToLeave(std::function<void()> proceed)
{
    if (m_run->isRunning()) {
        statusBar()->showMessage(tr("A run is in progress: cancel it first."), 5000);
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
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, this);
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

} // namespace ServeScope

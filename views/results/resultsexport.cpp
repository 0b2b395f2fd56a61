// SPDX-License-Identifier: MIT
#include "resultsexport.h"

#include "projectsession.h"
#include "resultsview.h"

#include "charts/chartexporter.h"
#include "charts/reportwriter.h"

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
#include <QMenu>
#include <QMessageBox>
#include <QProgressDialog>
#include <QPushButton>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSettings>
#include <QSpinBox>
#include <QTimer>

namespace ServeScope {

namespace {

struct SizePreset {
    const char *label;
    QSize size; ///< empty: the chart's size in the window (at least the legible minimum)
    qreal scale;
};

const SizePreset kPresets[] = {
    { QT_TRANSLATE_NOOP("ServeScope::ResultsExport", "As shown in the window (at least 1200 × 700)"), QSize(), 1.0 },
    { QT_TRANSLATE_NOOP("ServeScope::ResultsExport", "Report (1200 × 700)"), QSize(1200, 700), 1.0 },
    { QT_TRANSLATE_NOOP("ServeScope::ResultsExport", "Slide (1600 × 900)"), QSize(1600, 900), 1.0 },
    { QT_TRANSLATE_NOOP("ServeScope::ResultsExport", "Slide, high DPI (1600 × 900 at 2×)"), QSize(1600, 900), 2.0 },
};
const int kCustomPreset = int(std::size(kPresets)); ///< the size the user typed (export/customSize)

} // namespace

ResultsExport::ResultsExport(ResultsView *results, ProjectSession *session, QWidget *window)
    : QObject(window)
    , m_results(results)
    , m_session(session)
    , m_window(window)
{
}

void ResultsExport::createActions(QMenu *file)
{
    QMenu *exports = file->addMenu(tr("E&xport results"));
    QAction *chart = exports->addAction(tr("Export &chart…"), QKeySequence(tr("Ctrl+Shift+E")), this, [this] {
        chooseExportFile(tr("Export chart"), tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"),
            QStringLiteral("png"), QStringLiteral("chart"),
            [this](const QString &p) { reportExport(exportChart(p, &m_exportError), p); });
    });
    QAction *report = exports->addAction(tr("Export &report…"), QKeySequence(tr("Ctrl+Shift+R")), this, [this] {
        chooseExportFile(tr("Export report"), tr("HTML report (*.html);;PDF report (*.pdf)"), QStringLiteral("html"),
            QStringLiteral("report"), [this](const QString &p) { exportReportWithProgress(p); });
    });
    QAction *table = exports->addAction(tr("Export &table (CSV)…"), QKeySequence(tr("Ctrl+Shift+T")), this, [this] {
        chooseExportFile(tr("Export table"), tr("CSV (*.csv)"), QStringLiteral("csv"), QStringLiteral("table"),
            [this](const QString &p) { reportExport(exportTable(p, &m_exportError), p); });
    });
    QAction *copy
        = exports->addAction(tr("C&opy chart"), QKeySequence(tr("Ctrl+Shift+C")), this, &ResultsExport::copyChart);
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
    QAction *custom = m_custom = sizes->addAction(tr("Custom size…"));
    custom->setObjectName(QStringLiteral("customChartSize"));
    custom->setCheckable(true);
    custom->setChecked(chosen == kCustomPreset);
    group->addAction(custom);
    connect(custom, &QAction::triggered, this, &ResultsExport::chooseCustomChartSize);
    m_actions = { chart, report, table, copy };
    for (QAction *a : std::as_const(m_actions))
        a->setEnabled(false);
    m_results->setChartActions({ chart, copy });
    connect(m_results, &ResultsView::promptsExportWanted, this, &ResultsExport::choosePromptsFolder);
    connect(m_session, &ProjectSession::promptsExported, this, &ResultsExport::showExportedPrompts);
}

void ResultsExport::choosePromptsFolder(
    qint64 runId, const QString &variant, int point, int repeat, const QString &label)
{
    auto *dialog
        = new QFileDialog(m_window, tr("Folder for the prompts of %1, %2, repeat %3").arg(variant, label).arg(repeat),
            QSettings().value(QStringLiteral("export/dir")).toString());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setFileMode(QFileDialog::Directory);
    dialog->setOption(QFileDialog::ShowDirsOnly);
    connect(dialog, &QFileDialog::fileSelected, this, [=, this](const QString &dir) {
        QSettings().setValue(QStringLiteral("export/dir"), dir);
        emit status(tr("Exporting the prompts…"), 0);
        m_session->exportPrompts(runId, variant, point, repeat, dir);
    });
    dialog->open();
}

void ResultsExport::showExportedPrompts(
    const QStringList &files, const QStringList &commands, const QStringList &warnings, const QString &error)
{
    if (!error.isEmpty()) {
        emit status(QString(), 0);
        emit logged(QStringLiteral("error"), tr("Prompt export failed: %1").arg(error));
        emit warning(tr("The prompts cannot be exported"), error);
        return;
    }
    emit status(tr("Exported %1").arg(QDir::toNativeSeparators(files.value(0))), 6000);
    auto *box = new QMessageBox(QMessageBox::Information, tr("Prompts exported"),
        tr("The point's prompts, in the order it sent them:\n\n%1 — vLLM's custom dataset\n%2 — ShareGPT, "
           "for SGLang\n\nThe commands that replay them are below; the key goes through OPENAI_API_KEY.")
            .arg(QDir::toNativeSeparators(files.value(0)), QDir::toNativeSeparators(files.value(1))),
        QMessageBox::Close, m_window);
    box->setAttribute(Qt::WA_DeleteOnClose);
    // Machine text: the commands and their warnings stay as the tools read them.
    box->setDetailedText(commands.join(u'\n') + (warnings.isEmpty() ? QString() : u'\n' + warnings.join(u'\n')));
    QPushButton *copy = box->addButton(tr("Copy commands"), QMessageBox::ActionRole);
    copy->disconnect(); // keep the box open after copying
    connect(
        copy, &QPushButton::clicked, this, [commands] { QApplication::clipboard()->setText(commands.join(u'\n')); });
    box->open();
}

Report::ExportOptions ResultsExport::chartExportOptions() const
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

void ResultsExport::chooseCustomChartSize()
{
    auto *dialog = new QDialog(m_window);
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

void ResultsExport::setCustomChartSize(const QSize &size)
{
    QSettings settings;
    settings.setValue(QStringLiteral("export/customSize"), size);
    settings.setValue(QStringLiteral("export/chartPreset"), kCustomPreset);
    syncChartSizeMenu();
}

void ResultsExport::syncChartSizeMenu()
{
    QAction *custom = m_custom;
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

QString ResultsExport::projectFolder() const
{
    // An unsaved project lives in a temporary folder, which is no place for a report.
    return m_session->path().isEmpty() || m_session->isTemporary() ? QString()
                                                                   : QFileInfo(m_session->path()).absolutePath();
}

QString ResultsExport::suggestedName(const QString &kind, const QString &suffix) const
{
    // "<project>-run1-vs-run2-report.html": what is shown and what the file holds.
    QString name
        = projectFolder().isEmpty() ? QStringLiteral("servescope") : QFileInfo(m_session->path()).completeBaseName();
    QStringList runs;
    for (const Report::ReportRun &run : m_results->input().runs) {
        if (run.id > 0)
            runs << QStringLiteral("run%1").arg(run.id);
    }
    if (!runs.isEmpty())
        name += u'-' + runs.join(QStringLiteral("-vs-"));
    return name + u'-' + kind + u'.' + suffix;
}

void ResultsExport::chooseExportFile(const QString &title, const QString &filter, const QString &suffix,
    const QString &kind, std::function<void(const QString &)> done)
{
    // The folder of the last export, else the project's, else home.
    QString dir = QSettings().value(QStringLiteral("export/dir")).toString();
    if (dir.isEmpty() || !QFileInfo(dir).isDir())
        dir = projectFolder().isEmpty() ? QDir::homePath() : projectFolder();
    auto *dialog = new QFileDialog(m_window, title, dir, filter);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setDefaultSuffix(suffix);
    dialog->selectFile(suggestedName(kind, suffix));
    connect(dialog, &QFileDialog::filterSelected, dialog, [dialog](const QString &chosenFilter) {
        static const QRegularExpression extension(QStringLiteral("\\*\\.(\\w+)"));
        const QRegularExpressionMatch m = extension.match(chosenFilter);
        const QStringList files = dialog->selectedFiles();
        if (!m.hasMatch() || files.isEmpty())
            return;
        dialog->setDefaultSuffix(m.captured(1));
        dialog->selectFile(QFileInfo(files.first()).completeBaseName() + u'.' + m.captured(1));
    });
    connect(dialog, &QFileDialog::fileSelected, this, [done](const QString &path) {
        QSettings().setValue(QStringLiteral("export/dir"), QFileInfo(path).absolutePath());
        done(path);
    });
    dialog->open();
}

void ResultsExport::reportExport(bool ok, const QString &path)
{
    // Said on the page, not only in the status bar or the log (which the Results page does not show).
    if (ok) {
        emit status(tr("Exported %1").arg(QDir::toNativeSeparators(path)), 6000);
        m_results->showNotice(
            tr("Exported %1").arg(QDir::toNativeSeparators(path)), false, QFileInfo(path).absolutePath());
    } else {
        emit logged(QStringLiteral("error"), tr("Export failed: %1").arg(m_exportError));
        m_results->showNotice(tr("Export failed: %1").arg(m_exportError), true);
    }
}

bool ResultsExport::exportChart(const QString &path, QString *error)
{
    if (!m_results->hasResults()) {
        *error = tr("there are no results to export yet");
        return false;
    }
    return Report::ChartExporter::exportToFile(m_results->visibleChart(), path, chartExportOptions(), error);
}

bool ResultsExport::exportReport(const QString &path, QString *error)
{
    if (!m_results->hasResults()) {
        *error = tr("there are no results to export yet");
        return false;
    }
    return Report::ReportWriter::writeFile(m_results->input(), path, error);
}

void ResultsExport::exportReportWithProgress(const QString &path)
{
    // The report renders every chart: say so while it is written.
    auto *progress = new QProgressDialog(tr("Writing the report…"), QString(), 0, 0, m_window);
    progress->setAttribute(Qt::WA_DeleteOnClose);
    progress->setWindowModality(Qt::WindowModal);
    progress->setMinimumDuration(0);
    progress->show();
    QTimer::singleShot(50, this, [this, path, progress] {
        reportExport(exportReport(path, &m_exportError), path);
        progress->close();
    });
}

bool ResultsExport::exportTable(const QString &path, QString *error)
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

void ResultsExport::copyChart()
{
    if (!m_results->hasResults())
        return;
    // The size chosen under Chart size, as every export uses it.
    const Report::ExportOptions o = chartExportOptions();
    const QImage image = Report::ChartExporter::renderImage(m_results->visibleChart(), o);
    QApplication::clipboard()->setImage(image);
    const QString done = tr("Chart copied to the clipboard (%1 × %2 px).").arg(image.width()).arg(image.height());
    emit status(done, 4000);
    m_results->showNotice(done, false);
}

} // namespace ServeScope

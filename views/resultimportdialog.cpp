// SPDX-License-Identifier: MIT
#include "resultimportdialog.h"

#include "storage/storewriter.h"

#include <QDialogButtonBox>
#include <QFile>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QStyle>
#include <QThread>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace ServeScope {

ResultImportDialog::ResultImportDialog(const QString &projectPath, const QStringList &files, QWidget *parent)
    : QDialog(parent)
    , m_project(projectPath)
    , m_files(files)
    , m_status(new QLabel)
    , m_outcomes(new QTreeWidget)
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Close))
{
    setObjectName(QStringLiteral("resultImportDialog"));
    setWindowTitle(tr("Import results"));
    m_status->setWordWrap(true);
    m_outcomes->setObjectName(QStringLiteral("importOutcomes"));
    m_outcomes->setColumnCount(2);
    m_outcomes->setHeaderLabels({ tr("File / run"), tr("Outcome") });
    m_outcomes->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_outcomes->header()->setStretchLastSection(true);
    m_outcomes->setWordWrap(true);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_status);
    layout->addWidget(m_outcomes, 1);
    layout->addWidget(m_buttons);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    m_buttons->button(QDialogButtonBox::Close)->setEnabled(false);
    resize(820, 420);
    start();
}

ResultImportDialog::~ResultImportDialog()
{
    if (m_thread)
        m_thread->wait();
}

void ResultImportDialog::reject()
{
    if (!m_thread)
        QDialog::reject();
}

bool ResultImportDialog::isResultFile(const QString &path)
{
    if (path.endsWith(QLatin1String(".jsonl"), Qt::CaseInsensitive))
        return true;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return false;
    // Experiment files never carry a benchmark's counts; result files put them near the top.
    const QByteArray head = f.read(64 * 1024);
    return head.contains("\"completed\"")
        && (head.contains("\"duration\"") || head.contains("\"request_throughput\"") || head.contains("\"backend\""));
}

void ResultImportDialog::start()
{
    m_status->setText(
        tr("Importing %n file(s) into %1…", nullptr, int(m_files.size())).arg(QFileInfo(m_project).fileName()));
    auto outcomes = std::make_shared<QVector<ImportOutcome>>();
    auto error = std::make_shared<QString>();
    m_thread = QThread::create([project = m_project, files = m_files, outcomes, error] {
        StoreWriter writer;
        if (!writer.open(project, error.get()))
            return;
        ResultImporter importer(writer);
        for (const QString &file : files)
            outcomes->append(importer.importFile(file));
        writer.close();
    });
    connect(m_thread, &QThread::finished, this, [this, outcomes, error] {
        m_thread->deleteLater();
        m_thread = nullptr;
        showOutcomes(*outcomes, *error);
        emit imported();
    });
    m_thread->start();
}

void ResultImportDialog::showOutcomes(const QVector<ImportOutcome> &outcomes, const QString &error)
{
    m_buttons->button(QDialogButtonBox::Close)->setEnabled(true);
    if (!error.isEmpty()) {
        m_status->setText(tr("The project could not be opened for writing: %1").arg(error));
        return;
    }
    int runs = 0, failed = 0;
    for (const ImportOutcome &o : outcomes) {
        runs += int(o.runs.size());
        failed += o.failed() ? 1 : 0;
        auto *file = new QTreeWidgetItem(m_outcomes, { QFileInfo(o.path).fileName() });
        file->setToolTip(0, o.path);
        file->setIcon(
            0, style()->standardIcon(o.failed() ? QStyle::SP_MessageBoxWarning : QStyle::SP_DialogApplyButton));
        file->setText(1,
            o.failed() ? tr("%n run(s) created, %1 error(s)", nullptr, int(o.runs.size())).arg(o.errors.size())
                       : tr("%n run(s) created", nullptr, int(o.runs.size())));
        for (const ImportedRun &r : o.runs) {
            auto *item = new QTreeWidgetItem(file,
                { tr("Run %1: %2").arg(r.id).arg(r.name),
                    r.arrays ? tr("%n point(s), requests stored", nullptr, r.points)
                             : tr("%n point(s), statistics only", nullptr, r.points) });
            item->setToolTip(0, r.source);
            item->setToolTip(1,
                r.arrays ? tr("The file's per-request arrays are stored as requests: every statistic recomputes.")
                         : tr("The file has no per-request arrays: only the statistics it gives are stored, so "
                              "there are no bands and no percentiles other than the file's."));
        }
        // The file is the parent item: its messages are shown without the path.
        const QString prefix = o.path + QStringLiteral(": ");
        const auto add = [&](const QString &kind, QString text) {
            if (text.startsWith(prefix))
                text = text.mid(prefix.size());
            auto *item = new QTreeWidgetItem(file, { kind, text });
            item->setToolTip(1, text);
        };
        for (const QString &w : o.warnings)
            add(tr("Warning"), w);
        for (const QString &e : o.errors)
            add(tr("Error"), e);
    }
    m_outcomes->expandAll();
    m_status->setText(failed == 0
            ? tr("%n run(s) imported; they are in the project tree.", nullptr, runs)
            : tr("%n run(s) imported; %1 file(s) had errors (their other lines were imported).", nullptr, runs)
                  .arg(failed));
}

} // namespace ServeScope

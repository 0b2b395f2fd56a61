// SPDX-License-Identifier: MIT
#include "resultimportdialog.h"

#include "backgroundjob.h"
#include "origintext.h"

#include "import/resultverify.h"
#include "import/toolformat.h"
#include "storage/storewriter.h"

#include <QColor>
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

#include <algorithm>

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
    // The outcome takes what the names leave, at least three fifths, and wraps there; rows grow to fit.
    m_outcomes->header()->setSectionResizeMode(0, QHeaderView::Interactive);
    m_outcomes->header()->setStretchLastSection(true);
    m_outcomes->setWordWrap(true);
    connect(m_outcomes->header(), &QHeaderView::sectionResized, m_outcomes, &QTreeWidget::doItemsLayout);
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
    // Closed with the window during an import: the writer finishes the file it is on.
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
    if (head.contains("\"completed\"")
        && (head.contains("\"duration\"") || head.contains("\"request_throughput\"") || head.contains("\"backend\"")))
        return true;
    f.close();
    // Another benchmark tool's file (or one that looks like it, to say why it is refused).
    return readToolFile(path).kind != ToolFile::Kind::NotOther;
}

void ResultImportDialog::start()
{
    m_status->setText(
        tr("Importing %n file(s) into %1…", nullptr, int(m_files.size())).arg(QFileInfo(m_project).fileName()));
    auto outcomes = std::make_shared<QVector<ImportOutcome>>();
    auto checks = std::make_shared<QVector<QVector<LineCheck>>>();
    auto error = std::make_shared<QString>();
    const auto work = [project = m_project, files = m_files, outcomes, checks, error] {
        StoreWriter writer;
        if (!writer.open(project, error.get()))
            return;
        ResultImporter importer(writer);
        // As `import --verify`: every statistic of a line with arrays recomputed from them.
        importer.setLineCallback([checks](const ResultRun &run, const QString &) {
            checks->last().append(
                { run.line, run.hasArrays, run.hasArrays ? verifyResultRun(run) : QVector<KeyCheck>() });
        });
        for (const QString &file : files) {
            checks->append(QVector<LineCheck>());
            outcomes->append(importer.importFile(file));
        }
        writer.close();
    };
    m_thread = runInBackground(this, QStringLiteral("result-import"), work, [this, outcomes, checks, error] {
        m_thread = nullptr;
        showOutcomes(*outcomes, *checks, *error);
        emit imported();
    });
}

int ResultImportDialog::addChecks(QTreeWidgetItem *file, const QVector<LineCheck> &lines)
{
    int mismatched = 0;
    for (const LineCheck &line : lines) {
        const QString where = line.line > 0 ? tr("Line %1").arg(line.line) : tr("Check");
        if (!line.hasArrays) {
            new QTreeWidgetItem(file, { where, tr("Not checked: no per-request arrays to recompute from") });
            continue;
        }
        int counts[4] = {};
        for (const KeyCheck &k : line.checks)
            ++counts[int(k.verdict)];
        mismatched += counts[int(KeyCheck::Verdict::Mismatched)];
        auto *item = new QTreeWidgetItem(file,
            { where,
                tr("Checked: %1 statistic(s) reproduced, %2 explained, %3 mismatched, %4 not reproducible")
                    .arg(counts[0])
                    .arg(counts[1])
                    .arg(counts[2])
                    .arg(counts[3]) });
        item->setIcon(
            0, style()->standardIcon(counts[2] > 0 ? QStyle::SP_MessageBoxCritical : QStyle::SP_DialogApplyButton));
        // The keys that did not reproduce, mismatches first, with the figures.
        QVector<KeyCheck> keys = line.checks;
        std::stable_partition(
            keys.begin(), keys.end(), [](const KeyCheck &k) { return k.verdict == KeyCheck::Verdict::Mismatched; });
        for (const KeyCheck &k : std::as_const(keys)) {
            if (k.verdict == KeyCheck::Verdict::Reproduced)
                continue;
            const QString figures = k.verdict == KeyCheck::Verdict::NotReproducible
                ? k.reason
                : tr("file %1, recomputed %2 (relative difference %3)%4")
                      .arg(k.fileValue, 0, 'g', 10)
                      .arg(k.recomputed, 0, 'g', 10)
                      .arg(k.relative, 0, 'g', 3)
                      .arg(k.reason.isEmpty() ? QString() : QStringLiteral(": ") + k.reason);
            auto *key = new QTreeWidgetItem(item, { k.key, figures });
            key->setToolTip(1, figures);
            if (k.verdict == KeyCheck::Verdict::Mismatched)
                key->setForeground(1, QColor(176, 0, 32));
        }
    }
    return mismatched;
}

void ResultImportDialog::showOutcomes(
    const QVector<ImportOutcome> &outcomes, const QVector<QVector<LineCheck>> &checks, const QString &error)
{
    m_buttons->button(QDialogButtonBox::Close)->setEnabled(true);
    if (!error.isEmpty()) {
        m_status->setText(tr("The project could not be opened for writing: %1").arg(error));
        return;
    }
    int runs = 0, failed = 0;
    for (qsizetype at = 0; at < outcomes.size(); ++at) {
        const ImportOutcome &o = outcomes[at];
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
            item->setToolTip(0, importedFromText(r.origin));
            if (r.failed) {
                // Nothing completed: a failed run, not a green tick over latencies of 0.
                item->setText(1, tr("every request failed: imported as a failed run"));
                item->setForeground(1, QColor(176, 0, 32));
                item->setIcon(0, style()->standardIcon(QStyle::SP_MessageBoxCritical));
                file->setIcon(0, style()->standardIcon(QStyle::SP_MessageBoxCritical));
                continue;
            }
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
        for (const QString &w : o.shownLines(o.warnings))
            add(tr("Warning"), w);
        for (const QString &e : o.shownLines(o.errors))
            add(tr("Error"), e);
        if (const int mismatched = addChecks(file, checks.value(at)); mismatched > 0) {
            file->setIcon(0, style()->standardIcon(QStyle::SP_MessageBoxCritical));
            file->setText(
                1, file->text(1) + tr("; %n statistic(s) do not match the file's arrays", nullptr, mismatched));
        }
    }
    m_outcomes->expandToDepth(0);
    m_outcomes->resizeColumnToContents(0);
    m_outcomes->setColumnWidth(0, std::min(m_outcomes->columnWidth(0), m_outcomes->viewport()->width() * 2 / 5));
    m_status->setText(failed == 0
            ? tr("%n run(s) imported; they are in the project tree.", nullptr, runs)
            : tr("%n run(s) imported; %1 file(s) had errors (their other lines were imported).", nullptr, runs)
                  .arg(failed));
}

} // namespace ServeScope

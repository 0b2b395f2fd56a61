// SPDX-License-Identifier: MIT
#include "commanddialog.h"

#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace ServeScope {

CommandDialog::CommandDialog(const QString &text, QWidget *parent)
    : QDialog(parent)
    , m_text(new QPlainTextEdit(this))
    , m_summary(new QLabel(this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setWindowTitle(tr("Paste command line"));
    m_text->setObjectName(QStringLiteral("commandText"));
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_text->setPlaceholderText(tr("vllm serve …, python -m sglang.launch_server …, vllm bench serve …, python -m "
                                  "sglang.bench_serving …, or a list of SGLang flags"));
    m_text->setPlainText(text);
    m_summary->setObjectName(QStringLiteral("commandSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::PlainText);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Apply to the experiment"));
    auto *layout = new QVBoxLayout(this);
    auto *intro = new QLabel(tr("A server command sets the server (a list of flags: one variant per flag); a "
                                "benchmark command sets the endpoint, dataset, load and metrics. A key in the text "
                                "is never kept, only its variable's name."));
    intro->setWordWrap(true);
    layout->addWidget(intro);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_summary);
    layout->addWidget(m_buttons);
    connect(m_text, &QPlainTextEdit::textChanged, this, &CommandDialog::reread);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    resize(760, 420);
    reread();
}

void CommandDialog::reread()
{
    m_result = importCommand(m_text->toPlainText(), tr("pasted command"));
    QStringList lines;
    if (m_result.hasServer)
        lines << tr("Server: %1 with %n argument(s)", nullptr, int(m_result.experiment.server.args.size()))
                     .arg(m_result.experiment.server.engine);
    if (m_result.experiment.variants.size() > 1)
        lines << tr("Variants: %n, one per flag", nullptr, int(m_result.experiment.variants.size()));
    if (m_result.hasBench) {
        const LoadPoint p = m_result.experiment.load.points.value(0);
        lines << tr("Benchmark: %1, dataset %2, %3 prompts of %4 → %5 tokens")
                     .arg(m_result.experiment.endpoint.baseUrl, m_result.experiment.dataset.name)
                     .arg(p.numPrompts)
                     .arg(p.inputLen)
                     .arg(p.outputLen);
    }
    // The core's words, in the language the CLI's stderr shows them.
    for (const QString &w : m_result.shownLines(m_result.warnings))
        lines << tr("Warning: %1").arg(w);
    if (!m_text->toPlainText().trimmed().isEmpty()) {
        for (const QString &e : m_result.shownLines(m_result.errors))
            lines << tr("Error: %1").arg(e);
    }
    m_summary->setText(lines.join(u'\n'));
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(m_result.ok);
}

} // namespace ServeScope

// SPDX-License-Identifier: MIT
#include "welcomepage.h"

#include <QFileInfo>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace ServeScope {

WelcomePage::WelcomePage(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("welcomePage"));
    auto *title = new QLabel(tr("<h2>Welcome to ServeScope</h2>"));
    auto *text
        = new QLabel(tr("Design a benchmark of an OpenAI-compatible endpoint (vLLM, SGLang or a gateway), run it, "
                        "and compare variants with reproducible numbers.<br><br>"
                        "New here? Open the demo: a concurrency sweep against the built-in simulator, vLLM "
                        "against SGLang and one variant that changes <tt>max_num_seqs</tt>. It needs no GPU and "
                        "finishes in under a minute."));
    text->setWordWrap(true);
    // A fixed width and the height that width needs: no line is cut at any window size.
    text->setFixedWidth(560);
    text->setMinimumHeight(text->heightForWidth(560));
    auto *demo = new QPushButton(tr("Open the demo experiment"));
    demo->setObjectName(QStringLiteral("welcomeDemo"));
    demo->setDefault(true);
    auto *fresh = new QPushButton(tr("New experiment"));
    auto *open = new QPushButton(tr("Open project…"));
    auto *import = new QPushButton(tr("Import experiment file (JSON, TOML)…"));
    auto *hint = new QLabel(tr("You can also drop experiment files onto this window."));
    hint->setStyleSheet(QStringLiteral("color: palette(mid);"));
    m_recent = new QLabel;
    m_recent->setObjectName(QStringLiteral("welcomeRecent"));
    m_recent->setFixedWidth(560);
    m_recent->setWordWrap(true);
    m_recent->hide();
    connect(m_recent, &QLabel::linkActivated, this, &WelcomePage::recentRequested);
    auto *layout = new QVBoxLayout(this);
    layout->addStretch(2);
    for (QWidget *w : std::initializer_list<QWidget *> { title, text, demo, fresh, open, import, hint, m_recent }) {
        if (auto *b = qobject_cast<QPushButton *>(w))
            b->setMinimumWidth(320);
        layout->addWidget(w, 0, Qt::AlignHCenter);
    }
    layout->addStretch(3);
    connect(demo, &QPushButton::clicked, this, &WelcomePage::demoRequested);
    connect(fresh, &QPushButton::clicked, this, &WelcomePage::newRequested);
    connect(open, &QPushButton::clicked, this, &WelcomePage::openRequested);
    connect(import, &QPushButton::clicked, this, &WelcomePage::importRequested);
}

void WelcomePage::setRecent(const QStringList &paths)
{
    QString html = QStringLiteral("<b>%1</b><br>").arg(tr("Recent projects").toHtmlEscaped());
    for (const QString &path : paths.mid(0, 5)) {
        html += QStringLiteral("<a href=\"%1\">%2</a> <span style=\"color: gray\">%3</span><br>")
                    .arg(path.toHtmlEscaped(), QFileInfo(path).fileName().toHtmlEscaped(),
                        QFileInfo(path).absolutePath().toHtmlEscaped());
    }
    m_recent->setText(html);
    m_recent->setMinimumHeight(m_recent->heightForWidth(560));
    m_recent->setVisible(!paths.isEmpty());
}

} // namespace ServeScope

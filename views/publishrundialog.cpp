// SPDX-License-Identifier: MIT
#include "publishrundialog.h"

#include "teamdbfields.h"

#include "teamdb/teamdbpublish.h"

#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QThread>
#include <QVBoxLayout>

#include <memory>

namespace ServeScope {

PublishRunDialog::PublishRunDialog(const QString &projectPath, qint64 runId, SecretStore *secrets, QWidget *parent)
    : QDialog(parent)
    , m_project(projectPath)
    , m_runId(runId)
    , m_secrets(secrets)
    , m_fields(new TeamDbFields(this))
    , m_tags(new QLineEdit)
    , m_id(new QLineEdit)
    , m_status(new QLabel)
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Close))
{
    setWindowTitle(tr("Publish run"));
    auto *form = new QFormLayout;
    form->addRow(tr("Run:"), new QLabel(tr("Run %1 of %2").arg(runId).arg(QFileInfo(projectPath).fileName())));
    m_fields->addRows(form);
    m_tags->setPlaceholderText(tr("Tags separated by spaces, e.g. nightly h100"));
    form->addRow(tr("Tags:"), m_tags);
    m_id->setReadOnly(true);
    form->addRow(tr("Stable id:"), m_id);
    m_status->setWordWrap(true);
    auto *publishButton = m_buttons->addButton(tr("&Publish"), QDialogButtonBox::AcceptRole);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_status);
    layout->addWidget(m_buttons);
    connect(publishButton, &QPushButton::clicked, this, &PublishRunDialog::publish);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    resize(640, 240);
}

PublishRunDialog::~PublishRunDialog()
{
    if (m_thread) {
        m_thread->wait();
        delete m_thread;
    }
}

void PublishRunDialog::reject()
{
    if (!m_thread)
        QDialog::reject();
}

void PublishRunDialog::publish()
{
    if (m_thread)
        return;
    for (const QString &tag : m_tags->text().split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        if (!isValidTag(tag)) {
            m_status->setText(tr("A tag is 1 to 64 characters without spaces or control characters."));
            return;
        }
    }
    m_buttons->setEnabled(false);
    m_status->setText(tr("Reading the password…"));
    m_fields->resolve(m_secrets, this, [this](const TeamDbUrl &url, const QByteArray &password, const QString &error) {
        if (!error.isEmpty()) {
            m_status->setText(tr("Not published: %1").arg(error));
            m_buttons->setEnabled(true);
            return;
        }
        start(url, password);
    });
}

void PublishRunDialog::start(const TeamDbUrl &url, const QByteArray &password)
{
    m_status->setText(tr("Publishing run %1…").arg(m_runId));
    auto result = std::make_shared<PublishResult>();
    PublishOptions options;
    options.tags = m_tags->text().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    m_thread = QThread::create([project = m_project, run = m_runId, url, password, options, result] {
        RunBundle bundle;
        if (!readRunBundle(project, QString::number(run), &bundle, &result->error))
            return;
        *result = publishRun(url, password, bundle, options);
    });
    connect(m_thread, &QThread::finished, this, [this, result] {
        m_thread->deleteLater();
        m_thread = nullptr;
        m_buttons->setEnabled(true);
        if (!result->ok) {
            m_status->setText(tr("Not published: %1").arg(result->error));
            return;
        }
        m_id->setText(result->uid);
        m_status->setText(result->existed
                ? tr("The run was published before; nothing new was stored but its tags.")
                : tr("Published %n request(s) in %1 try(s).", nullptr, int(result->requests)).arg(result->attempts));
        emit published(result->uid);
    });
    m_thread->start();
}

} // namespace ServeScope

// SPDX-License-Identifier: MIT
#include "filedialogs.h"

#include <QFileDialog>
#include <QMessageBox>

namespace ServeScope {

QFileDialog *chooseFile(
    QWidget *parent, bool save, const QString &title, const QString &filter, std::function<void(const QString &)> done)
{
    auto *dialog = new QFileDialog(parent, title, QString(), filter);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setAcceptMode(save ? QFileDialog::AcceptSave : QFileDialog::AcceptOpen);
    dialog->setFileMode(save ? QFileDialog::AnyFile : QFileDialog::ExistingFile);
    QObject::connect(dialog, &QFileDialog::fileSelected, dialog, [done](const QString &path) { done(path); });
    dialog->open();
    return dialog;
}

void chooseFiles(
    QWidget *parent, const QString &title, const QString &filter, std::function<void(const QStringList &)> done)
{
    auto *dialog = new QFileDialog(parent, title, QString(), filter);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setFileMode(QFileDialog::ExistingFiles);
    QObject::connect(dialog, &QFileDialog::filesSelected, dialog, [done](const QStringList &paths) { done(paths); });
    dialog->open();
}

void showWarning(QWidget *parent, const QString &title, const QString &text)
{
    auto *box = new QMessageBox(QMessageBox::Warning, title, text, QMessageBox::Ok, parent);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setObjectName(QStringLiteral("projectWarning"));
    box->open();
}

} // namespace ServeScope

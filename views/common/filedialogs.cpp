// SPDX-License-Identifier: MIT
#include "filedialogs.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QSettings>

namespace ServeScope {

namespace {

const QString kLastFolder = QStringLiteral("files/lastFolder");

// The file dialog's type column names a folder or drive in QAbstractFileIconProvider's words, which
// Debian's qtbase zh_CN catalogue lacks: ours carries them, looked up after Qt's own.
[[maybe_unused]] const struct {
    const char *source, *comment;
} kQtFolder = QT_TRANSLATE_NOOP3("QAbstractFileIconProvider", "Folder", "All other platforms");
[[maybe_unused]] const char *const kQtFileTypes[] = {
    QT_TRANSLATE_NOOP("QAbstractFileIconProvider", "Drive"),
    QT_TRANSLATE_NOOP("QAbstractFileIconProvider", "Unknown"),
};

QString lastFolder()
{
    const QString folder = QSettings().value(kLastFolder).toString();
    return !folder.isEmpty() && QFileInfo(folder).isDir() ? folder : QDir::homePath();
}

void rememberFolder(const QString &chosen)
{
    QSettings().setValue(kLastFolder, QFileInfo(chosen).absolutePath());
}

} // namespace

QFileDialog *chooseFile(QWidget *parent, bool save, const QString &title, const QString &filter,
    std::function<void(const QString &)> done, const QString &proposed)
{
    const QString start = QFileInfo(proposed).isAbsolute() ? proposed
        : proposed.isEmpty()                               ? lastFolder()
                                                           : QDir(lastFolder()).filePath(proposed);
    auto *dialog = new QFileDialog(parent, title, start, filter);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setAcceptMode(save ? QFileDialog::AcceptSave : QFileDialog::AcceptOpen);
    dialog->setFileMode(save ? QFileDialog::AnyFile : QFileDialog::ExistingFile);
    QObject::connect(dialog, &QFileDialog::fileSelected, dialog, [done](const QString &path) {
        rememberFolder(path);
        done(path);
    });
    dialog->open();
    return dialog;
}

void chooseFiles(
    QWidget *parent, const QString &title, const QString &filter, std::function<void(const QStringList &)> done)
{
    auto *dialog = new QFileDialog(parent, title, lastFolder(), filter);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setFileMode(QFileDialog::ExistingFiles);
    QObject::connect(dialog, &QFileDialog::filesSelected, dialog, [done](const QStringList &paths) {
        if (!paths.isEmpty())
            rememberFolder(paths.constFirst());
        done(paths);
    });
    dialog->open();
}

QString fileNameFor(const QString &name, const QString &suffix)
{
    QString out;
    for (const QChar c : name.trimmed())
        out += c.isLetterOrNumber() || c == u'.' || c == u'_' || c == u'-' ? c : QChar(u'-');
    while (out.startsWith(u'.') || out.startsWith(u'-'))
        out.remove(0, 1);
    return (out.isEmpty() ? QStringLiteral("experiment") : out) + suffix;
}

void showWarning(QWidget *parent, const QString &title, const QString &text)
{
    auto *box = new QMessageBox(QMessageBox::Warning, title, text, QMessageBox::Ok, parent);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setObjectName(QStringLiteral("projectWarning"));
    box->open();
}

} // namespace ServeScope
